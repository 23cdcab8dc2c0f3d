/* names: the one set of hostname rules every parser of guest bytes applies
 * (TLS SNI, HTTP Host, DNS questions), the sandbox's egress allowlist, and
 * the destination ranges the gateway never dials.
 *
 * A hostname, as far as egress goes, is: ASCII letters, digits and hyphens
 * (LDH) in dot-separated labels of 1-63 bytes, no label starting or ending
 * with a hyphen, at most 253 bytes, lowercased, with one trailing dot
 * stripped. Anything that parses as an IPv4 address in any of the forms
 * inet_aton() and browsers accept (dotted, 2130706433, 0177.0.0.1, 0x7f.1,
 * 127.1) is an IP literal, not a name: the rule (as in the WHATWG URL
 * standard) is that a name whose last label is numeric - all digits, or
 * 0x followed by hex digits - is an IPv4 literal. No top-level domain is
 * numeric, so no real name is lost. IPv6 literals (a ':' or brackets) are IP
 * literals too.
 *
 * Addresses are IPv4 in host byte order (127.0.0.1 is 0x7f000001).
 * Pure functions, no I/O, no global state.
 */
#ifndef HG_GATEWAY_NAMES_H
#define HG_GATEWAY_NAMES_H

#include <stddef.h>
#include <stdint.h>

#define HG_NAME_MAX 253      /* bytes of a normalised name, without the NUL */
#define HG_NAME_LABEL_MAX 63 /* bytes of one label */
#define HG_ALLOW_MAX 256     /* entries (names + CIDR:port) in one allowlist */
#define HG_DENY_MAX 64       /* extra denied CIDRs beyond the built-in ranges */

/* Validates in[0..len) as a hostname and writes its normalised form
 * (lowercase, one trailing dot stripped, NUL-terminated) to out.
 * Returns 0, or:
 *   -EAFNOSUPPORT  an IP literal (IPv4 in any form, IPv6, bracketed)
 *   -ENAMETOOLONG  more than HG_NAME_MAX bytes (after the dot is stripped)
 *   -EINVAL        anything else that is not a hostname: empty, empty label,
 *                  label over 63 bytes, NUL or other non-LDH byte, a label
 *                  starting or ending with '-'
 * out is written only on success. */
int hg_name_normalize(const char *in, size_t len, char out[HG_NAME_MAX + 1]);

/* Strict dotted quad "a.b.c.d", each part 0-255 in decimal without leading
 * zeros (so no octal/hex ambiguity). 0 or -EINVAL. */
int hg_ipv4_parse(const char *s, size_t len, uint32_t *out);

typedef struct hg_cidr {
  uint32_t net;  /* host byte order, host bits zero */
  uint32_t mask; /* 0xffffff00 for /24 */
} hg_cidr;

/* "a.b.c.d/p" (0 <= p <= 32) or "a.b.c.d" (a /32). Host bits beyond the
 * prefix must be zero ("10.0.0.1/8" is a typo we refuse, not guess at).
 * 0 or -EINVAL. */
int hg_cidr_parse(const char *s, size_t len, hg_cidr *out);
static inline int hg_cidr_contains(const hg_cidr *c, uint32_t ip) {
  return (ip & c->mask) == c->net;
}

/* ---- allowlist ------------------------------------------------------------
 * The policy's "allow" array: "api.example.com" (exactly that name),
 * "*.pypi.org" (any name strictly below pypi.org, at any depth - not
 * pypi.org itself), "203.0.113.0/24:5432" or "203.0.113.7:5432" (an
 * address range and one TCP port, for the L4 relay). Names are normalised
 * on the way in and on every lookup. A credential's "hosts" scope uses the
 * same matcher: build a second hg_allow from it. */
typedef struct hg_allow hg_allow;

int hg_allow_new(hg_allow **out); /* 0 or -ENOMEM; the list starts empty */
void hg_allow_free(hg_allow *a);  /* NULL is fine */
/* Adds one entry (len bytes, no NUL needed). Returns 0 (also for an entry
 * already present, which is not stored twice), -EINVAL for an entry that is
 * none of the three forms (a bare "*", "*x.com", "a.*.com", an IP literal
 * without a port, port 0 or > 65535, ...), -ENOSPC past HG_ALLOW_MAX. */
int hg_allow_add(hg_allow *a, const char *entry, size_t len);
/* Builds a list from n NUL-terminated entries; on any bad entry fails with
 * its error and *bad set to its index (when bad is not NULL). */
int hg_allow_parse(const char *const *entries, size_t n, hg_allow **out, size_t *bad);
size_t hg_allow_count(const hg_allow *a);
/* 1 when name (any case, optional trailing dot) is allowed, else 0 - also
 * for a NULL list (no policy means no egress) and for any name
 * hg_name_normalize() rejects. */
int hg_allow_name(const hg_allow *a, const char *name, size_t len);
/* 1 when some CIDR:port entry covers ipv4 and port, else 0. The built-in
 * denied ranges are not consulted here: the operator's CIDR entry is an
 * explicit decision (check hg_addr_denied() too where that matters). */
int hg_allow_addr(const hg_allow *a, uint32_t ipv4, uint16_t port);

/* ---- denied destinations --------------------------------------------------
 * Built in, always: 0.0.0.0/8, 10/8, 100.64/10 (CGNAT), 127/8, 169.254/16
 * (link-local, with the 169.254.169.254 metadata service), 172.16/12,
 * 192.168/16, 224/4 (multicast), 240/4 (reserved, with 255.255.255.255).
 * The operator's list adds to these; it cannot remove them. */
typedef struct hg_denylist {
  size_t n;
  hg_cidr extra[HG_DENY_MAX];
} hg_denylist;

void hg_denylist_init(hg_denylist *d); /* no extras */
/* One CIDR as hg_cidr_parse() reads it. 0, -EINVAL, -ENOSPC. */
int hg_denylist_add(hg_denylist *d, const char *cidr, size_t len);
/* 1 when the gateway must not dial ipv4, else 0. d may be NULL (built-in
 * ranges only). */
int hg_addr_denied(const hg_denylist *d, uint32_t ipv4);

#endif
