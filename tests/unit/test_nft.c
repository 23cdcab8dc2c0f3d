/* nft with the real kernel. Each test builds two namespaces under a fresh
 * /tmp/hg-nft-<pid>-XXXXXX: "gw", the sandbox's namespace with the gateway's
 * listeners, and "guest", playing the VM, joined by a veth pair standing in
 * for the tap (gw: tap0 = 10.0.2.1, guest: eth0 = 10.0.2.15 with the guest
 * MAC, default route via the gateway). The rules are checked twice: as
 * `nft -j list ruleset` reads them back, and by what gets through. Needs
 * root, ip(8), nsenter(1) and nft(8). The veth dies with the namespaces. */
#include <arpa/inet.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <glob.h>
#include <limits.h>
#include <linux/if_packet.h>
#include <linux/netfilter_ipv4.h>
#include <net/if.h>
#include <netinet/in.h>
#include <poll.h>
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cmocka.h>
#include <jansson.h>

#include "gateway/netns.h"
#include "gateway/nft.h"
#include "node/core/log.h"
#include "node/core/util.h"
#include "tests/unit/netns_util.h"
#include "tests/unit/proc_util.h"

enum { DNS_PORT = 5353, HTTP_PORT = 8080, HTTPS_PORT = 8443, RELAY_PORT = 7000 };
#define DROP_WAIT_MS 400 /* a dropped SYN: no answer within this */

typedef struct fixture {
  char base[64];
  char dir[96];
  hg_netns *gw, *guest;
  hg_netns_link link;
  hg_nft_config cfg;
  hg_nft_allow allow[1];
  int dns_udp, dns_tcp, http, https, relay; /* gateway listeners */
  int fds;
} fixture;

/* ---- helpers: processes, files ----------------------------------------- */

/* stdout of `nsenter --net=<ns> <cmd>`, NUL-terminated, caller frees. */
static char *ns_output(const hg_netns *ns, const char *cmd) {
  char line[512];
  snprintf(line, sizeof line, "nsenter --net=%s %s 2>/dev/null", hg_netns_path(ns), cmd);
  FILE *p = popen(line, "r");
  if (!p) return NULL;
  size_t cap = 1 << 16, len = 0;
  char *out = malloc(cap);
  size_t n;
  while (out && (n = fread(out + len, 1, cap - len - 1, p)) > 0) {
    len += n;
    if (cap - len < 2) {
      char *bigger = realloc(out, cap *= 2);
      if (!bigger) free(out);
      out = bigger;
    }
  }
  pclose(p);
  if (out) out[len] = '\0';
  return out;
}

/* ---- helpers: the ruleset as nft reads it back --------------------------- */

static bool str_is(json_t *o, const char *key, const char *want) {
  const char *v = json_string_value(json_object_get(o, key));
  return v && strcmp(v, want) == 0;
}

/* The "nftables" array of `nft -j list ruleset` in ns. */
static json_t *ruleset(const hg_netns *ns) {
  char *text = ns_output(ns, "nft -j list ruleset");
  assert_non_null(text);
  json_error_t jerr;
  json_t *root = json_loads(text, 0, &jerr);
  free(text);
  assert_non_null(root);
  json_t *arr = json_incref(json_object_get(root, "nftables"));
  json_decref(root);
  assert_true(json_is_array(arr));
  return arr;
}

/* The body of the first {kind: {family, name|chain...}} object matching. */
static json_t *find(json_t *rs, const char *kind, const char *family, const char *name) {
  size_t i;
  json_t *el;
  json_array_foreach(rs, i, el) {
    json_t *o = json_object_get(el, kind);
    if (!o) continue;
    if (str_is(o, "family", family) && str_is(o, "name", name)) return o;
  }
  return NULL;
}

static int count_kind(json_t *rs, const char *kind, const char *family,
                      const char *table) {
  size_t i;
  json_t *el;
  int n = 0;
  json_array_foreach(rs, i, el) {
    json_t *o = json_object_get(el, kind);
    if (o && str_is(o, "family", family) && str_is(o, "table", table)) n++;
  }
  return n;
}

/* Does a rule of chain hold, as elements of its "expr", every statement
 * given in JSON (NULL-terminated)? Exact structural equality. */
static bool rule_has(json_t *rs, const char *family, const char *chain, ...) {
  json_t *want[8];
  int nwant = 0;
  va_list ap;
  va_start(ap, chain);
  for (const char *s; nwant < 8 && (s = va_arg(ap, const char *)) != NULL;) {
    want[nwant] = json_loads(s, JSON_DECODE_ANY, NULL);
    assert_non_null(want[nwant]);
    nwant++;
  }
  va_end(ap);
  bool found = false;
  size_t i;
  json_t *el;
  json_array_foreach(rs, i, el) {
    json_t *r = json_object_get(el, "rule");
    if (!r || found) continue;
    if (!str_is(r, "family", family) || !str_is(r, "chain", chain)) continue;
    json_t *expr = json_object_get(r, "expr");
    int hits = 0;
    for (int w = 0; w < nwant; w++) {
      size_t k;
      json_t *stmt;
      json_array_foreach(expr, k, stmt) {
        if (json_equal(stmt, want[w])) {
          hits++;
          break;
        }
      }
    }
    found = hits == nwant;
  }
  for (int w = 0; w < nwant; w++) json_decref(want[w]);
  return found;
}

/* Every rule (with its handle) as one string: what set updates must not touch. */
static char *rules_dump(const hg_netns *ns) {
  json_t *rs = ruleset(ns), *rules = json_array();
  size_t i;
  json_t *el;
  json_array_foreach(rs, i, el) {
    if (json_object_get(el, "rule") || json_object_get(el, "chain"))
      json_array_append(rules, el);
  }
  char *s = json_dumps(rules, JSON_COMPACT | JSON_SORT_KEYS);
  json_decref(rules);
  json_decref(rs);
  return s;
}

static size_t allow_elems(const hg_netns *ns) {
  json_t *rs = ruleset(ns);
  json_t *set = find(rs, "set", "ip", "allow");
  assert_non_null(set);
  json_t *elem = json_object_get(set, "elem");
  size_t n = elem ? json_array_size(elem) : 0;
  json_decref(rs);
  return n;
}

static hg_nft_counters counters(const hg_netns *ns) {
  hg_nft_counters c;
  assert_int_equal(hg_nft_counters_read(ns, &c), 0);
  return c;
}

static const char *mac_str(const uint8_t m[6], char out[18]) {
  snprintf(out, 18, "%02x:%02x:%02x:%02x:%02x:%02x", m[0], m[1], m[2], m[3], m[4], m[5]);
  return out;
}

/* ---- helpers: traffic ---------------------------------------------------- */

/* A TCP connection from the guest: its fd, or the negative errno. */
static int guest_connect(fixture *f, const char *ip, uint16_t port, int ms) {
  struct sockaddr_in to = sin_of(ip, port);
  int fd;
  assert_int_equal(
      hg_netns_socket(f->guest, AF_INET, SOCK_STREAM | SOCK_NONBLOCK, 0, &fd), 0);
  int err = 0;
  if (connect(fd, (struct sockaddr *)&to, sizeof to) < 0) {
    err = -errno;
    if (err == -EINPROGRESS) {
      struct pollfd p = {.fd = fd, .events = POLLOUT};
      if (poll(&p, 1, ms) == 0) {
        err = -ETIMEDOUT;
      } else {
        int so = 0;
        socklen_t len = sizeof so;
        getsockopt(fd, SOL_SOCKET, SO_ERROR, &so, &len);
        err = -so;
      }
    }
  }
  if (err < 0) {
    close(fd);
    return err;
  }
  return fd;
}

static int accept_ms(int listener, int ms) {
  if (!readable(listener, ms)) return -ETIMEDOUT;
  int fd = accept4(listener, NULL, NULL, SOCK_CLOEXEC);
  return fd < 0 ? -errno : fd;
}

static void assert_orig_dst(int fd, const char *ip, uint16_t port) {
  struct sockaddr_in dst;
  socklen_t len = sizeof dst;
  assert_int_equal(getsockopt(fd, SOL_IP, SO_ORIGINAL_DST, &dst, &len), 0);
  char got[INET_ADDRSTRLEN];
  inet_ntop(AF_INET, &dst.sin_addr, got, sizeof got);
  assert_string_equal(got, ip);
  assert_int_equal(ntohs(dst.sin_port), port);
}

/* The guest dials ip:port and the gateway's listener gets it, with the
 * destination the guest asked for. Returns both ends (caller closes). */
static void assert_reaches(fixture *f, int listener, const char *ip, uint16_t port,
                           int *guest_fd, int *gw_fd) {
  int c = guest_connect(f, ip, port, 2000);
  assert_true(c >= 0);
  int a = accept_ms(listener, 2000);
  assert_true(a >= 0);
  assert_orig_dst(a, ip, port);
  struct sockaddr_in peer;
  socklen_t len = sizeof peer;
  assert_int_equal(getpeername(a, (struct sockaddr *)&peer, &len), 0);
  assert_int_equal(peer.sin_addr.s_addr, f->link.guest_ip.s_addr);
  if (guest_fd && gw_fd) {
    *guest_fd = c, *gw_fd = a;
  } else {
    close(c);
    close(a);
  }
}

static void assert_dropped(fixture *f, const char *ip, uint16_t port) {
  assert_int_equal(guest_connect(f, ip, port, DROP_WAIT_MS), -ETIMEDOUT);
}

/* Nothing is waiting on a listener. */
static void assert_no_pending(int listener) {
  assert_false(readable(listener, 0));
}

static void echo(int from, int to, const char *msg) {
  char buf[64];
  size_t n = strlen(msg);
  assert_int_equal(write(from, msg, n), (ssize_t)n);
  assert_true(readable(to, 2000));
  assert_int_equal(read(to, buf, sizeof buf), (ssize_t)n);
  assert_memory_equal(buf, msg, n);
}

/* ---- helpers: raw frames from the guest ---------------------------------- */

/* ARP request "who has target? tell sender_ip" from sha. */
static size_t arp_frame(uint8_t *buf, const uint8_t sha[6], struct in_addr sender_ip,
                        struct in_addr target) {
  static const uint8_t bcast[6] = {0xff, 0xff, 0xff, 0xff, 0xff, 0xff};
  size_t off = eth(buf, bcast, sha, 0x0806);
  uint8_t *a = buf + off;
  static const uint8_t hdr[8] = {0x00, 0x01, 0x08, 0x00, 6, 4, 0x00, 0x01};
  memcpy(a, hdr, 8);
  memcpy(a + 8, sha, 6);
  memcpy(a + 14, &sender_ip, 4);
  memset(a + 18, 0, 6);
  memcpy(a + 24, &target, 4);
  return off + 28;
}

static size_t ipv6_frame(uint8_t *buf, const uint8_t src[6]) {
  static const uint8_t mcast[6] = {0x33, 0x33, 0, 0, 0, 1};
  size_t off = eth(buf, mcast, src, 0x86dd);
  memset(buf + off, 0, 40);
  buf[off] = 0x60, buf[off + 6] = 59; /* no next header */
  buf[off + 7] = 255;
  buf[off + 24] = 0xff, buf[off + 25] = 0x02, buf[off + 39] = 1; /* ff02::1 */
  return off + 40;
}

typedef struct raw {
  int fd, ifindex;
} raw;

static int ifindex_in_ns(void *arg) {
  int i = (int)if_nametoindex("eth0");
  if (i <= 0) return -ENODEV;
  *(int *)arg = i;
  return 0;
}

static raw guest_raw(fixture *f) {
  raw r;
  assert_int_equal(hg_netns_run(f->guest, ifindex_in_ns, &r.ifindex), 0);
  assert_int_equal(hg_netns_socket(f->guest, AF_PACKET, SOCK_RAW, 0, &r.fd), 0);
  return r;
}

static void raw_send(raw *r, const uint8_t *frame, size_t len) {
  struct sockaddr_ll to = {
      .sll_family = AF_PACKET, .sll_ifindex = r->ifindex, .sll_halen = 6};
  memcpy(to.sll_addr, frame, 6);
  assert_int_equal(sendto(r->fd, frame, len, 0, (struct sockaddr *)&to, sizeof to),
                   (ssize_t)len);
}

/* ---- fixtures ------------------------------------------------------------ */

static int gw_listen(fixture *f, int type, uint16_t port) {
  struct sockaddr_in a = {
      .sin_family = AF_INET, .sin_addr = f->link.gw_ip, .sin_port = htons(port)};
  int fd = -1;
  return hg_netns_listen(f->gw, type, &a, 16, &fd) == 0 ? fd : -1;
}

/* The veth pair: tap0 in gw, configured by the library as it would a tap;
 * eth0 in guest, configured as the guest agent will. */
static int make_link(fixture *f) {
  char mac[18];
  if (sh("ip link add tap0 netns %s type veth peer name eth0 netns %s",
         hg_netns_path(f->gw), hg_netns_path(f->guest)) != 0)
    return -1;
  if (hg_netns_link_up(f->gw, &f->link) != 0) return -1;
  return sh(
      "nsenter --net=%s sh -c 'ip link set eth0 address %s && "
      "ip addr add 10.0.2.15/24 dev eth0 && ip link set eth0 up && "
      "ip route add default via 10.0.2.1'",
      hg_netns_path(f->guest), mac_str(f->link.guest_mac, mac));
}

static int teardown(void **state);

static int build(fixture *f) {
  f->dns_udp = f->dns_tcp = f->http = f->https = f->relay = -1;
  f->fds = count_fds();
  snprintf(f->base, sizeof f->base, "/tmp/hg-nft-%d-XXXXXX", (int)getpid());
  if (!mkdtemp(f->base)) return -1;
  snprintf(f->dir, sizeof f->dir, "%s/netns", f->base);
  hg_netns_link_default(&f->link);
  if (hg_netns_create(f->dir, "gw", &f->gw) != 0 ||
      hg_netns_create(f->dir, "guest", &f->guest) != 0 || make_link(f) != 0)
    return -1;
  f->dns_udp = gw_listen(f, SOCK_DGRAM, DNS_PORT);
  f->dns_tcp = gw_listen(f, SOCK_STREAM, DNS_PORT);
  f->http = gw_listen(f, SOCK_STREAM, HTTP_PORT);
  f->https = gw_listen(f, SOCK_STREAM, HTTPS_PORT);
  f->relay = gw_listen(f, SOCK_STREAM, RELAY_PORT);
  if (f->dns_udp < 0 || f->dns_tcp < 0 || f->http < 0 || f->https < 0 || f->relay < 0)
    return -1;
  if (hg_nft_allow_parse("203.0.113.0/24:5432", &f->allow[0]) != 0) return -1;
  f->cfg = (hg_nft_config){.link = f->link,
                           .dns_port = DNS_PORT,
                           .http_port = HTTP_PORT,
                           .https_port = HTTPS_PORT,
                           .relay_port = RELAY_PORT,
                           .allow = f->allow,
                           .n_allow = 1};
  return hg_nft_apply(f->gw, &f->cfg);
}

/* cmocka runs no teardown when setup fails: undo here. */
static int setup(void **state) {
  fixture *f = calloc(1, sizeof *f);
  if (!f) return -1;
  *state = f;
  if (build(f) != 0) {
    teardown(state);
    *state = NULL;
    return -1;
  }
  return 0;
}

static int teardown(void **state) {
  fixture *f = *state;
  int fds[] = {f->dns_udp, f->dns_tcp, f->http, f->https, f->relay};
  for (size_t i = 0; i < HG_ARRAY_SIZE(fds); i++)
    if (fds[i] >= 0) close(fds[i]);
  hg_netns_close(f->gw);
  hg_netns_close(f->guest);
  if (f->base[0] == '/') {
    hg_netns_delete(f->dir, "gw");
    hg_netns_delete(f->dir, "guest");
  }
  int rc = teardown_end(f->base, f->dir, f->fds);
  free(f);
  return rc;
}

static int group_setup(void **state) {
  if (quiet_log_need_root("test_nft", "namespaces, nftables") != 0) return -1;
  if (sh("command -v nft >/dev/null && command -v nsenter >/dev/null && "
         "command -v ip >/dev/null") != 0) {
    fprintf(stderr, "test_nft needs nft, nsenter and ip\n");
    return -1;
  }
  sweep_stale("hg-nft");
  return 0;
}

/* ---- tests: what nft reads back -------------------------------------------- */

static void ruleset_reads_back_as_built(void **state) {
  fixture *f = *state;
  json_t *rs = ruleset(f->gw);

  json_t *t4 = find(rs, "table", "ip", "hangar"),
         *tn = find(rs, "table", "netdev", "hangar");
  assert_non_null(t4);
  assert_non_null(tn);
  /* Not owner-flagged (nor dormant): the rules must outlive the daemon. */
  assert_null(json_object_get(t4, "flags"));
  assert_null(json_object_get(tn, "flags"));

  json_t *c = find(rs, "chain", "netdev", "ingress");
  assert_non_null(c);
  assert_string_equal(json_string_value(json_object_get(c, "hook")), "ingress");
  /* (nft 1.0.6's JSON leaves out the device; the text below shows it.) */
  assert_string_equal(json_string_value(json_object_get(c, "policy")), "drop");
  static const struct {
    const char *name, *type, *hook, *policy;
    int prio;
  } chains[] = {{"nat_pre", "nat", "prerouting", "accept", -100},
                {"pre", "filter", "prerouting", "accept", 0},
                {"input", "filter", "input", "drop", 0},
                {"forward", "filter", "forward", "drop", 0},
                {"output", "filter", "output", "drop", 0}};
  for (size_t i = 0; i < HG_ARRAY_SIZE(chains); i++) {
    c = find(rs, "chain", "ip", chains[i].name);
    assert_non_null(c);
    assert_string_equal(json_string_value(json_object_get(c, "type")), chains[i].type);
    assert_string_equal(json_string_value(json_object_get(c, "hook")), chains[i].hook);
    assert_string_equal(json_string_value(json_object_get(c, "policy")),
                        chains[i].policy);
    assert_int_equal(json_integer_value(json_object_get(c, "prio")), chains[i].prio);
  }
  assert_int_equal(count_kind(rs, "chain", "ip", "hangar"), 5);
  assert_int_equal(count_kind(rs, "counter", "netdev", "hangar"), 5);
  assert_int_equal(count_kind(rs, "counter", "ip", "hangar"), 4);

  json_t *set = find(rs, "set", "ip", "allow");
  assert_non_null(set);
  json_t *want = json_loads("[\"ipv4_addr\", \"inet_service\"]", 0, NULL);
  assert_true(json_equal(json_object_get(set, "type"), want));
  json_decref(want);
  want = json_loads(
      "[{\"concat\": [{\"prefix\": {\"addr\": \"203.0.113.0\", \"len\": 24}}, "
      "5432]}]",
      0, NULL);
  assert_true(json_equal(json_object_get(set, "elem"), want));
  json_decref(want);

  /* Rules, statement by statement, as nft decodes them: a port match reads
   * back as "tcp dport" only when the l4proto dependency is there. */
#define IIF_TAP                                                                 \
  "{\"match\": {\"op\": \"==\", \"left\": {\"meta\": {\"key\": \"iifname\"}}, " \
  "\"right\": \"tap0\"}}"
#define DPORT(proto, port)                                                       \
  "{\"match\": {\"op\": \"==\", \"left\": {\"payload\": {\"protocol\": \"" proto \
  "\", \"field\": \"dport\"}}, \"right\": " #port "}}"
#define REDIRECT(port) "{\"redirect\": {\"port\": " #port "}}"
#define COUNT(name) "{\"counter\": \"" name "\"}"
#define DROP "{\"drop\": null}"
#define ACCEPT "{\"accept\": null}"
  char mac[18], ether_saddr[160], arp_sha[160];
  mac_str(f->link.guest_mac, mac);
  snprintf(ether_saddr, sizeof ether_saddr,
           "{\"match\": {\"op\": \"!=\", \"left\": {\"payload\": {\"protocol\": "
           "\"ether\", \"field\": \"saddr\"}}, \"right\": \"%s\"}}",
           mac);
  snprintf(arp_sha, sizeof arp_sha,
           "{\"match\": {\"op\": \"==\", \"left\": {\"payload\": {\"protocol\": "
           "\"arp\", \"field\": \"saddr ether\"}}, \"right\": \"%s\"}}",
           mac);
  assert_true(
      rule_has(rs, "netdev", "ingress", ether_saddr, COUNT("spoof_mac"), DROP, NULL));
  assert_true(
      rule_has(rs, "netdev", "ingress",
               "{\"match\": {\"op\": \"==\", \"left\": {\"payload\": {\"protocol\": "
               "\"arp\", \"field\": \"saddr ip\"}}, \"right\": \"10.0.2.15\"}}",
               arp_sha, ACCEPT, NULL));
  assert_true(
      rule_has(rs, "netdev", "ingress",
               "{\"match\": {\"op\": \"==\", \"left\": {\"payload\": {\"protocol\": "
               "\"ip\", \"field\": \"saddr\"}}, \"right\": \"10.0.2.15\"}}",
               ACCEPT, NULL));
  assert_true(
      rule_has(rs, "netdev", "ingress",
               "{\"match\": {\"op\": \"==\", \"left\": {\"payload\": {\"protocol\": "
               "\"ether\", \"field\": \"type\"}}, \"right\": \"ip6\"}}",
               COUNT("ipv6"), DROP, NULL));
  assert_true(
      rule_has(rs, "ip", "nat_pre", IIF_TAP, DPORT("udp", 53), REDIRECT(5353), NULL));
  assert_true(
      rule_has(rs, "ip", "nat_pre", IIF_TAP, DPORT("tcp", 53), REDIRECT(5353), NULL));
  assert_true(
      rule_has(rs, "ip", "nat_pre", IIF_TAP, DPORT("tcp", 80), REDIRECT(8080), NULL));
  assert_true(
      rule_has(rs, "ip", "nat_pre", IIF_TAP, DPORT("tcp", 443), REDIRECT(8443), NULL));
  assert_true(
      rule_has(rs, "ip", "nat_pre", IIF_TAP,
               "{\"match\": {\"op\": \"==\", \"left\": {\"concat\": [{\"payload\": "
               "{\"protocol\": \"ip\", \"field\": \"daddr\"}}, {\"payload\": "
               "{\"protocol\": \"tcp\", \"field\": \"dport\"}}]}, \"right\": "
               "\"@allow\"}}",
               REDIRECT(7000), NULL));
  assert_true(
      rule_has(rs, "ip", "pre", IIF_TAP,
               "{\"match\": {\"op\": \"!=\", \"left\": {\"payload\": {\"protocol\": "
               "\"ip\", \"field\": \"daddr\"}}, \"right\": \"10.0.2.1\"}}",
               COUNT("egress"), DROP, NULL));
  assert_true(
      rule_has(rs, "ip", "input",
               "{\"match\": {\"op\": \"in\", \"left\": {\"ct\": {\"key\": \"state\"}}, "
               "\"right\": [\"established\", \"related\"]}}",
               ACCEPT, NULL));
  assert_true(
      rule_has(rs, "ip", "input", IIF_TAP,
               "{\"match\": {\"op\": \"in\", \"left\": {\"ct\": {\"key\": \"status\"}}, "
               "\"right\": \"dnat\"}}",
               DPORT("tcp", 8443), ACCEPT, NULL));
  assert_true(rule_has(rs, "ip", "input", COUNT("input"), DROP, NULL));
  assert_true(rule_has(rs, "ip", "forward", COUNT("forward"), DROP, NULL));
  assert_true(rule_has(rs, "ip", "output", COUNT("output"), DROP, NULL));
  /* A statement that is not there is not found (the check can fail). */
  assert_false(rule_has(rs, "ip", "nat_pre", IIF_TAP, DPORT("tcp", 22), NULL));
  json_decref(rs);

  /* No raw payload expressions anywhere (what a missing dependency reads
   * back as: "@th,16,16", "@nh,...", "@ll,..."). */
  char *text = ns_output(f->gw, "nft list ruleset");
  assert_non_null(text);
  assert_non_null(strstr(text, "iifname \"tap0\" tcp dport 443 redirect to :8443"));
  assert_non_null(strstr(text,
                         "type filter hook ingress device \"tap0\" priority filter; "
                         "policy drop;"));
  assert_null(strstr(text, "@th"));
  assert_null(strstr(text, "@nh"));
  assert_null(strstr(text, "@ll"));
  assert_null(strstr(text, "owner"));
  free(text);
}

/* ---- tests: what gets through ---------------------------------------------- */

static void dns_to_any_resolver_reaches_the_responder(void **state) {
  fixture *f = *state;
  const char *resolvers[] = {"8.8.8.8", "1.1.1.1", "10.0.2.1"};
  int u;
  assert_int_equal(hg_netns_socket(f->guest, AF_INET, SOCK_DGRAM, 0, &u), 0);
  for (size_t i = 0; i < HG_ARRAY_SIZE(resolvers); i++) {
    struct sockaddr_in to = sin_of(resolvers[i], 53), from;
    socklen_t flen = sizeof from;
    char buf[16];
    assert_int_equal(sendto(u, "query", 5, 0, (struct sockaddr *)&to, sizeof to), 5);
    assert_true(readable(f->dns_udp, 2000));
    assert_int_equal(
        recvfrom(f->dns_udp, buf, sizeof buf, 0, (struct sockaddr *)&from, &flen), 5);
    assert_int_equal(from.sin_addr.s_addr, f->link.guest_ip.s_addr);
    /* The answer comes back from the address the guest asked. */
    assert_int_equal(sendto(f->dns_udp, "answer", 6, 0, (struct sockaddr *)&from, flen),
                     6);
    assert_true(readable(u, 2000));
    flen = sizeof from;
    assert_int_equal(recvfrom(u, buf, sizeof buf, 0, (struct sockaddr *)&from, &flen), 6);
    assert_int_equal(from.sin_addr.s_addr, to.sin_addr.s_addr);
    assert_int_equal(ntohs(from.sin_port), 53);
  }
  close(u);
  /* DNS over TCP too. */
  int c, a;
  assert_reaches(f, f->dns_tcp, "8.8.8.8", 53, &c, &a);
  echo(c, a, "tcp-query");
  close(c);
  close(a);
}

static void web_traffic_reaches_the_proxy_with_its_original_destination(void **state) {
  fixture *f = *state;
  int c, a;
  assert_reaches(f, f->https, "203.0.113.5", 443, &c, &a);
  echo(c, a, "client hello");
  echo(a, c, "server hello");
  close(c);
  close(a);
  assert_reaches(f, f->http, "198.51.100.7", 80, NULL, NULL);
  assert_no_pending(f->https);
  assert_no_pending(f->relay);
}

static void everything_else_is_dropped_and_counted(void **state) {
  fixture *f = *state;
  hg_nft_counters c0 = counters(f->gw);

  /* Another port out: no SYN-ACK, no RST. */
  assert_dropped(f, "203.0.113.5", 22);
  hg_nft_counters c1 = counters(f->gw);
  assert_true(c1.egress.packets > c0.egress.packets);

  /* The gateway's own ports, unless redirected there. */
  assert_dropped(f, "10.0.2.1", 22);
  assert_dropped(f, "10.0.2.1", HTTPS_PORT);
  assert_no_pending(f->https);
  hg_nft_counters c2 = counters(f->gw);
  assert_true(c2.input.packets >= c1.input.packets + 2);

  /* UDP other than DNS (QUIC), ICMP out and to the gateway. */
  int u, icmp;
  struct sockaddr_in quic = sin_of("203.0.113.5", 443), gw = sin_of("10.0.2.1", 0),
                     out = sin_of("203.0.113.5", 0);
  assert_int_equal(hg_netns_socket(f->guest, AF_INET, SOCK_DGRAM, 0, &u), 0);
  assert_int_equal(sendto(u, "quic", 4, 0, (struct sockaddr *)&quic, sizeof quic), 4);
  assert_int_equal(hg_netns_socket(f->guest, AF_INET, SOCK_RAW, IPPROTO_ICMP, &icmp), 0);
  uint8_t ping[8] = {8, 0, 0, 0, 0x12, 0x34, 0, 1};
  uint16_t ck = ip_checksum(ping, sizeof ping);
  ping[2] = (uint8_t)(ck >> 8), ping[3] = (uint8_t)ck;
  assert_int_equal(sendto(icmp, ping, sizeof ping, 0, (struct sockaddr *)&gw, sizeof gw),
                   8);
  assert_int_equal(
      sendto(icmp, ping, sizeof ping, 0, (struct sockaddr *)&out, sizeof out), 8);
  assert_false(readable(icmp, DROP_WAIT_MS)); /* no echo reply, no error */
  assert_false(readable(u, 0));
  hg_nft_counters c3 = counters(f->gw);
  assert_true(c3.egress.packets >= c2.egress.packets + 2);
  assert_true(c3.input.packets >= c2.input.packets + 1);
  assert_int_equal(c3.forward.packets, 0);
  assert_int_equal(c3.output.packets, 0);
  close(u);
  close(icmp);
  /* Nothing of it was taken for spoofing. */
  assert_int_equal(c3.spoof_ip.packets + c3.spoof_mac.packets + c3.spoof_arp.packets, 0);
}

static void spoofed_frames_are_dropped_and_counted(void **state) {
  fixture *f = *state;
  static const uint8_t other_mac[6] = {0x02, 0x68, 0x67, 0x00, 0x00, 0x99};
  struct in_addr other_ip;
  inet_pton(AF_INET, "10.0.2.99", &other_ip);
  raw r = guest_raw(f);
  uint8_t frame[256];
  hg_nft_counters c0 = counters(f->gw);

  /* Spoofed source IP (right MAC), spoofed MAC (right IP), ARP claiming
   * another IP, IPv6, an unknown ethertype: all to the DNS port, which
   * would answer them. */
  raw_send(&r, frame,
           udp_frame(frame, f->link.gw_mac, f->link.guest_mac, other_ip, f->link.gw_ip,
                     4000, 53, "spoof-ip"));
  raw_send(&r, frame,
           udp_frame(frame, f->link.gw_mac, other_mac, f->link.guest_ip, f->link.gw_ip,
                     4000, 53, "spoof-mac"));
  raw_send(&r, frame, arp_frame(frame, f->link.guest_mac, other_ip, f->link.gw_ip));
  raw_send(&r, frame, ipv6_frame(frame, f->link.guest_mac));
  size_t n = eth(frame, f->link.gw_mac, f->link.guest_mac, 0x88b5);
  memset(frame + n, 0xab, 46);
  raw_send(&r, frame, n + 46);
  /* The same datagram with the guest's own addresses: it arrives, and is
   * the first thing that does. */
  raw_send(&r, frame,
           udp_frame(frame, f->link.gw_mac, f->link.guest_mac, f->link.guest_ip,
                     f->link.gw_ip, 4000, 53, "genuine"));
  char buf[32];
  assert_true(readable(f->dns_udp, 2000));
  assert_int_equal(recv(f->dns_udp, buf, sizeof buf, 0), 7);
  assert_memory_equal(buf, "genuine", 7);
  assert_false(readable(f->dns_udp, 100));

  hg_nft_counters c1 = counters(f->gw);
  assert_int_equal(c1.spoof_ip.packets, c0.spoof_ip.packets + 1);
  assert_int_equal(c1.spoof_mac.packets, c0.spoof_mac.packets + 1);
  assert_int_equal(c1.spoof_arp.packets, c0.spoof_arp.packets + 1);
  assert_int_equal(c1.ipv6.packets, c0.ipv6.packets + 1);
  assert_int_equal(c1.l2_other.packets, c0.l2_other.packets + 1);
  assert_true(c1.spoof_ip.bytes > c0.spoof_ip.bytes);

  /* ARP from the guest as itself is answered (the guest resolved the
   * gateway that way to get this far, but check it in so many words). */
  raw_send(&r, frame,
           arp_frame(frame, f->link.guest_mac, f->link.guest_ip, f->link.gw_ip));
  hg_nft_counters c2 = counters(f->gw);
  assert_int_equal(c2.spoof_arp.packets, c1.spoof_arp.packets);
  close(r.fd);
}

static void allow_set_update_is_live_and_leaves_the_rules(void **state) {
  fixture *f = *state;
  int pc, pa; /* an established proxy connection across the updates */
  assert_reaches(f, f->https, "203.0.113.5", 443, &pc, &pa);

  assert_reaches(f, f->relay, "203.0.113.9", 5432, NULL, NULL);
  assert_dropped(f, "198.51.100.1", 22);
  char *before = rules_dump(f->gw);

  hg_nft_allow a;
  assert_int_equal(hg_nft_allow_parse("198.51.100.1:22", &a), 0);
  assert_int_equal(hg_nft_set_allow(f->gw, &a, 1), 0);
  assert_reaches(f, f->relay, "198.51.100.1", 22, NULL, NULL);
  assert_dropped(f, "203.0.113.9", 5432);
  assert_no_pending(f->relay);
  assert_int_equal(allow_elems(f->gw), 1);
  char *after = rules_dump(f->gw);
  assert_string_equal(before, after); /* same rules, same handles */
  free(after);
  echo(pc, pa, "still here");

  /* Overlaps merge (the kernel would refuse them); an explicit grant on
   * 443 goes to the relay, not the proxy. */
  hg_nft_allow v[4];
  assert_int_equal(hg_nft_allow_parse("10.1.0.0/16:443", &v[0]), 0);
  assert_int_equal(hg_nft_allow_parse("10.0.0.0/8:443", &v[1]), 0);
  assert_int_equal(hg_nft_allow_parse("10.0.0.0/8:443", &v[2]), 0);
  assert_int_equal(hg_nft_allow_parse("10.1.0.0/16:80", &v[3]), 0);
  assert_int_equal(hg_nft_set_allow(f->gw, v, 4), 0);
  assert_int_equal(allow_elems(f->gw), 2);
  assert_reaches(f, f->relay, "10.200.0.1", 443, NULL, NULL);
  assert_reaches(f, f->relay, "10.1.2.3", 80, NULL, NULL);
  assert_reaches(f, f->http, "10.2.3.4", 80, NULL, NULL);
  assert_dropped(f, "198.51.100.1", 22);

  /* A bad entry changes nothing. */
  hg_nft_allow bad = v[0];
  bad.addr.s_addr = htonl(0x0a010001); /* host bits set */
  assert_int_equal(hg_nft_set_allow(f->gw, &bad, 1), -EINVAL);
  assert_int_equal(hg_nft_set_allow(f->gw, v, HG_NFT_ALLOW_MAX + 1), -EINVAL);
  assert_int_equal(hg_nft_set_allow(f->gw, NULL, 1), -EINVAL);
  assert_int_equal(allow_elems(f->gw), 2);

  /* Empty: no grants at all. */
  assert_int_equal(hg_nft_set_allow(f->gw, NULL, 0), 0);
  assert_int_equal(allow_elems(f->gw), 0);
  assert_dropped(f, "10.200.0.1", 5432);
  after = rules_dump(f->gw);
  assert_string_equal(before, after);
  free(after);
  free(before);
  echo(pa, pc, "and here");
  close(pc);
  close(pa);
}

static void large_allow_set_applies_in_one_batch(void **state) {
  fixture *f = *state;
  hg_nft_allow *v = calloc(HG_NFT_ALLOW_MAX, sizeof *v);
  assert_non_null(v);
  for (int i = 0; i < HG_NFT_ALLOW_MAX; i++) {
    v[i].addr.s_addr =
        htonl(0xc6336400u + (uint32_t)(i / 4) * 4); /* 198.51.100.0/30 ... */
    v[i].prefix_len = 30;
    v[i].port = (uint16_t)(1000 + i % 4);
  }
  assert_int_equal(hg_nft_set_allow(f->gw, v, HG_NFT_ALLOW_MAX), 0);
  assert_int_equal(allow_elems(f->gw), HG_NFT_ALLOW_MAX);
  f->cfg.allow = v;
  f->cfg.n_allow = HG_NFT_ALLOW_MAX;
  assert_int_equal(hg_nft_apply(f->gw, &f->cfg), 0);
  assert_int_equal(allow_elems(f->gw), HG_NFT_ALLOW_MAX);
  free(v);
  /* 198.51.100.0 + 4*255 + 1 = 198.51.103.253, port 1003 */
  assert_reaches(f, f->relay, "198.51.103.253", 1003, NULL, NULL);
  assert_dropped(f, "198.51.103.253", 1004);
}

/* Fail closed: the process that applied the rules exits (a daemon crash);
 * the rules stay and keep working. */
static void rules_outlive_the_process_that_applied_them(void **state) {
  fixture *f = *state;
  assert_int_equal(hg_nft_flush(f->gw), 0);
  hg_nft_counters c;
  assert_int_equal(hg_nft_counters_read(f->gw, &c), -ENOENT);
  pid_t pid = fork();
  assert_true(pid >= 0);
  if (pid == 0) {
    hg_netns *ns;
    int rc = hg_netns_open(f->dir, "gw", &ns);
    if (rc == 0) rc = hg_nft_apply(ns, &f->cfg);
    _exit(rc == 0 ? 0 : 1);
  }
  int st;
  assert_int_equal(waitpid(pid, &st, 0), pid);
  assert_true(WIFEXITED(st) && WEXITSTATUS(st) == 0);
  hg_nft_counters c0 = counters(f->gw);
  assert_reaches(f, f->https, "203.0.113.5", 443, NULL, NULL);
  assert_dropped(f, "203.0.113.5", 25);
  assert_true(counters(f->gw).egress.packets > c0.egress.packets);
}

static void apply_replaces_and_flush_removes(void **state) {
  fixture *f = *state;
  int alt;
  assert_true((alt = gw_listen(f, SOCK_STREAM, 9443)) >= 0);
  assert_dropped(f, "203.0.113.5", 25); /* counts something */
  assert_true(counters(f->gw).egress.packets > 0);

  f->cfg.https_port = 9443;
  assert_int_equal(hg_nft_apply(f->gw, &f->cfg), 0);
  json_t *rs = ruleset(f->gw);
  assert_true(
      rule_has(rs, "ip", "nat_pre", IIF_TAP, DPORT("tcp", 443), REDIRECT(9443), NULL));
  assert_false(
      rule_has(rs, "ip", "nat_pre", IIF_TAP, DPORT("tcp", 443), REDIRECT(8443), NULL));
  assert_int_equal(count_kind(rs, "chain", "ip", "hangar"), 5);
  assert_int_equal(count_kind(rs, "chain", "netdev", "hangar"), 1);
  json_decref(rs);
  assert_int_equal(counters(f->gw).egress.packets, 0); /* fresh counters */
  assert_reaches(f, alt, "203.0.113.5", 443, NULL, NULL);
  assert_no_pending(f->https);

  assert_int_equal(hg_nft_flush(f->gw), 0);
  rs = ruleset(f->gw);
  assert_null(find(rs, "table", "ip", "hangar"));
  assert_null(find(rs, "table", "netdev", "hangar"));
  json_decref(rs);
  hg_nft_counters c;
  assert_int_equal(hg_nft_counters_read(f->gw, &c), -ENOENT);
  assert_int_equal(hg_nft_set_allow(f->gw, f->allow, 1), -ENOENT);
  assert_int_equal(hg_nft_flush(f->gw), 0);
  close(alt);
}

static void ports_of_zero_leave_their_traffic_dropped(void **state) {
  fixture *f = *state;
  f->cfg.http_port = 0;
  f->cfg.relay_port = 0;
  f->cfg.dns_port = 0;
  assert_int_equal(hg_nft_apply(f->gw, &f->cfg), 0);
  assert_dropped(f, "198.51.100.7", 80);
  assert_dropped(f, "203.0.113.9", 5432);
  assert_dropped(f, "8.8.8.8", 53);
  assert_reaches(f, f->https, "203.0.113.5", 443, NULL, NULL);
  assert_no_pending(f->http);
  assert_no_pending(f->relay);
  assert_no_pending(f->dns_tcp);
  json_t *rs = ruleset(f->gw);
  assert_false(rule_has(rs, "ip", "nat_pre", IIF_TAP, DPORT("tcp", 80), NULL));
  assert_false(rule_has(rs, "ip", "input", IIF_TAP, DPORT("tcp", 8080), NULL));
  json_decref(rs);
}

static void bad_config_is_rejected_and_changes_nothing(void **state) {
  fixture *f = *state;
  char *before = rules_dump(f->gw);
  hg_nft_config c = f->cfg;
  c.link.guest_ip.s_addr = htonl(0x0a000301); /* outside 10.0.2.0/24 */
  assert_int_equal(hg_nft_apply(f->gw, &c), -EINVAL);
  c = f->cfg;
  c.link.ifname[0] = '\0';
  assert_int_equal(hg_nft_apply(f->gw, &c), -EINVAL);
  c = f->cfg;
  c.n_allow = HG_NFT_ALLOW_MAX + 1;
  assert_int_equal(hg_nft_apply(f->gw, &c), -EINVAL);
  hg_nft_allow zero_port = f->allow[0];
  zero_port.port = 0;
  c = f->cfg;
  c.allow = &zero_port;
  assert_int_equal(hg_nft_apply(f->gw, &c), -EINVAL);
  assert_int_equal(hg_nft_apply(f->gw, NULL), -EINVAL);
  assert_int_equal(hg_nft_apply(NULL, &f->cfg), -EINVAL);
  char *after = rules_dump(f->gw);
  assert_string_equal(before, after);
  free(before);
  free(after);
}

/* The ingress chain hooks the tap by name; a VM restart makes a new tap.
 * The contract: apply again after re-creating it. */
static void ingress_filter_holds_after_the_tap_is_recreated(void **state) {
  fixture *f = *state;
  assert_int_equal(sh("nsenter --net=%s ip link del tap0", hg_netns_path(f->gw)), 0);
  assert_int_equal(make_link(f), 0);
  assert_int_equal(hg_nft_apply(f->gw, &f->cfg), 0);
  static const uint8_t other_mac[6] = {0x02, 0x68, 0x67, 0x00, 0x00, 0x99};
  raw r = guest_raw(f);
  uint8_t frame[128];
  hg_nft_counters c0 = counters(f->gw);
  raw_send(&r, frame,
           udp_frame(frame, f->link.gw_mac, other_mac, f->link.guest_ip, f->link.gw_ip,
                     4000, 53, "spoof-mac"));
  raw_send(&r, frame,
           udp_frame(frame, f->link.gw_mac, f->link.guest_mac, f->link.guest_ip,
                     f->link.gw_ip, 4000, 53, "genuine"));
  char buf[32];
  assert_true(readable(f->dns_udp, 2000));
  assert_int_equal(recv(f->dns_udp, buf, sizeof buf, 0), 7);
  assert_int_equal(counters(f->gw).spoof_mac.packets, c0.spoof_mac.packets + 1);
  close(r.fd);
  assert_reaches(f, f->https, "203.0.113.5", 443, NULL, NULL);
}

static void allow_parse_is_strict(void **state) {
  (void)state;
  hg_nft_allow a;
  char ip[INET_ADDRSTRLEN];
  assert_int_equal(hg_nft_allow_parse("203.0.113.0/24:5432", &a), 0);
  inet_ntop(AF_INET, &a.addr, ip, sizeof ip);
  assert_string_equal(ip, "203.0.113.0");
  assert_int_equal(a.prefix_len, 24);
  assert_int_equal(a.port, 5432);
  assert_int_equal(hg_nft_allow_parse("203.0.113.5:443", &a), 0);
  assert_int_equal(a.prefix_len, 32);
  assert_int_equal(a.port, 443);
  assert_int_equal(hg_nft_allow_parse("0.0.0.0/0:65535", &a), 0);
  assert_int_equal(a.prefix_len, 0);
  assert_int_equal(a.port, 65535);
  const char *bad[] = {"",
                       "203.0.113.5",
                       "203.0.113.5:",
                       ":443",
                       "203.0.113.5/24:443", /* host bits */
                       "203.0.113.0/33:443",
                       "203.0.113.0/:443",
                       "203.0.113.0/024:443",
                       "203.0.113.5:0",
                       "203.0.113.5:65536",
                       "203.0.113.5:0443",
                       "203.0.113.5:44a",
                       "203.0.113.5:443 ",
                       " 203.0.113.5:443",
                       "203.0.113:443",
                       "203.0.113.05:443", /* leading zero: octal to some parsers */
                       "0x7f.0.0.1:80",
                       "2130706433:80",
                       "[::1]:443",
                       "::ffff:127.0.0.1:80",
                       "example.com:443",
                       "203.0.113.5:443:1",
                       "203.0.113.5/24/8:443",
                       NULL};
  for (size_t i = 0; bad[i]; i++) {
    a.port = 7;
    assert_int_equal(hg_nft_allow_parse(bad[i], &a), -EINVAL);
    assert_int_equal(a.port, 7); /* untouched on failure */
  }
  assert_int_equal(hg_nft_allow_parse(NULL, &a), -EINVAL);
  assert_int_equal(hg_nft_allow_parse("1.2.3.4:5", NULL), -EINVAL);
}

int main(void) {
#define T(fn) cmocka_unit_test_setup_teardown(fn, setup, teardown)
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(allow_parse_is_strict),
      T(ruleset_reads_back_as_built),
      T(dns_to_any_resolver_reaches_the_responder),
      T(web_traffic_reaches_the_proxy_with_its_original_destination),
      T(everything_else_is_dropped_and_counted),
      T(spoofed_frames_are_dropped_and_counted),
      T(allow_set_update_is_live_and_leaves_the_rules),
      T(large_allow_set_applies_in_one_batch),
      T(rules_outlive_the_process_that_applied_them),
      T(apply_replaces_and_flush_removes),
      T(ports_of_zero_leave_their_traffic_dropped),
      T(bad_config_is_rejected_and_changes_nothing),
      T(ingress_filter_holds_after_the_tap_is_recreated),
  };
#undef T
  return cmocka_run_group_tests(tests, group_setup, NULL);
}
