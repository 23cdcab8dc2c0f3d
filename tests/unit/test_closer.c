/* test_closer: an owner of libuv handles is freed once, after the last of
 * its handles' close callbacks and once its own condition holds; its
 * caller's done runs after that (node/core/closer). Real handles on a real
 * loop: the close callbacks run when libuv runs them. */
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

#include <cmocka.h>
#include <uv.h>

#include "node/core/closer.h"

typedef struct owner {
  uv_timer_t a, b;
  hg_closer closer;
  bool busy;        /* the owner's own condition: e.g. a work item out */
  int *freed;       /* outlives the owner */
} owner;

typedef struct seen {
  int freed;
  int done;
  int freed_at_done; /* how many frees done saw: it must run after */
} seen;

static bool owner_ready(void *o) { return !((owner *)o)->busy; }

static void owner_free(void *o) {
  owner *w = o;
  (*w->freed)++;
  free(w);
}

static void on_done(void *ud) {
  seen *s = ud;
  s->done++;
  s->freed_at_done = s->freed;
}

static void on_closed(uv_handle_t *h) {
  owner *o = h->data;
  hg_closer_closed(&o->closer);
}

static owner *owner_new(uv_loop_t *loop, seen *s) {
  owner *o = calloc(1, sizeof *o);
  assert_non_null(o);
  o->freed = &s->freed;
  hg_closer_init(&o->closer, o, owner_ready, owner_free);
  assert_int_equal(uv_timer_init(loop, &o->a), 0);
  assert_int_equal(uv_timer_init(loop, &o->b), 0);
  o->a.data = o->b.data = o;
  hg_closer_add(&o->closer, 2);
  return o;
}

static void owner_close(owner *o, seen *s) {
  hg_closer_then(&o->closer, on_done, s);
  uv_close((uv_handle_t *)&o->a, on_closed);
  uv_close((uv_handle_t *)&o->b, on_closed);
}

static int loop_up(void **state) {
  uv_loop_t *loop = malloc(sizeof *loop);
  assert_non_null(loop);
  assert_int_equal(uv_loop_init(loop), 0);
  *state = loop;
  return 0;
}

/* Nothing left on the loop: every handle's close callback ran. */
static int loop_down(void **state) {
  uv_loop_t *loop = *state;
  assert_int_equal(uv_loop_close(loop), 0);
  free(loop);
  return 0;
}

static void freed_after_the_last_close_callback_then_done(void **state) {
  uv_loop_t *loop = *state;
  seen s = {0};
  owner *o = owner_new(loop, &s);
  assert_false(hg_closer_check(&o->closer)); /* both open: nothing happens */
  owner_close(o, &s);
  assert_int_equal(s.freed, 0); /* the callbacks have not run yet */
  uv_run(loop, UV_RUN_DEFAULT);
  assert_int_equal(s.freed, 1);
  assert_int_equal(s.done, 1);
  assert_int_equal(s.freed_at_done, 1);
}

static void waits_for_the_owners_condition(void **state) {
  uv_loop_t *loop = *state;
  seen s = {0};
  owner *o = owner_new(loop, &s);
  o->busy = true;
  owner_close(o, &s);
  uv_run(loop, UV_RUN_DEFAULT);
  assert_true(hg_closer_none(&o->closer));
  assert_int_equal(s.freed, 0); /* handles closed, but still busy */
  assert_false(hg_closer_check(&o->closer));
  o->busy = false; /* the work came back */
  assert_true(hg_closer_check(&o->closer));
  assert_int_equal(s.freed, 1);
  assert_int_equal(s.done, 1);
}

static void one_close_of_two_keeps_the_owner(void **state) {
  uv_loop_t *loop = *state;
  seen s = {0};
  owner *o = owner_new(loop, &s);
  uv_close((uv_handle_t *)&o->a, on_closed); /* e.g. one connection of many */
  uv_run(loop, UV_RUN_DEFAULT);
  assert_int_equal(s.freed, 0);
  assert_false(hg_closer_none(&o->closer));
  hg_closer_then(&o->closer, on_done, &s);
  uv_close((uv_handle_t *)&o->b, on_closed);
  uv_run(loop, UV_RUN_DEFAULT);
  assert_int_equal(s.freed, 1);
  assert_int_equal(s.done, 1);
}

#define T(f) cmocka_unit_test_setup_teardown(f, loop_up, loop_down)

int main(void) {
  const struct CMUnitTest tests[] = {
      T(freed_after_the_last_close_callback_then_done),
      T(waits_for_the_owners_condition),
      T(one_close_of_two_keeps_the_owner),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
