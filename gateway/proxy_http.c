/* proxy HTTP: the HTTP path of the L7 proxy (see proxy.h): request heads
 * checked and passed on with credentials swapped in, bodies and responses
 * framed (chunked read strictly), secrets masked in what comes back, and
 * the tunnel after a 101. */
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
#include "node/core/log.h"
#include "node/core/parse.h"

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
        } else if (k->digits > 0 && (ch == ';' || hg__proxy_is_ows((char)ch))) {
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

void hg__proxy_secrets_clear(conn *c) {
  hg_mask_reset(&c->mask);
  c->rechunk = false;
}

void hg__proxy_mask_scan(conn *c, char *t, size_t n) {
  hg_mask_apply(&c->mask, t, n);
}

/* ---- HTTP: response side ---------------------------------------------------- */

typedef struct resp_info {
  int status;
  bool has_cl, te, te_chunked, hg__proxy_conn_close;
  bool coded;      /* a content or transfer coding other than identity, chunked */
  bool upgrade_ws; /* Upgrade: websocket, and nothing else */
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
    if (hg__proxy_is_ows(l[0])) return -EPROTO; /* obs-fold */
    const char *colon = memchr(l, ':', ll);
    if (!colon || colon == l) return -EPROTO;
    size_t nl_len = (size_t)(colon - l), vs = nl_len + 1, ve = ll;
    for (size_t k = 0; k < nl_len; k++)
      if (hg__proxy_is_ows(l[k])) return -EPROTO;
    while (vs < ve && hg__proxy_is_ows(l[vs])) vs++;
    while (ve > vs && hg__proxy_is_ows(l[ve - 1])) ve--;
    if (hg__proxy_ieq(l, nl_len, "content-length")) {
      uint64_t v;
      if (ve - vs > 18 || hg_parse_uint_n(l + vs, ve - vs, UINT64_MAX, &v) < 0 || (ri->has_cl && v != ri->cl))
        return -EPROTO;
      ri->has_cl = true;
      ri->cl = v;
    } else if (hg__proxy_ieq(l, nl_len, "transfer-encoding")) {
      /* the final coding decides: chunked, or the body runs to the close */
      size_t t = ve;
      while (t > vs && l[t - 1] != ',') t--;
      while (t < ve && hg__proxy_is_ows(l[t])) t++;
      ri->te = true;
      ri->te_chunked = hg__proxy_ieq(l + t, ve - t, "chunked");
      if (!hg__proxy_list_only_of(l + vs, ve - vs, "chunked", NULL)) ri->coded = true;
    } else if (hg__proxy_ieq(l, nl_len, "content-encoding")) {
      if (!hg__proxy_list_only_of(l + vs, ve - vs, "identity", NULL)) ri->coded = true;
    } else if (hg__proxy_ieq(l, nl_len, "connection")) {
      if (hg__proxy_has_token(l + vs, ve - vs, "close")) ri->hg__proxy_conn_close = true;
    } else if (hg__proxy_ieq(l, nl_len, "upgrade")) {
      size_t k;
      ri->upgrade_ws = hg__proxy_list_only_of(l + vs, ve - vs, "websocket", &k) && k > 0;
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
  /* A relay only for a WebSocket the guest asked for (see upgrade_filter):
   * an upstream switching to anything else, or unasked, is refused. */
  if (ri.status == 101 && (!c->ws_upgrade || !ri.upgrade_ws)) {
    hg_log_info("proxy.upgrade_refused", "sandbox=%s name=%s asked=%s",
                hg_gw_name(c->sb), c->name, c->ws_upgrade ? "websocket" : "none");
    return -EPERM;
  }
  /* The mask cannot read a compressed body: with a secret in scope the
   * request asked for identity (http_request), and an upstream that codes
   * the body anyway is refused, the head included. */
  if (hg_mask_active(&c->mask) && ri.coded && ri.status / 100 != 1 && !c->req_is_head &&
      ri.status != 204 && ri.status != 304)
    return -EMEDIUMTYPE;
  int rc = hg__proxy_emit(c, c->rhead.data, c->rhead.len);
  hg_buf_reset(&c->rhead);
  if (rc < 0) return rc;
  c->resp_started = true;
  if (ri.status / 100 == 1 && ri.status != 101)
    return 0; /* interim: the final one follows */
  if (ri.status == 101) {
    c->resp = RESP_DONE;
    return 1; /* the caller turns the connection into a tunnel */
  }
  c->resp_close = ri.hg__proxy_conn_close;
  bool body = !(c->req_is_head || ri.status == 204 || ri.status == 304);
  if (hg_mask_active(&c->mask)) {
    /* the head is out whole (a secret has no CR or LF, nor has any form
     * of it): the body starts a stream of its own */
    if ((rc = hg__proxy_emit_flush(c)) < 0) return rc;
    c->rechunk = body && ri.te && ri.te_chunked;
  }
  if (!body) {
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
    hg__proxy_conn_close(c);
    return;
  }
  hg__proxy_http_reply_close(c, 502, "Bad Gateway", reason);
}

/* A chunked body with secrets in scope: masked decoded, since a secret
 * split by chunk framing ("sk-re\r\n5\r\nal-01") is not one in the raw
 * bytes. The data goes out as chunks again (emit_out, c->rechunk); the
 * end as a last chunk without trailer fields, which could carry the
 * secret too and would be read past the mask. Returns the bytes of p
 * consumed, or < 0. */
static long chunked_masked(conn *c, const char *p, size_t n, bool *done) {
  hg_buf data;
  hg_buf_init(&data, n);
  long r = chunked_feed(&c->resp_ck, p, n, &data, done);
  int rc = r < 0 ? (int)r : hg__proxy_emit(c, data.data, data.len);
  hg_buf_free(&data);
  if (rc == 0 && *done) {
    rc = hg__proxy_emit_flush(c);
    c->rechunk = false;
    if (rc == 0) rc = hg__proxy_send_copy(c, &c->guest, "0\r\n\r\n", 5);
  }
  return rc < 0 ? rc : r;
}

/* Upstream bytes of the response to the one request in flight, in the
 * read buffer rb: taken over when its end is passed on as it is. */
void hg__proxy_http_up_data(conn *c, rbuf *rb) {
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
            bad_gateway(c, rc == -EPERM         ? "upgrade_refused"
                           : rc == -EMEDIUMTYPE ? "encoded_response"
                                                : "bad_response");
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
        if (hg__proxy_emit_rb(c, rb, p, used) < 0) {
          hg__proxy_conn_close(c);
          return;
        }
        if (c->resp_left == 0) resp_complete(c);
        break;
      case RESP_CHUNKED: {
        bool masked = c->rechunk;
        long r = masked ? chunked_masked(c, p, n, &done)
                        : chunked_feed(&c->resp_ck, p, n, NULL, &done);
        if (r < 0 || (!masked && hg__proxy_emit_rb(c, rb, p, (size_t)r) < 0)) {
          hg__proxy_conn_close(c);
          return;
        }
        used = (size_t)r;
        if (done) resp_complete(c);
        break;
      }
      case RESP_CLOSE:
        used = n;
        if (hg__proxy_emit_rb(c, rb, p, n) < 0) {
          hg__proxy_conn_close(c);
          return;
        }
        break;
      default:
        /* bytes nobody asked for: the two ends no longer agree where
         * messages start */
        hg__proxy_conn_close(c);
        return;
    }
    p += used;
    n -= used;
    if (c->resp == RESP_DONE) {
      if (n > 0) {
        hg__proxy_conn_close(c);
        return;
      }
      hg__proxy_http_resp_finished(c);
      return;
    }
  }
}

void hg__proxy_http_up_eof(conn *c) {
  c->up.eof = true;
  switch (c->resp) {
    case RESP_CLOSE:
      c->resp = RESP_DONE;
      if (hg__proxy_emit_flush(c) < 0) {
        hg__proxy_conn_close(c);
        return;
      }
      hg__proxy_conn_finish(c);
      break;
    case RESP_IDLE:
    case RESP_DONE:
      hg__proxy_conn_finish(c);
      break;
    case RESP_HEAD:
      bad_gateway(c, "upstream_closed");
      break;
    default:
      hg__proxy_conn_close(c);
  }
}

/* An HTTP/1.1 101: from here on bytes pass unread both ways, to the host
 * already verified. */
static void to_tunnel(conn *c, const char *rest, size_t n) {
  if (c->req != REQ_DONE || c->upgrade || hg__proxy_emit_flush(c) < 0) {
    hg__proxy_conn_close(c);
    return;
  }
  hg__proxy_secrets_clear(c);
  c->mode = M_RELAY;
  hg__proxy_disarm(c);
  char *pending = c->in.data;
  size_t plen = c->in.len;
  hg_buf_init(&c->in, c->in.max);
  if (hg__proxy_send_copy(c, &c->guest, rest, n) < 0 ||
      hg__proxy_send_owned(c, &c->up, pending, plen) < 0) {
    hg__proxy_conn_close(c);
    return;
  }
  if (c->guest.eof) hg__proxy_relay_shutdown(c, &c->up);
  hg__proxy_update_reading(c);
}

/* ---- HTTP: credentials ------------------------------------------------------ */

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
    if ((rc = hg_mask_add(&c->mask, cr->value, strlen(cr->value))) < 0) return rc;
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

/* ---- HTTP: Accept-Encoding ------------------------------------------------- *
 * With a secret in scope the answer must come uncompressed: the mask reads
 * bytes, and an echo asked for gzip would hand the secret back where the
 * mask cannot see it. So the first Accept-Encoding says identity, the
 * others go, and a head without one gets one (its absence allows any
 * coding, RFC 9110 12.5.3). resp_head_done refuses a coded answer. */

#define IDENTITY_FIELD "Accept-Encoding: identity\r\n"

/* The edit of field i, when it is an Accept-Encoding to rewrite; *seen:
 * one was rewritten already. */
static bool identity_edit(conn *c, size_t i, bool *seen, hg_head_edit *e) {
  const hg_head_field *f = &c->head.fields[i];
  if (!hg_mask_active(&c->mask) ||
      !hg__proxy_ieq(c->in.data + f->name.off, f->name.len, "accept-encoding"))
    return false;
  *e = (hg_head_edit){i, *seen ? NULL : "identity", *seen ? 0 : 8};
  *seen = true;
  return true;
}

/* Adds the field before the blank line that ends the head out. */
static int identity_add(char *out, size_t cap, size_t *len) {
  size_t k = sizeof(IDENTITY_FIELD) - 1;
  if (*len < 2 || cap - *len < k) return -ENOBUFS;
  memmove(out + *len - 2 + k, out + *len - 2, 2);
  memcpy(out + *len - 2, IDENTITY_FIELD, k);
  *len += k;
  return 0;
}

/* ---- HTTP: Upgrade ------------------------------------------------------------
 * After a 101 the connection is a relay the proxy no longer reads. That is
 * fine for a WebSocket (its frames name no host), not for h2c: its HTTP/2
 * streams carry their own :authority, so one allowed name would open every
 * virtual host on a shared address (a CDN's). So only an offer of
 * "websocket" alone goes upstream. Any other (h2c, "h2c, websocket",
 * TLS/1.0, ...) is dropped: the Upgrade and HTTP2-Settings fields go, and
 * so do their names in Connection, and the request goes on as plain
 * HTTP/1.1, which a client that offers an upgrade must accept (RFC 9110
 * 7.8). Dropping rather than refusing keeps curl --http2 and the like
 * working. The answer side refuses a 101 to anything else (resp_head_done). */

typedef struct upgrade_edit {
  bool drop[HG_HEAD_MAX_FIELDS];
  char *conn[HG_HEAD_MAX_FIELDS]; /* Connection without upgrade, http2-settings */
  size_t conn_len[HG_HEAD_MAX_FIELDS];
} upgrade_edit;

static void upgrade_edit_free(upgrade_edit *u) {
  for (size_t i = 0; i < HG_HEAD_MAX_FIELDS; i++) free(u->conn[i]);
}

/* v without the elements upgrade and http2-settings; NULL when empty. */
static char *connection_strip(const char *v, size_t len, size_t *out_len) {
  char *r = malloc(len + 1);
  size_t o = 0;
  if (!r) return NULL;
  for (size_t i = 0; i < len;) {
    size_t s = i, e;
    while (i < len && v[i] != ',') i++;
    e = i++;
    while (s < e && hg__proxy_is_ows(v[s])) s++;
    while (e > s && hg__proxy_is_ows(v[e - 1])) e--;
    if (e == s || hg__proxy_ieq(v + s, e - s, "upgrade") ||
        hg__proxy_ieq(v + s, e - s, "http2-settings"))
      continue;
    if (o) r[o++] = ',';
    memcpy(r + o, v + s, e - s);
    o += e - s;
  }
  if (o == 0) {
    free(r);
    return NULL;
  }
  *out_len = o;
  return r;
}

/* Sets c->ws_upgrade and fills u with what to drop or rewrite. */
static void upgrade_filter(conn *c, upgrade_edit *u) {
  const hg_httphead *h = &c->head;
  const char *buf = c->in.data;
  bool offered = false, ws = true;
  size_t protocols = 0;
  memset(u, 0, sizeof(*u));
  for (int f = hg_httphead_find(h, buf, "upgrade", 0); f >= 0;
       f = hg_httphead_find(h, buf, "upgrade", (size_t)f + 1)) {
    size_t k;
    offered = true;
    bool only = hg__proxy_list_only_of(buf + h->fields[f].value.off,
                                       h->fields[f].value.len, "websocket", &k);
    ws = ws && only;
    protocols += k;
  }
  c->ws_upgrade = offered && ws && protocols > 0;
  for (size_t i = 0; i < h->nfields; i++) {
    const char *name = buf + h->fields[i].name.off;
    size_t nl = h->fields[i].name.len;
    if (hg__proxy_ieq(name, nl, "http2-settings")) {
      u->drop[i] = true;
    } else if (offered && !c->ws_upgrade && hg__proxy_ieq(name, nl, "upgrade")) {
      u->drop[i] = true;
    } else if (offered && !c->ws_upgrade && hg__proxy_ieq(name, nl, "connection")) {
      u->conn[i] = connection_strip(buf + h->fields[i].value.off, h->fields[i].value.len,
                                    &u->conn_len[i]);
      u->drop[i] = !u->conn[i];
    }
  }
  if (offered && !c->ws_upgrade)
    hg_log_debug("proxy.upgrade_dropped", "sandbox=%s name=%s", hg_gw_name(c->sb), h->host);
}

/* ---- HTTP: request side ----------------------------------------------------- */

static void req_done(conn *c) {
  c->req = REQ_DONE;
  if (!c->upgrade) return;
  int rc = hg__proxy_upgrade_start(c);
  if (rc < 0) {
    hg__proxy_upgrade_free(c);
    hg__proxy_http_reply_close(c, 502, "Bad Gateway", "upgrade_failed");
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
    hg__proxy_http_deny(c, h->host, "connect");
    return;
  }
  if (h->verdict != HG_HEAD_OK) {
    hg__proxy_http_deny(
        c, "",
        h->reason == HG_HEAD_R_TLS ? "tls_on_http" : hg_head_reason_str(h->reason));
    return;
  }
  /* the connection goes to one address, checked for one name: a
   * later request may not name another host (fronting, smuggling) */
  if (c->name[0] && strcmp(c->name, h->host) != 0) {
    hg__proxy_http_deny(c, h->host, "host_changed");
    return;
  }
  if (h->port && h->port != c->port) {
    hg__proxy_http_deny(c, h->host, "port_mismatch");
    return;
  }
  const char *why = hg__proxy_check_name(c, h->host);
  if (why) {
    hg__proxy_http_deny(c, h->host, why);
    return;
  }
  if (!c->name[0]) memcpy(c->name, h->host, sizeof(c->name));
  c->allowed = true;
  hg__proxy_disarm(c);
  hg__proxy_secrets_clear(c);
  if ((rc = subst_build(c, &s)) < 0) {
    subst_free(&s);
    hg__proxy_http_deny(c, h->host, rc == -ENOBUFS ? "head_too_large" : "no_memory");
    return;
  }
  c->req_is_head = h->method.len == 4 && memcmp(buf + h->method.off, "HEAD", 4) == 0;
  c->close_after = h->minor == 0;
  for (int f = hg_httphead_find(h, buf, "connection", 0); f >= 0;
       f = hg_httphead_find(h, buf, "connection", (size_t)f + 1))
    if (hg__proxy_has_token(buf + h->fields[f].value.off, h->fields[f].value.len,
                            "close"))
      c->close_after = true;
  c->upgrade = s.upgrade;
  c->ws_upgrade = false; /* upgrade_filter says, on the plain path */
  c->resp_started = false;
  c->body_kind = h->body;
  if (c->upgrade) {
    rc = hg__proxy_upgrade_prepare(c, &s);
    subst_free(&s);
    if (rc < 0) {
      hg__proxy_upgrade_free(c);
      hg__proxy_http_reply_close(c, 502, "Bad Gateway", "no_memory");
      return;
    }
    if (h->body == HG_HEAD_BODY_LENGTH && h->content_length > HG_PROXY_UPGRADE_REQ_MAX) {
      hg__proxy_upgrade_free(c);
      hg__proxy_http_deny(c, h->host, "body_too_large");
      return;
    }
    if (c->u.expect_continue &&
        hg__proxy_send_copy(c, &c->guest, "HTTP/1.1 100 Continue\r\n\r\n", 25) < 0) {
      hg__proxy_conn_close(c);
      return;
    }
    c->bytes_out += h->head_len;
    c->resp = RESP_UPGRADE;
  } else {
    char *out = malloc(HG_PROXY_HEAD_OUT_MAX);
    size_t out_len = 0;
    hg_head_edit edits[HG_HEAD_MAX_FIELDS];
    size_t n = 0;
    upgrade_edit ue;
    bool identity = false;
    upgrade_filter(c, &ue);
    for (size_t i = 0; i < h->nfields; i++) {
      if (ue.drop[i])
        edits[n++] = (hg_head_edit){i, NULL, 0};
      else if (ue.conn[i])
        edits[n++] = (hg_head_edit){i, ue.conn[i], ue.conn_len[i]};
      else if (identity_edit(c, i, &identity, &edits[n]))
        n++;
      else if (s.val[i])
        edits[n++] = (hg_head_edit){i, s.val[i], s.len[i]};
    }
    rc = out ? hg_httphead_rebuild(h, buf, edits, n, out, HG_PROXY_HEAD_OUT_MAX, &out_len)
             : -ENOMEM;
    upgrade_edit_free(&ue);
    if (rc == 0 && hg_mask_active(&c->mask) && !identity)
      rc = identity_add(out, HG_PROXY_HEAD_OUT_MAX, &out_len);
    subst_free(&s);
    if (rc < 0) {
      free(out);
      hg__proxy_http_deny(c, h->host,
                          rc == -ENOBUFS ? "head_too_large" : "bad_credential");
      return;
    }
    if (!c->up.init && (rc = hg__proxy_dial(c, c->port)) < 0) {
      free(out);
      hg__proxy_dial_failed(c, rc);
      return;
    }
    if (hg__proxy_send_owned(c, &c->up, out, out_len) < 0) {
      hg__proxy_conn_close(c);
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
    if (c->upgrade &&
        (!hg__proxy_upg_take(c, used) || hg_buf_append(&c->u.body, p, used) < 0)) {
      hg__proxy_http_deny(c, c->name, "body_too_large");
      return;
    }
  } else {
    size_t before = c->u.body.len;
    long r = chunked_feed(&c->req_ck, p, n, c->upgrade ? &c->u.body : NULL, &done);
    if (r >= 0 && c->upgrade && !hg__proxy_upg_take(c, c->u.body.len - before))
      r = -ENOBUFS;
    if (r < 0) {
      /* bytes of it may be upstream already: nothing sane to answer */
      if (r == -ENOBUFS)
        hg__proxy_http_deny(c, c->name, "body_too_large");
      else if (c->upgrade)
        hg__proxy_http_deny(c, c->name, "bad_chunked");
      else
        hg__proxy_conn_close(c);
      return;
    }
    used = (size_t)r;
  }
  if (!c->upgrade && hg__proxy_send_copy(c, &c->up, p, used) < 0) {
    hg__proxy_conn_close(c);
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
  hg__proxy_arm(c, T_HEAD, hg_proxy_test_seams.head_ms);
}

void hg__proxy_http_pump(conn *c) {
  while (!c->closing && !c->finishing) {
    if (c->req == REQ_HEAD) {
      int v = c->in.len ? hg_httphead_parse(&c->head, c->in.data, c->in.len)
                        : HG_HEAD_NEED_MORE;
      if (v == HG_HEAD_NEED_MORE) {
        if (c->guest.eof) {
          if (c->in.len) {
            hg_gw_log(c->sb, "http", "", c->ip, c->port, false, "incomplete", 0, 0);
          }
          hg__proxy_conn_finish(c);
        }
        break;
      }
      http_request(c);
    } else if (c->req == REQ_BODY) {
      if (c->in.len == 0) {
        if (c->guest.eof) hg__proxy_conn_close(c); /* a body cut short */
        break;
      }
      http_body(c);
    } else if (c->resp == RESP_DONE) {
      next_request(c);
    } else {
      break;
    }
  }
  hg__proxy_update_reading(c);
}

/* The response to the request in flight is written (or queued). */
void hg__proxy_http_resp_finished(conn *c) {
  if (hg__proxy_emit_flush(c) < 0) {
    hg__proxy_conn_close(c);
    return;
  }
  hg__proxy_secrets_clear(c);
  if (c->resp_close || c->close_after) {
    hg__proxy_conn_finish(c);
    return;
  }
  hg__proxy_http_pump(c);
}

void hg__proxy_http_guest_data(conn *c, const char *p, size_t n) {
  if (hg_buf_append(&c->in, p, n) < 0) {
    hg__proxy_conn_close(c);
    return;
  }
  hg__proxy_http_pump(c);
}
