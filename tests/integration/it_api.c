/* Integration: the API's promises (docs/api.md) on one real hangard with
 * real microVMs: many clients at once, live output streams that resume by
 * offset, hostile input that must get clean errors while the node keeps
 * serving, and a daemon killed in the middle of an operation. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h> /* after the four above, which it needs */

#include <curl/curl.h>
#include <errno.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "node/core/util.h"
#include "tests/integration/harness.h"

#define WAIT "300" /* ?wait for anything a VM does: TCG on few cores is slow */

static hg_it_node node;

static int setup(void **state) {
  /* before any thread: neither libcurl's nor jansson's first use is thread-safe */
  if (curl_global_init(CURL_GLOBAL_DEFAULT) != CURLE_OK) return -1;
  json_object_seed(0);
  return hg_it_node_start(&node) == 0 ? 0 : -1;
}

static int teardown(void **state) {
  int rc = hg_it_node_stop(&node);
  curl_global_cleanup();
  return rc;
}

/* --- helpers ------------------------------------------------------------------- */

typedef struct sandbox {
  char id[32];
  char token[80];
} sandbox;

/* JSON request as token (NULL: admin); fails the test unless the status is want. */
static json_t *req_as(const char *token, const char *method, const char *path,
                      json_t *body, long want) {
  long status;
  json_t *j = hg_it_json_on(NULL, &node, token, method, path, body, &status);
  if (status != want) {
    char *d = j ? json_dumps(j, JSON_COMPACT) : NULL;
    fprintf(stderr, "%s %s: status %ld, want %ld: %s\n", method, path, status, want,
            d ? d : "(no JSON)");
    free(d);
  }
  assert_int_equal(status, want);
  return j;
}

static void create_sb(sandbox *sb) {
  json_t *j = req_as(NULL, "POST", "/v1/sandboxes?wait=" WAIT, NULL, 201);
  snprintf(sb->id, sizeof sb->id, "%s", json_string_value(json_object_get(j, "id")));
  snprintf(sb->token, sizeof sb->token, "%s",
           json_string_value(json_object_get(j, "token")));
  json_decref(j);
  assert_true(hg_id_valid("sb", sb->id));
  assert_true(strlen(sb->token) >= 32);
}

/* Runs sh -c cmd through ?wait as token; returns the answer (exited). */
static json_t *run_as(const char *token, const char *id, const char *cmd) {
  char path[128];
  snprintf(path, sizeof path, "/v1/sandboxes/%s/commands?wait=" WAIT, id);
  json_t *req = json_pack("{s:[s,s,s]}", "cmd", "sh", "-c", cmd);
  json_t *j = req_as(token, "POST", path, req, 201);
  json_decref(req);
  assert_true(json_is_true(json_object_get(j, "exited")));
  return j;
}

/* An error answer: the status, and a JSON body {"error": {"code", "message"}}
 * whose message mentions word (if given). */
static void assert_error(const hg_it_resp *r, long want, const char *word) {
  json_t *j = r->body.len ? json_loadb(r->body.data, r->body.len, 0, NULL) : NULL;
  json_t *e = json_object_get(j, "error");
  const char *code = json_string_value(json_object_get(e, "code"));
  const char *msg = json_string_value(json_object_get(e, "message"));
  if (r->status != want || !code || !msg || (word && !strstr(msg, word)))
    fprintf(stderr, "want %ld mentioning \"%s\", got %ld: %.*s\n", want, word ? word : "",
            r->status, (int)r->body.len, r->body.data ? r->body.data : "");
  assert_int_equal(r->status, want);
  assert_non_null(code);
  assert_non_null(msg);
  if (word) assert_non_null(strstr(msg, word));
  json_decref(j);
}

/* A request whose answer must be the error want (word: see assert_error). */
static void expect_error(const char *token, const char *method, const char *path,
                         const char *body, long want, const char *word) {
  hg_it_resp r;
  assert_int_equal(
      hg_it_http(&node, method, path, token, body, body ? strlen(body) : 0, &r), 0);
  assert_error(&r, want, word);
  hg_it_resp_free(&r);
}

static long status_of(const char *token, const char *method, const char *path) {
  hg_it_resp r;
  assert_int_equal(hg_it_http(&node, method, path, token, NULL, 0, &r), 0);
  long s = r.status;
  hg_it_resp_free(&r);
  return s;
}

static void delete_sb(const sandbox *sb) {
  assert_int_equal(hg_it_delete(&node, sb->id), 0);
}

static double metric(const char *text, const char *fmt, const char *arg) {
  char series[256];
  snprintf(series, sizeof series, fmt, arg);
  return hg_it_metric(text, series);
}

/* --- 1: twenty concurrent clients ------------------------------------------------ */

#define CLIENTS 20
#define CLIENT_CMDS 10
#define CLIENT_FILE (64u * 1024)

typedef struct client {
  int n;
  char id[32], token[80];
  char err[512]; /* the first thing that went wrong; "" when all went well */
} client;

/* cmocka's asserts must not run off the main thread: a client notes its
 * first failure and stops. */
#define CFAIL(cl, ...)                                 \
  do {                                                 \
    snprintf((cl)->err, sizeof(cl)->err, __VA_ARGS__); \
    goto out;                                          \
  } while (0)

static json_t *client_json(CURL *c, client *cl, const char *method, const char *path,
                           json_t *body, long *status) {
  json_t *j = hg_it_json_on(c, &node, cl->token[0] ? cl->token : NULL, method, path, body,
                            status);
  json_decref(body);
  return j;
}

static void *client_main(void *arg) {
  client *cl = arg;
  CURL *c = curl_easy_init();
  char path[256], want[64];
  char *data = malloc(CLIENT_FILE);
  json_t *j = NULL;
  long st;
  hg_it_resp r = {0};
  if (!c || !data || hg_random_bytes(data, CLIENT_FILE) < 0) CFAIL(cl, "setup");

  j = client_json(c, cl, "POST", "/v1/sandboxes?wait=" WAIT, json_object(), &st);
  if (st != 201 || !hg_id_valid("sb", hg_it_str(j, "id"))) CFAIL(cl, "create: %ld", st);
  snprintf(cl->id, sizeof cl->id, "%s", hg_it_str(j, "id"));
  snprintf(cl->token, sizeof cl->token, "%s", hg_it_str(j, "token")); /* from here on */
  json_decref(j);
  j = NULL;

  snprintf(path, sizeof path, "/v1/sandboxes/%s/commands?wait=" WAIT, cl->id);
  for (int i = 0; i < CLIENT_CMDS; i++) {
    char cmd[64];
    snprintf(cmd, sizeof cmd, "echo c%d-%d; exit %d", cl->n, i, i);
    snprintf(want, sizeof want, "c%d-%d\n", cl->n, i);
    j = client_json(c, cl, "POST", path, json_pack("{s:[s,s,s]}", "cmd", "sh", "-c", cmd),
                    &st);
    if (st != 201 || !json_is_true(json_object_get(j, "exited"))) {
      char *d = j ? json_dumps(j, JSON_COMPACT) : NULL;
      snprintf(cl->err, sizeof cl->err, "command %d: %ld %.400s", i, st, d ? d : "");
      free(d);
      goto out;
    }
    if (strcmp(hg_it_str(j, "stdout"), want) != 0)
      CFAIL(cl, "command %d: stdout %s", i, hg_it_str(j, "stdout"));
    if (json_integer_value(json_object_get(j, "exit_code")) != i)
      CFAIL(cl, "command %d: exit code", i);
    json_decref(j);
    j = NULL;
  }

  snprintf(path, sizeof path, "/v1/sandboxes/%s/files?path=/root/blob", cl->id);
  if (hg_it_http_on(c, &node, "PUT", path, cl->token, data, CLIENT_FILE, &r) < 0 ||
      r.status != 204)
    CFAIL(cl, "PUT file: %ld", r.status);
  hg_it_resp_free(&r);
  if (hg_it_http_on(c, &node, "GET", path, cl->token, NULL, 0, &r) < 0 || r.status != 200)
    CFAIL(cl, "GET file: %ld", r.status);
  if (r.body.len != CLIENT_FILE || memcmp(r.body.data, data, CLIENT_FILE) != 0)
    CFAIL(cl, "GET file: %zu bytes, not the ones sent", r.body.len);
  hg_it_resp_free(&r);

  static const char *const verbs[] = {"suspend", "resume"};
  for (int v = 0; v < 2; v++) {
    snprintf(path, sizeof path, "/v1/sandboxes/%s/%s?wait=" WAIT, cl->id, verbs[v]);
    j = client_json(c, cl, "POST", path, NULL, &st);
    if (st != 200) CFAIL(cl, "%s: %ld %s", verbs[v], st,
                          hg_it_str(json_object_get(j, "error"), "message"));
    if (v == 0 &&
        json_integer_value(json_object_get(json_object_get(j, "result"), "gen")) < 1)
      CFAIL(cl, "suspend: no generation in the result");
    json_decref(j);
    j = NULL;
  }

  /* after the round trip through the disk: the file is still there */
  snprintf(path, sizeof path, "/v1/sandboxes/%s/commands?wait=" WAIT, cl->id);
  j = client_json(c, cl, "POST", path,
                  json_pack("{s:[s,s,s]}", "cmd", "sh", "-c", "wc -c < /root/blob"), &st);
  snprintf(want, sizeof want, "%u\n", CLIENT_FILE);
  if (st != 201 || strcmp(hg_it_str(j, "stdout"), want) != 0)
    CFAIL(cl, "command after resume: %ld %s", st, hg_it_str(j, "stdout"));
  json_decref(j);
  j = NULL;

  snprintf(path, sizeof path, "/v1/sandboxes/%s?wait=" WAIT, cl->id);
  j = client_json(c, cl, "DELETE", path, NULL, &st);
  if (st != 200) CFAIL(cl, "delete: %ld", st);
  cl->id[0] = '\0'; /* gone: nothing for the main thread to clean */
out:
  json_decref(j);
  hg_it_resp_free(&r);
  free(data);
  if (c) curl_easy_cleanup(c);
  return NULL;
}

static void twenty_concurrent_clients_full_lifecycle(void **state) {
  char *before = hg_it_metrics(&node);
  assert_non_null(before);
  int vms = hg_it_count_vms(&node);
  static client cls[CLIENTS];
  pthread_t th[CLIENTS];
  int64_t t0 = hg_now_ms();
  for (int i = 0; i < CLIENTS; i++) {
    memset(&cls[i], 0, sizeof cls[i]);
    cls[i].n = i;
    assert_int_equal(pthread_create(&th[i], NULL, client_main, &cls[i]), 0);
  }
  int failed = 0;
  for (int i = 0; i < CLIENTS; i++) {
    pthread_join(th[i], NULL);
    if (cls[i].err[0]) {
      fprintf(stderr, "client %d (%s): %s\n", i, cls[i].id, cls[i].err);
      char log[320];
      snprintf(log, sizeof log, "%s/hangard.log", node.dir);
      if (cls[i].id[0]) hg_it_log_about(log, cls[i].id, 30);
      failed++;
    }
    if (cls[i].id[0]) hg_it_delete(&node, cls[i].id); /* a failed one's sandbox */
  }
  fprintf(stderr, "%d clients: %.1f s\n", CLIENTS, (hg_now_ms() - t0) / 1000.0);
  char *after = hg_it_metrics(&node);
  assert_non_null(after);
  /* what the clients did shows in the counters */
  const char *creates =
      "hangar_http_requests_total{route=\"/v1/sandboxes\",status=\"%s\"}";
  double d = metric(after, creates, "201") - metric(before, creates, "201");
  fprintf(stderr, "create 201: +%.0f\n", d);
  static const char *const kinds[] = {"create", "suspend", "resume", "delete"};
  for (size_t k = 0; k < 4; k++) {
    const char *count = "hangar_operation_duration_seconds_count{kind=\"%s\"}";
    const char *fail = "hangar_operations_failed_total{kind=\"%s\"}";
    double ops = metric(after, count, kinds[k]) - metric(before, count, kinds[k]);
    double bad = metric(after, fail, kinds[k]) - metric(before, fail, kinds[k]);
    fprintf(stderr, "%s: +%.0f operations, +%.0f failed\n", kinds[k], ops, bad);
    if (!failed) {
      assert_true(ops >= CLIENTS);
      assert_true(bad == 0);
    }
  }
  const char *running = "hangar_sandboxes{state=\"%s\"}";
  double r0 = metric(before, running, "running"), r1 = metric(after, running, "running");
  free(before);
  free(after);
  assert_int_equal(failed, 0);
  assert_true(d >= CLIENTS);
  assert_true(r1 == r0);
  assert_int_equal(hg_it_count_vms(&node), vms); /* every VM went with its sandbox */
}

/* --- 2: output follow -------------------------------------------------------------- */

typedef struct tail {
  hg_buf got;
  int64_t t0;    /* when the command was started */
  int64_t at[8]; /* when each line arrived, ms after t0 */
  int lines;
  int stop_after; /* leave after this many lines (0: read to the end) */
  char headers[2048];
} tail;

static size_t on_tail(char *p, size_t size, size_t nmemb, void *ud) {
  tail *t = ud;
  size_t len = size * nmemb;
  int64_t now = hg_now_ms() - t->t0;
  if (hg_buf_append(&t->got, p, len) < 0) return 0;
  for (size_t i = 0; i < len; i++)
    if (p[i] == '\n' && t->lines < 8) t->at[t->lines++] = now;
  /* 0 makes libcurl drop the connection: a client that goes away; what it
   * got in this call it did receive */
  return t->stop_after && t->lines >= t->stop_after ? 0 : len;
}

static size_t on_tail_header(char *p, size_t size, size_t nmemb, void *ud) {
  tail *t = ud;
  size_t have = strlen(t->headers), len = size * nmemb;
  if (have + len < sizeof t->headers) {
    memcpy(t->headers + have, p, len);
    t->headers[have + len] = '\0';
  }
  return len;
}

/* GET …/output?follow=1&offset=off into t; returns libcurl's result. */
static CURLcode follow(const char *id, const char *cid, uint64_t off, tail *t,
                       long *status) {
  char url[256];
  snprintf(url, sizeof url, "%s/v1/sandboxes/%s/commands/%s/output?follow=1&offset=%llu",
           node.url, id, cid, (unsigned long long)off);
  CURL *c = curl_easy_init();
  struct curl_slist *h = curl_slist_append(NULL, "Authorization: Bearer " HG_IT_KEY);
  curl_easy_setopt(c, CURLOPT_URL, url);
  curl_easy_setopt(c, CURLOPT_HTTPHEADER, h);
  curl_easy_setopt(c, CURLOPT_WRITEFUNCTION, on_tail);
  curl_easy_setopt(c, CURLOPT_WRITEDATA, t);
  curl_easy_setopt(c, CURLOPT_HEADERFUNCTION, on_tail_header);
  curl_easy_setopt(c, CURLOPT_HEADERDATA, t);
  curl_easy_setopt(c, CURLOPT_NOSIGNAL, 1L);
  curl_easy_setopt(c, CURLOPT_TIMEOUT, 120L);
  t->headers[0] = '\0';
  CURLcode cc = curl_easy_perform(c);
  curl_easy_getinfo(c, CURLINFO_RESPONSE_CODE, status);
  curl_slist_free_all(h);
  curl_easy_cleanup(c);
  return cc;
}

static uint64_t tail_offset(const tail *t) {
  const char *h = strcasestr(t->headers, "\nX-Hangar-Offset:");
  assert_non_null(h);
  return strtoull(h + 17, NULL, 10);
}

static void output_follow_streams_live_and_resumes_by_offset(void **state) {
  sandbox sb;
  create_sb(&sb);
  char path[128];
  snprintf(path, sizeof path, "/v1/sandboxes/%s/commands", sb.id);
  json_t *req = json_pack("{s:[s,s,s]}", "cmd", "sh", "-c",
                          "for i in $(seq 1 6); do echo line$i; sleep 1; done");
  json_t *j = req_as(NULL, "POST", path, req, 201);
  int64_t t0 = hg_now_ms();
  json_decref(req);
  char cid[32];
  snprintf(cid, sizeof cid, "%s", hg_it_str(j, "id"));
  json_decref(j);

  /* first connection: two lines, then the client leaves */
  tail a = {.t0 = t0, .stop_after = 2};
  hg_buf_init(&a.got, 1 << 20);
  long status;
  CURLcode cc = follow(sb.id, cid, 0, &a, &status);
  assert_int_equal(cc, CURLE_WRITE_ERROR); /* we left; the server did not end it */
  assert_int_equal(status, 200);
  assert_int_equal(tail_offset(&a), 0);
  assert_true(a.lines >= 2);
  fprintf(stderr, "first line after %lld ms, second after %lld ms\n", (long long)a.at[0],
          (long long)a.at[1]);
  /* live: the first line comes while the command has seconds to run */
  assert_true(a.at[0] < 3000);

  /* second connection: from exactly where the first stopped, to the end */
  tail b = {.t0 = t0};
  hg_buf_init(&b.got, 1 << 20);
  uint64_t off = tail_offset(&a) + a.got.len;
  cc = follow(sb.id, cid, off, &b, &status);
  assert_int_equal(cc, CURLE_OK);
  assert_int_equal(status, 200);
  assert_int_equal(tail_offset(&b), off);
  hg_buf all;
  hg_buf_init(&all, 1 << 20);
  hg_buf_append(&all, a.got.data, a.got.len);
  hg_buf_append(&all, b.got.data ? b.got.data : "", b.got.len);
  static const char want[] = "line1\nline2\nline3\nline4\nline5\nline6\n";
  if (all.len != sizeof want - 1 || memcmp(all.data, want, all.len) != 0)
    fprintf(stderr, "got %zu+%zu bytes: %.*s\n", a.got.len, b.got.len, (int)all.len,
            all.data);
  assert_int_equal(all.len, sizeof want - 1);
  assert_memory_equal(all.data, want, all.len);
  /* streamed as written, not handed over at the end: the last line came
   * seconds after the first */
  assert_true(b.lines >= 1);
  assert_true(b.at[b.lines - 1] - a.at[0] >= 2000);
  hg_buf_free(&all);
  hg_buf_free(&a.got);
  hg_buf_free(&b.got);

  /* the stream ends when stdout closes; the exit is told once the guest has
   * reaped it, a moment later: poll for it, bounded */
  snprintf(path, sizeof path, "/v1/sandboxes/%s/commands/%s", sb.id, cid);
  j = req_as(NULL, "GET", path, NULL, 200);
  for (int64_t end = hg_now_ms() + 30000;
       !json_is_true(json_object_get(j, "exited")) && hg_now_ms() < end;) {
    json_decref(j);
    usleep(100000);
    j = req_as(NULL, "GET", path, NULL, 200);
  }
  assert_true(json_is_true(json_object_get(j, "exited")));
  assert_int_equal(json_integer_value(json_object_get(j, "exit_code")), 0);
  assert_int_equal(json_integer_value(json_object_get(j, "stdout_bytes")),
                   sizeof want - 1);
  assert_true(json_is_integer(json_object_get(j, "stderr_bytes")));
  json_decref(j);
  delete_sb(&sb);
}

/* --- 3: bad input ---------------------------------------------------------------- */

static void raw_send(int fd, const char *s, size_t n) {
  while (n > 0) {
    ssize_t k = send(fd, s, n, MSG_NOSIGNAL);
    if (k < 0 && errno == EINTR) continue;
    assert_true(k > 0);
    s += k;
    n -= (size_t)k;
  }
}

/* Reads until the server closes or ms pass; returns the bytes read into
 * buf (NUL-terminated) and whether it closed. */
static size_t raw_read_to_close(int fd, char *buf, size_t cap, int ms, bool *closed) {
  size_t len = 0;
  int64_t deadline = hg_now_ms() + ms;
  *closed = false;
  while (!*closed) {
    int64_t left = deadline - hg_now_ms();
    if (left <= 0) break;
    struct pollfd p = {.fd = fd, .events = POLLIN};
    if (poll(&p, 1, (int)left) <= 0) continue;
    char junk[4096];
    char *to = len + 1 < cap ? buf + len : junk;
    size_t room = len + 1 < cap ? cap - len - 1 : sizeof junk;
    ssize_t k = recv(fd, to, room, 0);
    if (k < 0 && errno == EINTR) continue;
    if (k <= 0)
      *closed = true; /* FIN, or a reset after it */
    else if (to != junk)
      len += (size_t)k;
  }
  buf[len] = '\0';
  return len;
}

/* A 1 GiB upload announced by Content-Length: 413 before the body is read,
 * then the connection ends. */
static void huge_announced_body_is_refused_at_once(const sandbox *sb) {
  int fd = hg_it_connect(&node);
  assert_true(fd >= 0);
  char head[512], resp[4096];
  snprintf(head, sizeof head,
           "PUT /v1/sandboxes/%s/files?path=/root/huge HTTP/1.1\r\nHost: x\r\n"
           "Authorization: Bearer %s\r\nContent-Length: 1073741824\r\n\r\n",
           sb->id, HG_IT_KEY);
  int64_t t0 = hg_now_ms();
  raw_send(fd, head, strlen(head));
  char some[4096];
  memset(some, 'x', sizeof some);
  raw_send(fd, some, sizeof some);
  bool closed;
  raw_read_to_close(fd, resp, sizeof resp, 10000, &closed);
  fprintf(stderr, "1 GiB announced: closed=%d after %lld ms\n", closed,
          (long long)(hg_now_ms() - t0));
  close(fd);
  assert_int_equal(strncmp(resp, "HTTP/1.1 413 ", 13), 0);
  assert_non_null(strstr(resp, "\"too_large\""));
  assert_true(closed);
}

/* A chunked upload has no length up front: 413 once it passes the limit
 * (256 MiB for files), and the rest is not read. The upload goes to the
 * guest as it arrives, so a guest disk smaller than the limit (the test
 * template's is 256 MiB in all) fills first: then the answer is the
 * guest's 507, and the rest is not read either. */
static void chunked_body_past_the_limit_is_refused(const sandbox *sb) {
  int fd = hg_it_connect(&node);
  assert_true(fd >= 0);
  char head[512], resp[4096];
  snprintf(head, sizeof head,
           "PUT /v1/sandboxes/%s/files?path=/root/huge HTTP/1.1\r\nHost: x\r\n"
           "Authorization: Bearer %s\r\nTransfer-Encoding: chunked\r\n\r\n",
           sb->id, HG_IT_KEY);
  raw_send(fd, head, strlen(head));
  const size_t chunk = 1u << 20, limit = 256u << 20;
  char *frame = malloc(chunk + 32);
  assert_non_null(frame);
  int n = snprintf(frame, 32, "%zx\r\n", chunk);
  memset(frame + n, 'y', chunk);
  memcpy(frame + n + chunk, "\r\n", 2);
  size_t flen = (size_t)n + chunk + 2, sent = 0, pos = 0;
  bool answered = false, broken = false;
  int64_t deadline = hg_now_ms() + 120000;
  /* send until the server speaks (or gives up on us), at most 2x the limit */
  while (!answered && !broken && sent < 2 * limit && hg_now_ms() < deadline) {
    struct pollfd p = {.fd = fd, .events = POLLIN | POLLOUT};
    if (poll(&p, 1, 1000) <= 0) continue;
    if (p.revents & POLLIN) {
      answered = true;
      break;
    }
    if (p.revents & (POLLERR | POLLHUP)) {
      broken = true;
      break;
    }
    ssize_t k = send(fd, frame + pos, flen - pos, MSG_NOSIGNAL | MSG_DONTWAIT);
    if (k < 0 && (errno == EAGAIN || errno == EINTR)) continue;
    if (k < 0) {
      broken = true;
      break;
    }
    sent += (size_t)k;
    pos = (pos + (size_t)k) % flen;
  }
  free(frame);
  bool closed;
  raw_read_to_close(fd, resp, sizeof resp, 10000, &closed);
  close(fd);
  fprintf(stderr, "chunked: answered %.12s after %zu MiB sent, closed=%d\n", resp,
          sent >> 20, closed);
  if (strncmp(resp, "HTTP/1.1 507 ", 13) == 0) {
    assert_non_null(strstr(resp, "\"insufficient_capacity\""));
  } else {
    assert_int_equal(strncmp(resp, "HTTP/1.1 413 ", 13), 0);
    assert_true(sent > limit);
  }
  assert_true(sent < 2 * limit);
  assert_true(closed);
}

/* Slowloris: a head trickled a byte every 500 ms is cut off by the server
 * (its header deadline, 10 s) long before the two minutes it would take to
 * send, while everyone else is served meanwhile. How soon after the
 * deadline is the server's timer, not asserted: a loaded machine delays it. */
static void trickled_head_is_cut_off_while_others_are_served(const sandbox *sb) {
  char head[320];
  int hl = snprintf(head, sizeof head, "GET /healthz HTTP/1.1\r\nHost: x\r\nX-Slow: ");
  memset(head + hl, 'a', sizeof head - 1 - (size_t)hl);
  head[sizeof head - 1] = '\0';
  int fd = hg_it_connect(&node);
  assert_true(fd >= 0);
  int64_t t0 = hg_now_ms();
  bool closed = false;
  char resp[4096] = "";
  size_t rlen = 0;
  int served = 0;
  size_t i = 0;
  for (; i < sizeof head - 1 && !closed; i++) {
    if (send(fd, head + i, 1, MSG_NOSIGNAL) < 0) {
      closed = true;
      break;
    }
    /* others keep being served */
    hg_it_resp r;
    assert_int_equal(hg_it_http(&node, "GET", "/healthz", "", NULL, 0, &r), 0);
    assert_int_equal(r.status, 200);
    hg_it_resp_free(&r);
    served++;
    struct pollfd p = {.fd = fd, .events = POLLIN};
    int64_t next = t0 + 500 * (int64_t)(i + 1);
    int left = (int)(next - hg_now_ms());
    if (poll(&p, 1, left > 0 ? left : 0) > 0) {
      ssize_t k = recv(fd, resp + rlen, sizeof resp - rlen - 1, 0);
      if (k <= 0)
        closed = true;
      else
        rlen += (size_t)k;
      resp[rlen] = '\0';
    }
    left = (int)(next - hg_now_ms());
    if (left > 0 && !closed) usleep((useconds_t)left * 1000);
  }
  if (!closed)
    rlen += raw_read_to_close(fd, resp + rlen, sizeof resp - rlen, 5000, &closed);
  int64_t took = hg_now_ms() - t0;
  close(fd);
  fprintf(stderr,
          "slowloris: closed=%d after %lld ms, %d requests served meanwhile: %.*s\n",
          closed, (long long)took, served, (int)strcspn(resp, "\r\n"), resp);
  assert_true(closed);
  assert_true(i < sizeof head - 1); /* cut off, not a head that ran out */
  if (rlen) assert_int_equal(strncmp(resp, "HTTP/1.1 408 ", 13), 0);
  /* a sandbox request too, not just the health check */
  json_decref(run_as(sb->token, sb->id, "true"));
}

static void bad_bodies_and_fields_get_400(const sandbox *sb) {
  char cmds[128];
  snprintf(cmds, sizeof cmds, "/v1/sandboxes/%s/commands", sb->id);
  expect_error(NULL, "POST", "/v1/sandboxes", "{\"vcpus\": ", 400, "JSON");
  expect_error(NULL, "POST", cmds, "not json at all", 400, "JSON");
  expect_error(NULL, "POST", cmds, "[\"sh\"]", 400, "object");
  expect_error(NULL, "POST", cmds, "{\"cmd\": \"notalist\"}", 400, "cmd");
  expect_error(NULL, "POST", cmds, "{\"cmd\": [\"sh\", 3]}", 400, "cmd");
  expect_error(NULL, "POST", cmds, "{\"cmd\": [\"true\"], \"timeout_s\": \"soon\"}", 400,
               "timeout_s");
  expect_error(NULL, "POST", cmds, "{\"cmd\": [\"true\"], \"env\": {\"A\": 1}}", 400,
               "env");
  expect_error(NULL, "POST", cmds, "{\"cmd\": [\"true\"], \"cmd\": [\"false\"]}", 400,
               NULL);
  expect_error(NULL, "POST", "/v1/sandboxes", "{\"vcpus\": \"x\"}", 400, "vcpus");
  expect_error(NULL, "POST", "/v1/sandboxes", "{\"memory_mib\": -5}", 400, "memory_mib");
  expect_error(NULL, "POST", "/v1/sandboxes", "{\"template\": 7}", 400, "template");
  char path[160];
  snprintf(path, sizeof path, "/v1/sandboxes/%s/commands?wait=soon", sb->id);
  expect_error(NULL, "POST", path, "{\"cmd\": [\"true\"]}", 400, "wait");
  snprintf(path, sizeof path, "/v1/sandboxes/%s/files?path=etc/hostname", sb->id);
  expect_error(NULL, "GET", path, NULL, 400, "path");
  snprintf(path, sizeof path, "/v1/sandboxes/%s/files?path=/etc/hostname%%00.txt",
           sb->id);
  expect_error(NULL, "GET", path, NULL, 400, "path");
}

static void invalid_ids_get_4xx(const sandbox *sb) {
  expect_error(NULL, "GET", "/v1/sandboxes/../../etc", NULL, 404, NULL);
  expect_error(NULL, "GET", "/v1/sandboxes/../../etc/passwd", NULL, 404, NULL);
  expect_error(NULL, "GET", "/v1/sandboxes/sb-XYZ", NULL, 404, NULL);
  expect_error(NULL, "DELETE", "/v1/sandboxes/sb-XYZ", NULL, 404, NULL);
  expect_error(NULL, "GET", "/v1/operations/op-XYZ", NULL, 404, NULL);
  char path[160];
  snprintf(path, sizeof path, "/v1/sandboxes/%s/commands/cmd-01", sb->id);
  expect_error(NULL, "GET", path, NULL, 404, NULL);
  snprintf(path, sizeof path, "/v1/sandboxes/%s%%00", sb->id);
  long s = status_of(NULL, "GET", path);
  assert_true(s >= 400 && s < 500);
  snprintf(path, sizeof path, "/v1/sandboxes/%s/files%%00?path=/etc/hostname", sb->id);
  s = status_of(NULL, "GET", path);
  assert_true(s >= 400 && s < 500);
  s = status_of(NULL, "GET", "/v1/sandboxes/sb-%00");
  assert_true(s >= 400 && s < 500);
}

/* Guest paths resolve in the guest: "/../../x" is the guest's /x. */
static void traversal_stays_in_the_guest(const sandbox *sb) {
  unsigned char rnd[8];
  char hex[17], host[64], path[256];
  assert_int_equal(hg_random_bytes(rnd, sizeof rnd), 0);
  hg_hex_encode(rnd, sizeof rnd, hex);
  snprintf(host, sizeof host, "/tmp/hg-traversal-%s", hex);
  static const char text[] = "written through ../..\n";
  for (int f = 0; f < 2; f++) { /* as written, and percent-encoded */
    snprintf(path, sizeof path, "/v1/sandboxes/%s/files?path=%s%s", sb->id,
             f ? "%2F..%2F..%2Ftmp%2Fhg-traversal-" : "/../../tmp/hg-traversal-", hex);
    hg_it_resp r;
    assert_int_equal(hg_it_http(&node, "PUT", path, NULL, text, sizeof text - 1, &r), 0);
    assert_int_equal(r.status, 204);
    hg_it_resp_free(&r);
    assert_int_equal(access(host, F_OK), -1); /* nothing on the host */
    assert_int_equal(errno, ENOENT);
    assert_int_equal(hg_it_http(&node, "GET", path, NULL, NULL, 0, &r), 0);
    assert_int_equal(r.status, 200);
    assert_int_equal(r.body.len, sizeof text - 1);
    assert_memory_equal(r.body.data, text, sizeof text - 1);
    hg_it_resp_free(&r);
  }
  /* it is the guest's own /tmp */
  char cmd[96];
  snprintf(cmd, sizeof cmd, "cat /tmp/hg-traversal-%s", hex);
  json_t *j = run_as(sb->token, sb->id, cmd);
  assert_string_equal(hg_it_str(j, "stdout"), text);
  json_decref(j);

  /* reading out: the guest's /etc/hostname (its sandbox id), not the host's */
  snprintf(path, sizeof path, "/v1/sandboxes/%s/files?path=/../../etc/hostname", sb->id);
  hg_it_resp r;
  assert_int_equal(hg_it_http(&node, "GET", path, NULL, NULL, 0, &r), 0);
  assert_int_equal(r.status, 200);
  size_t idlen = strlen(sb->id);
  assert_true(r.body.len >= idlen);
  assert_memory_equal(r.body.data, sb->id, idlen);
  char *mine = NULL;
  size_t mlen = 0;
  if (hg_read_file("/etc/hostname", 4096, &mine, &mlen) == 0)
    assert_false(mlen == r.body.len && memcmp(mine, r.body.data, mlen) == 0);
  free(mine);
  hg_it_resp_free(&r);
}

static void credentials_grant_only_what_they_are_for(const sandbox *a, const sandbox *b) {
  char path[256];
  /* the admin key, wrong or missing */
  expect_error("wrong-admin-key", "GET", "/v1/sandboxes", NULL, 401, NULL);
  expect_error("", "GET", "/v1/sandboxes", NULL, 401, NULL);
  hg_it_resp r;
  assert_int_equal(hg_it_http(&node, "GET", "/v1/sandboxes", "wrong", NULL, 0, &r), 0);
  assert_non_null(strcasestr(r.headers, "WWW-Authenticate: Bearer"));
  hg_it_resp_free(&r);
  snprintf(path, sizeof path, "/v1/sandboxes/%s", a->id);
  expect_error("wrong-admin-key", "GET", path, NULL, 401, NULL);
  expect_error("0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef", "GET",
               path, NULL, 401, NULL); /* looks like a token, is none */

  /* a sandbox token: its own sandbox, nothing else; 403, not 401, since
   * this daemon has seen these tokens valid (it issued them) */
  json_decref(req_as(a->token, "GET", path, NULL, 200));
  json_t *j = run_as(a->token, a->id, "echo first");
  char cid1[32], otok[80];
  snprintf(cid1, sizeof cid1, "%s", hg_it_str(j, "id"));
  snprintf(otok, sizeof otok, "%s", hg_it_str(j, "output_token"));
  json_decref(j);
  assert_true(strlen(otok) >= 32);
  j = run_as(a->token, a->id, "echo second");
  char cid2[32];
  snprintf(cid2, sizeof cid2, "%s", hg_it_str(j, "id"));
  json_decref(j);

  snprintf(path, sizeof path, "/v1/sandboxes/%s", b->id);
  expect_error(a->token, "GET", path, NULL, 403, NULL);
  expect_error(a->token, "DELETE", path, NULL, 403, NULL);
  snprintf(path, sizeof path, "/v1/sandboxes/%s/commands", b->id);
  expect_error(a->token, "POST", path, "{\"cmd\": [\"true\"]}", 403, NULL);
  snprintf(path, sizeof path, "/v1/sandboxes/%s/files?path=/etc/hostname", b->id);
  expect_error(a->token, "GET", path, NULL, 403, NULL);
  expect_error(a->token, "GET", "/v1/sandboxes", NULL, 403, NULL);
  expect_error(a->token, "POST", "/v1/sandboxes", "{}", 403, NULL);
  expect_error(a->token, "GET", "/v1/templates", NULL, 403, NULL);
  snprintf(path, sizeof path, "/v1/operations?sandbox=%s", b->id);
  expect_error(a->token, "GET", path, NULL, 403, NULL);
  snprintf(path, sizeof path, "/v1/sandboxes/%s", b->id);
  assert_int_equal(status_of(NULL, "GET", path), 200); /* b untouched */

  /* an output token: its command's output, nothing else */
  snprintf(path, sizeof path, "/v1/sandboxes/%s/commands/%s/output", a->id, cid1);
  assert_int_equal(hg_it_http(&node, "GET", path, otok, NULL, 0, &r), 0);
  assert_int_equal(r.status, 200);
  assert_int_equal(r.body.len, 6);
  assert_memory_equal(r.body.data, "first\n", 6);
  hg_it_resp_free(&r);
  snprintf(path, sizeof path, "/v1/sandboxes/%s/commands/%s/output?token=%s", a->id, cid1,
           otok);
  assert_int_equal(status_of("", "GET", path), 200);
  snprintf(path, sizeof path, "/v1/sandboxes/%s/commands/%s/output", a->id, cid2);
  expect_error(otok, "GET", path, NULL, 403, NULL);
  assert_int_equal(status_of(a->token, "GET", path),
                   200); /* the sandbox token reads all */
  expect_error(b->token, "GET", path, NULL, 403, NULL);
  snprintf(path, sizeof path, "/v1/sandboxes/%s/commands/%s", a->id, cid1);
  expect_error(otok, "GET", path, NULL, 403, NULL);
  snprintf(path, sizeof path, "/v1/sandboxes/%s", a->id);
  expect_error(otok, "GET", path, NULL, 403, NULL);
  snprintf(path, sizeof path, "/v1/sandboxes/%s/commands", a->id);
  expect_error(otok, "POST", path, "{\"cmd\": [\"true\"]}", 403, NULL);
  expect_error(otok, "GET", "/v1/sandboxes", NULL, 403, NULL);
  snprintf(path, sizeof path, "/v1/sandboxes/%s/commands/%s/output", b->id, cid1);
  expect_error(otok, "GET", path, NULL, 403, NULL);
}

static void bad_input_gets_clean_errors_and_node_keeps_serving(void **state) {
  sandbox a, b, c;
  create_sb(&a);
  create_sb(&b);
  bad_bodies_and_fields_get_400(&a);
  huge_announced_body_is_refused_at_once(&a);
  chunked_body_past_the_limit_is_refused(&a);
  trickled_head_is_cut_off_while_others_are_served(&a);
  invalid_ids_get_4xx(&a);
  traversal_stays_in_the_guest(&a);
  credentials_grant_only_what_they_are_for(&a, &b);

  /* after all that: the same daemon, still creating and running */
  assert_int_equal(kill(node.pid, 0), 0);
  create_sb(&c);
  json_t *j = run_as(c.token, c.id, "echo still here");
  assert_string_equal(hg_it_str(j, "stdout"), "still here\n");
  json_decref(j);
  j = run_as(a.token, a.id, "echo a too");
  assert_string_equal(hg_it_str(j, "stdout"), "a too\n");
  json_decref(j);
  assert_int_equal(kill(node.pid, 0), 0);
  delete_sb(&a);
  delete_sb(&b);
  delete_sb(&c);
}

/* --- 4: restart in the middle of an operation ------------------------------------ */

/* Starts a suspend, SIGKILLs hangard delay_ms later, restarts it: the
 * operation must read finished (either way, never stuck "running") and the
 * sandbox be running or suspended, and usable. */
static void kill_during_suspend(const sandbox *sb, int delay_ms) {
  char path[160], op[32];
  snprintf(path, sizeof path, "/v1/sandboxes/%s/suspend", sb->id);
  json_t *j = req_as(NULL, "POST", path, NULL, 202);
  snprintf(op, sizeof op, "%s", hg_it_str(j, "operation"));
  json_decref(j);
  assert_true(hg_id_valid("op", op));
  if (delay_ms)
    usleep((useconds_t)delay_ms * 1000); /* where the kill lands, not a check */
  hg_it_node_kill(&node, SIGKILL);
  assert_int_equal(hg_it_node_restart(&node), 0);

  snprintf(path, sizeof path, "/v1/operations/%s?wait=60", op);
  j = req_as(NULL, "GET", path, NULL, 200);
  char st[32];
  snprintf(st, sizeof st, "%s", hg_it_str(j, "status"));
  const char *msg = hg_it_str(json_object_get(j, "error"), "message");
  fprintf(stderr, "killed %d ms into a suspend: operation %s %s", delay_ms, st, msg);
  assert_true(!strcmp(st, "succeeded") || !strcmp(st, "failed"));
  if (!strcmp(st, "failed")) assert_true(strlen(msg) > 0);
  assert_true(strlen(hg_it_str(j, "finished_at")) > 0);
  json_decref(j);

  snprintf(path, sizeof path, "/v1/sandboxes/%s", sb->id);
  j = req_as(NULL, "GET", path, NULL, 200);
  char sst[32];
  snprintf(sst, sizeof sst, "%s", hg_it_str(j, "state"));
  json_decref(j);
  fprintf(stderr, ", sandbox %s\n", sst);
  assert_true(!strcmp(sst, "running") || !strcmp(sst, "suspended"));
  if (!strcmp(st, "succeeded")) assert_string_equal(sst, "suspended");
  if (!strcmp(sst, "suspended")) {
    snprintf(path, sizeof path, "/v1/sandboxes/%s/resume?wait=" WAIT, sb->id);
    json_decref(req_as(NULL, "POST", path, NULL, 200));
  }
  j = run_as(NULL, sb->id, "cat /root/mark");
  assert_string_equal(hg_it_str(j, "stdout"), "before\n");
  json_decref(j);
}

static void restart_mid_operation_ends_in_a_clear_state(void **state) {
  sandbox sb;
  create_sb(&sb);
  json_decref(run_as(sb.token, sb.id, "echo before > /root/mark"));
  /* how long a whole suspend takes here, to land a kill in the middle of one */
  char path[160];
  snprintf(path, sizeof path, "/v1/sandboxes/%s/suspend?wait=" WAIT, sb.id);
  int64_t t0 = hg_now_ms();
  json_decref(req_as(NULL, "POST", path, NULL, 200));
  int took = (int)(hg_now_ms() - t0);
  snprintf(path, sizeof path, "/v1/sandboxes/%s/resume?wait=" WAIT, sb.id);
  json_decref(req_as(NULL, "POST", path, NULL, 200));
  fprintf(stderr, "a suspend takes %d ms\n", took);

  /* kills landing from its start to its end: saving the memory, taking
   * the generation, stopping the VM, recording "suspended" */
  for (int k = 0; k <= 8; k++) kill_during_suspend(&sb, took * k / 8);
  delete_sb(&sb);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(twenty_concurrent_clients_full_lifecycle),
      cmocka_unit_test(output_follow_streams_live_and_resumes_by_offset),
      cmocka_unit_test(bad_input_gets_clean_errors_and_node_keeps_serving),
      cmocka_unit_test(restart_mid_operation_ends_in_a_clear_state),
  };
  /* HG_IT_FILTER=name (wildcards * and ?) runs only the tests matching it */
  if (getenv("HG_IT_FILTER")) cmocka_set_test_filter(getenv("HG_IT_FILTER"));
  return hg_it_run_group(tests, setup, teardown);
}
