/* The E2B-compatible control API (docs/api.md, "E2B"): E2B's paths and
 * shapes on hangar's own handlers. Each handler rewrites the request into
 * hangar's form and lets the hangar handler do the work; an xform turns
 * the answer that handler makes into E2B's shape. Nothing here acts on a
 * sandbox itself. */
#include "api/api_internal.h"

#define E2B_ENVD_VERSION "0.5.7" /* what the SDK gates on: octet-stream uploads */
#define E2B_LIST_LIMIT 100

/* ---- errors: {"code": <status>, "message"} --------------------------------------- */

static const char *hangar_message(const json_t *b) {
  const char *m = json_string_value(json_object_get(json_object_get(b, "error"), "message"));
  return m ? m : "error";
}

static void xform_error(hg_call *c, int *status, json_t **obj, char *hdrs, size_t cap) {
  if (*status < 400) return;
  json_t *e = json_pack("{s:i,s:s}", "code", *status, "message", hangar_message(*obj));
  json_decref(*obj);
  *obj = e;
}

/* ---- the sandbox as E2B describes it --------------------------------------------- */

static const char *e2b_state(const char *hangar) {
  if (!hangar) return "running";
  if (!strcmp(hangar, "paused") || !strcmp(hangar, "suspended") ||
      !strcmp(hangar, "suspending") || !strcmp(hangar, "resuming"))
    return "paused";
  return "running";
}

static json_t *str_or(const json_t *o, const char *k, const char *dflt) {
  const char *s = json_string_value(json_object_get(o, k));
  return json_string(s ? s : dflt);
}

static json_t *sandbox_info(const hg_call *c, const json_t *d) {
  json_t *meta = json_object_get(d, "metadata");
  json_t *o = json_object();
  json_object_set_new(o, "sandboxID", str_or(d, "id", ""));
  json_object_set_new(o, "templateID", str_or(d, "template", "base"));
  json_object_set_new(o, "alias", str_or(d, "template", "base"));
  json_object_set_new(o, "clientID", json_string(c->api->node_id));
  json_object_set_new(o, "metadata", json_is_object(meta) ? json_deep_copy(meta) : json_object());
  json_object_set_new(o, "startedAt", str_or(d, "created_at", "1970-01-01T00:00:00Z"));
  /* hangar has no kill deadline, only the idle suspend (setTimeout's
   * target): its time when running with one, else the start time */
  const char *end = json_string_value(json_object_get(d, "idle_suspend_at"));
  json_object_set_new(o, "endAt", end ? json_string(end) : str_or(d, "created_at", "1970-01-01T00:00:00Z"));
  json_object_set_new(o, "state",
                      json_string(e2b_state(json_string_value(json_object_get(d, "state")))));
  json_object_set_new(o, "cpuCount", json_integer(json_integer_value(json_object_get(d, "vcpus"))));
  json_object_set_new(o, "memoryMB",
                      json_integer(json_integer_value(json_object_get(d, "memory_mib"))));
  json_object_set_new(o, "envdVersion", json_string(E2B_ENVD_VERSION));
  json_object_set_new(o, "domain", json_null());
  return o;
}

/* ---- create ------------------------------------------------------------------------ */

/* 201 describe+token (or 202 {id, token, operation}) -> E2B's Sandbox. */
static void xform_create(hg_call *c, int *status, json_t **obj, char *hdrs, size_t cap) {
  if (*status >= 400) {
    xform_error(c, status, obj, hdrs, cap);
    return;
  }
  json_t *d = *obj;
  json_t *o = json_object();
  json_object_set_new(o, "sandboxID", str_or(d, "id", ""));
  json_object_set_new(o, "templateID", str_or(d, "template", "base"));
  json_object_set_new(o, "clientID", json_string(c->api->node_id));
  json_object_set_new(o, "envdVersion", json_string(E2B_ENVD_VERSION));
  json_object_set_new(o, "envdAccessToken",
                      hg__api_envd_token(json_string_value(json_object_get(d, "id")),
                                         json_string_value(json_object_get(d, "token"))));
  json_object_set_new(o, "domain", json_null());
  json_object_set_new(o, "trafficAccessToken", json_null());
  json_decref(d);
  *obj = o;
  *status = 201;
  hdrs[0] = '\0'; /* no Location: E2B has no operations */
}

/* E2B's create body -> hangar's (docs/api.md maps the fields). */
int hg__api_e2b_create_body(const json_t *b, json_t **out, char *msg) {
  json_t *h = json_object();
  const char *tid = NULL;
  int64_t timeout = 0;
  int rc;
  if (!h) return -ENOMEM;
  json_t *ap = hg__api_field(b, "autoPause");
  if (ap && !json_is_boolean(ap)) {
    json_decref(h);
    return hg__api_bad(msg, "field \"autoPause\": must be a boolean");
  }
  if ((rc = hg__api_get_str(b, "templateID", 128, &tid, msg)) < 0 ||
      (rc = hg__api_get_int(b, "timeout", 0, HG_SB_IDLE_MAX_S, &timeout, msg)) < 0) {
    json_decref(h);
    return rc;
  }
  if (tid && strcmp(tid, "base") != 0) json_object_set_new(h, "template", json_string(tid));
  if (timeout > 0) json_object_set_new(h, "idle_suspend_s", json_integer(timeout));
  /* E2B kills a sandbox when its timeout runs out, unless autoPause */
  json_object_set_new(h, "idle_action", json_string(json_is_true(ap) ? "suspend" : "delete"));
  json_t *env = hg__api_field(b, "envVars"), *meta = hg__api_field(b, "metadata");
  if (env) json_object_set(h, "env", env);
  if (meta) json_object_set(h, "metadata", meta);
  *out = h;
  return 0;
}

void hg__api_h_e2b_create(hg_call *c) {
  json_t *h = NULL;
  c->e2b = true;
  c->xform = xform_create;
  int rc = hg__api_e2b_create_body(c->body, &h, c->msg);
  if (rc < 0) {
    hg__api_call_error(c, rc, "%s", c->msg);
    return;
  }
  json_decref(c->body);
  c->body = h;
  hg__api_h_create(c);
}

/* ---- info, kill, pause --------------------------------------------------------------- */

static void xform_info(hg_call *c, int *status, json_t **obj, char *hdrs, size_t cap) {
  if (*status >= 400) {
    xform_error(c, status, obj, hdrs, cap);
    return;
  }
  json_t *o = sandbox_info(c, *obj);
  json_decref(*obj);
  *obj = o;
}

void hg__api_h_e2b_get(hg_call *c) {
  c->e2b = true;
  c->xform = xform_info;
  hg__api_h_get(c);
}

/* An empty success: 204. */
static void xform_empty(hg_call *c, int *status, json_t **obj, char *hdrs, size_t cap) {
  if (*status >= 400) {
    xform_error(c, status, obj, hdrs, cap);
    return;
  }
  json_decref(*obj);
  *obj = NULL;
  *status = 204;
  hdrs[0] = '\0';
}

void hg__api_h_e2b_delete(hg_call *c) {
  c->e2b = true;
  c->xform = xform_empty;
  hg__api_h_delete(c);
}

/* Pause is hangar's suspend (a generation on disk, resumable anywhere);
 * E2B says 409 for a sandbox paused already. */
static void w_state(hg_call *c) { c->rc = hg_sandbox_describe(c->api->m, c->p.id, &c->out); }

static void a_pause(hg_call *c) {
  const char *st = json_string_value(json_object_get(c->out, "state"));
  bool paused = c->rc == 0 && st && !strcmp(e2b_state(st), "paused");
  json_decref(c->out);
  c->out = NULL;
  c->rc = 0;
  if (paused) {
    hg__api_call_json(c, 409, json_pack("{s:{s:s}}", "error", "message",
                                        "the sandbox is paused already"), NULL);
    return;
  }
  hg__api_h_suspend(c);
}

void hg__api_h_e2b_pause(hg_call *c) {
  c->e2b = true;
  c->xform = xform_empty;
  hg__api_call_inline(c, w_state, a_pause);
}

/* setTimeout: "timeout" seconds from now, as at create: hangar's idle
 * suspend, counted from now. */
void hg__api_h_e2b_timeout(hg_call *c) {
  c->e2b = true;
  c->xform = xform_empty;
  int64_t t = 0;
  int rc = hg__api_get_int(c->body, "timeout", 1, HG_SB_IDLE_MAX_S, &t, c->msg);
  if (rc == 0 && !t) rc = hg__api_bad(c->msg, "field \"timeout\": required (seconds)");
  if (rc < 0) {
    hg__api_call_error(c, rc, "%s", c->msg);
    return;
  }
  c->u.idle_suspend_s = t;
  hg__api_set_idle(c);
}

/* ---- connect, resume ---------------------------------------------------------------
 * Running: 200 at once. Paused or suspended: hangar's resume, then 201.
 * The answer carries the sandbox's token as envdAccessToken, as create did:
 * the caller holds the admin key or that token already, and the SDK's envd
 * calls have no other credential. The sandbox is here (connect goes to its
 * owner), so the manager knows it, after a restart or a move too. */

static json_t *connect_body(hg_call *c, const json_t *d) {
  hg_sb_info info;
  const char *tok = hg_sandbox_info(c->api->m, c->p.id, &info) == 0 ? info.token : NULL;
  json_t *o = json_object();
  json_object_set_new(o, "sandboxID", json_string(c->p.id));
  json_object_set_new(o, "templateID", str_or(d, "template", "base"));
  json_object_set_new(o, "clientID", json_string(c->api->node_id));
  json_object_set_new(o, "envdVersion", json_string(E2B_ENVD_VERSION));
  json_object_set_new(o, "envdAccessToken", hg__api_envd_token(c->p.id, tok));
  json_object_set_new(o, "domain", json_null());
  json_object_set_new(o, "trafficAccessToken", json_null());
  return o;
}

static void xform_resumed(hg_call *c, int *status, json_t **obj, char *hdrs, size_t cap) {
  if (*status >= 400) {
    xform_error(c, status, obj, hdrs, cap);
    return;
  }
  json_decref(*obj);
  *obj = connect_body(c, NULL);
  *status = *status == 202 ? 202 : 201;
  hdrs[0] = '\0';
}


static void a_connect(hg_call *c) {
  const char *st = json_string_value(json_object_get(c->out, "state"));
  if (c->rc == 0 && st && (!strcmp(st, "running") || !strcmp(st, "creating"))) {
    json_t *o = connect_body(c, c->out);
    hg__api_call_json(c, 200, o, NULL);
    return;
  }
  json_decref(c->out);
  c->out = NULL;
  c->rc = 0;
  /* paused, suspended, or only a replica here: hangar's resume says which */
  c->xform = xform_resumed;
  hg__api_h_resume(c);
}

void hg__api_h_e2b_connect(hg_call *c) {
  c->e2b = true;
  c->xform = xform_error;
  hg__api_call_inline(c, w_state, a_connect);
}

/* ---- list -------------------------------------------------------------------------- */

/* ?metadata=k=v&k2=v2 (URL-encoded once more by the SDK): does meta hold all? */
static bool meta_match(const json_t *meta, const char *q) {
  char buf[512];
  snprintf(buf, sizeof buf, "%s", q);
  char *save = NULL;
  for (char *kv = strtok_r(buf, "&", &save); kv; kv = strtok_r(NULL, "&", &save)) {
    char *eq = strchr(kv, '=');
    if (!eq) return false;
    *eq = '\0';
    const char *v = json_string_value(json_object_get(meta, kv));
    if (!v || strcmp(v, eq + 1) != 0) return false;
  }
  return true;
}

static int cmp_id(const void *a, const void *b) {
  const json_t *x = *(json_t *const *)a, *y = *(json_t *const *)b;
  return strcmp(json_string_value(json_object_get(x, "sandboxID")),
                json_string_value(json_object_get(y, "sandboxID")));
}

/* Filters, sorts by id (a stable order for paging), and pages: the next
 * token is the index of the next entry. */
int hg__api_e2b_list_page(const json_t *arr, const char *states, const char *meta,
                          uint64_t limit, uint64_t start, json_t **page, uint64_t *next) {
  size_t n = json_array_size(arr), k = 0;
  json_t **v = calloc(n + 1, sizeof *v);
  if (!v) return -ENOMEM;
  for (size_t i = 0; i < n; i++) {
    json_t *s = json_array_get(arr, i);
    const char *st = json_string_value(json_object_get(s, "state"));
    if (states[0] && (!st || !strstr(states, st))) continue;
    if (meta[0] && !meta_match(json_object_get(s, "metadata"), meta)) continue;
    v[k++] = s;
  }
  qsort(v, k, sizeof *v, cmp_id);
  *page = json_array();
  for (size_t i = start; i < k && i < start + limit; i++) json_array_append(*page, v[i]);
  *next = start + limit < k ? start + limit : 0;
  free(v);
  return *page ? 0 : -ENOMEM;
}

static void a_list(hg_call *c) {
  json_t *v = c->out;
  json_t *arr = json_is_array(v) ? v : json_object_get(v, "sandboxes");
  json_t *all = json_array(), *page = NULL, *sb;
  size_t i;
  json_array_foreach(arr, i, sb) json_array_append_new(all, sandbox_info(c, sb));
  char states[64] = "", meta[512] = "", tok[32] = "";
  uint64_t limit = E2B_LIST_LIMIT, start = 0, next = 0;
  int rc = hg__api_q_opt(c, "state", states, sizeof states);
  if (rc == 0) rc = hg__api_q_opt(c, "metadata", meta, sizeof meta);
  if (rc == 0) rc = hg__api_q_u64(c, "limit", 100000, &limit);
  if (rc == 0) rc = hg__api_q_opt(c, "nextToken", tok, sizeof tok);
  if (rc == 0 && tok[0] && hg_parse_uint_n(tok, strlen(tok), UINT32_MAX, &start) < 0)
    rc = hg__api_bad(c->msg, "query parameter \"nextToken\": not a token of ours");
  if (rc == 0) rc = hg__api_e2b_list_page(all, states, meta, limit ? limit : 1, start, &page, &next);
  json_decref(all);
  if (rc < 0) {
    hg__api_call_error(c, rc, "%s", c->msg);
    return;
  }
  char h[64] = "";
  if (next) snprintf(h, sizeof h, "X-Next-Token: %" PRIu64 "\r\n", next);
  hg__api_call_json(c, 200, page, h[0] ? h : NULL);
}

void hg__api_h_e2b_list(hg_call *c) {
  c->e2b = true;
  c->xform = xform_error;
  memset(&c->u.lq, 0, sizeof c->u.lq);
  hg__api_call_inline(c, hg__api_w_list, a_list);
}

/* ---- which routes are E2B's ----------------------------------------------------------- */

bool hg__api_route_e2b(const hg_route *rt) {
  hg_call_fn h = rt ? rt->handle : NULL;
  return h == hg__api_h_e2b_create || h == hg__api_h_e2b_get || h == hg__api_h_e2b_list ||
         h == hg__api_h_e2b_delete || h == hg__api_h_e2b_pause || h == hg__api_h_e2b_connect ||
         h == hg__api_h_e2b_timeout;
}

hg_xform_fn hg__api_e2b_xform_of(const hg_route *rt) {
  return hg__api_route_e2b(rt) ? xform_error : hg__api_envd_xform_of(rt);
}
