/* sendstream: checks a btrfs send stream as it arrives, before `btrfs
 * receive` sees a byte of it (DESIGN §10: every byte from a peer is
 * hostile, and the MAC only says which peer sent it).
 *
 * The format (btrfs-progs Documentation/dev/dev-send-stream): a header
 * "btrfs-stream\0" + u32 LE version (1..3), then commands, each
 *   u32 LE payload length | u16 LE command | u32 LE crc32c | payload
 * where the crc32c (seed 0, no final inversion, as the kernel computes it)
 * covers the 10-byte header with its crc field zeroed and the payload. The
 * stream ends with the END command (21), after which nothing may follow.
 *
 * Pure and streaming: feed any split of the bytes. */
#ifndef HG_REPL_SENDSTREAM_H
#define HG_REPL_SENDSTREAM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "node/core/crc32c.h"

#define HG_SENDSTREAM_CMD_MAX (16u << 20) /* payload bytes of one command, at most */

typedef struct hg_sendstream_check {
  uint8_t hdr[17];       /* the stream header, then each command's header */
  size_t have;           /* bytes of hdr gathered */
  bool header_done;
  uint32_t left;         /* payload bytes of the current command still to come */
  uint32_t crc, want;    /* running and expected crc32c of the current command */
  bool in_payload;
  bool ended;            /* END seen */
  uint64_t commands;
  char err[128];
} hg_sendstream_check;

void hg_sendstream_check_init(hg_sendstream_check *c);
/* -EPROTO (err says why) at the first byte that is not a valid stream. */
int hg_sendstream_check_feed(hg_sendstream_check *c, const void *data, size_t len);
/* At the end of input: -EPROTO unless the stream ended with END. */
int hg_sendstream_check_end(hg_sendstream_check *c);


#endif
