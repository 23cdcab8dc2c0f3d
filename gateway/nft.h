/* nft: a sandbox's nftables rules, built with libnftnl's batch API on a
 * netlink socket opened inside its namespace (DESIGN §11, reference/
 * egress.md). Two tables named "hangar", neither owner-flagged, so the
 * rules stay when the daemon dies (fail closed):
 *
 *   table netdev hangar            anti-spoofing on the tap, before IP
 *     chain ingress (hook ingress device <tap>, policy drop)
 *       ether saddr != guest MAC            -> count spoof_mac, drop
 *       ARP ether/IPv4 from guest MAC + IP  -> accept
 *       other ARP                           -> count spoof_arp, drop
 *       ip saddr guest IP                   -> accept
 *       other IPv4                          -> count spoof_ip, drop
 *       IPv6                                -> count ipv6, drop
 *       anything else                       -> count l2_other, drop
 *
 *   table ip hangar
 *     set allow { ipv4_addr . inet_service; interval }   CIDR:port grants
 *     chain nat_pre (nat prerouting -100): from the tap,
 *       udp/tcp dport 53            -> redirect to dns_port
 *       ip daddr . tcp dport @allow -> redirect to relay_port
 *       tcp dport 80 / 443          -> redirect to http_port / https_port
 *     chain pre (filter prerouting 0): from the tap, ip daddr != gateway
 *       -> count egress, drop. (Without it such packets die in routing,
 *       there being no route out and no forwarding, and nothing counts them.)
 *     chain input (policy drop): established/related; lo; from the tap,
 *       redirected (ct status dnat) to one of the ports above; else count
 *       input, drop
 *     chain forward (policy drop): count forward, drop
 *     chain output (policy drop): established/related; lo; TCP from the
 *       gateway to the guest (the inbound port proxy); else count output, drop
 *
 * A port of 0 leaves its redirect (and input accept) out: that traffic is
 * dropped. The allow set applies to TCP; the relay must still check the
 * original destination (SO_ORIGINAL_DST) itself.
 *
 * Each function is one netlink transaction: all of it applies or none.
 * Functions return 0 or a negative errno. */
#ifndef HG_GATEWAY_NFT_H
#define HG_GATEWAY_NFT_H

#include <netinet/in.h>
#include <stddef.h>
#include <stdint.h>

#include "gateway/netns.h"

#define HG_NFT_TABLE "hangar"
/* Bound on allow entries: keeps one batch well inside a netlink message. */
#define HG_NFT_ALLOW_MAX 1024

/* One allowlisted "CIDR:port". */
typedef struct hg_nft_allow {
  struct in_addr addr; /* network address: no host bits set */
  uint8_t prefix_len;  /* 0..32 */
  uint16_t port;       /* 1..65535 */
} hg_nft_allow;

/* "203.0.113.0/24:5432" or "203.0.113.5:443" (= /32). Strict: dotted quad
 * without leading zeros, no host bits, port 1..65535, nothing else. */
int hg_nft_allow_parse(const char *s, hg_nft_allow *out);

typedef struct hg_nft_config {
  hg_netns_link link;  /* the tap's name, guest MAC + IP, gateway IP */
  uint16_t dns_port;   /* udp + tcp 53 -> here */
  uint16_t http_port;  /* tcp 80 -> here */
  uint16_t https_port; /* tcp 443 -> here */
  uint16_t relay_port; /* tcp to an allowlisted CIDR:port -> here */
  const hg_nft_allow *allow;
  size_t n_allow; /* <= HG_NFT_ALLOW_MAX */
} hg_nft_config;

/* Replaces both tables with the rules for cfg in one transaction (also the
 * first time): at no moment is the namespace without rules. The ingress
 * chain hooks the device by name: apply after the tap exists, and again
 * after it is re-created. -EINVAL for a bad config. */
int hg_nft_apply(const hg_netns *ns, const hg_nft_config *cfg);
/* Replaces the contents of the allow set, in one transaction, leaving every
 * other rule as it was. Duplicates and entries inside a wider entry for the
 * same port are merged. -ENOENT when the rules were never applied. */
int hg_nft_set_allow(const hg_netns *ns, const hg_nft_allow *allow, size_t n);
/* Removes both tables (nothing to remove is not an error). */
int hg_nft_flush(const hg_netns *ns);

typedef struct hg_nft_counter {
  uint64_t packets, bytes;
} hg_nft_counter;

/* The drop counters, by nftables counter name. */
typedef struct hg_nft_counters {
  hg_nft_counter spoof_mac, spoof_arp, spoof_ip, ipv6, l2_other; /* netdev */
  hg_nft_counter egress, input, forward, output;                 /* ip */
} hg_nft_counters;

/* -ENOENT when the rules are not there. */
int hg_nft_counters_read(const hg_netns *ns, hg_nft_counters *out);

#endif
