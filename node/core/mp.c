#include "node/core/mp.h"

#include <errno.h>
#include <string.h>

const msgpack_object *hg_mp_get(const msgpack_object *map, const char *key) {
  if (!map || map->type != MSGPACK_OBJECT_MAP) return NULL;
  size_t kl = strlen(key);
  for (uint32_t i = 0; i < map->via.map.size; i++) {
    const msgpack_object *k = &map->via.map.ptr[i].key;
    if (k->type == MSGPACK_OBJECT_STR && k->via.str.size == kl &&
        memcmp(k->via.str.ptr, key, kl) == 0)
      return &map->via.map.ptr[i].val;
  }
  return NULL;
}

int hg_mp_u64(const msgpack_object *map, const char *key, uint64_t *out) {
  const msgpack_object *v = hg_mp_get(map, key);
  if (!v) return -ENOENT;
  if (v->type != MSGPACK_OBJECT_POSITIVE_INTEGER) return -EPROTO;
  *out = v->via.u64;
  return 0;
}

int hg_mp_i64(const msgpack_object *map, const char *key, int64_t *out) {
  const msgpack_object *v = hg_mp_get(map, key);
  if (!v) return -ENOENT;
  if (v->type == MSGPACK_OBJECT_NEGATIVE_INTEGER) {
    *out = v->via.i64;
    return 0;
  }
  if (v->type != MSGPACK_OBJECT_POSITIVE_INTEGER || v->via.u64 > INT64_MAX)
    return -EPROTO;
  *out = (int64_t)v->via.u64;
  return 0;
}

int hg_mp_bool(const msgpack_object *map, const char *key, bool *out) {
  const msgpack_object *v = hg_mp_get(map, key);
  if (!v) return -ENOENT;
  if (v->type != MSGPACK_OBJECT_BOOLEAN) return -EPROTO;
  *out = v->via.boolean;
  return 0;
}

int hg_mp_str(const msgpack_object *map, const char *key, const char **ptr,
              size_t *len) {
  const msgpack_object *v = hg_mp_get(map, key);
  if (!v) return -ENOENT;
  if (v->type != MSGPACK_OBJECT_STR) return -EPROTO;
  *ptr = v->via.str.ptr;
  *len = v->via.str.size;
  return 0;
}

int hg_mp_bin(const msgpack_object *map, const char *key, const char **ptr,
              size_t *len) {
  const msgpack_object *v = hg_mp_get(map, key);
  if (!v) return -ENOENT;
  if (v->type != MSGPACK_OBJECT_BIN && v->type != MSGPACK_OBJECT_STR)
    return -EPROTO;
  *ptr = v->via.bin.ptr;
  *len = v->via.bin.size;
  return 0;
}

int hg_mp_strcpy(const msgpack_object *map, const char *key, char *out,
                 size_t cap) {
  const char *p;
  size_t len;
  int rc = hg_mp_str(map, key, &p, &len);
  if (rc < 0) return rc;
  if (len >= cap) return -ENAMETOOLONG;
  if (memchr(p, '\0', len)) return -EPROTO;
  memcpy(out, p, len);
  out[len] = '\0';
  return 0;
}

void hg_mp_pack_strn(msgpack_packer *pk, const char *s, size_t len) {
  msgpack_pack_str(pk, len);
  msgpack_pack_str_body(pk, s, len);
}

static int sink_write(void *data, const char *buf, size_t len) {
  hg_mp_sink *s = data;
  if (s->err) return -1;
  int rc = hg_buf_append(s->b, buf, len);
  if (rc < 0) s->err = rc;
  return rc < 0 ? -1 : 0;
}

void hg_mp_sink_init(hg_mp_sink *s, hg_buf *b) {
  s->b = b;
  s->err = 0;
  msgpack_packer_init(&s->pk, s, sink_write);
}

void hg_mp_pack_str(msgpack_packer *pk, const char *s) {
  hg_mp_pack_strn(pk, s, strlen(s));
}

void hg_mp_pack_bin(msgpack_packer *pk, const void *data, size_t len) {
  msgpack_pack_bin(pk, len);
  msgpack_pack_bin_body(pk, data, len);
}

void hg_mp_pack_kv_str(msgpack_packer *pk, const char *key, const char *val) {
  hg_mp_pack_str(pk, key);
  hg_mp_pack_str(pk, val);
}

void hg_mp_pack_kv_u64(msgpack_packer *pk, const char *key, uint64_t val) {
  hg_mp_pack_str(pk, key);
  msgpack_pack_uint64(pk, val);
}

void hg_mp_pack_kv_i64(msgpack_packer *pk, const char *key, int64_t val) {
  hg_mp_pack_str(pk, key);
  msgpack_pack_int64(pk, val);
}

void hg_mp_pack_kv_bool(msgpack_packer *pk, const char *key, bool val) {
  hg_mp_pack_str(pk, key);
  if (val)
    msgpack_pack_true(pk);
  else
    msgpack_pack_false(pk);
}

void hg_mp_pack_kv_bin(msgpack_packer *pk, const char *key, const void *data,
                       size_t len) {
  hg_mp_pack_str(pk, key);
  hg_mp_pack_bin(pk, data, len);
}
