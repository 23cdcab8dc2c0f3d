/* chaos/inspect.c: what the runner looks at itself at the end of a run,
 * from the host and never through hangard: every node's generations on
 * its btrfs (before the teardown), and whatever the teardown left behind
 * (after it). Both go to the history; the checker judges them
 * (bad_generation, leftover). */
#include "runner.h"

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#define CH_STAGING_WAIT_S 10 /* a receive still going at the end gets this long */
#define CH_LEFTOVER_WAIT_MS 3000 /* a process still exiting gets this long */

static void sleep_s(int s) {
  struct timespec ts = {s, 0};
  nanosleep(&ts, NULL);
}

static bool all_digits(const char *s) {
  if (!*s) return false;
  for (; *s; s++)
    if (!isdigit((unsigned char)*s)) return false;
  return true;
}

/* `btrfs subvolume show` of path: *sub false when it is no subvolume;
 * else *ro and received (the Received UUID, "" when none). */
static void subvol_show(const char *path, bool *sub, bool *ro, char received[64]) {
  char cmd[4300], line[512];
  *sub = *ro = false;
  received[0] = '\0';
  snprintf(cmd, sizeof cmd, "btrfs subvolume show '%s' 2>/dev/null", path);
  FILE *p = popen(cmd, "r");
  if (!p) return;
  while (fgets(line, sizeof line, p)) {
    char *v;
    *sub = true;
    if ((v = strstr(line, "Received UUID:"))) {
      if (sscanf(v + 14, " %63s", received) != 1 || strcmp(received, "-") == 0) received[0] = '\0';
    } else if ((v = strstr(line, "Flags:"))) {
      *ro = strstr(v, "readonly") != NULL;
    }
  }
  if (pclose(p) != 0) *sub = false;
}

/* Each generation under DIR/n<i>/data/<where>/<sb>/<gen> as an event. */
static void scan_gens(const ch_run *run, int i, const char *where) {
  char d[600];
  snprintf(d, sizeof d, "%s/n%d/data/%s", run->cluster_dir, i, where);
  DIR *top = opendir(d);
  if (!top) return;
  struct dirent *e, *g;
  while ((e = readdir(top))) {
    if (strncmp(e->d_name, "sb-", 3) != 0 || strlen(e->d_name) > 63) continue;
    char sbd[700];
    snprintf(sbd, sizeof sbd, "%s/%s", d, e->d_name);
    DIR *gens = opendir(sbd);
    if (!gens) continue;
    while ((g = readdir(gens))) {
      if (!all_digits(g->d_name) || strlen(g->d_name) > 20) continue;
      char path[800], received[64];
      bool sub, ro;
      snprintf(path, sizeof path, "%s/%s", sbd, g->d_name);
      subvol_show(path, &sub, &ro, received);
      /* Gone between the listing and the look: its node dropped it (a
       * retention, a delete) while the run ended, which is no half-made
       * generation. Seed 85 of the 12-06 campaign took one for that. */
      struct stat st;
      if (!sub && lstat(path, &st) != 0 && errno == ENOENT) continue;
      ch_hist(json_pack("{s:s,s:i,s:s,s:s,s:s,s:b,s:b,s:s?}", "ev", "generation", "node", i,
                        "where", where, "sb", e->d_name, "gen", g->d_name, "subvol", sub, "ro",
                        ro, "received", received[0] ? received : NULL));
    }
    closedir(gens);
  }
  closedir(top);
}

/* The entries of node i's staging dir (in-flight receives), as an array. */
static json_t *staging_of(const ch_run *run, int i) {
  char d[600];
  snprintf(d, sizeof d, "%s/n%d/data/staging", run->cluster_dir, i);
  json_t *out = json_array();
  DIR *dir = opendir(d);
  if (!dir) return out;
  struct dirent *e;
  while ((e = readdir(dir)))
    if (e->d_name[0] != '.') json_array_append_new(out, json_string(e->d_name));
  closedir(dir);
  return out;
}

void ch_record_generations(const ch_run *run) {
  for (int i = 1; i <= run->nodes; i++) {
    scan_gens(run, i, "snapshots");
    scan_gens(run, i, "replicas");
  }
  /* A receive killed halfway must leave nothing: hangard deletes its
   * staging dir when the receive fails. One still going at the end (a
   * re-replication after the heal) gets a few seconds to finish. */
  json_t *left[CH_MAX_NODES + 1] = {0};
  for (int k = 0; k <= CH_STAGING_WAIT_S; k++) {
    bool any = false;
    for (int i = 1; i <= run->nodes; i++) {
      json_decref(left[i]);
      left[i] = staging_of(run, i);
      any |= json_array_size(left[i]) > 0;
    }
    if (!any) break;
    if (k < CH_STAGING_WAIT_S) sleep_s(1);
  }
  for (int i = 1; i <= run->nodes; i++)
    ch_hist(json_pack("{s:s,s:i,s:o}", "ev", "staging", "node", i, "entries", left[i]));
}

/* ---- after the teardown ------------------------------------------------------- */

/* One thing the teardown left: {"kind", "what"}. */
static void leftover_add(json_t *out, const char *kind, const char *what) {
  json_array_append_new(out, json_pack("{s:s,s:s}", "kind", kind, "what", what));
}

/* Processes whose command line names the run's directory (hangard, shims,
 * VMMs, receives: all run from DIR/n<i>/) or the delayer. */
static void leftover_processes(const ch_run *run, json_t *out) {
  char dir[300];
  snprintf(dir, sizeof dir, "%s/", run->cluster_dir);
  DIR *proc = opendir("/proc");
  if (!proc) return;
  struct dirent *e;
  while ((e = readdir(proc))) {
    if (!all_digits(e->d_name) || atoi(e->d_name) == getpid()) continue;
    char path[300], cl[4096];
    snprintf(path, sizeof path, "/proc/%s/cmdline", e->d_name);
    int n = ch_read_small(path, cl, sizeof cl);
    if (n <= 0) continue;
    for (int k = 0; k < n - 1; k++)
      if (cl[k] == '\0') cl[k] = ' ';
    if (!strstr(cl, dir) && !(run->delayer[0] && strstr(cl, run->delayer))) continue;
    char what[512]; /* d_name: digits only, checked above */
    snprintf(what, sizeof what, "pid %.20s: %.160s", e->d_name, cl);
    leftover_add(out, "process", what);
  }
  closedir(proc);
}

/* Network namespaces and the host link named with the run's prefix. */
static void leftover_net(const ch_run *run, json_t *out) {
  char pre[32];
  snprintf(pre, sizeof pre, "%s-", run->prefix);
  DIR *d = opendir("/run/netns");
  struct dirent *e;
  while (d && (e = readdir(d))) {
    if (strncmp(e->d_name, pre, strlen(pre)) == 0)
      leftover_add(out, "netns", e->d_name);
  }
  if (d) closedir(d);
  char link[300];
  struct stat st;
  snprintf(link, sizeof link, "/sys/class/net/%sh", pre);
  if (stat(link, &st) == 0)
    leftover_add(out, "link", link + 15);
}

/* Mounts under the run's directory or of its namespaces. */
static void leftover_mounts(const ch_run *run, json_t *out) {
  FILE *f = fopen("/proc/self/mountinfo", "r");
  if (!f) return;
  char line[4096], dir[300], ns[64];
  snprintf(dir, sizeof dir, "%s/", run->cluster_dir);
  snprintf(ns, sizeof ns, "/run/netns/%s-", run->prefix);
  while (fgets(line, sizeof line, f)) {
    char mnt[2048];
    if (sscanf(line, "%*s %*s %*s %*s %2047s", mnt) != 1) continue;
    if (strncmp(mnt, dir, strlen(dir)) == 0 || strcmp(mnt, run->cluster_dir) == 0 ||
        strncmp(mnt, ns, strlen(ns)) == 0)
      leftover_add(out, "mount", mnt);
  }
  fclose(f);
}

/* Loop devices backed by a file under the run's directory. */
static void leftover_loops(const ch_run *run, json_t *out) {
  char dir[300];
  snprintf(dir, sizeof dir, "%s/", run->cluster_dir);
  DIR *d = opendir("/sys/block");
  if (!d) return;
  struct dirent *e;
  while ((e = readdir(d))) {
    if (strncmp(e->d_name, "loop", 4) != 0) continue;
    char path[300], back[4096];
    snprintf(path, sizeof path, "/sys/block/%s/loop/backing_file", e->d_name);
    if (ch_read_small(path, back, sizeof back) <= 0) continue;
    back[strcspn(back, "\n")] = '\0';
    if (strncmp(back, dir, strlen(dir)) != 0) continue;
    char what[400];
    snprintf(what, sizeof what, "/dev/%.32s on %.300s", e->d_name, back);
    leftover_add(out, "loop", what);
  }
  closedir(d);
}

static json_t *leftovers(const ch_run *run) {
  json_t *out = json_array();
  leftover_processes(run, out);
  leftover_net(run, out);
  leftover_mounts(run, out);
  leftover_loops(run, out);
  return out;
}

void ch_record_leftovers(const ch_run *run) {
  json_t *left = leftovers(run);
  int waited = 0; /* a VMM still exiting after its SIGKILL, a loop device autoclearing */
  for (; waited < CH_LEFTOVER_WAIT_MS && json_array_size(left) > 0; waited += 100) {
    struct timespec ts = {0, 100 * 1000000L};
    nanosleep(&ts, NULL);
    json_decref(left);
    left = leftovers(run);
  }
  ch_hist(json_pack("{s:s,s:s,s:i,s:o}", "ev", "teardown", "dir", run->cluster_dir, "waited_ms",
                    waited, "leftovers", left));
}
