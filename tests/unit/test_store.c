/* store on a real loop-mounted btrfs: every test gets a fresh data dir under
 * /tmp, which the store turns into a 1 GiB sparse image, and the teardown
 * unmounts and removes it even when the test failed. Needs root. */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <glob.h>
#include <limits.h>
#include <pthread.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <time.h>
#include <unistd.h>

#include <cmocka.h>
#include <linux/btrfs.h>
#include <linux/magic.h>
#include <sys/ioctl.h>

#include "node/core/log.h"
#include "node/core/util.h"
#include "node/store.h"
#include "tests/unit/prereq_util.h"

#define IMAGE_SIZE (1ULL << 30)

typedef struct fixture {
  char base[64];
  char data[128];
  char image[160];
  hg_store *s;
} fixture;

static const char *const layout[] = {"templates", "sandboxes", "snapshots", "replicas",
                                     "orphans",   "staging",   "state"};

/* ---- helpers --------------------------------------------------------- */

static bool is_btrfs(const char *path) {
  struct statfs fs;
  return statfs(path, &fs) == 0 && fs.f_type == BTRFS_SUPER_MAGIC;
}

static bool exists(const char *path) {
  struct stat st;
  return lstat(path, &st) == 0;
}

static void join(char *out, size_t cap, const hg_store *s, const char *rel) {
  assert_int_equal(hg_path(out, cap, "%s/%s", hg_store_root(s), rel), 0);
}

static void write_text(const hg_store *s, const char *rel, const char *text) {
  char path[PATH_MAX];
  join(path, sizeof path, s, rel);
  assert_int_equal(hg_write_file_atomic(path, text, strlen(text)), 0);
}

static void assert_text(const hg_store *s, const char *rel, const char *text) {
  char path[PATH_MAX], *got;
  join(path, sizeof path, s, rel);
  assert_int_equal(hg_read_file(path, 4096, &got, NULL), 0);
  assert_string_equal(got, text);
  free(got);
}

/* Number of loop devices whose backing file is image; dio (if not NULL):
 * whether the last of them does direct I/O (-1: none). */
static int loops_with_dio(const char *image, int *dio) {
  glob_t g;
  int n = 0;
  if (dio) *dio = -1;
  if (glob("/sys/block/loop*/loop/backing_file", 0, NULL, &g) != 0) return 0;
  for (size_t i = 0; i < g.gl_pathc; i++) {
    char *b, path[PATH_MAX];
    if (hg_read_file(g.gl_pathv[i], PATH_MAX, &b, NULL) < 0) continue;
    b[strcspn(b, "\n")] = '\0';
    bool ours = strcmp(b, image) == 0;
    free(b);
    if (!ours) continue;
    n++;
    snprintf(path, sizeof path, "%.*s/dio", (int)(strrchr(g.gl_pathv[i], '/') - g.gl_pathv[i]),
             g.gl_pathv[i]);
    if (dio && hg_read_file(path, 16, &b, NULL) == 0) {
      *dio = atoi(b);
      free(b);
    }
  }
  globfree(&g);
  return n;
}

static int loops_on(const char *image) {
  return loops_with_dio(image, NULL);
}

/* AUTOCLEAR detaches the loop device on the last close, which may finish a
 * moment after umount returns. */
static int loops_after_settle(const char *image) {
  int n = loops_on(image);
  for (int i = 0; i < 100 && n > 0; i++) {
    usleep(20000);
    n = loops_on(image);
  }
  return n;
}

static int mounts_on(const char *dir) {
  FILE *f = fopen("/proc/self/mountinfo", "r");
  char line[4096];
  int n = 0;
  if (!f) return -1;
  while (fgets(line, sizeof line, f)) {
    char mp[PATH_MAX];
    if (sscanf(line, "%*s %*s %*s %*s %4095s", mp) == 1 && strcmp(mp, dir) == 0) n++;
  }
  fclose(f);
  return n;
}

static hg_store *open_store(fixture *f) {
  hg_store_options opt = {.image_size = IMAGE_SIZE};
  hg_store *s = NULL;
  assert_int_equal(hg_store_open(f->data, &opt, &s), 0);
  assert_non_null(s);
  return s;
}

static void reopen(fixture *f, bool unmount) {
  hg_store_close(f->s, unmount);
  f->s = NULL;
  f->s = open_store(f);
}

/* ---- fixtures ---------------------------------------------------------- */

static int setup(void **state) {
  fixture *f = calloc(1, sizeof *f);
  if (!f) return -1;
  snprintf(f->base, sizeof f->base, "/tmp/hg-store-XXXXXX");
  if (!mkdtemp(f->base)) {
    free(f);
    return -1;
  }
  snprintf(f->data, sizeof f->data, "%s/data", f->base);
  snprintf(f->image, sizeof f->image, "%s.img", f->data);
  *state = f;
  return 0;
}

/* Undoes whatever a test left, whether or not the store got that far. */
static int teardown(void **state) {
  fixture *f = *state;
  hg_store_close(f->s, false);
  hg_store_destroy(f->data);
  for (int i = 0; i < 8 && is_btrfs(f->data); i++) umount2(f->data, MNT_DETACH);
  unlink(f->image);
  /* Never rm -rf through a mount that refused to go. */
  int rc = is_btrfs(f->data) ? -1 : hg_rm_rf(f->base);
  free(f);
  return rc;
}

static int group_setup(void **state) {
  /* The failure paths log on purpose; HG_TEST_LOG=1 shows them. */
  if (!getenv("HG_TEST_LOG")) hg_log_set_fd(open("/dev/null", O_WRONLY | O_CLOEXEC));
  if (geteuid() != 0) {
    fprintf(stderr, "test_store needs root (loop devices, mount)\n");
    return -1;
  }
  if (is_btrfs("/tmp")) {
    fprintf(stderr, "test_store needs /tmp off btrfs to exercise the image path\n");
    return -1;
  }
  return 0;
}

/* ---- open / close / destroy ------------------------------------------ */

static void open_on_plain_dir_makes_and_mounts_image(void **state) {
  fixture *f = *state;
  f->s = open_store(f);
  assert_true(is_btrfs(f->data));
  assert_string_equal(hg_store_root(f->s), f->data);
  struct stat st;
  assert_int_equal(stat(f->image, &st), 0);
  assert_int_equal((uint64_t)st.st_size, IMAGE_SIZE);
  assert_true((uint64_t)st.st_blocks * 512 < IMAGE_SIZE / 4); /* sparse */
  assert_int_equal(st.st_mode & 0777, 0600);
  assert_int_equal(loops_on(f->image), 1);
  assert_int_equal(mounts_on(f->data), 1);
  /* Direct I/O to the image wherever the host's filesystem takes it. */
  int dio, fd = open(f->image, O_RDONLY | O_DIRECT);
  assert_int_equal(loops_with_dio(f->image, &dio), 1);
  assert_int_equal(dio, fd >= 0 ? 1 : 0);
  if (fd >= 0) close(fd);
}

static void open_makes_the_layout(void **state) {
  fixture *f = *state;
  f->s = open_store(f);
  for (size_t i = 0; i < HG_ARRAY_SIZE(layout); i++) {
    char path[PATH_MAX];
    struct stat st;
    join(path, sizeof path, f->s, layout[i]);
    assert_int_equal(stat(path, &st), 0);
    assert_true(S_ISDIR(st.st_mode));
    assert_false(hg_store_is_subvol(f->s, layout[i]));
  }
}

static void open_relative_path_resolves_root(void **state) {
  fixture *f = *state;
  char cwd[PATH_MAX];
  assert_non_null(getcwd(cwd, sizeof cwd));
  assert_int_equal(chdir(f->base), 0);
  hg_store_options opt = {.image_size = IMAGE_SIZE};
  int rc = hg_store_open("data/", &opt, &f->s);
  assert_int_equal(chdir(cwd), 0);
  assert_int_equal(rc, 0);
  assert_string_equal(hg_store_root(f->s), f->data);
  assert_true(exists(f->image));
}

static void reopen_reuses_mounted_image(void **state) {
  fixture *f = *state;
  f->s = open_store(f);
  write_text(f->s, "state/node", "n1");
  reopen(f, false);
  assert_int_equal(mounts_on(f->data), 1);
  assert_int_equal(loops_on(f->image), 1);
  assert_text(f->s, "state/node", "n1");
}

static void reopen_mounts_existing_image(void **state) {
  fixture *f = *state;
  f->s = open_store(f);
  write_text(f->s, "state/node", "n1");
  hg_store_close(f->s, true);
  f->s = NULL;
  assert_false(is_btrfs(f->data));
  assert_int_equal(loops_after_settle(f->image), 0);
  f->s = open_store(f);
  assert_true(is_btrfs(f->data));
  assert_text(f->s, "state/node", "n1");
}

static void close_unmount_detaches_loop_device(void **state) {
  fixture *f = *state;
  f->s = open_store(f);
  hg_store_close(f->s, true);
  f->s = NULL;
  assert_int_equal(mounts_on(f->data), 0);
  assert_int_equal(loops_after_settle(f->image), 0);
  assert_true(exists(f->image)); /* close keeps the data */
}

static void destroy_unmounts_and_removes_image(void **state) {
  fixture *f = *state;
  f->s = open_store(f);
  hg_store_close(f->s, false);
  f->s = NULL;
  assert_int_equal(hg_store_destroy(f->data), 0);
  assert_false(is_btrfs(f->data));
  assert_false(exists(f->image));
  assert_int_equal(loops_after_settle(f->image), 0);
  assert_int_equal(hg_store_destroy(f->data), 0); /* idempotent */
}

static void open_resumes_an_unformatted_image(void **state) {
  fixture *f = *state;
  /* What a crash between creating the image and mkfs leaves behind. */
  int fd = open(f->image, O_RDWR | O_CREAT, 0600);
  assert_true(fd >= 0);
  assert_int_equal(ftruncate(fd, IMAGE_SIZE), 0);
  close(fd);
  f->s = open_store(f);
  assert_true(is_btrfs(f->data));
}

static void open_refuses_a_foreign_image(void **state) {
  fixture *f = *state;
  int fd = open(f->image, O_RDWR | O_CREAT, 0600);
  assert_true(fd >= 0);
  assert_int_equal(ftruncate(fd, IMAGE_SIZE), 0);
  assert_int_equal(pwrite(fd, "not btrfs", 9, 0x10040), 9);
  close(fd);
  hg_store_options opt = {.image_size = IMAGE_SIZE};
  assert_int_equal(hg_store_open(f->data, &opt, &f->s), -EINVAL);
  assert_null(f->s);
  assert_false(is_btrfs(f->data));
  assert_true(exists(f->image)); /* never overwritten */
}

static void open_rejects_bad_data_dir(void **state) {
  hg_store *s = NULL;
  assert_int_equal(hg_store_open("", NULL, &s), -EINVAL);
  assert_int_equal(hg_store_open(NULL, NULL, &s), -EINVAL);
  assert_null(s);
}

/* ---- subvolumes ---------------------------------------------------------- */

static void subvol_create_and_info(void **state) {
  fixture *f = *state;
  f->s = open_store(f);
  time_t before = time(NULL);
  assert_int_equal(hg_store_subvol_create(f->s, "sandboxes/sb-0123456789abcdef"), 0);
  assert_true(hg_store_is_subvol(f->s, "sandboxes/sb-0123456789abcdef"));
  hg_subvol_info info;
  assert_int_equal(hg_store_subvol_info(f->s, "sandboxes/sb-0123456789abcdef", &info), 0);
  assert_true(info.id >= 256);
  assert_true(info.generation > 0);
  assert_false(info.readonly);
  assert_int_equal(strlen(info.uuid), 36);
  assert_int_equal(info.uuid[8], '-');
  assert_string_equal(info.received_uuid, "");
  assert_true(info.otime >= before - 5 && info.otime <= time(NULL) + 5);
  assert_int_equal(hg_store_subvol_create(f->s, "sandboxes/sb-0123456789abcdef"),
                   -EEXIST);
}

static void subvol_create_makes_parents(void **state) {
  fixture *f = *state;
  f->s = open_store(f);
  assert_int_equal(hg_store_subvol_create(f->s, "replicas/sb-1/7"), 0);
  assert_true(hg_store_is_subvol(f->s, "replicas/sb-1/7"));
  assert_false(hg_store_is_subvol(f->s, "replicas/sb-1"));
}

static void snapshot_readonly_and_writable(void **state) {
  fixture *f = *state;
  f->s = open_store(f);
  assert_int_equal(hg_store_subvol_create(f->s, "sandboxes/sb-a"), 0);
  write_text(f->s, "sandboxes/sb-a/sandbox.json", "{\"gen\":1}");

  assert_int_equal(hg_store_snapshot(f->s, "sandboxes/sb-a", "snapshots/sb-a/1", true),
                   0);
  hg_subvol_info src, ro, rw;
  assert_int_equal(hg_store_subvol_info(f->s, "sandboxes/sb-a", &src), 0);
  assert_int_equal(hg_store_subvol_info(f->s, "snapshots/sb-a/1", &ro), 0);
  assert_true(ro.readonly);
  assert_string_not_equal(ro.uuid, src.uuid);
  assert_text(f->s, "snapshots/sb-a/1/sandbox.json", "{\"gen\":1}");
  char path[PATH_MAX];
  join(path, sizeof path, f->s, "snapshots/sb-a/1/new");
  assert_int_equal(open(path, O_WRONLY | O_CREAT, 0600), -1);
  assert_int_equal(errno, EROFS);

  /* A writable branch from the read-only generation, as fork does. */
  assert_int_equal(hg_store_snapshot(f->s, "snapshots/sb-a/1", "sandboxes/sb-b", false),
                   0);
  assert_int_equal(hg_store_subvol_info(f->s, "sandboxes/sb-b", &rw), 0);
  assert_false(rw.readonly);
  write_text(f->s, "sandboxes/sb-b/sandbox.json", "{\"gen\":2}");
  assert_text(f->s, "sandboxes/sb-a/sandbox.json", "{\"gen\":1}");
  assert_text(f->s, "snapshots/sb-a/1/sandbox.json", "{\"gen\":1}");

  assert_int_equal(hg_store_snapshot(f->s, "sandboxes/sb-a", "snapshots/sb-a/1", true),
                   -EEXIST);
}

static void set_readonly_toggles_the_flag(void **state) {
  fixture *f = *state;
  f->s = open_store(f);
  hg_subvol_info info;
  assert_int_equal(hg_store_subvol_create(f->s, "templates/default@abc"), 0);
  assert_int_equal(hg_store_set_readonly(f->s, "templates/default@abc", true), 0);
  assert_int_equal(hg_store_subvol_info(f->s, "templates/default@abc", &info), 0);
  assert_true(info.readonly);
  assert_int_equal(hg_store_set_readonly(f->s, "templates/default@abc", false), 0);
  assert_int_equal(hg_store_subvol_info(f->s, "templates/default@abc", &info), 0);
  assert_false(info.readonly);
  write_text(f->s, "templates/default@abc/template.json", "{}");
}

static void delete_removes_nested_subvolumes(void **state) {
  fixture *f = *state;
  f->s = open_store(f);
  assert_int_equal(hg_store_subvol_create(f->s, "sandboxes/sb-a"), 0);
  assert_int_equal(hg_store_subvol_create(f->s, "sandboxes/sb-a/inner"), 0);
  assert_int_equal(hg_store_subvol_create(f->s, "sandboxes/sb-a/dir/deeper"), 0);
  write_text(f->s, "sandboxes/sb-a/inner/file", "x");
  write_text(f->s, "sandboxes/sb-a/mem", "y");
  assert_int_equal(hg_store_subvol_delete(f->s, "sandboxes/sb-a"), 0);
  char path[PATH_MAX];
  join(path, sizeof path, f->s, "sandboxes/sb-a");
  assert_false(exists(path));
  assert_int_equal(hg_store_subvol_delete(f->s, "sandboxes/sb-a"), 0); /* idempotent */
}

static void delete_removes_readonly_snapshot(void **state) {
  fixture *f = *state;
  f->s = open_store(f);
  assert_int_equal(hg_store_subvol_create(f->s, "sandboxes/sb-a"), 0);
  assert_int_equal(hg_store_snapshot(f->s, "sandboxes/sb-a", "snapshots/sb-a/1", true),
                   0);
  assert_int_equal(hg_store_subvol_delete(f->s, "snapshots/sb-a/1"), 0);
  assert_false(hg_store_is_subvol(f->s, "snapshots/sb-a/1"));
  assert_true(hg_store_is_subvol(f->s, "sandboxes/sb-a"));
}

static void delete_removes_readonly_tree_with_children(void **state) {
  fixture *f = *state;
  f->s = open_store(f);
  /* Removing inner's entry from a read-only parent fails with EROFS unless
   * the store clears the flags first. */
  assert_int_equal(hg_store_subvol_create(f->s, "replicas/sb-a/1"), 0);
  assert_int_equal(hg_store_subvol_create(f->s, "replicas/sb-a/1/inner"), 0);
  assert_int_equal(hg_store_subvol_create(f->s, "replicas/sb-a/1/inner/deeper"), 0);
  assert_int_equal(hg_store_set_readonly(f->s, "replicas/sb-a/1/inner", true), 0);
  assert_int_equal(hg_store_set_readonly(f->s, "replicas/sb-a/1", true), 0);
  assert_int_equal(hg_store_subvol_delete(f->s, "replicas/sb-a/1"), 0);
  assert_false(hg_store_is_subvol(f->s, "replicas/sb-a/1"));
}

static void delete_removes_plain_tree_holding_subvolumes(void **state) {
  fixture *f = *state;
  f->s = open_store(f);
  /* snapshots/<id> is a plain directory of read-only generations. */
  assert_int_equal(hg_store_subvol_create(f->s, "sandboxes/sb-a"), 0);
  assert_int_equal(hg_store_snapshot(f->s, "sandboxes/sb-a", "snapshots/sb-a/1", true),
                   0);
  assert_int_equal(hg_store_snapshot(f->s, "sandboxes/sb-a", "snapshots/sb-a/2", true),
                   0);
  write_text(f->s, "snapshots/sb-a/notes", "n");
  assert_int_equal(hg_store_subvol_delete(f->s, "snapshots/sb-a"), 0);
  char path[PATH_MAX];
  join(path, sizeof path, f->s, "snapshots/sb-a");
  assert_false(exists(path));
  assert_true(hg_store_is_subvol(f->s, "sandboxes/sb-a"));
}

static void delete_refuses_layout_dirs(void **state) {
  fixture *f = *state;
  f->s = open_store(f);
  assert_int_equal(hg_store_subvol_create(f->s, "sandboxes/sb-a"), 0);
  /* What an empty id makes of "sandboxes/%s". */
  assert_int_equal(hg_store_subvol_delete(f->s, "sandboxes/"), -EINVAL);
  assert_int_equal(hg_store_subvol_delete(f->s, "sandboxes"), -EINVAL);
  assert_int_equal(hg_store_subvol_delete(f->s, "sandboxes//"), -EINVAL);
  assert_true(hg_store_is_subvol(f->s, "sandboxes/sb-a"));
}

static void move_renames_and_never_replaces(void **state) {
  fixture *f = *state;
  f->s = open_store(f);
  assert_int_equal(hg_store_subvol_create(f->s, "sandboxes/sb-a"), 0);
  write_text(f->s, "sandboxes/sb-a/sandbox.json", "a");
  assert_int_equal(hg_store_move(f->s, "sandboxes/sb-a", "orphans/sb-a/3"), 0);
  assert_false(hg_store_is_subvol(f->s, "sandboxes/sb-a"));
  assert_true(hg_store_is_subvol(f->s, "orphans/sb-a/3"));
  assert_text(f->s, "orphans/sb-a/3/sandbox.json", "a");

  /* Even an empty directory at dst must survive: rename(2) alone would
   * replace it. */
  assert_int_equal(hg_store_subvol_create(f->s, "sandboxes/sb-b"), 0);
  char path[PATH_MAX];
  join(path, sizeof path, f->s, "sandboxes/empty");
  assert_int_equal(hg_mkdir_p(path, 0700), 0);
  assert_int_equal(hg_store_move(f->s, "sandboxes/sb-b", "sandboxes/empty"), -EEXIST);
  assert_int_equal(hg_store_move(f->s, "sandboxes/sb-b", "orphans/sb-a/3"), -EEXIST);
  assert_true(hg_store_is_subvol(f->s, "sandboxes/sb-b"));
}

static void move_promotes_readonly_subvolume(void **state) {
  fixture *f = *state;
  f->s = open_store(f);
  /* The VFS will not move a read-only directory to another parent. */
  assert_int_equal(hg_store_subvol_create(f->s, "staging/recv-1"), 0);
  write_text(f->s, "staging/recv-1/mem", "m");
  assert_int_equal(hg_store_set_readonly(f->s, "staging/recv-1", true), 0);
  hg_subvol_info before, after;
  assert_int_equal(hg_store_subvol_info(f->s, "staging/recv-1", &before), 0);
  assert_int_equal(hg_store_move(f->s, "staging/recv-1", "replicas/sb-a/4"), 0);
  assert_int_equal(hg_store_subvol_info(f->s, "replicas/sb-a/4", &after), 0);
  assert_true(after.readonly);
  assert_string_equal(after.uuid, before.uuid);
  assert_text(f->s, "replicas/sb-a/4/mem", "m");
  /* A refused move leaves the source read-only where it was. */
  assert_int_equal(hg_store_subvol_create(f->s, "staging/recv-2"), 0);
  assert_int_equal(hg_store_set_readonly(f->s, "staging/recv-2", true), 0);
  assert_int_equal(hg_store_move(f->s, "staging/recv-2", "replicas/sb-a/4"), -EEXIST);
  assert_int_equal(hg_store_subvol_info(f->s, "staging/recv-2", &after), 0);
  assert_true(after.readonly);
}

/* The replication path end to end on the store's side: btrfs send of a
 * generation, btrfs receive into staging/, promotion into replicas/. The
 * received_uuid must survive, or the next incremental receive finds no
 * parent. */
static void move_keeps_received_uuid(void **state) {
  fixture *f = *state;
  f->s = open_store(f);
  HG_NEED(system("command -v btrfs >/dev/null") == 0, "btrfs (btrfs-progs)");
  assert_int_equal(hg_store_subvol_create(f->s, "sandboxes/sb-a"), 0);
  write_text(f->s, "sandboxes/sb-a/mem", "gen1");
  assert_int_equal(hg_store_snapshot(f->s, "sandboxes/sb-a", "snapshots/sb-a/1", true),
                   0);
  char cmd[1024];
  snprintf(cmd, sizeof cmd,
           "btrfs send -q %s/snapshots/sb-a/1 2>/dev/null | "
           "btrfs receive -q %s/staging >/dev/null 2>&1",
           hg_store_root(f->s), hg_store_root(f->s));
  assert_int_equal(system(cmd), 0);
  hg_subvol_info sent, got;
  assert_int_equal(hg_store_subvol_info(f->s, "snapshots/sb-a/1", &sent), 0);
  assert_int_equal(hg_store_subvol_info(f->s, "staging/1", &got), 0);
  assert_string_equal(got.received_uuid, sent.uuid);
  assert_int_equal(hg_store_move(f->s, "staging/1", "replicas/sb-a/1"), 0);
  assert_int_equal(hg_store_subvol_info(f->s, "replicas/sb-a/1", &got), 0);
  assert_string_equal(got.received_uuid, sent.uuid);
  assert_true(got.readonly);
  assert_text(f->s, "replicas/sb-a/1/mem", "gen1");
}

static void missing_source_is_enoent(void **state) {
  fixture *f = *state;
  f->s = open_store(f);
  hg_subvol_info info;
  assert_int_equal(hg_store_snapshot(f->s, "sandboxes/nope", "snapshots/nope/1", true),
                   -ENOENT);
  char path[PATH_MAX];
  join(path, sizeof path, f->s, "snapshots/nope");
  assert_false(exists(path)); /* a bad source leaves nothing behind */
  assert_int_equal(hg_store_subvol_info(f->s, "sandboxes/nope", &info), -ENOENT);
  assert_int_equal(hg_store_set_readonly(f->s, "sandboxes/nope", true), -ENOENT);
  assert_int_equal(hg_store_move(f->s, "sandboxes/nope", "orphans/nope/1"), -ENOENT);
  assert_false(hg_store_is_subvol(f->s, "sandboxes/nope"));
  assert_int_equal(hg_store_subvol_create(f->s, "sandboxes/a"), 0);
}

static void info_on_plain_directory_is_einval(void **state) {
  fixture *f = *state;
  f->s = open_store(f);
  hg_subvol_info info;
  /* libbtrfsutil alone would describe the containing subvolume. */
  assert_int_equal(hg_store_subvol_info(f->s, "sandboxes", &info), -EINVAL);
  assert_int_equal(hg_store_snapshot(f->s, "sandboxes", "snapshots/x", false), -EINVAL);
}

static void rel_paths_are_validated(void **state) {
  fixture *f = *state;
  f->s = open_store(f);
  static const char *const bad[] = {
      "",
      "/etc",
      "/",
      "..",
      "../x",
      "sandboxes/..",
      "sandboxes/../../etc",
      "a/../b",
      ".",
      "./sandboxes",
      "sandboxes/./x",
  };
  char path[PATH_MAX];
  hg_subvol_info info;
  assert_int_equal(hg_store_subvol_create(f->s, "sandboxes/ok"), 0);
  for (size_t i = 0; i < HG_ARRAY_SIZE(bad); i++) {
    const char *rel = bad[i];
    assert_int_equal(hg_store_abs(f->s, rel, path, sizeof path), -EINVAL);
    assert_int_equal(hg_store_subvol_create(f->s, rel), -EINVAL);
    assert_int_equal(hg_store_snapshot(f->s, "sandboxes/ok", rel, true), -EINVAL);
    assert_int_equal(hg_store_snapshot(f->s, rel, "snapshots/x", true), -EINVAL);
    assert_int_equal(hg_store_subvol_delete(f->s, rel), -EINVAL);
    assert_int_equal(hg_store_set_readonly(f->s, rel, true), -EINVAL);
    assert_int_equal(hg_store_move(f->s, "sandboxes/ok", rel), -EINVAL);
    assert_int_equal(hg_store_move(f->s, rel, "sandboxes/x"), -EINVAL);
    assert_int_equal(hg_store_subvol_info(f->s, rel, &info), -EINVAL);
    assert_false(hg_store_is_subvol(f->s, rel));
  }
  assert_int_equal(hg_store_abs(f->s, NULL, path, sizeof path), -EINVAL);
  /* Names that merely contain dots are fine. */
  assert_int_equal(hg_store_abs(f->s, "templates/a..b@sha", path, sizeof path), 0);
  assert_int_equal(hg_store_abs(f->s, "templates/.hidden", path, sizeof path), 0);
  assert_int_equal(hg_store_abs(f->s, "sandboxes/ok", path, 8), -ENAMETOOLONG);
  assert_true(hg_store_is_subvol(f->s, "sandboxes/ok"));
}

static void staging_leftovers_removed_at_reopen(void **state) {
  fixture *f = *state;
  char path[PATH_MAX];
  f->s = open_store(f);
  /* A cut-off receive: a subvolume, a read-only one, one under a plain dir,
   * plain dirs and files. */
  assert_int_equal(hg_store_subvol_create(f->s, "staging/recv-1"), 0);
  write_text(f->s, "staging/recv-1/mem", "m");
  assert_int_equal(hg_store_subvol_create(f->s, "staging/recv-2"), 0);
  assert_int_equal(hg_store_subvol_create(f->s, "staging/recv-2/child"), 0);
  assert_int_equal(hg_store_set_readonly(f->s, "staging/recv-2", true), 0);
  assert_int_equal(hg_store_subvol_create(f->s, "staging/sb-a/5"), 0);
  join(path, sizeof path, f->s, "staging/plain/deep");
  assert_int_equal(hg_mkdir_p(path, 0700), 0);
  write_text(f->s, "staging/plain/deep/file", "x");
  write_text(f->s, "staging/stream.zst", "z");
  assert_int_equal(hg_store_subvol_create(f->s, "sandboxes/keep"), 0);
  reopen(f, false);

  join(path, sizeof path, f->s, "staging");
  DIR *d = opendir(path);
  assert_non_null(d);
  int left = 0;
  for (struct dirent *de; (de = readdir(d));)
    if (strcmp(de->d_name, ".") && strcmp(de->d_name, "..")) left++;
  closedir(d);
  assert_int_equal(left, 0);
  assert_true(hg_store_is_subvol(f->s, "sandboxes/keep"));
}

static void free_bytes_reports_space(void **state) {
  fixture *f = *state;
  f->s = open_store(f);
  uint64_t free_bytes = 0;
  assert_int_equal(hg_store_free_bytes(f->s, &free_bytes), 0);
  assert_true(free_bytes > IMAGE_SIZE / 4);
  assert_true(free_bytes <= IMAGE_SIZE);
}

/* ---- concurrency ------------------------------------------------------- */

#define THREADS 8
#define PER_THREAD 10

typedef struct worker {
  hg_store *s;
  int n;
  int failures;
} worker;

static void *snapshot_worker(void *arg) {
  worker *w = arg;
  char rel[64], snap[64];
  snprintf(rel, sizeof rel, "sandboxes/sb-%d", w->n);
  if (hg_store_subvol_create(w->s, rel) < 0) w->failures++;
  for (int g = 0; g < PER_THREAD; g++) {
    snprintf(snap, sizeof snap, "snapshots/sb-%d/%d", w->n, g);
    if (hg_store_snapshot(w->s, rel, snap, true) < 0) w->failures++;
  }
  for (int g = 0; g < PER_THREAD; g += 2) {
    snprintf(snap, sizeof snap, "snapshots/sb-%d/%d", w->n, g);
    if (hg_store_subvol_delete(w->s, snap) < 0) w->failures++;
  }
  return NULL;
}

static void concurrent_snapshots_and_deletes(void **state) {
  fixture *f = *state;
  f->s = open_store(f);
  pthread_t th[THREADS];
  worker w[THREADS];
  for (int i = 0; i < THREADS; i++) {
    w[i] = (worker){.s = f->s, .n = i};
    assert_int_equal(pthread_create(&th[i], NULL, snapshot_worker, &w[i]), 0);
  }
  for (int i = 0; i < THREADS; i++) pthread_join(th[i], NULL);
  for (int i = 0; i < THREADS; i++) {
    assert_int_equal(w[i].failures, 0);
    for (int g = 0; g < PER_THREAD; g++) {
      char snap[64];
      snprintf(snap, sizeof snap, "snapshots/sb-%d/%d", i, g);
      assert_int_equal(hg_store_is_subvol(f->s, snap), g % 2 == 1);
    }
  }
}

/* A frozen subvolume carries its own uuid as received_uuid (what btrfs
 * receive looks clone sources up by), is read-only, and a read-only one
 * cannot be frozen again (the kernel refuses to change it). */
static void freeze_records_identity_and_makes_readonly(void **state) {
  fixture *f = *state;
  f->s = open_store(f);
  hg_subvol_info info;
  assert_int_equal(hg_store_subvol_create(f->s, "snapshots/sb-1/1"), 0);
  write_text(f->s, "snapshots/sb-1/1/mem", "pages");
  assert_int_equal(hg_store_freeze(f->s, "snapshots/sb-1/1"), 0);
  assert_int_equal(hg_store_subvol_info(f->s, "snapshots/sb-1/1", &info), 0);
  assert_true(info.readonly);
  assert_string_equal(info.received_uuid, info.uuid);
  assert_true(hg_store_freeze(f->s, "snapshots/sb-1/1") < 0);
  /* a writable snapshot of it is a new identity: nothing inherited */
  assert_int_equal(hg_store_snapshot(f->s, "snapshots/sb-1/1", "sandboxes/sb-1", false), 0);
  assert_int_equal(hg_store_subvol_info(f->s, "sandboxes/sb-1", &info), 0);
  assert_string_equal(info.received_uuid, "");
  assert_text(f->s, "sandboxes/sb-1/mem", "pages");
}

/* The filesystem's running transaction id (BTRFS_IOC_FS_INFO). */
static uint64_t fs_generation(const hg_store *s) {
  int fd = open(hg_store_root(s), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  assert_true(fd >= 0);
  struct btrfs_ioctl_fs_info_args a;
  memset(&a, 0, sizeof a);
  a.flags = BTRFS_FS_INFO_FLAG_GENERATION;
  assert_int_equal(ioctl(fd, BTRFS_IOC_FS_INFO, &a), 0);
  close(fd);
  assert_true(a.flags & BTRFS_FS_INFO_FLAG_GENERATION);
  return a.generation;
}

/* What replication does before an ACK: sync commits the transaction that
 * holds the subvolume's writes (the next write opens a new one; without
 * the sync it would join the same, for up to the 30 s commit interval). */
static void sync_commits_the_transaction(void **state) {
  fixture *f = *state;
  f->s = open_store(f);
  assert_int_equal(hg_store_subvol_create(f->s, "replicas/sb-a/1"), 0);
  write_text(f->s, "replicas/sb-a/1/mem", "pages");
  write_text(f->s, "replicas/sb-a/0", "x");
  uint64_t before = fs_generation(f->s);
  write_text(f->s, "replicas/sb-a/0", "y");
  assert_int_equal(fs_generation(f->s), before); /* no sync: same transaction */
  int64_t t0 = hg_now_ns();
  assert_int_equal(hg_store_sync(f->s, "replicas/sb-a/1"), 0);
  int64_t ns = hg_now_ns() - t0;
  write_text(f->s, "replicas/sb-a/0", "z");
  assert_true(fs_generation(f->s) > before);
  print_message("hg_store_sync: %.2f ms\n", (double)ns / 1e6);
  assert_int_equal(hg_store_sync(f->s, "replicas/sb-a/9"), -ENOENT);
}

#define T(fn) cmocka_unit_test_setup_teardown(fn, setup, teardown)

int main(void) {
  const struct CMUnitTest tests[] = {
      T(open_on_plain_dir_makes_and_mounts_image),
      T(open_makes_the_layout),
      T(open_relative_path_resolves_root),
      T(reopen_reuses_mounted_image),
      T(reopen_mounts_existing_image),
      T(close_unmount_detaches_loop_device),
      T(destroy_unmounts_and_removes_image),
      T(open_resumes_an_unformatted_image),
      T(open_refuses_a_foreign_image),
      cmocka_unit_test(open_rejects_bad_data_dir),
      T(subvol_create_and_info),
      T(subvol_create_makes_parents),
      T(snapshot_readonly_and_writable),
      T(set_readonly_toggles_the_flag),
      T(freeze_records_identity_and_makes_readonly),
      T(delete_removes_nested_subvolumes),
      T(delete_removes_readonly_snapshot),
      T(delete_removes_readonly_tree_with_children),
      T(delete_removes_plain_tree_holding_subvolumes),
      T(delete_refuses_layout_dirs),
      T(move_renames_and_never_replaces),
      T(move_promotes_readonly_subvolume),
      T(move_keeps_received_uuid),
      T(sync_commits_the_transaction),
      T(missing_source_is_enoent),
      T(info_on_plain_directory_is_einval),
      T(rel_paths_are_validated),
      T(staging_leftovers_removed_at_reopen),
      T(free_bytes_reports_space),
      T(concurrent_snapshots_and_deletes),
  };
  return cmocka_run_group_tests(tests, group_setup, NULL);
}
