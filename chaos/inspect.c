/* chaos/inspect.c: what the runner looks at itself at the end of a run,
 * from the host and never through hangard: every node's generations on
 * its btrfs (before the teardown). It goes to the history; the checker
 * judges it (bad_generation). */
#include "runner.h"

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define CH_STAGING_WAIT_S 10 /* a receive still going at the end gets this long */

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
