/* wire: msgpack encoding of hg_wire_msg.
 *
 * A message is a map with short keys (a datagram is 1400 bytes):
 *   t type  b boot  p pkt_seq  ms sent_ms  f from  fa from_addr
 *   s seq (ping, ping-req, ack, nack)  g target (ping, ping-req)
 *   ga target_addr (ping-req)  j join (push-pull)
 *   m [member…] (when any)  u [user…] (when any)
 * member: s state  i id  n incarnation  a addr  f from  d meta (bin);
 *         a, f, d left out when empty.
 * user:   k key  d data (bin).
 * Unknown keys are ignored so a newer node can add fields. */
#include "cluster/wire.h"

#include <errno.h>
#include <msgpack.h>
#include <stdlib.h>
#include <string.h>

#include "node/core/mp.h"

/* which fields a type carries */
static bool has_seq(hg_wire_type t) {
  return t >= HG_WIRE_PING && t <= HG_WIRE_NACK;
}
static bool has_target(hg_wire_type t) {
  return t == HG_WIRE_PING || t == HG_WIRE_PING_REQ;
}

/* ---- sizes: what msgpack-c's packers emit for a value ---- */

static size_t uint_size(uint64_t v) {
  if (v < 128) return 1;
  if (v < (1ull << 8)) return 2;
  if (v < (1ull << 16)) return 3;
  if (v < (1ull << 32)) return 5;
  return 9;
}

static size_t str_size(size_t len) {
  if (len < 32) return 1 + len;
  if (len < 256) return 2 + len;
  if (len < 65536) return 3 + len;
  return 5 + len;
}

static size_t bin_size(size_t len) {
  if (len < 256) return 2 + len;
  if (len < 65536) return 3 + len;
  return 5 + len;
}

#define KEY(k) str_size(sizeof(k) - 1)
#define INT_MAX_SIZE 9  /* any 64-bit integer */
#define CONTAINER_MAX 5 /* array32/map32 header */

size_t hg_wire_member_size(const hg_wire_member *u) {
  size_t n = 1; /* fixmap: at most 6 entries */
  n += KEY("s") + 1;
  n += KEY("i") + str_size(strnlen(u->id, sizeof u->id));
  n += KEY("n") + uint_size(u->incarnation);
  n += KEY("a") + str_size(strnlen(u->addr, sizeof u->addr));
  n += KEY("f") + str_size(strnlen(u->from, sizeof u->from));
  n += KEY("d") + bin_size(u->meta_len);
  return n;
}

size_t hg_wire_user_size(const hg_wire_user *u) {
  return 1 + KEY("k") + str_size(strnlen(u->key, sizeof u->key)) + KEY("d") +
         bin_size(u->len);
}

size_t hg_wire_header_size(const hg_wire_msg *m) {
  size_t n = 1; /* fixmap: at most 12 entries */
  n += KEY("t") + 1;
  /* the transport fills these after sizing: count their widest form */
  n += KEY("b") + INT_MAX_SIZE;
  n += KEY("p") + INT_MAX_SIZE;
  n += KEY("ms") + INT_MAX_SIZE;
  n += KEY("f") + str_size(strnlen(m->from, sizeof m->from));
  n += KEY("fa") + str_size(strnlen(m->from_addr, sizeof m->from_addr));
  if (has_seq(m->type)) n += KEY("s") + 5; /* any uint32 */
  if (has_target(m->type)) n += KEY("g") + str_size(strnlen(m->target, sizeof m->target));
  if (m->type == HG_WIRE_PING_REQ)
    n += KEY("ga") + str_size(strnlen(m->target_addr, sizeof m->target_addr));
  if (m->type == HG_WIRE_PUSH_PULL) n += KEY("j") + 1;
  n += KEY("m") + CONTAINER_MAX;
  n += KEY("u") + CONTAINER_MAX;
  return n;
}

/* ---- encode ---- */

static bool str_ok(const char *s, size_t cap, bool nonempty) {
  size_t n = strnlen(s, cap);
  return n < cap && (!nonempty || n > 0);
}

/* Refuses what the decoder would refuse, so a bug here shows at the sender. */
static int check_msg(const hg_wire_msg *m) {
  if ((unsigned)m->type > HG_WIRE_PUSH_PULL) return -EINVAL;
  if (!str_ok(m->from, sizeof m->from, true) ||
      !str_ok(m->from_addr, sizeof m->from_addr, false) ||
      !str_ok(m->target, sizeof m->target, false) ||
      !str_ok(m->target_addr, sizeof m->target_addr, false))
    return -EINVAL;
  if ((m->nmembers && !m->members) || (m->nusers && !m->users)) return -EINVAL;
  for (size_t i = 0; i < m->nmembers; i++) {
    const hg_wire_member *u = &m->members[i];
    if ((unsigned)u->state > HG_MEMBER_LEFT || !str_ok(u->id, sizeof u->id, true) ||
        !str_ok(u->addr, sizeof u->addr, false) ||
        !str_ok(u->from, sizeof u->from, false) || u->meta_len > HG_WIRE_META_MAX)
      return -EINVAL;
  }
  for (size_t i = 0; i < m->nusers; i++) {
    const hg_wire_user *u = &m->users[i];
    if (!str_ok(u->key, sizeof u->key, false) || u->len > HG_WIRE_USER_MAX)
      return -EINVAL;
  }
  return 0;
}

static void pack_member(msgpack_packer *pk, const hg_wire_member *u) {
  msgpack_pack_map(pk, 3 + (u->addr[0] != 0) + (u->from[0] != 0) + (u->meta_len > 0));
  hg_mp_pack_kv_u64(pk, "s", (uint64_t)u->state);
  hg_mp_pack_kv_str(pk, "i", u->id);
  hg_mp_pack_kv_u64(pk, "n", u->incarnation);
  if (u->addr[0]) hg_mp_pack_kv_str(pk, "a", u->addr);
  if (u->from[0]) hg_mp_pack_kv_str(pk, "f", u->from);
  if (u->meta_len) hg_mp_pack_kv_bin(pk, "d", u->meta, u->meta_len);
}

static void pack_user(msgpack_packer *pk, const hg_wire_user *u) {
  msgpack_pack_map(pk, 2);
  hg_mp_pack_kv_str(pk, "k", u->key);
  hg_mp_pack_kv_bin(pk, "d", u->data, u->len);
}

int hg_wire_encode(const hg_wire_msg *m, hg_buf *out) {
  int rc = check_msg(m);
  if (rc < 0) return rc;
  hg_buf_reset(out);
  hg_mp_sink s;
  hg_mp_sink_init(&s, out);
  msgpack_packer *pk = &s.pk;

  bool seq = has_seq(m->type), target = has_target(m->type);
  bool taddr = m->type == HG_WIRE_PING_REQ, join = m->type == HG_WIRE_PUSH_PULL;
  msgpack_pack_map(pk,
                   6 + seq + target + taddr + join + (m->nmembers > 0) + (m->nusers > 0));
  hg_mp_pack_kv_u64(pk, "t", (uint64_t)m->type);
  hg_mp_pack_kv_u64(pk, "b", m->boot);
  hg_mp_pack_kv_u64(pk, "p", m->pkt_seq);
  hg_mp_pack_kv_i64(pk, "ms", m->sent_ms);
  hg_mp_pack_kv_str(pk, "f", m->from);
  hg_mp_pack_kv_str(pk, "fa", m->from_addr);
  if (seq) hg_mp_pack_kv_u64(pk, "s", m->seq);
  if (target) hg_mp_pack_kv_str(pk, "g", m->target);
  if (taddr) hg_mp_pack_kv_str(pk, "ga", m->target_addr);
  if (join) hg_mp_pack_kv_bool(pk, "j", m->join);
  if (m->nmembers) {
    hg_mp_pack_str(pk, "m");
    msgpack_pack_array(pk, m->nmembers);
    for (size_t i = 0; i < m->nmembers && !s.err; i++) pack_member(pk, &m->members[i]);
  }
  if (m->nusers) {
    hg_mp_pack_str(pk, "u");
    msgpack_pack_array(pk, m->nusers);
    for (size_t i = 0; i < m->nusers && !s.err; i++) pack_user(pk, &m->users[i]);
  }
  if (s.err) {
    hg_buf_reset(out);
    return s.err;
  }
  return 0;
}

/* ---- unpack ---- */

static int read_be(const uint8_t *p, size_t len, size_t *off, size_t n, uint64_t *out) {
  if (len - *off < n) return -EPROTO;
  uint64_t v = 0;
  for (size_t i = 0; i < n; i++) v = v << 8 | p[*off + i];
  *off += n;
  *out = v;
  return 0;
}

/* Walks the encoding without building anything. Every object takes at least
 * one byte, so the objects still owed (pending) can never exceed the bytes
 * left; a count that claims otherwise is a lie told to make msgpack-c
 * allocate. Also requires exactly one object spanning all of p. */
static int prescan(const uint8_t *p, size_t len, size_t max_objects) {
  size_t off = 0, objects = 0;
  uint64_t pending = 1;
  while (pending > 0) {
    if (++objects > max_objects) return -EPROTO;
    if (off >= len) return -EPROTO;
    uint8_t c = p[off++];
    pending--;
    uint64_t skip = 0, add = 0, v;
    size_t lenbytes = 0; /* a length or count follows in this many bytes */
    int kind = 0;        /* 0: skip bytes, 1: array count, 2: map count */
    if (c <= 0x7f || c >= 0xe0 || c == 0xc0 || c == 0xc2 || c == 0xc3) {
      /* fixint, nil, bool */
    } else if (c <= 0x8f) {
      add = 2u * (c & 0x0f);
    } else if (c <= 0x9f) {
      add = c & 0x0f;
    } else if (c <= 0xbf) {
      skip = c & 0x1f;
    } else {
      /* clang-format off */
      switch (c) {
      case 0xc4: case 0xd9: lenbytes = 1; break;           /* bin8, str8 */
      case 0xc5: case 0xda: lenbytes = 2; break;           /* bin16, str16 */
      case 0xc6: case 0xdb: lenbytes = 4; break;           /* bin32, str32 */
      case 0xc7: lenbytes = 1; skip = 1; break;            /* ext8 + type */
      case 0xc8: lenbytes = 2; skip = 1; break;
      case 0xc9: lenbytes = 4; skip = 1; break;
      case 0xca: skip = 4; break;                          /* float32 */
      case 0xcb: skip = 8; break;                          /* float64 */
      case 0xcc: case 0xd0: skip = 1; break;
      case 0xcd: case 0xd1: skip = 2; break;
      case 0xce: case 0xd2: skip = 4; break;
      case 0xcf: case 0xd3: skip = 8; break;
      case 0xd4: skip = 2; break;                          /* fixext: type + data */
      case 0xd5: skip = 3; break;
      case 0xd6: skip = 5; break;
      case 0xd7: skip = 9; break;
      case 0xd8: skip = 17; break;
      case 0xdc: lenbytes = 2; kind = 1; break;            /* array16 */
      case 0xdd: lenbytes = 4; kind = 1; break;            /* array32 */
      case 0xde: lenbytes = 2; kind = 2; break;            /* map16 */
      case 0xdf: lenbytes = 4; kind = 2; break;            /* map32 */
      default: return -EPROTO;                             /* 0xc1: never used */
      }
      /* clang-format on */
    }
    if (lenbytes) {
      if (read_be(p, len, &off, lenbytes, &v) < 0) return -EPROTO;
      if (kind == 1)
        add = v;
      else if (kind == 2)
        add = 2 * v;
      else
        skip += v;
    }
    if (skip > len - off) return -EPROTO;
    off += skip;
    pending += add;
    if (pending > len - off) return -EPROTO;
  }
  return off == len ? 0 : -EPROTO;
}

static int unpack_bounded(const void *data, size_t len, size_t max_objects,
                          msgpack_unpacked *out) {
  if (!data || prescan(data, len, max_objects) < 0) return -EPROTO;
  msgpack_unpacked u;
  msgpack_unpacked_init(&u);
  size_t off = 0;
  if (msgpack_unpack_next(&u, data, len, &off) != MSGPACK_UNPACK_SUCCESS || off != len) {
    msgpack_unpacked_destroy(&u);
    return -EPROTO;
  }
  *out = u;
  return 0;
}

int hg_wire_unpack(const void *data, size_t len, struct msgpack_unpacked *out) {
  return unpack_bounded(data, len, SIZE_MAX, out);
}

/* ---- decode ---- */

/* Every decode error is -EPROTO: the peer sent something we do not speak. */
static int want_u64(const msgpack_object *map, const char *key, uint64_t max,
                    uint64_t *out) {
  uint64_t v;
  if (hg_mp_u64(map, key, &v) < 0 || v > max) return -EPROTO;
  *out = v;
  return 0;
}

static int want_str(const msgpack_object *map, const char *key, bool required, char *out,
                    size_t cap) {
  int rc = hg_mp_strcpy(map, key, out, cap);
  if (rc == -ENOENT && !required) {
    out[0] = '\0';
    return 0;
  }
  return rc < 0 ? -EPROTO : 0;
}

static int want_bin(const msgpack_object *map, const char *key, bool required,
                    uint8_t *out, size_t cap, size_t *len) {
  const char *p;
  size_t n;
  int rc = hg_mp_bin(map, key, &p, &n);
  if (rc == -ENOENT && !required) {
    *len = 0;
    return 0;
  }
  if (rc < 0 || n > cap) return -EPROTO;
  if (n) memcpy(out, p, n);
  *len = n;
  return 0;
}

static int decode_member(const msgpack_object *o, hg_wire_member *u) {
  uint64_t state;
  if (o->type != MSGPACK_OBJECT_MAP || want_u64(o, "s", HG_MEMBER_LEFT, &state) < 0 ||
      want_str(o, "i", true, u->id, sizeof u->id) < 0 || !u->id[0] ||
      want_u64(o, "n", UINT64_MAX, &u->incarnation) < 0 ||
      want_str(o, "a", false, u->addr, sizeof u->addr) < 0 ||
      want_str(o, "f", false, u->from, sizeof u->from) < 0 ||
      want_bin(o, "d", false, u->meta, sizeof u->meta, &u->meta_len) < 0)
    return -EPROTO;
  u->state = (hg_member_state)state;
  return 0;
}

static int decode_user(const msgpack_object *o, hg_wire_user *u) {
  if (o->type != MSGPACK_OBJECT_MAP ||
      want_str(o, "k", true, u->key, sizeof u->key) < 0 ||
      want_bin(o, "d", true, u->data, sizeof u->data, &u->len) < 0)
    return -EPROTO;
  return 0;
}

/* Arrays grow by doubling from 4; the capacity follows from the count so
 * hg_wire_msg needs no field for it. */
static size_t cap_for(size_t n) {
  if (n == 0) return 0;
  size_t c = 4;
  while (c < n) c *= 2;
  return c;
}

static int resize(void **arr, size_t n, size_t elem) {
  size_t c = cap_for(n);
  if (c > SIZE_MAX / elem) return -ENOMEM;
  void *p = realloc(*arr, c * elem);
  if (!p) return -ENOMEM;
  *arr = p;
  return 0;
}

static int decode_items(const msgpack_object *o, size_t max_items, hg_wire_msg *m) {
  const msgpack_object *mv = hg_mp_get(o, "m"), *uv = hg_mp_get(o, "u");
  if ((mv && mv->type != MSGPACK_OBJECT_ARRAY) ||
      (uv && uv->type != MSGPACK_OBJECT_ARRAY))
    return -EPROTO;
  size_t nm = mv ? mv->via.array.size : 0, nu = uv ? uv->via.array.size : 0;
  if (nm > max_items || nu > max_items - nm) return -EPROTO;
  if (nm) {
    if (resize((void **)&m->members, nm, sizeof *m->members) < 0) return -ENOMEM;
    for (size_t i = 0; i < nm; i++) {
      memset(&m->members[i], 0, sizeof m->members[i]);
      if (decode_member(&mv->via.array.ptr[i], &m->members[i]) < 0) return -EPROTO;
      m->nmembers++;
    }
  }
  if (nu) {
    if (resize((void **)&m->users, nu, sizeof *m->users) < 0) return -ENOMEM;
    for (size_t i = 0; i < nu; i++) {
      memset(&m->users[i], 0, sizeof m->users[i]);
      if (decode_user(&uv->via.array.ptr[i], &m->users[i]) < 0) return -EPROTO;
      m->nusers++;
    }
  }
  return 0;
}

static int decode_msg(const msgpack_object *o, size_t max_items, hg_wire_msg *m) {
  uint64_t type, seq = 0;
  if (o->type != MSGPACK_OBJECT_MAP || want_u64(o, "t", HG_WIRE_PUSH_PULL, &type) < 0 ||
      want_u64(o, "b", UINT64_MAX, &m->boot) < 0 ||
      want_u64(o, "p", UINT64_MAX, &m->pkt_seq) < 0 ||
      hg_mp_i64(o, "ms", &m->sent_ms) < 0 ||
      want_str(o, "f", true, m->from, sizeof m->from) < 0 || !m->from[0] ||
      want_str(o, "fa", true, m->from_addr, sizeof m->from_addr) < 0)
    return -EPROTO;
  m->type = (hg_wire_type)type;
  if (has_seq(m->type) && want_u64(o, "s", UINT32_MAX, &seq) < 0) return -EPROTO;
  m->seq = (uint32_t)seq;
  if (has_target(m->type) && want_str(o, "g", true, m->target, sizeof m->target) < 0)
    return -EPROTO;
  if (m->type == HG_WIRE_PING_REQ &&
      want_str(o, "ga", true, m->target_addr, sizeof m->target_addr) < 0)
    return -EPROTO;
  if (m->type == HG_WIRE_PUSH_PULL && hg_mp_bool(o, "j", &m->join) < 0) return -EPROTO;
  return decode_items(o, max_items, m);
}

int hg_wire_decode(const void *data, size_t len, size_t max_items, hg_wire_msg *out) {
  /* msgpack-c spends 24 bytes per object it builds: bound them by what
   * max_items can need (a member is 13 objects today; room for new keys) */
  size_t max_objects = max_items < (SIZE_MAX - 64) / 32 ? 64 + 32 * max_items : SIZE_MAX;
  msgpack_unpacked u;
  int rc = unpack_bounded(data, len, max_objects, &u);
  if (rc < 0) return rc;
  hg_wire_msg m;
  memset(&m, 0, sizeof m);
  rc = decode_msg(&u.data, max_items, &m);
  msgpack_unpacked_destroy(&u);
  if (rc < 0) {
    hg_wire_msg_free(&m);
    return rc;
  }
  *out = m;
  return 0;
}

void hg_wire_msg_free(hg_wire_msg *m) {
  free(m->members);
  free(m->users);
  m->members = NULL;
  m->users = NULL;
  m->nmembers = m->nusers = 0;
}

/* Grows at 0 and at each power of two from 4: the points where the
 * capacity implied by the count runs out. */
static bool must_grow(size_t n) {
  return n == 0 || (n >= 4 && (n & (n - 1)) == 0);
}

int hg_wire_add_member(hg_wire_msg *m, const hg_wire_member *u) {
  if (must_grow(m->nmembers) &&
      resize((void **)&m->members, m->nmembers + 1, sizeof *m->members) < 0)
    return -ENOMEM;
  m->members[m->nmembers++] = *u;
  return 0;
}

int hg_wire_add_user(hg_wire_msg *m, const hg_wire_user *u) {
  if (must_grow(m->nusers) &&
      resize((void **)&m->users, m->nusers + 1, sizeof *m->users) < 0)
    return -ENOMEM;
  m->users[m->nusers++] = *u;
  return 0;
}

const char *hg_member_state_name(hg_member_state s) {
  switch (s) {
    case HG_MEMBER_ALIVE:
      return "alive";
    case HG_MEMBER_SUSPECT:
      return "suspect";
    case HG_MEMBER_DEAD:
      return "dead";
    case HG_MEMBER_LEFT:
      return "left";
  }
  return "unknown";
}
