/* Integration: the unmodified E2B JS SDK against a node that does not own
 * the sandbox, on three real hangards (tools/cluster) with a real VM: the
 * control calls (connect, info, kill) and envd's (a command, a file written
 * and read back; envd names the sandbox in E2b-Sandbox-Id, not the path)
 * are forwarded to the owner like hangar's own; so is a file read with the
 * access token alone (it names the sandbox, as SDKs 2.7-2.14 rely on). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>

#include "node/core/util.h"
#include "tests/integration/cluster_harness.h"

#define NODES 3

static hg_itc C;
static char sdk[256];

static int setup(void **state) {
  const char *d = getenv("HANGAR_E2B_SDK_DIR");
  snprintf(sdk, sizeof sdk, "%s", d && *d ? d : "/var/cache/hangar/e2b-sdk");
  char cmd[768];
  snprintf(cmd, sizeof cmd, "%s/tools/e2b/install-sdk.sh %s", HG_SOURCE_DIR, sdk);
  int st = system(cmd);
  if (!WIFEXITED(st) || WEXITSTATUS(st) != 0) {
    fprintf(stderr, "it_e2b_cluster: installing the E2B SDK failed (%s)\n", cmd);
    return -1;
  }
  hg_itc_opts o = {.with_template = true, .ready_timeout_s = 360, .deadline_s = 600};
  return hg_itc_group_up(&C, NODES, &o) >= 0 ? 0 : -1;
}

static int teardown(void **state) { return hg_itc_group_down(&C); }

/* Runs the SDK script against node via (both URLs) for sandbox id; its
 * stdout into out; the script's exit status. */
static int run_script(int via, const char *id, const char *token, const char *name,
                      char *out, size_t cap) {
  char cmd[2048];
  snprintf(cmd, sizeof cmd,
           "SANDBOX_ID=%s SANDBOX_TOKEN=%s NODE_PATH=%s/node_modules E2B_API_URL=%s E2B_SANDBOX_URL=%s "
           "E2B_API_KEY=%s E2B_VALIDATE_API_KEY=false timeout 600 node "
           "%s/tests/integration/e2b/%s",
           id, token, sdk, C.node[via].url, C.node[via].url, C.key, HG_SOURCE_DIR, name);
  FILE *p = popen(cmd, "r");
  if (!p) return -1;
  size_t n = fread(out, 1, cap - 1, p);
  out[n] = '\0';
  int st = pclose(p);
  fprintf(stderr, "--- %s through n%d:\n%s---\n", name, via, out);
  return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

static void the_sdk_through_a_node_that_does_not_own_the_sandbox(void **state) {
  json_t *body = json_pack("{s:i}", "replicas", 1), *j = NULL;
  assert_true(hg_itc_expect(&C, 1, NULL, "POST", "/v1/sandboxes?wait=300", body, 201, 330000,
                            &j));
  json_decref(body);
  char id[32], token[80];
  snprintf(id, sizeof id, "%s", hg_it_str(j, "id"));
  snprintf(token, sizeof token, "%s", hg_it_str(j, "token"));
  assert_int_equal(strspn(token, "0123456789abcdef"), 64); /* safe in a shell line */
  json_decref(j);
  int owner = hg_itc_owner(&C, 1, id, NULL, NULL);
  assert_true(owner >= 1 && owner <= NODES);
  int via = owner % NODES + 1;
  static char out[65536];
  assert_int_equal(run_script(via, id, token, "sdk_elsewhere.cjs", out, sizeof out), 0);
  assert_non_null(strstr(out, "connected true\n"));
  assert_non_null(strstr(out, "run 0 \"42\\n\" callback \"42\\n\"\n"));
  assert_non_null(strstr(out, "read \"through another node\"\n"));
  /* X-Access-Token alone (SDKs 2.7-2.14): the token names the sandbox */
  assert_non_null(strstr(out, "token-only 200 \"through another node\"\n"));
  assert_non_null(strstr(out, "listed true\n"));
  assert_non_null(strstr(out, "connect-ticks true\n"));
  assert_non_null(strstr(out, "kill true\n"));
  assert_non_null(strstr(out, "killed-exit -1\n"));
  assert_non_null(strstr(out, "info running\n"));
  assert_non_null(strstr(out, "killed true\n"));
  assert_int_equal(hg_itc_vmms(&C, id), 0);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(the_sdk_through_a_node_that_does_not_own_the_sandbox),
  };
  return hg_it_run_group(tests, setup, teardown);
}
