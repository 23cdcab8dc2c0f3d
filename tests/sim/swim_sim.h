/* swim_sim: N hg_swim instances on a simulated clock and network, for the
 * unit tests (tests/unit/test_swim.c) and the benchmark
 * (tools/bench/bench_swim.c).
 *
 * One event queue ordered by (time, insertion), one seeded PRNG: a run is
 * a function of its config and the calls made on it. Datagrams go through
 * the real codec (hg_wire_encode, then hg_wire_decode at the receiver), so
 * byte counts are what the transport would send (plus HG_SEAL_OVERHEAD).
 * Push-pull is an exchange of hg_swim_local_state / hg_swim_merge_state
 * one round trip after it was asked for, when both ends are up and
 * reachable (no loss on TCP).
 *
 * Faults: loss (every link, or one direction of one link), a delay range,
 * partitions (a group number per node: only equal groups talk), crash
 * (nothing delivered, no ticks), pause (SIGSTOP: no ticks, datagrams held
 * until resume), restart with the same id, graceful leave. */
#ifndef HG_TESTS_SWIM_SIM_H
#define HG_TESTS_SWIM_SIM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "cluster/swim.h"

typedef struct hg_sim hg_sim;

typedef struct hg_sim_config {
  size_t n;
  uint64_t seed;
  const char *profile;   /* hg_swim_profile name; NULL: "local" */
  unsigned delay_min_ms; /* one-way datagram delay, uniform; 0,0: 1..5 ms */
  unsigned delay_max_ms;
  double loss;     /* datagram loss on every link, 0..1 */
  size_t meta_len; /* metadata bytes every node sets at start */
} hg_sim_config;

typedef struct hg_sim_stats {
  uint64_t datagrams, dropped, push_pulls, bytes;
  uint64_t oversize;         /* encoded datagrams over udp_max: a packing bug */
  uint64_t codec_errors;     /* encode or decode failed: a bug */
  uint64_t false_deaths;     /* a running member first seen dead by someone */
  uint64_t false_dead_views; /* observer x member: running member marked dead */
  uint64_t user_deliveries;
} hg_sim_stats;

typedef void (*hg_sim_member_fn)(void *ud, size_t observer, const hg_swim_member *m,
                                 hg_member_state old, bool is_new);
typedef void (*hg_sim_user_fn)(void *ud, size_t observer, const hg_wire_user *u);
typedef bool (*hg_sim_pred)(hg_sim *s, void *arg);

int hg_sim_new(const hg_sim_config *cfg, hg_sim **out);
void hg_sim_free(hg_sim *s);

size_t hg_sim_size(const hg_sim *s);
int64_t hg_sim_now(const hg_sim *s);
hg_swim *hg_sim_swim(hg_sim *s, size_t i);
const char *hg_sim_id(const hg_sim *s, size_t i);
const char *hg_sim_addr(const hg_sim *s, size_t i);
int hg_sim_index(const hg_sim *s, const char *id); /* -1 unknown */

/* Node i joins the given seed nodes now (they are remembered for restart). */
int hg_sim_join(hg_sim *s, size_t i, const size_t *seeds, size_t nseeds);
/* Every node but seed joins node seed, at a random time in [now, now + spread_ms). */
void hg_sim_join_all(hg_sim *s, size_t seed, int64_t spread_ms);
/* Every node learns every other one at once, as a first push-pull would
 * tell it (the member list is each node's own entry): a big cluster
 * without the cold-start gossip storm of n joins. No seeds are set. */
int hg_sim_bootstrap(hg_sim *s);

void hg_sim_run_until(hg_sim *s, int64_t t_ms);
void hg_sim_run_for(hg_sim *s, int64_t ms);
/* Runs until pred holds (checked every step_ms) or max_ms pass; returns the
 * time it first held, or -1. */
int64_t hg_sim_run_until_pred(hg_sim *s, hg_sim_pred pred, void *arg, int64_t step_ms,
                              int64_t max_ms);

void hg_sim_set_loss(hg_sim *s, double p);
void hg_sim_set_link_loss(hg_sim *s, size_t from, size_t to, double p);
void hg_sim_set_delay(hg_sim *s, unsigned min_ms, unsigned max_ms);
/* group[i] for every node; NULL heals. */
void hg_sim_partition(hg_sim *s, const unsigned *group);
void hg_sim_crash(hg_sim *s, size_t i);
void hg_sim_pause(hg_sim *s, size_t i);
void hg_sim_resume(hg_sim *s, size_t i);
/* A new hg_swim with the same id (new_addr: another port), rejoining its seeds. */
int hg_sim_restart(hg_sim *s, size_t i, uint64_t start_incarnation, bool new_addr);
void hg_sim_leave(hg_sim *s, size_t i);
bool hg_sim_up(const hg_sim *s, size_t i); /* running (maybe paused) */

/* observer's view of target; NULL if unknown. Valid until the next call. */
const hg_swim_member *hg_sim_view(hg_sim *s, size_t observer, size_t target);
/* Running observers (not target) whose view of target is st. */
size_t hg_sim_count_seeing(hg_sim *s, size_t target, hg_member_state st);
/* Every running node sees every other running node alive, and the crashed
 * or left ones dead, left or not at all. */
bool hg_sim_converged(hg_sim *s);
/* Cheap form for big n: every running node counts exactly the running,
 * not-left nodes as alive. */
bool hg_sim_alive_counts_match(hg_sim *s);

uint64_t hg_sim_bytes_sent(const hg_sim *s, size_t i);
void hg_sim_get_stats(const hg_sim *s, hg_sim_stats *out);
void hg_sim_reset_counters(hg_sim *s); /* bytes and stats */
/* Hash of every delivered datagram and member change, in order. */
uint64_t hg_sim_trace_hash(const hg_sim *s);

void hg_sim_on_member(hg_sim *s, hg_sim_member_fn fn, void *ud);
void hg_sim_on_user(hg_sim *s, hg_sim_user_fn fn, void *ud);

#endif
