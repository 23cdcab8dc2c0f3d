/* sendstream: the btrfs send stream checker (see sendstream.h). */
#include "replication/sendstream.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#define SS_MAGIC "btrfs-stream"
#define SS_HEADER 17   /* magic with its NUL, u32 version */
#define SS_CMD_HDR 10  /* u32 len, u16 cmd, u32 crc */
#define SS_CMD_END 21
#define SS_VERSION_MAX 3

static uint32_t le32(const uint8_t *p) {
  return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

static int bad(hg_sendstream_check *c, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(c->err, sizeof c->err, fmt, ap);
  va_end(ap);
  return -EPROTO;
}

void hg_sendstream_check_init(hg_sendstream_check *c) {
  memset(c, 0, sizeof *c);
}

static int header_done(hg_sendstream_check *c) {
  uint32_t version = le32(c->hdr + sizeof SS_MAGIC);
  if (memcmp(c->hdr, SS_MAGIC, sizeof SS_MAGIC) != 0) return bad(c, "not a btrfs send stream");
  if (version < 1 || version > SS_VERSION_MAX)
    return bad(c, "send stream version %u is not supported", version);
  c->header_done = true;
  c->have = 0;
  return 0;
}

/* A command header is whole: check it, start its payload. */
static int command_start(hg_sendstream_check *c) {
  uint32_t len = le32(c->hdr);
  uint16_t cmd = (uint16_t)(c->hdr[4] | c->hdr[5] << 8);
  if (c->ended) return bad(c, "data after the END command");
  if (len > HG_SENDSTREAM_CMD_MAX)
    return bad(c, "command %llu is %u bytes long", (unsigned long long)c->commands, len);
  c->want = le32(c->hdr + 6);
  memset(c->hdr + 6, 0, 4);
  c->crc = hg_crc32c(0, c->hdr, SS_CMD_HDR);
  c->left = len;
  c->in_payload = true;
  c->have = 0;
  if (cmd == SS_CMD_END) c->ended = true;
  return 0;
}

static int command_end(hg_sendstream_check *c) {
  c->in_payload = false;
  if (c->crc != c->want)
    return bad(c, "crc32c mismatch in command %llu", (unsigned long long)c->commands);
  c->commands++;
  return 0;
}

int hg_sendstream_check_feed(hg_sendstream_check *c, const void *data, size_t len) {
  const uint8_t *p = data;
  if (c->err[0]) return -EPROTO;
  while (len) {
    if (c->in_payload) {
      size_t n = len < c->left ? len : c->left;
      c->crc = hg_crc32c(c->crc, p, n);
      c->left -= (uint32_t)n;
      p += n;
      len -= n;
      if (c->left == 0 && command_end(c) < 0) return -EPROTO;
      continue;
    }
    size_t want = c->header_done ? SS_CMD_HDR : SS_HEADER;
    size_t n = want - c->have < len ? want - c->have : len;
    memcpy(c->hdr + c->have, p, n);
    c->have += n;
    p += n;
    len -= n;
    if (c->have < want) break;
    int rc = c->header_done ? command_start(c) : header_done(c);
    if (rc < 0) return rc;
    if (c->in_payload && c->left == 0 && command_end(c) < 0) return -EPROTO;
  }
  return 0;
}

int hg_sendstream_check_end(hg_sendstream_check *c) {
  if (c->err[0]) return -EPROTO;
  if (!c->ended || c->in_payload || c->have) return bad(c, "send stream truncated");
  return 0;
}
