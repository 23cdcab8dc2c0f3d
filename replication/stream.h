/* stream: the two ends of a replication stream below the wire (DESIGN §10).
 *
 * Sending: BTRFS_IOC_SEND of a read-only subvolume (against a parent, which
 * is then also the clone source, or full) writes the btrfs send stream into
 * a pipe from a thread of its own; the caller's thread reads the pipe,
 * compresses with zstd (checksum on) and hands compressed chunks to emit().
 * emit blocking (a slow peer) blocks the ioctl through the full pipe: memory
 * stays bounded by one chunk plus zstd's window.
 *
 * Receiving: a `btrfs receive -e -C` child, jailed (see begin), writes
 * into an empty staging directory; feed() decompresses (bounded output
 * buffer) into the send stream checker, which passes whole checked
 * commands on to its stdin.
 * Nothing here trusts the bytes: a zstd error, a missing checksum, a child
 * that fails (its stderr tail is the message), or an abort leaves no
 * subvolume behind (whatever the child made is deleted).
 *
 * All calls block: worker threads only. Needs CAP_SYS_ADMIN. */
#ifndef HG_REPL_STREAM_H
#define HG_REPL_STREAM_H

#include <stddef.h>
#include <stdint.h>

#include "replication/sendstream.h"

#define HG_STREAM_CHUNK (256u * 1024) /* compressed bytes per emit, at most */

typedef struct hg_stream_stats {
  uint64_t raw_bytes;   /* btrfs send stream */
  uint64_t zstd_bytes;  /* emitted */
  uint64_t chunks;
} hg_stream_stats;

/* emit returns 0 to go on, < 0 to abort (that value is returned). */
typedef int (*hg_stream_emit_fn)(void *ud, const void *z, size_t len);
/* Called about every 4 MiB of send stream, may be NULL. */
typedef void (*hg_stream_progress_fn)(void *ud, const hg_stream_stats *st);

/* subvol, parent: absolute paths of read-only subvolumes on one btrfs
 * filesystem (parent NULL: full stream). level: zstd level 1..19. st is
 * filled on success and on failure (what was done). -EINVAL: not a
 * read-only subvolume; -EXDEV: parent on another filesystem; ioctl errors
 * as -errno. */
int hg_stream_send(const char *subvol, const char *parent, int level, hg_stream_emit_fn emit,
                   hg_stream_progress_fn progress, void *ud, hg_stream_stats *st);

typedef struct hg_stream_recv hg_stream_recv;

/* dir: an existing, empty directory on the btrfs filesystem the received
 * subvolume goes into (its parent, if any, must be on the same one).
 * policy: what the stream must make and may clone from (sendstream.h;
 * NULL: a full stream of any safe name). The child runs `btrfs receive -C
 * dir` in a mount namespace of its own where every mount but dir's is
 * read-only; only commands the checker let through reach it. */
int hg_stream_recv_begin(const char *dir, const hg_sendstream_policy *policy,
                         hg_stream_recv **out);
/* Compressed bytes, in order. -EPROTO: not a valid zstd stream (msg set),
 * -EPIPE: the child quit (msg has its stderr tail). */
int hg_stream_recv_feed(hg_stream_recv *r, const void *z, size_t len);
/* End of input: the zstd frame must be complete with its checksum; closes
 * the child's stdin and waits for it. 0: the child succeeded and name
 * holds the subvolume it made in dir. On failure the subvolume (if any) is
 * deleted and msg says why: -EPROTO a bad or truncated stream, -ENOSPC
 * the filesystem filled up, -EIO the child failed otherwise. Frees r
 * either way. */
int hg_stream_recv_finish(hg_stream_recv *r, char name[256], uint64_t *raw_bytes, char *msg,
                          size_t msgcap);
/* Kills the child, deletes what it made, frees r. */
void hg_stream_recv_abort(hg_stream_recv *r);
/* The last error message (feed failures), "" if none. */
const char *hg_stream_recv_error(const hg_stream_recv *r);

#endif
