/* forward: reverse proxy to a peer's API over libcurl multi on the loop.
 *
 * node/core/curluv drives curl from the loop and hands finished transfers
 * to on_transfer_done. Everything curl calls back (head_cb, body_cb) runs
 * inside curl, where curl forbids adding or removing transfers: so a
 * forward is only ever finished from on_transfer_done or from our own
 * timers, never from a curl callback; callbacks only set flags and return
 * "abort". hg_curluv_in_curl says whether we are inside curl. */
#include "api/forward.h"

#include <curl/curl.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "api/fwdsign.h"
#include "node/core/closer.h"
#include "node/core/buf.h"
#include "node/core/curluv.h"
#include "node/core/list.h"
#include "node/core/log.h"
#include "node/core/parse.h"
#include "node/core/util.h"

#define HG_FWD_MAX_XFF 1024 /* an incoming X-Forwarded-For we extend */
#define HG_FWD_CURL_BUFFER (64 * 1024)
#define HG_FWD_KEEPIDLE_S 10 /* TCP keep-alive: a peer dead after connect */
#define HG_FWD_KEEPINTVL_S 5

struct hg_forward {
  uv_loop_t *loop;
  hg_curluv *cu;
  char node_id[HG_NODE_ID_MAX];
  const hg_fwdsign *signer;
  bool https;
  char ca[4096]; /* "" with https: the system's CA store */
  hg_fwd *fwds;    /* in flight */
  hg_forward_stats st;
  hg_closer closer; /* cu and the drain timers; frees f */
  bool closing;
};

struct hg_fwd {
  hg_forward *f;
  hg_http_req *req;
  CURL *easy;
  struct curl_slist *hdrs;
  char *path; /* the target as received, without a fragment */
  char owner[HG_NODE_ID_MAX];
  char addr[HG_ADDR_MAX];
  char identity[HG_FWDSIGN_IDENT_MAX];
  char sandbox[HG_ID_MAX]; /* E2b-Sandbox-Id if the client sent none */
  int decline;
  hg_fwd_done_cb done;
  void *ud;
  /* the upstream answer (the current head: 1xx heads are skipped) */
  int status;
  char ctype[128];
  hg_buf extra; /* pass-through headers, "Name: value\r\n"… */
  char hint_owner[HG_NODE_ID_MAX], hint_addr[HG_ADDR_MAX];
  bool in_multi;
  bool started;  /* the client's answer began */
  bool answered; /* ... and was whole (no body: 204, 304) */
  bool retrying, retried, declined, misdirected, cancelled, client_gone, paused;
  bool drain_open;
  uv_timer_t drain; /* paused: looks whether the client drained */
  char err[CURL_ERROR_SIZE];
  hg_fwd *prev, *next;
};

/* The target to send: origin-form as received (an absolute-form target
 * loses its scheme and authority: we choose the host), no fragment. Only
 * visible ASCII: anything else would be for curl's URL parser to judge. */
static int target_path(const char *t, char **out) {
  if (!strncasecmp(t, "http://", 7) || !strncasecmp(t, "https://", 8)) {
    t = strstr(t, "//") + 2;
    t += strcspn(t, "/?#");
  } else if (t[0] != '/') {
    return -EINVAL;
  }
  size_t n = strcspn(t, "#");
  for (size_t i = 0; i < n; i++)
    if ((unsigned char)t[i] <= 0x20 || (unsigned char)t[i] >= 0x7f) return -EINVAL;
  char *p = malloc(n + 2);
  if (!p) return -ENOMEM;
  size_t o = 0;
  if (t[0] != '/') p[o++] = '/';
  memcpy(p + o, t, n);
  p[o + n] = '\0';
  *out = p;
  return 0;
}

/* ---- life of one forward --------------------------------------------------- */

static void on_drain_closed(uv_handle_t *h) {
  hg_fwd *w = h->data;
  hg_forward *f = w->f;
  free(w);
  hg_closer_closed(&f->closer);
}

/* Reports how w ended and lets it go. */
static void fwd_finish(hg_fwd *w, int rc, const char *msg) {
  hg_forward *f = w->f;
  hg_fwd_result res = {
      .rc = rc, .status = w->status, .started = w->started, .retried = w->retried};
  memcpy(res.owner, w->owner, sizeof res.owner);
  memcpy(res.addr, w->addr, sizeof res.addr);
  if (msg) snprintf(res.msg, sizeof res.msg, "%s", msg);
  HG_LIST_UNLINK(f->fwds, w);
  f->st.active--;
  if (w->easy) curl_easy_cleanup(w->easy);
  curl_slist_free_all(w->hdrs);
  hg_buf_free(&w->extra);
  free(w->path);
  w->done(w->ud, &res);
  if (w->drain_open) {
    uv_close((uv_handle_t *)&w->drain, on_drain_closed);
  } else {
    free(w); /* f stays: cu, counted, closes only in hg_forward_close */
  }
}

static size_t head_cb(char *buf, size_t size, size_t n, void *ud);
static size_t body_cb(char *buf, size_t size, size_t n, void *ud);
static int fwd_headers(hg_fwd *w, const char *self);

/* A transfer to w->addr, with w's request and headers (signed afresh). */
static int fwd_easy(hg_fwd *w) {
  const hg_http_req *req = w->req;
  curl_slist_free_all(w->hdrs);
  w->hdrs = NULL;
  int hrc = fwd_headers(w, w->f->node_id);
  if (hrc < 0) return hrc;
  size_t ulen = 9 + strlen(w->addr) + strlen(w->path);
  char *url = malloc(ulen);
  CURL *e = curl_easy_init();
  if (!url || !e) {
    free(url);
    if (e) curl_easy_cleanup(e);
    return -ENOMEM;
  }
  bool tls = w->f->https;
  snprintf(url, ulen, "%s://%s%s", tls ? "https" : "http", w->addr, w->path);
  CURLcode rc = curl_easy_setopt(e, CURLOPT_URL, url);
  free(url); /* curl keeps its own copy */
  curl_easy_setopt(e, CURLOPT_PRIVATE, w);
  curl_easy_setopt(e, CURLOPT_NOSIGNAL, 1L);
  curl_easy_setopt(e, CURLOPT_PROTOCOLS_STR, tls ? "https" : "http");
  if (tls) { /* curl checks the certificate and its name by default: kept */
    curl_easy_setopt(e, CURLOPT_SSL_VERIFYPEER, 1L);
    curl_easy_setopt(e, CURLOPT_SSL_VERIFYHOST, 2L);
    if (w->f->ca[0]) curl_easy_setopt(e, CURLOPT_CAINFO, w->f->ca);
  }
  curl_easy_setopt(e, CURLOPT_PROXY,
                   ""); /* peers directly, whatever the environment says */
  curl_easy_setopt(e, CURLOPT_PATH_AS_IS, 1L);
  curl_easy_setopt(e, CURLOPT_HTTP_VERSION, (long)CURL_HTTP_VERSION_1_1);
  curl_easy_setopt(e, CURLOPT_CONNECTTIMEOUT_MS, (long)HG_FWD_CONNECT_MS);
  curl_easy_setopt(e, CURLOPT_TCP_KEEPALIVE, 1L);
  curl_easy_setopt(e, CURLOPT_TCP_KEEPIDLE, (long)HG_FWD_KEEPIDLE_S);
  curl_easy_setopt(e, CURLOPT_TCP_KEEPINTVL, (long)HG_FWD_KEEPINTVL_S);
  curl_easy_setopt(e, CURLOPT_BUFFERSIZE, (long)HG_FWD_CURL_BUFFER);
  curl_easy_setopt(e, CURLOPT_ERRORBUFFER, w->err);
  curl_easy_setopt(e, CURLOPT_HEADERFUNCTION, head_cb);
  curl_easy_setopt(e, CURLOPT_HEADERDATA, w);
  curl_easy_setopt(e, CURLOPT_WRITEFUNCTION, body_cb);
  curl_easy_setopt(e, CURLOPT_WRITEDATA, w);
  curl_easy_setopt(e, CURLOPT_HTTPHEADER, w->hdrs);
  if (!strcmp(req->method, "GET") && req->body_len == 0) {
    curl_easy_setopt(e, CURLOPT_HTTPGET, 1L);
  } else if (!strcmp(req->method, "HEAD")) {
    curl_easy_setopt(e, CURLOPT_NOBODY, 1L);
  } else {
    curl_easy_setopt(e, CURLOPT_CUSTOMREQUEST, req->method);
    /* a body whenever there is one, and an explicit empty one for the
     * methods that carry bodies (Content-Length: 0) */
    if (req->body_len > 0 || !strcmp(req->method, "POST") ||
        !strcmp(req->method, "PUT") || !strcmp(req->method, "PATCH")) {
      curl_easy_setopt(e, CURLOPT_POSTFIELDS, req->body ? req->body : "");
      curl_easy_setopt(e, CURLOPT_POSTFIELDSIZE_LARGE, (curl_off_t)req->body_len);
    }
  }
  if (rc != CURLE_OK) {
    curl_easy_cleanup(e);
    return -EINVAL;
  }
  w->err[0] = '\0';
  w->status = 0;
  w->ctype[0] = '\0';
  w->hint_owner[0] = w->hint_addr[0] = '\0';
  hg_buf_reset(&w->extra);
  int arc = hg_curluv_add(w->f->cu, e);
  if (arc < 0) {
    curl_easy_cleanup(e);
    return arc;
  }
  w->easy = e;
  w->in_multi = true;
  return 0;
}

/* Appends "Name: value" (or "Name:", which makes curl drop a header of
 * its own) to *l. */
static int hdr_add(struct curl_slist **l, hg_buf *h, const char *name, const char *v) {
  hg_buf_reset(h);
  int rc = v ? hg_buf_printf(h, "%s: %s", name, v) : hg_buf_printf(h, "%s:", name);
  struct curl_slist *t = rc == 0 ? curl_slist_append(*l, h->data) : NULL;
  if (rc == 0 && !t) rc = -ENOMEM;
  if (rc == 0) *l = t;
  return rc;
}

/* The signed headers: identity, body digest, signature (fwdsign.h). The
 * body signed is the one curl sends (none for HEAD). */
static int fwd_sign(hg_fwd *w, const char *self, struct curl_slist **l, hg_buf *h) {
  const hg_http_req *req = w->req;
  bool nobody = !strcmp(req->method, "HEAD");
  hg_fwdsign_hdrs sh;
  int rc = hg_fwdsign_sign(w->f->signer, req->method, w->path, self, w->identity,
                           req->body, nobody ? 0 : req->body_len, hg_wall_ns() / 1000000, &sh);
  if (rc == 0 && w->identity[0]) rc = hdr_add(l, h, "X-Hangar-Identity", w->identity);
  if (rc == 0) rc = hdr_add(l, h, "X-Hangar-Body-SHA256", sh.digest);
  if (rc == 0) rc = hdr_add(l, h, "X-Hangar-Signature", sh.sig);
  return rc;
}

/* The request headers that matter, and ours. A header curl would add by
 * itself (Content-Type for a body, Accept, Expect: 100-continue) is named
 * empty when the client did not send it, which removes it. The client's
 * Authorization never goes on: the signed identity stands for it. */
static int fwd_headers(hg_fwd *w, const char *self) {
  static const struct {
    const char *lower, *name;
  } pass[] = {
      {"content-type", "Content-Type"},
      {"accept", "Accept"},
      {"e2b-sandbox-id", "E2b-Sandbox-Id"}, /* envd's routes name the sandbox so */
      {"connect-protocol-version", "Connect-Protocol-Version"},
  };
  const hg_http_req *req = w->req;
  hg_buf h;
  hg_buf_init(&h, HG_HTTP_MAX_HEADER + 256);
  struct curl_slist *l = NULL, *t;
  int rc = 0;
  for (size_t i = 0; i < sizeof pass / sizeof pass[0] && rc == 0; i++) {
    const char *v = hg_http_header_get(req, pass[i].lower);
    if (!strcmp(pass[i].lower, "e2b-sandbox-id") && (!v || !*v) && w->sandbox[0])
      v = w->sandbox;
    hg_buf_reset(&h);
    rc = v && *v ? hg_buf_printf(&h, "%s: %s", pass[i].name, v)
                 : hg_buf_printf(&h, "%s:", pass[i].name);
    if (rc == 0 && !(t = curl_slist_append(l, h.data))) rc = -ENOMEM;
    if (rc == 0) l = t;
  }
  char peer[64];
  const char *xff = hg_http_header_get(req, "x-forwarded-for");
  if (xff && strlen(xff) > HG_FWD_MAX_XFF) xff = NULL; /* do not grow it without end */
  bool have_peer = hg_http_req_peer(req, peer, sizeof peer) == 0;
  hg_buf_reset(&h);
  if (rc == 0 && (xff || have_peer))
    rc = hg_buf_printf(&h, "X-Forwarded-For: %s%s%s", xff ? xff : "",
                       xff && have_peer ? ", " : "", have_peer ? peer : "");
  if (rc == 0 && h.len && !(t = curl_slist_append(l, h.data))) rc = -ENOMEM;
  if (rc == 0 && h.len) l = t;
  hg_buf_reset(&h);
  if (rc == 0) rc = hg_buf_printf(&h, "X-Hangar-Forwarded: %s", self);
  if (rc == 0 && !(t = curl_slist_append(l, h.data))) rc = -ENOMEM;
  if (rc == 0) l = t;
  if (rc == 0 && !(t = curl_slist_append(l, "Expect:"))) rc = -ENOMEM;
  if (rc == 0) l = t;
  if (rc == 0) rc = fwd_sign(w, self, &l, &h);
  hg_buf_free(&h);
  if (rc < 0) {
    curl_slist_free_all(l);
    return rc;
  }
  w->hdrs = l;
  return 0;
}

int hg_fwd_start(hg_forward *f, hg_http_req *req, const hg_fwd_spec *spec, hg_fwd **out) {
  if (f->closing) return -ECANCELED;
  if (!spec->done || !hg_node_id_valid(spec->owner) || !hg_addr_valid(spec->addr))
    return -EINVAL;
  hg_fwd *w = calloc(1, sizeof *w);
  if (!w) return -ENOMEM;
  w->f = f;
  w->req = req;
  w->decline = spec->decline_status;
  w->done = spec->done;
  w->ud = spec->ud;
  snprintf(w->owner, sizeof w->owner, "%s", spec->owner);
  snprintf(w->addr, sizeof w->addr, "%s", spec->addr);
  hg_buf_init(&w->extra, HG_FWD_MAX_RESP_HEADERS);
  int rc = 0;
  if (spec->identity && strlen(spec->identity) >= sizeof w->identity) rc = -EINVAL;
  else snprintf(w->identity, sizeof w->identity, "%s", spec->identity ? spec->identity : "");
  if (spec->sandbox && strlen(spec->sandbox) >= sizeof w->sandbox) rc = -EINVAL;
  else snprintf(w->sandbox, sizeof w->sandbox, "%s", spec->sandbox ? spec->sandbox : "");
  if (rc == 0) rc = target_path(req->target, &w->path);
  if (rc == 0) rc = fwd_easy(w);
  if (rc < 0) {
    curl_slist_free_all(w->hdrs);
    hg_buf_free(&w->extra);
    free(w->path);
    free(w);
    return rc;
  }
  HG_LIST_PUSH(f->fwds, w);
  f->st.active++;
  *out = w;
  return 0;
}

/* ---- the upstream answer (curl callbacks: flags only) ---------------------- */

/* "X-Hangar-Owner: <node> <addr>": where the upstream says S lives. */
static void hint_parse(hg_fwd *w, const char *v, size_t n) {
  char tmp[HG_NODE_ID_MAX + HG_ADDR_MAX + 2];
  if (n >= sizeof tmp) return;
  memcpy(tmp, v, n);
  tmp[n] = '\0';
  char *sp = strchr(tmp, ' ');
  if (!sp) return;
  *sp = '\0';
  const char *addr = sp + 1;
  while (*addr == ' ') addr++;
  if (!hg_node_id_valid(tmp) || !hg_addr_valid(addr)) return;
  memcpy(w->hint_owner, tmp, strlen(tmp) + 1); /* both validated: they fit */
  memcpy(w->hint_addr, addr, strlen(addr) + 1);
}

static bool passes(const char *name, size_t n) {
  static const char *const names[] = {"location", "retry-after", "www-authenticate",
                                      "allow"};
  for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
    if (strlen(names[i]) == n && !strncasecmp(name, names[i], n)) return true;
  if (n == 13 && !strncasecmp(name, "x-hangar-node", n))
    return false; /* ours replaces it */
  if (n == 18 && !strncasecmp(name, "x-hangar-forwarded", n)) return false;
  if (n == 14 && !strncasecmp(name, "x-hangar-owner", n))
    return false; /* an internal address: for us, not the client */
  return n > 9 && !strncasecmp(name, "x-hangar-", 9);
}

/* One "Name: value" line of the upstream head (CRLF stripped). */
static void head_field(hg_fwd *w, const char *line, size_t len) {
  if (line[0] == ' ' || line[0] == '\t') return; /* obsolete folding: dropped */
  const char *colon = memchr(line, ':', len);
  if (!colon || colon == line) return;
  size_t nlen = (size_t)(colon - line);
  const char *v = colon + 1, *end = line + len;
  while (v < end && (*v == ' ' || *v == '\t')) v++;
  while (end > v && (end[-1] == ' ' || end[-1] == '\t')) end--;
  size_t vlen = (size_t)(end - v);
  for (size_t i = 0; i < vlen; i++)
    if ((unsigned char)v[i] < 0x20 && v[i] != '\t') return; /* never into our head */
  for (size_t i = 0; i < nlen; i++)
    if ((unsigned char)line[i] <= 0x20 || (unsigned char)line[i] >= 0x7f) return;
  if (nlen == 12 && !strncasecmp(line, "content-type", 12)) {
    if (vlen < sizeof w->ctype) {
      memcpy(w->ctype, v, vlen);
      w->ctype[vlen] = '\0';
    }
    return;
  }
  if (nlen == 14 && !strncasecmp(line, "x-hangar-owner", 14)) hint_parse(w, v, vlen);
  if (!passes(line, nlen)) return;
  size_t mark = w->extra.len;
  if (hg_buf_printf(&w->extra, "%.*s: %.*s\r\n", (int)nlen, line, (int)vlen, v) < 0)
    w->extra.len = mark; /* too many: the rest is dropped, the answer still goes */
}

/* The upstream head is complete: false aborts the transfer. */
static bool head_done(hg_fwd *w) {
  if (w->status == 421 && !w->retried && w->hint_addr[0] &&
      strcmp(w->hint_addr, w->addr) != 0) {
    w->retrying = true;
    return false;
  }
  if (w->status == 421) { /* not passed on: it names where peers listen */
    w->misdirected = true;
    return false;
  }
  if (w->decline && w->status == w->decline) {
    w->declined = true;
    return false;
  }
  size_t mark = w->extra.len;
  if (hg_buf_printf(&w->extra, "X-Hangar-Node: %s\r\n", w->owner) < 0) {
    w->extra.len = mark;
    hg_buf_reset(&w->extra); /* ours matters more than theirs */
    hg_buf_printf(&w->extra, "X-Hangar-Node: %s\r\n", w->owner);
  }
  const char *ct = w->ctype[0] ? w->ctype : NULL;
  w->started = true;
  if (w->status == 204 || w->status == 304) { /* no body: never a chunked one */
    w->answered = true;
    hg_http_respond(w->req, w->status, NULL, w->extra.data, NULL, 0);
    return true;
  }
  if (hg_http_stream_start(w->req, w->status, ct, w->extra.data) < 0) {
    w->client_gone = true;
    return false;
  }
  return true;
}

static size_t head_cb(char *buf, size_t size, size_t n, void *ud) {
  hg_fwd *w = ud;
  size_t len = size * n;
  if (w->cancelled) return 0;
  if (len >= 5 && !memcmp(buf, "HTTP/", 5)) { /* a new head (after 1xx: the final one) */
    const char *sp = memchr(buf, ' ', len);
    int st = 0;
    if (sp && (size_t)(sp - buf) + 4 <= len && sp[1] >= '1' && sp[1] <= '5' &&
        sp[2] >= '0' && sp[2] <= '9' && sp[3] >= '0' && sp[3] <= '9')
      st = (sp[1] - '0') * 100 + (sp[2] - '0') * 10 + (sp[3] - '0');
    if (!st) return 0;
    w->status = st;
    w->ctype[0] = '\0';
    w->hint_owner[0] = w->hint_addr[0] = '\0';
    hg_buf_reset(&w->extra);
    return len;
  }
  size_t l = len;
  while (l && (buf[l - 1] == '\n' || buf[l - 1] == '\r')) l--;
  if (l > 0) {
    head_field(w, buf, l);
    return len;
  }
  if (w->status < 200) return len; /* the end of a 1xx head */
  return head_done(w) ? len : 0;
}

static void drain_start(hg_fwd *w, uint64_t ms);

static size_t body_cb(char *buf, size_t size, size_t n, void *ud) {
  hg_fwd *w = ud;
  size_t len = size * n;
  if (w->cancelled || w->client_gone) return 0;
  if (!w->started || w->answered) return len; /* nothing goes to the client */
  /* Back-pressure: curl keeps this data and offers it again once unpaused,
   * and reads no more from the upstream meanwhile. */
  if (hg_http_stream_pending(w->req) > HG_FWD_HIGH_WATER) {
    w->paused = true;
    w->f->st.paused++;
    drain_start(w, HG_FWD_DRAIN_MS);
    return CURL_WRITEFUNC_PAUSE;
  }
  if (hg_http_stream_write(w->req, buf, len) < 0) {
    w->client_gone = true;
    return 0;
  }
  size_t p = hg_http_stream_pending(w->req);
  if (p > w->f->st.pending_max) w->f->st.pending_max = p;
  return len;
}

/* ---- ending -------------------------------------------------------------------- */

static void fwd_remove(hg_fwd *w) {
  if (!w->in_multi) return;
  hg_curluv_remove(w->f->cu, w->easy);
  w->in_multi = false;
}

static void fwd_cancel_now(hg_fwd *w) {
  fwd_remove(w);
  w->f->st.cancelled++;
  if (w->started && !w->answered)
    hg_http_stream_end(w->req); /* a no-op for a gone client */
  fwd_finish(w, -ECANCELED, "cancelled");
}

void hg_fwd_cancel(hg_fwd *w) {
  if (w->cancelled) return;
  w->cancelled = true;
  if (hg_curluv_in_curl(w->f->cu))
    drain_start(w, 0); /* curl's callbacks see the flag; finish outside */
  else
    fwd_cancel_now(w);
}

/* A 421 named another node: the same request once more, there. */
static void fwd_retry(hg_fwd *w) {
  char from[HG_ADDR_MAX];
  snprintf(from, sizeof from, "%s", w->addr);
  curl_easy_cleanup(w->easy);
  w->easy = NULL;
  w->retrying = false;
  w->retried = true;
  w->f->st.retried++;
  memcpy(w->owner, w->hint_owner, sizeof w->owner);
  memcpy(w->addr, w->hint_addr, sizeof w->addr);
  hg_log_info("api.forward_retry", "from=%s node=%s addr=%s", from, w->owner, w->addr);
  int rc = fwd_easy(w);
  if (rc < 0) {
    w->f->st.unreachable++;
    fwd_finish(w, -EHOSTUNREACH, "could not start the retry");
  }
}

/* curl is done with w's transfer (result: how). */
static void fwd_transfer_done(hg_fwd *w, CURLcode result) {
  fwd_remove(w);
  hg_forward *f = w->f;
  if (w->cancelled) {
    fwd_cancel_now(w);
  } else if (w->retrying) {
    fwd_retry(w);
  } else if (w->declined) {
    f->st.declined++;
    fwd_finish(w, -ENOENT, "declined");
  } else if (w->misdirected) {
    f->st.unreachable++;
    fwd_finish(w, -EREMOTE, "misdirected again");
  } else if (w->client_gone) {
    f->st.cancelled++;
    if (!w->answered) hg_http_stream_end(w->req);
    fwd_finish(w, -ECANCELED, "the client left");
  } else if (!w->started) {
    char msg[CURL_ERROR_SIZE + 64];
    snprintf(msg, sizeof msg, "%s",
             w->err[0]            ? w->err
             : result == CURLE_OK ? "no answer"
                                  : curl_easy_strerror(result));
    f->st.unreachable++;
    hg_log_warn("api.forward_failed", "node=%s addr=%s err=\"%s\"", w->owner, w->addr,
                msg);
    fwd_finish(w, -EHOSTUNREACH, msg);
  } else if (result == CURLE_OK || w->answered) {
    f->st.ok++;
    if (!w->answered) hg_http_stream_end(w->req);
    fwd_finish(w, 0, NULL);
  } else {
    f->st.broken++;
    hg_log_warn("api.forward_broken", "node=%s addr=%s status=%d err=\"%s\"", w->owner,
                w->addr, w->status, w->err[0] ? w->err : curl_easy_strerror(result));
    hg_http_stream_abort(w->req); /* cut: a clean end would say "complete" */
    fwd_finish(w, -EPIPE, w->err[0] ? w->err : curl_easy_strerror(result));
  }
}

/* ---- back-pressure ------------------------------------------------------------- */

static void on_drain(uv_timer_t *t) {
  hg_fwd *w = t->data;
  if (w->cancelled) {
    uv_timer_stop(t);
    fwd_cancel_now(w);
    return;
  }
  if (!w->paused) {
    uv_timer_stop(t);
    return;
  }
  if (hg_http_req_alive(w->req) && hg_http_stream_pending(w->req) > HG_FWD_LOW_WATER)
    return;
  uv_timer_stop(t);
  w->paused = false;
  hg_forward *f = w->f;
  hg_curluv_unpause(f->cu, w->easy); /* hands curl's kept data to body_cb at once */
}

static void drain_start(hg_fwd *w, uint64_t ms) {
  if (!w->drain_open) {
    uv_timer_init(w->f->loop, &w->drain);
    w->drain.data = w;
    w->drain_open = true;
    hg_closer_add(&w->f->closer, 1);
  }
  uv_timer_start(&w->drain, on_drain, ms, ms ? ms : HG_FWD_DRAIN_MS);
}

/* ---- curl on the loop ------------------------------------------------------- */

static void on_transfer_done(CURL *e, CURLcode result, void *ud) {
  char *priv = NULL;
  curl_easy_getinfo(e, CURLINFO_PRIVATE, &priv);
  if (priv) fwd_transfer_done((hg_fwd *)priv, result);
}

/* ---- the forwarder ------------------------------------------------------------- */

/* cu closes only in hg_forward_close: none open means closing. */
static void forward_free(void *f) { free(f); }

int hg_forward_new(uv_loop_t *loop, const char *node_id, const hg_fwdsign *signer,
                   hg_forward **out) {
  if (!node_id || !*node_id || strlen(node_id) >= HG_NODE_ID_MAX || !signer) return -EINVAL;
  hg_forward *f = calloc(1, sizeof *f);
  if (!f) return -ENOMEM;
  int rc = hg_curluv_new(loop, on_transfer_done, f, &f->cu);
  if (rc < 0) {
    free(f);
    return rc;
  }
  f->loop = loop;
  f->signer = signer;
  snprintf(f->node_id, sizeof f->node_id, "%s", node_id);
  hg_closer_init(&f->closer, f, NULL, forward_free);
  hg_closer_add(&f->closer, 1); /* cu */
  *out = f;
  return 0;
}

int hg_forward_tls(hg_forward *f, const char *ca_file) {
  if (ca_file && strlen(ca_file) >= sizeof f->ca) return -ENAMETOOLONG;
  f->https = true;
  snprintf(f->ca, sizeof f->ca, "%s", ca_file ? ca_file : "");
  return 0;
}

static void on_curluv_closed(void *ud) {
  hg_forward *f = ud;
  hg_closer_closed(&f->closer);
}

void hg_forward_close(hg_forward *f, void (*done)(void *ud), void *ud) {
  if (!f || f->closing) return;
  f->closing = true;
  hg_closer_then(&f->closer, done, ud);
  while (f->fwds) {
    hg_fwd *w = f->fwds;
    w->cancelled = true;
    fwd_cancel_now(w);
  }
  hg_curluv_close(f->cu, on_curluv_closed, f);
}

void hg_forward_get_stats(const hg_forward *f, hg_forward_stats *out) {
  *out = f->st;
}
