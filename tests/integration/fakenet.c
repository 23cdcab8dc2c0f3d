#include "tests/integration/fakenet.h"

#include <arpa/inet.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <linux/filter.h>
#include <linux/if_ether.h>
#include <linux/if_packet.h>
#include <linux/netfilter_ipv4.h>
#include <net/if.h>
#include <netinet/in.h>
#include <netinet/ip.h>
#include <netinet/tcp.h>
#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/pem.h>
#include <openssl/ssl.h>
#include <openssl/x509v3.h>
#include <poll.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#define FN_HEAD_MAX (64 * 1024)
#define FN_CONN_TIMEOUT_S 30
#define FN_MAX_LISTEN 32
#define FN_SINK_PORT 9

static const char *const SINKS[] = {FAKENET_SINK_A, FAKENET_SINK_B, FAKENET_SINK_PRIVATE,
                                    FAKENET_SINK_LINKLOCAL};
#define NSINKS (sizeof SINKS / sizeof SINKS[0])

/* Addresses on the namespace's lo (routed to it by the host). */
static const char *const SERVICE_IPS[] = {FAKENET_DNS, FAKENET_WEB, FAKENET_CDN,
                                          FAKENET_RELAY};
static const char *const HOST_ROUTES[] = {"198.51.100.0/24", "203.0.113.0/24",
                                          FAKENET_SINK_PRIVATE "/32",
                                          FAKENET_SINK_LINKLOCAL "/32"};
#define NROUTES (sizeof HOST_ROUTES / sizeof HOST_ROUTES[0])

typedef struct zone_rr {
  const char *name;
  const char *ip;  /* first answer */
  const char *ip2; /* later answers (rebinding), or NULL */
  uint32_t ttl;
  unsigned hits;
} zone_rr;

typedef enum lkind {
  L_HTTP,
  L_TLS,
  L_ECHO,
  L_SINK_TCP,
  L_DNS_TCP,
  L_DNS_UDP,
  L_SINK_UDP,
  L_CAP
} lkind;

typedef struct listener {
  int fd;
  lkind kind;
  char ip[16];
  uint16_t port;
} listener;

typedef struct conn {
  fakenet *fn;
  int fd;
  lkind kind;
  char ip[16];
  uint16_t port;
  SSL *ssl;
  int64_t start_ms;
  char sni[256];
  pthread_t th;
  bool done;
  struct conn *next;
} conn;

struct fakenet {
  fakenet_config cfg;
  char ns[32], veth_h[IFNAMSIZ], veth_i[IFNAMSIZ];
  char ip_h[20], ip_i[20];
  char dir[64], ca_file[96];
  int nsfd;
  bool ns_made, veth_made;
  bool routes_made[NROUTES];
  int64_t t0;
  SSL_CTX *tls;
  listener ls[FN_MAX_LISTEN];
  int nls;
  pthread_t poller;
  bool poller_on;
  atomic_bool stop;
  pthread_mutex_t mu;
  conn *conns;
  fakenet_event *ev;
  size_t nev, cap;
  zone_rr zone[20];
  size_t nzone;
  _Atomic uint64_t sink_bytes, sink_packets, sink_payload;
};

static int64_t now_ms(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

/* ---- shell plumbing (ip, nft) -------------------------------------------- */

static int sh(bool quiet, const char *fmt, ...) {
  char cmd[1024];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(cmd, sizeof cmd, fmt, ap);
  va_end(ap);
  char full[1100];
  snprintf(full, sizeof full, "%s%s", cmd, quiet ? " >/dev/null 2>&1" : "");
  int st = system(full);
  if (st != 0 && !quiet) fprintf(stderr, "fakenet: `%s` failed (%d)\n", cmd, st);
  return st == 0 ? 0 : -EIO;
}

/* Removes what a run that died without fakenet_stop left: its namespace
 * and veth (the host routes went with the veth). */
static void remove_stale(void) {
  DIR *d = opendir("/run/netns");
  if (!d) return;
  struct dirent *e;
  while ((e = readdir(d))) {
    int pid;
    if (sscanf(e->d_name, "hgt-inet-%d", &pid) != 1 || pid <= 0) continue;
    if (kill(pid, 0) == 0 || errno != ESRCH) continue;
    fprintf(stderr, "fakenet: removing %s left by a dead run\n", e->d_name);
    sh(true, "ip link del hgt%dh", pid);
    sh(true, "ip netns del %s", e->d_name);
  }
  closedir(d);
}

/* ---- sockets inside the namespace ------------------------------------------ */

typedef struct ns_sock_req {
  fakenet *fn;
  int domain, type, proto;
  const char *ip;
  uint16_t port;
  bool listen, transparent;
  const char *ifname; /* AF_PACKET: bind to this device */
  int fd, err;
} ns_sock_req;

static void *ns_sock_thread(void *arg) {
  ns_sock_req *r = arg;
  r->fd = -1;
  if (setns(r->fn->nsfd, CLONE_NEWNET) < 0) {
    r->err = -errno;
    return NULL;
  }
  int fd = socket(r->domain, r->type | SOCK_CLOEXEC, r->proto);
  if (fd < 0) {
    r->err = -errno;
    return NULL;
  }
  int one = 1;
  if (r->domain == AF_PACKET) {
    struct sockaddr_ll sll = {.sll_family = AF_PACKET, .sll_protocol = htons(ETH_P_IP)};
    sll.sll_ifindex = (int)if_nametoindex(r->ifname);
    setsockopt(fd, SOL_PACKET, PACKET_IGNORE_OUTGOING, &one, sizeof one);
    /* Only packets addressed to a sink wake the poller: a bench's gigabyte
     * of ACKs must not cost a context switch each. */
    struct sock_filter prog[2 + 2 * NSINKS];
    size_t n = 0;
    prog[n++] = (struct sock_filter)BPF_STMT(BPF_LD | BPF_W | BPF_ABS, 16); /* ip daddr */
    for (size_t i = 0; i < NSINKS; i++) {
      struct in_addr a;
      inet_pton(AF_INET, SINKS[i], &a);
      prog[n++] = (struct sock_filter)BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, ntohl(a.s_addr),
                                               (uint8_t)(NSINKS - i), 0);
    }
    prog[n++] = (struct sock_filter)BPF_STMT(BPF_RET | BPF_K, 0);
    prog[n++] = (struct sock_filter)BPF_STMT(BPF_RET | BPF_K, 0xffff);
    struct sock_fprog fp = {.len = (unsigned short)n, .filter = prog};
    if (setsockopt(fd, SOL_SOCKET, SO_ATTACH_FILTER, &fp, sizeof fp) < 0) goto fail;
    if (sll.sll_ifindex == 0 || bind(fd, (struct sockaddr *)&sll, sizeof sll) < 0)
      goto fail;
  } else {
    setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
    struct sockaddr_in sa = {.sin_family = AF_INET, .sin_port = htons(r->port)};
    inet_pton(AF_INET, r->ip, &sa.sin_addr);
    if (bind(fd, (struct sockaddr *)&sa, sizeof sa) < 0) goto fail;
    if (r->listen && listen(fd, 128) < 0) goto fail;
  }
  r->fd = fd;
  return NULL;
fail:
  r->err = -errno;
  close(fd);
  return NULL;
}

static int ns_socket(fakenet *fn, ns_sock_req *r) {
  pthread_t th;
  r->fn = fn;
  r->err = 0;
  if (pthread_create(&th, NULL, ns_sock_thread, r) != 0) return -EAGAIN;
  pthread_join(th, NULL);
  return r->fd >= 0 ? 0 : (r->err ? r->err : -EIO);
}

static int add_listener(fakenet *fn, lkind kind, const char *ip, uint16_t port) {
  if (fn->nls == FN_MAX_LISTEN) return -ENOSPC;
  bool udp = kind == L_DNS_UDP || kind == L_SINK_UDP;
  ns_sock_req r = {.domain = AF_INET,
                   .type = udp ? SOCK_DGRAM : SOCK_STREAM,
                   .ip = ip,
                   .port = port,
                   .listen = !udp};
  if (kind == L_CAP) {
    r.domain = AF_PACKET;
    r.type = SOCK_DGRAM;
    r.proto = htons(ETH_P_IP);
    r.ifname = fn->veth_i;
  }
  int rc = ns_socket(fn, &r);
  if (rc < 0) {
    fprintf(stderr, "fakenet: socket for %s:%u: %s\n", ip, port, strerror(-rc));
    return rc;
  }
  listener *l = &fn->ls[fn->nls++];
  l->fd = r.fd;
  l->kind = kind;
  l->port = port;
  snprintf(l->ip, sizeof l->ip, "%s", ip);
  return 0;
}

/* ---- events ------------------------------------------------------------------ */

static void ev_add(fakenet *fn, const fakenet_event *e) {
  pthread_mutex_lock(&fn->mu);
  if (fn->nev == fn->cfg.max_events) {
    pthread_mutex_unlock(&fn->mu);
    return;
  }
  if (fn->nev == fn->cap) {
    size_t cap = fn->cap ? fn->cap * 2 : 256;
    fakenet_event *p = realloc(fn->ev, cap * sizeof *p);
    if (!p) {
      pthread_mutex_unlock(&fn->mu);
      return;
    }
    fn->ev = p;
    fn->cap = cap;
  }
  fn->ev[fn->nev] = *e;
  fn->ev[fn->nev].ms = now_ms() - fn->t0;
  fn->nev++;
  pthread_mutex_unlock(&fn->mu);
  if (fn->cfg.verbose) {
    fprintf(stderr, "fakenet: kind=%d dst=%s:%u name=%s ok=%d bytes=%llu %s %s\n",
            e->kind, e->dst, e->port, e->name, e->ok, (unsigned long long)e->bytes,
            e->method, e->target);
  }
}

int64_t fakenet_now_ms(fakenet *fn) {
  return now_ms() - fn->t0;
}

size_t fakenet_mark(fakenet *fn) {
  pthread_mutex_lock(&fn->mu);
  size_t n = fn->nev;
  pthread_mutex_unlock(&fn->mu);
  return n;
}

bool fakenet_event_get(fakenet *fn, size_t i, fakenet_event *out) {
  pthread_mutex_lock(&fn->mu);
  bool ok = i < fn->nev;
  if (ok) *out = fn->ev[i];
  pthread_mutex_unlock(&fn->mu);
  return ok;
}

size_t fakenet_count(fakenet *fn, size_t mark, fakenet_kind kind, const char *name,
                     const char *needle) {
  size_t n = 0;
  pthread_mutex_lock(&fn->mu);
  for (size_t i = mark; i < fn->nev; i++) {
    const fakenet_event *e = &fn->ev[i];
    if (kind && e->kind != kind) continue;
    if (name && strcasecmp(e->name, name) != 0) continue;
    if (needle && !strstr(e->head, needle)) continue;
    n++;
  }
  pthread_mutex_unlock(&fn->mu);
  return n;
}

void fakenet_dump(fakenet *fn, size_t mark) {
  static const char *kinds[] = {"?", "dns", "conn", "tls", "http", "relay", "sink"};
  pthread_mutex_lock(&fn->mu);
  for (size_t i = mark; i < fn->nev; i++) {
    const fakenet_event *e = &fn->ev[i];
    fprintf(stderr,
            "  fakenet[%zu] +%lldms %s %s:%u name=%s qtype=%d ok=%d bytes=%llu %s %s\n",
            i, (long long)e->ms, kinds[e->kind <= FN_SINK ? e->kind : 0], e->dst, e->port,
            e->name, e->qtype, e->ok, (unsigned long long)e->bytes, e->method, e->target);
  }
  pthread_mutex_unlock(&fn->mu);
}

uint64_t fakenet_bytes_at_sink(fakenet *fn) {
  return atomic_load(&fn->sink_bytes);
}
uint64_t fakenet_packets_at_sink(fakenet *fn) {
  return atomic_load(&fn->sink_packets);
}
uint64_t fakenet_sink_payload(fakenet *fn) {
  return atomic_load(&fn->sink_payload);
}
const char *fakenet_ns_name(const fakenet *fn) {
  return fn->ns;
}
const char *fakenet_ca_file(const fakenet *fn) {
  return fn->ca_file;
}

/* ---- blob --------------------------------------------------------------------- */

static uint64_t splitmix64(uint64_t x) {
  x += 0x9e3779b97f4a7c15ull;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
  return x ^ (x >> 31);
}

void fakenet_blob_fill(void *buf, uint64_t offset, size_t len) {
  uint8_t *p = buf;
  size_t i = 0;
  while (i < len) {
    uint64_t at = offset + i, word = splitmix64(at >> 3);
    unsigned shift = (unsigned)(at & 7);
    /* whole words when aligned: the 1 GiB download of the bench must be cheap */
    if (shift == 0 && len - i >= 8) {
      memcpy(p + i, &word, 8);
      i += 8;
    } else {
      p[i++] = (uint8_t)(word >> (shift * 8));
    }
  }
}

/* ---- DNS ---------------------------------------------------------------------- */

static void zone_init(fakenet *fn) {
  static const zone_rr z[] = {
      {"allowed.test", FAKENET_WEB, NULL, 5, 0},
      {"cdn-a.test", FAKENET_CDN, NULL, 5, 0},
      {"cdn-b.test", FAKENET_CDN, NULL, 5, 0},
      {"up.test", FAKENET_CDN, NULL, 5, 0},
      {"relay.test", FAKENET_RELAY, NULL, 5, 0},
      {"evil.test", FAKENET_SINK_A, NULL, 5, 0},
      {"dns.google", FAKENET_SINK_A, NULL, 5, 0},
      {"meta.test", "169.254.169.254", NULL, 5, 0},
      {"linklocal.test", FAKENET_SINK_LINKLOCAL, NULL, 5, 0},
      {"private.test", FAKENET_SINK_PRIVATE, NULL, 5, 0},
      {"loopback.test", "127.0.0.1", NULL, 5, 0},
      {"zero.test", "0.0.0.0", NULL, 5, 0},
      {"cgnat.test", "100.64.0.1", NULL, 5, 0},
      {"rebind.test", FAKENET_WEB, FAKENET_SINK_A, 1, 0},
  };
  memcpy(fn->zone, z, sizeof z);
  fn->nzone = sizeof z / sizeof z[0];
}

/* Reads the question name into out (dotted, lowercase); returns the offset
 * past it or -1. No compression in questions we accept. */
static int dns_qname(const uint8_t *m, size_t len, size_t off, char *out, size_t cap) {
  size_t o = 0;
  for (int labels = 0; labels < 128; labels++) {
    if (off >= len) return -1;
    uint8_t l = m[off++];
    if (l == 0) {
      out[o] = '\0';
      return (int)off;
    }
    if (l > 63 || off + l > len || o + l + 2 > cap) return -1;
    if (o) out[o++] = '.';
    for (uint8_t i = 0; i < l; i++) {
      uint8_t c = m[off + i];
      out[o++] =
          (char)(c >= 'A' && c <= 'Z' ? c + 32 : (c >= 0x20 && c < 0x7f ? c : '?'));
    }
    off += l;
  }
  return -1;
}

static void put16(uint8_t *p, uint16_t v) {
  p[0] = (uint8_t)(v >> 8);
  p[1] = (uint8_t)v;
}

/* Builds the answer to query q into r (cap bytes); returns its length or 0
 * to stay silent. */
static size_t dns_answer(fakenet *fn, const uint8_t *q, size_t qlen, uint8_t *r,
                         size_t cap, const char *dst) {
  if (qlen < 12 || cap < 512 || (q[2] & 0x80)) return 0;
  char name[256];
  int end = dns_qname(q, qlen, 12, name, sizeof name);
  if (end < 0 || (size_t)end + 4 > qlen) return 0;
  uint16_t qtype = (uint16_t)(q[end] << 8 | q[end + 1]);
  size_t qend = (size_t)end + 4;
  fakenet_event e = {.kind = FN_DNS, .port = 53, .qtype = qtype};
  snprintf(e.dst, sizeof e.dst, "%s", dst);
  snprintf(e.name, sizeof e.name, "%s", name);
  memcpy(r, q, qend);
  r[2] = 0x84 | (q[2] & 0x01); /* QR, AA, RD copied */
  r[3] = 0;
  put16(r + 4, 1);
  put16(r + 6, 0);
  put16(r + 8, 0);
  put16(r + 10, 0);
  size_t o = qend;
  pthread_mutex_lock(&fn->mu);
  zone_rr *rr = NULL;
  for (size_t i = 0; i < fn->nzone; i++)
    if (!strcmp(fn->zone[i].name, name)) rr = &fn->zone[i];
  const char *ip = NULL;
  uint32_t ttl = 0;
  if (rr) {
    ip = rr->ip2 && rr->hits > 0 && qtype == 1 ? rr->ip2 : rr->ip;
    if (qtype == 1) rr->hits++;
    ttl = rr->ttl;
  }
  pthread_mutex_unlock(&fn->mu);
  if (!rr) {
    r[3] = 3; /* NXDOMAIN */
  } else {
    uint8_t rdata[64];
    size_t rdlen = 0;
    uint16_t type = qtype == 255 ? 1 : qtype;
    if (type == 1) {
      inet_pton(AF_INET, ip, rdata);
      rdlen = 4;
      snprintf(e.target, sizeof e.target, "%s", ip);
    } else if (type == 28) {
      inet_pton(AF_INET6, "2001:db8::10", rdata);
      rdlen = 16;
    } else if (type == 16) {
      static const char txt[] = "tunnel-data";
      rdata[0] = sizeof txt - 1;
      memcpy(rdata + 1, txt, sizeof txt - 1);
      rdlen = sizeof txt;
    }
    if (rdlen) {
      uint8_t *a = r + o;
      put16(a, 0xc00c); /* pointer to the question name */
      put16(a + 2, type);
      put16(a + 4, 1);
      a[6] = (uint8_t)(ttl >> 24);
      a[7] = (uint8_t)(ttl >> 16);
      a[8] = (uint8_t)(ttl >> 8);
      a[9] = (uint8_t)ttl;
      put16(a + 10, (uint16_t)rdlen);
      memcpy(a + 12, rdata, rdlen);
      o += 12 + rdlen;
      put16(r + 6, 1);
    }
  }
  e.ok = rr != NULL;
  ev_add(fn, &e);
  return o;
}

/* ---- TLS ----------------------------------------------------------------------- */

static X509 *make_cert(EVP_PKEY *key, const char *cn, X509 *issuer, EVP_PKEY *issuer_key,
                       const char *san, long serial) {
  X509 *x = X509_new();
  if (!x) return NULL;
  X509_set_version(x, 2);
  ASN1_INTEGER_set(X509_get_serialNumber(x), serial);
  X509_gmtime_adj(X509_getm_notBefore(x), -3600);
  X509_gmtime_adj(X509_getm_notAfter(x), 7 * 24 * 3600);
  X509_set_pubkey(x, key);
  X509_NAME *n = X509_get_subject_name(x);
  X509_NAME_add_entry_by_txt(n, "CN", MBSTRING_ASC, (const unsigned char *)cn, -1, -1, 0);
  X509_set_issuer_name(x, issuer ? X509_get_subject_name(issuer) : n);
  X509V3_CTX v3;
  X509V3_set_ctx_nodb(&v3);
  X509V3_set_ctx(&v3, issuer ? issuer : x, x, NULL, NULL, 0);
  const char *exts[][2] = {
      {"basicConstraints", issuer ? "critical,CA:FALSE" : "critical,CA:TRUE"},
      {"keyUsage", issuer ? "critical,digitalSignature" : "critical,keyCertSign,cRLSign"},
      {"subjectAltName", san},
  };
  for (size_t i = 0; i < 3; i++) {
    if (!exts[i][1]) continue;
    X509_EXTENSION *ext = X509V3_EXT_conf(NULL, &v3, exts[i][0], exts[i][1]);
    if (!ext) goto fail;
    X509_add_ext(x, ext, -1);
    X509_EXTENSION_free(ext);
  }
  if (!X509_sign(x, issuer_key ? issuer_key : key, EVP_sha256())) goto fail;
  return x;
fail:
  X509_free(x);
  return NULL;
}

static int sni_cb(SSL *ssl, int *al, void *arg) {
  conn *c = SSL_get_app_data(ssl);
  const char *name = SSL_get_servername(ssl, TLSEXT_NAMETYPE_host_name);
  if (c) snprintf(c->sni, sizeof c->sni, "%s", name ? name : "");
  return SSL_TLSEXT_ERR_OK;
}

static int tls_init(fakenet *fn) {
  EVP_PKEY *ca_key = EVP_EC_gen("P-256"), *key = EVP_EC_gen("P-256");
  X509 *ca = NULL, *leaf = NULL;
  FILE *f = NULL;
  int rc = -EIO;
  if (!ca_key || !key) goto out;
  ca = make_cert(ca_key, "hangar fakenet test CA", NULL, NULL, NULL, 1);
  leaf = make_cert(key, "allowed.test", ca, ca_key,
                   "DNS:allowed.test,DNS:cdn-a.test,DNS:cdn-b.test,DNS:up.test,"
                   "DNS:rebind.test,DNS:evil.test",
                   2);
  if (!ca || !leaf) goto out;
  f = fopen(fn->ca_file, "w");
  if (!f || !PEM_write_X509(f, ca)) goto out;
  fn->tls = SSL_CTX_new(TLS_server_method());
  if (!fn->tls || SSL_CTX_use_certificate(fn->tls, leaf) != 1 ||
      SSL_CTX_use_PrivateKey(fn->tls, key) != 1 ||
      SSL_CTX_add1_chain_cert(fn->tls, ca) != 1)
    goto out;
  SSL_CTX_set_tlsext_servername_callback(fn->tls, sni_cb);
  rc = 0;
out:
  if (f) fclose(f);
  if (rc < 0) {
    fprintf(stderr, "fakenet: TLS setup failed\n");
    ERR_print_errors_fp(stderr);
  }
  X509_free(ca);
  X509_free(leaf);
  EVP_PKEY_free(ca_key);
  EVP_PKEY_free(key);
  return rc;
}

/* ---- connections ------------------------------------------------------------------ */

static ssize_t c_read(conn *c, void *buf, size_t len) {
  if (c->ssl) {
    int n = SSL_read(c->ssl, buf, (int)(len > INT32_MAX ? INT32_MAX : len));
    return n > 0 ? n : -1;
  }
  return recv(c->fd, buf, len, 0);
}

static int c_write(conn *c, const void *buf, size_t len) {
  const uint8_t *p = buf;
  while (len) {
    ssize_t n = c->ssl ? SSL_write(c->ssl, p, (int)(len > (1u << 20) ? (1u << 20) : len))
                       : send(c->fd, p, len, MSG_NOSIGNAL);
    if (n <= 0) return -EIO;
    p += n;
    len -= (size_t)n;
  }
  return 0;
}

/* Value of header name in the head (first occurrence), into out. */
static void header_value(const char *head, const char *name, char *out, size_t cap) {
  out[0] = '\0';
  size_t nl = strlen(name);
  for (const char *l = strstr(head, "\r\n"); l; l = strstr(l + 2, "\r\n")) {
    const char *h = l + 2;
    if (strncasecmp(h, name, nl) == 0 && h[nl] == ':') {
      h += nl + 1;
      while (*h == ' ' || *h == '\t') h++;
      size_t n = strcspn(h, "\r\n");
      if (n >= cap) n = cap - 1;
      memcpy(out, h, n);
      out[n] = '\0';
      return;
    }
  }
}

static int respond(conn *c, const char *method, const char *target, const char *host,
                   bool close_) {
  char hdr[512];
  const char *conn_hdr = close_ ? "Connection: close\r\n" : "";
  unsigned long long n;
  bool zero = strncmp(target, "/zero/", 6) == 0;
  if ((zero || strncmp(target, "/blob/", 6) == 0) &&
      sscanf(target + 6, "%llu", &n) == 1) {
    int hl = snprintf(hdr, sizeof hdr,
                      "HTTP/1.1 200 OK\r\nContent-Type: application/octet-stream\r\n"
                      "Content-Length: %llu\r\n%s\r\n",
                      n, conn_hdr);
    if (c_write(c, hdr, (size_t)hl) < 0) return -EIO;
    if (!strcmp(method, "HEAD")) return 0;
    static _Thread_local uint8_t chunk[64 * 1024];
    for (uint64_t off = 0; off < n;) {
      size_t k = n - off < sizeof chunk ? (size_t)(n - off) : sizeof chunk;
      if (!zero)
        fakenet_blob_fill(chunk, off, k);
      else if (off == 0)
        memset(chunk, 0, sizeof chunk);
      if (c_write(c, chunk, k) < 0) return -EIO;
      off += k;
    }
    return 0;
  }
  if (!strcmp(target, "/redirect")) {
    int hl = snprintf(hdr, sizeof hdr,
                      "HTTP/1.1 302 Found\r\nLocation: http://169.254.169.254/latest/\r\n"
                      "Content-Length: 0\r\n%s\r\n",
                      conn_hdr);
    return c_write(c, hdr, (size_t)hl);
  }
  char body[512];
  int bl = snprintf(body, sizeof body, "hello %s from %s\n", host, c->ip);
  int hl = snprintf(
      hdr, sizeof hdr,
      "HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nContent-Length: %d\r\n%s\r\n", bl,
      conn_hdr);
  if (c_write(c, hdr, (size_t)hl) < 0) return -EIO;
  return strcmp(method, "HEAD") ? c_write(c, body, (size_t)bl) : 0;
}

/* Serves keep-alive HTTP/1.1 requests (no chunked bodies: the tests send
 * none) until the peer closes; returns the bytes read. */
static uint64_t serve_http(conn *c) {
  char *buf = malloc(FN_HEAD_MAX + 1);
  size_t have = 0;
  uint64_t total = 0;
  if (!buf) return 0;
  for (;;) {
    char *end = NULL;
    while (!(end = memmem(buf, have, "\r\n\r\n", 4))) {
      if (have == FN_HEAD_MAX) goto out;
      ssize_t n = c_read(c, buf + have, FN_HEAD_MAX - have);
      if (n <= 0) goto out;
      have += (size_t)n;
      total += (uint64_t)n;
    }
    size_t head_len = (size_t)(end - buf) + 4;
    fakenet_event e = {
        .kind = FN_HTTP, .port = c->port, .tls = c->ssl != NULL, .ok = true};
    snprintf(e.dst, sizeof e.dst, "%s", c->ip);
    size_t hl = head_len < sizeof e.head ? head_len : sizeof e.head - 1;
    memcpy(e.head, buf, hl);
    e.head[hl] = '\0';
    sscanf(e.head, "%15s %511s", e.method, e.target);
    header_value(e.head, "Host", e.name, sizeof e.name);
    char cl[32], connection[64];
    header_value(e.head, "Content-Length", cl, sizeof cl);
    header_value(e.head, "Connection", connection, sizeof connection);
    ev_add(c->fn, &e);
    /* Drop the body, then the request. */
    uint64_t body = strtoull(cl, NULL, 10);
    if (have - head_len >= body) {
      size_t drop = head_len + (size_t)body;
      memmove(buf, buf + drop, have - drop);
      have -= drop;
    } else {
      body -= have - head_len;
      have = 0;
      while (body > 0) {
        ssize_t n = c_read(c, buf, body < FN_HEAD_MAX ? (size_t)body : FN_HEAD_MAX);
        if (n <= 0) goto out;
        total += (uint64_t)n;
        body -= (uint64_t)n;
      }
    }
    bool close_ = !strcasecmp(connection, "close") || strstr(e.head, "HTTP/1.0\r\n");
    if (respond(c, e.method, e.target, e.name, close_) < 0 || close_) goto out;
  }
out:
  free(buf);
  return total;
}

static void *conn_thread(void *arg) {
  conn *c = arg;
  fakenet *fn = c->fn;
  struct timeval tv = {.tv_sec = FN_CONN_TIMEOUT_S};
  setsockopt(c->fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof tv);
  setsockopt(c->fd, SOL_SOCKET, SO_SNDTIMEO, &tv, sizeof tv);
  uint64_t bytes = 0;
  uint8_t buf[16384];
  switch (c->kind) {
    case L_HTTP:
      bytes = serve_http(c);
      break;
    case L_TLS: {
      c->ssl = SSL_new(fn->tls);
      if (!c->ssl) break;
      SSL_set_app_data(c->ssl, c);
      SSL_set_fd(c->ssl, c->fd);
      int ok = SSL_accept(c->ssl) == 1;
      fakenet_event e = {.kind = FN_TLS, .port = c->port, .tls = true, .ok = ok};
      snprintf(e.dst, sizeof e.dst, "%s", c->ip);
      snprintf(e.name, sizeof e.name, "%s", c->sni);
      ev_add(fn, &e);
      if (ok) bytes = serve_http(c);
      SSL_shutdown(c->ssl);
      SSL_free(c->ssl);
      c->ssl = NULL;
      break;
    }
    case L_ECHO:
      for (ssize_t n; (n = recv(c->fd, buf, sizeof buf, 0)) > 0;) {
        bytes += (uint64_t)n;
        if (send(c->fd, buf, (size_t)n, MSG_NOSIGNAL) != n) break;
      }
      break;
    case L_SINK_TCP: {
      struct sockaddr_in od;
      socklen_t ol = sizeof od;
      fakenet_event e = {.kind = FN_SINK, .start_ms = c->start_ms};
      if (getsockopt(c->fd, SOL_IP, SO_ORIGINAL_DST, &od, &ol) == 0) {
        inet_ntop(AF_INET, &od.sin_addr, e.dst, sizeof e.dst);
        e.port = ntohs(od.sin_port);
      }
      size_t hl = 0;
      for (ssize_t n; (n = recv(c->fd, buf, sizeof buf, 0)) > 0;) {
        bytes += (uint64_t)n;
        atomic_fetch_add(&fn->sink_payload, (uint64_t)n);
        size_t k =
            (size_t)n < sizeof e.head - 1 - hl ? (size_t)n : sizeof e.head - 1 - hl;
        memcpy(e.head + hl, buf, k);
        hl += k;
      }
      e.bytes = bytes;
      ev_add(fn, &e);
      break;
    }
    case L_DNS_TCP:
      for (;;) {
        uint8_t q[2 + 4096], r[2 + 4096];
        size_t got = 0;
        while (got < 2) {
          ssize_t n = recv(c->fd, q + got, 2 - got, 0);
          if (n <= 0) goto dns_done;
          got += (size_t)n;
        }
        size_t len = (size_t)(q[0] << 8 | q[1]);
        if (len > sizeof q - 2) goto dns_done;
        for (got = 0; got < len;) {
          ssize_t n = recv(c->fd, q + 2 + got, len - got, 0);
          if (n <= 0) goto dns_done;
          got += (size_t)n;
        }
        bytes += 2 + len;
        size_t rl = dns_answer(fn, q + 2, len, r + 2, sizeof r - 2, c->ip);
        if (!rl) goto dns_done;
        put16(r, (uint16_t)rl);
        if (send(c->fd, r, rl + 2, MSG_NOSIGNAL) < 0) goto dns_done;
      }
    dns_done:
      break;
    default:
      break;
  }
  if (c->kind != L_SINK_TCP) {
    fakenet_event e = {.kind = c->kind == L_ECHO ? FN_RELAY : FN_CONN,
                       .port = c->port,
                       .tls = c->kind == L_TLS,
                       .bytes = bytes,
                       .start_ms = c->start_ms};
    snprintf(e.dst, sizeof e.dst, "%s", c->ip);
    snprintf(e.name, sizeof e.name, "%s", c->sni);
    ev_add(fn, &e);
  }
  pthread_mutex_lock(&fn->mu);
  shutdown(c->fd, SHUT_RDWR);
  c->done = true;
  pthread_mutex_unlock(&fn->mu);
  return NULL;
}

/* Joins connection threads that have finished (and, when all, every one). */
static void reap(fakenet *fn, bool all) {
  pthread_mutex_lock(&fn->mu);
  conn **pp = &fn->conns;
  while (*pp) {
    conn *c = *pp;
    if (all && !c->done) shutdown(c->fd, SHUT_RDWR);
    if (!all && !c->done) {
      pp = &c->next;
      continue;
    }
    *pp = c->next;
    pthread_mutex_unlock(&fn->mu);
    pthread_join(c->th, NULL);
    close(c->fd);
    free(c);
    pthread_mutex_lock(&fn->mu);
  }
  pthread_mutex_unlock(&fn->mu);
}

static void on_accept(fakenet *fn, listener *l) {
  int fd = accept4(l->fd, NULL, NULL, SOCK_CLOEXEC);
  if (fd < 0) return;
  int one = 1;
  setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
  conn *c = calloc(1, sizeof *c);
  if (!c) {
    close(fd);
    return;
  }
  c->fn = fn;
  c->fd = fd;
  c->start_ms = now_ms() - fn->t0;
  c->kind = l->kind;
  c->port = l->port;
  snprintf(c->ip, sizeof c->ip, "%s", l->ip);
  if (pthread_create(&c->th, NULL, conn_thread, c) != 0) {
    close(fd);
    free(c);
    return;
  }
  pthread_mutex_lock(&fn->mu);
  c->next = fn->conns;
  fn->conns = c;
  pthread_mutex_unlock(&fn->mu);
}

static bool is_sink(uint32_t daddr_be) {
  for (size_t i = 0; i < NSINKS; i++) {
    struct in_addr a;
    inet_pton(AF_INET, SINKS[i], &a);
    if (a.s_addr == daddr_be) return true;
  }
  return false;
}

static void on_datagram(fakenet *fn, listener *l) {
  uint8_t buf[65536], r[4096];
  struct sockaddr_in from;
  socklen_t fl = sizeof from;
  ssize_t n =
      recvfrom(l->fd, buf, sizeof buf, MSG_DONTWAIT, (struct sockaddr *)&from, &fl);
  if (n <= 0) return;
  if (l->kind == L_CAP) {
    if ((size_t)n < sizeof(struct iphdr)) return;
    const struct iphdr *ip = (const struct iphdr *)buf;
    if (ip->version == 4 && is_sink(ip->daddr)) {
      atomic_fetch_add(&fn->sink_packets, 1);
      atomic_fetch_add(&fn->sink_bytes, (uint64_t)ntohs(ip->tot_len));
    }
  } else if (l->kind == L_SINK_UDP) {
    atomic_fetch_add(&fn->sink_payload, (uint64_t)n);
    fakenet_event e = {.kind = FN_SINK, .port = l->port, .bytes = (uint64_t)n};
    snprintf(e.dst, sizeof e.dst, "udp");
    size_t k = (size_t)n < sizeof e.head - 1 ? (size_t)n : sizeof e.head - 1;
    memcpy(e.head, buf, k);
    ev_add(fn, &e);
  } else {
    size_t rl = dns_answer(fn, buf, (size_t)n, r, sizeof r, l->ip);
    if (rl) sendto(l->fd, r, rl, 0, (struct sockaddr *)&from, fl);
  }
}

static void *poller_thread(void *arg) {
  fakenet *fn = arg;
  struct pollfd pfd[FN_MAX_LISTEN];
  for (int i = 0; i < fn->nls; i++)
    pfd[i] = (struct pollfd){.fd = fn->ls[i].fd, .events = POLLIN};
  while (!atomic_load(&fn->stop)) {
    int n = poll(pfd, (nfds_t)fn->nls, 100);
    if (n > 0) {
      for (int i = 0; i < fn->nls; i++) {
        if (!(pfd[i].revents & POLLIN)) continue;
        lkind k = fn->ls[i].kind;
        if (k == L_DNS_UDP || k == L_SINK_UDP || k == L_CAP)
          on_datagram(fn, &fn->ls[i]);
        else
          on_accept(fn, &fn->ls[i]);
      }
    }
    reap(fn, false);
  }
  return NULL;
}

/* ---- start / stop -------------------------------------------------------------------
 */

static int plumb(fakenet *fn) {
  if (sh(false, "ip netns add %s", fn->ns) < 0) return -EIO;
  fn->ns_made = true;
  char path[64];
  snprintf(path, sizeof path, "/run/netns/%s", fn->ns);
  fn->nsfd = open(path, O_RDONLY | O_CLOEXEC);
  if (fn->nsfd < 0) return -errno;
  if (sh(false, "ip link add %s type veth peer name %s netns %s", fn->veth_h, fn->veth_i,
         fn->ns))
    return -EIO;
  fn->veth_made = true;
  /* No IPv6 chatter (router solicitations) on either end. */
  sh(true, "sysctl -qw net.ipv6.conf.%s.disable_ipv6=1", fn->veth_h);
  sh(true, "ip netns exec %s sysctl -qw net.ipv6.conf.all.disable_ipv6=1", fn->ns);
  if (sh(false, "ip addr add %s/30 dev %s", fn->ip_h, fn->veth_h) ||
      sh(false, "ip link set %s up", fn->veth_h) ||
      sh(false, "ip -n %s link set lo up", fn->ns) ||
      sh(false, "ip -n %s addr add %s/30 dev %s", fn->ns, fn->ip_i, fn->veth_i) ||
      sh(false, "ip -n %s link set %s up", fn->ns, fn->veth_i) ||
      sh(false, "ip -n %s route add default via %s", fn->ns, fn->ip_h))
    return -EIO;
  for (size_t i = 0; i < sizeof SERVICE_IPS / sizeof SERVICE_IPS[0]; i++)
    if (sh(false, "ip -n %s addr add %s/32 dev lo", fn->ns, SERVICE_IPS[i])) return -EIO;
  for (size_t i = 0; i < NSINKS; i++)
    if (sh(false, "ip -n %s addr add %s/32 dev lo", fn->ns, SINKS[i])) return -EIO;
  for (size_t i = 0; i < NROUTES; i++) {
    if (sh(false, "ip route add %s via %s dev %s", HOST_ROUTES[i], fn->ip_i, fn->veth_h))
      return -EIO;
    fn->routes_made[i] = true;
  }
  /* Every TCP and UDP port of the sinks lands on one listener each. */
  char rules[1024];
  snprintf(rules, sizeof rules,
           "table ip fakenet {\n"
           "  chain pre { type nat hook prerouting priority -100;\n"
           "    ip daddr { %s, %s, %s, %s } meta l4proto { tcp, udp } redirect to :%d\n  "
           "}\n}\n",
           SINKS[0], SINKS[1], SINKS[2], SINKS[3], FN_SINK_PORT);
  char file[128];
  snprintf(file, sizeof file, "%s/sink.nft", fn->dir);
  FILE *f = fopen(file, "w");
  if (!f) return -errno;
  fputs(rules, f);
  fclose(f);
  return sh(false, "ip netns exec %s nft -f %s", fn->ns, file);
}

static int listen_all(fakenet *fn) {
  int rc = 0;
  rc |= add_listener(fn, L_DNS_UDP, FAKENET_DNS, 53);
  rc |= add_listener(fn, L_DNS_TCP, FAKENET_DNS, 53);
  const char *webs[] = {FAKENET_WEB, FAKENET_CDN};
  for (size_t i = 0; i < 2; i++) {
    rc |= add_listener(fn, L_HTTP, webs[i], 80);
    rc |= add_listener(fn, L_TLS, webs[i], 443);
  }
  rc |= add_listener(fn, L_ECHO, FAKENET_RELAY, FAKENET_RELAY_PORT);
  rc |= add_listener(fn, L_SINK_TCP, "0.0.0.0", FN_SINK_PORT);
  rc |= add_listener(fn, L_SINK_UDP, "0.0.0.0", FN_SINK_PORT);
  rc |= add_listener(fn, L_CAP, "cap", 0);
  return rc ? -EIO : 0;
}

int fakenet_start(const fakenet_config *cfg, fakenet **out) {
  fakenet *fn = calloc(1, sizeof *fn);
  if (!fn) return -ENOMEM;
  if (cfg) fn->cfg = *cfg;
  if (fn->cfg.max_events == 0) fn->cfg.max_events = 20000;
  fn->nsfd = -1;
  fn->t0 = now_ms();
  pthread_mutex_init(&fn->mu, NULL);
  zone_init(fn);
  int pid = getpid();
  unsigned sub = (fn->cfg.subnet ? fn->cfg.subnet : 1 + (unsigned)pid % 250) & 0xff;
  snprintf(fn->ns, sizeof fn->ns, "hgt-inet-%d", pid);
  snprintf(fn->veth_h, sizeof fn->veth_h, "hgt%dh", pid);
  snprintf(fn->veth_i, sizeof fn->veth_i, "inet0");
  snprintf(fn->ip_h, sizeof fn->ip_h, "198.18.%u.1", sub);
  snprintf(fn->ip_i, sizeof fn->ip_i, "198.18.%u.2", sub);
  snprintf(fn->dir, sizeof fn->dir, "/tmp/hgt-inet-XXXXXX");
  if (!mkdtemp(fn->dir)) {
    free(fn);
    return -errno;
  }
  snprintf(fn->ca_file, sizeof fn->ca_file, "%s/ca.pem", fn->dir);
  remove_stale();
  int rc = tls_init(fn);
  if (rc == 0) rc = plumb(fn);
  if (rc == 0) rc = listen_all(fn);
  if (rc == 0) rc = pthread_create(&fn->poller, NULL, poller_thread, fn) ? -EAGAIN : 0;
  if (rc < 0) {
    fakenet_stop(fn);
    return rc;
  }
  fn->poller_on = true;
  *out = fn;
  return 0;
}

void fakenet_stop(fakenet *fn) {
  if (!fn) return;
  atomic_store(&fn->stop, true);
  if (fn->poller_on) pthread_join(fn->poller, NULL);
  reap(fn, true);
  for (int i = 0; i < fn->nls; i++) close(fn->ls[i].fd);
  for (size_t i = 0; i < NROUTES; i++)
    if (fn->routes_made[i]) sh(true, "ip route del %s via %s", HOST_ROUTES[i], fn->ip_i);
  if (fn->veth_made) sh(true, "ip link del %s", fn->veth_h);
  if (fn->nsfd >= 0) close(fn->nsfd);
  if (fn->ns_made) sh(false, "ip netns del %s", fn->ns);
  if (fn->dir[0]) {
    char p[160];
    snprintf(p, sizeof p, "%s/ca.pem", fn->dir);
    unlink(p);
    snprintf(p, sizeof p, "%s/sink.nft", fn->dir);
    unlink(p);
    rmdir(fn->dir);
  }
  SSL_CTX_free(fn->tls);
  pthread_mutex_destroy(&fn->mu);
  free(fn->ev);
  free(fn);
}
