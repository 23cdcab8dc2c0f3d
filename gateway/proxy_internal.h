/* proxy_internal: what proxy.c, proxy_http.c and proxy_upgrade.c share: a
 * connection, the set of a sandbox's connections, and the calls between
 * the files. Not for gateway.c (gw.h) nor other folders. */
#ifndef HG_GATEWAY_PROXY_INTERNAL_H
#define HG_GATEWAY_PROXY_INTERNAL_H

#include <curl/curl.h>
#include <stdbool.h>

#include "gateway/httphead.h"
#include "gateway/mask.h"
#include "gateway/proxy.h"
#include "gateway/sni.h"
#include "node/core/buf.h"
#include "node/core/closer.h"
#include "node/core/curluv.h"

#define READ_CHUNK (64u * 1024)
/* Reads from the upstream: bodies and relayed bytes go by in big pieces,
 * fewer syscalls and wakeups per byte (a response head fits either way). */
#define UP_CHUNK (512u * 1024)
#define LINGER_MS 5000           /* a last answer to a guest that does not read */
#define CHUNK_LINE_MAX 4096      /* chunk-size line with extensions */
#define TRAILER_MAX (16u * 1024) /* trailer fields of a chunked body */
#define UPGRADE_HDRS_MAX (64u * 1024)

/* ---- types ------------------------------------------------------------------ */

typedef enum mode { M_HELLO, M_HTTP, M_RELAY } mode;
typedef enum req_state { REQ_HEAD, REQ_BODY, REQ_DONE } req_state;
typedef enum resp_state {
  RESP_IDLE,    /* no request in flight */
  RESP_HEAD,    /* reading the status line and fields */
  RESP_LENGTH,  /* body_left bytes */
  RESP_CHUNKED, /* chunked body */
  RESP_CLOSE,   /* body until the server closes */
  RESP_UPGRADE, /* libcurl has the request */
  RESP_DONE,
} resp_state;
typedef enum timer_use { T_NONE, T_HELLO, T_HEAD, T_DIAL, T_LINGER } timer_use;

typedef enum ck_state {
  CK_SIZE,
  CK_EXT,
  CK_SIZE_LF,
  CK_DATA,
  CK_DATA_CR,
  CK_DATA_LF,
  CK_TRAILER_START,
  CK_TRAILER,
  CK_TRAILER_LF,
  CK_END_LF,
  CK_DONE,
} ck_state;

/* Where a chunked body ends (RFC 9112 7.1), read strictly: the proxy must
 * agree with the server about the byte the next message starts at. */
typedef struct chunked {
  ck_state st;
  uint64_t size;
  unsigned digits;
  size_t line, trailer;
} chunked;

typedef struct side {
  uv_tcp_t tcp;
  bool init, closed, reading, eof, shut, shut_done;
  size_t wq; /* bytes queued for writing to this side */
} side;

/* An HTTP request sent upstream as HTTPS by libcurl. */
typedef struct upg {
  CURL *easy;
  struct curl_slist *hdrs, *connect_to;
  char *method, *target;
  hg_buf body, rhdrs, rbody;
  char reason[64];
  char head_cl[24]; /* Content-Length of a HEAD response */
  size_t held;      /* body bytes counted in the set's upg_bytes */
  bool is_head, has_body, expect_continue, too_big;
  bool coded; /* the answer has a coding the mask cannot read through */
} upg;

typedef struct conn {
  hg_proxy_set *ps;
  hg_gw_sandbox *sb;
  struct conn *prev, *next;
  hg_proxy_kind kind;
  mode mode;
  side guest, up;
  uv_timer_t timer;
  timer_use tuse;
  uv_connect_t creq;
  uv_shutdown_t sreq[2]; /* [0] guest, [1] upstream */
  hg_closer closer; /* guest, upstream, timer; frees c (conn_free) */
  bool timer_closed, closing, finishing, allowed, logged, reset, up_connected;
  uint32_t ip; /* the original destination, host byte order */
  uint16_t port;
  char name[HG_NAME_MAX + 1]; /* the verified name */
  uint64_t bytes_out, bytes_in;
  hg_buf in; /* guest bytes not yet passed on: the ClientHello, request heads */
  hg_sni sni;
  /* HTTP */
  hg_httphead head;
  req_state req;
  resp_state resp;
  hg_head_body body_kind;
  uint64_t body_left, resp_left;
  chunked req_ck, resp_ck;
  bool upgrade, req_is_head, close_after, resp_close, resp_started;
  bool ws_upgrade; /* the request offers Upgrade: websocket and nothing else */
  hg_buf rhead;
  /* The secrets in scope for the request in flight, masked in its
   * response; rechunk: its chunked body goes out decoded, masked and
   * chunked again (a secret may span chunks). */
  hg_mask mask;
  bool rechunk;
  upg u;
} conn;

struct hg_proxy_set {
  hg_gw_sandbox *sb;
  uv_loop_t *loop;
  conn *conns;
  size_t nconns; /* until freed, closing ones included */
  bool closing, done_called;
  void (*done)(void *ud);
  void *done_ud;
  int pending;      /* set-level handles being closed */
  size_t upg_bytes; /* request and response bodies of upgraded requests held */
  hg_curluv *cu;    /* HTTPS upstreams, from the first upgraded request */
};

typedef struct wreq {
  uv_write_t req;
  conn *c;
  side *s;
  char *mem; /* freed once written: data, or the read buffer data lies in */
  char *data;
  size_t len;
  size_t held;   /* counted in the side's wq: len, or mem's size */
  size_t budget; /* of the set's upg_bytes, given back once written */
} wreq;

/* A read buffer, while its bytes are being passed on. */
typedef struct rbuf {
  char *mem;  /* NULL once given away */
  size_t len; /* bytes read into it */
  size_t cap; /* its size */
} rbuf;

/* Credentials swapped into a request head (proxy_http.c). */
typedef struct subst {
  char *val[HG_HEAD_MAX_FIELDS]; /* new value of a field, NULL: unchanged */
  size_t len[HG_HEAD_MAX_FIELDS];
  bool upgrade;
} subst;

/* ---- proxy.c ---- */

bool hg__proxy_ieq(const char *a, size_t alen, const char *b);
bool hg__proxy_is_ows(char ch);
/* True when the comma-separated list v holds token tok (any case). */
bool hg__proxy_has_token(const char *v, size_t n, const char *tok);
/* True when the comma-separated list v names nothing but tok (any case;
 * empty elements do not count); *count (when not NULL): how many
 * elements it has. */
bool hg__proxy_list_only_of(const char *v, size_t n, const char *tok, size_t *count);
/* Fields a proxy does not pass on (RFC 9110 7.6.1), and those libcurl
 * writes itself for an upgraded request. */
bool hg__proxy_hop_by_hop(const char *name, size_t n);
const char *hg__proxy_check_name(conn *c, const char *name);
int hg__proxy_send_budget(conn *c, side *s, char *data, size_t len, size_t budget);
int hg__proxy_send_owned(conn *c, side *s, char *data, size_t len);
int hg__proxy_send_copy(conn *c, side *s, const void *data, size_t len);
/* Response bytes to the guest, through the mask when secrets are in scope.
 * With none in scope (no credential for this host) and nothing held, a
 * span that runs to the end of the read buffer rb goes on in that buffer:
 * no copy on the path of a download. */
int hg__proxy_emit_rb(conn *c, rbuf *rb, const char *p, size_t n);
int hg__proxy_emit(conn *c, const char *p, size_t n);
int hg__proxy_emit_flush(conn *c);
void hg__proxy_update_reading(conn *c);
void hg__proxy_arm(conn *c, timer_use use, unsigned ms);
void hg__proxy_disarm(conn *c);
/* Bodies of upgraded requests are held whole; the set's budget keeps 256
 * connections from holding 256 times HG_PROXY_UPGRADE_RESP_MAX. */
bool hg__proxy_upg_take(conn *c, size_t n);
void hg__proxy_upgrade_free(conn *c);
void hg__proxy_conn_close(conn *c);
/* Ends an HTTP connection after what is queued for the guest is written
 * (the answer, a 403): upstream closed now, guest shut down, and closed
 * once the guest closes its side too. Until then what it still sends is
 * read and dropped: closing with unread bytes would reset the connection
 * and could destroy the answer before the guest reads it. LINGER_MS at
 * most, for a guest that neither reads nor closes. */
void hg__proxy_conn_finish(conn *c);
void hg__proxy_http_reply_close(conn *c, int status, const char *text,
                                const char *reason);
void hg__proxy_http_deny(conn *c, const char *name, const char *reason);
/* Connects to the checked address (c->ip), never to a name. Writes may
 * be queued at once: libuv sends them when the connect completes. */
int hg__proxy_dial(conn *c, uint16_t port);
void hg__proxy_dial_failed(conn *c, int rc);
/* The peer of s said EOF: pass it on once what is queued is written. */
void hg__proxy_relay_shutdown(conn *c, side *s);
void hg__proxy_ps_maybe_done(hg_proxy_set *ps);

/* ---- proxy_http.c ---- */

void hg__proxy_secrets_clear(conn *c);
/* Overwrites every secret in scope, in every form mask.h knows, in the
 * whole buffer t[0..n) with '*' (same length, so framing holds). */
void hg__proxy_mask_scan(conn *c, char *t, size_t n);
/* Upstream bytes of the response to the one request in flight, in the
 * read buffer rb: taken over when its end is passed on as it is. */
void hg__proxy_http_up_data(conn *c, rbuf *rb);
void hg__proxy_http_up_eof(conn *c);
/* The response to the request in flight is written (or queued). */
void hg__proxy_http_resp_finished(conn *c);
/* Moves the HTTP exchange on as far as it can go. */
void hg__proxy_http_pump(conn *c);
void hg__proxy_http_guest_data(conn *c, const char *p, size_t n);

/* ---- proxy_upgrade.c ---- */

/* Method, target and fields of the request in c->in, for libcurl. */
int hg__proxy_upgrade_prepare(conn *c, const subst *s);
int hg__proxy_upgrade_start(conn *c);

#endif
