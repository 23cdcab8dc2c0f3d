/* repl_internal: what the files of replication/'s service share (repl.c,
 * holdings.c, receive.c, send.c). Not for other folders: they use repl.h. */
#ifndef HG_REPLICATION_REPL_INTERNAL_H
#define HG_REPLICATION_REPL_INTERNAL_H

#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>
#include <string.h>
#include <sys/socket.h>

#include "node/core/keylock.h"
#include "node/core/util.h"
#include "replication/frame.h"
#include "replication/repl.h"
#include "replication/stream.h"

#define HG_REPL_DEFAULT_CLUSTER "hangar"
#define HG_REPL_DEFAULT_KEEP 3
#define HG_REPL_DEFAULT_RECEIVES 4
#define HG_REPL_DEFAULT_TIMEOUT_MS 30000
#define HG_REPL_LIST_MS 3000 /* a LIST: connect and answer */
/* A receive is refused up front below this much free space: a stream
 * that would fill the disk fails anyway, and late, after the transfer. */
#define HG_REPL_MIN_FREE (64ULL << 20)
/* Authenticated connections beyond max_receives still get a thread, so
 * they can be told "busy"; past this many more they are closed
 * unanswered. */
#define HG_REPL_EXTRA_CONNS 4
/* A connection's first frame must authenticate within this long; until
 * then it is a stranger, in a pool of its own (admit.c). */
#define HG_REPL_AUTH_MS 2000
#define HG_REPL_STRANGERS_MAX 16
#define HG_REPL_STRANGERS_PER_HOST 2
/* A stranger pushed out by a newer one is closed this much later unless
 * it authenticates meanwhile. */
#define HG_REPL_EVICT_GRACE_MS 50
/* Threads of strangers, waiting or pushed out, at most. */
#define HG_REPL_CONNS_MAX 64
#define HG_REPL_BACKLOG 64
#define HG_REPL_FRAME_BUF (HG_RFRAME_HDR + HG_RFRAME_MAX + HG_RFRAME_MAC)
#define HG_REPL_MSG_MAX (64u * 1024) /* an encoded control message */
/* After an ERROR mid-stream: how long and how much of the sender's data
 * still in flight is read and dropped before the close. */
#define HG_REPL_DRAIN_MS 2000
#define HG_REPL_DRAIN_BYTES (64u << 20)
/* A sender whose stream was cut waits this long for the peer's ERROR. */
#define HG_REPL_ANSWER_MS 5000
#define HG_REPL_AUTH_LOG_MS 10000 /* one unauthenticated-peer line per period */
#define HG_REPL_REL_MAX 320       /* store-relative paths */
#define HG_REPL_SCAN_MAX 4096     /* generation entries read per directory */
#define HG_REPL_KEEPIDLE_S 10
#define HG_REPL_KEEPINTVL_S 5
#define HG_REPL_KEEPCNT 3

/* The codes exchanges end with (REFUSE and ERROR), err.h style. */
enum code_id {
  C_UNAUTH,
  C_OTHER_CLUSTER,
  C_STALE,
  C_UNKNOWN_PARENT,
  C_CORRUPT,
  C_NO_SPACE,
  C_BUSY,
  C_CONFLICT,
  C_BAD_REQUEST,
  C_IO,
  C_TIMEOUT,
  C_COUNT
};

/* The code and the errno a sender returns for it (repl.c). */
typedef struct hg__repl_code {
  const char *code;
  int err;
} hg__repl_code;
extern const hg__repl_code hg__repl_codes[C_COUNT];

enum { DIR_IN, DIR_OUT, DIR_COUNT };
enum { RES_OK, RES_HAVE, RES_REFUSED, RES_FAILED, RES_COUNT };

typedef struct inbound {
  struct inbound *next;
  hg_repl *r;
  int fd;       /* -1 once the thread closed it */
  bool done;    /* the thread has finished: join it */
  bool authed;  /* its first frame authenticated */
  bool evicted; /* no longer counted as a stranger: pushed out, or authed */
  int64_t doom_ms; /* pushed out: closed then unless authenticated; 0: none */
  pthread_t thread;
  struct sockaddr_storage ss;
  char peer[HG_ADDR_MAX];
} inbound;

/* This node's sends of one sandbox: BTRFS_IOC_SEND reading its
 * generations, which btrfs meanwhile refuses to delete or flip read-only
 * (EPERM). Kept while sends > 0 or held. */
#define HG_REPL_GATE_SOCKS 8 /* sends of one sandbox whose socket a hold can cut */
typedef struct sendgate {
  struct sendgate *next;
  char sandbox[HG_ID_MAX];
  unsigned sends; /* in flight */
  bool held;      /* hg_repl_hold: no new send starts */
  int socks[HG_REPL_GATE_SOCKS]; /* the sends' connections; -1: free */
} sendgate;

struct hg_repl {
  hg_store *store;
  char node_id[HG_NODE_ID_MAX];
  char cluster[64];
  hg_rframe_keys keys;
  int level;
  unsigned keep, max_receives;
  int timeout_ms;
  uint64_t (*known_epoch)(void *ud, const char *sandbox);
  void (*on_received)(void *ud, const char *sandbox, uint64_t gen,
                      const char *template_name);
  void *ud;

  char addr[HG_ADDR_MAX];
  int lfd;  /* listening socket */
  int wake; /* eventfd: tells the accept thread to stop */
  pthread_t acceptor;

  pthread_mutex_t mu;
  pthread_cond_t cv; /* a send gate changed */
  bool closing;
  inbound *conns;  /* newest first */
  unsigned nconns; /* threads, evicted ones included */
  unsigned nstrangers, nauthed, receiving;
  hg_keylock locks; /* "s/<sandbox>", "t/<template>": one receive or hold each */
  sendgate *gates;
  uint64_t sent_raw, sent_zstd, recv_raw, recv_zstd;
  uint64_t streams[DIR_COUNT][RES_COUNT];
  uint64_t refused[C_COUNT];
  int64_t auth_log_ms;
  uint64_t auth_suppressed;
};

typedef struct gen_entry {
  uint64_t gen;
  bool owned; /* snapshots/ (our own) rather than replicas/ */
  hg_subvol_info info;
} gen_entry;

/* Inline: callers' format checks see the bound. */
static inline bool hg__repl_sandbox_ok(const char *id) {
  return id && strnlen(id, HG_ID_MAX) < HG_ID_MAX && hg_id_valid("sb", id);
}

/* ---- repl.c ---- */

/* Copies text into a message or a log value: no quotes, backslashes or
 * control bytes (peer and child text ends up in both). */
void hg__repl_set_text(char *out, size_t cap, const char *in);
__attribute__((format(printf, 3, 4))) void hg__repl_set_error(hg_repl_error *e, int code,
                                                              const char *fmt, ...);
/* What a sender returns for a peer's REFUSE or ERROR code. */
int hg__repl_code_errno(const char *code);
/* The code a sender reports for its own failures. */
const char *hg__repl_local_code(int rc);
void hg__repl_count_stream(hg_repl *r, int dir, int result);
void hg__repl_count_refused(hg_repl *r, const char *code);
void hg__repl_count_bytes(hg_repl *r, int dir, uint64_t raw, uint64_t zstd);
bool hg__repl_is_closing(hg_repl *r);
const char *hg__repl_what_of(const hg_repl_offer *o, char *buf, size_t cap);
/* "template", a generation number, or "none" (a full stream). */
const char *hg__repl_parent_text(const hg_repl_parent *p, char *buf, size_t cap);
/* A send of sandbox begins: -EBUSY while it is held (the caller retries,
 * as for a peer's "busy"), -ENOMEM. Pair with hg__repl_send_leave. */
int hg__repl_send_enter(hg_repl *r, const char *sandbox);
void hg__repl_send_leave(hg_repl *r, const char *sandbox);
/* A send of sandbox (entered) has its connection fd open (on) or is about
 * to close it (off). On: false when the sandbox was held meanwhile (the
 * send stops, "busy"). A hold shuts the registered sockets down. */
bool hg__repl_send_sock(hg_repl *r, const char *sandbox, int fd, bool on);
/* hg_repl_hold's half for sends: no new one starts, those in flight have
 * their connections shut down (a send to a peer that stopped reading
 * would hold a delete or an orphaning up to the io timeout, on the
 * lease fencer's thread), and it waits for them to end; false out of
 * memory. Undone by hg__repl_sends_resume. */
bool hg__repl_sends_stop(hg_repl *r, const char *sandbox);
void hg__repl_sends_resume(hg_repl *r, const char *sandbox);
bool hg__repl_slot_take(hg_repl *r);
void hg__repl_slot_release(hg_repl *r);
void hg__repl_addr_format(const struct sockaddr_storage *ss, char *out, size_t cap);
/* Keepalive and a user timeout, so a peer that vanished (power cut, no
 * RST) fails the exchange even while our side has nothing to read. No
 * SO_SNDBUF: a fixed size turns off the kernel's autotuning, which grows
 * to tcp_wmem's maximum, while a set value is capped by wmem_max (often
 * 208 KiB) - slower on any path with latency. */
void hg__repl_sock_tune(int fd, int timeout_ms);
int hg__repl_dial(const char *hostport, int timeout_ms, int *out);
/* Encodes with one of frame.h's encoders (enc_rc is its result) and
 * writes the frame; frees b. */
int hg__repl_write_msg(int fd, hg_rframe_session *s, hg_rframe_type type, hg_buf *b,
                       int enc_rc, int timeout_ms);

/* ---- holdings.c ---- */

const char *hg__repl_identity(const hg_subvol_info *i);
/* btrfs receive finds a parent by received_uuid, then by uuid: either
 * one naming the identity is the same content. */
bool hg__repl_same_identity(const hg_subvol_info *i, const char *uuid);
/* The generations held of sandbox, newest first, one per gen (our own
 * snapshot before a replica). replicas_only: replicas/ alone (retention). */
int hg__repl_gens_list(hg_repl *r, const char *sandbox, bool replicas_only,
                       gen_entry **out, size_t *n);
int hg__repl_gen_rel(const char *sandbox, const gen_entry *e, char *out, size_t cap);
/* replicas/<id>/epoch: the highest epoch this node accepted a stream of
 * the sandbox at; 0 when none. */
uint64_t hg__repl_epoch_read(hg_repl *r, const char *sandbox);
int hg__repl_epoch_write(hg_repl *r, const char *sandbox, uint64_t epoch);
int hg__repl_holdings_of(hg_repl *r, const char *sandbox, hg_repl_holdings *h);
/* Keeps the newest r->keep generations in replicas/<sandbox>. keep >= 1,
 * so the newest is never deleted. */
void hg__repl_retain(hg_repl *r, const char *sandbox);
/* A read-only subvolume at rel, with its identity. */
int hg__repl_local_subvol(hg_repl *r, const char *rel, hg_subvol_info *info);
/* Our holding of (sandbox, gen): our own snapshot, else a replica. */
int hg__repl_local_gen(hg_repl *r, const char *sandbox, uint64_t gen,
                       char rel[HG_REPL_REL_MAX], hg_subvol_info *info);

/* At open, before any receive: replicas/<id>/<gen> that a crash left
 * writable mid-move become read-only again, identity kept. */
void hg__repl_replicas_settle(hg_repl *r);

/* ---- admit.c (r->mu held unless said) ---- */

/* Registers a new connection as a stranger in r->conns, pushing out the
 * stranger it replaces; false when even that leaves no room. */
bool hg__repl_admit(hg_repl *r, inbound *in);
/* Its first frame authenticated (takes r->mu): false when it was pushed
 * out meanwhile or authenticated connections are full. */
bool hg__repl_admit_authed(hg_repl *r, inbound *in);
/* Its thread is ending: the counts let go of it. */
void hg__repl_admit_gone(hg_repl *r, inbound *in);
/* Closes the pushed-out strangers whose grace is over (takes r->mu); ms
 * until the next one's, -1 when none is pending. */
int hg__repl_admit_expire(hg_repl *r);

/* ---- receive.c ---- */

/* The accept thread (arg: the hg_repl), started by hg_repl_open: a thread
 * per inbound connection, reaped as they finish. */
void *hg__repl_accept_main(void *arg);

#endif
