/* lease: per-sandbox majority leases (DESIGN §9, after PaxosLease), the
 * protocol alone. Ownership of a sandbox S is granted by a majority of S's
 * own acceptor group; gossip only suspects.
 *
 * Two halves, both free of I/O and of clocks of their own, so that a test
 * can drive them through any schedule of loss, duplication, reordering,
 * clock drift and crashes (tests/unit/test_lease.c does):
 *   - the acceptor: what this node promised for the sandboxes whose group
 *     it is in. The caller persists every promise the acceptor changed
 *     (hg_lease_acceptor_handle returns 1) before it sends that reply or
 *     any later one, and feeds the persisted promises back after a restart
 *     (hg_lease_acceptor_load), which starts the restart rule.
 *   - the proposer: the leases this node holds or claims. It says what to
 *     send through a callback, takes replies and ticks, and keeps for each
 *     sandbox until when (local monotonic ms) it may run it.
 * All times are one node's monotonic milliseconds; nodes never compare
 * clocks. The slack between an owner's lease end and the earliest claim
 * another node can win is 2 x margin of real time, which must cover the
 * drift of two clocks over one lease and the fencing latency. */
#ifndef HG_CLUSTER_LEASE_H
#define HG_CLUSTER_LEASE_H

#include <stdbool.h>
#include <stdint.h>

#include "node/core/ident.h"
#include "node/core/util.h"

#define HG_LEASE_GROUP_MAX 5
#define HG_LEASE_MS_DEFAULT 3000
#define HG_LEASE_MARGIN_MS_DEFAULT 500

/* An acceptor group: distinct node ids. */
typedef struct hg_lease_group {
  uint8_t n;
  char ids[HG_LEASE_GROUP_MAX][HG_NODE_ID_MAX];
} hg_lease_group;

/* A group configuration: stable (cur) or, during a change, joint (cur and
 * next, both of whose majorities a round needs). Ordered by (seq, joint,
 * epoch): a change goes stable k -> joint k -> stable k+1; epoch is that of
 * the holder who proposed it, so that of two proposals of one step the
 * newer owner's wins. */
typedef struct hg_lease_conf {
  uint32_t seq;
  bool joint;
  uint64_t epoch;
  hg_lease_group cur, next;
} hg_lease_conf;

/* What an acceptor promised for a sandbox; persisted before any answer
 * that depends on it. */
typedef struct hg_lease_promise {
  uint64_t epoch; /* 0: nothing promised yet */
  char holder[HG_NODE_ID_MAX];
  bool deleted;
  hg_lease_conf conf;
} hg_lease_promise;

typedef enum hg_lease_kind {
  HG_LEASE_RENEW = 1, /* the holder keeps its lease */
  HG_LEASE_CLAIM = 2, /* a candidate takes the sandbox at a higher epoch */
  HG_LEASE_QUERY = 3, /* asks for the promise; changes nothing (a holder of
                       * a replica the directory forgot asks: deleted?) */
} hg_lease_kind;

typedef struct hg_lease_req {
  hg_lease_kind kind;
  char sandbox[HG_ID_MAX];
  char from[HG_NODE_ID_MAX];
  uint64_t epoch;
  uint64_t round; /* the proposer's, echoed in the reply */
  bool deleting;  /* a claim that deletes the sandbox */
  hg_lease_conf conf;
} hg_lease_req;

typedef enum hg_lease_refusal {
  HG_LEASE_OK = 0,
  HG_LEASE_STALE,   /* promised a higher epoch, or this one to another node */
  HG_LEASE_WAIT,    /* a lease this acceptor granted may still run */
  HG_LEASE_DELETED, /* the sandbox was deleted */
  HG_LEASE_REMOVED, /* this acceptor left the sandbox's group */
} hg_lease_refusal;

typedef struct hg_lease_reply {
  char sandbox[HG_ID_MAX];
  char from[HG_NODE_ID_MAX]; /* the acceptor */
  uint64_t round;
  hg_lease_refusal refusal;
  int64_t wait_ms;          /* WAIT: how long until a claim can pass here */
  hg_lease_promise promise; /* the acceptor's, after the request */
} hg_lease_reply;

/* Configurations: -1, 0, 1 as a is lower, equal, higher. */
int hg_lease_conf_cmp(const hg_lease_conf *a, const hg_lease_conf *b);
/* Whether id is in the configuration's current or next group. */
bool hg_lease_conf_has(const hg_lease_conf *c, const char *id);
/* 0, or -EINVAL for an empty or oversized group, a repeated or empty id. */
int hg_lease_conf_check(const hg_lease_conf *c);
/* Whether the ids granted (n of them) make a quorum of c: a majority of
 * cur, and of next when joint. */
bool hg_lease_quorum(const hg_lease_conf *c, const char (*granted)[HG_NODE_ID_MAX],
                     unsigned n);

/* ---- acceptor ---- */

typedef struct hg_lease_acceptor hg_lease_acceptor;

/* lease_ms, margin_ms: T and margin, as every node of the cluster uses
 * them. now_ms: this start; promises loaded later count as granted now. */
int hg_lease_acceptor_new(const char *self, int64_t lease_ms, int64_t margin_ms,
                          int64_t now_ms, hg_lease_acceptor **out);
void hg_lease_acceptor_free(hg_lease_acceptor *a);
/* A promise persisted before a restart. The restart rule: it counts as
 * granted at the acceptor's start, since what was granted just before the
 * crash is unknown, so no claim for it passes for T + margin. */
int hg_lease_acceptor_load(hg_lease_acceptor *a, const char *sandbox,
                           const hg_lease_promise *p);
/* Answers req into *rep. 1: the promise changed and must be persisted
 * (hg_lease_acceptor_get) before rep or any later reply is sent; 0: not;
 * -EINVAL: a malformed request (no reply); -ENOMEM. */
int hg_lease_acceptor_handle(hg_lease_acceptor *a, const hg_lease_req *req,
                             int64_t now_ms, hg_lease_reply *rep);
/* The promise for sandbox: 0, -ENOENT. */
int hg_lease_acceptor_get(const hg_lease_acceptor *a, const char *sandbox,
                          hg_lease_promise *out);

/* ---- proposer ---- */

typedef struct hg_lease_proposer hg_lease_proposer;

typedef enum hg_lease_state {
  HG_LEASE_CLAIMING = 1, /* a claim round is out */
  HG_LEASE_HELD,         /* held; lease_until says until when */
  HG_LEASE_LOST,         /* another node holds a higher epoch: stop, orphan */
  HG_LEASE_GONE,         /* deleted (by this node's claim or another's) */
  HG_LEASE_ASKING,       /* a query round is out */
  HG_LEASE_LIVE,         /* a quorum answered the query: not deleted */
} hg_lease_state;

typedef struct hg_lease_info {
  hg_lease_state state;
  uint64_t epoch;
  int64_t lease_until_ms; /* may run S while now < this; 0: never granted */
  bool waiting;           /* CLAIMING, held up by a live lease (holder's) */
  hg_lease_conf conf;
  char holder[HG_NODE_ID_MAX]; /* LOST: who holds it now; waiting: whose lease */
  uint64_t seen_epoch;         /* the highest epoch any reply showed */
  bool deleted_elsewhere;      /* GONE by another node's delete, not by ours */
} hg_lease_info;

typedef struct hg_lease_proposer_cb {
  /* Sends req to node `to`: fire and forget (the proposer retries). */
  void (*send)(void *ud, const char *to, const hg_lease_req *req);
  /* The state, epoch or lease end of sandbox changed: the caller moves
   * the VM's fencing deadline (its shim's) to lease_until_ms. */
  void (*changed)(void *ud, const char *sandbox, const hg_lease_info *info);
  void *ud;
} hg_lease_proposer_cb;

int hg_lease_proposer_new(const char *self, int64_t lease_ms, int64_t margin_ms,
                          const hg_lease_proposer_cb *cb, hg_lease_proposer **out);
void hg_lease_proposer_free(hg_lease_proposer *p);
/* Claims sandbox at an epoch above min_epoch and every epoch this proposer
 * has seen for it, from the group configuration conf (a stale view is
 * fine: replies raise it). deleting: the claim deletes the sandbox. */
int hg_lease_claim(hg_lease_proposer *p, const char *sandbox, const hg_lease_conf *conf,
                   uint64_t min_epoch, bool deleting, int64_t now_ms);
/* After a restart of this node: takes up renewing sandbox at the epoch it
 * held it at, from the configuration conf. Held but not valid until a
 * majority grants; acceptors grant only if they still promise (epoch, us),
 * so a node that was replaced learns it (LOST) and one that was not keeps
 * its sandbox without a claim's wait. vm: a VM of it ran here and may hold
 * what no generation does (a restart found it): a rival's higher promise
 * ends the recovery only once the members that gave one leave no quorum,
 * as for a held lease, since a rival's claim that reached a minority (and
 * failed) holds nothing; without vm (an own resume) the first one ends it,
 * as for a claim. -EALREADY when known here. */
int hg_lease_recover(hg_lease_proposer *p, const char *sandbox, const hg_lease_conf *conf,
                     uint64_t epoch, bool vm, int64_t now_ms);
/* Asks sandbox's group (from conf; replies raise it) whether it was
 * deleted: GONE when an acceptor recorded the delete, LIVE once a quorum
 * answered without one (a committed delete is at a majority, and any two
 * majorities meet). Repeated every T/3 until then; release ends it.
 * epoch: the highest the caller knows (>= 1). -EALREADY when known here. */
int hg_lease_query(hg_lease_proposer *p, const char *sandbox, const hg_lease_conf *conf,
                   uint64_t epoch, int64_t now_ms);
/* Starts a change of a held sandbox's group to next (joint consensus).
 * -EBUSY while a change is under way or the lease is not held. */
int hg_lease_change_group(hg_lease_proposer *p, const char *sandbox,
                          const hg_lease_group *next, int64_t now_ms);
/* Stops renewing (the sandbox moved away or was deleted here). */
void hg_lease_release(hg_lease_proposer *p, const char *sandbox);
/* Takes a reply to one of our requests. */
void hg_lease_proposer_reply(hg_lease_proposer *p, const hg_lease_reply *rep,
                             int64_t now_ms);
/* Renews every held lease due (every T/3), retries claims; returns the ms
 * until it next needs a tick. */
int64_t hg_lease_proposer_tick(hg_lease_proposer *p, int64_t now_ms);
/* 0, -ENOENT. */
int hg_lease_info_get(const hg_lease_proposer *p, const char *sandbox,
                      hg_lease_info *out);
/* Whether this node may run sandbox now: held, and the lease not past. */
bool hg_lease_valid(const hg_lease_proposer *p, const char *sandbox, int64_t now_ms);

#endif
