/* dns: the DNS messages of the gateway's responder (RFC 1035): queries from
 * the guest in, answers to the guest out, and the gateway's own upstream
 * queries and the answers it gets back. Plus a token bucket to rate-limit
 * a sandbox's queries.
 *
 * Everything is bounded: names are at most 255 wire bytes with labels of at
 * most 63, compression pointers must point strictly before the name that
 * uses them and at most HG_DNS_MAX_HOPS are followed, a CNAME chain at most
 * HG_DNS_MAX_CNAME long, at most HG_DNS_MAX_RR answer records looked at and
 * HG_DNS_MAX_ADDRS addresses kept. Pure functions, no I/O; over TCP the
 * caller strips and adds the 2-byte length itself.
 *
 * Policy is the responder's: the parser reports whether the question is a
 * hostname the allowlist may judge (name_err); a name with non-LDH bytes -
 * a tunnel's encoded label - never is.
 */
#ifndef HG_GATEWAY_DNS_H
#define HG_GATEWAY_DNS_H

#include <stddef.h>
#include <stdint.h>

#include "gateway/names.h"

#define HG_DNS_HEADER 12
#define HG_DNS_MAX_NAME 255   /* wire bytes, root label included */
#define HG_DNS_MAX_HOPS 16    /* compression pointers followed in one name */
#define HG_DNS_MAX_CNAME 8    /* CNAMEs followed from the question */
#define HG_DNS_MAX_RR 64      /* answer records examined in a response */
#define HG_DNS_MAX_ADDRS 16   /* A records kept from a response */
#define HG_DNS_MAX_TTL 86400  /* TTLs above this are cut to it */
#define HG_DNS_UDP_MIN 512    /* RFC 1035 4.2.1 */
#define HG_DNS_EDNS_SIZE 1232 /* what we advertise: no fragmentation */

enum {
  HG_DNS_NOERROR = 0,
  HG_DNS_FORMERR = 1,
  HG_DNS_SERVFAIL = 2,
  HG_DNS_NXDOMAIN = 3,
  HG_DNS_NOTIMP = 4,
  HG_DNS_REFUSED = 5,
};

enum {
  HG_DNS_T_A = 1,
  HG_DNS_T_NS = 2,
  HG_DNS_T_CNAME = 5,
  HG_DNS_T_SOA = 6,
  HG_DNS_T_PTR = 12,
  HG_DNS_T_MX = 15,
  HG_DNS_T_TXT = 16,
  HG_DNS_T_AAAA = 28,
  HG_DNS_T_SRV = 33,
  HG_DNS_T_OPT = 41,
  HG_DNS_T_SVCB = 64,
  HG_DNS_T_HTTPS = 65,
  HG_DNS_T_ANY = 255,
  HG_DNS_C_IN = 1,
};

typedef struct hg_dns_query {
  uint16_t id;
  uint16_t flags; /* second header word as received (RD is 0x0100) */
  uint16_t qtype, qclass;
  uint8_t qname[HG_DNS_MAX_NAME]; /* uncompressed wire form, case as sent */
  size_t qname_len;
  /* normalised hostname, when name_err is 0; else "" and name_err holds
   * hg_name_normalize()'s error (-EINVAL for a label with a '.', NUL or
   * any other non-LDH byte, and for the root) */
  char name[HG_NAME_MAX + 1];
  int name_err;
  int edns;          /* an OPT record came */
  uint16_t udp_size; /* largest UDP answer the client takes: >= 512 */
} hg_dns_query;

/* Reads one query. 0, or:
 *   -EMSGSIZE  shorter than a header (drop it: nothing to answer)
 *   -EBADMSG   QR set: a response, not a query (drop it)
 *   -ENOTSUP   an opcode other than QUERY (answer NOTIMP)
 *   -EPROTO    anything else malformed: question count not 1, answer or
 *              authority records, a bad name, truncated records, two OPTs,
 *              bytes after the last record (answer FORMERR)
 * q is written only on success. */
int hg_dns_parse_query(const uint8_t *msg, size_t len, hg_dns_query *q);

/* An answer to q: header (id, RD copied, QR and RA set), the question as
 * received, then n A records for it with ttl (capped at HG_DNS_MAX_TTL),
 * and an OPT record when the query had one. rcode NOERROR with n == 0 is
 * NODATA; any other rcode must come with n == 0. -EINVAL for that or an
 * unknown rcode, -ENOBUFS when it does not fit cap (callers answering over
 * UDP pass min(their buffer, q->udp_size)). */
int hg_dns_build_answer(const hg_dns_query *q, int rcode, const uint32_t *ips, size_t n,
                        uint32_t ttl, uint8_t *out, size_t cap, size_t *out_len);

/* A header-only answer (FORMERR, NOTIMP) to a message that did not parse:
 * the id, opcode and RD copied from its header. -EMSGSIZE when msg has no
 * whole header, -EBADMSG when it is a response (never answer those),
 * -ENOBUFS, -EINVAL (rcode). */
int hg_dns_build_error(const uint8_t *msg, size_t len, int rcode, uint8_t *out,
                       size_t cap, size_t *out_len);

/* The gateway's own query for name (a hostname; normalised here) and
 * qtype, RD set; with an OPT advertising HG_DNS_EDNS_SIZE when edns.
 * -EINVAL for a name hg_name_normalize() refuses, -ENOBUFS. */
int hg_dns_build_query(uint16_t id, const char *name, uint16_t qtype, int edns,
                       uint8_t *out, size_t cap, size_t *out_len);

typedef struct hg_dns_result {
  int rcode;
  size_t n;                       /* A records for the name (after CNAMEs) */
  uint32_t ips[HG_DNS_MAX_ADDRS]; /* host byte order, duplicates dropped */
  uint32_t ttl;                   /* least TTL along the chain; 0 when n == 0 */
} hg_dns_result;

/* Reads the upstream answer to hg_dns_build_query(id, name, A): the A
 * records of name, following CNAMEs within the answer section (records for
 * other names are ignored: they are what cache poisoning smuggles in).
 * Returns 0 with out->rcode (only NOERROR has addresses), or:
 *   -EBADMSG   not the answer to this query: not a response, other id,
 *              other opcode, question not (name, A, IN) - keep waiting,
 *              it may be spoofed
 *   -EMSGSIZE  TC set: ask again over TCP
 *   -ELOOP     a CNAME chain longer than HG_DNS_MAX_CNAME (or a loop)
 *   -EPROTO    malformed
 *   -EINVAL    name is not a hostname */
int hg_dns_parse_response(const uint8_t *msg, size_t len, uint16_t id, const char *name,
                          hg_dns_result *out);

/* Wire name to text for logs: labels joined by '.', bytes outside
 * [a-zA-Z0-9-_] escaped as \DDD, '.' inside a label as "\.", the root as
 * ".". Always NUL-terminates (cap > 0), truncating with "..." when cap is
 * short. */
void hg_dns_name_text(const uint8_t *wire, size_t len, char *out, size_t cap);

/* Token bucket: rate tokens a second, up to burst saved. Time comes from
 * the caller in milliseconds (any monotonic clock); a clock that goes
 * back adds nothing. */
typedef struct hg_dns_limiter {
  uint64_t milli; /* tokens x 1000 */
  uint64_t last_ms;
  uint32_t rate, burst;
} hg_dns_limiter;

/* Starts full. */
void hg_dns_limiter_init(hg_dns_limiter *l, uint32_t rate, uint32_t burst,
                         uint64_t now_ms);
/* 1 and one token spent, or 0 when empty. */
int hg_dns_limiter_take(hg_dns_limiter *l, uint64_t now_ms);

#endif
