/* http: HTTP/1.1 server on libuv + llhttp.
 *
 * One request per connection is in flight at a time: llhttp is paused when
 * a head is complete (to check limits before any body byte is read) and
 * when a message is complete (so pipelined requests wait, in order, until
 * the current response is finished). Bytes that arrive meanwhile stay in
 * the connection's input buffer, which is bounded; when it is full we stop
 * reading.
 *
 * Lifetimes: a connection (hg_http_conn) owns its uv handles and is freed
 * when the last of them has closed. A request (http_req) is owned by its
 * connection until it is handed to the handler, then by the handler until
 * hg_http_respond / hg_http_stream_end. If the client goes first, the
 * request is detached (conn = NULL) and those calls only free it.
 */
#include "api/http.h"

#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <llhttp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>

#include "api/tls.h"
#include "node/core/buf.h"
#include "node/core/closer.h"
#include "node/core/list.h"
#include "node/core/log.h"

#define HG_HTTP_READ_BUF (64u * 1024)      /* per-connection input buffer */
#define HG_HTTP_OUT_HIGH (64u * 1024)      /* unsent bytes above which the next request waits */
#define HG_HTTP_MAX_RESP_HEAD (64u * 1024) /* our own response head, extra headers included */
#define HG_HTTP_LINGER_MS 2000             /* reading (and dropping) after our close */
#define HG_HTTP_LINGER_MAX (4u * 1024 * 1024) /* ... and at most this much of it */
#define HG_HTTP_MAX_REJECTING 64           /* connections being told 503 at once */
#define HG_HTTP_DEFAULT_MAX_CONNS 4096

typedef struct http_conn http_conn;
typedef struct http_req http_req;

enum conn_state {
  C_IDLE,    /* between requests, no byte of the next one parsed yet */
  C_HEAD,    /* reading a request head */
  C_HELD,    /* head complete, the on_head hook deciding: the body waits */
  C_BODY,    /* reading a request body */
  C_WAIT,    /* request with the handler, or its response still flushing */
  C_CLOSING, /* last response queued: flush, shut down, linger, close */
};

enum parse_event { EV_NONE, EV_HEAD, EV_MESSAGE };

struct http_req {
  hg_http_req pub; /* first: the handler sees only this */
  http_conn *conn; /* NULL once the client is gone */
  hg_buf head;     /* target, header names and values, path, query: NUL-separated */
  hg_buf body;
  uint32_t hoff[HG_HTTP_MAX_HEADERS][2]; /* name/value offsets into head while parsing */
  size_t field_off, value_off;
  bool in_field, in_value;
  bool dispatched, streaming, chunked, is_head, http10, keepalive;
  bool held;   /* the on_head hook holds it: its body is not read yet */
  size_t piece;   /* hg_http_body_stream: bytes per piece, 0 for whole */
  uint64_t total; /* body bytes read so far, pieces included */
  uint64_t limit;
  bool handed; /* the hook held it once: the handler side owns it from then on */
};

struct http_conn {
  uv_tcp_t tcp;
  uv_timer_t timer;
  uv_shutdown_t shut;
  hg_http_server *srv;
  http_conn *prev, *next;
  llhttp_t parser;
  enum conn_state state;
  enum parse_event event;
  http_req *req;       /* being parsed, or with the handler */
  char *in;            /* HG_HTTP_READ_BUF bytes, freed while idle */
  size_t in_off;       /* parsed up to here */
  size_t in_len;       /* received up to here */
  size_t head_used;    /* bytes of the current head given to llhttp */
  size_t body_raw;     /* bytes of the current chunked body on the wire */
  size_t lingered;     /* bytes dropped while lingering */
  uint64_t head_deadline;
  unsigned nreqs;
  hg_closer closer;    /* tcp and timer; frees c (conn_free) */
  int fail_status;     /* set by a parser callback that refuses the request */
  const char *fail_code, *fail_msg;
  bool reading, closing, dead, eof, shut_done, in_process, kick, exec_again;
  bool piece_wait; /* a body piece is with on_body_piece: parse no further */
  bool keepalive; /* of the response being sent */
  bool rejecting; /* accepted over max_connections: gets 503 */
};

struct hg_http_server {
  uv_loop_t *loop;
  uv_tcp_t listener;
  uv_timer_t grace;
  hg_http_options opt;
  unsigned header_ms, body_ms, idle_ms;
  http_conn *conns;
  unsigned nconns, nrejecting;
  hg_closer closer; /* listener and grace; frees srv */
  bool shutting_down, grace_closing;
  time_t date_sec;
  char date[40];
};

static const llhttp_settings_t parser_settings;
static void conn_process(http_conn *c);
static void conn_close(http_conn *c);
static void conn_finish(http_conn *c);
static void conn_arm_timer(http_conn *c);
static void srv_maybe_finish(hg_http_server *srv);
static void conn_next(http_conn *c);
static void on_conn_timer(uv_timer_t *t);
static int conn_body_begin(http_conn *c, http_req *r, size_t limit);
static bool body_too_large(const llhttp_t *p, size_t limit);
static void conn_piece(http_conn *c);

/* ---- small helpers ---- */

static const char *status_reason(int status) {
  switch (status) {
  case 100: return "Continue";
  case 200: return "OK";
  case 201: return "Created";
  case 202: return "Accepted";
  case 204: return "No Content";
  case 206: return "Partial Content";
  case 301: return "Moved Permanently";
  case 302: return "Found";
  case 304: return "Not Modified";
  case 307: return "Temporary Redirect";
  case 400: return "Bad Request";
  case 401: return "Unauthorized";
  case 403: return "Forbidden";
  case 404: return "Not Found";
  case 405: return "Method Not Allowed";
  case 408: return "Request Timeout";
  case 409: return "Conflict";
  case 410: return "Gone";
  case 411: return "Length Required";
  case 412: return "Precondition Failed";
  case 413: return "Payload Too Large";
  case 415: return "Unsupported Media Type";
  case 416: return "Range Not Satisfiable";
  case 417: return "Expectation Failed";
  case 421: return "Misdirected Request";
  case 422: return "Unprocessable Entity";
  case 423: return "Locked";
  case 429: return "Too Many Requests";
  case 431: return "Request Header Fields Too Large";
  case 500: return "Internal Server Error";
  case 501: return "Not Implemented";
  case 502: return "Bad Gateway";
  case 503: return "Service Unavailable";
  case 504: return "Gateway Timeout";
  case 505: return "HTTP Version Not Supported";
  case 507: return "Insufficient Storage";
  default: return status < 400 ? "OK" : status < 500 ? "Client Error" : "Server Error";
  }
}

/* IMF-fixdate, recomputed once a second; strftime would follow the locale. */
static const char *srv_date(hg_http_server *srv) {
  static const char days[7][4] = {"Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"};
  static const char months[12][4] = {"Jan", "Feb", "Mar", "Apr", "May", "Jun",
                                     "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"};
  time_t now = time(NULL);
  if (now != srv->date_sec) {
    struct tm tm;
    gmtime_r(&now, &tm);
    snprintf(srv->date, sizeof srv->date, "%s, %02d %s %04d %02d:%02d:%02d GMT",
             days[tm.tm_wday % 7], tm.tm_mday, months[tm.tm_mon % 12], tm.tm_year + 1900,
             tm.tm_hour, tm.tm_min, tm.tm_sec);
    srv->date_sec = now;
  }
  return srv->date;
}

static int hexval(unsigned char ch) {
  if (ch >= '0' && ch <= '9') return ch - '0';
  if (ch >= 'a' && ch <= 'f') return ch - 'a' + 10;
  if (ch >= 'A' && ch <= 'F') return ch - 'A' + 10;
  return -1;
}

/* Percent-decodes src[0..len) into out (at least len+1 bytes when cap is
 * enough). A NUL, encoded or not, is refused: every consumer treats these
 * as C strings and a hidden NUL would make two of them disagree. */
static int pct_decode(const char *src, size_t len, bool plus_is_space, char *out, size_t cap,
                      size_t *out_len) {
  size_t o = 0;
  for (size_t i = 0; i < len; i++) {
    unsigned char ch = (unsigned char)src[i];
    if (ch == '%') {
      if (i + 2 >= len) return -EINVAL;
      int hi = hexval((unsigned char)src[i + 1]), lo = hexval((unsigned char)src[i + 2]);
      if (hi < 0 || lo < 0) return -EINVAL;
      ch = (unsigned char)(hi << 4 | lo);
      i += 2;
    } else if (ch == '+' && plus_is_space) {
      ch = ' ';
    }
    if (ch == '\0') return -EINVAL;
    if (o + 1 >= cap) return -ENOBUFS;
    out[o++] = (char)ch;
  }
  if (o >= cap) return -ENOBUFS;
  out[o] = '\0';
  if (out_len) *out_len = o;
  return 0;
}

/* RFC 9110 token (tchar+). */
static bool is_token(const char *s, size_t n) {
  static const char extra[] = "!#$%&'*+-.^_`|~";
  for (size_t i = 0; i < n; i++) {
    unsigned char ch = (unsigned char)s[i];
    bool ok = (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') || (ch >= '0' && ch <= '9') ||
              (ch && strchr(extra, ch));
    if (!ok) return false;
  }
  return n > 0;
}

/* ---- connection list and server bookkeeping ---- */

static void srv_link(hg_http_server *srv, http_conn *c) {
  HG_LIST_PUSH(srv->conns, c);
}

static void srv_unlink(hg_http_server *srv, http_conn *c) {
  HG_LIST_UNLINK(srv->conns, c);
}

/* ---- requests ---- */

static http_req *req_new(void) {
  http_req *r = calloc(1, sizeof *r);
  if (!r) return NULL;
  /* Stored strings are never longer than the raw head plus their NULs and
   * the decoded path, so twice the head limit is a bound, not a guess. */
  hg_buf_init(&r->head, 2 * HG_HTTP_MAX_HEADER);
  hg_buf_init(&r->body, 0);
  return r;
}

static void req_free(http_req *r) {
  if (!r) return;
  hg_buf_free(&r->head);
  hg_buf_free(&r->body);
  free(r);
}

/* ---- writing ---- */

typedef struct http_write {
  uv_write_t w;
  http_conn *conn;
  char data[];
} http_write;

/* The socket failed under us from user context (a handler's call): close on
 * the next loop turn so no callback of ours re-enters the handler. */
static void conn_die_soon(http_conn *c) {
  if (c->closing || c->dead) return;
  c->dead = true;
  c->kick = false;
  uv_read_stop((uv_stream_t *)&c->tcp);
  c->reading = false;
  uv_timer_start(&c->timer, on_conn_timer, 0, 0);
}

static void on_write(uv_write_t *w, int status) {
  http_write *wr = (http_write *)w;
  http_conn *c = wr->conn;
  free(wr);
  if (c->closing) return;
  if (status < 0) {
    hg_log_debug("http.write_failed", "err=%s", uv_err_name(status));
    conn_close(c);
    return;
  }
  if (c->dead) return;
  /* A completed write is progress: the send-stall timer starts over. */
  if (c->state == C_WAIT || (c->state == C_CLOSING && !c->shut_done)) conn_arm_timer(c);
  /* A finished response may have held the next request back until its
   * bytes drained; see conn_next. */
  if (c->state == C_WAIT && !c->req) conn_next(c);
}

/* Queues a..c concatenated as one write. */
static int conn_send(http_conn *c, const void *a, size_t alen, const void *b, size_t blen,
                     const void *t, size_t tlen) {
  if (c->closing || c->dead) return -EPIPE;
  size_t total = alen + blen + tlen;
  if (total > UINT_MAX) return -EFBIG; /* uv_buf_t length is 32-bit */
  http_write *wr = malloc(sizeof *wr + total);
  if (!wr) return -ENOMEM;
  wr->conn = c;
  if (alen) memcpy(wr->data, a, alen);
  if (blen) memcpy(wr->data + alen, b, blen);
  if (tlen) memcpy(wr->data + alen + blen, t, tlen);
  uv_buf_t buf = uv_buf_init(wr->data, (unsigned)total);
  int rc = uv_write(&wr->w, (uv_stream_t *)&c->tcp, &buf, 1, on_write);
  if (rc < 0) {
    free(wr);
    return rc;
  }
  if ((c->state == C_WAIT || c->state == C_CLOSING) && !uv_is_active((uv_handle_t *)&c->timer))
    conn_arm_timer(c);
  return 0;
}

/* Appends the status line and our headers. clen < 0: no Content-Length. */
static int fmt_head(hg_buf *h, hg_http_server *srv, int status, const char *ctype,
                    const char *extra, int64_t clen, bool chunked, bool keepalive, bool http10) {
  int rc = hg_buf_printf(h, "HTTP/1.1 %d %s\r\nDate: %s\r\n", status, status_reason(status),
                         srv_date(srv));
  if (rc == 0 && ctype) rc = hg_buf_printf(h, "Content-Type: %s\r\n", ctype);
  if (rc == 0 && clen >= 0) rc = hg_buf_printf(h, "Content-Length: %" PRId64 "\r\n", clen);
  if (rc == 0 && chunked) rc = hg_buf_printf(h, "Transfer-Encoding: chunked\r\n");
  if (rc == 0 && !keepalive) rc = hg_buf_printf(h, "Connection: close\r\n");
  else if (rc == 0 && http10) rc = hg_buf_printf(h, "Connection: keep-alive\r\n");
  if (rc == 0 && extra) rc = hg_buf_append(h, extra, strlen(extra));
  if (rc == 0) rc = hg_buf_append(h, "\r\n", 2);
  return rc;
}

static void json_escape(hg_buf *b, const char *s) {
  for (; *s; s++) {
    unsigned char ch = (unsigned char)*s;
    if (ch == '"' || ch == '\\') hg_buf_printf(b, "\\%c", ch);
    else if (ch < 0x20) hg_buf_printf(b, "\\u%04x", ch);
    else hg_buf_append(b, s, 1);
  }
}

/* ---- timers ---- */

/* One timer per connection; what it means depends on the state. */
static void conn_arm_timer(http_conn *c) {
  hg_http_server *srv = c->srv;
  uint64_t now = uv_now(srv->loop), ms;
  if (c->closing || c->dead) return;
  c->kick = false;
  switch (c->state) {
  case C_IDLE:
    ms = c->nreqs ? srv->idle_ms : (c->head_deadline > now ? c->head_deadline - now : 0);
    break;
  case C_HEAD: /* a deadline, so a trickle of bytes cannot push it back */
    ms = c->head_deadline > now ? c->head_deadline - now : 0;
    break;
  case C_BODY: /* inactivity: re-armed on every read */
    if (c->piece_wait) { /* the consumer has no deadline (as C_WAIT) */
      uv_timer_stop(&c->timer);
      return;
    }
    ms = srv->body_ms;
    break;
  case C_HELD: /* as C_WAIT: the hook decides, the client must still read */
  case C_WAIT: /* the handler has no deadline; a client not reading has */
    if (uv_stream_get_write_queue_size((uv_stream_t *)&c->tcp) == 0) {
      uv_timer_stop(&c->timer);
      return;
    }
    ms = srv->idle_ms;
    break;
  case C_CLOSING:
  default:
    ms = c->shut_done ? (srv->idle_ms < HG_HTTP_LINGER_MS ? srv->idle_ms : HG_HTTP_LINGER_MS)
                      : srv->idle_ms;
    break;
  }
  uv_timer_start(&c->timer, on_conn_timer, ms, 0);
}

/* ---- closing ---- */

static void conn_free(void *cv) {
  http_conn *c = cv;
  hg_http_server *srv = c->srv;
  srv_unlink(srv, c);
  if (c->rejecting) srv->nrejecting--;
  else srv->nconns--;
  req_free(c->req); /* only a request still being parsed is left here */
  free(c->in);
  free(c);
  srv_maybe_finish(srv);
}

static void on_conn_closed(uv_handle_t *h) {
  http_conn *c = h->data;
  hg_closer_closed(&c->closer);
}

/* Lets go of the current request: one the handler side owns (dispatched,
 * or held once by the on_head hook) is detached and its on_abort called;
 * one only we know of is freed. */
static void conn_drop_req(http_conn *c) {
  http_req *r = c->req;
  if (!r) return;
  c->req = NULL;
  if (!r->dispatched && !r->handed) {
    req_free(r);
    return;
  }
  r->conn = NULL;
  if (c->srv->opt.on_abort) c->srv->opt.on_abort(&r->pub, c->srv->opt.ud);
}

/* Closes now, dropping unsent bytes. A request the handler holds is
 * detached and its on_abort called. */
static void conn_close(http_conn *c) {
  if (c->closing) return;
  c->closing = true;
  http_req *r = c->req;
  if (r && (r->dispatched || r->handed)) conn_drop_req(c);
  uv_close((uv_handle_t *)&c->timer, on_conn_closed);
  uv_close((uv_handle_t *)&c->tcp, on_conn_closed);
}

static void on_shutdown(uv_shutdown_t *s, int status) {
  http_conn *c = s->data;
  if (c->closing) return;
  if (status < 0 || c->eof) {
    conn_close(c);
    return;
  }
  /* Closing with unread bytes in our receive queue would send RST and could
   * destroy the response we just sent (the 413 before a big body, say), so
   * read and drop what the client still sends, for a while. */
  c->shut_done = true;
  conn_arm_timer(c);
}

static void on_alloc(uv_handle_t *h, size_t suggested, uv_buf_t *buf);
static void on_read(uv_stream_t *s, ssize_t nread, const uv_buf_t *buf);

/* Reads while there is room, or while lingering; stops otherwise. */
static void conn_update_read(http_conn *c) {
  if (c->closing) return;
  bool want = !c->dead && !c->eof;
  if (want && c->state != C_CLOSING) want = c->in_len - c->in_off < HG_HTTP_READ_BUF;
  if (want && !c->reading) {
    if (uv_read_start((uv_stream_t *)&c->tcp, on_alloc, on_read) == 0) c->reading = true;
  } else if (!want && c->reading) {
    uv_read_stop((uv_stream_t *)&c->tcp);
    c->reading = false;
  }
}

/* Graceful close after what is queued: flush, shut down, linger, close. */
static void conn_finish(http_conn *c) {
  if (c->closing || c->state == C_CLOSING) return;
  if (c->req && !c->req->dispatched) conn_drop_req(c);
  c->state = C_CLOSING;
  c->in_off = c->in_len = 0;
  c->shut.data = c;
  if (uv_shutdown(&c->shut, (uv_stream_t *)&c->tcp, on_shutdown) < 0) {
    conn_close(c);
    return;
  }
  conn_arm_timer(c);
  conn_update_read(c);
}

/* Answers a request we refuse ourselves (4xx/5xx JSON) and closes. */
static void conn_fail(http_conn *c, int status, const char *code, const char *msg) {
  if (c->closing || c->dead || c->state == C_CLOSING || c->state == C_WAIT ||
      c->state == C_HELD)
    return;
  hg_log_debug("http.refused", "status=%d code=%s msg=\"%s\"", status, code, msg);
  hg_buf body, head;
  hg_buf_init(&body, 4096);
  hg_buf_init(&head, HG_HTTP_MAX_RESP_HEAD);
  hg_buf_printf(&body, "{\"error\":{\"code\":\"%s\",\"message\":\"", code);
  json_escape(&body, msg);
  hg_buf_printf(&body, "\"}}");
  c->keepalive = false;
  if (fmt_head(&head, c->srv, status, "application/json", NULL, (int64_t)body.len, false, false,
               false) == 0)
    conn_send(c, head.data, head.len, body.data, body.len, NULL, 0);
  hg_buf_free(&head);
  hg_buf_free(&body);
  conn_finish(c);
}

static void on_conn_timer(uv_timer_t *t) {
  http_conn *c = t->data;
  if (c->closing) return;
  if (c->dead) {
    conn_close(c);
    return;
  }
  if (c->kick) { /* pipelined input waiting since an async response finished */
    c->kick = false;
    conn_arm_timer(c);
    conn_process(c);
    return;
  }
  switch (c->state) {
  case C_HEAD:
    conn_fail(c, 408, "request_timeout", "request head not received in time");
    break;
  case C_BODY:
    conn_fail(c, 408, "request_timeout", "request body stalled");
    break;
  case C_IDLE:    /* keep-alive over, or a connection that never spoke */
  case C_HELD:    /* the client does not read what we send */
  case C_WAIT:    /* the client does not read what we send */
  case C_CLOSING: /* lingering over, or the client never read our last words */
  default:
    conn_close(c);
    break;
  }
}

/* ---- after a response ---- */

/* The handler finished the current request: go on with the next one once
 * the output has mostly drained (so a client that pipelines without
 * reading cannot make us queue unbounded responses). */
static void conn_next(http_conn *c) {
  if (c->closing || c->dead || c->state != C_WAIT || c->req) return;
  if (!c->keepalive || c->srv->shutting_down) {
    conn_finish(c);
    return;
  }
  if (uv_stream_get_write_queue_size((uv_stream_t *)&c->tcp) > HG_HTTP_OUT_HIGH) return;
  llhttp_resume(&c->parser);
  c->state = C_IDLE;
  c->head_used = 0;
  conn_arm_timer(c);
  if (c->in_process) return; /* the parse loop below us carries on */
  if (c->in_off < c->in_len) {
    /* Parse on the next loop turn, not inside the caller (often a handler
     * calling hg_http_respond) so handlers never nest. */
    c->kick = true;
    uv_timer_start(&c->timer, on_conn_timer, 0, 0);
  } else if (c->in) {
    free(c->in); /* idle keep-alive connections hold no buffer */
    c->in = NULL;
    c->in_off = c->in_len = 0;
  }
  conn_update_read(c);
}

/* ---- parsing ---- */

static void req_set_fail(http_conn *c, int status, const char *code, const char *msg) {
  c->fail_status = status;
  c->fail_code = code;
  c->fail_msg = msg;
}

static int on_message_begin(llhttp_t *p) {
  http_conn *c = p->data;
  if (c->req) { /* cannot happen: we pause at every message end */
    req_set_fail(c, 400, "bad_request", "unexpected message");
    return -1;
  }
  c->req = req_new();
  if (!c->req) {
    req_set_fail(c, 503, "unavailable", "out of memory");
    return -1;
  }
  c->req->conn = c;
  c->state = C_HEAD;
  /* The first request's deadline runs from accept, so a client cannot
   * connect, wait, then trickle. */
  if (c->nreqs) c->head_deadline = uv_now(c->srv->loop) + c->srv->header_ms;
  conn_arm_timer(c);
  return 0;
}

static int head_append(http_conn *c, const char *at, size_t len) {
  if (hg_buf_append(&c->req->head, at, len) == 0) return 0;
  req_set_fail(c, 431, "header_too_large", "request head too large");
  return -1;
}

static int on_url(llhttp_t *p, const char *at, size_t len) {
  return head_append(p->data, at, len);
}

static int on_url_complete(llhttp_t *p) { return head_append(p->data, "", 1); }

static int on_header_field(llhttp_t *p, const char *at, size_t len) {
  http_conn *c = p->data;
  if (c->state != C_HEAD) return 0; /* trailers: dropped */
  http_req *r = c->req;
  if (!r->in_field) {
    r->field_off = r->head.len;
    r->in_field = true;
  }
  size_t from = r->head.len;
  if (head_append(c, at, len) < 0) return -1;
  for (size_t i = from; i < r->head.len; i++)
    if (r->head.data[i] >= 'A' && r->head.data[i] <= 'Z') r->head.data[i] += 'a' - 'A';
  return 0;
}

static int on_header_field_complete(llhttp_t *p) {
  http_conn *c = p->data;
  if (c->state != C_HEAD) return 0;
  if (c->req->pub.nheaders >= HG_HTTP_MAX_HEADERS) {
    req_set_fail(c, 431, "header_too_large", "too many header fields");
    return -1;
  }
  http_req *r = c->req;
  /* llhttp 8 in loose mode lets "Bad Name:" through; a proxy in front of
   * us may read such a header differently (RFC 9112 5.1: reject). */
  if (!r->in_field || !is_token(r->head.data + r->field_off, r->head.len - r->field_off)) {
    req_set_fail(c, 400, "bad_request", "invalid header field name");
    return -1;
  }
  r->in_field = false;
  return head_append(c, "", 1);
}

static int on_header_value(llhttp_t *p, const char *at, size_t len) {
  http_conn *c = p->data;
  if (c->state != C_HEAD) return 0;
  http_req *r = c->req;
  if (!r->in_value) {
    r->value_off = r->head.len;
    r->in_value = true;
  }
  return head_append(c, at, len);
}

static int on_header_value_complete(llhttp_t *p) {
  http_conn *c = p->data;
  if (c->state != C_HEAD) return 0;
  http_req *r = c->req;
  if (!r->in_value) r->value_off = r->head.len; /* empty value */
  /* llhttp drops leading whitespace but keeps trailing (RFC 9110: OWS). */
  while (r->head.len > r->value_off &&
         (r->head.data[r->head.len - 1] == ' ' || r->head.data[r->head.len - 1] == '\t'))
    r->head.len--;
  if (head_append(c, "", 1) < 0) return -1;
  int i = r->pub.nheaders++;
  r->hoff[i][0] = (uint32_t)r->field_off;
  r->hoff[i][1] = (uint32_t)r->value_off;
  r->in_value = false;
  return 0;
}

static int on_headers_complete(llhttp_t *p) {
  ((http_conn *)p->data)->event = EV_HEAD;
  return HPE_PAUSED;
}

static int on_body(llhttp_t *p, const char *at, size_t len) {
  http_conn *c = p->data;
  http_req *r = c->req;
  if (r->piece && r->total + len > r->limit) { /* the buffer holds a piece only */
    req_set_fail(c, 413, "too_large", "request body too large");
    return -1;
  }
  r->total += len;
  int rc = hg_buf_append(&r->body, at, len);
  if (rc == -ENOBUFS) req_set_fail(c, 413, "too_large", "request body too large");
  else if (rc < 0) req_set_fail(c, 503, "unavailable", "out of memory");
  return rc < 0 ? -1 : 0;
}

static int on_message_complete(llhttp_t *p) {
  ((http_conn *)p->data)->event = EV_MESSAGE;
  return HPE_PAUSED;
}

static const llhttp_settings_t parser_settings = {
    .on_message_begin = on_message_begin,
    .on_url = on_url,
    .on_url_complete = on_url_complete,
    .on_header_field = on_header_field,
    .on_header_field_complete = on_header_field_complete,
    .on_header_value = on_header_value,
    .on_header_value_complete = on_header_value_complete,
    .on_headers_complete = on_headers_complete,
    .on_body = on_body,
    .on_message_complete = on_message_complete,
};

/* Splits the request target into path and query, decodes the path, and
 * points the public fields into the head buffer. */
static int req_finish_head(http_req *r) {
  const char *t = r->head.data;
  size_t tlen = strlen(t);
  size_t ps = 0, pe, qs, qe;
  if (tlen == 1 && t[0] == '*') {
    ps = 0;
  } else if (t[0] == '/') {
    ps = 0;
  } else if (!strncasecmp(t, "http://", 7) || !strncasecmp(t, "https://", 8)) {
    /* absolute-form: skip scheme and authority */
    const char *auth = strstr(t, "//") + 2;
    ps = (size_t)(auth - t) + strcspn(auth, "/?#");
  } else {
    return -EINVAL;
  }
  pe = ps + strcspn(t + ps, "?#");
  qs = qe = pe;
  if (t[pe] == '?') {
    qs = pe + 1;
    qe = qs + strcspn(t + qs, "#");
  }
  /* Built aside, then appended once: appending from head into itself
   * would read freed memory when the buffer moves. decoded <= raw, and a
   * bare authority gets "/". */
  size_t qlen = qe - qs, plen = 1;
  char *tmp = malloc(pe - ps + qlen + 3);
  if (!tmp) return -ENOMEM;
  int rc = 0;
  if (pe > ps) rc = pct_decode(t + ps, pe - ps, false, tmp, pe - ps + 2, &plen);
  else memcpy(tmp, "/", 2);
  if (rc < 0) {
    free(tmp);
    return rc;
  }
  memcpy(tmp + plen + 1, t + qs, qlen);
  tmp[plen + 1 + qlen] = '\0';
  size_t poff = r->head.len, qoff = poff + plen + 1;
  rc = hg_buf_append(&r->head, tmp, plen + qlen + 2);
  free(tmp);
  if (rc < 0) return rc;
  char *base = r->head.data; /* final: head does not grow after this */
  r->pub.target = base;
  r->pub.path = base + poff;
  r->pub.query = base + qoff;
  for (int i = 0; i < r->pub.nheaders; i++) {
    r->pub.headers[i].name = base + r->hoff[i][0];
    r->pub.headers[i].value = base + r->hoff[i][1];
  }
  return 0;
}

static size_t conn_body_limit(http_conn *c, http_req *r) {
  hg_http_server *srv = c->srv;
  size_t lim = 0;
  if (srv->opt.body_limit) lim = srv->opt.body_limit(r->pub.method, r->pub.path, srv->opt.ud);
  return lim ? lim : srv->opt.max_body;
}

/* Head complete (llhttp paused right after it): decide before the body. */
static int conn_on_head(http_conn *c) {
  llhttp_t *p = &c->parser;
  http_req *r = c->req;
  if (p->http_major != 1 || p->http_minor > 1) {
    conn_fail(c, 505, "http_version_not_supported", "only HTTP/1.0 and HTTP/1.1 are supported");
    return -1;
  }
  if (p->method == HTTP_CONNECT) {
    conn_fail(c, 400, "bad_request", "CONNECT is not supported");
    return -1;
  }
  r->pub.method = llhttp_method_name((llhttp_method_t)p->method);
  r->http10 = p->http_minor == 0;
  r->is_head = p->method == HTTP_HEAD;
  /* We never switch protocols, so after an Upgrade request the bytes that
   * follow are not HTTP we can parse: close after answering. */
  r->keepalive = llhttp_should_keep_alive(p) && !p->upgrade;
  int rc = req_finish_head(r);
  if (rc == -EINVAL) {
    conn_fail(c, 400, "bad_request", "invalid request target");
    return -1;
  } else if (rc < 0) {
    conn_fail(c, 431, "header_too_large", "request head too large");
    return -1;
  }
  const char *expect = hg_http_header_get(&r->pub, "expect");
  if (expect && !r->http10 && strcasecmp(expect, "100-continue") != 0) {
    conn_fail(c, 417, "expectation_failed", "unsupported expectation");
    return -1;
  }
  if (!c->srv->opt.on_head) return conn_body_begin(c, r, conn_body_limit(c, r));
  /* Held while the hook runs, so that an answer it gives right away
   * closes the connection instead of reading a body nobody wants. */
  r->held = r->handed = true;
  c->state = C_HELD;
  size_t limit = c->srv->opt.on_head(&r->pub, c->srv->opt.ud);
  if (limit == 0) {
    if (c->state == C_HELD) conn_arm_timer(c); /* not answered yet */
    return -1; /* stop parsing: the hook answers or calls hg_http_body_read */
  }
  r->held = r->handed = false;
  c->state = C_HEAD; /* ours again: a 413 is for conn_fail to send */
  return conn_body_begin(c, r, limit);
}

static bool body_too_large(const llhttp_t *p, size_t limit) {
  return !(p->flags & F_CHUNKED) && (p->flags & F_CONTENT_LENGTH) && p->content_length > limit;
}

/* The head is accepted: 413 now if the announced body is over limit, else
 * 100 Continue if the client waits for it, and read the body. */
static int conn_body_begin(http_conn *c, http_req *r, size_t limit) {
  llhttp_t *p = &c->parser;
  if (body_too_large(p, limit)) {
    conn_fail(c, 413, "too_large", "request body too large");
    return -1;
  }
  const char *expect = hg_http_header_get(&r->pub, "expect");
  bool has_body = (p->flags & F_CHUNKED) || p->content_length > 0;
  if (expect && !r->http10 && has_body) {
    static const char cont[] = "HTTP/1.1 100 Continue\r\n\r\n";
    if (conn_send(c, cont, sizeof cont - 1, NULL, 0, NULL, 0) < 0) {
      conn_die_soon(c);
      return -1;
    }
  }
  r->body.max = r->piece ? r->piece + HG_HTTP_READ_BUF : limit; /* a piece and a read */
  c->state = C_BODY;
  c->body_raw = 0;
  conn_arm_timer(c);
  return 0;
}

int hg_http_body_read(hg_http_req *req, size_t limit) {
  http_req *r = (http_req *)req;
  http_conn *c = r->conn;
  if (!r->held || limit == 0) return -EINVAL;
  if (!c || c->closing || c->dead) return -EPIPE;
  if (body_too_large(&c->parser, limit)) return -EFBIG;
  r->held = false;
  if (conn_body_begin(c, r, limit) < 0) return 0; /* closes on the next turn: on_abort */
  llhttp_resume(&c->parser);
  c->exec_again = true; /* a body-less request completes with no more bytes */
  /* Parse on the next loop turn, not inside the caller (a hook's callback
   * that may still use the request). */
  c->kick = true;
  uv_timer_start(&c->timer, on_conn_timer, 0, 0);
  return 0;
}

/* A piece of a streamed body is in: to its consumer, and wait. */
static void conn_piece(http_conn *c) {
  http_req *r = c->req;
  c->piece_wait = true;
  conn_arm_timer(c);
  c->srv->opt.on_body_piece(&r->pub, r->body.data, r->body.len, c->srv->opt.ud);
}

int hg_http_body_stream(hg_http_req *req, size_t limit, size_t piece) {
  http_req *r = (http_req *)req;
  http_conn *c = r->conn;
  if (!r->held || piece == 0 || (c && !c->srv->opt.on_body_piece)) return -EINVAL;
  r->piece = piece;
  r->limit = limit;
  int rc = hg_http_body_read(req, limit);
  if (rc < 0) r->piece = 0;
  return rc;
}

int hg_http_body_next(hg_http_req *req) {
  http_req *r = (http_req *)req;
  http_conn *c = r->conn;
  if (!r->piece || r->dispatched) return -EINVAL;
  if (!c || c->closing || c->dead) return -EPIPE;
  if (!c->piece_wait) return -EINVAL;
  r->pub.body_offset += r->body.len;
  hg_buf_reset(&r->body);
  c->piece_wait = false;
  conn_arm_timer(c); /* the body's inactivity timer again */
  c->kick = true;    /* parse what waits, on the next loop turn */
  uv_timer_start(&c->timer, on_conn_timer, 0, 0);
  return 0;
}

/* Message complete: hand it to the handler. llhttp stays paused until the
 * response is finished (conn_next). */
static void conn_dispatch(http_conn *c) {
  http_req *r = c->req;
  hg_http_server *srv = c->srv;
  r->pub.body = r->body.data ? r->body.data : "";
  r->pub.body_len = r->body.len;
  r->dispatched = true;
  c->state = C_WAIT;
  c->nreqs++;
  conn_arm_timer(c);
  srv->opt.handler(srv, &r->pub, srv->opt.ud);
}

static void conn_parse_error(http_conn *c, llhttp_errno_t err) {
  if (c->fail_status) {
    conn_fail(c, c->fail_status, c->fail_code, c->fail_msg);
  } else if (err == HPE_PAUSED_UPGRADE) {
    conn_finish(c); /* cannot happen: upgrade requests are not kept alive */
  } else {
    const char *why = llhttp_get_error_reason(&c->parser);
    conn_fail(c, 400, "bad_request", why && *why ? why : llhttp_errno_name(err));
  }
}

/* Runs llhttp over buffered input once; returns false to stop the loop. */
static bool conn_parse_some(http_conn *c) {
  const char *data = c->in ? c->in + c->in_off : "";
  size_t n = c->in_len - c->in_off;
  bool in_head = c->state == C_IDLE || c->state == C_HEAD;
  if (in_head && n > HG_HTTP_MAX_HEADER - c->head_used) n = HG_HTTP_MAX_HEADER - c->head_used;
  /* a streamed body: no more than what completes the piece */
  http_req *r = c->req;
  if (c->state == C_BODY && r->piece && n > r->piece - r->body.len) n = r->piece - r->body.len;
  c->event = EV_NONE;
  c->exec_again = false;
  llhttp_errno_t err = llhttp_execute(&c->parser, data, n);
  size_t used = n;
  if (err != HPE_OK) used = (size_t)(llhttp_get_error_pos(&c->parser) - data);
  if (used > n) used = n;
  c->in_off += used;
  if (in_head) c->head_used += used;
  if (c->state == C_BODY && (c->parser.flags & F_CHUNKED)) c->body_raw += used;
  if (err == HPE_PAUSED && c->event == EV_HEAD) {
    if (conn_on_head(c) < 0) return false;
    llhttp_resume(&c->parser);
    c->exec_again = true; /* a body-less request completes with no more bytes */
    return true;
  }
  if (err == HPE_PAUSED && c->event == EV_MESSAGE) {
    conn_dispatch(c);
    return true;
  }
  if (err == HPE_OK && c->state == C_BODY && c->req->piece && c->req->body.len >= c->req->piece) {
    conn_piece(c);
    return false;
  }
  if (err != HPE_OK) {
    conn_parse_error(c, err);
    return false;
  }
  if (in_head && c->head_used >= HG_HTTP_MAX_HEADER) {
    conn_fail(c, 431, "header_too_large", "request head too large");
    return false;
  }
  /* Chunk extensions, trailers and zero padding are bytes we read but do
   * not keep: bound them against the body they carry. */
  if (c->state == C_BODY && c->body_raw > 4 * c->req->total + HG_HTTP_MAX_HEADER) {
    conn_fail(c, 400, "bad_request", "chunked encoding overhead too large");
    return false;
  }
  return true;
}

static void conn_process(http_conn *c) {
  if (c->in_process) return;
  c->in_process = true;
  while (!c->closing && !c->dead && !c->piece_wait &&
         (c->state == C_IDLE || c->state == C_HEAD || c->state == C_BODY) &&
         (c->in_off < c->in_len || c->exec_again)) {
    if (!conn_parse_some(c)) break;
  }
  c->in_process = false;
  if (c->closing) return;
  if (c->state == C_IDLE && c->in_off == c->in_len && c->in) {
    free(c->in);
    c->in = NULL;
    c->in_off = c->in_len = 0;
  }
  conn_update_read(c);
}

/* ---- reading ---- */

static void on_alloc(uv_handle_t *h, size_t suggested, uv_buf_t *buf) {
  http_conn *c = h->data;
  if (!c->in) {
    c->in = malloc(HG_HTTP_READ_BUF);
    c->in_off = c->in_len = 0;
  }
  if (!c->in) {
    *buf = uv_buf_init(NULL, 0); /* read_cb gets UV_ENOBUFS */
    return;
  }
  if (c->in_off > 0) {
    memmove(c->in, c->in + c->in_off, c->in_len - c->in_off);
    c->in_len -= c->in_off;
    c->in_off = 0;
  }
  *buf = uv_buf_init(c->in + c->in_len, (unsigned)(HG_HTTP_READ_BUF - c->in_len));
}

static void conn_on_eof(http_conn *c) {
  c->eof = true;
  switch (c->state) {
  case C_IDLE: /* answered everything: let the last response drain */
    conn_finish(c);
    conn_update_read(c);
    break;
  case C_CLOSING:
    if (c->shut_done) conn_close(c);
    else conn_update_read(c); /* on_shutdown closes */
    break;
  case C_WAIT:
    if (!c->req) { /* answered; the response is still draining */
      conn_finish(c);
      conn_update_read(c);
      break;
    }
    conn_close(c); /* the client left before its answer */
    break;
  default: /* a partial request */
    conn_close(c);
    break;
  }
}

static void on_read(uv_stream_t *s, ssize_t nread, const uv_buf_t *buf) {
  http_conn *c = s->data;
  if (nread == 0 || c->closing) return;
  if (nread == UV_EOF) {
    conn_on_eof(c);
    return;
  }
  if (nread < 0) {
    conn_close(c);
    return;
  }
  if (c->dead) return;
  if (c->state == C_CLOSING) { /* lingering: drop, but not a whole upload */
    c->in_off = c->in_len = 0;
    c->lingered += (size_t)nread;
    if (c->lingered > HG_HTTP_LINGER_MAX) conn_close(c);
    return;
  }
  c->in_len += (size_t)nread;
  if (c->state == C_BODY) conn_arm_timer(c);
  if (c->state == C_WAIT || c->state == C_HELD) {
    conn_update_read(c); /* buffered for later; stop when full */
    return;
  }
  conn_process(c);
}

/* ---- accepting ---- */

static http_conn *conn_new(hg_http_server *srv) {
  http_conn *c = calloc(1, sizeof *c);
  if (!c) return NULL;
  c->srv = srv;
  uv_tcp_init(srv->loop, &c->tcp);
  uv_timer_init(srv->loop, &c->timer);
  c->tcp.data = c->timer.data = c;
  hg_closer_init(&c->closer, c, NULL, conn_free);
  hg_closer_add(&c->closer, 2);
  llhttp_init(&c->parser, HTTP_REQUEST, &parser_settings);
  c->parser.data = c;
  c->state = C_IDLE;
  c->head_deadline = uv_now(srv->loop) + srv->header_ms;
  srv_link(srv, c);
  srv->nconns++;
  return c;
}

static void conn_start(http_conn *c) {
  hg_http_server *srv = c->srv;
  uv_tcp_nodelay(&c->tcp, 1); /* fails on adopted non-TCP sockets: harmless */
  if (srv->nconns > srv->opt.max_connections) {
    srv->nconns--;
    srv->nrejecting++;
    c->rejecting = true;
    if (srv->nrejecting > HG_HTTP_MAX_REJECTING) {
      conn_close(c);
      return;
    }
    conn_fail(c, 503, "unavailable", "too many connections");
    return;
  }
  conn_arm_timer(c);
  conn_update_read(c);
}

static int tls_adopt(void *ud, int fd) { return hg_http_server_adopt(ud, fd); }

static void on_connection(uv_stream_t *l, int status) {
  hg_http_server *srv = l->data;
  if (status < 0) {
    hg_log_warn("http.accept_failed", "err=%s", uv_err_name(status));
    return;
  }
  if (srv->opt.tls) { /* the relay hands us the plaintext end */
    hg_tls_accept(srv->opt.tls, l, tls_adopt, srv);
    return;
  }
  http_conn *c = conn_new(srv);
  if (!c) {
    hg_log_error("http.accept_failed", "err=ENOMEM");
    return;
  }
  int rc = uv_accept(l, (uv_stream_t *)&c->tcp);
  if (rc < 0) {
    hg_log_warn("http.accept_failed", "err=%s", uv_err_name(rc));
    conn_close(c);
    return;
  }
  conn_start(c);
}

int hg_http_server_adopt(hg_http_server *srv, uv_os_sock_t fd) {
  if (srv->shutting_down) return -ECANCELED;
  http_conn *c = conn_new(srv);
  if (!c) return -ENOMEM;
  int rc = uv_tcp_open(&c->tcp, fd);
  if (rc < 0) {
    conn_close(c);
    return rc;
  }
  conn_start(c);
  return 0;
}

/* ---- server ---- */

static void on_srv_handle_closed(uv_handle_t *h) {
  hg_http_server *srv = h->data;
  hg_closer_closed(&srv->closer);
}

static void srv_maybe_finish(hg_http_server *srv) {
  if (!srv->shutting_down || srv->conns || srv->grace_closing) return;
  srv->grace_closing = true;
  uv_close((uv_handle_t *)&srv->grace, on_srv_handle_closed);
}

int hg_http_server_start(uv_loop_t *loop, const hg_http_options *opt, hg_http_server **out) {
  if (!opt || !opt->handler) return -EINVAL;
  hg_http_server *srv = calloc(1, sizeof *srv);
  if (!srv) return -ENOMEM;
  srv->loop = loop;
  srv->opt = *opt;
  srv->opt.host = NULL; /* not kept: the caller's string */
  if (!srv->opt.max_body) srv->opt.max_body = HG_HTTP_MAX_BODY;
  if (!srv->opt.max_connections) srv->opt.max_connections = HG_HTTP_DEFAULT_MAX_CONNS;
  srv->header_ms = opt->header_timeout_ms ? opt->header_timeout_ms : HG_HTTP_HEADER_TIMEOUT_MS;
  srv->body_ms = opt->body_timeout_ms ? opt->body_timeout_ms : HG_HTTP_BODY_TIMEOUT_MS;
  srv->idle_ms = opt->idle_timeout_ms ? opt->idle_timeout_ms : HG_HTTP_IDLE_TIMEOUT_MS;
  uv_tcp_init(loop, &srv->listener);
  uv_timer_init(loop, &srv->grace);
  srv->listener.data = srv->grace.data = srv;
  hg_closer_init(&srv->closer, srv, NULL, free); /* grace closes after the last conn */
  hg_closer_add(&srv->closer, 2);

  const char *host = opt->host ? opt->host : "127.0.0.1";
  struct sockaddr_storage ss;
  int rc = strchr(host, ':') ? uv_ip6_addr(host, opt->port, (struct sockaddr_in6 *)&ss)
                             : uv_ip4_addr(host, opt->port, (struct sockaddr_in *)&ss);
  if (rc == 0) rc = uv_tcp_bind(&srv->listener, (struct sockaddr *)&ss, 0);
  if (rc == 0) rc = uv_listen((uv_stream_t *)&srv->listener, 511, on_connection);
  if (rc < 0) {
    hg_log_error("http.listen_failed", "host=%s port=%d err=%s", host, opt->port,
                 uv_err_name(rc));
    uv_close((uv_handle_t *)&srv->listener, on_srv_handle_closed);
    uv_close((uv_handle_t *)&srv->grace, on_srv_handle_closed);
    return rc;
  }
  *out = srv;
  return 0;
}

int hg_http_port(const hg_http_server *srv) {
  struct sockaddr_storage ss;
  int len = sizeof ss;
  if (uv_tcp_getsockname(&srv->listener, (struct sockaddr *)&ss, &len) < 0) return -1;
  if (ss.ss_family == AF_INET6) return ntohs(((struct sockaddr_in6 *)&ss)->sin6_port);
  return ntohs(((struct sockaddr_in *)&ss)->sin_port);
}

unsigned hg_http_server_connections(const hg_http_server *srv) {
  return srv->nconns + srv->nrejecting;
}

static void on_grace(uv_timer_t *t) {
  hg_http_server *srv = t->data;
  for (http_conn *c = srv->conns; c; c = c->next) conn_close(c); /* unlinked later */
}

void hg_http_server_shutdown(hg_http_server *srv, int grace_ms, void (*done)(void *ud),
                             void *ud) {
  if (srv->shutting_down) return;
  srv->shutting_down = true;
  hg_closer_then(&srv->closer, done, ud);
  uv_close((uv_handle_t *)&srv->listener, on_srv_handle_closed);
  /* Idle connections go now; the others close after their response. */
  for (http_conn *c = srv->conns; c; c = c->next)
    if (c->state == C_IDLE) conn_finish(c);
  uv_timer_start(&srv->grace, on_grace, grace_ms > 0 ? (uint64_t)grace_ms : 0, 0);
  srv_maybe_finish(srv);
}

/* ---- request accessors ---- */

const char *hg_http_header_get(const hg_http_req *req, const char *lower_name) {
  for (int i = 0; i < req->nheaders; i++)
    if (strcmp(req->headers[i].name, lower_name) == 0) return req->headers[i].value;
  return NULL;
}

int hg_http_query_get(const hg_http_req *req, const char *name, char *out, size_t cap) {
  const char *q = req->query ? req->query : "";
  size_t nlen = strlen(name);
  while (*q) {
    size_t plen = strcspn(q, "&");
    size_t klen = strcspn(q, "=&");
    char key[256];
    size_t got;
    if (klen < sizeof key && pct_decode(q, klen, true, key, sizeof key, &got) == 0 &&
        got == nlen && memcmp(key, name, nlen) == 0) {
      const char *v = klen < plen ? q + klen + 1 : q + klen;
      size_t vlen = klen < plen ? plen - klen - 1 : 0;
      if (cap == 0) return -ENOBUFS;
      return pct_decode(v, vlen, true, out, cap, NULL);
    }
    q += plen;
    if (*q == '&') q++;
  }
  return -ENOENT;
}

bool hg_http_req_alive(const hg_http_req *req) {
  const http_conn *c = ((const http_req *)req)->conn;
  return c && !c->closing && !c->dead;
}

int hg_http_req_peer(const hg_http_req *req, char *out, size_t cap) {
  const http_conn *c = ((const http_req *)req)->conn;
  if (!c || c->closing || c->dead) return -ENOTCONN;
  struct sockaddr_storage ss;
  int len = sizeof ss;
  int rc = uv_tcp_getpeername(&c->tcp, (struct sockaddr *)&ss, &len);
  if (rc < 0) return rc;
  if (ss.ss_family == AF_INET) return uv_ip4_name((const struct sockaddr_in *)&ss, out, cap);
  if (ss.ss_family == AF_INET6) return uv_ip6_name((const struct sockaddr_in6 *)&ss, out, cap);
  return -EAFNOSUPPORT;
}

/* ---- responses ---- */

/* Detaches r from its connection; returns the connection if it can still
 * be written to. */
static http_conn *req_take(http_req *r) {
  http_conn *c = r->conn;
  r->conn = NULL;
  if (!c) return NULL;
  c->req = NULL;
  return c->closing || c->dead ? NULL : c;
}

void hg_http_respond(hg_http_req *req, int status, const char *content_type,
                     const char *extra_headers, const void *body, size_t len) {
  http_req *r = (http_req *)req;
  if (r->streaming) { /* handler bug; still finish the exchange */
    hg_log_error("http.misuse", "msg=\"respond after stream_start\" status=%d", status);
    hg_http_stream_end(req);
    return;
  }
  http_conn *c = req_take(r);
  /* An answer before the whole body was read (a refusal from on_head, or
   * a handler that stops waiting): the unread rest is not parsed as the
   * next request; the connection closes after the answer. */
  bool unread = !r->dispatched;
  if (c) {
    bool nobody = status < 200 || status == 204 || status == 304;
    c->keepalive = r->keepalive && !c->srv->shutting_down && !unread;
    hg_buf h;
    hg_buf_init(&h, HG_HTTP_MAX_RESP_HEAD);
    int rc = fmt_head(&h, c->srv, status, content_type, extra_headers, nobody ? -1 : (int64_t)len,
                      false, c->keepalive, r->http10);
    if (rc == 0)
      rc = conn_send(c, h.data, h.len, (nobody || r->is_head) ? NULL : body,
                     (nobody || r->is_head) ? 0 : len, NULL, 0);
    hg_buf_free(&h);
    if (rc < 0) {
      hg_log_warn("http.respond_failed", "status=%d err=%d", status, rc);
      conn_die_soon(c);
    }
  }
  req_free(r);
  if (c && unread) conn_finish(c);
  else if (c) conn_next(c);
}

int hg_http_stream_start(hg_http_req *req, int status, const char *content_type,
                         const char *extra_headers) {
  http_req *r = (http_req *)req;
  if (r->streaming || !r->dispatched) return -EINVAL;
  r->streaming = true; /* even for a gone client: stream_end then frees */
  http_conn *c = r->conn;
  if (!c || c->closing || c->dead) return -EPIPE;
  /* HTTP/1.0 has no chunked coding: the body ends when we close. */
  r->chunked = !r->http10;
  c->keepalive = r->keepalive && r->chunked && !c->srv->shutting_down;
  hg_buf h;
  hg_buf_init(&h, HG_HTTP_MAX_RESP_HEAD);
  int rc = fmt_head(&h, c->srv, status, content_type, extra_headers, -1, r->chunked, c->keepalive,
                    r->http10);
  if (rc == 0) rc = conn_send(c, h.data, h.len, NULL, 0, NULL, 0);
  hg_buf_free(&h);
  if (rc < 0) {
    conn_die_soon(c);
    return -EPIPE;
  }
  return 0;
}

int hg_http_stream_write(hg_http_req *req, const void *data, size_t len) {
  http_req *r = (http_req *)req;
  http_conn *c = r->conn;
  if (!r->streaming) return -EINVAL;
  if (!c || c->closing || c->dead) return -EPIPE;
  if (len == 0 || r->is_head) return 0; /* an empty chunk would end the body */
  int rc;
  if (r->chunked) {
    char pre[24];
    int n = snprintf(pre, sizeof pre, "%zx\r\n", len);
    rc = conn_send(c, pre, (size_t)n, data, len, "\r\n", 2);
  } else {
    rc = conn_send(c, data, len, NULL, 0, NULL, 0);
  }
  if (rc < 0) {
    conn_die_soon(c);
    return -EPIPE;
  }
  return 0;
}

size_t hg_http_stream_pending(const hg_http_req *req) {
  const http_conn *c = ((const http_req *)req)->conn;
  if (!c || c->closing || c->dead) return 0;
  return uv_stream_get_write_queue_size((const uv_stream_t *)&c->tcp);
}

void hg_http_stream_end(hg_http_req *req) {
  http_req *r = (http_req *)req;
  if (!r->streaming) {
    hg_log_error("http.misuse", "msg=\"stream_end without stream_start\"");
    hg_http_respond(req, 500, NULL, NULL, NULL, 0);
    return;
  }
  http_conn *c = req_take(r);
  if (c && r->chunked && !r->is_head) {
    static const char last[] = "0\r\n\r\n";
    if (conn_send(c, last, sizeof last - 1, NULL, 0, NULL, 0) < 0) conn_die_soon(c);
  }
  req_free(r);
  if (c) conn_next(c);
}

void hg_http_stream_abort(hg_http_req *req) {
  http_req *r = (http_req *)req;
  if (!r->streaming) {
    hg_log_error("http.misuse", "msg=\"stream_abort without stream_start\"");
    hg_http_respond(req, 500, NULL, NULL, NULL, 0);
    return;
  }
  http_conn *c = req_take(r);
  req_free(r);
  /* after the next loop turn: the caller may be inside one of our writes */
  if (c) conn_die_soon(c);
}
