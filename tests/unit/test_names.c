/* gateway/names: hostname rules, allowlist matching, denied ranges. */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "gateway/names.h"

#define IP(a, b, c, d) \
  ((uint32_t)(a) << 24 | (uint32_t)(b) << 16 | (uint32_t)(c) << 8 | (d))

static int norm(const char *s, char out[HG_NAME_MAX + 1]) {
  return hg_name_normalize(s, strlen(s), out);
}

static void name_is_lowercased_and_one_dot_stripped(void **state) {
  char out[HG_NAME_MAX + 1];
  assert_int_equal(norm("API.Example.COM", out), 0);
  assert_string_equal(out, "api.example.com");
  assert_int_equal(norm("api.example.com.", out), 0);
  assert_string_equal(out, "api.example.com");
  assert_int_equal(norm("xn--bcher-kva.example", out), 0);
  assert_string_equal(out, "xn--bcher-kva.example");
  assert_int_equal(norm("localhost", out), 0);
  assert_int_equal(norm("1.2.3.example.com", out), 0); /* numeric labels, not last */
  assert_int_equal(norm("0x7f.example", out), 0);
  assert_int_equal(norm("a-b.c0m", out), 0);
  /* only one dot goes */
  assert_int_equal(norm("api.example.com..", out), -EINVAL);
  assert_int_equal(norm(".", out), -EINVAL);
}

static void name_rejects_non_hostnames(void **state) {
  char out[HG_NAME_MAX + 1];
  strcpy(out, "untouched");
  const char *bad[] = {"",
                       "a..b",
                       ".a.com",
                       "a_b.com",
                       "a b.com",
                       "a.com/x",
                       "a.com:443",
                       "-a.com",
                       "a-.com",
                       "a.-b.com",
                       "caf\xc3\xa9.com",
                       "a%2e.com",
                       "allowed.com@evil.com",
                       "*.a.com",
                       "a.com\\",
                       "a\tb"};
  for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
    int rc = norm(bad[i], out);
    if (rc != -EINVAL) fail_msg("%s: %d", bad[i], rc);
  }
  /* NUL inside the given length */
  assert_int_equal(hg_name_normalize("a.com\0.evil", 11, out), -EINVAL);
  assert_int_equal(hg_name_normalize("a\0", 2, out), -EINVAL);
  assert_string_equal(out, "untouched"); /* out only written on success */
}

static void name_label_and_total_limits(void **state) {
  char in[400], out[HG_NAME_MAX + 1];
  memset(in, 'a', 63);
  strcpy(in + 63, ".com");
  assert_int_equal(norm(in, out), 0);
  memset(in, 'a', 64);
  strcpy(in + 64, ".com");
  assert_int_equal(norm(in, out), -EINVAL);
  /* 253 = 4 labels: 63+1+63+1+63+1+61 */
  size_t n = 0;
  for (int l = 0; l < 4; l++) {
    size_t len = l < 3 ? 63 : 61;
    memset(in + n, 'b', len);
    n += len;
    if (l < 3) in[n++] = '.';
  }
  in[n] = '\0';
  assert_int_equal(strlen(in), 253);
  assert_int_equal(norm(in, out), 0);
  assert_int_equal(strlen(out), 253);
  in[n] = '.'; /* 254 with the trailing dot is still 253 */
  in[n + 1] = '\0';
  assert_int_equal(norm(in, out), 0);
  in[n] = 'b';
  assert_int_equal(norm(in, out), -ENAMETOOLONG);
  memset(in, 'c', 300);
  in[300] = '\0';
  assert_int_equal(norm(in, out), -ENAMETOOLONG);
}

static void name_ip_literals_in_every_notation(void **state) {
  char out[HG_NAME_MAX + 1];
  const char *lit[] = {"127.0.0.1",
                       "127.0.0.1.",
                       "2130706433",
                       "0177.0.0.1",
                       "0x7f.1",
                       "0x7F000001",
                       "127.1",
                       "127.0.1",
                       "0x7f.0.0.1",
                       "1.2.3.4.5",
                       "example.0x",
                       "example.123",
                       "0",
                       "00",
                       "0X",
                       "[::1]",
                       "::1",
                       "fe80::1",
                       "::ffff:127.0.0.1",
                       "[fe80::1%25eth0]",
                       "169.254.169.254"};
  for (size_t i = 0; i < sizeof(lit) / sizeof(lit[0]); i++) {
    int rc = norm(lit[i], out);
    if (rc != -EAFNOSUPPORT) fail_msg("%s: %d", lit[i], rc);
  }
}

static void ipv4_parse_is_strict_dotted_quad(void **state) {
  uint32_t ip;
  assert_int_equal(hg_ipv4_parse("203.0.113.7", 11, &ip), 0);
  assert_int_equal(ip, IP(203, 0, 113, 7));
  assert_int_equal(hg_ipv4_parse("0.0.0.0", 7, &ip), 0);
  assert_int_equal(ip, 0);
  assert_int_equal(hg_ipv4_parse("255.255.255.255", 15, &ip), 0);
  assert_int_equal(ip, 0xffffffffu);
  const char *bad[] = {"256.0.0.1", "1.2.3",  "1.2.3.4.5", "01.2.3.4", "1.2.3.4 ",
                       "0x1.2.3.4", "1..3.4", "",          "1.2.3.-4", "1234.1.1.1"};
  for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
    if (hg_ipv4_parse(bad[i], strlen(bad[i]), &ip) != -EINVAL) fail_msg("%s", bad[i]);
}

static void cidr_parse_and_contains(void **state) {
  hg_cidr c;
  assert_int_equal(hg_cidr_parse("10.0.0.0/8", 10, &c), 0);
  assert_true(hg_cidr_contains(&c, IP(10, 255, 1, 2)));
  assert_false(hg_cidr_contains(&c, IP(11, 0, 0, 0)));
  assert_int_equal(hg_cidr_parse("0.0.0.0/0", 9, &c), 0);
  assert_true(hg_cidr_contains(&c, IP(8, 8, 8, 8)));
  assert_int_equal(hg_cidr_parse("1.2.3.4", 7, &c), 0);
  assert_int_equal(c.mask, 0xffffffffu);
  assert_true(hg_cidr_contains(&c, IP(1, 2, 3, 4)));
  assert_false(hg_cidr_contains(&c, IP(1, 2, 3, 5)));
  const char *bad[] = {"10.0.0.1/8",  "10.0.0.0/33", "10.0.0.0/",
                       "10.0.0.0/08", "10/8",        "10.0.0.0/8x"};
  for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
    if (hg_cidr_parse(bad[i], strlen(bad[i]), &c) != -EINVAL) fail_msg("%s", bad[i]);
}

static int allow(const hg_allow *a, const char *name) {
  return hg_allow_name(a, name, strlen(name));
}

static void allow_exact_and_wildcard_names(void **state) {
  const char *entries[] = {"api.example.com", "*.pypi.org", "Files.Example.NET."};
  hg_allow *a;
  assert_int_equal(hg_allow_parse(entries, 3, &a, NULL), 0);
  assert_int_equal(hg_allow_count(a), 3);
  assert_true(allow(a, "api.example.com"));
  assert_true(allow(a, "API.EXAMPLE.COM."));
  assert_false(allow(a, "example.com"));
  assert_false(allow(a, "x.api.example.com")); /* exact is exact */
  assert_false(allow(a, "api.example.com.evil.com"));
  assert_true(allow(a, "files.pypi.org"));
  assert_true(allow(a, "a.b.c.pypi.org"));
  assert_false(allow(a, "pypi.org")); /* not the apex */
  assert_false(allow(a, "evilpypi.org"));
  assert_false(allow(a, ".pypi.org"));
  assert_false(allow(a, "pypi.org.evil.com"));
  assert_true(allow(a, "files.example.net"));
  /* names the rules refuse are never allowed */
  assert_false(hg_allow_name(a, "files.pypi.org\0.evil", 20));
  assert_false(hg_allow_name(a, "api.example.com\0x", 17));
  assert_false(allow(a, "files_x.pypi.org"));
  assert_false(hg_allow_name(NULL, "api.example.com", 15));
  hg_allow_free(a);
}

static void allow_cidr_port_entries(void **state) {
  hg_allow *a;
  assert_int_equal(hg_allow_new(&a), 0);
  assert_int_equal(hg_allow_add(a, "203.0.113.0/24:5432", 19), 0);
  assert_int_equal(hg_allow_add(a, "198.51.100.7:22", 15), 0);
  assert_true(hg_allow_addr(a, IP(203, 0, 113, 200), 5432));
  assert_false(hg_allow_addr(a, IP(203, 0, 113, 200), 5433));
  assert_false(hg_allow_addr(a, IP(203, 0, 114, 1), 5432));
  assert_true(hg_allow_addr(a, IP(198, 51, 100, 7), 22));
  assert_false(hg_allow_addr(a, IP(198, 51, 100, 8), 22));
  /* address entries are not names, and names do not allow addresses */
  assert_false(allow(a, "203.0.113.1"));
  assert_false(hg_allow_addr(NULL, IP(198, 51, 100, 7), 22));
  hg_allow_free(a);
}

static void allow_rejects_bad_entries(void **state) {
  hg_allow *a;
  assert_int_equal(hg_allow_new(&a), 0);
  const char *bad[] = {"*",
                       "*.",
                       "*example.com",
                       "a.*.com",
                       "*.*.com",
                       "1.2.3.4",
                       "127.1",
                       "[::1]:80",
                       "10.0.0.0/8",
                       "10.0.0.0/8:0",
                       "1.2.3.4:65536",
                       "1.2.3.4:",
                       "1.2.3.4:22x",
                       "10.0.0.1/8:22",
                       "a b",
                       "",
                       "*.1.2.3.4",
                       "http://a.com"};
  for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
    if (hg_allow_add(a, bad[i], strlen(bad[i])) != -EINVAL) fail_msg("%s", bad[i]);
  assert_int_equal(hg_allow_count(a), 0);
  hg_allow_free(a);

  const char *entries[] = {"ok.com", "bad..com"};
  size_t at = 99;
  a = NULL;
  assert_int_equal(hg_allow_parse(entries, 2, &a, &at), -EINVAL);
  assert_int_equal(at, 1);
  assert_null(a);
}

static void allow_is_bounded_and_dedups(void **state) {
  hg_allow *a;
  char e[32];
  assert_int_equal(hg_allow_new(&a), 0);
  assert_int_equal(hg_allow_add(a, "a.com", 5), 0);
  assert_int_equal(hg_allow_add(a, "A.COM.", 6), 0);
  assert_int_equal(hg_allow_add(a, "*.a.com", 7), 0); /* a different entry */
  assert_int_equal(hg_allow_add(a, "1.2.3.4:80", 10), 0);
  assert_int_equal(hg_allow_add(a, "1.2.3.4/32:80", 13), 0);
  assert_int_equal(hg_allow_count(a), 3);
  for (int i = 3; i < HG_ALLOW_MAX; i++) {
    int n = snprintf(e, sizeof(e), i % 2 ? "h%d.com" : "10.%d.0.0/16:443", i);
    assert_int_equal(hg_allow_add(a, e, (size_t)n), 0);
  }
  assert_int_equal(hg_allow_count(a), HG_ALLOW_MAX);
  assert_int_equal(hg_allow_add(a, "one-more.com", 12), -ENOSPC);
  assert_int_equal(hg_allow_add(a, "9.9.9.9:53", 10), -ENOSPC);
  assert_int_equal(hg_allow_add(a, "a.com", 5), 0); /* present already */
  assert_true(allow(a, "h255.com"));
  assert_true(hg_allow_addr(a, IP(10, 254, 3, 4), 443));
  hg_allow_free(a);
  hg_allow_free(NULL);
}

static void denied_builtin_ranges(void **state) {
  const uint32_t denied[] = {
      IP(0, 0, 0, 0),         IP(0, 255, 255, 255),   IP(10, 0, 0, 1),
      IP(10, 255, 255, 255),  IP(100, 64, 0, 0),      IP(100, 127, 255, 255),
      IP(127, 0, 0, 1),       IP(127, 255, 0, 1),     IP(169, 254, 169, 254),
      IP(169, 254, 0, 1),     IP(172, 16, 0, 0),      IP(172, 31, 255, 255),
      IP(192, 168, 0, 1),     IP(192, 168, 255, 255), IP(224, 0, 0, 1),
      IP(239, 255, 255, 250), IP(240, 0, 0, 1),       IP(255, 255, 255, 255)};
  const uint32_t open[] = {
      IP(1, 1, 1, 1),         IP(8, 8, 8, 8),        IP(9, 255, 255, 255),
      IP(11, 0, 0, 0),        IP(100, 63, 255, 255), IP(100, 128, 0, 0),
      IP(126, 255, 255, 255), IP(128, 0, 0, 0),      IP(169, 253, 0, 1),
      IP(169, 255, 0, 0),     IP(172, 15, 255, 255), IP(172, 32, 0, 0),
      IP(192, 167, 255, 255), IP(192, 169, 0, 0),    IP(203, 0, 113, 5),
      IP(223, 255, 255, 255)};
  for (size_t i = 0; i < sizeof(denied) / sizeof(denied[0]); i++)
    if (!hg_addr_denied(NULL, denied[i])) fail_msg("%08x should be denied", denied[i]);
  for (size_t i = 0; i < sizeof(open) / sizeof(open[0]); i++)
    if (hg_addr_denied(NULL, open[i])) fail_msg("%08x should be open", open[i]);
}

static void denied_extra_ranges_add_to_builtin(void **state) {
  hg_denylist d;
  hg_denylist_init(&d);
  assert_false(hg_addr_denied(&d, IP(198, 18, 0, 1)));
  assert_int_equal(hg_denylist_add(&d, "198.18.0.0/15", 13), 0);
  assert_true(hg_addr_denied(&d, IP(198, 19, 255, 255)));
  assert_false(hg_addr_denied(&d, IP(198, 20, 0, 0)));
  assert_true(hg_addr_denied(&d, IP(127, 0, 0, 1))); /* built-ins stay */
  assert_int_equal(hg_denylist_add(&d, "198.18.0.1/15", 13), -EINVAL);
  assert_int_equal(hg_denylist_add(&d, "nope", 4), -EINVAL);
  for (int i = 1; i < HG_DENY_MAX; i++) {
    char c[32];
    int n = snprintf(c, sizeof(c), "203.0.%d.0/24", i);
    assert_int_equal(hg_denylist_add(&d, c, (size_t)n), 0);
  }
  assert_int_equal(hg_denylist_add(&d, "8.8.8.8", 7), -ENOSPC);
  assert_true(hg_addr_denied(&d, IP(203, 0, 63, 9)));
  assert_false(hg_addr_denied(&d, IP(203, 0, 64, 9)));
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(name_is_lowercased_and_one_dot_stripped),
      cmocka_unit_test(name_rejects_non_hostnames),
      cmocka_unit_test(name_label_and_total_limits),
      cmocka_unit_test(name_ip_literals_in_every_notation),
      cmocka_unit_test(ipv4_parse_is_strict_dotted_quad),
      cmocka_unit_test(cidr_parse_and_contains),
      cmocka_unit_test(allow_exact_and_wildcard_names),
      cmocka_unit_test(allow_cidr_port_entries),
      cmocka_unit_test(allow_rejects_bad_entries),
      cmocka_unit_test(allow_is_bounded_and_dedups),
      cmocka_unit_test(denied_builtin_ranges),
      cmocka_unit_test(denied_extra_ranges_add_to_builtin),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
