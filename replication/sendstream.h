/* sendstream: checks a btrfs send stream as it arrives and lets through
 * only whole commands it has checked (DESIGN §10: every byte from a peer is
 * hostile, and the MAC only says which peer sent it; a peer can be
 * compromised).
 *
 * The format (btrfs-progs Documentation/dev/dev-send-stream, kernel
 * fs/btrfs/send.h): a header "btrfs-stream\0" + u32 LE version, then
 * commands, each
 *   u32 LE payload length | u16 LE command | u32 LE crc32c | payload
 * where the crc32c (seed 0, no final inversion, as the kernel computes it)
 * covers the 10-byte header with its crc field zeroed and the payload. The
 * payload is TLVs: u16 LE type | u16 LE length | value. The stream ends with
 * the END command (21), after which nothing may follow.
 *
 * Only version 1 is accepted: hangar's sender (BTRFS_IOC_SEND without
 * BTRFS_SEND_FLAG_VERSION) emits nothing else, and version 2 would add
 * encoded writes (compressed extents written as they are) to what a peer
 * can make the receiver do.
 *
 * `btrfs receive` applies each command as soon as it has read it, so a
 * command is handed to emit() only once all of it is here and checked: the
 * receiver never sees a byte of a refused command. What is refused:
 *   - anything but exactly one SUBVOL or SNAPSHOT, first; a subvolume name
 *     that is empty, ".", "..", holds '/' or NUL, or is not the one
 *     expected; a stream uuid that is not the offered one;
 *   - SNAPSHOT whose source is not the agreed parent, or any SNAPSHOT when
 *     none was agreed; CLONE from anything but the stream's own subvolume
 *     or the agreed parent (btrfs receive looks sources up by uuid across
 *     the whole filesystem: another tenant's subvolume is one uuid away);
 *     the ctransid a CLONE names must be the one its source was announced
 *     with (the uuid is what btrfs receive goes by, the ctransid is the
 *     sender's own counter and cannot be checked across nodes);
 *   - paths (PATH, PATH_TO, PATH_LINK, CLONE_PATH) that are absolute, have
 *     empty, "." or ".." components, a NUL, or are longer than PATH_MAX-1;
 *     an empty path is the subvolume's root, allowed only where it is
 *     harmless (chmod, chown, utimes, xattrs);
 *   - symlink targets that are absolute or contain "..": a replica never
 *     needs a link out of its own tree, and one that stays inside it
 *     cannot lead a later stream (whose parent this becomes) outside;
 *   - any path that goes through a symlink this stream made (followed
 *     through renames and hard links), and the calls that follow a final
 *     symlink (write, clone, truncate, chmod) on one;
 *   - device nodes (MKNOD): a sandbox holds none;
 *   - commands and attributes the format does not define, an attribute
 *     twice in one command (btrfs receive would take the last one, a
 *     checker the first), a required attribute missing or of the wrong size.
 *
 * Pure and streaming: feed any split of the bytes. */
#ifndef HG_REPL_SENDSTREAM_H
#define HG_REPL_SENDSTREAM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "node/core/crc32c.h"
#include "node/core/strmap.h"

/* Payload bytes of one command, at most: version 1's send buffer is 64 KiB
 * with the header (kernel BTRFS_SEND_BUF_SIZE_V1). */
#define HG_SENDSTREAM_CMD_MAX (64u * 1024)
/* Symlinks made by one stream, and bytes of their paths and parent dirs
 * kept to follow them, at most: a sandbox's subvolume holds a handful. */
#define HG_SENDSTREAM_MAX_LINKS 4096u
#define HG_SENDSTREAM_TRACK_BYTES (4u << 20)
#define HG_SENDSTREAM_UUID 16

/* What the receiver and the sender agreed before the stream: all optional. */
typedef struct hg_sendstream_policy {
  const char *name;        /* the subvolume the stream must make; NULL: any safe name */
  const char *uuid;        /* its identity ("8-4-4-4-12" hex); NULL: any */
  const char *parent_uuid; /* the agreed parent's identity; NULL: a full stream */
} hg_sendstream_policy;

/* Receives the stream's bytes once checked: the header, then whole
 * commands. 0 to go on; a negative value stops the stream and is what
 * feed returns. */
typedef int (*hg_sendstream_emit_fn)(void *ud, const void *data, size_t len);

typedef struct hg_sendstream_check {
  hg_sendstream_emit_fn emit; /* NULL: check only */
  void *ud;
  char name[256];
  uint8_t uuid[HG_SENDSTREAM_UUID], parent[HG_SENDSTREAM_UUID];
  bool want_uuid, have_parent;
  uint8_t buf[10 + HG_SENDSTREAM_CMD_MAX]; /* the stream header, then one command */
  size_t have;                             /* bytes of buf gathered */
  bool header_done;
  bool ended; /* END seen */
  uint64_t commands;
  int subvols;                      /* SUBVOL / SNAPSHOT commands seen */
  uint8_t self[HG_SENDSTREAM_UUID]; /* the stream's subvolume */
  uint64_t self_ctransid, parent_ctransid;
  bool from_parent;      /* a SNAPSHOT of the agreed parent began the stream */
  hg_strmap links, dirs; /* symlinks made, and the dirs holding them (counted) */
  size_t track_bytes;
  char err[160];
} hg_sendstream_check;

/* policy may be NULL (any name and uuid, full streams only). -EINVAL for a
 * policy uuid that does not parse; the check is then unusable. */
int hg_sendstream_check_init(hg_sendstream_check *c, const hg_sendstream_policy *policy,
                             hg_sendstream_emit_fn emit, void *ud);
/* -EPROTO (err says why) at the first command that is refused, before any
 * of it is emitted; emit's own error as it returned it. Sticky. */
int hg_sendstream_check_feed(hg_sendstream_check *c, const void *data, size_t len);
/* At the end of input: -EPROTO unless the stream ended with END. */
int hg_sendstream_check_end(hg_sendstream_check *c);
/* Frees what the check tracks; it may be initialized again. */
void hg_sendstream_check_free(hg_sendstream_check *c);

#endif
