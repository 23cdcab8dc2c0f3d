/* test_strmap: the intrusive string-keyed hash table (node/core/strmap). */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "node/core/strmap.h"

typedef struct item {
  hg_strmap_node node;
  char key[16];
  int value;
} item;

#define ITEMS 1000

static item *items_new(void) {
  item *v = calloc(ITEMS, sizeof *v);
  assert_non_null(v);
  for (int i = 0; i < ITEMS; i++) {
    snprintf(v[i].key, sizeof v[i].key, "sb-%d", i);
    v[i].node.key = v[i].key;
    v[i].value = i;
  }
  return v;
}

static void keys_find_their_items_through_growth(void **state) {
  (void)state;
  hg_strmap m = HG_STRMAP_INIT;
  item *v = items_new();
  assert_null(hg_strmap_get(&m, "sb-1"));
  for (int i = 0; i < ITEMS; i++) assert_int_equal(hg_strmap_put(&m, &v[i].node), 0);
  assert_int_equal(m.count, ITEMS);
  assert_true(m.nbuckets >= ITEMS);
  for (int i = 0; i < ITEMS; i++) {
    char key[16];
    snprintf(key, sizeof key, "sb-%d", i);
    hg_strmap_node *n = hg_strmap_get(&m, key);
    assert_non_null(n);
    assert_int_equal(HG_CONTAINER_OF(n, item, node)->value, i);
  }
  assert_null(hg_strmap_get(&m, "sb-1000"));
  hg_strmap_clear(&m);
  free(v);
}

static void a_key_is_added_once(void **state) {
  (void)state;
  hg_strmap m = HG_STRMAP_INIT;
  item a = {.key = "x"}, b = {.key = "x"};
  a.node.key = a.key;
  b.node.key = b.key;
  assert_int_equal(hg_strmap_put(&m, &a.node), 0);
  assert_int_equal(hg_strmap_put(&m, &b.node), -EEXIST);
  assert_ptr_equal(hg_strmap_get(&m, "x"), &a.node);
  assert_int_equal(m.count, 1);
  hg_strmap_clear(&m);
}

static void iteration_visits_each_once_while_removing(void **state) {
  (void)state;
  hg_strmap m = HG_STRMAP_INIT;
  item *v = items_new();
  for (int i = 0; i < ITEMS; i++) assert_int_equal(hg_strmap_put(&m, &v[i].node), 0);
  unsigned char *seen = calloc(ITEMS, 1);
  assert_non_null(seen);
  size_t cur = 0;
  for (hg_strmap_node *n = hg_strmap_next(&m, &cur, NULL); n;
       n = hg_strmap_next(&m, &cur, n)) {
    item *it = HG_CONTAINER_OF(n, item, node);
    seen[it->value]++;
    if (it->value % 2) hg_strmap_del(&m, n);
  }
  for (int i = 0; i < ITEMS; i++) assert_int_equal(seen[i], 1);
  assert_int_equal(m.count, ITEMS / 2);
  assert_null(hg_strmap_get(&m, "sb-3"));
  assert_non_null(hg_strmap_get(&m, "sb-4"));
  free(seen);
  hg_strmap_clear(&m);
  assert_null(hg_strmap_get(&m, "sb-4"));
  free(v);
}

/* Under the sanitizers a container left behind is a leak report. */
static void free_all_frees_every_container(void **state) {
  (void)state;
  hg_strmap m = HG_STRMAP_INIT;
  for (int i = 0; i < 200; i++) {
    item *it = calloc(1, sizeof *it);
    assert_non_null(it);
    snprintf(it->key, sizeof it->key, "k%d", i);
    it->node.key = it->key;
    assert_int_equal(hg_strmap_put(&m, &it->node), 0);
  }
  hg_strmap_free_all(&m, offsetof(item, node));
  assert_int_equal(m.count, 0);
  assert_null(hg_strmap_get(&m, "k1"));
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(keys_find_their_items_through_growth),
      cmocka_unit_test(a_key_is_added_once),
      cmocka_unit_test(iteration_visits_each_once_while_removing),
      cmocka_unit_test(free_all_frees_every_container),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
