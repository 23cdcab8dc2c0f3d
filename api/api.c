/* api: routes, auth and JSON handlers of the v1 API (docs/api.md).
 *
 * A request goes: hg_api_handler -> route_find (the one routing table) ->
 * auth_decide (may need a token check on the pool) -> the route's handler,
 * which validates its input on the loop thread and then queues its blocking
 * part on the pool (call_queue); the after-work callback answers. Errors of
 * every layer are negative errnos turned into statuses by one table
 * (hg_errors). */
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

#include "node/agentproto.h"
#include "node/core/buf.h"
#include "node/core/log.h"
#include "node/core/util.h"

/* ---- limits ------------------------------------------------------------ */

#define HG_API_TOKEN_MAX 256          /* longest credential looked at */
#define HG_API_TOKEN_HEX 64           /* output tokens: 32 random bytes */
#define HG_API_MSG 256                /* error message */
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
#define HG_API_MAX_STR 4096           /* any other string field */
#define HG_API_TOKENS 16384           /* remembered tokens, oldest forgotten */
#define HG_API_TOKEN_BUCKETS 4096
#define HG_API_STATUS_SLOTS 16        /* distinct statuses counted per route */

/* Outcomes that are not errnos still go through the one error table. */
enum { HG_API_EUNAUTH = -4001, HG_API_EFORBID = -4003, HG_API_EMETHOD = -4005 };

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
} hg_params;

typedef enum hg_kind {
  K_CREATE, K_PAUSE, K_RESUME, K_SUSPEND, K_SNAPSHOT, K_FORK, K_DELETE, K_TEMPLATE
} hg_kind;

/* A lifecycle request (create, pause, …, template) while it is answered. */
typedef struct hg_lc {
  hg_kind kind;
  hg_sandbox_spec spec;  /* create; strings point into the call's body */
  uint64_t gen;          /* fork */
  char *tmpl_name, *tmpl_dir;
  char op[HG_ID_MAX];
  char id[HG_ID_MAX];    /* the sandbox; create: the new one */
  char token[65];        /* create, fork: the new sandbox's token */
  hg_opjob *job;         /* while waiting for the operation to end */
  int64_t deadline_ms;
  bool polling;          /* GET operation ?wait: poll instead of a job */
} hg_lc;

typedef struct hg_exec {
  hg_exec_req req;
  const char **argv;
  char **env;
  uint64_t cid;
  int pid;
  char out_token[HG_API_TOKEN_HEX + 1];
  uint32_t wait_ms;
  uint64_t stdin_off;     /* stdin route: data sent so far */
  bool eof;
  int sig;
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

typedef struct hg_file {
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
  atomic_bool aborted;      /* the client left; workers read it */
  int timer_state;          /* 0 none, 1 open, 2 closing */
  uv_timer_t timer;
  uv_work_t work;
  hg_call_fn work_fn, after_fn, cleanup;
  int rc;
  char msg[HG_API_MSG];
  char qsandbox[HG_ID_MAX]; /* ?sandbox= of the operation list */
  json_t *body;             /* parsed request JSON */
  json_t *out;              /* built by a worker */
  int wait_s;
  hg_call *prev, *next;     /* api->calls */
  union {
    hg_lc lc;
    hg_exec ex;
    hg_follow fo;
    hg_file fi;
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
  char token[HG_API_TOKEN_MAX + 1];
  char sandbox[HG_ID_MAX];
  uint64_t cid;
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
};

/* ---- handlers (defined below) ------------------------------------------- */

static void h_healthz(hg_call *c);
static void h_metrics(hg_call *c);
static void h_openapi(hg_call *c);
static void h_create(hg_call *c);
static void h_list(hg_call *c);
static void h_get(hg_call *c);
static void h_delete(hg_call *c);
static void h_pause(hg_call *c);
static void h_resume(hg_call *c);
static void h_suspend(hg_call *c);
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
  {"POST", SB "/resume", SCOPE_SANDBOX, h_resume, BODY_NONE, 0, 202, "wait", "Resume a paused or suspended sandbox"},
  {"POST", SB "/suspend", SCOPE_SANDBOX, h_suspend, BODY_NONE, 0, 202, "wait", "Suspend to a new generation"},
  {"POST", SB "/snapshot", SCOPE_SANDBOX, h_snapshot, BODY_NONE, 0, 202, "wait", "Disk-only snapshot"},
  {"POST", SB "/fork", SCOPE_SANDBOX, h_fork, BODY_JSON, 0, 202, "wait", "Fork a new sandbox from a generation"},
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
  {"GET", "/v1/operations", SCOPE_OPLIST, h_op_list, BODY_NONE, 0, 200, "sandbox", "List operations"},
  {"GET", "/v1/operations/{op}", SCOPE_OP, h_op_get, BODY_NONE, 0, 200, "wait", "Describe an operation"},
  {"GET", "/v1/templates", SCOPE_ADMIN, h_tmpl_list, BODY_NONE, 0, 200, "", "List templates"},
  {"POST", "/v1/templates", SCOPE_ADMIN, h_tmpl_create, BODY_JSON, 0, 202, "wait", "Register a template"},
};
#undef CMD
#undef SB

#define HG_NROUTES ((int)HG_ARRAY_SIZE(hg_routes))

/* ---- the error table ------------------------------------------------------
 * Every failure becomes a negative errno (or one of HG_API_E*) and is
 * answered through this table only. EPROTO is always the guest's: request
 * errors are EINVAL by the time they get here. */

typedef struct hg_api_error {
  int err;
  int status;
  const char *code;
  const char *text; /* default message */
} hg_api_error;

static const hg_api_error hg_errors[] = {
  {-EINVAL, 400, "bad_request", "invalid request"},
  {-ENAMETOOLONG, 400, "bad_request", "name too long"},
  {HG_API_EUNAUTH, 401, "unauthorized", "missing or invalid credentials"},
  {HG_API_EFORBID, 403, "forbidden", "these credentials do not grant this request"},
  {-EACCES, 403, "permission_denied", "permission denied in the guest"},
  {-EPERM, 403, "permission_denied", "operation not permitted in the guest"},
  {-ENOENT, 404, "not_found", "not found"},
  {HG_API_EMETHOD, 405, "method_not_allowed", "method not allowed"},
  {-EBUSY, 409, "conflict", "wrong state for this request"},
  {-EEXIST, 409, "conflict", "already exists"},
  {-ENOTEMPTY, 409, "conflict", "directory not empty"},
  {-ENOTDIR, 409, "conflict", "not a directory"},
  {-EISDIR, 409, "conflict", "is a directory"},
  {-EFBIG, 413, "too_large", "too large"},
  {-ENOBUFS, 413, "too_large", "too large"},
  {-E2BIG, 413, "too_large", "too large"},
  {-ENOSYS, 501, "not_implemented", "not implemented"},
  {-EOPNOTSUPP, 501, "not_implemented", "not supported"},
  {-EPROTO, 502, "guest_error", "the guest agent sent garbage"},
  {-ECONNRESET, 502, "guest_error", "the guest agent connection broke"},
  {-ECONNREFUSED, 502, "guest_error", "the guest agent is not reachable"},
  {-EPIPE, 502, "guest_error", "the guest agent connection broke"},
  {-EAGAIN, 503, "unavailable", "busy, retry later"},
  {-ECANCELED, 503, "unavailable", "cancelled: the node is shutting down"},
  {-ESHUTDOWN, 503, "unavailable", "the node is shutting down"},
  {-ETIMEDOUT, 504, "timeout", "the guest did not answer in time"},
  {-ENOSPC, 507, "insufficient_capacity", "not enough capacity on this node"},
};
static const hg_api_error hg_error_internal = {0, 500, "internal", "internal error"};

static const hg_api_error *err_lookup(int rc) {
  for (size_t i = 0; i < HG_ARRAY_SIZE(hg_errors); i++)
    if (hg_errors[i].err == rc) return &hg_errors[i];
  return &hg_error_internal;
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
  char buf[HG_ID_MAX + 8];
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
  return nlen == 3 && !memcmp(name, "cid", 3) && cid_parse(buf, &p->cid);
}

/* Shape match of a pattern against a path ({x} matches any non-empty
 * segment). With p, also captures and validates the ids into p. Returns 1
 * on a match, 0 on none, -1 when the shape matches but an id is invalid. */
static int pattern_match(const char *pat, const char *path, hg_params *p) {
  if (*pat != '/' || *path != '/') return 0;
  const char *a = pat + 1, *b = path + 1;
  bool bad = false;
  while (a && b) {
    size_t al, bl;
    const char *an = seg_next(a, &al), *bn = seg_next(b, &bl);
    if (al > 2 && a[0] == '{' && a[al - 1] == '}') {
      if (bl == 0) return 0;
      if (p && !param_set(p, a + 1, al - 2, b, bl)) bad = true;
    } else if (al != bl || memcmp(a, b, al) != 0) {
      return 0;
    }
    a = an;
    b = bn;
  }
  if (a || b) return 0;
  return bad ? -1 : 1;
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
    if (strcmp(r->method, method) != 0) {
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

static void call_free(hg_call *c) {
  hg_api *api = c->api;
  if (c->cleanup) c->cleanup(c);
  json_decref(c->body);
  json_decref(c->out);
  if (c->held) api->held--;
  if (c->prev) c->prev->next = c->next;
  else api->calls = c->next;
  if (c->next) c->next->prev = c->prev;
  free(c);
}

static void api_maybe_free(hg_api *api);

/* Frees c once it is answered, off the pool and its timer closed. */
static void call_maybe_free(hg_call *c) {
  if (!c->finished || c->busy || c->timer_state == 2) return;
  hg_api *api = c->api;
  if (c->timer_state == 1) {
    c->timer_state = 2;
    uv_close((uv_handle_t *)&c->timer, NULL);
    /* uv_close's callback is where a handle may be freed: re-enter there */
    c->timer.close_cb = NULL;
    return;
  }
  call_free(c);
  api_maybe_free(api);
}
