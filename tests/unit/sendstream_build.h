/* sendstream_build: writes btrfs send streams (version 1) command by
 * command, each with its crc32c as the kernel frames it, and edits real
 * ones, for the tests of the checker. Header-only; shared by
 * test_sendstream.c, test_stream.c and it_replication.c. */
#ifndef HG_TESTS_SENDSTREAM_BUILD_H
#define HG_TESTS_SENDSTREAM_BUILD_H

#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include "node/core/crc32c.h"

#define SB_CAP (1u << 18)

typedef struct sb {
  uint8_t b[SB_CAP];
  size_t len;
  size_t cmd_at; /* where the open command starts */
} sb;

static inline void sb_le(uint8_t *p, uint64_t v, int n) {
  for (int i = 0; i < n; i++) p[i] = (uint8_t)(v >> (8 * i));
}

static inline void sb_header(sb *s, uint32_t version) {
  memcpy(s->b, "btrfs-stream", 13);
  sb_le(s->b + 13, version, 4);
  s->len = 17;
  s->cmd_at = 0;
}

/* Closes the open command: its length, then its crc. */
static inline void sb_end_cmd(sb *s) {
  if (!s->cmd_at) return;
  uint8_t *h = s->b + s->cmd_at;
  sb_le(h, s->len - s->cmd_at - 10, 4);
  memset(h + 6, 0, 4);
  sb_le(h + 6, hg_crc32c(0, h, s->len - s->cmd_at), 4);
  s->cmd_at = 0;
}

static inline void sb_cmd(sb *s, uint16_t cmd) {
  sb_end_cmd(s);
  s->cmd_at = s->len;
  memset(s->b + s->len, 0, 10);
  sb_le(s->b + s->len + 4, cmd, 2);
  s->len += 10;
}

static inline void sb_attr(sb *s, uint16_t type, const void *v, uint16_t len) {
  sb_le(s->b + s->len, type, 2);
  sb_le(s->b + s->len + 2, len, 2);
  memcpy(s->b + s->len + 4, v, len);
  s->len += 4u + len;
}

static inline void sb_str(sb *s, uint16_t type, const char *v) {
  sb_attr(s, type, v, (uint16_t)strlen(v));
}

static inline void sb_u64(sb *s, uint16_t type, uint64_t v) {
  uint8_t b[8];
  sb_le(b, v, 8);
  sb_attr(s, type, b, 8);
}

/* Ends the stream with END and closes it. */
static inline size_t sb_finish(sb *s) {
  sb_cmd(s, 21);
  sb_end_cmd(s);
  return s->len;
}

/* Rewrites one attribute of a command: false keeps it, true replaces its
 * value with nv[0..*nlen). */
typedef bool (*sb_edit_fn)(void *ud, uint16_t cmd, uint16_t type, const uint8_t *v,
                           uint16_t len, uint8_t *nv, uint16_t *nlen);

static inline uint32_t sb_get(const uint8_t *p, int n) {
  uint32_t v = 0;
  for (int i = n - 1; i >= 0; i--) v = v << 8 | p[i];
  return v;
}

/* A whole send stream in, through fn, into out (room for len plus 64 KiB
 * per edited attribute's growth): every command's length and crc32c
 * recomputed, so only rules beyond the crc can tell. The new length, 0 for
 * a stream that does not parse. */
static inline size_t sb_edit(const uint8_t *in, size_t len, uint8_t *out, sb_edit_fn fn,
                             void *ud) {
  static uint8_t nv[65536];
  if (len < 17) return 0;
  memcpy(out, in, 17);
  size_t at = 17, w = 17;
  while (at + 10 <= len) {
    uint32_t clen = sb_get(in + at, 4);
    uint16_t cmd = (uint16_t)sb_get(in + at + 4, 2);
    size_t start = w;
    if (clen > len - at - 10) return 0;
    memcpy(out + w, in + at, 10);
    w += 10;
    for (size_t p = at + 10; p + 4 <= at + 10 + clen;) {
      uint16_t type = (uint16_t)sb_get(in + p, 2), alen = (uint16_t)sb_get(in + p + 2, 2);
      uint16_t nlen = 0, keep = alen;
      const uint8_t *v = in + p + 4;
      if (fn(ud, cmd, type, v, alen, nv, &nlen)) v = nv, alen = nlen;
      sb_le(out + w, type, 2);
      sb_le(out + w + 2, alen, 2);
      memmove(out + w + 4, v, alen);
      w += 4u + alen;
      p += 4u + keep;
    }
    sb_le(out + start, w - start - 10, 4);
    memset(out + start + 6, 0, 4);
    sb_le(out + start + 6, hg_crc32c(0, out + start, w - start), 4);
    at += 10 + clen;
  }
  return at == len ? w : 0;
}

#endif
