/* sandbox_recover: what the manager makes at open of the sandboxes a crash
 * left on disk. A loop-mounted btrfs store and a VMM whose VMs are all
 * gone (every adopt fails): the on-disk state is laid out as the manager
 * writes it (sandboxes/<id>/sandbox.json, snapshots/<id>/<gen>), the
 * manager is opened on it, and the test reads what recovery made. Needs
 * root (loop device, mount). */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/statfs.h>
#include <unistd.h>

#include <cmocka.h>
#include <linux/magic.h>

#include "node/core/log.h"
#include "node/core/util.h"
#include "node/sandbox.h"
#include "node/store.h"
#include "node/vmm.h"

#define IMAGE_BYTES (1ULL << 30)
#define TOKEN "00112233445566778899aabbccddeeff00112233445566778899aabbccddeeff"

static char base[64], data[128];
static hg_store *store;

/* ---- a VMM whose VMs are gone -------------------------------------------- */

static int vm_gone(const char *dir, hg_vm **out) {
  (void)dir;
  (void)out;
  return -ESRCH;
}
static int vm_stop(hg_vm *vm) {
  (void)vm;
  return 0;
}
static void vm_release(hg_vm *vm) { (void)vm; }
/* As qemu_clear: the run files a VM's shim leaves in the sandbox's dir. */
static void vm_clear(const char *dir) {
  static const char *const names[] = {"shim.json", "shim.log"};
  for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
    char path[PATH_MAX];
    snprintf(path, sizeof path, "%s/%s", dir, names[i]);
    unlink(path);
  }
}

static const hg_vmm_ops gone_vmm = {
    .name = "gone", .adopt = vm_gone, .stop = vm_stop, .release = vm_release,
    .clear = vm_clear};

/* ---- a VMM whose VMs live on, fenced (the lease ran out while hangard was down) -- */

static char fenced_vm; /* stands for a VM: the manager only hands it back */
static int vm_adopt_fenced(const char *dir, hg_vm **out) {
  (void)dir;
  *out = (hg_vm *)&fenced_vm;
  return 0;
}
static int vm_info_fenced(hg_vm *vm, hg_vm_info *out) {
  (void)vm;
  *out = (hg_vm_info){.shim_pid = 1, .vmm_pid = 1, .fenced = true};
  return 0;
}
static const hg_vmm_ops fenced_vmm = {
    .name = "fenced", .adopt = vm_adopt_fenced, .info = vm_info_fenced, .stop = vm_stop,
    .release = vm_release, .clear = vm_clear};

static hg_manager *manager_open_with(const hg_vmm_ops *vmm) {
  hg_manager_config cfg = {.store = store, .vmm = vmm, .accel = "tcg"};
  hg_manager *m = NULL;
  assert_int_equal(hg_manager_open(&cfg, &m), 0);
  return m;
}

static hg_manager *manager_open(void) {
  hg_manager_config cfg = {.store = store, .vmm = &gone_vmm, .accel = "tcg"};
  hg_manager *m = NULL;
  assert_int_equal(hg_manager_open(&cfg, &m), 0);
  return m;
}

/* ---- on-disk state as the manager writes it -------------------------------- */

static void write_record_idle(const char *id, const char *state, const char *pending,
                              uint64_t gen, int idle_suspend_s) {
  char rel[128], path[PATH_MAX], text[1024];
  snprintf(rel, sizeof rel, "sandboxes/%s/sandbox.json", id);
  assert_int_equal(hg_store_abs(store, rel, path, sizeof path), 0);
  int n = snprintf(text, sizeof text,
                   "{\"id\":\"%s\",\"state\":\"%s\",\"pending\":\"%s\",\"token\":\"%s\","
                   "\"template\":\"t:1\",\"template_digest\":\"%064d\",\"vcpus\":1,"
                   "\"memory_mib\":256,\"gen\":%" PRIu64 ",\"epoch\":1,"
                   "\"idle_suspend_s\":%d}",
                   id, state, pending, TOKEN, 0, gen, idle_suspend_s);
  assert_int_equal(hg_write_file_atomic(path, text, (size_t)n), 0);
}

static void write_record(const char *id, const char *state, const char *pending,
                         uint64_t gen) {
  write_record_idle(id, state, pending, gen, 0);
}

/* What take_generation does: sandbox.json names generation gen, then the
 * read-only snapshot snapshots/<id>/<gen> with its identity frozen in. */
static void take_gen(const char *id, uint64_t gen) {
  char src[128], dst[128];
  write_record(id, "suspending", "saving", gen);
  snprintf(src, sizeof src, "sandboxes/%s", id);
  snprintf(dst, sizeof dst, "snapshots/%s/%" PRIu64, id, gen);
  assert_int_equal(hg_store_snapshot(store, src, dst, false), 0);
  assert_int_equal(hg_store_freeze(store, dst), 0);
}

/* ---- fixtures ------------------------------------------------------------------ */

static int group_teardown(void **state) {
  (void)state;
  if (store) hg_store_close(store, false);
  store = NULL;
  struct statfs fs;
  if (data[0]) {
    hg_store_destroy(data);
    for (int i = 0; i < 8 && statfs(data, &fs) == 0 && fs.f_type == BTRFS_SUPER_MAGIC; i++)
      umount2(data, MNT_DETACH);
    if (statfs(data, &fs) == 0 && fs.f_type == BTRFS_SUPER_MAGIC)
      return -1; /* never rm -rf through a mount that refused to go */
  }
  return base[0] ? hg_rm_rf(base) : 0;
}

static int group_setup(void **state) {
  /* The failure paths log on purpose; HG_TEST_LOG=1 shows them. */
  if (!getenv("HG_TEST_LOG")) hg_log_set_fd(open("/dev/null", O_WRONLY | O_CLOEXEC));
  if (geteuid() != 0) {
    fprintf(stderr, "test_sandbox_recover needs root (loop devices, mount)\n");
    return -1;
  }
  snprintf(base, sizeof base, "/tmp/hg-recover-XXXXXX");
  if (!mkdtemp(base)) return -1;
  snprintf(data, sizeof data, "%s/data", base);
  hg_store_options opt = {.image_size = IMAGE_BYTES};
  if (hg_store_open(data, &opt, &store) < 0) {
    group_teardown(state);
    return -1;
  }
  return 0;
}

/* ---- tests ------------------------------------------------------------------------ */

/* Chaos seed 38: the host died after a suspend's snapshot of gen 2 and its
 * received-uuid ioctl, before the read-only flag. The snapshot was taken
 * after the VM's state was saved and sandbox.json written, so it is a
 * whole generation: the manager finishes its freeze at open, and the
 * sandbox, whose VM is gone, goes back to it (not to gen 1) suspended. */
static void gen_freeze_cut_short_is_finished_at_open(void **state) {
  (void)state;
  const char *id = "sb-00000000000000e1";
  const char *g2 = "snapshots/sb-00000000000000e1/2";
  assert_int_equal(hg_store_subvol_create(store, "sandboxes/sb-00000000000000e1"), 0);
  take_gen(id, 1);
  take_gen(id, 2);
  assert_int_equal(hg_store_set_readonly(store, g2, false), 0); /* the cut */

  hg_manager *m = manager_open();
  hg_sb_info info;
  assert_int_equal(hg_sandbox_info(m, id, &info), 0);
  assert_int_equal(info.state, HG_SB_SUSPENDED);
  assert_int_equal(info.gen, 2);
  hg_subvol_info si;
  assert_int_equal(hg_store_subvol_info(store, g2, &si), 0);
  assert_true(si.readonly);
  assert_string_equal(si.received_uuid, si.uuid); /* its identity, as a freeze sets it */
  hg_manager_close(m);

  /* Opened again: nothing more to do, and nothing undone. */
  m = manager_open();
  assert_int_equal(hg_sandbox_info(m, id, &info), 0);
  assert_int_equal(info.state, HG_SB_SUSPENDED);
  assert_int_equal(info.gen, 2);
  assert_int_equal(hg_store_subvol_info(store, g2, &si), 0);
  assert_true(si.readonly);
  hg_manager_close(m);
}

/* it_template under load: hangard restarted, the running sandbox's VM was
 * adopted fenced (its lease ran out meanwhile), so its agent did not
 * attach at open, and that attach was what set its last activity: it
 * stayed 0 on the monotonic clock, and the first idle pass suspended the
 * sandbox (idle since the host booted). Idleness counts from the restart. */
static void a_sandbox_adopted_fenced_is_not_idle_at_open(void **state) {
  (void)state;
  const char *id = "sb-00000000000000e2";
  assert_int_equal(hg_store_subvol_create(store, "sandboxes/sb-00000000000000e2"), 0);
  write_record_idle(id, "running", "", 0, 60); /* idle after 60 s; the host is up longer */
  hg_manager *m = manager_open_with(&fenced_vmm);
  hg_sb_info info;
  assert_int_equal(hg_sandbox_info(m, id, &info), 0);
  assert_int_equal(info.state, HG_SB_RUNNING); /* kept, fenced, for its lease */
  char due[4][HG_ID_MAX];
  assert_int_equal(hg_manager_idle(m, due, 4), 0);
  hg_manager_close(m);
}

/* Chaos campaign 1206g, seed 6: a failed-over sandbox's VM died with its
 * hangard down; at open the sandbox went back to its generation, a
 * checkpoint taken on the node it came from, and with it that node's
 * shim.json and shim.log: the next resume's shim appended to the other
 * node's log (the chaos checker then saw the other node's VM as this
 * node's). A rollback leaves no run files of the generation's VM. */
static void a_rollback_leaves_no_run_files_of_the_generations_vm(void **state) {
  (void)state;
  const char *id = "sb-00000000000000e3";
  char path[PATH_MAX];
  assert_int_equal(hg_store_subvol_create(store, "sandboxes/sb-00000000000000e3"), 0);
  const char *run_files[] = {"shim.json", "shim.log"};
  for (int i = 0; i < 2; i++) {
    char rel[128];
    snprintf(rel, sizeof rel, "sandboxes/%s/%s", id, run_files[i]);
    assert_int_equal(hg_store_abs(store, rel, path, sizeof path), 0);
    assert_int_equal(hg_write_file_atomic(path, "another node's shim", 19), 0);
  }
  take_gen(id, 1);
  write_record(id, "running", "", 1); /* its VM is gone at open */

  hg_manager *m = manager_open();
  hg_sb_info info;
  assert_int_equal(hg_sandbox_info(m, id, &info), 0);
  assert_int_equal(info.state, HG_SB_SUSPENDED);
  assert_int_equal(info.gen, 1);
  for (int i = 0; i < 2; i++) {
    char rel[128];
    snprintf(rel, sizeof rel, "sandboxes/%s/%s", id, run_files[i]);
    assert_int_equal(hg_store_abs(store, rel, path, sizeof path), 0);
    assert_int_equal(access(path, F_OK), -1);
  }
  hg_manager_close(m);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(a_sandbox_adopted_fenced_is_not_idle_at_open),
      cmocka_unit_test(gen_freeze_cut_short_is_finished_at_open),
      cmocka_unit_test(a_rollback_leaves_no_run_files_of_the_generations_vm),
  };
  return cmocka_run_group_tests(tests, group_setup, group_teardown);
}
