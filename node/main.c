/* hangard: the node daemon. The composition root: it builds the store, the
 * sandbox manager, the operation journal, the HTTP API and (with --gossip)
 * the cluster, and wires them to one libuv loop. Blocking work runs on the
 * loop's thread pool. */
#include <arpa/inet.h>
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <sys/wait.h>
#include <unistd.h>
#include <uv.h>

#include "api/api.h"
#include "api/http.h"
#include "cluster/cluster.h"
#include "gateway/gateway.h"
#include "gateway/netns.h"
#include "node/accel.h"
#include "node/core/config.h"
#include "node/core/err.h"
#include "node/core/guard.h"
#include "node/core/ident.h"
#include "node/core/log.h"
#include "node/core/util.h"
#include "node/op.h"
#include "node/sandbox.h"
#include "node/template.h"
#include "replication/repl.h"
#include "replication/replicator.h"

#define TICK_MS 10000
#define REPL_PORT 7947 /* replication's default port, beside gossip's */
#define META_MS 1000 /* load and capacity to the cluster (it gossips at most 1/s) */
#define THREADPOOL_SIZE "64"
#define CLUSTER_KEY_HEX 64

typedef struct hg_config {
  char config[4096];
  char data[4096];
  char listen[256];
  char api_key[256];
  char node_id[HG_NODE_ID_MAX];
  char template_dir[4096];
  char template_name[96];
  char log_level[16];
  char shim[4096];
  char accel[8];
  /* cluster (DESIGN §8): on when gossip is set */
  char gossip[256];
  char advertise[256];
  char api_advertise[256];
  char join[4096];
  char cluster_key[1024];
  char cluster_name[64];
  char zone[32];
  char labels[1024];
  char gossip_profile[16];
  int64_t max_sandboxes;
  int64_t max_memory_mib;
  int64_t idle_suspend_s;
  int64_t image_size_gib;
  int64_t pool_size, pool_max;
  /* gateway (DESIGN §11) */
  char upstream_dns[256];
  char deny_cidrs[1024];
  int64_t egress_log_max;
  int no_network;
  /* replication (DESIGN §10) */
  char repl[256];
  char repl_advertise[256];
  int64_t replicas;
  int64_t repl_zstd_level;
  int64_t repl_keep;
} hg_config;

typedef struct hg_node {
  hg_config cfg;
  uv_loop_t *loop;
  hg_store *store;
  hg_manager *manager;
  hg_ops *ops;
  hg_api *api;
  hg_http_server *http;
  hg_gateway *gateway; /* NULL with --no-network */
  hg_net_ops net;      /* the manager's view of it */
  hg_accel accel;      /* what every VM of this node runs under, and why */
  char guest_mac[18];
  uv_signal_t sigint, sigterm;
  uv_timer_t tick;
  uv_work_t tick_work;
  bool ticking, stopping;
  uv_work_t template_work;
  char template_op[HG_ID_MAX];
  int exit_code;
  /* Cluster. cl is what threads may use (the on_change hook, the meta
   * worker): cleared before hg_cluster_close begins, so nothing reaches
   * the cluster after. cluster is the loop's own handle. */
  hg_cluster *cluster;
  hg_guard cl;
  hg_api_peers peers;
  hg_repl *repl;          /* with a cluster: the replication service */
  hg_replicator *replicator;
  hg_api_repl api_repl;
  hg_node_meta meta_base; /* what does not change: ids, addresses, totals */
  hg_node_meta meta_last; /* the last full load sent, under cl */
  uv_timer_t meta_timer;
  uv_work_t meta_work;
  bool meta_busy;
} hg_node;

static void config_defaults(hg_config *c) {
  memset(c, 0, sizeof *c);
  strcpy(c->data, "/var/lib/hangar");
  strcpy(c->listen, "127.0.0.1:7070");
  strcpy(c->template_name, "default:latest");
  strcpy(c->log_level, "info");
  strcpy(c->accel, "auto");
  c->idle_suspend_s = 6 * 3600;
  c->image_size_gib = 64;
  c->pool_size = 2;
  strcpy(c->cluster_name, "hangar");
  strcpy(c->gossip_profile, "lan");
  c->replicas = 2;
  c->repl_zstd_level = 1;
  c->repl_keep = 3;
}

static int config_load(hg_config *c, int argc, char **argv) {
  const hg_opt opts[] = {
      {"config", HG_OPT_STR, c->config, sizeof c->config,
       "config file (key = value lines)"},
      {"data", HG_OPT_STR, c->data, sizeof c->data,
       "data dir; made a btrfs loop image when not on btrfs (/var/lib/hangar)"},
      {"listen", HG_OPT_STR, c->listen, sizeof c->listen,
       "API address HOST:PORT (127.0.0.1:7070)"},
      {"api-key", HG_OPT_STR, c->api_key, sizeof c->api_key,
       "admin API key (default: <data>/state/api-key, made at first start)"},
      {"node-id", HG_OPT_STR, c->node_id, sizeof c->node_id,
       "node id (default: <data>/state/node-id, made at first start)"},
      {"template-dir", HG_OPT_STR, c->template_dir, sizeof c->template_dir,
       "register this mkimage output dir as --template-name at start if missing"},
      {"template-name", HG_OPT_STR, c->template_name, sizeof c->template_name,
       "name:tag for --template-dir (default:latest)"},
      {"max-sandboxes", HG_OPT_INT, &c->max_sandboxes, 0,
       "most sandboxes on this node (0: no limit)"},
      {"max-memory-mib", HG_OPT_INT, &c->max_memory_mib, 0,
       "most guest memory of live sandboxes, MiB (0: no limit)"},
      {"idle-suspend-s", HG_OPT_INT, &c->idle_suspend_s, 0,
       "default idle time before a sandbox is suspended (21600)"},
      {"image-size-gib", HG_OPT_INT, &c->image_size_gib, 0,
       "size of the sparse btrfs image when one is made (64)"},
      {"pool-size", HG_OPT_INT, &c->pool_size, 0,
       "warm sandboxes of the default template kept ready for creates (2; 0: off)"},
      {"accel", HG_OPT_STR, c->accel, sizeof c->accel,
       "auto, kvm or tcg: auto uses KVM only once a kernel boots under it (auto)"},
      {"pool-max", HG_OPT_INT, &c->pool_max, 0,
       "after a burst the pool holds as many as came within 10 s, up to this (32)"},
      {"shim", HG_OPT_STR, c->shim, sizeof c->shim,
       "hangar-shim binary (default: next to hangard)"},
      {"log-level", HG_OPT_STR, c->log_level, sizeof c->log_level,
       "debug, info, warn or error (info)"},
      {"gossip", HG_OPT_STR, c->gossip, sizeof c->gossip,
       "cluster gossip address HOST:PORT, UDP+TCP (unset: no cluster)"},
      {"advertise", HG_OPT_STR, c->advertise, sizeof c->advertise,
       "gossip address peers use (default: --gossip; required when it is 0.0.0.0)"},
      {"api-advertise", HG_OPT_STR, c->api_advertise, sizeof c->api_advertise,
       "API address peers and clients use (default: --listen)"},
      {"join", HG_OPT_STR, c->join, sizeof c->join,
       "seed nodes' gossip addresses HOST:PORT[,HOST:PORT...] (unset: start a new "
       "cluster)"},
      {"cluster-key", HG_OPT_STR, c->cluster_key, sizeof c->cluster_key,
       "64 hex digits[,more for rotation] sealing gossip (default: "
       "<data>/state/cluster-key; made only when starting a new cluster)"},
      {"cluster-name", HG_OPT_STR, c->cluster_name, sizeof c->cluster_name,
       "cluster name; nodes of another name are ignored (hangar)"},
      {"zone", HG_OPT_STR, c->zone, sizeof c->zone,
       "zone label; replicas spread across zones"},
      {"labels", HG_OPT_STR, c->labels, sizeof c->labels,
       "node labels k=v[,k=v...] for placement"},
      {"gossip-profile", HG_OPT_STR, c->gossip_profile, sizeof c->gossip_profile,
       "gossip timing: lan, or local for one machine (lan)"},
      {"upstream-dns", HG_OPT_STR, c->upstream_dns, sizeof c->upstream_dns,
       "resolver the egress gateway asks, IP:PORT (default: first nameserver in "
       "/etc/resolv.conf)"},
      {"deny-cidrs", HG_OPT_STR, c->deny_cidrs, sizeof c->deny_cidrs,
       "more ranges the gateway never dials, a.b.c.d/p[,...] (private, loopback, "
       "link-local, metadata always)"},
      {"egress-log-max", HG_OPT_INT, &c->egress_log_max, 0,
       "egress log entries kept per sandbox (1000)"},
      {"no-network", HG_OPT_FLAG, &c->no_network, 0,
       "no gateway: sandboxes get no NIC (hosts without network namespaces)"},
      {"repl", HG_OPT_STR, c->repl, sizeof c->repl,
       "replication address HOST:PORT, TCP (default: the --gossip host, port 7947)"},
      {"repl-advertise", HG_OPT_STR, c->repl_advertise, sizeof c->repl_advertise,
       "replication address peers use (default: --repl, or the --advertise host)"},
      {"replicas", HG_OPT_INT, &c->replicas, 0,
       "copies of each suspended generation, this node's included (2; 1: none)"},
      {"repl-zstd-level", HG_OPT_INT, &c->repl_zstd_level, 0,
       "zstd level of replication streams, 1-19 (1)"},
      {"repl-keep", HG_OPT_INT, &c->repl_keep, 0,
       "generations of each sandbox a replica holder keeps (3)"},
  };
  return hg_config_load(opts, HG_ARRAY_SIZE(opts), argc, argv, "hangard");
}

/* A secret or id kept under state/, made once: flag/env win over it. */
static int state_value(hg_node *n, const char *file, char *value, size_t cap,
                       size_t random_bytes, const char *prefix, bool *made) {
  char path[4096], *text;
  *made = false;
  if (value[0]) return 0;
  int rc = hg_path(path, sizeof path, "%s/state/%s", hg_store_root(n->store), file);
  if (rc < 0) return rc;
  if (hg_read_file(path, cap - 1, &text, NULL) == 0) {
    snprintf(value, cap, "%s", text);
    value[strcspn(value, "\r\n")] = '\0';
    free(text);
    if (value[0]) return 0;
  }
  uint8_t raw[32];
  char hex[65];
  if (random_bytes > sizeof raw) random_bytes = sizeof raw;
  if ((rc = hg_random_bytes(raw, random_bytes)) < 0) return rc;
  hg_hex_encode(raw, random_bytes, hex);
  if ((rc = hg_path(value, cap, "%s%s", prefix, hex)) < 0) return rc;
  *made = true;
  return hg_write_file_atomic(path, value, strlen(value));
}

static void shim_default(hg_config *c) {
  if (c->shim[0]) return;
  char exe[4096];
  ssize_t len = readlink("/proc/self/exe", exe, sizeof exe - 1);
  if (len <= 0) return;
  exe[len] = '\0';
  char *slash = strrchr(exe, '/');
  if (!slash) return;
  *slash = '\0';
  /* Installed side by side, or in the build tree (node/shim/). */
  snprintf(c->shim, sizeof c->shim, "%.4000s/hangar-shim", exe);
  if (access(c->shim, X_OK) == 0) return;
  snprintf(c->shim, sizeof c->shim, "%.4000s/shim/hangar-shim", exe);
}

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

static void tick_work(uv_work_t *w) {
  hg_node *n = w->data;
  hg_manager_tick(n->manager);
}

static void tick_done(uv_work_t *w, int status) {
  hg_node *n = w->data;
  n->ticking = false;
}

static void on_tick(uv_timer_t *t) {
  hg_node *n = t->data;
  if (n->ticking) return;
  n->ticking = true;
  n->tick_work.data = n;
  uv_queue_work(n->loop, &n->tick_work, tick_work, tick_done);
}

/* --- cluster: flags ------------------------------------------------------------ */

static bool is_wildcard(const char *host) {
  return !host[0] || strcmp(host, "0.0.0.0") == 0 || strcmp(host, "::") == 0 ||
         strcmp(host, "[::]") == 0;
}

static bool is_loopback(const char *host) {
  return strncmp(host, "127.", 4) == 0 || strcmp(host, "::1") == 0 ||
         strcmp(host, "[::1]") == 0 || strcmp(host, "localhost") == 0;
}

/* An IP literal: gossip addresses are dialled without a resolver. */
static bool is_ip(const char *host) {
  char bare[256];
  size_t n = strlen(host);
  if (n >= 2 && host[0] == '[' && host[n - 1] == ']') {
    snprintf(bare, sizeof bare, "%.*s", (int)(n - 2), host + 1);
    host = bare;
  }
  struct in6_addr a;
  return inet_pton(AF_INET, host, &a) == 1 || inet_pton(AF_INET6, host, &a) == 1;
}

/* HOST:PORT that a peer can dial: a port and no wildcard host, for gossip
 * an IP literal too. */
static bool dialable(const char *addr, bool ip) {
  char host[256];
  int port;
  return strlen(addr) < HG_ADDR_MAX &&
         hg_hostport_split(addr, host, sizeof host, -1, &port) == 0 && port > 0 &&
         !is_wildcard(host) && (!ip || is_ip(host));
}

static int check_join(const char *join) {
  char copy[4096], *save;
  snprintf(copy, sizeof copy, "%s", join);
  for (char *a = strtok_r(copy, ",", &save); a; a = strtok_r(NULL, ",", &save)) {
    if (dialable(a, true)) continue;
    fprintf(stderr, "hangard: bad --join address \"%s\" (want IP:PORT[,IP:PORT...])\n",
            a);
    return -EINVAL;
  }
  return 0;
}

/* "hex64[,hex64...]": the first seals, all open (key rotation). */
static bool key_list_ok(const char *keys) {
  size_t run = 0, n = 0;
  for (const char *p = keys;; p++) {
    if (*p == ',' || !*p) {
      if (run != CLUSTER_KEY_HEX) return false;
      n++;
      run = 0;
      if (!*p) return n > 0;
    } else if (isxdigit((unsigned char)*p)) {
      run++;
    } else {
      return false;
    }
  }
}

/* The cluster key: the flag or env, else state/cluster-key. A node that
 * joins others must be given theirs; only a node that starts a new
 * cluster makes one (and prints it, as the API key). */
static int cluster_key(hg_node *n) {
  hg_config *c = &n->cfg;
  char path[4096], *text;
  int rc = hg_path(path, sizeof path, "%s/state/cluster-key", hg_store_root(n->store));
  if (rc < 0) return rc;
  if (!c->cluster_key[0] &&
      hg_read_file(path, sizeof c->cluster_key - 1, &text, NULL) == 0) {
    snprintf(c->cluster_key, sizeof c->cluster_key, "%s", text);
    c->cluster_key[strcspn(c->cluster_key, "\r\n")] = '\0';
    free(text);
  }
  if (!c->cluster_key[0] && c->join[0]) {
    fprintf(stderr,
            "hangard: --join needs --cluster-key (the key of the cluster it joins, "
            "in <data>/state/cluster-key on its first node)\n");
    return -EINVAL;
  }
  if (!c->cluster_key[0]) {
    uint8_t raw[CLUSTER_KEY_HEX / 2];
    if ((rc = hg_random_bytes(raw, sizeof raw)) < 0) return rc;
    hg_hex_encode(raw, sizeof raw, c->cluster_key);
    if ((rc = hg_write_file_atomic(path, c->cluster_key, strlen(c->cluster_key))) < 0) {
      fprintf(stderr, "hangard: cannot write %s: %s\n", path, hg_err_str(rc));
      return rc;
    }
    fprintf(stderr,
            "hangard: generated cluster key (kept in %s); other nodes join with\n"
            "  --join %s --cluster-key %s\n",
            path, c->advertise[0] ? c->advertise : c->gossip, c->cluster_key);
  }
  if (!key_list_ok(c->cluster_key)) {
    fprintf(stderr,
            "hangard: bad cluster key (want 64 hex digits, comma-separated when "
            "rotating)\n");
    return -EINVAL;
  }
  return 0;
}

static int meta_labels(const char *labels, hg_node_meta *m) {
  char copy[1024], *save;
  snprintf(copy, sizeof copy, "%s", labels);
  for (char *l = strtok_r(copy, ",", &save); l; l = strtok_r(NULL, ",", &save)) {
    const char *eq = strchr(l, '=');
    if (!eq || eq == l || strlen(l) >= HG_META_NAME_MAX || m->nlabels == HG_META_LABELS) {
      fprintf(stderr,
              "hangard: bad --labels entry \"%s\" (want k=v, at most %d, each "
              "under %d bytes)\n",
              l, HG_META_LABELS, HG_META_NAME_MAX);
      return -EINVAL;
    }
    snprintf(m->labels[m->nlabels++], HG_META_NAME_MAX, "%s", l);
  }
  return 0;
}

/* Checks the cluster flags before anything is started, one clear line each. */
static int cluster_flags_ok(hg_config *c) {
  char host[256];
  int port;
  if (!c->gossip[0]) {
    if (c->join[0] || c->advertise[0]) {
      fprintf(stderr, "hangard: --join and --advertise need --gossip HOST:PORT\n");
      return -EINVAL;
    }
    return 0;
  }
  if (hg_hostport_split(c->gossip, host, sizeof host, -1, &port) < 0 || port == 0 ||
      !is_ip(host)) {
    fprintf(stderr, "hangard: bad --gossip \"%s\" (want IP:PORT)\n", c->gossip);
    return -EINVAL;
  }
  if (!c->advertise[0] && is_wildcard(host)) {
    fprintf(stderr,
            "hangard: --gossip %s listens everywhere: say with --advertise HOST:PORT "
            "where peers reach it\n",
            c->gossip);
    return -EINVAL;
  }
  const char *adv = c->advertise[0] ? c->advertise : c->gossip;
  if (!dialable(adv, true)) {
    fprintf(stderr, "hangard: bad --advertise \"%s\" (want IP:PORT peers can dial)\n",
            adv);
    return -EINVAL;
  }
  if (c->api_advertise[0] && !dialable(c->api_advertise, false)) {
    fprintf(stderr, "hangard: bad --api-advertise \"%s\" (want HOST:PORT)\n",
            c->api_advertise);
    return -EINVAL;
  }
  /* Peers forward requests to our API: one on loopback only reaches
   * peers on this host (a cluster on one machine). */
  char api_host[256];
  int api_port;
  if (!c->api_advertise[0] &&
      hg_hostport_split(c->listen, api_host, sizeof api_host, -1, &api_port) == 0 &&
      is_loopback(api_host) &&
      hg_hostport_split(adv, host, sizeof host, -1, &port) == 0 && !is_loopback(host)) {
    fprintf(stderr,
            "hangard: --listen %s is loopback but peers reach us at %s: listen where "
            "they can reach the API, or say where with --api-advertise\n",
            c->listen, adv);
    return -EINVAL;
  }
  if (strcmp(c->gossip_profile, "lan") != 0 && strcmp(c->gossip_profile, "local") != 0) {
    fprintf(stderr, "hangard: unknown --gossip-profile \"%s\" (lan or local)\n",
            c->gossip_profile);
    return -EINVAL;
  }
  if (c->node_id[0] && !hg_node_id_valid(c->node_id)) { /* empty: made below */
    fprintf(stderr, "hangard: --node-id must be 1-%d of a-z, 0-9 and -\n",
            HG_NODE_ID_MAX - 1);
    return -EINVAL;
  }
  hg_node_meta scratch = {0};
  if (meta_labels(c->labels, &scratch) < 0) return -EINVAL;
  if (c->replicas < 1 || c->replicas > 8 || c->repl_zstd_level < 1 || c->repl_zstd_level > 19 ||
      c->repl_keep < 1 || c->repl_keep > 1000) {
    fprintf(stderr, "hangard: --replicas is 1-8, --repl-zstd-level 1-19, --repl-keep 1-1000\n");
    return -EINVAL;
  }
  if (c->repl_advertise[0] && !dialable(c->repl_advertise, false)) {
    fprintf(stderr, "hangard: bad --repl-advertise \"%s\" (want HOST:PORT)\n", c->repl_advertise);
    return -EINVAL;
  }
  return c->join[0] ? check_join(c->join) : 0;
}

/* --- cluster: what this node tells the others ----------------------------------- */

/* First line a program prints, for `qemu-system-x86_64 --version`. */
static int first_line_of(const char *const argv[], char *out, size_t cap) {
  int fds[2];
  if (pipe2(fds, O_CLOEXEC) < 0) return -errno;
  pid_t pid = fork();
  if (pid < 0) {
    close(fds[0]);
    close(fds[1]);
    return -errno;
  }
  if (pid == 0) {
    dup2(fds[1], 1);
    int null = open("/dev/null", O_RDWR);
    if (null >= 0) dup2(null, 2);
    execvp(argv[0], (char *const *)argv);
    _exit(127);
  }
  close(fds[1]);
  size_t len = 0;
  ssize_t r;
  while (len + 1 < cap && (r = read(fds[0], out + len, cap - 1 - len)) != 0) {
    if (r < 0 && errno == EINTR) continue;
    if (r < 0) break;
    len += (size_t)r;
  }
  out[len] = '\0';
  out[strcspn(out, "\n")] = '\0';
  close(fds[0]);
  int status;
  while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  return len ? 0 : -ENOENT;
}

/* "QEMU emulator version 7.2.22 (Debian …)" -> "7.2.22": snapshots move
 * only between nodes whose VMM can load them. */
static void vmm_version(char out[32]) {
  const char *const argv[] = {hg_qemu_bin(), "--version", NULL};
  char line[256];
  snprintf(out, 32, "unknown");
  if (first_line_of(argv, line, sizeof line) < 0) return;
  const char *v = strstr(line, "version ");
  if (v) snprintf(out, 32, "%.*s", (int)strcspn(v + 8, " "), v + 8);
}

/* Under TCG the guest CPU model is the same everywhere; under KVM a
 * snapshot wants the same host CPU model. From the accelerator that runs,
 * not from /dev/kvm: snapshots must never move between KVM and TCG nodes. */
static void cpu_class(const hg_accel *accel, char out[64]) {
  snprintf(out, 64, "tcg");
  if (strcmp(accel->name, "kvm") != 0) return;
  snprintf(out, 64, "kvm");
  char *text;
  if (hg_read_file("/proc/cpuinfo", 1u << 20, &text, NULL) < 0) return;
  const char *p = strstr(text, "model name");
  if (p && (p = strchr(p, ':'))) {
    p += 1 + strspn(p + 1, " \t");
    snprintf(out, 64, "%.*s", (int)strcspn(p, "\n"), p);
  }
  free(text);
}

static int meta_base(hg_node *n, int api_port) {
  hg_config *c = &n->cfg;
  hg_node_meta *m = &n->meta_base;
  memset(m, 0, sizeof *m);
  snprintf(m->id, sizeof m->id, "%s", c->node_id);
  /* Lengths were checked (dialable): the precisions only quiet the compiler. */
  snprintf(m->gossip_addr, sizeof m->gossip_addr, "%.63s",
           c->advertise[0] ? c->advertise : c->gossip);
  char host[256];
  int port;
  if (c->api_advertise[0]) {
    snprintf(m->api_addr, sizeof m->api_addr, "%.63s", c->api_advertise);
  } else if (hg_hostport_split(c->listen, host, sizeof host, -1, &port) == 0 &&
             !is_wildcard(host)) {
    hg_hostport_join(m->api_addr, sizeof m->api_addr, host, api_port);
  } else if (hg_hostport_split(m->gossip_addr, host, sizeof host, -1, &port) == 0) {
    /* The API listens everywhere: peers reach it where they reach gossip. */
    hg_hostport_join(m->api_addr, sizeof m->api_addr, host, api_port);
  }
  snprintf(m->zone, sizeof m->zone, "%s", c->zone);
  snprintf(m->vmm_kind, sizeof m->vmm_kind, "qemu");
  vmm_version(m->vmm_version);
  cpu_class(&n->accel, m->cpu_class);
  long cpus = sysconf(_SC_NPROCESSORS_ONLN);
  m->vcpus_total = cpus > 0 ? (uint32_t)cpus : 1;
  uint64_t ram = (uint64_t)sysconf(_SC_PHYS_PAGES) * (uint64_t)sysconf(_SC_PAGESIZE);
  m->memory_total_mib = c->max_memory_mib > 0 ? (uint64_t)c->max_memory_mib : ram >> 20;
  m->max_sandboxes = c->max_sandboxes > 0 ? (uint32_t)c->max_sandboxes : 0;
  return meta_labels(c->labels, m);
}

static bool holds_memory(const char *state) {
  static const char *const live[] = {"creating", "running", "paused", "resuming",
                                     "suspending"};
  for (size_t i = 0; state && i < HG_ARRAY_SIZE(live); i++)
    if (strcmp(state, live[i]) == 0) return true;
  return false;
}

/* Templates held, and the warm pool's guests, which hold memory too. */
static void meta_templates(hg_node *n, hg_node_meta *m) {
  json_t *list = hg_template_list(n->manager), *t;
  size_t i;
  unsigned pool_mib = 0;
  json_array_foreach(list, i, t) {
    const char *name = json_string_value(json_object_get(t, "name"));
    if (!name || strlen(name) >= HG_META_NAME_MAX) continue;
    if (strcmp(name, n->cfg.template_name) == 0)
      pool_mib = (unsigned)json_integer_value(json_object_get(t, "memory_mib"));
    bool seen = false;
    for (unsigned k = 0; k < m->ntemplates && !seen; k++)
      seen = !strcmp(m->templates[k], name);
    if (!seen && m->ntemplates < HG_META_TEMPLATES)
      snprintf(m->templates[m->ntemplates++], HG_META_NAME_MAX, "%s", name);
  }
  json_decref(list);
  m->memory_used_mib += (uint64_t)hg_manager_pool_ready(n->manager) * pool_mib;
}

/* Sandbox counts from the manager's memory (cheap, loop-safe). */
static void meta_counts(hg_node *n, hg_node_meta *m) {
  unsigned counts[HG_SB_FAILED + 1];
  hg_manager_counts(n->manager, counts);
  m->sandboxes_running = counts[HG_SB_RUNNING];
  m->sandboxes_paused = counts[HG_SB_PAUSED];
  m->sandboxes_suspended = counts[HG_SB_SUSPENDED];
  m->sandboxes_total = 0;
  for (int s = 0; s <= HG_SB_FAILED; s++)
    if (s != HG_SB_DELETED) m->sandboxes_total += counts[s];
}

/* The load part; on a worker (the template list reads the disk). */
static void meta_load(hg_node *n, hg_node_meta *m) {
  *m = n->meta_base;
  meta_counts(n, m);
  /* The live guests' own sizes: what they were given, not what they touched. */
  json_t *list = hg_sandbox_list(n->manager, NULL, NULL), *sb;
  size_t i;
  json_array_foreach(list, i, sb) {
    if (!holds_memory(json_string_value(json_object_get(sb, "state")))) continue;
    m->vcpus_used += (uint32_t)json_integer_value(json_object_get(sb, "vcpus"));
    m->memory_used_mib += (uint64_t)json_integer_value(json_object_get(sb, "memory_mib"));
  }
  json_decref(list);
  meta_templates(n, m);
  struct statvfs vfs;
  if (statvfs(hg_store_root(n->store), &vfs) == 0)
    m->disk_free_mib = (uint64_t)vfs.f_bavail * vfs.f_frsize >> 20;
  m->updated_ms = hg_wall_ns() / 1000000;
}

static void meta_work(uv_work_t *w) {
  hg_node *n = w->data;
  hg_node_meta m;
  meta_load(n, &m);
  hg_cluster *cl = hg_guard_enter(&n->cl);
  n->meta_last = m;
  if (cl) hg_cluster_set_meta(cl, &m);
  hg_guard_leave(&n->cl);
}

/* Placement reads our own room from our metadata, which the timer refreshes
 * once a second: a create that just filled this node would not show yet,
 * and the next one would be placed here again and refused. Counts are
 * fresh in memory, so put them in before placing. */
static void meta_counts_now(hg_node *n) {
  hg_cluster *cl = hg_guard_enter(&n->cl);
  if (cl && n->meta_last.id[0]) {
    meta_counts(n, &n->meta_last);
    hg_cluster_set_meta(cl, &n->meta_last);
  }
  hg_guard_leave(&n->cl);
}

static void meta_done(uv_work_t *w, int status) {
  hg_node *n = w->data;
  n->meta_busy = false;
}

static void on_meta_timer(uv_timer_t *t) {
  hg_node *n = t->data;
  if (n->meta_busy || !n->cluster) return;
  n->meta_busy = true;
  n->meta_work.data = n;
  uv_queue_work(n->loop, &n->meta_work, meta_work, meta_done);
}

/* The manager's on_change: our sandboxes into the directory. From any
 * thread. The holders of a generation stay as long as the generation does:
 * the replicator adds them as peers acknowledge it, through the same
 * atomic update, so neither writer drops the other's change. */
static int sandbox_change_apply(void *arg, hg_dirent *e, bool exists) {
  hg_dirent next = *(const hg_dirent *)arg;
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

static int peers_locate(void *ud, const char *sandbox, char owner[64], char addr[64]) {
  hg_node *n = ud;
  hg_dirent e;
  char a[HG_ADDR_MAX];
  if (!n->cluster || hg_cluster_dir_get(n->cluster, sandbox, &e) < 0) return 0;
  if (strcmp(e.owner, n->cfg.node_id) == 0 || strcmp(e.state, "deleted") == 0) return 0;
  if (hg_cluster_api_addr(n->cluster, e.owner, a) < 0)
    return 0; /* unknown or not alive */
  snprintf(owner, 64, "%s", e.owner);
  snprintf(addr, 64, "%s", a);
  return 1;
}

static int peers_place(void *ud, const char *template_ref, unsigned vcpus,
                       unsigned memory_mib, const char *zone, const char *label,
                       char owner[64], char addr[64], char reason[256]) {
  hg_node *n = ud;
  if (!n->cluster) return 1;
  meta_counts_now(n);
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
  if (hg_hostport_split(bind, host, sizeof host, -1, &port) < 0 || !is_ip(host)) {
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
  else if (!is_wildcard(host)) hg_hostport_join(adv, cap, host, port);
  else if (hg_hostport_split(n->meta_base.gossip_addr, adv_host, sizeof adv_host, -1, &rc) == 0)
    hg_hostport_join(adv, cap, adv_host, port);
  hg_log_info("repl.listen", "bind=%s advertise=%s", hg_repl_addr(n->repl), adv);
  return 0;
}

/* The API's view of the replicator (hg_api_repl). */
static int repl_after_suspend(void *ud, const char *id, uint64_t gen, const char *durability,
                              void (*progress)(void *, const char *), void *pud,
                              json_t **report, char msg[256]) {
  return hg_replicator_after_suspend(((hg_node *)ud)->replicator, id, gen, durability, progress, pud, report, msg);
}
static int repl_adopt(void *ud, const char *id, char msg[256]) {
  return hg_replicator_adopt(((hg_node *)ud)->replicator, id, msg);
}
static bool repl_holds(void *ud, const char *id) { return hg_replicator_holds(((hg_node *)ud)->replicator, id); }
static bool repl_token_ok(void *ud, const char *id, const char *token) {
  return hg_replicator_token_ok(((hg_node *)ud)->replicator, id, token);
}
static int repl_replicas(void *ud, const char *id, json_t **out, char msg[256]) {
  return hg_replicator_replicas(((hg_node *)ud)->replicator, id, out, msg);
}
static int repl_resume_at(void *ud, const char *id, const char *node, char target[64],
                          char addr[64], char msg[256]) {
  return hg_replicator_resume_at(((hg_node *)ud)->replicator, id, node, target, addr, msg);
}
static void repl_metrics(void *ud, hg_buf *out) {
  hg_node *n = ud;
  hg_repl_metrics(n->repl, out);
}

/* After the manager: the replicator moves its sandboxes. */
static int replicator_start(hg_node *n) {
  if (!n->repl) return 0;
  hg_replicator_config rc_ = {.repl = n->repl,
                              .manager = n->manager,
                              .cluster = n->cluster,
                              .store = n->store,
                              .node_id = n->cfg.node_id};
  int rc = hg_replicator_start(&rc_, &n->replicator);
  if (rc < 0) return rc;
  n->api_repl = (hg_api_repl){.ud = n,
                              .after_suspend = repl_after_suspend,
                              .adopt = repl_adopt,
                              .holds = repl_holds,
                              .token_ok = repl_token_ok,
                              .replicas = repl_replicas,
                              .resume_at = repl_resume_at,
                              .metrics = repl_metrics};
  return 0;
}

/* --- cluster: life ------------------------------------------------------------------ */

/* Before the manager opens, so its first on_change calls reach the directory. */
static int cluster_open(hg_node *n) {
  hg_config *c = &n->cfg;
  int rc;
  if (!c->gossip[0]) return 0;
  if ((rc = cluster_key(n)) < 0) return rc;
  char host[256];
  int port = 0;
  hg_hostport_split(c->listen, host, sizeof host, -1, &port);
  if ((rc = meta_base(n, port)) < 0) return rc;
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
                          .self = n->meta_base};
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
  meta_load(n, &m);
  hg_cluster_set_meta(n->cluster, &m);
  int rc = hg_cluster_start(n->cluster);
  if (rc < 0) {
    fprintf(stderr, "hangard: cannot start gossip on %s: %s\n", n->cfg.gossip,
            hg_err_str(rc));
    return rc;
  }
  uv_timer_init(n->loop, &n->meta_timer);
  n->meta_timer.data = n;
  uv_timer_start(&n->meta_timer, on_meta_timer, META_MS, META_MS);
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
  if (n->meta_timer.data)
    uv_close((uv_handle_t *)&n->meta_timer, NULL); /* cluster_start */
}

/* The API is gone; leave the cluster gracefully (peers see "left", not a
 * death), after which nothing from a worker may reach it. */
static void http_closed(void *ud) {
  hg_node *n = ud;
  n->http = NULL;
  hg_api_free(n->api);
  n->api = NULL;
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
  if (n->cluster) uv_timer_stop(&n->meta_timer);
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

static int set_log_level(const char *name) {
  static const char *const names[] = {"debug", "info", "warn", "error"};
  for (int i = 0; i < 4; i++)
    if (strcmp(name, names[i]) == 0) {
      hg_log_set_level((enum hg_log_level)i);
      return 0;
    }
  return -EINVAL;
}

static int node_open(hg_node *n) {
  hg_config *c = &n->cfg;
  if (set_log_level(c->log_level) < 0) {
    fprintf(stderr, "hangard: unknown log level \"%s\"\n", c->log_level);
    return -EINVAL;
  }
  /* Before the store: a bad flag should not cost a loop mount. */
  if (cluster_flags_ok(c) < 0) return -EINVAL;
  hg_accel_mode accel;
  if (hg_accel_mode_parse(c->accel, &accel) < 0) {
    fprintf(stderr, "hangard: --accel must be auto, kvm or tcg, not \"%s\"\n", c->accel);
    return -EINVAL;
  }
  shim_default(c);
  hg_store_options sopt = {.image_size = (uint64_t)c->image_size_gib << 30};
  int rc = hg_store_open(c->data, &sopt, &n->store);
  if (rc < 0) {
    fprintf(stderr, "hangard: cannot open data dir %s: %s\n", c->data, hg_err_str(rc));
    return rc;
  }
  bool made_id, made_key;
  if ((rc = state_value(n, "node-id", c->node_id, sizeof c->node_id, 4, "n-", &made_id)) <
          0 ||
      (rc = state_value(n, "api-key", c->api_key, sizeof c->api_key, 24, "hgk_",
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
  hg_manager_config mcfg = {.store = n->store,
                            .vmm = &hg_vmm_qemu,
                            .shim_path = c->shim,
                            .accel = n->accel.name,
                            .net = node_net(n),
                            .max_sandboxes = (unsigned)c->max_sandboxes,
                            .max_memory_mib = (uint64_t)c->max_memory_mib,
                            .default_idle_suspend_s = c->idle_suspend_s,
                            .pool_size = c->pool_size > 0 ? (unsigned)c->pool_size : 0,
                            .pool_max = c->pool_max > 0 ? (unsigned)c->pool_max : 0,
                            .pool_template = c->template_name,
                            .on_change = n->cluster ? on_sandbox_change : NULL,
                            .on_change_ud = n,
                            .default_replicas = (unsigned)c->replicas};
  if ((rc = hg_manager_open(&mcfg, &n->manager)) < 0) return rc;
  return replicator_start(n);
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
                        .gateway = n->gateway,
                        .admin_key = n->cfg.api_key,
                        .node_id = n->cfg.node_id,
                        .accel = n->accel.name,
                        .accel_reason = n->accel.reason,
                        .peers = n->cluster ? &n->peers : NULL,
                        .repl = n->replicator ? &n->api_repl : NULL};
  if ((rc = hg_api_new(n->loop, &acfg, &n->api)) < 0) return rc;
  hg_http_options hopt = {.host = host, .port = port};
  hg_api_http_options(n->api, &hopt);
  if ((rc = hg_http_server_start(n->loop, &hopt, &n->http)) < 0) {
    fprintf(stderr, "hangard: cannot listen on %s: %s\n", n->cfg.listen, hg_err_str(rc));
    return rc;
  }
  hg_log_info("node.ready", "listen=%s:%d data=%s", host, hg_http_port(n->http),
              hg_store_root(n->store));
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
}

int main(int argc, char **argv) {
  static hg_node node;
  hg_node *n = &node;
  config_defaults(&n->cfg);
  int rc = config_load(&n->cfg, argc, argv);
  if (rc != 0) return rc == 1 ? 0 : 2;
  signal(SIGPIPE, SIG_IGN);
  /* Sandbox calls block on guests; the pool must be wide enough that slow
   * guests do not hold up everyone else. Set before the loop's first use. */
  setenv("UV_THREADPOOL_SIZE", THREADPOOL_SIZE, 0);
  umask(077);
  n->loop = uv_default_loop();
  hg_guard_init(&n->cl, NULL);
  if (node_open(n) < 0 || node_serve(n) < 0 || cluster_start(n) < 0) return 1;
  node_signals(n);
  maybe_import_template(n);
  uv_run(n->loop, UV_RUN_DEFAULT);
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
