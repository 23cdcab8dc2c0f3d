/* test_lease_wire: the encoding of lease batches and promises
 * (cluster/lease_wire.c). HG_LEASE_SEEDS_DIR=dir writes valid batches there
 * as seeds for tests/fuzz/fuzz_lease_wire.c. */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "cluster/lease_wire.h"
#include "node/core/mp.h"

static hg_lease_conf joint_conf(void) {
  hg_lease_conf c = {.seq = 7, .joint = true, .epoch = 3};
  c.cur.n = 3;
  c.next.n = 3;
  const char *cur[] = {"node-a", "node-b", "node-c"},
             *next[] = {"node-a", "node-b", "node-d"};
  for (int i = 0; i < 3; i++) {
    snprintf(c.cur.ids[i], HG_NODE_ID_MAX, "%s", cur[i]);
    snprintf(c.next.ids[i], HG_NODE_ID_MAX, "%s", next[i]);
  }
  return c;
}

static void sample(hg_lease_batch *b, hg_lease_req *reqs, hg_lease_reply *reps) {
  memset(b, 0, sizeof *b);
  snprintf(b->from, sizeof b->from, "node-a");
  reqs[0] = (hg_lease_req){
      .kind = HG_LEASE_RENEW, .epoch = 3, .round = 99, .conf = joint_conf()};
  snprintf(reqs[0].sandbox, HG_ID_MAX, "sb-1");
  snprintf(reqs[0].from, HG_NODE_ID_MAX, "node-a");
  reqs[1] = reqs[0];
  reqs[1].kind = HG_LEASE_CLAIM;
  reqs[1].deleting = true;
  reqs[1].conf.joint = false;
  memset(&reqs[1].conf.next, 0, sizeof reqs[1].conf.next);
  reps[0] = (hg_lease_reply){.round = 99, .refusal = HG_LEASE_WAIT, .wait_ms = 1234};
  snprintf(reps[0].sandbox, HG_ID_MAX, "sb-2");
  snprintf(reps[0].from, HG_NODE_ID_MAX, "node-a");
  reps[0].promise =
      (hg_lease_promise){.epoch = 5, .deleted = false, .conf = joint_conf()};
  snprintf(reps[0].promise.holder, HG_NODE_ID_MAX, "node-c");
  b->reqs = reqs;
  b->nreqs = 2;
  b->reps = reps;
  b->nreps = 1;
}

/* Field by field: struct padding holds whatever the stack held. */
static void assert_group_equal(const hg_lease_group *a, const hg_lease_group *b) {
  assert_int_equal(a->n, b->n);
  for (unsigned i = 0; i < a->n; i++) assert_string_equal(a->ids[i], b->ids[i]);
}

static void assert_conf_equal(const hg_lease_conf *a, const hg_lease_conf *b) {
  assert_int_equal(a->seq, b->seq);
  assert_int_equal(a->joint, b->joint);
  assert_int_equal(a->epoch, b->epoch);
  assert_group_equal(&a->cur, &b->cur);
  if (a->joint) assert_group_equal(&a->next, &b->next);
}

static void assert_promise_equal(const hg_lease_promise *a, const hg_lease_promise *b) {
  assert_int_equal(a->epoch, b->epoch);
  assert_string_equal(a->holder, b->holder);
  assert_int_equal(a->deleted, b->deleted);
  assert_conf_equal(&a->conf, &b->conf);
}

static void assert_req_equal(const hg_lease_req *a, const hg_lease_req *b) {
  assert_int_equal(a->kind, b->kind);
  assert_string_equal(a->sandbox, b->sandbox);
  assert_string_equal(a->from, b->from);
  assert_int_equal(a->epoch, b->epoch);
  assert_int_equal(a->round, b->round);
  assert_int_equal(a->deleting, b->deleting);
  assert_conf_equal(&a->conf, &b->conf);
}

static void assert_reply_equal(const hg_lease_reply *a, const hg_lease_reply *b) {
  assert_string_equal(a->sandbox, b->sandbox);
  assert_string_equal(a->from, b->from);
  assert_int_equal(a->round, b->round);
  assert_int_equal(a->refusal, b->refusal);
  assert_int_equal(a->wait_ms, b->wait_ms);
  assert_promise_equal(&a->promise, &b->promise);
}

static void encode(const hg_lease_batch *b, hg_buf *out) {
  hg_buf_init(out, 1u << 20);
  assert_int_equal(hg_lease_batch_encode(b, out), 0);
}

static void a_batch_survives_the_round_trip(void **state) {
  (void)state;
  hg_lease_req reqs[2];
  hg_lease_reply reps[1];
  hg_lease_batch b, got;
  sample(&b, reqs, reps);
  hg_buf buf;
  encode(&b, &buf);
  assert_int_equal(hg_lease_batch_decode(buf.data, buf.len, &got), 0);
  assert_string_equal(got.from, "node-a");
  assert_int_equal(got.nreqs, 2);
  assert_int_equal(got.nreps, 1);
  assert_req_equal(&got.reqs[0], &reqs[0]);
  assert_req_equal(&got.reqs[1], &reqs[1]);
  assert_reply_equal(&got.reps[0], &reps[0]);
  const char *dir = getenv("HG_LEASE_SEEDS_DIR");
  if (dir) {
    char path[512];
    snprintf(path, sizeof path, "%s/batch", dir);
    FILE *f = fopen(path, "wb");
    assert_non_null(f);
    fwrite(buf.data, 1, buf.len, f);
    fclose(f);
  }
  hg_lease_batch_free(&got);
  hg_buf_free(&buf);
}

static void every_truncation_is_refused(void **state) {
  (void)state;
  hg_lease_req reqs[2];
  hg_lease_reply reps[1];
  hg_lease_batch b, got;
  sample(&b, reqs, reps);
  hg_buf buf;
  encode(&b, &buf);
  for (size_t n = 0; n < buf.len; n++)
    assert_int_equal(hg_lease_batch_decode(buf.data, n, &got), -EPROTO);
  hg_buf_free(&buf);
}

/* Encodes b after edit changed it, and expects the decoder to refuse it. */
static void refused(void (*edit)(hg_lease_req *, hg_lease_reply *)) {
  hg_lease_req reqs[2];
  hg_lease_reply reps[1];
  hg_lease_batch b, got;
  sample(&b, reqs, reps);
  edit(reqs, reps);
  hg_buf buf;
  hg_buf_init(&buf, 1u << 20);
  assert_int_equal(hg_lease_batch_encode(&b, &buf), 0);
  int rc = hg_lease_batch_decode(buf.data, buf.len, &got);
  if (rc == 0) hg_lease_batch_free(&got);
  assert_int_equal(rc, -EPROTO);
  hg_buf_free(&buf);
}

static void kind_zero(hg_lease_req *q, hg_lease_reply *p) {
  (void)p, q[0].kind = 0;
}
static void kind_four(hg_lease_req *q, hg_lease_reply *p) {
  (void)p, q[0].kind = 4;
}
static void group_empty(hg_lease_req *q, hg_lease_reply *p) {
  (void)p, q[0].conf.cur.n = 0;
}
static void group_twice(hg_lease_req *q, hg_lease_reply *p) {
  (void)p, snprintf(q[0].conf.next.ids[2], HG_NODE_ID_MAX, "node-a");
}
static void sandbox_empty(hg_lease_req *q, hg_lease_reply *p) {
  (void)p, q[1].sandbox[0] = 0;
}
static void epoch_zero(hg_lease_req *q, hg_lease_reply *p) {
  (void)p, q[0].epoch = 0;
}
static void holder_missing(hg_lease_req *q, hg_lease_reply *p) {
  (void)q, p[0].promise.holder[0] = 0;
}
static void refusal_unknown(hg_lease_req *q, hg_lease_reply *p) {
  (void)q, p[0].refusal = 9;
}
static void wait_negative(hg_lease_req *q, hg_lease_reply *p) {
  (void)q, p[0].wait_ms = -1;
}

static void fields_out_of_their_range_are_refused(void **state) {
  (void)state;
  refused(kind_zero);
  refused(kind_four);
  refused(group_empty);
  refused(group_twice);
  refused(sandbox_empty);
  refused(epoch_zero);
  refused(holder_missing);
  refused(refusal_unknown);
  refused(wait_negative);
}

/* A string one byte longer than its field, or with a NUL inside. */
static void strings_that_do_not_fit_are_refused(void **state) {
  (void)state;
  hg_buf buf;
  hg_buf_init(&buf, 4096);
  hg_mp_sink s;
  hg_mp_sink_init(&s, &buf);
  msgpack_pack_map(&s.pk, 3);
  char from[HG_NODE_ID_MAX + 1];
  memset(from, 'n', HG_NODE_ID_MAX);
  from[HG_NODE_ID_MAX] = '\0';
  hg_mp_pack_kv_str(&s.pk, "from", from);
  hg_mp_pack_str(&s.pk, "reqs");
  msgpack_pack_array(&s.pk, 0);
  hg_mp_pack_str(&s.pk, "reps");
  msgpack_pack_array(&s.pk, 0);
  hg_lease_batch got;
  assert_int_equal(hg_lease_batch_decode(buf.data, buf.len, &got), -EPROTO);
  hg_buf_reset(&buf);
  msgpack_pack_map(&s.pk, 3);
  hg_mp_pack_str(&s.pk, "from");
  hg_mp_pack_strn(&s.pk, "no\0de", 5);
  hg_mp_pack_str(&s.pk, "reqs");
  msgpack_pack_array(&s.pk, 0);
  hg_mp_pack_str(&s.pk, "reps");
  msgpack_pack_array(&s.pk, 0);
  assert_int_equal(hg_lease_batch_decode(buf.data, buf.len, &got), -EPROTO);
  hg_buf_free(&buf);
}

static void a_promise_survives_the_round_trip(void **state) {
  (void)state;
  hg_lease_promise p = {.epoch = 12, .deleted = true, .conf = joint_conf()}, q;
  snprintf(p.holder, sizeof p.holder, "node-b");
  hg_buf buf;
  hg_buf_init(&buf, 4096);
  hg_mp_sink s;
  hg_mp_sink_init(&s, &buf);
  hg_lease_pack_promise(&s.pk, "sb-9", &p);
  assert_int_equal(s.err, 0);
  msgpack_unpacked u;
  msgpack_unpacked_init(&u);
  assert_int_equal(msgpack_unpack_next(&u, buf.data, buf.len, NULL),
                   MSGPACK_UNPACK_SUCCESS);
  char sb[HG_ID_MAX];
  assert_int_equal(hg_lease_unpack_promise(&u.data, sb, &q), 0);
  assert_string_equal(sb, "sb-9");
  assert_promise_equal(&p, &q);
  msgpack_unpacked_destroy(&u);
  hg_buf_free(&buf);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(a_batch_survives_the_round_trip),
      cmocka_unit_test(every_truncation_is_refused),
      cmocka_unit_test(fields_out_of_their_range_are_refused),
      cmocka_unit_test(strings_that_do_not_fit_are_refused),
      cmocka_unit_test(a_promise_survives_the_round_trip),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
