/* replication/frame: the authenticated replication wire and its messages.
 * Frames: round trips in memory and over a socketpair (both directions,
 * a 1 MiB payload that must be written in parts, signals during reads);
 * every way a frame can be wrong (wrong key, other cluster, any flipped
 * bit, replay into another exchange, reorder, drop, reflection, over-length,
 * truncation) with the session left as it was; key rotation. Messages:
 * round trips of each, and decoders refusing malformed msgpack, wrong
 * types, missing fields, over-count arrays, long strings, NULs, bad ids,
 * uuids and names, with the output untouched.
 *
 * HG_REPL_SEEDS_DIR=dir ./test_frame also writes the fuzz seeds
 * (tests/fuzz/seeds/repl_frame): a selector byte, then the input (see
 * fuzz_repl_frame.c, whose fixed keys and challenge are repeated here). */
#include <errno.h>
#include <fcntl.h>
#include <openssl/hmac.h>
#include <pthread.h>
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include <cmocka.h>
#include <msgpack.h>

#include "node/core/util.h"
#include "replication/frame.h"
#include "tests/unit/seed_util.h"

#define KA "00112233445566778899aabbccddeeff00112233445566778899aabbccddeeff"
#define KB "ffeeddccbbaa99887766554433221100ffeeddccbbaa99887766554433221100"
#define KC "0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef"
#define SB "sb-0123456789abcdef"
#define TNAME "default:latest@0123456789abcdef"
#define FRAME_CAP (HG_RFRAME_HDR + HG_RFRAME_MAX + HG_RFRAME_MAC)

/* the fuzz target's fixed setup (fuzz_repl_frame.c) */
#define FUZZ_CLUSTER "fuzz"
#define FUZZ_CHALLENGE 0xc5

static void fuzz_key_list(char *out, bool with_decoy) {
  char *p = out;
  if (with_decoy) p += sprintf(p, "%s,", KB);
  for (int i = 0; i < 32; i++) p += sprintf(p, "%02x", i);
}

static hg_rframe_keys keys_of(const char *list, const char *cluster) {
  hg_rframe_keys k;
  assert_int_equal(hg_rframe_keys_derive(list, cluster, &k), 0);
  return k;
}

static void uuid_of(unsigned i, char out[HG_REPL_UUID_MAX]) {
  snprintf(out, HG_REPL_UUID_MAX, "%08x-0000-4000-8000-%012x", 0xabc00000u + i,
           i * 7919u);
}

/* ---- message fixtures ------------------------------------------------------ */

static void fill_offer(hg_repl_offer *m, unsigned ncands) {
  memset(m, 0, sizeof *m);
  for (int i = 0; i < HG_RFRAME_NONCE; i++) m->nonce[i] = (uint8_t)(i * 17 + 1);
  strcpy(m->cluster, "prod-eu");
  strcpy(m->from, "n-0a1b2c3d");
  strcpy(m->sandbox, SB);
  m->epoch = 7;
  m->gen = 42;
  strcpy(m->name, TNAME);
  uuid_of(1000, m->uuid);
  m->ncands = ncands;
  for (unsigned i = 0; i < ncands; i++) {
    bool last = i + 1 == ncands;
    m->cands[i].tmpl = last;
    m->cands[i].gen = last ? 0 : 41 - i;
    uuid_of(i, m->cands[i].uuid);
  }
}

static void fill_list(hg_repl_offer *m) {
  memset(m, 0, sizeof *m);
  memset(m->nonce, 0x11, HG_RFRAME_NONCE);
  strcpy(m->cluster, "prod-eu");
  strcpy(m->from, "node1");
  strcpy(m->sandbox, SB);
}

static void fill_reply(hg_repl_reply *m, hg_repl_verdict v) {
  memset(m, 0, sizeof *m);
  m->verdict = v;
  memset(m->challenge, 0x3c, HG_RFRAME_NONCE);
  m->parent = v == HG_REPL_SEND ? 3 : -1;
  if (v == HG_REPL_REFUSE) {
    strcpy(m->code, "stale_epoch");
    strcpy(m->message, "epoch 3 is below 5");
  }
}

static void fill_holdings(hg_repl_holdings *m, unsigned n) {
  memset(m, 0, sizeof *m);
  strcpy(m->sandbox, SB);
  m->gen = 9;
  m->epoch = 4;
  m->n = n;
  for (unsigned i = 0; i < n; i++) {
    m->h[i].gen = 1000 - i;
    m->h[i].bytes = (uint64_t)i << 33;
    m->h[i].created_ms = i == 1 ? -5 : 1700000000000 + i;
    uuid_of(i + 50, m->h[i].uuid);
  }
}

static void fill_error(hg_repl_error *m) {
  memset(m, 0, sizeof *m);
  strcpy(m->code, "no_space");
  strcpy(m->message, "btrfs receive: No space left on device");
}

/* ---- messages: round trips ------------------------------------------------- */

static void offer_round_trips(void **state) {
  unsigned counts[] = {0, 1, 5, HG_REPL_CANDIDATES};
  for (size_t c = 0; c < HG_ARRAY_SIZE(counts); c++) {
    hg_repl_offer m, got;
    fill_offer(&m, counts[c]);
    hg_buf b;
    hg_buf_init(&b, 1 << 20);
    assert_int_equal(hg_repl_offer_encode(&m, &b), 0);
    memset(&got, 0xa5, sizeof got);
    assert_int_equal(hg_repl_offer_decode(b.data, b.len, &got), 0);
    assert_memory_equal(&got, &m, sizeof m);
    hg_buf_free(&b);
  }
  /* a template: no sandbox, no epoch or gen */
  hg_repl_offer t, got;
  fill_offer(&t, 0);
  t.tmpl = true;
  memset(t.sandbox, 0, sizeof t.sandbox);
  t.epoch = t.gen = 0;
  hg_buf b;
  hg_buf_init(&b, 1 << 20);
  assert_int_equal(hg_repl_offer_encode(&t, &b), 0);
  assert_int_equal(hg_repl_offer_decode(b.data, b.len, &got), 0);
  assert_memory_equal(&got, &t, sizeof t);
  hg_buf_reset(&b);
  /* LIST: the offer with only nonce, cluster, from, sandbox */
  fill_list(&t);
  assert_int_equal(hg_repl_offer_encode(&t, &b), 0);
  assert_int_equal(hg_repl_offer_decode(b.data, b.len, &got), 0);
  assert_memory_equal(&got, &t, sizeof t);
  hg_buf_free(&b);
  /* and a LIST written with only its four keys */
  msgpack_sbuffer sb;
  msgpack_sbuffer_init(&sb);
  msgpack_packer pk;
  msgpack_packer_init(&pk, &sb, msgpack_sbuffer_write);
  msgpack_pack_map(&pk, 4);
  msgpack_pack_str_with_body(&pk, "n", 1);
  msgpack_pack_bin_with_body(&pk, t.nonce, HG_RFRAME_NONCE);
  msgpack_pack_str_with_body(&pk, "c", 1);
  msgpack_pack_str_with_body(&pk, "prod-eu", 7);
  msgpack_pack_str_with_body(&pk, "f", 1);
  msgpack_pack_str_with_body(&pk, "node1", 5);
  msgpack_pack_str_with_body(&pk, "s", 1);
  msgpack_pack_str_with_body(&pk, SB, strlen(SB));
  memset(&got, 0xa5, sizeof got);
  assert_int_equal(hg_repl_offer_decode(sb.data, sb.size, &got), 0);
  assert_memory_equal(&got, &t, sizeof t);
  msgpack_sbuffer_destroy(&sb);
}

static void reply_end_error_round_trip(void **state) {
  hg_buf b;
  hg_buf_init(&b, 4096);
  for (int v = HG_REPL_SEND; v <= HG_REPL_REFUSE; v++) {
    hg_repl_reply m, got;
    fill_reply(&m, (hg_repl_verdict)v);
    hg_buf_reset(&b);
    assert_int_equal(hg_repl_reply_encode(&m, &b), 0);
    assert_int_equal(hg_repl_reply_decode(b.data, b.len, &got), 0);
    assert_memory_equal(&got, &m, sizeof m);
  }
  hg_repl_end e = {.raw_bytes = UINT64_MAX, .zstd_bytes = 123456789, .chunks = 0}, eg;
  hg_buf_reset(&b);
  assert_int_equal(hg_repl_end_encode(&e, &b), 0);
  assert_int_equal(hg_repl_end_decode(b.data, b.len, &eg), 0);
  assert_memory_equal(&eg, &e, sizeof e);
  hg_repl_error x, xg;
  fill_error(&x);
  hg_buf_reset(&b);
  assert_int_equal(hg_repl_error_encode(&x, &b), 0);
  assert_int_equal(hg_repl_error_decode(b.data, b.len, &xg), 0);
  assert_memory_equal(&xg, &x, sizeof x);
  hg_buf_free(&b);
}

static void holdings_round_trip(void **state) {
  static hg_repl_holdings m, got;
  unsigned counts[] = {0, 1, HG_REPL_HOLDINGS};
  hg_buf b;
  hg_buf_init(&b, 1 << 20);
  for (size_t c = 0; c < HG_ARRAY_SIZE(counts); c++) {
    fill_holdings(&m, counts[c]);
    hg_buf_reset(&b);
    assert_int_equal(hg_repl_holdings_encode(&m, &b), 0);
    assert_int_equal(hg_repl_holdings_decode(b.data, b.len, &got), 0);
    assert_memory_equal(&got, &m, sizeof m);
  }
  /* a template's ACK has no sandbox */
  fill_holdings(&m, 0);
  memset(m.sandbox, 0, sizeof m.sandbox);
  hg_buf_reset(&b);
  assert_int_equal(hg_repl_holdings_encode(&m, &b), 0);
  assert_int_equal(hg_repl_holdings_decode(b.data, b.len, &got), 0);
  assert_memory_equal(&got, &m, sizeof m);
  hg_buf_free(&b);
}

/* ---- messages: what the decoders refuse ------------------------------------- */

typedef int (*dec_fn)(const void *data, size_t len, void *out);
static int dec_offer(const void *d, size_t n, void *o) {
  return hg_repl_offer_decode(d, n, o);
}
static int dec_reply(const void *d, size_t n, void *o) {
  return hg_repl_reply_decode(d, n, o);
}
static int dec_end(const void *d, size_t n, void *o) {
  return hg_repl_end_decode(d, n, o);
}
static int dec_hold(const void *d, size_t n, void *o) {
  return hg_repl_holdings_decode(d, n, o);
}
static int dec_error(const void *d, size_t n, void *o) {
  return hg_repl_error_decode(d, n, o);
}

static union {
  hg_repl_offer o;
  hg_repl_reply r;
  hg_repl_end e;
  hg_repl_holdings h;
  hg_repl_error x;
} scratch;
static uint8_t pristine[sizeof scratch];

/* The decoder must refuse with -EPROTO and leave its output alone. */
static void refused(dec_fn fn, const void *data, size_t len) {
  memset(&scratch, 0xa5, sizeof scratch);
  memset(pristine, 0xa5, sizeof pristine);
  assert_int_equal(fn(data, len, &scratch), -EPROTO);
  assert_memory_equal(&scratch, pristine, sizeof scratch);
}

/* Packs map with key replaced by repl (NULL: dropped); "p/u" reaches into
 * the first map of array p. */
static void pack_mut(msgpack_packer *pk, const msgpack_object *map, const char *key,
                     const msgpack_object *repl) {
  const char *slash = strchr(key, '/');
  size_t kl = slash ? (size_t)(slash - key) : strlen(key);
  uint32_t n = map->via.map.size, drop = 0;
  for (uint32_t i = 0; i < n; i++) {
    const msgpack_object *k = &map->via.map.ptr[i].key;
    if (!slash && !repl && k->via.str.size == kl && !memcmp(k->via.str.ptr, key, kl))
      drop++;
  }
  msgpack_pack_map(pk, n - drop);
  for (uint32_t i = 0; i < n; i++) {
    const msgpack_object *k = &map->via.map.ptr[i].key, *v = &map->via.map.ptr[i].val;
    bool hit = k->via.str.size == kl && !memcmp(k->via.str.ptr, key, kl);
    if (hit && !slash && !repl) continue;
    msgpack_pack_object(pk, *k);
    if (!hit) {
      msgpack_pack_object(pk, *v);
    } else if (!slash) {
      msgpack_pack_object(pk, *repl);
    } else {
      assert_int_equal(v->type, MSGPACK_OBJECT_ARRAY);
      assert_true(v->via.array.size > 0);
      msgpack_pack_array(pk, v->via.array.size);
      pack_mut(pk, &v->via.array.ptr[0], slash + 1, repl);
      for (uint32_t j = 1; j < v->via.array.size; j++)
        msgpack_pack_object(pk, v->via.array.ptr[j]);
    }
  }
}

static void mutate(const hg_buf *in, const char *key, const msgpack_object *repl,
                   msgpack_sbuffer *out) {
  msgpack_unpacked u;
  msgpack_unpacked_init(&u);
  size_t off = 0;
  assert_int_equal(msgpack_unpack_next(&u, in->data, in->len, &off),
                   MSGPACK_UNPACK_SUCCESS);
  msgpack_sbuffer_init(out);
  msgpack_packer pk;
  msgpack_packer_init(&pk, out, msgpack_sbuffer_write);
  pack_mut(&pk, &u.data, key, repl);
  msgpack_unpacked_destroy(&u);
}

enum kind { K_U64, K_I64, K_BOOL, K_STR, K_NONCE, K_ARR };
typedef struct field {
  const char *key;
  enum kind kind;
  bool required;
} field;

static bool compatible(enum kind k, msgpack_object_type t) {
  switch (k) {
    case K_U64:
      return t == MSGPACK_OBJECT_POSITIVE_INTEGER;
    case K_I64:
      return t == MSGPACK_OBJECT_POSITIVE_INTEGER || t == MSGPACK_OBJECT_NEGATIVE_INTEGER;
    case K_BOOL:
      return t == MSGPACK_OBJECT_BOOLEAN;
    case K_STR:
      return t == MSGPACK_OBJECT_STR;
    case K_NONCE:
      return false; /* "x" and a 1-byte bin are the wrong length */
    case K_ARR:
      return t == MSGPACK_OBJECT_ARRAY;
  }
  return false;
}

/* valid with key replaced by repl (NULL: dropped, see pack_mut): fn must
 * refuse it. */
static void refuse_mut(const hg_buf *valid, dec_fn fn, const char *key,
                       const msgpack_object *repl) {
  msgpack_sbuffer sb;
  mutate(valid, key, repl, &sb);
  refused(fn, sb.data, sb.size);
  msgpack_sbuffer_destroy(&sb);
}

/* Every field of a valid encoding replaced by every wrong type, and every
 * required one dropped: -EPROTO, and the valid encoding still decodes. */
static void refuse_each_field(const hg_buf *valid, dec_fn fn, const field *fields,
                              size_t n) {
  msgpack_object wrong[9];
  memset(wrong, 0, sizeof wrong);
  wrong[0].type = MSGPACK_OBJECT_NIL;
  wrong[1].type = MSGPACK_OBJECT_BOOLEAN;
  wrong[1].via.boolean = true;
  wrong[2].type = MSGPACK_OBJECT_POSITIVE_INTEGER;
  wrong[2].via.u64 = 7;
  wrong[3].type = MSGPACK_OBJECT_NEGATIVE_INTEGER;
  wrong[3].via.i64 = -7;
  wrong[4].type = MSGPACK_OBJECT_STR;
  wrong[4].via.str.ptr = "x";
  wrong[4].via.str.size = 1;
  wrong[5].type = MSGPACK_OBJECT_BIN;
  wrong[5].via.bin.ptr = "\x01";
  wrong[5].via.bin.size = 1;
  wrong[6].type = MSGPACK_OBJECT_ARRAY;
  wrong[7].type = MSGPACK_OBJECT_MAP;
  wrong[8].type = MSGPACK_OBJECT_FLOAT64;
  wrong[8].via.f64 = 1.5;
  assert_int_equal(fn(valid->data, valid->len, &scratch), 0);
  for (size_t f = 0; f < n; f++) {
    for (size_t w = 0; w < HG_ARRAY_SIZE(wrong); w++)
      if (!compatible(fields[f].kind, wrong[w].type))
        refuse_mut(valid, fn, fields[f].key, &wrong[w]);
    if (fields[f].required) refuse_mut(valid, fn, fields[f].key, NULL);
  }
}

/* Every strict prefix, and one trailing byte, of a valid encoding. */
static void refuse_cut(const hg_buf *valid, dec_fn fn) {
  for (size_t n = 0; n < valid->len; n++) refused(fn, valid->data, n);
  uint8_t *longer = malloc(valid->len + 1);
  memcpy(longer, valid->data, valid->len);
  longer[valid->len] = 0xc0;
  refused(fn, longer, valid->len + 1);
  free(longer);
}

static void decoders_refuse_wrong_types_missing_and_cut(void **state) {
  static const field offer[] = {
      {"n", K_NONCE, true}, {"c", K_STR, true},   {"f", K_STR, true},
      {"s", K_STR, true},   {"t", K_BOOL, false}, {"e", K_U64, false},
      {"g", K_U64, false},  {"m", K_STR, false},  {"u", K_STR, false},
      {"p", K_ARR, false},  {"p/g", K_U64, true}, {"p/t", K_BOOL, true},
      {"p/u", K_STR, true}};
  static const field reply[] = {{"v", K_U64, true},
                                {"ch", K_NONCE, true},
                                {"p", K_I64, true},
                                {"k", K_STR, true},
                                {"ms", K_STR, true}};
  static const field end[] = {{"r", K_U64, true}, {"z", K_U64, true}, {"c", K_U64, true}};
  static const field hold[] = {{"s", K_STR, true},    {"g", K_U64, true},
                               {"e", K_U64, true},    {"h", K_ARR, true},
                               {"h/g", K_U64, true},  {"h/b", K_U64, true},
                               {"h/ms", K_I64, true}, {"h/u", K_STR, true}};
  static const field error[] = {{"k", K_STR, true}, {"ms", K_STR, true}};
  static hg_repl_offer o;
  static hg_repl_holdings h;
  hg_repl_reply r;
  hg_repl_end e = {1, 2, 3};
  hg_repl_error x;
  hg_buf b;
  hg_buf_init(&b, 1 << 20);

  fill_offer(&o, 3);
  assert_int_equal(hg_repl_offer_encode(&o, &b), 0);
  refuse_each_field(&b, dec_offer, offer, HG_ARRAY_SIZE(offer));
  refuse_cut(&b, dec_offer);

  hg_buf_reset(&b);
  fill_reply(&r, HG_REPL_REFUSE);
  assert_int_equal(hg_repl_reply_encode(&r, &b), 0);
  refuse_each_field(&b, dec_reply, reply, HG_ARRAY_SIZE(reply));
  refuse_cut(&b, dec_reply);

  hg_buf_reset(&b);
  assert_int_equal(hg_repl_end_encode(&e, &b), 0);
  refuse_each_field(&b, dec_end, end, HG_ARRAY_SIZE(end));
  refuse_cut(&b, dec_end);

  hg_buf_reset(&b);
  fill_holdings(&h, 3);
  assert_int_equal(hg_repl_holdings_encode(&h, &b), 0);
  refuse_each_field(&b, dec_hold, hold, HG_ARRAY_SIZE(hold));
  refuse_cut(&b, dec_hold);

  hg_buf_reset(&b);
  fill_error(&x);
  assert_int_equal(hg_repl_error_encode(&x, &b), 0);
  refuse_each_field(&b, dec_error, error, HG_ARRAY_SIZE(error));
  refuse_cut(&b, dec_error);
  hg_buf_free(&b);
}

static void decoders_refuse_garbage(void **state) {
  dec_fn fns[] = {dec_offer, dec_reply, dec_end, dec_hold, dec_error};
  /* not a map; lying counts that would make msgpack-c allocate gigabytes;
   * the reserved byte; a map with a non-string key */
  static const uint8_t arr[] = {0x91, 0x01};
  static const uint8_t map32[] = {0xdf, 0xff, 0xff, 0xff, 0xff, 0xa1, 'n'};
  static const uint8_t arr32[] = {0x81, 0xa1, 'h', 0xdd, 0xff, 0xff, 0xff, 0xff, 0x80};
  static const uint8_t str32[] = {0x81, 0xa1, 'k', 0xdb, 0x7f, 0xff, 0xff, 0xff, 'a'};
  static const uint8_t c1[] = {0xc1};
  static const uint8_t intkey[] = {0x81, 0x01, 0x02};
  static const uint8_t empty_map[] = {0x80};
  for (size_t f = 0; f < HG_ARRAY_SIZE(fns); f++) {
    refused(fns[f], NULL, 0);
    refused(fns[f], arr, sizeof arr);
    refused(fns[f], map32, sizeof map32);
    refused(fns[f], arr32, sizeof arr32);
    refused(fns[f], str32, sizeof str32);
    refused(fns[f], c1, sizeof c1);
    refused(fns[f], intkey, sizeof intkey);
    refused(fns[f], empty_map, sizeof empty_map);
    uint8_t noise[512];
    uint64_t x = 0x9e3779b97f4a7c15ull + f;
    for (int round = 0; round < 200; round++) {
      for (size_t i = 0; i < sizeof noise; i++) {
        x ^= x << 13, x ^= x >> 7, x ^= x << 17;
        noise[i] = (uint8_t)x;
      }
      noise[0] = 0x85; /* a map of 5: deeper into the decoders */
      memset(&scratch, 0, sizeof scratch);
      assert_int_not_equal(fns[f](noise, (size_t)(x % sizeof noise), &scratch), 0);
    }
  }
}

/* A msgpack string of the n bytes at p, NULs and all. */
static msgpack_object str_obj(const char *p, size_t n) {
  msgpack_object s;
  memset(&s, 0, sizeof s);
  s.type = MSGPACK_OBJECT_STR;
  s.via.str.ptr = p;
  s.via.str.size = (uint32_t)n;
  return s;
}

/* v as a msgpack string; "#…" stands for 5 bytes with a NUL in the middle. */
static msgpack_object str_val(const char *v) {
  return v[0] == '#' ? str_obj("ab\0cd", 5) : str_obj(v, strlen(v));
}

/* A valid offer with key's value replaced by the string val (str_val),
 * packed by hand past the encoder's checks, so the decoder alone is tried. */
static void offer_with(const char *key, const char *val, msgpack_sbuffer *sb) {
  static hg_repl_offer o;
  fill_offer(&o, 2);
  hg_buf b;
  hg_buf_init(&b, 1 << 20);
  assert_int_equal(hg_repl_offer_encode(&o, &b), 0);
  msgpack_object s = str_val(val);
  mutate(&b, key, &s, sb);
  hg_buf_free(&b);
}

static void decoders_refuse_bad_strings_ids_uuids_names(void **state) {
  char long64[65], long32[33], long160[161], long256[257];
  memset(long64, 'a', 64), long64[64] = '\0';
  memset(long32, 'a', 32), long32[32] = '\0';
  memset(long160, 'a', 160), long160[160] = '\0';
  memset(long256, 'a', 256), long256[256] = '\0';
  struct {
    const char *key, *val;
  } bad[] = {
      {"c", long64},
      {"c", ""},
      {"c", "#"},
      {"c", "tab\there"},
      {"f", long64},
      {"f", ""},
      {"f", "a/b"},
      {"f", "#"},
      {"s", "sb-0123456789abcdeg"},
      {"s", "sb-0123456789ABCDEF"},
      {"s", "sb-0123456789abcdef0"},
      {"s", "../0123456789abcdef"},
      {"s", ""}, /* a sandbox offer needs its sandbox */
      {"s", "#"},
      {"m", long160},
      {"m", "../x@0123456789abcdef"},
      {"m", "a/b@0123456789abcdef"},
      {"m", "a..b@0123456789abcdef"},
      {"m", "@0123456789abcdef"},
      {"m", ".hidden@0123456789abcdef"},
      {"m", "default:latest"},
      {"m", "default:latest@0123456789ABCDEF"},
      {"m", "default:latest@0123456789abcde"},
      {"m", "Default@0123456789abcdef"},
      {"m", "#"},
      {"u", "0E1F0000-0000-4000-8000-000000000000"},
      {"u", "0e1f0000-0000-4000-8000-00000000000"},
      {"u", "0e1f0000-0000-4000-8000-0000000000000"},
      {"u", "0e1f00000000-4000-8000-0000000000000"},
      {"u", "0e1f0000-0000-4000-8000-00000000000g"},
      {"u", long64},
      {"u", "#"},
      {"p/u", ""},
      {"p/u", "0e1f0000-0000-4000-8000-00000000000"},
      {"p/u", "#"},
  };
  for (size_t i = 0; i < HG_ARRAY_SIZE(bad); i++) {
    msgpack_sbuffer sb;
    offer_with(bad[i].key, bad[i].val, &sb);
    refused(dec_offer, sb.data, sb.size);
    msgpack_sbuffer_destroy(&sb);
  }
  /* the longest strings that fit are fine */
  char c63[64];
  memset(c63, 'c', 63), c63[63] = '\0';
  msgpack_sbuffer sb;
  offer_with("c", c63, &sb);
  assert_int_equal(hg_repl_offer_decode(sb.data, sb.size, &scratch.o), 0);
  assert_string_equal(scratch.o.cluster, c63);
  msgpack_sbuffer_destroy(&sb);

  /* reply and error: codes are err.h slugs, messages fit and hold no NUL */
  hg_repl_reply r;
  hg_repl_error x;
  hg_buf b;
  hg_buf_init(&b, 1 << 20);
  fill_reply(&r, HG_REPL_REFUSE);
  assert_int_equal(hg_repl_reply_encode(&r, &b), 0);
  const char *bad_codes[] = {long32, "", "Stale", "stale epoch", "#"};
  msgpack_object s;
  for (size_t i = 0; i < HG_ARRAY_SIZE(bad_codes); i++) {
    s = str_val(bad_codes[i]);
    refuse_mut(&b, dec_reply, "k", &s);
  }
  s = str_val(long256);
  refuse_mut(&b, dec_reply, "ms", &s);
  s = str_obj("a\0b", 3);
  refuse_mut(&b, dec_reply, "ms", &s);
  /* verdict and parent ranges */
  msgpack_object i;
  memset(&i, 0, sizeof i);
  i.type = MSGPACK_OBJECT_POSITIVE_INTEGER;
  uint64_t bad_verdicts[] = {0, 4, 1ull << 40};
  for (size_t k = 0; k < HG_ARRAY_SIZE(bad_verdicts); k++) {
    i.via.u64 = bad_verdicts[k];
    refuse_mut(&b, dec_reply, "v", &i);
  }
  i.via.u64 = HG_REPL_CANDIDATES;
  refuse_mut(&b, dec_reply, "p", &i);
  i.type = MSGPACK_OBJECT_NEGATIVE_INTEGER;
  i.via.i64 = -2;
  refuse_mut(&b, dec_reply, "p", &i);
  /* a 15- or 17-byte challenge */
  msgpack_object bin;
  memset(&bin, 0, sizeof bin);
  bin.type = MSGPACK_OBJECT_BIN;
  bin.via.bin.ptr = "0123456789abcdefg";
  for (uint32_t len = 15; len <= 17; len += 2) {
    bin.via.bin.size = len;
    refuse_mut(&b, dec_reply, "ch", &bin);
  }

  /* control characters in a message arrive as spaces */
  s = str_val("line one\nline\ttwo\x1b[31m");
  mutate(&b, "ms", &s, &sb);
  assert_int_equal(hg_repl_reply_decode(sb.data, sb.size, &r), 0);
  assert_string_equal(r.message, "line one line two [31m");
  msgpack_sbuffer_destroy(&sb);

  hg_buf_reset(&b);
  fill_error(&x);
  assert_int_equal(hg_repl_error_encode(&x, &b), 0);
  s = str_val("");
  refuse_mut(&b, dec_error, "k", &s);

  /* holdings: a bad uuid, a bad sandbox id */
  static hg_repl_holdings h;
  fill_holdings(&h, 2);
  hg_buf_reset(&b);
  assert_int_equal(hg_repl_holdings_encode(&h, &b), 0);
  s = str_val("not-a-uuid");
  refuse_mut(&b, dec_hold, "h/u", &s);
  s = str_val("sb-../../../etc");
  refuse_mut(&b, dec_hold, "s", &s);
  hg_buf_free(&b);
}

static void decoders_refuse_over_count_and_inconsistent(void **state) {
  /* 65 candidates, 257 holdings: packed by hand */
  static hg_repl_offer o;
  static hg_repl_holdings h;
  msgpack_sbuffer sb;
  msgpack_packer pk;
  hg_buf b;
  hg_buf_init(&b, 1 << 20);
  fill_offer(&o, 1);
  assert_int_equal(hg_repl_offer_encode(&o, &b), 0);
  msgpack_sbuffer_init(&sb);
  msgpack_packer_init(&pk, &sb, msgpack_sbuffer_write);
  msgpack_object arr;
  memset(&arr, 0, sizeof arr);
  arr.type = MSGPACK_OBJECT_ARRAY;
  msgpack_object items[HG_REPL_HOLDINGS + 1];
  /* each candidate: the valid first one, repeated */
  msgpack_unpacked u;
  msgpack_unpacked_init(&u);
  size_t off = 0;
  assert_int_equal(msgpack_unpack_next(&u, b.data, b.len, &off), MSGPACK_UNPACK_SUCCESS);
  const msgpack_object *cand = NULL;
  for (uint32_t i = 0; i < u.data.via.map.size; i++)
    if (u.data.via.map.ptr[i].key.via.str.size == 1 &&
        u.data.via.map.ptr[i].key.via.str.ptr[0] == 'p')
      cand = &u.data.via.map.ptr[i].val.via.array.ptr[0];
  assert_non_null(cand);
  for (int i = 0; i <= HG_REPL_CANDIDATES; i++) items[i] = *cand;
  arr.via.array.ptr = items;
  arr.via.array.size = HG_REPL_CANDIDATES + 1;
  refuse_mut(&b, dec_offer, "p", &arr);
  arr.via.array.size = HG_REPL_CANDIDATES;
  mutate(&b, "p", &arr, &sb);
  assert_int_equal(hg_repl_offer_decode(sb.data, sb.size, &scratch.o), 0);
  assert_int_equal(scratch.o.ncands, HG_REPL_CANDIDATES);
  msgpack_sbuffer_destroy(&sb);
  /* a template candidate with a generation */
  msgpack_object g;
  memset(&g, 0, sizeof g);
  g.type = MSGPACK_OBJECT_POSITIVE_INTEGER;
  g.via.u64 = 5;
  o.cands[0].tmpl = true;
  o.cands[0].gen = 0;
  hg_buf_reset(&b);
  assert_int_equal(hg_repl_offer_encode(&o, &b), 0);
  refuse_mut(&b, dec_offer, "p/g", &g);
  msgpack_unpacked_destroy(&u);

  /* a template offer with a sandbox or an epoch */
  fill_offer(&o, 0);
  o.tmpl = true;
  o.sandbox[0] = '\0';
  o.epoch = o.gen = 0;
  hg_buf_reset(&b);
  assert_int_equal(hg_repl_offer_encode(&o, &b), 0);
  refuse_mut(&b, dec_offer, "e", &g);
  msgpack_object s = str_val(SB);
  refuse_mut(&b, dec_offer, "s", &s);
  s = str_val(""); /* a template without its name */
  refuse_mut(&b, dec_offer, "m", &s);
  /* an offer without uuid that carries more than LIST's fields */
  fill_offer(&o, 0);
  hg_buf_reset(&b);
  assert_int_equal(hg_repl_offer_encode(&o, &b), 0);
  refuse_mut(&b, dec_offer, "u", NULL);

  /* holdings: 257 entries */
  fill_holdings(&h, 1);
  hg_buf_reset(&b);
  assert_int_equal(hg_repl_holdings_encode(&h, &b), 0);
  msgpack_unpacked_init(&u);
  off = 0;
  assert_int_equal(msgpack_unpack_next(&u, b.data, b.len, &off), MSGPACK_UNPACK_SUCCESS);
  const msgpack_object *entry = NULL;
  for (uint32_t i = 0; i < u.data.via.map.size; i++)
    if (u.data.via.map.ptr[i].key.via.str.ptr[0] == 'h')
      entry = &u.data.via.map.ptr[i].val.via.array.ptr[0];
  assert_non_null(entry);
  for (int i = 0; i <= HG_REPL_HOLDINGS; i++) items[i] = *entry;
  arr.via.array.size = HG_REPL_HOLDINGS + 1;
  refuse_mut(&b, dec_hold, "h", &arr);
  msgpack_unpacked_destroy(&u);

  /* unknown keys are ignored, but not past the decoder's size bound */
  fill_offer(&o, 1);
  hg_buf_reset(&b);
  assert_int_equal(hg_repl_offer_encode(&o, &b), 0);
  static char pad[20000];
  memset(pad, 'z', sizeof pad);
  size_t pads[] = {100, sizeof pad};
  for (size_t k = 0; k < 2; k++) {
    msgpack_sbuffer_init(&sb);
    msgpack_packer_init(&pk, &sb, msgpack_sbuffer_write);
    msgpack_unpacked_init(&u);
    off = 0;
    assert_int_equal(msgpack_unpack_next(&u, b.data, b.len, &off),
                     MSGPACK_UNPACK_SUCCESS);
    msgpack_pack_map(&pk, u.data.via.map.size + 1);
    msgpack_pack_str_with_body(&pk, "zz", 2);
    msgpack_pack_str_with_body(&pk, pad, pads[k]);
    for (uint32_t i = 0; i < u.data.via.map.size; i++) {
      msgpack_pack_object(&pk, u.data.via.map.ptr[i].key);
      msgpack_pack_object(&pk, u.data.via.map.ptr[i].val);
    }
    if (k == 0) {
      assert_int_equal(hg_repl_offer_decode(sb.data, sb.size, &scratch.o), 0);
      assert_memory_equal(&scratch.o, &o, sizeof o);
    } else {
      refused(dec_offer, sb.data, sb.size);
    }
    msgpack_sbuffer_destroy(&sb);
    msgpack_unpacked_destroy(&u);
  }
  hg_buf_free(&b);
}

static void encoders_refuse_what_decoders_would(void **state) {
  static hg_repl_offer o;
  static hg_repl_holdings h;
  hg_repl_reply r;
  hg_repl_error x;
  hg_buf b;
  hg_buf_init(&b, 1 << 20);
  assert_int_equal(hg_buf_append(&b, "keep", 4), 0);
  fill_offer(&o, 1);
  memset(o.cluster, 'c', sizeof o.cluster); /* no NUL */
  assert_int_equal(hg_repl_offer_encode(&o, &b), -EINVAL);
  fill_offer(&o, HG_REPL_CANDIDATES);
  o.ncands = HG_REPL_CANDIDATES + 1;
  assert_int_equal(hg_repl_offer_encode(&o, &b), -EINVAL);
  fill_offer(&o, 1);
  strcpy(o.sandbox, "../etc");
  assert_int_equal(hg_repl_offer_encode(&o, &b), -EINVAL);
  fill_offer(&o, 1);
  strcpy(o.cands[0].uuid, "");
  assert_int_equal(hg_repl_offer_encode(&o, &b), -EINVAL);
  fill_reply(&r, HG_REPL_SEND);
  r.parent = HG_REPL_CANDIDATES;
  assert_int_equal(hg_repl_reply_encode(&r, &b), -EINVAL);
  fill_reply(&r, HG_REPL_REFUSE);
  r.code[0] = '\0';
  assert_int_equal(hg_repl_reply_encode(&r, &b), -EINVAL);
  fill_holdings(&h, 1);
  h.n = HG_REPL_HOLDINGS + 1;
  assert_int_equal(hg_repl_holdings_encode(&h, &b), -EINVAL);
  fill_error(&x);
  strcpy(x.code, "No Space");
  assert_int_equal(hg_repl_error_encode(&x, &b), -EINVAL);
  assert_int_equal(b.len, 4);
  /* out of room: -ENOBUFS, out as it was */
  hg_buf small;
  hg_buf_init(&small, 64);
  assert_int_equal(hg_buf_append(&small, "keep", 4), 0);
  fill_offer(&o, 3);
  assert_int_equal(hg_repl_offer_encode(&o, &small), -ENOBUFS);
  assert_int_equal(small.len, 4);
  assert_string_equal(small.data, "keep");
  hg_buf_free(&small);
  hg_buf_free(&b);
}

static void name_ok_accepts_template_dirs_only(void **state) {
  assert_true(hg_repl_name_ok(TNAME));
  assert_true(hg_repl_name_ok("a@0123456789abcdef"));
  assert_true(hg_repl_name_ok("my-img_2.1:v1.2@ffffffffffffffff"));
  const char *bad[] = {"",
                       "@0123456789abcdef",
                       "a@",
                       "a",
                       "..@0123456789abcdef",
                       "a..b@0123456789abcdef",
                       "a/b@0123456789abcdef",
                       "/a@0123456789abcdef",
                       "-a@0123456789abcdef",
                       ".a@0123456789abcdef",
                       "a@0123456789abcdeF",
                       "a@0123456789abcde",
                       "a@0123456789abcdef0",
                       "a b@0123456789abcdef",
                       "a@b@0123456789abcdef"};
  for (size_t i = 0; i < HG_ARRAY_SIZE(bad); i++) assert_false(hg_repl_name_ok(bad[i]));
  assert_false(hg_repl_name_ok(NULL));
  char longest[HG_REPL_NAME_MAX];
  memset(longest, 'a', sizeof longest);
  memcpy(longest + HG_REPL_NAME_MAX - 18, "@0123456789abcdef", 18);
  assert_true(hg_repl_name_ok(longest));
  char too_long[HG_REPL_NAME_MAX + 1];
  memset(too_long, 'a', sizeof too_long);
  memcpy(too_long + HG_REPL_NAME_MAX - 17, "@0123456789abcdef", 18);
  assert_false(hg_repl_name_ok(too_long));
}

/* ---- keys ------------------------------------------------------------------ */

static void keys_derive_per_cluster_and_refuse_bad_lists(void **state) {
  hg_rframe_keys k, k2;
  assert_int_equal(hg_rframe_keys_derive(KA "," KB, "prod", &k), 0);
  assert_int_equal(k.n, 2);
  /* HMAC-SHA256(key, "hangar-repl v1\0" | name), computed here independently */
  uint8_t raw[32], want[32];
  for (int i = 0; i < 32; i++) raw[i] = (uint8_t)(0x00 + 0x11 * (i % 16));
  unsigned mdlen;
  HMAC(EVP_sha256(), raw, 32, (const uint8_t *)"hangar-repl v1\0prod", 19, want, &mdlen);
  assert_memory_equal(k.k[0], want, 32);
  assert_memory_not_equal(k.k[0], k.k[1], 32);
  assert_int_equal(hg_rframe_keys_derive(KA, "prod2", &k2), 0);
  assert_memory_not_equal(k.k[0], k2.k[0], 32);
  assert_int_equal(hg_rframe_keys_derive(
                       "FFEEDDCCBBAA99887766554433221100FFEEDDCCBBAA99887766554433221100",
                       "prod", &k2),
                   0);
  assert_memory_equal(k.k[1], k2.k[0], 32); /* hex is case-blind */

  char nine[9 * 65 + 1], eight[8 * 65 + 1];
  char *p = nine;
  for (int i = 0; i < 9; i++) p += sprintf(p, "%s%063x%x", i ? "," : "", 0, i);
  memcpy(eight, nine, 8 * 65 - 1);
  eight[8 * 65 - 1] = '\0';
  assert_int_equal(hg_rframe_keys_derive(eight, "prod", &k2), 0);
  assert_int_equal(k2.n, 8);
  const char *bad[] = {"",
                       KA ",",
                       "," KA,
                       KA "," KA,
                       KA "0",
                       "0112233445566778899aabbccddeeff00112233445566778899aabbccddeeff",
                       "g0112233445566778899aabbccddeeff00112233445566778899aabbccddeeff",
                       KA ";" KB,
                       nine};
  for (size_t i = 0; i < HG_ARRAY_SIZE(bad); i++) {
    memset(&k2, 0x5a, sizeof k2);
    assert_int_equal(hg_rframe_keys_derive(bad[i], "prod", &k2), -EINVAL);
    assert_int_equal(k2.n, 0x5a5a5a5a); /* untouched */
  }
  assert_int_equal(hg_rframe_keys_derive(NULL, "prod", &k2), -EINVAL);
  char name64[65];
  memset(name64, 'n', 64), name64[64] = '\0';
  assert_int_equal(hg_rframe_keys_derive(KA, name64, &k2), -EINVAL);
  name64[63] = '\0';
  assert_int_equal(hg_rframe_keys_derive(KA, name64, &k2), 0);
  assert_int_equal(hg_rframe_keys_derive(KA, "", &k2), -EINVAL);
  assert_int_equal(hg_rframe_keys_derive(KA, NULL, &k2), -EINVAL);
}

/* ---- frames in memory -------------------------------------------------------- */

typedef struct pair {
  hg_rframe_keys ki, kr;
  hg_rframe_session i, r;
} pair;

static void frame(hg_rframe_session *s, hg_rframe_type type, const void *p, size_t len,
                  hg_buf *out) {
  hg_buf_reset(out);
  assert_int_equal(hg_rframe_encode(s, type, p, len, out), 0);
  assert_int_equal(out->len, HG_RFRAME_HDR + len + HG_RFRAME_MAC);
}

/* Parses data with s; on success checks the whole frame was used. */
static int take(hg_rframe_session *s, const void *data, size_t n, hg_rframe_type *type,
                const uint8_t **p, size_t *len) {
  size_t used = 0;
  hg_rframe_type t;
  const uint8_t *pl;
  size_t l;
  int rc =
      hg_rframe_parse(s, data, n, type ? type : &t, p ? p : &pl, len ? len : &l, &used);
  if (rc == 0) assert_int_equal(used, n);
  return rc;
}

/* Parsing data with s fails with rc and leaves s as it was. */
static void refuses(hg_rframe_session *s, const void *data, size_t n, int rc) {
  hg_rframe_session before;
  memcpy(&before, s, sizeof before);
  assert_int_equal(take(s, data, n, NULL, NULL, NULL), rc);
  assert_memory_equal(&before, s, sizeof before);
}

/* OFFER and REPLY, as the exchange begins; out: the two frames. */
static void handshake(pair *p, const char *ikeys, const char *rkeys, hg_buf *offer_frame,
                      hg_buf *reply_frame) {
  p->ki = keys_of(ikeys, "prod");
  p->kr = keys_of(rkeys, "prod");
  assert_int_equal(hg_rframe_session_initiator(&p->i, &p->ki), 0);
  assert_int_equal(hg_rframe_session_responder(&p->r, &p->kr), 0);
  assert_int_equal(p->r.key, -1);
  static hg_repl_offer o, got;
  fill_offer(&o, 2);
  memcpy(o.nonce, p->i.nonce, HG_RFRAME_NONCE);
  hg_buf m;
  hg_buf_init(&m, 1 << 20);
  assert_int_equal(hg_repl_offer_encode(&o, &m), 0);
  frame(&p->i, HG_RF_OFFER, m.data, m.len, offer_frame);
  hg_rframe_type t;
  const uint8_t *pl;
  size_t len;
  assert_int_equal(take(&p->r, offer_frame->data, offer_frame->len, &t, &pl, &len), 0);
  assert_int_equal(t, HG_RF_OFFER);
  assert_int_equal(hg_repl_offer_decode(pl, len, &got), 0);
  hg_rframe_session_nonce(&p->r, got.nonce);
  hg_repl_reply r, rgot;
  fill_reply(&r, HG_REPL_SEND);
  memcpy(r.challenge, p->r.challenge, HG_RFRAME_NONCE);
  hg_buf_reset(&m);
  assert_int_equal(hg_repl_reply_encode(&r, &m), 0);
  frame(&p->r, HG_RF_REPLY, m.data, m.len, reply_frame);
  assert_int_equal(take(&p->i, reply_frame->data, reply_frame->len, &t, &pl, &len), 0);
  assert_int_equal(t, HG_RF_REPLY);
  assert_int_equal(hg_repl_reply_decode(pl, len, &rgot), 0);
  hg_rframe_session_challenge(&p->i, rgot.challenge);
  hg_buf_free(&m);
}

static void exchange_round_trips_in_memory(void **state) {
  pair p;
  hg_buf a, b;
  hg_buf_init(&a, 2 << 20);
  hg_buf_init(&b, 2 << 20);
  handshake(&p, KA, KA, &a, &b);
  assert_int_equal(p.r.key, 0);
  /* nonce and challenge are random per session */
  assert_memory_not_equal(p.i.nonce, p.r.challenge, HG_RFRAME_NONCE);
  static uint8_t big[HG_RFRAME_MAX];
  for (size_t i = 0; i < sizeof big; i++) big[i] = (uint8_t)(i * 7 + (i >> 11));
  size_t sizes[] = {0, 1, 1000, HG_RFRAME_MAX};
  for (size_t k = 0; k < HG_ARRAY_SIZE(sizes); k++) {
    frame(&p.i, HG_RF_DATA, big, sizes[k], &a);
    hg_rframe_type t;
    const uint8_t *pl;
    size_t len;
    assert_int_equal(take(&p.r, a.data, a.len, &t, &pl, &len), 0);
    assert_int_equal(t, HG_RF_DATA);
    assert_int_equal(len, sizes[k]);
    if (len) assert_memory_equal(pl, big, len);
  }
  frame(&p.r, HG_RF_ACK, "x", 1, &b);
  assert_int_equal(take(&p.i, b.data, b.len, NULL, NULL, NULL), 0);
  assert_int_equal(p.i.seq_out, 5);
  assert_int_equal(p.r.seq_in, 5);
  assert_int_equal(p.r.seq_out, 2);
  assert_int_equal(p.i.seq_in, 2);
  /* two frames back to back: one at a time, used says where the next starts */
  frame(&p.i, HG_RF_DATA, "one", 3, &a);
  assert_int_equal(hg_rframe_encode(&p.i, HG_RF_END, "two!", 4, &a), 0);
  size_t used;
  hg_rframe_type t;
  const uint8_t *pl;
  size_t len;
  assert_int_equal(hg_rframe_parse(&p.r, (uint8_t *)a.data, a.len, &t, &pl, &len, &used),
                   0);
  assert_int_equal(used, HG_RFRAME_HDR + 3 + HG_RFRAME_MAC);
  assert_memory_equal(pl, "one", 3);
  assert_int_equal(
      hg_rframe_parse(&p.r, (uint8_t *)a.data + used, a.len - used, &t, &pl, &len, &used),
      0);
  assert_int_equal(t, HG_RF_END);
  assert_memory_equal(pl, "two!", 4);
  hg_buf_free(&a);
  hg_buf_free(&b);
}

static void wrong_key_or_cluster_is_ebadmsg(void **state) {
  hg_rframe_keys ka = keys_of(KA, "prod"), kb = keys_of(KB, "prod"),
                ko = keys_of(KA, "other");
  hg_rframe_session i, r;
  hg_buf a;
  hg_buf_init(&a, 1 << 20);
  assert_int_equal(hg_rframe_session_initiator(&i, &ka), 0);
  frame(&i, HG_RF_OFFER, "hello", 5, &a);
  assert_int_equal(hg_rframe_session_responder(&r, &kb), 0);
  refuses(&r, a.data, a.len, -EBADMSG);
  assert_int_equal(hg_rframe_session_responder(&r, &ko), 0);
  refuses(&r, a.data, a.len, -EBADMSG);
  /* and the right ring takes it */
  assert_int_equal(hg_rframe_session_responder(&r, &ka), 0);
  assert_int_equal(take(&r, a.data, a.len, NULL, NULL, NULL), 0);
  /* a responder that verified nothing cannot answer */
  assert_int_equal(hg_rframe_session_responder(&r, &kb), 0);
  hg_buf_reset(&a);
  assert_int_equal(hg_rframe_encode(&r, HG_RF_ERROR, "x", 1, &a), -ENOKEY);
  assert_int_equal(a.len, 0);
  hg_buf_free(&a);
}

static void flipped_bit_anywhere_is_refused(void **state) {
  pair p;
  hg_buf a, b;
  hg_buf_init(&a, 1 << 20);
  hg_buf_init(&b, 1 << 20);
  handshake(&p, KA, KA, &a, &b);
  /* a later frame (session established) and a first frame (fresh responder) */
  frame(&p.i, HG_RF_DATA, "0123456789abcdefghijklmnopqrstuvwxyz", 36, &a);
  hg_rframe_session fresh_i, fresh_r;
  assert_int_equal(hg_rframe_session_initiator(&fresh_i, &p.ki), 0);
  assert_int_equal(hg_rframe_session_responder(&fresh_r, &p.kr), 0);
  frame(&fresh_i, HG_RF_LIST, "list me", 7, &b);
  struct {
    hg_buf *f;
    hg_rframe_session *s;
  } cases[] = {{&a, &p.r}, {&b, &fresh_r}};
  for (size_t c = 0; c < 2; c++) {
    uint8_t *copy = malloc(cases[c].f->len);
    for (size_t bit = 0; bit < cases[c].f->len * 8; bit++) {
      memcpy(copy, cases[c].f->data, cases[c].f->len);
      copy[bit / 8] ^= (uint8_t)(1u << (bit % 8));
      hg_rframe_session before;
      memcpy(&before, cases[c].s, sizeof before);
      int rc = take(cases[c].s, copy, cases[c].f->len, NULL, NULL, NULL);
      assert_memory_equal(&before, cases[c].s, sizeof before);
      if (bit / 8 >= HG_RFRAME_HDR)
        assert_int_equal(rc, -EBADMSG);
      else /* length: longer waits, shorter misreads the MAC; type: unknown or MAC */
        assert_true(rc == -EBADMSG || rc == -EPROTO || rc == -EAGAIN);
    }
    free(copy);
    /* the untouched frame still parses: nothing moved */
    assert_int_equal(
        take(cases[c].s, cases[c].f->data, cases[c].f->len, NULL, NULL, NULL), 0);
  }
  hg_buf_free(&a);
  hg_buf_free(&b);
}

static void replay_reorder_drop_and_reflection_are_ebadmsg(void **state) {
  pair p, q;
  hg_buf offer, reply, d1, d2, d3, x;
  hg_buf_init(&offer, 1 << 20);
  hg_buf_init(&reply, 1 << 20);
  hg_buf_init(&d1, 1 << 20);
  hg_buf_init(&d2, 1 << 20);
  hg_buf_init(&d3, 1 << 20);
  hg_buf_init(&x, 1 << 20);
  handshake(&p, KA, KA, &offer, &reply);
  frame(&p.i, HG_RF_DATA, "d1", 2, &d1);
  frame(&p.i, HG_RF_DATA, "d2", 2, &d2);
  frame(&p.i, HG_RF_DATA, "d3", 2, &d3);

  /* reorder: d2 before d1; drop: d3 right after d1 */
  refuses(&p.r, d2.data, d2.len, -EBADMSG);
  assert_int_equal(take(&p.r, d1.data, d1.len, NULL, NULL, NULL), 0);
  refuses(&p.r, d3.data, d3.len, -EBADMSG);
  assert_int_equal(take(&p.r, d2.data, d2.len, NULL, NULL, NULL), 0);
  refuses(&p.r, d2.data, d2.len, -EBADMSG); /* a duplicate */
  assert_int_equal(take(&p.r, d3.data, d3.len, NULL, NULL, NULL), 0);

  /* reflection: a frame sent back to its sender, sequence numbers aligned */
  hg_rframe_session ii;
  memcpy(&ii, &p.i, sizeof ii);
  ii.seq_in = ii.seq_out;
  frame(&p.i, HG_RF_DATA, "mine", 4, &x);
  refuses(&ii, x.data, x.len, -EBADMSG);
  hg_rframe_session rr;
  memcpy(&rr, &p.r, sizeof rr);
  rr.seq_in = rr.seq_out;
  frame(&p.r, HG_RF_ACK, "mine", 4, &x);
  refuses(&rr, x.data, x.len, -EBADMSG);

  /* replay into a new exchange: the OFFER only earns a fresh challenge ... */
  q.kr = p.kr;
  assert_int_equal(hg_rframe_session_responder(&q.r, &q.kr), 0);
  assert_memory_not_equal(q.r.challenge, p.r.challenge, HG_RFRAME_NONCE);
  assert_int_equal(take(&q.r, offer.data, offer.len, NULL, NULL, NULL), 0);
  hg_rframe_session_nonce(&q.r, p.i.nonce);
  /* ... and nothing the old exchange sent after it verifies */
  refuses(&q.r, d1.data, d1.len, -EBADMSG);
  /* nor does an old REPLY reach a new initiator */
  q.ki = p.ki;
  assert_int_equal(hg_rframe_session_initiator(&q.i, &q.ki), 0);
  refuses(&q.i, reply.data, reply.len, -EBADMSG);

  /* once a key was chosen, another key of the ring no longer verifies */
  pair k;
  handshake(&k, KB "," KA, KA "," KB, &offer, &reply);
  assert_int_equal(k.r.key, 1);
  hg_rframe_keys only_a = keys_of(KA, "prod");
  hg_rframe_session forger;
  memcpy(&forger, &k.i, sizeof forger);
  forger.keys = &only_a;
  forger.key = 0;
  frame(&forger, HG_RF_DATA, "forged", 6, &x);
  refuses(&k.r, x.data, x.len, -EBADMSG);
  frame(&k.i, HG_RF_DATA, "real", 4, &x);
  assert_int_equal(take(&k.r, x.data, x.len, NULL, NULL, NULL), 0);

  hg_buf_free(&offer);
  hg_buf_free(&reply);
  hg_buf_free(&d1);
  hg_buf_free(&d2);
  hg_buf_free(&d3);
  hg_buf_free(&x);
}

static void key_rotation_works_both_ways(void **state) {
  pair p;
  hg_buf a, b;
  hg_buf_init(&a, 1 << 20);
  hg_buf_init(&b, 1 << 20);
  /* mid-rotation: the initiator already sends with B, the responder still lists A first
   */
  handshake(&p, KB "," KA, KA "," KB, &a, &b);
  assert_int_equal(p.r.key, 1);
  frame(&p.i, HG_RF_DATA, "z", 1, &a);
  assert_int_equal(take(&p.r, a.data, a.len, NULL, NULL, NULL), 0);
  frame(&p.r, HG_RF_ACK, "ok", 2, &b);
  assert_int_equal(take(&p.i, b.data, b.len, NULL, NULL, NULL), 0);
  /* and the other way round */
  handshake(&p, KA, KB "," KA, &a, &b);
  assert_int_equal(p.r.key, 1);
  handshake(&p, KA "," KB, KA, &a, &b);
  assert_int_equal(p.r.key, 0);
  /* a key neither ring knows */
  hg_rframe_keys kc = keys_of(KC, "prod"), kab = keys_of(KA "," KB, "prod");
  hg_rframe_session i, r;
  assert_int_equal(hg_rframe_session_initiator(&i, &kc), 0);
  assert_int_equal(hg_rframe_session_responder(&r, &kab), 0);
  frame(&i, HG_RF_OFFER, "o", 1, &a);
  refuses(&r, a.data, a.len, -EBADMSG);
  assert_int_equal(r.key, -1);
  hg_buf_free(&a);
  hg_buf_free(&b);
}

static void over_length_unknown_type_and_truncation(void **state) {
  hg_rframe_keys ka = keys_of(KA, "prod");
  hg_rframe_session i, r;
  assert_int_equal(hg_rframe_session_initiator(&i, &ka), 0);
  assert_int_equal(hg_rframe_session_responder(&r, &ka), 0);
  uint8_t hdr[HG_RFRAME_HDR] = {0x00, 0x10, 0x00, 0x01, HG_RF_DATA}; /* HG_RFRAME_MAX + 1 */
  refuses(&r, hdr, sizeof hdr, -EPROTO);
  hdr[0] = 0xff;
  refuses(&r, hdr, sizeof hdr, -EPROTO);
  uint8_t zero[HG_RFRAME_HDR + HG_RFRAME_MAC] = {0};
  refuses(&r, zero, sizeof zero, -EPROTO); /* type 0 */
  zero[4] = HG_RF_LISTED + 1;
  refuses(&r, zero, sizeof zero, -EPROTO);
  zero[4] = 0xff;
  refuses(&r, zero, sizeof zero, -EPROTO);

  hg_buf a;
  hg_buf_init(&a, 4 << 20);
  assert_int_equal(hg_buf_append(&a, "keep", 4), 0);
  static uint8_t big[HG_RFRAME_MAX + 1];
  assert_int_equal(hg_rframe_encode(&i, HG_RF_DATA, big, sizeof big, &a), -EMSGSIZE);
  assert_int_equal(hg_rframe_encode(&i, (hg_rframe_type)0, "x", 1, &a), -EINVAL);
  assert_int_equal(hg_rframe_encode(&i, (hg_rframe_type)9, "x", 1, &a), -EINVAL);
  assert_int_equal(a.len, 4);
  assert_int_equal(i.seq_out, 0);
  /* out of room in out: nothing appended, the sequence unmoved */
  hg_buf tiny;
  hg_buf_init(&tiny, 40);
  assert_int_equal(hg_rframe_encode(&i, HG_RF_OFFER, "0123456789", 10, &tiny), -ENOBUFS);
  assert_int_equal(tiny.len, 0);
  assert_int_equal(i.seq_out, 0);
  hg_buf_free(&tiny);

  /* every prefix of a frame: -EAGAIN, nothing consumed or changed */
  frame(&i, HG_RF_OFFER, "a short offer", 13, &a);
  for (size_t n = 0; n < a.len; n++) refuses(&r, a.data, n, -EAGAIN);
  assert_int_equal(take(&r, a.data, a.len, NULL, NULL, NULL), 0);
  hg_buf_free(&a);
}

/* ---- frames over a socket ---------------------------------------------------- */

typedef struct peer {
  int fd;
  const hg_rframe_keys *keys;
  int rc;
  int delay_ms;
} peer;

static uint8_t *pattern(size_t n) {
  uint8_t *p = malloc(n);
  for (size_t i = 0; i < n; i++) p[i] = (uint8_t)((i * 2654435761u) >> 13);
  return p;
}

/* The initiator's side of OFFER -> REPLY -> DATA (1 MiB, empty, small) ->
 * END -> ACK, with a 1 MiB payload that a socketpair takes in parts. */
static void *initiator_main(void *arg) {
  peer *pe = arg;
  hg_rframe_session s;
  static uint8_t buf[FRAME_CAP];
  hg_rframe_type t;
  const uint8_t *pl;
  size_t len;
  uint8_t *big = pattern(HG_RFRAME_MAX);
  hg_repl_offer *o = calloc(1, sizeof *o);
  hg_repl_reply r;
  hg_buf m;
  hg_buf_init(&m, 1 << 20);
  int rc = hg_rframe_session_initiator(&s, pe->keys);
  fill_offer(o, 1);
  memcpy(o->nonce, s.nonce, HG_RFRAME_NONCE);
  if (!rc) rc = hg_repl_offer_encode(o, &m);
  if (!rc) rc = hg_rframe_write(pe->fd, &s, HG_RF_OFFER, m.data, m.len, 5000);
  if (!rc) rc = hg_rframe_read(pe->fd, &s, buf, sizeof buf, &t, &pl, &len, 5000);
  if (!rc && t != HG_RF_REPLY) rc = -EPROTO;
  if (!rc) rc = hg_repl_reply_decode(pl, len, &r);
  if (!rc) hg_rframe_session_challenge(&s, r.challenge);
  if (!rc) rc = hg_rframe_write(pe->fd, &s, HG_RF_DATA, big, HG_RFRAME_MAX, 5000);
  if (!rc) rc = hg_rframe_write(pe->fd, &s, HG_RF_DATA, NULL, 0, 5000);
  if (!rc) rc = hg_rframe_write(pe->fd, &s, HG_RF_DATA, "tail", 4, 5000);
  hg_repl_end e = {.raw_bytes = 99, .zstd_bytes = HG_RFRAME_MAX + 4, .chunks = 3};
  hg_buf_reset(&m);
  if (!rc) rc = hg_repl_end_encode(&e, &m);
  if (!rc) rc = hg_rframe_write(pe->fd, &s, HG_RF_END, m.data, m.len, 5000);
  if (!rc) rc = hg_rframe_read(pe->fd, &s, buf, sizeof buf, &t, &pl, &len, 5000);
  if (!rc && (t != HG_RF_ACK || len != 3 || memcmp(pl, "ack", 3))) rc = -EPROTO;
  pe->rc = rc;
  hg_buf_free(&m);
  free(o);
  free(big);
  return NULL;
}

static void socket_exchange_round_trips(void **state) {
  int sv[2];
  assert_int_equal(socketpair(AF_UNIX, SOCK_STREAM, 0, sv), 0);
  hg_rframe_keys ki = keys_of(KB "," KA, "prod"), kr = keys_of(KA "," KB, "prod");
  peer pe = {.fd = sv[0], .keys = &ki, .rc = 1};
  pthread_t th;
  assert_int_equal(pthread_create(&th, NULL, initiator_main, &pe), 0);
  hg_rframe_session s;
  assert_int_equal(hg_rframe_session_responder(&s, &kr), 0);
  uint8_t *buf = malloc(FRAME_CAP), *big = pattern(HG_RFRAME_MAX);
  hg_rframe_type t;
  const uint8_t *pl;
  size_t len;
  static hg_repl_offer o;
  assert_int_equal(hg_rframe_read(sv[1], &s, buf, FRAME_CAP, &t, &pl, &len, 5000), 0);
  assert_int_equal(t, HG_RF_OFFER);
  assert_int_equal(s.key, 1);
  assert_int_equal(hg_repl_offer_decode(pl, len, &o), 0);
  hg_rframe_session_nonce(&s, o.nonce);
  hg_repl_reply r;
  fill_reply(&r, HG_REPL_SEND);
  memcpy(r.challenge, s.challenge, HG_RFRAME_NONCE);
  hg_buf m;
  hg_buf_init(&m, 1 << 20);
  assert_int_equal(hg_repl_reply_encode(&r, &m), 0);
  assert_int_equal(hg_rframe_write(sv[1], &s, HG_RF_REPLY, m.data, m.len, 5000), 0);
  assert_int_equal(hg_rframe_read(sv[1], &s, buf, FRAME_CAP, &t, &pl, &len, 5000), 0);
  assert_int_equal(t, HG_RF_DATA);
  assert_int_equal(len, HG_RFRAME_MAX);
  assert_memory_equal(pl, big, HG_RFRAME_MAX);
  assert_int_equal(hg_rframe_read(sv[1], &s, buf, FRAME_CAP, &t, &pl, &len, 5000), 0);
  assert_int_equal(len, 0);
  assert_int_equal(hg_rframe_read(sv[1], &s, buf, FRAME_CAP, &t, &pl, &len, 5000), 0);
  assert_int_equal(len, 4);
  assert_memory_equal(pl, "tail", 4);
  assert_int_equal(hg_rframe_read(sv[1], &s, buf, FRAME_CAP, &t, &pl, &len, 5000), 0);
  assert_int_equal(t, HG_RF_END);
  hg_repl_end e;
  assert_int_equal(hg_repl_end_decode(pl, len, &e), 0);
  assert_int_equal(e.chunks, 3);
  assert_int_equal(e.zstd_bytes, HG_RFRAME_MAX + 4);
  assert_int_equal(hg_rframe_write(sv[1], &s, HG_RF_ACK, "ack", 3, 5000), 0);
  pthread_join(th, NULL);
  assert_int_equal(pe.rc, 0);
  /* the peer is gone: EOF before a frame */
  close(sv[0]);
  assert_int_equal(hg_rframe_read(sv[1], &s, buf, FRAME_CAP, &t, &pl, &len, 1000),
                   -ECONNRESET);
  close(sv[1]);
  hg_buf_free(&m);
  free(buf);
  free(big);
}

static void socket_errors(void **state) {
  hg_rframe_keys ka = keys_of(KA, "prod"), kb = keys_of(KB, "prod");
  hg_rframe_session i, r;
  uint8_t *buf = calloc(1, FRAME_CAP);
  hg_rframe_type t;
  const uint8_t *pl;
  size_t len;
  hg_buf a;
  hg_buf_init(&a, 4 << 20);
  int sv[2];

  /* EOF mid-frame */
  assert_int_equal(socketpair(AF_UNIX, SOCK_STREAM, 0, sv), 0);
  assert_int_equal(hg_rframe_session_initiator(&i, &ka), 0);
  assert_int_equal(hg_rframe_session_responder(&r, &ka), 0);
  frame(&i, HG_RF_OFFER, "0123456789", 10, &a);
  assert_int_equal(write(sv[0], a.data, 12), 12);
  close(sv[0]);
  assert_int_equal(hg_rframe_read(sv[1], &r, buf, FRAME_CAP, &t, &pl, &len, 1000),
                   -ECONNRESET);
  assert_int_equal(r.seq_in, 0);
  close(sv[1]);

  /* nothing arrives: -ETIMEDOUT after about the timeout */
  assert_int_equal(socketpair(AF_UNIX, SOCK_STREAM, 0, sv), 0);
  int64_t t0 = hg_now_ms();
  assert_int_equal(hg_rframe_read(sv[1], &r, buf, FRAME_CAP, &t, &pl, &len, 100),
                   -ETIMEDOUT);
  int64_t took = hg_now_ms() - t0;
  assert_true(took >= 95); /* not before the timeout (and it returned) */
  /* half a frame, then silence: the deadline covers the whole frame */
  assert_int_equal(write(sv[0], a.data, 12), 12);
  assert_int_equal(hg_rframe_read(sv[1], &r, buf, FRAME_CAP, &t, &pl, &len, 100),
                   -ETIMEDOUT);
  close(sv[0]);
  close(sv[1]);

  /* a header claiming too much: -EPROTO without waiting for the body */
  assert_int_equal(socketpair(AF_UNIX, SOCK_STREAM, 0, sv), 0);
  uint8_t hdr[HG_RFRAME_HDR] = {0x7f, 0xff, 0xff, 0xff, HG_RF_DATA};
  assert_int_equal(write(sv[0], hdr, sizeof hdr), (ssize_t)sizeof hdr);
  assert_int_equal(hg_rframe_read(sv[1], &r, buf, FRAME_CAP, &t, &pl, &len, 5000),
                   -EPROTO);
  close(sv[0]);
  close(sv[1]);

  /* a frame bigger than the caller's buffer */
  assert_int_equal(socketpair(AF_UNIX, SOCK_STREAM, 0, sv), 0);
  assert_int_equal(hg_rframe_session_responder(&r, &ka), 0);
  assert_int_equal(hg_rframe_write(sv[0], &i, HG_RF_DATA, buf, 200, 1000), 0);
  assert_int_equal(hg_rframe_read(sv[1], &r, buf, 100, &t, &pl, &len, 1000), -ENOBUFS);
  close(sv[0]);
  close(sv[1]);

  /* the wrong key over a socket */
  assert_int_equal(socketpair(AF_UNIX, SOCK_STREAM, 0, sv), 0);
  assert_int_equal(hg_rframe_session_initiator(&i, &ka), 0);
  assert_int_equal(hg_rframe_session_responder(&r, &kb), 0);
  assert_int_equal(hg_rframe_write(sv[0], &i, HG_RF_OFFER, "hi", 2, 1000), 0);
  assert_int_equal(hg_rframe_read(sv[1], &r, buf, FRAME_CAP, &t, &pl, &len, 1000),
                   -EBADMSG);
  assert_int_equal(r.key, -1);
  close(sv[0]);
  close(sv[1]);

  /* a peer that never reads: the write times out; one that left: -EPIPE,
   * and no SIGPIPE kills us */
  assert_int_equal(socketpair(AF_UNIX, SOCK_STREAM, 0, sv), 0);
  int small = 4096;
  setsockopt(sv[0], SOL_SOCKET, SO_SNDBUF, &small, sizeof small);
  t0 = hg_now_ms();
  static uint8_t big[HG_RFRAME_MAX];
  assert_int_equal(hg_rframe_write(sv[0], &i, HG_RF_DATA, big, sizeof big, 100),
                   -ETIMEDOUT);
  took = hg_now_ms() - t0;
  assert_true(took >= 95); /* not before the timeout (and it returned) */
  close(sv[1]);
  assert_int_equal(hg_rframe_write(sv[0], &i, HG_RF_DATA, "x", 1, 100), -EPIPE);
  close(sv[0]);

  /* two frames in one write: each read takes exactly its own */
  assert_int_equal(socketpair(AF_UNIX, SOCK_STREAM, 0, sv), 0);
  assert_int_equal(hg_rframe_session_initiator(&i, &ka), 0);
  assert_int_equal(hg_rframe_session_responder(&r, &ka), 0);
  hg_rframe_session_challenge(&i, r.challenge); /* as if a REPLY had carried it */
  frame(&i, HG_RF_LIST, "first", 5, &a);
  assert_int_equal(hg_rframe_encode(&i, HG_RF_DATA, "second", 6, &a), 0);
  assert_int_equal(write(sv[0], a.data, a.len), (ssize_t)a.len);
  assert_int_equal(hg_rframe_read(sv[1], &r, buf, FRAME_CAP, &t, &pl, &len, 1000), 0);
  assert_int_equal(t, HG_RF_LIST);
  assert_memory_equal(pl, "first", 5);
  hg_rframe_session_nonce(&r, i.nonce);
  assert_int_equal(hg_rframe_read(sv[1], &r, buf, FRAME_CAP, &t, &pl, &len, 1000), 0);
  assert_int_equal(t, HG_RF_DATA);
  assert_memory_equal(pl, "second", 6);
  close(sv[0]);
  close(sv[1]);
  hg_buf_free(&a);
  free(buf);
}

static void on_signal(int sig) {
  (void)sig;
}

typedef struct pest {
  pthread_t target;
  int fd;
  const hg_rframe_keys *keys;
} pest;

/* Signals the reader every 2 ms for 150 ms, then writes one frame in
 * three parts, signalling between them. */
static void *pest_main(void *arg) {
  pest *p = arg;
  struct timespec ts = {0, 2 * 1000 * 1000};
  for (int k = 0; k < 75; k++) {
    pthread_kill(p->target, SIGUSR1);
    nanosleep(&ts, NULL);
  }
  hg_rframe_session s;
  hg_buf a;
  hg_buf_init(&a, 1 << 20);
  if (hg_rframe_session_initiator(&s, p->keys) == 0 &&
      hg_rframe_encode(&s, HG_RF_OFFER, "patience", 8, &a) == 0) {
    size_t parts[] = {3, 20, a.len - 23};
    size_t off = 0;
    for (int k = 0; k < 3; k++) {
      if (write(p->fd, a.data + off, parts[k]) != (ssize_t)parts[k]) break;
      off += parts[k];
      for (int j = 0; j < 10; j++) {
        pthread_kill(p->target, SIGUSR1);
        nanosleep(&ts, NULL);
      }
    }
  }
  hg_buf_free(&a);
  return NULL;
}

static void read_survives_signals_and_split_writes(void **state) {
  struct sigaction sa, old;
  memset(&sa, 0, sizeof sa);
  sa.sa_handler = on_signal; /* no SA_RESTART: poll and recv see EINTR */
  sigemptyset(&sa.sa_mask);
  assert_int_equal(sigaction(SIGUSR1, &sa, &old), 0);
  int sv[2];
  assert_int_equal(socketpair(AF_UNIX, SOCK_STREAM, 0, sv), 0);
  hg_rframe_keys ka = keys_of(KA, "prod");
  pest p = {.target = pthread_self(), .fd = sv[0], .keys = &ka};
  pthread_t th;
  assert_int_equal(pthread_create(&th, NULL, pest_main, &p), 0);
  hg_rframe_session r;
  assert_int_equal(hg_rframe_session_responder(&r, &ka), 0);
  uint8_t *buf = malloc(FRAME_CAP);
  hg_rframe_type t;
  const uint8_t *pl;
  size_t len;
  int rc = hg_rframe_read(sv[1], &r, buf, FRAME_CAP, &t, &pl, &len, 5000);
  pthread_join(th, NULL);
  sigaction(SIGUSR1, &old, NULL);
  assert_int_equal(rc, 0);
  assert_int_equal(len, 8);
  assert_memory_equal(pl, "patience", 8);
  close(sv[0]);
  close(sv[1]);
  free(buf);
}

/* ---- fuzz seeds ---------------------------------------------------------------- */

/* What the fuzz target's responder (keys: a decoy, then bytes 0..31;
 * cluster "fuzz"; challenge all 0xc5) accepts: an initiator's frames. */
static void seed_exchange(bool list, hg_buf *out) {
  char ilist[200];
  fuzz_key_list(ilist, false);
  hg_rframe_keys k = keys_of(ilist, FUZZ_CLUSTER);
  hg_rframe_session s;
  assert_int_equal(hg_rframe_session_initiator(&s, &k), 0);
  memset(s.nonce, 0x5a, HG_RFRAME_NONCE);
  static hg_repl_offer o;
  hg_buf m;
  hg_buf_init(&m, 1 << 20);
  if (list)
    fill_list(&o);
  else
    fill_offer(&o, 2);
  memcpy(o.nonce, s.nonce, HG_RFRAME_NONCE);
  assert_int_equal(hg_repl_offer_encode(&o, &m), 0);
  assert_int_equal(
      hg_rframe_encode(&s, list ? HG_RF_LIST : HG_RF_OFFER, m.data, m.len, out), 0);
  if (!list) {
    uint8_t ch[HG_RFRAME_NONCE];
    memset(ch, FUZZ_CHALLENGE, sizeof ch);
    hg_rframe_session_challenge(&s, ch);
    assert_int_equal(hg_rframe_encode(&s, HG_RF_DATA, "\x28\xb5\x2f\xfd zstd", 9, out), 0);
    assert_int_equal(hg_rframe_encode(&s, HG_RF_DATA, NULL, 0, out), 0);
    hg_repl_end e = {.raw_bytes = 100, .zstd_bytes = 9, .chunks = 2};
    hg_buf_reset(&m);
    assert_int_equal(hg_repl_end_encode(&e, &m), 0);
    assert_int_equal(hg_rframe_encode(&s, HG_RF_END, m.data, m.len, out), 0);
  }
  hg_buf_free(&m);
}

/* The fuzz target's responder takes the seed exchange: its frames reach
 * past the MAC into the decoders. */
static void fuzz_setup_accepts_seed_exchange(void **state) {
  char rlist[200];
  fuzz_key_list(rlist, true);
  hg_rframe_keys k = keys_of(rlist, FUZZ_CLUSTER);
  for (int list = 0; list < 2; list++) {
    hg_buf out;
    hg_buf_init(&out, 1 << 20);
    seed_exchange(list, &out);
    hg_rframe_session s;
    assert_int_equal(hg_rframe_session_responder(&s, &k), 0);
    memset(s.challenge, FUZZ_CHALLENGE, HG_RFRAME_NONCE);
    const uint8_t *p = (const uint8_t *)out.data;
    size_t left = out.len, used, len;
    hg_rframe_type t;
    const uint8_t *pl;
    unsigned frames = 0;
    while (left) {
      assert_int_equal(hg_rframe_parse(&s, p, left, &t, &pl, &len, &used), 0);
      if (frames++ == 0) {
        static hg_repl_offer o;
        assert_int_equal(hg_repl_offer_decode(pl, len, &o), 0);
        hg_rframe_session_nonce(&s, o.nonce);
      }
      p += used;
      left -= used;
    }
    assert_int_equal(s.key, 1);
    assert_int_equal(frames, list ? 1 : 4);
    hg_buf_free(&out);
  }
}

/* Not a test: what `HG_REPL_SEEDS_DIR=dir ./test_frame` does instead of testing. */
static void write_fuzz_seeds(const char *dir) {
  hg_buf f;
  hg_buf_init(&f, 1 << 20);
  seed_exchange(false, &f);
  write_seed(dir, "frames_offer", 0, f.data, f.len);
  hg_buf_reset(&f);
  seed_exchange(true, &f);
  write_seed(dir, "frames_list", 0, f.data, f.len);
  hg_buf_free(&f);
  static hg_repl_offer o;
  static hg_repl_holdings h;
  hg_repl_reply r;
  hg_repl_end e = {.raw_bytes = 1 << 20, .zstd_bytes = 4096, .chunks = 1};
  hg_repl_error x;
  hg_buf b;
  hg_buf_init(&b, 1 << 20);
  fill_offer(&o, 3);
  assert_int_equal(hg_repl_offer_encode(&o, &b), 0);
  write_seed(dir, "offer", 1, b.data, b.len);
  hg_buf_reset(&b);
  fill_reply(&r, HG_REPL_REFUSE);
  assert_int_equal(hg_repl_reply_encode(&r, &b), 0);
  write_seed(dir, "reply", 2, b.data, b.len);
  hg_buf_reset(&b);
  assert_int_equal(hg_repl_end_encode(&e, &b), 0);
  write_seed(dir, "end", 3, b.data, b.len);
  hg_buf_reset(&b);
  fill_holdings(&h, 3);
  assert_int_equal(hg_repl_holdings_encode(&h, &b), 0);
  write_seed(dir, "holdings", 4, b.data, b.len);
  hg_buf_reset(&b);
  fill_error(&x);
  assert_int_equal(hg_repl_error_encode(&x, &b), 0);
  write_seed(dir, "error", 5, b.data, b.len);
  hg_buf_free(&b);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(offer_round_trips),
      cmocka_unit_test(reply_end_error_round_trip),
      cmocka_unit_test(holdings_round_trip),
      cmocka_unit_test(decoders_refuse_wrong_types_missing_and_cut),
      cmocka_unit_test(decoders_refuse_garbage),
      cmocka_unit_test(decoders_refuse_bad_strings_ids_uuids_names),
      cmocka_unit_test(decoders_refuse_over_count_and_inconsistent),
      cmocka_unit_test(encoders_refuse_what_decoders_would),
      cmocka_unit_test(name_ok_accepts_template_dirs_only),
      cmocka_unit_test(keys_derive_per_cluster_and_refuse_bad_lists),
      cmocka_unit_test(exchange_round_trips_in_memory),
      cmocka_unit_test(wrong_key_or_cluster_is_ebadmsg),
      cmocka_unit_test(flipped_bit_anywhere_is_refused),
      cmocka_unit_test(replay_reorder_drop_and_reflection_are_ebadmsg),
      cmocka_unit_test(key_rotation_works_both_ways),
      cmocka_unit_test(over_length_unknown_type_and_truncation),
      cmocka_unit_test(socket_exchange_round_trips),
      cmocka_unit_test(socket_errors),
      cmocka_unit_test(read_survives_signals_and_split_writes),
      cmocka_unit_test(fuzz_setup_accepts_seed_exchange),
  };
  const char *seeds = getenv("HG_REPL_SEEDS_DIR");
  if (seeds) {
    write_fuzz_seeds(seeds);
    return 0;
  }
  return cmocka_run_group_tests(tests, NULL, NULL);
}
