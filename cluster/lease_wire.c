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

static void pack_conf(msgpack_packer *pk, const hg_lease_conf *c) {
  hg_mp_pack_str(pk, "c");
  msgpack_pack_map(pk, c->joint ? 5 : 4);
  hg_mp_pack_kv_u64(pk, "q", c->seq);
  hg_mp_pack_kv_bool(pk, "j", c->joint);
  hg_mp_pack_kv_u64(pk, "e", c->epoch);
  pack_group(pk, "g", &c->cur);
  if (c->joint) pack_group(pk, "n", &c->next);
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

static void pack_req(msgpack_packer *pk, const hg_lease_req *r) {
  msgpack_pack_map(pk, 7);
  hg_mp_pack_kv_u64(pk, "k", r->kind);
  hg_mp_pack_kv_str(pk, "s", r->sandbox);
  hg_mp_pack_kv_str(pk, "f", r->from);
  hg_mp_pack_kv_u64(pk, "e", r->epoch);
  hg_mp_pack_kv_u64(pk, "r", r->round);
  hg_mp_pack_kv_bool(pk, "d", r->deleting);
  pack_conf(pk, &r->conf);
}

static void pack_reply(msgpack_packer *pk, const hg_lease_reply *r) {
  msgpack_pack_map(pk, 6);
  hg_mp_pack_kv_str(pk, "s", r->sandbox);
  hg_mp_pack_kv_str(pk, "f", r->from);
  hg_mp_pack_kv_u64(pk, "r", r->round);
  hg_mp_pack_kv_u64(pk, "x", r->refusal);
  hg_mp_pack_kv_i64(pk, "w", r->wait_ms);
  hg_mp_pack_str(pk, "p");
  msgpack_pack_map(pk, 4);
  pack_promise_fields(pk, &r->promise);
}

int hg_lease_batch_encode(const hg_lease_batch *b, hg_buf *out) {
  if (b->nreqs + b->nreps > HG_LEASE_BATCH_ITEMS) return -EINVAL;
  hg_mp_sink s;
  hg_mp_sink_init(&s, out);
  msgpack_pack_map(&s.pk, 3);
  hg_mp_pack_kv_str(&s.pk, "from", b->from);
  hg_mp_pack_str(&s.pk, "reqs");
  msgpack_pack_array(&s.pk, b->nreqs);
  for (size_t i = 0; i < b->nreqs; i++) pack_req(&s.pk, &b->reqs[i]);
  hg_mp_pack_str(&s.pk, "reps");
  msgpack_pack_array(&s.pk, b->nreps);
  for (size_t i = 0; i < b->nreps; i++) pack_reply(&s.pk, &b->reps[i]);
  return s.err;
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

static int unpack_conf(const msgpack_object *m, hg_lease_conf *c) {
  const msgpack_object *o = hg_mp_get(m, "c");
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

static int unpack_req(const msgpack_object *o, hg_lease_req *r) {
  uint64_t kind = 0;
  if (o->type != MSGPACK_OBJECT_MAP) return -EPROTO;
  int rc = want_u64(o, "k", HG_LEASE_CLAIM, &kind);
  if (rc == 0 && kind < HG_LEASE_RENEW) rc = -EPROTO;
  if (rc == 0) rc = want_str(o, "s", r->sandbox, sizeof r->sandbox);
  if (rc == 0) rc = want_str(o, "f", r->from, sizeof r->from);
  if (rc == 0) rc = want_u64(o, "e", UINT64_MAX, &r->epoch);
  if (rc == 0 && r->epoch == 0) rc = -EPROTO;
  if (rc == 0) rc = want_u64(o, "r", UINT64_MAX, &r->round);
  if (rc == 0) rc = want_bool(o, "d", &r->deleting);
  if (rc == 0) rc = unpack_conf(o, &r->conf);
  r->kind = (hg_lease_kind)kind;
  return rc;
}

static int unpack_reply(const msgpack_object *o, hg_lease_reply *r) {
  uint64_t why = 0;
  if (o->type != MSGPACK_OBJECT_MAP) return -EPROTO;
  int rc = want_str(o, "s", r->sandbox, sizeof r->sandbox);
  if (rc == 0) rc = want_str(o, "f", r->from, sizeof r->from);
  if (rc == 0) rc = want_u64(o, "r", UINT64_MAX, &r->round);
  if (rc == 0) rc = want_u64(o, "x", HG_LEASE_REMOVED, &why);
  if (rc == 0 && hg_mp_i64(o, "w", &r->wait_ms) < 0) rc = -EPROTO;
  if (rc == 0 && r->wait_ms < 0) rc = -EPROTO;
  const msgpack_object *p = hg_mp_get(o, "p");
  if (rc == 0 && (!p || p->type != MSGPACK_OBJECT_MAP)) rc = -EPROTO;
  if (rc == 0) rc = unpack_promise_fields(p, &r->promise);
  r->refusal = (hg_lease_refusal)why;
  return rc;
}

static const msgpack_object *want_array(const msgpack_object *m, const char *key) {
  const msgpack_object *a = hg_mp_get(m, key);
  return a && a->type == MSGPACK_OBJECT_ARRAY ? a : NULL;
}

static int decode(const msgpack_object *o, hg_lease_batch *b) {
  if (o->type != MSGPACK_OBJECT_MAP) return -EPROTO;
  const msgpack_object *reqs = want_array(o, "reqs"), *reps = want_array(o, "reps");
  if (want_str(o, "from", b->from, sizeof b->from) < 0 || !b->from[0] || !reqs || !reps)
    return -EPROTO;
  size_t nq = reqs->via.array.size, np = reps->via.array.size;
  if (nq + np > HG_LEASE_BATCH_ITEMS) return -EPROTO;
  if ((nq && !(b->reqs = calloc(nq, sizeof *b->reqs))) ||
      (np && !(b->reps = calloc(np, sizeof *b->reps))))
    return -ENOMEM;
  for (; b->nreqs < nq; b->nreqs++)
    if (unpack_req(&reqs->via.array.ptr[b->nreqs], &b->reqs[b->nreqs]) < 0)
      return -EPROTO;
  for (; b->nreps < np; b->nreps++)
    if (unpack_reply(&reps->via.array.ptr[b->nreps], &b->reps[b->nreps]) < 0)
      return -EPROTO;
  return 0;
}

int hg_lease_batch_decode(const void *data, size_t len, hg_lease_batch *out) {
  msgpack_unpacked u;
  if (hg_wire_unpack(data, len, &u) < 0) return -EPROTO;
  hg_lease_batch b = {0};
  int rc = decode(&u.data, &b);
  msgpack_unpacked_destroy(&u);
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
