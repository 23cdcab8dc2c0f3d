/* swim: SWIM + Lifeguard membership as a deterministic state machine.
 *
 * Reading order: the profiles and the lifecycle, then hg_swim_tick and the
 * periodic work it runs (probe, gossip, push-pull, re-join, reaping), then
 * hg_swim_receive and the handlers of each message, then the three member
 * updates every path funnels into (alive, suspect, dead) with refutation,
 * then the suspicion timer, the broadcast queue, the member table, and the
 * small utilities at the bottom.
 *
 * Rules follow hashicorp/memberlist (state.go, suspicion.go, awareness.go)
 * and the Lifeguard paper; where this file differs it says so and why. All
 * input is SWIM data: an unknown id, an absurd incarnation or a message for
 * someone else is ignored or refuted, never trusted beyond the rules. */
#include "cluster/swim.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "cluster/seal.h"

#define SWIM_SEEDS_MAX 16
#define SWIM_RELAYS_MAX 64         /* indirect probes run for others at once */
#define SWIM_CONFIRM_MAX 8         /* bound on k (independent confirmations) */
#define SWIM_FANOUT_MAX 32         /* bound on gossip_nodes and indirect_checks */
#define SWIM_SEEN_USERS 4096       /* user broadcasts remembered, to deliver each once */
#define SWIM_QUEUE_MIN 4096        /* queue bound: max(this, 2 * members) */
#define SWIM_PUSH_PULL_SCALE_AT 32 /* memberlist's pushPullScaleThreshold */
#define SWIM_GOSSIP_DEAD_PROBES 30 /* gossip to the dead this many probe intervals */
#define SWIM_NACK_PERCENT 80       /* a relay nacks at 80% of the probe timeout */
#define SWIM_MISSES_MAX 16         /* items too big skipped before a packet is full */
#define SWIM_UDP_MIN 256
#define SWIM_NEVER INT64_MAX

/* ---- types ------------------------------------------------------------ */

/* A member is suspect from start_ms until deadline_ms, which moves from max
 * towards min as independent peers confirm (Lifeguard). */
typedef struct suspicion {
  int64_t start_ms, deadline_ms, min_ms, max_ms;
  unsigned k, n;
  uint64_t from[SWIM_CONFIRM_MAX + 1]; /* accuser and confirmers, by id hash */
  unsigned nfrom;
} suspicion;

typedef struct member {
  char id[HG_NODE_ID_MAX];
  char addr[HG_ADDR_MAX];
  uint64_t hash; /* of id */
  uint64_t incarnation;
  hg_member_state state;
  int64_t since_ms;
  uint8_t *meta;
  size_t meta_len;
  suspicion *susp;      /* while suspect */
  bool suspected_by_us; /* our probe failed on it: a refutation proves us wrong */
  struct bcast *queued; /* our queued update about it, if any */
} member;

/* A queued piggyback item; strings and data live in the same allocation. */
typedef struct bcast {
  member *owner; /* the member it is about (NULL: user item, or forgotten) */
  bool is_user;
  uint64_t key;   /* hash of the member id or the user key */
  uint64_t order; /* enqueue counter: higher is newer */
  unsigned transmits;
  size_t size; /* encoded bound */
  hg_member_state state;
  uint64_t incarnation;
  char *id, *addr, *from; /* user: id is the key */
  uint8_t *data;          /* member meta or user data */
  size_t len;
} bcast;

/* An indirect probe we run for a peer: its seq, our seq for the target. */
typedef struct relay {
  uint32_t local_seq, orig_seq;
  char requester[HG_ADDR_MAX];
  int64_t deadline_ms;
} relay;

typedef struct probe {
  bool active, indirect;
  uint32_t seq;
  char id[HG_NODE_ID_MAX];
  int64_t ack_by_ms;   /* no direct ack by then: ask k peers */
  int64_t deadline_ms; /* no ack at all by then: suspect */
  unsigned expected_nacks, nacks;
} probe;

struct hg_swim {
  hg_swim_config cfg;
  hg_swim_io io;
  uint64_t rng;
  uint32_t seq;
  unsigned awareness; /* Lifeguard local health, 0 .. awareness_max - 1 */
  bool left;
  hg_swim_stats stats;

  member **v; /* every member incl. us, in probe order */
  size_t n, cap, probe_idx;
  member **tab; /* open addressing on id hash, tabcap a power of two */
  size_t tabcap;
  member *self;
  hg_swim_member *view; /* hg_swim_member_get's answer */

  bcast **q; /* sorted by priority, highest last */
  size_t nq, qcap;
  uint64_t qorder;

  uint64_t *seen; /* ring of user broadcast hashes, allocated on first use */
  size_t seen_next;

  probe probe;
  relay relays[SWIM_RELAYS_MAX];
  size_t nrelays;

  char seeds[SWIM_SEEDS_MAX][HG_ADDR_MAX];
  size_t nseeds;

  int64_t next_probe_ms, next_gossip_ms, next_push_pull_ms, next_rejoin_ms;
  int64_t susp_next_ms, reap_at_ms;
};

/* ---- forward declarations -------------------------------------------- */

static void timers_start(hg_swim *s);
static void tick_relays(hg_swim *s, int64_t now);
static void tick_probe(hg_swim *s, int64_t now);
static void tick_suspicions(hg_swim *s, int64_t now);
static void tick_gossip(hg_swim *s, int64_t now);
static void tick_push_pull(hg_swim *s, int64_t now);
static void tick_rejoin(hg_swim *s, int64_t now);
static void tick_reap(hg_swim *s, int64_t now);
static void probe_start(hg_swim *s, int64_t now);
static void probe_indirect(hg_swim *s);
static void probe_done(hg_swim *s, bool acked);

static void on_ping(hg_swim *s, const hg_wire_msg *msg);
static void on_ping_req(hg_swim *s, const hg_wire_msg *msg);
static void on_ack(hg_swim *s, const hg_wire_msg *msg);
static void on_nack(hg_swim *s, const hg_wire_msg *msg);
static void apply_updates(hg_swim *s, const hg_wire_msg *msg);
static void on_user_item(hg_swim *s, const hg_wire_user *u);

static void alive_update(hg_swim *s, const hg_wire_member *u, bool gossip_new);
static void suspect_update(hg_swim *s, const hg_wire_member *u, const char *from);
static void dead_update(hg_swim *s, const hg_wire_member *u);
static void accused(hg_swim *s, uint64_t incarnation);
static void refute(hg_swim *s, uint64_t accused);
static void set_state(hg_swim *s, member *m, hg_member_state st);
static void notify(hg_swim *s, const member *m, hg_member_state old, bool is_new);

static void suspicion_start(hg_swim *s, member *m, const char *from);
static bool suspicion_confirm(hg_swim *s, member *m, const char *from);
static void suspicion_clear(member *m);
static int64_t suspicion_timeout(const suspicion *p);

static void send_msg(hg_swim *s, const char *addr, hg_wire_msg *m,
                     const hg_wire_member *first);
static void send_reply(hg_swim *s, const char *addr, hg_wire_type type, uint32_t seq);
static void queue_member(hg_swim *s, member *m, const char *from);
static void queue_item(hg_swim *s, bcast *b);
static void bcast_drop(bcast *b);
static void fill_piggyback(hg_swim *s, hg_wire_msg *m, size_t used);
static unsigned retransmit_limit(const hg_swim *s);

static member *member_find(const hg_swim *s, const char *id);
static member *member_add(hg_swim *s, const hg_wire_member *u);
static int member_set_meta(member *m, const uint8_t *meta, size_t len);
static void member_to_wire(const member *m, hg_member_state st, const char *from,
                           hg_wire_member *u);
static size_t k_random(hg_swim *s, member **out, size_t k, const member *skip,
                       bool alive_only);
static bool addr_is_alive(const hg_swim *s, const char *addr);

static uint64_t rnd(hg_swim *s);
static uint64_t hash_str(const char *str);
static uint64_t hash_bytes(uint64_t h, const void *data, size_t len);
static int64_t scaled(const hg_swim *s, unsigned ms);
static void awareness_add(hg_swim *s, int delta);
static void copy_str(char *dst, size_t cap, const char *src);

/* ---- profiles and lifecycle ------------------------------------------ */

int hg_swim_profile(hg_swim_config *cfg, const char *name) {
  if (!cfg || !name) return -EINVAL;
  bool local = strcmp(name, "local") == 0;
  if (!local && strcmp(name, "lan") != 0) return -EINVAL;
  /* memberlist DefaultLANConfig; lan departs from it below */
  cfg->probe_interval_ms = 1000;
  cfg->probe_timeout_ms = 500;
  cfg->indirect_checks = 3;
  cfg->suspicion_mult = 4;
  cfg->suspicion_max_mult = 6;
  cfg->retransmit_mult = 4;
  cfg->gossip_interval_ms = 200;
  cfg->gossip_nodes = 3;
  cfg->push_pull_interval_ms = 30000;
  cfg->rejoin_interval_ms = 30000;
  cfg->awareness_max = 8;
  cfg->dead_forget_ms = 5 * 60 * 1000;
  cfg->udp_max = HG_WIRE_UDP_MAX - HG_SEAL_OVERHEAD;
  if (local) {
    cfg->probe_interval_ms = 200;
    cfg->probe_timeout_ms = 100;
    cfg->gossip_interval_ms = 50;
    cfg->push_pull_interval_ms = 5000;
    cfg->rejoin_interval_ms = 2000;
    cfg->dead_forget_ms = 60 * 1000;
  } else {
    /* lan's one departure from memberlist: a 700 ms probe cycle. A death
     * is known everywhere after the wait for its first probe (exponential,
     * mean one interval, p99 4.6 intervals), that probe, the suspicion
     * floor (mult * log10 n * interval) and ~1 s of gossip. At n = 1000,
     * 1 s intervals give p99 ~17.5 s (bench_swim: p50 13.8 s, max of 64
     * crashes 17.3 s), over the 15 s target; 700 ms gives ~12.5 s (p50
     * 9.6-9.8 s, max 11.7-12.6 s). mult stays 4, so Lifeguard still wants
     * k = 2 confirmations: mult 3 alone leaves p99 ~14.7 s, and 800 ms with
     * mult 3 is as fast but declares ~35% more healthy nodes dead at 15%
     * loss. Cost: none dead in 600 s at 5% loss, but false deaths start
     * at 7.5% (memberlist: at 10%); idle 2841 -> 2916 B/s per node.
     * Candidates measured: tools/bench/README.md. */
    cfg->probe_interval_ms = 700;
    cfg->probe_timeout_ms = 350;
  }
  return 0;
}

static int config_valid(const hg_swim_config *c) {
  return c->id[0] && memchr(c->id, 0, sizeof(c->id)) &&
         memchr(c->addr, 0, sizeof(c->addr)) && c->probe_interval_ms > 0 &&
         c->probe_timeout_ms > 0 && c->probe_timeout_ms <= c->probe_interval_ms &&
         c->gossip_interval_ms > 0 && c->suspicion_mult > 0 &&
         c->suspicion_max_mult > 0 && c->retransmit_mult > 0 &&
         c->udp_max >= SWIM_UDP_MIN;
}

int hg_swim_new(const hg_swim_config *cfg, const hg_swim_io *io,
                uint64_t start_incarnation, hg_swim **out) {
  if (!cfg || !io || !out || !io->now_ms || !io->send || !io->push_pull) return -EINVAL;
  if (!config_valid(cfg)) return -EINVAL;
  hg_swim *s = calloc(1, sizeof(*s));
  if (!s) return -ENOMEM;
  s->cfg = *cfg;
  s->io = *io;
  if (s->cfg.awareness_max == 0) s->cfg.awareness_max = 1;
  if (s->cfg.indirect_checks > SWIM_FANOUT_MAX) s->cfg.indirect_checks = SWIM_FANOUT_MAX;
  if (s->cfg.gossip_nodes > SWIM_FANOUT_MAX) s->cfg.gossip_nodes = SWIM_FANOUT_MAX;
  s->rng = cfg->seed;
  s->seq = (uint32_t)rnd(s);
  s->view = malloc(sizeof(*s->view));
  hg_wire_member me = {.state = HG_MEMBER_ALIVE, .incarnation = start_incarnation};
  copy_str(me.id, sizeof(me.id), cfg->id);
  copy_str(me.addr, sizeof(me.addr), cfg->addr);
  s->self = s->view ? member_add(s, &me) : NULL;
  if (!s->self) {
    hg_swim_free(s);
    return -ENOMEM;
  }
  timers_start(s);
  queue_member(s, s->self, ""); /* as memberlist's setAlive: announce ourselves */
  *out = s;
  return 0;
}

/* Random phases, so nodes started together do not probe in lockstep. */
static void timers_start(hg_swim *s) {
  const hg_swim_config *c = &s->cfg;
  int64_t now = s->io.now_ms(s->io.ud);
  s->next_probe_ms = now + (int64_t)(rnd(s) % c->probe_interval_ms);
  s->next_gossip_ms = now + (int64_t)(rnd(s) % c->gossip_interval_ms);
  s->next_push_pull_ms = c->push_pull_interval_ms
                             ? now + (int64_t)(rnd(s) % c->push_pull_interval_ms)
                             : SWIM_NEVER;
  s->next_rejoin_ms = c->rejoin_interval_ms ? now + c->rejoin_interval_ms : SWIM_NEVER;
  s->susp_next_ms = s->reap_at_ms = SWIM_NEVER;
}

void hg_swim_free(hg_swim *s) {
  if (!s) return;
  for (size_t i = 0; i < s->n; i++) {
    free(s->v[i]->meta);
    free(s->v[i]->susp);
    free(s->v[i]);
  }
  for (size_t i = 0; i < s->nq; i++) free(s->q[i]);
  free(s->v);
  free(s->tab);
  free(s->q);
  free(s->seen);
  free(s->view);
  free(s);
}

int hg_swim_join(hg_swim *s, const char *const *seeds, size_t n) {
  if (!s || (n && !seeds)) return -EINVAL;
  if (n > SWIM_SEEDS_MAX) return -E2BIG;
  for (size_t i = 0; i < n; i++)
    if (!seeds[i] || !seeds[i][0] ||
        strnlen(seeds[i], HG_ADDR_MAX) == HG_ADDR_MAX)
      return -EINVAL;
  for (size_t i = 0; i < n; i++) copy_str(s->seeds[i], HG_ADDR_MAX, seeds[i]);
  s->nseeds = n;
  for (size_t i = 0; i < s->nseeds; i++)
    if (strcmp(s->seeds[i], s->cfg.addr) != 0)
      s->io.push_pull(s->io.ud, s->seeds[i], true);
  return 0;
}

void hg_swim_leave(hg_swim *s) {
  if (!s || s->left) return;
  s->left = true;
  s->probe.active = false;
  hg_member_state old = s->self->state;
  set_state(s, s->self, HG_MEMBER_LEFT);
  queue_member(s, s->self, s->cfg.id);
  notify(s, s->self, old, false);
}

int hg_swim_set_meta(hg_swim *s, const void *meta, size_t len) {
  if (!s || (len && !meta) || len > HG_WIRE_META_MAX) return -EINVAL;
  if (s->left) return -ESHUTDOWN;
  if (member_set_meta(s->self, meta, len) < 0) return -ENOMEM;
  if (s->self->incarnation < UINT64_MAX) s->self->incarnation++;
  queue_member(s, s->self, "");
  notify(s, s->self, s->self->state, false);
  return 0;
}

/* ---- tick: the periodic work ----------------------------------------- */

void hg_swim_tick(hg_swim *s) {
  if (!s) return;
  int64_t now = s->io.now_ms(s->io.ud);
  tick_relays(s, now);
  tick_probe(s, now);
  tick_suspicions(s, now);
  tick_gossip(s, now);
  tick_push_pull(s, now);
  tick_rejoin(s, now);
  tick_reap(s, now);
}

static int64_t min64(int64_t a, int64_t b) {
  return a < b ? a : b;
}

int64_t hg_swim_next_ms(const hg_swim *s) {
  if (!s) return SWIM_NEVER;
  int64_t t = min64(s->susp_next_ms, s->reap_at_ms);
  if (s->nq) t = min64(t, s->next_gossip_ms); /* nothing to gossip: no wake-up */
  for (size_t i = 0; i < s->nrelays; i++) t = min64(t, s->relays[i].deadline_ms);
  if (s->probe.active)
    t = min64(t, s->probe.indirect ? s->probe.deadline_ms : s->probe.ack_by_ms);
  if (s->left) return t;
  t = min64(t, s->next_probe_ms);
  t = min64(t, s->next_push_pull_ms);
  return min64(t, s->next_rejoin_ms);
}

/* Indirect probes we run for others: no ack in time is a nack, so the
 * requester learns the target, not it, is the problem (Lifeguard). */
static void tick_relays(hg_swim *s, int64_t now) {
  size_t j = 0;
  for (size_t i = 0; i < s->nrelays; i++) {
    relay *r = &s->relays[i];
    if (now < r->deadline_ms) {
      s->relays[j++] = *r;
      continue;
    }
    send_reply(s, r->requester, HG_WIRE_NACK, r->orig_seq);
  }
  s->nrelays = j;
}

static void tick_probe(hg_swim *s, int64_t now) {
  probe *p = &s->probe;
  if (p->active && !p->indirect && now >= p->ack_by_ms) {
    /* A late tick (we were paused) gives the relays their usual window
     * rather than accusing the target for our own slowness. */
    int64_t window = p->deadline_ms - p->ack_by_ms;
    probe_indirect(s);
    if (now >= p->deadline_ms) {
      p->deadline_ms = now + window;
      s->next_probe_ms = p->deadline_ms;
    }
  }
  if (p->active && now >= p->deadline_ms) probe_done(s, false);
  if (!s->left && !p->active && now >= s->next_probe_ms) probe_start(s, now);
}

static void tick_suspicions(hg_swim *s, int64_t now) {
  if (now < s->susp_next_ms) return;
  s->susp_next_ms = SWIM_NEVER;
  for (size_t i = 0; i < s->n; i++) {
    member *m = s->v[i];
    if (!m->susp) continue;
    if (now < m->susp->deadline_ms) {
      s->susp_next_ms = min64(s->susp_next_ms, m->susp->deadline_ms);
      continue;
    }
    hg_wire_member d;
    member_to_wire(m, HG_MEMBER_DEAD, s->cfg.id, &d);
    s->stats.deaths_declared++;
    dead_update(s, &d);
  }
}

/* Gossip goes to live and suspect members and, for a while, to the
 * recently dead (memberlist's GossipToTheDeadTime): a node wrongly
 * declared dead hears it and refutes. */
static void tick_gossip(hg_swim *s, int64_t now) {
  if (now < s->next_gossip_ms) return;
  s->next_gossip_ms = now + s->cfg.gossip_interval_ms;
  if (!s->nq) return;
  member *to[SWIM_FANOUT_MAX];
  size_t k = k_random(s, to, s->cfg.gossip_nodes, NULL, false);
  for (size_t i = 0; i < k && s->nq; i++) {
    hg_wire_msg m = {.type = HG_WIRE_GOSSIP};
    send_msg(s, to[i]->addr, &m, NULL);
  }
}

/* memberlist's pushPullScale: beyond 32 members the interval grows with
 * log2(n), so full-state exchanges stay a small share of the traffic. */
static int64_t push_pull_interval(const hg_swim *s) {
  int64_t ms = s->cfg.push_pull_interval_ms;
  if (s->n <= SWIM_PUSH_PULL_SCALE_AT) return ms;
  double mult = ceil(log2((double)s->n) - log2(SWIM_PUSH_PULL_SCALE_AT)) + 1.0;
  return (int64_t)mult * ms;
}

static void tick_push_pull(hg_swim *s, int64_t now) {
  if (s->left || now < s->next_push_pull_ms) return;
  s->next_push_pull_ms = now + push_pull_interval(s);
  member *to;
  if (k_random(s, &to, 1, NULL, true)) s->io.push_pull(s->io.ud, to->addr, false);
}

/* Re-join: push-pull (join) with every seed we do not see alive and with
 * one random dead member. Without it two halves that declared each other
 * dead during a long partition never talk again once it heals. */
static void tick_rejoin(hg_swim *s, int64_t now) {
  if (s->left || now < s->next_rejoin_ms) return;
  s->next_rejoin_ms = now + s->cfg.rejoin_interval_ms;
  for (size_t i = 0; i < s->nseeds; i++)
    if (strcmp(s->seeds[i], s->cfg.addr) != 0 && !addr_is_alive(s, s->seeds[i]))
      s->io.push_pull(s->io.ud, s->seeds[i], true);
  size_t ndead = 0;
  for (size_t i = 0; i < s->n; i++) ndead += s->v[i]->state == HG_MEMBER_DEAD;
  if (!ndead) return;
  size_t pick = rnd(s) % ndead;
  for (size_t i = 0; i < s->n; i++) {
    if (s->v[i]->state != HG_MEMBER_DEAD) continue;
    if (pick-- > 0) continue;
    if (s->v[i]->addr[0]) s->io.push_pull(s->io.ud, s->v[i]->addr, true);
    return;
  }
}

static bool forgettable(const hg_swim *s, const member *m, int64_t now) {
  return m != s->self && (m->state == HG_MEMBER_DEAD || m->state == HG_MEMBER_LEFT) &&
         now - m->since_ms >= (int64_t)s->cfg.dead_forget_ms;
}

static void table_rebuild(hg_swim *s);

/* Forgets members dead or left for dead_forget_ms (0: never). */
static void tick_reap(hg_swim *s, int64_t now) {
  if (now < s->reap_at_ms) return;
  s->reap_at_ms = SWIM_NEVER;
  size_t j = 0, idx = s->probe_idx;
  for (size_t i = 0; i < s->n; i++) {
    member *m = s->v[i];
    if (!forgettable(s, m, now)) {
      if (m->state == HG_MEMBER_DEAD || m->state == HG_MEMBER_LEFT)
        s->reap_at_ms = min64(s->reap_at_ms, m->since_ms + s->cfg.dead_forget_ms);
      s->v[j++] = m;
      continue;
    }
    if (i < s->probe_idx) idx--;
    if (m->queued) m->queued->owner = NULL;
    free(m->meta);
    free(m);
  }
  s->n = j;
  s->probe_idx = idx;
  table_rebuild(s);
}

/* ---- probing ---------------------------------------------------------- */

/* Random-order round robin: walk the member list, reshuffle at the end. */
static member *next_probe_target(hg_swim *s) {
  for (size_t checked = 0; checked <= s->n; checked++) {
    if (s->probe_idx >= s->n) {
      for (size_t i = s->n; i > 1; i--) {
        size_t j = rnd(s) % i;
        member *t = s->v[i - 1];
        s->v[i - 1] = s->v[j];
        s->v[j] = t;
      }
      s->probe_idx = 0;
    }
    member *m = s->v[s->probe_idx++];
    if (m != s->self && (m->state == HG_MEMBER_ALIVE || m->state == HG_MEMBER_SUSPECT))
      return m;
  }
  return NULL;
}

/* Lifeguard scales both the interval and the ack timeout by local health,
 * so a slow node probes less and waits longer before it accuses anyone
 * (memberlist scales only the interval). */
static void probe_start(hg_swim *s, int64_t now) {
  int64_t interval = scaled(s, s->cfg.probe_interval_ms);
  s->next_probe_ms = now + interval;
  member *t = next_probe_target(s);
  if (!t) return;
  probe *p = &s->probe;
  *p = (probe){.active = true, .seq = ++s->seq};
  copy_str(p->id, sizeof(p->id), t->id);
  p->ack_by_ms = now + scaled(s, s->cfg.probe_timeout_ms);
  p->deadline_ms = now + interval;
  hg_wire_msg m = {.type = HG_WIRE_PING, .seq = p->seq};
  copy_str(m.target, sizeof(m.target), t->id);
  s->stats.probes++;
  if (t->state != HG_MEMBER_SUSPECT) {
    send_msg(s, t->addr, &m, NULL);
    return;
  }
  /* A suspect hears it with the ping, so it can refute at once. */
  hg_wire_member accuse;
  member_to_wire(t, HG_MEMBER_SUSPECT, s->cfg.id, &accuse);
  send_msg(s, t->addr, &m, &accuse);
}

static void probe_indirect(hg_swim *s) {
  probe *p = &s->probe;
  p->indirect = true;
  member *t = member_find(s, p->id);
  if (!t) return;
  member *peers[SWIM_FANOUT_MAX];
  size_t k = k_random(s, peers, s->cfg.indirect_checks, t, true);
  for (size_t i = 0; i < k; i++) {
    hg_wire_msg m = {.type = HG_WIRE_PING_REQ, .seq = p->seq};
    copy_str(m.target, sizeof(m.target), t->id);
    copy_str(m.target_addr, sizeof(m.target_addr), t->addr);
    send_msg(s, peers[i]->addr, &m, NULL);
  }
  p->expected_nacks = (unsigned)k;
  s->stats.indirect_probes += k;
}

/* Lifeguard: a missing nack means the trouble may be ours, so health
 * worsens by the nacks we did not get (by 1 when nobody could relay). */
static void probe_done(hg_swim *s, bool acked) {
  probe *p = &s->probe;
  p->active = false;
  if (acked) {
    awareness_add(s, -1);
    return;
  }
  unsigned got = p->nacks < p->expected_nacks ? p->nacks : p->expected_nacks;
  awareness_add(s, p->expected_nacks ? (int)(p->expected_nacks - got) : 1);
  member *t = member_find(s, p->id);
  if (!t || (t->state != HG_MEMBER_ALIVE && t->state != HG_MEMBER_SUSPECT)) return;
  s->stats.suspects_raised++;
  t->suspected_by_us = true;
  bool was_alive = t->state == HG_MEMBER_ALIVE;
  hg_wire_member u;
  member_to_wire(t, HG_MEMBER_SUSPECT, s->cfg.id, &u);
  suspect_update(s, &u, s->cfg.id);
  if (was_alive && t->state == HG_MEMBER_SUSPECT) {
    /* Lifeguard: tell the suspect directly (the new suspect item is the
     * freshest in the queue, so it rides first). */
    hg_wire_msg m = {.type = HG_WIRE_GOSSIP};
    send_msg(s, t->addr, &m, NULL);
  }
}

/* ---- receiving ------------------------------------------------------- */

void hg_swim_receive(hg_swim *s, const hg_wire_msg *msg) {
  if (!s || !msg || msg->type == HG_WIRE_PUSH_PULL) return;
  s->stats.msgs_received++;
  /* Updates first: a ping that accuses us is answered by an ack that
   * already carries our refutation. */
  apply_updates(s, msg);
  switch (msg->type) {
    case HG_WIRE_PING:
      on_ping(s, msg);
      break;
    case HG_WIRE_PING_REQ:
      on_ping_req(s, msg);
      break;
    case HG_WIRE_ACK:
      on_ack(s, msg);
      break;
    case HG_WIRE_NACK:
      on_nack(s, msg);
      break;
    default:
      break;
  }
}

/* A ping names the id its sender expects at this address; one meant for a
 * previous owner of the address is not ours to answer. */
static void on_ping(hg_swim *s, const hg_wire_msg *msg) {
  if (msg->target[0] && strcmp(msg->target, s->cfg.id) != 0) return;
  send_reply(s, msg->from_addr, HG_WIRE_ACK, msg->seq);
}

static void on_ping_req(hg_swim *s, const hg_wire_msg *msg) {
  if (!msg->from_addr[0] || !msg->target_addr[0]) return;
  if (strcmp(msg->target, s->cfg.id) == 0) {
    send_reply(s, msg->from_addr, HG_WIRE_ACK, msg->seq);
    return;
  }
  if (s->nrelays == SWIM_RELAYS_MAX) return; /* busy: the requester sees a missing nack */
  relay *r = &s->relays[s->nrelays++];
  r->local_seq = ++s->seq;
  r->orig_seq = msg->seq;
  copy_str(r->requester, sizeof(r->requester), msg->from_addr);
  /* Nack at 80% of the timeout so it reaches the requester before its
   * own deadline (as the Lifeguard paper proposes). */
  int64_t wait = scaled(s, s->cfg.probe_timeout_ms) * SWIM_NACK_PERCENT / 100;
  r->deadline_ms = s->io.now_ms(s->io.ud) + wait;
  hg_wire_msg m = {.type = HG_WIRE_PING, .seq = r->local_seq};
  copy_str(m.target, sizeof(m.target), msg->target);
  send_msg(s, msg->target_addr, &m, NULL);
}

static void on_ack(hg_swim *s, const hg_wire_msg *msg) {
  if (s->probe.active && msg->seq == s->probe.seq) {
    s->stats.acks++;
    probe_done(s, true);
    return;
  }
  for (size_t i = 0; i < s->nrelays; i++) {
    if (s->relays[i].local_seq != msg->seq) continue;
    send_reply(s, s->relays[i].requester, HG_WIRE_ACK, s->relays[i].orig_seq);
    s->relays[i] = s->relays[--s->nrelays];
    return;
  }
}

static void on_nack(hg_swim *s, const hg_wire_msg *msg) {
  if (!s->probe.active || !s->probe.indirect || msg->seq != s->probe.seq) return;
  s->stats.nacks++;
  s->probe.nacks++;
}

static void apply_updates(hg_swim *s, const hg_wire_msg *msg) {
  if (msg->nmembers && !msg->members) return;
  if (msg->nusers && !msg->users) return;
  for (size_t i = 0; i < msg->nmembers; i++) {
    const hg_wire_member *u = &msg->members[i];
    s->stats.updates_received++;
    switch (u->state) {
      case HG_MEMBER_ALIVE:
        alive_update(s, u, true);
        break;
      case HG_MEMBER_SUSPECT:
        suspect_update(s, u, u->from[0] ? u->from : msg->from);
        break;
      case HG_MEMBER_DEAD:
      case HG_MEMBER_LEFT:
        dead_update(s, u);
        break;
      default:
        break;
    }
  }
  for (size_t i = 0; i < msg->nusers; i++) on_user_item(s, &msg->users[i]);
}

static uint64_t user_hash(const hg_wire_user *u) {
  return hash_bytes(hash_str(u->key), u->data, u->len);
}

/* Returns true the first time this copy (key + data) is seen. */
static bool user_first_seen(hg_swim *s, uint64_t h) {
  if (!s->seen) {
    s->seen = calloc(SWIM_SEEN_USERS, sizeof(*s->seen));
    if (!s->seen) return false;
  }
  for (size_t i = 0; i < SWIM_SEEN_USERS; i++)
    if (s->seen[i] == h) return false;
  s->seen[s->seen_next] = h;
  s->seen_next = (s->seen_next + 1) % SWIM_SEEN_USERS;
  return true;
}

static void queue_user(hg_swim *s, const hg_wire_user *u);

static void on_user_item(hg_swim *s, const hg_wire_user *u) {
  if (!u->key[0] || u->len > HG_WIRE_USER_MAX) return;
  s->stats.updates_received++;
  if (!user_first_seen(s, user_hash(u))) return;
  if (s->io.on_user) s->io.on_user(s->io.ud, u);
  queue_user(s, u);
}

void hg_swim_broadcast_user(hg_swim *s, const hg_wire_user *u) {
  if (!s || !u || !u->key[0] || !memchr(u->key, 0, sizeof(u->key)) ||
      u->len > HG_WIRE_USER_MAX)
    return;
  user_first_seen(s, user_hash(u));
  queue_user(s, u);
}

/* ---- push-pull ------------------------------------------------------- */

int hg_swim_local_state(hg_swim *s, bool join, hg_wire_msg *out) {
  if (!s || !out) return -EINVAL;
  hg_wire_msg m = {.type = HG_WIRE_PUSH_PULL, .join = join};
  copy_str(m.from, sizeof(m.from), s->cfg.id);
  copy_str(m.from_addr, sizeof(m.from_addr), s->cfg.addr);
  hg_wire_member *u = malloc(sizeof(*u));
  if (!u) return -ENOMEM;
  for (size_t i = 0; i < s->n; i++) {
    member_to_wire(s->v[i], s->v[i]->state, "", u);
    if (hg_wire_add_member(&m, u) < 0) {
      free(u);
      hg_wire_msg_free(&m);
      return -ENOMEM;
    }
  }
  free(u);
  *out = m;
  return 0;
}

static bool knows_nobody(const hg_swim *s) {
  for (size_t i = 0; i < s->n; i++)
    if (s->v[i] != s->self && s->v[i]->state != HG_MEMBER_LEFT) return false;
  return true;
}

/* As memberlist's mergeState: a peer's "dead" becomes our suspicion, so a
 * stale full state cannot kill a live member outright; the member refutes
 * or the timer runs out. "left" is taken as it is.
 *
 * Unlike memberlist, a node that knows nobody yet (joining, restarted)
 * does not re-gossip the members it learns here, except the peer itself:
 * they are news only to it, and re-gossiping them would cost every join
 * (n - 1) * retransmit_limit broadcasts across the cluster. */
void hg_swim_merge_state(hg_swim *s, const hg_wire_msg *in) {
  if (!s || !in || (in->nmembers && !in->members)) return;
  const char *from = in->from[0] ? in->from : s->cfg.id;
  bool quiet = knows_nobody(s);
  for (size_t i = 0; i < in->nmembers; i++) {
    const hg_wire_member *u = &in->members[i];
    switch (u->state) {
      case HG_MEMBER_ALIVE:
        alive_update(s, u, !quiet || strcmp(u->id, in->from) == 0);
        break;
      case HG_MEMBER_LEFT:
        dead_update(s, u);
        break;
      case HG_MEMBER_SUSPECT:
      case HG_MEMBER_DEAD:
        suspect_update(s, u, from);
        break;
      default:
        break;
    }
  }
}

/* ---- member updates --------------------------------------------------- */

static bool same_meta(const member *m, const hg_wire_member *u) {
  return m->meta_len == u->meta_len &&
         (!u->meta_len || !memcmp(m->meta, u->meta, u->meta_len));
}

/* News about ourselves: anything but our own current alive is refuted
 * (an older life of ours after a restart, or a forgery). */
static void alive_about_self(hg_swim *s, const hg_wire_member *u) {
  member *me = s->self;
  if (s->left || u->incarnation < me->incarnation) return;
  bool same_addr = !u->addr[0] || strcmp(u->addr, me->addr) == 0;
  if (u->incarnation == me->incarnation && same_meta(me, u) && same_addr) return;
  refute(s, u->incarnation);
}

static void alive_update(hg_swim *s, const hg_wire_member *u, bool gossip_new) {
  /* the id becomes a member everything else names: the grammar, once */
  if (!hg_node_id_valid(u->id) || u->meta_len > HG_WIRE_META_MAX) return;
  member *m = member_find(s, u->id);
  if (m == s->self) {
    alive_about_self(s, u);
    return;
  }
  if (!m) {
    if (!u->addr[0] || !(m = member_add(s, u))) return;
    if (gossip_new) queue_member(s, m, "");
    notify(s, m, HG_MEMBER_DEAD, true);
    return;
  }
  /* Only a higher incarnation changes a known member, also its address:
   * that is how a restarted node at a new address takes its id back. */
  if (u->incarnation <= m->incarnation) return;
  hg_member_state old = m->state;
  bool changed = old != HG_MEMBER_ALIVE || !same_meta(m, u) ||
                 (u->addr[0] && strcmp(u->addr, m->addr) != 0);
  if (m->suspected_by_us && old == HG_MEMBER_SUSPECT) s->stats.false_suspicions++;
  m->suspected_by_us = false;
  suspicion_clear(m);
  m->incarnation = u->incarnation;
  if (u->addr[0]) copy_str(m->addr, sizeof(m->addr), u->addr);
  if (member_set_meta(m, u->meta, u->meta_len) < 0) changed = true;
  set_state(s, m, HG_MEMBER_ALIVE);
  queue_member(s, m, "");
  if (changed) notify(s, m, old, false);
}

static void suspect_update(hg_swim *s, const hg_wire_member *u, const char *from) {
  member *m = u->id[0] ? member_find(s, u->id) : NULL;
  if (m && m == s->self) {
    accused(s, u->incarnation);
    return;
  }
  if (!m || u->incarnation < m->incarnation) return;
  if (m->state == HG_MEMBER_SUSPECT && u->incarnation == m->incarnation) {
    /* Re-gossip only news: a confirmation from a new peer. */
    if (suspicion_confirm(s, m, from)) queue_member(s, m, from);
    return;
  }
  if (m->state != HG_MEMBER_ALIVE && m->state != HG_MEMBER_SUSPECT) return;
  hg_member_state old = m->state;
  suspicion_clear(m);
  m->incarnation = u->incarnation;
  set_state(s, m, HG_MEMBER_SUSPECT);
  suspicion_start(s, m, from);
  queue_member(s, m, from);
  if (old != HG_MEMBER_SUSPECT) notify(s, m, old, false);
}

static void dead_update(hg_swim *s, const hg_wire_member *u) {
  member *m = u->id[0] ? member_find(s, u->id) : NULL;
  if (m && m == s->self) {
    accused(s, u->incarnation);
    return;
  }
  if (!m || u->incarnation < m->incarnation) return;
  bool gone = m->state == HG_MEMBER_DEAD || m->state == HG_MEMBER_LEFT;
  /* Already gone: only "dead" becoming "left" is news. */
  if (gone && !(m->state == HG_MEMBER_DEAD && u->state == HG_MEMBER_LEFT)) {
    m->incarnation = u->incarnation;
    return;
  }
  hg_member_state old = m->state;
  suspicion_clear(m);
  m->suspected_by_us = false;
  m->incarnation = u->incarnation;
  set_state(s, m, u->state);
  queue_member(s, m, u->from[0] ? u->from : s->cfg.id);
  notify(s, m, old, false);
}

/* Suspect or dead about us. At our incarnation or above: refute. Below
 * it, the accuser missed our refutation (with few members it is sent only
 * a few times, and acks may have used them up): queue our alive again, so
 * the ack to the accuser's ping already carries it. memberlist ignores
 * these and lets the accuser declare us dead first. */
static void accused(hg_swim *s, uint64_t incarnation) {
  if (s->left) return;
  if (incarnation >= s->self->incarnation)
    refute(s, incarnation);
  else
    queue_member(s, s->self, "");
}

/* Beat the accusation: incarnation above both ours and the accused one
 * (saturating: an absurd incarnation cannot wrap us to 0). */
static void refute(hg_swim *s, uint64_t accused) {
  member *me = s->self;
  uint64_t inc = accused > me->incarnation ? accused : me->incarnation;
  me->incarnation = inc < UINT64_MAX ? inc + 1 : inc;
  s->stats.refutes++;
  awareness_add(s, 1);
  queue_member(s, me, "");
}

static void set_state(hg_swim *s, member *m, hg_member_state st) {
  if (m->state == st) return;
  int64_t now = s->io.now_ms(s->io.ud);
  m->state = st;
  m->since_ms = now;
  if ((st == HG_MEMBER_DEAD || st == HG_MEMBER_LEFT) && m != s->self)
    s->reap_at_ms = min64(s->reap_at_ms, now + s->cfg.dead_forget_ms);
}

static void notify(hg_swim *s, const member *m, hg_member_state old, bool is_new) {
  if (!s->io.on_member) return;
  hg_swim_member *v = s->view;
  copy_str(v->id, sizeof(v->id), m->id);
  copy_str(v->addr, sizeof(v->addr), m->addr);
  v->incarnation = m->incarnation;
  v->state = m->state;
  v->since_ms = m->since_ms;
  v->meta_len = m->meta_len;
  if (m->meta_len) memcpy(v->meta, m->meta, m->meta_len);
  s->io.on_member(s->io.ud, v, old, is_new);
}

/* ---- suspicion timer (memberlist suspicion.go, Lifeguard) -------------- */

/* min = mult * max(1, log10 n) * probe interval, max = max_mult * min; k
 * = mult - 2 confirmations expected, none when too few members could give
 * them (n - 2 < k: not us, not the suspect). */
static void suspicion_start(hg_swim *s, member *m, const char *from) {
  suspicion *p = calloc(1, sizeof(*p));
  if (!p) return; /* no timer: the member stays suspect until news comes */
  unsigned k = s->cfg.suspicion_mult > 2 ? s->cfg.suspicion_mult - 2 : 0;
  if (k > SWIM_CONFIRM_MAX) k = SWIM_CONFIRM_MAX;
  if (s->n < 2 || s->n - 2 < k) k = 0;
  double scale = fmax(1.0, log10((double)s->n));
  p->min_ms = (int64_t)(s->cfg.suspicion_mult * scale * s->cfg.probe_interval_ms);
  p->max_ms = (int64_t)s->cfg.suspicion_max_mult * p->min_ms;
  p->k = k;
  p->start_ms = s->io.now_ms(s->io.ud);
  p->deadline_ms = p->start_ms + (k ? p->max_ms : p->min_ms);
  p->from[p->nfrom++] = hash_str(from);
  m->susp = p;
  s->susp_next_ms = min64(s->susp_next_ms, p->deadline_ms);
}

/* True when from is a new independent confirmation (the timer shrinks). */
static bool suspicion_confirm(hg_swim *s, member *m, const char *from) {
  suspicion *p = m->susp;
  if (!p || p->n >= p->k) return false;
  uint64_t h = hash_str(from);
  for (unsigned i = 0; i < p->nfrom; i++)
    if (p->from[i] == h) return false;
  p->from[p->nfrom++] = h;
  p->n++;
  p->deadline_ms = p->start_ms + suspicion_timeout(p);
  s->susp_next_ms = min64(s->susp_next_ms, p->deadline_ms);
  return true;
}

/* max - (max - min) * log(C + 1) / log(k + 1), never below min. */
static int64_t suspicion_timeout(const suspicion *p) {
  double frac = log(p->n + 1.0) / log(p->k + 1.0);
  double ms = (double)p->max_ms - frac * (double)(p->max_ms - p->min_ms);
  int64_t t = (int64_t)floor(ms);
  return t < p->min_ms ? p->min_ms : t;
}

static void suspicion_clear(member *m) {
  free(m->susp);
  m->susp = NULL;
}

/* ---- sending and the broadcast queue ---------------------------------- */

/* One datagram: the primary message in m, then as many queued items as
 * fit in udp_max, fewest transmitted first. Pure gossip with nothing to
 * carry is not sent. */
static void send_msg(hg_swim *s, const char *addr, hg_wire_msg *m,
                     const hg_wire_member *first) {
  if (!addr[0]) return;
  copy_str(m->from, sizeof(m->from), s->cfg.id);
  copy_str(m->from_addr, sizeof(m->from_addr), s->cfg.addr);
  size_t used = hg_wire_header_size(m);
  if (first && hg_wire_add_member(m, first) == 0) used += hg_wire_member_size(first);
  fill_piggyback(s, m, used);
  if (m->type != HG_WIRE_GOSSIP || m->nmembers + m->nusers) {
    s->io.send(s->io.ud, addr, m);
    s->stats.msgs_sent++;
    s->stats.updates_sent += m->nmembers + m->nusers;
  }
  hg_wire_msg_free(m);
}

static void send_reply(hg_swim *s, const char *addr, hg_wire_type type, uint32_t seq) {
  hg_wire_msg m = {.type = type, .seq = seq};
  send_msg(s, addr, &m, NULL);
}

/* retransmit_mult * ceil(log10(n + 1)) */
static unsigned retransmit_limit(const hg_swim *s) {
  return s->cfg.retransmit_mult * (unsigned)ceil(log10((double)s->n + 1.0));
}

/* Priority order: fewer transmits first, then newer first. The array
 * keeps the highest priority at the end. */
static bool before(const bcast *a, const bcast *b) {
  return a->transmits > b->transmits ||
         (a->transmits == b->transmits && a->order < b->order);
}

static void queue_remove(hg_swim *s, size_t i) {
  memmove(&s->q[i], &s->q[i + 1], (s->nq - i - 1) * sizeof(*s->q));
  s->nq--;
}

/* Where b is, or would go, in the sorted queue. */
static size_t queue_pos(const hg_swim *s, const bcast *b) {
  size_t lo = 0, hi = s->nq;
  while (lo < hi) {
    size_t mid = (lo + hi) / 2;
    if (before(s->q[mid], b))
      lo = mid + 1;
    else
      hi = mid;
  }
  return lo;
}

static void queue_insert(hg_swim *s, bcast *b) {
  size_t at = queue_pos(s, b);
  memmove(&s->q[at + 1], &s->q[at], (s->nq - at) * sizeof(*s->q));
  s->q[at] = b;
  s->nq++;
}

static void bcast_drop(bcast *b) {
  if (b->owner) b->owner->queued = NULL;
  free(b);
}

/* The queued item b replaces: found through its member, or for user
 * items by key (those queues stay short: directory entries). */
static size_t queue_find_old(const hg_swim *s, const bcast *b) {
  if (b->owner) return b->owner->queued ? queue_pos(s, b->owner->queued) : s->nq;
  for (size_t i = 0; i < s->nq; i++) {
    const bcast *o = s->q[i];
    if (o->is_user && o->key == b->key && strcmp(o->id, b->id) == 0) return i;
  }
  return s->nq;
}

/* A newer item about the same member (or user key) replaces the queued
 * one; past the bound the least useful (most transmitted, oldest) go. */
static void queue_item(hg_swim *s, bcast *b) {
  size_t old = queue_find_old(s, b);
  if (old < s->nq) {
    bcast_drop(s->q[old]);
    queue_remove(s, old);
  }
  size_t bound = s->n * 2 > SWIM_QUEUE_MIN ? s->n * 2 : SWIM_QUEUE_MIN;
  while (s->nq >= bound) {
    bcast_drop(s->q[0]);
    queue_remove(s, 0);
  }
  if (s->nq == s->qcap) {
    size_t cap = s->qcap ? s->qcap * 2 : 64;
    bcast **q = realloc(s->q, cap * sizeof(*q));
    if (!q) {
      free(b);
      return;
    }
    s->q = q;
    s->qcap = cap;
  }
  b->order = ++s->qorder;
  queue_insert(s, b);
  if (b->owner) b->owner->queued = b;
}

static bcast *bcast_new(const char *id, const char *addr, const char *from,
                        const void *data, size_t len) {
  size_t lid = strlen(id) + 1, laddr = strlen(addr) + 1, lfrom = strlen(from) + 1;
  bcast *b = calloc(1, sizeof(*b) + lid + laddr + lfrom + len);
  if (!b) return NULL;
  b->id = (char *)(b + 1);
  b->addr = b->id + lid;
  b->from = b->addr + laddr;
  b->data = (uint8_t *)b->from + lfrom;
  memcpy(b->id, id, lid);
  memcpy(b->addr, addr, laddr);
  memcpy(b->from, from, lfrom);
  if (len) memcpy(b->data, data, len);
  b->len = len;
  return b;
}

static void bcast_to_member(const bcast *b, hg_wire_member *u);

/* Queues m's current state; from names the accuser of suspect/dead. */
static void queue_member(hg_swim *s, member *m, const char *from) {
  bool accuse = m->state == HG_MEMBER_SUSPECT || m->state == HG_MEMBER_DEAD;
  bcast *b = bcast_new(m->id, m->addr, accuse ? from : "", m->meta,
                       m->state == HG_MEMBER_ALIVE ? m->meta_len : 0);
  if (!b) return;
  b->owner = m;
  b->key = m->hash;
  b->state = m->state;
  b->incarnation = m->incarnation;
  hg_wire_member *u = malloc(sizeof(*u));
  if (!u) {
    free(b);
    return;
  }
  bcast_to_member(b, u);
  b->size = hg_wire_member_size(u);
  free(u);
  queue_item(s, b);
}

static void queue_user(hg_swim *s, const hg_wire_user *u) {
  bcast *b = bcast_new(u->key, "", "", u->data, u->len);
  if (!b) return;
  b->is_user = true;
  b->key = hash_str(u->key);
  b->size = hg_wire_user_size(u);
  queue_item(s, b);
}

static void bcast_to_member(const bcast *b, hg_wire_member *u) {
  u->state = b->state;
  u->incarnation = b->incarnation;
  copy_str(u->id, sizeof(u->id), b->id);
  copy_str(u->addr, sizeof(u->addr), b->addr);
  copy_str(u->from, sizeof(u->from), b->from);
  u->meta_len = b->len;
  if (b->len) memcpy(u->meta, b->data, b->len);
}

static int bcast_add(const bcast *b, hg_wire_msg *m, hg_wire_member *scratch_m,
                     hg_wire_user *scratch_u) {
  if (!b->is_user) {
    bcast_to_member(b, scratch_m);
    return hg_wire_add_member(m, scratch_m);
  }
  copy_str(scratch_u->key, sizeof(scratch_u->key), b->id);
  memcpy(scratch_u->data, b->data, b->len);
  scratch_u->len = b->len;
  return hg_wire_add_user(m, scratch_u);
}

static void queue_sent(hg_swim *s, bcast **sent, size_t nsent, unsigned limit);

/* Takes items from the top of the queue while they fit in udp_max (a few
 * too big are skipped for smaller ones below them). */
static void fill_piggyback(hg_swim *s, hg_wire_msg *m, size_t used) {
  unsigned limit = retransmit_limit(s);
  bcast *sent[HG_WIRE_UDP_ITEMS];
  size_t nsent = 0, misses = 0;
  hg_wire_member *sm = NULL;
  hg_wire_user *su = NULL;
  for (size_t i = s->nq; i-- > 0 && m->nmembers + m->nusers < HG_WIRE_UDP_ITEMS;) {
    bcast *b = s->q[i];
    if (b->transmits >= limit) break; /* everything below is older still */
    if (used + b->size > s->cfg.udp_max) {
      if (++misses > SWIM_MISSES_MAX) break;
      continue;
    }
    if (!sm && !(sm = malloc(sizeof(*sm)))) break;
    if (!su && !(su = malloc(sizeof(*su)))) break;
    if (bcast_add(b, m, sm, su) < 0) break;
    used += b->size;
    sent[nsent++] = b;
    queue_remove(s, i);
  }
  free(sm);
  free(su);
  queue_sent(s, sent, nsent, limit);
}

/* Sent items go back one transmit older, or out at the limit (as do any
 * left over from when the limit was higher, n having shrunk). */
static void queue_sent(hg_swim *s, bcast **sent, size_t nsent, unsigned limit) {
  for (size_t i = 0; i < nsent; i++) {
    if (++sent[i]->transmits >= limit)
      bcast_drop(sent[i]);
    else
      queue_insert(s, sent[i]);
  }
  size_t stale = 0;
  while (stale < s->nq && s->q[stale]->transmits >= limit) bcast_drop(s->q[stale++]);
  if (stale) {
    memmove(s->q, s->q + stale, (s->nq - stale) * sizeof(*s->q));
    s->nq -= stale;
  }
}

/* ---- the member table ------------------------------------------------- */

static member *member_find(const hg_swim *s, const char *id) {
  if (!s->tabcap) return NULL;
  uint64_t h = hash_str(id);
  for (size_t i = h & (s->tabcap - 1);; i = (i + 1) & (s->tabcap - 1)) {
    member *m = s->tab[i];
    if (!m) return NULL;
    if (m->hash == h && strcmp(m->id, id) == 0) return m;
  }
}

static void table_put(member **tab, size_t cap, member *m) {
  size_t i = m->hash & (cap - 1);
  while (tab[i]) i = (i + 1) & (cap - 1);
  tab[i] = m;
}

/* A table for want members (load under 1/2) holding the current ones. */
static int table_resize(hg_swim *s, size_t want) {
  size_t cap = 16;
  while (cap < want * 2 + 2) cap *= 2;
  member **tab = calloc(cap, sizeof(*tab));
  if (!tab) return -ENOMEM;
  for (size_t i = 0; i < s->n; i++) table_put(tab, cap, s->v[i]);
  free(s->tab);
  s->tab = tab;
  s->tabcap = cap;
  return 0;
}

/* After members were dropped: smaller, or the same one refilled. */
static void table_rebuild(hg_swim *s) {
  if (table_resize(s, s->n) == 0) return;
  memset(s->tab, 0, s->tabcap * sizeof(*s->tab));
  for (size_t i = 0; i < s->n; i++) table_put(s->tab, s->tabcap, s->v[i]);
}

static int member_grow(hg_swim *s) {
  if (s->n == s->cap) {
    size_t cap = s->cap ? s->cap * 2 : 16;
    member **v = realloc(s->v, cap * sizeof(*v));
    if (!v) return -ENOMEM;
    s->v = v;
    s->cap = cap;
  }
  if ((s->n + 1) * 2 + 2 > s->tabcap) return table_resize(s, s->n + 1);
  return 0;
}

/* New members go to a random place in the probe order (memberlist). */
static member *member_add(hg_swim *s, const hg_wire_member *u) {
  member *m = calloc(1, sizeof(*m));
  if (!m || member_grow(s) < 0 || member_set_meta(m, u->meta, u->meta_len) < 0) {
    free(m);
    return NULL;
  }
  copy_str(m->id, sizeof(m->id), u->id);
  copy_str(m->addr, sizeof(m->addr), u->addr);
  m->hash = hash_str(m->id);
  m->incarnation = u->incarnation;
  m->state = HG_MEMBER_ALIVE;
  m->since_ms = s->io.now_ms(s->io.ud);
  size_t at = rnd(s) % (s->n + 1);
  s->v[s->n++] = m;
  member *t = s->v[at];
  s->v[at] = m;
  s->v[s->n - 1] = t;
  table_put(s->tab, s->tabcap, m);
  return m;
}

static int member_set_meta(member *m, const uint8_t *meta, size_t len) {
  if (len == m->meta_len && (!len || memcmp(meta, m->meta, len) == 0)) return 0;
  uint8_t *p = NULL;
  if (len && !(p = malloc(len))) return -ENOMEM;
  if (len) memcpy(p, meta, len);
  free(m->meta);
  m->meta = p;
  m->meta_len = len;
  return 0;
}

static void member_to_wire(const member *m, hg_member_state st, const char *from,
                           hg_wire_member *u) {
  u->state = st;
  u->incarnation = m->incarnation;
  copy_str(u->id, sizeof(u->id), m->id);
  copy_str(u->addr, sizeof(u->addr), m->addr);
  copy_str(u->from, sizeof(u->from), from);
  u->meta_len = st == HG_MEMBER_ALIVE || st == HG_MEMBER_LEFT ? m->meta_len : 0;
  if (u->meta_len) memcpy(u->meta, m->meta, u->meta_len);
}

static bool eligible(const hg_swim *s, const member *m, const member *skip,
                     bool alive_only, int64_t now) {
  if (m == s->self || m == skip || !m->addr[0]) return false;
  if (m->state == HG_MEMBER_ALIVE) return true;
  if (alive_only) return false;
  if (m->state == HG_MEMBER_SUSPECT) return true;
  int64_t dead_window = (int64_t)SWIM_GOSSIP_DEAD_PROBES * s->cfg.probe_interval_ms;
  return m->state == HG_MEMBER_DEAD && now - m->since_ms <= dead_window;
}

/* Up to k distinct random members passing the filter, as memberlist's
 * kRandomNodes: 3n random draws at most. */
static size_t k_random(hg_swim *s, member **out, size_t k, const member *skip,
                       bool alive_only) {
  int64_t now = s->io.now_ms(s->io.ud);
  size_t got = 0;
  for (size_t tries = 0; got < k && tries < 3 * s->n; tries++) {
    member *m = s->v[rnd(s) % s->n];
    if (!eligible(s, m, skip, alive_only, now)) continue;
    bool dup = false;
    for (size_t i = 0; i < got && !dup; i++) dup = out[i] == m;
    if (!dup) out[got++] = m;
  }
  return got;
}

static bool addr_is_alive(const hg_swim *s, const char *addr) {
  for (size_t i = 0; i < s->n; i++)
    if (s->v[i] != s->self && s->v[i]->state == HG_MEMBER_ALIVE &&
        strcmp(s->v[i]->addr, addr) == 0)
      return true;
  return false;
}

/* ---- queries ---------------------------------------------------------- */

static void member_public(const member *m, hg_swim_member *out) {
  copy_str(out->id, sizeof(out->id), m->id);
  copy_str(out->addr, sizeof(out->addr), m->addr);
  out->incarnation = m->incarnation;
  out->state = m->state;
  out->since_ms = m->since_ms;
  out->meta_len = m->meta_len;
  if (m->meta_len) memcpy(out->meta, m->meta, m->meta_len);
}

static int by_id(const void *a, const void *b) {
  return strcmp((*(member *const *)a)->id, (*(member *const *)b)->id);
}

size_t hg_swim_members(const hg_swim *s, hg_swim_member *out, size_t cap) {
  if (!s) return 0;
  size_t take = cap < s->n ? cap : s->n;
  if (!take || !out) return s->n;
  member **sorted = malloc(s->n * sizeof(*sorted));
  if (!sorted) return 0;
  memcpy(sorted, s->v, s->n * sizeof(*sorted));
  qsort(sorted, s->n, sizeof(*sorted), by_id);
  for (size_t i = 0; i < take; i++) member_public(sorted[i], &out[i]);
  free(sorted);
  return s->n;
}

const hg_swim_member *hg_swim_member_get(const hg_swim *s, const char *id) {
  member *m = s && id ? member_find(s, id) : NULL;
  if (!m) return NULL;
  member_public(m, s->view);
  return s->view;
}

size_t hg_swim_alive_count(const hg_swim *s) {
  size_t n = 0;
  for (size_t i = 0; s && i < s->n; i++) n += s->v[i]->state == HG_MEMBER_ALIVE;
  return n;
}

unsigned hg_swim_health(const hg_swim *s) {
  return s ? s->awareness : 0;
}

uint64_t hg_swim_incarnation(const hg_swim *s) {
  return s ? s->self->incarnation : 0;
}

void hg_swim_get_stats(const hg_swim *s, hg_swim_stats *out) {
  if (s && out) *out = s->stats;
}

/* ---- utilities -------------------------------------------------------- */

/* splitmix64: tiny, seedable, good enough for picking peers. */
static uint64_t rnd(hg_swim *s) {
  uint64_t z = (s->rng += 0x9e3779b97f4a7c15ull);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  return z ^ (z >> 31);
}

static uint64_t hash_bytes(uint64_t h, const void *data, size_t len) {
  const uint8_t *p = data;
  for (size_t i = 0; i < len; i++) h = (h ^ p[i]) * 0x100000001b3ull;
  return h;
}

/* FNV-1a */
static uint64_t hash_str(const char *str) {
  return hash_bytes(0xcbf29ce484222325ull, str, strlen(str));
}

/* Lifeguard: timeouts grow with local health, x (score + 1). */
static int64_t scaled(const hg_swim *s, unsigned ms) {
  return (int64_t)ms * (s->awareness + 1);
}

static void awareness_add(hg_swim *s, int delta) {
  int v = (int)s->awareness + delta;
  int top = (int)s->cfg.awareness_max - 1;
  s->awareness = (unsigned)(v < 0 ? 0 : v > top ? top : v);
}

static void copy_str(char *dst, size_t cap, const char *src) {
  size_t n = strnlen(src, cap - 1);
  memcpy(dst, src, n);
  dst[n] = 0;
}
