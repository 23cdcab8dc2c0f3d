/* chaos/nodelog.c: the nodes' own logs as a second observer of when each
 * VM ran (DESIGN §12: "run intervals per sandbox from every node's own
 * log"). The watcher samples /proc five times a second and can miss a
 * double run shorter than that; the logs have every start and stop to the
 * millisecond:
 *   hangard.log  vmm.started / vmm.restored (a VM runs), vmm.stopped,
 *                lease.lost (its hangard learnt it lost the lease: fenced
 *                by then)
 *   shim.log     shim.fenced (the shim stopped the VM at its deadline,
 *                even with hangard dead or frozen), shim.unfenced (running
 *                again), shim.vmm_exited
 * read at the end of the run (every node's hangard.log, and the shim.log
 * of every sandbox and orphan dir still there) into "vmlog" events on the
 * history's clock. The checker turns them into run intervals. */
#include "runner.h"

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* "ts=2026-12-05T20:13:57.113Z ..." -> ms since the epoch; -1 when not. */
static double line_wall_ms(const char *line) {
  struct tm tm = {0};
  int ms;
  if (sscanf(line, "ts=%4d-%2d-%2dT%2d:%2d:%2d.%3dZ", &tm.tm_year, &tm.tm_mon, &tm.tm_mday,
             &tm.tm_hour, &tm.tm_min, &tm.tm_sec, &ms) != 7)
    return -1;
  tm.tm_year -= 1900;
  tm.tm_mon -= 1;
  return (double)timegm(&tm) * 1000.0 + ms;
}

/* The value of " key=" in line into out (up to a space), or "". */
static void field(const char *line, const char *key, char *out, size_t cap) {
  char pat[64];
  snprintf(pat, sizeof pat, " %s=", key);
  const char *p = strstr(line, pat);
  out[0] = '\0';
  if (!p) return;
  p += strlen(pat);
  size_t n = strcspn(p, " \n");
  if (n >= cap) n = cap - 1;
  memcpy(out, p, n);
  out[n] = '\0';
}

typedef struct kind_map {
  const char *event, *what;
} kind_map;

static const kind_map hangard_events[] = {
    {"vmm.started", "start"}, {"vmm.restored", "start"}, {"vmm.stopped", "stop"},
    {"lease.lost", "fence"},  {"lease.lost_running", "fence"},
};
static const kind_map shim_events[] = {
    {"shim.fenced", "fence"}, {"shim.unfenced", "start"}, {"shim.vmm_exited", "stop"},
};

/* One log file of node `node`; sb: the sandbox a shim.log belongs to
 * (NULL for hangard.log, whose lines name it). */
static void read_log(const char *path, int node, const char *sb, const kind_map *map, size_t nmap,
                     double wall0) {
  FILE *f = fopen(path, "r");
  if (!f) return;
  char line[2048];
  while (fgets(line, sizeof line, f)) {
    char ev[64], id[64], dir[1024], pid[24];
    field(line, "event", ev, sizeof ev);
    const char *what = NULL;
    for (size_t k = 0; k < nmap && !what; k++)
      if (strcmp(ev, map[k].event) == 0) what = map[k].what;
    double wall = what ? line_wall_ms(line) : -1;
    if (wall < 0) continue;
    if (sb) {
      snprintf(id, sizeof id, "%s", sb);
    } else {
      field(line, "sandbox", id, sizeof id);
      if (!id[0]) { /* vmm.*: the VM's dir ends in the sandbox id */
        field(line, "dir", dir, sizeof dir);
        const char *base = strrchr(dir, '/');
        snprintf(id, sizeof id, "%s", base ? base + 1 : "");
      }
    }
    if (strncmp(id, "sb-", 3) != 0) continue; /* a warm-pool VM, say */
    field(line, "vmm_pid", pid, sizeof pid);
    json_t *e = json_pack("{s:s,s:i,s:s,s:s,s:s}", "ev", "vmlog", "node", node, "sb", id, "what",
                          what, "src", ev);
    if (pid[0]) json_object_set_new(e, "pid", json_integer(atoi(pid)));
    ch_hist_at(e, wall - wall0);
  }
  fclose(f);
}

/* The shim.log of every dir under d (sandboxes/<sb>/, or with depth 1
 * orphans/<sb>/<epoch>/). */
static void read_shim_logs(const char *d, const char *sb, int node, int depth, double wall0) {
  DIR *dir = opendir(d);
  if (!dir) return;
  struct dirent *e;
  while ((e = readdir(dir))) {
    if (e->d_name[0] == '.' || strlen(e->d_name) > 63) continue;
    if (!sb && strncmp(e->d_name, "sb-", 3) != 0) continue;
    char sub[1024];
    snprintf(sub, sizeof sub, "%s/%s", d, e->d_name);
    const char *id = sb ? sb : e->d_name;
    if (depth > 0) {
      read_shim_logs(sub, id, node, depth - 1, wall0);
      continue;
    }
    char path[1100];
    snprintf(path, sizeof path, "%s/shim.log", sub);
    read_log(path, node, id, shim_events, sizeof shim_events / sizeof *shim_events, wall0);
  }
  closedir(dir);
}

void ch_record_vm_logs(const ch_run *run) {
  double wall0 = ch_wall0_ms();
  for (int i = 1; i <= run->nodes; i++) {
    char path[600];
    snprintf(path, sizeof path, "%s/n%d/hangard.log", run->cluster_dir, i);
    read_log(path, i, NULL, hangard_events, sizeof hangard_events / sizeof *hangard_events, wall0);
    snprintf(path, sizeof path, "%s/n%d/data/sandboxes", run->cluster_dir, i);
    read_shim_logs(path, NULL, i, 0, wall0);
    snprintf(path, sizeof path, "%s/n%d/data/orphans", run->cluster_dir, i);
    read_shim_logs(path, NULL, i, 1, wall0);
  }
}
