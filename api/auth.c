/* Tokens the API knows (output tokens, sandbox tokens seen valid) and the
 * auth decision of every route's scope. */
#include "api/api_internal.h"

/* ---- tokens ------------------------------------------------------------------
 * A small hash table (chained through indices) over a ring of slots: when
 * the ring wraps, the oldest token is forgotten. Lookups compare secrets
 * with hg_secret_equal; the bucket a token falls in is keyed by a random
 * seed, so its timing tells nothing about stored tokens. */

static int tok_bucket(const hg_api *api, const char *t) {
  uint64_t h = 1469598103934665603ull ^ api->tok_seed;
  for (; *t; t++) {
    h ^= (unsigned char)*t;
    h *= 1099511628211ull;
  }
  return (int)(h % HG_API_TOKEN_BUCKETS);
}

const hg_tok *hg__api_tok_find(const hg_api *api, const char *token) {
  for (int i = api->buckets[tok_bucket(api, token)]; i != -1; i = api->toks[i].next)
    if (hg_secret_equal(api->toks[i].token, token)) return &api->toks[i];
  return NULL;
}

void hg__api_tok_unlink(hg_api *api, int i) {
  hg_tok *t = &api->toks[i];
  int *pp = &api->buckets[tok_bucket(api, t->token)];
  while (*pp != -1 && *pp != i) pp = &api->toks[*pp].next;
  if (*pp == i) *pp = t->next;
  t->kind = TOK_FREE;
}

void hg__api_tok_put(hg_api *api, hg_tok_kind kind, const char *token,
                     const char *sandbox, uint64_t cid, int pid) {
  if (!*token || strlen(token) > HG_API_TOKEN_HEX || hg__api_tok_find(api, token)) return;
  int i = api->tok_next;
  api->tok_next = (i + 1) % HG_API_TOKENS;
  if (api->toks[i].kind != TOK_FREE) hg__api_tok_unlink(api, i);
  hg_tok *t = &api->toks[i];
  t->kind = kind;
  snprintf(t->token, sizeof t->token, "%s", token);
  snprintf(t->sandbox, sizeof t->sandbox, "%s", sandbox);
  t->cid = cid;
  t->pid = pid;
  int b = tok_bucket(api, token);
  t->next = api->buckets[b];
  api->buckets[b] = i;
}

/* The pid of a command started through this daemon, or 0. */
int hg__api_tok_pid(const hg_api *api, const char *sandbox, uint64_t cid) {
  for (int i = 0; i < HG_API_TOKENS; i++) {
    const hg_tok *t = &api->toks[i];
    if (t->kind == TOK_OUTPUT && t->cid == cid && !strcmp(t->sandbox, sandbox))
      return t->pid;
  }
  return 0;
}

/* After a delete: its sandbox and output tokens mean nothing any more. */
void hg__api_tok_forget_sandbox(hg_api *api, const char *sandbox) {
  for (int i = 0; i < HG_API_TOKENS; i++)
    if (api->toks[i].kind != TOK_FREE && !strcmp(api->toks[i].sandbox, sandbox))
      hg__api_tok_unlink(api, i);
}

int hg__api_token_new(char out[HG_API_TOKEN_HEX + 1]) {
  unsigned char raw[HG_API_TOKEN_HEX / 2];
  int rc = hg_random_bytes(raw, sizeof raw);
  if (rc < 0) return rc;
  hg_hex_encode(raw, sizeof raw, out);
  return 0;
}

/* ---- auth ----------------------------------------------------------------------
 * 401: no credentials, or ones that are nothing we know. 403: credentials
 * we know to be valid (a sandbox token we have seen accepted, an output
 * token we issued) used for something they do not grant. hangar cannot look
 * a sandbox token up by its secret, so a sandbox token not seen since this
 * daemon started reads 401 on a route it does not grant. */

/* Everything decidable on the loop thread. Returns AUTH_OK, HG_API_EUNAUTH,
 * HG_API_EFORBID, or AUTH_CHECK: the manager must tell whether cred is the
 * token of the sandbox concerned ({id}, the operation's, or qsb). */
int hg__api_auth_decide(const hg_api *api, hg_scope scope, const hg_params *p,
                        const char *qsb, const char *cred, bool *admin) {
  *admin = false;
  if (scope == SCOPE_PUBLIC) return AUTH_OK;
  if (!cred || !*cred) return HG_API_EUNAUTH;
  if (hg_secret_equal(cred, api->admin_key)) {
    *admin = true;
    return AUTH_OK;
  }
  const hg_tok *t = hg__api_tok_find(api, cred);
  bool output = t && t->kind == TOK_OUTPUT;
  if (scope == SCOPE_OUTPUT && output)
    return !strcmp(t->sandbox, p->id) && t->cid == p->cid ? AUTH_OK : HG_API_EFORBID;
  if (output) return HG_API_EFORBID; /* output tokens grant nothing else */
  switch (scope) {
  case SCOPE_OUTPUT:
  case SCOPE_SANDBOX:
    return t && strcmp(t->sandbox, p->id) ? HG_API_EFORBID : AUTH_CHECK;
  case SCOPE_OP:
    return AUTH_CHECK;
  case SCOPE_OPLIST:
    if (!qsb[0] || (t && strcmp(t->sandbox, qsb))) return t ? HG_API_EFORBID : HG_API_EUNAUTH;
    return AUTH_CHECK;
  default:
    return t ? HG_API_EFORBID : HG_API_EUNAUTH;
  }
}

/* The Bearer credential, or on the output route also ?token=. */
void hg__api_cred_parse(const hg_http_req *req, const hg_route *rt, const hg_params *p,
                        char out[HG_API_TOKEN_MAX + 1]) {
  const char *h = hg_http_header_get(req, "authorization");
  out[0] = '\0';
  if (h) {
    if (strncasecmp(h, "Bearer ", 7) != 0) return;
    h += 7;
    while (*h == ' ') h++;
    size_t n = strlen(h);
    while (n && (h[n - 1] == ' ' || h[n - 1] == '\t')) n--;
    if (n <= HG_API_TOKEN_MAX) {
      memcpy(out, h, n);
      out[n] = '\0';
    }
    return;
  }
  /* E2B's clients: X-API-KEY on its control API, X-Access-Token on envd,
   * and on those routes only: hangar's own take Authorization alone, so a
   * proxy that strips Authorization in front of /v1 is not bypassed. */
  const char *k = NULL;
  if (hg__api_route_e2b(rt)) k = hg_http_header_get(req, "x-api-key");
  else if (hg__api_route_envd(rt)) k = hg_http_header_get(req, "x-access-token");
  /* E2B's "<sandbox id>.<token>": the token, when it names the sandbox
   * the request is for; one naming another stays whole, which is nobody's
   * token (refused where the sandbox is). */
  char named[HG_ID_MAX];
  const char *secret;
  if (k && hg__api_route_envd(rt) && hg__api_envd_token_split(k, named, &secret) == 0 &&
      !strcmp(named, p->id))
    k = secret;
  if (k && strlen(k) <= HG_API_TOKEN_MAX) {
    memcpy(out, k, strlen(k) + 1);
    return;
  }
  if (rt->scope == SCOPE_OUTPUT &&
      hg_http_query_get(req, "token", out, HG_API_TOKEN_MAX + 1) < 0)
    out[0] = '\0';
}

/* A signed forward's credential is its identity (set at its head), never
 * its Authorization: the forwarder dropped the client's, and a peer's
 * "admin" stands for the admin key it checked. */
void hg__api_cred_get(hg_call *c) {
  if (!c->peer) {
    hg__api_cred_parse(c->req, c->rt, &c->p, c->cred);
  } else if (c->peer_admin) {
    snprintf(c->cred, sizeof c->cred, "%s", c->api->admin_key);
  } else if (!c->cred[0] && c->rt->scope == SCOPE_OUTPUT &&
             hg_http_query_get(c->req, "token", c->cred, sizeof c->cred) < 0) {
    c->cred[0] = '\0';
  }
}
