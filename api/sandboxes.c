/* GET /v1/sandboxes[/{id}] and GET /v1/templates. */
#include "api/api_internal.h"

/* ---- sandboxes, templates ------------------------------------------------------- */

static void set_node(json_t *sb, const char *node) {
  if (json_is_object(sb) && !json_object_get(sb, "node"))
    json_object_set_new(sb, "node", json_string(node));
}

static void w_get(hg_call *c) { c->rc = hg_sandbox_describe(c->api->m, c->p.id, &c->out); }

static void a_get(hg_call *c) {
  if (c->rc < 0) {
    hg__api_call_fail(c, c->rc, c->p.id);
    return;
  }
  json_t *o = c->out;
  c->out = NULL;
  set_node(o, c->api->node_id);
  hg__api_call_json(c, 200, o, NULL);
}

void hg__api_h_get(hg_call *c) {
  hg__api_call_inline(c, w_get, a_get);
}

/* ---- PATCH: what may change after the create (its idle suspend) ----------------- */

static void w_set_idle(hg_call *c) {
  c->rc = hg_sandbox_set_idle(c->api->m, c->p.id, c->u.idle_suspend_s);
  if (c->rc == 0) c->rc = hg_sandbox_describe(c->api->m, c->p.id, &c->out);
}

void hg__api_set_idle(hg_call *c) {
  hg__api_call_queue(c, w_set_idle, a_get);
}

void hg__api_h_patch(hg_call *c) {
  int64_t idle = 0;
  int rc = hg__api_get_int(c->body, "idle_suspend_s", -1, HG_SB_IDLE_MAX_S, &idle, c->msg);
  if (rc == 0 && json_object_size(c->body) != 1)
    rc = hg__api_bad(c->msg, "body: exactly {\"idle_suspend_s\": N} (-1 never, 0 the "
                             "node's default, else seconds)");
  if (rc < 0) {
    hg__api_call_error(c, rc, "%s", c->msg);
    return;
  }
  c->u.idle_suspend_s = idle;
  hg__api_set_idle(c);
}

void hg__api_w_list(hg_call *c) {
  hg_list_q *q = &c->u.lq;
  c->out = hg_sandbox_list(c->api->m, q->state[0] ? q->state : NULL,
                           q->label[0] ? q->label : NULL);
}

static void a_list_sb(hg_call *c) {
  json_t *v = c->out;
  json_t *arr = json_is_array(v) ? v : json_object_get(v, "sandboxes");
  size_t i;
  json_t *sb;
  json_array_foreach(arr, i, sb) set_node(sb, c->api->node_id);
  if (c->api->have_peers && !c->forwarded && json_is_array(arr))
    hg__api_list_merge_directory(c, arr);
  hg__api_a_list(c, "sandboxes");
}

void hg__api_h_list(hg_call *c) {
  hg_list_q *q = &c->u.lq;
  hg_sb_state st;
  int rc = hg__api_q_opt(c, "state", q->state, sizeof q->state);
  if (rc == 0 && q->state[0] && hg_sb_state_parse(q->state, &st) < 0)
    rc = hg__api_bad(c->msg, "query parameter \"state\": not a sandbox state");
  if (rc == 0) rc = hg__api_q_opt(c, "label", q->label, sizeof q->label);
  if (rc == 0 && q->label[0] && !strchr(q->label, '='))
    rc = hg__api_bad(c->msg, "query parameter \"label\": must be key=value");
  if (rc < 0) {
    hg__api_call_error(c, rc, "%s", c->msg);
    return;
  }
  hg__api_call_inline(c, hg__api_w_list, a_list_sb);
}

static void w_tmpl_list(hg_call *c) {
  c->out = hg_manager_template_list(c->api->m);
}
static void a_tmpl_list(hg_call *c) {
  hg__api_a_list(c, "templates");
}
void hg__api_h_tmpl_list(hg_call *c) {
  hg__api_call_queue(c, w_tmpl_list, a_tmpl_list);
}
