/* fuzz_dns: arbitrary bytes as a guest's DNS query and as an upstream
 * answer, plus the name and allowlist rules on the raw bytes.
 * Checks: a parsed query's answer reads back (A records, same addresses),
 * NODATA/NXDOMAIN/REFUSED build for any query, error answers build for any
 * header, upstream answers never yield more than HG_DNS_MAX_ADDRS or
 * addresses with a non-NOERROR rcode, names normalise idempotently.
 *
 *   fuzz_dns -max_total_time=20 corpus/ seeds/dns/
 */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "gateway/dns.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void query_side(const uint8_t *data, size_t size) {
  hg_dns_query q;
  uint8_t out[1024];
  size_t n;
  int rc = hg_dns_parse_query(data, size, &q);
  if (rc == -EPROTO || rc == -ENOTSUP) {
    if (hg_dns_build_error(data, size, rc == -EPROTO ? HG_DNS_FORMERR : HG_DNS_NOTIMP,
                           out, sizeof(out), &n) != 0 ||
        n != HG_DNS_HEADER)
      __builtin_trap();
    return;
  }
  if (rc < 0) return;
  if (q.name_err == 0) {
    char again[HG_NAME_MAX + 1];
    if (hg_name_normalize(q.name, strlen(q.name), again) != 0 || strcmp(again, q.name))
      __builtin_trap();
  }
  const int rcodes[] = {HG_DNS_NOERROR, HG_DNS_NXDOMAIN, HG_DNS_REFUSED};
  for (int i = 0; i < 3; i++)
    if (hg_dns_build_answer(&q, rcodes[i], NULL, 0, 0, out, sizeof(out), &n) != 0)
      __builtin_trap();
  if (q.qtype != HG_DNS_T_A || q.qclass != HG_DNS_C_IN || q.name_err != 0) return;
  const uint32_t ips[3] = {0x01020304u, 0x05060708u, 0x01020304u + q.id};
  if (hg_dns_build_answer(&q, HG_DNS_NOERROR, ips, 3, 77, out, sizeof(out), &n) != 0)
    __builtin_trap();
  hg_dns_result r;
  if (hg_dns_parse_response(out, n, q.id, q.name, &r) != 0 || r.rcode != 0 || r.n < 2 ||
      r.ips[0] != ips[0] || r.ips[1] != ips[1] || r.ttl != 77)
    __builtin_trap();
}

static void response_side(const uint8_t *data, size_t size) {
  hg_dns_result r;
  uint16_t id = size >= 2 ? (uint16_t)(data[0] << 8 | data[1]) : 0;
  const char *names[] = {"a.com", "www.example.com"};
  for (int i = 0; i < 2; i++) {
    if (hg_dns_parse_response(data, size, id, names[i], &r) != 0) continue;
    if (r.n > HG_DNS_MAX_ADDRS || (r.n > 0 && r.rcode != 0) || (r.n == 0 && r.ttl != 0) ||
        r.ttl > HG_DNS_MAX_TTL)
      __builtin_trap();
  }
}

static void names_side(const uint8_t *data, size_t size) {
  char out[HG_NAME_MAX + 1], again[HG_NAME_MAX + 1], text[300];
  if (hg_name_normalize((const char *)data, size, out) == 0) {
    if (hg_name_normalize(out, strlen(out), again) != 0 || strcmp(out, again))
      __builtin_trap();
  }
  hg_allow *a;
  if (hg_allow_new(&a) == 0) {
    if (hg_allow_add(a, (const char *)data, size) == 0 && hg_allow_count(a) == 1 &&
        size > 0 && data[0] != '*' && !memchr(data, ':', size) &&
        !hg_allow_name(a, (const char *)data, size))
      __builtin_trap(); /* an exact entry allows itself */
    hg_allow_free(a);
  }
  hg_cidr c;
  (void)hg_cidr_parse((const char *)data, size, &c);
  hg_dns_name_text(data, size, text, sizeof(text));
  if (strlen(text) >= sizeof(text)) __builtin_trap();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  uint8_t *copy = malloc(size ? size : 1);
  if (!copy) return 0;
  memcpy(copy, data, size);
  query_side(copy, size);
  response_side(copy, size);
  names_side(copy, size);
  free(copy);
  return 0;
}
