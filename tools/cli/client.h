/* client: the CLI's HTTP side, on libcurl.
 *
 * One curl multi handle drives every transfer. Sequential requests share its
 * connection pool (one keep-alive connection), and long transfers — exec's
 * two output streams, its stdin and signals, an operation being waited for,
 * a file being copied — run side by side while the caller's loop redraws a
 * progress line or reads stdin between turns.
 *
 *   hg_xfer x;
 *   hg_xfer_init(&x, c, "GET", "/v1/templates");
 *   hg_xfer_start(&x);
 *   while (!x.done) hg_client_step(c, 100, NULL, 0);
 *   if (hg_xfer_check(&x) == 0) … x.body …
 *   hg_xfer_cleanup(&x);
 *
 * Errors are printed here, where they are understood (the server's
 * `code: message`, or "cannot reach hangard at URL" with a hint); callers
 * just return HG_CLI_EXIT_ERROR. */
#ifndef HG_CLI_CLIENT_H
#define HG_CLI_CLIENT_H

#include <curl/curl.h>
#include <jansson.h>
#include <stdbool.h>
#include <stdint.h>

#include "node/core/buf.h"

#define HG_CLIENT_MAX_JSON (64u << 20)   /* largest JSON answer we hold in memory */
#define HG_CLIENT_MAX_ERROR (64u << 10)  /* error bodies of raw-byte routes */
#define HG_CLIENT_CONNECT_TIMEOUT_S 10
#define HG_CLIENT_TICK_MS 100            /* progress lines redraw this often */

typedef struct hg_client {
  char *url;        /* base, without a trailing '/' */
  char *key;        /* Bearer key, or NULL */
  CURLM *multi;
  bool json;        /* --json: print the server's JSON */
  bool err_tty;     /* stderr is a terminal: progress lines redraw in place */
  bool line_open;   /* a progress line is drawn and not yet ended */
} hg_client;

typedef struct hg_xfer {
  hg_client *client;
  CURL *easy;
  struct curl_slist *headers;
  char *req_body;   /* owned copy of a JSON request body */
  hg_buf body;      /* the response body (or, for raw routes, an error body) */
  long status;      /* HTTP status, once done */
  CURLcode result;
  char errbuf[CURL_ERROR_SIZE];
  bool started, done;
} hg_xfer;

int hg_client_init(hg_client *c, const char *url, const char *key);
void hg_client_free(hg_client *c);

/* One turn of the loop: waits up to timeout_ms for curl's sockets (and the
 * caller's extra fds), moves every transfer along, marks finished ones done. */
int hg_client_step(hg_client *c, int timeout_ms, struct curl_waitfd *fds, unsigned nfds);

/* Ends a progress line drawn with \r, so the next message starts clean. */
void hg_client_end_line(hg_client *c);

/* path is "/v1/…" with its query. The body goes to x->body (bounded by
 * HG_CLIENT_MAX_JSON) unless the caller sets its own CURLOPT_WRITEFUNCTION. */
int hg_xfer_init(hg_xfer *x, hg_client *c, const char *method, const char *path);
int hg_xfer_set_json(hg_xfer *x, const json_t *body);
int hg_xfer_add_header(hg_xfer *x, const char *header);
int hg_xfer_start(hg_xfer *x);
/* Runs the loop until x is done, calling tick (if any) every turn. */
void hg_xfer_wait(hg_xfer *x, void (*tick)(void *), void *arg);
void hg_xfer_cleanup(hg_xfer *x);

/* While the body arrives (from a write callback): whether the answer's
 * status is 2xx, i.e. the bytes are data rather than an error. */
bool hg_xfer_status_ok(const hg_xfer *x);
/* After done: 0 for a 2xx answer; else prints why and returns -ECONNREFUSED
 * (unreachable), -EIO (transfer broke) or -EPROTO (the server said no). */
int hg_xfer_check(hg_xfer *x);
/* Whether a failed transfer is worth retrying: the connection broke or
 * the node is restarting, not a refusal by the server. */
bool hg_xfer_retryable(const hg_xfer *x);
void hg_xfer_print_error(const hg_xfer *x);

/* Escapes s for a query value; free with curl_free(). */
char *hg_client_escape(hg_client *c, const char *s);

/* One JSON request and its answer. Like hg_xfer_check it prints errors.
 * On success *out is the parsed body (NULL for an empty one). */
int hg_client_json(hg_client *c, const char *method, const char *path, const json_t *body,
                   json_t **out);
/* The same, but an HTTP error is not printed: *status tells it, and *out
 * holds the error JSON. Unreachable servers are still reported. */
int hg_client_try_json(hg_client *c, const char *method, const char *path,
                       const json_t *body, long *status, json_t **out);
/* Prints `hangar: <code>: <message>` for an error answer. */
void hg_client_print_error(hg_client *c, long status, const json_t *body);

/* Follows an operation to its end with a progress line on stderr —
 * "suspend sb-… … 0.4s", redrawn in place on a tty, one plain line at the
 * end otherwise. start_ms (hg_now_ms) is when the request was sent. Returns
 * 0 when it succeeded, -EPROTO when it failed (printed), or a transport
 * error. *final, if given, gets the operation JSON when the operation ended
 * either way (NULL after a transport error); the caller frees it. */
int hg_client_wait_op(hg_client *c, const char *verb, const char *target, const char *op_id,
                      int64_t start_ms, json_t **final);

/* Small JSON getters that tolerate absent keys and wrong types. */
const char *hg_json_str(const json_t *obj, const char *key);
int64_t hg_json_int(const json_t *obj, const char *key, int64_t dflt);
bool hg_json_bool(const json_t *obj, const char *key);
/* A timestamp field (RFC 3339 string, or Unix seconds/ms) as Unix ms; -1 if absent. */
int64_t hg_json_time_ms(const json_t *obj, const char *key);
/* Prints JSON for scripts, indented, with a newline. */
int hg_json_print(const json_t *j);

#endif
