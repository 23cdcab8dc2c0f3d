/* Integration: the accelerator a node chooses (node/accel.h), with real
 * hangard processes and real VMs.
 *
 * Hosts of this fleet differ: no /dev/kvm, a working one, or a nested PVM
 * hypervisor's, which opens and answers ioctls but boots no stock kernel.
 * Where the host has no /dev/kvm, the tests put a stand-in there for their
 * length (a character device that opens and is no KVM: /dev/null's numbers)
 * so the probe is exercised on every machine; a /dev/kvm the host has is
 * left alone and the tests assert what the node found out about it.
 *
 * A guest that spins under KVM with an empty console (PVM's way of failing)
 * is played by a QEMU wrapper that runs the probe's guest frozen (-S). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <curl/curl.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/wait.h>
#include <unistd.h>

#include "node/core/util.h"
#include "tests/integration/harness.h"

#define KVM_DEV "/dev/kvm"
#define HANG_QEMU "/tmp/hg-it-accel-qemu"

static bool standin; /* we made /dev/kvm and remove it at the end */

static int group_setup(void **state) {
  if (access(KVM_DEV, F_OK) == 0) return 0;
  if (mknod(KVM_DEV, S_IFCHR | 0600, makedev(1, 3)) < 0) {
    fprintf(stderr, "it_accel: cannot make a stand-in %s: %s\n", KVM_DEV, strerror(errno));
    return -1;
  }
  standin = true;
  return 0;
}

static int group_teardown(void **state) {
  if (standin) unlink(KVM_DEV);
  unlink(HANG_QEMU);
  return 0;
}

/* GET /v1/node's accelerator: name and reason into the caller's buffers. */
static void node_accel(hg_it_node *n, char name[8], char reason[512]) {
  long status = 0;
  json_t *j = hg_it_json(n, "GET", "/v1/node", NULL, &status);
  assert_int_equal(status, 200);
  json_t *a = json_object_get(j, "accel");
  snprintf(name, 8, "%s", hg_it_str(a, "name"));
  snprintf(reason, 512, "%s", hg_it_str(a, "reason"));
  json_decref(j);
}

/* The node's log, whole (it is small: one start). */
static char *node_log(hg_it_node *n) {
  char path[320], *text = NULL;
  snprintf(path, sizeof path, "%s/hangard.log", n->dir);
  assert_int_equal(hg_read_file(path, 16u << 20, &text, NULL), 0);
  return text;
}

static void a_sandbox_runs(hg_it_node *n) {
  char id[32], *out = NULL;
  int code = -1;
  assert_int_equal(hg_it_create(n, id), 0);
  assert_int_equal(hg_it_run(n, id, "echo up", NULL, &out, &code), 0);
  assert_int_equal(code, 0);
  assert_string_equal(out, "up\n");
  free(out);
  assert_int_equal(hg_it_delete(n, id), 0);
}

/* auto: a /dev/kvm that opens is not trusted until a kernel boots under it. */
static void auto_runs_tcg_when_kvm_boots_nothing(void **state) {
  hg_it_node n;
  char name[8], reason[512];
  assert_int_equal(hg_it_node_start(&n), 0);
  node_accel(&n, name, reason);
  if (standin || strcmp(name, "kvm") != 0) {
    assert_string_equal(name, "tcg");
    assert_non_null(strstr(reason, "/dev/kvm opens, but"));
    assert_non_null(strstr(reason, "using TCG"));
  } else { /* a host whose KVM works: it says it proved it */
    assert_non_null(strstr(reason, "a kernel booted under KVM"));
  }
  /* the log says it once, where an operator looks first */
  char *log = node_log(&n);
  assert_non_null(strstr(log, "event=accel.chosen"));
  free(log);
  a_sandbox_runs(&n);
  assert_int_equal(hg_it_node_stop(&n), 0);
}

/* --accel kvm on a host where KVM boots nothing: hangard refuses to start,
 * at once and saying why, instead of a template boot that times out. */
static void accel_kvm_fails_fast_where_kvm_boots_nothing(void **state) {
  hg_it_node n;
  static const char *const kvm[] = {"--accel", "kvm", NULL};
  int rc = hg_it_node_start_with(&n, kvm);
  if (!standin && rc == 0) { /* the host's KVM works: then it must be used */
    char name[8], reason[512];
    node_accel(&n, name, reason);
    assert_string_equal(name, "kvm");
    assert_int_equal(hg_it_node_stop(&n), 0);
    return;
  }
  assert_int_equal(rc, -ECHILD);
  assert_true(WIFEXITED(n.exit_status));
  assert_int_not_equal(WEXITSTATUS(n.exit_status), 0);
  char *log = node_log(&n);
  assert_non_null(strstr(log, "hangard: --accel kvm: /dev/kvm opens, but"));
  assert_null(strstr(log, "template.import")); /* it failed before any boot */
  free(log);
  assert_int_equal(hg_it_node_stop(&n), 0);
}

/* PVM's failure: QEMU starts under KVM and the guest prints nothing. The
 * probe gives up at its deadline and the node runs TCG. */
static void a_kvm_guest_that_never_boots_is_given_up(void **state) {
  FILE *f = fopen(HANG_QEMU, "w");
  assert_non_null(f);
  /* -accel kvm becomes a frozen TCG guest; everything else runs as is */
  fputs("#!/bin/sh\n"
        "case \" $* \" in *' -accel kvm '*) ;; *) exec qemu-system-x86_64 \"$@\";; esac\n"
        "for a; do shift; [ \"$a\" = kvm ] && a=tcg; set -- \"$@\" \"$a\"; done\n"
        "exec qemu-system-x86_64 -S \"$@\"\n",
        f);
  fclose(f);
  chmod(HANG_QEMU, 0755);
  setenv("HANGAR_QEMU", HANG_QEMU, 1);
  hg_it_node n;
  int rc = hg_it_node_start(&n);
  unsetenv("HANGAR_QEMU");
  assert_int_equal(rc, 0);
  char name[8], reason[512];
  node_accel(&n, name, reason);
  assert_string_equal(name, "tcg");
  assert_non_null(strstr(reason, "a kernel did not boot under it within"));
  assert_non_null(strstr(reason, "(console: empty); using TCG"));
  a_sandbox_runs(&n);
  assert_int_equal(hg_it_node_stop(&n), 0);
}

/* A template whose guest cannot boot: the operation fails in seconds and
 * its error quotes the console (here: the kernel's panic). */
static void a_template_that_cannot_boot_says_why(void **state) {
  hg_it_node n;
  assert_int_equal(hg_it_node_start(&n), 0);
  const char *tpl = getenv("HANGAR_TEST_TEMPLATE_DIR");
  char dir[300], cmd[2400];
  snprintf(dir, sizeof dir, "%s/badtpl", n.dir);
  snprintf(cmd, sizeof cmd,
           "mkdir -p %s && cp %s/vmlinuz %s/ && cp --sparse=always %s/rootfs.img %s/ && "
           "head -c 4096 /dev/urandom > %s/initrd.img",
           dir, tpl, dir, tpl, dir, dir);
  assert_int_equal(system(cmd), 0);
  json_t *body = json_pack("{s:s,s:s}", "name", "broken", "dir", dir);
  long status = 0;
  json_t *j = hg_it_json(&n, "POST", "/v1/templates?wait=300", body, &status);
  json_decref(body);
  assert_true(status >= 400);
  const char *msg = hg_it_str(json_object_get(j, "error"), "message");
  assert_non_null(strstr(msg, "the template did not boot under TCG"));
  assert_non_null(strstr(msg, "console: "));
  assert_non_null(strstr(msg, "Kernel panic"));
  json_decref(j);
  /* nothing half-made is listed */
  j = hg_it_json(&n, "GET", "/v1/templates", NULL, &status);
  char *list = json_dumps(j, 0);
  assert_null(strstr(list, "broken:"));
  free(list);
  json_decref(j);
  assert_int_equal(hg_it_node_stop(&n), 0);
}

int main(void) {
  curl_global_init(CURL_GLOBAL_ALL);
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(auto_runs_tcg_when_kvm_boots_nothing),
      cmocka_unit_test(accel_kvm_fails_fast_where_kvm_boots_nothing),
      cmocka_unit_test(a_kvm_guest_that_never_boots_is_given_up),
      cmocka_unit_test(a_template_that_cannot_boot_says_why),
  };
  int rc = hg_it_run_group(tests, group_setup, group_teardown);
  curl_global_cleanup();
  return rc;
}
