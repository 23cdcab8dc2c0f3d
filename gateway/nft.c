/* nft: a sandbox's nftables rules with libnftnl. See nft.h for the ruleset.
 *
 * libnftnl builds raw expressions: unlike `nft`, it adds none of the
 * implicit dependencies (meta l4proto before a port, meta protocol or
 * iiftype before a link/network header load). We emit them as `nft` does
 * (`nft --debug=netlink` shows its output), so the rules match only what
 * they mean to and `nft list ruleset` prints them as readable rules. */
#include "gateway/nft.h" /* first: <netinet/in.h> before <linux/netfilter.h> */

#include <arpa/inet.h>
#include <errno.h>
#include <libmnl/libmnl.h>
#include <libnftnl/chain.h>
#include <libnftnl/common.h>
#include <libnftnl/expr.h>
#include <libnftnl/object.h>
#include <libnftnl/rule.h>
#include <libnftnl/set.h>
#include <libnftnl/table.h>
#include <linux/if_ether.h>
#include <linux/netfilter.h>
#include <linux/netfilter/nf_conntrack_common.h>
#include <linux/netfilter/nf_nat.h>
#include <linux/netfilter/nf_tables.h>
#include <linux/netfilter/nfnetlink.h>
#include <net/if_arp.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <time.h>
#include <unistd.h>

#include "node/core/err.h"
#include "node/core/log.h"
#include "node/core/util.h"

/* One batch: everything we send is far smaller; the allow set's elements
 * (HG_NFT_ALLOW_MAX x ~40 bytes) are the largest message. */
#define BATCH_CAP (192 * 1024)
#define BATCH_MSG_ROOM (64 * 1024)
#define NL_BUF 16384
#define NL_TIMEOUT_S 5

/* The allow set's key: ipv4_addr . inet_service, each field in a 32-bit
 * register slot. nft's concatenated type id is (type << 6) | subtype. */
#define SET_ALLOW "allow"
#define SET_ALLOW_ID 1
#define NFT_TYPE_IPADDR 7
#define NFT_TYPE_INET_SERVICE 13
#define SET_ALLOW_KEY_TYPE ((NFT_TYPE_IPADDR << 6) | NFT_TYPE_INET_SERVICE)
#define SET_ALLOW_KEY_LEN 8

/* ---- batch --------------------------------------------------------------- */

typedef struct batch {
  char *buf;
  size_t len;
  uint32_t begin_seq, seq;
  int acks; /* messages sent with NLM_F_ACK */
  int err;  /* first error while building */
} batch;

static int batch_init(batch *b) {
  memset(b, 0, sizeof *b);
  if (!(b->buf = malloc(BATCH_CAP))) return -ENOMEM;
  b->begin_seq = b->seq = (uint32_t)time(NULL);
  struct nlmsghdr *nlh = nftnl_batch_begin(b->buf, b->seq++);
  b->len = NLMSG_ALIGN(nlh->nlmsg_len);
  return 0;
}

static void batch_free(batch *b) {
  free(b->buf);
}

/* The header of the next message, with room for it, or NULL (b->err). */
static struct nlmsghdr *batch_msg(batch *b, uint16_t type, uint16_t family,
                                  uint16_t flags) {
  if (b->err) return NULL;
  if (BATCH_CAP - b->len < BATCH_MSG_ROOM) {
    b->err = -E2BIG;
    return NULL;
  }
  b->acks++;
  return nftnl_nlmsg_build_hdr(b->buf + b->len, type, family, flags | NLM_F_ACK,
                               b->seq++);
}

static void batch_commit(batch *b, struct nlmsghdr *nlh) {
  b->len += NLMSG_ALIGN(nlh->nlmsg_len);
}

static void batch_end(batch *b) {
  if (b->err) return;
  struct nlmsghdr *nlh = nftnl_batch_end(b->buf + b->len, b->seq++);
  b->len += NLMSG_ALIGN(nlh->nlmsg_len);
}

/* A netlink socket inside ns: it talks to that namespace's nf_tables for
 * its whole life, whichever thread uses it. */
static struct mnl_socket *nl_open(const hg_netns *ns, int *err) {
  int fd;
  *err = hg_netns_socket(ns, AF_NETLINK, SOCK_RAW, NETLINK_NETFILTER, &fd);
  if (*err < 0) return NULL;
  struct mnl_socket *nl = mnl_socket_fdopen(fd);
  if (!nl) {
    *err = -errno;
    close(fd);
    return NULL;
  }
  /* Acks without the request echoed back: error acks stay small. */
  int one = 1;
  struct timeval tv = {.tv_sec = NL_TIMEOUT_S};
  if (mnl_socket_setsockopt(nl, NETLINK_CAP_ACK, &one, sizeof one) < 0 ||
      setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof tv) < 0 ||
      mnl_socket_bind(nl, 0, MNL_SOCKET_AUTOPID) < 0) {
    *err = -errno;
    mnl_socket_close(nl);
    return NULL;
  }
  return nl;
}

static ssize_t nl_recv(struct mnl_socket *nl, char *buf, size_t cap) {
  for (;;) {
    ssize_t n = mnl_socket_recvfrom(nl, buf, cap);
    if (n >= 0) return n;
    if (errno != EINTR) return errno == EAGAIN ? -ETIMEDOUT : -errno;
  }
}

/* Sends the batch and collects one ack per message. The kernel answers
 * every message flagged NLM_F_ACK, also when the batch fails (then it
 * aborts the whole transaction); a failure of the batch as such is one
 * error addressed to the batch-begin message. */
static int batch_send(struct mnl_socket *nl, batch *b) {
  if (b->err) return b->err;
  if (mnl_socket_sendto(nl, b->buf, b->len) < 0) return -errno;
  char buf[NL_BUF];
  int pending = b->acks, first = 0;
  while (pending > 0) {
    ssize_t n = nl_recv(nl, buf, sizeof buf);
    if (n < 0) return (int)n;
    int len = (int)n;
    for (struct nlmsghdr *nlh = (struct nlmsghdr *)buf; mnl_nlmsg_ok(nlh, len);
         nlh = mnl_nlmsg_next(nlh, &len)) {
      if (nlh->nlmsg_type != NLMSG_ERROR) continue;
      if (nlh->nlmsg_len < mnl_nlmsg_size(sizeof(struct nlmsgerr))) return -EPROTO;
      const struct nlmsgerr *e = mnl_nlmsg_get_payload(nlh);
      if (nlh->nlmsg_seq == b->begin_seq) return e->error < 0 ? e->error : -EPROTO;
      if (nlh->nlmsg_seq < b->begin_seq || nlh->nlmsg_seq >= b->seq) continue;
      if (e->error < 0 && first == 0) first = e->error;
      pending--;
    }
  }
  return first;
}

/* ---- objects ------------------------------------------------------------- */

static void add_table(batch *b, uint16_t family, uint16_t type) {
  struct nftnl_table *t = nftnl_table_alloc();
  if (!t || nftnl_table_set_str(t, NFTNL_TABLE_NAME, HG_NFT_TABLE) < 0) {
    if (!b->err) b->err = -ENOMEM;
  } else {
    /* No NFT_TABLE_F_OWNER: the rules must outlive us. */
    nftnl_table_set_u32(t, NFTNL_TABLE_FLAGS, 0);
    struct nlmsghdr *nlh =
        batch_msg(b, type, family, type == NFT_MSG_NEWTABLE ? NLM_F_CREATE : 0);
    if (nlh) {
      nftnl_table_nlmsg_build_payload(nlh, t);
      batch_commit(b, nlh);
    }
  }
  if (t) nftnl_table_free(t);
}

/* Removes the table whether or not it exists: creating it first makes the
 * delete always valid, and both happen in the same transaction. */
static void drop_table(batch *b, uint16_t family) {
  add_table(b, family, NFT_MSG_NEWTABLE);
  add_table(b, family, NFT_MSG_DELTABLE);
}

static void add_counter(batch *b, uint16_t family, const char *name) {
  struct nftnl_obj *o = nftnl_obj_alloc();
  if (o) {
    nftnl_obj_set_str(o, NFTNL_OBJ_TABLE, HG_NFT_TABLE);
    nftnl_obj_set_str(o, NFTNL_OBJ_NAME, name);
  }
  /* libnftnl 1.2 reports a failed strdup only through is_set. */
  if (!o || !nftnl_obj_is_set(o, NFTNL_OBJ_TABLE) ||
      !nftnl_obj_is_set(o, NFTNL_OBJ_NAME)) {
    if (!b->err) b->err = -ENOMEM;
  } else {
    nftnl_obj_set_u32(o, NFTNL_OBJ_TYPE, NFT_OBJECT_COUNTER);
    struct nlmsghdr *nlh = batch_msg(b, NFT_MSG_NEWOBJ, family, NLM_F_CREATE);
    if (nlh) {
      nftnl_obj_nlmsg_build_payload(nlh, o);
      batch_commit(b, nlh);
    }
  }
  if (o) nftnl_obj_free(o);
}

typedef struct chain_spec {
  const char *name, *type, *dev;
  uint32_t hook;
  int32_t prio;
  uint32_t policy;
} chain_spec;

static void add_chain(batch *b, uint16_t family, const chain_spec *c) {
  struct nftnl_chain *ch = nftnl_chain_alloc();
  if (!ch || nftnl_chain_set_str(ch, NFTNL_CHAIN_TABLE, HG_NFT_TABLE) < 0 ||
      nftnl_chain_set_str(ch, NFTNL_CHAIN_NAME, c->name) < 0 ||
      nftnl_chain_set_str(ch, NFTNL_CHAIN_TYPE, c->type) < 0 ||
      (c->dev && nftnl_chain_set_str(ch, NFTNL_CHAIN_DEV, c->dev) < 0)) {
    if (!b->err) b->err = -ENOMEM;
  } else {
    nftnl_chain_set_u32(ch, NFTNL_CHAIN_HOOKNUM, c->hook);
    nftnl_chain_set_s32(ch, NFTNL_CHAIN_PRIO, c->prio);
    nftnl_chain_set_u32(ch, NFTNL_CHAIN_POLICY, c->policy);
    struct nlmsghdr *nlh = batch_msg(b, NFT_MSG_NEWCHAIN, family, NLM_F_CREATE);
    if (nlh) {
      nftnl_chain_nlmsg_build_payload(nlh, ch);
      batch_commit(b, nlh);
    }
  }
  if (ch) nftnl_chain_free(ch);
}

static struct nftnl_set *allow_set_alloc(void) {
  struct nftnl_set *s = nftnl_set_alloc();
  if (!s) return NULL;
  if (nftnl_set_set_str(s, NFTNL_SET_TABLE, HG_NFT_TABLE) < 0 ||
      nftnl_set_set_str(s, NFTNL_SET_NAME, SET_ALLOW) < 0) {
    nftnl_set_free(s);
    return NULL;
  }
  return s;
}

static void add_allow_set(batch *b) {
  static const uint8_t fields[] = {4, 2}; /* bytes of ipv4_addr, inet_service */
  struct nftnl_set *s = allow_set_alloc();
  if (!s || nftnl_set_set_data(s, NFTNL_SET_DESC_CONCAT, fields, sizeof fields) < 0) {
    if (!b->err) b->err = -ENOMEM;
  } else {
    nftnl_set_set_u32(s, NFTNL_SET_FLAGS, NFT_SET_INTERVAL | NFT_SET_CONCAT);
    nftnl_set_set_u32(s, NFTNL_SET_KEY_TYPE, SET_ALLOW_KEY_TYPE);
    nftnl_set_set_u32(s, NFTNL_SET_KEY_LEN, SET_ALLOW_KEY_LEN);
    nftnl_set_set_u32(s, NFTNL_SET_ID, SET_ALLOW_ID);
    struct nlmsghdr *nlh = batch_msg(b, NFT_MSG_NEWSET, NFPROTO_IPV4, NLM_F_CREATE);
    if (nlh) {
      nftnl_set_nlmsg_build_payload(nlh, s);
      batch_commit(b, nlh);
    }
  }
  if (s) nftnl_set_free(s);
}

/* An interval of the allow set: [addr . port, last addr of the prefix . port]. */
static void allow_key(const hg_nft_allow *a, bool end, uint8_t key[SET_ALLOW_KEY_LEN]) {
  uint32_t mask = a->prefix_len ? ~0u << (32 - a->prefix_len) : 0;
  uint32_t ip = ntohl(a->addr.s_addr) | (end ? ~mask : 0);
  uint32_t ip_be = htonl(ip);
  uint16_t port_be = htons(a->port);
  memset(key, 0, SET_ALLOW_KEY_LEN);
  memcpy(key, &ip_be, 4);
  memcpy(key + 4, &port_be, 2);
}

/* Flush (an empty DELSETELEM empties the set) and refill, in this batch. */
static void fill_allow_set(batch *b, const hg_nft_allow *allow, size_t n, bool flush) {
  struct nftnl_set *s = allow_set_alloc();
  if (!s) {
    if (!b->err) b->err = -ENOMEM;
    return;
  }
  if (flush) {
    struct nlmsghdr *nlh = batch_msg(b, NFT_MSG_DELSETELEM, NFPROTO_IPV4, 0);
    if (nlh) {
      nftnl_set_elems_nlmsg_build_payload(nlh, s);
      batch_commit(b, nlh);
    }
  }
  for (size_t i = 0; i < n && !b->err; i++) {
    uint8_t key[SET_ALLOW_KEY_LEN], end[SET_ALLOW_KEY_LEN];
    struct nftnl_set_elem *e = nftnl_set_elem_alloc();
    allow_key(&allow[i], false, key);
    allow_key(&allow[i], true, end);
    if (!e || nftnl_set_elem_set(e, NFTNL_SET_ELEM_KEY, key, sizeof key) < 0 ||
        nftnl_set_elem_set(e, NFTNL_SET_ELEM_KEY_END, end, sizeof end) < 0) {
      if (e) nftnl_set_elem_free(e);
      b->err = -ENOMEM;
      break;
    }
    nftnl_set_elem_add(s, e); /* the set owns it now */
  }
  if (n > 0) {
    struct nlmsghdr *nlh = batch_msg(b, NFT_MSG_NEWSETELEM, NFPROTO_IPV4, NLM_F_CREATE);
    if (nlh) {
      nftnl_set_elems_nlmsg_build_payload(nlh, s);
      batch_commit(b, nlh);
    }
  }
  nftnl_set_free(s);
}

/* ---- rules: expressions -------------------------------------------------- */

typedef struct rule {
  struct nftnl_rule *r;
  int err;
} rule;

static struct nftnl_expr *expr(rule *r, const char *name) {
  if (r->err) return NULL;
  struct nftnl_expr *e = nftnl_expr_alloc(name);
  if (!e) r->err = -ENOMEM;
  return e;
}

static void expr_add(rule *r, struct nftnl_expr *e) {
  nftnl_rule_add_expr(r->r, e);
}

static void e_meta(rule *r, uint32_t key) {
  struct nftnl_expr *e = expr(r, "meta");
  if (!e) return;
  nftnl_expr_set_u32(e, NFTNL_EXPR_META_KEY, key);
  nftnl_expr_set_u32(e, NFTNL_EXPR_META_DREG, NFT_REG_1);
  expr_add(r, e);
}

static void e_ct(rule *r, uint32_t key) {
  struct nftnl_expr *e = expr(r, "ct");
  if (!e) return;
  nftnl_expr_set_u32(e, NFTNL_EXPR_CT_KEY, key);
  nftnl_expr_set_u32(e, NFTNL_EXPR_CT_DREG, NFT_REG_1);
  expr_add(r, e);
}

static void e_payload(rule *r, uint32_t base, uint32_t offset, uint32_t len,
                      uint32_t dreg) {
  struct nftnl_expr *e = expr(r, "payload");
  if (!e) return;
  nftnl_expr_set_u32(e, NFTNL_EXPR_PAYLOAD_BASE, base);
  nftnl_expr_set_u32(e, NFTNL_EXPR_PAYLOAD_OFFSET, offset);
  nftnl_expr_set_u32(e, NFTNL_EXPR_PAYLOAD_LEN, len);
  nftnl_expr_set_u32(e, NFTNL_EXPR_PAYLOAD_DREG, dreg);
  expr_add(r, e);
}

static void e_cmp(rule *r, uint32_t op, const void *data, uint32_t len) {
  struct nftnl_expr *e = expr(r, "cmp");
  if (!e) return;
  nftnl_expr_set_u32(e, NFTNL_EXPR_CMP_SREG, NFT_REG_1);
  nftnl_expr_set_u32(e, NFTNL_EXPR_CMP_OP, op);
  nftnl_expr_set(e, NFTNL_EXPR_CMP_DATA, data, len);
  expr_add(r, e);
}

/* reg1 = reg1 & mask; reg1 != 0 (a flag test, as nft emits it). */
static void e_flags_any(rule *r, uint32_t mask) {
  static const uint32_t zero = 0;
  struct nftnl_expr *e = expr(r, "bitwise");
  if (!e) return;
  nftnl_expr_set_u32(e, NFTNL_EXPR_BITWISE_SREG, NFT_REG_1);
  nftnl_expr_set_u32(e, NFTNL_EXPR_BITWISE_DREG, NFT_REG_1);
  nftnl_expr_set_u32(e, NFTNL_EXPR_BITWISE_LEN, sizeof mask);
  nftnl_expr_set(e, NFTNL_EXPR_BITWISE_MASK, &mask, sizeof mask);
  nftnl_expr_set(e, NFTNL_EXPR_BITWISE_XOR, &zero, sizeof zero);
  expr_add(r, e);
  e_cmp(r, NFT_CMP_NEQ, &zero, sizeof zero);
}

static void e_count(rule *r, const char *counter) {
  struct nftnl_expr *e = expr(r, "objref");
  if (!e) return;
  nftnl_expr_set_u32(e, NFTNL_EXPR_OBJREF_IMM_TYPE, NFT_OBJECT_COUNTER);
  if (nftnl_expr_set_str(e, NFTNL_EXPR_OBJREF_IMM_NAME, counter) < 0) {
    nftnl_expr_free(e);
    r->err = -ENOMEM;
    return;
  }
  expr_add(r, e);
}

static void e_verdict(rule *r, int verdict) {
  struct nftnl_expr *e = expr(r, "immediate");
  if (!e) return;
  nftnl_expr_set_u32(e, NFTNL_EXPR_IMM_DREG, NFT_REG_VERDICT);
  nftnl_expr_set_u32(e, NFTNL_EXPR_IMM_VERDICT, (uint32_t)verdict);
  expr_add(r, e);
}

static void e_redirect(rule *r, uint16_t port) {
  uint16_t be = htons(port);
  struct nftnl_expr *e = expr(r, "immediate");
  if (!e) return;
  nftnl_expr_set_u32(e, NFTNL_EXPR_IMM_DREG, NFT_REG_1);
  nftnl_expr_set(e, NFTNL_EXPR_IMM_DATA, &be, sizeof be);
  expr_add(r, e);
  if (!(e = expr(r, "redir"))) return;
  nftnl_expr_set_u32(e, NFTNL_EXPR_REDIR_REG_PROTO_MIN, NFT_REG_1);
  nftnl_expr_set_u32(e, NFTNL_EXPR_REDIR_FLAGS, NF_NAT_RANGE_PROTO_SPECIFIED);
  expr_add(r, e);
}

static void e_lookup(rule *r, const char *set, uint32_t set_id) {
  struct nftnl_expr *e = expr(r, "lookup");
  if (!e) return;
  nftnl_expr_set_u32(e, NFTNL_EXPR_LOOKUP_SREG, NFT_REG_1);
  nftnl_expr_set_u32(e, NFTNL_EXPR_LOOKUP_SET_ID, set_id);
  if (nftnl_expr_set_str(e, NFTNL_EXPR_LOOKUP_SET, set) < 0) {
    nftnl_expr_free(e);
    r->err = -ENOMEM;
    return;
  }
  expr_add(r, e);
}

/* ---- rules: matches, each with the dependency nft would add -------------- */

static void m_ifname(rule *r, uint32_t key, const char *ifname) {
  char name[IFNAMSIZ] = {0};
  memcpy(name, ifname, strnlen(ifname, IFNAMSIZ - 1));
  e_meta(r, key);
  e_cmp(r, NFT_CMP_EQ, name, sizeof name);
}

/* ether ...: only on an Ethernet device (meta iiftype ether). */
static void m_ether_dep(rule *r) {
  uint16_t type = ARPHRD_ETHER;
  e_meta(r, NFT_META_IIFTYPE);
  e_cmp(r, NFT_CMP_EQ, &type, sizeof type);
}

static void m_ether_type(rule *r, uint16_t ethertype) {
  uint16_t be = htons(ethertype);
  m_ether_dep(r);
  e_payload(r, NFT_PAYLOAD_LL_HEADER, 12, 2, NFT_REG_1);
  e_cmp(r, NFT_CMP_EQ, &be, sizeof be);
}

/* A network header load in the netdev family needs meta protocol. */
static void m_protocol(rule *r, uint16_t ethertype) {
  uint16_t be = htons(ethertype);
  e_meta(r, NFT_META_PROTOCOL);
  e_cmp(r, NFT_CMP_EQ, &be, sizeof be);
}

static void m_l4proto(rule *r, uint8_t proto) {
  e_meta(r, NFT_META_L4PROTO);
  e_cmp(r, NFT_CMP_EQ, &proto, sizeof proto);
}

/* udp/tcp dport: the port sits at the same offset in both headers. */
static void m_dport(rule *r, uint8_t proto, uint16_t port) {
  uint16_t be = htons(port);
  m_l4proto(r, proto);
  e_payload(r, NFT_PAYLOAD_TRANSPORT_HEADER, 2, 2, NFT_REG_1);
  e_cmp(r, NFT_CMP_EQ, &be, sizeof be);
}

static void m_ip_addr(rule *r, uint32_t offset, uint32_t op, struct in_addr ip) {
  e_payload(r, NFT_PAYLOAD_NETWORK_HEADER, offset, 4, NFT_REG_1);
  e_cmp(r, op, &ip.s_addr, 4);
}

static void m_ct_established(rule *r) {
  e_ct(r, NFT_CT_STATE);
  e_flags_any(r, NF_CT_STATE_BIT(IP_CT_ESTABLISHED) | NF_CT_STATE_BIT(IP_CT_RELATED));
}

/* ---- rules: assembling ---------------------------------------------------- */

static void rule_begin(rule *r) {
  r->err = 0;
  r->r = nftnl_rule_alloc();
  if (!r->r) r->err = -ENOMEM;
}

static void rule_end(rule *r, batch *b, uint16_t family, const char *chain) {
  if (!r->err && (nftnl_rule_set_str(r->r, NFTNL_RULE_TABLE, HG_NFT_TABLE) < 0 ||
                  nftnl_rule_set_str(r->r, NFTNL_RULE_CHAIN, chain) < 0))
    r->err = -ENOMEM;
  if (r->err) {
    if (!b->err) b->err = r->err;
  } else {
    struct nlmsghdr *nlh =
        batch_msg(b, NFT_MSG_NEWRULE, family, NLM_F_CREATE | NLM_F_APPEND);
    if (nlh) {
      nftnl_rule_nlmsg_build_payload(nlh, r->r);
      batch_commit(b, nlh);
    }
  }
  if (r->r) nftnl_rule_free(r->r);
  r->r = NULL;
}

/* ---- the netdev table ------------------------------------------------------ */

static const char *const netdev_counters[] = {"spoof_mac", "spoof_arp", "spoof_ip",
                                              "ipv6", "l2_other"};
static const char *const ip_counters[] = {"egress", "input", "forward", "output"};

static void build_netdev(batch *b, const hg_netns_link *l) {
  const uint16_t fam = NFPROTO_NETDEV;
  const char *ch = "ingress";
  rule r;
  add_table(b, fam, NFT_MSG_NEWTABLE);
  for (size_t i = 0; i < HG_ARRAY_SIZE(netdev_counters); i++)
    add_counter(b, fam, netdev_counters[i]);
  chain_spec c = {.name = ch,
                  .type = "filter",
                  .dev = l->ifname,
                  .hook = NF_NETDEV_INGRESS,
                  .prio = 0,
                  .policy = NF_DROP};
  add_chain(b, fam, &c);

  /* ether saddr != guest MAC: count, drop */
  rule_begin(&r);
  m_ether_dep(&r);
  e_payload(&r, NFT_PAYLOAD_LL_HEADER, 6, 6, NFT_REG_1);
  e_cmp(&r, NFT_CMP_NEQ, l->guest_mac, 6);
  e_count(&r, "spoof_mac");
  e_verdict(&r, NF_DROP);
  rule_end(&r, b, fam, ch);

  /* ARP for Ethernet/IPv4 whose sender is the guest (MAC and IP): accept.
   * arp htype 1 ptype ip, hlen 6 plen 4, sha . spa */
  static const uint8_t arp_types[4] = {0x00, 0x01, 0x08, 0x00};
  static const uint8_t arp_lens[2] = {6, 4};
  uint8_t sender[10];
  memcpy(sender, l->guest_mac, 6);
  memcpy(sender + 6, &l->guest_ip.s_addr, 4);
  rule_begin(&r);
  m_protocol(&r, ETH_P_ARP);
  e_payload(&r, NFT_PAYLOAD_NETWORK_HEADER, 0, 4, NFT_REG_1);
  e_cmp(&r, NFT_CMP_EQ, arp_types, sizeof arp_types);
  e_payload(&r, NFT_PAYLOAD_NETWORK_HEADER, 4, 2, NFT_REG_1);
  e_cmp(&r, NFT_CMP_EQ, arp_lens, sizeof arp_lens);
  e_payload(&r, NFT_PAYLOAD_NETWORK_HEADER, 8, 10, NFT_REG_1);
  e_cmp(&r, NFT_CMP_EQ, sender, sizeof sender);
  e_verdict(&r, NF_ACCEPT);
  rule_end(&r, b, fam, ch);

  rule_begin(&r);
  m_ether_type(&r, ETH_P_ARP);
  e_count(&r, "spoof_arp");
  e_verdict(&r, NF_DROP);
  rule_end(&r, b, fam, ch);

  /* ip saddr guest IP: accept */
  rule_begin(&r);
  m_protocol(&r, ETH_P_IP);
  m_ip_addr(&r, 12, NFT_CMP_EQ, l->guest_ip);
  e_verdict(&r, NF_ACCEPT);
  rule_end(&r, b, fam, ch);

  rule_begin(&r);
  m_ether_type(&r, ETH_P_IP);
  e_count(&r, "spoof_ip");
  e_verdict(&r, NF_DROP);
  rule_end(&r, b, fam, ch);

  rule_begin(&r);
  m_ether_type(&r, ETH_P_IPV6);
  e_count(&r, "ipv6");
  e_verdict(&r, NF_DROP);
  rule_end(&r, b, fam, ch);

  rule_begin(&r);
  e_count(&r, "l2_other");
  e_verdict(&r, NF_DROP);
  rule_end(&r, b, fam, ch);
}

/* ---- the ip table ----------------------------------------------------------- */

typedef struct gw_port {
  uint8_t proto;
  uint16_t port;
} gw_port;

/* The distinct (proto, port) pairs the gateway listens on. */
static size_t gw_ports(const hg_nft_config *cfg, gw_port out[5]) {
  const gw_port all[5] = {{IPPROTO_UDP, cfg->dns_port},
                          {IPPROTO_TCP, cfg->dns_port},
                          {IPPROTO_TCP, cfg->relay_port},
                          {IPPROTO_TCP, cfg->http_port},
                          {IPPROTO_TCP, cfg->https_port}};
  size_t n = 0;
  for (size_t i = 0; i < 5; i++) {
    bool dup = all[i].port == 0;
    for (size_t j = 0; j < n && !dup; j++)
      dup = out[j].proto == all[i].proto && out[j].port == all[i].port;
    if (!dup) out[n++] = all[i];
  }
  return n;
}

static void build_nat(batch *b, const hg_nft_config *cfg) {
  const uint16_t fam = NFPROTO_IPV4;
  const char *ch = "nat_pre", *tap = cfg->link.ifname;
  rule r;
  chain_spec c = {.name = ch,
                  .type = "nat",
                  .hook = NF_INET_PRE_ROUTING,
                  .prio = -100,
                  .policy = NF_ACCEPT};
  add_chain(b, fam, &c);

  /* DNS first, whatever the allow set says: every lookup goes to us. */
  const uint8_t dns_protos[2] = {IPPROTO_UDP, IPPROTO_TCP};
  for (int i = 0; i < 2 && cfg->dns_port; i++) {
    rule_begin(&r);
    m_ifname(&r, NFT_META_IIFNAME, tap);
    m_dport(&r, dns_protos[i], 53);
    e_redirect(&r, cfg->dns_port);
    rule_end(&r, b, fam, ch);
  }
  /* An explicit CIDR:port grant wins over the L7 proxy for 80/443. */
  if (cfg->relay_port) {
    rule_begin(&r);
    m_ifname(&r, NFT_META_IIFNAME, tap);
    m_l4proto(&r, IPPROTO_TCP);
    e_payload(&r, NFT_PAYLOAD_NETWORK_HEADER, 16, 4, NFT_REG_1);
    e_payload(&r, NFT_PAYLOAD_TRANSPORT_HEADER, 2, 2, NFT_REG32_01);
    e_lookup(&r, SET_ALLOW, SET_ALLOW_ID);
    e_redirect(&r, cfg->relay_port);
    rule_end(&r, b, fam, ch);
  }
  const uint16_t web[2][2] = {{80, cfg->http_port}, {443, cfg->https_port}};
  for (int i = 0; i < 2; i++) {
    if (!web[i][1]) continue;
    rule_begin(&r);
    m_ifname(&r, NFT_META_IIFNAME, tap);
    m_dport(&r, IPPROTO_TCP, web[i][0]);
    e_redirect(&r, web[i][1]);
    rule_end(&r, b, fam, ch);
  }
}

static void build_filter(batch *b, const hg_nft_config *cfg) {
  const uint16_t fam = NFPROTO_IPV4;
  const char *tap = cfg->link.ifname;
  rule r;

  /* pre: what was not redirected to the gateway would die in routing
   * unseen (no route out, no forwarding); count it here. */
  chain_spec pre = {.name = "pre",
                    .type = "filter",
                    .hook = NF_INET_PRE_ROUTING,
                    .prio = 0,
                    .policy = NF_ACCEPT};
  add_chain(b, fam, &pre);
  rule_begin(&r);
  m_ifname(&r, NFT_META_IIFNAME, tap);
  m_ip_addr(&r, 16, NFT_CMP_NEQ, cfg->link.gw_ip);
  e_count(&r, "egress");
  e_verdict(&r, NF_DROP);
  rule_end(&r, b, fam, "pre");

  chain_spec in = {.name = "input",
                   .type = "filter",
                   .hook = NF_INET_LOCAL_IN,
                   .prio = 0,
                   .policy = NF_DROP};
  add_chain(b, fam, &in);
  rule_begin(&r);
  m_ct_established(&r);
  e_verdict(&r, NF_ACCEPT);
  rule_end(&r, b, fam, "input");
  rule_begin(&r);
  m_ifname(&r, NFT_META_IIFNAME, "lo");
  e_verdict(&r, NF_ACCEPT);
  rule_end(&r, b, fam, "input");
  gw_port ports[5];
  size_t n = gw_ports(cfg, ports);
  for (size_t i = 0; i < n; i++) {
    /* Only what our nat rules sent here: the guest cannot dial the
     * gateway's ports directly (the proxy would see no original dst). */
    rule_begin(&r);
    m_ifname(&r, NFT_META_IIFNAME, tap);
    e_ct(&r, NFT_CT_STATUS);
    e_flags_any(&r, IPS_DST_NAT);
    m_dport(&r, ports[i].proto, ports[i].port);
    e_verdict(&r, NF_ACCEPT);
    rule_end(&r, b, fam, "input");
  }
  rule_begin(&r);
  e_count(&r, "input");
  e_verdict(&r, NF_DROP);
  rule_end(&r, b, fam, "input");

  chain_spec fwd = {.name = "forward",
                    .type = "filter",
                    .hook = NF_INET_FORWARD,
                    .prio = 0,
                    .policy = NF_DROP};
  add_chain(b, fam, &fwd);
  rule_begin(&r);
  e_count(&r, "forward");
  e_verdict(&r, NF_DROP);
  rule_end(&r, b, fam, "forward");

  chain_spec out = {.name = "output",
                    .type = "filter",
                    .hook = NF_INET_LOCAL_OUT,
                    .prio = 0,
                    .policy = NF_DROP};
  add_chain(b, fam, &out);
  rule_begin(&r);
  m_ct_established(&r);
  e_verdict(&r, NF_ACCEPT);
  rule_end(&r, b, fam, "output");
  rule_begin(&r);
  m_ifname(&r, NFT_META_OIFNAME, "lo");
  e_verdict(&r, NF_ACCEPT);
  rule_end(&r, b, fam, "output");
  /* The gateway dialling into the guest: the inbound port proxy. */
  rule_begin(&r);
  m_ifname(&r, NFT_META_OIFNAME, tap);
  m_ip_addr(&r, 16, NFT_CMP_EQ, cfg->link.guest_ip);
  m_l4proto(&r, IPPROTO_TCP);
  e_verdict(&r, NF_ACCEPT);
  rule_end(&r, b, fam, "output");
  rule_begin(&r);
  e_count(&r, "output");
  e_verdict(&r, NF_DROP);
  rule_end(&r, b, fam, "output");
}

static void build_ip(batch *b, const hg_nft_config *cfg, const hg_nft_allow *allow,
                     size_t n_allow) {
  add_table(b, NFPROTO_IPV4, NFT_MSG_NEWTABLE);
  for (size_t i = 0; i < HG_ARRAY_SIZE(ip_counters); i++)
    add_counter(b, NFPROTO_IPV4, ip_counters[i]);
  add_allow_set(b);
  fill_allow_set(b, allow, n_allow, false);
  build_nat(b, cfg);
  build_filter(b, cfg);
}

/* ---- allow entries ------------------------------------------------------------- */

static uint32_t prefix_mask(uint8_t len) {
  return len ? ~0u << (32 - len) : 0;
}

static bool allow_valid(const hg_nft_allow *a) {
  if (a->prefix_len > 32 || a->port == 0) return false;
  return (ntohl(a->addr.s_addr) & ~prefix_mask(a->prefix_len)) == 0;
}

int hg_nft_allow_parse(const char *s, hg_nft_allow *out) {
  char ip[16];
  hg_nft_allow a = {.prefix_len = 32};
  if (!s || !out) return -EINVAL;
  const char *colon = strrchr(s, ':');
  if (!colon || strchr(s, ':') != colon) return -EINVAL;
  const char *slash = memchr(s, '/', (size_t)(colon - s));
  size_t iplen = (size_t)((slash ? slash : colon) - s);
  if (iplen == 0 || iplen >= sizeof ip) return -EINVAL;
  memcpy(ip, s, iplen);
  ip[iplen] = '\0';
  /* glibc's inet_pton takes only a.b.c.d in decimal, no leading zeros. */
  if (inet_pton(AF_INET, ip, &a.addr) != 1) return -EINVAL;
  if (slash) {
    const char *p = slash + 1;
    if (p == colon || colon - p > 2 || (p[0] == '0' && colon - p > 1)) return -EINVAL;
    unsigned v = 0;
    for (; p < colon; p++) {
      if (*p < '0' || *p > '9') return -EINVAL;
      v = v * 10 + (unsigned)(*p - '0');
    }
    if (v > 32) return -EINVAL;
    a.prefix_len = (uint8_t)v;
  }
  const char *p = colon + 1;
  size_t plen = strlen(p);
  if (plen == 0 || plen > 5 || p[0] == '0') return -EINVAL;
  unsigned port = 0;
  for (; *p; p++) {
    if (*p < '0' || *p > '9') return -EINVAL;
    port = port * 10 + (unsigned)(*p - '0');
  }
  if (port > 65535) return -EINVAL;
  a.port = (uint16_t)port;
  if (!allow_valid(&a)) return -EINVAL;
  *out = a;
  return 0;
}

/* b covers a: same port, and a's range inside b's. */
static bool allow_covers(const hg_nft_allow *b, const hg_nft_allow *a) {
  uint32_t m = prefix_mask(b->prefix_len);
  return a->port == b->port && b->prefix_len <= a->prefix_len &&
         (ntohl(a->addr.s_addr) & m) == ntohl(b->addr.s_addr);
}

/* The set holds non-overlapping intervals only (the kernel refuses
 * overlaps); CIDRs either nest or are disjoint, so dropping every entry
 * that another covers (keeping the first of equals) leaves a valid set. */
static int allow_normalize(const hg_nft_allow *in, size_t n, hg_nft_allow **out,
                           size_t *n_out) {
  if (n > HG_NFT_ALLOW_MAX || (n > 0 && !in)) return -EINVAL;
  hg_nft_allow *v = malloc((n ? n : 1) * sizeof *v);
  if (!v) return -ENOMEM;
  size_t k = 0;
  for (size_t i = 0; i < n; i++) {
    if (!allow_valid(&in[i])) {
      free(v);
      return -EINVAL;
    }
    bool covered = false;
    for (size_t j = 0; j < n && !covered; j++)
      covered = j != i && allow_covers(&in[j], &in[i]) &&
                (in[j].prefix_len < in[i].prefix_len || j < i);
    if (!covered) v[k++] = in[i];
  }
  *out = v;
  *n_out = k;
  return 0;
}

/* ---- public ------------------------------------------------------------------ */

typedef void (*build_fn)(batch *b, const void *arg);

static int transact(const hg_netns *ns, const char *what, build_fn build,
                    const void *arg) {
  batch b;
  int err = batch_init(&b);
  if (err < 0) return err;
  build(&b, arg);
  batch_end(&b);
  struct mnl_socket *nl = b.err ? NULL : nl_open(ns, &err);
  if (nl) {
    err = batch_send(nl, &b);
    mnl_socket_close(nl);
  } else if (b.err) {
    err = b.err;
  }
  batch_free(&b);
  if (err < 0)
    hg_log_error("nft.transact", "netns=%s op=%s err=%s", hg_netns_name(ns), what,
                 hg_err_str(err));
  return err;
}

typedef struct apply_arg {
  const hg_nft_config *cfg;
  const hg_nft_allow *allow;
  size_t n_allow;
} apply_arg;

static void build_apply(batch *b, const void *p) {
  const apply_arg *a = p;
  drop_table(b, NFPROTO_NETDEV);
  drop_table(b, NFPROTO_IPV4);
  build_netdev(b, &a->cfg->link);
  build_ip(b, a->cfg, a->allow, a->n_allow);
}

int hg_nft_apply(const hg_netns *ns, const hg_nft_config *cfg) {
  if (!ns || !cfg) return -EINVAL;
  int err = hg_netns_link_check(&cfg->link);
  if (err < 0) return err;
  apply_arg a = {.cfg = cfg};
  hg_nft_allow *allow;
  if ((err = allow_normalize(cfg->allow, cfg->n_allow, &allow, &a.n_allow)) < 0)
    return err;
  a.allow = allow;
  err = transact(ns, "apply", build_apply, &a);
  free(allow);
  if (err == 0)
    hg_log_info("nft.apply", "netns=%s tap=%s allow=%zu", hg_netns_name(ns),
                cfg->link.ifname, a.n_allow);
  return err;
}

typedef struct allow_arg {
  const hg_nft_allow *allow;
  size_t n;
} allow_arg;

static void build_set_allow(batch *b, const void *p) {
  const allow_arg *a = p;
  fill_allow_set(b, a->allow, a->n, true);
}

int hg_nft_set_allow(const hg_netns *ns, const hg_nft_allow *allow, size_t n) {
  if (!ns) return -EINVAL;
  allow_arg a;
  hg_nft_allow *v;
  int err = allow_normalize(allow, n, &v, &a.n);
  if (err < 0) return err;
  a.allow = v;
  err = transact(ns, "set_allow", build_set_allow, &a);
  free(v);
  return err;
}

static void build_flush(batch *b, const void *p) {
  (void)p;
  drop_table(b, NFPROTO_NETDEV);
  drop_table(b, NFPROTO_IPV4);
}

int hg_nft_flush(const hg_netns *ns) {
  if (!ns) return -EINVAL;
  return transact(ns, "flush", build_flush, NULL);
}

/* ---- counters ------------------------------------------------------------------ */

static const struct {
  const char *name;
  uint32_t family;
  size_t off;
} counter_fields[] = {
    {"spoof_mac", NFPROTO_NETDEV, offsetof(hg_nft_counters, spoof_mac)},
    {"spoof_arp", NFPROTO_NETDEV, offsetof(hg_nft_counters, spoof_arp)},
    {"spoof_ip", NFPROTO_NETDEV, offsetof(hg_nft_counters, spoof_ip)},
    {"ipv6", NFPROTO_NETDEV, offsetof(hg_nft_counters, ipv6)},
    {"l2_other", NFPROTO_NETDEV, offsetof(hg_nft_counters, l2_other)},
    {"egress", NFPROTO_IPV4, offsetof(hg_nft_counters, egress)},
    {"input", NFPROTO_IPV4, offsetof(hg_nft_counters, input)},
    {"forward", NFPROTO_IPV4, offsetof(hg_nft_counters, forward)},
    {"output", NFPROTO_IPV4, offsetof(hg_nft_counters, output)},
};

typedef struct counters_acc {
  hg_nft_counters c;
  unsigned found; /* bit per counter_fields entry */
} counters_acc;

static int counter_cb(const struct nlmsghdr *nlh, void *data) {
  counters_acc *acc = data;
  struct nftnl_obj *o = nftnl_obj_alloc();
  if (!o) return MNL_CB_ERROR;
  if (nftnl_obj_nlmsg_parse(nlh, o) == 0 &&
      nftnl_obj_get_u32(o, NFTNL_OBJ_TYPE) == NFT_OBJECT_COUNTER) {
    const char *table = nftnl_obj_get_str(o, NFTNL_OBJ_TABLE);
    const char *name = nftnl_obj_get_str(o, NFTNL_OBJ_NAME);
    uint32_t family = nftnl_obj_get_u32(o, NFTNL_OBJ_FAMILY);
    for (size_t i = 0; table && name && i < HG_ARRAY_SIZE(counter_fields); i++) {
      if (strcmp(table, HG_NFT_TABLE) != 0 || strcmp(name, counter_fields[i].name) != 0 ||
          family != counter_fields[i].family)
        continue;
      hg_nft_counter *c = (hg_nft_counter *)((char *)&acc->c + counter_fields[i].off);
      c->packets = nftnl_obj_get_u64(o, NFTNL_OBJ_CTR_PKTS);
      c->bytes = nftnl_obj_get_u64(o, NFTNL_OBJ_CTR_BYTES);
      acc->found |= 1u << i;
    }
  }
  nftnl_obj_free(o);
  return MNL_CB_OK;
}

int hg_nft_counters_read(const hg_netns *ns, hg_nft_counters *out) {
  if (!ns || !out) return -EINVAL;
  int err;
  struct mnl_socket *nl = nl_open(ns, &err);
  if (!nl) return err;
  char buf[NL_BUF];
  uint32_t seq = (uint32_t)time(NULL);
  struct nlmsghdr *nlh =
      nftnl_nlmsg_build_hdr(buf, NFT_MSG_GETOBJ, NFPROTO_UNSPEC, NLM_F_DUMP, seq);
  struct nftnl_obj *filter = nftnl_obj_alloc();
  if (filter) nftnl_obj_set_str(filter, NFTNL_OBJ_TABLE, HG_NFT_TABLE);
  if (!filter || !nftnl_obj_is_set(filter, NFTNL_OBJ_TABLE)) {
    if (filter) nftnl_obj_free(filter);
    mnl_socket_close(nl);
    return -ENOMEM;
  }
  nftnl_obj_set_u32(filter, NFTNL_OBJ_TYPE, NFT_OBJECT_COUNTER);
  nftnl_obj_nlmsg_build_payload(nlh, filter);
  nftnl_obj_free(filter);

  counters_acc acc = {0};
  err = mnl_socket_sendto(nl, nlh, nlh->nlmsg_len) < 0 ? -errno : 0;
  uint32_t portid = mnl_socket_get_portid(nl);
  while (err == 0) {
    ssize_t n = nl_recv(nl, buf, sizeof buf);
    if (n < 0) {
      err = (int)n;
      break;
    }
    int rc = mnl_cb_run(buf, (size_t)n, seq, portid, counter_cb, &acc);
    if (rc < 0) err = -errno;
    if (rc <= MNL_CB_STOP) break;
  }
  mnl_socket_close(nl);
  if (err < 0) return err;
  if (acc.found != (1u << HG_ARRAY_SIZE(counter_fields)) - 1) return -ENOENT;
  *out = acc.c;
  return 0;
}
