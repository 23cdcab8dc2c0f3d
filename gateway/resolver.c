/* gateway resolver: the DNS responder each sandbox's guest asks (UDP and
 * TCP), the upstream queries it makes for it, and the memory of what it
 * answered that the proxy checks connections against. Gateway thread. */
#include <arpa/inet.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <unistd.h>

#include "gateway/dns.h"
#include "gateway/gateway_internal.h"
#include "gateway/gw.h"
#include "gateway/names.h"
#include "gateway/netns.h"
#include "gateway/nft.h"
#include "node/core/err.h"
#include "node/core/list.h"
#include "node/core/log.h"
#include "node/core/util.h"

static void conn_process(dns_conn *c);

/* ---- what the responder answered ------------------------------------------------ */

static uint32_t name_hash(const char *s) {
  uint32_t h = 2166136261u;
  for (; *s; s++) h = (h ^ (uint8_t)*s) * 16777619u;
  return h;
}

static dns_entry *cache_find(dns_cache *c, const char *name, uint32_t h) {
  for (dns_entry *e = c->buckets[h % GW_DNS_BUCKETS]; e; e = e->hnext)
    if (e->hash == h && strcmp(e->name, name) == 0) return e;
  return NULL;
}

static void lru_unlink(dns_cache *c, dns_entry *e) {
  HG_LIST_UNLINK2(c->head, c->tail, e);
  e->prev = e->next = NULL;
}

static void lru_push(dns_cache *c, dns_entry *e) {
  HG_LIST_PUSH2(c->head, c->tail, e);
}

static void cache_drop(dns_cache *c, dns_entry *e) {
  dns_entry **pp = &c->buckets[e->hash % GW_DNS_BUCKETS];
  while (*pp != e) pp = &(*pp)->hnext;
  *pp = e->hnext;
  lru_unlink(c, e);
  c->n--;
  free(e);
}

void hg__gateway_cache_clear(dns_cache *c) {
  while (c->head) cache_drop(c, c->head);
}

/* Remembers an answer given to the guest. Addresses given earlier stay
 * good until their own TTL (plus grace) ends: the guest may still be
 * connecting to them. */
static void cache_put(hg_gw_sandbox *sb, const char *name, const uint32_t *ips, size_t n,
                      uint32_t ttl) {
  dns_cache *c = &sb->cache;
  int64_t now = hg_now_ms(), expires = now + (int64_t)ttl * 1000;
  uint32_t h = name_hash(name);
  dns_entry *e = cache_find(c, name, h);
  if (e) {
    lru_unlink(c, e);
  } else {
    if (c->n >= GW_DNS_CACHE_MAX) cache_drop(c, c->tail);
    if (!(e = calloc(1, sizeof *e))) return;
    snprintf(e->name, sizeof e->name, "%s", name);
    e->hash = h;
    e->hnext = c->buckets[h % GW_DNS_BUCKETS];
    c->buckets[h % GW_DNS_BUCKETS] = e;
    c->n++;
  }
  lru_push(c, e);
  for (size_t i = 0; i < e->n;) {
    if (e->ips[i].expires_ms + GW_DNS_GRACE_MS < now)
      e->ips[i] = e->ips[--e->n];
    else
      i++;
  }
  for (size_t k = 0; k < n; k++) {
    size_t i = 0, oldest = 0;
    while (i < e->n && e->ips[i].ip != ips[k]) {
      if (e->ips[i].expires_ms < e->ips[oldest].expires_ms) oldest = i;
      i++;
    }
    if (i == e->n) {
      if (e->n < GW_DNS_IPS_MAX)
        e->n++;
      else
        i = oldest;
      e->ips[i].ip = ips[k];
      e->ips[i].expires_ms = expires;
    } else if (e->ips[i].expires_ms < expires) {
      e->ips[i].expires_ms = expires;
    }
  }
  e->nlast = n < HG_DNS_MAX_ADDRS ? n : HG_DNS_MAX_ADDRS;
  memcpy(e->last, ips, e->nlast * sizeof *ips);
  e->last_expires_ms = expires;
}

bool hg_gw_dns_answered(hg_gw_sandbox *sb, const char *name, uint32_t ip) {
  char n[HG_NAME_MAX + 1];
  if (!sb || !name || hg_name_normalize(name, strlen(name), n) < 0) return false;
  dns_entry *e = cache_find(&sb->cache, n, name_hash(n));
  int64_t now = hg_now_ms();
  for (size_t i = 0; e && i < e->n; i++)
    if (e->ips[i].ip == ip && now <= e->ips[i].expires_ms + GW_DNS_GRACE_MS) return true;
  return false;
}

/* ---- the DNS responder: answers ---------------------------------------------------- */

static void conn_send(dns_conn *c, const uint8_t *msg, size_t len);

static void send_bytes(hg_gw_sandbox *sb, const dns_target *to, const uint8_t *msg,
                       size_t len) {
  if (to->conn) {
    conn_send(to->conn, msg, len);
    return;
  }
  listener *l = sb->ls[L_DNS_UDP];
  if (!l) return;
  uv_buf_t b = uv_buf_init((char *)msg, (unsigned)len);
  int rc = uv_udp_try_send(&l->u.udp, &b, 1, (const struct sockaddr *)&to->addr);
  if (rc < 0)
    hg_log_debug("gateway.dns_send", "sandbox=%s err=%s", sb->name, uv_strerror(rc));
}

/* Answers q; over UDP, drops A records until the answer fits what the
 * client takes (16 addresses and a long name can pass 512 bytes). */
static void reply(hg_gw_sandbox *sb, const hg_dns_query *q, const dns_target *to,
                  int rcode, const uint32_t *ips, size_t n, uint32_t ttl) {
  uint8_t out[GW_DNS_ANSWER_MAX];
  size_t cap = sizeof out, len = 0;
  if (!to->conn && q->udp_size < cap) cap = q->udp_size;
  int rc;
  while ((rc = hg_dns_build_answer(q, rcode, ips, n, ttl, out, cap, &len)) == -ENOBUFS &&
         n)
    n--;
  if (rc == 0) send_bytes(sb, to, out, len);
}

static void reply_error(hg_gw_sandbox *sb, const uint8_t *msg, size_t len,
                        const dns_target *to, int rcode) {
  uint8_t out[HG_DNS_HEADER];
  size_t olen;
  if (hg_dns_build_error(msg, len, rcode, out, sizeof out, &olen) == 0)
    send_bytes(sb, to, out, olen);
}

static void dns_log(hg_gw_sandbox *sb, const char *name, uint32_t ip, bool allowed,
                    const char *reason) {
  hg_gw_log(sb, "dns", name, ip, 53, allowed, reason, 0,
            0); /* the port the guest asked */
}

/* ---- the DNS responder: upstream ----------------------------------------------------
 */

static void upq_handle_closed(uv_handle_t *h) {
  upq *u = h->data;
  hg_gw_sandbox *sb = u->sb;
  hg_closer_closed(&u->closer); /* may free u */
  hg_closer_closed(&sb->closer);
}

void hg__gateway_upq_close(upq *u) {
  hg_gw_sandbox *sb = u->sb;
  HG_LIST_UNLINK(sb->upqs, u);
  sb->nupq--;
  if (u->to.conn) u->to.conn->pending = NULL;
  u->to.conn = NULL;
  uv_close((uv_handle_t *)&u->udp, upq_handle_closed);
  uv_close((uv_handle_t *)&u->timer, upq_handle_closed);
}

/* The end of a question: the answer to the guest (when the connection it
 * came on is still there), the log entry, the handles closed. */
static void upq_finish(upq *u, int rcode, const uint32_t *ips, size_t n, uint32_t ttl,
                       bool allowed, const char *reason, uint32_t log_ip) {
  hg_gw_sandbox *sb = u->sb;
  dns_conn *c = u->to.conn;
  if (c) c->pending = NULL;
  reply(sb, &u->q, &u->to, rcode, ips, n, ttl);
  dns_log(sb, u->q.name, log_ip, allowed, reason);
  hg__gateway_upq_close(u);
  if (c) conn_process(c);
}

static void upq_answer(upq *u, const hg_dns_result *res) {
  hg_gw_sandbox *sb = u->sb;
  if (res->rcode == HG_DNS_NXDOMAIN) {
    upq_finish(u, HG_DNS_NXDOMAIN, NULL, 0, 0, true, "upstream_nxdomain", 0);
    return;
  }
  if (res->rcode != HG_DNS_NOERROR) {
    upq_finish(u, HG_DNS_SERVFAIL, NULL, 0, 0, false, "upstream_rcode", 0);
    return;
  }
  /* never hand out an address the gateway would refuse to dial: the proxy
   * would deny it anyway, and an answer of 127.0.0.1 invites the guest to
   * try its luck elsewhere */
  uint32_t ok[HG_DNS_MAX_ADDRS], denied = 0;
  size_t n = 0, ndenied = 0;
  for (size_t i = 0; i < res->n; i++) {
    if (hg_gw_addr_denied(sb, res->ips[i])) {
      if (ndenied++ == 0) denied = res->ips[i]; /* 0.0.0.0 is an address too */
    } else {
      ok[n++] = res->ips[i];
    }
  }
  if (n == 0 && ndenied) {
    upq_finish(u, HG_DNS_NOERROR, NULL, 0, 0, false, "denied_address", denied);
    return;
  }
  if (n == 0) {
    upq_finish(u, HG_DNS_NOERROR, NULL, 0, 0, true, "upstream_nodata", 0);
    return;
  }
  uint32_t ttl = res->ttl < GW_DNS_TTL_MAX ? res->ttl : GW_DNS_TTL_MAX;
  cache_put(sb, u->q.name, ok, n, ttl);
  upq_finish(u, HG_DNS_NOERROR, ok, n, ttl, true, "resolved", ok[0]);
}

static void upq_alloc(uv_handle_t *h, size_t suggested, uv_buf_t *buf) {
  upq *u = h->data;
  *buf = uv_buf_init((char *)u->rbuf, sizeof u->rbuf);
}

static void upq_recv(uv_udp_t *h, ssize_t nread, const uv_buf_t *buf,
                     const struct sockaddr *addr, unsigned flags) {
  upq *u = h->data;
  if (nread == 0) return;
  if (nread < 0) { /* ICMP unreachable on the connected socket */
    upq_finish(u, HG_DNS_SERVFAIL, NULL, 0, 0, false, "upstream_error", 0);
    return;
  }
  if (flags & UV_UDP_PARTIAL) {
    upq_finish(u, HG_DNS_SERVFAIL, NULL, 0, 0, false, "upstream_truncated", 0);
    return;
  }
  hg_dns_result res;
  int rc = -EBADMSG;
  /* an answer to an earlier try is as good as one to the last */
  for (int i = 0; i < u->tries && rc == -EBADMSG; i++)
    rc = hg_dns_parse_response(u->rbuf, (size_t)nread, u->ids[i], u->q.name, &res);
  if (rc == -EBADMSG) return; /* not ours: keep waiting */
  if (rc == -EMSGSIZE)
    upq_finish(u, HG_DNS_SERVFAIL, NULL, 0, 0, false, "upstream_truncated", 0);
  else if (rc < 0)
    upq_finish(u, HG_DNS_SERVFAIL, NULL, 0, 0, false, "upstream_malformed", 0);
  else
    upq_answer(u, &res);
}

static void upq_timeout(uv_timer_t *t);

static int upq_send(upq *u) {
  uint8_t msg[HG_DNS_HEADER + HG_DNS_MAX_NAME + 4 + 11];
  size_t len;
  uint16_t id;
  int rc = hg_random_bytes(&id, sizeof id);
  if (rc == 0)
    rc = hg_dns_build_query(id, u->q.name, HG_DNS_T_A, 1, msg, sizeof msg, &len);
  if (rc < 0) return rc;
  u->ids[u->tries++] = id;
  uv_buf_t b = uv_buf_init((char *)msg, (unsigned)len);
  rc = uv_udp_try_send(&u->udp, &b, 1, NULL);
  if (rc < 0 && rc != UV_EAGAIN) return rc; /* EAGAIN: the timer tries again */
  return uv_timer_start(&u->timer, upq_timeout, GW_UPSTREAM_TIMEOUT_MS, 0);
}

static void upq_timeout(uv_timer_t *t) {
  upq *u = t->data;
  if (u->tries < GW_UPSTREAM_TRIES && upq_send(u) == 0) return;
  upq_finish(u, HG_DNS_SERVFAIL, NULL, 0, 0, false, "upstream_timeout", 0);
}

static void upq_start(hg_gw_sandbox *sb, const hg_dns_query *q, const dns_target *to) {
  hg_gateway *gw = sb->gw;
  upq *u = calloc(1, sizeof *u);
  if (!u) {
    reply(sb, q, to, HG_DNS_SERVFAIL, NULL, 0, 0);
    dns_log(sb, q->name, 0, false, "no_memory");
    return;
  }
  u->sb = sb;
  u->q = *q;
  u->to = *to;
  uv_udp_init(&gw->loop, &u->udp);
  uv_timer_init(&gw->loop, &u->timer);
  u->udp.data = u->timer.data = u;
  hg_closer_init(&u->closer, u, NULL, free);
  hg_closer_add(&u->closer, 2);
  hg_closer_add(&sb->closer, 2);
  HG_LIST_PUSH(sb->upqs, u);
  sb->nupq++;
  if (to->conn) to->conn->pending = u;

  struct sockaddr_in any = {.sin_family = AF_INET};
  int rc = uv_udp_bind(&u->udp, (const struct sockaddr *)&any, 0);
  if (rc == 0) rc = uv_udp_connect(&u->udp, (const struct sockaddr *)&gw->upstream);
  if (rc == 0) rc = uv_udp_recv_start(&u->udp, upq_alloc, upq_recv);
  if (rc == 0) rc = upq_send(u);
  if (rc < 0) {
    hg_log_warn("gateway.upstream", "sandbox=%s err=%s", sb->name, hg_err_str(rc));
    upq_finish(u, HG_DNS_SERVFAIL, NULL, 0, 0, false, "upstream_error", 0);
  }
}

/* ---- the DNS responder: questions ----------------------------------------------------
 */

static bool rate_ok(hg_gw_sandbox *sb, const char *name) {
  int64_t now = hg_now_ms();
  if (hg_dns_limiter_take(&sb->limiter, (uint64_t)now)) return true;
  sb->gw->dns_limited++;
  sb->limited_quiet++;
  /* a tunnel at full speed would flood the log it is recorded in */
  if (now - sb->limited_logged_ms >= 1000) {
    hg_log_warn("gateway.dns_rate", "sandbox=%s refused=%llu", sb->name,
                (unsigned long long)sb->limited_quiet);
    dns_log(sb, name, 0, false, "rate_limited");
    sb->limited_logged_ms = now;
    sb->limited_quiet = 0;
  }
  return false;
}

static void handle_query(hg_gw_sandbox *sb, const uint8_t *msg, size_t len,
                         const dns_target *to) {
  hg_gateway *gw = sb->gw;
  hg_dns_query q;
  char text[HG_NAME_MAX + 1];
  gw->dns_queries++;
  int rc = hg_dns_parse_query(msg, len, &q);
  if (rc == -EMSGSIZE || rc == -EBADMSG) return; /* nothing to answer */
  const char *name = rc < 0 ? "" : q.name_err ? text : q.name;
  if (rc == 0 && q.name_err) hg_dns_name_text(q.qname, q.qname_len, text, sizeof text);
  if (!rate_ok(sb, name)) {
    if (rc == 0) reply(sb, &q, to, HG_DNS_REFUSED, NULL, 0, 0);
    return;
  }
  if (rc < 0) {
    reply_error(sb, msg, len, to, rc == -ENOTSUP ? HG_DNS_NOTIMP : HG_DNS_FORMERR);
    dns_log(sb, "", 0, false, "malformed");
    return;
  }
  const hg_policy *p = sb->policy;
  int rcode = HG_DNS_REFUSED;
  const char *reason = NULL;
  if (q.name_err) {
    reason = "bad_name"; /* a tunnel's label, say */
  } else if (q.qclass != HG_DNS_C_IN) {
    reason = "qclass";
  } else if (!hg_allow_name(p ? p->allow : NULL, q.name, strlen(q.name))) {
    rcode = HG_DNS_NXDOMAIN;
    reason = "not_allowed";
  } else if (q.qtype == HG_DNS_T_AAAA || q.qtype == HG_DNS_T_HTTPS ||
             q.qtype == HG_DNS_T_SVCB) {
    /* the name exists, but the guest gets no IPv6 and no ECH configs */
    rcode = HG_DNS_NOERROR;
    reason = "qtype";
  } else if (q.qtype != HG_DNS_T_A) {
    reason = "qtype";
  }
  if (reason) {
    reply(sb, &q, to, rcode, NULL, 0, 0);
    dns_log(sb, name, 0, false, reason);
    return;
  }

  dns_entry *e = cache_find(&sb->cache, q.name, name_hash(q.name));
  int64_t now = hg_now_ms();
  if (e && e->nlast > 0 && e->last_expires_ms > now) {
    uint32_t ttl = (uint32_t)((e->last_expires_ms - now + 999) / 1000);
    reply(sb, &q, to, HG_DNS_NOERROR, e->last, e->nlast, ttl);
    dns_log(sb, q.name, e->last[0], true, "cached");
    return;
  }
  if (!gw->have_upstream || sb->nupq >= GW_UPSTREAM_MAX) {
    reply(sb, &q, to, HG_DNS_SERVFAIL, NULL, 0, 0);
    dns_log(sb, q.name, 0, false, gw->have_upstream ? "busy" : "no_upstream");
    return;
  }
  upq_start(sb, &q, to);
}

void hg__gateway_dns_udp_alloc(uv_handle_t *h, size_t suggested, uv_buf_t *buf) {
  listener *l = h->data;
  *buf = uv_buf_init((char *)l->sb->udp_buf, sizeof l->sb->udp_buf);
}

void hg__gateway_dns_udp_recv(uv_udp_t *h, ssize_t nread, const uv_buf_t *buf,
                              const struct sockaddr *addr, unsigned flags) {
  listener *l = h->data;
  if (nread <= 0 || !addr || addr->sa_family != AF_INET || (flags & UV_UDP_PARTIAL))
    return;
  dns_target to = {.addr = *(const struct sockaddr_in *)addr};
  handle_query(l->sb, (const uint8_t *)buf->base, (size_t)nread, &to);
}

/* ---- the DNS responder over TCP ------------------------------------------------------
 */

static void conn_handle_closed(uv_handle_t *h) {
  dns_conn *c = h->data;
  hg_gw_sandbox *sb = c->sb;
  hg_closer_closed(&c->closer); /* may free c */
  hg_closer_closed(&sb->closer);
}

void hg__gateway_conn_close(dns_conn *c) {
  if (c->closing) return;
  hg_gw_sandbox *sb = c->sb;
  c->closing = true;
  HG_LIST_UNLINK(sb->conns, c);
  sb->nconns--;
  if (c->pending) c->pending->to.conn = NULL;
  c->pending = NULL;
  uv_close((uv_handle_t *)&c->tcp, conn_handle_closed);
  uv_close((uv_handle_t *)&c->idle, conn_handle_closed);
}

static void conn_idle(uv_timer_t *t) {
  hg__gateway_conn_close(t->data);
}

static void conn_alloc(uv_handle_t *h, size_t suggested, uv_buf_t *buf) {
  dns_conn *c = h->data;
  *buf = uv_buf_init((char *)c->in + c->len, (unsigned)(sizeof c->in - c->len));
}

static void conn_read(uv_stream_t *s, ssize_t nread, const uv_buf_t *buf) {
  dns_conn *c = s->data;
  if (nread == 0) return;
  if (nread < 0) {
    hg__gateway_conn_close(c);
    return;
  }
  c->len += (size_t)nread;
  uv_timer_again(&c->idle);
  conn_process(c);
}

static void conn_written(uv_write_t *w, int status) {
  dns_conn *c = w->data;
  c->writing = false;
  if (c->closing) return;
  if (status < 0)
    hg__gateway_conn_close(c);
  else
    conn_process(c);
}

static void conn_send(dns_conn *c, const uint8_t *msg, size_t len) {
  if (c->closing || c->writing || len > sizeof c->out - 2) return;
  c->out[0] = (uint8_t)(len >> 8);
  c->out[1] = (uint8_t)len;
  memcpy(c->out + 2, msg, len);
  uv_buf_t b = uv_buf_init((char *)c->out, (unsigned)(len + 2));
  c->wreq.data = c;
  if (uv_write(&c->wreq, (uv_stream_t *)&c->tcp, &b, 1, conn_written) < 0)
    hg__gateway_conn_close(c);
  else
    c->writing = true;
}

/* One question at a time: reading stops while one is being answered, so a
 * guest that pipelines gets answers in order and no more buffering than
 * one message. */
static void conn_process(dns_conn *c) {
  while (!c->closing && !c->pending && !c->writing && c->len >= 2) {
    size_t mlen = (size_t)c->in[0] << 8 | c->in[1];
    if (mlen == 0 || mlen > GW_DNS_TCP_MAX) {
      hg__gateway_conn_close(c);
      return;
    }
    if (c->len < 2 + mlen) break;
    uint8_t msg[GW_DNS_TCP_MAX];
    memcpy(msg, c->in + 2, mlen);
    c->len -= 2 + mlen;
    memmove(c->in, c->in + 2 + mlen, c->len);
    dns_target to = {.conn = c};
    handle_query(c->sb, msg, mlen, &to);
  }
  if (c->closing) return;
  bool want = !c->pending && !c->writing;
  if (want && !c->reading) {
    if (uv_read_start((uv_stream_t *)&c->tcp, conn_alloc, conn_read) < 0) {
      hg__gateway_conn_close(c);
      return;
    }
  } else if (!want && c->reading) {
    uv_read_stop((uv_stream_t *)&c->tcp);
  }
  c->reading = want;
}

static void close_free(uv_handle_t *h) {
  free(h);
}

/* Takes a connection off the queue and closes it: libuv stops watching a
 * listener whose connection is not accepted. */
void hg__gateway_reject_connection(uv_stream_t *server) {
  uv_tcp_t *t = malloc(sizeof *t);
  if (!t) return;
  uv_tcp_init(server->loop, t);
  uv_accept(server, (uv_stream_t *)t);
  uv_close((uv_handle_t *)t, close_free);
}

void hg__gateway_conn_accept(hg_gw_sandbox *sb, uv_stream_t *server) {
  dns_conn *c = sb->nconns < GW_DNS_TCP_CONNS ? calloc(1, sizeof *c) : NULL;
  if (!c) {
    hg__gateway_reject_connection(server);
    return;
  }
  c->sb = sb;
  uv_tcp_init(server->loop, &c->tcp);
  uv_timer_init(server->loop, &c->idle);
  c->tcp.data = c->idle.data = c;
  hg_closer_init(&c->closer, c, NULL, free);
  hg_closer_add(&c->closer, 2);
  hg_closer_add(&sb->closer, 2);
  HG_LIST_PUSH(sb->conns, c);
  sb->nconns++;
  if (uv_accept(server, (uv_stream_t *)&c->tcp) < 0 ||
      uv_timer_start(&c->idle, conn_idle, GW_DNS_TCP_IDLE_MS, GW_DNS_TCP_IDLE_MS) < 0) {
    hg__gateway_conn_close(c);
    return;
  }
  conn_process(c);
}
