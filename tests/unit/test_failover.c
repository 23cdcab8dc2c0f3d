/* test_failover: the survivors' side of a death (node/hangard/failover.c)
 * on a loop the test turns, with a cluster and a lifecycle of the test's
 * own: the members and the directory are JSON the test sets, and the
 * lifecycle's failover steps are recorded (a take can be held at a gate).
 * What a user relies on: each sandbox of a dead node is taken by exactly
 * one survivor, in proportion to capacity; one that ran runs again, and
 * before the suspended ones; one no alive node holds is listed, never
 * dropped; an owner only suspected, gone by leave, or dead since before
 * our start (not seen dying) keeps its sandboxes, and a holder only
 * suspected its share; a failed take waits
 * before it is tried again; close waits for the steps on workers.
 *
 * The thread pool has one thread (set before the loop's first work), so
 * the steps run in the order failover.c queues them. */
#include <errno.h>
#include <pthread.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "cluster/cluster.h"
#include "node/core/util.h"
#include "node/hangard/failover.h"

#define CALLS_MAX 4096

/* ---- the cluster failover.c sees -------------------------------------------------- */

struct hg_cluster {
  hg_cluster_member_fn fn;
  void *ud;
};

static json_t *members;   /* [{"id", "state", "self", "capacity": {"memory_mib"}}] */
static json_t *directory; /* [{"sandbox", "owner", "state", "gen", "holders"}] */

json_t *hg_cluster_members_json(hg_cluster *c) {
  (void)c;
  return json_deep_copy(members);
}

json_t *hg_cluster_dir_json(hg_cluster *c) {
  (void)c;
  return json_deep_copy(directory);
}

void hg_cluster_on_member_change(hg_cluster *c, hg_cluster_member_fn fn, void *ud) {
  c->fn = fn;
  c->ud = ud;
}

/* Any well-mixed hash serves: the choice only needs every survivor to
 * compute the same one (splitmix64's finalizer over FNV-1a). */
uint64_t hg_cluster_rendezvous(const char *key, const char *id) {
  uint64_t h = 1469598103934665603ull;
  for (const char *s = key; *s; s++) h = (h ^ (uint8_t)*s) * 1099511628211ull;
  h = (h ^ 0xff) * 1099511628211ull;
  for (const char *s = id; *s; s++) h = (h ^ (uint8_t)*s) * 1099511628211ull;
  h = (h ^ (h >> 30)) * 0xbf58476d1ce4e5b9ull;
  h = (h ^ (h >> 27)) * 0x94d049bb133111ebull;
  return h ^ (h >> 31);
}

/* ---- the lifecycle: what failover.c asked of it ------------------------------------ */

typedef struct call {
  char what; /* 'a' claim ahead, 't' take, 'r' run */
  char id[HG_ID_MAX];
  bool run;
} call;

struct hg_life {
  pthread_mutex_t mu;
  pthread_cond_t cv;
  call calls[CALLS_MAX];
  unsigned n;
  char fail_id[HG_ID_MAX]; /* its take fails (-ESTALE) */
  bool gate_closed;        /* takes wait at the gate */
};

static void record(hg_life *l, char what, const char *id, bool run) {
  pthread_mutex_lock(&l->mu);
  if (l->n < CALLS_MAX) {
    call *c = &l->calls[l->n++];
    c->what = what;
    c->run = run;
    snprintf(c->id, sizeof c->id, "%s", id);
  }
  pthread_mutex_unlock(&l->mu);
}

void hg_life_failover_claim_ahead(hg_life *l, const char *id) {
  record(l, 'a', id, false);
}

int hg_life_failover_take(hg_life *l, const char *id, bool run, char msg[256]) {
  pthread_mutex_lock(&l->mu);
  while (l->gate_closed) pthread_cond_wait(&l->cv, &l->mu);
  bool fail = !strcmp(id, l->fail_id);
  pthread_mutex_unlock(&l->mu);
  record(l, 't', id, run);
  if (fail) snprintf(msg, 256, "another node took it");
  return fail ? -ESTALE : 0;
}

int hg_life_failover_run(hg_life *l, const char *id, char msg[256]) {
  (void)msg;
  record(l, 'r', id, true);
  return 0;
}

static unsigned count(hg_life *l, char what) {
  pthread_mutex_lock(&l->mu);
  unsigned k = 0;
  for (unsigned i = 0; i < l->n; i++) k += l->calls[i].what == what;
  pthread_mutex_unlock(&l->mu);
  return k;
}

/* How many times id had `what` done to it. */
static unsigned count_id(hg_life *l, char what, const char *id) {
  pthread_mutex_lock(&l->mu);
  unsigned k = 0;
  for (unsigned i = 0; i < l->n; i++)
    k += l->calls[i].what == what && !strcmp(l->calls[i].id, id);
  pthread_mutex_unlock(&l->mu);
  return k;
}

/* ---- a survivor: its failover on the test's loop ------------------------------------ */

typedef struct survivor {
  hg_cluster cluster;
  hg_life life;
  hg_failover *f;
} survivor;

static uv_loop_t loop;

static void survivor_open(survivor *s, const char *self) {
  memset(s, 0, sizeof *s);
  pthread_mutex_init(&s->life.mu, NULL);
  pthread_cond_init(&s->life.cv, NULL);
  hg_failover_config cfg = {
      .loop = &loop, .cluster = &s->cluster, .life = &s->life, .self = self, .workers = 2};
  assert_int_equal(hg_failover_open(&cfg, &s->f), 0);
}

/* Closes the survivors on the loop (b may be NULL), and turns it until
 * their timers and work are done: then both are freed. */
static void survivors_close(survivor *a, survivor *b) {
  hg_failover_close(a->f);
  if (b) hg_failover_close(b->f);
  uv_run(&loop, UV_RUN_DEFAULT);
  for (survivor *s = a; s; s = s == a ? b : NULL) {
    pthread_cond_destroy(&s->life.cv);
    pthread_mutex_destroy(&s->life.mu);
  }
}

/* Swim tells the survivor a member died (or changed). */
static void tell(survivor *s, const char *node, hg_member_state state) {
  s->cluster.fn(s->cluster.ud, node, state);
}

/* Turns the loop until done(ud) or ms passed; done's last answer. */
static bool turn_until(bool (*done)(void *), void *ud, int64_t ms) {
  int64_t until = hg_now_ms() + ms;
  while (!done(ud) && hg_now_ms() < until) {
    uv_run(&loop, UV_RUN_NOWAIT);
    usleep(1000);
  }
  return done(ud);
}

static void turn_for(int64_t ms) {
  int64_t until = hg_now_ms() + ms;
  while (hg_now_ms() < until) {
    uv_run(&loop, UV_RUN_NOWAIT);
    usleep(1000);
  }
}

/* ---- the views ------------------------------------------------------------------------ */

static void member_add(const char *id, const char *state, bool self, int mem_mib) {
  json_array_append_new(members, json_pack("{s:s,s:s,s:b,s:{s:i}}", "id", id, "state", state,
                                           "self", self, "capacity", "memory_mib", mem_mib));
}

static void member_set(const char *id, const char *state) {
  size_t i;
  json_t *m;
  json_array_foreach(members, i, m) if (!strcmp(json_string_value(json_object_get(m, "id")), id))
      json_object_set_new(m, "state", json_string(state));
}

/* Sandbox k of owner, held by the holders named in "n2,n3"-like list. */
static void sandbox_add(unsigned k, const char *owner, const char *state, int gen,
                        const char *holders) {
  char id[HG_ID_MAX], list[64];
  snprintf(id, sizeof id, "sb-%016x", k);
  json_t *h = json_array();
  snprintf(list, sizeof list, "%s", holders);
  for (char *save = NULL, *t = strtok_r(list, ",", &save); t; t = strtok_r(NULL, ",", &save))
    json_array_append_new(h, json_string(t));
  json_array_append_new(directory, json_pack("{s:s,s:s,s:s,s:i,s:o}", "sandbox", id, "owner",
                                             owner, "state", state, "gen", gen, "holders", h));
}

static const char *sandbox_id(unsigned k) {
  static char id[HG_ID_MAX];
  snprintf(id, sizeof id, "sb-%016x", k);
  return id;
}

/* A count of hg_failover_status. */
static json_int_t status_count(hg_failover *f, const char *key) {
  json_t *st = hg_failover_status(f);
  json_int_t v = json_integer_value(json_object_get(st, key));
  json_decref(st);
  return v;
}

static int setup(void **state) {
  (void)state;
  assert_int_equal(uv_loop_init(&loop), 0);
  members = json_array();
  directory = json_array();
  return 0;
}

static int teardown(void **state) {
  (void)state;
  json_decref(members);
  json_decref(directory);
  assert_int_equal(uv_loop_close(&loop), 0); /* nothing left on it */
  return 0;
}

typedef struct takes_of {
  hg_life *a, *b;
  unsigned want;
} takes_of;

static bool takes_reached(void *ud) {
  takes_of *t = ud;
  return count(t->a, 't') + (t->b ? count(t->b, 't') : 0) >= t->want;
}

/* ---- the tests ------------------------------------------------------------------------ */

static void each_sandbox_of_a_dead_node_is_taken_by_exactly_one_survivor(void **state) {
  (void)state;
  enum { N = 300 };
  member_add("n1", "dead", false, 1000);
  member_add("n2", "alive", false, 1000);
  member_add("n3", "alive", false, 1000);
  member_add("n4", "alive", false, 1000); /* holds none of them */
  for (unsigned k = 0; k < N; k++) sandbox_add(k, "n1", "suspended", 2, "n1,n2,n3");
  sandbox_add(N, "n2", "suspended", 2, "n1,n2,n3"); /* an alive owner's: not moved */

  survivor s2, s3;
  survivor_open(&s2, "n2");
  survivor_open(&s3, "n3");
  /* Each sees itself as "self" (alive whatever the view says). */
  tell(&s2, "n1", HG_MEMBER_DEAD);
  tell(&s3, "n1", HG_MEMBER_DEAD);
  takes_of t = {&s2.life, &s3.life, N};
  assert_true(turn_until(takes_reached, &t, 10000));
  turn_for(100); /* nothing more comes */

  unsigned by2 = count(&s2.life, 't'), by3 = count(&s3.life, 't');
  assert_int_equal(by2 + by3, N);
  for (unsigned k = 0; k < N; k++) {
    unsigned t2 = count_id(&s2.life, 't', sandbox_id(k));
    unsigned t3 = count_id(&s3.life, 't', sandbox_id(k));
    assert_int_equal(t2 + t3, 1);
    /* Its claim went out ahead of its take, on the survivor that took it. */
    assert_int_equal(count_id(t2 ? &s2.life : &s3.life, 'a', sandbox_id(k)), 1);
  }
  assert_int_equal(count_id(&s2.life, 't', sandbox_id(N)), 0);
  assert_int_equal(count_id(&s3.life, 't', sandbox_id(N)), 0);
  /* Equal capacities, a fair hash: both take a fair share. */
  assert_in_range(by2, N / 3, 2 * N / 3);
  assert_int_equal(count(&s2.life, 'r') + count(&s3.life, 'r'), 0); /* none ran */

  assert_int_equal(status_count(s2.f, "restored"), by2);
  assert_int_equal(status_count(s2.f, "failed"), 0);
  survivors_close(&s2, &s3);
}

static void capacity_weights_the_split(void **state) {
  (void)state;
  enum { N = 400 };
  member_add("n1", "dead", false, 1000);
  member_add("n2", "alive", true, 3000);
  member_add("n3", "alive", false, 1000);
  for (unsigned k = 0; k < N; k++) sandbox_add(k, "n1", "suspended", 1, "n1,n2,n3");
  survivor s2;
  survivor_open(&s2, "n2");
  tell(&s2, "n1", HG_MEMBER_DEAD);
  takes_of t = {&s2.life, NULL, 3 * N / 5};
  turn_until(takes_reached, &t, 10000);
  turn_for(200);
  /* Three quarters of the capacity: about three quarters of the sandboxes
   * (300 expected; the bounds are 7 standard deviations out). */
  assert_in_range(count(&s2.life, 't'), 240, 360);
  survivors_close(&s2, NULL);
}

/* A holder only suspected is not dead: its share stays its own (a choice
 * that flipped on every suspicion would send two survivors after the same
 * sandboxes); once it dies, the rest comes here. */
static void a_suspect_holder_keeps_its_share(void **state) {
  (void)state;
  enum { N = 300 };
  member_add("n1", "dead", false, 1000);
  member_add("n2", "alive", true, 1000);
  member_add("n3", "suspect", false, 1000);
  for (unsigned k = 0; k < N; k++) sandbox_add(k, "n1", "suspended", 1, "n1,n2,n3");
  survivor s2;
  survivor_open(&s2, "n2");
  tell(&s2, "n1", HG_MEMBER_DEAD);
  takes_of t = {&s2.life, NULL, N / 3};
  assert_true(turn_until(takes_reached, &t, 10000));
  turn_for(300);
  assert_in_range(count(&s2.life, 't'), N / 3, 2 * N / 3);
  member_set("n3", "dead");
  tell(&s2, "n3", HG_MEMBER_DEAD);
  t.want = N;
  assert_true(turn_until(takes_reached, &t, 10000));
  turn_for(100);
  for (unsigned k = 0; k < N; k++) assert_true(count_id(&s2.life, 't', sandbox_id(k)) >= 1);
  survivors_close(&s2, NULL);
}

static void a_sandbox_that_ran_runs_again_before_the_suspended_ones(void **state) {
  (void)state;
  member_add("n1", "dead", false, 1000);
  member_add("n2", "alive", true, 1000);
  for (unsigned k = 0; k < 40; k++)
    sandbox_add(k, "n1", k % 10 == 3 ? "running" : k % 10 == 7 ? "paused" : "suspended", 1,
                "n1,n2");
  sandbox_add(40, "n1", "resuming", 1, "n1,n2");
  survivor s2;
  survivor_open(&s2, "n2");
  tell(&s2, "n1", HG_MEMBER_DEAD);
  takes_of t = {&s2.life, NULL, 41};
  assert_true(turn_until(takes_reached, &t, 10000));
  turn_for(200);

  /* The five that ran: taken to run, run; a paused one stays suspended. */
  unsigned ran[] = {3, 13, 23, 33, 40};
  for (unsigned i = 0; i < 5; i++) assert_int_equal(count_id(&s2.life, 'r', sandbox_id(ran[i])), 1);
  assert_int_equal(count(&s2.life, 'r'), 5);
  /* One worker thread: claims ahead and takes in the order queued, the
   * five that ran first in both. */
  unsigned seen_a = 0, seen_t = 0;
  for (unsigned i = 0; i < s2.life.n; i++) {
    call *c = &s2.life.calls[i];
    bool was_running = false;
    for (unsigned r = 0; r < 5; r++) was_running |= !strcmp(c->id, sandbox_id(ran[r]));
    if (c->what == 'a' && seen_a++ < 5) assert_true(was_running);
    if (c->what == 't' && seen_t++ < 5) assert_true(was_running && c->run);
    if (c->what == 't' && !was_running) assert_false(c->run);
  }
  assert_int_equal(status_count(s2.f, "restored"), 41);
  survivors_close(&s2, NULL);
}

static void a_sandbox_no_alive_node_holds_is_listed_not_dropped(void **state) {
  (void)state;
  member_add("n1", "dead", false, 1000);
  member_add("n2", "alive", true, 1000);
  member_add("n3", "dead", false, 1000);
  sandbox_add(1, "n1", "running", 4, "n1,n3"); /* its holders all dead */
  sandbox_add(2, "n1", "suspended", 0, "n2");  /* no generation replicated */
  sandbox_add(3, "n1", "suspended", 1, "n2");
  survivor s2;
  survivor_open(&s2, "n2");
  tell(&s2, "n3", HG_MEMBER_DEAD);
  tell(&s2, "n1", HG_MEMBER_DEAD);
  takes_of t = {&s2.life, NULL, 1};
  assert_true(turn_until(takes_reached, &t, 10000));
  turn_for(200);
  assert_int_equal(count(&s2.life, 't'), 1);
  assert_int_equal(count_id(&s2.life, 't', sandbox_id(3)), 1);

  json_t *st = hg_failover_status(s2.f);
  json_t *list = json_object_get(st, "stranded");
  assert_int_equal(json_integer_value(json_object_get(st, "stranded_count")), 2);
  assert_int_equal(json_array_size(list), 2);
  bool one = false, two = false;
  size_t i;
  json_t *e;
  json_array_foreach(list, i, e) {
    const char *id = json_string_value(json_object_get(e, "sandbox"));
    assert_string_equal(json_string_value(json_object_get(e, "owner")), "n1");
    assert_non_null(json_string_value(json_object_get(e, "since")));
    if (!strcmp(id, sandbox_id(1))) {
      one = true;
      assert_int_equal(json_integer_value(json_object_get(e, "gen")), 4);
    }
    two |= !strcmp(id, sandbox_id(2));
  }
  assert_true(one && two);
  json_decref(st);

  /* A holder comes back: no longer stranded, and the survivor the choice
   * names now (n3, the only alive holder) takes it, not this one. */
  member_set("n3", "alive");
  tell(&s2, "n1", HG_MEMBER_DEAD); /* a scan now (the timer's would come in 2 s) */
  turn_for(200);
  assert_int_equal(count_id(&s2.life, 't', sandbox_id(1)), 0);
  assert_int_equal(status_count(s2.f, "stranded_count"), 1);
  survivors_close(&s2, NULL);
}

static void an_owner_not_seen_dying_keeps_its_sandboxes(void **state) {
  (void)state;
  member_add("n1", "dead", false, 1000);  /* dead in the view from our start */
  member_add("n2", "alive", true, 1000);
  member_add("n4", "suspect", false, 1000);
  member_add("n5", "left", false, 1000);
  sandbox_add(1, "n1", "suspended", 1, "n1,n2");
  sandbox_add(4, "n4", "running", 1, "n4,n2");
  sandbox_add(5, "n5", "running", 1, "n5,n2");
  survivor s2;
  survivor_open(&s2, "n2");
  /* The periodic scan (every 2 s) runs; n1 could be a member swim has not
   * reached since our restart: within the grace, it is left alone. */
  turn_for(2500);
  /* A scan on another's death: still neither suspect nor left counts. */
  member_add("n6", "dead", false, 1000);
  tell(&s2, "n6", HG_MEMBER_DEAD);
  turn_for(200);
  assert_int_equal(count(&s2.life, 't') + count(&s2.life, 'a'), 0);
  /* Seen dying: n1's sandbox moves at once. */
  tell(&s2, "n1", HG_MEMBER_DEAD);
  takes_of t = {&s2.life, NULL, 1};
  assert_true(turn_until(takes_reached, &t, 5000));
  turn_for(100);
  assert_int_equal(count(&s2.life, 't'), 1);
  assert_int_equal(count_id(&s2.life, 't', sandbox_id(1)), 1);
  survivors_close(&s2, NULL);
}

/* n1 dead (not yet told), its sandbox 1 ran and n2 holds it; s is n2. */
static void one_that_ran_on_a_dead_node(survivor *s) {
  member_add("n1", "dead", false, 1000);
  member_add("n2", "alive", true, 1000);
  sandbox_add(1, "n1", "running", 1, "n1,n2");
  survivor_open(s, "n2");
}

static bool failed_one(void *ud) {
  return status_count(ud, "failed") == 1;
}

static void a_failed_take_waits_before_it_is_tried_again(void **state) {
  (void)state;
  survivor s2;
  one_that_ran_on_a_dead_node(&s2);
  snprintf(s2.life.fail_id, sizeof s2.life.fail_id, "%s", sandbox_id(1));
  tell(&s2, "n1", HG_MEMBER_DEAD);
  assert_true(turn_until(failed_one, s2.f, 5000));
  /* Scans come (the timer's, a death's); none takes it again so soon. */
  tell(&s2, "n1", HG_MEMBER_DEAD);
  turn_for(2500);
  assert_int_equal(count_id(&s2.life, 't', sandbox_id(1)), 1);
  assert_int_equal(count(&s2.life, 'r'), 0);
  assert_int_equal(status_count(s2.f, "restored"), 0);
  /* Shown while it waits: an operator sees which and why. */
  json_t *st = hg_failover_status(s2.f);
  json_t *r = json_object_get(st, "retrying");
  assert_int_equal(json_integer_value(json_object_get(st, "retrying_count")), 1);
  assert_int_equal(json_array_size(r), 1);
  assert_string_equal(json_string_value(json_object_get(json_array_get(r, 0), "sandbox")),
                      sandbox_id(1));
  assert_string_equal(json_string_value(json_object_get(json_array_get(r, 0), "step")), "take");
  assert_string_equal(json_string_value(json_object_get(json_array_get(r, 0), "message")),
                      "another node took it");
  json_decref(st);
  /* Its owner is back: the next scan chooses it no more, and it goes. */
  member_set("n1", "alive");
  tell(&s2, "n1", HG_MEMBER_ALIVE);
  turn_for(2500);
  assert_int_equal(status_count(s2.f, "retrying_count"), 0);
  assert_int_equal(count_id(&s2.life, 't', sandbox_id(1)), 1);
  survivors_close(&s2, NULL);
}

/* The claim ahead ran: the take is next on the one worker. */
static bool claimed_ahead(void *ud) {
  return count(ud, 'a') == 1;
}

static void *open_gate(void *ud) {
  hg_life *l = ud;
  usleep(300 * 1000);
  pthread_mutex_lock(&l->mu);
  l->gate_closed = false;
  pthread_cond_broadcast(&l->cv);
  pthread_mutex_unlock(&l->mu);
  return NULL;
}

static void close_waits_for_a_take_in_flight(void **state) {
  (void)state;
  survivor s2;
  one_that_ran_on_a_dead_node(&s2);
  s2.life.gate_closed = true;
  tell(&s2, "n1", HG_MEMBER_DEAD);
  assert_true(turn_until(claimed_ahead, &s2.life, 5000));
  turn_for(50); /* the take is on the worker, at the gate */
  pthread_t th;
  assert_int_equal(pthread_create(&th, NULL, open_gate, &s2.life), 0);
  int64_t t0 = hg_now_ms();
  survivors_close(&s2, NULL); /* returns once the take is done and the failover freed */
  pthread_join(th, NULL);
  assert_true(hg_now_ms() - t0 >= 250);
  assert_int_equal(count_id(&s2.life, 't', sandbox_id(1)), 1);
  assert_int_equal(count(&s2.life, 'r'), 0); /* closing: the VM is not started */
}

static void the_was_running_rule(void **state) {
  (void)state;
  assert_true(hg_failover_was_running("running"));
  assert_true(hg_failover_was_running("resuming"));
  assert_false(hg_failover_was_running("paused"));
  assert_false(hg_failover_was_running("suspended"));
  assert_false(hg_failover_was_running(NULL));
}

int main(void) {
  setenv("UV_THREADPOOL_SIZE", "1", 1); /* before the loop's first work */
  const struct CMUnitTest tests[] = {
      cmocka_unit_test_setup_teardown(
          each_sandbox_of_a_dead_node_is_taken_by_exactly_one_survivor, setup, teardown),
      cmocka_unit_test_setup_teardown(capacity_weights_the_split, setup, teardown),
      cmocka_unit_test_setup_teardown(a_suspect_holder_keeps_its_share, setup, teardown),
      cmocka_unit_test_setup_teardown(a_sandbox_that_ran_runs_again_before_the_suspended_ones,
                                      setup, teardown),
      cmocka_unit_test_setup_teardown(a_sandbox_no_alive_node_holds_is_listed_not_dropped,
                                      setup, teardown),
      cmocka_unit_test_setup_teardown(an_owner_not_seen_dying_keeps_its_sandboxes, setup,
                                      teardown),
      cmocka_unit_test_setup_teardown(a_failed_take_waits_before_it_is_tried_again, setup,
                                      teardown),
      cmocka_unit_test_setup_teardown(close_waits_for_a_take_in_flight, setup, teardown),
      cmocka_unit_test(the_was_running_rule),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
