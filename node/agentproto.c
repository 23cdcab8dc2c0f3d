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

/* How many bytes the msgpack header at p (of avail bytes) takes, and how
 * many more objects (children) follow it; the payload length of str/bin/ext
 * goes to *skip. -1 when the byte is not valid msgpack or is cut short. */
static int mp_head(const unsigned char *p, size_t avail, size_t *hdr,
                   uint64_t *children, uint64_t *skip) {
  unsigned c = p[0];
  size_t w = 0; /* width of a length field following the type byte */
  *children = 0;
  *skip = 0;
  *hdr = 1;
  if (c <= 0x7f || c >= 0xe0 || c == 0xc0 || c == 0xc2 || c == 0xc3) return 0;
  if (c >= 0x80 && c <= 0x8f) { *children = 2u * (c & 0x0f); return 0; }
  if (c >= 0x90 && c <= 0x9f) { *children = c & 0x0f; return 0; }
  if (c >= 0xa0 && c <= 0xbf) { *skip = c & 0x1f; return 0; }
  switch (c) {
  case 0xcc: case 0xd0: *skip = 1; return 0;
  case 0xcd: case 0xd1: *skip = 2; return 0;
  case 0xca: case 0xce: case 0xd2: *skip = 4; return 0;
  case 0xcb: case 0xcf: case 0xd3: *skip = 8; return 0;
  case 0xd4: *skip = 2; return 0;  /* fixext: type byte + data */
  case 0xd5: *skip = 3; return 0;
  case 0xd6: *skip = 5; return 0;
  case 0xd7: *skip = 9; return 0;
  case 0xd8: *skip = 17; return 0;
  case 0xc4: case 0xd9: case 0xc7: w = 1; break;
  case 0xc5: case 0xda: case 0xc8: case 0xdc: case 0xde: w = 2; break;
  case 0xc6: case 0xdb: case 0xc9: case 0xdd: case 0xdf: w = 4; break;
  default: return -1; /* 0xc1: never used */
  }
  if (avail < 1 + w) return -1;
  uint64_t n = 0;
  for (size_t i = 0; i < w; i++) n = n << 8 | p[1 + i];
  *hdr = 1 + w;
  if (c == 0xdc || c == 0xdd) *children = n;
  else if (c == 0xde || c == 0xdf) *children = 2 * n;
  else *skip = n + (c >= 0xc7 && c <= 0xc9); /* ext carries a type byte */
  return 0;
}

/* Walks the payload before msgpack-c sees it: exactly one object, every
 * declared count backed by bytes. msgpack-c allocates room for an array's
 * declared size up front, so without this a 6-byte frame could ask for
 * gigabytes. Each object takes at least one byte, hence the bound. */
static int check_payload(const unsigned char *p, size_t n) {
  if ((p[0] & 0xf0) != 0x80 && p[0] != 0xde && p[0] != 0xdf) return -EPROTO;
  uint64_t pending = 1;
  size_t i = 0;
  while (pending > 0) {
    if (i >= n || pending > n - i) return -EPROTO;
    size_t hdr;
    uint64_t children, skip;
    if (mp_head(p + i, n - i, &hdr, &children, &skip) < 0) return -EPROTO;
    i += hdr;
    if (skip > n - i) return -EPROTO;
    i += (size_t)skip;
    pending = pending - 1 + children;
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
  if (ur != MSGPACK_UNPACK_SUCCESS || off != n ||
      tmp.data.type != MSGPACK_OBJECT_MAP) {
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
