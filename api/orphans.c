/* GET /v1/orphans and DELETE /v1/orphans/{name*}: the fenced copies of
 * sandboxes this node keeps (DESIGN §9), for the operator. Node-local: an
 * orphan is not in the directory, so nothing here is forwarded. Not a
 * lifecycle sequence either: the manager is asked directly, on a worker
 * (directories and btrfs). */
#include "api/api_internal.h"

#define ORPHANS_PREFIX "/v1/orphans/"

static void w_orphans(hg_call *c) {
  c->out = hg_manager_orphans(c->api->m);
}

static void a_orphans(hg_call *c) {
  size_t i;
  json_t *o;
  json_array_foreach(c->out, i, o)
      json_object_set_new(o, "node", json_string(c->api->node_id));
  hg__api_a_list(c, "orphans");
}

void hg__api_h_orphans(hg_call *c) {
  hg__api_call_queue(c, w_orphans, a_orphans);
}

static void w_orphan_delete(hg_call *c) {
  c->rc = hg_manager_orphan_delete(c->api->m, c->u.orphan);
}

static void a_orphan_delete(hg_call *c) {
  if (c->rc < 0) {
    hg__api_call_fail(c, c->rc, c->u.orphan);
    return;
  }
  hg_log_info("api.orphan_delete", "orphan=%s", c->u.orphan);
  hg__api_call_respond(c, 204, NULL, NULL, NULL, 0);
}

/* The name is the rest of the path, slash and all ("sb-…/7", as the list
 * names it), checked strictly here: it becomes a store path. */
void hg__api_h_orphan_delete(hg_call *c) {
  const char *path = c->req->path;
  size_t n = sizeof ORPHANS_PREFIX - 1;
  const char *name = strncmp(path, ORPHANS_PREFIX, n) == 0 ? path + n : "";
  if (!hg_orphan_name_valid(name)) {
    hg__api_call_error(
        c, -EINVAL,
        "not an orphan name: <sandbox id>/<epoch>[.<n>], as GET /v1/orphans "
        "lists them");
    return;
  }
  snprintf(c->u.orphan, sizeof c->u.orphan, "%s", name);
  hg__api_call_queue(c, w_orphan_delete, a_orphan_delete);
}
