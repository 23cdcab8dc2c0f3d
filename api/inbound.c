/* inbound: one HTTP exchange with a server in a sandbox. See inbound.h. */
#include "api/inbound.h"

#include <errno.h>
#include <llhttp.h>
#include <poll.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>
#include <sys/socket.h>

#include "node/core/util.h"

#define INBOUND_READ_CHUNK (64u * 1024)
#define INBOUND_NAME_MAX 256

/* Hop-by-hop (RFC 9110 §7.6.1) and what hg_http writes itself. */
static const char *const hop_by_hop[] = {
    "connection",
    "keep-alive",
    "proxy-connection",
    "proxy-authenticate",
    "proxy-authorization",
    "te",
    "trailer",
    "transfer-encoding",
    "upgrade",
    "content-length",
    "host",
    "expect",
};

static bool is_hop_by_hop(const char *name) {
  for (size_t i = 0; i < HG_ARRAY_SIZE(hop_by_hop); i++)
    if (strcasecmp(name, hop_by_hop[i]) == 0) return true;
  return false;
}

static bool is_hangar(const char *name) {
  return strncasecmp(name, "x-hangar-", 9) == 0;
}

int hg_inbound_header_passes(const char *name) {
  /* Authorization is the caller's credential for hangar, not for the guest. */
  return !is_hop_by_hop(name) && !is_hangar(name) &&
         strcasecmp(name, "authorization") != 0;
}

/* Bytes that may appear in a header value or request target we write. */
static bool text_clean(const char *s, bool space_ok) {
  for (; *s; s++) {
    unsigned char c = (unsigned char)*s;
    if (c == '\r' || c == '\n' || c == 0x7f || (c < 0x20 && c != '\t') ||
        (!space_ok && (c == ' ' || c == '\t')))
      return false;
  }
  return true;
}

static bool method_clean(const char *m) {
  if (!*m || strlen(m) > 32) return false;
  for (; *m; m++)
    if (!((*m >= 'A' && *m <= 'Z') || *m == '-' || *m == '_')) return false;
  return true;
}

static int build_request(const hg_inbound_req *req, hg_buf *out) {
  if (!req->method || !method_clean(req->method) || !req->target ||
      req->target[0] != '/' || !text_clean(req->target, false))
    return -EINVAL;
  int rc =
      hg_buf_printf(out, "%s %s HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n",
                    req->method, req->target);
  for (int i = 0; rc == 0 && i < req->nheaders; i++) {
    const hg_http_header *h = &req->headers[i];
    if (!h->name || !h->value || !hg_inbound_header_passes(h->name)) continue;
    if (!*h->name || !text_clean(h->name, false) || !text_clean(h->value, true)) continue;
    rc = hg_buf_printf(out, "%s: %s\r\n", h->name, h->value);
  }
  /* A body always says how long it is; so does a method that has one. */
  bool with_len = req->body_len > 0 || !strcmp(req->method, "POST") ||
                  !strcmp(req->method, "PUT") || !strcmp(req->method, "PATCH");
  if (rc == 0 && with_len)
    rc = hg_buf_printf(out, "Content-Length: %zu\r\n", req->body_len);
  if (rc == 0) rc = hg_buf_append(out, "\r\n", 2);
  return rc == -ENOBUFS ? -EINVAL : rc;
}

/* Waits until fd is ready for events, or the deadline. */
static int wait_fd(int fd, short events, int64_t deadline) {
  for (;;) {
    int64_t left = deadline - hg_now_ms();
    if (left <= 0) return -ETIMEDOUT;
    struct pollfd p = {.fd = fd, .events = events};
    int n = poll(&p, 1, (int)(left > 1000000 ? 1000000 : left));
    if (n > 0) return 0;
    if (n < 0 && errno != EINTR) return -errno;
  }
}

static int send_all(int fd, const char *p, size_t len, int64_t deadline) {
  while (len > 0) {
    ssize_t n = send(fd, p, len, MSG_NOSIGNAL | MSG_DONTWAIT);
    if (n > 0) {
      p += n;
      len -= (size_t)n;
      continue;
    }
    if (n < 0 && errno == EINTR) continue;
    if (n < 0 && errno != EAGAIN && errno != EWOULDBLOCK) return -errno;
    int rc = wait_fd(fd, POLLOUT, deadline);
    if (rc < 0) return rc;
  }
  return 0;
}

/* --- the response --------------------------------------------------------- */

typedef struct parse_ctx {
  hg_inbound_resp *out;
  size_t max_body;
  bool head_request;
  bool done;
  int err;           /* why a callback stopped the parser */
  size_t head_bytes; /* of the response head, against HG_INBOUND_MAX_HEAD */
  char name[INBOUND_NAME_MAX];
  size_t name_len;
  bool name_long;
  hg_buf value;
} parse_ctx;

static int stop(parse_ctx *c, int err) {
  c->err = err;
  return HPE_USER;
}

static int count_head(parse_ctx *c, size_t len) {
  c->head_bytes += len;
  return c->head_bytes > HG_INBOUND_MAX_HEAD ? stop(c, -ENOBUFS) : 0;
}

static int on_header_field(llhttp_t *p, const char *at, size_t len) {
  parse_ctx *c = p->data;
  if (count_head(c, len)) return HPE_USER;
  if (c->name_len + len >= sizeof c->name) {
    c->name_long = true;
    return 0;
  }
  memcpy(c->name + c->name_len, at, len);
  c->name_len += len;
  return 0;
}

static int on_header_value(llhttp_t *p, const char *at, size_t len) {
  parse_ctx *c = p->data;
  if (count_head(c, len)) return HPE_USER;
  return hg_buf_append(&c->value, at, len) < 0 ? stop(c, -ENOBUFS) : 0;
}

/* One header of the guest's answer: kept for the client, or dropped. */
static int on_header_value_complete(llhttp_t *p) {
  parse_ctx *c = p->data;
  int rc = 0;
  c->name[c->name_len] = '\0';
  if (hg_buf_append(&c->value, "", 1) < 0) return stop(c, -ENOBUFS);
  const char *v = c->value.data;
  /* llhttp keeps trailing whitespace of a value (OWS): drop it. */
  size_t vlen = strlen(v);
  while (vlen && (v[vlen - 1] == ' ' || v[vlen - 1] == '\t'))
    c->value.data[--vlen] = '\0';
  bool keep = !c->name_long && c->name_len > 0 && text_clean(c->name, false) &&
              text_clean(v, true) && !is_hop_by_hop(c->name) && !is_hangar(c->name) &&
              strcasecmp(c->name, "date") != 0;
  if (keep && strcasecmp(c->name, "content-type") == 0) {
    if (vlen < sizeof c->out->content_type) memcpy(c->out->content_type, v, vlen + 1);
  } else if (keep) {
    rc = hg_buf_printf(&c->out->headers, "%s: %s\r\n", c->name, v);
  }
  c->name_len = 0;
  c->name_long = false;
  hg_buf_reset(&c->value);
  return rc < 0 ? stop(c, -ENOBUFS) : 0;
}

static void reset_head(parse_ctx *c) {
  hg_buf_reset(&c->out->headers);
  c->out->content_type[0] = '\0';
  c->name_len = 0;
  c->name_long = false;
  hg_buf_reset(&c->value);
}

static int on_message_begin(llhttp_t *p) {
  reset_head(p->data); /* after an interim 1xx: the final answer's head only */
  return 0;
}

static int on_headers_complete(llhttp_t *p) {
  parse_ctx *c = p->data;
  int st = p->status_code;
  if (st == 101 || st < 100 || st > 999) return stop(c, -EPROTO); /* no upgrades */
  if (st < 200) return 0;
  c->out->status = st;
  /* An answer to HEAD has headers only, whatever its Content-Length says. */
  return c->head_request ? 1 : 0;
}

static int on_body(llhttp_t *p, const char *at, size_t len) {
  parse_ctx *c = p->data;
  if (c->out->body.len + len > c->max_body) return stop(c, -ENOBUFS);
  return hg_buf_append(&c->out->body, at, len) < 0 ? stop(c, -ENOBUFS) : 0;
}

static int on_message_complete(llhttp_t *p) {
  parse_ctx *c = p->data;
  if (p->status_code >= 200) {
    c->done = true;
    return HPE_PAUSED; /* nothing after the answer interests us */
  }
  return 0;
}

static const llhttp_settings_t resp_settings = {
    .on_message_begin = on_message_begin,
    .on_header_field = on_header_field,
    .on_header_value = on_header_value,
    .on_header_value_complete = on_header_value_complete,
    .on_headers_complete = on_headers_complete,
    .on_body = on_body,
    .on_message_complete = on_message_complete,
};

static int parse_error(parse_ctx *c, llhttp_errno_t e) {
  if (e == HPE_OK || (e == HPE_PAUSED && c->done)) return 0;
  return c->err ? c->err : -EPROTO;
}

static int read_response(int fd, parse_ctx *c, int64_t deadline) {
  llhttp_t parser;
  llhttp_init(&parser, HTTP_RESPONSE, &resp_settings);
  parser.data = c;
  static __thread char buf[INBOUND_READ_CHUNK];
  bool any = false;
  while (!c->done) {
    ssize_t n = recv(fd, buf, sizeof buf, MSG_DONTWAIT);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) {
      int rc = wait_fd(fd, POLLIN, deadline);
      if (rc < 0) return rc;
      continue;
    }
    if (n < 0) return any ? -EPROTO : -errno;
    if (n == 0) { /* the guest closed: the body ends here when it had no length */
      if (!any) return -EPROTO;
      int rc = parse_error(c, llhttp_finish(&parser));
      return rc == 0 && !c->done ? -EPROTO : rc;
    }
    any = true;
    int rc = parse_error(c, llhttp_execute(&parser, buf, (size_t)n));
    if (rc < 0) return rc;
  }
  return 0;
}

int hg_inbound_exchange(int fd, const hg_inbound_req *req, size_t max_body,
                        int timeout_ms, hg_inbound_resp *out) {
  memset(out, 0, sizeof *out);
  hg_buf_init(&out->headers, HG_INBOUND_MAX_HEAD);
  hg_buf_init(&out->body, max_body);
  if (!req) return -EINVAL;
  int64_t deadline = hg_now_ms() + (timeout_ms > 0 ? timeout_ms : 1);
  hg_buf head;
  hg_buf_init(&head, HG_INBOUND_MAX_HEAD);
  int rc = build_request(req, &head);
  if (rc == 0) rc = send_all(fd, head.data, head.len, deadline);
  if (rc == 0 && req->body_len) rc = send_all(fd, req->body, req->body_len, deadline);
  hg_buf_free(&head);
  if (rc == -EINVAL || rc == -ETIMEDOUT) return rc;
  /* A guest that answers before reading the whole body (413, 401) and
   * hangs up has still answered: read what it said. */
  parse_ctx c = {
      .out = out, .max_body = max_body, .head_request = strcmp(req->method, "HEAD") == 0};
  hg_buf_init(&c.value, HG_INBOUND_MAX_HEAD);
  int rrc = read_response(fd, &c, deadline);
  hg_buf_free(&c.value);
  if (rrc == 0 && out->status == 421)
    out->status = 502; /* the forwarder's signal is ours */
  return rrc < 0 && rc < 0 ? rc : rrc;
}

void hg_inbound_resp_free(hg_inbound_resp *r) {
  hg_buf_free(&r->headers);
  hg_buf_free(&r->body);
}
