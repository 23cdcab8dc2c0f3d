/* swim_sim: a deterministic network of hg_swim instances (see swim_sim.h). */
#include "swim_sim.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cluster/seal.h"
#include "node/core/buf.h"

#define SIM_PORT 7946
#define SIM_SEEDS_MAX 8

typedef enum ev_kind { EV_TICK, EV_DELIVER, EV_PUSH_PULL } ev_kind;

typedef struct event {
  int64_t t;
  uint64_t seq;
  ev_kind kind;
  size_t node;   /* tick, deliver: the receiver; push-pull: the initiator */
  size_t peer;   /* deliver: the sender; push-pull: the other end */
  unsigned life; /* node's life when queued: a restart voids it */
  unsigned peer_life;
  bool join;
  uint8_t *data;
  size_t len;
} event;

typedef struct sim_node {
  hg_sim *sim;
  size_t idx;
  hg_swim *swim;
  char id[HG_NODE_ID_MAX];
  char addr[HG_ADDR_MAX];
  unsigned life, port;
  bool up, paused, left;
  int64_t tick_at;
  unsigned group;
  uint64_t bytes;
  size_t seeds[SIM_SEEDS_MAX];
  size_t nseeds;
  event *held; /* datagrams that arrived while paused */
  size_t nheld, heldcap;
} sim_node;

struct hg_sim {
  hg_sim_config cfg;
  hg_swim_config swim_cfg;
  sim_node *nodes;
  int64_t now;
  uint64_t rng, seq, trace;
  event *heap;
  size_t nheap, heapcap;
  float *link_loss; /* n x n, allocated on first use */
  hg_buf buf;
  hg_sim_stats stats;
  hg_sim_member_fn on_member;
  void *member_ud;
  hg_sim_user_fn on_user;
  void *user_ud;
};

static void node_schedule(hg_sim *s, sim_node *nd);
static int node_start(hg_sim *s, sim_node *nd, uint64_t start_incarnation);
static void run_event(hg_sim *s, event *ev);
static int heap_push(hg_sim *s, event ev);
static event heap_pop(hg_sim *s);
static uint64_t sim_rnd(hg_sim *s);
static double sim_unit(hg_sim *s);
static void trace_mix(hg_sim *s, const void *data, size_t len);

/* ---- lifecycle -------------------------------------------------------- */

int hg_sim_new(const hg_sim_config *cfg, hg_sim **out) {
  if (!cfg || !out || !cfg->n) return -EINVAL;
  hg_sim *s = calloc(1, sizeof(*s));
  if (!s) return -ENOMEM;
  s->cfg = *cfg;
  if (!s->cfg.profile) s->cfg.profile = "local";
  if (!s->cfg.delay_min_ms && !s->cfg.delay_max_ms) {
    s->cfg.delay_min_ms = 1;
    s->cfg.delay_max_ms = 5;
  }
  s->rng = cfg->seed;
  s->trace = 0xcbf29ce484222325ull;
  hg_buf_init(&s->buf, HG_WIRE_TCP_MAX);
  int rc = hg_swim_profile(&s->swim_cfg, s->cfg.profile);
  s->nodes = calloc(cfg->n, sizeof(*s->nodes));
  if (rc < 0 || !s->nodes) {
    hg_sim_free(s);
    return rc < 0 ? rc : -ENOMEM;
  }
  for (size_t i = 0; i < cfg->n; i++) {
    sim_node *nd = &s->nodes[i];
    nd->sim = s;
    nd->idx = i;
    nd->port = SIM_PORT;
    snprintf(nd->id, sizeof(nd->id), "node-%04zu", i);
    if ((rc = node_start(s, nd, 0)) < 0) {
      hg_sim_free(s);
      return rc;
    }
  }
  *out = s;
  return 0;
}

static void held_clear(sim_node *nd) {
  for (size_t i = 0; i < nd->nheld; i++) free(nd->held[i].data);
  nd->nheld = 0;
}

void hg_sim_free(hg_sim *s) {
  if (!s) return;
  for (size_t i = 0; s->nodes && i < s->cfg.n; i++) {
    hg_swim_free(s->nodes[i].swim);
    held_clear(&s->nodes[i]);
    free(s->nodes[i].held);
  }
  for (size_t i = 0; i < s->nheap; i++) free(s->heap[i].data);
  free(s->heap);
  free(s->nodes);
  free(s->link_loss);
  hg_buf_free(&s->buf);
  free(s);
}

/* ---- the swim io callbacks --------------------------------------------- */

static int64_t io_now(void *ud) {
  return ((sim_node *)ud)->sim->now;
}

/* "node-0007:7946" -> 7 if node 7 listens on that port now, else -1 */
static long addr_node(const hg_sim *s, const char *addr) {
  size_t i;
  unsigned port;
  if (sscanf(addr, "node-%zu:%u", &i, &port) != 2 || i >= s->cfg.n) return -1;
  return s->nodes[i].port == port ? (long)i : -1;
}

static bool reachable(const hg_sim *s, const sim_node *a, const sim_node *b) {
  return a->up && b->up && a->group == b->group;
}

static double link_loss(const hg_sim *s, size_t from, size_t to) {
  if (!s->link_loss) return s->cfg.loss;
  float p = s->link_loss[from * s->cfg.n + to];
  return p >= 0 ? p : s->cfg.loss;
}

static void io_send(void *ud, const char *addr, const hg_wire_msg *msg) {
  sim_node *from = ud;
  hg_sim *s = from->sim;
  if (hg_wire_encode(msg, &s->buf) < 0) {
    s->stats.codec_errors++;
    return;
  }
  s->stats.datagrams++;
  s->stats.oversize += s->buf.len > s->swim_cfg.udp_max;
  uint64_t bytes = s->buf.len + HG_SEAL_OVERHEAD;
  from->bytes += bytes;
  s->stats.bytes += bytes;
  long to = addr_node(s, addr);
  if (to < 0 || !reachable(s, from, &s->nodes[to]) ||
      sim_unit(s) < link_loss(s, from->idx, to)) {
    s->stats.dropped++;
    return;
  }
  unsigned span = s->cfg.delay_max_ms - s->cfg.delay_min_ms + 1;
  event ev = {.t = s->now + s->cfg.delay_min_ms + (int64_t)(sim_rnd(s) % span),
              .kind = EV_DELIVER,
              .node = (size_t)to,
              .peer = from->idx,
              .life = s->nodes[to].life,
              .len = s->buf.len};
  if (!(ev.data = malloc(ev.len)) || heap_push(s, ev) < 0) {
    free(ev.data);
    return;
  }
  memcpy(ev.data, s->buf.data, ev.len);
}

/* Push-pull takes one round trip: the exchange happens after the longest
 * datagram delay, twice (and never inside the swim call that asked). */
static void io_push_pull(void *ud, const char *addr, bool join) {
  sim_node *from = ud;
  hg_sim *s = from->sim;
  long to = addr_node(s, addr);
  if (to < 0) return;
  event ev = {.t = s->now + 2 * (int64_t)s->cfg.delay_max_ms,
              .kind = EV_PUSH_PULL,
              .node = from->idx,
              .peer = (size_t)to,
              .life = from->life,
              .peer_life = s->nodes[to].life,
              .join = join};
  heap_push(s, ev);
}

static bool gone(hg_member_state st) {
  return st == HG_MEMBER_DEAD || st == HG_MEMBER_LEFT;
}

/* A running, not-left member marked dead is a false positive; the first
 * observer to do so starts an episode. */
static void count_false_death(hg_sim *s, size_t observer, const hg_swim_member *m,
                              hg_member_state old) {
  if (m->state != HG_MEMBER_DEAD || gone(old)) return;
  int t = hg_sim_index(s, m->id);
  if (t < 0) return;
  sim_node *target = &s->nodes[t];
  if (!target->up || target->left) return;
  s->stats.false_dead_views++;
  for (size_t o = 0; o < s->cfg.n; o++) {
    if (o == observer || o == (size_t)t || !s->nodes[o].up) continue;
    const hg_swim_member *v = hg_swim_member_get(s->nodes[o].swim, m->id);
    if (v && v->state == HG_MEMBER_DEAD) return;
  }
  s->stats.false_deaths++;
}

static void io_member(void *ud, const hg_swim_member *m, hg_member_state old,
                      bool is_new) {
  sim_node *nd = ud;
  hg_sim *s = nd->sim;
  uint64_t rec[4] = {(uint64_t)s->now, nd->idx, m->state, m->incarnation};
  trace_mix(s, rec, sizeof(rec));
  trace_mix(s, m->id, strlen(m->id));
  count_false_death(s, nd->idx, m, old);
  if (s->on_member) s->on_member(s->member_ud, nd->idx, m, old, is_new);
}

static void io_user(void *ud, const hg_wire_user *u) {
  sim_node *nd = ud;
  nd->sim->stats.user_deliveries++;
  if (nd->sim->on_user) nd->sim->on_user(nd->sim->user_ud, nd->idx, u);
}

/* ---- nodes ------------------------------------------------------------ */

static void node_meta(const hg_sim *s, const sim_node *nd, uint8_t *meta) {
  for (size_t i = 0; i < s->cfg.meta_len; i++) meta[i] = (uint8_t)(nd->idx * 31 + i);
}

/* A fresh hg_swim for nd: seeded from the run's seed, its index and life. */
static int node_start(hg_sim *s, sim_node *nd, uint64_t start_incarnation) {
  hg_swim_config c = s->swim_cfg;
  snprintf(nd->addr, sizeof(nd->addr), "node-%04zu:%u", nd->idx, nd->port);
  memcpy(c.id, nd->id, sizeof(c.id));
  memcpy(c.addr, nd->addr, sizeof(c.addr));
  c.seed = s->cfg.seed * 0x9e3779b97f4a7c15ull + nd->idx * 1000003ull + nd->life;
  hg_swim_io io = {.ud = nd,
                   .now_ms = io_now,
                   .send = io_send,
                   .push_pull = io_push_pull,
                   .on_member = io_member,
                   .on_user = io_user};
  int rc = hg_swim_new(&c, &io, start_incarnation, &nd->swim);
  if (rc < 0) return rc;
  if (s->cfg.meta_len) {
    uint8_t meta[HG_WIRE_META_MAX];
    node_meta(s, nd, meta);
    rc = hg_swim_set_meta(
        nd->swim, meta,
        s->cfg.meta_len > HG_WIRE_META_MAX ? HG_WIRE_META_MAX : s->cfg.meta_len);
    if (rc < 0) return rc;
  }
  nd->up = true;
  nd->paused = nd->left = false;
  nd->tick_at = INT64_MAX;
  node_schedule(s, nd);
  return 0;
}

/* One tick event at the node's next deadline; a later one is left stale. */
static void node_schedule(hg_sim *s, sim_node *nd) {
  if (!nd->up || nd->paused) return;
  int64_t t = hg_swim_next_ms(nd->swim);
  if (t <= s->now) t = s->now;
  if (t >= nd->tick_at) return;
  nd->tick_at = t;
  heap_push(s, (event){.t = t, .kind = EV_TICK, .node = nd->idx, .life = nd->life});
}

static void node_receive(hg_sim *s, sim_node *nd, const event *ev) {
  hg_wire_msg msg;
  if (hg_wire_decode(ev->data, ev->len, HG_WIRE_UDP_ITEMS, &msg) < 0) {
    s->stats.codec_errors++;
    return;
  }
  uint64_t rec[4] = {(uint64_t)s->now, ev->peer, nd->idx, ev->len};
  trace_mix(s, rec, sizeof(rec));
  hg_swim_receive(nd->swim, &msg);
  hg_wire_msg_free(&msg);
  node_schedule(s, nd);
}

/* ---- events ----------------------------------------------------------- */

static void run_tick(hg_sim *s, sim_node *nd, const event *ev) {
  if (ev->t != nd->tick_at || ev->life != nd->life || !nd->up || nd->paused) return;
  nd->tick_at = INT64_MAX;
  hg_swim_tick(nd->swim);
  int64_t t = hg_swim_next_ms(nd->swim);
  if (t <= s->now) { /* a tick must make progress; never spin at one time */
    nd->tick_at = s->now + 1;
    heap_push(
        s, (event){.t = s->now + 1, .kind = EV_TICK, .node = nd->idx, .life = nd->life});
    return;
  }
  node_schedule(s, nd);
}

static void run_deliver(hg_sim *s, sim_node *nd, event *ev) {
  if (!nd->up || ev->life != nd->life || nd->group != s->nodes[ev->peer].group) {
    s->stats.dropped++;
    return;
  }
  if (nd->paused) {
    if (nd->nheld == nd->heldcap) {
      size_t cap = nd->heldcap ? nd->heldcap * 2 : 16;
      event *h = realloc(nd->held, cap * sizeof(*h));
      if (!h) return;
      nd->held = h;
      nd->heldcap = cap;
    }
    nd->held[nd->nheld++] = *ev;
    ev->data = NULL; /* now the held list's */
    return;
  }
  node_receive(s, nd, ev);
}

static uint64_t state_bytes(hg_sim *s, const hg_wire_msg *m) {
  if (hg_wire_encode(m, &s->buf) < 0) {
    s->stats.codec_errors++;
    return 0;
  }
  return s->buf.len;
}

/* Both ends send their state as it was, then each merges the other's. */
static void run_push_pull(hg_sim *s, const event *ev) {
  sim_node *a = &s->nodes[ev->node], *b = &s->nodes[ev->peer];
  if (ev->life != a->life || ev->peer_life != b->life || a->paused || b->paused ||
      !reachable(s, a, b))
    return;
  hg_wire_msg sa, sb;
  if (hg_swim_local_state(a->swim, ev->join, &sa) < 0) return;
  if (hg_swim_local_state(b->swim, false, &sb) < 0) {
    hg_wire_msg_free(&sa);
    return;
  }
  uint64_t ba = state_bytes(s, &sa), bb = state_bytes(s, &sb);
  a->bytes += ba;
  b->bytes += bb;
  s->stats.bytes += ba + bb;
  s->stats.push_pulls++;
  uint64_t rec[4] = {(uint64_t)s->now, a->idx, b->idx, ba + bb};
  trace_mix(s, rec, sizeof(rec));
  hg_swim_merge_state(a->swim, &sb);
  hg_swim_merge_state(b->swim, &sa);
  hg_wire_msg_free(&sa);
  hg_wire_msg_free(&sb);
  node_schedule(s, a);
  node_schedule(s, b);
}

static void run_event(hg_sim *s, event *ev) {
  sim_node *nd = &s->nodes[ev->node];
  switch (ev->kind) {
    case EV_TICK:
      run_tick(s, nd, ev);
      break;
    case EV_DELIVER:
      run_deliver(s, nd, ev);
      break;
    case EV_PUSH_PULL:
      run_push_pull(s, ev);
      break;
  }
  free(ev->data);
}

void hg_sim_run_until(hg_sim *s, int64_t t_ms) {
  while (s->nheap && s->heap[0].t <= t_ms) {
    event ev = heap_pop(s);
    s->now = ev.t;
    run_event(s, &ev);
  }
  if (t_ms > s->now) s->now = t_ms;
}

void hg_sim_run_for(hg_sim *s, int64_t ms) {
  hg_sim_run_until(s, s->now + ms);
}

int64_t hg_sim_run_until_pred(hg_sim *s, hg_sim_pred pred, void *arg, int64_t step_ms,
                              int64_t max_ms) {
  int64_t end = s->now + max_ms;
  for (;;) {
    if (pred(s, arg)) return s->now;
    if (s->now >= end) return -1;
    hg_sim_run_until(s, s->now + step_ms < end ? s->now + step_ms : end);
  }
}

/* ---- membership calls and faults --------------------------------------- */

int hg_sim_join(hg_sim *s, size_t i, const size_t *seeds, size_t nseeds) {
  if (i >= s->cfg.n || nseeds > SIM_SEEDS_MAX) return -EINVAL;
  sim_node *nd = &s->nodes[i];
  const char *addrs[SIM_SEEDS_MAX];
  for (size_t k = 0; k < nseeds; k++) {
    if (seeds[k] >= s->cfg.n) return -EINVAL;
    nd->seeds[k] = seeds[k];
    addrs[k] = s->nodes[seeds[k]].addr;
  }
  nd->nseeds = nseeds;
  int rc = hg_swim_join(nd->swim, addrs, nseeds);
  node_schedule(s, nd);
  return rc;
}

void hg_sim_join_all(hg_sim *s, size_t seed, int64_t spread_ms) {
  int64_t start = s->now;
  int64_t *at = calloc(s->cfg.n, sizeof(*at));
  if (!at) return;
  for (size_t i = 0; i < s->cfg.n; i++)
    at[i] = start + (spread_ms > 0 ? (int64_t)(sim_rnd(s) % (uint64_t)spread_ms) : 0);
  /* join in time order, running the network in between */
  for (int64_t t = start; t <= start + spread_ms; t++) {
    hg_sim_run_until(s, t);
    for (size_t i = 0; i < s->cfg.n; i++)
      if (i != seed && at[i] == t) hg_sim_join(s, i, &seed, 1);
    if (spread_ms <= 0) break;
  }
  free(at);
}

int hg_sim_bootstrap(hg_sim *s) {
  hg_wire_msg all = {.type = HG_WIRE_PUSH_PULL, .from = "bootstrap"};
  hg_wire_member *u = calloc(1, sizeof(*u));
  int rc = u ? 0 : -ENOMEM;
  for (size_t i = 0; i < s->cfg.n && rc == 0; i++) {
    const hg_swim_member *m = hg_swim_member_get(s->nodes[i].swim, s->nodes[i].id);
    *u = (hg_wire_member){
        .state = m->state, .incarnation = m->incarnation, .meta_len = m->meta_len};
    memcpy(u->id, m->id, sizeof(u->id));
    memcpy(u->addr, m->addr, sizeof(u->addr));
    memcpy(u->meta, m->meta, m->meta_len);
    rc = hg_wire_add_member(&all, u);
  }
  for (size_t i = 0; i < s->cfg.n && rc == 0; i++) {
    if (!s->nodes[i].up) continue;
    hg_swim_merge_state(s->nodes[i].swim, &all);
    node_schedule(s, &s->nodes[i]);
  }
  free(u);
  hg_wire_msg_free(&all);
  return rc;
}

void hg_sim_set_loss(hg_sim *s, double p) {
  s->cfg.loss = p;
}

void hg_sim_set_link_loss(hg_sim *s, size_t from, size_t to, double p) {
  size_t n = s->cfg.n;
  if (from >= n || to >= n) return;
  if (!s->link_loss) {
    if (!(s->link_loss = malloc(n * n * sizeof(*s->link_loss)))) return;
    for (size_t i = 0; i < n * n; i++) s->link_loss[i] = -1;
  }
  s->link_loss[from * n + to] = (float)p;
}

void hg_sim_set_delay(hg_sim *s, unsigned min_ms, unsigned max_ms) {
  s->cfg.delay_min_ms = min_ms;
  s->cfg.delay_max_ms = max_ms < min_ms ? min_ms : max_ms;
}

void hg_sim_partition(hg_sim *s, const unsigned *group) {
  for (size_t i = 0; i < s->cfg.n; i++) s->nodes[i].group = group ? group[i] : 0;
}

void hg_sim_crash(hg_sim *s, size_t i) {
  if (i >= s->cfg.n) return;
  s->nodes[i].up = false;
  s->nodes[i].paused = false;
  s->nodes[i].life++;
  held_clear(&s->nodes[i]);
}

void hg_sim_pause(hg_sim *s, size_t i) {
  if (i < s->cfg.n && s->nodes[i].up) s->nodes[i].paused = true;
}

/* Held datagrams first, as a resumed process drains its socket before
 * its timers run. */
void hg_sim_resume(hg_sim *s, size_t i) {
  if (i >= s->cfg.n || !s->nodes[i].paused) return;
  sim_node *nd = &s->nodes[i];
  nd->paused = false;
  nd->tick_at = INT64_MAX;
  for (size_t k = 0; k < nd->nheld; k++) node_receive(s, nd, &nd->held[k]);
  held_clear(nd);
  node_schedule(s, nd);
}

int hg_sim_restart(hg_sim *s, size_t i, uint64_t start_incarnation, bool new_addr) {
  if (i >= s->cfg.n) return -EINVAL;
  sim_node *nd = &s->nodes[i];
  if (nd->up) hg_sim_crash(s, i);
  hg_swim_free(nd->swim);
  nd->swim = NULL;
  nd->life++;
  if (new_addr) nd->port++;
  int rc = node_start(s, nd, start_incarnation);
  if (rc < 0) return rc;
  size_t seeds[SIM_SEEDS_MAX], n = 0;
  for (size_t k = 0; k < nd->nseeds; k++)
    if (nd->seeds[k] != i) seeds[n++] = nd->seeds[k];
  return n ? hg_sim_join(s, i, seeds, n) : 0;
}

void hg_sim_leave(hg_sim *s, size_t i) {
  if (i >= s->cfg.n || !s->nodes[i].up) return;
  s->nodes[i].left = true;
  hg_swim_leave(s->nodes[i].swim);
  node_schedule(s, &s->nodes[i]);
}

/* ---- queries ---------------------------------------------------------- */

size_t hg_sim_size(const hg_sim *s) {
  return s->cfg.n;
}
int64_t hg_sim_now(const hg_sim *s) {
  return s->now;
}
hg_swim *hg_sim_swim(hg_sim *s, size_t i) {
  return i < s->cfg.n ? s->nodes[i].swim : NULL;
}
const char *hg_sim_id(const hg_sim *s, size_t i) {
  return s->nodes[i].id;
}
const char *hg_sim_addr(const hg_sim *s, size_t i) {
  return s->nodes[i].addr;
}
bool hg_sim_up(const hg_sim *s, size_t i) {
  return i < s->cfg.n && s->nodes[i].up;
}

int hg_sim_index(const hg_sim *s, const char *id) {
  size_t i;
  if (sscanf(id, "node-%zu", &i) != 1 || i >= s->cfg.n || strcmp(s->nodes[i].id, id) != 0)
    return -1;
  return (int)i;
}

const hg_swim_member *hg_sim_view(hg_sim *s, size_t observer, size_t target) {
  if (observer >= s->cfg.n || target >= s->cfg.n) return NULL;
  return hg_swim_member_get(s->nodes[observer].swim, s->nodes[target].id);
}

size_t hg_sim_count_seeing(hg_sim *s, size_t target, hg_member_state st) {
  size_t n = 0;
  for (size_t o = 0; o < s->cfg.n; o++) {
    if (o == target || !s->nodes[o].up) continue;
    const hg_swim_member *v = hg_sim_view(s, o, target);
    n += v && v->state == st;
  }
  return n;
}

static bool view_ok(hg_sim *s, size_t o, size_t t) {
  const hg_swim_member *v = hg_sim_view(s, o, t);
  const sim_node *nd = &s->nodes[t];
  if (nd->up && !nd->left) return v && v->state == HG_MEMBER_ALIVE;
  return !v || gone(v->state);
}

bool hg_sim_converged(hg_sim *s) {
  for (size_t o = 0; o < s->cfg.n; o++) {
    if (!s->nodes[o].up || s->nodes[o].left) continue;
    for (size_t t = 0; t < s->cfg.n; t++)
      if (t != o && !view_ok(s, o, t)) return false;
  }
  return true;
}

bool hg_sim_alive_counts_match(hg_sim *s) {
  size_t want = 0;
  for (size_t i = 0; i < s->cfg.n; i++) want += s->nodes[i].up && !s->nodes[i].left;
  for (size_t i = 0; i < s->cfg.n; i++)
    if (s->nodes[i].up && !s->nodes[i].left &&
        hg_swim_alive_count(s->nodes[i].swim) != want)
      return false;
  return true;
}

uint64_t hg_sim_bytes_sent(const hg_sim *s, size_t i) {
  return s->nodes[i].bytes;
}
void hg_sim_get_stats(const hg_sim *s, hg_sim_stats *out) {
  *out = s->stats;
}
uint64_t hg_sim_trace_hash(const hg_sim *s) {
  return s->trace;
}

void hg_sim_reset_counters(hg_sim *s) {
  memset(&s->stats, 0, sizeof(s->stats));
  for (size_t i = 0; i < s->cfg.n; i++) s->nodes[i].bytes = 0;
}

void hg_sim_on_member(hg_sim *s, hg_sim_member_fn fn, void *ud) {
  s->on_member = fn;
  s->member_ud = ud;
}

void hg_sim_on_user(hg_sim *s, hg_sim_user_fn fn, void *ud) {
  s->on_user = fn;
  s->user_ud = ud;
}

/* ---- the event heap, randomness, trace -------------------------------- */

static bool ev_less(const event *a, const event *b) {
  return a->t < b->t || (a->t == b->t && a->seq < b->seq);
}

static int heap_push(hg_sim *s, event ev) {
  if (s->nheap == s->heapcap) {
    size_t cap = s->heapcap ? s->heapcap * 2 : 1024;
    event *h = realloc(s->heap, cap * sizeof(*h));
    if (!h) return -ENOMEM;
    s->heap = h;
    s->heapcap = cap;
  }
  ev.seq = s->seq++;
  size_t i = s->nheap++;
  while (i > 0 && ev_less(&ev, &s->heap[(i - 1) / 2])) {
    s->heap[i] = s->heap[(i - 1) / 2];
    i = (i - 1) / 2;
  }
  s->heap[i] = ev;
  return 0;
}

static event heap_pop(hg_sim *s) {
  event top = s->heap[0], last = s->heap[--s->nheap];
  size_t i = 0;
  for (;;) {
    size_t c = 2 * i + 1;
    if (c >= s->nheap) break;
    if (c + 1 < s->nheap && ev_less(&s->heap[c + 1], &s->heap[c])) c++;
    if (!ev_less(&s->heap[c], &last)) break;
    s->heap[i] = s->heap[c];
    i = c;
  }
  if (s->nheap) s->heap[i] = last;
  return top;
}

static uint64_t sim_rnd(hg_sim *s) {
  uint64_t z = (s->rng += 0x9e3779b97f4a7c15ull);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  return z ^ (z >> 31);
}

static double sim_unit(hg_sim *s) {
  return (double)(sim_rnd(s) >> 11) / 9007199254740992.0;
}

static void trace_mix(hg_sim *s, const void *data, size_t len) {
  const uint8_t *p = data;
  for (size_t i = 0; i < len; i++) s->trace = (s->trace ^ p[i]) * 0x100000001b3ull;
}
