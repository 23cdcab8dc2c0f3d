#include "cluster/lease_wire.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "cluster/wire.h"
#include "node/core/mp.h"

/* ---- encode -------------------------------------------------------------- */

static void pack_group(msgpack_packer *pk, const char *key, const hg_lease_group *g) {
  hg_mp_pack_str(pk, key);
  msgpack_pack_array(pk, g->n);
  for (unsigned i = 0; i < g->n; i++) hg_mp_pack_str(pk, g->ids[i]);
}

static void pack_conf_map(msgpack_packer *pk, const hg_lease_conf *c) {
  msgpack_pack_map(pk, c->joint ? 5 : 4);
  hg_mp_pack_kv_u64(pk, "q", c->seq);
  hg_mp_pack_kv_bool(pk, "j", c->joint);
  hg_mp_pack_kv_u64(pk, "e", c->epoch);
  pack_group(pk, "g", &c->cur);
  if (c->joint) pack_group(pk, "n", &c->next);
}

static void pack_conf(msgpack_packer *pk, const hg_lease_conf *c) {
  hg_mp_pack_str(pk, "c");
  pack_conf_map(pk, c);
}

static void pack_promise_fields(msgpack_packer *pk, const hg_lease_promise *p) {
  hg_mp_pack_kv_u64(pk, "e", p->epoch);
  hg_mp_pack_kv_str(pk, "h", p->holder);
  hg_mp_pack_kv_bool(pk, "d", p->deleted);
  pack_conf(pk, &p->conf);
}

void hg_lease_pack_promise(msgpack_packer *pk, const char *sandbox,
                           const hg_lease_promise *p) {
  msgpack_pack_map(pk, 5);
  hg_mp_pack_kv_str(pk, "s", sandbox);
  pack_promise_fields(pk, p);
}

/* A batch names each configuration and each holder once, in tables, and
 * its requests and replies point into them: a node's renewals for a
 * thousand sandboxes in one group carry that group once. Requests and
 * replies are arrays, not maps, and a sandbox id of the usual shape
 * ("sb-" and 16 hex digits) goes as its 8 bytes: a renewal is ~16 bytes.
 *   {"from": id, "confs": [conf], "holders": [id],
 *    "reqs": [[kind, sandbox, epoch, round, deleting, conf#]],
 *    "reps": [[sandbox, round, refusal, wait_ms, epoch, holder# or nil,
 *              deleted, conf#]]}
 * Every request and reply is the sender's own: from is the batch's. */
#define SB_PREFIX "sb-"
#define SB_HEX 16

static bool group_equal(const hg_lease_group *a, const hg_lease_group *b) {
  if (a->n != b->n) return false;
  for (unsigned i = 0; i < a->n; i++)
    if (strcmp(a->ids[i], b->ids[i]) != 0) return false;
  return true;
}

static bool conf_equal(const hg_lease_conf *a, const hg_lease_conf *b) {
  return a->seq == b->seq && a->joint == b->joint && a->epoch == b->epoch &&
         group_equal(&a->cur, &b->cur) && (!a->joint || group_equal(&a->next, &b->next));
}

typedef struct tables {
  const hg_lease_conf **confs;
  const char **holders;
  size_t nconfs, nholders;
} tables;

static size_t conf_index(tables *t, const hg_lease_conf *c) {
  for (size_t i = 0; i < t->nconfs; i++)
    if (conf_equal(t->confs[i], c)) return i;
  t->confs[t->nconfs] = c;
  return t->nconfs++;
}

static size_t holder_index(tables *t, const char *id) {
  for (size_t i = 0; i < t->nholders; i++)
    if (strcmp(t->holders[i], id) == 0) return i;
  t->holders[t->nholders] = id;
  return t->nholders++;
}

static int hexval(char c) {
  return c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10 : -1;
}

static void pack_sandbox(msgpack_packer *pk, const char *id) {
  uint8_t raw[SB_HEX / 2];
  bool compact = strlen(id) == strlen(SB_PREFIX) + SB_HEX &&
                 strncmp(id, SB_PREFIX, strlen(SB_PREFIX)) == 0;
  for (size_t i = 0; compact && i < SB_HEX / 2; i++) {
    int hi = hexval(id[3 + 2 * i]), lo = hexval(id[4 + 2 * i]);
    compact = hi >= 0 && lo >= 0;
    raw[i] = (uint8_t)(hi << 4 | lo);
  }
  if (compact)
    hg_mp_pack_bin(pk, raw, sizeof raw);
  else
    hg_mp_pack_str(pk, id);
}

int hg_lease_batch_encode(const hg_lease_batch *b, hg_buf *out) {
  size_t n = b->nreqs + b->nreps;
  if (n > HG_LEASE_BATCH_ITEMS) return -EINVAL;
  tables t = {.confs = calloc(n + 1, sizeof *t.confs),
              .holders = calloc(n + 1, sizeof *t.holders)};
  size_t *ci = calloc(n + 1, sizeof *ci);
  long *hi = calloc(n + 1, sizeof *hi);
  int rc = t.confs && t.holders && ci && hi ? 0 : -ENOMEM;
  for (size_t i = 0; rc == 0 && i < b->nreqs; i++)
    ci[i] = conf_index(&t, &b->reqs[i].conf);
  for (size_t i = 0; rc == 0 && i < b->nreps; i++) {
    const hg_lease_promise *p = &b->reps[i].promise;
    ci[b->nreqs + i] = conf_index(&t, &p->conf);
    hi[i] = p->holder[0] ? (long)holder_index(&t, p->holder) : -1;
  }
  hg_mp_sink s;
  hg_mp_sink_init(&s, out);
  msgpack_packer *pk = &s.pk;
  if (rc == 0) {
    msgpack_pack_map(pk, 5);
    hg_mp_pack_kv_str(pk, "from", b->from);
    hg_mp_pack_str(pk, "confs");
    msgpack_pack_array(pk, t.nconfs);
    for (size_t i = 0; i < t.nconfs; i++) pack_conf_map(pk, t.confs[i]);
    hg_mp_pack_str(pk, "holders");
    msgpack_pack_array(pk, t.nholders);
    for (size_t i = 0; i < t.nholders; i++) hg_mp_pack_str(pk, t.holders[i]);
    hg_mp_pack_str(pk, "reqs");
    msgpack_pack_array(pk, b->nreqs);
    for (size_t i = 0; i < b->nreqs; i++) {
      const hg_lease_req *r = &b->reqs[i];
      msgpack_pack_array(pk, 6);
      msgpack_pack_uint64(pk, r->kind);
      pack_sandbox(pk, r->sandbox);
      msgpack_pack_uint64(pk, r->epoch);
      msgpack_pack_uint64(pk, r->round);
      r->deleting ? msgpack_pack_true(pk) : msgpack_pack_false(pk);
      msgpack_pack_uint64(pk, ci[i]);
    }
    hg_mp_pack_str(pk, "reps");
    msgpack_pack_array(pk, b->nreps);
    for (size_t i = 0; i < b->nreps; i++) {
      const hg_lease_reply *r = &b->reps[i];
      msgpack_pack_array(pk, 8);
      pack_sandbox(pk, r->sandbox);
      msgpack_pack_uint64(pk, r->round);
      msgpack_pack_uint64(pk, r->refusal);
      msgpack_pack_int64(pk, r->wait_ms);
      msgpack_pack_uint64(pk, r->promise.epoch);
      hi[i] < 0 ? msgpack_pack_nil(pk) : msgpack_pack_uint64(pk, (uint64_t)hi[i]);
      r->promise.deleted ? msgpack_pack_true(pk) : msgpack_pack_false(pk);
      msgpack_pack_uint64(pk, ci[b->nreqs + i]);
    }
    rc = s.err;
  }
  free(t.confs);
  free(t.holders);
  free(ci);
  free(hi);
  return rc;
}

/* ---- decode -------------------------------------------------------------- */

/* Every string here is an id or a name: present, non-empty, fitting. */
static int want_str(const msgpack_object *m, const char *key, char *out, size_t cap) {
  return hg_mp_strcpy(m, key, out, cap) < 0 || !out[0] ? -EPROTO : 0;
}

static int want_u64(const msgpack_object *m, const char *key, uint64_t max,
                    uint64_t *out) {
  uint64_t v;
  if (hg_mp_u64(m, key, &v) < 0 || v > max) return -EPROTO;
  *out = v;
  return 0;
}

static int want_bool(const msgpack_object *m, const char *key, bool *out) {
  return hg_mp_bool(m, key, out) < 0 ? -EPROTO : 0;
}

static int unpack_group(const msgpack_object *m, const char *key, hg_lease_group *g) {
  const msgpack_object *a = hg_mp_get(m, key);
  if (!a || a->type != MSGPACK_OBJECT_ARRAY || a->via.array.size < 1 ||
      a->via.array.size > HG_LEASE_GROUP_MAX)
    return -EPROTO;
  g->n = (uint8_t)a->via.array.size;
  for (unsigned i = 0; i < g->n; i++) {
    const msgpack_object *s = &a->via.array.ptr[i];
    if (s->type != MSGPACK_OBJECT_STR || s->via.str.size >= HG_NODE_ID_MAX ||
        memchr(s->via.str.ptr, '\0', s->via.str.size))
      return -EPROTO;
    memcpy(g->ids[i], s->via.str.ptr, s->via.str.size);
    g->ids[i][s->via.str.size] = '\0';
  }
  return 0;
}

static int unpack_conf_map(const msgpack_object *o, hg_lease_conf *c) {
  uint64_t seq = 0;
  memset(c, 0, sizeof *c);
  if (!o || o->type != MSGPACK_OBJECT_MAP) return -EPROTO;
  int rc = want_u64(o, "q", UINT32_MAX, &seq);
  if (rc == 0) rc = want_bool(o, "j", &c->joint);
  if (rc == 0) rc = want_u64(o, "e", UINT64_MAX, &c->epoch);
  if (rc == 0) rc = unpack_group(o, "g", &c->cur);
  if (rc == 0 && c->joint) rc = unpack_group(o, "n", &c->next);
  c->seq = (uint32_t)seq;
  return rc == 0 && hg_lease_conf_check(c) == 0 ? 0 : -EPROTO;
}

static int unpack_conf(const msgpack_object *m, hg_lease_conf *c) {
  return unpack_conf_map(hg_mp_get(m, "c"), c);
}

static int unpack_promise_fields(const msgpack_object *m, hg_lease_promise *p) {
  int rc = want_u64(m, "e", UINT64_MAX, &p->epoch);
  if (rc == 0) rc = want_str(m, "h", p->holder, sizeof p->holder);
  if (rc == 0) rc = want_bool(m, "d", &p->deleted);
  if (rc == 0) rc = unpack_conf(m, &p->conf);
  return rc;
}

int hg_lease_unpack_promise(const msgpack_object *o, char sandbox[HG_ID_MAX],
                            hg_lease_promise *p) {
  if (o->type != MSGPACK_OBJECT_MAP) return -EPROTO;
  hg_lease_promise v = {0};
  int rc = want_str(o, "s", sandbox, HG_ID_MAX);
  if (rc == 0) rc = unpack_promise_fields(o, &v);
  if (rc == 0) *p = v;
  return rc;
}

/* The decoded tables of a batch. */
typedef struct dtables {
  hg_lease_conf *confs;
  size_t nconfs;
  char (*holders)[HG_NODE_ID_MAX];
  size_t nholders;
} dtables;

static const msgpack_object *at(const msgpack_object *a, size_t i) {
  return &a->via.array.ptr[i];
}

static int elem_u64(const msgpack_object *a, size_t i, uint64_t max, uint64_t *out) {
  const msgpack_object *o = at(a, i);
  if (o->type != MSGPACK_OBJECT_POSITIVE_INTEGER || o->via.u64 > max) return -EPROTO;
  *out = o->via.u64;
  return 0;
}

static int elem_bool(const msgpack_object *a, size_t i, bool *out) {
  const msgpack_object *o = at(a, i);
  if (o->type != MSGPACK_OBJECT_BOOLEAN) return -EPROTO;
  *out = o->via.boolean;
  return 0;
}

/* A string that fits cap with its NUL, holds no NUL and is not empty. */
static int copy_str(const msgpack_object *o, char *out, size_t cap) {
  if (o->type != MSGPACK_OBJECT_STR || o->via.str.size == 0 || o->via.str.size >= cap ||
      memchr(o->via.str.ptr, '\0', o->via.str.size))
    return -EPROTO;
  memcpy(out, o->via.str.ptr, o->via.str.size);
  out[o->via.str.size] = '\0';
  return 0;
}

static int elem_sandbox(const msgpack_object *a, size_t i, char out[HG_ID_MAX]) {
  const msgpack_object *o = at(a, i);
  if (o->type != MSGPACK_OBJECT_BIN) return copy_str(o, out, HG_ID_MAX);
  if (o->via.bin.size != SB_HEX / 2) return -EPROTO;
  static const char hex[] = "0123456789abcdef";
  memcpy(out, SB_PREFIX, strlen(SB_PREFIX));
  for (size_t k = 0; k < SB_HEX / 2; k++) {
    uint8_t v = (uint8_t)o->via.bin.ptr[k];
    out[3 + 2 * k] = hex[v >> 4];
    out[4 + 2 * k] = hex[v & 15];
  }
  out[strlen(SB_PREFIX) + SB_HEX] = '\0';
  return 0;
}

static int elem_conf(const msgpack_object *a, size_t i, const dtables *t,
                     hg_lease_conf *c) {
  uint64_t k;
  if (elem_u64(a, i, t->nconfs ? t->nconfs - 1 : 0, &k) < 0 || !t->nconfs) return -EPROTO;
  *c = t->confs[k];
  return 0;
}

static int unpack_req(const msgpack_object *o, const dtables *t, hg_lease_req *r) {
  uint64_t kind = 0;
  if (o->type != MSGPACK_OBJECT_ARRAY || o->via.array.size != 6) return -EPROTO;
  int rc = elem_u64(o, 0, HG_LEASE_QUERY, &kind);
  if (rc == 0 && kind < HG_LEASE_RENEW) rc = -EPROTO;
  if (rc == 0) rc = elem_sandbox(o, 1, r->sandbox);
  if (rc == 0) rc = elem_u64(o, 2, UINT64_MAX, &r->epoch);
  if (rc == 0 && r->epoch == 0) rc = -EPROTO;
  if (rc == 0) rc = elem_u64(o, 3, UINT64_MAX, &r->round);
  if (rc == 0) rc = elem_bool(o, 4, &r->deleting);
  if (rc == 0) rc = elem_conf(o, 5, t, &r->conf);
  r->kind = (hg_lease_kind)kind;
  return rc;
}

static int unpack_reply(const msgpack_object *o, const dtables *t, hg_lease_reply *r) {
  uint64_t why = 0, h;
  if (o->type != MSGPACK_OBJECT_ARRAY || o->via.array.size != 8) return -EPROTO;
  int rc = elem_sandbox(o, 0, r->sandbox);
  if (rc == 0) rc = elem_u64(o, 1, UINT64_MAX, &r->round);
  if (rc == 0) rc = elem_u64(o, 2, HG_LEASE_REMOVED, &why);
  const msgpack_object *w = at(o, 3);
  if (rc == 0 && w->type != MSGPACK_OBJECT_POSITIVE_INTEGER) rc = -EPROTO;
  if (rc == 0 && w->via.u64 > INT64_MAX) rc = -EPROTO;
  if (rc == 0) r->wait_ms = (int64_t)w->via.u64;
  if (rc == 0) rc = elem_u64(o, 4, UINT64_MAX, &r->promise.epoch);
  /* A holder exactly when something was promised. */
  if (rc == 0 && at(o, 5)->type == MSGPACK_OBJECT_NIL) {
    if (r->promise.epoch) rc = -EPROTO;
  } else if (rc == 0) {
    rc = elem_u64(o, 5, t->nholders ? t->nholders - 1 : 0, &h);
    if (rc == 0 && !t->nholders) rc = -EPROTO;
    if (rc == 0 && !r->promise.epoch) rc = -EPROTO;
    if (rc == 0) memcpy(r->promise.holder, t->holders[h], HG_NODE_ID_MAX);
  }
  if (rc == 0) rc = elem_bool(o, 6, &r->promise.deleted);
  if (rc == 0) rc = elem_conf(o, 7, t, &r->promise.conf);
  r->refusal = (hg_lease_refusal)why;
  return rc;
}

static const msgpack_object *want_array(const msgpack_object *m, const char *key) {
  const msgpack_object *a = hg_mp_get(m, key);
  return a && a->type == MSGPACK_OBJECT_ARRAY ? a : NULL;
}

static int decode_tables(const msgpack_object *o, dtables *t) {
  const msgpack_object *confs = want_array(o, "confs"),
                       *holders = want_array(o, "holders");
  if (!confs || !holders || confs->via.array.size > HG_LEASE_BATCH_ITEMS ||
      holders->via.array.size > HG_LEASE_BATCH_ITEMS)
    return -EPROTO;
  t->nconfs = confs->via.array.size;
  t->nholders = holders->via.array.size;
  if ((t->nconfs && !(t->confs = calloc(t->nconfs, sizeof *t->confs))) ||
      (t->nholders && !(t->holders = calloc(t->nholders, sizeof *t->holders))))
    return -ENOMEM;
  for (size_t i = 0; i < t->nconfs; i++)
    if (unpack_conf_map(at(confs, i), &t->confs[i]) < 0) return -EPROTO;
  for (size_t i = 0; i < t->nholders; i++)
    if (copy_str(at(holders, i), t->holders[i], HG_NODE_ID_MAX) < 0) return -EPROTO;
  return 0;
}

static int decode(const msgpack_object *o, hg_lease_batch *b, dtables *t) {
  if (o->type != MSGPACK_OBJECT_MAP) return -EPROTO;
  const msgpack_object *reqs = want_array(o, "reqs"), *reps = want_array(o, "reps");
  if (want_str(o, "from", b->from, sizeof b->from) < 0 || !reqs || !reps) return -EPROTO;
  size_t nq = reqs->via.array.size, np = reps->via.array.size;
  if (nq + np > HG_LEASE_BATCH_ITEMS) return -EPROTO;
  int rc = decode_tables(o, t);
  if (rc < 0) return rc;
  if ((nq && !(b->reqs = calloc(nq, sizeof *b->reqs))) ||
      (np && !(b->reps = calloc(np, sizeof *b->reps))))
    return -ENOMEM;
  for (; b->nreqs < nq; b->nreqs++) {
    hg_lease_req *r = &b->reqs[b->nreqs];
    if (unpack_req(at(reqs, b->nreqs), t, r) < 0) return -EPROTO;
    memcpy(r->from, b->from, sizeof r->from);
  }
  for (; b->nreps < np; b->nreps++) {
    hg_lease_reply *r = &b->reps[b->nreps];
    if (unpack_reply(at(reps, b->nreps), t, r) < 0) return -EPROTO;
    memcpy(r->from, b->from, sizeof r->from);
  }
  return 0;
}

int hg_lease_batch_decode(const void *data, size_t len, hg_lease_batch *out) {
  msgpack_unpacked u;
  if (hg_wire_unpack(data, len, &u) < 0) return -EPROTO;
  hg_lease_batch b = {0};
  dtables t = {0};
  int rc = decode(&u.data, &b, &t);
  msgpack_unpacked_destroy(&u);
  free(t.confs);
  free(t.holders);
  if (rc < 0) {
    hg_lease_batch_free(&b);
    return rc;
  }
  *out = b;
  return 0;
}

void hg_lease_batch_free(hg_lease_batch *b) {
  free(b->reqs);
  free(b->reps);
  b->reqs = NULL;
  b->reps = NULL;
  b->nreqs = b->nreps = 0;
}
