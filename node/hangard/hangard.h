/* hangard's own pieces (node/hangard): the daemon's state and what its
 * files share. main.c starts and stops the node and wires the subsystems
 * together; config.c reads and checks the flags; meta.c keeps what this
 * node tells the cluster about itself; lifecycle.c (lifecycle.h) sequences
 * every operation. Nothing outside node/hangard includes this. */
#ifndef HG_HANGARD_HANGARD_H
#define HG_HANGARD_HANGARD_H

#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>
#include <uv.h>

#include "api/api.h"
#include "api/http.h"
#include "cluster/cluster.h"
#include "gateway/gateway.h"
#include "node/accel.h"
#include "node/core/guard.h"
#include "node/core/ident.h"
#include "node/hangard/failover.h"
#include "node/hangard/leasing.h"
#include "node/hangard/lifecycle.h"
#include "node/hangard/regain.h"
#include "node/op.h"
#include "node/sandbox.h"
#include "node/store.h"
#include "replication/repl.h"
#include "replication/replicator.h"

#define TICK_MS 10000
#define CKPT_TICK_MS 1000 /* checkpoint intervals are whole seconds, from 2 */
#define REPL_PORT 7947 /* replication's default port, beside gossip's */
#define META_MS 1000   /* load and capacity to the cluster (it gossips at most 1/s) */
/* The pool: the API's share, API_POOL (node_serve gives api.h's budget
 * as its defaults would for a pool of that size: 3/4 held calls, 1/8
 * operations), and beside it failover's takes, which mostly wait.
 * Restores and the rest take their turn in the API's share. */
#define API_POOL 128
#define THREADPOOL_SIZE (API_POOL + HG_FAILOVER_TAKERS)
#define CLUSTER_KEY_HEX 64

typedef struct hg_config {
  char config[4096];
  char data[4096];
  char listen[256];
  char api_key[256];
  char tls_cert[4096], tls_key[4096], tls_ca[4096]; /* API over TLS (api/tls.h) */
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
  int64_t checkpoint_s, checkpoint_keep; /* checkpoints (DESIGN §9) */
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
  /* leases (DESIGN §9) */
  int64_t lease_ms, lease_margin_ms, acceptors;
  int64_t dead_member_s; /* a group member dead this long is replaced */
  int64_t tombstone_s;   /* the directory keeps deleted entries this long */
  int no_failover;       /* failover.h off: a dead node's sandboxes wait for a resume */
} hg_config;

typedef struct hg_node {
  hg_config cfg;
  uv_loop_t *loop;
  hg_store *store;
  hg_manager *manager;
  hg_ops *ops;
  hg_api *api;
  hg_http_server *http;
  struct hg_tls *tls; /* --tls-cert: the API listener's TLS, NULL: plain HTTP */
  hg_gateway *gateway; /* NULL with --no-network */
  hg_net_ops net;      /* the manager's view of it */
  hg_accel accel;      /* what every VM of this node runs under, and why */
  char guest_mac[18];
  uv_signal_t sigint, sigterm;
  uv_timer_t tick;
  uv_work_t tick_work;
  bool ticking, stopping;
  uv_timer_t ckpt_tick; /* checkpoints: a pass each CKPT_TICK_MS, one at a time */
  uv_work_t ckpt_work;
  bool ckpt_ticking;
  uv_work_t template_work;
  char template_op[HG_ID_MAX];
  int exit_code;
  /* Cluster. cl is what threads may use (the on_change hook, the meta
   * worker): cleared before hg_cluster_close begins, so nothing reaches
   * the cluster after. cluster is the loop's own handle. */
  hg_cluster *cluster;
  hg_guard cl;
  hg_api_peers peers;
  hg_repl *repl; /* with a cluster: the replication service */
  hg_replicator *replicator;
  hg_life *life; /* lifecycle: every operation's sequence (lifecycle.h) */
  hg_leasing *leasing; /* leases: every VM start under one (leasing.h) */
  hg_life_leases life_leases;
  struct hg_failover *failover; /* NULL: no cluster, or --no-failover */
  hg_regain *regain; /* running copies whose lease a rival was promised */
  bool leases_off; /* HANGAR_LEASES=off: tools/bench only */
  hg_node_meta meta_base; /* what does not change: ids, addresses, totals */
  hg_node_meta meta_last; /* the last full load sent, under cl */
  uv_timer_t meta_timer;
  uv_work_t meta_work;
  bool meta_busy;
} hg_node;

/* --- config.c: flags, files under state/, validation ---------------------------- */

void hg_conf_defaults(hg_config *c);
/* 0: go on; 1: --help was answered; < 0: a bad flag (said on stderr). */
int hg_conf_load(hg_config *c, int argc, char **argv);
/* Checks the cluster, replication and label flags, one clear line each on
 * stderr; before anything starts. */
int hg_conf_check(hg_config *c);
int hg_conf_log_level(const char *name);
void hg_conf_shim_default(hg_config *c);
/* A secret or id kept under state/, made once (*made): flag/env win over it. */
int hg_conf_state_value(hg_node *n, const char *file, char *value, size_t cap,
                        size_t random_bytes, const char *prefix, bool *made);
/* The cluster key: the flag or env, else state/cluster-key, else a new one
 * (only when starting a new cluster). */
int hg_conf_cluster_key(hg_node *n);
/* --labels k=v[,k=v...] into m->labels. */
int hg_conf_labels(const char *labels, hg_node_meta *m);
bool hg_conf_is_wildcard(const char *host);
bool hg_conf_is_ip(const char *host);

/* --- meta.c: what this node tells the others ---------------------------------- */

/* The parts that do not change: ids, addresses, VMM, CPU class, totals. */
int hg_meta_base(hg_node *n, int api_port);
/* meta_base plus the load now; reads the disk (a worker, or at start). */
void hg_meta_load(hg_node *n, hg_node_meta *m);
/* Fresh sandbox counts into the cluster's view of us, before placing. */
void hg_meta_counts_now(hg_node *n);
/* The META_MS timer: hg_meta_load on a worker, into the cluster. */
void hg_meta_on_timer(uv_timer_t *t);

#endif
