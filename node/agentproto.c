#include "node/agentproto.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

/* Room for one whole frame plus one feed of at most HG_AGENT_MAX_FRAME bytes
 * (the caller drains frames between feeds). */
#define READER_MAX (2u * (HG_AGENT_MAX_FRAME + 4))

void hg_frame_reader_init(hg_frame_reader *r) {
  hg_buf_init(&r->in, READER_MAX);
  r->off = 0;
}

void hg_frame_reader_free(hg_frame_reader *r) {
  hg_buf_free(&r->in);
  r->off = 0;
}

void hg_frame_reader_reset(hg_frame_reader *r) {
  hg_buf_reset(&r->in);
  r->off = 0;
}

static uint32_t be32(const unsigned char *p) {
  return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
}

int hg_frame_reader_feed(hg_frame_reader *r, const void *data, size_t len) {
  /* Frames already taken are dropped here, once per feed, rather than once
   * per frame: many small frames in one read cost one memmove. */
  if (r->off) {
    hg_buf_consume(&r->in, r->off);
    r->off = 0;
  }
  int rc = hg_buf_append(&r->in, data, len);
  return rc == -ENOBUFS ? -EPROTO : rc;
}

/* For the type bytes 0xc0..0xdf: the payload size of fixed-size types, or,
 * negated, the width of the length that follows the type byte (str, bin,
 * ext, array, map). MP_BAD: 0xc1, never used. */
#define MP_BAD 99
static const signed char mp_sizes[32] = {
    0, MP_BAD, 0, 0, -1, -2, -4, -1, -2, -4, 4,  8,  1,  2,  4,  8,  /* c0..cf */
    1, 2,      4, 8, 2,  3,  5,  9,  17, -1, -2, -4, -2, -4, -2, -4, /* d0..df */
};

/* How many bytes the msgpack header at p (of avail bytes) takes, how many
 * objects (children) follow it, and how many payload bytes (*skip) of a
 * scalar, str, bin or ext. -1 when it is not valid msgpack or is cut short. */
static int mp_head(const unsigned char *p, size_t avail, size_t *hdr, uint64_t *children,
                   uint64_t *skip) {
  unsigned c = p[0];
  *children = *skip = 0;
  *hdr = 1;
  if (c <= 0x7f || c >= 0xe0) return 0; /* fixint */
  if (c <= 0xbf) {                      /* fixmap, fixarray, fixstr */
    if (c <= 0x8f)
      *children = 2u * (c & 0x0f);
    else if (c <= 0x9f)
      *children = c & 0x0f;
    else
      *skip = c & 0x1f;
    return 0;
  }
  int sz = mp_sizes[c - 0xc0];
  if (sz == MP_BAD) return -1;
  if (sz >= 0) {
    *skip = (uint64_t)sz;
    return 0;
  }
  size_t w = (size_t)-sz;
  if (avail < 1 + w) return -1;
  uint64_t n = 0;
  for (size_t i = 0; i < w; i++) n = n << 8 | p[1 + i];
  *hdr = 1 + w;
  if (c == 0xdc || c == 0xdd)
    *children = n;
  else if (c == 0xde || c == 0xdf)
    *children = 2 * n;
  else
    *skip = n + (c >= 0xc7 && c <= 0xc9); /* ext carries a type byte */
  return 0;
}

/* Containers nested deeper than this are refused (msgpack-c's own limit is
 * 32 and it reports passing it as out of memory); the protocol needs 3. */
#define MP_MAX_DEPTH 16

/* Walks the payload before msgpack-c sees it: exactly one map, nesting
 * bounded, every declared count backed by bytes. msgpack-c allocates room
 * for a container's declared size up front, so without this a 6-byte frame
 * could ask for gigabytes. Each object takes at least one byte, hence the
 * bound on pending (the sum of left[]). */
static int check_payload(const unsigned char *p, size_t n) {
  if ((p[0] & 0xf0) != 0x80 && p[0] != 0xde && p[0] != 0xdf) return -EPROTO;
  uint64_t left[MP_MAX_DEPTH + 1] = {1};
  uint64_t pending = 1;
  int depth = 0;
  size_t i = 0;
  while (pending > 0) {
    while (left[depth] == 0) depth--;
    if (i >= n || pending > n - i) return -EPROTO;
    size_t hdr;
    uint64_t children, skip;
    if (mp_head(p + i, n - i, &hdr, &children, &skip) < 0) return -EPROTO;
    left[depth]--;
    pending--;
    i += hdr;
    if (skip > n - i) return -EPROTO;
    i += (size_t)skip;
    if (children == 0) continue;
    if (depth == MP_MAX_DEPTH) return -EPROTO;
    left[++depth] = children;
    pending += children;
  }
  return i == n ? 0 : -EPROTO;
}

/* msgpack-c's strings and bins point into the bytes they were decoded from,
 * and the reader's buffer moves on the next feed: decode from a private copy
 * that the result's zone frees. */
static int unpack_copy(const char *data, size_t n, msgpack_unpacked *out) {
  char *copy = malloc(n);
  if (!copy) return -ENOMEM;
  memcpy(copy, data, n);
  msgpack_unpacked tmp;
  msgpack_unpacked_init(&tmp);
  size_t off = 0;
  msgpack_unpack_return ur = msgpack_unpack_next(&tmp, copy, n, &off);
  if (ur != MSGPACK_UNPACK_SUCCESS || off != n || tmp.data.type != MSGPACK_OBJECT_MAP) {
    msgpack_unpacked_destroy(&tmp);
    free(copy);
    return ur == MSGPACK_UNPACK_NOMEM_ERROR ? -ENOMEM : -EPROTO;
  }
  if (!tmp.zone) tmp.zone = msgpack_zone_new(256);
  if (!tmp.zone || !msgpack_zone_push_finalizer(tmp.zone, free, copy)) {
    msgpack_unpacked_destroy(&tmp);
    free(copy);
    return -ENOMEM;
  }
  *out = tmp;
  return 0;
}

int hg_frame_reader_next(hg_frame_reader *r, msgpack_unpacked *out) {
  size_t avail = r->in.len - r->off;
  if (avail < 4) return 0;
  const unsigned char *p = (const unsigned char *)r->in.data + r->off;
  uint32_t n = be32(p);
  if (n == 0 || n > HG_AGENT_MAX_FRAME) return -EPROTO;
  if (avail - 4 < n) return 0;
  int rc = check_payload(p + 4, n);
  if (rc == 0) rc = unpack_copy((const char *)p + 4, n, out);
  if (rc < 0) return rc;
  r->off += 4 + (size_t)n;
  return 1;
}

int hg_frame_encode(const msgpack_sbuffer *payload, hg_buf *out) {
  size_t n = payload->size;
  if (n == 0 || n > HG_AGENT_MAX_FRAME) return -EMSGSIZE;
  unsigned char hdr[4] = {(unsigned char)(n >> 24), (unsigned char)(n >> 16),
                          (unsigned char)(n >> 8), (unsigned char)n};
  /* Never leave half a frame queued: check room for all of it first. */
  if (out->len > out->max || out->max - out->len < sizeof hdr + n) return -ENOBUFS;
  int rc = hg_buf_append(out, hdr, sizeof hdr);
  return rc < 0 ? rc : hg_buf_append(out, payload->data, n);
}
