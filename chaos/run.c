/* chaos/run.c: the chaos runner. Starts a cluster with tools/cluster (its
 * own prefix and subnet), runs the lanes of workload.c and the observers
 * of observe.c while a nemesis plays a seeded fault schedule, heals,
 * records every node's view after the heal, tears the cluster down and
 * hands DIR to the checker (chaos/check), whose status it returns.
 *
 *   chaos/run --seed S [--nodes 3..5] [--duration 60] [--nemesis k1,k2,...]
 *             [--sandboxes N] [--out DIR]
 *   chaos/run --replay DIR [--out DIR2]      the schedule of DIR/run.json again
 */
#include "runner.h"

#include <curl/curl.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <libgen.h>
#include <limits.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#ifndef CH_SOURCE_DIR
#define CH_SOURCE_DIR "."
#endif
#define CH_LOCK "/tmp/hangar-it.lock"
#define CH_CONVERGE_MS 45000
#define CH_LEASE_MS 3000 /* hangard's default --lease-ms: stop goes past it */

const char *const ch_kind_names[F_KINDS] = {"kill",    "crash",   "stop",
                                             "partition", "oneway", "loss",
                                             "restart", "bridge",  "diskfull",
                                             "delay",   "kill-receive"};

static volatile sig_atomic_t interrupted;
static void on_signal(int sig) { (void)sig; interrupted = 1; }

static void sleep_ms(int64_t ms) {
  if (ms <= 0) return;
  struct timespec ts = {ms / 1000, (long)(ms % 1000) * 1000000L};
  while (nanosleep(&ts, &ts) < 0 && errno == EINTR && !interrupted) {}
}

/* ---- shell glue: tools/cluster and nft, output into OUT/cluster.log ------- */

static int sh(const ch_run *run, const char *fmt, ...) {
  char cmd[8192];
  va_list ap;
  va_start(ap, fmt);
  int n = vsnprintf(cmd, sizeof cmd, fmt, ap);
  va_end(ap);
  if (n < 0 || (size_t)n >= sizeof cmd) return -ENAMETOOLONG;
  char full[16384];
  if (snprintf(full, sizeof full, "{ echo '+ %.0f ms'; %s; } >> '%s/cluster.log' 2>&1 < /dev/null",
               ch_now(), cmd, run->out) >= (int)sizeof full)
    return -ENAMETOOLONG;
  int st = system(full);
  return WIFEXITED(st) ? WEXITSTATUS(st) : -EINTR;
}

static int cluster(const ch_run *run, const char *args) {
  return sh(run, "'%s' %s --dir '%s'", run->tool, args, run->cluster_dir);
}

static int node_pid(const ch_run *run, int i) {
  char path[512], buf[32] = "";
  snprintf(path, sizeof path, "%s/n%d/pid", run->cluster_dir, i);
  FILE *f = fopen(path, "r");
  if (!f) return 0;
  if (!fgets(buf, sizeof buf, f)) buf[0] = '\0';
  fclose(f);
  return atoi(buf);
}

static bool node_exited(const ch_run *run, int i) {
  char path[512];
  snprintf(path, sizeof path, "%s/n%d/exit", run->cluster_dir, i);
  return access(path, F_OK) == 0;
}

/* Until node i's hangard is gone (a crash kills the shell that would
 * write its exit file, so the pid is what tells). */
static void wait_exited(const ch_run *run, int i, int64_t ms) {
  int pid = node_pid(run, i);
  for (int64_t t = 0; t < ms && !node_exited(run, i); t += 100) {
    if (pid > 0 && kill(pid, 0) < 0 && errno == ESRCH) return;
    sleep_ms(100);
  }
}

/* bridge: node a hears everyone; the others, in order, alternate between
 * two halves, and no two in different halves hear each other (with three
 * nodes: the two others cut from each other, both still hearing a). */
static void bridge(const ch_run *run, int a, bool heal) {
  int side[CH_MAX_NODES + 1] = {0}, n = 0;
  char args[64];
  for (int i = 1; i <= run->nodes; i++)
    if (i != a) side[i] = n++ % 2;
  for (int x = 1; x <= run->nodes; x++)
    for (int y = x + 1; y <= run->nodes; y++) {
      if (x == a || y == a || side[x] == side[y]) continue;
      snprintf(args, sizeof args, "%s %d %d", heal ? "heal" : "partition", x, y);
      cluster(run, args);
    }
}

#define FILL_FILES 64

static void fill_path(const ch_run *run, int a, int k, char path[700]) {
  snprintf(path, 700, "%s/n%d/data/chaos-fill-%d", run->cluster_dir, a, k);
}

/* diskfull: node a's btrfs (its data dir is the image's mount) filled with
 * preallocated files until what is left is under 1 MiB or a file no
 * longer fits (btrfs keeps some for metadata). Removed at the heal. The
 * bytes taken go to the history. */
static void disk_fill(const ch_run *run, int id, int a) {
  char dir[600], path[700];
  snprintf(dir, sizeof dir, "%s/n%d/data", run->cluster_dir, a);
  int64_t taken = 0;
  for (int k = 0; k < FILL_FILES; k++) {
    struct statvfs sv;
    if (statvfs(dir, &sv) < 0) break;
    int64_t want = (int64_t)sv.f_bavail * (int64_t)sv.f_frsize;
    if (want < (1 << 20)) break;
    fill_path(run, a, k, path);
    int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
    if (fd < 0) break;
    int rc = -1;
    while (want >= (1 << 20) && (rc = fallocate(fd, 0, 0, want)) < 0 && errno == ENOSPC)
      want /= 2;
    close(fd);
    if (rc < 0) break;
    taken += want;
  }
  ch_hist(json_pack("{s:s,s:i,s:i,s:I}", "ev", "diskfull", "id", id, "node", a, "bytes",
                    (json_int_t)taken));
}

static void disk_free(const ch_run *run, int a) {
  char path[700];
  for (int k = 0; k < FILL_FILES; k++) {
    fill_path(run, a, k, path);
    unlink(path);
  }
}

/* One fault's nft table in node a's namespace. */
static int nft_table(const ch_run *run, int id, int a, const char *rules) {
  char path[4200];
  snprintf(path, sizeof path, "%s/nft-%d.nft", run->out, id);
  FILE *f = fopen(path, "w");
  if (!f) return -errno;
  fprintf(f,
          "table inet hgchaos_%d {\n"
          "  chain input { type filter hook input priority -20; policy accept; %s }\n"
          "}\n", id, rules);
  fclose(f);
  return sh(run, "'%s' exec %d --dir '%s' -- nft -f '%s'", run->tool, a, run->cluster_dir, path);
}

static void nft_drop_table(const ch_run *run, int id, int a) {
  sh(run, "'%s' exec %d --dir '%s' -- nft delete table inet hgchaos_%d", run->tool, a,
     run->cluster_dir, id);
}

/* delay: an iptables chain in node a's namespace sends what other nodes
 * send it (not the host's probes) to NFQUEUE 100+id, where hg-chaos-delay,
 * started in that namespace, holds each packet. iptables, not nft: this
 * kernel has the xt NFQUEUE target but no nft queue expression. Bypass:
 * with the delayer gone, packets pass. */
static pid_t delayers[CH_MAX_FAULTS];

static void delay_begin(const ch_run *run, int id, const ch_fault *f) {
  char chain[32], q[16], lo[16], hi[16], seed[32], ns[300];
  snprintf(chain, sizeof chain, "HGCH%d", id);
  sh(run, "'%s' exec %d --dir '%s' -- sh -c 'iptables -N %s && iptables -A %s -s %s.254 -j "
          "RETURN && iptables -A %s -s %s.0/24 -j NFQUEUE --queue-num %d --queue-bypass && "
          "iptables -I INPUT -j %s'", run->tool, f->a, run->cluster_dir, chain, chain,
     run->subnet, chain, run->subnet, 100 + id, chain);
  snprintf(q, sizeof q, "%d", 100 + id);
  snprintf(lo, sizeof lo, "%d", f->min_ms);
  snprintf(hi, sizeof hi, "%d", f->max_ms);
  snprintf(seed, sizeof seed, "%llu", (unsigned long long)(run->seed * 131 + (uint64_t)id));
  snprintf(ns, sizeof ns, "--net=/run/netns/%s-n%d", run->prefix, f->a);
  pid_t pid = fork();
  if (pid == 0) {
    char log[4200];
    snprintf(log, sizeof log, "%s/cluster.log", run->out);
    int fd = open(log, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0644);
    if (fd >= 0) dup2(fd, 2);
    execlp("nsenter", "nsenter", ns, "--", run->delayer, "--queue", q, "--min-ms", lo,
           "--max-ms", hi, "--seed", seed, (char *)NULL);
    _exit(127);
  }
  delayers[id] = pid > 0 ? pid : 0;
}

static void delay_end(const ch_run *run, int id, int a) {
  if (delayers[id] > 0) {
    kill(delayers[id], SIGTERM);
    waitpid(delayers[id], NULL, 0);
    delayers[id] = 0;
  }
  sh(run, "'%s' exec %d --dir '%s' -- sh -c 'iptables -D INPUT -j HGCH%d; iptables -F HGCH%d; "
          "iptables -X HGCH%d'", run->tool, a, run->cluster_dir, id, id, id);
}

/* kill-receive: while it lasts, every `btrfs receive` of node a (its
 * staging dir is under DIR/n<a>/data/) is SIGKILLed as soon as it is seen
 * (a scan of /proc every 20 ms): replication streams to a die halfway. */
typedef struct recv_killer {
  const ch_run *run;
  int id, a;
  volatile int stop;
  pthread_t th;
  bool on;
} recv_killer;
static recv_killer killers[CH_MAX_FAULTS];

static bool is_receive_of(const ch_run *run, int a, const char *pid) {
  char path[64], cmd[4096], where[300];
  snprintf(path, sizeof path, "/proc/%s/cmdline", pid);
  int fd = open(path, O_RDONLY | O_CLOEXEC);
  if (fd < 0) return false;
  ssize_t n = read(fd, cmd, sizeof cmd - 1);
  close(fd);
  if (n <= 0) return false;
  cmd[n] = '\0';
  const char *argv1 = cmd + strlen(cmd) + 1;
  if (strcmp(basename(cmd), "btrfs") != 0 || argv1 >= cmd + n || strcmp(argv1, "receive"))
    return false;
  snprintf(where, sizeof where, "%s/n%d/data/", run->cluster_dir, a);
  for (const char *p = argv1; p < cmd + n; p += strlen(p) + 1)
    if (strstr(p, where)) return true;
  return false;
}

static void *killer_main(void *arg) {
  recv_killer *k = arg;
  while (!k->stop && !interrupted) {
    DIR *d = opendir("/proc");
    struct dirent *e;
    while (d && (e = readdir(d))) {
      if (e->d_name[0] < '1' || e->d_name[0] > '9' || !is_receive_of(k->run, k->a, e->d_name))
        continue;
      if (kill(atoi(e->d_name), SIGKILL) == 0)
        ch_hist(json_pack("{s:s,s:i,s:i,s:i}", "ev", "killed_receive", "id", k->id, "node",
                          k->a, "pid", atoi(e->d_name)));
    }
    if (d) closedir(d);
    sleep_ms(20);
  }
  return NULL;
}

static void killer_begin(const ch_run *run, int id, int a) {
  recv_killer *k = &killers[id];
  *k = (recv_killer){.run = run, .id = id, .a = a};
  k->on = pthread_create(&k->th, NULL, killer_main, k) == 0;
}

static void killer_end(int id) {
  recv_killer *k = &killers[id];
  if (!k->on) return;
  k->stop = 1;
  pthread_join(k->th, NULL);
  k->on = false;
}

static void fault_begin(const ch_run *run, int id, const ch_fault *f) {
  char args[64], rules[256];
  switch (f->kind) {
  case F_KILL:
    snprintf(args, sizeof args, "kill %d", f->a);
    cluster(run, args);
    break;
  case F_CRASH: /* the whole host: hangard, its shims and VMs at once */
    snprintf(args, sizeof args, "crash %d", f->a);
    cluster(run, args);
    break;
  case F_STOP:
    snprintf(args, sizeof args, "stop %d", f->a);
    cluster(run, args);
    break;
  case F_PARTITION:
    snprintf(args, sizeof args, "partition %d %d", f->a, f->b);
    cluster(run, args);
    break;
  case F_ONEWAY: /* a stops hearing b; b still hears a */
    snprintf(rules, sizeof rules, "ip saddr %s.%d drop;", run->subnet, f->b);
    nft_table(run, id, f->a, rules);
    break;
  case F_LOSS: /* among the nodes only: the host's probes are not the fault */
    snprintf(rules, sizeof rules,
             "ip saddr %s.0/24 ip saddr != %s.254 numgen random mod 100 < %d drop;",
             run->subnet, run->subnet, f->pct);
    nft_table(run, id, f->a, rules);
    break;
  case F_RESTART:
    snprintf(args, sizeof args, "kill %d TERM", f->a);
    cluster(run, args);
    wait_exited(run, f->a, 20000);
    break;
  case F_BRIDGE: bridge(run, f->a, false); break;
  case F_DISKFULL: disk_fill(run, id, f->a); break;
  case F_DELAY: delay_begin(run, id, f); break;
  case F_KILLRECV: killer_begin(run, id, f->a); break;
  default: break;
  }
}

static void fault_end(const ch_run *run, int id, const ch_fault *f) {
  char args[64];
  switch (f->kind) {
  case F_KILL:
  case F_CRASH:
  case F_RESTART:
    wait_exited(run, f->a, 5000);
    snprintf(args, sizeof args, "start %d", f->a);
    cluster(run, args);
    break;
  case F_STOP:
    snprintf(args, sizeof args, "cont %d", f->a);
    cluster(run, args);
    break;
  case F_PARTITION:
    snprintf(args, sizeof args, "heal %d %d", f->a, f->b);
    cluster(run, args);
    break;
  case F_ONEWAY:
  case F_LOSS: nft_drop_table(run, id, f->a); break;
  case F_BRIDGE: bridge(run, f->a, true); break;
  case F_DISKFULL: disk_free(run, f->a); break;
  case F_DELAY: delay_end(run, id, f->a); break;
  case F_KILLRECV: killer_end(id); break;
  default: break;
  }
}

static json_t *fault_json(const ch_fault *f) {
  json_t *j = json_pack("{s:I,s:I,s:s,s:i}", "at", (json_int_t)f->at_ms, "dur",
                        (json_int_t)f->dur_ms, "kind", ch_kind_names[f->kind], "a", f->a);
  if (f->b) json_object_set_new(j, "b", json_integer(f->b));
  if (f->kind == F_LOSS) json_object_set_new(j, "pct", json_integer(f->pct));
  if (f->kind == F_DELAY) {
    json_object_set_new(j, "min_ms", json_integer(f->min_ms));
    json_object_set_new(j, "max_ms", json_integer(f->max_ms));
  }
  return j;
}

static void *nemesis_main(void *arg) {
  ch_run *run = arg;
  for (int k = 0; k < run->nfaults && !interrupted; k++) {
    const ch_fault *f = &run->faults[k];
    sleep_ms((int64_t)(f->at_ms - ch_now()));
    if (run->stop_lanes || interrupted) break;
    json_t *ev = fault_json(f);
    json_object_set_new(ev, "ev", json_string("fault"));
    json_object_set_new(ev, "id", json_integer(k));
    json_object_set_new(ev, "phase", json_string("start"));
    ch_hist(ev);
    fault_begin(run, k, f);
    /* in effect from here: a crash's VMs are dead by now (one a restore
     * started while the crash command ran included) */
    ch_hist(json_pack("{s:s,s:i,s:s,s:s,s:i}", "ev", "fault", "id", k, "phase", "applied", "kind",
                      ch_kind_names[f->kind], "a", f->a));
    sleep_ms(f->dur_ms);
    fault_end(run, k, f);
    ev = fault_json(f);
    json_object_set_new(ev, "ev", json_string("fault"));
    json_object_set_new(ev, "id", json_integer(k));
    json_object_set_new(ev, "phase", json_string("end"));
    ch_hist(ev);
  }
  return NULL;
}

/* ---- the schedule: everything from the seed -------------------------------- */

static uint64_t rnd(uint64_t *s) {
  uint64_t z = (*s += 0x9E3779B97F4A7C15ULL);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
  return z ^ (z >> 31);
}
static int64_t between(uint64_t *s, int64_t lo, int64_t hi) {
  return lo + (int64_t)(rnd(s) % (uint64_t)(hi - lo + 1));
}

/* One fault at a time, each on random nodes, 1-3 s apart, all ended a
 * second before the workload stops. */
static void make_schedule(ch_run *run) {
  uint64_t s = run->seed ^ 0xC4A05C4A05ULL;
  ch_kind kinds[F_KINDS];
  int nk = 0;
  for (int k = 0; k < F_KINDS; k++)
    if (run->nemesis_mask & (1u << k)) kinds[nk++] = (ch_kind)k;
  int64_t t = between(&s, 2000, 4000), end = (int64_t)run->duration_s * 1000 - 1000;
  run->nfaults = 0;
  while (nk > 0 && run->nfaults < CH_MAX_FAULTS) {
    ch_fault f = {.at_ms = t, .kind = kinds[between(&s, 0, nk - 1)]};
    f.a = (int)between(&s, 1, run->nodes);
    f.b = run->nodes > 1 ? 1 + (f.a - 1 + (int)between(&s, 1, run->nodes - 1)) % run->nodes : 0;
    switch (f.kind) {
    case F_KILL: f.dur_ms = between(&s, 1000, 4000); break;
    case F_CRASH: f.dur_ms = between(&s, 2000, 6000); break;
    case F_STOP: f.dur_ms = CH_LEASE_MS + between(&s, 1000, 4000); break;
    case F_RESTART: f.dur_ms = between(&s, 200, 1000); break;
    case F_LOSS: f.pct = (int)between(&s, 20, 60); /* fall through */
    case F_DELAY:
      f.min_ms = (int)between(&s, 10, 100);
      f.max_ms = f.min_ms + (int)between(&s, 100, 700);
      /* fall through */
    default: f.dur_ms = between(&s, 3000, 8000); break;
    }
    if (f.kind != F_PARTITION && f.kind != F_ONEWAY) f.b = 0;
    if ((f.kind == F_PARTITION || f.kind == F_ONEWAY) && !f.b) continue;
    if (t + f.dur_ms > end) break;
    run->faults[run->nfaults++] = f;
    t += f.dur_ms + between(&s, 1000, 3000);
  }
}

/* ---- options, run.json ------------------------------------------------------ */

static int parse_nemesis(const char *list, unsigned *mask) {
  char buf[512];
  snprintf(buf, sizeof buf, "%s", list);
  *mask = 0;
  for (char *save, *tok = strtok_r(buf, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
    int k;
    for (k = 0; k < F_KINDS && strcmp(tok, ch_kind_names[k]) != 0; k++) {}
    if (k == F_KINDS) {
      fprintf(stderr, "chaos/run: unknown nemesis '%s' (kill,crash,stop,partition,oneway,"
              "loss,restart,bridge,diskfull,delay,kill-receive)\n", tok);
      return -EINVAL;
    }
    *mask |= 1u << k;
  }
  return 0;
}

static json_t *run_json(const ch_run *run) {
  json_t *nem = json_array(), *sched = json_array();
  for (int k = 0; k < F_KINDS; k++)
    if (run->nemesis_mask & (1u << k)) json_array_append_new(nem, json_string(ch_kind_names[k]));
  for (int k = 0; k < run->nfaults; k++) json_array_append_new(sched, fault_json(&run->faults[k]));
  return json_pack("{s:I,s:i,s:i,s:i,s:o,s:o,s:s,s:s,s:s}", "seed", (json_int_t)run->seed,
                   "nodes", run->nodes, "duration", run->duration_s, "sandboxes", run->lanes,
                   "nemesis", nem, "schedule", sched, "prefix", run->prefix, "subnet",
                   run->subnet, "cluster_dir", run->cluster_dir);
}

static int load_replay(ch_run *run, const char *dir) {
  char path[4200];
  snprintf(path, sizeof path, "%s/run.json", dir);
  json_error_t e;
  json_t *j = json_load_file(path, 0, &e);
  if (!j) {
    fprintf(stderr, "chaos/run: cannot read %s: %s\n", path, e.text);
    return -ENOENT;
  }
  run->seed = (uint64_t)json_integer_value(json_object_get(j, "seed"));
  run->nodes = (int)json_integer_value(json_object_get(j, "nodes"));
  run->duration_s = (int)json_integer_value(json_object_get(j, "duration"));
  run->lanes = (int)json_integer_value(json_object_get(j, "sandboxes"));
  run->nemesis_mask = 0;
  size_t i;
  json_t *v;
  json_array_foreach(json_object_get(j, "nemesis"), i, v) {
    for (int k = 0; k < F_KINDS; k++)
      if (json_is_string(v) && strcmp(json_string_value(v), ch_kind_names[k]) == 0)
        run->nemesis_mask |= 1u << k;
  }
  run->nfaults = 0;
  json_array_foreach(json_object_get(j, "schedule"), i, v) {
    if (run->nfaults >= CH_MAX_FAULTS) break;
    ch_fault *f = &run->faults[run->nfaults];
    const char *kind = json_string_value(json_object_get(v, "kind"));
    int k;
    for (k = 0; k < F_KINDS && (!kind || strcmp(kind, ch_kind_names[k]) != 0); k++) {}
    if (k == F_KINDS) continue;
    *f = (ch_fault){.at_ms = json_integer_value(json_object_get(v, "at")),
                    .dur_ms = json_integer_value(json_object_get(v, "dur")),
                    .kind = (ch_kind)k,
                    .a = (int)json_integer_value(json_object_get(v, "a")),
                    .b = (int)json_integer_value(json_object_get(v, "b")),
                    .pct = (int)json_integer_value(json_object_get(v, "pct")),
                    .min_ms = (int)json_integer_value(json_object_get(v, "min_ms")),
                    .max_ms = (int)json_integer_value(json_object_get(v, "max_ms"))};
    if (f->a >= 1 && f->a <= run->nodes && f->b >= 0 && f->b <= run->nodes) run->nfaults++;
  }
  json_decref(j);
  return 0;
}

static void usage(void) {
  fprintf(stderr,
          "usage: chaos/run --seed S [--nodes 3..5] [--duration SECONDS] [--nemesis LIST]\n"
          "                 [--sandboxes N] [--out DIR] [--bin HANGARD] [--template-dir DIR]\n"
          "       chaos/run --replay DIR [--out DIR2]\n"
          "nemeses: kill,crash,stop,partition,oneway,loss,restart,bridge,diskfull,delay,\n"
          "         kill-receive (default: all)\n");
}

static void exe_dir(char *out, size_t cap) {
  char exe[PATH_MAX];
  ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
  exe[n > 0 ? n : 0] = '\0';
  snprintf(out, cap, "%s", dirname(exe));
}

static int parse_args(ch_run *run, int argc, char **argv) {
  static const struct option opts[] = {
      {"seed", 1, 0, 's'},      {"nodes", 1, 0, 'n'},  {"duration", 1, 0, 'd'},
      {"nemesis", 1, 0, 'm'},   {"sandboxes", 1, 0, 'k'}, {"out", 1, 0, 'o'},
      {"replay", 1, 0, 'r'},    {"bin", 1, 0, 'b'},    {"template-dir", 1, 0, 't'},
      {"help", 0, 0, 'h'},      {0, 0, 0, 0}};
  const char *replay = NULL,
             *nemesis = "kill,crash,stop,partition,oneway,loss,restart,bridge,diskfull,delay,"
                        "kill-receive";
  bool have_seed = false;
  int c;
  while ((c = getopt_long(argc, argv, "", opts, NULL)) != -1) {
    switch (c) {
    case 's': run->seed = strtoull(optarg, NULL, 10); have_seed = true; break;
    case 'n': run->nodes = atoi(optarg); break;
    case 'd': run->duration_s = atoi(optarg); break;
    case 'm': nemesis = optarg; break;
    case 'k': run->lanes = atoi(optarg); break;
    case 'o': snprintf(run->out, sizeof run->out, "%s", optarg); break;
    case 'r': replay = optarg; break;
    case 'b': snprintf(run->bin, sizeof run->bin, "%s", optarg); break;
    case 't': snprintf(run->template_dir, sizeof run->template_dir, "%s", optarg); break;
    default: usage(); return c == 'h' ? 1 : -EINVAL;
    }
  }
  if (optind != argc || (!replay && !have_seed)) {
    usage();
    return -EINVAL;
  }
  if (replay) {
    if (load_replay(run, replay) < 0) return -EINVAL;
    if (!run->out[0]) snprintf(run->out, sizeof run->out, "%s/replay-%ld", replay, (long)time(NULL));
  } else {
    if (parse_nemesis(nemesis, &run->nemesis_mask) < 0) return -EINVAL;
    if (!run->out[0])
      snprintf(run->out, sizeof run->out, "chaos-out/seed-%llu", (unsigned long long)run->seed);
  }
  if (run->nodes < 3 || run->nodes > CH_MAX_NODES || run->duration_s < 5 ||
      run->duration_s > 3600 || run->lanes < 1 || run->lanes > CH_MAX_LANES) {
    fprintf(stderr, "chaos/run: --nodes is 3..5, --duration 5..3600, --sandboxes 1..%d\n",
            CH_MAX_LANES);
    return -EINVAL;
  }
  if (!replay) make_schedule(run);
  char ed[PATH_MAX];
  exe_dir(ed, sizeof ed);
  const char *b = getenv("HANGARD_BIN"), *t = getenv("HANGAR_TEMPLATE_DIR");
  if (!run->bin[0]) snprintf(run->bin, sizeof run->bin, "%s", b && *b ? b : "");
  if (!run->bin[0] && snprintf(run->bin, sizeof run->bin, "%s/../node/hangard", ed) >= (int)sizeof run->bin)
    return -ENAMETOOLONG;
  if (!run->template_dir[0] && t && *t) snprintf(run->template_dir, sizeof run->template_dir, "%s", t);
  snprintf(run->tool, sizeof run->tool, "%s/tools/cluster", CH_SOURCE_DIR);
  if (snprintf(run->delayer, sizeof run->delayer, "%s/hg-chaos-delay", ed) >=
      (int)sizeof run->delayer)
    return -ENAMETOOLONG;
  return 0;
}

static int read_key(ch_run *run) {
  char path[512], line[512];
  snprintf(path, sizeof path, "%s/env", run->cluster_dir);
  FILE *f = fopen(path, "r");
  if (!f) return -errno;
  while (fgets(line, sizeof line, f)) {
    const char *k = strstr(line, "export HANGAR_KEY=");
    if (k == line) {
      if (snprintf(run->key, sizeof run->key, "%s", k + strlen("export HANGAR_KEY=")) >=
          (int)sizeof run->key)
        run->key[0] = '\0';
      run->key[strcspn(run->key, "\r\n")] = '\0';
    }
  }
  fclose(f);
  return run->key[0] ? 0 : -ENOENT;
}

/* ---- heal, converge, final views -------------------------------------------- */

static void heal_all(ch_run *run) {
  cluster(run, "heal");
  for (int k = 0; k < run->nfaults; k++) { /* an interrupted run's */
    killer_end(k);
    if (delayers[k] > 0) delay_end(run, k, run->faults[k].a);
  }
  for (int i = 1; i <= run->nodes; i++) {
    sh(run, "'%s' exec %d --dir '%s' -- sh -c \"nft list tables | awk '/hgchaos_/ {print \\$3}' | "
            "while read t; do nft delete table inet \\$t; done\"", run->tool, i, run->cluster_dir);
    int pid = node_pid(run, i);
    if (pid > 0) kill(pid, SIGCONT);
    if (node_exited(run, i) || (pid > 0 && kill(pid, 0) < 0 && errno == ESRCH)) {
      char args[32];
      snprintf(args, sizeof args, "start %d", i);
      cluster(run, args);
    }
  }
}

/* Node i's directory as {sb: "owner/state/epoch"} (live entries only), or
 * NULL when it does not answer. */
static json_t *dir_view(const ch_run *run, int i, int *alive) {
  ch_resp r;
  *alive = -1;
  ch_http(run, i, "GET", "/v1/cluster/members", NULL, 3000, &r);
  if (r.status == 200) {
    size_t k;
    json_t *m;
    *alive = 0;
    json_array_foreach(json_object_get(r.json, "members"), k, m) {
      const char *st = json_string_value(json_object_get(m, "state"));
      if (st && strcmp(st, "alive") == 0) (*alive)++;
    }
  }
  ch_resp_free(&r);
  ch_http(run, i, "GET", "/v1/cluster/sandboxes", NULL, 3000, &r);
  if (r.status != 200 || !r.json) {
    ch_resp_free(&r);
    return NULL;
  }
  json_t *view = json_object(), *e;
  size_t k;
  json_array_foreach(json_object_get(r.json, "sandboxes"), k, e) {
    const char *id = json_string_value(json_object_get(e, "sandbox"));
    const char *st = json_string_value(json_object_get(e, "state"));
    if (!id || (st && strcmp(st, "deleted") == 0)) continue;
    json_object_set_new(view, id, json_pack("{s:s?,s:s?,s:I}", "owner",
                                            json_string_value(json_object_get(e, "owner")),
                                            "state", st, "epoch",
                                            json_integer_value(json_object_get(e, "epoch"))));
  }
  ch_resp_free(&r);
  return view;
}

static void converge_and_record(ch_run *run) {
  double t0 = ch_now();
  json_t *views[CH_MAX_NODES + 1] = {0};
  int alive[CH_MAX_NODES + 1];
  bool agree = false;
  while (!interrupted) {
    agree = true;
    for (int i = 1; i <= run->nodes; i++) {
      json_decref(views[i]);
      views[i] = dir_view(run, i, &alive[i]);
      if (!views[i] || alive[i] != run->nodes) agree = false;
      else if (i > 1 && views[1] && !json_equal(views[1], views[i])) agree = false;
    }
    if (agree || ch_now() - t0 > CH_CONVERGE_MS) break;
    sleep_ms(1000);
  }
  ch_hist(json_pack("{s:s,s:b,s:f}", "ev", "converge", "ok", agree, "ms", ch_now() - t0));
  for (int i = 1; i <= run->nodes; i++) {
    ch_hist(json_pack("{s:s,s:i,s:b,s:i,s:O?}", "ev", "final_dir", "node", i, "answered",
                      views[i] != NULL, "alive", alive[i], "sandboxes", views[i]));
    json_decref(views[i]);
  }
  char ids[256][64];
  int n = ch_known_sandboxes(ids, 256);
  for (int k = 0; k < n; k++) {
    for (int i = 1; i <= run->nodes; i++) {
      char path[160];
      snprintf(path, sizeof path, "/v1/sandboxes/%s", ids[k]);
      ch_resp r;
      ch_http(run, i, "GET", path, NULL, 5000, &r);
      json_t *ev = json_pack("{s:s,s:i,s:s,s:i}", "ev", "final_sb", "node", i, "sb", ids[k],
                             "status", (int)r.status);
      if (r.status == 200) {
        json_t *v;
        if ((v = json_object_get(r.json, "node"))) json_object_set(ev, "owner", v);
        if ((v = json_object_get(r.json, "state"))) json_object_set(ev, "state", v);
        if ((v = json_object_get(r.json, "epoch"))) json_object_set(ev, "epoch", v);
      }
      ch_hist(ev);
      ch_resp_free(&r);
    }
  }
}

/* ---- main ---------------------------------------------------------------------- */

static int take_lock(void) {
  if (getenv("HANGAR_IT_LOCK_HELD")) return -1; /* ctest runs us under flock already */
  int fd = open(CH_LOCK, O_RDWR | O_CREAT | O_CLOEXEC, 0666);
  if (fd < 0) return -1;
  fprintf(stderr, "chaos/run: waiting for %s\n", CH_LOCK);
  if (flock(fd, LOCK_EX) < 0) {
    close(fd);
    return -1;
  }
  return fd;
}

int main(int argc, char **argv) {
  static ch_run run = {.nodes = 3, .duration_s = 60, .lanes = 3};
  snprintf(run.prefix, sizeof run.prefix, "hgch");
  snprintf(run.subnet, sizeof run.subnet, "10.251.74");
  snprintf(run.cluster_dir, sizeof run.cluster_dir, "/tmp/hg-chaos");
  int rc = parse_args(&run, argc, argv);
  if (rc) return rc > 0 ? 0 : 2;
  char path[4200];
  snprintf(path, sizeof path, "mkdir -p '%s'", run.out);
  if (system(path) != 0) {
    fprintf(stderr, "chaos/run: cannot make %s\n", run.out);
    return 2;
  }
  json_t *rj = run_json(&run);
  snprintf(path, sizeof path, "%s/run.json", run.out);
  json_dump_file(rj, path, JSON_INDENT(2));
  json_decref(rj);
  signal(SIGINT, on_signal);
  signal(SIGTERM, on_signal);
  curl_global_init(CURL_GLOBAL_ALL);
  int lock = take_lock();
  struct timespec w0, w1;
  clock_gettime(CLOCK_MONOTONIC, &w0);
  snprintf(path, sizeof path, "%s/history.jsonl", run.out);
  if (ch_hist_open(path) < 0) {
    fprintf(stderr, "chaos/run: cannot write %s\n", path);
    return 2;
  }
  fprintf(stderr, "chaos/run: seed %llu, %d nodes, %d s, %d faults; out %s\n",
          (unsigned long long)run.seed, run.nodes, run.duration_s, run.nfaults, run.out);
  /* Whatever an interrupted run left under our prefix goes first. */
  sh(&run, "'%s' down --dir '%s' --prefix %s", run.tool, run.cluster_dir, run.prefix);
  char up[12000];
  snprintf(up, sizeof up, "up %d --prefix %s --subnet %s --timeout 180 --bin '%s'%s%s%s",
           run.nodes, run.prefix, run.subnet, run.bin, run.template_dir[0] ? " --template-dir '" : "",
           run.template_dir, run.template_dir[0] ? "'" : "");
  int status = 2;
  if (cluster(&run, up) != 0 || read_key(&run) < 0) {
    fprintf(stderr, "chaos/run: the cluster did not come up (see %s/cluster.log)\n", run.out);
    goto down;
  }
  json_t *meta = run_json(&run);
  json_object_set_new(meta, "ev", json_string("meta"));
  /* what t = 0 was on the nodes' clocks (their logs' ts=) */
  json_object_set_new(meta, "wall0_ms", json_real(ch_wall0_ms()));
  ch_hist(meta);
  double start = ch_now();
  for (int k = 0; k < run.nfaults; k++) run.faults[k].at_ms += (int64_t)start;
  pthread_t obs[CH_MAX_NODES + 1], nem;
  int nobs = 0;
  ch_observers_start(&run, obs, &nobs);
  ch_hist(json_pack("{s:s,s:s}", "ev", "phase", "name", "run"));
  ch_lane lanes[CH_MAX_LANES];
  for (int i = 0; i < run.lanes; i++) {
    lanes[i] = (ch_lane){.run = &run, .id = i};
    pthread_create(&lanes[i].th, NULL, ch_lane_main, &lanes[i]);
  }
  pthread_create(&nem, NULL, nemesis_main, &run);
  while (!interrupted && ch_now() - start < run.duration_s * 1000.0) sleep_ms(200);
  run.stop_lanes = 1;
  pthread_join(nem, NULL);
  for (int i = 0; i < run.lanes; i++) pthread_join(lanes[i].th, NULL);
  ch_hist(json_pack("{s:s,s:s}", "ev", "phase", "name", "heal"));
  heal_all(&run);
  converge_and_record(&run);
  ch_record_generations(&run);
  ch_record_node_logs(&run);
  ch_hist(json_pack("{s:s,s:s}", "ev", "phase", "name", "end"));
  run.stop_observers = 1;
  for (int i = 0; i < nobs; i++) pthread_join(obs[i], NULL);
  status = 0;
down:
  sh(&run, "mkdir -p '%s/logs'; for d in '%s'/n*; do cp \"$d/hangard.log\" \"%s/logs/$(basename $d).log\"; "
           "for s in \"$d\"/data/sandboxes/sb-*/shim.log; do [ -f \"$s\" ] && cp \"$s\" "
           "\"%s/logs/$(basename $d)-$(basename $(dirname $s)).shim.log\"; done; done; true",
     run.out, run.cluster_dir, run.out, run.out);
  sh(&run, "'%s' down --dir '%s' --prefix %s", run.tool, run.cluster_dir, run.prefix);
  ch_record_leftovers(&run);
  ch_hist_close();
  if (lock >= 0) close(lock);
  clock_gettime(CLOCK_MONOTONIC, &w1);
  double wall = (double)(w1.tv_sec - w0.tv_sec) + (double)(w1.tv_nsec - w0.tv_nsec) / 1e9;
  fprintf(stderr, "chaos/run: wall %.1f s\n", wall);
  snprintf(path, sizeof path, "%s/wall.txt", run.out);
  FILE *wf = fopen(path, "w");
  if (wf) {
    fprintf(wf, "%.1f\n", wall);
    fclose(wf);
  }
  curl_global_cleanup();
  if (status != 0) return status;
  char ed[PATH_MAX], chk[PATH_MAX + 64];
  exe_dir(ed, sizeof ed);
  snprintf(chk, sizeof chk, "%s/hg-chaos-check", ed);
  execl(chk, chk, run.out, (char *)NULL);
  fprintf(stderr, "chaos/run: cannot run %s: %s\n", chk, strerror(errno));
  return 2;
}
