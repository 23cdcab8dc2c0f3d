/* Lifecycle requests (create, pause, resume, suspend, checkpoint, snapshot,
 * fork, delete, template) as tracked operations, and GET /v1/operations. */
#include "api/api_internal.h"

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

/* The work itself is node/hangard's (api->work); here it only becomes an
 * operation's result. */
static int run_create(hg_opjob *j, json_t **res) {
  hg_api_work *w = &j->api->work;
  int rc = w->create_finish(w->ud, j->id);
  if (rc == 0) *res = json_pack("{s:s}", "id", j->id);
  return rc;
}

static int run_pause(hg_opjob *j, json_t **res) {
  hg_api_work *w = &j->api->work;
  return w->pause(w->ud, j->id);
}

static int run_resume(hg_opjob *j, json_t **res) {
  hg_api_work *w = &j->api->work;
  char msg[256] = "";
  int rc = w->resume(w->ud, j->id, msg);
  if (rc < 0 && msg[0]) *res = json_pack("{s:s}", "message", msg);
  return rc;
}

static int run_delete(hg_opjob *j, json_t **res) {
  hg_api_work *w = &j->api->work;
  return w->remove(w->ud, j->id);
}

static void suspend_progress(void *ud, const char *text) {
  hg_opjob *j = ud;
  hg_op_progress(j->api->ops, j->op, text);
}

/* {gen, durability, replication: how the copy went}: with durability
 * "replicated" the operation succeeds only once the holders have it. */
static int run_suspend(hg_opjob *j, json_t **res) {
  hg_api_work *w = &j->api->work;
  uint64_t gen = 0;
  json_t *report = NULL;
  char msg[256] = "";
  const char *dur = j->durability[0] ? j->durability : NULL;
  int rc = w->suspend(w->ud, j->id, dur, suspend_progress, j, &gen, &report, msg);
  if (rc < 0 && !gen) return rc; /* not suspended: nothing to say but rc */
  *res = json_pack("{s:I,s:s}", "gen", (json_int_t)gen, "durability",
                   report && json_object_get(report, "durability")
                       ? json_string_value(json_object_get(report, "durability"))
                       : "local");
  if (report) json_object_set_new(*res, "replication", report);
  if (rc < 0 && *res)
    json_object_set_new(*res, "message", json_string(msg[0] ? msg : hg_err_str(rc)));
  return rc;
}

/* {gen, pause_ms, replication: how the copy went}: done once the holders
 * have it (the generation is advertised only then). */
static int run_checkpoint(hg_opjob *j, json_t **res) {
  hg_api_work *w = &j->api->work;
  uint64_t gen = 0;
  double pause_ms = 0;
  json_t *report = NULL;
  char msg[256] = "";
  int rc = w->checkpoint(w->ud, j->id, &gen, &pause_ms, &report, msg);
  if (rc < 0 && !gen) { /* taken nothing: only why */
    json_decref(report);
    if (msg[0]) *res = json_pack("{s:s}", "message", msg);
    return rc;
  }
  *res = json_pack("{s:I,s:f}", "gen", (json_int_t)gen, "pause_ms", pause_ms);
  if (report) json_object_set_new(*res, "replication", report);
  if (rc < 0 && *res)
    json_object_set_new(*res, "message", json_string(msg[0] ? msg : hg_err_str(rc)));
  return rc;
}

static int run_snapshot(hg_opjob *j, json_t **res) {
  hg_api_work *w = &j->api->work;
  char name[64] = "";
  int rc = w->snapshot(w->ud, j->id, name);
  if (rc == 0) *res = json_pack("{s:s}", "snapshot", name);
  return rc;
}

static int run_fork(hg_opjob *j, json_t **res) {
  hg_api_work *w = &j->api->work;
  int rc = w->fork(w->ud, j->id, j->gen, j->snapshot[0] ? j->snapshot : NULL, j->new_id,
                   j->new_token);
  if (rc == 0) *res = json_pack("{s:s,s:s}", "id", j->new_id, "from", j->id);
  return rc;
}

static int run_template(hg_opjob *j, json_t **res) {
  char digest[65] = "", why[HG_TEMPLATE_WHY_MAX];
  int rc = hg_manager_template_register(j->api->m, j->tmpl_name, j->tmpl_dir, digest, why);
  if (rc == 0) *res = json_pack("{s:s,s:s}", "name", j->tmpl_name, "digest", digest);
  else if (why[0]) *res = json_pack("{s:s}", "message", why);
  return rc;
}

static const hg_kind_def hg_kinds[] = {
  [K_CREATE] = {"create", run_create},       [K_PAUSE] = {"pause", run_pause},
  [K_RESUME] = {"resume", run_resume},       [K_SUSPEND] = {"suspend", run_suspend},
  [K_SNAPSHOT] = {"snapshot", run_snapshot}, [K_FORK] = {"fork", run_fork},
  [K_DELETE] = {"delete", run_delete},       [K_TEMPLATE] = {"template", run_template},
  [K_CHECKPOINT] = {"checkpoint", run_checkpoint},
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
  if (j->kind == K_DELETE) {
    hg__api_tok_forget_sandbox(api, j->id);
    hg__envd_procs_forget_sandbox(&api->envd, j->id);
  }
  if (j->kind == K_FORK) hg__api_tok_put(api, TOK_SANDBOX, j->new_token, j->new_id, 0, 0);
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
void hg__api_job_cancel(hg_api *api, hg_opjob *j) {
  j->rc = -EAGAIN;
  hg_op_finish(
      api->ops, j->op, j->rc,
      json_pack("{s:s}", "message", "cancelled: the node stopped before it started"));
  job_done(api, j);
}

static void on_job_after(uv_work_t *w, int status) {
  hg_opjob *j = w->data;
  hg_api *api = j->api;
  api->inflight--;
  api->ops_running--;
  job_done(api, j);
  hg__api_maybe_free(api);
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
    hg__api_job_cancel(api, j);
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

void hg__api_lc_cleanup(hg_call *c) {
  hg_lc *l = &c->u.lc;
  if (l->job) l->job->waiter = NULL;
  free(l->tmpl_name);
  free(l->tmpl_dir);
  if (l->policy) hg_policy_free(l->policy);
}

static void w_lc_begin(hg_call *c) {
  hg_lc *l = &c->u.lc;
  hg_api *api = c->api;
  hg_api_work *w = &api->work;
  if (l->kind == K_CREATE) {
    bool running = false;
    c->rc = w->create_begin(w->ud, &l->spec, l->policy, l->id, l->token, &running);
    if (c->rc < 0) return;
    /* From the warm pool the sandbox runs already (and is written so):
     * the operation is journaled once, as done, and needs no job. */
    if (running) {
      l->done = true;
      c->rc = hg_op_done(api->ops, hg_kinds[l->kind].name, l->id,
                         json_pack("{s:s}", "id", l->id), l->op);
      if (c->rc < 0) w->remove(w->ud, l->id);
      return;
    }
  } else if (l->kind != K_TEMPLATE) { /* 404 now rather than a failed operation */
    json_t *d = NULL;
    c->rc = hg_sandbox_describe(api->m, l->id, &d);
    json_decref(d);
    if (c->rc == -ENOENT && l->kind == K_RESUME && w->resumable(w->ud, l->id))
      c->rc = 0; /* a replica here: the resume adopts it */
    if (c->rc < 0) return;
  }
  c->rc = hg_op_begin(api->ops, hg_kinds[l->kind].name,
                      l->kind == K_TEMPLATE ? "" : l->id, l->op);
  if (c->rc < 0 && l->kind == K_CREATE)
    w->remove(w->ud, l->id); /* nothing would finish it */
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
  hg__api_call_json(c, 202, o, loc);
}

void hg__api_on_lc_deadline(uv_timer_t *t) {
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
    if (hg__api_create_place(c, true)) return;
  }
  if (c->rc < 0) {
    hg__api_call_fail(c, c->rc, l->kind == K_TEMPLATE ? "template" : l->id);
    return;
  }
  if (l->kind == K_CREATE) hg__api_tok_put(api, TOK_SANDBOX, l->token, l->id, 0, 0);
  if (l->done) { /* as lc_job_done answers a create */
    if (c->wait_s > 0)
      hg__api_call_queue(c, w_lc_describe, a_lc_describe);
    else
      lc_accepted(c);
    return;
  }
  hg_opjob *j = job_new(c);
  if (!j) {
    hg_op_finish(api->ops, l->op, -ENOMEM, NULL);
    hg__api_call_fail(c, -ENOMEM, l->op);
    return;
  }
  /* fork answers with the new id, which exists only once the fork is done */
  bool wait = c->wait_s > 0 || l->kind == K_FORK;
  if (wait) {
    int s = c->wait_s > 0 ? c->wait_s : HG_API_MAX_WAIT_S;
    j->waiter = c;
    l->job = j;
    hg__api_call_timer(c, (uint64_t)s * 1000, hg__api_on_lc_deadline);
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
    hg__api_call_fail(c, c->rc, l->id);
    return;
  }
  json_t *o = c->out;
  c->out = NULL;
  json_object_set_new(o, "token", json_string(l->token));
  json_object_set_new(o, "operation", json_string(l->op));
  if (!json_object_get(o, "node")) json_object_set_new(o, "node", json_string(c->api->node_id));
  hg__api_call_json(c, 201, o, NULL);
}

/* A failed operation: its message, and what it did do ("result": a
 * suspend that was replicated in part says where). */
static void call_error_op(hg_call *c, int rc, const char *op, json_t *result) {
  char msg[HG_API_MSG];
  const char *why = json_string_value(json_object_get(result, "message"));
  snprintf(msg, sizeof msg, "operation %s failed: %s", op,
           why ? why : hg__api_err_text(rc));
  json_t *b = hg__api_error_body(rc, msg);
  json_object_set_new(b, "operation", json_string(op));
  json_t *res = json_deep_copy(result);
  json_object_del(res, "message");
  if (json_object_size(res)) json_object_set(b, "result", res);
  json_decref(res);
  hg__api_call_json(c, hg__api_err_class(rc).status, b, NULL);
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
    hg__api_call_json(c, c->wait_s ? 200 : 202, o, c->wait_s ? NULL : loc);
  } else if (l->kind == K_CREATE) {
    hg__api_call_queue(c, w_lc_describe, a_lc_describe);
  } else {
    json_t *o = json_pack("{s:s,s:O}", "operation", j->op, "result", j->result);
    hg__api_call_json(c, 200, o, NULL);
  }
}

static void lc_start(hg_call *c, hg_kind kind) {
  hg_lc *l = &c->u.lc;
  l->kind = kind;
  c->cleanup = hg__api_lc_cleanup;
  memcpy(l->id, c->p.id, sizeof l->id);
  if (hg__api_q_wait(c) < 0) {
    hg__api_call_error(c, -EINVAL, "%s", c->msg);
    return;
  }
  hg__api_call_queue(c, w_lc_begin, a_lc_begin);
}

void hg__api_h_pause(hg_call *c) {
  lc_start(c, K_PAUSE);
}
void hg__api_h_resume(hg_call *c) {
  lc_start(c, K_RESUME);
}

void hg__api_h_suspend(hg_call *c) {
  char *d = c->u.lc.durability;
  int rc = hg__api_q_get(c, "durability", d, sizeof c->u.lc.durability);
  if (rc == -ENOENT)
    d[0] = '\0';
  else if (rc == 0 && strcmp(d, "local") && strcmp(d, "replicated"))
    rc = hg__api_bad(c->msg,
                     "query parameter \"durability\": \"local\" or \"replicated\"");
  if (rc < 0 && rc != -ENOENT) {
    hg__api_call_error(c, rc, "%s", c->msg);
    return;
  }
  lc_start(c, K_SUSPEND);
}
void hg__api_h_checkpoint(hg_call *c) {
  lc_start(c, K_CHECKPOINT);
}
void hg__api_h_snapshot(hg_call *c) {
  lc_start(c, K_SNAPSHOT);
}
void hg__api_h_delete(hg_call *c) {
  lc_start(c, K_DELETE);
}

/* "network": the egress policy (DESIGN §11); absent: no egress at all. */
static int network_parse(hg_call *c, hg_policy **out) {
  json_t *v = hg__api_field(c->body, "network");
  char err[256] = "";
  if (!v) return 0;
  if (!c->api->gw)
    return hg__api_bad(c->msg, "field \"network\": networking is off on this node");
  if (hg_policy_parse(v, out, err) < 0)
    return hg__api_bad(c->msg, "field \"network\": %s", err[0] ? err : "invalid policy");
  return 0;
}

void hg__api_h_create(hg_call *c) {
  hg_lc *l = &c->u.lc;
  c->cleanup = hg__api_lc_cleanup; /* frees the policy whatever happens */
  int rc = hg__api_create_parse(c->body, &l->spec, c->msg);
  if (rc == 0) rc = network_parse(c, &l->policy);
  if (rc == 0) rc = hg__api_placement_parse(c->body, &l->zone, &l->label, c->msg);
  if (rc == 0) rc = hg__api_q_wait(c);
  if (rc < 0) {
    hg__api_call_error(c, rc, "%s", c->msg);
    return;
  }
  if (hg__api_create_place(c, false)) return; /* another node, or no room anywhere */
  lc_start(c, K_CREATE);
}

void hg__api_h_fork(hg_call *c) {
  int64_t gen = 0;
  const char *snap = NULL;
  int rc = hg__api_get_int(c->body, "gen", 0, INT64_MAX, &gen, c->msg);
  if (rc == 0)
    rc = hg__api_get_str(c->body, "snapshot", sizeof c->u.lc.snapshot - 1, &snap, c->msg);
  if (rc < 0) {
    hg__api_call_error(c, rc, "%s", c->msg);
    return;
  }
  if (snap && gen) {
    hg__api_call_error(c, -EINVAL, "give either \"gen\" or \"snapshot\", not both");
    return;
  }
  c->u.lc.gen = (uint64_t)gen;
  snprintf(c->u.lc.snapshot, sizeof c->u.lc.snapshot, "%s", snap ? snap : "");
  lc_start(c, K_FORK);
}

void hg__api_h_tmpl_create(hg_call *c) {
  const char *name = NULL, *dir = NULL;
  int rc;
  if ((rc = hg__api_get_str(c->body, "name", 128, &name, c->msg)) < 0 ||
      (rc = hg__api_get_str(c->body, "dir", HG_API_MAX_PATH, &dir, c->msg)) < 0) {
    hg__api_call_error(c, rc, "%s", c->msg);
    return;
  }
  if (!name || !hg__api_name_valid(name)) {
    hg__api_call_error(c, -EINVAL, "field \"name\": required, like name or name:tag");
    return;
  }
  if (!dir || dir[0] != '/') { /* a host path: admin only, read by the manager */
    hg__api_call_error(c, -EINVAL,
                       "field \"dir\": required, an absolute path on the node");
    return;
  }
  c->u.lc.tmpl_name = strdup(name);
  c->u.lc.tmpl_dir = strdup(dir);
  c->cleanup = hg__api_lc_cleanup;
  if (!c->u.lc.tmpl_name || !c->u.lc.tmpl_dir) {
    hg__api_call_fail(c, -ENOMEM, "template");
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
  if (c->rc == -ENOENT && hg__api_op_lookup_start(c))
    return; /* another node's, perhaps */
  if (c->rc < 0) {
    hg__api_call_fail(c, c->rc, c->p.op);
    return;
  }
  json_t *o = c->out;
  c->out = NULL;
  hg__api_call_json(c, 200, o, NULL);
}

static void op_poll(hg_call *c);
static void on_op_poll(uv_timer_t *t) { op_poll(t->data); }

static void op_poll(hg_call *c) {
  hg_op_status st = HG_OP_RUNNING;
  int rc = hg_op_status_of(c->api->ops, c->p.op, &st);
  if (rc < 0 || st != HG_OP_RUNNING || hg_now_ms() >= c->u.lc.deadline_ms || c->api->stopping) {
    hg__api_call_queue(c, w_op_describe, a_op_describe);
    return;
  }
  hg__api_call_timer(c, HG_API_POLL_MS, on_op_poll);
}

void hg__api_h_op_get(hg_call *c) {
  if (hg__api_q_wait(c) < 0) {
    hg__api_call_error(c, -EINVAL, "%s", c->msg);
    return;
  }
  if (c->wait_s > 0) {
    c->u.lc.deadline_ms = hg_now_ms() + (int64_t)c->wait_s * 1000;
    op_poll(c);
  } else if (c->out) { /* already described by the token check */
    a_op_describe(c);
  } else {
    hg__api_call_queue(c, w_op_describe, a_op_describe);
  }
}

static void w_op_list(hg_call *c) {
  c->out = hg_op_list(c->api->ops, c->qsandbox[0] ? c->qsandbox : NULL);
}

json_t *hg__api_wrap_list(json_t *v, const char *key) {
  if (json_is_object(v)) return v;
  json_t *o = json_object();
  json_object_set_new(o, key, v ? v : json_array());
  return o;
}

void hg__api_a_list(hg_call *c, const char *key) {
  json_t *o = hg__api_wrap_list(c->out, key);
  c->out = NULL;
  hg__api_call_json(c, 200, o, NULL);
}

static void a_op_list(hg_call *c) {
  hg__api_a_list(c, "operations");
}

void hg__api_h_op_list(hg_call *c) {
  char sb[HG_ID_MAX + 8];
  int rc = hg__api_q_get(c, "sandbox", sb, sizeof sb);
  if (rc == 0 && !hg_id_valid("sb", sb))
    rc = hg__api_bad(c->msg, "query parameter \"sandbox\": not a sandbox id");
  if (rc < 0 && rc != -ENOENT) {
    hg__api_call_error(c, rc, "%s", c->msg);
    return;
  }
  hg__api_call_queue(c, w_op_list, a_op_list);
}
