/* names: hostname rules, allowlist matching, denied destination ranges. */
#include "gateway/names.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

static int is_digit(unsigned char c) {
  return c >= '0' && c <= '9';
}
static int is_hex(unsigned char c) {
  return is_digit(c) || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
}
static int is_ldh(unsigned char c) {
  return is_digit(c) || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '-';
}
static char lower(char c) {
  return (c >= 'A' && c <= 'Z') ? (char)(c + 32) : c;
}

/* A label inet_aton() would read as a number: decimal, octal (a leading 0
 * is still all digits) or 0x-hex, "0x" alone included (WHATWG reads it as
 * 0). */
static int label_numeric(const char *l, size_t n) {
  size_t i = 0;
  if (n >= 2 && l[0] == '0' && (l[1] == 'x' || l[1] == 'X')) {
    for (i = 2; i < n; i++)
      if (!is_hex((unsigned char)l[i])) return 0;
    return 1;
  }
  if (n == 0) return 0;
  for (i = 0; i < n; i++)
    if (!is_digit((unsigned char)l[i])) return 0;
  return 1;
}

/* Something that was meant as an IPv6 address: brackets, or a ':' among
 * only hex digits, ':' and '.' (for ::ffff:1.2.3.4). "a.com:443" is not
 * one; it is just not a hostname. */
static int looks_ipv6(const char *s, size_t n) {
  int colon = 0;
  if (n > 0 && (s[0] == '[' || s[n - 1] == ']')) return 1;
  for (size_t i = 0; i < n; i++) {
    unsigned char c = (unsigned char)s[i];
    if (c == ':')
      colon = 1;
    else if (!is_hex(c) && c != '.')
      return 0;
  }
  return colon;
}

int hg_name_normalize(const char *in, size_t len, char out[HG_NAME_MAX + 1]) {
  size_t start = 0;
  if (len > 0 && in[len - 1] == '.') len--; /* one trailing dot, no more */
  if (len == 0) return -EINVAL;
  if (looks_ipv6(in, len)) return -EAFNOSUPPORT;
  if (len > HG_NAME_MAX) return -ENAMETOOLONG;
  for (size_t i = 0; i <= len; i++) {
    if (i < len && in[i] != '.') {
      if (!is_ldh((unsigned char)in[i])) return -EINVAL;
      continue;
    }
    size_t n = i - start;
    if (n == 0 || n > HG_NAME_LABEL_MAX) return -EINVAL;
    if (in[start] == '-' || in[i - 1] == '-') return -EINVAL;
    if (i == len && label_numeric(in + start, n)) return -EAFNOSUPPORT;
    start = i + 1;
  }
  for (size_t i = 0; i < len; i++) out[i] = lower(in[i]);
  out[len] = '\0';
  return 0;
}

/* Reads a decimal number of at most max_digits without leading zeros. */
static int parse_dec(const char *s, size_t len, size_t *pos, unsigned max_digits,
                     unsigned long *out) {
  size_t i = *pos;
  unsigned long v = 0;
  while (i < len && is_digit((unsigned char)s[i]) && i - *pos < max_digits)
    v = v * 10 + (unsigned long)(s[i++] - '0');
  if (i == *pos) return -EINVAL;
  if (i < len && is_digit((unsigned char)s[i])) return -EINVAL; /* too many */
  if (s[*pos] == '0' && i - *pos > 1) return -EINVAL;
  *pos = i;
  *out = v;
  return 0;
}

static int parse_quad(const char *s, size_t len, size_t *pos, uint32_t *out) {
  uint32_t ip = 0;
  for (int part = 0; part < 4; part++) {
    unsigned long v;
    if (part > 0) {
      if (*pos >= len || s[*pos] != '.') return -EINVAL;
      (*pos)++;
    }
    if (parse_dec(s, len, pos, 3, &v) < 0 || v > 255) return -EINVAL;
    ip = (ip << 8) | (uint32_t)v;
  }
  *out = ip;
  return 0;
}

int hg_ipv4_parse(const char *s, size_t len, uint32_t *out) {
  size_t pos = 0;
  uint32_t ip;
  if (parse_quad(s, len, &pos, &ip) < 0 || pos != len) return -EINVAL;
  *out = ip;
  return 0;
}

static uint32_t prefix_mask(unsigned long p) {
  return p == 0 ? 0 : (uint32_t)(0xffffffffu << (32 - p));
}

/* Reads "a.b.c.d[/p]" at *pos, stopping at the first byte after it. */
static int parse_cidr_at(const char *s, size_t len, size_t *pos, hg_cidr *out) {
  uint32_t ip;
  unsigned long p = 32;
  if (parse_quad(s, len, pos, &ip) < 0) return -EINVAL;
  if (*pos < len && s[*pos] == '/') {
    (*pos)++;
    if (parse_dec(s, len, pos, 2, &p) < 0 || p > 32) return -EINVAL;
  }
  uint32_t mask = prefix_mask(p);
  if (ip & ~mask) return -EINVAL;
  out->net = ip;
  out->mask = mask;
  return 0;
}

int hg_cidr_parse(const char *s, size_t len, hg_cidr *out) {
  size_t pos = 0;
  hg_cidr c;
  if (parse_cidr_at(s, len, &pos, &c) < 0 || pos != len) return -EINVAL;
  *out = c;
  return 0;
}

/* ---- allowlist ------------------------------------------------------------ */

typedef struct allow_name {
  uint8_t wildcard; /* "*.name": strictly below name */
  uint8_t len;
  char name[HG_NAME_MAX + 1];
} allow_name;

typedef struct allow_addr {
  hg_cidr cidr;
  uint16_t port;
} allow_addr;

struct hg_allow {
  size_t nnames, naddrs;
  allow_name names[HG_ALLOW_MAX];
  allow_addr addrs[HG_ALLOW_MAX];
};

int hg_allow_new(hg_allow **out) {
  hg_allow *a = calloc(1, sizeof(*a));
  if (!a) return -ENOMEM;
  *out = a;
  return 0;
}

void hg_allow_free(hg_allow *a) {
  free(a);
}

size_t hg_allow_count(const hg_allow *a) {
  return a ? a->nnames + a->naddrs : 0;
}

static int add_addr(hg_allow *a, const char *s, size_t len) {
  size_t pos = 0;
  allow_addr e;
  unsigned long port;
  if (parse_cidr_at(s, len, &pos, &e.cidr) < 0) return -EINVAL;
  if (pos >= len || s[pos] != ':') return -EINVAL;
  pos++;
  if (parse_dec(s, len, &pos, 5, &port) < 0 || pos != len) return -EINVAL;
  if (port == 0 || port > 65535) return -EINVAL;
  e.port = (uint16_t)port;
  for (size_t i = 0; i < a->naddrs; i++)
    if (a->addrs[i].cidr.net == e.cidr.net && a->addrs[i].cidr.mask == e.cidr.mask &&
        a->addrs[i].port == e.port)
      return 0;
  if (hg_allow_count(a) >= HG_ALLOW_MAX) return -ENOSPC;
  a->addrs[a->naddrs++] = e;
  return 0;
}

int hg_allow_add(hg_allow *a, const char *entry, size_t len) {
  allow_name e = {0};
  /* CIDR:port entries start with a digit and hold a ':'; a name never has
   * a ':' and "1.2.3.4" alone is an IP literal the name rules refuse. */
  if (len > 0 && is_digit((unsigned char)entry[0]) && memchr(entry, ':', len))
    return add_addr(a, entry, len);
  if (len >= 2 && entry[0] == '*' && entry[1] == '.') {
    e.wildcard = 1;
    entry += 2;
    len -= 2;
  }
  if (hg_name_normalize(entry, len, e.name) < 0) return -EINVAL;
  e.len = (uint8_t)strlen(e.name);
  for (size_t i = 0; i < a->nnames; i++)
    if (a->names[i].wildcard == e.wildcard && strcmp(a->names[i].name, e.name) == 0)
      return 0;
  if (hg_allow_count(a) >= HG_ALLOW_MAX) return -ENOSPC;
  a->names[a->nnames++] = e;
  return 0;
}

int hg_allow_parse(const char *const *entries, size_t n, hg_allow **out, size_t *bad) {
  hg_allow *a;
  int rc = hg_allow_new(&a);
  if (rc < 0) return rc;
  for (size_t i = 0; i < n; i++) {
    rc = hg_allow_add(a, entries[i], strlen(entries[i]));
    if (rc < 0) {
      if (bad) *bad = i;
      hg_allow_free(a);
      return rc;
    }
  }
  *out = a;
  return 0;
}

int hg_allow_name(const hg_allow *a, const char *name, size_t len) {
  char n[HG_NAME_MAX + 1];
  if (!a || hg_name_normalize(name, len, n) < 0) return 0;
  size_t nlen = strlen(n);
  for (size_t i = 0; i < a->nnames; i++) {
    const allow_name *e = &a->names[i];
    if (!e->wildcard) {
      if (nlen == e->len && memcmp(n, e->name, nlen) == 0) return 1;
      continue;
    }
    /* strictly below: at least one label, then a dot, then the suffix */
    if (nlen >= (size_t)e->len + 2 && n[nlen - e->len - 1] == '.' &&
        memcmp(n + nlen - e->len, e->name, e->len) == 0)
      return 1;
  }
  return 0;
}

int hg_allow_addr(const hg_allow *a, uint32_t ipv4, uint16_t port) {
  if (!a) return 0;
  for (size_t i = 0; i < a->naddrs; i++)
    if (a->addrs[i].port == port && hg_cidr_contains(&a->addrs[i].cidr, ipv4)) return 1;
  return 0;
}

/* ---- denied destinations --------------------------------------------------- */

static const hg_cidr builtin_denied[] = {
    {0x00000000u, 0xff000000u}, /* 0.0.0.0/8 "this network" */
    {0x0a000000u, 0xff000000u}, /* 10/8 */
    {0x64400000u, 0xffc00000u}, /* 100.64/10 CGNAT */
    {0x7f000000u, 0xff000000u}, /* 127/8 loopback */
    {0xa9fe0000u, 0xffff0000u}, /* 169.254/16 link-local, cloud metadata */
    {0xac100000u, 0xfff00000u}, /* 172.16/12 */
    {0xc0a80000u, 0xffff0000u}, /* 192.168/16 */
    {0xe0000000u, 0xf0000000u}, /* 224/4 multicast */
    {0xf0000000u, 0xf0000000u}, /* 240/4 reserved + limited broadcast */
};

void hg_denylist_init(hg_denylist *d) {
  d->n = 0;
}

int hg_denylist_add(hg_denylist *d, const char *cidr, size_t len) {
  hg_cidr c;
  if (hg_cidr_parse(cidr, len, &c) < 0) return -EINVAL;
  if (d->n >= HG_DENY_MAX) return -ENOSPC;
  d->extra[d->n++] = c;
  return 0;
}

int hg_addr_denied(const hg_denylist *d, uint32_t ipv4) {
  for (size_t i = 0; i < sizeof(builtin_denied) / sizeof(builtin_denied[0]); i++)
    if (hg_cidr_contains(&builtin_denied[i], ipv4)) return 1;
  if (d)
    for (size_t i = 0; i < d->n && i < HG_DENY_MAX; i++)
      if (hg_cidr_contains(&d->extra[i], ipv4)) return 1;
  return 0;
}
