/* proxy: the L7 egress proxy (TLS by SNI, HTTP by Host, credential
 * injection, HTTPS upgrade through libcurl) and the L4 relay. See proxy.h
 * for the rules; gw.h for the contract with gateway.c.
 *
 * A connection is one struct conn with up to three handles (the guest's
 * socket, the upstream socket, a timer); it is freed in the last close
 * callback. Everything runs on the gateway loop. Every buffer is bounded:
 * the replay/head buffer (in), the write queues (back-pressure stops the
 * reading side above HG_PROXY_WQ_HIGH), response heads, the mask's hold.
 *
 * The allow decision is made on what the guest cannot lie about together:
 * the name it claims (SNI or Host) must be allowed, and the address it
 * actually connected to must be one the gateway itself answered for that
 * name. The proxy then connects to that same address, so there is no
 * second lookup an attacker could race (DNS rebinding).
 *
 * This file: connections, writing and reading, timers, closing, dialing,
 * the relay, the TLS ClientHello, and the set gateway.c drives. Beside it,
 * behind proxy_internal.h: the HTTP path (proxy_http.c) and requests
 * upgraded to HTTPS through libcurl (proxy_upgrade.c). */
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
#include "gateway/proxy_internal.h"
#include "gateway/sni.h"
#include "node/core/buf.h"
#include "node/core/curluv.h"
#include "node/core/list.h"
#include "node/core/log.h"

#ifndef SO_ORIGINAL_DST
#define SO_ORIGINAL_DST 80 /* linux/netfilter_ipv4.h */
#endif

static int orig_dst_sockopt(uv_tcp_t *guest, uint32_t *ip, uint16_t *port);

hg_proxy_seams hg_proxy_test_seams = {
    .orig_dst = orig_dst_sockopt,
    .https_port = 443,
    .hello_ms = HG_PROXY_HELLO_MS,
    .head_ms = HG_PROXY_HEAD_MS,
};

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

bool hg__proxy_ieq(const char *a, size_t alen, const char *b) {
  size_t blen = strlen(b);
  if (alen != blen) return false;
  for (size_t i = 0; i < alen; i++)
    if (lower(a[i]) != lower(b[i])) return false;
  return true;
}

bool hg__proxy_is_ows(char ch) {
  return ch == ' ' || ch == '\t';
}

/* True when the comma-separated list v holds token tok (any case). */
bool hg__proxy_has_token(const char *v, size_t n, const char *tok) {
  size_t i = 0;
  while (i < n) {
    size_t s = i, e;
    while (i < n && v[i] != ',') i++;
    e = i++;
    while (s < e && hg__proxy_is_ows(v[s])) s++;
    while (e > s && hg__proxy_is_ows(v[e - 1])) e--;
    if (hg__proxy_ieq(v + s, e - s, tok)) return true;
  }
  return false;
}

/* True when the comma-separated list v names nothing but tok (any case;
 * empty elements do not count); *count (when not NULL): how many
 * elements it has. */
bool hg__proxy_list_only_of(const char *v, size_t n, const char *tok, size_t *count) {
  bool only = true;
  size_t k = 0;
  for (size_t i = 0; i < n;) {
    size_t s = i, e;
    while (i < n && v[i] != ',') i++;
    e = i++;
    while (s < e && hg__proxy_is_ows(v[s])) s++;
    while (e > s && hg__proxy_is_ows(v[e - 1])) e--;
    if (e == s) continue;
    k++;
    only = only && hg__proxy_ieq(v + s, e - s, tok);
  }
  if (count) *count = k;
  return only;
}

/* Fields a proxy does not pass on (RFC 9110 7.6.1), and those libcurl
 * writes itself for an upgraded request. */
bool hg__proxy_hop_by_hop(const char *name, size_t n) {
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
                                    "expect",
                                    /* h2c's settings: only with Upgrade: h2c */
                                    "http2-settings"};
  for (size_t i = 0; i < sizeof(hop) / sizeof(hop[0]); i++)
    if (hg__proxy_ieq(name, n, hop[i])) return true;
  return false;
}

const char *hg__proxy_check_name(conn *c, const char *name) {
  const hg_policy *p = hg_gw_policy(c->sb);
  if (!p || !hg_allow_name(p->allow, name, strlen(name))) return "not_allowed";
  if (!hg_gw_dns_answered(c->sb, name, c->ip)) return "dst_not_answered";
  if (hg_gw_addr_denied(c->sb, c->ip)) return "dst_denied";
  return NULL;
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
    if (!(c->finishing && s == &c->up)) hg__proxy_conn_close(c);
    return;
  }
  hg__proxy_update_reading(c);
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
  *w = (wreq){.c = c,
              .s = s,
              .mem = mem,
              .data = data,
              .len = len,
              .held = held,
              .budget = budget};
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

int hg__proxy_send_budget(conn *c, side *s, char *data, size_t len, size_t budget) {
  return send_mem(c, s, data, data, len, len, budget);
}

int hg__proxy_send_owned(conn *c, side *s, char *data, size_t len) {
  return hg__proxy_send_budget(c, s, data, len, 0);
}

int hg__proxy_send_copy(conn *c, side *s, const void *data, size_t len) {
  if (len == 0) return 0;
  char *d = malloc(len);
  if (!d) return -ENOMEM;
  memcpy(d, data, len);
  return hg__proxy_send_owned(c, s, d, len);
}

/* data[0..len) lies in the read buffer mem of cap bytes (owned from here
 * on): passed on without a copy, counted as cap in the write queue, when
 * it fills a fair part of it. A small piece is copied instead: a trickling
 * peer is not throttled as if each byte were a whole buffer. */
static int send_read(conn *c, side *s, char *mem, size_t cap, char *data, size_t len) {
  if (len >= cap / 4) return send_mem(c, s, mem, data, len, cap, 0);
  int rc = hg__proxy_send_copy(c, s, data, len);
  free(mem);
  return rc;
}

/* Masked bytes to the guest: as they are, or as one chunk of a body the
 * mask decoded (c->rechunk). */
static int emit_out(void *ud, const char *p, size_t n) {
  conn *c = ud;
  char line[24];
  if (n == 0) return 0;
  if (!c->rechunk) return hg__proxy_send_copy(c, &c->guest, p, n);
  int ll = snprintf(line, sizeof(line), "%zx\r\n", n);
  char *d = malloc((size_t)ll + n + 2);
  if (!d) return -ENOMEM;
  memcpy(d, line, (size_t)ll);
  memcpy(d + ll, p, n);
  memcpy(d + ll + n, "\r\n", 2);
  return hg__proxy_send_owned(c, &c->guest, d, (size_t)ll + n + 2);
}

/* Response bytes to the guest, through the mask when secrets are in scope.
 * With none in scope (no credential for this host), a span that runs to
 * the end of the read buffer rb goes on in that buffer: no copy on the
 * path of a download. */
int hg__proxy_emit_rb(conn *c, rbuf *rb, const char *p, size_t n) {
  if (!hg_mask_active(&c->mask) && rb && rb->mem && n > 0 && p + n == rb->mem + rb->len) {
    char *mem = rb->mem;
    rb->mem = NULL;
    return send_read(c, &c->guest, mem, rb->cap, (char *)p, n);
  }
  return hg_mask_feed(&c->mask, p, n, emit_out, c);
}

int hg__proxy_emit(conn *c, const char *p, size_t n) {
  return hg__proxy_emit_rb(c, NULL, p, n);
}

int hg__proxy_emit_flush(conn *c) {
  return hg_mask_flush(&c->mask, emit_out, c);
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
      hg__proxy_conn_close(c);
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
  if (c->finishing) return true; /* drained, see hg__proxy_conn_finish */
  if (!below_mark(&c->guest, &c->up)) return false;
  if (c->mode == M_HTTP) return c->req != REQ_DONE && c->in.len < c->in.max;
  return true;
}

static bool up_wants(conn *c) {
  if (c->finishing || !c->up.init || c->up.closed || !c->up_connected || c->up.eof)
    return false;
  return below_mark(&c->up, &c->guest);
}

void hg__proxy_update_reading(conn *c) {
  if (c->closing) return;
  set_reading(c, &c->guest, guest_wants(c));
  if (c->closing) return;
  set_reading(c, &c->up, up_wants(c));
}

/* ---- timer ------------------------------------------------------------------ */

static void on_timer(uv_timer_t *t);

void hg__proxy_arm(conn *c, timer_use use, unsigned ms) {
  c->tuse = use;
  uv_timer_start(&c->timer, on_timer, ms, 0);
}

void hg__proxy_disarm(conn *c) {
  c->tuse = T_NONE;
  uv_timer_stop(&c->timer);
}

/* ---- closing ---------------------------------------------------------------- */

/* Bodies of upgraded requests are held whole; the set's budget keeps 256
 * connections from holding 256 times HG_PROXY_UPGRADE_RESP_MAX. */
bool hg__proxy_upg_take(conn *c, size_t n) {
  if (!c->ps || n > HG_PROXY_UPGRADE_SET_MAX - c->ps->upg_bytes) return false;
  c->ps->upg_bytes += n;
  c->u.held += n;
  return true;
}

void hg__proxy_upgrade_free(conn *c) {
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

static void conn_free(void *cv) {
  conn *c = cv;
  hg_proxy_set *ps = c->ps;
  if (ps) {
    HG_LIST_UNLINK(ps->conns, c);
    ps->nconns--;
  }
  hg__proxy_upgrade_free(c);
  hg__proxy_secrets_clear(c);
  hg_sni_free(&c->sni);
  hg_buf_free(&c->in);
  hg_buf_free(&c->rhead);
  free(c);
  if (ps) hg__proxy_ps_maybe_done(ps);
}

static void on_close(uv_handle_t *h) {
  conn *c = h->data;
  hg_closer_closed(&c->closer);
}

static void close_side(conn *c, side *s) {
  if (!s->init || s->closed) return;
  s->closed = true;
  s->reading = false;
  /* a denied TLS or TCP guest gets a reset: nothing it sent was taken */
  if (c->reset && s == &c->guest && uv_tcp_close_reset(&s->tcp, on_close) == 0) return;
  uv_close((uv_handle_t *)&s->tcp, on_close);
}

void hg__proxy_conn_close(conn *c) {
  if (c->closing) return;
  c->closing = true;
  if (c->allowed && !c->logged) {
    c->logged = true;
    hg_gw_log(c->sb, proto_of(c), c->name, c->ip, c->port, true, "ok", c->bytes_out,
              c->bytes_in);
  }
  hg__proxy_upgrade_free(c);
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
  if (status < 0 || c->guest.eof) hg__proxy_conn_close(c);
}

/* Ends an HTTP connection after what is queued for the guest is written
 * (the answer, a 403): upstream closed now, guest shut down, and closed
 * once the guest closes its side too. Until then what it still sends is
 * read and dropped: closing with unread bytes would reset the connection
 * and could destroy the answer before the guest reads it. LINGER_MS at
 * most, for a guest that neither reads nor closes. */
void hg__proxy_conn_finish(conn *c) {
  if (c->closing || c->finishing) return;
  c->finishing = true;
  hg__proxy_upgrade_free(c);
  close_side(c, &c->up);
  hg__proxy_update_reading(c);
  if (c->closing) return;
  hg__proxy_arm(c, T_LINGER, LINGER_MS);
  c->sreq[0].data = c;
  if (uv_shutdown(&c->sreq[0], (uv_stream_t *)&c->guest.tcp, on_finish_shutdown) < 0)
    hg__proxy_conn_close(c);
}

/* A TLS or TCP connection denied: one log line, a reset. */
static void deny_reset(conn *c, const char *name, const char *reason) {
  hg_gw_log(c->sb, proto_of(c), name, c->ip, c->port, false, reason, 0, 0);
  c->logged = true;
  c->allowed = false;
  c->reset = true;
  hg__proxy_conn_close(c);
}

void hg__proxy_http_reply_close(conn *c, int status, const char *text,
                                const char *reason) {
  char buf[512];
  int n = snprintf(buf, sizeof(buf),
                   "HTTP/1.1 %d %s\r\nContent-Type: text/plain\r\nContent-Length: %zu\r\n"
                   "Connection: close\r\n\r\n%s\n",
                   status, text, strlen(reason) + 1, reason);
  if (n < 0 || (size_t)n >= sizeof(buf) ||
      hg__proxy_send_copy(c, &c->guest, buf, (size_t)n) < 0) {
    hg__proxy_conn_close(c);
    return;
  }
  hg__proxy_conn_finish(c);
}

void hg__proxy_http_deny(conn *c, const char *name, const char *reason) {
  hg_gw_log(c->sb, "http", name, c->ip, c->port, false, reason, 0, 0);
  hg__proxy_http_reply_close(c, 403, "Forbidden", reason);
}

/* ---- dialing upstream -------------------------------------------------------- */

static void on_connect(uv_connect_t *r, int status) {
  conn *c = r->data;
  if (c->closing || c->finishing) return;
  if (status < 0) {
    hg_gw_log(c->sb, proto_of(c), c->name, c->ip, c->port, false, "connect_failed", 0, 0);
    c->logged = true;
    c->allowed = false;
    if (c->mode == M_HTTP) {
      hg__proxy_http_reply_close(c, 502, "Bad Gateway", "connect_failed");
    } else {
      c->reset = true;
      hg__proxy_conn_close(c);
    }
    return;
  }
  c->up_connected = true;
  if (c->tuse == T_DIAL) hg__proxy_disarm(c);
  if (c->mode == M_RELAY && c->guest.eof) hg__proxy_relay_shutdown(c, &c->up);
  hg__proxy_update_reading(c);
}

/* Connects to the checked address (c->ip), never to a name. Writes may
 * be queued at once: libuv sends them when the connect completes. */
int hg__proxy_dial(conn *c, uint16_t port) {
  int rc = uv_tcp_init(hg_gw_loop(c->sb), &c->up.tcp);
  if (rc < 0) return rc;
  c->up.init = true;
  c->up.tcp.data = c;
  hg_closer_add(&c->closer, 1);
  struct sockaddr_in sa = {.sin_family = AF_INET, .sin_port = htons(port)};
  sa.sin_addr.s_addr = htonl(c->ip);
  c->creq.data = c;
  rc = uv_tcp_connect(&c->creq, &c->up.tcp, (const struct sockaddr *)&sa, on_connect);
  if (rc < 0) return rc;
  uv_tcp_nodelay(&c->up.tcp, 1);
  hg__proxy_arm(c, T_DIAL, HG_PROXY_DIAL_MS);
  return 0;
}

void hg__proxy_dial_failed(conn *c, int rc) {
  hg_log_warn("proxy.hg__proxy_dial", "sandbox=%s err=%s", hg_gw_name(c->sb),
              uv_strerror(rc));
  hg_gw_log(c->sb, proto_of(c), c->name, c->ip, c->port, false, "connect_failed", 0, 0);
  c->logged = true;
  c->allowed = false;
  if (c->mode == M_HTTP) {
    hg__proxy_http_reply_close(c, 502, "Bad Gateway", "connect_failed");
  } else {
    c->reset = true;
    hg__proxy_conn_close(c);
  }
}

/* ---- relay (TLS after the verdict, CIDR:port, HTTP after 101) ---------------- */

static void on_relay_shutdown(uv_shutdown_t *r, int status) {
  conn *c = r->data;
  if (c->closing) return;
  if (status < 0) {
    hg__proxy_conn_close(c);
    return;
  }
  (r == &c->sreq[1] ? &c->up : &c->guest)->shut_done = true;
  if (c->guest.shut_done && c->up.shut_done) hg__proxy_conn_close(c);
}

/* The peer of s said EOF: pass it on once what is queued is written. */
void hg__proxy_relay_shutdown(conn *c, side *s) {
  if (s->shut || s->closed) return;
  uv_shutdown_t *r = &c->sreq[s == &c->up];
  r->data = c;
  s->shut = true;
  if (uv_shutdown(r, (uv_stream_t *)&s->tcp, on_relay_shutdown) < 0)
    hg__proxy_conn_close(c);
}

static void relay_eof(conn *c, side *from) {
  side *to = from == &c->guest ? &c->up : &c->guest;
  from->eof = true;
  set_reading(c, from, false);
  if (to == &c->up && !c->up_connected) return; /* on_connect passes it on */
  hg__proxy_relay_shutdown(c, to);
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
    hg__proxy_conn_close(c);
    return;
  }
  if (v == HG_SNI_NEED_MORE) return;
  if (v == HG_SNI_DENY) {
    deny_reset(c, "", hg_sni_reason_str(c->sni.reason));
    return;
  }
  const char *why = hg__proxy_check_name(c, c->sni.name);
  if (why) {
    deny_reset(c, c->sni.name, why);
    return;
  }
  memcpy(c->name, c->sni.name, sizeof(c->name));
  c->allowed = true;
  c->mode = M_RELAY;
  hg__proxy_disarm(c);
  int rc = hg__proxy_dial(c, c->port);
  if (rc < 0) {
    hg__proxy_dial_failed(c, rc);
    return;
  }
  /* the hello (and anything after it) goes first, byte for byte */
  char *replay = c->in.data;
  size_t len = c->in.len;
  hg_buf_init(&c->in, c->in.max);
  if (hg__proxy_send_owned(c, &c->up, replay, len) < 0) {
    hg__proxy_conn_close(c);
    return;
  }
  hg__proxy_update_reading(c);
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
      if (nread != UV_EOF || c->guest.shut_done) hg__proxy_conn_close(c);
    }
    return;
  }
  if (nread < 0) {
    free(buf->base);
    if (nread != UV_EOF) {
      hg__proxy_conn_close(c);
    } else if (c->mode == M_HELLO) {
      deny_reset(c, "", "incomplete");
    } else if (c->mode == M_RELAY) {
      relay_eof(c, &c->guest);
    } else {
      c->guest.eof = true;
      set_reading(c, &c->guest, false);
      hg__proxy_http_pump(c);
    }
    return;
  }
  switch (c->mode) {
    case M_HELLO:
      hello_data(c, buf->base, (size_t)nread);
      free(buf->base);
      break;
    case M_HTTP:
      hg__proxy_http_guest_data(c, buf->base, (size_t)nread);
      free(buf->base);
      break;
    case M_RELAY:
      if (send_read(c, &c->up, buf->base, buf->len, buf->base, (size_t)nread) < 0)
        hg__proxy_conn_close(c);
      else
        hg__proxy_update_reading(c);
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
      hg__proxy_conn_close(c);
    else if (c->mode == M_RELAY)
      relay_eof(c, &c->up);
    else
      hg__proxy_http_up_eof(c);
    return;
  }
  if (c->mode == M_RELAY) {
    if (send_read(c, &c->guest, buf->base, buf->len, buf->base, (size_t)nread) < 0)
      hg__proxy_conn_close(c);
    else
      hg__proxy_update_reading(c);
    return;
  }
  rbuf rb = {.mem = buf->base, .len = (size_t)nread, .cap = buf->len};
  hg__proxy_http_up_data(c, &rb);
  free(rb.mem);
  if (!c->closing) hg__proxy_update_reading(c);
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
        hg__proxy_conn_finish(c); /* an idle keep-alive connection, not a verdict */
        break;
      }
      hg_gw_log(c->sb, "http", "", c->ip, c->port, false, "timeout", 0, 0);
      hg__proxy_http_reply_close(c, 408, "Request Timeout", "timeout");
      break;
    case T_DIAL:
      hg_gw_log(c->sb, proto_of(c), c->name, c->ip, c->port, false, "connect_timeout", 0,
                0);
      c->logged = true;
      c->allowed = false;
      if (c->mode == M_HTTP) {
        hg__proxy_http_reply_close(c, 504, "Gateway Timeout", "connect_timeout");
      } else {
        c->reset = true;
        hg__proxy_conn_close(c);
      }
      break;
    case T_LINGER:
      hg__proxy_conn_close(c);
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
  hg__proxy_ps_maybe_done(ps);
}

void hg__proxy_ps_maybe_done(hg_proxy_set *ps) {
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
  hg_mask_init(&c->mask);
  hg_sni_init(&c->sni);
  hg_httphead_init(&c->head);
  if (uv_tcp_init(loop, &c->guest.tcp) < 0) {
    free(c);
    accept_drop(loop, listener);
    return;
  }
  c->guest.init = true;
  c->guest.tcp.data = c;
  hg_closer_init(&c->closer, c, NULL, conn_free);
  hg_closer_add(&c->closer, 1);
  if (uv_timer_init(loop, &c->timer) == 0) {
    c->timer.data = c;
    hg_closer_add(&c->closer, 1);
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
    hg__proxy_conn_close(c);
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
      hg__proxy_arm(c, T_HELLO, hg_proxy_test_seams.hello_ms);
      break;
    case HG_PROXY_HTTP:
      c->mode = M_HTTP;
      c->req = REQ_HEAD;
      hg__proxy_arm(c, T_HEAD, hg_proxy_test_seams.head_ms);
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
      if ((rc = hg__proxy_dial(c, c->port)) < 0) {
        hg__proxy_dial_failed(c, rc);
        return;
      }
      break;
    }
  }
  hg__proxy_update_reading(c);
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
  /* hg__proxy_conn_close frees nothing at once (close callbacks do): the list holds */
  for (conn *c = ps->conns; c; c = c->next) {
    if (c->closing || !c->allowed || still_allowed(c, p)) continue;
    hg_gw_log(sb, proto_of(c), c->name, c->ip, c->port, false, "policy_revoked",
              c->bytes_out, c->bytes_in);
    c->logged = true;
    c->reset = true;
    hg__proxy_conn_close(c);
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
  for (conn *c = ps->conns; c; c = c->next) hg__proxy_conn_close(c);
  hg__proxy_ps_maybe_done(ps);
}
