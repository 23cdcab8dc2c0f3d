/* test_keylock: one holder per key, any number of keys (node/core/keylock). */
#include <errno.h>
#include <pthread.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <unistd.h>

#include <cmocka.h>

#include "node/core/keylock.h"

#define KEYS 1000

/* What a failover's hundreds of adopts rely on: no key waits for another. */
static void every_key_is_held_at_once(void **state) {
  (void)state;
  hg_keylock kl;
  assert_int_equal(hg_keylock_init(&kl), 0);
  char key[32];
  for (int i = 0; i < KEYS; i++) {
    snprintf(key, sizeof key, "sb-%d", i);
    assert_int_equal(hg_keylock_take(&kl, key, false), 0);
  }
  for (int i = 0; i < KEYS; i++) {
    snprintf(key, sizeof key, "sb-%d", i);
    assert_int_equal(hg_keylock_take(&kl, key, false), -EBUSY);
    hg_keylock_release(&kl, key);
    assert_int_equal(hg_keylock_take(&kl, key, false), 0);
    hg_keylock_release(&kl, key);
  }
  hg_keylock_destroy(&kl);
}

typedef struct waiter {
  hg_keylock *kl;
  const char *key;
  _Atomic bool got;
} waiter;

static void *wait_main(void *arg) {
  waiter *w = arg;
  assert_int_equal(hg_keylock_take(w->kl, w->key, true), 0);
  w->got = true;
  hg_keylock_release(w->kl, w->key);
  return NULL;
}

/* A waiter for a held key gets it at its release, and not before; one for
 * a free key does not wait. */
static void a_waiter_gets_the_key_at_its_release(void **state) {
  (void)state;
  hg_keylock kl;
  assert_int_equal(hg_keylock_init(&kl), 0);
  assert_int_equal(hg_keylock_take(&kl, "a", true), 0);
  waiter wa = {&kl, "a", false}, wb = {&kl, "b", false};
  pthread_t ta, tb;
  assert_int_equal(pthread_create(&ta, NULL, wait_main, &wa), 0);
  assert_int_equal(pthread_create(&tb, NULL, wait_main, &wb), 0);
  assert_int_equal(pthread_join(tb, NULL), 0);
  assert_true(wb.got);
  usleep(100 * 1000);
  assert_false(wa.got);
  hg_keylock_release(&kl, "a");
  assert_int_equal(pthread_join(ta, NULL), 0);
  assert_true(wa.got);
  assert_int_equal(hg_keylock_take(&kl, "a", false), 0);
  hg_keylock_release(&kl, "a");
  hg_keylock_destroy(&kl);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(every_key_is_held_at_once),
      cmocka_unit_test(a_waiter_gets_the_key_at_its_release),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
