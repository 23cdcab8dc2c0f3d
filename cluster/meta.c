/* meta: msgpack codecs of a node's metadata and of a directory entry.
 *
 * Both are maps with short keys (node meta rides in every alive message):
 * node:   i id  a api_addr  g gossip_addr  r repl_addr  z zone  dr draining
 *         vk vmm_kind  vv vmm_version  cc cpu_class  ct/cu vcpus total/used
 *         mt/mu memory total/used MiB  df disk_free_mib  sm max_sandboxes
 *         sr/sp/ss/st sandboxes running/paused/suspended/total
 *         tp [template…]  lb [label…]  ms updated_ms
 * dirent: sb sandbox  o owner  e epoch  v version  s state  tr template_ref
 *         g gen  h [holder…]  ms updated_ms
 * The encoder writes every key and the decoder requires every key, checks
 * its type and range, and ignores keys it does not know. */
#include "cluster/meta.h"

#include <errno.h>
#include <msgpack.h>
#include <string.h>

#include "node/core/ident.h"
#include "node/core/mp.h"

/* msgpack-c writes through a callback; this one fills a fixed buffer and
 * keeps the first error. */
typedef struct fixed_sink {
  uint8_t *p;
  size_t len, cap;
  int err;
} fixed_sink;

static int fixed_write(void *data, const char *buf, size_t len) {
  fixed_sink *s = data;
  if (s->err) return -1;
  if (len > s->cap - s->len) {
    s->err = -ENOBUFS;
    return -1;
  }
  memcpy(s->p + s->len, buf, len);
  s->len += len;
  return 0;
}

static bool str_ok(const char *s, size_t cap) {
  return strnlen(s, cap) < cap;
}

static void pack_strs(msgpack_packer *pk, const char *key, const char *strs,
                      size_t stride, unsigned n) {
  hg_mp_pack_str(pk, key);
  msgpack_pack_array(pk, n);
  for (unsigned i = 0; i < n; i++) hg_mp_pack_str(pk, strs + i * stride);
}

/* ---- decode helpers: every failure is -EPROTO ---- */

static int want_u64(const msgpack_object *map, const char *key, uint64_t max,
                    uint64_t *out) {
  uint64_t v;
  if (hg_mp_u64(map, key, &v) < 0 || v > max) return -EPROTO;
  *out = v;
  return 0;
}

static int want_u32(const msgpack_object *map, const char *key, uint32_t *out) {
  uint64_t v;
  if (want_u64(map, key, UINT32_MAX, &v) < 0) return -EPROTO;
  *out = (uint32_t)v;
  return 0;
}

static int want_str(const msgpack_object *map, const char *key, char *out, size_t cap) {
  return hg_mp_strcpy(map, key, out, cap) < 0 ? -EPROTO : 0;
}

/* An array of at most max strings, each copied into out + i * stride. */
static int want_strs(const msgpack_object *map, const char *key, char *out, size_t stride,
                     unsigned max, unsigned *n) {
  const msgpack_object *a = hg_mp_get(map, key);
  if (!a || a->type != MSGPACK_OBJECT_ARRAY || a->via.array.size > max) return -EPROTO;
  for (uint32_t i = 0; i < a->via.array.size; i++) {
    const msgpack_object *o = &a->via.array.ptr[i];
    if (o->type != MSGPACK_OBJECT_STR || o->via.str.size >= stride ||
        memchr(o->via.str.ptr, '\0', o->via.str.size))
      return -EPROTO;
    memcpy(out + i * stride, o->via.str.ptr, o->via.str.size);
    out[i * stride + o->via.str.size] = '\0';
  }
  *n = a->via.array.size;
  return 0;
}

/* ---- node metadata ---- */

static bool meta_ok(const hg_node_meta *m) {
  if (!str_ok(m->id, sizeof m->id) || !m->id[0] ||
      !str_ok(m->api_addr, sizeof m->api_addr) ||
      !str_ok(m->gossip_addr, sizeof m->gossip_addr) ||
      !str_ok(m->repl_addr, sizeof m->repl_addr) || !str_ok(m->zone, sizeof m->zone) ||
      !str_ok(m->vmm_kind, sizeof m->vmm_kind) ||
      !str_ok(m->vmm_version, sizeof m->vmm_version) ||
      !str_ok(m->cpu_class, sizeof m->cpu_class) || m->ntemplates > HG_META_TEMPLATES ||
      m->nlabels > HG_META_LABELS)
    return false;
  for (unsigned i = 0; i < m->ntemplates; i++)
    if (!str_ok(m->templates[i], HG_META_NAME_MAX)) return false;
  for (unsigned i = 0; i < m->nlabels; i++)
    if (!str_ok(m->labels[i], HG_META_NAME_MAX)) return false;
  return true;
}

int hg_node_meta_encode(const hg_node_meta *m, uint8_t *out, size_t cap, size_t *len) {
  if (!meta_ok(m)) return -EINVAL;
  /* it rides in alive messages: never more than HG_WIRE_META_MAX */
  fixed_sink s = {out, 0, cap < HG_WIRE_META_MAX ? cap : HG_WIRE_META_MAX, 0};
  msgpack_packer pk;
  msgpack_packer_init(&pk, &s, fixed_write);
  msgpack_pack_map(&pk, 22);
  hg_mp_pack_kv_str(&pk, "i", m->id);
  hg_mp_pack_kv_str(&pk, "a", m->api_addr);
  hg_mp_pack_kv_str(&pk, "g", m->gossip_addr);
  hg_mp_pack_kv_str(&pk, "r", m->repl_addr);
  hg_mp_pack_kv_str(&pk, "z", m->zone);
  hg_mp_pack_kv_bool(&pk, "dr", m->draining);
  hg_mp_pack_kv_str(&pk, "vk", m->vmm_kind);
  hg_mp_pack_kv_str(&pk, "vv", m->vmm_version);
  hg_mp_pack_kv_str(&pk, "cc", m->cpu_class);
  hg_mp_pack_kv_u64(&pk, "ct", m->vcpus_total);
  hg_mp_pack_kv_u64(&pk, "cu", m->vcpus_used);
  hg_mp_pack_kv_u64(&pk, "mt", m->memory_total_mib);
  hg_mp_pack_kv_u64(&pk, "mu", m->memory_used_mib);
  hg_mp_pack_kv_u64(&pk, "df", m->disk_free_mib);
  hg_mp_pack_kv_u64(&pk, "sm", m->max_sandboxes);
  hg_mp_pack_kv_u64(&pk, "sr", m->sandboxes_running);
  hg_mp_pack_kv_u64(&pk, "sp", m->sandboxes_paused);
  hg_mp_pack_kv_u64(&pk, "ss", m->sandboxes_suspended);
  hg_mp_pack_kv_u64(&pk, "st", m->sandboxes_total);
  pack_strs(&pk, "tp", (const char *)m->templates, HG_META_NAME_MAX, m->ntemplates);
  pack_strs(&pk, "lb", (const char *)m->labels, HG_META_NAME_MAX, m->nlabels);
  hg_mp_pack_kv_i64(&pk, "ms", m->updated_ms);
  if (s.err) return s.err;
  *len = s.len;
  return 0;
}

static int decode_meta(const msgpack_object *o, hg_node_meta *m) {
  if (o->type != MSGPACK_OBJECT_MAP || want_str(o, "i", m->id, sizeof m->id) < 0 ||
      !hg_node_id_valid(m->id) || want_str(o, "a", m->api_addr, sizeof m->api_addr) < 0 ||
      want_str(o, "g", m->gossip_addr, sizeof m->gossip_addr) < 0 ||
      want_str(o, "r", m->repl_addr, sizeof m->repl_addr) < 0 ||
      want_str(o, "z", m->zone, sizeof m->zone) < 0 ||
      hg_mp_bool(o, "dr", &m->draining) < 0 ||
      want_str(o, "vk", m->vmm_kind, sizeof m->vmm_kind) < 0 ||
      want_str(o, "vv", m->vmm_version, sizeof m->vmm_version) < 0 ||
      want_str(o, "cc", m->cpu_class, sizeof m->cpu_class) < 0 ||
      want_u32(o, "ct", &m->vcpus_total) < 0 || want_u32(o, "cu", &m->vcpus_used) < 0 ||
      want_u64(o, "mt", UINT64_MAX, &m->memory_total_mib) < 0 ||
      want_u64(o, "mu", UINT64_MAX, &m->memory_used_mib) < 0 ||
      want_u64(o, "df", UINT64_MAX, &m->disk_free_mib) < 0 ||
      want_u32(o, "sm", &m->max_sandboxes) < 0 ||
      want_u32(o, "sr", &m->sandboxes_running) < 0 ||
      want_u32(o, "sp", &m->sandboxes_paused) < 0 ||
      want_u32(o, "ss", &m->sandboxes_suspended) < 0 ||
      want_u32(o, "st", &m->sandboxes_total) < 0 ||
      want_strs(o, "tp", (char *)m->templates, HG_META_NAME_MAX, HG_META_TEMPLATES,
                &m->ntemplates) < 0 ||
      want_strs(o, "lb", (char *)m->labels, HG_META_NAME_MAX, HG_META_LABELS,
                &m->nlabels) < 0 ||
      hg_mp_i64(o, "ms", &m->updated_ms) < 0)
    return -EPROTO;
  return 0;
}

int hg_node_meta_decode(const void *data, size_t len, hg_node_meta *out) {
  if (len > HG_WIRE_META_MAX) return -EPROTO;
  msgpack_unpacked u;
  int rc = hg_wire_unpack(data, len, &u);
  if (rc < 0) return rc;
  hg_node_meta m;
  memset(&m, 0, sizeof m);
  rc = decode_meta(&u.data, &m);
  msgpack_unpacked_destroy(&u);
  if (rc < 0) return rc;
  *out = m;
  return 0;
}

/* ---- directory entry ---- */

static bool dirent_ok(const hg_dirent *e) {
  if (!str_ok(e->sandbox, sizeof e->sandbox) || !e->sandbox[0] ||
      !str_ok(e->owner, sizeof e->owner) || !str_ok(e->state, sizeof e->state) ||
      !str_ok(e->template_ref, sizeof e->template_ref) || e->nholders > HG_DIR_HOLDERS)
    return false;
  for (unsigned i = 0; i < e->nholders; i++)
    if (!str_ok(e->holders[i], HG_NODE_ID_MAX)) return false;
  return true;
}

int hg_dirent_encode(const hg_dirent *e, uint8_t *out, size_t cap, size_t *len) {
  if (!dirent_ok(e)) return -EINVAL;
  /* it rides as one user broadcast (always fits: < 800 bytes at most) */
  fixed_sink s = {out, 0, cap < HG_WIRE_USER_MAX ? cap : HG_WIRE_USER_MAX, 0};
  msgpack_packer pk;
  msgpack_packer_init(&pk, &s, fixed_write);
  msgpack_pack_map(&pk, 9);
  hg_mp_pack_kv_str(&pk, "sb", e->sandbox);
  hg_mp_pack_kv_str(&pk, "o", e->owner);
  hg_mp_pack_kv_u64(&pk, "e", e->epoch);
  hg_mp_pack_kv_u64(&pk, "v", e->version);
  hg_mp_pack_kv_str(&pk, "s", e->state);
  hg_mp_pack_kv_str(&pk, "tr", e->template_ref);
  hg_mp_pack_kv_u64(&pk, "g", e->gen);
  pack_strs(&pk, "h", (const char *)e->holders, HG_NODE_ID_MAX, e->nholders);
  hg_mp_pack_kv_i64(&pk, "ms", e->updated_ms);
  if (s.err) return s.err;
  *len = s.len;
  return 0;
}

static int decode_dirent(const msgpack_object *o, hg_dirent *e) {
  if (o->type != MSGPACK_OBJECT_MAP ||
      want_str(o, "sb", e->sandbox, sizeof e->sandbox) < 0 || !e->sandbox[0] ||
      want_str(o, "o", e->owner, sizeof e->owner) < 0 ||
      want_u64(o, "e", UINT64_MAX, &e->epoch) < 0 ||
      want_u64(o, "v", UINT64_MAX, &e->version) < 0 ||
      want_str(o, "s", e->state, sizeof e->state) < 0 ||
      want_str(o, "tr", e->template_ref, sizeof e->template_ref) < 0 ||
      want_u64(o, "g", UINT64_MAX, &e->gen) < 0 ||
      want_strs(o, "h", (char *)e->holders, HG_NODE_ID_MAX, HG_DIR_HOLDERS,
                &e->nholders) < 0 ||
      hg_mp_i64(o, "ms", &e->updated_ms) < 0)
    return -EPROTO;
  /* node ids from a peer, later in headers and paths: the grammar, not
   * just the length */
  if (e->owner[0] && !hg_node_id_valid(e->owner)) return -EPROTO;
  for (size_t i = 0; i < e->nholders; i++)
    if (!hg_node_id_valid(e->holders[i])) return -EPROTO;
  return 0;
}

int hg_dirent_decode(const void *data, size_t len, hg_dirent *out) {
  if (len > HG_WIRE_USER_MAX) return -EPROTO;
  msgpack_unpacked u;
  int rc = hg_wire_unpack(data, len, &u);
  if (rc < 0) return rc;
  hg_dirent e;
  memset(&e, 0, sizeof e);
  rc = decode_dirent(&u.data, &e);
  msgpack_unpacked_destroy(&u);
  if (rc < 0) return rc;
  *out = e;
  return 0;
}

int hg_dirent_cmp(const hg_dirent *a, const hg_dirent *b) {
  if (a->epoch != b->epoch) return a->epoch > b->epoch ? 1 : -1;
  if (a->version != b->version) return a->version > b->version ? 1 : -1;
  return 0;
}
