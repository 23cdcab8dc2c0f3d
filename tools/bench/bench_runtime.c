/* bench_runtime: the node runtime's latencies on this machine, each beside a
 * baseline measured in the same run (a cold boot of the same template).
 *
 *   bench_runtime --template-dir DIR [--data DIR] [--runs N] [--burst N]
 *                 [--burst-s S] [--pool-size P] [--cold-runs C] [--idle-send 0|1]
 *                 [--quick] [--jail-compare J] [--json FILE]
 *
 * Through the sandbox manager (no HTTP), one manager with a warm pool of P
 * (default 2, hangard's default) for template "bench", and the same files
 * registered again as "bench-nopool", which the pool does not serve. After
 * one untimed warm-up of each kind, N runs (default 20), each:
 *   create from the warm pool to the first `true` exited, split into
 *     create_begin (claim + record), create_finish, first exec round trip;
 *   create without the pool (CoW snapshot + restore) to the first `true`;
 *     before each create the bench waits until the pool is full again, so
 *     neither create runs beside a refill;
 *   5 exec round trips of `true`, and 5 agent pings (the channel's floor);
 *   the guest dirties 8 MiB of disk (and so of page cache) and 8 MiB of
 *     tmpfs memory, then suspend;
 *   resume with that generation in the page cache;
 *   suspend again, drop the generation's files and the sandbox's from the
 *     page cache (syncfs, then posix_fadvise DONTNEED over those files and
 *     over the store's loop image, whose page cache holds the same blocks
 *     again: bench_cache.h; not drop_caches, which would drop every other
 *     process's cache on a shared machine), resume from disk.
 * Then the bytes of an incremental btrfs send after 10 s idle, and bursts:
 * B creates (default 20) issued evenly within S s (default 2) from B
 * threads, twice (the second after the pool had 60 s to grow to what the
 * first asked for): how many the pool served, p50/p90 of create to first
 * `true`. Baseline of every figure: cold boot of the template to an agent
 * ping (C runs, default 5). --quick: 3 runs, 1 cold boot, no idle send, bursts of 5
 * within 0.5 s — for checking the bench itself, not for figures.
 * --jail-compare J: after the rest, with the pool stopped, J runs (after one
 * warm-up) of create without the pool to the first `true` and resume with
 * the generation in the page cache, each once with the VMM jailed and once
 * not (HANGAR_VMM_JAIL=off), the order alternating: the jail's cost.
 */
#include <errno.h>
#include <jansson.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "node/accel.h"
#include "node/core/err.h"
#include "node/core/log.h"
#include "node/core/util.h"
#include "node/sandbox.h"
#include "node/template.h"
#include "tools/bench/bench_cache.h"
#include "tools/bench/bench_util.h"

#define MAX_RUNS 1000
#define MAX_BURST 64

typedef struct series {
  const char *name;
  double ms[MAX_RUNS];
  int n;
} series;

static double pct(series *s, double p) {
  return bench_pct(s->ms, s->n, p);
}

static void add_ms(series *s, double ms) {
  if (s->n < MAX_RUNS) s->ms[s->n++] = ms;
}

static void add(series *s, int64_t t0) {
  add_ms(s, bench_ms(t0, hg_now_ns()));
}

/* What a failure must not leave behind: the store (mounted loop image)
 * and, once the manager is open, its sandboxes and their VMs. */
static struct {
  hg_store *st;
  hg_manager *m;
  const char *data;
} live;

static void die(const char *what, int rc) {
  fprintf(stderr, "bench_runtime: %s: %s\n", what, hg_err_str(rc));
  if (live.m) {
    hg_manager_pool_stop(live.m);
    json_t *all = hg_sandbox_list(live.m, NULL, NULL);
    size_t i;
    json_t *sb;
    json_array_foreach(all, i, sb) {
      const char *id = json_string_value(json_object_get(sb, "id"));
      if (id) hg_sandbox_delete(live.m, id);
    }
    json_decref(all);
    hg_manager_close(live.m);
  }
  if (live.st) {
    hg_store_close(live.st, true);
    hg_store_destroy(live.data);
  }
  exit(1);
}

/* Runs argv in the sandbox and waits for it; 0 when it exited 0. */
static int run_cmd(hg_manager *m, const char *id, const char *const *argv, int64_t *exec_ns) {
  hg_exec_req req = {.argv = argv};
  uint64_t cid;
  int pid;
  int64_t t0 = hg_now_ns();
  int rc = hg_sandbox_exec(m, id, &req, &cid, &pid);
  if (exec_ns) *exec_ns = hg_now_ns() - t0;
  if (rc < 0) return rc;
  hg_agent *a;
  if ((rc = hg_sandbox_agent_get(m, id, &a)) < 0) return rc;
  hg_cmd_status st;
  rc = hg_agent_wait(a, cid, 60000, &st);
  hg_sandbox_agent_put(m, id);
  return rc < 0 ? rc : st.exited && st.code == 0 ? 0 : -EIO;
}

static int run_true(hg_manager *m, const char *id) {
  static const char *const argv[] = {"true", NULL};
  return run_cmd(m, id, argv, NULL);
}

static int ping(hg_manager *m, const char *id) {
  hg_agent *a;
  int rc = hg_sandbox_agent_get(m, id, &a);
  if (rc < 0) return rc;
  rc = hg_agent_ping(a, 10000);
  hg_sandbox_agent_put(m, id);
  return rc;
}

/* Work before a suspend: 8 MiB to the disk (synced) and 8 MiB into tmpfs
 * memory, fresh random bytes each time, so the generation has dirty pages
 * and changed blocks to write. */
static int dirty(hg_manager *m, const char *id) {
  static const char *const argv[] = {
      "sh", "-c",
      "mkdir -p /run/bench && (grep -q ' /run/bench ' /proc/mounts || "
      "mount -t tmpfs tmpfs /run/bench) && "
      "dd if=/dev/urandom of=/root/bench.dirty bs=1M count=8 2>/dev/null && "
      "dd if=/dev/urandom of=/run/bench/mem bs=1M count=8 2>/dev/null && sync",
      NULL};
  return run_cmd(m, id, argv, NULL);
}

static void cold_boot(hg_store *st, const hg_template_info *tpl, const char *shim,
                      series *s) {
  char dir[4096], rel[64], k[4200], i[4200], r[4200], tag[HG_ID_MAX];
  hg_id_new("bench", tag);
  snprintf(rel, sizeof rel, "staging/%s", tag);
  int rc = hg_store_snapshot(st, tpl->rel, rel, false);
  if (rc < 0) die("snapshot for cold boot", rc);
  hg_store_abs(st, rel, dir, sizeof dir);
  snprintf(k, sizeof k, "%s/vmlinuz", dir);
  snprintf(i, sizeof i, "%s/initrd.img", dir);
  snprintf(r, sizeof r, "%s/rootfs.img", dir);
  hg_vm_config cfg = {.dir = dir, .kernel = k, .initrd = i, .rootfs = r,
                      .cmdline = tpl->cmdline, .vcpus = tpl->vcpus,
                      .memory_mib = tpl->memory_mib, .tap_fd = -1, .accel = tpl->accel,
                      .shim_path = shim};
  int64_t t0 = hg_now_ns();
  hg_vm *vm;
  if ((rc = hg_vmm_qemu.start(&cfg, &vm)) < 0) die("cold boot", rc);
  hg_agent *a;
  rc = hg_agent_connect(hg_vmm_qemu.agent_path(vm), 120000, &a);
  if (rc == 0) rc = hg_agent_ping(a, 120000);
  if (rc < 0) die("agent after cold boot", rc);
  add(s, t0);
  hg_agent_free(a);
  hg_vmm_qemu.stop(vm);
  hg_vmm_qemu.release(vm);
  hg_store_subvol_delete(st, rel);
}

/* Bytes of `btrfs send -p parent child`, raw and through zstd -1. */
static void send_bytes(hg_store *st, const char *id, uint64_t g1, uint64_t g2,
                       long long *raw, long long *zst) {
  char p[4096], c[4096], cmd[9000];
  char rp[96], rc_[96];
  snprintf(rp, sizeof rp, "snapshots/%s/%llu", id, (unsigned long long)g1);
  snprintf(rc_, sizeof rc_, "snapshots/%s/%llu", id, (unsigned long long)g2);
  hg_store_abs(st, rp, p, sizeof p);
  hg_store_abs(st, rc_, c, sizeof c);
  snprintf(cmd, sizeof cmd,
           "btrfs send -q -p '%s' '%s' | tee >(zstd -1 -c | wc -c > /tmp/bench.zst) | wc -c",
           p, c);
  char full[9100];
  snprintf(full, sizeof full, "bash -c \"%s\"", cmd);
  FILE *f = popen(full, "r");
  *raw = *zst = -1;
  if (!f) return;
  if (fscanf(f, "%lld", raw) != 1) *raw = -1;
  pclose(f);
  usleep(200000);
  f = fopen("/tmp/bench.zst", "r");
  if (f && fscanf(f, "%lld", zst) != 1) *zst = -1;
  if (f) fclose(f);
  unlink("/tmp/bench.zst");
}

/* Waits (up to 120 s) until the pool holds at least want ready sandboxes
 * and as many as it aims for now (it grows with demand), so that no refill
 * runs beside what is timed next. */
static void pool_wait(hg_manager *m, unsigned want) {
  hg_pool_stats ps;
  for (int w = 0; w < 1200; w++) {
    hg_manager_pool_stats(m, &ps);
    if (ps.ready >= want && ps.ready >= ps.target) break;
    usleep(100000);
  }
  usleep(300000); /* the filler's last restore has settled */
}

typedef struct bench {
  hg_manager *m;
  hg_store *st;
  const char *data;
  char image[4200];
  unsigned pool_size;
} bench;

/* One create of tpl to the first `true`; the parts into the series given
 * (any may be NULL). The id is the caller's to delete. */
static void create_one(bench *b, const char *tpl, char id[HG_ID_MAX], series *total,
                       series *begin, series *finish, series *first) {
  hg_sandbox_spec spec = {.template_ref = tpl};
  char token[65];
  int64_t t0 = hg_now_ns(), t1, t2;
  int rc = hg_sandbox_create_begin(b->m, &spec, id, token);
  t1 = hg_now_ns();
  if (rc == 0) rc = hg_sandbox_create_finish(b->m, id);
  t2 = hg_now_ns();
  if (rc == 0) rc = run_true(b->m, id);
  if (rc < 0) die(tpl, rc);
  int64_t t3 = hg_now_ns();
  if (total) add_ms(total, bench_ms(t0, t3));
  if (begin) add_ms(begin, bench_ms(t0, t1));
  if (finish) add_ms(finish, bench_ms(t1, t2));
  if (first) add_ms(first, bench_ms(t2, t3));
}

/* Suspends id (the caller's sandbox, running) and drops from the page
 * cache what a resume of it reads. */
static void suspend_and_drop(bench *b, const char *id) {
  uint64_t gen;
  int rc = hg_sandbox_suspend(b->m, id, &gen);
  if (rc < 0) die("suspend before the drop", rc);
  char sbrel[96], genrel[128], sbdir[4096], gendir[4096];
  snprintf(sbrel, sizeof sbrel, "sandboxes/%s", id);
  snprintf(genrel, sizeof genrel, "snapshots/%s/%llu", id, (unsigned long long)gen);
  hg_store_abs(b->st, sbrel, sbdir, sizeof sbdir);
  hg_store_abs(b->st, genrel, gendir, sizeof gendir);
  const char *dirs[] = {sbdir, gendir};
  rc = bench_drop_files(dirs, 2, access(b->image, F_OK) == 0 ? b->image : NULL);
  if (rc < 0) die("dropping the generation from the page cache", rc);
}

typedef struct burst_arg {
  bench *b;
  int64_t start_ns;
  char id[HG_ID_MAX];
  double ms;
  int rc;
} burst_arg;

static void *burst_one(void *p) {
  burst_arg *a = p;
  int64_t now = hg_now_ns();
  if (a->start_ns > now) usleep((useconds_t)((a->start_ns - now) / 1000));
  hg_sandbox_spec spec = {.template_ref = "bench"};
  char token[65];
  int64_t t0 = hg_now_ns();
  a->rc = hg_sandbox_create_begin(a->b->m, &spec, a->id, token);
  if (a->rc == 0) a->rc = hg_sandbox_create_finish(a->b->m, a->id);
  if (a->rc == 0) a->rc = run_true(a->b->m, a->id);
  a->ms = bench_ms(t0, hg_now_ns());
  return NULL;
}

typedef struct burst_res {
  int n, served;
  unsigned ready_before, target_after;
  series ms;
} burst_res;

/* n creates of "bench" issued evenly over span_s seconds, one thread each. */
static void burst(bench *b, int n, double span_s, burst_res *out) {
  static burst_arg args[MAX_BURST];
  pthread_t th[MAX_BURST];
  hg_pool_stats before, after;
  hg_manager_pool_stats(b->m, &before);
  int64_t t0 = hg_now_ns();
  for (int i = 0; i < n; i++) {
    args[i] = (burst_arg){.b = b, .start_ns = t0 + (int64_t)(span_s * 1e9 * i / n)};
    if (pthread_create(&th[i], NULL, burst_one, &args[i]) != 0) die("thread", -EAGAIN);
  }
  for (int i = 0; i < n; i++) pthread_join(th[i], NULL);
  hg_manager_pool_stats(b->m, &after);
  out->n = n;
  out->served = (int)(after.hits - before.hits);
  out->ready_before = before.ready;
  out->target_after = after.target;
  for (int i = 0; i < n; i++) {
    if (args[i].rc < 0) die("burst create", args[i].rc);
    add_ms(&out->ms, args[i].ms);
    hg_sandbox_delete(b->m, args[i].id);
  }
}

/* The template's files under another digest, so the pool (which serves
 * any template of its digest) does not serve it: a directory of symlinks
 * to them and a template.json whose cmdline gains a word the guest
 * ignores. */
static void nopool_dir(const char *src, const char *dst) {
  static const char *const files[] = {"vmlinuz", "initrd.img", "rootfs.img"};
  char from[4200], to[4200];
  hg_mkdir_p(dst, 0755);
  for (size_t i = 0; i < HG_ARRAY_SIZE(files); i++) {
    if (hg_path(from, sizeof from, "%s/%s", src, files[i]) < 0 ||
        hg_path(to, sizeof to, "%s/%s", dst, files[i]) < 0)
      die("template path", -ENAMETOOLONG);
    unlink(to);
    if (symlink(from, to) < 0) die("symlink for bench-nopool", -errno);
  }
  if (hg_path(from, sizeof from, "%s/template.json", src) < 0 ||
      hg_path(to, sizeof to, "%s/template.json", dst) < 0)
    die("template path", -ENAMETOOLONG);
  json_t *j = json_load_file(from, 0, NULL);
  if (!j) die("template.json", -EPROTO);
  char cmdline[600];
  const char *c = json_string_value(json_object_get(j, "cmdline"));
  snprintf(cmdline, sizeof cmdline, "%s hangar.bench=nopool",
           c ? c : "console=ttyS0 quiet panic=-1 tsc_early_khz=2000000");
  json_object_set_new(j, "cmdline", json_string(cmdline));
  if (json_dump_file(j, to, 0) < 0) die("template.json for bench-nopool", -EIO);
  json_decref(j);
}

/* The jail's cost: see --jail-compare above. The pool is stopped: no other
 * VM start runs beside these, and no other thread reads the environment
 * while it changes. on/off: [0] create to 1st true, [1] resume. */
static void jail_compare(bench *b, int runs, series on[2], series off[2]) {
  for (int i = -1; i < runs; i++) {
    for (int k = 0; k < 2; k++) {
      bool jail = (i + 2 + k) % 2 == 0;
      if (jail)
        unsetenv("HANGAR_VMM_JAIL");
      else
        setenv("HANGAR_VMM_JAIL", "off", 1);
      series *s = jail ? on : off;
      char id[HG_ID_MAX];
      create_one(b, "bench-nopool", id, i >= 0 ? &s[0] : NULL, NULL, NULL, NULL);
      uint64_t gen;
      int rc = hg_sandbox_suspend(b->m, id, &gen);
      if (rc < 0) die("suspend (jail compare)", rc);
      int64_t t0 = hg_now_ns();
      if ((rc = hg_sandbox_resume(b->m, id)) < 0) die("resume (jail compare)", rc);
      if (i >= 0) add(&s[1], t0);
      hg_sandbox_delete(b->m, id);
    }
  }
  unsetenv("HANGAR_VMM_JAIL");
}

static void usage(void) {
  fprintf(stderr,
          "usage: bench_runtime --template-dir DIR [--data DIR] [--runs N] [--burst N]\n"
          "                     [--burst-s S] [--pool-size P] [--cold-runs C] "
          "[--idle-send 0|1]\n"
          "                     [--quick] [--jail-compare J] [--json FILE]\n");
  exit(2);
}

int main(int argc, char **argv) {
  const char *tpl_dir = NULL, *data = "/tmp/hangar-bench", *json_out = NULL;
  int runs = 20, cold_runs = 5, burst_n = 20, jail_runs = 0;
  double burst_s = 2;
  unsigned pool_size = 2;
  bool quick = false, idle_send = true;
  for (int i = 1; i < argc; i++) {
    const char *v = i + 1 < argc ? argv[i + 1] : NULL;
    if (!strcmp(argv[i], "--quick")) {
      quick = true;
      continue;
    }
    if (!v) usage();
    if (!strcmp(argv[i], "--template-dir")) tpl_dir = v;
    else if (!strcmp(argv[i], "--data")) data = v;
    else if (!strcmp(argv[i], "--runs")) runs = atoi(v);
    else if (!strcmp(argv[i], "--json")) json_out = v;
    else if (!strcmp(argv[i], "--burst")) burst_n = atoi(v);
    else if (!strcmp(argv[i], "--burst-s")) burst_s = atof(v);
    else if (!strcmp(argv[i], "--pool-size")) pool_size = (unsigned)atoi(v);
    else if (!strcmp(argv[i], "--cold-runs")) cold_runs = atoi(v);
    else if (!strcmp(argv[i], "--idle-send")) idle_send = atoi(v) != 0;
    else if (!strcmp(argv[i], "--jail-compare"))
      jail_runs = atoi(v);
    else usage();
    i++;
  }
  if (quick) {
    runs = 3;
    cold_runs = 1;
    burst_n = 5;
    burst_s = 0.5;
    idle_send = false;
  }
  if (!tpl_dir || runs < 1 || runs > MAX_RUNS || burst_n < 0 || burst_n > MAX_BURST ||
      burst_s < 0 || pool_size < 1 || cold_runs < 1 || jail_runs < 0 ||
      jail_runs > MAX_RUNS)
    usage();
  if (cold_runs > runs) cold_runs = runs;
  hg_log_set_level(getenv("BENCH_DEBUG") ? HG_LOG_DEBUG : HG_LOG_WARN);
  char shim[4096];
  ssize_t len = readlink("/proc/self/exe", shim, sizeof shim - 64);
  shim[len > 0 ? len : 0] = '\0';
  *strrchr(shim, '/') = '\0';
  strcat(shim, "/../../node/shim/hangar-shim");

  /* The accelerator hangard would choose here, proven the same way. */
  char kernel[4200];
  hg_accel accel;
  snprintf(kernel, sizeof kernel, "%s/vmlinuz", tpl_dir);
  hg_accel_choose(HG_ACCEL_AUTO, kernel, HG_ACCEL_PROBE_MS, &accel);
  fprintf(stderr, "accelerator: %s (%s)\n", accel.name, accel.reason);
  bench b = {.data = data, .pool_size = pool_size};
  snprintf(b.image, sizeof b.image, "%s.img", data);
  hg_store_options so = {.image_size = 16ull << 30};
  int rc = hg_store_open(data, &so, &b.st);
  if (rc < 0) die("store", rc);
  live.st = b.st;
  live.data = data;
  hg_template_info tpl, tpl_nopool;
  char nopool_src[4200];
  if (hg_path(nopool_src, sizeof nopool_src, "%s-nopool-template", data) < 0) usage();
  nopool_dir(tpl_dir, nopool_src);
  fprintf(stderr, "building templates...\n");
  hg_template_build_args ta = {.store = b.st, .vmm = &hg_vmm_qemu, .shim_path = shim,
                               .accel = accel.name};
  if ((rc = hg_template_build(&ta, "bench:latest", tpl_dir, &tpl, NULL)) < 0 ||
      (rc = hg_template_build(&ta, "bench-nopool:latest", nopool_src, &tpl_nopool, NULL)) < 0)
    die("template", rc);
  hg_manager_config mc = {.store = b.st, .vmm = &hg_vmm_qemu, .shim_path = shim,
                          .accel = accel.name, .pool_size = pool_size, .pool_template = "bench:latest"};
  if ((rc = hg_manager_open(&mc, &b.m)) < 0) die("manager", rc);
  live.m = b.m;

  static series cold, warm, warm_begin, warm_finish, warm_first, nopool, nopool_begin,
      nopool_finish, nopool_first, exec, pings, susp, res_warm, res_cold;
  cold.name = "cold boot to agent ping";
  warm.name = "create, warm pool, to 1st true";
  warm_begin.name = "  pool: create_begin";
  warm_finish.name = "  pool: create_finish";
  warm_first.name = "  pool: first true";
  nopool.name = "create, no pool, to 1st true";
  nopool_begin.name = "  no pool: create_begin";
  nopool_finish.name = "  no pool: create_finish";
  nopool_first.name = "  no pool: first true";
  exec.name = "exec round trip (true)";
  pings.name = "agent ping round trip";
  susp.name = "suspend after 16 MiB work";
  res_warm.name = "resume, gen in page cache";
  res_cold.name = "resume, gen dropped";
  fprintf(stderr, "cold boots...\n");
  for (int i = 0; i < cold_runs; i++) cold_boot(b.st, &tpl, shim, &cold);

  fprintf(stderr, "%d runs...\n", runs);
  for (int i = -1; i < runs; i++) { /* run -1: the untimed warm-up */
    bool timed = i >= 0;
    char wid[HG_ID_MAX], cid[HG_ID_MAX];
    pool_wait(b.m, pool_size);
    create_one(&b, "bench", wid, timed ? &warm : NULL, timed ? &warm_begin : NULL,
               timed ? &warm_finish : NULL, timed ? &warm_first : NULL);
    pool_wait(b.m, pool_size);
    create_one(&b, "bench-nopool", cid, timed ? &nopool : NULL, timed ? &nopool_begin : NULL,
               timed ? &nopool_finish : NULL, timed ? &nopool_first : NULL);
    for (int k = 0; k < 5; k++) {
      int64_t t0 = hg_now_ns();
      if ((rc = run_true(b.m, wid)) < 0) die("exec", rc);
      if (timed) add(&exec, t0);
      t0 = hg_now_ns();
      if ((rc = ping(b.m, wid)) < 0) die("ping", rc);
      if (timed) add(&pings, t0);
    }
    hg_sandbox_delete(b.m, wid);
    if ((rc = dirty(b.m, cid)) < 0) die("work before suspend", rc);
    uint64_t gen;
    int64_t t0 = hg_now_ns();
    if ((rc = hg_sandbox_suspend(b.m, cid, &gen)) < 0) die("suspend", rc);
    if (timed) add(&susp, t0);
    t0 = hg_now_ns();
    if ((rc = hg_sandbox_resume(b.m, cid)) < 0) die("resume", rc);
    if (timed) add(&res_warm, t0);
    suspend_and_drop(&b, cid);
    t0 = hg_now_ns();
    if ((rc = hg_sandbox_resume(b.m, cid)) < 0) die("resume after the drop", rc);
    if (timed) add(&res_cold, t0);
    hg_sandbox_delete(b.m, cid);
  }

  /* Increment of a sandbox left idle for 10 s between two suspends. */
  long long raw = -1, zst = -1;
  if (idle_send) {
    fprintf(stderr, "idle increment...\n");
    char id[HG_ID_MAX];
    create_one(&b, "bench-nopool", id, NULL, NULL, NULL, NULL);
    uint64_t g1, g2;
    if (hg_sandbox_suspend(b.m, id, &g1) == 0 && hg_sandbox_resume(b.m, id) == 0) {
      sleep(10);
      if (hg_sandbox_suspend(b.m, id, &g2) == 0) send_bytes(b.st, id, g1, g2, &raw, &zst);
    }
    hg_sandbox_delete(b.m, id);
  }

  static burst_res bursts[2];
  if (burst_n > 0) {
    fprintf(stderr, "bursts of %d creates within %.1f s...\n", burst_n, burst_s);
    pool_wait(b.m, pool_size);
    burst(&b, burst_n, burst_s, &bursts[0]);
    hg_pool_stats ps;
    for (int w = 0; w < 600; w++) { /* 60 s for the pool to grow */
      hg_manager_pool_stats(b.m, &ps);
      if (ps.ready >= ps.target) break;
      usleep(100000);
    }
    burst(&b, burst_n, burst_s, &bursts[1]);
  }
  hg_manager_pool_stop(b.m);
  static series jail_on[2], jail_off[2];
  if (jail_runs > 0) {
    fprintf(stderr, "jail compare, %d runs...\n", jail_runs);
    jail_compare(&b, jail_runs, jail_on, jail_off);
  }

  double cold50 = pct(&cold, 0.5);
  series *all[] = {&cold,         &warm,    &warm_begin,    &warm_finish,
                   &warm_first,   &nopool,  &nopool_begin,  &nopool_finish,
                   &nopool_first, &exec,    &pings,         &susp,
                   &res_warm,     &res_cold};
  printf("bench_runtime: pool size %u, %d runs after 1 warm-up\n", pool_size, runs);
  printf("%-32s %6s %10s %10s %16s\n", "measure", "runs", "p50 ms", "p90 ms",
         "p50 / cold boot");
  for (size_t i = 0; i < HG_ARRAY_SIZE(all); i++)
    printf("%-32s %6d %10.1f %10.1f %16.4f\n", all[i]->name, all[i]->n, pct(all[i], 0.5),
           pct(all[i], 0.9), pct(all[i], 0.5) / cold50);
  for (int k = 0; k < 2 && burst_n > 0; k++)
    printf("burst %d: %d creates in %.1f s: %d from the pool (%u ready before, target "
           "after %u); to 1st true p50 %.1f ms, p90 %.1f ms (cold boot %.1f ms)\n",
           k + 1, bursts[k].n, burst_s, bursts[k].served, bursts[k].ready_before,
           bursts[k].target_after, pct(&bursts[k].ms, 0.5), pct(&bursts[k].ms, 0.9), cold50);
  printf("%-32s raw %lld B, zstd -1 %lld B\n", "incremental send, 10 s idle", raw, zst);
  if (jail_runs > 0) {
    static const char *const what[] = {"create, no pool, to 1st true",
                                       "resume, gen in page cache"};
    printf("%-32s %6s %14s %14s %8s\n", "VMM jail's cost", "runs", "jailed p50 ms",
           "no jail p50 ms", "cost");
    for (int k = 0; k < 2; k++) {
      double a = pct(&jail_on[k], 0.5), o = pct(&jail_off[k], 0.5);
      printf("%-32s %6d %14.1f %14.1f %+7.1f%%\n", what[k], jail_on[k].n, a, o,
             (a / o - 1) * 100);
    }
  }
  printf("page cache drop before \"resume, gen dropped\": syncfs + POSIX_FADV_DONTNEED over "
         "the sandbox's and the generation's files and the store's loop image\n");
  if (json_out) {
    FILE *f = fopen(json_out, "w");
    if (f) {
      fprintf(f, "{\"pool_size\": %u, \"runs\": %d, \"quick\": %s, \"cache_drop\": "
                 "\"syncfs + posix_fadvise(DONTNEED) over the generation's and sandbox's files "
                 "and the store's loop image\", ", pool_size, runs, quick ? "true" : "false");
      for (size_t i = 0; i < HG_ARRAY_SIZE(all); i++) {
        const char *n = all[i]->name;
        while (*n == ' ') n++;
        fprintf(f, "\"%s\": {\"runs\": %d, \"p50_ms\": %.2f, \"p90_ms\": %.2f, "
                   "\"ratio_to_cold_boot\": %.5f}, ",
                n, all[i]->n, pct(all[i], 0.5), pct(all[i], 0.9), pct(all[i], 0.5) / cold50);
      }
      fprintf(f, "\"bursts\": [");
      for (int k = 0; k < 2 && burst_n > 0; k++)
        fprintf(f, "%s{\"creates\": %d, \"within_s\": %.2f, \"from_pool\": %d, "
                   "\"ready_before\": %u, \"target_after\": %u, \"p50_ms\": %.2f, "
                   "\"p90_ms\": %.2f}",
                k ? ", " : "", bursts[k].n, burst_s, bursts[k].served, bursts[k].ready_before,
                bursts[k].target_after, pct(&bursts[k].ms, 0.5), pct(&bursts[k].ms, 0.9));
      fprintf(f, "], \"incremental_send_10s_idle\": {\"raw_bytes\": %lld, \"zstd1_bytes\": "
                 "%lld}}\n", raw, zst);
      fclose(f);
    }
  }
  hg_manager_close(b.m);
  hg_store_close(b.st, true);
  hg_store_destroy(data);
  static const char *const links[] = {"vmlinuz", "initrd.img", "rootfs.img", "template.json"};
  for (size_t i = 0; i < HG_ARRAY_SIZE(links); i++) {
    char p[4300];
    if (hg_path(p, sizeof p, "%s/%s", nopool_src, links[i]) == 0) unlink(p);
  }
  rmdir(nopool_src);
  return 0;
}
