/* inbound: one HTTP exchange with a server inside a sandbox, for
 * `ANY /v1/sandboxes/{id}/ports/{port}/{path…}` (DESIGN §11). The API gets
 * a connected socket from the gateway (hg_gateway_connect_guest: made in
 * the sandbox's namespace, to the guest's address) and hands it here.
 *
 * The request goes out as HTTP/1.1 with "Host: localhost" and
 * "Connection: close", the client's end-to-end headers and its body; the
 * answer is read until the guest closes, bounded, and parsed with llhttp
 * (chunked bodies come back decoded). What is hangar's never reaches the
 * guest (Authorization, X-Hangar-*), and what is hangar's never comes back
 * from it: X-Hangar-* headers are dropped and a 421 (which the cluster's
 * forwarder acts on) becomes a 502.
 *
 * Blocking, for a worker thread. Returns 0 or a negative errno:
 * -ETIMEDOUT (the guest was silent for timeout_ms), -EPROTO (no HTTP
 * response, or a malformed one), -ENOBUFS (body over max_body, head over
 * HG_INBOUND_MAX_HEAD), -EPIPE/-ECONNRESET (the guest hung up on the
 * request), -EINVAL (a request that cannot be sent as given). */
#ifndef HG_API_INBOUND_H
#define HG_API_INBOUND_H

#include <stddef.h>

#include "api/http.h"
#include "node/core/buf.h"

#define HG_INBOUND_MAX_HEAD (64u * 1024) /* request head out, response head in */

typedef struct hg_inbound_req {
  const char *method;            /* "GET" */
  const char *target;            /* "/path?query": the guest's request target */
  const hg_http_header *headers; /* the client's (lower-cased names) */
  int nheaders;
  const void *body;
  size_t body_len;
} hg_inbound_req;

typedef struct hg_inbound_resp {
  int status;
  char content_type[256]; /* "" when the guest sent none */
  hg_buf headers;         /* end-to-end headers to pass on: "Name: value\r\n"… */
  hg_buf body;
} hg_inbound_resp;

/* out is initialised here in every case; free it with hg_inbound_resp_free.
 * timeout_ms bounds every wait (write, read), not the whole exchange. */
int hg_inbound_exchange(int fd, const hg_inbound_req *req, size_t max_body,
                        int timeout_ms, hg_inbound_resp *out);
void hg_inbound_resp_free(hg_inbound_resp *r);

/* True when a client header goes on to the guest (not hop-by-hop, not
 * Host, not hangar's own). name: lower-cased. */
int hg_inbound_header_passes(const char *name);

#endif
