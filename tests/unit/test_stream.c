/* stream on a real loop-mounted btrfs: real BTRFS_IOC_SEND, real zstd, a
 * real `btrfs receive` child. One store (1 GiB sparse image) serves the
 * group: a subvolume with random, zero and sparse files, its read-only
 * snapshots gen 1 and gen 2 (modified in between). Each test receives into
 * a fresh empty dir under staging/; the ENOSPC and missing-parent tests add
 * a 128 MiB store of their own. Every teardown kills what a failed test
 * left running and unmounts what it made. Needs root. */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <linux/fs.h>
#include <sched.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <sys/statvfs.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cmocka.h>
#include <linux/magic.h>
#include <zstd.h>

#include "node/core/buf.h"
#include "node/core/log.h"
#include "node/core/util.h"
#include "node/store.h"
#include "replication/sendstream.h"
#include "replication/stream.h"
#include "tests/unit/fs_util.h"
#include "tests/unit/sendstream_build.h"

#define IMAGE_SIZE (1ULL << 30)
#define TINY_SIZE (128ULL << 20) /* about the smallest mkfs.btrfs takes */
#define RANDOM_SIZE (3u << 20)
#define ZEROS_SIZE (2u << 20)
#define SPARSE_SIZE (64u << 20)
#define CAPTURE_MAX (64u << 20)

/* A data dir and its store; made by the group or by one test. */
typedef struct place {
  char base[64];
  char data[128];
  hg_store *s;
} place;

typedef struct group {
  place main;
  char gen1[PATH_MAX], gen2[PATH_MAX], work[PATH_MAX];
  hg_subvol_info gen1_info, gen2_info;
  int next_dir;
} group;

typedef struct fixture {
  group *g;
  char rx[PATH_MAX];  /* empty receive dir of this test */
  hg_stream_recv *r;  /* still open when a test failed half-way */
  place tiny;         /* base[0] != 0 when the test made one */
  const char *parent; /* identity of the agreed parent, for increments */
} fixture;

/* ---- places ------------------------------------------------------------ */

static bool is_btrfs(const char *path) {
  struct statfs fs;
  return statfs(path, &fs) == 0 && fs.f_type == BTRFS_SUPER_MAGIC;
}

static int place_open(place *p, const char *tag, uint64_t size) {
  snprintf(p->base, sizeof p->base, "/tmp/hg-stream-%s-XXXXXX", tag);
  if (!mkdtemp(p->base)) return -errno;
  snprintf(p->data, sizeof p->data, "%s/data", p->base);
  hg_store_options opt = {.image_size = size};
  return hg_store_open(p->data, &opt, &p->s);
}

static int place_close(place *p) {
  if (!p->base[0]) return 0;
  char image[160];
  hg_store_close(p->s, false);
  p->s = NULL;
  hg_store_destroy(p->data);
  for (int i = 0; i < 8 && is_btrfs(p->data); i++) umount2(p->data, MNT_DETACH);
  snprintf(image, sizeof image, "%s.img", p->data);
  unlink(image);
  /* Never rm -rf through a mount that refused to go. */
  int rc = is_btrfs(p->data) ? -1 : hg_rm_rf(p->base);
  p->base[0] = '\0';
  return rc;
}

/* ---- files ------------------------------------------------------------- */

static void write_at(const char *path, const void *data, size_t len, off_t off,
                     int flags) {
  int fd = open(path, O_WRONLY | O_CREAT | O_CLOEXEC | flags, 0644);
  assert_true(fd >= 0);
  assert_int_equal(pwrite(fd, data, len, off), (ssize_t)len);
  assert_int_equal(close(fd), 0);
}

static void write_random(const char *path, size_t len) {
  char *b = malloc(len);
  assert_non_null(b);
  assert_int_equal(hg_random_bytes(b, len), 0);
  write_at(path, b, len, 0, O_TRUNC);
  free(b);
}

static void write_zeros(const char *path, size_t len) {
  char *b = calloc(1, len);
  assert_non_null(b);
  write_at(path, b, len, 0, O_TRUNC);
  free(b);
}

static void write_sparse(const char *path) {
  write_at(path, "middle", 6, SPARSE_SIZE / 2, O_TRUNC);
  assert_int_equal(truncate(path, SPARSE_SIZE), 0);
}

static void put(const char *dir, const char *rel, char *out) {
  assert_int_equal(hg_path(out, PATH_MAX, "%s/%s", dir, rel), 0);
}

static bool same_file(const char *a, const char *b) {
  FILE *fa = fopen(a, "rb"), *fb = fopen(b, "rb");
  bool same = fa && fb;
  static char ba[1 << 16], bb[1 << 16];
  while (same) {
    size_t na = fread(ba, 1, sizeof ba, fa), nb = fread(bb, 1, sizeof bb, fb);
    same = na == nb && memcmp(ba, bb, na) == 0;
    if (na == 0) break;
  }
  if (fa) fclose(fa);
  if (fb) fclose(fb);
  return same;
}

/* a and b hold the same names, types, modes, sizes, bytes and links. */
static void assert_same_tree(const char *a, const char *b) {
  assert_int_equal(count_entries(a), count_entries(b));
  DIR *d = opendir(a);
  assert_non_null(d);
  struct dirent *e;
  while ((e = readdir(d))) {
    if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0) continue;
    char pa[PATH_MAX], pb[PATH_MAX];
    struct stat sa, sb;
    put(a, e->d_name, pa);
    put(b, e->d_name, pb);
    assert_int_equal(lstat(pa, &sa), 0);
    assert_int_equal(lstat(pb, &sb), 0);
    assert_int_equal(sa.st_mode, sb.st_mode);
    if (S_ISDIR(sa.st_mode)) {
      assert_same_tree(pa, pb);
      continue;
    }
    assert_int_equal(sa.st_size, sb.st_size);
    if (S_ISREG(sa.st_mode)) assert_true(same_file(pa, pb));
    if (S_ISLNK(sa.st_mode)) {
      char la[PATH_MAX] = "", lb[PATH_MAX] = "";
      assert_true(readlink(pa, la, sizeof la - 1) > 0);
      assert_true(readlink(pb, lb, sizeof lb - 1) > 0);
      assert_string_equal(la, lb);
    }
  }
  closedir(d);
}

/* ---- processes and threads -------------------------------------------- */

static bool no_children(void) {
  return waitpid(-1, NULL, WNOHANG) < 0 && errno == ECHILD;
}

static int thread_count(void) {
  return count_entries("/proc/self/task");
}

/* ---- stream plumbing ---------------------------------------------------- */

typedef struct capture {
  hg_buf z;
  uint64_t calls, progress_calls, max_chunk;
  uint64_t fail_at; /* emit returns -ECONNRESET on this call (1-based); 0 never */
  hg_stream_recv *feed_to;
  int feed_rc;
} capture;

static int capture_emit(void *ud, const void *z, size_t len) {
  capture *c = ud;
  c->calls++;
  if (len > c->max_chunk) c->max_chunk = len;
  if (c->fail_at && c->calls == c->fail_at) return -ECONNRESET;
  if (c->feed_to) {
    c->feed_rc = hg_stream_recv_feed(c->feed_to, z, len);
    return c->feed_rc;
  }
  return hg_buf_append(&c->z, z, len);
}

static void capture_progress(void *ud, const hg_stream_stats *st) {
  capture *c = ud;
  c->progress_calls++;
  assert_true(st->raw_bytes > 0);
}

static void capture_init(capture *c) {
  memset(c, 0, sizeof *c);
  hg_buf_init(&c->z, CAPTURE_MAX);
}

/* Sends subvol (against parent) into memory. */
static void send_to_buf(const char *subvol, const char *parent, capture *c,
                        hg_stream_stats *st) {
  capture_init(c);
  assert_int_equal(
      hg_stream_send(subvol, parent, 3, capture_emit, capture_progress, c, st), 0);
  assert_int_equal(st->zstd_bytes, c->z.len);
  assert_int_equal(st->chunks, c->calls);
  assert_true(c->max_chunk <= HG_STREAM_CHUNK);
}

/* Feeds z in pieces of step bytes; the first feed error, or 0. */
static int feed_all(hg_stream_recv *r, const void *z, size_t len, size_t step) {
  const char *p = z;
  int first = 0;
  for (size_t off = 0; off < len; off += step) {
    size_t n = len - off < step ? len - off : step;
    int rc = hg_stream_recv_feed(r, p + off, n);
    if (rc < 0 && first == 0) first = rc;
  }
  return first;
}

static int finish(fixture *f, char name[256], uint64_t *raw, char *msg, size_t cap) {
  hg_stream_recv *r = f->r;
  f->r = NULL;
  return hg_stream_recv_finish(r, name, raw, msg, cap);
}

static void begin(fixture *f, const char *dir) {
  hg_sendstream_policy p = {.parent_uuid = f->parent};
  assert_int_equal(hg_stream_recv_begin(dir, &p, &f->r), 0);
  assert_non_null(f->r);
  assert_string_equal(hg_stream_recv_error(f->r), "");
}

/* Receives a whole in-memory stream into f->rx; 0 and the name, or the error. */
static int receive_buf(fixture *f, const hg_buf *z, size_t step, char name[256],
                       uint64_t *raw, char *msg, size_t cap) {
  begin(f, f->rx);
  feed_all(f->r, z->data, z->len, step);
  return finish(f, name, raw, msg, cap);
}

/* f->rx/name, into got: a read-only copy of the tree src, received from
 * the subvolume whose uuid is uuid. */
static void assert_received(const fixture *f, const char *name, const char *src,
                            const char *uuid, char got[PATH_MAX]) {
  char rel[PATH_MAX];
  hg_subvol_info info;
  put(f->rx, name, got);
  assert_same_tree(src, got);
  snprintf(rel, sizeof rel, "%s", got + strlen(hg_store_root(f->g->main.s)) + 1);
  assert_int_equal(hg_store_subvol_info(f->g->main.s, rel, &info), 0);
  assert_true(info.readonly);
  assert_string_equal(info.received_uuid, uuid);
}

/* What btrfs send names a subvolume by (DESIGN §10's identity). */
static const char *identity(const hg_subvol_info *i) {
  return i->received_uuid[0] ? i->received_uuid : i->uuid;
}

static void assert_left_nothing(const char *dir) {
  assert_int_equal(count_entries(dir), 0);
  assert_true(no_children());
}

/* ---- fixtures ------------------------------------------------------------ */

static void make_sources(group *g) {
  hg_store *s = g->main.s;
  char p[PATH_MAX];
  assert_int_equal(hg_store_subvol_create(s, "sandboxes/sb"), 0);
  assert_int_equal(hg_store_abs(s, "sandboxes/sb", g->work, sizeof g->work), 0);
  put(g->work, "random.bin", p);
  write_random(p, RANDOM_SIZE);
  put(g->work, "zeros.bin", p);
  write_zeros(p, ZEROS_SIZE);
  put(g->work, "sparse.bin", p);
  write_sparse(p);
  put(g->work, "dir", p);
  assert_int_equal(mkdir(p, 0750), 0);
  put(g->work, "dir/small.txt", p);
  write_at(p, "first\n", 6, 0, O_TRUNC);
  put(g->work, "link", p);
  assert_int_equal(symlink("dir/small.txt", p), 0);
  assert_int_equal(hg_store_snapshot(s, "sandboxes/sb", "snapshots/sb/1", true), 0);

  /* gen 2: a few small changes */
  char block[64 * 1024];
  assert_int_equal(hg_random_bytes(block, sizeof block), 0);
  put(g->work, "random.bin", p);
  write_at(p, block, sizeof block, 1 << 20, 0);
  put(g->work, "dir/small.txt", p);
  write_at(p, "second\n", 7, 6, 0);
  put(g->work, "zeros.bin", p);
  assert_int_equal(unlink(p), 0);
  put(g->work, "new.txt", p);
  write_at(p, "new\n", 4, 0, O_TRUNC);
  assert_int_equal(hg_store_snapshot(s, "sandboxes/sb", "snapshots/sb/2", true), 0);

  assert_int_equal(hg_store_abs(s, "snapshots/sb/1", g->gen1, sizeof g->gen1), 0);
  assert_int_equal(hg_store_abs(s, "snapshots/sb/2", g->gen2, sizeof g->gen2), 0);
  assert_int_equal(hg_store_subvol_info(s, "snapshots/sb/1", &g->gen1_info), 0);
  assert_int_equal(hg_store_subvol_info(s, "snapshots/sb/2", &g->gen2_info), 0);
}

static int group_setup(void **state) {
  /* The failure paths log on purpose; HG_TEST_LOG=1 shows them. */
  if (!getenv("HG_TEST_LOG")) hg_log_set_fd(open("/dev/null", O_WRONLY | O_CLOEXEC));
  if (geteuid() != 0) {
    fprintf(stderr, "test_stream needs root (loop devices, mount, btrfs send)\n");
    return -1;
  }
  group *g = calloc(1, sizeof *g);
  if (!g) return -1;
  *state = g;
  if (place_open(&g->main, "main", IMAGE_SIZE) < 0) return -1;
  make_sources(g);
  return 0;
}

static int group_teardown(void **state) {
  group *g = *state;
  int rc = place_close(&g->main);
  free(g);
  return rc;
}

static int setup(void **state) {
  group *g = *state;
  fixture *f = calloc(1, sizeof *f);
  if (!f) return -1;
  f->g = g;
  char rel[64];
  snprintf(rel, sizeof rel, "staging/rx%d", ++g->next_dir);
  if (hg_store_abs(g->main.s, rel, f->rx, sizeof f->rx) < 0 || mkdir(f->rx, 0700) < 0) {
    free(f);
    return -1;
  }
  *state = f;
  return 0;
}

static int teardown(void **state) {
  fixture *f = *state;
  hg_stream_recv_abort(f->r); /* a test that failed half-way */
  int rc = place_close(&f->tiny);
  *state = f->g;
  free(f);
  return rc;
}

/* ---- sending ----------------------------------------------------------- */

static void full_stream_round_trips(void **state) {
  fixture *f = *state;
  group *g = f->g;
  capture c;
  hg_stream_stats st;
  send_to_buf(g->gen1, NULL, &c, &st);
  /* random data does not compress, zeros and metadata do */
  assert_true(st.raw_bytes > RANDOM_SIZE + ZEROS_SIZE);
  assert_true(st.zstd_bytes < st.raw_bytes);
  assert_true(st.zstd_bytes < RANDOM_SIZE + ZEROS_SIZE / 2);
  assert_true(st.chunks >= RANDOM_SIZE / HG_STREAM_CHUNK);
  assert_true(c.progress_calls >= 1); /* more than 4 MiB of send stream */

  char name[256], msg[256] = "x";
  uint64_t raw = 0;
  /* odd feed sizes: frame headers and blocks split anywhere */
  assert_int_equal(receive_buf(f, &c.z, 77777, name, &raw, msg, sizeof msg), 0);
  assert_string_equal(name, "1");
  assert_string_equal(msg, "");
  assert_int_equal(raw, st.raw_bytes);

  char got[PATH_MAX], p[PATH_MAX];
  assert_received(f, name, g->gen1, g->gen1_info.uuid, got);
  /* the hole stayed a hole */
  struct stat sb;
  put(got, "sparse.bin", p);
  assert_int_equal(stat(p, &sb), 0);
  assert_true((uint64_t)sb.st_blocks * 512 < SPARSE_SIZE / 8);
  assert_true(no_children());
  hg_buf_free(&c.z);
}

/* The sender's emit feeds the receiver directly, as over a socket. */
static void incremental_stream_is_small_and_applies(void **state) {
  fixture *f = *state;
  group *g = f->g;
  capture full;
  hg_stream_stats full_st, st;
  send_to_buf(g->gen1, NULL, &full, &full_st);
  hg_buf_free(&full.z);

  capture c;
  capture_init(&c);
  f->parent = identity(&g->gen1_info);
  begin(f, f->rx);
  c.feed_to = f->r;
  assert_int_equal(hg_stream_send(g->gen2, g->gen1, 1, capture_emit, NULL, &c, &st), 0);
  assert_int_equal(c.feed_rc, 0);
  char name[256], msg[256];
  uint64_t raw = 0;
  assert_int_equal(finish(f, name, &raw, msg, sizeof msg), 0);
  assert_string_equal(name, "2");
  assert_int_equal(raw, st.raw_bytes);
  /* a 64 KiB overwrite, a few small files, a deletion */
  assert_true(st.raw_bytes * 10 < full_st.raw_bytes);
  assert_true(st.raw_bytes < 512 * 1024);
  assert_true(st.zstd_bytes < 256 * 1024);

  char got[PATH_MAX];
  assert_received(f, name, g->gen2, g->gen2_info.uuid, got);
}

static void emit_error_stops_send(void **state) {
  fixture *f = *state;
  group *g = f->g;
  int threads = thread_count();
  capture c;
  capture_init(&c);
  c.fail_at = 3;
  hg_stream_stats st;
  assert_int_equal(hg_stream_send(g->gen1, NULL, 1, capture_emit, NULL, &c, &st),
                   -ECONNRESET);
  assert_int_equal(c.calls, 3);
  assert_int_equal(st.chunks, 2);
  assert_int_equal(st.zstd_bytes, c.z.len);
  assert_true(st.raw_bytes > 0);
  assert_int_equal(thread_count(), threads); /* the ioctl thread is gone */
  hg_buf_free(&c.z);

  /* and the subvolume can be sent again right away */
  capture_init(&c);
  assert_int_equal(hg_stream_send(g->gen1, NULL, 1, capture_emit, NULL, &c, &st), 0);
  hg_buf_free(&c.z);
}

static void send_refuses_what_is_not_a_readonly_subvolume(void **state) {
  fixture *f = *state;
  group *g = f->g;
  capture c;
  capture_init(&c);
  hg_stream_stats st;
  assert_int_equal(hg_stream_send(g->work, NULL, 1, capture_emit, NULL, &c, &st),
                   -EINVAL);
  assert_int_equal(hg_stream_send(f->rx, NULL, 1, capture_emit, NULL, &c, &st), -EINVAL);
  assert_int_equal(hg_stream_send(g->gen2, g->work, 1, capture_emit, NULL, &c, &st),
                   -EINVAL);
  char p[PATH_MAX];
  put(g->gen1, "random.bin", p);
  assert_int_equal(hg_stream_send(p, NULL, 1, capture_emit, NULL, &c, &st), -EINVAL);
  put(f->rx, "missing", p);
  assert_int_equal(hg_stream_send(p, NULL, 1, capture_emit, NULL, &c, &st), -ENOENT);
  assert_int_equal(hg_stream_send(g->gen1, NULL, 0, capture_emit, NULL, &c, &st),
                   -EINVAL);
  assert_int_equal(hg_stream_send(g->gen1, NULL, 20, capture_emit, NULL, &c, &st),
                   -EINVAL);
  assert_int_equal(c.calls, 0);
  assert_int_equal(st.raw_bytes, 0);
}

/* ---- receiving: failures leave nothing ------------------------------- */

static void corrupt_byte_fails_and_leaves_nothing(void **state) {
  fixture *f = *state;
  capture c;
  hg_stream_stats st;
  send_to_buf(f->g->gen1, NULL, &c, &st);
  /* one flip early (in compressed blocks) and one late */
  c.z.data[c.z.len / 3] ^= 0x10;
  char name[256] = "untouched", msg[256] = "";
  int rc = receive_buf(f, &c.z, HG_STREAM_CHUNK, name, NULL, msg, sizeof msg);
  assert_true(rc < 0);
  assert_string_equal(name, "untouched");
  assert_true(strstr(msg, "corrupt zstd stream") || strstr(msg, "refused send stream") ||
              strstr(msg, "btrfs receive"));
  assert_left_nothing(f->rx);
  hg_buf_free(&c.z);
}

static void flipped_checksum_fails_and_leaves_nothing(void **state) {
  fixture *f = *state;
  capture c;
  hg_stream_stats st;
  send_to_buf(f->g->gen1, NULL, &c, &st);
  /* the last 4 bytes are the frame's checksum: the data all went through
   * (btrfs receive may well have finished) before the mismatch shows */
  c.z.data[c.z.len - 2] ^= 0x01;
  char name[256], msg[256] = "";
  assert_int_equal(receive_buf(f, &c.z, 4096, name, NULL, msg, sizeof msg), -EPROTO);
  assert_non_null(strstr(msg, "corrupt zstd stream"));
  assert_left_nothing(f->rx);
  hg_buf_free(&c.z);
}

static void truncated_stream_fails_and_leaves_nothing(void **state) {
  fixture *f = *state;
  capture c;
  hg_stream_stats st;
  send_to_buf(f->g->gen1, NULL, &c, &st);
  begin(f, f->rx);
  assert_int_equal(feed_all(f->r, c.z.data, c.z.len - 1, 65536), 0);
  char name[256], msg[256] = "";
  assert_int_equal(finish(f, name, NULL, msg, sizeof msg), -EPROTO);
  assert_string_equal(msg, "stream truncated");
  assert_left_nothing(f->rx);

  /* nothing at all is truncated too */
  begin(f, f->rx);
  assert_int_equal(finish(f, name, NULL, msg, sizeof msg), -EPROTO);
  assert_string_equal(msg, "stream truncated");
  assert_left_nothing(f->rx);
  hg_buf_free(&c.z);
}

static void abort_mid_stream_kills_child_and_leaves_nothing(void **state) {
  fixture *f = *state;
  capture c;
  hg_stream_stats st;
  send_to_buf(f->g->gen1, NULL, &c, &st);
  begin(f, f->rx);
  assert_int_equal(feed_all(f->r, c.z.data, c.z.len / 2, 65536), 0);
  /* the child is working on the subvolume by now */
  for (int i = 0; i < 6000 && count_entries(f->rx) == 0; i++) usleep(10000);
  assert_int_equal(count_entries(f->rx), 1);
  assert_false(no_children());
  hg_stream_recv_abort(f->r);
  f->r = NULL;
  assert_left_nothing(f->rx);
  hg_buf_free(&c.z);
}

static void stream_without_checksum_is_refused(void **state) {
  fixture *f = *state;
  static char plain[4096], z[8192];
  size_t n = ZSTD_compress(z, sizeof z, plain, sizeof plain, 3); /* no checksum */
  assert_false(ZSTD_isError(n));
  begin(f, f->rx);
  /* header split across feeds, checked before any byte reaches the child */
  assert_int_equal(hg_stream_recv_feed(f->r, z, 3), 0);
  assert_int_equal(hg_stream_recv_feed(f->r, z + 3, n - 3), -EPROTO);
  assert_string_equal(hg_stream_recv_error(f->r), "zstd stream without a checksum");
  assert_int_equal(hg_stream_recv_feed(f->r, z, n), -EPROTO); /* sticky */
  char name[256], msg[256];
  assert_int_equal(finish(f, name, NULL, msg, sizeof msg), -EPROTO);
  assert_string_equal(msg, "zstd stream without a checksum");
  assert_left_nothing(f->rx);

  begin(f, f->rx);
  assert_int_equal(hg_stream_recv_feed(f->r, "hello, world", 12), -EPROTO);
  assert_string_equal(hg_stream_recv_error(f->r), "not a zstd stream");
  hg_stream_recv_abort(f->r);
  f->r = NULL;
  assert_left_nothing(f->rx);
}

static void data_after_the_frame_is_refused(void **state) {
  fixture *f = *state;
  capture c;
  hg_stream_stats st;
  send_to_buf(f->g->gen1, NULL, &c, &st);
  begin(f, f->rx);
  assert_int_equal(feed_all(f->r, c.z.data, c.z.len, HG_STREAM_CHUNK), 0);
  assert_int_equal(hg_stream_recv_feed(f->r, c.z.data, 16), -EPROTO);
  char name[256], msg[256];
  assert_int_equal(finish(f, name, NULL, msg, sizeof msg), -EPROTO);
  assert_string_equal(msg, "data after the end of the zstd stream");
  assert_left_nothing(f->rx);
  hg_buf_free(&c.z);
}

/* zstd (checksum on) of len bytes into z; the compressed size. */
static size_t zstd_of(const void *data, size_t len, void *z, size_t cap) {
  ZSTD_CCtx *cc = ZSTD_createCCtx();
  assert_non_null(cc);
  ZSTD_CCtx_setParameter(cc, ZSTD_c_checksumFlag, 1);
  size_t n = ZSTD_compress2(cc, z, cap, data, len);
  ZSTD_freeCCtx(cc);
  assert_false(ZSTD_isError(n));
  return n;
}

/* A valid zstd frame around bytes that are no send stream: refused before
 * `btrfs receive` sees them. */
static void junk_is_refused_before_the_child(void **state) {
  fixture *f = *state;
  static char junk[1 << 20], z[(1 << 20) + 4096];
  assert_int_equal(hg_random_bytes(junk, sizeof junk), 0);
  size_t n = zstd_of(junk, sizeof junk, z, sizeof z);
  begin(f, f->rx);
  assert_int_equal(feed_all(f->r, z, n, 65536), -EPROTO);
  assert_non_null(
      strstr(hg_stream_recv_error(f->r), "refused send stream: not a btrfs send stream"));
  char name[256], msg[512];
  assert_int_equal(finish(f, name, NULL, msg, sizeof msg), -EPROTO);
  assert_left_nothing(f->rx);
}

/* A stream the checker lets through (a subvolume, then a write to a file
 * it never made) that btrfs receive fails on: its own words come back. */
static void child_failure_reports_its_stderr(void **state) {
  fixture *f = *state;
  static sb s;
  static uint8_t z[4096];
  uint8_t uuid[16];
  assert_int_equal(hg_random_bytes(uuid, sizeof uuid), 0);
  sb_header(&s, 1);
  sb_cmd(&s, 1); /* SUBVOL */
  sb_str(&s, 15, "1");
  sb_attr(&s, 1, uuid, 16);
  sb_u64(&s, 2, 7);
  sb_cmd(&s, 15); /* WRITE */
  sb_str(&s, 15, "missing");
  sb_u64(&s, 18, 0);
  sb_attr(&s, 19, "data", 4);
  size_t n = zstd_of(s.b, sb_finish(&s), z, sizeof z);
  begin(f, f->rx);
  int rc = feed_all(f->r, z, n, 65536);
  assert_true(rc == 0 || rc == -EPIPE); /* it may quit before we are done */
  char name[256], msg[512];
  assert_int_equal(finish(f, name, NULL, msg, sizeof msg), -EIO);
  assert_non_null(strstr(msg, "btrfs receive failed: "));
  assert_true(strlen(msg) > strlen("btrfs receive failed: ") + 8);
  assert_null(strstr(msg, "no message"));
  assert_null(strstr(msg, "Chroot to")); /* -C's greeting is no message */
  assert_non_null(strstr(msg, "missing"));
  assert_left_nothing(f->rx);
}

static void begin_wants_an_empty_dir(void **state) {
  fixture *f = *state;
  hg_stream_recv *r = NULL;
  char p[PATH_MAX];
  put(f->rx, "missing", p);
  assert_int_equal(hg_stream_recv_begin(p, NULL, &r), -ENOENT);
  put(f->rx, "file", p);
  write_at(p, "x", 1, 0, O_TRUNC);
  assert_int_equal(hg_stream_recv_begin(f->rx, NULL, &r), -ENOTEMPTY);
  assert_int_equal(hg_stream_recv_begin(p, NULL, &r), -ENOTDIR);
  assert_null(r);
  assert_int_equal(count_entries(f->rx), 1); /* not ours: untouched */
}

/* ---- hostile streams: the real `btrfs send` of crafted subvolumes, with
 * attributes edited and every crc32c recomputed, so that only the
 * checker's rules (not the crc) can catch them. Each is refused before
 * `btrfs receive` sees the command, and nothing appears where the attack
 * aimed. */

#define RAW_MAX (16u << 20)

typedef struct edits {
  const char *from, *to;     /* path prefix to replace */
  const char *link_to;       /* new SYMLINK target, or NULL */
  const uint8_t *clone_uuid; /* new CLONE_UUID of CLONE/SNAPSHOT, or NULL */
  const char *clone_path;    /* new CLONE_PATH, or NULL */
  const char *subvol;        /* new SUBVOL/SNAPSHOT name, or NULL */
  int hits;
} edits;

static bool edit_attr(void *ud, uint16_t cmd, uint16_t type, const uint8_t *v,
                      uint16_t len, uint8_t *nv, uint16_t *nlen) {
  edits *e = ud;
  const char *with = NULL;
  size_t skip = 0;
  if ((cmd == 1 || cmd == 2) && type == 15 && e->subvol) {
    with = e->subvol;
    skip = len;
  } else if (cmd == 8 && type == 17 && e->link_to) {
    with = e->link_to;
    skip = len;
  } else if ((cmd == 16 || cmd == 2) && type == 20 && e->clone_uuid) {
    memcpy(nv, e->clone_uuid, 16);
    *nlen = 16;
    e->hits++;
    return true;
  } else if (cmd == 16 && type == 22 && e->clone_path) {
    with = e->clone_path;
    skip = len;
  } else if ((type == 15 || type == 16) && cmd != 1 && cmd != 2 && e->from &&
             len >= strlen(e->from) && memcmp(v, e->from, strlen(e->from)) == 0) {
    with = e->to;
    skip = strlen(e->from);
  }
  if (!with) return false;
  size_t wl = strlen(with);
  memcpy(nv, with, wl);
  memcpy(nv + wl, v + skip, len - skip);
  *nlen = (uint16_t)(wl + len - skip);
  e->hits++;
  return true;
}

/* The real send stream of subvol (against parent), decompressed. */
static size_t raw_stream(const char *subvol, const char *parent, uint8_t *raw) {
  capture c;
  hg_stream_stats st;
  send_to_buf(subvol, parent, &c, &st);
  size_t n = ZSTD_decompress(raw, RAW_MAX, c.z.data, c.z.len);
  assert_false(ZSTD_isError(n));
  assert_int_equal(n, st.raw_bytes);
  hg_buf_free(&c.z);
  return n;
}

/* Sends subvol, edits it, receives it: the checker's verdict, with msg. */
static int receive_edited(fixture *f, const char *subvol, const char *parent, edits *e,
                          char *msg, size_t cap) {
  uint8_t *raw = malloc(RAW_MAX), *ed = malloc(RAW_MAX + 65536), *z = malloc(RAW_MAX);
  assert_true(raw && ed && z);
  size_t n = raw_stream(subvol, parent, raw);
  n = sb_edit(raw, n, ed, edit_attr, e);
  assert_true(n > 0);
  assert_true(e->hits > 0); /* the stream had what the attack edits */
  n = zstd_of(ed, n, z, RAW_MAX);
  begin(f, f->rx);
  feed_all(f->r, z, n, 65536);
  char name[256];
  int rc = finish(f, name, NULL, msg, cap);
  free(raw);
  free(ed);
  free(z);
  return rc;
}

/* A crafted sandbox subvolume: made by fn, then snapshotted read-only. */
static void craft(fixture *f, const char *tag, void (*fn)(const char *dir, void *),
                  void *ud, char snap[PATH_MAX]) {
  hg_store *s = f->g->main.s;
  char rel[64], dir[PATH_MAX];
  snprintf(rel, sizeof rel, "sandboxes/%s", tag);
  assert_int_equal(hg_store_subvol_create(s, rel), 0);
  assert_int_equal(hg_store_abs(s, rel, dir, sizeof dir), 0);
  fn(dir, ud);
  char srel[64];
  snprintf(srel, sizeof srel, "snapshots/%s/1", tag);
  assert_int_equal(hg_store_snapshot(s, rel, srel, true), 0);
  assert_int_equal(hg_store_abs(s, srel, snap, PATH_MAX), 0);
}

static void uncraft(fixture *f, const char *tag) {
  char rel[64];
  snprintf(rel, sizeof rel, "snapshots/%s/1", tag);
  assert_int_equal(hg_store_subvol_delete(f->g->main.s, rel), 0);
  snprintf(rel, sizeof rel, "sandboxes/%s", tag);
  assert_int_equal(hg_store_subvol_delete(f->g->main.s, rel), 0);
}

static bool exists(const char *path) {
  struct stat st;
  return lstat(path, &st) == 0;
}

/* x -> target first (the lowest inode: sent first), then y/pwn. */
static void make_link_then_file(const char *dir, void *target) {
  char p[PATH_MAX];
  put(dir, "x", p);
  assert_int_equal(symlink(target, p), 0);
  put(dir, "y", p);
  assert_int_equal(mkdir(p, 0755), 0);
  put(dir, "y/pwn", p);
  write_at(p, "* * * * * root touch /pwned\n", 28, 0, O_TRUNC);
}

/* SYMLINK x -> /tmp/<dir>, then the file meant for y/pwn written as x/pwn:
 * without the checker, btrfs receive would create /tmp/<dir>/pwn. */
static void symlink_then_write_through_is_refused(void **state) {
  fixture *f = *state;
  char aim[] = "/tmp/hg-pwn-XXXXXX", snap[PATH_MAX], msg[512], pwn[PATH_MAX];
  assert_non_null(mkdtemp(aim));
  put(aim, "pwn", pwn);
  craft(f, "evil-link", make_link_then_file, aim, snap);
  edits e = {.from = "y/", .to = "x/"};
  assert_int_equal(receive_edited(f, snap, NULL, &e, msg, sizeof msg), -EPROTO);
  assert_non_null(strstr(msg, "refused send stream: SYMLINK "));
  assert_non_null(strstr(msg, " -> '/tmp/hg-pwn-"));
  assert_non_null(strstr(msg, "points outside the subvolume"));
  assert_false(exists(pwn));
  assert_left_nothing(f->rx);

  /* the same with the link kept inside: its target is fine, going through
   * it is not */
  edits inside = {.from = "y/", .to = "x/", .link_to = "y"};
  assert_int_equal(receive_edited(f, snap, NULL, &inside, msg, sizeof msg), -EPROTO);
  assert_non_null(strstr(msg, "x/pwn goes through symlink x made by the stream"));
  assert_false(exists(pwn));
  assert_left_nothing(f->rx);
  assert_int_equal(rmdir(aim), 0);
  uncraft(f, "evil-link");
}

static void make_file(const char *dir, void *name) {
  char p[PATH_MAX];
  put(dir, name, p);
  write_at(p, "owned\n", 6, 0, O_TRUNC);
}

static void absolute_path_is_refused(void **state) {
  fixture *f = *state;
  char aim[64], snap[PATH_MAX], msg[512];
  snprintf(aim, sizeof aim, "/tmp/hg-abs-%d", (int)getpid());
  craft(f, "evil-abs", make_file, "abs-target", snap);
  edits e = {.from = "abs-target", .to = aim};
  assert_int_equal(receive_edited(f, snap, NULL, &e, msg, sizeof msg), -EPROTO);
  assert_non_null(strstr(msg, "is absolute"));
  assert_false(exists(aim));
  assert_left_nothing(f->rx);
  uncraft(f, "evil-abs");
}

/* The subvolume named "../../hg-dotdot-<pid>": two levels above the
 * staging dir is the store's root. */
static void dotdot_subvolume_name_is_refused(void **state) {
  fixture *f = *state;
  char name[64], aim[PATH_MAX], snap[PATH_MAX], msg[512];
  snprintf(name, sizeof name, "../../hg-dotdot-%d", (int)getpid());
  put(f->rx, name, aim);
  craft(f, "evil-dotdot", make_file, "f", snap);
  edits e = {.subvol = name};
  assert_int_equal(receive_edited(f, snap, NULL, &e, msg, sizeof msg), -EPROTO);
  assert_non_null(strstr(msg, "is not a plain name"));
  assert_false(exists(aim));
  assert_left_nothing(f->rx);
  uncraft(f, "evil-dotdot");
}

static void parse_uuid(const char *s, uint8_t out[16]) {
  for (int i = 0, n = 0; s[i] && n < 16; i++) {
    if (s[i] == '-') continue;
    unsigned v;
    assert_int_equal(sscanf(s + i, "%2x", &v), 1);
    out[n++] = (uint8_t)v;
    i++;
  }
}

/* a.bin, and b.bin sharing its extents: btrfs send clones b from a. */
static void make_reflinked(const char *dir, void *unused) {
  char a[PATH_MAX], b[PATH_MAX];
  put(dir, "a.bin", a);
  put(dir, "b.bin", b);
  write_random(a, 1u << 20);
  int fa = open(a, O_RDONLY | O_CLOEXEC),
      fb = open(b, O_WRONLY | O_CREAT | O_CLOEXEC, 0644);
  assert_true(fa >= 0 && fb >= 0);
  assert_int_equal(ioctl(fb, FICLONE, fa), 0);
  close(fa);
  close(fb);
}

static void make_secret(const char *dir, void *unused) {
  char p[PATH_MAX];
  put(dir, "secret.bin", p);
  write_random(p, 1u << 20);
}

/* Another tenant's subvolume is one uuid away (LIST shows identities):
 * a CLONE from it would copy its disk into the replica. */
static void clone_from_another_subvolume_is_refused(void **state) {
  fixture *f = *state;
  char evil[PATH_MAX], victim[PATH_MAX], msg[512];
  craft(f, "victim", make_secret, NULL, victim);
  craft(f, "evil-clone", make_reflinked, NULL, evil);
  hg_subvol_info vi;
  assert_int_equal(hg_store_subvol_info(f->g->main.s, "snapshots/victim/1", &vi), 0);
  uint8_t vu[16];
  parse_uuid(identity(&vi), vu);
  edits e = {.clone_uuid = vu, .clone_path = "secret.bin"};
  assert_int_equal(receive_edited(f, evil, NULL, &e, msg, sizeof msg), -EPROTO);
  assert_non_null(strstr(msg, "CLONE from "));
  assert_non_null(strstr(msg, identity(&vi)));
  assert_left_nothing(f->rx);

  /* and a SNAPSHOT of it, in place of the agreed parent */
  f->parent = identity(&f->g->gen1_info);
  edits snap = {.clone_uuid = vu};
  assert_int_equal(receive_edited(f, f->g->gen2, f->g->gen1, &snap, msg, sizeof msg),
                   -EPROTO);
  assert_non_null(strstr(msg, "not of the agreed parent"));
  assert_left_nothing(f->rx);

  /* unedited, both still pass */
  edits none = {0};
  f->parent = NULL;
  none.subvol = "1"; /* a no-op edit, so the stream goes through the editor */
  assert_int_equal(receive_edited(f, evil, NULL, &none, msg, sizeof msg), 0);
  char got[PATH_MAX];
  put(f->rx, "1", got);
  assert_int_equal(
      hg_store_subvol_delete(f->g->main.s, got + strlen(hg_store_root(f->g->main.s)) + 1),
      0);
  uncraft(f, "evil-clone");
  uncraft(f, "victim");
}

/* While a receive runs, its child is chrooted into the staging dir, in a
 * mount namespace of its own where the host's root is read-only. */
static void receive_child_is_jailed(void **state) {
  fixture *f = *state;
  char ours[64] = "", theirs[64] = "", root[PATH_MAX] = "", path[64];
  begin(f, f->rx);
  /* the child: our only one */
  pid_t pid = 0;
  char kids[256] = "";
  snprintf(path, sizeof path, "/proc/self/task/%d/children", (int)gettid());
  for (int i = 0; i < 200 && !pid; i++) {
    FILE *fp = fopen(path, "r");
    if (fp && fgets(kids, sizeof kids, fp)) pid = atoi(kids);
    if (fp) fclose(fp);
    if (!pid) usleep(10000);
  }
  assert_true(pid > 0);
  snprintf(path, sizeof path, "/proc/%d/root", (int)pid);
  /* btrfs receive chroots before it reads a byte */
  for (int i = 0; i < 300 && strcmp(root, f->rx) != 0; i++) {
    ssize_t n = readlink(path, root, sizeof root - 1);
    root[n > 0 ? n : 0] = '\0';
    if (strcmp(root, f->rx) != 0) usleep(10000);
  }
  assert_string_equal(root, f->rx);
  /* chrooted by -C, and the first failed command ends it */
  char cmdline[1024];
  snprintf(path, sizeof path, "/proc/%d/cmdline", (int)pid);
  FILE *cl = fopen(path, "r");
  assert_non_null(cl);
  size_t cn = fread(cmdline, 1, sizeof cmdline - 1, cl);
  fclose(cl);
  for (size_t i = 0; i < cn; i++)
    if (cmdline[i] == '\0') cmdline[i] = ' ';
  cmdline[cn] = '\0';
  assert_non_null(strstr(cmdline, "receive -e -C --max-errors 1 -- "));
  assert_true(readlink("/proc/self/ns/mnt", ours, sizeof ours - 1) > 0);
  snprintf(path, sizeof path, "/proc/%d/ns/mnt", (int)pid);
  assert_true(readlink(path, theirs, sizeof theirs - 1) > 0);
  assert_string_not_equal(ours, theirs);
  /* in its namespace, "/" is read-only and the store's mount is not: a
   * forked child of ours joins it to look (setns wants one thread) */
  pid_t look = fork();
  if (look == 0) {
    snprintf(path, sizeof path, "/proc/%d/ns/mnt", (int)pid);
    int ns = open(path, O_RDONLY | O_CLOEXEC);
    if (ns < 0 || setns(ns, CLONE_NEWNS) < 0) _exit(2);
    struct statvfs root_fs, data_fs;
    if (statvfs("/", &root_fs) < 0 || statvfs(f->rx, &data_fs) < 0) _exit(3);
    _exit((root_fs.f_flag & ST_RDONLY) && !(data_fs.f_flag & ST_RDONLY) ? 0 : 1);
  }
  int status = -1;
  assert_int_equal(waitpid(look, &status, 0), look);
  assert_true(WIFEXITED(status));
  assert_int_equal(WEXITSTATUS(status), 0);
  /* and ours is as it was */
  struct statvfs here;
  assert_int_equal(statvfs(f->rx, &here), 0);
  assert_false(here.f_flag & ST_RDONLY);
  hg_stream_recv_abort(f->r);
  f->r = NULL;
  assert_left_nothing(f->rx);
}

/* ---- receiving on another filesystem -------------------------------- */

static void increment_without_its_parent_fails_cleanly(void **state) {
  fixture *f = *state;
  assert_int_equal(place_open(&f->tiny, "other", TINY_SIZE), 0);
  char rx[PATH_MAX];
  assert_int_equal(hg_store_abs(f->tiny.s, "staging", rx, sizeof rx), 0);
  capture c;
  hg_stream_stats st;
  send_to_buf(f->g->gen2, f->g->gen1, &c, &st);
  f->parent = identity(&f->g->gen1_info);
  begin(f, rx);
  feed_all(f->r, c.z.data, c.z.len, HG_STREAM_CHUNK);
  char name[256], msg[512];
  assert_int_equal(finish(f, name, NULL, msg, sizeof msg), -EIO);
  assert_non_null(strstr(msg, "btrfs receive failed: "));
  assert_non_null(strstr(msg, "parent"));
  assert_left_nothing(rx);
  hg_buf_free(&c.z);

  /* a parent is named by root id: one on another filesystem is refused */
  char other[PATH_MAX];
  assert_int_equal(hg_store_subvol_create(f->tiny.s, "sandboxes/x"), 0);
  assert_int_equal(hg_store_snapshot(f->tiny.s, "sandboxes/x", "snapshots/x/1", true), 0);
  assert_int_equal(hg_store_abs(f->tiny.s, "snapshots/x/1", other, sizeof other), 0);
  capture_init(&c);
  assert_int_equal(hg_stream_send(f->g->gen2, other, 1, capture_emit, NULL, &c, &st),
                   -EXDEV);
  assert_int_equal(c.calls, 0);
}

static void full_disk_fails_cleanly(void **state) {
  fixture *f = *state;
  group *g = f->g;
  assert_int_equal(place_open(&f->tiny, "tiny", TINY_SIZE), 0);
  uint64_t free_bytes = 0;
  assert_int_equal(hg_store_free_bytes(f->tiny.s, &free_bytes), 0);

  /* a subvolume bigger than the tiny store's free space; zeros keep the
   * stream itself small */
  char big[PATH_MAX], p[PATH_MAX], snap[PATH_MAX], rx[PATH_MAX];
  assert_int_equal(hg_store_subvol_create(g->main.s, "sandboxes/big"), 0);
  assert_int_equal(hg_store_abs(g->main.s, "sandboxes/big", big, sizeof big), 0);
  put(big, "zeros.bin", p);
  write_zeros(p, (size_t)free_bytes + (32u << 20));
  assert_int_equal(hg_store_snapshot(g->main.s, "sandboxes/big", "snapshots/big/1", true),
                   0);
  assert_int_equal(hg_store_abs(g->main.s, "snapshots/big/1", snap, sizeof snap), 0);

  assert_int_equal(hg_store_abs(f->tiny.s, "staging", rx, sizeof rx), 0);
  begin(f, rx);
  capture c;
  capture_init(&c);
  c.feed_to = f->r;
  hg_stream_stats st;
  int rc = hg_stream_send(snap, NULL, 1, capture_emit, NULL, &c, &st);
  assert_true(rc == 0 || rc == -EPIPE); /* the child may quit mid-stream */
  char name[256], msg[512];
  assert_int_equal(finish(f, name, NULL, msg, sizeof msg), -ENOSPC);
  assert_non_null(strstr(msg, "btrfs receive failed: "));
  assert_non_null(strstr(msg, "No space left on device"));
  assert_left_nothing(rx);

  assert_int_equal(hg_store_subvol_delete(g->main.s, "snapshots/big/1"), 0);
  assert_int_equal(hg_store_subvol_delete(g->main.s, "sandboxes/big"), 0);
}

int main(void) {
#define T(fn) cmocka_unit_test_setup_teardown(fn, setup, teardown)
  const struct CMUnitTest tests[] = {
      T(full_stream_round_trips),
      T(incremental_stream_is_small_and_applies),
      T(emit_error_stops_send),
      T(send_refuses_what_is_not_a_readonly_subvolume),
      T(corrupt_byte_fails_and_leaves_nothing),
      T(flipped_checksum_fails_and_leaves_nothing),
      T(truncated_stream_fails_and_leaves_nothing),
      T(abort_mid_stream_kills_child_and_leaves_nothing),
      T(stream_without_checksum_is_refused),
      T(data_after_the_frame_is_refused),
      T(junk_is_refused_before_the_child),
      T(child_failure_reports_its_stderr),
      T(begin_wants_an_empty_dir),
      T(symlink_then_write_through_is_refused),
      T(absolute_path_is_refused),
      T(dotdot_subvolume_name_is_refused),
      T(clone_from_another_subvolume_is_refused),
      T(receive_child_is_jailed),
      T(increment_without_its_parent_fails_cleanly),
      T(full_disk_fails_cleanly),
  };
#undef T
  return cmocka_run_group_tests(tests, group_setup, group_teardown);
}
