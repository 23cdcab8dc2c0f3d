/* api_internal.h: what the pieces of api/ share, and nothing outside
 * api/ (and its unit tests) includes. One file per concern: api.c (a request
 * from the server to its handler; the life of the API), routes.c, call.c,
 * auth.c, request.c, and one file per resource. Names shared across files
 * are hg__api_*; everything else stays static in its file. */
#ifndef HG_API_API_INTERNAL_H
#define HG_API_API_INTERNAL_H

#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include "api/api.h"
#include "api/forward.h"
#include "api/fwdsign.h"
#include "api/inbound.h"
#include "node/agentproto.h"
#include "node/core/buf.h"
#include "node/core/err.h"
#include "node/core/ident.h"
#include "node/core/list.h"
#include "node/core/log.h"
#include "node/core/parse.h"
#include "node/core/util.h"
#include "replication/replicator.h"

/* ---- limits ------------------------------------------------------------ */

#define HG_API_TOKEN_MAX 256          /* longest credential looked at */
#define HG_API_TOKEN_HEX 64           /* output tokens: 32 random bytes */
#define HG_API_MSG 1280 /* error message: a failed template boot quotes its console */
#define HG_API_POLL_MS 10             /* operation ?wait polling */
#define HG_API_EXEC_SLICE_MS 1000     /* command ?wait: agent waits per slice */
#define HG_API_FOLLOW_CHUNK (256u * 1024)
#define HG_API_FOLLOW_WAIT_MS 1000    /* a follow read holds the worker this long */
#define HG_API_COMBINED_WAIT_MS 250   /* combined: the other stream's latency */
#define HG_API_HIGH_WATER (1u * 1024 * 1024) /* unsent bytes before we stop reading */
#define HG_API_UPLOAD_PIECE HG_AGENT_MAX_DATA /* PUT …/files goes to the guest in these: a frame */
#define HG_API_DRAIN_MS 20
#define HG_API_MAX_ARGS 4096
#define HG_API_MAX_ENV 1024
#define HG_API_MAX_META 256
#define HG_API_MAX_MULTIPART (64u * 1024 * 1024) /* envd uploads read whole */
#define HG_API_TOKENS 16384           /* remembered tokens, oldest forgotten */
#define HG_API_TOKEN_BUCKETS 4096
#define HG_API_STATUS_SLOTS 16        /* distinct statuses counted per route */
#define HG_ENVD_TAG_MAX 64            /* envd's process tags */
#define HG_ENVD_PROCS 4096            /* envd pids remembered per node, oldest forgotten */
#define HG_ENVD_PROC_BYTES (16u * 1024 * 1024) /* ... and their configs' bytes */

/* Outcomes that are not errnos still go through the one error table. */
enum {
  HG_API_EUNAUTH = -4001,
  HG_API_EFORBID = -4003,
  HG_API_EMETHOD = -4005,
  HG_API_EMISDIRECTED = -4021, /* a forwarded request for a sandbox another node owns */
  HG_API_EPEERSIG = -4011,     /* peer headers without a valid signature (fwdsign.h) */
  HG_API_EOUTPUT_LOST = -5021, /* a command ran, its output could not be read */
};

/* ---- types ------------------------------------------------------------- */

typedef struct hg_call hg_call;
typedef struct hg_opjob hg_opjob;
typedef void (*hg_call_fn)(hg_call *c);

typedef enum hg_scope {
  SCOPE_PUBLIC,  /* no credentials */
  SCOPE_ADMIN,   /* the admin key only */
  SCOPE_SANDBOX, /* admin, or the token of {id} */
  SCOPE_OUTPUT,  /* admin, the token of {id}, or the output token of {cid} */
  SCOPE_OP,      /* admin, or the token of the operation's sandbox */
  SCOPE_OPLIST,  /* admin, or the token of ?sandbox= */
} hg_scope;

typedef enum hg_body { BODY_NONE, BODY_JSON, BODY_RAW } hg_body;

typedef struct hg_route {
  const char *method;
  const char *pattern; /* literal segments and {id} {cid} {op} */
  hg_scope scope;
  hg_call_fn handle;
  hg_body body;
  size_t body_limit;   /* 0: HG_API_MAX_JSON */
  int ok;              /* status of success, for the OpenAPI document */
  const char *query;   /* query parameters it reads: "wait,state" */
  const char *summary;
} hg_route;

typedef struct hg_params {
  char id[HG_ID_MAX]; /* {id}: a sandbox */
  char op[HG_ID_MAX]; /* {op} */
  uint64_t cid;       /* {cid}: "cmd-<n>" */
  char node[HG_NODE_ID_MAX]; /* {node}: a cluster member */
  uint16_t port;      /* {port}: 1-65535 */
} hg_params;

typedef enum hg_kind {
  K_CREATE, K_PAUSE, K_RESUME, K_SUSPEND, K_SNAPSHOT, K_FORK, K_DELETE, K_TEMPLATE,
  K_CHECKPOINT
} hg_kind;

/* A lifecycle request (create, pause, …, template) while it is answered. */
typedef struct hg_lc {
  hg_kind kind;
  hg_sandbox_spec spec;  /* create; strings point into the call's body */
  const char *zone, *label; /* create: "placement" constraints (into the body) */
  hg_policy *policy;     /* create: "network", in force before the VM starts */
  uint64_t gen;          /* fork */
  char snapshot[64];     /* fork from a disk snapshot; "" for a generation */
  char durability[16];   /* suspend: ?durability=, "" for the default */
  char *tmpl_name, *tmpl_dir;
  char op[HG_ID_MAX];
  char id[HG_ID_MAX];    /* the sandbox; create: the new one */
  char token[65];        /* create, fork: the new sandbox's token */
  hg_opjob *job;         /* while waiting for the operation to end */
  int64_t deadline_ms;
  bool done;             /* create: the warm pool served it in "begin" already */
} hg_lc;

typedef struct hg_exec {
  hg_exec_req req;
  const char **argv;
  char **env;
  uint64_t cid;
  int pid;
  char out_token[HG_API_TOKEN_HEX + 1];
  uint32_t wait_ms;
  uint32_t slice_ms;      /* this round of a ?wait */
  hg_cmd_status st;
  hg_buf out[3];          /* by stream number: stdout 1, stderr 2 */
  bool trunc;
  bool eof;               /* stdin route: ?eof=1 */
  int sig;                /* signal route */
  const char *in;         /* stdin: the bytes to send (the body, or in_buf's) */
  size_t in_len;
  hg_buf in_buf;          /* envd's SendInput: its stdin decoded */
  char *envd_config;      /* envd's Start: its process config (JSON), for List */
  char envd_tag[HG_ENVD_TAG_MAX];
  uint64_t total[3];      /* envd's Connect: where the streams were, by number */
} hg_exec;

/* An output read: raw (one stream) or combined (NDJSON of both). */
typedef struct hg_follow {
  int stream;            /* HG_STREAM_STDOUT/STDERR, 0: combined */
  bool follow, started, done[3];
  uint64_t off[3];       /* next offset, by stream number */
  hg_buf data[3];
  hg_read_res res[3];
  hg_cmd_status st;      /* combined: exit status once both streams end */
  bool connect;          /* combined as Connect envelopes (E2B's process.Process/Start) */
  int64_t last_ms;       /* connect: when an envelope last went out (keepalives) */
} hg_follow;

typedef struct hg_list_q {
  char state[32];
  char label[512];
} hg_list_q;

/* HTTP into a sandbox's port. */
typedef struct hg_port {
  char *target;          /* the guest's request target: "/<path…>[?query]" */
  bool connected;        /* a timeout after this is the guest's answer's */
  hg_inbound_resp resp;
} hg_port;

/* Why a request is forwarded: says what the 502 of a silent node means. */
typedef enum hg_fwd_why { FWD_SANDBOX, FWD_CREATE, FWD_OPERATION } hg_fwd_why;

typedef struct hg_file {
  int op;                /* FOP_* */
  char path[HG_API_MAX_PATH + 2];
  char dest[HG_API_MAX_PATH + 2]; /* rename's destination */
  uint32_t mode;
  bool flag;             /* recursive (delete) or parents (mkdir) */
  const char *piece;     /* PUT: the piece of the body being written */
  size_t piece_len;
  bool whole;            /* write part[0..part_len) (a multipart upload), not the body */
  const char *part;
  size_t part_len;
  hg_buf data;
  hg_file_stat st;
} hg_file;

struct hg_call {
  hg_api *api;
  hg_http_req *req;
  const hg_route *rt;       /* NULL: no route matched */
  hg_params p;
  char cred[HG_API_TOKEN_MAX + 1];
  bool admin;               /* authenticated with the admin key */
  bool finished;            /* answered or dropped: no more writes */
  bool busy;                /* a work item is on the pool */
  bool held;                /* holds one of api->max_held */
  bool ok;                  /* auth check result */
  bool authed;              /* authenticated at its head, before its body */
  bool streaming;           /* chunked answer started */
  atomic_bool aborted;      /* the client left; workers read it */
  int timer_state;          /* 0 none, 1 open, 2 closing */
  uv_timer_t timer;
  uv_work_t work;
  hg_call_fn work_fn, after_fn, cleanup;
  int rc;
  char msg[HG_API_MSG];
  char qsandbox[HG_ID_MAX]; /* ?sandbox= of the operation list */
  char authsb[HG_ID_MAX];   /* the sandbox whose token the check tried */
  json_t *body;             /* parsed request JSON */
  json_t *out;              /* built by a worker */
  int wait_s;
  bool forwarded;           /* carries X-Hangar-Forwarded: never forwarded again */
  bool peer;                /* ... and its signature checked at its head (fwdsign.h):
                             * cred is the signed identity's, not Authorization */
  bool peer_admin;          /* the signed identity is "admin" */
  bool replaced;            /* create: placed once more after a local ENOSPC */
  hg_fwd *fwd;              /* being forwarded to another node */
  hg_fwd_why why;
  json_t *peer_list;        /* operation lookup: [[node, addr]…] still to ask */
  size_t peer_next;
  /* E2B routes (e2b.c): rewrites the answer hangar's handler made into
   * E2B's shape (status, body; may add headers into hdrs) before it goes. */
  void (*xform)(hg_call *c, int *status, json_t **obj, char *hdrs, size_t cap);
  bool e2b;                 /* an E2B route: ?wait defaults to the longest */
  bool envelope;            /* envd's streams: the JSON answer is one Connect
                             * end-of-stream envelope (envd.c) */
  hg_call *prev, *next;     /* api->calls */
  union {
    hg_lc lc;
    hg_exec ex;
    hg_follow fo;
    hg_file fi;
    hg_list_q lq;
    hg_buf text;            /* /metrics */
    hg_policy *policy;      /* PUT …/network */
    hg_port port;
    char orphan[HG_ORPHAN_NAME_MAX]; /* DELETE /v1/orphans/{name*} */
    int64_t idle_suspend_s; /* PATCH /v1/sandboxes/{id}, E2B's timeout */
  } u;
};

/* An operation's work: lives on its own, whatever happens to the request
 * that started it. */
struct hg_opjob {
  uv_work_t work;
  hg_api *api;
  hg_kind kind;
  char op[HG_ID_MAX];
  char id[HG_ID_MAX];
  uint64_t gen;
  char snapshot[64];
  char durability[16];
  char *tmpl_name, *tmpl_dir;
  char new_id[HG_ID_MAX], new_token[65];
  int rc;
  json_t *result;  /* our copy of what hg_op_finish got */
  hg_call *waiter; /* the request answering when this ends, or NULL */
  hg_opjob *next;  /* api's queue of operations not started yet */
};

/* Tokens the API knows: output tokens (the only record of them) and sandbox
 * tokens seen valid (only to answer 403 rather than 401 for them). */
typedef enum hg_tok_kind { TOK_FREE, TOK_SANDBOX, TOK_OUTPUT } hg_tok_kind;
typedef struct hg_tok {
  hg_tok_kind kind;
  char token[HG_API_TOKEN_HEX + 1]; /* ours and the manager's: 64 hex */
  char sandbox[HG_ID_MAX];
  uint64_t cid;
  int pid;  /* output tokens: the command's, for GET …/commands/{cid} */
  int next; /* bucket chain, -1 ends */
} hg_tok;

/* envd's processes (envd_procs.c): the pid E2B's clients name a command
 * by -> hangar's command, with what Start was asked (for List). */
typedef struct hg_envd_proc {
  char sandbox[HG_ID_MAX];
  uint32_t pid;              /* the guest's, as Start's first event said */
  uint64_t cid;              /* hangar's command */
  char tag[HG_ENVD_TAG_MAX]; /* Start's "tag", "" if none */
  char *config;              /* {"cmd","args","envs","cwd"} as Start sent it (JSON) */
  uint64_t seq;              /* insertion order; 0: a free slot */
} hg_envd_proc;
typedef struct hg_envd_procs {
  hg_envd_proc *v;
  int cap, n;
  size_t bytes, max_bytes;
  uint64_t seq;
} hg_envd_procs;

typedef struct hg_status_count {
  int status;
  uint64_t n;
} hg_status_count;

struct hg_api {
  uv_loop_t *loop;
  hg_manager *m;
  hg_ops *ops;
  char *admin_key;
  char *node_id;
  char *version;
  char *accel, *accel_reason;
  unsigned pool, max_held, max_ops;
  unsigned held, ops_running;
  uint64_t held_rejected;
  hg_opjob *queue_head, *queue_tail; /* operations waiting for a slot */
  unsigned inflight;                 /* opjobs on the pool */
  hg_call *calls;                    /* requests not freed yet */
  bool stopping, freed;
  hg_tok *toks;
  int *buckets;
  int tok_next;                      /* ring position of the next insert */
  uint64_t tok_seed;
  hg_status_count *counts;           /* [route][slot], last row: no route */
  char *openapi;
  size_t openapi_len;
  hg_api_peers peers;                /* valid when have_peers */
  bool have_peers;
  hg_api_work work;                  /* lifecycle work (node/hangard) */
  hg_replicator *rp;                 /* NULL: no replication */
  hg_forward *fwd;                   /* with peers: the forwarder */
  hg_fwdsign *fwdsign;               /* with a cluster key: signs and checks forwards */
  uint64_t misdirected;              /* 421s we answered */
  hg_gateway *gw;                    /* NULL: networking is off */
  hg_envd_procs envd;                /* E2B pids of commands started through envd */
};

/* ---- api.c: dispatch, life of the API ------------------------------------- */

void hg__api_maybe_free(hg_api *api);

/* ---- routes.c: the routing table, matching -------------------------------- */

extern const hg_route hg__api_routes[];
extern const int hg__api_nroutes; /* rows of hg__api_routes */
#define HG_NROUTES hg__api_nroutes

typedef struct hg_match {
  const hg_route *rt;
  hg_params p;
  char allow[64]; /* for 405 */
} hg_match;

bool hg__api_cid_parse(const char *s, uint64_t *out);
int hg__api_pattern_match(const char *pat, const char *path, hg_params *p);
bool hg__api_method_match(const char *route, const char *method);
int hg__api_route_find(const char *method, const char *path, hg_match *m);
int hg__api_route_index(const hg_route *rt);

/* ---- call.c: errors, calls, answers, the pool ----------------------------- */

hg_err_class hg__api_err_class(int rc);
const char *hg__api_err_text(int rc);
enum { TIMER_NONE, TIMER_OPEN, TIMER_CLOSING }; /* hg_call.timer_state */

void hg__api_call_maybe_free(hg_call *c);
void hg__api_call_timer(hg_call *c, uint64_t ms, uv_timer_cb cb);
hg_call *hg__api_call_new(hg_api *api, hg_http_req *req);
void hg__api_count_status(hg_api *api, const hg_route *rt, int status);
void hg__api_call_respond(hg_call *c, int status, const char *ctype, const char *hdrs,
                          const void *body, size_t len);
void hg__api_call_json(hg_call *c, int status, json_t *obj, const char *hdrs);
json_t *hg__api_error_body(int rc, const char *msg);
/* Answers the error rc, with a message made of fmt and the table's text. */
void hg__api_call_error(hg_call *c, int rc, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
void hg__api_call_fail(hg_call *c, int rc, const char *what);
void hg__api_call_queue(hg_call *c, hg_call_fn work, hg_call_fn after);
void hg__api_call_inline(hg_call *c, hg_call_fn work, hg_call_fn after);
bool hg__api_call_hold(hg_call *c);

/* ---- auth.c: tokens, auth ------------------------------------------------- */

const hg_tok *hg__api_tok_find(const hg_api *api, const char *token);
void hg__api_tok_unlink(hg_api *api, int i);
void hg__api_tok_put(hg_api *api, hg_tok_kind kind, const char *token,
                     const char *sandbox, uint64_t cid, int pid);
int hg__api_tok_pid(const hg_api *api, const char *sandbox, uint64_t cid);
void hg__api_tok_forget_sandbox(hg_api *api, const char *sandbox);
int hg__api_token_new(char out[HG_API_TOKEN_HEX + 1]);
/* auth_decide: everything decidable on the loop thread; AUTH_CHECK: the
 * manager must tell whether the credential is the sandbox's token. */
enum { AUTH_OK = 0, AUTH_CHECK = 1 };
int hg__api_auth_decide(const hg_api *api, hg_scope scope, const hg_params *p,
                        const char *qsb, const char *cred, bool *admin);
void hg__api_cred_get(hg_call *c);
/* The same for a request not yet in a call (the head, before its body). */
void hg__api_cred_parse(const hg_http_req *req, const hg_route *rt, const hg_params *p,
                        char out[HG_API_TOKEN_MAX + 1]);

/* ---- request.c: request validation, query parameters ---------------------- */

/* Writes msg (HG_API_MSG bytes); returns -EINVAL. */
int hg__api_bad(char *msg, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
int hg__api_body_parse(const char *body, size_t len, json_t **out, char *msg);
json_t *hg__api_field(const json_t *o, const char *key);
int hg__api_get_int(const json_t *o, const char *key, int64_t lo, int64_t hi,
                    int64_t *out, char *msg);
int hg__api_get_str(const json_t *o, const char *key, size_t max, const char **out,
                    char *msg);
bool hg__api_name_valid(const char *s);
int hg__api_create_parse(const json_t *b, hg_sandbox_spec *s, char *msg);
int hg__api_exec_parse(const json_t *b, hg_exec *x, char *msg);
int hg__api_q_get(hg_call *c, const char *name, char *out, size_t cap);
int hg__api_q_opt(hg_call *c, const char *name, char *out, size_t cap);
int hg__api_q_u64(hg_call *c, const char *name, uint64_t max, uint64_t *out);
int hg__api_q_bool(hg_call *c, const char *name, bool *out);
int hg__api_q_wait(hg_call *c);
int hg__api_q_path(hg_call *c, char *out);
int hg__api_path_check(const char *what, const char *p, char *msg);

/* ---- operations.c: operations --------------------------------------------- */

void hg__api_job_cancel(hg_api *api, hg_opjob *j);
void hg__api_lc_cleanup(hg_call *c);
void hg__api_on_lc_deadline(uv_timer_t *t);
void hg__api_h_pause(hg_call *c);
void hg__api_h_resume(hg_call *c);
void hg__api_h_suspend(hg_call *c);
void hg__api_h_checkpoint(hg_call *c);
void hg__api_h_snapshot(hg_call *c);
void hg__api_h_delete(hg_call *c);
void hg__api_h_create(hg_call *c);
void hg__api_h_fork(hg_call *c);
void hg__api_h_tmpl_create(hg_call *c);
void hg__api_h_op_get(hg_call *c);
json_t *hg__api_wrap_list(json_t *v, const char *key);
void hg__api_a_list(hg_call *c, const char *key);
void hg__api_h_op_list(hg_call *c);

/* ---- sandboxes.c: sandboxes, templates ------------------------------------ */

void hg__api_h_get(hg_call *c);
void hg__api_h_patch(hg_call *c);
/* Sets c->p.id's idle_suspend_s to c->u.idle_suspend_s on a worker, then
 * answers 200 with the sandbox (as GET does). */
void hg__api_set_idle(hg_call *c);
void hg__api_w_list(hg_call *c);
void hg__api_h_list(hg_call *c);
void hg__api_h_tmpl_list(hg_call *c);

/* ---- cluster.c: the cluster, replicas ------------------------------------- */

bool hg__api_route_remote(hg_call *c);
/* Why a request for a sandbox is not served (hg_api_peers.locate < 0). */
const char *hg__api_where_msg(int where);
bool hg__api_op_lookup_start(hg_call *c);
int hg__api_placement_parse(const json_t *b, const char **zone, const char **label,
                            char *msg);
bool hg__api_create_place(hg_call *c, bool again);
void hg__api_list_merge_directory(hg_call *c, json_t *arr);
void hg__api_h_members(hg_call *c);
void hg__api_h_decommission(hg_call *c);
void hg__api_h_directory(hg_call *c);
void hg__api_h_replicas(hg_call *c);

/* ---- commands.c: commands, output ----------------------------------------- */

int hg__api_with_agent(hg_call *c, int (*fn)(hg_call *c, hg_agent *a));
int hg__api_utf8_clean(const unsigned char *s, size_t n, hg_buf *out);
void hg__api_h_exec(hg_call *c);
void hg__api_h_cmd_get(hg_call *c);
void hg__api_h_stdin(hg_call *c);
void hg__api_h_signal(hg_call *c);
json_t *hg__api_base64_json(const hg_buf *d);
void hg__api_h_output(hg_call *c);

/* ---- files.c: files ------------------------------------------------------- */

void hg__api_h_file_get(hg_call *c);
void hg__api_h_file_delete(hg_call *c);
void hg__api_h_file_list(hg_call *c);
void hg__api_h_file_stat(hg_call *c);
void hg__api_h_file_mkdir(hg_call *c);
void hg__api_h_file_put(hg_call *c);
/* hg_agent_file_write_at; on envd's routes it makes the missing parents. */
int hg__api_file_write_at(hg_call *c, hg_agent *a, const char *path, const void *data,
                          size_t len, uint64_t off, uint32_t mode);
void hg__api_file_op(hg_call *c, const char *op, const char *path, const char *dest,
                     bool flag);
/* PUT …/files streamed (authenticated at its head): the query checked
 * before the body (else answered: -EINVAL), then each piece of the body
 * written where it belongs; the handler writes the rest and answers. */
int hg__api_file_put_begin(hg_call *c);
void hg__api_file_piece(hg_call *c, const char *data, size_t len);

/* ---- network.c: network --------------------------------------------------- */

void hg__api_h_net_get(hg_call *c);
void hg__api_h_net_put(hg_call *c);
void hg__api_h_egress_log(hg_call *c);
void hg__api_h_port(hg_call *c);

/* ---- metrics.c: health, metrics ------------------------------------------- */

void hg__api_h_healthz(hg_call *c);
void hg__api_h_node(hg_call *c);
void hg__api_label_put(hg_buf *b, const char *v);
void hg__api_h_metrics(hg_call *c);

/* ---- orphans.c: fenced copies of sandboxes (DESIGN §9) ------------------- */

void hg__api_h_orphans(hg_call *c);
void hg__api_h_orphan_delete(hg_call *c);

/* ---- e2b.c, envd.c: the E2B-compatible API (docs/api.md) ---------------- */

void hg__api_h_e2b_create(hg_call *c);
void hg__api_h_e2b_get(hg_call *c);
void hg__api_h_e2b_list(hg_call *c);
void hg__api_h_e2b_delete(hg_call *c);
void hg__api_h_e2b_pause(hg_call *c);
void hg__api_h_e2b_connect(hg_call *c);
void hg__api_h_e2b_timeout(hg_call *c);
void hg__api_h_envd_health(hg_call *c);
void hg__api_h_envd_start(hg_call *c);
void hg__api_h_envd_file_get(hg_call *c);
void hg__api_h_envd_file_post(hg_call *c);
void hg__api_h_envd_fs(hg_call *c); /* filesystem.Filesystem/Stat|ListDir|MakeDir|Remove */
/* The E2B shape of an answer hangar made: {"code": status, "message"}. */
typedef void (*hg_xform_fn)(hg_call *c, int *status, json_t **obj, char *hdrs, size_t cap);
/* The E2B shape of the answers of rt (NULL for hangar's own routes). */
hg_xform_fn hg__api_e2b_xform_of(const hg_route *rt);
/* envd routes name their sandbox in E2b-Sandbox-Id, not the path. */
bool hg__api_route_envd(const hg_route *rt);
/* Whether a request on rt names one sandbox (p->id): in its path, or in
 * envd's E2b-Sandbox-Id; such a request goes to the sandbox's owner. */
bool hg__api_route_names_sandbox(const hg_route *rt, const hg_params *p);
/* E2B's control API routes (e2b.c). */
bool hg__api_route_e2b(const hg_route *rt);
/* The sandbox of an envd request: E2b-Sandbox-Id, else the one its access
 * token names (hg__api_envd_token_split). */
void hg__api_envd_params(const hg_http_req *req, hg_match *m);
/* E2B's envdAccessToken, "<sandbox id>.<sandbox token>": split (0, or
 * -EINVAL when tok is not of that form; *secret points into tok), made. */
int hg__api_envd_token_split(const char *tok, char id[HG_ID_MAX], const char **secret);
json_t *hg__api_envd_token(const char *id, const char *secret);
/* Routes whose body streams to the guest in pieces (never held whole). */
bool hg__api_route_upload(const hg_route *rt);
hg_xform_fn hg__api_envd_xform_of(const hg_route *rt);
/* Request bodies E2B -> hangar (unit-tested): create, Process/Start. */
int hg__api_e2b_create_body(const json_t *b, json_t **out, char *msg);
int hg__api_envd_start_body(const char *body, size_t len, json_t **out, char **config,
                            char *tag, char *msg);
/* GET /v2/sandboxes: filter (states "running,paused", meta "k=v&k2=v2"),
 * sort and page E2B sandboxes; *next 0: the last page. */
int hg__api_e2b_list_page(const json_t *arr, const char *states, const char *meta,
                          uint64_t limit, uint64_t start, json_t **page, uint64_t *next);
/* envd's POST /files as multipart/form-data (read whole, not streamed),
 * and its first part named "file" (filename into name). */
bool hg__api_envd_multipart(const hg_http_req *req);
int hg__api_multipart_file(const char *ctype, const char *body, size_t len,
                           const char **data, size_t *dlen, char *name, size_t cap);
/* The next such part from *off on (*off moves past it); -ENOENT: no more. */
int hg__api_multipart_next(const char *ctype, const char *body, size_t len, size_t *off,
                           const char **data, size_t *dlen, char *name, size_t cap);
/* A multipart upload of several files (no ?path): each part's filename is
 * an absolute guest path; 1 to 256 parts. 0 or -EINVAL (msg says why). */
int hg__api_envd_parts_check(const char *ctype, const char *body, size_t len, char *msg);
/* A POST /files streamed: refuses what cannot be (answered: < 0). */
int hg__api_envd_upload_check(hg_call *c);
/* commands.c: starts the command of c->body and streams its output as
 * Connect envelopes (process.Process/Start); c->u.ex.envd_config (JSON,
 * owned by the call) and envd_tag go into api->envd under the new pid. */
void hg__api_exec_connect(hg_call *c, char *config, const char *tag);
/* commands.c: streams the output of c->p.cid as Connect envelopes from
 * offsets on, {"start": {pid}} first (process.Process/Connect). */
void hg__api_connect_stream(hg_call *c, uint32_t pid, uint64_t out_off, uint64_t err_off);
/* commands.c: sends c->u.ex.in[0..in_len) (eof: then closes) to the stdin
 * of c->p.cid, or signals it with c->u.ex.sig, then answers with after. */
void hg__api_stdin_send(hg_call *c, hg_call_fn after);
/* The same for envd's SendInput/CloseStdin: -ESRCH once the command exited. */
void hg__api_stdin_send_live(hg_call *c, hg_call_fn after);
void hg__api_signal_send(hg_call *c, hg_call_fn after);
void hg__api_h_envd_proc(hg_call *c); /* process.Process/List|SendSignal|SendInput|CloseStdin */
void hg__api_h_envd_connect(hg_call *c); /* process.Process/Connect */

/* envd_procs.c: the table (loop thread only) and the request decoders */
int hg__envd_procs_init(hg_envd_procs *t, int cap, size_t max_bytes);
void hg__envd_procs_free(hg_envd_procs *t);
/* -EINVAL: pid 0, a sandbox id or tag too long, a config past max_bytes. */
int hg__envd_procs_put(hg_envd_procs *t, const char *sandbox, uint32_t pid, uint64_t cid,
                       const char *tag, const char *config);
/* By pid, or (pid 0) the newest with tag; NULL: none. */
hg_envd_proc *hg__envd_procs_find(hg_envd_procs *t, const char *sandbox, uint32_t pid,
                                  const char *tag);
void hg__envd_procs_drop(hg_envd_procs *t, const char *sandbox, uint32_t pid);
void hg__envd_procs_forget_sandbox(hg_envd_procs *t, const char *sandbox);
/* One Connect envelope's JSON. */
int hg__api_envd_envelope(const char *body, size_t len, json_t **out, char *msg);
/* {"process": {"pid"} | {"tag"}}: *pid, or 0 and tag. */
int hg__api_envd_selector(const json_t *req, uint32_t *pid, char tag[HG_ENVD_TAG_MAX],
                          char *msg);
int hg__api_envd_signal(const json_t *req, int *sig, char *msg);
int hg__api_base64_decode(const char *s, size_t n, hg_buf *out);
int hg__api_envd_input(const json_t *req, hg_buf *out, char *msg);

/* ---- openapi.c: OpenAPI --------------------------------------------------- */

#define HG_API_ANY_METHODS 7
/* Methods a "*" route is documented under. */
extern const char *const hg__api_any_methods[HG_API_ANY_METHODS];
json_t *hg__api_openapi_doc(const char *version);
void hg__api_h_openapi(hg_call *c);

#endif
