/* fakenet: a fake internet for egress tests, in a network namespace of its
 * own ("hgt-inet-<pid>"). The host (the root namespace, where hangard's
 * gateway dials from) reaches it through a veth on 198.18.<n>.0/30
 * (RFC 2544 benchmarking space, not the host's 192.0.2.0/24) with routes
 * for 198.51.100.0/24, 203.0.113.0/24 and two single addresses the
 * gateway must never dial (FAKENET_SINK_PRIVATE, FAKENET_SINK_LINKLOCAL).
 *
 * Inside, served by threads of the test process on sockets made in the
 * namespace (the threads themselves stay in the root namespace):
 *   - an authoritative DNS server on FAKENET_DNS (udp + tcp 53), zone below;
 *   - HTTP on :80 and TLS (OpenSSL, ECDSA cert for every .test name, signed
 *     by a CA written to fakenet_ca_file()) on :443 of FAKENET_WEB (allowed.test)
 *     and FAKENET_CDN (cdn-a.test, cdn-b.test, up.test: one address serving
 *     several names, as a CDN does), recording every request head;
 *   - a TCP echo on FAKENET_RELAY:5432;
 *   - a SINK: every TCP and UDP port of the sink addresses (nftables in the
 *     namespace redirects them to one listener) records what arrives, and a
 *     packet socket on the namespace's veth counts every IPv4 packet
 *     addressed to any sink address, whatever the protocol (SYNs, ICMP, GRE,
 *     fragments). fakenet_bytes_at_sink() is what denied attempts assert 0 on.
 *
 * Zone (TTL 5 unless said): allowed.test -> .10; cdn-a.test, cdn-b.test,
 * up.test -> .20; relay.test -> .30; evil.test, dns.google -> .66 (sink);
 * meta.test -> 169.254.169.254; linklocal.test -> 169.254.77.77 (sink);
 * private.test -> 10.1.2.3 (sink); loopback.test -> 127.0.0.1; zero.test ->
 * 0.0.0.0; cgnat.test -> 100.64.0.1; rebind.test -> .10 on its first query
 * and .66 (sink) on every later one, TTL 1. Every known name also has an
 * AAAA (2001:db8::10) and a TXT record, so a gateway that forwarded those
 * would be caught; unknown names get NXDOMAIN.
 *
 * HTTP paths (plain and inside TLS, keep-alive): "/blob/N" N bytes of
 * fakenet_blob_fill(); "/zero/N" N zero bytes (cheap to serve: benches);
 * "/redirect" 302 to http://169.254.169.254/latest/;
 * anything else 200 "hello <host> from <ip>\n". Responses never echo a
 * request header back (a credential must not reach the guest that way).
 *
 * Everything (threads, sockets, namespace, veth, routes, files) goes in
 * fakenet_stop(), which is safe on a half-started fakenet and twice.
 * fakenet_start() also removes what a crashed earlier run left behind.
 * Needs root, `ip` and `nft`. */
#ifndef HG_TESTS_FAKENET_H
#define HG_TESTS_FAKENET_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define FAKENET_DNS "198.51.100.53"
#define FAKENET_WEB "203.0.113.10"
#define FAKENET_CDN "203.0.113.20"
#define FAKENET_RELAY "203.0.113.30"
#define FAKENET_RELAY_PORT 5432
#define FAKENET_SINK_A "203.0.113.66"
#define FAKENET_SINK_B "198.51.100.99"
#define FAKENET_SINK_PRIVATE "10.1.2.3"
#define FAKENET_SINK_LINKLOCAL "169.254.77.77"

typedef struct fakenet fakenet;

typedef struct fakenet_config {
  /* The /30 of the link is 198.18.<subnet>.0/30; 0 picks one from the pid. */
  unsigned subnet;
  /* Log every event on stderr as it happens. */
  bool verbose;
  /* Events kept (about 5 KB each); later ones are dropped. 0: 20000. */
  size_t max_events;
} fakenet_config;

/* 0 or a negative errno (and a line on stderr saying what failed). */
int fakenet_start(const fakenet_config *cfg, fakenet **out);
void fakenet_stop(fakenet *fn);

const char *fakenet_ns_name(const fakenet *fn); /* "hgt-inet-<pid>" */
const char *fakenet_ca_file(const fakenet *fn); /* PEM of the CA of the TLS servers */

/* ---- what arrived -------------------------------------------------------- */

/* IPv4 bytes (headers included) and packets addressed to a sink address,
 * counted on the wire, and payload bytes the sink listeners took in. */
uint64_t fakenet_bytes_at_sink(fakenet *fn);
uint64_t fakenet_packets_at_sink(fakenet *fn);
uint64_t fakenet_sink_payload(fakenet *fn);

typedef enum fakenet_kind {
  FN_DNS = 1, /* a query: name, qtype, dst FAKENET_DNS */
  FN_CONN,    /* a TCP connection to a web/relay server ended: bytes_in */
  FN_TLS, /* a ClientHello reached a TLS server: name = SNI ("" none), ok = handshake done
           */
  FN_HTTP,  /* a request head (plain or in TLS): name = Host, head = the head */
  FN_RELAY, /* bytes echoed by the relay server */
  FN_SINK,  /* something reached a sink listener: dst/port = original destination */
} fakenet_kind;

typedef struct fakenet_event {
  int64_t ms;       /* since fakenet_start: when it was recorded */
  int64_t start_ms; /* FN_CONN, FN_RELAY, FN_SINK (tcp): when the connection came in */
  fakenet_kind kind;
  char dst[16]; /* the server's address */
  uint16_t port;
  bool tls;
  bool ok;
  int qtype;
  char name[256];
  char method[16];
  char target[512];
  char head[4096]; /* truncated */
  uint64_t bytes;
} fakenet_event;

/* Milliseconds since fakenet_start, the clock of fakenet_event.ms. */
int64_t fakenet_now_ms(fakenet *fn);
/* Events so far; a mark is the count at one moment, so a test can look at
 * just what one attempt caused. */
size_t fakenet_mark(fakenet *fn);
/* Copies event i into *out; false past the end. */
bool fakenet_event_get(fakenet *fn, size_t i, fakenet_event *out);
/* Events since mark of kind (0: any) whose name equals name (NULL: any)
 * and whose head contains needle (NULL: any). */
size_t fakenet_count(fakenet *fn, size_t mark, fakenet_kind kind, const char *name,
                     const char *needle);
/* Prints events since mark on stderr (for a failing assertion's context). */
void fakenet_dump(fakenet *fn, size_t mark);

/* The body of "/blob/N": byte i of every blob is the same function of i. */
void fakenet_blob_fill(void *buf, uint64_t offset, size_t len);

#endif
