/* api: the v1 API of one node (docs/api.md): a request from the server
 * (hg_api_handler) through forwarding, auth and its route's handler, and
 * the life of the API itself (new, stop, free). */
#include "api/api_internal.h"

/* ---- dispatch ------------------------------------------------------------------- */

static void dispatch(hg_call *c) {
  if (c->rt->body == BODY_JSON) {
    int rc = hg__api_body_parse(c->req->body, c->req->body_len, &c->body, c->msg);
    if (rc < 0) {
      hg__api_call_error(c, rc, "%s", c->msg);
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
  if (!c->ok && api->rp && c->rt->scope == SCOPE_SANDBOX &&
      (c->rt->handle == hg__api_h_resume || c->rt->handle == hg__api_h_replicas)) {
    json_t *d = NULL;
    bool local = hg_sandbox_describe(api->m, c->authsb, &d) == 0;
    json_decref(d);
    if (!local) c->ok = hg_replicator_token_ok(api->rp, c->authsb, c->cred);
  }
}

/* The check said no: 403 for a token we know to be another's, else 401. */
static void auth_refuse(hg_call *c) {
  hg_api *api = c->api;
  const hg_tok *t = hg__api_tok_find(api, c->cred);
  if (t && !strcmp(t->sandbox, c->authsb)) { /* its sandbox is gone: forget it */
    hg__api_tok_unlink(api, (int)(t - api->toks));
    t = NULL;
  }
  hg__api_call_error(c, t ? HG_API_EFORBID : HG_API_EUNAUTH, NULL);
}

static void a_auth(hg_call *c) {
  hg_api *api = c->api;
  /* an operation unknown here: its node checks the token */
  if (!c->ok && c->rt->scope == SCOPE_OP && !c->out && hg__api_op_lookup_start(c)) return;
  if (c->ok) {
    hg__api_tok_put(api, TOK_SANDBOX, c->cred, c->authsb, 0, 0);
    dispatch(c);
    return;
  }
  auth_refuse(c);
}

/* ?sandbox= of the operation list, when it is a sandbox id. */
static void oplist_sandbox(const hg_http_req *req, hg_scope scope, char out[HG_ID_MAX]) {
  char sb[HG_ID_MAX + 8];
  if (scope == SCOPE_OPLIST && hg_http_query_get(req, "sandbox", sb, sizeof sb) == 0 &&
      hg_id_valid("sb", sb))
    memcpy(out, sb, strlen(sb) + 1);
}

static void auth_start(hg_call *c) {
  hg__api_cred_get(c);
  oplist_sandbox(c->req, c->rt->scope, c->qsandbox);
  int v =
      hg__api_auth_decide(c->api, c->rt->scope, &c->p, c->qsandbox, c->cred, &c->admin);
  if (v == AUTH_OK)
    dispatch(c);
  else if (v == AUTH_CHECK)
    hg__api_call_queue(c, w_auth, a_auth);
  else
    hg__api_call_error(c, v, NULL);
}

/* ---- before the body ------------------------------------------------------------
 * A request is refused at its head when its credentials decide it on the
 * loop thread (none, or known to be wrong), and a sandbox token is checked
 * on the pool before a byte of the body is read: a client that cannot
 * authenticate never makes the node hold more than a read buffer. A
 * request for a sandbox another node owns is forwarded with its body and
 * checked there (this node cannot check that sandbox's tokens); without
 * credentials it is refused here. */

/* Where the sandbox of m is served, as hg__api_route_remote decides,
 * without its side effects: 1 another node (forwarded), 0 here, < 0 not
 * at all (hg_api_peers.locate). */
static int head_where(hg_api *api, const hg_match *m) {
  if (!api->have_peers || !hg__api_route_names_sandbox(m->rt, &m->p)) return 0;
  char owner[HG_NODE_ID_MAX] = "", addr[HG_ADDR_MAX] = "";
  int where = api->peers.locate(api->peers.ud, m->p.id, owner, addr);
  if (where != 1) return where < 0 ? where : 0;
  owner[sizeof owner - 1] = '\0';
  return strcmp(owner, api->node_id) != 0;
}

/* Answers a held request now (rc: an error of the one table). */
static void head_refuse(hg_api *api, hg_http_req *req, const hg_match *m, int rc,
                        const char *msg) {
  hg_call *c = hg__api_call_new(api, req);
  if (!c) {
    static const char oom[] =
        "{\"error\":{\"code\":\"unavailable\",\"message\":\"out of memory\"}}";
    hg_http_respond(req, 503, "application/json", NULL, oom, sizeof oom - 1);
    return;
  }
  c->rt = m->rt;
  c->p = m->p;
  if (msg) hg__api_call_error(c, rc, "%s", msg);
  else hg__api_call_error(c, rc, NULL);
}

/* Does the head announce a body (a length other than 0, or chunked)? */
static bool head_has_body(const hg_http_req *req) {
  const char *cl = hg_http_header_get(req, "content-length");
  return hg_http_header_get(req, "transfer-encoding") || (cl && cl[strspn(cl, "0")]);
}

static size_t route_limit(const hg_route *rt) {
  return rt->body_limit ? rt->body_limit : HG_API_MAX_JSON;
}

/* Authenticated at its head: read the body (an upload to the guest in
 * pieces, so it is never held whole). */
static void head_body_go(hg_call *c) {
  size_t limit = route_limit(c->rt);
  int rc;
  bool multipart = hg__api_envd_multipart(c->req) &&
                   c->rt->handle == hg__api_h_envd_file_post; /* read whole */
  if (multipart) limit = HG_API_MAX_MULTIPART;
  if (hg__api_route_upload(c->rt) && !multipart) {
    if (hg__api_file_put_begin(c) < 0) return; /* answered: a bad query */
    rc = hg_http_body_stream(c->req, limit, HG_API_UPLOAD_PIECE);
  } else {
    rc = hg_http_body_read(c->req, limit);
  }
  if (rc == -EFBIG)
    hg__api_call_error(c, -EFBIG, "request body larger than %zu bytes", limit);
  else if (rc < 0)
    hg__api_call_respond(c, 499, NULL, NULL, NULL, 0); /* the client left */
}

void hg_api_on_body_piece(hg_http_req *req, const char *data, size_t len, void *ud) {
  hg__api_file_piece(req->data, data, len);
}

/* The token check came back: read the body, or refuse without reading it. */
static void a_head_auth(hg_call *c) {
  if (atomic_load(&c->aborted)) {
    hg__api_call_respond(c, 499, NULL, NULL, NULL, 0);
    return;
  }
  if (!c->ok) {
    auth_refuse(c);
    return;
  }
  hg__api_tok_put(c->api, TOK_SANDBOX, c->cred, c->authsb, 0, 0);
  c->authed = true;
  head_body_go(c);
}

/* The call a request decided at its head continues as (its route and
 * params known); NULL: out of memory, and the request already refused. */
static hg_call *head_call(hg_api *api, hg_http_req *req, const hg_match *m) {
  hg_call *c = hg__api_call_new(api, req);
  if (!c) {
    head_refuse(api, req, m, -ENOMEM, NULL);
    return NULL;
  }
  c->rt = m->rt;
  c->p = m->p;
  c->forwarded = hg_http_header_get(req, "x-hangar-forwarded") != NULL;
  return c;
}

/* ---- forwards from peers (fwdsign.h) ---------------------------------------------
 * A request carrying any forwarding header is a peer's or nobody's: its
 * signature is checked at its head (401 peer_signature_invalid otherwise,
 * before a byte of its body), its credential is the signed identity, and
 * its body is read whole (never streamed to a guest) so that its digest is
 * checked before anything acts on it: nothing is written anywhere for a
 * body that turns out not to be the one signed. */

static bool peer_headers(const hg_http_req *req) {
  return hg_http_header_get(req, "x-hangar-forwarded") ||
         hg_http_header_get(req, "x-hangar-identity") ||
         hg_http_header_get(req, "x-hangar-signature") ||
         hg_http_header_get(req, "x-hangar-body-sha256");
}

static const char *peer_refusal(int rc) {
  switch (rc) {
  case -ENOKEY: return "no X-Hangar-Signature, or this node has no cluster key";
  case -ESTALE: return "the signature's time is more than 30 s from this node's clock";
  case -EALREADY: return "the signature's nonce was seen before (a replay)";
  default: return "the signature does not verify under the cluster key";
  }
}

static size_t peer_head(hg_api *api, hg_http_req *req) {
  hg_match m;
  int found = hg__api_route_find(req->method, req->path, &m);
  if (found < 0) m.rt = NULL;
  hg_fwdsign_req r = {.method = req->method,
                      .target = req->target,
                      .node = hg_http_header_get(req, "x-hangar-forwarded"),
                      .identity = hg_http_header_get(req, "x-hangar-identity"),
                      .digest = hg_http_header_get(req, "x-hangar-body-sha256"),
                      .sig = hg_http_header_get(req, "x-hangar-signature")};
  int rc = hg_fwdsign_check(api->fwdsign, &r, hg_wall_ns() / 1000000);
  bool admin = false;
  char cred[HG_FWDSIGN_IDENT_MAX] = "";
  if (rc == 0 && r.identity && hg_fwdsign_identity(r.identity, &admin, cred, sizeof cred) < 0)
    rc = -EBADMSG;
  if (rc == -EBUSY || api->stopping) {
    head_refuse(api, req, &m, -EAGAIN,
                api->stopping ? "the node is shutting down"
                              : "too many forwarded requests in the replay window");
    return 0;
  }
  if (rc < 0) {
    hg_log_warn("api.peer_refused", "from=\"%.63s\" reason=\"%s\"",
                r.node ? r.node : "-", peer_refusal(rc));
    head_refuse(api, req, &m, HG_API_EPEERSIG, peer_refusal(rc));
    return 0;
  }
  hg_call *c = head_call(api, req, &m);
  if (!c) return 0;
  c->peer = true;
  c->peer_admin = admin;
  if (strlen(cred) <= HG_API_TOKEN_MAX) memcpy(c->cred, cred, strlen(cred) + 1);
  size_t limit = m.rt ? route_limit(m.rt) : HG_API_MAX_JSON;
  rc = hg_http_body_read(req, limit);
  if (rc == -EFBIG)
    hg__api_call_error(c, -EFBIG, "request body larger than %zu bytes", limit);
  else if (rc < 0)
    hg__api_call_respond(c, 499, NULL, NULL, NULL, 0);
  return 0;
}

size_t hg_api_on_head(hg_http_req *req, void *ud) {
  hg_api *api = ud;
  hg_match m;
  if (peer_headers(req)) return peer_head(api, req);
  if (hg__api_route_find(req->method, req->path, &m) < 0 || m.rt->scope == SCOPE_PUBLIC)
    return hg_api_body_limit(req->method, req->path, api); /* the handler answers */
  hg__api_envd_params(req, &m);
  if (api->stopping) {
    head_refuse(api, req, &m, -EAGAIN, "the node is shutting down");
    return 0;
  }
  char cred[HG_API_TOKEN_MAX + 1], qsb[HG_ID_MAX] = "";
  bool admin;
  hg__api_cred_parse(req, m.rt, &m.p, cred);
  oplist_sandbox(req, m.rt->scope, qsb);
  int v = hg__api_auth_decide(api, m.rt->scope, &m.p, qsb, cred, &admin);
  if (v < 0) {
    head_refuse(api, req, &m, v, NULL);
    return 0;
  }
  size_t limit = route_limit(m.rt);
  /* A sandbox token is checked on the pool before any body (always on the
   * large routes): nobody gets a body read on a token that then fails.
   * Resume and replicas are left to the handler, which may ask the
   * replicator or send them on; so is a sandbox another node owns. */
  bool upload = hg__api_route_upload(m.rt);
  bool routed = m.rt->handle != hg__api_h_resume && m.rt->handle != hg__api_h_replicas;
  int where = routed ? head_where(api, &m) : 0;
  if (where < 0) {
    head_refuse(api, req, &m, where, hg__api_where_msg(where));
    return 0;
  }
  bool first = v == AUTH_CHECK && m.rt->scope == SCOPE_SANDBOX && routed &&
               (limit > HG_API_MAX_JSON || head_has_body(req)) && where == 0;
  if (v == AUTH_OK && upload && where == 0) { /* the admin key: stream it */
    hg_call *c = head_call(api, req, &m);
    if (!c) return 0;
    c->admin = c->authed = true;
    head_body_go(c);
    return 0;
  }
  if (!first) return limit;
  hg_call *c = head_call(api, req, &m);
  if (!c) return 0;
  memcpy(c->cred, cred, sizeof c->cred);
  hg__api_call_queue(c, w_auth, a_head_auth);
  return 0;
}

/* A request with its route not decided yet: route, forward, or auth. */
static void handle_fresh(hg_call *c) {
  hg_api *api = c->api;
  hg_http_req *req = c->req;
  hg_match m;
  int rc = hg__api_route_find(req->method, req->path, &m);
  if (rc == 0) hg__api_envd_params(req, &m);
  c->rt = m.rt;
  c->p = m.p;
  if (api->stopping) {
    hg__api_call_error(c, -EAGAIN, "the node is shutting down");
  } else if (rc == HG_API_EMETHOD) {
    snprintf(c->msg, sizeof c->msg, "%s",
             m.allow); /* hg__api_call_error's Allow header */
    hg__api_call_error(c, rc, "%.16s %.200s: allowed: %s", req->method, req->path,
                       m.allow);
  } else if (rc < 0) {
    hg__api_call_error(c, -ENOENT, "no such resource: %.200s", req->path);
  } else {
    c->forwarded = hg_http_header_get(req, "x-hangar-forwarded") != NULL;
    if (!hg__api_route_remote(c)) auth_start(c);
  }
}

/* A signed forward's body is complete: is it the one signed? */
static void peer_body(hg_call *c) {
  hg_http_req *req = c->req;
  if (req->body_offset != 0 ||
      hg_fwdsign_check_body(hg_http_header_get(req, "x-hangar-body-sha256"), req->body,
                            req->body_len) < 0) {
    hg_fwdsign_count_bad_body(c->api->fwdsign);
    hg_log_warn("api.peer_refused", "from=\"%.63s\" reason=\"body digest\"",
                hg_http_header_get(req, "x-hangar-forwarded"));
    hg__api_call_error(c, HG_API_EPEERSIG, "the body is not the one the signature covers");
    return;
  }
  handle_fresh(c);
}

void hg_api_handler(hg_http_server *srv, hg_http_req *req, void *ud) {
  hg_api *api = ud;
  if (req->data) { /* decided at its head (hg_api_on_head) */
    hg_call *a = req->data;
    if (api->stopping) hg__api_call_error(a, -EAGAIN, "the node is shutting down");
    else if (a->peer) peer_body(a);
    else dispatch(a);
    return;
  }
  hg_call *c = hg__api_call_new(api, req);
  if (!c) {
    static const char oom[] =
        "{\"error\":{\"code\":\"unavailable\",\"message\":\"out of memory\"}}";
    hg_http_respond(req, 503, "application/json", NULL, oom, sizeof oom - 1);
    return;
  }
  if (peer_headers(req)) { /* never checked at its head: on_head is not installed */
    hg_match m;
    c->rt = hg__api_route_find(req->method, req->path, &m) == 0 ? m.rt : NULL;
    hg__api_call_error(c, HG_API_EPEERSIG, "the signature was not checked");
    return;
  }
  handle_fresh(c);
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
  if (c->cleanup == hg__api_lc_cleanup && c->u.lc.job) {
    c->u.lc.job->waiter = NULL;
    c->u.lc.job = NULL;
  }
  hg__api_call_respond(c, 499, NULL, NULL, NULL, 0); /* 499: client closed (nginx's) */
}

size_t hg_api_body_limit(const char *method, const char *path, void *ud) {
  for (int i = 0; i < HG_NROUTES; i++) {
    const hg_route *r = &hg__api_routes[i];
    if (hg__api_method_match(r->method, method) &&
        hg__api_pattern_match(r->pattern, path, NULL))
      return r->body_limit ? r->body_limit : HG_API_MAX_JSON;
  }
  return HG_API_MAX_JSON;
}

void hg_api_http_options(hg_api *api, hg_http_options *opt) {
  opt->handler = hg_api_handler;
  opt->on_abort = hg_api_on_abort;
  opt->body_limit = hg_api_body_limit;
  opt->on_head = hg_api_on_head;
  opt->on_body_piece = hg_api_on_body_piece;
  opt->ud = api;
  opt->max_body = HG_API_MAX_JSON;
}

/* ---- life of the API ------------------------------------------------------------- */

static void api_release(hg_api *api) {
  hg__envd_procs_free(&api->envd);
  free(api->toks);
  free(api->buckets);
  free(api->counts);
  hg_fwdsign_free(api->fwdsign);
  free(api->admin_key);
  free(api->node_id);
  free(api->version);
  free(api->accel);
  free(api->accel_reason);
  free(api->openapi);
  free(api);
}

void hg__api_maybe_free(hg_api *api) {
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

static bool work_valid(const hg_api_config *cfg) {
  const hg_api_work *w = cfg->work;
  return w && w->create_begin && w->create_finish && w->pause && w->resume && w->resumable &&
         w->suspend && w->checkpoint && w->snapshot && w->fork && w->remove && (!cfg->replicator || cfg->peers);
}

static bool peers_valid(const hg_api_config *cfg) {
  const hg_api_peers *p = cfg->peers;
  if (!p) return true;
  /* node ids go into X-Hangar-Forwarded and are compared with owners */
  return p->locate && p->place && p->members && p->directory && p->decommission &&
         hg_node_id_valid(cfg->node_id) && cfg->cluster_keys && /* forwards are signed */
         (!cfg->peer_ca || strlen(cfg->peer_ca) < 4096);
}

static void on_forward_closed(void *ud) {
  hg_api *api = ud;
  api->inflight--;
  hg__api_maybe_free(api);
}

int hg_api_new(uv_loop_t *loop, const hg_api_config *cfg, hg_api **out) {
  if (!loop || !cfg || !cfg->manager || !cfg->ops || !cfg->admin_key || !*cfg->admin_key ||
      strlen(cfg->admin_key) > HG_API_TOKEN_MAX || !peers_valid(cfg) || !work_valid(cfg))
    return -EINVAL;
  hg_api *api = calloc(1, sizeof *api);
  if (!api) return -ENOMEM;
  api->loop = loop;
  api->m = cfg->manager;
  api->ops = cfg->ops;
  api->work = *cfg->work;
  api->rp = cfg->replicator;
  api->gw = cfg->gateway;
  api->admin_key = strdup(cfg->admin_key);
  api->node_id = strdup(cfg->node_id ? cfg->node_id : "");
  api->version = strdup(cfg->version ? cfg->version : "dev");
  api->accel = strdup(cfg->accel ? cfg->accel : "tcg");
  api->accel_reason = strdup(cfg->accel_reason ? cfg->accel_reason : "");
  api->toks = calloc(HG_API_TOKENS, sizeof *api->toks);
  api->buckets = malloc(HG_API_TOKEN_BUCKETS * sizeof *api->buckets);
  api->counts = calloc((size_t)(HG_NROUTES + 1) * HG_API_STATUS_SLOTS, sizeof *api->counts);
  json_t *doc = hg__api_openapi_doc(api->version);
  api->openapi = doc ? json_dumps(doc, JSON_COMPACT) : NULL;
  json_decref(doc);
  int rc = hg_random_bytes(&api->tok_seed, sizeof api->tok_seed);
  if (rc == 0) rc = hg__envd_procs_init(&api->envd, HG_ENVD_PROCS, HG_ENVD_PROC_BYTES);
  if (!api->admin_key || !api->node_id || !api->version || !api->accel ||
      !api->accel_reason || !api->toks || !api->buckets ||
      !api->counts || !api->openapi || rc < 0) {
    api_release(api);
    return rc < 0 ? rc : -ENOMEM;
  }
  if (cfg->cluster_keys &&
      (rc = hg_fwdsign_new(cfg->cluster_keys, cfg->cluster_name, 0, 0, &api->fwdsign)) < 0) {
    api_release(api);
    return rc;
  }
  if (cfg->peers) {
    api->peers = *cfg->peers;
    api->have_peers = true;
    if ((rc = hg_forward_new(loop, api->node_id, api->fwdsign, &api->fwd)) < 0 ||
        (cfg->peer_tls && (rc = hg_forward_tls(api->fwd, cfg->peer_ca)) < 0)) {
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
    hg__api_job_cancel(api, j);
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
    if (c->streaming)
      hg__api_call_respond(c, 200, NULL, NULL, NULL, 0);
    else if (c->cleanup == hg__api_lc_cleanup && c->u.lc.job)
      hg__api_on_lc_deadline(&c->timer);
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
    if (c->cleanup == hg__api_lc_cleanup && c->u.lc.job) {
      c->u.lc.job->waiter = NULL;
      c->u.lc.job = NULL;
    }
    hg__api_call_error(c, -EAGAIN, "the node is shutting down");
  }
  if (api->fwd) { /* its forwards ended in hg_api_stop; now its connections */
    hg_forward *f = api->fwd;
    api->fwd = NULL;
    api->inflight++;
    hg_forward_close(f, on_forward_closed, api);
  }
  api->inflight--;
  hg__api_maybe_free(api);
}
