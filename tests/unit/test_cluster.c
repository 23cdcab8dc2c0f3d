/* test_cluster: several hg_cluster instances on one uv loop, talking real
 * sealed UDP and TCP on 127.0.0.1 with the "local" swim profile. Covers
 * joining through one seed, metadata and directory propagation, crash
 * detection, graceful leave, wrong keys, garbage, replays (captured by a
 * UDP relay in front of one node), placement, the roster and restarts,
 * and the peers and replica targets worker threads read. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <errno.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <openssl/evp.h>

#include "cluster/cluster.h"
#include "cluster/cluster_internal.h"
#include "cluster/seal.h"
#include "node/core/log.h"
#include "node/core/util.h"

#define KEY "00112233445566778899aabbccddeeff00112233445566778899aabbccddeeff"
#define BAD_KEY "ffeeddccbbaa99887766554433221100ffeeddccbbaa99887766554433221100"

static uv_loop_t loop;
static uv_timer_t ticker; /* keeps UV_RUN_ONCE from sleeping long */
static char tmp_root[128];
static int test_no; /* each test gets its own state dirs */

static void on_tick(uv_timer_t *t) {}

static void run_ms(int ms) {
  int64_t end = hg_now_ms() + ms;
  while (hg_now_ms() < end) uv_run(&loop, UV_RUN_ONCE);
}

/* Runs the loop until expr holds or ms passed; the value of expr. */
#define WAIT_UNTIL(expr, ms)                                          \
  ({                                                                  \
    int64_t end_ = hg_now_ms() + (ms);                                \
    while (!(expr) && hg_now_ms() < end_) uv_run(&loop, UV_RUN_ONCE); \
    (expr);                                                           \
  })

/* ---- nodes ---- */

typedef struct node {
  hg_cluster *c;
  char id[32];
  char gossip[64];
  char dir[192];
  int port;
  bool closed;
} node;

static void on_closed(void *ud) {
  ((node *)ud)->closed = true;
}

/* A test's departures from the "local" profile (zero: none), for the next starts. */
static hg_swim_config swim_override;

static node *started[16]; /* for the teardown of a test that failed midway */
static size_t nstarted;

static void remember(node *n) {
  for (size_t i = 0; i < nstarted; i++)
    if (started[i] == n) return;
  if (nstarted < 16) started[nstarted++] = n;
}

static int random_port(void) {
  uint32_t r = 0;
  hg_random_bytes(&r, sizeof r);
  return 20000 + (int)(r % 12000); /* below the kernel's ephemeral range */
}

static void fill_meta(hg_node_meta *m, const char *id, int port, const char *tmpl,
                      uint32_t max_sb, uint32_t total_sb, uint64_t mem_total,
                      uint64_t mem_used) {
  memset(m, 0, sizeof *m);
  snprintf(m->id, sizeof m->id, "%s", id);
  snprintf(m->api_addr, sizeof m->api_addr, "127.0.0.1:%d", port + 1);
  snprintf(m->vmm_kind, sizeof m->vmm_kind, "qemu");
  snprintf(m->cpu_class, sizeof m->cpu_class, "tcg");
  m->vcpus_total = 4;
  m->memory_total_mib = mem_total;
  m->memory_used_mib = mem_used;
  m->max_sandboxes = max_sb;
  m->sandboxes_total = total_sb;
  if (tmpl) {
    snprintf(m->templates[0], sizeof m->templates[0], "%s", tmpl);
    m->ntemplates = 1;
  }
}

/* Starts a node on a free port (retrying on collisions). advertise_port:
 * peers reach it there instead (the relay), 0: its own port. */
static void node_start_ex(node *n, const char *id, const char *join, const char *key,
                          int advertise_port, const char *zone) {
  snprintf(n->id, sizeof n->id, "%s", id);
  if (!n->dir[0]) {
    snprintf(n->dir, sizeof n->dir, "%s/t%d-%s", tmp_root, test_no, id);
    assert_int_equal(hg_mkdir_p(n->dir, 0700), 0);
  }
  for (int attempt = 0; attempt < 20; attempt++) {
    n->port = random_port();
    snprintf(n->gossip, sizeof n->gossip, "127.0.0.1:%d", n->port);
    char adv[64];
    snprintf(adv, sizeof adv, "127.0.0.1:%d", advertise_port);
    hg_cluster_config cfg = {.node_id = id,
                             .gossip = n->gossip,
                             .advertise = advertise_port ? adv : NULL,
                             .join = join,
                             .cluster_key = key,
                             .zone = zone,
                             .profile = "local",
                             .swim = swim_override,
                             .state_dir = n->dir};
    fill_meta(&cfg.self, id, n->port, "base:1", 0, 0, 0, 0);
    n->closed = false;
    assert_int_equal(hg_cluster_new(&loop, &cfg, &n->c), 0);
    int rc = hg_cluster_start(n->c);
    if (rc == 0) {
      remember(n);
      return;
    }
    assert_int_equal(rc, UV_EADDRINUSE);
    hg_cluster_close(n->c, on_closed, n);
    assert_true(WAIT_UNTIL(n->closed, 2000));
  }
  fail_msg("no free port");
}

static void node_start(node *n, const char *id, const char *join) {
  node_start_ex(n, id, join, KEY, 0, NULL);
}

static void node_close(node *n) {
  if (!n->c) return;
  hg_cluster_close(n->c, on_closed, n);
  assert_true(WAIT_UNTIL(n->closed, 3000));
  n->c = NULL;
}

static void node_crash(node *n) {
  hg_cluster_crash(n->c, on_closed, n);
  assert_true(WAIT_UNTIL(n->closed, 3000));
  n->c = NULL;
}

static size_t alive(node *n) {
  hg_cluster_stats st;
  hg_cluster_get_stats(n->c, &st);
  return st.members_alive;
}

static hg_cluster_stats stats(node *n) {
  hg_cluster_stats st;
  hg_cluster_get_stats(n->c, &st);
  return st;
}

/* The member entry for id in n's members_json (a new reference), or NULL. */
static json_t *member(node *n, const char *id) {
  json_t *all = hg_cluster_members_json(n->c), *found = NULL, *m;
  size_t i;
  json_array_foreach(all, i, m) {
    if (strcmp(json_string_value(json_object_get(m, "id")), id) == 0)
      found = json_incref(m);
  }
  json_decref(all);
  return found;
}

/* True when n sees id in state st. */
static bool sees(node *n, const char *id, const char *st) {
  json_t *m = member(n, id);
  bool ok = m && strcmp(json_string_value(json_object_get(m, "state")), st) == 0;
  json_decref(m);
  return ok;
}

static uint64_t incarnation_of(node *n, const char *id) {
  json_t *m = member(n, id);
  uint64_t v = m ? (uint64_t)json_integer_value(json_object_get(m, "incarnation")) : 0;
  json_decref(m);
  return v;
}

static bool roster_file_has(node *n, const char *id) {
  char path[256], *data = NULL, needle[64];
  size_t len;
  snprintf(path, sizeof path, "%s/roster.json", n->dir);
  if (hg_read_file(path, 1 << 20, &data, &len) < 0) return false;
  snprintf(needle, sizeof needle, "\"%s\"", id);
  bool has = strstr(data, needle) != NULL;
  free(data);
  return has;
}

static bool api_addr_known(node *n, node *peer) {
  char addr[HG_ADDR_MAX], want[64];
  snprintf(want, sizeof want, "127.0.0.1:%d", peer->port + 1);
  return hg_cluster_api_addr(n->c, peer->id, addr) == 0 && strcmp(addr, want) == 0;
}

static hg_dirent dirent(const char *sb, uint64_t epoch, const char *state) {
  hg_dirent e;
  memset(&e, 0, sizeof e);
  snprintf(e.sandbox, sizeof e.sandbox, "%s", sb);
  e.epoch = epoch;
  snprintf(e.state, sizeof e.state, "%s", state);
  snprintf(e.template_ref, sizeof e.template_ref, "base:1");
  e.gen = 3;
  return e;
}

static bool dir_state_is(node *n, const char *sb, const char *state) {
  hg_dirent e;
  return hg_cluster_dir_get(n->c, sb, &e) == 0 && strcmp(e.state, state) == 0;
}

static bool dir_epoch_is(node *n, const char *sb, uint64_t epoch) {
  hg_dirent e;
  return hg_cluster_dir_get(n->c, sb, &e) == 0 && e.epoch == epoch;
}

/* Sandbox workers publish from the thread pool: puts from another thread. */
#define BULK 300

static void *bulk_put(void *arg) {
  hg_cluster *c = arg;
  for (int i = 0; i < BULK; i++) {
    char sb[32];
    snprintf(sb, sizeof sb, "sb-%016x", 0x1000 + i);
    hg_dirent e = dirent(sb, 1, i % 10 ? "suspended" : "deleted");
    if (hg_cluster_dir_put(c, &e) < 0) return (void *)1;
  }
  return NULL;
}

static bool has_bulk(node *n) {
  for (int i = 0; i < BULK; i++) {
    char sb[32];
    snprintf(sb, sizeof sb, "sb-%016x", 0x1000 + i);
    if (!dir_state_is(n, sb, i % 10 ? "suspended" : "deleted")) return false;
  }
  return true;
}

/* ---- one writer at a time per directory entry ---- */

/* Two writers of one entry, as in hangard: the manager publishes a state
 * change (keeping the holders of the same generation and epoch) and the
 * replicator adds a holder. The first one's edit is held open until the
 * second one has called in; both changes must be in the result. */
typedef struct interleave {
  hg_cluster *c;
  const char *sandbox;
  hg_cluster_dir_fn first, second;
  _Atomic int stage; /* 1: first inside its edit, 2: second calling */
  int rc_first, rc_second;
} interleave;

static int state_change(void *arg, hg_dirent *e, bool exists) {
  hg_dirent next = dirent(e->sandbox, 1, "suspended");
  if (exists && e->gen == next.gen && e->epoch == next.epoch) {
    memcpy(next.holders, e->holders, sizeof next.holders);
    next.nholders = e->nholders;
  }
  *e = next;
  return 1;
}

static int holder_add(void *arg, hg_dirent *e, bool exists) {
  if (!exists || e->epoch != 1 || e->gen != 3) return 0;
  snprintf(e->holders[e->nholders++], sizeof e->holders[0], "n-x");
  return 1;
}

static int leave_alone(void *arg, hg_dirent *e, bool exists) {
  return 0;
}

static int refuse(void *arg, hg_dirent *e, bool exists) {
  return -EIO;
}

static int held_open(interleave *il, hg_cluster_dir_fn fn, hg_dirent *e, bool exists) {
  il->stage = 1;
  while (il->stage != 2) usleep(1000);
  usleep(100 * 1000); /* the second is now waiting for the directory */
  return fn(il, e, exists);
}

static int first_held(void *arg, hg_dirent *e, bool exists) {
  interleave *il = arg;
  return held_open(il, il->first, e, exists);
}

static void *run_first(void *arg) {
  interleave *il = arg;
  il->rc_first = hg_cluster_dir_update(il->c, il->sandbox, first_held, il);
  return NULL;
}

/* Puts sb running, runs first and second interleaved on it; the entry after. */
static hg_dirent interleave_run(hg_cluster *c, const char *sb, hg_cluster_dir_fn first,
                                hg_cluster_dir_fn second) {
  hg_dirent e = dirent(sb, 1, "running");
  assert_int_equal(hg_cluster_dir_put(c, &e), 0);
  interleave il = {.c = c, .sandbox = sb, .first = first, .second = second};
  pthread_t th;
  assert_int_equal(pthread_create(&th, NULL, run_first, &il), 0);
  while (il.stage != 1) usleep(1000);
  il.stage = 2;
  il.rc_second = hg_cluster_dir_update(c, sb, second, &il);
  pthread_join(th, NULL);
  assert_int_equal(il.rc_first, 0);
  assert_int_equal(il.rc_second, 0);
  assert_int_equal(hg_cluster_dir_get(c, sb, &e), 0);
  return e;
}

static void interleaved_dir_updates_both_survive(void **state) {
  node a = {0};
  node_start(&a, "n-a", NULL);
  /* The state change reads first, the holder comes while it writes; then
   * the other way round. */
  hg_dirent got[2] = {
      interleave_run(a.c, "sb-00000000000000d1", state_change, holder_add),
      interleave_run(a.c, "sb-00000000000000d2", holder_add, state_change)};
  for (int i = 0; i < 2; i++) {
    assert_string_equal(got[i].state, "suspended");
    assert_int_equal(got[i].nholders, 1);
    assert_string_equal(got[i].holders[0], "n-x");
    assert_string_equal(got[i].owner, "n-a");
  }
  hg_dirent e = got[1];

  /* 0 leaves the entry alone, an error comes back as it is; an entry
   * that does not exist is offered empty, under its key. */
  uint64_t version = e.version;
  assert_int_equal(hg_cluster_dir_update(a.c, e.sandbox, leave_alone, NULL), 0);
  assert_int_equal(hg_cluster_dir_update(a.c, e.sandbox, refuse, NULL), -EIO);
  assert_int_equal(hg_cluster_dir_get(a.c, e.sandbox, &e), 0);
  assert_int_equal(e.version, version);
  assert_int_equal(hg_cluster_dir_update(a.c, "sb-00000000000000d3", holder_add, NULL),
                   0);
  assert_int_equal(hg_cluster_dir_get(a.c, "sb-00000000000000d3", &e), -ENOENT);
  assert_int_equal(hg_cluster_dir_update(a.c, "sb-00000000000000d3", state_change, NULL),
                   0);
  assert_int_equal(hg_cluster_dir_get(a.c, "sb-00000000000000d3", &e), 0);
  assert_string_equal(e.state, "suspended");
  assert_int_equal(hg_cluster_dir_update(a.c, "", state_change, NULL), -EINVAL);
  node_close(&a);
}

/* ---- tombstones ---- */

/* A tombstone past its time (10 min by default, by the deleter's clock)
 * is not taken from a peer: else two nodes that swept it at different
 * times hand it back and forth, and a holder back from a long absence
 * learns of the delete from a tombstone that should be gone. One of an
 * entry a node still knows is taken, though: the delete wins over the
 * live entry it supersedes. */
static void expired_tombstones_are_not_taken_back(void **state) {
  node a = {0}, b = {0};
  node_start(&a, "n-a", NULL);
  node_start(&b, "n-b", a.gossip);
  assert_true(WAIT_UNTIL(alive(&a) == 2 && alive(&b) == 2, 5000));
  const char *live = "sb-00000000000000e1", *gone = "sb-00000000000000e2",
             *fresh = "sb-00000000000000e3";
  hg_dirent e = dirent(live, 1, "suspended");
  assert_int_equal(hg_cluster_dir_put(a.c, &e), 0);
  assert_true(WAIT_UNTIL(dir_state_is(&b, live, "suspended"), 5000));

  int64_t long_ago = hg_wall_ns() / 1000000 - 3600 * 1000;
  e = dirent(live, 1, "deleted");
  e.updated_ms = long_ago;
  assert_int_equal(hg_cluster_dir_put(a.c, &e), 0);
  e = dirent(gone, 1, "deleted");
  e.updated_ms = long_ago;
  assert_int_equal(hg_cluster_dir_put(a.c, &e), 0);
  e = dirent(fresh, 1, "deleted");
  assert_int_equal(hg_cluster_dir_put(a.c, &e), 0);

  assert_true(WAIT_UNTIL(dir_state_is(&b, fresh, "deleted"), 5000));
  /* deleted (or already swept, being that old): no longer suspended */
  assert_true(WAIT_UNTIL(!dir_state_is(&b, live, "suspended"), 5000));
  run_ms(500); /* a push-pull or two more */
  assert_int_equal(hg_cluster_dir_get(b.c, gone, &e), -ENOENT);
  assert_int_equal(hg_cluster_dir_get(a.c, gone, &e), -ENOENT);
  node_close(&b);
  node_close(&a);
}

/* ---- bursts ---- */

#define BURST 1000

static bool has_burst(node *n) {
  for (int i = 0; i < BURST; i++) {
    char sb[32];
    snprintf(sb, sizeof sb, "sb-%016x", 0x2000 + i);
    if (!dir_state_is(n, sb, "suspended")) return false;
  }
  return true;
}

/* Two nodes whose gossip and periodic push-pull are slowed so far that
 * without a burst's push-pull entries ride on probes alone (~10 s). */
static void slow_gossip_pair(node *a, node *b) {
  swim_override.gossip_interval_ms = 60000;
  swim_override.push_pull_interval_ms = 600000;
  node_start(a, "n-a", NULL);
  node_start(b, "n-b", a->gossip);
  memset(&swim_override, 0, sizeof swim_override);
  assert_true(WAIT_UNTIL(alive(a) == 2 && alive(b) == 2, 5000));
}

/* A burst of changes (a failover adopting hundreds of sandboxes) reaches
 * the peers by push-pull, not only a handful of entries a datagram. */
static void a_burst_of_directory_changes_goes_by_push_pull(void **state) {
  node a = {0}, b = {0};
  slow_gossip_pair(&a, &b);
  assert_true(WAIT_UNTIL(stats(&a).push_pulls > 0, 5000)); /* the join's */
  uint64_t before = stats(&a).push_pulls;
  for (int i = 0; i < BURST; i++) {
    char sb[32];
    snprintf(sb, sizeof sb, "sb-%016x", 0x2000 + i);
    hg_dirent e = dirent(sb, 1, "suspended");
    assert_int_equal(hg_cluster_dir_put(a.c, &e), 0);
  }
  assert_true(WAIT_UNTIL(has_burst(&b), 3000));
  assert_true(WAIT_UNTIL(stats(&a).push_pulls > before, 2000));
  node_close(&b);
  node_close(&a);
}

/* The tail of a burst (the last few adoptions of a failover, fewer than
 * a burst) follows it by push-pull too, not by probes alone. */
static void a_bursts_tail_goes_by_push_pull_too(void **state) {
  node a = {0}, b = {0};
  slow_gossip_pair(&a, &b);
  char sb[32];
  for (int i = 0; i < 64; i++) {
    snprintf(sb, sizeof sb, "sb-%016x", 0x3000 + i);
    hg_dirent e = dirent(sb, 1, "suspended");
    assert_int_equal(hg_cluster_dir_put(a.c, &e), 0);
  }
  assert_true(WAIT_UNTIL(dir_state_is(&b, sb, "suspended"), 3000));
  run_ms(300); /* the burst's push-pulls are done */
  uint64_t before = stats(&a).push_pulls;
  for (int i = 0; i < 31; i++) { /* the tail: short of a burst, too long for a probe */
    snprintf(sb, sizeof sb, "sb-%016x", 0x3100 + i);
    hg_dirent e = dirent(sb, 1, "suspended");
    assert_int_equal(hg_cluster_dir_put(a.c, &e), 0);
  }
  assert_true(WAIT_UNTIL(dir_state_is(&b, sb, "suspended"), 1000));
  assert_true(WAIT_UNTIL(stats(&a).push_pulls > before, 500));
  node_close(&b);
  node_close(&a);
}

/* ---- lease datagrams ---- */

typedef struct lease_sink {
  unsigned n;
  size_t len;
  uint8_t last[HG_CLUSTER_LEASE_MAX];
} lease_sink;

static void on_lease_datagram(void *ud, const void *data, size_t len) {
  lease_sink *k = ud;
  k->n++;
  k->len = len;
  memcpy(k->last, data, len);
}

/* n-a and n-b, alive to each other; what n-b receives is counted. */
static lease_sink *lease_pair(node *a, node *b) {
  static lease_sink sink;
  memset(&sink, 0, sizeof sink);
  node_start(a, "n-a", NULL);
  node_start(b, "n-b", a->gossip);
  assert_true(WAIT_UNTIL(alive(a) == 2 && alive(b) == 2, 8000));
  hg_cluster_on_lease(b->c, on_lease_datagram, &sink);
  return &sink;
}

/* A lease batch goes to the node it names, sealed, whole up to the
 * datagram limit (far above a swim datagram); one past it is refused, and
 * a node swim does not know is an error rather than a silent drop. */
static void lease_datagrams_reach_the_named_node(void **state) {
  node a = {0}, b = {0};
  lease_sink *sink = lease_pair(&a, &b);
  static uint8_t payload[HG_CLUSTER_LEASE_MAX - 1];
  for (size_t i = 0; i < sizeof payload; i++) payload[i] = (uint8_t)(i * 7);
  assert_int_equal(hg_cluster_lease_send(a.c, "n-b", payload, sizeof payload), 0);
  assert_true(WAIT_UNTIL(sink->n == 1, 2000));
  assert_int_equal(sink->len, sizeof payload);
  assert_memory_equal(sink->last, payload, sizeof payload);
  assert_int_equal(hg_cluster_lease_send(a.c, "n-b", "x", 1), 0);
  assert_true(WAIT_UNTIL(sink->n == 2 && sink->len == 1, 2000));
  static uint8_t over[HG_CLUSTER_LEASE_MAX];
  assert_int_equal(hg_cluster_lease_send(a.c, "n-b", over, sizeof over), -EMSGSIZE);
  assert_int_equal(hg_cluster_lease_send(a.c, "n-zz", "x", 1), -ENOENT);
  run_ms(200);
  assert_int_equal(sink->n, 2);
  assert_int_equal(alive(&b), 2); /* swim carries on beside them */
  node_close(&b);
  node_close(&a);
}

/* A burst of full lease datagrams while the receiver's loop is busy (here:
 * not run at all) waits in its socket: the buffers hold a mass failover's
 * claims and answers, not the kernel default's two or three datagrams. */
static void a_burst_of_lease_datagrams_waits_in_the_socket(void **state) {
  enum { DATAGRAMS = 48 }; /* ~2.9 MB */
  node a = {0}, b = {0};
  lease_sink *sink = lease_pair(&a, &b);
  static uint8_t payload[HG_CLUSTER_LEASE_MAX - 1];
  for (int i = 0; i < DATAGRAMS; i++)
    assert_int_equal(hg_cluster_lease_send(a.c, "n-b", payload, sizeof payload), 0);
  assert_true(WAIT_UNTIL(sink->n == DATAGRAMS, 3000));
  node_close(&b);
  node_close(&a);
}

/* ---- metrics ---- */

static void metrics_are_prometheus_text(void **state) {
  node a = {0};
  node_start(&a, "n-a", NULL);
  hg_buf b;
  hg_buf_init(&b, 1 << 20);
  hg_cluster_metrics(a.c, &b);
  assert_int_equal(hg_buf_append(&b, "", 1), 0);
  const char *s = (const char *)b.data;
  assert_non_null(strstr(s, "# TYPE hangar_cluster_members gauge\n"));
  assert_non_null(strstr(s, "hangar_cluster_members{state=\"alive\"} 1\n"));
  assert_non_null(strstr(s, "hangar_cluster_dropped_total{reason=\"auth\"} 0\n"));
  assert_non_null(strstr(s, "hangar_cluster_swim_events_total{event=\"probe\"} "));
  assert_non_null(strstr(s, "hangar_cluster_health 0\n"));
  hg_buf_free(&b);
  node_close(&a);
}

/* ---- raw UDP: garbage sender and the replay relay ---- */

typedef struct relay {
  uv_udp_t udp;
  int port;
  struct sockaddr_in target;
  uint8_t captured[2048];
  size_t captured_len;
  unsigned forwarded;
} relay;

static void relay_alloc(uv_handle_t *h, size_t s, uv_buf_t *b) {
  static char buf[2048];
  *b = uv_buf_init(buf, sizeof buf);
}

static void relay_recv(uv_udp_t *u, ssize_t n, const uv_buf_t *b,
                       const struct sockaddr *a, unsigned flags) {
  relay *r = u->data;
  if (n <= 0 || !r->target.sin_port) return;
  uv_buf_t out = uv_buf_init(b->base, (unsigned)n);
  if (uv_udp_try_send(&r->udp, &out, 1, (const struct sockaddr *)&r->target) != n) return;
  r->forwarded++;
  if (!r->captured_len) { /* one that r has seen: sending it again is a replay */
    memcpy(r->captured, b->base, (size_t)n);
    r->captured_len = (size_t)n;
  }
}

static void udp_open(uv_udp_t *u, int *port, void *data) {
  struct sockaddr_in sa;
  assert_int_equal(uv_udp_init(&loop, u), 0);
  u->data = data;
  for (int i = 0; i < 20; i++) {
    *port = random_port();
    uv_ip4_addr("127.0.0.1", *port, &sa);
    if (uv_udp_bind(u, (struct sockaddr *)&sa, 0) == 0) return;
  }
  fail_msg("no free UDP port");
}

static void send_to(uv_udp_t *u, int port, const void *data, size_t len) {
  struct sockaddr_in sa;
  uv_ip4_addr("127.0.0.1", port, &sa);
  uv_buf_t b = uv_buf_init((char *)data, (unsigned)len);
  assert_true(uv_udp_try_send(u, &b, 1, (struct sockaddr *)&sa) == (int)len);
}

static size_t seal_with(const char *key, const void *plain, size_t len, uint8_t *out,
                        size_t cap) {
  hg_keyring *kr;
  size_t n = 0;
  assert_int_equal(hg_keyring_new("hangar", &kr), 0);
  assert_int_equal(hg_keyring_parse(kr, key), 0);
  assert_int_equal(hg_seal(kr, plain, len, out, cap, &n), 0);
  hg_keyring_free(kr);
  return n;
}

static void on_handle_closed(uv_handle_t *h) {
  *(bool *)h->data = true;
}

static void handle_close(uv_handle_t *h) {
  bool done = false;
  h->data = &done;
  uv_close(h, on_handle_closed);
  assert_true(WAIT_UNTIL(done, 1000));
}

/* ---- tests ---- */

/* Three nodes join through one seed, see each other alive with metadata,
 * share directory entries, detect a crash, and see a graceful leave. */
static void join_directory_crash_and_leave(void **state) {
  static node a, b, c; /* static: teardown reaches them after a failed assert */
  a = b = c = (node){0};
  node_start(&a, "n-a", NULL);
  /* A directory too big for gossip to carry soon: joiners get it by
   * push-pull (zstd-compressed, it is well above 4 KiB). */
  pthread_t th;
  void *th_rc;
  assert_int_equal(pthread_create(&th, NULL, bulk_put, a.c), 0);
  assert_int_equal(pthread_join(th, &th_rc), 0);
  assert_null(th_rc);
  assert_true(has_bulk(&a));
  node_start(&b, "n-b", a.gossip);
  node_start(&c, "n-c", a.gossip);
  assert_true(WAIT_UNTIL(alive(&a) == 3 && alive(&b) == 3 && alive(&c) == 3, 8000));
  assert_true(WAIT_UNTIL(has_bulk(&b) && has_bulk(&c), 3000));
  assert_true(stats(&c).push_pulls >= 1);
  assert_true(WAIT_UNTIL(api_addr_known(&b, &c) && api_addr_known(&c, &b) &&
                             api_addr_known(&a, &b) && api_addr_known(&b, &a),
                         5000));
  json_t *m = member(&c, "n-b");
  assert_non_null(m);
  assert_string_equal(
      json_string_value(json_array_get(json_object_get(m, "templates"), 0)), "base:1");
  assert_string_equal(
      json_string_value(json_object_get(json_object_get(m, "vmm"), "cpu_class")), "tcg");
  assert_false(json_is_true(json_object_get(m, "self")));
  assert_true(json_is_true(json_object_get(m, "roster")));
  json_decref(m);

  /* Directory: b publishes, a and c learn it; newer wins; stale epochs fenced. */
  hg_dirent e = dirent("sb-00000000000000b1", 1, "running");
  assert_int_equal(hg_cluster_dir_put(b.c, &e), 0);
  assert_true(WAIT_UNTIL(
      dir_state_is(&a, e.sandbox, "running") && dir_state_is(&c, e.sandbox, "running"),
      3000));
  hg_dirent got;
  assert_int_equal(hg_cluster_dir_get(c.c, e.sandbox, &got), 0);
  assert_string_equal(got.owner, "n-b");
  assert_int_equal(got.epoch, 1);
  e = dirent("sb-00000000000000b1", 1, "paused");
  assert_int_equal(hg_cluster_dir_put(b.c, &e), 0);
  assert_true(WAIT_UNTIL(dir_state_is(&c, e.sandbox, "paused"), 3000));
  e = dirent("sb-00000000000000b1", 2, "running");
  snprintf(e.owner, sizeof e.owner, "n-c");
  assert_int_equal(hg_cluster_dir_put(c.c, &e), 0);
  assert_true(
      WAIT_UNTIL(dir_epoch_is(&a, e.sandbox, 2) && dir_epoch_is(&b, e.sandbox, 2), 3000));
  e = dirent("sb-00000000000000b1", 1, "paused"); /* b, fenced at epoch 1 */
  assert_int_equal(hg_cluster_dir_put(b.c, &e), -ESTALE);
  assert_int_equal(hg_cluster_dir_get(a.c, "sb-0000000000000000", &got), -ENOENT);
  json_t *d = hg_cluster_dir_json(a.c), *x;
  size_t i, found = 0;
  assert_int_equal(json_array_size(d), BULK + 1);
  json_array_foreach(d, i, x) {
    if (strcmp(json_string_value(json_object_get(x, "sandbox")), "sb-00000000000000b1") !=
        0)
      continue;
    found++;
    assert_string_equal(json_string_value(json_object_get(x, "owner")), "n-c");
    assert_int_equal(json_integer_value(json_object_get(x, "epoch")), 2);
  }
  assert_int_equal(found, 1);
  json_decref(d);

  /* Roster and decommission rules. */
  assert_int_equal(hg_cluster_decommission(a.c, "n-b"), -EBUSY);
  assert_int_equal(hg_cluster_decommission(a.c, "n-a"), -EBUSY);
  assert_int_equal(hg_cluster_decommission(a.c, "n-zz"), -ENOENT);
  assert_true(WAIT_UNTIL(roster_file_has(&a, "n-b") && roster_file_has(&a, "n-c"), 3000));

  /* Crash c (no leave): both others declare it dead. */
  int64_t t0 = hg_now_ms();
  node_crash(&c);
  assert_true(WAIT_UNTIL(sees(&a, "n-c", "dead") && sees(&b, "n-c", "dead"), 10000));
  print_message("crash detected in %lld ms\n", (long long)(hg_now_ms() - t0));
  assert_int_equal(stats(&a).members_alive, 2);

  /* Graceful close of b: a sees it left, soon. */
  t0 = hg_now_ms();
  node_close(&b);
  assert_true(WAIT_UNTIL(sees(&a, "n-b", "left"), 2000));
  print_message("leave seen in %lld ms\n", (long long)(hg_now_ms() - t0));

  /* Dead and left members leave the roster only by decommission. */
  assert_true(roster_file_has(&a, "n-c"));
  assert_int_equal(hg_cluster_decommission(a.c, "n-c"), 0);
  assert_int_equal(hg_cluster_decommission(a.c, "n-c"), -ENOENT);
  assert_true(WAIT_UNTIL(!roster_file_has(&a, "n-c"), 3000));
  assert_true(roster_file_has(&a, "n-b"));
  m = member(&a, "n-b");
  assert_true(json_is_true(json_object_get(m, "roster")));
  json_decref(m);
  node_close(&a);
}

/* A node with another key is never admitted; garbage, truncated,
 * oversized, wrongly sealed and replayed datagrams are counted. */
static void strangers_garbage_and_replays_are_dropped(void **state) {
  static node a, r, d;
  static relay rl;
  a = r = d = (node){0};
  rl = (relay){0};
  node_start(&a, "n-a", NULL);

  /* r sits behind the relay: peers send to the relay, which copies the
   * first datagram and forwards everything to r. */
  udp_open(&rl.udp, &rl.port, &rl);
  assert_int_equal(uv_udp_recv_start(&rl.udp, relay_alloc, relay_recv), 0);
  node_start_ex(&r, "n-r", a.gossip, KEY, rl.port, NULL);
  uv_ip4_addr("127.0.0.1", r.port, &rl.target);
  assert_true(WAIT_UNTIL(alive(&a) == 2 && alive(&r) == 2 && rl.forwarded > 3, 8000));
  assert_true(rl.captured_len > 0);

  /* Replay the captured datagram straight to r. */
  uint64_t before = stats(&r).dropped_replay;
  send_to(&rl.udp, r.port, rl.captured, rl.captured_len);
  assert_true(WAIT_UNTIL(stats(&r).dropped_replay == before + 1, 2000));

  /* A stranger with another key. */
  uint64_t auth0 = stats(&a).dropped_auth;
  node_start_ex(&d, "n-d", a.gossip, BAD_KEY, 0, NULL);
  assert_true(WAIT_UNTIL(stats(&a).dropped_auth > auth0, 3000));
  run_ms(2500); /* a rejoin round from d as well */
  assert_int_equal(alive(&a), 2);
  assert_int_equal(alive(&d), 1);
  json_t *m = member(&a, "n-d");
  assert_null(m);
  assert_int_equal(stats(&d).members_alive, 1);

  /* Raw datagrams to a. */
  static uv_udp_t probe;
  int probe_port;
  udp_open(&probe, &probe_port, NULL);
  hg_cluster_stats s0 = stats(&a);
  const char garbage[] = "GET / HTTP/1.0\r\n\r\n";
  send_to(&probe, a.port, garbage, sizeof garbage);
  uint8_t trunc[20] = {1, 0x42};
  send_to(&probe, a.port, trunc, sizeof trunc);
  uint8_t sealed[256];
  /* nil, then bytes: msgpack, but no message (0xc1 would be a lease datagram) */
  const char notmsgpack[] = "\xc0\xc1\xc1 not msgpack";
  size_t n = seal_with(KEY, notmsgpack, sizeof notmsgpack, sealed, sizeof sealed);
  send_to(&probe, a.port, sealed, n);
  /* A lease datagram where nobody takes them. */
  const char lease[] = "\xc1 a lease batch";
  n = seal_with(KEY, lease, sizeof lease, sealed, sizeof sealed);
  send_to(&probe, a.port, sealed, n);
  assert_true(WAIT_UNTIL(stats(&a).dropped_malformed >= s0.dropped_malformed + 4, 2000));
  /* Bigger than a swim datagram, sealed right: still not swim's. */
  static uint8_t plain_big[1500], big[1500 + 64];
  memset(plain_big, 0x80, sizeof plain_big);
  n = seal_with(KEY, plain_big, sizeof plain_big, big, sizeof big);
  uint64_t mal1 = stats(&a).dropped_malformed;
  send_to(&probe, a.port, big, n);
  assert_true(WAIT_UNTIL(stats(&a).dropped_malformed >= mal1 + 1, 2000));
  n = seal_with(BAD_KEY, notmsgpack, sizeof notmsgpack, sealed, sizeof sealed);
  uint64_t auth1 = stats(&a).dropped_auth;
  send_to(&probe, a.port, sealed, n);
  assert_true(WAIT_UNTIL(stats(&a).dropped_auth >= auth1 + 1, 2000));
  assert_int_equal(stats(&a).dropped_replay, s0.dropped_replay);
  assert_int_equal(alive(&a), 2); /* and the cluster carries on */

  handle_close((uv_handle_t *)&probe);
  node_close(&d);
  node_close(&r);
  node_close(&a);
  handle_close((uv_handle_t *)&rl.udp);
}

/* Placement: here while there is room, then a peer, then -ENOSPC with a
 * reason that says what was missing. */
static void placement_prefers_local_then_peers(void **state) {
  static node a, b;
  a = b = (node){0};
  node_start(&a, "n-a", NULL);
  node_start_ex(&b, "n-b", a.gossip, KEY, 0, "z1");
  assert_true(WAIT_UNTIL(alive(&a) == 2 && alive(&b) == 2, 8000));

  hg_node_meta ma, mb;
  fill_meta(&ma, "n-a", a.port, "py:3", 2, 0, 4096, 0);
  fill_meta(&mb, "n-b", b.port, "py:3", 2, 0, 8192, 1024);
  snprintf(mb.labels[0], sizeof mb.labels[0], "gpu=no");
  mb.nlabels = 1;
  hg_cluster_set_meta(a.c, &ma);
  hg_cluster_set_meta(b.c, &mb);

  char id[HG_NODE_ID_MAX], addr[HG_ADDR_MAX], why[256];
  hg_place_req req = {.template_ref = "py:3", .vcpus = 1, .memory_mib = 512};
  assert_int_equal(hg_cluster_place(a.c, &req, id, addr, why), 1);
  req.template_ref = "py"; /* py:latest: nobody has it */
  assert_int_equal(hg_cluster_place(a.c, &req, id, addr, why), -ENOSPC);
  assert_string_equal(why, "no alive node has template py:latest");
  req.template_ref = "py:3";

  /* a is full: b gets it once b's metadata arrived. */
  ma.sandboxes_total = 2;
  hg_cluster_set_meta(a.c, &ma);
  assert_true(WAIT_UNTIL(hg_cluster_place(a.c, &req, id, addr, why) == 0, 5000));
  assert_string_equal(id, "n-b");
  char want[64];
  snprintf(want, sizeof want, "127.0.0.1:%d", b.port + 1);
  assert_string_equal(addr, want);

  /* Constraints. */
  req.zone = "z9";
  assert_int_equal(hg_cluster_place(a.c, &req, id, addr, why), -ENOSPC);
  assert_non_null(strstr(why, "zone z9"));
  req.zone = "z1";
  req.label = "gpu=no";
  assert_int_equal(hg_cluster_place(a.c, &req, id, addr, why), 0);
  req.label = "gpu=yes";
  assert_int_equal(hg_cluster_place(a.c, &req, id, addr, why), -ENOSPC);
  assert_non_null(strstr(why, "label gpu=yes"));
  req.zone = req.label = NULL;
  req.memory_mib = 16384; /* nobody has that much free */
  assert_int_equal(hg_cluster_place(a.c, &req, id, addr, why), -ENOSPC);
  assert_string_equal(why, "every node with template py:3 is full (2 nodes)");
  req.memory_mib = 512;

  /* Draining b: nowhere left. */
  mb.draining = true;
  hg_cluster_set_meta(b.c, &mb);
  assert_true(WAIT_UNTIL(hg_cluster_place(a.c, &req, id, addr, why) == -ENOSPC, 5000));
  print_message("reason: %s\n", why);

  /* The members JSON carries the metadata. */
  json_t *m = member(&a, "n-b");
  assert_true(json_is_true(json_object_get(m, "draining")));
  assert_string_equal(json_string_value(json_object_get(m, "zone")), "z1");
  assert_int_equal(
      json_integer_value(json_object_get(json_object_get(m, "capacity"), "memory_mib")),
      8192);
  json_decref(m);
  node_close(&b);
  node_close(&a);
}

/* A restarted node comes back with a higher incarnation, and finds the
 * cluster through its roster when started without seeds. */
static void restart_raises_incarnation_and_rejoins_from_roster(void **state) {
  static node a, b;
  a = b = (node){0};
  node_start(&a, "n-a", NULL);
  node_start(&b, "n-b", a.gossip);
  assert_true(WAIT_UNTIL(alive(&a) == 2 && alive(&b) == 2, 8000));
  assert_true(WAIT_UNTIL(roster_file_has(&b, "n-a"), 3000));
  uint64_t inc = incarnation_of(&a, "n-b");
  assert_true(inc > 0);

  node_crash(&b);
  assert_true(WAIT_UNTIL(sees(&a, "n-b", "dead"), 10000));
  node_start(&b, "n-b", NULL); /* same state dir, no seeds */
  assert_true(WAIT_UNTIL(sees(&a, "n-b", "alive") && alive(&b) == 2, 6000));
  uint64_t inc2 = incarnation_of(&a, "n-b");
  print_message("incarnation %llu -> %llu\n", (unsigned long long)inc,
                (unsigned long long)inc2);
  assert_true(inc2 > inc);
  assert_true(incarnation_of(&b, "n-b") > inc);
  node_close(&b);
  node_close(&a);

  /* A roster that cannot be read stops the start: majorities count it. */
  char dir[256], path[300];
  snprintf(dir, sizeof dir, "%s/t%d-bad", tmp_root, test_no);
  snprintf(path, sizeof path, "%s/roster.json", dir);
  assert_int_equal(hg_mkdir_p(dir, 0700), 0);
  assert_int_equal(hg_write_file_atomic(path, "{\"members\":[{\"id\":7}]}", 22), 0);
  hg_cluster_config cfg = {.node_id = "n-x",
                           .gossip = "127.0.0.1:1",
                           .cluster_key = KEY,
                           .profile = "local",
                           .state_dir = dir};
  hg_cluster *x = NULL;
  assert_int_equal(hg_cluster_new(&loop, &cfg, &x), -EPROTO);
  cfg.state_dir = NULL;
  cfg.cluster_key = "not hex";
  assert_int_equal(hg_cluster_new(&loop, &cfg, &x), -EINVAL);
  cfg.cluster_key = KEY;
  cfg.gossip = "localhost:7946"; /* numeric only */
  assert_int_equal(hg_cluster_new(&loop, &cfg, &x), -EINVAL);
  assert_null(x);
}

/* ---- peers and replica targets ---- */

/* Replication metadata: repl port = gossip port + 2, 4096 MiB with 1024 used. */
static void set_repl_meta(node *n, const char *zone, const char *cpu, bool draining,
                          bool repl) {
  hg_node_meta m;
  fill_meta(&m, n->id, n->port, "base:1", 0, 0, 4096, 1024);
  if (repl) snprintf(m.repl_addr, sizeof m.repl_addr, "127.0.0.1:%d", n->port + 2);
  snprintf(m.zone, sizeof m.zone, "%s", zone);
  snprintf(m.cpu_class, sizeof m.cpu_class, "%s", cpu);
  m.draining = draining;
  hg_cluster_set_meta(n->c, &m);
}

/* Four nodes, a and b in z1, c and d in z2, each a replication target for
 * the others: same CPU class, not draining, a replication address. */
static void set_all_eligible(node *a, node *b, node *c, node *d) {
  set_repl_meta(a, "z1", "tcg", false, true);
  set_repl_meta(b, "z1", "tcg", false, true);
  set_repl_meta(c, "z2", "tcg", false, true);
  set_repl_meta(d, "z2", "tcg", false, true);
}

/* True when n's copy of peer matches what set_repl_meta gave it. */
static bool peer_shows(node *n, node *peer, const char *zone, bool compatible,
                       bool draining, bool repl) {
  hg_cluster_peer p;
  if (hg_cluster_peer_get(n->c, peer->id, &p) < 0) return false;
  return strcmp(p.zone, zone) == 0 && p.compatible == compatible &&
         p.draining == draining && (p.repl_addr[0] != 0) == repl;
}

/* The model the targets must follow, written from the spec independently
 * of cluster.c: weight = first 8 bytes (big-endian) of SHA-256(key 0 id). */
static uint64_t model_weight(const char *key, const char *id) {
  uint8_t buf[256], h[EVP_MAX_MD_SIZE];
  unsigned hlen = 0;
  size_t kl = strlen(key), il = strlen(id);
  assert_true(kl + il + 1 <= sizeof buf);
  memcpy(buf, key, kl);
  buf[kl] = 0;
  memcpy(buf + kl + 1, id, il);
  assert_true(EVP_Digest(buf, kl + 1 + il, h, &hlen, EVP_sha256(), NULL));
  uint64_t w = 0;
  for (int i = 0; i < 8; i++) w = w << 8 | h[i];
  return w;
}

typedef struct model_peer {
  const char *id, *zone;
  uint64_t w;
  bool taken;
} model_peer;

static int model_cmp(const void *a, const void *b) {
  const model_peer *x = a, *y = b;
  return x->w != y->w ? (x->w > y->w ? -1 : 1) : strcmp(x->id, y->id);
}

/* Eligible peers, the zones already holding a copy; ids out in order. */
static size_t model_targets(const char *key, model_peer *v, size_t nv, const char **used,
                            size_t nused, size_t n, const char **out) {
  const char *zones[16];
  size_t nz = 0, k = 0;
  for (size_t i = 0; i < nused; i++) zones[nz++] = used[i];
  for (size_t i = 0; i < nv; i++) {
    v[i].w = model_weight(key, v[i].id);
    v[i].taken = false;
  }
  qsort(v, nv, sizeof *v, model_cmp);
  for (size_t i = 0; i < nv && k < n; i++) {
    bool seen = false;
    for (size_t j = 0; j < nz && !seen; j++) seen = strcmp(zones[j], v[i].zone) == 0;
    if (seen) continue;
    zones[nz++] = v[i].zone;
    v[i].taken = true;
    out[k++] = v[i].id;
  }
  for (size_t i = 0; i < nv && k < n; i++)
    if (!v[i].taken) out[k++] = v[i].id;
  return k;
}

static void assert_targets(node *n, const char *key, const char *const *ex, size_t nex,
                           size_t want_n, model_peer *v, size_t nv, const char **used,
                           size_t nused) {
  hg_cluster_peer t[8], again[8];
  const char *want[8];
  size_t k = hg_cluster_replica_targets(n->c, key, ex, nex, want_n, t);
  size_t wk = model_targets(key, v, nv, used, nused, want_n, want);
  assert_int_equal(k, wk);
  for (size_t i = 0; i < k; i++) assert_string_equal(t[i].id, want[i]);
  /* Same membership, same answer. */
  assert_int_equal(hg_cluster_replica_targets(n->c, key, ex, nex, want_n, again), k);
  for (size_t i = 0; i < k; i++) assert_string_equal(again[i].id, t[i].id);
}

/* A worker thread reading peers and targets while the loop changes them. */
typedef struct watcher {
  pthread_t th;
  hg_cluster *c;
  const char *self;
  bool running, stop, full, bad;
  char why[160];
  unsigned long calls;
  hg_cluster_peer last[4];
} watcher;

static watcher watch; /* static: teardown stops it after a failed assert */

static void watch_fail(watcher *w, const char *why, const char *id) {
  if (!__atomic_load_n(&w->bad, __ATOMIC_ACQUIRE))
    snprintf(w->why, sizeof w->why, "%.80s: %.63s", why, id);
  __atomic_store_n(&w->bad, true, __ATOMIC_RELEASE);
}

static void watch_round(watcher *w) {
  hg_cluster_peer p[8], t[8];
  size_t n = hg_cluster_peers(w->c, p, 8);
  for (size_t i = 0; i < n; i++) {
    if (strcmp(p[i].id, w->self) == 0) watch_fail(w, "self listed", p[i].id);
    if (i && strcmp(p[i - 1].id, p[i].id) >= 0) watch_fail(w, "unsorted", p[i].id);
    if (!p[i].alive) watch_fail(w, "not alive", p[i].id);
  }
  if (hg_cluster_peers(w->c, p + 4, 1) > 1) watch_fail(w, "past cap", "");
  bool full = n == 3;
  for (size_t i = 0; full && i < n; i++) full = p[i].repl_addr[0] != 0;
  if (full && !__atomic_load_n(&w->full, __ATOMIC_ACQUIRE)) {
    memcpy(w->last, p, 3 * sizeof *p);
    __atomic_store_n(&w->full, true, __ATOMIC_RELEASE);
  }
  size_t k = hg_cluster_replica_targets(w->c, "sb-watched", NULL, 0, 8, t);
  for (size_t i = 0; i < k; i++) {
    if (strcmp(t[i].id, w->self) == 0) watch_fail(w, "self a target", t[i].id);
    if (!t[i].alive || t[i].suspect || !t[i].compatible || t[i].draining ||
        !t[i].repl_addr[0])
      watch_fail(w, "ineligible target", t[i].id);
    for (size_t j = 0; j < i; j++)
      if (strcmp(t[i].id, t[j].id) == 0) watch_fail(w, "target twice", t[i].id);
  }
  w->calls++;
}

static void *watch_main(void *arg) {
  watcher *w = arg;
  while (!__atomic_load_n(&w->stop, __ATOMIC_ACQUIRE)) {
    watch_round(w);
    usleep(200);
  }
  return NULL;
}

static void watch_start(hg_cluster *c, const char *self) {
  watch = (watcher){.c = c, .self = self};
  assert_int_equal(pthread_create(&watch.th, NULL, watch_main, &watch), 0);
  watch.running = true;
}

static void watch_stop(void) {
  if (!watch.running) return;
  __atomic_store_n(&watch.stop, true, __ATOMIC_RELEASE);
  pthread_join(watch.th, NULL);
  watch.running = false;
}

/* Four nodes in two zones announce replication addresses. A worker thread
 * lists the three others once metadata arrived; targets follow the
 * rendezvous model, spread into the other zone first, honour exclusions,
 * skip draining, incompatible and repl-less peers, and drop a crashed peer
 * once it is declared dead. */
static void replica_targets_follow_rendezvous_zones_and_liveness(void **state) {
  static node a, b, c, d;
  a = b = c = d = (node){0};
  node_start_ex(&a, "n-a", NULL, KEY, 0, "z1");
  watch_start(a.c, "n-a"); /* reads while members arrive and change */
  node_start_ex(&b, "n-b", a.gossip, KEY, 0, "z1");
  node_start_ex(&c, "n-c", a.gossip, KEY, 0, "z2");
  node_start_ex(&d, "n-d", a.gossip, KEY, 0, "z2");
  set_all_eligible(&a, &b, &c, &d);
  assert_true(WAIT_UNTIL(
      alive(&a) == 4 && alive(&b) == 4 && alive(&c) == 4 && alive(&d) == 4, 8000));
  assert_true(WAIT_UNTIL(__atomic_load_n(&watch.full, __ATOMIC_ACQUIRE), 5000));
  assert_false(__atomic_load_n(&watch.bad, __ATOMIC_ACQUIRE));
  const char *ids[] = {"n-b", "n-c", "n-d"};
  node *peers[] = {&b, &c, &d};
  for (int i = 0; i < 3; i++) { /* what the worker thread saw */
    hg_cluster_peer *p = &watch.last[i];
    char want[64];
    assert_string_equal(p->id, ids[i]);
    snprintf(want, sizeof want, "127.0.0.1:%d", peers[i]->port + 2);
    assert_string_equal(p->repl_addr, want);
    snprintf(want, sizeof want, "127.0.0.1:%d", peers[i]->port + 1);
    assert_string_equal(p->api_addr, want);
    assert_string_equal(p->zone, i == 0 ? "z1" : "z2");
    assert_true(p->alive && !p->suspect && p->compatible && !p->draining);
    assert_int_equal(p->memory_free_mib, 3072);
  }
  hg_cluster_peer p;
  assert_int_equal(hg_cluster_peer_get(a.c, "n-zz", &p), -ENOENT);
  assert_int_equal(hg_cluster_peer_get(a.c, "n-a", &p), 0); /* ourselves */
  assert_true(p.alive && p.compatible);
  json_t *m = member(&a, "n-c");
  char want[64];
  snprintf(want, sizeof want, "127.0.0.1:%d", c.port + 2);
  assert_string_equal(
      json_string_value(json_object_get(json_object_get(m, "addresses"), "replication")),
      want);
  json_decref(m);

  /* The model, for many keys: the best of z2 first (z1 holds our copy). */
  model_peer v[3] = {{.id = "n-b", .zone = "z1"},
                     {.id = "n-c", .zone = "z2"},
                     {.id = "n-d", .zone = "z2"}};
  const char *z1[] = {"z1"}, *z12[] = {"z1", "z2"};
  unsigned first_c = 0, first_d = 0;
  for (int i = 0; i < 64; i++) {
    char key[32];
    hg_cluster_peer t[4];
    snprintf(key, sizeof key, "sb-%016x", 0x5000 + i);
    assert_targets(&a, key, NULL, 0, 3, v, 3, z1, 1);
    assert_targets(&a, key, NULL, 0, 1, v, 3, z1, 1);
    assert_int_equal(hg_cluster_replica_targets(a.c, key, NULL, 0, 3, t), 3);
    assert_string_equal(t[0].zone, "z2");
    first_c += strcmp(t[0].id, "n-c") == 0;
    first_d += strcmp(t[0].id, "n-d") == 0;
    /* Excluding a z2 holder: z2 counts as used, the rest by weight. */
    const char *ex[] = {"n-c", NULL, "n-a"};
    model_peer bd[2] = {{.id = "n-b", .zone = "z1"}, {.id = "n-d", .zone = "z2"}};
    assert_targets(&a, key, ex, 3, 3, bd, 2, z12, 2);
    const char *ex2[] = {"n-c", "n-d"};
    model_peer bonly[1] = {{.id = "n-b", .zone = "z1"}};
    assert_targets(&a, key, ex2, 2, 3, bonly, 1, z12, 2);
  }
  print_message("first target n-c %u, n-d %u of 64 keys\n", first_c, first_d);
  assert_true(first_c > 0 && first_d > 0 && first_c + first_d == 64);
  hg_cluster_peer none[1];
  assert_int_equal(hg_cluster_replica_targets(a.c, "k", NULL, 0, 0, none), 0);

  /* Draining, another CPU class, no replication address: not targets. */
  set_repl_meta(&b, "z1", "tcg", true, true);
  set_repl_meta(&c, "z2", "kvm-epyc", false, true);
  set_repl_meta(&d, "z2", "tcg", false, false);
  assert_true(WAIT_UNTIL(peer_shows(&a, &b, "z1", true, true, true) &&
                             peer_shows(&a, &c, "z2", false, false, true) &&
                             peer_shows(&a, &d, "z2", true, false, false),
                         5000));
  hg_cluster_peer t[4];
  assert_int_equal(hg_cluster_replica_targets(a.c, "sb-x", NULL, 0, 3, t), 0);
  assert_int_equal(hg_cluster_peers(a.c, t, 4), 3); /* still listed */
  /* Our own class decides compatibility, at once. */
  set_repl_meta(&a, "z1", "kvm-epyc", false, true);
  assert_int_equal(hg_cluster_replica_targets(a.c, "sb-x", NULL, 0, 3, t), 1);
  assert_string_equal(t[0].id, "n-c");
  assert_int_equal(hg_cluster_peer_get(a.c, "n-b", &p), 0);
  assert_false(p.compatible);

  /* All eligible again, then d crashes: gone from targets once dead,
   * never a replica target while suspect, but an acceptor target still,
   * after the alive ones (a group of two would not survive a death). */
  set_all_eligible(&a, &b, &c, &d);
  assert_true(WAIT_UNTIL(peer_shows(&a, &b, "z1", true, false, true) &&
                             peer_shows(&a, &c, "z2", true, false, true) &&
                             peer_shows(&a, &d, "z2", true, false, true),
                         5000));
  assert_targets(&a, "sb-y", NULL, 0, 3, v, 3, z1, 1);
  int64_t t0 = hg_now_ms();
  node_crash(&d);
  bool seen_suspect = false;
  while (hg_cluster_peer_get(a.c, "n-d", &p) == 0 && hg_now_ms() - t0 < 10000) {
    if (p.suspect) {
      seen_suspect = true;
      size_t k = hg_cluster_replica_targets(a.c, "sb-y", NULL, 0, 3, t);
      for (size_t i = 0; i < k; i++) assert_string_not_equal(t[i].id, "n-d");
      assert_int_equal(hg_cluster_acceptor_targets(a.c, "sb-y", 3, t), 3);
      assert_string_equal(t[2].id, "n-d");
    }
    uv_run(&loop, UV_RUN_ONCE);
  }
  print_message("n-d dead after %lld ms (suspect seen: %d)\n",
                (long long)(hg_now_ms() - t0), seen_suspect);
  assert_true(seen_suspect);
  assert_int_equal(hg_cluster_peer_get(a.c, "n-d", &p), -EHOSTDOWN);
  model_peer bc[2] = {{.id = "n-b", .zone = "z1"}, {.id = "n-c", .zone = "z2"}};
  assert_targets(&a, "sb-y", NULL, 0, 3, bc, 2, z1, 1);
  assert_int_equal(hg_cluster_acceptor_targets(a.c, "sb-y", 3, t), 2); /* dead: not one */
  assert_int_equal(hg_cluster_peers(a.c, t, 4), 2);
  run_ms(1100); /* a housekeeping rebuild keeps it so */
  assert_int_equal(hg_cluster_peer_get(a.c, "n-d", &p), -EHOSTDOWN);
  assert_targets(&a, "sb-y", NULL, 0, 3, bc, 2, z1, 1);

  watch_stop();
  print_message("worker thread: %lu rounds\n", watch.calls);
  if (watch.bad) fail_msg("worker thread: %s", watch.why);
  assert_true(watch.calls > 10);
  node_close(&c);
  node_close(&b);
  node_close(&a);
}

/* ---- setup ---- */

static int test_setup(void **state) {
  test_no++;
  return 0;
}

static void close_stray(uv_handle_t *h, void *arg) {
  if (h != (uv_handle_t *)&ticker && !uv_is_closing(h)) uv_close(h, NULL);
}

/* After a failed assert: crash what still runs, close raw sockets. */
static int test_teardown(void **state) {
  watch_stop();
  for (size_t i = 0; i < nstarted; i++) {
    node *n = started[i];
    if (!n->c) continue;
    hg_cluster_crash(n->c, on_closed, n);
    WAIT_UNTIL(n->closed, 3000);
    n->c = NULL;
  }
  nstarted = 0;
  uv_walk(&loop, close_stray, NULL);
  run_ms(50);
  return 0;
}

static int group_setup(void **state) {
  hg_log_set_level(getenv("HG_TEST_DEBUG") ? HG_LOG_DEBUG : HG_LOG_WARN);
  snprintf(tmp_root, sizeof tmp_root, "/tmp/test_cluster.XXXXXX");
  if (!mkdtemp(tmp_root)) return -1;
  if (uv_loop_init(&loop) < 0) return -1;
  uv_timer_init(&loop, &ticker);
  uv_timer_start(&ticker, on_tick, 20, 20);
  return 0;
}

static int group_teardown(void **state) {
  uv_close((uv_handle_t *)&ticker, NULL);
  uv_run(&loop, UV_RUN_DEFAULT);
  int rc = uv_loop_close(&loop);
  hg_rm_rf(tmp_root);
  return rc == 0 ? 0 : -1; /* a leaked handle fails the run */
}

#define T(name) cmocka_unit_test_setup_teardown(name, test_setup, test_teardown)

int main(void) {
  const struct CMUnitTest tests[] = {
      T(join_directory_crash_and_leave),
      T(strangers_garbage_and_replays_are_dropped),
      T(placement_prefers_local_then_peers),
      T(restart_raises_incarnation_and_rejoins_from_roster),
      T(replica_targets_follow_rendezvous_zones_and_liveness),
      T(interleaved_dir_updates_both_survive),
      T(expired_tombstones_are_not_taken_back),
      T(a_burst_of_directory_changes_goes_by_push_pull),
      T(a_bursts_tail_goes_by_push_pull_too),
      T(metrics_are_prometheus_text),
      T(lease_datagrams_reach_the_named_node),
      T(a_burst_of_lease_datagrams_waits_in_the_socket),
  };
  return cmocka_run_group_tests(tests, group_setup, group_teardown);
}
