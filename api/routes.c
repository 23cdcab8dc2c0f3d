/* The routing table (one row per method + path; /metrics and the OpenAPI
 * document are made from it too) and the matcher that finds a row and
 * captures its ids. */
#include "api/api_internal.h"

/* ---- the routing table ---------------------------------------------------
 * One row per method + path. Order matters only for identical shapes (there
 * are none). /metrics counts requests by pattern, and the OpenAPI document
 * is generated from these rows, so a route cannot be served undocumented. */

#define SB "/v1/sandboxes/{id}"
#define CMD SB "/commands/{cid}"
const hg_route hg__api_routes[] = {
    {"GET", "/healthz", SCOPE_PUBLIC, hg__api_h_healthz, BODY_NONE, 0, 200, "",
     "Liveness of this node"},
    {"GET", "/metrics", SCOPE_PUBLIC, hg__api_h_metrics, BODY_NONE, 0, 200, "",
     "Prometheus metrics"},
    {"GET", "/v1/openapi.json", SCOPE_PUBLIC, hg__api_h_openapi, BODY_NONE, 0, 200, "",
     "This document"},
    {"POST", "/v1/sandboxes", SCOPE_ADMIN, hg__api_h_create, BODY_JSON, 0, 202, "wait",
     "Create a sandbox"},
    {"GET", "/v1/sandboxes", SCOPE_ADMIN, hg__api_h_list, BODY_NONE, 0, 200,
     "state,label", "List sandboxes"},
    {"GET", SB, SCOPE_SANDBOX, hg__api_h_get, BODY_NONE, 0, 200, "",
     "Describe a sandbox"},
    {"PATCH", SB, SCOPE_SANDBOX, hg__api_h_patch, BODY_JSON, 0, 200, "",
     "Change a sandbox's idle suspend ({\"idle_suspend_s\"}), counted from now"},
    {"DELETE", SB, SCOPE_SANDBOX, hg__api_h_delete, BODY_NONE, 0, 202, "wait",
     "Delete a sandbox"},
    {"POST", SB "/pause", SCOPE_SANDBOX, hg__api_h_pause, BODY_NONE, 0, 202, "wait",
     "Pause (memory stays on the node)"},
    {"POST", SB "/resume", SCOPE_SANDBOX, hg__api_h_resume, BODY_NONE, 0, 202,
     "wait,node",
     "Resume a paused or suspended sandbox (on ?node=, which must hold its newest "
     "generation)"},
    {"POST", SB "/suspend", SCOPE_SANDBOX, hg__api_h_suspend, BODY_NONE, 0, 202,
     "wait,durability",
     "Suspend to a new generation (replicated to the sandbox's holders, or "
     "?durability=local)"},
    {"POST", SB "/checkpoint", SCOPE_SANDBOX, hg__api_h_checkpoint, BODY_NONE, 0, 202, "wait",
     "Checkpoint a running sandbox: a new generation taken without stopping it, "
     "copied to its holders"},
    {"GET", SB "/replicas", SCOPE_SANDBOX, hg__api_h_replicas, BODY_NONE, 0, 200, "",
     "Every holder's generations of the sandbox"},
    {"POST", SB "/snapshot", SCOPE_SANDBOX, hg__api_h_snapshot, BODY_NONE, 0, 202, "wait",
     "Disk-only snapshot"},
    {"POST", SB "/fork", SCOPE_SANDBOX, hg__api_h_fork, BODY_JSON, 0, 202, "wait",
     "Fork a new sandbox from a generation (restored) or a disk snapshot (booted)"},
    {"POST", SB "/commands", SCOPE_SANDBOX, hg__api_h_exec, BODY_JSON, 0, 201, "wait",
     "Start a command"},
    {"GET", CMD, SCOPE_SANDBOX, hg__api_h_cmd_get, BODY_NONE, 0, 200, "",
     "Status of a command"},
    {"GET", CMD "/output", SCOPE_OUTPUT, hg__api_h_output, BODY_NONE, 0, 200,
     "stream,offset,follow,stdout_offset,stderr_offset,token", "Output of a command"},
    {"POST", CMD "/stdin", SCOPE_SANDBOX, hg__api_h_stdin, BODY_RAW, HG_API_MAX_STDIN,
     204, "eof", "Write to a command's stdin"},
    {"POST", CMD "/signal", SCOPE_SANDBOX, hg__api_h_signal, BODY_JSON, 0, 204, "",
     "Signal a command"},
    {"GET", SB "/files", SCOPE_SANDBOX, hg__api_h_file_get, BODY_NONE, 0, 200, "path",
     "Read a guest file"},
    {"PUT", SB "/files", SCOPE_SANDBOX, hg__api_h_file_put, BODY_RAW, HG_API_MAX_UPLOAD,
     204, "path,mode", "Write a guest file"},
    {"DELETE", SB "/files", SCOPE_SANDBOX, hg__api_h_file_delete, BODY_NONE, 0, 204,
     "path,recursive", "Remove a guest file or directory"},
    {"GET", SB "/files/list", SCOPE_SANDBOX, hg__api_h_file_list, BODY_NONE, 0, 200,
     "path", "List a guest directory"},
    {"GET", SB "/files/stat", SCOPE_SANDBOX, hg__api_h_file_stat, BODY_NONE, 0, 200,
     "path", "Stat a guest path"},
    {"POST", SB "/files/mkdir", SCOPE_SANDBOX, hg__api_h_file_mkdir, BODY_NONE, 0, 204,
     "path,parents", "Make a guest directory"},
    {"GET", SB "/network", SCOPE_SANDBOX, hg__api_h_net_get, BODY_NONE, 0, 200, "",
     "Egress policy (credential values redacted)"},
    {"PUT", SB "/network", SCOPE_SANDBOX, hg__api_h_net_put, BODY_JSON, 0, 200, "",
     "Replace the egress policy (applies live)"},
    {"GET", SB "/egress-log", SCOPE_SANDBOX, hg__api_h_egress_log, BODY_NONE, 0, 200, "",
     "The gateway's egress decisions, oldest first"},
    {"*", SB "/ports/{port}/{path*}", SCOPE_SANDBOX, hg__api_h_port, BODY_RAW,
     HG_API_MAX_UPLOAD, 200, "",
     "HTTP to a port in the sandbox (any method; the guest's status and body)"},
    {"GET", "/v1/operations", SCOPE_OPLIST, hg__api_h_op_list, BODY_NONE, 0, 200,
     "sandbox", "List operations"},
    {"GET", "/v1/operations/{op}", SCOPE_OP, hg__api_h_op_get, BODY_NONE, 0, 200, "wait",
     "Describe an operation"},
    {"GET", "/v1/templates", SCOPE_ADMIN, hg__api_h_tmpl_list, BODY_NONE, 0, 200, "",
     "List templates"},
    {"POST", "/v1/templates", SCOPE_ADMIN, hg__api_h_tmpl_create, BODY_JSON, 0, 202,
     "wait", "Register a template"},
    {"GET", "/v1/node", SCOPE_ADMIN, hg__api_h_node, BODY_NONE, 0, 200, "",
     "This node: id, version, and the accelerator its VMs run under, with why"},
    {"GET", "/v1/cluster/members", SCOPE_ADMIN, hg__api_h_members, BODY_NONE, 0, 200, "",
     "Members of the cluster"},
    {"DELETE", "/v1/cluster/members/{node}", SCOPE_ADMIN, hg__api_h_decommission,
     BODY_NONE, 0, 204, "",
     "Decommission a member (it must be dead or gone): it leaves the roster"},
    {"GET", "/v1/cluster/sandboxes", SCOPE_ADMIN, hg__api_h_directory, BODY_NONE, 0, 200,
     "", "The cluster's sandbox directory"},
    {"GET", "/v1/orphans", SCOPE_ADMIN, hg__api_h_orphans, BODY_NONE, 0, 200, "",
     "This node's orphans: copies of sandboxes fenced when another node took them at a "
     "higher epoch, kept until deleted"},
    {"DELETE", "/v1/orphans/{name*}", SCOPE_ADMIN, hg__api_h_orphan_delete, BODY_NONE, 0, 204,
     "", "Delete an orphan of this node (its subvolume and the generations in it)"},
    /* E2B's control API and envd (e2b.c, envd.c): E2B's SDK unmodified */
    {"POST", "/sandboxes", SCOPE_ADMIN, hg__api_h_e2b_create, BODY_JSON, 0, 201, "",
     "E2B: create a sandbox"},
    {"POST", "/v2/sandboxes", SCOPE_ADMIN, hg__api_h_e2b_create, BODY_JSON, 0, 201, "",
     "E2B: create a sandbox"},
    {"GET", "/v2/sandboxes", SCOPE_ADMIN, hg__api_h_e2b_list, BODY_NONE, 0, 200,
     "state,metadata,limit,nextToken", "E2B: list sandboxes (X-Next-Token pages)"},
    {"GET", "/sandboxes/{id}", SCOPE_SANDBOX, hg__api_h_e2b_get, BODY_NONE, 0, 200, "",
     "E2B: describe a sandbox"},
    {"DELETE", "/sandboxes/{id}", SCOPE_SANDBOX, hg__api_h_e2b_delete, BODY_NONE, 0, 204, "",
     "E2B: kill a sandbox"},
    {"POST", "/sandboxes/{id}/pause", SCOPE_SANDBOX, hg__api_h_e2b_pause, BODY_NONE, 0, 204,
     "", "E2B: pause (hangar's suspend)"},
    {"POST", "/sandboxes/{id}/timeout", SCOPE_SANDBOX, hg__api_h_e2b_timeout, BODY_JSON, 0,
     204, "", "E2B: set the timeout (hangar's idle suspend, counted from now)"},
    {"POST", "/sandboxes/{id}/connect", SCOPE_SANDBOX, hg__api_h_e2b_connect, BODY_NONE, 0,
     200, "", "E2B: connect (200 running, 201 resumed)"},
    {"POST", "/sandboxes/{id}/resume", SCOPE_SANDBOX, hg__api_h_e2b_connect, BODY_NONE, 0,
     200, "", "E2B: resume (200 running, 201 resumed)"},
    {"POST", "/v2/sandboxes/{id}/connect", SCOPE_SANDBOX, hg__api_h_e2b_connect, BODY_NONE,
     0, 200, "", "E2B: connect (200 running, 201 resumed)"},
    {"GET", "/health", SCOPE_PUBLIC, hg__api_h_envd_health, BODY_NONE, 0, 204, "",
     "envd: health"},
    {"POST", "/process.Process/Start", SCOPE_SANDBOX, hg__api_h_envd_start, BODY_RAW, 0, 200,
     "", "envd: start a command, its output as a Connect stream (E2b-Sandbox-Id)"},
    {"POST", "/process.Process/Connect", SCOPE_SANDBOX, hg__api_h_envd_connect, BODY_RAW, 0,
     200, "", "envd: a command Start started, its output from now on as a Connect stream"},
    {"POST", "/process.Process/List", SCOPE_SANDBOX, hg__api_h_envd_proc, BODY_JSON, 0, 200,
     "", "envd: the commands Start started that still run"},
    {"POST", "/process.Process/SendSignal", SCOPE_SANDBOX, hg__api_h_envd_proc, BODY_JSON, 0,
     200, "", "envd: signal a command (SIGNAL_SIGTERM, SIGNAL_SIGKILL)"},
    {"POST", "/process.Process/SendInput", SCOPE_SANDBOX, hg__api_h_envd_proc, BODY_JSON, 0,
     200, "", "envd: write to a command's stdin (Start with stdin: true)"},
    {"POST", "/process.Process/CloseStdin", SCOPE_SANDBOX, hg__api_h_envd_proc, BODY_JSON, 0,
     200, "", "envd: close a command's stdin"},
    {"GET", "/files", SCOPE_SANDBOX, hg__api_h_envd_file_get, BODY_NONE, 0, 200,
     "path,username", "envd: read a file (E2b-Sandbox-Id)"},
    {"POST", "/files", SCOPE_SANDBOX, hg__api_h_envd_file_post, BODY_RAW, HG_API_MAX_UPLOAD,
     200, "path,username,mode", "envd: write a file, application/octet-stream (E2b-Sandbox-Id)"},
    {"POST", "/filesystem.Filesystem/Stat", SCOPE_SANDBOX, hg__api_h_envd_fs, BODY_JSON, 0,
     200, "", "envd: stat a path (E2b-Sandbox-Id)"},
    {"POST", "/filesystem.Filesystem/ListDir", SCOPE_SANDBOX, hg__api_h_envd_fs, BODY_JSON, 0,
     200, "", "envd: list a directory, one level (E2b-Sandbox-Id)"},
    {"POST", "/filesystem.Filesystem/MakeDir", SCOPE_SANDBOX, hg__api_h_envd_fs, BODY_JSON, 0,
     200, "", "envd: make a directory and its parents (E2b-Sandbox-Id)"},
    {"POST", "/filesystem.Filesystem/Remove", SCOPE_SANDBOX, hg__api_h_envd_fs, BODY_JSON, 0,
     200, "", "envd: remove a path, recursively (E2b-Sandbox-Id)"},
    {"POST", "/filesystem.Filesystem/Move", SCOPE_SANDBOX, hg__api_h_envd_fs, BODY_JSON, 0,
     200, "", "envd: rename a path {source, destination} (E2b-Sandbox-Id)"},
};
#undef CMD
#undef SB

const int hg__api_nroutes = (int)HG_ARRAY_SIZE(hg__api_routes);

/* ---- matching -------------------------------------------------------------- */

/* Next segment of a path or pattern starting after a '/'. */
static const char *seg_next(const char *s, size_t *len) {
  const char *e = strchr(s, '/');
  *len = e ? (size_t)(e - s) : strlen(s);
  return e ? e + 1 : NULL;
}

/* "cmd-<decimal>" without leading zeros, up to UINT64_MAX. */
bool hg__api_cid_parse(const char *s, uint64_t *out) {
  if (strncmp(s, "cmd-", 4) != 0) return false;
  s += 4;
  if (s[0] == '0' && s[1]) return false;
  return hg_parse_uint_n(s, strlen(s), UINT64_MAX, out) == 0;
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
  return nlen == 3 && !memcmp(name, "cid", 3) && hg__api_cid_parse(buf, &p->cid);
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

int hg__api_pattern_match(const char *pat, const char *path, hg_params *p) {
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
bool hg__api_method_match(const char *route, const char *method) {
  return !strcmp(route, "*") || !strcmp(route, method);
}

/* 0: m->rt serves method+path; -ENOENT: no such path, or an invalid id in
 * it; HG_API_EMETHOD: the path exists for other methods (m->allow). */
int hg__api_route_find(const char *method, const char *path, hg_match *m) {
  memset(m, 0, sizeof *m);
  bool shape = false;
  for (int i = 0; i < HG_NROUTES; i++) {
    const hg_route *r = &hg__api_routes[i];
    if (!hg__api_pattern_match(r->pattern, path, NULL)) continue;
    shape = true;
    if (!hg__api_method_match(r->method, method)) {
      if (!strstr(m->allow, r->method)) {
        size_t n = strlen(m->allow);
        snprintf(m->allow + n, sizeof m->allow - n, "%s%s", n ? ", " : "", r->method);
      }
      continue;
    }
    if (hg__api_pattern_match(r->pattern, path, &m->p) < 0) return -ENOENT;
    m->rt = r;
    return 0;
  }
  return shape ? HG_API_EMETHOD : -ENOENT;
}

int hg__api_route_index(const hg_route *rt) {
  return rt ? (int)(rt - hg__api_routes) : HG_NROUTES;
}
