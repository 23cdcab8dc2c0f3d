/* test_leasing: hangard's side of the leases (node/hangard/leasing.c) on a
 * node alone, its loop run by the test: the blocking takes of the workers
 * meet the lease service on the loop. T is 300 ms here.
 *
 * A take runs on a thread of its own (it blocks until the loop answers);
 * the test thread turns the loop meanwhile. */
#include <errno.h>
#include <pthread.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <uv.h>

#include <cmocka.h>

#include "node/core/util.h"
#include "node/hangard/leasing.h"

#define T_MS 300
#define MARGIN_MS 50
#define AHEAD_MAX_MS 1000
#define SB "sb-00112233445566aa"

typedef struct fixture {
  uv_loop_t loop;
  char dir[64], reg[96];
  hg_leasing *l;
  bool closed;
} fixture;

typedef struct take_job {
  hg_leasing *l;
  hg_sb_take how;
  hg_sb_lease have, got;
  char msg[256];
  int rc;
  atomic_bool done;
} take_job;

static void *take_main(void *arg) {
  take_job *t = arg;
  t->rc = hg_leasing_take(t->l, SB, t->how, &t->have, &t->got, t->msg);
  atomic_store(&t->done, true);
  return NULL;
}

/* Turns the loop until the take on its thread returned. */
static int take(fixture *f, hg_sb_take how, const hg_sb_lease *have, hg_sb_lease *got) {
  take_job t = {.l = f->l, .how = how};
  if (have) t.have = *have;
  pthread_t th;
  assert_int_equal(pthread_create(&th, NULL, take_main, &t), 0);
  int64_t give_up = hg_now_ms() + 10 * T_MS;
  while (!atomic_load(&t.done) && hg_now_ms() < give_up) uv_run(&f->loop, UV_RUN_NOWAIT);
  pthread_join(th, NULL);
  if (t.rc < 0) fprintf(stderr, "take: %d %s\n", t.rc, t.msg);
  *got = t.got;
  return t.rc;
}

static void turn_for(fixture *f, int64_t ms) {
  int64_t until = hg_now_ms() + ms;
  while (hg_now_ms() < until) {
    uv_run(&f->loop, UV_RUN_NOWAIT);
    usleep(1000);
  }
}

static int setup(void **state) {
  fixture *f = calloc(1, sizeof *f);
  assert_non_null(f);
  assert_int_equal(uv_loop_init(&f->loop), 0);
  snprintf(f->dir, sizeof f->dir, "/tmp/hg-leasing-XXXXXX");
  assert_non_null(mkdtemp(f->dir));
  snprintf(f->reg, sizeof f->reg, "%s/leases.log", f->dir);
  hg_leasing_config cfg = {.loop = &f->loop,
                           .self = "n-test",
                           .register_path = f->reg,
                           .lease_ms = T_MS,
                           .margin_ms = MARGIN_MS,
                           .acceptors = 1,
                           .ahead_max_ms = AHEAD_MAX_MS};
  assert_int_equal(hg_leasing_open(&cfg, &f->l), 0);
  *state = f;
  return 0;
}

static void on_closed(void *ud) {
  ((fixture *)ud)->closed = true;
}

static int teardown(void **state) {
  fixture *f = *state;
  hg_leasing_close(f->l, on_closed, f);
  while (!f->closed) uv_run(&f->loop, UV_RUN_ONCE);
  hg_leasing_free(f->l);
  uv_run(&f->loop, UV_RUN_DEFAULT);
  assert_int_equal(uv_loop_close(&f->loop), 0);
  unlink(f->reg);
  rmdir(f->dir);
  free(f);
  return 0;
}

/* A held lease is renewed for as long as it is held. */
static void a_taken_lease_stays_valid(void **state) {
  fixture *f = *state;
  hg_sb_lease got;
  assert_int_equal(take(f, HG_SB_TAKE_NEW, NULL, &got), 0);
  assert_int_equal(got.epoch, 1);
  turn_for(f, 3 * T_MS);
  assert_true(hg_leasing_valid(f->l, SB, got.epoch, 0));
}

/* CI's it_api resumes that failed 504 after 90 s fenced: a suspend drops
 * the lease, a renewal already under way is answered before the loop
 * carries out the drop, and the resume's take that follows found that
 * answer, took it for a live lease and claimed nothing. Nothing renewed
 * it, the VM's deadline passed and stayed past. Here the drop comes while
 * a renewal is due: libuv runs due timers (the renewal, answered at once
 * on a node alone) before the async that carries the drop. The take after
 * it must leave a lease that is still renewed three lease times later. */
static void a_take_after_a_drop_is_renewed_though_a_renewal_crossed_the_drop(void **state) {
  fixture *f = *state;
  hg_sb_lease first, again;
  assert_int_equal(take(f, HG_SB_TAKE_NEW, NULL, &first), 0);
  turn_for(f, T_MS / 2);
  usleep(T_MS / 2 * 1000); /* a renewal is due when the loop turns next */
  hg_leasing_drop(f->l, SB);
  uv_run(&f->loop, UV_RUN_NOWAIT); /* the renewal's answer, then the drop */
  assert_false(hg_leasing_valid(f->l, SB, first.epoch, 0));
  assert_int_equal(take(f, HG_SB_TAKE_OWN, &first, &again), 0);
  assert_int_equal(again.epoch, first.epoch);
  turn_for(f, 3 * T_MS);
  assert_true(hg_leasing_valid(f->l, SB, again.epoch, 0));
}

/* A drop with nothing crossing it: the lease is gone, and a take brings
 * it back under renewal. */
static void a_dropped_lease_is_not_valid_and_a_take_renews_it_again(void **state) {
  fixture *f = *state;
  hg_sb_lease first, again;
  assert_int_equal(take(f, HG_SB_TAKE_NEW, NULL, &first), 0);
  hg_leasing_drop(f->l, SB);
  assert_false(hg_leasing_valid(f->l, SB, first.epoch, 0));
  turn_for(f, 2 * T_MS);
  assert_false(hg_leasing_valid(f->l, SB, first.epoch, 0));
  assert_int_equal(take(f, HG_SB_TAKE_OWN, &first, &again), 0);
  turn_for(f, 3 * T_MS);
  assert_true(hg_leasing_valid(f->l, SB, again.epoch, 0));
}

/* The view a move claims from: this node's group, at epoch. */
static hg_sb_lease moved_from(uint64_t epoch) {
  hg_sb_lease have = {.epoch = epoch, .ngroup = 1};
  snprintf(have.group[0], sizeof have.group[0], "n-test");
  return have;
}

/* A failover's claim goes out ahead of its take; the take then finds
 * the lease held (above the epoch it moves from) and claims nothing more:
 * the epoch is the one claim's. */
static void a_take_after_a_claim_ahead_gets_that_claims_lease(void **state) {
  fixture *f = *state;
  hg_sb_lease have = moved_from(3), got;
  assert_int_equal(hg_leasing_claim_ahead(f->l, SB, &have), 0);
  turn_for(f, T_MS / 2);
  int64_t t0 = hg_now_ms();
  assert_int_equal(take(f, HG_SB_TAKE_MOVE, &have, &got), 0);
  assert_true(hg_now_ms() - t0 < T_MS / 3); /* no claim of its own: no round to wait for */
  assert_int_equal(got.epoch, 4);
  turn_for(f, 3 * T_MS);
  assert_true(hg_leasing_valid(f->l, SB, got.epoch, 0));
}

/* A take that comes while the claim ahead is still out ends with that
 * claim's lease, one epoch above the view, not two. */
static void a_take_during_a_claim_ahead_ends_at_its_epoch(void **state) {
  fixture *f = *state;
  hg_sb_lease have = moved_from(3), got;
  assert_int_equal(hg_leasing_claim_ahead(f->l, SB, &have), 0);
  assert_int_equal(take(f, HG_SB_TAKE_MOVE, &have, &got), 0);
  assert_int_equal(got.epoch, 4);
  /* a second claim ahead of a lease held here changes nothing */
  assert_int_equal(hg_leasing_claim_ahead(f->l, SB, &have), 0);
  turn_for(f, T_MS);
  assert_true(hg_leasing_valid(f->l, SB, 4, 0));
}

/* No take came: the lease is given back (checked every 5 s), so that
 * the node does not keep every other one out of the sandbox. */
static void a_claim_ahead_no_take_came_for_is_given_back(void **state) {
  fixture *f = *state;
  hg_sb_lease have = moved_from(3);
  assert_int_equal(hg_leasing_claim_ahead(f->l, SB, &have), 0);
  turn_for(f, T_MS);
  assert_true(hg_leasing_valid(f->l, SB, 4, 0));
  turn_for(f, 5000 + AHEAD_MAX_MS + T_MS);
  assert_false(hg_leasing_valid(f->l, SB, 4, 0));
  hg_leasing_stats st;
  hg_leasing_get_stats(f->l, &st);
  assert_int_equal(st.held + st.claiming + st.fenced, 0);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test_setup_teardown(a_taken_lease_stays_valid, setup, teardown),
      cmocka_unit_test_setup_teardown(
          a_take_after_a_drop_is_renewed_though_a_renewal_crossed_the_drop, setup, teardown),
      cmocka_unit_test_setup_teardown(a_dropped_lease_is_not_valid_and_a_take_renews_it_again,
                                      setup, teardown),
      cmocka_unit_test_setup_teardown(a_take_after_a_claim_ahead_gets_that_claims_lease, setup,
                                      teardown),
      cmocka_unit_test_setup_teardown(a_take_during_a_claim_ahead_ends_at_its_epoch, setup,
                                      teardown),
      cmocka_unit_test_setup_teardown(a_claim_ahead_no_take_came_for_is_given_back, setup,
                                      teardown),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
