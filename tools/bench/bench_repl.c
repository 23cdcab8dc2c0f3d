/* bench_repl: replication on this machine (issue 5, "Numbers"), each figure
 * beside a baseline measured in the same run. Two nodes live in one
 * process: A and B each have a loop-mounted btrfs store, a sandbox manager
 * (qemu, no network, no pool) and a replication service on 127.0.0.1 under
 * one random cluster key. The template is registered on A and replicated
 * to B, so both hold the same template identity.
 *
 *   bench_repl [--template-dir DIR] [--data DIR] [--runs N] [--tput-runs M]
 *              [--big-mib S] [--activity-s T] [--json FILE]
 *
 * One sandbox (256 MiB guest) created on A goes through:
 *   1. bytes: its first generation (after create and a little work) as a
 *      full stream and against the template, and an increment after T s of
 *      light activity (a counter writing a file every 200 ms), raw and
 *      after zstd at levels 1 and 3 (hg_stream_send into a counting emit);
 *   2. throughput: an increment with S MiB of incompressible data written
 *      by the guest, hg_repl_send_gen A -> B over loopback TCP against
 *      `btrfs send -p | zstd -1 | zstd -d | btrfs receive` into store B,
 *      a warm-up of each, then M runs each, alternating, medians;
 *   3. suspend to acknowledged with R = 2 (suspend + hg_repl_send_gen to B),
 *      N cycles of T s of activity; baseline: the suspend alone, the same
 *      cycles' first part;
 *   4. resume on the other node (adopt + resume until the agent answers),
 *      N moves back and forth, each from a receiver whose page cache does
 *      not hold the replica (syncfs, then posix_fadvise DONTNEED over the
 *      generation's files and the receiver's loop image: bench_cache.h;
 *      not drop_caches, which would drop the whole machine's cache);
 *      baseline: a local suspend + resume (page cache warm) on the node
 *      the sandbox just moved to, in the same cycle. A failed move
 *      ends this part early: the report says why, the exit status is 1.
 *
 * Needs root, qemu, btrfs-progs and zstd. Everything it made (VMs, services,
 * stores and their images) is removed at the end, also when it fails. */
#include <errno.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "node/accel.h"
#include "node/core/err.h"
#include "node/core/log.h"
#include "node/core/util.h"
#include "node/sandbox.h"
#include "tools/bench/bench_cache.h"
#include "node/store.h"
#include "replication/repl.h"
#include "replication/stream.h"
#include "tools/bench/bench_util.h"

#define MAX_RUNS 100
#define MB 1e6

typedef struct node {
  const char *name; /* "A", "B" */
  char dir[4096];   /* the data dir (its image is "<dir>.img") */
  hg_store *st;
  hg_manager *m;
  hg_repl *repl;
  hg_repl_target self; /* how the other node reaches this one */
} node;

typedef struct series {
  double v[MAX_RUNS];
  int n;
} series;

/* What cleanup needs to find: both nodes and the sandbox. */
static node nodes[2] = {{.name = "A"}, {.name = "B"}};
static char sbid[HG_ID_MAX];
static char base[4096];
static hg_accel bench_accel; /* chosen once, as hangard would */

static void add(series *s, double v) {
  if (s->n < MAX_RUNS) s->v[s->n++] = v;
}

/* bench_pct sorts in place: percentiles of a copy, so run order stays. */
static double pct(const series *s, double p) {
  series c = *s;
  return bench_pct(c.v, c.n, p);
}

static double since_ms(int64_t t0) {
  return bench_ms(t0, hg_now_ns());
}

static void cleanup(void) {
  for (int i = 0; i < 2; i++)
    if (nodes[i].m && sbid[0]) hg_sandbox_delete(nodes[i].m, sbid);
  for (int i = 0; i < 2; i++) {
    node *n = &nodes[i];
    if (n->repl) hg_repl_close(n->repl);
    if (n->m) hg_manager_close(n->m);
    if (n->st) hg_store_close(n->st, true);
    if (n->dir[0]) hg_store_destroy(n->dir);
    if (n->dir[0]) rmdir(n->dir);
    n->repl = NULL;
    n->m = NULL;
    n->st = NULL;
  }
  char err[4200];
  snprintf(err, sizeof err, "%s/stock.err", base);
  if (base[0]) unlink(err);
  if (base[0]) rmdir(base);
}

static void die(const char *what, int rc) {
  fprintf(stderr, "bench_repl: %s: %s\n", what, rc < 0 ? hg_err_str(rc) : "failed");
  cleanup();
  exit(1);
}

static void die_repl(const char *what, const hg_repl_result *res) {
  fprintf(stderr, "bench_repl: %s: %s (%s: %s)\n", what, hg_err_str(res->rc), res->code,
          res->message);
  cleanup();
  exit(1);
}

#define say(...)                      \
  do {                                \
    fprintf(stderr, "[bench_repl] "); \
    fprintf(stderr, __VA_ARGS__);     \
    fputc('\n', stderr);              \
  } while (0)

/* ---- the two nodes ---------------------------------------------------------- */

static void node_open(node *n, const char *shim, const char *key) {
  hg_store_options so = {.image_size = 16ull << 30};
  int rc = hg_path(n->dir, sizeof n->dir, "%s/%c", base, n->name[0] + 'a' - 'A');
  if (rc == 0) rc = hg_store_open(n->dir, &so, &n->st);
  if (rc < 0) die("store", rc);
  /* TCG unless KVM boots the template here, as hangard decides. */
  hg_manager_config mc = {.store = n->st, .vmm = &hg_vmm_qemu, .shim_path = shim,
                          .accel = bench_accel.name};
  if ((rc = hg_manager_open(&mc, &n->m)) < 0) die("manager", rc);
  char id[16];
  snprintf(id, sizeof id, "bench-%c", n->name[0] + 'a' - 'A');
  hg_repl_config rc_ = {.store = n->st,
                        .node_id = id,
                        .cluster_keys = key,
                        .listen = "127.0.0.1:0",
                        .zstd_level = 1};
  if ((rc = hg_repl_open(&rc_, &n->repl)) < 0) die("replication service", rc);
  snprintf(n->self.node, sizeof n->self.node, "%s", id);
  snprintf(n->self.addr, sizeof n->self.addr, "%s", hg_repl_addr(n->repl));
}

static void gen_abs(node *n, uint64_t gen, char *out, size_t cap) {
  char rel[128];
  hg_path(rel, sizeof rel, "snapshots/%s/%llu", sbid, (unsigned long long)gen);
  if (hg_store_abs(n->st, rel, out, cap) < 0) die("path", -ENAMETOOLONG);
}

/* ---- the guest -------------------------------------------------------------- */

/* Runs sh -c script in the sandbox; with wait_ms, waits for it to exit 0. */
static int guest_sh(hg_manager *m, const char *script, uint32_t wait_ms) {
  const char *const argv[] = {"sh", "-c", script, NULL};
  hg_exec_req req = {.argv = argv};
  uint64_t cid;
  int pid;
  int rc = hg_sandbox_exec(m, sbid, &req, &cid, &pid);
  if (rc < 0 || wait_ms == 0) return rc;
  hg_agent *a;
  if ((rc = hg_sandbox_agent_get(m, sbid, &a)) < 0) return rc;
  hg_cmd_status st = {0};
  int64_t end = hg_now_ms() + wait_ms;
  while (rc >= 0 && !st.exited && !st.signal && !st.timed_out && hg_now_ms() < end)
    rc = hg_agent_wait(a, cid, 20000, &st);
  hg_sandbox_agent_put(m, sbid);
  if (rc < 0) return rc;
  return st.exited && st.code == 0 ? 0 : st.exited || st.signal ? -EIO : -ETIMEDOUT;
}

/* The counter process's last value (/root/counter), -1 when unreadable. */
static long counter_once(hg_manager *m) {
  hg_agent *a;
  if (hg_sandbox_agent_get(m, sbid, &a) < 0) return -1;
  hg_buf b;
  hg_buf_init(&b, 64);
  int rc = hg_agent_file_read(a, "/root/counter", 64, &b);
  hg_sandbox_agent_put(m, sbid);
  long v = -1;
  if (rc == 0 && hg_buf_append(&b, "", 1) == 0) v = strtol(b.data, NULL, 10);
  hg_buf_free(&b);
  return v;
}

/* The counter rewrites its file every 200 ms: a read may fall between the
 * truncation and the write. */
static long guest_counter(hg_manager *m) {
  long v = counter_once(m);
  for (int i = 0; i < 5 && v <= 0; i++) {
    usleep(50000);
    v = counter_once(m);
  }
  return v;
}

static uint64_t sb_epoch(node *n) {
  hg_sb_info info;
  int rc = hg_sandbox_info(n->m, sbid, &info);
  if (rc < 0) die("sandbox info", rc);
  return info.epoch;
}

/* ---- 1. bytes ------------------------------------------------------------------ */

typedef struct bytes_row {
  const char *name;
  uint64_t raw, z1, z3;
  double ms1, ms3; /* ioctl + zstd into a counting emit, per level */
} bytes_row;

static int count_emit(void *ud, const void *z, size_t len) {
  (void)ud, (void)z, (void)len;
  return 0;
}

static void measure_bytes(node *n, uint64_t gen, const char *parent_abs, bytes_row *row) {
  char subvol[4096];
  gen_abs(n, gen, subvol, sizeof subvol);
  for (int level = 1; level <= 3; level += 2) {
    hg_stream_stats st = {0};
    int64_t t0 = hg_now_ns();
    int rc = hg_stream_send(subvol, parent_abs, level, count_emit, NULL, NULL, &st);
    if (rc < 0) die("hg_stream_send", rc);
    row->raw = st.raw_bytes;
    *(level == 1 ? &row->z1 : &row->z3) = st.zstd_bytes;
    *(level == 1 ? &row->ms1 : &row->ms3) = since_ms(t0);
  }
  say("bytes %s: raw %.1f MB, zstd-1 %.2f MB, zstd-3 %.2f MB", row->name, row->raw / 1e6,
      row->z1 / 1e6, row->z3 / 1e6);
}

/* ---- 2. throughput --------------------------------------------------------------- */

static void sh_or_die(const char *cmd) {
  int st = system(cmd);
  if (st != 0) {
    fprintf(stderr, "bench_repl: `%s` failed (status %d)\n", cmd, st);
    die("shell", -EIO);
  }
}

/* Lets btrfs finish deleting and flush what the last run left dirty, so
 * no run pays for the one before it. */
static void settle(node *n) {
  char cmd[4200];
  snprintf(cmd, sizeof cmd, "btrfs subvolume sync '%s' >/dev/null && sync -f '%s'",
           hg_store_root(n->st), hg_store_root(n->st));
  sh_or_die(cmd);
}

static uint64_t stock_raw_bytes(const char *parent, const char *gen) {
  char cmd[9000];
  if (hg_path(cmd, sizeof cmd, "btrfs send -q -p '%s' '%s' | wc -c", parent, gen) < 0)
    die("stock command", -ENAMETOOLONG);
  FILE *f = popen(cmd, "r");
  unsigned long long v = 0;
  if (!f || fscanf(f, "%llu", &v) != 1) v = 0;
  if (f) pclose(f);
  if (v == 0) die("btrfs send | wc -c", -EIO);
  return v;
}

/* The stock pipeline into an empty dir on B; checks what it received and
 * deletes it. Returns the wall time in ms. */
static double stock_run(node *b, const char *parent, const char *gen, uint64_t g) {
  char dir[4096], cmd[16384], rel[128];
  hg_path(rel, sizeof rel, "bench-stock");
  hg_store_abs(b->st, rel, dir, sizeof dir);
  if (hg_mkdir_p(dir, 0700) < 0) die("mkdir stock dir", -errno);
  if (hg_path(cmd, sizeof cmd,
              "btrfs send -q -p '%s' '%s' | zstd -1 -q -c | zstd -d -q -c | "
              "btrfs receive '%s' >'%s/stock.err' 2>&1",
              parent, gen, dir, base) < 0)
    die("stock command", -ENAMETOOLONG);
  int64_t t0 = hg_now_ns();
  int st = system(cmd);
  double ms = since_ms(t0);
  hg_path(rel, sizeof rel, "bench-stock/%llu", (unsigned long long)g);
  hg_subvol_info info;
  if (st != 0 || hg_store_subvol_info(b->st, rel, &info) < 0 || !info.readonly ||
      !info.received_uuid[0]) {
    fprintf(stderr, "bench_repl: stock pipeline failed (status %d), see %s/stock.err\n",
            st, base);
    die("stock pipeline", -EIO);
  }
  if (hg_store_subvol_delete(b->st, rel) < 0) die("delete stock copy", -EIO);
  return ms;
}

typedef struct tput {
  series ours_mbs, stock_mbs;
  uint64_t ours_raw, ours_zstd, stock_raw;
} tput;

/* One run of ours (B holds the increment's parent and not the increment);
 * returns its wall time in ms. */
static double tput_ours(node *a, node *b, uint64_t gp, uint64_t gl, const char *tpl,
                        tput *t) {
  hg_repl_result res;
  int64_t t0 = hg_now_ns();
  int rc =
      hg_repl_send_gen(a->repl, &b->self, sbid, sb_epoch(a), gl, tpl, NULL, NULL, &res);
  if (rc < 0) die_repl("hg_repl_send_gen (throughput)", &res);
  double ms = since_ms(t0);
  if (res.had || res.parent_template || res.parent_gen != gp) {
    fprintf(stderr,
            "bench_repl: throughput send was not the increment over gen %llu "
            "(had %d, template %d, parent %llu)\n",
            (unsigned long long)gp, res.had, res.parent_template,
            (unsigned long long)res.parent_gen);
    die("throughput", -EPROTO);
  }
  t->ours_raw = res.raw_bytes;
  t->ours_zstd = res.zstd_bytes;
  return ms;
}

/* Run i of the sequence ours, stock, stock, ours, ours, stock, ... (i < 0:
 * a warm-up of each, not counted); each starts on a settled store B. */
static void tput_run(node *a, node *b, uint64_t gp, uint64_t gl, const char *tpl,
                     const char *parent, const char *gen, int i, tput *t) {
  bool ours = i == -2 || (i >= 0 && (i % 4 == 0 || i % 4 == 3));
  char rel[128];
  hg_path(rel, sizeof rel, "replicas/%s/%llu", sbid, (unsigned long long)gl);
  if (ours && hg_store_is_subvol(b->st, rel) && hg_store_subvol_delete(b->st, rel) < 0)
    die("delete B's copy", -EIO);
  settle(b);
  double ms = ours ? tput_ours(a, b, gp, gl, tpl, t) : stock_run(b, parent, gen, gl);
  double mbs = (ours ? t->ours_raw : t->stock_raw) / MB / (ms / 1000);
  series *s = ours ? &t->ours_mbs : &t->stock_mbs;
  if (i >= 0) add(s, mbs);
  say("throughput %s %s: %.0f ms, %.1f MB/s", ours ? "ours" : "stock",
      i < 0 ? "warm-up" : "run", ms, mbs);
}

static void measure_tput(node *a, node *b, uint64_t gp, uint64_t gl, const char *tpl,
                         int runs, tput *t) {
  char parent[4096], gen[4096], rel[128], dir[4096];
  gen_abs(a, gp, parent, sizeof parent);
  gen_abs(a, gl, gen, sizeof gen);
  hg_path(rel, sizeof rel, "replicas/%s/%llu", sbid, (unsigned long long)gl);
  /* Counts the stock stream and warms the page cache for both. */
  t->stock_raw = stock_raw_bytes(parent, gen);
  for (int i = -2; i < 2 * runs; i++) tput_run(a, b, gp, gl, tpl, parent, gen, i, t);
  /* Later increments build on gl: B must hold it. */
  hg_repl_result res;
  int rc = 0;
  if (!hg_store_is_subvol(b->st, rel))
    rc =
        hg_repl_send_gen(a->repl, &b->self, sbid, sb_epoch(a), gl, tpl, NULL, NULL, &res);
  if (rc < 0) die_repl("hg_repl_send_gen (after throughput)", &res);
  hg_store_abs(b->st, "bench-stock", dir, sizeof dir);
  rmdir(dir);
}

/* ---- 3. suspend to acknowledged ------------------------------------------------- */

typedef struct latency {
  series local, acked, zstd_kb;
  int incremental; /* cycles whose stream was against the previous generation */
  long counter;    /* the guest's counter just before the last suspend */
} latency;

static void measure_acked(node *a, node *b, const char *tpl, int runs, int activity_s,
                          latency *l) {
  for (int i = 0; i < runs; i++) {
    int rc = hg_sandbox_resume(a->m, sbid);
    if (rc < 0) die("resume (latency)", rc);
    sleep((unsigned)activity_s);
    l->counter = guest_counter(a->m);
    uint64_t gen, epoch = sb_epoch(a);
    int64_t t0 = hg_now_ns();
    if ((rc = hg_sandbox_suspend(a->m, sbid, &gen)) < 0) die("suspend (latency)", rc);
    double local = since_ms(t0);
    hg_repl_result res;
    if (hg_repl_send_gen(a->repl, &b->self, sbid, epoch, gen, tpl, NULL, NULL, &res) < 0)
      die_repl("hg_repl_send_gen (latency)", &res);
    double acked = since_ms(t0);
    add(&l->local, local);
    add(&l->acked, acked);
    add(&l->zstd_kb, res.zstd_bytes / 1e3);
    if (!res.parent_template && res.parent_gen == gen - 1) l->incremental++;
    say("cycle %d/%d: suspend %.0f ms, + send %.0f ms = acked %.0f ms (%.1f kB zstd)",
        i + 1, runs, local, acked - local, acked, res.zstd_bytes / 1e3);
  }
}

/* ---- 4. resume on another node --------------------------------------------------- */

typedef struct moves {
  series move, adopt, local;
  int counter_ok;  /* moves after which the counter process went on counting */
  char error[400]; /* why the moves stopped early, "" when they did not */
} moves;

/* The sandbox is suspended on *x at generation gen, and y holds gen. */
static void measure_moves(node *x, node *y, uint64_t gen, long before, int runs,
                          moves *mv) {
  for (int i = 0; i < runs; i++) {
    uint64_t epoch = sb_epoch(x) + 1;
    char rel[128];
    hg_path(rel, sizeof rel, "replicas/%s/%llu", sbid, (unsigned long long)gen);
    int rc = hg_sandbox_disown(x->m, sbid, epoch);
    if (rc < 0) die("disown", rc);
    /* A receiver that does not hold the replica in its page cache: the
     * generation's files and y's loop image dropped (bench_cache.h). */
    char gdir[4096], img[4200];
    hg_store_abs(y->st, rel, gdir, sizeof gdir);
    hg_path(img, sizeof img, "%s.img", y->dir);
    const char *dirs[] = {gdir};
    if ((rc = bench_drop_files(dirs, 1, access(img, F_OK) == 0 ? img : NULL)) < 0)
      die("dropping the replica from the page cache", rc);
    int64_t t0 = hg_now_ns();
    if ((rc = hg_sandbox_adopt(y->m, sbid, rel, epoch)) < 0) die("adopt", rc);
    double adopt = since_ms(t0);
    if ((rc = hg_sandbox_resume(y->m, sbid)) < 0) die("resume on the other node", rc);
    double move = since_ms(t0);
    add(&mv->adopt, adopt);
    add(&mv->move, move);
    /* Memory came along: the counter started before the first suspend
     * goes on from where it was. */
    sleep(1);
    long after = guest_counter(y->m);
    if (after > before && before > 0) mv->counter_ok++;
    /* Baseline: a local suspend and resume on this node. */
    uint64_t g;
    if ((rc = hg_sandbox_suspend(y->m, sbid, &g)) < 0) die("suspend (local)", rc);
    t0 = hg_now_ns();
    if ((rc = hg_sandbox_resume(y->m, sbid)) < 0) die("resume (local)", rc);
    double local = since_ms(t0);
    add(&mv->local, local);
    say("move %d/%d %s -> %s: adopt %.0f ms, adopt + resume %.0f ms; local resume "
        "%.0f ms; counter %ld -> %ld",
        i + 1, runs, x->name, y->name, adopt, move, local, before, after);
    /* Back to suspended, replicated to the node it came from. */
    sleep(1);
    before = guest_counter(y->m);
    hg_sb_info info;
    hg_sandbox_info(y->m, sbid, &info);
    if ((rc = hg_sandbox_suspend(y->m, sbid, &gen)) < 0) die("suspend (move)", rc);
    hg_repl_result res;
    if (hg_repl_send_gen(y->repl, &x->self, sbid, info.epoch, gen, info.tpl_dir, NULL,
                         NULL, &res) < 0) {
      /* What was measured stays worth printing; the report says why the
       * moves stopped. */
      snprintf(mv->error, sizeof mv->error, "%s -> %s send of gen %llu failed: %s: %s",
               y->name, x->name, (unsigned long long)gen, res.code, res.message);
      say("%s", mv->error);
      return;
    }
    node *t = x;
    x = y;
    y = t;
  }
}

/* ---- report ------------------------------------------------------------------------ */

static void print_runs(const series *s) {
  for (int i = 0; i < s->n; i++) printf(" %.0f", s->v[i]);
  printf("\n");
}

static void print_report(const bytes_row *rows, int nrows, const tput *t,
                         const latency *l, const moves *mv, int activity_s, int big_mib) {
  printf(
      "\nbench_repl: 256 MiB guest, two nodes on one machine, zstd level 1 on the "
      "wire\n\n");
  printf("%-36s %10s %12s %12s %10s %10s\n", "stream (hg_stream_send)", "raw MB",
         "zstd-1 MB", "zstd-3 MB", "-1 ms", "-3 ms");
  for (int i = 0; i < nrows; i++)
    printf("%-36s %10.2f %12.3f %12.3f %10.0f %10.0f\n", rows[i].name, rows[i].raw / 1e6,
           rows[i].z1 / 1e6, rows[i].z3 / 1e6, rows[i].ms1, rows[i].ms3);
  printf(
      "\nthroughput, %d MiB incompressible increment (raw bytes / wall time, median of "
      "%d)\n",
      big_mib, t->ours_mbs.n);
  printf("%-52s %10s %10s   %s\n", "pipeline", "raw MB", "MB/s", "runs, in order");
  printf("%-52s %10.1f %10.1f  ", "ours: hg_repl_send_gen A -> B (loopback TCP)",
         t->ours_raw / 1e6, pct(&t->ours_mbs, 0.5));
  print_runs(&t->ours_mbs);
  printf("%-52s %10.1f %10.1f  ", "stock: btrfs send | zstd -1 | zstd -d | btrfs receive",
         t->stock_raw / 1e6, pct(&t->stock_mbs, 0.5));
  print_runs(&t->stock_mbs);
  printf("ratio ours/stock: %.2f (target >= 1.0); ours sent %.1f MB after zstd\n",
         pct(&t->ours_mbs, 0.5) / pct(&t->stock_mbs, 0.5), t->ours_zstd / 1e6);
  printf("\n%-40s %5s %9s %9s   %-26s %9s %9s\n", "latency", "runs", "p50 ms", "p90 ms",
         "baseline (same run)", "p50 ms", "p90 ms");
  printf("%-40s %5d %9.0f %9.0f   %-26s %9.0f %9.0f\n", "suspend to acknowledged, R = 2",
         l->acked.n, pct(&l->acked, 0.5), pct(&l->acked, 0.9), "local suspend alone",
         pct(&l->local, 0.5), pct(&l->local, 0.9));
  printf("%-40s %5d %9.0f %9.0f   %-26s %9.0f %9.0f\n", "resume on other node, cache dropped",
         mv->move.n, pct(&mv->move, 0.5), pct(&mv->move, 0.9), "local resume (cache warm)",
         pct(&mv->local, 0.5), pct(&mv->local, 0.9));
  printf(
      "  increments after %d s: %.1f kB zstd (p50), %d/%d against the previous gen;\n"
      "  adopt alone p50 %.0f ms; counter went on after %d/%d moves (targets: p50 <= 300 "
      "ms)\n",
      activity_s, pct(&l->zstd_kb, 0.5), l->incremental, l->acked.n, pct(&mv->adopt, 0.5),
      mv->counter_ok, mv->move.n);
  if (mv->error[0]) printf("  moves stopped early: %s\n", mv->error);
}

static json_t *json_series(const series *s) {
  return json_pack("{s:i, s:f, s:f}", "runs", s->n, "p50", pct(s, 0.5), "p90",
                   pct(s, 0.9));
}

static void write_json(const char *path, const bytes_row *rows, int nrows, const tput *t,
                       const latency *l, const moves *mv, int activity_s, int big_mib) {
  json_t *bytes = json_object();
  static const char *const keys[] = {"gen1_full", "gen1_vs_template", "incremental"};
  for (int i = 0; i < nrows; i++)
    json_object_set_new(
        bytes, keys[i],
        json_pack("{s:I, s:I, s:I, s:f, s:f}", "raw", (json_int_t)rows[i].raw, "zstd1",
                  (json_int_t)rows[i].z1, "zstd3", (json_int_t)rows[i].z3, "ms1",
                  rows[i].ms1, "ms3", rows[i].ms3));
  json_t *j = json_pack(
      "{s:o, s:{s:i, s:I, s:I, s:o, s:o, s:f}, s:{s:i, s:o, s:o, s:f, s:i},"
      " s:{s:o, s:o, s:o, s:i}}",
      "bytes", bytes, "throughput", "big_mib", big_mib, "ours_raw_bytes",
      (json_int_t)t->ours_raw, "stock_raw_bytes", (json_int_t)t->stock_raw, "ours_mb_s",
      json_series(&t->ours_mbs), "stock_mb_s", json_series(&t->stock_mbs), "ratio",
      pct(&t->ours_mbs, 0.5) / pct(&t->stock_mbs, 0.5), "suspend_to_acked_ms",
      "activity_s", activity_s, "replicated", json_series(&l->acked), "local_suspend",
      json_series(&l->local), "increment_zstd_kb_p50", pct(&l->zstd_kb, 0.5),
      "incremental", l->incremental, "resume_other_node_ms", "move",
      json_series(&mv->move), "adopt", json_series(&mv->adopt), "local_resume",
      json_series(&mv->local), "counter_ok", mv->counter_ok);
  if (j && mv->error[0])
    json_object_set_new(json_object_get(j, "resume_other_node_ms"), "error",
                        json_string(mv->error));
  if (!j || json_dump_file(j, path, JSON_INDENT(2)) < 0)
    fprintf(stderr, "bench_repl: could not write %s\n", path);
  json_decref(j);
}

/* ---- main ----------------------------------------------------------------------------
 */

static void usage(void) {
  fprintf(
      stderr,
      "usage: bench_repl [--template-dir DIR] [--data DIR] [--runs N] [--tput-runs M]\n"
      "                  [--big-mib S] [--activity-s T] [--json FILE]\n");
  exit(2);
}

int main(int argc, char **argv) {
  const char *tpl_src = getenv("HANGAR_TEST_TEMPLATE_DIR"), *json_out = NULL;
  const char *data = "/tmp/hangar-bench-repl";
  int runs = 20, tput_runs = 5, big_mib = 200, activity_s = 10;
  if (!tpl_src || !*tpl_src) tpl_src = "/var/cache/hangar/images/minimal";
  for (int i = 1; i < argc; i += 2) {
    if (i + 1 >= argc) usage();
    if (!strcmp(argv[i], "--template-dir"))
      tpl_src = argv[i + 1];
    else if (!strcmp(argv[i], "--data"))
      data = argv[i + 1];
    else if (!strcmp(argv[i], "--runs"))
      runs = atoi(argv[i + 1]);
    else if (!strcmp(argv[i], "--tput-runs"))
      tput_runs = atoi(argv[i + 1]);
    else if (!strcmp(argv[i], "--big-mib"))
      big_mib = atoi(argv[i + 1]);
    else if (!strcmp(argv[i], "--activity-s"))
      activity_s = atoi(argv[i + 1]);
    else if (!strcmp(argv[i], "--json"))
      json_out = argv[i + 1];
    else
      usage();
  }
  if (runs < 1 || runs > MAX_RUNS || tput_runs < 1 || tput_runs > MAX_RUNS / 2 ||
      big_mib < 1 || big_mib > 1024 || activity_s < 0 || activity_s > 600)
    usage();
  hg_log_set_level(HG_LOG_WARN);
  char shim[4096];
  ssize_t len = readlink("/proc/self/exe", shim, sizeof shim - 64);
  shim[len > 0 ? len : 0] = '\0';
  *strrchr(shim, '/') = '\0';
  strcat(shim, "/../../node/shim/hangar-shim");

  /* One random key for the "cluster" of two. */
  uint8_t raw_key[32];
  char key[65];
  if (hg_random_bytes(raw_key, sizeof raw_key) < 0) die("random key", -EIO);
  hg_hex_encode(raw_key, sizeof raw_key, key);
  snprintf(base, sizeof base, "%s", data);
  if (hg_mkdir_p(base, 0700) < 0) die("data dir", -errno);
  say("stores, managers and replication services for A and B under %s", base);
  char kernel[4200];
  snprintf(kernel, sizeof kernel, "%s/vmlinuz", tpl_src);
  hg_accel_choose(HG_ACCEL_AUTO, kernel, HG_ACCEL_PROBE_MS, &bench_accel);
  say("accelerator: %s (%s)", bench_accel.name, bench_accel.reason);
  node *a = &nodes[0], *b = &nodes[1];
  node_open(a, shim, key);
  node_open(b, shim, key);

  /* The template on A, then on B through replication (one identity). */
  char digest[65], tpl[HG_TEMPLATE_NAME_MAX + 20], rel[HG_TEMPLATE_NAME_MAX + 40];
  say("registering the template from %s on A (a cold boot)...", tpl_src);
  int rc = hg_manager_template_register(a->m, "bench:latest", tpl_src, digest, NULL);
  if (rc < 0) die("template", rc);
  snprintf(tpl, sizeof tpl, "bench:latest@%.16s", digest);
  hg_repl_result res;
  int64_t t0 = hg_now_ns();
  if (hg_repl_send_template(a->repl, &b->self, tpl, &res) < 0)
    die_repl("send template", &res);
  double tpl_ms = since_ms(t0);
  hg_subvol_info ia, ib;
  snprintf(rel, sizeof rel, "templates/%s", tpl);
  if (hg_store_subvol_info(a->st, rel, &ia) < 0 ||
      hg_store_subvol_info(b->st, rel, &ib) < 0 || strcmp(ia.uuid, ib.received_uuid) != 0)
    die("template on B is not A's", -EPROTO);
  say("template %s to B: %.1f MB raw, %.1f MB zstd, %.0f ms", tpl, res.raw_bytes / 1e6,
      res.zstd_bytes / 1e6, tpl_ms);

  /* 1. bytes */
  hg_sandbox_spec spec = {.template_ref = "bench:latest",
                          .memory_mib = 256,
                          .idle_suspend_s = -1,
                          .replicas = 2};
  char token[65];
  say("creating the sandbox on A");
  if ((rc = hg_sandbox_create_begin(a->m, &spec, sbid, token)) < 0 ||
      (rc = hg_sandbox_create_finish(a->m, sbid)) < 0)
    die("create", rc);
  if ((rc = guest_sh(a->m,
                     "echo hello > /root/hello && ls -lR /etc > /root/etc.txt && sync",
                     60000)) < 0)
    die("a little work", rc);
  uint64_t g1, g2, gl;
  if ((rc = hg_sandbox_suspend(a->m, sbid, &g1)) < 0) die("suspend", rc);
  char tpl_abs[4096];
  hg_store_abs(a->st, rel, tpl_abs, sizeof tpl_abs);
  static bytes_row rows[3] = {{.name = "gen 1, full (no parent)"},
                              {.name = "gen 1, against the template"},
                              {.name = "increment after activity"}};
  measure_bytes(a, g1, NULL, &rows[0]);
  measure_bytes(a, g1, tpl_abs, &rows[1]);
  uint64_t epoch = sb_epoch(a);
  if (hg_repl_send_gen(a->repl, &b->self, sbid, epoch, g1, tpl, NULL, NULL, &res) < 0)
    die_repl("send gen 1", &res);
  if ((rc = hg_sandbox_resume(a->m, sbid)) < 0) die("resume", rc);
  /* The light activity of every later cycle: started once, it lives in
   * the guest's memory through every suspend, resume and move. */
  if ((rc = guest_sh(
           a->m, "i=0; while :; do i=$((i+1)); echo $i > /root/counter; sleep 0.2; done",
           0)) < 0)
    die("counter", rc);
  say("activity for %d s", activity_s);
  sleep((unsigned)activity_s);
  if ((rc = hg_sandbox_suspend(a->m, sbid, &g2)) < 0) die("suspend", rc);
  char g1_abs[4096];
  gen_abs(a, g1, g1_abs, sizeof g1_abs);
  measure_bytes(a, g2, g1_abs, &rows[2]);
  if (hg_repl_send_gen(a->repl, &b->self, sbid, epoch, g2, tpl, NULL, NULL, &res) < 0)
    die_repl("send gen 2", &res);

  /* 2. throughput */
  static tput t;
  if ((rc = hg_sandbox_resume(a->m, sbid)) < 0) die("resume", rc);
  char script[256];
  snprintf(script, sizeof script, "head -c %llu /dev/urandom > /root/big && sync",
           (unsigned long long)big_mib << 20);
  say("guest writes %d MiB of /dev/urandom to its disk", big_mib);
  t0 = hg_now_ns();
  if ((rc = guest_sh(a->m, script, 900000)) < 0) die("big write", rc);
  say("written in %.1f s", since_ms(t0) / 1000);
  if ((rc = hg_sandbox_suspend(a->m, sbid, &gl)) < 0) die("suspend", rc);
  measure_tput(a, b, g2, gl, tpl, tput_runs, &t);

  /* 3. suspend to acknowledged */
  static latency l;
  say("suspend to acknowledged: %d cycles of %d s activity", runs, activity_s);
  measure_acked(a, b, tpl, runs, activity_s, &l);

  /* 4. resume on the other node; the sandbox is suspended on A, B holds
   * its newest generation. */
  static moves mv;
  hg_sb_info info;
  if ((rc = hg_sandbox_info(a->m, sbid, &info)) < 0) die("sandbox info", rc);
  say("resume on the other node: %d moves", runs);
  measure_moves(a, b, info.gen, l.counter, runs, &mv);

  print_report(rows, 3, &t, &l, &mv, activity_s, big_mib);
  if (json_out) write_json(json_out, rows, 3, &t, &l, &mv, activity_s, big_mib);
  say("cleaning up");
  cleanup();
  return mv.error[0] ? 1 : 0;
}
