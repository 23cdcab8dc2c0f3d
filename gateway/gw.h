/* gw: what the gateway's two halves share inside gateway/ (not for other
 * folders). gateway.c owns the thread, the loop, the per-sandbox state and
 * the egress log, with policy.c (policies) and resolver.c (the DNS
 * responder) behind gateway_internal.h; proxy.c owns the connections the
 * guest opens through the L7 proxy and the L4 relay, with proxy_http.c and
 * proxy_upgrade.c behind proxy_internal.h. Everything here runs on the
 * gateway loop thread. */
#ifndef HG_GATEWAY_GW_H
#define HG_GATEWAY_GW_H

#include <stdbool.h>
#include <stdint.h>
#include <uv.h>

#include "gateway/gateway.h"
#include "gateway/names.h"
#include "gateway/netns.h"
#include "gateway/nft.h"

#define HG_GW_CREDS_MAX 16
#define HG_GW_HEADER_MAX 64      /* header name */
#define HG_GW_SECRET_MAX 4096    /* credential value */
#define HG_GW_PLACEHOLDER_MAX 64

/* Ports the rules redirect to, on the gateway address inside the netns.
 * None is the port the guest aims at: the input chain accepts only what a
 * redirect changed (ct status dnat), and a query sent straight to
 * 10.0.2.1:53 would not be changed by a redirect to :53. */
#define HG_GW_DNS_PORT 15053
#define HG_GW_HTTP_PORT 15080
#define HG_GW_HTTPS_PORT 15443
#define HG_GW_RELAY_PORT 15000

typedef struct hg_policy_cred {
  hg_allow *hosts;               /* names in scope (same rules as allow) */
  char header[HG_GW_HEADER_MAX]; /* "Authorization" */
  char value[HG_GW_SECRET_MAX];  /* the secret; never logged */
  char placeholder[HG_GW_PLACEHOLDER_MAX];
  bool upgrade;                  /* plain HTTP from the guest, HTTPS upstream */
} hg_policy_cred;

struct hg_policy {
  hg_allow *allow;
  hg_policy_cred creds[HG_GW_CREDS_MAX];
  size_t ncreds;
  /* gateway.c's: the validated policy as JSON (values unredacted), which
   * hg_policy_json, copies and the state file are made from, and the
   * "allow" entries that are CIDR:port, for the nft allow set. */
  json_t *src;
  hg_nft_allow nft[HG_ALLOW_MAX];
  size_t nnft;
};

typedef enum hg_proxy_kind { HG_PROXY_HTTP, HG_PROXY_TLS, HG_PROXY_RELAY } hg_proxy_kind;

typedef struct hg_gw_sandbox hg_gw_sandbox;

/* --- provided by gateway.c to proxy.c ---------------------------------- */
uv_loop_t *hg_gw_loop(hg_gw_sandbox *sb);
const char *hg_gw_name(hg_gw_sandbox *sb);
/* The sandbox's policy now (NULL: none, deny everything). A new policy
 * replaces it in place; the old one is freed right after
 * hg_proxy_recheck(sb) returns, so do not keep the pointer (or pointers
 * into it) across callbacks: ask again. */
const hg_policy *hg_gw_policy(hg_gw_sandbox *sb);
/* True when ip is among the A records the responder gave this sandbox for
 * name (unexpired, with a grace of 60 s past the TTL for long downloads
 * that started in time). */
bool hg_gw_dns_answered(hg_gw_sandbox *sb, const char *name, uint32_t ip);
/* The gateway's never-dial ranges (defaults + config). */
bool hg_gw_addr_denied(hg_gw_sandbox *sb, uint32_t ip);
/* One egress log entry (and metrics). proto: "http", "tls", "tcp", "dns". */
void hg_gw_log(hg_gw_sandbox *sb, const char *proto, const char *name, uint32_t ip,
               uint16_t port, bool allowed, const char *reason, uint64_t bytes_out,
               uint64_t bytes_in);

/* Runs fn(sb, arg) on the gateway thread for the sandbox called name and
 * waits for it (tests, tools). -ENOENT when the gateway knows no such
 * sandbox, -EDEADLK from the gateway thread itself. */
int hg_gw_run(hg_gateway *gw, const char *name, void (*fn)(hg_gw_sandbox *sb, void *arg),
              void *arg);

/* --- provided by proxy.c to gateway.c ---------------------------------- */
/* listener (one of sb's TCP listeners) has a connection waiting: proxy.c
 * allocates its own uv_tcp_t, uv_accept()s it, and owns and closes it. */
void hg_proxy_accept(hg_gw_sandbox *sb, uv_stream_t *listener, hg_proxy_kind kind);
/* The policy changed: cut every connection of sb it no longer allows. */
void hg_proxy_recheck(hg_gw_sandbox *sb);
/* Closes every connection of sb; done runs once they are all closed. */
void hg_proxy_close_all(hg_gw_sandbox *sb, void (*done)(void *ud), void *ud);
/* Per-sandbox proxy state, allocated at attach, freed after close_all. */
typedef struct hg_proxy_set hg_proxy_set;
hg_proxy_set *hg_proxy_set_new(void);
void hg_proxy_set_free(hg_proxy_set *ps);
hg_proxy_set *hg_gw_proxies(hg_gw_sandbox *sb);

#endif
