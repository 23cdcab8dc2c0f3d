/* bench_swim: the membership protocol (cluster/swim.c) on the simulated
 * network of tests/sim, beside memberlist's numbers for the same n.
 *
 *   bench_swim [--runs N] [--duration S] [--max-n N] [--seed X] [--json F]
 *
 * For the lan profile at n = 10, 100, 1000 (and local at 3, 10):
 *   - detection: a random node crashes; time until every live node has it
 *     dead (p50, p99 over --runs crashes; a cluster serves crashes while
 *     90% of it is up, then a fresh one is built);
 *   - false positives: healthy members declared dead by anyone during
 *     --duration simulated seconds at 0%, 5%, 20% datagram loss, and the
 *     suspicions raised per second beside the model's expectation;
 *   - idle traffic: bytes sent per node per second (datagrams as encoded +
 *     seal overhead, push-pull states as encoded, no zstd) over one full
 *     push-pull period.
 * memberlist's side is computed from its defaults: suspicion min/max,
 * expected detection = E[first probe] + probe interval + suspicion min +
 * gossip rounds, and its idle bytes from its message sizes. For lan those
 * are DefaultLANConfig's knobs, not the profile's, which departs from them
 * (see hg_swim_profile): the baseline stays put when the profile moves.
 *
 * Clusters start with hg_sim_bootstrap (everyone knows everyone, no join
 * storm), nodes carry 200 bytes of metadata, datagrams take 1-5 ms. */
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cluster/seal.h"
#include "cluster/swim.h"
#include "swim_sim.h"

#define META_LEN 200
#define MAX_RUNS 64
#define SETTLE_MS 10000

typedef struct opts {
  int runs;
  int duration_s;
  size_t max_n;
  uint64_t seed;
  const char *json;
} opts;

typedef struct result {
  const char *profile;
  size_t n;
  double detect_p50, detect_p99; /* s; NAN: some run never finished */
  int detect_missed;
  double idle_bps;           /* bytes per node per second */
  double susp_min, susp_max; /* s, the profile's at this n */
  uint64_t false_deaths[3], false_views[3];
  double suspicions_per_s[3]; /* false suspicions raised, all nodes */
  double wall_s;
  /* memberlist, computed */
  double ml_susp_min, ml_susp_max, ml_detect, ml_idle_bps, ml_suspicions_per_s[3];
} result;

static const double losses[3] = {0.0, 0.05, 0.20};

static double wall_now(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)t.tv_sec + t.tv_nsec / 1e9;
}

/* ---- memberlist's numbers for the same n ------------------------------- */

static double suspicion_min_s(const hg_swim_config *c, size_t n) {
  return c->suspicion_mult * fmax(1.0, log10((double)n)) * c->probe_interval_ms / 1000.0;
}

static double push_pull_period_s(const hg_swim_config *c, size_t n) {
  double mult = n <= 32 ? 1.0 : ceil(log2((double)n) - log2(32.0)) + 1.0;
  return mult * c->push_pull_interval_ms / 1000.0;
}

/* The first of n-1 round-robin probers reaches the dead node after
 * E[min of n-1 uniform slots in a round of n-1 intervals] = (n-1)/n
 * intervals; that probe ends one interval later; the suspicion lasts its
 * minimum (k confirmations in time); the death then spreads in
 * log_(1+fanout)(n) gossip rounds. */
static double memberlist_detect_s(const hg_swim_config *c, size_t n) {
  double probe = c->probe_interval_ms / 1000.0;
  double rounds = ceil(log((double)n) / log(1.0 + c->gossip_nodes));
  return probe * (n - 1) / n + probe + suspicion_min_s(c, n) +
         rounds * c->gossip_interval_ms / 1000.0;
}

/* memberlist sizes: ping ~60 B, ack ~10 B, + 29 B encryption each; a
 * push-pull node entry ~60 B + meta, both directions, every (scaled)
 * period; a node starts one and is picked for one per period. */
static double memberlist_idle_bps(const hg_swim_config *c, size_t n) {
  double probes = 1000.0 / c->probe_interval_ms;
  double udp = probes * ((60 + 29) + (10 + 29));
  double state = (double)n * (60 + META_LEN);
  return udp + 2 * state / push_pull_period_s(c, n);
}

/* Expected false suspicions per second without TCP fallback: a probe
 * fails when ping or ack is lost and all k indirect paths (4 datagrams
 * each; at most n - 2 peers can relay) fail. memberlist also tries TCP, which this model
 * leaves out. */
static double model_suspicions_per_s(const hg_swim_config *c, size_t n, double loss) {
  double ok = 1 - loss;
  double direct_fail = 1 - ok * ok;
  double k = n - 2 < c->indirect_checks ? (double)(n - 2) : c->indirect_checks;
  double indirect_fail = pow(1 - pow(ok, 4), k);
  return n * (1000.0 / c->probe_interval_ms) * direct_fail * indirect_fail;
}

/* memberlist's knobs for a profile: DefaultLANConfig for lan; local has
 * no memberlist twin, so the formulas run on its own knobs. */
static void memberlist_config(hg_swim_config *c, const char *profile) {
  hg_swim_profile(c, profile);
  if (strcmp(profile, "lan") != 0) return;
  c->probe_interval_ms = 1000;
  c->probe_timeout_ms = 500;
  c->suspicion_mult = 4;
}

/* ---- one simulated cluster --------------------------------------------- */

static hg_sim *cluster(const char *profile, size_t n, uint64_t seed) {
  hg_sim_config c = {.n = n, .seed = seed, .profile = profile, .meta_len = META_LEN};
  hg_sim *s = NULL;
  if (hg_sim_new(&c, &s) < 0 || hg_sim_bootstrap(s) < 0) {
    fprintf(stderr, "bench_swim: cannot build a cluster of %zu\n", n);
    exit(1);
  }
  hg_sim_run_for(s, SETTLE_MS);
  return s;
}

typedef struct death_watch {
  hg_sim *sim;
  const char *id;
  size_t knowers, live;
  int64_t all_at;
} death_watch;

static bool gone(hg_member_state st) {
  return st == HG_MEMBER_DEAD || st == HG_MEMBER_LEFT;
}

static void on_member(void *ud, size_t observer, const hg_swim_member *m,
                      hg_member_state old, bool is_new) {
  death_watch *w = ud;
  if (!w->id || strcmp(m->id, w->id) != 0 || is_new) return;
  if (gone(m->state) && !gone(old)) w->knowers++;
  if (!gone(m->state) && gone(old)) w->knowers--;
  if (w->knowers == w->live && w->all_at < 0) w->all_at = hg_sim_now(w->sim);
}

static bool all_know(hg_sim *s, void *arg) {
  return ((death_watch *)arg)->all_at >= 0;
}

/* Crashes one random running node; seconds until every running node has
 * it dead, or -1 past bound_s. */
static double crash_one(hg_sim *s, uint64_t *rng, double bound_s) {
  size_t n = hg_sim_size(s), victim, live = 0;
  do {
    *rng = *rng * 6364136223846793005ull + 1442695040888963407ull;
    victim = (size_t)(*rng >> 33) % n;
  } while (!hg_sim_up(s, victim));
  for (size_t i = 0; i < n; i++) live += hg_sim_up(s, i) && i != victim;
  death_watch w = {.sim = s, .id = hg_sim_id(s, victim), .live = live, .all_at = -1};
  hg_sim_on_member(s, on_member, &w);
  int64_t crashed = hg_sim_now(s);
  hg_sim_crash(s, victim);
  hg_sim_run_until_pred(s, all_know, &w, 100, (int64_t)(bound_s * 1000));
  hg_sim_on_member(s, NULL, NULL);
  return w.all_at < 0 ? -1 : (w.all_at - crashed) / 1000.0;
}

/* Each run crashes one node. A cluster serves runs while 90% of it is
 * still up (one run at n = 10, ten at 100, all at 1000), then a fresh one
 * is built; between runs the survivors settle for 5-7 s, so runs start at
 * unrelated probe phases. */
static void detection_runs(const char *profile, size_t n, const opts *o, double bound_s,
                           double *t, int *ok, int *missed) {
  hg_sim *s = NULL;
  uint64_t rng = o->seed;
  size_t crashed = 0;
  for (int i = 0; i < o->runs; i++) {
    if (!s || (crashed + 1) * 10 > n) {
      hg_sim_free(s);
      s = cluster(profile, n, o->seed + 1000 * (uint64_t)i + n);
      crashed = 0;
    }
    double d = crash_one(s, &rng, bound_s);
    crashed++;
    if (d < 0)
      (*missed)++;
    else
      t[(*ok)++] = d;
    hg_sim_run_for(s, 5000 + (int64_t)(rng >> 40) % 2000);
  }
  hg_sim_free(s);
}

static int cmp_double(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return x < y ? -1 : x > y;
}

/* nearest rank */
static double percentile(const double *sorted, int n, double p) {
  int rank = (int)ceil(p / 100.0 * n);
  return sorted[rank < 1 ? 0 : rank - 1];
}

static void measure_detection(result *r, const hg_swim_config *c, const opts *o) {
  double t[MAX_RUNS];
  int ok = 0;
  double bound = suspicion_min_s(c, r->n) * c->suspicion_max_mult + 60;
  detection_runs(r->profile, r->n, o, bound, t, &ok, &r->detect_missed);
  qsort(t, (size_t)ok, sizeof(*t), cmp_double);
  r->detect_p50 = ok ? percentile(t, ok, 50) : NAN;
  r->detect_p99 = ok && !r->detect_missed ? percentile(t, ok, 99) : NAN;
}

static uint64_t suspicions(hg_sim *s) {
  uint64_t total = 0;
  for (size_t i = 0; i < hg_sim_size(s); i++) {
    hg_swim_stats st;
    hg_swim_get_stats(hg_sim_swim(s, i), &st);
    total += st.suspects_raised;
  }
  return total;
}

/* Idle bytes over one push-pull period, then the three loss rates in turn
 * on the same cluster, each after it has settled back. */
static void measure_traffic(result *r, const hg_swim_config *c, const opts *o) {
  hg_sim *s = cluster(r->profile, r->n, o->seed + 7);
  int64_t period = (int64_t)(push_pull_period_s(c, r->n) * 1000);
  hg_sim_reset_counters(s);
  hg_sim_run_for(s, period);
  hg_sim_stats st;
  hg_sim_get_stats(s, &st);
  r->idle_bps = st.bytes / (double)r->n / (period / 1000.0);
  for (int l = 0; l < 3; l++) {
    double t0 = wall_now();
    hg_sim_set_loss(s, losses[l]);
    hg_sim_reset_counters(s);
    uint64_t before = suspicions(s);
    hg_sim_run_for(s, (int64_t)o->duration_s * 1000);
    hg_sim_get_stats(s, &st);
    r->false_deaths[l] = st.false_deaths;
    r->false_views[l] = st.false_dead_views;
    r->suspicions_per_s[l] = (double)(suspicions(s) - before) / o->duration_s;
    hg_sim_set_loss(s, 0);
    if (l < 2) /* back to calm before the next rate */
      hg_sim_run_for(s,
                     (int64_t)(suspicion_min_s(c, r->n) * c->suspicion_max_mult * 1000));
    fprintf(stderr, "bench_swim: %s n=%zu loss %.0f%%: %.1f s\n", r->profile, r->n,
            losses[l] * 100, wall_now() - t0);
  }
  hg_sim_free(s);
}

static void run_one(result *r, const opts *o) {
  hg_swim_config c = {0}, ml = {0};
  hg_swim_profile(&c, r->profile);
  memberlist_config(&ml, r->profile);
  double t0 = wall_now();
  r->susp_min = suspicion_min_s(&c, r->n);
  r->susp_max = r->susp_min * c.suspicion_max_mult;
  r->ml_susp_min = suspicion_min_s(&ml, r->n);
  r->ml_susp_max = r->ml_susp_min * ml.suspicion_max_mult;
  r->ml_detect = memberlist_detect_s(&ml, r->n);
  r->ml_idle_bps = memberlist_idle_bps(&ml, r->n);
  for (int l = 0; l < 3; l++)
    r->ml_suspicions_per_s[l] = model_suspicions_per_s(&ml, r->n, losses[l]);
  measure_detection(r, &c, o);
  fprintf(stderr, "bench_swim: %s n=%zu detection: %.1f s\n", r->profile, r->n,
          wall_now() - t0);
  measure_traffic(r, &c, o);
  r->wall_s = wall_now() - t0;
  fprintf(stderr, "bench_swim: %s n=%zu done in %.1f s\n", r->profile, r->n, r->wall_s);
}

/* ---- output ------------------------------------------------------------ */

static void print_tables(const result *r, int nr, const opts *o) {
  printf("\n## Failure detection and idle traffic (%d runs; meta %d B; 1-5 ms links)\n\n",
         o->runs, META_LEN);
  printf(
      "| profile | n | all know of a death p50 | p99 (nearest rank) | memberlist model | "
      "suspicion min / max (memberlist) | idle B/s/node | memberlist model |\n");
  printf("|---|---:|---:|---:|---:|---:|---:|---:|\n");
  for (int i = 0; i < nr; i++) {
    printf("| %s | %zu | %.2f s | ", r[i].profile, r[i].n, r[i].detect_p50);
    if (r[i].detect_missed)
      printf("%d runs unfinished | ", r[i].detect_missed);
    else
      printf("%.2f s | ", r[i].detect_p99);
    printf("%.2f s | %.1f / %.1f s (%.1f / %.1f s) | %.0f | %.0f |\n", r[i].ml_detect,
           r[i].susp_min, r[i].susp_max, r[i].ml_susp_min, r[i].ml_susp_max,
           r[i].idle_bps, r[i].ml_idle_bps);
  }
  printf("\n## False positives over %d simulated seconds of datagram loss\n\n",
         o->duration_s);
  printf(
      "| profile | n | loss | healthy declared dead (views) | false suspicions/s | model"
      " (memberlist, no TCP fallback) |\n");
  printf("|---|---:|---:|---:|---:|---:|\n");
  for (int i = 0; i < nr; i++)
    for (int l = 0; l < 3; l++)
      printf("| %s | %zu | %.0f%% | %" PRIu64 " (%" PRIu64 ") | %.2f | %.2f |\n",
             r[i].profile, r[i].n, losses[l] * 100, r[i].false_deaths[l],
             r[i].false_views[l], r[i].suspicions_per_s[l], r[i].ml_suspicions_per_s[l]);
  printf("\n");
}

static void json_num(FILE *f, const char *k, double v, bool comma) {
  if (isnan(v))
    fprintf(f, "\"%s\": null%s", k, comma ? ", " : "");
  else
    fprintf(f, "\"%s\": %.4f%s", k, v, comma ? ", " : "");
}

static int write_json(const char *path, const result *r, int nr, const opts *o) {
  FILE *f = fopen(path, "w");
  if (!f) return -errno;
  fprintf(f, "{\"runs\": %d, \"duration_s\": %d, \"meta_bytes\": %d, \"results\": [\n",
          o->runs, o->duration_s, META_LEN);
  for (int i = 0; i < nr; i++) {
    fprintf(f, "  {\"profile\": \"%s\", \"n\": %zu, ", r[i].profile, r[i].n);
    json_num(f, "detect_p50_s", r[i].detect_p50, true);
    json_num(f, "detect_p99_s", r[i].detect_p99, true);
    fprintf(f, "\"detect_unfinished\": %d, ", r[i].detect_missed);
    json_num(f, "idle_bytes_per_node_s", r[i].idle_bps, true);
    json_num(f, "suspicion_min_s", r[i].susp_min, true);
    json_num(f, "suspicion_max_s", r[i].susp_max, true);
    fprintf(f, "\"false_deaths\": [%" PRIu64 ", %" PRIu64 ", %" PRIu64 "], ",
            r[i].false_deaths[0], r[i].false_deaths[1], r[i].false_deaths[2]);
    fprintf(f, "\"false_suspicions_per_s\": [%.3f, %.3f, %.3f], ",
            r[i].suspicions_per_s[0], r[i].suspicions_per_s[1], r[i].suspicions_per_s[2]);
    fprintf(f, "\"memberlist\": {");
    json_num(f, "suspicion_min_s", r[i].ml_susp_min, true);
    json_num(f, "suspicion_max_s", r[i].ml_susp_max, true);
    json_num(f, "detect_s", r[i].ml_detect, true);
    json_num(f, "idle_bytes_per_node_s", r[i].ml_idle_bps, true);
    fprintf(f, "\"false_suspicions_per_s\": [%.3f, %.3f, %.3f]}}%s\n",
            r[i].ml_suspicions_per_s[0], r[i].ml_suspicions_per_s[1],
            r[i].ml_suspicions_per_s[2], i + 1 < nr ? "," : "");
  }
  fprintf(f, "]}\n");
  return fclose(f) == 0 ? 0 : -errno;
}

static int parse_opts(int argc, char **argv, opts *o) {
  *o = (opts){.runs = 20, .duration_s = 60, .max_n = 1000, .seed = 1};
  for (int i = 1; i < argc; i += 2) { /* every option takes a value */
    const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
    if (!v) return -EINVAL;
    if (strcmp(a, "--runs") == 0)
      o->runs = atoi(v);
    else if (strcmp(a, "--duration") == 0)
      o->duration_s = atoi(v);
    else if (strcmp(a, "--max-n") == 0)
      o->max_n = strtoul(v, NULL, 10);
    else if (strcmp(a, "--seed") == 0)
      o->seed = strtoull(v, NULL, 10);
    else if (strcmp(a, "--json") == 0)
      o->json = v;
    else
      return -EINVAL;
  }
  return o->runs >= 1 && o->runs <= MAX_RUNS && o->duration_s >= 1 ? 0 : -EINVAL;
}

int main(int argc, char **argv) {
  opts o;
  if (parse_opts(argc, argv, &o) < 0) {
    fprintf(stderr,
            "usage: bench_swim [--runs N (1-%d)] [--duration S] [--max-n N] [--seed X] "
            "[--json F]\n",
            MAX_RUNS);
    return 2;
  }
  const struct {
    const char *profile;
    size_t n;
  } plan[] = {{"lan", 10}, {"lan", 100}, {"lan", 1000}, {"local", 3}, {"local", 10}};
  result r[5];
  int nr = 0;
  for (size_t i = 0; i < sizeof(plan) / sizeof(plan[0]); i++) {
    if (plan[i].n > o.max_n) continue;
    r[nr] = (result){.profile = plan[i].profile, .n = plan[i].n};
    run_one(&r[nr++], &o);
  }
  print_tables(r, nr, &o);
  if (o.json) {
    int rc = write_json(o.json, r, nr, &o);
    if (rc < 0) {
      fprintf(stderr, "bench_swim: cannot write %s: %s\n", o.json, strerror(-rc));
      return 1;
    }
  }
  return 0;
}
