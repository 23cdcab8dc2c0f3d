/* replicator: ties the manager, the cluster and the replication service
 * together (see replicator.h). Sends run on the calling worker (one thread
 * per peer, joined before returning); the keeper runs on a thread of its
 * own and only ever does one thing at a time, so a slow peer delays the
 * keeper's next pass, never an API call. */
#include "replication/replicator.h"

#include <dirent.h>
#include <errno.h>
#include <inttypes.h>
#include <openssl/crypto.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "node/core/err.h"
#include "node/core/guard.h"
#include "node/core/log.h"
#include "node/core/util.h"

#define RP_TICK_MS 2000
#define RP_RETRY_MS 10000  /* a sandbox whose replication failed waits this long */
#define RP_INFLIGHT_MS (10 * 60 * 1000) /* the keeper leaves a sandbox being sent alone */
#define RP_ASK_LIVE_MS (10 * 60 * 1000) /* a forgotten replica the group says lives: ask again */
#define RP_ASK_AFTER_MS 15000 /* after start: the directory has come by push-pull */
#define RP_ASK_PER_TICK 8     /* each ask may block for seconds */
#define RP_BUSY_TRIES 25   /* a peer busy receiving the same sandbox: retries, */
#define RP_BUSY_WAIT_MS 200 /* this far apart (the other exchange may bring it) */
#define RP_PEERS_MAX 64
#define RP_BACKOFF_MAX 4096
#define RP_PUSHED_MAX 4096
#define RP_SB_JSON_MAX (1024 * 1024)

typedef struct backoff {
  char key[HG_NODE_ID_MAX + HG_REPL_NAME_MAX + 8];
  int64_t until_ms;
} backoff;

struct hg_replicator {
  hg_replicator_config cfg;
  /* The cluster, until hg_replicator_detach: every use holds the guard,
   * so the cluster can be closed while workers are still replicating. */
  hg_guard cl;
  char node_id[HG_NODE_ID_MAX];
  int64_t started_ms;
  pthread_t keeper;
  pthread_mutex_t mu;  /* stop flag, backoff table */
  pthread_cond_t cv;
  bool stopping;
  backoff *backoffs;
  size_t nbackoffs;
};

/* ---- the cluster, while attached ---------------------------------------------- */

/* r = call, made with cl the attached cluster, between the guard's enter
 * and leave; gone once the cluster is detached. One guard dance for every
 * call below. */
#define CL_GUARDED(rp, r, gone, call)            \
  do {                                           \
    hg_cluster *cl = hg_guard_enter(&(rp)->cl); \
    (r) = cl ? (call) : (gone);                  \
    hg_guard_leave(&(rp)->cl);                   \
  } while (0)

static int cl_dir_get(hg_replicator *rp, const char *id, hg_dirent *e) {
  int rc;
  CL_GUARDED(rp, rc, -ESHUTDOWN, hg_cluster_dir_get(cl, id, e));
  return rc;
}

static int cl_dir_update(hg_replicator *rp, const char *id, hg_cluster_dir_fn fn, void *arg) {
  int rc;
  CL_GUARDED(rp, rc, -ESHUTDOWN, hg_cluster_dir_update(cl, id, fn, arg));
  return rc;
}

static int cl_peer_get(hg_replicator *rp, const char *node, hg_cluster_peer *p) {
  int rc;
  CL_GUARDED(rp, rc, -ESHUTDOWN, hg_cluster_peer_get(cl, node, p));
  return rc;
}

static size_t cl_peers(hg_replicator *rp, hg_cluster_peer *out, size_t cap) {
  size_t n;
  CL_GUARDED(rp, n, 0, hg_cluster_peers(cl, out, cap));
  return n;
}

static size_t cl_targets(hg_replicator *rp, const char *id, const char *const *excl, size_t nexcl,
                         size_t n, hg_cluster_peer *out) {
  size_t k;
  CL_GUARDED(rp, k, 0, hg_cluster_replica_targets(cl, id, excl, nexcl, n, out));
  return k;
}

/* ---- small lookups ------------------------------------------------------------ */

static bool is_self(const hg_replicator *rp, const char *node) {
  return strcmp(node, rp->node_id) == 0;
}

/* Our newest generation of id: 0 and gen/rel set, or -ENOENT. */
static int newest_holding(hg_replicator *rp, const char *id, uint64_t *gen, char rel[256]) {
  return hg_repl_newest(rp->cfg.repl, id, gen, rel, 256);
}

static bool peer_alive(hg_replicator *rp, const char *node, hg_cluster_peer *out) {
  hg_cluster_peer p;
  if (cl_peer_get(rp, node, &p) < 0 || !p.alive || p.suspect) return false;
  if (out) *out = p;
  return true;
}

static void target_of(const hg_cluster_peer *p, hg_repl_target *t) {
  snprintf(t->node, sizeof t->node, "%s", p->id);
  snprintf(t->addr, sizeof t->addr, "%s", p->repl_addr);
}

/* ---- the backoff table: "try again later" per key ---------------------------------- */

static bool backoff_active(hg_replicator *rp, const char *key) {
  int64_t now = hg_now_ms();
  bool active = false;
  pthread_mutex_lock(&rp->mu);
  for (size_t i = 0; i < rp->nbackoffs; i++)
    if (!strcmp(rp->backoffs[i].key, key)) active = rp->backoffs[i].until_ms > now;
  pthread_mutex_unlock(&rp->mu);
  return active;
}

/* until_ms 0 clears the key. */
static void backoff_set(hg_replicator *rp, const char *key, int64_t until_ms) {
  pthread_mutex_lock(&rp->mu);
  size_t i = 0;
  while (i < rp->nbackoffs && strcmp(rp->backoffs[i].key, key)) i++;
  if (i == rp->nbackoffs && until_ms && rp->nbackoffs < RP_BACKOFF_MAX) {
    backoff *b = realloc(rp->backoffs, (rp->nbackoffs + 1) * sizeof *b);
    if (b) {
      rp->backoffs = b;
      snprintf(b[i].key, sizeof b[i].key, "%s", key);
      rp->nbackoffs++;
    }
  }
  if (i < rp->nbackoffs) {
    if (until_ms) rp->backoffs[i].until_ms = until_ms;
    else rp->backoffs[i] = rp->backoffs[--rp->nbackoffs];
  }
  pthread_mutex_unlock(&rp->mu);
}

/* ---- the directory ------------------------------------------------------------------- */

typedef struct holders_add {
  const char *self;
  uint64_t epoch, gen;
  bool publish; /* a checkpoint's: the entry moves up to gen, with exactly these holders */
  const char (*nodes)[HG_NODE_ID_MAX];
  size_t n;
} holders_add;

/* Under the directory's lock (hg_cluster_dir_update). */
static int holders_add_apply(void *arg, hg_dirent *e, bool exists) {
  const holders_add *h = arg;
  bool changed = false;
  if (exists && h->publish && !strcmp(e->owner, h->self) && e->epoch == h->epoch &&
      e->gen < h->gen) {
    e->gen = h->gen;
    e->nholders = 0;
    changed = true;
  }
  if (!exists || strcmp(e->owner, h->self) || e->epoch != h->epoch || e->gen != h->gen)
    return 0;
  for (size_t i = 0; i < h->n; i++) {
    bool have = false;
    for (unsigned k = 0; k < e->nholders; k++) have |= !strcmp(e->holders[k], h->nodes[i]);
    if (have || e->nholders == HG_DIR_HOLDERS) continue;
    snprintf(e->holders[e->nholders++], sizeof e->holders[0], "%s", h->nodes[i]);
    changed = true;
  }
  if (!changed) return 0;
  e->updated_ms = hg_wall_ns() / 1000000;
  return 1;
}

/* Adds nodes that acknowledged gen to the entry's holders, if the entry is
 * still ours at that epoch and generation. One atomic update: a state
 * change the manager publishes meanwhile keeps them, and they keep it. */
static void dir_add_holders(hg_replicator *rp, const char *id, uint64_t epoch, uint64_t gen,
                            bool publish, const char (*nodes)[HG_NODE_ID_MAX], size_t n) {
  holders_add h = {.self = rp->node_id, .epoch = epoch, .gen = gen, .publish = publish,
                   .nodes = nodes, .n = n};
  int rc = cl_dir_update(rp, id, holders_add_apply, &h);
  if (rc < 0 && rc != -ESHUTDOWN)
    hg_log_warn("repl.dir_put", "sandbox=%s err=\"%s\"", id, hg_err_str(rc));
}

/* ---- sending one generation to several peers at once --------------------------------- */

typedef struct push_group push_group;

typedef struct push {
  push_group *g;
  hg_repl_target t;
  hg_repl_result res;
  _Atomic uint64_t sent; /* compressed bytes so far */
  pthread_t th;
  bool started;
} push;

struct push_group {
  hg_replicator *rp;
  const char *id, *tpl;
  uint64_t epoch, gen;
  push *p;
  size_t n;
  void (*progress)(void *pud, const char *text);
  void *pud;
};

static void group_progress(void *ud, const hg_stream_stats *st) {
  push *p = ud;
  push_group *g = p->g;
  atomic_store(&p->sent, st->zstd_bytes);
  if (!g->progress) return;
  uint64_t total = 0;
  for (size_t i = 0; i < g->n; i++) total += atomic_load(&g->p[i].sent);
  char text[160];
  snprintf(text, sizeof text, "replicating gen %" PRIu64 " to %zu peer%s: %.1f MiB sent", g->gen,
           g->n, g->n == 1 ? "" : "s", (double)total / 1048576.0);
  g->progress(g->pud, text);
}

static void *push_main(void *arg) {
  push *p = arg;
  push_group *g = p->g;
  for (int i = 0; i < RP_BUSY_TRIES; i++) {
    if (i) usleep(RP_BUSY_WAIT_MS * 1000);
    if (hg_repl_send_gen(g->rp->cfg.repl, &p->t, g->id, g->epoch, g->gen, g->tpl, group_progress,
                         p, &p->res) != -EBUSY)
      break;
  }
  return NULL;
}

/* Sends to every target in parallel; returns how many acknowledged. */
static size_t push_all(push_group *g) {
  for (size_t i = 0; i < g->n; i++) {
    g->p[i].g = g;
    g->p[i].started = pthread_create(&g->p[i].th, NULL, push_main, &g->p[i]) == 0;
    if (!g->p[i].started) push_main(&g->p[i]); /* no thread: in turn */
  }
  size_t acked = 0;
  for (size_t i = 0; i < g->n; i++) {
    if (g->p[i].started) pthread_join(g->p[i].th, NULL);
    if (g->p[i].res.rc == 0) acked++;
  }
  return acked;
}

static json_t *push_json(const push *p) {
  const hg_repl_result *r = &p->res;
  char parent[32];
  if (r->had) snprintf(parent, sizeof parent, "had");
  else if (r->parent_template) snprintf(parent, sizeof parent, "template");
  else if (r->parent_gen) snprintf(parent, sizeof parent, "gen %" PRIu64, r->parent_gen);
  else snprintf(parent, sizeof parent, "full");
  json_t *o = json_pack("{s:s,s:s,s:I,s:I,s:f,s:f}", "node", p->t.node, "parent", parent,
                        "raw_bytes", (json_int_t)r->raw_bytes, "zstd_bytes",
                        (json_int_t)r->zstd_bytes, "ratio",
                        r->zstd_bytes ? (double)r->raw_bytes / (double)r->zstd_bytes : 0.0,
                        "ms", r->ms);
  if (o && r->rc < 0)
    json_object_set_new(o, "error", json_pack("{s:s,s:s}", "code",
                                              r->code[0] ? r->code : hg_err_classify(r->rc).code,
                                              "message",
                                              r->message[0] ? r->message : hg_err_str(r->rc)));
  return o;
}

/* Sends gen to n targets and records who acknowledged it; publish (a
 * checkpoint's gen): the entry moves up to gen with them, if any did. */
static size_t replicate_to(hg_replicator *rp, const char *id, const hg_sb_info *info,
                           uint64_t gen, const hg_cluster_peer *targets, size_t n,
                           void (*progress)(void *, const char *), void *pud, json_t *peers_out,
                           bool publish, char msg[256]) {
  push_group g = {.rp = rp, .id = id, .tpl = info->tpl_dir, .epoch = info->epoch, .gen = gen,
                  .n = n, .progress = progress, .pud = pud};
  g.p = calloc(n ? n : 1, sizeof *g.p);
  if (!g.p) return 0;
  for (size_t i = 0; i < n; i++) target_of(&targets[i], &g.p[i].t);
  size_t acked = push_all(&g);
  char (*ok)[HG_NODE_ID_MAX] = calloc(n ? n : 1, sizeof *ok);
  size_t nok = 0;
  for (size_t i = 0; i < n; i++) {
    const hg_repl_result *r = &g.p[i].res;
    if (peers_out) json_array_append_new(peers_out, push_json(&g.p[i]));
    if (r->rc == 0 && ok) snprintf(ok[nok++], HG_NODE_ID_MAX, "%s", g.p[i].t.node);
    if (r->rc < 0 && msg && !msg[0])
      snprintf(msg, 256, "%.63s: %.180s", g.p[i].t.node, r->message[0] ? r->message : hg_err_str(r->rc));
  }
  if (ok && nok)
    dir_add_holders(rp, id, info->epoch, gen, publish, (const char(*)[HG_NODE_ID_MAX])ok, nok);
  free(ok);
  free(g.p);
  return acked;
}

/* Holders of gen in the directory that are alive now. */
static size_t alive_holders(hg_replicator *rp, const char *id, uint64_t gen,
                            char (*out)[HG_NODE_ID_MAX], size_t cap) {
  hg_dirent e;
  size_t n = 0;
  if (cl_dir_get(rp, id, &e) < 0 || e.gen != gen) return 0;
  for (unsigned i = 0; i < e.nholders && n < cap; i++)
    if (!is_self(rp, e.holders[i]) && peer_alive(rp, e.holders[i], NULL))
      snprintf(out[n++], HG_NODE_ID_MAX, "%s", e.holders[i]);
  return n;
}

void hg_replicator_keep_off(hg_replicator *rp, const char *id, bool on) {
  backoff_set(rp, id, on ? hg_now_ms() + RP_INFLIGHT_MS : 0);
}

/* A new generation to the sandbox's holders; a checkpoint's is advertised
 * (the directory entry moves up to it) only once a holder has it. */
static int after_gen(hg_replicator *rp, const char *id, uint64_t gen, const char *durability,
                     bool checkpoint, void (*progress)(void *pud, const char *text), void *pud,
                     json_t **report, char msg[256]) {
  hg_sb_info info;
  int rc = hg_sandbox_info(rp->cfg.manager, id, &info);
  if (rc < 0) return rc;
  size_t wanted = info.replicas > 1 ? info.replicas - 1 : 0;
  bool local = durability && !strcmp(durability, "local");
  hg_cluster_peer targets[HG_DIR_HOLDERS];
  size_t n = 0;
  if (!local && wanted)
    n = cl_targets(rp, id, NULL, 0,
                                   wanted < HG_DIR_HOLDERS ? wanted : HG_DIR_HOLDERS, targets);
  /* The default is "replicated" when a peer can hold a copy. */
  if (!durability && n == 0) local = true;
  int64_t t0 = hg_now_ns();
  json_t *peers = json_array();
  size_t acked = 0;
  if (local) {
    backoff_set(rp, id, 0); /* the keeper copies it in the background */
  } else {
    backoff_set(rp, id, hg_now_ms() + RP_INFLIGHT_MS); /* not the keeper too, at once */
    /* wanted but none acked: a checkpoint stays unadvertised */
    acked = replicate_to(rp, id, &info, gen, targets, n, progress, pud, peers, checkpoint, msg);
    backoff_set(rp, id, acked >= wanted ? 0 : hg_now_ms() + RP_RETRY_MS);
  }
  double ms = (double)(hg_now_ns() - t0) / 1e6;
  *report = json_pack("{s:s,s:I,s:I,s:f,s:o}", "durability", local ? "local" : "replicated",
                      "wanted", (json_int_t)(local ? 0 : wanted), "acked", (json_int_t)acked,
                      "ms", ms, "peers", peers);
  if (checkpoint && local) dir_add_holders(rp, id, info.epoch, gen, true, NULL, 0);
  if (local || acked >= wanted) return 0;
  char why[256];
  snprintf(why, sizeof why, "%s", msg[0] ? msg : "no compatible live peer to hold a copy");
  snprintf(msg, 256, "gen %" PRIu64 " is %s here, but %zu of %zu peers acknowledged it (%.150s)",
           gen, checkpoint ? "checkpointed" : "suspended", acked, wanted, why);
  return -EREMOTEIO;
}

int hg_replicator_after_suspend(hg_replicator *rp, const char *id, uint64_t gen,
                                const char *durability,
                                void (*progress)(void *pud, const char *text), void *pud,
                                json_t **report, char msg[256]) {
  return after_gen(rp, id, gen, durability, false, progress, pud, report, msg);
}

int hg_replicator_after_checkpoint(hg_replicator *rp, const char *id, uint64_t gen,
                                   json_t **report, char msg[256]) {
  return after_gen(rp, id, gen, NULL, true, NULL, NULL, report, msg);
}

/* ---- moving a sandbox here ------------------------------------------------------------ */

/* The group (and epoch) recorded in a generation's sandbox.json: who to
 * claim from, above what. */
static void holding_group(hg_replicator *rp, const char *rel, hg_sb_lease *view) {
  char path[4096];
  char *text = NULL;
  size_t len = 0;
  if (hg_store_abs(rp->cfg.store, rel, path, sizeof path) < 0 ||
      hg_path(path + strlen(path), sizeof path - strlen(path), "/sandbox.json") < 0 ||
      hg_read_file(path, RP_SB_JSON_MAX, &text, &len) < 0)
    return;
  json_t *j = json_loadb(text, len, 0, NULL);
  free(text);
  /* The generation's own epoch: the view is the highest known. */
  json_t *ep = json_object_get(j, "epoch");
  if (json_is_integer(ep) && json_integer_value(ep) > 0 &&
      (uint64_t)json_integer_value(ep) > view->epoch)
    view->epoch = (uint64_t)json_integer_value(ep);
  json_t *g = json_object_get(j, "group");
  for (size_t i = 0; i < json_array_size(g) && view->ngroup < HG_SB_GROUP_MAX; i++) {
    const char *id = json_string_value(json_array_get(g, i));
    if (id && hg_node_id_valid(id))
      snprintf(view->group[view->ngroup++], HG_NODE_ID_MAX, "%s", id);
  }
  json_decref(j);
}

int hg_replicator_move_view(hg_replicator *rp, const char *id, hg_sb_lease *view,
                            char msg[256]) {
  hg_dirent e;
  hg_sb_info local;
  memset(view, 0, sizeof *view);
  bool have_e = cl_dir_get(rp, id, &e) == 0;
  bool have_local = hg_sandbox_info(rp->cfg.manager, id, &local) == 0;
  if (have_local && (!have_e || is_self(rp, e.owner) || local.epoch >= e.epoch)) return 0;
  /* Running on a live owner: its lease would refuse us anyway, but only
   * after the wait; a dead or suspected one is the lease's to decide. */
  if (have_e && strcmp(e.state, "suspended") && peer_alive(rp, e.owner, NULL)) {
    snprintf(msg, 256, "sandbox %s is %s on node %s: only a suspended sandbox moves", id,
             e.state, e.owner);
    return -EBUSY;
  }
  uint64_t gen = 0;
  char rel[256];
  if (newest_holding(rp, id, &gen, rel) < 0) {
    snprintf(msg, 256, "node %s holds no generation of sandbox %s", rp->node_id, id);
    return -ENODATA;
  }
  if (have_e && gen < e.gen) {
    snprintf(msg, 256, "node %s holds gen %" PRIu64 " of sandbox %s but the newest is gen %" PRIu64,
             rp->node_id, gen, id, e.gen);
    return -ENODATA;
  }
  view->epoch = have_e ? e.epoch : 1;
  if (have_local && local.epoch > view->epoch) view->epoch = local.epoch;
  holding_group(rp, rel, view);
  return 1;
}

/* Under the sandbox's receive key (hg_repl_hold): no receive changes our
 * generations between the pick of the newest and the adopt, and none
 * lists them while a disown of an older copy here moves them. */
static int adopt_held(hg_replicator *rp, const char *id, uint64_t epoch, char msg[256],
                      uint64_t *gen) {
  char rel[256];
  if (newest_holding(rp, id, gen, rel) < 0) {
    snprintf(msg, 256, "node %s holds no generation of sandbox %s", rp->node_id, id);
    return -ENODATA;
  }
  int rc = hg_sandbox_adopt(rp->cfg.manager, id, rel, epoch);
  if (rc < 0)
    snprintf(msg, 256, "adopting sandbox %s from %.120s: %s", id, rel, hg_err_str(rc));
  return rc;
}

int hg_replicator_adopt(hg_replicator *rp, const char *id, uint64_t epoch, char msg[256]) {
  uint64_t gen = 0;
  int rc = hg_repl_hold(rp->cfg.repl, id);
  if (rc < 0) {
    snprintf(msg, 256, "adopting sandbox %s: %s", id, hg_err_str(rc));
    return rc;
  }
  rc = adopt_held(rp, id, epoch, msg, &gen);
  hg_repl_unhold(rp->cfg.repl, id);
  if (rc < 0) return rc;
  hg_log_info("repl.adopted", "sandbox=%s gen=%" PRIu64 " epoch=%" PRIu64, id, gen, epoch);
  return 0;
}

bool hg_replicator_holds(hg_replicator *rp, const char *id) {
  uint64_t gen;
  char rel[256];
  return newest_holding(rp, id, &gen, rel) == 0;
}

bool hg_replicator_token_ok(hg_replicator *rp, const char *id, const char *token) {
  uint64_t gen;
  char rel[256], path[4096];
  if (!token || strlen(token) != 64 || newest_holding(rp, id, &gen, rel) < 0) return false;
  if (hg_store_abs(rp->cfg.store, rel, path, sizeof path) < 0) return false;
  if (hg_path(path + strlen(path), sizeof path - strlen(path), "/sandbox.json") < 0) return false;
  char *text = NULL;
  size_t len = 0;
  if (hg_read_file(path, RP_SB_JSON_MAX, &text, &len) < 0) return false;
  json_t *j = json_loadb(text, len, 0, NULL);
  free(text);
  const char *want = json_string_value(json_object_get(j, "token"));
  bool ok = want && strlen(want) == 64 && json_is_string(json_object_get(j, "id")) &&
            !strcmp(json_string_value(json_object_get(j, "id")), id) &&
            CRYPTO_memcmp(want, token, 64) == 0;
  json_decref(j);
  return ok;
}

/* ---- GET …/replicas --------------------------------------------------------------------- */

static json_t *holdings_json(const hg_repl_holdings *h) {
  json_t *gens = json_array();
  int64_t now = hg_wall_ns() / 1000000;
  for (unsigned i = 0; i < h->n; i++) {
    char at[32];
    hg_iso_time(h->h[i].created_ms, at);
    json_array_append_new(gens, json_pack("{s:I,s:I,s:s,s:I}", "gen", (json_int_t)h->h[i].gen,
                                          "bytes", (json_int_t)h->h[i].bytes, "created_at", at,
                                          "age_s",
                                          (json_int_t)((now - h->h[i].created_ms) / 1000)));
  }
  return gens;
}

static json_t *holder_json(const char *node, bool owner, const char *state,
                           const hg_repl_holdings *h, const char *error) {
  json_t *o = json_pack("{s:s,s:b,s:s}", "node", node, "owner", owner, "state", state);
  if (h) {
    json_object_set_new(o, "epoch", json_integer((json_int_t)h->epoch));
    json_object_set_new(o, "generations", holdings_json(h));
  }
  if (error) json_object_set_new(o, "error", json_string(error));
  return o;
}

int hg_replicator_replicas(hg_replicator *rp, const char *id, json_t **out, char msg[256]) {
  if (!hg_id_valid("sb", id)) {
    snprintf(msg, 256, "not a sandbox id: %.64s", id);
    return -EINVAL;
  }
  hg_dirent e;
  bool have_e = cl_dir_get(rp, id, &e) == 0;
  hg_repl_holdings *h = calloc(1, sizeof *h);
  hg_cluster_peer *peers = calloc(RP_PEERS_MAX, sizeof *peers);
  json_t *holders = json_array();
  if (!h || !peers || !holders) {
    free(h);
    free(peers);
    json_decref(holders);
    return -ENOMEM;
  }
  const char *owner = have_e ? e.owner : "";
  if (hg_repl_local(rp->cfg.repl, id, h) == 0 && h->n)
    json_array_append_new(holders, holder_json(rp->node_id, is_self(rp, owner), "alive", h, NULL));
  size_t np = cl_peers(rp, peers, RP_PEERS_MAX);
  for (size_t i = 0; i < np; i++) {
    hg_repl_target t;
    char err[256] = "";
    if (!peers[i].repl_addr[0]) continue;
    target_of(&peers[i], &t);
    memset(h, 0, sizeof *h);
    int rc = hg_repl_list(rp->cfg.repl, &t, id, h, err, sizeof err);
    const char *state = peers[i].suspect ? "suspect" : "alive";
    if (rc < 0)
      json_array_append_new(holders, holder_json(t.node, !strcmp(owner, t.node), "unreachable",
                                                 NULL, err[0] ? err : hg_err_str(rc)));
    else if (h->n)
      json_array_append_new(holders, holder_json(t.node, !strcmp(owner, t.node), state, h, NULL));
  }
  /* holders the directory names that are not alive: listed as dead */
  for (unsigned i = 0; have_e && i < e.nholders; i++) {
    bool listed = is_self(rp, e.holders[i]);
    for (size_t k = 0; k < np; k++) listed |= !strcmp(peers[k].id, e.holders[i]);
    if (!listed) json_array_append_new(holders, holder_json(e.holders[i], false, "dead", NULL, NULL));
  }
  free(h);
  free(peers);
  if (!have_e && json_array_size(holders) == 0) {
    json_decref(holders);
    snprintf(msg, 256, "no node knows sandbox %s", id);
    return -ENOENT;
  }
  hg_sb_info info;
  unsigned wanted = hg_sandbox_info(rp->cfg.manager, id, &info) == 0 ? info.replicas : 0;
  *out = json_pack("{s:s,s:s,s:I,s:I,s:o}", "sandbox", id, "owner", owner, "epoch",
                   (json_int_t)(have_e ? e.epoch : 0), "gen", (json_int_t)(have_e ? e.gen : 0),
                   "holders", holders);
  if (*out && wanted) json_object_set_new(*out, "replicas", json_integer(wanted));
  return *out ? 0 : -ENOMEM;
}

/* ---- where a resume goes ----------------------------------------------------------------- */

static int forward_to(const hg_cluster_peer *p, char target[64], char addr[64]) {
  snprintf(target, 64, "%s", p->id);
  snprintf(addr, 64, "%s", p->api_addr);
  return 1;
}

int hg_replicator_resume_at(hg_replicator *rp, const char *id, const char *node,
                            char target[64], char addr[64], char msg[256]) {
  hg_cluster_peer p;
  if (node) {
    if (is_self(rp, node)) return 0;
    int rc = cl_peer_get(rp, node, &p);
    if (rc == -ENOENT) snprintf(msg, 256, "no node %.63s in the cluster", node);
    else if (rc < 0 || !p.alive) snprintf(msg, 256, "node %.63s is not alive", node);
    if (rc < 0 || !p.alive) return rc < 0 ? rc : -EHOSTDOWN;
    return forward_to(&p, target, addr);
  }
  hg_dirent e;
  if (cl_dir_get(rp, id, &e) < 0 || is_self(rp, e.owner)) return 0;
  if (peer_alive(rp, e.owner, &p)) return forward_to(&p, target, addr);
  for (unsigned i = 0; i < e.nholders; i++) {
    if (is_self(rp, e.holders[i])) return 0;
    if (peer_alive(rp, e.holders[i], &p)) return forward_to(&p, target, addr);
  }
  snprintf(msg, 256, "sandbox %s: its owner %s is down and no alive node holds gen %" PRIu64, id,
           e.owner, e.gen);
  return -EHOSTUNREACH;
}

/* ---- the keeper ---------------------------------------------------------------------------- */

/* Templates to every compatible peer that does not have them. */
static void keep_templates(hg_replicator *rp) {
  char dir[4096];
  if (hg_store_abs(rp->cfg.store, "templates", dir, sizeof dir) < 0) return;
  hg_cluster_peer *peers = calloc(RP_PEERS_MAX, sizeof *peers);
  DIR *d = peers ? opendir(dir) : NULL;
  size_t np = d ? cl_peers(rp, peers, RP_PEERS_MAX) : 0;
  struct dirent *de;
  while (d && (de = readdir(d))) {
    char rel[HG_REPL_NAME_MAX + 16], key[sizeof ((backoff *)0)->key];
    if (de->d_name[0] == '.' || !strchr(de->d_name, '@')) continue;
    if (hg_path(rel, sizeof rel, "templates/%s", de->d_name) < 0) continue;
    if (!hg_store_is_subvol(rp->cfg.store, rel)) continue;
    for (size_t i = 0; i < np; i++) {
      if (!peers[i].alive || peers[i].suspect || !peers[i].compatible || !peers[i].repl_addr[0])
        continue;
      snprintf(key, sizeof key, "t|%.63s|%.150s", peers[i].id, de->d_name);
      if (backoff_active(rp, key)) continue;
      hg_repl_target t;
      hg_repl_result *res = calloc(1, sizeof *res);
      if (!res) continue;
      target_of(&peers[i], &t);
      int rc = hg_repl_send_template(rp->cfg.repl, &t, de->d_name, res);
      if (rc == 0 && !res->had)
        hg_log_info("repl.template_sent", "template=%s peer=%s zstd=%" PRIu64 " ms=%.1f",
                    de->d_name, t.node, res->zstd_bytes, res->ms);
      else if (rc < 0)
        hg_log_warn("repl.template_failed", "template=%s peer=%s err=\"%s\"", de->d_name, t.node,
                    res->message[0] ? res->message : hg_err_str(rc));
      /* done: not again for a long while; failed: retry soon */
      backoff_set(rp, key, hg_now_ms() + (rc == 0 ? 3600 * 1000 : RP_RETRY_MS));
      free(res);
    }
  }
  if (d) closedir(d);
  free(peers);
}

/* Our suspended sandbox has fewer live holders of its newest generation
 * than it wants: send it to more. */
static void keep_count(hg_replicator *rp, const char *id) {
  hg_sb_info info;
  hg_dirent e;
  if (hg_sandbox_info(rp->cfg.manager, id, &info) < 0 || info.state != HG_SB_SUSPENDED ||
      info.gen == 0 || info.replicas < 2)
    return;
  if (cl_dir_get(rp, id, &e) < 0 || !is_self(rp, e.owner) ||
      e.epoch != info.epoch)
    return;
  char have[HG_DIR_HOLDERS][HG_NODE_ID_MAX];
  size_t nhave = alive_holders(rp, id, info.gen, have, HG_DIR_HOLDERS);
  size_t wanted = info.replicas - 1 < HG_DIR_HOLDERS ? info.replicas - 1 : HG_DIR_HOLDERS;
  if (nhave >= wanted || backoff_active(rp, id)) return;
  const char *excl[HG_DIR_HOLDERS];
  for (size_t i = 0; i < nhave; i++) excl[i] = have[i];
  hg_cluster_peer targets[HG_DIR_HOLDERS];
  size_t n = cl_targets(rp, id, excl, nhave, wanted - nhave, targets);
  if (n == 0) return;
  char msg[256] = "";
  size_t acked =
      replicate_to(rp, id, &info, info.gen, targets, n, NULL, NULL, NULL, false, msg);
  backoff_set(rp, id, acked == n ? 0 : hg_now_ms() + RP_RETRY_MS);
}

/* Our sandboxes that another node took at a higher epoch leave us (also
 * when that node has deleted it since: the generations then go with the
 * other replicas of a deleted sandbox). */
static void keep_ownership(hg_replicator *rp, const char *id, uint64_t epoch) {
  hg_dirent e;
  if (cl_dir_get(rp, id, &e) < 0 || is_self(rp, e.owner) || e.epoch <= epoch) return;
  /* The new owner's next generation may be offered to us meanwhile: under
   * the receive key it waits ("busy", retried) until our generations are
   * in replicas/, read-only again, and builds on them. */
  int rc = hg_repl_hold(rp->cfg.repl, id);
  if (rc == 0) {
    rc = hg_sandbox_disown(rp->cfg.manager, id, e.epoch);
    hg_repl_unhold(rp->cfg.repl, id);
  }
  if (rc == 0)
    hg_log_info("repl.disowned", "sandbox=%s owner=%s epoch=%" PRIu64, id, e.owner, e.epoch);
  else if (rc != -ENOENT)
    hg_log_warn("repl.disown_failed", "sandbox=%s owner=%s epoch=%" PRIu64 " err=\"%s\"", id,
                e.owner, e.epoch, hg_err_str(rc));
}

static void keep_sandboxes(hg_replicator *rp) {
  json_t *list = hg_sandbox_list(rp->cfg.manager, NULL, NULL), *sb;
  json_t *arr = json_is_array(list) ? list : json_object_get(list, "sandboxes");
  size_t i;
  json_array_foreach(arr, i, sb) {
    const char *id = json_string_value(json_object_get(sb, "id"));
    json_int_t epoch = json_integer_value(json_object_get(sb, "epoch"));
    if (!id) continue;
    keep_ownership(rp, id, epoch > 0 ? (uint64_t)epoch : 1);
    keep_count(rp, id);
  }
  json_decref(list);
}

/* A replica the directory does not know (its tombstone may have expired
 * while we were away): the sandbox's group says whether it was deleted. */
static bool forgotten_and_deleted(hg_replicator *rp, const char *id, unsigned *asked) {
  hg_sb_info info;
  if (!rp->cfg.ask_deleted || *asked >= RP_ASK_PER_TICK ||
      hg_now_ms() - rp->started_ms < RP_ASK_AFTER_MS ||
      hg_sandbox_info(rp->cfg.manager, id, &info) == 0)
    return false;
  char key[HG_ID_MAX + 4];
  snprintf(key, sizeof key, "q|%s", id);
  if (backoff_active(rp, key)) return false;
  uint64_t gen = 0;
  char rel[256];
  hg_sb_lease view;
  memset(&view, 0, sizeof view);
  if (newest_holding(rp, id, &gen, rel) < 0) return false;
  holding_group(rp, rel, &view);
  (*asked)++;
  int rc = rp->cfg.ask_deleted(rp->cfg.ask_ud, id, &view);
  hg_log_info("repl.asked", "sandbox=%s deleted=%s", id,
              rc == 1 ? "yes" : rc == 0 ? "no" : hg_err_str(rc));
  backoff_set(rp, key, hg_now_ms() + (rc == 0 ? RP_ASK_LIVE_MS : RP_RETRY_MS));
  return rc == 1;
}

/* Replicas of sandboxes the directory or the group says are deleted. */
static void keep_garbage(hg_replicator *rp) {
  char (*ids)[HG_ID_MAX] = NULL;
  size_t n = 0;
  unsigned asked = 0;
  if (hg_repl_replica_ids(rp->cfg.repl, &ids, &n) < 0) return;
  for (size_t i = 0; i < n; i++) {
    hg_dirent e;
    int known = cl_dir_get(rp, ids[i], &e);
    bool deleted = known == 0 ? !strcmp(e.state, "deleted")
                   : known == -ENOENT && forgotten_and_deleted(rp, ids[i], &asked);
    if (!deleted) continue;
    int rc = hg_repl_drop(rp->cfg.repl, ids[i]);
    hg_log_info("repl.dropped", "sandbox=%s rc=%d", ids[i], rc);
  }
  free(ids);
}

void hg_replicator_tick(hg_replicator *rp) {
  keep_templates(rp);
  keep_sandboxes(rp);
  keep_garbage(rp);
}

static void *keeper_main(void *arg) {
  hg_replicator *rp = arg;
  pthread_mutex_lock(&rp->mu);
  while (!rp->stopping) {
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    int64_t ns = ts.tv_nsec + (int64_t)rp->cfg.tick_ms * 1000000;
    ts.tv_sec += ns / 1000000000;
    ts.tv_nsec = ns % 1000000000;
    pthread_cond_timedwait(&rp->cv, &rp->mu, &ts);
    if (rp->stopping) break;
    pthread_mutex_unlock(&rp->mu);
    hg_replicator_tick(rp);
    pthread_mutex_lock(&rp->mu);
  }
  pthread_mutex_unlock(&rp->mu);
  return NULL;
}

int hg_replicator_start(const hg_replicator_config *cfg, hg_replicator **out) {
  if (!cfg->repl || !cfg->manager || !cfg->cluster || !cfg->store || !cfg->node_id ||
      strlen(cfg->node_id) >= HG_NODE_ID_MAX)
    return -EINVAL;
  hg_replicator *rp = calloc(1, sizeof *rp);
  if (!rp) return -ENOMEM;
  rp->cfg = *cfg;
  rp->started_ms = hg_now_ms();
  if (rp->cfg.tick_ms <= 0) rp->cfg.tick_ms = RP_TICK_MS;
  snprintf(rp->node_id, sizeof rp->node_id, "%s", cfg->node_id);
  hg_guard_init(&rp->cl, cfg->cluster);
  pthread_mutex_init(&rp->mu, NULL);
  pthread_cond_init(&rp->cv, NULL);
  int rc = -pthread_create(&rp->keeper, NULL, keeper_main, rp);
  if (rc < 0) {
    pthread_cond_destroy(&rp->cv);
    pthread_mutex_destroy(&rp->mu);
    hg_guard_destroy(&rp->cl);
    free(rp);
    return rc;
  }
  *out = rp;
  return 0;
}

void hg_replicator_detach(hg_replicator *rp) {
  pthread_mutex_lock(&rp->mu);
  rp->stopping = true;
  pthread_cond_signal(&rp->cv);
  pthread_mutex_unlock(&rp->mu);
  hg_guard_set(&rp->cl, NULL);
}

void hg_replicator_stop(hg_replicator *rp) {
  if (!rp) return;
  hg_replicator_detach(rp);
  pthread_join(rp->keeper, NULL);
  hg_guard_destroy(&rp->cl);
  pthread_cond_destroy(&rp->cv);
  pthread_mutex_destroy(&rp->mu);
  free(rp->backoffs);
  free(rp);
}

void hg_replicator_metrics(hg_replicator *rp, hg_buf *out) { hg_repl_metrics(rp->cfg.repl, out); }
