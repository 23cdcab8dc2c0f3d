/* Integration: automatic failover (DESIGN §9 "Failover", issue 14) on three
 * real hangards (tools/cluster, real VMs). One node owns two sandboxes
 * with three copies each: RUN runs, and its state (a counter file) is in a
 * replicated generation (suspended, then resumed once on its owner); SUS
 * is suspended. The owner's host crashes (tools/cluster crash: hangard,
 * shims and VMs SIGKILLed at once). With no call from anyone:
 *   - RUN runs again on a survivor: an exec through any node answers and
 *     its file is there; GET through any node names the new owner and a
 *     higher epoch; at no moment do two VMs of it run (the VMM pids of
 *     every node's sandbox dir);
 *   - SUS has a new live owner at a higher epoch, still suspended, and a
 *     resume through any node later brings it back with its file.
 * Then the crashed node starts again: nothing of it runs, and its copies
 * leave its sandboxes/ (rolled back to their newest generation at its
 * restart, then handed back to the new owners and kept as replicas). */
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
#define VM_TIMEOUT_MS 330000
#define WAIT "300"
#define FAILOVER_WAIT_MS 90000 /* a wait, not a bound: bench_failover times it */

static hg_itc C;
static char RUN[32], SUS[32];
static int OWNER;
static uint64_t RUN_EPOCH, SUS_EPOCH;

static int setup(void **state) {
  hg_itc_opts o = {.with_template = true, .ready_timeout_s = 360, .deadline_s = 900};
  return hg_itc_group_up(&C, NODES, &o) >= 0 ? 0 : -1;
}

static int teardown(void **state) { return hg_itc_group_down(&C); }

static json_t *call(int i, const char *method, const char *path, json_t *body, long want) {
  json_t *j = NULL;
  assert_true(hg_itc_expect(&C, i, NULL, method, path, body, want, VM_TIMEOUT_MS, &j));
  return j;
}

/* GET through node via: the owner's number (0: none yet), epoch, state. */
static int owner_of(int via, const char *id, uint64_t *epoch, char state[16]) {
  char path[96];
  snprintf(path, sizeof path, "/v1/sandboxes/%s", id);
  long st = 0;
  json_t *j = hg_itc_json(&C, via, NULL, "GET", path, NULL, 10000, &st);
  const char *node = st == 200 ? hg_it_str(j, "node") : NULL;
  const char *s = st == 200 ? hg_it_str(j, "state") : NULL;
  int owner = node && node[0] == 'n' ? atoi(node + 1) : 0;
  if (epoch) *epoch = (uint64_t)json_integer_value(json_object_get(j, "epoch"));
  if (state) snprintf(state, 16, "%s", s ? s : "");
  json_decref(j);
  return owner;
}

static char *make(int replicas_on) {
  json_t *body = json_pack("{s:i}", "replicas", 3);
  json_t *j = call(replicas_on, "POST", "/v1/sandboxes?wait=" WAIT, body, 201);
  json_decref(body);
  char *id = strdup(hg_it_str(j, "id"));
  json_decref(j);
  return id;
}

static void sb_post(int via, const char *id, const char *what, const char *query) {
  char path[160];
  snprintf(path, sizeof path, "/v1/sandboxes/%s/%s?wait=" WAIT "%s", id, what, query);
  json_decref(call(via, "POST", path, NULL, 200));
}

/* VMM processes alive for id, over every node's sandbox dir. */
static int vmms_of(const char *id) {
  int n = 0;
  for (int i = 1; i <= NODES; i++) {
    char path[512], *text = NULL;
    size_t len = 0;
    snprintf(path, sizeof path, "%s/n%d/data/sandboxes/%s/shim.json", C.dir, i, id);
    if (hg_read_file(path, 1 << 16, &text, &len) < 0) continue;
    json_t *j = json_loadb(text, len, 0, NULL);
    free(text);
    int pid = (int)json_integer_value(json_object_get(j, "vmm_pid"));
    json_decref(j);
    char proc[64];
    snprintf(proc, sizeof proc, "/proc/%d/stat", pid);
    if (pid > 0 && access(proc, F_OK) == 0 && kill(pid, 0) == 0) n++;
  }
  return n;
}

static int survivor(int k) { /* the k-th (0, 1) node that is not OWNER */
  int s[2], n = 0;
  for (int i = 1; i <= NODES; i++)
    if (i != OWNER) s[n++] = i;
  return s[k];
}

/* --- the owner's host crashes ---------------------------------------------------- */

static void a_crashed_owners_sandboxes_come_back_on_survivors(void **state) {
  char *sus = make(1), *run = make(1);
  snprintf(SUS, sizeof SUS, "%s", sus);
  snprintf(RUN, sizeof RUN, "%s", run);
  free(sus);
  free(run);
  OWNER = owner_of(1, SUS, NULL, NULL);
  assert_true(OWNER >= 1);
  char q[32];
  snprintf(q, sizeof q, "&node=n%d", OWNER);
  char *out = hg_itc_sh(&C, 1, NULL, SUS, "echo kept > /root/sus && sync", 120000);
  assert_non_null(out);
  free(out);
  out = hg_itc_sh(&C, 1, NULL, RUN, "echo 41 > /root/counter && sync", 120000);
  assert_non_null(out);
  free(out);
  sb_post(1, SUS, "suspend", "");
  sb_post(1, RUN, "suspend", "");
  sb_post(OWNER, RUN, "resume", q); /* RUN runs on OWNER, its state in gen 1 */
  assert_int_equal(owner_of(1, RUN, &RUN_EPOCH, NULL), OWNER);
  assert_int_equal(owner_of(1, SUS, &SUS_EPOCH, NULL), OWNER);
  assert_int_equal(vmms_of(RUN), 1);

  int64_t t0 = hg_now_ms();
  assert_int_equal(hg_itc_tool(&C, "crash", hg_itc_id(OWNER) + 1, NULL), 0);
  C.killed[OWNER] = true;
  int a = survivor(0), b = survivor(1);

  /* No call: RUN runs again on a survivor, never beside another VM. */
  int run_owner = 0, sus_owner = 0;
  uint64_t e = 0, se = 0;
  char st[16], sst[16];
  for (;; usleep(200 * 1000)) {
    assert_true(vmms_of(RUN) <= 1);
    run_owner = owner_of(a, RUN, &e, st);
    if (run_owner && run_owner != OWNER && !strcmp(st, "running") && e > RUN_EPOCH) break;
    assert_true(hg_now_ms() - t0 < FAILOVER_WAIT_MS);
  }
  fprintf(stderr, "RUN: owner n%d epoch %" PRIu64 " (was n%d at %" PRIu64 "), %lld ms after "
          "the crash\n", run_owner, e, OWNER, RUN_EPOCH, (long long)(hg_now_ms() - t0));
  out = hg_itc_sh(&C, b, NULL, RUN, "cat /root/counter", 120000);
  assert_non_null(out);
  assert_string_equal(out, "41\n");
  free(out);
  assert_int_equal(vmms_of(RUN), 1);
  uint64_t e_b;
  assert_int_equal(owner_of(b, RUN, &e_b, NULL), run_owner);
  assert_int_equal(e_b, e);

  /* SUS: a new live owner, still suspended. */
  for (;; usleep(200 * 1000)) {
    sus_owner = owner_of(b, SUS, &se, sst);
    if (sus_owner && sus_owner != OWNER && se > SUS_EPOCH) break;
    assert_true(hg_now_ms() - t0 < FAILOVER_WAIT_MS);
  }
  fprintf(stderr, "SUS: owner n%d epoch %" PRIu64 " state %s\n", sus_owner, se, sst);
  assert_string_equal(sst, "suspended");
  assert_int_equal(vmms_of(SUS), 0);
  /* GET /v1/node: nothing stranded. */
  json_t *node = call(a, "GET", "/v1/node", NULL, 200);
  json_t *fo = json_object_get(json_object_get(node, "leases"), "failover");
  assert_true(json_is_true(json_object_get(fo, "on")));
  assert_int_equal(json_array_size(json_object_get(fo, "stranded")), 0);
  json_decref(node);

  /* Later, a resume through any node brings SUS back with its file. */
  sb_post(a, SUS, "resume", "");
  out = hg_itc_sh(&C, b, NULL, SUS, "cat /root/sus", 120000);
  assert_non_null(out);
  assert_string_equal(out, "kept\n");
  free(out);
  assert_int_equal(vmms_of(SUS), 1);
}

/* --- the crashed host comes back ---------------------------------------------------- */

static bool on_disk(int i, const char *dir, const char *id) {
  char path[512];
  snprintf(path, sizeof path, "%s/n%d/data/%s/%s", C.dir, i, dir, id);
  return access(path, F_OK) == 0;
}

/* Its copies leave its sandboxes/: a stale one the lease took from it goes
 * under orphans/; one it rolled back to its newest generation at restart
 * (its VM died with the host) is handed back and kept as a replica. */
static void the_crashed_host_back_runs_nothing_and_keeps_its_copies_aside(void **state) {
  assert_int_equal(hg_itc_tool(&C, "start", hg_itc_id(OWNER) + 1, NULL), 0);
  C.killed[OWNER] = false;
  int64_t t0 = hg_now_ms();
  for (;; usleep(500 * 1000)) {
    assert_true(vmms_of(RUN) <= 1);
    assert_true(vmms_of(SUS) <= 1);
    if (!on_disk(OWNER, "sandboxes", RUN) && !on_disk(OWNER, "sandboxes", SUS)) break;
    assert_true(hg_now_ms() - t0 < 120000);
  }
  fprintf(stderr, "n%d: RUN %s, SUS %s, %lld ms after its start\n", OWNER,
          on_disk(OWNER, "orphans", RUN) ? "orphaned" : "kept as a replica",
          on_disk(OWNER, "orphans", SUS) ? "orphaned" : "kept as a replica",
          (long long)(hg_now_ms() - t0));
  assert_true(on_disk(OWNER, "orphans", RUN) || on_disk(OWNER, "replicas", RUN));
  assert_true(on_disk(OWNER, "orphans", SUS) || on_disk(OWNER, "replicas", SUS));
  /* Nothing of the old host runs: both sandboxes' VMs are the survivors'. */
  for (int k = 0; k < 10; k++, usleep(300 * 1000)) {
    assert_int_equal(vmms_of(RUN), 1);
    assert_int_equal(vmms_of(SUS), 1);
  }
  uint64_t e;
  int owner = owner_of(OWNER, RUN, &e, NULL);
  assert_int_not_equal(owner, OWNER);
  assert_true(e > RUN_EPOCH);
  char dpath[96];
  snprintf(dpath, sizeof dpath, "/v1/sandboxes/%s?wait=" WAIT, RUN);
  json_decref(call(owner, "DELETE", dpath, NULL, 200));
  snprintf(dpath, sizeof dpath, "/v1/sandboxes/%s?wait=" WAIT, SUS);
  json_decref(call(owner_of(1, SUS, NULL, NULL), "DELETE", dpath, NULL, 200));
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(a_crashed_owners_sandboxes_come_back_on_survivors),
      cmocka_unit_test(the_crashed_host_back_runs_nothing_and_keeps_its_copies_aside),
  };
  return cmocka_run_group_tests(tests, setup, teardown);
}
