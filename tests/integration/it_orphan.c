/* Integration: fencing a sandbox into orphans/ (DESIGN §9 "Fencing
 * tokens"). A manager in this process on a real btrfs loop image orphans a
 * real microVM (restored from the test template through hangar-shim): the
 * VM must be gone when hg_sandbox_orphan returns, the sandbox out of the
 * table, its subvolume and local generations under orphans/<id>/<epoch>.
 * Then hangard starts on the same data dir and its API lists and deletes
 * the orphans, admin only, refusing bad names. One VM at a time. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "node/core/log.h"
#include "node/core/util.h"
#include "node/orphan.h"
#include "node/sandbox.h"
#include "node/store.h"
#include "tests/integration/harness.h"

static struct {
  hg_it_node node; /* hangard for the API part; its cleanup kills our VMs too */
  hg_store *st;
  hg_manager *m;
  char a[HG_ID_MAX]; /* the sandbox every test orphans, once or more */
  char a_token[65];
} fx;

static int manager_open(void) {
  hg_manager_config cfg = {
      .store = fx.st, .vmm = &hg_vmm_qemu, .shim_path = HG_SHIM_PATH};
  return hg_manager_open(&cfg, &fx.m);
}

static int setup(void **state) {
  (void)state;
  const char *tpl_dir = getenv("HANGAR_TEST_TEMPLATE_DIR");
  if (!tpl_dir) {
    fprintf(stderr,
            "it_orphan: HANGAR_TEST_TEMPLATE_DIR must be set (tools/test builds it)\n");
    return -1;
  }
  hg_log_set_level(HG_LOG_WARN);
  hg_it_node *n = &fx.node;
  snprintf(n->dir, sizeof n->dir, "/tmp/hgor-XXXXXX");
  if (!mkdtemp(n->dir)) return -1;
  snprintf(n->data, sizeof n->data, "%s/data", n->dir);
  hg_store_options so = {.image_size = 8ull << 30};
  hg_template_info tpl;
  int rc = hg_store_open(n->data, &so, &fx.st);
  if (rc == 0)
    rc = hg_template_build(
        &(hg_template_build_args){
            .store = fx.st, .vmm = &hg_vmm_qemu, .shim_path = HG_SHIM_PATH},
        "default", tpl_dir, &tpl, NULL);
  if (rc == 0) rc = manager_open();
  if (rc < 0) fprintf(stderr, "it_orphan: setup: %s\n", strerror(-rc));
  return rc < 0 ? -1 : 0;
}

static void manager_close(void) {
  hg_manager_close(fx.m);
  fx.m = NULL;
}

static int teardown(void **state) {
  (void)state;
  manager_close();
  if (fx.st) hg_store_close(fx.st, false);
  return hg_it_node_stop(&fx.node); /* hangard, VMs, the image, the dir */
}

/* --- helpers ------------------------------------------------------------------- */

static void rel_of(char *rel, size_t cap, const char *fmt, const char *id) {
  snprintf(rel, cap, fmt, id);
}

static bool exists(const char *fmt, const char *id) {
  char rel[160], path[4096];
  struct stat st;
  rel_of(rel, sizeof rel, fmt, id);
  assert_int_equal(hg_store_abs(fx.st, rel, path, sizeof path), 0);
  return lstat(path, &st) == 0;
}

static bool is_subvol(const char *fmt, const char *id) {
  char rel[160];
  rel_of(rel, sizeof rel, fmt, id);
  return hg_store_is_subvol(fx.st, rel);
}

static json_t *read_json(const char *fmt, const char *id) {
  char rel[160], path[4096], *text;
  rel_of(rel, sizeof rel, fmt, id);
  assert_int_equal(hg_store_abs(fx.st, rel, path, sizeof path), 0);
  assert_int_equal(hg_read_file(path, 1 << 20, &text, NULL), 0);
  json_t *j = json_loads(text, 0, NULL);
  free(text);
  assert_non_null(j);
  return j;
}

static int64_t jint(const json_t *j, const char *key) {
  const json_t *v = json_object_get(j, key);
  assert_true(json_is_integer(v));
  return json_integer_value(v);
}

static const char *jstr(const json_t *j, const char *key) {
  const char *s = json_string_value(json_object_get(j, key));
  assert_non_null(s);
  return s;
}

/* Runs sh in sandbox id to exit 0. */
static void run(const char *id, const char *sh) {
  const char *argv[] = {"sh", "-c", sh, NULL};
  hg_exec_req req = {.argv = argv};
  uint64_t cid;
  int pid;
  hg_agent *a;
  hg_cmd_status st;
  assert_int_equal(hg_sandbox_exec(fx.m, id, &req, &cid, &pid), 0);
  assert_int_equal(hg_sandbox_agent_get(fx.m, id, &a), 0);
  int rc = hg_agent_wait(a, cid, 60000, &st);
  hg_sandbox_agent_put(fx.m, id);
  assert_int_equal(rc, 0);
  assert_true(st.exited);
  assert_int_equal(st.code, 0);
}

static bool listed(const char *id) {
  json_t *list = hg_sandbox_list(fx.m, NULL, NULL), *sb;
  size_t i;
  bool found = false;
  json_array_foreach(list, i, sb) found |=
      !strcmp(json_string_value(json_object_get(sb, "id")), id);
  json_decref(list);
  return found;
}

/* Two orphanings of one sandbox at once. */
typedef struct racer {
  pthread_t t;
  int rc;
} racer;

static void *race_orphan(void *arg) {
  racer *r = arg;
  r->rc = hg_sandbox_orphan(fx.m, fx.a, 5, "lease lost: n2 holds epoch 5");
  return NULL;
}

/* --- tests --------------------------------------------------------------------- */

/* A running sandbox with a generation and a disk snapshot is orphaned by
 * two callers at once: one does it, the other finds nothing; the VM is
 * gone when the call returns, and everything the sandbox had here is under
 * orphans/<id>/5, read-only. */
static void orphan_stops_the_vm_and_moves_the_sandbox_aside(void **state) {
  (void)state;
  char *a = fx.a;
  hg_sandbox_spec spec = {0};
  assert_int_equal(hg_sandbox_create_begin(fx.m, &spec, a, fx.a_token), 0);
  assert_int_equal(hg_sandbox_create_finish(fx.m, a), 0);
  run(a, "echo fenced > /root/file; sync");
  uint64_t gen;
  assert_int_equal(hg_sandbox_suspend(fx.m, a, &gen), 0);
  assert_int_equal(gen, 1);
  assert_int_equal(hg_sandbox_resume(fx.m, a), 0);
  char snap[64];
  assert_int_equal(hg_sandbox_snapshot(fx.m, a, snap), 0);
  assert_string_equal(snap, "snap-1");
  assert_int_equal(hg_it_count_vms(&fx.node), 1);

  assert_int_equal(hg_sandbox_orphan(fx.m, "sb-ffffffffffffffff", 5, "x"), -ENOENT);
  assert_int_equal(hg_sandbox_orphan(fx.m, "../sandboxes", 5, "x"), -ENOENT);
  assert_int_equal(hg_sandbox_orphan(fx.m, a, 0, "x"), -EINVAL);
  assert_true(listed(a));

  racer r[2];
  for (int i = 0; i < 2; i++)
    assert_int_equal(pthread_create(&r[i].t, NULL, race_orphan, &r[i]), 0);
  for (int i = 0; i < 2; i++) pthread_join(r[i].t, NULL);
  assert_true((r[0].rc == 0 && r[1].rc == -ENOENT) ||
              (r[0].rc == -ENOENT && r[1].rc == 0));
  /* No waiting: the VM is gone by the time the call returned. */
  assert_int_equal(hg_it_count_vms(&fx.node), 0);

  json_t *j;
  assert_int_equal(hg_sandbox_describe(fx.m, a, &j), -ENOENT);
  assert_false(listed(a));
  assert_false(hg_sandbox_token_ok(fx.m, a, fx.a_token));
  assert_int_equal(hg_sandbox_resume(fx.m, a), -ENOENT);
  assert_int_equal(hg_sandbox_delete(fx.m, a), -ENOENT);
  assert_int_equal(hg_sandbox_orphan(fx.m, a, 6, "again"), -ENOENT);

  assert_false(exists("sandboxes/%s", a));
  assert_false(exists("snapshots/%s", a));
  assert_true(is_subvol("orphans/%s/5", a));
  assert_false(exists("orphans/%s/5.1", a));
  hg_subvol_info info;
  char rel[160];
  rel_of(rel, sizeof rel, "orphans/%s/5", a);
  assert_int_equal(hg_store_subvol_info(fx.st, rel, &info), 0);
  assert_true(info.readonly);
  static const char *const files[] = {"sandbox.json",  "rootfs.img", "mem",
                                      "vmstate",       "vmlinuz",    "initrd.img",
                                      HG_ORPHAN_RECORD};
  for (size_t i = 0; i < HG_ARRAY_SIZE(files); i++) {
    char fmt[96];
    snprintf(fmt, sizeof fmt, "orphans/%%s/5/%s", files[i]);
    if (!exists(fmt, a)) fail_msg("orphans/%s/5/%s is missing", a, files[i]);
  }
  /* Nothing left that would adopt a VM or reach one. */
  assert_false(exists("orphans/%s/5/shim.json", a));
  assert_false(exists("orphans/%s/5/qmp.sock", a));
  /* The generation and the disk snapshot taken here went with it. */
  assert_true(is_subvol("orphans/%s/5/snapshots/1", a));
  assert_true(is_subvol("orphans/%s/5/snapshots/snap-1", a));

  json_t *rec = read_json("orphans/%s/5/" HG_ORPHAN_RECORD, a);
  assert_string_equal(jstr(rec, "id"), a);
  assert_int_equal(jint(rec, "epoch"), 5);
  assert_int_equal(jint(rec, "own_epoch"), 1);
  assert_int_equal(jint(rec, "gen"), 1);
  assert_string_equal(jstr(rec, "state"), "running");
  assert_string_equal(jstr(rec, "template"), "default:latest");
  assert_string_equal(jstr(rec, "reason"), "lease lost: n2 holds epoch 5");
  assert_true(hg_iso_parse(jstr(rec, "orphaned_at")) > 0);
  json_decref(rec);
  json_t *sbj = read_json("orphans/%s/5/sandbox.json", a);
  assert_string_equal(jstr(sbj, "state"), "running"); /* as it was when fenced */
  json_decref(sbj);

  json_t *list = hg_manager_orphans(fx.m);
  assert_int_equal(json_array_size(list), 1);
  json_t *o = json_array_get(list, 0);
  char name[HG_ORPHAN_NAME_MAX];
  snprintf(name, sizeof name, "%s/5", a);
  assert_string_equal(jstr(o, "name"), name);
  assert_string_equal(jstr(o, "id"), a);
  assert_int_equal(jint(o, "epoch"), 5);
  assert_string_equal(jstr(o, "state"), "running");
  json_decref(list);
  assert_int_equal(hg_manager_orphan_count(fx.m), 1);
}

/* The same sandbox back here (adopted from a replica, suspended: no VM)
 * and fenced at epoch 5 again: the name takes ".1". Then a crash right
 * after the record was written: the next open finishes the move. */
static void orphans_never_overwrite_and_restart_finishes_a_cut_short_one(void **state) {
  (void)state;
  char *a = fx.a, from[96], path[4096];
  /* What a replica of gen 1 received from the new owner would be. */
  char src[160];
  rel_of(src, sizeof src, "orphans/%s/5/snapshots/1", a);
  snprintf(from, sizeof from, "replicas/%s/1", a);
  assert_int_equal(hg_store_snapshot(fx.st, src, from, true), 0);
  assert_int_equal(hg_sandbox_adopt(fx.m, a, from, 6), 0);
  assert_true(listed(a));
  /* Adopted lazily, it has no copy of its own to orphan until a first
   * call makes one (before, an orphaning disowns it: replicas stay). */
  assert_false(is_subvol("sandboxes/%s", a));
  assert_int_equal(hg_sandbox_set_idle(fx.m, a, 3600), 0);
  assert_true(is_subvol("sandboxes/%s", a));
  assert_int_equal(hg_sandbox_orphan(fx.m, a, 5, "fenced twice"), 0);
  assert_false(listed(a));
  assert_true(is_subvol("orphans/%s/5", a));
  assert_true(is_subvol("orphans/%s/5.1", a));
  assert_true(is_subvol("replicas/%s/1", a)); /* replicas stay */
  json_t *rec = read_json("orphans/%s/5.1/" HG_ORPHAN_RECORD, a);
  assert_string_equal(jstr(rec, "state"), "suspended");
  assert_int_equal(jint(rec, "own_epoch"), 6);
  json_decref(rec);
  assert_int_equal(hg_manager_orphan_count(fx.m), 2);

  /* Cut short: the record is written, nothing moved yet. */
  assert_int_equal(hg_sandbox_adopt(fx.m, a, from, 7), 0);
  assert_int_equal(hg_sandbox_set_idle(fx.m, a, 3600), 0); /* its copy, in place */
  manager_close();
  const char record[] = "{\"id\": \"x\", \"epoch\": 8, \"reason\": \"crash\"}";
  char rel[160];
  rel_of(rel, sizeof rel, "sandboxes/%s/" HG_ORPHAN_RECORD, a);
  assert_int_equal(hg_store_abs(fx.st, rel, path, sizeof path), 0);
  assert_int_equal(hg_write_file_atomic(path, record, sizeof record - 1), 0);
  assert_int_equal(manager_open(), 0);
  assert_false(listed(a));
  assert_false(exists("sandboxes/%s", a));
  assert_true(is_subvol("orphans/%s/8", a));
  json_t *list = hg_manager_orphans(fx.m);
  assert_int_equal(json_array_size(list), 3);
  assert_string_equal(jstr(json_array_get(list, 2), "reason"), "crash");
  json_decref(list);
  assert_int_equal(hg_it_count_vms(&fx.node), 0);
}

static long status_of(const char *method, const char *path, const char *token) {
  hg_it_resp r;
  assert_int_equal(hg_it_http(&fx.node, method, path, token, NULL, 0, &r), 0);
  long st = r.status;
  hg_it_resp_free(&r);
  return st;
}

static size_t orphans_listed(void) {
  long st = 0;
  json_t *j = hg_it_json(&fx.node, "GET", "/v1/orphans", NULL, &st);
  assert_int_equal(st, 200);
  size_t n = json_array_size(json_object_get(j, "orphans"));
  json_decref(j);
  return n;
}

/* hangard on the same data dir: GET /v1/orphans and DELETE
 * /v1/orphans/<id>/<epoch>, admin key only; bad names are 400 and delete
 * nothing. */
static void api_lists_and_deletes_orphans_admin_only(void **state) {
  (void)state;
  char *a = fx.a, path[256];
  /* The store handle stays for its paths (it holds no state); the image
   * stays mounted, and hangard opens it as it is. */
  manager_close();
  assert_int_equal(hg_it_node_restart(&fx.node), 0);

  long st = 0;
  json_t *j = hg_it_json(&fx.node, "GET", "/v1/orphans", NULL, &st);
  assert_int_equal(st, 200);
  json_t *list = json_object_get(j, "orphans");
  assert_int_equal(json_array_size(list), 3);
  char name[HG_ORPHAN_NAME_MAX];
  snprintf(name, sizeof name, "%s/5", a);
  assert_string_equal(jstr(json_array_get(list, 0), "name"), name);
  assert_string_equal(jstr(json_array_get(list, 0), "reason"),
                      "lease lost: n2 holds epoch 5");
  assert_non_null(json_object_get(json_array_get(list, 0), "node"));
  json_decref(j);
  /* hangard serves none of them */
  snprintf(path, sizeof path, "/v1/sandboxes/%s", a);
  assert_int_equal(status_of("GET", path, NULL), 404);

  /* Admin only: no key, a wrong key, a sandbox's own token. */
  assert_int_equal(status_of("GET", "/v1/orphans", ""), 401);
  assert_int_equal(status_of("GET", "/v1/orphans", "wrong-key-0123456789"), 401);
  json_t *empty = json_object();
  json_t *created = hg_it_json(&fx.node, "POST", "/v1/sandboxes?wait=120", empty, &st);
  json_decref(empty);
  assert_int_equal(st, 201);
  char b[HG_ID_MAX], tok[65];
  snprintf(b, sizeof b, "%s", jstr(created, "id"));
  snprintf(tok, sizeof tok, "%s", jstr(created, "token"));
  json_decref(created);
  assert_int_equal(status_of("GET", "/v1/orphans", tok), 403);
  snprintf(path, sizeof path, "/v1/orphans/%s/5", a);
  assert_int_equal(status_of("DELETE", path, tok), 403);
  assert_int_equal(status_of("DELETE", path, ""), 401);
  assert_int_equal(hg_it_delete(&fx.node, b), 0);

  char *metrics = hg_it_metrics(&fx.node);
  assert_non_null(metrics);
  assert_true(hg_it_metric(metrics, "hangar_orphans") == 3);
  free(metrics);

  /* Bad names: 400, nothing deleted. */
  static const char *const bad[] = {
      "../x",  "a/b/c",  "x/1abc", "%2e%2e/x", "..%2fx",          "%s/5/../5.1",
      "%s/05", "%s/5.0", "%s/-5",  "%s/5%%00", "../../sandboxes", "%s"};
  for (size_t i = 0; i < HG_ARRAY_SIZE(bad); i++) {
    char nm[128];
    snprintf(nm, sizeof nm, bad[i], a);
    snprintf(path, sizeof path, "/v1/orphans/%s", nm);
    long got = status_of("DELETE", path, NULL);
    if (got != 400) fail_msg("DELETE %s: %ld, want 400", path, got);
  }
  assert_int_equal(orphans_listed(), 3);
  assert_true(is_subvol("orphans/%s/5", a));
  assert_true(is_subvol("orphans/%s/5.1", a));
  assert_true(is_subvol("orphans/%s/8", a));

  snprintf(path, sizeof path, "/v1/orphans/%s/5.1", a);
  assert_int_equal(status_of("DELETE", path, NULL), 204);
  assert_int_equal(status_of("DELETE", path, NULL), 404);
  assert_false(exists("orphans/%s/5.1", a));
  assert_true(is_subvol("orphans/%s/5", a));
  assert_int_equal(orphans_listed(), 2);
  snprintf(path, sizeof path, "/v1/orphans/%s/9", a);
  assert_int_equal(status_of("DELETE", path, NULL), 404);
  /* The one holding nested generations, then the last. */
  snprintf(path, sizeof path, "/v1/orphans/%s/5", a);
  assert_int_equal(status_of("DELETE", path, NULL), 204);
  snprintf(path, sizeof path, "/v1/orphans/%s/8", a);
  assert_int_equal(status_of("DELETE", path, NULL), 204);
  assert_int_equal(orphans_listed(), 0);
  assert_false(exists("orphans/%s", a));
  metrics = hg_it_metrics(&fx.node);
  assert_non_null(metrics);
  assert_true(strstr(metrics, "\nhangar_orphans 0\n") != NULL);
  free(metrics);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(orphan_stops_the_vm_and_moves_the_sandbox_aside),
      cmocka_unit_test(orphans_never_overwrite_and_restart_finishes_a_cut_short_one),
      cmocka_unit_test(api_lists_and_deletes_orphans_admin_only),
  };
  return hg_it_run_group(tests, setup, teardown);
}
