/* bench_lease: what the lease protocol costs one node (cluster/leases.c),
 * each figure beside a baseline measured in the same run.
 *
 *   bench_lease [--dir DIR] [--sandboxes N] [--claims C] [--seconds S] [--json FILE]
 *
 * Three lease services in one process on one libuv loop, over an in-memory
 * transport (the cluster's TCP and sealing are not in these figures), each
 * with its register in DIR (default /tmp/hangar-bench-lease: put it on the
 * filesystem whose fsync you want counted), T = 3 s, margin 500 ms.
 *   claim latency: C (default 200) claims, one at a time, of fresh
 *     sandboxes by node 0 with the group {0,1,2}: claim to held, p50/p90;
 *     baseline: a 200-byte append + fdatasync in DIR (what a group commit
 *     costs), p50/p90 of C;
 *   renewals: node 0 holds N (default 1000) sandboxes; over S seconds
 *     (default 10): bytes node 0 sends per second (and node 1, an acceptor,
 *     in its replies), batches per second, and
 *     the process's CPU (getrusage) over the window as a share of one core;
 *     baseline: the same window with the three services holding nothing.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>
#include <uv.h>

#include "bench_util.h"
#include "cluster/leases.h"
#include "node/core/log.h"
#include "node/core/util.h"

#define NODES 3

typedef struct packet {
  struct packet *next;
  int to;
  size_t len;
  char data[];
} packet;

static uv_loop_t loop;
static hg_leases *nodes[NODES];
static int ctx[NODES];
static packet *head, **tail = &head;
/* Delivery at the next turn of the loop, by a 0 ms timer: an idle handle
 * would keep the loop spinning and the CPU figures would be the spin's. */
static uv_timer_t deliver_timer;
static bool deliver_armed;
static int64_t held_ns; /* when the claim being timed was held */
static char timing[HG_ID_MAX];

static void die(const char *what, int rc) {
  fprintf(stderr, "bench_lease: %s: %s\n", what, strerror(rc < 0 ? -rc : rc));
  exit(1);
}

static void on_deliver(uv_timer_t *t);

static void on_send(void *ud, const char *to, const void *data, size_t len) {
  (void)ud;
  packet *p = malloc(sizeof *p + len);
  if (!p) die("out of memory", ENOMEM);
  *p = (packet){.to = to[5] - '0', .len = len}; /* "node-<i>" */
  memcpy(p->data, data, len);
  *tail = p;
  tail = &p->next;
  if (!deliver_armed) {
    deliver_armed = true;
    uv_timer_start(&deliver_timer, on_deliver, 0, 0);
  }
}

static void on_changed(void *ud, const char *sandbox, const hg_lease_info *info) {
  (void)ud;
  if (info->state == HG_LEASE_HELD && !strcmp(sandbox, timing) && !held_ns)
    held_ns = hg_now_ns();
}

static void on_deliver(uv_timer_t *t) {
  (void)t;
  deliver_armed = false;
  packet *p = head;
  head = NULL;
  tail = &head;
  while (p) {
    packet *next = p->next;
    if (nodes[p->to]) hg_leases_receive(nodes[p->to], p->data, p->len);
    free(p);
    p = next;
  }
}

static hg_lease_conf group(void) {
  hg_lease_conf c = {.cur.n = NODES};
  for (int i = 0; i < NODES; i++) snprintf(c.cur.ids[i], HG_NODE_ID_MAX, "node-%d", i);
  return c;
}

static void open_nodes(const char *dir) {
  for (int i = 0; i < NODES; i++) {
    char path[4096], id[24];
    snprintf(path, sizeof path, "%s/leases-%d.log", dir, i);
    unlink(path);
    snprintf(id, sizeof id, "node-%d", i);
    ctx[i] = i;
    hg_leases_config cfg = {
        .self = id,
        .register_path = path,
        .cb = {.send = on_send, .changed = on_changed, .ud = &ctx[i]}};
    int rc = hg_leases_open(&loop, &cfg, &nodes[i]);
    if (rc < 0) die("open", rc);
  }
}

static double cpu_s(void) {
  struct rusage ru;
  getrusage(RUSAGE_SELF, &ru);
  return (double)ru.ru_utime.tv_sec + ru.ru_utime.tv_usec / 1e6 +
         (double)ru.ru_stime.tv_sec + ru.ru_stime.tv_usec / 1e6;
}

static void run_for_ms(int64_t ms) {
  int64_t end = hg_now_ms() + ms;
  while (hg_now_ms() < end) uv_run(&loop, UV_RUN_ONCE);
}

typedef struct window {
  double bytes_per_s, batches_per_s, cpu_pct;
  double acceptor_bytes_per_s; /* node 1's replies */
} window;

/* Node 0's traffic and the process's CPU over seconds s. */
static window measure(int seconds) {
  hg_leases_stats a, b, a1, b1;
  hg_leases_get_stats(nodes[0], &a);
  hg_leases_get_stats(nodes[1], &a1);
  double c0 = cpu_s();
  int64_t t0 = hg_now_ns();
  run_for_ms(seconds * 1000LL);
  double wall = bench_ms(t0, hg_now_ns()) / 1000.0;
  hg_leases_get_stats(nodes[0], &b);
  hg_leases_get_stats(nodes[1], &b1);
  return (window){.bytes_per_s = (double)(b.bytes_sent - a.bytes_sent) / wall,
                  .acceptor_bytes_per_s = (double)(b1.bytes_sent - a1.bytes_sent) / wall,
                  .batches_per_s = (double)(b.batches_sent - a.batches_sent) / wall,
                  .cpu_pct = 100.0 * (cpu_s() - c0) / wall};
}

static double fsync_once(const char *dir) {
  char path[4096], rec[200];
  snprintf(path, sizeof path, "%s/fsync-probe", dir);
  memset(rec, 'x', sizeof rec);
  int fd = open(path, O_WRONLY | O_CREAT | O_APPEND, 0600);
  if (fd < 0) die("fsync probe", errno);
  int64_t t0 = hg_now_ns();
  if (write(fd, rec, sizeof rec) != (ssize_t)sizeof rec || fdatasync(fd) < 0)
    die("fsync probe", errno);
  double ms = bench_ms(t0, hg_now_ns());
  close(fd);
  return ms;
}

int main(int argc, char **argv) {
  const char *dir = "/tmp/hangar-bench-lease", *json = NULL;
  int sandboxes = 1000, claims = 200, seconds = 10;
  for (int i = 1; i < argc; i++) {
    const char *v = i + 1 < argc ? argv[i + 1] : NULL;
    if (!strcmp(argv[i], "--dir") && v)
      dir = argv[++i];
    else if (!strcmp(argv[i], "--sandboxes") && v)
      sandboxes = atoi(argv[++i]);
    else if (!strcmp(argv[i], "--claims") && v)
      claims = atoi(argv[++i]);
    else if (!strcmp(argv[i], "--seconds") && v)
      seconds = atoi(argv[++i]);
    else if (!strcmp(argv[i], "--json") && v)
      json = argv[++i];
    else {
      fprintf(stderr,
              "usage: bench_lease [--dir DIR] [--sandboxes N] [--claims C] "
              "[--seconds S] [--json FILE]\n");
      return 2;
    }
  }
  if (sandboxes < 1 || claims < 1 || seconds < 1) die("arguments", EINVAL);
  hg_log_set_level(HG_LOG_WARN);
  if (hg_mkdir_p(dir, 0700) < 0) die("data dir", errno);
  uv_loop_init(&loop);
  uv_timer_init(&loop, &deliver_timer);
  open_nodes(dir);

  /* Idle baseline first: three services holding nothing. */
  run_for_ms(500);
  window idle_w = measure(seconds);

  double *claim_ms = calloc((size_t)claims, sizeof *claim_ms);
  double *fsync_ms = calloc((size_t)claims, sizeof *fsync_ms);
  if (!claim_ms || !fsync_ms) die("out of memory", ENOMEM);
  hg_lease_conf g = group();
  for (int i = 0; i < claims; i++) {
    snprintf(timing, sizeof timing, "sb-c%d", i);
    held_ns = 0;
    int64_t t0 = hg_now_ns();
    int rc = hg_leases_claim(nodes[0], timing, &g, 0, false);
    if (rc < 0) die("claim", rc);
    while (!held_ns) uv_run(&loop, UV_RUN_ONCE);
    claim_ms[i] = bench_ms(t0, held_ns);
    fsync_ms[i] = fsync_once(dir);
  }
  timing[0] = '\0';
  for (int i = claims; i < sandboxes; i++) {
    char sb[HG_ID_MAX];
    snprintf(sb, sizeof sb, "sb-c%d", i);
    int rc = hg_leases_claim(nodes[0], sb, &g, 0, false);
    if (rc < 0) die("claim", rc);
    if (i % 100 == 0) run_for_ms(5);
  }
  run_for_ms(1500); /* every claim held; renewals in step */
  int valid = 0;
  for (int i = 0; i < sandboxes; i++) {
    char sb[HG_ID_MAX];
    snprintf(sb, sizeof sb, "sb-c%d", i);
    valid += hg_leases_valid(nodes[0], sb);
  }
  window held_w = measure(seconds);
  int still = 0;
  for (int i = 0; i < sandboxes; i++) {
    char sb[HG_ID_MAX];
    snprintf(sb, sizeof sb, "sb-c%d", i);
    still += hg_leases_valid(nodes[0], sb);
  }

  double c50 = bench_pct(claim_ms, claims, 0.5), c90 = bench_pct(claim_ms, claims, 0.9);
  double f50 = bench_pct(fsync_ms, claims, 0.5), f90 = bench_pct(fsync_ms, claims, 0.9);
  printf(
      "bench_lease: 3 lease services, one loop, in-memory transport; T 3000 ms, margin "
      "500 ms;"
      " registers in %s\n\n",
      dir);
  printf("%-44s %8s %8s   %-28s %8s %8s\n", "measure", "p50 ms", "p90 ms",
         "baseline (same run)", "p50 ms", "p90 ms");
  printf("%-44s %8.2f %8.2f   %-28s %8.2f %8.2f\n",
         "claim to held (3 acceptors, 1 fsync each)", c50, c90,
         "200 B append + fdatasync", f50, f90);
  printf("\n%-44s %12s %12s %12s\n", "renewals, node 0", "bytes/s", "batches/s",
         "CPU % core");
  printf("%-44s %12.0f %12.1f %12.2f\n", "holding nothing (baseline)", idle_w.bytes_per_s,
         idle_w.batches_per_s, idle_w.cpu_pct);
  char label[64];
  snprintf(label, sizeof label, "holding %d sandboxes", sandboxes);
  printf("%-44s %12.0f %12.1f %12.2f\n", label, held_w.bytes_per_s, held_w.batches_per_s,
         held_w.cpu_pct);
  printf("%-44s %12.0f\n", "  node 1's replies to them (an acceptor)",
         held_w.acceptor_bytes_per_s);
  printf(
      "  CPU is the whole process (3 nodes: the holder and two acceptors); leases valid "
      "before/after the window: %d/%d of %d\n",
      valid, still, sandboxes);
  if (json) {
    FILE *f = fopen(json, "w");
    if (f) {
      fprintf(
          f,
          "{\"claim_ms\": {\"p50\": %.3f, \"p90\": %.3f}, \"fsync_ms\": {\"p50\": %.3f, "
          "\"p90\": %.3f}, \"sandboxes\": %d, \"renew\": {\"bytes_per_s\": %.0f, "
          "\"batches_per_s\": %.1f, \"cpu_pct\": %.2f, \"acceptor_bytes_per_s\": %.0f}, "
          "\"idle\": {\"bytes_per_s\": %.0f, "
          "\"cpu_pct\": %.2f}, \"valid\": %d}\n",
          c50, c90, f50, f90, sandboxes, held_w.bytes_per_s, held_w.batches_per_s,
          held_w.cpu_pct, held_w.acceptor_bytes_per_s, idle_w.bytes_per_s, idle_w.cpu_pct,
          still);
      fclose(f);
    }
  }
  for (int i = 0; i < NODES; i++) {
    hg_leases_close(nodes[i], NULL, NULL);
    nodes[i] = NULL;
  }
  uv_close((uv_handle_t *)&deliver_timer, NULL);
  uv_run(&loop, UV_RUN_DEFAULT);
  uv_loop_close(&loop);
  free(claim_ms);
  free(fsync_ms);
  return still == sandboxes ? 0 : 1;
}
