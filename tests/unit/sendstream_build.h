/* sendstream_build: writes btrfs send streams (version 1) command by
 * command, each with its crc32c as the kernel frames it, for the tests of
 * the checker. Header-only; shared by test_sendstream.c and test_stream.c. */
#ifndef HG_TESTS_SENDSTREAM_BUILD_H
#define HG_TESTS_SENDSTREAM_BUILD_H

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

#endif
