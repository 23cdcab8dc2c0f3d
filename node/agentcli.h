/* agentcli: the host side of the agent channel for one sandbox. Thread-safe:
 * many callers may have requests in flight at once (multiplexed by id); a
 * held reply (wait, read with wait_ms) never blocks other requests.
 * Everything the guest sends is hostile: replies are bounded and type-checked,
 * and a broken stream fails the calls in flight with -EPROTO or -ECONNRESET,
 * never hangs them past their deadline.
 *
 * Every call has a deadline: 30 s, or for a held call (wait, read) its wait
 * plus 5 s; past it the call returns -ETIMEDOUT and a late reply is dropped.
 * The guest's errors come back as negative errnos (-ENOENT, ...). Payloads
 * above HG_AGENT_MAX_DATA per call (exec stdin, stdin) are -E2BIG; files are
 * chunked. */
#ifndef HG_NODE_AGENTCLI_H
#define HG_NODE_AGENTCLI_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "node/core/buf.h"

typedef struct hg_agent hg_agent;
struct msgpack_object;

/* Retries until the socket exists and accepts, for up to timeout_ms. */
int hg_agent_connect(const char *sock_path, int timeout_ms, hg_agent **out);
/* Takes over a connected stream fd (e.g. a vsock after its CONNECT line);
 * on success the agent owns it. */
int hg_agent_attach_fd(int fd, hg_agent **out);
void hg_agent_free(hg_agent *a);  /* closes; fails calls in flight */

int hg_agent_ping(hg_agent *a, int timeout_ms);

typedef struct hg_exec_req {
  const char *const *argv; /* NULL-terminated */
  const char *const *env;  /* "K=V", NULL-terminated, may be NULL */
  const char *cwd;         /* NULL: "/" */
  const void *stdin_data;
  size_t stdin_len;
  bool stdin_open;         /* keep stdin open for later hg_agent_stdin */
  uint32_t timeout_ms;     /* 0: none; the agent kills the command after it */
} hg_exec_req;

typedef struct hg_cmd_status {
  bool exited;
  int code;       /* exit code, when exited normally */
  int signal;     /* terminating signal, or 0 */
  bool timed_out; /* the agent killed it at timeout_ms */
} hg_cmd_status;

typedef struct hg_read_res {
  uint64_t offset;  /* where data starts in the stream */
  uint64_t dropped; /* bytes lost to the ring before offset */
  uint64_t total;   /* bytes the command ever wrote to this stream */
  bool eof;         /* stream closed and everything read */
} hg_read_res;

int hg_agent_exec(hg_agent *a, const hg_exec_req *req, uint64_t *cid, int *pid);
int hg_agent_stdin(hg_agent *a, uint64_t cid, const void *data, size_t len, bool eof);
int hg_agent_signal(hg_agent *a, uint64_t cid, int sig);
/* Waits up to timeout_ms for the command to end (st->exited false if not). */
int hg_agent_wait(hg_agent *a, uint64_t cid, uint32_t timeout_ms, hg_cmd_status *st);
/* Appends at most max bytes of the stream from offset to out; waits up to
 * wait_ms for data when there is none yet. */
int hg_agent_read(hg_agent *a, uint64_t cid, int stream, uint64_t offset,
                  uint32_t max, uint32_t wait_ms, hg_buf *out, hg_read_res *res);

typedef struct hg_file_stat {
  char type[8]; /* file, dir, symlink, other */
  uint64_t size;
  uint32_t mode;
  int64_t mtime;
} hg_file_stat;

/* Whole files, chunked under HG_AGENT_MAX_DATA per frame. file_read fails
 * with -EFBIG past max (out then unchanged). file_write replaces the file's
 * contents (not atomically: a failure midway leaves a prefix); mode 0 keeps
 * an existing file's mode (0644 for a new one), else sets it exactly. */
int hg_agent_file_read(hg_agent *a, const char *path, size_t max, hg_buf *out);
int hg_agent_file_write(hg_agent *a, const char *path, const void *data, size_t len, uint32_t mode);
/* One piece of a file written in several: at offset at (0 starts the file
 * anew: truncated, and mode as above; later pieces keep it). */
int hg_agent_file_write_at(hg_agent *a, const char *path, const void *data, size_t len,
                           uint64_t at, uint32_t mode);
int hg_agent_stat(hg_agent *a, const char *path, hg_file_stat *st);
/* Calls fn for each entry; entries are bounded by the reply frame size.
 * fn is called only once the whole reply has been checked. */
int hg_agent_list(hg_agent *a, const char *path,
                  void (*fn)(void *ud, const char *name, const hg_file_stat *st), void *ud);
/* Same, and says whether the guest left entries out to fit one frame. */
int hg_agent_list_ex(hg_agent *a, const char *path,
                     void (*fn)(void *ud, const char *name, const hg_file_stat *st),
                     void *ud, bool *truncated);
int hg_agent_mkdir(hg_agent *a, const char *path, bool parents);
int hg_agent_remove(hg_agent *a, const char *path, bool recursive);
int hg_agent_rename(hg_agent *a, const char *from, const char *to);
int hg_agent_freeze(hg_agent *a);
int hg_agent_thaw(hg_agent *a);
/* What a guest is told after its VM was restored (or booted from a
 * snapshot): the host's clock and fresh entropy always, the rest when set.
 * The agent steps its clock, reseeds, takes the identity and writes the
 * generation, epoch and node to /run/hangar/restored for programs in the
 * guest to read (a sandbox that moved to another node sees it there). */
typedef struct hg_agent_restore {
  const char *hostname;   /* NULL: unchanged */
  const char *machine_id; /* NULL: unchanged; else 32 lowercase hex digits */
  uint64_t gen;           /* the generation restored from; 0: not said */
  uint64_t epoch;         /* the lease epoch it runs at; 0: not said */
  const char *node;       /* the node it runs on; NULL: not said */
} hg_agent_restore;
/* -EINVAL: a hostname, machine id or node id that is not one. */
int hg_agent_restored(hg_agent *a, const hg_agent_restore *r);

/* Internal, for tests and the fuzzer: checks one reply map exactly as the
 * client does for op ("ping", "exec", "wait", "read", "stat", "list", ...):
 * 0, the reply's own error as a negative errno, or -EPROTO. */
int hg_agent_check_reply(const char *op, const struct msgpack_object *reply);

#endif
