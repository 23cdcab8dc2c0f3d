/* GET /v1/openapi.json, generated from the routing table. */
#include "api/api_internal.h"

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
  {"metadata", "string", "E2B: only sandboxes whose metadata has every k=v of k=v&k2=v2"},
  {"limit", "integer", "E2B: at most this many (default 100)"},
  {"nextToken", "string", "E2B: the X-Next-Token of the previous page"},
  {"username", "string", "envd: the guest user (ignored: commands run as the agent's)"},
};

static const hg_param_doc hg_path_docs[] = {
  {"id", "string", "Sandbox id, sb-<16 hex>"},
  {"node", "string", "Node id: 1-63 of [a-z0-9-] (n-<hex> when generated)"},
  {"cid", "string", "Command id, cmd-<n>"},
  {"op", "string", "Operation id, op-<16 hex>"},
  {"port", "integer", "TCP port in the sandbox, 1-65535"},
  {"path", "string", "The rest of the path (any number of segments), sent on to the guest "
                     "with the query string"},
  {"name", "string", "An orphan's name as GET /v1/orphans lists it: <sandbox id>/<epoch> "
                     "or <sandbox id>/<epoch>.<n>, the slash unescaped"},
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
    json_object_set_new(json_object_get(o, "responses"),
                        r->handle == hg__api_h_create ? "201" : "200",
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
const char *const hg__api_any_methods[HG_API_ANY_METHODS] = {
    "get", "head", "post", "put", "patch", "delete", "options"};

/* One route's operations into its path item; -EINVAL when undocumented. */
static int route_docs(const hg_route *r, json_t *item) {
  char m[8];
  size_t k = 0;
  for (; r->method[k] && k < sizeof m - 1; k++) m[k] = (char)(r->method[k] | 0x20);
  m[k] = '\0';
  bool any = !strcmp(r->method, "*");
  size_t n = any ? HG_ARRAY_SIZE(hg__api_any_methods) : 1;
  for (size_t i = 0; i < n; i++) {
    const char *method = any ? hg__api_any_methods[i] : m;
    json_t *op = route_doc(r, method);
    if (!op) return -EINVAL;
    json_object_set_new(item, method, op);
  }
  return 0;
}

json_t *hg__api_openapi_doc(const char *version) {
  json_t *paths = json_object();
  for (int i = 0; i < HG_NROUTES; i++) {
    const hg_route *r = &hg__api_routes[i];
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

void hg__api_h_openapi(hg_call *c) {
  hg__api_call_respond(c, 200, "application/json", NULL, c->api->openapi,
                       c->api->openapi_len);
}
