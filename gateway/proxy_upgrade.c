/* proxy upgrade: HTTP requests from the guest sent upstream as HTTPS
 * through libcurl's multi interface on the gateway loop, answered to the
 * guest with Content-Length. */
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
    u->coded = false;
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
  if (hg__proxy_ieq(p, nlen, "content-length")) {
    size_t vs = nlen + 1, k = 0;
    while (vs < l && hg__proxy_is_ows(p[vs])) vs++;
    while (vs < l && p[vs] >= '0' && p[vs] <= '9' && k < sizeof(u->head_cl) - 1)
      u->head_cl[k++] = p[vs++];
    u->head_cl[k] = '\0';
    return len;
  }
  if (hg__proxy_ieq(p, nlen, "content-encoding") ||
      hg__proxy_ieq(p, nlen, "transfer-encoding")) {
    size_t vs = nlen + 1;
    bool te = hg__proxy_ieq(p, nlen, "transfer-encoding");
    /* libcurl takes chunked off, nothing else (no CURLOPT_ACCEPT_ENCODING) */
    if (!hg__proxy_list_only_of(p + vs, l - vs, te ? "chunked" : "identity", NULL))
      u->coded = true;
  }
  if (hg__proxy_hop_by_hop(p, nlen)) return len;
  if (hg_buf_append(&u->rhdrs, p, l) < 0 || hg_buf_append(&u->rhdrs, "\r\n", 2) < 0)
    return 0;
  return len;
}

static size_t on_curl_body(char *p, size_t size, size_t nmemb, void *ud) {
  conn *c = ud;
  size_t len = size * nmemb;
  if (!hg__proxy_upg_take(c, len) || hg_buf_append(&c->u.rbody, p, len) < 0) {
    c->u.too_big = true;
    return 0;
  }
  return len;
}

/* Method, target and fields of the request in c->in, for libcurl. */
int hg__proxy_upgrade_prepare(conn *c, const subst *s) {
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
    if (hg__proxy_ieq(name, f->name.len, "expect"))
      expect = expect || hg__proxy_ieq(buf + f->value.off, f->value.len, "100-continue");
    if (hg__proxy_hop_by_hop(name, f->name.len)) continue;
    /* the mask reads the answer: uncompressed only (see proxy_http.c) */
    if (hg__proxy_ieq(name, f->name.len, "accept-encoding")) continue;
    has_accept = has_accept || hg__proxy_ieq(name, f->name.len, "accept");
    has_ctype = has_ctype || hg__proxy_ieq(name, f->name.len, "content-type");
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
  /* "Name:" stops libcurl from adding its own; the answer uncompressed */
  const char *none[] = {has_accept ? NULL : "Accept:", has_ctype ? NULL : "Content-Type:",
                        "Expect:", "Accept-Encoding: identity"};
  for (size_t i = 0; i < sizeof(none) / sizeof(none[0]); i++) {
    if (!none[i]) continue;
    struct curl_slist *l = curl_slist_append(u->hdrs, none[i]);
    if (!l) return -ENOMEM;
    u->hdrs = l;
  }
  u->is_head = strcmp(u->method, "HEAD") == 0;
  u->has_body = h->body != HG_HEAD_BODY_NONE;
  u->expect_continue = expect && u->has_body;
  u->coded = false;
  return 0;
}

int hg__proxy_upgrade_start(conn *c) {
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
    hg__proxy_upgrade_free(c);
    hg__proxy_http_reply_close(c, 502, "Bad Gateway", why);
    return;
  }
  bool nobody = status == 204 || status == 304;
  if (u->coded && !u->is_head && !nobody) {
    hg_log_info("proxy.upgrade", "sandbox=%s name=%s msg=\"coded answer refused\"",
                hg_gw_name(c->sb), c->name);
    hg__proxy_upgrade_free(c);
    hg__proxy_http_reply_close(c, 502, "Bad Gateway", "encoded_response");
    return;
  }
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
    hg__proxy_upgrade_free(c);
    hg__proxy_http_reply_close(c, 502, "Bad Gateway", "response_too_large");
    return;
  }
  /* the body goes out as it is, no copy; its share of the budget is given
   * back when the guest has taken it (on_write), not before */
  char *body = u->rbody.data;
  size_t blen = u->is_head || nobody ? 0 : u->rbody.len, held = u->held;
  hg_buf_init(&u->rbody, u->rbody.max);
  u->held = 0;
  hg__proxy_upgrade_free(c);
  hg__proxy_mask_scan(c, head.data, head.len);
  hg__proxy_mask_scan(c, body, blen); /* a secret has no CR or LF: none spans the two */
  rc = hg__proxy_send_owned(c, &c->guest, head.data, head.len);
  /* called whatever rc is: it frees the body and gives the budget back */
  if (hg__proxy_send_budget(c, &c->guest, body, blen, held) < 0 || rc < 0) {
    hg__proxy_conn_close(c);
    return;
  }
  c->resp = RESP_DONE;
  hg__proxy_http_resp_finished(c);
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
