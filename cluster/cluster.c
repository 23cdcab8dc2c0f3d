/* cluster: the transport and the state around swim (see cluster.h).
 *
 * Everything runs on the loop thread except what the header marks
 * thread-safe. Those calls touch only the fields under mu (the directory,
 * the broadcasts still to queue, and our latest metadata) and wake the loop
 * with the async handle.
 *
 * Datagrams: swim hands us a message; we stamp the replay fields, encode,
 * seal and send it. A received datagram goes through size check, unseal,
 * decode, replay check, then swim. Nothing bad is logged per packet: drops
 * are counted and summed up in one line per CL_DROP_LOG_MS.
 *
 * Push-pull: one TCP connection carries one frame each way:
 *   u32 big-endian length of the sealed payload | flags (bit 0: zstd) | sealed
 * The initiator sends first; the responder answers only a frame that
 * authenticated. Encoding, zstd and sealing (and the reverse) run on the
 * thread pool because a full state can be megabytes.
 *
 * Persistence (roster.json, incarnation) is written by one thread-pool job
 * at a time; the loop prepares the bytes. */
#include "cluster/cluster.h"

#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <netinet/in.h>
#include <openssl/evp.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zstd.h>

#include "cluster/cluster_internal.h"
#include "cluster/seal.h"
#include "node/core/buf.h"
#include "node/core/list.h"
#include "node/core/log.h"
#include "node/core/parse.h"
#include "node/core/util.h"

#define CL_PP_MAX 16         /* concurrent push-pulls, each direction */
#define CL_PP_IDLE_MS 5000   /* connect, or no byte from the peer */
#define CL_PP_TOTAL_MS 30000 /* one whole exchange */
#define CL_PP_HDR 5          /* length + flags */
#define CL_PP_ZSTD 0x01
#define CL_ZSTD_MIN 4096                 /* compress encoded states above this */
#define CL_DIR_MAX 100000                /* directory entries */
#define CL_TOMBSTONE_MS (10 * 60 * 1000) /* "deleted" entries kept this long */
#define CL_SWEEP_MS 10000
#define CL_HOUSEKEEP_MS 1000 /* metadata publishing, sweeps, logs */
#define CL_DROP_LOG_MS 10000
#define CL_REPLAY_SENDERS 4096
#define CL_REPLAY_SKEW_MS 10000
#define CL_ROSTER_MAX 4096
#define CL_ROSTER_FILE_MAX (4u << 20)
#define CL_LEAVE_MAX_MS 500
#define CL_PENDING_MAX CL_DIR_MAX /* directory broadcasts waiting for the loop */
#define CL_PERSIST_RETRY_MS 5000
#define CL_SEEDS_MAX 16 /* what hg_swim_join takes */

typedef struct pp pp;

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
  int handles;
  bool started, closing, shutting, crashed;
  void (*done)(void *);
  void *done_ud;

  uint8_t rx[HG_WIRE_UDP_MAX + 1]; /* one more: a bigger datagram is seen as such */
  uint8_t plain[HG_WIRE_UDP_MAX];
  uint8_t tx[HG_WIRE_UDP_MAX];
  hg_buf enc;

  pp *pps;
  unsigned pp_in, pp_out;

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

struct pp {
  hg_cluster *c;
  pp *prev, *next;
  uv_tcp_t tcp;
  uv_timer_t timer;
  uv_connect_t connect;
  uv_write_t write;
  uv_work_t work;
  int handles;
  bool initiator, join, closing, working;
  char addr[HG_ADDR_MAX]; /* initiator: the peer; responder: for logs */
  int64_t started_ms;
  /* in */
  uint8_t hdr[CL_PP_HDR];
  size_t hdr_len;
  uint8_t *in;
  size_t in_len, in_cap, in_need;
  uint8_t in_flags;
  /* out */
  uint8_t *out;
  size_t out_len;
  /* the state being sealed or just opened */
  hg_wire_msg msg;
  hg_dirent *dirs;
  size_t ndirs;
  size_t bad_dirs;
  int work_rc;
  bool auth_failed;
};

static void swim_kick(hg_cluster *c);
static void after_swim(hg_cluster *c);
static void pp_close(pp *p);
static void cluster_maybe_finish(hg_cluster *c);
static void persist_schedule(hg_cluster *c);

static int64_t wall_ms(void) {
  return hg_wall_ns() / 1000000;
}

static uint64_t rnd(hg_cluster *c) { /* xorshift64*: placement, not secrets */
  c->rng ^= c->rng >> 12;
  c->rng ^= c->rng << 25;
  c->rng ^= c->rng >> 27;
  return c->rng * 2685821657736338717ull;
}

static void copy_str(char *dst, size_t cap, const char *src) {
  snprintf(dst, cap, "%s", src ? src : "");
}

/* ---- addresses ---- */

/* "a.b.c.d:port" or "[v6]:port", numeric only, port not 0. */
static int addr_parse(const char *s, struct sockaddr_storage *out) {
  char host[HG_ADDR_MAX];
  int port;
  if (!s || strnlen(s, HG_ADDR_MAX) >= HG_ADDR_MAX ||
      hg_hostport_split(s, host, sizeof host, -1, &port) < 0 || port == 0)
    return -EINVAL;
  memset(out, 0, sizeof *out);
  if (strchr(host, ':'))
    return uv_ip6_addr(host, port, (struct sockaddr_in6 *)out) < 0 ? -EINVAL : 0;
  return uv_ip4_addr(host, port, (struct sockaddr_in *)out) < 0 ? -EINVAL : 0;
}

static bool addr_unspecified(const struct sockaddr_storage *sa) {
  if (sa->ss_family == AF_INET)
    return ((const struct sockaddr_in *)sa)->sin_addr.s_addr == htonl(INADDR_ANY);
  return IN6_IS_ADDR_UNSPECIFIED(&((const struct sockaddr_in6 *)sa)->sin6_addr);
}

/* A target for our UDP socket: a v6 socket reaches v4 peers as v4-mapped. */
static int addr_for_udp(const hg_cluster *c, const char *s,
                        struct sockaddr_storage *out) {
  int rc = addr_parse(s, out);
  if (rc < 0) return rc;
  if (out->ss_family == c->bind_sa.ss_family) return 0;
  if (out->ss_family == AF_INET6) return -EAFNOSUPPORT;
  struct sockaddr_in v4 = *(struct sockaddr_in *)out;
  struct sockaddr_in6 *v6 = (struct sockaddr_in6 *)out;
  memset(out, 0, sizeof *out);
  v6->sin6_family = AF_INET6;
  v6->sin6_port = v4.sin_port;
  v6->sin6_addr.s6_addr[10] = 0xff;
  v6->sin6_addr.s6_addr[11] = 0xff;
  memcpy(&v6->sin6_addr.s6_addr[12], &v4.sin_addr, 4);
  return 0;
}

static void addr_name(const struct sockaddr *sa, char *out, size_t cap) {
  char host[INET6_ADDRSTRLEN] = "?";
  int port = 0;
  if (sa && sa->sa_family == AF_INET) {
    uv_ip4_name((const struct sockaddr_in *)sa, host, sizeof host);
    port = ntohs(((const struct sockaddr_in *)sa)->sin_port);
  } else if (sa && sa->sa_family == AF_INET6) {
    uv_ip6_name((const struct sockaddr_in6 *)sa, host, sizeof host);
    port = ntohs(((const struct sockaddr_in6 *)sa)->sin6_port);
  }
  snprintf(out, cap, "%s:%d", host, port);
}

/* ---- drops: counted always, logged at most once per CL_DROP_LOG_MS ---- */

enum drop_kind { DROP_AUTH, DROP_REPLAY, DROP_MALFORMED };

static void drop(hg_cluster *c, enum drop_kind k, const char *from) {
  if (k == DROP_AUTH)
    c->dropped_auth++;
  else if (k == DROP_REPLAY)
    c->dropped_replay++;
  else
    c->dropped_malformed++;
  if (from) copy_str(c->last_drop_from, sizeof c->last_drop_from, from);
}

static void drop_log(hg_cluster *c, bool force) {
  pthread_mutex_lock(&c->mu); /* dir_refused is counted by dir_put's threads too */
  uint64_t refused = c->dir_refused;
  pthread_mutex_unlock(&c->mu);
  uint64_t a = c->dropped_auth - c->logged_auth, r = c->dropped_replay - c->logged_replay,
           m = c->dropped_malformed - c->logged_malformed,
           f = refused - c->logged_refused, s = c->send_failed - c->logged_send_failed;
  if (!a && !r && !m && !f && !s) return;
  int64_t now = hg_now_ms();
  if (!force && now - c->drop_log_ms < CL_DROP_LOG_MS) return;
  hg_log_warn("cluster.dropped",
              "auth=%" PRIu64 " replay=%" PRIu64 " malformed=%" PRIu64
              " dir_full=%" PRIu64 " unsendable=%" PRIu64 " last_from=%s window_s=%d",
              a, r, m, f, s, c->last_drop_from[0] ? c->last_drop_from : "-",
              CL_DROP_LOG_MS / 1000);
  c->logged_auth = c->dropped_auth;
  c->logged_replay = c->dropped_replay;
  c->logged_malformed = c->dropped_malformed;
  c->logged_refused = refused;
  c->logged_send_failed = c->send_failed;
  c->drop_log_ms = now;
}

/* ---- directory (caller holds mu) ---- */

static size_t dir_hash(const char *s) {
  uint64_t h = 1469598103934665603ull; /* FNV-1a */
  for (const unsigned char *p = (const unsigned char *)s; *p; p++)
    h = (h ^ *p) * 1099511628211ull;
  return (size_t)h;
}

static dir_node *dir_find(hg_cluster *c, const char *sandbox) {
  for (dir_node *n = c->buckets[dir_hash(sandbox) & (c->nbuckets - 1)]; n; n = n->next)
    if (strcmp(n->e.sandbox, sandbox) == 0) return n;
  return NULL;
}

static void dir_unlink(hg_cluster *c, dir_node *victim) {
  dir_node **pp = &c->buckets[dir_hash(victim->e.sandbox) & (c->nbuckets - 1)];
  while (*pp != victim) pp = &(*pp)->next;
  *pp = victim->next;
  c->ndir--;
  free(victim);
}

static bool is_tombstone(const hg_dirent *e) {
  return strcmp(e->state, "deleted") == 0;
}

/* Full: the oldest tombstone makes room; live entries are never evicted. */
static bool dir_make_room(hg_cluster *c) {
  dir_node *oldest = NULL;
  for (size_t b = 0; b < c->nbuckets; b++)
    for (dir_node *n = c->buckets[b]; n; n = n->next)
      if (is_tombstone(&n->e) && (!oldest || n->stored_ms < oldest->stored_ms))
        oldest = n;
  if (!oldest) return false;
  dir_unlink(c, oldest);
  return true;
}

static void dir_grow(hg_cluster *c) {
  size_t nb = c->nbuckets * 2;
  dir_node **b = calloc(nb, sizeof *b);
  if (!b) return; /* longer chains, still correct */
  for (size_t i = 0; i < c->nbuckets; i++) {
    for (dir_node *n = c->buckets[i], *next; n; n = next) {
      next = n->next;
      size_t k = dir_hash(n->e.sandbox) & (nb - 1);
      n->next = b[k];
      b[k] = n;
    }
  }
  free(c->buckets);
  c->buckets = b;
  c->nbuckets = nb;
}

/* 1: stored (it was newer), 0: ignored (not newer), -ENOSPC, -ENOMEM. */
static int dir_merge(hg_cluster *c, const hg_dirent *e) {
  dir_node *n = dir_find(c, e->sandbox);
  if (n) {
    if (hg_dirent_cmp(e, &n->e) <= 0) return 0;
    n->e = *e;
    n->stored_ms = hg_now_ms();
    return 1;
  }
  if (c->ndir >= CL_DIR_MAX && !dir_make_room(c)) {
    c->dir_refused++;
    return -ENOSPC;
  }
  n = calloc(1, sizeof *n);
  if (!n) return -ENOMEM;
  n->e = *e;
  n->stored_ms = hg_now_ms();
  size_t k = dir_hash(e->sandbox) & (c->nbuckets - 1);
  n->next = c->buckets[k];
  c->buckets[k] = n;
  if (++c->ndir > 2 * c->nbuckets) dir_grow(c);
  return 1;
}

static void dir_sweep(hg_cluster *c) {
  int64_t now = hg_now_ms();
  pthread_mutex_lock(&c->mu);
  for (size_t b = 0; b < c->nbuckets; b++) {
    for (dir_node *n = c->buckets[b], *next; n; n = next) {
      next = n->next;
      if (is_tombstone(&n->e) && now - n->stored_ms > CL_TOMBSTONE_MS) dir_unlink(c, n);
    }
  }
  pthread_mutex_unlock(&c->mu);
}

static void dir_free(hg_cluster *c) {
  for (size_t b = 0; b < c->nbuckets; b++) {
    for (dir_node *n = c->buckets[b], *next; n; n = next) {
      next = n->next;
      free(n);
    }
  }
  free(c->buckets);
  c->buckets = NULL;
  c->ndir = 0;
}

/* Copies the whole directory (for a push-pull). */
static int dir_snapshot(hg_cluster *c, hg_dirent **out, size_t *n) {
  pthread_mutex_lock(&c->mu);
  hg_dirent *a = c->ndir ? malloc(c->ndir * sizeof *a) : NULL;
  size_t k = 0;
  if (a || !c->ndir) {
    for (size_t b = 0; b < c->nbuckets; b++)
      for (dir_node *d = c->buckets[b]; d; d = d->next) a[k++] = d->e;
  }
  pthread_mutex_unlock(&c->mu);
  if (c->ndir && !a) return -ENOMEM;
  *out = a;
  *n = k;
  return 0;
}

/* ---- members' metadata ---- */

static member_info *minfo_get(hg_cluster *c, const char *id) {
  for (size_t i = 0; i < c->nminfo; i++)
    if (strcmp(c->minfo[i].id, id) == 0) return &c->minfo[i];
  return NULL;
}

static member_info *minfo_add(hg_cluster *c, const char *id) {
  if (c->nminfo == c->minfo_cap) {
    size_t cap = c->minfo_cap ? 2 * c->minfo_cap : 16;
    member_info *m = realloc(c->minfo, cap * sizeof *m);
    if (!m) return NULL;
    c->minfo = m;
    c->minfo_cap = cap;
  }
  member_info *m = &c->minfo[c->nminfo++];
  memset(m, 0, sizeof *m);
  copy_str(m->id, sizeof m->id, id);
  return m;
}

/* Forgets the metadata of members swim has forgotten. */
static void minfo_prune(hg_cluster *c) {
  for (size_t i = 0; i < c->nminfo;) {
    if (!hg_swim_member_get(c->swim, c->minfo[i].id))
      c->minfo[i] = c->minfo[--c->nminfo];
    else
      i++;
  }
}

/* ---- peers, copied for other threads ----
 *
 * swim and member_info are the loop's. Each swim event about a member
 * updates its copy under mu (io_on_member); every housekeeping tick the
 * whole copy is rebuilt, which also drops members swim has forgotten. */

/* m: the member's metadata, NULL when it has none yet. */
static void snap_fill(peer_snap *s, const char *id, hg_member_state st,
                      const hg_node_meta *m) {
  memset(s, 0, sizeof *s);
  copy_str(s->p.id, sizeof s->p.id, id);
  s->state = st;
  s->p.alive = st == HG_MEMBER_ALIVE || st == HG_MEMBER_SUSPECT;
  s->p.suspect = st == HG_MEMBER_SUSPECT;
  if (!m) return;
  s->has_meta = true;
  copy_str(s->p.api_addr, sizeof s->p.api_addr, m->api_addr);
  copy_str(s->p.repl_addr, sizeof s->p.repl_addr, m->repl_addr);
  copy_str(s->p.zone, sizeof s->p.zone, m->zone);
  s->p.draining = m->draining;
  s->p.memory_free_mib = m->memory_total_mib > m->memory_used_mib
                             ? m->memory_total_mib - m->memory_used_mib
                             : 0;
  copy_str(s->vmm_kind, sizeof s->vmm_kind, m->vmm_kind);
  copy_str(s->cpu_class, sizeof s->cpu_class, m->cpu_class);
}

/* Index of id in the sorted copy, or where it would go (caller holds mu). */
static size_t snap_find(const hg_cluster *c, const char *id, bool *found) {
  size_t lo = 0, hi = c->npeers;
  while (lo < hi) {
    size_t mid = lo + (hi - lo) / 2;
    int d = strcmp(c->peers[mid].p.id, id);
    if (d == 0) {
      *found = true;
      return mid;
    }
    if (d < 0)
      lo = mid + 1;
    else
      hi = mid;
  }
  *found = false;
  return lo;
}

/* One member changed (loop). On ENOMEM the next rebuild catches up. */
static void snap_update(hg_cluster *c, const peer_snap *s) {
  bool found;
  pthread_mutex_lock(&c->mu);
  size_t i = snap_find(c, s->p.id, &found);
  if (!found && c->npeers == c->peers_cap) {
    size_t cap = c->peers_cap ? 2 * c->peers_cap : 16;
    peer_snap *a = realloc(c->peers, cap * sizeof *a);
    if (a) {
      c->peers = a;
      c->peers_cap = cap;
    }
  }
  if (found) {
    c->peers[i] = *s;
  } else if (c->npeers < c->peers_cap) {
    memmove(&c->peers[i + 1], &c->peers[i], (c->npeers - i) * sizeof *c->peers);
    c->peers[i] = *s;
    c->npeers++;
  }
  pthread_mutex_unlock(&c->mu);
}

static int snap_cmp(const void *a, const void *b) {
  return strcmp(((const peer_snap *)a)->p.id, ((const peer_snap *)b)->p.id);
}

/* The whole copy from swim, member_info and the roster (loop). The roster
 * members swim no longer knows are dead, as in members_json. */
static void peers_rebuild(hg_cluster *c) {
  size_t need = c->nminfo + c->nroster, k = 0;
  if (need > c->peers_build_cap) {
    peer_snap *a = realloc(c->peers_build, need * sizeof *a);
    if (!a) return; /* the per-event updates keep the old copy going */
    c->peers_build = a;
    c->peers_build_cap = need;
  }
  for (size_t i = 0; i < c->nminfo; i++) {
    const hg_swim_member *m = hg_swim_member_get(c->swim, c->minfo[i].id);
    if (m && strcmp(m->id, c->id) != 0)
      snap_fill(&c->peers_build[k++], m->id, m->state,
                c->minfo[i].has_meta ? &c->minfo[i].meta : NULL);
  }
  for (size_t i = 0; i < c->nroster; i++) {
    const char *id = c->roster[i].id;
    if (strcmp(id, c->id) != 0 && !hg_swim_member_get(c->swim, id))
      snap_fill(&c->peers_build[k++], id, HG_MEMBER_DEAD, NULL);
  }
  if (k > 1) qsort(c->peers_build, k, sizeof *c->peers_build, snap_cmp);
  pthread_mutex_lock(&c->mu);
  peer_snap *old = c->peers;
  size_t old_cap = c->peers_cap;
  c->peers = c->peers_build;
  c->peers_cap = c->peers_build_cap;
  c->npeers = k;
  pthread_mutex_unlock(&c->mu);
  c->peers_build = old;
  c->peers_build_cap = old_cap;
}

/* ---- roster ---- */

static roster_ent *roster_get(hg_cluster *c, const char *id) {
  for (size_t i = 0; i < c->nroster; i++)
    if (strcmp(c->roster[i].id, id) == 0) return &c->roster[i];
  return NULL;
}

static roster_ent *roster_add(hg_cluster *c, const char *id) {
  if (c->nroster >= CL_ROSTER_MAX) return NULL;
  if (c->nroster == c->roster_cap) {
    size_t cap = c->roster_cap ? 2 * c->roster_cap : 16;
    roster_ent *r = realloc(c->roster, cap * sizeof *r);
    if (!r) return NULL;
    c->roster = r;
    c->roster_cap = cap;
  }
  roster_ent *r = &c->roster[c->nroster++];
  memset(r, 0, sizeof *r);
  copy_str(r->id, sizeof r->id, id);
  r->joined_ms = wall_ms();
  return r;
}

/* A member seen alive joins the roster; its addresses are kept current. */
static void roster_note(hg_cluster *c, const char *id, const char *gossip,
                        const char *api) {
  roster_ent *r = roster_get(c, id);
  if (!r) {
    r = roster_add(c, id);
    if (!r) {
      hg_log_error("cluster.roster_full", "node=%s max=%d", id, CL_ROSTER_MAX);
      return;
    }
    hg_log_info("cluster.roster_add", "node=%s gossip=%s", id, gossip ? gossip : "");
    c->roster_dirty = true;
  }
  if (gossip && gossip[0] && strcmp(r->gossip, gossip) != 0) {
    copy_str(r->gossip, sizeof r->gossip, gossip);
    c->roster_dirty = true;
  }
  if (api && api[0] && strcmp(r->api, api) != 0) {
    copy_str(r->api, sizeof r->api, api);
    c->roster_dirty = true;
  }
}

static char *roster_dump(hg_cluster *c) {
  json_t *arr = json_array();
  for (size_t i = 0; i < c->nroster; i++) {
    char t[32];
    hg_iso_time(c->roster[i].joined_ms, t);
    json_array_append_new(
        arr, json_pack("{s:s,s:s,s:s,s:s}", "id", c->roster[i].id, "gossip",
                       c->roster[i].gossip, "api", c->roster[i].api, "joined", t));
  }
  json_t *root = json_pack("{s:i,s:o}", "version", 1, "members", arr);
  char *s = root ? json_dumps(root, JSON_INDENT(1)) : NULL;
  json_decref(root);
  return s;
}

static int roster_str(json_t *o, const char *key, char *out, size_t cap, bool required) {
  json_t *v = json_object_get(o, key);
  if (!v) return required ? -EPROTO : 0;
  if (!json_is_string(v) || json_string_length(v) >= cap ||
      strlen(json_string_value(v)) != json_string_length(v))
    return -EPROTO;
  copy_str(out, cap, json_string_value(v));
  return 0;
}

/* A roster we cannot read stops the start: majorities are counted over it,
 * and silently starting with a smaller one would let a minority win. */
static int roster_load(hg_cluster *c) {
  char path[PATH_MAX], *data = NULL;
  size_t len = 0;
  if (!c->state_dir) return 0;
  int rc = hg_path(path, sizeof path, "%s/roster.json", c->state_dir);
  if (rc == 0) rc = hg_read_file(path, CL_ROSTER_FILE_MAX, &data, &len);
  if (rc == -ENOENT) return 0;
  if (rc < 0) {
    hg_log_error("cluster.roster_unreadable", "path=%s err=%s", path, uv_strerror(rc));
    return rc;
  }
  json_error_t jerr;
  json_t *root = json_loadb(data, len, 0, &jerr);
  free(data);
  json_t *arr = root ? json_object_get(root, "members") : NULL;
  rc = json_is_array(arr) && json_array_size(arr) <= CL_ROSTER_MAX ? 0 : -EPROTO;
  for (size_t i = 0; rc == 0 && i < json_array_size(arr); i++) {
    json_t *o = json_array_get(arr, i);
    roster_ent e = {0};
    char joined[40] = "";
    if (!json_is_object(o)) rc = -EPROTO;
    if (rc == 0) rc = roster_str(o, "id", e.id, sizeof e.id, true);
    if (rc == 0) rc = roster_str(o, "gossip", e.gossip, sizeof e.gossip, false);
    if (rc == 0) rc = roster_str(o, "api", e.api, sizeof e.api, false);
    if (rc == 0) rc = roster_str(o, "joined", joined, sizeof joined, false);
    if (rc == 0 && !e.id[0]) rc = -EPROTO;
    if (rc < 0 || roster_get(c, e.id)) continue;
    roster_ent *r = roster_add(c, e.id);
    if (!r) {
      rc = -ENOMEM;
      break;
    }
    *r = e;
    r->joined_ms = hg_iso_parse(joined);
  }
  json_decref(root);
  if (rc < 0) hg_log_error("cluster.roster_corrupt", "path=%s", path);
  return rc;
}

/* ---- incarnation ---- */

static uint64_t incarnation_load(hg_cluster *c) {
  char path[PATH_MAX], *data = NULL;
  size_t len = 0;
  if (!c->state_dir || hg_path(path, sizeof path, "%s/incarnation", c->state_dir) < 0)
    return 0;
  int rc = hg_read_file(path, 64, &data, &len);
  if (rc < 0) {
    if (rc != -ENOENT)
      hg_log_warn("cluster.incarnation_unreadable", "path=%s err=%s", path,
                  uv_strerror(rc));
    return 0;
  }
  uint64_t v = 0;
  if (len > 0 && data[len - 1] == '\n') len--;
  bool ok = hg_parse_uint_n(data, len, UINT64_MAX, &v) == 0;
  free(data);
  if (!ok) {
    /* Not fatal: swim refutes whatever peers remember about us. */
    hg_log_warn("cluster.incarnation_corrupt", "path=%s", path);
    return 0;
  }
  return (uint64_t)v;
}

/* ---- persistence on the thread pool ---- */

static int persist_write(const char *state_dir, const char *roster, bool inc,
                         uint64_t inc_val) {
  char path[PATH_MAX];
  int rc = 0;
  if (roster) {
    rc = hg_path(path, sizeof path, "%s/roster.json", state_dir);
    if (rc == 0) rc = hg_write_file_atomic(path, roster, strlen(roster));
  }
  if (rc == 0 && inc) {
    char buf[32];
    int n = snprintf(buf, sizeof buf, "%" PRIu64 "\n", inc_val);
    rc = hg_path(path, sizeof path, "%s/incarnation", state_dir);
    if (rc == 0) rc = hg_write_file_atomic(path, buf, (size_t)n);
  }
  return rc;
}

static void persist_work(uv_work_t *w) {
  hg_cluster *c = w->data;
  c->persist_rc =
      persist_write(c->state_dir, c->persist_roster, c->persist_inc, c->persist_inc_val);
}

static void persist_after(uv_work_t *w, int status) {
  hg_cluster *c = w->data;
  c->persist_busy = false;
  if (status == 0 && c->persist_rc < 0) {
    hg_log_error("cluster.persist_failed", "dir=%s err=%s retry_ms=%d", c->state_dir,
                 uv_strerror(c->persist_rc), CL_PERSIST_RETRY_MS);
    c->persist_retry_ms = hg_now_ms() + CL_PERSIST_RETRY_MS;
    if (c->persist_roster) c->roster_dirty = true; /* retried on the next event */
    if (c->persist_inc) c->inc_saved = 0;
  } else if (status == 0 && c->persist_inc) {
    c->inc_saved = c->persist_inc_val;
  } else if (status != 0) {
    if (c->persist_roster) c->roster_dirty = true;
  }
  free(c->persist_roster);
  c->persist_roster = NULL;
  if (c->shutting)
    cluster_maybe_finish(c);
  else
    persist_schedule(c);
}

static void persist_schedule(hg_cluster *c) {
  if (!c->state_dir || c->persist_busy || c->shutting || !c->swim) return;
  if (hg_now_ms() < c->persist_retry_ms) return; /* the house timer comes back */
  uint64_t inc = hg_swim_incarnation(c->swim);
  bool want_inc = inc != c->inc_saved;
  if (!c->roster_dirty && !want_inc) return;
  c->persist_roster = c->roster_dirty ? roster_dump(c) : NULL;
  c->roster_dirty = false;
  c->persist_inc = want_inc;
  c->persist_inc_val = inc;
  c->persist.data = c;
  if (uv_queue_work(c->loop, &c->persist, persist_work, persist_after) < 0) {
    free(c->persist_roster);
    c->persist_roster = NULL;
    return;
  }
  c->persist_busy = true;
}

/* ---- node metadata ---- */

/* Fields the cluster owns whatever the caller filled in. */
static void meta_fix(hg_cluster *c, hg_node_meta *m) {
  copy_str(m->id, sizeof m->id, c->id);
  copy_str(m->gossip_addr, sizeof m->gossip_addr, c->advertise);
  if (!m->zone[0]) copy_str(m->zone, sizeof m->zone, c->zone);
}

/* Publishes our metadata if it changed since the last time (loop). */
static void meta_publish(hg_cluster *c, bool force) {
  uint8_t cmp[HG_WIRE_META_MAX], out[HG_WIRE_META_MAX];
  size_t cmp_len = 0, out_len = 0;
  pthread_mutex_lock(&c->mu);
  bool changed = c->meta_changed || force;
  c->meta_changed = false;
  hg_node_meta m = c->meta;
  pthread_mutex_unlock(&c->mu);
  if (!changed) return;
  m.updated_ms = 0;
  int rc = hg_node_meta_encode(&m, cmp, sizeof cmp, &cmp_len);
  if (rc < 0) {
    hg_log_error("cluster.meta_encode", "err=%s", uv_strerror(rc));
    return;
  }
  if (!force && cmp_len == c->meta_sent_len && memcmp(cmp, c->meta_sent, cmp_len) == 0)
    return;
  m.updated_ms = wall_ms();
  if (hg_node_meta_encode(&m, out, sizeof out, &out_len) < 0) return;
  rc = hg_swim_set_meta(c->swim, out, out_len);
  if (rc < 0) {
    hg_log_error("cluster.meta_publish", "err=%s", uv_strerror(rc));
    return;
  }
  memcpy(c->meta_sent, cmp, cmp_len);
  c->meta_sent_len = cmp_len;
  after_swim(c);
}

/* ---- UDP ---- */

typedef struct udp_req {
  uv_udp_send_t req;
  size_t len;
  uint8_t data[];
} udp_req;

static void on_udp_sent(uv_udp_send_t *r, int status) {
  free(r->data);
}

static void stamp(hg_cluster *c, hg_wire_msg *m) {
  m->boot = c->boot;
  m->pkt_seq = ++c->pkt_seq;
  m->sent_ms = wall_ms();
  copy_str(m->from, sizeof m->from, c->id);
  copy_str(m->from_addr, sizeof m->from_addr, c->advertise);
}

static void udp_send_raw(hg_cluster *c, const struct sockaddr_storage *sa,
                         const uint8_t *data, size_t len) {
  uv_buf_t b = uv_buf_init((char *)data, (unsigned)len);
  int rc = uv_udp_try_send(&c->udp, &b, 1, (const struct sockaddr *)sa);
  if (rc == UV_EAGAIN || rc == UV_ENOSYS) {
    udp_req *r = malloc(sizeof *r + len);
    if (!r) return;
    memcpy(r->data, data, len);
    r->len = len;
    r->req.data = r;
    b = uv_buf_init((char *)r->data, (unsigned)len);
    rc = uv_udp_send(&r->req, &c->udp, &b, 1, (const struct sockaddr *)sa, on_udp_sent);
    if (rc < 0) free(r);
  }
  if (rc >= 0) c->bytes_sent += len;
}

static void io_send(void *ud, const char *addr, const hg_wire_msg *msg) {
  hg_cluster *c = ud;
  struct sockaddr_storage sa;
  size_t n = 0;
  if (!c->started || c->shutting) return;
  int rc = addr_for_udp(c, addr, &sa);
  if (rc < 0) {
    hg_log_debug("cluster.send_addr", "addr=%s err=%s", addr, uv_strerror(rc));
    return;
  }
  hg_wire_msg m = *msg; /* shallow: the item arrays stay swim's */
  stamp(c, &m);
  rc = hg_wire_encode(&m, &c->enc);
  if (rc == 0) rc = hg_seal(c->kr, c->enc.data, c->enc.len, c->tx, sizeof c->tx, &n);
  if (rc < 0) {
    c->send_failed++; /* summed up in the drop line, never per packet */
    return;
  }
  udp_send_raw(c, &sa, c->tx, n);
}

static void udp_input(hg_cluster *c, const uint8_t *data, size_t len, bool partial,
                      const struct sockaddr *from) {
  char src[64];
  size_t plen = 0;
  hg_wire_msg m;
  addr_name(from, src, sizeof src);
  /* Not even the shape of a sealed datagram (version byte 1): malformed,
   * not a failed authentication. */
  if (partial || len > HG_WIRE_UDP_MAX || len <= HG_SEAL_OVERHEAD || data[0] != 1) {
    drop(c, DROP_MALFORMED, src);
    return;
  }
  if (hg_unseal(c->kr, data, len, c->plain, sizeof c->plain, &plen) < 0) {
    drop(c, DROP_AUTH, src);
    return;
  }
  if (hg_wire_decode(c->plain, plen, HG_WIRE_UDP_ITEMS, &m) < 0) {
    drop(c, DROP_MALFORMED, src);
    return;
  }
  if (m.type == HG_WIRE_PUSH_PULL) {
    hg_wire_msg_free(&m);
    drop(c, DROP_MALFORMED, src);
    return;
  }
  if (hg_replay_check(c->udp_replay, m.from, m.boot, m.pkt_seq, m.sent_ms, wall_ms()) <
      0) {
    hg_wire_msg_free(&m);
    drop(c, DROP_REPLAY, src);
    return;
  }
  hg_swim_receive(c->swim, &m);
  hg_wire_msg_free(&m);
  after_swim(c);
}

static void on_udp_alloc(uv_handle_t *h, size_t suggested, uv_buf_t *buf) {
  hg_cluster *c = h->data;
  *buf = uv_buf_init((char *)c->rx, sizeof c->rx);
}

static void on_udp_recv(uv_udp_t *u, ssize_t nread, const uv_buf_t *buf,
                        const struct sockaddr *addr, unsigned flags) {
  hg_cluster *c = u->data;
  if (nread == 0 && !addr) return;
  if (nread < 0) {
    hg_log_debug("cluster.udp_recv", "err=%s", uv_strerror((int)nread));
    return;
  }
  if (c->shutting) return;
  c->bytes_received += (uint64_t)nread;
  udp_input(c, (const uint8_t *)buf->base, (size_t)nread, flags & UV_UDP_PARTIAL, addr);
}

/* ---- push-pull ---- */

/* Freed once both handles closed and no work item still uses it. */
static void pp_maybe_free(pp *p) {
  if (p->handles > 0 || p->working) return;
  hg_cluster *c = p->c;
  HG_LIST_UNLINK(c->pps, p);
  if (p->initiator)
    c->pp_out--;
  else
    c->pp_in--;
  hg_wire_msg_free(&p->msg);
  free(p->dirs);
  free(p->in);
  free(p->out);
  free(p);
  cluster_maybe_finish(c);
}

static void on_pp_closed(uv_handle_t *h) {
  pp *p = h->data;
  p->handles--;
  pp_maybe_free(p);
}

static void pp_close(pp *p) {
  if (p->closing) return;
  p->closing = true;
  uv_close((uv_handle_t *)&p->tcp, on_pp_closed);
  uv_close((uv_handle_t *)&p->timer, on_pp_closed);
}

/* A work item came back. false: p is closing (and maybe freed): stop. */
static bool pp_work_back(pp *p, int status) {
  p->working = false;
  if (p->closing) {
    pp_maybe_free(p);
    return false;
  }
  if (status < 0) {
    pp_close(p);
    return false;
  }
  return true;
}

static void on_pp_timeout(uv_timer_t *t) {
  pp *p = t->data;
  hg_log_debug("cluster.push_pull_timeout", "peer=%s initiator=%d", p->addr,
               p->initiator);
  pp_close(p);
}

static void pp_arm(pp *p) {
  int64_t left = p->started_ms + CL_PP_TOTAL_MS - hg_now_ms();
  int64_t ms = left < CL_PP_IDLE_MS ? left : CL_PP_IDLE_MS;
  uv_timer_start(&p->timer, on_pp_timeout, ms > 0 ? (uint64_t)ms : 0, 0);
}

static pp *pp_new(hg_cluster *c, bool initiator) {
  pp *p = calloc(1, sizeof *p);
  if (!p) return NULL;
  p->c = c;
  p->initiator = initiator;
  p->started_ms = hg_now_ms();
  uv_tcp_init(c->loop, &p->tcp);
  uv_timer_init(c->loop, &p->timer);
  p->tcp.data = p->timer.data = p->connect.data = p->write.data = p->work.data = p;
  p->handles = 2;
  HG_LIST_PUSH(c->pps, p);
  if (initiator)
    c->pp_out++;
  else
    c->pp_in++;
  return p;
}

static int zstd_pack(const void *in, size_t len, uint8_t **out, size_t *out_len) {
  size_t cap = ZSTD_compressBound(len);
  uint8_t *z = malloc(cap);
  ZSTD_CCtx *cx = ZSTD_createCCtx();
  int rc = z && cx ? 0 : -ENOMEM;
  if (rc == 0) {
    ZSTD_CCtx_setParameter(cx, ZSTD_c_compressionLevel, 1);
    ZSTD_CCtx_setParameter(cx, ZSTD_c_checksumFlag, 1);
    size_t n = ZSTD_compress2(cx, z, cap, in, len);
    if (ZSTD_isError(n))
      rc = -EIO;
    else
      *out_len = n;
  }
  ZSTD_freeCCtx(cx);
  if (rc < 0)
    free(z);
  else
    *out = z;
  return rc;
}

/* Decompresses at most HG_WIRE_TCP_MAX bytes; the frame must say its size. */
static int zstd_unpack(const void *in, size_t len, uint8_t **out, size_t *out_len) {
  unsigned long long n = ZSTD_getFrameContentSize(in, len);
  if (n == ZSTD_CONTENTSIZE_ERROR || n == ZSTD_CONTENTSIZE_UNKNOWN || n == 0 ||
      n > HG_WIRE_TCP_MAX)
    return -EPROTO;
  uint8_t *d = malloc((size_t)n);
  if (!d) return -ENOMEM;
  size_t got = ZSTD_decompress(d, (size_t)n, in, len);
  if (ZSTD_isError(got) || got != n) {
    free(d);
    return -EPROTO;
  }
  *out = d;
  *out_len = got;
  return 0;
}

/* Thread pool: dirents -> users, encode, maybe zstd, seal, frame. */
static void pp_seal_work(uv_work_t *w) {
  pp *p = w->data;
  hg_cluster *c = p->c;
  hg_buf b;
  uint8_t *z = NULL;
  size_t zlen = 0, slen = 0;
  int rc = 0;
  for (size_t i = 0; rc == 0 && i < p->ndirs; i++) {
    hg_wire_user u;
    copy_str(u.key, sizeof u.key, p->dirs[i].sandbox);
    if (hg_dirent_encode(&p->dirs[i], u.data, sizeof u.data, &u.len) < 0) continue;
    rc = hg_wire_add_user(&p->msg, &u);
  }
  free(p->dirs);
  p->dirs = NULL;
  p->ndirs = 0;
  hg_buf_init(&b, HG_WIRE_TCP_MAX);
  if (rc == 0) rc = hg_wire_encode(&p->msg, &b);
  hg_wire_msg_free(&p->msg);
  const void *plain = b.data;
  size_t plen = b.len;
  uint8_t flags = 0;
  if (rc == 0 && plen > CL_ZSTD_MIN && zstd_pack(plain, plen, &z, &zlen) == 0 &&
      zlen < plen) {
    plain = z;
    plen = zlen;
    flags = CL_PP_ZSTD;
  }
  if (rc == 0) {
    size_t cap = CL_PP_HDR + plen + HG_SEAL_OVERHEAD;
    p->out = malloc(cap);
    rc = p->out ? hg_seal(c->kr, plain, plen, p->out + CL_PP_HDR, cap - CL_PP_HDR, &slen)
                : -ENOMEM;
  }
  if (rc == 0) {
    p->out[0] = (uint8_t)(slen >> 24);
    p->out[1] = (uint8_t)(slen >> 16);
    p->out[2] = (uint8_t)(slen >> 8);
    p->out[3] = (uint8_t)slen;
    p->out[4] = flags;
    p->out_len = CL_PP_HDR + slen;
  }
  free(z);
  hg_buf_free(&b);
  p->work_rc = rc;
}

/* Thread pool: unseal, maybe unzstd, decode, users -> dirents. */
static void pp_open_work(uv_work_t *w) {
  pp *p = w->data;
  hg_cluster *c = p->c;
  size_t plen = 0, dlen = 0;
  uint8_t *plain = malloc(p->in_len), *dz = NULL;
  int rc = plain ? 0 : -ENOMEM;
  if (rc == 0 && hg_unseal(c->kr, p->in, p->in_len, plain, p->in_len, &plen) < 0) {
    p->auth_failed = true;
    rc = -EBADMSG;
  }
  free(p->in);
  p->in = NULL;
  const uint8_t *data = plain;
  if (rc == 0 && (p->in_flags & CL_PP_ZSTD)) {
    rc = zstd_unpack(plain, plen, &dz, &dlen);
    data = dz;
    plen = dlen;
  }
  if (rc == 0) rc = hg_wire_decode(data, plen, HG_WIRE_TCP_ITEMS, &p->msg);
  free(plain);
  free(dz);
  if (rc == 0 && p->msg.nusers) {
    p->dirs = malloc(p->msg.nusers * sizeof *p->dirs);
    if (!p->dirs) rc = -ENOMEM;
    for (size_t i = 0; rc == 0 && i < p->msg.nusers; i++) {
      hg_dirent *e = &p->dirs[p->ndirs];
      if (hg_dirent_decode(p->msg.users[i].data, p->msg.users[i].len, e) < 0 ||
          strcmp(e->sandbox, p->msg.users[i].key) != 0)
        p->bad_dirs++;
      else
        p->ndirs++;
    }
    p->msg.nusers = 0;
  }
  if (rc < 0) hg_wire_msg_free(&p->msg);
  p->work_rc = rc;
}

static void on_pp_read(uv_stream_t *s, ssize_t nread, const uv_buf_t *buf);
static void on_pp_alloc(uv_handle_t *h, size_t suggested, uv_buf_t *buf);
static void pp_after_seal(uv_work_t *w, int status);

static void pp_send_state(pp *p) {
  hg_cluster *c = p->c;
  memset(&p->msg, 0, sizeof p->msg);
  int rc = hg_swim_local_state(c->swim, p->initiator && p->join, &p->msg);
  if (rc == 0) {
    p->msg.type = HG_WIRE_PUSH_PULL;
    p->msg.join = p->initiator && p->join;
    stamp(c, &p->msg);
    rc = dir_snapshot(c, &p->dirs, &p->ndirs);
  }
  if (rc == 0) rc = uv_queue_work(c->loop, &p->work, pp_seal_work, pp_after_seal);
  if (rc < 0) {
    hg_log_warn("cluster.push_pull_state", "peer=%s err=%s", p->addr, uv_strerror(rc));
    pp_close(p);
    return;
  }
  p->working = true;
  uv_timer_stop(&p->timer);
}

static void on_pp_write(uv_write_t *w, int status) {
  pp *p = w->data;
  free(p->out);
  p->out = NULL;
  if (p->closing) return;
  if (status < 0) {
    hg_log_debug("cluster.push_pull_write", "peer=%s err=%s", p->addr,
                 uv_strerror(status));
    pp_close(p);
  } else if (!p->initiator) {
    pp_close(p); /* our answer is out: the exchange is over for us */
  }
}

static void pp_after_seal(uv_work_t *w, int status) {
  pp *p = w->data;
  hg_cluster *c = p->c;
  if (!pp_work_back(p, status)) return;
  if (p->work_rc < 0) {
    hg_log_warn("cluster.push_pull_encode", "peer=%s err=%s", p->addr,
                uv_strerror(p->work_rc));
    pp_close(p);
    return;
  }
  uv_buf_t b = uv_buf_init((char *)p->out, (unsigned)p->out_len);
  int rc = uv_write(&p->write, (uv_stream_t *)&p->tcp, &b, 1, on_pp_write);
  if (rc == 0 && p->initiator)
    rc = uv_read_start((uv_stream_t *)&p->tcp, on_pp_alloc, on_pp_read);
  if (rc < 0) {
    pp_close(p);
    return;
  }
  c->bytes_sent += p->out_len;
  pp_arm(p);
}

static void pp_after_open(uv_work_t *w, int status) {
  pp *p = w->data;
  hg_cluster *c = p->c;
  if (!pp_work_back(p, status)) return;
  if (p->work_rc < 0) {
    drop(c, p->auth_failed ? DROP_AUTH : DROP_MALFORMED, p->addr);
    pp_close(p);
    return;
  }
  hg_wire_msg *m = &p->msg;
  if (m->type != HG_WIRE_PUSH_PULL) {
    drop(c, DROP_MALFORMED, p->addr);
    pp_close(p);
    return;
  }
  if (hg_replay_check(c->tcp_replay, m->from, m->boot, m->pkt_seq, m->sent_ms,
                      wall_ms()) < 0) {
    drop(c, DROP_REPLAY, p->addr);
    pp_close(p);
    return;
  }
  c->dropped_malformed += p->bad_dirs;
  hg_swim_merge_state(c->swim, m);
  pthread_mutex_lock(&c->mu);
  for (size_t i = 0; i < p->ndirs; i++) dir_merge(c, &p->dirs[i]);
  pthread_mutex_unlock(&c->mu);
  c->push_pulls++;
  hg_log_debug("cluster.push_pull",
               "peer=%s from=%s members=%zu entries=%zu bytes=%zu zstd=%d initiator=%d",
               p->addr, m->from, m->nmembers, p->ndirs, p->in_need,
               p->in_flags & CL_PP_ZSTD, p->initiator);
  hg_wire_msg_free(m);
  free(p->dirs);
  p->dirs = NULL;
  p->ndirs = 0;
  after_swim(c);
  if (p->initiator)
    pp_close(p);
  else
    pp_send_state(p);
}

static void on_pp_alloc(uv_handle_t *h, size_t suggested, uv_buf_t *buf) {
  pp *p = h->data;
  if (p->hdr_len < CL_PP_HDR) {
    *buf = uv_buf_init((char *)p->hdr + p->hdr_len, (unsigned)(CL_PP_HDR - p->hdr_len));
    return;
  }
  /* Grow as bytes arrive: a peer that announces 64 MiB must send them. */
  if (p->in_len == p->in_cap) {
    size_t cap = p->in_cap ? 2 * p->in_cap : 64 * 1024;
    if (cap > p->in_need) cap = p->in_need;
    uint8_t *n = realloc(p->in, cap);
    if (!n) {
      *buf = uv_buf_init(NULL, 0);
      return;
    }
    p->in = n;
    p->in_cap = cap;
  }
  *buf = uv_buf_init((char *)p->in + p->in_len, (unsigned)(p->in_cap - p->in_len));
}

static void on_pp_read(uv_stream_t *s, ssize_t nread, const uv_buf_t *buf) {
  pp *p = s->data;
  hg_cluster *c = p->c;
  if (nread == 0 || p->closing) return;
  if (nread < 0) {
    hg_log_debug("cluster.push_pull_read", "peer=%s err=%s", p->addr,
                 uv_strerror((int)nread));
    pp_close(p);
    return;
  }
  c->bytes_received += (uint64_t)nread;
  if (p->hdr_len < CL_PP_HDR) {
    p->hdr_len += (size_t)nread;
    if (p->hdr_len < CL_PP_HDR) return;
    uint32_t len = (uint32_t)p->hdr[0] << 24 | (uint32_t)p->hdr[1] << 16 |
                   (uint32_t)p->hdr[2] << 8 | p->hdr[3];
    p->in_flags = p->hdr[4];
    if (len <= HG_SEAL_OVERHEAD || len > HG_WIRE_TCP_MAX + HG_SEAL_OVERHEAD ||
        (p->in_flags & ~CL_PP_ZSTD)) {
      drop(c, DROP_MALFORMED, p->addr);
      pp_close(p);
      return;
    }
    p->in_need = len;
  } else {
    p->in_len += (size_t)nread;
  }
  if (p->in_len < p->in_need) {
    pp_arm(p);
    return;
  }
  uv_read_stop(s);
  uv_timer_stop(&p->timer);
  if (uv_queue_work(c->loop, &p->work, pp_open_work, pp_after_open) < 0) {
    pp_close(p);
    return;
  }
  p->working = true;
}

static void on_pp_connect(uv_connect_t *req, int status) {
  pp *p = req->data;
  if (p->closing) return;
  if (status < 0) {
    hg_log_debug("cluster.push_pull_connect", "peer=%s err=%s", p->addr,
                 uv_strerror(status));
    pp_close(p);
    return;
  }
  pp_send_state(p);
}

static void io_push_pull(void *ud, const char *addr, bool join) {
  hg_cluster *c = ud;
  struct sockaddr_storage sa;
  if (!c->started || c->shutting) return;
  if (c->pp_out >= CL_PP_MAX) {
    hg_log_debug("cluster.push_pull_busy", "peer=%s", addr);
    return;
  }
  if (addr_parse(addr, &sa) < 0) {
    hg_log_debug("cluster.push_pull_addr", "peer=%s", addr);
    return;
  }
  pp *p = pp_new(c, true);
  if (!p) return;
  copy_str(p->addr, sizeof p->addr, addr);
  p->join = join;
  int rc =
      uv_tcp_connect(&p->connect, &p->tcp, (const struct sockaddr *)&sa, on_pp_connect);
  if (rc < 0) {
    hg_log_debug("cluster.push_pull_connect", "peer=%s err=%s", addr, uv_strerror(rc));
    pp_close(p);
    return;
  }
  pp_arm(p);
}

static void on_pp_connection(uv_stream_t *server, int status) {
  hg_cluster *c = server->data;
  if (status < 0 || c->shutting) return;
  pp *p = pp_new(c, false);
  if (!p) return;
  if (uv_accept(server, (uv_stream_t *)&p->tcp) < 0) {
    pp_close(p);
    return;
  }
  struct sockaddr_storage sa;
  int len = sizeof sa;
  if (uv_tcp_getpeername(&p->tcp, (struct sockaddr *)&sa, &len) == 0)
    addr_name((struct sockaddr *)&sa, p->addr, sizeof p->addr);
  if (c->pp_in > CL_PP_MAX) {
    hg_log_debug("cluster.push_pull_busy", "peer=%s", p->addr);
    pp_close(p);
    return;
  }
  if (uv_read_start((uv_stream_t *)&p->tcp, on_pp_alloc, on_pp_read) < 0) {
    pp_close(p);
    return;
  }
  pp_arm(p);
}

/* ---- swim callbacks and timers ---- */

static int64_t io_now(void *ud) {
  return hg_now_ms();
}

static void io_on_member(void *ud, const hg_swim_member *m, hg_member_state old,
                         bool is_new) {
  hg_cluster *c = ud;
  member_info *mi = minfo_get(c, m->id);
  if (!mi) mi = minfo_add(c, m->id);
  if (mi && (m->meta_len != mi->raw_len || memcmp(m->meta, mi->raw, m->meta_len) != 0)) {
    memcpy(mi->raw, m->meta, m->meta_len);
    mi->raw_len = m->meta_len;
    hg_node_meta meta;
    mi->has_meta = false;
    if (m->meta_len && hg_node_meta_decode(m->meta, m->meta_len, &meta) == 0) {
      mi->meta = meta;
      mi->has_meta = true;
    } else if (m->meta_len) {
      drop(c, DROP_MALFORMED, m->addr);
    }
  }
  if (m->state == HG_MEMBER_ALIVE)
    roster_note(c, m->id, m->addr, mi && mi->has_meta ? mi->meta.api_addr : NULL);
  if (strcmp(m->id, c->id) != 0) {
    peer_snap s;
    snap_fill(&s, m->id, m->state, mi && mi->has_meta ? &mi->meta : NULL);
    snap_update(c, &s);
  }
  if (is_new || old != m->state)
    hg_log_info("cluster.member",
                "node=%s state=%s was=%s incarnation=%" PRIu64 " addr=%s", m->id,
                hg_member_state_name(m->state),
                is_new ? "new" : hg_member_state_name(old), m->incarnation, m->addr);
}

static void io_on_user(void *ud, const hg_wire_user *u) {
  hg_cluster *c = ud;
  hg_dirent e;
  if (hg_dirent_decode(u->data, u->len, &e) < 0 || strcmp(e.sandbox, u->key) != 0) {
    drop(c, DROP_MALFORMED, NULL);
    return;
  }
  pthread_mutex_lock(&c->mu);
  dir_merge(c, &e);
  pthread_mutex_unlock(&c->mu);
}

static void on_swim_timer(uv_timer_t *t) {
  hg_cluster *c = t->data;
  hg_swim_tick(c->swim);
  after_swim(c);
}

static void swim_kick(hg_cluster *c) {
  if (!c->started || c->shutting) return;
  int64_t delay = hg_swim_next_ms(c->swim) - hg_now_ms();
  /* +1: the loop's clock may lag ours by a fraction of a millisecond */
  uv_timer_start(&c->swim_timer, on_swim_timer, delay > 0 ? (uint64_t)delay + 1 : 0, 0);
}

static void after_swim(hg_cluster *c) {
  swim_kick(c);
  persist_schedule(c);
}

/* Directory entries put by other threads, broadcast from the loop. */
static void on_async(uv_async_t *a) {
  hg_cluster *c = a->data;
  for (;;) {
    hg_wire_user u;
    bool have = false;
    pthread_mutex_lock(&c->mu);
    while (c->npending && !have) {
      dir_node *n = dir_find(c, c->pending[--c->npending]);
      if (!n) continue;
      copy_str(u.key, sizeof u.key, n->e.sandbox);
      have = hg_dirent_encode(&n->e, u.data, sizeof u.data, &u.len) == 0;
    }
    pthread_mutex_unlock(&c->mu);
    if (!have) break;
    if (c->started && !c->shutting) hg_swim_broadcast_user(c->swim, &u);
  }
  after_swim(c);
}

static void on_house_timer(uv_timer_t *t) {
  hg_cluster *c = t->data;
  if (!c->closing) meta_publish(c, false); /* swim refuses it after leave */
  int64_t now = hg_now_ms();
  if (now - c->sweep_ms >= CL_SWEEP_MS) {
    c->sweep_ms = now;
    dir_sweep(c);
    minfo_prune(c);
  }
  peers_rebuild(c);
  drop_log(c, false);
  persist_schedule(c);
}

/* ---- lifecycle ---- */

static int swim_setup(hg_cluster *c, const hg_cluster_config *cfg) {
  hg_swim_config *s = &c->swim_cfg;
  memset(s, 0, sizeof *s);
  int rc = hg_swim_profile(s, cfg->profile ? cfg->profile : "lan");
  if (rc < 0) {
    hg_log_error("cluster.config", "profile=%s err=unknown profile", cfg->profile);
    return rc;
  }
  const hg_swim_config *o = &cfg->swim;
#define OVERRIDE(f) \
  if (o->f) s->f = o->f
  OVERRIDE(probe_interval_ms);
  OVERRIDE(probe_timeout_ms);
  OVERRIDE(indirect_checks);
  OVERRIDE(suspicion_mult);
  OVERRIDE(suspicion_max_mult);
  OVERRIDE(retransmit_mult);
  OVERRIDE(gossip_interval_ms);
  OVERRIDE(gossip_nodes);
  OVERRIDE(push_pull_interval_ms);
  OVERRIDE(rejoin_interval_ms);
  OVERRIDE(awareness_max);
  OVERRIDE(dead_forget_ms);
  OVERRIDE(seed);
#undef OVERRIDE
  size_t udp_max = HG_WIRE_UDP_MAX - HG_SEAL_OVERHEAD;
  s->udp_max = o->udp_max && o->udp_max < udp_max ? o->udp_max : udp_max;
  copy_str(s->id, sizeof s->id, c->id);
  copy_str(s->addr, sizeof s->addr, c->advertise);
  if (!s->seed && hg_random_bytes(&s->seed, sizeof s->seed) < 0)
    s->seed = (uint64_t)hg_now_ns();
  hg_buf_init(&c->enc, s->udp_max);

  hg_swim_io io = {.ud = c,
                   .now_ms = io_now,
                   .send = io_send,
                   .push_pull = io_push_pull,
                   .on_member = io_on_member,
                   .on_user = io_on_user};
  uint64_t stored = incarnation_load(c);
  return hg_swim_new(s, &io, stored ? stored + 1 : 0, &c->swim);
}

static void cluster_free(hg_cluster *c) {
  hg_swim_free(c->swim);
  hg_keyring_free(c->kr);
  hg_replay_free(c->udp_replay);
  hg_replay_free(c->tcp_replay);
  hg_buf_free(&c->enc);
  dir_free(c);
  free(c->pending);
  free(c->minfo);
  free(c->peers);
  free(c->peers_build);
  free(c->roster);
  free(c->join);
  free(c->state_dir);
  pthread_mutex_destroy(&c->mu);
  free(c);
}

static int config_check(const hg_cluster_config *cfg) {
  if (!cfg->node_id || !cfg->node_id[0] || strlen(cfg->node_id) >= HG_NODE_ID_MAX)
    return -EINVAL;
  if (!cfg->gossip || !cfg->cluster_key || !cfg->cluster_key[0]) return -EINVAL;
  if (cfg->zone && strlen(cfg->zone) >= sizeof((hg_node_meta *)0)->zone) return -EINVAL;
  return 0;
}

int hg_cluster_new(uv_loop_t *loop, const hg_cluster_config *cfg, hg_cluster **out) {
  int rc = config_check(cfg);
  if (rc < 0) {
    hg_log_error("cluster.config", "err=node_id, gossip and cluster_key are required");
    return rc;
  }
  hg_cluster *c = calloc(1, sizeof *c);
  if (!c) return -ENOMEM;
  pthread_mutex_init(&c->mu, NULL);
  c->loop = loop;
  copy_str(c->id, sizeof c->id, cfg->node_id);
  copy_str(c->gossip, sizeof c->gossip, cfg->gossip);
  copy_str(c->advertise, sizeof c->advertise,
           cfg->advertise && cfg->advertise[0] ? cfg->advertise : cfg->gossip);
  copy_str(c->zone, sizeof c->zone, cfg->zone);
  c->boot = hg_replay_boot();
  if (hg_random_bytes(&c->rng, sizeof c->rng) < 0 || !c->rng)
    c->rng = (uint64_t)hg_now_ns() | 1;
  c->nbuckets = 1024;
  c->buckets = calloc(c->nbuckets, sizeof *c->buckets);
  c->join = strdup(cfg->join ? cfg->join : "");
  c->state_dir = cfg->state_dir && cfg->state_dir[0] ? strdup(cfg->state_dir) : NULL;
  rc = c->buckets && c->join && (c->state_dir || !cfg->state_dir || !cfg->state_dir[0])
           ? 0
           : -ENOMEM;
  struct sockaddr_storage adv;
  if (rc == 0 && (addr_parse(c->gossip, &c->bind_sa) < 0 ||
                  addr_parse(c->advertise, &adv) < 0 || addr_unspecified(&adv))) {
    hg_log_error("cluster.config",
                 "gossip=%s advertise=%s err=need numeric HOST:PORT (advertise "
                 "one peers can reach)",
                 c->gossip, c->advertise);
    rc = -EINVAL;
  }
  if (rc == 0)
    rc = hg_keyring_new(cfg->cluster_name ? cfg->cluster_name : "hangar", &c->kr);
  if (rc == 0) rc = hg_keyring_parse(c->kr, cfg->cluster_key);
  if (rc == 0) rc = hg_replay_new(CL_REPLAY_SENDERS, CL_REPLAY_SKEW_MS, &c->udp_replay);
  if (rc == 0) rc = hg_replay_new(CL_REPLAY_SENDERS, CL_REPLAY_SKEW_MS, &c->tcp_replay);
  if (rc == 0 && c->state_dir) rc = hg_mkdir_p(c->state_dir, 0700);
  if (rc == 0) rc = roster_load(c);
  if (rc == 0) rc = swim_setup(c, cfg);
  if (rc < 0) {
    cluster_free(c);
    return rc;
  }
  c->meta = cfg->self;
  meta_fix(c, &c->meta);
  roster_note(c, c->id, c->advertise, c->meta.api_addr);

  uv_udp_init(loop, &c->udp);
  uv_tcp_init(loop, &c->listener);
  uv_timer_init(loop, &c->swim_timer);
  uv_timer_init(loop, &c->house_timer);
  uv_timer_init(loop, &c->leave_timer);
  uv_async_init(loop, &c->async, on_async);
  c->udp.data = c->listener.data = c->swim_timer.data = c->house_timer.data = c;
  c->leave_timer.data = c->async.data = c;
  c->handles = 6;
  *out = c;
  return 0;
}

/* Seeds: the join flag, then a random sample of the roster's last known
 * addresses, so a restarted node finds the cluster even when its seeds are
 * gone. swim keeps at most CL_SEEDS_MAX. */
static void join_seeds(hg_cluster *c) {
  size_t cap = c->nroster + CL_SEEDS_MAX, n = 0, nflag = 0;
  char(*seeds)[HG_ADDR_MAX] = calloc(cap, sizeof *seeds);
  const char **ptrs = calloc(cap, sizeof *ptrs);
  char *list = strdup(c->join);
  if (!seeds || !ptrs || !list) goto out;
  for (char *save = NULL, *tok = strtok_r(list, ",", &save); tok;
       tok = strtok_r(NULL, ",", &save)) {
    while (*tok == ' ') tok++;
    if (*tok && n < CL_SEEDS_MAX) copy_str(seeds[n++], HG_ADDR_MAX, tok);
  }
  nflag = n;
  for (size_t i = 0; i < c->nroster; i++)
    if (strcmp(c->roster[i].id, c->id) != 0 && c->roster[i].gossip[0])
      copy_str(seeds[n++], HG_ADDR_MAX, c->roster[i].gossip);
  for (size_t i = n; i > nflag + 1; i--) { /* shuffle the roster's part */
    size_t j = nflag + rnd(c) % (i - nflag);
    char tmp[HG_ADDR_MAX];
    memcpy(tmp, seeds[i - 1], sizeof tmp);
    memcpy(seeds[i - 1], seeds[j], sizeof tmp);
    memcpy(seeds[j], tmp, sizeof tmp);
  }
  size_t k = 0;
  for (size_t i = 0; i < n && k < CL_SEEDS_MAX; i++) {
    bool dup = strcmp(seeds[i], c->advertise) == 0 || strcmp(seeds[i], c->gossip) == 0;
    for (size_t j = 0; j < k && !dup; j++) dup = strcmp(ptrs[j], seeds[i]) == 0;
    if (dup) continue;
    struct sockaddr_storage sa;
    if (addr_parse(seeds[i], &sa) < 0) {
      hg_log_warn("cluster.seed_invalid", "seed=%s", seeds[i]);
      continue;
    }
    ptrs[k++] = seeds[i];
  }
  if (k) {
    int rc = hg_swim_join(c->swim, ptrs, k);
    hg_log_info("cluster.join", "seeds=%zu first=%s err=%s", k, ptrs[0],
                rc < 0 ? uv_strerror(rc) : "none");
  }
out:
  free(seeds);
  free(ptrs);
  free(list);
}

int hg_cluster_start(hg_cluster *c) {
  if (c->started || c->closing) return -EALREADY;
  const struct sockaddr *sa = (const struct sockaddr *)&c->bind_sa;
  int rc = uv_udp_bind(&c->udp, sa, 0);
  if (rc == 0) rc = uv_tcp_bind(&c->listener, sa, 0);
  if (rc == 0) rc = uv_listen((uv_stream_t *)&c->listener, 128, on_pp_connection);
  if (rc == 0) rc = uv_udp_recv_start(&c->udp, on_udp_alloc, on_udp_recv);
  if (rc < 0) {
    hg_log_error("cluster.bind", "addr=%s err=%s", c->gossip, uv_strerror(rc));
    return rc;
  }
  /* The incarnation we start with is on disk before anyone hears it, so
   * two quick restarts still count up. Blocking, once, at start. */
  uint64_t inc = hg_swim_incarnation(c->swim);
  if (c->state_dir && persist_write(c->state_dir, NULL, true, inc) == 0)
    c->inc_saved = inc;
  c->started = true;
  c->sweep_ms = hg_now_ms();
  meta_publish(c, true);
  peers_rebuild(c);
  uv_timer_start(&c->house_timer, on_house_timer, CL_HOUSEKEEP_MS, CL_HOUSEKEEP_MS);
  hg_log_info("cluster.start",
              "node=%s gossip=%s advertise=%s incarnation=%" PRIu64 " roster=%zu", c->id,
              c->gossip, c->advertise, hg_swim_incarnation(c->swim), c->nroster);
  join_seeds(c);
  after_swim(c);
  return 0;
}

static void on_cluster_closed(uv_handle_t *h) {
  hg_cluster *c = h->data;
  c->handles--;
  cluster_maybe_finish(c);
}

static void cluster_maybe_finish(hg_cluster *c) {
  if (!c->shutting || c->handles > 0 || c->pps || c->persist_busy) return;
  if (!c->crashed && c->state_dir && c->swim) {
    uint64_t inc = hg_swim_incarnation(c->swim);
    char *roster = c->roster_dirty ? roster_dump(c) : NULL;
    if (roster || inc != c->inc_saved)
      persist_write(c->state_dir, roster, inc != c->inc_saved, inc);
    free(roster);
  }
  drop_log(c, true);
  hg_log_info("cluster.closed", "node=%s", c->id);
  void (*done)(void *) = c->done;
  void *ud = c->done_ud;
  cluster_free(c);
  if (done) done(ud);
}

static void close_handles(hg_cluster *c) {
  c->shutting = true;
  pthread_mutex_lock(&c->mu);
  c->async_closed = true; /* no thread may signal a closing handle */
  pthread_mutex_unlock(&c->mu);
  if (c->started) uv_udp_recv_stop(&c->udp);
  uv_close((uv_handle_t *)&c->udp, on_cluster_closed);
  uv_close((uv_handle_t *)&c->listener, on_cluster_closed);
  uv_close((uv_handle_t *)&c->swim_timer, on_cluster_closed);
  uv_close((uv_handle_t *)&c->house_timer, on_cluster_closed);
  uv_close((uv_handle_t *)&c->leave_timer, on_cluster_closed);
  uv_close((uv_handle_t *)&c->async, on_cluster_closed);
  for (pp *p = c->pps; p; p = p->next) {
    if (p->working) uv_cancel((uv_req_t *)&p->work);
    pp_close(p);
  }
  if (c->persist_busy) uv_cancel((uv_req_t *)&c->persist);
  cluster_maybe_finish(c);
}

static void on_leave_timer(uv_timer_t *t) {
  close_handles(t->data);
}

static void cluster_close(hg_cluster *c, bool leave, void (*done)(void *), void *ud) {
  if (c->closing) return;
  c->closing = true;
  c->done = done;
  c->done_ud = ud;
  if (!leave || !c->started) {
    c->crashed = !leave;
    close_handles(c);
    return;
  }
  hg_log_info("cluster.leave", "node=%s", c->id);
  hg_swim_leave(c->swim);
  after_swim(c);
  /* A few gossip rounds carry the "left" to the others. */
  unsigned wait = 4 * c->swim_cfg.gossip_interval_ms;
  if (wait > CL_LEAVE_MAX_MS || wait == 0) wait = CL_LEAVE_MAX_MS;
  uv_timer_start(&c->leave_timer, on_leave_timer, wait, 0);
}

void hg_cluster_close(hg_cluster *c, void (*done)(void *ud), void *ud) {
  cluster_close(c, true, done, ud);
}

void hg_cluster_crash(hg_cluster *c, void (*done)(void *ud), void *ud) {
  cluster_close(c, false, done, ud);
}

/* ---- metadata and directory API ---- */

void hg_cluster_set_meta(hg_cluster *c, const hg_node_meta *self) {
  pthread_mutex_lock(&c->mu);
  c->meta = *self;
  meta_fix(c, &c->meta);
  c->meta_changed = true;
  pthread_mutex_unlock(&c->mu);
}

int hg_cluster_dir_put(hg_cluster *c, const hg_dirent *e) {
  if (!e->sandbox[0] || strnlen(e->sandbox, sizeof e->sandbox) >= sizeof e->sandbox)
    return -EINVAL;
  hg_dirent n = *e;
  if (!n.owner[0]) copy_str(n.owner, sizeof n.owner, c->id);
  if (!n.updated_ms) n.updated_ms = wall_ms();
  int rc = 0;
  pthread_mutex_lock(&c->mu);
  dir_node *old = dir_find(c, n.sandbox);
  if (old && old->e.epoch > n.epoch) {
    rc = -ESTALE; /* fenced: someone claimed it at a higher epoch */
  } else {
    /* The version never goes back, even for an owner that restarted and
     * has not heard its old entries yet: floor it at the wall clock. */
    uint64_t v = (uint64_t)wall_ms();
    if (old && old->e.epoch == n.epoch && old->e.version >= v) v = old->e.version + 1;
    if (n.version >= v) v = n.version + 1;
    n.version = v;
    rc = dir_merge(c, &n);
    if (rc > 0) rc = 0;
  }
  bool signal = false;
  if (rc == 0 && c->npending < CL_PENDING_MAX) {
    if (c->npending == c->pending_cap) {
      size_t cap = c->pending_cap ? 2 * c->pending_cap : 64;
      void *p = realloc(c->pending, cap * sizeof *c->pending);
      if (p) {
        c->pending = p;
        c->pending_cap = cap;
      }
    }
    if (c->npending < c->pending_cap) {
      copy_str(c->pending[c->npending++], HG_ID_MAX, n.sandbox);
      signal = !c->async_closed;
    }
  }
  if (signal) uv_async_send(&c->async);
  pthread_mutex_unlock(&c->mu);
  return rc;
}

int hg_cluster_dir_get(hg_cluster *c, const char *sandbox, hg_dirent *out) {
  if (!sandbox) return -EINVAL;
  pthread_mutex_lock(&c->mu);
  dir_node *n = dir_find(c, sandbox);
  if (n) *out = n->e;
  pthread_mutex_unlock(&c->mu);
  return n ? 0 : -ENOENT;
}

/* ---- members ---- */

static hg_swim_member *members_copy(hg_cluster *c, size_t *n) {
  size_t cap = hg_swim_members(c->swim, NULL, 0);
  hg_swim_member *a = calloc(cap ? cap : 1, sizeof *a);
  if (!a) {
    *n = 0;
    return NULL;
  }
  *n = hg_swim_members(c->swim, a, cap);
  if (*n > cap) *n = cap;
  return a;
}

/* Our own latest metadata, or a member's last decoded one. */
static bool meta_of(hg_cluster *c, const char *id, hg_node_meta *out) {
  if (strcmp(id, c->id) == 0) {
    pthread_mutex_lock(&c->mu);
    *out = c->meta;
    pthread_mutex_unlock(&c->mu);
    return true;
  }
  member_info *mi = minfo_get(c, id);
  if (!mi || !mi->has_meta) return false;
  *out = mi->meta;
  return true;
}

int hg_cluster_api_addr(hg_cluster *c, const char *node_id, char addr[HG_ADDR_MAX]) {
  const hg_swim_member *m = hg_swim_member_get(c->swim, node_id);
  if (!m) return -ENOENT;
  if (m->state != HG_MEMBER_ALIVE) return -EHOSTDOWN;
  hg_node_meta meta;
  if (!meta_of(c, node_id, &meta) || !meta.api_addr[0]) return -ENOENT;
  copy_str(addr, HG_ADDR_MAX, meta.api_addr);
  return 0;
}

/* ---- peers and replica targets (thread-safe) ---- */

/* Caller holds mu: compatibility is judged against our metadata now. */
static hg_cluster_peer snap_peer(const hg_cluster *c, const peer_snap *s) {
  hg_cluster_peer p = s->p;
  p.compatible = s->has_meta && strcmp(s->vmm_kind, c->meta.vmm_kind) == 0 &&
                 strcmp(s->cpu_class, c->meta.cpu_class) == 0;
  return p;
}

size_t hg_cluster_peers(hg_cluster *c, hg_cluster_peer *out, size_t cap) {
  size_t k = 0;
  pthread_mutex_lock(&c->mu);
  for (size_t i = 0; i < c->npeers && k < cap; i++)
    if (c->peers[i].has_meta && c->peers[i].p.alive)
      out[k++] = snap_peer(c, &c->peers[i]);
  pthread_mutex_unlock(&c->mu);
  return k;
}

int hg_cluster_peer_get(hg_cluster *c, const char *id, hg_cluster_peer *out) {
  if (!id) return -EINVAL;
  int rc = -ENOENT;
  pthread_mutex_lock(&c->mu);
  if (strcmp(id, c->id) == 0) {
    peer_snap s;
    snap_fill(&s, c->id, HG_MEMBER_ALIVE, &c->meta);
    *out = s.p;
    out->compatible = true;
    rc = 0;
  } else {
    bool found;
    size_t i = snap_find(c, id, &found);
    if (found && !c->peers[i].p.alive) {
      rc = -EHOSTDOWN;
    } else if (found && c->peers[i].has_meta) {
      *out = snap_peer(c, &c->peers[i]);
      rc = 0;
    }
  }
  pthread_mutex_unlock(&c->mu);
  return rc;
}

typedef struct target_cand {
  hg_cluster_peer p;
  uint64_t w;
  bool taken;
} target_cand;

/* The first 8 bytes of SHA-256(key | 0x00 | id), big-endian. */
static int rendezvous_weight(EVP_MD_CTX *md, const char *key, const char *id,
                             uint64_t *w) {
  uint8_t h[EVP_MAX_MD_SIZE];
  unsigned len = 0;
  if (!EVP_DigestInit_ex(md, EVP_sha256(), NULL) ||
      !EVP_DigestUpdate(md, key, strlen(key)) || !EVP_DigestUpdate(md, "", 1) ||
      !EVP_DigestUpdate(md, id, strlen(id)) || !EVP_DigestFinal_ex(md, h, &len) ||
      len < 8)
    return -EIO;
  uint64_t v = 0;
  for (int i = 0; i < 8; i++) v = v << 8 | h[i];
  *w = v;
  return 0;
}

static int cand_cmp(const void *a, const void *b) {
  const target_cand *x = a, *y = b;
  if (x->w != y->w) return x->w > y->w ? -1 : 1;
  return strcmp(x->p.id, y->p.id);
}

static bool str_in(const char *s, const char *const *v, size_t n) {
  for (size_t i = 0; i < n; i++)
    if (v[i] && strcmp(v[i], s) == 0) return true;
  return false;
}

typedef char zone_name[32];

static bool zone_in(zone_name *zones, size_t n, const char *z) {
  for (size_t i = 0; i < n; i++)
    if (strcmp(zones[i], z) == 0) return true;
  return false;
}

/* Under mu: the eligible peers into cand, and into zones our zone and those
 * of the excluded peers still alive (a dead holder keeps no zone safe).
 * zones holds npeers + 1. */
static size_t targets_collect(hg_cluster *c, const char *const *exclude, size_t nexclude,
                              target_cand *cand, zone_name *zones, size_t *nzones) {
  size_t k = 0;
  copy_str(zones[(*nzones)++], sizeof *zones, c->meta.zone);
  for (size_t i = 0; i < c->npeers; i++) {
    const peer_snap *s = &c->peers[i];
    if (!s->has_meta) continue;
    if (str_in(s->p.id, exclude, nexclude)) {
      if (s->p.alive && !zone_in(zones, *nzones, s->p.zone))
        copy_str(zones[(*nzones)++], sizeof *zones, s->p.zone);
      continue;
    }
    hg_cluster_peer p = snap_peer(c, s);
    if (s->state == HG_MEMBER_ALIVE && p.compatible && !p.draining && p.repl_addr[0])
      cand[k++] = (target_cand){.p = p};
  }
  return k;
}

size_t hg_cluster_replica_targets(hg_cluster *c, const char *key,
                                  const char *const *exclude, size_t nexclude, size_t n,
                                  hg_cluster_peer *out) {
  if (!key || !n || !out) return 0;
  size_t ncand = 0, nzones = 0, k = 0;
  pthread_mutex_lock(&c->mu);
  target_cand *cand = malloc((c->npeers ? c->npeers : 1) * sizeof *cand);
  zone_name *zones = malloc((c->npeers + 1) * sizeof *zones);
  if (cand && zones) ncand = targets_collect(c, exclude, nexclude, cand, zones, &nzones);
  pthread_mutex_unlock(&c->mu);
  EVP_MD_CTX *md = cand && zones ? EVP_MD_CTX_new() : NULL;
  int rc = md ? 0 : -ENOMEM;
  for (size_t i = 0; rc == 0 && i < ncand; i++)
    rc = rendezvous_weight(md, key, cand[i].p.id, &cand[i].w);
  if (rc < 0) {
    hg_log_error("cluster.replica_targets", "key=%s err=%s", key, uv_strerror(rc));
    ncand = 0;
  }
  if (ncand > 1) qsort(cand, ncand, sizeof *cand, cand_cmp);
  /* First the best of each zone no copy is in yet, then by weight alone. */
  for (size_t i = 0; i < ncand && k < n; i++) {
    if (zone_in(zones, nzones, cand[i].p.zone)) continue;
    copy_str(zones[nzones++], sizeof *zones, cand[i].p.zone);
    cand[i].taken = true;
    out[k++] = cand[i].p;
  }
  for (size_t i = 0; i < ncand && k < n; i++)
    if (!cand[i].taken) out[k++] = cand[i].p;
  EVP_MD_CTX_free(md);
  free(cand);
  free(zones);
  return k;
}

static json_t *strs_json(const char *strs, size_t stride, unsigned n) {
  json_t *a = json_array();
  for (unsigned i = 0; i < n; i++)
    json_array_append_new(a, json_string(strs + i * stride));
  return a;
}

static json_t *member_json(hg_cluster *c, const char *id, const char *state, uint64_t inc,
                           int64_t since_wall, const char *gossip) {
  hg_node_meta meta;
  bool has = meta_of(c, id, &meta);
  if (!has) memset(&meta, 0, sizeof meta);
  roster_ent *r = roster_get(c, id);
  char since[32] = "";
  if (since_wall > 0) hg_iso_time(since_wall, since);
  const char *api = meta.api_addr[0] ? meta.api_addr : r ? r->api : "";
  return json_pack(
      "{s:s,s:s,s:I,s:s?,s:{s:s,s:s,s:s},s:s,s:b,s:{s:s,s:s,s:s},"
      "s:{s:I,s:I,s:I,s:I},s:{s:I,s:I,s:{s:I,s:I,s:I,s:I}},s:o,s:o,s:b,s:b}",
      "id", id, "state", state, "incarnation", (json_int_t)inc, "since",
      since[0] ? since : NULL, "addresses", "api", api, "gossip", gossip, "replication",
      meta.repl_addr, "zone", meta.zone, "draining", meta.draining, "vmm", "kind",
      meta.vmm_kind, "version", meta.vmm_version, "cpu_class", meta.cpu_class, "capacity",
      "vcpus", (json_int_t)meta.vcpus_total, "memory_mib",
      (json_int_t)meta.memory_total_mib, "disk_free_mib", (json_int_t)meta.disk_free_mib,
      "max_sandboxes", (json_int_t)meta.max_sandboxes, "load", "vcpus_used",
      (json_int_t)meta.vcpus_used, "memory_used_mib", (json_int_t)meta.memory_used_mib,
      "sandboxes", "running", (json_int_t)meta.sandboxes_running, "paused",
      (json_int_t)meta.sandboxes_paused, "suspended",
      (json_int_t)meta.sandboxes_suspended, "total", (json_int_t)meta.sandboxes_total,
      "templates", strs_json(meta.templates[0], HG_META_NAME_MAX, meta.ntemplates),
      "labels", strs_json(meta.labels[0], HG_META_NAME_MAX, meta.nlabels), "roster",
      r != NULL, "self", strcmp(id, c->id) == 0);
}

static int json_id_cmp(const void *a, const void *b) {
  const char *x = json_string_value(json_object_get(*(json_t *const *)a, "id"));
  const char *y = json_string_value(json_object_get(*(json_t *const *)b, "id"));
  return strcmp(x ? x : "", y ? y : "");
}

json_t *hg_cluster_members_json(hg_cluster *c) {
  size_t n = 0;
  hg_swim_member *ms = members_copy(c, &n);
  int64_t mono = hg_now_ms(), wall = wall_ms();
  size_t cap = n + c->nroster, k = 0;
  json_t **items = calloc(cap ? cap : 1, sizeof *items);
  json_t *out = json_array();
  if (!items || !out) goto done;
  for (size_t i = 0; i < n; i++)
    items[k++] =
        member_json(c, ms[i].id, hg_member_state_name(ms[i].state), ms[i].incarnation,
                    wall - (mono - ms[i].since_ms), ms[i].addr);
  /* Roster members swim has forgotten (dead long ago): still counted. */
  for (size_t i = 0; i < c->nroster; i++) {
    bool known = false;
    for (size_t j = 0; j < n && !known; j++)
      known = strcmp(ms[j].id, c->roster[i].id) == 0;
    if (!known)
      items[k++] = member_json(c, c->roster[i].id, "dead", 0, 0, c->roster[i].gossip);
  }
  qsort(items, k, sizeof *items, json_id_cmp);
  for (size_t i = 0; i < k; i++)
    if (items[i]) json_array_append_new(out, items[i]);
done:
  free(items);
  free(ms);
  return out;
}

static int dirent_ptr_cmp(const void *a, const void *b) {
  return strcmp((*(const hg_dirent *const *)a)->sandbox,
                (*(const hg_dirent *const *)b)->sandbox);
}

json_t *hg_cluster_dir_json(hg_cluster *c) {
  json_t *out = json_array();
  pthread_mutex_lock(&c->mu);
  const hg_dirent **v = malloc((c->ndir ? c->ndir : 1) * sizeof *v);
  size_t k = 0;
  if (v) {
    for (size_t b = 0; b < c->nbuckets; b++)
      for (dir_node *n = c->buckets[b]; n; n = n->next) v[k++] = &n->e;
    qsort(v, k, sizeof *v, dirent_ptr_cmp);
  }
  for (size_t i = 0; i < k; i++) {
    const hg_dirent *e = v[i];
    char t[32];
    hg_iso_time(e->updated_ms, t);
    json_array_append_new(
        out, json_pack("{s:s,s:s,s:I,s:I,s:s,s:s,s:I,s:o,s:s}", "sandbox", e->sandbox,
                       "owner", e->owner, "epoch", (json_int_t)e->epoch, "version",
                       (json_int_t)e->version, "state", e->state, "template",
                       e->template_ref, "gen", (json_int_t)e->gen, "holders",
                       strs_json(e->holders[0], HG_NODE_ID_MAX, e->nholders),
                       "updated_at", t));
  }
  pthread_mutex_unlock(&c->mu);
  free(v);
  return out;
}

int hg_cluster_decommission(hg_cluster *c, const char *node_id) {
  roster_ent *r = node_id ? roster_get(c, node_id) : NULL;
  if (!r) return -ENOENT;
  const hg_swim_member *m = hg_swim_member_get(c->swim, node_id);
  if (strcmp(node_id, c->id) == 0 ||
      (m && (m->state == HG_MEMBER_ALIVE || m->state == HG_MEMBER_SUSPECT)))
    return -EBUSY;
  *r = c->roster[--c->nroster];
  c->roster_dirty = true;
  hg_log_info("cluster.decommission", "node=%s roster=%zu", node_id, c->nroster);
  persist_schedule(c);
  return 0;
}

/* ---- placement ---- */

static void template_norm(const char *ref, char out[HG_META_NAME_MAX]) {
  if (!ref || !ref[0]) ref = "default";
  if (strchr(ref, ':'))
    copy_str(out, HG_META_NAME_MAX, ref);
  else
    snprintf(out, HG_META_NAME_MAX, "%.*s:latest", HG_META_NAME_MAX - 8, ref);
}

static bool has_str(const char *strs, size_t stride, unsigned n, const char *s) {
  for (unsigned i = 0; i < n; i++)
    if (strcmp(strs + i * stride, s) == 0) return true;
  return false;
}

static bool has_room(const hg_node_meta *m, const hg_place_req *req) {
  if (m->max_sandboxes && m->sandboxes_total >= m->max_sandboxes) return false;
  if (m->memory_total_mib && (m->memory_used_mib > m->memory_total_mib ||
                              m->memory_total_mib - m->memory_used_mib < req->memory_mib))
    return false;
  return true;
}

static uint64_t free_mib(const hg_node_meta *m) {
  if (!m->memory_total_mib) return UINT64_MAX;
  return m->memory_used_mib > m->memory_total_mib
             ? 0
             : m->memory_total_mib - m->memory_used_mib;
}

/* Which filter a node fails first; counts per filter make the reason. */
enum place_fail { PF_OK, PF_DRAINING, PF_TEMPLATE, PF_ZONE, PF_LABEL, PF_FULL };

static enum place_fail place_check(const hg_node_meta *m, const hg_place_req *req,
                                   const char *tmpl) {
  if (m->draining) return PF_DRAINING;
  if (!has_str(m->templates[0], HG_META_NAME_MAX, m->ntemplates, tmpl))
    return PF_TEMPLATE;
  if (req->zone && req->zone[0] && strcmp(m->zone, req->zone) != 0) return PF_ZONE;
  if (req->label && req->label[0] &&
      !has_str(m->labels[0], HG_META_NAME_MAX, m->nlabels, req->label))
    return PF_LABEL;
  if (!has_room(m, req)) return PF_FULL;
  return PF_OK;
}

static bool better(const hg_node_meta *a, const hg_node_meta *b) {
  uint64_t fa = free_mib(a), fb = free_mib(b);
  if (fa != fb) return fa > fb;
  return a->sandboxes_total < b->sandboxes_total;
}

int hg_cluster_place(hg_cluster *c, const hg_place_req *req, char node_id[HG_NODE_ID_MAX],
                     char api_addr[HG_ADDR_MAX], char reason[256]) {
  char tmpl[HG_META_NAME_MAX];
  template_norm(req->template_ref, tmpl);
  hg_node_meta self;
  meta_of(c, c->id, &self);
  if (place_check(&self, req, tmpl) == PF_OK) return 1;

  size_t n = 0;
  hg_swim_member *ms = members_copy(c, &n);
  hg_node_meta *cand = calloc(n ? n : 1, sizeof *cand);
  if (!ms || !cand) {
    free(ms);
    free(cand);
    snprintf(reason, 256, "out of memory while placing");
    return -ENOMEM;
  }
  size_t ncand = 0, alive = 1, fails[PF_FULL + 1] = {0};
  fails[place_check(&self, req, tmpl)]++;
  for (size_t i = 0; i < n; i++) {
    if (strcmp(ms[i].id, c->id) == 0 || ms[i].state != HG_MEMBER_ALIVE) continue;
    alive++;
    hg_node_meta m;
    if (!meta_of(c, ms[i].id, &m) || !m.api_addr[0]) continue;
    enum place_fail f = place_check(&m, req, tmpl);
    fails[f]++;
    if (f == PF_OK) cand[ncand++] = m;
  }
  free(ms);
  int rc = 0;
  if (ncand == 0) {
    size_t with_tmpl = fails[PF_ZONE] + fails[PF_LABEL] + fails[PF_FULL];
    if (fails[PF_DRAINING] == alive)
      snprintf(reason, 256, "every alive node is draining (%zu nodes)", alive);
    else if (with_tmpl == 0)
      snprintf(reason, 256, "no alive node has template %s", tmpl);
    else if (fails[PF_FULL] == 0 && fails[PF_LABEL] == 0)
      snprintf(reason, 256, "no node in zone %s has template %s", req->zone, tmpl);
    else if (fails[PF_FULL] == 0)
      snprintf(reason, 256, "no node with label %s has template %s", req->label, tmpl);
    else
      snprintf(reason, 256, "every node with template %s%s%s is full (%zu node%s)", tmpl,
               req->zone && req->zone[0] ? " in zone " : "", req->zone ? req->zone : "",
               fails[PF_FULL], fails[PF_FULL] == 1 ? "" : "s");
    rc = -ENOSPC;
  } else {
    /* Power of two choices: two random candidates, the emptier wins. */
    const hg_node_meta *a = &cand[rnd(c) % ncand], *pick = a;
    if (ncand > 1) {
      size_t j = rnd(c) % (ncand - 1);
      const hg_node_meta *b = &cand[j >= (size_t)(a - cand) ? j + 1 : j];
      pick = better(b, a) ? b : a;
    }
    copy_str(node_id, HG_NODE_ID_MAX, pick->id);
    copy_str(api_addr, HG_ADDR_MAX, pick->api_addr);
  }
  free(cand);
  return rc;
}

/* ---- stats ---- */

void hg_cluster_get_stats(hg_cluster *c, hg_cluster_stats *out) {
  memset(out, 0, sizeof *out);
  hg_swim_get_stats(c->swim, &out->swim);
  out->dropped_auth = c->dropped_auth;
  out->dropped_replay = c->dropped_replay;
  out->dropped_malformed = c->dropped_malformed;
  out->bytes_sent = c->bytes_sent;
  out->bytes_received = c->bytes_received;
  out->push_pulls = c->push_pulls;
  out->health = hg_swim_health(c->swim);
  size_t n = 0;
  hg_swim_member *ms = members_copy(c, &n);
  for (size_t i = 0; ms && i < n; i++) {
    if (ms[i].state == HG_MEMBER_ALIVE)
      out->members_alive++;
    else if (ms[i].state == HG_MEMBER_SUSPECT)
      out->members_suspect++;
    else
      out->members_dead++;
  }
  free(ms);
}

const char *hg_cluster_self_id(const hg_cluster *c) {
  return c->id;
}
