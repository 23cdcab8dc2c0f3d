/* leasing: this node's leases as hangard uses them; see leasing.h.
 *
 * Three parts meet here:
 *   - the loop, which owns the lease service (cluster/leases.h) and alone
 *     calls it: workers hand it commands through a queue and an async;
 *   - the workers, which wait (on cv) for what the service tells the
 *     table of lease states;
 *   - the fencer, a thread of its own that moves each VM's shim deadline
 *     to its lease's end (a socket round trip each, never on the loop) and
 *     stops and orphans a VM whose lease another node took. */
#include "node/hangard/leasing.h"

#include <errno.h>
#include <inttypes.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cluster/leases.h"
#include "node/core/closer.h"
#include "node/core/err.h"
#include "node/core/log.h"
#include "node/core/strmap.h"
#include "node/core/util.h"

#define REGROUP_MS 5000 /* how often held leases' groups are checked (growth, dead members) */
#define REGROUP_SCAN 256  /* suspended sandboxes looked at in a pass */
#define REGROUP_CLAIMS 16 /* of those, claimed in a pass to change their groups */
#define DEAD_MAX 64       /* dead nodes remembered, with since when */
#define DEAD_MEMBER_MS_DEFAULT (600 * 1000)
#define AHEAD_MAX_MS_DEFAULT 60000

/* CMD_RESTART: the recovery of a VM found at start (hg_lease_recover's vm) */
typedef enum cmd_kind { CMD_CLAIM, CMD_RECOVER, CMD_RESTART, CMD_QUERY, CMD_RELEASE } cmd_kind;

typedef struct cmd {
  struct cmd *next;
  cmd_kind kind;
  char id[HG_ID_MAX];
  hg_lease_conf conf;
  uint64_t epoch; /* CLAIM: above this; RECOVER: at this; QUERY: known */
  bool deleting;
} cmd;

/* A sandbox's lease as the service last told it, for the workers.
 * Dropped (hg_leasing_drop), it stays as a tombstone until the loop has
 * made the service forget the lease: a renewal answered in between must
 * not bring it back as held, or the next take would trust a lease that
 * nothing renews any more (its VM fenced for good once it ran out). */
typedef struct entry {
  hg_strmap_node node;
  char id[HG_ID_MAX];
  hg_lease_info info;
  unsigned releases; /* drops the loop has not carried out yet: a tombstone */
  /* Claimed ahead (hg_leasing_claim_ahead): the next take's claim is
   * this one, whatever its outcome; since when, for the safety net. */
  bool ahead;
  int64_t ahead_ms;
  /* Claimed only to change its group (a suspended sandbox here: no VM
   * renews its lease, so nothing else would): given back once the group
   * is what it should be, unless a take came for it meanwhile. */
  bool regroup_only;
} entry;

/* The highest epoch a failed claim of a sandbox saw (a rival's promise),
 * for the next request's claim to go above. */
typedef struct seen_epoch {
  hg_strmap_node node;
  char id[HG_ID_MAX];
  uint64_t epoch;
} seen_epoch;

#define SEEN_MAX 4096 /* a hint: when full, forgotten all at once */

typedef struct dead_node {
  char id[HG_NODE_ID_MAX]; /* "": a free slot */
  int64_t since_ms;
} dead_node;

/* A deadline to move (or a lost lease to act on), for the fencer. */
typedef struct fence_job {
  hg_strmap_node node;
  char id[HG_ID_MAX];
  int64_t until_ms;
  bool lost, deleted;
  bool regroup; /* the group changed: record it with the sandbox */
  hg_sb_lease group;
  uint64_t epoch;
  char holder[HG_NODE_ID_MAX];
} fence_job;

struct hg_leasing {
  hg_leasing_config cfg;
  char self[HG_NODE_ID_MAX];
  int64_t lease_ms, margin_ms;
  hg_leases *svc; /* loop only */
  uv_async_t async;
  uv_timer_t regroup; /* groups grow as nodes join, replace dead members */
  hg_closer closer; /* async, regroup; then the lease service closes */
  dead_node dead[DEAD_MAX]; /* loop only */
  size_t suspended_at;      /* loop only: where regroup_suspended goes on */
  hg_manager *manager;

  pthread_mutex_t mu;
  pthread_cond_t cv;  /* the table changed */
  hg_strmap table;    /* entry, under mu */
  hg_strmap seen;     /* seen_epoch, under mu */
  cmd *cmds, **cmds_tail; /* under mu */
  bool closed;        /* under mu: take refuses */
  uint64_t lost;

  pthread_t fencer;
  bool fencer_on, fencer_stop;
  pthread_cond_t fence_cv;
  hg_strmap jobs; /* fence_job, under mu */

  void (*done)(void *ud);
  void *done_ud;
};

/* ---- the fencer ------------------------------------------------------------- */

static void lease_out(const hg_lease_info *info, hg_sb_lease *out);
static void seen_note(hg_leasing *l, const char *id, uint64_t epoch);

static void fence_queue(hg_leasing *l, const char *id, const hg_lease_info *info,
                        bool regroup) {
  hg_strmap_node *n = hg_strmap_get(&l->jobs, id);
  fence_job *j = n ? HG_CONTAINER_OF(n, fence_job, node) : calloc(1, sizeof *j);
  if (!j) return; /* the next renewal brings it again */
  if (!n) {
    snprintf(j->id, sizeof j->id, "%s", id);
    j->node.key = j->id;
    if (hg_strmap_put(&l->jobs, &j->node) < 0) {
      free(j);
      return;
    }
  }
  j->deleted = info->state == HG_LEASE_GONE && info->deleted_elsewhere;
  j->lost = info->state == HG_LEASE_LOST || j->deleted;
  j->regroup = regroup;
  if (regroup) lease_out(info, &j->group);
  /* Lost: fenced at once (1 is long past), the orphaning follows. */
  j->until_ms = j->lost ? 1 : info->lease_until_ms;
  j->epoch = info->epoch;
  snprintf(j->holder, sizeof j->holder, "%s", info->holder);
  pthread_cond_signal(&l->fence_cv);
}

static fence_job *fence_next(hg_leasing *l) {
  size_t cur = 0;
  hg_strmap_node *n = hg_strmap_next(&l->jobs, &cur, NULL);
  if (!n) return NULL;
  hg_strmap_del(&l->jobs, n);
  return HG_CONTAINER_OF(n, fence_job, node);
}

static void fence_one(hg_leasing *l, fence_job *j) {
  int rc = l->manager ? hg_sandbox_set_deadline(l->manager, j->id, j->until_ms) : -ENOENT;
  if (rc < 0 && rc != -ENOENT && rc != -ESRCH)
    hg_log_warn("lease.deadline", "sandbox=%s until_ms=%" PRId64 " err=\"%s\"", j->id,
                j->until_ms, hg_err_str(rc));
  else if (rc < 0) /* no VM (yet, or any more) to tell: the next renewal tells it */
    hg_log_debug("lease.deadline", "sandbox=%s until_ms=%" PRId64 " err=\"%s\"", j->id,
                 j->until_ms, hg_err_str(rc));
  if (j->regroup && l->manager) {
    rc = hg_sandbox_set_lease(l->manager, j->id, &j->group);
    hg_log_info("lease.group", "sandbox=%s members=%u err=\"%s\"", j->id, j->group.ngroup,
                rc < 0 ? hg_err_str(rc) : "none");
  }
  if (!j->lost) return;
  hg_log_warn("lease.lost", "sandbox=%s epoch=%" PRIu64 " holder=%s fenced_at_ms=%" PRId64,
              j->id, j->epoch, j->holder[0] ? j->holder : "?", hg_now_ms());
  if (l->cfg.on_lost) l->cfg.on_lost(l->cfg.ud, j->id, j->epoch, j->holder, j->deleted);
}

static void *fencer_main(void *arg) {
  hg_leasing *l = arg;
  pthread_mutex_lock(&l->mu);
  for (;;) {
    fence_job *j = fence_next(l);
    if (!j) {
      if (l->fencer_stop) break;
      pthread_cond_wait(&l->fence_cv, &l->mu);
      continue;
    }
    pthread_mutex_unlock(&l->mu);
    fence_one(l, j);
    free(j);
    pthread_mutex_lock(&l->mu);
  }
  pthread_mutex_unlock(&l->mu);
  return NULL;
}

/* ---- the loop's side ----------------------------------------------------------- */

static entry *entry_get(hg_leasing *l, const char *id, bool make) {
  hg_strmap_node *n = hg_strmap_get(&l->table, id);
  if (n || !make) return n ? HG_CONTAINER_OF(n, entry, node) : NULL;
  entry *e = calloc(1, sizeof *e);
  if (!e) return NULL;
  snprintf(e->id, sizeof e->id, "%s", id);
  e->node.key = e->id;
  if (hg_strmap_put(&l->table, &e->node) < 0) {
    free(e);
    return NULL;
  }
  return e;
}

static void entry_free(hg_leasing *l, entry *e) {
  hg_strmap_del(&l->table, &e->node);
  free(e);
}

/* Makes e (mu held) a tombstone until its release has run (release_done). */
static void entry_tomb(entry *e) {
  memset(&e->info, 0, sizeof e->info);
  e->ahead = e->regroup_only = false;
  e->releases++;
}

/* id's entry unless none or a tombstone. */
static entry *entry_live(hg_leasing *l, const char *id) {
  entry *e = entry_get(l, id, false);
  return e && e->releases == 0 ? e : NULL;
}

static void on_changed(void *ud, const char *sandbox, const hg_lease_info *info) {
  hg_leasing *l = ud;
  pthread_mutex_lock(&l->mu);
  entry *e = entry_get(l, sandbox, true);
  if (e && e->releases) { /* dropped: what the service says now is past */
    pthread_mutex_unlock(&l->mu);
    return;
  }
  bool moved = e && (info->lease_until_ms != e->info.lease_until_ms ||
                     info->state != e->info.state);
  bool regroup = e && e->info.state == HG_LEASE_HELD && info->state == HG_LEASE_HELD &&
                 !info->conf.joint && hg_lease_conf_cmp(&info->conf, &e->info.conf) != 0;
  if (e) e->info = *info;
  if (info->state == HG_LEASE_LOST) l->lost++;
  /* The rival may never hold it (its claim short of a majority): a take
   * of ours, to run the sandbox again, goes above what it was promised. */
  if (info->state == HG_LEASE_LOST && info->seen_epoch > info->epoch)
    seen_note(l, sandbox, info->seen_epoch);
  /* Deleted by another node while we held or recovered it (we were away
   * when it was deleted): our copy goes as a lost one does. */
  bool gone = info->state == HG_LEASE_GONE && info->deleted_elsewhere;
  if ((moved || regroup) &&
      (info->state == HG_LEASE_HELD || info->state == HG_LEASE_LOST || gone))
    fence_queue(l, sandbox, info, regroup);
  pthread_cond_broadcast(&l->cv);
  pthread_mutex_unlock(&l->mu);
}

static void on_send(void *ud, const char *to, const void *data, size_t len) {
  hg_leasing *l = ud;
  if (!l->cfg.cluster) return;
  int rc = hg_cluster_lease_send(l->cfg.cluster, to, data, len);
  if (rc < 0 && rc != -ENOENT && rc != -ESHUTDOWN)
    hg_log_debug("lease.send", "to=%s bytes=%zu err=\"%s\"", to, len, hg_err_str(rc));
}

static void on_datagram(void *ud, const void *data, size_t len) {
  hg_leasing *l = ud;
  if (l->svc) hg_leases_receive(l->svc, data, len);
}

/* The service forgot id's lease: its tombstone goes with the last drop. */
static void release_done(hg_leasing *l, const char *id) {
  pthread_mutex_lock(&l->mu);
  entry *e = entry_get(l, id, false);
  if (e && e->releases && --e->releases == 0) entry_free(l, e);
  pthread_cond_broadcast(&l->cv);
  pthread_mutex_unlock(&l->mu);
}

static void run_cmd(hg_leasing *l, const cmd *c) {
  int rc = 0;
  switch (c->kind) {
  case CMD_CLAIM:
    rc = hg_leases_claim(l->svc, c->id, &c->conf, c->epoch, c->deleting);
    break;
  case CMD_RECOVER:
  case CMD_RESTART:
    rc = hg_leases_recover(l->svc, c->id, &c->conf, c->epoch, c->kind == CMD_RESTART);
    break;
  case CMD_QUERY:
    rc = hg_leases_query(l->svc, c->id, &c->conf, c->epoch);
    break;
  case CMD_RELEASE:
    hg_leases_release(l->svc, c->id);
    release_done(l, c->id);
    break;
  }
  if (rc < 0 && rc != -EALREADY)
    hg_log_warn("lease.cmd", "sandbox=%s kind=%d err=\"%s\"", c->id, (int)c->kind,
                hg_err_str(rc));
}

static void on_async(uv_async_t *a) {
  hg_leasing *l = a->data;
  pthread_mutex_lock(&l->mu);
  cmd *c = l->cmds;
  l->cmds = NULL;
  l->cmds_tail = &l->cmds;
  pthread_mutex_unlock(&l->mu);
  while (c) {
    cmd *next = c->next;
    if (l->svc) run_cmd(l, c);
    free(c);
    c = next;
  }
}

/* From any thread: c runs on the loop, in order. */
static int post(hg_leasing *l, cmd *c) {
  pthread_mutex_lock(&l->mu);
  if (l->closed) {
    pthread_mutex_unlock(&l->mu);
    free(c);
    return -ESHUTDOWN;
  }
  c->next = NULL;
  *l->cmds_tail = c;
  l->cmds_tail = &c->next;
  pthread_mutex_unlock(&l->mu);
  uv_async_send(&l->async);
  return 0;
}

static int post_cmd(hg_leasing *l, cmd_kind kind, const char *id, const hg_lease_conf *conf,
                    uint64_t epoch, bool deleting) {
  cmd *c = calloc(1, sizeof *c);
  if (!c) return -ENOMEM;
  c->kind = kind;
  snprintf(c->id, sizeof c->id, "%s", id);
  if (conf) c->conf = *conf;
  c->epoch = epoch;
  c->deleting = deleting;
  return post(l, c);
}

/* ---- groups -------------------------------------------------------------------- */

/* A new sandbox's group: this node and the best others by rendezvous over
 * the live members (as replica holders are chosen: spread over zones; a
 * suspect one rather than none). */
static void group_new(hg_leasing *l, const char *id, hg_lease_group *g) {
  memset(g, 0, sizeof *g);
  snprintf(g->ids[g->n++], HG_NODE_ID_MAX, "%s", l->self);
  if (!l->cfg.cluster) return;
  hg_cluster_peer peers[HG_LEASE_GROUP_MAX];
  size_t want = l->cfg.acceptors > 1 ? l->cfg.acceptors - 1 : 0;
  if (want > HG_LEASE_GROUP_MAX - 1) want = HG_LEASE_GROUP_MAX - 1;
  size_t n = hg_cluster_acceptor_targets(l->cfg.cluster, id, want, peers);
  for (size_t i = 0; i < n; i++)
    snprintf(g->ids[g->n++], HG_NODE_ID_MAX, "%.*s", HG_NODE_ID_MAX - 1, peers[i].id);
}

/* The view a start of an existing sandbox claims from. A record made
 * before leases has none: this node alone, as it was then. */
static void conf_of(hg_leasing *l, const hg_sb_lease *have, hg_lease_conf *conf) {
  memset(conf, 0, sizeof *conf);
  for (unsigned i = 0; i < have->ngroup && i < HG_LEASE_GROUP_MAX; i++)
    snprintf(conf->cur.ids[conf->cur.n++], HG_NODE_ID_MAX, "%s", have->group[i]);
  if (conf->cur.n == 0) snprintf(conf->cur.ids[conf->cur.n++], HG_NODE_ID_MAX, "%s", l->self);
}

static void lease_out(const hg_lease_info *info, hg_sb_lease *out) {
  memset(out, 0, sizeof *out);
  out->epoch = info->epoch;
  out->until_ms = info->lease_until_ms;
  /* The newest group: the next one while a change is under way. */
  const hg_lease_group *g = info->conf.joint ? &info->conf.next : &info->conf.cur;
  for (unsigned i = 0; i < g->n && i < HG_SB_GROUP_MAX; i++)
    snprintf(out->group[out->ngroup++], HG_NODE_ID_MAX, "%s", g->ids[i]);
}

/* ---- workers -------------------------------------------------------------------- */

static bool usable(const hg_lease_info *i, uint64_t above) {
  return i->state == HG_LEASE_HELD && i->lease_until_ms > hg_now_ms() && i->epoch > above;
}

/* Waits (mu held) until id's lease is usable, lost or gone, or timeout. */
static int await(hg_leasing *l, const char *id, uint64_t above, bool deleting,
                 int64_t timeout_ms, hg_lease_info *out) {
  int64_t deadline = hg_now_ms() + timeout_ms;
  for (;;) {
    entry *e = entry_live(l, id);
    if (e) *out = e->info;
    if (e && (e->info.state == HG_LEASE_LOST || e->info.state == HG_LEASE_GONE ||
              e->info.state == HG_LEASE_LIVE))
      return 0;
    if (e && !deleting && usable(&e->info, above)) return 0;
    if (l->closed) return -ESHUTDOWN;
    if (hg_now_ms() >= deadline) return -ETIMEDOUT;
    struct timespec ts = hg_mono_ts(deadline);
    pthread_cond_timedwait(&l->cv, &l->mu, &ts);
  }
}

/* What a claim that ended (or did not) means to the caller. */
static int claim_result(hg_leasing *l, const char *id, int rc, const hg_lease_info *i,
                        bool deleting, char msg[256]) {
  if (rc == -ESHUTDOWN) {
    snprintf(msg, 256, "node %s is shutting down", l->self);
    return -EAGAIN;
  }
  if (rc == 0 && i->state == HG_LEASE_GONE) {
    if (deleting) return 0;
    snprintf(msg, 256, "sandbox %s was deleted", id);
    return -ENOENT;
  }
  if (rc == 0 && i->state == HG_LEASE_LOST) {
    snprintf(msg, 256, "sandbox %s is held by node %s at epoch %" PRIu64 " (or higher)", id,
             i->holder[0] ? i->holder : "?", i->seen_epoch > i->epoch ? i->seen_epoch : i->epoch);
    return -ESTALE;
  }
  if (rc == 0) return 0;
  if (i->waiting) {
    snprintf(msg, 256,
             "sandbox %s is in use: node %s holds its lease and keeps renewing it", id,
             i->holder[0] ? i->holder : "?");
    return -EBUSY;
  }
  snprintf(msg, 256,
           "no majority of sandbox %s's acceptor group (%u node%s) answered within "
           "the wait: this node may be cut off from them",
           id, i->conf.cur.n, i->conf.cur.n == 1 ? "" : "s");
  return -ENOLCK;
}

/* A claim waits out a live lease (T + margin since its last renewal) and
 * one round trip more; past twice that, the holder is renewing. */
static int64_t claim_timeout(const hg_leasing *l, bool fresh) {
  return fresh ? l->lease_ms : 2 * (l->lease_ms + l->margin_ms);
}

/* Remembers (mu held) that a claim of id saw epoch held by another. */
static void seen_note(hg_leasing *l, const char *id, uint64_t epoch) {
  hg_strmap_node *n = hg_strmap_get(&l->seen, id);
  seen_epoch *s = n ? HG_CONTAINER_OF(n, seen_epoch, node) : NULL;
  if (!s) {
    if (l->seen.count >= SEEN_MAX) hg_strmap_free_all(&l->seen, offsetof(seen_epoch, node));
    if (!(s = calloc(1, sizeof *s))) return;
    snprintf(s->id, sizeof s->id, "%s", id);
    s->node.key = s->id;
    if (hg_strmap_put(&l->seen, &s->node) < 0) {
      free(s);
      return;
    }
  }
  if (epoch > s->epoch) s->epoch = epoch;
}

/* Takes (mu held) what a failed claim of id saw; 0: nothing. */
static uint64_t seen_take(hg_leasing *l, const char *id) {
  hg_strmap_node *n = hg_strmap_get(&l->seen, id);
  if (!n) return 0;
  seen_epoch *s = HG_CONTAINER_OF(n, seen_epoch, node);
  uint64_t epoch = s->epoch;
  hg_strmap_del(&l->seen, n);
  free(s);
  return epoch;
}

/* Starts a claim of id from a clean slate: the answer is what comes after
 * (a tombstone stays: its release runs before this claim's command).
 * *above and *recover say what was posted. */
static int claim_post(hg_leasing *l, const char *id, const hg_lease_conf *conf,
                      uint64_t *above, bool fresh, bool deleting, bool *recover) {
  pthread_mutex_lock(&l->mu);
  entry *e = entry_live(l, id);
  if (e) entry_free(l, e);
  /* The last request's claim lost to a higher epoch: this one goes above
   * it. That promise may be a rival's claim that never reached a majority
   * (it was cut off); claimed at the recorded epoch again, the sandbox
   * would lose to it forever. A new request only, never a retry of our
   * own (see claim); its claim waits out any live lease as any claim does. */
  uint64_t seen = seen_take(l, id);
  if (!fresh && seen >= (*recover ? *above : *above + 1)) {
    *recover = false;
    *above = seen;
  }
  pthread_mutex_unlock(&l->mu);
  return *recover ? post_cmd(l, CMD_RECOVER, id, conf, *above, false)
                  : post_cmd(l, CMD_CLAIM, id, conf, *above, deleting);
}

/* Takes id's lease by a claim above `above` (recover: a renewal at it),
 * unless held already; *got says how it ended. */
static int claim(hg_leasing *l, const char *id, const hg_lease_conf *conf, uint64_t above,
                 bool fresh, bool deleting, bool recover, hg_lease_info *got,
                 char msg[256]) {
  int rc;
  memset(got, 0, sizeof *got);
  pthread_mutex_lock(&l->mu);
  entry *e = entry_live(l, id);
  if (e && !deleting && usable(&e->info, above ? above - 1 : 0)) {
    *got = e->info; /* held here already (a resume of a paused VM, say) */
    e->ahead = e->regroup_only = false;
    pthread_mutex_unlock(&l->mu);
    return 0;
  }
  if (e && e->ahead && !deleting) {
    /* Claimed ahead: its outcome is this take's (a loss must not be
     * claimed again higher, see below). */
    e->ahead = e->regroup_only = false;
  } else {
    pthread_mutex_unlock(&l->mu);
    if ((rc = claim_post(l, id, conf, &above, fresh, deleting, &recover)) < 0)
      return claim_result(l, id, rc, got, deleting, msg);
    pthread_mutex_lock(&l->mu);
  }
  rc = await(l, id, recover ? above - 1 : above, deleting, claim_timeout(l, fresh), got);
  bool held = rc == 0 && (got->state == HG_LEASE_HELD || got->state == HG_LEASE_GONE);
  if (!held && got->seen_epoch > got->epoch) seen_note(l, id, got->seen_epoch);
  pthread_mutex_unlock(&l->mu);
  /* Lost: never again higher on our own. A second claim above a live
   * holder's epoch, promised by one acceptor, would make that holder give
   * up (it stops on seeing a higher epoch) without anyone holding a
   * majority: two candidates would take turns fencing each other. The
   * caller hears 409 stale_epoch; its next request claims above what
   * this one saw (seen_take). */
  rc = claim_result(l, id, rc, got, deleting, msg);
  if (rc < 0 || deleting) hg_leasing_drop(l, id);
  return rc;
}

int hg_leasing_take(hg_leasing *l, const char *id, hg_sb_take how, const hg_sb_lease *have,
                    hg_sb_lease *out, char msg[256]) {
  hg_lease_conf conf;
  uint64_t above = 0;
  msg[0] = '\0';
  bool fresh = how == HG_SB_TAKE_NEW, own = how == HG_SB_TAKE_OWN && have->epoch > 0;
  if (fresh) {
    memset(&conf, 0, sizeof conf);
    group_new(l, id, &conf.cur);
  } else {
    conf_of(l, have, &conf);
    above = have->epoch;
  }
  hg_lease_info got;
  int64_t t0 = hg_now_ms();
  int rc = claim(l, id, &conf, above, fresh, false, own, &got, msg);
  if (rc < 0) return rc;
  lease_out(&got, out);
  hg_log_info("lease.taken", "sandbox=%s epoch=%" PRIu64 " group=%u wait_ms=%" PRId64
              " started_at_ms=%" PRId64, id, got.epoch, out->ngroup, hg_now_ms() - t0,
              hg_now_ms());
  return 0;
}

/* A claim no worker waits for: a failover's ahead of its takes (above
 * have's epoch), or a suspended sandbox's to change its group (regroup:
 * a renewal at have's epoch, as its resume here would claim). 1: posted,
 * 0: left to the take (see below). */
static int claim_early(hg_leasing *l, const char *id, const hg_sb_lease *have, bool regroup) {
  hg_lease_conf conf;
  conf_of(l, have, &conf);
  uint64_t above = have->epoch;
  pthread_mutex_lock(&l->mu);
  /* Held, claiming, or lost here already (or a drop under way): the
   * take decides as it would have. A rival seen above us: a regroup
   * leaves it to the next take (which claims above it, claim_post). */
  if (entry_get(l, id, false) || (regroup && hg_strmap_get(&l->seen, id))) {
    pthread_mutex_unlock(&l->mu);
    return 0;
  }
  entry *e = entry_get(l, id, true);
  if (!e) {
    pthread_mutex_unlock(&l->mu);
    return -ENOMEM;
  }
  e->ahead = true;
  e->regroup_only = regroup;
  e->ahead_ms = hg_now_ms();
  if (!regroup) { /* as the take's own claim would (claim_post) */
    uint64_t seen = seen_take(l, id);
    if (seen > above) above = seen;
  }
  pthread_mutex_unlock(&l->mu);
  int rc = post_cmd(l, regroup ? CMD_RECOVER : CMD_CLAIM, id, &conf, above, false);
  if (rc < 0) {
    pthread_mutex_lock(&l->mu);
    if ((e = entry_live(l, id)) && e->ahead) entry_free(l, e);
    pthread_mutex_unlock(&l->mu);
  }
  return rc < 0 ? rc : 1;
}

int hg_leasing_claim_ahead(hg_leasing *l, const char *id, const hg_sb_lease *have) {
  int rc = claim_early(l, id, have, false);
  return rc < 0 ? rc : 0;
}

int hg_leasing_delete(hg_leasing *l, const char *id, const hg_sb_lease *have,
                      char msg[256]) {
  hg_lease_conf conf;
  msg[0] = '\0';
  conf_of(l, have, &conf);
  hg_lease_info got;
  return claim(l, id, &conf, have->epoch ? have->epoch - 1 : 0, false, true, false, &got,
               msg);
}

int hg_leasing_deleted(hg_leasing *l, const char *id, const hg_sb_lease *have) {
  hg_lease_conf conf;
  conf_of(l, have, &conf);
  pthread_mutex_lock(&l->mu);
  if (entry_live(l, id)) { /* leased or claimed here: not a forgotten one */
    pthread_mutex_unlock(&l->mu);
    return 0;
  }
  pthread_mutex_unlock(&l->mu);
  int rc = post_cmd(l, CMD_QUERY, id, &conf, have->epoch ? have->epoch : 1, false);
  hg_lease_info got = {0};
  if (rc == 0) {
    pthread_mutex_lock(&l->mu);
    rc = await(l, id, UINT64_MAX, true, claim_timeout(l, false), &got);
    pthread_mutex_unlock(&l->mu);
    hg_leasing_drop(l, id);
  }
  if (rc < 0) return rc == -ETIMEDOUT ? -ENOLCK : rc;
  return got.state == HG_LEASE_GONE ? 1 : 0;
}

/* Has the loop release id's lease; its tombstone (entry_tomb) goes then,
 * or now when the loop takes no more commands. */
static void release_post(hg_leasing *l, const char *id) {
  if (post_cmd(l, CMD_RELEASE, id, NULL, 0, false) < 0) release_done(l, id);
}

void hg_leasing_drop(hg_leasing *l, const char *id) {
  pthread_mutex_lock(&l->mu);
  entry *e = entry_get(l, id, true);
  if (e) entry_tomb(e);
  pthread_mutex_unlock(&l->mu);
  release_post(l, id); /* with no tombstone (no memory), release_done finds none */
}

bool hg_leasing_valid(hg_leasing *l, const char *id, uint64_t epoch, int64_t wait_ms) {
  int64_t deadline = hg_now_ms() + wait_ms;
  pthread_mutex_lock(&l->mu);
  for (;;) {
    entry *e = entry_live(l, id);
    bool held = e && e->info.epoch == epoch && e->info.state == HG_LEASE_HELD;
    if (held && usable(&e->info, 0)) break;
    if (!held || l->closed || hg_now_ms() >= deadline) {
      pthread_mutex_unlock(&l->mu);
      return false;
    }
    struct timespec ts = hg_mono_ts(deadline);
    pthread_cond_timedwait(&l->cv, &l->mu, &ts);
  }
  pthread_mutex_unlock(&l->mu);
  return true;
}

void hg_leasing_get_stats(hg_leasing *l, hg_leasing_stats *out) {
  memset(out, 0, sizeof *out);
  int64_t now = hg_now_ms();
  pthread_mutex_lock(&l->mu);
  size_t cur = 0;
  for (hg_strmap_node *n = hg_strmap_next(&l->table, &cur, NULL); n;
       n = hg_strmap_next(&l->table, &cur, n)) {
    const hg_lease_info *i = &HG_CONTAINER_OF(n, entry, node)->info;
    if (i->state == HG_LEASE_HELD && i->lease_until_ms > now) out->held++;
    else if (i->state == HG_LEASE_HELD) out->fenced++;
    else if (i->state == HG_LEASE_CLAIMING) out->claiming++;
  }
  out->lost = l->lost;
  pthread_mutex_unlock(&l->mu);
}

/* Since when each node we saw dead has been dead (loop only): a member
 * dead past --dead-member-s is replaced. Nodes seen alive again leave. */
static int64_t dead_since(hg_leasing *l, const char *id, int64_t now) {
  if (!strcmp(id, l->self)) return 0;
  hg_cluster_peer p;
  bool dead = hg_cluster_peer_get(l->cfg.cluster, id, &p) < 0 || !p.alive;
  dead_node *free_slot = NULL;
  for (unsigned i = 0; i < DEAD_MAX; i++) {
    dead_node *d = &l->dead[i];
    if (d->id[0] && !strcmp(d->id, id)) {
      if (!dead) d->id[0] = '\0';
      return dead ? d->since_ms : 0;
    }
    if (!d->id[0] && !free_slot) free_slot = d;
  }
  if (!dead || !free_slot) return dead ? now : 0;
  snprintf(free_slot->id, sizeof free_slot->id, "%s", id);
  free_slot->since_ms = now;
  return now;
}

static bool in_group(const hg_lease_group *g, const char *id) {
  for (unsigned k = 0; k < g->n; k++)
    if (!strcmp(g->ids[k], id)) return true;
  return false;
}

/* The group a held lease should have (DESIGN §9): its members but those
 * dead past --dead-member-s, filled up to --acceptors with the best others
 * by rendezvous. A group made in a cluster of one or two grows this way
 * as nodes join; a dead member goes only when someone can take its place.
 * The change itself is joint consensus (hg_leases_change_group). */
static bool regrouped(hg_leasing *l, const char *id, const hg_lease_group *cur,
                      hg_lease_group *next) {
  unsigned want = l->cfg.acceptors < HG_LEASE_GROUP_MAX ? l->cfg.acceptors : HG_LEASE_GROUP_MAX;
  int64_t now = hg_now_ms();
  hg_lease_group cand;
  group_new(l, id, &cand);
  bool gone[HG_LEASE_GROUP_MAX] = {false};
  unsigned ngone = 0, spare = 0;
  for (unsigned i = 0; i < cur->n; i++) {
    int64_t since = dead_since(l, cur->ids[i], now);
    gone[i] = since > 0 && now - since >= l->cfg.dead_member_ms;
    ngone += gone[i];
  }
  for (unsigned i = 0; i < cand.n; i++) spare += !in_group(cur, cand.ids[i]);
  if (cur->n >= want && (ngone == 0 || spare == 0)) return false;
  memset(next, 0, sizeof *next);
  for (unsigned i = 0; i < cur->n; i++) {
    if (gone[i] && spare > 0) { /* a dead one stays without a successor */
      spare--;
      continue;
    }
    snprintf(next->ids[next->n++], HG_NODE_ID_MAX, "%s", cur->ids[i]);
  }
  for (unsigned i = 0; i < cand.n && next->n < want; i++)
    if (!in_group(cur, cand.ids[i])) snprintf(next->ids[next->n++], HG_NODE_ID_MAX, "%s", cand.ids[i]);
  bool same = next->n == cur->n;
  for (unsigned i = 0; same && i < next->n; i++) same = in_group(cur, next->ids[i]);
  return !same;
}

/* "a,b,c" for the log. */
static void group_str(const hg_lease_group *g, char *out, size_t cap) {
  size_t len = 0;
  out[0] = '\0';
  for (unsigned k = 0; k < g->n && len < cap; k++) {
    int w = snprintf(out + len, cap - len, "%s%s", k ? "," : "", g->ids[k]);
    if (w < 0) break;
    len += (size_t)w;
  }
}

/* Claims ahead that no take came for (the failover gave the sandbox up,
 * say) are given back: a lease held here for nothing would keep every
 * other node out of the sandbox. */
static void drop_stale_aheads(hg_leasing *l, int64_t now) {
  enum { MAX = 64 }; /* a pass; the next takes the rest */
  char ids[MAX][HG_ID_MAX];
  size_t n = 0, cur = 0;
  pthread_mutex_lock(&l->mu);
  for (hg_strmap_node *nd = hg_strmap_next(&l->table, &cur, NULL); nd && n < MAX;
       nd = hg_strmap_next(&l->table, &cur, nd)) {
    entry *e = HG_CONTAINER_OF(nd, entry, node);
    if (!e->ahead || e->releases || now - e->ahead_ms < l->cfg.ahead_max_ms) continue;
    entry_tomb(e); /* at once: a take that comes now claims anew */
    snprintf(ids[n++], HG_ID_MAX, "%s", e->id);
  }
  pthread_mutex_unlock(&l->mu);
  for (size_t i = 0; i < n; i++) {
    hg_log_warn("lease.ahead_unused", "sandbox=%s after_ms=%" PRId64, ids[i],
                l->cfg.ahead_max_ms);
    release_post(l, ids[i]);
  }
}

/* A regroup's claim is done with (its group is what it should be now):
 * recorded with the sandbox, as a change is, and given back. Not if a
 * take came for it meanwhile. */
static void regroup_give_back(hg_leasing *l, const char *id) {
  pthread_mutex_lock(&l->mu);
  entry *e = entry_live(l, id);
  bool mine = e && e->regroup_only;
  if (mine) {
    fence_queue(l, id, &e->info, true);
    entry_tomb(e);
  }
  pthread_mutex_unlock(&l->mu);
  if (mine) release_post(l, id);
}

/* Held leases: a group change where one is due (regrouped). */
static void regroup_held(hg_leasing *l, int64_t now) {
  typedef struct { char id[HG_ID_MAX]; hg_lease_group cur; bool only; } due;
  due *d = NULL;
  size_t n = 0, cap = 0;
  pthread_mutex_lock(&l->mu);
  size_t cur = 0;
  for (hg_strmap_node *nd = hg_strmap_next(&l->table, &cur, NULL); nd;
       nd = hg_strmap_next(&l->table, &cur, nd)) {
    entry *e = HG_CONTAINER_OF(nd, entry, node);
    if (e->info.state != HG_LEASE_HELD || e->info.lease_until_ms <= now || e->info.conf.joint)
      continue;
    if (n == cap) {
      size_t nc = cap ? cap * 2 : 16;
      due *p = realloc(d, nc * sizeof *d);
      if (!p) break;
      d = p;
      cap = nc;
    }
    snprintf(d[n].id, sizeof d[n].id, "%s", e->id);
    d[n].only = e->regroup_only;
    d[n++].cur = e->info.conf.cur;
  }
  pthread_mutex_unlock(&l->mu);
  for (size_t i = 0; i < n; i++) {
    hg_lease_group next;
    if (!regrouped(l, d[i].id, &d[i].cur, &next)) {
      if (d[i].only) regroup_give_back(l, d[i].id);
      continue;
    }
    int rc = hg_leases_change_group(l->svc, d[i].id, &next);
    char from[HG_LEASE_GROUP_MAX * HG_NODE_ID_MAX], to[sizeof from];
    group_str(&d[i].cur, from, sizeof from);
    group_str(&next, to, sizeof to);
    hg_log_info("lease.regroup", "sandbox=%s from=%s to=%s err=\"%s\"", d[i].id, from, to,
                rc < 0 ? hg_err_str(rc) : "none");
  }
  free(d);
}

/* Suspended sandboxes here hold no lease, so regroup_held never sees
 * them: one whose group is due a change is claimed (regroup_only), changed
 * on a later pass and given back on the one after. Without it a member
 * dead for good would stay in the group of every suspended sandbox, and a
 * second death would leave it no majority: no resume, no failover. A few
 * per pass, in turn: after a failover most adopted ones are due at once. */
static void regroup_suspended(hg_leasing *l) {
  pthread_mutex_lock(&l->mu);
  hg_manager *m = l->manager;
  pthread_mutex_unlock(&l->mu);
  if (!m) return;
  char ids[REGROUP_SCAN][HG_ID_MAX];
  unsigned n = hg_manager_suspended(m, &l->suspended_at, ids, REGROUP_SCAN), claimed = 0;
  for (unsigned i = 0; i < n && claimed < REGROUP_CLAIMS; i++) {
    hg_sb_info info;
    hg_lease_conf conf;
    hg_lease_group next;
    if (hg_sandbox_info(m, ids[i], &info) < 0 || info.state != HG_SB_SUSPENDED ||
        info.lease.epoch == 0)
      continue;
    conf_of(l, &info.lease, &conf);
    if (!regrouped(l, ids[i], &conf.cur, &next)) continue;
    int rc = claim_early(l, ids[i], &info.lease, true);
    if (rc == 0) continue; /* claimed or held already */
    hg_log_info("lease.regroup_claim", "sandbox=%s epoch=%" PRIu64 " err=\"%s\"", ids[i],
                info.lease.epoch, rc < 0 ? hg_err_str(rc) : "none");
    claimed++;
  }
}

static void on_regroup(uv_timer_t *t) {
  hg_leasing *l = t->data;
  int64_t now = hg_now_ms();
  if (l->svc) drop_stale_aheads(l, now);
  if (!l->cfg.cluster || !l->svc) return;
  regroup_held(l, now);
  regroup_suspended(l);
}

bool hg_leasing_can_fail_over(hg_leasing *l) {
  if (!l->cfg.cluster || l->cfg.acceptors < 3) return false;
  hg_lease_group g;
  group_new(l, "sb-failover-probe", &g);
  return g.n >= 3;
}

/* ---- life -------------------------------------------------------------------------- */

static void svc_close(void *l);

int hg_leasing_open(const hg_leasing_config *cfg, hg_leasing **out) {
  hg_leasing *l = calloc(1, sizeof *l);
  if (!l) return -ENOMEM;
  l->cfg = *cfg;
  snprintf(l->self, sizeof l->self, "%s", cfg->self);
  l->cfg.self = l->self;
  l->lease_ms = cfg->lease_ms ? cfg->lease_ms : HG_LEASE_MS_DEFAULT;
  l->margin_ms = cfg->margin_ms ? cfg->margin_ms : HG_LEASE_MARGIN_MS_DEFAULT;
  l->cfg.dead_member_ms = cfg->dead_member_ms > 0 ? cfg->dead_member_ms : DEAD_MEMBER_MS_DEFAULT;
  l->cfg.ahead_max_ms = cfg->ahead_max_ms > 0 ? cfg->ahead_max_ms : AHEAD_MAX_MS_DEFAULT;
  l->cmds_tail = &l->cmds;
  pthread_mutex_init(&l->mu, NULL);
  hg_cond_init_mono(&l->cv);
  pthread_cond_init(&l->fence_cv, NULL);
  hg_leases_config lc = {.self = l->self,
                         .register_path = cfg->register_path,
                         .lease_ms = l->lease_ms,
                         .margin_ms = l->margin_ms,
                         .max_batch_bytes = HG_CLUSTER_LEASE_MAX - 1,
                         .cb = {.send = on_send, .changed = on_changed, .ud = l}};
  int rc = hg_leases_open(cfg->loop, &lc, &l->svc);
  if (rc == 0) rc = uv_async_init(cfg->loop, &l->async, on_async);
  if (rc == 0) {
    hg_closer_init(&l->closer, l, NULL, svc_close);
    hg_closer_add(&l->closer, 1);
    rc = uv_timer_init(cfg->loop, &l->regroup);
  }
  if (rc < 0) {
    if (l->svc) hg_leases_close(l->svc, NULL, NULL);
    pthread_cond_destroy(&l->fence_cv);
    pthread_cond_destroy(&l->cv);
    pthread_mutex_destroy(&l->mu);
    free(l);
    return rc;
  }
  l->async.data = l->regroup.data = l;
  hg_closer_add(&l->closer, 1);
  uv_timer_start(&l->regroup, on_regroup, REGROUP_MS, REGROUP_MS);
  if (cfg->cluster) hg_cluster_on_lease(cfg->cluster, on_datagram, l);
  if (pthread_create(&l->fencer, NULL, fencer_main, l) == 0) l->fencer_on = true;
  *out = l;
  return 0;
}

/* The leases of the VMs that run here: after a restart they are renewed
 * at the epoch they had, if the group still promises it; until then the
 * shims keep the deadlines they had (past ones fence). */
static void recover_all(hg_leasing *l) {
  json_t *list = hg_sandbox_list(l->manager, NULL, NULL);
  size_t i;
  json_t *it;
  unsigned n = 0;
  json_array_foreach(list, i, it) {
    const char *id = json_string_value(json_object_get(it, "id"));
    hg_sb_info info;
    if (!id || hg_sandbox_info(l->manager, id, &info) < 0) continue;
    if (info.state != HG_SB_RUNNING && info.state != HG_SB_PAUSED &&
        info.state != HG_SB_SUSPENDING && info.state != HG_SB_RESUMING)
      continue;
    hg_lease_conf conf;
    conf_of(l, &info.lease, &conf);
    if (post_cmd(l, CMD_RESTART, id, &conf, info.epoch, false) == 0) n++;
  }
  json_decref(list);
  if (n) hg_log_info("lease.recover", "sandboxes=%u", n);
}

void hg_leasing_attach(hg_leasing *l, hg_manager *m) {
  pthread_mutex_lock(&l->mu);
  l->manager = m;
  pthread_mutex_unlock(&l->mu);
  recover_all(l);
}

static void on_svc_closed(void *ud) {
  hg_leasing *l = ud;
  l->svc = NULL;
  if (l->done) l->done(l->done_ud);
}

/* Its handles closed: the lease service goes last (it may still be sending). */
static void svc_close(void *lv) {
  hg_leasing *l = lv;
  hg_leases_close(l->svc, on_svc_closed, l);
}

static void on_handle_closed(uv_handle_t *h) {
  hg_leasing *l = h->data;
  hg_closer_closed(&l->closer);
}

void hg_leasing_close(hg_leasing *l, void (*done)(void *ud), void *ud) {
  pthread_mutex_lock(&l->mu);
  l->closed = true;
  pthread_cond_broadcast(&l->cv);
  pthread_mutex_unlock(&l->mu);
  if (l->cfg.cluster) hg_cluster_on_lease(l->cfg.cluster, NULL, NULL);
  l->done = done;
  l->done_ud = ud;
  uv_close((uv_handle_t *)&l->async, on_handle_closed);
  uv_close((uv_handle_t *)&l->regroup, on_handle_closed);
}

void hg_leasing_free(hg_leasing *l) {
  if (!l) return;
  if (l->fencer_on) {
    pthread_mutex_lock(&l->mu);
    l->fencer_stop = true;
    pthread_cond_signal(&l->fence_cv);
    pthread_mutex_unlock(&l->mu);
    pthread_join(l->fencer, NULL);
  }
  for (cmd *c = l->cmds, *next; c; c = next) {
    next = c->next;
    free(c);
  }
  hg_strmap_free_all(&l->table, offsetof(entry, node));
  hg_strmap_free_all(&l->seen, offsetof(seen_epoch, node));
  hg_strmap_free_all(&l->jobs, offsetof(fence_job, node));
  pthread_cond_destroy(&l->fence_cv);
  pthread_cond_destroy(&l->cv);
  pthread_mutex_destroy(&l->mu);
  free(l);
}
