/* hangard: the node daemon. The composition root: it builds the store, the
 * sandbox manager, the operation journal, the HTTP API and (with --gossip)
 * the cluster, and wires them to one libuv loop. Blocking work runs on the
 * loop's thread pool. */
#include <errno.h>
#include <inttypes.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <uv.h>

#include "api/tls.h"
#include "gateway/netns.h"
#include "node/core/err.h"
#include "node/core/log.h"
#include "node/core/util.h"
#include "node/hangard/hangard.h"
#include "node/hangard/failover.h"
#include "node/hangard/lifecycle.h"
#include "node/template.h"

/* --- gateway (egress) ------------------------------------------------------------ */

#define EGRESS_LOG_MAX 1000000

static int net_attach(void *ud, const char *name, int *tap_fd) {
  return hg_gateway_attach(ud, name, tap_fd);
}

static int net_detach(void *ud, const char *name) {
  return hg_gateway_detach(ud, name);
}

/* Before the manager opens: its recovery and its warm pool start VMs, and
 * every VM start asks for a tap. The gateway finds the namespaces of VMs
 * that outlived a previous hangard by itself. */
static int gateway_open(hg_node *n) {
  hg_config *c = &n->cfg;
  if (c->no_network) {
    hg_log_info("gateway.off", "msg=\"--no-network: sandboxes get no NIC\"");
    return 0;
  }
  if (c->egress_log_max < 0 || c->egress_log_max > EGRESS_LOG_MAX) {
    fprintf(stderr, "hangard: --egress-log-max must be from 0 to %d\n", EGRESS_LOG_MAX);
    return -EINVAL;
  }
  char netns_dir[4096], state_dir[4096];
  int rc = hg_path(netns_dir, sizeof netns_dir, "%s/netns", hg_store_root(n->store));
  if (rc == 0)
    rc =
        hg_path(state_dir, sizeof state_dir, "%s/state/gateway", hg_store_root(n->store));
  if (rc < 0) return rc;
  hg_gateway_config gc = {.netns_dir = netns_dir,
                          .state_dir = state_dir,
                          .upstream_dns = c->upstream_dns[0] ? c->upstream_dns : NULL,
                          .deny = c->deny_cidrs[0] ? c->deny_cidrs : NULL,
                          .log_max = (unsigned)c->egress_log_max};
  if ((rc = hg_gateway_start(&gc, &n->gateway)) < 0) {
    fprintf(stderr,
            "hangard: cannot start the egress gateway: %s (a host without network "
            "namespaces runs with --no-network)\n",
            hg_err_str(rc));
    return rc;
  }
  hg_netns_link link;
  hg_netns_link_default(&link);
  const uint8_t *m = link.guest_mac;
  snprintf(n->guest_mac, sizeof n->guest_mac, "%02x:%02x:%02x:%02x:%02x:%02x", m[0], m[1],
           m[2], m[3], m[4], m[5]);
  n->net = (hg_net_ops){
      .ud = n->gateway, .attach = net_attach, .detach = net_detach, .mac = n->guest_mac};
  /* A template build cut short by a crash left its namespace ("tpl-…"):
   * no VM uses it any more (the staging dir is gone too). */
  char **names;
  size_t count;
  if (hg_netns_list(netns_dir, &names, &count) == 0) {
    for (size_t i = 0; i < count; i++)
      if (strncmp(names[i], "tpl-", 4) == 0) hg_gateway_detach(n->gateway, names[i]);
    hg_netns_list_free(names);
  }
  return 0;
}

static const hg_net_ops *node_net(hg_node *n) {
  return n->gateway ? &n->net : NULL;
}

/* --- template import at start ------------------------------------------------ */

static void template_progress(void *ud, const char *text) {
  hg_node *n = ud;
  hg_op_progress(n->ops, n->template_op, text);
}

static void template_work(uv_work_t *w) {
  hg_node *n = w->data;
  hg_template_info info;
  char why[HG_TEMPLATE_WHY_MAX];
  hg_template_build_args args = {.store = n->store, .vmm = &hg_vmm_qemu,
                                 .shim_path = n->cfg.shim, .accel = n->accel.name,
                                 .net = node_net(n), .progress = template_progress, .ud = n};
  int rc = hg_template_build(&args, n->cfg.template_name, n->cfg.template_dir, &info, why);
  hg_op_finish(n->ops, n->template_op, rc,
               rc == 0 ? json_pack("{s:s, s:s, s:s}", "name", info.name, "digest",
                                   info.digest, "accel", info.accel)
                       : json_pack("{s:s}", "message", why));
}

static void template_done(uv_work_t *w, int status) {}

/* Imports --template-dir when the template is missing or was not imported
 * from exactly these artifacts (a rebuilt or another profile's template in
 * the dir: the newest import wins and becomes the default; sandboxes keep
 * the template they were made from), when it was built without a NIC and
 * this node has networking (its sandboxes would have none), or under
 * another accelerator than this node runs (its memory image would not
 * restore): the NIC and the accelerator change the digest, so the new one
 * is another template. */
static void maybe_import_template(hg_node *n) {
  hg_template_info have;
  const char *why = NULL;
  if (!n->cfg.template_dir[0]) return;
  int rc =
      hg_template_source_check(n->store, n->cfg.template_name, n->cfg.template_dir, &why);
  if (rc < 0) {
    hg_log_warn("template.import",
                "template=%s dir=%s err=\"%s\" msg=\"cannot read the "
                "template dir; keeping what is registered\"",
                n->cfg.template_name, n->cfg.template_dir, hg_err_str(rc));
    return;
  }
  if (!why && hg_template_resolve(n->store, n->cfg.template_name, &have) == 0) {
    if (n->gateway && !have.nic) why = "no_nic";
    else if (strcmp(have.accel, n->accel.name) != 0) why = "other_accel";
  }
  if (!why || hg_op_begin(n->ops, "template", "", n->template_op) < 0) return;
  hg_log_info(strcmp(why, "missing") ? "template.reimport" : "template.import",
              "template=%s dir=%s reason=%s op=%s", n->cfg.template_name,
              n->cfg.template_dir, why, n->template_op);
  n->template_work.data = n;
  uv_queue_work(n->loop, &n->template_work, template_work, template_done);
}

/* --- periodic work ------------------------------------------------------------ */

/* Idle sandboxes suspend as the API's suspend does: replicated. */
static void tick_work(uv_work_t *w) {
  hg_node *n = w->data;
  hg_life_idle(n->life);
}

static void tick_done(uv_work_t *w, int status) {
  hg_node *n = w->data;
  n->ticking = false;
}

/* Checkpoints have their own pass (intervals from 2 s; a pass may take
 * as long as its copies): never two at once, so never two of a sandbox. */
static void ckpt_work(uv_work_t *w) {
  hg_node *n = w->data;
  hg_life_checkpoints(n->life);
}

static void ckpt_done(uv_work_t *w, int status) {
  hg_node *n = w->data;
  n->ckpt_ticking = false;
}

static void on_ckpt_tick(uv_timer_t *t) {
  hg_node *n = t->data;
  if (n->ckpt_ticking) return;
  n->ckpt_ticking = true;
  n->ckpt_work.data = n;
  uv_queue_work(n->loop, &n->ckpt_work, ckpt_work, ckpt_done);
}

static void on_tick(uv_timer_t *t) {
  hg_node *n = t->data;
  if (n->ticking) return;
  n->ticking = true;
  n->tick_work.data = n;
  uv_queue_work(n->loop, &n->tick_work, tick_work, tick_done);
}

/* --- cluster: our sandboxes in the directory --------------------------------------- */

/* The manager's on_change: our sandboxes into the directory. From any
 * thread. The holders of a generation stay as long as the generation does:
 * the replicator adds them as peers acknowledge it, through the same
 * atomic update, so neither writer drops the other's change. */
static int sandbox_change_apply(void *arg, hg_dirent *e, bool exists) {
  hg_dirent next = *(const hg_dirent *)arg;
  /* A checkpoint's generation is advertised by the replicator, with its
   * holders, a moment before the manager's record says so: a change in
   * between must not take the entry back to the generation before. */
  if (exists && e->epoch == next.epoch && e->gen > next.gen && !strcmp(e->owner, next.owner))
    next.gen = e->gen;
  if (exists && e->gen == next.gen && e->epoch == next.epoch) {
    memcpy(next.holders, e->holders, sizeof next.holders);
    next.nholders = e->nholders;
  }
  *e = next;
  return 1;
}

static void on_sandbox_change(void *ud, const hg_sb_change *ch) {
  hg_node *n = ud;
  hg_dirent e;
  memset(&e, 0, sizeof e);
  snprintf(e.sandbox, sizeof e.sandbox, "%s", ch->id);
  snprintf(e.owner, sizeof e.owner, "%s", n->cfg.node_id);
  snprintf(e.state, sizeof e.state, "%s", ch->state);
  snprintf(e.template_ref, sizeof e.template_ref, "%s", ch->template_ref ? ch->template_ref : "");
  e.epoch = ch->epoch ? ch->epoch : 1;
  e.gen = ch->gen;
  e.updated_ms = hg_wall_ns() / 1000000;
  hg_cluster *cl = hg_guard_enter(&n->cl);
  int rc = cl ? hg_cluster_dir_update(cl, ch->id, sandbox_change_apply, &e) : 0;
  hg_guard_leave(&n->cl);
  if (rc < 0)
    hg_log_warn("cluster.dir_put", "sandbox=%s state=%s err=\"%s\"", ch->id, ch->state,
                hg_err_str(rc));
}

/* --- cluster: the API's view (hg_api_peers; loop thread) ---------------------------- */

/* Where a request for sandbox is served (api.h). A copy here loses to a
 * directory entry above its epoch: that copy is one this node kept while
 * the sandbox moved on or was deleted (it was away; the replicator
 * disowns it at its next pass), and answering from it would serve an old
 * sandbox as if it were the one. Until the directory has come from a peer,
 * nothing is known of that: -EAGAIN. */
static int peers_locate(void *ud, const char *sandbox, char owner[64], char addr[64]) {
  hg_node *n = ud;
  hg_dirent e;
  hg_sb_info here;
  char a[HG_ADDR_MAX];
  if (!n->cluster) return 0;
  if (!hg_cluster_heard(n->cluster)) return -EAGAIN;
  if (hg_cluster_dir_get(n->cluster, sandbox, &e) < 0) return 0;
  if (strcmp(e.owner, n->cfg.node_id) == 0) return 0;
  bool have = hg_sandbox_info(n->manager, sandbox, &here) == 0;
  bool newer = !have || e.epoch > here.epoch;
  if (strcmp(e.state, "deleted") == 0) return newer ? -ENOENT : 0;
  if (hg_cluster_api_addr(n->cluster, e.owner, a) < 0) /* unknown or not alive */
    return newer ? -EHOSTUNREACH : 0;
  snprintf(owner, 64, "%s", e.owner);
  snprintf(addr, 64, "%s", a);
  return 1;
}

static int peers_place(void *ud, const char *template_ref, unsigned vcpus,
                       unsigned memory_mib, const char *zone, const char *label,
                       char owner[64], char addr[64], char reason[256]) {
  hg_node *n = ud;
  if (!n->cluster) return 1;
  hg_meta_counts_now(n);
  hg_place_req req = {.template_ref = template_ref,
                      .vcpus = vcpus,
                      .memory_mib = memory_mib,
                      .zone = zone,
                      .label = label};
  return hg_cluster_place(n->cluster, &req, owner, addr, reason);
}

static json_t *peers_members(void *ud) {
  hg_node *n = ud;
  return n->cluster ? hg_cluster_members_json(n->cluster) : NULL;
}

static json_t *peers_directory(void *ud) {
  hg_node *n = ud;
  return n->cluster ? hg_cluster_dir_json(n->cluster) : NULL;
}

static int peers_decommission(void *ud, const char *node_id) {
  hg_node *n = ud;
  return n->cluster ? hg_cluster_decommission(n->cluster, node_id) : -ENOENT;
}

static void peers_metrics(void *ud, hg_buf *out) {
  hg_node *n = ud;
  if (n->cluster) hg_cluster_metrics(n->cluster, out);
}

/* --- replication (DESIGN §10) ------------------------------------------------------ */

/* The highest epoch the directory knows: streams below it are refused. */
static uint64_t repl_known_epoch(void *ud, const char *sandbox) {
  hg_node *n = ud;
  hg_dirent e;
  hg_cluster *cl = hg_guard_enter(&n->cl);
  int rc = cl ? hg_cluster_dir_get(cl, sandbox, &e) : -ENOENT;
  hg_guard_leave(&n->cl);
  return rc == 0 ? e.epoch : 0;
}

/* Binds the replication service (default: the gossip host, REPL_PORT) and
 * puts where peers reach it into our metadata. */
static int repl_open(hg_node *n) {
  hg_config *c = &n->cfg;
  char bind[256], host[256], adv_host[256];
  int port, rc;
  if (c->repl[0]) {
    snprintf(bind, sizeof bind, "%s", c->repl);
  } else {
    hg_hostport_split(c->gossip, host, sizeof host, -1, &port);
    hg_hostport_join(bind, sizeof bind, host, REPL_PORT);
  }
  if (hg_hostport_split(bind, host, sizeof host, -1, &port) < 0 || !hg_conf_is_ip(host)) {
    fprintf(stderr, "hangard: bad --repl \"%s\" (want IP:PORT)\n", bind);
    return -EINVAL;
  }
  hg_repl_config rc_ = {.store = n->store,
                        .node_id = c->node_id,
                        .cluster_name = c->cluster_name,
                        .cluster_keys = c->cluster_key,
                        .listen = bind,
                        .zstd_level = (int)c->repl_zstd_level,
                        .keep = (unsigned)c->repl_keep,
                        .known_epoch = repl_known_epoch,
                        .ud = n};
  if ((rc = hg_repl_open(&rc_, &n->repl)) < 0) {
    fprintf(stderr, "hangard: cannot listen for replication on %s: %s\n", bind,
            hg_err_str(rc));
    return rc;
  }
  /* the bound port (a :0 gets its real one), on a host peers can dial */
  hg_hostport_split(hg_repl_addr(n->repl), host, sizeof host, -1, &port);
  char *adv = n->meta_base.repl_addr;
  size_t cap = sizeof n->meta_base.repl_addr;
  if (c->repl_advertise[0]) snprintf(adv, cap, "%.63s", c->repl_advertise);
  else if (!hg_conf_is_wildcard(host)) hg_hostport_join(adv, cap, host, port);
  else if (hg_hostport_split(n->meta_base.gossip_addr, adv_host, sizeof adv_host, -1, &rc) == 0)
    hg_hostport_join(adv, cap, adv_host, port);
  hg_log_info("repl.listen", "bind=%s advertise=%s", hg_repl_addr(n->repl), adv);
  return 0;
}

static int replica_deleted(void *ud, const char *id, const hg_sb_lease *have) {
  hg_node *n = ud;
  return n->leasing ? hg_leasing_deleted(n->leasing, id, have) : -ENOSYS;
}

/* After the manager: the replicator moves its sandboxes. */
static int replicator_start(hg_node *n) {
  if (!n->repl) return 0;
  hg_replicator_config rc_ = {.repl = n->repl,
                              .manager = n->manager,
                              .cluster = n->cluster,
                              .store = n->store,
                              .node_id = n->cfg.node_id,
                              .ask_deleted = replica_deleted,
                              .ask_ud = n};
  return hg_replicator_start(&rc_, &n->replicator);
}

/* --- leases ------------------------------------------------------------------------ */

static int lease_take(void *ud, const char *id, hg_sb_take how, const hg_sb_lease *have,
                      hg_sb_lease *out, char msg[256]) {
  hg_node *n = ud;
  return hg_leasing_take(n->leasing, id, how, have, out, msg);
}

static int life_remove(void *ud, const char *id, const hg_sb_lease *have, char msg[256]) {
  hg_node *n = ud;
  return hg_leasing_delete(n->leasing, id, have, msg);
}

static void life_drop(void *ud, const char *id) {
  hg_node *n = ud;
  hg_leasing_drop(n->leasing, id);
}

static int life_claim_ahead(void *ud, const char *id, const hg_sb_lease *have) {
  hg_node *n = ud;
  return hg_leasing_claim_ahead(n->leasing, id, have);
}

static bool life_valid(void *ud, const char *id, uint64_t epoch, int64_t wait_ms) {
  hg_node *n = ud;
  return hg_leasing_valid(n->leasing, id, epoch, wait_ms);
}

static json_t *life_status(void *ud) {
  hg_node *n = ud;
  hg_leasing_stats st;
  hg_leasing_get_stats(n->leasing, &st);
  bool fo = hg_leasing_can_fail_over(n->leasing);
  json_t *o = json_pack("{s:I,s:I,s:I,s:I,s:b,s:s}", "held", (json_int_t)st.held, "fenced",
                        (json_int_t)st.fenced, "claiming", (json_int_t)st.claiming, "lost",
                        (json_int_t)st.lost, "can_fail_over", fo, "why",
                        fo ? "new sandboxes get groups of 3 or more live nodes"
                           : "fewer than 3 live nodes: a sandbox's group cannot lose a "
                             "member and still grant, so nothing fails over");
  /* Fenced copies waiting for the directory or the lease (regain.h). */
  if (o && n->regain)
    json_object_set_new(o, "regaining", json_integer(hg_regain_waiting(n->regain)));
  /* The API asks on the loop, where failover's state lives. */
  if (o && n->failover) json_object_set_new(o, "failover", hg_failover_status(n->failover));
  else if (o && n->cluster)
    json_object_set_new(o, "failover", json_pack("{s:b,s:s}", "on", false, "why",
                                                 "--no-failover: a dead node's sandboxes "
                                                 "wait for a resume by hand"));
  return o;
}

/* hg_sandbox_orphan under the sandbox's replication hold: the orphaning
 * moves its generations (snapshots/ into sandboxes/<id>/, read-only
 * flags flipped for the renames), which btrfs refuses (EPERM) while a
 * send here reads them (chaos seed 31); the hold waits for the send.
 * n->repl is set before the leases open, and never changes after. */
static int node_orphan(void *ud, const char *id, uint64_t epoch, const char *reason) {
  hg_node *n = ud;
  int rc = hg_repl_hold(n->repl, id);
  if (rc < 0) return rc;
  rc = hg_sandbox_orphan(n->manager, id, epoch, reason);
  hg_repl_unhold(n->repl, id);
  return rc;
}

/* Another node was promised the sandbox at a higher epoch. A copy that
 * is only suspended here ran nothing since its last generation and is
 * left alone: if that node did take it, its directory entry at the higher
 * epoch makes the replicator disown ours (generations kept as replicas,
 * one of them perhaps the one it started from); if its claim failed
 * (no majority), ours is still the sandbox, and must not vanish. A copy
 * that ran (our VM, fenced by now) waits, fenced, for the same answer
 * (regain.h): orphaned once the directory names the holder, running again
 * if the lease comes back to us. One deleted through its group goes to
 * orphans/ at once: nobody will run it again. */
static void lease_lost(void *ud, const char *id, uint64_t epoch, const char *holder,
                       bool deleted) {
  hg_node *n = ud;
  hg_sb_info info;
  int rc = hg_sandbox_info(n->manager, id, &info);
  if (rc == -ENOENT) return;
  if (rc == 0 && info.state == HG_SB_SUSPENDED) {
    hg_log_info("lease.lost_suspended", "sandbox=%s epoch=%" PRIu64 " holder=%s "
                "msg=\"kept until the directory names another owner\"", id, epoch,
                holder[0] ? holder : "?");
    return;
  }
  if (!deleted && n->regain && hg_regain_add(n->regain, id) == 0) {
    hg_log_warn("lease.lost_running", "sandbox=%s epoch=%" PRIu64 " holder=%s msg=\"fenced; "
                "orphaned once the directory names another owner, running again if the "
                "lease comes back\"", id, epoch, holder[0] ? holder : "?");
    return;
  }
  char reason[160];
  if (deleted)
    snprintf(reason, sizeof reason, "deleted through its group (by node %s) while this copy "
             "ran", holder[0] ? holder : "?");
  else
    snprintf(reason, sizeof reason, "node %s holds it at an epoch above this copy's %" PRIu64,
             holder[0] ? holder : "?", epoch);
  rc = node_orphan(n, id, epoch, reason);
  if (rc < 0 && rc != -ENOENT)
    hg_log_error("lease.orphan", "sandbox=%s epoch=%" PRIu64 " err=\"%s\"", id, epoch,
                 hg_err_str(rc));
}

/* regain.h's view of the directory: another owner above epoch. */
static bool regain_taken(void *ud, const char *id, uint64_t epoch,
                         char owner[HG_NODE_ID_MAX], uint64_t *owner_epoch) {
  hg_node *n = ud;
  hg_dirent e;
  hg_cluster *cl = hg_guard_enter(&n->cl);
  bool taken = cl && hg_cluster_dir_get(cl, id, &e) == 0 &&
               strcmp(e.owner, n->cfg.node_id) != 0 && e.epoch > epoch;
  hg_guard_leave(&n->cl);
  if (taken) {
    snprintf(owner, HG_NODE_ID_MAX, "%s", e.owner);
    *owner_epoch = e.epoch;
  }
  return taken;
}

/* After the cluster is made (leases ride its datagrams), before the
 * manager opens (its VM starts ask for leases). */
static int leasing_open(hg_node *n) {
  /* For tools/bench only (the cost a lease adds to create and resume,
   * measured beside none): a node without leases has no fencing at all. */
  const char *off = getenv("HANGAR_LEASES");
  n->leases_off = off && !strcmp(off, "off");
  if (n->leases_off)
    hg_log_warn("lease.off", "msg=\"HANGAR_LEASES=off: VMs run unfenced (benchmarks only)\"");
  char path[4096];
  int rc = hg_path(path, sizeof path, "%s/state/leases.log", hg_store_root(n->store));
  if (rc < 0) return rc;
  hg_leasing_config lc = {.loop = n->loop,
                          .self = n->cfg.node_id,
                          .register_path = path,
                          .lease_ms = n->cfg.lease_ms,
                          .margin_ms = n->cfg.lease_margin_ms,
                          .acceptors = (unsigned)n->cfg.acceptors,
                          .dead_member_ms = n->cfg.dead_member_s * 1000,
                          .cluster = n->cluster,
                          .on_lost = lease_lost,
                          .ud = n};
  if ((rc = hg_leasing_open(&lc, &n->leasing)) < 0) {
    fprintf(stderr, "hangard: cannot open the lease register %s: %s\n", path,
            hg_err_str(rc));
    return rc;
  }
  n->life_leases = (hg_life_leases){
      .take = lease_take,
      .remove = life_remove,
      .drop = life_drop,
      .claim_ahead = life_claim_ahead,
      .status = life_status,
      .valid = life_valid,
      .ud = n};
  return 0;
}

/* --- failover (DESIGN §9) ---------------------------------------------------------- */

/* After the lifecycle: a dead member's sandboxes come here through it. */
static int failover_open(hg_node *n) {
  if (!n->cluster || !n->replicator || n->leases_off) return 0;
  if (n->cfg.no_failover) {
    hg_log_info("failover.off", "msg=\"--no-failover: a dead node's sandboxes wait for a "
                "resume by hand\"");
    return 0;
  }
  hg_failover_config fc = {
      .loop = n->loop, .cluster = n->cluster, .life = n->life, .self = n->cfg.node_id};
  return hg_failover_open(&fc, &n->failover);
}

/* --- cluster: life ------------------------------------------------------------------ */

/* Before the manager opens, so its first on_change calls reach the directory. */
static int cluster_open(hg_node *n) {
  hg_config *c = &n->cfg;
  int rc;
  if (!c->gossip[0]) return 0;
  if ((rc = hg_conf_cluster_key(n)) < 0) return rc;
  char host[256];
  int port = 0;
  hg_hostport_split(c->listen, host, sizeof host, -1, &port);
  if ((rc = hg_meta_base(n, port)) < 0) return rc;
  if ((rc = repl_open(n)) < 0) return rc;
  char state_dir[4096];
  if ((rc = hg_path(state_dir, sizeof state_dir, "%s/state", hg_store_root(n->store))) <
      0)
    return rc;
  hg_cluster_config cc = {.node_id = c->node_id,
                          .gossip = c->gossip,
                          .advertise = c->advertise[0] ? c->advertise : NULL,
                          .join = c->join,
                          .cluster_key = c->cluster_key,
                          .cluster_name = c->cluster_name,
                          .zone = c->zone,
                          .profile = c->gossip_profile,
                          .state_dir = state_dir,
                          .self = n->meta_base,
                          .tombstone_ms = c->tombstone_s * 1000};
  if ((rc = hg_cluster_new(n->loop, &cc, &n->cluster)) < 0) {
    fprintf(stderr, "hangard: cannot set up the cluster: %s\n", hg_err_str(rc));
    return rc;
  }
  hg_guard_set(&n->cl, n->cluster);
  n->peers = (hg_api_peers){.ud = n,
                            .locate = peers_locate,
                            .place = peers_place,
                            .members = peers_members,
                            .directory = peers_directory,
                            .decommission = peers_decommission,
                            .metrics = peers_metrics};
  return 0;
}

/* After the API listens: peers learn an address that answers. */
static int cluster_start(hg_node *n) {
  if (!n->cluster) return 0;
  /* --listen :0 gets its port only now. */
  char host[256];
  int port;
  if (!n->cfg.api_advertise[0] &&
      hg_hostport_split(n->meta_base.api_addr, host, sizeof host, -1, &port) == 0 &&
      port != hg_http_port(n->http))
    hg_hostport_join(n->meta_base.api_addr, sizeof n->meta_base.api_addr, host,
                     hg_http_port(n->http));
  hg_node_meta m;
  hg_meta_load(n, &m);
  hg_cluster_set_meta(n->cluster, &m);
  int rc = hg_cluster_start(n->cluster);
  if (rc < 0) {
    fprintf(stderr, "hangard: cannot start gossip on %s: %s\n", n->cfg.gossip,
            hg_err_str(rc));
    return rc;
  }
  uv_timer_init(n->loop, &n->meta_timer);
  n->meta_timer.data = n;
  uv_timer_start(&n->meta_timer, hg_meta_on_timer, META_MS, META_MS);
  hg_log_info("cluster.start", "gossip=%s advertise=%s api=%s join=%s profile=%s",
              n->cfg.gossip, n->meta_base.gossip_addr, n->meta_base.api_addr,
              n->cfg.join[0] ? n->cfg.join : "-", n->cfg.gossip_profile);
  return 0;
}

/* --- shutdown ------------------------------------------------------------------ */

/* Last: the handles main() made. The loop then runs dry and main() closes
 * the manager, the journal and the store. */
static void handles_close(void *ud) {
  hg_node *n = ud;
  n->cluster = NULL;
  uv_close((uv_handle_t *)&n->sigint, NULL);
  uv_close((uv_handle_t *)&n->sigterm, NULL);
  uv_close((uv_handle_t *)&n->tick, NULL);
  uv_close((uv_handle_t *)&n->ckpt_tick, NULL);
  if (n->meta_timer.data)
    uv_close((uv_handle_t *)&n->meta_timer, NULL); /* cluster_start */
}

/* The API is gone; leave the cluster gracefully (peers see "left", not a
 * death), after which nothing from a worker may reach it. */
static void leasing_closed(void *ud);

static void http_closed(void *ud) {
  hg_node *n = ud;
  n->http = NULL;
  hg_tls_free(n->tls); /* freed once its last relay closed */
  n->tls = NULL;
  hg_api_free(n->api);
  n->api = NULL;
  /* Leases first: they send through the cluster. */
  hg_leasing_close(n->leasing, leasing_closed, n);
}

static void leasing_closed(void *ud) {
  hg_node *n = ud;
  if (!n->cluster) {
    handles_close(n);
    return;
  }
  hg_guard_set(&n->cl, NULL);
  if (n->replicator) hg_replicator_detach(n->replicator);
  hg_cluster_close(n->cluster, handles_close, n);
}

static void on_signal(uv_signal_t *s, int signum) {
  hg_node *n = s->data;
  if (!n->http || n->stopping) return;
  n->stopping = true;
  hg_log_info("node.shutdown", "signal=%d", signum);
  uv_timer_stop(&n->tick);
  uv_timer_stop(&n->ckpt_tick);
  if (n->cluster) uv_timer_stop(&n->meta_timer);
  hg_failover_close(n->failover); /* no restore starts after this */
  n->failover = NULL;
  hg_api_stop(n->api);
  hg_http_server_shutdown(n->http, 5000, http_closed, n);
}

/* The kernel to prove KVM with: the one about to be imported, else the
 * registered template's. "" when there is none yet. */
static void probe_kernel(hg_node *n, char out[4096]) {
  hg_template_info t;
  out[0] = '\0';
  if (n->cfg.template_dir[0] &&
      hg_path(out, 4096, "%s/vmlinuz", n->cfg.template_dir) == 0 && access(out, R_OK) == 0)
    return;
  out[0] = '\0';
  if (hg_template_resolve(n->store, n->cfg.template_name, &t) == 0 &&
      hg_store_abs(n->store, t.rel, out, 4096 - 16) == 0)
    strcat(out, "/vmlinuz");
}

/* Before anything starts a VM or tells the cluster our CPU class. */
static int accel_choose(hg_node *n, hg_accel_mode mode) {
  char kernel[4096];
  probe_kernel(n, kernel);
  int rc = hg_accel_choose(mode, kernel[0] ? kernel : NULL, HG_ACCEL_PROBE_MS, &n->accel);
  if (rc < 0) fprintf(stderr, "hangard: %s\n", n->accel.reason);
  else fprintf(stderr, "hangard: accelerator %s (%s)\n", n->accel.name, n->accel.reason);
  return rc;
}


static int node_open(hg_node *n) {
  hg_config *c = &n->cfg;
  if (hg_conf_log_level(c->log_level) < 0) {
    fprintf(stderr, "hangard: unknown log level \"%s\"\n", c->log_level);
    return -EINVAL;
  }
  /* Before the store: a bad flag should not cost a loop mount. */
  if (hg_conf_check(c) < 0) return -EINVAL;
  hg_accel_mode accel;
  if (hg_accel_mode_parse(c->accel, &accel) < 0) {
    fprintf(stderr, "hangard: --accel must be auto, kvm or tcg, not \"%s\"\n", c->accel);
    return -EINVAL;
  }
  hg_conf_shim_default(c);
  hg_store_options sopt = {.image_size = (uint64_t)c->image_size_gib << 30};
  int rc = hg_store_open(c->data, &sopt, &n->store);
  if (rc < 0) {
    fprintf(stderr, "hangard: cannot open data dir %s: %s\n", c->data, hg_err_str(rc));
    return rc;
  }
  bool made_id, made_key;
  if ((rc = hg_conf_state_value(n, "node-id", c->node_id, sizeof c->node_id, 4, "n-", &made_id)) <
          0 ||
      (rc = hg_conf_state_value(n, "api-key", c->api_key, sizeof c->api_key, 24, "hgk_",
                        &made_key)) < 0) {
    fprintf(stderr, "hangard: cannot write state: %s\n", hg_err_str(rc));
    return rc;
  }
  char prefix[96];
  snprintf(prefix, sizeof prefix, "node=%s", c->node_id);
  hg_log_set_prefix(prefix);
  if (made_key)
    fprintf(stderr,
            "hangard: generated admin API key (kept in %s/state/api-key):\n  %s\n",
            hg_store_root(n->store), c->api_key);
  if ((rc = hg_ops_open(hg_store_root(n->store), &n->ops)) < 0) return rc;
  if ((rc = accel_choose(n, accel)) < 0) return rc;
  if ((rc = cluster_open(n)) < 0) return rc;
  if ((rc = gateway_open(n)) < 0) return rc;
  hg_regain_config gcfg = {.taken = regain_taken,
                           .orphan = node_orphan,
                           .ud = n,
                           .settle_ms = 2 * (c->lease_ms + c->lease_margin_ms)};
  if ((rc = hg_regain_start(&gcfg, &n->regain)) < 0) return rc;
  if ((rc = leasing_open(n)) < 0) return rc;
  hg_manager_config mcfg = {.store = n->store,
                            .vmm = &hg_vmm_qemu,
                            .shim_path = c->shim,
                            .accel = n->accel.name,
                            .node_id = c->node_id,
                            .net = node_net(n),
                            .max_sandboxes = (unsigned)c->max_sandboxes,
                            .max_memory_mib = (uint64_t)c->max_memory_mib,
                            .default_idle_suspend_s = c->idle_suspend_s,
                            .pool_size = c->pool_size > 0 ? (unsigned)c->pool_size : 0,
                            .pool_max = c->pool_max > 0 ? (unsigned)c->pool_max : 0,
                            .pool_template = c->template_name,
                            .on_change = n->cluster ? on_sandbox_change : NULL,
                            .on_change_ud = n,
                            .default_replicas = (unsigned)c->replicas,
                            .default_checkpoint_s = c->checkpoint_s,
                            .checkpoint_keep = (unsigned)c->checkpoint_keep,
                            .lease = n->leases_off ? NULL : lease_take,
                            .lease_ud = n};
  if ((rc = hg_manager_open(&mcfg, &n->manager)) < 0) return rc;
  hg_leasing_attach(n->leasing, n->manager);
  if ((rc = replicator_start(n)) < 0) return rc;
  hg_life_config lcfg = {.manager = n->manager,
                         .gateway = n->gateway,
                         .replicator = n->replicator,
                         .repl = n->repl,
                         .leases = n->leases_off ? NULL : &n->life_leases};
  if ((rc = hg_life_new(&lcfg, &n->life)) < 0) return rc;
  hg_regain_attach(n->regain, n->manager, n->life);
  return failover_open(n);
}

static int node_serve(hg_node *n) {
  char host[256];
  int port, rc;
  if (hg_hostport_split(n->cfg.listen, host, sizeof host, -1, &port) < 0) {
    fprintf(stderr, "hangard: bad --listen \"%s\" (want HOST:PORT)\n", n->cfg.listen);
    return -EINVAL;
  }
  hg_api_config acfg = {.manager = n->manager,
                        .ops = n->ops,
                        .work = hg_life_work(n->life),
                        .gateway = n->gateway,
                        .admin_key = n->cfg.api_key,
                        .node_id = n->cfg.node_id,
                        .accel = n->accel.name,
                        .accel_reason = n->accel.reason,
                        .peers = n->cluster ? &n->peers : NULL,
                        .cluster_keys = n->cluster ? n->cfg.cluster_key : NULL,
                        .cluster_name = n->cfg.cluster_name,
                        .peer_tls = n->cfg.tls_cert[0] != '\0',
                        .peer_ca = n->cfg.tls_ca[0] ? n->cfg.tls_ca : NULL,
                        .replicator = n->replicator,
                        .max_held = API_POOL * 3 / 4,
                        .max_ops = API_POOL / 8};
  char err[256];
  if (n->cfg.tls_cert[0] &&
      (rc = hg_tls_new(n->cfg.tls_cert, n->cfg.tls_key, &n->tls, err)) < 0) {
    fprintf(stderr, "hangard: %s\n", err);
    return rc;
  }
  if ((rc = hg_api_new(n->loop, &acfg, &n->api)) < 0) return rc;
  hg_http_options hopt = {.host = host, .port = port, .tls = n->tls};
  hg_api_http_options(n->api, &hopt);
  if ((rc = hg_http_server_start(n->loop, &hopt, &n->http)) < 0) {
    fprintf(stderr, "hangard: cannot listen on %s: %s\n", n->cfg.listen, hg_err_str(rc));
    return rc;
  }
  hg_log_info("node.ready", "listen=%s:%d tls=%s data=%s", host, hg_http_port(n->http),
              n->tls ? "on" : "off", hg_store_root(n->store));
  return 0;
}

static void node_signals(hg_node *n) {
  uv_signal_init(n->loop, &n->sigint);
  uv_signal_init(n->loop, &n->sigterm);
  n->sigint.data = n->sigterm.data = n;
  uv_signal_start(&n->sigint, on_signal, SIGINT);
  uv_signal_start(&n->sigterm, on_signal, SIGTERM);
  uv_timer_init(n->loop, &n->tick);
  n->tick.data = n;
  uv_timer_start(&n->tick, on_tick, TICK_MS, TICK_MS);
  uv_timer_init(n->loop, &n->ckpt_tick);
  n->ckpt_tick.data = n;
  uv_timer_start(&n->ckpt_tick, on_ckpt_tick, CKPT_TICK_MS, CKPT_TICK_MS);
}

int main(int argc, char **argv) {
  static hg_node node;
  hg_node *n = &node;
  hg_conf_defaults(&n->cfg);
  int rc = hg_conf_load(&n->cfg, argc, argv);
  if (rc != 0) return rc == 1 ? 0 : 2;
  signal(SIGPIPE, SIG_IGN);
  /* Sandbox calls block on guests; the pool must be wide enough that slow
   * guests do not hold up everyone else. Set before the loop's first use. */
  char pool[16];
  snprintf(pool, sizeof pool, "%d", THREADPOOL_SIZE);
  setenv("UV_THREADPOOL_SIZE", pool, 0);
  umask(077);
  n->loop = uv_default_loop();
  hg_guard_init(&n->cl, NULL);
  if (node_open(n) < 0 || node_serve(n) < 0 || cluster_start(n) < 0) return 1;
  node_signals(n);
  maybe_import_template(n);
  uv_run(n->loop, UV_RUN_DEFAULT);
  /* Warm-pool VMs belong to no one: a stopped daemon leaves none running
   * (its sandboxes do run on; a crash leaves the pool for adoption). */
  hg_manager_pool_stop(n->manager);
  hg_regain_stop(n->regain);   /* it takes leases through the lifecycle */
  hg_leasing_free(n->leasing); /* its fencer calls the manager and regain */
  hg_regain_free(n->regain);
  hg_life_free(n->life);
  hg_replicator_stop(n->replicator);
  if (n->repl) hg_repl_close(n->repl);
  hg_manager_close(n->manager);
  if (n->gateway)
    hg_gateway_stop(n->gateway); /* namespaces and rules stay: the VMs run on */
  hg_ops_close(n->ops);
  hg_store_close(n->store, false);
  hg_log_info("node.stopped", "data=%s", n->cfg.data);
  return n->exit_code;
}
