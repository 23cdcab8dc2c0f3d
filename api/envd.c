/* envd, E2B's in-sandbox daemon, answered by the node (docs/api.md, "E2B"):
 * the sandbox is named by the E2b-Sandbox-Id header; each call becomes
 * hangar's own (commands.c, files.c) on that sandbox. */
#include "api/api_internal.h"

/* ---- errors: Connect's {"code": "<name>", "message"} ------------------------------- */

static const char *connect_code(int status) {
  switch (status) {
  case 400: return "invalid_argument";
  case 401: return "unauthenticated";
  case 403: return "permission_denied";
  case 404: return "not_found";
  case 409: return "already_exists"; /* EEXIST: MakeDir's "exists" */
  case 413: return "resource_exhausted";
  case 429: return "resource_exhausted";
  case 501: return "unimplemented";
  case 503: return "unavailable";
  case 504: return "deadline_exceeded";
  default: return "internal";
  }
}

static void xform_envd_error(hg_call *c, int *status, json_t **obj, char *hdrs, size_t cap) {
  if (*status < 400) return;
  const char *m =
      json_string_value(json_object_get(json_object_get(*obj, "error"), "message"));
  json_t *e = json_pack("{s:s,s:s}", "code", connect_code(*status), "message", m ? m : "error");
  json_decref(*obj);
  *obj = e;
}

/* Streams (Start, Connect): Connect's client reads any status but 200 as
 * the HTTP status's code (404 would be "unimplemented"), so an error before
 * the stream is a 200 whose one end-of-stream envelope carries it
 * (c->envelope: hg__api_call_json frames it). */
static void xform_stream_error(hg_call *c, int *status, json_t **obj, char *hdrs,
                               size_t cap) {
  if (*status < 400) return;
  xform_envd_error(c, status, obj, hdrs, cap);
  *obj = json_pack("{s:o}", "error", *obj);
  *status = 200;
  c->envelope = true;
}

static bool route_stream(hg_call_fn h) {
  return h == hg__api_h_envd_start || h == hg__api_h_envd_connect;
}

/* ---- routing by header ------------------------------------------------------------- */

bool hg__api_route_envd(const hg_route *rt) {
  hg_call_fn h = rt ? rt->handle : NULL;
  return route_stream(h) || h == hg__api_h_envd_file_get || h == hg__api_h_envd_proc ||
         h == hg__api_h_envd_file_post || h == hg__api_h_envd_fs;
}

bool hg__api_route_upload(const hg_route *rt) {
  return rt && (rt->handle == hg__api_h_file_put || rt->handle == hg__api_h_envd_file_post);
}

/* E2B's envdAccessToken is "<sandbox id>.<the sandbox's token>": SDKs
 * before 2.15 send envd's REST calls (/files, /health) with it alone, no
 * E2b-Sandbox-Id, so the token names its sandbox and any node can route it
 * without shared state. Naming grants nothing: only the secret after the
 * dot is a credential, and it is checked against the named sandbox's own
 * token (hg_sandbox_token_ok, constant time) by whoever holds the sandbox.
 * 0, id and *secret (inside tok); -EINVAL: not of that form. */
int hg__api_envd_token_split(const char *tok, char id[HG_ID_MAX], const char **secret) {
  const char *dot = tok ? strchr(tok, '.') : NULL;
  if (!dot || (size_t)(dot - tok) >= HG_ID_MAX || !dot[1]) return -EINVAL;
  char tmp[HG_ID_MAX];
  memcpy(tmp, tok, (size_t)(dot - tok));
  tmp[dot - tok] = '\0';
  if (!hg_id_valid("sb", tmp)) return -EINVAL;
  memcpy(id, tmp, sizeof tmp);
  *secret = dot + 1;
  return 0;
}

/* The envdAccessToken E2B's clients get for a sandbox (NULL: no token). */
json_t *hg__api_envd_token(const char *id, const char *secret) {
  if (!id || !secret || !*secret) return json_null();
  return json_sprintf("%s.%s", id, secret);
}

/* The sandbox: E2b-Sandbox-Id, else the one X-Access-Token names. */
void hg__api_envd_params(const hg_http_req *req, hg_match *m) {
  if (!m->rt || !hg__api_route_envd(m->rt)) return;
  const char *id = hg_http_header_get(req, "e2b-sandbox-id");
  const char *secret;
  char named[HG_ID_MAX];
  if (id && strlen(id) < sizeof m->p.id && hg_id_valid("sb", id))
    memcpy(m->p.id, id, strlen(id) + 1);
  else if (!id &&
           hg__api_envd_token_split(hg_http_header_get(req, "x-access-token"), named,
                                    &secret) == 0)
    memcpy(m->p.id, named, sizeof named);
}

hg_xform_fn hg__api_envd_xform_of(const hg_route *rt) {
  if (!hg__api_route_envd(rt)) return NULL;
  return route_stream(rt->handle) ? xform_stream_error : xform_envd_error;
}

/* ---- GET /health ------------------------------------------------------------------- */

void hg__api_h_envd_health(hg_call *c) {
  hg__api_call_respond(c, 204, NULL, NULL, NULL, 0);
}

/* ---- process.Process/Start ----------------------------------------------------------- */

/* One Connect envelope of {"process": {"cmd", "args", "envs", "cwd"},
 * "stdin", "tag"} -> hangar's command body; with config, also what List
 * shows of it (JSON, the caller frees), with tag its tag ("" if none). */
int hg__api_envd_start_body(const char *body, size_t len, json_t **out, char **config,
                            char *tag, char *msg) {
  json_t *req = NULL;
  int rc = hg__api_envd_envelope(body, len, &req, msg);
  if (rc < 0) return rc;
  json_t *p = json_object_get(req, "process");
  const char *cmd = json_string_value(json_object_get(p, "cmd"));
  json_t *args = json_object_get(p, "args"), *envs = json_object_get(p, "envs");
  json_t *cwd = json_object_get(p, "cwd"), *jtag = json_object_get(req, "tag");
  if (!cmd) {
    json_decref(req);
    return hg__api_bad(msg, "field \"process.cmd\": required");
  }
  if (jtag && !json_is_null(jtag) &&
      (!json_is_string(jtag) || json_string_length(jtag) >= HG_ENVD_TAG_MAX)) {
    json_decref(req);
    return hg__api_bad(msg, "field \"tag\": a string of at most %d bytes",
                       HG_ENVD_TAG_MAX - 1);
  }
  json_t *argv = json_array(), *h = json_object(), *v;
  size_t i;
  if (!strcmp(cmd, "/bin/bash")) {
    /* the SDK's `/bin/bash -l -c X`: templates of the minimal profile have
     * no bash, and there it runs under /bin/sh */
    json_array_append_new(argv, json_string("/bin/sh"));
    json_array_append_new(argv, json_string("-c"));
    json_array_append_new(
        argv, json_string("if [ -x /bin/bash ]; then exec /bin/bash \"$@\"; fi; "
                          "while [ \"$1\" = -l ]; do shift; done; exec /bin/sh \"$@\""));
    json_array_append_new(argv, json_string("sh"));
  } else {
    json_array_append_new(argv, json_string(cmd));
  }
  json_array_foreach(args, i, v) json_array_append(argv, v);
  json_object_set_new(h, "cmd", argv);
  if (json_is_object(envs) && json_object_size(envs)) json_object_set(h, "env", envs);
  if (json_is_string(cwd) && json_string_length(cwd)) json_object_set(h, "cwd", cwd);
  /* E2B's stdin: false closes it at the start; true keeps it for SendInput */
  if (json_is_true(json_object_get(req, "stdin")))
    json_object_set_new(h, "stdin_open", json_true());
  if (config) {
    json_t *cf = json_pack("{s:s,s:o,s:o}", "cmd", cmd, "args",
                           json_is_array(args) ? json_incref(args) : json_array(), "envs",
                           json_is_object(envs) ? json_incref(envs) : json_object());
    if (cf && json_is_string(cwd) && json_string_length(cwd)) json_object_set(cf, "cwd", cwd);
    *config = cf ? json_dumps(cf, JSON_COMPACT) : NULL;
    json_decref(cf);
    if (!*config) {
      json_decref(h);
      json_decref(req);
      return -ENOMEM;
    }
  }
  if (tag) snprintf(tag, HG_ENVD_TAG_MAX, "%s", json_is_string(jtag) ? json_string_value(jtag) : "");
  json_decref(req);
  *out = h;
  return 0;
}

void hg__api_h_envd_start(hg_call *c) {
  c->xform = xform_stream_error;
  json_t *h = NULL;
  char *config = NULL, tag[HG_ENVD_TAG_MAX];
  int rc = hg__api_envd_start_body(c->req->body, c->req->body_len, &h, &config, tag, c->msg);
  if (rc < 0) {
    hg__api_call_error(c, rc, "%s", c->msg);
    return;
  }
  json_decref(c->body);
  c->body = h;
  hg__api_exec_connect(c, config, tag);
}

/* ---- files ----------------------------------------------------------------------------- */

void hg__api_h_envd_file_get(hg_call *c) {
  c->xform = xform_envd_error;
  hg__api_h_file_get(c);
}

/* 204 from hangar's upload -> [{"name", "type": "file", "path"}]. */
static void xform_upload(hg_call *c, int *status, json_t **obj, char *hdrs, size_t cap) {
  if (*status >= 400) {
    xform_envd_error(c, status, obj, hdrs, cap);
    return;
  }
  const char *path = c->u.fi.path, *slash = strrchr(path, '/');
  json_decref(*obj);
  *obj = json_pack("[{s:s,s:s,s:s}]", "name", slash ? slash + 1 : path, "type", "file",
                   "path", path);
  *status = 200;
}

bool hg__api_envd_multipart(const hg_http_req *req) {
  const char *ct = hg_http_header_get(req, "content-type");
  return ct && !strncasecmp(ct, "multipart/form-data", 19);
}

/* The next part named "file" of a multipart/form-data body from *off on:
 * its bytes (into data) and its filename (into name, "" if none or longer
 * than cap - 1); *off moves past it. -ENOENT: no more. */
int hg__api_multipart_next(const char *ctype, const char *body, size_t len, size_t *off,
                           const char **data, size_t *dlen, char *name, size_t cap) {
  const char *b = ctype ? strcasestr(ctype, "boundary=") : NULL;
  if (!b) return -EINVAL;
  b += 9;
  char delim[80];
  size_t bl = strcspn(b, "; \t");
  if (bl && b[0] == '"' && bl > 2 && b[bl - 1] == '"') b++, bl -= 2;
  if (bl == 0 || bl > 70) return -EINVAL;
  int dn = snprintf(delim, sizeof delim, "--%.*s", (int)bl, b);
  if (*off > len) return -EINVAL;
  const char *end = body + len, *p = body + *off;
  for (;;) {
    p = memmem(p, (size_t)(end - p), delim, (size_t)dn);
    if (!p) return -EINVAL;
    p += dn;
    if (end - p < 2 || !memcmp(p, "--", 2)) return -ENOENT; /* the closing one */
    const char *hend = memmem(p, (size_t)(end - p), "\r\n\r\n", 4);
    if (!hend) return -EINVAL;
    size_t hl = (size_t)(hend - p);
    char head[2048];
    if (hl >= sizeof head) return -EINVAL;
    memcpy(head, p, hl);
    head[hl] = '\0';
    const char *q = hend + 4;
    char tail[84];
    int tn = snprintf(tail, sizeof tail, "\r\n%s", delim);
    const char *dend = memmem(q, (size_t)(end - q), tail, (size_t)tn);
    if (!dend) return -EINVAL;
    if (!strstr(head, "name=\"file\"")) {
      p = dend;
      continue;
    }
    const char *fn = strstr(head, "filename=\"");
    name[0] = '\0';
    if (fn) {
      fn += 10;
      size_t n = strcspn(fn, "\"");
      if (n < cap) {
        memcpy(name, fn, n);
        name[n] = '\0';
      }
    }
    *data = q;
    *dlen = (size_t)(dend - q);
    *off = (size_t)(dend - body);
    return 0;
  }
}

/* The first part named "file". */
int hg__api_multipart_file(const char *ctype, const char *body, size_t len,
                           const char **data, size_t *dlen, char *name, size_t cap) {
  size_t off = 0;
  return hg__api_multipart_next(ctype, body, len, &off, data, dlen, name, cap);
}

/* ---- several files: multipart without ?path, each part's filename its path ----------
 */

#define ENVD_MAX_PARTS 256

/* Every part named "file" has an absolute filename of at most
 * HG_API_MAX_PATH bytes, and there are 1 to ENVD_MAX_PARTS of them. */
int hg__api_envd_parts_check(const char *ctype, const char *body, size_t len, char *msg) {
  size_t off = 0, n = 0, dl;
  const char *d;
  char name[HG_API_MAX_PATH + 2];
  int rc;
  while ((rc = hg__api_multipart_next(ctype, body, len, &off, &d, &dl, name,
                                      sizeof name)) == 0) {
    if (++n > ENVD_MAX_PARTS)
      return hg__api_bad(msg, "more than %d files", ENVD_MAX_PARTS);
    if (!name[0])
      return hg__api_bad(msg, "file %zu: filename (its path) required, at most %d bytes",
                         n, HG_API_MAX_PATH);
    if ((rc = hg__api_path_check("filename", name, msg)) < 0) return rc;
  }
  if (rc != -ENOENT) return hg__api_bad(msg, "multipart body: malformed");
  if (n == 0) return hg__api_bad(msg, "multipart body: no part named \"file\"");
  return 0;
}

/* Writes each part (checked above) in order; c->out is envd's answer,
 * [{"name", "type": "file", "path"}, ...]. Stops at the first failure. */
static int op_write_parts(hg_call *c, hg_agent *a) {
  const char *ct = hg_http_header_get(c->req, "content-type");
  json_t *arr = json_array();
  size_t off = 0, dl;
  const char *d;
  int rc;
  while (arr && hg__api_multipart_next(ct, c->req->body, c->req->body_len, &off, &d, &dl,
                                       c->u.fi.path, sizeof c->u.fi.path) == 0) {
    if ((rc = hg__api_file_write_at(c, a, c->u.fi.path, d, dl, 0, c->u.fi.mode)) < 0) {
      json_decref(arr);
      return rc;
    }
    const char *slash = strrchr(c->u.fi.path, '/');
    json_array_append_new(arr, json_pack("{s:s,s:s,s:s}", "name", slash + 1, "type",
                                         "file", "path", c->u.fi.path));
  }
  if (!arr) return -ENOMEM;
  c->out = arr;
  return 0;
}

static void w_parts(hg_call *c) {
  c->rc = hg__api_with_agent(c, op_write_parts);
}

static void a_parts(hg_call *c) {
  if (c->rc < 0) {
    hg__api_call_fail(c, c->rc, c->u.fi.path);
    return;
  }
  json_t *o = c->out;
  c->out = NULL;
  hg__api_call_json(c, 200, o, NULL);
}

static void envd_write_parts(hg_call *c) {
  c->xform = xform_envd_error; /* a_parts answers envd's array */
  c->u.fi.mode = 0644;
  int rc = hg__api_envd_parts_check(hg_http_header_get(c->req, "content-type"),
                                    c->req->body, c->req->body_len, c->msg);
  if (rc < 0) {
    hg__api_call_error(c, rc, "%s", c->msg);
    return;
  }
  hg__api_call_queue(c, w_parts, a_parts);
}

/* Streamed by api.c as hangar's PUT …/files is (application/octet-stream),
 * or read whole (multipart: the SDK's default). */
int hg__api_envd_upload_check(hg_call *c) {
  c->xform = xform_upload;
  return 0;
}

void hg__api_h_envd_file_post(hg_call *c) {
  hg_file *f = &c->u.fi;
  c->xform = xform_upload;
  char q[HG_API_MAX_PATH + 2];
  if (hg__api_envd_multipart(c->req) &&
      hg__api_q_get(c, "path", q, sizeof q) == -ENOENT) {
    envd_write_parts(c); /* files.write([{path, data}, ...]) */
    return;
  }
  if (hg__api_envd_multipart(c->req)) {
    char name[HG_API_MAX_PATH + 2];
    int rc = hg__api_multipart_file(hg_http_header_get(c->req, "content-type"),
                                    c->req->body, c->req->body_len, &f->part,
                                    &f->part_len, name, sizeof name);
    if (rc < 0) {
      hg__api_call_error(c, -EINVAL, "multipart body: %s",
                         rc == -ENOENT ? "no part named \"file\"" : "malformed");
      return;
    }
    f->whole = true;
  }
  hg__api_h_file_put(c);
}

/* ---- filesystem.Filesystem/Stat|ListDir|MakeDir|Remove (Connect unary) ---------------- */

static const char *rpc_method(const hg_call *c) {
  const char *m = strrchr(c->req->path, '/');
  return m ? m + 1 : "";
}

/* hangar's stat {type, size, mode, mtime} -> envd's EntryInfo. */
json_t *hg__api_envd_entry(const json_t *st, const char *path) {
  const char *t = json_string_value(json_object_get(st, "type"));
  const char *slash = strrchr(path, '/');
  char at[32], perm[16];
  hg_iso_time(json_integer_value(json_object_get(st, "mtime")) * 1000, at);
  unsigned mode = (unsigned)json_integer_value(json_object_get(st, "mode"));
  snprintf(perm, sizeof perm, "%c%c%c%c%c%c%c%c%c%c", t && !strcmp(t, "dir") ? 'd' : '-',
           mode & 0400 ? 'r' : '-', mode & 0200 ? 'w' : '-', mode & 0100 ? 'x' : '-',
           mode & 040 ? 'r' : '-', mode & 020 ? 'w' : '-', mode & 010 ? 'x' : '-',
           mode & 04 ? 'r' : '-', mode & 02 ? 'w' : '-', mode & 01 ? 'x' : '-');
  const char *type = !t ? "FILE_TYPE_UNSPECIFIED"
                     : !strcmp(t, "file") ? "FILE_TYPE_FILE"
                     : !strcmp(t, "dir") ? "FILE_TYPE_DIRECTORY"
                     : !strcmp(t, "symlink") ? "FILE_TYPE_SYMLINK" : "FILE_TYPE_UNSPECIFIED";
  return json_pack("{s:s,s:s,s:s,s:I,s:i,s:s,s:s,s:s,s:s}", "name",
                   slash && slash[1] ? slash + 1 : path, "type", type, "path", path, "size",
                   json_integer_value(json_object_get(st, "size")), "mode", (int)mode,
                   "permissions", perm, "owner", "", "group", "", "modifiedTime", at);
}

static void xform_fs(hg_call *c, int *status, json_t **obj, char *hdrs, size_t cap) {
  if (*status >= 400) {
    xform_envd_error(c, status, obj, hdrs, cap);
    return;
  }
  const char *m = rpc_method(c), *path = c->u.fi.path;
  json_t *o = NULL;
  if (!strcmp(m, "Stat") || !strcmp(m, "Move")) {
    o = json_pack("{s:o}", "entry", hg__api_envd_entry(*obj, path));
  } else if (!strcmp(m, "ListDir")) {
    json_t *arr = json_array(), *e;
    size_t i;
    json_array_foreach(json_object_get(*obj, "entries"), i, e) {
      char p[HG_API_MAX_PATH + 300];
      const char *name = json_string_value(json_object_get(e, "name"));
      snprintf(p, sizeof p, "%s%s%s", path, path[strlen(path) - 1] == '/' ? "" : "/",
               name ? name : "");
      json_array_append_new(arr, hg__api_envd_entry(e, p));
    }
    o = json_pack("{s:o}", "entries", arr);
  } else if (!strcmp(m, "MakeDir")) {
    json_t *st = json_pack("{s:s,s:i,s:i,s:i}", "type", "dir", "size", 0, "mode", 0755,
                           "mtime", (int)(hg_wall_ns() / 1000000000));
    o = json_pack("{s:o}", "entry", hg__api_envd_entry(st, path));
    json_decref(st);
  } else {
    o = json_object();
  }
  json_decref(*obj);
  *obj = o;
  *status = 200;
}

void hg__api_h_envd_fs(hg_call *c) {
  c->xform = xform_fs;
  const char *m = rpc_method(c);
  const char *op = !strcmp(m, "Stat") ? "stat" : !strcmp(m, "ListDir") ? "list"
                   : !strcmp(m, "MakeDir") ? "mkdir" : !strcmp(m, "Remove") ? "remove"
                   : !strcmp(m, "Move") ? "rename" : NULL;
  if (!op) {
    hg__api_call_error(c, -ENOTSUP, "%s: not supported yet", m);
    return;
  }
  bool mv = !strcmp(op, "rename"); /* Move: {source, destination} */
  const char *path = json_string_value(json_object_get(c->body, mv ? "source" : "path"));
  const char *dest = mv ? json_string_value(json_object_get(c->body, "destination")) : NULL;
  /* MakeDir makes the parents; Remove removes a directory with what is in it */
  hg__api_file_op(c, op, path, dest, !strcmp(op, "mkdir") || !strcmp(op, "remove"));
}

/* ---- process.Process/Connect|List|SendSignal|SendInput|CloseStdin -----------------
 * The pid names a command Start started on this node (api->envd); each
 * call is hangar's own operation on that command. */

static void proc_cleanup(hg_call *c) {
  hg_buf_free(&c->u.ex.out[1]);
  hg_buf_free(&c->u.ex.out[2]);
  hg_buf_free(&c->u.ex.in_buf);
}

static int not_found(hg_call *c, uint32_t pid, const char *tag) {
  if (pid) snprintf(c->msg, sizeof c->msg, "process with pid %" PRIu32 " not found", pid);
  else snprintf(c->msg, sizeof c->msg, "process with tag %s not found", tag ? tag : "");
  return -ENOENT;
}

/* The command req's selector names: c->p.cid, c->u.ex.pid. */
static int proc_lookup(hg_call *c, const json_t *req) {
  char tag[HG_ENVD_TAG_MAX];
  uint32_t pid;
  int rc = hg__api_envd_selector(req, &pid, tag, c->msg);
  if (rc < 0) return rc;
  const hg_envd_proc *e = hg__envd_procs_find(&c->api->envd, c->p.id, pid, tag);
  if (!e) return not_found(c, pid, tag);
  c->p.cid = e->cid;
  c->u.ex.pid = (int)e->pid;
  return 0;
}

/* The command ended (the agent says ESRCH): E2B forgets its pid then. */
static void proc_forget(hg_call *c) {
  hg_envd_proc *e =
      hg__envd_procs_find(&c->api->envd, c->p.id, (uint32_t)c->u.ex.pid, NULL);
  if (e && e->cid == c->p.cid) hg__envd_procs_drop(&c->api->envd, c->p.id, e->pid);
}

static void proc_fail(hg_call *c) {
  if (c->rc == -ESRCH) {
    proc_forget(c);
    hg__api_call_error(c, not_found(c, (uint32_t)c->u.ex.pid, NULL), "%s", c->msg);
  } else if (c->rc == -EPIPE) {
    hg__api_call_error(c, -EPIPE, "process with pid %d: its stdin is closed (started "
                       "without stdin: true, or closed already)", c->u.ex.pid);
  } else {
    hg__api_call_fail(c, c->rc, c->p.id);
  }
}

static void a_proc_empty(hg_call *c) {
  if (c->rc < 0) {
    proc_fail(c);
    return;
  }
  hg__api_call_json(c, 200, json_object(), NULL);
}

/* Connect: the status now and where both streams end; the stream follows
 * from there (E2B's Connect: the output from now on, then the end). */
static int op_connect_begin(hg_call *c, hg_agent *a) {
  hg_exec *x = &c->u.ex;
  int rc = hg_agent_wait(a, c->p.cid, 0, &x->st);
  if (rc < 0) return rc;
  if (x->st.exited) return -ESRCH;
  for (int s = HG_STREAM_STDOUT; s <= HG_STREAM_STDERR; s++) {
    hg_read_res res = {0};
    if ((rc = hg_agent_read(a, c->p.cid, s, 0, 1, 0, &x->out[s], &res)) < 0) return rc;
    x->total[s] = res.total;
  }
  return 0;
}

static void w_connect(hg_call *c) {
  c->rc = hg__api_with_agent(c, op_connect_begin);
}

static void a_connect(hg_call *c) {
  hg_exec *x = &c->u.ex;
  if (c->rc < 0) {
    proc_fail(c);
    return;
  }
  hg__api_connect_stream(c, (uint32_t)x->pid, x->total[1], x->total[2]);
}

void hg__api_h_envd_connect(hg_call *c) {
  c->xform = xform_stream_error;
  c->cleanup = proc_cleanup;
  hg_buf_init(&c->u.ex.out[1], 16);
  hg_buf_init(&c->u.ex.out[2], 16);
  json_t *req = NULL;
  int rc = hg__api_envd_envelope(c->req->body, c->req->body_len, &req, c->msg);
  if (rc == 0) rc = proc_lookup(c, req);
  json_decref(req);
  if (rc < 0) {
    hg__api_call_error(c, rc, "%s", c->msg);
    return;
  }
  hg__api_call_queue(c, w_connect, a_connect);
}

/* List: the table's commands of this sandbox (in c->out), each asked
 * whether it still runs; those that ended are forgotten. */
static int op_list(hg_call *c, hg_agent *a) {
  json_t *e;
  size_t i;
  json_array_foreach(c->out, i, e) {
    hg_cmd_status st = {0};
    uint64_t cid = (uint64_t)json_integer_value(json_object_get(e, "cid"));
    int rc = hg_agent_wait(a, cid, 0, &st);
    /* an error but "no such command" leaves it listed: it may well run */
    json_object_set_new(e, "gone", json_boolean((rc == 0 && st.exited) || rc == -ENOENT));
  }
  return 0;
}

static void w_list(hg_call *c) {
  c->rc = hg__api_with_agent(c, op_list);
}

static void a_list(hg_call *c) {
  if (c->rc < 0) {
    proc_fail(c);
    return;
  }
  json_t *procs = json_array(), *e;
  size_t i;
  json_array_foreach(c->out, i, e) {
    uint32_t pid = (uint32_t)json_integer_value(json_object_get(e, "pid"));
    const char *tag = json_string_value(json_object_get(e, "tag"));
    if (json_is_true(json_object_get(e, "gone"))) {
      c->p.cid = (uint64_t)json_integer_value(json_object_get(e, "cid"));
      c->u.ex.pid = (int)pid;
      proc_forget(c);
      continue;
    }
    json_t *cf = json_loads(json_string_value(json_object_get(e, "config")), 0, NULL);
    json_t *p = json_pack("{s:o,s:I}", "config", cf ? cf : json_object(), "pid",
                          (json_int_t)pid);
    if (p && tag && *tag) json_object_set_new(p, "tag", json_string(tag));
    json_array_append_new(procs, p);
  }
  hg__api_call_json(c, 200, json_pack("{s:o}", "processes", procs), NULL);
}

static void envd_list(hg_call *c) {
  hg_envd_procs *t = &c->api->envd;
  json_decref(c->out);
  c->out = json_array();
  for (int i = 0; i < t->cap && c->out; i++) {
    const hg_envd_proc *e = &t->v[i];
    if (!e->seq || strcmp(e->sandbox, c->p.id)) continue;
    json_array_append_new(c->out,
                          json_pack("{s:I,s:I,s:s,s:s}", "pid", (json_int_t)e->pid, "cid",
                                    (json_int_t)e->cid, "tag", e->tag, "config", e->config));
  }
  if (!c->out) {
    hg__api_call_error(c, -ENOMEM, NULL);
    return;
  }
  hg__api_call_queue(c, w_list, a_list);
}

void hg__api_h_envd_proc(hg_call *c) {
  c->xform = xform_envd_error;
  c->cleanup = proc_cleanup;
  const char *m = rpc_method(c);
  if (!strcmp(m, "List")) {
    envd_list(c);
    return;
  }
  hg_exec *x = &c->u.ex;
  bool sig = !strcmp(m, "SendSignal");
  int rc = sig ? hg__api_envd_signal(c->body, &x->sig, c->msg) : 0;
  if (rc == 0) rc = proc_lookup(c, c->body);
  if (rc == 0 && sig) {
    hg__api_signal_send(c, a_proc_empty);
    return;
  } else if (rc == 0 && (!strcmp(m, "SendInput") || !strcmp(m, "CloseStdin"))) {
    hg_buf_init(&x->in_buf, HG_API_MAX_JSON);
    x->eof = !strcmp(m, "CloseStdin");
    if (x->eof || (rc = hg__api_envd_input(c->body, &x->in_buf, c->msg)) == 0) {
      x->in = x->in_buf.data;
      x->in_len = x->in_buf.len;
      hg__api_stdin_send_live(c, a_proc_empty);
      return;
    }
  } else if (rc == 0) {
    rc = -ENOTSUP;
    snprintf(c->msg, sizeof c->msg, "process.Process/%s: not supported", m);
  }
  hg__api_call_error(c, rc, "%s", c->msg);
}
