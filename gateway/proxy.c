/* proxy: the L7 egress proxy (TLS by SNI, HTTP by Host, credential
 * injection, HTTPS upgrade through libcurl) and the L4 relay. See proxy.h
 * for the rules; gw.h for the contract with gateway.c.
 *
 * A connection is one struct conn with up to three handles (the guest's
 * socket, the upstream socket, a timer); it is freed in the last close
 * callback. Everything runs on the gateway loop. Every buffer is bounded:
 * the replay/head buffer (in), the write queues (back-pressure stops the
 * reading side above HG_PROXY_WQ_HIGH), response heads, the mask hold.
 *
 * The allow decision is made on what the guest cannot lie about together:
 * the name it claims (SNI or Host) must be allowed, and the address it
 * actually connected to must be one the gateway itself answered for that
 * name. The proxy then connects to that same address, so there is no
 * second lookup an attacker could race (DNS rebinding). */
#include "gateway/proxy.h"

#include <arpa/inet.h>
#include <curl/curl.h>
#include <errno.h>
#include <netinet/in.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>

#include "gateway/httphead.h"
#include "gateway/sni.h"
#include "node/core/buf.h"
#include "node/core/curluv.h"
#include "node/core/list.h"
#include "node/core/log.h"
#include "node/core/parse.h"

#ifndef SO_ORIGINAL_DST
#define SO_ORIGINAL_DST 80 /* linux/netfilter_ipv4.h */
#endif

#define READ_CHUNK (64u * 1024)
/* Reads from the upstream: bodies and relayed bytes go by in big pieces,
 * fewer syscalls and wakeups per byte (a response head fits either way). */
#define UP_CHUNK (512u * 1024)
#define LINGER_MS 5000           /* a last answer to a guest that does not read */
#define CHUNK_LINE_MAX 4096      /* chunk-size line with extensions */
#define TRAILER_MAX (16u * 1024) /* trailer fields of a chunked body */
#define UPGRADE_HDRS_MAX (64u * 1024)
#define HOLD_MAX (HG_GW_SECRET_MAX + UP_CHUNK + HG_PROXY_RESP_HEAD_MAX)

static int orig_dst_sockopt(uv_tcp_t *guest, uint32_t *ip, uint16_t *port);

hg_proxy_seams hg_proxy_test_seams = {
    .orig_dst = orig_dst_sockopt,
    .https_port = 443,
    .hello_ms = HG_PROXY_HELLO_MS,
    .head_ms = HG_PROXY_HEAD_MS,
};

/* ---- types ------------------------------------------------------------------ */

typedef enum mode { M_HELLO, M_HTTP, M_RELAY } mode;
typedef enum req_state { REQ_HEAD, REQ_BODY, REQ_DONE } req_state;
typedef enum resp_state {
  RESP_IDLE,    /* no request in flight */
  RESP_HEAD,    /* reading the status line and fields */
  RESP_LENGTH,  /* body_left bytes */
  RESP_CHUNKED, /* chunked body */
  RESP_CLOSE,   /* body until the server closes */
  RESP_UPGRADE, /* libcurl has the request */
  RESP_DONE,
} resp_state;
typedef enum timer_use { T_NONE, T_HELLO, T_HEAD, T_DIAL, T_LINGER } timer_use;

typedef enum ck_state {
  CK_SIZE,
  CK_EXT,
  CK_SIZE_LF,
  CK_DATA,
  CK_DATA_CR,
  CK_DATA_LF,
  CK_TRAILER_START,
  CK_TRAILER,
  CK_TRAILER_LF,
  CK_END_LF,
  CK_DONE,
} ck_state;

/* Where a chunked body ends (RFC 9112 7.1), read strictly: the proxy must
 * agree with the server about the byte the next message starts at. */
typedef struct chunked {
  ck_state st;
  uint64_t size;
  unsigned digits;
  size_t line, trailer;
} chunked;

typedef struct side {
  uv_tcp_t tcp;
  bool init, closed, reading, eof, shut, shut_done;
  size_t wq; /* bytes queued for writing to this side */
} side;

/* A secret in scope for the verified host, masked in responses. */
typedef struct secret {
  char *s;
  size_t len;
  size_t *fail; /* KMP failure function */
} secret;

/* An HTTP request sent upstream as HTTPS by libcurl. */
typedef struct upg {
  CURL *easy;
  struct curl_slist *hdrs, *connect_to;
  char *method, *target;
  hg_buf body, rhdrs, rbody;
  char reason[64];
  char head_cl[24]; /* Content-Length of a HEAD response */
  size_t held;      /* body bytes counted in the set's upg_bytes */
  bool is_head, has_body, expect_continue, too_big;
} upg;

typedef struct conn {
  hg_proxy_set *ps;
  hg_gw_sandbox *sb;
  struct conn *prev, *next;
  hg_proxy_kind kind;
  mode mode;
  side guest, up;
  uv_timer_t timer;
  timer_use tuse;
  uv_connect_t creq;
  uv_shutdown_t sreq[2]; /* [0] guest, [1] upstream */
  int handles;
  bool timer_closed, closing, finishing, allowed, logged, reset, up_connected;
  uint32_t ip; /* the original destination, host byte order */
  uint16_t port;
  char name[HG_NAME_MAX + 1]; /* the verified name */
  uint64_t bytes_out, bytes_in;
  hg_buf in; /* guest bytes not yet passed on: the ClientHello, request heads */
  hg_sni sni;
  /* HTTP */
  hg_httphead head;
  req_state req;
  resp_state resp;
  hg_head_body body_kind;
  uint64_t body_left, resp_left;
  chunked req_ck, resp_ck;
  bool upgrade, req_is_head, close_after, resp_close, resp_started;
  hg_buf rhead;
  secret secrets[HG_GW_CREDS_MAX];
  size_t nsecrets;
  hg_buf hold; /* response bytes that might be the start of a secret */
  upg u;
} conn;

struct hg_proxy_set {
  hg_gw_sandbox *sb;
  uv_loop_t *loop;
  conn *conns;
  size_t nconns; /* until freed, closing ones included */
  bool closing, done_called;
  void (*done)(void *ud);
  void *done_ud;
  int pending;      /* set-level handles being closed */
  size_t upg_bytes; /* request and response bodies of upgraded requests held */
  hg_curluv *cu; /* HTTPS upstreams, from the first upgraded request */
};

typedef struct wreq {
  uv_write_t req;
  conn *c;
  side *s;
  char *mem; /* freed once written: data, or the read buffer data lies in */
  char *data;
  size_t len;
  size_t held;   /* counted in the side's wq: len, or mem's size */
  size_t budget; /* of the set's upg_bytes, given back once written */
} wreq;

static void conn_close(conn *c);
static void conn_finish(conn *c);
static void update_reading(conn *c);
static void http_pump(conn *c);
static void http_resp_finished(conn *c);
static void ps_maybe_done(hg_proxy_set *ps);

/* ---- small helpers ---------------------------------------------------------- */

static int orig_dst_sockopt(uv_tcp_t *guest, uint32_t *ip, uint16_t *port) {
  uv_os_fd_t fd;
  struct sockaddr_in sa;
  socklen_t len = sizeof(sa);
  if (uv_fileno((uv_handle_t *)guest, &fd) < 0) return -EBADF;
  if (getsockopt(fd, SOL_IP, SO_ORIGINAL_DST, &sa, &len) < 0) return -errno;
  if (len < sizeof(sa) || sa.sin_family != AF_INET) return -EAFNOSUPPORT;
  *ip = ntohl(sa.sin_addr.s_addr);
  *port = ntohs(sa.sin_port);
  return 0;
}

static const char *proto_of(const conn *c) {
  switch (c->kind) {
    case HG_PROXY_HTTP:
      return "http";
    case HG_PROXY_TLS:
      return "tls";
    default:
      return "tcp";
  }
}

static char lower(char ch) {
  return (ch >= 'A' && ch <= 'Z') ? (char)(ch + 32) : ch;
}

static bool ieq(const char *a, size_t alen, const char *b) {
  size_t blen = strlen(b);
  if (alen != blen) return false;
  for (size_t i = 0; i < alen; i++)
    if (lower(a[i]) != lower(b[i])) return false;
  return true;
}

static bool is_ows(char ch) {
  return ch == ' ' || ch == '\t';
}

/* True when the comma-separated list v holds token tok (any case). */
static bool has_token(const char *v, size_t n, const char *tok) {
  size_t i = 0;
  while (i < n) {
    size_t s = i, e;
    while (i < n && v[i] != ',') i++;
    e = i++;
    while (s < e && is_ows(v[s])) s++;
    while (e > s && is_ows(v[e - 1])) e--;
    if (ieq(v + s, e - s, tok)) return true;
  }
  return false;
}

/* Fields a proxy does not pass on (RFC 9110 7.6.1), and those libcurl
 * writes itself for an upgraded request. */
static bool hop_by_hop(const char *name, size_t n) {
  static const char *const hop[] = {"connection",
                                    "keep-alive",
                                    "proxy-connection",
                                    "proxy-authorization",
                                    "proxy-authenticate",
                                    "te",
                                    "trailer",
                                    "upgrade",
                                    "transfer-encoding",
                                    "content-length",
                                    "host",
                                    "expect"};
  for (size_t i = 0; i < sizeof(hop) / sizeof(hop[0]); i++)
    if (ieq(name, n, hop[i])) return true;
  return false;
}

static const char *check_name(conn *c, const char *name) {
  const hg_policy *p = hg_gw_policy(c->sb);
  if (!p || !hg_allow_name(p->allow, name, strlen(name))) return "not_allowed";
  if (!hg_gw_dns_answered(c->sb, name, c->ip)) return "dst_not_answered";
  if (hg_gw_addr_denied(c->sb, c->ip)) return "dst_denied";
  return NULL;
}

/* ---- chunked framing -------------------------------------------------------- */

static int hexval(unsigned char ch) {
  if (ch >= '0' && ch <= '9') return ch - '0';
  if (ch >= 'a' && ch <= 'f') return ch - 'a' + 10;
  if (ch >= 'A' && ch <= 'F') return ch - 'A' + 10;
  return -1;
}

/* Consumes p[0..n) up to the end of the body. Returns the bytes that
 * belong to it (sets *done at its end), -EPROTO on bad framing, -ENOBUFS
 * when data (the decoded bytes, when not NULL) is full. */
static long chunked_feed(chunked *k, const char *p, size_t n, hg_buf *data, bool *done) {
  size_t i = 0;
  while (i < n && k->st != CK_DONE) {
    unsigned char ch = (unsigned char)p[i];
    int d;
    switch (k->st) {
      case CK_SIZE:
        if ((d = hexval(ch)) >= 0) {
          if (k->digits == 15) return -EPROTO; /* keeps size below 2^60 */
          k->size = k->size << 4 | (uint64_t)d;
          k->digits++;
        } else if (k->digits > 0 && (ch == ';' || is_ows((char)ch))) {
          k->st = CK_EXT;
        } else if (k->digits > 0 && ch == '\r') {
          k->st = CK_SIZE_LF;
        } else {
          return -EPROTO;
        }
        i++;
        break;
      case CK_EXT:
        if (ch == '\r')
          k->st = CK_SIZE_LF;
        else if (ch == '\n' || (ch < 0x20 && ch != '\t') || ch == 0x7f ||
                 ++k->line > CHUNK_LINE_MAX)
          return -EPROTO;
        i++;
        break;
      case CK_SIZE_LF:
        if (ch != '\n') return -EPROTO;
        k->line = 0;
        k->st = k->size ? CK_DATA : CK_TRAILER_START;
        i++;
        break;
      case CK_DATA: {
        size_t take = n - i < k->size ? n - i : (size_t)k->size;
        if (data && hg_buf_append(data, p + i, take) < 0) return -ENOBUFS;
        i += take;
        k->size -= take;
        if (k->size == 0) k->st = CK_DATA_CR;
        break;
      }
      case CK_DATA_CR:
        if (ch != '\r') return -EPROTO;
        k->st = CK_DATA_LF;
        i++;
        break;
      case CK_DATA_LF:
        if (ch != '\n') return -EPROTO;
        k->st = CK_SIZE;
        k->digits = 0;
        i++;
        break;
      case CK_TRAILER_START:
        if (ch == '\r') {
          k->st = CK_END_LF;
          i++;
        } else {
          k->st = CK_TRAILER;
        }
        break;
      case CK_TRAILER:
        if (++k->trailer > TRAILER_MAX) return -EPROTO;
        if (ch == '\r')
          k->st = CK_TRAILER_LF;
        else if (ch == '\n' || ch == 0)
          return -EPROTO;
        i++;
        break;
      case CK_TRAILER_LF:
        if (ch != '\n') return -EPROTO;
        k->st = CK_TRAILER_START;
        i++;
        break;
      case CK_END_LF:
        if (ch != '\n') return -EPROTO;
        k->st = CK_DONE;
        i++;
        break;
      case CK_DONE:
        break;
    }
  }
  *done = k->st == CK_DONE;
  return (long)i;
}

/* ---- secrets masked in responses -------------------------------------------- */

static void secrets_clear(conn *c) {
  for (size_t i = 0; i < c->nsecrets; i++) {
    free(c->secrets[i].s);
    free(c->secrets[i].fail);
  }
  c->nsecrets = 0;
}

static int secret_add(conn *c, const char *s) {
  size_t len = strlen(s);
  if (len == 0) return 0;
  for (size_t i = 0; i < c->nsecrets; i++)
    if (c->secrets[i].len == len && memcmp(c->secrets[i].s, s, len) == 0) return 0;
  if (c->nsecrets == HG_GW_CREDS_MAX) return 0;
  secret *x = &c->secrets[c->nsecrets];
  x->s = malloc(len);
  x->fail = malloc(len * sizeof(size_t));
  if (!x->s || !x->fail) {
    free(x->s);
    free(x->fail);
    return -ENOMEM;
  }
  memcpy(x->s, s, len);
  x->len = len;
  x->fail[0] = 0;
  for (size_t i = 1, k = 0; i < len; i++) {
    while (k > 0 && s[i] != s[k]) k = x->fail[k - 1];
    if (s[i] == s[k]) k++;
    x->fail[i] = k;
  }
  c->nsecrets++;
  return 0;
}

/* Overwrites every secret in t[0..n) with '*' (same length, so framing
 * holds) and returns how many bytes at the end could still begin one. */
static size_t mask_scan(conn *c, char *t, size_t n) {
  size_t keep = 0;
  for (size_t k = 0; k < c->nsecrets; k++) {
    const secret *x = &c->secrets[k];
    size_t q = 0;
    for (size_t i = 0; i < n; i++) {
      while (q > 0 && t[i] != x->s[q]) q = x->fail[q - 1];
      if (t[i] == x->s[q]) q++;
      if (q == x->len) {
        memset(t + i + 1 - x->len, '*', x->len);
        q = x->fail[q - 1];
      }
    }
    if (q > keep) keep = q;
  }
  return keep;
}

/* ---- writing ---------------------------------------------------------------- */

static void on_write(uv_write_t *req, int status) {
  wreq *w = (wreq *)req;
  conn *c = w->c;
  side *s = w->s;
  s->wq -= w->held;
  if (c->ps) c->ps->upg_bytes -= w->budget;
  free(w->mem);
  free(w);
  if (c->closing) return;
  if (status < 0) {
    /* while finishing, the upstream is already closed on purpose */
    if (!(c->finishing && s == &c->up)) conn_close(c);
    return;
  }
  update_reading(c);
}

/* Queues data[0..len) for s; mem (owned from here on, held bytes) is
 * freed when the write ends, and budget bytes of the set's upg_bytes are
 * given back, whichever way it ends. The write queue counts what is held,
 * so back-pressure bounds memory, not just bytes to send. */
static int send_mem(conn *c, side *s, char *mem, char *data, size_t len, size_t held,
                    size_t budget) {
  if (c->closing || !s->init || s->closed || s->shut || len == 0) {
    if (c->ps) c->ps->upg_bytes -= budget;
    free(mem);
    return len == 0 ? 0 : -EPIPE;
  }
  wreq *w = malloc(sizeof(*w));
  if (!w) {
    if (c->ps) c->ps->upg_bytes -= budget;
    free(mem);
    return -ENOMEM;
  }
  *w = (wreq){
      .c = c, .s = s, .mem = mem, .data = data, .len = len, .held = held, .budget = budget};
  uv_buf_t b = uv_buf_init(data, (unsigned)len);
  int rc = uv_write(&w->req, (uv_stream_t *)&s->tcp, &b, 1, on_write);
  if (rc < 0) {
    if (c->ps) c->ps->upg_bytes -= budget;
    free(mem);
    free(w);
    return rc;
  }
  s->wq += held;
  if (s == &c->up)
    c->bytes_out += len;
  else
    c->bytes_in += len;
  return 0;
}

static int send_budget(conn *c, side *s, char *data, size_t len, size_t budget) {
  return send_mem(c, s, data, data, len, len, budget);
}

static int send_owned(conn *c, side *s, char *data, size_t len) {
  return send_budget(c, s, data, len, 0);
}

static int send_copy(conn *c, side *s, const void *data, size_t len) {
  if (len == 0) return 0;
  char *d = malloc(len);
  if (!d) return -ENOMEM;
  memcpy(d, data, len);
  return send_owned(c, s, d, len);
}

/* data[0..len) lies in the read buffer mem of cap bytes (owned from here
 * on): passed on without a copy, counted as cap in the write queue, when
 * it fills a fair part of it. A small piece is copied instead: a trickling
 * peer is not throttled as if each byte were a whole buffer. */
static int send_read(conn *c, side *s, char *mem, size_t cap, char *data, size_t len) {
  if (len >= cap / 4) return send_mem(c, s, mem, data, len, cap, 0);
  int rc = send_copy(c, s, data, len);
  free(mem);
  return rc;
}

/* A read buffer, while its bytes are being passed on. */
typedef struct rbuf {
  char *mem;  /* NULL once given away */
  size_t len; /* bytes read into it */
  size_t cap; /* its size */
} rbuf;

/* Response bytes to the guest, through the mask when secrets are in scope.
 * With none in scope (no credential for this host) and nothing held, a
 * span that runs to the end of the read buffer rb goes on in that buffer:
 * no copy on the path of a download. */
static int emit_rb(conn *c, rbuf *rb, const char *p, size_t n) {
  if (c->nsecrets == 0 && c->hold.len == 0 && rb && rb->mem && n > 0 &&
      p + n == rb->mem + rb->len) {
    char *mem = rb->mem;
    rb->mem = NULL;
    return send_read(c, &c->guest, mem, rb->cap, (char *)p, n);
  }
  if (c->nsecrets == 0) return send_copy(c, &c->guest, p, n);
  int rc = hg_buf_append(&c->hold, p, n);
  if (rc < 0) return rc;
  size_t out = c->hold.len - mask_scan(c, c->hold.data, c->hold.len);
  rc = send_copy(c, &c->guest, c->hold.data, out);
  hg_buf_consume(&c->hold, out);
  return rc;
}

static int emit(conn *c, const char *p, size_t n) {
  return emit_rb(c, NULL, p, n);
}

static int emit_flush(conn *c) {
  int rc = send_copy(c, &c->guest, c->hold.data, c->hold.len);
  hg_buf_reset(&c->hold);
  return rc;
}

/* ---- reading ---------------------------------------------------------------- */

static void on_alloc(uv_handle_t *h, size_t hint, uv_buf_t *buf) {
  conn *c = h->data;
  size_t n = h == (uv_handle_t *)&c->up.tcp ? UP_CHUNK : READ_CHUNK;
  if (h == (uv_handle_t *)&c->guest.tcp && c->mode != M_RELAY && !c->finishing) {
    size_t room = c->in.max - c->in.len;
    if (room < n) n = room;
  }
  buf->base = n ? malloc(n) : NULL;
  buf->len = buf->base ? n : 0;
}

static void on_guest_read(uv_stream_t *st, ssize_t nread, const uv_buf_t *buf);
static void on_up_read(uv_stream_t *st, ssize_t nread, const uv_buf_t *buf);

static void set_reading(conn *c, side *s, bool want) {
  if (want == s->reading || c->closing) return;
  if (want) {
    int rc = uv_read_start((uv_stream_t *)&s->tcp, on_alloc,
                           s == &c->guest ? on_guest_read : on_up_read);
    if (rc < 0) {
      conn_close(c);
      return;
    }
  } else {
    uv_read_stop((uv_stream_t *)&s->tcp);
  }
  s->reading = want;
}

/* Back-pressure with hysteresis: a side reads while the other side's
 * write queue is under the high mark, and starts again under the low. */
static bool below_mark(const side *reader, const side *other) {
  return reader->reading ? other->wq <= HG_PROXY_WQ_HIGH : other->wq <= HG_PROXY_WQ_LOW;
}

static bool guest_wants(conn *c) {
  if (c->guest.eof || c->guest.closed) return false;
  if (c->finishing) return true; /* drained, see conn_finish */
  if (!below_mark(&c->guest, &c->up)) return false;
  if (c->mode == M_HTTP) return c->req != REQ_DONE && c->in.len < c->in.max;
  return true;
}

static bool up_wants(conn *c) {
  if (c->finishing || !c->up.init || c->up.closed || !c->up_connected || c->up.eof)
    return false;
  return below_mark(&c->up, &c->guest);
}

static void update_reading(conn *c) {
  if (c->closing) return;
  set_reading(c, &c->guest, guest_wants(c));
  if (c->closing) return;
  set_reading(c, &c->up, up_wants(c));
}

/* ---- timer ------------------------------------------------------------------ */

static void on_timer(uv_timer_t *t);

static void arm(conn *c, timer_use use, unsigned ms) {
  c->tuse = use;
  uv_timer_start(&c->timer, on_timer, ms, 0);
}

static void disarm(conn *c) {
  c->tuse = T_NONE;
  uv_timer_stop(&c->timer);
}

/* ---- closing ---------------------------------------------------------------- */

/* Bodies of upgraded requests are held whole; the set's budget keeps 256
 * connections from holding 256 times HG_PROXY_UPGRADE_RESP_MAX. */
static bool upg_take(conn *c, size_t n) {
  if (!c->ps || n > HG_PROXY_UPGRADE_SET_MAX - c->ps->upg_bytes) return false;
  c->ps->upg_bytes += n;
  c->u.held += n;
  return true;
}

static void upgrade_free(conn *c) {
  upg *u = &c->u;
  if (c->ps) c->ps->upg_bytes -= u->held;
  u->held = 0;
  if (u->easy) {
    if (c->ps && c->ps->cu) hg_curluv_remove(c->ps->cu, u->easy);
    curl_easy_cleanup(u->easy);
    u->easy = NULL;
  }
  curl_slist_free_all(u->hdrs);
  curl_slist_free_all(u->connect_to);
  u->hdrs = u->connect_to = NULL;
  free(u->method);
  free(u->target);
  u->method = u->target = NULL;
  hg_buf_free(&u->body);
  hg_buf_free(&u->rhdrs);
  hg_buf_free(&u->rbody);
}

static void conn_free(conn *c) {
  hg_proxy_set *ps = c->ps;
  if (ps) {
    HG_LIST_UNLINK(ps->conns, c);
    ps->nconns--;
  }
  upgrade_free(c);
  secrets_clear(c);
  hg_sni_free(&c->sni);
  hg_buf_free(&c->in);
  hg_buf_free(&c->rhead);
  hg_buf_free(&c->hold);
  free(c);
  if (ps) ps_maybe_done(ps);
}

static void on_close(uv_handle_t *h) {
  conn *c = h->data;
  if (--c->handles == 0) conn_free(c);
}

static void close_side(conn *c, side *s) {
  if (!s->init || s->closed) return;
  s->closed = true;
  s->reading = false;
  /* a denied TLS or TCP guest gets a reset: nothing it sent was taken */
  if (c->reset && s == &c->guest && uv_tcp_close_reset(&s->tcp, on_close) == 0) return;
  uv_close((uv_handle_t *)&s->tcp, on_close);
}

static void conn_close(conn *c) {
  if (c->closing) return;
  c->closing = true;
  if (c->allowed && !c->logged) {
    c->logged = true;
    hg_gw_log(c->sb, proto_of(c), c->name, c->ip, c->port, true, "ok", c->bytes_out,
              c->bytes_in);
  }
  upgrade_free(c);
  if (!c->timer_closed) {
    c->timer_closed = true;
    uv_close((uv_handle_t *)&c->timer, on_close);
  }
  close_side(c, &c->guest);
  close_side(c, &c->up);
}

static void on_finish_shutdown(uv_shutdown_t *r, int status) {
  conn *c = r->data;
  c->guest.shut_done = true;
  if (status < 0 || c->guest.eof) conn_close(c);
}

/* Ends an HTTP connection after what is queued for the guest is written
 * (the answer, a 403): upstream closed now, guest shut down, and closed
 * once the guest closes its side too. Until then what it still sends is
 * read and dropped: closing with unread bytes would reset the connection
 * and could destroy the answer before the guest reads it. LINGER_MS at
 * most, for a guest that neither reads nor closes. */
static void conn_finish(conn *c) {
  if (c->closing || c->finishing) return;
  c->finishing = true;
  upgrade_free(c);
  close_side(c, &c->up);
  update_reading(c);
  if (c->closing) return;
  arm(c, T_LINGER, LINGER_MS);
  c->sreq[0].data = c;
  if (uv_shutdown(&c->sreq[0], (uv_stream_t *)&c->guest.tcp, on_finish_shutdown) < 0)
    conn_close(c);
}

/* A TLS or TCP connection denied: one log line, a reset. */
static void deny_reset(conn *c, const char *name, const char *reason) {
  hg_gw_log(c->sb, proto_of(c), name, c->ip, c->port, false, reason, 0, 0);
  c->logged = true;
  c->allowed = false;
  c->reset = true;
  conn_close(c);
}

static void http_reply_close(conn *c, int status, const char *text, const char *reason) {
  char buf[512];
  int n = snprintf(buf, sizeof(buf),
                   "HTTP/1.1 %d %s\r\nContent-Type: text/plain\r\nContent-Length: %zu\r\n"
                   "Connection: close\r\n\r\n%s\n",
                   status, text, strlen(reason) + 1, reason);
  if (n < 0 || (size_t)n >= sizeof(buf) || send_copy(c, &c->guest, buf, (size_t)n) < 0) {
    conn_close(c);
    return;
  }
  conn_finish(c);
}

static void http_deny(conn *c, const char *name, const char *reason) {
  hg_gw_log(c->sb, "http", name, c->ip, c->port, false, reason, 0, 0);
  http_reply_close(c, 403, "Forbidden", reason);
}

/* ---- dialing upstream -------------------------------------------------------- */

static void relay_shutdown(conn *c, side *s);

static void on_connect(uv_connect_t *r, int status) {
  conn *c = r->data;
  if (c->closing || c->finishing) return;
  if (status < 0) {
    hg_gw_log(c->sb, proto_of(c), c->name, c->ip, c->port, false, "connect_failed", 0, 0);
    c->logged = true;
    c->allowed = false;
    if (c->mode == M_HTTP) {
      http_reply_close(c, 502, "Bad Gateway", "connect_failed");
    } else {
      c->reset = true;
      conn_close(c);
    }
    return;
  }
  c->up_connected = true;
  if (c->tuse == T_DIAL) disarm(c);
  if (c->mode == M_RELAY && c->guest.eof) relay_shutdown(c, &c->up);
  update_reading(c);
}

/* Connects to the checked address (c->ip), never to a name. Writes may
 * be queued at once: libuv sends them when the connect completes. */
static int dial(conn *c, uint16_t port) {
  int rc = uv_tcp_init(hg_gw_loop(c->sb), &c->up.tcp);
  if (rc < 0) return rc;
  c->up.init = true;
  c->up.tcp.data = c;
  c->handles++;
  struct sockaddr_in sa = {.sin_family = AF_INET, .sin_port = htons(port)};
  sa.sin_addr.s_addr = htonl(c->ip);
  c->creq.data = c;
  rc = uv_tcp_connect(&c->creq, &c->up.tcp, (const struct sockaddr *)&sa, on_connect);
  if (rc < 0) return rc;
  uv_tcp_nodelay(&c->up.tcp, 1);
  arm(c, T_DIAL, HG_PROXY_DIAL_MS);
  return 0;
}

static void dial_failed(conn *c, int rc) {
  hg_log_warn("proxy.dial", "sandbox=%s err=%s", hg_gw_name(c->sb), uv_strerror(rc));
  hg_gw_log(c->sb, proto_of(c), c->name, c->ip, c->port, false, "connect_failed", 0, 0);
  c->logged = true;
  c->allowed = false;
  if (c->mode == M_HTTP) {
    http_reply_close(c, 502, "Bad Gateway", "connect_failed");
  } else {
    c->reset = true;
    conn_close(c);
  }
}

/* ---- relay (TLS after the verdict, CIDR:port, HTTP after 101) ---------------- */

static void on_relay_shutdown(uv_shutdown_t *r, int status) {
  conn *c = r->data;
  if (c->closing) return;
  if (status < 0) {
    conn_close(c);
    return;
  }
  (r == &c->sreq[1] ? &c->up : &c->guest)->shut_done = true;
  if (c->guest.shut_done && c->up.shut_done) conn_close(c);
}

/* The peer of s said EOF: pass it on once what is queued is written. */
static void relay_shutdown(conn *c, side *s) {
  if (s->shut || s->closed) return;
  uv_shutdown_t *r = &c->sreq[s == &c->up];
  r->data = c;
  s->shut = true;
  if (uv_shutdown(r, (uv_stream_t *)&s->tcp, on_relay_shutdown) < 0) conn_close(c);
}

static void relay_eof(conn *c, side *from) {
  side *to = from == &c->guest ? &c->up : &c->guest;
  from->eof = true;
  set_reading(c, from, false);
  if (to == &c->up && !c->up_connected) return; /* on_connect passes it on */
  relay_shutdown(c, to);
}

/* ---- TLS: the ClientHello --------------------------------------------------- */

static void hello_data(conn *c, const char *p, size_t n) {
  if (hg_buf_append(&c->in, p, n) < 0) {
    deny_reset(c, "", "too_large");
    return;
  }
  if (hg_tls_sniff(c->in.data, c->in.len) == 0) {
    deny_reset(c, "", "not_tls");
    return;
  }
  int v = hg_sni_feed(&c->sni, p, n);
  if (v < 0) {
    conn_close(c);
    return;
  }
  if (v == HG_SNI_NEED_MORE) return;
  if (v == HG_SNI_DENY) {
    deny_reset(c, "", hg_sni_reason_str(c->sni.reason));
    return;
  }
  const char *why = check_name(c, c->sni.name);
  if (why) {
    deny_reset(c, c->sni.name, why);
    return;
  }
  memcpy(c->name, c->sni.name, sizeof(c->name));
  c->allowed = true;
  c->mode = M_RELAY;
  disarm(c);
  int rc = dial(c, c->port);
  if (rc < 0) {
    dial_failed(c, rc);
    return;
  }
  /* the hello (and anything after it) goes first, byte for byte */
  char *replay = c->in.data;
  size_t len = c->in.len;
  hg_buf_init(&c->in, c->in.max);
  if (send_owned(c, &c->up, replay, len) < 0) {
    conn_close(c);
    return;
  }
  update_reading(c);
}

/* ---- HTTP: response side ---------------------------------------------------- */

typedef struct resp_info {
  int status;
  bool has_cl, te, te_chunked, conn_close;
  uint64_t cl;
} resp_info;

/* The upstream's status line and the fields that frame the body. */
static int resp_parse(const char *p, size_t n, resp_info *ri) {
  size_t i = 0;
  bool first = true;
  memset(ri, 0, sizeof(*ri));
  while (i < n) {
    const char *nl = memchr(p + i, '\n', n - i);
    if (!nl) return -EPROTO;
    size_t s = i, e = (size_t)(nl - p);
    i = e + 1;
    if (e > s && p[e - 1] == '\r') e--;
    if (e == s) break; /* the empty line */
    const char *l = p + s;
    size_t ll = e - s;
    if (first) {
      first = false;
      if (ll < 12 || memcmp(l, "HTTP/1.", 7) != 0 || (l[7] != '0' && l[7] != '1') ||
          l[8] != ' ' || (ll > 12 && l[12] != ' '))
        return -EPROTO;
      for (int k = 9; k < 12; k++)
        if (l[k] < '0' || l[k] > '9') return -EPROTO;
      ri->status = (l[9] - '0') * 100 + (l[10] - '0') * 10 + (l[11] - '0');
      if (ri->status < 100) return -EPROTO;
      continue;
    }
    if (is_ows(l[0])) return -EPROTO; /* obs-fold */
    const char *colon = memchr(l, ':', ll);
    if (!colon || colon == l) return -EPROTO;
    size_t nl_len = (size_t)(colon - l), vs = nl_len + 1, ve = ll;
    for (size_t k = 0; k < nl_len; k++)
      if (is_ows(l[k])) return -EPROTO;
    while (vs < ve && is_ows(l[vs])) vs++;
    while (ve > vs && is_ows(l[ve - 1])) ve--;
    if (ieq(l, nl_len, "content-length")) {
      uint64_t v;
      if (ve - vs > 18 || hg_parse_uint_n(l + vs, ve - vs, UINT64_MAX, &v) < 0 || (ri->has_cl && v != ri->cl))
        return -EPROTO;
      ri->has_cl = true;
      ri->cl = v;
    } else if (ieq(l, nl_len, "transfer-encoding")) {
      /* the final coding decides: chunked, or the body runs to the close */
      size_t t = ve;
      while (t > vs && l[t - 1] != ',') t--;
      while (t < ve && is_ows(l[t])) t++;
      ri->te = true;
      ri->te_chunked = ieq(l + t, ve - t, "chunked");
    } else if (ieq(l, nl_len, "connection")) {
      if (has_token(l + vs, ve - vs, "close")) ri->conn_close = true;
    }
  }
  return first ? -EPROTO : 0;
}

/* Takes bytes up to the end of a response head into c->rhead. 1: complete
 * (*used of p taken), 0: need more (all taken), -1: too large. */
static int rhead_take(conn *c, const char *p, size_t n, size_t *used) {
  size_t old = c->rhead.len, room = c->rhead.max - old;
  size_t take = n < room ? n : room;
  if (hg_buf_append(&c->rhead, p, take) < 0) return -1;
  const char *d = c->rhead.data;
  for (size_t j = old > 2 ? old - 2 : 0; j < c->rhead.len; j++) {
    if (d[j] != '\n' || j == 0) continue;
    if (d[j - 1] == '\n' || (j >= 2 && d[j - 1] == '\r' && d[j - 2] == '\n')) {
      c->rhead.len = j + 1;
      *used = j + 1 - old;
      return 1;
    }
  }
  *used = take;
  return c->rhead.len >= c->rhead.max ? -1 : 0;
}

static void to_tunnel(conn *c, const char *rest, size_t n);

static void resp_complete(conn *c) {
  c->resp = RESP_DONE;
}

/* One response head in c->rhead: forwards it and sets up its body. */
static int resp_head_done(conn *c) {
  resp_info ri;
  if (resp_parse(c->rhead.data, c->rhead.len, &ri) < 0) return -EPROTO;
  int rc = emit(c, c->rhead.data, c->rhead.len);
  hg_buf_reset(&c->rhead);
  if (rc < 0) return rc;
  c->resp_started = true;
  if (ri.status / 100 == 1 && ri.status != 101)
    return 0; /* interim: the final one follows */
  if (ri.status == 101) {
    c->resp = RESP_DONE;
    return 1; /* the caller turns the connection into a tunnel */
  }
  c->resp_close = ri.conn_close;
  if (c->req_is_head || ri.status == 204 || ri.status == 304) {
    resp_complete(c);
  } else if (ri.te && ri.te_chunked) {
    memset(&c->resp_ck, 0, sizeof(c->resp_ck));
    c->resp = RESP_CHUNKED;
  } else if (ri.te || !ri.has_cl) {
    c->resp = RESP_CLOSE;
    c->resp_close = true;
  } else if (ri.cl == 0) {
    resp_complete(c);
  } else {
    c->resp_left = ri.cl;
    c->resp = RESP_LENGTH;
  }
  return 0;
}

static void bad_gateway(conn *c, const char *reason) {
  if (c->resp_started) {
    conn_close(c);
    return;
  }
  http_reply_close(c, 502, "Bad Gateway", reason);
}

/* Upstream bytes of the response to the one request in flight, in the
 * read buffer rb: taken over when its end is passed on as it is. */
static void http_up_data(conn *c, rbuf *rb) {
  const char *p = rb->mem;
  size_t n = rb->len;
  while (n > 0) {
    size_t used = 0;
    bool done = false;
    int rc = 0;
    switch (c->resp) {
      case RESP_HEAD:
        rc = rhead_take(c, p, n, &used);
        if (rc < 0) {
          bad_gateway(c, "bad_response");
          return;
        }
        if (rc == 1) {
          rc = resp_head_done(c);
          if (rc < 0) {
            bad_gateway(c, "bad_response");
            return;
          }
          if (rc == 1) {
            to_tunnel(c, p + used, n - used);
            return;
          }
        }
        break;
      case RESP_LENGTH:
        used = n < c->resp_left ? n : (size_t)c->resp_left;
        c->resp_left -= used;
        if (emit_rb(c, rb, p, used) < 0) {
          conn_close(c);
          return;
        }
        if (c->resp_left == 0) resp_complete(c);
        break;
      case RESP_CHUNKED: {
        long r = chunked_feed(&c->resp_ck, p, n, NULL, &done);
        if (r < 0 || emit_rb(c, rb, p, (size_t)r) < 0) {
          conn_close(c);
          return;
        }
        used = (size_t)r;
        if (done) resp_complete(c);
        break;
      }
      case RESP_CLOSE:
        used = n;
        if (emit_rb(c, rb, p, n) < 0) {
          conn_close(c);
          return;
        }
        break;
      default:
        /* bytes nobody asked for: the two ends no longer agree where
         * messages start */
        conn_close(c);
        return;
    }
    p += used;
    n -= used;
    if (c->resp == RESP_DONE) {
      if (n > 0) {
        conn_close(c);
        return;
      }
      http_resp_finished(c);
      return;
    }
  }
}

static void http_up_eof(conn *c) {
  c->up.eof = true;
  switch (c->resp) {
    case RESP_CLOSE:
      c->resp = RESP_DONE;
      if (emit_flush(c) < 0) {
        conn_close(c);
        return;
      }
      conn_finish(c);
      break;
    case RESP_IDLE:
    case RESP_DONE:
      conn_finish(c);
      break;
    case RESP_HEAD:
      bad_gateway(c, "upstream_closed");
      break;
    default:
      conn_close(c);
  }
}

/* An HTTP/1.1 101: from here on bytes pass unread both ways, to the host
 * already verified. */
static void to_tunnel(conn *c, const char *rest, size_t n) {
  if (c->req != REQ_DONE || c->upgrade || emit_flush(c) < 0) {
    conn_close(c);
    return;
  }
  secrets_clear(c);
  c->mode = M_RELAY;
  disarm(c);
  char *pending = c->in.data;
  size_t plen = c->in.len;
  hg_buf_init(&c->in, c->in.max);
  if (send_copy(c, &c->guest, rest, n) < 0 || send_owned(c, &c->up, pending, plen) < 0) {
    conn_close(c);
    return;
  }
  if (c->guest.eof) relay_shutdown(c, &c->up);
  update_reading(c);
}

/* ---- HTTP: credentials ------------------------------------------------------ */

typedef struct subst {
  char *val[HG_HEAD_MAX_FIELDS]; /* new value of a field, NULL: unchanged */
  size_t len[HG_HEAD_MAX_FIELDS];
  bool upgrade;
} subst;

static void subst_free(subst *s) {
  for (size_t i = 0; i < HG_HEAD_MAX_FIELDS; i++) free(s->val[i]);
}

/* cur with every ph replaced by val; *out NULL when ph does not occur. */
static int replace_all(const char *cur, size_t n, const char *ph, const char *val,
                       char **out, size_t *out_len) {
  size_t pl = strlen(ph), vl = strlen(val), count = 0;
  *out = NULL;
  for (const char *p = cur, *end = cur + n, *m;
       (m = memmem(p, (size_t)(end - p), ph, pl)) != NULL; p = m + pl)
    count++;
  if (count == 0) return 0;
  if (vl > pl && count > (HG_PROXY_HEAD_OUT_MAX - n) / (vl - pl)) return -ENOBUFS;
  size_t len = n - count * pl + count * vl;
  char *r = malloc(len + 1), *w = r;
  if (!r) return -ENOMEM;
  for (const char *p = cur, *end = cur + n;;) {
    const char *m = memmem(p, (size_t)(end - p), ph, pl);
    if (!m) {
      memcpy(w, p, (size_t)(end - p));
      w += end - p;
      break;
    }
    memcpy(w, p, (size_t)(m - p));
    w += m - p;
    memcpy(w, val, vl);
    w += vl;
    p = m + pl;
  }
  *out = r;
  *out_len = len;
  return 0;
}

/* For each credential whose scope holds the verified name: its
 * placeholder replaced by the secret in its own header only. */
static int subst_build(conn *c, subst *s) {
  const hg_policy *p = hg_gw_policy(c->sb);
  const hg_httphead *h = &c->head;
  const char *buf = c->in.data;
  int rc;
  memset(s, 0, sizeof(*s));
  if (!p) return 0;
  for (size_t i = 0; i < p->ncreds && i < HG_GW_CREDS_MAX; i++) {
    const hg_policy_cred *cr = &p->creds[i];
    if (!cr->hosts || !hg_allow_name(cr->hosts, c->name, strlen(c->name))) continue;
    if (cr->upgrade) s->upgrade = true;
    if ((rc = secret_add(c, cr->value)) < 0) return rc;
    if (!cr->placeholder[0] || !cr->header[0]) continue;
    for (int f = hg_httphead_find(h, buf, cr->header, 0); f >= 0;
         f = hg_httphead_find(h, buf, cr->header, (size_t)f + 1)) {
      const char *cur = s->val[f] ? s->val[f] : buf + h->fields[f].value.off;
      size_t cl = s->val[f] ? s->len[f] : h->fields[f].value.len;
      char *nv;
      size_t nl;
      if ((rc = replace_all(cur, cl, cr->placeholder, cr->value, &nv, &nl)) < 0)
        return rc;
      if (nv) {
        free(s->val[f]);
        s->val[f] = nv;
        s->len[f] = nl;
      }
    }
  }
  return 0;
}

/* ---- HTTP: upgraded requests (HTTPS upstream through libcurl) ----------------- */

static void on_curl_done(CURL *e, CURLcode res, void *ud);

static int ps_multi(hg_proxy_set *ps) {
  if (ps->cu) return 0;
  return hg_curluv_new(ps->loop, on_curl_done, ps, &ps->cu);
}

static size_t on_curl_header(char *p, size_t size, size_t nmemb, void *ud) {
  conn *c = ud;
  upg *u = &c->u;
  size_t len = size * nmemb, l = len;
  while (l > 0 && (p[l - 1] == '\r' || p[l - 1] == '\n')) l--;
  if (l == 0) return len;
  if (l >= 5 && memcmp(p, "HTTP/", 5) == 0) {
    /* a new response (after a 100 Continue): forget the last one's */
    hg_buf_reset(&u->rhdrs);
    u->head_cl[0] = u->reason[0] = '\0';
    const char *sp = memchr(p, ' ', l);
    const char *sp2 = sp ? memchr(sp + 1, ' ', l - (size_t)(sp + 1 - p)) : NULL;
    size_t k = 0;
    for (const char *r = sp2 ? sp2 + 1 : p + l; r < p + l && k < sizeof(u->reason) - 1;
         r++)
      if ((unsigned char)*r >= 0x20 && *r != 0x7f) u->reason[k++] = *r;
    u->reason[k] = '\0';
    return len;
  }
  const char *colon = memchr(p, ':', l);
  if (!colon) return len;
  size_t nlen = (size_t)(colon - p);
  if (ieq(p, nlen, "content-length")) {
    size_t vs = nlen + 1, k = 0;
    while (vs < l && is_ows(p[vs])) vs++;
    while (vs < l && p[vs] >= '0' && p[vs] <= '9' && k < sizeof(u->head_cl) - 1)
      u->head_cl[k++] = p[vs++];
    u->head_cl[k] = '\0';
    return len;
  }
  if (hop_by_hop(p, nlen)) return len;
  if (hg_buf_append(&u->rhdrs, p, l) < 0 || hg_buf_append(&u->rhdrs, "\r\n", 2) < 0)
    return 0;
  return len;
}

static size_t on_curl_body(char *p, size_t size, size_t nmemb, void *ud) {
  conn *c = ud;
  size_t len = size * nmemb;
  if (!upg_take(c, len) || hg_buf_append(&c->u.rbody, p, len) < 0) {
    c->u.too_big = true;
    return 0;
  }
  return len;
}

/* Method, target and fields of the request in c->in, for libcurl. */
static int upgrade_prepare(conn *c, const subst *s) {
  const hg_httphead *h = &c->head;
  const char *buf = c->in.data, *t = buf + h->target.off;
  upg *u = &c->u;
  bool has_accept = false, has_ctype = false, expect = false;
  hg_buf_init(&u->body, HG_PROXY_UPGRADE_REQ_MAX);
  hg_buf_init(&u->rhdrs, UPGRADE_HDRS_MAX);
  hg_buf_init(&u->rbody, HG_PROXY_UPGRADE_RESP_MAX);
  u->method = strndup(buf + h->method.off, h->method.len);
  if (h->form != HG_HEAD_ABSOLUTE) {
    u->target = strndup(t, h->target.len);
  } else {
    /* "http://host/p?q" -> "/p?q": the path starts at the first '/' or '?' */
    size_t e = 7;
    while (e < h->target.len && t[e] != '/' && t[e] != '?') e++;
    int rl = (int)(h->target.len - e);
    if (asprintf(&u->target, "%s%.*s", rl && t[e] == '/' ? "" : "/", rl, t + e) < 0)
      u->target = NULL;
  }
  if (!u->method || !u->target) return -ENOMEM;
  for (size_t i = 0; i < h->nfields; i++) {
    const hg_head_field *f = &h->fields[i];
    const char *name = buf + f->name.off;
    const char *val = s->val[i] ? s->val[i] : buf + f->value.off;
    size_t vlen = s->val[i] ? s->len[i] : f->value.len;
    if (ieq(name, f->name.len, "expect"))
      expect = expect || ieq(buf + f->value.off, f->value.len, "100-continue");
    if (hop_by_hop(name, f->name.len)) continue;
    has_accept = has_accept || ieq(name, f->name.len, "accept");
    has_ctype = has_ctype || ieq(name, f->name.len, "content-type");
    char *line;
    /* "Name;" is libcurl's way to send a field with an empty value */
    int n = vlen ? asprintf(&line, "%.*s: %.*s", (int)f->name.len, name, (int)vlen, val)
                 : asprintf(&line, "%.*s;", (int)f->name.len, name);
    if (n < 0) return -ENOMEM;
    struct curl_slist *l = curl_slist_append(u->hdrs, line);
    free(line);
    if (!l) return -ENOMEM;
    u->hdrs = l;
  }
  /* "Name:" stops libcurl from adding its own */
  const char *none[] = {
      has_accept ? NULL : "Accept:", has_ctype ? NULL : "Content-Type:", "Expect:"};
  for (size_t i = 0; i < sizeof(none) / sizeof(none[0]); i++) {
    if (!none[i]) continue;
    struct curl_slist *l = curl_slist_append(u->hdrs, none[i]);
    if (!l) return -ENOMEM;
    u->hdrs = l;
  }
  u->is_head = strcmp(u->method, "HEAD") == 0;
  u->has_body = h->body != HG_HEAD_BODY_NONE;
  u->expect_continue = expect && u->has_body;
  return 0;
}

static int upgrade_start(conn *c) {
  upg *u = &c->u;
  char url[HG_NAME_MAX + 16], to[HG_NAME_MAX + 48];
  int rc;
  if ((rc = ps_multi(c->ps)) < 0) return rc;
  CURL *e = curl_easy_init();
  if (!e) return -ENOMEM;
  u->easy = e;
  snprintf(url, sizeof(url), "https://%s/", c->name);
  /* TLS to the verified name, TCP to the checked address */
  snprintf(to, sizeof(to), "%s:443:%u.%u.%u.%u:%u", c->name, c->ip >> 24,
           (c->ip >> 16) & 255, (c->ip >> 8) & 255, c->ip & 255,
           hg_proxy_test_seams.https_port);
  if (!(u->connect_to = curl_slist_append(NULL, to))) return -ENOMEM;
  curl_easy_setopt(e, CURLOPT_URL, url);
  curl_easy_setopt(e, CURLOPT_CONNECT_TO, u->connect_to);
  curl_easy_setopt(e, CURLOPT_REQUEST_TARGET, u->target);
  curl_easy_setopt(e, CURLOPT_CUSTOMREQUEST, u->method); /* over POSTFIELDS' POST */
  if (u->is_head) curl_easy_setopt(e, CURLOPT_NOBODY, 1L);
  if (u->has_body) {
    curl_easy_setopt(e, CURLOPT_POSTFIELDSIZE_LARGE, (curl_off_t)u->body.len);
    curl_easy_setopt(e, CURLOPT_POSTFIELDS, u->body.data ? u->body.data : "");
  }
  curl_easy_setopt(e, CURLOPT_HTTPHEADER, u->hdrs);
  curl_easy_setopt(e, CURLOPT_FOLLOWLOCATION, 0L);
#if LIBCURL_VERSION_NUM >= 0x075500
  curl_easy_setopt(e, CURLOPT_PROTOCOLS_STR, "https");
#else
  curl_easy_setopt(e, CURLOPT_PROTOCOLS, (long)CURLPROTO_HTTPS);
#endif
  curl_easy_setopt(e, CURLOPT_PROXY, ""); /* no proxy from the environment */
  curl_easy_setopt(e, CURLOPT_NOSIGNAL, 1L);
  curl_easy_setopt(e, CURLOPT_HTTP_VERSION, (long)CURL_HTTP_VERSION_1_1);
  curl_easy_setopt(e, CURLOPT_IPRESOLVE, (long)CURL_IPRESOLVE_V4);
  curl_easy_setopt(e, CURLOPT_CONNECTTIMEOUT_MS, (long)HG_PROXY_DIAL_MS);
  curl_easy_setopt(e, CURLOPT_LOW_SPEED_LIMIT, 1L);
  curl_easy_setopt(e, CURLOPT_LOW_SPEED_TIME, 60L);
  curl_easy_setopt(e, CURLOPT_MAXFILESIZE_LARGE, (curl_off_t)HG_PROXY_UPGRADE_RESP_MAX);
  curl_easy_setopt(e, CURLOPT_SSL_VERIFYPEER, 1L);
  curl_easy_setopt(e, CURLOPT_SSL_VERIFYHOST, 2L);
  const char *ca = getenv("HANGAR_GATEWAY_CA_FILE");
  if (ca && *ca) curl_easy_setopt(e, CURLOPT_CAINFO, ca);
  curl_easy_setopt(e, CURLOPT_HEADERFUNCTION, on_curl_header);
  curl_easy_setopt(e, CURLOPT_HEADERDATA, c);
  curl_easy_setopt(e, CURLOPT_WRITEFUNCTION, on_curl_body);
  curl_easy_setopt(e, CURLOPT_WRITEDATA, c);
  curl_easy_setopt(e, CURLOPT_PRIVATE, c);
  if ((rc = hg_curluv_add(c->ps->cu, e)) < 0) return rc;
  c->bytes_out += u->body.len;
  return 0;
}

/* The HTTPS answer, to the guest as HTTP/1.1 with a Content-Length. */
static void upgrade_done(conn *c, CURLcode res, long status) {
  upg *u = &c->u;
  if (res != CURLE_OK || status < 200 || status > 999) {
    const char *why = u->too_big || res == CURLE_FILESIZE_EXCEEDED ? "response_too_large"
                                                                   : "upstream_error";
    hg_log_info("proxy.upgrade", "sandbox=%s name=%s err=\"%s\"", hg_gw_name(c->sb),
                c->name, curl_easy_strerror(res));
    upgrade_free(c);
    http_reply_close(c, 502, "Bad Gateway", why);
    return;
  }
  bool nobody = status == 204 || status == 304;
  hg_buf head;
  int rc;
  hg_buf_init(&head, UPGRADE_HDRS_MAX + 512);
  rc = hg_buf_printf(&head, "HTTP/1.1 %ld %s\r\n", status, u->reason);
  if (!rc) rc = hg_buf_append(&head, u->rhdrs.data, u->rhdrs.len);
  if (!rc && u->is_head && u->head_cl[0])
    rc = hg_buf_printf(&head, "Content-Length: %s\r\n", u->head_cl);
  else if (!rc && !u->is_head && !nobody)
    rc = hg_buf_printf(&head, "Content-Length: %zu\r\n", u->rbody.len);
  if (!rc && c->close_after) rc = hg_buf_append(&head, "Connection: close\r\n", 19);
  if (!rc) rc = hg_buf_append(&head, "\r\n", 2);
  if (rc < 0) {
    hg_buf_free(&head);
    upgrade_free(c);
    http_reply_close(c, 502, "Bad Gateway", "response_too_large");
    return;
  }
  /* the body goes out as it is, no copy; its share of the budget is given
   * back when the guest has taken it (on_write), not before */
  char *body = u->rbody.data;
  size_t blen = u->is_head || nobody ? 0 : u->rbody.len, held = u->held;
  hg_buf_init(&u->rbody, u->rbody.max);
  u->held = 0;
  upgrade_free(c);
  mask_scan(c, head.data, head.len);
  mask_scan(c, body, blen); /* a secret has no CR or LF: none spans the two */
  rc = send_owned(c, &c->guest, head.data, head.len);
  /* called whatever rc is: it frees the body and gives the budget back */
  if (send_budget(c, &c->guest, body, blen, held) < 0 || rc < 0) {
    conn_close(c);
    return;
  }
  c->resp = RESP_DONE;
  http_resp_finished(c);
}

static void on_curl_done(CURL *e, CURLcode res, void *ud) {
  hg_proxy_set *ps = ud;
  conn *c = NULL;
  long status = 0;
  curl_easy_getinfo(e, CURLINFO_PRIVATE, (char **)&c);
  curl_easy_getinfo(e, CURLINFO_RESPONSE_CODE, &status);
  hg_curluv_remove(ps->cu, e);
  curl_easy_cleanup(e);
  if (!c) return;
  c->u.easy = NULL;
  upgrade_done(c, res, status);
}

/* ---- HTTP: request side ----------------------------------------------------- */

static void req_done(conn *c) {
  c->req = REQ_DONE;
  if (!c->upgrade) return;
  int rc = upgrade_start(c);
  if (rc < 0) {
    upgrade_free(c);
    http_reply_close(c, 502, "Bad Gateway", "upgrade_failed");
  }
}

/* One request head is in: checks it, substitutes credentials, and sends
 * it on (or hands it to libcurl). */
static void http_request(conn *c) {
  hg_httphead *h = &c->head;
  const char *buf = c->in.data;
  subst s;
  int rc;
  if (h->verdict == HG_HEAD_CONNECT) {
    http_deny(c, h->host, "connect");
    return;
  }
  if (h->verdict != HG_HEAD_OK) {
    http_deny(c, "",
              h->reason == HG_HEAD_R_TLS ? "tls_on_http" : hg_head_reason_str(h->reason));
    return;
  }
  /* the connection goes to one address, checked for one name: a
   * later request may not name another host (fronting, smuggling) */
  if (c->name[0] && strcmp(c->name, h->host) != 0) {
    http_deny(c, h->host, "host_changed");
    return;
  }
  if (h->port && h->port != c->port) {
    http_deny(c, h->host, "port_mismatch");
    return;
  }
  const char *why = check_name(c, h->host);
  if (why) {
    http_deny(c, h->host, why);
    return;
  }
  if (!c->name[0]) memcpy(c->name, h->host, sizeof(c->name));
  c->allowed = true;
  disarm(c);
  secrets_clear(c);
  hg_buf_reset(&c->hold);
  if ((rc = subst_build(c, &s)) < 0) {
    subst_free(&s);
    http_deny(c, h->host, rc == -ENOBUFS ? "head_too_large" : "no_memory");
    return;
  }
  c->req_is_head = h->method.len == 4 && memcmp(buf + h->method.off, "HEAD", 4) == 0;
  c->close_after = h->minor == 0;
  for (int f = hg_httphead_find(h, buf, "connection", 0); f >= 0;
       f = hg_httphead_find(h, buf, "connection", (size_t)f + 1))
    if (has_token(buf + h->fields[f].value.off, h->fields[f].value.len, "close"))
      c->close_after = true;
  c->upgrade = s.upgrade;
  c->resp_started = false;
  c->body_kind = h->body;
  if (c->upgrade) {
    rc = upgrade_prepare(c, &s);
    subst_free(&s);
    if (rc < 0) {
      upgrade_free(c);
      http_reply_close(c, 502, "Bad Gateway", "no_memory");
      return;
    }
    if (h->body == HG_HEAD_BODY_LENGTH && h->content_length > HG_PROXY_UPGRADE_REQ_MAX) {
      upgrade_free(c);
      http_deny(c, h->host, "body_too_large");
      return;
    }
    if (c->u.expect_continue &&
        send_copy(c, &c->guest, "HTTP/1.1 100 Continue\r\n\r\n", 25) < 0) {
      conn_close(c);
      return;
    }
    c->bytes_out += h->head_len;
    c->resp = RESP_UPGRADE;
  } else {
    char *out = malloc(HG_PROXY_HEAD_OUT_MAX);
    size_t out_len = 0;
    hg_head_edit edits[HG_HEAD_MAX_FIELDS];
    size_t n = 0;
    for (size_t i = 0; i < h->nfields; i++)
      if (s.val[i]) edits[n++] = (hg_head_edit){i, s.val[i], s.len[i]};
    rc = out ? hg_httphead_rebuild(h, buf, edits, n, out, HG_PROXY_HEAD_OUT_MAX, &out_len)
             : -ENOMEM;
    subst_free(&s);
    if (rc < 0) {
      free(out);
      http_deny(c, h->host, rc == -ENOBUFS ? "head_too_large" : "bad_credential");
      return;
    }
    if (!c->up.init && (rc = dial(c, c->port)) < 0) {
      free(out);
      dial_failed(c, rc);
      return;
    }
    if (send_owned(c, &c->up, out, out_len) < 0) {
      conn_close(c);
      return;
    }
    hg_buf_reset(&c->rhead);
    c->resp = RESP_HEAD;
  }
  hg_buf_consume(&c->in, h->head_len);
  switch (c->body_kind) {
    case HG_HEAD_BODY_NONE:
      req_done(c);
      break;
    case HG_HEAD_BODY_LENGTH:
      c->body_left = h->content_length;
      c->req = REQ_BODY;
      if (c->body_left == 0) req_done(c);
      break;
    case HG_HEAD_BODY_CHUNKED:
      memset(&c->req_ck, 0, sizeof(c->req_ck));
      c->req = REQ_BODY;
      break;
  }
}

/* Passes on the body bytes in c->in. */
static void http_body(conn *c) {
  const char *p = c->in.data;
  size_t n = c->in.len, used;
  bool done = false;
  if (c->body_kind == HG_HEAD_BODY_LENGTH) {
    used = n < c->body_left ? n : (size_t)c->body_left;
    c->body_left -= used;
    done = c->body_left == 0;
    if (c->upgrade && (!upg_take(c, used) || hg_buf_append(&c->u.body, p, used) < 0)) {
      http_deny(c, c->name, "body_too_large");
      return;
    }
  } else {
    size_t before = c->u.body.len;
    long r = chunked_feed(&c->req_ck, p, n, c->upgrade ? &c->u.body : NULL, &done);
    if (r >= 0 && c->upgrade && !upg_take(c, c->u.body.len - before)) r = -ENOBUFS;
    if (r < 0) {
      /* bytes of it may be upstream already: nothing sane to answer */
      if (r == -ENOBUFS)
        http_deny(c, c->name, "body_too_large");
      else if (c->upgrade)
        http_deny(c, c->name, "bad_chunked");
      else
        conn_close(c);
      return;
    }
    used = (size_t)r;
  }
  if (!c->upgrade && send_copy(c, &c->up, p, used) < 0) {
    conn_close(c);
    return;
  }
  hg_buf_consume(&c->in, used);
  if (done) req_done(c);
}

static void next_request(conn *c) {
  hg_httphead_reset(&c->head);
  c->req = REQ_HEAD;
  c->resp = RESP_IDLE;
  c->upgrade = false;
  arm(c, T_HEAD, hg_proxy_test_seams.head_ms);
}

static void http_pump(conn *c) {
  while (!c->closing && !c->finishing) {
    if (c->req == REQ_HEAD) {
      int v = c->in.len ? hg_httphead_parse(&c->head, c->in.data, c->in.len)
                        : HG_HEAD_NEED_MORE;
      if (v == HG_HEAD_NEED_MORE) {
        if (c->guest.eof) {
          if (c->in.len) {
            hg_gw_log(c->sb, "http", "", c->ip, c->port, false, "incomplete", 0, 0);
          }
          conn_finish(c);
        }
        break;
      }
      http_request(c);
    } else if (c->req == REQ_BODY) {
      if (c->in.len == 0) {
        if (c->guest.eof) conn_close(c); /* a body cut short */
        break;
      }
      http_body(c);
    } else if (c->resp == RESP_DONE) {
      next_request(c);
    } else {
      break;
    }
  }
  update_reading(c);
}

/* The response to the request in flight is written (or queued). */
static void http_resp_finished(conn *c) {
  if (emit_flush(c) < 0) {
    conn_close(c);
    return;
  }
  secrets_clear(c);
  if (c->resp_close || c->close_after) {
    conn_finish(c);
    return;
  }
  http_pump(c);
}

static void http_guest_data(conn *c, const char *p, size_t n) {
  if (hg_buf_append(&c->in, p, n) < 0) {
    conn_close(c);
    return;
  }
  http_pump(c);
}

/* ---- read callbacks --------------------------------------------------------- */

static void on_guest_read(uv_stream_t *st, ssize_t nread, const uv_buf_t *buf) {
  conn *c = st->data;
  if (nread == 0 || c->closing) {
    free(buf->base);
    return;
  }
  if (c->finishing) {
    free(buf->base);
    if (nread < 0) {
      c->guest.eof = true;
      set_reading(c, &c->guest, false);
      if (nread != UV_EOF || c->guest.shut_done) conn_close(c);
    }
    return;
  }
  if (nread < 0) {
    free(buf->base);
    if (nread != UV_EOF) {
      conn_close(c);
    } else if (c->mode == M_HELLO) {
      deny_reset(c, "", "incomplete");
    } else if (c->mode == M_RELAY) {
      relay_eof(c, &c->guest);
    } else {
      c->guest.eof = true;
      set_reading(c, &c->guest, false);
      http_pump(c);
    }
    return;
  }
  switch (c->mode) {
    case M_HELLO:
      hello_data(c, buf->base, (size_t)nread);
      free(buf->base);
      break;
    case M_HTTP:
      http_guest_data(c, buf->base, (size_t)nread);
      free(buf->base);
      break;
    case M_RELAY:
      if (send_read(c, &c->up, buf->base, buf->len, buf->base, (size_t)nread) < 0)
        conn_close(c);
      else
        update_reading(c);
      break;
  }
}

static void on_up_read(uv_stream_t *st, ssize_t nread, const uv_buf_t *buf) {
  conn *c = st->data;
  if (nread == 0 || c->closing || c->finishing) {
    free(buf->base);
    return;
  }
  if (nread < 0) {
    free(buf->base);
    if (nread != UV_EOF)
      conn_close(c);
    else if (c->mode == M_RELAY)
      relay_eof(c, &c->up);
    else
      http_up_eof(c);
    return;
  }
  if (c->mode == M_RELAY) {
    if (send_read(c, &c->guest, buf->base, buf->len, buf->base, (size_t)nread) < 0)
      conn_close(c);
    else
      update_reading(c);
    return;
  }
  rbuf rb = {.mem = buf->base, .len = (size_t)nread, .cap = buf->len};
  http_up_data(c, &rb);
  free(rb.mem);
  if (!c->closing) update_reading(c);
}

static void on_timer(uv_timer_t *t) {
  conn *c = t->data;
  timer_use use = c->tuse;
  c->tuse = T_NONE;
  if (c->closing) return;
  switch (use) {
    case T_HELLO:
      deny_reset(c, "", "timeout");
      break;
    case T_HEAD:
      if (c->finishing || c->req != REQ_HEAD) break;
      if (c->in.len == 0 && c->allowed) {
        conn_finish(c); /* an idle keep-alive connection, not a verdict */
        break;
      }
      hg_gw_log(c->sb, "http", "", c->ip, c->port, false, "timeout", 0, 0);
      http_reply_close(c, 408, "Request Timeout", "timeout");
      break;
    case T_DIAL:
      hg_gw_log(c->sb, proto_of(c), c->name, c->ip, c->port, false, "connect_timeout", 0,
                0);
      c->logged = true;
      c->allowed = false;
      if (c->mode == M_HTTP) {
        http_reply_close(c, 504, "Gateway Timeout", "connect_timeout");
      } else {
        c->reset = true;
        conn_close(c);
      }
      break;
    case T_LINGER:
      conn_close(c);
      break;
    case T_NONE:
      break;
  }
}

/* ---- the set and the calls gateway.c makes ---------------------------------- */

hg_proxy_set *hg_proxy_set_new(void) {
  return calloc(1, sizeof(hg_proxy_set));
}

void hg_proxy_set_free(hg_proxy_set *ps) {
  if (!ps) return;
  /* hg_proxy_close_all has run to its end: no connection, no handle */
  free(ps);
}

static void on_curluv_closed(void *ud) {
  hg_proxy_set *ps = ud;
  ps->pending--;
  ps_maybe_done(ps);
}

static void ps_maybe_done(hg_proxy_set *ps) {
  if (!ps->closing || ps->nconns > 0 || ps->done_called) return;
  if (ps->cu) {
    hg_curluv *cu = ps->cu;
    ps->cu = NULL;
    ps->pending++;
    hg_curluv_close(cu, on_curluv_closed, ps);
  }
  if (ps->pending > 0) return;
  ps->done_called = true;
  if (ps->done) ps->done(ps->done_ud);
}

static void on_drop_close(uv_handle_t *h) {
  free(h);
}

/* Out of memory for a connection: take it off the listener anyway, or
 * libuv stops accepting on it. */
static void accept_drop(uv_loop_t *loop, uv_stream_t *listener) {
  uv_tcp_t *t = malloc(sizeof(*t));
  if (!t) return;
  if (uv_tcp_init(loop, t) < 0) {
    free(t);
    return;
  }
  uv_accept(listener, (uv_stream_t *)t);
  uv_close((uv_handle_t *)t, on_drop_close);
}

void hg_proxy_accept(hg_gw_sandbox *sb, uv_stream_t *listener, hg_proxy_kind kind) {
  hg_proxy_set *ps = hg_gw_proxies(sb);
  uv_loop_t *loop = hg_gw_loop(sb);
  conn *c = calloc(1, sizeof(*c));
  if (!c) {
    accept_drop(loop, listener);
    return;
  }
  c->sb = sb;
  c->kind = kind;
  hg_buf_init(&c->in, kind == HG_PROXY_TLS ? HG_SNI_MAX_WIRE + 4096 : 2 * HG_HEAD_MAX);
  hg_buf_init(&c->rhead, HG_PROXY_RESP_HEAD_MAX);
  hg_buf_init(&c->hold, HOLD_MAX);
  hg_sni_init(&c->sni);
  hg_httphead_init(&c->head);
  if (uv_tcp_init(loop, &c->guest.tcp) < 0) {
    free(c);
    accept_drop(loop, listener);
    return;
  }
  c->guest.init = true;
  c->guest.tcp.data = c;
  c->handles = 1;
  if (uv_timer_init(loop, &c->timer) == 0) {
    c->timer.data = c;
    c->handles++;
  } else {
    c->timer_closed = true;
  }
  if (ps) {
    ps->sb = sb;
    ps->loop = loop;
    c->ps = ps;
    HG_LIST_PUSH(ps->conns, c);
    ps->nconns++;
  }
  if (uv_accept(listener, (uv_stream_t *)&c->guest.tcp) < 0 || !ps || ps->closing ||
      c->timer_closed) {
    conn_close(c);
    return;
  }
  if (ps->nconns > HG_PROXY_MAX_CONNS) {
    deny_reset(c, "", "too_many_connections");
    return;
  }
  if (hg_proxy_test_seams.orig_dst(&c->guest.tcp, &c->ip, &c->port) < 0) {
    deny_reset(c, "", "no_orig_dst");
    return;
  }
  uv_tcp_nodelay(&c->guest.tcp, 1);
  switch (kind) {
    case HG_PROXY_TLS:
      c->mode = M_HELLO;
      arm(c, T_HELLO, hg_proxy_test_seams.hello_ms);
      break;
    case HG_PROXY_HTTP:
      c->mode = M_HTTP;
      c->req = REQ_HEAD;
      arm(c, T_HEAD, hg_proxy_test_seams.head_ms);
      break;
    case HG_PROXY_RELAY: {
      const hg_policy *p = hg_gw_policy(sb);
      int rc;
      c->mode = M_RELAY;
      if (!p || !hg_allow_addr(p->allow, c->ip, c->port)) {
        deny_reset(c, "", "not_allowed");
        return;
      }
      if (hg_gw_addr_denied(sb, c->ip)) {
        deny_reset(c, "", "dst_denied");
        return;
      }
      c->allowed = true;
      if ((rc = dial(c, c->port)) < 0) {
        dial_failed(c, rc);
        return;
      }
      break;
    }
  }
  update_reading(c);
}

static bool still_allowed(conn *c, const hg_policy *p) {
  if (!p || hg_gw_addr_denied(c->sb, c->ip)) return false;
  if (c->kind == HG_PROXY_RELAY) return hg_allow_addr(p->allow, c->ip, c->port) == 1;
  return hg_allow_name(p->allow, c->name, strlen(c->name)) == 1;
}

void hg_proxy_recheck(hg_gw_sandbox *sb) {
  hg_proxy_set *ps = hg_gw_proxies(sb);
  if (!ps) return;
  const hg_policy *p = hg_gw_policy(sb);
  /* conn_close frees nothing at once (close callbacks do): the list holds */
  for (conn *c = ps->conns; c; c = c->next) {
    if (c->closing || !c->allowed || still_allowed(c, p)) continue;
    hg_gw_log(sb, proto_of(c), c->name, c->ip, c->port, false, "policy_revoked",
              c->bytes_out, c->bytes_in);
    c->logged = true;
    c->reset = true;
    conn_close(c);
  }
}

void hg_proxy_close_all(hg_gw_sandbox *sb, void (*done)(void *ud), void *ud) {
  hg_proxy_set *ps = hg_gw_proxies(sb);
  if (!ps) {
    if (done) done(ud);
    return;
  }
  ps->closing = true;
  ps->done = done;
  ps->done_ud = ud;
  for (conn *c = ps->conns; c; c = c->next) conn_close(c);
  ps_maybe_done(ps);
}
