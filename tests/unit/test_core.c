/* node/core: bounded buffers, ids, secrets, file helpers and the typed
 * msgpack getters that every decoder of outside bytes relies on. */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
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
#include <sys/wait.h>
#include <unistd.h>

#include <cmocka.h>

#include "node/core/buf.h"
#include "node/core/curluv.h"
#include "node/core/guard.h"
#include "node/core/ident.h"
#include "node/core/list.h"
#include "node/core/mp.h"
#include "node/core/parse.h"
#include "node/core/proc.h"
#include "node/core/util.h"
#include "tests/unit/prereq_util.h"

/* Under ASan a failing huge malloc must return NULL, as libc's does, so the
 * -ENOMEM paths can be tested. */
const char *__asan_default_options(void);
const char *__asan_default_options(void) {
  return "allocator_may_return_null=1";
}

/* ---- hg_buf ---------------------------------------------------------- */

static void buf_append_keeps_nul_and_grows(void **state) {
  hg_buf b;
  hg_buf_init(&b, 1 << 20);
  assert_int_equal(hg_buf_append(&b, "", 0), 0);
  assert_non_null(b.data);
  assert_string_equal(b.data, "");
  for (int i = 0; i < 1000; i++) assert_int_equal(hg_buf_append(&b, "abc", 3), 0);
  assert_int_equal(b.len, 3000);
  assert_true(b.cap > b.len);
  assert_int_equal(b.data[b.len], '\0');
  assert_memory_equal(b.data + 2997, "abc", 3);
  hg_buf_free(&b);
  assert_null(b.data);
  assert_int_equal(b.len, 0);
  assert_int_equal(b.max, 1 << 20); /* reusable after free */
}

static void buf_limit_is_exact_and_enobufs_leaves_buffer_alone(void **state) {
  hg_buf b;
  hg_buf_init(&b, 8);
  assert_int_equal(hg_buf_append(&b, "12345", 5), 0);
  assert_int_equal(hg_buf_append(&b, "6789", 4), -ENOBUFS);
  assert_int_equal(b.len, 5);
  assert_string_equal(b.data, "12345");
  assert_int_equal(hg_buf_append(&b, "678", 3), 0); /* exactly max */
  assert_int_equal(hg_buf_append(&b, "9", 1), -ENOBUFS);
  assert_int_equal(hg_buf_printf(&b, "%s", ""), 0);
  assert_int_equal(hg_buf_printf(&b, "%d", 1), -ENOBUFS);
  assert_string_equal(b.data, "12345678");
  hg_buf_free(&b);
}

static void buf_zero_max_refuses_everything_but_nothing(void **state) {
  hg_buf b;
  hg_buf_init(&b, 0);
  assert_int_equal(hg_buf_append(&b, "x", 1), -ENOBUFS);
  assert_int_equal(hg_buf_append(&b, "", 0), 0);
  hg_buf_free(&b);
}

static void buf_huge_append_does_not_wrap(void **state) {
  /* With no practical ceiling, len + extra + 1 must not overflow into a
   * tiny allocation. */
  hg_buf b;
  hg_buf_init(&b, SIZE_MAX);
  assert_int_equal(hg_buf_append(&b, "x", 1), 0);
  int rc = hg_buf_append(&b, "y", SIZE_MAX - 1);
  assert_true(rc == -ENOBUFS || rc == -ENOMEM);
  assert_int_equal(b.len, 1);
  rc = hg_buf_append(&b, "y", SIZE_MAX / 2 + 1);
  assert_true(rc == -ENOBUFS || rc == -ENOMEM);
  assert_int_equal(b.len, 1);
  hg_buf_free(&b);
}

static void buf_printf_formats(void **state) {
  hg_buf b;
  hg_buf_init(&b, 1024);
  assert_int_equal(hg_buf_printf(&b, "a=%d ", 1), 0);
  assert_int_equal(hg_buf_printf(&b, "b=%s", "two"), 0);
  assert_string_equal(b.data, "a=1 b=two");
  assert_int_equal(b.len, 9);
  hg_buf_free(&b);
}

static void buf_consume_drops_prefix(void **state) {
  hg_buf b;
  hg_buf_init(&b, 64);
  hg_buf_consume(&b, 3); /* on an empty, unallocated buffer */
  assert_int_equal(b.len, 0);
  assert_int_equal(hg_buf_append(&b, "hello world", 11), 0);
  hg_buf_consume(&b, 0);
  assert_string_equal(b.data, "hello world");
  hg_buf_consume(&b, 6);
  assert_int_equal(b.len, 5);
  assert_string_equal(b.data, "world");
  hg_buf_consume(&b, 100);
  assert_int_equal(b.len, 0);
  assert_string_equal(b.data, "");
  /* Consumed bytes free room under the ceiling again. */
  assert_int_equal(hg_buf_append(&b, "0123456789012345678901234567890123456789", 40), 0);
  assert_int_equal(hg_buf_append(&b, "0123456789012345678901234", 25), -ENOBUFS);
  hg_buf_consume(&b, 10);
  assert_int_equal(hg_buf_append(&b, "0123456789012345678901234", 25), 0);
  assert_int_equal(b.len, 55);
  hg_buf_reset(&b);
  assert_int_equal(b.len, 0);
  assert_string_equal(b.data, "");
  hg_buf_free(&b);
}

/* ---- ids and secrets ------------------------------------------------- */

static void hostport_split_takes_v4_names_and_bracketed_v6(void **state) {
  char host[16];
  int port = -2;
  assert_int_equal(hg_hostport_split("10.0.0.1:7946", host, sizeof host, -1, &port), 0);
  assert_string_equal(host, "10.0.0.1");
  assert_int_equal(port, 7946);
  assert_int_equal(hg_hostport_split("[::1]:0", host, sizeof host, -1, &port), 0);
  assert_string_equal(host, "::1");
  assert_int_equal(port, 0);
  assert_int_equal(hg_hostport_split("1.2.3.4", host, sizeof host, 53, &port), 0);
  assert_int_equal(port, 53);
  assert_int_equal(hg_hostport_split("[::1]", host, sizeof host, 53, &port), 0);
  assert_string_equal(host, "::1");
  const char *bad[] = {"1.2.3.4", ":80", "h:", "h:65536", "h:8x", "h:-1", "::1:80",
                       "[::1", "[::1]x", "[]:80", "h:123456"};
  for (size_t i = 0; i < HG_ARRAY_SIZE(bad); i++)
    assert_int_equal(hg_hostport_split(bad[i], host, sizeof host, -1, &port), -EINVAL);
  assert_int_equal(hg_hostport_split("a-very-long-host-name:1", host, sizeof host, -1, &port),
                   -ENAMETOOLONG);
  /* and back: a v6 host gets its brackets, so split reads it again */
  char addr[24];
  assert_int_equal(hg_hostport_join(addr, sizeof addr, "::1", 7947), 0);
  assert_string_equal(addr, "[::1]:7947");
  assert_int_equal(hg_hostport_split(addr, host, sizeof host, -1, &port), 0);
  assert_string_equal(host, "::1");
  assert_int_equal(port, 7947);
  assert_int_equal(hg_hostport_join(addr, sizeof addr, "10.88.0.1", 7070), 0);
  assert_string_equal(addr, "10.88.0.1:7070");
  assert_int_equal(hg_hostport_join(addr, sizeof addr, "a-very-long-host-name", 7070),
                   -ENAMETOOLONG);
}

static void id_new_is_prefix_dash_16_lowercase_hex(void **state) {
  char a[HG_ID_MAX], b[HG_ID_MAX];
  assert_int_equal(hg_id_new("sb", a), 0);
  assert_int_equal(hg_id_new("sb", b), 0);
  assert_int_equal(strlen(a), 3 + HG_ID_HEX);
  assert_memory_equal(a, "sb-", 3);
  assert_true(hg_id_valid("sb", a));
  assert_string_not_equal(a, b);
  for (size_t i = 3; i < strlen(a); i++)
    assert_non_null(strchr("0123456789abcdef", a[i]));
  assert_int_equal(hg_id_new("op", a), 0);
  assert_true(hg_id_valid("op", a));
  assert_false(hg_id_valid("sb", a));
}

static void id_new_refuses_prefix_that_does_not_fit(void **state) {
  char out[HG_ID_MAX];
  assert_int_equal(hg_id_new("a-very-long-prefix", out), -ENAMETOOLONG);
}

static void id_valid_rejects_malformed(void **state) {
  assert_true(hg_id_valid("sb", "sb-0123456789abcdef"));
  assert_true(hg_id_valid("cmd", "cmd-ffffffffffffffff"));
  static const char *const bad[] = {
      "",                      /* empty */
      "sb",                    /* prefix only */
      "sb-",                   /* no hex */
      "sb0123456789abcdef0",   /* no dash */
      "sb_0123456789abcdef",   /* wrong separator */
      "sbx-0123456789abcdef",  /* longer prefix */
      "s-0123456789abcdef",    /* shorter prefix */
      "op-0123456789abcdef",   /* other prefix */
      "SB-0123456789abcdef",   /* uppercase prefix */
      "sb-0123456789ABCDEF",   /* uppercase hex */
      "sb-0123456789abcde",    /* 15 hex */
      "sb-0123456789abcdef0",  /* 17 hex */
      "sb-0123456789abcdeg",   /* not hex */
      "sb-0123456789abcdef/",  /* trailing path */
      "sb-../../etc/passwd00", /* traversal */
      "sb-0123456789abcde\n",  /* control byte */
      " sb-0123456789abcdef",  /* leading space */
  };
  for (size_t i = 0; i < HG_ARRAY_SIZE(bad); i++) {
    if (hg_id_valid("sb", bad[i])) fail_msg("accepted \"%s\"", bad[i]);
  }
  assert_false(hg_id_valid("sb", NULL));
}

static void secret_equal_compares_whole_strings(void **state) {
  assert_true(hg_secret_equal("", ""));
  assert_true(hg_secret_equal("s3cret-token", "s3cret-token"));
  assert_false(hg_secret_equal("s3cret-token", "s3cret-tokeN"));
  assert_false(hg_secret_equal("s3cret-token", "x3cret-token"));
  assert_false(hg_secret_equal("abc", "abcd"));
  assert_false(hg_secret_equal("abcd", "abc"));
  assert_false(hg_secret_equal("", "a"));
  assert_false(hg_secret_equal("a", ""));
  assert_false(hg_secret_equal("abcabc", "abc")); /* b repeated must not match */
}

/* ---- files ------------------------------------------------------------ */

typedef struct tmpdir {
  char path[64];
} tmpdir;

static int dir_setup(void **state) {
  tmpdir *t = calloc(1, sizeof *t);
  if (!t) return -1;
  snprintf(t->path, sizeof t->path, "/tmp/hg-core-XXXXXX");
  if (!mkdtemp(t->path)) {
    free(t);
    return -1;
  }
  *state = t;
  return 0;
}

static int dir_teardown(void **state) {
  tmpdir *t = *state;
  int rc = hg_rm_rf(t->path);
  free(t);
  return rc;
}

static void in_dir(void **state, char *out, size_t cap, const char *rel) {
  tmpdir *t = *state;
  assert_int_equal(hg_path(out, cap, "%s/%s", t->path, rel), 0);
}

static int count_entries(const char *dir) {
  DIR *d = opendir(dir);
  int n = 0;
  if (!d) return -1;
  for (struct dirent *de; (de = readdir(d));)
    if (strcmp(de->d_name, ".") && strcmp(de->d_name, "..")) n++;
  closedir(d);
  return n;
}

/* A console log: the last whole lines that fit, \r gone, escapes defused. */
static void file_tail_keeps_last_whole_lines(void **state) {
  char path[PATH_MAX], out[24];
  in_dir(state, path, sizeof path, "console.log");
  /* \x9b is a C1 CSI to some terminals, and not UTF-8 on its own. */
  const char text[] = "first line is long\r\nsecond\r\n\x1b[2Jthird\x9b\r\n\n\n";
  assert_int_equal(hg_write_file_atomic(path, text, sizeof text - 1), 0);
  assert_int_equal(hg_file_tail(path, out, sizeof out), 0);
  assert_string_equal(out, "second\n?[2Jthird?");
  char all[256];
  assert_int_equal(hg_file_tail(path, all, sizeof all), 0);
  assert_string_equal(all, "first line is long\nsecond\n?[2Jthird?");
  assert_int_equal(hg_write_file_atomic(path, "", 0), 0);
  assert_int_equal(hg_file_tail(path, out, sizeof out), 0);
  assert_string_equal(out, "");
  in_dir(state, path, sizeof path, "missing.log");
  assert_int_equal(hg_file_tail(path, out, sizeof out), -ENOENT);
  assert_int_equal(hg_file_tail(path, out, 1), -EINVAL);
}

static void write_atomic_then_read_round_trips(void **state) {
  char path[PATH_MAX], *out;
  size_t len;
  in_dir(state, path, sizeof path, "f.json");
  assert_int_equal(hg_write_file_atomic(path, "{\"a\":1}", 7), 0);
  assert_int_equal(hg_read_file(path, 1024, &out, &len), 0);
  assert_int_equal(len, 7);
  assert_string_equal(out, "{\"a\":1}");
  free(out);
  /* Replaced whole, binary-safe, and no temp file left beside it. */
  assert_int_equal(hg_write_file_atomic(path, "x\0y", 3), 0);
  assert_int_equal(hg_read_file(path, 1024, &out, &len), 0);
  assert_int_equal(len, 3);
  assert_memory_equal(out, "x\0y", 3);
  free(out);
  assert_int_equal(count_entries(((tmpdir *)*state)->path), 1);
  struct stat st;
  assert_int_equal(stat(path, &st), 0);
  assert_int_equal(st.st_mode & 0777, 0600);
}

/* A file others must read (a guest's resolv.conf) gets the mode asked
 * for, whatever the umask, and keeps it when replaced. */
static void write_atomic_mode_is_set_not_umasked(void **state) {
  char path[PATH_MAX], *out;
  in_dir(state, path, sizeof path, "resolv.conf");
  mode_t old = umask(077);
  int rc1 = hg_write_file_atomic_mode(path, "nameserver 10.0.2.1\n", 20, 0644);
  struct stat st1;
  int s1 = stat(path, &st1);
  int rc2 = hg_write_file_atomic_mode(path, "x", 1, 0644);
  umask(old);
  assert_int_equal(rc1, 0);
  assert_int_equal(s1, 0);
  assert_int_equal(st1.st_mode & 07777, 0644);
  assert_int_equal(rc2, 0);
  struct stat st;
  assert_int_equal(stat(path, &st), 0);
  assert_int_equal(st.st_mode & 07777, 0644);
  assert_int_equal(hg_read_file(path, 64, &out, NULL), 0);
  assert_string_equal(out, "x");
  free(out);
  assert_int_equal(count_entries(((tmpdir *)*state)->path), 1);
}

static void write_atomic_empty_file(void **state) {
  char path[PATH_MAX], *out;
  size_t len = 99;
  in_dir(state, path, sizeof path, "empty");
  assert_int_equal(hg_write_file_atomic(path, "", 0), 0);
  assert_int_equal(hg_read_file(path, 0, &out, &len), 0);
  assert_int_equal(len, 0);
  assert_string_equal(out, "");
  free(out);
}

static void write_atomic_into_missing_dir_fails(void **state) {
  char path[PATH_MAX];
  in_dir(state, path, sizeof path, "nodir/f");
  assert_int_equal(hg_write_file_atomic(path, "x", 1), -ENOENT);
}

#define RACE_SIZE (64 * 1024)
#define RACE_ROUNDS 50

typedef struct racer {
  const char *path;
  char fill;
  int failures;
} racer;

static void *atomic_writer(void *arg) {
  racer *r = arg;
  char *data = malloc(RACE_SIZE);
  if (!data) return NULL;
  memset(data, r->fill, RACE_SIZE);
  for (int i = 0; i < RACE_ROUNDS; i++)
    if (hg_write_file_atomic(r->path, data, RACE_SIZE) < 0) r->failures++;
  free(data);
  return NULL;
}

/* Two threads saving the same state file: the file must always hold one
 * writer's whole contents, and neither save may fail. */
static void write_atomic_concurrent_writers_never_mix(void **state) {
  char path[PATH_MAX];
  in_dir(state, path, sizeof path, "state.json");
  racer r[2] = {{path, 'A', 0}, {path, 'B', 0}};
  pthread_t th[2];
  for (int i = 0; i < 2; i++)
    assert_int_equal(pthread_create(&th[i], NULL, atomic_writer, &r[i]), 0);
  for (int i = 0; i < 2; i++) pthread_join(th[i], NULL);
  assert_int_equal(r[0].failures + r[1].failures, 0);
  char *out;
  size_t len;
  assert_int_equal(hg_read_file(path, RACE_SIZE, &out, &len), 0);
  assert_int_equal(len, RACE_SIZE);
  for (size_t i = 1; i < len; i++)
    if (out[i] != out[0]) fail_msg("mixed contents at byte %zu", i);
  free(out);
  assert_int_equal(count_entries(((tmpdir *)*state)->path), 1); /* no temp files left */
}

static void read_file_bounds_and_errors(void **state) {
  char path[PATH_MAX], *out = (char *)0x1;
  size_t len = 0;
  in_dir(state, path, sizeof path, "ten");
  assert_int_equal(hg_write_file_atomic(path, "0123456789", 10), 0);
  assert_int_equal(hg_read_file(path, 10, &out, &len), 0); /* exactly max */
  assert_int_equal(len, 10);
  free(out);
  out = (char *)0x1;
  assert_int_equal(hg_read_file(path, 9, &out, &len), -EFBIG);
  assert_ptr_equal(out, (char *)0x1); /* untouched on failure */
  assert_int_equal(hg_read_file(path, 0, &out, &len), -EFBIG);
  assert_int_equal(hg_read_file(path, 10, &out, NULL), 0); /* len optional */
  free(out);
  in_dir(state, path, sizeof path, "missing");
  assert_int_equal(hg_read_file(path, 10, &out, &len), -ENOENT);
  /* A directory is not a file, even though open(2) accepts it. */
  in_dir(state, path, sizeof path, "");
  assert_int_equal(hg_read_file(path, 1 << 20, &out, &len), -EISDIR);
}

static void read_file_handles_files_that_lie_about_size(void **state) {
  char *out;
  size_t len;
  /* procfs reports size 0 and sysfs 4096, whatever they hold. */
  assert_int_equal(hg_read_file("/proc/self/stat", 1 << 16, &out, &len), 0);
  assert_true(len > 10);
  assert_int_equal(strlen(out), len);
  free(out);
  assert_int_equal(hg_read_file("/proc/self/stat", 4, &out, &len), -EFBIG);
  if (access("/sys/kernel/mm/transparent_hugepage/enabled", R_OK) == 0) {
    assert_int_equal(
        hg_read_file("/sys/kernel/mm/transparent_hugepage/enabled", 512, &out, &len), 0);
    assert_true(len > 0 && len < 512);
    free(out);
  }
}

static void mkdir_p_makes_nested_and_is_idempotent(void **state) {
  char path[PATH_MAX];
  struct stat st;
  in_dir(state, path, sizeof path, "a/b/c/");
  assert_int_equal(hg_mkdir_p(path, 0700), 0);
  assert_int_equal(stat(path, &st), 0);
  assert_true(S_ISDIR(st.st_mode));
  assert_int_equal(st.st_mode & 0777, 0700);
  assert_int_equal(hg_mkdir_p(path, 0700), 0);
  in_dir(state, path, sizeof path, "a//b2");
  assert_int_equal(hg_mkdir_p(path, 0755), 0);
  assert_int_equal(hg_mkdir_p("/", 0755), 0);
}

static void mkdir_p_fails_through_a_file(void **state) {
  char path[PATH_MAX];
  in_dir(state, path, sizeof path, "file");
  assert_int_equal(hg_write_file_atomic(path, "x", 1), 0);
  assert_int_equal(hg_mkdir_p(path, 0700), -ENOTDIR);
  in_dir(state, path, sizeof path, "file/sub");
  assert_int_equal(hg_mkdir_p(path, 0700), -ENOTDIR);
  assert_int_equal(hg_mkdir_p("", 0700), -EINVAL);
}

static void mkdir_p_rejects_overlong_path(void **state) {
  char *path = malloc(8192);
  assert_non_null(path);
  memset(path, 'a', 8191);
  path[0] = '/';
  path[8191] = '\0';
  assert_int_equal(hg_mkdir_p(path, 0700), -ENAMETOOLONG);
  free(path);
}

static void rm_rf_removes_tree_without_following_links(void **state) {
  char path[PATH_MAX], outside[PATH_MAX], link[PATH_MAX];
  in_dir(state, outside, sizeof outside, "keep/precious");
  assert_int_equal(hg_mkdir_p(outside, 0700), 0);
  in_dir(state, path, sizeof path, "tree/x/y/z");
  assert_int_equal(hg_mkdir_p(path, 0700), 0);
  in_dir(state, path, sizeof path, "tree/x/y/z/file");
  assert_int_equal(hg_write_file_atomic(path, "x", 1), 0);
  in_dir(state, link, sizeof link, "tree/x/link");
  assert_int_equal(symlink(outside, link), 0);
  in_dir(state, link, sizeof link, "tree/dangling");
  assert_int_equal(symlink("/nonexistent/hg", link), 0);

  in_dir(state, path, sizeof path, "tree");
  assert_int_equal(hg_rm_rf(path), 0);
  assert_int_equal(access(path, F_OK), -1);
  assert_int_equal(access(outside, F_OK), 0);
  assert_int_equal(hg_rm_rf(path), 0); /* missing is fine */

  in_dir(state, path, sizeof path, "single");
  assert_int_equal(hg_write_file_atomic(path, "x", 1), 0);
  assert_int_equal(hg_rm_rf(path), 0);
  assert_int_equal(access(path, F_OK), -1);
}

static void rm_rf_stops_at_mount_points(void **state) {
  HG_NEED(geteuid() == 0, "root (mount)");
  char mnt[PATH_MAX], inside[PATH_MAX], tree[PATH_MAX];
  in_dir(state, mnt, sizeof mnt, "tree/mnt");
  in_dir(state, inside, sizeof inside, "tree/mnt/precious");
  in_dir(state, tree, sizeof tree, "tree");
  assert_int_equal(hg_mkdir_p(mnt, 0700), 0);
  assert_int_equal(mount("tmpfs", mnt, "tmpfs", 0, "size=1m"), 0);
  int rc = hg_write_file_atomic(inside, "x", 1);
  if (rc == 0) rc = hg_rm_rf(tree);
  bool survived = access(inside, F_OK) == 0;
  umount2(mnt, MNT_DETACH); /* before any assert, so nothing stays mounted */
  assert_true(rc == -ENOTEMPTY || rc == -EBUSY);
  assert_true(survived);
  assert_int_equal(hg_rm_rf(tree), 0); /* once unmounted it goes */
}

static void path_reports_truncation(void **state) {
  char out[8];
  assert_int_equal(hg_path(out, sizeof out, "%s", "1234567"), 0);
  assert_string_equal(out, "1234567");
  assert_int_equal(hg_path(out, sizeof out, "%s", "12345678"), -ENAMETOOLONG);
}

/* ---- msgpack getters ------------------------------------------------- */

typedef struct mp_fixture {
  msgpack_sbuffer sbuf;
  msgpack_unpacked msg;
} mp_fixture;

/* {u: 7, neg: -5, big: 2^63, b: true, s: "hi", bin: <01 02>, nul: "a\0b",
 *  long: "0123456789", n: nil, f: 1.5, u: 8 (duplicate key), 9: "int key"} */
static int mp_setup(void **state) {
  mp_fixture *m = calloc(1, sizeof *m);
  if (!m) return -1;
  msgpack_sbuffer_init(&m->sbuf);
  msgpack_packer pk;
  msgpack_packer_init(&pk, &m->sbuf, msgpack_sbuffer_write);
  msgpack_pack_map(&pk, 12);
  hg_mp_pack_kv_u64(&pk, "u", 7);
  hg_mp_pack_kv_i64(&pk, "neg", -5);
  hg_mp_pack_kv_u64(&pk, "big", (uint64_t)INT64_MAX + 1);
  hg_mp_pack_kv_bool(&pk, "b", true);
  hg_mp_pack_kv_str(&pk, "s", "hi");
  hg_mp_pack_kv_bin(&pk, "bin", "\x01\x02", 2);
  hg_mp_pack_str(&pk, "nul");
  hg_mp_pack_strn(&pk, "a\0b", 3);
  hg_mp_pack_kv_str(&pk, "long", "0123456789");
  hg_mp_pack_str(&pk, "n");
  msgpack_pack_nil(&pk);
  hg_mp_pack_str(&pk, "f");
  msgpack_pack_double(&pk, 1.5);
  hg_mp_pack_kv_u64(&pk, "u", 8);
  msgpack_pack_int(&pk, 9);
  hg_mp_pack_str(&pk, "int key");
  msgpack_unpacked_init(&m->msg);
  if (msgpack_unpack_next(&m->msg, m->sbuf.data, m->sbuf.size, NULL) !=
      MSGPACK_UNPACK_SUCCESS)
    return -1;
  *state = m;
  return 0;
}

static int mp_teardown(void **state) {
  mp_fixture *m = *state;
  msgpack_unpacked_destroy(&m->msg);
  msgpack_sbuffer_destroy(&m->sbuf);
  free(m);
  return 0;
}

static const msgpack_object *root(void **state) {
  return &((mp_fixture *)*state)->msg.data;
}

static void mp_u64_checks_type(void **state) {
  uint64_t v = 42;
  assert_int_equal(hg_mp_u64(root(state), "u", &v), 0);
  assert_int_equal(v, 7); /* first of duplicate keys */
  v = 42;
  assert_int_equal(hg_mp_u64(root(state), "neg", &v), -EPROTO);
  assert_int_equal(hg_mp_u64(root(state), "s", &v), -EPROTO);
  assert_int_equal(hg_mp_u64(root(state), "f", &v), -EPROTO);
  assert_int_equal(hg_mp_u64(root(state), "n", &v), -EPROTO);
  assert_int_equal(hg_mp_u64(root(state), "missing", &v), -ENOENT);
  assert_int_equal(v, 42); /* untouched on failure */
  assert_int_equal(hg_mp_u64(root(state), "big", &v), 0);
  assert_true(v == (uint64_t)INT64_MAX + 1);
}

static void mp_i64_checks_type_and_range(void **state) {
  int64_t v = 42;
  assert_int_equal(hg_mp_i64(root(state), "neg", &v), 0);
  assert_int_equal(v, -5);
  assert_int_equal(hg_mp_i64(root(state), "u", &v), 0);
  assert_int_equal(v, 7);
  v = 42;
  assert_int_equal(hg_mp_i64(root(state), "big", &v), -EPROTO);
  assert_int_equal(hg_mp_i64(root(state), "b", &v), -EPROTO);
  assert_int_equal(hg_mp_i64(root(state), "missing", &v), -ENOENT);
  assert_int_equal(v, 42);
}

static void mp_bool_checks_type(void **state) {
  bool v = false;
  assert_int_equal(hg_mp_bool(root(state), "b", &v), 0);
  assert_true(v);
  v = false;
  assert_int_equal(hg_mp_bool(root(state), "u", &v), -EPROTO);
  assert_int_equal(hg_mp_bool(root(state), "n", &v), -EPROTO);
  assert_int_equal(hg_mp_bool(root(state), "missing", &v), -ENOENT);
  assert_false(v);
}

static void mp_str_and_bin(void **state) {
  const char *p = NULL;
  size_t len = 0;
  assert_int_equal(hg_mp_str(root(state), "s", &p, &len), 0);
  assert_int_equal(len, 2);
  assert_memory_equal(p, "hi", 2);
  assert_int_equal(hg_mp_str(root(state), "bin", &p, &len), -EPROTO);
  assert_int_equal(hg_mp_str(root(state), "u", &p, &len), -EPROTO);
  assert_int_equal(hg_mp_str(root(state), "missing", &p, &len), -ENOENT);
  assert_int_equal(hg_mp_bin(root(state), "bin", &p, &len), 0);
  assert_int_equal(len, 2);
  assert_memory_equal(p, "\x01\x02", 2);
  assert_int_equal(hg_mp_bin(root(state), "s", &p, &len), 0); /* str accepted as bytes */
  assert_int_equal(len, 2);
  assert_int_equal(hg_mp_bin(root(state), "u", &p, &len), -EPROTO);
  assert_int_equal(hg_mp_bin(root(state), "missing", &p, &len), -ENOENT);
}

static void mp_strcpy_bounds_and_nul(void **state) {
  char out[11];
  memset(out, 'z', sizeof out);
  assert_int_equal(hg_mp_strcpy(root(state), "long", out, sizeof out), 0); /* 10 + NUL */
  assert_string_equal(out, "0123456789");
  memset(out, 'z', sizeof out);
  assert_int_equal(hg_mp_strcpy(root(state), "long", out, 10), -ENAMETOOLONG);
  assert_int_equal(hg_mp_strcpy(root(state), "long", out, 0), -ENAMETOOLONG);
  assert_int_equal(hg_mp_strcpy(root(state), "nul", out, sizeof out), -EPROTO);
  assert_int_equal(hg_mp_strcpy(root(state), "bin", out, sizeof out), -EPROTO);
  assert_int_equal(hg_mp_strcpy(root(state), "u", out, sizeof out), -EPROTO);
  assert_int_equal(hg_mp_strcpy(root(state), "missing", out, sizeof out), -ENOENT);
  assert_int_equal(out[0], 'z'); /* untouched on failure */
}

static void mp_get_ignores_non_string_keys_and_non_maps(void **state) {
  assert_null(hg_mp_get(root(state), "9"));
  assert_null(hg_mp_get(root(state), ""));
  assert_null(hg_mp_get(NULL, "u"));
  const msgpack_object *s = hg_mp_get(root(state), "s");
  assert_non_null(s);
  assert_null(hg_mp_get(s, "u")); /* a string is not a map */
  uint64_t v;
  assert_int_equal(hg_mp_u64(s, "u", &v), -ENOENT);
  /* A key that is a prefix of another is not a match. */
  assert_null(hg_mp_get(root(state), "lon"));
  assert_null(hg_mp_get(root(state), "longer"));
}

/* ---- parse ---------------------------------------------------------------- */

static void parse_int_takes_whole_decimals_in_range(void **state) {
  int64_t v = 0;
  assert_int_equal(hg_parse_int("0", 0, 10, &v), 0);
  assert_int_equal(v, 0);
  assert_int_equal(hg_parse_int("-42", -100, 100, &v), 0);
  assert_int_equal(v, -42);
  assert_int_equal(hg_parse_int("9223372036854775807", INT64_MIN, INT64_MAX, &v), 0);
  assert_true(v == INT64_MAX);
  assert_int_equal(hg_parse_int("-9223372036854775808", INT64_MIN, INT64_MAX, &v), 0);
  assert_true(v == INT64_MIN);
}

static void parse_int_refuses_junk_and_leaves_out_alone(void **state) {
  int64_t v = 7;
  const char *bad[] = {"", "-", "+1", " 1", "1 ", "1x", "0x10", "1.5", "--1", "\n"};
  for (size_t i = 0; i < HG_ARRAY_SIZE(bad); i++)
    assert_int_equal(hg_parse_int(bad[i], INT64_MIN, INT64_MAX, &v), -EINVAL);
  assert_int_equal(hg_parse_int(NULL, 0, 1, &v), -EINVAL);
  assert_int_equal(v, 7);
}

static void parse_int_reports_range_and_overflow(void **state) {
  int64_t v = 7;
  assert_int_equal(hg_parse_int("101", 0, 100, &v), -ERANGE);
  assert_int_equal(hg_parse_int("-1", 0, 100, &v), -ERANGE);
  assert_int_equal(hg_parse_int("9223372036854775808", INT64_MIN, INT64_MAX, &v), -ERANGE);
  assert_int_equal(hg_parse_int("-9223372036854775809", INT64_MIN, INT64_MAX, &v), -ERANGE);
  assert_int_equal(hg_parse_int("99999999999999999999999", 0, INT64_MAX, &v), -ERANGE);
  /* junk after an overflow is still junk */
  assert_int_equal(hg_parse_int("99999999999999999999999x", 0, INT64_MAX, &v), -EINVAL);
  assert_int_equal(v, 7);
}

static void parse_uint_n_reads_only_len_bytes(void **state) {
  uint64_t v = 0;
  assert_int_equal(hg_parse_uint_n("1234xyz", 4, UINT64_MAX, &v), 0);
  assert_int_equal(v, 1234);
  assert_int_equal(hg_parse_uint_n("18446744073709551615", 20, UINT64_MAX, &v), 0);
  assert_true(v == UINT64_MAX);
  assert_int_equal(hg_parse_uint_n("18446744073709551616", 20, UINT64_MAX, &v), -ERANGE);
  assert_int_equal(hg_parse_uint_n("65536", 5, 65535, &v), -ERANGE);
  assert_int_equal(hg_parse_uint_n("12", 0, 100, &v), -EINVAL);
  assert_int_equal(hg_parse_uint_n("-1", 2, 100, &v), -EINVAL);
  assert_true(v == UINT64_MAX);
}

/* ---- list ----------------------------------------------------------------- */

typedef struct node_t {
  int v;
  struct node_t *prev, *next;
} node_t;

static void list_order(node_t *head, const int *want, size_t n) {
  size_t i = 0;
  node_t *last = NULL;
  for (node_t *e = head; e; last = e, e = e->next, i++) {
    assert_true(i < n);
    assert_int_equal(e->v, want[i]);
    assert_ptr_equal(e->prev, last);
  }
  assert_int_equal(i, n);
}

static void list_push_and_unlink_keep_both_directions(void **state) {
  node_t a = {.v = 1}, b = {.v = 2}, c = {.v = 3};
  node_t *head = NULL;
  HG_LIST_PUSH(head, &a);
  HG_LIST_PUSH(head, &b);
  HG_LIST_PUSH(head, &c);
  list_order(head, (int[]){3, 2, 1}, 3);
  node_t *e = &b; /* the middle */
  HG_LIST_UNLINK(head, e);
  list_order(head, (int[]){3, 1}, 2);
  e = &c; /* the first */
  HG_LIST_UNLINK(head, e);
  list_order(head, (int[]){1}, 1);
  e = &a; /* the last one */
  HG_LIST_UNLINK(head, e);
  assert_null(head);
}

static void list_with_tail_tracks_the_last(void **state) {
  node_t a = {.v = 1}, b = {.v = 2}, c = {.v = 3};
  node_t *head = NULL, *tail = NULL, *e;
  HG_LIST_APPEND2(head, tail, &a);
  HG_LIST_APPEND2(head, tail, &b);
  HG_LIST_PUSH2(head, tail, &c);
  list_order(head, (int[]){3, 1, 2}, 3);
  assert_ptr_equal(tail, &b);
  e = &b;
  HG_LIST_UNLINK2(head, tail, e);
  assert_ptr_equal(tail, &a);
  e = &c;
  HG_LIST_UNLINK2(head, tail, e);
  assert_ptr_equal(head, &a);
  e = &a;
  HG_LIST_UNLINK2(head, tail, e);
  assert_null(head);
  assert_null(tail);
}

/* ---- proc ----------------------------------------------------------------- */

static void proc_stat_reads_our_own_process(void **state) {
  hg_proc_stat ps;
  assert_int_equal(hg_proc_stat_read(getpid(), &ps), 0);
  assert_int_equal(ps.state, 'R');
  assert_int_equal(ps.ppid, getppid());
  assert_true(ps.starttime > 0);
  hg_proc_stat again;
  assert_int_equal(hg_proc_stat_read(getpid(), &again), 0);
  assert_true(again.starttime == ps.starttime); /* what tells a pid from its reuse */
  assert_true(again.utime + again.stime >= ps.utime + ps.stime);
}

static void proc_stat_and_cmdline_of_a_gone_process_fail(void **state) {
  pid_t pid = fork();
  assert_true(pid >= 0);
  if (pid == 0) _exit(0);
  int st;
  assert_int_equal(waitpid(pid, &st, 0), pid); /* reaped: the pid is free */
  hg_proc_stat ps = {.state = 'x'};
  char cmd[64];
  assert_int_equal(hg_proc_stat_read(pid, &ps), -ENOENT);
  assert_int_equal(ps.state, 'x');
  assert_int_equal(hg_proc_cmdline(pid, cmd, sizeof cmd, NULL), -ENOENT);
}

static void proc_cmdline_is_nul_separated_and_bounded(void **state) {
  char cmd[8192], small[8];
  size_t len = 0;
  assert_int_equal(hg_proc_cmdline(getpid(), cmd, sizeof cmd, &len), 0);
  assert_true(len > 0);
  assert_non_null(strstr(cmd, "test_core")); /* argv[0] first */
  assert_int_equal(hg_proc_cmdline(getpid(), small, sizeof small, &len), 0);
  assert_int_equal(len, sizeof small - 1);
  assert_int_equal(small[sizeof small - 1], '\0');
  assert_int_equal(hg_proc_cmdline(getpid(), small, 1, &len), -EINVAL);
}

/* ---- curluv ----------------------------------------------------------------- */

typedef struct cu_fx {
  hg_curluv *cu;
  int done, closed;
  CURLcode result;
  bool in_curl_at_done;
  hg_buf body;
} cu_fx;

static size_t cu_body(char *p, size_t size, size_t n, void *ud) {
  cu_fx *fx = ud;
  return hg_buf_append(&fx->body, p, size * n) == 0 ? size * n : 0;
}

static void cu_done(CURL *e, CURLcode result, void *ud) {
  cu_fx *fx = ud;
  fx->done++;
  fx->result = result;
  fx->in_curl_at_done = hg_curluv_in_curl(fx->cu);
  hg_curluv_remove(fx->cu, e);
  curl_easy_cleanup(e);
}

static void cu_closed(void *ud) {
  ((cu_fx *)ud)->closed++;
}

static CURL *cu_easy(cu_fx *fx, const char *url) {
  CURL *e = curl_easy_init();
  assert_non_null(e);
  curl_easy_setopt(e, CURLOPT_URL, url);
  curl_easy_setopt(e, CURLOPT_WRITEFUNCTION, cu_body);
  curl_easy_setopt(e, CURLOPT_WRITEDATA, fx);
  return e;
}

static void curluv_runs_transfers_on_the_loop_and_closes(void **state) {
  char dir[] = "/tmp/hg-curluv-XXXXXX", path[64], url[80];
  assert_non_null(mkdtemp(dir));
  snprintf(path, sizeof path, "%s/f", dir);
  assert_int_equal(hg_write_file_atomic(path, "hello", 5), 0);
  snprintf(url, sizeof url, "file://%s", path);
  assert_int_equal(hg_curl_global_init(), 0);
  assert_int_equal(hg_curl_global_init(), 0); /* once, then the same answer */
  uv_loop_t loop;
  uv_loop_init(&loop);
  cu_fx fx = {0};
  hg_buf_init(&fx.body, 64);
  assert_int_equal(hg_curluv_new(&loop, cu_done, &fx, &fx.cu), 0);
  assert_int_equal(hg_curluv_add(fx.cu, cu_easy(&fx, url)), 0);
  /* a refused connection goes through the socket watch, not just the timer */
  assert_int_equal(hg_curluv_add(fx.cu, cu_easy(&fx, "http://127.0.0.1:1/")), 0);
  while (fx.done < 2 && uv_run(&loop, UV_RUN_ONCE)) {
  }
  assert_int_equal(fx.done, 2);
  assert_false(fx.in_curl_at_done);
  assert_int_equal(fx.result, CURLE_COULDNT_CONNECT); /* the later one */
  assert_int_equal(fx.body.len, 5);
  assert_memory_equal(fx.body.data, "hello", 5);
  hg_curluv_close(fx.cu, cu_closed, &fx);
  assert_int_equal(fx.closed, 0); /* only once its handles are closed */
  uv_run(&loop, UV_RUN_DEFAULT);
  assert_int_equal(fx.closed, 1);
  assert_int_equal(uv_loop_close(&loop), 0); /* nothing left open */
  hg_buf_free(&fx.body);
  hg_rm_rf(dir);
}

static void curluv_close_with_a_transfer_in_flight_calls_no_done(void **state) {
  uv_loop_t loop;
  uv_loop_init(&loop);
  cu_fx fx = {0};
  hg_buf_init(&fx.body, 64);
  assert_int_equal(hg_curluv_new(&loop, cu_done, &fx, &fx.cu), 0);
  /* a TEST-NET address: the connect hangs until we give up on it */
  CURL *e = cu_easy(&fx, "http://192.0.2.1:9/");
  assert_int_equal(hg_curluv_add(fx.cu, e), 0);
  uv_run(&loop, UV_RUN_NOWAIT);
  int before = fx.done; /* 1 only on a host with no route at all */
  hg_curluv_close(fx.cu, cu_closed, &fx);
  uv_run(&loop, UV_RUN_DEFAULT);
  assert_int_equal(fx.done, before);
  assert_int_equal(fx.closed, 1);
  assert_int_equal(uv_loop_close(&loop), 0);
  if (before == 0) curl_easy_cleanup(e); /* the owner's after close */
  hg_buf_free(&fx.body);
}

/* ---- ident ------------------------------------------------------------------ */

static void node_id_is_lowercase_digits_dash_within_the_limit(void **state) {
  char id[HG_NODE_ID_MAX + 1];
  assert_true(hg_node_id_valid("n-0123abcd"));
  assert_true(hg_node_id_valid("node-7"));
  memset(id, 'a', HG_NODE_ID_MAX - 1);
  id[HG_NODE_ID_MAX - 1] = '\0';
  assert_true(hg_node_id_valid(id)); /* the longest that fits */
  id[HG_NODE_ID_MAX - 1] = 'a';
  id[HG_NODE_ID_MAX] = '\0';
  assert_false(hg_node_id_valid(id));
  const char *bad[] = {"", "N-1", "n_1", "n 1", "n.1", "n-1\n", "n/1", "n:1"};
  for (size_t i = 0; i < HG_ARRAY_SIZE(bad); i++) assert_false(hg_node_id_valid(bad[i]));
  assert_false(hg_node_id_valid(NULL));
}

static void addr_is_host_port_or_bracketed_v6(void **state) {
  assert_true(hg_addr_valid("10.0.0.1:7070"));
  assert_true(hg_addr_valid("[fe80::1]:65535"));
  assert_true(hg_addr_valid("node-3.example:1"));
  const char *bad[] = {"", "h", "h:", ":80", "h:0", "h:65536", "h:080000", "h:8x",
                       "[::1]", "[]:80", "h h:80", "h/x:80", "::1:80"};
  for (size_t i = 0; i < HG_ARRAY_SIZE(bad); i++) assert_false(hg_addr_valid(bad[i]));
  char longest[HG_ADDR_MAX + 1];
  memset(longest, 'h', sizeof longest);
  memcpy(longest + HG_ADDR_MAX - 3, ":80", 4); /* one byte over */
  assert_false(hg_addr_valid(longest));
  assert_true(hg_addr_valid(longest + 1));
}

static void name_refuses_dots_slashes_and_length(void **state) {
  assert_true(hg_name_valid("sb-1.tap_A", 16));
  assert_false(hg_name_valid(".", 16));
  assert_false(hg_name_valid("..", 16));
  assert_true(hg_name_valid("...", 16));
  assert_false(hg_name_valid("a/b", 16));
  assert_false(hg_name_valid("", 16));
  assert_false(hg_name_valid(NULL, 16));
  assert_true(hg_name_valid("abc", 4));
  assert_false(hg_name_valid("abcd", 4));
}

/* ---- guard ------------------------------------------------------------------ */

typedef struct guard_fx {
  hg_guard g;
  _Atomic int entered, left;
} guard_fx;

static void *guard_user(void *arg) {
  guard_fx *fx = arg;
  int *h = hg_guard_enter(&fx->g);
  fx->entered = 1;
  usleep(50 * 1000); /* a call into the handle under way */
  if (h) (*h)++;
  fx->left = 1;
  hg_guard_leave(&fx->g);
  return NULL;
}

static void guard_clear_waits_for_the_user_then_hands_out_null(void **state) {
  int handle = 0;
  guard_fx fx = {0};
  hg_guard_init(&fx.g, &handle);
  assert_ptr_equal(hg_guard_enter(&fx.g), &handle);
  hg_guard_leave(&fx.g);
  pthread_t t;
  assert_int_equal(pthread_create(&t, NULL, guard_user, &fx), 0);
  while (!fx.entered) usleep(1000);
  hg_guard_set(&fx.g, NULL);
  assert_int_equal(fx.left, 1); /* set returned only after the user left */
  assert_int_equal(handle, 1);
  assert_null(hg_guard_enter(&fx.g));
  hg_guard_leave(&fx.g);
  pthread_join(t, NULL);
  hg_guard_destroy(&fx.g);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(hostport_split_takes_v4_names_and_bracketed_v6),
      cmocka_unit_test(buf_append_keeps_nul_and_grows),
      cmocka_unit_test(buf_limit_is_exact_and_enobufs_leaves_buffer_alone),
      cmocka_unit_test(buf_zero_max_refuses_everything_but_nothing),
      cmocka_unit_test(buf_huge_append_does_not_wrap),
      cmocka_unit_test(buf_printf_formats),
      cmocka_unit_test(buf_consume_drops_prefix),
      cmocka_unit_test(id_new_is_prefix_dash_16_lowercase_hex),
      cmocka_unit_test(id_new_refuses_prefix_that_does_not_fit),
      cmocka_unit_test(id_valid_rejects_malformed),
      cmocka_unit_test(secret_equal_compares_whole_strings),
      cmocka_unit_test_setup_teardown(write_atomic_then_read_round_trips, dir_setup,
                                      dir_teardown),
      cmocka_unit_test_setup_teardown(write_atomic_mode_is_set_not_umasked, dir_setup,
                                      dir_teardown),
      cmocka_unit_test_setup_teardown(write_atomic_empty_file, dir_setup, dir_teardown),
      cmocka_unit_test_setup_teardown(file_tail_keeps_last_whole_lines, dir_setup,
                                      dir_teardown),
      cmocka_unit_test_setup_teardown(write_atomic_into_missing_dir_fails, dir_setup,
                                      dir_teardown),
      cmocka_unit_test_setup_teardown(write_atomic_concurrent_writers_never_mix,
                                      dir_setup, dir_teardown),
      cmocka_unit_test_setup_teardown(read_file_bounds_and_errors, dir_setup,
                                      dir_teardown),
      cmocka_unit_test(read_file_handles_files_that_lie_about_size),
      cmocka_unit_test_setup_teardown(mkdir_p_makes_nested_and_is_idempotent, dir_setup,
                                      dir_teardown),
      cmocka_unit_test_setup_teardown(mkdir_p_fails_through_a_file, dir_setup,
                                      dir_teardown),
      cmocka_unit_test(mkdir_p_rejects_overlong_path),
      cmocka_unit_test_setup_teardown(rm_rf_removes_tree_without_following_links,
                                      dir_setup, dir_teardown),
      cmocka_unit_test_setup_teardown(rm_rf_stops_at_mount_points, dir_setup,
                                      dir_teardown),
      cmocka_unit_test(path_reports_truncation),
      cmocka_unit_test_setup_teardown(mp_u64_checks_type, mp_setup, mp_teardown),
      cmocka_unit_test_setup_teardown(mp_i64_checks_type_and_range, mp_setup,
                                      mp_teardown),
      cmocka_unit_test_setup_teardown(mp_bool_checks_type, mp_setup, mp_teardown),
      cmocka_unit_test_setup_teardown(mp_str_and_bin, mp_setup, mp_teardown),
      cmocka_unit_test_setup_teardown(mp_strcpy_bounds_and_nul, mp_setup, mp_teardown),
      cmocka_unit_test_setup_teardown(mp_get_ignores_non_string_keys_and_non_maps,
                                      mp_setup, mp_teardown),
      cmocka_unit_test(parse_int_takes_whole_decimals_in_range),
      cmocka_unit_test(parse_int_refuses_junk_and_leaves_out_alone),
      cmocka_unit_test(parse_int_reports_range_and_overflow),
      cmocka_unit_test(parse_uint_n_reads_only_len_bytes),
      cmocka_unit_test(list_push_and_unlink_keep_both_directions),
      cmocka_unit_test(list_with_tail_tracks_the_last),
      cmocka_unit_test(proc_stat_reads_our_own_process),
      cmocka_unit_test(proc_stat_and_cmdline_of_a_gone_process_fail),
      cmocka_unit_test(proc_cmdline_is_nul_separated_and_bounded),
      cmocka_unit_test(node_id_is_lowercase_digits_dash_within_the_limit),
      cmocka_unit_test(addr_is_host_port_or_bracketed_v6),
      cmocka_unit_test(name_refuses_dots_slashes_and_length),
      cmocka_unit_test(guard_clear_waits_for_the_user_then_hands_out_null),
      cmocka_unit_test(curluv_runs_transfers_on_the_loop_and_closes),
      cmocka_unit_test(curluv_close_with_a_transfer_in_flight_calls_no_done),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
