/* forward: a reverse proxy of one hg_http request to another node's API
 * (DESIGN §7: any node answers; a request for a sandbox owned elsewhere is
 * forwarded to its owner and the answer, streams included, passes through).
 *
 * One hg_forward per hg_api: a libcurl multi handle driven by the hg_http
 * loop (a uv_poll per socket curl opens, one uv_timer for curl's timeouts),
 * so nothing blocks and keep-alive connections to peers are reused.
 *
 * A forward (hg_fwd) sends the method, the target as received, the body
 * and the headers that matter (content-type, accept, and envd's
 * e2b-sandbox-id and connect-protocol-version), plus
 * "X-Hangar-Forwarded: <our node id>" (the receiver never forwards it
 * again), the client's address in X-Forwarded-For, and in place of the
 * client's Authorization (never sent on) the identity the caller decided
 * (X-Hangar-Identity), all signed with the cluster key (api/fwdsign.h:
 * X-Hangar-Body-SHA256, X-Hangar-Signature; a fresh nonce per attempt). When the upstream
 * head is complete the answer starts on the client's request: the
 * upstream status, content type and pass-through headers (location,
 * retry-after, www-authenticate, allow, x-hangar-* but X-Hangar-Owner)
 * plus "X-Hangar-Node: <owner>"; the body follows as it comes, paused while
 * the client has more than HG_FWD_HIGH_WATER bytes unsent. A 421 carrying
 * "X-Hangar-Owner: <node> <addr>" is retried once at that address (if it
 * differs); a second 421 (or one without a usable hint) is never passed
 * on, since it names an internal address: the forward ends with -EREMOTE
 * and the caller answers.
 *
 * Connect timeout HG_FWD_CONNECT_MS; no overall or low-speed limit (held
 * requests, ?wait=600 and output follow streams, are legitimately quiet);
 * TCP keep-alive notices a peer that died after connecting.
 *
 * Loop thread only. */
#ifndef HG_API_FORWARD_H
#define HG_API_FORWARD_H

#include <stdbool.h>
#include <stdint.h>
#include <uv.h>

#include "api/http.h"
#include "node/core/ident.h"

#define HG_FWD_CONNECT_MS 2000
#define HG_FWD_HIGH_WATER (1u * 1024 * 1024) /* client bytes unsent before we pause */
#define HG_FWD_LOW_WATER (256u * 1024)       /* ... and resume below this */
#define HG_FWD_DRAIN_MS 10                   /* how often a paused forward looks */
#define HG_FWD_MAX_RESP_HEADERS (8u * 1024)  /* pass-through headers kept, bytes */

typedef struct hg_forward hg_forward;
typedef struct hg_fwd hg_fwd;

/* How a forward ended. The request is the caller's again when started is
 * false (answer it: nothing was sent); when started is true the forward
 * answered it (ended its stream) and it is gone. */
typedef struct hg_fwd_result {
  /* 0: the upstream answered (status); -ENOENT: it answered the declined
   * status (nothing sent); -EHOSTUNREACH: no answer (connect failed, reset
   * or closed before a complete head; msg says what); -EPIPE: the upstream
   * broke mid-body (the client's connection was cut so it can tell);
   * -ECANCELED: hg_fwd_cancel, or the client left; -EREMOTE: 421 again
   * (the sandbox moves between nodes; nothing sent). */
  int rc;
  int status;                /* the upstream's, 0 if none */
  bool started;              /* the answer went (or began going) to the client */
  bool retried;              /* a 421 sent us to the hinted node */
  char owner[HG_NODE_ID_MAX]; /* the node that answered (after a retry: the hinted one) */
  char addr[HG_ADDR_MAX];
  char msg[256]; /* rc < 0: a sentence */
} hg_fwd_result;

typedef void (*hg_fwd_done_cb)(void *ud, const hg_fwd_result *res);

typedef struct hg_fwd_spec {
  const char *owner; /* node id of the upstream (for X-Hangar-Node, messages) */
  const char *addr;  /* its API, "host:port" */
  /* An upstream status that is not passed on: the forward ends with
   * -ENOENT and the request stays the caller's (404 when asking peers in
   * turn who knows an operation). 0: none. */
  int decline_status;
  /* X-Hangar-Identity (fwdsign.h): "admin", "bearer <cred>", NULL: none */
  const char *identity;
  /* E2b-Sandbox-Id when the client sent none (envd's routes: the sandbox
   * its access token named; the identity carries the token alone). NULL:
   * the client's, if any. */
  const char *sandbox;
  hg_fwd_done_cb done; /* called once, never from inside hg_fwd_start */
  void *ud;
} hg_fwd_spec;

typedef struct hg_forward_stats {
  uint64_t ok;          /* answered by the upstream */
  uint64_t unreachable; /* no answer: the client got 502 (or the next peer was asked) */
  uint64_t broken;      /* the upstream broke mid-body */
  uint64_t cancelled;   /* the client left, or the node stopped */
  uint64_t declined;    /* the declined status (operation lookups) */
  uint64_t retried;     /* 421 + X-Hangar-Owner: sent once more to the hint */
  uint64_t paused;      /* times a forward stopped reading for a slow client */
  size_t pending_max;   /* most client bytes unsent seen after a write */
  unsigned active;      /* forwards in flight */
} hg_forward_stats;

/* node_id: ours, for X-Hangar-Forwarded; signer: the cluster key's
 * (required, kept by the caller until the forwarder is closed). */
typedef struct hg_fwdsign hg_fwdsign;
int hg_forward_new(uv_loop_t *loop, const char *node_id, const hg_fwdsign *signer,
                   hg_forward **out);
/* Forwards go over https from now on, the peer's certificate checked
 * against ca_file (PEM) or, NULL, the system's CA store (curl's default);
 * verification is never turned off. -ENAMETOOLONG for a path of 4096 bytes
 * or more. */
int hg_forward_tls(hg_forward *f, const char *ca_file);
/* Cancels every forward in flight (their done callbacks run first), then
 * closes the handles and frees; done(ud) once all is gone. */
void hg_forward_close(hg_forward *f, void (*done)(void *ud), void *ud);

/* Starts forwarding req. 0 and *out (valid until spec->done runs), or a
 * negative errno (-EINVAL: bad addr/owner/target; nothing was sent, done is
 * not called). req must stay unanswered until done. */
int hg_fwd_start(hg_forward *f, hg_http_req *req, const hg_fwd_spec *spec, hg_fwd **out);
/* The client left or the node stops: drop the upstream transfer, end the
 * client's stream if one started, and call done with -ECANCELED (now, or
 * when curl gives the transfer back if it is inside one of its callbacks). */
void hg_fwd_cancel(hg_fwd *w);

void hg_forward_get_stats(const hg_forward *f, hg_forward_stats *out);

#endif
