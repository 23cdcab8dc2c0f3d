/* cluster/wire and cluster/meta: round trips of every message, and every
 * way a peer's bytes can be wrong (truncated, mistyped, too long, NUL in a
 * string, too many items, garbage, lying container counts). Under the ASan
 * build, LeakSanitizer checks that no failed decode leaks.
 *
 * HG_CLUSTER_SEEDS_DIR=dir ./test_wire also writes the fuzz seeds
 * (tests/fuzz/seeds/cluster_wire): a selector byte, then the input. */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>
#include <msgpack.h>

#include "cluster/meta.h"
#include "cluster/seal.h"
#include "cluster/wire.h"
#include "node/core/mp.h"
#include "tests/unit/seed_util.h"

/* ---- building messages ------------------------------------------------- */

static uint64_t rng = 0x9e3779b97f4a7c15ull;
static uint64_t rnd(void) {
  rng ^= rng << 13;
  rng ^= rng >> 7;
  rng ^= rng << 17;
  return rng;
}

static void fill_str(char *s, size_t len, char base) {
  for (size_t i = 0; i < len; i++) s[i] = (char)(base + (char)(i % 26));
  s[len] = '\0';
}

static hg_wire_member member(hg_member_state st, const char *id, uint64_t inc,
                             size_t meta_len) {
  hg_wire_member u;
  memset(&u, 0, sizeof u);
  u.state = st;
  snprintf(u.id, sizeof u.id, "%s", id);
  u.incarnation = inc;
  if (st == HG_MEMBER_ALIVE)
    snprintf(u.addr, sizeof u.addr, "10.0.0.%u:7946", (unsigned)(inc % 250));
  if (st == HG_MEMBER_SUSPECT || st == HG_MEMBER_DEAD)
    snprintf(u.from, sizeof u.from, "node-x");
  for (size_t i = 0; i < meta_len; i++) u.meta[i] = (uint8_t)(i * 7);
  u.meta_len = meta_len;
  return u;
}

static hg_wire_user user(const char *key, size_t len) {
  hg_wire_user u;
  memset(&u, 0, sizeof u);
  snprintf(u.key, sizeof u.key, "%s", key);
  for (size_t i = 0; i < len; i++) u.data[i] = (uint8_t)(255 - i);
  u.len = len;
  return u;
}

static void base_msg(hg_wire_msg *m, hg_wire_type t) {
  memset(m, 0, sizeof *m);
  m->type = t;
  m->boot = 0x0123456789abcdefull;
  m->pkt_seq = 42;
  m->sent_ms = 1700000000123;
  strcpy(m->from, "node-a");
  strcpy(m->from_addr, "192.168.1.1:7946");
  m->seq = 4000000000u;
  strcpy(m->target, "node-b");
  strcpy(m->target_addr, "192.168.1.2:7946");
  m->join = true;
}

static void full_msg(hg_wire_msg *m, hg_wire_type t) {
  base_msg(m, t);
  hg_wire_member a = member(HG_MEMBER_ALIVE, "node-c", 1, 200);
  hg_wire_member s = member(HG_MEMBER_SUSPECT, "node-d", 0, 0);
  hg_wire_member d = member(HG_MEMBER_DEAD, "node-e", UINT64_MAX, 0);
  hg_wire_member l = member(HG_MEMBER_LEFT, "node-f", 300, HG_WIRE_META_MAX);
  hg_wire_user u1 = user("sb-1", 100), u2 = user("", 0),
               u3 = user("sb-3", HG_WIRE_USER_MAX);
  assert_int_equal(hg_wire_add_member(m, &a), 0);
  assert_int_equal(hg_wire_add_member(m, &s), 0);
  assert_int_equal(hg_wire_add_member(m, &d), 0);
  assert_int_equal(hg_wire_add_member(m, &l), 0);
  assert_int_equal(hg_wire_add_user(m, &u1), 0);
  assert_int_equal(hg_wire_add_user(m, &u2), 0);
  assert_int_equal(hg_wire_add_user(m, &u3), 0);
}

static void encode(const hg_wire_msg *m, hg_buf *b) {
  hg_buf_init(b, HG_WIRE_TCP_MAX);
  assert_int_equal(hg_wire_encode(m, b), 0);
}

static void assert_member_equal(const hg_wire_member *a, const hg_wire_member *b) {
  assert_int_equal(a->state, b->state);
  assert_string_equal(a->id, b->id);
  assert_true(a->incarnation == b->incarnation);
  assert_string_equal(a->addr, b->addr);
  assert_string_equal(a->from, b->from);
  assert_int_equal(a->meta_len, b->meta_len);
  if (a->meta_len) assert_memory_equal(a->meta, b->meta, a->meta_len);
}

static void assert_user_equal(const hg_wire_user *a, const hg_wire_user *b) {
  assert_string_equal(a->key, b->key);
  assert_int_equal(a->len, b->len);
  if (a->len) assert_memory_equal(a->data, b->data, a->len);
}

/* What survives the wire: fields the type does not carry come back zero. */
static void assert_msg_equal(const hg_wire_msg *a, const hg_wire_msg *b) {
  assert_int_equal(a->type, b->type);
  assert_true(a->boot == b->boot);
  assert_true(a->pkt_seq == b->pkt_seq);
  assert_true(a->sent_ms == b->sent_ms);
  assert_string_equal(a->from, b->from);
  assert_string_equal(a->from_addr, b->from_addr);
  bool seq = a->type >= HG_WIRE_PING && a->type <= HG_WIRE_NACK;
  bool target = a->type == HG_WIRE_PING || a->type == HG_WIRE_PING_REQ;
  assert_int_equal(b->seq, seq ? a->seq : 0);
  assert_string_equal(b->target, target ? a->target : "");
  assert_string_equal(b->target_addr, a->type == HG_WIRE_PING_REQ ? a->target_addr : "");
  assert_int_equal(b->join, a->type == HG_WIRE_PUSH_PULL ? a->join : false);
  assert_int_equal(a->nmembers, b->nmembers);
  for (size_t i = 0; i < a->nmembers; i++)
    assert_member_equal(&a->members[i], &b->members[i]);
  assert_int_equal(a->nusers, b->nusers);
  for (size_t i = 0; i < a->nusers; i++) assert_user_equal(&a->users[i], &b->users[i]);
}

/* ---- re-packing a valid encoding with one field changed ---------------- */

typedef struct edit {
  const char *path[4];       /* map keys / array indexes down to the field */
  const msgpack_object *val; /* replacement; NULL deletes the key */
} edit;

static bool key_is(const msgpack_object *k, const char *s) {
  return k->type == MSGPACK_OBJECT_STR && k->via.str.size == strlen(s) &&
         memcmp(k->via.str.ptr, s, k->via.str.size) == 0;
}

static void pack_edited(msgpack_packer *pk, const msgpack_object *o,
                        const char *const *path, const msgpack_object *val) {
  if (!path[0]) {
    msgpack_pack_object(pk, *o);
    return;
  }
  if (o->type == MSGPACK_OBJECT_ARRAY) {
    size_t idx = (size_t)atoi(path[0]);
    msgpack_pack_array(pk, o->via.array.size);
    for (uint32_t i = 0; i < o->via.array.size; i++) {
      if (i == idx && path[1])
        pack_edited(pk, &o->via.array.ptr[i], path + 1, val);
      else if (i == idx)
        msgpack_pack_object(pk, *val);
      else
        msgpack_pack_object(pk, o->via.array.ptr[i]);
    }
    return;
  }
  assert_int_equal(o->type, MSGPACK_OBJECT_MAP);
  uint32_t n = o->via.map.size;
  bool found = false;
  for (uint32_t i = 0; i < o->via.map.size; i++)
    found |= key_is(&o->via.map.ptr[i].key, path[0]);
  assert_true(found);
  msgpack_pack_map(pk, (!path[1] && !val) ? n - 1 : n);
  for (uint32_t i = 0; i < n; i++) {
    const msgpack_object_kv *kv = &o->via.map.ptr[i];
    if (!key_is(&kv->key, path[0])) {
      msgpack_pack_object(pk, kv->key);
      msgpack_pack_object(pk, kv->val);
    } else if (path[1]) {
      msgpack_pack_object(pk, kv->key);
      pack_edited(pk, &kv->val, path + 1, val);
    } else if (val) {
      msgpack_pack_object(pk, kv->key);
      msgpack_pack_object(pk, *val);
    }
  }
}

/* sb receives the encoding of valid with e applied. */
static void apply_edit(const void *valid, size_t len, const edit *e,
                       msgpack_sbuffer *sb) {
  msgpack_unpacked u;
  msgpack_unpacked_init(&u);
  size_t off = 0;
  assert_int_equal(msgpack_unpack_next(&u, valid, len, &off), MSGPACK_UNPACK_SUCCESS);
  msgpack_sbuffer_init(sb);
  msgpack_packer pk;
  msgpack_packer_init(&pk, sb, msgpack_sbuffer_write);
  pack_edited(&pk, &u.data, e->path, e->val);
  msgpack_unpacked_destroy(&u);
}

static msgpack_object o_str(const char *s, size_t len) {
  msgpack_object o = {.type = MSGPACK_OBJECT_STR};
  o.via.str.ptr = s;
  o.via.str.size = (uint32_t)len;
  return o;
}
static msgpack_object o_bin(const void *p, size_t len) {
  msgpack_object o = {.type = MSGPACK_OBJECT_BIN};
  o.via.bin.ptr = p;
  o.via.bin.size = (uint32_t)len;
  return o;
}
static msgpack_object o_u64(uint64_t v) {
  msgpack_object o = {.type = MSGPACK_OBJECT_POSITIVE_INTEGER};
  o.via.u64 = v;
  return o;
}
static msgpack_object o_neg(int64_t v) {
  msgpack_object o = {.type = MSGPACK_OBJECT_NEGATIVE_INTEGER};
  o.via.i64 = v;
  return o;
}
static msgpack_object o_bool(bool v) {
  msgpack_object o = {.type = MSGPACK_OBJECT_BOOLEAN};
  o.via.boolean = v;
  return o;
}
static msgpack_object o_nil(void) {
  return (msgpack_object){.type = MSGPACK_OBJECT_NIL};
}
static msgpack_object o_arr(void) {
  return (msgpack_object){.type = MSGPACK_OBJECT_ARRAY};
}
static msgpack_object o_map(void) {
  return (msgpack_object){.type = MSGPACK_OBJECT_MAP};
}

static int decode_edited(const hg_buf *valid, const edit *e) {
  msgpack_sbuffer sb;
  apply_edit(valid->data, valid->len, e, &sb);
  hg_wire_msg d;
  memset(&d, 0x5a, sizeof d);
  int rc = hg_wire_decode(sb.data, sb.size, HG_WIRE_UDP_ITEMS, &d);
  if (rc == 0) hg_wire_msg_free(&d);
  msgpack_sbuffer_destroy(&sb);
  return rc;
}

/* ---- wire: round trips --------------------------------------------------- */

static void wire_round_trips_every_type(void **state) {
  for (int t = HG_WIRE_GOSSIP; t <= HG_WIRE_PUSH_PULL; t++) {
    hg_wire_msg m, d;
    full_msg(&m, (hg_wire_type)t);
    hg_buf b;
    encode(&m, &b);
    assert_int_equal(hg_wire_decode(b.data, b.len, HG_WIRE_UDP_ITEMS, &d), 0);
    assert_msg_equal(&m, &d);
    hg_wire_msg_free(&d);
    assert_null(d.members);
    assert_int_equal(d.nmembers, 0);
    hg_wire_msg_free(&m);
    hg_buf_free(&b);

    /* and without items, and with negative / extreme replay fields */
    base_msg(&m, (hg_wire_type)t);
    m.sent_ms = INT64_MIN;
    m.boot = UINT64_MAX;
    m.join = false;
    m.from_addr[0] = '\0';
    encode(&m, &b);
    assert_int_equal(hg_wire_decode(b.data, b.len, 0, &d), 0);
    assert_msg_equal(&m, &d);
    assert_null(d.members);
    assert_null(d.users);
    hg_wire_msg_free(&d);
    hg_buf_free(&b);
  }
}

static void wire_round_trips_many_items(void **state) {
  /* past 15 items: the array16 header; and a decoded msg can still grow */
  hg_wire_msg m, d;
  base_msg(&m, HG_WIRE_PUSH_PULL);
  for (int i = 0; i < 700; i++) {
    char id[32];
    snprintf(id, sizeof id, "node-%d", i);
    hg_wire_member u =
        member((hg_member_state)(i % 4), id, (uint64_t)i * 1000003, (size_t)(i % 3));
    assert_int_equal(hg_wire_add_member(&m, &u), 0);
  }
  for (int i = 0; i < 17; i++) {
    hg_wire_user u = user("k", (size_t)i);
    assert_int_equal(hg_wire_add_user(&m, &u), 0);
  }
  hg_buf b;
  encode(&m, &b);
  assert_int_equal(hg_wire_decode(b.data, b.len, 717, &d), 0);
  assert_msg_equal(&m, &d);
  for (int i = 0; i < 300; i++) {
    hg_wire_member u = member(HG_MEMBER_ALIVE, "late", (uint64_t)i, 1);
    assert_int_equal(hg_wire_add_member(&d, &u), 0);
    hg_wire_user us = user("late", 1);
    assert_int_equal(hg_wire_add_user(&d, &us), 0);
  }
  assert_int_equal(d.nmembers, 1000);
  assert_string_equal(d.members[999].id, "late");
  assert_string_equal(d.members[699].id, "node-699");
  assert_int_equal(d.nusers, 317);
  hg_wire_msg_free(&d);
  assert_int_equal(hg_wire_decode(b.data, b.len, 716, &d), -EPROTO);
  hg_wire_msg_free(&d);
  hg_wire_msg_free(&m);
  hg_buf_free(&b);
}

static void wire_unknown_keys_are_ignored(void **state) {
  msgpack_sbuffer sb;
  msgpack_sbuffer_init(&sb);
  msgpack_packer pk;
  msgpack_packer_init(&pk, &sb, msgpack_sbuffer_write);
  msgpack_pack_map(&pk, 8);
  hg_mp_pack_kv_u64(&pk, "t", HG_WIRE_ACK);
  hg_mp_pack_kv_u64(&pk, "zz", 1); /* from a newer node */
  hg_mp_pack_kv_u64(&pk, "b", 1);
  hg_mp_pack_kv_u64(&pk, "p", 2);
  hg_mp_pack_kv_i64(&pk, "ms", -3);
  hg_mp_pack_kv_str(&pk, "f", "n1");
  hg_mp_pack_kv_str(&pk, "fa", "");
  hg_mp_pack_kv_u64(&pk, "s", 7);
  hg_wire_msg d;
  assert_int_equal(hg_wire_decode(sb.data, sb.size, 0, &d), 0);
  assert_int_equal(d.type, HG_WIRE_ACK);
  assert_int_equal(d.seq, 7);
  assert_true(d.sent_ms == -3);
  assert_string_equal(d.from, "n1");
  hg_wire_msg_free(&d);
  msgpack_sbuffer_destroy(&sb);
}

/* ---- wire: size bounds -------------------------------------------------- */

static void random_member(hg_wire_member *u) {
  memset(u, 0, sizeof *u);
  u->state = (hg_member_state)(rnd() % 4);
  fill_str(u->id, 1 + rnd() % (HG_NODE_ID_MAX - 1), 'a');
  u->incarnation = rnd() >> (rnd() % 64);
  if (rnd() % 2) fill_str(u->addr, rnd() % HG_ADDR_MAX, '0');
  if (rnd() % 2) fill_str(u->from, rnd() % HG_NODE_ID_MAX, 'A');
  size_t lens[] = {0, 1, 255, 256, 300, HG_WIRE_META_MAX};
  u->meta_len = rnd() % 2 ? lens[rnd() % 6] : rnd() % (HG_WIRE_META_MAX + 1);
}

static void random_user(hg_wire_user *u) {
  memset(u, 0, sizeof *u);
  fill_str(u->key, rnd() % HG_NODE_ID_MAX, 'k');
  u->len = rnd() % (HG_WIRE_USER_MAX + 1);
}

static void wire_size_bounds_hold(void **state) {
  for (int iter = 0; iter < 400; iter++) {
    hg_wire_msg m;
    base_msg(&m, (hg_wire_type)(rnd() % 6));
    /* sized before the transport fills the replay fields */
    m.boot = m.pkt_seq = 0;
    m.sent_ms = 0;
    m.seq = (uint32_t)rnd();
    fill_str(m.from, 1 + rnd() % (HG_NODE_ID_MAX - 1), 'f');
    fill_str(m.from_addr, rnd() % HG_ADDR_MAX, 'g');
    fill_str(m.target, rnd() % HG_NODE_ID_MAX, 't');
    fill_str(m.target_addr, rnd() % HG_ADDR_MAX, 'u');
    size_t bound = hg_wire_header_size(&m);
    size_t n = rnd() % 40;
    for (size_t i = 0; i < n; i++) {
      if (rnd() % 3) {
        hg_wire_member u;
        random_member(&u);
        bound += hg_wire_member_size(&u);
        assert_int_equal(hg_wire_add_member(&m, &u), 0);
      } else {
        hg_wire_user u;
        random_user(&u);
        bound += hg_wire_user_size(&u);
        assert_int_equal(hg_wire_add_user(&m, &u), 0);
      }
    }
    m.boot = UINT64_MAX;
    m.pkt_seq = UINT64_MAX - 1;
    m.sent_ms = iter % 2 ? INT64_MIN : INT64_MAX;
    hg_buf b;
    encode(&m, &b);
    assert_true(b.len <= bound);
    /* a bound, but not a wild one: packing to the MTU depends on it */
    assert_true(bound - b.len <= 40 + 12 * (m.nmembers + m.nusers));
    hg_wire_msg_free(&m);
    hg_buf_free(&b);
  }
}

/* What the transport does: fill a datagram by the bounds, and it fits. */
static void wire_packs_a_datagram_by_the_bounds(void **state) {
  hg_wire_msg m;
  base_msg(&m, HG_WIRE_PING);
  size_t room = HG_WIRE_UDP_MAX - HG_SEAL_OVERHEAD, used = hg_wire_header_size(&m);
  for (int i = 0;; i++) {
    char id[32];
    snprintf(id, sizeof id, "node-%08d", i);
    hg_wire_member u = member(HG_MEMBER_ALIVE, id, (uint64_t)i, 60);
    if (used + hg_wire_member_size(&u) > room) break;
    used += hg_wire_member_size(&u);
    assert_int_equal(hg_wire_add_member(&m, &u), 0);
  }
  assert_true(m.nmembers >= 8);
  hg_buf b;
  hg_buf_init(&b, room);
  assert_int_equal(hg_wire_encode(&m, &b), 0);
  assert_true(b.len <= room);
  hg_wire_msg_free(&m);
  hg_buf_free(&b);
}

/* ---- wire: encode refuses what would not decode ------------------------ */

static void wire_encode_refuses_invalid(void **state) {
  hg_wire_msg m;
  hg_buf b;
  hg_buf_init(&b, HG_WIRE_UDP_MAX);
  base_msg(&m, HG_WIRE_PING);
  m.type = (hg_wire_type)6;
  assert_int_equal(hg_wire_encode(&m, &b), -EINVAL);
  base_msg(&m, HG_WIRE_PING);
  memset(m.from, 'x', sizeof m.from); /* no NUL */
  assert_int_equal(hg_wire_encode(&m, &b), -EINVAL);
  base_msg(&m, HG_WIRE_PING);
  m.from[0] = '\0';
  assert_int_equal(hg_wire_encode(&m, &b), -EINVAL);
  base_msg(&m, HG_WIRE_PING);
  hg_wire_member u = member(HG_MEMBER_ALIVE, "n", 1, 0);
  u.meta_len = HG_WIRE_META_MAX + 1;
  assert_int_equal(hg_wire_add_member(&m, &u), 0);
  assert_int_equal(hg_wire_encode(&m, &b), -EINVAL);
  m.members[0].meta_len = 0;
  m.members[0].state = (hg_member_state)4;
  assert_int_equal(hg_wire_encode(&m, &b), -EINVAL);
  m.members[0].state = HG_MEMBER_DEAD;
  hg_wire_user us = user("k", 1);
  us.len = HG_WIRE_USER_MAX + 1;
  assert_int_equal(hg_wire_add_user(&m, &us), 0);
  assert_int_equal(hg_wire_encode(&m, &b), -EINVAL);
  m.users[0].len = HG_WIRE_USER_MAX;
  assert_int_equal(hg_wire_encode(&m, &b), 0);
  hg_wire_msg_free(&m);
  hg_buf_free(&b);

  /* past the buffer's ceiling: -ENOBUFS and nothing half written */
  full_msg(&m, HG_WIRE_GOSSIP);
  hg_buf_init(&b, HG_WIRE_UDP_MAX);
  assert_int_equal(hg_wire_encode(&m, &b), -ENOBUFS);
  assert_int_equal(b.len, 0);
  hg_wire_msg_free(&m);
  hg_buf_free(&b);
}

/* ---- wire: malformed input --------------------------------------------- */

static void wire_truncated_at_every_length(void **state) {
  hg_wire_msg m, d;
  full_msg(&m, HG_WIRE_PING_REQ);
  hg_buf b;
  encode(&m, &b);
  for (size_t len = 0; len < b.len; len++) {
    /* a copy of exactly len bytes, so ASan sees any read past the end */
    uint8_t *p = malloc(len ? len : 1);
    memcpy(p, b.data, len);
    assert_int_equal(hg_wire_decode(p, len, HG_WIRE_UDP_ITEMS, &d), -EPROTO);
    free(p);
  }
  /* and one byte too many */
  assert_int_equal(hg_buf_append(&b, "\xc0", 1), 0);
  assert_int_equal(hg_wire_decode(b.data, b.len, HG_WIRE_UDP_ITEMS, &d), -EPROTO);
  assert_int_equal(hg_wire_decode(NULL, 0, HG_WIRE_UDP_ITEMS, &d), -EPROTO);
  hg_wire_msg_free(&m);
  hg_buf_free(&b);
}

static void wire_wrong_types(void **state) {
  hg_wire_msg m;
  full_msg(&m, HG_WIRE_PING_REQ);
  hg_buf b;
  encode(&m, &b);
  msgpack_object s = o_str("1", 1), u = o_u64(1), neg = o_neg(-1), nil = o_nil(),
                 t = o_bool(true), bin = o_bin("x", 1), arr = o_arr(), map = o_map();
  const edit bad[] = {
      {{"t"}, &s},
      {{"t"}, &neg},
      {{"t"}, &nil},
      {{"b"}, &s},
      {{"b"}, &neg},
      {{"p"}, &t},
      {{"ms"}, &s},
      {{"f"}, &u},
      {{"f"}, &bin},
      {{"fa"}, &nil},
      {{"s"}, &s},
      {{"s"}, &neg},
      {{"g"}, &u},
      {{"ga"}, &arr},
      {{"m"}, &map},
      {{"m"}, &s},
      {{"u"}, &map},
      {{"m", "0"}, &arr},
      {{"m", "0"}, &s},
      {{"u", "1"}, &u},
      {{"m", "0", "s"}, &s},
      {{"m", "1", "i"}, &u},
      {{"m", "2", "n"}, &neg},
      {{"m", "0", "a"}, &u},
      {{"m", "1", "f"}, &t},
      {{"m", "0", "d"}, &u},
      {{"u", "0", "k"}, &u},
      {{"u", "0", "d"}, &u},
      {{"u", "2", "d"}, &arr},
      /* required keys missing */
      {{"t"}, NULL},
      {{"b"}, NULL},
      {{"p"}, NULL},
      {{"ms"}, NULL},
      {{"f"}, NULL},
      {{"fa"}, NULL},
      {{"s"}, NULL},
      {{"g"}, NULL},
      {{"ga"}, NULL},
      {{"m", "0", "s"}, NULL},
      {{"m", "0", "i"}, NULL},
      {{"m", "0", "n"}, NULL},
      {{"u", "0", "k"}, NULL},
      {{"u", "0", "d"}, NULL},
  };
  for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
    if (decode_edited(&b, &bad[i]) != -EPROTO)
      fail_msg("edit %zu (%s.%s.%s) decoded", i, bad[i].path[0],
               bad[i].path[1] ? bad[i].path[1] : "",
               bad[i].path[1] && bad[i].path[2] ? bad[i].path[2] : "");
  }
  /* optional member fields may be absent; meta may come as str */
  const edit good[] = {{{"m", "0", "a"}, NULL},
                       {{"m", "1", "f"}, NULL},
                       {{"m", "0", "d"}, NULL},
                       {{"m", "0", "d"}, &s}};
  for (size_t i = 0; i < sizeof good / sizeof good[0]; i++)
    assert_int_equal(decode_edited(&b, &good[i]), 0);
  hg_wire_msg_free(&m);
  hg_buf_free(&b);

  /* push-pull needs its join flag, as a bool */
  full_msg(&m, HG_WIRE_PUSH_PULL);
  encode(&m, &b);
  assert_int_equal(decode_edited(&b, &(edit){{"j"}, &u}), -EPROTO);
  assert_int_equal(decode_edited(&b, &(edit){{"j"}, NULL}), -EPROTO);
  hg_wire_msg_free(&m);
  hg_buf_free(&b);

  /* not a map at all */
  hg_wire_msg d;
  assert_int_equal(hg_wire_decode("\x93\x01\x02\x03", 4, 8, &d), -EPROTO);
  assert_int_equal(hg_wire_decode("\x01", 1, 8, &d), -EPROTO);
}

static void wire_unknown_enums_and_ranges(void **state) {
  hg_wire_msg m;
  full_msg(&m, HG_WIRE_PING);
  hg_buf b;
  encode(&m, &b);
  msgpack_object t6 = o_u64(6), st4 = o_u64(4), big = o_u64(UINT32_MAX + 1ull),
                 max32 = o_u64(UINT32_MAX), empty = o_str("", 0);
  assert_int_equal(decode_edited(&b, &(edit){{"t"}, &t6}), -EPROTO);
  assert_int_equal(decode_edited(&b, &(edit){{"m", "1", "s"}, &st4}), -EPROTO);
  assert_int_equal(decode_edited(&b, &(edit){{"s"}, &big}), -EPROTO);
  assert_int_equal(decode_edited(&b, &(edit){{"s"}, &max32}), 0);
  assert_int_equal(decode_edited(&b, &(edit){{"f"}, &empty}), -EPROTO);
  assert_int_equal(decode_edited(&b, &(edit){{"m", "0", "i"}, &empty}), -EPROTO);
  msgpack_object past = o_u64((uint64_t)INT64_MAX + 1);
  assert_int_equal(decode_edited(&b, &(edit){{"ms"}, &past}), -EPROTO);
  hg_wire_msg_free(&m);
  hg_buf_free(&b);
}

static void wire_over_long_strings_and_nul(void **state) {
  hg_wire_msg m;
  full_msg(&m, HG_WIRE_PING_REQ);
  hg_buf b;
  encode(&m, &b);
  char s64[HG_NODE_ID_MAX + 1], s63[HG_NODE_ID_MAX];
  fill_str(s64, HG_NODE_ID_MAX, 'a');
  fill_str(s63, HG_NODE_ID_MAX - 1, 'a');
  static uint8_t big[HG_WIRE_META_MAX + 1];
  msgpack_object l64 = o_str(s64, 64), l63 = o_str(s63, 63), nul = o_str("ab\0cd", 5),
                 meta_big = o_bin(big, HG_WIRE_META_MAX + 1),
                 meta_max = o_bin(big, HG_WIRE_META_MAX),
                 user_big = o_bin(big, HG_WIRE_USER_MAX + 1);
  const char *keys[][3] = {{"f"},           {"fa"},          {"g"},
                           {"ga"},          {"m", "0", "i"}, {"m", "0", "a"},
                           {"m", "1", "f"}, {"u", "0", "k"}};
  for (size_t i = 0; i < sizeof keys / sizeof keys[0]; i++) {
    edit e = {{keys[i][0], keys[i][1], keys[i][2]}, &l64};
    assert_int_equal(decode_edited(&b, &e), -EPROTO);
    e.val = &nul;
    assert_int_equal(decode_edited(&b, &e), -EPROTO);
    e.val = &l63; /* the longest that fits */
    assert_int_equal(decode_edited(&b, &e), 0);
  }
  assert_int_equal(decode_edited(&b, &(edit){{"m", "0", "d"}, &meta_big}), -EPROTO);
  assert_int_equal(decode_edited(&b, &(edit){{"m", "0", "d"}, &meta_max}), 0);
  assert_int_equal(decode_edited(&b, &(edit){{"u", "0", "d"}, &user_big}), -EPROTO);
  hg_wire_msg_free(&m);
  hg_buf_free(&b);
}

static void wire_counts_above_max_items(void **state) {
  hg_wire_msg m, d;
  full_msg(&m, HG_WIRE_GOSSIP); /* 4 members + 3 users */
  hg_buf b;
  encode(&m, &b);
  assert_int_equal(hg_wire_decode(b.data, b.len, 7, &d), 0);
  hg_wire_msg_free(&d);
  for (size_t max = 0; max < 7; max++)
    assert_int_equal(hg_wire_decode(b.data, b.len, max, &d), -EPROTO);
  hg_wire_msg_free(&m);
  hg_buf_free(&b);

  /* the objects msgpack-c builds are bounded by max_items too: one member
   * padded with 100 unknown keys is too much for max_items 1 */
  msgpack_sbuffer sb;
  msgpack_sbuffer_init(&sb);
  msgpack_packer pk;
  msgpack_packer_init(&pk, &sb, msgpack_sbuffer_write);
  msgpack_pack_map(&pk, 7);
  hg_mp_pack_kv_u64(&pk, "t", HG_WIRE_GOSSIP);
  hg_mp_pack_kv_u64(&pk, "b", 1);
  hg_mp_pack_kv_u64(&pk, "p", 2);
  hg_mp_pack_kv_i64(&pk, "ms", 3);
  hg_mp_pack_kv_str(&pk, "f", "n1");
  hg_mp_pack_kv_str(&pk, "fa", "");
  hg_mp_pack_str(&pk, "m");
  msgpack_pack_array(&pk, 1);
  msgpack_pack_map(&pk, 103);
  hg_mp_pack_kv_u64(&pk, "s", HG_MEMBER_ALIVE);
  hg_mp_pack_kv_str(&pk, "i", "n2");
  hg_mp_pack_kv_u64(&pk, "n", 1);
  for (int i = 0; i < 100; i++) {
    char k[8];
    snprintf(k, sizeof k, "x%d", i);
    hg_mp_pack_kv_u64(&pk, k, 1);
  }
  assert_int_equal(hg_wire_decode(sb.data, sb.size, 1, &d), -EPROTO);
  assert_int_equal(hg_wire_decode(sb.data, sb.size, HG_WIRE_UDP_ITEMS, &d), 0);
  assert_int_equal(d.nmembers, 1);
  assert_string_equal(d.members[0].id, "n2");
  hg_wire_msg_free(&d);
  msgpack_sbuffer_destroy(&sb);
}

/* Five bytes claiming 4 billion elements must not make msgpack-c allocate
 * for them (it sizes a container from its count before reading it). */
static void wire_lying_counts_do_not_allocate(void **state) {
  const char *lies[] = {
      "\xdd\xff\xff\xff\xff",          /* array32 */
      "\xdf\xff\xff\xff\xff",          /* map32 */
      "\x81\xa1m\xdd\x7f\xff\xff\xff", /* {"m": array32 huge} */
      "\x92\xdc\xff\xff\xde\xff\xff",  /* nested 16-bit counts */
      "\xdb\xff\xff\xff\xff"
      "abc",  /* str32 past the end */
      "\xc1", /* never used */
      "\xc7\x05\x01"
      "ab", /* ext8 past the end */
  };
  size_t lens[] = {5, 5, 8, 7, 8, 1, 5};
  for (size_t i = 0; i < sizeof lies / sizeof lies[0]; i++) {
    hg_wire_msg d;
    assert_int_equal(hg_wire_decode(lies[i], lens[i], HG_WIRE_TCP_ITEMS, &d), -EPROTO);
    hg_node_meta nm;
    assert_int_equal(hg_node_meta_decode(lies[i], lens[i], &nm), -EPROTO);
    hg_dirent de;
    assert_int_equal(hg_dirent_decode(lies[i], lens[i], &de), -EPROTO);
  }
  /* every kind of msgpack value passes the pre-scan when well formed */
  msgpack_sbuffer sb;
  msgpack_sbuffer_init(&sb);
  msgpack_packer pk;
  msgpack_packer_init(&pk, &sb, msgpack_sbuffer_write);
  msgpack_pack_array(&pk, 14);
  msgpack_pack_nil(&pk);
  msgpack_pack_true(&pk);
  msgpack_pack_int64(&pk, INT64_MIN);
  msgpack_pack_uint64(&pk, UINT64_MAX);
  msgpack_pack_float(&pk, 1.5f);
  msgpack_pack_double(&pk, 2.5);
  hg_mp_pack_strn(&pk, "", 0);
  static char big[70000];
  hg_mp_pack_bin(&pk, big, sizeof big);
  hg_mp_pack_strn(&pk, big, 300);
  msgpack_pack_ext(&pk, 5, 1);
  msgpack_pack_ext_body(&pk, "abcde", 5);
  msgpack_pack_ext(&pk, 4, 2);
  msgpack_pack_ext_body(&pk, "abcd", 4);
  msgpack_pack_map(&pk, 1);
  msgpack_pack_int(&pk, -5);
  msgpack_pack_array(&pk, 20);
  for (int i = 0; i < 20; i++) msgpack_pack_int16(&pk, (int16_t)(-300 * i));
  msgpack_pack_uint16(&pk, 60000);
  msgpack_pack_uint32(&pk, 4000000000u);
  msgpack_unpacked u;
  assert_int_equal(hg_wire_unpack(sb.data, sb.size, &u), 0);
  assert_int_equal(u.data.type, MSGPACK_OBJECT_ARRAY);
  assert_int_equal(u.data.via.array.size, 14);
  assert_true(u.data.via.array.ptr[13].via.u64 == 4000000000u);
  msgpack_unpacked_destroy(&u);
  msgpack_sbuffer_destroy(&sb);
}

static void wire_garbage_is_refused_without_leaks(void **state) {
  hg_wire_msg m, d;
  full_msg(&m, HG_WIRE_PUSH_PULL);
  hg_buf b;
  encode(&m, &b);
  uint8_t buf[4096];
  int decoded = 0;
  for (int iter = 0; iter < 20000; iter++) {
    size_t len;
    if (iter % 2) {
      /* random bytes */
      len = rnd() % sizeof buf;
      for (size_t i = 0; i < len; i++) buf[i] = (uint8_t)rnd();
    } else {
      /* a valid message with a few bytes flipped: mostly well-formed
       * msgpack that reaches the type checks */
      len = b.len < sizeof buf ? b.len : sizeof buf;
      memcpy(buf, b.data, len);
      for (int k = 0; k < 3; k++) buf[rnd() % len] ^= (uint8_t)(1u << (rnd() % 8));
    }
    int rc = hg_wire_decode(buf, len, HG_WIRE_UDP_ITEMS, &d);
    assert_true(rc == 0 || rc == -EPROTO);
    if (rc == 0) {
      decoded++;
      assert_true(d.nmembers + d.nusers <= HG_WIRE_UDP_ITEMS);
      for (size_t i = 0; i < d.nmembers; i++) {
        assert_true(strlen(d.members[i].id) < HG_NODE_ID_MAX);
        assert_true(d.members[i].state <= HG_MEMBER_LEFT);
        assert_true(d.members[i].meta_len <= HG_WIRE_META_MAX);
      }
      hg_wire_msg_free(&d);
    }
  }
  (void)decoded;
  hg_wire_msg_free(&m);
  hg_buf_free(&b);
}

static void wire_state_names(void **state) {
  assert_string_equal(hg_member_state_name(HG_MEMBER_ALIVE), "alive");
  assert_string_equal(hg_member_state_name(HG_MEMBER_SUSPECT), "suspect");
  assert_string_equal(hg_member_state_name(HG_MEMBER_DEAD), "dead");
  assert_string_equal(hg_member_state_name(HG_MEMBER_LEFT), "left");
  assert_string_equal(hg_member_state_name((hg_member_state)9), "unknown");
}

/* ---- meta -------------------------------------------------------------- */

static void realistic_meta(hg_node_meta *m) {
  memset(m, 0, sizeof *m);
  strcpy(m->id, "node-3f2a9c0d1e4b5a67");
  strcpy(m->api_addr, "10.20.30.40:8080");
  strcpy(m->gossip_addr, "10.20.30.40:7946");
  strcpy(m->repl_addr, "10.20.30.40:7947");
  strcpy(m->zone, "eu-west-1a");
  m->draining = true;
  strcpy(m->vmm_kind, "qemu");
  strcpy(m->vmm_version, "8.2.2 (Debian 1:8.2.2)");
  strcpy(m->cpu_class, "Intel(R) Xeon(R) Platinum 8375C CPU @ 2.90GHz");
  m->vcpus_total = 64;
  m->vcpus_used = 17;
  m->memory_total_mib = 262144;
  m->memory_used_mib = 100000;
  m->disk_free_mib = 5000000;
  m->max_sandboxes = 0;
  m->sandboxes_running = 12;
  m->sandboxes_paused = 3;
  m->sandboxes_suspended = 40;
  m->sandboxes_total = 55;
  const char *tpl[] = {"python:3.12", "node:20-bookworm", "ubuntu:24.04", "base:latest"};
  for (unsigned i = 0; i < 4; i++) strcpy(m->templates[i], tpl[i]);
  m->ntemplates = 4;
  strcpy(m->labels[0], "rack=r12");
  strcpy(m->labels[1], "gpu=none");
  m->nlabels = 2;
  m->updated_ms = 1712345678901;
}

static void assert_meta_equal(const hg_node_meta *a, const hg_node_meta *b) {
  assert_string_equal(a->id, b->id);
  assert_string_equal(a->api_addr, b->api_addr);
  assert_string_equal(a->gossip_addr, b->gossip_addr);
  assert_string_equal(a->repl_addr, b->repl_addr);
  assert_string_equal(a->zone, b->zone);
  assert_int_equal(a->draining, b->draining);
  assert_string_equal(a->vmm_kind, b->vmm_kind);
  assert_string_equal(a->vmm_version, b->vmm_version);
  assert_string_equal(a->cpu_class, b->cpu_class);
  assert_int_equal(a->vcpus_total, b->vcpus_total);
  assert_int_equal(a->vcpus_used, b->vcpus_used);
  assert_true(a->memory_total_mib == b->memory_total_mib);
  assert_true(a->memory_used_mib == b->memory_used_mib);
  assert_true(a->disk_free_mib == b->disk_free_mib);
  assert_int_equal(a->max_sandboxes, b->max_sandboxes);
  assert_int_equal(a->sandboxes_running, b->sandboxes_running);
  assert_int_equal(a->sandboxes_paused, b->sandboxes_paused);
  assert_int_equal(a->sandboxes_suspended, b->sandboxes_suspended);
  assert_int_equal(a->sandboxes_total, b->sandboxes_total);
  assert_int_equal(a->ntemplates, b->ntemplates);
  for (unsigned i = 0; i < a->ntemplates; i++)
    assert_string_equal(a->templates[i], b->templates[i]);
  assert_int_equal(a->nlabels, b->nlabels);
  for (unsigned i = 0; i < a->nlabels; i++)
    assert_string_equal(a->labels[i], b->labels[i]);
  assert_true(a->updated_ms == b->updated_ms);
}

static void meta_round_trips_and_fits(void **state) {
  hg_node_meta m, d;
  realistic_meta(&m);
  uint8_t buf[HG_WIRE_META_MAX];
  size_t len = 0;
  assert_int_equal(hg_node_meta_encode(&m, buf, sizeof buf, &len), 0);
  assert_true(len > 0 && len <= 512);
  assert_int_equal(hg_node_meta_decode(buf, len, &d), 0);
  assert_meta_equal(&m, &d);
  /* extremes */
  m.updated_ms = INT64_MIN;
  m.memory_total_mib = UINT64_MAX;
  m.vcpus_total = UINT32_MAX;
  m.ntemplates = 0;
  m.nlabels = HG_META_LABELS;
  for (unsigned i = 0; i < HG_META_LABELS; i++)
    snprintf(m.labels[i], HG_META_NAME_MAX, "k%u=v", i);
  assert_int_equal(hg_node_meta_encode(&m, buf, sizeof buf, &len), 0);
  assert_int_equal(hg_node_meta_decode(buf, len, &d), 0);
  assert_meta_equal(&m, &d);
}

static void meta_too_big_is_enobufs(void **state) {
  hg_node_meta m;
  realistic_meta(&m);
  m.ntemplates = HG_META_TEMPLATES;
  m.nlabels = HG_META_LABELS;
  for (unsigned i = 0; i < HG_META_TEMPLATES; i++)
    fill_str(m.templates[i], HG_META_NAME_MAX - 1, 'a');
  for (unsigned i = 0; i < HG_META_LABELS; i++)
    fill_str(m.labels[i], HG_META_NAME_MAX - 1, 'b');
  uint8_t buf[4 * HG_WIRE_META_MAX];
  size_t len = 0;
  assert_int_equal(hg_node_meta_encode(&m, buf, sizeof buf, &len), -ENOBUFS);
  realistic_meta(&m);
  assert_int_equal(hg_node_meta_encode(&m, buf, 100, &len), -ENOBUFS);
  /* refused before packing */
  m.ntemplates = HG_META_TEMPLATES + 1;
  assert_int_equal(hg_node_meta_encode(&m, buf, sizeof buf, &len), -EINVAL);
  realistic_meta(&m);
  memset(m.zone, 'z', sizeof m.zone);
  assert_int_equal(hg_node_meta_encode(&m, buf, sizeof buf, &len), -EINVAL);
  realistic_meta(&m);
  m.id[0] = '\0';
  assert_int_equal(hg_node_meta_encode(&m, buf, sizeof buf, &len), -EINVAL);
}

static int meta_decode_edited(const uint8_t *valid, size_t len, const edit *e) {
  msgpack_sbuffer sb;
  apply_edit(valid, len, e, &sb);
  hg_node_meta d;
  int rc = hg_node_meta_decode(sb.data, sb.size, &d);
  msgpack_sbuffer_destroy(&sb);
  return rc;
}

static void meta_malformed(void **state) {
  hg_node_meta m, d;
  realistic_meta(&m);
  uint8_t buf[HG_WIRE_META_MAX];
  size_t len;
  assert_int_equal(hg_node_meta_encode(&m, buf, sizeof buf, &len), 0);
  for (size_t n = 0; n < len; n++) {
    uint8_t *p = malloc(n ? n : 1);
    memcpy(p, buf, n);
    assert_int_equal(hg_node_meta_decode(p, n, &d), -EPROTO);
    free(p);
  }
  const char *keys[] = {"i",  "a",  "g",  "r",  "z",  "dr", "vk", "vv", "cc", "ct", "cu",
                        "mt", "mu", "df", "sm", "sr", "sp", "ss", "st", "tp", "lb", "ms"};
  msgpack_object nil = o_nil(), map = o_map(), neg = o_neg(-1);
  for (size_t i = 0; i < sizeof keys / sizeof keys[0]; i++) {
    assert_int_equal(meta_decode_edited(buf, len, &(edit){{keys[i]}, NULL}), -EPROTO);
    assert_int_equal(meta_decode_edited(buf, len, &(edit){{keys[i]}, &nil}), -EPROTO);
    assert_int_equal(meta_decode_edited(buf, len, &(edit){{keys[i]}, &map}), -EPROTO);
    if (strcmp(keys[i], "ms") != 0)
      assert_int_equal(meta_decode_edited(buf, len, &(edit){{keys[i]}, &neg}), -EPROTO);
  }
  msgpack_object big32 = o_u64(UINT32_MAX + 1ull), empty = o_str("", 0),
                 nul = o_str("a\0b", 3);
  char long_zone[33];
  fill_str(long_zone, 32, 'z');
  msgpack_object lz = o_str(long_zone, 32);
  assert_int_equal(meta_decode_edited(buf, len, &(edit){{"ct"}, &big32}), -EPROTO);
  assert_int_equal(meta_decode_edited(buf, len, &(edit){{"i"}, &empty}), -EPROTO);
  assert_int_equal(meta_decode_edited(buf, len, &(edit){{"z"}, &lz}), -EPROTO);
  assert_int_equal(meta_decode_edited(buf, len, &(edit){{"vk"}, &nul}), -EPROTO);
  assert_int_equal(meta_decode_edited(buf, len, &(edit){{"tp", "1"}, &nul}), -EPROTO);
  assert_int_equal(meta_decode_edited(buf, len, &(edit){{"tp", "2"}, &neg}), -EPROTO);
  char long_tpl[HG_META_NAME_MAX + 1];
  fill_str(long_tpl, HG_META_NAME_MAX, 't');
  msgpack_object lt = o_str(long_tpl, HG_META_NAME_MAX);
  assert_int_equal(meta_decode_edited(buf, len, &(edit){{"tp", "0"}, &lt}), -EPROTO);

  /* nine templates: one more than the struct holds */
  msgpack_object nine[9];
  for (int i = 0; i < 9; i++) nine[i] = o_str("t:1", 3);
  msgpack_object tp9 = {.type = MSGPACK_OBJECT_ARRAY};
  tp9.via.array.ptr = nine;
  tp9.via.array.size = 9;
  assert_int_equal(meta_decode_edited(buf, len, &(edit){{"tp"}, &tp9}), -EPROTO);
  tp9.via.array.size = 8;
  assert_int_equal(meta_decode_edited(buf, len, &(edit){{"tp"}, &tp9}), 0);
  assert_int_equal(hg_node_meta_decode(buf, HG_WIRE_META_MAX + 1, &d), -EPROTO);
}

/* ---- dirent ------------------------------------------------------------ */

static void full_dirent(hg_dirent *e) {
  memset(e, 0, sizeof *e);
  fill_str(e->sandbox, HG_ID_MAX - 1, 's');
  fill_str(e->owner, HG_NODE_ID_MAX - 1, 'a'); /* node ids: [a-z0-9-] */
  e->epoch = UINT64_MAX;
  e->version = 12345678901ull;
  strcpy(e->state, "suspended");
  fill_str(e->template_ref, HG_META_NAME_MAX - 1, 't');
  e->gen = 77;
  for (unsigned i = 0; i < HG_DIR_HOLDERS; i++) {
    fill_str(e->holders[i], HG_NODE_ID_MAX - 1, 'a');
    e->holders[i][0] = (char)('0' + i);
  }
  e->nholders = HG_DIR_HOLDERS;
  e->updated_ms = -1;
}

static void assert_dirent_equal(const hg_dirent *a, const hg_dirent *b) {
  assert_string_equal(a->sandbox, b->sandbox);
  assert_string_equal(a->owner, b->owner);
  assert_true(a->epoch == b->epoch);
  assert_true(a->version == b->version);
  assert_string_equal(a->state, b->state);
  assert_string_equal(a->template_ref, b->template_ref);
  assert_true(a->gen == b->gen);
  assert_int_equal(a->nholders, b->nholders);
  for (unsigned i = 0; i < a->nholders; i++)
    assert_string_equal(a->holders[i], b->holders[i]);
  assert_true(a->updated_ms == b->updated_ms);
}

static void dirent_round_trips(void **state) {
  hg_dirent e, d;
  full_dirent(&e); /* every field at its longest: still fits one user item */
  uint8_t buf[HG_WIRE_USER_MAX];
  size_t len;
  assert_int_equal(hg_dirent_encode(&e, buf, sizeof buf, &len), 0);
  assert_true(len <= HG_WIRE_USER_MAX);
  assert_int_equal(hg_dirent_decode(buf, len, &d), 0);
  assert_dirent_equal(&e, &d);

  memset(&e, 0, sizeof e);
  strcpy(e.sandbox, "sb-0123456789abcdef");
  strcpy(e.state, "deleted");
  assert_int_equal(hg_dirent_encode(&e, buf, sizeof buf, &len), 0);
  assert_int_equal(hg_dirent_decode(buf, len, &d), 0);
  assert_dirent_equal(&e, &d);

  assert_int_equal(hg_dirent_encode(&e, buf, 10, &len), -ENOBUFS);
  e.nholders = HG_DIR_HOLDERS + 1;
  assert_int_equal(hg_dirent_encode(&e, buf, sizeof buf, &len), -EINVAL);
  e.nholders = 0;
  e.sandbox[0] = '\0';
  assert_int_equal(hg_dirent_encode(&e, buf, sizeof buf, &len), -EINVAL);
}

static void dirent_with_a_malformed_node_id_is_eproto(void **state) {
  hg_dirent e, d;
  uint8_t buf[HG_WIRE_USER_MAX];
  size_t len;
  memset(&e, 0, sizeof e);
  strcpy(e.sandbox, "sb-0123456789abcdef");
  strcpy(e.owner, "n-a");
  strcpy(e.holders[0], "n-b");
  e.nholders = 1;
  assert_int_equal(hg_dirent_encode(&e, buf, sizeof buf, &len), 0);
  assert_int_equal(hg_dirent_decode(buf, len, &d), 0);
  strcpy(e.owner, "N-A"); /* a peer's owner goes into headers: the grammar holds */
  assert_int_equal(hg_dirent_encode(&e, buf, sizeof buf, &len), 0);
  assert_int_equal(hg_dirent_decode(buf, len, &d), -EPROTO);
  strcpy(e.owner, "n-a");
  strcpy(e.holders[0], "n b");
  assert_int_equal(hg_dirent_encode(&e, buf, sizeof buf, &len), 0);
  assert_int_equal(hg_dirent_decode(buf, len, &d), -EPROTO);
}

static int dirent_decode_edited(const uint8_t *valid, size_t len, const edit *e) {
  msgpack_sbuffer sb;
  apply_edit(valid, len, e, &sb);
  hg_dirent d;
  int rc = hg_dirent_decode(sb.data, sb.size, &d);
  msgpack_sbuffer_destroy(&sb);
  return rc;
}

static void dirent_malformed(void **state) {
  hg_dirent e, d;
  full_dirent(&e);
  e.nholders = 2;
  uint8_t buf[HG_WIRE_USER_MAX];
  size_t len;
  assert_int_equal(hg_dirent_encode(&e, buf, sizeof buf, &len), 0);
  for (size_t n = 0; n < len; n++) {
    uint8_t *p = malloc(n ? n : 1);
    memcpy(p, buf, n);
    assert_int_equal(hg_dirent_decode(p, n, &d), -EPROTO);
    free(p);
  }
  const char *keys[] = {"sb", "o", "e", "v", "s", "tr", "g", "h", "ms"};
  msgpack_object b = o_bool(true);
  for (size_t i = 0; i < sizeof keys / sizeof keys[0]; i++) {
    assert_int_equal(dirent_decode_edited(buf, len, &(edit){{keys[i]}, NULL}), -EPROTO);
    assert_int_equal(dirent_decode_edited(buf, len, &(edit){{keys[i]}, &b}), -EPROTO);
  }
  char sb32[HG_ID_MAX + 1];
  fill_str(sb32, HG_ID_MAX, 's');
  msgpack_object l = o_str(sb32, HG_ID_MAX), nul = o_str("a\0", 2), empty = o_str("", 0),
                 st16 = o_str("0123456789abcdef", 16), neg = o_neg(-2);
  assert_int_equal(dirent_decode_edited(buf, len, &(edit){{"sb"}, &l}), -EPROTO);
  assert_int_equal(dirent_decode_edited(buf, len, &(edit){{"sb"}, &empty}), -EPROTO);
  assert_int_equal(dirent_decode_edited(buf, len, &(edit){{"s"}, &st16}), -EPROTO);
  assert_int_equal(dirent_decode_edited(buf, len, &(edit){{"o"}, &nul}), -EPROTO);
  assert_int_equal(dirent_decode_edited(buf, len, &(edit){{"e"}, &neg}), -EPROTO);
  assert_int_equal(dirent_decode_edited(buf, len, &(edit){{"h", "1"}, &nul}), -EPROTO);
  msgpack_object nine[9];
  for (int i = 0; i < 9; i++) nine[i] = o_str("n", 1);
  msgpack_object h9 = {.type = MSGPACK_OBJECT_ARRAY};
  h9.via.array.ptr = nine;
  h9.via.array.size = 9;
  assert_int_equal(dirent_decode_edited(buf, len, &(edit){{"h"}, &h9}), -EPROTO);
  h9.via.array.size = 8;
  assert_int_equal(dirent_decode_edited(buf, len, &(edit){{"h"}, &h9}), 0);
}

static void dirent_cmp_orders_by_epoch_then_version(void **state) {
  hg_dirent a, b;
  memset(&a, 0, sizeof a);
  memset(&b, 0, sizeof b);
  a.epoch = 2, a.version = 1;
  b.epoch = 1, b.version = 100;
  assert_true(hg_dirent_cmp(&a, &b) > 0); /* epoch wins over version */
  assert_true(hg_dirent_cmp(&b, &a) < 0);
  b.epoch = 2;
  assert_true(hg_dirent_cmp(&a, &b) < 0);
  assert_true(hg_dirent_cmp(&b, &a) > 0);
  b.version = 1;
  strcpy(b.owner, "other"); /* contents do not order */
  assert_int_equal(hg_dirent_cmp(&a, &b), 0);
  a.epoch = UINT64_MAX, b.epoch = 0; /* no overflow in the comparison */
  assert_true(hg_dirent_cmp(&a, &b) > 0);
  assert_true(hg_dirent_cmp(&b, &a) < 0);
}

/* ---- fuzz seeds -------------------------------------------------------- */

/* Not a test: what `HG_CLUSTER_SEEDS_DIR=dir ./test_wire` does instead of testing. */
static void write_fuzz_seeds(const char *dir) {
  for (int t = HG_WIRE_GOSSIP; t <= HG_WIRE_PUSH_PULL; t++) {
    hg_wire_msg m;
    full_msg(&m, (hg_wire_type)t);
    m.members[3].meta_len = 20; /* keep the seeds small */
    m.users[2].len = 30;
    hg_buf b;
    encode(&m, &b);
    char name[32];
    snprintf(name, sizeof name, "msg_%d", t);
    write_seed(dir, name, t == HG_WIRE_PUSH_PULL ? 1 : 0, b.data, b.len);
    if (t == HG_WIRE_PING) {
      /* sealed with the fuzz target's fixed key and cluster name */
      uint8_t key[HG_SEAL_KEY_LEN], sealed[HG_WIRE_UDP_MAX * 2];
      for (int i = 0; i < HG_SEAL_KEY_LEN; i++) key[i] = (uint8_t)i;
      hg_keyring *kr;
      assert_int_equal(hg_keyring_new("fuzz", &kr), 0);
      assert_int_equal(hg_keyring_add(kr, key), 0);
      size_t sl;
      assert_int_equal(hg_seal(kr, b.data, b.len, sealed, sizeof sealed, &sl), 0);
      write_seed(dir, "sealed_ping", 4, sealed, sl);
      hg_keyring_free(kr);
    }
    hg_wire_msg_free(&m);
    hg_buf_free(&b);
  }
  hg_node_meta nm;
  realistic_meta(&nm);
  uint8_t buf[HG_WIRE_META_MAX];
  size_t len;
  assert_int_equal(hg_node_meta_encode(&nm, buf, sizeof buf, &len), 0);
  write_seed(dir, "meta", 2, buf, len);
  hg_dirent e;
  full_dirent(&e);
  e.nholders = 3;
  assert_int_equal(hg_dirent_encode(&e, buf, sizeof buf, &len), 0);
  write_seed(dir, "dirent", 3, buf, len);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(wire_round_trips_every_type),
      cmocka_unit_test(wire_round_trips_many_items),
      cmocka_unit_test(wire_unknown_keys_are_ignored),
      cmocka_unit_test(wire_size_bounds_hold),
      cmocka_unit_test(wire_packs_a_datagram_by_the_bounds),
      cmocka_unit_test(wire_encode_refuses_invalid),
      cmocka_unit_test(wire_truncated_at_every_length),
      cmocka_unit_test(wire_wrong_types),
      cmocka_unit_test(wire_unknown_enums_and_ranges),
      cmocka_unit_test(wire_over_long_strings_and_nul),
      cmocka_unit_test(wire_counts_above_max_items),
      cmocka_unit_test(wire_lying_counts_do_not_allocate),
      cmocka_unit_test(wire_garbage_is_refused_without_leaks),
      cmocka_unit_test(wire_state_names),
      cmocka_unit_test(meta_round_trips_and_fits),
      cmocka_unit_test(meta_too_big_is_enobufs),
      cmocka_unit_test(meta_malformed),
      cmocka_unit_test(dirent_round_trips),
      cmocka_unit_test(dirent_with_a_malformed_node_id_is_eproto),
      cmocka_unit_test(dirent_malformed),
      cmocka_unit_test(dirent_cmp_orders_by_epoch_then_version),
  };
  const char *seeds = getenv("HG_CLUSTER_SEEDS_DIR");
  if (seeds) {
    write_fuzz_seeds(seeds);
    return 0;
  }
  return cmocka_run_group_tests(tests, NULL, NULL);
}
