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
  case 409: return "failed_precondition";
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

/* ---- routing by header ------------------------------------------------------------- */

bool hg__api_route_envd(const hg_route *rt) {
  hg_call_fn h = rt->handle;
  return h == hg__api_h_envd_start || h == hg__api_h_envd_file_get ||
         h == hg__api_h_envd_file_post;
}

bool hg__api_route_upload(const hg_route *rt) {
  return rt && (rt->handle == hg__api_h_file_put || rt->handle == hg__api_h_envd_file_post);
}

void hg__api_envd_params(const hg_http_req *req, hg_match *m) {
  if (!m->rt || !hg__api_route_envd(m->rt)) return;
  const char *id = hg_http_header_get(req, "e2b-sandbox-id");
  if (id && strlen(id) < sizeof m->p.id && hg_id_valid("sb", id))
    memcpy(m->p.id, id, strlen(id) + 1);
}

hg_xform_fn hg__api_envd_xform_of(const hg_route *rt) {
  return hg__api_route_envd(rt) ? xform_envd_error : NULL;
}

/* ---- GET /health ------------------------------------------------------------------- */

void hg__api_h_envd_health(hg_call *c) {
  hg__api_call_respond(c, 204, NULL, NULL, NULL, 0);
}

/* ---- process.Process/Start ----------------------------------------------------------- */

/* One Connect envelope (u8 flags, u32 big-endian length, JSON) of
 * {"process": {"cmd", "args", "envs", "cwd"}} -> hangar's command body. */
int hg__api_envd_start_body(const char *body, size_t len, json_t **out, char *msg) {
  const unsigned char *b = (const unsigned char *)body;
  if (len < 5) return hg__api_bad(msg, "not a Connect envelope");
  if (b[0] & 0x01) return hg__api_bad(msg, "compressed envelopes are not supported");
  uint32_t n = (uint32_t)b[1] << 24 | (uint32_t)b[2] << 16 | (uint32_t)b[3] << 8 | b[4];
  if (n != len - 5) return hg__api_bad(msg, "envelope length %u, body has %zu", n, len - 5);
  json_t *req = NULL;
  int rc = hg__api_body_parse(body + 5, n, &req, msg);
  if (rc < 0) return rc;
  json_t *p = json_object_get(req, "process");
  const char *cmd = json_string_value(json_object_get(p, "cmd"));
  json_t *args = json_object_get(p, "args"), *envs = json_object_get(p, "envs");
  json_t *cwd = json_object_get(p, "cwd");
  if (!cmd) {
    json_decref(req);
    return hg__api_bad(msg, "field \"process.cmd\": required");
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
  json_decref(req);
  *out = h;
  return 0;
}

void hg__api_h_envd_start(hg_call *c) {
  c->xform = xform_envd_error;
  json_t *h = NULL;
  int rc = hg__api_envd_start_body(c->req->body, c->req->body_len, &h, c->msg);
  if (rc < 0) {
    hg__api_call_error(c, rc, "%s", c->msg);
    return;
  }
  json_decref(c->body);
  c->body = h;
  hg__api_exec_connect(c);
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

/* Streamed by api.c as hangar's PUT …/files is: octet-stream only (a
 * multipart body would be written as it is, so it is refused). */
int hg__api_envd_upload_check(hg_call *c) {
  c->xform = xform_upload;
  const char *ct = hg_http_header_get(c->req, "content-type");
  if (ct && !strncasecmp(ct, "multipart/", 10)) {
    hg__api_call_error(c, -ENOTSUP,
                       "multipart uploads are not supported yet: use envd >= 0.5.7's "
                       "application/octet-stream");
    return -ENOTSUP;
  }
  return 0;
}

void hg__api_h_envd_file_post(hg_call *c) {
  if (hg__api_envd_upload_check(c) < 0) return;
  hg__api_h_file_put(c);
}
