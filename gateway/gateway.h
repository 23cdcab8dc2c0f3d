/* gateway: the node's egress gateway (DESIGN §11). One per hangard. It owns
 * every sandbox's network namespace (netns.h), its rules (nft.h), and the
 * sockets the daemon opens inside it: the DNS responder (udp+tcp 53), the
 * L7 proxy (what the guest sends to tcp 80 and 443), the L4 relay
 * (allowlisted CIDR:port), and connections for inbound port proxying.
 *
 * It runs on a thread of its own with its own libuv loop, so egress traffic
 * never waits behind the API, and the API never waits behind a slow
 * upstream. The public calls below are thread-safe and blocking: they hand
 * the work to the gateway thread and wait for it (a few ms), so sandbox
 * workers call them directly.
 *
 * Fail closed: the namespaces and rules outlive hangard; without the
 * daemon's sockets, redirected traffic finds nothing listening and nothing
 * else has a route out. hg_gateway_start re-attaches to the namespaces
 * already under netns_dir (listeners back, policies from state_dir).
 *
 * Policy JSON (create request "network", and GET|PUT …/network):
 *   {"allow": ["api.example.com", "*.pypi.org", "203.0.113.0/24:5432"],
 *    "credentials": [{"hosts": ["api.example.com"], "header": "Authorization",
 *                     "value": "Bearer sk-…", "placeholder": "HANGAR_SECRET_1",
 *                     "upgrade": true}]}
 * "upgrade": the guest speaks plain HTTP to the host on port 80 and the
 * gateway speaks HTTPS upstream (so it can inject into what would otherwise
 * be TLS it cannot see). No policy at all means no egress. */
#ifndef HG_GATEWAY_GATEWAY_H
#define HG_GATEWAY_GATEWAY_H

#include <jansson.h>
#include <stdbool.h>
#include <stdint.h>

#include "node/core/buf.h"

typedef struct hg_gateway hg_gateway;
typedef struct hg_policy hg_policy;

typedef struct hg_gateway_config {
  const char *netns_dir;     /* <data>/netns */
  const char *state_dir;     /* <data>/state/gateway: policies (0600), one file per sandbox */
  const char *upstream_dns;  /* "HOST:PORT"; NULL: first nameserver in /etc/resolv.conf */
  const char *deny;          /* extra denied CIDRs, "a.b.c.d/p,…"; NULL: none */
  unsigned log_max;          /* egress log entries kept per sandbox; 0: 1000 */
  unsigned dns_rate;         /* queries per second per sandbox; 0: 50 (burst 2x) */
} hg_gateway_config;

int hg_gateway_start(const hg_gateway_config *cfg, hg_gateway **out);
/* Closes every socket and joins the thread. Namespaces and rules stay. */
void hg_gateway_stop(hg_gateway *gw);

/* Parses and validates a policy; err gets a sentence for a 400. */
int hg_policy_parse(const json_t *j, hg_policy **out, char err[256]);
/* The policy as JSON; credential values replaced by "***" when redact. */
json_t *hg_policy_json(const hg_policy *p, bool redact);
void hg_policy_free(hg_policy *p);

/* Makes (or, after a restart, reopens) the sandbox's namespace, tap, rules
 * and listeners, and returns a tap fd for the VMM (the caller closes it
 * once the VMM holds it). Keeps the sandbox's current policy (none at
 * first: no egress). name: a sandbox id, or any netns name (templates).
 * tap_fd NULL: everything but the fd (for a VMM that still holds the tap
 * across a daemon restart; -EBUSY otherwise). */
int hg_gateway_attach(hg_gateway *gw, const char *name, int *tap_fd);
/* Closes its connections and listeners and deletes the namespace. */
int hg_gateway_detach(hg_gateway *gw, const char *name);
/* Replaces the policy (NULL: none), persists it, updates the allow set, and
 * cuts open connections the new policy no longer allows. Works before
 * attach (the policy waits for it) and after detach (kept for the next
 * attach, e.g. resume) until hg_gateway_forget. */
int hg_gateway_set_policy(hg_gateway *gw, const char *name, const hg_policy *p);
/* Gives `to` a copy of `from`'s policy, credentials included (a fork);
 * nothing when from has none. -ENOENT: from unknown. */
int hg_gateway_copy_policy(hg_gateway *gw, const char *from, const char *to);
/* Current policy (redacted JSON, new reference) or json null; -ENOENT unknown. */
int hg_gateway_get_policy(hg_gateway *gw, const char *name, json_t **out);
/* Drops the policy and log of a deleted sandbox. */
void hg_gateway_forget(hg_gateway *gw, const char *name);

/* Egress log: [{time, proto, name, ip, port, verdict: "allow"|"deny",
 * reason, bytes_out, bytes_in}], oldest first, at most log_max. */
json_t *hg_gateway_egress_log(hg_gateway *gw, const char *name);
/* Prometheus lines (hangar_gateway_*). The drop counters are read from
 * the kernel at most once a second (a netlink round trip per sandbox on
 * the gateway thread); scrapes in between see the last values. */
void hg_gateway_metrics(hg_gateway *gw, hg_buf *out);
/* How often the drop counters were read: refreshes (at most one a second)
 * and netlink reads (one per attached sandbox per refresh). Any thread. */
typedef struct hg_gateway_stats {
  uint64_t nft_refreshes, nft_reads;
} hg_gateway_stats;
void hg_gateway_stats_get(hg_gateway *gw, hg_gateway_stats *out);

/* Inbound: a connected TCP socket (blocking, CLOEXEC) to guest_ip:port
 * made inside the sandbox's namespace, for …/ports/{port}/… proxying. */
int hg_gateway_connect_guest(hg_gateway *gw, const char *name, uint16_t port, int *fd);

#endif
