/* agentproto: the wire between hangard and hangar-agent (in the guest).
 *
 * A frame is a 4-byte big-endian length N (1 <= N <= HG_AGENT_MAX_FRAME)
 * followed by N bytes holding one msgpack map. Requests carry
 * {"id": uint, "op": str, ...args}; replies carry {"id": uint, "err": int
 * (0 or a positive errno), "msg": str (optional), ...results}. Replies may
 * come out of order (wait and read can be held until something happens).
 *
 * ops (args -> results):
 *   ping       {}                                   -> {version: str}
 *   exec       {argv: [str], env: [str "K=V"], cwd: str, stdin: bin,
 *               stdin_open: bool, timeout_ms: uint}  -> {cid: uint, pid: int}
 *   stdin      {cid, data: bin, eof: bool}          -> {}
 *   signal     {cid, sig: int}                      -> {}
 *   wait       {cid, timeout_ms}                    -> {exited: bool, code: int,
 *                                                       signal: int, timed_out: bool}
 *   status     {cid}                                -> same as wait, never held
 *   read       {cid, stream: 1|2, offset: uint, max: uint, wait_ms: uint}
 *              -> {data: bin, offset: uint (where data starts), dropped: uint
 *                  (bytes lost to the ring before that: offset minus the
 *                  requested offset), total: uint (bytes ever written),
 *                  eof: bool (stream closed and all read)}
 *              max 0 means HG_AGENT_MAX_DATA; an offset past total: EINVAL
 *   file_read  {path, offset, len}                   -> {data: bin, size: uint}
 *   file_write {path, data: bin, offset, trunc: bool, mode: uint} -> {}
 *              (mode, optional, is set exactly when trunc; a new file
 *              without one gets 0644 less the umask)
 *   stat       {path}  -> {type: "file"|"dir"|"symlink"|"other", size, mode, mtime}
 *   list       {path}  -> {entries: [{name, type, size, mode, mtime}],
 *                          truncated: bool (more entries than fit a frame)}
 *   mkdir      {path, parents: bool}   remove {path, recursive: bool}
 *   rename     {from, to}
 *   freeze {}  thaw {}                  (FIFREEZE / FITHAW of /)
 *   restored   {wall_ns: uint, seed: bin, hostname: str, machine_id: str,
 *               gen: uint, epoch: uint, node: str}   (all but wall_ns and
 *               seed optional; the agent writes gen, epoch, node and its
 *               restore count to /run/hangar/restored)
 */
#ifndef HG_NODE_AGENTPROTO_H
#define HG_NODE_AGENTPROTO_H

#include <msgpack.h>
#include <stddef.h>
#include <stdint.h>

#include "node/core/buf.h"

#define HG_AGENT_MAX_FRAME (2u * 1024 * 1024)
#define HG_AGENT_MAX_DATA (1u * 1024 * 1024) /* payload bytes per read/write */
#define HG_AGENT_RING (1u * 1024 * 1024)     /* per command and stream */
#define HG_AGENT_VERSION "1"

enum { HG_STREAM_STDOUT = 1, HG_STREAM_STDERR = 2 };

/* Incremental decoder: feed bytes as they arrive, take frames out. */
typedef struct hg_frame_reader {
  hg_buf in;
  size_t off; /* start of the first frame not yet taken out */
} hg_frame_reader;

void hg_frame_reader_init(hg_frame_reader *r);
void hg_frame_reader_free(hg_frame_reader *r);
/* Drops everything buffered (the peer reconnected). */
void hg_frame_reader_reset(hg_frame_reader *r);
/* Buffers bytes; feed at most HG_AGENT_MAX_FRAME bytes between calls to
 * next (the buffer is bounded): -EPROTO past that. */
int hg_frame_reader_feed(hg_frame_reader *r, const void *data, size_t len);
/* Returns 1 and fills *out (caller destroys it with msgpack_unpacked_destroy;
 * it owns its bytes) when a whole frame holding a msgpack map is buffered,
 * 0 when more bytes are needed, -EPROTO on a bad length or a payload that is
 * not exactly one msgpack map (the stream is then unusable: close it),
 * -ENOMEM. *out is written only when 1 is returned. */
int hg_frame_reader_next(hg_frame_reader *r, msgpack_unpacked *out);

/* Prepends the length to a packed map: frame = 4 bytes + sbuf contents.
 * -EMSGSIZE for an empty or oversized payload, -ENOBUFS when out has no room
 * for the whole frame (then out is unchanged). */
int hg_frame_encode(const msgpack_sbuffer *payload, hg_buf *out);

#endif
