/* api: the v1 HTTP API of one node (docs/api.md) on top of hg_http (the
 * transport), hg_manager/hg_ops (the runtime: reads, commands, files, the
 * operation journal) and hg_api_work (api/work.h: lifecycle work, which the
 * node sequences). It owns the routing table, auth, request validation, the
 * errno -> HTTP status table, per-command output tokens, the OpenAPI
 * document and /metrics.
 *
 * Everything here runs on the loop thread. Every call that may block (all
 * hg_sandbox_*, hg_agent_*, hg_template_*, hg_op_begin/finish/describe/list,
 * hg_manager_counts) runs on the libuv thread pool and answers from the
 * after-work callback, so the loop never waits on a VM, a disk or a guest.
 *
 * Thread-pool budget. The pool has UV_THREADPOOL_SIZE workers (hangard's
 * main() sets it before the loop starts; libuv's default of 4 is far too
 * small). Three kinds of work share it:
 *   held calls   command ?wait=S and output follow=1 hold a worker while they
 *                wait for the guest; at most max_held at once, 503 beyond;
 *   operations   lifecycle work (create, suspend, ...): at most max_ops run
 *                at once, the rest queue (in order) on the loop thread;
 *   quick calls  everything else (auth checks, describe, files, exec).
 * The defaults leave at least 1/8 of the pool to quick calls.
 *
 * Order at shutdown: hg_api_stop() (answers waiters, ends streams, refuses
 * new requests with 503), hg_http_server_shutdown(), and in its done
 * callback hg_api_free(); keep running the loop until it has no more work,
 * then close hg_ops and hg_manager (operations still on the pool call
 * hg_op_finish when they end). */
#ifndef HG_API_API_H
#define HG_API_API_H

#include <stddef.h>
#include <uv.h>

#include "api/http.h"
#include "api/work.h"
#include "gateway/gateway.h"
#include "node/core/buf.h"
#include "node/core/ident.h"
#include "node/op.h"
#include "node/sandbox.h"

#define HG_API_MAX_JSON (1u * 1024 * 1024)    /* JSON request bodies */
#define HG_API_MAX_UPLOAD (256u * 1024 * 1024) /* PUT …/files body, GET …/files answer */
#define HG_API_MAX_STDIN (8u * 1024 * 1024)   /* POST …/stdin body */
#define HG_API_MAX_OUTPUT (1u * 1024 * 1024)  /* stdout/stderr of a command ?wait, each */
#define HG_API_MAX_PATH 4096                  /* guest paths, bytes */
#define HG_API_MAX_WAIT_S 600                 /* ?wait=S */

typedef struct hg_api hg_api;

/* The cluster as the API sees it (DESIGN §7: any node answers). NULL in
 * hg_api_config: a node alone, everything local. Loop thread only.
 * Requests a peer forwarded to us carry "X-Hangar-Forwarded: <node id>",
 * signed with the cluster key (api/fwdsign.h), and are never forwarded again; a forwarded request for a sandbox we do not
 * own gets 421 with "X-Hangar-Owner: <node id> <api addr>" when we know the
 * owner, and the forwarding node retries once there. */
typedef struct hg_api_peers {
  void *ud;
  /* 1: sandbox is owned by another live node (owner, addr filled).
   * 0: local or unknown to the directory (serve it here).
   * -ENOENT: deleted (a tombstone above any copy here: 404);
   * -EHOSTUNREACH: owned by a node that is not alive, above any copy here
   * (502: a copy here is an old one, never served as the sandbox);
   * -EAGAIN: the directory has not come from a peer since start (503). */
  int (*locate)(void *ud, const char *sandbox, char owner[HG_NODE_ID_MAX], char addr[HG_ADDR_MAX]);
  /* hg_cluster_place: 1 here, 0 peer (owner, addr), -ENOSPC (reason). */
  int (*place)(void *ud, const char *template_ref, unsigned vcpus, unsigned memory_mib,
               const char *zone, const char *label, char owner[HG_NODE_ID_MAX], char addr[HG_ADDR_MAX],
               char reason[256]);
  /* GET /v1/cluster/members; new reference, an array or {"members": [...]}.
   * Operation lookups ask the members with "state": "alive" (or no state),
   * a valid "id" other than ours and "addresses": {"api": "host:port"}. */
  json_t *(*members)(void *ud);
  /* GET /v1/cluster/sandboxes; new reference, an array or {"sandboxes":
   * [...]}. GET /v1/sandboxes adds the entries whose "owner" is another
   * node and whose "state" is not "deleted" (id from "sandbox"). */
  json_t *(*directory)(void *ud);
  int (*decommission)(void *ud, const char *node_id);
  /* Appends Prometheus lines (hangar_cluster_*) to out. May be NULL. */
  void (*metrics)(void *ud, hg_buf *out);
} hg_api_peers;

/* The replicator (replication/replicator.h), for what the API reads of it:
 * a token checked against a replica, every holder's generations, where a
 * resume goes, metrics. Lifecycle work goes through hg_api_work. */
typedef struct hg_replicator hg_replicator;

typedef struct hg_api_config {
  hg_manager *manager;   /* reads: describe, list, tokens; commands and files */
  hg_ops *ops;
  const hg_api_work *work; /* required: lifecycle work (copied) */
  const char *admin_key; /* required: the Bearer key that may do everything */
  const char *node_id;   /* shown by /healthz and in sandbox descriptions */
  const char *version;   /* NULL: "dev" */
  const char *accel;     /* "kvm" or "tcg" (NULL) and why: GET /v1/node */
  const char *accel_reason;
  unsigned max_held;     /* 0: 3/4 of the pool (48 at 64 workers) */
  unsigned max_ops;      /* 0: 1/8 of the pool, at least 1 */
  const hg_api_peers *peers; /* NULL: no cluster (copied; all but metrics
                              * required, and node_id must be a node id:
                              * 1-63 of [a-z0-9-]) */
  hg_replicator *replicator; /* NULL: no replication (needs peers) */
  /* The cluster key list (--cluster-key) and name: forwards to peers are
   * signed with it, and forwards from peers checked (api/fwdsign.h).
   * Required with peers; without it a node refuses every request that
   * carries forwarding headers (401). */
  const char *cluster_keys;
  const char *cluster_name;
  /* Forwards to peers over https (every node's API has TLS: --tls-cert),
   * their certificates checked against peer_ca (PEM file), or the system's
   * CA store when NULL; never unchecked. */
  bool peer_tls;
  const char *peer_ca;
  hg_gateway *gateway;   /* GET|PUT …/network, the egress log, inbound ports,
                          * metrics; NULL: networking is off (those routes
                          * answer 404) */
} hg_api_config;

int hg_api_new(uv_loop_t *loop, const hg_api_config *cfg, hg_api **out);

/* Fills handler, on_abort, on_head, body_limit, ud and max_body of opt
 * (leaves host, port and max_connections alone). */
void hg_api_http_options(hg_api *api, hg_http_options *opt);

/* The hooks hg_api_http_options installs (ud is the hg_api). */
void hg_api_handler(hg_http_server *srv, hg_http_req *req, void *ud);
void hg_api_on_abort(hg_http_req *req, void *ud);
/* At a request's head, before its body: refuses (401, 403, 503) what its
 * credentials decide, and checks a sandbox token on the pool before the
 * body of a route with a large limit (see api.c). */
size_t hg_api_on_head(hg_http_req *req, void *ud);
/* A piece of a PUT …/files body on its way to the guest. */
void hg_api_on_body_piece(hg_http_req *req, const char *data, size_t len, void *ud);
/* HG_API_MAX_UPLOAD for PUT …/files, HG_API_MAX_STDIN for …/stdin,
 * HG_API_MAX_JSON for everything else: a larger body gets 413 from the
 * server before it is read. */
size_t hg_api_body_limit(const char *method, const char *path, void *ud);

/* Refuses new requests with 503, answers every request waiting for an
 * operation (202 with its operation), ends output streams, shortens held
 * waits, and fails operations still queued for a slot ("cancelled");
 * operations already running go on. */
void hg_api_stop(hg_api *api);
/* Stops (as hg_api_stop) and lets go. Call once the HTTP server is gone.
 * Work still on the pool finishes and answers its request (for hg_http a
 * no-op that frees it); the API is freed when the last of it returns, so
 * keep running the loop until uv_run returns. */
void hg_api_free(hg_api *api);

#endif
