/* api: routes, auth and JSON handlers of the v1 API (docs/api.md).
 *
 * A request goes: hg_api_handler -> route_find (the one routing table) ->
 * auth_decide (may need a token check on the pool) -> the route's handler,
 * which validates its input on the loop thread and then queues its blocking
 * part on the pool (call_queue); the after-work callback answers. Errors of
 * every layer are negative errnos turned into statuses by one table
 * (err_class).
 *
 * In a cluster (cfg->peers) a request for a sandbox another node owns
 * leaves before auth, to be forwarded (api/forward.h) to the owner, which
 * authenticates and answers it; see "the cluster" below. */
#include "api/api.h"

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

#include "api/forward.h"
#include "api/inbound.h"
#include "node/agentproto.h"
#include "node/core/buf.h"
#include "node/core/err.h"
#include "node/core/list.h"
#include "node/core/log.h"
#include "node/core/util.h"

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
#define HG_API_DRAIN_MS 20
#define HG_API_MAX_ARGS 4096
#define HG_API_MAX_ENV 1024
#define HG_API_MAX_META 256
#define HG_API_TOKENS 16384           /* remembered tokens, oldest forgotten */
#define HG_API_TOKEN_BUCKETS 4096
#define HG_API_STATUS_SLOTS 16        /* distinct statuses counted per route */

/* Outcomes that are not errnos still go through the one error table. */
enum {
  HG_API_EUNAUTH = -4001,
  HG_API_EFORBID = -4003,
  HG_API_EMETHOD = -4005,
  HG_API_EMISDIRECTED = -4021, /* a forwarded request for a sandbox another node owns */
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
  K_CREATE, K_PAUSE, K_RESUME, K_SUSPEND, K_SNAPSHOT, K_FORK, K_DELETE, K_TEMPLATE
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
} hg_exec;

/* An output read: raw (one stream) or combined (NDJSON of both). */
typedef struct hg_follow {
  int stream;            /* HG_STREAM_STDOUT/STDERR, 0: combined */
  bool follow, started, done[3];
  uint64_t off[3];       /* next offset, by stream number */
  hg_buf data[3];
  hg_read_res res[3];
  hg_cmd_status st;      /* combined: exit status once both streams end */
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
  uint32_t mode;
  bool flag;             /* recursive (delete) or parents (mkdir) */
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
  bool replaced;            /* create: placed once more after a local ENOSPC */
  hg_fwd *fwd;              /* being forwarded to another node */
  hg_fwd_why why;
  json_t *peer_list;        /* operation lookup: [[node, addr]…] still to ask */
  size_t peer_next;
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
  hg_api_repl repl;                  /* valid when have_repl */
  bool have_repl;
  hg_forward *fwd;                   /* with peers: the forwarder */
  uint64_t misdirected;              /* 421s we answered */
  hg_gateway *gw;                    /* NULL: networking is off */
};

/* ---- handlers (defined below) ------------------------------------------- */

static void h_healthz(hg_call *c);
static void h_node(hg_call *c);
static void h_metrics(hg_call *c);
static void h_openapi(hg_call *c);
static void h_create(hg_call *c);
static void h_list(hg_call *c);
static void h_get(hg_call *c);
static void h_delete(hg_call *c);
static void h_pause(hg_call *c);
static void h_resume(hg_call *c);
static void h_suspend(hg_call *c);
static void h_replicas(hg_call *c);
static void h_snapshot(hg_call *c);
static void h_fork(hg_call *c);
static void h_exec(hg_call *c);
static void h_cmd_get(hg_call *c);
static void h_output(hg_call *c);
static void h_stdin(hg_call *c);
static void h_signal(hg_call *c);
static void h_file_get(hg_call *c);
static void h_file_put(hg_call *c);
static void h_file_delete(hg_call *c);
static void h_file_list(hg_call *c);
static void h_file_stat(hg_call *c);
static void h_file_mkdir(hg_call *c);
static void h_op_list(hg_call *c);
static void h_op_get(hg_call *c);
static void h_tmpl_list(hg_call *c);
static void h_tmpl_create(hg_call *c);
static void h_members(hg_call *c);
static void h_decommission(hg_call *c);
static void h_directory(hg_call *c);
static void h_net_get(hg_call *c);
static void h_net_put(hg_call *c);
static void h_egress_log(hg_call *c);
static void h_port(hg_call *c);

/* the cluster (defined below) */
static bool create_place(hg_call *c, bool again);
static bool op_lookup_start(hg_call *c);
static void list_merge_directory(hg_call *c, json_t *arr);

/* ---- the routing table ---------------------------------------------------
 * One row per method + path. Order matters only for identical shapes (there
 * are none). /metrics counts requests by pattern, and the OpenAPI document
 * is generated from these rows, so a route cannot be served undocumented. */

#define SB "/v1/sandboxes/{id}"
#define CMD SB "/commands/{cid}"
static const hg_route hg_routes[] = {
  {"GET", "/healthz", SCOPE_PUBLIC, h_healthz, BODY_NONE, 0, 200, "", "Liveness of this node"},
  {"GET", "/metrics", SCOPE_PUBLIC, h_metrics, BODY_NONE, 0, 200, "", "Prometheus metrics"},
  {"GET", "/v1/openapi.json", SCOPE_PUBLIC, h_openapi, BODY_NONE, 0, 200, "", "This document"},
  {"POST", "/v1/sandboxes", SCOPE_ADMIN, h_create, BODY_JSON, 0, 202, "wait", "Create a sandbox"},
  {"GET", "/v1/sandboxes", SCOPE_ADMIN, h_list, BODY_NONE, 0, 200, "state,label", "List sandboxes"},
  {"GET", SB, SCOPE_SANDBOX, h_get, BODY_NONE, 0, 200, "", "Describe a sandbox"},
  {"DELETE", SB, SCOPE_SANDBOX, h_delete, BODY_NONE, 0, 202, "wait", "Delete a sandbox"},
  {"POST", SB "/pause", SCOPE_SANDBOX, h_pause, BODY_NONE, 0, 202, "wait", "Pause (memory stays on the node)"},
  {"POST", SB "/resume", SCOPE_SANDBOX, h_resume, BODY_NONE, 0, 202, "wait,node", "Resume a paused or suspended sandbox (on ?node=, which must hold its newest generation)"},
  {"POST", SB "/suspend", SCOPE_SANDBOX, h_suspend, BODY_NONE, 0, 202, "wait,durability", "Suspend to a new generation (replicated to the sandbox's holders, or ?durability=local)"},
  {"GET", SB "/replicas", SCOPE_SANDBOX, h_replicas, BODY_NONE, 0, 200, "", "Every holder's generations of the sandbox"},
  {"POST", SB "/snapshot", SCOPE_SANDBOX, h_snapshot, BODY_NONE, 0, 202, "wait", "Disk-only snapshot"},
  {"POST", SB "/fork", SCOPE_SANDBOX, h_fork, BODY_JSON, 0, 202, "wait", "Fork a new sandbox from a generation (restored) or a disk snapshot (booted)"},
  {"POST", SB "/commands", SCOPE_SANDBOX, h_exec, BODY_JSON, 0, 201, "wait", "Start a command"},
  {"GET", CMD, SCOPE_SANDBOX, h_cmd_get, BODY_NONE, 0, 200, "", "Status of a command"},
  {"GET", CMD "/output", SCOPE_OUTPUT, h_output, BODY_NONE, 0, 200,
   "stream,offset,follow,stdout_offset,stderr_offset,token", "Output of a command"},
  {"POST", CMD "/stdin", SCOPE_SANDBOX, h_stdin, BODY_RAW, HG_API_MAX_STDIN, 204, "eof",
   "Write to a command's stdin"},
  {"POST", CMD "/signal", SCOPE_SANDBOX, h_signal, BODY_JSON, 0, 204, "", "Signal a command"},
  {"GET", SB "/files", SCOPE_SANDBOX, h_file_get, BODY_NONE, 0, 200, "path", "Read a guest file"},
  {"PUT", SB "/files", SCOPE_SANDBOX, h_file_put, BODY_RAW, HG_API_MAX_UPLOAD, 204, "path,mode",
   "Write a guest file"},
  {"DELETE", SB "/files", SCOPE_SANDBOX, h_file_delete, BODY_NONE, 0, 204, "path,recursive",
   "Remove a guest file or directory"},
  {"GET", SB "/files/list", SCOPE_SANDBOX, h_file_list, BODY_NONE, 0, 200, "path", "List a guest directory"},
  {"GET", SB "/files/stat", SCOPE_SANDBOX, h_file_stat, BODY_NONE, 0, 200, "path", "Stat a guest path"},
  {"POST", SB "/files/mkdir", SCOPE_SANDBOX, h_file_mkdir, BODY_NONE, 0, 204, "path,parents",
   "Make a guest directory"},
  {"GET", SB "/network", SCOPE_SANDBOX, h_net_get, BODY_NONE, 0, 200, "",
   "Egress policy (credential values redacted)"},
  {"PUT", SB "/network", SCOPE_SANDBOX, h_net_put, BODY_JSON, 0, 200, "",
   "Replace the egress policy (applies live)"},
  {"GET", SB "/egress-log", SCOPE_SANDBOX, h_egress_log, BODY_NONE, 0, 200, "",
   "The gateway's egress decisions, oldest first"},
  {"*", SB "/ports/{port}/{path*}", SCOPE_SANDBOX, h_port, BODY_RAW, HG_API_MAX_UPLOAD, 200, "",
   "HTTP to a port in the sandbox (any method; the guest's status and body)"},
  {"GET", "/v1/operations", SCOPE_OPLIST, h_op_list, BODY_NONE, 0, 200, "sandbox", "List operations"},
  {"GET", "/v1/operations/{op}", SCOPE_OP, h_op_get, BODY_NONE, 0, 200, "wait", "Describe an operation"},
  {"GET", "/v1/templates", SCOPE_ADMIN, h_tmpl_list, BODY_NONE, 0, 200, "", "List templates"},
  {"POST", "/v1/templates", SCOPE_ADMIN, h_tmpl_create, BODY_JSON, 0, 202, "wait", "Register a template"},
  {"GET", "/v1/node", SCOPE_ADMIN, h_node, BODY_NONE, 0, 200, "",
   "This node: id, version, and the accelerator its VMs run under, with why"},
  {"GET", "/v1/cluster/members", SCOPE_ADMIN, h_members, BODY_NONE, 0, 200, "", "Members of the cluster"},
  {"DELETE", "/v1/cluster/members/{node}", SCOPE_ADMIN, h_decommission, BODY_NONE, 0, 204, "",
   "Decommission a member (it must be dead or gone): it leaves the roster"},
  {"GET", "/v1/cluster/sandboxes", SCOPE_ADMIN, h_directory, BODY_NONE, 0, 200, "",
   "The cluster's sandbox directory"},
};
#undef CMD
#undef SB

#define HG_NROUTES ((int)HG_ARRAY_SIZE(hg_routes))

/* ---- errors --------------------------------------------------------------------
 * Every failure is a negative errno or one of HG_API_E*. Errnos map to
 * (status, code) through hg_err_classify, the one table in node/core/err.c
 * that operations use too, so an operation's error.code and the status of
 * the ?wait answer for it always agree. The API's own outcomes are here.
 * EPROTO there means the guest's garbage: request errors are EINVAL by the
 * time they get that far. */

typedef struct hg_api_error {
  int err;
  hg_err_class cls;
  const char *text;
} hg_api_error;

static const hg_api_error hg_api_errors[] = {
  {HG_API_EUNAUTH, {"unauthorized", 401}, "missing or invalid credentials"},
  {HG_API_EFORBID, {"forbidden", 403}, "these credentials do not grant this request"},
  {HG_API_EMETHOD, {"method_not_allowed", 405}, "method not allowed"},
  {HG_API_EMISDIRECTED, {"misdirected", 421}, "the sandbox is owned by another node"},
  {-ECONNREFUSED, {"port_closed", 502}, "nothing listens on that port in the sandbox"},
  {-EXDEV, {"incompatible_accelerator", 409},
   "the sandbox was saved under another accelerator (kvm, tcg) than this node runs"},
};

static hg_err_class err_class(int rc) {
  for (size_t i = 0; i < HG_ARRAY_SIZE(hg_api_errors); i++)
    if (hg_api_errors[i].err == rc) return hg_api_errors[i].cls;
  return hg_err_classify(rc);
}

static const char *err_text(int rc) {
  for (size_t i = 0; i < HG_ARRAY_SIZE(hg_api_errors); i++)
    if (hg_api_errors[i].err == rc) return hg_api_errors[i].text;
  return hg_err_str(rc);
}

/* ---- matching -------------------------------------------------------------- */

/* Next segment of a path or pattern starting after a '/'. */
static const char *seg_next(const char *s, size_t *len) {
  const char *e = strchr(s, '/');
  *len = e ? (size_t)(e - s) : strlen(s);
  return e ? e + 1 : NULL;
}

/* "cmd-<decimal>" without leading zeros, up to UINT64_MAX. */
static bool cid_parse(const char *s, uint64_t *out) {
  if (strncmp(s, "cmd-", 4) != 0) return false;
  s += 4;
  if (!*s || (s[0] == '0' && s[1]) || strlen(s) > 20) return false;
  uint64_t v = 0;
  for (; *s; s++) {
    if (*s < '0' || *s > '9') return false;
    unsigned d = (unsigned)(*s - '0');
    if (v > (UINT64_MAX - d) / 10) return false;
    v = v * 10 + d;
  }
  *out = v;
  return true;
}

/* Stores one {name} capture; false when the value is no valid id of its kind
 * (bad ids read as "no such thing": 404, not 400). */
static bool param_set(hg_params *p, const char *name, size_t nlen, const char *v, size_t vlen) {
  char buf[HG_NODE_ID_MAX + 8];
  if (vlen >= sizeof buf) return false;
  memcpy(buf, v, vlen);
  buf[vlen] = '\0';
  if (nlen == 2 && !memcmp(name, "id", 2)) {
    if (!hg_id_valid("sb", buf)) return false;
    memcpy(p->id, buf, vlen + 1);
    return true;
  }
  if (nlen == 2 && !memcmp(name, "op", 2)) {
    if (!hg_id_valid("op", buf)) return false;
    memcpy(p->op, buf, vlen + 1);
    return true;
  }
  if (nlen == 4 && !memcmp(name, "node", 4)) {
    if (!hg_node_id_valid(buf)) return false;
    memcpy(p->node, buf, vlen + 1);
    return true;
  }
  if (nlen == 4 && !memcmp(name, "port", 4)) { /* decimal, no leading zero */
    unsigned v = 0;
    for (size_t i = 0; i < vlen; i++) {
      if (buf[i] < '0' || buf[i] > '9' || (i == 0 && buf[i] == '0') || i >= 5) return false;
      v = v * 10 + (unsigned)(buf[i] - '0');
    }
    if (v == 0 || v > 65535) return false;
    p->port = (uint16_t)v;
    return true;
  }
  return nlen == 3 && !memcmp(name, "cid", 3) && cid_parse(buf, &p->cid);
}

/* Shape match of a pattern against a path ({x} matches any non-empty
 * segment). With p, also captures and validates the ids into p. Returns 1
 * on a match, 0 on none, -1 when the shape matches but an id is invalid. */
/* A pattern's last segment "{name*}" matches the rest of the path: no
 * segment, one, or many. */
static bool seg_is_tail(const char *a, size_t al) {
  return al > 3 && a[0] == '{' && a[al - 2] == '*' && a[al - 1] == '}' && !a[al] &&
         !memchr(a, '/', al);
}

static int pattern_match(const char *pat, const char *path, hg_params *p) {
  if (*pat != '/' || *path != '/') return 0;
  const char *a = pat + 1, *b = path + 1;
  bool bad = false;
  while (a && b) {
    size_t al, bl;
    const char *an = seg_next(a, &al), *bn = seg_next(b, &bl);
    if (seg_is_tail(a, al)) return bad ? -1 : 1;
    if (al > 2 && a[0] == '{' && a[al - 1] == '}') {
      if (bl == 0) return 0;
      if (p && !param_set(p, a + 1, al - 2, b, bl)) bad = true;
    } else if (al != bl || memcmp(a, b, al) != 0) {
      return 0;
    }
    a = an;
    b = bn;
  }
  if (a && !b && seg_is_tail(a, strlen(a))) return bad ? -1 : 1; /* "/ports/80" */
  if (a || b) return 0;
  return bad ? -1 : 1;
}

/* "*": a route for every method (the inbound port proxy). */
static bool method_match(const char *route, const char *method) {
  return !strcmp(route, "*") || !strcmp(route, method);
}

typedef struct hg_match {
  const hg_route *rt;
  hg_params p;
  char allow[64]; /* for 405 */
} hg_match;

/* 0: m->rt serves method+path; -ENOENT: no such path, or an invalid id in
 * it; HG_API_EMETHOD: the path exists for other methods (m->allow). */
static int route_find(const char *method, const char *path, hg_match *m) {
  memset(m, 0, sizeof *m);
  bool shape = false;
  for (int i = 0; i < HG_NROUTES; i++) {
    const hg_route *r = &hg_routes[i];
    if (!pattern_match(r->pattern, path, NULL)) continue;
    shape = true;
    if (!method_match(r->method, method)) {
      if (!strstr(m->allow, r->method)) {
        size_t n = strlen(m->allow);
        snprintf(m->allow + n, sizeof m->allow - n, "%s%s", n ? ", " : "", r->method);
      }
      continue;
    }
    if (pattern_match(r->pattern, path, &m->p) < 0) return -ENOENT;
    m->rt = r;
    return 0;
  }
  return shape ? HG_API_EMETHOD : -ENOENT;
}

static int route_index(const hg_route *rt) { return rt ? (int)(rt - hg_routes) : HG_NROUTES; }

/* ---- calls: life of one request -------------------------------------------- */

enum { TIMER_NONE, TIMER_OPEN, TIMER_CLOSING };

static void api_maybe_free(hg_api *api);

static void call_free(hg_call *c) {
  hg_api *api = c->api;
  if (c->cleanup) c->cleanup(c);
  json_decref(c->body);
  json_decref(c->out);
  json_decref(c->peer_list);
  if (c->held) api->held--;
  HG_LIST_UNLINK(api->calls, c);
  free(c);
}

static void on_timer_closed(uv_handle_t *h) {
  hg_call *c = h->data;
  c->timer_state = TIMER_NONE;
  hg_api *api = c->api;
  if (!c->busy) {
    call_free(c);
    api_maybe_free(api);
  }
}

/* Frees c once it is answered, off the pool, and its timer closed. */
static void call_maybe_free(hg_call *c) {
  if (!c->finished || c->busy) return;
  if (c->timer_state == TIMER_OPEN) {
    c->timer_state = TIMER_CLOSING;
    uv_close((uv_handle_t *)&c->timer, on_timer_closed);
  }
  if (c->timer_state != TIMER_NONE) return;
  hg_api *api = c->api;
  call_free(c);
  api_maybe_free(api);
}

static void call_timer(hg_call *c, uint64_t ms, uv_timer_cb cb) {
  if (c->timer_state == TIMER_NONE) {
    uv_timer_init(c->api->loop, &c->timer);
    c->timer.data = c;
    c->timer_state = TIMER_OPEN;
  }
  uv_timer_start(&c->timer, cb, ms, 0);
}

static hg_call *call_new(hg_api *api, hg_http_req *req) {
  hg_call *c = calloc(1, sizeof *c);
  if (!c) return NULL;
  c->api = api;
  c->req = req;
  atomic_init(&c->aborted, false);
  HG_LIST_PUSH(api->calls, c);
  req->data = c;
  return c;
}

/* ---- responses (and the request counter of /metrics) --------------------- */

static void count_status(hg_api *api, const hg_route *rt, int status) {
  hg_status_count *row = &api->counts[route_index(rt) * HG_API_STATUS_SLOTS];
  for (int i = 0; i < HG_API_STATUS_SLOTS; i++) {
    if (row[i].status == status || row[i].status == 0) {
      row[i].status = status;
      row[i].n++;
      return;
    }
  }
  row[HG_API_STATUS_SLOTS - 1].n++; /* more distinct statuses than slots: lump */
}

/* Answers c (or ends its stream) unless it is answered already. A request
 * whose client left (even one the server outlived) is still answered: for
 * hg_http that is a no-op that frees it. */
static void call_respond(hg_call *c, int status, const char *ctype, const char *hdrs,
                         const void *body, size_t len) {
  hg_http_req *req = c->req;
  if (!c->finished) {
    if (!c->streaming) count_status(c->api, c->rt, status);
    req->data = NULL;
    if (c->streaming) hg_http_stream_end(req);
    else hg_http_respond(req, status, ctype, hdrs, body, len);
  }
  c->finished = true;
  call_maybe_free(c);
}

/* Steals obj. */
static void call_json(hg_call *c, int status, json_t *obj, const char *hdrs) {
  char *s = obj ? json_dumps(obj, JSON_COMPACT) : NULL;
  json_decref(obj);
  if (!s) {
    static const char oom[] = "{\"error\":{\"code\":\"internal\",\"message\":\"out of memory\"}}";
    call_respond(c, 500, "application/json", NULL, oom, sizeof oom - 1);
    return;
  }
  call_respond(c, status, "application/json", hdrs, s, strlen(s));
  free(s);
}

static json_t *error_body(int rc, const char *msg) {
  return json_pack("{s:{s:s,s:s}}", "error", "code", err_class(rc).code, "message",
                   msg && *msg ? msg : err_text(rc));
}

/* Answers the error rc, with a message made of fmt and the table's text. */
static void call_error(hg_call *c, int rc, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
static void call_error(hg_call *c, int rc, const char *fmt, ...) {
  hg_err_class e = err_class(rc);
  char msg[HG_API_MSG + 64];
  int n = 0;
  if (fmt) {
    va_list ap;
    va_start(ap, fmt);
    n = vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
  }
  if (n <= 0) snprintf(msg, sizeof msg, "%s", err_text(rc));
  const char *hdrs = NULL;
  char allow[96];
  if (rc == HG_API_EUNAUTH) hdrs = "WWW-Authenticate: Bearer realm=\"hangar\"\r\n";
  if (rc == -EAGAIN) hdrs = "Retry-After: 1\r\n";
  if (rc == HG_API_EMETHOD && c->msg[0]) {
    snprintf(allow, sizeof allow, "Allow: %.64s\r\n", c->msg);
    hdrs = allow;
  }
  if (e.status >= 500 && e.status != 503)
    hg_log_warn("api.error", "route=\"%s\" status=%d err=%d msg=\"%s\"",
                c->rt ? c->rt->pattern : "-", e.status, rc, msg);
  call_json(c, e.status, error_body(rc, msg), hdrs);
}

/* Errors from the runtime: "<what>: <table text>". */
static void call_fail(hg_call *c, int rc, const char *what) {
  call_error(c, rc, "%s: %s", what, err_text(rc));
}

/* ---- the thread pool -------------------------------------------------------- */

static void on_call_work(uv_work_t *w) {
  hg_call *c = w->data;
  c->work_fn(c);
}

static void on_call_after(uv_work_t *w, int status) {
  hg_call *c = w->data;
  c->busy = false;
  if (c->finished) { /* dropped (shutdown) or a stream the client left */
    call_maybe_free(c);
    return;
  }
  if (status == UV_ECANCELED) c->rc = -EAGAIN;
  c->after_fn(c);
}

/* Runs work on a worker, then after on the loop thread. */
static void call_queue(hg_call *c, hg_call_fn work, hg_call_fn after) {
  c->work_fn = work;
  c->after_fn = after;
  c->work.data = c;
  c->busy = true;
  int rc = uv_queue_work(c->api->loop, &c->work, on_call_work, on_call_after);
  if (rc < 0) {
    c->busy = false;
    call_fail(c, rc, "queueing work");
  }
}

/* Runs work and after right here on the loop thread: only for manager calls
 * that take nothing but the manager's in-memory lock (describe, list),
 * where a hop through the pool would cost more than the work. */
static void call_inline(hg_call *c, hg_call_fn work, hg_call_fn after) {
  work(c);
  after(c);
}

/* Takes one held-call slot, or answers 503. */
static bool call_hold(hg_call *c) {
  hg_api *api = c->api;
  if (api->held >= api->max_held) {
    api->held_rejected++;
    call_error(c, -EAGAIN, "too many waiting requests on this node (%u); retry", api->max_held);
    return false;
  }
  api->held++;
  c->held = true;
  return true;
}

/* ---- tokens ------------------------------------------------------------------
 * A small hash table (chained through indices) over a ring of slots: when
 * the ring wraps, the oldest token is forgotten. Lookups compare secrets
 * with hg_secret_equal; the bucket a token falls in is keyed by a random
 * seed, so its timing tells nothing about stored tokens. */

static int tok_bucket(const hg_api *api, const char *t) {
  uint64_t h = 1469598103934665603ull ^ api->tok_seed;
  for (; *t; t++) {
    h ^= (unsigned char)*t;
    h *= 1099511628211ull;
  }
  return (int)(h % HG_API_TOKEN_BUCKETS);
}

static const hg_tok *tok_find(const hg_api *api, const char *token) {
  for (int i = api->buckets[tok_bucket(api, token)]; i != -1; i = api->toks[i].next)
    if (hg_secret_equal(api->toks[i].token, token)) return &api->toks[i];
  return NULL;
}

static void tok_unlink(hg_api *api, int i) {
  hg_tok *t = &api->toks[i];
  int *pp = &api->buckets[tok_bucket(api, t->token)];
  while (*pp != -1 && *pp != i) pp = &api->toks[*pp].next;
  if (*pp == i) *pp = t->next;
  t->kind = TOK_FREE;
}

static void tok_put(hg_api *api, hg_tok_kind kind, const char *token, const char *sandbox,
                    uint64_t cid, int pid) {
  if (!*token || strlen(token) > HG_API_TOKEN_HEX || tok_find(api, token)) return;
  int i = api->tok_next;
  api->tok_next = (i + 1) % HG_API_TOKENS;
  if (api->toks[i].kind != TOK_FREE) tok_unlink(api, i);
  hg_tok *t = &api->toks[i];
  t->kind = kind;
  snprintf(t->token, sizeof t->token, "%s", token);
  snprintf(t->sandbox, sizeof t->sandbox, "%s", sandbox);
  t->cid = cid;
  t->pid = pid;
  int b = tok_bucket(api, token);
  t->next = api->buckets[b];
  api->buckets[b] = i;
}

/* The pid of a command started through this daemon, or 0. */
static int tok_pid(const hg_api *api, const char *sandbox, uint64_t cid) {
  for (int i = 0; i < HG_API_TOKENS; i++) {
    const hg_tok *t = &api->toks[i];
    if (t->kind == TOK_OUTPUT && t->cid == cid && !strcmp(t->sandbox, sandbox)) return t->pid;
  }
  return 0;
}

/* After a delete: its sandbox and output tokens mean nothing any more. */
static void tok_forget_sandbox(hg_api *api, const char *sandbox) {
  for (int i = 0; i < HG_API_TOKENS; i++)
    if (api->toks[i].kind != TOK_FREE && !strcmp(api->toks[i].sandbox, sandbox))
      tok_unlink(api, i);
}

static int token_new(char out[HG_API_TOKEN_HEX + 1]) {
  unsigned char raw[HG_API_TOKEN_HEX / 2];
  int rc = hg_random_bytes(raw, sizeof raw);
  if (rc < 0) return rc;
  hg_hex_encode(raw, sizeof raw, out);
  return 0;
}

/* ---- auth ----------------------------------------------------------------------
 * 401: no credentials, or ones that are nothing we know. 403: credentials
 * we know to be valid (a sandbox token we have seen accepted, an output
 * token we issued) used for something they do not grant. hangar cannot look
 * a sandbox token up by its secret, so a sandbox token not seen since this
 * daemon started reads 401 on a route it does not grant. */

enum { AUTH_OK = 0, AUTH_CHECK = 1 };

/* Everything decidable on the loop thread. Returns AUTH_OK, HG_API_EUNAUTH,
 * HG_API_EFORBID, or AUTH_CHECK: the manager must tell whether cred is the
 * token of the sandbox concerned ({id}, the operation's, or qsb). */
static int auth_decide(const hg_api *api, hg_scope scope, const hg_params *p, const char *qsb,
                       const char *cred, bool *admin) {
  *admin = false;
  if (scope == SCOPE_PUBLIC) return AUTH_OK;
  if (!cred || !*cred) return HG_API_EUNAUTH;
  if (hg_secret_equal(cred, api->admin_key)) {
    *admin = true;
    return AUTH_OK;
  }
  const hg_tok *t = tok_find(api, cred);
  bool output = t && t->kind == TOK_OUTPUT;
  if (scope == SCOPE_OUTPUT && output)
    return !strcmp(t->sandbox, p->id) && t->cid == p->cid ? AUTH_OK : HG_API_EFORBID;
  if (output) return HG_API_EFORBID; /* output tokens grant nothing else */
  switch (scope) {
  case SCOPE_OUTPUT:
  case SCOPE_SANDBOX:
    return t && strcmp(t->sandbox, p->id) ? HG_API_EFORBID : AUTH_CHECK;
  case SCOPE_OP:
    return AUTH_CHECK;
  case SCOPE_OPLIST:
    if (!qsb[0] || (t && strcmp(t->sandbox, qsb))) return t ? HG_API_EFORBID : HG_API_EUNAUTH;
    return AUTH_CHECK;
  default:
    return t ? HG_API_EFORBID : HG_API_EUNAUTH;
  }
}

/* The Bearer credential, or on the output route also ?token=. */
static void cred_get(hg_call *c) {
  const char *h = hg_http_header_get(c->req, "authorization");
  c->cred[0] = '\0';
  if (h) {
    if (strncasecmp(h, "Bearer ", 7) != 0) return;
    h += 7;
    while (*h == ' ') h++;
    size_t n = strlen(h);
    while (n && (h[n - 1] == ' ' || h[n - 1] == '\t')) n--;
    if (n <= HG_API_TOKEN_MAX) {
      memcpy(c->cred, h, n);
      c->cred[n] = '\0';
    }
    return;
  }
  if (c->rt->scope == SCOPE_OUTPUT &&
      hg_http_query_get(c->req, "token", c->cred, sizeof c->cred) < 0)
    c->cred[0] = '\0';
}

/* ---- request validation ----------------------------------------------------
 * Known fields of the wrong type or out of range are 400 with a message
 * naming the field; unknown fields are ignored; null reads as absent. The
 * helpers write msg (HG_API_MSG bytes) and return -EINVAL. */

static int bad(char *msg, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static int bad(char *msg, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(msg, HG_API_MSG, fmt, ap);
  va_end(ap);
  return -EINVAL;
}

static int body_parse(const char *body, size_t len, json_t **out, char *msg) {
  if (len == 0) {
    *out = json_object();
    return *out ? 0 : -ENOMEM;
  }
  if (len > HG_API_MAX_JSON) {
    snprintf(msg, HG_API_MSG, "JSON body larger than %u bytes", HG_API_MAX_JSON);
    return -E2BIG;
  }
  json_error_t je;
  json_t *j = json_loadb(body, len, JSON_REJECT_DUPLICATES, &je);
  if (!j) return bad(msg, "invalid JSON at line %d column %d: %s", je.line, je.column, je.text);
  if (!json_is_object(j)) {
    json_decref(j);
    return bad(msg, "the body must be a JSON object");
  }
  *out = j;
  return 0;
}

static json_t *field(const json_t *o, const char *key) {
  json_t *v = json_object_get(o, key);
  return json_is_null(v) ? NULL : v;
}

static int get_int(const json_t *o, const char *key, int64_t lo, int64_t hi, int64_t *out,
                   char *msg) {
  json_t *v = field(o, key);
  if (!v) return 0;
  if (!json_is_integer(v) || json_integer_value(v) < lo || json_integer_value(v) > hi)
    return bad(msg, "field \"%s\": must be an integer from %" PRId64 " to %" PRId64, key, lo, hi);
  *out = json_integer_value(v);
  return 0;
}

static int get_str(const json_t *o, const char *key, size_t max, const char **out, char *msg) {
  json_t *v = field(o, key);
  if (!v) return 0;
  if (!json_is_string(v)) return bad(msg, "field \"%s\": must be a string", key);
  if (json_string_length(v) > max)
    return bad(msg, "field \"%s\": longer than %zu bytes", key, max);
  *out = json_string_value(v);
  return 0;
}

static int get_bool(const json_t *o, const char *key, bool *out, char *msg) {
  json_t *v = field(o, key);
  if (!v) return 0;
  if (!json_is_boolean(v)) return bad(msg, "field \"%s\": must be true or false", key);
  *out = json_is_true(v);
  return 0;
}

static int get_seconds(const json_t *o, const char *key, double max, double *out, char *msg) {
  json_t *v = field(o, key);
  if (!v) return 0;
  if (!json_is_number(v) || json_number_value(v) < 0 || json_number_value(v) > max)
    return bad(msg, "field \"%s\": must be a number of seconds from 0 to %.0f", key, max);
  *out = json_number_value(v);
  return 0;
}

/* An object of strings (env, metadata). env: names without '='. */
static int get_str_map(const json_t *o, const char *key, size_t maxn, bool env, json_t **out,
                       char *msg) {
  json_t *v = field(o, key);
  if (!v) return 0;
  if (!json_is_object(v)) return bad(msg, "field \"%s\": must be an object of strings", key);
  if (json_object_size(v) > maxn)
    return bad(msg, "field \"%s\": more than %zu entries", key, maxn);
  const char *k;
  json_t *s;
  json_object_foreach(v, k, s) {
    if (!json_is_string(s))
      return bad(msg, "field \"%s\": value of \"%.64s\" must be a string", key, k);
    if (!*k || strlen(k) > 256 || (env && strchr(k, '=')))
      return bad(msg, "field \"%s\": invalid name \"%.64s\"", key, k);
  }
  *out = v;
  return 0;
}

/* Template references, by the rule of hg_template_name (node/template.c):
 * name[:tag], each part 1-40 of [a-z0-9._-] starting with [a-z0-9]. */
static bool name_part_valid(const char *p, size_t n) {
  if (n == 0 || n > 40) return false;
  for (size_t i = 0; i < n; i++) {
    char ch = p[i];
    if (!((ch >= 'a' && ch <= 'z') || (ch >= '0' && ch <= '9') ||
          (i > 0 && (ch == '.' || ch == '_' || ch == '-'))))
      return false;
  }
  return true;
}

static bool name_valid(const char *s) {
  const char *colon = strchr(s, ':');
  if (!colon) return name_part_valid(s, strlen(s));
  return name_part_valid(s, (size_t)(colon - s)) && name_part_valid(colon + 1, strlen(colon + 1));
}

/* Guest paths: absolute, bounded; NUL cannot get here (hg_http_query_get
 * refuses %00).
 * They are only ever sent to the guest agent, never opened on the host. */
static int path_check(const char *what, const char *p, char *msg) {
  size_t n = strlen(p);
  if (n == 0 || p[0] != '/') return bad(msg, "%s: must be an absolute guest path", what);
  if (n > HG_API_MAX_PATH) return bad(msg, "%s: longer than %d bytes", what, HG_API_MAX_PATH);
  return 0;
}

static int create_parse(const json_t *b, hg_sandbox_spec *s, char *msg) {
  int64_t vcpus = 0, mem = 0, idle = 0, replicas = 0;
  int rc;
  memset(s, 0, sizeof *s);
  if ((rc = get_str(b, "template", 128, &s->template_ref, msg)) < 0 ||
      (rc = get_int(b, "vcpus", 1, 64, &vcpus, msg)) < 0 ||
      (rc = get_int(b, "memory_mib", 64, 1024 * 1024, &mem, msg)) < 0 ||
      (rc = get_int(b, "idle_suspend_s", -1, 10ll * 365 * 86400, &idle, msg)) < 0 ||
      (rc = get_int(b, "replicas", 1, 8, &replicas, msg)) < 0 ||
      (rc = get_str_map(b, "env", HG_API_MAX_ENV, true, &s->env, msg)) < 0 ||
      (rc = get_str_map(b, "metadata", HG_API_MAX_META, false, &s->metadata, msg)) < 0)
    return rc;
  if (s->template_ref && !name_valid(s->template_ref))
    return bad(msg, "field \"template\": must look like name or name:tag");
  s->vcpus = (unsigned)vcpus;
  s->memory_mib = (unsigned)mem;
  s->idle_suspend_s = idle;
  s->replicas = (unsigned)replicas;
  return 0;
}

static int exec_argv(const json_t *b, hg_exec *x, char *msg) {
  json_t *cmd = field(b, "cmd");
  if (!cmd) return bad(msg, "field \"cmd\": required");
  if (!json_is_array(cmd) || json_array_size(cmd) == 0 || json_array_size(cmd) > HG_API_MAX_ARGS)
    return bad(msg, "field \"cmd\": must be an array of 1 to %d strings", HG_API_MAX_ARGS);
  x->argv = calloc(json_array_size(cmd) + 1, sizeof *x->argv);
  if (!x->argv) return -ENOMEM;
  size_t i;
  json_t *v;
  json_array_foreach(cmd, i, v) {
    if (!json_is_string(v)) return bad(msg, "field \"cmd\": element %zu must be a string", i);
    x->argv[i] = json_string_value(v);
  }
  return 0;
}

static int exec_env(const json_t *b, hg_exec *x, char *msg) {
  json_t *env = NULL;
  int rc = get_str_map(b, "env", HG_API_MAX_ENV, true, &env, msg);
  if (rc < 0 || !env) return rc;
  x->env = calloc(json_object_size(env) + 1, sizeof *x->env);
  if (!x->env) return -ENOMEM;
  const char *k;
  json_t *v;
  size_t i = 0;
  json_object_foreach(env, k, v) {
    size_t n = strlen(k) + json_string_length(v) + 2;
    if (!(x->env[i] = malloc(n))) return -ENOMEM;
    snprintf(x->env[i++], n, "%s=%s", k, json_string_value(v));
  }
  return 0;
}

/* POST …/commands body -> x (argv and strings point into b). */
static int exec_parse(const json_t *b, hg_exec *x, char *msg) {
  const char *cwd = NULL, *in = NULL;
  double timeout = 0;
  bool open = false;
  int rc;
  if ((rc = exec_argv(b, x, msg)) < 0 || (rc = exec_env(b, x, msg)) < 0 ||
      (rc = get_str(b, "cwd", HG_API_MAX_PATH, &cwd, msg)) < 0 ||
      (rc = get_str(b, "stdin", HG_AGENT_MAX_DATA / 2, &in, msg)) < 0 ||
      (rc = get_bool(b, "stdin_open", &open, msg)) < 0 ||
      (rc = get_seconds(b, "timeout_s", 7 * 86400, &timeout, msg)) < 0)
    return rc;
  if (cwd && (rc = path_check("field \"cwd\"", cwd, msg)) < 0) return rc;
  x->req.argv = x->argv;
  x->req.env = (const char *const *)x->env;
  x->req.cwd = cwd;
  x->req.stdin_data = in;
  x->req.stdin_len = in ? strlen(in) : 0;
  x->req.stdin_open = open;
  x->req.timeout_ms = (uint32_t)(timeout * 1000);
  if (timeout > 0 && x->req.timeout_ms == 0) x->req.timeout_ms = 1;
  return 0;
}

/* ---- query parameters ---------------------------------------------------------- */

/* 0, -ENOENT (absent), or -EINVAL with c->msg. */
static int q_get(hg_call *c, const char *name, char *out, size_t cap) {
  int rc = hg_http_query_get(c->req, name, out, cap);
  if (rc == -ENOENT) return rc;
  /* hg_http refuses bad escapes and NUL bytes (EINVAL) and long values */
  if (rc == -ENOBUFS) return bad(c->msg, "query parameter \"%s\": too long", name);
  if (rc < 0) return bad(c->msg, "query parameter \"%s\": bad escape or NUL byte", name);
  return 0;
}

static bool u64_parse(const char *s, uint64_t *out) {
  uint64_t v = 0;
  if (!*s || strlen(s) > 20) return false;
  for (; *s; s++) {
    if (*s < '0' || *s > '9') return false;
    unsigned d = (unsigned)(*s - '0');
    if (v > (UINT64_MAX - d) / 10) return false;
    v = v * 10 + d;
  }
  *out = v;
  return true;
}

/* Absent reads as "". */
static int q_opt(hg_call *c, const char *name, char *out, size_t cap) {
  int rc = q_get(c, name, out, cap);
  if (rc == -ENOENT) out[0] = '\0';
  return rc == -ENOENT ? 0 : rc;
}

/* Absent leaves *out alone. */
static int q_u64(hg_call *c, const char *name, uint64_t max, uint64_t *out) {
  char buf[32];
  int rc = q_get(c, name, buf, sizeof buf);
  if (rc == -ENOENT) return 0;
  if (rc < 0) return rc;
  uint64_t v;
  if (!u64_parse(buf, &v) || v > max)
    return bad(c->msg, "query parameter \"%s\": must be an integer from 0 to %" PRIu64, name, max);
  *out = v;
  return 0;
}

static int q_bool(hg_call *c, const char *name, bool *out) {
  char buf[8];
  int rc = q_get(c, name, buf, sizeof buf);
  if (rc == -ENOENT) return 0;
  if (rc < 0) return rc;
  if (!strcmp(buf, "1") || !strcmp(buf, "true") || !strcmp(buf, "")) *out = true;
  else if (!strcmp(buf, "0") || !strcmp(buf, "false")) *out = false;
  else return bad(c->msg, "query parameter \"%s\": must be 1 or 0", name);
  return 0;
}

static int q_wait(hg_call *c) {
  uint64_t w = 0;
  int rc = q_u64(c, "wait", HG_API_MAX_WAIT_S, &w);
  c->wait_s = (int)w;
  return rc;
}

static int q_path(hg_call *c, char *out) {
  int rc = q_get(c, "path", out, HG_API_MAX_PATH + 2);
  if (rc == -ENOENT) return bad(c->msg, "query parameter \"path\": required");
  if (rc < 0) return rc;
  return path_check("query parameter \"path\"", out, c->msg);
}

/* ---- operations -----------------------------------------------------------------
 * A lifecycle request runs in two trips to the pool: "begin" (check the
 * sandbox exists, journal the operation with hg_op_begin, and for create
 * reserve the id and token) answers 202; the operation's own work
 * (an hg_opjob) then runs whether or not anyone waits for it. ?wait=S
 * attaches the request to the job, which answers it when it ends; a timer
 * answers 202 if S passes first. */

typedef struct hg_kind_def {
  const char *name; /* hg_op_begin kind */
  int (*run)(hg_opjob *j, json_t **result);
} hg_kind_def;

static int run_create(hg_opjob *j, json_t **res) {
  int rc = hg_sandbox_create_finish(j->api->m, j->id);
  if (rc == 0) *res = json_pack("{s:s}", "id", j->id);
  return rc;
}

static int run_pause(hg_opjob *j, json_t **res) { return hg_sandbox_pause(j->api->m, j->id); }
/* A resume sent to a node that is not the owner makes it the owner first
 * (adopt), from its newest generation of the sandbox. */
static int run_resume(hg_opjob *j, json_t **res) {
  hg_api *api = j->api;
  if (api->have_repl) {
    char msg[256] = "";
    int rc = api->repl.adopt(api->repl.ud, j->id, msg);
    if (rc < 0) {
      *res = json_pack("{s:s}", "message", msg[0] ? msg : hg_err_str(rc));
      return rc;
    }
  }
  return hg_sandbox_resume(api->m, j->id);
}

static int run_delete(hg_opjob *j, json_t **res) {
  int rc = hg_sandbox_delete(j->api->m, j->id);
  if (rc == 0 && j->api->gw) hg_gateway_forget(j->api->gw, j->id);
  return rc;
}

static void suspend_progress(void *ud, const char *text) {
  hg_opjob *j = ud;
  hg_op_progress(j->api->ops, j->op, text);
}

/* Suspend, then copy the new generation to the sandbox's holders: with
 * durability "replicated" the operation succeeds only once they have it. */
static int run_suspend(hg_opjob *j, json_t **res) {
  hg_api *api = j->api;
  uint64_t gen = 0;
  int rc = hg_sandbox_suspend(api->m, j->id, &gen);
  if (rc < 0) return rc;
  json_t *report = NULL;
  char msg[256] = "";
  const char *dur = j->durability[0] ? j->durability : NULL;
  if (api->have_repl)
    rc = api->repl.after_suspend(api->repl.ud, j->id, gen, dur, suspend_progress, j, &report, msg);
  *res = json_pack("{s:I,s:s}", "gen", (json_int_t)gen, "durability",
                   report && json_object_get(report, "durability")
                       ? json_string_value(json_object_get(report, "durability"))
                       : "local");
  if (report) json_object_set_new(*res, "replication", report);
  if (rc < 0 && *res) json_object_set_new(*res, "message", json_string(msg[0] ? msg : hg_err_str(rc)));
  return rc;
}

static int run_snapshot(hg_opjob *j, json_t **res) {
  char name[64] = "";
  int rc = hg_sandbox_snapshot(j->api->m, j->id, name);
  if (rc == 0) *res = json_pack("{s:s}", "snapshot", name);
  return rc;
}

/* A fork starts with its parent's egress policy, credentials and all (the
 * gateway copies it, so no secret passes through here). */
static void policy_inherit(hg_api *api, const char *from, const char *to) {
  if (!api->gw) return;
  int rc = hg_gateway_copy_policy(api->gw, from, to);
  if (rc < 0)
    hg_log_error("api.fork_policy", "sandbox=%s from=%s err=\"%s\"", to, from, hg_err_str(rc));
}

static int run_fork(hg_opjob *j, json_t **res) {
  int rc = hg_sandbox_fork(j->api->m, j->id, j->gen, j->snapshot[0] ? j->snapshot : NULL,
                           j->new_id, j->new_token);
  if (rc == 0) policy_inherit(j->api, j->id, j->new_id);
  if (rc == 0) *res = json_pack("{s:s,s:s}", "id", j->new_id, "from", j->id);
  return rc;
}

static int run_template(hg_opjob *j, json_t **res) {
  char digest[65] = "", why[HG_TEMPLATE_WHY_MAX];
  int rc = hg_template_register(j->api->m, j->tmpl_name, j->tmpl_dir, digest, why);
  if (rc == 0) *res = json_pack("{s:s,s:s}", "name", j->tmpl_name, "digest", digest);
  else if (why[0]) *res = json_pack("{s:s}", "message", why);
  return rc;
}

static const hg_kind_def hg_kinds[] = {
  [K_CREATE] = {"create", run_create},       [K_PAUSE] = {"pause", run_pause},
  [K_RESUME] = {"resume", run_resume},       [K_SUSPEND] = {"suspend", run_suspend},
  [K_SNAPSHOT] = {"snapshot", run_snapshot}, [K_FORK] = {"fork", run_fork},
  [K_DELETE] = {"delete", run_delete},       [K_TEMPLATE] = {"template", run_template},
};

static void lc_job_done(hg_call *c, hg_opjob *j);
static void job_run(hg_api *api, hg_opjob *j);

static void job_free(hg_opjob *j) {
  json_decref(j->result);
  free(j->tmpl_name);
  free(j->tmpl_dir);
  free(j);
}

static void on_job_work(uv_work_t *w) {
  hg_opjob *j = w->data;
  json_t *res = NULL;
  j->rc = hg_kinds[j->kind].run(j, &res);
  if (j->rc < 0 && !json_object_get(res, "message")) { /* a message says why it failed */
    json_decref(res);
    res = NULL;
  }
  /* hg_op_finish steals res; the waiter gets its own copy */
  j->result = res ? json_deep_copy(res) : json_object();
  hg_op_finish(j->api->ops, j->op, j->rc, res);
}

/* What the API itself learns from a finished operation. */
static void job_effects(hg_api *api, const hg_opjob *j) {
  if (j->rc < 0) return;
  if (j->kind == K_DELETE) tok_forget_sandbox(api, j->id);
  if (j->kind == K_FORK) tok_put(api, TOK_SANDBOX, j->new_token, j->new_id, 0, 0);
}

static void job_done(hg_api *api, hg_opjob *j) {
  job_effects(api, j);
  if (j->waiter) lc_job_done(j->waiter, j);
  while (api->queue_head && api->ops_running < api->max_ops) {
    hg_opjob *n = api->queue_head;
    api->queue_head = n->next;
    if (!api->queue_head) api->queue_tail = NULL;
    job_run(api, n);
  }
  job_free(j);
}

/* An operation that never started because the node stops: failed, with
 * a message saying so (hg_op_finish journals: acceptable at shutdown). */
static void job_cancel(hg_api *api, hg_opjob *j) {
  j->rc = -EAGAIN;
  hg_op_finish(api->ops, j->op, j->rc,
               json_pack("{s:s}", "message", "cancelled: the node stopped before it started"));
  job_done(api, j);
}

static void on_job_after(uv_work_t *w, int status) {
  hg_opjob *j = w->data;
  hg_api *api = j->api;
  api->inflight--;
  api->ops_running--;
  job_done(api, j);
  api_maybe_free(api);
}

static void job_run(hg_api *api, hg_opjob *j) {
  j->work.data = j;
  api->ops_running++;
  api->inflight++;
  int rc = uv_queue_work(api->loop, &j->work, on_job_work, on_job_after);
  if (rc < 0) { /* cannot happen with valid arguments; fail the op visibly */
    api->ops_running--;
    api->inflight--;
    j->rc = rc;
    hg_op_finish(api->ops, j->op, rc, NULL);
    job_done(api, j);
  }
}

/* Runs now, or in order once one of max_ops running operations ends, so
 * that operations never take the whole pool from quick calls. */
static void job_submit(hg_api *api, hg_opjob *j) {
  if (api->stopping) {
    job_cancel(api, j);
    return;
  }
  if (api->ops_running < api->max_ops) {
    job_run(api, j);
    return;
  }
  if (api->queue_tail) api->queue_tail->next = j;
  else api->queue_head = j;
  api->queue_tail = j;
}

static void lc_cleanup(hg_call *c) {
  hg_lc *l = &c->u.lc;
  if (l->job) l->job->waiter = NULL;
  free(l->tmpl_name);
  free(l->tmpl_dir);
  if (l->policy) hg_policy_free(l->policy);
}

static void w_lc_begin(hg_call *c) {
  hg_lc *l = &c->u.lc;
  hg_api *api = c->api;
  if (l->kind == K_CREATE) {
    c->rc = hg_sandbox_create_begin(api->m, &l->spec, l->id, l->token);
    if (c->rc < 0) return;
    /* Before create_finish starts the VM (a warm one: before anyone has
     * its id), so the policy is in force for its first command. */
    if (l->policy) c->rc = hg_gateway_set_policy(api->gw, l->id, l->policy);
    if (c->rc < 0) {
      hg_sandbox_delete(api->m, l->id);
      hg_gateway_forget(api->gw, l->id);
      return;
    }
    /* From the warm pool the sandbox runs already (and is written so):
     * the operation is journaled once, as done, and needs no job. */
    hg_sb_info info;
    if (hg_sandbox_info(api->m, l->id, &info) == 0 && info.state == HG_SB_RUNNING) {
      l->done = true;
      c->rc = hg_op_done(api->ops, hg_kinds[l->kind].name, l->id,
                         json_pack("{s:s}", "id", l->id), l->op);
      if (c->rc < 0) {
        hg_sandbox_delete(api->m, l->id);
        if (api->gw) hg_gateway_forget(api->gw, l->id);
      }
      return;
    }
  } else if (l->kind != K_TEMPLATE) { /* 404 now rather than a failed operation */
    json_t *d = NULL;
    c->rc = hg_sandbox_describe(api->m, l->id, &d);
    json_decref(d);
    if (c->rc == -ENOENT && l->kind == K_RESUME && api->have_repl &&
        api->repl.holds(api->repl.ud, l->id))
      c->rc = 0; /* a replica here: the resume adopts it */
    if (c->rc < 0) return;
  }
  c->rc = hg_op_begin(api->ops, hg_kinds[l->kind].name, l->kind == K_TEMPLATE ? "" : l->id, l->op);
  if (c->rc < 0 && l->kind == K_CREATE) { /* nothing would finish it */
    hg_sandbox_delete(api->m, l->id);
    if (api->gw) hg_gateway_forget(api->gw, l->id);
  }
}

/* 202: the operation runs; create also hands out the id and token now. */
static void lc_accepted(hg_call *c) {
  hg_lc *l = &c->u.lc;
  json_t *o = json_pack("{s:s}", "operation", l->op);
  if (o && l->kind == K_CREATE) {
    json_object_set_new(o, "id", json_string(l->id));
    json_object_set_new(o, "token", json_string(l->token));
  }
  char loc[64 + HG_ID_MAX];
  snprintf(loc, sizeof loc, "Location: /v1/operations/%s\r\n", l->op);
  call_json(c, 202, o, loc);
}

static void on_lc_deadline(uv_timer_t *t) {
  hg_call *c = t->data;
  hg_lc *l = &c->u.lc;
  if (l->job) l->job->waiter = NULL;
  l->job = NULL;
  lc_accepted(c);
}

static hg_opjob *job_new(hg_call *c) {
  hg_lc *l = &c->u.lc;
  hg_opjob *j = calloc(1, sizeof *j);
  if (!j) return NULL;
  j->api = c->api;
  j->kind = l->kind;
  j->gen = l->gen;
  memcpy(j->snapshot, l->snapshot, sizeof j->snapshot);
  memcpy(j->durability, l->durability, sizeof j->durability);
  memcpy(j->op, l->op, sizeof j->op);
  memcpy(j->id, l->id, sizeof j->id);
  j->tmpl_name = l->tmpl_name; /* moved */
  j->tmpl_dir = l->tmpl_dir;
  l->tmpl_name = l->tmpl_dir = NULL;
  return j;
}

static void w_lc_describe(hg_call *c);
static void a_lc_describe(hg_call *c);

static void a_lc_begin(hg_call *c) {
  hg_lc *l = &c->u.lc;
  hg_api *api = c->api;
  if (c->rc == -ENOSPC && l->kind == K_CREATE && !c->replaced) {
    c->replaced = true; /* raced for the room placement saw: once more, elsewhere */
    if (create_place(c, true)) return;
  }
  if (c->rc < 0) {
    call_fail(c, c->rc, l->kind == K_TEMPLATE ? "template" : l->id);
    return;
  }
  if (l->kind == K_CREATE) tok_put(api, TOK_SANDBOX, l->token, l->id, 0, 0);
  if (l->done) { /* as lc_job_done answers a create */
    if (c->wait_s > 0) call_queue(c, w_lc_describe, a_lc_describe);
    else lc_accepted(c);
    return;
  }
  hg_opjob *j = job_new(c);
  if (!j) {
    hg_op_finish(api->ops, l->op, -ENOMEM, NULL);
    call_fail(c, -ENOMEM, l->op);
    return;
  }
  /* fork answers with the new id, which exists only once the fork is done */
  bool wait = c->wait_s > 0 || l->kind == K_FORK;
  if (wait) {
    int s = c->wait_s > 0 ? c->wait_s : HG_API_MAX_WAIT_S;
    j->waiter = c;
    l->job = j;
    call_timer(c, (uint64_t)s * 1000, on_lc_deadline);
  }
  job_submit(api, j); /* may answer c already: do not touch c after it if wait */
  if (!wait) lc_accepted(c);
}

static void w_lc_describe(hg_call *c) {
  c->rc = hg_sandbox_describe(c->api->m, c->u.lc.id, &c->out);
}

/* 201 {…sandbox, token, operation} after create or fork. */
static void a_lc_describe(hg_call *c) {
  hg_lc *l = &c->u.lc;
  if (c->rc < 0) {
    call_fail(c, c->rc, l->id);
    return;
  }
  json_t *o = c->out;
  c->out = NULL;
  json_object_set_new(o, "token", json_string(l->token));
  json_object_set_new(o, "operation", json_string(l->op));
  if (!json_object_get(o, "node")) json_object_set_new(o, "node", json_string(c->api->node_id));
  call_json(c, 201, o, NULL);
}

/* A failed operation: its message, and what it did do ("result": a
 * suspend that was replicated in part says where). */
static void call_error_op(hg_call *c, int rc, const char *op, json_t *result) {
  char msg[HG_API_MSG];
  const char *why = json_string_value(json_object_get(result, "message"));
  snprintf(msg, sizeof msg, "operation %s failed: %s", op, why ? why : err_text(rc));
  json_t *b = error_body(rc, msg);
  json_object_set_new(b, "operation", json_string(op));
  json_t *res = json_deep_copy(result);
  json_object_del(res, "message");
  if (json_object_size(res)) json_object_set(b, "result", res);
  json_decref(res);
  call_json(c, err_class(rc).status, b, NULL);
}

/* The job c waited for ended (loop thread). */
static void lc_job_done(hg_call *c, hg_opjob *j) {
  hg_lc *l = &c->u.lc;
  l->job = NULL;
  if (c->timer_state == TIMER_OPEN) uv_timer_stop(&c->timer);
  if (j->rc < 0) {
    call_error_op(c, j->rc, j->op, j->result);
    return;
  }
  if (l->kind == K_FORK) { /* 202 as documented, or 200 like the other ?waits */
    json_t *o = json_pack("{s:s,s:s,s:s}", "id", j->new_id, "token", j->new_token, "operation",
                          l->op);
    if (o && c->wait_s) json_object_set(o, "result", j->result);
    char loc[64 + HG_ID_MAX];
    snprintf(loc, sizeof loc, "Location: /v1/operations/%s\r\n", l->op);
    call_json(c, c->wait_s ? 200 : 202, o, c->wait_s ? NULL : loc);
  } else if (l->kind == K_CREATE) {
    call_queue(c, w_lc_describe, a_lc_describe);
  } else {
    json_t *o = json_pack("{s:s,s:O}", "operation", j->op, "result", j->result);
    call_json(c, 200, o, NULL);
  }
}

static void lc_start(hg_call *c, hg_kind kind) {
  hg_lc *l = &c->u.lc;
  l->kind = kind;
  c->cleanup = lc_cleanup;
  memcpy(l->id, c->p.id, sizeof l->id);
  if (q_wait(c) < 0) {
    call_error(c, -EINVAL, "%s", c->msg);
    return;
  }
  call_queue(c, w_lc_begin, a_lc_begin);
}

static void h_pause(hg_call *c) { lc_start(c, K_PAUSE); }
static void h_resume(hg_call *c) { lc_start(c, K_RESUME); }

static void h_suspend(hg_call *c) {
  char *d = c->u.lc.durability;
  int rc = q_get(c, "durability", d, sizeof c->u.lc.durability);
  if (rc == -ENOENT) d[0] = '\0';
  else if (rc == 0 && strcmp(d, "local") && strcmp(d, "replicated"))
    rc = bad(c->msg, "query parameter \"durability\": \"local\" or \"replicated\"");
  if (rc < 0 && rc != -ENOENT) {
    call_error(c, rc, "%s", c->msg);
    return;
  }
  lc_start(c, K_SUSPEND);
}
static void h_snapshot(hg_call *c) { lc_start(c, K_SNAPSHOT); }
static void h_delete(hg_call *c) { lc_start(c, K_DELETE); }

static int placement_parse(const json_t *b, const char **zone, const char **label, char *msg);

/* "network": the egress policy (DESIGN §11); absent: no egress at all. */
static int network_parse(hg_call *c, hg_policy **out) {
  json_t *v = field(c->body, "network");
  char err[256] = "";
  if (!v) return 0;
  if (!c->api->gw) return bad(c->msg, "field \"network\": networking is off on this node");
  if (hg_policy_parse(v, out, err) < 0)
    return bad(c->msg, "field \"network\": %s", err[0] ? err : "invalid policy");
  return 0;
}

static void h_create(hg_call *c) {
  hg_lc *l = &c->u.lc;
  c->cleanup = lc_cleanup; /* frees the policy whatever happens */
  int rc = create_parse(c->body, &l->spec, c->msg);
  if (rc == 0) rc = network_parse(c, &l->policy);
  if (rc == 0) rc = placement_parse(c->body, &l->zone, &l->label, c->msg);
  if (rc == 0) rc = q_wait(c);
  if (rc < 0) {
    call_error(c, rc, "%s", c->msg);
    return;
  }
  if (create_place(c, false)) return; /* another node, or no room anywhere */
  lc_start(c, K_CREATE);
}

static void h_fork(hg_call *c) {
  int64_t gen = 0;
  const char *snap = NULL;
  int rc = get_int(c->body, "gen", 0, INT64_MAX, &gen, c->msg);
  if (rc == 0) rc = get_str(c->body, "snapshot", sizeof c->u.lc.snapshot - 1, &snap, c->msg);
  if (rc < 0) {
    call_error(c, rc, "%s", c->msg);
    return;
  }
  if (snap && gen) {
    call_error(c, -EINVAL, "give either \"gen\" or \"snapshot\", not both");
    return;
  }
  c->u.lc.gen = (uint64_t)gen;
  snprintf(c->u.lc.snapshot, sizeof c->u.lc.snapshot, "%s", snap ? snap : "");
  lc_start(c, K_FORK);
}

static void h_tmpl_create(hg_call *c) {
  const char *name = NULL, *dir = NULL;
  int rc;
  if ((rc = get_str(c->body, "name", 128, &name, c->msg)) < 0 ||
      (rc = get_str(c->body, "dir", HG_API_MAX_PATH, &dir, c->msg)) < 0) {
    call_error(c, rc, "%s", c->msg);
    return;
  }
  if (!name || !name_valid(name)) {
    call_error(c, -EINVAL, "field \"name\": required, like name or name:tag");
    return;
  }
  if (!dir || dir[0] != '/') { /* a host path: admin only, read by the manager */
    call_error(c, -EINVAL, "field \"dir\": required, an absolute path on the node");
    return;
  }
  c->u.lc.tmpl_name = strdup(name);
  c->u.lc.tmpl_dir = strdup(dir);
  c->cleanup = lc_cleanup;
  if (!c->u.lc.tmpl_name || !c->u.lc.tmpl_dir) {
    call_fail(c, -ENOMEM, "template");
    return;
  }
  lc_start(c, K_TEMPLATE);
}

/* GET /v1/operations/{op}[?wait=S]: polls hg_op_status_of (an in-memory
 * lookup under the ops mutex) on the loop every HG_API_POLL_MS instead of
 * parking a worker for the whole wait. */
static void w_op_describe(hg_call *c) {
  json_decref(c->out);
  c->out = NULL;
  c->rc = hg_op_describe(c->api->ops, c->p.op, &c->out);
}

static void a_op_describe(hg_call *c) {
  if (c->rc == -ENOENT && op_lookup_start(c)) return; /* another node's, perhaps */
  if (c->rc < 0) {
    call_fail(c, c->rc, c->p.op);
    return;
  }
  json_t *o = c->out;
  c->out = NULL;
  call_json(c, 200, o, NULL);
}

static void op_poll(hg_call *c);
static void on_op_poll(uv_timer_t *t) { op_poll(t->data); }

static void op_poll(hg_call *c) {
  hg_op_status st = HG_OP_RUNNING;
  int rc = hg_op_status_of(c->api->ops, c->p.op, &st);
  if (rc < 0 || st != HG_OP_RUNNING || hg_now_ms() >= c->u.lc.deadline_ms || c->api->stopping) {
    call_queue(c, w_op_describe, a_op_describe);
    return;
  }
  call_timer(c, HG_API_POLL_MS, on_op_poll);
}

static void h_op_get(hg_call *c) {
  if (q_wait(c) < 0) {
    call_error(c, -EINVAL, "%s", c->msg);
    return;
  }
  if (c->wait_s > 0) {
    c->u.lc.deadline_ms = hg_now_ms() + (int64_t)c->wait_s * 1000;
    op_poll(c);
  } else if (c->out) { /* already described by the token check */
    a_op_describe(c);
  } else {
    call_queue(c, w_op_describe, a_op_describe);
  }
}

static void w_op_list(hg_call *c) {
  c->out = hg_op_list(c->api->ops, c->qsandbox[0] ? c->qsandbox : NULL);
}

static json_t *wrap_list(json_t *v, const char *key) {
  if (json_is_object(v)) return v;
  json_t *o = json_object();
  json_object_set_new(o, key, v ? v : json_array());
  return o;
}

static void a_list(hg_call *c, const char *key) {
  json_t *o = wrap_list(c->out, key);
  c->out = NULL;
  call_json(c, 200, o, NULL);
}

static void a_op_list(hg_call *c) { a_list(c, "operations"); }

static void h_op_list(hg_call *c) {
  char sb[HG_ID_MAX + 8];
  int rc = q_get(c, "sandbox", sb, sizeof sb);
  if (rc == 0 && !hg_id_valid("sb", sb)) rc = bad(c->msg, "query parameter \"sandbox\": not a sandbox id");
  if (rc < 0 && rc != -ENOENT) {
    call_error(c, rc, "%s", c->msg);
    return;
  }
  call_queue(c, w_op_list, a_op_list);
}

/* ---- sandboxes, templates ------------------------------------------------------- */

static void set_node(json_t *sb, const char *node) {
  if (json_is_object(sb) && !json_object_get(sb, "node"))
    json_object_set_new(sb, "node", json_string(node));
}

static void w_get(hg_call *c) { c->rc = hg_sandbox_describe(c->api->m, c->p.id, &c->out); }

static void a_get(hg_call *c) {
  if (c->rc < 0) {
    call_fail(c, c->rc, c->p.id);
    return;
  }
  json_t *o = c->out;
  c->out = NULL;
  set_node(o, c->api->node_id);
  call_json(c, 200, o, NULL);
}

static void h_get(hg_call *c) { call_inline(c, w_get, a_get); }

static void w_list(hg_call *c) {
  hg_list_q *q = &c->u.lq;
  c->out = hg_sandbox_list(c->api->m, q->state[0] ? q->state : NULL, q->label[0] ? q->label : NULL);
}

static void a_list_sb(hg_call *c) {
  json_t *v = c->out;
  json_t *arr = json_is_array(v) ? v : json_object_get(v, "sandboxes");
  size_t i;
  json_t *sb;
  json_array_foreach(arr, i, sb) set_node(sb, c->api->node_id);
  if (c->api->have_peers && !c->forwarded && json_is_array(arr)) list_merge_directory(c, arr);
  a_list(c, "sandboxes");
}

static void h_list(hg_call *c) {
  hg_list_q *q = &c->u.lq;
  hg_sb_state st;
  int rc = q_opt(c, "state", q->state, sizeof q->state);
  if (rc == 0 && q->state[0] && hg_sb_state_parse(q->state, &st) < 0)
    rc = bad(c->msg, "query parameter \"state\": not a sandbox state");
  if (rc == 0) rc = q_opt(c, "label", q->label, sizeof q->label);
  if (rc == 0 && q->label[0] && !strchr(q->label, '='))
    rc = bad(c->msg, "query parameter \"label\": must be key=value");
  if (rc < 0) {
    call_error(c, rc, "%s", c->msg);
    return;
  }
  call_inline(c, w_list, a_list_sb);
}

static void w_tmpl_list(hg_call *c) { c->out = hg_template_list(c->api->m); }
static void a_tmpl_list(hg_call *c) { a_list(c, "templates"); }
static void h_tmpl_list(hg_call *c) { call_queue(c, w_tmpl_list, a_tmpl_list); }

/* ---- the cluster -------------------------------------------------------------------
 * With peers, any node answers (DESIGN §7). A request for a sandbox the
 * directory places on another live node is forwarded there before auth
 * (the owner authenticates it: tokens live with their sandbox); a create
 * goes where placement says; an operation this node does not know is
 * asked of the other members in turn. Forwarded requests carry
 * X-Hangar-Forwarded and are never forwarded again: one that reaches a
 * node without the sandbox gets 421 + X-Hangar-Owner, and the forwarder
 * retries there once. Forwarding runs on the loop (curl multi), so it
 * holds no worker however long the owner holds the request. */

static void op_lookup_next(hg_call *c);

/* 421: "not here; try <owner> <addr>". */
static void call_misdirected(hg_call *c, const char *owner, const char *addr) {
  char hdr[32 + HG_NODE_ID_MAX + HG_ADDR_MAX] = "", msg[HG_API_MSG];
  if (hg_node_id_valid(owner) && hg_addr_valid(addr))
    snprintf(hdr, sizeof hdr, "X-Hangar-Owner: %s %s\r\n", owner, addr);
  snprintf(msg, sizeof msg, "sandbox %s is owned by node %s (%s), not by this node (%s)", c->p.id,
           owner, addr, c->api->node_id);
  c->api->misdirected++;
  hg_log_info("api.misdirected", "sandbox=%s owner=%s addr=%s", c->p.id, owner, addr);
  call_json(c, 421, error_body(HG_API_EMISDIRECTED, msg), hdr[0] ? hdr : NULL);
}

/* A forward that found no answer: 502 owner_unreachable, saying where. */
static void fwd_unreachable(hg_call *c, const hg_fwd_result *r) {
  const char *why = r->msg[0] ? r->msg : "no answer";
  if (c->why == FWD_CREATE)
    call_error(c, -EHOSTUNREACH, "node %s (%s), placed to create the sandbox, did not answer: %s",
               r->owner, r->addr, why);
  else
    call_error(c, -EHOSTUNREACH, "sandbox %s is on node %s (%s), which did not answer: %s",
               c->p.id, r->owner, r->addr, why);
}

static void on_fwd_done(void *ud, const hg_fwd_result *r) {
  hg_call *c = ud;
  hg_api *api = c->api;
  c->fwd = NULL;
  if (r->started) { /* the forward answered (and freed) the request */
    bool gone = atomic_load(&c->aborted) || (r->rc == -ECANCELED && !api->stopping);
    count_status(api, c->rt, gone || !r->status ? 499 : r->status);
    c->finished = true;
    call_maybe_free(c);
    return;
  }
  if (r->rc == -ECANCELED) {
    if (atomic_load(&c->aborted) && !api->stopping) call_respond(c, 499, NULL, NULL, NULL, 0);
    else call_error(c, -EAGAIN, "the node is shutting down");
  } else if (c->why == FWD_OPERATION) {
    op_lookup_next(c); /* 404 there, or silent: ask the next */
  } else {
    fwd_unreachable(c, r);
  }
}

/* Forwards c to owner at addr; answers it if that cannot start. */
static void fwd_begin(hg_call *c, hg_fwd_why why, const char *owner, const char *addr, int decline) {
  hg_api *api = c->api;
  hg_fwd_spec s = {.owner = owner, .addr = addr, .decline_status = decline, .done = on_fwd_done,
                   .ud = c};
  c->why = why;
  int rc = api->fwd ? hg_fwd_start(api->fwd, c->req, &s, &c->fwd) : -EAGAIN;
  if (rc == 0) {
    hg_log_debug("api.forward", "route=\"%s\" node=%s addr=%s", c->rt->pattern, owner, addr);
    return;
  }
  c->fwd = NULL;
  if (why == FWD_OPERATION) {
    op_lookup_next(c);
  } else if (rc == -EINVAL) {
    hg_fwd_result r = {.rc = rc};
    snprintf(r.owner, sizeof r.owner, "%.63s", owner);
    snprintf(r.addr, sizeof r.addr, "%.63s", addr);
    snprintf(r.msg, sizeof r.msg, "no valid address or request target to forward to");
    fwd_unreachable(c, &r);
  } else {
    call_fail(c, rc, "forwarding");
  }
}

/* Routes with a sandbox in the path: true when c left (forwarded) or got
 * its 421 here; false: serve it locally. */
static bool route_resume(hg_call *c);

static bool route_remote(hg_call *c) {
  hg_api *api = c->api;
  if (!api->have_peers || !strstr(c->rt->pattern, "{id}")) return false;
  if (c->rt->handle == h_replicas) return false; /* any node asks the holders */
  if (c->rt->handle == h_resume && api->have_repl) return route_resume(c);
  char owner[HG_NODE_ID_MAX] = "", addr[HG_ADDR_MAX] = "";
  if (api->peers.locate(api->peers.ud, c->p.id, owner, addr) != 1) return false;
  owner[sizeof owner - 1] = addr[sizeof addr - 1] = '\0';
  if (!strcmp(owner, api->node_id)) return false;
  if (c->forwarded) {
    /* never forwarded twice; but a copy here (the directory is behind
     * us) is served: the lease decides, and the manager knows it */
    json_t *d = NULL;
    int rc = hg_sandbox_describe(api->m, c->p.id, &d); /* in-memory: see call_inline */
    json_decref(d);
    if (rc == 0) return false;
    call_misdirected(c, owner, addr);
    return true;
  }
  fwd_begin(c, FWD_SANDBOX, owner, addr, 0);
  return true;
}

/* A resume goes to ?node=, or to the owner, or (the owner down) to a holder
 * of the newest generation, where it adopts the sandbox. A forwarded one
 * is served here: the front node chose us. */
static bool route_resume(hg_call *c) {
  hg_api *api = c->api;
  char node[HG_NODE_ID_MAX] = "", target[HG_NODE_ID_MAX] = "", addr[HG_ADDR_MAX] = "";
  char msg[256] = "";
  if (c->forwarded) return false;
  int rc = q_get(c, "node", node, sizeof node);
  if (rc < 0 && rc != -ENOENT) {
    call_error(c, rc, "%s", c->msg);
    return true;
  }
  rc = api->repl.resume_at(api->repl.ud, c->p.id, node[0] ? node : NULL, target, addr, msg);
  if (rc < 0) {
    call_error(c, rc == -EHOSTDOWN ? -EHOSTUNREACH : rc, "%s", msg[0] ? msg : hg_err_str(rc));
    return true;
  }
  if (rc == 0) return false;
  target[sizeof target - 1] = addr[sizeof addr - 1] = '\0';
  fwd_begin(c, FWD_SANDBOX, target, addr, 0);
  return true;
}

/* A member as the cluster's JSON has it (id, state, addresses.api). */
static bool member_api(const json_t *m, const char **id, const char **addr) {
  const char *st = json_string_value(json_object_get(m, "state"));
  *id = json_string_value(json_object_get(m, "id"));
  *addr = json_string_value(json_object_get(json_object_get(m, "addresses"), "api"));
  if (!*addr) *addr = json_string_value(json_object_get(m, "api"));
  return (!st || !strcmp(st, "alive")) && hg_node_id_valid(*id) && hg_addr_valid(*addr);
}

static json_t *json_items(json_t *v, const char *key) {
  return json_is_array(v) ? v : json_object_get(v, key);
}

/* GET /v1/operations/{op} for an operation this node does not have: true
 * when the other alive members are being asked in turn. */
static bool op_lookup_start(hg_call *c) {
  hg_api *api = c->api;
  if (!api->have_peers || c->forwarded || c->peer_list) return false;
  json_t *mem = api->peers.members(api->peers.ud), *list = json_array();
  size_t i;
  json_t *m;
  json_array_foreach(json_items(mem, "members"), i, m) {
    const char *id, *addr;
    if (member_api(m, &id, &addr) && strcmp(id, api->node_id))
      json_array_append_new(list, json_pack("[s,s]", id, addr));
  }
  json_decref(mem);
  if (json_array_size(list) == 0) {
    json_decref(list);
    return false;
  }
  c->peer_list = list;
  c->peer_next = 0;
  json_decref(c->out); /* what the local check found: nothing */
  c->out = NULL;
  op_lookup_next(c);
  return true;
}

/* Asks the next member (its 404 or its silence comes back here), or
 * answers 404 when none is left. */
static void op_lookup_next(hg_call *c) {
  if (c->peer_next >= json_array_size(c->peer_list)) {
    call_error(c, -ENOENT, "no such operation on any live node: %s", c->p.op);
    return;
  }
  json_t *e = json_array_get(c->peer_list, c->peer_next++);
  fwd_begin(c, FWD_OPERATION, json_string_value(json_array_get(e, 0)),
            json_string_value(json_array_get(e, 1)), 404);
}

/* "placement": {"zone": "…", "label": "k=v"} of a create. */
static int placement_parse(const json_t *b, const char **zone, const char **label, char *msg) {
  json_t *p = field(b, "placement");
  *zone = *label = NULL;
  if (!p) return 0;
  if (!json_is_object(p)) return bad(msg, "field \"placement\": must be an object");
  int rc;
  if ((rc = get_str(p, "zone", 63, zone, msg)) < 0 || (rc = get_str(p, "label", 255, label, msg)) < 0)
    return bad(msg, "field \"placement\": \"zone\" and \"label\" are strings of at most 63 and 255 bytes");
  if (*label && (!strchr(*label, '=') || **label == '='))
    return bad(msg, "field \"placement\": \"label\" must be key=value");
  return 0;
}

/* Where a create goes: true when c was answered or forwarded; false:
 * create it here. again: after a local create found no room. */
static bool create_place(hg_call *c, bool again) {
  hg_api *api = c->api;
  if (!api->have_peers || c->forwarded) return false;
  const hg_lc *l = &c->u.lc;
  char owner[HG_NODE_ID_MAX] = "", addr[HG_ADDR_MAX] = "", reason[256] = "";
  int rc = api->peers.place(api->peers.ud, l->spec.template_ref, l->spec.vcpus, l->spec.memory_mib,
                            l->zone, l->label, owner, addr, reason);
  owner[sizeof owner - 1] = addr[sizeof addr - 1] = reason[sizeof reason - 1] = '\0';
  if (rc == 1 || (rc == 0 && !strcmp(owner, api->node_id))) {
    if (!again) return false;
    rc = -ENOSPC; /* placed here again, where there is no room */
  }
  if (rc == 0) {
    fwd_begin(c, FWD_CREATE, owner, addr, 0);
  } else if (rc == -ENOSPC) {
    call_error(c, rc, "%s", reason[0] ? reason : "no node has room for this sandbox");
  } else {
    call_fail(c, rc, "placement");
  }
  return true;
}

/* GET /v1/sandboxes: the directory's entries owned by other nodes join
 * the local list (filtered by state; by label only where the entry carries
 * metadata). */
static void list_merge_directory(hg_call *c, json_t *arr) {
  hg_api *api = c->api;
  const hg_list_q *q = &c->u.lq;
  json_t *dir = api->peers.directory(api->peers.ud);
  char lk[sizeof q->label];
  snprintf(lk, sizeof lk, "%s", q->label);
  char *lv = strchr(lk, '=');
  if (lv) *lv++ = '\0';
  size_t i, k;
  json_t *e, *sb;
  json_array_foreach(json_items(dir, "sandboxes"), i, e) {
    const char *id = json_string_value(json_object_get(e, "sandbox"));
    if (!id) id = json_string_value(json_object_get(e, "id"));
    const char *owner = json_string_value(json_object_get(e, "owner"));
    const char *st = json_string_value(json_object_get(e, "state"));
    if (!id || !hg_id_valid("sb", id) || !owner || !strcmp(owner, api->node_id) ||
        (st && !strcmp(st, "deleted")) || (q->state[0] && (!st || strcmp(st, q->state))))
      continue;
    if (lv && !json_is_string(json_object_get(json_object_get(e, "metadata"), lk))) continue;
    if (lv && strcmp(json_string_value(json_object_get(json_object_get(e, "metadata"), lk)), lv))
      continue;
    bool local = false;
    json_array_foreach(arr, k, sb) {
      const char *lid = json_string_value(json_object_get(sb, "id"));
      local = local || (lid && !strcmp(id, lid));
    }
    if (local) continue;
    json_t *item = json_copy(e);
    json_object_set_new(item, "id", json_string(id));
    json_object_set_new(item, "node", json_string(owner));
    json_array_append_new(arr, item);
  }
  json_decref(dir);
}

static void h_members(hg_call *c) {
  hg_api *api = c->api;
  if (api->have_peers) {
    json_t *m = api->peers.members(api->peers.ud);
    call_json(c, 200, wrap_list(m ? m : json_array(), "members"), NULL);
    return;
  }
  call_json(c, 200,
            json_pack("{s:[{s:s,s:s,s:b}]}", "members", "id", api->node_id, "state", "alive",
                      "self", 1),
            NULL);
}

static void h_decommission(hg_call *c) {
  hg_api *api = c->api;
  if (!api->have_peers) {
    call_error(c, -ENOENT, "no cluster: %s is not a member", c->p.node);
    return;
  }
  int rc = api->peers.decommission(api->peers.ud, c->p.node);
  if (rc < 0) {
    call_fail(c, rc, c->p.node);
    return;
  }
  hg_log_info("api.decommission", "node=%s", c->p.node);
  call_respond(c, 204, NULL, NULL, NULL, 0);
}

/* GET /v1/cluster/sandboxes on a node alone: its own sandboxes, shaped as
 * directory entries. */
static void a_directory_local(hg_call *c) {
  json_t *o = json_array();
  size_t i;
  json_t *sb;
  json_array_foreach(json_items(c->out, "sandboxes"), i, sb) {
    json_t *st = json_object_get(sb, "state");
    json_array_append_new(o, json_pack("{s:O,s:s,s:O}", "sandbox", json_object_get(sb, "id"), "owner",
                                       c->api->node_id, "state", st ? st : json_null()));
  }
  json_decref(c->out);
  c->out = NULL;
  call_json(c, 200, json_pack("{s:o}", "sandboxes", o), NULL);
}

static void h_directory(hg_call *c) {
  hg_api *api = c->api;
  if (!api->have_peers) {
    call_inline(c, w_list, a_directory_local);
    return;
  }
  json_t *d = api->peers.directory(api->peers.ud);
  call_json(c, 200, wrap_list(d ? d : json_array(), "sandboxes"), NULL);
}

/* ---- commands -------------------------------------------------------------------- */

/* Runs fn with the sandbox's agent borrowed (the sandbox stays busy
 * meanwhile: no pause, suspend or delete). */
static int with_agent(hg_call *c, int (*fn)(hg_call *c, hg_agent *a)) {
  hg_agent *a = NULL;
  int rc = hg_sandbox_agent_get(c->api->m, c->p.id, &a);
  if (rc < 0) return rc;
  rc = fn(c, a);
  hg_sandbox_agent_put(c->api->m, c->p.id);
  return rc;
}

/* Appends s[0..n) to out as UTF-8, every byte that does not start a valid
 * sequence (RFC 3629: no overlongs, surrogates or code points past
 * U+10FFFF) replaced by U+FFFD. */
static int utf8_clean(const unsigned char *s, size_t n, hg_buf *out) {
  size_t i = 0;
  while (i < n) {
    unsigned char b = s[i];
    size_t len = b < 0x80 ? 1 : (b & 0xe0) == 0xc0 ? 2 : (b & 0xf0) == 0xe0 ? 3 : (b & 0xf8) == 0xf0 ? 4 : 0;
    bool ok = len > 0 && i + len <= n;
    for (size_t k = 1; ok && k < len; k++) ok = (s[i + k] & 0xc0) == 0x80;
    if (ok && len == 2) ok = b >= 0xc2;
    if (ok && len == 3) {
      unsigned cp = ((b & 0x0fu) << 12) | ((s[i + 1] & 0x3fu) << 6) | (s[i + 2] & 0x3fu);
      ok = cp >= 0x800 && (cp < 0xd800 || cp > 0xdfff);
    }
    if (ok && len == 4) {
      unsigned cp = ((b & 0x07u) << 18) | ((s[i + 1] & 0x3fu) << 12) | ((s[i + 2] & 0x3fu) << 6) |
                    (s[i + 3] & 0x3fu);
      ok = cp >= 0x10000 && cp <= 0x10ffff;
    }
    int rc = ok ? hg_buf_append(out, s + i, len) : hg_buf_append(out, "\xef\xbf\xbd", 3);
    if (rc < 0) return rc;
    i += ok ? len : 1;
  }
  return 0;
}

static json_t *text_json(const hg_buf *b) {
  hg_buf clean;
  hg_buf_init(&clean, 3 * b->len + 16);
  json_t *j = NULL;
  if (utf8_clean((const unsigned char *)b->data, b->len, &clean) == 0)
    j = json_stringn(clean.data ? clean.data : "", clean.len);
  hg_buf_free(&clean);
  return j;
}

static int cmd_id(char out[32], uint64_t cid) {
  return hg_path(out, 32, "cmd-%" PRIu64, cid);
}

/* Reads a stream from its start into out (at most out->max bytes); sets
 * *trunc when bytes were lost to the ring before, or remain after. */
static int read_capped(hg_agent *a, uint64_t cid, int stream, hg_buf *out, bool *trunc) {
  uint64_t off = 0;
  hg_read_res res = {0};
  for (;;) {
    size_t room = out->max - out->len, before = out->len;
    if (room == 0) break;
    uint32_t max = room < HG_AGENT_MAX_DATA ? (uint32_t)room : HG_AGENT_MAX_DATA;
    int rc = hg_agent_read(a, cid, stream, off, max, 0, out, &res);
    if (rc < 0) return rc;
    if (res.offset != off) { /* bytes dropped before what we got */
      if (before) { /* a hole in the middle: keep what is contiguous */
        out->len = before;
        *trunc = true;
        return 0;
      }
      *trunc = true;
    }
    off = res.offset + (out->len - before);
    if (res.eof || out->len == before) break;
  }
  if (res.total > off) *trunc = true;
  return 0;
}


static int op_wait(hg_call *c, hg_agent *a) {
  return hg_agent_wait(a, c->p.cid, c->u.ex.slice_ms, &c->u.ex.st);
}

static int op_collect(hg_call *c, hg_agent *a) {
  hg_exec *x = &c->u.ex;
  int rc = read_capped(a, c->p.cid, HG_STREAM_STDOUT, &x->out[1], &x->trunc);
  if (rc == 0) rc = read_capped(a, c->p.cid, HG_STREAM_STDERR, &x->out[2], &x->trunc);
  return rc;
}

/* ?wait: waits in slices, giving the agent back in between, so that a long
 * wait does not keep the sandbox from being suspended, and a client that
 * left frees its worker within a slice. */
static void exec_wait(hg_call *c) {
  hg_exec *x = &c->u.ex;
  int64_t deadline = hg_now_ms() + x->wait_ms;
  for (;;) {
    int64_t left = deadline - hg_now_ms();
    if (left < 0 || atomic_load(&c->aborted)) left = 0;
    x->slice_ms = left > HG_API_EXEC_SLICE_MS ? HG_API_EXEC_SLICE_MS : (uint32_t)left;
    int rc = with_agent(c, op_wait);
    /* A guest slow to answer (its vCPU starved) has not ended the wait: ask
     * again while it lasts. Other errors (suspended, gone) end it. */
    if ((rc < 0 && rc != -ETIMEDOUT) || x->st.exited || left == 0) break;
  }
  if (with_agent(c, op_collect) < 0)
    hg_log_warn("api.exec", "sandbox=%s cid=%" PRIu64 " msg=\"output not collected\"", c->p.id,
                c->p.cid);
  /* built here, not on the loop: cleaning 2 MiB of text takes a while */
  c->out = json_pack("{s:o,s:o,s:b}", "stdout", text_json(&x->out[1]), "stderr",
                     text_json(&x->out[2]), "truncated", x->trunc);
}

static void w_exec(hg_call *c) {
  hg_exec *x = &c->u.ex;
  if ((c->rc = token_new(x->out_token)) < 0) return;
  /* the manager puts the sandbox's env (from create) under the request's */
  c->rc = hg_sandbox_exec(c->api->m, c->p.id, &x->req, &c->p.cid, &x->pid);
  if (c->rc < 0 || x->wait_ms == 0) return;
  exec_wait(c);
}

static void status_json(json_t *o, const hg_cmd_status *st) {
  json_object_set_new(o, "exited", json_boolean(st->exited));
  json_object_set_new(o, "exit_code",
                      st->exited && !st->signal ? json_integer(st->code) : json_null());
  json_object_set_new(o, "signal", json_integer(st->signal));
  json_object_set_new(o, "timed_out", json_boolean(st->timed_out));
}

static void a_exec(hg_call *c) {
  hg_exec *x = &c->u.ex;
  char id[32];
  if (c->rc < 0) {
    call_fail(c, c->rc, c->p.id);
    return;
  }
  cmd_id(id, c->p.cid);
  tok_put(c->api, TOK_OUTPUT, x->out_token, c->p.id, c->p.cid, x->pid);
  json_t *o = json_pack("{s:s,s:i,s:s}", "id", id, "pid", x->pid, "output_token", x->out_token);
  if (o && x->wait_ms) {
    status_json(o, &x->st);
    json_object_update(o, c->out);
  }
  call_json(c, 201, o, NULL);
}

static void exec_cleanup(hg_call *c) {
  hg_exec *x = &c->u.ex;
  free(x->argv);
  if (x->env)
    for (char **e = x->env; *e; e++) free(*e);
  free(x->env);
  hg_buf_free(&x->out[1]);
  hg_buf_free(&x->out[2]);
}

static void h_exec(hg_call *c) {
  hg_exec *x = &c->u.ex;
  c->cleanup = exec_cleanup;
  hg_buf_init(&x->out[1], HG_API_MAX_OUTPUT);
  hg_buf_init(&x->out[2], HG_API_MAX_OUTPUT);
  int rc = exec_parse(c->body, x, c->msg);
  if (rc == 0) rc = q_wait(c);
  if (rc < 0) {
    call_error(c, rc, "%s", c->msg);
    return;
  }
  x->wait_ms = (uint32_t)c->wait_s * 1000;
  if (x->wait_ms && !call_hold(c)) return;
  call_queue(c, w_exec, a_exec);
}

/* GET …/commands/{cid}: status now (a wait of 0), and the byte counts of
 * both streams (the total of a 1-byte read: a max of 0 means "the most" to
 * hg_agent_read, which overflowed out and dropped the count). */
static int op_cmd_get(hg_call *c, hg_agent *a) {
  hg_exec *x = &c->u.ex;
  int rc = hg_agent_wait(a, c->p.cid, 0, &x->st);
  if (rc < 0) return rc;
  c->out = json_object();
  static const char *const names[3] = {NULL, "stdout_bytes", "stderr_bytes"};
  for (int s = HG_STREAM_STDOUT; s <= HG_STREAM_STDERR; s++) {
    hg_read_res res = {0};
    if (hg_agent_read(a, c->p.cid, s, 0, 1, 0, &x->out[s], &res) == 0)
      json_object_set_new(c->out, names[s], json_integer((json_int_t)res.total));
  }
  return 0;
}

static void w_cmd_get(hg_call *c) { c->rc = with_agent(c, op_cmd_get); }

static void a_cmd_get(hg_call *c) {
  char id[32];
  if (c->rc < 0) {
    call_fail(c, c->rc, c->p.id);
    return;
  }
  cmd_id(id, c->p.cid);
  int pid = tok_pid(c->api, c->p.id, c->p.cid);
  json_t *o = json_pack("{s:s,s:o}", "id", id, "pid", pid > 0 ? json_integer(pid) : json_null());
  status_json(o, &c->u.ex.st);
  json_object_update(o, c->out);
  call_json(c, 200, o, NULL);
}

static void h_cmd_get(hg_call *c) {
  c->cleanup = exec_cleanup;
  hg_buf_init(&c->u.ex.out[1], 16);
  hg_buf_init(&c->u.ex.out[2], 16);
  call_queue(c, w_cmd_get, a_cmd_get);
}

static void a_no_content(hg_call *c) {
  if (c->rc < 0) {
    call_fail(c, c->rc, c->p.id);
    return;
  }
  call_respond(c, 204, NULL, NULL, NULL, 0);
}

/* The body goes in frames of half HG_AGENT_MAX_DATA; the body is the
 * request's (kept by the server until we answer). */
static int op_stdin(hg_call *c, hg_agent *a) {
  const char *p = c->req->body;
  size_t n = c->req->body_len;
  int rc;
  do {
    size_t k = n > HG_AGENT_MAX_DATA / 2 ? HG_AGENT_MAX_DATA / 2 : n;
    rc = hg_agent_stdin(a, c->p.cid, p, k, c->u.ex.eof && k == n);
    p += k;
    n -= k;
  } while (rc == 0 && n > 0);
  return rc;
}

static void w_stdin(hg_call *c) { c->rc = with_agent(c, op_stdin); }

static void h_stdin(hg_call *c) {
  if (q_bool(c, "eof", &c->u.ex.eof) < 0) {
    call_error(c, -EINVAL, "%s", c->msg);
    return;
  }
  call_queue(c, w_stdin, a_no_content);
}

static int op_signal(hg_call *c, hg_agent *a) { return hg_agent_signal(a, c->p.cid, c->u.ex.sig); }
static void w_signal(hg_call *c) { c->rc = with_agent(c, op_signal); }

static void h_signal(hg_call *c) {
  int64_t sig = 0;
  int rc = get_int(c->body, "signal", 1, 64, &sig, c->msg);
  if (rc == 0 && sig == 0) rc = bad(c->msg, "field \"signal\": required");
  if (rc < 0) {
    call_error(c, rc, "%s", c->msg);
    return;
  }
  c->u.ex.sig = (int)sig;
  call_queue(c, w_signal, a_no_content);
}

/* ---- command output ------------------------------------------------------------
 * Offsets are absolute stream bytes, so a client that reconnects with the
 * offset it reached continues exactly. The bytes of one raw answer are
 * always contiguous from X-Hangar-Offset: when the ring dropped bytes the
 * reader had not taken yet, a raw follow stream ends there (the reconnect
 * then shows X-Hangar-Dropped), and a combined stream says "dropped". */

static const char *stream_name(int s) { return s == HG_STREAM_STDERR ? "stderr" : "stdout"; }

static json_t *base64_json(const hg_buf *d) {
  static const char tbl[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
  const unsigned char *p = (const unsigned char *)d->data;
  size_t n = d->len, o = 0;
  char *s = malloc(4 * ((n + 2) / 3) + 1);
  if (!s) return NULL;
  for (size_t i = 0; i < n; i += 3) {
    uint32_t v = (uint32_t)p[i] << 16 | (i + 1 < n ? (uint32_t)p[i + 1] << 8 : 0) |
                 (i + 2 < n ? p[i + 2] : 0);
    s[o++] = tbl[v >> 18 & 63];
    s[o++] = tbl[v >> 12 & 63];
    s[o++] = i + 1 < n ? tbl[v >> 6 & 63] : '=';
    s[o++] = i + 2 < n ? tbl[v & 63] : '=';
  }
  json_t *j = json_stringn(s, o);
  free(s);
  return j;
}

static int follow_read(hg_call *c, hg_agent *a, int s, uint32_t wait_ms) {
  hg_follow *f = &c->u.fo;
  hg_buf_reset(&f->data[s]);
  return hg_agent_read(a, c->p.cid, s, f->off[s], HG_API_FOLLOW_CHUNK, wait_ms, &f->data[s],
                       &f->res[s]);
}

static int op_follow_raw(hg_call *c, hg_agent *a) {
  hg_follow *f = &c->u.fo;
  return follow_read(c, a, f->stream, f->started && f->follow ? HG_API_FOLLOW_WAIT_MS : 0);
}

/* Combined: one pass over both streams without waiting; when neither had
 * anything, hold on one still open (so the other's bytes wait at most
 * HG_API_COMBINED_WAIT_MS); once both ended, the exit status. */
static int op_follow_combined(hg_call *c, hg_agent *a) {
  hg_follow *f = &c->u.fo;
  bool held = f->started && f->follow, got = false;
  int rc = 0;
  for (int s = HG_STREAM_STDOUT; s <= HG_STREAM_STDERR && rc == 0; s++) {
    hg_buf_reset(&f->data[s]);
    if (f->res[s].eof) continue;
    rc = follow_read(c, a, s, 0);
    got = got || f->data[s].len > 0 || f->res[s].eof;
  }
  if (rc == 0 && !got && held)
    rc = follow_read(c, a, f->res[1].eof ? 2 : 1, HG_API_COMBINED_WAIT_MS);
  if (rc == 0 && f->res[1].eof && f->res[2].eof)
    rc = hg_agent_wait(a, c->p.cid, held ? HG_API_FOLLOW_WAIT_MS : 0, &f->st);
  return rc;
}

static void w_follow(hg_call *c) {
  c->rc = with_agent(c, c->u.fo.stream ? op_follow_raw : op_follow_combined);
}

static int follow_start(hg_call *c) {
  hg_follow *f = &c->u.fo;
  char h[128] = "";
  const char *ctype = "application/x-ndjson";
  if (f->stream) {
    const hg_read_res *r = &f->res[f->stream];
    snprintf(h, sizeof h, "X-Hangar-Offset: %" PRIu64 "\r\nX-Hangar-Dropped: %" PRIu64 "\r\n",
             r->offset, r->dropped);
    ctype = "application/octet-stream";
  }
  f->started = true;
  c->streaming = true;
  count_status(c->api, c->rt, 200);
  return hg_http_stream_start(c->req, 200, ctype, h[0] ? h : NULL);
}

/* Raw stream: true while there is more to send. */
static bool follow_raw(hg_call *c) {
  hg_follow *f = &c->u.fo;
  int s = f->stream;
  const hg_read_res *r = &f->res[s];
  const hg_buf *d = &f->data[s];
  if (!f->started) {
    f->off[s] = r->offset; /* the answer starts after what was dropped */
    if (follow_start(c) < 0) return false;
  } else if (r->offset != f->off[s]) {
    return false; /* a hole: end so that the reconnect reports it */
  }
  if (d->len && hg_http_stream_write(c->req, d->data, d->len) < 0) return false;
  f->off[s] = r->offset + d->len;
  return !r->eof;
}

static int ndjson_write(hg_call *c, json_t *ev) {
  char *s = ev ? json_dumps(ev, JSON_COMPACT) : NULL;
  json_decref(ev);
  if (!s) return -ENOMEM;
  size_t n = strlen(s);
  char *line = realloc(s, n + 2);
  if (!line) {
    free(s);
    return -ENOMEM;
  }
  line[n] = '\n';
  int rc = hg_http_stream_write(c->req, line, n + 1);
  free(line);
  return rc;
}

/* Combined stream: {"stream","offset"[,"dropped"][,"data"]} per read, then
 * the exit status; true while there is more. */
static bool follow_ndjson(hg_call *c) {
  hg_follow *f = &c->u.fo;
  if (!f->started && follow_start(c) < 0) return false;
  for (int s = HG_STREAM_STDOUT; s <= HG_STREAM_STDERR; s++) {
    const hg_read_res *r = &f->res[s];
    const hg_buf *d = &f->data[s];
    if (d->len == 0 && r->offset <= f->off[s]) continue;
    json_t *ev = json_pack("{s:s,s:I}", "stream", stream_name(s), "offset", (json_int_t)r->offset);
    if (ev && r->offset > f->off[s])
      json_object_set_new(ev, "dropped", json_integer((json_int_t)(r->offset - f->off[s])));
    if (ev && d->len) json_object_set_new(ev, "data", base64_json(d));
    if (ndjson_write(c, ev) < 0) return false;
    f->off[s] = r->offset + d->len;
  }
  if (!f->res[1].eof || !f->res[2].eof) return true;
  json_t *ev = json_object();
  status_json(ev, &f->st);
  ndjson_write(c, ev);
  return false;
}

/* Whole answer: what is there now, from offset. */
static void output_respond(hg_call *c) {
  hg_follow *f = &c->u.fo;
  const hg_read_res *r = &f->res[f->stream];
  const hg_buf *d = &f->data[f->stream];
  char h[256];
  snprintf(h, sizeof h,
           "X-Hangar-Offset: %" PRIu64 "\r\nX-Hangar-Dropped: %" PRIu64 "\r\nX-Hangar-Total: %" PRIu64
           "\r\nX-Hangar-Eof: %d\r\n",
           r->offset, r->dropped, r->total, r->eof ? 1 : 0);
  call_respond(c, 200, "application/octet-stream", h, d->data ? d->data : "", d->len);
}

static void follow_next(hg_call *c);

static void a_follow(hg_call *c) {
  hg_follow *f = &c->u.fo;
  /* A slow guest is no end of the stream: ask again while the client stays. */
  if (c->rc == -ETIMEDOUT && f->started && f->follow && !atomic_load(&c->aborted) &&
      !c->api->stopping) {
    follow_next(c);
    return;
  }
  if (c->rc < 0) {
    if (f->started) call_respond(c, 200, NULL, NULL, NULL, 0);
    else call_fail(c, c->rc, c->p.id);
    return;
  }
  if (f->stream && !f->follow) {
    output_respond(c);
    return;
  }
  bool more = f->stream ? follow_raw(c) : follow_ndjson(c);
  if (!more || !f->follow || atomic_load(&c->aborted) || c->api->stopping) {
    call_respond(c, 200, NULL, NULL, NULL, 0);
    return;
  }
  follow_next(c);
}

static void on_follow_drain(uv_timer_t *t) {
  hg_call *c = t->data;
  if (atomic_load(&c->aborted) || c->api->stopping) call_respond(c, 200, NULL, NULL, NULL, 0);
  else follow_next(c);
}

/* Back-pressure: no new read while the client has not taken what it got. */
static void follow_next(hg_call *c) {
  if (hg_http_stream_pending(c->req) > HG_API_HIGH_WATER)
    call_timer(c, HG_API_DRAIN_MS, on_follow_drain);
  else
    call_queue(c, w_follow, a_follow);
}

static void follow_cleanup(hg_call *c) {
  hg_buf_free(&c->u.fo.data[1]);
  hg_buf_free(&c->u.fo.data[2]);
}

static int output_query(hg_call *c) {
  hg_follow *f = &c->u.fo;
  char s[16];
  uint64_t off = 0;
  int rc = q_opt(c, "stream", s, sizeof s);
  if (rc < 0) return rc;
  if (!s[0] || !strcmp(s, "stdout")) f->stream = HG_STREAM_STDOUT;
  else if (!strcmp(s, "stderr")) f->stream = HG_STREAM_STDERR;
  else if (!strcmp(s, "combined")) f->stream = 0;
  else return bad(c->msg, "query parameter \"stream\": stdout, stderr or combined");
  if ((rc = q_u64(c, "offset", UINT64_MAX, &off)) < 0 ||
      (rc = q_u64(c, "stdout_offset", UINT64_MAX, &f->off[1])) < 0 ||
      (rc = q_u64(c, "stderr_offset", UINT64_MAX, &f->off[2])) < 0 ||
      (rc = q_bool(c, "follow", &f->follow)) < 0)
    return rc;
  if (f->stream) f->off[f->stream] = off;
  return 0;
}

static void h_output(hg_call *c) {
  hg_follow *f = &c->u.fo;
  c->cleanup = follow_cleanup;
  hg_buf_init(&f->data[1], HG_API_FOLLOW_CHUNK);
  hg_buf_init(&f->data[2], HG_API_FOLLOW_CHUNK);
  if (output_query(c) < 0) {
    call_error(c, -EINVAL, "%s", c->msg);
    return;
  }
  if (f->follow && !call_hold(c)) return; /* the slot is held for the stream's life */
  call_queue(c, w_follow, a_follow);
}

/* ---- files ------------------------------------------------------------------------
 * Paths are guest paths handed to the agent as they are: "../../etc" is
 * resolved by the guest, inside the guest. Nothing here opens a host file. */

static int op_file_read(hg_call *c, hg_agent *a) {
  return hg_agent_file_read(a, c->u.fi.path, HG_API_MAX_UPLOAD, &c->u.fi.data);
}

static int op_file_write(hg_call *c, hg_agent *a) {
  return hg_agent_file_write(a, c->u.fi.path, c->req->body, c->req->body_len, c->u.fi.mode);
}

static int op_file_remove(hg_call *c, hg_agent *a) {
  return hg_agent_remove(a, c->u.fi.path, c->u.fi.flag);
}

static int op_mkdir(hg_call *c, hg_agent *a) { return hg_agent_mkdir(a, c->u.fi.path, c->u.fi.flag); }

static json_t *stat_json(const hg_file_stat *st) {
  return json_pack("{s:s,s:I,s:i,s:I}", "type", st->type, "size", (json_int_t)st->size, "mode",
                   (int)st->mode, "mtime", (json_int_t)st->mtime);
}

static int op_stat(hg_call *c, hg_agent *a) {
  int rc = hg_agent_stat(a, c->u.fi.path, &c->u.fi.st);
  if (rc == 0) c->out = stat_json(&c->u.fi.st);
  return rc;
}

static void list_entry(void *ud, const char *name, const hg_file_stat *st) {
  json_t *o = stat_json(st);
  if (!o) return;
  json_object_set_new(o, "name", json_string(name));
  json_array_append_new(ud, o);
}

static int op_list(hg_call *c, hg_agent *a) {
  json_t *arr = json_array();
  if (!arr) return -ENOMEM;
  int rc = hg_agent_list(a, c->u.fi.path, list_entry, arr);
  if (rc == 0) c->out = json_pack("{s:o}", "entries", arr);
  else json_decref(arr);
  return rc;
}

enum { FOP_READ, FOP_WRITE, FOP_REMOVE, FOP_MKDIR, FOP_STAT, FOP_LIST };

static void w_file(hg_call *c) {
  static int (*const ops[])(hg_call *, hg_agent *) = {
    [FOP_READ] = op_file_read, [FOP_WRITE] = op_file_write, [FOP_REMOVE] = op_file_remove,
    [FOP_MKDIR] = op_mkdir,    [FOP_STAT] = op_stat,        [FOP_LIST] = op_list,
  };
  c->rc = with_agent(c, ops[c->u.fi.op]);
}

static void a_file(hg_call *c) {
  hg_file *f = &c->u.fi;
  if (c->rc < 0) {
    call_fail(c, c->rc, f->path);
    return;
  }
  if (c->out) {
    json_t *o = c->out;
    c->out = NULL;
    call_json(c, 200, o, NULL);
  } else if (c->rt->handle == h_file_get) {
    call_respond(c, 200, "application/octet-stream", NULL, f->data.data ? f->data.data : "",
                 f->data.len);
  } else {
    call_respond(c, 204, NULL, NULL, NULL, 0);
  }
}

static void file_cleanup(hg_call *c) { hg_buf_free(&c->u.fi.data); }

/* Validates ?path= (and the flag named flag, default dflt) and runs op. */
static void file_start(hg_call *c, int op, const char *flag, bool dflt) {
  hg_file *f = &c->u.fi;
  c->cleanup = file_cleanup;
  hg_buf_init(&f->data, HG_API_MAX_UPLOAD);
  f->flag = dflt;
  int rc = q_path(c, f->path);
  if (rc == 0 && flag) rc = q_bool(c, flag, &f->flag);
  if (rc < 0) {
    call_error(c, rc, "%s", c->msg);
    return;
  }
  f->op = op;
  call_queue(c, w_file, a_file);
}

static void h_file_get(hg_call *c) { file_start(c, FOP_READ, NULL, false); }
static void h_file_delete(hg_call *c) { file_start(c, FOP_REMOVE, "recursive", false); }
static void h_file_list(hg_call *c) { file_start(c, FOP_LIST, NULL, false); }
static void h_file_stat(hg_call *c) { file_start(c, FOP_STAT, NULL, false); }
static void h_file_mkdir(hg_call *c) { file_start(c, FOP_MKDIR, "parents", true); }

static void h_file_put(hg_call *c) {
  char m[8];
  c->u.fi.mode = 0644;
  int rc = q_get(c, "mode", m, sizeof m);
  if (rc == 0) {
    char *end;
    unsigned long v = strtoul(m, &end, 8);
    if (!m[0] || *end || v > 07777 || m[0] == '-' || m[0] == '+' || m[0] == ' ')
      rc = bad(c->msg, "query parameter \"mode\": octal permissions, 0 to 7777");
    c->u.fi.mode = (uint32_t)v;
  }
  if (rc < 0 && rc != -ENOENT) {
    call_error(c, rc, "%s", c->msg);
    return;
  }
  if (c->req->body_len > HG_API_MAX_UPLOAD) { /* the server should have said 413 already */
    call_error(c, -EFBIG, "file larger than %u bytes", HG_API_MAX_UPLOAD);
    return;
  }
  file_start(c, FOP_WRITE, NULL, false);
}

/* ---- network ---------------------------------------------------------------------
 * A sandbox as the gateway sees it (DESIGN §11): its egress policy, its
 * egress log, and HTTP into its ports. Gateway calls block a few ms (it
 * answers from its own thread), so they run on the pool. Without a gateway
 * (hangard --no-network) these routes answer 404. */

#define HG_API_PORT_TIMEOUT_MS 120000 /* a guest's whole HTTP answer */

static bool net_on(hg_call *c) {
  if (c->api->gw) return true;
  call_error(c, -ENOENT, "networking is off on this node");
  return false;
}

/* 404 for a sandbox this node does not have (in-memory: see call_inline). */
static int net_sandbox(hg_call *c, json_t **desc) {
  json_t *d = NULL;
  int rc = hg_sandbox_describe(c->api->m, c->p.id, &d);
  if (rc == 0 && desc) *desc = d;
  else json_decref(d);
  return rc;
}

static void w_net_get(hg_call *c) {
  c->rc = net_sandbox(c, NULL);
  if (c->rc < 0) return;
  c->rc = hg_gateway_get_policy(c->api->gw, c->p.id, &c->out);
  if (c->rc == -ENOENT) c->rc = 0; /* the gateway never heard of it: no policy */
}

static void a_net(hg_call *c) {
  if (c->rc < 0) {
    call_fail(c, c->rc, c->p.id);
    return;
  }
  json_t *o = c->out;
  c->out = NULL;
  if (!json_is_object(o)) { /* none: no egress, the same as an empty allowlist */
    json_decref(o);
    o = json_pack("{s:[],s:[]}", "allow", "credentials");
  }
  call_json(c, 200, o, NULL);
}

static void h_net_get(hg_call *c) {
  if (net_on(c)) call_queue(c, w_net_get, a_net);
}

/* GET …/replicas: asks every holder (a worker: peers answer over the
 * replication port). */
static void w_replicas(hg_call *c) {
  char msg[256] = "";
  c->rc = c->api->repl.replicas(c->api->repl.ud, c->p.id, &c->out, msg);
  if (c->rc < 0) snprintf(c->msg, sizeof c->msg, "%s", msg[0] ? msg : hg_err_str(c->rc));
}

static void a_replicas(hg_call *c) {
  if (c->rc < 0) {
    call_error(c, c->rc, "%s", c->msg);
    return;
  }
  json_t *o = c->out;
  c->out = NULL;
  call_json(c, 200, o, NULL);
}

static void h_replicas(hg_call *c) {
  if (!c->api->have_repl) {
    call_error(c, -ENOENT, "replication is off on this node");
    return;
  }
  call_queue(c, w_replicas, a_replicas);
}

static void net_put_cleanup(hg_call *c) {
  if (c->u.policy) hg_policy_free(c->u.policy);
}

static void w_net_put(hg_call *c) {
  c->rc = net_sandbox(c, NULL);
  if (c->rc == 0) c->rc = hg_gateway_set_policy(c->api->gw, c->p.id, c->u.policy);
  if (c->rc == 0) c->out = hg_policy_json(c->u.policy, true);
}

static void h_net_put(hg_call *c) {
  char err[256] = "";
  if (!net_on(c)) return;
  c->cleanup = net_put_cleanup;
  if (hg_policy_parse(c->body, &c->u.policy, err) < 0) {
    c->u.policy = NULL;
    call_error(c, -EINVAL, "%s", err[0] ? err : "invalid policy");
    return;
  }
  call_queue(c, w_net_put, a_net);
}

static void w_egress_log(hg_call *c) {
  c->rc = net_sandbox(c, NULL);
  if (c->rc == 0) c->out = hg_gateway_egress_log(c->api->gw, c->p.id);
}

static void a_egress_log(hg_call *c) {
  if (c->rc < 0) {
    call_fail(c, c->rc, c->p.id);
    return;
  }
  a_list(c, "entries");
}

static void h_egress_log(hg_call *c) {
  if (net_on(c)) call_queue(c, w_egress_log, a_egress_log);
}

/* The guest's request target: the raw target past "/v1/sandboxes/{id}/
 * ports/{port}" (still percent-encoded, query and all), "/" at least. */
static char *port_target(const char *raw) {
  const char *p = raw;
  for (int seg = 0; seg < 5 && p && *p == '/'; seg++) p += 1 + strcspn(p + 1, "/?");
  if (!p || (*p && *p != '/' && *p != '?')) return NULL;
  char *t = NULL;
  return asprintf(&t, "%s%s", *p == '/' ? "" : "/", p) < 0 ? NULL : t;
}

/* Running, with a NIC and its namespace: else -EBUSY (409), the reason
 * in c->msg. */
static int port_ready(hg_call *c, json_t *d) {
  const char *st = json_string_value(json_object_get(d, "state"));
  if (!st || strcmp(st, "running") != 0) {
    snprintf(c->msg, HG_API_MSG, "sandbox %s is %s, not running", c->p.id, st ? st : "unknown");
    return -EBUSY;
  }
  if (!json_is_true(json_object_get(d, "nic"))) {
    snprintf(c->msg, HG_API_MSG, "sandbox %s has no network device (its template was built "
             "without one)", c->p.id);
    return -EBUSY;
  }
  return 0;
}

static void w_port(hg_call *c) {
  hg_port *pt = &c->u.port;
  json_t *d = NULL;
  int fd = -1;
  int rc = net_sandbox(c, &d);
  if (rc == 0) rc = port_ready(c, d);
  json_decref(d);
  if (rc == 0) {
    rc = hg_gateway_connect_guest(c->api->gw, c->p.id, c->p.port, &fd);
    if (rc == -ENOENT) {
      snprintf(c->msg, HG_API_MSG, "sandbox %s has no network namespace on this node", c->p.id);
      rc = -EBUSY;
    }
  }
  if (rc == 0) {
    pt->connected = true;
    hg_inbound_req r = {.method = c->req->method, .target = pt->target,
                        .headers = c->req->headers, .nheaders = c->req->nheaders,
                        .body = c->req->body, .body_len = c->req->body_len};
    rc = hg_inbound_exchange(fd, &r, HG_API_MAX_UPLOAD, HG_API_PORT_TIMEOUT_MS, &pt->resp);
    close(fd);
  }
  c->rc = rc;
}

static void a_port(hg_call *c) {
  hg_port *pt = &c->u.port;
  unsigned port = c->p.port;
  switch (c->rc) {
  case 0:
    break;
  case -EBUSY:
    call_error(c, -EBUSY, "%s", c->msg);
    return;
  case -ECONNREFUSED:
    call_error(c, -ECONNREFUSED, "nothing listens on port %u in sandbox %s", port, c->p.id);
    return;
  case -ETIMEDOUT:
    if (!pt->connected)
      call_error(c, -ETIMEDOUT, "connecting to port %u in sandbox %s timed out", port, c->p.id);
    else
      call_error(c, -ETIMEDOUT, "port %u in sandbox %s did not answer within %d s", port,
                 c->p.id, HG_API_PORT_TIMEOUT_MS / 1000);
    return;
  case -ENOBUFS:
    call_error(c, -EPROTO, "the answer of port %u in sandbox %s is larger than %u bytes", port,
               c->p.id, HG_API_MAX_UPLOAD);
    return;
  case -EPROTO:
  case -EPIPE:
  case -ECONNRESET:
    call_error(c, -EPROTO, "port %u in sandbox %s sent no valid HTTP answer", port, c->p.id);
    return;
  default:
    call_fail(c, c->rc, c->p.id);
    return;
  }
  if (hg_buf_append(&pt->resp.headers, "", 1) < 0) {
    call_fail(c, -ENOMEM, c->p.id);
    return;
  }
  hg_inbound_resp *r = &pt->resp;
  call_respond(c, r->status, r->content_type[0] ? r->content_type : NULL, r->headers.data,
               r->body.data ? r->body.data : "", r->body.len);
}

static void port_cleanup(hg_call *c) {
  free(c->u.port.target);
  hg_inbound_resp_free(&c->u.port.resp);
}

static void h_port(hg_call *c) {
  hg_port *pt = &c->u.port;
  if (!net_on(c)) return;
  c->cleanup = port_cleanup;
  hg_buf_init(&pt->resp.headers, HG_INBOUND_MAX_HEAD);
  hg_buf_init(&pt->resp.body, HG_API_MAX_UPLOAD);
  pt->target = port_target(c->req->target);
  if (!pt->target) {
    call_error(c, -EINVAL, "the request target must be a path: /v1/sandboxes/%s/ports/%u/…",
               c->p.id, (unsigned)c->p.port);
    return;
  }
  if (!call_hold(c)) return; /* a slow guest holds the worker */
  call_queue(c, w_port, a_port);
}

/* ---- health, metrics ------------------------------------------------------------ */

static void h_healthz(hg_call *c) {
  hg_api *api = c->api;
  call_json(c, 200,
            json_pack("{s:s,s:s,s:s}", "status", "ok", "node", api->node_id, "version", api->version),
            NULL);
}

static void h_node(hg_call *c) {
  hg_api *api = c->api;
  call_json(c, 200,
            json_pack("{s:s,s:s,s:{s:s,s:s}}", "id", api->node_id, "version", api->version,
                      "accel", "name", api->accel, "reason", api->accel_reason),
            NULL);
}

/* A Prometheus label value: backslash, quote and newline escaped. */
static void label_put(hg_buf *b, const char *v) {
  for (; *v; v++) {
    if (*v == '\\' || *v == '"') hg_buf_printf(b, "\\%c", *v);
    else if (*v == '\n') hg_buf_append(b, "\\n", 2);
    else hg_buf_append(b, v, 1);
  }
}

typedef struct hg_op_text {
  hg_buf *hist, *failed;
} hg_op_text;

/* Writes `name{kind="<kind>"` (the caller closes the labels). */
static void series_open(hg_buf *b, const char *name, const char *kind) {
  hg_buf_printf(b, "%s{kind=\"", name);
  label_put(b, kind);
  hg_buf_append(b, "\"", 1);
}

#define HG_OP_HIST "hangar_operation_duration_seconds"

/* hg_ops_metrics (node/op.c) hands n per-bucket counts over n-1 bounds in
 * seconds: buckets[i] counts (bounds[i-1], bounds[i]], the last one
 * everything above. Prometheus wants them cumulative, ending with +Inf. */
static void metric_op(void *ud, const char *kind, const double *bounds, const uint64_t *buckets,
                      int n, double sum, uint64_t count, uint64_t failed) {
  hg_op_text *t = ud;
  uint64_t cum = 0;
  for (int i = 0; i < n - 1; i++) {
    cum += buckets[i];
    series_open(t->hist, HG_OP_HIST "_bucket", kind);
    hg_buf_printf(t->hist, ",le=\"%g\"} %" PRIu64 "\n", bounds[i], cum);
  }
  series_open(t->hist, HG_OP_HIST "_bucket", kind);
  hg_buf_printf(t->hist, ",le=\"+Inf\"} %" PRIu64 "\n", count);
  series_open(t->hist, HG_OP_HIST "_sum", kind);
  hg_buf_printf(t->hist, "} %.6f\n", sum);
  series_open(t->hist, HG_OP_HIST "_count", kind);
  hg_buf_printf(t->hist, "} %" PRIu64 "\n", count);
  series_open(t->failed, "hangar_operations_failed_total", kind);
  hg_buf_printf(t->failed, "} %" PRIu64 "\n", failed);
}

/* The runtime's part (manager and ops locks: on a worker). */
static void metrics_runtime(hg_api *api, hg_buf *b) {
  unsigned counts[HG_SB_FAILED + 1] = {0};
  hg_manager_counts(api->m, counts);
  hg_buf_printf(b, "# HELP hangar_sandboxes Sandboxes on this node by state.\n"
                   "# TYPE hangar_sandboxes gauge\n");
  for (int s = 0; s <= HG_SB_FAILED; s++)
    hg_buf_printf(b, "hangar_sandboxes{state=\"%s\"} %u\n", hg_sb_state_name((hg_sb_state)s),
                  counts[s]);
  hg_buf hist, failed;
  hg_buf_init(&hist, b->max);
  hg_buf_init(&failed, b->max);
  hg_op_text t = {&hist, &failed};
  hg_ops_metrics(api->ops, metric_op, &t);
  hg_buf_printf(b, "# HELP " HG_OP_HIST " Durations of finished operations.\n"
                   "# TYPE " HG_OP_HIST " histogram\n");
  hg_buf_append(b, hist.data ? hist.data : "", hist.len);
  hg_buf_printf(b, "# HELP hangar_operations_failed_total Operations that failed.\n"
                   "# TYPE hangar_operations_failed_total counter\n");
  hg_buf_append(b, failed.data ? failed.data : "", failed.len);
  hg_buf_free(&hist);
  hg_buf_free(&failed);
}

/* The API's own part (loop thread state). */
static void metrics_api(const hg_api *api, hg_buf *b) {
  hg_buf_printf(b, "# HELP hangar_http_requests_total HTTP requests answered, by route and status.\n"
                   "# TYPE hangar_http_requests_total counter\n");
  for (int r = 0; r <= HG_NROUTES; r++) {
    const hg_status_count *row = &api->counts[r * HG_API_STATUS_SLOTS];
    for (int i = 0; i < HG_API_STATUS_SLOTS && row[i].status; i++) {
      hg_buf_printf(b, "hangar_http_requests_total{route=\"");
      label_put(b, r < HG_NROUTES ? hg_routes[r].pattern : "unmatched");
      hg_buf_printf(b, "\",status=\"%d\"} %" PRIu64 "\n", row[i].status, row[i].n);
    }
  }
  hg_buf_printf(b,
                "# HELP hangar_api_held_requests Requests holding a worker (command wait, output follow).\n"
                "# TYPE hangar_api_held_requests gauge\nhangar_api_held_requests %u\n"
                "# HELP hangar_api_held_rejected_total Requests refused with 503: no held slot.\n"
                "# TYPE hangar_api_held_rejected_total counter\nhangar_api_held_rejected_total %" PRIu64 "\n"
                "# HELP hangar_api_operations_running Operations on the thread pool.\n"
                "# TYPE hangar_api_operations_running gauge\nhangar_api_operations_running %u\n",
                api->held, api->held_rejected, api->ops_running);
  unsigned queued = 0;
  for (const hg_opjob *j = api->queue_head; j; j = j->next) queued++;
  hg_buf_printf(b,
                "# HELP hangar_api_operations_queued Operations waiting for a slot.\n"
                "# TYPE hangar_api_operations_queued gauge\nhangar_api_operations_queued %u\n",
                queued);
}

static void w_metrics(hg_call *c) {
  metrics_runtime(c->api, &c->u.text);
  if (c->api->gw) hg_gateway_metrics(c->api->gw, &c->u.text);
}

/* Forwarding, and the cluster's own lines (loop thread). */
static void metrics_cluster(const hg_api *api, hg_buf *b) {
  hg_forward_stats st = {0};
  if (api->fwd) hg_forward_get_stats(api->fwd, &st);
  hg_buf_printf(b,
                "# HELP hangar_api_forwarded_total Requests forwarded to another node, by outcome.\n"
                "# TYPE hangar_api_forwarded_total counter\n"
                "hangar_api_forwarded_total{outcome=\"ok\"} %" PRIu64 "\n"
                "hangar_api_forwarded_total{outcome=\"unreachable\"} %" PRIu64 "\n"
                "hangar_api_forwarded_total{outcome=\"broken\"} %" PRIu64 "\n"
                "hangar_api_forwarded_total{outcome=\"cancelled\"} %" PRIu64 "\n"
                "hangar_api_forwarded_total{outcome=\"declined\"} %" PRIu64 "\n"
                "# HELP hangar_api_forward_retries_total Forwards sent once more where a 421 pointed.\n"
                "# TYPE hangar_api_forward_retries_total counter\nhangar_api_forward_retries_total %" PRIu64 "\n"
                "# HELP hangar_api_forward_paused_total Times a forward waited for a slow client.\n"
                "# TYPE hangar_api_forward_paused_total counter\nhangar_api_forward_paused_total %" PRIu64 "\n"
                "# HELP hangar_api_forwards_active Forwards in flight.\n"
                "# TYPE hangar_api_forwards_active gauge\nhangar_api_forwards_active %u\n"
                "# HELP hangar_api_misdirected_total Forwarded requests answered 421 (sandbox elsewhere).\n"
                "# TYPE hangar_api_misdirected_total counter\nhangar_api_misdirected_total %" PRIu64 "\n",
                st.ok, st.unreachable, st.broken, st.cancelled, st.declined, st.retried, st.paused,
                st.active, api->misdirected);
  if (api->have_peers && api->peers.metrics) api->peers.metrics(api->peers.ud, b);
  if (api->have_repl && api->repl.metrics) api->repl.metrics(api->repl.ud, b);
}

static void a_metrics(hg_call *c) {
  hg_buf *b = &c->u.text;
  metrics_api(c->api, b);
  metrics_cluster(c->api, b);
  call_respond(c, 200, "text/plain; version=0.0.4; charset=utf-8", NULL, b->data ? b->data : "",
               b->len);
}

static void text_cleanup(hg_call *c) { hg_buf_free(&c->u.text); }

static void h_metrics(hg_call *c) {
  hg_buf_init(&c->u.text, 16u * 1024 * 1024);
  c->cleanup = text_cleanup;
  call_queue(c, w_metrics, a_metrics);
}

/* ---- OpenAPI --------------------------------------------------------------------
 * Generated from the routing table, so every served route is documented;
 * each query parameter a route reads must have a row here. */

typedef struct hg_param_doc {
  const char *name, *type, *desc;
} hg_param_doc;

static const hg_param_doc hg_query_docs[] = {
  {"wait", "integer", "Seconds (0-600) to wait for the end before answering"},
  {"state", "string", "Only sandboxes in this state"},
  {"label", "string", "Only sandboxes whose metadata has key=value"},
  {"stream", "string", "stdout (default), stderr, or combined (NDJSON events)"},
  {"offset", "integer", "Absolute stream offset to start from"},
  {"follow", "boolean", "Stream until the command's stream ends"},
  {"stdout_offset", "integer", "combined: stdout offset to start from"},
  {"stderr_offset", "integer", "combined: stderr offset to start from"},
  {"token", "string", "The command's output token, instead of Authorization"},
  {"eof", "boolean", "Close stdin after this data"},
  {"path", "string", "Absolute guest path"},
  {"mode", "string", "Octal permissions (default 0644)"},
  {"recursive", "boolean", "Remove directories with their contents"},
  {"parents", "boolean", "Make missing parents (default 1)"},
  {"sandbox", "string", "Only this sandbox's operations"},
  {"node", "string", "Resume on this node, which must hold the newest generation"},
  {"durability", "string", "replicated (default with peers): done once the copies are "
                           "acknowledged; local: done once on disk here"},
};

static const hg_param_doc hg_path_docs[] = {
  {"id", "string", "Sandbox id, sb-<16 hex>"},
  {"node", "string", "Node id: 1-63 of [a-z0-9-] (n-<hex> when generated)"},
  {"cid", "string", "Command id, cmd-<n>"},
  {"op", "string", "Operation id, op-<16 hex>"},
  {"port", "integer", "TCP port in the sandbox, 1-65535"},
  {"path", "string", "The rest of the path (any number of segments), sent on to the guest "
                     "with the query string"},
};

static const hg_param_doc *doc_find(const hg_param_doc *d, size_t n, const char *name, size_t len) {
  for (size_t i = 0; i < n; i++)
    if (strlen(d[i].name) == len && !memcmp(d[i].name, name, len)) return &d[i];
  return NULL;
}

static json_t *param_json(const hg_param_doc *d, const char *in) {
  return json_pack("{s:s,s:s,s:b,s:s,s:{s:s}}", "name", d->name, "in", in, "required",
                   !strcmp(in, "path") || !strcmp(d->name, "path"), "description", d->desc,
                   "schema", "type", d->type);
}

/* Path and query parameters of r; -EINVAL if one has no doc row. */
static int route_params(const hg_route *r, json_t *arr) {
  for (const char *p = strchr(r->pattern, '{'); p; p = strchr(p + 1, '{')) {
    const hg_param_doc *d = doc_find(hg_path_docs, HG_ARRAY_SIZE(hg_path_docs), p + 1,
                                     strcspn(p + 1, "*}")); /* {path*}: "path" */
    if (!d) return -EINVAL;
    json_array_append_new(arr, param_json(d, "path"));
  }
  for (const char *q = r->query; *q;) {
    size_t n = strcspn(q, ",");
    const hg_param_doc *d = doc_find(hg_query_docs, HG_ARRAY_SIZE(hg_query_docs), q, n);
    if (!d) return -EINVAL;
    json_array_append_new(arr, param_json(d, "query"));
    q += n + (q[n] == ',');
  }
  return 0;
}

static const char *scope_name(hg_scope s) {
  static const char *const names[] = {"public", "admin", "sandbox", "output", "operation",
                                      "operation-list"};
  return names[s];
}

/* method: lower-case, one of the route's methods. */
static json_t *route_doc(const hg_route *r, const char *method) {
  char opid[160];
  size_t n = 0;
  for (const char *p = method; *p && n < sizeof opid - 1; p++) opid[n++] = *p;
  for (const char *p = r->pattern; *p && n < sizeof opid - 1; p++)
    if (*p != '{' && *p != '}' && *p != '*') opid[n++] = (*p == '/' || *p == '.') ? '_' : *p;
  opid[n] = '\0';
  json_t *params = json_array();
  if (route_params(r, params) < 0) {
    json_decref(params);
    return NULL;
  }
  char ok[8];
  snprintf(ok, sizeof ok, "%d", r->ok);
  json_t *o = json_pack("{s:s,s:s,s:o,s:s,s:{s:{s:s},s:{s:s}}}", "operationId", opid, "summary",
                        r->summary, "parameters", params, "x-hangar-auth", scope_name(r->scope),
                        "responses", ok, "description", r->summary, "default", "$ref",
                        "#/components/responses/Error");
  if (!o) return NULL;
  if (r->ok == 202 && strstr(r->query, "wait")) {
    json_object_set_new(json_object_get(o, "responses"), r->handle == h_create ? "201" : "200",
                        json_pack("{s:s}", "description", "Finished within ?wait"));
  }
  if (r->scope == SCOPE_PUBLIC) json_object_set_new(o, "security", json_array());
  if (r->body != BODY_NONE) {
    const char *ct = r->body == BODY_JSON ? "application/json" : "application/octet-stream";
    json_t *schema = r->body == BODY_JSON ? json_pack("{s:s}", "type", "object")
                                          : json_pack("{s:s,s:s}", "type", "string", "format", "binary");
    json_object_set_new(o, "requestBody", json_pack("{s:{s:{s:o}}}", "content", ct, "schema", schema));
  }
  return o;
}

/* Methods a "*" route is documented under. */
static const char *const hg_any_methods[] = {"get", "head", "post", "put", "patch", "delete",
                                             "options"};

/* One route's operations into its path item; -EINVAL when undocumented. */
static int route_docs(const hg_route *r, json_t *item) {
  char m[8];
  size_t k = 0;
  for (; r->method[k] && k < sizeof m - 1; k++) m[k] = (char)(r->method[k] | 0x20);
  m[k] = '\0';
  bool any = !strcmp(r->method, "*");
  size_t n = any ? HG_ARRAY_SIZE(hg_any_methods) : 1;
  for (size_t i = 0; i < n; i++) {
    const char *method = any ? hg_any_methods[i] : m;
    json_t *op = route_doc(r, method);
    if (!op) return -EINVAL;
    json_object_set_new(item, method, op);
  }
  return 0;
}

static json_t *openapi_doc(const char *version) {
  json_t *paths = json_object();
  for (int i = 0; i < HG_NROUTES; i++) {
    const hg_route *r = &hg_routes[i];
    char key[256]; /* OpenAPI has no "{path*}": the tail reads "{path}" */
    size_t n = 0;
    for (const char *p = r->pattern; *p && n < sizeof key - 1; p++)
      if (*p != '*') key[n++] = *p;
    key[n] = '\0';
    json_t *item = json_object_get(paths, key);
    if (!item) json_object_set_new(paths, key, item = json_object());
    if (route_docs(r, item) < 0) {
      json_decref(paths);
      return NULL;
    }
  }
  return json_pack(
      "{s:s,s:{s:s,s:s},s:[{s:[]}],s:{s:{s:{s:s,s:s}},s:{s:{s:s,s:{s:{s:{s:s}}}}}},s:o}", "openapi",
      "3.0.3", "info", "title", "hangar", "version", version, "security", "bearer",
      "components", "securitySchemes", "bearer", "type", "http", "scheme", "bearer", "responses",
      "Error", "description", "{\"error\": {\"code\", \"message\"}} (docs/api.md)", "content",
      "application/json", "schema", "type", "object", "paths", paths);
}

static void h_openapi(hg_call *c) {
  call_respond(c, 200, "application/json", NULL, c->api->openapi, c->api->openapi_len);
}

/* ---- dispatch ------------------------------------------------------------------- */

static void dispatch(hg_call *c) {
  if (c->rt->body == BODY_JSON) {
    int rc = body_parse(c->req->body, c->req->body_len, &c->body, c->msg);
    if (rc < 0) {
      call_error(c, rc, "%s", c->msg);
      return;
    }
  }
  c->rt->handle(c);
}

/* Is cred the token of the sandbox concerned? (manager: a worker) */
static void w_auth(hg_call *c) {
  hg_api *api = c->api;
  const char *sb = c->rt->scope == SCOPE_OPLIST ? c->qsandbox : c->p.id;
  if (c->rt->scope == SCOPE_OP) {
    sb = NULL;
    if (hg_op_describe(api->ops, c->p.op, &c->out) == 0)
      sb = json_string_value(json_object_get(c->out, "sandbox"));
  }
  if (!sb || !hg_id_valid("sb", sb)) return;
  memcpy(c->authsb, sb, strlen(sb) + 1);
  c->ok = hg_sandbox_token_ok(api->m, c->authsb, c->cred);
  /* a sandbox that is only a replica here (a resume that moves it, its
   * replicas): its token is in our newest generation of it */
  if (!c->ok && api->have_repl && c->rt->scope == SCOPE_SANDBOX &&
      (c->rt->handle == h_resume || c->rt->handle == h_replicas)) {
    json_t *d = NULL;
    bool local = hg_sandbox_describe(api->m, c->authsb, &d) == 0;
    json_decref(d);
    if (!local) c->ok = api->repl.token_ok(api->repl.ud, c->authsb, c->cred);
  }
}

static void a_auth(hg_call *c) {
  hg_api *api = c->api;
  /* an operation unknown here: its node checks the token */
  if (!c->ok && c->rt->scope == SCOPE_OP && !c->out && op_lookup_start(c)) return;
  if (c->ok) {
    tok_put(api, TOK_SANDBOX, c->cred, c->authsb, 0, 0);
    dispatch(c);
    return;
  }
  const hg_tok *t = tok_find(api, c->cred);
  if (t && !strcmp(t->sandbox, c->authsb)) { /* its sandbox is gone: forget it */
    tok_unlink(api, (int)(t - api->toks));
    t = NULL;
  }
  call_error(c, t ? HG_API_EFORBID : HG_API_EUNAUTH, NULL);
}

static void auth_start(hg_call *c) {
  char sb[HG_ID_MAX + 8];
  cred_get(c);
  if (c->rt->scope == SCOPE_OPLIST && hg_http_query_get(c->req, "sandbox", sb, sizeof sb) == 0 &&
      hg_id_valid("sb", sb))
    memcpy(c->qsandbox, sb, strlen(sb) + 1);
  int v = auth_decide(c->api, c->rt->scope, &c->p, c->qsandbox, c->cred, &c->admin);
  if (v == AUTH_OK) dispatch(c);
  else if (v == AUTH_CHECK) call_queue(c, w_auth, a_auth);
  else call_error(c, v, NULL);
}

void hg_api_handler(hg_http_server *srv, hg_http_req *req, void *ud) {
  hg_api *api = ud;
  hg_call *c = call_new(api, req);
  if (!c) {
    static const char oom[] = "{\"error\":{\"code\":\"unavailable\",\"message\":\"out of memory\"}}";
    hg_http_respond(req, 503, "application/json", NULL, oom, sizeof oom - 1);
    return;
  }
  hg_match m;
  int rc = route_find(req->method, req->path, &m);
  c->rt = m.rt;
  c->p = m.p;
  if (api->stopping) {
    call_error(c, -EAGAIN, "the node is shutting down");
  } else if (rc == HG_API_EMETHOD) {
    snprintf(c->msg, sizeof c->msg, "%s", m.allow); /* call_error's Allow header */
    call_error(c, rc, "%.16s %.200s: allowed: %s", req->method, req->path, m.allow);
  } else if (rc < 0) {
    call_error(c, -ENOENT, "no such resource: %.200s", req->path);
  } else {
    c->forwarded = hg_http_header_get(req, "x-hangar-forwarded") != NULL;
    if (!route_remote(c)) auth_start(c);
  }
}

void hg_api_on_abort(hg_http_req *req, void *ud) {
  hg_call *c = req->data;
  if (!c || c->finished) return;
  atomic_store(&c->aborted, true);
  if (c->fwd) { /* its done callback ends the call */
    hg_fwd_cancel(c->fwd);
    return;
  }
  if (c->busy) return; /* the worker sees it; its after callback ends the call */
  if (c->cleanup == lc_cleanup && c->u.lc.job) {
    c->u.lc.job->waiter = NULL;
    c->u.lc.job = NULL;
  }
  call_respond(c, 499, NULL, NULL, NULL, 0); /* 499: client closed (nginx's) */
}

size_t hg_api_body_limit(const char *method, const char *path, void *ud) {
  for (int i = 0; i < HG_NROUTES; i++) {
    const hg_route *r = &hg_routes[i];
    if (method_match(r->method, method) && pattern_match(r->pattern, path, NULL))
      return r->body_limit ? r->body_limit : HG_API_MAX_JSON;
  }
  return HG_API_MAX_JSON;
}

void hg_api_http_options(hg_api *api, hg_http_options *opt) {
  opt->handler = hg_api_handler;
  opt->on_abort = hg_api_on_abort;
  opt->body_limit = hg_api_body_limit;
  opt->ud = api;
  opt->max_body = HG_API_MAX_JSON;
}

/* ---- life of the API ------------------------------------------------------------- */

static void api_release(hg_api *api) {
  free(api->toks);
  free(api->buckets);
  free(api->counts);
  free(api->admin_key);
  free(api->node_id);
  free(api->version);
  free(api->accel);
  free(api->accel_reason);
  free(api->openapi);
  free(api);
}

static void api_maybe_free(hg_api *api) {
  if (api->freed && !api->calls && !api->inflight) api_release(api);
}

/* UV_THREADPOOL_SIZE as libuv reads it (default 4, at most 1024). */
static unsigned pool_size(void) {
  const char *e = getenv("UV_THREADPOOL_SIZE");
  long n = e ? strtol(e, NULL, 10) : 4;
  return n < 1 ? 1 : n > 1024 ? 1024 : (unsigned)n;
}

static int api_budget(hg_api *api, const hg_api_config *cfg) {
  api->pool = pool_size();
  api->max_held = cfg->max_held ? cfg->max_held : api->pool * 3 / 4;
  api->max_ops = cfg->max_ops ? cfg->max_ops : api->pool / 8;
  if (api->max_held == 0) api->max_held = 1;
  if (api->max_ops == 0) api->max_ops = 1;
  if (api->max_held + api->max_ops >= api->pool)
    hg_log_warn("api.pool", "pool=%u max_held=%u max_ops=%u msg=\"quick calls may wait behind held "
                "ones: raise UV_THREADPOOL_SIZE\"", api->pool, api->max_held, api->max_ops);
  return 0;
}

static bool repl_valid(const hg_api_config *cfg) {
  const hg_api_repl *r = cfg->repl;
  return !r || (r->after_suspend && r->adopt && r->holds && r->token_ok && r->replicas &&
                r->resume_at && cfg->peers);
}

static bool peers_valid(const hg_api_config *cfg) {
  const hg_api_peers *p = cfg->peers;
  if (!p) return true;
  /* node ids go into X-Hangar-Forwarded and are compared with owners */
  return p->locate && p->place && p->members && p->directory && p->decommission &&
         hg_node_id_valid(cfg->node_id);
}

static void on_forward_closed(void *ud) {
  hg_api *api = ud;
  api->inflight--;
  api_maybe_free(api);
}

int hg_api_new(uv_loop_t *loop, const hg_api_config *cfg, hg_api **out) {
  if (!loop || !cfg || !cfg->manager || !cfg->ops || !cfg->admin_key || !*cfg->admin_key ||
      strlen(cfg->admin_key) > HG_API_TOKEN_MAX || !peers_valid(cfg) || !repl_valid(cfg))
    return -EINVAL;
  hg_api *api = calloc(1, sizeof *api);
  if (!api) return -ENOMEM;
  api->loop = loop;
  api->m = cfg->manager;
  api->ops = cfg->ops;
  api->gw = cfg->gateway;
  api->admin_key = strdup(cfg->admin_key);
  api->node_id = strdup(cfg->node_id ? cfg->node_id : "");
  api->version = strdup(cfg->version ? cfg->version : "dev");
  api->accel = strdup(cfg->accel ? cfg->accel : "tcg");
  api->accel_reason = strdup(cfg->accel_reason ? cfg->accel_reason : "");
  api->toks = calloc(HG_API_TOKENS, sizeof *api->toks);
  api->buckets = malloc(HG_API_TOKEN_BUCKETS * sizeof *api->buckets);
  api->counts = calloc((size_t)(HG_NROUTES + 1) * HG_API_STATUS_SLOTS, sizeof *api->counts);
  json_t *doc = openapi_doc(api->version);
  api->openapi = doc ? json_dumps(doc, JSON_COMPACT) : NULL;
  json_decref(doc);
  int rc = hg_random_bytes(&api->tok_seed, sizeof api->tok_seed);
  if (!api->admin_key || !api->node_id || !api->version || !api->accel ||
      !api->accel_reason || !api->toks || !api->buckets ||
      !api->counts || !api->openapi || rc < 0) {
    api_release(api);
    return rc < 0 ? rc : -ENOMEM;
  }
  if (cfg->repl) {
    api->repl = *cfg->repl;
    api->have_repl = true;
  }
  if (cfg->peers) {
    api->peers = *cfg->peers;
    api->have_peers = true;
    if ((rc = hg_forward_new(loop, api->node_id, &api->fwd)) < 0) {
      api_release(api);
      return rc;
    }
  }
  api->openapi_len = strlen(api->openapi);
  for (int i = 0; i < HG_API_TOKEN_BUCKETS; i++) api->buckets[i] = -1;
  api_budget(api, cfg);
  hg_log_info("api.start", "pool=%u max_held=%u max_ops=%u routes=%d cluster=%d", api->pool,
              api->max_held, api->max_ops, HG_NROUTES, api->have_peers);
  *out = api;
  return 0;
}

void hg_api_stop(hg_api *api) {
  api->stopping = true;
  while (api->queue_head) {
    hg_opjob *j = api->queue_head;
    api->queue_head = j->next;
    if (!api->queue_head) api->queue_tail = NULL;
    job_cancel(api, j);
  }
  for (hg_call *c = api->calls, *n; c; c = n) {
    n = c->next;
    if (c->finished) continue;
    if (c->fwd) { /* a forwarded stream ends like ours; one not started gets 503 */
      hg_fwd_cancel(c->fwd);
      continue;
    }
    atomic_store(&c->aborted, true); /* held workers cut their waits short */
    if (c->busy) continue;           /* answers when its work returns */
    if (c->streaming) call_respond(c, 200, NULL, NULL, NULL, 0);
    else if (c->cleanup == lc_cleanup && c->u.lc.job) on_lc_deadline(&c->timer);
    /* operation pollers see api->stopping at their next tick */
  }
}

void hg_api_free(hg_api *api) {
  if (!api) return;
  hg_api_stop(api);
  api->freed = true;
  api->inflight++; /* keeps api while its calls go */
  for (hg_call *c = api->calls, *n; c; c = n) {
    n = c->next;
    if (c->finished || c->busy) continue; /* busy ones answer when their work returns */
    if (c->cleanup == lc_cleanup && c->u.lc.job) {
      c->u.lc.job->waiter = NULL;
      c->u.lc.job = NULL;
    }
    call_error(c, -EAGAIN, "the node is shutting down");
  }
  if (api->fwd) { /* its forwards ended in hg_api_stop; now its connections */
    hg_forward *f = api->fwd;
    api->fwd = NULL;
    api->inflight++;
    hg_forward_close(f, on_forward_closed, api);
  }
  api->inflight--;
  api_maybe_free(api);
}
