/* Integration: sandbox networking (DESIGN §11) with one real hangard, its
 * egress gateway and real microVMs. Every sandbox gets a NIC whose tap
 * lives in its own namespace (<data>/netns/<id>); with no policy nothing
 * gets out; the policy round-trips through the API (credentials redacted);
 * HTTP reaches guest ports; suspend/resume, fork and a kill -9 of hangard
 * keep it all working; delete takes the namespace away.
 *
 * The gateway's upstream resolver is pointed at a port where nothing
 * answers (HANGAR_UPSTREAM_DNS): no test here may depend on the host's
 * network. The egress matrix against a fake internet lives elsewhere. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <curl/curl.h>
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include "gateway/netns.h"
#include "node/core/util.h"
#include "tests/integration/harness.h"

static hg_it_node node;
static char guest_mac[18]; /* the gateway's, as hg_netns_link_default has it */
static char sb_a[32];      /* no policy at create; httpd + echo server inside */
static char sb_b[32];      /* created with a policy */

static int setup(void **state) {
  hg_netns_link link;
  hg_netns_link_default(&link);
  const uint8_t *m = link.guest_mac;
  snprintf(guest_mac, sizeof guest_mac, "%02x:%02x:%02x:%02x:%02x:%02x", m[0], m[1], m[2],
           m[3], m[4], m[5]);
  setenv("HANGAR_UPSTREAM_DNS", "127.0.0.1:9", 1);
  return hg_it_node_start(&node) == 0 ? 0 : -1;
}

static int teardown(void **state) {
  /* HG_IT_KEEP_LOG=<path>: the daemon's log survives the run there */
  const char *keep = getenv("HG_IT_KEEP_LOG");
  char cmd[1024];
  snprintf(cmd, sizeof cmd, "cp %s/hangard.log '%s'", node.dir, keep ? keep : "");
  if (keep && *keep && !strchr(keep, '\'') && system(cmd) != 0)
    fprintf(stderr, "could not keep the log\n");
  return hg_it_node_stop(&node);
}

/* --- helpers ------------------------------------------------------------------- */

/* A live namespace named id under the node's <data>/netns. */
static bool netns_live(const char *id) {
  char dir[400];
  hg_netns *ns;
  snprintf(dir, sizeof dir, "%s/netns", node.data);
  if (hg_netns_open(dir, id, &ns) < 0) return false;
  hg_netns_close(ns);
  return true;
}

static bool netns_file(const char *id) {
  char path[400];
  snprintf(path, sizeof path, "%s/netns/%s", node.data, id);
  return access(path, F_OK) == 0;
}

/* Runs sh -c cmd in the sandbox; returns its stdout (free it). */
static char *run(const char *id, const char *cmd) {
  char *out = NULL;
  int code;
  assert_int_equal(hg_it_run(&node, id, cmd, NULL, &out, &code), 0);
  return out;
}

static void lifecycle(const char *id, const char *verb) {
  char path[128];
  long status;
  snprintf(path, sizeof path, "/v1/sandboxes/%s/%s?wait=300", id, verb);
  json_t *j = hg_it_json(&node, "POST", path, NULL, &status);
  if (status != 200) {
    char *d = j ? json_dumps(j, 0) : NULL;
    fprintf(stderr, "%s %s: %ld %s\n", verb, id, status, d ? d : "");
    free(d);
  }
  assert_int_equal(status, 200);
  json_decref(j);
}

static json_t *get_network(const char *id, const char *token, long *status) {
  char path[128];
  snprintf(path, sizeof path, "/v1/sandboxes/%s/network", id);
  return hg_it_json_on(NULL, &node, token, "GET", path, NULL, status);
}

static long put_network(const char *id, const char *policy_json, json_t **out) {
  char path[128];
  long status;
  snprintf(path, sizeof path, "/v1/sandboxes/%s/network", id);
  json_t *body = json_loads(policy_json, 0, NULL);
  assert_non_null(body);
  json_t *j = hg_it_json(&node, "PUT", path, body, &status);
  json_decref(body);
  if (out)
    *out = j;
  else
    json_decref(j);
  return status;
}

/* The allowlist of a policy answer as one comma-joined string. */
static void allow_text(json_t *policy, char *out, size_t cap) {
  size_t i, n = 0;
  json_t *v;
  out[0] = '\0';
  json_array_foreach(json_object_get(policy, "allow"), i, v) n += (size_t)snprintf(
      out + n, n < cap ? cap - n : 0, "%s%s", i ? "," : "", json_string_value(v));
}

/* DNS through the gateway's responder: true when it answered (NXDOMAIN or
 * REFUSED count: the point is that something listens), false on silence. */
static bool dns_answers(const char *id, bool *resolved) {
  char *out = run(id, "nslookup example.com 10.0.2.1 2>&1; echo rc=$?");
  bool silent = strstr(out, "timed out") || strstr(out, "no servers could be reached");
  if (resolved) *resolved = strstr(out, "Name:") != NULL;
  if (silent) fprintf(stderr, "dns silent in %s:\n%s\n", id, out);
  free(out);
  return !silent;
}

typedef struct port_resp {
  long status;
  char headers[4096];
  hg_buf body;
} port_resp;

static size_t on_body(char *p, size_t size, size_t nmemb, void *ud) {
  port_resp *r = ud;
  return hg_buf_append(&r->body, p, size * nmemb) == 0 ? size * nmemb : 0;
}

static size_t on_header(char *p, size_t size, size_t nmemb, void *ud) {
  port_resp *r = ud;
  size_t have = strlen(r->headers), len = size * nmemb;
  if (have + len < sizeof r->headers) {
    memcpy(r->headers + have, p, len);
    r->headers[have + len] = '\0';
  }
  return len;
}

/* method …/ports/<port_path> with an extra client header (may be NULL). */
static void port_request(const char *method, const char *id, const char *port_path,
                         const char *extra_header, const char *token, port_resp *r) {
  memset(r, 0, sizeof *r);
  hg_buf_init(&r->body, 1u << 20);
  char url[512], auth[300];
  snprintf(url, sizeof url, "%s/v1/sandboxes/%s/ports/%s", node.url, id, port_path);
  snprintf(auth, sizeof auth, "Authorization: Bearer %s", token ? token : HG_IT_KEY);
  CURL *c = curl_easy_init();
  assert_non_null(c);
  struct curl_slist *h = curl_slist_append(NULL, auth);
  if (extra_header) h = curl_slist_append(h, extra_header);
  curl_easy_setopt(c, CURLOPT_URL, url);
  curl_easy_setopt(c, CURLOPT_CUSTOMREQUEST, method);
  curl_easy_setopt(c, CURLOPT_HTTPHEADER, h);
  curl_easy_setopt(c, CURLOPT_WRITEFUNCTION, on_body);
  curl_easy_setopt(c, CURLOPT_WRITEDATA, r);
  curl_easy_setopt(c, CURLOPT_HEADERFUNCTION, on_header);
  curl_easy_setopt(c, CURLOPT_HEADERDATA, r);
  curl_easy_setopt(c, CURLOPT_NOSIGNAL, 1L);
  curl_easy_setopt(c, CURLOPT_TIMEOUT, 180L);
  assert_int_equal(curl_easy_perform(c), CURLE_OK);
  curl_easy_getinfo(c, CURLINFO_RESPONSE_CODE, &r->status);
  curl_slist_free_all(h);
  curl_easy_cleanup(c);
  assert_int_equal(hg_buf_append(&r->body, "", 1), 0);
}

/* The guest's httpd answers through …/ports/8080. */
static void httpd_answers(const char *id) {
  port_resp r;
  port_request("GET", id, "8080/index.html", NULL, NULL, &r);
  if (r.status != 200)
    fprintf(stderr, "port 8080 of %s: %ld %s\n", id, r.status, r.body.data);
  assert_int_equal(r.status, 200);
  assert_string_equal(r.body.data, "hello-from-guest\n");
  hg_buf_free(&r.body);
}

static const char echo_sh[] =
    "#!/bin/sh\n"
    "# the request head, back as the body\n"
    "while IFS= read -r l; do\n"
    "  l=$(printf '%s' \"$l\" | tr -d '\\r')\n"
    "  [ -z \"$l\" ] && break\n"
    "  echo \"$l\"\n"
    "done > /tmp/head\n"
    "printf 'HTTP/1.0 200 OK\\r\\nContent-Type: text/plain\\r\\n"
    "X-Hangar-Owner: n-evil 192.0.2.1:7070\\r\\nX-Echo: yes\\r\\n\\r\\n'\n"
    "cat /tmp/head\n";

/* busybox httpd on 8080 and a request-head echo on 9000, detached. */
static void start_servers(const char *id) {
  hg_it_resp r;
  char path[160];
  snprintf(path, sizeof path, "/v1/sandboxes/%s/files?path=/tmp/echo.sh&mode=0755", id);
  assert_int_equal(hg_it_http(&node, "PUT", path, NULL, echo_sh, sizeof echo_sh - 1, &r),
                   0);
  assert_int_equal(r.status, 204);
  hg_it_resp_free(&r);
  free(run(id,
           "mkdir -p /tmp/www && echo hello-from-guest > /tmp/www/index.html && "
           "httpd -p 8080 -h /tmp/www && "
           "(setsid nc -ll -p 9000 -e /tmp/echo.sh </dev/null >/dev/null 2>&1 &) && "
           "sleep 0.5"));
}

/* --- tests --------------------------------------------------------------------- */

static void sandbox_has_a_nic_and_no_way_out(void **state) {
  assert_int_equal(hg_it_create(&node, sb_a), 0);
  char path[96];
  long status;
  snprintf(path, sizeof path, "/v1/sandboxes/%s", sb_a);
  json_t *d = hg_it_json(&node, "GET", path, NULL, &status);
  assert_int_equal(status, 200);
  assert_true(json_is_true(json_object_get(d, "nic")));
  json_decref(d);
  assert_true(netns_live(sb_a));

  char *out = run(sb_a, "cat /sys/class/net/eth0/address; ip -4 addr show dev eth0");
  assert_non_null(strstr(out, guest_mac));
  assert_non_null(strstr(out, "10.0.2.15/24"));
  free(out);

  /* The gateway itself, on a port nothing redirects: dropped. */
  out = run(sb_a, "nc -w 3 10.0.2.1 22 </dev/null && echo OPEN || echo CLOSED");
  assert_string_equal(out, "CLOSED\n");
  free(out);
  /* Outside, on a port that is not allowlisted: dropped. */
  out = run(sb_a, "nc -w 3 198.51.100.7 5432 </dev/null && echo OPEN || echo CLOSED");
  assert_string_equal(out, "CLOSED\n");
  free(out);
  /* HTTP goes to the proxy, which has no policy to allow anything. */
  out =
      run(sb_a,
          "wget -q -T 5 -O - http://198.51.100.7/ 2>/dev/null && echo GOT || echo DENIED;"
          "wget -q -T 5 -O - http://10.0.2.1/ 2>/dev/null && echo GOT || echo DENIED");
  assert_string_equal(out, "DENIED\nDENIED\n");
  free(out);
  /* DNS: the responder answers, but with no name. */
  bool resolved = true;
  assert_true(dns_answers(sb_a, &resolved));
  assert_false(resolved);

  /* The gateway saw it and said no. */
  snprintf(path, sizeof path, "/v1/sandboxes/%s/egress-log", sb_a);
  json_t *log = hg_it_json(&node, "GET", path, NULL, &status);
  assert_int_equal(status, 200);
  json_t *entries = json_object_get(log, "entries");
  assert_true(json_is_array(entries));
  size_t i, denied = 0;
  json_t *e;
  json_array_foreach(entries, i, e) {
    const char *v = json_string_value(json_object_get(e, "verdict"));
    assert_non_null(v);
    assert_string_not_equal(v, "allow");
    denied++;
  }
  if (!denied) fprintf(stderr, "egress log empty\n");
  assert_true(denied > 0);
  json_decref(log);
}

static const char policy_with_secret[] =
    "{\"allow\": [\"example.com\", \"203.0.113.0/24:5432\"],"
    " \"credentials\": [{\"hosts\": [\"example.com\"], \"header\": \"Authorization\","
    " \"value\": \"Bearer sk-very-secret\", \"placeholder\": \"HANGAR_SECRET_1\"}]}";

static void network_policy_round_trips_redacted(void **state) {
  long status;
  char allow[512];
  /* at create */
  json_t *req = json_pack("{s:o}", "network", json_loads(policy_with_secret, 0, NULL));
  json_t *j = hg_it_json(&node, "POST", "/v1/sandboxes?wait=120", req, &status);
  json_decref(req);
  assert_int_equal(status, 201);
  snprintf(sb_b, sizeof sb_b, "%s", json_string_value(json_object_get(j, "id")));
  char token[80];
  snprintf(token, sizeof token, "%s", json_string_value(json_object_get(j, "token")));
  json_decref(j);

  j = get_network(sb_b, token, &status); /* the sandbox's own token will do */
  assert_int_equal(status, 200);
  char *text = json_dumps(j, 0);
  assert_null(strstr(text, "sk-very-secret"));
  free(text);
  allow_text(j, allow, sizeof allow);
  assert_string_equal(allow, "example.com,203.0.113.0/24:5432");
  json_t *cred = json_array_get(json_object_get(j, "credentials"), 0);
  assert_string_equal(json_string_value(json_object_get(cred, "value")), "***");
  assert_string_equal(json_string_value(json_object_get(cred, "placeholder")),
                      "HANGAR_SECRET_1");
  json_decref(j);

  /* replaced live; the answer is the new policy, redacted */
  assert_int_equal(put_network(sb_b, "{\"allow\": [\"*.pypi.org\"]}", &j), 200);
  allow_text(j, allow, sizeof allow);
  assert_string_equal(allow, "*.pypi.org");
  json_decref(j);
  j = get_network(sb_b, NULL, &status);
  assert_int_equal(status, 200);
  allow_text(j, allow, sizeof allow);
  assert_string_equal(allow, "*.pypi.org");
  assert_int_equal(json_array_size(json_object_get(j, "credentials")), 0);
  json_decref(j);

  /* refused policies: 400 with the gateway's reason, the old one stays */
  const char *bad[] = {"{\"allow\": \"example.com\"}", "{\"allow\": [\"bad name!\"]}",
                       "{\"bogus\": 1}", "{\"allow\": [\"10.0.0.0/8:99999\"]}"};
  for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
    json_t *e = NULL;
    assert_int_equal(put_network(sb_b, bad[i], &e), 400);
    const char *msg =
        json_string_value(json_object_get(json_object_get(e, "error"), "message"));
    assert_non_null(msg);
    assert_true(strlen(msg) > 5);
    json_decref(e);
  }
  j = get_network(sb_b, NULL, &status);
  allow_text(j, allow, sizeof allow);
  assert_string_equal(allow, "*.pypi.org");
  json_decref(j);

  /* a create with a bad policy makes nothing */
  json_t *before = hg_it_json(&node, "GET", "/v1/sandboxes", NULL, &status);
  size_t n_before = json_array_size(json_object_get(before, "sandboxes"));
  json_decref(before);
  req = json_pack("{s:{s:s}}", "network", "allow", "not-a-list");
  j = hg_it_json(&node, "POST", "/v1/sandboxes?wait=120", req, &status);
  json_decref(req);
  assert_int_equal(status, 400);
  const char *msg =
      json_string_value(json_object_get(json_object_get(j, "error"), "message"));
  assert_non_null(strstr(msg, "network"));
  json_decref(j);
  json_t *after = hg_it_json(&node, "GET", "/v1/sandboxes", NULL, &status);
  assert_int_equal(json_array_size(json_object_get(after, "sandboxes")), n_before);
  json_decref(after);

  /* a sandbox created without one has none: no egress */
  j = get_network(sb_a, NULL, &status);
  assert_int_equal(status, 200);
  assert_int_equal(json_array_size(json_object_get(j, "allow")), 0);
  json_decref(j);
  j = get_network("sb-0000000000000000", NULL, &status);
  assert_int_equal(status, 404);
  json_decref(j);
}

static void http_reaches_guest_ports(void **state) {
  start_servers(sb_a);
  httpd_answers(sb_a);

  port_resp r;
  port_request("GET", sb_a, "8080/missing", NULL, NULL, &r);
  assert_int_equal(r.status, 404); /* the guest's own 404 */
  hg_buf_free(&r.body);

  /* what the guest gets: Host localhost, the client's headers, never ours */
  port_request("GET", sb_a, "9000/some/path?q=1", "X-Test: 1", NULL, &r);
  assert_int_equal(r.status, 200);
  assert_true(strncmp(r.body.data, "GET /some/path?q=1 HTTP/1.1\n", 28) == 0);
  assert_non_null(strcasestr(r.body.data, "\nHost: localhost\n"));
  assert_non_null(strcasestr(r.body.data, "\nx-test: 1\n"));
  assert_null(strcasestr(r.body.data, "authorization"));
  assert_null(strstr(r.body.data, HG_IT_KEY));
  /* and what comes back: its headers, not ones that speak for hangar */
  assert_non_null(strcasestr(r.headers, "X-Echo: yes"));
  assert_null(strcasestr(r.headers, "n-evil"));
  assert_non_null(strcasestr(r.headers, "Content-Type: text/plain"));
  hg_buf_free(&r.body);

  /* nothing listening: 502 port_closed */
  port_request("GET", sb_a, "8081/", NULL, NULL, &r);
  assert_int_equal(r.status, 502);
  assert_non_null(strstr(r.body.data, "port_closed"));
  hg_buf_free(&r.body);
  /* ports are numbers 1-65535 */
  port_request("GET", sb_a, "0/", NULL, NULL, &r);
  assert_int_equal(r.status, 404);
  hg_buf_free(&r.body);
  port_request("GET", sb_a, "65536/", NULL, NULL, &r);
  assert_int_equal(r.status, 404);
  hg_buf_free(&r.body);
  /* a token of another sandbox does not open this one's ports */
  port_request("GET", sb_a, "8080/index.html", NULL,
               "0123456789abcdef0123456789abcdef"
               "0123456789abcdef0123456789abcdef",
               &r);
  assert_int_equal(r.status, 401);
  hg_buf_free(&r.body);
}

static void suspend_resume_reattaches_the_nic(void **state) {
  char allow[256];
  long status;
  assert_int_equal(put_network(sb_a, "{\"allow\": [\"example.com\"]}", NULL), 200);
  lifecycle(sb_a, "suspend");
  assert_false(netns_file(sb_a));               /* detached with the VM */
  json_t *j = get_network(sb_a, NULL, &status); /* the policy waits for the resume */
  assert_int_equal(status, 200);
  allow_text(j, allow, sizeof allow);
  assert_string_equal(allow, "example.com");
  json_decref(j);
  port_resp r;
  port_request("GET", sb_a, "8080/index.html", NULL, NULL, &r);
  assert_int_equal(r.status, 409); /* not running */
  hg_buf_free(&r.body);

  lifecycle(sb_a, "resume");
  assert_true(netns_live(sb_a));
  char *out = run(sb_a, "ip -4 addr show dev eth0");
  assert_non_null(strstr(out, "10.0.2.15/24"));
  free(out);
  assert_true(dns_answers(sb_a, NULL));
  httpd_answers(sb_a); /* the server came back with the guest's memory */
  j = get_network(sb_a, NULL, &status);
  allow_text(j, allow, sizeof allow);
  assert_string_equal(allow, "example.com");
  json_decref(j);
}

static void fork_gets_its_own_nic_and_the_allowlist(void **state) {
  char path[128], child[32], allow[256];
  long status;
  /* a credential too: the fork's copy must carry it (redacted in answers) */
  assert_int_equal(put_network(sb_a,
                               "{\"allow\": [\"example.com\"], \"credentials\": [{\"hosts\": "
                               "[\"example.com\"], \"header\": \"Authorization\", \"value\": "
                               "\"Bearer fork-secret\", \"placeholder\": \"HANGAR_SECRET_9\"}]}",
                               NULL),
                   200);
  snprintf(path, sizeof path, "/v1/sandboxes/%s/fork?wait=300", sb_a);
  json_t *body = json_object();
  json_t *j = hg_it_json(&node, "POST", path, body, &status);
  json_decref(body);
  assert_int_equal(status, 200);
  snprintf(child, sizeof child, "%s", json_string_value(json_object_get(j, "id")));
  json_decref(j);
  assert_true(netns_live(child));
  assert_true(netns_live(sb_a)); /* the parent keeps its own */
  httpd_answers(child);
  httpd_answers(sb_a);
  assert_true(dns_answers(child, NULL));
  j = get_network(child, NULL, &status);
  assert_int_equal(status, 200);
  allow_text(j, allow, sizeof allow);
  assert_string_equal(allow, "example.com");
  json_t *cred = json_array_get(json_object_get(j, "credentials"), 0);
  assert_non_null(cred);
  assert_string_equal(json_string_value(json_object_get(cred, "placeholder")), "HANGAR_SECRET_9");
  assert_string_equal(json_string_value(json_object_get(cred, "value")), "***");
  json_decref(j);
  assert_int_equal(hg_it_delete(&node, child), 0);
  assert_false(netns_file(child));
}

static void daemon_kill9_keeps_taps_and_gateway_comes_back(void **state) {
  hg_it_node_kill(&node, SIGKILL);
  /* hangard is gone: its sockets with it, the namespace and the VM stay */
  assert_true(netns_live(sb_a));
  assert_int_equal(hg_it_node_restart(&node), 0);
  char state_[32] = "";
  for (int64_t end = hg_now_ms() + 60000; hg_now_ms() < end; usleep(200000)) {
    char path[96];
    long status;
    snprintf(path, sizeof path, "/v1/sandboxes/%s", sb_a);
    json_t *d = hg_it_json(&node, "GET", path, NULL, &status);
    const char *st = json_string_value(json_object_get(d, "state"));
    snprintf(state_, sizeof state_, "%s", st ? st : "");
    json_decref(d);
    if (!strcmp(state_, "running")) break;
  }
  assert_string_equal(state_, "running");
  assert_true(netns_live(sb_a));
  assert_true(dns_answers(sb_a, NULL)); /* the responder listens again */
  httpd_answers(sb_a);
  char *out = run(sb_a, "cat /sys/class/net/eth0/address");
  assert_non_null(strstr(out, guest_mac));
  free(out);
}

static void delete_removes_the_namespace(void **state) {
  long status;
  assert_int_equal(hg_it_delete(&node, sb_a), 0);
  assert_false(netns_file(sb_a));
  json_t *j = get_network(sb_a, NULL, &status);
  assert_int_equal(status, 404);
  json_decref(j);
  assert_int_equal(hg_it_delete(&node, sb_b), 0);
  assert_false(netns_file(sb_b));
}

int main(void) {
  curl_global_init(CURL_GLOBAL_ALL);
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(sandbox_has_a_nic_and_no_way_out),
      cmocka_unit_test(network_policy_round_trips_redacted),
      cmocka_unit_test(http_reaches_guest_ports),
      cmocka_unit_test(suspend_resume_reattaches_the_nic),
      cmocka_unit_test(fork_gets_its_own_nic_and_the_allowlist),
      cmocka_unit_test(daemon_kill9_keeps_taps_and_gateway_comes_back),
      cmocka_unit_test(delete_removes_the_namespace),
  };
  int rc = hg_it_run_group(tests, setup, teardown);
  curl_global_cleanup();
  return rc;
}
