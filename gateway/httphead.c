/* httphead: strict HTTP/1.x request head reader for the egress proxy. */
#include "gateway/httphead.h"

#include <errno.h>
#include <stddef.h>
#include <string.h>

#include "node/core/parse.h"

static const char *const reason_str[] = {
    [HG_HEAD_R_NONE] = "none",
    [HG_HEAD_R_TLS] = "tls",
    [HG_HEAD_R_TOO_LARGE] = "too_large",
    [HG_HEAD_R_NUL] = "nul",
    [HG_HEAD_R_BAD_LINE_END] = "bad_line_end",
    [HG_HEAD_R_BAD_METHOD] = "bad_method",
    [HG_HEAD_R_BAD_TARGET] = "bad_target",
    [HG_HEAD_R_BAD_VERSION] = "bad_version",
    [HG_HEAD_R_BAD_FIELD] = "bad_field",
    [HG_HEAD_R_OBS_FOLD] = "obs_fold",
    [HG_HEAD_R_TOO_MANY_FIELDS] = "too_many_fields",
    [HG_HEAD_R_NO_HOST] = "no_host",
    [HG_HEAD_R_DUPLICATE_HOST] = "duplicate_host",
    [HG_HEAD_R_BAD_HOST] = "bad_host",
    [HG_HEAD_R_IP_LITERAL] = "ip_literal",
    [HG_HEAD_R_USERINFO] = "userinfo",
    [HG_HEAD_R_HOST_MISMATCH] = "host_mismatch",
    [HG_HEAD_R_CL_AND_TE] = "cl_and_te",
    [HG_HEAD_R_BAD_CONTENT_LENGTH] = "bad_content_length",
    [HG_HEAD_R_BAD_TRANSFER_ENCODING] = "bad_transfer_encoding",
    [HG_HEAD_R_CONNECT] = "connect",
};

const char *hg_head_reason_str(hg_head_reason r) {
  if ((unsigned)r >= sizeof(reason_str) / sizeof(reason_str[0])) return "unknown";
  return reason_str[r];
}

/* tchar (RFC 9110 5.6.2) */
static int is_tchar(unsigned char c) {
  if ((c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'))
    return 1;
  return c != 0 && strchr("!#$%&'*+-.^_`|~", c) != NULL;
}
static int is_ows(unsigned char c) {
  return c == ' ' || c == '\t';
}
/* field-value bytes: VCHAR, obs-text, SP, HTAB */
static int is_value_byte(unsigned char c) {
  return c == '\t' || (c >= 0x20 && c != 0x7f);
}
static char lower(char c) {
  return (c >= 'A' && c <= 'Z') ? (char)(c + 32) : c;
}

static int ieq(const char *a, size_t alen, const char *b) {
  size_t blen = strlen(b);
  if (alen != blen) return 0;
  for (size_t i = 0; i < alen; i++)
    if (lower(a[i]) != lower(b[i])) return 0;
  return 1;
}

void hg_httphead_init(hg_httphead *h) {
  /* the fields array is written as it fills; the rest starts at zero */
  memset(h, 0, offsetof(hg_httphead, fields));
  h->scanned = 0;
  h->line_len = 0;
  h->in_method = 1;
}

void hg_httphead_reset(hg_httphead *h) {
  hg_httphead_init(h);
}

static int deny(hg_httphead *h, hg_head_reason r) {
  h->verdict = HG_HEAD_DENY;
  h->reason = r;
  return h->verdict;
}

/* host[:port] as in Host, an absolute-form authority, or a CONNECT target.
 * Returns 0 or the reason to deny. */
static hg_head_reason parse_authority(const char *s, size_t n, char host[HG_NAME_MAX + 1],
                                      uint16_t *port) {
  const char *colon;
  size_t hlen = n;
  unsigned long p = 0;
  int rc;
  if (memchr(s, '@', n)) return HG_HEAD_R_USERINFO;
  if (n == 0) return HG_HEAD_R_BAD_HOST;
  if (s[0] == '[') return HG_HEAD_R_IP_LITERAL;
  colon = memchr(s, ':', n);
  /* one ':' splits off a port; more than one is an unbracketed IPv6
   * literal (or junk), which the name rules sort out below */
  if (colon && !memchr(colon + 1, ':', n - (size_t)(colon - s) - 1)) {
    size_t i = (size_t)(colon - s) + 1;
    hlen = (size_t)(colon - s);
    if (i == n || n - i > 5 || s[i] == '0') return HG_HEAD_R_BAD_HOST;
    for (; i < n; i++) {
      if (s[i] < '0' || s[i] > '9') return HG_HEAD_R_BAD_HOST;
      p = p * 10 + (unsigned long)(s[i] - '0');
    }
    if (p > 65535) return HG_HEAD_R_BAD_HOST;
  }
  rc = hg_name_normalize(s, hlen, host);
  if (rc == -EAFNOSUPPORT) return HG_HEAD_R_IP_LITERAL;
  if (rc < 0) return HG_HEAD_R_BAD_HOST;
  *port = (uint16_t)p;
  return HG_HEAD_R_NONE;
}

/* The target of a non-CONNECT request. Absolute-form fills ahost/aport
 * for the comparison with Host. */
static hg_head_reason parse_target(hg_httphead *h, const char *buf,
                                   char ahost[HG_NAME_MAX + 1], uint16_t *aport) {
  const char *t = buf + h->target.off;
  size_t n = h->target.len, i = 0;
  for (i = 0; i < n; i++)
    if ((unsigned char)t[i] <= 0x20 || (unsigned char)t[i] >= 0x7f)
      return HG_HEAD_R_BAD_TARGET;
  if (t[0] == '/') {
    h->form = HG_HEAD_ORIGIN;
    return HG_HEAD_R_NONE;
  }
  if (n == 1 && t[0] == '*') {
    h->form = HG_HEAD_ASTERISK;
    /* methods are case-sensitive (RFC 9110 9.1) */
    int options = h->method.len == 7 && memcmp(buf + h->method.off, "OPTIONS", 7) == 0;
    return options ? HG_HEAD_R_NONE : HG_HEAD_R_BAD_TARGET;
  }
  /* absolute-form; only http: this proxy speaks plain HTTP on port 80 */
  if (n < 7 || !ieq(t, 7, "http://")) return HG_HEAD_R_BAD_TARGET;
  h->form = HG_HEAD_ABSOLUTE;
  size_t a = 7, e = a;
  /* The authority ends where any URL parser would end it; '\\' is one
   * for browsers (WHATWG), so it ends it here too and then fails as a
   * path that does not start with '/'. */
  while (e < n && !strchr("/?#\\", t[e])) e++;
  if (e < n && t[e] != '/' && t[e] != '?') return HG_HEAD_R_BAD_TARGET;
  return parse_authority(t + a, e - a, ahost, aport);
}

/* One field line buf[ls..le) (le at its CR). */
static hg_head_reason parse_field(hg_httphead *h, const char *buf, size_t ls, size_t le,
                                  hg_head_field *f) {
  size_t i = ls, vs, ve;
  if (is_ows((unsigned char)buf[ls])) return HG_HEAD_R_OBS_FOLD;
  while (i < le && is_tchar((unsigned char)buf[i])) i++;
  /* no name, a byte that is neither tchar nor ':' (whitespace before the
   * colon included: RFC 9112 5.1 says reject), or no colon at all */
  if (i == ls || i == le || buf[i] != ':' || i - ls > HG_HEAD_MAX_NAME)
    return HG_HEAD_R_BAD_FIELD;
  vs = i + 1;
  ve = le;
  while (vs < ve && is_ows((unsigned char)buf[vs])) vs++;
  while (ve > vs && is_ows((unsigned char)buf[ve - 1])) ve--;
  for (size_t j = vs; j < ve; j++)
    if (!is_value_byte((unsigned char)buf[j])) return HG_HEAD_R_BAD_FIELD;
  f->line = (hg_span){(uint32_t)ls, (uint32_t)(le + 2 - ls)};
  f->name = (hg_span){(uint32_t)ls, (uint32_t)(i - ls)};
  f->value = (hg_span){(uint32_t)vs, (uint32_t)(ve - vs)};
  return HG_HEAD_R_NONE;
}

/* 1*DIGIT, at most 18 digits (far past any real body). */
static int parse_length(const char *s, size_t n, uint64_t *out) {
  return n > 18 ? -EINVAL : hg_parse_uint_n(s, n, UINT64_MAX, out);
}

typedef struct framing {
  int hosts, cls, tes;
  size_t host_field;
  uint64_t cl;
} framing;

static hg_head_reason note_field(const char *buf, const hg_head_field *f, size_t idx,
                                 framing *fr) {
  const char *name = buf + f->name.off, *val = buf + f->value.off;
  if (ieq(name, f->name.len, "host")) {
    if (fr->hosts++) return HG_HEAD_R_DUPLICATE_HOST;
    fr->host_field = idx;
  } else if (ieq(name, f->name.len, "content-length")) {
    uint64_t v;
    if (parse_length(val, f->value.len, &v) < 0) return HG_HEAD_R_BAD_CONTENT_LENGTH;
    if (fr->cls++ && v != fr->cl) return HG_HEAD_R_BAD_CONTENT_LENGTH;
    fr->cl = v;
  } else if (ieq(name, f->name.len, "transfer-encoding")) {
    /* only a lone "chunked": anything else is a framing the proxy and the
     * server might read differently */
    if (fr->tes++ || !ieq(val, f->value.len, "chunked"))
      return HG_HEAD_R_BAD_TRANSFER_ENCODING;
  }
  return HG_HEAD_R_NONE;
}

/* Request line: method SP target SP version CRLF, single spaces. */
static hg_head_reason parse_request_line(hg_httphead *h, const char *buf) {
  const char *cr = memchr(buf, '\r', h->head_len);
  size_t le = (size_t)(cr - buf), sp1, sp2;
  const char *p = memchr(buf, ' ', le);
  if (!p) return HG_HEAD_R_BAD_METHOD;
  sp1 = (size_t)(p - buf);
  p = memchr(buf + sp1 + 1, ' ', le - sp1 - 1);
  if (!p) return HG_HEAD_R_BAD_TARGET;
  sp2 = (size_t)(p - buf);
  if (sp2 == sp1 + 1) return HG_HEAD_R_BAD_TARGET;
  h->method = (hg_span){0, (uint32_t)sp1};
  h->target = (hg_span){(uint32_t)(sp1 + 1), (uint32_t)(sp2 - sp1 - 1)};
  if (le - sp2 - 1 != 8 || memcmp(buf + sp2 + 1, "HTTP/1.", 7) ||
      (buf[sp2 + 8] != '0' && buf[sp2 + 8] != '1'))
    return HG_HEAD_R_BAD_VERSION;
  h->minor = buf[sp2 + 8] - '0';
  h->line_len = le + 2;
  return HG_HEAD_R_NONE;
}

static int parse_head(hg_httphead *h, const char *buf) {
  hg_head_reason r;
  framing fr = {0};
  char ahost[HG_NAME_MAX + 1];
  uint16_t aport = 0;
  if ((r = parse_request_line(h, buf))) return deny(h, r);
  if (h->method.len == 7 && memcmp(buf, "CONNECT", 7) == 0) {
    /* refused whatever follows; the target goes to the log if it reads */
    h->form = HG_HEAD_AUTHORITY;
    if (parse_authority(buf + h->target.off, h->target.len, ahost, &aport) == 0) {
      memcpy(h->host, ahost, sizeof(ahost));
      h->port = aport;
    }
    h->verdict = HG_HEAD_CONNECT;
    h->reason = HG_HEAD_R_CONNECT;
    return h->verdict;
  }
  if ((r = parse_target(h, buf, ahost, &aport))) return deny(h, r);
  for (size_t ls = h->line_len; ls < h->head_len - 2;) {
    size_t le = (size_t)((const char *)memchr(buf + ls, '\r', h->head_len - ls) - buf);
    if (h->nfields == HG_HEAD_MAX_FIELDS) return deny(h, HG_HEAD_R_TOO_MANY_FIELDS);
    hg_head_field *f = &h->fields[h->nfields];
    if ((r = parse_field(h, buf, ls, le, f))) return deny(h, r);
    if ((r = note_field(buf, f, h->nfields, &fr))) return deny(h, r);
    h->nfields++;
    ls = le + 2;
  }
  if (fr.cls && fr.tes) return deny(h, HG_HEAD_R_CL_AND_TE);
  /* RFC 9112 6.1: Transfer-Encoding in HTTP/1.0 is faulty framing */
  if (fr.tes && h->minor == 0) return deny(h, HG_HEAD_R_BAD_TRANSFER_ENCODING);
  if (!fr.hosts) return deny(h, HG_HEAD_R_NO_HOST);
  const hg_head_field *hf = &h->fields[fr.host_field];
  if ((r = parse_authority(buf + hf->value.off, hf->value.len, h->host, &h->port)))
    return deny(h, r);
  if (h->form == HG_HEAD_ABSOLUTE &&
      (strcmp(ahost, h->host) != 0 || (aport ? aport : 80) != (h->port ? h->port : 80)))
    return deny(h, HG_HEAD_R_HOST_MISMATCH);
  h->body = fr.tes   ? HG_HEAD_BODY_CHUNKED
            : fr.cls ? HG_HEAD_BODY_LENGTH
                     : HG_HEAD_BODY_NONE;
  h->content_length = fr.cls ? fr.cl : 0;
  h->verdict = HG_HEAD_OK;
  return h->verdict;
}

int hg_httphead_parse(hg_httphead *h, const char *buf, size_t len) {
  size_t i = h->scanned, lim = len < HG_HEAD_MAX ? len : HG_HEAD_MAX;
  if (h->verdict != HG_HEAD_NEED_MORE) return h->verdict;
  /* 0x16 opens a TLS handshake record; no method starts with it */
  if (len > 0 && (unsigned char)buf[0] == 0x16) return deny(h, HG_HEAD_R_TLS);
  for (; i < lim; i++) {
    unsigned char c = (unsigned char)buf[i];
    if (c == 0) return deny(h, HG_HEAD_R_NUL);
    /* the method is judged as it arrives: non-HTTP bytes are refused
     * on the first byte, not after 16 KiB */
    if (h->in_method) {
      if (c == ' ' && i > 0)
        h->in_method = 0;
      else if (!is_tchar(c) || i >= HG_HEAD_MAX_METHOD)
        return deny(h, HG_HEAD_R_BAD_METHOD);
    }
    if (i > 0 && buf[i - 1] == '\r' && c != '\n') return deny(h, HG_HEAD_R_BAD_LINE_END);
    if (c == '\n') {
      if (i == 0 || buf[i - 1] != '\r') return deny(h, HG_HEAD_R_BAD_LINE_END);
      if (i >= 3 && buf[i - 2] == '\n') { /* \r\n\r\n: the LF before was checked */
        h->scanned = i + 1;
        h->head_len = i + 1;
        return parse_head(h, buf);
      }
    }
  }
  h->scanned = i;
  if (i >= HG_HEAD_MAX) return deny(h, HG_HEAD_R_TOO_LARGE);
  return h->verdict;
}

int hg_httphead_find(const hg_httphead *h, const char *buf, const char *name,
                     size_t from) {
  for (size_t i = from; i < h->nfields; i++)
    if (ieq(buf + h->fields[i].name.off, h->fields[i].name.len, name)) return (int)i;
  return -ENOENT;
}

typedef struct wr {
  char *out;
  size_t cap, len;
} wr;

static int put(wr *w, const void *p, size_t n) {
  if (w->cap - w->len < n) return -ENOBUFS;
  memcpy(w->out + w->len, p, n);
  w->len += n;
  return 0;
}

static int edit_ok(const hg_head_edit *e) {
  if (!e->value) return 1;
  if (e->value_len > 0 && (is_ows((unsigned char)e->value[0]) ||
                           is_ows((unsigned char)e->value[e->value_len - 1])))
    return 0;
  for (size_t i = 0; i < e->value_len; i++)
    if (!is_value_byte((unsigned char)e->value[i])) return 0;
  return 1;
}

int hg_httphead_rebuild(const hg_httphead *h, const char *buf, const hg_head_edit *edits,
                        size_t nedits, char *out, size_t cap, size_t *out_len) {
  const hg_head_edit *by_field[HG_HEAD_MAX_FIELDS] = {0};
  wr w = {out, cap, 0};
  int rc;
  if (h->verdict != HG_HEAD_OK || nedits > HG_HEAD_MAX_FIELDS) return -EINVAL;
  for (size_t i = 0; i < nedits; i++) {
    if (edits[i].field >= h->nfields || by_field[edits[i].field] || !edit_ok(&edits[i]))
      return -EINVAL;
    by_field[edits[i].field] = &edits[i];
  }
  if ((rc = put(&w, buf, h->line_len)) < 0) return rc;
  for (size_t i = 0; i < h->nfields; i++) {
    const hg_head_field *f = &h->fields[i];
    const hg_head_edit *e = by_field[i];
    rc = 0;
    if (!e) {
      rc = put(&w, buf + f->line.off, f->line.len);
    } else if (e->value) {
      if ((rc = put(&w, buf + f->name.off, f->name.len)) < 0 ||
          (rc = put(&w, ": ", 2)) < 0 || (rc = put(&w, e->value, e->value_len)) < 0)
        return rc;
      rc = put(&w, "\r\n", 2);
    }
    if (rc < 0) return rc;
  }
  if ((rc = put(&w, "\r\n", 2)) < 0) return rc;
  *out_len = w.len;
  return 0;
}
