/* http: an HTTP/1.1 server on libuv + llhttp. It owns connections and
 * parsing; a handler gets a whole request (head + bounded body) and answers
 * now or later (from the loop thread), whole or streamed (chunked).
 * Keep-alive, pipelining in order, header/body/idle timeouts (slowloris),
 * size limits (413/431 answered by the server itself), graceful shutdown.
 * Everything here runs on the loop thread. */
#ifndef HG_API_HTTP_H
#define HG_API_HTTP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <uv.h>

#define HG_HTTP_MAX_HEADER (16u * 1024)       /* whole head */
#define HG_HTTP_MAX_HEADERS 64
#define HG_HTTP_MAX_BODY (64u * 1024 * 1024)  /* default body limit */
#define HG_HTTP_HEADER_TIMEOUT_MS 10000
#define HG_HTTP_BODY_TIMEOUT_MS 60000
#define HG_HTTP_IDLE_TIMEOUT_MS 60000

typedef struct hg_http_server hg_http_server;
typedef struct hg_http_req hg_http_req;

typedef struct hg_http_header {
  const char *name;  /* lower-cased */
  const char *value;
} hg_http_header;

struct hg_http_req {
  const char *method;      /* "GET" */
  const char *target;      /* raw request target */
  const char *path;        /* percent-decoded path without query */
  const char *query;       /* raw query string without '?', "" if none */
  hg_http_header headers[HG_HTTP_MAX_HEADERS];
  int nheaders;
  const char *body;        /* NUL-terminated for convenience */
  size_t body_len;
  uint64_t body_offset;    /* bytes of the body given in pieces before body
                            * (hg_http_body_stream); 0 otherwise */
  void *data;              /* for the handler */
};

/* Called once per request on the loop thread. The handler must eventually
 * call hg_http_respond or hg_http_stream_start(...)+hg_http_stream_end for
 * req, even if the client went away (those calls are then no-ops that free
 * the request). */
typedef void (*hg_http_handler)(hg_http_server *srv, hg_http_req *req, void *ud);
/* Optional: called when the client of an unfinished request disconnects,
 * so streams can stop early. */
typedef void (*hg_http_abort_cb)(hg_http_req *req, void *ud);

typedef struct hg_http_options {
  const char *host;          /* "127.0.0.1" */
  int port;                  /* 0: ephemeral (see hg_http_port) */
  size_t max_body;           /* 0: HG_HTTP_MAX_BODY */
  /* Routes whose body limit is larger (file uploads): returns the limit for
   * this method+path, or 0 for max_body. May be NULL. */
  size_t (*body_limit)(const char *method, const char *path, void *ud);
  /* Optional, and then body_limit is not used: called once a request's
   * head is complete, before a byte of its body is read (req has all but
   * the body). Returns the body limit (> 0) to read the body now, or 0 to
   * hold the request: the hook then answers it with hg_http_respond (its
   * body is never read and the connection closes after the answer), or
   * lets it go on with hg_http_body_read, now or later. A request held
   * once belongs to the handler side from then on: on_abort is called if
   * its client goes (before or after hg_http_body_read), and the handler
   * gets it, req->data as the hook left it, when its body is complete.
   * This is where credentials are checked: an unauthenticated client never
   * gets a large body limit, nor a byte of its body read. */
  size_t (*on_head)(hg_http_req *req, void *ud);
  /* For hg_http_body_stream: a piece of the body (data valid until
   * hg_http_body_next). May be NULL when nothing streams. */
  void (*on_body_piece)(hg_http_req *req, const char *data, size_t len, void *ud);
  unsigned max_connections;  /* 0: 4096; extra connections get 503 */
  hg_http_handler handler;
  hg_http_abort_cb on_abort;
  void *ud;
  /* 0: the HG_HTTP_*_TIMEOUT_MS defaults. header: from accept (first
   * request) or first byte (later ones) to the end of the head, else 408.
   * body: longest silence inside a body, else 408. idle: keep-alive wait
   * between requests, and longest stall of a client not reading our
   * response; then the connection is closed. */
  unsigned header_timeout_ms;
  unsigned body_timeout_ms;
  unsigned idle_timeout_ms;
  /* api/tls.h: TLS on the listener (each connection through a relay); NULL:
   * plain HTTP. The caller keeps it until the server is gone. */
  struct hg_tls *tls;
} hg_http_options;

int hg_http_server_start(uv_loop_t *loop, const hg_http_options *opt, hg_http_server **out);
int hg_http_port(const hg_http_server *srv);
/* Serves an already connected stream socket (one end of a socketpair, a
 * unix socket, a socket handed over by systemd) as if it had been
 * accepted. On success the server owns fd; on failure the caller does. */
int hg_http_server_adopt(hg_http_server *srv, uv_os_sock_t fd);
/* Open client connections (for metrics; a connection counts until its
 * memory is freed). */
unsigned hg_http_server_connections(const hg_http_server *srv);
/* Stops accepting, lets requests in flight finish up to grace_ms, closes the
 * rest, then calls done (the server is freed before done runs). */
void hg_http_server_shutdown(hg_http_server *srv, int grace_ms, void (*done)(void *ud), void *ud);

const char *hg_http_header_get(const hg_http_req *req, const char *lower_name);
/* Value of a query parameter, percent-decoded into out; -ENOENT if absent. */
int hg_http_query_get(const hg_http_req *req, const char *name, char *out, size_t cap);
/* True until the client disconnects. */
bool hg_http_req_alive(const hg_http_req *req);
/* The client's IP address as text ("127.0.0.1", "::1"); -ENOTCONN once it
 * is gone, -EAFNOSUPPORT for a non-IP socket (an adopted unix socket). */
int hg_http_req_peer(const hg_http_req *req, char *out, size_t cap);

/* A request the on_head hook held goes on: its body is read (up to limit
 * bytes), then the handler gets it. -EFBIG: its Content-Length is over
 * limit, and it stays held for the caller to answer (413); -EPIPE: the
 * client is gone (answer it anyway, which frees it); -EINVAL: not held. */
int hg_http_body_read(hg_http_req *req, size_t limit);
/* As hg_http_body_read, but the body comes in pieces so that it is never
 * held whole: each time piece bytes have come in before the end,
 * on_body_piece gets them and reading stops until
 * hg_http_body_next; the handler gets the rest (req->body_offset says how
 * much went before it). -EINVAL also without on_body_piece. */
int hg_http_body_stream(hg_http_req *req, size_t limit, size_t piece);
/* The last piece is taken care of: reading goes on. -EPIPE: the client is
 * gone (answer the request anyway). */
int hg_http_body_next(hg_http_req *req);

/* Whole response. An answer to a request whose body was not read (held,
 * or still arriving) closes the connection after it. extra_headers: "Name: value\r\n"… or NULL. Copies body. */
void hg_http_respond(hg_http_req *req, int status, const char *content_type,
                     const char *extra_headers, const void *body, size_t len);

/* Chunked streaming. write copies data; returns -EPIPE once the client is
 * gone. Writes are queued; hg_http_stream_pending tells the bytes not yet
 * handed to the kernel, for back-pressure. end sends the last chunk. */
int hg_http_stream_start(hg_http_req *req, int status, const char *content_type,
                         const char *extra_headers);
int hg_http_stream_write(hg_http_req *req, const void *data, size_t len);
size_t hg_http_stream_pending(const hg_http_req *req);
void hg_http_stream_end(hg_http_req *req);
/* Ends a stream without its last chunk and closes the connection, so the
 * client sees the body cut short rather than complete (a proxied answer
 * whose upstream broke mid-body). Frees req like stream_end. */
void hg_http_stream_abort(hg_http_req *req);

#endif
