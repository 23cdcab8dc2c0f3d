/* api/inbound: one HTTP exchange with a server in a sandbox, against a
 * scripted "guest" on the other end of a socketpair (a thread that reads
 * the request, writes a canned answer and hangs up). */
#include <errno.h>
#include <poll.h>
#include <pthread.h>
#include <stdatomic.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cmocka.h>

#include "api/inbound.h"
#include "node/core/util.h"

typedef struct guest {
  int fd;
  const char *answer; /* written once the request head (and body) is in */
  size_t answer_len;
  size_t want_body;   /* request body bytes to read before answering */
  int delay_ms;       /* before answering, unless hangard hangs up first */
  bool no_close;      /* keep the connection open after answering */
  atomic_bool answered;  /* the guest has begun its answer */
  bool answered_before;  /* ... before hg_inbound_exchange returned */
  char request[8192]; /* what arrived */
  size_t request_len;
  pthread_t thread;
} guest;

static void *guest_main(void *arg) {
  guest *g = arg;
  for (;;) {
    ssize_t n =
        read(g->fd, g->request + g->request_len, sizeof g->request - 1 - g->request_len);
    if (n <= 0) break;
    g->request_len += (size_t)n;
    g->request[g->request_len] = '\0';
    char *end = strstr(g->request, "\r\n\r\n");
    if (end && g->request_len - (size_t)(end + 4 - g->request) >= g->want_body) break;
  }
  if (g->delay_ms) { /* ends early when hangard hangs up (EOF) */
    struct pollfd p = {.fd = g->fd, .events = POLLIN};
    poll(&p, 1, g->delay_ms);
  }
  atomic_store(&g->answered, true);
  size_t off = 0;
  while (off < g->answer_len) {
    ssize_t n = send(g->fd, g->answer + off, g->answer_len - off, MSG_NOSIGNAL);
    if (n <= 0) break;
    off += (size_t)n;
  }
  if (!g->no_close) shutdown(g->fd, SHUT_RDWR);
  return NULL;
}

/* Runs one exchange; returns its rc, the guest's view in g. */
static int exchange(guest *g, const hg_inbound_req *req, size_t max_body, int timeout_ms,
                    hg_inbound_resp *out) {
  int sv[2];
  assert_int_equal(socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv), 0);
  g->fd = sv[1];
  g->answer_len = strlen(g->answer);
  assert_int_equal(pthread_create(&g->thread, NULL, guest_main, g), 0);
  int rc = hg_inbound_exchange(sv[0], req, max_body, timeout_ms, out);
  g->answered_before = atomic_load(&g->answered);
  shutdown(sv[0], SHUT_RDWR); /* a guest still writing gets EPIPE, not a wait */
  pthread_join(g->thread, NULL);
  close(sv[0]);
  close(sv[1]);
  return rc;
}

static const hg_http_header client_headers[] = {
    {"accept", "text/html"},
    {"authorization", "Bearer hangar-secret"},
    {"host", "hangar.example:7070"},
    {"x-hangar-forwarded", "n-1"},
    {"connection", "keep-alive"},
    {"transfer-encoding", "chunked"},
    {"x-custom", "kept"},
    {"cookie", "a=b"},
};

static void request_is_rewritten_for_the_guest(void **state) {
  guest g = {.answer = "HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok", .want_body = 5};
  hg_inbound_req req = {.method = "POST",
                        .target = "/api/x%20y?q=1",
                        .headers = client_headers,
                        .nheaders = 8,
                        .body = "hello",
                        .body_len = 5};
  hg_inbound_resp r;
  assert_int_equal(exchange(&g, &req, 1024, 5000, &r), 0);
  const char *q = g.request;
  assert_true(strncmp(q, "POST /api/x%20y?q=1 HTTP/1.1\r\n", 30) == 0);
  assert_non_null(strstr(q, "\r\nHost: localhost\r\n"));
  assert_non_null(strstr(q, "\r\nConnection: close\r\n"));
  assert_non_null(strstr(q, "\r\naccept: text/html\r\n"));
  assert_non_null(strstr(q, "\r\nx-custom: kept\r\n"));
  assert_non_null(strstr(q, "\r\ncookie: a=b\r\n"));
  assert_non_null(strstr(q, "\r\nContent-Length: 5\r\n\r\nhello"));
  /* hangar's credential and hangar's own headers stay with hangar */
  assert_null(strstr(q, "hangar-secret"));
  assert_null(strstr(q, "authorization"));
  assert_null(strstr(q, "x-hangar"));
  assert_null(strstr(q, "hangar.example"));
  assert_null(strstr(q, "keep-alive"));
  assert_null(strstr(q, "chunked"));
  assert_int_equal(r.status, 200);
  assert_int_equal(r.body.len, 2);
  assert_memory_equal(r.body.data, "ok", 2);
  hg_inbound_resp_free(&r);
}

static void chunked_answer_is_decoded_and_headers_filtered(void **state) {
  guest g = {.answer =
                 "HTTP/1.1 201 Created\r\n"
                 "Content-Type: text/plain; charset=utf-8\r\n"
                 "Transfer-Encoding: chunked\r\n"
                 "Connection: keep-alive\r\n"
                 "X-Hangar-Owner: n-evil 10.0.0.1:7070\r\n"
                 "Date: Mon, 01 Jan 2024 00:00:00 GMT\r\n"
                 "Set-Cookie: s=1\r\n"
                 "ETag: \"abc\"   \r\n"
                 "\r\n"
                 "5\r\nhello\r\n6\r\n world\r\n0\r\n\r\n"};
  hg_inbound_req req = {.method = "GET", .target = "/"};
  hg_inbound_resp r;
  assert_int_equal(exchange(&g, &req, 1024, 5000, &r), 0);
  assert_int_equal(r.status, 201);
  assert_string_equal(r.content_type, "text/plain; charset=utf-8");
  assert_int_equal(r.body.len, 11);
  assert_memory_equal(r.body.data, "hello world", 11);
  hg_buf_append(&r.headers, "", 1);
  assert_string_equal(r.headers.data, "Set-Cookie: s=1\r\nETag: \"abc\"\r\n");
  /* GET with no body sends no Content-Length */
  assert_null(strstr(g.request, "Content-Length"));
  hg_inbound_resp_free(&r);
}

static void body_until_close_and_interim_answers(void **state) {
  guest g = {.answer =
                 "HTTP/1.1 100 Continue\r\n\r\n"
                 "HTTP/1.0 404 Not Found\r\nX-A: 1\r\n\r\nno such page"};
  hg_inbound_req req = {.method = "GET", .target = "/missing"};
  hg_inbound_resp r;
  assert_int_equal(exchange(&g, &req, 1024, 5000, &r), 0);
  assert_int_equal(r.status, 404);
  assert_int_equal(r.body.len, 12);
  assert_memory_equal(r.body.data, "no such page", 12);
  hg_buf_append(&r.headers, "", 1);
  assert_string_equal(r.headers.data, "X-A: 1\r\n");
  hg_inbound_resp_free(&r);
}

static void head_answer_has_no_body(void **state) {
  guest g = {.answer = "HTTP/1.1 200 OK\r\nContent-Length: 1000\r\n\r\n",
             .no_close = true};
  hg_inbound_req req = {.method = "HEAD", .target = "/big"};
  hg_inbound_resp r;
  assert_int_equal(exchange(&g, &req, 1024, 5000, &r), 0);
  assert_int_equal(r.status, 200);
  assert_int_equal(r.body.len, 0);
  hg_inbound_resp_free(&r);
}

static void misdirected_becomes_bad_gateway(void **state) {
  guest g = {.answer = "HTTP/1.1 421 Misdirected\r\nContent-Length: 0\r\n\r\n"};
  hg_inbound_req req = {.method = "GET", .target = "/"};
  hg_inbound_resp r;
  assert_int_equal(exchange(&g, &req, 1024, 5000, &r), 0);
  assert_int_equal(r.status, 502);
  hg_inbound_resp_free(&r);
}

static void bounded_body(void **state) {
  guest g = {.answer =
                 "HTTP/1.1 200 OK\r\nContent-Length: 20\r\n\r\n01234567890123456789"};
  hg_inbound_req req = {.method = "GET", .target = "/"};
  hg_inbound_resp r;
  assert_int_equal(exchange(&g, &req, 10, 5000, &r), -ENOBUFS);
  hg_inbound_resp_free(&r);
  /* the same answer fits a larger bound */
  guest g2 = g;
  memset(g2.request, 0, sizeof g2.request);
  g2.request_len = 0;
  assert_int_equal(exchange(&g2, &req, 20, 5000, &r), 0);
  assert_int_equal(r.body.len, 20);
  hg_inbound_resp_free(&r);
}

static void bounded_head(void **state) {
  size_t n = HG_INBOUND_MAX_HEAD + 100;
  char *a = malloc(n + 64);
  assert_non_null(a);
  int k = snprintf(a, 64, "HTTP/1.1 200 OK\r\nX-Big: ");
  memset(a + k, 'a', n);
  strcpy(a + k + n, "\r\n\r\n");
  guest g = {.answer = a};
  hg_inbound_req req = {.method = "GET", .target = "/"};
  hg_inbound_resp r;
  int rc = exchange(&g, &req, 1024, 5000, &r);
  /* llhttp may refuse the line itself first: either way, not accepted */
  assert_true(rc == -ENOBUFS || rc == -EPROTO);
  hg_inbound_resp_free(&r);
  free(a);
}

static void garbage_and_silence_fail(void **state) {
  hg_inbound_req req = {.method = "GET", .target = "/"};
  hg_inbound_resp r;
  guest g = {.answer = "SSH-2.0-OpenSSH_9.2\r\n"};
  assert_int_equal(exchange(&g, &req, 1024, 5000, &r), -EPROTO);
  hg_inbound_resp_free(&r);
  guest e = {.answer = ""}; /* closes without a word */
  assert_int_equal(exchange(&e, &req, 1024, 5000, &r), -EPROTO);
  hg_inbound_resp_free(&r);
  guest cut = {.answer = "HTTP/1.1 200 OK\r\nContent-Length: 10\r\n\r\nshort"};
  assert_int_equal(exchange(&cut, &req, 1024, 5000, &r), -EPROTO);
  hg_inbound_resp_free(&r);
  guest up = {.answer = "HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\n\r\n"};
  assert_int_equal(exchange(&up, &req, 1024, 5000, &r), -EPROTO);
  hg_inbound_resp_free(&r);
  /* a guest that would answer only after a minute: the exchange gives up
   * at its timeout, before the answer (not after it, nor never) */
  guest slow = {.answer = "HTTP/1.1 200 OK\r\n\r\n", .delay_ms = 60000, .no_close = true};
  assert_int_equal(exchange(&slow, &req, 1024, 300, &r), -ETIMEDOUT);
  assert_false(slow.answered_before);
  hg_inbound_resp_free(&r);
}

static void bad_requests_are_refused(void **state) {
  hg_inbound_resp r;
  int sv[2];
  assert_int_equal(socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv), 0);
  hg_inbound_req no_slash = {.method = "GET", .target = "x"};
  assert_int_equal(hg_inbound_exchange(sv[0], &no_slash, 10, 100, &r), -EINVAL);
  hg_inbound_resp_free(&r);
  hg_inbound_req crlf = {.method = "GET", .target = "/a\r\nX-Evil: 1"};
  assert_int_equal(hg_inbound_exchange(sv[0], &crlf, 10, 100, &r), -EINVAL);
  hg_inbound_resp_free(&r);
  hg_inbound_req method = {.method = "G ET", .target = "/"};
  assert_int_equal(hg_inbound_exchange(sv[0], &method, 10, 100, &r), -EINVAL);
  hg_inbound_resp_free(&r);
  /* a header value with a line break is dropped, not sent */
  hg_http_header h[] = {{"x-a", "1\r\nx-evil: 2"}, {"x-b", "2"}};
  guest g = {.answer = "HTTP/1.1 204 No Content\r\n\r\n"};
  hg_inbound_req req = {.method = "GET", .target = "/", .headers = h, .nheaders = 2};
  close(sv[0]);
  close(sv[1]);
  assert_int_equal(exchange(&g, &req, 10, 5000, &r), 0);
  assert_int_equal(r.status, 204);
  assert_null(strstr(g.request, "evil"));
  assert_non_null(strstr(g.request, "\r\nx-b: 2\r\n"));
  hg_inbound_resp_free(&r);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(request_is_rewritten_for_the_guest),
      cmocka_unit_test(chunked_answer_is_decoded_and_headers_filtered),
      cmocka_unit_test(body_until_close_and_interim_answers),
      cmocka_unit_test(head_answer_has_no_body),
      cmocka_unit_test(misdirected_becomes_bad_gateway),
      cmocka_unit_test(bounded_body),
      cmocka_unit_test(bounded_head),
      cmocka_unit_test(garbage_and_silence_fail),
      cmocka_unit_test(bad_requests_are_refused),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
