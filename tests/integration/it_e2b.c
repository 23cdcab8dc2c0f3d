/* Integration: the unmodified E2B JS SDK (npm `e2b`, pinned in
 * tools/e2b/install-sdk.sh) against one real hangard with a real VM,
 * through the E2B-compatible API (api/e2b.c, api/envd.c): create, a
 * command with its stdout callback and exit code, a file written and read
 * back, info, list, isRunning, kill; pause (hangar's suspend) and
 * connect (its resume); background commands re-attached, listed, killed
 * and fed stdin (envd's process RPCs). The SDK is installed into a cache dir
 * (HANGAR_E2B_SDK_DIR, default /var/cache/hangar/e2b-sdk) on first run;
 * HANGAR_E2B_SDK_VERSION runs another version than the pinned one
 * (it_e2b_oldest: 2.14.0, the oldest 2.x that runs every script). Where
 * versions differ only in API the scripts print the behaviour
 * (e2b/compat.cjs: "not-found", "killed true"), each version held to its
 * own error classes. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h> /* after the four above, which it needs */

#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>

#include "node/core/util.h"
#include "tests/integration/harness.h"

static hg_it_node node;
static char sdk[256];

static int setup(void **state) {
  const char *d = getenv("HANGAR_E2B_SDK_DIR"), *v = getenv("HANGAR_E2B_SDK_VERSION");
  snprintf(sdk, sizeof sdk, "%s", d && *d ? d : "/var/cache/hangar/e2b-sdk");
  char cmd[768];
  /* HANGAR_E2B_SDK_VERSION: another SDK than the pinned one (digits and
   * dots, checked here before a shell sees it). */
  if (v && v[strspn(v, "0123456789.")] != '\0') {
    fprintf(stderr, "it_e2b: HANGAR_E2B_SDK_VERSION: digits and dots only\n");
    return -1;
  }
  snprintf(cmd, sizeof cmd, "%s/tools/e2b/install-sdk.sh %s %s", HG_SOURCE_DIR, sdk,
           v && *v ? v : "");
  int st = system(cmd);
  if (!WIFEXITED(st) || WEXITSTATUS(st) != 0) {
    fprintf(stderr, "it_e2b: installing the E2B SDK failed (%s)\n", cmd);
    return -1;
  }
  fprintf(stderr, "it_e2b: SDK %s in %s\n", v && *v ? v : "(pinned)", sdk);
  return hg_it_node_start(&node) == 0 ? 0 : -1;
}

static int teardown(void **state) { return hg_it_node_stop(&node); }

/* Runs the SDK script with env (VAR=value ..., shell-safe) before it; its
 * stdout into out. */
static int run_script_env(const char *env, const char *name, char *out, size_t cap) {
  char cmd[1536];
  snprintf(cmd, sizeof cmd,
           "%s NODE_PATH=%s/node_modules E2B_API_URL=%s E2B_SANDBOX_URL=%s E2B_API_KEY=%s "
           "E2B_VALIDATE_API_KEY=false timeout 600 node %s/tests/integration/e2b/%s",
           env, sdk, node.url, node.url, HG_IT_KEY, HG_SOURCE_DIR, name);
  FILE *p = popen(cmd, "r");
  if (!p) return -1;
  size_t n = fread(out, 1, cap - 1, p);
  out[n] = '\0';
  int st = pclose(p);
  fprintf(stderr, "--- %s:\n%s---\n", name, out);
  return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

static int run_script(const char *name, char *out, size_t cap) {
  return run_script_env("", name, out, cap);
}

/* Every line of want (NULL-ended) is in out; a missing one is named. */
static void expect_lines(const char *out, const char *const *want) {
  for (; *want; want++) {
    if (!strstr(out, *want)) fprintf(stderr, "it_e2b: missing line: %s", *want);
    assert_non_null(strstr(out, *want));
  }
}

static void sdk_create_run_files_kill(void **state) {
  static char out[65536];
  assert_int_equal(run_script("sdk_basic.cjs", out, sizeof out), 0);
  assert_non_null(strstr(out, "created true\n"));
  assert_non_null(strstr(out, "endAt-follows true\n"));
  /* commands.run('echo hi; exit 3'): CommandExitError with exitCode 3 */
  static const char *const want[] = {
      "exit 3 stdout \"hi\\n\"\n",
      "callback \"hi\\n\"\n",
      "run 0 \"ok\\n\" \"err\\n\"\n",
      "wrote /tmp/e2b.txt\n",
      "read \"hello from e2b\"\n",
      /* the access token alone names its sandbox (SDKs 2.7-2.14); one
       * naming another sandbox, or under another E2b-Sandbox-Id, is refused */
      "token-only 200 \"hello from e2b\"\n",
      "token-other permission_denied unauthenticated\n",
      "missing not-found\n",
      "mkdir true\n",
      "list f.txt:file:/tmp/d/e/f.txt\n",
      "stat file 1\n",
      "exists true\n",
      "exists-after false\n",
      "info running it_e2b\n",
      "listed true\n",
      "running true\n",
      NULL};
  expect_lines(out, want);
  /* setTimeout(2000), created without autoPause: killed at the timeout */
  assert_non_null(strstr(out, "timeout-killed not-found\n"));
  assert_non_null(strstr(out, "kill-again false\n"));
}

static void sdk_pause_connect(void **state) {
  static char out[65536];
  assert_int_equal(run_script("sdk_pause.cjs", out, sizeof out), 0);
  assert_non_null(strstr(out, "paused true\n"));
  assert_non_null(strstr(out, "paused-again false\n"));
  assert_non_null(strstr(out, "info paused\n"));
  assert_non_null(strstr(out, "connected true\n"));
  assert_non_null(strstr(out, "after \"kept\\n\"\n"));
  assert_non_null(strstr(out, "connect-running true\n"));
  assert_non_null(strstr(out, "timeout paused\n")); /* autoPause: suspended at the timeout */
  assert_non_null(strstr(out, "killed true\n"));
  assert_non_null(strstr(out, "connect-gone not-found\n"));
}

/* files.rename: envd's Filesystem/Move, its EntryInfo, Connect errors;
 * files.write([...]): several parts in one multipart body; writes make
 * missing parent directories (one file, several), as E2B's envd does. */
static void sdk_rename_multi_write(void **state) {
  static char out[65536];
  assert_int_equal(run_script("sdk_process.cjs", out, sizeof out), 0);
  assert_non_null(strstr(out, "renamed mv-b.txt /tmp/mv-b.txt file\n"));
  assert_non_null(strstr(out, "read-new \"moved bytes\"\n"));
  assert_non_null(strstr(out, "old-exists false\n"));
  assert_non_null(strstr(out, "renamed-dir /tmp/mv-e dir\n"));
  assert_non_null(strstr(out, "dir-kept true\n"));
  assert_non_null(strstr(out, "missing not-found\n"));
  assert_non_null(strstr(out, "relative InvalidArgumentError\n"));
  assert_non_null(strstr(out, "multi one.txt:/tmp/m/one.txt,two.txt:/tmp/m/two.txt\n"));
  assert_non_null(strstr(out, "multi-read \"first\" \"second\"\n"));
  assert_non_null(strstr(out, "deep /tmp/deep/er/f.txt \"deep bytes\"\n"));
  assert_non_null(strstr(out, "multi-relative InvalidArgumentError\n"));
  assert_non_null(strstr(out, "killed true\n"));
}

/* envd's process RPCs: a background command listed, left and re-attached
 * by its pid (further output, the exit code), killed, fed stdin; a
 * counter re-attached after pause and connect, still counting; the errors
 * for pids envd never started and for bad bodies. */
static void sdk_background_connect_list_kill_stdin(void **state) {
  static char out[65536];
  assert_int_equal(run_script("sdk_commands.cjs", out, sizeof out), 0);
  static const char *const want[] = {
      "bg-pid true\n",
      "listed /bin/bash for i m1 /tmp\n",
      "connected true\n",
      "connect-exit 7\n",
      "connect-saw-later true\n",
      "listed-after false\n",
      "connect-ended NotFoundError\n",
      "kill true\n",
      "killed-exit -1\n",
      "kill-again false\n",
      "stdin-echo \"hello stdin\\n\"\n",
      "cat-exit 0 \"hello stdin\\n\"\n",
      "stdin-closed SandboxError true\n",
      /* a command that has exited is not_found, as in E2B's envd */
      "stdin-exited NotFoundError\n",
      "close-exited NotFoundError\n",
      "kill-exited false\n",
      "kill-unknown false\n",
      "connect-unknown NotFoundError true\n",
      "stdin-unknown NotFoundError true\n",
      "paused true\n",
      "resumed-listed true\n",
      "resumed-counting true\n",
      "resumed-kill true\n",
      "bad-json 400 invalid_argument\n",
      "bad-signal 400 invalid_argument\n",
      "bad-envelope 200 application/connect+json 2 invalid_argument\n",
      "killed true\n",
      NULL};
  expect_lines(out, want);
}

/* Sandbox.connect after hangard restarted (it has not seen the sandbox's
 * token since): the answer still carries the token, so envd's calls work. */
static void sdk_connect_after_restart(void **state) {
  static char out[65536];
  assert_int_equal(run_script_env("PHASE=create", "sdk_restart.cjs", out, sizeof out), 0);
  const char *p = strstr(out, "id sb-");
  assert_non_null(p);
  char id[32] = "", env[64];
  assert_int_equal(sscanf(p, "id %31[a-z0-9-]", id), 1);
  assert_true(hg_id_valid("sb", id));
  /* stopped first: a second hangard beside the first shared its port and
   * data dir (the connect could reach the old one; it broke teardown) */
  hg_it_node_kill(&node, SIGTERM);
  assert_int_equal(hg_it_node_restart(&node), 0);
  snprintf(env, sizeof env, "SANDBOX_ID=%s", id);
  assert_int_equal(run_script_env(env, "sdk_restart.cjs", out, sizeof out), 0);
  static const char *const want[] = {"token true\n", "read \"kept across the restart\"\n",
                                     "run 0 \"after\\n\"\n", "killed true\n", NULL};
  expect_lines(out, want);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(sdk_create_run_files_kill),
      cmocka_unit_test(sdk_pause_connect),
      cmocka_unit_test(sdk_rename_multi_write),
      cmocka_unit_test(sdk_background_connect_list_kill_stdin),
      cmocka_unit_test(sdk_connect_after_restart),
  };
  return hg_it_run_group(tests, setup, teardown);
}
