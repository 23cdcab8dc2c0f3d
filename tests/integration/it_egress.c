/* Integration: the egress red-team matrix (shared/reference/egress.md, 25
 * rows) against one real sandbox VM behind a real hangard and its gateway,
 * with a fake internet (fakenet.h) in a namespace of its own standing in
 * for the world. A static probe (egress_probe.c) copied into the guest
 * makes each attempt; the test judges it by what the guest saw, what
 * reached the fake internet (the sink must see zero bytes for every
 * denied attempt), the egress log's verdict and reason, and the tap's drop
 * counters for what never reaches a socket.
 *
 * Beyond the matrix: the allowed paths work (HTTP with the credential
 * swapped in, TLS byte-exact end to end, the L4 relay, HTTP upgraded to
 * HTTPS upstream), the guest's own wget and nslookup work through the
 * gateway, as root and as nobody, the secret is nowhere the guest can see
 * (its files, environments, and its memory read from the host), and a SIGKILLed
 * hangard leaves the guest with no way out until it is back.
 *
 * Prints the matrix as a table. Needs root, qemu, `ip`, `nft`, the test
 * template (HANGAR_TEST_TEMPLATE_DIR) and HANGARD_BIN; runs alone. */
/* cmocka.h needs these first */
// clang-format off
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
// clang-format on

#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <openssl/evp.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <unistd.h>

#include "gateway/netns.h"
#include "gateway/nft.h"
#include "node/core/util.h"
#include "tests/integration/fakenet.h"
#include "tests/integration/harness.h"

#define SECRET "Bearer real-secret-123"
#define SECRET_CORE "real-secret-123"
#define SECRET_GREP "real-secre[t]-123" /* matches it without containing it */
#define UP_SECRET "up-secret-456"
#define PROBE "/root/probe"
#define CA "/root/ca.pem"
#define W FAKENET_WEB
#define C FAKENET_CDN
#define S FAKENET_SINK_A

static hg_it_node node;
static fakenet *fn;
static char sbid[32];
static bool node_up;

/* ---- the matrix's bookkeeping ------------------------------------------------ */

typedef struct row {
  int n;
  const char *attempt;
  const char *expected;
  char outcome[200];
  int checks, failed;
  bool limit; /* a documented limit, not a defence */
} row;

static row rows[] = {
    {.n = 1,
     .attempt = "/etc/hosts or spoofed DNS: allowed name -> attacker IP",
     .expected = "reset (dst not in map)"},
    {.n = 2,
     .attempt = "other resolvers: @8.8.8.8, TCP/53, DoT 853, DoH",
     .expected = "redirected / dropped / denied"},
    {.n = 3,
     .attempt = "SNI = disallowed name, to an allowed CDN IP",
     .expected = "reset"},
    {.n = 4,
     .attempt = "SNI allowed, inner Host disallowed (fronting)",
     .expected = "documented limit"},
    {.n = 5,
     .attempt = "HTTP Host evil to allowed IP; 2nd keep-alive Host; abs URI",
     .expected = "403 each"},
    {.n = 6, .attempt = "ClientHello with no SNI", .expected = "deny"},
    {.n = 7,
     .attempt = "SNI IP literal / NUL / >255 / non-LDH / duplicate",
     .expected = "deny"},
    {.n = 8,
     .attempt = "ClientHello 1-byte segments, many records, >16 KiB, slowloris",
     .expected = "right verdict, timeout"},
    {.n = 9, .attempt = "ECH", .expected = "deny"},
    {.n = 10,
     .attempt = "IP-literal Host (dotted, decimal, octal, hex)",
     .expected = "deny"},
    {.n = 11,
     .attempt = "allowed name -> metadata, 10/8, 127/8, 0/8, 100.64/10, v6",
     .expected = "deny"},
    {.n = 12,
     .attempt = "DNS rebinding between check and connect",
     .expected = "dials the IP it checked"},
    {.n = 13, .attempt = "IPv6 of any kind", .expected = "dropped"},
    {.n = 14, .attempt = "UDP/QUIC 443, other UDP", .expected = "dropped"},
    {.n = 15, .attempt = "ICMP tunnel", .expected = "dropped"},
    {.n = 16,
     .attempt = "DNS tunnel: long labels, TXT, ANY, flood",
     .expected = "refused, rate-limited"},
    {.n = 17, .attempt = "spoofed source IP", .expected = "dropped at the tap"},
    {.n = 18, .attempt = "MAC spoof / gratuitous ARP", .expected = "dropped"},
    {.n = 19, .attempt = "raw SYN to other ports, GRE, fragments", .expected = "dropped"},
    {.n = 20,
     .attempt = "host services (API, proxy ports), other addresses",
     .expected = "dropped"},
    {.n = 21,
     .attempt = "3xx to evil or metadata address",
     .expected = "not followed, no creds"},
    {.n = 22,
     .attempt = "open tunnel after the policy revokes the host",
     .expected = "connection cut"},
    {.n = 23,
     .attempt = "CONNECT allowed:22, allowed@evil, bracketed IPv6",
     .expected = "deny"},
    {.n = 24,
     .attempt = "placeholder sent to a host out of scope",
     .expected = "not substituted"},
    {.n = 25, .attempt = "non-TLS bytes on 443, TLS on 80", .expected = "deny"},
};
#define NROWS (sizeof rows / sizeof rows[0])

static row *cur;

static void note(const char *fmt, ...) {
  va_list ap;
  size_t have = strlen(cur->outcome);
  va_start(ap, fmt);
  vsnprintf(cur->outcome + have, sizeof cur->outcome - have, fmt, ap);
  va_end(ap);
}

/* A soft assertion: the row fails, the matrix goes on (the table shows
 * every row); the test fails at the end. */
#define CHECK(cond, ...)                                                                \
  do {                                                                                  \
    cur->checks++;                                                                      \
    if (!(cond)) {                                                                      \
      cur->failed++;                                                                    \
      fprintf(stderr, "row %d: FAILED %s:%d: %s: ", cur->n, __FILE__, __LINE__, #cond); \
      fprintf(stderr, __VA_ARGS__);                                                     \
      fprintf(stderr, "\n");                                                            \
    }                                                                                   \
  } while (0)

/* ---- guest commands ------------------------------------------------------------------
 */

static char *run(const char *sh, int *code) {
  char *out = NULL;
  int c = -1;
  if (hg_it_run(&node, sbid, sh, NULL, &out, &c) < 0) return NULL;
  if (code) *code = c;
  return out;
}

/* Runs "probe ARGS" once per entry of args (one guest command for all) and
 * returns the JSON result of each in res (NULL where none came). */
static void probes(const char *const *args, size_t n, json_t **res) {
  char sh[16384];
  size_t o = 0;
  for (size_t i = 0; i < n; i++)
    o += (size_t)snprintf(sh + o, sizeof sh - o,
                          "%s %s 2>&1 || echo '{\"cmd\":\"failed\"}'; ", PROBE, args[i]);
  for (size_t i = 0; i < n; i++) res[i] = NULL;
  char *out = run(sh, NULL);
  if (!out) return;
  size_t k = 0;
  for (char *line = strtok(out, "\n"); line && k < n; line = strtok(NULL, "\n")) {
    json_t *j = json_loads(line, 0, NULL);
    if (!j || json_object_get(j, "event")) { /* progress lines */
      json_decref(j);
      continue;
    }
    fprintf(stderr, "    probe %s\n      -> %s\n", args[k], line);
    res[k++] = j;
  }
  free(out);
}

static json_t *probe1(const char *args) {
  json_t *r;
  probes(&args, 1, &r);
  return r;
}

static long jint(json_t *j, const char *k) {
  return (long)json_integer_value(json_object_get(j, k));
}
static bool jtrue(json_t *j, const char *k) {
  return json_is_true(json_object_get(j, k));
}
static const char *first_answer(json_t *r) {
  const char *s =
      r ? json_string_value(json_array_get(json_object_get(r, "answers"), 0)) : NULL;
  return s ? s : "";
}

static void free_all(json_t **r, size_t n) {
  for (size_t i = 0; i < n; i++) json_decref(r[i]);
}

/* A TLS/raw attempt the gateway refused: no bytes came back from any
 * server (a ServerHello would mean a TLS server saw the hello). */
static bool refused_tls(json_t *r) {
  return r && !jtrue(r, "server_hello") && !jtrue(r, "handshake") && jint(r, "recv") == 0;
}

static bool http_status(json_t *r, long want) {
  return r && jint(r, "status") == want;
}

/* Neither connected nor answered: a packet the rules dropped. */
static bool dropped(json_t *r) {
  return r && !jtrue(r, "connected") && jint(r, "recv") == 0 && jint(r, "replies") == 0;
}

/* ---- the host's view: sink, egress log, drop counters ------------------------------ */

static json_t *egress_log(void) {
  char path[128];
  long status;
  snprintf(path, sizeof path, "/v1/sandboxes/%s/egress-log", sbid);
  json_t *j = hg_it_json(&node, "GET", path, NULL, &status);
  json_t *e = json_incref(json_object_get(j, "entries"));
  json_decref(j);
  return e ? e : json_array();
}

static size_t log_len(void) {
  json_t *l = egress_log();
  size_t n = json_array_size(l);
  json_decref(l);
  return n;
}

/* Deny entries since index from whose name is name (NULL: any) and whose
 * reason is reason (NULL: any non-empty). */
static int log_denies(size_t from, const char *name, const char *reason) {
  json_t *l = egress_log();
  int n = 0;
  for (size_t i = from; i < json_array_size(l); i++) {
    json_t *e = json_array_get(l, i);
    if (strcmp(hg_it_str(e, "verdict"), "deny") != 0) continue;
    if (name && strcmp(hg_it_str(e, "name"), name) != 0) continue;
    if (reason ? strcmp(hg_it_str(e, "reason"), reason) != 0 : !hg_it_str(e, "reason")[0]) continue;
    n++;
  }
  json_decref(l);
  return n;
}

static void log_dump(size_t from) {
  json_t *l = egress_log();
  for (size_t i = from; i < json_array_size(l); i++) {
    json_t *e = json_array_get(l, i);
    fprintf(stderr, "    egress-log[%zu] %s %s %s:%ld %s %s\n", i, hg_it_str(e, "proto"),
            hg_it_str(e, "name"),
            json_is_string(json_object_get(e, "ip")) ? hg_it_str(e, "ip") : "-",
            jint(e, "port"), hg_it_str(e, "verdict"), hg_it_str(e, "reason"));
  }
  json_decref(l);
}

static int counters(hg_nft_counters *c) {
  char dir[400];
  hg_netns *ns;
  snprintf(dir, sizeof dir, "%s/netns", node.data);
  int rc = hg_netns_open(dir, sbid, &ns);
  if (rc < 0) return rc;
  rc = hg_nft_counters_read(ns, c);
  hg_netns_close(ns);
  return rc;
}

/* Everything a row starts from. */
typedef struct before {
  uint64_t sink;
  size_t mark, log;
  hg_nft_counters ctr;
} before;

static void row_begin(int n, before *b) {
  cur = &rows[n - 1];
  fprintf(stderr, "\n== row %d: %s\n", n, cur->attempt);
  b->sink = fakenet_bytes_at_sink(fn);
  b->mark = fakenet_mark(fn);
  b->log = log_len();
  memset(&b->ctr, 0, sizeof b->ctr);
  counters(&b->ctr);
}

/* The check every row makes: not one byte reached the sink. */
static void row_end(const before *b) {
  uint64_t sink = fakenet_bytes_at_sink(fn) - b->sink;
  CHECK(sink == 0, "%llu bytes reached the sink", (unsigned long long)sink);
  note("%ssink %lluB", cur->outcome[0] ? "; " : "", (unsigned long long)sink);
  if (cur->failed) {
    fakenet_dump(fn, b->mark);
    log_dump(b->log);
  }
}

/* Web servers' events since the mark addressed to ip (any port). */
static size_t web_events(size_t mark, const char *ip) {
  size_t n = 0;
  fakenet_event e;
  for (size_t i = mark; fakenet_event_get(fn, i, &e); i++)
    if ((e.kind == FN_CONN || e.kind == FN_TLS || e.kind == FN_HTTP) &&
        !strcmp(e.dst, ip))
      n++;
  return n;
}

/* DNS queries that reached the fake internet since the mark for a name
 * ending in suffix, or of a type other than A. */
static size_t dns_leaks(size_t mark, const char *suffix) {
  size_t n = 0, sl = strlen(suffix);
  fakenet_event e;
  for (size_t i = mark; fakenet_event_get(fn, i, &e); i++) {
    if (e.kind != FN_DNS) continue;
    size_t nl = strlen(e.name);
    if (e.qtype != 1 || (nl >= sl && !strcmp(e.name + nl - sl, suffix))) n++;
  }
  return n;
}

/* ---- setup --------------------------------------------------------------------------
 */

static json_t *policy(bool with_allowed) {
  json_t *allow =
      json_pack("[s,s,s,s,s,s,s,s,s,s,s]", "cdn-a.test", "up.test", "meta.test",
                "private.test", "linklocal.test", "loopback.test", "zero.test",
                "cgnat.test", "rebind.test", "203.0.113.30/32:5432", "relay.test");
  if (with_allowed) json_array_append_new(allow, json_string("allowed.test"));
  return json_pack("{s:o,s:[{s:[s],s:s,s:s,s:s},{s:[s],s:s,s:s,s:s,s:b}]}", "allow",
                   allow, "credentials", "hosts", "allowed.test", "header",
                   "Authorization", "value", SECRET, "placeholder", "HANGAR_SECRET_1",
                   "hosts", "up.test", "header", "X-Api-Key", "value", UP_SECRET,
                   "placeholder", "HANGAR_SECRET_2", "upgrade", 1);
}

static int put_file(const char *guest_path, const void *data, size_t len,
                    const char *mode) {
  char path[256];
  hg_it_resp r;
  snprintf(path, sizeof path, "/v1/sandboxes/%s/files?path=%s&mode=%s", sbid, guest_path,
           mode);
  int rc = hg_it_http(&node, "PUT", path, NULL, data, len, &r);
  long st = r.status;
  hg_it_resp_free(&r);
  return rc == 0 && (st == 204 || st == 200) ? 0 : -EIO;
}

static int put_host_file(const char *host_path, const char *guest_path,
                         const char *mode) {
  char *data = NULL;
  size_t len = 0;
  int rc = hg_read_file(host_path, 64u << 20, &data, &len);
  if (rc == 0) rc = put_file(guest_path, data, len, mode);
  free(data);
  return rc;
}

/* 0, or -1 when hangard did not stop cleanly or its log has a sanitizer
 * report (hg_it_node_stop). */
static int cleanup(void) {
  int rc = node_up ? hg_it_node_stop(&node) : 0;
  node_up = false;
  fakenet_stop(fn);
  fn = NULL;
  return rc;
}

static void on_signal(int sig) {
  /* not async-signal-safe, but better than leaving routes and VMs behind */
  cleanup();
  _exit(128 + sig);
}

static int setup(void **state) {
  signal(SIGINT, on_signal);
  signal(SIGTERM, on_signal);
  int rc = fakenet_start(
      &(fakenet_config){.verbose = getenv("HG_IT_FAKENET_VERBOSE") != NULL}, &fn);
  if (rc < 0) {
    fprintf(stderr, "it_egress: fake internet: %s\n", strerror(-rc));
    return -1;
  }
  /* hangard reads HANGAR_<FLAG> from its environment */
  setenv("HANGAR_UPSTREAM_DNS", FAKENET_DNS ":53", 1);
  setenv("HANGAR_GATEWAY_CA_FILE", fakenet_ca_file(fn), 1);
  if (hg_it_node_start(&node) < 0) {
    cleanup();
    return -1;
  }
  node_up = true;
  long status;
  json_t *req = json_pack("{s:o}", "network", policy(true));
  json_t *j = hg_it_json(&node, "POST", "/v1/sandboxes?wait=180", req, &status);
  json_decref(req);
  const char *id = json_string_value(json_object_get(j, "id"));
  if (status != 201 || !id) {
    char *d = j ? json_dumps(j, 0) : NULL;
    fprintf(stderr, "it_egress: create: %ld %s\n", status, d ? d : "");
    free(d);
    json_decref(j);
    cleanup();
    return -1;
  }
  snprintf(sbid, sizeof sbid, "%s", id);
  json_decref(j);
  if (put_host_file(HG_EGRESS_PROBE, PROBE, "0755") < 0 ||
      put_host_file(fakenet_ca_file(fn), CA, "0644") < 0) {
    fprintf(stderr, "it_egress: cannot copy the probe into %s\n", sbid);
    cleanup();
    return -1;
  }
  return 0;
}

static int teardown(void **state) {
  if (node_up && sbid[0]) hg_it_delete(&node, sbid);
  return cleanup();
}

/* ---- the allowed paths --------------------------------------------------------------
 */

static void sha256_blob(size_t n, char hex[65]) {
  EVP_MD_CTX *md = EVP_MD_CTX_new();
  uint8_t buf[65536], d[32];
  EVP_DigestInit_ex(md, EVP_sha256(), NULL);
  for (size_t off = 0; off < n;) {
    size_t k = n - off < sizeof buf ? n - off : sizeof buf;
    fakenet_blob_fill(buf, off, k);
    EVP_DigestUpdate(md, buf, k);
    off += k;
  }
  EVP_DigestFinal_ex(md, d, NULL);
  EVP_MD_CTX_free(md);
  for (int i = 0; i < 32; i++) sprintf(hex + 2 * i, "%02x", d[i]);
}

/* The sink's counter moves when something does reach it: from the host,
 * which has a route, one connection to a sink address. */
static void sink_control(void) {
  uint64_t before = fakenet_bytes_at_sink(fn);
  int fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
  struct sockaddr_in sa = {.sin_family = AF_INET, .sin_port = htons(22)};
  inet_pton(AF_INET, S, &sa.sin_addr);
  assert_int_equal(connect(fd, (struct sockaddr *)&sa, sizeof sa), 0);
  assert_int_equal(send(fd, "control", 7, 0), 7);
  close(fd);
  for (int i = 0; i < 100 && fakenet_count(fn, 0, FN_SINK, NULL, "control") == 0; i++)
    usleep(20000);
  assert_true(fakenet_bytes_at_sink(fn) > before);
  assert_int_equal(fakenet_count(fn, 0, FN_SINK, NULL, "control"), 1);
}

static void allowed_paths_work(void **state) {
  sink_control();
  int code = -1;
  free(run("test -e /sys/class/net/eth0", &code));
  if (code != 0)
    fprintf(stderr,
            "it_egress: the guest has no eth0: build the template with a current "
            "hangar-agent and a NIC (tools/mkimage, HANGAR_TEST_TEMPLATE_DIR)\n");
  assert_int_equal(code, 0);
  /* The guest reaches the gateway's resolver at all: else nothing below means anything.
   */
  json_t *r = probe1("dns 10.0.2.1 allowed.test");
  assert_non_null(r);
  assert_true(jtrue(r, "answered"));
  assert_string_equal(json_string_value(json_array_get(json_object_get(r, "answers"), 0)),
                      W);
  json_decref(r);

  size_t mark = fakenet_mark(fn);
  uint64_t sink = fakenet_bytes_at_sink(fn);
  char want[65];
  sha256_blob(1u << 20, want);
  const char *args[] = {
      "http allowed.test 80 --path /cred --header 'Authorization: HANGAR_SECRET_1'",
      "tls allowed.test 443 --sni allowed.test --ca " CA " --path /blob/1048576",
      "tcp relay.test 5432 --send relay-bytes-0123456789 --timeout 1500",
      "http up.test 80 --path /upgraded --header 'X-Api-Key: HANGAR_SECRET_2'",
  };
  json_t *res[4];
  probes(args, 4, res);
  /* HTTP: the server saw the secret; the guest sent only the placeholder */
  assert_true(http_status(res[0], 200));
  assert_int_equal(
      fakenet_count(fn, mark, FN_HTTP, "allowed.test", "Authorization: " SECRET), 1);
  assert_int_equal(fakenet_count(fn, mark, FN_HTTP, NULL, "HANGAR_SECRET_1"), 0);
  /* TLS end to end, certificate checked against the fake CA, byte-exact */
  assert_true(jtrue(res[1], "handshake") && jtrue(res[1], "verified"));
  assert_int_equal(jint(res[1], "status"), 200);
  assert_int_equal(jint(res[1], "body_len"), 1 << 20);
  assert_string_equal(hg_it_str(res[1], "sha256"), want);
  /* L4 relay to an allowlisted CIDR:port: echoed back whole */
  assert_true(jtrue(res[2], "connected"));
  assert_int_equal(jint(res[2], "recv"), 22);
  assert_string_equal(hg_it_str(res[2], "first"), "72656c61792d62797465732d30313233");
  /* upgrade: plain HTTP from the guest, HTTPS to the server, key swapped in */
  assert_true(http_status(res[3], 200));
  fakenet_event e;
  bool upgraded = false;
  for (size_t i = mark; fakenet_event_get(fn, i, &e); i++)
    if (e.kind == FN_HTTP && e.tls && !strcmp(e.name, "up.test") &&
        strstr(e.head, "X-Api-Key: " UP_SECRET))
      upgraded = true;
  assert_true(upgraded);
  free_all(res, 4);
  assert_int_equal(fakenet_bytes_at_sink(fn), sink);
}

/* ---- the guest's own tools ----------------------------------------------------------
 */

/* What a user's script runs: the template's wget and nslookup, not the
 * probe. `wget -T` was a SIGSEGV in busybox-static (tools/mkimage/
 * wget-timeout.sh), and a crash must not pass for a denial: exit codes
 * are checked exactly. */
static void guest_wget_through_the_gateway(void **state) {
  size_t mark = fakenet_mark(fn), from = log_len();
  uint64_t sink = fakenet_bytes_at_sink(fn);
  int code = -1;
  char *out = run("wget -q -T 20 -O- http://allowed.test/by-wget", &code);
  assert_non_null(out);
  fprintf(stderr, "    wget allowed.test -> %d %s", code, out ? out : "(none)\n");
  assert_int_equal(code, 0);
  assert_true(strncmp(out, "hello allowed.test from ", 24) == 0);
  free(out);
  assert_int_equal(fakenet_count(fn, mark, FN_HTTP, "allowed.test", "GET /by-wget "), 1);

  /* Off the allowlist: the resolver gives no address, so wget fails (exit
   * 1, not a signal), and asked by address with that Host the proxy says
   * 403. Neither reaches a server. */
  out =
      run("wget -q -T 20 -O- http://evil.test/by-wget; echo rc=$?;"
          "wget -q -T 20 --header 'Host: evil.test' -O- http://" W "/by-wget; echo rc=$?",
          &code);
  assert_non_null(out);
  fprintf(stderr, "    wget evil.test -> %s", out ? out : "(none)\n");
  assert_string_equal(out, "rc=1\nrc=1\n");
  free(out);
  assert_true(log_denies(from, "evil.test", "not_allowed") >= 2);
  assert_int_equal(fakenet_count(fn, mark, FN_HTTP, "evil.test", NULL), 0);
  assert_int_equal(fakenet_count(fn, mark, FN_HTTP, NULL, "GET /by-wget "), 1);
  assert_int_equal(fakenet_bytes_at_sink(fn), sink);
}

/* Names resolve for every user, not just root: /etc/resolv.conf must be
 * world-readable (the agent writes it; apt resolves as _apt). */
static void non_root_user_resolves_names(void **state) {
  size_t mark = fakenet_mark(fn);
  int code = -1;
  char *out =
      run("ls -l /etc/resolv.conf >&2; su -s /bin/sh nobody -c "
          "'id -u; nslookup allowed.test; wget -q -T 20 -O- "
          "http://allowed.test/by-nobody'",
          &code);
  assert_non_null(out);
  fprintf(stderr, "    as nobody -> %d\n%s", code, out ? out : "(none)\n");
  assert_int_equal(code, 0);
  assert_true(strncmp(out, "65534\n", 6) == 0);
  assert_non_null(strstr(out, "Address: " W));
  assert_non_null(strstr(out, "hello allowed.test from "));
  free(out);
  assert_int_equal(fakenet_count(fn, mark, FN_HTTP, "allowed.test", "GET /by-nobody "),
                   1);
}

/* ---- the 25 rows --------------------------------------------------------------------
 */

static void row1_hosts_spoof(void) {
  before b;
  row_begin(1, &b);
  int code;
  free(run("echo '" S " allowed.test' >> /etc/hosts", &code));
  const char *a[] = {"http allowed.test 80 --header 'Authorization: HANGAR_SECRET_1'",
                     "hello allowed.test 443 --sni allowed.test",
                     "tls allowed.test 443 --sni allowed.test"};
  json_t *r[3];
  probes(a, 3, r);
  free(run("sed -i '/allowed.test/d' /etc/hosts", &code));
  CHECK(r[0] && !strcmp(hg_it_str(r[0], "ip"), S), "the probe did not use /etc/hosts");
  CHECK(http_status(r[0], 403), "http status %ld", r[0] ? jint(r[0], "status") : -1);
  CHECK(refused_tls(r[1]) && refused_tls(r[2]), "a TLS attempt got an answer");
  CHECK(log_denies(b.log, "allowed.test", "dst_not_answered") >= 3, "egress log");
  note("http %ld, tls reset; log dst_not_answered", r[0] ? jint(r[0], "status") : -1);
  free_all(r, 3);
  row_end(&b);
}

static void row2_other_resolvers(void) {
  before b;
  row_begin(2, &b);
  const char *a[] = {"dns 8.8.8.8 allowed.test",
                     "dns 8.8.8.8 evil.test",
                     "dns 8.8.8.8 allowed.test --tcp",
                     "hello 8.8.8.8 853 --sni dns.google --timeout 1500",
                     "hello 8.8.8.8 443 --sni dns.google",
                     "dns 1.1.1.1 dns.google --port 5353 --timeout 1500"};
  json_t *r[6];
  probes(a, 6, r);
  CHECK(jtrue(r[0], "answered") && !strcmp(first_answer(r[0]), W),
        "@8.8.8.8 udp not answered by the gateway");
  CHECK(jtrue(r[1], "answered") && jint(r[1], "rcode") == 3, "evil.test via @8.8.8.8");
  CHECK(jtrue(r[2], "answered") && json_array_size(json_object_get(r[2], "answers")) == 1,
        "@8.8.8.8 tcp");
  CHECK(dropped(r[3]), "DoT connected");
  CHECK(refused_tls(r[4]), "DoH hello answered");
  CHECK(r[5] && !jtrue(r[5], "answered"), "DNS on another port answered");
  CHECK(dns_leaks(b.mark, "evil.test") == 0 && dns_leaks(b.mark, "dns.google") == 0,
        "a denied name was asked upstream");
  CHECK(log_denies(b.log, "evil.test", "not_allowed") >= 1, "log: evil.test");
  CHECK(log_denies(b.log, "dns.google", "not_allowed") >= 1, "log: DoH");
  note("udp+tcp/53 answered by gateway, evil NXDOMAIN, DoT/5353 dropped, DoH reset");
  free_all(r, 6);
  row_end(&b);
}

static void row3_cdn_sni(void) {
  before b;
  row_begin(3, &b);
  const char *a[] = {"dns 10.0.2.1 cdn-a.test", "hello " C " 443 --sni cdn-b.test",
                     "tls " C " 443 --sni cdn-b.test --ca " CA " --path /"};
  json_t *r[3];
  probes(a, 3, r);
  CHECK(jtrue(r[0], "answered"), "cdn-a.test not resolved");
  CHECK(refused_tls(r[1]) && refused_tls(r[2]), "cdn-b.test reached the CDN");
  CHECK(fakenet_count(fn, b.mark, FN_TLS, "cdn-b.test", NULL) == 0,
        "server saw SNI cdn-b.test");
  CHECK(log_denies(b.log, "cdn-b.test", "not_allowed") >= 2, "log");
  note("reset; log not_allowed");
  free_all(r, 3);
  row_end(&b);
}

static void row4_fronting(void) {
  before b;
  row_begin(4, &b);
  cur->limit = true;
  json_t *r =
      probe1("tls " C " 443 --sni cdn-a.test --host cdn-b.test --ca " CA " --path /");
  /* Without TLS termination the gateway cannot see the inner Host: the
   * request reaches the allowed name's server (which must refuse it). */
  bool through = r && jtrue(r, "handshake") && jint(r, "status") == 200;
  CHECK(r && jtrue(r, "handshake"), "handshake to an allowed SNI failed");
  note("%s", through ? "inner Host reached the CDN (no TLS termination)" : "refused");
  json_decref(r);
  row_end(&b);
}

static void row5_http_host(void) {
  before b;
  row_begin(5, &b);
  const char *a[] = {"http " W " 80 --host evil.test",
                     "http " W " 80 --host allowed.test --host evil.test",
                     "http " W " 80 --host allowed.test --target http://evil.test/"};
  json_t *r[3];
  probes(a, 3, r);
  CHECK(http_status(r[0], 403), "Host evil");
  json_t *st = r[1] ? json_object_get(r[1], "statuses") : NULL;
  CHECK(json_integer_value(json_array_get(st, 0)) == 200 &&
            json_integer_value(json_array_get(st, 1)) == 403,
        "keep-alive Host change");
  CHECK(http_status(r[2], 403), "absolute URI");
  CHECK(fakenet_count(fn, b.mark, FN_HTTP, "evil.test", NULL) == 0 &&
            fakenet_count(fn, b.mark, FN_HTTP, NULL, "evil.test") == 0,
        "a request naming evil.test reached a server");
  CHECK(log_denies(b.log, "evil.test", "not_allowed") >= 1, "log: not_allowed");
  CHECK(log_denies(b.log, "evil.test", "host_changed") >= 1, "log: host_changed");
  CHECK(log_denies(b.log, NULL, NULL) >= 3, "log: three denies");
  note("403, 200+403, 403");
  free_all(r, 3);
  row_end(&b);
}

static void row6_no_sni(void) {
  before b;
  row_begin(6, &b);
  json_t *r = probe1("hello " W " 443");
  CHECK(refused_tls(r), "answered");
  CHECK(log_denies(b.log, NULL, "no_sni") >= 1, "log");
  CHECK(web_events(b.mark, W) == 0, "reached the server");
  note("reset; log no_sni");
  json_decref(r);
  row_end(&b);
}

static void row7_bad_sni(void) {
  before b;
  row_begin(7, &b);
  char longname[400], a4[512];
  /* 5 labels of 63: 319 bytes */
  size_t o = 0;
  for (int l = 0; l < 5; l++) {
    memset(longname + o, 'a' + l, 63);
    o += 63;
    longname[o++] = l < 4 ? '.' : '\0';
  }
  snprintf(a4, sizeof a4, "hello " W " 443 --sni %s", longname);
  const char *a[] = {"hello " W " 443 --sni " W,
                     /* "allowed.test\0x" */
                     "hello " W " 443 --sni-hex 616c6c6f7765642e746573740078", a4,
                     "hello " W " 443 --sni allowed_test.test",
                     "hello " W " 443 --sni allowed.test --dup",
                     "hello " W " 443 --sni allowed.test --sni cdn-a.test"};
  json_t *r[6];
  probes(a, 6, r);
  for (int i = 0; i < 6; i++) CHECK(refused_tls(r[i]), "attempt %d answered", i);
  CHECK(log_denies(b.log, NULL, "ip_literal") >= 1, "log: ip_literal");
  CHECK(log_denies(b.log, NULL, "bad_name") >= 3, "log: bad_name x3");
  CHECK(log_denies(b.log, NULL, "duplicate_sni") >= 1, "log: duplicate_sni");
  CHECK(log_denies(b.log, NULL, "several_names") >= 1, "log: several_names");
  CHECK(web_events(b.mark, W) == 0, "reached the server");
  note("6/6 reset");
  free_all(r, 6);
  row_end(&b);
}

static void row8_split_hello(void) {
  before b;
  row_begin(8, &b);
  const char *a[] = {
      "tls allowed.test 443 --sni allowed.test --ca " CA " --split 1 --path /",
      "tls allowed.test 443 --sni allowed.test --ca " CA " --records 16 --path /",
      "tls allowed.test 443 --sni allowed.test --ca " CA
      " --records 1 --split 7 --path /",
      "hello " W " 443 --sni allowed.test --pad 17000",
      "hello " W " 443 --sni allowed.test --stall-after 20 --timeout 15000"};
  json_t *r[5];
  probes(a, 5, r);
  for (int i = 0; i < 3; i++)
    CHECK(r[i] && jtrue(r[i], "handshake") && jint(r[i], "status") == 200,
          "fragmented hello %d not let through", i);
  CHECK(refused_tls(r[3]), ">16 KiB hello answered");
  CHECK(log_denies(b.log, NULL, "too_large") >= 1, "log: too_large");
  long closed = r[4] ? jint(r[4], "closed_ms") : -1;
  CHECK(refused_tls(r[4]) && r[4] && strcmp(hg_it_str(r[4], "closed"), "timeout") != 0 &&
            closed >= 3000 && closed <= 12000,
        "slowloris not closed by the deadline (closed_ms %ld)", closed);
  CHECK(log_denies(b.log, NULL, "timeout") >= 1, "log: timeout");
  note("split/records: 200; >16K reset; stall closed after %ld ms", closed);
  free_all(r, 5);
  row_end(&b);
}

static void row9_ech(void) {
  before b;
  row_begin(9, &b);
  json_t *r = probe1("hello " W " 443 --sni allowed.test --ech");
  CHECK(refused_tls(r), "answered");
  CHECK(log_denies(b.log, NULL, "ech") >= 1, "log");
  CHECK(web_events(b.mark, W) == 0, "reached the server");
  note("reset; log ech");
  json_decref(r);
  row_end(&b);
}

static void row10_ip_literals(void) {
  before b;
  row_begin(10, &b);
  const char *a[] = {"http " W " 80 --host " W,
                     "http " W " 80 --host 3405803786",
                     "http " W " 80 --host 0313.0.0161.012",
                     "http " W " 80 --host 0xcb.0x0.0x71.0xa",
                     "http " W " 80 --host 3405803786 --target http://3405803786/",
                     "hello " W " 443 --sni 0xcb.0x0.0x71.0xa"};
  json_t *r[6];
  probes(a, 6, r);
  for (int i = 0; i < 5; i++) CHECK(http_status(r[i], 403), "literal %d", i);
  CHECK(refused_tls(r[5]), "hex SNI answered");
  CHECK(web_events(b.mark, W) == 0, "reached the server");
  CHECK(log_denies(b.log, NULL, NULL) >= 6, "log");
  note("403 x5, reset");
  free_all(r, 6);
  row_end(&b);
}

static void row11_private_answers(void) {
  before b;
  row_begin(11, &b);
  const char *names[] = {"meta.test",     "private.test", "linklocal.test",
                         "loopback.test", "zero.test",    "cgnat.test"};
  const char *a[] = {"dns 10.0.2.1 meta.test",
                     "dns 10.0.2.1 private.test",
                     "dns 10.0.2.1 linklocal.test",
                     "dns 10.0.2.1 loopback.test",
                     "dns 10.0.2.1 zero.test",
                     "dns 10.0.2.1 cgnat.test",
                     "dns 10.0.2.1 allowed.test --type AAAA",
                     "http 169.254.169.254 80 --host meta.test",
                     "http " FAKENET_SINK_PRIVATE " 80 --host private.test",
                     "http " FAKENET_SINK_LINKLOCAL " 80 --host linklocal.test",
                     "hello " FAKENET_SINK_PRIVATE " 443 --sni private.test"};
  json_t *r[11];
  probes(a, 11, r);
  for (int i = 0; i < 6; i++) {
    CHECK(r[i] && jtrue(r[i], "answered") &&
              json_array_size(json_object_get(r[i], "answers")) == 0,
          "%s: an address was handed out", names[i]);
    CHECK(log_denies(b.log, names[i], "denied_address") >= 1, "log %s", names[i]);
  }
  CHECK(r[6] && json_array_size(json_object_get(r[6], "answers")) == 0, "AAAA answered");
  for (int i = 7; i < 10; i++) CHECK(http_status(r[i], 403), "http %d", i);
  CHECK(refused_tls(r[10]), "TLS to a private address");
  note("no address handed out; 403 x3; reset");
  free_all(r, 11);
  row_end(&b);
}

static void row12_rebinding(void) {
  before b;
  row_begin(12, &b);
  /* fakenet answers rebind.test with .10 first, with the sink after (TTL 1) */
  json_t *d = probe1("dns 10.0.2.1 rebind.test");
  CHECK(!strcmp(first_answer(d), W), "first answer");
  json_decref(d);
  sleep(2);
  const char *a[] = {"http " W " 80 --host rebind.test",
                     "tls " W " 443 --sni rebind.test --ca " CA " --path /"};
  json_t *r[2];
  probes(a, 2, r);
  CHECK(http_status(r[0], 200), "http");
  CHECK(r[1] && jtrue(r[1], "handshake") && jint(r[1], "status") == 200, "tls");
  CHECK(fakenet_count(fn, b.mark, FN_HTTP, "rebind.test", NULL) == 2,
        "not at the checked IP");
  note("both reached %s, the checked address", W);
  free_all(r, 2);
  row_end(&b);
}

static void row13_ipv6(void) {
  before b;
  row_begin(13, &b);
  const char *a[] = {"tcp6 2001:db8::1 80 --timeout 1500",
                     "tcp6 fe80::68:67ff:fe00:1%eth0 80 --timeout 1500",
                     "udp6 ff02::1%eth0 53 --timeout 1000",
                     "udp6 fe80::68:67ff:fe00:1%eth0 53 --timeout 1000", "l2 --v6"};
  json_t *r[5];
  probes(a, 5, r);
  for (int i = 0; i < 4; i++) CHECK(dropped(r[i]), "v6 attempt %d got through", i);
  /* the guest kernel may have no IPv6 address at all; frames written by
   * hand are what the tap must stop */
  CHECK(r[4] && jint(r[4], "sent") == 3, "raw IPv6 frames not sent");
  hg_nft_counters c;
  CHECK(counters(&c) == 0 && c.ipv6.packets >= b.ctr.ipv6.packets + 3,
        "ipv6 drop counter did not move");
  note("socket: %s; tap dropped %llu raw v6 frames", r[0] ? hg_it_str(r[0], "err") : "?",
       (unsigned long long)(c.ipv6.packets - b.ctr.ipv6.packets));
  free_all(r, 5);
  row_end(&b);
}

static void row14_udp(void) {
  before b;
  row_begin(14, &b);
  const char *a[] = {"udp " W " 443 --timeout 1000", "udp " S " 443 --timeout 1000",
                     "udp " S " 9999 --timeout 1000",
                     "udp " FAKENET_SINK_B " 123 --timeout 1000"};
  json_t *r[4];
  probes(a, 4, r);
  for (int i = 0; i < 4; i++)
    CHECK(r[i] && jint(r[i], "sent") > 0 && jint(r[i], "replies") == 0, "udp %d", i);
  hg_nft_counters c;
  CHECK(counters(&c) == 0 && c.egress.packets >= b.ctr.egress.packets + 12,
        "egress counter");
  note("no replies; %llu dropped",
       (unsigned long long)(c.egress.packets - b.ctr.egress.packets));
  free_all(r, 4);
  row_end(&b);
}

static void row15_icmp(void) {
  before b;
  row_begin(15, &b);
  const char *a[] = {"icmp " S " --timeout 1000", "icmp 10.0.2.1 --timeout 1000",
                     "icmp " FAKENET_DNS " --timeout 1000"};
  json_t *r[3];
  probes(a, 3, r);
  for (int i = 0; i < 3; i++)
    CHECK(r[i] && jint(r[i], "sent") == 3 && jint(r[i], "replies") == 0, "icmp %d", i);
  hg_nft_counters c;
  CHECK(counters(&c) == 0 && c.egress.packets >= b.ctr.egress.packets + 6 &&
            c.input.packets >= b.ctr.input.packets + 3,
        "drop counters");
  note("no echo replies");
  free_all(r, 3);
  row_end(&b);
}

static void row16_dns_tunnel(void) {
  before b;
  row_begin(16, &b);
  char tun[400], a0[512];
  memset(tun, 'x', 63);
  tun[63] = '.';
  memset(tun + 64, 'y', 63);
  snprintf(tun + 127, sizeof tun - 127, ".evil.test");
  snprintf(a0, sizeof a0, "dns 10.0.2.1 %s", tun);
  const char *a[] = {a0,
                     "dns 10.0.2.1 dGVzdF9kYXRh_x.allowed.test",
                     "dns 10.0.2.1 allowed.test --type TXT",
                     "dns 10.0.2.1 allowed.test --type ANY",
                     "dns 10.0.2.1 allowed.test --type HTTPS",
                     "dns-flood 10.0.2.1 allowed.test 400"};
  json_t *r[6];
  probes(a, 6, r);
  CHECK(r[0] && json_array_size(json_object_get(r[0], "answers")) == 0,
        "tunnel name answered");
  CHECK(r[1] && json_array_size(json_object_get(r[1], "answers")) == 0,
        "non-LDH name answered");
  for (int i = 2; i < 5; i++)
    CHECK(r[i] && json_array_size(json_object_get(r[i], "answers")) == 0,
          "qtype %d answered", i);
  long answered = r[5] ? jint(r[5], "answered") : -1;
  CHECK(answered > 0 && answered < 400, "flood: %ld of 400 answered", answered);
  CHECK(dns_leaks(b.mark, "evil.test") == 0, "a query reached the upstream");
  CHECK(log_denies(b.log, NULL, "qtype") >= 3, "log: qtype");
  CHECK(log_denies(b.log, NULL, "rate_limited") >= 1, "log: rate_limited");
  note("refused; flood %ld/400 answered", answered);
  free_all(r, 6);
  row_end(&b);
  sleep(3); /* the bucket refills before the next row asks anything */
}

static void row17_spoofed_ip(void) {
  before b;
  row_begin(17, &b);
  const char *a[] = {"raw " S " --proto tcp --src 10.0.2.99 --dport 80",
                     "raw 10.0.2.1 --proto udp --src 10.0.2.99 --dport 53",
                     "raw " S " --proto udp --src 203.0.113.99 --dport 9999",
                     "l2 --src-ip 10.0.2.99 --timeout 1000"};
  json_t *r[4];
  probes(a, 4, r);
  hg_nft_counters c;
  CHECK(counters(&c) == 0 && c.spoof_ip.packets >= b.ctr.spoof_ip.packets + 12,
        "spoof_ip counter moved by %llu",
        (unsigned long long)(c.spoof_ip.packets - b.ctr.spoof_ip.packets));
  CHECK(r[3] && jint(r[3], "replies") == 0, "spoofed query answered");
  note("%llu dropped at the tap",
       (unsigned long long)(c.spoof_ip.packets - b.ctr.spoof_ip.packets));
  free_all(r, 4);
  row_end(&b);
}

static void row18_mac_spoof(void) {
  before b;
  row_begin(18, &b);
  const char *a[] = {"l2 --timeout 1500", "l2 --src-mac 02:00:00:00:00:66 --timeout 1500",
                     "garp 10.0.2.1", "garp 10.0.2.15 --src-mac 02:00:00:00:00:66"};
  json_t *r[4];
  probes(a, 4, r);
  /* the control: the same frame from the real MAC is answered, so the
   * method can see a reply when there is one */
  CHECK(r[0] && jint(r[0], "replies") >= 1, "control frame not answered");
  CHECK(r[1] && jint(r[1], "replies") == 0, "spoofed-MAC frame answered");
  hg_nft_counters c;
  CHECK(counters(&c) == 0 && c.spoof_mac.packets >= b.ctr.spoof_mac.packets + 6 &&
            c.spoof_arp.packets >= b.ctr.spoof_arp.packets + 3,
        "spoof_mac/spoof_arp counters");
  note("control answered, spoof not; mac %llu arp %llu dropped",
       (unsigned long long)(c.spoof_mac.packets - b.ctr.spoof_mac.packets),
       (unsigned long long)(c.spoof_arp.packets - b.ctr.spoof_arp.packets));
  free_all(r, 4);
  row_end(&b);
}

static void row19_raw(void) {
  before b;
  row_begin(19, &b);
  const char *a[] = {"raw " S " --proto tcp --dport 22", "tcp " S " 22 --timeout 1500",
                     "raw " S " --proto gre", "raw " S " --proto udp --frag --dport 9999",
                     "raw " W " --proto tcp --frag --dport 8080"};
  json_t *r[5];
  probes(a, 5, r);
  CHECK(dropped(r[1]), "connect to sink:22");
  hg_nft_counters c;
  CHECK(counters(&c) == 0 && c.egress.packets >= b.ctr.egress.packets + 9,
        "egress counter");
  CHECK(web_events(b.mark, W) == 0, "reached a server");
  note("%llu dropped", (unsigned long long)(c.egress.packets - b.ctr.egress.packets));
  free_all(r, 5);
  row_end(&b);
}

static void row20_host_services(void) {
  before b;
  row_begin(20, &b);
  char a0[128], a1[128];
  snprintf(a0, sizeof a0, "tcp 10.0.2.1 %d --timeout 1500", node.port);
  snprintf(a1, sizeof a1, "tcp 192.0.2.2 %d --timeout 1500", node.port);
  const char *a[] = {a0,
                     a1,
                     "tcp 10.0.2.1 15080 --timeout 1500",
                     "tcp 10.0.2.1 15443 --timeout 1500",
                     "tcp 10.0.2.1 15000 --timeout 1500",
                     "tcp 10.0.2.1 22 --timeout 1500",
                     "tcp 127.0.0.53 53 --timeout 1500",
                     "http 10.0.2.1 80 --host allowed.test"};
  json_t *r[8];
  probes(a, 8, r);
  for (int i = 0; i < 6; i++) CHECK(dropped(r[i]), "attempt %d connected", i);
  CHECK(http_status(r[7], 403), "gateway address on :80 not refused");
  hg_nft_counters c;
  CHECK(counters(&c) == 0 && c.input.packets > b.ctr.input.packets, "input counter");
  note("none connected; :80 to the gateway 403");
  free_all(r, 8);
  row_end(&b);
}

static void row21_redirects(void) {
  before b;
  row_begin(21, &b);
  const char *a[] = {
      "http allowed.test 80 --path /redirect --header 'Authorization: HANGAR_SECRET_1'",
      ("http 169.254.169.254 80 --host 169.254.169.254 --path /latest/ "
       "--header 'Authorization: HANGAR_SECRET_1'"),
      "http up.test 80 --path /redirect --header 'X-Api-Key: HANGAR_SECRET_2'"};
  json_t *r[3];
  probes(a, 3, r);
  CHECK(http_status(r[0], 302) && strstr(hg_it_str(r[0], "location"), "169.254.169.254"),
        "302 not passed back");
  CHECK(fakenet_count(fn, b.mark, FN_HTTP, "allowed.test", NULL) == 1,
        "redirect followed");
  CHECK(http_status(r[1], 403), "follow-up to the metadata address");
  CHECK(http_status(r[2], 302), "upgraded redirect not passed back");
  CHECK(fakenet_count(fn, b.mark, FN_HTTP, "up.test", NULL) == 1,
        "upgraded redirect followed");
  note("302 passed back (x2), not followed; follow-up 403");
  free_all(r, 3);
  row_end(&b);
}

/* Waits for a started command to exit; returns ms waited or -1. */
static long wait_cmd(const char *cid, long max_ms) {
  char path[160];
  snprintf(path, sizeof path, "/v1/sandboxes/%s/commands/%s", sbid, cid);
  int64_t t0 = hg_now_ms();
  while (hg_now_ms() - t0 < max_ms) {
    long status;
    json_t *j = hg_it_json(&node, "GET", path, NULL, &status);
    bool exited = status == 200 && json_is_true(json_object_get(j, "exited"));
    json_decref(j);
    if (exited) return (long)(hg_now_ms() - t0);
    usleep(50000);
  }
  return -1;
}

static char *cmd_output(const char *cid) {
  char path[200];
  hg_it_resp r;
  snprintf(path, sizeof path, "/v1/sandboxes/%s/commands/%s/output?offset=0", sbid, cid);
  if (hg_it_http(&node, "GET", path, NULL, NULL, 0, &r) < 0) return strdup("");
  char *s = strndup(r.body.data ? r.body.data : "", r.body.len);
  hg_it_resp_free(&r);
  return s;
}

static int start_cmd(const char *sh, char cid[32]) {
  char path[128];
  long status;
  snprintf(path, sizeof path, "/v1/sandboxes/%s/commands", sbid);
  json_t *req = json_pack("{s:[s,s,s]}", "cmd", "sh", "-c", sh);
  json_t *j = hg_it_json(&node, "POST", path, req, &status);
  json_decref(req);
  const char *id = json_string_value(json_object_get(j, "id"));
  int rc = status == 201 && id ? 0 : -EIO;
  if (rc == 0) snprintf(cid, 32, "%s", id);
  json_decref(j);
  return rc;
}

static int put_policy(bool with_allowed) {
  char path[128];
  long status;
  snprintf(path, sizeof path, "/v1/sandboxes/%s/network", sbid);
  json_t *p = policy(with_allowed);
  json_t *j = hg_it_json(&node, "PUT", path, p, &status);
  json_decref(p);
  json_decref(j);
  return status == 200 ? 0 : -EIO;
}

static void row22_revoke(void) {
  before b;
  row_begin(22, &b);
  char cid[32] = "";
  CHECK(start_cmd(PROBE " tls allowed.test 443 --sni allowed.test --ca " CA
                        " --hold 60 --interval 200",
                  cid) == 0,
        "start");
  /* up, and one request through it answered */
  bool flowing = false;
  for (int64_t end = hg_now_ms() + 60000; cid[0] && !flowing && hg_now_ms() < end;) {
    char *o = cmd_output(cid);
    flowing = strstr(o, "\"event\":\"ok\"") != NULL;
    free(o);
    if (!flowing) usleep(100000);
  }
  CHECK(flowing, "tunnel never came up");
  int64_t t0 = hg_now_ms();
  CHECK(put_policy(false) == 0, "PUT network");
  long put_ms = (long)(hg_now_ms() - t0);
  /* "cut" (below) tells a revoked tunnel from one that ran its 60 s hold;
   * how fast the cut comes is printed, not bounded (no benchmark yet) */
  long waited = cid[0] ? wait_cmd(cid, 120000) : -1;
  char *o = cid[0] ? cmd_output(cid) : strdup("");
  fprintf(stderr, "    tunnel output: %s", o);
  json_t *last = NULL;
  for (char *l = strtok(o, "\n"); l; l = strtok(NULL, "\n")) {
    json_t *j = json_loads(l, 0, NULL);
    if (j && json_object_get(j, "cmd")) {
      json_decref(last);
      last = j;
    } else {
      json_decref(j);
    }
  }
  free(o);
  CHECK(last && jtrue(last, "cut") && jint(last, "ok_requests") > 0, "not cut");
  CHECK(waited >= 0, "tunnel still open %ld ms after the PUT", put_ms + 120000);
  CHECK(log_denies(b.log, "allowed.test", "policy_revoked") >= 1, "log");
  json_t *after = probe1("http " W " 80 --host allowed.test");
  CHECK(http_status(after, 403), "new connection after revoke");
  json_decref(after);
  CHECK(put_policy(true) == 0, "PUT network back");
  note("cut %ld ms after PUT (%ld requests before)", put_ms + waited,
       last ? jint(last, "ok_requests") : -1);
  json_decref(last);
  row_end(&b);
}

static void row23_connect_userinfo(void) {
  before b;
  row_begin(23, &b);
  const char *a[] = {
      "http " W " 80 --method CONNECT --target allowed.test:22 --host allowed.test:22",
      "http " W " 80 --host allowed.test@evil.test",
      "http " W " 80 --host allowed.test --target http://allowed.test@evil.test/",
      "http " W " 80 --host '[::1]'",
      "http " W
      " 80 --host '[::ffff:203.0.113.10]' --target 'http://[::ffff:203.0.113.10]/'"};
  json_t *r[5];
  probes(a, 5, r);
  for (int i = 0; i < 5; i++)
    CHECK(http_status(r[i], 403) || (r[i] && jint(r[i], "status") == 400), "attempt %d",
          i);
  CHECK(log_denies(b.log, NULL, "connect") >= 1, "log: connect");
  CHECK(log_denies(b.log, NULL, NULL) >= 5, "log: 5 denies");
  CHECK(web_events(b.mark, W) == 0, "reached the server");
  note("403 x5");
  free_all(r, 5);
  row_end(&b);
}

static void row24_out_of_scope(void) {
  before b;
  row_begin(24, &b);
  const char *a[] = {"http cdn-a.test 80 --header 'Authorization: HANGAR_SECRET_1'",
                     "http " C
                     " 80 --host allowed.test --header 'Authorization: HANGAR_SECRET_1'",
                     "http cdn-a.test 80 --header 'X-Api-Key: HANGAR_SECRET_2'"};
  json_t *r[3];
  probes(a, 3, r);
  CHECK(http_status(r[0], 200), "cdn-a.test");
  CHECK(fakenet_count(fn, b.mark, FN_HTTP, "cdn-a.test",
                      "Authorization: HANGAR_SECRET_1") == 1,
        "placeholder not passed as is");
  CHECK(http_status(r[1], 403), "Host allowed.test to the CDN address");
  CHECK(fakenet_count(fn, b.mark, FN_HTTP, NULL, SECRET_CORE) == 0 &&
            fakenet_count(fn, b.mark, FN_HTTP, NULL, UP_SECRET) == 0,
        "a secret left for a host out of its scope");
  note("placeholder passed as is; Host lie 403");
  free_all(r, 3);
  row_end(&b);
}

static void row25_protocol_mismatch(void) {
  before b;
  row_begin(25, &b);
  const char *a[] = {"tcp " W
                     " 443 --send 'GET / HTTP/1.1\\r\\nHost: allowed.test\\r\\n\\r\\n'",
                     "hello " W " 80 --sni allowed.test"};
  json_t *r[2];
  probes(a, 2, r);
  CHECK(r[0] && jint(r[0], "recv") == 0, "plain bytes on 443 answered");
  CHECK(r[1] && !jtrue(r[1], "server_hello"), "TLS on 80 answered by a TLS server");
  CHECK(log_denies(b.log, NULL, "not_tls") >= 1, "log: not_tls");
  CHECK(log_denies(b.log, NULL, "tls_on_http") >= 1, "log: tls_on_http");
  CHECK(web_events(b.mark, W) == 0, "reached the server");
  note("reset; %s on 80", r[1] && jint(r[1], "recv") ? "403" : "reset");
  free_all(r, 2);
  row_end(&b);
}

static void print_table(void) {
  fprintf(stderr, "\n%-3s %-62s %-30s %-6s %s\n", "#", "attempt", "expected", "result",
          "outcome");
  for (size_t i = 0; i < NROWS; i++) {
    row *r = &rows[i];
    const char *res = r->checks == 0 ? "n/a"
                      : r->failed    ? "FAIL"
                      : r->limit     ? "limit"
                                     : "pass";
    fprintf(stderr, "%-3d %-62s %-30s %-6s %s\n", r->n, r->attempt, r->expected, res,
            r->outcome);
  }
  fprintf(stderr, "\n");
}

static void red_team_matrix(void **state) {
  row1_hosts_spoof();
  row2_other_resolvers();
  row3_cdn_sni();
  row4_fronting();
  row5_http_host();
  row6_no_sni();
  row7_bad_sni();
  row8_split_hello();
  row9_ech();
  row10_ip_literals();
  row11_private_answers();
  row12_rebinding();
  row13_ipv6();
  row14_udp();
  row15_icmp();
  row16_dns_tunnel();
  row17_spoofed_ip();
  row18_mac_spoof();
  row19_raw();
  row20_host_services();
  row21_redirects();
  row22_revoke();
  row23_connect_userinfo();
  row24_out_of_scope();
  row25_protocol_mismatch();
  print_table();
  int failed = 0;
  for (size_t i = 0; i < NROWS; i++) failed += rows[i].failed ? 1 : 0;
  assert_int_equal(failed, 0);
}

/* ---- the secret stays out of the guest ----------------------------------------------
 */

static long count_in_file(const char *path, const char *needle) {
  int fd = open(path, O_RDONLY | O_CLOEXEC);
  if (fd < 0) return -1;
  size_t nl = strlen(needle), cap = 8u << 20;
  char *buf = malloc(cap + nl);
  long hits = 0;
  size_t carry = 0;
  ssize_t n;
  while (buf && (n = read(fd, buf + carry, cap)) > 0) {
    size_t len = carry + (size_t)n;
    for (char *p = buf; (p = memmem(p, (size_t)(buf + len - p), needle, nl)); p++) hits++;
    carry = len < nl - 1 ? len : nl - 1;
    memmove(buf, buf + len - carry, carry);
  }
  free(buf);
  close(fd);
  return hits;
}

static void secret_never_in_the_guest(void **state) {
  int code;
  /* regular files only: grep -r would block on a FIFO */
  char *out = run(
      "find / /tmp /run /dev/shm -xdev -type f 2>/dev/null | xargs grep -l '" SECRET_GREP
      "' 2>/dev/null;"
      " cat /proc/[0-9]*/environ 2>/dev/null | tr '\\0' '\\n' | grep -c '" SECRET_GREP
      "';"
      " env | grep -c 'secre[t]-'",
      &code);
  assert_non_null(out);
  fprintf(stderr, "guest grep: %s", out);
  assert_string_equal(out, "0\n0\n");
  free(out);
  /* the guest's RAM is a file on the host: the secret must not be in it.
   * A control first: a marker the guest keeps in RAM (tmpfs) is found, so
   * the scan does see the guest's memory as it is now. */
  char marker[64], sh[160], path[512];
  uint8_t rnd[8];
  hg_random_bytes(rnd, sizeof rnd);
  snprintf(marker, sizeof marker, "hangar-mem-control-%02x%02x%02x%02x%02x%02x%02x%02x",
           rnd[0], rnd[1], rnd[2], rnd[3], rnd[4], rnd[5], rnd[6], rnd[7]);
  snprintf(sh, sizeof sh, "echo %s > /dev/shm/control; sync", marker);
  free(run(sh, &code));
  snprintf(path, sizeof path, "%s/sandboxes/%s/mem", node.data, sbid);
  long control = count_in_file(path, marker);
  fprintf(stderr, "host scan %s for the control marker: %ld\n", path, control);
  assert_true(control > 0);
  const char *files[] = {"mem", "rootfs.img", "vmstate", "sandbox.json"};
  for (size_t i = 0; i < 4; i++) {
    snprintf(path, sizeof path, "%s/sandboxes/%s/%s", node.data, sbid, files[i]);
    long hits = count_in_file(path, SECRET_CORE);
    fprintf(stderr, "host scan %s: %ld\n", path, hits);
    if (hits >= 0)
      assert_int_equal(hits, 0);
    else
      assert_true(i >= 2); /* mem and rootfs.img must exist */
  }
  /* the API hands the policy out redacted */
  long status;
  snprintf(path, sizeof path, "/v1/sandboxes/%s/network", sbid);
  json_t *j = hg_it_json(&node, "GET", path, NULL, &status);
  char *d = json_dumps(j, 0);
  assert_int_equal(status, 200);
  assert_null(strstr(d, SECRET_CORE));
  assert_null(strstr(d, UP_SECRET));
  free(d);
  json_decref(j);
}

/* ---- a dead hangard leaves no way out ------------------------------------------------
 */

static void daemon_kill9_fails_closed(void **state) {
  uint64_t sink = fakenet_bytes_at_sink(fn);
  char cid[32];
  /* 30 s of attempts, each line stamped with the guest's clock */
  assert_int_equal(
      start_cmd("end=$(( $(date +%s) + 30 )); while [ $(date +%s) -lt $end ]; do " PROBE
                " dns 10.0.2.1 allowed.test --timeout 700; " PROBE " http " S
                " 80 --host allowed.test --timeout 700; " PROBE " tcp " S
                " 22 --timeout 700; " PROBE " hello " S
                " 443 --sni allowed.test --timeout 700; " PROBE " tcp " FAKENET_RELAY
                " 5432 --send x --timeout 700; "
                "sleep 0.2; done",
                cid),
      0);
  /* the attempts are under way: the first DNS probe has reported */
  bool started = false;
  for (int64_t end = hg_now_ms() + 60000; !started && hg_now_ms() < end;) {
    char *o = cmd_output(cid);
    started = strstr(o, "\"dns\"") != NULL;
    free(o);
    if (!started) usleep(100000);
  }
  assert_true(started);
  size_t mark = fakenet_mark(fn);
  hg_it_node_kill(&node, SIGKILL); /* the dir and the VMs stay; restart below */
  int64_t killed = fakenet_now_ms(fn);
  sleep(10); /* the outage: what the guest tries meanwhile is the test */
  /* nothing reached anything while hangard was gone: no request, no
   * handshake, no connection that started after the kill (connections
   * from before it are recorded when they end, which the kill caused) */
  fakenet_dump(fn, mark);
  assert_int_equal(fakenet_bytes_at_sink(fn), sink);
  assert_int_equal(fakenet_count(fn, mark, FN_HTTP, NULL, NULL), 0);
  assert_int_equal(fakenet_count(fn, mark, FN_TLS, NULL, NULL), 0);
  /* the rules outlived the daemon (fail closed) */
  hg_nft_counters ctr;
  assert_int_equal(counters(&ctr), 0);
  fakenet_event e;
  int after_kill = 0;
  for (size_t i = mark; fakenet_event_get(fn, i, &e); i++)
    if ((e.kind == FN_RELAY || e.kind == FN_CONN) && e.start_ms >= killed) after_kill++;
  assert_int_equal(after_kill, 0);
  assert_int_equal(hg_it_node_restart(&node), 0);
  assert_true(wait_cmd(cid, 60000) >= 0);
  char *o = cmd_output(cid);
  int dns_failed = 0, dns_ok = 0, sink_connected = 0;
  for (char *l = strtok(o, "\n"); l; l = strtok(NULL, "\n")) {
    json_t *j = json_loads(l, 0, NULL);
    if (!strcmp(hg_it_str(j, "cmd"), "dns")) {
      if (jtrue(j, "answered"))
        dns_ok++;
      else
        dns_failed++;
    }
    if (!strcmp(hg_it_str(j, "cmd"), "tcp") && !strcmp(hg_it_str(j, "ip"), S) &&
        jtrue(j, "connected"))
      sink_connected++;
    json_decref(j);
  }
  free(o);
  fprintf(stderr, "during the kill: dns answered %d, failed %d; sink connects %d\n",
          dns_ok, dns_failed, sink_connected);
  assert_true(dns_failed > 0); /* nobody answered while hangard was down */
  assert_int_equal(sink_connected, 0);
  assert_int_equal(fakenet_bytes_at_sink(fn), sink);
  /* back: the gateway answers DNS again, and allowed traffic flows */
  json_t *r = probe1("dns 10.0.2.1 allowed.test");
  assert_true(r && jtrue(r, "answered"));
  assert_int_equal(json_array_size(json_object_get(r, "answers")), 1);
  json_decref(r);
  r = probe1("http allowed.test 80");
  assert_true(http_status(r, 200));
  json_decref(r);
  assert_int_equal(fakenet_bytes_at_sink(fn), sink);
}

/* hangard ran the gateway for all of the above: under the sanitizers its
 * log must hold no report (the harness deletes the log at teardown). */
static void hangard_log_clean(void **state) {
  char path[400], *text = NULL;
  size_t len = 0;
  snprintf(path, sizeof path, "%s/hangard.log", node.dir);
  assert_int_equal(hg_read_file(path, 256u << 20, &text, &len), 0);
  const char *bad[] = {"ERROR: AddressSanitizer", "ERROR: LeakSanitizer",
                       "runtime error:"};
  for (size_t i = 0; i < 3; i++) {
    const char *hit = strstr(text, bad[i]);
    if (hit) fprintf(stderr, "hangard.log: %.2000s\n", hit);
    assert_null(hit);
  }
  free(text);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(allowed_paths_work),
      cmocka_unit_test(guest_wget_through_the_gateway),
      cmocka_unit_test(non_root_user_resolves_names),
      cmocka_unit_test(red_team_matrix),
      cmocka_unit_test(secret_never_in_the_guest),
      cmocka_unit_test(daemon_kill9_fails_closed),
      cmocka_unit_test(hangard_log_clean),
  };
  return hg_it_run_group(tests, setup, teardown);
}
