/* cluster_internal: what the files of cluster/ share (cluster.c,
 * pushpull.c, directory.c, members.c, roster.c, placement.c), and hooks for
 * tests. Not for hangard or any other folder: they use cluster.h. */
#ifndef HG_CLUSTER_CLUSTER_INTERNAL_H
#define HG_CLUSTER_CLUSTER_INTERNAL_H

#include <pthread.h>
#include <stdio.h>
#include <sys/socket.h>

#include "cluster/cluster.h"
#include "cluster/seal.h"
#include "cluster/wire.h"
#include "node/core/buf.h"
#include "node/core/closer.h"
#include "node/core/util.h"

/* Like hg_cluster_close but as a crash looks from outside: no leave, no
 * final flush of roster or incarnation; handles closed, memory freed, then
 * done. */
void hg_cluster_crash(hg_cluster *c, void (*done)(void *ud), void *ud);

#define CL_PP_MAX 16         /* concurrent push-pulls, each direction */
#define CL_PP_IDLE_MS 5000   /* connect, or no byte from the peer */
#define CL_PP_TOTAL_MS 30000 /* one whole exchange */
#define CL_PP_HDR 5          /* length + flags */
#define CL_PP_ZSTD 0x01
#define CL_ZSTD_MIN 4096                 /* compress encoded states above this */
#define CL_DIR_MAX 100000                /* directory entries */
#define CL_TOMBSTONE_MS (10 * 60 * 1000) /* "deleted" entries kept this long by default */
#define CL_SWEEP_MS 10000
#define CL_HOUSEKEEP_MS 1000 /* metadata publishing, sweeps, logs */
#define CL_DROP_LOG_MS 10000
#define CL_REPLAY_SENDERS 4096
#define CL_REPLAY_SKEW_MS 10000
#define CL_ROSTER_MAX 4096
#define CL_ROSTER_FILE_MAX (4u << 20)
#define CL_LEAVE_MAX_MS 500
#define CL_PENDING_MAX CL_DIR_MAX /* directory broadcasts waiting for the loop */
/* A burst of directory changes goes by push-pull too (hg__cluster_dir_burst):
 * past this many broadcasts since the last, at most this often; for this
 * long after one, any change goes too (the burst's tail). */
#define CL_DIR_BURST 32
#define CL_DIR_BURST_MS 250
#define CL_DIR_TAIL_MS 1000
#define CL_PERSIST_RETRY_MS 5000
/* How long a node waits after its start to hear the directory from a peer
 * before it serves what it has, as a node alone would (hg_cluster_heard):
 * the peers may all be gone for good. */
#define CL_HEAR_WAIT_MS 10000
#define CL_SEEDS_MAX 16 /* what hg_swim_join takes */
/* The UDP socket's buffers, each way (hg_cluster_start). */
#define CL_UDP_BUF_BYTES (8 << 20)

/* What we know about a member beyond swim: its decoded metadata. */
typedef struct member_info {
  char id[HG_NODE_ID_MAX];
  bool has_meta;
  hg_node_meta meta;
  uint8_t raw[HG_WIRE_META_MAX];
  size_t raw_len;
} member_info;

/* A member as other threads see it (hg_cluster_peer). compatible is left
 * false here and decided when read, against our metadata at that time. */
typedef struct peer_snap {
  hg_cluster_peer p;
  hg_member_state state;
  bool has_meta;
  char vmm_kind[16];
  char cpu_class[64];
} peer_snap;

typedef struct roster_ent {
  char id[HG_NODE_ID_MAX];
  char gossip[HG_ADDR_MAX];
  char api[HG_ADDR_MAX];
  int64_t joined_ms; /* wall clock, first seen alive */
} roster_ent;

typedef struct dir_node {
  struct dir_node *next;
  int64_t stored_ms; /* monotonic, when this version arrived: tombstone age */
  hg_dirent e;
} dir_node;

struct hg_cluster {
  uv_loop_t *loop;
  char id[HG_NODE_ID_MAX];
  char gossip[HG_ADDR_MAX];
  char advertise[HG_ADDR_MAX];
  char zone[32];
  char *join;
  char *state_dir; /* NULL: nothing persisted */
  struct sockaddr_storage bind_sa;
  hg_keyring *kr;
  hg_replay *udp_replay, *tcp_replay;
  hg_swim *swim;
  hg_swim_config swim_cfg;
  uint64_t boot, pkt_seq, rng;

  uv_udp_t udp;
  uv_tcp_t listener;
  uv_timer_t swim_timer, house_timer, leave_timer;
  uv_async_t async;
  hg_closer closer; /* the six handles above; frees c once shut down */
  bool started, closing, shutting, crashed;
  int64_t started_ms; /* monotonic, at hg_cluster_start */
  int64_t tombstone_ms;

  /* Datagrams: swim's up to HG_WIRE_UDP_MAX, leases' up to
   * HG_CLUSTER_LEASE_MAX; one more byte shows a bigger one as such. */
  uint8_t rx[HG_CLUSTER_LEASE_MAX + HG_SEAL_OVERHEAD + 1];
  uint8_t plain[HG_CLUSTER_LEASE_MAX + 1];
  uint8_t tx[HG_CLUSTER_LEASE_MAX + HG_SEAL_OVERHEAD + 1];
  hg_cluster_lease_fn on_lease;
  void *on_lease_ud;
  hg_cluster_member_fn on_member_change;
  void *on_member_change_ud;
  uint64_t lease_sent, lease_received;
  hg_buf enc;

  struct pp *pps; /* push-pulls in flight (pushpull.c) */
  unsigned pp_in, pp_out;
  unsigned dir_burst;         /* directory broadcasts since the last burst push-pull */
  int64_t dir_burst_next_ms; /* monotonic: no burst push-pull before */
  int64_t dir_tail_until_ms; /* monotonic: a burst's tail is pushed until */

  member_info *minfo;
  size_t nminfo, minfo_cap;
  peer_snap *peers_build; /* the next copy for mu, swapped with peers */
  size_t peers_build_cap;
  roster_ent *roster;
  size_t nroster, roster_cap;
  bool roster_dirty;
  uint64_t inc_saved;

  uv_work_t persist;
  bool persist_busy;
  char *persist_roster; /* JSON, or NULL */
  bool persist_inc;
  uint64_t persist_inc_val;
  int persist_rc;
  int64_t persist_retry_ms; /* after a failed write, not before this */

  uint64_t dropped_auth, dropped_replay, dropped_malformed;
  uint64_t bytes_sent, bytes_received, push_pulls;
  uint64_t logged_auth, logged_replay, logged_malformed;
  char last_drop_from[64];
  int64_t drop_log_ms, sweep_ms;
  uint64_t logged_refused;
  uint64_t send_failed, logged_send_failed; /* datagrams we could not encode or seal */

  /* ---- shared with other threads, under mu ---- */
  pthread_mutex_t mu;
  dir_node **buckets;
  size_t nbuckets, ndir;
  uint64_t dir_refused;       /* entries refused: directory full of live ones */
  char (*pending)[HG_ID_MAX]; /* sandboxes whose entry is still to broadcast */
  size_t npending, pending_cap;
  bool async_closed;
  hg_node_meta meta; /* our latest, as set_meta gave it */
  bool meta_changed;
  uint8_t meta_sent[HG_WIRE_META_MAX]; /* last published, updated_ms zeroed */
  size_t meta_sent_len;
  peer_snap *peers; /* every member but us, and roster members swim forgot; by id */
  size_t npeers, peers_cap;
};

static inline int64_t hg__cluster_wall_ms(void) {
  return hg_wall_ns() / 1000000;
}

static inline uint64_t hg__cluster_rnd(
    hg_cluster *c) { /* xorshift64*: placement, not secrets */
  c->rng ^= c->rng >> 12;
  c->rng ^= c->rng << 25;
  c->rng ^= c->rng >> 27;
  return c->rng * 2685821657736338717ull;
}

static inline void hg__cluster_copy_str(char *dst, size_t cap, const char *src) {
  snprintf(dst, cap, "%s", src ? src : "");
}

/* ---- cluster.c: transport, swim glue, lifecycle ---- */

/* "a.b.c.d:port" or "[v6]:port", numeric only, port not 0. */
int hg__cluster_addr_parse(const char *s, struct sockaddr_storage *out);
void hg__cluster_addr_name(const struct sockaddr *sa, char *out, size_t cap);

/* Drops: counted always, logged at most once per CL_DROP_LOG_MS. */
enum hg__cluster_drop_kind { CL_DROP_AUTH, CL_DROP_REPLAY, CL_DROP_MALFORMED };
void hg__cluster_drop(hg_cluster *c, enum hg__cluster_drop_kind k, const char *from);

/* Our replay fields on an outgoing message. */
void hg__cluster_stamp(hg_cluster *c, hg_wire_msg *m);
/* After anything that fed swim: rearm its timer, persist what changed. */
void hg__cluster_after_swim(hg_cluster *c);

/* ---- pushpull.c ---- */

/* swim's push_pull: starts an exchange with addr. */
void hg__cluster_push_pull(void *ud, const char *addr, bool join);
/* The listener's connection callback: answers an exchange. */
void hg__cluster_on_pp_connection(uv_stream_t *server, int status);
void hg__cluster_pp_close_all(hg_cluster *c);

/* ---- directory.c (the merge, sweep, free and snapshot take mu) ---- */

/* Caller holds mu. 1: stored (it was newer), 0: ignored (not newer),
 * -ENOSPC, -ENOMEM. */
int hg__cluster_dir_merge(hg_cluster *c, const hg_dirent *e);
void hg__cluster_dir_sweep(hg_cluster *c);
void hg__cluster_dir_free(hg_cluster *c);
/* Copies the whole directory (for a push-pull). */
int hg__cluster_dir_snapshot(hg_cluster *c, hg_dirent **out, size_t *n);
/* swim's on_user: an entry from gossip. */
void hg__cluster_on_user(void *ud, const hg_wire_user *u);
/* The async handle: entries put by other threads, broadcast from the loop. */
void hg__cluster_dir_on_async(uv_async_t *a);
void hg__cluster_dir_burst(hg_cluster *c);

/* ---- members.c ---- */

/* swim's on_member: metadata decoded, roster noted, peers copy updated. */
void hg__cluster_on_member(void *ud, const hg_swim_member *m, hg_member_state old,
                           bool is_new);
/* Forgets the metadata of members swim has forgotten. */
void hg__cluster_minfo_prune(hg_cluster *c);
/* The whole peers copy from swim, member_info and the roster (loop). */
void hg__cluster_peers_rebuild(hg_cluster *c);
/* Caller holds mu: compatibility is judged against our metadata now. */
hg_cluster_peer hg__cluster_snap_peer(const hg_cluster *c, const peer_snap *s);
/* swim's members, copied (free() it); NULL and *n 0 when out of memory. */
hg_swim_member *hg__cluster_members_copy(hg_cluster *c, size_t *n);
/* Our own latest metadata, or a member's last decoded one. */
bool hg__cluster_meta_of(hg_cluster *c, const char *id, hg_node_meta *out);
json_t *hg__cluster_strs_json(const char *strs, size_t stride, unsigned n);

/* ---- roster.c ---- */

roster_ent *hg__cluster_roster_get(hg_cluster *c, const char *id);
/* A member seen alive joins the roster; its addresses are kept current. */
void hg__cluster_roster_note(hg_cluster *c, const char *id, const char *gossip,
                             const char *api);
/* -EPROTO (and more) for a roster we cannot read: the start stops. */
int hg__cluster_roster_load(hg_cluster *c);
/* The stored incarnation, 0 when none or unreadable. */
uint64_t hg__cluster_incarnation_load(hg_cluster *c);
/* roster (JSON) and/or the incarnation, written atomically (blocking). */
int hg__cluster_persist_write(const char *state_dir, const char *roster, bool inc,
                              uint64_t inc_val);
/* Queues one write of what changed, unless one is running. */
void hg__cluster_persist_schedule(hg_cluster *c);
/* At close: what is still unsaved, written in place. */
void hg__cluster_persist_flush(hg_cluster *c);

#endif
