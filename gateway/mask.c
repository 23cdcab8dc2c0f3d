/* mask: secrets hidden in a byte stream, in the forms an echo reflects
 * them in. See mask.h. */
#include "gateway/mask.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

/* ---- the forms of a secret ---------------------------------------------------- */

typedef enum form {
  F_RAW,
  F_JSON,       /* " \ and control bytes escaped */
  F_JSON_SLASH, /* and / as \/ (PHP, some Java encoders) */
  F_JSON_HTML,  /* and < > & as \u003c \u003e \u0026 (Go) */
  F_URL_UPPER,  /* every byte but A-Z a-z 0-9 - . _ ~ as %XX */
  F_URL_LOWER,  /* %xx */
  F_URL_FORM,   /* %XX, and a space as + (application/x-www-form-urlencoded) */
} form;

static bool unreserved(unsigned char ch) {
  return (ch >= 'A' && ch <= 'Z') || (ch >= 'a' && ch <= 'z') ||
         (ch >= '0' && ch <= '9') || ch == '-' || ch == '.' || ch == '_' || ch == '~';
}

/* The bytes ch is written as in form f; returns their count (at most 6). */
static size_t encode_byte(form f, unsigned char ch, char out[6]) {
  static const char up[] = "0123456789ABCDEF", lo[] = "0123456789abcdef";
  switch (f) {
    case F_RAW:
      break;
    case F_JSON:
    case F_JSON_SLASH:
    case F_JSON_HTML: {
      const char *esc = NULL;
      if (ch == '"') esc = "\\\"";
      if (ch == '\\') esc = "\\\\";
      if (ch == '\t') esc = "\\t";
      if (ch == '/' && f == F_JSON_SLASH) esc = "\\/";
      if (esc) {
        memcpy(out, esc, 2);
        return 2;
      }
      if (ch < 0x20 || (f == F_JSON_HTML && (ch == '<' || ch == '>' || ch == '&'))) {
        memcpy(out, "\\u00", 4);
        out[4] = lo[ch >> 4];
        out[5] = lo[ch & 15];
        return 6;
      }
      break;
    }
    case F_URL_UPPER:
    case F_URL_LOWER:
    case F_URL_FORM:
      if (f == F_URL_FORM && ch == ' ') {
        out[0] = '+';
        return 1;
      }
      if (!unreserved(ch)) {
        const char *hex = f == F_URL_LOWER ? lo : up;
        out[0] = '%';
        out[1] = hex[ch >> 4];
        out[2] = hex[ch & 15];
        return 3;
      }
      break;
  }
  out[0] = (char)ch;
  return 1;
}

/* secret in form f, malloc'd, its length in *len. */
static char *encode(form f, const char *secret, size_t n, size_t *len) {
  char *r = malloc(6 * n), tmp[6];
  size_t o = 0;
  if (!r) return NULL;
  for (size_t i = 0; i < n; i++) {
    size_t k = encode_byte(f, (unsigned char)secret[i], tmp);
    memcpy(r + o, tmp, k);
    o += k;
  }
  *len = o;
  return r;
}

/* ---- patterns ---------------------------------------------------------------- */

static bool pat_known(const hg_mask *m, const char *s, size_t len) {
  for (size_t i = 0; i < m->npats; i++)
    if (m->pats[i].len == len && memcmp(m->pats[i].s, s, len) == 0) return true;
  return false;
}

/* Takes s (malloc'd, len bytes) as a pattern; frees it when known. */
static int pat_add(hg_mask *m, char *s, size_t len) {
  if (pat_known(m, s, len)) {
    free(s);
    return 0;
  }
  if (m->npats == HG_MASK_PATTERNS) {
    free(s);
    return -ENOBUFS;
  }
  uint32_t *fail = malloc(len * sizeof(*fail));
  if (!fail) {
    free(s);
    return -ENOMEM;
  }
  fail[0] = 0;
  for (size_t i = 1, k = 0; i < len; i++) {
    while (k > 0 && s[i] != s[k]) k = fail[k - 1];
    if (s[i] == s[k]) k++;
    fail[i] = (uint32_t)k;
  }
  m->pats[m->npats++] = (hg_mask_pat){.s = s, .len = len, .fail = fail};
  return 0;
}

void hg_mask_init(hg_mask *m) {
  memset(m, 0, sizeof(*m));
  hg_buf_init(&m->hold, HG_MASK_PATTERN_MAX + HG_MASK_PIECE);
}

void hg_mask_reset(hg_mask *m) {
  for (size_t i = 0; i < m->npats; i++) {
    free(m->pats[i].s);
    free(m->pats[i].fail);
  }
  m->npats = 0;
  hg_buf_free(&m->hold);
}

int hg_mask_add(hg_mask *m, const char *secret, size_t len) {
  if (len == 0) return 0;
  if (len >= HG_GW_SECRET_MAX) return -EINVAL;
  for (form f = F_RAW; f <= F_URL_FORM; f++) {
    size_t n;
    char *s = encode(f, secret, len, &n);
    if (!s) return -ENOMEM;
    int rc = pat_add(m, s, n);
    if (rc < 0) return rc;
  }
  return 0;
}

/* ---- matching ------------------------------------------------------------------ */

/* Steps every pattern through t[from..n), masking each match; t[0..from)
 * is what was held, the partial matches carried over lie in it. Returns
 * how many bytes at the end may still begin a match. */
static size_t scan(hg_mask *m, char *t, size_t from, size_t n) {
  for (size_t i = from; i < n; i++) {
    char ch = t[i];
    size_t hit = 0; /* the longest match ending at t[i] */
    for (size_t k = 0; k < m->npats; k++) {
      hg_mask_pat *x = &m->pats[k];
      size_t q = x->q;
      while (q > 0 && ch != x->s[q]) q = x->fail[q - 1];
      if (ch == x->s[q]) q++;
      if (q == x->len) {
        if (q > hit) hit = q;
        q = x->fail[q - 1];
      }
      x->q = q;
    }
    /* every pattern has read t[i] now: masking hides nothing from them */
    if (hit) memset(t + i + 1 - hit, '*', hit);
  }
  size_t keep = 0;
  for (size_t k = 0; k < m->npats; k++)
    if (m->pats[k].q > keep) keep = m->pats[k].q;
  return keep;
}

int hg_mask_feed(hg_mask *m, const char *p, size_t n, hg_mask_out_fn out, void *ud) {
  if (m->npats == 0) return n ? out(ud, p, n) : 0;
  while (n > 0) {
    size_t take = n < HG_MASK_PIECE ? n : HG_MASK_PIECE, from = m->hold.len;
    int rc = hg_buf_append(&m->hold, p, take);
    if (rc < 0) return rc;
    p += take;
    n -= take;
    size_t ready = m->hold.len - scan(m, m->hold.data, from, m->hold.len);
    rc = ready ? out(ud, m->hold.data, ready) : 0;
    hg_buf_consume(&m->hold, ready);
    if (rc < 0) return rc;
  }
  return 0;
}

int hg_mask_flush(hg_mask *m, hg_mask_out_fn out, void *ud) {
  for (size_t k = 0; k < m->npats; k++) m->pats[k].q = 0;
  if (m->hold.len == 0) return 0;
  int rc = out(ud, m->hold.data, m->hold.len);
  hg_buf_reset(&m->hold);
  return rc;
}

void hg_mask_apply(hg_mask *m, char *t, size_t n) {
  if (m->npats == 0) return;
  for (size_t k = 0; k < m->npats; k++) m->pats[k].q = 0;
  (void)scan(m, t, 0, n);
  for (size_t k = 0; k < m->npats; k++) m->pats[k].q = 0;
}
