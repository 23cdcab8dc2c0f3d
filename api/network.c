/* A sandbox as the gateway sees it: egress policy, egress log, HTTP into
 * its ports. */
#include "api/api_internal.h"

/* ---- network ---------------------------------------------------------------------
 * A sandbox as the gateway sees it (DESIGN §11): its egress policy, its
 * egress log, and HTTP into its ports. Gateway calls block a few ms (it
 * answers from its own thread), so they run on the pool. Without a gateway
 * (hangard --no-network) these routes answer 404. */

#define HG_API_PORT_TIMEOUT_MS 120000 /* a guest's whole HTTP answer */

static bool net_on(hg_call *c) {
  if (c->api->gw) return true;
  hg__api_call_error(c, -ENOENT, "networking is off on this node");
  return false;
}

/* 404 for a sandbox this node does not have (in-memory: see hg__api_call_inline). */
static int net_sandbox(hg_call *c, json_t **desc) {
  json_t *d = NULL;
  int rc = hg_sandbox_describe(c->api->m, c->p.id, &d);
  if (rc == 0 && desc) *desc = d;
  else json_decref(d);
  return rc;
}

static void w_net_get(hg_call *c) {
  c->rc = net_sandbox(c, NULL);
  if (c->rc < 0) return;
  c->rc = hg_gateway_get_policy(c->api->gw, c->p.id, &c->out);
  if (c->rc == -ENOENT) c->rc = 0; /* the gateway never heard of it: no policy */
}

static void a_net(hg_call *c) {
  if (c->rc < 0) {
    hg__api_call_fail(c, c->rc, c->p.id);
    return;
  }
  json_t *o = c->out;
  c->out = NULL;
  if (!json_is_object(o)) { /* none: no egress, the same as an empty allowlist */
    json_decref(o);
    o = json_pack("{s:[],s:[]}", "allow", "credentials");
  }
  hg__api_call_json(c, 200, o, NULL);
}

void hg__api_h_net_get(hg_call *c) {
  if (net_on(c)) hg__api_call_queue(c, w_net_get, a_net);
}

static void net_put_cleanup(hg_call *c) {
  if (c->u.policy) hg_policy_free(c->u.policy);
}

static void w_net_put(hg_call *c) {
  c->rc = net_sandbox(c, NULL);
  if (c->rc == 0) c->rc = hg_gateway_set_policy(c->api->gw, c->p.id, c->u.policy);
  if (c->rc == 0) c->out = hg_policy_json(c->u.policy, true);
}

void hg__api_h_net_put(hg_call *c) {
  char err[256] = "";
  if (!net_on(c)) return;
  c->cleanup = net_put_cleanup;
  if (hg_policy_parse(c->body, &c->u.policy, err) < 0) {
    c->u.policy = NULL;
    hg__api_call_error(c, -EINVAL, "%s", err[0] ? err : "invalid policy");
    return;
  }
  hg__api_call_queue(c, w_net_put, a_net);
}

static void w_egress_log(hg_call *c) {
  c->rc = net_sandbox(c, NULL);
  if (c->rc == 0) c->out = hg_gateway_egress_log(c->api->gw, c->p.id);
}

static void a_egress_log(hg_call *c) {
  if (c->rc < 0) {
    hg__api_call_fail(c, c->rc, c->p.id);
    return;
  }
  hg__api_a_list(c, "entries");
}

void hg__api_h_egress_log(hg_call *c) {
  if (net_on(c)) hg__api_call_queue(c, w_egress_log, a_egress_log);
}

/* The guest's request target: the raw target past "/v1/sandboxes/{id}/
 * ports/{port}" (still percent-encoded, query and all), "/" at least. */
static char *port_target(const char *raw) {
  const char *p = raw;
  for (int seg = 0; seg < 5 && p && *p == '/'; seg++) p += 1 + strcspn(p + 1, "/?");
  if (!p || (*p && *p != '/' && *p != '?')) return NULL;
  char *t = NULL;
  return asprintf(&t, "%s%s", *p == '/' ? "" : "/", p) < 0 ? NULL : t;
}

/* Running, with a NIC and its namespace: else -EBUSY (409), the reason
 * in c->msg. */
static int port_ready(hg_call *c, json_t *d) {
  const char *st = json_string_value(json_object_get(d, "state"));
  if (!st || strcmp(st, "running") != 0) {
    snprintf(c->msg, HG_API_MSG, "sandbox %s is %s, not running", c->p.id, st ? st : "unknown");
    return -EBUSY;
  }
  if (!json_is_true(json_object_get(d, "nic"))) {
    snprintf(c->msg, HG_API_MSG, "sandbox %s has no network device (its template was built "
             "without one)", c->p.id);
    return -EBUSY;
  }
  return 0;
}

static void w_port(hg_call *c) {
  hg_port *pt = &c->u.port;
  json_t *d = NULL;
  int fd = -1;
  int rc = net_sandbox(c, &d);
  if (rc == 0) rc = port_ready(c, d);
  json_decref(d);
  if (rc == 0) {
    rc = hg_gateway_connect_guest(c->api->gw, c->p.id, c->p.port, &fd);
    if (rc == -ENOENT) {
      snprintf(c->msg, HG_API_MSG, "sandbox %s has no network namespace on this node", c->p.id);
      rc = -EBUSY;
    }
  }
  if (rc == 0) {
    pt->connected = true;
    hg_inbound_req r = {.method = c->req->method, .target = pt->target,
                        .headers = c->req->headers, .nheaders = c->req->nheaders,
                        .body = c->req->body, .body_len = c->req->body_len};
    rc = hg_inbound_exchange(fd, &r, HG_API_MAX_UPLOAD, HG_API_PORT_TIMEOUT_MS, &pt->resp);
    close(fd);
  }
  c->rc = rc;
}

static void a_port(hg_call *c) {
  hg_port *pt = &c->u.port;
  unsigned port = c->p.port;
  switch (c->rc) {
  case 0:
    break;
  case -EBUSY:
    hg__api_call_error(c, -EBUSY, "%s", c->msg);
    return;
  case -ECONNREFUSED:
    hg__api_call_error(c, -ECONNREFUSED, "nothing listens on port %u in sandbox %s", port,
                       c->p.id);
    return;
  case -ETIMEDOUT:
    if (!pt->connected)
      hg__api_call_error(c, -ETIMEDOUT, "connecting to port %u in sandbox %s timed out",
                         port, c->p.id);
    else
      hg__api_call_error(c, -ETIMEDOUT,
                         "port %u in sandbox %s did not answer within %d s", port,
                         c->p.id, HG_API_PORT_TIMEOUT_MS / 1000);
    return;
  case -ENOBUFS:
    hg__api_call_error(c, -EPROTO,
                       "the answer of port %u in sandbox %s is larger than %u bytes",
                       port, c->p.id, HG_API_MAX_UPLOAD);
    return;
  case -EPROTO:
  case -EPIPE:
  case -ECONNRESET:
    hg__api_call_error(c, -EPROTO, "port %u in sandbox %s sent no valid HTTP answer",
                       port, c->p.id);
    return;
  default:
    hg__api_call_fail(c, c->rc, c->p.id);
    return;
  }
  if (hg_buf_append(&pt->resp.headers, "", 1) < 0) {
    hg__api_call_fail(c, -ENOMEM, c->p.id);
    return;
  }
  hg_inbound_resp *r = &pt->resp;
  hg__api_call_respond(c, r->status, r->content_type[0] ? r->content_type : NULL,
                       r->headers.data, r->body.data ? r->body.data : "", r->body.len);
}

static void port_cleanup(hg_call *c) {
  free(c->u.port.target);
  hg_inbound_resp_free(&c->u.port.resp);
}

void hg__api_h_port(hg_call *c) {
  hg_port *pt = &c->u.port;
  if (!net_on(c)) return;
  c->cleanup = port_cleanup;
  hg_buf_init(&pt->resp.headers, HG_INBOUND_MAX_HEAD);
  hg_buf_init(&pt->resp.body, HG_API_MAX_UPLOAD);
  pt->target = port_target(c->req->target);
  if (!pt->target) {
    hg__api_call_error(c, -EINVAL,
                       "the request target must be a path: /v1/sandboxes/%s/ports/%u/…",
                       c->p.id, (unsigned)c->p.port);
    return;
  }
  if (!hg__api_call_hold(c)) return; /* a slow guest holds the worker */
  hg__api_call_queue(c, w_port, a_port);
}
