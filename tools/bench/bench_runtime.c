/* bench_runtime: the node runtime's latencies on this machine, each beside a
 * baseline measured in the same run (a cold boot of the same template).
 *
 *   bench_runtime --template-dir DIR [--data DIR] [--runs N] [--json FILE]
 *
 * Measures, sequentially, through the sandbox manager (no HTTP):
 *   cold boot of the template to a ping from the agent   (baseline)
 *   create (CoW snapshot + restore) to the first `true` exited
 *   the same from the warm pool (a sandbox restored and warmed beforehand)
 *   exec round trip of `true`
 *   suspend, resume (from the generation on disk)
 *   bytes of an incremental btrfs send after 10 s idle, raw and zstd -1
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "node/core/err.h"
#include "node/core/log.h"
#include "node/core/util.h"
#include "node/sandbox.h"
#include "node/template.h"
#include "tools/bench/bench_util.h"

#define MAX_RUNS 1000

typedef struct series {
  const char *name;
  double ms[MAX_RUNS];
  int n;
} series;

static double pct(series *s, double p) {
  return bench_pct(s->ms, s->n, p);
}

static void add(series *s, int64_t t0) {
  if (s->n < MAX_RUNS) s->ms[s->n++] = bench_ms(t0, hg_now_ns());
}

static void die(const char *what, int rc) {
  fprintf(stderr, "bench_runtime: %s: %s\n", what, hg_err_str(rc));
  exit(1);
}

static int run_true(hg_manager *m, const char *id) {
  static const char *const argv[] = {"true", NULL};
  hg_exec_req req = {.argv = argv};
  uint64_t cid;
  int pid;
  int rc = hg_sandbox_exec(m, id, &req, &cid, &pid);
  if (rc < 0) return rc;
  hg_agent *a;
  if ((rc = hg_sandbox_agent_get(m, id, &a)) < 0) return rc;
  hg_cmd_status st;
  rc = hg_agent_wait(a, cid, 10000, &st);
  hg_sandbox_agent_put(m, id);
  return rc < 0 ? rc : st.exited && st.code == 0 ? 0 : -EIO;
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
                      .memory_mib = tpl->memory_mib, .tap_fd = -1, .shim_path = shim};
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

int main(int argc, char **argv) {
  const char *tpl_dir = NULL, *data = "/tmp/hangar-bench", *json_out = NULL;
  int runs = 20;
  for (int i = 1; i + 1 < argc; i += 2) {
    if (!strcmp(argv[i], "--template-dir")) tpl_dir = argv[i + 1];
    else if (!strcmp(argv[i], "--data")) data = argv[i + 1];
    else if (!strcmp(argv[i], "--runs")) runs = atoi(argv[i + 1]);
    else if (!strcmp(argv[i], "--json")) json_out = argv[i + 1];
  }
  if (!tpl_dir || runs < 1 || runs > MAX_RUNS) {
    fprintf(stderr, "usage: bench_runtime --template-dir DIR [--data DIR] [--runs N] [--json FILE]\n");
    return 2;
  }
  hg_log_set_level(HG_LOG_WARN);
  char shim[4096];
  ssize_t len = readlink("/proc/self/exe", shim, sizeof shim - 64);
  shim[len > 0 ? len : 0] = '\0';
  *strrchr(shim, '/') = '\0';
  strcat(shim, "/../../node/shim/hangar-shim");

  hg_store *st;
  hg_store_options so = {.image_size = 16ull << 30};
  int rc = hg_store_open(data, &so, &st);
  if (rc < 0) die("store", rc);
  hg_template_info tpl;
  fprintf(stderr, "building template...\n");
  hg_template_build_args ta = {.store = st, .vmm = &hg_vmm_qemu, .shim_path = shim};
  if ((rc = hg_template_build(&ta, "bench:latest", tpl_dir, &tpl, NULL)) < 0)
    die("template", rc);
  hg_manager *m;
  hg_manager_config mc = {.store = st, .vmm = &hg_vmm_qemu, .shim_path = shim};
  if ((rc = hg_manager_open(&mc, &m)) < 0) die("manager", rc);

  static series cold, create, exec, susp, res;
  cold.name = "cold boot to agent ping";
  create.name = "create to first exec";
  exec.name = "exec round trip (true)";
  susp.name = "suspend";
  res.name = "resume";
  int cold_runs = runs < 5 ? runs : 5;
  for (int i = 0; i < cold_runs; i++) cold_boot(st, &tpl, shim, &cold);

  hg_sandbox_spec spec = {.template_ref = "bench:latest"};
  char ids[MAX_RUNS][HG_ID_MAX], token[65];
  for (int i = 0; i < runs; i++) {
    int64_t t0 = hg_now_ns();
    if ((rc = hg_sandbox_create_begin(m, &spec, ids[i], token)) < 0 ||
        (rc = hg_sandbox_create_finish(m, ids[i])) < 0 || (rc = run_true(m, ids[i])) < 0)
      die("create", rc);
    add(&create, t0);
    for (int k = 0; k < 5; k++) {
      t0 = hg_now_ns();
      if ((rc = run_true(m, ids[i])) < 0) die("exec", rc);
      add(&exec, t0);
    }
    uint64_t gen;
    t0 = hg_now_ns();
    if ((rc = hg_sandbox_suspend(m, ids[i], &gen)) < 0) die("suspend", rc);
    add(&susp, t0);
    t0 = hg_now_ns();
    if ((rc = hg_sandbox_resume(m, ids[i])) < 0) die("resume", rc);
    add(&res, t0);
    if (i > 0) hg_sandbox_delete(m, ids[i]);
  }

  /* Increment of a sandbox left idle for 10 s between two suspends. */
  uint64_t g1, g2;
  long long raw = -1, zst = -1;
  if (hg_sandbox_suspend(m, ids[0], &g1) == 0 && hg_sandbox_resume(m, ids[0]) == 0) {
    sleep(10);
    if (hg_sandbox_suspend(m, ids[0], &g2) == 0) send_bytes(st, ids[0], g1, g2, &raw, &zst);
  }
  hg_sandbox_delete(m, ids[0]);

  /* The same creates with the warm pool on: each takes a sandbox the pool
   * restored and warmed beforehand (the refill is not timed, its cost is
   * the "create to first exec" line above). */
  hg_manager_close(m);
  mc.pool_size = 1;
  mc.pool_template = "bench:latest";
  if ((rc = hg_manager_open(&mc, &m)) < 0) die("manager with pool", rc);
  static series warm;
  warm.name = "create from warm pool";
  for (int i = 0; i < runs; i++) {
    for (int w = 0; w < 600 && hg_manager_pool_ready(m) == 0; w++) usleep(100000);
    char wid[HG_ID_MAX];
    int64_t t0 = hg_now_ns();
    if ((rc = hg_sandbox_create_begin(m, &spec, wid, token)) < 0 ||
        (rc = hg_sandbox_create_finish(m, wid)) < 0 || (rc = run_true(m, wid)) < 0)
      die("warm create", rc);
    add(&warm, t0);
    hg_sandbox_delete(m, wid);
  }
  hg_manager_pool_stop(m);

  double cold50 = pct(&cold, 0.5);
  series *all[] = {&cold, &create, &warm, &exec, &susp, &res};
  printf("%-28s %6s %10s %10s %14s\n", "measure", "runs", "p50 ms", "p90 ms", "p50 / cold boot");
  for (size_t i = 0; i < HG_ARRAY_SIZE(all); i++)
    printf("%-28s %6d %10.1f %10.1f %14.3f\n", all[i]->name, all[i]->n, pct(all[i], 0.5),
           pct(all[i], 0.9), pct(all[i], 0.5) / cold50);
  printf("%-28s raw %lld B, zstd -1 %lld B\n", "incremental send, 10 s idle", raw, zst);
  if (json_out) {
    FILE *f = fopen(json_out, "w");
    if (f) {
      fprintf(f, "{");
      for (size_t i = 0; i < HG_ARRAY_SIZE(all); i++)
        fprintf(f, "\"%s\": {\"runs\": %d, \"p50_ms\": %.2f, \"p90_ms\": %.2f, \"ratio_to_cold_boot\": %.4f}, ",
                all[i]->name, all[i]->n, pct(all[i], 0.5), pct(all[i], 0.9), pct(all[i], 0.5) / cold50);
      fprintf(f, "\"incremental_send_10s_idle\": {\"raw_bytes\": %lld, \"zstd1_bytes\": %lld}}\n", raw, zst);
      fclose(f);
    }
  }
  hg_manager_close(m);
  hg_store_close(st, true);
  hg_store_destroy(data);
  return 0;
}
