/* egress_probe: the guest's side of it_egress. A static binary copied into
 * a sandbox and run as root through the commands API; each subcommand is
 * one egress attempt of the red-team matrix (shared/reference/egress.md)
 * and prints ONE JSON line saying what happened on the wire, from the
 * guest's point of view: did it connect, how many bytes went out, how many
 * came back, how the connection ended. The verdict is the test's: it also
 * looks at what reached the fake internet and at the egress log.
 *
 *   egress_probe dns SERVER NAME [--type A|AAAA|TXT|ANY|HTTPS|N] [--tcp] [--port P]
 *   egress_probe dns-flood SERVER NAME COUNT
 *   egress_probe tcp TARGET PORT [--send TEXT] [--send-hex HEX]
 *   egress_probe http TARGET PORT [--host H]... [--path P] [--target T] [--method M]
 *                [--header 'K: V']... [--http10]
 *   egress_probe tls TARGET PORT --sni NAME [--ca FILE] [--split N] [--records N]
 *                [--path P] [--host H] [--header 'K: V'] [--hold SEC] [--interval MS]
 *   egress_probe hello TARGET PORT [--sni NAME]... [--sni-hex HEX] [--dup] [--ech]
 *                [--pad N] [--split N] [--records N] [--stall-after N]
 *   egress_probe udp TARGET PORT [--send TEXT]
 *   egress_probe icmp TARGET
 *   egress_probe raw DST --proto tcp|udp|gre [--src IP] [--dport P] [--frag]
 *   egress_probe l2 [--src-mac MAC] [--src-ip IP]      DNS query in a hand-made frame
 *   egress_probe l2 --v6                                 IPv6/UDP frame to the gateway's
 * MAC (whatever the guest kernel's own IPv6 state) egress_probe garp IP [--src-mac MAC]
 * gratuitous ARP claiming IP egress_probe tcp6 ADDR PORT | udp6 ADDR PORT Common:
 * --timeout MS (connect and each read; default 3000).
 *
 * TARGET is an IPv4 address or a name, looked up in /etc/hosts first and
 * then with an A query to the nameserver in /etc/resolv.conf, as a libc
 * would (so a spoofed /etc/hosts is honoured). Exit status 0 whenever the
 * attempt was made, 2 for a usage error. */
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <linux/if_ether.h>
#include <linux/if_packet.h>
#include <net/if.h>
#include <netinet/in.h>
#include <netinet/ip.h>
#include <netinet/ip_icmp.h>
#include <netinet/tcp.h>
#include <netinet/udp.h>
#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/rand.h>
#include <openssl/ssl.h>
#include <poll.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#define GW_IP "10.0.2.1"
#define GUEST_IP "10.0.2.15"
static const uint8_t GW_MAC[6] = {0x02, 0x68, 0x67, 0x00, 0x00, 0x01};

static int g_timeout = 3000;

/* ---- output: one JSON object -------------------------------------------------- */

static char out[65536];
static size_t olen;

static void o_raw(const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  int n = vsnprintf(out + olen, sizeof out - olen, fmt, ap);
  va_end(ap);
  if (n > 0) olen += (size_t)n < sizeof out - olen ? (size_t)n : sizeof out - olen - 1;
}

static void o_key(const char *k) {
  o_raw("%s\"%s\":", olen > 1 ? "," : "", k);
}

static void o_esc(const char *s, size_t n) {
  o_raw("\"");
  for (size_t i = 0; i < n; i++) {
    unsigned char c = (unsigned char)s[i];
    if (c == '"' || c == '\\')
      o_raw("\\%c", c);
    else if (c >= 0x20 && c < 0x7f)
      o_raw("%c", c);
    else
      o_raw("\\u%04x", c);
  }
  o_raw("\"");
}

static void o_str(const char *k, const char *v) {
  o_key(k);
  o_esc(v, strlen(v));
}
static void o_int(const char *k, long long v) {
  o_key(k);
  o_raw("%lld", v);
}
static void o_bool(const char *k, bool v) {
  o_key(k);
  o_raw(v ? "true" : "false");
}
static void o_hex(const char *k, const uint8_t *p, size_t n) {
  o_key(k);
  o_raw("\"");
  for (size_t i = 0; i < n; i++) o_raw("%02x", p[i]);
  o_raw("\"");
}

static void o_begin(const char *cmd) {
  olen = 0;
  o_raw("{");
  o_str("cmd", cmd);
}
static void o_end(void) {
  o_raw("}\n");
  fwrite(out, 1, olen, stdout);
  fflush(stdout);
}

static int64_t now_ms(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

static void sleep_ms(int ms) {
  struct timespec ts = {ms / 1000, (long)(ms % 1000) * 1000000};
  nanosleep(&ts, NULL);
}

/* ---- options ------------------------------------------------------------------- */

typedef struct opts {
  const char *pos[4];
  int npos;
  const char *multi[16]; /* --host / --sni / --header, in order */
  int nmulti;
  const char *headers[8];
  int nheaders;
  const char *type, *send, *send_hex, *path, *target, *method, *ca, *sni_hex, *src,
      *src_mac, *proto;
  int port, split, records, pad, stall_after, hold, interval, dport;
  bool tcp, dup, ech, frag, http10, v6;
} opts;

static int parse(int argc, char **argv, opts *o) {
  memset(o, 0, sizeof *o);
  o->interval = 300;
  for (int i = 0; i < argc; i++) {
    const char *a = argv[i];
    const char *v = i + 1 < argc ? argv[i + 1] : NULL;
#define VAL(name, field)  \
  if (!strcmp(a, name)) { \
    if (!v) return -1;    \
    field = v;            \
    i++;                  \
    continue;             \
  }
#define NUM(name, field)  \
  if (!strcmp(a, name)) { \
    if (!v) return -1;    \
    field = atoi(v);      \
    i++;                  \
    continue;             \
  }
#define FLAG(name, field) \
  if (!strcmp(a, name)) { \
    field = true;         \
    continue;             \
  }
    VAL("--type", o->type)
    VAL("--send", o->send)
    VAL("--send-hex", o->send_hex)
    VAL("--path", o->path)
    VAL("--target", o->target)
    VAL("--method", o->method)
    VAL("--ca", o->ca)
    VAL("--sni-hex", o->sni_hex)
    VAL("--src", o->src)
    VAL("--src-mac", o->src_mac)
    VAL("--src-ip", o->src)
    VAL("--proto", o->proto)
    NUM("--port", o->port)
    NUM("--split", o->split)
    NUM("--records", o->records)
    NUM("--pad", o->pad)
    NUM("--stall-after", o->stall_after)
    NUM("--hold", o->hold)
    NUM("--interval", o->interval)
    NUM("--dport", o->dport)
    NUM("--timeout", g_timeout)
    FLAG("--tcp", o->tcp)
    FLAG("--dup", o->dup)
    FLAG("--ech", o->ech)
    FLAG("--frag", o->frag)
    FLAG("--http10", o->http10)
    FLAG("--v6", o->v6)
    if (!strcmp(a, "--host") || !strcmp(a, "--sni")) {
      if (!v || o->nmulti == 16) return -1;
      o->multi[o->nmulti++] = v;
      i++;
      continue;
    }
    if (!strcmp(a, "--header")) {
      if (!v || o->nheaders == 8) return -1;
      o->headers[o->nheaders++] = v;
      i++;
      continue;
    }
    if (a[0] == '-' && a[1] == '-') return -1;
    if (o->npos == 4) return -1;
    o->pos[o->npos++] = a;
  }
  return 0;
}

static size_t unhex(const char *h, uint8_t *outb, size_t cap) {
  size_t n = 0;
  while (h[0] && h[1] && n < cap) {
    unsigned v;
    if (sscanf(h, "%2x", &v) != 1) break;
    outb[n++] = (uint8_t)v;
    h += 2;
  }
  return n;
}

/* ---- DNS ------------------------------------------------------------------------- */

static int qtype_of(const char *t) {
  if (!t || !strcasecmp(t, "A")) return 1;
  if (!strcasecmp(t, "AAAA")) return 28;
  if (!strcasecmp(t, "TXT")) return 16;
  if (!strcasecmp(t, "ANY")) return 255;
  if (!strcasecmp(t, "HTTPS")) return 65;
  if (!strcasecmp(t, "SVCB")) return 64;
  if (!strcasecmp(t, "MX")) return 15;
  return atoi(t);
}

static size_t dns_build(uint8_t *m, size_t cap, uint16_t id, const char *name,
                        int qtype) {
  if (cap < 12 + strlen(name) + 6) return 0;
  memset(m, 0, 12);
  m[0] = (uint8_t)(id >> 8);
  m[1] = (uint8_t)id;
  m[2] = 0x01; /* RD */
  m[5] = 1;
  size_t o = 12;
  const char *p = name;
  while (*p) {
    const char *dot = strchr(p, '.');
    size_t l = dot ? (size_t)(dot - p) : strlen(p);
    if (l > 63) l = 63; /* the query a tunnel would send: labels at the limit */
    m[o++] = (uint8_t)l;
    memcpy(m + o, p, l);
    o += l;
    p += dot ? (size_t)(dot - p) + 1 : strlen(p);
  }
  m[o++] = 0;
  m[o++] = (uint8_t)(qtype >> 8);
  m[o++] = (uint8_t)qtype;
  m[o++] = 0;
  m[o++] = 1;
  return o;
}

static int skip_name(const uint8_t *m, size_t len, size_t off) {
  while (off < len) {
    uint8_t l = m[off];
    if (l == 0) return (int)off + 1;
    if ((l & 0xc0) == 0xc0) return off + 2 <= len ? (int)off + 2 : -1;
    off += 1 + l;
  }
  return -1;
}

typedef struct dns_res {
  int rcode, ancount;
  char answers[8][48];
  int nans;
  uint32_t first_a; /* network order, 0 if none */
} dns_res;

static int dns_parse(const uint8_t *m, size_t len, uint16_t id, dns_res *r) {
  memset(r, 0, sizeof *r);
  if (len < 12 || (m[0] << 8 | m[1]) != id || !(m[2] & 0x80)) return -1;
  r->rcode = m[3] & 0x0f;
  r->ancount = m[6] << 8 | m[7];
  int off = skip_name(m, len, 12);
  if (off < 0 || (size_t)off + 4 > len) return m[5] == 0 ? 0 : -1;
  off += 4;
  for (int i = 0; i < r->ancount && i < 8; i++) {
    off = skip_name(m, len, (size_t)off);
    if (off < 0 || (size_t)off + 10 > len) break;
    int type = m[off] << 8 | m[off + 1];
    size_t rdlen = (size_t)(m[off + 8] << 8 | m[off + 9]);
    off += 10;
    if ((size_t)off + rdlen > len) break;
    char *a = r->answers[r->nans++];
    if (type == 1 && rdlen == 4) {
      inet_ntop(AF_INET, m + off, a, 48);
      if (!r->first_a) memcpy(&r->first_a, m + off, 4);
    } else if (type == 28 && rdlen == 16) {
      inet_ntop(AF_INET6, m + off, a, 48);
    } else {
      snprintf(a, 48, "type%d:%zu", type, rdlen);
    }
    off += (int)rdlen;
  }
  return 0;
}

static int set_timeouts(int fd, int ms) {
  struct timeval tv = {ms / 1000, (ms % 1000) * 1000};
  setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof tv);
  return setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &tv, sizeof tv);
}

static int tcp_connect(const char *ip, int port, int ms, int *err);

/* One query; 0 with *r filled, or a negative errno. */
static int dns_query(const char *server, int port, const char *name, int qtype, bool tcp,
                     dns_res *r, size_t *sent, size_t *recvd) {
  uint8_t q[600], a[4096];
  uint16_t id;
  RAND_bytes((uint8_t *)&id, sizeof id);
  size_t ql = dns_build(q + 2, sizeof q - 2, id, name, qtype);
  if (!ql) return -EINVAL;
  *sent = *recvd = 0;
  if (tcp) {
    int err = 0, fd = tcp_connect(server, port, g_timeout, &err);
    if (fd < 0) return err;
    q[0] = (uint8_t)(ql >> 8);
    q[1] = (uint8_t)ql;
    if (send(fd, q, ql + 2, MSG_NOSIGNAL) < 0) {
      close(fd);
      return -errno;
    }
    *sent = ql + 2;
    size_t got = 0, want = 2;
    while (got < want && got < sizeof a) {
      ssize_t n = recv(fd, a + got, want - got, 0);
      if (n <= 0) {
        int e = n == 0 ? -ECONNRESET : -errno;
        close(fd);
        *recvd = got;
        return e;
      }
      got += (size_t)n;
      if (got == 2) want = 2 + (size_t)(a[0] << 8 | a[1]);
      if (want > sizeof a) want = sizeof a;
    }
    close(fd);
    *recvd = got;
    return dns_parse(a + 2, got - 2, id, r) == 0 ? 0 : -EPROTO;
  }
  int fd = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
  struct sockaddr_in sa = {.sin_family = AF_INET, .sin_port = htons((uint16_t)port)};
  inet_pton(AF_INET, server, &sa.sin_addr);
  set_timeouts(fd, g_timeout);
  if (sendto(fd, q + 2, ql, 0, (struct sockaddr *)&sa, sizeof sa) < 0) {
    int e = -errno;
    close(fd);
    return e;
  }
  *sent = ql;
  for (;;) {
    ssize_t n = recv(fd, a, sizeof a, 0);
    if (n < 0) {
      int e = errno == EAGAIN ? -ETIMEDOUT : -errno;
      close(fd);
      return e;
    }
    *recvd += (size_t)n;
    if (dns_parse(a, (size_t)n, id, r) == 0) break;
  }
  close(fd);
  return 0;
}

static void nameserver(char ip[16]) {
  snprintf(ip, 16, GW_IP);
  FILE *f = fopen("/etc/resolv.conf", "r");
  char line[256];
  while (f && fgets(line, sizeof line, f))
    if (sscanf(line, "nameserver %15s", ip) == 1) break;
  if (f) fclose(f);
}

/* TARGET -> dotted IPv4, as a libc would: literal, /etc/hosts, DNS. */
static int resolve(const char *target, char ip[16]) {
  struct in_addr a;
  if (inet_pton(AF_INET, target, &a) == 1) {
    snprintf(ip, 16, "%s", target);
    return 0;
  }
  FILE *f = fopen("/etc/hosts", "r");
  char line[512];
  while (f && fgets(line, sizeof line, f)) {
    char addr[64], *save = NULL;
    char *tok = strtok_r(line, " \t\r\n", &save);
    if (!tok || tok[0] == '#') continue;
    snprintf(addr, sizeof addr, "%s", tok);
    while ((tok = strtok_r(NULL, " \t\r\n", &save))) {
      if (!strcasecmp(tok, target) && inet_pton(AF_INET, addr, &a) == 1) {
        fclose(f);
        inet_ntop(AF_INET, &a, ip, 16);
        return 0;
      }
    }
  }
  if (f) fclose(f);
  char ns[16];
  nameserver(ns);
  dns_res r;
  size_t s, rv;
  int rc = dns_query(ns, 53, target, 1, false, &r, &s, &rv);
  if (rc < 0) return rc;
  if (!r.first_a) return -ENOENT;
  inet_ntop(AF_INET, &r.first_a, ip, 16);
  return 0;
}

static int cmd_dns(opts *o) {
  if (o->npos < 2) return -1;
  int qtype = qtype_of(o->type);
  dns_res r;
  size_t s = 0, rv = 0;
  int64_t t0 = now_ms();
  int rc =
      dns_query(o->pos[0], o->port ? o->port : 53, o->pos[1], qtype, o->tcp, &r, &s, &rv);
  o_begin("dns");
  o_str("server", o->pos[0]);
  o_str("name", o->pos[1]);
  o_int("qtype", qtype);
  o_bool("tcp", o->tcp);
  o_int("sent", (long long)s);
  o_int("recv", (long long)rv);
  o_bool("answered", rc == 0);
  o_int("ms", now_ms() - t0);
  if (rc == 0) {
    o_int("rcode", r.rcode);
    o_key("answers");
    o_raw("[");
    for (int i = 0; i < r.nans; i++) o_raw("%s\"%s\"", i ? "," : "", r.answers[i]);
    o_raw("]");
  } else {
    o_str("err", strerror(-rc));
  }
  o_end();
  return 0;
}

static int cmd_dns_flood(opts *o) {
  if (o->npos < 3) return -1;
  int count = atoi(o->pos[2]);
  if (count < 1 || count > 10000) return -1;
  int fd = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
  struct sockaddr_in sa = {.sin_family = AF_INET, .sin_port = htons(53)};
  inet_pton(AF_INET, o->pos[0], &sa.sin_addr);
  int sent = 0, answered = 0, refused = 0, other = 0;
  uint8_t q[600], a[4096];
  int64_t t0 = now_ms();
  for (int i = 0; i < count; i++) {
    size_t ql = dns_build(q, sizeof q, (uint16_t)i, o->pos[1], 1);
    if (sendto(fd, q, ql, 0, (struct sockaddr *)&sa, sizeof sa) > 0) sent++;
  }
  int send_ms = (int)(now_ms() - t0);
  for (int64_t end = now_ms() + 2000; now_ms() < end;) {
    struct pollfd p = {.fd = fd, .events = POLLIN};
    if (poll(&p, 1, 100) <= 0) continue;
    ssize_t n = recv(fd, a, sizeof a, 0);
    if (n < 4) continue;
    int rcode = a[3] & 0x0f;
    if (rcode == 0 && (a[6] | a[7]))
      answered++;
    else if (rcode == 5)
      refused++;
    else
      other++;
  }
  close(fd);
  o_begin("dns-flood");
  o_int("sent", sent);
  o_int("send_ms", send_ms);
  o_int("answered", answered);
  o_int("refused", refused);
  o_int("other", other);
  o_end();
  return 0;
}

/* ---- TCP ----------------------------------------------------------------------- */

static int tcp_connect(const char *ip, int port, int ms, int *err) {
  int fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
  if (fd < 0) {
    *err = -errno;
    return -1;
  }
  int one = 1;
  setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
  struct sockaddr_in sa = {.sin_family = AF_INET, .sin_port = htons((uint16_t)port)};
  if (inet_pton(AF_INET, ip, &sa.sin_addr) != 1) {
    close(fd);
    *err = -EINVAL;
    return -1;
  }
  int rc = connect(fd, (struct sockaddr *)&sa, sizeof sa);
  if (rc < 0 && errno == EINPROGRESS) {
    struct pollfd p = {.fd = fd, .events = POLLOUT};
    rc = poll(&p, 1, ms);
    if (rc == 0) {
      close(fd);
      *err = -ETIMEDOUT;
      return -1;
    }
    int soerr = 0;
    socklen_t sl = sizeof soerr;
    getsockopt(fd, SOL_SOCKET, SO_ERROR, &soerr, &sl);
    rc = soerr ? (errno = soerr, -1) : 0;
  }
  if (rc < 0) {
    *err = -errno;
    close(fd);
    return -1;
  }
  fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK);
  set_timeouts(fd, ms);
  return fd;
}

typedef struct wire {
  bool connected;
  size_t sent, recvd;
  const char *closed; /* "eof", "reset", "timeout", "open" */
  int err;
  uint8_t first[32];
  size_t nfirst;
  int64_t t_connect, t_closed;
} wire;

static void note_recv(wire *w, const uint8_t *p, size_t n) {
  for (size_t i = 0; i < n && w->nfirst < sizeof w->first; i++)
    w->first[w->nfirst++] = p[i];
  w->recvd += n;
}

/* Sends len bytes, `split` bytes per segment (0: all at once). */
static int send_split(int fd, const uint8_t *p, size_t len, int split, wire *w) {
  size_t step = split > 0 ? (size_t)split : len;
  while (len) {
    size_t k = len < step ? len : step;
    ssize_t n = send(fd, p, k, MSG_NOSIGNAL);
    if (n < 0) {
      w->err = -errno;
      return -errno;
    }
    p += n;
    len -= (size_t)n;
    w->sent += (size_t)n;
    if (split > 0 && len) sleep_ms(2); /* let each go out as its own segment */
  }
  return 0;
}

/* Reads until EOF, reset or timeout (no bytes for g_timeout ms). */
static void read_rest(int fd, wire *w, uint8_t *keep, size_t keep_cap, size_t *kept) {
  uint8_t buf[16384];
  for (;;) {
    ssize_t n = recv(fd, buf, sizeof buf, 0);
    if (n > 0) {
      if (keep && *kept < keep_cap) {
        size_t k = (size_t)n < keep_cap - *kept ? (size_t)n : keep_cap - *kept;
        memcpy(keep + *kept, buf, k);
        *kept += k;
      }
      note_recv(w, buf, (size_t)n);
      continue;
    }
    w->t_closed = now_ms();
    if (n == 0)
      w->closed = "eof";
    else if (errno == EAGAIN || errno == EWOULDBLOCK)
      w->closed = "timeout";
    else {
      w->closed = errno == ECONNRESET ? "reset" : "error";
      w->err = -errno;
    }
    return;
  }
}

static void o_wire(const wire *w) {
  o_bool("connected", w->connected);
  o_int("sent", (long long)w->sent);
  o_int("recv", (long long)w->recvd);
  if (w->closed) o_str("closed", w->closed);
  if (w->nfirst) o_hex("first", w->first, w->nfirst < 16 ? w->nfirst : 16);
  if (w->err) o_str("err", strerror(-w->err));
  if (w->t_closed && w->t_connect) o_int("closed_ms", w->t_closed - w->t_connect);
}

static int cmd_tcp(opts *o) {
  if (o->npos < 2) return -1;
  char ip[16];
  wire w = {0};
  o_begin("tcp");
  o_str("target", o->pos[0]);
  int rc = resolve(o->pos[0], ip);
  if (rc < 0) {
    o_str("err", "resolve failed");
    o_end();
    return 0;
  }
  o_str("ip", ip);
  o_int("port", atoi(o->pos[1]));
  int fd = tcp_connect(ip, atoi(o->pos[1]), g_timeout, &w.err);
  if (fd >= 0) {
    w.connected = true;
    w.t_connect = now_ms();
    uint8_t data[4096];
    size_t len = 0;
    if (o->send) {
      len = strlen(o->send);
      if (len > sizeof data) len = sizeof data;
      memcpy(data, o->send, len);
      /* "\r\n" written as two characters in a shell argument */
      size_t j = 0;
      for (size_t i = 0; i < len; i++) {
        if (data[i] == '\\' && i + 1 < len &&
            (data[i + 1] == 'r' || data[i + 1] == 'n')) {
          data[j++] = data[i + 1] == 'r' ? '\r' : '\n';
          i++;
        } else {
          data[j++] = data[i];
        }
      }
      len = j;
    } else if (o->send_hex) {
      len = unhex(o->send_hex, data, sizeof data);
    }
    if (len == 0 || send_split(fd, data, len, o->split, &w) == 0)
      read_rest(fd, &w, NULL, 0, NULL);
    close(fd);
  }
  o_wire(&w);
  o_end();
  return 0;
}

/* ---- HTTP ---------------------------------------------------------------------- */

typedef struct http_resp {
  int status;
  size_t body_len;
  uint8_t sha[32];
  char body[256];
  char location[256];
} http_resp;

/* Reads one response (Content-Length or until close); 0 or -1. */
static int http_read(int fd, SSL *ssl, wire *w, http_resp *r,
                     int (*rd)(void *, uint8_t *, size_t), void *ctx) {
  static uint8_t buf[65536];
  size_t have = 0;
  memset(r, 0, sizeof *r);
  char *end = NULL;
  while (!(end = memmem(buf, have, "\r\n\r\n", 4))) {
    if (have == sizeof buf) return -1;
    int n = rd(ctx, buf + have, sizeof buf - have);
    if (n <= 0) return -1;
    note_recv(w, buf + have, (size_t)n);
    have += (size_t)n;
  }
  size_t hl = (size_t)(end - (char *)buf) + 4;
  char head[8192];
  size_t cl = hl < sizeof head ? hl : sizeof head - 1;
  memcpy(head, buf, cl);
  head[cl] = '\0';
  sscanf(head, "HTTP/%*s %d", &r->status);
  long long clen = -1;
  for (char *l = strstr(head, "\r\n"); l; l = strstr(l + 2, "\r\n")) {
    if (!strncasecmp(l + 2, "Content-Length:", 15)) clen = atoll(l + 17);
    if (!strncasecmp(l + 2, "Location:", 9)) sscanf(l + 11, "%255[^\r\n]", r->location);
  }
  EVP_MD_CTX *md = EVP_MD_CTX_new();
  EVP_DigestInit_ex(md, EVP_sha256(), NULL);
  size_t body = have - hl;
  if (clen >= 0 && (long long)body > clen) body = (size_t)clen;
  EVP_DigestUpdate(md, buf + hl, body);
  memcpy(r->body, buf + hl, body < sizeof r->body - 1 ? body : sizeof r->body - 1);
  r->body_len = body;
  while (clen < 0 || (long long)r->body_len < clen) {
    size_t want = sizeof buf;
    if (clen >= 0 && (long long)want > clen - (long long)r->body_len)
      want = (size_t)(clen - (long long)r->body_len);
    int n = rd(ctx, buf, want);
    if (n <= 0) break;
    note_recv(w, buf, (size_t)n);
    EVP_DigestUpdate(md, buf, (size_t)n);
    if (r->body_len < sizeof r->body - 1) {
      size_t k = sizeof r->body - 1 - r->body_len;
      memcpy(r->body + r->body_len, buf, (size_t)n < k ? (size_t)n : k);
    }
    r->body_len += (size_t)n;
  }
  EVP_DigestFinal_ex(md, r->sha, NULL);
  EVP_MD_CTX_free(md);
  (void)fd;
  (void)ssl;
  return clen >= 0 && (long long)r->body_len < clen ? -1 : 0;
}

static int plain_rd(void *ctx, uint8_t *b, size_t n) {
  ssize_t k = recv(*(int *)ctx, b, n, 0);
  return k > 0 ? (int)k : (k == 0 ? 0 : -1);
}

static size_t http_request(char *req, size_t cap, const opts *o, const char *host) {
  const char *method = o->method ? o->method : "GET";
  const char *target = o->target ? o->target : (o->path ? o->path : "/");
  size_t n = (size_t)snprintf(req, cap, "%s %s HTTP/%s\r\n", method, target,
                              o->http10 ? "1.0" : "1.1");
  if (host) n += (size_t)snprintf(req + n, cap - n, "Host: %s\r\n", host);
  for (int i = 0; i < o->nheaders && n < cap; i++)
    n += (size_t)snprintf(req + n, cap - n, "%s\r\n", o->headers[i]);
  if (n < cap)
    n += (size_t)snprintf(req + n, cap - n, "User-Agent: egress-probe\r\n\r\n");
  return n < cap ? n : cap;
}

static void o_resp(const http_resp *r) {
  o_int("body_len", (long long)r->body_len);
  o_hex("sha256", r->sha, 32);
  /* text bodies only (error pages, hello lines); blobs are known by their hash */
  size_t n = strnlen(r->body, sizeof r->body), i = 0;
  while (i < n && ((r->body[i] >= 0x20 && r->body[i] < 0x7f) || r->body[i] == '\n')) i++;
  if (i == n) o_str("body", r->body);
  if (r->location[0]) o_str("location", r->location);
}

static int cmd_http(opts *o) {
  if (o->npos < 2) return -1;
  char ip[16];
  wire w = {0};
  o_begin("http");
  o_str("target", o->pos[0]);
  if (resolve(o->pos[0], ip) < 0) {
    o_str("err", "resolve failed");
    o_end();
    return 0;
  }
  o_str("ip", ip);
  int fd = tcp_connect(ip, atoi(o->pos[1]), g_timeout, &w.err);
  int statuses[16], ns = 0;
  http_resp r = {0};
  if (fd >= 0) {
    w.connected = true;
    w.t_connect = now_ms();
    int nreq = o->nmulti ? o->nmulti : 1;
    for (int i = 0; i < nreq; i++) {
      const char *host = o->nmulti ? o->multi[i] : o->pos[0];
      if (!strcmp(host, "-")) host = NULL; /* no Host header at all */
      char req[8192];
      size_t n = http_request(req, sizeof req, o, host);
      if (send_split(fd, (uint8_t *)req, n, o->split, &w) < 0) break;
      if (http_read(fd, NULL, &w, &r, plain_rd, &fd) < 0) {
        statuses[ns++] = r.status;
        break;
      }
      statuses[ns++] = r.status;
    }
    if (!w.closed) {
      /* did the proxy close after its answer? */
      struct pollfd p = {.fd = fd, .events = POLLIN};
      if (poll(&p, 1, 200) > 0) {
        uint8_t b[256];
        ssize_t k = recv(fd, b, sizeof b, MSG_DONTWAIT);
        w.closed = k == 0 ? "eof" : (k < 0 ? "reset" : "open");
        if (k > 0) note_recv(&w, b, (size_t)k);
      } else {
        w.closed = "open";
      }
    }
    close(fd);
  }
  o_wire(&w);
  o_key("statuses");
  o_raw("[");
  for (int i = 0; i < ns; i++) o_raw("%s%d", i ? "," : "", statuses[i]);
  o_raw("]");
  o_int("status", ns ? statuses[ns - 1] : 0);
  o_resp(&r);
  o_end();
  return 0;
}

/* ---- TLS through a pump: real handshakes, segmentation under our control ---- */

typedef struct pump {
  int fd;
  SSL *ssl;
  BIO *rb, *wb;
  wire *w;
  int split, records;
  bool first_flight_sent;
} pump;

/* Re-frames handshake records into records of at most n payload bytes. */
static size_t reframe(const uint8_t *in, size_t len, int n, uint8_t *outb, size_t cap) {
  size_t o = 0;
  for (size_t i = 0; i + 5 <= len;) {
    size_t rl = (size_t)(in[i + 3] << 8 | in[i + 4]);
    if (i + 5 + rl > len) break;
    for (size_t k = 0; k < rl; k += (size_t)n) {
      size_t c = rl - k < (size_t)n ? rl - k : (size_t)n;
      if (o + 5 + c > cap) return 0;
      memcpy(outb + o, in + i, 3);
      outb[o + 3] = (uint8_t)(c >> 8);
      outb[o + 4] = (uint8_t)c;
      memcpy(outb + o + 5, in + i + 5 + k, c);
      o += 5 + c;
    }
    i += 5 + rl;
  }
  return o;
}

static int pump_flush(pump *p) {
  uint8_t buf[65536], framed[131072];
  int n;
  while ((n = BIO_read(p->wb, buf, sizeof buf)) > 0) {
    const uint8_t *data = buf;
    size_t len = (size_t)n;
    int split = 0;
    if (!p->first_flight_sent) {
      if (p->records > 0) {
        size_t fl = reframe(buf, len, p->records, framed, sizeof framed);
        if (fl) {
          data = framed;
          len = fl;
        }
      }
      split = p->split;
      p->first_flight_sent = true;
    }
    if (send_split(p->fd, data, len, split, p->w) < 0) return -1;
  }
  return 0;
}

static int pump_fill(pump *p) {
  uint8_t buf[65536];
  ssize_t n = recv(p->fd, buf, sizeof buf, 0);
  if (n <= 0) {
    p->w->closed = n == 0 ? "eof" : (errno == EAGAIN ? "timeout" : "reset");
    if (n < 0 && errno != EAGAIN) p->w->err = -errno;
    p->w->t_closed = now_ms();
    return -1;
  }
  note_recv(p->w, buf, (size_t)n);
  BIO_write(p->rb, buf, (int)n);
  return 0;
}

/* Drives fn (handshake, read or write) until it completes. */
static int pump_run(pump *p, int (*fn)(SSL *, void *, int), void *buf, int len) {
  for (;;) {
    int rc = fn(p->ssl, buf, len);
    if (pump_flush(p) < 0) return -1;
    if (rc > 0) return rc;
    int e = SSL_get_error(p->ssl, rc);
    if (e == SSL_ERROR_WANT_READ) {
      if (pump_fill(p) < 0) return -1;
      continue;
    }
    if (e == SSL_ERROR_ZERO_RETURN) return 0;
    return -1;
  }
}

static int hs_fn(SSL *s, void *b, int l) {
  (void)b, (void)l;
  return SSL_do_handshake(s);
}
static int rd_fn(SSL *s, void *b, int l) {
  return SSL_read(s, b, l);
}
static int wr_fn(SSL *s, void *b, int l) {
  return SSL_write(s, b, l);
}

static int tls_rd(void *ctx, uint8_t *b, size_t n) {
  return pump_run(ctx, rd_fn, b, (int)(n > 65536 ? 65536 : n));
}

static int cmd_tls(opts *o) {
  if (o->npos < 2 || o->nmulti < 1) return -1;
  const char *sni = o->multi[0];
  char ip[16];
  wire w = {0};
  o_begin("tls");
  o_str("target", o->pos[0]);
  o_str("sni", sni);
  if (resolve(o->pos[0], ip) < 0) {
    o_str("err", "resolve failed");
    o_end();
    return 0;
  }
  o_str("ip", ip);
  SSL_CTX *ctx = SSL_CTX_new(TLS_client_method());
  if (o->ca) {
    SSL_CTX_load_verify_locations(ctx, o->ca, NULL);
    SSL_CTX_set_verify(ctx, SSL_VERIFY_PEER, NULL);
  }
  int fd = tcp_connect(ip, atoi(o->pos[1]), g_timeout, &w.err);
  bool hs = false;
  http_resp r = {0};
  int ok_requests = 0;
  bool cut = false;
  if (fd >= 0) {
    w.connected = true;
    w.t_connect = now_ms();
    pump p = {.fd = fd, .w = &w, .split = o->split, .records = o->records};
    p.ssl = SSL_new(ctx);
    p.rb = BIO_new(BIO_s_mem());
    p.wb = BIO_new(BIO_s_mem());
    SSL_set_bio(p.ssl, p.rb, p.wb);
    SSL_set_connect_state(p.ssl);
    SSL_set_tlsext_host_name(p.ssl, sni);
    if (o->ca) SSL_set1_host(p.ssl, sni);
    hs = pump_run(&p, hs_fn, NULL, 0) > 0;
    if (!hs) {
      unsigned long e = ERR_peek_last_error();
      if (e)
        o_str("ssl_err", ERR_reason_error_string(e) ? ERR_reason_error_string(e) : "?");
    }
    const char *host = sni;
    for (int i = 0; i < o->nmulti; i++)
      if (i > 0) host = o->multi[i]; /* --host after --sni: the inner Host */
    if (hs && o->hold > 0) {
      printf("{\"event\":\"established\"}\n");
      fflush(stdout);
      int64_t end = now_ms() + (int64_t)o->hold * 1000;
      while (now_ms() < end) {
        char req[1024];
        opts q = *o;
        q.path = "/";
        q.target = NULL;
        q.method = NULL;
        size_t n = http_request(req, sizeof req, &q, host);
        if (pump_run(&p, wr_fn, req, (int)n) <= 0 ||
            http_read(fd, p.ssl, &w, &r, tls_rd, &p) < 0 || r.status != 200) {
          cut = true;
          break;
        }
        ok_requests++;
        /* progress a test can wait for instead of sleeping */
        printf("{\"event\":\"ok\",\"n\":%d}\n", ok_requests);
        fflush(stdout);
        sleep_ms(o->interval);
      }
    } else if (hs && o->path) {
      char req[8192];
      size_t n = http_request(req, sizeof req, o, host);
      if (pump_run(&p, wr_fn, req, (int)n) > 0) http_read(fd, p.ssl, &w, &r, tls_rd, &p);
    }
    if (o->ca) o_bool("verified", hs && SSL_get_verify_result(p.ssl) == X509_V_OK);
    SSL_free(p.ssl);
    close(fd);
  }
  SSL_CTX_free(ctx);
  o_bool("handshake", hs);
  o_wire(&w);
  if (o->hold > 0) {
    o_bool("cut", cut);
    o_int("ok_requests", ok_requests);
  }
  o_int("status", r.status);
  o_resp(&r);
  o_end();
  return 0;
}

/* ---- hand-made ClientHellos ------------------------------------------------------ */

typedef struct hb {
  uint8_t *p;
  size_t n, cap;
} hb;

static void hb_put(hb *b, const void *d, size_t n) {
  if (b->n + n > b->cap) {
    b->cap = (b->n + n) * 2;
    b->p = realloc(b->p, b->cap);
  }
  memcpy(b->p + b->n, d, n);
  b->n += n;
}
static void hb_u8(hb *b, unsigned v) {
  uint8_t x = (uint8_t)v;
  hb_put(b, &x, 1);
}
static void hb_u16(hb *b, unsigned v) {
  uint8_t x[2] = {(uint8_t)(v >> 8), (uint8_t)v};
  hb_put(b, x, 2);
}
static void hb_ext(hb *b, unsigned type, const uint8_t *d, size_t n) {
  hb_u16(b, type);
  hb_u16(b, (unsigned)n);
  hb_put(b, d, n);
}

static void sni_ext(hb *exts, const char *const *names, const size_t *lens, int n) {
  hb list = {0};
  for (int i = 0; i < n; i++) {
    hb_u8(&list, 0);
    hb_u16(&list, (unsigned)lens[i]);
    hb_put(&list, names[i], lens[i]);
  }
  hb e = {0};
  hb_u16(&e, (unsigned)list.n);
  hb_put(&e, list.p, list.n);
  hb_ext(exts, 0, e.p, e.n);
  free(list.p);
  free(e.p);
}

/* A TLS 1.3 ClientHello a real server answers (x25519 key share of random
 * bytes is a valid point), wrapped in records of at most rec bytes. */
static size_t build_hello(const opts *o, uint8_t **outp) {
  const char *names[16];
  size_t lens[16];
  uint8_t hexname[512];
  int n = 0;
  if (o->sni_hex) {
    names[n] = (const char *)hexname;
    lens[n++] = unhex(o->sni_hex, hexname, sizeof hexname);
  }
  for (int i = 0; i < o->nmulti; i++) {
    names[n] = o->multi[i];
    lens[n++] = strlen(o->multi[i]);
  }
  hb ex = {0};
  if (n > 0) {
    if (o->dup) {
      sni_ext(&ex, names, lens, 1);
      sni_ext(&ex, names + (n > 1 ? 1 : 0), lens + (n > 1 ? 1 : 0), 1);
    } else {
      sni_ext(&ex, names, lens, n);
    }
  }
  static const uint8_t groups[] = {0x00, 0x04, 0x00, 0x1d, 0x00, 0x17};
  hb_ext(&ex, 10, groups, sizeof groups);
  static const uint8_t pf[] = {0x01, 0x00};
  hb_ext(&ex, 11, pf, sizeof pf);
  static const uint8_t sigs[] = {0x00, 0x08, 0x04, 0x03, 0x08,
                                 0x04, 0x04, 0x01, 0x05, 0x03};
  hb_ext(&ex, 13, sigs, sizeof sigs);
  static const uint8_t vers[] = {0x04, 0x03, 0x04, 0x03, 0x03};
  hb_ext(&ex, 43, vers, sizeof vers);
  static const uint8_t pskm[] = {0x01, 0x01};
  hb_ext(&ex, 45, pskm, sizeof pskm);
  uint8_t ks[2 + 4 + 32] = {0x00, 0x24, 0x00, 0x1d, 0x00, 0x20};
  RAND_bytes(ks + 6, 32);
  hb_ext(&ex, 51, ks, sizeof ks);
  if (o->ech) {
    /* ECHClientHello, outer: type, HPKE suite, config id, enc, payload */
    uint8_t ech[74] = {0x00, 0x00, 0x01, 0x00, 0x01, 0x42, 0x00, 0x20};
    RAND_bytes(ech + 8, 32);
    ech[40] = 0x00;
    ech[41] = 0x20;
    RAND_bytes(ech + 42, 32);
    hb_ext(&ex, 0xfe0d, ech, sizeof ech);
  }
  if (o->pad > 0) {
    uint8_t *z = calloc(1, (size_t)o->pad);
    hb_ext(&ex, 21, z, (size_t)o->pad);
    free(z);
  }
  hb body = {0};
  hb_u16(&body, 0x0303);
  uint8_t rnd[32];
  RAND_bytes(rnd, 32);
  hb_put(&body, rnd, 32);
  hb_u8(&body, 32);
  RAND_bytes(rnd, 32);
  hb_put(&body, rnd, 32);
  static const uint8_t suites[] = {0x00, 0x06, 0x13, 0x01, 0x13, 0x02, 0xc0, 0x2b};
  hb_put(&body, suites, sizeof suites);
  hb_u8(&body, 1);
  hb_u8(&body, 0);
  hb_u16(&body, (unsigned)ex.n);
  hb_put(&body, ex.p, ex.n);
  hb msg = {0};
  hb_u8(&msg, 1);
  hb_u8(&msg, (unsigned)(body.n >> 16));
  hb_u16(&msg, (unsigned)(body.n & 0xffff));
  hb_put(&msg, body.p, body.n);
  size_t rec = o->records > 0 ? (size_t)o->records : 16384;
  if (rec > 16384) rec = 16384;
  hb wire_ = {0};
  for (size_t i = 0; i < msg.n; i += rec) {
    size_t c = msg.n - i < rec ? msg.n - i : rec;
    hb_u8(&wire_, 0x16);
    hb_u16(&wire_, 0x0301);
    hb_u16(&wire_, (unsigned)c);
    hb_put(&wire_, msg.p + i, c);
  }
  free(ex.p);
  free(body.p);
  free(msg.p);
  *outp = wire_.p;
  return wire_.n;
}

static int cmd_hello(opts *o) {
  if (o->npos < 2) return -1;
  char ip[16];
  wire w = {0};
  o_begin("hello");
  o_str("target", o->pos[0]);
  if (resolve(o->pos[0], ip) < 0) {
    o_str("err", "resolve failed");
    o_end();
    return 0;
  }
  o_str("ip", ip);
  uint8_t *hello;
  size_t len = build_hello(o, &hello);
  o_int("hello_len", (long long)len);
  int fd = tcp_connect(ip, atoi(o->pos[1]), g_timeout, &w.err);
  if (fd >= 0) {
    w.connected = true;
    w.t_connect = now_ms();
    size_t send_len =
        o->stall_after > 0 && (size_t)o->stall_after < len ? (size_t)o->stall_after : len;
    if (send_split(fd, hello, send_len, o->split, &w) == 0)
      read_rest(fd, &w, NULL, 0, NULL);
    close(fd);
  }
  free(hello);
  o_wire(&w);
  /* 0x16 0x03: a ServerHello came back, i.e. a TLS server saw the hello */
  o_bool("server_hello", w.nfirst >= 2 && w.first[0] == 0x16 && w.first[1] == 0x03);
  o_end();
  return 0;
}

/* ---- UDP, ICMP, raw IP, L2 ----------------------------------------------------------
 */

static int cmd_udp(opts *o) {
  if (o->npos < 2) return -1;
  char ip[16];
  o_begin("udp");
  if (resolve(o->pos[0], ip) < 0) {
    o_str("err", "resolve failed");
    o_end();
    return 0;
  }
  o_str("ip", ip);
  int fd = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
  struct sockaddr_in sa = {.sin_family = AF_INET,
                           .sin_port = htons((uint16_t)atoi(o->pos[1]))};
  inet_pton(AF_INET, ip, &sa.sin_addr);
  set_timeouts(fd, g_timeout);
  uint8_t q[1200];
  size_t len;
  if (o->send) {
    len = strlen(o->send) < sizeof q ? strlen(o->send) : sizeof q;
    memcpy(q, o->send, len);
  } else {
    /* looks like a QUIC Initial: long header, version 1 */
    memset(q, 0, sizeof q);
    q[0] = 0xc3;
    q[4] = 1;
    len = sizeof q;
  }
  int sent = 0, replies = 0;
  for (int i = 0; i < 3; i++)
    if (sendto(fd, q, len, 0, (struct sockaddr *)&sa, sizeof sa) > 0) sent++;
  uint8_t b[2048];
  while (recv(fd, b, sizeof b, 0) > 0) replies++;
  close(fd);
  o_int("sent", sent);
  o_int("replies", replies);
  o_end();
  return 0;
}

static uint16_t csum(const void *d, size_t n) {
  const uint8_t *p = d;
  uint32_t s = 0;
  for (size_t i = 0; i + 1 < n; i += 2) s += (uint32_t)(p[i] << 8 | p[i + 1]);
  if (n & 1) s += (uint32_t)(p[n - 1] << 8);
  while (s >> 16) s = (s & 0xffff) + (s >> 16);
  return htons((uint16_t)~s);
}

static int cmd_icmp(opts *o) {
  if (o->npos < 1) return -1;
  o_begin("icmp");
  o_str("ip", o->pos[0]);
  int fd = socket(AF_INET, SOCK_RAW | SOCK_CLOEXEC, IPPROTO_ICMP);
  if (fd < 0) {
    o_str("err", strerror(errno));
    o_end();
    return 0;
  }
  set_timeouts(fd, g_timeout);
  struct sockaddr_in sa = {.sin_family = AF_INET};
  inet_pton(AF_INET, o->pos[0], &sa.sin_addr);
  int sent = 0, replies = 0;
  for (int i = 0; i < 3; i++) {
    uint8_t pkt[64] = {0};
    struct icmphdr *h = (struct icmphdr *)pkt;
    h->type = ICMP_ECHO;
    h->un.echo.id = htons(0x4867);
    h->un.echo.sequence = htons((uint16_t)i);
    memcpy(pkt + 8, "tunnel-payload-tunnel-payload", 29);
    h->checksum = csum(pkt, sizeof pkt);
    if (sendto(fd, pkt, sizeof pkt, 0, (struct sockaddr *)&sa, sizeof sa) > 0) sent++;
  }
  uint8_t b[2048];
  ssize_t n;
  while ((n = recv(fd, b, sizeof b, 0)) > 0) {
    struct iphdr *ip = (struct iphdr *)b;
    if ((size_t)n >= ip->ihl * 4u + 8 && ip->saddr == sa.sin_addr.s_addr &&
        b[ip->ihl * 4] == ICMP_ECHOREPLY)
      replies++;
  }
  close(fd);
  o_int("sent", sent);
  o_int("replies", replies);
  o_end();
  return 0;
}

/* An IPv4 packet (header + l4) from src to dst. */
static size_t ip_packet(uint8_t *pkt, const char *src, const char *dst, int proto,
                        int dport, uint16_t frag_off, const uint8_t *l4, size_t l4len,
                        uint16_t id) {
  struct iphdr *ip = (struct iphdr *)pkt;
  memset(ip, 0, sizeof *ip);
  ip->version = 4;
  ip->ihl = 5;
  ip->ttl = 64;
  ip->protocol = (uint8_t)proto;
  ip->id = htons(id);
  ip->frag_off = htons(frag_off);
  inet_pton(AF_INET, src, &ip->saddr);
  inet_pton(AF_INET, dst, &ip->daddr);
  memcpy(pkt + 20, l4, l4len);
  ip->tot_len = htons((uint16_t)(20 + l4len));
  ip->check = csum(pkt, 20);
  (void)dport;
  return 20 + l4len;
}

static size_t l4_segment(uint8_t *l4, int proto, const char *src, const char *dst,
                         int dport, const uint8_t *payload, size_t plen) {
  size_t n = 0;
  if (proto == IPPROTO_TCP) {
    struct tcphdr *t = (struct tcphdr *)l4;
    memset(t, 0, sizeof *t);
    t->source = htons(40000);
    t->dest = htons((uint16_t)dport);
    t->seq = htonl(12345);
    t->doff = 5;
    t->syn = 1;
    t->window = htons(65535);
    memcpy(l4 + 20, payload, plen);
    n = 20 + plen;
  } else if (proto == IPPROTO_UDP) {
    struct udphdr *u = (struct udphdr *)l4;
    u->source = htons(40000);
    u->dest = htons((uint16_t)dport);
    u->len = htons((uint16_t)(8 + plen));
    u->check = 0;
    memcpy(l4 + 8, payload, plen);
    n = 8 + plen;
  } else { /* GRE: 4-byte header carrying IPv4 */
    l4[0] = l4[1] = 0;
    l4[2] = 0x08;
    l4[3] = 0x00;
    memcpy(l4 + 4, payload, plen);
    n = 4 + plen;
  }
  if (proto == IPPROTO_TCP || proto == IPPROTO_UDP) {
    uint8_t ph[12 + 1600];
    inet_pton(AF_INET, src, ph);
    inet_pton(AF_INET, dst, ph + 4);
    ph[8] = 0;
    ph[9] = (uint8_t)proto;
    ph[10] = (uint8_t)(n >> 8);
    ph[11] = (uint8_t)n;
    memcpy(ph + 12, l4, n);
    uint16_t c = csum(ph, 12 + n);
    if (proto == IPPROTO_TCP)
      ((struct tcphdr *)l4)->check = c;
    else
      ((struct udphdr *)l4)->check = c;
  }
  return n;
}

static int cmd_raw(opts *o) {
  if (o->npos < 1 || !o->proto) return -1;
  const char *dst = o->pos[0], *src = o->src ? o->src : GUEST_IP;
  int proto = !strcmp(o->proto, "tcp")   ? IPPROTO_TCP
              : !strcmp(o->proto, "udp") ? IPPROTO_UDP
                                         : 47;
  int dport = o->dport ? o->dport : 80;
  o_begin("raw");
  o_str("dst", dst);
  o_str("src", src);
  o_str("proto", o->proto);
  int fd = socket(AF_INET, SOCK_RAW | SOCK_CLOEXEC, IPPROTO_RAW);
  if (fd < 0) {
    o_str("err", strerror(errno));
    o_end();
    return 0;
  }
  struct sockaddr_in sa = {.sin_family = AF_INET};
  inet_pton(AF_INET, dst, &sa.sin_addr);
  static const uint8_t payload[] = "raw-payload-raw-payload-raw-payload-raw-payload!";
  uint8_t l4[1600], pkt[1700];
  size_t l4len = l4_segment(l4, proto, src, dst, dport, payload, sizeof payload - 1);
  int sent = 0;
  size_t bytes = 0;
  for (int i = 0; i < 3; i++) {
    uint16_t id = (uint16_t)(0x4800 + i);
    if (o->frag) {
      /* two fragments: 8 bytes (offset 0, MF), then the rest */
      size_t a = ip_packet(pkt, src, dst, proto, dport, 0x2000, l4, 8, id);
      if (sendto(fd, pkt, a, 0, (struct sockaddr *)&sa, sizeof sa) > 0)
        sent++, bytes += a;
      size_t b = ip_packet(pkt, src, dst, proto, dport, 1, l4 + 8, l4len - 8, id);
      if (sendto(fd, pkt, b, 0, (struct sockaddr *)&sa, sizeof sa) > 0)
        sent++, bytes += b;
    } else {
      size_t a = ip_packet(pkt, src, dst, proto, dport, 0, l4, l4len, id);
      if (sendto(fd, pkt, a, 0, (struct sockaddr *)&sa, sizeof sa) > 0)
        sent++, bytes += a;
    }
  }
  close(fd);
  o_int("sent", sent);
  o_int("bytes", (long long)bytes);
  o_end();
  return 0;
}

static int mac_parse(const char *s, uint8_t m[6]) {
  unsigned v[6];
  if (sscanf(s, "%x:%x:%x:%x:%x:%x", &v[0], &v[1], &v[2], &v[3], &v[4], &v[5]) != 6)
    return -1;
  for (int i = 0; i < 6; i++) m[i] = (uint8_t)v[i];
  return 0;
}

static int eth0_mac(int fd, uint8_t m[6], int *ifindex) {
  struct ifreq ifr;
  memset(&ifr, 0, sizeof ifr);
  snprintf(ifr.ifr_name, sizeof ifr.ifr_name, "eth0");
  if (ioctl(fd, SIOCGIFHWADDR, &ifr) < 0) return -1;
  memcpy(m, ifr.ifr_hwaddr.sa_data, 6);
  *ifindex = (int)if_nametoindex("eth0");
  return 0;
}

/* A DNS query for allowed.test from src-ip:port in a frame from src-mac,
 * handed to eth0 directly; a UDP socket on that port waits for the gateway's
 * answer, which comes only if the tap let the frame in. */
/* An IPv6 UDP datagram (fe80::5054:ff:fe12:3456 -> ff02::1, port 53) in a
 * frame to the gateway's MAC: whether or not the guest kernel speaks IPv6,
 * a guest can always write one. */
static int l2_v6(int raw, const uint8_t mac[6], int ifindex) {
  uint8_t f[14 + 40 + 8 + 16] = {0};
  memcpy(f, GW_MAC, 6);
  memcpy(f + 6, mac, 6);
  f[12] = 0x86, f[13] = 0xdd;
  uint8_t *ip6 = f + 14;
  ip6[0] = 0x60;
  ip6[5] = 8 + 16; /* payload length */
  ip6[6] = IPPROTO_UDP;
  ip6[7] = 64;
  inet_pton(AF_INET6, "fe80::5054:ff:fe12:3456", ip6 + 8);
  inet_pton(AF_INET6, "ff02::1", ip6 + 24);
  uint8_t *u = ip6 + 40;
  u[0] = 0x9c, u[1] = 0x40, u[2] = 0, u[3] = 53, u[5] = 8 + 16;
  memcpy(u + 8, "ipv6-probe-bytes", 16);
  struct sockaddr_ll sll = {
      .sll_family = AF_PACKET, .sll_ifindex = ifindex, .sll_halen = 6};
  memcpy(sll.sll_addr, GW_MAC, 6);
  int sent = 0;
  for (int i = 0; i < 3; i++)
    if (sendto(raw, f, sizeof f, 0, (struct sockaddr *)&sll, sizeof sll) > 0) sent++;
  return sent;
}

static int cmd_l2(opts *o) {
  o_begin("l2");
  int pf = socket(AF_PACKET, SOCK_DGRAM | SOCK_CLOEXEC, htons(ETH_P_IP));
  int us = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
  uint8_t mac[6];
  int ifindex = 0;
  if (pf < 0 || us < 0 || eth0_mac(pf, mac, &ifindex) < 0) {
    o_str("err", strerror(errno));
    o_end();
    return 0;
  }
  if (o->src_mac && mac_parse(o->src_mac, mac) < 0) return -1;
  const char *src = o->src ? o->src : GUEST_IP;
  struct sockaddr_in me = {.sin_family = AF_INET};
  bind(us, (struct sockaddr *)&me, sizeof me);
  socklen_t ml = sizeof me;
  getsockname(us, (struct sockaddr *)&me, &ml);
  set_timeouts(us, g_timeout);
  uint8_t q[512], l4[600], pkt[700];
  size_t ql = dns_build(q, sizeof q, 0x1234, "allowed.test", 1);
  size_t l4len = l4_segment(l4, IPPROTO_UDP, src, GW_IP, 53, q, ql);
  ((struct udphdr *)l4)->source = me.sin_port;
  ((struct udphdr *)l4)->check = 0; /* optional in IPv4; the port changed */
  size_t n = ip_packet(pkt, src, GW_IP, IPPROTO_UDP, 53, 0, l4, l4len, 0x4242);
  /* The source MAC of a SOCK_DGRAM packet socket is the device's: for a
   * spoofed one write the whole frame. */
  int raw = socket(AF_PACKET, SOCK_RAW | SOCK_CLOEXEC, htons(ETH_P_IP));
  if (o->v6) {
    o_bool("v6", true);
    o_int("sent", l2_v6(raw, mac, ifindex));
    close(raw);
    close(pf);
    close(us);
    o_end();
    return 0;
  }
  uint8_t frame[800];
  memcpy(frame, GW_MAC, 6);
  memcpy(frame + 6, mac, 6);
  frame[12] = 0x08;
  frame[13] = 0x00;
  memcpy(frame + 14, pkt, n);
  struct sockaddr_ll sll = {
      .sll_family = AF_PACKET, .sll_ifindex = ifindex, .sll_halen = 6};
  memcpy(sll.sll_addr, GW_MAC, 6);
  int sent = 0;
  for (int i = 0; i < 3; i++)
    if (sendto(raw, frame, 14 + n, 0, (struct sockaddr *)&sll, sizeof sll) > 0) sent++;
  uint8_t b[1500];
  int replies = 0;
  while (recv(us, b, sizeof b, 0) > 0) replies++;
  o_hex("src_mac", mac, 6);
  o_str("src_ip", src);
  o_int("sent", sent);
  o_int("replies", replies);
  close(raw);
  close(pf);
  close(us);
  o_end();
  return 0;
}

static int cmd_garp(opts *o) {
  if (o->npos < 1) return -1;
  o_begin("garp");
  int raw = socket(AF_PACKET, SOCK_RAW | SOCK_CLOEXEC, htons(ETH_P_ARP));
  uint8_t mac[6];
  int ifindex = 0;
  if (raw < 0 || eth0_mac(raw, mac, &ifindex) < 0) {
    o_str("err", strerror(errno));
    o_end();
    return 0;
  }
  if (o->src_mac && mac_parse(o->src_mac, mac) < 0) return -1;
  uint8_t f[42];
  memset(f, 0xff, 6);
  memcpy(f + 6, mac, 6);
  f[12] = 0x08, f[13] = 0x06;
  uint8_t *a = f + 14;
  a[0] = 0, a[1] = 1, a[2] = 0x08, a[3] = 0, a[4] = 6, a[5] = 4, a[6] = 0,
  a[7] = 2; /* reply */
  memcpy(a + 8, mac, 6);
  inet_pton(AF_INET, o->pos[0], a + 14);
  memset(a + 18, 0xff, 6);
  inet_pton(AF_INET, o->pos[0], a + 24);
  struct sockaddr_ll sll = {
      .sll_family = AF_PACKET, .sll_ifindex = ifindex, .sll_halen = 6};
  memset(sll.sll_addr, 0xff, 6);
  int sent = 0;
  for (int i = 0; i < 3; i++)
    if (sendto(raw, f, sizeof f, 0, (struct sockaddr *)&sll, sizeof sll) > 0) sent++;
  close(raw);
  o_str("claims", o->pos[0]);
  o_int("sent", sent);
  o_end();
  return 0;
}

static int cmd_v6(opts *o, bool udp) {
  if (o->npos < 2) return -1;
  o_begin(udp ? "udp6" : "tcp6");
  o_str("addr", o->pos[0]);
  struct sockaddr_in6 sa = {.sin6_family = AF_INET6,
                            .sin6_port = htons((uint16_t)atoi(o->pos[1]))};
  char addr[128];
  snprintf(addr, sizeof addr, "%s", o->pos[0]);
  char *pct = strchr(addr, '%');
  if (pct) {
    *pct = '\0';
    sa.sin6_scope_id = if_nametoindex(pct + 1);
  }
  wire w = {0};
  if (inet_pton(AF_INET6, addr, &sa.sin6_addr) != 1) return -1;
  int fd = socket(AF_INET6, (udp ? SOCK_DGRAM : SOCK_STREAM) | SOCK_CLOEXEC, 0);
  if (fd < 0) {
    o_str("err", strerror(errno));
    o_end();
    return 0;
  }
  set_timeouts(fd, g_timeout);
  if (udp) {
    int replies = 0;
    if (sendto(fd, "hello6", 6, 0, (struct sockaddr *)&sa, sizeof sa) < 0)
      w.err = -errno;
    else
      w.sent = 6;
    uint8_t b[512];
    while (recv(fd, b, sizeof b, 0) > 0) replies++;
    o_int("replies", replies);
  } else {
    fcntl(fd, F_SETFL, O_NONBLOCK);
    int rc = connect(fd, (struct sockaddr *)&sa, sizeof sa);
    if (rc < 0 && errno == EINPROGRESS) {
      struct pollfd p = {.fd = fd, .events = POLLOUT};
      if (poll(&p, 1, g_timeout) == 0) {
        errno = ETIMEDOUT;
      } else {
        int e = 0;
        socklen_t l = sizeof e;
        getsockopt(fd, SOL_SOCKET, SO_ERROR, &e, &l);
        errno = e;
        rc = e ? -1 : 0;
      }
    }
    w.connected = rc == 0;
    if (rc < 0) w.err = -errno;
  }
  close(fd);
  o_wire(&w);
  o_end();
  return 0;
}

int main(int argc, char **argv) {
  if (argc < 2) goto usage;
  opts o;
  if (parse(argc - 2, argv + 2, &o) < 0) goto usage;
  const char *c = argv[1];
  int rc = -1;
  if (!strcmp(c, "dns"))
    rc = cmd_dns(&o);
  else if (!strcmp(c, "dns-flood"))
    rc = cmd_dns_flood(&o);
  else if (!strcmp(c, "tcp"))
    rc = cmd_tcp(&o);
  else if (!strcmp(c, "http"))
    rc = cmd_http(&o);
  else if (!strcmp(c, "tls"))
    rc = cmd_tls(&o);
  else if (!strcmp(c, "hello"))
    rc = cmd_hello(&o);
  else if (!strcmp(c, "udp"))
    rc = cmd_udp(&o);
  else if (!strcmp(c, "icmp"))
    rc = cmd_icmp(&o);
  else if (!strcmp(c, "raw"))
    rc = cmd_raw(&o);
  else if (!strcmp(c, "l2"))
    rc = cmd_l2(&o);
  else if (!strcmp(c, "garp"))
    rc = cmd_garp(&o);
  else if (!strcmp(c, "tcp6"))
    rc = cmd_v6(&o, false);
  else if (!strcmp(c, "udp6"))
    rc = cmd_v6(&o, true);
  if (rc == 0) return 0;
usage:
  fprintf(stderr,
          "usage: egress_probe dns|dns-flood|tcp|http|tls|hello|udp|icmp|raw|l2|garp|"
          "tcp6|udp6 ... (see the source)\n");
  return 2;
}
