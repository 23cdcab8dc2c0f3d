/* api: the v1 HTTP API of one node (docs/api.md) on top of hg_http (the
 * transport) and hg_manager/hg_ops (the runtime). It owns the routing table,
 * auth, request validation, the errno -> HTTP status table, per-command
 * output tokens, the OpenAPI document and /metrics.
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
 * Requests a peer forwarded to us carry "X-Hangar-Forwarded: <node id>" and
 * are never forwarded again; a forwarded request for a sandbox we do not
 * own gets 421 with "X-Hangar-Owner: <node id> <api addr>" when we know the
 * owner, and the forwarding node retries once there. */
typedef struct hg_api_peers {
  void *ud;
  /* 1: sandbox is owned by another live node (owner, addr filled).
   * 0: local or unknown to the directory (serve it here). */
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

/* Replication as the API sees it (DESIGN §10); NULL: none. The calls run on
 * workers (they block on peers and btrfs), except where marked. */
typedef struct hg_api_repl {
  void *ud;
  /* After a suspend took generation gen: copies it to the sandbox's
   * holders. durability "replicated", "local" or NULL (the default: the
   * sandbox's replica count, when peers can hold copies). progress(pud,
   * text) shows how far it is. *report (new reference, may be set on
   * failure too) goes into the operation's result as "replication".
   * -EREMOTEIO when fewer peers acknowledged than wanted (msg says who). */
  int (*after_suspend)(void *ud, const char *id, uint64_t gen, const char *durability,
                       void (*progress)(void *pud, const char *text), void *pud,
                       json_t **report, char msg[256]);
  /* Before resuming a sandbox this node does not own (it was sent here):
   * makes it ours from our newest generation of it. 0: it is ours now (or
   * was). -ENODATA: we hold no generation of it, or not the newest (msg).
   * -EBUSY: it runs elsewhere. */
  int (*adopt)(void *ud, const char *id, char msg[256]);
  /* True when we hold a generation of a sandbox the manager does not have:
   * a resume sent here is then accepted (and adopts). */
  bool (*holds)(void *ud, const char *id);
  /* A sandbox token checked against our newest generation of it. */
  bool (*token_ok)(void *ud, const char *id, const char *token);
  /* GET …/replicas: every holder's generations; new reference. */
  int (*replicas)(void *ud, const char *id, json_t **out, char msg[256]);
  /* Where a resume goes (loop thread): node is ?node= or NULL. 1: forward
   * to target at addr; 0: serve it here; < 0 with msg: -EHOSTDOWN the node
   * named is not alive, -ENOENT unknown node, -EHOSTUNREACH the owner is
   * down and no alive node holds the newest generation. */
  int (*resume_at)(void *ud, const char *id, const char *node, char target[HG_NODE_ID_MAX],
                   char addr[HG_ADDR_MAX], char msg[256]);
  /* Appends Prometheus lines (hangar_repl_*); may be NULL. Loop thread. */
  void (*metrics)(void *ud, hg_buf *out);
} hg_api_repl;

typedef struct hg_api_config {
  hg_manager *manager;
  hg_ops *ops;
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
  const hg_api_repl *repl; /* NULL: no replication (copied; all but metrics required) */
  hg_gateway *gateway;   /* egress policies, egress log, inbound ports; NULL:
                          * networking is off (those routes answer 404) */
} hg_api_config;

int hg_api_new(uv_loop_t *loop, const hg_api_config *cfg, hg_api **out);

/* Fills handler, on_abort, body_limit, ud and max_body of opt (leaves host,
 * port and max_connections alone). */
void hg_api_http_options(hg_api *api, hg_http_options *opt);

/* The three hooks hg_api_http_options installs (ud is the hg_api). */
void hg_api_handler(hg_http_server *srv, hg_http_req *req, void *ud);
void hg_api_on_abort(hg_http_req *req, void *ud);
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
