/* test_adopted: the adoption records (node/adopted.c) in a directory of
 * their own: records put from many threads at once are all there after a
 * reopen, written in fewer files than records (group commit); removals
 * stay removed; an id in two files keeps its highest epoch and the other
 * file loses it; files of earlier versions (sb-<id>.json) are read. */
#include <dirent.h>
#include <errno.h>
#include <pthread.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "node/adopted.h"
#include "node/core/util.h"

#define THREADS 16
#define PER_THREAD 8

typedef struct seen {
  char id[THREADS * PER_THREAD + 8][32];
  char from[THREADS * PER_THREAD + 8][96];
  uint64_t epoch[THREADS * PER_THREAD + 8];
  unsigned n;
} seen;

static char dir[64];

static void collect(void *ud, const char *id, const char *from, uint64_t epoch) {
  seen *s = ud;
  snprintf(s->id[s->n], sizeof s->id[0], "%s", id);
  snprintf(s->from[s->n], sizeof s->from[0], "%s", from ? from : "");
  s->epoch[s->n++] = epoch;
}

static int find(const seen *s, const char *id) {
  for (unsigned i = 0; i < s->n; i++)
    if (!strcmp(s->id[i], id)) return (int)i;
  return -1;
}

static seen *reopen_all(void) {
  hg_adopted *a;
  seen *s = calloc(1, sizeof *s);
  assert_int_equal(hg__adopted_open(dir, &a), 0);
  hg__adopted_each(a, collect, s);
  hg__adopted_close(a);
  return s;
}

static unsigned files_named(const char *prefix) {
  unsigned n = 0;
  DIR *d = opendir(dir);
  struct dirent *e;
  while (d && (e = readdir(d))) n += strncmp(e->d_name, prefix, strlen(prefix)) == 0;
  if (d) closedir(d);
  return n;
}

static void id_of(unsigned k, char out[32]) {
  snprintf(out, 32, "sb-%016x", k + 1);
}

static int setup(void **state) {
  (void)state;
  snprintf(dir, sizeof dir, "/tmp/hg-adopted-XXXXXX");
  assert_non_null(mkdtemp(dir));
  return 0;
}

static int teardown(void **state) {
  (void)state;
  char cmd[128];
  snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
  assert_int_equal(system(cmd), 0);
  return 0;
}

typedef struct worker {
  hg_adopted *a;
  unsigned first;
  int rc;
} worker;

static void *put_many(void *arg) {
  worker *w = arg;
  for (unsigned k = w->first; k < w->first + PER_THREAD && w->rc == 0; k++) {
    char id[32], from[96];
    id_of(k, id);
    snprintf(from, sizeof from, "replicas/%s/%u", id, k + 1);
    w->rc = hg__adopted_put(w->a, id, from, k + 2);
  }
  return NULL;
}

static void records_put_at_once_are_all_there_after_a_reopen(void **state) {
  (void)state;
  hg_adopted *a;
  assert_int_equal(hg__adopted_open(dir, &a), 0);
  pthread_t th[THREADS];
  worker w[THREADS];
  for (unsigned t = 0; t < THREADS; t++) {
    w[t] = (worker){.a = a, .first = t * PER_THREAD};
    assert_int_equal(pthread_create(&th[t], NULL, put_many, &w[t]), 0);
  }
  for (unsigned t = 0; t < THREADS; t++) {
    pthread_join(th[t], NULL);
    assert_int_equal(w[t].rc, 0);
  }
  hg__adopted_close(a);
  unsigned batches = files_named("b-");
  fprintf(stderr, "  %u records in %u files\n", THREADS * PER_THREAD, batches);
  assert_true(batches >= 1 && batches <= THREADS * PER_THREAD);
  seen *s = reopen_all();
  assert_int_equal(s->n, THREADS * PER_THREAD);
  for (unsigned k = 0; k < THREADS * PER_THREAD; k++) {
    char id[32], from[96];
    id_of(k, id);
    snprintf(from, sizeof from, "replicas/%s/%u", id, k + 1);
    int i = find(s, id);
    assert_true(i >= 0);
    assert_string_equal(s->from[i], from);
    assert_int_equal(s->epoch[i], k + 2);
  }
  free(s);
}

static void removed_records_stay_removed_and_an_emptied_file_goes(void **state) {
  (void)state;
  hg_adopted *a;
  char id[4][32];
  assert_int_equal(hg__adopted_open(dir, &a), 0);
  for (unsigned k = 0; k < 4; k++) {
    id_of(k, id[k]);
    assert_int_equal(hg__adopted_put(a, id[k], "replicas/x/1", 7), 0);
  }
  assert_int_equal(files_named("b-"), 4); /* one at a time: one file each */
  assert_int_equal(hg__adopted_remove(a, id[0], true), 0);
  assert_int_equal(hg__adopted_remove(a, id[2], false), 0);
  assert_int_equal(hg__adopted_remove(a, "sb-00000000000000ff", true), 0); /* none: fine */
  hg__adopted_close(a);
  assert_int_equal(files_named("b-"), 2);
  seen *s = reopen_all();
  assert_int_equal(s->n, 2);
  assert_true(find(s, id[1]) >= 0 && find(s, id[3]) >= 0);
  free(s);
  /* New batches go after the ones on disk. */
  assert_int_equal(hg__adopted_open(dir, &a), 0);
  assert_int_equal(hg__adopted_put(a, id[0], "replicas/x/2", 9), 0);
  hg__adopted_close(a);
  assert_int_equal(files_named("b-"), 3);
  s = reopen_all();
  assert_int_equal(s->n, 3);
  assert_int_equal(s->epoch[find(s, id[0])], 9);
  free(s);
}

static void write_file(const char *name, const char *text) {
  char path[128];
  snprintf(path, sizeof path, "%s/%s", dir, name);
  assert_int_equal(hg_write_file_atomic(path, text, strlen(text)), 0);
}

static void an_id_in_two_files_keeps_its_highest_epoch_and_old_files_read(void **state) {
  (void)state;
  /* An earlier version's record, and a batch that adopted it again higher. */
  write_file("sb-0000000000000001.json",
             "{\"sandbox\":\"sb-0000000000000001\",\"from\":\"replicas/a/1\",\"epoch\":3}");
  write_file("b-4.json", "{\"sb-0000000000000001\":{\"from\":\"replicas/a/2\",\"epoch\":5},"
                         "\"sb-0000000000000002\":{\"from\":\"replicas/b/1\",\"epoch\":2}}");
  /* The reverse: the batch holds the lower one. */
  write_file("sb-0000000000000002.json",
             "{\"sandbox\":\"sb-0000000000000002\",\"from\":\"replicas/b/9\",\"epoch\":8}");
  write_file("sb-0000000000000003.json", "{\"sandbox\":\"sb-0000000000000003\"}");
  write_file("b-7.json", "not json");
  seen *s = reopen_all();
  assert_int_equal(s->n, 3);
  int i = find(s, "sb-0000000000000001");
  assert_string_equal(s->from[i], "replicas/a/2");
  assert_int_equal(s->epoch[i], 5);
  i = find(s, "sb-0000000000000002");
  assert_string_equal(s->from[i], "replicas/b/9");
  assert_int_equal(s->epoch[i], 8);
  i = find(s, "sb-0000000000000003"); /* does not read: said, for the caller to drop */
  assert_int_equal(s->epoch[i], 0);
  free(s);
  /* The losers left their files: the legacy one of 1, and 2 from b-4. */
  assert_int_equal(files_named("sb-0000000000000001"), 0);
  char *text = NULL;
  char path[128];
  snprintf(path, sizeof path, "%s/b-4.json", dir);
  assert_int_equal(hg_read_file(path, 4096, &text, NULL), 0);
  assert_null(strstr(text, "sb-0000000000000002"));
  assert_non_null(strstr(text, "sb-0000000000000001"));
  free(text);
  /* Removing 2 removes its own file; b-7 (unreadable) is left alone. */
  hg_adopted *a;
  assert_int_equal(hg__adopted_open(dir, &a), 0);
  assert_int_equal(hg__adopted_remove(a, "sb-0000000000000002", true), 0);
  hg__adopted_close(a);
  assert_int_equal(files_named("sb-0000000000000002"), 0);
  assert_int_equal(files_named("b-7"), 1);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test_setup_teardown(records_put_at_once_are_all_there_after_a_reopen, setup,
                                      teardown),
      cmocka_unit_test_setup_teardown(removed_records_stay_removed_and_an_emptied_file_goes,
                                      setup, teardown),
      cmocka_unit_test_setup_teardown(
          an_id_in_two_files_keeps_its_highest_epoch_and_old_files_read, setup, teardown),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
