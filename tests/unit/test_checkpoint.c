/* test_checkpoint: the rules of checkpoints (node/checkpoint.h): which
 * intervals a create or --checkpoint-s may ask for, which generations
 * retention deletes (the newest checkpoints stay, suspends stay, the
 * generation the holders are known to have stays, so the chain a peer's
 * next increment needs is whole), and what a generation records of the VM
 * it was taken from (a restore elsewhere starts a running one running). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/vfs.h>
#include <unistd.h>

#include "node/checkpoint.h"
#include "node/core/log.h"
#include "node/core/util.h"
#include "node/store.h"

#define BTRFS_MAGIC 0x9123683E

/* ---- the interval ----------------------------------------------------------------- */

static void interval_is_off_or_2_to_86400_seconds(void **state) {
  char msg[128] = "";
  assert_int_equal(hg_ckpt_interval_check(0, msg), 0);
  assert_int_equal(hg_ckpt_interval_check(2, msg), 0);
  assert_int_equal(hg_ckpt_interval_check(86400, msg), 0);
  assert_string_equal(msg, "");
  assert_int_equal(hg_ckpt_interval_check(1, msg), -EINVAL);
  assert_non_null(strstr(msg, "0 (off) or 2 to 86400 seconds, not 1"));
  assert_int_equal(hg_ckpt_interval_check(-1, msg), -EINVAL);
  assert_int_equal(hg_ckpt_interval_check(86401, msg), -EINVAL);
  assert_non_null(strstr(msg, "not 86401"));
}

/* ---- retention -------------------------------------------------------------------- */

static size_t plan(const hg_gen_ref *g, size_t n, unsigned keep, const uint64_t *pin,
                   size_t npin, uint64_t drop[16]) {
  memset(drop, 0, 16 * sizeof *drop);
  return hg_gen_retain_plan(g, n, keep, pin, npin, drop, 16);
}

static void retention_keeps_the_newest_checkpoints(void **state) {
  hg_gen_ref g[] = {{4, true}, {1, true}, {6, true}, {2, true}, {5, true}, {3, true}};
  uint64_t drop[16];
  assert_int_equal(plan(g, 6, 3, NULL, 0, drop), 3);
  /* in the order given: 1, 2, 3 go; 4, 5, 6 stay */
  assert_int_equal(drop[0], 1);
  assert_int_equal(drop[1], 2);
  assert_int_equal(drop[2], 3);
  assert_int_equal(plan(g, 6, 6, NULL, 0, drop), 0);
  assert_int_equal(plan(g, 6, 10, NULL, 0, drop), 0);
}

static void retention_never_drops_a_suspend(void **state) {
  hg_gen_ref g[] = {{1, false}, {2, true}, {3, false}, {4, true}, {5, true}};
  uint64_t drop[16];
  /* keep 1: of the checkpoints only 5 stays; the suspends 1 and 3 stay */
  assert_int_equal(plan(g, 5, 1, NULL, 0, drop), 2);
  assert_int_equal(drop[0], 2);
  assert_int_equal(drop[1], 4);
}

/* The generation the holders have (the next increment's parent) and the
 * newest stay whatever keep says. */
static void retention_keeps_what_the_holders_have(void **state) {
  hg_gen_ref g[] = {{1, true}, {2, true}, {3, true}, {4, true}, {5, true}};
  uint64_t drop[16], pin[] = {5, 2};
  assert_int_equal(plan(g, 5, 1, pin, 2, drop), 3);
  assert_int_equal(drop[0], 1);
  assert_int_equal(drop[1], 3);
  assert_int_equal(drop[2], 4);
}

static void retention_keep_0_is_1_and_the_newest_stays(void **state) {
  hg_gen_ref g[] = {{7, true}, {8, true}};
  uint64_t drop[16];
  assert_int_equal(plan(g, 2, 0, NULL, 0, drop), 1);
  assert_int_equal(drop[0], 7);
  assert_int_equal(plan(g, 0, 3, NULL, 0, drop), 0);
  /* cap bounds what it writes */
  hg_gen_ref many[] = {{1, true}, {2, true}, {3, true}, {4, true}};
  assert_int_equal(hg_gen_retain_plan(many, 4, 1, NULL, 0, drop, 2), 2);
}

/* ---- what a generation records ----------------------------------------------------- */

typedef struct fixture {
  char base[64], data[96];
  hg_store *s;
} fixture;

static bool is_btrfs(const char *p) {
  struct statfs sf;
  return statfs(p, &sf) == 0 && sf.f_type == BTRFS_MAGIC;
}

static int store_setup(void **state) {
  if (geteuid() != 0) {
    fprintf(stderr, "test_checkpoint needs root (a btrfs loop image)\n");
    return -1;
  }
  fixture *f = calloc(1, sizeof *f);
  if (!f) return -1;
  snprintf(f->base, sizeof f->base, "/tmp/hg-ckpt-XXXXXX");
  if (!mkdtemp(f->base)) {
    free(f);
    return -1;
  }
  snprintf(f->data, sizeof f->data, "%s/data", f->base);
  hg_store_options opt = {.image_size = 256ull << 20};
  if (hg_store_open(f->data, &opt, &f->s) < 0) {
    hg_rm_rf(f->base);
    free(f);
    return -1;
  }
  *state = f;
  return 0;
}

static int store_teardown(void **state) {
  fixture *f = *state;
  hg_store_close(f->s, false);
  hg_store_destroy(f->data);
  for (int i = 0; i < 8 && is_btrfs(f->data); i++) umount2(f->data, MNT_DETACH);
  char image[128];
  snprintf(image, sizeof image, "%s.img", f->data);
  unlink(image);
  int rc = is_btrfs(f->data) ? -1 : hg_rm_rf(f->base); /* never through a mount */
  free(f);
  return rc;
}

/* A read-only generation at rel whose sandbox.json is text. */
static void make_gen(fixture *f, const char *rel, const char *text) {
  char src[128], abs[4096];
  snprintf(src, sizeof src, "staging/%s", strrchr(rel, '/') + 1);
  assert_int_equal(hg_store_subvol_create(f->s, src), 0);
  assert_int_equal(hg_store_abs(f->s, src, abs, sizeof abs), 0);
  strcat(abs, "/sandbox.json");
  assert_int_equal(hg_write_file_atomic(abs, text, strlen(text)), 0);
  assert_int_equal(hg_store_snapshot(f->s, src, rel, true), 0);
  assert_int_equal(hg_store_subvol_delete(f->s, src), 0);
}

static void a_generation_says_whether_it_was_running(void **state) {
  fixture *f = *state;
  bool running = false;
  make_gen(f, "replicas/sb-1/3",
           "{\"id\":\"sb-1\",\"state\":\"running\",\"gen\":3,\"generations\":["
           "{\"gen\":2,\"kind\":\"suspend\",\"running\":false},"
           "{\"gen\":3,\"kind\":\"checkpoint\",\"running\":true}]}");
  assert_int_equal(hg_sandbox_gen_running(f->s, "replicas/sb-1/3", &running), 0);
  assert_true(running);

  /* a suspend's: the record says suspending, the entry not running */
  make_gen(f, "replicas/sb-1/4",
           "{\"id\":\"sb-1\",\"state\":\"suspending\",\"gen\":4,\"generations\":["
           "{\"gen\":4,\"kind\":\"suspend\",\"running\":false}]}");
  assert_int_equal(hg_sandbox_gen_running(f->s, "replicas/sb-1/4", &running), 0);
  assert_false(running);

  /* made before checkpoints: no "running" in its entry */
  make_gen(f, "replicas/sb-1/5",
           "{\"id\":\"sb-1\",\"state\":\"running\",\"gen\":5,\"generations\":["
           "{\"gen\":5,\"kind\":\"checkpoint\"}]}");
  running = true;
  assert_int_equal(hg_sandbox_gen_running(f->s, "replicas/sb-1/5", &running), 0);
  assert_false(running);
}

static void a_missing_or_garbled_generation_is_an_error(void **state) {
  fixture *f = *state;
  bool running = true;
  assert_int_equal(hg_sandbox_gen_running(f->s, "replicas/sb-1/9", &running), -ENOENT);
  make_gen(f, "replicas/sb-2/1", "not json");
  assert_int_equal(hg_sandbox_gen_running(f->s, "replicas/sb-2/1", &running), -EPROTO);
  make_gen(f, "replicas/sb-2/2", "{\"state\":\"running\",\"gen\":\"2\"}");
  assert_int_equal(hg_sandbox_gen_running(f->s, "replicas/sb-2/2", &running), -EPROTO);
  assert_true(running); /* written only on success */
}

int main(void) {
  if (!getenv("HG_TEST_LOG")) hg_log_set_fd(open("/dev/null", O_WRONLY | O_CLOEXEC));
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(interval_is_off_or_2_to_86400_seconds),
      cmocka_unit_test(retention_keeps_the_newest_checkpoints),
      cmocka_unit_test(retention_never_drops_a_suspend),
      cmocka_unit_test(retention_keeps_what_the_holders_have),
      cmocka_unit_test(retention_keep_0_is_1_and_the_newest_stays),
      cmocka_unit_test_setup_teardown(a_generation_says_whether_it_was_running, store_setup,
                                      store_teardown),
      cmocka_unit_test_setup_teardown(a_missing_or_garbled_generation_is_an_error,
                                      store_setup, store_teardown),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
