/* The life of one call: errors as statuses (one table), answers, the
 * timer, and the thread pool its blocking parts run on. */
#include "api/api_internal.h"

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
  {HG_API_EPEERSIG, {"peer_signature_invalid", 401},
   "forwarding headers without a valid signature of a cluster member"},
  {-ECONNREFUSED, {"port_closed", 502}, "nothing listens on that port in the sandbox"},
  {HG_API_EOUTPUT_LOST, {"output_lost", 502},
   "the command started, but the sandbox stopped running here before its output was read"},
  {-EXDEV, {"incompatible_accelerator", 409},
   "the sandbox was saved under another accelerator (kvm, tcg) than this node runs"},
};

hg_err_class hg__api_err_class(int rc) {
  for (size_t i = 0; i < HG_ARRAY_SIZE(hg_api_errors); i++)
    if (hg_api_errors[i].err == rc) return hg_api_errors[i].cls;
  return hg_err_classify(rc);
}

const char *hg__api_err_text(int rc) {
  for (size_t i = 0; i < HG_ARRAY_SIZE(hg_api_errors); i++)
    if (hg_api_errors[i].err == rc) return hg_api_errors[i].text;
  return hg_err_str(rc);
}

/* ---- calls: life of one request -------------------------------------------- */

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
    hg__api_maybe_free(api);
  }
}

/* Frees c once it is answered, off the pool, and its timer closed. */
void hg__api_call_maybe_free(hg_call *c) {
  if (!c->finished || c->busy) return;
  if (c->timer_state == TIMER_OPEN) {
    c->timer_state = TIMER_CLOSING;
    uv_close((uv_handle_t *)&c->timer, on_timer_closed);
  }
  if (c->timer_state != TIMER_NONE) return;
  hg_api *api = c->api;
  call_free(c);
  hg__api_maybe_free(api);
}

void hg__api_call_timer(hg_call *c, uint64_t ms, uv_timer_cb cb) {
  if (c->timer_state == TIMER_NONE) {
    uv_timer_init(c->api->loop, &c->timer);
    c->timer.data = c;
    c->timer_state = TIMER_OPEN;
  }
  uv_timer_start(&c->timer, cb, ms, 0);
}

hg_call *hg__api_call_new(hg_api *api, hg_http_req *req) {
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

void hg__api_count_status(hg_api *api, const hg_route *rt, int status) {
  hg_status_count *row = &api->counts[hg__api_route_index(rt) * HG_API_STATUS_SLOTS];
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
void hg__api_call_respond(hg_call *c, int status, const char *ctype, const char *hdrs,
                          const void *body, size_t len) {
  hg_http_req *req = c->req;
  if (!c->finished) {
    if (!c->streaming) hg__api_count_status(c->api, c->rt, status);
    req->data = NULL;
    if (c->streaming)
      hg_http_stream_end(req);
    else
      hg_http_respond(req, status, ctype, hdrs, body, len);
  }
  c->finished = true;
  hg__api_call_maybe_free(c);
}

/* Steals obj. */
void hg__api_call_json(hg_call *c, int status, json_t *obj, const char *hdrs) {
  char xh[512] = "";
  if (!c->xform && c->rt) c->xform = hg__api_e2b_xform_of(c->rt);
  if (c->xform && !c->finished) {
    snprintf(xh, sizeof xh, "%s", hdrs ? hdrs : "");
    c->xform(c, &status, &obj, xh, sizeof xh);
    hdrs = xh[0] ? xh : NULL;
  }
  if (!obj && status == 204) { /* an empty success */
    hg__api_call_respond(c, status, NULL, hdrs, NULL, 0);
    return;
  }
  char *s = obj ? json_dumps(obj, JSON_COMPACT) : NULL;
  json_decref(obj);
  if (!s) {
    static const char oom[] = "{\"error\":{\"code\":\"internal\",\"message\":\"out of memory\"}}";
    hg__api_call_respond(c, 500, "application/json", NULL, oom, sizeof oom - 1);
    return;
  }
  size_t n = strlen(s);
  if (c->envelope && n <= UINT32_MAX - 5) { /* flags 0x02: the end of the stream */
    unsigned char *m = malloc(n + 5);
    if (m) {
      m[0] = 0x02;
      m[1] = (unsigned char)(n >> 24);
      m[2] = (unsigned char)(n >> 16);
      m[3] = (unsigned char)(n >> 8);
      m[4] = (unsigned char)n;
      memcpy(m + 5, s, n);
      hg__api_call_respond(c, status, "application/connect+json", hdrs, m, n + 5);
      free(m);
      free(s);
      return;
    }
  }
  hg__api_call_respond(c, status, "application/json", hdrs, s, n);
  free(s);
}

json_t *hg__api_error_body(int rc, const char *msg) {
  return json_pack("{s:{s:s,s:s}}", "error", "code", hg__api_err_class(rc).code,
                   "message", msg && *msg ? msg : hg__api_err_text(rc));
}

/* Answers the error rc, with a message made of fmt and the table's text. */
void hg__api_call_error(hg_call *c, int rc, const char *fmt, ...) {
  hg_err_class e = hg__api_err_class(rc);
  char msg[HG_API_MSG + 64];
  int n = 0;
  if (fmt) {
    va_list ap;
    va_start(ap, fmt);
    n = vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
  }
  if (n <= 0) snprintf(msg, sizeof msg, "%s", hg__api_err_text(rc));
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
  hg__api_call_json(c, e.status, hg__api_error_body(rc, msg), hdrs);
}

/* Errors from the runtime: "<what>: <table text>". */
void hg__api_call_fail(hg_call *c, int rc, const char *what) {
  hg__api_call_error(c, rc, "%s: %s", what, hg__api_err_text(rc));
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
    hg__api_call_maybe_free(c);
    return;
  }
  if (status == UV_ECANCELED) c->rc = -EAGAIN;
  c->after_fn(c);
}

/* Runs work on a worker, then after on the loop thread. */
void hg__api_call_queue(hg_call *c, hg_call_fn work, hg_call_fn after) {
  c->work_fn = work;
  c->after_fn = after;
  c->work.data = c;
  c->busy = true;
  int rc = uv_queue_work(c->api->loop, &c->work, on_call_work, on_call_after);
  if (rc < 0) {
    c->busy = false;
    hg__api_call_fail(c, rc, "queueing work");
  }
}

/* Runs work and after right here on the loop thread: only for manager calls
 * that take nothing but the manager's in-memory lock (describe, list),
 * where a hop through the pool would cost more than the work. */
void hg__api_call_inline(hg_call *c, hg_call_fn work, hg_call_fn after) {
  work(c);
  after(c);
}

/* Takes one held-call slot, or answers 503. */
bool hg__api_call_hold(hg_call *c) {
  hg_api *api = c->api;
  if (api->held >= api->max_held) {
    api->held_rejected++;
    hg__api_call_error(c, -EAGAIN, "too many waiting requests on this node (%u); retry",
                       api->max_held);
    return false;
  }
  api->held++;
  c->held = true;
  return true;
}
