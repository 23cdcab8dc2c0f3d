/* hangar-agent internals, shared by the files of node/guest/ only.
 *
 * One single-threaded poll() loop (agent.c) owns everything: the channel to
 * the host, the commands and their pipes (cmd.c), the file operations
 * (fsops.c) and, when PID 1, the guest's start-up (init.c). All state hangs
 * off one hg_guest. */
#ifndef HG_GUEST_AGENT_H
#define HG_GUEST_AGENT_H

#include <msgpack.h>
#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

#include "node/agentproto.h"
#include "node/core/buf.h"

/* Limits: the guest has little memory and the host is the only client. */
#define HG_GUEST_MAX_CMDS 256            /* live commands; oldest exited evicted */
#define HG_GUEST_RING_BUDGET (64u << 20) /* ring bytes above which exited commands go */
#define HG_GUEST_MAX_HELD 1024           /* wait/read replies held at once */
#define HG_GUEST_STDIN_MAX (4u << 20)    /* stdin bytes queued per command */
#define HG_GUEST_OUTQ_SOFT (4u << 20)    /* stop taking requests above this */
#define HG_GUEST_OUTQ_MAX (HG_GUEST_OUTQ_SOFT + 2 * (HG_AGENT_MAX_FRAME + 4))
#define HG_GUEST_MAX_ARGS 4096       /* argv and env entries each */
#define HG_GUEST_RETRY_MS 20         /* host absent: look again after */
#define HG_GUEST_PORT_RETRY_MS 200   /* port device absent: look again after */
#define HG_GUEST_FREEZE_MAX_MS 60000 /* a forgotten freeze thaws by itself */
#define HG_GUEST_PATH_MAX 4096

enum hg_guest_mode { HG_GUEST_PORT, HG_GUEST_LISTEN, HG_GUEST_FD };

typedef struct hg_guest_stream {
  int fd;         /* read end of the child's pipe, -1 once closed */
  char *ring;     /* HG_AGENT_RING bytes, mapped at the first byte written */
  uint64_t total; /* bytes ever written; byte x lives at ring[x % RING] */
  bool eof;
} hg_guest_stream;

typedef struct hg_guest_cmd {
  uint64_t cid;
  pid_t pid;  /* also its process group: the child calls setsid() */
  int in_fd;  /* write end of stdin, -1 once closed */
  hg_buf inq; /* stdin bytes not yet taken by the child */
  size_t in_off;
  bool in_close; /* close stdin once inq is written */
  hg_guest_stream out[2];
  bool exited, timed_out, evicted;
  int code, sig;
  int64_t deadline; /* when timeout_ms kills it; 0: never */
  struct hg_guest_cmd *prev, *next;
} hg_guest_cmd;

typedef struct hg_guest_held hg_guest_held;

typedef struct hg_guest {
  enum hg_guest_mode mode;
  bool pid1;
  bool sys_ok; /* may set clock, hostname, RNG, freeze: only inside a guest */
  const char *freeze_path;
  const char *state_dir; /* where "restored" is written; NULL: nowhere */
  uint64_t restores;     /* "restored" calls this memory has seen */
  const char *listen_path;
  const char *port_path; /* from --port; else discovered */
  int fixed_fd;

  int chan_fd, listen_fd, sig_fd;
  bool chan_connected;   /* a host is (as far as we know) at the other end */
  int64_t chan_retry_at; /* 0: poll the channel; else leave it until then */
  int64_t port_logged_at;
  hg_frame_reader rd;
  hg_buf outq;
  size_t out_off; /* bytes of outq already written */

  hg_guest_cmd *cmds, *cmds_tail; /* oldest first */
  hg_guest_cmd *grave;            /* evicted this turn; freed at its end */
  unsigned ncmds;
  uint64_t next_cid;
  size_t ring_bytes;

  hg_guest_held *held;
  unsigned nheld;

  bool frozen;
  int64_t frozen_until;
  bool ready_said;
  bool stop;
} hg_guest;

/* agent.c: replies and argument checks shared by the op handlers. */
typedef struct hg_guest_reply {
  uint64_t id;
  msgpack_sbuffer sb;
  msgpack_packer pk;
} hg_guest_reply;

/* Starts {id, err: 0, ...} with room for nresults more key/value pairs. */
void hg_guest_reply_begin(hg_guest_reply *r, uint64_t id, uint32_t nresults);
/* Frames and queues the reply, then frees it. */
void hg_guest_reply_end(hg_guest *g, hg_guest_reply *r);
void hg_guest_reply_err(hg_guest *g, uint64_t id, int err); /* err < 0 */
bool hg_guest_outq_full(const hg_guest *g);

/* Optional arguments take def when absent; a wrong type or a value above
 * max is -EINVAL. */
int hg_guest_arg_u64(const msgpack_object *req, const char *key, uint64_t def,
                     uint64_t max, uint64_t *out);
int hg_guest_arg_bool(const msgpack_object *req, const char *key, bool def, bool *out);
/* Optional bin (or str); absent is empty. */
int hg_guest_arg_bin(const msgpack_object *req, const char *key, size_t max,
                     const char **ptr, size_t *len);
/* Required absolute path without NUL bytes, copied into out. */
int hg_guest_arg_path(const msgpack_object *req, const char *key,
                      char out[HG_GUEST_PATH_MAX]);

/* Op handlers: 0 when replied, 1 when the reply is held, or a negative errno
 * that the caller sends back. */
typedef int (*hg_guest_op_fn)(hg_guest *g, uint64_t id, const msgpack_object *req);

/* cmd.c */
int hg_guest_op_exec(hg_guest *g, uint64_t id, const msgpack_object *req);
int hg_guest_op_stdin(hg_guest *g, uint64_t id, const msgpack_object *req);
int hg_guest_op_signal(hg_guest *g, uint64_t id, const msgpack_object *req);
int hg_guest_op_wait(hg_guest *g, uint64_t id, const msgpack_object *req);
int hg_guest_op_status(hg_guest *g, uint64_t id, const msgpack_object *req);
int hg_guest_op_read(hg_guest *g, uint64_t id, const msgpack_object *req);
void hg_guest_cmd_on_output(hg_guest *g, hg_guest_cmd *c, int stream);
void hg_guest_cmd_on_stdin(hg_guest *g, hg_guest_cmd *c);
void hg_guest_reap(hg_guest *g);
/* Fires held replies that are ready or due, and timeouts of commands. */
void hg_guest_cmd_tick(hg_guest *g, int64_t now);
int64_t hg_guest_cmd_next_deadline(const hg_guest *g); /* 0: none */
void hg_guest_held_drop_all(hg_guest *g);              /* the host went away */
void hg_guest_cmd_bury(hg_guest *g); /* frees commands evicted this turn */
void hg_guest_cmd_kill_all(hg_guest *g);

/* fsops.c */
int hg_guest_op_file_read(hg_guest *g, uint64_t id, const msgpack_object *req);
int hg_guest_op_file_write(hg_guest *g, uint64_t id, const msgpack_object *req);
int hg_guest_op_stat(hg_guest *g, uint64_t id, const msgpack_object *req);
int hg_guest_op_list(hg_guest *g, uint64_t id, const msgpack_object *req);
int hg_guest_op_mkdir(hg_guest *g, uint64_t id, const msgpack_object *req);
int hg_guest_op_remove(hg_guest *g, uint64_t id, const msgpack_object *req);
int hg_guest_op_rename(hg_guest *g, uint64_t id, const msgpack_object *req);
int hg_guest_op_freeze(hg_guest *g, uint64_t id, const msgpack_object *req);
int hg_guest_op_thaw(hg_guest *g, uint64_t id, const msgpack_object *req);
int hg_guest_op_restored(hg_guest *g, uint64_t id, const msgpack_object *req);
void hg_guest_freeze_tick(hg_guest *g, int64_t now);

/* init.c */
void hg_guest_pid1_setup(void);
void hg_guest_std_fds(void); /* 0, 1, 2 open, if only on /dev/null */
/* Finds and opens the "agent" virtio-serial port: an fd or a negative errno. */
int hg_guest_port_open(const char *explicit_path);

#endif
