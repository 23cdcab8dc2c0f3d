/* gateway/httphead: strict request heads for the egress proxy
 * (reference/egress.md rows 5, 10, 23, 25). */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "gateway/httphead.h"

static hg_httphead H;

/* Parses s in one go, then again growing the buffer one byte at a time
 * with the same struct (the proxy's way); both must agree. */
static int parse(const char *s, size_t len) {
  static hg_httphead inc;
  hg_httphead_init(&inc);
  int vi = HG_HEAD_NEED_MORE;
  for (size_t i = 1; i <= len; i++) {
    vi = hg_httphead_parse(&inc, s, i);
    if (vi != HG_HEAD_NEED_MORE) break;
  }
  hg_httphead_init(&H);
  int v = hg_httphead_parse(&H, s, len);
  if (v != vi || H.reason != inc.reason)
    fail_msg("whole %d/%s vs bytewise %d/%s", v, hg_head_reason_str(H.reason), vi,
             hg_head_reason_str(inc.reason));
  if (v == HG_HEAD_OK) assert_int_equal(H.head_len, inc.head_len);
  return v;
}

static int parse_s(const char *s) {
  return parse(s, strlen(s));
}

static void expect_deny(const char *s, hg_head_reason r) {
  int v = parse_s(s);
  if (v != HG_HEAD_DENY || H.reason != r)
    fail_msg("%s\n-> verdict %d reason %s, want %s", s, v, hg_head_reason_str(H.reason),
             hg_head_reason_str(r));
}

static void expect_prefixes_need_more(const char *s) {
  size_t len = strlen(s);
  for (size_t cut = 0; cut < len; cut++) {
    hg_httphead_init(&H);
    if (hg_httphead_parse(&H, s, cut) != HG_HEAD_NEED_MORE)
      fail_msg("prefix %zu: %s", cut, hg_head_reason_str(H.reason));
  }
}

static int span_is(const char *buf, hg_span sp, const char *want) {
  return sp.len == strlen(want) && memcmp(buf + sp.off, want, sp.len) == 0;
}

static void get_origin_form(void **state) {
  const char *r =
      "GET /simple/requests/?q=1 HTTP/1.1\r\nHost: Files.PythonHosted.org\r\n"
      "User-Agent: pip/24.0\r\nAccept: */*\r\nX-Empty:\r\n\r\nNEXT";
  assert_int_equal(parse_s(r), HG_HEAD_OK);
  assert_int_equal(H.head_len, strlen(r) - 4);
  assert_true(span_is(r, H.method, "GET"));
  assert_true(span_is(r, H.target, "/simple/requests/?q=1"));
  assert_int_equal(H.minor, 1);
  assert_int_equal(H.form, HG_HEAD_ORIGIN);
  assert_string_equal(H.host, "files.pythonhosted.org");
  assert_int_equal(H.port, 0);
  assert_int_equal(H.body, HG_HEAD_BODY_NONE);
  assert_int_equal(H.nfields, 4);
  assert_true(span_is(r, H.fields[1].name, "User-Agent"));
  assert_true(span_is(r, H.fields[1].value, "pip/24.0"));
  assert_true(span_is(r, H.fields[1].line, "User-Agent: pip/24.0\r\n"));
  assert_true(span_is(r, H.fields[3].value, ""));
  assert_int_equal(hg_httphead_find(&H, r, "accept", 0), 2);
  assert_int_equal(hg_httphead_find(&H, r, "HOST", 0), 0);
  assert_int_equal(hg_httphead_find(&H, r, "host", 1), -ENOENT);
  assert_int_equal(hg_httphead_find(&H, r, "cookie", 0), -ENOENT);
  expect_prefixes_need_more(
      "GET /simple/requests/?q=1 HTTP/1.1\r\nHost: Files.PythonHosted.org\r\n"
      "User-Agent: pip/24.0\r\nAccept: */*\r\n\r\n");
}

static void host_port_whitespace_and_http10(void **state) {
  assert_int_equal(parse_s("GET / HTTP/1.0\r\nhOsT: \t api.example.com.:8080 \t\r\n\r\n"),
                   HG_HEAD_OK);
  assert_string_equal(H.host, "api.example.com");
  assert_int_equal(H.port, 8080);
  assert_int_equal(H.minor, 0);
  assert_int_equal(parse_s("OPTIONS * HTTP/1.1\r\nHost: a.com\r\n\r\n"), HG_HEAD_OK);
  assert_int_equal(H.form, HG_HEAD_ASTERISK);
  expect_deny("GET * HTTP/1.1\r\nHost: a.com\r\n\r\n", HG_HEAD_R_BAD_TARGET);
  expect_deny("options * HTTP/1.1\r\nHost: a.com\r\n\r\n", HG_HEAD_R_BAD_TARGET);
}

static void body_framing(void **state) {
  assert_int_equal(
      parse_s("POST /x HTTP/1.1\r\nHost: a.com\r\nContent-Length: 42\r\n\r\n"),
      HG_HEAD_OK);
  assert_int_equal(H.body, HG_HEAD_BODY_LENGTH);
  assert_int_equal(H.content_length, 42);
  assert_int_equal(
      parse_s("POST /x HTTP/1.1\r\nHost: a.com\r\nContent-Length: 0\r\n\r\n"),
      HG_HEAD_OK);
  assert_int_equal(H.body, HG_HEAD_BODY_LENGTH);
  assert_int_equal(H.content_length, 0);
  /* the same length twice is one length (RFC 9110 8.6) */
  assert_int_equal(parse_s("POST /x HTTP/1.1\r\nContent-Length: 7\r\nHost: a.com\r\n"
                           "content-length: 7\r\n\r\n"),
                   HG_HEAD_OK);
  assert_int_equal(H.content_length, 7);
  assert_int_equal(parse_s("POST /x HTTP/1.1\r\nHost: a.com\r\n"
                           "Transfer-Encoding: Chunked\r\n\r\n"),
                   HG_HEAD_OK);
  assert_int_equal(H.body, HG_HEAD_BODY_CHUNKED);
  assert_int_equal(parse_s("POST /x HTTP/1.1\r\nHost: a.com\r\n"
                           "Content-Length: 999999999999999999\r\n\r\n"),
                   HG_HEAD_OK);
  assert_int_equal(H.content_length, 999999999999999999ull);
}

static void smuggling_framings_are_denied(void **state) {
  expect_deny(
      "POST / HTTP/1.1\r\nHost: a.com\r\nContent-Length: 5\r\n"
      "Transfer-Encoding: chunked\r\n\r\n",
      HG_HEAD_R_CL_AND_TE);
  expect_deny(
      "POST / HTTP/1.1\r\nTransfer-Encoding: chunked\r\nHost: a.com\r\n"
      "Content-Length: 5\r\n\r\n",
      HG_HEAD_R_CL_AND_TE);
  expect_deny(
      "POST / HTTP/1.1\r\nHost: a.com\r\nContent-Length: 5\r\n"
      "Content-Length: 6\r\n\r\n",
      HG_HEAD_R_BAD_CONTENT_LENGTH);
  const char *cls[] = {"+5", "-1", "5 5", "5,5", "0x10", "", "1234567890123456789", "5a"};
  for (size_t i = 0; i < sizeof(cls) / sizeof(cls[0]); i++) {
    char r[256];
    snprintf(r, sizeof(r), "POST / HTTP/1.1\r\nHost: a.com\r\nContent-Length: %s\r\n\r\n",
             cls[i]);
    expect_deny(r, HG_HEAD_R_BAD_CONTENT_LENGTH);
  }
  const char *tes[] = {"gzip",     "gzip, chunked", "chunked, chunked",
                       "identity", "chunked;x=1",   "xchunked",
                       ""};
  for (size_t i = 0; i < sizeof(tes) / sizeof(tes[0]); i++) {
    char r[256];
    snprintf(r, sizeof(r),
             "POST / HTTP/1.1\r\nHost: a.com\r\nTransfer-Encoding: %s\r\n\r\n", tes[i]);
    expect_deny(r, HG_HEAD_R_BAD_TRANSFER_ENCODING);
  }
  expect_deny(
      "POST / HTTP/1.1\r\nHost: a.com\r\nTransfer-Encoding: chunked\r\n"
      "Transfer-Encoding: chunked\r\n\r\n",
      HG_HEAD_R_BAD_TRANSFER_ENCODING);
  expect_deny("POST / HTTP/1.0\r\nHost: a.com\r\nTransfer-Encoding: chunked\r\n\r\n",
              HG_HEAD_R_BAD_TRANSFER_ENCODING);
  /* whitespace before the colon: some servers strip it, so we refuse */
  expect_deny("POST / HTTP/1.1\r\nHost: a.com\r\nTransfer-Encoding : chunked\r\n\r\n",
              HG_HEAD_R_BAD_FIELD);
  expect_deny("POST / HTTP/1.1\r\nHost: a.com\r\nContent-Length\t: 5\r\n\r\n",
              HG_HEAD_R_BAD_FIELD);
}

static void host_rules(void **state) {
  expect_deny("GET / HTTP/1.1\r\nAccept: */*\r\n\r\n", HG_HEAD_R_NO_HOST);
  expect_deny("GET / HTTP/1.0\r\n\r\n", HG_HEAD_R_NO_HOST);
  expect_deny("GET / HTTP/1.1\r\nHost: a.com\r\nHost: a.com\r\n\r\n",
              HG_HEAD_R_DUPLICATE_HOST);
  expect_deny("GET / HTTP/1.1\r\nHost: a.com\r\nhost: evil.com\r\n\r\n",
              HG_HEAD_R_DUPLICATE_HOST);
  /* row 10: IP literals in every notation */
  const char *lits[] = {
      "127.0.0.1",       "2130706433",      "0177.0.0.1",        "0x7f.1",
      "127.1:80",        "[::1]",           "[::1]:80",          "::1",
      "169.254.169.254", "0x7f000001:8080", "[::ffff:127.0.0.1]"};
  for (size_t i = 0; i < sizeof(lits) / sizeof(lits[0]); i++) {
    char r[256];
    snprintf(r, sizeof(r), "GET / HTTP/1.1\r\nHost: %s\r\n\r\n", lits[i]);
    expect_deny(r, HG_HEAD_R_IP_LITERAL);
  }
  /* row 23: allowed@evil */
  expect_deny("GET / HTTP/1.1\r\nHost: allowed.com@evil.com\r\n\r\n", HG_HEAD_R_USERINFO);
  const char *bad[] = {"",          "a.com:",  "a.com:0",  "a.com:65536",
                       "a.com:080", "a_b.com", "a.com:8o", "a..com",
                       "a.com:1:2", "-a.com",  "a.com/x",  "a.com:123456"};
  for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
    char r[256];
    snprintf(r, sizeof(r), "GET / HTTP/1.1\r\nHost: %s\r\n\r\n", bad[i]);
    expect_deny(r, HG_HEAD_R_BAD_HOST);
  }
}

static void absolute_form_must_match_host(void **state) {
  assert_int_equal(
      parse_s(
          "GET http://API.example.com/v1?x HTTP/1.1\r\nHost: api.example.com\r\n\r\n"),
      HG_HEAD_OK);
  assert_int_equal(H.form, HG_HEAD_ABSOLUTE);
  assert_string_equal(H.host, "api.example.com");
  assert_int_equal(parse_s("GET HTTP://a.com:80 HTTP/1.1\r\nHost: a.com\r\n\r\n"),
                   HG_HEAD_OK);
  assert_int_equal(parse_s("GET http://a.com?q HTTP/1.1\r\nHost: a.com:80\r\n\r\n"),
                   HG_HEAD_OK);
  expect_deny("GET http://evil.com/ HTTP/1.1\r\nHost: allowed.com\r\n\r\n",
              HG_HEAD_R_HOST_MISMATCH);
  expect_deny("GET http://allowed.com:8080/ HTTP/1.1\r\nHost: allowed.com\r\n\r\n",
              HG_HEAD_R_HOST_MISMATCH);
  expect_deny("GET http://allowed.com/ HTTP/1.1\r\nHost: allowed.com:81\r\n\r\n",
              HG_HEAD_R_HOST_MISMATCH);
  expect_deny("GET http://allowed.com@evil.com/ HTTP/1.1\r\nHost: allowed.com\r\n\r\n",
              HG_HEAD_R_USERINFO);
  expect_deny("GET http://user:pw@allowed.com/ HTTP/1.1\r\nHost: allowed.com\r\n\r\n",
              HG_HEAD_R_USERINFO);
  expect_deny("GET http://2130706433/ HTTP/1.1\r\nHost: allowed.com\r\n\r\n",
              HG_HEAD_R_IP_LITERAL);
  expect_deny("GET http://[::1]/ HTTP/1.1\r\nHost: allowed.com\r\n\r\n",
              HG_HEAD_R_IP_LITERAL);
  expect_deny("GET http://allowed.com\\@evil.com/ HTTP/1.1\r\nHost: allowed.com\r\n\r\n",
              HG_HEAD_R_BAD_TARGET);
  expect_deny("GET http://allowed.com#@evil.com/ HTTP/1.1\r\nHost: allowed.com\r\n\r\n",
              HG_HEAD_R_BAD_TARGET);
  expect_deny("GET https://allowed.com/ HTTP/1.1\r\nHost: allowed.com\r\n\r\n",
              HG_HEAD_R_BAD_TARGET);
  expect_deny("GET ftp://allowed.com/ HTTP/1.1\r\nHost: allowed.com\r\n\r\n",
              HG_HEAD_R_BAD_TARGET);
  expect_deny("GET http:/// HTTP/1.1\r\nHost: allowed.com\r\n\r\n", HG_HEAD_R_BAD_HOST);
  expect_deny("GET allowed.com/ HTTP/1.1\r\nHost: allowed.com\r\n\r\n",
              HG_HEAD_R_BAD_TARGET);
}

static void connect_is_its_own_verdict(void **state) {
  assert_int_equal(
      parse_s("CONNECT allowed.com:22 HTTP/1.1\r\nHost: allowed.com:22\r\n\r\n"),
      HG_HEAD_CONNECT);
  assert_int_equal(H.reason, HG_HEAD_R_CONNECT);
  assert_int_equal(H.form, HG_HEAD_AUTHORITY);
  assert_string_equal(H.host, "allowed.com");
  assert_int_equal(H.port, 22);
  /* even without Host or with junk fields: CONNECT is refused as such */
  assert_int_equal(parse_s("CONNECT [::1]:443 HTTP/1.1\r\nbad field\r\n\r\n"),
                   HG_HEAD_CONNECT);
  assert_string_equal(H.host, "");
  assert_int_equal(H.port, 0);
}

static void syntax_is_strict(void **state) {
  expect_deny("GET / HTTP/1.1\r\nHost: a.com\r\nX-A: 1\r\n  folded\r\n\r\n",
              HG_HEAD_R_OBS_FOLD);
  expect_deny("GET / HTTP/1.1\r\n Host: a.com\r\n\r\n", HG_HEAD_R_OBS_FOLD);
  expect_deny("GET / HTTP/1.1\nHost: a.com\r\n\r\n", HG_HEAD_R_BAD_LINE_END);
  expect_deny("GET / HTTP/1.1\r\nHost: a.com\n\r\n", HG_HEAD_R_BAD_LINE_END);
  expect_deny("GET / HTTP/1.1\r\nHost: a.com\r\n\n", HG_HEAD_R_BAD_LINE_END);
  expect_deny("GET / HTTP/1.1\r\nHost: a.com\rX: y\r\n\r\n", HG_HEAD_R_BAD_LINE_END);
  expect_deny("GET / HTTP/1.1\r\nX: a\rb\r\nHost: a.com\r\n\r\n", HG_HEAD_R_BAD_LINE_END);
  expect_deny("\r\nGET / HTTP/1.1\r\nHost: a.com\r\n\r\n", HG_HEAD_R_BAD_METHOD);
  expect_deny("GET / HTTP/1.1\r\nHost: a.com\r\nX: \x01\r\n\r\n", HG_HEAD_R_BAD_FIELD);
  expect_deny("GET / HTTP/1.1\r\nHost: a.com\r\nX: a\x7f\r\n\r\n", HG_HEAD_R_BAD_FIELD);
  expect_deny("GET / HTTP/1.1\r\nHost: a.com\r\nX(y): 1\r\n\r\n", HG_HEAD_R_BAD_FIELD);
  expect_deny("GET / HTTP/1.1\r\nHost: a.com\r\n: 1\r\n\r\n", HG_HEAD_R_BAD_FIELD);
  expect_deny("GET / HTTP/1.1\r\nHost: a.com\r\nNoColon\r\n\r\n", HG_HEAD_R_BAD_FIELD);
  expect_deny("GET / HTTP/1.1\r\nHost: a.com\r\nX\xc3\xa9: 1\r\n\r\n",
              HG_HEAD_R_BAD_FIELD);
  expect_deny("GET  / HTTP/1.1\r\nHost: a.com\r\n\r\n", HG_HEAD_R_BAD_TARGET);
  expect_deny("GET / HTTP/1.1 \r\nHost: a.com\r\n\r\n", HG_HEAD_R_BAD_VERSION);
  expect_deny("GET /a b HTTP/1.1\r\nHost: a.com\r\n\r\n", HG_HEAD_R_BAD_VERSION);
  expect_deny("GET /\xc3\xa9 HTTP/1.1\r\nHost: a.com\r\n\r\n", HG_HEAD_R_BAD_TARGET);
  expect_deny("GET /\r\nHost: a.com\r\n\r\n", HG_HEAD_R_BAD_TARGET);
  expect_deny("GET / HTTP/2.0\r\nHost: a.com\r\n\r\n", HG_HEAD_R_BAD_VERSION);
  expect_deny("GET / http/1.1\r\nHost: a.com\r\n\r\n", HG_HEAD_R_BAD_VERSION);
  expect_deny("GET / HTTP/1.10\r\nHost: a.com\r\n\r\n", HG_HEAD_R_BAD_VERSION);
  expect_deny("PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n", HG_HEAD_R_BAD_VERSION);
  expect_deny("G\x01T / HTTP/1.1\r\n\r\n", HG_HEAD_R_BAD_METHOD);
  expect_deny("GET\r\n\r\n", HG_HEAD_R_BAD_METHOD);
  expect_deny(" GET / HTTP/1.1\r\n\r\n", HG_HEAD_R_BAD_METHOD);
  expect_deny("ABCDEFGHIJKLMNOPQRSTUVWXYZABCDEFG / HTTP/1.1\r\n", HG_HEAD_R_BAD_METHOD);
  assert_int_equal(
      parse_s("ABCDEFGHIJKLMNOPQRSTUVWXYZABCDEF / HTTP/1.1\r\nHost: a.com\r\n\r\n"),
      HG_HEAD_OK); /* 32 is the limit */
  assert_int_equal(parse("GET / HTTP/1.1\r\nHost: a.com\r\nX: a\0b\r\n\r\n", 39),
                   HG_HEAD_DENY);
  assert_int_equal(H.reason, HG_HEAD_R_NUL);
  assert_int_equal(parse("\0", 1), HG_HEAD_DENY);
  assert_int_equal(H.reason, HG_HEAD_R_NUL);
}

static void non_http_is_refused_on_the_first_bytes(void **state) {
  /* row 25: TLS on port 80, judged on one byte */
  hg_httphead_init(&H);
  assert_int_equal(hg_httphead_parse(&H, "\x16", 1), HG_HEAD_DENY);
  assert_int_equal(H.reason, HG_HEAD_R_TLS);
  assert_string_equal(hg_head_reason_str(H.reason), "tls");
  /* SSH and binary junk: refused at the first byte that cannot be a method */
  hg_httphead_init(&H);
  assert_int_equal(hg_httphead_parse(&H, "SSH-2.0-OpenSSH_9.2\r\n", 21), HG_HEAD_DENY);
  assert_int_equal(H.reason, HG_HEAD_R_BAD_METHOD);
  hg_httphead_init(&H);
  assert_int_equal(hg_httphead_parse(&H, "\x80\x01", 2), HG_HEAD_DENY);
  assert_int_equal(H.reason, HG_HEAD_R_BAD_METHOD);
  /* the verdict stands */
  assert_int_equal(hg_httphead_parse(&H, "GET / HTTP/1.1\r\nHost: a\r\n\r\n", 27),
                   HG_HEAD_DENY);
}

static void limits(void **state) {
  /* 16 KiB exactly is fine, one more byte is not */
  static char r[HG_HEAD_MAX + 64];
  const char *pre = "GET / HTTP/1.1\r\nHost: a.com\r\nX: ";
  size_t n = strlen(pre);
  memcpy(r, pre, n);
  memset(r + n, 'v', HG_HEAD_MAX - n - 4);
  memcpy(r + HG_HEAD_MAX - 4, "\r\n\r\n", 4);
  assert_int_equal(parse(r, HG_HEAD_MAX), HG_HEAD_OK);
  assert_int_equal(H.head_len, HG_HEAD_MAX);
  memset(r + n, 'v', HG_HEAD_MAX - n - 3);
  memcpy(r + HG_HEAD_MAX - 3, "\r\n\r\n", 4);
  assert_int_equal(parse(r, HG_HEAD_MAX + 1), HG_HEAD_DENY);
  assert_int_equal(H.reason, HG_HEAD_R_TOO_LARGE);
  /* a slowloris head never ends: denied at the cap, not buffered forever */
  memset(r, 'a', sizeof(r));
  memcpy(r, "GET / HTTP/1.1\r\nX: ", 19);
  hg_httphead_init(&H);
  assert_int_equal(hg_httphead_parse(&H, r, HG_HEAD_MAX - 1), HG_HEAD_NEED_MORE);
  assert_int_equal(hg_httphead_parse(&H, r, HG_HEAD_MAX), HG_HEAD_DENY);
  assert_int_equal(H.reason, HG_HEAD_R_TOO_LARGE);

  /* 100 fields, then 101 */
  size_t len = 0;
  len += (size_t)sprintf(r + len, "GET / HTTP/1.1\r\nHost: a.com\r\n");
  for (int i = 1; i < HG_HEAD_MAX_FIELDS; i++)
    len += (size_t)sprintf(r + len, "X-%d: %d\r\n", i, i);
  memcpy(r + len, "\r\n", 3);
  assert_int_equal(parse(r, len + 2), HG_HEAD_OK);
  assert_int_equal(H.nfields, HG_HEAD_MAX_FIELDS);
  len += (size_t)sprintf(r + len, "X-last: 1\r\n\r\n");
  assert_int_equal(parse(r, len), HG_HEAD_DENY);
  assert_int_equal(H.reason, HG_HEAD_R_TOO_MANY_FIELDS);

  /* field names up to 256 bytes */
  len = (size_t)sprintf(r, "GET / HTTP/1.1\r\nHost: a.com\r\n");
  memset(r + len, 'n', 256);
  len += 256;
  len += (size_t)sprintf(r + len, ": v\r\n\r\n");
  assert_int_equal(parse(r, len), HG_HEAD_OK);
  len = (size_t)sprintf(r, "GET / HTTP/1.1\r\nHost: a.com\r\n");
  memset(r + len, 'n', 257);
  len += 257;
  len += (size_t)sprintf(r + len, ": v\r\n\r\n");
  assert_int_equal(parse(r, len), HG_HEAD_DENY);
  assert_int_equal(H.reason, HG_HEAD_R_BAD_FIELD);
}

static void keep_alive_requests_each_get_their_host(void **state) {
  /* row 5: the second request on the connection names another host; the
   * proxy sees it because every head is read again */
  const char *conn =
      "POST /a HTTP/1.1\r\nHost: allowed.com\r\nContent-Length: 5\r\n\r\nhello"
      "GET /b HTTP/1.1\r\nHost: evil.com\r\n\r\n";
  hg_httphead_init(&H);
  assert_int_equal(hg_httphead_parse(&H, conn, strlen(conn)), HG_HEAD_OK);
  assert_string_equal(H.host, "allowed.com");
  assert_int_equal(H.body, HG_HEAD_BODY_LENGTH);
  const char *next = conn + H.head_len + H.content_length;
  assert_memory_equal(next, "GET /b", 6);
  hg_httphead_reset(&H);
  assert_int_equal(hg_httphead_parse(&H, next, strlen(next)), HG_HEAD_OK);
  assert_string_equal(H.host, "evil.com");
}

static void rebuild_replaces_one_field(void **state) {
  const char *r =
      "POST /v1/chat HTTP/1.1\r\nHost: api.example.com\r\n"
      "Authorization: Bearer HANGAR_SECRET_1\r\nX-Trace: abc\r\nContent-Length: "
      "2\r\n\r\n{}";
  static char out[HG_HEAD_MAX];
  size_t n;
  assert_int_equal(parse_s(r), HG_HEAD_OK);
  int i = hg_httphead_find(&H, r, "authorization", 0);
  assert_int_equal(i, 1);
  const char *real = "Bearer sk-live-123";
  hg_head_edit e[2] = {{(size_t)i, real, strlen(real)}, {2, NULL, 0}};
  assert_int_equal(hg_httphead_rebuild(&H, r, e, 2, out, sizeof(out), &n), 0);
  const char *want =
      "POST /v1/chat HTTP/1.1\r\nHost: api.example.com\r\n"
      "Authorization: Bearer sk-live-123\r\nContent-Length: 2\r\n\r\n";
  assert_int_equal(n, strlen(want));
  assert_memory_equal(out, want, n);
  /* the result is a head this reader accepts */
  hg_httphead h2;
  hg_httphead_init(&h2);
  assert_int_equal(hg_httphead_parse(&h2, out, n), HG_HEAD_OK);
  assert_int_equal(h2.head_len, n);
  assert_int_equal(h2.content_length, 2);

  /* exactly enough room, then one byte less */
  assert_int_equal(hg_httphead_rebuild(&H, r, e, 2, out, strlen(want), &n), 0);
  assert_int_equal(hg_httphead_rebuild(&H, r, e, 2, out, strlen(want) - 1, &n), -ENOBUFS);
  /* no edits: the head byte for byte */
  assert_int_equal(hg_httphead_rebuild(&H, r, NULL, 0, out, sizeof(out), &n), 0);
  assert_int_equal(n, H.head_len);
  assert_memory_equal(out, r, n);
  /* values that would inject a field, and other misuse */
  const char *inj[] = {"x\r\nEvil: 1", "x\ny", "a\rb", " lead", "trail\t", "\x7f"};
  for (size_t k = 0; k < sizeof(inj) / sizeof(inj[0]); k++) {
    hg_head_edit b = {1, inj[k], strlen(inj[k])};
    assert_int_equal(hg_httphead_rebuild(&H, r, &b, 1, out, sizeof(out), &n), -EINVAL);
  }
  hg_head_edit nul = {1, "a\0b", 3};
  assert_int_equal(hg_httphead_rebuild(&H, r, &nul, 1, out, sizeof(out), &n), -EINVAL);
  hg_head_edit twice[2] = {{1, "a", 1}, {1, "b", 1}};
  assert_int_equal(hg_httphead_rebuild(&H, r, twice, 2, out, sizeof(out), &n), -EINVAL);
  hg_head_edit range = {H.nfields, "a", 1};
  assert_int_equal(hg_httphead_rebuild(&H, r, &range, 1, out, sizeof(out), &n), -EINVAL);
  hg_head_edit tab = {1, "a\tb", 3};
  assert_int_equal(hg_httphead_rebuild(&H, r, &tab, 1, out, sizeof(out), &n), 0);
  hg_httphead_init(&h2);
  assert_int_equal(hg_httphead_rebuild(&h2, r, NULL, 0, out, sizeof(out), &n), -EINVAL);
}

static void truncation_at_every_length(void **state) {
  const char *heads[] = {
      "GET / HTTP/1.1\r\nHost: a.com\r\n\r\n",
      ("POST http://a.com:8080/x?y HTTP/1.1\r\nHost: a.com:8080\r\nContent-Length: 3\r\n"
       "Transfer-Encoding-X: 1\r\n\r\n"),
      "CONNECT a.com:443 HTTP/1.1\r\nHost: a.com:443\r\n\r\n",
      "GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n",
  };
  for (size_t i = 0; i < sizeof(heads) / sizeof(heads[0]); i++)
    expect_prefixes_need_more(heads[i]);
}

static void reason_strings(void **state) {
  assert_string_equal(hg_head_reason_str(HG_HEAD_R_HOST_MISMATCH), "host_mismatch");
  assert_string_equal(hg_head_reason_str(HG_HEAD_R_CL_AND_TE), "cl_and_te");
  assert_string_equal(hg_head_reason_str(HG_HEAD_R_CONNECT), "connect");
  assert_string_equal(hg_head_reason_str((hg_head_reason)1000), "unknown");
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(get_origin_form),
      cmocka_unit_test(host_port_whitespace_and_http10),
      cmocka_unit_test(body_framing),
      cmocka_unit_test(smuggling_framings_are_denied),
      cmocka_unit_test(host_rules),
      cmocka_unit_test(absolute_form_must_match_host),
      cmocka_unit_test(connect_is_its_own_verdict),
      cmocka_unit_test(syntax_is_strict),
      cmocka_unit_test(non_http_is_refused_on_the_first_bytes),
      cmocka_unit_test(limits),
      cmocka_unit_test(keep_alive_requests_each_get_their_host),
      cmocka_unit_test(rebuild_replaces_one_field),
      cmocka_unit_test(truncation_at_every_length),
      cmocka_unit_test(reason_strings),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
