/* swim: the membership protocol, driven through the simulated network
 * (tests/sim/swim_sim.c) with fixed seeds, plus hostile input fed to one
 * instance directly. Every scenario is deterministic: a failure reproduces
 * with the same seed. */
#include <errno.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "cluster/seal.h"
#include "cluster/swim.h"
#include "swim_sim.h"

/* local profile: probe 200 ms, suspicion min 4 * 200 ms = 800 ms (n < 10),
 * max 6 * min = 4.8 s */
#define LOCAL_PROBE_MS 200
#define LOCAL_SUSP_MIN_MS 800
#define LOCAL_SUSP_MAX_MS 4800

/* HG_TEST_SEED=k shifts every scenario's seed, for soak runs. */
static uint64_t seed_offset(void) {
  const char *e = getenv("HG_TEST_SEED");
  return e ? strtoull(e, NULL, 10) * 1000 : 0;
}

static hg_sim *sim_up(size_t n, uint64_t seed, size_t meta_len) {
  hg_sim_config c = {
      .n = n, .seed = seed + seed_offset(), .profile = "local", .meta_len = meta_len};
  hg_sim *s = NULL;
  assert_int_equal(hg_sim_new(&c, &s), 0);
  hg_sim_join_all(s, 0, 100);
  return s;
}

static bool converged(hg_sim *s, void *arg) {
  return hg_sim_converged(s);
}

static void assert_converges(hg_sim *s, int64_t within_ms) {
  assert_true(hg_sim_run_until_pred(s, converged, NULL, 50, within_ms) >= 0);
}

static void assert_clean(hg_sim *s) {
  hg_sim_stats st;
  hg_sim_get_stats(s, &st);
  assert_int_equal(st.codec_errors, 0);
  assert_int_equal(st.oversize, 0);
}

/* ---- profiles --------------------------------------------------------- */

/* The two profiles hangard's --gossip-profile names load, each with room
 * for the seal in a datagram; any other name is refused. (Their numbers
 * are the code's to choose; what they give is measured by
 * tools/bench/bench_swim and tools/bench/bench_cluster.sh.) */
static void known_profiles_load_and_unknown_is_refused(void **state) {
  hg_swim_config c = {0};
  assert_int_equal(hg_swim_profile(&c, "lan"), 0);
  assert_int_equal(c.udp_max, HG_WIRE_UDP_MAX - HG_SEAL_OVERHEAD);
  assert_int_equal(hg_swim_profile(&c, "local"), 0);
  assert_int_equal(c.udp_max, HG_WIRE_UDP_MAX - HG_SEAL_OVERHEAD);
  assert_int_equal(hg_swim_profile(&c, "wan"), -EINVAL);
}

/* ---- scenarios ---------------------------------------------------------- */

static void five_nodes_converge(void **state) {
  hg_sim *s = sim_up(5, 1, 32);
  assert_converges(s, 5000);
  for (size_t i = 0; i < 5; i++)
    assert_int_equal(hg_swim_alive_count(hg_sim_swim(s, i)), 5);
  hg_sim_run_for(s, 10000); /* and it stays so: no false suspicion on a clean network */
  assert_true(hg_sim_converged(s));
  hg_sim_stats st;
  hg_sim_get_stats(s, &st);
  assert_int_equal(st.false_deaths, 0);
  for (size_t i = 0; i < 5; i++) {
    hg_swim_stats ss;
    hg_swim_get_stats(hg_sim_swim(s, i), &ss);
    assert_int_equal(ss.suspects_raised, 0);
    assert_true(ss.probes > 0 &&
                ss.acks + 1 >= ss.probes); /* the last may be in flight */
    assert_int_equal(hg_swim_health(hg_sim_swim(s, i)), 0);
  }
  assert_clean(s);
  hg_sim_free(s);
}

/* When anyone first suspected, and first declared dead, one member. */
typedef struct watch {
  hg_sim *sim;
  const char *id;
  int64_t first_suspect, first_dead;
} watch;

static void watch_member(void *ud, size_t observer, const hg_swim_member *m,
                         hg_member_state old, bool is_new) {
  watch *w = ud;
  if (strcmp(m->id, w->id) != 0) return;
  int64_t now = hg_sim_now(w->sim);
  if (m->state == HG_MEMBER_SUSPECT && w->first_suspect < 0) w->first_suspect = now;
  if (m->state == HG_MEMBER_DEAD && w->first_dead < 0) w->first_dead = now;
}

typedef struct seen_as {
  size_t target;
  hg_member_state state;
  size_t count;
} seen_as;

static bool all_see(hg_sim *s, void *arg) {
  seen_as *w = arg;
  return hg_sim_count_seeing(s, w->target, w->state) == w->count;
}

/* Detection: first probe within a round (n - 1 probes), the probe itself,
 * the suspicion (never below min, at most max), then gossip. */
static void crash_detected_by_all_within_bound(void **state) {
  hg_sim *s = sim_up(5, 2, 32);
  assert_converges(s, 5000);
  watch w = {.sim = s, .id = hg_sim_id(s, 3), .first_suspect = -1, .first_dead = -1};
  hg_sim_on_member(s, watch_member, &w);
  int64_t crashed = hg_sim_now(s);
  hg_sim_crash(s, 3);
  seen_as dead = {3, HG_MEMBER_DEAD, 4};
  int64_t bound = 5 * LOCAL_PROBE_MS + LOCAL_PROBE_MS + LOCAL_SUSP_MAX_MS + 1000;
  int64_t t = hg_sim_run_until_pred(s, all_see, &dead, 10, bound);
  assert_true(t >= 0);
  assert_true(w.first_suspect >= crashed);
  /* the suspicion ran at least its minimum before anyone declared death */
  assert_true(w.first_dead - w.first_suspect >= LOCAL_SUSP_MIN_MS);
  hg_sim_stats st;
  hg_sim_get_stats(s, &st);
  assert_int_equal(st.false_deaths, 0);
  /* the survivors are still one healthy cluster */
  hg_sim_run_for(s, 3000);
  assert_true(hg_sim_converged(s));
  assert_clean(s);
  hg_sim_free(s);
}

/* SIGSTOP shorter than the minimum suspicion: suspected, never dead, and
 * the node refutes once it runs again. Three nodes in turn, so that at
 * least one is probed during its pause whatever the probe order. */
static void pause_shorter_than_suspicion_refutes(void **state) {
  hg_sim *s = sim_up(5, 3, 32);
  assert_converges(s, 5000);
  size_t refuted = 0;
  for (size_t p = 2; p <= 4; p++) {
    uint64_t inc = hg_swim_incarnation(hg_sim_swim(s, p));
    watch w = {.sim = s, .id = hg_sim_id(s, p), .first_suspect = -1, .first_dead = -1};
    hg_sim_on_member(s, watch_member, &w);
    /* a suspicion starts a probe (200 ms) after the pause at the earliest
     * and lasts at least 800 ms: a pause of 800 ms cannot end in a death
     * (the refutation has 200 ms to spread) */
    hg_sim_pause(s, p);
    hg_sim_run_for(s, LOCAL_SUSP_MIN_MS);
    bool suspected = w.first_suspect >= 0;
    hg_sim_resume(s, p);
    hg_sim_run_for(s, 5000);
    assert_true(w.first_dead < 0);
    if (suspected) {
      hg_swim_stats ss;
      hg_swim_get_stats(hg_sim_swim(s, p), &ss);
      assert_true(ss.refutes > 0);
      assert_true(hg_swim_incarnation(hg_sim_swim(s, p)) > inc);
      refuted++;
    }
    assert_true(hg_sim_converged(s));
  }
  assert_true(refuted > 0);
  hg_sim_stats st;
  hg_sim_get_stats(s, &st);
  assert_int_equal(st.false_deaths, 0);
  assert_clean(s);
  hg_sim_free(s);
}

static void loss_10pct_no_false_death_in_60s(void **state) {
  hg_sim *s = sim_up(10, 4, 64);
  assert_converges(s, 5000);
  hg_sim_set_loss(s, 0.10);
  hg_sim_run_for(s, 60000);
  hg_sim_stats st;
  hg_sim_get_stats(s, &st);
  assert_int_equal(st.false_deaths, 0);
  assert_int_equal(st.false_dead_views, 0);
  uint64_t suspects = 0, refutes = 0;
  for (size_t i = 0; i < 10; i++) {
    hg_swim_stats ss;
    hg_swim_get_stats(hg_sim_swim(s, i), &ss);
    suspects += ss.suspects_raised;
    refutes += ss.refutes;
  }
  assert_true(suspects > 0); /* the loss did bite: suspicions were raised and refuted */
  assert_true(refutes > 0);
  hg_sim_set_loss(s, 0);
  assert_converges(s, 10000);
  assert_clean(s);
  hg_sim_free(s);
}

/* Longer than the suspicion and the gossip-to-the-dead window: both halves
 * declare the other dead; after the heal, re-join merges them. */
static void partition_then_heal_rejoins(void **state) {
  hg_sim *s = sim_up(6, 5, 32);
  assert_converges(s, 5000);
  unsigned halves[6] = {0, 0, 0, 1, 1, 1};
  hg_sim_partition(s, halves);
  hg_sim_run_for(s, 20000);
  for (size_t i = 0; i < 6; i++) {
    assert_int_equal(hg_swim_alive_count(hg_sim_swim(s, i)), 3);
    const hg_swim_member *v = hg_sim_view(s, i, i < 3 ? 4 : 1);
    assert_non_null(v);
    assert_int_equal(v->state, HG_MEMBER_DEAD);
  }
  hg_sim_partition(s, NULL);
  /* a few re-join rounds (2 s) and the refutations they trigger */
  int64_t healed = hg_sim_now(s);
  int64_t t = hg_sim_run_until_pred(s, converged, NULL, 50, 15000);
  assert_true(t >= 0);
  print_message("partition healed in %lld ms\n", (long long)(t - healed));
  assert_clean(s);
  hg_sim_free(s);
}

static void restart_same_id_comes_back_with_higher_incarnation(void **state) {
  for (int new_addr = 0; new_addr <= 1; new_addr++) {
    hg_sim *s = sim_up(5, 6 + (uint64_t)new_addr, 32);
    assert_converges(s, 5000);
    uint64_t before = hg_sim_view(s, 0, 3)->incarnation;
    hg_sim_crash(s, 3);
    seen_as dead = {3, HG_MEMBER_DEAD, 4};
    assert_true(hg_sim_run_until_pred(s, all_see, &dead, 10, 10000) >= 0);
    /* a fresh process: incarnation 0, the cluster knows it dead at a higher one */
    assert_int_equal(hg_sim_restart(s, 3, 0, new_addr), 0);
    assert_converges(s, 5000);
    for (size_t i = 0; i < 5; i++) {
      if (i == 3) continue;
      const hg_swim_member *v = hg_sim_view(s, i, 3);
      assert_int_equal(v->state, HG_MEMBER_ALIVE);
      assert_true(v->incarnation > before);
      assert_string_equal(v->addr, hg_sim_addr(s, 3));
    }
    assert_clean(s);
    hg_sim_free(s);
  }
}

static void graceful_leave_is_left_everywhere(void **state) {
  hg_sim *s = sim_up(5, 8, 32);
  assert_converges(s, 5000);
  hg_sim_leave(s, 4);
  seen_as left = {4, HG_MEMBER_LEFT, 4};
  assert_true(hg_sim_run_until_pred(s, all_see, &left, 10, 2000) >= 0);
  hg_sim_crash(s, 4); /* the process exits after its leave */
  hg_sim_run_for(s, 15000);
  assert_int_equal(hg_sim_count_seeing(s, 4, HG_MEMBER_LEFT), 4);
  assert_true(hg_sim_converged(s));
  hg_swim_stats ss;
  hg_swim_get_stats(hg_sim_swim(s, 0), &ss);
  assert_int_equal(ss.deaths_declared, 0);
  assert_int_equal(hg_swim_set_meta(hg_sim_swim(s, 4), "x", 1), -ESHUTDOWN);
  assert_clean(s);
  hg_sim_free(s);
}

/* Dead members are kept dead_forget_ms (60 s local), then dropped. */
static void dead_members_are_forgotten(void **state) {
  hg_sim *s = sim_up(4, 12, 0);
  assert_converges(s, 5000);
  hg_sim_crash(s, 3);
  seen_as dead = {3, HG_MEMBER_DEAD, 3};
  assert_true(hg_sim_run_until_pred(s, all_see, &dead, 10, 10000) >= 0);
  hg_sim_run_for(s, 50000);
  assert_int_equal(hg_sim_count_seeing(s, 3, HG_MEMBER_DEAD), 3); /* still kept */
  hg_sim_run_for(s, 15000);
  for (size_t i = 0; i < 3; i++) {
    assert_null(hg_sim_view(s, i, 3));
    assert_int_equal(hg_swim_members(hg_sim_swim(s, i), NULL, 0), 3);
  }
  assert_true(hg_sim_converged(s));
  assert_clean(s);
  hg_sim_free(s);
}

typedef struct meta_want {
  size_t target;
  const char *meta;
} meta_want;

static bool all_see_meta(hg_sim *s, void *arg) {
  meta_want *w = arg;
  size_t len = strlen(w->meta);
  for (size_t o = 0; o < hg_sim_size(s); o++) {
    const hg_swim_member *v = hg_sim_view(s, o, w->target);
    if (!v || v->meta_len != len || memcmp(v->meta, w->meta, len) != 0) return false;
  }
  return true;
}

static void metadata_change_propagates(void **state) {
  hg_sim *s = sim_up(6, 9, 16);
  assert_converges(s, 5000);
  uint64_t inc = hg_swim_incarnation(hg_sim_swim(s, 1));
  meta_want w = {1, "draining=true;load=0.93"};
  assert_int_equal(hg_swim_set_meta(hg_sim_swim(s, 1), w.meta, strlen(w.meta)), 0);
  assert_int_equal(hg_swim_incarnation(hg_sim_swim(s, 1)), inc + 1);
  /* gossip nearly always does it in a few rounds; with 6 members an item
   * is sent only 4 times per node, and a node that missed it gets it from
   * the next push-pull (every 5 s with a random member) */
  assert_true(hg_sim_run_until_pred(s, all_see_meta, &w, 10, 12000) >= 0);
  uint8_t big[HG_WIRE_META_MAX + 1] = {0};
  assert_int_equal(hg_swim_set_meta(hg_sim_swim(s, 1), big, sizeof(big)), -EINVAL);
  assert_clean(s);
  hg_sim_free(s);
}

/* Deliveries per node and key: each node must see every other node's
 * broadcast exactly once. */
typedef struct user_log {
  size_t got[10][10]; /* [observer][key index] */
} user_log;

static void log_user(void *ud, size_t observer, const hg_wire_user *u) {
  user_log *l = ud;
  unsigned k;
  if (observer < 10 && sscanf(u->key, "key-%u", &k) == 1 && k < 10) l->got[observer][k]++;
}

static void broadcast(hg_sim *s, size_t from) {
  hg_wire_user u = {.len = 5};
  snprintf(u.key, sizeof(u.key), "key-%zu", from);
  memcpy(u.data, "hello", 5);
  hg_swim_broadcast_user(hg_sim_swim(s, from), &u);
}

/* Gossip alone is probabilistic: with n = 10 every node sends an item
 * 4 * ceil(log10 11) = 8 times, and a given node misses it with p ~ 1e-4
 * (below 10 members, 4 times: p ~ 1e-2). The user state in push-pull is
 * the backstop, as in memberlist. So: one broadcast reaches all nodes;
 * ten at once reach nearly all; nobody ever gets one twice. */
static void user_broadcast_reaches_all_once(void **state) {
  hg_sim *s = sim_up(10, 10, 16);
  assert_converges(s, 5000);
  user_log *log = calloc(1, sizeof(*log));
  assert_non_null(log);
  hg_sim_on_user(s, log_user, log);
  broadcast(s, 0);
  hg_sim_run_for(s, 2000);
  for (size_t o = 0; o < 10; o++) assert_int_equal(log->got[o][0], o == 0 ? 0 : 1);
  for (size_t i = 1; i < 10; i++) broadcast(s, i);
  hg_sim_run_for(s, 5000); /* every retransmission has run out by now */
  size_t pairs = 0;
  for (size_t o = 0; o < 10; o++) {
    for (size_t k = 0; k < 10; k++) {
      assert_true(log->got[o][k] <= 1);
      pairs += log->got[o][k];
    }
    assert_int_equal(log->got[o][o], 0);
  }
  assert_true(pairs >= 88); /* of 90 */
  free(log);
  assert_clean(s);
  hg_sim_free(s);
}

/* loss, a crash, a partition and a restart: the whole trace is a function
 * of the seed */
static uint64_t busy_run(uint64_t seed, hg_sim_stats *st) {
  hg_sim *s = sim_up(8, seed, 24);
  hg_sim_run_for(s, 3000);
  hg_sim_set_loss(s, 0.05);
  hg_sim_crash(s, 5);
  hg_sim_run_for(s, 4000);
  unsigned g[8] = {0, 0, 0, 0, 1, 1, 1, 1};
  hg_sim_partition(s, g);
  hg_sim_run_for(s, 3000);
  hg_sim_partition(s, NULL);
  hg_sim_restart(s, 5, 0, false);
  hg_sim_run_for(s, 5000);
  uint64_t h = hg_sim_trace_hash(s);
  hg_sim_get_stats(s, st);
  hg_sim_free(s);
  return h;
}

static void same_seed_same_trace(void **state) {
  hg_sim_stats a, b, c;
  uint64_t ha = busy_run(77, &a), hb = busy_run(77, &b), hc = busy_run(78, &c);
  assert_true(ha == hb);
  assert_memory_equal(&a, &b, sizeof(a));
  assert_true(a.datagrams > 1000);
  assert_true(ha != hc);
}

/* ---- hostile input: one instance, fed by hand --------------------------- */

typedef struct fake {
  int64_t now;
  size_t sent, push_pulls;
  hg_wire_type last_type;
  char last_addr[HG_ADDR_MAX];
} fake;

static int64_t fake_now(void *ud) {
  return ((fake *)ud)->now;
}
static void fake_send(void *ud, const char *addr, const hg_wire_msg *m) {
  fake *f = ud;
  f->sent++;
  f->last_type = m->type;
  snprintf(f->last_addr, sizeof(f->last_addr), "%s", addr);
}
static void fake_push_pull(void *ud, const char *addr, bool join) {
  ((fake *)ud)->push_pulls++;
}

static hg_swim *fake_swim(fake *f) {
  hg_swim_config c = {.id = "me", .addr = "me:1", .seed = 9};
  assert_int_equal(hg_swim_profile(&c, "local"), 0);
  hg_swim_io io = {
      .ud = f, .now_ms = fake_now, .send = fake_send, .push_pull = fake_push_pull};
  hg_swim *s = NULL;
  assert_int_equal(hg_swim_new(&c, &io, 0, &s), 0);
  return s;
}

static void receive_one(hg_swim *s, hg_wire_type type, const hg_wire_member *u) {
  hg_wire_msg m = {.type = type, .seq = 12345};
  snprintf(m.from, sizeof(m.from), "evil");
  snprintf(m.from_addr, sizeof(m.from_addr), "evil:1");
  m.members = (hg_wire_member *)u;
  m.nmembers = u ? 1 : 0;
  hg_swim_receive(s, &m);
}

static void hostile_input_is_just_swim_data(void **state) {
  fake f = {.now = 1000};
  hg_swim *s = fake_swim(&f);
  hg_wire_member *u = calloc(1, sizeof(*u));
  assert_non_null(u);

  /* accused at an absurd incarnation: refuted, saturating, still alive */
  *u =
      (hg_wire_member){.state = HG_MEMBER_SUSPECT, .id = "me", .incarnation = UINT64_MAX};
  receive_one(s, HG_WIRE_GOSSIP, u);
  assert_int_equal(hg_swim_incarnation(s), UINT64_MAX);
  u->state = HG_MEMBER_DEAD;
  receive_one(s, HG_WIRE_GOSSIP, u);
  assert_int_equal(hg_swim_member_get(s, "me")->state, HG_MEMBER_ALIVE);

  /* unknown members: dead/suspect ignored, alive without address ignored */
  *u = (hg_wire_member){.state = HG_MEMBER_DEAD, .id = "ghost", .incarnation = 5};
  receive_one(s, HG_WIRE_GOSSIP, u);
  u->state = HG_MEMBER_SUSPECT;
  receive_one(s, HG_WIRE_GOSSIP, u);
  u->state = HG_MEMBER_ALIVE;
  receive_one(s, HG_WIRE_GOSSIP, u);
  assert_null(hg_swim_member_get(s, "ghost"));
  /* a bogus state value and an empty id */
  *u = (hg_wire_member){.state = (hg_member_state)99, .id = "x", .addr = "x:1"};
  receive_one(s, HG_WIRE_GOSSIP, u);
  *u = (hg_wire_member){.state = HG_MEMBER_ALIVE, .addr = "x:1"};
  receive_one(s, HG_WIRE_GOSSIP, u);
  /* an id outside the node-id grammar never becomes a member */
  *u = (hg_wire_member){.state = HG_MEMBER_ALIVE, .id = "Bad Id", .addr = "x:1"};
  receive_one(s, HG_WIRE_GOSSIP, u);
  assert_null(hg_swim_member_get(s, "Bad Id"));
  assert_int_equal(hg_swim_members(s, NULL, 0), 1);

  /* a real newcomer at an absurd incarnation is just a member */
  *u = (hg_wire_member){.state = HG_MEMBER_ALIVE,
                        .id = "peer",
                        .addr = "peer:1",
                        .incarnation = UINT64_MAX - 1};
  receive_one(s, HG_WIRE_GOSSIP, u);
  assert_int_equal(hg_swim_member_get(s, "peer")->incarnation, UINT64_MAX - 1);
  assert_int_equal(hg_swim_alive_count(s), 2);

  /* a ping for somebody else is not answered; one for us is */
  f.sent = 0;
  hg_wire_msg ping = {.type = HG_WIRE_PING,
                      .seq = 7,
                      .target = "other",
                      .from = "evil",
                      .from_addr = "evil:1"};
  hg_swim_receive(s, &ping);
  assert_int_equal(f.sent, 0);
  snprintf(ping.target, sizeof(ping.target), "me");
  hg_swim_receive(s, &ping);
  assert_int_equal(f.sent, 1);
  assert_int_equal(f.last_type, HG_WIRE_ACK);
  assert_string_equal(f.last_addr, "evil:1");

  /* stray acks and nacks, ping-reqs without an address, a flood of them */
  receive_one(s, HG_WIRE_ACK, NULL);
  receive_one(s, HG_WIRE_NACK, NULL);
  hg_wire_msg req = {
      .type = HG_WIRE_PING_REQ, .target = "peer", .from = "evil", .from_addr = "evil:1"};
  f.sent = 0;
  hg_swim_receive(s, &req);
  assert_int_equal(f.sent, 0);
  snprintf(req.target_addr, sizeof(req.target_addr), "peer:1");
  for (int i = 0; i < 1000; i++) hg_swim_receive(s, &req);
  assert_true(f.sent < 1000); /* relays are bounded */
  f.now += 1000;
  hg_swim_tick(s); /* every relay nacks */

  /* push-pull over UDP is ignored; a merge of nonsense changes nothing */
  *u = (hg_wire_member){.state = HG_MEMBER_DEAD, .id = "me", .incarnation = 0};
  receive_one(s, HG_WIRE_PUSH_PULL, u);
  hg_wire_msg pp = {.type = HG_WIRE_PUSH_PULL, .members = u, .nmembers = 1};
  *u = (hg_wire_member){.state = (hg_member_state)-1, .id = "zzz", .addr = "z:1"};
  hg_swim_merge_state(s, &pp);
  assert_null(hg_swim_member_get(s, "zzz"));
  assert_int_equal(hg_swim_member_get(s, "me")->state, HG_MEMBER_ALIVE);

  /* a user item with an empty key is dropped */
  hg_wire_user *uu = calloc(1, sizeof(*uu));
  hg_wire_msg um = {.type = HG_WIRE_GOSSIP, .from = "evil", .users = uu, .nusers = 1};
  hg_swim_receive(s, &um);
  free(uu);

  /* the API refuses bad arguments */
  const char *many[17];
  for (int i = 0; i < 17; i++) many[i] = "a:1";
  assert_int_equal(hg_swim_join(s, many, 17), -E2BIG);
  const char *empty[1] = {""};
  assert_int_equal(hg_swim_join(s, empty, 1), -EINVAL);
  hg_swim_config bad = {.id = ""};
  hg_swim_profile(&bad, "lan");
  hg_swim_io io = {
      .ud = &f, .now_ms = fake_now, .send = fake_send, .push_pull = fake_push_pull};
  hg_swim *out = NULL;
  assert_int_equal(hg_swim_new(&bad, &io, 0, &out), -EINVAL);
  snprintf(bad.id, sizeof(bad.id), "ok");
  bad.udp_max = 10;
  assert_int_equal(hg_swim_new(&bad, &io, 0, &out), -EINVAL);
  assert_null(out);

  free(u);
  hg_swim_free(s);
}

static uint64_t lcg(uint64_t *x) {
  *x = *x * 6364136223846793005ull + 1442695040888963407ull;
  return *x >> 33;
}

/* 20000 random messages and merges (ids from a small set incl. ours, any
 * state, incarnations up to UINT64_MAX, any type and seq): we stay alive,
 * time moves, and every tick leaves the next deadline in the future. */
static void random_messages_keep_invariants(void **state) {
  fake f = {.now = 5000};
  hg_swim *s = fake_swim(&f);
  const char *ids[] = {"me", "a", "b", "c", "d", ""};
  uint64_t x = 42;
  hg_wire_member *items = calloc(8, sizeof(*items));
  assert_non_null(items);
  for (int step = 0; step < 20000; step++) {
    size_t n = lcg(&x) % 8;
    for (size_t i = 0; i < n; i++) {
      hg_wire_member *u = &items[i];
      *u = (hg_wire_member){.state = (hg_member_state)(lcg(&x) % 5)};
      snprintf(u->id, sizeof(u->id), "%s", ids[lcg(&x) % 6]);
      if (lcg(&x) % 4) snprintf(u->addr, sizeof(u->addr), "%s:1", ids[lcg(&x) % 6]);
      snprintf(u->from, sizeof(u->from), "%s", ids[lcg(&x) % 6]);
      u->incarnation = lcg(&x) % 3 == 0 ? UINT64_MAX - lcg(&x) % 3 : lcg(&x) % 6;
      u->meta_len = lcg(&x) % 3;
    }
    hg_wire_msg m = {.type = (hg_wire_type)(lcg(&x) % 7),
                     .seq = (uint32_t)lcg(&x) % 4,
                     .members = items,
                     .nmembers = n};
    const char *from = ids[lcg(&x) % 6], *target = ids[lcg(&x) % 6];
    snprintf(m.from, sizeof(m.from), "%s", from);
    snprintf(m.from_addr, sizeof(m.from_addr), "%s:1", from);
    snprintf(m.target, sizeof(m.target), "%s", target);
    snprintf(m.target_addr, sizeof(m.target_addr), "%s:1", target);
    if (lcg(&x) % 5 == 0)
      hg_swim_merge_state(s, &m);
    else
      hg_swim_receive(s, &m);
    f.now += (int64_t)(lcg(&x) % 300);
    hg_swim_tick(s);
    assert_true(hg_swim_next_ms(s) > f.now);
    const hg_swim_member *me = hg_swim_member_get(s, "me");
    assert_non_null(me);
    assert_int_equal(me->state, HG_MEMBER_ALIVE);
    assert_true(hg_swim_members(s, NULL, 0) <= 5);
  }
  free(items);
  hg_swim_free(s);
}

/* Members come back sorted by id with ourselves included. */
static void members_are_sorted(void **state) {
  hg_sim *s = sim_up(6, 11, 0);
  assert_converges(s, 5000);
  hg_swim_member *m = calloc(6, sizeof(*m));
  assert_non_null(m);
  assert_int_equal(hg_swim_members(hg_sim_swim(s, 2), m, 6), 6);
  for (size_t i = 1; i < 6; i++) assert_true(strcmp(m[i - 1].id, m[i].id) < 0);
  assert_int_equal(hg_swim_members(hg_sim_swim(s, 2), m, 2), 6);
  assert_string_equal(m[0].id, "node-0000");
  free(m);
  hg_sim_free(s);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(known_profiles_load_and_unknown_is_refused),
      cmocka_unit_test(five_nodes_converge),
      cmocka_unit_test(crash_detected_by_all_within_bound),
      cmocka_unit_test(pause_shorter_than_suspicion_refutes),
      cmocka_unit_test(loss_10pct_no_false_death_in_60s),
      cmocka_unit_test(partition_then_heal_rejoins),
      cmocka_unit_test(restart_same_id_comes_back_with_higher_incarnation),
      cmocka_unit_test(graceful_leave_is_left_everywhere),
      cmocka_unit_test(dead_members_are_forgotten),
      cmocka_unit_test(metadata_change_propagates),
      cmocka_unit_test(user_broadcast_reaches_all_once),
      cmocka_unit_test(same_seed_same_trace),
      cmocka_unit_test(hostile_input_is_just_swim_data),
      cmocka_unit_test(random_messages_keep_invariants),
      cmocka_unit_test(members_are_sorted),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
