/* template: which template is a name's default, and when hangard must
 * import its --template-dir again. Templates here are fabricated (a
 * subvolume with a template.json, no VM boots) in a store on a real
 * loop-mounted btrfs under /tmp, removed by the teardown. Needs root. */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>

#include "node/core/util.h"
#include "node/store.h"
#include "node/template.h"

#define NAME "default:latest"
#define D1 "1111111111111111111111111111111111111111111111111111111111111111"
#define D2 "2222222222222222222222222222222222222222222222222222222222222222"
#define D3 "3333333333333333333333333333333333333333333333333333333333333333"

typedef struct fixture {
  char base[64];
  char data[128];
  char src[128]; /* a template dir as mkimage leaves it */
  hg_store *st;
} fixture;

static void put(const char *dir, const char *file, const char *text) {
  char path[PATH_MAX];
  assert_int_equal(hg_path(path, sizeof path, "%s/%s", dir, file), 0);
  assert_int_equal(hg_write_file_atomic_mode(path, text, strlen(text), 0644), 0);
}

/* A published template as hg_template_build leaves one, minus the boot. */
static void fake_template(fixture *f, const char *digest, const char *created_at) {
  char rel[192], dir[PATH_MAX], json[512];
  snprintf(rel, sizeof rel, "templates/" NAME "@%.16s", digest);
  assert_int_equal(hg_store_subvol_create(f->st, rel), 0);
  assert_int_equal(hg_store_abs(f->st, rel, dir, sizeof dir), 0);
  snprintf(json, sizeof json,
           "{\"name\":\"" NAME
           "\",\"digest\":\"%s\",\"memory_mib\":256,\"vcpus\":1,"
           "\"nic\":true,\"created_at\":\"%s\",\"profile\":\"minimal\"}",
           digest, created_at);
  put(dir, "template.json", json);
}

static void record(fixture *f, const char *src_dir, const char *digest) {
  hg_template_source s;
  assert_int_equal(hg_template_source_scan(src_dir, &s), 0);
  snprintf(s.digest, sizeof s.digest, "%s", digest);
  assert_int_equal(hg_template_source_write(f->st, NAME, &s), 0);
}

static const char *check(fixture *f, const char *src_dir) {
  const char *why = NULL;
  int rc = hg_template_source_check(f->st, NAME, src_dir, &why);
  assert_true(rc == 0 || rc == 1);
  assert_true((rc == 0) == (why == NULL));
  return why ? why : "current";
}

static const char *resolved(fixture *f) {
  static hg_template_info info;
  assert_int_equal(hg_template_resolve(f->st, NAME, &info), 0);
  return info.digest;
}

static void make_src(const char *dir) {
  assert_int_equal(hg_mkdir_p(dir, 0755), 0);
  put(dir, "vmlinuz", "kernel");
  put(dir, "initrd.img", "initrd");
  put(dir, "rootfs.img", "rootfs");
  put(dir, "template.json", "{\"profile\":\"minimal\",\"built_at\":\"1\"}\n");
}

static int setup(void **state) {
  fixture *f = calloc(1, sizeof *f);
  if (!f) return -1;
  snprintf(f->base, sizeof f->base, "/tmp/hg-tpl-XXXXXX");
  if (!mkdtemp(f->base)) {
    free(f);
    return -1;
  }
  snprintf(f->data, sizeof f->data, "%s/data", f->base);
  snprintf(f->src, sizeof f->src, "%s/src", f->base);
  *state = f;
  hg_store_options opt = {.image_size = 1ULL << 30};
  if (hg_store_open(f->data, &opt, &f->st) < 0) return -1;
  make_src(f->src);
  return 0;
}

static int teardown(void **state) {
  fixture *f = *state;
  hg_store_close(f->st, true);
  hg_store_destroy(f->data);
  hg_rm_rf(f->base);
  free(f);
  return 0;
}

/* Each reason hangard gives for importing again, and none when the dir
 * holds what the default template was imported from. */
static void check_says_why_an_import_is_due(void **state) {
  fixture *f = *state;
  assert_string_equal(check(f, f->src), "missing");
  fake_template(f, D1, "2026-01-01T00:00:00.000Z");
  assert_string_equal(check(f, f->src), "no_record");
  record(f, f->src, D1);
  assert_string_equal(check(f, f->src), "current");
  /* the same dir named through a symlink is the same source */
  char link[PATH_MAX];
  snprintf(link, sizeof link, "%s/link", f->base);
  assert_int_equal(symlink(f->src, link), 0);
  assert_string_equal(check(f, link), "current");

  /* a rebuild renames a new file into place */
  put(f->src, "rootfs.img", "rootfs");
  assert_string_equal(check(f, f->src), "source_changed");
  record(f, f->src, D1);
  assert_string_equal(check(f, f->src), "current");
  /* only template.json changed (mkimage rewrites it on every build) */
  char path[PATH_MAX + 16];
  snprintf(path, sizeof path, "%s/template.json", f->src);
  int fd = open(path, O_WRONLY | O_TRUNC);
  assert_true(fd >= 0);
  assert_int_equal(write(fd, "{\"built_at\":\"2\"}\n", 17), 17);
  close(fd);
  assert_string_equal(check(f, f->src), "source_changed");
  record(f, f->src, D1);

  /* another dir (HANGAR_PROFILE=debian is another mkimage output dir) */
  char other[PATH_MAX];
  snprintf(other, sizeof other, "%s/other", f->base);
  make_src(other);
  assert_string_equal(check(f, other), "dir_changed");

  /* the record names a template that is not there */
  record(f, f->src, D3);
  assert_string_equal(check(f, f->src), "template_gone");

  /* an unreadable dir is an error, not a reason to import */
  const char *why = NULL;
  snprintf(path, sizeof path, "%s/initrd.img", other);
  assert_int_equal(unlink(path), 0);
  assert_int_equal(hg_template_source_check(f->st, NAME, other, &why), -ENOENT);
  assert_int_equal(hg_template_source_check(f->st, "Bad Name", f->src, &why), -EINVAL);
}

/* The last import is the default, even when it is older than another
 * template of the name; without a usable record the newest is. */
static void record_picks_the_default(void **state) {
  fixture *f = *state;
  fake_template(f, D1, "2026-01-01T00:00:00.000Z");
  fake_template(f, D2, "2026-02-01T00:00:00.000Z");
  assert_string_equal(resolved(f), D2);
  record(f, f->src, D1);
  assert_string_equal(resolved(f), D1);

  json_t *list = hg_template_list_store(f->st), *t;
  size_t i, defaults = 0;
  assert_int_equal(json_array_size(list), 2);
  json_array_foreach(list, i, t) {
    const char *digest = json_string_value(json_object_get(t, "digest"));
    bool is_default = json_is_true(json_object_get(t, "default"));
    assert_string_equal(json_string_value(json_object_get(t, "profile")), "minimal");
    assert_true(is_default == (strcmp(digest, D1) == 0));
    /* only the default shows where it came from */
    assert_true(is_default == (json_object_get(t, "source_dir") != NULL));
    assert_true(is_default == (json_object_get(t, "source_manifest") != NULL));
    defaults += is_default;
  }
  json_decref(list);
  assert_int_equal(defaults, 1);

  record(f, f->src, D3); /* gone: back to the newest */
  assert_string_equal(resolved(f), D2);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test_setup_teardown(check_says_why_an_import_is_due, setup, teardown),
      cmocka_unit_test_setup_teardown(record_picks_the_default, setup, teardown),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
