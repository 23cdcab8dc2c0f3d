/* chaos/nodelog.c: the nodes' own logs as a second observer of when each
 * VM ran (DESIGN §12: "run intervals per sandbox from every node's own
 * log"). The watcher samples /proc five times a second and can miss a
 * double run shorter than that; the logs have every start and stop to the
 * millisecond:
 *   hangard.log  vmm.started / vmm.restored (a VM runs), vmm.stopped,
 *                vmm.adopt_failed (gone by then), lease.lost (its hangard
 *                learnt it lost the lease: fenced by then)
 *   shim.log     shim.fenced (the shim stopped the VM at its deadline,
 *                even with hangard dead or frozen), shim.unfenced (running
 *                again), shim.vmm_exited
 * into "vmlog" events on the history's clock: each shim.log followed by
 * the watcher while the run goes (its dir may not last), every node's
 * hangard.log read at the end. The checker turns them into run
 * intervals. hangard.log also gives, read at the end:
 *   cluster.member  "member" events: what each node's gossip thought of
 *                   each peer (alive, suspect, dead) from when; the page's
 *                   node lanes
 *   repl.sent, repl.received  "repl" events: each generation's totals
 *                   as its sender counted them and as its receiver did;
 *                   the checker holds the two against each other */
#include "runner.h"

#include <fcntl.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

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
    {"vmm.adopt_failed", "stop"}, /* a restarted hangard found the VM gone */
};
static const kind_map shim_events[] = {
    {"shim.fenced", "fence"}, {"shim.unfenced", "start"}, {"shim.vmm_exited", "stop"},
};

/* One line of node `node`'s log: a vmlog event when it says a VM started,
 * stopped or was fenced. sb: the sandbox a shim.log belongs to (NULL for
 * hangard.log, whose lines name it). */
static void one_line(const char *line, int node, const char *sb, const kind_map *map, size_t nmap,
                     double wall0) {
  char ev[64], id[64], dir[1024], pid[24];
  field(line, "event", ev, sizeof ev);
  const char *what = NULL;
  for (size_t k = 0; k < nmap && !what; k++)
    if (strcmp(ev, map[k].event) == 0) what = map[k].what;
  double wall = what ? line_wall_ms(line) : -1;
  if (wall < 0) return;
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
  if (strncmp(id, "sb-", 3) != 0) return; /* a warm-pool VM, say */
  field(line, "vmm_pid", pid, sizeof pid);
  json_t *e = json_pack("{s:s,s:i,s:s,s:s,s:s}", "ev", "vmlog", "node", node, "sb", id, "what",
                        what, "src", ev);
  if (pid[0]) json_object_set_new(e, "pid", json_integer(atoi(pid)));
  ch_hist_at(e, wall - wall0);
}

/* "n3" -> 3; 0 when id is no node of a run. */
static int node_no(const char *id) {
  char *end;
  long n = id[0] == 'n' ? strtol(id + 1, &end, 10) : 0;
  return n > 0 && n < 100 && id[1] && !*end ? (int)n : 0;
}

/* The message's own "node=" (the peer named), after the logger's. */
static void peer_field(const char *line, char *out, size_t cap) {
  const char *own = strstr(line, " node=");
  field(own ? own + 1 : line, "node", out, cap);
}

/* cluster.member: node `node` thinks its peer is in state= from then. */
static void member_line(const char *line, int node, double wall) {
  char peer[32], state[16];
  peer_field(line, peer, sizeof peer);
  field(line, "state", state, sizeof state);
  if (!node_no(peer) || !state[0] || node_no(peer) == node) return;
  ch_hist_at(json_pack("{s:s,s:i,s:i,s:s}", "ev", "member", "node", node, "peer", node_no(peer),
                       "state", state),
             wall);
}

/* repl.sent / repl.received of a sandbox's generation (a template's are
 * left out: they are no generation of the run's). */
static void repl_line(const char *line, int node, bool sent, double wall) {
  char sb[64], gen[24], peer[32], parent[32], raw[24], zstd[24], had[8];
  field(line, "sandbox", sb, sizeof sb);
  field(line, "gen", gen, sizeof gen);
  field(line, sent ? "to" : "from", peer, sizeof peer);
  field(line, "parent", parent, sizeof parent);
  field(line, "raw", raw, sizeof raw);
  field(line, "zstd", zstd, sizeof zstd);
  field(line, "had", had, sizeof had);
  if (strncmp(sb, "sb-", 3) != 0 || !gen[0] || !node_no(peer) || !raw[0] || !zstd[0]) return;
  ch_hist_at(json_pack("{s:s,s:i,s:s,s:s,s:i,s:I,s:s,s:I,s:I,s:b}", "ev", "repl", "node", node,
                       "dir", sent ? "sent" : "received", "sb", sb, "peer", node_no(peer), "gen",
                       (json_int_t)strtoull(gen, NULL, 10), "parent", parent,
                       "raw", (json_int_t)strtoull(raw, NULL, 10), "zstd",
                       (json_int_t)strtoull(zstd, NULL, 10), "had", atoi(had) != 0),
             wall);
}

/* A hangard.log line that is no VM's start or stop: membership, replication. */
static void other_line(const char *line, int node, double wall0) {
  char ev[64];
  field(line, "event", ev, sizeof ev);
  bool member = strcmp(ev, "cluster.member") == 0, sent = strcmp(ev, "repl.sent") == 0;
  if (!member && !sent && strcmp(ev, "repl.received") != 0) return;
  double wall = line_wall_ms(line);
  if (wall < 0) return;
  if (member) member_line(line, node, wall - wall0);
  else repl_line(line, node, sent, wall - wall0);
}

/* ---- shim logs: followed while the run goes ------------------------------------ */

/* A shim.log lives in its VM's dir, which goes with the sandbox's copy on
 * that node (a delete, a disown after a failover): read at the end, the
 * fence of a copy since dropped would be missing. So the watcher follows
 * every shim.log it passes, from where it last stopped. */
#define CH_FOLLOW_MAX 1024
#define CH_FOLLOW_CHUNK (64 * 1024)

typedef struct followed {
  char path[600];
  dev_t dev;
  ino_t ino;
  off_t off;
} followed;

static followed follows[CH_FOLLOW_MAX]; /* the watcher thread's alone */
static int nfollows;

static followed *follow_slot(const char *path) {
  for (int k = 0; k < nfollows; k++)
    if (strcmp(follows[k].path, path) == 0) return &follows[k];
  if (nfollows == CH_FOLLOW_MAX) return NULL;
  followed *f = &follows[nfollows++];
  snprintf(f->path, sizeof f->path, "%s", path);
  return f;
}

void ch_shimlog_follow(int node, const char *sb, const char *dir) {
  char path[600];
  if (snprintf(path, sizeof path, "%s/shim.log", dir) >= (int)sizeof path) return;
  int fd = open(path, O_RDONLY | O_CLOEXEC);
  if (fd < 0) return;
  struct stat st;
  followed *f = fstat(fd, &st) == 0 ? follow_slot(path) : NULL;
  if (f && (f->dev != st.st_dev || f->ino != st.st_ino || st.st_size < f->off)) {
    f->dev = st.st_dev, f->ino = st.st_ino, f->off = 0; /* a new file at that path */
  }
  static char buf[CH_FOLLOW_CHUNK + 1];
  ssize_t n = f && st.st_size > f->off ? pread(fd, buf, CH_FOLLOW_CHUNK, f->off) : 0;
  close(fd);
  if (n <= 0) return;
  buf[n] = '\0';
  char *p = buf, *nl;
  while ((nl = strchr(p, '\n'))) { /* whole lines only: the rest on the next pass */
    *nl = '\0';
    one_line(p, node, sb, shim_events, sizeof shim_events / sizeof *shim_events, ch_wall0_ms());
    p = nl + 1;
  }
  if (p == buf && n == CH_FOLLOW_CHUNK) p = buf + n; /* one line longer than a chunk: skipped */
  f->off += p - buf;
}

/* ---- hangard.log: read whole at the end (it stays in the node's dir) ----------- */

static void read_log(const char *path, int node, double wall0) {
  FILE *f = fopen(path, "r");
  if (!f) return;
  char line[2048];
  while (fgets(line, sizeof line, f)) {
    one_line(line, node, NULL, hangard_events, sizeof hangard_events / sizeof *hangard_events,
             wall0);
    other_line(line, node, wall0);
  }
  fclose(f);
}

void ch_record_node_logs(const ch_run *run) {
  double wall0 = ch_wall0_ms();
  for (int i = 1; i <= run->nodes; i++) {
    char path[600];
    snprintf(path, sizeof path, "%s/n%d/hangard.log", run->cluster_dir, i);
    read_log(path, i, wall0);
  }
}
