/* Integration: the API over TLS (--tls-cert, --tls-key; api/tls.h) on a
 * real hangard, with a self-signed certificate the test makes with the
 * openssl CLI. The CLI (`hangar`, HANGAR_CA) and curl talk to it over
 * https; a client that does not trust the certificate is refused by its own
 * check; plain HTTP, garbage and a silent client on the TLS port each lose
 * their own connection only, and the node keeps answering. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h> /* after the four above, which it needs */

#include <curl/curl.h>
#include <errno.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "node/core/util.h"
#include "tests/integration/harness.h"

static hg_it_node node;
static char dir[64], cert[128], key[128];
static const char *extra[5];

static int sh(const char *cmd) {
  int st = system(cmd);
  return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

static int setup(void **state) {
  if (curl_global_init(CURL_GLOBAL_DEFAULT) != CURLE_OK) return -1;
  json_object_seed(0);
  snprintf(dir, sizeof dir, "/tmp/hgit-tls-XXXXXX");
  if (!mkdtemp(dir)) return -1;
  snprintf(cert, sizeof cert, "%s/cert.pem", dir);
  snprintf(key, sizeof key, "%s/key.pem", dir);
  char cmd[1024];
  snprintf(cmd, sizeof cmd,
           "openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:P-256 -nodes -days 2 "
           "-subj /CN=hangar-it -addext subjectAltName=IP:127.0.0.1 -keyout %s -out %s "
           ">/dev/null 2>&1",
           key, cert);
  if (sh(cmd) != 0) {
    fprintf(stderr, "openssl could not make a certificate\n");
    return -1;
  }
  extra[0] = "--tls-cert";
  extra[1] = cert;
  extra[2] = "--tls-key";
  extra[3] = key;
  return hg_it_node_start_with(&node, extra) == 0 ? 0 : -1;
}

static int teardown(void **state) {
  int rc = hg_it_node_stop(&node);
  char cmd[128];
  snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
  sh(cmd);
  curl_global_cleanup();
  return rc;
}

/* The node answers the admin over https (the harness trusts the cert). */
static bool node_answers(void) {
  long st = 0;
  json_t *j = hg_it_json(&node, "GET", "/v1/node", NULL, &st);
  json_decref(j);
  return st == 200;
}

/* stdout of cmd (run with sh -c), and its exit status. */
static int run(const char *cmd, char *out, size_t cap) {
  FILE *p = popen(cmd, "r");
  if (!p) return -1;
  size_t n = fread(out, 1, cap - 1, p);
  out[n] = '\0';
  int st = pclose(p);
  return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

static void cli_and_curl_over_https(void **state) {
  assert_int_equal(strncmp(node.url, "https://", 8), 0);
  char cmd[2048], out[8192];
  /* curl: trusting the self-signed certificate */
  snprintf(cmd, sizeof cmd, "curl -sS --cacert %s -o /dev/null -w '%%{http_code}' %s/healthz",
           cert, node.url);
  assert_int_equal(run(cmd, out, sizeof out), 0);
  assert_string_equal(out, "200");
  snprintf(cmd, sizeof cmd,
           "curl -sS --cacert %s -H 'Authorization: Bearer " HG_IT_KEY "' %s/v1/templates",
           cert, node.url);
  assert_int_equal(run(cmd, out, sizeof out), 0);
  assert_non_null(strstr(out, "\"templates\""));
  /* ... and not trusting it: curl's own check refuses (60: peer certificate) */
  snprintf(cmd, sizeof cmd, "curl -sS -o /dev/null %s/healthz 2>/dev/null", node.url);
  assert_int_equal(run(cmd, out, sizeof out), 60);

  /* hangar, the CLI: HANGAR_CA names the certificate */
  const char *cli = getenv("HANGAR_CLI_BIN");
  assert_non_null(cli);
  snprintf(cmd, sizeof cmd,
           "HANGAR_URL=%s HANGAR_API_KEY=" HG_IT_KEY " HANGAR_CA=%s %s --json templates 2>&1",
           node.url, cert, cli);
  int rc = run(cmd, out, sizeof out);
  fprintf(stderr, "hangar templates over https: exit %d: %.200s\n", rc, out);
  assert_int_equal(rc, 0);
  assert_non_null(strstr(out, "templates"));
  snprintf(cmd, sizeof cmd, "HANGAR_URL=%s HANGAR_API_KEY=" HG_IT_KEY " %s --json templates 2>&1",
           node.url, cli);
  rc = run(cmd, out, sizeof out);
  fprintf(stderr, "hangar without HANGAR_CA: exit %d: %.200s\n", rc, out);
  assert_int_not_equal(rc, 0); /* the system store does not know a self-signed cert */
}

/* Bytes that are not a TLS handshake: the connection is closed (within the
 * handshake deadline at the latest), nothing answers in plain HTTP, and the
 * node goes on serving. */
static void plain_http_garbage_and_silence_lose_their_connection_only(void **state) {
  static const char *const sends[] = {
      "GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n",
      "\x16\x03\x01\x00\x05garbagegarbagegarbage",
      "", /* says nothing: the 10 s handshake deadline */
  };
  int fds[3];
  for (int i = 0; i < 3; i++) {
    fds[i] = hg_it_connect(&node);
    assert_true(fds[i] >= 0);
    size_t n = strlen(sends[i]);
    if (n) assert_int_equal(write(fds[i], sends[i], n), (ssize_t)n);
  }
  assert_true(node_answers()); /* meanwhile, others are served */
  int64_t t0 = hg_now_ms();
  for (int i = 0; i < 3; i++) {
    char buf[4096];
    size_t got = 0;
    for (;;) { /* read until the node closes; 20 s at most */
      struct pollfd p = {.fd = fds[i], .events = POLLIN};
      assert_true(poll(&p, 1, 20000) == 1);
      ssize_t n = read(fds[i], buf, sizeof buf);
      if (n <= 0) break;
      got += (size_t)n;
      assert_null(memmem(buf, (size_t)n, "HTTP/1.1", 8)); /* never plaintext HTTP */
    }
    fprintf(stderr, "bad client %d: closed after %lld ms, %zu bytes (an alert at most)\n", i,
            (long long)(hg_now_ms() - t0), got);
    assert_true(got < 64);
    close(fds[i]);
  }
  assert_true(hg_now_ms() - t0 < 20000);
  assert_true(node_answers());
  /* a large body and answer through TLS, whole */
  enum { BLOB = 4 * 1024 * 1024 };
  char *blob = malloc(BLOB);
  assert_int_equal(hg_random_bytes(blob, BLOB), 0);
  hg_it_resp r;
  assert_int_equal(hg_it_http(&node, "POST",
                              "/v1/sandboxes/sb-00000000000000aa/commands/cmd-1/stdin", NULL,
                              blob, BLOB, &r),
                   0);
  assert_int_equal(r.status, 404); /* read whole (up to 8 MiB), then: no such sandbox */
  hg_it_resp_free(&r);
  free(blob);
  assert_true(node_answers());
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(cli_and_curl_over_https),
      cmocka_unit_test(plain_http_garbage_and_silence_lose_their_connection_only),
  };
  return hg_it_run_group(tests, setup, teardown);
}
