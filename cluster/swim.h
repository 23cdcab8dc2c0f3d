/* swim: the membership protocol as a pure state machine (DESIGN §8):
 * SWIM (random-order probing, indirect probes through k peers, suspicion
 * with incarnation numbers and refutation, piggybacked updates retransmitted
 * retransmit_mult * ceil(log10(n + 1)) times) with Lifeguard (local health
 * multiplier on probe interval and timeout, nack from indirect probers,
 * suspicion timeout shrinking from max to min with independent
 * confirmations, suspect message sent to the suspect itself).
 *
 * It does no I/O and reads no clock: time comes from io->now_ms, randomness
 * from cfg->seed, datagrams go out through io->send and TCP state exchanges
 * through io->push_pull. The transport (cluster.c) and the simulator
 * (tests, tools/bench/bench_swim) drive the same code, so a run is
 * repeatable from its seed.
 *
 * Driving it: call hg_swim_receive for every decoded datagram,
 * hg_swim_merge_state for every push-pull received, and hg_swim_tick
 * whenever hg_swim_next_ms has passed (it is safe to call it early). */
#ifndef HG_CLUSTER_SWIM_H
#define HG_CLUSTER_SWIM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "cluster/wire.h"

typedef struct hg_swim hg_swim;

typedef struct hg_swim_config {
  char id[HG_NODE_ID_MAX];
  char addr[HG_ADDR_MAX];     /* our gossip address as peers reach it */
  uint64_t seed;                   /* randomness (probe order, k peers, jitter) */
  unsigned probe_interval_ms;
  unsigned probe_timeout_ms;
  unsigned indirect_checks;        /* k */
  unsigned suspicion_mult;         /* min = mult * max(1, log10 n) * probe interval */
  unsigned suspicion_max_mult;     /* max = this * min */
  unsigned retransmit_mult;
  unsigned gossip_interval_ms;
  unsigned gossip_nodes;
  unsigned push_pull_interval_ms;  /* with one random live member; 0: off. Past 32
                                      members it grows as memberlist's pushPullScale:
                                      x (ceil(log2 n - 5) + 1) */
  unsigned rejoin_interval_ms;     /* push-pull (join) with every seed not alive; 0: off */
  unsigned awareness_max;          /* Lifeguard local health ceiling */
  unsigned dead_forget_ms;         /* dead/left members kept this long, then dropped;
                                      the dead get gossip for 30 probe intervals */
  size_t udp_max;                  /* encoded datagram budget before sealing */
} hg_swim_config;

/* Fills every knob of a profile: "lan" (memberlist's DefaultLANConfig but
 * for a 700 ms probe cycle; see hg_swim_profile) or
 * "local" (one machine, tests: probe 200 ms, timeout 100 ms, gossip 50 ms,
 * push-pull 5 s, rejoin 2 s). -EINVAL for another name. id, addr and seed
 * are left alone. */
int hg_swim_profile(hg_swim_config *cfg, const char *name);

typedef struct hg_swim_member {
  char id[HG_NODE_ID_MAX];
  char addr[HG_ADDR_MAX];
  uint64_t incarnation;
  hg_member_state state;
  int64_t since_ms;                /* when it entered state */
  uint8_t meta[HG_WIRE_META_MAX];
  size_t meta_len;
} hg_swim_member;

typedef struct hg_swim_io {
  void *ud;
  int64_t (*now_ms)(void *ud);
  /* One datagram to addr. msg and its arrays are swim's; copy what you keep. */
  void (*send)(void *ud, const char *addr, const hg_wire_msg *msg);
  /* Start a TCP push-pull with addr: send hg_swim_local_state (+ user state),
   * then merge the answer. join: addr is a seed we are (re)joining. */
  void (*push_pull)(void *ud, const char *addr, bool join);
  /* A member appeared (is_new, old is DEAD), changed state, or changed
   * metadata or address. May be NULL. */
  void (*on_member)(void *ud, const hg_swim_member *m, hg_member_state old, bool is_new);
  /* A user broadcast arrived (first time this node sees this copy). May be NULL. */
  void (*on_user)(void *ud, const hg_wire_user *u);
} hg_swim_io;

typedef struct hg_swim_stats {
  uint64_t probes, acks, nacks, indirect_probes, suspects_raised, refutes, deaths_declared;
  uint64_t msgs_sent, msgs_received, updates_sent, updates_received;
  uint64_t false_suspicions;       /* we suspected a node that then refuted */
} hg_swim_stats;

/* The io callbacks must not call back into s (queue the work instead).
 * Copies cfg and io. Starts knowing only itself (alive, incarnation 0 or
 * start_incarnation). */
int hg_swim_new(const hg_swim_config *cfg, const hg_swim_io *io, uint64_t start_incarnation,
                hg_swim **out);
void hg_swim_free(hg_swim *s);

/* Remembers seeds (for periodic re-join) and push-pulls (join) with each now. */
int hg_swim_join(hg_swim *s, const char *const *seeds, size_t n);
/* Graceful leave: broadcasts "left" for ourselves and stops probing. */
void hg_swim_leave(hg_swim *s);

void hg_swim_receive(hg_swim *s, const hg_wire_msg *msg);
void hg_swim_tick(hg_swim *s);
int64_t hg_swim_next_ms(const hg_swim *s);

/* Our metadata; bumps our incarnation and broadcasts alive. -EINVAL past
 * HG_WIRE_META_MAX, -ESHUTDOWN after leave. */
int hg_swim_set_meta(hg_swim *s, const void *meta, size_t len);
/* Queues a user broadcast; replaces a queued one with the same key. */
void hg_swim_broadcast_user(hg_swim *s, const hg_wire_user *u);

/* Push-pull: our member list into out (type PUSH_PULL, members filled;
 * the caller adds users and frees with hg_wire_msg_free). merge applies a
 * peer's list as SWIM rules say (higher incarnation wins; suspect/dead
 * about us is refuted; as in memberlist, a peer's "dead" about another
 * member becomes a suspicion here, so a stale list cannot kill outright;
 * a node that knows nobody yet does not re-gossip the members it learns). */
int hg_swim_local_state(hg_swim *s, bool join, hg_wire_msg *out);
void hg_swim_merge_state(hg_swim *s, const hg_wire_msg *in);

/* Members including ourselves, sorted by id; returns the count (may exceed cap). */
size_t hg_swim_members(const hg_swim *s, hg_swim_member *out, size_t cap);
/* NULL if unknown. The pointer is valid until the next call into s. */
const hg_swim_member *hg_swim_member_get(const hg_swim *s, const char *id);
size_t hg_swim_alive_count(const hg_swim *s);
unsigned hg_swim_health(const hg_swim *s);   /* Lifeguard awareness, 0 = healthy */
uint64_t hg_swim_incarnation(const hg_swim *s);
void hg_swim_get_stats(const hg_swim *s, hg_swim_stats *out);

#endif
