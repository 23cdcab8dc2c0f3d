/* hangard's flags (key = value file, HANGAR_* env, --flags), the values
 * kept under state/ (node id, API key, cluster key), and the checks that
 * run before anything starts: one clear line on stderr per bad flag. */
#include <arpa/inet.h>
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "node/core/config.h"
#include "node/core/err.h"
#include "node/core/log.h"
#include "node/checkpoint.h"
#include "node/core/util.h"
#include "node/hangard/hangard.h"

void hg_conf_defaults(hg_config *c) {
  memset(c, 0, sizeof *c);
  strcpy(c->data, "/var/lib/hangar");
  strcpy(c->listen, "127.0.0.1:7070");
  strcpy(c->template_name, "default:latest");
  strcpy(c->log_level, "info");
  strcpy(c->accel, "auto");
  c->idle_suspend_s = 6 * 3600;
  c->image_size_gib = 64;
  c->checkpoint_keep = HG_CKPT_KEEP_DEFAULT;
  c->pool_size = 2;
  strcpy(c->cluster_name, "hangar");
  strcpy(c->gossip_profile, "lan");
  c->replicas = 2;
  c->repl_zstd_level = 1;
  c->repl_keep = 3;
  c->lease_ms = HG_LEASE_MS_DEFAULT;
  c->lease_margin_ms = HG_LEASE_MARGIN_MS_DEFAULT;
  c->acceptors = 3;
  c->dead_member_s = 600;
  c->tombstone_s = 600;
}

int hg_conf_load(hg_config *c, int argc, char **argv) {
  const hg_opt opts[] = {
      {"config", HG_OPT_STR, c->config, sizeof c->config,
       "config file (key = value lines)"},
      {"data", HG_OPT_STR, c->data, sizeof c->data,
       "data dir; made a btrfs loop image when not on btrfs (/var/lib/hangar)"},
      {"listen", HG_OPT_STR, c->listen, sizeof c->listen,
       "API address HOST:PORT (127.0.0.1:7070)"},
      {"tls-cert", HG_OPT_STR, c->tls_cert, sizeof c->tls_cert,
       "PEM certificate chain: the API listens with TLS (unset: plain HTTP); "
       "forwards to peers then use https"},
      {"tls-key", HG_OPT_STR, c->tls_key, sizeof c->tls_key,
       "PEM private key of --tls-cert"},
      {"tls-ca", HG_OPT_STR, c->tls_ca, sizeof c->tls_ca,
       "PEM CA certificates that peers' API certificates are checked against "
       "(default: the system's CA store; never unchecked)"},
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
      {"checkpoint-s", HG_OPT_INT, &c->checkpoint_s, 0,
       "default checkpoint interval of a running sandbox whose create names none, "
       "2-86400 s: a generation taken without stopping it and copied to its holders "
       "(0: off)"},
      {"checkpoint-keep", HG_OPT_INT, &c->checkpoint_keep, 0,
       "checkpoint generations each sandbox keeps on its owner, at least 1 (3)"},
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
      {"lease-ms", HG_OPT_INT, &c->lease_ms, 0,
       "lease length T in ms: a VM cut off from its group stops within it (3000)"},
      {"lease-margin-ms", HG_OPT_INT, &c->lease_margin_ms, 0,
       "lease margin in ms: covers clock drift and fencing latency (500)"},
      {"acceptors", HG_OPT_INT, &c->acceptors, 0,
       "acceptor group of each new sandbox: 3 or 5 nodes (3)"},
      {"dead-member-s", HG_OPT_INT, &c->dead_member_s, 0,
       "a lease holder replaces a group member dead this long, in s (600)"},
      {"no-failover", HG_OPT_FLAG, &c->no_failover, 0,
       "never take over the sandboxes of a dead node (they wait for a resume by hand)"},
      {"tombstone-s", HG_OPT_INT, &c->tombstone_s, 0,
       "how long the directory keeps a deleted sandbox's entry, in s (600)"},
  };
  return hg_config_load(opts, HG_ARRAY_SIZE(opts), argc, argv, "hangard");
}

/* A secret or id kept under state/, made once: flag/env win over it. */
int hg_conf_state_value(hg_node *n, const char *file, char *value, size_t cap,
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

void hg_conf_shim_default(hg_config *c) {
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

/* --- cluster: flags ------------------------------------------------------------ */

bool hg_conf_is_wildcard(const char *host) {
  return !host[0] || strcmp(host, "0.0.0.0") == 0 || strcmp(host, "::") == 0 ||
         strcmp(host, "[::]") == 0;
}

static bool is_loopback(const char *host) {
  return strncmp(host, "127.", 4) == 0 || strcmp(host, "::1") == 0 ||
         strcmp(host, "[::1]") == 0 || strcmp(host, "localhost") == 0;
}

/* An IP literal: gossip addresses are dialled without a resolver. */
bool hg_conf_is_ip(const char *host) {
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
         !hg_conf_is_wildcard(host) && (!ip || hg_conf_is_ip(host));
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
int hg_conf_cluster_key(hg_node *n) {
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

int hg_conf_labels(const char *labels, hg_node_meta *m) {
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
int hg_conf_check(hg_config *c) {
  char host[256], why[128];
  int port;
  if (hg_ckpt_interval_check(c->checkpoint_s, why) < 0) {
    fprintf(stderr, "hangard: --checkpoint-s: %s\n", why);
    return -EINVAL;
  }
  if (c->checkpoint_keep < 1 || c->checkpoint_keep > 1000) {
    fprintf(stderr, "hangard: --checkpoint-keep must be 1 to 1000, not %lld\n",
            (long long)c->checkpoint_keep);
    return -EINVAL;
  }
  if (!c->tls_cert[0] != !c->tls_key[0] || (c->tls_ca[0] && !c->tls_cert[0])) {
    fprintf(stderr, "hangard: --tls-cert and --tls-key go together, and --tls-ca needs them\n");
    return -EINVAL;
  }
  if (!c->gossip[0]) {
    if (c->join[0] || c->advertise[0]) {
      fprintf(stderr, "hangard: --join and --advertise need --gossip HOST:PORT\n");
      return -EINVAL;
    }
    return 0;
  }
  if (hg_hostport_split(c->gossip, host, sizeof host, -1, &port) < 0 || port == 0 ||
      !hg_conf_is_ip(host)) {
    fprintf(stderr, "hangard: bad --gossip \"%s\" (want IP:PORT)\n", c->gossip);
    return -EINVAL;
  }
  if (!c->advertise[0] && hg_conf_is_wildcard(host)) {
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
  if (hg_conf_labels(c->labels, &scratch) < 0) return -EINVAL;
  if (c->replicas < 1 || c->replicas > 8 || c->repl_zstd_level < 1 || c->repl_zstd_level > 19 ||
      c->repl_keep < 1 || c->repl_keep > 1000) {
    fprintf(stderr, "hangard: --replicas is 1-8, --repl-zstd-level 1-19, --repl-keep 1-1000\n");
    return -EINVAL;
  }
  /* Every node of a cluster must use the same T and margin: the claim's
   * wait on one node covers the lease another granted. */
  if (c->lease_ms < 300 || c->lease_ms > 600000 || c->lease_margin_ms < 50 ||
      c->lease_margin_ms * 4 > c->lease_ms) {
    fprintf(stderr, "hangard: --lease-ms is 300-600000 and --lease-margin-ms 50 to a "
                    "quarter of it (got %lld and %lld)\n",
            (long long)c->lease_ms, (long long)c->lease_margin_ms);
    return -EINVAL;
  }
  if (c->acceptors != 3 && c->acceptors != 5) {
    fprintf(stderr, "hangard: --acceptors is 3 or 5\n");
    return -EINVAL;
  }
  if (c->dead_member_s < 1 || c->dead_member_s > 30 * 86400 || c->tombstone_s < 1 ||
      c->tombstone_s > 30 * 86400) {
    fprintf(stderr, "hangard: --dead-member-s and --tombstone-s are 1 to 2592000 (30 days)\n");
    return -EINVAL;
  }
  if (c->repl_advertise[0] && !dialable(c->repl_advertise, false)) {
    fprintf(stderr, "hangard: bad --repl-advertise \"%s\" (want HOST:PORT)\n", c->repl_advertise);
    return -EINVAL;
  }
  return c->join[0] ? check_join(c->join) : 0;
}

int hg_conf_log_level(const char *name) {
  static const char *const names[] = {"debug", "info", "warn", "error"};
  for (int i = 0; i < 4; i++)
    if (strcmp(name, names[i]) == 0) {
      hg_log_set_level((enum hg_log_level)i);
      return 0;
    }
  return -EINVAL;
}
