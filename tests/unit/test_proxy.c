/* gateway/proxy: the L7 proxy and the L4 relay, driven without a VM.
 *
 * The test stands in for gateway.c (a fake hg_gw_* with a policy, a DNS
 * answer table and an egress log) and for the kernel's redirect (the
 * orig_dst seam maps the guest socket's source port to the destination
 * it "meant"). Upstreams are real loopback servers: a sink that records
 * every byte, an echo, a bulk sender, an HTTP echo, and an HTTPS echo
 * with a certificate from a CA made here. ClientHellos are OpenSSL's.
 * Every deny checks that the sink saw no connection and no byte
 * (reference/egress.md: "pass = no byte reaches the sink server"). */
#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <pthread.h>
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include <cmocka.h>
#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/pem.h>
#include <openssl/ssl.h>
#include <openssl/x509v3.h>
#include <zlib.h>

#include "gateway/gw.h"
#include "gateway/proxy.h"
#include "node/core/util.h"

#define LO 0x7f000001u
#define IP(a, b, c, d) \
  ((uint32_t)(a) << 24 | (uint32_t)(b) << 16 | (uint32_t)(c) << 8 | (d))

static void sleep_ms(long ms) {
  struct timespec ts = {ms / 1000, (ms % 1000) * 1000000};
  while (nanosleep(&ts, &ts) < 0 && errno == EINTR) {
  }
}

/* ---- the fake gateway --------------------------------------------------------- */

#define MAX_ANS 32
#define MAX_LOG 2048

typedef struct log_rec {
  char proto[8], name[256], reason[40];
  uint32_t ip;
  uint16_t port;
  bool allowed;
  uint64_t out, in;
} log_rec;

struct hg_gw_sandbox {
  uv_loop_t loop;
  hg_policy *policy;
  struct {
    char name[256];
    uint32_t ip;
  } ans[MAX_ANS];
  size_t nans;
  hg_proxy_set *ps;
  pthread_mutex_t mu; /* the log, read by the test thread */
  log_rec log[MAX_LOG];
  size_t nlog;
};

static hg_gw_sandbox G;

uv_loop_t *hg_gw_loop(hg_gw_sandbox *sb) {
  return &sb->loop;
}
const char *hg_gw_name(hg_gw_sandbox *sb) {
  return "sb-test";
}
const hg_policy *hg_gw_policy(hg_gw_sandbox *sb) {
  return sb->policy;
}
bool hg_gw_dns_answered(hg_gw_sandbox *sb, const char *name, uint32_t ip) {
  for (size_t i = 0; i < sb->nans; i++)
    if (sb->ans[i].ip == ip && strcmp(sb->ans[i].name, name) == 0) return true;
  return false;
}
/* The built-in ranges, except loopback, where the test's upstreams live. */
bool hg_gw_addr_denied(hg_gw_sandbox *sb, uint32_t ip) {
  if ((ip >> 24) == 127) return false;
  return hg_addr_denied(NULL, ip) == 1;
}
void hg_gw_log(hg_gw_sandbox *sb, const char *proto, const char *name, uint32_t ip,
               uint16_t port, bool allowed, const char *reason, uint64_t bytes_out,
               uint64_t bytes_in) {
  pthread_mutex_lock(&sb->mu);
  if (sb->nlog < MAX_LOG) {
    log_rec *r = &sb->log[sb->nlog++];
    snprintf(r->proto, sizeof(r->proto), "%s", proto);
    snprintf(r->name, sizeof(r->name), "%s", name ? name : "");
    snprintf(r->reason, sizeof(r->reason), "%s", reason ? reason : "");
    r->ip = ip;
    r->port = port;
    r->allowed = allowed;
    r->out = bytes_out;
    r->in = bytes_in;
  }
  pthread_mutex_unlock(&sb->mu);
}
hg_proxy_set *hg_gw_proxies(hg_gw_sandbox *sb) {
  return sb->ps;
}

/* Waits for a log entry with reason (and proto, when given); copies it. */
static bool wait_log(const char *proto, const char *reason, log_rec *out) {
  for (int64_t end = hg_now_ms() + 5000; hg_now_ms() < end; sleep_ms(5)) {
    pthread_mutex_lock(&G.mu);
    for (size_t i = 0; i < G.nlog; i++) {
      if (strcmp(G.log[i].reason, reason) != 0) continue;
      if (proto && strcmp(G.log[i].proto, proto) != 0) continue;
      if (out) *out = G.log[i];
      pthread_mutex_unlock(&G.mu);
      return true;
    }
    pthread_mutex_unlock(&G.mu);
  }
  return false;
}

/* ---- the orig_dst seam: guest source port -> where it "meant" to go ----------- */

#define MAX_MAP 1024
static pthread_mutex_t map_mu = PTHREAD_MUTEX_INITIALIZER;
static struct {
  uint16_t cport, port;
  uint32_t ip;
} map[MAX_MAP];
static size_t nmap;

static int fake_orig_dst(uv_tcp_t *t, uint32_t *ip, uint16_t *port) {
  struct sockaddr_in sa;
  int len = sizeof(sa);
  if (uv_tcp_getpeername(t, (struct sockaddr *)&sa, &len) < 0) return -ENOTCONN;
  int rc = -ENOENT;
  pthread_mutex_lock(&map_mu);
  for (size_t i = 0; i < nmap; i++)
    if (map[i].cport == ntohs(sa.sin_port)) {
      *ip = map[i].ip;
      *port = map[i].port;
      rc = 0;
    }
  pthread_mutex_unlock(&map_mu);
  return rc;
}

/* ---- the loop thread ---------------------------------------------------------- */

typedef struct listener {
  uv_tcp_t tcp;
  hg_proxy_kind kind;
  uint16_t port;
} listener;

static listener L[3];
static uv_async_t wake;
static pthread_t loop_th;
static pthread_mutex_t call_mu = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t call_cv = PTHREAD_COND_INITIALIZER;
static void (*call_fn)(void *);
static void *call_arg;
static bool call_done;
static bool all_closed;

static void on_wake(uv_async_t *a) {
  pthread_mutex_lock(&call_mu);
  if (call_fn && !call_done) {
    call_fn(call_arg);
    call_done = true;
    pthread_cond_broadcast(&call_cv);
  }
  pthread_mutex_unlock(&call_mu);
}

/* Runs fn(arg) on the loop thread and waits for it. */
static void on_loop(void (*fn)(void *), void *arg) {
  pthread_mutex_lock(&call_mu);
  call_fn = fn;
  call_arg = arg;
  call_done = false;
  uv_async_send(&wake);
  while (!call_done) pthread_cond_wait(&call_cv, &call_mu);
  call_fn = NULL;
  pthread_mutex_unlock(&call_mu);
}

static void on_conn(uv_stream_t *server, int status) {
  listener *l = server->data;
  if (status == 0) hg_proxy_accept(&G, server, l->kind);
}

static void *loop_main(void *arg) {
  uv_run(&G.loop, UV_RUN_DEFAULT);
  return NULL;
}

static int gw_start(void **state) {
  memset(&G, 0, offsetof(hg_gw_sandbox, mu));
  pthread_mutex_init(&G.mu, NULL);
  G.nlog = 0;
  nmap = 0;
  all_closed = false;
  hg_proxy_test_seams.orig_dst = fake_orig_dst;
  hg_proxy_test_seams.hello_ms = HG_PROXY_HELLO_MS;
  hg_proxy_test_seams.head_ms = HG_PROXY_HEAD_MS;
  hg_proxy_test_seams.https_port = 443;
  assert_int_equal(uv_loop_init(&G.loop), 0);
  G.ps = hg_proxy_set_new();
  assert_non_null(G.ps);
  const hg_proxy_kind kinds[3] = {HG_PROXY_HTTP, HG_PROXY_TLS, HG_PROXY_RELAY};
  for (int i = 0; i < 3; i++) {
    struct sockaddr_in sa = {.sin_family = AF_INET, .sin_addr.s_addr = htonl(LO)};
    int len = sizeof(sa);
    L[i].kind = kinds[i];
    assert_int_equal(uv_tcp_init(&G.loop, &L[i].tcp), 0);
    L[i].tcp.data = &L[i];
    assert_int_equal(uv_tcp_bind(&L[i].tcp, (struct sockaddr *)&sa, 0), 0);
    assert_int_equal(uv_listen((uv_stream_t *)&L[i].tcp, 512, on_conn), 0);
    assert_int_equal(uv_tcp_getsockname(&L[i].tcp, (struct sockaddr *)&sa, &len), 0);
    L[i].port = ntohs(sa.sin_port);
  }
  assert_int_equal(uv_async_init(&G.loop, &wake, on_wake), 0);
  assert_int_equal(pthread_create(&loop_th, NULL, loop_main, NULL), 0);
  return 0;
}

static void policy_del(hg_policy *p) {
  if (!p) return;
  hg_allow_free(p->allow);
  for (size_t i = 0; i < p->ncreds; i++) hg_allow_free(p->creds[i].hosts);
  free(p);
}

static void on_all_closed(void *ud) {
  all_closed = true;
}

static void close_all_fn(void *arg) {
  hg_proxy_close_all(&G, on_all_closed, NULL);
}

static void is_closed_fn(void *arg) {
  *(bool *)arg = all_closed;
}

static void stop_fn(void *arg) {
  for (int i = 0; i < 3; i++) uv_close((uv_handle_t *)&L[i].tcp, NULL);
  uv_close((uv_handle_t *)&wake, NULL);
}

static int gw_stop(void **state) {
  on_loop(close_all_fn, NULL);
  bool closed = false;
  for (int64_t end = hg_now_ms() + 5000; !closed && hg_now_ms() < end; sleep_ms(5))
    on_loop(is_closed_fn, &closed);
  assert_true(closed);
  on_loop(stop_fn, NULL);
  pthread_join(loop_th, NULL);
  /* every handle proxy.c opened (sockets, timers, curl's polls) is closed */
  assert_int_equal(uv_loop_close(&G.loop), 0);
  hg_proxy_set_free(G.ps);
  policy_del(G.policy);
  G.policy = NULL;
  pthread_mutex_destroy(&G.mu);
  return 0;
}

/* ---- policy and DNS answers (changed on the loop thread) ---------------------- */

static hg_policy *policy_new(const char *const *allow, size_t n) {
  hg_policy *p = calloc(1, sizeof(*p));
  assert_non_null(p);
  assert_int_equal(hg_allow_parse(allow, n, &p->allow, NULL), 0);
  return p;
}

static void policy_cred(hg_policy *p, const char *host, const char *header,
                        const char *value, const char *ph, bool upgrade) {
  hg_policy_cred *c = &p->creds[p->ncreds++];
  assert_int_equal(hg_allow_parse(&host, 1, &c->hosts, NULL), 0);
  snprintf(c->header, sizeof(c->header), "%s", header);
  snprintf(c->value, sizeof(c->value), "%s", value);
  snprintf(c->placeholder, sizeof(c->placeholder), "%s", ph);
  c->upgrade = upgrade;
}

static void set_policy_fn(void *arg) {
  policy_del(G.policy);
  G.policy = arg;
}
static void set_policy(hg_policy *p) {
  on_loop(set_policy_fn, p);
}

static void recheck_fn(void *arg) {
  set_policy_fn(arg);
  hg_proxy_recheck(&G);
}

typedef struct answer_arg {
  const char *name;
  uint32_t ip;
} answer_arg;
static void answer_fn(void *arg) {
  answer_arg *a = arg;
  snprintf(G.ans[G.nans].name, sizeof(G.ans[0].name), "%s", a->name);
  G.ans[G.nans++].ip = a->ip;
}
static void answer(const char *name, uint32_t ip) {
  answer_arg a = {name, ip};
  on_loop(answer_fn, &a);
}

/* ---- upstream servers ---------------------------------------------------------- */

typedef enum srv_mode { SRV_SINK, SRV_ECHO, SRV_BIG, SRV_HTTP, SRV_HTTPS } srv_mode;

#define SRV_MAX_CONNS 32

typedef struct srv {
  srv_mode mode;
  int lfd;
  uint16_t port;
  pthread_t th;
  volatile int stop;
  SSL_CTX *ssl;
  size_t big;  /* SRV_BIG: bytes to send */
  size_t sent; /* SRV_BIG: bytes the kernel took so far */
  pthread_mutex_t mu;
  char *rec;
  size_t rec_len, rec_cap;
  int conns, done;
  int fds[SRV_MAX_CONNS];
  pthread_t ths[SRV_MAX_CONNS];
} srv;

typedef struct sconn {
  srv *s;
  int fd;
  SSL *ssl;
} sconn;

static void srv_record(srv *s, const void *p, size_t n) {
  pthread_mutex_lock(&s->mu);
  if (s->rec_len + n + 1 > s->rec_cap) {
    s->rec_cap = (s->rec_len + n + 1) * 2;
    s->rec = realloc(s->rec, s->rec_cap);
  }
  memcpy(s->rec + s->rec_len, p, n);
  s->rec_len += n;
  s->rec[s->rec_len] = '\0';
  pthread_mutex_unlock(&s->mu);
}

static size_t srv_bytes(srv *s) {
  pthread_mutex_lock(&s->mu);
  size_t n = s->rec_len;
  pthread_mutex_unlock(&s->mu);
  return n;
}

static int srv_conns(srv *s) {
  pthread_mutex_lock(&s->mu);
  int n = s->conns;
  pthread_mutex_unlock(&s->mu);
  return n;
}

/* A copy of what the server received, NUL-terminated. */
static char *srv_rec(srv *s, size_t *len) {
  pthread_mutex_lock(&s->mu);
  char *r = malloc(s->rec_len + 1);
  if (s->rec_len) memcpy(r, s->rec, s->rec_len);
  r[s->rec_len] = '\0';
  if (len) *len = s->rec_len;
  pthread_mutex_unlock(&s->mu);
  return r;
}

static ssize_t sc_read(sconn *c, void *b, size_t n) {
  if (c->ssl) {
    int r = SSL_read(c->ssl, b, (int)n);
    return r > 0 ? r : 0;
  }
  ssize_t r;
  do r = recv(c->fd, b, n, 0);
  while (r < 0 && errno == EINTR);
  return r > 0 ? r : 0;
}

static bool sc_write(sconn *c, const void *b, size_t n) {
  const char *p = b;
  while (n > 0) {
    ssize_t w = c->ssl ? SSL_write(c->ssl, p, (int)n) : send(c->fd, p, n, MSG_NOSIGNAL);
    if (w <= 0) {
      if (!c->ssl && w < 0 && errno == EINTR) continue;
      return false;
    }
    p += w;
    n -= (size_t)w;
  }
  return true;
}

static char *find_ci(const char *hay, size_t n, const char *needle) {
  size_t k = strlen(needle);
  for (size_t i = 0; i + k <= n; i++)
    if (strncasecmp(hay + i, needle, k) == 0) return (char *)hay + i;
  return NULL;
}

/* ---- what an echo does with a secret (issue 16, item 4) ---- */

/* p[0..n) gzip-compressed, malloc'd. */
static char *gzip_of(const char *p, size_t n, size_t *out_len) {
  z_stream z = {0};
  size_t cap = compressBound((uLong)n) + 64;
  char *out = malloc(cap);
  assert_int_equal(deflateInit2(&z, 6, Z_DEFLATED, 31, 8, Z_DEFAULT_STRATEGY), Z_OK);
  z.next_in = (Bytef *)p;
  z.avail_in = (uInt)n;
  z.next_out = (Bytef *)out;
  z.avail_out = (uInt)cap;
  assert_int_equal(deflate(&z, Z_FINISH), Z_STREAM_END);
  *out_len = z.total_out;
  deflateEnd(&z);
  return out;
}

/* gzip data p[0..n) inflated, NUL-terminated, malloc'd. */
static char *gunzip_of(const char *p, size_t n, size_t *out_len) {
  z_stream z = {0};
  size_t cap = 1 << 20;
  char *out = malloc(cap);
  assert_int_equal(inflateInit2(&z, 47), Z_OK);
  z.next_in = (Bytef *)p;
  z.avail_in = (uInt)n;
  z.next_out = (Bytef *)out;
  z.avail_out = (uInt)cap - 1;
  assert_int_equal(inflate(&z, Z_FINISH), Z_STREAM_END);
  *out_len = z.total_out;
  out[z.total_out] = '\0';
  inflateEnd(&z);
  return out;
}

/* p[0..n) as the inside of a JSON string, "/" written "\/" (as PHP's
 * json_encode does), into out (6n bytes); its length. */
static size_t json_escape(const char *p, size_t n, char *out) {
  size_t o = 0;
  for (size_t i = 0; i < n; i++) {
    unsigned char ch = (unsigned char)p[i];
    if (ch == '"' || ch == '\\' || ch == '/') {
      out[o++] = '\\';
      out[o++] = (char)ch;
    } else if (ch < 0x20) {
      o += (size_t)sprintf(out + o, "\\u%04x", ch);
    } else {
      out[o++] = (char)ch;
    }
  }
  return o;
}

/* p[0..n) percent-encoded (all but unreserved), into out (3n bytes). */
static size_t url_encode(const char *p, size_t n, char *out) {
  size_t o = 0;
  for (size_t i = 0; i < n; i++) {
    unsigned char ch = (unsigned char)p[i];
    if ((ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') ||
        (ch >= '0' && ch <= '9') || ch == '-' || ch == '.' || ch == '_' || ch == '~')
      out[o++] = (char)ch;
    else
      o += (size_t)sprintf(out + o, "%%%02X", ch);
  }
  return o;
}

/* The echo of the request buf[0..end) (head hl bytes) the way an API
 * that reflects it might answer, for paths /gzip (compressed when the
 * request accepts gzip), /gzip-always (compressed whatever it asked),
 * /split (chunked, 3 bytes a chunk), /json ({"echo":"<escaped>"}),
 * /form (echo=<percent-encoded>). false: not one of them. */
static bool echo_reflect(sconn *c, const char *buf, size_t hl, size_t end,
                         const char *path, bool *ok) {
  char head[256];
  int n;
  *ok = false;
  if (strncmp(path, "/gzip ", 6) == 0 || strncmp(path, "/gzip-always ", 13) == 0) {
    const char *ae = find_ci(buf, hl, "\r\naccept-encoding:");
    const char *eol = ae ? strstr(ae + 2, "\r\n") : NULL;
    bool gz = path[5] == '-' || (ae && find_ci(ae, (size_t)(eol - ae), "gzip"));
    size_t zl = end;
    char *z = gz ? gzip_of(buf, end, &zl) : NULL;
    n = snprintf(head, sizeof(head), "HTTP/1.1 200 OK\r\n%sContent-Length: %zu\r\n\r\n",
                 gz ? "Content-Encoding: gzip\r\n" : "", zl);
    *ok = sc_write(c, head, (size_t)n) && sc_write(c, gz ? z : buf, zl);
    free(z);
    return true;
  }
  if (strncmp(path, "/split ", 7) == 0) {
    const char *h = "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n";
    *ok = sc_write(c, h, strlen(h));
    for (size_t i = 0; *ok && i < end; i += 3) {
      size_t k = end - i < 3 ? end - i : 3;
      n = snprintf(head, sizeof(head), "%zx\r\n", k);
      *ok = sc_write(c, head, (size_t)n) && sc_write(c, buf + i, k) &&
            sc_write(c, "\r\n", 2);
    }
    *ok = *ok && sc_write(c, "0\r\n\r\n", 5);
    return true;
  }
  bool json = strncmp(path, "/json ", 6) == 0;
  if (!json && strncmp(path, "/form ", 6) != 0) return false;
  char *body = malloc(6 * end + 16);
  size_t bl =
      json ? 9 + json_escape(buf, end, body + 9) : 5 + url_encode(buf, end, body + 5);
  memcpy(body, json ? "{\"echo\":\"" : "echo=", json ? 9 : 5);
  if (json) {
    memcpy(body + bl, "\"}", 2);
    bl += 2;
  }
  n = snprintf(head, sizeof(head), "HTTP/1.1 200 OK\r\nContent-Length: %zu\r\n\r\n", bl);
  *ok = sc_write(c, head, (size_t)n) && sc_write(c, body, bl);
  free(body);
  return true;
}

/* HTTP/1.1 echo: every request's bytes come back as the body. Paths:
 * /redirect (302 to the metadata address), /chunked (chunked answer),
 * /close (close-delimited answer), and those of echo_reflect. */
static void http_serve(sconn *c) {
  size_t cap = 1 << 20, len = 0;
  char *buf = malloc(cap);
  for (;;) {
    char *e;
    while (!(e = memmem(buf, len, "\r\n\r\n", 4))) {
      ssize_t r = sc_read(c, buf + len, cap - len);
      if (r <= 0) goto out;
      srv_record(c->s, buf + len, (size_t)r);
      len += (size_t)r;
    }
    size_t hl = (size_t)(e + 4 - buf), end = hl;
    char *cl = find_ci(buf, hl, "\r\ncontent-length:");
    if (cl) {
      end = hl + strtoul(cl + 17, NULL, 10);
    } else if (find_ci(buf, hl, "\r\ntransfer-encoding: chunked")) {
      char *z;
      while (!(z = memmem(buf + hl, len - hl, "\r\n0\r\n\r\n", 7))) {
        ssize_t r = sc_read(c, buf + len, cap - len);
        if (r <= 0) goto out;
        srv_record(c->s, buf + len, (size_t)r);
        len += (size_t)r;
      }
      end = (size_t)(z + 7 - buf);
    }
    while (len < end) {
      ssize_t r = sc_read(c, buf + len, cap - len);
      if (r <= 0) goto out;
      srv_record(c->s, buf + len, (size_t)r);
      len += (size_t)r;
    }
    char head[512];
    const char *path = memchr(buf, ' ', end);
    bool close_after = false, reflected;
    char *upg = find_ci(buf, hl, "\r\nupgrade:");
    bool force = path && strncmp(path + 1, "/force101 ", 10) == 0;
    if (upg || force) {
      /* a server that takes any offer it gets (h2c, say), or that switches
       * unasked (/force101: to h2c); then raw echo stands in for the new
       * protocol: whatever reaches it comes back */
      char proto[128] = "h2c";
      if (upg && !force) {
        const char *v = upg + 10, *ve = strstr(v, "\r\n");
        while (*v == ' ') v++;
        snprintf(proto, sizeof(proto), "%.*s", (int)(ve - v), v);
      }
      int n = snprintf(head, sizeof(head),
                       "HTTP/1.1 101 Switching Protocols\r\nConnection: Upgrade\r\n"
                       "Upgrade: %s\r\n\r\n", proto);
      if (!sc_write(c, head, (size_t)n) || !sc_write(c, buf + end, len - end)) goto out;
      for (ssize_t r; (r = sc_read(c, buf, cap)) > 0;) {
        srv_record(c->s, buf, (size_t)r);
        if (!sc_write(c, buf, (size_t)r)) goto out;
      }
      goto out;
    }
    if (path && strncmp(path + 1, "/redirect ", 10) == 0) {
      const char *r =
          "HTTP/1.1 302 Found\r\nLocation: http://169.254.169.254/latest/meta-data/\r\n"
          "Content-Length: 5\r\n\r\nmoved";
      if (!sc_write(c, r, strlen(r))) goto out;
    } else if (path && strncmp(path + 1, "/chunked ", 9) == 0) {
      size_t half = end / 2;
      int n =
          snprintf(head, sizeof(head),
                   "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n%zx\r\n", half);
      if (!sc_write(c, head, (size_t)n) || !sc_write(c, buf, half)) goto out;
      n = snprintf(head, sizeof(head), "\r\n%zx;ext=1\r\n", end - half);
      if (!sc_write(c, head, (size_t)n) || !sc_write(c, buf + half, end - half) ||
          !sc_write(c, "\r\n0\r\n\r\n", 7))
        goto out;
    } else if (path && strncmp(path + 1, "/close ", 7) == 0) {
      const char *r = "HTTP/1.1 200 OK\r\nConnection: close\r\n\r\n";
      if (!sc_write(c, r, strlen(r)) || !sc_write(c, buf, end)) goto out;
      close_after = true;
    } else if (path && echo_reflect(c, buf, hl, end, path + 1, &reflected)) {
      if (!reflected) goto out;
    } else {
      int n = snprintf(head, sizeof(head),
                       "HTTP/1.1 200 OK\r\nContent-Length: %zu\r\n\r\n", end);
      if (!sc_write(c, head, (size_t)n) || !sc_write(c, buf, end)) goto out;
    }
    memmove(buf, buf + end, len - end);
    len -= end;
    if (close_after) break;
  }
out:
  free(buf);
}

static uint8_t pattern(size_t i, unsigned salt) {
  return (uint8_t)((i * salt + salt / 2) & 0xff);
}

/* Sends s->big pattern bytes while recording what arrives, then shuts
 * down its side and reads to the end. */
static void big_serve(sconn *c) {
  char rb[65536], wb[65536];
  size_t sent = 0;
  bool wr_done = false, rd_done = false;
  while (!wr_done || !rd_done) {
    struct pollfd p = {c->fd, (rd_done ? 0 : POLLIN) | (wr_done ? 0 : POLLOUT), 0};
    if (poll(&p, 1, 10000) <= 0) return;
    if (!rd_done && (p.revents & (POLLIN | POLLHUP | POLLERR))) {
      ssize_t r = recv(c->fd, rb, sizeof(rb), MSG_DONTWAIT);
      if (r < 0 && errno != EAGAIN) return;
      if (r == 0) rd_done = true;
      if (r > 0) srv_record(c->s, rb, (size_t)r);
    }
    if (!wr_done && (p.revents & POLLOUT)) {
      size_t n = c->s->big - sent < sizeof(wb) ? c->s->big - sent : sizeof(wb);
      for (size_t i = 0; i < n; i++) wb[i] = (char)pattern(sent + i, 7);
      ssize_t w = send(c->fd, wb, n, MSG_DONTWAIT | MSG_NOSIGNAL);
      if (w < 0 && errno != EAGAIN) return;
      if (w > 0) {
        sent += (size_t)w;
        pthread_mutex_lock(&c->s->mu);
        c->s->sent = sent;
        pthread_mutex_unlock(&c->s->mu);
      }
      if (sent == c->s->big) {
        shutdown(c->fd, SHUT_WR);
        wr_done = true;
      }
    }
  }
}

static void *conn_main(void *arg) {
  sconn *c = arg;
  char b[65536];
  ssize_t r;
  if (c->s->mode == SRV_HTTPS) {
    c->ssl = SSL_new(c->s->ssl);
    SSL_set_fd(c->ssl, c->fd);
    if (SSL_accept(c->ssl) == 1) http_serve(c);
    SSL_free(c->ssl);
  } else if (c->s->mode == SRV_HTTP) {
    http_serve(c);
  } else if (c->s->mode == SRV_BIG) {
    big_serve(c);
  } else {
    while ((r = sc_read(c, b, sizeof(b))) > 0) {
      srv_record(c->s, b, (size_t)r);
      if (c->s->mode == SRV_ECHO && !sc_write(c, b, (size_t)r)) break;
    }
  }
  shutdown(c->fd, SHUT_RDWR);
  pthread_mutex_lock(&c->s->mu);
  c->s->done++;
  pthread_mutex_unlock(&c->s->mu);
  free(c);
  return NULL;
}

static void *srv_main(void *arg) {
  srv *s = arg;
  while (!s->stop) {
    struct pollfd p = {s->lfd, POLLIN, 0};
    if (poll(&p, 1, 20) <= 0) continue;
    int fd = accept4(s->lfd, NULL, NULL, SOCK_CLOEXEC);
    if (fd < 0) continue;
    pthread_mutex_lock(&s->mu);
    if (s->conns == SRV_MAX_CONNS) {
      pthread_mutex_unlock(&s->mu);
      close(fd);
      continue;
    }
    sconn *c = calloc(1, sizeof(*c));
    c->s = s;
    c->fd = fd;
    s->fds[s->conns] = fd;
    pthread_create(&s->ths[s->conns], NULL, conn_main, c);
    s->conns++;
    pthread_mutex_unlock(&s->mu);
  }
  return NULL;
}

static srv *srv_start(srv_mode mode) {
  srv *s = calloc(1, sizeof(*s));
  struct sockaddr_in sa = {.sin_family = AF_INET, .sin_addr.s_addr = htonl(LO)};
  socklen_t len = sizeof(sa);
  s->mode = mode;
  pthread_mutex_init(&s->mu, NULL);
  s->lfd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
  assert_true(s->lfd >= 0);
  assert_int_equal(bind(s->lfd, (struct sockaddr *)&sa, sizeof(sa)), 0);
  assert_int_equal(listen(s->lfd, 64), 0);
  assert_int_equal(getsockname(s->lfd, (struct sockaddr *)&sa, &len), 0);
  s->port = ntohs(sa.sin_port);
  return s;
}

static void srv_run(srv *s) {
  assert_int_equal(pthread_create(&s->th, NULL, srv_main, s), 0);
}

static void srv_stop(srv *s) {
  s->stop = 1;
  pthread_join(s->th, NULL);
  close(s->lfd);
  pthread_mutex_lock(&s->mu);
  int n = s->conns;
  for (int i = 0; i < n; i++) shutdown(s->fds[i], SHUT_RDWR);
  pthread_mutex_unlock(&s->mu);
  for (int i = 0; i < n; i++) {
    pthread_join(s->ths[i], NULL);
    close(s->fds[i]);
  }
  if (s->ssl) SSL_CTX_free(s->ssl);
  pthread_mutex_destroy(&s->mu);
  free(s->rec);
  free(s);
}

/* ---- the guest side ------------------------------------------------------------ */

static int listener_port(hg_proxy_kind k) {
  for (int i = 0; i < 3; i++)
    if (L[i].kind == k) return L[i].port;
  return 0;
}

/* A connection to the proxy's listener for kind, as if the guest had
 * dialed ip:port and the kernel had redirected it. */
static int guest_connect(hg_proxy_kind kind, uint32_t ip, uint16_t port) {
  int fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
  struct sockaddr_in sa = {.sin_family = AF_INET, .sin_addr.s_addr = htonl(LO)};
  socklen_t len = sizeof(sa);
  int one = 1;
  struct timeval tv = {10, 0};
  assert_true(fd >= 0);
  assert_int_equal(bind(fd, (struct sockaddr *)&sa, sizeof(sa)), 0);
  assert_int_equal(getsockname(fd, (struct sockaddr *)&sa, &len), 0);
  pthread_mutex_lock(&map_mu);
  assert_true(nmap < MAX_MAP);
  map[nmap].cport = ntohs(sa.sin_port);
  map[nmap].ip = ip;
  map[nmap].port = port;
  nmap++;
  pthread_mutex_unlock(&map_mu);
  sa.sin_port = htons((uint16_t)listener_port(kind));
  assert_int_equal(connect(fd, (struct sockaddr *)&sa, sizeof(sa)), 0);
  setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof(one));
  setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv));
  return fd;
}

static void send_all(int fd, const void *p, size_t n) {
  const char *b = p;
  while (n > 0) {
    ssize_t w = send(fd, b, n, MSG_NOSIGNAL);
    if (w < 0 && errno == EINTR) continue;
    if (w <= 0) return; /* a deny may reset us midway: the reads tell */
    b += w;
    n -= (size_t)w;
  }
}

static void send_str(int fd, const char *s) {
  send_all(fd, s, strlen(s));
}

/* Reads to EOF (or reset); returns the byte count, at most cap kept. */
static size_t read_to_end(int fd, char *out, size_t cap) {
  size_t n = 0;
  char tmp[65536];
  for (;;) {
    ssize_t r = recv(fd, tmp, sizeof(tmp), 0);
    if (r < 0 && errno == EINTR) continue;
    if (r <= 0) {
      if (r < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) fail_msg("read timed out");
      return n;
    }
    if (out && n + (size_t)r <= cap) memcpy(out + n, tmp, (size_t)r);
    n += (size_t)r;
  }
}

/* The connection ends (EOF or reset) without one byte for the guest. */
static void expect_closed_empty(int fd) {
  assert_int_equal(read_to_end(fd, NULL, 0), 0);
}

typedef struct rx {
  char *b;
  size_t len, cap;
} rx;

static bool rx_fill(int fd, rx *x) {
  if (x->cap - x->len < 65536) {
    x->cap = x->cap * 2 + 65536;
    x->b = realloc(x->b, x->cap);
  }
  ssize_t r;
  do r = recv(fd, x->b + x->len, x->cap - x->len - 1, 0);
  while (r < 0 && errno == EINTR);
  if (r <= 0) return false;
  x->len += (size_t)r;
  x->b[x->len] = '\0';
  return true;
}

static void rx_drop(rx *x, size_t n) {
  memmove(x->b, x->b + n, x->len - n);
  x->len -= n;
  if (x->b) x->b[x->len] = '\0';
}

typedef struct resp {
  int status;
  char *head; /* NUL-terminated */
  char *body;
  size_t body_len;
} resp;

static void resp_free(resp *r) {
  free(r->head);
  free(r->body);
  memset(r, 0, sizeof(*r));
}

/* One response (Content-Length, chunked, or to the close). 0, or -1 when
 * the connection ended first. */
static int read_response(int fd, rx *x, resp *r) {
  char *e;
  memset(r, 0, sizeof(*r));
  while (!x->b || !(e = memmem(x->b, x->len, "\r\n\r\n", 4)))
    if (!rx_fill(fd, x)) return -1;
  size_t hl = (size_t)(e + 4 - x->b);
  r->head = strndup(x->b, hl);
  r->status = atoi(r->head + 9);
  rx_drop(x, hl);
  char *cl = find_ci(r->head, hl, "\r\ncontent-length:");
  if (cl) {
    size_t n = strtoul(cl + 17, NULL, 10);
    while (x->len < n)
      if (!rx_fill(fd, x)) return -1;
    r->body = malloc(n + 1);
    memcpy(r->body, x->b, n);
    r->body[n] = '\0';
    r->body_len = n;
    rx_drop(x, n);
  } else if (find_ci(r->head, hl, "\r\ntransfer-encoding: chunked")) {
    r->body = malloc(1);
    for (;;) {
      char *le;
      while (!x->b || !(le = memmem(x->b, x->len, "\r\n", 2)))
        if (!rx_fill(fd, x)) return -1;
      size_t sz = strtoul(x->b, NULL, 16);
      rx_drop(x, (size_t)(le + 2 - x->b));
      while (x->len < sz + 2)
        if (!rx_fill(fd, x)) return -1;
      r->body = realloc(r->body, r->body_len + sz + 1);
      memcpy(r->body + r->body_len, x->b, sz);
      r->body_len += sz;
      r->body[r->body_len] = '\0';
      rx_drop(x, sz + 2);
      if (sz == 0) break;
    }
  } else {
    while (rx_fill(fd, x)) {
    }
    r->body = malloc(x->len + 1);
    memcpy(r->body, x->b ? x->b : "", x->len);
    r->body_len = x->len;
    r->body[x->len] = '\0';
    rx_drop(x, x->len);
  }
  return 0;
}

/* The guest sends req on a fresh connection and gets a 403 for reason;
 * then the connection ends. */
static void expect_http_deny(uint32_t ip, uint16_t port, const char *req,
                             const char *reason) {
  int fd = guest_connect(HG_PROXY_HTTP, ip, port);
  rx x = {0};
  resp r;
  send_all(fd, req, strlen(req));
  assert_int_equal(read_response(fd, &x, &r), 0);
  assert_int_equal(r.status, 403);
  assert_non_null(strstr(r.body, reason));
  assert_int_equal(read_to_end(fd, NULL, 0), 0);
  log_rec l;
  assert_true(wait_log("http", reason, &l));
  assert_false(l.allowed);
  resp_free(&r);
  free(x.b);
  close(fd);
}

/* ---- ClientHellos from OpenSSL ------------------------------------------------- */

typedef struct ext_spec {
  unsigned type;
  size_t len;
} ext_spec;

static int ext_add(SSL *s, unsigned type, unsigned ctx, const unsigned char **out,
                   size_t *outlen, X509 *x, size_t chainidx, int *al, void *arg) {
  const ext_spec *e = arg;
  unsigned char *b = malloc(e->len ? e->len : 1);
  memset(b, 0xab, e->len);
  *out = b;
  *outlen = e->len;
  return 1;
}

static void ext_free(SSL *s, unsigned type, unsigned ctx, const unsigned char *out,
                     void *arg) {
  free((void *)out);
}

static uint8_t *hello(const char *sni, ext_spec ext, size_t *len) {
  SSL_CTX *ctx = SSL_CTX_new(TLS_client_method());
  assert_non_null(ctx);
  if (ext.type)
    assert_int_equal(SSL_CTX_add_custom_ext(ctx, ext.type, SSL_EXT_CLIENT_HELLO, ext_add,
                                            ext_free, &ext, NULL, NULL),
                     1);
  SSL *ssl = SSL_new(ctx);
  BIO *rb = BIO_new(BIO_s_mem()), *wb = BIO_new(BIO_s_mem());
  SSL_set_bio(ssl, rb, wb);
  if (sni) assert_int_equal(SSL_set_tlsext_host_name(ssl, sni), 1);
  assert_true(SSL_connect(ssl) <= 0);
  char *data;
  long n = BIO_get_mem_data(wb, &data);
  assert_true(n > 0);
  uint8_t *out = malloc((size_t)n);
  memcpy(out, data, (size_t)n);
  *len = (size_t)n;
  SSL_free(ssl);
  SSL_CTX_free(ctx);
  return out;
}

/* ---- a CA and a server certificate ---------------------------------------------- */

static X509 *make_cert(EVP_PKEY *key, const char *cn, X509 *issuer, EVP_PKEY *ikey,
                       bool ca) {
  static long serial = 1;
  X509 *x = X509_new();
  X509V3_CTX v3;
  X509_set_version(x, 2);
  ASN1_INTEGER_set(X509_get_serialNumber(x), serial++);
  X509_gmtime_adj(X509_getm_notBefore(x), -3600);
  X509_gmtime_adj(X509_getm_notAfter(x), 86400);
  X509_set_pubkey(x, key);
  X509_NAME *n = X509_get_subject_name(x);
  X509_NAME_add_entry_by_txt(n, "CN", MBSTRING_ASC, (const unsigned char *)cn, -1, -1, 0);
  X509_set_issuer_name(x, issuer ? X509_get_subject_name(issuer) : n);
  X509V3_set_ctx_nodb(&v3);
  X509V3_set_ctx(&v3, issuer ? issuer : x, x, NULL, NULL, 0);
  char san[300];
  snprintf(san, sizeof(san), "DNS:%s", cn);
  X509_EXTENSION *e1 = X509V3_EXT_conf_nid(NULL, &v3, NID_basic_constraints,
                                           ca ? "critical,CA:TRUE" : "critical,CA:FALSE");
  X509_EXTENSION *e2 = X509V3_EXT_conf_nid(
      NULL, &v3, NID_key_usage,
      ca ? "critical,keyCertSign,cRLSign" : "critical,digitalSignature");
  X509_EXTENSION *e3 =
      ca ? NULL : X509V3_EXT_conf_nid(NULL, &v3, NID_subject_alt_name, san);
  X509_add_ext(x, e1, -1);
  X509_add_ext(x, e2, -1);
  if (e3) X509_add_ext(x, e3, -1);
  X509_EXTENSION_free(e1);
  X509_EXTENSION_free(e2);
  X509_EXTENSION_free(e3);
  assert_true(X509_sign(x, ikey ? ikey : key, EVP_sha256()) > 0);
  return x;
}

/* An HTTPS echo for name, its CA written to ca_path. */
static srv *https_start(const char *name, char *ca_path, size_t cap) {
  EVP_PKEY *cakey = EVP_EC_gen("P-256"), *key = EVP_EC_gen("P-256");
  assert_non_null(cakey);
  assert_non_null(key);
  X509 *ca = make_cert(cakey, "hangar test CA", NULL, NULL, true);
  X509 *crt = make_cert(key, name, ca, cakey, false);
  snprintf(ca_path, cap, "/tmp/hg-test-proxy-ca-%d.pem", (int)getpid());
  FILE *f = fopen(ca_path, "w");
  assert_non_null(f);
  PEM_write_X509(f, ca);
  fclose(f);
  srv *s = srv_start(SRV_HTTPS);
  s->ssl = SSL_CTX_new(TLS_server_method());
  assert_int_equal(SSL_CTX_use_certificate(s->ssl, crt), 1);
  assert_int_equal(SSL_CTX_use_PrivateKey(s->ssl, key), 1);
  X509_free(ca);
  X509_free(crt);
  EVP_PKEY_free(cakey);
  EVP_PKEY_free(key);
  srv_run(s);
  return s;
}

/* ---- tests: HTTP ------------------------------------------------------------------ */

static const char *const ALLOW2[] = {"api.example.com", "other.example.com"};
#define SECRET "sk-real-0123456789"
#define PH "HANGAR_SECRET_1"

static void http_policy(void) {
  hg_policy *p = policy_new(ALLOW2, 2);
  policy_cred(p, "api.example.com", "Authorization", SECRET, PH, false);
  set_policy(p);
  answer("api.example.com", LO);
  answer("other.example.com", LO);
}

static void http_injects_credential_in_scope_and_masks_echo(void **state) {
  http_policy();
  srv *up = srv_start(SRV_HTTP);
  srv_run(up);
  int fd = guest_connect(HG_PROXY_HTTP, LO, up->port);
  rx x = {0};
  resp r;

  /* 1: GET, placeholder in its header and in another one */
  send_str(fd,
           "GET /one HTTP/1.1\r\nHost: api.example.com\r\n"
           "Authorization: Bearer " PH "\r\nX-Other: " PH "\r\n\r\n");
  assert_int_equal(read_response(fd, &x, &r), 0);
  assert_int_equal(r.status, 200);
  /* the echo shows what the upstream got, with the secret masked */
  assert_non_null(strstr(r.body, "Authorization: Bearer ******************\r\n"));
  assert_non_null(strstr(r.body, "X-Other: " PH "\r\n"));
  assert_null(strstr(r.body, SECRET));
  resp_free(&r);

  /* 2: POST with a body on the same connection */
  send_str(fd,
           "POST /two HTTP/1.1\r\nHost: api.example.com\r\nContent-Length: 11\r\n"
           "Authorization: " PH "\r\n\r\nhello=world");
  assert_int_equal(read_response(fd, &x, &r), 0);
  assert_int_equal(r.status, 200);
  assert_non_null(strstr(r.body, "hello=world"));
  assert_null(strstr(r.body, SECRET));
  resp_free(&r);

  /* 3: chunked request, chunked response, split in odd places */
  const char *req3 =
      "POST /chunked HTTP/1.1\r\nHost: api.example.com\r\n"
      "Transfer-Encoding: chunked\r\nAuthorization: " PH
      "\r\n\r\n"
      "5\r\nabcde\r\n3;x=y\r\nfgh\r\n0\r\n\r\n";
  for (size_t i = 0; i < strlen(req3); i += 7) {
    send_all(fd, req3 + i, strlen(req3) - i < 7 ? strlen(req3) - i : 7);
    sleep_ms(1);
  }
  assert_int_equal(read_response(fd, &x, &r), 0);
  assert_int_equal(r.status, 200);
  assert_non_null(strstr(r.body, "5\r\nabcde\r\n3;x=y\r\nfgh\r\n0\r\n\r\n"));
  assert_null(strstr(r.body, SECRET));
  resp_free(&r);

  /* 4: pipelined pair; the second closes */
  send_str(fd,
           "GET /a HTTP/1.1\r\nHost: api.example.com\r\n\r\n"
           "GET /close HTTP/1.1\r\nHost: api.example.com\r\nAuthorization: " PH
           "\r\n\r\n");
  assert_int_equal(read_response(fd, &x, &r), 0);
  assert_int_equal(r.status, 200);
  assert_non_null(strstr(r.body, "GET /a "));
  resp_free(&r);
  assert_int_equal(read_response(fd, &x, &r), 0);
  assert_int_equal(r.status, 200);
  assert_non_null(strstr(r.body, "GET /close "));
  assert_null(strstr(r.body, SECRET));
  resp_free(&r);
  assert_int_equal(x.len, 0);
  free(x.b);
  close(fd);

  /* the upstream saw the real value, only in Authorization, every time */
  char *got = srv_rec(up, NULL);
  assert_non_null(strstr(got, "Authorization: Bearer " SECRET "\r\nX-Other: " PH "\r\n"));
  /* and, with a secret in scope, asked for the answer uncompressed */
  assert_non_null(strstr(got, "\r\nAuthorization: " SECRET
                              "\r\nAccept-Encoding: identity\r\n\r\nhello=world"));
  assert_int_equal(srv_conns(up), 1);
  free(got);
  log_rec l;
  assert_true(wait_log("http", "ok", &l));
  assert_true(l.allowed);
  assert_string_equal(l.name, "api.example.com");
  assert_true(l.out > 200 && l.in > 200);
  srv_stop(up);
}

static void http_placeholder_out_of_scope_is_not_substituted(void **state) {
  http_policy();
  srv *up = srv_start(SRV_HTTP);
  srv_run(up);
  int fd = guest_connect(HG_PROXY_HTTP, LO, up->port);
  rx x = {0};
  resp r;
  send_str(fd, "GET / HTTP/1.1\r\nHost: other.example.com\r\nAuthorization: Bearer " PH
               "\r\n\r\n");
  assert_int_equal(read_response(fd, &x, &r), 0);
  assert_int_equal(r.status, 200);
  assert_non_null(strstr(r.body, "Authorization: Bearer " PH "\r\n"));
  resp_free(&r);
  free(x.b);
  close(fd);
  char *got = srv_rec(up, NULL);
  assert_non_null(strstr(got, "Authorization: Bearer " PH "\r\n"));
  assert_null(strstr(got, SECRET));
  free(got);
  srv_stop(up);
}

static void http_host_switch_on_keepalive_is_refused(void **state) {
  http_policy();
  srv *up = srv_start(SRV_HTTP);
  srv_run(up);
  int fd = guest_connect(HG_PROXY_HTTP, LO, up->port);
  rx x = {0};
  resp r;
  send_str(fd, "GET /first HTTP/1.1\r\nHost: api.example.com\r\n\r\n");
  assert_int_equal(read_response(fd, &x, &r), 0);
  assert_int_equal(r.status, 200);
  resp_free(&r);
  size_t before = srv_bytes(up);
  /* other.example.com is allowed and answered with this very address:
   * still refused, the connection belongs to api.example.com */
  send_str(fd, "GET /second HTTP/1.1\r\nHost: other.example.com\r\nAuthorization: " PH
               "\r\n\r\n");
  assert_int_equal(read_response(fd, &x, &r), 0);
  assert_int_equal(r.status, 403);
  assert_non_null(strstr(r.body, "host_changed"));
  resp_free(&r);
  assert_int_equal(read_to_end(fd, NULL, 0), 0);
  free(x.b);
  close(fd);
  assert_true(wait_log("http", "host_changed", NULL));
  sleep_ms(50);
  assert_int_equal(srv_bytes(up), before);
  char *got = srv_rec(up, NULL);
  assert_null(strstr(got, "other.example.com"));
  assert_null(strstr(got, "/second"));
  free(got);
  srv_stop(up);
}

static void http_denials_reach_nothing(void **state) {
  http_policy();
  answer("metadata.example.com", IP(169, 254, 169, 254));
  const char *allow3[] = {"api.example.com", "other.example.com", "metadata.example.com"};
  hg_policy *p = policy_new(allow3, 3);
  set_policy(p);
  srv *sink = srv_start(SRV_SINK);
  srv_run(sink);
  uint16_t sp = sink->port;
  /* row 5: absolute-form URI != Host */
  expect_http_deny(
      LO, sp, "GET http://evil.example.net/ HTTP/1.1\r\nHost: api.example.com\r\n\r\n",
      "host_mismatch");
  /* row 23: CONNECT, userinfo, bracketed IPv6 */
  expect_http_deny(
      LO, sp, "CONNECT api.example.com:22 HTTP/1.1\r\nHost: api.example.com:22\r\n\r\n",
      "connect");
  expect_http_deny(LO, sp,
                   "GET http://api.example.com@evil.example.net/ HTTP/1.1\r\n"
                   "Host: api.example.com\r\n\r\n",
                   "userinfo");
  expect_http_deny(LO, sp, "GET / HTTP/1.1\r\nHost: [::1]\r\n\r\n", "ip_literal");
  /* row 10: IP-literal hosts in other notations */
  expect_http_deny(LO, sp, "GET / HTTP/1.1\r\nHost: 2130706433\r\n\r\n", "ip_literal");
  expect_http_deny(LO, sp, "GET / HTTP/1.1\r\nHost: 0x7f.1\r\n\r\n", "ip_literal");
  /* row 5: a name not allowed, to an allowed address */
  expect_http_deny(LO, sp, "GET / HTTP/1.1\r\nHost: evil.example.net\r\n\r\n",
                   "not_allowed");
  /* row 1: allowed name, but the guest went to an address we never gave */
  expect_http_deny(IP(127, 0, 0, 2), sp,
                   "GET / HTTP/1.1\r\nHost: api.example.com\r\n\r\n", "dst_not_answered");
  /* row 11: allowed name answered with the metadata address */
  expect_http_deny(IP(169, 254, 169, 254), 80,
                   "GET / HTTP/1.1\r\nHost: metadata.example.com\r\n\r\n", "dst_denied");
  /* smuggling: both framings */
  expect_http_deny(LO, sp,
                   "POST / HTTP/1.1\r\nHost: api.example.com\r\nContent-Length: 4\r\n"
                   "Transfer-Encoding: chunked\r\n\r\n0\r\n\r\n",
                   "cl_and_te");
  expect_http_deny(LO, sp, "GET / HTTP/1.1\r\nHost: api.example.com:8080\r\n\r\n",
                   "port_mismatch");
  /* row 25: TLS on port 80 */
  size_t hl;
  uint8_t *h = hello("api.example.com", (ext_spec){0}, &hl);
  int fd = guest_connect(HG_PROXY_HTTP, LO, sp);
  rx x = {0};
  resp r;
  send_all(fd, h, hl);
  assert_int_equal(read_response(fd, &x, &r), 0);
  assert_int_equal(r.status, 403);
  assert_true(wait_log("http", "tls_on_http", NULL));
  resp_free(&r);
  free(x.b);
  close(fd);
  free(h);
  sleep_ms(50);
  assert_int_equal(srv_conns(sink), 0);
  assert_int_equal(srv_bytes(sink), 0);
  srv_stop(sink);
}

static void http_redirect_is_passed_back_not_followed(void **state) {
  http_policy();
  srv *up = srv_start(SRV_HTTP);
  srv_run(up);
  int fd = guest_connect(HG_PROXY_HTTP, LO, up->port);
  rx x = {0};
  resp r;
  send_str(fd, "GET /redirect HTTP/1.1\r\nHost: api.example.com\r\nAuthorization: " PH
               "\r\n\r\n");
  assert_int_equal(read_response(fd, &x, &r), 0);
  assert_int_equal(r.status, 302);
  assert_non_null(
      strstr(r.head, "Location: http://169.254.169.254/latest/meta-data/\r\n"));
  assert_string_equal(r.body, "moved");
  resp_free(&r);
  free(x.b);
  close(fd);
  assert_true(wait_log("http", "ok", NULL));
  char *got = srv_rec(up, NULL);
  assert_int_equal(srv_conns(up), 1);
  assert_non_null(strstr(got, "GET /redirect "));
  assert_null(strstr(strstr(got, "GET /redirect ") + 1, "GET "));
  free(got);
  srv_stop(up);
}

static void http_slow_head_times_out(void **state) {
  http_policy();
  hg_proxy_test_seams.head_ms = 300;
  srv *sink = srv_start(SRV_SINK);
  srv_run(sink);
  int fd = guest_connect(HG_PROXY_HTTP, LO, sink->port);
  int64_t t0 = hg_now_ms();
  send_str(fd, "GET / HTTP/1.1\r\nHost: api.exa");
  rx x = {0};
  resp r;
  assert_int_equal(read_response(fd, &x, &r), 0);
  assert_int_equal(r.status, 408); /* the head deadline's answer, and log */
  assert_true(hg_now_ms() - t0 >= 250);
  assert_true(wait_log("http", "timeout", NULL));
  resp_free(&r);
  free(x.b);
  close(fd);
  assert_int_equal(srv_conns(sink), 0);
  srv_stop(sink);
}

/* ---- tests: TLS ------------------------------------------------------------------- */

static const char *const ALLOW_TLS[] = {"api.example.com", "cdn.example.com"};

static void tls_policy(void) {
  set_policy(policy_new(ALLOW_TLS, 2));
  answer("api.example.com", LO);
  answer("cdn.example.com", IP(127, 0, 0, 9)); /* the CDN gave another address */
}

static void expect_tls_deny(const void *bytes, size_t len, uint32_t ip, uint16_t port,
                            const char *reason) {
  int fd = guest_connect(HG_PROXY_TLS, ip, port);
  send_all(fd, bytes, len);
  expect_closed_empty(fd);
  close(fd);
  log_rec l;
  assert_true(wait_log("tls", reason, &l));
  assert_false(l.allowed);
}

static void tls_denials_reach_nothing(void **state) {
  tls_policy();
  srv *sink = srv_start(SRV_SINK);
  srv_run(sink);
  uint16_t sp = sink->port;
  size_t n;
  uint8_t *h;
  /* row 25: not TLS on 443 */
  expect_tls_deny("GET / HTTP/1.1\r\nHost: api.example.com\r\n\r\n", 42, LO, sp,
                  "not_tls");
  /* rows 6, 7, 9 */
  h = hello(NULL, (ext_spec){0}, &n);
  expect_tls_deny(h, n, LO, sp, "no_sni");
  free(h);
  h = hello("127.0.0.1", (ext_spec){0}, &n);
  expect_tls_deny(h, n, LO, sp, "ip_literal");
  free(h);
  h = hello("api.example.com", (ext_spec){0xfe0d, 200}, &n);
  expect_tls_deny(h, n, LO, sp, "ech");
  free(h);
  /* row 3: a name not allowed, to an allowed address */
  h = hello("evil.example.net", (ext_spec){0}, &n);
  expect_tls_deny(h, n, LO, sp, "not_allowed");
  free(h);
  /* the shared-CDN case: allowed name, address not among its answers */
  h = hello("cdn.example.com", (ext_spec){0}, &n);
  expect_tls_deny(h, n, LO, sp, "dst_not_answered");
  free(h);
  sleep_ms(50);
  assert_int_equal(srv_conns(sink), 0);
  assert_int_equal(srv_bytes(sink), 0);
  srv_stop(sink);
}

typedef struct writer {
  int fd;
  const uint8_t *data;
  size_t len;
} writer;

static void *writer_main(void *arg) {
  writer *w = arg;
  send_all(w->fd, w->data, w->len);
  shutdown(w->fd, SHUT_WR);
  return NULL;
}

static void tls_allowed_is_relayed_byte_exact(void **state) {
  tls_policy();
  const size_t big = 8u << 20;
  srv *up = srv_start(SRV_BIG);
  up->big = big;
  srv_run(up);
  size_t hl;
  uint8_t *h = hello("API.example.com", (ext_spec){0}, &hl);
  uint8_t *out = malloc(hl + big);
  memcpy(out, h, hl);
  for (size_t i = 0; i < big; i++) out[hl + i] = pattern(i, 13);
  int fd = guest_connect(HG_PROXY_TLS, LO, up->port);
  writer w = {fd, out, hl + big};
  pthread_t th;
  assert_int_equal(pthread_create(&th, NULL, writer_main, &w), 0);
  char *in = malloc(big);
  size_t got = read_to_end(fd, in, big);
  pthread_join(th, NULL);
  assert_int_equal(got, big);
  for (size_t i = 0; i < big; i++)
    if ((uint8_t)in[i] != pattern(i, 7)) fail_msg("byte %zu differs", i);
  for (int64_t end = hg_now_ms() + 5000; srv_bytes(up) < hl + big && hg_now_ms() < end;)
    sleep_ms(5);
  size_t rl;
  char *rec = srv_rec(up, &rl);
  assert_int_equal(rl, hl + big);
  assert_memory_equal(rec, out, hl + big);
  close(fd);
  log_rec l;
  assert_true(wait_log("tls", "ok", &l));
  assert_true(l.allowed);
  assert_string_equal(l.name, "api.example.com");
  assert_int_equal(l.out, hl + big);
  assert_int_equal(l.in, big);
  free(rec);
  free(in);
  free(out);
  free(h);
  srv_stop(up);
}

/* A guest that does not read: the proxy stops reading the upstream
 * instead of buffering what it sends. */
static void tls_backpressure_bounds_buffering(void **state) {
  tls_policy();
  const size_t big = 96u << 20;
  srv *up = srv_start(SRV_BIG);
  up->big = big;
  srv_run(up);
  size_t hl;
  uint8_t *h = hello("api.example.com", (ext_spec){0}, &hl);
  int fd = guest_connect(HG_PROXY_TLS, LO, up->port);
  int small = 64 * 1024;
  setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &small, sizeof(small));
  send_all(fd, h, hl);
  size_t last = 0, now;
  for (int i = 0; i < 100; i++) { /* until the server stalls */
    sleep_ms(50);
    pthread_mutex_lock(&up->mu);
    now = up->sent;
    pthread_mutex_unlock(&up->mu);
    if (now > 0 && now == last) break;
    last = now;
  }
  /* kernel buffers on both hops, a write queue of HG_PROXY_WQ_HIGH and a
   * read: far below what was offered */
  assert_true(now > 0);
  assert_true(now < 32u << 20);
  shutdown(fd, SHUT_WR);
  assert_int_equal(read_to_end(fd, NULL, 0), big);
  close(fd);
  free(h);
  srv_stop(up);
}

static void tls_hello_in_one_byte_segments(void **state) {
  tls_policy();
  srv *up = srv_start(SRV_ECHO);
  srv_run(up);
  size_t hl;
  uint8_t *h = hello("api.example.com", (ext_spec){0x11ec, 1500}, &hl);
  int fd = guest_connect(HG_PROXY_TLS, LO, up->port);
  for (size_t i = 0; i < hl; i++) {
    send_all(fd, h + i, 1);
    if (i % 64 == 0) sleep_ms(1);
  }
  send_str(fd, "ping");
  char *back = malloc(hl + 4);
  size_t n = 0;
  while (n < hl + 4) {
    ssize_t r = recv(fd, back + n, hl + 4 - n, 0);
    assert_true(r > 0);
    n += (size_t)r;
  }
  assert_memory_equal(back, h, hl);
  assert_memory_equal(back + hl, "ping", 4);
  free(back);
  close(fd);
  free(h);
  srv_stop(up);
}

static void tls_slowloris_times_out(void **state) {
  tls_policy();
  hg_proxy_test_seams.hello_ms = 300;
  srv *sink = srv_start(SRV_SINK);
  srv_run(sink);
  size_t hl;
  uint8_t *h = hello("api.example.com", (ext_spec){0}, &hl);
  int fd = guest_connect(HG_PROXY_TLS, LO, sink->port);
  int64_t t0 = hg_now_ms();
  send_all(fd, h, 10);
  expect_closed_empty(fd);
  assert_true(hg_now_ms() - t0 >= 250); /* not before the hello deadline */
  assert_true(wait_log("tls", "timeout", NULL));
  close(fd);
  free(h);
  assert_int_equal(srv_conns(sink), 0);
  assert_int_equal(srv_bytes(sink), 0);
  srv_stop(sink);
}

static void tls_too_many_connections(void **state) {
  tls_policy();
  srv *sink = srv_start(SRV_SINK);
  srv_run(sink);
  int fds[HG_PROXY_MAX_CONNS];
  for (int i = 0; i < HG_PROXY_MAX_CONNS; i++)
    fds[i] = guest_connect(HG_PROXY_TLS, LO, sink->port);
  /* no wait for the proxy to accept them: it accepts from the listen
   * queue in order, so the next one is over the limit whenever it comes */
  size_t hl;
  uint8_t *h = hello("api.example.com", (ext_spec){0}, &hl);
  int fd = guest_connect(HG_PROXY_TLS, LO, sink->port);
  send_all(fd, h, hl);
  expect_closed_empty(fd);
  assert_true(wait_log("tls", "too_many_connections", NULL));
  close(fd);
  for (int i = 0; i < HG_PROXY_MAX_CONNS; i++) close(fds[i]);
  free(h);
  assert_int_equal(srv_conns(sink), 0);
  srv_stop(sink);
}

/* ---- tests: policy changes, relay -------------------------------------------------- */

static void recheck_cuts_live_connections(void **state) {
  tls_policy();
  srv *echo = srv_start(SRV_ECHO);
  srv_run(echo);
  char entry[64];
  snprintf(entry, sizeof(entry), "127.0.0.1:%u", echo->port);
  const char *allow[] = {"api.example.com", "cdn.example.com", entry};
  set_policy(policy_new(allow, 3));
  size_t hl;
  uint8_t *h = hello("api.example.com", (ext_spec){0}, &hl);
  int tfd = guest_connect(HG_PROXY_TLS, LO, echo->port);
  int rfd = guest_connect(HG_PROXY_RELAY, LO, echo->port);
  char buf[8192];
  send_all(tfd, h, hl);
  size_t n = 0;
  while (n < hl) {
    ssize_t r = recv(tfd, buf + n, sizeof(buf) - n, 0);
    assert_true(r > 0);
    n += (size_t)r;
  }
  send_str(rfd, "ping");
  assert_int_equal(recv(rfd, buf, 4, MSG_WAITALL), 4);
  /* a policy that still allows other things, not these two */
  const char *allow2[] = {"cdn.example.com"};
  on_loop(recheck_fn, policy_new(allow2, 1));
  expect_closed_empty(tfd);
  expect_closed_empty(rfd);
  log_rec l;
  assert_true(wait_log("tls", "policy_revoked", &l));
  assert_string_equal(l.name, "api.example.com");
  assert_true(l.out >= hl);
  assert_true(wait_log("tcp", "policy_revoked", NULL));
  close(tfd);
  close(rfd);
  free(h);
  srv_stop(echo);
}

static void relay_allows_listed_cidr_port_only(void **state) {
  srv *echo = srv_start(SRV_ECHO), *sink = srv_start(SRV_SINK);
  srv_run(echo);
  srv_run(sink);
  char entry[64];
  snprintf(entry, sizeof(entry), "127.0.0.0/8:%u", echo->port);
  const char *allow[] = {entry};
  set_policy(policy_new(allow, 1));
  int fd = guest_connect(HG_PROXY_RELAY, LO, echo->port);
  char buf[16];
  send_str(fd, "hello relay");
  assert_int_equal(recv(fd, buf, 11, MSG_WAITALL), 11);
  assert_memory_equal(buf, "hello relay", 11);
  shutdown(fd, SHUT_WR);
  assert_int_equal(read_to_end(fd, NULL, 0), 0);
  close(fd);
  log_rec l;
  assert_true(wait_log("tcp", "ok", &l));
  assert_int_equal(l.out, 11);
  assert_int_equal(l.in, 11);
  /* another port of an allowed range */
  fd = guest_connect(HG_PROXY_RELAY, LO, sink->port);
  send_str(fd, "x");
  expect_closed_empty(fd);
  close(fd);
  assert_true(wait_log("tcp", "not_allowed", NULL));
  /* no policy: nothing */
  set_policy(NULL);
  fd = guest_connect(HG_PROXY_RELAY, LO, echo->port);
  expect_closed_empty(fd);
  close(fd);
  sleep_ms(50);
  assert_int_equal(srv_conns(sink), 0);
  assert_int_equal(srv_bytes(sink), 0);
  assert_int_equal(srv_conns(echo), 1);
  srv_stop(echo);
  srv_stop(sink);
}

/* ---- tests: HTTPS upgrade through libcurl ------------------------------------------ */

#define SECRET2 "sk-upgrade-456"
#define PH2 "HANGAR_SECRET_2"

/* Reads one response head; its status, or -1. */
static int read_head(int fd, rx *x) {
  char *e;
  while (!x->b || !(e = memmem(x->b, x->len, "\r\n\r\n", 4)))
    if (!rx_fill(fd, x)) return -1;
  int status = atoi(x->b + 9);
  rx_drop(x, (size_t)(e + 4 - x->b));
  return status;
}

/* Issue 16, item 5: after a 101 the proxy relays without reading, so an
 * h2c upgrade would let HTTP/2 streams reach any host on the address. The
 * upstream here takes any offer. Only "websocket" alone goes through; any
 * other offer is dropped (Upgrade, HTTP2-Settings and their Connection
 * names) and the request is served as HTTP/1.1; a 101 nobody asked for
 * gets 502. */
static void http_upgrade_only_to_websocket(void **state) {
  http_policy();
  srv *up = srv_start(SRV_HTTP);
  srv_run(up);
  static const char *const offers[] = {
      ("Connection: Upgrade, HTTP2-Settings\r\nUpgrade: h2c\r\n"
       "HTTP2-Settings: AAMAAABkAARAAAAAAAIAAAAA\r\n"),
      "Connection: upgrade\r\nUpgrade: h2c, websocket\r\n",
      "Connection: keep-alive, Upgrade\r\nUpgrade: websocket\r\nUpgrade: H2C\r\n",
      "Connection: Upgrade\r\nUpgrade: TLS/1.2\r\n",
      "Connection: Upgrade\r\nUpgrade: \r\n",
  };
  for (size_t i = 0; i < sizeof(offers) / sizeof(offers[0]); i++) {
    int fd = guest_connect(HG_PROXY_HTTP, LO, up->port);
    rx x = {0};
    resp r;
    char req[512];
    snprintf(req, sizeof(req), "GET /offer%zu HTTP/1.1\r\nHost: api.example.com\r\n%s\r\n", i,
             offers[i]);
    send_str(fd, req);
    assert_int_equal(read_response(fd, &x, &r), 0);
    assert_int_equal(r.status, 200); /* served as HTTP/1.1: no switch */
    /* the echo is what the upstream got: no offer left */
    assert_null(find_ci(r.body, r.body_len, "\r\nupgrade:"));
    assert_null(find_ci(r.body, r.body_len, "http2-settings"));
    assert_null(find_ci(r.body, r.body_len, "upgrade\r\n"));
    if (i == 2) assert_non_null(strstr(r.body, "\r\nConnection: keep-alive\r\n"));
    resp_free(&r);
    /* what a client that believed in h2c sends next is read as HTTP/1.x:
     * refused, and never relayed */
    send_str(fd, "PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n");
    assert_int_equal(read_response(fd, &x, &r), 0);
    assert_int_equal(r.status, 403);
    resp_free(&r);
    free(x.b);
    close(fd);
  }
  char *got = srv_rec(up, NULL);
  assert_null(strstr(got, "PRI * HTTP/2.0"));
  free(got);

  /* an upstream that switches unasked (or to h2c when asked for a
   * WebSocket): 502, no relay */
  static const char *const unasked[] = {
      "GET /force101 HTTP/1.1\r\nHost: api.example.com\r\n\r\n",
      "GET /force101 HTTP/1.1\r\nHost: api.example.com\r\nConnection: Upgrade\r\n"
      "Upgrade: websocket\r\n\r\n",
  };
  for (size_t i = 0; i < 2; i++) {
    int fd = guest_connect(HG_PROXY_HTTP, LO, up->port);
    rx x = {0};
    resp r;
    send_str(fd, unasked[i]);
    assert_int_equal(read_response(fd, &x, &r), 0);
    assert_int_equal(r.status, 502);
    assert_non_null(strstr(r.body, "upgrade_refused"));
    resp_free(&r);
    assert_int_equal(x.len, 0);
    send_str(fd, "relay?"); /* a relay would echo it */
    assert_int_equal(read_to_end(fd, NULL, 0), 0);
    free(x.b);
    close(fd);
  }

  /* a WebSocket still works: 101, then bytes both ways */
  int fd = guest_connect(HG_PROXY_HTTP, LO, up->port);
  rx x = {0};
  send_str(fd,
           "GET /chat HTTP/1.1\r\nHost: api.example.com\r\nConnection: Upgrade\r\n"
           "Upgrade: WebSocket\r\nSec-WebSocket-Version: 13\r\n"
           "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n\r\n");
  assert_int_equal(read_head(fd, &x), 101);
  send_str(fd, "frame-bytes");
  while (x.len < 11) assert_true(rx_fill(fd, &x));
  assert_memory_equal(x.b, "frame-bytes", 11);
  free(x.b);
  close(fd);
  srv_stop(up);
}

/* ---- tests: secret masking against a reflecting upstream (issue 16, item 4) ---- */

#define SECRET3 "k3y/with+sl=ash\"q"
#define PH3 "HANGAR_SECRET_3"

static void mask_policy(void) {
  hg_policy *p = policy_new(ALLOW2, 2);
  policy_cred(p, "api.example.com", "Authorization", SECRET, PH, false);
  policy_cred(p, "api.example.com", "X-Api-Key", SECRET3, PH3, false);
  set_policy(p);
  answer("api.example.com", LO);
  answer("other.example.com", LO);
}

/* The body as the guest's client reads it: inflated when it says gzip. */
static char *plain_body(const resp *r, size_t *len) {
  if (find_ci(r->head, strlen(r->head), "\r\ncontent-encoding: gzip"))
    return gunzip_of(r->body, r->body_len, len);
  *len = r->body_len;
  char *b = malloc(r->body_len + 1);
  memcpy(b, r->body, r->body_len + 1);
  return b;
}

/* No secret in any form the test upstream reflects it in. */
static void expect_no_secret(const char *b, size_t n) {
  char esc[256];
  size_t k;
  assert_null(memmem(b, n, SECRET, strlen(SECRET)));
  assert_null(memmem(b, n, SECRET3, strlen(SECRET3)));
  k = json_escape(SECRET3, strlen(SECRET3), esc);
  assert_null(memmem(b, n, esc, k));
  k = url_encode(SECRET3, strlen(SECRET3), esc);
  assert_null(memmem(b, n, esc, k));
}

static void get_masked(int fd, rx *x, const char *path, const char *host, resp *r) {
  char req[512];
  snprintf(req, sizeof(req),
           "GET %s HTTP/1.1\r\nHost: %s\r\nAccept-Encoding: gzip, deflate\r\n"
           "Authorization: Bearer " PH "\r\nX-Api-Key: " PH3 "\r\n\r\n",
           path, host);
  send_str(fd, req);
  assert_int_equal(read_response(fd, x, r), 0);
}

/* The guest asks an in-scope echo for gzip: compressed, the secret would
 * pass the mask unseen. The proxy asks upstream for identity instead, and
 * refuses an answer coded anyway. */
static void http_mask_survives_gzip_reply(void **state) {
  mask_policy();
  srv *up = srv_start(SRV_HTTP);
  srv_run(up);
  int fd = guest_connect(HG_PROXY_HTTP, LO, up->port);
  rx x = {0};
  resp r;
  size_t n;
  get_masked(fd, &x, "/gzip", "api.example.com", &r);
  assert_int_equal(r.status, 200);
  char *b = plain_body(&r, &n);
  expect_no_secret(b, n);
  assert_non_null(strstr(b, "Authorization: Bearer ******************\r\n"));
  assert_null(find_ci(r.head, strlen(r.head), "content-encoding"));
  free(b);
  resp_free(&r);
  char *got = srv_rec(up, &n);
  assert_non_null(strstr(got, "\r\nAccept-Encoding: identity\r\n"));
  assert_null(find_ci(got, n, "gzip, deflate"));
  free(got);

  /* an upstream that compresses whatever it was asked: 502, no body */
  get_masked(fd, &x, "/gzip-always", "api.example.com", &r);
  assert_int_equal(r.status, 502);
  assert_non_null(strstr(r.body, "encoded_response"));
  assert_null(find_ci(r.head, strlen(r.head), "content-encoding"));
  resp_free(&r);
  assert_int_equal(read_to_end(fd, NULL, 0), 0);
  free(x.b);
  close(fd);

  /* a host no secret is in scope for keeps its compression */
  fd = guest_connect(HG_PROXY_HTTP, LO, up->port);
  memset(&x, 0, sizeof(x));
  get_masked(fd, &x, "/gzip", "other.example.com", &r);
  assert_int_equal(r.status, 200);
  assert_non_null(find_ci(r.head, strlen(r.head), "\r\ncontent-encoding: gzip"));
  b = plain_body(&r, &n);
  assert_non_null(strstr(b, "Authorization: Bearer " PH "\r\n")); /* not substituted */
  free(b);
  resp_free(&r);
  free(x.b);
  close(fd);
  srv_stop(up);
}

/* The echo answers in 3-byte chunks: the chunk framing splits every
 * secret. The guest's client reads the body de-chunked, so the mask must
 * see it that way too; keep-alive still works after. */
static void http_mask_survives_chunk_split(void **state) {
  mask_policy();
  srv *up = srv_start(SRV_HTTP);
  srv_run(up);
  int fd = guest_connect(HG_PROXY_HTTP, LO, up->port);
  rx x = {0};
  resp r;
  for (int round = 0; round < 2; round++) {
    get_masked(fd, &x, "/split", "api.example.com", &r);
    assert_int_equal(r.status, 200);
    assert_non_null(find_ci(r.head, strlen(r.head), "\r\ntransfer-encoding: chunked"));
    expect_no_secret(r.body, r.body_len);
    assert_non_null(strstr(r.body, "Authorization: Bearer ******************\r\n"));
    assert_non_null(strstr(r.body, "X-Api-Key: *****************\r\n"));
    assert_non_null(strstr(r.body, "GET /split HTTP/1.1\r\n"));
    resp_free(&r);
  }
  send_str(fd, "GET /a HTTP/1.1\r\nHost: api.example.com\r\n\r\n");
  assert_int_equal(read_response(fd, &x, &r), 0);
  assert_int_equal(r.status, 200);
  assert_non_null(strstr(r.body, "GET /a HTTP/1.1\r\n"));
  resp_free(&r);
  assert_int_equal(x.len, 0);
  free(x.b);
  close(fd);
  srv_stop(up);
}

/* The echo answers JSON ("/" as "\/", '"' as '\"') or a form
 * (percent-encoded): the secret comes back in another spelling. */
static void http_mask_covers_escaped_forms(void **state) {
  mask_policy();
  srv *up = srv_start(SRV_HTTP);
  srv_run(up);
  int fd = guest_connect(HG_PROXY_HTTP, LO, up->port);
  rx x = {0};
  resp r;
  get_masked(fd, &x, "/json", "api.example.com", &r);
  assert_int_equal(r.status, 200);
  expect_no_secret(r.body, r.body_len);
  /* 19 bytes: k3y\/with+sl=ash\"q */
  assert_non_null(strstr(r.body, "X-Api-Key: *******************\\u000d\\u000a"));
  resp_free(&r);
  get_masked(fd, &x, "/form", "api.example.com", &r);
  assert_int_equal(r.status, 200);
  expect_no_secret(r.body, r.body_len);
  assert_non_null(strstr(r.body, "X-Api-Key%3A%20*************************%0D%0A"));
  resp_free(&r);
  free(x.b);
  close(fd);
  srv_stop(up);
}

/* An HTTPS echo for secure.example.com, whose credential (secret for
 * placeholder ph) goes upstream upgraded; its CA's path in ca. */
static srv *upgrade_upstream(const char *secret, const char *ph, char *ca, size_t cap) {
  srv *up = https_start("secure.example.com", ca, cap);
  setenv("HANGAR_GATEWAY_CA_FILE", ca, 1);
  hg_proxy_test_seams.https_port = up->port;
  const char *allow[] = {"secure.example.com"};
  hg_policy *p = policy_new(allow, 1);
  policy_cred(p, "secure.example.com", "Authorization", secret, ph, true);
  set_policy(p);
  answer("secure.example.com", LO);
  return up;
}

static void upgrade_sends_https_with_credential(void **state) {
  char ca[128];
  srv *up = upgrade_upstream(SECRET2, PH2, ca, sizeof(ca));
  int fd = guest_connect(HG_PROXY_HTTP, LO, 80);
  rx x = {0};
  resp r;

  send_str(fd,
           "GET /path?q=1 HTTP/1.1\r\nHost: secure.example.com\r\n"
           "Authorization: Bearer " PH2 "\r\nX-Keep: " PH2 "\r\n\r\n");
  assert_int_equal(read_response(fd, &x, &r), 0);
  assert_int_equal(r.status, 200);
  assert_non_null(strstr(r.body, "GET /path?q=1 HTTP/1.1\r\n"));
  assert_non_null(strstr(r.body, "Authorization: Bearer **************\r\n"));
  assert_null(strstr(r.body, SECRET2));
  resp_free(&r);

  send_str(fd,
           "POST /submit HTTP/1.1\r\nHost: secure.example.com\r\nContent-Length: 11\r\n"
           "Content-Type: text/plain\r\n\r\nhello=world");
  assert_int_equal(read_response(fd, &x, &r), 0);
  assert_int_equal(r.status, 200);
  assert_non_null(strstr(r.body, "\r\n\r\nhello=world"));
  resp_free(&r);

  send_str(fd,
           "PUT /chunks HTTP/1.1\r\nHost: secure.example.com\r\n"
           "Transfer-Encoding: chunked\r\n\r\n4\r\nabcd\r\n2\r\nef\r\n0\r\n\r\n");
  assert_int_equal(read_response(fd, &x, &r), 0);
  assert_int_equal(r.status, 200);
  assert_non_null(strstr(r.body, "PUT /chunks HTTP/1.1\r\n"));
  assert_non_null(find_ci(r.body, r.body_len, "content-length: 6\r\n"));
  assert_non_null(strstr(r.body, "\r\n\r\nabcdef"));
  resp_free(&r);

  /* absolute-form from the guest, origin-form upstream */
  send_str(
      fd,
      "GET http://secure.example.com?x=1 HTTP/1.1\r\nHost: secure.example.com\r\n\r\n");
  assert_int_equal(read_response(fd, &x, &r), 0);
  assert_int_equal(r.status, 200);
  assert_non_null(strstr(r.body, "GET /?x=1 HTTP/1.1\r\n"));
  resp_free(&r);

  send_str(fd, "GET /redirect HTTP/1.1\r\nHost: secure.example.com\r\nAuthorization: " PH2
               "\r\n\r\n");
  assert_int_equal(read_response(fd, &x, &r), 0);
  assert_int_equal(r.status, 302);
  assert_non_null(
      strstr(r.head, "Location: http://169.254.169.254/latest/meta-data/\r\n"));
  assert_string_equal(r.body, "moved");
  resp_free(&r);
  free(x.b);
  x = (rx){0};
  close(fd);

  char *got = srv_rec(up, NULL);
  assert_non_null(strstr(got, "Authorization: Bearer " SECRET2 "\r\n"));
  assert_non_null(strstr(got, "X-Keep: " PH2 "\r\n"));
  assert_non_null(strstr(got, "Host: secure.example.com\r\n"));
  size_t nreq = 0;
  for (const char *q = got; (q = strstr(q, " HTTP/1.1\r\n")) != NULL; q++) nreq++;
  assert_int_equal(nreq, 5); /* the redirect was not followed */
  free(got);
  assert_true(wait_log("http", "ok", NULL));

  /* without the test CA the server's certificate does not verify */
  unsetenv("HANGAR_GATEWAY_CA_FILE");
  fd = guest_connect(HG_PROXY_HTTP, LO, 80);
  send_str(fd, "GET / HTTP/1.1\r\nHost: secure.example.com\r\n\r\n");
  assert_int_equal(read_response(fd, &x, &r), 0);
  assert_int_equal(r.status, 502);
  resp_free(&r);
  free(x.b);
  close(fd);
  unlink(ca);
  srv_stop(up);
}

/* The same gzip attack through an upgraded (HTTPS upstream) request:
 * libcurl does not inflate, so the guest's Accept-Encoding must not reach
 * the echo either. */
static void upgrade_mask_survives_gzip_reply(void **state) {
  char ca[128];
  srv *up = upgrade_upstream(SECRET, PH, ca, sizeof(ca));
  int fd = guest_connect(HG_PROXY_HTTP, LO, 80);
  rx x = {0};
  resp r;
  size_t n;
  get_masked(fd, &x, "/gzip", "secure.example.com", &r);
  assert_int_equal(r.status, 200);
  char *b = plain_body(&r, &n);
  expect_no_secret(b, n);
  assert_non_null(strstr(b, "Authorization: Bearer ******************\r\n"));
  free(b);
  resp_free(&r);
  char *got = srv_rec(up, &n);
  assert_non_null(strstr(got, "\r\nAccept-Encoding: identity\r\n"));
  assert_null(find_ci(got, n, "gzip, deflate"));
  free(got);
  get_masked(fd, &x, "/gzip-always", "secure.example.com", &r);
  assert_int_equal(r.status, 502);
  assert_non_null(strstr(r.body, "encoded_response"));
  resp_free(&r);
  free(x.b);
  close(fd);
  unsetenv("HANGAR_GATEWAY_CA_FILE");
  unlink(ca);
  srv_stop(up);
}

int main(void) {
  signal(SIGPIPE, SIG_IGN); /* as hangard: a peer gone is EPIPE, not death */
  const struct CMUnitTest tests[] = {
      cmocka_unit_test_setup_teardown(http_injects_credential_in_scope_and_masks_echo,
                                      gw_start, gw_stop),
      cmocka_unit_test_setup_teardown(http_placeholder_out_of_scope_is_not_substituted,
                                      gw_start, gw_stop),
      cmocka_unit_test_setup_teardown(http_host_switch_on_keepalive_is_refused, gw_start,
                                      gw_stop),
      cmocka_unit_test_setup_teardown(http_denials_reach_nothing, gw_start, gw_stop),
      cmocka_unit_test_setup_teardown(http_redirect_is_passed_back_not_followed, gw_start,
                                      gw_stop),
      cmocka_unit_test_setup_teardown(http_slow_head_times_out, gw_start, gw_stop),
      cmocka_unit_test_setup_teardown(tls_denials_reach_nothing, gw_start, gw_stop),
      cmocka_unit_test_setup_teardown(tls_allowed_is_relayed_byte_exact, gw_start,
                                      gw_stop),
      cmocka_unit_test_setup_teardown(tls_hello_in_one_byte_segments, gw_start, gw_stop),
      cmocka_unit_test_setup_teardown(tls_backpressure_bounds_buffering, gw_start,
                                      gw_stop),
      cmocka_unit_test_setup_teardown(tls_slowloris_times_out, gw_start, gw_stop),
      cmocka_unit_test_setup_teardown(tls_too_many_connections, gw_start, gw_stop),
      cmocka_unit_test_setup_teardown(recheck_cuts_live_connections, gw_start, gw_stop),
      cmocka_unit_test_setup_teardown(relay_allows_listed_cidr_port_only, gw_start,
                                      gw_stop),
      cmocka_unit_test_setup_teardown(http_upgrade_only_to_websocket, gw_start, gw_stop),
      cmocka_unit_test_setup_teardown(http_mask_survives_gzip_reply, gw_start, gw_stop),
      cmocka_unit_test_setup_teardown(http_mask_survives_chunk_split, gw_start, gw_stop),
      cmocka_unit_test_setup_teardown(http_mask_covers_escaped_forms, gw_start, gw_stop),
      cmocka_unit_test_setup_teardown(upgrade_sends_https_with_credential, gw_start,
                                      gw_stop),
      cmocka_unit_test_setup_teardown(upgrade_mask_survives_gzip_reply, gw_start,
                                      gw_stop),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
