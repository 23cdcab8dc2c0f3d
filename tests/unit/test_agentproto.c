/* agentproto: frames in and out, and every way a peer can get them wrong. */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "node/agentproto.h"
#include "node/core/mp.h"

/* Packs {"id": id, "op": "ping"} (plus a bin of binlen bytes if binlen). */
static void pack_req(msgpack_sbuffer *sb, uint64_t id, size_t binlen) {
  msgpack_packer pk;
  msgpack_sbuffer_init(sb);
  msgpack_packer_init(&pk, sb, msgpack_sbuffer_write);
  msgpack_pack_map(&pk, binlen ? 3 : 2);
  hg_mp_pack_kv_u64(&pk, "id", id);
  hg_mp_pack_kv_str(&pk, "op", "ping");
  if (binlen) {
    char *b = calloc(1, binlen);
    hg_mp_pack_kv_bin(&pk, "data", b, binlen);
    free(b);
  }
}

static void frame_of(uint64_t id, size_t binlen, hg_buf *out) {
  msgpack_sbuffer sb;
  pack_req(&sb, id, binlen);
  hg_buf_init(out, 4 * HG_AGENT_MAX_FRAME);
  assert_int_equal(hg_frame_encode(&sb, out), 0);
  msgpack_sbuffer_destroy(&sb);
}

static void raw_frame(hg_buf *out, const void *payload, uint32_t len) {
  unsigned char h[4] = {len >> 24, len >> 16, len >> 8, len};
  hg_buf_init(out, 1u << 20);
  assert_int_equal(hg_buf_append(out, h, 4), 0);
  assert_int_equal(hg_buf_append(out, payload, len), 0);
}

static uint64_t id_of(msgpack_unpacked *u) {
  uint64_t id = 0;
  assert_int_equal(hg_mp_u64(&u->data, "id", &id), 0);
  return id;
}

static void encoded_frame_decodes_back(void **state) {
  hg_buf f;
  frame_of(42, 0, &f);
  assert_int_equal((unsigned char)f.data[0], 0);
  hg_frame_reader r;
  hg_frame_reader_init(&r);
  assert_int_equal(hg_frame_reader_feed(&r, f.data, f.len), 0);
  msgpack_unpacked u;
  assert_int_equal(hg_frame_reader_next(&r, &u), 1);
  assert_int_equal(id_of(&u), 42);
  msgpack_unpacked_destroy(&u);
  assert_int_equal(hg_frame_reader_next(&r, &u), 0);
  hg_frame_reader_free(&r);
  hg_buf_free(&f);
}

static void frame_fed_byte_by_byte_decodes_once(void **state) {
  hg_buf f;
  frame_of(7, 300, &f);
  hg_frame_reader r;
  hg_frame_reader_init(&r);
  msgpack_unpacked u;
  for (size_t i = 0; i + 1 < f.len; i++) {
    assert_int_equal(hg_frame_reader_feed(&r, f.data + i, 1), 0);
    assert_int_equal(hg_frame_reader_next(&r, &u), 0);
  }
  assert_int_equal(hg_frame_reader_feed(&r, f.data + f.len - 1, 1), 0);
  assert_int_equal(hg_frame_reader_next(&r, &u), 1);
  assert_int_equal(id_of(&u), 7);
  msgpack_unpacked_destroy(&u);
  hg_frame_reader_free(&r);
  hg_buf_free(&f);
}

/* Strings point into the frame's bytes: they must survive later feeds. */
static void decoded_strings_outlive_later_feeds(void **state) {
  hg_buf f1, f2;
  frame_of(1, 0, &f1);
  frame_of(2, 200000, &f2);
  hg_frame_reader r;
  hg_frame_reader_init(&r);
  assert_int_equal(hg_frame_reader_feed(&r, f1.data, f1.len), 0);
  msgpack_unpacked u1, u2;
  assert_int_equal(hg_frame_reader_next(&r, &u1), 1);
  assert_int_equal(hg_frame_reader_feed(&r, f2.data, f2.len),
                   0); /* may move the buffer */
  assert_int_equal(hg_frame_reader_next(&r, &u2), 1);
  hg_frame_reader_reset(&r);
  const char *op;
  size_t n;
  assert_int_equal(hg_mp_str(&u1.data, "op", &op, &n), 0);
  assert_int_equal(n, 4);
  assert_memory_equal(op, "ping", 4);
  msgpack_unpacked_destroy(&u1);
  msgpack_unpacked_destroy(&u2);
  hg_frame_reader_free(&r);
  hg_buf_free(&f1);
  hg_buf_free(&f2);
}

static void many_frames_in_one_feed_come_out_in_order(void **state) {
  hg_buf all;
  hg_buf_init(&all, 1u << 20);
  for (uint64_t i = 0; i < 500; i++) {
    hg_buf f;
    frame_of(i, i % 7, &f);
    assert_int_equal(hg_buf_append(&all, f.data, f.len), 0);
    hg_buf_free(&f);
  }
  hg_frame_reader r;
  hg_frame_reader_init(&r);
  /* Split at an awkward point: the middle of a length header. */
  size_t cut = all.len / 2 + 1;
  assert_int_equal(hg_frame_reader_feed(&r, all.data, cut), 0);
  msgpack_unpacked u;
  uint64_t want = 0;
  while (hg_frame_reader_next(&r, &u) == 1) {
    assert_int_equal(id_of(&u), want++);
    msgpack_unpacked_destroy(&u);
  }
  assert_int_equal(hg_frame_reader_feed(&r, all.data + cut, all.len - cut), 0);
  while (hg_frame_reader_next(&r, &u) == 1) {
    assert_int_equal(id_of(&u), want++);
    msgpack_unpacked_destroy(&u);
  }
  assert_int_equal(want, 500);
  hg_frame_reader_free(&r);
  hg_buf_free(&all);
}

static int next_of_bytes(const void *p, size_t n) {
  hg_frame_reader r;
  hg_frame_reader_init(&r);
  int rc = hg_frame_reader_feed(&r, p, n);
  msgpack_unpacked u;
  if (rc == 0) rc = hg_frame_reader_next(&r, &u);
  if (rc == 1) msgpack_unpacked_destroy(&u);
  hg_frame_reader_free(&r);
  return rc;
}

static void zero_length_is_eproto(void **state) {
  static const unsigned char z[] = {0, 0, 0, 0, 0x80};
  assert_int_equal(next_of_bytes(z, sizeof z), -EPROTO);
}

static void oversized_length_is_eproto_before_the_body(void **state) {
  uint32_t n = HG_AGENT_MAX_FRAME + 1;
  unsigned char h[4] = {n >> 24, n >> 16, n >> 8, n};
  assert_int_equal(next_of_bytes(h, 4), -EPROTO);
  static const unsigned char huge[] = {0xff, 0xff, 0xff, 0xff};
  assert_int_equal(next_of_bytes(huge, 4), -EPROTO);
}

static void largest_frame_is_accepted(void **state) {
  /* A map holding one bin sized so the payload is exactly the maximum. */
  size_t overhead = 1 + 5 + 5; /* fixmap, fixstr "data", bin32 header */
  size_t bin = HG_AGENT_MAX_FRAME - overhead;
  char *p = calloc(1, HG_AGENT_MAX_FRAME + 4);
  uint32_t n = HG_AGENT_MAX_FRAME;
  unsigned char *q = (unsigned char *)p;
  q[0] = n >> 24, q[1] = n >> 16, q[2] = n >> 8, q[3] = n;
  q[4] = 0x81;
  memcpy(q + 5,
         "\xa4"
         "data",
         5);
  q[10] = 0xc6, q[11] = bin >> 24, q[12] = bin >> 16, q[13] = bin >> 8, q[14] = bin;
  assert_int_equal(next_of_bytes(p, HG_AGENT_MAX_FRAME + 4), 1);
  q[3] = (unsigned char)(n + 1); /* one more byte: too big */
  assert_int_equal(next_of_bytes(p, HG_AGENT_MAX_FRAME + 4), -EPROTO);
  free(p);
}

static void non_map_payloads_are_eproto(void **state) {
  static const unsigned char arr[] = {0x92, 0x01, 0x02};
  static const unsigned char num[] = {0x2a};
  static const unsigned char str[] = {0xa2, 'h', 'i'};
  static const unsigned char nil[] = {0xc0};
  const struct {
    const unsigned char *p;
    size_t n;
  } cases[] = {
      {arr, sizeof arr}, {num, sizeof num}, {str, sizeof str}, {nil, sizeof nil}};
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    hg_buf f;
    raw_frame(&f, cases[i].p, (uint32_t)cases[i].n);
    assert_int_equal(next_of_bytes(f.data, f.len), -EPROTO);
    hg_buf_free(&f);
  }
}

static void garbage_inside_a_frame_is_eproto(void **state) {
  static const unsigned char cut[] = {0x82, 0xa2, 'i', 'd'}; /* map cut short */
  static const unsigned char bad[] = {0x81, 0xc1, 0x01};     /* 0xc1 never used */
  static const unsigned char two[] = {0x80, 0x80};           /* two objects */
  static const unsigned char lie[] = {0x81, 0xa1, 'x',  0xc6,
                                      0x7f, 0xff, 0xff, 0xff}; /* bin past end */
  static const unsigned char big[] = {0xdf, 0xff, 0xff, 0xff,
                                      0xff}; /* 4G pairs declared */
  static const unsigned char arr[] = {0x81, 0xa1, 'a',  0xdd, 0x7f,
                                      0xff, 0xff, 0xff, 0x00};
  const struct {
    const unsigned char *p;
    size_t n;
  } cases[] = {{cut, sizeof cut}, {bad, sizeof bad}, {two, sizeof two},
               {lie, sizeof lie}, {big, sizeof big}, {arr, sizeof arr}};
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    hg_buf f;
    raw_frame(&f, cases[i].p, (uint32_t)cases[i].n);
    assert_int_equal(next_of_bytes(f.data, f.len), -EPROTO);
    hg_buf_free(&f);
  }
}

static void deep_nesting_is_eproto_not_a_crash(void **state) {
  unsigned char p[2000];
  p[0] = 0x81;
  p[1] = 0xa1;
  p[2] = 'k';
  for (size_t i = 3; i < sizeof p - 1; i++) p[i] = 0x91; /* [[[[...]]]] */
  p[sizeof p - 1] = 0xc0;
  hg_buf f;
  raw_frame(&f, p, sizeof p);
  assert_int_equal(next_of_bytes(f.data, f.len), -EPROTO);
  hg_buf_free(&f);
}

static void feeding_past_the_bound_is_eproto(void **state) {
  hg_frame_reader r;
  hg_frame_reader_init(&r);
  char *junk = calloc(1, HG_AGENT_MAX_FRAME);
  int rc = 0;
  for (int i = 0; i < 4 && rc == 0; i++)
    rc = hg_frame_reader_feed(&r, junk, HG_AGENT_MAX_FRAME);
  assert_int_equal(rc, -EPROTO);
  free(junk);
  hg_frame_reader_free(&r);
}

static void all_map_key_types_are_walked(void **state) {
  /* Every msgpack type inside a map: the pre-check must accept them all. */
  msgpack_sbuffer sb;
  msgpack_packer pk;
  msgpack_sbuffer_init(&sb);
  msgpack_packer_init(&pk, &sb, msgpack_sbuffer_write);
  msgpack_pack_map(&pk, 12);
  hg_mp_pack_kv_u64(&pk, "u8", 200);
  hg_mp_pack_kv_u64(&pk, "u64", UINT64_MAX);
  hg_mp_pack_kv_i64(&pk, "i", INT64_MIN);
  hg_mp_pack_str(&pk, "f");
  msgpack_pack_double(&pk, 1.5);
  hg_mp_pack_str(&pk, "g");
  msgpack_pack_float(&pk, 2.5f);
  hg_mp_pack_str(&pk, "n");
  msgpack_pack_nil(&pk);
  hg_mp_pack_kv_bool(&pk, "b", true);
  hg_mp_pack_str(&pk, "e");
  msgpack_pack_ext(&pk, 3, 1);
  msgpack_pack_ext_body(&pk, "abc", 3);
  hg_mp_pack_str(&pk, "fx");
  msgpack_pack_ext(&pk, 16, 2);
  msgpack_pack_ext_body(&pk, "0123456789abcdef", 16);
  hg_mp_pack_str(&pk, "a");
  msgpack_pack_array(&pk, 20);
  for (int i = 0; i < 20; i++) msgpack_pack_int(&pk, -i * 1000);
  hg_mp_pack_str(&pk, "m");
  msgpack_pack_map(&pk, 1);
  hg_mp_pack_kv_str(&pk, "k", "v");
  hg_mp_pack_str(&pk, "s");
  char longstr[300];
  memset(longstr, 'x', sizeof longstr);
  hg_mp_pack_strn(&pk, longstr, sizeof longstr);
  hg_buf f;
  hg_buf_init(&f, 1u << 20);
  assert_int_equal(hg_frame_encode(&sb, &f), 0);
  assert_int_equal(next_of_bytes(f.data, f.len), 1);
  hg_buf_free(&f);
  msgpack_sbuffer_destroy(&sb);
}

static void encode_rejects_empty_and_oversized(void **state) {
  msgpack_sbuffer sb;
  msgpack_sbuffer_init(&sb);
  hg_buf f;
  hg_buf_init(&f, 4 * HG_AGENT_MAX_FRAME);
  assert_int_equal(hg_frame_encode(&sb, &f), -EMSGSIZE);
  msgpack_sbuffer_destroy(&sb);
  pack_req(&sb, 1, HG_AGENT_MAX_FRAME);
  assert_int_equal(hg_frame_encode(&sb, &f), -EMSGSIZE);
  assert_int_equal(f.len, 0);
  msgpack_sbuffer_destroy(&sb);
  hg_buf_free(&f);
}

static void encode_into_a_full_buffer_leaves_it_unchanged(void **state) {
  msgpack_sbuffer sb;
  pack_req(&sb, 1, 100);
  hg_buf f;
  hg_buf_init(&f, 64);
  assert_int_equal(hg_buf_append(&f, "abc", 3), 0);
  assert_int_equal(hg_frame_encode(&sb, &f), -ENOBUFS);
  assert_int_equal(f.len, 3);
  msgpack_sbuffer_destroy(&sb);
  hg_buf_free(&f);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(encoded_frame_decodes_back),
      cmocka_unit_test(frame_fed_byte_by_byte_decodes_once),
      cmocka_unit_test(decoded_strings_outlive_later_feeds),
      cmocka_unit_test(many_frames_in_one_feed_come_out_in_order),
      cmocka_unit_test(zero_length_is_eproto),
      cmocka_unit_test(oversized_length_is_eproto_before_the_body),
      cmocka_unit_test(largest_frame_is_accepted),
      cmocka_unit_test(non_map_payloads_are_eproto),
      cmocka_unit_test(garbage_inside_a_frame_is_eproto),
      cmocka_unit_test(deep_nesting_is_eproto_not_a_crash),
      cmocka_unit_test(feeding_past_the_bound_is_eproto),
      cmocka_unit_test(all_map_key_types_are_walked),
      cmocka_unit_test(encode_rejects_empty_and_oversized),
      cmocka_unit_test(encode_into_a_full_buffer_leaves_it_unchanged),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
