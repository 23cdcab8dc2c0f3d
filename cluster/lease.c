/* lease: per-sandbox majority leases; see lease.h and DESIGN §9. */
#include "cluster/lease.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "node/core/strmap.h"

/* `last` of a sandbox this acceptor never promised anything for: it never
 * granted a lease on it, so a claim need not wait. */
#define NEVER_MS (INT64_MIN / 4)

/* ---- configurations ------------------------------------------------------ */

int hg_lease_conf_cmp(const hg_lease_conf *a, const hg_lease_conf *b) {
  if (a->seq != b->seq) return a->seq < b->seq ? -1 : 1;
  if (a->joint != b->joint) return a->joint ? 1 : -1;
  if (a->epoch != b->epoch) return a->epoch < b->epoch ? -1 : 1;
  return 0;
}

static bool group_has(const hg_lease_group *g, const char *id) {
  for (unsigned i = 0; i < g->n; i++)
    if (strcmp(g->ids[i], id) == 0) return true;
  return false;
}

bool hg_lease_conf_has(const hg_lease_conf *c, const char *id) {
  return group_has(&c->cur, id) || (c->joint && group_has(&c->next, id));
}

/* A node id by the grammar of node/core/ident.h, read only within its field. */
static bool node_ok(const char *id) {
  return strnlen(id, HG_NODE_ID_MAX) < HG_NODE_ID_MAX && hg_node_id_valid(id);
}

static int group_check(const hg_lease_group *g) {
  if (g->n < 1 || g->n > HG_LEASE_GROUP_MAX) return -EINVAL;
  for (unsigned i = 0; i < g->n; i++) {
    if (!node_ok(g->ids[i])) return -EINVAL;
    for (unsigned k = 0; k < i; k++)
      if (strcmp(g->ids[k], g->ids[i]) == 0) return -EINVAL;
  }
  return 0;
}

int hg_lease_conf_check(const hg_lease_conf *c) {
  int rc = group_check(&c->cur);
  if (rc == 0 && c->joint) rc = group_check(&c->next);
  return rc;
}

static bool majority_of(const hg_lease_group *g, const char (*granted)[HG_NODE_ID_MAX],
                        unsigned n) {
  unsigned in = 0;
  for (unsigned i = 0; i < n; i++) in += group_has(g, granted[i]);
  return in > g->n / 2u;
}

bool hg_lease_quorum(const hg_lease_conf *c, const char (*granted)[HG_NODE_ID_MAX],
                     unsigned n) {
  return majority_of(&c->cur, granted, n) &&
         (!c->joint || majority_of(&c->next, granted, n));
}

static const hg_lease_conf *conf_max(const hg_lease_conf *a, const hg_lease_conf *b) {
  return hg_lease_conf_cmp(a, b) >= 0 ? a : b;
}

static bool id_ok(const char *s, size_t cap) {
  size_t len = strnlen(s, cap);
  return len > 0 && len < cap;
}

/* ---- acceptor ------------------------------------------------------------ */

typedef struct acc_entry {
  hg_strmap_node node;
  char sandbox[HG_ID_MAX];
  hg_lease_promise p;
  int64_t last_ms; /* when this acceptor last granted or accepted anything */
} acc_entry;

struct hg_lease_acceptor {
  char self[HG_NODE_ID_MAX];
  int64_t lease_ms, margin_ms, start_ms;
  hg_strmap entries;
};

int hg_lease_acceptor_new(const char *self, int64_t lease_ms, int64_t margin_ms,
                          int64_t now_ms, hg_lease_acceptor **out) {
  if (!self || !node_ok(self) || margin_ms < 0 || lease_ms <= 2 * margin_ms)
    return -EINVAL;
  hg_lease_acceptor *a = calloc(1, sizeof *a);
  if (!a) return -ENOMEM;
  snprintf(a->self, sizeof a->self, "%s", self);
  a->lease_ms = lease_ms;
  a->margin_ms = margin_ms;
  a->start_ms = now_ms;
  *out = a;
  return 0;
}

void hg_lease_acceptor_free(hg_lease_acceptor *a) {
  if (!a) return;
  hg_strmap_free_all(&a->entries, offsetof(acc_entry, node));
  free(a);
}

static acc_entry *acc_find(const hg_lease_acceptor *a, const char *sandbox) {
  hg_strmap_node *n = hg_strmap_get(&a->entries, sandbox);
  return n ? HG_CONTAINER_OF(n, acc_entry, node) : NULL;
}

static acc_entry *acc_add(hg_lease_acceptor *a, const char *sandbox) {
  acc_entry *e = calloc(1, sizeof *e);
  if (!e) return NULL;
  snprintf(e->sandbox, sizeof e->sandbox, "%s", sandbox);
  e->node.key = e->sandbox;
  if (hg_strmap_put(&a->entries, &e->node) < 0) {
    free(e);
    return NULL;
  }
  return e;
}

int hg_lease_acceptor_load(hg_lease_acceptor *a, const char *sandbox,
                           const hg_lease_promise *p) {
  if (!id_ok(sandbox, HG_ID_MAX) || hg_lease_conf_check(&p->conf) < 0) return -EINVAL;
  acc_entry *e = acc_find(a, sandbox);
  if (!e && !(e = acc_add(a, sandbox))) return -ENOMEM;
  e->p = *p;
  e->last_ms = a->start_ms; /* the restart rule */
  return 0;
}

int hg_lease_acceptor_get(const hg_lease_acceptor *a, const char *sandbox,
                          hg_lease_promise *out) {
  acc_entry *e = acc_find(a, sandbox);
  if (!e) return -ENOENT;
  *out = e->p;
  return 0;
}

static int req_check(const hg_lease_req *r) {
  if (r->kind != HG_LEASE_RENEW && r->kind != HG_LEASE_CLAIM && r->kind != HG_LEASE_QUERY)
    return -EINVAL;
  if (!id_ok(r->sandbox, HG_ID_MAX) || !node_ok(r->from) || r->epoch == 0) return -EINVAL;
  return hg_lease_conf_check(&r->conf);
}

/* The rules of DESIGN §9 for one request against promise e (which may be a
 * blank one not yet in the table). Sets *changed when e must be persisted. */
static hg_lease_refusal acc_decide(const hg_lease_acceptor *a, acc_entry *e,
                                   const hg_lease_req *r, int64_t now, bool *changed,
                                   int64_t *wait_ms) {
  if (e->p.deleted) return HG_LEASE_DELETED;
  /* Membership by the newest configuration either side knows: a member
   * dropped by a committed change refuses everything and keeps its entry. */
  if (!hg_lease_conf_has(conf_max(&e->p.conf, &r->conf), a->self))
    return HG_LEASE_REMOVED;
  bool holder = e->p.epoch == r->epoch && strcmp(e->p.holder, r->from) == 0;
  if (!holder) {
    if (r->epoch <= e->p.epoch) return HG_LEASE_STALE;
    /* A claim, or the renewal of an owner this acceptor has not promised
     * yet (it missed the claim, or just joined the group): nothing it
     * granted may still run. A claim by the node it promised needs no
     * wait: what it granted within T + margin went to that node alone
     * (its own promise waited out the one before). */
    int64_t since = now - e->last_ms;
    bool same = e->p.epoch > 0 && strcmp(e->p.holder, r->from) == 0;
    if (!same && since <= a->lease_ms + a->margin_ms) {
      *wait_ms = a->lease_ms + a->margin_ms - since + 1;
      return HG_LEASE_WAIT;
    }
    e->p.epoch = r->epoch;
    snprintf(e->p.holder, sizeof e->p.holder, "%s", r->from);
    *changed = true;
  }
  if (r->deleting && !e->p.deleted) {
    e->p.deleted = true;
    *changed = true;
  }
  /* Configurations travel only with granted requests, so that a former
   * holder cannot install one at acceptors that promised a newer owner. */
  if (hg_lease_conf_cmp(&r->conf, &e->p.conf) > 0) {
    e->p.conf = r->conf;
    *changed = true;
  }
  e->last_ms = now;
  return HG_LEASE_OK;
}

int hg_lease_acceptor_handle(hg_lease_acceptor *a, const hg_lease_req *req,
                             int64_t now_ms, hg_lease_reply *rep) {
  if (req_check(req) < 0) return -EINVAL;
  acc_entry blank = {.p.conf = req->conf, .last_ms = NEVER_MS};
  acc_entry *e = acc_find(a, req->sandbox);
  acc_entry *work = e ? e : &blank;
  bool changed = false;
  int64_t wait_ms = 0;
  hg_lease_refusal why = HG_LEASE_OK;
  if (req->kind == HG_LEASE_QUERY) /* the promise as it is: no change, no grant */
    why = work->p.deleted ? HG_LEASE_DELETED : HG_LEASE_OK;
  else
    why = acc_decide(a, work, req, now_ms, &changed, &wait_ms);
  if (!e && changed) {
    if (!(e = acc_add(a, req->sandbox))) return -ENOMEM;
    e->p = blank.p;
    e->last_ms = blank.last_ms;
    work = e;
  }
  memset(rep, 0, sizeof *rep);
  snprintf(rep->sandbox, sizeof rep->sandbox, "%s", req->sandbox);
  snprintf(rep->from, sizeof rep->from, "%s", a->self);
  rep->round = req->round;
  rep->refusal = why;
  rep->wait_ms = wait_ms;
  rep->promise = work->p;
  return changed ? 1 : 0;
}

/* ---- proposer ------------------------------------------------------------ */

#define ROUND_MAX_VOTERS (2 * HG_LEASE_GROUP_MAX)
/* Rounds whose grants still count (see start_round): a grant slower than
 * the retry period (T/3) counts with its own round's send time. */
#define ROUNDS_KEPT 4

typedef struct prop_entry {
  hg_strmap_node node;
  char sandbox[HG_ID_MAX];
  hg_lease_state state;
  uint64_t epoch;       /* claimed or held */
  uint64_t first_epoch; /* of this claim: a higher-or-equal one elsewhere beat us */
  uint64_t seen_epoch;  /* the highest any reply showed */
  bool deleting;
  bool waiting; /* a claim that an acceptor told to wait (a live lease) */
  bool vm;      /* a recovery of a VM that ran here (hg_lease_recover) */
  hg_lease_conf conf; /* the highest known */
  int64_t lease_until_ms;
  char holder[HG_NODE_ID_MAX];
  /* The round out now. */
  uint64_t round;
  hg_lease_conf round_conf;
  /* The last rounds of this epoch and configuration (the newest is the one
   * out now), and the grants they brought since the last quorum: from the
   * members named, the oldest of their rounds sent at granted_from_ms. */
  struct {
    uint64_t round;
    int64_t sent_ms;
  } kept[ROUNDS_KEPT];
  unsigned nkept;
  uint64_t kept_epoch, quorum_round;
  int kept_kind; /* the kept rounds' request: a claim's grant is no delete's */
  bool kept_deleting;
  char granted[ROUND_MAX_VOTERS][HG_NODE_ID_MAX];
  unsigned ngranted;
  int64_t granted_from_ms;
  char refused[ROUND_MAX_VOTERS][HG_NODE_ID_MAX]; /* promised a rival */
  unsigned nrefused;
  /* Members that said the sandbox is deleted, over every round (a record
   * of it never goes away). */
  char deleted[ROUND_MAX_VOTERS][HG_NODE_ID_MAX];
  unsigned ndeleted;
  int64_t next_ms; /* next renewal, or the next attempt of a claim */
} prop_entry;

struct hg_lease_proposer {
  char self[HG_NODE_ID_MAX];
  int64_t lease_ms, margin_ms;
  hg_lease_proposer_cb cb;
  uint64_t rounds;
  hg_strmap entries;
};

int hg_lease_proposer_new(const char *self, int64_t lease_ms, int64_t margin_ms,
                          const hg_lease_proposer_cb *cb, hg_lease_proposer **out) {
  if (!self || !node_ok(self) || !cb || !cb->send || margin_ms < 0 ||
      lease_ms <= 2 * margin_ms)
    return -EINVAL;
  hg_lease_proposer *p = calloc(1, sizeof *p);
  if (!p) return -ENOMEM;
  snprintf(p->self, sizeof p->self, "%s", self);
  p->lease_ms = lease_ms;
  p->margin_ms = margin_ms;
  p->cb = *cb;
  *out = p;
  return 0;
}

void hg_lease_proposer_free(hg_lease_proposer *p) {
  if (!p) return;
  hg_strmap_free_all(&p->entries, offsetof(prop_entry, node));
  free(p);
}

static prop_entry *prop_find(const hg_lease_proposer *p, const char *sandbox) {
  hg_strmap_node *n = hg_strmap_get(&p->entries, sandbox);
  return n ? HG_CONTAINER_OF(n, prop_entry, node) : NULL;
}

static prop_entry *prop_add(hg_lease_proposer *p, const char *sandbox) {
  prop_entry *e = calloc(1, sizeof *e);
  if (!e) return NULL;
  snprintf(e->sandbox, sizeof e->sandbox, "%s", sandbox);
  e->node.key = e->sandbox;
  if (hg_strmap_put(&p->entries, &e->node) < 0) {
    free(e);
    return NULL;
  }
  return e;
}

static void info_of(const prop_entry *e, hg_lease_info *out) {
  *out = (hg_lease_info){.state = e->state,
                         .epoch = e->epoch,
                         .lease_until_ms = e->lease_until_ms,
                         .waiting = e->state == HG_LEASE_CLAIMING && e->waiting,
                         .conf = e->conf,
                         .seen_epoch = e->seen_epoch,
                         .deleted_elsewhere = e->state == HG_LEASE_GONE && !e->deleting};
  snprintf(out->holder, sizeof out->holder, "%s", e->holder);
}

static void changed(hg_lease_proposer *p, const prop_entry *e) {
  if (!p->cb.changed) return;
  hg_lease_info info;
  info_of(e, &info);
  p->cb.changed(p->cb.ud, e->sandbox, &info);
}

/* Sends one round (a claim while claiming, else a renewal) to every member
 * of the highest configuration known. */
static void start_round(hg_lease_proposer *p, prop_entry *e, int64_t now) {
  hg_lease_req r = {
      .kind = e->state == HG_LEASE_CLAIMING ? HG_LEASE_CLAIM
              : e->state == HG_LEASE_ASKING ? HG_LEASE_QUERY
                                            : HG_LEASE_RENEW,
      .epoch = e->epoch,
      .round = ++p->rounds,
      .deleting = e->deleting,
      .conf = e->conf};
  snprintf(r.sandbox, sizeof r.sandbox, "%s", e->sandbox);
  snprintf(r.from, sizeof r.from, "%s", p->self);
  /* A retry (the same request: kind, delete or not, epoch and
   * configuration) keeps the grants of the rounds before it: on a loaded
   * acceptor an answer can take longer than the retry period, and a claim
   * that counted only its newest round's would retry for as long as that
   * lasts. Anything else starts afresh: a renewal's grant is not a
   * delete's, nor one under another group. */
  bool retry = e->state != HG_LEASE_ASKING && e->nkept && e->kept_epoch == e->epoch &&
               e->kept_kind == (int)r.kind && e->kept_deleting == e->deleting &&
               hg_lease_conf_cmp(&e->conf, &e->round_conf) == 0;
  if (!retry) {
    e->nkept = 0;
    e->ngranted = 0;
    e->kept_epoch = e->epoch;
    e->kept_kind = (int)r.kind;
    e->kept_deleting = e->deleting;
  }
  if (e->nkept == ROUNDS_KEPT) memmove(e->kept, e->kept + 1, sizeof e->kept[0] * --e->nkept);
  e->kept[e->nkept].round = r.round;
  e->kept[e->nkept++].sent_ms = now;
  e->round = r.round;
  e->round_conf = e->conf;
  e->nrefused = 0;
  e->next_ms = now + p->lease_ms / 3;
  for (unsigned i = 0; i < e->conf.cur.n; i++)
    p->cb.send(p->cb.ud, e->conf.cur.ids[i], &r);
  for (unsigned i = 0; e->conf.joint && i < e->conf.next.n; i++)
    if (!group_has(&e->conf.cur, e->conf.next.ids[i]))
      p->cb.send(p->cb.ud, e->conf.next.ids[i], &r);
}

int hg_lease_claim(hg_lease_proposer *p, const char *sandbox, const hg_lease_conf *conf,
                   uint64_t min_epoch, bool deleting, int64_t now_ms) {
  if (!id_ok(sandbox, HG_ID_MAX) || hg_lease_conf_check(conf) < 0) return -EINVAL;
  prop_entry *e = prop_find(p, sandbox);
  if (e && e->state == HG_LEASE_CLAIMING) return -EALREADY;
  if (e && e->state == HG_LEASE_HELD && !deleting) return -EALREADY;
  if (!e) {
    if (!(e = prop_add(p, sandbox))) return -ENOMEM;
    e->conf = *conf;
  }
  e->conf = *conf_max(&e->conf, conf);
  /* The holder deletes at its own epoch; anyone else claims above it. */
  if (!(e->state == HG_LEASE_HELD && deleting)) {
    uint64_t base = e->epoch > e->seen_epoch ? e->epoch : e->seen_epoch;
    e->epoch = (base > min_epoch ? base : min_epoch) + 1;
    e->first_epoch = e->epoch;
    e->lease_until_ms = 0;
  }
  e->state = HG_LEASE_CLAIMING;
  e->deleting = deleting;
  e->waiting = false;
  e->holder[0] = '\0';
  start_round(p, e, now_ms);
  return 0;
}

int hg_lease_recover(hg_lease_proposer *p, const char *sandbox, const hg_lease_conf *conf,
                     uint64_t epoch, bool vm, int64_t now_ms) {
  if (!id_ok(sandbox, HG_ID_MAX) || hg_lease_conf_check(conf) < 0 || epoch == 0)
    return -EINVAL;
  if (prop_find(p, sandbox)) return -EALREADY;
  prop_entry *e = prop_add(p, sandbox);
  if (!e) return -ENOMEM;
  e->conf = *conf;
  e->epoch = e->first_epoch = e->seen_epoch = epoch;
  /* Held, but until a majority grants this round, valid for no time. */
  e->state = HG_LEASE_HELD;
  e->vm = vm;
  start_round(p, e, now_ms);
  return 0;
}

int hg_lease_query(hg_lease_proposer *p, const char *sandbox, const hg_lease_conf *conf,
                   uint64_t epoch, int64_t now_ms) {
  if (!id_ok(sandbox, HG_ID_MAX) || hg_lease_conf_check(conf) < 0 || epoch == 0)
    return -EINVAL;
  if (prop_find(p, sandbox)) return -EALREADY;
  prop_entry *e = prop_add(p, sandbox);
  if (!e) return -ENOMEM;
  e->conf = *conf;
  e->epoch = e->first_epoch = e->seen_epoch = epoch;
  e->state = HG_LEASE_ASKING;
  start_round(p, e, now_ms);
  return 0;
}

int hg_lease_change_group(hg_lease_proposer *p, const char *sandbox,
                          const hg_lease_group *next, int64_t now_ms) {
  prop_entry *e = prop_find(p, sandbox);
  if (!e) return -ENOENT;
  if (group_check(next) < 0) return -EINVAL;
  if (e->state != HG_LEASE_HELD || e->conf.joint) return -EBUSY;
  e->conf.joint = true;
  e->conf.epoch = e->epoch;
  e->conf.next = *next;
  start_round(p, e, now_ms);
  return 0;
}

void hg_lease_release(hg_lease_proposer *p, const char *sandbox) {
  prop_entry *e = prop_find(p, sandbox);
  if (!e) return;
  hg_strmap_del(&p->entries, &e->node);
  free(e);
}

static void set_state(hg_lease_proposer *p, prop_entry *e, hg_lease_state st,
                      const char *holder) {
  e->state = st;
  if (st != HG_LEASE_HELD) e->lease_until_ms = 0;
  snprintf(e->holder, sizeof e->holder, "%s", holder ? holder : "");
  changed(p, e);
}

/* When a kept round of e was sent; -1: not one kept, or one before the
 * last quorum (its grant was counted, or came too late to matter). */
static int64_t kept_sent(const prop_entry *e, uint64_t round) {
  if (round <= e->quorum_round) return -1;
  for (unsigned i = 0; i < e->nkept; i++)
    if (e->kept[i].round == round) return e->kept[i].sent_ms;
  return -1;
}

/* A grant of a kept round (sent at sent_ms): once the grants make a quorum
 * of the highest configuration known, the lease runs from the oldest of
 * their rounds' send times (a member's promise starts when its request
 * arrived, after that). */
static void count_grant(hg_lease_proposer *p, prop_entry *e, const char *from,
                        int64_t sent_ms) {
  for (unsigned i = 0; i < e->ngranted; i++)
    if (strcmp(e->granted[i], from) == 0) return;
  if (e->ngranted == ROUND_MAX_VOTERS) return;
  if (e->ngranted == 0 || sent_ms < e->granted_from_ms) e->granted_from_ms = sent_ms;
  snprintf(e->granted[e->ngranted++], HG_NODE_ID_MAX, "%s", from);
  if (!hg_lease_quorum(&e->conf, (const char(*)[HG_NODE_ID_MAX])e->granted, e->ngranted))
    return;
  int64_t until = e->granted_from_ms + p->lease_ms - p->margin_ms;
  e->ngranted = 0; /* the next quorum from later rounds */
  e->quorum_round = e->round;
  if (e->state == HG_LEASE_CLAIMING && e->deleting) {
    set_state(p, e, HG_LEASE_GONE, NULL);
    return;
  }
  if (until > e->lease_until_ms) e->lease_until_ms = until;
  /* A joint round that reached both majorities commits the change: later
   * rounds carry the new group alone. */
  if (e->conf.joint && e->round_conf.joint && e->round_conf.seq == e->conf.seq) {
    e->conf =
        (hg_lease_conf){.seq = e->conf.seq + 1, .epoch = e->epoch, .cur = e->conf.next};
  }
  e->state = HG_LEASE_HELD;
  changed(p, e);
}

/* Adds from to the members that refused for a rival in this round;
 * returns whether the others can no longer make a quorum. */
static bool refuse(prop_entry *e, const char *from) {
  bool known = false;
  for (unsigned i = 0; i < e->nrefused; i++) known |= strcmp(e->refused[i], from) == 0;
  if (!known && e->nrefused < ROUND_MAX_VOTERS)
    snprintf(e->refused[e->nrefused++], HG_NODE_ID_MAX, "%s", from);
  char left[ROUND_MAX_VOTERS][HG_NODE_ID_MAX];
  unsigned n = 0;
  const hg_lease_group *gs[2] = {&e->conf.cur, e->conf.joint ? &e->conf.next : NULL};
  for (unsigned g = 0; g < 2 && gs[g]; g++) {
    for (unsigned i = 0; i < gs[g]->n; i++) {
      bool out = false;
      for (unsigned k = 0; k < e->nrefused; k++)
        out |= strcmp(e->refused[k], gs[g]->ids[i]) == 0;
      if (!out && n < ROUND_MAX_VOTERS)
        snprintf(left[n++], HG_NODE_ID_MAX, "%s", gs[g]->ids[i]);
    }
  }
  return !hg_lease_quorum(&e->conf, (const char(*)[HG_NODE_ID_MAX])left, n);
}

/* A live lease holds the claim up: retry once it can have run out, and
 * say who holds it (the first time), so a caller can tell a sandbox in use
 * elsewhere from a group that does not answer. */
static void claim_waits(hg_lease_proposer *p, prop_entry *e, const hg_lease_reply *rep,
                        int64_t now_ms) {
  if (now_ms + rep->wait_ms > e->next_ms) e->next_ms = now_ms + rep->wait_ms;
  if (e->waiting) return;
  e->waiting = true;
  snprintf(e->holder, sizeof e->holder, "%s", rep->promise.holder);
  changed(p, e);
}

/* A query's answer without a delete: LIVE once they make a quorum of the
 * highest configuration known (a raised one is asked anew). */
static void answer(hg_lease_proposer *p, prop_entry *e, const hg_lease_reply *rep,
                   int64_t now_ms) {
  if (hg_lease_conf_cmp(&rep->promise.conf, &e->conf) > 0) {
    e->conf = rep->promise.conf;
    start_round(p, e, now_ms);
    return;
  }
  if (rep->round != e->round || rep->refusal == HG_LEASE_REMOVED) return;
  for (unsigned i = 0; i < e->ngranted; i++)
    if (strcmp(e->granted[i], rep->from) == 0) return;
  if (e->ngranted == ROUND_MAX_VOTERS) return;
  snprintf(e->granted[e->ngranted++], HG_NODE_ID_MAX, "%s", rep->from);
  if (hg_lease_quorum(&e->conf, (const char(*)[HG_NODE_ID_MAX])e->granted, e->ngranted))
    set_state(p, e, HG_LEASE_LIVE, rep->promise.holder);
}

/* A member's record that the sandbox is deleted. Returns whether those
 * records make a quorum: only then was the delete decided. A minority's
 * record is what a delete that lost leaves behind (it reached one member,
 * then the others refused it); taken alone as "deleted", it would end a
 * sandbox whose delete failed. */
static bool deleted_by_quorum(prop_entry *e, const char *from) {
  bool known = false;
  for (unsigned i = 0; i < e->ndeleted; i++) known |= strcmp(e->deleted[i], from) == 0;
  if (!known && e->ndeleted < ROUND_MAX_VOTERS)
    snprintf(e->deleted[e->ndeleted++], HG_NODE_ID_MAX, "%s", from);
  return hg_lease_quorum(&e->conf, (const char(*)[HG_NODE_ID_MAX])e->deleted, e->ndeleted);
}

void hg_lease_proposer_reply(hg_lease_proposer *p, const hg_lease_reply *rep,
                             int64_t now_ms) {
  prop_entry *e = prop_find(p, rep->sandbox);
  if (!e || e->state == HG_LEASE_GONE || e->state == HG_LEASE_LOST) return;
  const hg_lease_promise *pr = &rep->promise;
  if (pr->epoch > e->seen_epoch) e->seen_epoch = pr->epoch;
  if (pr->deleted) {
    if (deleted_by_quorum(e, rep->from)) {
      set_state(p, e, HG_LEASE_GONE, pr->holder);
      return;
    }
    /* Until then a member that refused (not one that granted our own
     * delete) is one that will grant nothing more: a refusal of this round
     * (an ASKING query just waits for more). */
    if (rep->refusal == HG_LEASE_DELETED && e->state != HG_LEASE_ASKING &&
        rep->round == e->round && refuse(e, rep->from))
      set_state(p, e, HG_LEASE_LOST, pr->holder);
    return;
  }
  if (e->state == HG_LEASE_ASKING) {
    answer(p, e, rep, now_ms);
    return;
  }
  /* Another node was promised a newer epoch: it holds or claims S. A
   * claim stops at once; it never retries higher on its own, so that two
   * candidates do not take turns fencing each other. A held lease stops
   * only once the members that promised higher leave the others no
   * quorum: a rival's claim that reached a minority (a one-way cut kept
   * our renewals from one member; the rival gave up) must not fence and
   * orphan a VM that a majority still grants. Those members grant no
   * renewal of ours and the rest no claim of the rival's while our lease
   * lives, so the two never both hold a majority. */
  bool other = strcmp(pr->holder, p->self) != 0;
  if (other && pr->epoch > e->epoch) {
    /* granted at least once, or the recovery of a VM that ran here; an
     * own resume not yet granted stops at once, as a claim does. The
     * holder's delete (a claim at its own epoch that keeps the lease it
     * had) is that lease's round: the members that grant it record the
     * delete, so it too stops only once no quorum is left, or a delete a
     * majority recorded would be reported failed. */
    bool holding = e->state == HG_LEASE_HELD || (e->state == HG_LEASE_CLAIMING && e->deleting);
    bool held = holding && (e->lease_until_ms > 0 || e->vm);
    if (!held || (rep->round == e->round && refuse(e, rep->from)))
      set_state(p, e, HG_LEASE_LOST, pr->holder);
    return;
  }
  /* A rival claim at our epoch: we lose once the members left cannot make
   * a quorum (both lose when they split the vote; a caller may claim again). */
  if (other && pr->epoch == e->epoch && e->state == HG_LEASE_CLAIMING &&
      rep->round == e->round && refuse(e, rep->from)) {
    set_state(p, e, HG_LEASE_LOST, pr->holder);
    return;
  }
  bool raised = hg_lease_conf_cmp(&pr->conf, &e->conf) > 0;
  if (raised) e->conf = pr->conf;
  /* A grant counts only with the promise it names: (our epoch, us). A
   * late reply to a round of a previous run of this node can carry the
   * same round number (round ids restart with the process). */
  int64_t sent = kept_sent(e, rep->round);
  if (sent >= 0 && rep->refusal == HG_LEASE_OK && pr->epoch == e->epoch && !other)
    count_grant(p, e, rep->from, sent);
  else if (rep->round == e->round && rep->refusal == HG_LEASE_WAIT &&
           e->state == HG_LEASE_CLAIMING)
    claim_waits(p, e, rep, now_ms);
  /* Members we did not ask yet must hear this round's request. */
  if (raised && (e->state == HG_LEASE_CLAIMING || e->state == HG_LEASE_HELD))
    start_round(p, e, now_ms);
}

int64_t hg_lease_proposer_tick(hg_lease_proposer *p, int64_t now_ms) {
  int64_t next = now_ms + p->lease_ms / 3;
  size_t cur = 0;
  for (hg_strmap_node *n = hg_strmap_next(&p->entries, &cur, NULL); n;
       n = hg_strmap_next(&p->entries, &cur, n)) {
    prop_entry *e = HG_CONTAINER_OF(n, prop_entry, node);
    if (e->state != HG_LEASE_CLAIMING && e->state != HG_LEASE_HELD &&
        e->state != HG_LEASE_ASKING)
      continue;
    /* A renewal due within half a renewal period (rounds start every
     * lease/3) goes now, with the others due: any two leases fall into step
     * after one round, however far apart they were taken, and leave as one
     * batch per acceptor. Early is safe: a lease runs from its round's start. */
    int64_t early = e->state == HG_LEASE_HELD ? p->lease_ms / 6 : 0;
    if (now_ms >= e->next_ms - early) start_round(p, e, now_ms);
    if (e->next_ms < next) next = e->next_ms;
  }
  return next > now_ms ? next - now_ms : 0;
}

int hg_lease_info_get(const hg_lease_proposer *p, const char *sandbox,
                      hg_lease_info *out) {
  prop_entry *e = prop_find(p, sandbox);
  if (!e) return -ENOENT;
  info_of(e, out);
  return 0;
}

bool hg_lease_valid(const hg_lease_proposer *p, const char *sandbox, int64_t now_ms) {
  prop_entry *e = prop_find(p, sandbox);
  return e && e->state == HG_LEASE_HELD && now_ms < e->lease_until_ms;
}
