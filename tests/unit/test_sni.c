/* gateway/sni: ClientHello reassembly and the SNI verdicts, on real
 * ClientHellos from OpenSSL (SSL_connect into memory BIOs) and on
 * hand-built ones for every deny reason (reference/egress.md rows 6-9, 25). */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>
#include <openssl/ssl.h>

#include "gateway/sni.h"

/* ---- OpenSSL ClientHellos -------------------------------------------------- */

typedef struct ext_spec {
  unsigned type; /* 0: none */
  size_t len;
} ext_spec;

static int ext_add(SSL *s, unsigned type, unsigned ctx, const unsigned char **out,
                   size_t *outlen, X509 *x, size_t chainidx, int *al, void *arg) {
  const ext_spec *e = arg;
  unsigned char *b = malloc(e->len ? e->len : 1);
  if (!b) return -1;
  memset(b, 0xab, e->len);
  *out = b;
  *outlen = e->len;
  return 1;
}

static void ext_free(SSL *s, unsigned type, unsigned ctx, const unsigned char *out,
                     void *arg) {
  free((void *)out);
}

/* The first flight of an OpenSSL client: the ClientHello as TLS records. */
static uint8_t *openssl_hello(const char *sni, ext_spec ext, size_t *len) {
  SSL_CTX *ctx = SSL_CTX_new(TLS_client_method());
  assert_non_null(ctx);
  if (ext.type)
    assert_int_equal(SSL_CTX_add_custom_ext(ctx, ext.type, SSL_EXT_CLIENT_HELLO, ext_add,
                                            ext_free, &ext, NULL, NULL),
                     1);
  SSL *ssl = SSL_new(ctx);
  assert_non_null(ssl);
  BIO *rb = BIO_new(BIO_s_mem()), *wb = BIO_new(BIO_s_mem());
  SSL_set_bio(ssl, rb, wb);
  if (sni) assert_int_equal(SSL_set_tlsext_host_name(ssl, sni), 1);
  int rc = SSL_connect(ssl);
  assert_true(rc <= 0);
  assert_int_equal(SSL_get_error(ssl, rc), SSL_ERROR_WANT_READ);
  char *data;
  long n = BIO_get_mem_data(wb, &data);
  assert_true(n > 0);
  uint8_t *out = malloc((size_t)n);
  memcpy(out, data, (size_t)n);
  *len = (size_t)n;
  SSL_free(ssl);
  SSL_CTX_free(ctx);
  return out;
}

/* Record payloads concatenated: the handshake bytes. */
static uint8_t *unrecord(const uint8_t *w, size_t len, size_t *out_len) {
  uint8_t *out = malloc(len);
  size_t n = 0;
  for (size_t i = 0; i < len;) {
    assert_true(len - i >= 5);
    assert_int_equal(w[i], 0x16);
    size_t rl = (size_t)w[i + 3] << 8 | w[i + 4];
    memcpy(out + n, w + i + 5, rl);
    n += rl;
    i += 5 + rl;
  }
  *out_len = n;
  return out;
}

/* Handshake bytes as records of at most chunk bytes each. */
static uint8_t *record(const uint8_t *hs, size_t len, size_t chunk, size_t *out_len) {
  size_t nrec = (len + chunk - 1) / chunk;
  uint8_t *out = malloc(len + 5 * nrec);
  size_t n = 0;
  for (size_t i = 0; i < len; i += chunk) {
    size_t c = len - i < chunk ? len - i : chunk;
    out[n++] = 0x16;
    out[n++] = 3;
    out[n++] = 1;
    out[n++] = (uint8_t)(c >> 8);
    out[n++] = (uint8_t)c;
    memcpy(out + n, hs + i, c);
    n += c;
  }
  *out_len = n;
  return out;
}

/* Feeds everything, also past a verdict (which must then stand). */
static int feed_all(hg_sni *s, const uint8_t *w, size_t len, size_t step) {
  int v = HG_SNI_NEED_MORE, first = HG_SNI_NEED_MORE;
  for (size_t i = 0; i < len; i += step) {
    size_t c = len - i < step ? len - i : step;
    v = hg_sni_feed(s, w + i, c);
    if (first == HG_SNI_NEED_MORE) first = v;
    if (v != first) return -1;
  }
  return v;
}

/* The whole input gives verdict v (name when OK) in one feed, byte by
 * byte, and in uneven pieces. */
static void expect(const uint8_t *w, size_t len, int v, hg_sni_reason r,
                   const char *name) {
  const size_t steps[] = {len, 1, 2, 3, 7, 100, 517};
  for (size_t k = 0; k < sizeof(steps) / sizeof(steps[0]); k++) {
    hg_sni s;
    hg_sni_init(&s);
    int got = feed_all(&s, w, len, steps[k] ? steps[k] : 1);
    if (got != v)
      fail_msg("step %zu: verdict %d want %d (%s)", steps[k], got, v,
               hg_sni_reason_str(s.reason));
    assert_int_equal(s.reason, r);
    if (name) assert_string_equal(s.name, name);
    assert_null(s.msg); /* freed on the verdict */
    hg_sni_free(&s);
  }
}

static void expect_prefixes_need_more(const uint8_t *w, size_t len) {
  for (size_t cut = 0; cut < len; cut++) {
    hg_sni s;
    hg_sni_init(&s);
    int v = hg_sni_feed(&s, w, cut);
    if (v != HG_SNI_NEED_MORE) fail_msg("prefix %zu of %zu: verdict %d", cut, len, v);
    hg_sni_free(&s);
  }
}

static void openssl_hello_gives_normalised_name(void **state) {
  size_t len;
  uint8_t *w = openssl_hello("API.Example.com", (ext_spec){0}, &len);
  expect(w, len, HG_SNI_OK, HG_SNI_R_NONE, "api.example.com");
  expect_prefixes_need_more(w, len);
  free(w);
  w = openssl_hello("files.pythonhosted.org.", (ext_spec){0}, &len);
  expect(w, len, HG_SNI_OK, HG_SNI_R_NONE, "files.pythonhosted.org");
  free(w);
}

static void openssl_hello_across_many_records(void **state) {
  size_t len, hl, rl;
  uint8_t *w = openssl_hello("api.example.com", (ext_spec){0}, &len);
  uint8_t *hs = unrecord(w, len, &hl);
  const size_t chunks[] = {1, 2, 3, 5, 64, 200};
  for (size_t k = 0; k < sizeof(chunks) / sizeof(chunks[0]); k++) {
    uint8_t *r = record(hs, hl, chunks[k], &rl);
    expect(r, rl, HG_SNI_OK, HG_SNI_R_NONE, "api.example.com");
    free(r);
  }
  uint8_t *r = record(hs, hl, 1, &rl);
  expect_prefixes_need_more(r, rl);
  free(r);
  free(hs);
  free(w);
}

static void openssl_hello_with_post_quantum_sized_extension(void **state) {
  /* an X25519MLKEM768 key share is 1216 bytes; a hybrid with two is more;
   * 9000 bytes also makes OpenSSL's hello far larger than one TCP segment */
  const size_t sizes[] = {1216, 2500, 9000};
  for (size_t k = 0; k < sizeof(sizes) / sizeof(sizes[0]); k++) {
    size_t len, hl, rl;
    uint8_t *w = openssl_hello("pq.example.org", (ext_spec){0x11ec, sizes[k]}, &len);
    assert_true(len > sizes[k]);
    expect(w, len, HG_SNI_OK, HG_SNI_R_NONE, "pq.example.org");
    uint8_t *hs = unrecord(w, len, &hl);
    uint8_t *r = record(hs, hl, 1, &rl); /* ~6 wire bytes per byte: under the cap */
    assert_true(rl <= HG_SNI_MAX_WIRE);
    expect(r, rl, HG_SNI_OK, HG_SNI_R_NONE, "pq.example.org");
    free(r);
    r = record(hs, hl, 1000, &rl);
    expect(r, rl, HG_SNI_OK, HG_SNI_R_NONE, "pq.example.org");
    free(r);
    free(hs);
    free(w);
  }
}

static void openssl_hello_over_16k_is_too_large_early(void **state) {
  size_t len;
  uint8_t *w = openssl_hello("big.example.org", (ext_spec){0x11ec, 20000}, &len);
  assert_true(len > 20000);
  hg_sni s;
  hg_sni_init(&s);
  /* judged on the handshake header: record header + 4 bytes */
  assert_int_equal(hg_sni_feed(&s, w, 8), HG_SNI_NEED_MORE);
  assert_int_equal(hg_sni_feed(&s, w + 8, 1), HG_SNI_DENY);
  assert_int_equal(s.reason, HG_SNI_R_TOO_LARGE);
  assert_null(s.msg);
  hg_sni_free(&s);
  expect(w, 9, HG_SNI_DENY, HG_SNI_R_TOO_LARGE, "");
  free(w);
}

static void openssl_hello_without_sni_is_denied(void **state) {
  size_t len;
  uint8_t *w = openssl_hello(NULL, (ext_spec){0}, &len);
  expect(w, len, HG_SNI_DENY, HG_SNI_R_NO_SNI, "");
  free(w);
}

static void openssl_hello_with_ech_is_denied(void **state) {
  size_t len;
  uint8_t *w = openssl_hello("public.example.com", (ext_spec){0xfe0d, 200}, &len);
  expect(w, len, HG_SNI_DENY, HG_SNI_R_ECH, "");
  free(w);
  w = openssl_hello("public.example.com", (ext_spec){0xfd00, 4}, &len);
  expect(w, len, HG_SNI_DENY, HG_SNI_R_ECH, "");
  free(w);
}

/* ---- hand-built ClientHellos ----------------------------------------------- */

typedef struct mk {
  uint8_t b[80000];
  size_t n;
} mk;

static mk ext_buf, hello_buf, wire_buf;

static void u8(mk *m, unsigned v) {
  m->b[m->n++] = (uint8_t)v;
}
static void u16(mk *m, unsigned v) {
  u8(m, v >> 8);
  u8(m, v);
}
static void raw(mk *m, const void *p, size_t n) {
  memcpy(m->b + m->n, p, n);
  m->n += n;
}

static void ext_raw(unsigned type, const void *p, size_t n) {
  u16(&ext_buf, type);
  u16(&ext_buf, (unsigned)n);
  raw(&ext_buf, p, n);
}

/* server_name with n host_names (lengths given: names may hold NULs) */
static void ext_sni(const char *const *names, const size_t *lens, size_t n) {
  size_t list = 0;
  for (size_t i = 0; i < n; i++) list += 3 + lens[i];
  u16(&ext_buf, 0);
  u16(&ext_buf, (unsigned)(list + 2));
  u16(&ext_buf, (unsigned)list);
  for (size_t i = 0; i < n; i++) {
    u8(&ext_buf, 0);
    u16(&ext_buf, (unsigned)lens[i]);
    raw(&ext_buf, names[i], lens[i]);
  }
}

static void ext_sni1(const char *name) {
  size_t l = strlen(name);
  ext_sni(&name, &l, 1);
}

/* The handshake message around ext_buf (ext_block 0: no extensions
 * field at all), then records of chunk bytes in wire_buf. */
static void build(int ext_block, size_t chunk) {
  mk *h = &hello_buf;
  h->n = 0;
  u8(h, 1);
  u8(h, 0);
  u16(h, 0); /* length, set below */
  u16(h, 0x0303);
  for (int i = 0; i < 32; i++) u8(h, i);
  u8(h, 32);
  for (int i = 0; i < 32; i++) u8(h, 0xee);
  u16(h, 4);
  u16(h, 0x1301);
  u16(h, 0x1302);
  u8(h, 1);
  u8(h, 0);
  if (ext_block) {
    u16(h, (unsigned)ext_buf.n);
    raw(h, ext_buf.b, ext_buf.n);
  }
  size_t body = h->n - 4;
  h->b[1] = (uint8_t)(body >> 16);
  h->b[2] = (uint8_t)(body >> 8);
  h->b[3] = (uint8_t)body;
  size_t rl;
  uint8_t *r = record(h->b, h->n, chunk, &rl);
  memcpy(wire_buf.b, r, rl);
  wire_buf.n = rl;
  free(r);
  ext_buf.n = 0;
}

static void expect_built(int v, hg_sni_reason r, const char *name) {
  expect(wire_buf.b, wire_buf.n, v, r, name);
}

static void grease_and_unknown_extensions_are_skipped(void **state) {
  ext_raw(0x0a0a, "", 0); /* GREASE first, as Chrome does */
  ext_raw(0x002b, "\x04\x03\x04\x03\x03", 5);
  ext_sni1("www.Example.org");
  ext_raw(0x4469, "\x00\x03h2", 5); /* ALPS, unknown to us */
  ext_raw(0xfafa, "\x00", 1);
  build(1, 16384);
  expect_built(HG_SNI_OK, HG_SNI_R_NONE, "www.example.org");
  expect_prefixes_need_more(wire_buf.b, wire_buf.n);
}

static void sni_deny_reasons(void **state) {
  /* no extensions at all, an empty block, a block without server_name */
  build(0, 16384);
  expect_built(HG_SNI_DENY, HG_SNI_R_NO_SNI, "");
  build(1, 16384);
  expect_built(HG_SNI_DENY, HG_SNI_R_NO_SNI, "");
  ext_raw(0x002b, "\x02\x03\x04", 3);
  build(1, 16384);
  expect_built(HG_SNI_DENY, HG_SNI_R_NO_SNI, "");

  /* IP literals in every notation */
  const char *lits[] = {"203.0.113.9", "2130706433", "0177.0.0.1", "0x7f.1",
                        "127.1",       "::1",        "[::1]",      "169.254.169.254."};
  for (size_t i = 0; i < sizeof(lits) / sizeof(lits[0]); i++) {
    ext_sni1(lits[i]);
    build(1, 16384);
    expect_built(HG_SNI_DENY, HG_SNI_R_IP_LITERAL, "");
  }

  /* names that are not hostnames */
  const char *bad[] = {"a_b.example.com",
                       "a b.com",
                       "exa\xc3\x9fmple.com",
                       "a..com",
                       "api.example.com:443",
                       "",
                       "-x.com",
                       "."};
  for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
    ext_sni1(bad[i]);
    build(1, 16384);
    expect_built(HG_SNI_DENY, HG_SNI_R_BAD_NAME, "");
  }
  const char *nul = "allowed.com\0.evil.com";
  size_t nl = 21;
  ext_sni(&nul, &nl, 1);
  build(1, 16384);
  expect_built(HG_SNI_DENY, HG_SNI_R_BAD_NAME, "");
  char longname[300];
  memset(longname, 'a', sizeof(longname) - 1);
  longname[sizeof(longname) - 1] = '\0';
  for (int i = 50; i < 299; i += 50) longname[i] = '.';
  ext_sni1(longname); /* 299 bytes, labels of 49 */
  build(1, 16384);
  expect_built(HG_SNI_DENY, HG_SNI_R_BAD_NAME, "");

  /* two server_name extensions, same name or not */
  ext_sni1("a.example.com");
  ext_sni1("a.example.com");
  build(1, 16384);
  expect_built(HG_SNI_DENY, HG_SNI_R_DUPLICATE_SNI, "");
  ext_sni1("a.example.com");
  ext_raw(0x0010, "\x00\x03\x02h2", 6);
  ext_sni1("evil.com");
  build(1, 16384);
  expect_built(HG_SNI_DENY, HG_SNI_R_DUPLICATE_SNI, "");

  /* several host_names in one */
  const char *two[] = {"a.example.com", "evil.com"};
  const size_t twol[] = {13, 8};
  ext_sni(two, twol, 2);
  build(1, 16384);
  expect_built(HG_SNI_DENY, HG_SNI_R_SEVERAL_NAMES, "");

  /* ECH, its outer-extensions marker, ESNI; ECH wins over a fine SNI */
  const unsigned ech[] = {0xfe0d, 0xfd00, 0xffce};
  for (size_t i = 0; i < 3; i++) {
    ext_sni1("public.example.com");
    ext_raw(ech[i], "\x00\x01\x02", 3);
    build(1, 16384);
    expect_built(HG_SNI_DENY, HG_SNI_R_ECH, "");
  }
}

static void sni_structure_must_be_exact(void **state) {
  /* extensions block length one more / one less than what follows */
  ext_sni1("a.example.com");
  build(1, 16384);
  size_t ext_len_at = 5 + 4 + 2 + 32 + 1 + 32 + 2 + 4 + 2;
  uint8_t saved[80000];
  size_t n = wire_buf.n;
  memcpy(saved, wire_buf.b, n);
  wire_buf.b[ext_len_at + 1]++;
  expect_built(HG_SNI_DENY, HG_SNI_R_MALFORMED, "");
  memcpy(wire_buf.b, saved, n);
  wire_buf.b[ext_len_at + 1]--;
  expect_built(HG_SNI_DENY, HG_SNI_R_MALFORMED, "");

  /* server_name list length disagreeing with the extension */
  ext_raw(0, "\x00\x05\x00\x00\x01x", 6);
  build(1, 16384);
  expect_built(HG_SNI_DENY, HG_SNI_R_MALFORMED, "");
  ext_raw(0, "", 0); /* empty server_name in a ClientHello */
  build(1, 16384);
  expect_built(HG_SNI_DENY, HG_SNI_R_MALFORMED, "");
  ext_raw(0, "\x00\x04\x01\x00\x01x", 6); /* name type 1 */
  build(1, 16384);
  expect_built(HG_SNI_DENY, HG_SNI_R_MALFORMED, "");
  ext_raw(0x0010, "\x00\x09\x02h2", 6); /* inner length overruns: not our business */
  ext_sni1("ok.example.com");
  build(1, 16384);
  expect_built(HG_SNI_OK, HG_SNI_R_NONE, "ok.example.com");

  /* a ClientHello that does not end its record */
  ext_sni1("a.example.com");
  build(1, 16384);
  wire_buf.b[4]++;
  wire_buf.b[wire_buf.n++] = 0x16;
  expect_built(HG_SNI_DENY, HG_SNI_R_MALFORMED, "");

  /* handshake type other than ClientHello */
  ext_sni1("a.example.com");
  build(1, 16384);
  wire_buf.b[5] = 2;
  expect_built(HG_SNI_DENY, HG_SNI_R_MALFORMED, "");

  /* record lengths 0 and 2^14+1 */
  const uint8_t zero[] = {0x16, 3, 1, 0, 0};
  expect(zero, 5, HG_SNI_DENY, HG_SNI_R_MALFORMED, "");
  const uint8_t big[] = {0x16, 3, 1, 0x40, 0x01};
  expect(big, 5, HG_SNI_DENY, HG_SNI_R_MALFORMED, "");
  /* handshake length below any ClientHello */
  const uint8_t tiny[] = {0x16, 3, 1, 0, 4, 1, 0, 0, 0};
  expect(tiny, 9, HG_SNI_DENY, HG_SNI_R_MALFORMED, "");
  /* legacy_version major not 3 */
  ext_sni1("a.example.com");
  build(1, 16384);
  wire_buf.b[9] = 2;
  expect_built(HG_SNI_DENY, HG_SNI_R_MALFORMED, "");
  /* session id longer than 32 */
  ext_sni1("a.example.com");
  build(1, 16384);
  wire_buf.b[5 + 4 + 2 + 32] = 33;
  expect_built(HG_SNI_DENY, HG_SNI_R_MALFORMED, "");
}

static void not_tls_and_interleaved_records(void **state) {
  const char *http = "GET / HTTP/1.1\r\nHost: a.com\r\n\r\n";
  expect((const uint8_t *)http, strlen(http), HG_SNI_DENY, HG_SNI_R_NOT_TLS, "");
  const uint8_t sslv2[] = {0x80, 0x2e, 0x01, 0x03, 0x01};
  expect(sslv2, sizeof(sslv2), HG_SNI_DENY, HG_SNI_R_NOT_TLS, "");
  const uint8_t alert[] = {0x15, 3, 3, 0, 2, 2, 40};
  expect(alert, sizeof(alert), HG_SNI_DENY, HG_SNI_R_NOT_TLS, "");
  const uint8_t badver[] = {0x16, 3, 9, 0, 2};
  expect(badver, sizeof(badver), HG_SNI_DENY, HG_SNI_R_NOT_TLS, "");
  const uint8_t ssh[] = "SSH-2.0-OpenSSH_9.2\r\n";
  expect(ssh, sizeof(ssh) - 1, HG_SNI_DENY, HG_SNI_R_NOT_TLS, "");

  /* a ChangeCipherSpec record between two halves of the hello */
  ext_sni1("a.example.com");
  build(1, 40);
  size_t cut = 45; /* after the first record */
  uint8_t w[80000];
  memcpy(w, wire_buf.b, cut);
  const uint8_t ccs[] = {0x14, 3, 3, 0, 1, 1};
  memcpy(w + cut, ccs, sizeof(ccs));
  memcpy(w + cut + sizeof(ccs), wire_buf.b + cut, wire_buf.n - cut);
  expect(w, wire_buf.n + sizeof(ccs), HG_SNI_DENY, HG_SNI_R_MALFORMED, "");
}

static void wire_cap_bounds_one_byte_records(void **state) {
  /* a 12 KiB hello fits the message cap, but in 1-byte records it is
   * 6 wire bytes a byte: past HG_SNI_MAX_WIRE */
  static uint8_t pad[12000];
  memset(pad, 0, sizeof(pad));
  ext_sni1("a.example.com");
  ext_raw(0x0015, pad, sizeof(pad));
  build(1, 16384);
  expect_built(HG_SNI_OK, HG_SNI_R_NONE, "a.example.com");
  ext_sni1("a.example.com");
  ext_raw(0x0015, pad, sizeof(pad));
  build(1, 1);
  assert_true(wire_buf.n > HG_SNI_MAX_WIRE);
  hg_sni s;
  hg_sni_init(&s);
  size_t i = 0;
  int v = HG_SNI_NEED_MORE;
  for (; i < wire_buf.n && v == HG_SNI_NEED_MORE; i++)
    v = hg_sni_feed(&s, wire_buf.b + i, 1);
  assert_int_equal(v, HG_SNI_DENY);
  assert_int_equal(s.reason, HG_SNI_R_TOO_LARGE);
  assert_true(i <= HG_SNI_MAX_WIRE + 1);
  assert_null(s.msg);
  hg_sni_free(&s);
}

static void verdict_is_final_and_slow_client_waits(void **state) {
  ext_sni1("a.example.com");
  build(1, 16384);
  hg_sni s;
  hg_sni_init(&s);
  /* a slowloris client: half a hello stays NEED_MORE; the caller's
   * deadline ends it */
  assert_int_equal(hg_sni_feed(&s, wire_buf.b, wire_buf.n / 2), HG_SNI_NEED_MORE);
  assert_int_equal(hg_sni_feed(&s, wire_buf.b, 0), HG_SNI_NEED_MORE);
  assert_int_equal(
      hg_sni_feed(&s, wire_buf.b + wire_buf.n / 2, wire_buf.n - wire_buf.n / 2),
      HG_SNI_OK);
  /* early data after the hello: ignored, verdict stands */
  assert_int_equal(hg_sni_feed(&s, "\x17\x03\x03\x00\x01x", 6), HG_SNI_OK);
  assert_string_equal(s.name, "a.example.com");
  hg_sni_free(&s);
  hg_sni_free(&s); /* twice is fine */

  hg_sni_init(&s);
  assert_int_equal(hg_sni_feed(&s, "GET", 3), HG_SNI_DENY);
  assert_int_equal(hg_sni_feed(&s, wire_buf.b, wire_buf.n), HG_SNI_DENY);
  assert_int_equal(s.reason, HG_SNI_R_NOT_TLS);
  hg_sni_free(&s);
}

static void tls_sniff_and_reason_strings(void **state) {
  assert_int_equal(hg_tls_sniff("\x16\x03\x01\x02\x00", 5), 1);
  assert_int_equal(hg_tls_sniff("\x16\x03\x03", 3), 1);
  assert_int_equal(hg_tls_sniff("\x16\x03", 2), -EAGAIN);
  assert_int_equal(hg_tls_sniff("\x16", 1), -EAGAIN);
  assert_int_equal(hg_tls_sniff("", 0), -EAGAIN);
  assert_int_equal(hg_tls_sniff("GET / HTTP/1.1", 14), 0);
  assert_int_equal(hg_tls_sniff("G", 1), 0);
  assert_int_equal(hg_tls_sniff("\x16\x02", 2), 0);
  assert_int_equal(hg_tls_sniff("\x16\x03\x05", 3), 0);
  assert_string_equal(hg_sni_reason_str(HG_SNI_R_NOT_TLS), "not_tls");
  assert_string_equal(hg_sni_reason_str(HG_SNI_R_NO_SNI), "no_sni");
  assert_string_equal(hg_sni_reason_str(HG_SNI_R_IP_LITERAL), "ip_literal");
  assert_string_equal(hg_sni_reason_str(HG_SNI_R_BAD_NAME), "bad_name");
  assert_string_equal(hg_sni_reason_str(HG_SNI_R_DUPLICATE_SNI), "duplicate_sni");
  assert_string_equal(hg_sni_reason_str(HG_SNI_R_SEVERAL_NAMES), "several_names");
  assert_string_equal(hg_sni_reason_str(HG_SNI_R_ECH), "ech");
  assert_string_equal(hg_sni_reason_str(HG_SNI_R_TOO_LARGE), "too_large");
  assert_string_equal(hg_sni_reason_str(HG_SNI_R_MALFORMED), "malformed");
  assert_string_equal(hg_sni_reason_str((hg_sni_reason)99), "unknown");
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(openssl_hello_gives_normalised_name),
      cmocka_unit_test(openssl_hello_across_many_records),
      cmocka_unit_test(openssl_hello_with_post_quantum_sized_extension),
      cmocka_unit_test(openssl_hello_over_16k_is_too_large_early),
      cmocka_unit_test(openssl_hello_without_sni_is_denied),
      cmocka_unit_test(openssl_hello_with_ech_is_denied),
      cmocka_unit_test(grease_and_unknown_extensions_are_skipped),
      cmocka_unit_test(sni_deny_reasons),
      cmocka_unit_test(sni_structure_must_be_exact),
      cmocka_unit_test(not_tls_and_interleaved_records),
      cmocka_unit_test(wire_cap_bounds_one_byte_records),
      cmocka_unit_test(verdict_is_final_and_slow_client_waits),
      cmocka_unit_test(tls_sniff_and_reason_strings),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
