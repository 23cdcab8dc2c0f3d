/* fuzz_http_request: arbitrary bytes as one client connection to the HTTP
 * server. The bytes go through a socketpair into a real server (adopted
 * with hg_http_server_adopt), so the whole connection machine runs:
 * llhttp, head/body limits, pausing and pipelining, responses whole,
 * deferred and streamed, and every way a connection ends. The client
 * half-closes after its input and reads everything back; an input is done
 * when the server has freed the connection and every deferred answer ran.
 *
 *   fuzz_http_request -max_total_time=30 -max_len=65536 corpus/ seeds/
 */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "api/http.h"
#include "node/core/log.h"

static uv_loop_t loop;
static hg_http_server *srv;
static int deferred_pending;

typedef struct deferred {
  uv_timer_t t;
  hg_http_req *req;
  int kind;
} deferred;

static void deferred_closed(uv_handle_t *h) {
  free(h->data);
  deferred_pending--;
}

static void deferred_fire(uv_timer_t *t) {
  deferred *d = t->data;
  if (d->kind == 1) {
    hg_http_respond(d->req, 202, "text/plain", NULL, "later", 5);
  } else {
    hg_http_stream_write(d->req, "tail", 4);
    hg_http_stream_end(d->req);
  }
  uv_close((uv_handle_t *)t, deferred_closed);
}

static void defer(hg_http_req *req, int kind) {
  deferred *d = calloc(1, sizeof *d);
  if (!d) abort();
  d->req = req;
  d->kind = kind;
  d->t.data = d;
  uv_timer_init(&loop, &d->t);
  uv_timer_start(&d->t, deferred_fire, 0, 0);
  deferred_pending++;
}

/* The answer's shape comes from the request, so the fuzzer reaches all of
 * them: now, later, streamed now, streamed later. */
static void handler(hg_http_server *s, hg_http_req *req, void *ud) {
  char v[64];
  int kind = (int)(strlen(req->path) + req->body_len) % 4;
  (void)hg_http_query_get(req, "a", v, sizeof v);
  (void)hg_http_header_get(req, "host");
  switch (kind) {
  case 0:
    hg_http_respond(req, 200, "text/plain", "X-A: b\r\n", req->body, req->body_len);
    break;
  case 1:
    defer(req, 1);
    break;
  case 2:
    hg_http_stream_start(req, 200, "text/plain", NULL);
    hg_http_stream_write(req, req->path, strlen(req->path));
    hg_http_stream_end(req);
    break;
  default:
    hg_http_stream_start(req, 200, "text/plain", NULL);
    defer(req, 3);
    break;
  }
}

static size_t body_limit(const char *method, const char *path, void *ud) {
  return path[0] == '/' && path[1] == 'u' ? 8192 : 0;
}

static int init(void) {
  hg_log_set_level(HG_LOG_ERROR);
  uv_loop_init(&loop);
  hg_http_options o = {0};
  o.host = "127.0.0.1";
  o.max_body = 1024;
  o.body_limit = body_limit;
  o.handler = handler;
  /* Never reached while the client half-closes, unless the server hangs;
   * then the input ends anyway, late enough to show up as slow. */
  o.header_timeout_ms = o.body_timeout_ms = o.idle_timeout_ms = 2000;
  return hg_http_server_start(&loop, &o, &srv);
}

typedef struct client {
  uv_poll_t poll;
  int fd;
  const uint8_t *data;
  size_t len, off;
  bool eof, closed;
} client;

static void client_closed(uv_handle_t *h) {
  client *c = h->data;
  close(c->fd);
  c->closed = true;
}

static void client_io(uv_poll_t *p, int status, int events) {
  client *c = p->data;
  char buf[65536];
  if (events & UV_WRITABLE) {
    while (c->off < c->len) {
      ssize_t n = send(c->fd, c->data + c->off, c->len - c->off, MSG_NOSIGNAL | MSG_DONTWAIT);
      if (n > 0) {
        c->off += (size_t)n;
        continue;
      }
      if (n < 0 && errno != EAGAIN && errno != EINTR) c->off = c->len; /* server hung up */
      break;
    }
    if (c->off == c->len) shutdown(c->fd, SHUT_WR);
  }
  if (events & (UV_READABLE | UV_DISCONNECT) || status < 0) {
    for (;;) {
      ssize_t n = recv(c->fd, buf, sizeof buf, MSG_DONTWAIT);
      if (n > 0) continue;
      if (n == 0 || (errno != EAGAIN && errno != EINTR)) c->eof = true;
      break;
    }
  }
  int want = (c->eof ? 0 : UV_READABLE) | (c->off < c->len ? UV_WRITABLE : 0);
  if (want) uv_poll_start(p, want, client_io);
  else uv_poll_stop(p);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  static int ready = -1;
  if (ready < 0) ready = init();
  if (ready != 0) abort();

  int sv[2];
  if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv) < 0) abort();
  if (hg_http_server_adopt(srv, sv[1]) < 0) abort();
  client c = {.fd = sv[0], .data = data, .len = size};
  uv_poll_init(&loop, &c.poll, c.fd);
  c.poll.data = &c;
  uv_poll_start(&c.poll, UV_READABLE | UV_WRITABLE, client_io);
  if (size == 0) shutdown(c.fd, SHUT_WR);

  while (hg_http_server_connections(srv) > 0 || deferred_pending > 0 || !c.eof)
    uv_run(&loop, UV_RUN_ONCE);
  uv_close((uv_handle_t *)&c.poll, client_closed);
  while (!c.closed) uv_run(&loop, UV_RUN_NOWAIT);
  return 0;
}
