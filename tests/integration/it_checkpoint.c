/* Integration: checkpoints of a running sandbox (DESIGN §9, issue 14) on
 * three real hangards (tools/cluster, real VMs).
 *
 * A sandbox created on n1 with "checkpoint_s": 2 and three copies runs a
 * counter (a shell loop: the count lives in its memory and is written to a
 * file). Without any call its timer takes checkpoints that its holders
 * acknowledge (the directory's gen moves up); one more is taken through the
 * API, sent to another node (POST …/checkpoint, forwarded to the owner:
 * gen, pause_ms, the peers); GET of the sandbox lists its checkpoints, and
 * with --checkpoint-keep 1 the owner's older ones go (listed and on disk). A peer holds that
 * generation. Then n1's hangard is SIGKILLed: the VM runs on under its shim
 * until the lease runs out and the shim fences it; a resume through a
 * survivor (?node=, the manual move that exists today) starts the sandbox
 * from its newest checkpoint there: the counter is at least what it was
 * when the checkpoint was taken (its memory came back), and it keeps
 * counting (the process is alive). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <errno.h>
#include <inttypes.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "node/core/util.h"
#include "tests/integration/cluster_harness.h"
#include "tests/unit/proc_util.h"

#define NODES 3
#define VM_TIMEOUT_MS 330000
#define WAIT "300"
#define ACK_WAIT_MS 60000   /* a wait, not a bound: checkpoints come every 2 s */
#define FENCE_WAIT_MS 30000 /* a wait, not a bound: the lease is 3 s */
#define MOVE_WAIT_MS 90000  /* until gossip no longer calls the dead owner alive */

static hg_itc C;
static char SB[32];
static int OWNER;

/* One checkpoint generation kept on the owner: retention shows at once.
 * --no-failover: the owner dies on purpose and the sandbox moves by hand
 * (it_failover shows the automatic move of a checkpointed sandbox). */
static const char *const node_flags[] = {"--checkpoint-keep", "1", "--no-failover", NULL};

static int setup(void **state) {
  hg_itc_opts o = {.with_template = true, .ready_timeout_s = 360, .deadline_s = 900,
                   .extra = node_flags};
  return hg_itc_group_up(&C, NODES, &o) >= 0 ? 0 : -1;
}

static int teardown(void **state) { return hg_itc_group_down(&C); }

/* --- helpers ---------------------------------------------------------------------- */

/* body (may be NULL) is the caller's, consumed here. */
static json_t *call(int i, const char *method, const char *path, json_t *body, long want) {
  json_t *j = NULL;
  bool ok = hg_itc_expect(&C, i, NULL, method, path, body, want, VM_TIMEOUT_MS, &j);
  json_decref(body);
  assert_true(ok);
  return j;
}

/* The counter's value, read from its file through node i. */
static long counter(int i) {
  char *out = hg_itc_sh(&C, i, NULL, SB, "cat /root/counter", 300000);
  assert_non_null(out);
  long v = atol(out);
  free(out);
  return v;
}

/* GET …/replicas through node i: the directory's gen, and whether a node
 * other than skip holds a generation >= gen_min. */
static uint64_t replicated_gen(int i, int skip, uint64_t gen_min, bool *peer_has) {
  char path[96], me[8];
  snprintf(path, sizeof path, "/v1/sandboxes/%s/replicas", SB);
  snprintf(me, sizeof me, "n%d", skip);
  json_t *j = call(i, "GET", path, NULL, 200), *h, *g;
  uint64_t gen = (uint64_t)json_integer_value(json_object_get(j, "gen"));
  size_t k, m;
  *peer_has = false;
  json_array_foreach(json_object_get(j, "holders"), k, h) {
    if (!strcmp(hg_it_str(h, "node"), me)) continue;
    json_array_foreach(json_object_get(h, "generations"), m, g)
      if ((uint64_t)json_integer_value(json_object_get(g, "gen")) >= gen_min) *peer_has = true;
  }
  json_decref(j);
  return gen;
}

static int vmm_pid(int i) {
  int pid = hg_itc_vmm_pid(&C, i, SB);
  assert_true(pid > 0);
  return pid;
}

/* --- the tests --------------------------------------------------------------------- */

static void create_rejects_a_bad_interval(void **state) {
  long status = 0;
  json_t *body = json_pack("{s:i}", "checkpoint_s", 1);
  json_t *j = hg_itc_json(&C, 1, NULL, "POST", "/v1/sandboxes", body, 30000, &status);
  json_decref(body);
  assert_int_equal(status, 400);
  char *d = json_dumps(j, JSON_COMPACT);
  assert_non_null(strstr(d, "checkpoint_s"));
  free(d);
  json_decref(j);
}

static uint64_t API_GEN;
static long AT_CHECKPOINT; /* the counter just before the API's checkpoint */

/* Timer-driven checkpoints are acknowledged by the holders without any
 * call; one through the API says its gen, pause and peers. */
static void running_sandbox_checkpoints_to_its_holders(void **state) {
  json_t *j = call(1, "POST", "/v1/sandboxes?wait=" WAIT,
                   json_pack("{s:i,s:i}", "checkpoint_s", 2, "replicas", 3), 201);
  snprintf(SB, sizeof SB, "%s", hg_it_str(j, "id"));
  assert_int_equal(json_integer_value(json_object_get(j, "checkpoint_s")), 2);
  const char *node = hg_it_str(j, "node");
  OWNER = node[0] == 'n' ? atoi(node + 1) : 1;
  json_decref(j);
  char path[128];
  snprintf(path, sizeof path, "/v1/sandboxes/%s/commands", SB);
  json_decref(call(OWNER, "POST", path,
                   json_pack("{s:[s,s,s]}", "cmd", "sh", "-c",
                             "i=0; while :; do i=$((i+1)); echo $i > /root/counter.new; "
                             "mv /root/counter.new /root/counter; sleep 0.1; done"),
                   201));

  /* the timer's: the directory names a generation a peer holds */
  bool peer_has = false;
  uint64_t gen = 0;
  for (int64_t t0 = hg_now_ms(); gen == 0 || !peer_has; usleep(300 * 1000)) {
    assert_true(hg_now_ms() - t0 < ACK_WAIT_MS);
    gen = replicated_gen(OWNER, OWNER, 1, &peer_has);
  }
  fprintf(stderr, "timer checkpoint acknowledged: gen %" PRIu64 "\n", gen);
  snprintf(path, sizeof path, "/v1/sandboxes/%s", SB);
  j = call(OWNER, "GET", path, NULL, 200);
  assert_string_equal(hg_it_str(j, "state"), "running");
  assert_true(json_array_size(json_object_get(j, "checkpoints")) >= 1);
  json_t *c0 = json_array_get(json_object_get(j, "checkpoints"), 0);
  assert_true(json_is_number(json_object_get(c0, "pause_ms")));
  assert_non_null(json_object_get(c0, "at"));
  json_decref(j);

  /* one through the API, sent to another node (forwarded to the owner; a
   * timer's may be under way: 409, then again) */
  int other = OWNER == 1 ? 2 : 1;
  AT_CHECKPOINT = counter(OWNER);
  snprintf(path, sizeof path, "/v1/sandboxes/%s/checkpoint?wait=" WAIT, SB);
  json_t *res = NULL;
  for (int64_t t0 = hg_now_ms(); !res; usleep(200 * 1000)) {
    long status = 0;
    j = hg_itc_json(&C, other, NULL, "POST", path, NULL, VM_TIMEOUT_MS, &status);
    if (status == 200) res = json_incref(json_object_get(j, "result"));
    else assert_int_equal(status, 409);
    json_decref(j);
    assert_true(hg_now_ms() - t0 < ACK_WAIT_MS);
  }
  char *d = json_dumps(res, JSON_COMPACT);
  fprintf(stderr, "API checkpoint (counter %ld before it): %s\n", AT_CHECKPOINT, d);
  free(d);
  API_GEN = (uint64_t)json_integer_value(json_object_get(res, "gen"));
  assert_true(API_GEN > gen);
  assert_true(json_real_value(json_object_get(res, "pause_ms")) > 0);
  json_t *rep = json_object_get(res, "replication");
  assert_int_equal(json_integer_value(json_object_get(rep, "acked")), 2);
  assert_int_equal(json_array_size(json_object_get(rep, "peers")), 2);

  /* a peer holds it, and the directory names it (or a newer one) */
  assert_true(replicated_gen(OWNER, OWNER, API_GEN, &peer_has) >= API_GEN);
  assert_true(peer_has);
  /* the peer's copy says it was taken running (what a restore there reads) */
  const char *peer = hg_it_str(json_array_get(json_object_get(rep, "peers"), 0), "node");
  char *rec = NULL, *text = NULL;
  size_t len = 0;
  assert_true(asprintf(&rec, "%s/%s/data/replicas/%s/%" PRIu64 "/sandbox.json", C.dir, peer, SB,
                       API_GEN) > 0);
  assert_int_equal(hg_read_file(rec, 1 << 20, &text, &len), 0);
  free(rec);
  json_t *gj = json_loadb(text, len, 0, NULL);
  free(text);
  assert_string_equal(hg_it_str(gj, "state"), "running");
  json_t *last = json_array_get(json_object_get(gj, "generations"),
                                json_array_size(json_object_get(gj, "generations")) - 1);
  assert_int_equal(json_integer_value(json_object_get(last, "gen")), (json_int_t)API_GEN);
  assert_string_equal(hg_it_str(last, "kind"), "checkpoint");
  assert_true(json_is_true(json_object_get(last, "running")));
  json_decref(gj);
  json_decref(res);
  /* and it still runs, counting */
  assert_true(counter(OWNER) >= AT_CHECKPOINT);

  /* retention (--checkpoint-keep 1): the owner's older checkpoints go, as
   * GET lists them and on its disk; the newest stays */
  char *old = NULL;
  assert_true(asprintf(&old, "%s/n%d/data/snapshots/%s/1", C.dir, OWNER, SB) > 0);
  for (int64_t t0 = hg_now_ms(); access(old, F_OK) == 0; usleep(200 * 1000))
    assert_true(hg_now_ms() - t0 < ACK_WAIT_MS);
  free(old);
  snprintf(path, sizeof path, "/v1/sandboxes/%s", SB);
  j = call(OWNER, "GET", path, NULL, 200);
  json_t *list = json_object_get(j, "checkpoints");
  size_t n = json_array_size(list);
  assert_true(n >= 1 && n <= 2); /* the newest, and the one its holders have */
  assert_true((uint64_t)json_integer_value(json_object_get(json_array_get(list, n - 1), "gen")) >=
              API_GEN);
  assert_true(json_integer_value(json_object_get(json_array_get(list, 0), "gen")) > 1);
  json_decref(j);
}

/* The owner's hangard dies; the shim fences the VM when the lease runs
 * out; a survivor resumes the sandbox from its newest checkpoint, running,
 * with its memory: the counter goes on from at least its value then. */
static void killed_owner_resumes_elsewhere_from_its_checkpoint(void **state) {
  int pid = vmm_pid(OWNER), via = OWNER == 2 ? 3 : 2;
  assert_int_equal(hg_itc_signal(&C, OWNER, SIGKILL), 0);
  int64_t t0 = hg_now_ms();
  while (proc_state(pid) != 'T') {
    assert_true(hg_now_ms() - t0 < FENCE_WAIT_MS);
    usleep(10 * 1000);
  }
  fprintf(stderr, "n%d's VM fenced %lld ms after its hangard died\n", OWNER,
          (long long)(hg_now_ms() - t0));

  char path[128];
  snprintf(path, sizeof path, "/v1/sandboxes/%s/resume?wait=" WAIT "&node=n%d", SB, via);
  for (int64_t t1 = hg_now_ms();; usleep(500 * 1000)) {
    long status = 0;
    json_t *j = hg_itc_json(&C, via, NULL, "POST", path, NULL, VM_TIMEOUT_MS, &status);
    char *d = j ? json_dumps(j, JSON_COMPACT) : NULL;
    fprintf(stderr, "resume through n%d: %ld %s\n", via, status, d ? d : "");
    free(d);
    json_decref(j);
    if (status == 200) break;
    /* the owner still alive to gossip, or its lease not yet run out */
    assert_true(status == 409 || status == 503);
    assert_true(hg_now_ms() - t1 < MOVE_WAIT_MS);
  }
  snprintf(path, sizeof path, "/v1/sandboxes/%s", SB);
  json_t *j = call(via, "GET", path, NULL, 200);
  assert_string_equal(hg_it_str(j, "state"), "running");
  assert_true((uint64_t)json_integer_value(json_object_get(j, "gen")) >= API_GEN);
  char want[8];
  snprintf(want, sizeof want, "n%d", via);
  assert_string_equal(hg_it_str(j, "node"), want);
  json_decref(j);

  long v1 = counter(via);
  fprintf(stderr, "counter on n%d: %ld (at the checkpoint: >= %ld)\n", via, v1, AT_CHECKPOINT);
  assert_true(v1 >= AT_CHECKPOINT);
  usleep(1500 * 1000);
  long v2 = counter(via);
  fprintf(stderr, "counter on n%d 1.5 s later: %ld\n", via, v2);
  assert_true(v2 > v1);

  snprintf(path, sizeof path, "/v1/sandboxes/%s?wait=" WAIT, SB);
  json_decref(call(via, "DELETE", path, NULL, 200));
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(create_rejects_a_bad_interval),
      cmocka_unit_test(running_sandbox_checkpoints_to_its_holders),
      cmocka_unit_test(killed_owner_resumes_elsewhere_from_its_checkpoint),
  };
  return hg_it_run_group(tests, setup, teardown);
}
