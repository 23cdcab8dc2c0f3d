/* Integration: a sandbox's acceptor group lives on after its members do
 * (DESIGN §9, issue 13), on four real hangards (tools/cluster, real VMs).
 *
 *  1. A member of a running sandbox's group stays dead past
 *     --dead-member-s: the owner replaces it by the fourth node (joint
 *     consensus through the lease), so the group shown by GET changes; then
 *     a second original member dies too, and the owner still holds its
 *     lease (itself and the new member are a majority of the new group):
 *     the VM keeps running and answers. Under the old group it would have
 *     been fenced within the lease.
 *  2. A sandbox is deleted while the holder of its replica is down, and
 *     stays down until every node has dropped the directory's tombstone
 *     (--tombstone-s). When the holder returns, nothing in the directory
 *     names the sandbox; the holder asks the sandbox's group, learns of the
 *     delete and removes the replica: it is not resurrected.
 *  3. The same as 1 for a suspended sandbox, which holds no lease: its
 *     owner claims it to change the group, then gives it back; after the
 *     second original member dies, a resume through the owner finds a
 *     majority. Under the old group it would answer no_quorum. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "node/core/util.h"
#include "tests/integration/cluster_harness.h"

#define NODES 4
#define VM_TIMEOUT_MS 330000
#define WAIT "300"
#define LEASE_MS 3000
#define CHANGE_WAIT_MS 90000 /* a wait, not a bound */

static hg_itc C;

static int setup(void **state) {
  /* --no-failover: owners die on purpose and their sandboxes move by hand. */
  static const char *const extra[] = {"--dead-member-s", "4", "--tombstone-s", "5",
                                      "--no-failover", NULL};
  hg_itc_opts o = {.with_template = true, .ready_timeout_s = 360, .deadline_s = 1200,
                   .extra = extra};
  return hg_itc_group_up(&C, NODES, &o) >= 0 ? 0 : -1;
}

static int teardown(void **state) { return hg_itc_group_down(&C); }

/* --- helpers ---------------------------------------------------------------------- */

static json_t *call(int i, const char *method, const char *path, json_t *body, long want) {
  json_t *j = NULL;
  assert_true(hg_itc_expect(&C, i, NULL, method, path, body, want, VM_TIMEOUT_MS, &j));
  return j;
}

static json_t *create(int via, int replicas) {
  json_t *body = json_pack("{s:i}", "replicas", replicas);
  json_t *j = call(via, "POST", "/v1/sandboxes?wait=" WAIT, body, 201);
  json_decref(body);
  return j;
}

/* The node numbers of sb's group as node `via` shows it, in out[]. */
static size_t group_of(int via, const char *sb, int out[5]) {
  char path[96];
  snprintf(path, sizeof path, "/v1/sandboxes/%s", sb);
  json_t *j = call(via, "GET", path, NULL, 200);
  json_t *g = json_object_get(j, "group");
  size_t n = 0;
  for (size_t i = 0; i < json_array_size(g) && n < 5; i++) {
    const char *id = json_string_value(json_array_get(g, i));
    if (id && id[0] == 'n') out[n++] = atoi(id + 1);
  }
  json_decref(j);
  return n;
}

static bool has(const int *g, size_t n, int node) {
  for (size_t i = 0; i < n; i++)
    if (g[i] == node) return true;
  return false;
}

static void start(int i) {
  char s[12];
  snprintf(s, sizeof s, "%d", i);
  assert_int_equal(hg_itc_tool(&C, "start", s, NULL), 0);
}

static bool replica_dir_exists(int i, const char *sb) {
  char path[512];
  struct stat st;
  snprintf(path, sizeof path, "%s/n%d/data/replicas/%s", C.dir, i, sb);
  return stat(path, &st) == 0;
}

static bool log_has(int i, const char *a, const char *b) {
  char path[512], *text = NULL;
  size_t len = 0;
  snprintf(path, sizeof path, "%s/n%d/hangard.log", C.dir, i);
  if (hg_read_file(path, 64 << 20, &text, &len) < 0) return false;
  bool found = false;
  for (char *line = text, *end; line && *line && !found; line = end ? end + 1 : NULL) {
    end = strchr(line, '\n');
    if (end) *end = '\0';
    found = strstr(line, a) && strstr(line, b);
  }
  free(text);
  return found;
}

/* What node i's log says about sb (shown when the test runs). */
static void log_show(int i, const char *sb) {
  char path[512], *text = NULL;
  size_t len = 0;
  snprintf(path, sizeof path, "%s/n%d/hangard.log", C.dir, i);
  if (hg_read_file(path, 64 << 20, &text, &len) < 0) return;
  for (char *line = text, *end; line && *line; line = end ? end + 1 : NULL) {
    end = strchr(line, '\n');
    if (end) *end = '\0';
    if (strstr(line, sb)) fprintf(stderr, "  n%d: %s\n", i, line);
  }
  free(text);
}

/* sb's group (n1 and two others) and the fourth node: the member to kill
 * first, the one to kill second, the spare. */
typedef struct roles {
  int dead1, dead2, spare;
} roles;

static roles roles_of(const char *sb) {
  int g0[5];
  size_t n0 = group_of(1, sb, g0);
  assert_int_equal(n0, 3);
  assert_true(has(g0, n0, 1));
  roles r = {0};
  for (int i = 2; i <= NODES; i++) {
    if (!has(g0, n0, i)) r.spare = i;
    else if (!r.dead1) r.dead1 = i;
    else r.dead2 = i;
  }
  assert_true(r.dead1 && r.dead2 && r.spare);
  fprintf(stderr, "group of %s: n1,n%d,n%d; killing n%d's hangard\n", sb, r.dead1, r.dead2,
          r.dead1);
  return r;
}

/* Kills r.dead1's hangard and waits until n1 shows the spare in its place. */
static void kill_and_wait_replaced(const char *sb, roles r) {
  int64_t t0 = hg_now_ms();
  assert_int_equal(hg_itc_signal(&C, r.dead1, SIGKILL), 0);
  for (;;) {
    int g[5];
    size_t n = group_of(1, sb, g);
    if (n == 3 && !has(g, n, r.dead1) && has(g, n, r.spare) && has(g, n, r.dead2)) break;
    assert_true(hg_now_ms() - t0 < CHANGE_WAIT_MS);
    usleep(250 * 1000);
  }
  fprintf(stderr, "n%d replaced by n%d %lld ms after it died (--dead-member-s 4)\n", r.dead1,
          r.spare, (long long)(hg_now_ms() - t0));
  assert_true(log_has(1, "lease.regroup", sb));
}

/* --- 1: a dead member is replaced ------------------------------------------------ */

static void a_dead_member_is_replaced_and_the_lease_outlives_it(void **state) {
  json_t *j = create(1, 2);
  char sb[32];
  snprintf(sb, sizeof sb, "%s", hg_it_str(j, "id"));
  json_decref(j);
  roles r = roles_of(sb);
  kill_and_wait_replaced(sb, r);

  /* The second original member dies: n1 and the new one are a majority. */
  assert_int_equal(hg_itc_signal(&C, r.dead2, SIGKILL), 0);
  usleep(3 * LEASE_MS * 1000);
  char *out = hg_itc_sh(&C, 1, NULL, sb, "echo still here", 120000);
  assert_non_null(out);
  assert_string_equal(out, "still here\n");
  free(out);
  char *m = hg_itc_metrics(&C, 1);
  assert_non_null(m);
  assert_true(hg_it_metric(m, "hangar_leases{state=\"fenced\"}") == 0);
  free(m);

  start(r.dead1);
  start(r.dead2);
  assert_true(hg_itc_wait_converged(&C, hg_itc_all(&C), 60000) >= 0);
  char path[96];
  snprintf(path, sizeof path, "/v1/sandboxes/%s?wait=" WAIT, sb);
  json_decref(call(1, "DELETE", path, NULL, 200));
}

/* --- 2: a delete reaches a holder that was away ---------------------------------- */

static bool in_directory(int via, const char *sb) {
  json_t *j = call(via, "GET", "/v1/cluster/sandboxes", NULL, 200);
  char *d = json_dumps(j, JSON_COMPACT);
  bool in = d && strstr(d, sb);
  free(d);
  json_decref(j);
  return in;
}

static void a_holder_away_past_the_tombstone_drops_the_replica(void **state) {
  json_t *j = create(1, 2);
  char sb[32], path[128];
  snprintf(sb, sizeof sb, "%s", hg_it_str(j, "id"));
  json_decref(j);
  snprintf(path, sizeof path, "/v1/sandboxes/%s/suspend?wait=" WAIT, sb);
  j = call(1, "POST", path, NULL, 200);
  json_t *peers = json_object_get(json_object_get(json_object_get(j, "result"), "replication"), "peers");
  const char *holder = hg_it_str(json_array_get(peers, 0), "node");
  assert_non_null(holder);
  int h = atoi(holder + 1);
  json_decref(j);
  assert_true(h >= 2 && h <= NODES);
  assert_true(replica_dir_exists(h, sb));
  fprintf(stderr, "%s suspended, its replica on n%d; killing n%d's hangard\n", sb, h, h);

  assert_int_equal(hg_itc_signal(&C, h, SIGKILL), 0);
  snprintf(path, sizeof path, "/v1/sandboxes/%s?wait=" WAIT, sb);
  json_decref(call(1, "DELETE", path, NULL, 200));
  /* Every live node forgets the tombstone (--tombstone-s 5). */
  int64_t t0 = hg_now_ms();
  for (int i = 1; i <= NODES; i++) {
    while (i != h && in_directory(i, sb)) {
      assert_true(hg_now_ms() - t0 < CHANGE_WAIT_MS);
      usleep(500 * 1000);
    }
  }
  fprintf(stderr, "the tombstone of %s is gone everywhere after %lld ms\n", sb,
          (long long)(hg_now_ms() - t0));
  assert_true(replica_dir_exists(h, sb)); /* on n<h>'s disk, untouched while it was down */

  start(h);
  t0 = hg_now_ms();
  while (replica_dir_exists(h, sb)) {
    assert_true(hg_now_ms() - t0 < CHANGE_WAIT_MS);
    usleep(500 * 1000);
  }
  fprintf(stderr, "n%d removed its replica of %s %lld ms after it started\n", h, sb,
          (long long)(hg_now_ms() - t0));
  log_show(h, sb);
  assert_true(log_has(h, "repl.asked", sb));
  assert_true(log_has(h, "deleted=yes", sb));
  snprintf(path, sizeof path, "/v1/sandboxes/%s", sb);
  json_decref(call(h, "GET", path, NULL, 404));
  assert_false(in_directory(h, sb));
}

/* --- 3: a suspended sandbox's dead member is replaced too ------------------------ */

static void a_suspended_sandboxs_dead_member_is_replaced(void **state) {
  assert_true(hg_itc_wait_converged(&C, hg_itc_all(&C), 60000) >= 0);
  json_t *j = create(1, 2);
  char sb[32], path[128];
  snprintf(sb, sizeof sb, "%s", hg_it_str(j, "id"));
  json_decref(j);
  snprintf(path, sizeof path, "/v1/sandboxes/%s/suspend?wait=" WAIT, sb);
  json_decref(call(1, "POST", path, NULL, 200));
  roles r = roles_of(sb);
  int64_t t0 = hg_now_ms();
  kill_and_wait_replaced(sb, r);
  assert_true(log_has(1, "lease.regroup_claim", sb));
  /* Given back: a suspended sandbox holds no lease. */
  for (;;) {
    char *m = hg_itc_metrics(&C, 1);
    assert_non_null(m);
    double held = hg_it_metric(m, "hangar_leases{state=\"held\"}");
    free(m);
    if (held == 0) break;
    assert_true(hg_now_ms() - t0 < CHANGE_WAIT_MS);
    usleep(500 * 1000);
  }

  assert_int_equal(hg_itc_signal(&C, r.dead2, SIGKILL), 0);
  snprintf(path, sizeof path, "/v1/sandboxes/%s/resume?wait=" WAIT, sb);
  json_decref(call(1, "POST", path, NULL, 200));
  char *out = hg_itc_sh(&C, 1, NULL, sb, "echo resumed", 120000);
  assert_non_null(out);
  assert_string_equal(out, "resumed\n");
  free(out);

  start(r.dead1);
  start(r.dead2);
  assert_true(hg_itc_wait_converged(&C, hg_itc_all(&C), 60000) >= 0);
  snprintf(path, sizeof path, "/v1/sandboxes/%s?wait=" WAIT, sb);
  json_decref(call(1, "DELETE", path, NULL, 200));
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(a_dead_member_is_replaced_and_the_lease_outlives_it),
      cmocka_unit_test(a_holder_away_past_the_tombstone_drops_the_replica),
      cmocka_unit_test(a_suspended_sandboxs_dead_member_is_replaced),
  };
  return hg_it_run_group(tests, setup, teardown);
}
