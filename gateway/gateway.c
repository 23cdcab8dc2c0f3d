/* gateway: the egress gateway's thread and loop, the per-sandbox state
 * (namespace, tap, rules, listeners), policies and their files, the DNS
 * responder and the egress log. See gateway.h (public) and gw.h (shared
 * with proxy.c, which owns the guest's TCP connections).
 *
 * Threads: everything below runs on the gateway thread, except the public
 * entry points, which put a request on a queue, wake the loop (uv_async)
 * and wait on the request's condition variable. Requests run one at a
 * time, in order; a detach, which waits for handles to close, holds the
 * queue until it is done, so no request ever sees a half-detached
 * sandbox. */
#include "gateway/gateway.h"

#include <arpa/inet.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <unistd.h>

#include "gateway/dns.h"
#include "gateway/gw.h"
#include "gateway/names.h"
#include "gateway/netns.h"
#include "gateway/nft.h"
#include "node/core/err.h"
#include "node/core/ident.h"
#include "node/core/list.h"
#include "node/core/log.h"
#include "node/core/util.h"

#define GW_LOG_MAX_DEFAULT 1000
#define GW_DNS_RATE_DEFAULT 50
#define GW_LISTEN_BACKLOG 128

/* The DNS responder. */
#define GW_DNS_CACHE_MAX 4096 /* names remembered per sandbox */
#define GW_DNS_BUCKETS 1024
#define GW_DNS_IPS_MAX 32     /* addresses remembered per name */
#define GW_DNS_GRACE_MS 60000 /* past the TTL, for transfers started in time */
/* TTLs given to the guest are cut to this: what the responder remembers
 * lives in memory, and after a daemon restart the guest's own cache must
 * run out soon, so that it asks again and the proxy's check passes. */
#define GW_DNS_TTL_MAX 300
#define GW_DNS_UDP_BUF 4096 /* a query from the guest over UDP */
#define GW_DNS_TCP_MAX 1024 /* a query over TCP (they are < 300 bytes) */
#define GW_DNS_TCP_CONNS 16 /* TCP DNS connections per sandbox */
#define GW_DNS_TCP_IDLE_MS 10000
#define GW_DNS_ANSWER_MAX HG_DNS_EDNS_SIZE
#define GW_UPSTREAM_BUF 2048 /* we advertise 1232 */
#define GW_UPSTREAM_TIMEOUT_MS 2000
#define GW_UPSTREAM_TRIES 2
#define GW_UPSTREAM_MAX 256 /* upstream queries in flight per sandbox */

#define GW_POLICY_FILE_MAX (1 << 20)
#define GW_POLICY_ENTRY_MAX 300 /* bytes of one allow/hosts string */
#define GW_METRICS_NFT_MAX 256  /* sandboxes whose counters one scrape reads */
#define GW_CONNECT_TIMEOUT_MS 5000

/* ---- types ---------------------------------------------------------------- */

typedef struct gw_req gw_req;
typedef struct dns_conn dns_conn;
typedef struct upq upq;

typedef enum lkind { L_DNS_UDP, L_DNS_TCP, L_HTTP, L_HTTPS, L_RELAY, L_COUNT } lkind;

/* One listening socket inside the namespace, wrapped in a handle of the
 * gateway loop. Allocated on its own so that a listener can be closing
 * while a new one for the same port is opened. */
typedef struct listener {
  union {
    uv_handle_t h;
    uv_stream_t s;
    uv_tcp_t tcp;
    uv_udp_t udp;
  } u;
  hg_gw_sandbox *sb;
  lkind kind;
} listener;

typedef struct log_entry {
  int64_t wall_ms;
  uint64_t bytes_out, bytes_in;
  uint32_t ip;
  uint16_t port;
  bool allowed;
  char proto[8];
  char reason[32];
  char name[HG_NAME_MAX + 1];
} log_entry;

typedef struct dns_ip {
  uint32_t ip;
  int64_t expires_ms; /* monotonic */
} dns_ip;

/* What the responder told the guest about one name: every address it gave
 * out (for hg_gw_dns_answered) and the last answer (served again while
 * its TTL lasts). */
typedef struct dns_entry {
  struct dns_entry *hnext, *prev, *next; /* hash chain; LRU, head newest */
  uint32_t hash;
  size_t n, nlast;
  dns_ip ips[GW_DNS_IPS_MAX];
  uint32_t last[HG_DNS_MAX_ADDRS];
  int64_t last_expires_ms;
  char name[HG_NAME_MAX + 1];
} dns_entry;

typedef struct dns_cache {
  dns_entry *buckets[GW_DNS_BUCKETS];
  dns_entry *head, *tail;
  size_t n;
} dns_cache;

/* Where an answer goes: a UDP peer, or a TCP connection. */
typedef struct dns_target {
  struct sockaddr_in addr;
  dns_conn *conn;
} dns_target;

struct dns_conn {
  uv_tcp_t tcp;
  uv_timer_t idle;
  uv_write_t wreq;
  hg_gw_sandbox *sb;
  dns_conn *prev, *next;
  upq *pending; /* the upstream query its current question waits for */
  int open;     /* handles not yet closed */
  bool reading, writing, closing;
  size_t len;
  uint8_t in[2 + GW_DNS_TCP_MAX];
  uint8_t out[2 + GW_DNS_ANSWER_MAX];
};

/* One question the gateway asks upstream for the guest. A socket of its
 * own, connected to the upstream server: a random source port and id per
 * question, and answers from anywhere else are not even read. */
struct upq {
  uv_udp_t udp;
  uv_timer_t timer;
  hg_gw_sandbox *sb;
  upq *prev, *next;
  int open;
  int tries;
  uint16_t ids[GW_UPSTREAM_TRIES];
  dns_target to;
  hg_dns_query q; /* the guest's */
  uint8_t rbuf[GW_UPSTREAM_BUF];
};

struct hg_gw_sandbox {
  hg_gateway *gw;
  hg_gw_sandbox *next;
  char name[HG_NETNS_NAME_MAX];
  hg_policy *policy;
  hg_netns *ns; /* open while attached */
  bool listening;
  bool forgotten; /* free once nothing is open */
  listener *ls[L_COUNT];
  hg_proxy_set *proxies;
  bool proxies_closing;
  gw_req *detaching; /* the detach request waiting for the closes */
  int handles;       /* uv handles of this sandbox not yet closed */
  dns_conn *conns;
  size_t nconns;
  upq *upqs;
  size_t nupq;
  dns_cache cache;
  hg_dns_limiter limiter;
  int64_t limited_logged_ms;
  uint64_t limited_quiet; /* refused since the last log line */
  log_entry *log;
  size_t log_cap, log_head, log_len;
  uint8_t udp_buf[GW_DNS_UDP_BUF];
};

enum { P_DNS, P_HTTP, P_TLS, P_TCP, P_OTHER, P_COUNT };
static const char *const proto_names[P_COUNT] = {"dns", "http", "tls", "tcp", "other"};

typedef enum gw_op {
  OP_RECOVER,
  OP_ATTACH,
  OP_DETACH,
  OP_SET_POLICY,
  OP_COPY_POLICY,
  OP_GET_POLICY,
  OP_FORGET,
  OP_LOG,
  OP_METRICS,
  OP_SOCKET,
  OP_RUN,
  OP_STOP,
} gw_op;

struct gw_req {
  gw_op op;
  const char *name;
  const char *from; /* OP_COPY_POLICY */
  const hg_policy *policy;
  int *fd;
  json_t **json;
  hg_buf *buf;
  void (*fn)(hg_gw_sandbox *sb, void *arg);
  void *arg;
  int rc;
  bool done;
  pthread_cond_t cond;
  gw_req *next;
};

struct hg_gateway {
  char netns_dir[PATH_MAX];
  char state_dir[PATH_MAX];
  struct sockaddr_in upstream;
  bool have_upstream;
  hg_denylist deny;
  unsigned log_max, dns_rate;

  uv_loop_t loop;
  uv_async_t wake;
  uv_thread_t thread;
  pthread_mutex_t lock; /* the queue */
  gw_req *q_head, *q_tail;
  bool closed;  /* stop was asked: the queue takes nothing more */
  gw_req *busy; /* the request running (loop thread only) */
  bool stopping;

  hg_gw_sandbox *sandboxes;

  /* metrics, loop thread only */
  uint64_t decisions[P_COUNT][2];
  uint64_t dns_queries, dns_limited;
  hg_nft_counters retired; /* drop counters of namespaces since deleted */
};

static void sb_check(hg_gw_sandbox *sb);
static void conn_process(dns_conn *c);
static void conn_close(dns_conn *c);
static void upq_close(upq *u);

/* ---- small helpers ----------------------------------------------------------- */

static bool name_valid(const char *name) {
  return hg_name_valid(name, HG_NETNS_NAME_MAX);
}

static void ip_text(uint32_t ip, char out[INET_ADDRSTRLEN]) {
  struct in_addr a = {.s_addr = htonl(ip)};
  inet_ntop(AF_INET, &a, out, INET_ADDRSTRLEN);
}

static int64_t wall_ms(void) {
  return hg_wall_ns() / 1000000;
}

static int policy_path(const hg_gateway *gw, const char *name, char *out, size_t cap) {
  return hg_path(out, cap, "%s/%s.json", gw->state_dir, name);
}

/* ---- policies ---------------------------------------------------------------- */

static int perr(char err[256], const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
static int perr(char err[256], const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(err, 256, fmt, ap);
  va_end(ap);
  return -EINVAL;
}

/* A piece of the client's input fit to quote in an error: printable ASCII
 * only, and short. */
static const char *quote(const char *s, size_t len, char out[48]) {
  size_t n = 0;
  for (size_t i = 0; i < len && n < 40; i++)
    out[n++] = (s[i] >= 0x20 && s[i] < 0x7f && s[i] != '"') ? s[i] : '?';
  if (len > 40) {
    memcpy(out + n, "...", 3);
    n += 3;
  }
  out[n] = '\0';
  return out;
}

/* The heuristic of hg_allow_add: CIDR:port entries start with a digit and
 * hold a ':'; no hostname does. */
static bool is_addr_entry(const char *s, size_t len) {
  return len > 0 && s[0] >= '0' && s[0] <= '9' && memchr(s, ':', len);
}

static bool is_tchar(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
         (c && strchr("!#$%&'*+-.^_`|~", c));
}

/* Headers that frame the message or the connection: a credential must not
 * be able to set them (request smuggling, Host confusion). */
static bool header_reserved(const char *h) {
  static const char *const reserved[] = {
      "host", "content-length", "transfer-encoding", "connection",       "upgrade",
      "te",   "trailer",        "keep-alive",        "proxy-connection", "expect",
  };
  for (size_t i = 0; i < HG_ARRAY_SIZE(reserved); i++)
    if (strcasecmp(h, reserved[i]) == 0) return true;
  return false;
}

static bool keys_known(const json_t *o, const char *const *keys, size_t n,
                       const char **bad) {
  const char *key;
  json_t *v;
  json_object_foreach((json_t *)o, key, v) {
    size_t i = 0;
    while (i < n && strcmp(key, keys[i]) != 0) i++;
    if (i == n) {
      *bad = key;
      return false;
    }
  }
  return true;
}

/* Reads a string member into out (cap includes the NUL). */
static int get_string(const json_t *o, const char *key, const char *where, size_t min,
                      size_t max, char *out, char err[256]) {
  json_t *v = json_object_get(o, key);
  if (!v) return perr(err, "%s: \"%s\" is required", where, key);
  if (!json_is_string(v)) return perr(err, "%s: \"%s\" must be a string", where, key);
  size_t len = json_string_length(v);
  if (len < min || len > max)
    return perr(err, "%s: \"%s\" must be %zu to %zu bytes", where, key, min, max);
  memcpy(out, json_string_value(v), len);
  out[len] = '\0';
  return (int)len;
}

static int parse_allow(hg_policy *p, const json_t *arr, json_t *src, char err[256]) {
  char q[48];
  size_t i;
  json_t *v;
  if (!json_is_array(arr)) return perr(err, "\"allow\" must be an array of strings");
  if (json_array_size(arr) > HG_ALLOW_MAX)
    return perr(err, "\"allow\" has more than %d entries", HG_ALLOW_MAX);
  json_array_foreach(arr, i, v) {
    if (!json_is_string(v)) return perr(err, "allow[%zu] must be a string", i);
    const char *s = json_string_value(v);
    size_t len = json_string_length(v);
    int rc = len <= GW_POLICY_ENTRY_MAX ? hg_allow_add(p->allow, s, len) : -EINVAL;
    if (rc == -ENOSPC)
      return perr(err, "\"allow\" has more than %d entries", HG_ALLOW_MAX);
    if (rc < 0)
      return perr(err,
                  "allow[%zu] \"%s\" is not a hostname, *.domain or CIDR:port "
                  "(IP literals need a port)",
                  i, quote(s, len, q));
    if (is_addr_entry(s, len)) {
      if (hg_nft_allow_parse(s, &p->nft[p->nnft]) < 0)
        return perr(err, "allow[%zu] \"%s\" is not a CIDR:port entry", i,
                    quote(s, len, q));
      p->nnft++;
    }
    if (json_array_append_new(src, json_stringn(s, len)) < 0) return -ENOMEM;
  }
  return 0;
}

static int parse_cred(hg_policy_cred *c, size_t i, const json_t *o, json_t *src,
                      char err[256]) {
  static const char *const keys[] = {"hosts", "header", "value", "placeholder",
                                     "upgrade"};
  char where[48], q[48];
  const char *bad;
  snprintf(where, sizeof where, "credentials[%zu]", i);
  if (!json_is_object(o)) return perr(err, "%s must be an object", where);
  if (!keys_known(o, keys, HG_ARRAY_SIZE(keys), &bad))
    return perr(err,
                "%s: unknown key \"%s\" (expected hosts, header, value, placeholder, "
                "upgrade)",
                where, quote(bad, strlen(bad), q));

  json_t *hosts = json_object_get(o, "hosts");
  if (!json_is_array(hosts) || json_array_size(hosts) == 0)
    return perr(err, "%s: \"hosts\" must be a non-empty array of names", where);
  if (json_array_size(hosts) > HG_ALLOW_MAX)
    return perr(err, "%s: \"hosts\" has more than %d entries", where, HG_ALLOW_MAX);
  int rc = hg_allow_new(&c->hosts);
  if (rc < 0) return rc;
  json_t *src_hosts = json_array();
  if (!src_hosts || json_object_set_new(src, "hosts", src_hosts) < 0) return -ENOMEM;
  size_t k;
  json_t *h;
  json_array_foreach(hosts, k, h) {
    if (!json_is_string(h)) return perr(err, "%s: hosts[%zu] must be a string", where, k);
    const char *s = json_string_value(h);
    size_t len = json_string_length(h);
    rc = len <= GW_POLICY_ENTRY_MAX && !is_addr_entry(s, len)
             ? hg_allow_add(c->hosts, s, len)
             : -EINVAL;
    if (rc < 0)
      return perr(err, "%s: hosts[%zu] \"%s\" is not a hostname or *.domain", where, k,
                  quote(s, len, q));
    if (json_array_append_new(src_hosts, json_stringn(s, len)) < 0) return -ENOMEM;
  }

  rc = get_string(o, "header", where, 1, HG_GW_HEADER_MAX - 1, c->header, err);
  if (rc < 0) return rc;
  for (int n = 0; n < rc; n++)
    if (!is_tchar(c->header[n]))
      return perr(err, "%s: \"header\" must be an HTTP field name (token characters)",
                  where);
  if (header_reserved(c->header))
    return perr(err, "%s: \"header\" %s cannot carry a credential", where, c->header);

  rc = get_string(o, "value", where, 1, HG_GW_SECRET_MAX - 1, c->value, err);
  if (rc < 0) return rc;
  for (int n = 0; n < rc; n++) {
    unsigned char ch = (unsigned char)c->value[n];
    if ((ch < 0x20 && ch != '\t') || ch == 0x7f)
      return perr(err, "%s: \"value\" must not hold control characters (CR, LF, NUL...)",
                  where);
  }

  rc = get_string(o, "placeholder", where, 4, HG_GW_PLACEHOLDER_MAX - 1, c->placeholder,
                  err);
  if (rc < 0) return rc;
  for (int n = 0; n < rc; n++) {
    char ch = c->placeholder[n];
    if (!((ch >= 'A' && ch <= 'Z') || (ch >= '0' && ch <= '9') || ch == '_'))
      return perr(err, "%s: \"placeholder\" must be 4 to 63 of A-Z, 0-9 and _", where);
  }

  json_t *up = json_object_get(o, "upgrade");
  if (up && !json_is_boolean(up))
    return perr(err, "%s: \"upgrade\" must be a boolean", where);
  c->upgrade = up && json_is_true(up);

  if (json_object_set_new(src, "header", json_string(c->header)) < 0 ||
      json_object_set_new(src, "value", json_string(c->value)) < 0 ||
      json_object_set_new(src, "placeholder", json_string(c->placeholder)) < 0 ||
      json_object_set_new(src, "upgrade", json_boolean(c->upgrade)) < 0)
    return -ENOMEM;
  return 0;
}

/* One placeholder inside another would make substitution depend on the
 * order the proxy scans them in. */
static int check_placeholders(const hg_policy *p, char err[256]) {
  for (size_t i = 0; i < p->ncreds; i++)
    for (size_t k = 0; k < p->ncreds; k++) {
      if (i == k) continue;
      const char *a = p->creds[i].placeholder, *b = p->creds[k].placeholder;
      if (strcmp(a, b) == 0)
        return perr(err, "credentials[%zu] and [%zu] use the same placeholder %s", i, k,
                    a);
      if (strstr(a, b))
        return perr(err,
                    "placeholder %s of credentials[%zu] contains %s of credentials[%zu]",
                    a, i, b, k);
    }
  return 0;
}

void hg_policy_free(hg_policy *p) {
  if (!p) return;
  hg_allow_free(p->allow);
  for (size_t i = 0; i < HG_GW_CREDS_MAX; i++) hg_allow_free(p->creds[i].hosts);
  json_decref(p->src);
  explicit_bzero(p, sizeof *p);
  free(p);
}

static int policy_parse(const json_t *j, hg_policy **out, char err[256]) {
  static const char *const keys[] = {"allow", "credentials"};
  char q[48];
  const char *bad;
  if (!json_is_object(j)) return perr(err, "the network policy must be a JSON object");
  if (!keys_known(j, keys, HG_ARRAY_SIZE(keys), &bad))
    return perr(err,
                "unknown key \"%s\" in the network policy (expected allow, credentials)",
                quote(bad, strlen(bad), q));
  hg_policy *p = calloc(1, sizeof *p);
  if (!p) return -ENOMEM;
  int rc = hg_allow_new(&p->allow);
  json_t *src_allow = json_array(), *src_creds = json_array();
  if (rc == 0 && (!(p->src = json_object()) || !src_allow || !src_creds ||
                  json_object_set(p->src, "allow", src_allow) < 0 ||
                  json_object_set(p->src, "credentials", src_creds) < 0))
    rc = -ENOMEM;
  json_t *allow = json_object_get(j, "allow");
  if (rc == 0 && allow) rc = parse_allow(p, allow, src_allow, err);
  json_t *creds = json_object_get(j, "credentials");
  if (rc == 0 && creds) {
    if (!json_is_array(creds))
      rc = perr(err, "\"credentials\" must be an array of objects");
    else if (json_array_size(creds) > HG_GW_CREDS_MAX)
      rc = perr(err, "\"credentials\" has more than %d entries", HG_GW_CREDS_MAX);
    size_t i;
    json_t *c;
    json_array_foreach(creds, i, c) {
      if (rc < 0) break;
      json_t *src = json_object();
      if (!src || json_array_append_new(src_creds, src) < 0) {
        rc = -ENOMEM;
        break;
      }
      rc = parse_cred(&p->creds[i], i, c, src, err);
      p->ncreds = i + 1;
    }
  }
  if (rc == 0) rc = check_placeholders(p, err);
  json_decref(src_allow);
  json_decref(src_creds);
  if (rc < 0) {
    if (rc == -ENOMEM) snprintf(err, 256, "out of memory");
    hg_policy_free(p);
    return rc;
  }
  *out = p;
  return 0;
}

int hg_policy_parse(const json_t *j, hg_policy **out, char err[256]) {
  char scratch[256];
  if (!err) err = scratch;
  err[0] = '\0';
  if (!out) return -EINVAL;
  return policy_parse(j, out, err);
}

json_t *hg_policy_json(const hg_policy *p, bool redact) {
  if (!p || !p->src) return json_null();
  json_t *j = json_deep_copy(p->src);
  if (!j || !redact) return j;
  size_t i;
  json_t *c;
  json_array_foreach(json_object_get(j, "credentials"), i, c) {
    json_object_set_new(c, "value", json_string("***"));
  }
  return j;
}

/* The gateway's own copy of a caller's policy. */
static int policy_copy(const hg_policy *p, hg_policy **out) {
  char err[256];
  if (!p || !p->src) return -EINVAL;
  return policy_parse(p->src, out, err);
}

/* state_dir/<name>.json, 0600: it holds the credentials. NULL removes it. */
static int policy_save(hg_gateway *gw, const char *name, const hg_policy *p) {
  char path[PATH_MAX];
  int rc = policy_path(gw, name, path, sizeof path);
  if (rc < 0) return rc;
  if (!p) return unlink(path) < 0 && errno != ENOENT ? -errno : 0;
  json_t *j = hg_policy_json(p, false);
  char *text = j ? json_dumps(j, JSON_COMPACT) : NULL;
  json_decref(j);
  if (!text) return -ENOMEM;
  size_t len = strlen(text);
  rc = hg_write_file_atomic(path, text, len);
  if (rc == 0 && chmod(path, 0600) < 0) rc = -errno;
  explicit_bzero(text, len);
  free(text);
  if (rc < 0)
    hg_log_error("gateway.policy_save", "sandbox=%s err=%s", name, hg_err_str(rc));
  return rc;
}

static int policy_load(hg_gateway *gw, const char *name, hg_policy **out) {
  char path[PATH_MAX], *text = NULL, err[256] = "";
  size_t len = 0;
  int rc = policy_path(gw, name, path, sizeof path);
  if (rc == 0) rc = hg_read_file(path, GW_POLICY_FILE_MAX, &text, &len);
  if (rc < 0) return rc;
  json_error_t jerr;
  json_t *j = json_loadb(text, len, 0, &jerr);
  explicit_bzero(text, len);
  free(text);
  rc = j ? policy_parse(j, out, err) : -EINVAL;
  json_decref(j);
  if (rc < 0)
    hg_log_error("gateway.policy_load", "sandbox=%s path=%s err=%s msg=\"%s\"", name,
                 path, hg_err_str(rc), j ? err : jerr.text);
  return rc;
}

/* ---- the egress log ------------------------------------------------------------ */

static int proto_index(const char *proto) {
  for (int i = 0; i < P_OTHER; i++)
    if (proto && strcmp(proto, proto_names[i]) == 0) return i;
  return P_OTHER;
}

void hg_gw_log(hg_gw_sandbox *sb, const char *proto, const char *name, uint32_t ip,
               uint16_t port, bool allowed, const char *reason, uint64_t bytes_out,
               uint64_t bytes_in) {
  hg_gateway *gw = sb->gw;
  gw->decisions[proto_index(proto)][allowed ? 1 : 0]++;
  /* The ring grows to log_max, then wraps; it wraps only once full, so
   * while it grows its entries start at index 0. */
  if (sb->log_len == sb->log_cap && sb->log_cap < gw->log_max) {
    size_t cap = sb->log_cap ? sb->log_cap * 2 : 16;
    if (cap > gw->log_max) cap = gw->log_max;
    log_entry *l = realloc(sb->log, cap * sizeof *l);
    if (l) {
      sb->log = l;
      sb->log_cap = cap;
    }
  }
  if (sb->log_cap == 0) return;
  log_entry *e;
  if (sb->log_len < sb->log_cap) {
    e = &sb->log[(sb->log_head + sb->log_len++) % sb->log_cap];
  } else {
    e = &sb->log[sb->log_head];
    sb->log_head = (sb->log_head + 1) % sb->log_cap;
  }
  e->wall_ms = wall_ms();
  e->ip = ip;
  e->port = port;
  e->allowed = allowed;
  e->bytes_out = bytes_out;
  e->bytes_in = bytes_in;
  snprintf(e->proto, sizeof e->proto, "%s", proto ? proto : "");
  snprintf(e->reason, sizeof e->reason, "%s", reason ? reason : "");
  snprintf(e->name, sizeof e->name, "%s", name ? name : "");
  hg_log_debug("gateway.egress",
               "sandbox=%s proto=%s name=%s port=%u verdict=%s reason=%s", sb->name,
               e->proto, e->name, port, allowed ? "allow" : "deny", e->reason);
}

static json_t *log_json(const hg_gw_sandbox *sb) {
  json_t *arr = json_array();
  for (size_t i = 0; arr && sb && i < sb->log_len; i++) {
    const log_entry *e = &sb->log[(sb->log_head + i) % sb->log_cap];
    char t[32], ip[INET_ADDRSTRLEN];
    hg_iso_time(e->wall_ms, t);
    ip_text(e->ip, ip);
    json_t *o = json_pack(
        "{s:s, s:s, s:s, s:o, s:i, s:s, s:s, s:I, s:I}", "time", t, "proto", e->proto,
        "name", e->name, "ip", e->ip ? json_string(ip) : json_null(), "port",
        (int)e->port, "verdict", e->allowed ? "allow" : "deny", "reason", e->reason,
        "bytes_out", (json_int_t)e->bytes_out, "bytes_in", (json_int_t)e->bytes_in);
    if (!o || json_array_append_new(arr, o) < 0) {
      json_decref(arr);
      return NULL;
    }
  }
  return arr;
}

/* ---- what the responder answered ------------------------------------------------ */

static uint32_t name_hash(const char *s) {
  uint32_t h = 2166136261u;
  for (; *s; s++) h = (h ^ (uint8_t)*s) * 16777619u;
  return h;
}

static dns_entry *cache_find(dns_cache *c, const char *name, uint32_t h) {
  for (dns_entry *e = c->buckets[h % GW_DNS_BUCKETS]; e; e = e->hnext)
    if (e->hash == h && strcmp(e->name, name) == 0) return e;
  return NULL;
}

static void lru_unlink(dns_cache *c, dns_entry *e) {
  HG_LIST_UNLINK2(c->head, c->tail, e);
  e->prev = e->next = NULL;
}

static void lru_push(dns_cache *c, dns_entry *e) {
  HG_LIST_PUSH2(c->head, c->tail, e);
}

static void cache_drop(dns_cache *c, dns_entry *e) {
  dns_entry **pp = &c->buckets[e->hash % GW_DNS_BUCKETS];
  while (*pp != e) pp = &(*pp)->hnext;
  *pp = e->hnext;
  lru_unlink(c, e);
  c->n--;
  free(e);
}

static void cache_clear(dns_cache *c) {
  while (c->head) cache_drop(c, c->head);
}

/* Remembers an answer given to the guest. Addresses given earlier stay
 * good until their own TTL (plus grace) ends: the guest may still be
 * connecting to them. */
static void cache_put(hg_gw_sandbox *sb, const char *name, const uint32_t *ips, size_t n,
                      uint32_t ttl) {
  dns_cache *c = &sb->cache;
  int64_t now = hg_now_ms(), expires = now + (int64_t)ttl * 1000;
  uint32_t h = name_hash(name);
  dns_entry *e = cache_find(c, name, h);
  if (e) {
    lru_unlink(c, e);
  } else {
    if (c->n >= GW_DNS_CACHE_MAX) cache_drop(c, c->tail);
    if (!(e = calloc(1, sizeof *e))) return;
    snprintf(e->name, sizeof e->name, "%s", name);
    e->hash = h;
    e->hnext = c->buckets[h % GW_DNS_BUCKETS];
    c->buckets[h % GW_DNS_BUCKETS] = e;
    c->n++;
  }
  lru_push(c, e);
  for (size_t i = 0; i < e->n;) {
    if (e->ips[i].expires_ms + GW_DNS_GRACE_MS < now)
      e->ips[i] = e->ips[--e->n];
    else
      i++;
  }
  for (size_t k = 0; k < n; k++) {
    size_t i = 0, oldest = 0;
    while (i < e->n && e->ips[i].ip != ips[k]) {
      if (e->ips[i].expires_ms < e->ips[oldest].expires_ms) oldest = i;
      i++;
    }
    if (i == e->n) {
      if (e->n < GW_DNS_IPS_MAX)
        e->n++;
      else
        i = oldest;
      e->ips[i].ip = ips[k];
      e->ips[i].expires_ms = expires;
    } else if (e->ips[i].expires_ms < expires) {
      e->ips[i].expires_ms = expires;
    }
  }
  e->nlast = n < HG_DNS_MAX_ADDRS ? n : HG_DNS_MAX_ADDRS;
  memcpy(e->last, ips, e->nlast * sizeof *ips);
  e->last_expires_ms = expires;
}

bool hg_gw_dns_answered(hg_gw_sandbox *sb, const char *name, uint32_t ip) {
  char n[HG_NAME_MAX + 1];
  if (!sb || !name || hg_name_normalize(name, strlen(name), n) < 0) return false;
  dns_entry *e = cache_find(&sb->cache, n, name_hash(n));
  int64_t now = hg_now_ms();
  for (size_t i = 0; e && i < e->n; i++)
    if (e->ips[i].ip == ip && now <= e->ips[i].expires_ms + GW_DNS_GRACE_MS) return true;
  return false;
}

/* ---- the DNS responder: answers ---------------------------------------------------- */

static void conn_send(dns_conn *c, const uint8_t *msg, size_t len);

static void send_bytes(hg_gw_sandbox *sb, const dns_target *to, const uint8_t *msg,
                       size_t len) {
  if (to->conn) {
    conn_send(to->conn, msg, len);
    return;
  }
  listener *l = sb->ls[L_DNS_UDP];
  if (!l) return;
  uv_buf_t b = uv_buf_init((char *)msg, (unsigned)len);
  int rc = uv_udp_try_send(&l->u.udp, &b, 1, (const struct sockaddr *)&to->addr);
  if (rc < 0)
    hg_log_debug("gateway.dns_send", "sandbox=%s err=%s", sb->name, uv_strerror(rc));
}

/* Answers q; over UDP, drops A records until the answer fits what the
 * client takes (16 addresses and a long name can pass 512 bytes). */
static void reply(hg_gw_sandbox *sb, const hg_dns_query *q, const dns_target *to,
                  int rcode, const uint32_t *ips, size_t n, uint32_t ttl) {
  uint8_t out[GW_DNS_ANSWER_MAX];
  size_t cap = sizeof out, len = 0;
  if (!to->conn && q->udp_size < cap) cap = q->udp_size;
  int rc;
  while ((rc = hg_dns_build_answer(q, rcode, ips, n, ttl, out, cap, &len)) == -ENOBUFS &&
         n)
    n--;
  if (rc == 0) send_bytes(sb, to, out, len);
}

static void reply_error(hg_gw_sandbox *sb, const uint8_t *msg, size_t len,
                        const dns_target *to, int rcode) {
  uint8_t out[HG_DNS_HEADER];
  size_t olen;
  if (hg_dns_build_error(msg, len, rcode, out, sizeof out, &olen) == 0)
    send_bytes(sb, to, out, olen);
}

static void dns_log(hg_gw_sandbox *sb, const char *name, uint32_t ip, bool allowed,
                    const char *reason) {
  hg_gw_log(sb, "dns", name, ip, 53, allowed, reason, 0,
            0); /* the port the guest asked */
}

/* ---- the DNS responder: upstream ----------------------------------------------------
 */

static void upq_handle_closed(uv_handle_t *h) {
  upq *u = h->data;
  hg_gw_sandbox *sb = u->sb;
  sb->handles--;
  if (--u->open == 0) free(u);
  sb_check(sb);
}

static void upq_close(upq *u) {
  hg_gw_sandbox *sb = u->sb;
  HG_LIST_UNLINK(sb->upqs, u);
  sb->nupq--;
  if (u->to.conn) u->to.conn->pending = NULL;
  u->to.conn = NULL;
  uv_close((uv_handle_t *)&u->udp, upq_handle_closed);
  uv_close((uv_handle_t *)&u->timer, upq_handle_closed);
}

/* The end of a question: the answer to the guest (when the connection it
 * came on is still there), the log entry, the handles closed. */
static void upq_finish(upq *u, int rcode, const uint32_t *ips, size_t n, uint32_t ttl,
                       bool allowed, const char *reason, uint32_t log_ip) {
  hg_gw_sandbox *sb = u->sb;
  dns_conn *c = u->to.conn;
  if (c) c->pending = NULL;
  reply(sb, &u->q, &u->to, rcode, ips, n, ttl);
  dns_log(sb, u->q.name, log_ip, allowed, reason);
  upq_close(u);
  if (c) conn_process(c);
}

static void upq_answer(upq *u, const hg_dns_result *res) {
  hg_gw_sandbox *sb = u->sb;
  if (res->rcode == HG_DNS_NXDOMAIN) {
    upq_finish(u, HG_DNS_NXDOMAIN, NULL, 0, 0, true, "upstream_nxdomain", 0);
    return;
  }
  if (res->rcode != HG_DNS_NOERROR) {
    upq_finish(u, HG_DNS_SERVFAIL, NULL, 0, 0, false, "upstream_rcode", 0);
    return;
  }
  /* never hand out an address the gateway would refuse to dial: the proxy
   * would deny it anyway, and an answer of 127.0.0.1 invites the guest to
   * try its luck elsewhere */
  uint32_t ok[HG_DNS_MAX_ADDRS], denied = 0;
  size_t n = 0, ndenied = 0;
  for (size_t i = 0; i < res->n; i++) {
    if (hg_gw_addr_denied(sb, res->ips[i])) {
      if (ndenied++ == 0) denied = res->ips[i]; /* 0.0.0.0 is an address too */
    } else {
      ok[n++] = res->ips[i];
    }
  }
  if (n == 0 && ndenied) {
    upq_finish(u, HG_DNS_NOERROR, NULL, 0, 0, false, "denied_address", denied);
    return;
  }
  if (n == 0) {
    upq_finish(u, HG_DNS_NOERROR, NULL, 0, 0, true, "upstream_nodata", 0);
    return;
  }
  uint32_t ttl = res->ttl < GW_DNS_TTL_MAX ? res->ttl : GW_DNS_TTL_MAX;
  cache_put(sb, u->q.name, ok, n, ttl);
  upq_finish(u, HG_DNS_NOERROR, ok, n, ttl, true, "resolved", ok[0]);
}

static void upq_alloc(uv_handle_t *h, size_t suggested, uv_buf_t *buf) {
  upq *u = h->data;
  *buf = uv_buf_init((char *)u->rbuf, sizeof u->rbuf);
}

static void upq_recv(uv_udp_t *h, ssize_t nread, const uv_buf_t *buf,
                     const struct sockaddr *addr, unsigned flags) {
  upq *u = h->data;
  if (nread == 0) return;
  if (nread < 0) { /* ICMP unreachable on the connected socket */
    upq_finish(u, HG_DNS_SERVFAIL, NULL, 0, 0, false, "upstream_error", 0);
    return;
  }
  if (flags & UV_UDP_PARTIAL) {
    upq_finish(u, HG_DNS_SERVFAIL, NULL, 0, 0, false, "upstream_truncated", 0);
    return;
  }
  hg_dns_result res;
  int rc = -EBADMSG;
  /* an answer to an earlier try is as good as one to the last */
  for (int i = 0; i < u->tries && rc == -EBADMSG; i++)
    rc = hg_dns_parse_response(u->rbuf, (size_t)nread, u->ids[i], u->q.name, &res);
  if (rc == -EBADMSG) return; /* not ours: keep waiting */
  if (rc == -EMSGSIZE)
    upq_finish(u, HG_DNS_SERVFAIL, NULL, 0, 0, false, "upstream_truncated", 0);
  else if (rc < 0)
    upq_finish(u, HG_DNS_SERVFAIL, NULL, 0, 0, false, "upstream_malformed", 0);
  else
    upq_answer(u, &res);
}

static void upq_timeout(uv_timer_t *t);

static int upq_send(upq *u) {
  uint8_t msg[HG_DNS_HEADER + HG_DNS_MAX_NAME + 4 + 11];
  size_t len;
  uint16_t id;
  int rc = hg_random_bytes(&id, sizeof id);
  if (rc == 0)
    rc = hg_dns_build_query(id, u->q.name, HG_DNS_T_A, 1, msg, sizeof msg, &len);
  if (rc < 0) return rc;
  u->ids[u->tries++] = id;
  uv_buf_t b = uv_buf_init((char *)msg, (unsigned)len);
  rc = uv_udp_try_send(&u->udp, &b, 1, NULL);
  if (rc < 0 && rc != UV_EAGAIN) return rc; /* EAGAIN: the timer tries again */
  return uv_timer_start(&u->timer, upq_timeout, GW_UPSTREAM_TIMEOUT_MS, 0);
}

static void upq_timeout(uv_timer_t *t) {
  upq *u = t->data;
  if (u->tries < GW_UPSTREAM_TRIES && upq_send(u) == 0) return;
  upq_finish(u, HG_DNS_SERVFAIL, NULL, 0, 0, false, "upstream_timeout", 0);
}

static void upq_start(hg_gw_sandbox *sb, const hg_dns_query *q, const dns_target *to) {
  hg_gateway *gw = sb->gw;
  upq *u = calloc(1, sizeof *u);
  if (!u) {
    reply(sb, q, to, HG_DNS_SERVFAIL, NULL, 0, 0);
    dns_log(sb, q->name, 0, false, "no_memory");
    return;
  }
  u->sb = sb;
  u->q = *q;
  u->to = *to;
  uv_udp_init(&gw->loop, &u->udp);
  uv_timer_init(&gw->loop, &u->timer);
  u->udp.data = u->timer.data = u;
  u->open = 2;
  sb->handles += 2;
  HG_LIST_PUSH(sb->upqs, u);
  sb->nupq++;
  if (to->conn) to->conn->pending = u;

  struct sockaddr_in any = {.sin_family = AF_INET};
  int rc = uv_udp_bind(&u->udp, (const struct sockaddr *)&any, 0);
  if (rc == 0) rc = uv_udp_connect(&u->udp, (const struct sockaddr *)&gw->upstream);
  if (rc == 0) rc = uv_udp_recv_start(&u->udp, upq_alloc, upq_recv);
  if (rc == 0) rc = upq_send(u);
  if (rc < 0) {
    hg_log_warn("gateway.upstream", "sandbox=%s err=%s", sb->name, hg_err_str(rc));
    upq_finish(u, HG_DNS_SERVFAIL, NULL, 0, 0, false, "upstream_error", 0);
  }
}

/* ---- the DNS responder: questions ----------------------------------------------------
 */

static bool rate_ok(hg_gw_sandbox *sb, const char *name) {
  int64_t now = hg_now_ms();
  if (hg_dns_limiter_take(&sb->limiter, (uint64_t)now)) return true;
  sb->gw->dns_limited++;
  sb->limited_quiet++;
  /* a tunnel at full speed would flood the log it is recorded in */
  if (now - sb->limited_logged_ms >= 1000) {
    hg_log_warn("gateway.dns_rate", "sandbox=%s refused=%llu", sb->name,
                (unsigned long long)sb->limited_quiet);
    dns_log(sb, name, 0, false, "rate_limited");
    sb->limited_logged_ms = now;
    sb->limited_quiet = 0;
  }
  return false;
}

static void handle_query(hg_gw_sandbox *sb, const uint8_t *msg, size_t len,
                         const dns_target *to) {
  hg_gateway *gw = sb->gw;
  hg_dns_query q;
  char text[HG_NAME_MAX + 1];
  gw->dns_queries++;
  int rc = hg_dns_parse_query(msg, len, &q);
  if (rc == -EMSGSIZE || rc == -EBADMSG) return; /* nothing to answer */
  const char *name = rc < 0 ? "" : q.name_err ? text : q.name;
  if (rc == 0 && q.name_err) hg_dns_name_text(q.qname, q.qname_len, text, sizeof text);
  if (!rate_ok(sb, name)) {
    if (rc == 0) reply(sb, &q, to, HG_DNS_REFUSED, NULL, 0, 0);
    return;
  }
  if (rc < 0) {
    reply_error(sb, msg, len, to, rc == -ENOTSUP ? HG_DNS_NOTIMP : HG_DNS_FORMERR);
    dns_log(sb, "", 0, false, "malformed");
    return;
  }
  const hg_policy *p = sb->policy;
  int rcode = HG_DNS_REFUSED;
  const char *reason = NULL;
  if (q.name_err) {
    reason = "bad_name"; /* a tunnel's label, say */
  } else if (q.qclass != HG_DNS_C_IN) {
    reason = "qclass";
  } else if (!hg_allow_name(p ? p->allow : NULL, q.name, strlen(q.name))) {
    rcode = HG_DNS_NXDOMAIN;
    reason = "not_allowed";
  } else if (q.qtype == HG_DNS_T_AAAA || q.qtype == HG_DNS_T_HTTPS ||
             q.qtype == HG_DNS_T_SVCB) {
    /* the name exists, but the guest gets no IPv6 and no ECH configs */
    rcode = HG_DNS_NOERROR;
    reason = "qtype";
  } else if (q.qtype != HG_DNS_T_A) {
    reason = "qtype";
  }
  if (reason) {
    reply(sb, &q, to, rcode, NULL, 0, 0);
    dns_log(sb, name, 0, false, reason);
    return;
  }

  dns_entry *e = cache_find(&sb->cache, q.name, name_hash(q.name));
  int64_t now = hg_now_ms();
  if (e && e->nlast > 0 && e->last_expires_ms > now) {
    uint32_t ttl = (uint32_t)((e->last_expires_ms - now + 999) / 1000);
    reply(sb, &q, to, HG_DNS_NOERROR, e->last, e->nlast, ttl);
    dns_log(sb, q.name, e->last[0], true, "cached");
    return;
  }
  if (!gw->have_upstream || sb->nupq >= GW_UPSTREAM_MAX) {
    reply(sb, &q, to, HG_DNS_SERVFAIL, NULL, 0, 0);
    dns_log(sb, q.name, 0, false, gw->have_upstream ? "busy" : "no_upstream");
    return;
  }
  upq_start(sb, &q, to);
}

static void udp_alloc(uv_handle_t *h, size_t suggested, uv_buf_t *buf) {
  listener *l = h->data;
  *buf = uv_buf_init((char *)l->sb->udp_buf, sizeof l->sb->udp_buf);
}

static void udp_recv(uv_udp_t *h, ssize_t nread, const uv_buf_t *buf,
                     const struct sockaddr *addr, unsigned flags) {
  listener *l = h->data;
  if (nread <= 0 || !addr || addr->sa_family != AF_INET || (flags & UV_UDP_PARTIAL))
    return;
  dns_target to = {.addr = *(const struct sockaddr_in *)addr};
  handle_query(l->sb, (const uint8_t *)buf->base, (size_t)nread, &to);
}

/* ---- the DNS responder over TCP ------------------------------------------------------
 */

static void conn_handle_closed(uv_handle_t *h) {
  dns_conn *c = h->data;
  hg_gw_sandbox *sb = c->sb;
  sb->handles--;
  if (--c->open == 0) free(c);
  sb_check(sb);
}

static void conn_close(dns_conn *c) {
  if (c->closing) return;
  hg_gw_sandbox *sb = c->sb;
  c->closing = true;
  HG_LIST_UNLINK(sb->conns, c);
  sb->nconns--;
  if (c->pending) c->pending->to.conn = NULL;
  c->pending = NULL;
  uv_close((uv_handle_t *)&c->tcp, conn_handle_closed);
  uv_close((uv_handle_t *)&c->idle, conn_handle_closed);
}

static void conn_idle(uv_timer_t *t) {
  conn_close(t->data);
}

static void conn_alloc(uv_handle_t *h, size_t suggested, uv_buf_t *buf) {
  dns_conn *c = h->data;
  *buf = uv_buf_init((char *)c->in + c->len, (unsigned)(sizeof c->in - c->len));
}

static void conn_read(uv_stream_t *s, ssize_t nread, const uv_buf_t *buf) {
  dns_conn *c = s->data;
  if (nread == 0) return;
  if (nread < 0) {
    conn_close(c);
    return;
  }
  c->len += (size_t)nread;
  uv_timer_again(&c->idle);
  conn_process(c);
}

static void conn_written(uv_write_t *w, int status) {
  dns_conn *c = w->data;
  c->writing = false;
  if (c->closing) return;
  if (status < 0)
    conn_close(c);
  else
    conn_process(c);
}

static void conn_send(dns_conn *c, const uint8_t *msg, size_t len) {
  if (c->closing || c->writing || len > sizeof c->out - 2) return;
  c->out[0] = (uint8_t)(len >> 8);
  c->out[1] = (uint8_t)len;
  memcpy(c->out + 2, msg, len);
  uv_buf_t b = uv_buf_init((char *)c->out, (unsigned)(len + 2));
  c->wreq.data = c;
  if (uv_write(&c->wreq, (uv_stream_t *)&c->tcp, &b, 1, conn_written) < 0)
    conn_close(c);
  else
    c->writing = true;
}

/* One question at a time: reading stops while one is being answered, so a
 * guest that pipelines gets answers in order and no more buffering than
 * one message. */
static void conn_process(dns_conn *c) {
  while (!c->closing && !c->pending && !c->writing && c->len >= 2) {
    size_t mlen = (size_t)c->in[0] << 8 | c->in[1];
    if (mlen == 0 || mlen > GW_DNS_TCP_MAX) {
      conn_close(c);
      return;
    }
    if (c->len < 2 + mlen) break;
    uint8_t msg[GW_DNS_TCP_MAX];
    memcpy(msg, c->in + 2, mlen);
    c->len -= 2 + mlen;
    memmove(c->in, c->in + 2 + mlen, c->len);
    dns_target to = {.conn = c};
    handle_query(c->sb, msg, mlen, &to);
  }
  if (c->closing) return;
  bool want = !c->pending && !c->writing;
  if (want && !c->reading) {
    if (uv_read_start((uv_stream_t *)&c->tcp, conn_alloc, conn_read) < 0) {
      conn_close(c);
      return;
    }
  } else if (!want && c->reading) {
    uv_read_stop((uv_stream_t *)&c->tcp);
  }
  c->reading = want;
}

static void close_free(uv_handle_t *h) {
  free(h);
}

/* Takes a connection off the queue and closes it: libuv stops watching a
 * listener whose connection is not accepted. */
static void reject_connection(uv_stream_t *server) {
  uv_tcp_t *t = malloc(sizeof *t);
  if (!t) return;
  uv_tcp_init(server->loop, t);
  uv_accept(server, (uv_stream_t *)t);
  uv_close((uv_handle_t *)t, close_free);
}

static void conn_accept(hg_gw_sandbox *sb, uv_stream_t *server) {
  dns_conn *c = sb->nconns < GW_DNS_TCP_CONNS ? calloc(1, sizeof *c) : NULL;
  if (!c) {
    reject_connection(server);
    return;
  }
  c->sb = sb;
  uv_tcp_init(server->loop, &c->tcp);
  uv_timer_init(server->loop, &c->idle);
  c->tcp.data = c->idle.data = c;
  c->open = 2;
  sb->handles += 2;
  HG_LIST_PUSH(sb->conns, c);
  sb->nconns++;
  if (uv_accept(server, (uv_stream_t *)&c->tcp) < 0 ||
      uv_timer_start(&c->idle, conn_idle, GW_DNS_TCP_IDLE_MS, GW_DNS_TCP_IDLE_MS) < 0) {
    conn_close(c);
    return;
  }
  conn_process(c);
}

/* ---- listeners ------------------------------------------------------------------------
 */

static const struct {
  int type;
  uint16_t port;
} listen_spec[L_COUNT] = {
    [L_DNS_UDP] = {SOCK_DGRAM, HG_GW_DNS_PORT},
    [L_DNS_TCP] = {SOCK_STREAM, HG_GW_DNS_PORT},
    [L_HTTP] = {SOCK_STREAM, HG_GW_HTTP_PORT},
    [L_HTTPS] = {SOCK_STREAM, HG_GW_HTTPS_PORT},
    [L_RELAY] = {SOCK_STREAM, HG_GW_RELAY_PORT},
};

static void on_connection(uv_stream_t *server, int status) {
  listener *l = server->data;
  hg_gw_sandbox *sb = l->sb;
  if (status < 0) {
    hg_log_warn("gateway.accept", "sandbox=%s err=%s", sb->name, uv_strerror(status));
    return;
  }
  if (l->kind == L_DNS_TCP) {
    conn_accept(sb, server);
  } else if (!sb->proxies) {
    reject_connection(server);
  } else {
    hg_proxy_kind kind = l->kind == L_HTTP    ? HG_PROXY_HTTP
                         : l->kind == L_HTTPS ? HG_PROXY_TLS
                                              : HG_PROXY_RELAY;
    hg_proxy_accept(sb, server, kind);
  }
}

static void listener_closed(uv_handle_t *h) {
  listener *l = h->data;
  hg_gw_sandbox *sb = l->sb;
  free(l);
  sb->handles--;
  sb_check(sb);
}

static void listeners_close(hg_gw_sandbox *sb) {
  for (int i = 0; i < L_COUNT; i++) {
    if (!sb->ls[i]) continue;
    uv_close(&sb->ls[i]->u.h, listener_closed);
    sb->ls[i] = NULL;
  }
  sb->listening = false;
}

/* Takes ownership of fd (closed on failure). */
static int listener_start(hg_gw_sandbox *sb, lkind kind, int fd) {
  uv_loop_t *loop = &sb->gw->loop;
  listener *l = calloc(1, sizeof *l);
  if (!l) {
    close(fd);
    return -ENOMEM;
  }
  l->sb = sb;
  l->kind = kind;
  int rc;
  if (kind == L_DNS_UDP)
    uv_udp_init(loop, &l->u.udp);
  else
    uv_tcp_init(loop, &l->u.tcp);
  l->u.h.data = l;
  sb->ls[kind] = l;
  sb->handles++;
  if (kind == L_DNS_UDP) {
    rc = uv_udp_open(&l->u.udp, fd);
    if (rc < 0)
      close(fd);
    else
      rc = uv_udp_recv_start(&l->u.udp, udp_alloc, udp_recv);
  } else {
    rc = uv_tcp_open(&l->u.tcp, fd);
    if (rc < 0)
      close(fd);
    else
      rc = uv_listen(&l->u.s, GW_LISTEN_BACKLOG, on_connection);
  }
  return rc;
}

/* All five or none. The sockets are made inside the namespace, bound to
 * the gateway's address on the tap (so the tap must be configured). */
static int listeners_open(hg_gw_sandbox *sb) {
  hg_netns_link link;
  hg_netns_link_default(&link);
  int fds[L_COUNT], rc = 0, i;
  for (i = 0; i < L_COUNT && rc == 0; i++) {
    struct sockaddr_in a = {.sin_family = AF_INET,
                            .sin_port = htons(listen_spec[i].port),
                            .sin_addr = link.gw_ip};
    rc = hg_netns_listen(sb->ns, listen_spec[i].type, &a, GW_LISTEN_BACKLOG, &fds[i]);
  }
  if (rc < 0) {
    for (int k = 0; k < i - 1; k++) close(fds[k]);
    return rc;
  }
  for (i = 0; i < L_COUNT; i++) {
    int err = listener_start(sb, (lkind)i, fds[i]);
    if (err < 0 && rc == 0) rc = err;
  }
  if (rc < 0) {
    listeners_close(sb);
    return rc;
  }
  sb->listening = true;
  return 0;
}

/* ---- sandboxes
 * ------------------------------------------------------------------------- */

static hg_gw_sandbox *sb_find(hg_gateway *gw, const char *name) {
  for (hg_gw_sandbox *sb = gw->sandboxes; sb; sb = sb->next)
    if (strcmp(sb->name, name) == 0) return sb;
  return NULL;
}

static hg_gw_sandbox *sb_get(hg_gateway *gw, const char *name) {
  hg_gw_sandbox *sb = sb_find(gw, name);
  if (sb) {
    sb->forgotten = false;
    return sb;
  }
  if (!(sb = calloc(1, sizeof *sb))) return NULL;
  sb->gw = gw;
  snprintf(sb->name, sizeof sb->name, "%s", name);
  hg_dns_limiter_init(&sb->limiter, gw->dns_rate, gw->dns_rate * 2,
                      (uint64_t)hg_now_ms());
  sb->next = gw->sandboxes;
  gw->sandboxes = sb;
  return sb;
}

static void sb_free(hg_gw_sandbox *sb) {
  hg_gateway *gw = sb->gw;
  hg_gw_sandbox **pp = &gw->sandboxes;
  while (*pp && *pp != sb) pp = &(*pp)->next;
  if (*pp) *pp = sb->next;
  cache_clear(&sb->cache);
  hg_policy_free(sb->policy);
  hg_netns_close(sb->ns);
  if (sb->proxies) hg_proxy_set_free(sb->proxies); /* left if close_all never ended */
  free(sb->log);
  free(sb);
}

static void rules_config(const hg_gw_sandbox *sb, hg_nft_config *cfg) {
  memset(cfg, 0, sizeof *cfg);
  hg_netns_link_default(&cfg->link);
  cfg->dns_port = HG_GW_DNS_PORT;
  cfg->http_port = HG_GW_HTTP_PORT;
  cfg->https_port = HG_GW_HTTPS_PORT;
  cfg->relay_port = HG_GW_RELAY_PORT;
  if (sb->policy) {
    cfg->allow = sb->policy->nft;
    cfg->n_allow = sb->policy->nnft;
  }
}

static int rules_set_allow(hg_gw_sandbox *sb) {
  const hg_policy *p = sb->policy;
  int rc = hg_nft_set_allow(sb->ns, p ? p->nft : NULL, p ? p->nnft : 0);
  if (rc < 0)
    hg_log_error("gateway.allow_set", "sandbox=%s err=%s", sb->name, hg_err_str(rc));
  return rc;
}

/* Listeners and proxy state for an open namespace. */
static int sb_serve(hg_gw_sandbox *sb) {
  int rc = sb->listening ? 0 : listeners_open(sb);
  if (rc == 0 && !sb->proxies && !(sb->proxies = hg_proxy_set_new())) rc = -ENOMEM;
  return rc;
}

static int sb_attach(hg_gw_sandbox *sb, int *tap_fd) {
  hg_gateway *gw = sb->gw;
  bool fresh = false;
  int rc = 0, fd = -1;
  if (!sb->ns) {
    rc = hg_netns_create(gw->netns_dir, sb->name, &sb->ns);
    if (rc == 0)
      fresh = true;
    else if (rc == -EEXIST)
      rc = hg_netns_open(gw->netns_dir, sb->name, &sb->ns);
    if (rc < 0) return rc;
  }
  hg_nft_config cfg;
  rules_config(sb, &cfg);
  /* a fresh namespace needs its tap even when the caller wants no fd: the
   * listeners bind to the tap's address */
  if (tap_fd || fresh) rc = hg_netns_tap_create(sb->ns, &cfg.link, &fd);
  if (rc == 0) rc = hg_nft_apply(sb->ns, &cfg);
  if (rc == 0) rc = sb_serve(sb);
  if (rc < 0) {
    if (fd >= 0) close(fd);
    hg_log_error("gateway.attach", "sandbox=%s err=%s", sb->name, hg_err_str(rc));
    if (fresh) {
      listeners_close(sb);
      hg_netns_close(sb->ns);
      sb->ns = NULL;
      hg_netns_delete(gw->netns_dir, sb->name);
    }
    return rc;
  }
  if (tap_fd)
    *tap_fd = fd;
  else if (fd >= 0)
    close(fd);
  hg_log_info("gateway.attach", "sandbox=%s fresh=%d", sb->name, fresh);
  return 0;
}

static void sb_close_all(hg_gw_sandbox *sb);

static void proxies_closed(void *ud) {
  hg_gw_sandbox *sb = ud;
  hg_proxy_set_free(sb->proxies);
  sb->proxies = NULL;
  sb->proxies_closing = false;
  sb_check(sb);
}

/* Closes every socket of the sandbox (asynchronously: sb_check sees the
 * end). The namespace handle stays. */
static void sb_close_all(hg_gw_sandbox *sb) {
  while (sb->upqs) upq_close(sb->upqs);
  while (sb->conns) conn_close(sb->conns);
  listeners_close(sb);
  if (sb->proxies && !sb->proxies_closing) {
    sb->proxies_closing = true;
    hg_proxy_close_all(sb, proxies_closed, sb); /* may call back at once */
  }
}

static void req_done(hg_gateway *gw, gw_req *r, int rc);

/* Called whenever something of sb finished closing. */
static void sb_check(hg_gw_sandbox *sb) {
  hg_gateway *gw = sb->gw;
  if (sb->handles > 0 || sb->proxies_closing) return;
  gw_req *r = sb->detaching;
  if (r) {
    sb->detaching = NULL;
    hg_netns_close(sb->ns);
    sb->ns = NULL;
    int rc = hg_netns_delete(gw->netns_dir, sb->name);
    if (rc < 0)
      hg_log_error("gateway.detach", "sandbox=%s err=%s", sb->name, hg_err_str(rc));
    else
      hg_log_info("gateway.detach", "sandbox=%s", sb->name);
    req_done(gw, r, rc);
    uv_async_send(&gw->wake); /* the queue waited for this */
  }
  if (sb->forgotten && !sb->ns && !gw->stopping) sb_free(sb);
}

static void counters_add(hg_nft_counters *sum, const hg_nft_counters *c) {
  hg_nft_counter *s = (hg_nft_counter *)sum;
  const hg_nft_counter *a = (const hg_nft_counter *)c;
  for (size_t i = 0; i < sizeof *sum / sizeof *s; i++) {
    s[i].packets += a[i].packets;
    s[i].bytes += a[i].bytes;
  }
}

/* ---- requests on the gateway thread
 * ------------------------------------------------------ */

static void req_done(hg_gateway *gw, gw_req *r, int rc) {
  if (gw->busy == r) gw->busy = NULL;
  pthread_mutex_lock(&gw->lock);
  r->rc = rc;
  r->done = true;
  pthread_cond_signal(&r->cond);
  pthread_mutex_unlock(&gw->lock); /* r may be gone from here on */
}

/* Whatever state_dir holds, and every namespace under netns_dir: the
 * daemon restarted, the guests did not. */
static int op_recover(hg_gateway *gw) {
  DIR *d = opendir(gw->state_dir);
  for (struct dirent *e; d && (e = readdir(d)) != NULL;) {
    char name[HG_NETNS_NAME_MAX];
    size_t n = strlen(e->d_name);
    if (strstr(e->d_name, ".json.tmp.")) { /* a write the crash cut short */
      unlinkat(dirfd(d), e->d_name, 0);
      continue;
    }
    if (n <= 5 || n - 5 >= sizeof name || strcmp(e->d_name + n - 5, ".json") != 0)
      continue;
    memcpy(name, e->d_name, n - 5);
    name[n - 5] = '\0';
    hg_policy *p;
    if (!name_valid(name) || policy_load(gw, name, &p) < 0) continue;
    hg_gw_sandbox *sb = sb_get(gw, name);
    if (!sb) {
      hg_policy_free(p);
      closedir(d);
      return -ENOMEM;
    }
    hg_policy_free(sb->policy);
    sb->policy = p;
  }
  if (d) closedir(d);

  char **names;
  size_t count;
  int rc = hg_netns_list(gw->netns_dir, &names, &count);
  if (rc < 0) return rc;
  for (size_t i = 0; i < count; i++) {
    hg_gw_sandbox *sb = sb_get(gw, names[i]);
    if (!sb) {
      rc = -ENOMEM;
      break;
    }
    int err = hg_netns_open(gw->netns_dir, sb->name, &sb->ns);
    if (err == 0) {
      /* the rules outlived us; the allow set may lag the policy file if
       * we died between the two */
      const hg_policy *p = sb->policy;
      err = hg_nft_set_allow(sb->ns, p ? p->nft : NULL, p ? p->nnft : 0);
      if (err == -ENOENT) {
        hg_nft_config cfg;
        rules_config(sb, &cfg);
        err = hg_nft_apply(sb->ns, &cfg);
      }
      int serr = sb_serve(sb);
      if (err == 0) err = serr;
    }
    if (err < 0)
      hg_log_error("gateway.recover", "sandbox=%s err=%s", sb->name, hg_err_str(err));
    else
      hg_log_info("gateway.recover", "sandbox=%s policy=%d", sb->name,
                  sb->policy != NULL);
  }
  hg_netns_list_free(names);
  return rc;
}

/* Returns 1 when the request completes later (sb_check). */
static int op_detach(hg_gateway *gw, gw_req *r) {
  hg_gw_sandbox *sb = sb_find(gw, r->name);
  if (!sb || !sb->ns) {
    r->rc = hg_netns_delete(gw->netns_dir, r->name); /* a leftover, or nothing */
    return 0;
  }
  hg_nft_counters c;
  if (hg_nft_counters_read(sb->ns, &c) == 0) counters_add(&gw->retired, &c);
  sb->detaching = r;
  sb_close_all(sb);
  sb_check(sb);
  return 1;
}

static int op_set_policy(hg_gateway *gw, gw_req *r) {
  hg_policy *np = NULL;
  int rc = r->policy ? policy_copy(r->policy, &np) : 0;
  if (rc < 0) return rc;
  hg_gw_sandbox *sb = sb_get(gw, r->name);
  if (!sb || (rc = policy_save(gw, r->name, np)) < 0) {
    hg_policy_free(np);
    return sb ? rc : -ENOMEM;
  }
  hg_policy *old = sb->policy;
  sb->policy = np;
  if (sb->ns) {
    rc = rules_set_allow(sb);
    if (sb->proxies) hg_proxy_recheck(sb);
  }
  hg_policy_free(old); /* after the recheck: see hg_gw_policy */
  hg_log_info("gateway.policy", "sandbox=%s allow=%zu credentials=%zu", sb->name,
              np ? hg_allow_count(np->allow) : 0, np ? np->ncreds : 0);
  return rc;
}

/* A fork starts with its parent's policy, secrets included: the copy is
 * made here, so no secret ever leaves the gateway to make it. */
static int op_copy_policy(hg_gateway *gw, gw_req *r) {
  hg_gw_sandbox *src = sb_find(gw, r->from);
  if (!src) return -ENOENT;
  if (!src->policy) return 0;
  r->policy = src->policy;
  return op_set_policy(gw, r);
}

static int op_forget(hg_gateway *gw, gw_req *r) {
  policy_save(gw, r->name, NULL);
  hg_gw_sandbox *sb = sb_find(gw, r->name);
  if (!sb) return 0;
  hg_policy *old = sb->policy;
  sb->policy = NULL;
  if (old && sb->ns) {
    rules_set_allow(sb);
    if (sb->proxies) hg_proxy_recheck(sb);
  }
  hg_policy_free(old);
  free(sb->log);
  sb->log = NULL;
  sb->log_cap = sb->log_head = sb->log_len = 0;
  cache_clear(&sb->cache);
  sb->forgotten = true;
  sb_check(sb);
  return 0;
}

static void metrics_write(hg_gateway *gw, hg_buf *out) {
  hg_nft_counters sum = gw->retired;
  size_t attached = 0, read = 0;
  for (hg_gw_sandbox *sb = gw->sandboxes; sb; sb = sb->next) {
    if (!sb->ns) continue;
    attached++;
    hg_nft_counters c;
    /* a netlink round trip each: bounded per scrape */
    if (read < GW_METRICS_NFT_MAX && hg_nft_counters_read(sb->ns, &c) == 0) {
      counters_add(&sum, &c);
      read++;
    }
  }
  hg_buf_printf(out, "# TYPE hangar_gateway_decisions_total counter\n");
  for (int p = 0; p < P_COUNT; p++)
    for (int v = 1; v >= 0; v--)
      hg_buf_printf(
          out, "hangar_gateway_decisions_total{proto=\"%s\",verdict=\"%s\"} %llu\n",
          proto_names[p], v ? "allow" : "deny", (unsigned long long)gw->decisions[p][v]);
  hg_buf_printf(out,
                "# TYPE hangar_gateway_sandboxes gauge\nhangar_gateway_sandboxes %zu\n"
                "# TYPE hangar_gateway_dns_queries_total counter\n"
                "hangar_gateway_dns_queries_total %llu\n"
                "# TYPE hangar_gateway_dns_rate_limited_total counter\n"
                "hangar_gateway_dns_rate_limited_total %llu\n"
                "# TYPE hangar_gateway_dropped_packets_total counter\n",
                attached, (unsigned long long)gw->dns_queries,
                (unsigned long long)gw->dns_limited);
  static const char *const names[] = {"spoof_mac", "spoof_arp", "spoof_ip",
                                      "ipv6",      "l2_other",  "egress",
                                      "input",     "forward",   "output"};
  const hg_nft_counter *c = (const hg_nft_counter *)&sum;
  _Static_assert(sizeof(hg_nft_counters) ==
                     sizeof(names) / sizeof(names[0]) * sizeof(hg_nft_counter),
                 "counter names match hg_nft_counters");
  for (size_t i = 0; i < HG_ARRAY_SIZE(names); i++)
    hg_buf_printf(out, "hangar_gateway_dropped_packets_total{counter=\"%s\"} %llu\n",
                  names[i], (unsigned long long)c[i].packets);
}

static void op_stop(hg_gateway *gw) {
  gw->stopping = true;
  for (hg_gw_sandbox *sb = gw->sandboxes; sb; sb = sb->next) sb_close_all(sb);
  uv_close((uv_handle_t *)&gw->wake, NULL);
}

static void run_req(hg_gateway *gw, gw_req *r) {
  hg_gw_sandbox *sb;
  int rc = 0;
  switch (r->op) {
    case OP_RECOVER:
      rc = op_recover(gw);
      break;
    case OP_ATTACH:
      sb = sb_get(gw, r->name);
      rc = sb ? sb_attach(sb, r->fd) : -ENOMEM;
      break;
    case OP_DETACH:
      if (op_detach(gw, r)) return;
      rc = r->rc;
      break;
    case OP_SET_POLICY:
      rc = op_set_policy(gw, r);
      break;
    case OP_COPY_POLICY:
      rc = op_copy_policy(gw, r);
      break;
    case OP_GET_POLICY:
      sb = sb_find(gw, r->name);
      if (!sb)
        rc = -ENOENT;
      else if (!(*r->json = sb->policy ? hg_policy_json(sb->policy, true) : json_null()))
        rc = -ENOMEM;
      break;
    case OP_FORGET:
      rc = op_forget(gw, r);
      break;
    case OP_LOG:
      *r->json = log_json(sb_find(gw, r->name));
      rc = *r->json ? 0 : -ENOMEM;
      break;
    case OP_METRICS:
      metrics_write(gw, r->buf);
      break;
    case OP_SOCKET:
      sb = sb_find(gw, r->name);
      rc = sb && sb->ns ? hg_netns_socket(sb->ns, AF_INET, SOCK_STREAM, 0, r->fd)
                        : -ENOENT;
      break;
    case OP_RUN:
      sb = sb_find(gw, r->name);
      if (sb) r->fn(sb, r->arg);
      rc = sb ? 0 : -ENOENT;
      break;
    case OP_STOP:
      op_stop(gw); /* the caller joins the thread instead of waiting */
      gw->busy = NULL;
      return;
  }
  req_done(gw, r, rc);
}

static void on_wake(uv_async_t *a) {
  hg_gateway *gw = a->data;
  while (!gw->busy && !gw->stopping) {
    pthread_mutex_lock(&gw->lock);
    gw_req *r = gw->q_head;
    if (r && !(gw->q_head = r->next)) gw->q_tail = NULL;
    pthread_mutex_unlock(&gw->lock);
    if (!r) return;
    gw->busy = r;
    run_req(gw, r);
  }
}

/* Hands r to the gateway thread and waits for it; a stop request is only
 * handed over (the caller joins the thread). */
static int gw_call(hg_gateway *gw, gw_req *r) {
  uv_thread_t self = uv_thread_self();
  if (uv_thread_equal(&self, &gw->thread)) return -EDEADLK;
  bool wait = r->op != OP_STOP;
  if (wait) pthread_cond_init(&r->cond, NULL);
  pthread_mutex_lock(&gw->lock);
  if (gw->closed) {
    pthread_mutex_unlock(&gw->lock);
    if (wait) pthread_cond_destroy(&r->cond);
    return -ESHUTDOWN;
  }
  if (gw->q_tail)
    gw->q_tail->next = r;
  else
    gw->q_head = r;
  gw->q_tail = r;
  gw->closed = !wait;
  pthread_mutex_unlock(&gw->lock);
  uv_async_send(&gw->wake);
  if (!wait) return 0;
  pthread_mutex_lock(&gw->lock);
  while (!r->done) pthread_cond_wait(&r->cond, &gw->lock);
  pthread_mutex_unlock(&gw->lock);
  pthread_cond_destroy(&r->cond);
  return r->rc;
}

/* ---- provided to proxy.c
 * ----------------------------------------------------------------- */

uv_loop_t *hg_gw_loop(hg_gw_sandbox *sb) {
  return &sb->gw->loop;
}
const char *hg_gw_name(hg_gw_sandbox *sb) {
  return sb->name;
}
const hg_policy *hg_gw_policy(hg_gw_sandbox *sb) {
  return sb->policy;
}
bool hg_gw_addr_denied(hg_gw_sandbox *sb, uint32_t ip) {
  return hg_addr_denied(&sb->gw->deny, ip) != 0;
}
hg_proxy_set *hg_gw_proxies(hg_gw_sandbox *sb) {
  return sb->proxies;
}

int hg_gw_run(hg_gateway *gw, const char *name, void (*fn)(hg_gw_sandbox *sb, void *arg),
              void *arg) {
  if (!gw || !name || !fn) return -EINVAL;
  gw_req r = {.op = OP_RUN, .name = name, .fn = fn, .arg = arg};
  return gw_call(gw, &r);
}

/* ---- the public calls
 * ----------------------------------------------------------------------- */

/* "a.b.c.d:port" or "a.b.c.d" (port 53). */
static int upstream_parse(const char *s, struct sockaddr_in *out) {
  char host[64];
  int port;
  uint32_t ip;
  if (hg_hostport_split(s, host, sizeof host, 53, &port) < 0 || port == 0 ||
      hg_ipv4_parse(host, strlen(host), &ip) < 0)
    return -EINVAL;
  memset(out, 0, sizeof *out);
  out->sin_family = AF_INET;
  out->sin_port = htons((uint16_t)port);
  out->sin_addr.s_addr = htonl(ip);
  return 0;
}

/* The first IPv4 nameserver of /etc/resolv.conf. */
static int upstream_default(struct sockaddr_in *out) {
  FILE *f = fopen("/etc/resolv.conf", "re");
  if (!f) return -errno;
  char line[512], ns[64];
  int rc = -ENOENT;
  while (rc < 0 && fgets(line, sizeof line, f))
    if (sscanf(line, " nameserver %63s", ns) == 1 && upstream_parse(ns, out) == 0 &&
        !strchr(ns, ':'))
      rc = 0;
  fclose(f);
  return rc;
}

static int deny_parse(hg_denylist *d, const char *s) {
  hg_denylist_init(d);
  while (s && *s) {
    size_t n = strcspn(s, ",");
    const char *p = s;
    size_t len = n;
    while (len && *p == ' ') p++, len--;
    while (len && p[len - 1] == ' ') len--;
    if (len && hg_denylist_add(d, p, len) < 0) return -EINVAL;
    s += n + (s[n] == ',');
  }
  return 0;
}

static void gw_thread(void *arg) {
  hg_gateway *gw = arg;
  uv_run(&gw->loop, UV_RUN_DEFAULT);
}

static void gw_free(hg_gateway *gw) {
  while (gw->sandboxes) sb_free(gw->sandboxes);
  if (uv_loop_close(&gw->loop) < 0) hg_log_error("gateway.stop", "err=loop_busy");
  pthread_mutex_destroy(&gw->lock);
  free(gw);
}

int hg_gateway_start(const hg_gateway_config *cfg, hg_gateway **out) {
  if (!cfg || !out || !cfg->netns_dir || !cfg->state_dir) return -EINVAL;
  hg_gateway *gw = calloc(1, sizeof *gw);
  if (!gw) return -ENOMEM;
  int rc = hg_path(gw->netns_dir, sizeof gw->netns_dir, "%s", cfg->netns_dir);
  if (rc == 0) rc = hg_path(gw->state_dir, sizeof gw->state_dir, "%s", cfg->state_dir);
  if (rc == 0 && cfg->upstream_dns) {
    rc = upstream_parse(cfg->upstream_dns, &gw->upstream);
    gw->have_upstream = rc == 0;
  } else if (rc == 0) {
    int err = upstream_default(&gw->upstream);
    gw->have_upstream = err == 0;
    if (err < 0)
      hg_log_warn("gateway.upstream", "msg=\"no IPv4 nameserver in /etc/resolv.conf\"");
  }
  if (rc == 0) rc = deny_parse(&gw->deny, cfg->deny);
  if (rc < 0) {
    hg_log_error("gateway.config", "upstream=%s deny=%s err=%s",
                 cfg->upstream_dns ? cfg->upstream_dns : "-", cfg->deny ? cfg->deny : "-",
                 hg_err_str(rc));
    free(gw);
    return rc;
  }
  gw->log_max = cfg->log_max ? cfg->log_max : GW_LOG_MAX_DEFAULT;
  gw->dns_rate = cfg->dns_rate ? cfg->dns_rate : GW_DNS_RATE_DEFAULT;
  if ((rc = hg_mkdir_p(gw->state_dir, 0700)) < 0 || (rc = uv_loop_init(&gw->loop)) < 0) {
    free(gw);
    return rc;
  }
  uv_async_init(&gw->loop, &gw->wake, on_wake);
  gw->wake.data = gw;
  pthread_mutex_init(&gw->lock, NULL);

  /* the thread takes no process signals: they belong to the main loop */
  sigset_t all, old;
  sigfillset(&all);
  pthread_sigmask(SIG_SETMASK, &all, &old);
  rc = uv_thread_create(&gw->thread, gw_thread, gw);
  pthread_sigmask(SIG_SETMASK, &old, NULL);
  if (rc < 0) {
    uv_close((uv_handle_t *)&gw->wake, NULL);
    uv_run(&gw->loop, UV_RUN_DEFAULT);
    gw_free(gw);
    return rc;
  }
  gw_req r = {.op = OP_RECOVER};
  rc = gw_call(gw, &r);
  if (rc < 0) hg_log_error("gateway.recover", "err=%s", hg_err_str(rc));
  char up[INET_ADDRSTRLEN] = "-";
  if (gw->have_upstream) ip_text(ntohl(gw->upstream.sin_addr.s_addr), up);
  hg_log_info("gateway.start", "netns_dir=%s upstream=%s:%u", gw->netns_dir, up,
              ntohs(gw->upstream.sin_port));
  *out = gw;
  return 0;
}

void hg_gateway_stop(hg_gateway *gw) {
  if (!gw) return;
  gw_req r = {.op = OP_STOP};
  if (gw_call(gw, &r) < 0) return; /* from the gateway thread: cannot join itself */
  uv_thread_join(&gw->thread);
  gw_free(gw);
}

int hg_gateway_attach(hg_gateway *gw, const char *name, int *tap_fd) {
  if (!gw || !name_valid(name)) return -EINVAL;
  gw_req r = {.op = OP_ATTACH, .name = name, .fd = tap_fd};
  return gw_call(gw, &r);
}

int hg_gateway_detach(hg_gateway *gw, const char *name) {
  if (!gw || !name_valid(name)) return -EINVAL;
  gw_req r = {.op = OP_DETACH, .name = name};
  return gw_call(gw, &r);
}

int hg_gateway_set_policy(hg_gateway *gw, const char *name, const hg_policy *p) {
  if (!gw || !name_valid(name) || (p && !p->src)) return -EINVAL;
  gw_req r = {.op = OP_SET_POLICY, .name = name, .policy = p};
  return gw_call(gw, &r);
}

int hg_gateway_copy_policy(hg_gateway *gw, const char *from, const char *to) {
  if (!gw || !name_valid(from) || !name_valid(to)) return -EINVAL;
  gw_req r = {.op = OP_COPY_POLICY, .name = to, .from = from};
  return gw_call(gw, &r);
}

int hg_gateway_get_policy(hg_gateway *gw, const char *name, json_t **out) {
  if (!gw || !out || !name_valid(name)) return -EINVAL;
  json_t *j = NULL;
  gw_req r = {.op = OP_GET_POLICY, .name = name, .json = &j};
  int rc = gw_call(gw, &r);
  if (rc == 0) *out = j;
  return rc;
}

void hg_gateway_forget(hg_gateway *gw, const char *name) {
  if (!gw || !name_valid(name)) return;
  gw_req r = {.op = OP_FORGET, .name = name};
  gw_call(gw, &r);
}

json_t *hg_gateway_egress_log(hg_gateway *gw, const char *name) {
  if (!gw || !name_valid(name)) return json_array();
  json_t *j = NULL;
  gw_req r = {.op = OP_LOG, .name = name, .json = &j};
  return gw_call(gw, &r) == 0 ? j : NULL;
}

void hg_gateway_metrics(hg_gateway *gw, hg_buf *out) {
  if (!gw || !out) return;
  gw_req r = {.op = OP_METRICS, .buf = out};
  gw_call(gw, &r);
}

int hg_gateway_connect_guest(hg_gateway *gw, const char *name, uint16_t port, int *fd) {
  if (!gw || !fd || port == 0 || !name_valid(name)) return -EINVAL;
  int s = -1;
  gw_req r = {.op = OP_SOCKET, .name = name, .fd = &s};
  int rc = gw_call(gw, &r);
  if (rc < 0) return rc;
  /* the connect itself runs here, on the caller's thread: it can take
   * seconds and the gateway loop must not wait for it */
  hg_netns_link link;
  hg_netns_link_default(&link);
  struct sockaddr_in a = {
      .sin_family = AF_INET, .sin_port = htons(port), .sin_addr = link.guest_ip};
  int flags = fcntl(s, F_GETFL);
  if (flags < 0 || fcntl(s, F_SETFL, flags | O_NONBLOCK) < 0) rc = -errno;
  if (rc == 0 && connect(s, (struct sockaddr *)&a, sizeof a) < 0) {
    rc = errno == EINPROGRESS ? 0 : -errno;
    struct pollfd p = {.fd = s, .events = POLLOUT};
    int n = 0;
    while (rc == 0 && (n = poll(&p, 1, GW_CONNECT_TIMEOUT_MS)) < 0 && errno == EINTR) {
    }
    if (rc == 0 && n < 0)
      rc = -errno;
    else if (rc == 0 && n == 0)
      rc = -ETIMEDOUT;
    int err = 0;
    socklen_t len = sizeof err;
    if (rc == 0 && getsockopt(s, SOL_SOCKET, SO_ERROR, &err, &len) < 0) rc = -errno;
    if (rc == 0 && err) rc = -err;
  }
  if (rc == 0 && fcntl(s, F_SETFL, flags) < 0) rc = -errno;
  if (rc < 0) {
    close(s);
    return rc;
  }
  *fd = s;
  return 0;
}
