/* gateway/dns: queries in, answers out, upstream responses with CNAME
 * chains, and the rate limiter (reference/egress.md rows 11, 16). */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "gateway/dns.h"

#define IP(a, b, c, d) \
  ((uint32_t)(a) << 24 | (uint32_t)(b) << 16 | (uint32_t)(c) << 8 | (d))

/* ---- a small message writer ------------------------------------------------ */

typedef struct msg {
  uint8_t b[8192];
  size_t n;
} msg;

static void m8(msg *m, unsigned v) {
  m->b[m->n++] = (uint8_t)v;
}
static void m16(msg *m, unsigned v) {
  m8(m, (v >> 8) & 0xff);
  m8(m, v & 0xff);
}
static void m32(msg *m, uint32_t v) {
  m16(m, v >> 16);
  m16(m, v & 0xffff);
}
static void mraw(msg *m, const void *p, size_t n) {
  memcpy(m->b + m->n, p, n);
  m->n += n;
}
/* "a.b.c" as labels (no compression); "" is the root. Returns its offset. */
static size_t mname(msg *m, const char *dotted) {
  size_t at = m->n;
  while (*dotted) {
    const char *dot = strchr(dotted, '.');
    size_t l = dot ? (size_t)(dot - dotted) : strlen(dotted);
    m8(m, (unsigned)l);
    mraw(m, dotted, l);
    dotted += l + (dot ? 1 : 0);
  }
  m8(m, 0);
  return at;
}
static void mptr(msg *m, size_t off) {
  m16(m, 0xc000 | (unsigned)off);
}
static void mhdr(msg *m, unsigned id, unsigned flags, unsigned qd, unsigned an,
                 unsigned ns, unsigned ar) {
  m->n = 0;
  m16(m, id);
  m16(m, flags);
  m16(m, qd);
  m16(m, an);
  m16(m, ns);
  m16(m, ar);
}
static void mopt(msg *m, unsigned size) {
  m8(m, 0);
  m16(m, HG_DNS_T_OPT);
  m16(m, size);
  m32(m, 0);
  m16(m, 0);
}
static void query(msg *m, unsigned id, const char *name, unsigned qtype, int edns) {
  mhdr(m, id, 0x0100, 1, 0, 0, edns ? 1 : 0);
  mname(m, name);
  m16(m, qtype);
  m16(m, HG_DNS_C_IN);
  if (edns) mopt(m, (unsigned)edns);
}

static void rr_head(msg *m, unsigned type, uint32_t ttl) {
  m16(m, type);
  m16(m, HG_DNS_C_IN);
  m32(m, ttl);
}
static void rr_a(msg *m, uint32_t ttl, uint32_t ip) {
  rr_head(m, HG_DNS_T_A, ttl);
  m16(m, 4);
  m32(m, ip);
}
/* CNAME whose owner is already written; target as full labels. Returns
 * the target's offset. */
static size_t rr_cname(msg *m, uint32_t ttl, const char *target) {
  rr_head(m, HG_DNS_T_CNAME, ttl);
  size_t at = m->n;
  m16(m, 0);
  size_t t = mname(m, target);
  m->b[at] = (uint8_t)((m->n - t) >> 8);
  m->b[at + 1] = (uint8_t)(m->n - t);
  return t;
}
/* The header and question of an upstream answer to (name, A). */
static void resp(msg *m, unsigned id, unsigned flags, unsigned an, const char *name) {
  mhdr(m, id, flags, 1, an, 0, 0);
  mname(m, name);
  m16(m, HG_DNS_T_A);
  m16(m, HG_DNS_C_IN);
}

/* ---- queries ---------------------------------------------------------------- */

static void query_round_trip(void **state) {
  uint8_t out[512];
  size_t n;
  hg_dns_query q;
  assert_int_equal(hg_dns_build_query(0x1234, "Files.Example.COM.", HG_DNS_T_A, 1, out,
                                      sizeof(out), &n),
                   0);
  assert_int_equal(hg_dns_parse_query(out, n, &q), 0);
  assert_int_equal(q.id, 0x1234);
  assert_int_equal(q.flags, 0x0100);
  assert_int_equal(q.qtype, HG_DNS_T_A);
  assert_int_equal(q.qclass, HG_DNS_C_IN);
  assert_int_equal(q.qname_len, 19);
  assert_memory_equal(q.qname,
                      "\x05"
                      "files\x07"
                      "example\x03"
                      "com\x00",
                      19);
  assert_string_equal(q.name, "files.example.com");
  assert_int_equal(q.name_err, 0);
  assert_int_equal(q.edns, 1);
  assert_int_equal(q.udp_size, HG_DNS_EDNS_SIZE);
  assert_int_equal(hg_dns_build_query(1, "a.com", HG_DNS_T_A, 0, out, sizeof(out), &n),
                   0);
  assert_int_equal(n, 12 + 7 + 4);
  assert_int_equal(hg_dns_build_query(1, "a.com", HG_DNS_T_A, 0, out, n - 1, &n),
                   -ENOBUFS);
  assert_int_equal(hg_dns_build_query(1, "a..com", HG_DNS_T_A, 0, out, sizeof(out), &n),
                   -EINVAL);
  assert_int_equal(hg_dns_build_query(1, "10.0.0.1", HG_DNS_T_A, 0, out, sizeof(out), &n),
                   -EINVAL);
}

static void query_keeps_case_and_reads_edns_size(void **state) {
  msg m;
  hg_dns_query q;
  query(&m, 7, "ApI.eXample.com", HG_DNS_T_AAAA, 0);
  assert_int_equal(hg_dns_parse_query(m.b, m.n, &q), 0);
  assert_memory_equal(q.qname,
                      "\x03"
                      "ApI",
                      4); /* echoed as sent (0x20 randomisation) */
  assert_string_equal(q.name, "api.example.com");
  assert_int_equal(q.qtype, HG_DNS_T_AAAA);
  assert_int_equal(q.edns, 0);
  assert_int_equal(q.udp_size, 512);
  query(&m, 7, "a.com", HG_DNS_T_A, 4096);
  assert_int_equal(hg_dns_parse_query(m.b, m.n, &q), 0);
  assert_int_equal(q.udp_size, 4096);
  query(&m, 7, "a.com", HG_DNS_T_A, 100);
  assert_int_equal(hg_dns_parse_query(m.b, m.n, &q), 0);
  assert_int_equal(q.edns, 1);
  assert_int_equal(q.udp_size, 512);
}

static void query_errors(void **state) {
  msg m;
  hg_dns_query q;
  memset(&q, 0x5a, sizeof(q));
  query(&m, 1, "a.com", HG_DNS_T_A, 1232);
  /* truncated anywhere: never a query */
  for (size_t cut = 0; cut < m.n; cut++) {
    int rc = hg_dns_parse_query(m.b, cut, &q);
    if (rc != (cut < 12 ? -EMSGSIZE : -EPROTO)) fail_msg("cut %zu: %d", cut, rc);
  }
  assert_int_equal(q.id, 0x5a5a); /* untouched on failure */
  m.b[m.n++] = 0;
  assert_int_equal(hg_dns_parse_query(m.b, m.n, &q), -EPROTO); /* trailing byte */
  query(&m, 1, "a.com", HG_DNS_T_A, 0);
  m.b[2] |= 0x80;
  assert_int_equal(hg_dns_parse_query(m.b, m.n, &q), -EBADMSG);
  query(&m, 1, "a.com", HG_DNS_T_A, 0);
  m.b[2] |= 2 << 3; /* opcode STATUS */
  assert_int_equal(hg_dns_parse_query(m.b, m.n, &q), -ENOTSUP);
  query(&m, 1, "a.com", HG_DNS_T_A, 0);
  m.b[2] |= 5 << 3; /* UPDATE */
  assert_int_equal(hg_dns_parse_query(m.b, m.n, &q), -ENOTSUP);
  const size_t count_at[] = {5, 7, 9};
  const unsigned count_val[] = {2, 1, 1};
  for (int i = 0; i < 3; i++) {
    query(&m, 1, "a.com", HG_DNS_T_A, 0);
    m.b[count_at[i]] = (uint8_t)count_val[i]; /* qd 2, an 1, ns 1 */
    assert_int_equal(hg_dns_parse_query(m.b, m.n, &q), -EPROTO);
  }
  query(&m, 1, "a.com", HG_DNS_T_A, 0);
  m.b[5] = 0; /* qd 0 */
  assert_int_equal(hg_dns_parse_query(m.b, m.n, &q), -EPROTO);
  /* two OPTs; an OPT not at the root */
  query(&m, 1, "a.com", HG_DNS_T_A, 1232);
  mopt(&m, 1232);
  m.b[11] = 2;
  assert_int_equal(hg_dns_parse_query(m.b, m.n, &q), -EPROTO);
  query(&m, 1, "a.com", HG_DNS_T_A, 0);
  m.b[11] = 1;
  mname(&m, "x");
  m16(&m, HG_DNS_T_OPT);
  m16(&m, 1232);
  m32(&m, 0);
  m16(&m, 0);
  assert_int_equal(hg_dns_parse_query(m.b, m.n, &q), -EPROTO);
  /* other additional records are skipped */
  query(&m, 1, "a.com", HG_DNS_T_A, 0);
  m.b[11] = 1;
  mname(&m, "key");
  m16(&m, 250); /* TSIG */
  m16(&m, 255);
  m32(&m, 0);
  m16(&m, 2);
  m16(&m, 0);
  assert_int_equal(hg_dns_parse_query(m.b, m.n, &q), 0);
}

static void query_name_bounds(void **state) {
  msg m;
  hg_dns_query q;
  /* a pointer in the question can only point at the header or itself */
  mhdr(&m, 1, 0, 1, 0, 0, 0);
  mptr(&m, 12);
  m16(&m, 1);
  m16(&m, 1);
  assert_int_equal(hg_dns_parse_query(m.b, m.n, &q), -EPROTO);
  mhdr(&m, 1, 0, 1, 0, 0, 0);
  mptr(&m, 2);
  m16(&m, 1);
  m16(&m, 1);
  assert_int_equal(hg_dns_parse_query(m.b, m.n, &q), -EPROTO);
  /* extended label types (a "label" of 64+ bytes reads as one) */
  const unsigned types[] = {0x40, 0x80, 0x7f};
  for (int i = 0; i < 3; i++) {
    mhdr(&m, 1, 0, 1, 0, 0, 0);
    m8(&m, types[i]);
    for (unsigned j = 0; j < (types[i] & 0x3f); j++) m8(&m, 'a');
    m8(&m, 0);
    m16(&m, 1);
    m16(&m, 1);
    assert_int_equal(hg_dns_parse_query(m.b, m.n, &q), -EPROTO);
  }
  /* 255 wire bytes pass, 256 do not */
  char name[300];
  memset(name, 'a', sizeof(name));
  name[63] = name[127] = name[191] = '.';
  name[191 + 62] = '\0'; /* labels 63,63,63,61: 64*3 + 62 + 1 = 255 */
  query(&m, 1, name, HG_DNS_T_A, 0);
  assert_int_equal(hg_dns_parse_query(m.b, m.n, &q), 0);
  assert_int_equal(q.qname_len, 255);
  assert_int_equal(strlen(q.name), 253);
  name[191 + 62] = 'a';
  name[191 + 63] = '\0';
  query(&m, 1, name, HG_DNS_T_A, 0);
  assert_int_equal(hg_dns_parse_query(m.b, m.n, &q), -EPROTO);
}

static void query_name_rules_for_the_allowlist(void **state) {
  msg m;
  hg_dns_query q;
  hg_allow *a;
  const char *allow[] = {"*.example.com", "api.example.org"};
  assert_int_equal(hg_allow_parse(allow, 2, &a, NULL), 0);

  /* a label holding a '.': one label on the wire, never two names */
  mhdr(&m, 1, 0, 1, 0, 0, 0);
  mraw(&m,
       "\x0b"
       "evil.exampl\x01"
       "e\x03"
       "com\x00",
       19);
  m16(&m, 1);
  m16(&m, 1);
  assert_int_equal(hg_dns_parse_query(m.b, m.n, &q), 0);
  assert_int_equal(q.name_err, -EINVAL);
  assert_string_equal(q.name, "");
  /* tunnel payloads with non-LDH bytes: base64, NUL, underscore, 8-bit */
  const char *tunnels[] = {"aGk+Lw==.example.com", "_dmarc.example.com",
                           "a\xff.example.com"};
  for (int i = 0; i < 3; i++) {
    query(&m, 1, tunnels[i], HG_DNS_T_TXT, 0);
    assert_int_equal(hg_dns_parse_query(m.b, m.n, &q), 0);
    assert_int_equal(q.name_err, -EINVAL);
    assert_int_equal(q.qtype, HG_DNS_T_TXT);
  }
  mhdr(&m, 1, 0, 1, 0, 0, 0);
  mraw(&m,
       "\x03"
       "a\0b\x07"
       "example\x03"
       "com\x00",
       17);
  m16(&m, 1);
  m16(&m, 1);
  assert_int_equal(hg_dns_parse_query(m.b, m.n, &q), 0);
  assert_int_equal(q.name_err, -EINVAL);
  /* the root, and IP literals spelled as labels */
  query(&m, 1, "", HG_DNS_T_ANY, 0);
  assert_int_equal(hg_dns_parse_query(m.b, m.n, &q), 0);
  assert_int_equal(q.name_err, -EINVAL);
  assert_int_equal(q.qtype, HG_DNS_T_ANY);
  query(&m, 1, "169.254.169.254", HG_DNS_T_A, 0);
  assert_int_equal(hg_dns_parse_query(m.b, m.n, &q), 0);
  assert_int_equal(q.name_err, -EAFNOSUPPORT);
  /* a 63-byte LDH label is a legal name: the allowlist judges it */
  char tun[128];
  memset(tun, 'q', 63);
  strcpy(tun + 63, ".evil.net");
  query(&m, 1, tun, HG_DNS_T_A, 0);
  assert_int_equal(hg_dns_parse_query(m.b, m.n, &q), 0);
  assert_int_equal(q.name_err, 0);
  assert_false(hg_allow_name(a, q.name, strlen(q.name)));
  strcpy(tun + 63, ".example.com");
  query(&m, 1, tun, HG_DNS_T_A, 0);
  assert_int_equal(hg_dns_parse_query(m.b, m.n, &q), 0);
  assert_true(hg_allow_name(a, q.name, strlen(q.name)));
  hg_allow_free(a);
}

/* ---- answers ---------------------------------------------------------------- */

static void answer_a_records_and_read_them_back(void **state) {
  msg m;
  hg_dns_query q;
  uint8_t out[512];
  size_t n;
  hg_dns_result r;
  query(&m, 0xbeef, "Api.Example.com", HG_DNS_T_A, 0);
  assert_int_equal(hg_dns_parse_query(m.b, m.n, &q), 0);
  const uint32_t ips[] = {IP(93, 184, 216, 34), IP(93, 184, 216, 35)};
  assert_int_equal(
      hg_dns_build_answer(&q, HG_DNS_NOERROR, ips, 2, 300, out, sizeof(out), &n), 0);
  assert_int_equal(n, m.n + 2 * 16);
  assert_memory_equal(out, "\xbe\xef\x81\x80\x00\x01\x00\x02\x00\x00\x00\x00", 12);
  assert_memory_equal(out + 12, m.b + 12, m.n - 12); /* question as received */
  assert_int_equal(hg_dns_parse_response(out, n, 0xbeef, "api.example.com", &r), 0);
  assert_int_equal(r.rcode, HG_DNS_NOERROR);
  assert_int_equal(r.n, 2);
  assert_int_equal(r.ips[0], ips[0]);
  assert_int_equal(r.ips[1], ips[1]);
  assert_int_equal(r.ttl, 300);
  /* exact room, then one byte short */
  assert_int_equal(hg_dns_build_answer(&q, HG_DNS_NOERROR, ips, 2, 300, out, n, &n), 0);
  assert_int_equal(hg_dns_build_answer(&q, HG_DNS_NOERROR, ips, 2, 300, out, n - 1, &n),
                   -ENOBUFS);
  /* TTLs are capped, and "negative" ones are zero */
  assert_int_equal(hg_dns_build_answer(&q, 0, ips, 1, 1000000, out, sizeof(out), &n), 0);
  assert_int_equal(hg_dns_parse_response(out, n, 0xbeef, "api.example.com", &r), 0);
  assert_int_equal(r.ttl, HG_DNS_MAX_TTL);
  assert_int_equal(hg_dns_build_answer(&q, 0, ips, 1, 0x80000000u, out, sizeof(out), &n),
                   0);
  assert_int_equal(hg_dns_parse_response(out, n, 0xbeef, "api.example.com", &r), 0);
  assert_int_equal(r.ttl, 0);
  /* RD not set in the query: not set in the answer */
  m.b[2] = 0;
  assert_int_equal(hg_dns_parse_query(m.b, m.n, &q), 0);
  assert_int_equal(hg_dns_build_answer(&q, 0, ips, 1, 5, out, sizeof(out), &n), 0);
  assert_int_equal(out[2], 0x80);
}

static void answer_rcodes_and_nodata(void **state) {
  msg m;
  hg_dns_query q;
  uint8_t out[512];
  size_t n;
  hg_dns_result r;
  query(&m, 9, "a.example.com", HG_DNS_T_A, 0);
  assert_int_equal(hg_dns_parse_query(m.b, m.n, &q), 0);
  const int rcodes[] = {HG_DNS_NXDOMAIN, HG_DNS_REFUSED, HG_DNS_SERVFAIL,
                        HG_DNS_NOTIMP,   HG_DNS_FORMERR, HG_DNS_NOERROR};
  for (int i = 0; i < 6; i++) {
    assert_int_equal(hg_dns_build_answer(&q, rcodes[i], NULL, 0, 0, out, sizeof(out), &n),
                     0);
    assert_int_equal(n, m.n);
    assert_int_equal(out[3] & 0x0f, rcodes[i]);
    assert_int_equal(out[7], 0); /* no answers */
    assert_int_equal(hg_dns_parse_response(out, n, 9, "a.example.com", &r), 0);
    assert_int_equal(r.rcode, rcodes[i]);
    assert_int_equal(r.n, 0);
    assert_int_equal(r.ttl, 0);
  }
  /* NODATA for a refused type: AAAA, HTTPS (ECH configs), TXT */
  const unsigned types[] = {HG_DNS_T_AAAA, HG_DNS_T_HTTPS, HG_DNS_T_SVCB, HG_DNS_T_TXT};
  const uint32_t ip = IP(1, 2, 3, 4);
  for (int i = 0; i < 4; i++) {
    query(&m, 9, "a.example.com", types[i], 1232);
    assert_int_equal(hg_dns_parse_query(m.b, m.n, &q), 0);
    assert_int_equal(
        hg_dns_build_answer(&q, HG_DNS_NOERROR, NULL, 0, 0, out, sizeof(out), &n), 0);
    assert_int_equal(out[3] & 0x0f, 0);
    assert_int_equal(out[7], 0);
    assert_int_equal(out[11], 1); /* our OPT */
    assert_int_equal(n, m.n);     /* same shape as the query with its OPT */
    assert_int_equal(out[n - 11 + 3], HG_DNS_EDNS_SIZE >> 8);
    assert_int_equal(
        hg_dns_build_answer(&q, HG_DNS_NOERROR, &ip, 1, 5, out, sizeof(out), &n),
        -EINVAL); /* never an A record for another type */
  }
  assert_int_equal(hg_dns_build_answer(&q, 6, NULL, 0, 0, out, sizeof(out), &n), -EINVAL);
  assert_int_equal(hg_dns_build_answer(&q, -1, NULL, 0, 0, out, sizeof(out), &n),
                   -EINVAL);
  query(&m, 9, "a.example.com", HG_DNS_T_A, 0);
  assert_int_equal(hg_dns_parse_query(m.b, m.n, &q), 0);
  assert_int_equal(
      hg_dns_build_answer(&q, HG_DNS_NXDOMAIN, &ip, 1, 5, out, sizeof(out), &n), -EINVAL);
}

static void error_answer_from_a_bad_query(void **state) {
  uint8_t out[64];
  size_t n;
  const uint8_t junk[] = {0xab, 0xcd, 0x29, 0x00, 0, 9, 0, 0, 0, 0, 0, 0, 0xff};
  assert_int_equal(
      hg_dns_build_error(junk, sizeof(junk), HG_DNS_NOTIMP, out, sizeof(out), &n), 0);
  assert_int_equal(n, 12);
  /* id, QR, opcode 5 and RD kept, RA, NOTIMP, no counts */
  assert_memory_equal(out, "\xab\xcd\xa9\x84\0\0\0\0\0\0\0\0", 12);
  assert_int_equal(hg_dns_build_error(junk, 11, HG_DNS_FORMERR, out, sizeof(out), &n),
                   -EMSGSIZE);
  assert_int_equal(hg_dns_build_error(junk, 12, HG_DNS_FORMERR, out, 11, &n), -ENOBUFS);
  assert_int_equal(hg_dns_build_error(junk, 12, 17, out, sizeof(out), &n), -EINVAL);
  const uint8_t resp[] = {0, 1, 0x81, 0x80, 0, 0, 0, 0, 0, 0, 0, 0};
  assert_int_equal(hg_dns_build_error(resp, 12, HG_DNS_FORMERR, out, sizeof(out), &n),
                   -EBADMSG);
}

/* ---- upstream responses ---------------------------------------------------------- */

static void response_follows_cname_chain_and_ignores_strays(void **state) {
  msg m;
  hg_dns_result r;
  resp(&m, 0x4242, 0x8180, 6, "www.a.com");
  /* records out of order, compressed, with a stray A for another name */
  size_t c_at = m.n;
  mname(&m, "c.cdn.net");
  rr_a(&m, 300, IP(1, 2, 3, 4));
  mname(&m, "evil.com");
  rr_a(&m, 9999, IP(6, 6, 6, 6));
  mptr(&m, 12); /* www.a.com */
  size_t b_at = rr_cname(&m, 600, "b.cdn.net");
  mptr(&m, b_at);
  rr_head(&m, HG_DNS_T_CNAME, 60);
  m16(&m, 4);
  m8(&m, 1);
  m8(&m, 'c');
  mptr(&m, b_at + 2); /* c + .cdn.net */
  mptr(&m, c_at);
  rr_a(&m, 120, IP(1, 2, 3, 5));
  mptr(&m, c_at);
  rr_a(&m, 500, IP(1, 2, 3, 4)); /* a duplicate */
  assert_int_equal(hg_dns_parse_response(m.b, m.n, 0x4242, "WWW.A.COM.", &r), 0);
  assert_int_equal(r.rcode, 0);
  assert_int_equal(r.n, 2);
  assert_int_equal(r.ips[0], IP(1, 2, 3, 4));
  assert_int_equal(r.ips[1], IP(1, 2, 3, 5));
  assert_int_equal(r.ttl, 60); /* least along the chain */
  /* truncated anywhere: an error, never a partial answer */
  for (size_t cut = 0; cut < m.n; cut++) {
    int rc = hg_dns_parse_response(m.b, cut, 0x4242, "www.a.com", &r);
    if (rc >= 0) fail_msg("cut %zu: %d", cut, rc);
  }
}

static void response_identity_checks(void **state) {
  msg m;
  hg_dns_result r;
  memset(&r, 0x5a, sizeof(r));
  resp(&m, 7, 0x8180, 1, "a.com");
  mptr(&m, 12);
  rr_a(&m, 30, IP(1, 1, 1, 1));
  assert_int_equal(hg_dns_parse_response(m.b, m.n, 8, "a.com", &r), -EBADMSG);
  assert_int_equal(hg_dns_parse_response(m.b, m.n, 7, "b.com", &r), -EBADMSG);
  assert_int_equal(hg_dns_parse_response(m.b, m.n, 7, "a..com", &r), -EINVAL);
  assert_int_equal(r.rcode, 0x5a5a5a5a); /* untouched */
  m.b[2] = 0x01;                         /* not a response */
  assert_int_equal(hg_dns_parse_response(m.b, m.n, 7, "a.com", &r), -EBADMSG);
  m.b[2] = 0x81 | (4 << 3); /* opcode NOTIFY */
  assert_int_equal(hg_dns_parse_response(m.b, m.n, 7, "a.com", &r), -EBADMSG);
  m.b[2] = 0x83; /* TC */
  assert_int_equal(hg_dns_parse_response(m.b, m.n, 7, "a.com", &r), -EMSGSIZE);
  m.b[2] = 0x81;
  m.b[12 + 7 + 1] = HG_DNS_T_AAAA; /* question type */
  assert_int_equal(hg_dns_parse_response(m.b, m.n, 7, "a.com", &r), -EBADMSG);
  m.b[12 + 7 + 1] = HG_DNS_T_A;
  m.b[5] = 0; /* no question */
  assert_int_equal(hg_dns_parse_response(m.b, m.n, 7, "a.com", &r), -EBADMSG);
  m.b[5] = 1;
  assert_int_equal(hg_dns_parse_response(m.b, m.n, 7, "A.com", &r), 0);
  assert_int_equal(r.n, 1);
  /* NXDOMAIN, SERVFAIL: no addresses even if records follow */
  m.b[3] = 0x83;
  assert_int_equal(hg_dns_parse_response(m.b, m.n, 7, "a.com", &r), 0);
  assert_int_equal(r.rcode, HG_DNS_NXDOMAIN);
  assert_int_equal(r.n, 0);
  m.b[3] = 0x82;
  assert_int_equal(hg_dns_parse_response(m.b, m.n, 7, "a.com", &r), 0);
  assert_int_equal(r.rcode, HG_DNS_SERVFAIL);
  assert_int_equal(r.n, 0);
}

static void response_records_that_do_not_count(void **state) {
  msg m;
  hg_dns_result r;
  resp(&m, 7, 0x8180, 4, "a.com");
  mptr(&m, 12);
  rr_head(&m, HG_DNS_T_A, 30);
  m16(&m, 5); /* an A of 5 bytes */
  m32(&m, IP(6, 6, 6, 6));
  m8(&m, 0);
  mptr(&m, 12);
  m16(&m, HG_DNS_T_A);
  m16(&m, 3); /* class CH */
  m32(&m, 30);
  m16(&m, 4);
  m32(&m, IP(6, 6, 6, 7));
  mptr(&m, 12);
  rr_head(&m, HG_DNS_T_AAAA, 30);
  m16(&m, 16);
  for (int i = 0; i < 16; i++) m8(&m, 0);
  mptr(&m, 12);
  rr_head(&m, HG_DNS_T_TXT, 30);
  m16(&m, 2);
  m8(&m, 1);
  m8(&m, 'x');
  assert_int_equal(hg_dns_parse_response(m.b, m.n, 7, "a.com", &r), 0);
  assert_int_equal(r.rcode, HG_DNS_NOERROR);
  assert_int_equal(r.n, 0);
  assert_int_equal(r.ttl, 0);
  /* more addresses than we keep */
  resp(&m, 7, 0x8180, 40, "a.com");
  for (int i = 0; i < 40; i++) {
    mptr(&m, 12);
    rr_a(&m, 30, IP(8, 8, 8, i));
  }
  assert_int_equal(hg_dns_parse_response(m.b, m.n, 7, "a.com", &r), 0);
  assert_int_equal(r.n, HG_DNS_MAX_ADDRS);
  assert_int_equal(r.ips[15], IP(8, 8, 8, 15));
}

static void response_cname_loops_and_bounds(void **state) {
  msg m;
  hg_dns_result r;
  char owner[32], target[32];
  /* a -> b -> a */
  resp(&m, 7, 0x8180, 2, "a.com");
  mptr(&m, 12);
  size_t b = rr_cname(&m, 30, "b.com");
  mptr(&m, b);
  rr_cname(&m, 30, "a.com");
  assert_int_equal(hg_dns_parse_response(m.b, m.n, 7, "a.com", &r), -ELOOP);
  /* a chain of HG_DNS_MAX_CNAME works, one more does not */
  for (int len = HG_DNS_MAX_CNAME; len <= HG_DNS_MAX_CNAME + 1; len++) {
    resp(&m, 7, 0x8180, (unsigned)len + 1, "c0.x.com");
    for (int i = 0; i < len; i++) {
      snprintf(owner, sizeof(owner), "c%d.x.com", i);
      snprintf(target, sizeof(target), "c%d.x.com", i + 1);
      mname(&m, owner);
      rr_cname(&m, 100 - (uint32_t)i, target);
    }
    mname(&m, target);
    rr_a(&m, 1000, IP(9, 9, 9, 9));
    int rc = hg_dns_parse_response(m.b, m.n, 7, "c0.x.com", &r);
    if (len == HG_DNS_MAX_CNAME) {
      assert_int_equal(rc, 0);
      assert_int_equal(r.n, 1);
      assert_int_equal(r.ttl, 100 - (HG_DNS_MAX_CNAME - 1));
    } else {
      assert_int_equal(rc, -ELOOP);
    }
  }
  /* a CNAME to nowhere: no data */
  resp(&m, 7, 0x8180, 1, "a.com");
  mptr(&m, 12);
  rr_cname(&m, 30, "gone.com");
  assert_int_equal(hg_dns_parse_response(m.b, m.n, 7, "a.com", &r), 0);
  assert_int_equal(r.n, 0);
  /* CNAME rdata longer than its name */
  resp(&m, 7, 0x8180, 1, "a.com");
  mptr(&m, 12);
  rr_head(&m, HG_DNS_T_CNAME, 30);
  m16(&m, 8);
  mname(&m, "b.com");
  m8(&m, 0);
  assert_int_equal(hg_dns_parse_response(m.b, m.n, 7, "a.com", &r), -EPROTO);
  /* a pointer forward, and one to itself */
  resp(&m, 7, 0x8180, 1, "a.com");
  mptr(&m, m.n + 2);
  rr_a(&m, 30, IP(1, 1, 1, 1));
  assert_int_equal(hg_dns_parse_response(m.b, m.n, 7, "a.com", &r), -EPROTO);
  resp(&m, 7, 0x8180, 1, "a.com");
  mptr(&m, m.n);
  rr_a(&m, 30, IP(1, 1, 1, 1));
  assert_int_equal(hg_dns_parse_response(m.b, m.n, 7, "a.com", &r), -EPROTO);
  /* a pointer chain longer than the hop cap, each jump backwards: the
   * stretches ("x" + pointer to the one before) sit in a TXT record's
   * rdata, and the A record's owner points at the last one */
  resp(&m, 7, 0x8180, 2, "a.com");
  mptr(&m, 12);
  rr_head(&m, HG_DNS_T_TXT, 30);
  size_t rdlen_at = m.n;
  m16(&m, 0);
  size_t prev = 12, start = m.n;
  for (int i = 0; i < HG_DNS_MAX_HOPS + 2; i++) {
    size_t here = m.n;
    m8(&m, 1);
    m8(&m, 'x');
    mptr(&m, prev);
    prev = here;
  }
  m.b[rdlen_at + 1] = (uint8_t)(m.n - start);
  mptr(&m, prev);
  rr_a(&m, 30, IP(1, 1, 1, 1));
  assert_int_equal(hg_dns_parse_response(m.b, m.n, 7, "a.com", &r), -EPROTO);
  /* the same with few enough hops reads fine (the name is x.x.x.a.com) */
  resp(&m, 7, 0x8180, 2, "a.com");
  mptr(&m, 12);
  rr_head(&m, HG_DNS_T_TXT, 30);
  rdlen_at = m.n;
  m16(&m, 0);
  prev = 12;
  start = m.n;
  for (int i = 0; i < 3; i++) {
    size_t here = m.n;
    m8(&m, 1);
    m8(&m, 'x');
    mptr(&m, prev);
    prev = here;
  }
  m.b[rdlen_at + 1] = (uint8_t)(m.n - start);
  mptr(&m, prev);
  rr_a(&m, 30, IP(1, 1, 1, 1));
  assert_int_equal(hg_dns_parse_response(m.b, m.n, 7, "a.com", &r), 0);
  assert_int_equal(r.n, 0);
  assert_int_equal(hg_dns_parse_response(m.b, m.n, 7, "x.x.x.a.com", &r), -EBADMSG);
}

static void name_text_for_logs(void **state) {
  char out[64];
  hg_dns_name_text((const uint8_t *)"\x03""api\x07""example\x03""com\x00", 17, out,
                   sizeof(out));
  assert_string_equal(out, "api.example.com");
  hg_dns_name_text((const uint8_t *)"\x00", 1, out, sizeof(out));
  assert_string_equal(out, ".");
  hg_dns_name_text((const uint8_t *)"\x05""a.b\x00\xff\x03""_x-\x00", 11, out, sizeof(out));
  assert_string_equal(out, "a\\.b\\000\\255._x-");
  uint8_t w[200];
  memset(w, 'z', sizeof(w));
  w[0] = 63;
  w[64] = 63;
  w[128] = 0;
  hg_dns_name_text(w, 129, out, 20);
  assert_int_equal(strlen(out), 19);
  assert_string_equal(out + 16, "...");
  hg_dns_name_text(w, 129, out, 1);
  assert_string_equal(out, "");
}

static void limiter_bucket(void **state) {
  hg_dns_limiter l;
  hg_dns_limiter_init(&l, 10, 5, 1000);
  for (int i = 0; i < 5; i++) assert_int_equal(hg_dns_limiter_take(&l, 1000), 1);
  assert_int_equal(hg_dns_limiter_take(&l, 1000), 0);
  assert_int_equal(hg_dns_limiter_take(&l, 1099), 0); /* 0.99 token */
  assert_int_equal(hg_dns_limiter_take(&l, 1100), 1);
  assert_int_equal(hg_dns_limiter_take(&l, 1100), 0);
  /* a clock going back adds nothing */
  assert_int_equal(hg_dns_limiter_take(&l, 500), 0);
  /* a long pause fills to the burst, no more, without overflow */
  assert_int_equal(hg_dns_limiter_take(&l, UINT64_MAX / 2), 1);
  for (int i = 0; i < 4; i++)
    assert_int_equal(hg_dns_limiter_take(&l, UINT64_MAX / 2), 1);
  assert_int_equal(hg_dns_limiter_take(&l, UINT64_MAX / 2), 0);
  /* a tunnel at 1000 queries a second gets the rate, not the burst */
  hg_dns_limiter_init(&l, 20, 40, 0);
  int ok = 0;
  for (uint64_t t = 0; t < 10000; t++) ok += hg_dns_limiter_take(&l, t);
  assert_in_range(ok, 40 + 199, 40 + 200);
  hg_dns_limiter_init(&l, 0, 0, 0);
  assert_int_equal(hg_dns_limiter_take(&l, 100000), 0);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(query_round_trip),
      cmocka_unit_test(query_keeps_case_and_reads_edns_size),
      cmocka_unit_test(query_errors),
      cmocka_unit_test(query_name_bounds),
      cmocka_unit_test(query_name_rules_for_the_allowlist),
      cmocka_unit_test(answer_a_records_and_read_them_back),
      cmocka_unit_test(answer_rcodes_and_nodata),
      cmocka_unit_test(error_answer_from_a_bad_query),
      cmocka_unit_test(response_follows_cname_chain_and_ignores_strays),
      cmocka_unit_test(response_identity_checks),
      cmocka_unit_test(response_records_that_do_not_count),
      cmocka_unit_test(response_cname_loops_and_bounds),
      cmocka_unit_test(name_text_for_logs),
      cmocka_unit_test(limiter_bucket),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
