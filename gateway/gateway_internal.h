/* gateway_internal: what gateway.c, policy.c and resolver.c share: the
 * gateway's and a sandbox's state, and the calls between the files. Not
 * for proxy.c (gw.h is its view) nor for other folders (gateway.h). */
#ifndef HG_GATEWAY_GATEWAY_INTERNAL_H
#define HG_GATEWAY_GATEWAY_INTERNAL_H

#include <limits.h>
#include <netinet/in.h>
#include <pthread.h>
#include <stdatomic.h>

#include "gateway/dns.h"
#include "gateway/gw.h"
#include "node/core/buf.h"
#include "node/core/closer.h"

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
#define GW_METRICS_NFT_MAX 256  /* sandboxes whose counters one refresh reads */
#define GW_METRICS_NFT_REFRESH_MS 1000 /* counters read at most this often */
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
  hg_closer closer; /* tcp and idle; frees the conn */
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
  hg_closer closer; /* its socket and timer; frees the query */
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
  hg_closer closer; /* every uv handle of this sandbox; settles it (sb_settle) */
  dns_conn *conns;
  size_t nconns;
  upq *upqs;
  size_t nupq;
  hg_nft_counters nft_last; /* drop counters at the last refresh */
  dns_cache cache;
  hg_dns_limiter limiter;
  int64_t limited_logged_ms;
  uint64_t limited_quiet; /* refused since the last log line */
  log_entry *log;
  size_t log_cap, log_head, log_len;
  uint8_t udp_buf[GW_DNS_UDP_BUF];
};

enum { P_DNS, P_HTTP, P_TLS, P_TCP, P_OTHER, P_COUNT };

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
  int64_t nft_read_ms;      /* last refresh of the sandboxes' nft_last */
  bool nft_refreshed;
  /* read from any thread (hg_gateway_stats_get) */
  atomic_uint_fast64_t nft_refreshes, nft_reads;
};

/* ---- gateway.c ---- */

/* ---- policy.c ---- */

/* The gateway's own copy of a caller's policy. */
int hg__gateway_policy_copy(const hg_policy *p, hg_policy **out);
/* state_dir/<name>.json, 0600: it holds the credentials. NULL removes it. */
int hg__gateway_policy_save(hg_gateway *gw, const char *name, const hg_policy *p);
int hg__gateway_policy_load(hg_gateway *gw, const char *name, hg_policy **out);

/* ---- resolver.c ---- */

/* Forgets every answer (a new policy, a detach). */
void hg__gateway_cache_clear(dns_cache *c);
/* Close an upstream query, a TCP DNS connection (the sandbox's close). */
void hg__gateway_upq_close(upq *u);
void hg__gateway_conn_close(dns_conn *c);
/* Takes a connection off the queue and closes it: libuv stops watching a
 * listener whose connection is not accepted. */
void hg__gateway_reject_connection(uv_stream_t *server);
/* The DNS listeners' callbacks: a TCP connection, a UDP question. */
void hg__gateway_conn_accept(hg_gw_sandbox *sb, uv_stream_t *server);
void hg__gateway_dns_udp_alloc(uv_handle_t *h, size_t suggested, uv_buf_t *buf);
void hg__gateway_dns_udp_recv(uv_udp_t *h, ssize_t nread, const uv_buf_t *buf,
                              const struct sockaddr *addr, unsigned flags);

#endif
