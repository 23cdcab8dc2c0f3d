/* sendstream: the btrfs send stream checker on hand-made streams, one rule
 * at a time (real ones from the kernel, and edited ones, go through it in
 * test_stream and test_repl). A refused command must not reach emit(): the
 * bytes emitted are checked to end at the command before it. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "replication/sendstream.h"
#include "tests/unit/sendstream_build.h"

enum {
  SUBVOL = 1,
  SNAPSHOT,
  MKFILE,
  MKDIR,
  MKNOD,
  SYMLINK = 8,
  RENAME,
  LINK,
  UNLINK,
  WRITE = 15,
  CLONE,
  TRUNCATE,
  CHMOD,
  CHOWN,
  UTIMES,
  END
};
enum {
  A_UUID = 1,
  A_CTRANSID,
  A_INO,
  A_MODE = 5,
  A_UID,
  A_GID,
  A_RDEV,
  A_PATH = 15,
  A_PATH_TO,
  A_PATH_LINK,
  A_FILE_OFFSET,
  A_DATA,
  A_CLONE_UUID,
  A_CLONE_CTRANSID,
  A_CLONE_PATH,
  A_CLONE_OFFSET,
  A_CLONE_LEN
};

#define SELF "11111111-2222-3333-4444-555555555555"
#define PARENT "aaaaaaaa-bbbb-cccc-dddd-eeeeeeeeeeee"
#define OTHER "99999999-8888-7777-6666-555555555555"

static const uint8_t self_uuid[16] = {0x11, 0x11, 0x11, 0x11, 0x22, 0x22, 0x33, 0x33,
                                      0x44, 0x44, 0x55, 0x55, 0x55, 0x55, 0x55, 0x55};
static const uint8_t parent_uuid[16] = {0xaa, 0xaa, 0xaa, 0xaa, 0xbb, 0xbb, 0xcc, 0xcc,
                                        0xdd, 0xdd, 0xee, 0xee, 0xee, 0xee, 0xee, 0xee};
static const uint8_t other_uuid[16] = {0x99, 0x99, 0x99, 0x99, 0x88, 0x88, 0x77, 0x77,
                                       0x66, 0x66, 0x55, 0x55, 0x55, 0x55, 0x55, 0x55};

static sb S;

typedef struct sink {
  uint8_t out[SB_CAP];
  size_t len;
} sink;
static sink K;

static int collect(void *ud, const void *data, size_t len) {
  sink *k = ud;
  memcpy(k->out + k->len, data, len);
  k->len += len;
  return 0;
}

static hg_sendstream_check C;

/* Feeds s in pieces; 0 or the first error. */
static int run(const sb *s, size_t piece, const hg_sendstream_policy *p) {
  K.len = 0;
  hg_sendstream_check_free(&C);
  assert_int_equal(hg_sendstream_check_init(&C, p, collect, &K), 0);
  for (size_t i = 0; i < s->len; i += piece) {
    size_t n = s->len - i < piece ? s->len - i : piece;
    int rc = hg_sendstream_check_feed(&C, s->b + i, n);
    if (rc < 0) return rc;
  }
  return hg_sendstream_check_end(&C);
}

static void subvol(sb *s, const char *name) {
  sb_header(s, 1);
  sb_cmd(s, SUBVOL);
  sb_str(s, A_PATH, name);
  sb_attr(s, A_UUID, self_uuid, 16);
  sb_u64(s, A_CTRANSID, 7);
}

static void snapshot(sb *s, const uint8_t *from, uint64_t ctransid) {
  sb_header(s, 1);
  sb_cmd(s, SNAPSHOT);
  sb_str(s, A_PATH, "2");
  sb_attr(s, A_UUID, self_uuid, 16);
  sb_u64(s, A_CTRANSID, 9);
  sb_attr(s, A_CLONE_UUID, from, 16);
  sb_u64(s, A_CLONE_CTRANSID, ctransid);
}

static void cmd_path(sb *s, uint16_t cmd, const char *path) {
  sb_cmd(s, cmd);
  sb_str(s, A_PATH, path);
  if (cmd == MKFILE || cmd == MKDIR) sb_u64(s, A_INO, 300);
}

static void write_to(sb *s, const char *path) {
  sb_cmd(s, WRITE);
  sb_str(s, A_PATH, path);
  sb_u64(s, A_FILE_OFFSET, 0);
  sb_attr(s, A_DATA, "pwned\n", 6);
}

static void symlink_at(sb *s, const char *path, const char *target) {
  sb_cmd(s, SYMLINK);
  sb_str(s, A_PATH, path);
  sb_u64(s, A_INO, 301);
  sb_str(s, A_PATH_LINK, target);
}

static void two_paths(sb *s, uint16_t cmd, const char *path, uint16_t type,
                      const char *other) {
  sb_cmd(s, cmd);
  sb_str(s, A_PATH, path);
  sb_str(s, type, other);
}

static void clone_from(sb *s, const uint8_t *uuid, uint64_t ctransid, const char *from) {
  sb_cmd(s, CLONE);
  sb_str(s, A_PATH, "f");
  sb_u64(s, A_FILE_OFFSET, 0);
  sb_u64(s, A_CLONE_LEN, 4096);
  sb_attr(s, A_CLONE_UUID, uuid, 16);
  sb_u64(s, A_CLONE_CTRANSID, ctransid);
  sb_str(s, A_CLONE_PATH, from);
  sb_u64(s, A_CLONE_OFFSET, 0);
}

/* The stream is refused with a message holding want, and what was emitted
 * is exactly the stream up to (not including) its last command but END. */
static void assert_refused_at_last(const char *want) {
  size_t before = S.cmd_at ? S.cmd_at : S.len; /* the open command's start */
  sb_end_cmd(&S);
  assert_int_equal(run(&S, 7, NULL), -EPROTO);
  if (!strstr(C.err, want)) fail_msg("err \"%s\" lacks \"%s\"", C.err, want);
  assert_int_equal(K.len, before);
  assert_memory_equal(K.out, S.b, before);
}

static void assert_passes(const hg_sendstream_policy *p) {
  sb_finish(&S);
  size_t pieces[] = {1, 3, 10, 17, 4096, S.len};
  for (size_t i = 0; i < sizeof pieces / sizeof pieces[0]; i++) {
    int rc = run(&S, pieces[i], p);
    if (rc) fail_msg("refused: %s", C.err);
    assert_int_equal(K.len, S.len);
    assert_memory_equal(K.out, S.b, S.len);
  }
}

static int teardown(void **state) {
  hg_sendstream_check_free(&C);
  return 0;
}

/* ---- framing ---------------------------------------------------------- */

static void crc32c_matches_the_standard_check_value(void **state) {
  /* CRC-32C("123456789") is 0xE3069283 with the usual ~0 seed and final
   * inversion; the raw form used by btrfs is the same with those undone. */
  assert_int_equal(~hg_crc32c(~0u, "123456789", 9), 0xE3069283u);
}

/* Bit by bit, the definition: any fast path must agree with it, at every
 * length and alignment. */
static uint32_t crc_reference(uint32_t c, const uint8_t *p, size_t len) {
  while (len--) {
    c ^= *p++;
    for (int k = 0; k < 8; k++) c = c & 1 ? (c >> 1) ^ 0x82F63B78u : c >> 1;
  }
  return c;
}

static void crc32c_agrees_with_its_definition(void **state) {
  static uint8_t buf[4096 + 16];
  for (size_t i = 0; i < sizeof buf; i++) buf[i] = (uint8_t)(i * 131 + (i >> 7));
  for (size_t off = 0; off < 9; off++)
    for (size_t len = 0; len < 4096; len += len < 64 ? 1 : 509) {
      assert_int_equal(hg_crc32c(0, buf + off, len), crc_reference(0, buf + off, len));
      assert_int_equal(hg_crc32c(0x1234567u, buf + off, len),
                       crc_reference(0x1234567u, buf + off, len));
    }
}

static void normal_stream(void) {
  subvol(&S, "1");
  cmd_path(&S, MKDIR, "o300-5-0");
  two_paths(&S, RENAME, "o300-5-0", A_PATH_TO, "dir");
  cmd_path(&S, MKFILE, "dir/f");
  write_to(&S, "dir/f");
  symlink_at(&S, "link", "dir/f");
  sb_cmd(&S, CHOWN);
  sb_str(&S, A_PATH, "link"); /* lchown: does not follow */
  sb_u64(&S, A_UID, 0);
  sb_u64(&S, A_GID, 0);
  sb_cmd(&S, CHMOD);
  sb_str(&S, A_PATH, ""); /* the subvolume's root */
  sb_u64(&S, A_MODE, 0755);
  clone_from(&S, self_uuid, 7, "dir/f");
}

static void valid_stream_passes_whole_in_any_split(void **state) {
  normal_stream();
  assert_passes(&(hg_sendstream_policy){.name = "1", .uuid = SELF});
  assert_int_equal(C.commands, 10);
}

static void any_flipped_byte_is_caught(void **state) {
  normal_stream();
  sb_finish(&S);
  for (size_t i = 0; i < S.len; i += 3) {
    S.b[i] ^= 0x01;
    assert_int_equal(run(&S, 512, NULL), -EPROTO);
    assert_true(C.err[0] != '\0');
    S.b[i] ^= 0x01;
  }
}

static void truncation_and_trailing_data_are_refused(void **state) {
  normal_stream();
  size_t len = sb_finish(&S);
  S.len = len - 1;
  assert_int_equal(run(&S, 512, NULL), -EPROTO);
  assert_string_equal(C.err, "send stream truncated");
  S.len = len - 10; /* END missing */
  assert_int_equal(run(&S, 512, NULL), -EPROTO);
  memset(S.b + len, 0, 10);
  S.len = len + 10; /* a command after END */
  assert_int_equal(run(&S, 512, NULL), -EPROTO);
  assert_string_equal(C.err, "data after the END command");
}

static void bad_header_version_2_and_huge_command_are_refused(void **state) {
  normal_stream();
  sb_finish(&S);
  S.b[0] = 'B';
  assert_int_equal(run(&S, S.len, NULL), -EPROTO);
  assert_string_equal(C.err, "not a btrfs send stream");
  assert_int_equal(K.len, 0);
  S.b[0] = 'b';
  S.b[13] = 2;
  assert_int_equal(run(&S, S.len, NULL), -EPROTO);
  assert_non_null(strstr(C.err, "version 2 is not accepted"));
  S.b[13] = 1;
  sb_le(S.b + 17, HG_SENDSTREAM_CMD_MAX + 1, 4);
  assert_int_equal(run(&S, S.len, NULL), -EPROTO);
  assert_non_null(strstr(C.err, "bytes long"));
  assert_int_equal(K.len, 17);
}

static void malformed_commands_are_refused(void **state) {
  subvol(&S, "1");
  sb_cmd(&S, 23); /* FALLOCATE: version 2 */
  sb_str(&S, A_PATH, "f");
  assert_refused_at_last("unknown command 23");
  subvol(&S, "1");
  sb_cmd(&S, MKNOD);
  sb_str(&S, A_PATH, "sda");
  sb_u64(&S, A_INO, 300);
  sb_u64(&S, A_MODE, 060600);
  sb_u64(&S, A_RDEV, 0x800);
  assert_refused_at_last("device nodes");
  subvol(&S, "1");
  sb_cmd(&S, MKFILE);
  sb_str(&S, A_PATH, "f");
  sb_str(&S, A_PATH, "g"); /* btrfs receive would take the last, a checker the first */
  sb_u64(&S, A_INO, 300);
  assert_refused_at_last("twice");
  subvol(&S, "1");
  cmd_path(&S, MKFILE, "f");
  sb_u64(&S, 25, 1);
  assert_refused_at_last("unknown attribute 25");
  subvol(&S, "1");
  sb_cmd(&S, MKFILE);
  sb_str(&S, A_PATH, "f");
  assert_refused_at_last("without attribute 3");
  subvol(&S, "1");
  sb_cmd(&S, MKFILE);
  sb_str(&S, A_PATH, "f");
  sb_attr(&S, A_INO, "1234", 4);
  assert_refused_at_last("is 4 bytes, not 8");
  subvol(&S, "1");
  sb_cmd(&S, MKFILE);
  sb_str(&S, A_PATH, "f");
  S.b[S.len - 3] = 0xff; /* the attribute claims more than the command holds */
  assert_refused_at_last("overruns");
}

/* ---- the subvolume ------------------------------------------------------ */

static void one_plainly_named_subvolume_first(void **state) {
  sb_header(&S, 1);
  cmd_path(&S, MKFILE, "f");
  assert_refused_at_last("before SUBVOL");
  subvol(&S, "1");
  cmd_path(&S, MKFILE, "f");
  sb_cmd(&S, SUBVOL);
  sb_str(&S, A_PATH, "2");
  sb_attr(&S, A_UUID, self_uuid, 16);
  sb_u64(&S, A_CTRANSID, 7);
  assert_refused_at_last("a second subvolume");
  const char *names[] = {"../../etc", "..", ".", "a/b", ""};
  for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
    subvol(&S, names[i]);
    assert_refused_at_last("is not a plain name");
  }
  subvol(&S, "1");
  sb_finish(&S);
  assert_int_equal(run(&S, 5, &(hg_sendstream_policy){.name = "2"}), -EPROTO);
  assert_string_equal(C.err, "SUBVOL makes 1, not 2");
  assert_int_equal(K.len, 17);
  assert_int_equal(run(&S, 5, &(hg_sendstream_policy){.uuid = OTHER}), -EPROTO);
  assert_non_null(strstr(C.err, "is not the offered " OTHER));
  sb_header(&S, 1);
  sb_finish(&S);
  assert_int_equal(run(&S, 5, NULL), -EPROTO); /* END alone */
}

static void snapshot_only_of_the_agreed_parent(void **state) {
  hg_sendstream_policy agreed = {.parent_uuid = PARENT};
  snapshot(&S, parent_uuid, 40);
  clone_from(&S, parent_uuid, 40, "f");
  clone_from(&S, self_uuid, 9, "f");
  assert_passes(&agreed);

  snapshot(&S, other_uuid, 40);
  sb_finish(&S);
  assert_int_equal(run(&S, 64, &agreed), -EPROTO);
  assert_non_null(
      strstr(C.err, "SNAPSHOT of " OTHER ", not of the agreed parent " PARENT));
  assert_int_equal(K.len, 17);
  snapshot(&S, parent_uuid, 40);
  sb_finish(&S);
  assert_int_equal(run(&S, 64, NULL), -EPROTO);
  assert_non_null(strstr(C.err, "no parent was agreed"));
}

static void clone_only_from_itself_or_the_parent(void **state) {
  hg_sendstream_policy agreed = {.parent_uuid = PARENT};
  snapshot(&S, parent_uuid, 40);
  clone_from(&S, other_uuid, 40, "f");
  sb_end_cmd(&S);
  size_t before = S.len;
  sb_finish(&S);
  assert_int_equal(run(&S, 64, &agreed), -EPROTO);
  assert_non_null(strstr(C.err, "CLONE from " OTHER));
  assert_true(K.len < before);
  snapshot(&S, parent_uuid, 40);
  clone_from(&S, parent_uuid, 41, "f"); /* not the ctransid the SNAPSHOT named */
  sb_finish(&S);
  assert_int_equal(run(&S, 64, &agreed), -EPROTO);
  subvol(&S, "1");
  clone_from(&S, parent_uuid, 40, "f"); /* a full stream has no parent */
  assert_refused_at_last("neither this subvolume nor the agreed parent");
  subvol(&S, "1");
  clone_from(&S, self_uuid, 7, "../../other/disk.img");
  assert_refused_at_last("clone source path '../../other/disk.img' has a '..'");
}

/* ---- paths -------------------------------------------------------------- */

static void paths_stay_inside_the_subvolume(void **state) {
  static const struct {
    const char *path, *why;
  } bad[] = {
      {"/etc/cron.d/pwn", "is absolute"},
      {"../pwn", "has a '..'"},
      {"a/../../pwn", "has a '..'"},
      {"a//b", "has an empty"},
      {"a/", "has an empty"},
      {"./a", "has a '.'"},
      {"", "with an empty"},
  };
  for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
    subvol(&S, "1");
    cmd_path(&S, MKFILE, bad[i].path);
    assert_refused_at_last(bad[i].why);
    subvol(&S, "1");
    two_paths(&S, RENAME, "f", A_PATH_TO, bad[i].path);
    assert_refused_at_last(bad[i].why);
    subvol(&S, "1");
    two_paths(&S, LINK, "g", A_PATH_LINK, bad[i].path);
    assert_refused_at_last(bad[i].why);
  }
  subvol(&S, "1");
  sb_cmd(&S, MKFILE);
  sb_attr(&S, A_PATH, "ok\0/../../x", 11);
  sb_u64(&S, A_INO, 300);
  assert_refused_at_last("NUL");
}

static void symlinks_point_inside(void **state) {
  subvol(&S, "1");
  symlink_at(&S, "x", "/tmp/hg-pwn");
  assert_refused_at_last("SYMLINK x -> '/tmp/hg-pwn' points outside the subvolume");
  subvol(&S, "1");
  symlink_at(&S, "x", "../../../../etc");
  assert_refused_at_last("points outside");
  subvol(&S, "1");
  symlink_at(&S, "x", "a/b/c");
  assert_passes(NULL);
}

static void nothing_goes_through_a_symlink_the_stream_made(void **state) {
  subvol(&S, "1");
  symlink_at(&S, "x", "d");
  write_to(&S, "x/pwn");
  assert_refused_at_last("WRITE x/pwn goes through symlink x made by the stream");
  subvol(&S, "1");
  symlink_at(&S, "x", "d");
  cmd_path(&S, MKDIR, "x/sub");
  assert_refused_at_last("goes through symlink x");
  subvol(&S, "1");
  symlink_at(&S, "x", "d");
  write_to(&S, "x"); /* open() follows it */
  assert_refused_at_last("would follow the symlink");
  subvol(&S, "1");
  symlink_at(&S, "x", "d");
  two_paths(&S, RENAME, "f", A_PATH_TO, "x/f");
  assert_refused_at_last("goes through symlink x");
  subvol(&S, "1");
  symlink_at(&S, "x", "d");
  clone_from(&S, self_uuid, 7, "x/secret");
  assert_refused_at_last("goes through symlink x");
}

static void symlinks_are_followed_through_renames_and_links(void **state) {
  /* the link moves */
  subvol(&S, "1");
  symlink_at(&S, "o301-5-0", "d");
  two_paths(&S, RENAME, "o301-5-0", A_PATH_TO, "x");
  write_to(&S, "o301-5-0/ok"); /* no longer a symlink */
  write_to(&S, "x/pwn");
  assert_refused_at_last("goes through symlink x");
  /* its dir moves */
  subvol(&S, "1");
  cmd_path(&S, MKDIR, "a");
  symlink_at(&S, "a/s", "d");
  two_paths(&S, RENAME, "a", A_PATH_TO, "b");
  write_to(&S, "b/s/pwn");
  assert_refused_at_last("goes through symlink b/s");
  /* a hard link to it */
  subvol(&S, "1");
  symlink_at(&S, "s", "d");
  two_paths(&S, LINK, "t", A_PATH_LINK, "s");
  cmd_path(&S, UNLINK, "s");
  write_to(&S, "t/pwn");
  assert_refused_at_last("goes through symlink t");
  /* gone, and a dir of that name made: fine */
  subvol(&S, "1");
  symlink_at(&S, "s", "d");
  cmd_path(&S, UNLINK, "s");
  cmd_path(&S, MKDIR, "s");
  write_to(&S, "s/f");
  assert_passes(NULL);
  /* replaced by a rename */
  subvol(&S, "1");
  symlink_at(&S, "s", "d");
  two_paths(&S, RENAME, "dir", A_PATH_TO, "s");
  write_to(&S, "s/f");
  assert_passes(NULL);
}

static void too_many_symlinks_are_refused(void **state) {
  subvol(&S, "1");
  char name[32];
  for (unsigned i = 0; i <= HG_SENDSTREAM_MAX_LINKS; i++) {
    snprintf(name, sizeof name, "l%u", i);
    symlink_at(&S, name, "d");
  }
  assert_refused_at_last("more than");
}

static void check_only_and_a_bad_policy(void **state) {
  normal_stream();
  sb_finish(&S);
  hg_sendstream_check_free(&C);
  assert_int_equal(hg_sendstream_check_init(&C, NULL, NULL, NULL), 0);
  assert_int_equal(hg_sendstream_check_feed(&C, S.b, S.len), 0); /* check only */
  assert_int_equal(hg_sendstream_check_end(&C), 0);
  hg_sendstream_check_free(&C);
  assert_int_equal(
      hg_sendstream_check_init(&C, &(hg_sendstream_policy){.uuid = "zz"}, NULL, NULL),
      -EINVAL);
}

int main(void) {
#define T(fn) cmocka_unit_test_teardown(fn, teardown)
  const struct CMUnitTest tests[] = {
      T(crc32c_matches_the_standard_check_value),
      T(crc32c_agrees_with_its_definition),
      T(valid_stream_passes_whole_in_any_split),
      T(any_flipped_byte_is_caught),
      T(truncation_and_trailing_data_are_refused),
      T(bad_header_version_2_and_huge_command_are_refused),
      T(malformed_commands_are_refused),
      T(one_plainly_named_subvolume_first),
      T(snapshot_only_of_the_agreed_parent),
      T(clone_only_from_itself_or_the_parent),
      T(paths_stay_inside_the_subvolume),
      T(symlinks_point_inside),
      T(nothing_goes_through_a_symlink_the_stream_made),
      T(symlinks_are_followed_through_renames_and_links),
      T(too_many_symlinks_are_refused),
      T(check_only_and_a_bad_policy),
  };
#undef T
  return cmocka_run_group_tests(tests, NULL, NULL);
}
