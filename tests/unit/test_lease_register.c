/* test_lease_register: an acceptor's promises on disk
 * (cluster/lease_register.c): they survive a restart, a torn last write is
 * cut, damage before the end stops the open, the log is compacted, and a
 * failed write refuses everything after it. */
#include <errno.h>
#include <fcntl.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>

#include "cluster/lease_register.h"
#include "node/core/util.h"

typedef struct fixture {
  char dir[64];
  char path[128];
} fixture;

static int setup(void **state) {
  fixture *f = calloc(1, sizeof *f);
  snprintf(f->dir, sizeof f->dir, "/tmp/hg-lease-reg-XXXXXX");
  if (!f || !mkdtemp(f->dir)) return -1;
  snprintf(f->path, sizeof f->path, "%s/leases.log", f->dir);
  *state = f;
  return 0;
}

static int teardown(void **state) {
  fixture *f = *state;
  char mnt[96];
  snprintf(mnt, sizeof mnt, "%s/mnt", f->dir);
  umount2(mnt, MNT_DETACH); /* a_full_disk_…'s, if it stopped midway */
  hg_rm_rf(f->dir);
  free(f);
  return 0;
}

static hg_lease_promise promise(uint64_t epoch, const char *holder) {
  hg_lease_promise p = {.epoch = epoch};
  snprintf(p.holder, sizeof p.holder, "%s", holder);
  p.conf.cur.n = 3;
  for (int i = 0; i < 3; i++) snprintf(p.conf.cur.ids[i], HG_NODE_ID_MAX, "node-%d", i);
  return p;
}

typedef struct seen {
  unsigned n;
  char sandbox[8][HG_ID_MAX];
  hg_lease_promise p[8];
} seen;

static int collect(void *ud, const char *sandbox, const hg_lease_promise *p) {
  seen *s = ud;
  if (s->n == 8) return -ENOSPC;
  snprintf(s->sandbox[s->n], HG_ID_MAX, "%s", sandbox);
  s->p[s->n++] = *p;
  return 0;
}

static const hg_lease_promise *find(const seen *s, const char *sandbox) {
  for (unsigned i = 0; i < s->n; i++)
    if (!strcmp(s->sandbox[i], sandbox)) return &s->p[i];
  return NULL;
}

static void stage(hg_lease_register *r, const char *sb, uint64_t epoch,
                  const char *holder) {
  hg_lease_promise p = promise(epoch, holder);
  uint64_t ticket;
  assert_int_equal(hg_lease_register_stage(r, sb, &p, &ticket), 0);
}

static void flush(hg_lease_register *r) {
  uint64_t durable;
  assert_int_equal(hg_lease_register_flush(r, &durable), 0);
}

static seen reopen(const fixture *f) {
  hg_lease_register *r;
  seen s = {0};
  assert_int_equal(hg_lease_register_open(f->path, &r), 0);
  assert_int_equal(hg_lease_register_foreach(r, collect, &s), 0);
  hg_lease_register_close(r);
  return s;
}

static off_t size_of(const char *path) {
  struct stat st;
  assert_int_equal(stat(path, &st), 0);
  return st.st_size;
}

static void flushed_promises_survive_a_restart_newest_first(void **state) {
  fixture *f = *state;
  hg_lease_register *r;
  assert_int_equal(hg_lease_register_open(f->path, &r), 0);
  uint64_t t1, t2, durable;
  hg_lease_promise p = promise(1, "node-1");
  assert_int_equal(hg_lease_register_stage(r, "sb-a", &p, &t1), 0);
  p = promise(4, "node-2");
  p.deleted = true;
  assert_int_equal(hg_lease_register_stage(r, "sb-a", &p, &t2), 0);
  stage(r, "sb-b", 2, "node-0");
  assert_true(t2 > t1);
  assert_int_equal(hg_lease_register_flush(r, &durable), 0);
  assert_true(durable >= t2);
  stage(r, "sb-c", 9, "node-0"); /* staged, never flushed: a crash loses it */
  hg_lease_register_close(r);
  seen s = reopen(f);
  assert_int_equal(s.n, 2);
  const hg_lease_promise *a = find(&s, "sb-a");
  assert_non_null(a);
  assert_int_equal(a->epoch, 4);
  assert_string_equal(a->holder, "node-2");
  assert_true(a->deleted);
  assert_string_equal(a->conf.cur.ids[2], "node-2");
  assert_non_null(find(&s, "sb-b"));
  assert_null(find(&s, "sb-c"));
}

static void a_torn_last_write_is_cut_off(void **state) {
  fixture *f = *state;
  hg_lease_register *r;
  assert_int_equal(hg_lease_register_open(f->path, &r), 0);
  stage(r, "sb-a", 1, "node-1");
  flush(r);
  hg_lease_register_close(r);
  off_t whole = size_of(f->path);
  /* A second record, cut halfway; then one whose bytes never made it (a
   * length, then zeros: what a crash leaves after extending the file). */
  for (int variant = 0; variant < 2; variant++) {
    int fd = open(f->path, O_WRONLY | O_APPEND);
    assert_true(fd >= 0);
    uint8_t junk[40] = {30, 0, 0, 0, 0xde, 0xad, 0xbe, 0xef, 0x85};
    if (variant == 1) memset(junk + 4, 0, sizeof junk - 4);
    assert_int_equal(write(fd, junk, variant ? 38 : 20), variant ? 38 : 20);
    close(fd);
    seen s = reopen(f);
    assert_int_equal(s.n, 1);
    assert_int_equal(find(&s, "sb-a")->epoch, 1);
    assert_int_equal(size_of(f->path), whole);
  }
}

static void damage_before_the_end_stops_the_open(void **state) {
  fixture *f = *state;
  hg_lease_register *r;
  assert_int_equal(hg_lease_register_open(f->path, &r), 0);
  stage(r, "sb-a", 1, "node-1");
  stage(r, "sb-b", 2, "node-1");
  flush(r);
  hg_lease_register_close(r);
  int fd = open(f->path, O_RDWR);
  assert_true(fd >= 0);
  uint8_t b;
  assert_int_equal(pread(fd, &b, 1, 12), 1);
  b ^= 0x40;
  assert_int_equal(pwrite(fd, &b, 1, 12), 1);
  close(fd);
  assert_int_equal(hg_lease_register_open(f->path, &r), -EIO);
}

static void the_log_is_compacted_to_its_newest_promises(void **state) {
  fixture *f = *state;
  hg_lease_register *r;
  assert_int_equal(hg_lease_register_open(f->path, &r), 0);
  for (uint64_t e = 1; e <= 20000; e++) {
    stage(r, e % 2 ? "sb-a" : "sb-b", e, "node-1");
    if (e % 100 == 0) flush(r);
  }
  flush(r);
  hg_lease_register_close(r);
  assert_true(size_of(f->path) < (1 << 20));
  seen s = reopen(f);
  assert_int_equal(s.n, 2);
  assert_int_equal(find(&s, "sb-a")->epoch, 19999);
  assert_int_equal(find(&s, "sb-b")->epoch, 20000);
}

static void a_failed_write_refuses_every_promise_after_it(void **state) {
  (void)state;
  hg_lease_register *r;
  assert_int_equal(hg_lease_register_open("/dev/full", &r), 0);
  stage(r, "sb-a", 1, "node-1");
  uint64_t durable = 77;
  assert_int_equal(hg_lease_register_flush(r, &durable), -ENOSPC);
  assert_int_equal(durable, 0);
  hg_lease_promise p = promise(2, "node-1");
  uint64_t ticket;
  assert_int_equal(hg_lease_register_stage(r, "sb-a", &p, &ticket), -EIO);
  assert_int_equal(hg_lease_register_flush(r, &durable), -EIO);
  hg_lease_register_close(r);
}

/* Fills the filesystem of dir with one file; its path in out. */
static void fill(const char *dir, char out[160]) {
  snprintf(out, 160, "%s/filler", dir);
  int fd = open(out, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
  assert_true(fd >= 0);
  static const char block[4096];
  while (write(fd, block, sizeof block) > 0) {}
  assert_int_equal(errno, ENOSPC);
  close(fd);
}

/* A full disk (a small tmpfs) holds promises back, unanswered: the write
 * that found it full, torn in the middle of a record, is cut back, nothing
 * new is durable and staging goes on; once there is room the next flush
 * writes them all, and a restart reads every one (no torn record left in
 * the middle of the log to refuse the open). */
static void a_full_disk_holds_promises_until_there_is_room(void **state) {
  fixture *f = *state;
  char mnt[96], filler[160];
  snprintf(mnt, sizeof mnt, "%s/mnt", f->dir);
  assert_int_equal(mkdir(mnt, 0700), 0);
  assert_int_equal(mount("tmpfs", mnt, "tmpfs", 0, "size=64k"), 0);
  snprintf(f->path, sizeof f->path, "%s/leases.log", mnt);
  hg_lease_register *r;
  assert_int_equal(hg_lease_register_open(f->path, &r), 0);
  stage(r, "sb-a", 1, "node-1");
  flush(r); /* the log's page is partly used: the next write tears there */
  off_t whole = size_of(f->path);
  fill(mnt, filler);
  static const char *const sbs[] = {"sb-a", "sb-b", "sb-c", "sb-d"};
  for (uint64_t e = 2; e < 200; e++) stage(r, sbs[e % 4], e, "node-2");
  uint64_t durable = 0;
  assert_int_equal(hg_lease_register_flush(r, &durable), -ENOSPC);
  assert_int_equal(durable, 1);
  assert_int_equal(size_of(f->path), whole); /* the torn write cut back */
  stage(r, "sb-e", 7, "node-3"); /* not broken: staging goes on */
  assert_int_equal(hg_lease_register_flush(r, &durable), -ENOSPC);
  assert_int_equal(unlink(filler), 0);
  assert_int_equal(hg_lease_register_flush(r, &durable), 0);
  assert_int_equal(durable, 200);
  hg_lease_register_close(r);
  seen s = reopen(f);
  assert_int_equal(s.n, 5);
  assert_int_equal(find(&s, "sb-a")->epoch, 196);
  assert_int_equal(find(&s, "sb-d")->epoch, 199);
  assert_int_equal(find(&s, "sb-e")->epoch, 7);
  assert_int_equal(umount(mnt), 0);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test_setup_teardown(flushed_promises_survive_a_restart_newest_first,
                                      setup, teardown),
      cmocka_unit_test_setup_teardown(a_torn_last_write_is_cut_off, setup, teardown),
      cmocka_unit_test_setup_teardown(damage_before_the_end_stops_the_open, setup,
                                      teardown),
      cmocka_unit_test_setup_teardown(the_log_is_compacted_to_its_newest_promises, setup,
                                      teardown),
      cmocka_unit_test_setup_teardown(a_failed_write_refuses_every_promise_after_it,
                                      setup, teardown),
      cmocka_unit_test_setup_teardown(a_full_disk_holds_promises_until_there_is_room,
                                      setup, teardown),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
