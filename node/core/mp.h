/* mp: typed lookups in msgpack maps and small packing helpers, so decoders
 * of outside bytes check every type instead of trusting it.
 * Getters return 0, -ENOENT (key absent) or -EPROTO (wrong type). */
#ifndef HG_CORE_MP_H
#define HG_CORE_MP_H

#include <msgpack.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "node/core/buf.h"

const msgpack_object *hg_mp_get(const msgpack_object *map, const char *key);
int hg_mp_u64(const msgpack_object *map, const char *key, uint64_t *out);
int hg_mp_i64(const msgpack_object *map, const char *key, int64_t *out);
int hg_mp_bool(const msgpack_object *map, const char *key, bool *out);
/* Strings and bins point into the unpacked object; not NUL-terminated. */
int hg_mp_str(const msgpack_object *map, const char *key, const char **ptr, size_t *len);
int hg_mp_bin(const msgpack_object *map, const char *key, const char **ptr, size_t *len);
/* Copies a string into out (NUL-terminated); -ENAMETOOLONG if it does not fit,
 * -EPROTO if it holds a NUL byte. */
int hg_mp_strcpy(const msgpack_object *map, const char *key, char *out, size_t cap);

/* A packer that appends to an hg_buf and keeps the first error (msgpack-c's
 * pack calls return nothing a caller checks): pack into s->pk, then look at
 * s->err (0, or what hg_buf_append said). */
typedef struct hg_mp_sink {
  msgpack_packer pk;
  hg_buf *b;
  int err;
} hg_mp_sink;
void hg_mp_sink_init(hg_mp_sink *s, hg_buf *b);

void hg_mp_pack_str(msgpack_packer *pk, const char *s);
void hg_mp_pack_strn(msgpack_packer *pk, const char *s, size_t len);
void hg_mp_pack_bin(msgpack_packer *pk, const void *data, size_t len);
void hg_mp_pack_kv_str(msgpack_packer *pk, const char *key, const char *val);
void hg_mp_pack_kv_u64(msgpack_packer *pk, const char *key, uint64_t val);
void hg_mp_pack_kv_i64(msgpack_packer *pk, const char *key, int64_t val);
void hg_mp_pack_kv_bool(msgpack_packer *pk, const char *key, bool val);
void hg_mp_pack_kv_bin(msgpack_packer *pk, const char *key, const void *data, size_t len);

#endif
