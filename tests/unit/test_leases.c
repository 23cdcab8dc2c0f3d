/* test_leases: the lease service (cluster/leases.c) of three nodes on one
 * libuv loop, with a transport in memory that can cut nodes off: batching,
 * group commit before replies, fencing and takeover after an owner dies,
 * the restart rule over a real register, and batches that speak for their
 * sender only. T is 300 ms here so that the takeovers take under a second. */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <uv.h>

#include <cmocka.h>

#include "cluster/lease_wire.h"
#include "cluster/leases.h"
#include "node/core/util.h"

#define T_MS 300
#define MARGIN_MS 50
#define N 3

typedef struct packet {
  struct packet *next;
  int from, to;
  size_t len;
  char data[];
} packet;

typedef struct net {
  uv_loop_t loop;
  uv_idle_t idle;
  char dir[64];
  hg_leases *nodes[N];
  int ctx[N];
  bool cut[N];
  packet *head, **tail;
  int64_t held_at[N]; /* when each node first held sb-1 (ms), or 0 */
} net;

static net *g;

static int node_index(const char *id) {
  return id[5] - '0'; /* "node-<i>" */
}

static void on_send(void *ud, const char *to, const void *data, size_t len) {
  int from = *(int *)ud, k = node_index(to);
  if (g->cut[from] || g->cut[k]) return;
  packet *p = malloc(sizeof *p + len);
  assert_non_null(p);
  *p = (packet){.from = from, .to = k, .len = len};
  memcpy(p->data, data, len);
  *g->tail = p;
  g->tail = &p->next;
}

static void on_changed(void *ud, const char *sandbox, const hg_lease_info *info) {
  int i = *(int *)ud;
  if (!strcmp(sandbox, "sb-1") && info->state == HG_LEASE_HELD && !g->held_at[i])
    g->held_at[i] = hg_now_ms();
}

static void on_idle(uv_idle_t *h) {
  (void)h;
  packet *p = g->head;
  g->head = NULL;
  g->tail = &g->head;
  while (p) {
    packet *next = p->next;
    if (g->nodes[p->to] && !g->cut[p->to])
      hg_leases_receive(g->nodes[p->to], p->data, p->len);
    free(p);
    p = next;
  }
}

static void node_open(int i) {
  char path[160], id[24];
  snprintf(path, sizeof path, "%s/leases-%d.log", g->dir, i);
  snprintf(id, sizeof id, "node-%d", i);
  g->ctx[i] = i;
  hg_leases_config cfg = {
      .self = id,
      .register_path = path,
      .lease_ms = T_MS,
      .margin_ms = MARGIN_MS,
      .cb = {.send = on_send, .changed = on_changed, .ud = &g->ctx[i]}};
  assert_int_equal(hg_leases_open(&g->loop, &cfg, &g->nodes[i]), 0);
}

static void on_closed(void *ud) {
  *(bool *)ud = true;
}

static void node_close(int i) {
  bool done = false;
  hg_leases_close(g->nodes[i], on_closed, &done);
  g->nodes[i] = NULL;
  while (!done) uv_run(&g->loop, UV_RUN_ONCE);
}

static int setup(void **state) {
  (void)state;
  g = calloc(1, sizeof *g);
  snprintf(g->dir, sizeof g->dir, "/tmp/hg-leases-XXXXXX");
  if (!g || !mkdtemp(g->dir) || uv_loop_init(&g->loop) < 0) return -1;
  g->tail = &g->head;
  uv_idle_init(&g->loop, &g->idle);
  uv_idle_start(&g->idle, on_idle);
  for (int i = 0; i < N; i++) node_open(i);
  return 0;
}

static int teardown(void **state) {
  (void)state;
  for (int i = 0; i < N; i++)
    if (g->nodes[i]) node_close(i);
  on_idle(&g->idle);
  uv_close((uv_handle_t *)&g->idle, NULL);
  uv_run(&g->loop, UV_RUN_DEFAULT);
  uv_loop_close(&g->loop);
  hg_rm_rf(g->dir);
  free(g);
  return 0;
}

static void run_for(int64_t ms) {
  int64_t end = hg_now_ms() + ms;
  while (hg_now_ms() < end) uv_run(&g->loop, UV_RUN_NOWAIT);
}

/* A claim's round trip (a flush to disk on each acceptor) takes ~ms, but a
 * loaded machine may stall it: wait for it, boundedly, rather than a fixed
 * 50 ms. */
static bool held_soon(int i, const char *sb) {
  int64_t end = hg_now_ms() + 10000;
  while (!hg_leases_valid(g->nodes[i], sb) && hg_now_ms() < end)
    uv_run(&g->loop, UV_RUN_NOWAIT);
  return hg_leases_valid(g->nodes[i], sb);
}

static hg_lease_conf group3(void) {
  hg_lease_conf c = {.cur.n = 3};
  for (int i = 0; i < 3; i++) snprintf(c.cur.ids[i], HG_NODE_ID_MAX, "node-%d", i);
  return c;
}

static void a_claim_is_held_and_renewed_in_batches(void **state) {
  (void)state;
  hg_lease_conf c = group3();
  int64_t t0 = hg_now_ms();
  assert_int_equal(hg_leases_claim(g->nodes[0], "sb-1", &c, 0, false), 0);
  assert_int_equal(hg_leases_claim(g->nodes[0], "sb-2", &c, 0, false), 0);
  assert_true(held_soon(0, "sb-1"));
  assert_true(held_soon(0, "sb-2"));
  run_for(3 * T_MS);
  int64_t rounds =
      (hg_now_ms() - t0) / (T_MS / 3) + 2; /* at most, however late the loop */
  assert_true(hg_leases_valid(g->nodes[0], "sb-1"));
  hg_leases_stats s0, s1;
  hg_leases_get_stats(g->nodes[0], &s0);
  hg_leases_get_stats(g->nodes[1], &s1);
  /* Two sandboxes, one batch per acceptor and round (not one each), and
   * two promises (the claims), group-committed by at most two flushes. */
  assert_true(s1.batches_received >= 2 && (int64_t)s1.batches_received <= rounds + 2);
  assert_int_equal(s1.promises, 2);
  assert_true(s1.flushes >= 1 && s1.flushes <= 2);
  assert_true(s0.batches_sent >= 2 * s1.batches_received - 2);
  assert_int_equal(s0.dropped_malformed, 0);
}

static void a_dead_owner_is_fenced_before_another_node_holds(void **state) {
  (void)state;
  hg_lease_conf c = group3();
  assert_int_equal(hg_leases_claim(g->nodes[0], "sb-1", &c, 0, false), 0);
  assert_true(held_soon(0, "sb-1"));
  /* A node that only suspects the owner claims above its epoch: it waits. */
  assert_int_equal(hg_leases_claim(g->nodes[1], "sb-1", &c, 1, false), 0);
  run_for(2 * T_MS);
  assert_false(hg_leases_valid(g->nodes[1], "sb-1"));
  assert_true(hg_leases_valid(g->nodes[0], "sb-1"));
  /* The owner is cut off: its lease ends (it fences) at lease_until, and
   * the claimant holds no sooner than 2 x margin after that. */
  hg_lease_info owner;
  g->cut[0] = true;
  while (!g->held_at[1]) uv_run(&g->loop, UV_RUN_NOWAIT);
  assert_int_equal(hg_leases_info(g->nodes[0], "sb-1", &owner), 0);
  assert_int_equal(owner.state, HG_LEASE_HELD);
  assert_false(hg_leases_valid(g->nodes[0], "sb-1"));
  assert_true(g->held_at[1] >= owner.lease_until_ms + 2 * MARGIN_MS);
  hg_lease_info info;
  assert_int_equal(hg_leases_info(g->nodes[1], "sb-1", &info), 0);
  assert_int_equal(info.epoch, 2);
  /* Healed, the old owner learns of the higher epoch and stops for good. */
  g->cut[0] = false;
  run_for(T_MS);
  assert_int_equal(hg_leases_info(g->nodes[0], "sb-1", &owner), 0);
  assert_int_equal(owner.state, HG_LEASE_LOST);
  assert_string_equal(owner.holder, "node-1");
}

static void a_restarted_acceptor_keeps_its_promises_and_waits(void **state) {
  (void)state;
  hg_lease_conf c = {.cur.n = 1};
  snprintf(c.cur.ids[0], HG_NODE_ID_MAX, "node-2");
  assert_int_equal(hg_leases_claim(g->nodes[0], "sb-1", &c, 0, false), 0);
  assert_true(held_soon(0, "sb-1"));
  node_close(2);
  int64_t restarted = hg_now_ms();
  node_open(2); /* its register says node-0 holds epoch 1 */
  g->cut[0] = true;
  assert_int_equal(hg_leases_claim(g->nodes[1], "sb-1", &c, 1, false), 0);
  while (!g->held_at[1]) uv_run(&g->loop, UV_RUN_NOWAIT);
  assert_true(g->held_at[1] - restarted > T_MS + MARGIN_MS);
}

/* A request in a batch is its sender's: the encoding has no other "from"
 * (the cluster's sealing says the batch came from a member). Malformed
 * batches are counted and change nothing. */
static void a_batch_speaks_for_its_sender_only(void **state) {
  (void)state;
  hg_lease_req req = {.kind = HG_LEASE_CLAIM, .epoch = 5, .round = 1, .conf = group3()};
  snprintf(req.sandbox, sizeof req.sandbox, "sb-9");
  snprintf(req.from, sizeof req.from, "node-1"); /* not who sends it */
  hg_lease_batch b = {.reqs = &req, .nreqs = 1};
  snprintf(b.from, sizeof b.from, "node-0");
  hg_buf buf;
  hg_buf_init(&buf, 1 << 16);
  assert_int_equal(hg_lease_batch_encode(&b, &buf), 0);
  hg_leases_receive(g->nodes[2], buf.data, buf.len);
  hg_leases_receive(g->nodes[2], "\x81\xa1x", 3);
  run_for(20);
  hg_leases_stats s;
  hg_leases_get_stats(g->nodes[2], &s);
  assert_int_equal(s.promises, 1);
  assert_int_equal(s.dropped_malformed, 1);
  hg_buf_free(&buf);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test_setup_teardown(a_claim_is_held_and_renewed_in_batches, setup,
                                      teardown),
      cmocka_unit_test_setup_teardown(a_dead_owner_is_fenced_before_another_node_holds,
                                      setup, teardown),
      cmocka_unit_test_setup_teardown(a_restarted_acceptor_keeps_its_promises_and_waits,
                                      setup, teardown),
      cmocka_unit_test_setup_teardown(a_batch_speaks_for_its_sender_only, setup,
                                      teardown),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
