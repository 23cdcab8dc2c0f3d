/* Integration: the crash of a host that owns many sandboxes (issue 14,
 * DESIGN §9 "Failover") on three real hangards (tools/cluster, real VMs).
 * Node 1 owns N sandboxes with three copies each, half of them running,
 * half suspended, every one with its state (a file naming it) in a
 * replicated generation. Its host crashes (hangard, shims and VMs at
 * once). With no call from anyone:
 *   - every sandbox gets a live owner at a higher epoch; the running ones
 *     run again (an exec answers with their file), the suspended ones stay
 *     suspended;
 *   - at no moment do two VMs of one sandbox run: every node's process
 *     table is sampled all along, and the survivors' logs show each
 *     running sandbox started by one node only;
 *   - the survivors' API answers throughout (GET /v1/node). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <inttypes.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "node/core/util.h"
#include "tests/integration/cluster_harness.h"

#define NODES 3
#define OWNER 1
#define N 20 /* even: the first half runs, the second is suspended */
#define VM_TIMEOUT_MS 330000
#define WAIT "300"
#define FAILOVER_WAIT_MS 180000 /* a wait, not a bound: bench_failover times it */

static hg_itc C;
static char ID[N][32];
static uint64_t EPOCH[N];

static bool runs(int k) { return k < N / 2; }

static int setup(void **state) {
  static const char *const extra[] = {"--pool-size", "4", NULL};
  hg_itc_opts o = {.with_template = true, .ready_timeout_s = 360, .deadline_s = 1200,
                   .extra = extra};
  return hg_itc_group_up(&C, NODES, &o) >= 0 ? 0 : -1;
}

static int teardown(void **state) { return hg_itc_group_down(&C); }

static json_t *call(int i, const char *method, const char *path, json_t *body, long want) {
  json_t *j = NULL;
  assert_true(hg_itc_expect(&C, i, NULL, method, path, body, want, VM_TIMEOUT_MS, &j));
  return j;
}

static void sb_post(int via, const char *id, const char *what, const char *query) {
  char path[160];
  snprintf(path, sizeof path, "/v1/sandboxes/%s/%s?wait=" WAIT "%s", id, what, query);
  json_decref(call(via, "POST", path, NULL, 200));
}

/* Sandbox k, made through node 1, its file written, its state in a
 * replicated generation, then owned by OWNER: running, or suspended
 * again there. */
static void make(int k) {
  json_t *body = json_pack("{s:i}", "replicas", 3);
  json_t *j = call(1, "POST", "/v1/sandboxes?wait=" WAIT, body, 201);
  json_decref(body);
  snprintf(ID[k], sizeof ID[k], "%s", hg_it_str(j, "id"));
  json_decref(j);
  char cmd[64];
  snprintf(cmd, sizeof cmd, "echo %d > /root/mark && sync", k);
  char *out = hg_itc_sh(&C, 1, NULL, ID[k], cmd, 120000);
  assert_non_null(out);
  free(out);
  char q[32];
  snprintf(q, sizeof q, "&node=n%d", OWNER);
  sb_post(1, ID[k], "suspend", "");
  sb_post(OWNER, ID[k], "resume", q);
  if (!runs(k)) sb_post(OWNER, ID[k], "suspend", "");
  char st[16];
  assert_int_equal(hg_itc_owner(&C, 2, ID[k], &EPOCH[k], st), OWNER);
  assert_string_equal(st, runs(k) ? "running" : "suspended");
}

/* Lines of node i's log that name id and hold what. */
static int log_count(int i, const char *id, const char *what) {
  char path[512], line[2048];
  snprintf(path, sizeof path, "%s/n%d/hangard.log", C.dir, i);
  FILE *f = fopen(path, "r");
  if (!f) return 0;
  int n = 0;
  while (fgets(line, sizeof line, f))
    if (strstr(line, id) && strstr(line, what)) n++;
  fclose(f);
  return n;
}

/* Whether sandbox k is back: a live owner other than OWNER at a higher
 * epoch, in the state it had. */
static bool back(int via, int k) {
  uint64_t e = 0;
  char st[16];
  int o = hg_itc_owner(&C, via, ID[k], &e, st);
  return o && o != OWNER && e > EPOCH[k] && !strcmp(st, runs(k) ? "running" : "suspended");
}

static void a_crashed_hosts_sandboxes_all_come_back_on_survivors(void **state) {
  int64_t t = hg_now_ms();
  for (int k = 0; k < N; k++) make(k);
  fprintf(stderr, "%d sandboxes on n%d (%d running) in %lld ms\n", N, OWNER, N / 2,
          (long long)(hg_now_ms() - t));

  int64_t t0 = hg_now_ms();
  assert_int_equal(hg_itc_tool(&C, "crash", hg_itc_id(OWNER) + 1, NULL), 0);
  C.killed[OWNER] = true;
  int a = 2, b = 3, done = 0, polls = 0;
  int64_t api_max_ms = 0, all_ms = 0;
  while (done < N) {
    for (int k = 0; k < N; k++) assert_true(hg_itc_vmms(&C, ID[k]) <= 1);
    int64_t q0 = hg_now_ms();
    long st = 0;
    json_decref(hg_itc_json(&C, polls % 2 ? a : b, NULL, "GET", "/v1/node", NULL, 30000, &st));
    assert_int_equal(st, 200); /* the survivors answer during the failover */
    int64_t took = hg_now_ms() - q0;
    if (took > api_max_ms) api_max_ms = took;
    polls++;
    done = 0;
    for (int k = 0; k < N; k++) done += back(polls % 2 ? b : a, k);
    assert_true(hg_now_ms() - t0 < FAILOVER_WAIT_MS);
    if (done < N) usleep(200 * 1000);
  }
  all_ms = hg_now_ms() - t0;
  fprintf(stderr, "all %d owned by survivors %lld ms after the crash; GET /v1/node answered "
          "%d times, slowest %lld ms\n", N, (long long)all_ms, polls, (long long)api_max_ms);

  int on[NODES + 1] = {0};
  for (int k = 0; k < N; k++) {
    int o = hg_itc_owner(&C, a, ID[k], NULL, NULL);
    assert_int_equal(hg_itc_owner(&C, b, ID[k], NULL, NULL), o); /* any node says the same */
    on[o]++;
    if (!runs(k)) {
      assert_int_equal(hg_itc_vmms(&C, ID[k]), 0);
      continue;
    }
    assert_int_equal(hg_itc_vmms(&C, ID[k]), 1);
    char want[16], *out = hg_itc_sh(&C, a, NULL, ID[k], "cat /root/mark", 120000);
    assert_non_null(out);
    snprintf(want, sizeof want, "%d\n", k);
    assert_string_equal(out, want);
    free(out);
    /* Started by one survivor only, by its failover's run step. */
    int starts = 0;
    for (int i = 1; i <= NODES; i++)
      if (i != OWNER) starts += log_count(i, ID[k], "step=run err=\"none\"");
    assert_int_equal(starts, 1);
  }
  fprintf(stderr, "owners now: n2 %d, n3 %d\n", on[2], on[3]);
  assert_int_equal(on[2] + on[3], N);

  char path[96];
  for (int k = 0; k < N; k++) {
    snprintf(path, sizeof path, "/v1/sandboxes/%.31s?wait=" WAIT, ID[k]);
    json_decref(call(a, "DELETE", path, NULL, 200));
  }
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(a_crashed_hosts_sandboxes_all_come_back_on_survivors),
  };
  return hg_it_run_group(tests, setup, teardown);
}
