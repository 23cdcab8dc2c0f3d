/* gateway with the real kernel: a gateway on temp dirs under
 * /tmp/hg-gw-<pid>-<random>, a fake upstream DNS server (a UDP socket on
 * 127.0.0.1 answering from a table), and a sandbox attached to it. The
 * test plays the guest two ways: raw Ethernet frames on the tap fd that
 * attach returns (guest MAC + 10.0.2.15, through the anti-spoofing filter
 * and the redirects), and ordinary sockets opened inside the sandbox's
 * namespace (for TCP). Needs root and nft(8) (for one look at the allow
 * set). The proxy side (hg_proxy_*) is faked below. */
#include <arpa/inet.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <glob.h>
#include <limits.h>
#include <poll.h>
#include <pthread.h>
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cmocka.h>
#include <jansson.h>

#include "gateway/dns.h"
#include "gateway/gateway.h"
#include "gateway/gw.h"
#include "gateway/netns.h"
#include "node/core/buf.h"
#include "node/core/log.h"
#include "node/core/util.h"
#include "tests/unit/netns_util.h"

#define SB "sb-test"
#define SB2 "sb-two"
#define WAIT_MS 3000

/* ---- proxy stand-ins ------------------------------------------------------- *
 * This test is about gateway.c; the proxy's side of gw.h is faked so the
 * test can see that connections reach it and that a policy change asks it to
 * recheck. proxy.c itself: test_proxy, and it_egress end to end. */

static atomic_int stub_accepts, stub_rechecks;

static void stub_closed(uv_handle_t *h) {
  free(h);
}

void hg_proxy_accept(hg_gw_sandbox *sb, uv_stream_t *listener,
                                           hg_proxy_kind kind) {
  uv_tcp_t *t = malloc(sizeof *t);
  uv_tcp_init(listener->loop, t);
  uv_accept(listener, (uv_stream_t *)t);
  uv_close((uv_handle_t *)t, stub_closed);
  stub_accepts++;
}
void hg_proxy_recheck(hg_gw_sandbox *sb) {
  stub_rechecks++;
}
void hg_proxy_close_all(hg_gw_sandbox *sb, void (*done)(void *ud),
                                              void *ud) {
  done(ud);
}
hg_proxy_set *hg_proxy_set_new(void) {
  return calloc(1, 64);
}
void hg_proxy_set_free(hg_proxy_set *ps) {
  free(ps);
}

/* ---- the fake upstream ------------------------------------------------------- */

typedef struct up_name {
  const char *name;
  int rcode;
  size_t n;
  uint32_t ips[4];
} up_name;

#define IP(a, b, c, d) \
  ((uint32_t)(a) << 24 | (uint32_t)(b) << 16 | (uint32_t)(c) << 8 | (d))

static const up_name up_table[] = {
    {"api.example.com", 0, 2, {IP(93, 184, 216, 34), IP(93, 184, 216, 35)}},
    {"a.cdn.example.com", 0, 1, {IP(93, 184, 216, 40)}},
    {"short.cdn.example.com", 0, 1, {IP(93, 184, 216, 41)}}, /* TTL 30 */
    {"mixed.example.com",
     0,
     3,
     {IP(10, 1, 2, 3), IP(93, 184, 216, 36), IP(169, 254, 169, 254)}},
    {"private.example.com", 0, 1, {IP(192, 168, 1, 1)}},
    {"conf.example.com", 0, 1, {IP(198, 51, 100, 7)}},
    {"slow.example.com", 0, 1, {IP(93, 184, 216, 50)}},
    {"nx.example.com", HG_DNS_NXDOMAIN, 0, {0}},
};

typedef struct upstream {
  int fd;
  uint16_t port;
  pthread_t thread;
  atomic_int stop, queries, slow_seen;
  atomic_int slow_mute; /* never answer slow.example.com */
} upstream;

static void *upstream_main(void *arg) {
  upstream *u = arg;
  while (!u->stop) {
    struct pollfd p = {.fd = u->fd, .events = POLLIN};
    if (poll(&p, 1, 50) <= 0) continue;
    uint8_t msg[1500], out[1500];
    struct sockaddr_in from;
    socklen_t flen = sizeof from;
    ssize_t n = recvfrom(u->fd, msg, sizeof msg, 0, (struct sockaddr *)&from, &flen);
    hg_dns_query q;
    if (n <= 0 || hg_dns_parse_query(msg, (size_t)n, &q) != 0) continue;
    u->queries++;
    /* the first question for slow.example.com goes unanswered: the
     * gateway must ask again */
    if (strcmp(q.name, "slow.example.com") == 0 && (u->slow_seen++ == 0 || u->slow_mute))
      continue;
    const up_name *e = NULL;
    for (size_t i = 0; i < HG_ARRAY_SIZE(up_table); i++)
      if (strcmp(q.name, up_table[i].name) == 0) e = &up_table[i];
    size_t olen;
    int rc =
        e ? hg_dns_build_answer(&q, e->rcode, e->ips, e->n,
                                strcmp(q.name, "short.cdn.example.com") == 0 ? 30 : 3600,
                                out, sizeof out, &olen)
          : hg_dns_build_answer(&q, HG_DNS_NXDOMAIN, NULL, 0, 0, out, sizeof out, &olen);
    if (rc == 0) sendto(u->fd, out, olen, 0, (struct sockaddr *)&from, flen);
  }
  return NULL;
}

static int upstream_start(upstream *u) {
  u->fd = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
  struct sockaddr_in a = {.sin_family = AF_INET,
                          .sin_addr.s_addr = htonl(INADDR_LOOPBACK)};
  socklen_t len = sizeof a;
  if (u->fd < 0 || bind(u->fd, (struct sockaddr *)&a, sizeof a) < 0 ||
      getsockname(u->fd, (struct sockaddr *)&a, &len) < 0)
    return -1;
  u->port = ntohs(a.sin_port);
  return pthread_create(&u->thread, NULL, upstream_main, u) == 0 ? 0 : -1;
}

/* ---- fixture ------------------------------------------------------------------ */

typedef struct fixture {
  char base[64], netns_dir[96], state_dir[96], upstream[32];
  upstream up;
  bool up_running;
  hg_gateway_config cfg;
  hg_gateway *gw;
  int tap;
  hg_netns *ns; /* the sandbox's namespace, opened by the test */
  int fds;      /* open before the test */
} fixture;

static int teardown(void **state) {
  fixture *f = *state;
  if (!f) return 0;
  int fds = f->fds;
  if (f->tap >= 0) close(f->tap);
  hg_netns_close(f->ns);
  if (f->gw) {
    hg_gateway_detach(f->gw, SB);
    hg_gateway_detach(f->gw, SB2);
    hg_gateway_stop(f->gw);
  }
  if (f->base[0] == '/') {
    hg_netns_delete(f->netns_dir, SB);
    hg_netns_delete(f->netns_dir, SB2);
    for (int i = 0; i < 4 && mounts_under(f->base) > 0; i++)
      umount2(f->netns_dir, MNT_DETACH);
    hg_rm_rf(f->base);
  }
  if (f->up_running) {
    f->up.stop = 1;
    pthread_join(f->up.thread, NULL);
  }
  if (f->up.fd > 0) close(f->up.fd);
  free(f);
  *state = NULL;
  /* every socket, tap and namespace handle the gateway opened is closed */
  return check_fds(fds);
}

static int build(fixture *f) {
  f->tap = -1;
  f->fds = count_fds();
  snprintf(f->base, sizeof f->base, "/tmp/hg-gw-%d-XXXXXX", (int)getpid());
  if (!mkdtemp(f->base)) return -1;
  snprintf(f->netns_dir, sizeof f->netns_dir, "%s/netns", f->base);
  snprintf(f->state_dir, sizeof f->state_dir, "%s/state", f->base);
  if (upstream_start(&f->up) != 0) return -1;
  f->up_running = true;
  snprintf(f->upstream, sizeof f->upstream, "127.0.0.1:%u", f->up.port);
  f->cfg = (hg_gateway_config){.netns_dir = f->netns_dir,
                               .state_dir = f->state_dir,
                               .upstream_dns = f->upstream,
                               .deny = "198.51.100.0/24, 203.0.113.128/25"};
  return 0;
}

static int setup(void **state) {
  fixture *f = calloc(1, sizeof *f);
  if (!f) return -1;
  *state = f;
  if (build(f) != 0) {
    teardown(state);
    return -1;
  }
  return 0;
}

/* Starts the gateway, attaches SB with policy (JSON text, or NULL), and
 * opens SB's namespace for the test's own sockets. */
static void start(fixture *f, const char *policy) {
  assert_int_equal(hg_gateway_start(&f->cfg, &f->gw), 0);
  assert_int_equal(hg_gateway_attach(f->gw, SB, &f->tap), 0);
  assert_true(f->tap >= 0);
  int fl = fcntl(f->tap, F_GETFL);
  assert_int_equal(fcntl(f->tap, F_SETFL, fl | O_NONBLOCK), 0);
  if (policy) {
    json_error_t jerr;
    json_t *j = json_loads(policy, 0, &jerr);
    assert_non_null(j);
    hg_policy *p;
    char err[256];
    assert_int_equal(hg_policy_parse(j, &p, err), 0);
    json_decref(j);
    assert_int_equal(hg_gateway_set_policy(f->gw, SB, p), 0);
    hg_policy_free(p);
  }
  assert_int_equal(hg_netns_open(f->netns_dir, SB, &f->ns), 0);
}

static hg_policy *parse_policy(const char *text, char err[256]) {
  json_t *j = json_loads(text, 0, NULL);
  assert_non_null(j);
  hg_policy *p = NULL;
  int rc = hg_policy_parse(j, &p, err);
  json_decref(j);
  return rc == 0 ? p : NULL;
}

/* ---- DNS messages -------------------------------------------------------------- */

typedef struct answer {
  uint16_t id;
  int rcode;
  size_t n;
  uint32_t ips[16];
  uint32_t ttl;
} answer;

static int skip_name(const uint8_t *m, size_t len, size_t *pos) {
  while (*pos < len) {
    uint8_t c = m[*pos];
    if ((c & 0xc0) == 0xc0) {
      *pos += 2;
      return 0;
    }
    *pos += 1 + (size_t)c;
    if (c == 0) return 0;
  }
  return -1;
}

static int parse_answer(const uint8_t *m, size_t len, answer *a) {
  memset(a, 0, sizeof *a);
  if (len < 12 || !(m[2] & 0x80)) return -1;
  a->id = (uint16_t)(m[0] << 8 | m[1]);
  a->rcode = m[3] & 0xf;
  unsigned qd = (unsigned)(m[4] << 8 | m[5]), an = (unsigned)(m[6] << 8 | m[7]);
  size_t pos = 12;
  for (unsigned i = 0; i < qd; i++) {
    if (skip_name(m, len, &pos) < 0) return -1;
    pos += 4;
  }
  for (unsigned i = 0; i < an; i++) {
    if (skip_name(m, len, &pos) < 0 || pos + 10 > len) return -1;
    uint16_t type = (uint16_t)(m[pos] << 8 | m[pos + 1]);
    uint32_t ttl = (uint32_t)m[pos + 4] << 24 | (uint32_t)m[pos + 5] << 16 |
                   (uint32_t)m[pos + 6] << 8 | m[pos + 7];
    uint16_t rdlen = (uint16_t)(m[pos + 8] << 8 | m[pos + 9]);
    pos += 10;
    if (pos + rdlen > len) return -1;
    if (type == HG_DNS_T_A && rdlen == 4 && a->n < 16) {
      a->ips[a->n++] = (uint32_t)m[pos] << 24 | (uint32_t)m[pos + 1] << 16 |
                       (uint32_t)m[pos + 2] << 8 | m[pos + 3];
      a->ttl = ttl;
    }
    pos += rdlen;
  }
  return 0;
}

static size_t make_query(uint16_t id, const char *name, uint16_t qtype, uint8_t *out,
                         size_t cap) {
  size_t len;
  assert_int_equal(hg_dns_build_query(id, name, qtype, 0, out, cap, &len), 0);
  return len;
}

static bool has_ip(const answer *a, uint32_t ip) {
  for (size_t i = 0; i < a->n; i++)
    if (a->ips[i] == ip) return true;
  return false;
}

/* ---- the guest on the tap: Ethernet, IPv4, UDP, TCP by hand ----------------------- */

/* The link every sandbox has (hg_netns_link_default): set in group_setup. */
static hg_netns_link link_;
#define GUEST_IP ntohl(link_.guest_ip.s_addr)
#define GW_IP ntohl(link_.gw_ip.s_addr)

static void put16(uint8_t *p, uint16_t v) {
  p[0] = (uint8_t)(v >> 8);
  p[1] = (uint8_t)v;
}
static void put32(uint8_t *p, uint32_t v) {
  put16(p, (uint16_t)(v >> 16));
  put16(p + 2, (uint16_t)v);
}
static uint16_t get16(const uint8_t *p) {
  return (uint16_t)(p[0] << 8 | p[1]);
}
static uint32_t get32(const uint8_t *p) {
  return (uint32_t)get16(p) << 16 | get16(p + 2);
}

static uint32_t sum16(const uint8_t *p, size_t len, uint32_t sum) {
  for (size_t i = 0; i + 1 < len; i += 2) sum += get16(p + i);
  if (len & 1) sum += (uint32_t)p[len - 1] << 8;
  return sum;
}
static uint16_t fold(uint32_t sum) {
  while (sum >> 16) sum = (sum & 0xffff) + (sum >> 16);
  return (uint16_t)~sum;
}

/* Ethernet + IPv4 header from the guest to dst; returns the L4 offset. */
static size_t ip_frame(uint8_t *f, uint32_t dst, uint8_t proto, size_t l4len) {
  memcpy(f, link_.gw_mac, 6);
  memcpy(f + 6, link_.guest_mac, 6);
  put16(f + 12, 0x0800);
  uint8_t *ip = f + 14;
  memset(ip, 0, 20);
  ip[0] = 0x45;
  put16(ip + 2, (uint16_t)(20 + l4len));
  put16(ip + 4, 0x1234);
  put16(ip + 6, 0x4000);
  ip[8] = 64;
  ip[9] = proto;
  put32(ip + 12, GUEST_IP);
  put32(ip + 16, dst);
  put16(ip + 10, fold(sum16(ip, 20, 0)));
  return 34;
}

static void tap_send_udp(int tap, uint32_t dst, uint16_t sport, uint16_t dport,
                         const uint8_t *data, size_t len) {
  uint8_t f[1600];
  size_t off = ip_frame(f, dst, 17, 8 + len);
  put16(f + off, sport);
  put16(f + off + 2, dport);
  put16(f + off + 4, (uint16_t)(8 + len));
  put16(f + off + 6, 0); /* no checksum: allowed for IPv4 */
  memcpy(f + off + 8, data, len);
  assert_int_equal(write(tap, f, off + 8 + len), (ssize_t)(off + 8 + len));
}

/* The next frame to the guest of protocol proto, within ms; its length,
 * 0 on timeout. */
static size_t tap_read(int tap, uint8_t proto, uint8_t *f, size_t cap, int ms) {
  int64_t end = hg_now_ms() + ms;
  for (int64_t now; (now = hg_now_ms()) < end;) {
    struct pollfd p = {.fd = tap, .events = POLLIN};
    if (poll(&p, 1, (int)(end - now)) <= 0) continue;
    ssize_t n = read(tap, f, cap);
    if (n < 34 || get16(f + 12) != 0x0800 || memcmp(f, link_.guest_mac, 6) != 0) continue;
    if (f[14 + 9] == proto) return (size_t)n;
  }
  return 0;
}

/* GW_DEBUG=1: what the namespace looks like when a frame did not come back. */
static void dump_netns(fixture *f) {
  char cmd[512];
  if (!getenv("GW_DEBUG")) return;
  snprintf(cmd, sizeof cmd,
           "nsenter --net=%s/%s sh -c 'nft list ruleset; ip -s link; ip addr; ip neigh; "
           "ss -anp'",
           f->netns_dir, SB);
  if (system(cmd) != 0) fprintf(stderr, "dump failed\n");
}

/* A DNS question from the guest on the tap (to dst:53, which the rules
 * redirect to the gateway), and the answer that comes back. */
static int tap_ask(fixture *f, uint32_t dst, const char *name, uint16_t qtype,
                   answer *a) {
  static uint16_t sport = 40000;
  uint8_t q[512], fr[1600];
  uint16_t id = (uint16_t)(sport * 7);
  size_t qlen = make_query(id, name, qtype, q, sizeof q);
  uint16_t sp = sport++;
  tap_send_udp(f->tap, dst, sp, 53, q, qlen);
  for (;;) {
    size_t n = tap_read(f->tap, 17, fr, sizeof fr, WAIT_MS);
    if (n == 0) {
      dump_netns(f);
      return -1;
    }
    const uint8_t *udp = fr + 34;
    if (get16(udp + 2) != sp) continue;
    /* the answer comes from where the guest sent the question */
    assert_int_equal(get32(fr + 14 + 12), dst);
    assert_int_equal(get16(udp), 53);
    assert_int_equal(parse_answer(udp + 8, n - 42, a), 0);
    assert_int_equal(a->id, id);
    return 0;
  }
}

/* ---- the guest as sockets inside the namespace ------------------------------------- */

static int ns_socket(fixture *f, int type) {
  int fd = -1;
  assert_int_equal(hg_netns_socket(f->ns, AF_INET, type, 0, &fd), 0);
  struct timeval tv = {.tv_sec = WAIT_MS / 1000};
  setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof tv);
  return fd;
}

static struct sockaddr_in gw_addr(uint16_t port) {
  return (struct sockaddr_in){
      .sin_family = AF_INET, .sin_port = htons(port), .sin_addr.s_addr = htonl(GW_IP)};
}

static int udp_ask_raw(fixture *f, const uint8_t *q, size_t qlen, uint8_t *out,
                       size_t cap) {
  int fd = ns_socket(f, SOCK_DGRAM);
  struct sockaddr_in a = gw_addr(HG_GW_DNS_PORT);
  assert_int_equal(sendto(fd, q, qlen, 0, (struct sockaddr *)&a, sizeof a),
                   (ssize_t)qlen);
  ssize_t n = recv(fd, out, cap, 0);
  close(fd);
  return (int)n;
}

static int udp_ask(fixture *f, const char *name, uint16_t qtype, answer *a) {
  uint8_t q[512], r[1500];
  size_t qlen = make_query(0x4242, name, qtype, q, sizeof q);
  int n = udp_ask_raw(f, q, qlen, r, sizeof r);
  if (n <= 0) return -1;
  return parse_answer(r, (size_t)n, a);
}

static int tcp_connect(fixture *f, uint16_t port) {
  int fd = ns_socket(f, SOCK_STREAM);
  struct sockaddr_in a = gw_addr(port);
  if (connect(fd, (struct sockaddr *)&a, sizeof a) < 0) {
    int e = -errno;
    close(fd);
    return e;
  }
  return fd;
}

static int read_full(int fd, uint8_t *p, size_t len) {
  for (size_t got = 0; got < len;) {
    ssize_t n = recv(fd, p + got, len - got, 0);
    if (n <= 0) return -1;
    got += (size_t)n;
  }
  return 0;
}

static int tcp_read_answer(int fd, answer *a) {
  uint8_t hdr[2], m[2048];
  if (read_full(fd, hdr, 2) < 0) return -1;
  size_t len = get16(hdr);
  if (len > sizeof m || read_full(fd, m, len) < 0) return -1;
  return parse_answer(m, len, a);
}

/* ---- the egress log and the sandbox
 * ------------------------------------------------------ */

/* The last entry of the log for name with reason, or NULL. */
static json_t *log_find(json_t *log, const char *name, const char *reason) {
  json_t *hit = NULL, *e;
  size_t i;
  json_array_foreach(log, i, e) {
    const char *n = json_string_value(json_object_get(e, "name"));
    const char *r = json_string_value(json_object_get(e, "reason"));
    if (n && r && strcmp(n, name) == 0 && strcmp(r, reason) == 0) hit = e;
  }
  return hit;
}

static const char *verdict_of(json_t *e) {
  return json_string_value(json_object_get(e, "verdict"));
}

typedef struct answered_q {
  const char *name;
  uint32_t ip;
  bool result;
} answered_q;

static void answered_fn(hg_gw_sandbox *sb, void *arg) {
  answered_q *q = arg;
  q->result = hg_gw_dns_answered(sb, q->name, q->ip);
}

static bool answered(fixture *f, const char *name, uint32_t ip) {
  answered_q q = {name, ip, false};
  assert_int_equal(hg_gw_run(f->gw, SB, answered_fn, &q), 0);
  return q.result;
}

static char *ns_cmd_output(fixture *f, const char *cmd) {
  char line[512];
  snprintf(line, sizeof line, "nsenter --net=%s/%s %s 2>/dev/null", f->netns_dir, SB,
           cmd);
  FILE *p = popen(line, "r");
  if (!p) return NULL;
  char *out = calloc(1, 65536);
  size_t n = out ? fread(out, 1, 65535, p) : 0;
  (void)n;
  pclose(p);
  return out;
}

/* ---- tests
 * ------------------------------------------------------------------------------- */

#define POLICY_API                                                                   \
  "{\"allow\": [\"api.example.com\", \"*.cdn.example.com\", \"mixed.example.com\", " \
  "\"private.example.com\", \"conf.example.com\", \"slow.example.com\", "            \
  "\"nx.example.com\", \"203.0.113.0/24:5432\"]}"

static void dns_over_the_tap_answers_only_allowed_a_records(void **state) {
  fixture *f = *state;
  start(f, POLICY_API);
  answer a;

  assert_int_equal(tap_ask(f, GW_IP, "api.example.com", HG_DNS_T_A, &a), 0);
  assert_int_equal(a.rcode, HG_DNS_NOERROR);
  assert_int_equal(a.n, 2);
  assert_true(has_ip(&a, IP(93, 184, 216, 34)) && has_ip(&a, IP(93, 184, 216, 35)));
  assert_int_equal(a.ttl, 300); /* upstream said 3600: cut */
  int asked = f->up.queries;

  /* any resolver the guest names is the gateway */
  assert_int_equal(tap_ask(f, IP(8, 8, 8, 8), "API.Example.com", HG_DNS_T_A, &a), 0);
  assert_int_equal(a.rcode, HG_DNS_NOERROR);
  assert_int_equal(a.n, 2);
  assert_int_equal(f->up.queries, asked); /* answered from what it remembers */
  assert_true(a.ttl <= 300 && a.ttl > 290);

  assert_int_equal(tap_ask(f, GW_IP, "x.cdn.example.com", HG_DNS_T_A, &a), 0);
  assert_int_equal(a.rcode, HG_DNS_NXDOMAIN); /* allowed, but upstream has no such name */
  assert_int_equal(tap_ask(f, GW_IP, "a.cdn.example.com", HG_DNS_T_A, &a), 0);
  assert_int_equal(a.n, 1);
  assert_int_equal(a.ips[0], IP(93, 184, 216, 40));
  assert_int_equal(tap_ask(f, GW_IP, "short.cdn.example.com", HG_DNS_T_A, &a), 0);
  assert_int_equal(a.ttl, 30);

  int before = f->up.queries;
  assert_int_equal(tap_ask(f, GW_IP, "evil.com", HG_DNS_T_A, &a), 0);
  assert_int_equal(a.rcode, HG_DNS_NXDOMAIN);
  assert_int_equal(a.n, 0);
  assert_int_equal(tap_ask(f, GW_IP, "cdn.example.com", HG_DNS_T_A, &a), 0);
  assert_int_equal(a.rcode, HG_DNS_NXDOMAIN); /* the wildcard is strictly below */
  assert_int_equal(tap_ask(f, GW_IP, "api.example.com", HG_DNS_T_AAAA, &a), 0);
  assert_int_equal(a.rcode, HG_DNS_NOERROR);
  assert_int_equal(a.n, 0);
  assert_int_equal(tap_ask(f, GW_IP, "api.example.com", HG_DNS_T_HTTPS, &a), 0);
  assert_int_equal(a.rcode, HG_DNS_NOERROR);
  assert_int_equal(a.n, 0);
  assert_int_equal(tap_ask(f, GW_IP, "api.example.com", HG_DNS_T_TXT, &a), 0);
  assert_int_equal(a.rcode, HG_DNS_REFUSED);
  assert_int_equal(tap_ask(f, GW_IP, "api.example.com", HG_DNS_T_ANY, &a), 0);
  assert_int_equal(a.rcode, HG_DNS_REFUSED);
  assert_int_equal(f->up.queries, before); /* none of these went upstream */

  /* the proxy's check: exactly the addresses given out, for that name */
  assert_true(answered(f, "api.example.com", IP(93, 184, 216, 34)));
  assert_true(answered(f, "API.example.com.", IP(93, 184, 216, 35)));
  assert_false(answered(f, "api.example.com", IP(93, 184, 216, 40)));
  assert_false(answered(f, "a.cdn.example.com", IP(93, 184, 216, 34)));
  assert_false(answered(f, "evil.com", IP(93, 184, 216, 34)));
  assert_false(answered(f, "1.2.3.4", IP(1, 2, 3, 4)));
  assert_true(answered(f, "a.cdn.example.com", IP(93, 184, 216, 40)));

  json_t *log = hg_gateway_egress_log(f->gw, SB);
  assert_non_null(log);
  json_t *e = log_find(log, "api.example.com", "resolved");
  assert_non_null(e);
  assert_string_equal(verdict_of(e), "allow");
  assert_string_equal(json_string_value(json_object_get(e, "proto")), "dns");
  assert_string_equal(json_string_value(json_object_get(e, "ip")), "93.184.216.34");
  assert_int_equal(json_integer_value(json_object_get(e, "port")), 53);
  const char *t = json_string_value(json_object_get(e, "time"));
  assert_true(t && strlen(t) == 24 && t[10] == 'T' && t[23] == 'Z');
  assert_non_null(log_find(log, "api.example.com", "cached"));
  e = log_find(log, "evil.com", "not_allowed");
  assert_non_null(e);
  assert_string_equal(verdict_of(e), "deny");
  assert_true(json_is_null(json_object_get(e, "ip")));
  assert_non_null(log_find(log, "api.example.com", "qtype"));
  assert_non_null(log_find(log, "x.cdn.example.com", "upstream_nxdomain"));
  json_decref(log);
  assert_int_equal(json_array_size(log = hg_gateway_egress_log(f->gw, "sb-other")), 0);
  json_decref(log);
}

static void answers_in_denied_ranges_are_dropped(void **state) {
  fixture *f = *state;
  start(f, POLICY_API);
  answer a;
  assert_int_equal(udp_ask(f, "mixed.example.com", HG_DNS_T_A, &a), 0);
  assert_int_equal(a.rcode, HG_DNS_NOERROR);
  assert_int_equal(a.n, 1);
  assert_int_equal(a.ips[0], IP(93, 184, 216, 36));
  assert_true(answered(f, "mixed.example.com", IP(93, 184, 216, 36)));
  assert_false(answered(f, "mixed.example.com", IP(10, 1, 2, 3)));
  assert_false(answered(f, "mixed.example.com", IP(169, 254, 169, 254)));

  assert_int_equal(udp_ask(f, "private.example.com", HG_DNS_T_A, &a), 0);
  assert_int_equal(a.rcode, HG_DNS_NOERROR);
  assert_int_equal(a.n, 0);
  assert_false(answered(f, "private.example.com", IP(192, 168, 1, 1)));
  /* the operator's extra range counts as much as the built-in ones */
  assert_int_equal(udp_ask(f, "conf.example.com", HG_DNS_T_A, &a), 0);
  assert_int_equal(a.n, 0);

  json_t *log = hg_gateway_egress_log(f->gw, SB);
  json_t *e = log_find(log, "private.example.com", "denied_address");
  assert_non_null(e);
  assert_string_equal(verdict_of(e), "deny");
  assert_string_equal(json_string_value(json_object_get(e, "ip")), "192.168.1.1");
  assert_non_null(log_find(log, "conf.example.com", "denied_address"));
  json_decref(log);
}

static void dns_over_tcp_bad_names_and_upstream_retry(void **state) {
  fixture *f = *state;
  start(f, POLICY_API);
  answer a;

  /* two questions in one segment: two answers, in order */
  uint8_t buf[1024];
  size_t l1 = make_query(1, "api.example.com", HG_DNS_T_A, buf + 2, 400);
  put16(buf, (uint16_t)l1);
  size_t l2 = make_query(2, "evil.com", HG_DNS_T_A, buf + 4 + l1, 400);
  put16(buf + 2 + l1, (uint16_t)l2);
  int fd = tcp_connect(f, HG_GW_DNS_PORT);
  assert_true(fd >= 0);
  assert_int_equal(send(fd, buf, 4 + l1 + l2, 0), (ssize_t)(4 + l1 + l2));
  assert_int_equal(tcp_read_answer(fd, &a), 0);
  assert_int_equal(a.id, 1);
  assert_int_equal(a.n, 2);
  assert_int_equal(tcp_read_answer(fd, &a), 0);
  assert_int_equal(a.id, 2);
  assert_int_equal(a.rcode, HG_DNS_NXDOMAIN);
  /* a length past the bound closes the connection */
  put16(buf, 60000);
  assert_int_equal(send(fd, buf, 2, 0), 2);
  assert_int_equal(recv(fd, buf, sizeof buf, 0), 0);
  close(fd);

  /* a tunnel's label: not a hostname the allowlist can judge */
  static const uint8_t tunnel[] = {0x12, 0x34, 0x01, 0x00, 0,   1,   0,   0,   0,   0,
                                   0,    0,    5,    'a',  '_', 'b', '=', 'c', 3,   'c',
                                   'd',  'n',  7,    'e',  'x', 'a', 'm', 'p', 'l', 'e',
                                   3,    'c',  'o',  'm',  0,   0,   1,   0,   1};
  uint8_t r[1500];
  int n = udp_ask_raw(f, tunnel, sizeof tunnel, r, sizeof r);
  assert_true(n > 0);
  assert_int_equal(parse_answer(r, (size_t)n, &a), 0);
  assert_int_equal(a.rcode, HG_DNS_REFUSED);
  /* malformed: two questions */
  uint8_t bad[sizeof tunnel];
  memcpy(bad, tunnel, sizeof bad);
  bad[5] = 2;
  n = udp_ask_raw(f, bad, sizeof bad, r, sizeof r);
  assert_true(n > 0);
  assert_int_equal(parse_answer(r, (size_t)n, &a), 0);
  assert_int_equal(a.rcode, HG_DNS_FORMERR);
  assert_int_equal(a.id, 0x1234);

  /* the first question upstream is lost: the gateway asks again (2 s) */
  int64_t t0 = hg_now_ms();
  fd = ns_socket(f, SOCK_DGRAM);
  struct timeval tv = {.tv_sec = 6};
  setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof tv);
  size_t qlen = make_query(7, "slow.example.com", HG_DNS_T_A, buf, sizeof buf);
  struct sockaddr_in to = gw_addr(HG_GW_DNS_PORT);
  assert_int_equal(sendto(fd, buf, qlen, 0, (struct sockaddr *)&to, sizeof to),
                   (ssize_t)qlen);
  n = (int)recv(fd, r, sizeof r, 0);
  close(fd);
  assert_true(n > 0);
  assert_int_equal(parse_answer(r, (size_t)n, &a), 0);
  assert_int_equal(a.n, 1);
  assert_int_equal(a.ips[0], IP(93, 184, 216, 50));
  assert_true(hg_now_ms() - t0 >= 1900);
  assert_int_equal(f->up.slow_seen, 2);

  json_t *log = hg_gateway_egress_log(f->gw, SB);
  assert_non_null(log_find(log, "a_b\\061c.cdn.example.com", "bad_name"));
  assert_non_null(log_find(log, "", "malformed"));
  assert_non_null(log_find(log, "slow.example.com", "resolved"));
  json_decref(log);
}

static void queries_over_the_rate_are_refused(void **state) {
  fixture *f = *state;
  f->cfg.dns_rate = 5; /* burst 10 */
  start(f, POLICY_API);
  int fd = ns_socket(f, SOCK_DGRAM);
  struct sockaddr_in to = gw_addr(HG_GW_DNS_PORT);
  uint8_t q[512], r[1500];
  int ok = 0, refused = 0;
  int64_t t0 = hg_now_ms();
  for (int i = 0; i < 30; i++) {
    size_t qlen = make_query((uint16_t)i, "api.example.com", HG_DNS_T_AAAA, q, sizeof q);
    assert_int_equal(sendto(fd, q, qlen, 0, (struct sockaddr *)&to, sizeof to),
                     (ssize_t)qlen);
  }
  for (int i = 0; i < 30; i++) {
    answer a;
    ssize_t n = recv(fd, r, sizeof r, 0);
    assert_true(n > 0);
    assert_int_equal(parse_answer(r, (size_t)n, &a), 0);
    if (a.rcode == HG_DNS_NOERROR) ok++;
    if (a.rcode == HG_DNS_REFUSED) refused++;
  }
  close(fd);
  /* the burst, plus 5 a second for however long a loaded host took */
  int64_t took = hg_now_ms() - t0;
  fprintf(stderr, "%d answered, %d refused in %lld ms\n", ok, refused, (long long)took);
  assert_int_equal(ok + refused, 30);
  assert_true(ok >= 10 && ok <= 10 + 5 * (took / 1000 + 1));
  assert_true(refused >= 1);
  json_t *log = hg_gateway_egress_log(f->gw, SB);
  size_t i, limited = 0;
  json_t *e;
  json_array_foreach(log, i, e) {
    if (strcmp(json_string_value(json_object_get(e, "reason")), "rate_limited") == 0)
      limited++;
  }
  json_decref(log);
  assert_int_equal(limited, 1); /* logged once a second, not once a query */

  hg_buf m;
  hg_buf_init(&m, 1 << 20);
  hg_gateway_metrics(f->gw, &m);
  assert_non_null(m.data);
  char want[96];
  snprintf(want, sizeof want, "hangar_gateway_dns_rate_limited_total %d\n", refused);
  assert_non_null(strstr(m.data, want));
  assert_non_null(strstr(m.data, "hangar_gateway_dns_queries_total 30\n"));
  assert_non_null(strstr(m.data, "hangar_gateway_sandboxes 1\n"));
  assert_non_null(
      strstr(m.data, "hangar_gateway_dropped_packets_total{counter=\"egress\"}"));
  hg_buf_free(&m);
}

/* Value of one series in Prometheus text; -1 when absent. */
static long long metric(const char *text, const char *series) {
  const char *p = strstr(text, series);
  return p ? strtoll(p + strlen(series), NULL, 10) : -1;
}

static long long scrape_egress_drops(fixture *f) {
  hg_buf m;
  hg_buf_init(&m, 1 << 20);
  hg_gateway_metrics(f->gw, &m);
  assert_non_null(m.data);
  long long v = metric(m.data, "hangar_gateway_dropped_packets_total{counter=\"egress\"} ");
  hg_buf_free(&m);
  return v;
}

/* Issue 16, item 9: scrapes do not each read every namespace's counters
 * on the gateway thread. Two scrapes within a second read them once; the
 * values still move after a second. */
static void metrics_read_nft_counters_at_most_once_a_second(void **state) {
  fixture *f = *state;
  start(f, POLICY_API);
  hg_gateway_stats s0, s1, s2;
  hg_gateway_stats_get(f->gw, &s0);
  int64_t t0 = hg_now_ms();
  long long before = scrape_egress_drops(f);
  /* dropped by the pre chain: not the gateway's address */
  for (int i = 0; i < 3; i++) tap_send_udp(f->tap, IP(203, 0, 113, 9), 4000, 9, (const uint8_t *)"x", 1);
  usleep(50 * 1000);
  long long cached = scrape_egress_drops(f);
  int64_t took = hg_now_ms() - t0;
  hg_gateway_stats_get(f->gw, &s1);
  fprintf(stderr, "two scrapes in %lld ms: %llu refreshes, %llu reads; egress drops %lld then %lld\n",
          (long long)took, (unsigned long long)(s1.nft_refreshes - s0.nft_refreshes),
          (unsigned long long)(s1.nft_reads - s0.nft_reads), before, cached);
  assert_true(before >= 0);
  if (took < 900) { /* on a machine that slow, the second one may refresh */
    assert_int_equal(s1.nft_refreshes - s0.nft_refreshes, 1);
    assert_int_equal(s1.nft_reads - s0.nft_reads, 1); /* one sandbox, one read */
    assert_int_equal(cached, before);                 /* the cached values */
  }
  usleep(1100 * 1000);
  long long after = scrape_egress_drops(f);
  hg_gateway_stats_get(f->gw, &s2);
  fprintf(stderr, "after a second: egress drops %lld\n", after);
  assert_int_equal(s2.nft_refreshes - s1.nft_refreshes, 1);
  assert_true(after >= before + 3);
}

static void policy_parse_rejects_with_clear_messages(void **state) {
  static const struct {
    const char *json, *msg;
  } bad[] = {
      {"[]", "must be a JSON object"},
      {"{\"allowed\": []}", "unknown key \"allowed\""},
      {"{\"allow\": \"api.example.com\"}", "\"allow\" must be an array"},
      {"{\"allow\": [1]}", "allow[0] must be a string"},
      {"{\"allow\": [\"ok.com\", \"1.2.3.4\"]}",
       "allow[1] \"1.2.3.4\" is not a hostname"},
      {"{\"allow\": [\"*\"]}", "allow[0]"},
      {"{\"allow\": [\"a.*.com\"]}", "allow[0]"},
      {"{\"allow\": [\"10.0.0.1/8:22\"]}", "allow[0]"},
      {"{\"allow\": [\"203.0.113.0/24:0\"]}", "allow[0]"},
      {"{\"allow\": [\"ex\\u0000ample.com\"]}", "allow[0] \"ex?ample.com\""},
      {"{\"credentials\": {}}", "\"credentials\" must be an array"},
      {"{\"credentials\": [1]}", "credentials[0] must be an object"},
      {"{\"credentials\": [{\"hosts\": [], \"header\": \"A\", \"value\": \"v\", "
       "\"placeholder\": \"HANGAR_1\"}]}",
       "\"hosts\" must be a non-empty array"},
      {"{\"credentials\": [{\"hosts\": [\"203.0.113.0/24:443\"], \"header\": \"A\", "
       "\"value\": \"v\", \"placeholder\": \"HANGAR_1\"}]}",
       "hosts[0] \"203.0.113.0/24:443\" is not a hostname"},
      {"{\"credentials\": [{\"hosts\": [\"a.com\"], \"value\": \"v\", "
       "\"placeholder\": \"HANGAR_1\"}]}",
       "\"header\" is required"},
      {"{\"credentials\": [{\"hosts\": [\"a.com\"], \"header\": \"X Auth\", \"value\": "
       "\"v\", "
       "\"placeholder\": \"HANGAR_1\"}]}",
       "HTTP field name"},
      {"{\"credentials\": [{\"hosts\": [\"a.com\"], \"header\": \"Content-Length\", "
       "\"value\": \"1\", \"placeholder\": \"HANGAR_1\"}]}",
       "cannot carry a credential"},
      {"{\"credentials\": [{\"hosts\": [\"a.com\"], \"header\": "
       "\"X-0123456789012345678901234567890123456789012345678901234567890123\", "
       "\"value\": "
       "\"v\", \"placeholder\": \"HANGAR_1\"}]}",
       "\"header\" must be 1 to 63 bytes"},
      {"{\"credentials\": [{\"hosts\": [\"a.com\"], \"header\": \"A\", "
       "\"value\": \"x\\r\\nEvil: 1\", \"placeholder\": \"HANGAR_1\"}]}",
       "control characters"},
      {"{\"credentials\": [{\"hosts\": [\"a.com\"], \"header\": \"A\", \"value\": \"\", "
       "\"placeholder\": \"HANGAR_1\"}]}",
       "\"value\" must be 1 to 4095 bytes"},
      {"{\"credentials\": [{\"hosts\": [\"a.com\"], \"header\": \"A\", \"value\": \"v\", "
       "\"placeholder\": \"lower_1\"}]}",
       "A-Z, 0-9 and _"},
      {"{\"credentials\": [{\"hosts\": [\"a.com\"], \"header\": \"A\", \"value\": \"v\", "
       "\"placeholder\": \"ABC\"}]}",
       "\"placeholder\" must be 4 to 63 bytes"},
      {"{\"credentials\": [{\"hosts\": [\"a.com\"], \"header\": \"A\", \"value\": \"v\", "
       "\"placeholder\": \"HANGAR_1\", \"upgrade\": \"yes\"}]}",
       "\"upgrade\" must be a boolean"},
      {"{\"credentials\": [{\"hosts\": [\"a.com\"], \"header\": \"A\", \"value\": \"v\", "
       "\"placeholder\": \"HANGAR_1\", \"scope\": 1}]}",
       "credentials[0]: unknown key \"scope\""},
      {"{\"credentials\": [{\"hosts\": [\"a.com\"], \"header\": \"A\", \"value\": \"v\", "
       "\"placeholder\": \"HANGAR_1\"}, {\"hosts\": [\"b.com\"], \"header\": \"B\", "
       "\"value\": \"w\", \"placeholder\": \"HANGAR_1\"}]}",
       "same placeholder HANGAR_1"},
      {"{\"credentials\": [{\"hosts\": [\"a.com\"], \"header\": \"A\", \"value\": \"v\", "
       "\"placeholder\": \"HANGAR_1\"}, {\"hosts\": [\"b.com\"], \"header\": \"B\", "
       "\"value\": \"w\", \"placeholder\": \"HANGAR_10\"}]}",
       "contains HANGAR_1"},
  };
  for (size_t i = 0; i < HG_ARRAY_SIZE(bad); i++) {
    char err[256] = "";
    hg_policy *p = (hg_policy *)0x1;
    json_error_t jerr;
    json_t *j = json_loads(bad[i].json, JSON_DECODE_ANY | JSON_ALLOW_NUL, &jerr);
    if (!j) fail_msg("test json %zu: %s", i, jerr.text);
    assert_int_equal(hg_policy_parse(j, &p, err), -EINVAL);
    json_decref(j);
    assert_ptr_equal(p, (hg_policy *)0x1); /* untouched */
    if (!strstr(err, bad[i].msg))
      fail_msg("policy %zu: got \"%s\", want \"%s\"", i, err, bad[i].msg);
  }

  /* too many entries */
  json_t *j = json_pack("{s:[]}", "allow");
  for (int i = 0; i <= HG_ALLOW_MAX; i++) {
    char name[32];
    snprintf(name, sizeof name, "h%d.example.com", i);
    json_array_append_new(json_object_get(j, "allow"), json_string(name));
  }
  char err[256];
  hg_policy *p;
  assert_int_equal(hg_policy_parse(j, &p, err), -EINVAL);
  assert_non_null(strstr(err, "more than 256 entries"));
  json_decref(j);

  /* a good one: JSON back as given, values redacted on request */
  p = parse_policy(
      "{\"allow\": [\"API.example.com\", \"*.pypi.org\", \"203.0.113.0/24:5432\", "
      "\"203.0.113.9:22\"], \"credentials\": [{\"hosts\": [\"api.example.com\"], "
      "\"header\": \"Authorization\", \"value\": \"Bearer sk-secret\", "
      "\"placeholder\": \"HANGAR_SECRET_1\", \"upgrade\": true}]}",
      err);
  assert_non_null(p);
  assert_int_equal(p->ncreds, 1);
  assert_int_equal(p->nnft, 2);
  assert_int_equal(p->nft[0].prefix_len, 24);
  assert_int_equal(p->nft[1].port, 22);
  assert_true(p->creds[0].upgrade);
  assert_string_equal(p->creds[0].value, "Bearer sk-secret");
  assert_true(hg_allow_name(p->allow, "x.pypi.org", 10));
  assert_true(hg_allow_name(p->creds[0].hosts, "api.example.com", 15));
  assert_true(hg_allow_addr(p->allow, IP(203, 0, 113, 7), 5432));
  json_t *red = hg_policy_json(p, true), *full = hg_policy_json(p, false);
  char *rt = json_dumps(red, JSON_COMPACT | JSON_SORT_KEYS);
  assert_null(strstr(rt, "sk-secret"));
  assert_non_null(strstr(rt, "\"value\":\"***\""));
  assert_non_null(strstr(rt, "\"placeholder\":\"HANGAR_SECRET_1\""));
  assert_non_null(strstr(rt, "\"API.example.com\""));
  free(rt);
  json_t *v =
      json_object_get(json_array_get(json_object_get(full, "credentials"), 0), "value");
  assert_string_equal(json_string_value(v), "Bearer sk-secret");
  /* what it writes reads back the same */
  hg_policy *p2;
  assert_int_equal(hg_policy_parse(full, &p2, err), 0);
  json_t *again = hg_policy_json(p2, false);
  assert_true(json_equal(again, full));
  json_decref(again);
  json_decref(red);
  json_decref(full);
  hg_policy_free(p2);
  hg_policy_free(p);
  assert_true(json_is_null(red = hg_policy_json(NULL, true)));
  json_decref(red);
  (void)state;
}

static void policy_persists_and_recovery_brings_listeners_back(void **state) {
  fixture *f = *state;
  start(f, NULL);
  answer a;
  json_t *got;
  assert_int_equal(hg_gateway_get_policy(f->gw, SB, &got), 0);
  assert_true(json_is_null(got)); /* no policy: no egress */
  json_decref(got);
  assert_int_equal(udp_ask(f, "api.example.com", HG_DNS_T_A, &a), 0);
  assert_int_equal(a.rcode, HG_DNS_NXDOMAIN);
  assert_int_equal(hg_gateway_get_policy(f->gw, "sb-unknown", &got), -ENOENT);

  char err[256];
  hg_policy *p = parse_policy(
      "{\"allow\": [\"api.example.com\", \"203.0.113.0/24:5432\"], \"credentials\": "
      "[{\"hosts\": [\"api.example.com\"], \"header\": \"Authorization\", \"value\": "
      "\"Bearer sk-secret\", \"placeholder\": \"HANGAR_SECRET_1\"}]}",
      err);
  assert_non_null(p);
  int rechecks = stub_rechecks;
  assert_int_equal(hg_gateway_set_policy(f->gw, SB, p), 0);
  assert_true(stub_rechecks > rechecks);
  hg_policy_free(p); /* the gateway keeps its own copy */
  assert_int_equal(udp_ask(f, "api.example.com", HG_DNS_T_A, &a), 0);
  assert_int_equal(a.n, 2);
  /* the CIDR:port entry is in the nft allow set */
  char *set = ns_cmd_output(f, "nft list set ip hangar allow");
  assert_non_null(set);
  assert_non_null(strstr(set, "203.0.113.0/24 . 5432"));
  free(set);

  char path[PATH_MAX], *text;
  struct stat st;
  snprintf(path, sizeof path, "%s/%s.json", f->state_dir, SB);
  assert_int_equal(stat(path, &st), 0);
  assert_int_equal(st.st_mode & 0777, 0600);
  assert_int_equal(hg_read_file(path, 1 << 20, &text, NULL), 0);
  assert_non_null(strstr(text, "Bearer sk-secret")); /* the gateway needs it back */
  free(text);
  assert_int_equal(hg_gateway_get_policy(f->gw, SB, &got), 0);
  text = json_dumps(got, JSON_COMPACT);
  assert_null(strstr(text, "sk-secret"));
  assert_non_null(strstr(text, "HANGAR_SECRET_1"));
  free(text);

  /* a policy for a sandbox not attached yet waits for it */
  p = parse_policy("{\"allow\": [\"a.cdn.example.com\"]}", err);
  assert_int_equal(hg_gateway_set_policy(f->gw, "sb-later", p), 0);
  hg_policy_free(p);

  /* stop: the namespace and rules stay, nothing listens (fail closed) */
  hg_gateway_stop(f->gw);
  f->gw = NULL;
  assert_int_equal(mounts_under(f->netns_dir) >= 1, 1);
  assert_int_equal(tcp_connect(f, HG_GW_HTTP_PORT), -ECONNREFUSED);
  int fd = tcp_connect(f, HG_GW_DNS_PORT);
  assert_true(fd < 0);

  /* start again: listeners and policies back */
  assert_int_equal(hg_gateway_start(&f->cfg, &f->gw), 0);
  json_t *got2;
  assert_int_equal(hg_gateway_get_policy(f->gw, SB, &got2), 0);
  assert_true(json_equal(got, got2));
  json_decref(got);
  json_decref(got2);
  assert_int_equal(hg_gateway_get_policy(f->gw, "sb-later", &got), 0);
  assert_non_null(json_object_get(got, "allow"));
  json_decref(got);
  assert_int_equal(udp_ask(f, "api.example.com", HG_DNS_T_A, &a), 0);
  assert_int_equal(a.n, 2);
  assert_int_equal(tap_ask(f, GW_IP, "api.example.com", HG_DNS_T_A, &a), 0);
  assert_int_equal(a.n, 2);
  for (uint16_t port = HG_GW_RELAY_PORT; port;
       port = port == HG_GW_RELAY_PORT  ? HG_GW_HTTP_PORT
              : port == HG_GW_HTTP_PORT ? HG_GW_HTTPS_PORT
                                        : 0) {
    fd = tcp_connect(f, port);
    assert_true(fd >= 0);
    close(fd);
  }
  fd = tcp_connect(f, HG_GW_DNS_PORT);
  assert_true(fd >= 0);
  uint8_t q[512];
  size_t qlen = make_query(9, "api.example.com", HG_DNS_T_A, q + 2, sizeof q - 2);
  put16(q, (uint16_t)qlen);
  assert_int_equal(send(fd, q, qlen + 2, 0), (ssize_t)(qlen + 2));
  assert_int_equal(tcp_read_answer(fd, &a), 0);
  assert_int_equal(a.n, 2);
  close(fd);
  /* attach again after a restart: the tap is reused */
  close(f->tap);
  f->tap = -1;
  assert_int_equal(hg_gateway_attach(f->gw, SB, &f->tap), 0);

  /* detach: no namespace left; the policy stays until forget */
  hg_netns_close(f->ns);
  f->ns = NULL;
  close(f->tap);
  f->tap = -1;
  assert_int_equal(hg_gateway_detach(f->gw, SB), 0);
  char **names;
  size_t count;
  assert_int_equal(hg_netns_list(f->netns_dir, &names, &count), 0);
  assert_int_equal(count, 0);
  hg_netns_list_free(names);
  snprintf(path, sizeof path, "%s/%s", f->netns_dir, SB);
  assert_int_equal(access(path, F_OK), -1);
  assert_int_equal(hg_gateway_detach(f->gw, SB), -ENOENT);
  assert_int_equal(hg_gateway_get_policy(f->gw, SB, &got), 0);
  assert_false(json_is_null(got));
  json_decref(got);
  hg_gateway_forget(f->gw, SB);
  assert_int_equal(hg_gateway_get_policy(f->gw, SB, &got), -ENOENT);
  snprintf(path, sizeof path, "%s/%s.json", f->state_dir, SB);
  assert_int_equal(access(path, F_OK), -1);
  json_t *log = hg_gateway_egress_log(f->gw, SB);
  assert_int_equal(json_array_size(log), 0);
  json_decref(log);
}

static void egress_log_keeps_the_newest_entries(void **state) {
  fixture *f = *state;
  f->cfg.log_max = 4;
  start(f, POLICY_API);
  answer a;
  for (int i = 1; i <= 6; i++) {
    char name[32];
    snprintf(name, sizeof name, "n%d.evil.com", i);
    assert_int_equal(udp_ask(f, name, HG_DNS_T_A, &a), 0);
    assert_int_equal(a.rcode, HG_DNS_NXDOMAIN);
  }
  json_t *log = hg_gateway_egress_log(f->gw, SB);
  assert_int_equal(json_array_size(log), 4);
  for (int i = 0; i < 4; i++) {
    char name[32];
    snprintf(name, sizeof name, "n%d.evil.com", i + 3);
    json_t *e = json_array_get(log, (size_t)i);
    assert_string_equal(json_string_value(json_object_get(e, "name")), name);
    assert_string_equal(verdict_of(e), "deny");
    assert_string_equal(json_string_value(json_object_get(e, "reason")), "not_allowed");
    assert_int_equal(json_integer_value(json_object_get(e, "bytes_out")), 0);
    assert_non_null(json_object_get(e, "bytes_in"));
  }
  json_decref(log);

  /* the proxy's entries go to the same log and metrics */
  hg_buf m;
  hg_buf_init(&m, 1 << 20);
  hg_gateway_metrics(f->gw, &m);
  assert_non_null(strstr(
      m.data, "hangar_gateway_decisions_total{proto=\"dns\",verdict=\"deny\"} 6\n"));
  assert_non_null(strstr(
      m.data, "hangar_gateway_decisions_total{proto=\"tls\",verdict=\"allow\"} 0\n"));
  hg_buf_free(&m);
}

/* Runs on the gateway thread: no cmocka asserts here, results to the test. */
typedef struct hooks_seen {
  bool name_ok, loop_ok, proxies_ok, deny_cfg, deny_lo, deny_public, policy_ok;
} hooks_seen;

static void log_tls(hg_gw_sandbox *sb, void *arg) {
  hooks_seen *h = arg;
  hg_gw_log(sb, "tls", "api.example.com", IP(93, 184, 216, 34), 443, true, "sni", 100,
            2000);
  h->name_ok = strcmp(hg_gw_name(sb), SB) == 0;
  h->loop_ok = hg_gw_loop(sb) != NULL;
  h->proxies_ok = hg_gw_proxies(sb) != NULL;
  h->deny_cfg = hg_gw_addr_denied(sb, IP(203, 0, 113, 200)); /* config */
  h->deny_lo = hg_gw_addr_denied(sb, IP(127, 0, 0, 1));
  h->deny_public = hg_gw_addr_denied(sb, IP(203, 0, 113, 20));
  const hg_policy *p = hg_gw_policy(sb);
  h->policy_ok = p && hg_allow_name(p->allow, "api.example.com", 15);
}

/* Plays the guest's side of an inbound connection: answers the SYN with a
 * SYN-ACK. Returns 0 when it saw the right SYN. */
static void *guest_accept(void *arg) {
  fixture *f = arg;
  uint8_t fr[1600];
  size_t n = tap_read(f->tap, 6, fr, sizeof fr, WAIT_MS);
  const uint8_t *ip = fr + 14, *tcp = fr + 34;
  if (n < 54 || get32(ip + 12) != GW_IP || get32(ip + 16) != GUEST_IP ||
      get16(tcp + 2) != 8080 || tcp[13] != 0x02)
    return (void *)1;
  uint8_t out[64];
  size_t off = ip_frame(out, GW_IP, 6, 20);
  uint8_t *t = out + off;
  memset(t, 0, 20);
  put16(t, 8080);
  put16(t + 2, get16(tcp));
  put32(t + 4, 1000);
  put32(t + 8, get32(tcp + 4) + 1);
  t[12] = 5 << 4;
  t[13] = 0x12; /* SYN ACK */
  put16(t + 14, 65535);
  uint8_t pseudo[12];
  put32(pseudo, GUEST_IP);
  put32(pseudo + 4, GW_IP);
  pseudo[8] = 0;
  pseudo[9] = 6;
  put16(pseudo + 10, 20);
  put16(t + 16, fold(sum16(t, 20, sum16(pseudo, 12, 0))));
  return write(f->tap, out, off + 20) == (ssize_t)(off + 20) ? NULL : (void *)2;
}

static void connect_guest_reaches_the_guest_and_proxy_hooks_work(void **state) {
  fixture *f = *state;
  start(f, POLICY_API);
  hooks_seen h = {0};
  assert_int_equal(hg_gw_run(f->gw, SB, log_tls, &h), 0);
  assert_true(h.name_ok && h.loop_ok && h.proxies_ok && h.policy_ok);
  assert_true(h.deny_cfg && h.deny_lo);
  assert_false(h.deny_public);
  json_t *log = hg_gateway_egress_log(f->gw, SB);
  json_t *e = log_find(log, "api.example.com", "sni");
  assert_non_null(e);
  assert_string_equal(json_string_value(json_object_get(e, "proto")), "tls");
  assert_int_equal(json_integer_value(json_object_get(e, "port")), 443);
  assert_int_equal(json_integer_value(json_object_get(e, "bytes_out")), 100);
  assert_int_equal(json_integer_value(json_object_get(e, "bytes_in")), 2000);
  json_decref(log);
  assert_int_equal(hg_gw_run(f->gw, "sb-nope", log_tls, &h), -ENOENT);

  /* an inbound connection: the SYN leaves on the tap for the guest, which
   * answers it by hand */
  int fd = -1;
  assert_int_equal(hg_gateway_connect_guest(f->gw, "sb-nope", 8080, &fd), -ENOENT);
  pthread_t guest;
  assert_int_equal(pthread_create(&guest, NULL, guest_accept, f), 0);
  int rc = hg_gateway_connect_guest(f->gw, SB, 8080, &fd);
  void *guest_rc;
  pthread_join(guest, &guest_rc);
  assert_null(guest_rc);
  assert_int_equal(rc, 0);
  assert_true(fd >= 0);
  assert_int_equal(fcntl(fd, F_GETFL) & O_NONBLOCK, 0);
  assert_true(fcntl(fd, F_GETFD) & FD_CLOEXEC);
  struct sockaddr_in peer;
  socklen_t plen = sizeof peer;
  assert_int_equal(getpeername(fd, (struct sockaddr *)&peer, &plen), 0);
  assert_int_equal(ntohl(peer.sin_addr.s_addr), GUEST_IP);
  close(fd);
}

static void set_policy_text(fixture *f, const char *name, const char *text) {
  char err[256];
  hg_policy *p = text ? parse_policy(text, err) : NULL;
  if (text) assert_non_null(p);
  assert_int_equal(hg_gateway_set_policy(f->gw, name, p), 0);
  hg_policy_free(p);
}

static void policy_updates_apply_live(void **state) {
  fixture *f = *state;
  start(f, POLICY_API);
  answer a;
  assert_int_equal(tap_ask(f, GW_IP, "api.example.com", HG_DNS_T_A, &a), 0);
  assert_int_equal(a.n, 2);
  int rechecks = stub_rechecks;
  set_policy_text(f, SB, "{\"allow\": [\"a.cdn.example.com\"]}");
  assert_true(stub_rechecks > rechecks);
  /* what it remembers does not outlive the name's place in the policy */
  assert_int_equal(tap_ask(f, GW_IP, "api.example.com", HG_DNS_T_A, &a), 0);
  assert_int_equal(a.rcode, HG_DNS_NXDOMAIN);
  assert_int_equal(tap_ask(f, GW_IP, "a.cdn.example.com", HG_DNS_T_A, &a), 0);
  assert_int_equal(a.n, 1);
  char *set = ns_cmd_output(f, "nft list set ip hangar allow");
  assert_non_null(set);
  assert_null(strstr(set, "5432"));
  free(set);
  /* none at all: no egress */
  set_policy_text(f, SB, NULL);
  assert_int_equal(tap_ask(f, GW_IP, "a.cdn.example.com", HG_DNS_T_A, &a), 0);
  assert_int_equal(a.rcode, HG_DNS_NXDOMAIN);
  json_t *got;
  assert_int_equal(hg_gateway_get_policy(f->gw, SB, &got), 0);
  assert_true(json_is_null(got));
  json_decref(got);
  char path[PATH_MAX];
  snprintf(path, sizeof path, "%s/%s.json", f->state_dir, SB);
  assert_int_equal(access(path, F_OK), -1);
}

static void sandboxes_are_isolated(void **state) {
  fixture *f = *state;
  start(f, POLICY_API);
  int tap2 = -1;
  assert_int_equal(hg_gateway_attach(f->gw, SB2, &tap2), 0);
  assert_true(tap2 >= 0 && tap2 != f->tap);
  set_policy_text(f, SB2, "{\"allow\": [\"a.cdn.example.com\"]}");
  hg_netns *ns2;
  assert_int_equal(hg_netns_open(f->netns_dir, SB2, &ns2), 0);
  hg_netns *ns1 = f->ns;
  answer a;
  f->ns = ns2;
  assert_int_equal(udp_ask(f, "api.example.com", HG_DNS_T_A, &a), 0);
  assert_int_equal(a.rcode, HG_DNS_NXDOMAIN);
  assert_int_equal(udp_ask(f, "a.cdn.example.com", HG_DNS_T_A, &a), 0);
  assert_int_equal(a.n, 1);
  f->ns = ns1;
  assert_int_equal(udp_ask(f, "api.example.com", HG_DNS_T_A, &a), 0);
  assert_int_equal(a.n, 2);
  assert_false(answered(f, "a.cdn.example.com", IP(93, 184, 216, 40)));
  hg_buf m;
  hg_buf_init(&m, 1 << 20);
  hg_gateway_metrics(f->gw, &m);
  assert_non_null(strstr(m.data, "hangar_gateway_sandboxes 2\n"));
  hg_buf_free(&m);
  json_t *log = hg_gateway_egress_log(f->gw, SB2);
  assert_int_equal(json_array_size(log), 2);
  json_decref(log);
  hg_netns_close(ns2);
  close(tap2);
  assert_int_equal(hg_gateway_detach(f->gw, SB2), 0);
  /* the other one carries on */
  assert_int_equal(udp_ask(f, "api.example.com", HG_DNS_T_A, &a), 0);
  assert_int_equal(a.n, 2);
}

/* A detach does not wait for upstream or for the guest's connections. */
static void detach_cuts_what_is_in_flight(void **state) {
  fixture *f = *state;
  start(f, POLICY_API);
  /* Both questions stay unanswered upstream: else the second one's answer
   * (the upstream answers a second ask) could reach the first asker
   * before the detach, and the test measured the race, not the detach. */
  f->up.slow_mute = 1;
  int fd = tcp_connect(f, HG_GW_DNS_PORT);
  assert_true(fd >= 0);
  uint8_t q[512];
  size_t qlen = make_query(3, "slow.example.com", HG_DNS_T_A, q + 2, sizeof q - 2);
  put16(q, (uint16_t)qlen);
  assert_int_equal(send(fd, q, qlen + 2, 0), (ssize_t)(qlen + 2));
  int udp = ns_socket(f, SOCK_DGRAM);
  struct sockaddr_in to = gw_addr(HG_GW_DNS_PORT);
  qlen = make_query(4, "slow.example.com", HG_DNS_T_A, q, sizeof q);
  assert_int_equal(sendto(udp, q, qlen, 0, (struct sockaddr *)&to, sizeof to),
                   (ssize_t)qlen);
  int64_t end = hg_now_ms() + WAIT_MS;
  while (f->up.slow_seen < 1 && hg_now_ms() < end) usleep(1000);
  assert_true(f->up.slow_seen >= 1); /* a question is upstream */
  assert_int_equal(hg_gateway_detach(f->gw, SB), 0);
  /* closed with no answer: a detach that waited for upstream would have
   * sent the upstream timeout's SERVFAIL first */
  uint8_t r[64];
  assert_true(recv(fd, r, sizeof r, 0) <= 0);
  close(fd);
  close(udp);
  char path[PATH_MAX];
  snprintf(path, sizeof path, "%s/%s", f->netns_dir, SB);
  assert_int_equal(access(path, F_OK), -1);
  /* attach again (resume): same policy, fresh namespace */
  hg_netns_close(f->ns);
  f->ns = NULL;
  close(f->tap);
  f->tap = -1;
  assert_int_equal(hg_gateway_attach(f->gw, SB, &f->tap), 0);
  assert_int_equal(hg_netns_open(f->netns_dir, SB, &f->ns), 0);
  answer a;
  assert_int_equal(udp_ask(f, "api.example.com", HG_DNS_T_A, &a), 0);
  assert_int_equal(a.n, 2);
}

typedef struct hammer {
  fixture *f;
  int failures;
} hammer;

static void *hammer_main(void *arg) {
  hammer *h = arg;
  for (int i = 0; i < 200; i++) {
    json_t *j = NULL;
    if (hg_gateway_get_policy(h->f->gw, SB, &j) != 0 || !json_is_object(j)) h->failures++;
    json_decref(j);
    j = hg_gateway_egress_log(h->f->gw, SB);
    if (!json_is_array(j)) h->failures++;
    json_decref(j);
  }
  return NULL;
}

static void calls_from_many_threads(void **state) {
  fixture *f = *state;
  start(f, POLICY_API);
  hammer h[4];
  pthread_t t[4];
  for (int i = 0; i < 4; i++) {
    h[i] = (hammer){f, 0};
    assert_int_equal(pthread_create(&t[i], NULL, hammer_main, &h[i]), 0);
  }
  for (int i = 0; i < 20; i++) {
    answer a;
    assert_int_equal(udp_ask(f, "api.example.com", HG_DNS_T_A, &a), 0);
    assert_int_equal(a.n, 2);
  }
  for (int i = 0; i < 4; i++) {
    pthread_join(t[i], NULL);
    assert_int_equal(h[i].failures, 0);
  }
}

static void bad_names_and_unknown_sandboxes(void **state) {
  fixture *f = *state;
  assert_int_equal(hg_gateway_start(&f->cfg, &f->gw), 0);
  int fd = -1;
  assert_int_equal(hg_gateway_attach(f->gw, "../x", &fd), -EINVAL);
  assert_int_equal(hg_gateway_attach(f->gw, "", &fd), -EINVAL);
  assert_int_equal(hg_gateway_detach(f->gw, "sb-none"), -ENOENT);
  assert_int_equal(hg_gateway_set_policy(f->gw, "a/b", NULL), -EINVAL);
  hg_gateway_forget(f->gw, "sb-none");
  json_t *j;
  assert_int_equal(hg_gateway_get_policy(f->gw, "sb-none", &j), -ENOENT);
  /* NULL policy: known, none */
  assert_int_equal(hg_gateway_set_policy(f->gw, "sb-none", NULL), 0);
  assert_int_equal(hg_gateway_get_policy(f->gw, "sb-none", &j), 0);
  assert_true(json_is_null(j));
  json_decref(j);
  hg_gateway_forget(f->gw, "sb-none");
  assert_int_equal(fd, -1);

  hg_gateway_config bad = f->cfg;
  hg_gateway *gw = NULL;
  bad.upstream_dns = "dns.example.com:53";
  assert_int_equal(hg_gateway_start(&bad, &gw), -EINVAL);
  bad.upstream_dns = "1.1.1.1:0";
  assert_int_equal(hg_gateway_start(&bad, &gw), -EINVAL);
  bad.upstream_dns = NULL;
  bad.deny = "10.0.0.1/8";
  assert_int_equal(hg_gateway_start(&bad, &gw), -EINVAL);
  assert_null(gw);
}

/* libuv opens a few fds once per process (the signal pipe, ...): open
 * them before the first fixture counts. */
static void libuv_warm_up(void) {
  uv_loop_t loop;
  uv_tcp_t t;
  uv_udp_t u;
  struct sockaddr_in a = {.sin_family = AF_INET,
                          .sin_addr.s_addr = htonl(INADDR_LOOPBACK)};
  uv_loop_init(&loop);
  uv_tcp_init(&loop, &t);
  uv_udp_init(&loop, &u);
  uv_tcp_bind(&t, (struct sockaddr *)&a, 0);
  uv_listen((uv_stream_t *)&t, 1, NULL);
  uv_udp_bind(&u, (struct sockaddr *)&a, 0);
  uv_close((uv_handle_t *)&t, NULL);
  uv_close((uv_handle_t *)&u, NULL);
  uv_run(&loop, UV_RUN_DEFAULT);
  uv_loop_close(&loop);
}

static int group_setup(void **state) {
  libuv_warm_up();
  hg_netns_link_default(&link_);
  hg_log_set_level(HG_LOG_WARN);
  sweep_stale("hg-gw");
  signal(SIGPIPE, SIG_IGN);
  return 0;
}

int main(void) {
#define T(fn) cmocka_unit_test_setup_teardown(fn, setup, teardown)
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(policy_parse_rejects_with_clear_messages),
      T(dns_over_the_tap_answers_only_allowed_a_records),
      T(answers_in_denied_ranges_are_dropped),
      T(dns_over_tcp_bad_names_and_upstream_retry),
      T(queries_over_the_rate_are_refused),
      T(metrics_read_nft_counters_at_most_once_a_second),
      T(policy_persists_and_recovery_brings_listeners_back),
      T(egress_log_keeps_the_newest_entries),
      T(connect_guest_reaches_the_guest_and_proxy_hooks_work),
      T(policy_updates_apply_live),
      T(sandboxes_are_isolated),
      T(detach_cuts_what_is_in_flight),
      T(calls_from_many_threads),
      T(bad_names_and_unknown_sandboxes),
  };
#undef T
  return cmocka_run_group_tests(tests, group_setup, NULL);
}
