/* The cluster as the API sees it: forwarding to the owner, placement of
 * creates, operation lookups on other nodes, members, the directory, and
 * every holder's replicas of a sandbox. */
#include "api/api_internal.h"

/* ---- the cluster -------------------------------------------------------------------
 * With peers, any node answers (DESIGN §7). A request for a sandbox the
 * directory places on another live node is forwarded there before auth
 * (the owner authenticates it: tokens live with their sandbox); a create
 * goes where placement says; an operation this node does not know is
 * asked of the other members in turn. Forwarded requests carry
 * X-Hangar-Forwarded and are never forwarded again: one that reaches a
 * node without the sandbox gets 421 + X-Hangar-Owner, and the forwarder
 * retries there once. Forwarding runs on the loop (curl multi), so it
 * holds no worker however long the owner holds the request. */

static void op_lookup_next(hg_call *c);

/* 421: "not here; try <owner> <addr>" (only ever to a signed forward: a
 * request with X-Hangar-Forwarded and no valid signature got 401 at its
 * head, so the address goes to a peer, never to a client). */
static void call_misdirected(hg_call *c, const char *owner, const char *addr) {
  char hdr[32 + HG_NODE_ID_MAX + HG_ADDR_MAX] = "", msg[HG_API_MSG];
  if (hg_node_id_valid(owner) && hg_addr_valid(addr))
    snprintf(hdr, sizeof hdr, "X-Hangar-Owner: %s %s\r\n", owner, addr);
  snprintf(msg, sizeof msg, "sandbox %s is owned by node %s (%s), not by this node (%s)", c->p.id,
           owner, addr, c->api->node_id);
  c->api->misdirected++;
  hg_log_info("api.misdirected", "sandbox=%s owner=%s addr=%s", c->p.id, owner, addr);
  hg__api_call_json(c, 421, hg__api_error_body(HG_API_EMISDIRECTED, msg),
                    hdr[0] ? hdr : NULL);
}

/* The client's credential as the owner gets it (fwdsign.h): "admin" when
 * it is our admin key (checked here; the key itself stays here), else
 * "bearer <it>" for the owner to check (a sandbox's tokens live with it);
 * "" with none. Only Authorization: ?token= travels in the target. */
static bool fwd_identity(const hg_call *c, char out[HG_FWDSIGN_IDENT_MAX]) {
  char cred[HG_API_TOKEN_MAX + 1];
  hg__api_cred_parse(c->req, c->rt, &c->p, cred);
  out[0] = '\0';
  if (!cred[0]) return false;
  if (hg_secret_equal(cred, c->api->admin_key)) {
    snprintf(out, HG_FWDSIGN_IDENT_MAX, "admin");
    return true;
  }
  snprintf(out, HG_FWDSIGN_IDENT_MAX, "bearer %s", cred);
  return false;
}

/* A forward that found no answer: 502 owner_unreachable, saying where to
 * an admin only (peers' addresses are the cluster's business). */
static void fwd_unreachable(hg_call *c, const hg_fwd_result *r) {
  const char *why = r->msg[0] ? r->msg : "no answer";
  char ident[HG_FWDSIGN_IDENT_MAX];
  if (!fwd_identity(c, ident)) {
    hg__api_call_error(c, -EHOSTUNREACH, "the node that holds %s did not answer",
                       c->why == FWD_CREATE ? "the new sandbox's place" : "the sandbox");
    return;
  }
  if (c->why == FWD_CREATE)
    hg__api_call_error(c, -EHOSTUNREACH,
                       "node %s (%s), placed to create the sandbox, did not answer: %s",
                       r->owner, r->addr, why);
  else
    hg__api_call_error(c, -EHOSTUNREACH,
                       "sandbox %s is on node %s (%s), which did not answer: %s", c->p.id,
                       r->owner, r->addr, why);
}

static void on_fwd_done(void *ud, const hg_fwd_result *r) {
  hg_call *c = ud;
  hg_api *api = c->api;
  c->fwd = NULL;
  if (r->started) { /* the forward answered (and freed) the request */
    bool gone = atomic_load(&c->aborted) || (r->rc == -ECANCELED && !api->stopping);
    hg__api_count_status(api, c->rt, gone || !r->status ? 499 : r->status);
    c->finished = true;
    hg__api_call_maybe_free(c);
    return;
  }
  if (r->rc == -ECANCELED) {
    if (atomic_load(&c->aborted) && !api->stopping)
      hg__api_call_respond(c, 499, NULL, NULL, NULL, 0);
    else
      hg__api_call_error(c, -EAGAIN, "the node is shutting down");
  } else if (c->why == FWD_OPERATION) {
    op_lookup_next(c); /* 404 there, or silent: ask the next */
  } else if (r->rc == -EREMOTE) { /* 421 twice: no address to the client */
    hg__api_call_error(c, HG_API_EMISDIRECTED,
                       "sandbox %s is moving between nodes; try again", c->p.id);
  } else {
    fwd_unreachable(c, r);
  }
}

/* Forwards c to owner at addr; answers it if that cannot start. */
static void fwd_begin(hg_call *c, hg_fwd_why why, const char *owner, const char *addr, int decline) {
  hg_api *api = c->api;
  char ident[HG_FWDSIGN_IDENT_MAX];
  fwd_identity(c, ident);
  hg_fwd_spec s = {.owner = owner, .addr = addr, .decline_status = decline,
                   .identity = ident, .done = on_fwd_done, .ud = c,
                   .sandbox = hg__api_route_envd(c->rt) ? c->p.id : NULL};
  c->why = why;
  int rc = api->fwd ? hg_fwd_start(api->fwd, c->req, &s, &c->fwd) : -EAGAIN;
  if (rc == 0) {
    hg_log_debug("api.forward", "route=\"%s\" node=%s addr=%s", c->rt->pattern, owner, addr);
    return;
  }
  c->fwd = NULL;
  if (why == FWD_OPERATION) {
    op_lookup_next(c);
  } else if (rc == -EINVAL) {
    hg_fwd_result r = {.rc = rc};
    snprintf(r.owner, sizeof r.owner, "%.63s", owner);
    snprintf(r.addr, sizeof r.addr, "%.63s", addr);
    snprintf(r.msg, sizeof r.msg, "no valid address or request target to forward to");
    fwd_unreachable(c, &r);
  } else {
    hg__api_call_fail(c, rc, "forwarding");
  }
}

/* Routes with a sandbox in the path: true when c left (forwarded) or got
 * its answer here (421; 404 deleted or 502 owner unreachable while a copy
 * here is older than the directory); false: serve it locally. */
static bool route_resume(hg_call *c);

bool hg__api_route_names_sandbox(const hg_route *rt, const hg_params *p) {
  /* envd's routes name it in E2b-Sandbox-Id (hg__api_envd_params) */
  return strstr(rt->pattern, "{id}") || (hg__api_route_envd(rt) && p->id[0]);
}

const char *hg__api_where_msg(int where) {
  switch (where) {
  case -ENOENT: return "the sandbox was deleted";
  case -EHOSTUNREACH: return "the sandbox's owner is not reachable now";
  case -EAGAIN: return "this node has not heard from its cluster since it started";
  default: return hg_err_str(where);
  }
}

bool hg__api_route_remote(hg_call *c) {
  hg_api *api = c->api;
  if (!api->have_peers || !hg__api_route_names_sandbox(c->rt, &c->p)) return false;
  if (c->rt->handle == hg__api_h_replicas) return false; /* any node asks the holders */
  if (c->rt->handle == hg__api_h_resume && api->rp) return route_resume(c);
  char owner[HG_NODE_ID_MAX] = "", addr[HG_ADDR_MAX] = "";
  int where = api->peers.locate(api->peers.ud, c->p.id, owner, addr);
  if (where < 0) {
    hg__api_call_error(c, where, "%s", hg__api_where_msg(where));
    return true;
  }
  if (where != 1) return false;
  owner[sizeof owner - 1] = addr[sizeof addr - 1] = '\0';
  if (!strcmp(owner, api->node_id)) return false;
  if (c->forwarded) {
    /* never forwarded twice; but a copy here (the directory is behind
     * us) is served: the lease decides, and the manager knows it */
    json_t *d = NULL;
    int rc =
        hg_sandbox_describe(api->m, c->p.id, &d); /* in-memory: see hg__api_call_inline */
    json_decref(d);
    if (rc == 0) return false;
    call_misdirected(c, owner, addr);
    return true;
  }
  fwd_begin(c, FWD_SANDBOX, owner, addr, 0);
  return true;
}

/* A resume goes to ?node=, or to the owner, or (the owner down) to a holder
 * of the newest generation, where it adopts the sandbox. A forwarded one
 * is served here: the front node chose us. */
static bool route_resume(hg_call *c) {
  hg_api *api = c->api;
  char node[HG_NODE_ID_MAX] = "", target[HG_NODE_ID_MAX] = "", addr[HG_ADDR_MAX] = "";
  char msg[256] = "";
  if (c->forwarded) return false;
  int rc = hg__api_q_get(c, "node", node, sizeof node);
  if (rc < 0 && rc != -ENOENT) {
    hg__api_call_error(c, rc, "%s", c->msg);
    return true;
  }
  rc = hg_replicator_resume_at(api->rp, c->p.id, node[0] ? node : NULL, target, addr,
                           msg);
  if (rc < 0) {
    hg__api_call_error(c, rc == -EHOSTDOWN ? -EHOSTUNREACH : rc, "%s",
                       msg[0] ? msg : hg_err_str(rc));
    return true;
  }
  if (rc == 0) return false;
  target[sizeof target - 1] = addr[sizeof addr - 1] = '\0';
  fwd_begin(c, FWD_SANDBOX, target, addr, 0);
  return true;
}

/* A member as the cluster's JSON has it (id, state, addresses.api). */
static bool member_api(const json_t *m, const char **id, const char **addr) {
  const char *st = json_string_value(json_object_get(m, "state"));
  *id = json_string_value(json_object_get(m, "id"));
  *addr = json_string_value(json_object_get(json_object_get(m, "addresses"), "api"));
  if (!*addr) *addr = json_string_value(json_object_get(m, "api"));
  return (!st || !strcmp(st, "alive")) && hg_node_id_valid(*id) && hg_addr_valid(*addr);
}

static json_t *json_items(json_t *v, const char *key) {
  return json_is_array(v) ? v : json_object_get(v, key);
}

/* GET /v1/operations/{op} for an operation this node does not have: true
 * when the other alive members are being asked in turn. */
bool hg__api_op_lookup_start(hg_call *c) {
  hg_api *api = c->api;
  if (!api->have_peers || c->forwarded || c->peer_list) return false;
  json_t *mem = api->peers.members(api->peers.ud), *list = json_array();
  size_t i;
  json_t *m;
  json_array_foreach(json_items(mem, "members"), i, m) {
    const char *id, *addr;
    if (member_api(m, &id, &addr) && strcmp(id, api->node_id))
      json_array_append_new(list, json_pack("[s,s]", id, addr));
  }
  json_decref(mem);
  if (json_array_size(list) == 0) {
    json_decref(list);
    return false;
  }
  c->peer_list = list;
  c->peer_next = 0;
  json_decref(c->out); /* what the local check found: nothing */
  c->out = NULL;
  op_lookup_next(c);
  return true;
}

/* Asks the next member (its 404 or its silence comes back here), or
 * answers 404 when none is left. */
static void op_lookup_next(hg_call *c) {
  if (c->peer_next >= json_array_size(c->peer_list)) {
    hg__api_call_error(c, -ENOENT, "no such operation on any live node: %s", c->p.op);
    return;
  }
  json_t *e = json_array_get(c->peer_list, c->peer_next++);
  fwd_begin(c, FWD_OPERATION, json_string_value(json_array_get(e, 0)),
            json_string_value(json_array_get(e, 1)), 404);
}

/* "placement": {"zone": "…", "label": "k=v"} of a create. */
int hg__api_placement_parse(const json_t *b, const char **zone, const char **label,
                            char *msg) {
  json_t *p = hg__api_field(b, "placement");
  *zone = *label = NULL;
  if (!p) return 0;
  if (!json_is_object(p))
    return hg__api_bad(msg, "field \"placement\": must be an object");
  int rc;
  if ((rc = hg__api_get_str(p, "zone", 63, zone, msg)) < 0 ||
      (rc = hg__api_get_str(p, "label", 255, label, msg)) < 0)
    return hg__api_bad(msg,
                       "field \"placement\": \"zone\" and \"label\" are strings of at "
                       "most 63 and 255 bytes");
  if (*label && (!strchr(*label, '=') || **label == '='))
    return hg__api_bad(msg, "field \"placement\": \"label\" must be key=value");
  return 0;
}

/* Where a create goes: true when c was answered or forwarded; false:
 * create it here. again: after a local create found no room. */
bool hg__api_create_place(hg_call *c, bool again) {
  hg_api *api = c->api;
  if (!api->have_peers || c->forwarded) return false;
  const hg_lc *l = &c->u.lc;
  char owner[HG_NODE_ID_MAX] = "", addr[HG_ADDR_MAX] = "", reason[256] = "";
  int rc = api->peers.place(api->peers.ud, l->spec.template_ref, l->spec.vcpus, l->spec.memory_mib,
                            l->zone, l->label, owner, addr, reason);
  owner[sizeof owner - 1] = addr[sizeof addr - 1] = reason[sizeof reason - 1] = '\0';
  if (rc == 1 || (rc == 0 && !strcmp(owner, api->node_id))) {
    if (!again) return false;
    rc = -ENOSPC; /* placed here again, where there is no room */
  }
  if (rc == 0) {
    fwd_begin(c, FWD_CREATE, owner, addr, 0);
  } else if (rc == -ENOSPC) {
    hg__api_call_error(c, rc, "%s",
                       reason[0] ? reason : "no node has room for this sandbox");
  } else {
    hg__api_call_fail(c, rc, "placement");
  }
  return true;
}

/* Index of sandbox id in the local list, or -1. */
static ssize_t list_find(json_t *arr, const char *id) {
  size_t k;
  json_t *sb;
  json_array_foreach(arr, k, sb) {
    const char *lid = json_string_value(json_object_get(sb, "id"));
    if (lid && !strcmp(id, lid)) return (ssize_t)k;
  }
  return -1;
}

static bool dir_entry_matches(const hg_list_q *q, const json_t *e, const char *lk,
                              const char *lv) {
  const char *st = json_string_value(json_object_get(e, "state"));
  if ((st && !strcmp(st, "deleted")) || (q->state[0] && (!st || strcmp(st, q->state))))
    return false;
  if (!lv) return true;
  const char *v = json_string_value(json_object_get(json_object_get(e, "metadata"), lk));
  return v && !strcmp(v, lv);
}

/* GET /v1/sandboxes: the directory's entries owned by other nodes join
 * the local list (filtered by state; by label only where the entry carries
 * metadata). A copy here that the directory has moved past (another owner,
 * or a tombstone, at a higher epoch) is an old one and leaves the list, as
 * peers_locate keeps requests off it. */
void hg__api_list_merge_directory(hg_call *c, json_t *arr) {
  hg_api *api = c->api;
  const hg_list_q *q = &c->u.lq;
  json_t *dir = api->peers.directory(api->peers.ud);
  char lk[sizeof q->label];
  snprintf(lk, sizeof lk, "%s", q->label);
  char *lv = strchr(lk, '=');
  if (lv) *lv++ = '\0';
  size_t i;
  json_t *e;
  json_array_foreach(json_items(dir, "sandboxes"), i, e) {
    const char *id = json_string_value(json_object_get(e, "sandbox"));
    if (!id) id = json_string_value(json_object_get(e, "id"));
    const char *owner = json_string_value(json_object_get(e, "owner"));
    if (!id || !hg_id_valid("sb", id) || !owner || !strcmp(owner, api->node_id)) continue;
    ssize_t here = list_find(arr, id);
    if (here >= 0) {
      json_int_t mine = json_integer_value(json_object_get(json_array_get(arr, here), "epoch"));
      if (json_integer_value(json_object_get(e, "epoch")) <= mine) continue;
      json_array_remove(arr, (size_t)here);
    }
    if (!dir_entry_matches(q, e, lk, lv)) continue;
    json_t *item = json_copy(e);
    json_object_set_new(item, "id", json_string(id));
    json_object_set_new(item, "node", json_string(owner));
    json_array_append_new(arr, item);
  }
  json_decref(dir);
}

void hg__api_h_members(hg_call *c) {
  hg_api *api = c->api;
  if (api->have_peers) {
    json_t *m = api->peers.members(api->peers.ud);
    hg__api_call_json(c, 200, hg__api_wrap_list(m ? m : json_array(), "members"), NULL);
    return;
  }
  hg__api_call_json(c, 200,
                    json_pack("{s:[{s:s,s:s,s:b}]}", "members", "id", api->node_id,
                              "state", "alive", "self", 1),
                    NULL);
}

void hg__api_h_decommission(hg_call *c) {
  hg_api *api = c->api;
  if (!api->have_peers) {
    hg__api_call_error(c, -ENOENT, "no cluster: %s is not a member", c->p.node);
    return;
  }
  int rc = api->peers.decommission(api->peers.ud, c->p.node);
  if (rc < 0) {
    hg__api_call_fail(c, rc, c->p.node);
    return;
  }
  hg_log_info("api.decommission", "node=%s", c->p.node);
  hg__api_call_respond(c, 204, NULL, NULL, NULL, 0);
}

/* GET /v1/cluster/sandboxes on a node alone: its own sandboxes, shaped as
 * directory entries. */
static void a_directory_local(hg_call *c) {
  json_t *o = json_array();
  size_t i;
  json_t *sb;
  json_array_foreach(json_items(c->out, "sandboxes"), i, sb) {
    json_t *st = json_object_get(sb, "state");
    json_array_append_new(o, json_pack("{s:O,s:s,s:O}", "sandbox", json_object_get(sb, "id"), "owner",
                                       c->api->node_id, "state", st ? st : json_null()));
  }
  json_decref(c->out);
  c->out = NULL;
  hg__api_call_json(c, 200, json_pack("{s:o}", "sandboxes", o), NULL);
}

void hg__api_h_directory(hg_call *c) {
  hg_api *api = c->api;
  if (!api->have_peers) {
    hg__api_call_inline(c, hg__api_w_list, a_directory_local);
    return;
  }
  json_t *d = api->peers.directory(api->peers.ud);
  hg__api_call_json(c, 200, hg__api_wrap_list(d ? d : json_array(), "sandboxes"), NULL);
}

/* GET …/replicas: asks every holder (a worker: peers answer over the
 * replication port). */
static void w_replicas(hg_call *c) {
  char msg[256] = "";
  c->rc = hg_replicator_replicas(c->api->rp, c->p.id, &c->out, msg);
  if (c->rc < 0) snprintf(c->msg, sizeof c->msg, "%s", msg[0] ? msg : hg_err_str(c->rc));
}

static void a_replicas(hg_call *c) {
  if (c->rc < 0) {
    hg__api_call_error(c, c->rc, "%s", c->msg);
    return;
  }
  json_t *o = c->out;
  c->out = NULL;
  hg__api_call_json(c, 200, o, NULL);
}

void hg__api_h_replicas(hg_call *c) {
  if (!c->api->rp) {
    hg__api_call_error(c, -ENOENT, "replication is off on this node");
    return;
  }
  hg__api_call_queue(c, w_replicas, a_replicas);
}
