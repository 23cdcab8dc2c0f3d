/* gateway: the egress gateway's thread and loop, the per-sandbox state
 * (namespace, tap, rules, listeners), policies and their files, the DNS
 * responder and the egress log. See gateway.h (public) and gw.h (shared
 * with proxy.c, which owns the guest's TCP connections).
 *
 * Threads: everything below runs on the gateway thread, except the public
 * entry points, which put a request on a queue, wake the loop (uv_async)
 * and wait on the request's condition variable. Requests run one at a
 * time, in order; a detach, which waits for handles to close, holds the
 * queue until it is done, so no request ever sees a half-detached
 * sandbox.
 *
 * Beside it, behind gateway_internal.h: policies and their files
 * (policy.c) and the DNS responder (resolver.c). */
#include "gateway/gateway.h"

#include <arpa/inet.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <unistd.h>

#include "gateway/dns.h"
#include "gateway/gateway_internal.h"
#include "gateway/gw.h"
#include "gateway/names.h"
#include "gateway/netns.h"
#include "gateway/nft.h"
#include "node/core/err.h"
#include "node/core/ident.h"
#include "node/core/log.h"
#include "node/core/util.h"

static const char *const proto_names[P_COUNT] = {"dns", "http", "tls", "tcp", "other"};

/* ---- small helpers ----------------------------------------------------------- */

static bool name_valid(const char *name) {
  return hg_name_valid(name, HG_NETNS_NAME_MAX);
}

static void ip_text(uint32_t ip, char out[INET_ADDRSTRLEN]) {
  struct in_addr a = {.s_addr = htonl(ip)};
  inet_ntop(AF_INET, &a, out, INET_ADDRSTRLEN);
}

static int64_t wall_ms(void) {
  return hg_wall_ns() / 1000000;
}

/* ---- the egress log ------------------------------------------------------------ */

static int proto_index(const char *proto) {
  for (int i = 0; i < P_OTHER; i++)
    if (proto && strcmp(proto, proto_names[i]) == 0) return i;
  return P_OTHER;
}

void hg_gw_log(hg_gw_sandbox *sb, const char *proto, const char *name, uint32_t ip,
               uint16_t port, bool allowed, const char *reason, uint64_t bytes_out,
               uint64_t bytes_in) {
  hg_gateway *gw = sb->gw;
  gw->decisions[proto_index(proto)][allowed ? 1 : 0]++;
  /* The ring grows to log_max, then wraps; it wraps only once full, so
   * while it grows its entries start at index 0. */
  if (sb->log_len == sb->log_cap && sb->log_cap < gw->log_max) {
    size_t cap = sb->log_cap ? sb->log_cap * 2 : 16;
    if (cap > gw->log_max) cap = gw->log_max;
    log_entry *l = realloc(sb->log, cap * sizeof *l);
    if (l) {
      sb->log = l;
      sb->log_cap = cap;
    }
  }
  if (sb->log_cap == 0) return;
  log_entry *e;
  if (sb->log_len < sb->log_cap) {
    e = &sb->log[(sb->log_head + sb->log_len++) % sb->log_cap];
  } else {
    e = &sb->log[sb->log_head];
    sb->log_head = (sb->log_head + 1) % sb->log_cap;
  }
  e->wall_ms = wall_ms();
  e->ip = ip;
  e->port = port;
  e->allowed = allowed;
  e->bytes_out = bytes_out;
  e->bytes_in = bytes_in;
  snprintf(e->proto, sizeof e->proto, "%s", proto ? proto : "");
  snprintf(e->reason, sizeof e->reason, "%s", reason ? reason : "");
  snprintf(e->name, sizeof e->name, "%s", name ? name : "");
  hg_log_debug("gateway.egress",
               "sandbox=%s proto=%s name=%s port=%u verdict=%s reason=%s", sb->name,
               e->proto, e->name, port, allowed ? "allow" : "deny", e->reason);
}

static json_t *log_json(const hg_gw_sandbox *sb) {
  json_t *arr = json_array();
  for (size_t i = 0; arr && sb && i < sb->log_len; i++) {
    const log_entry *e = &sb->log[(sb->log_head + i) % sb->log_cap];
    char t[32], ip[INET_ADDRSTRLEN];
    hg_iso_time(e->wall_ms, t);
    ip_text(e->ip, ip);
    json_t *o = json_pack(
        "{s:s, s:s, s:s, s:o, s:i, s:s, s:s, s:I, s:I}", "time", t, "proto", e->proto,
        "name", e->name, "ip", e->ip ? json_string(ip) : json_null(), "port",
        (int)e->port, "verdict", e->allowed ? "allow" : "deny", "reason", e->reason,
        "bytes_out", (json_int_t)e->bytes_out, "bytes_in", (json_int_t)e->bytes_in);
    if (!o || json_array_append_new(arr, o) < 0) {
      json_decref(arr);
      return NULL;
    }
  }
  return arr;
}

/* ---- listeners ------------------------------------------------------------------------
 */

static const struct {
  int type;
  uint16_t port;
} listen_spec[L_COUNT] = {
    [L_DNS_UDP] = {SOCK_DGRAM, HG_GW_DNS_PORT},
    [L_DNS_TCP] = {SOCK_STREAM, HG_GW_DNS_PORT},
    [L_HTTP] = {SOCK_STREAM, HG_GW_HTTP_PORT},
    [L_HTTPS] = {SOCK_STREAM, HG_GW_HTTPS_PORT},
    [L_RELAY] = {SOCK_STREAM, HG_GW_RELAY_PORT},
};

static void on_connection(uv_stream_t *server, int status) {
  listener *l = server->data;
  hg_gw_sandbox *sb = l->sb;
  if (status < 0) {
    hg_log_warn("gateway.accept", "sandbox=%s err=%s", sb->name, uv_strerror(status));
    return;
  }
  if (l->kind == L_DNS_TCP) {
    hg__gateway_conn_accept(sb, server);
  } else if (!sb->proxies) {
    hg__gateway_reject_connection(server);
  } else {
    hg_proxy_kind kind = l->kind == L_HTTP    ? HG_PROXY_HTTP
                         : l->kind == L_HTTPS ? HG_PROXY_TLS
                                              : HG_PROXY_RELAY;
    hg_proxy_accept(sb, server, kind);
  }
}

static void listener_closed(uv_handle_t *h) {
  listener *l = h->data;
  hg_gw_sandbox *sb = l->sb;
  free(l);
  hg_closer_closed(&sb->closer);
}

static void listeners_close(hg_gw_sandbox *sb) {
  for (int i = 0; i < L_COUNT; i++) {
    if (!sb->ls[i]) continue;
    uv_close(&sb->ls[i]->u.h, listener_closed);
    sb->ls[i] = NULL;
  }
  sb->listening = false;
}

/* Takes ownership of fd (closed on failure). */
static int listener_start(hg_gw_sandbox *sb, lkind kind, int fd) {
  uv_loop_t *loop = &sb->gw->loop;
  listener *l = calloc(1, sizeof *l);
  if (!l) {
    close(fd);
    return -ENOMEM;
  }
  l->sb = sb;
  l->kind = kind;
  int rc;
  if (kind == L_DNS_UDP)
    uv_udp_init(loop, &l->u.udp);
  else
    uv_tcp_init(loop, &l->u.tcp);
  l->u.h.data = l;
  sb->ls[kind] = l;
  hg_closer_add(&sb->closer, 1);
  if (kind == L_DNS_UDP) {
    rc = uv_udp_open(&l->u.udp, fd);
    if (rc < 0)
      close(fd);
    else
      rc = uv_udp_recv_start(&l->u.udp, hg__gateway_dns_udp_alloc,
                             hg__gateway_dns_udp_recv);
  } else {
    rc = uv_tcp_open(&l->u.tcp, fd);
    if (rc < 0)
      close(fd);
    else
      rc = uv_listen(&l->u.s, GW_LISTEN_BACKLOG, on_connection);
  }
  return rc;
}

/* All five or none. The sockets are made inside the namespace, bound to
 * the gateway's address on the tap (so the tap must be configured). */
static int listeners_open(hg_gw_sandbox *sb) {
  hg_netns_link link;
  hg_netns_link_default(&link);
  int fds[L_COUNT], rc = 0, i;
  for (i = 0; i < L_COUNT && rc == 0; i++) {
    struct sockaddr_in a = {.sin_family = AF_INET,
                            .sin_port = htons(listen_spec[i].port),
                            .sin_addr = link.gw_ip};
    rc = hg_netns_listen(sb->ns, listen_spec[i].type, &a, GW_LISTEN_BACKLOG, &fds[i]);
  }
  if (rc < 0) {
    for (int k = 0; k < i - 1; k++) close(fds[k]);
    return rc;
  }
  for (i = 0; i < L_COUNT; i++) {
    int err = listener_start(sb, (lkind)i, fds[i]);
    if (err < 0 && rc == 0) rc = err;
  }
  if (rc < 0) {
    listeners_close(sb);
    return rc;
  }
  sb->listening = true;
  return 0;
}

/* ---- sandboxes
 * ------------------------------------------------------------------------- */

static hg_gw_sandbox *sb_find(hg_gateway *gw, const char *name) {
  for (hg_gw_sandbox *sb = gw->sandboxes; sb; sb = sb->next)
    if (strcmp(sb->name, name) == 0) return sb;
  return NULL;
}

static bool sb_proxies_closed(void *sb);
static void sb_settle(void *sb);

static hg_gw_sandbox *sb_get(hg_gateway *gw, const char *name) {
  hg_gw_sandbox *sb = sb_find(gw, name);
  if (sb) {
    sb->forgotten = false;
    return sb;
  }
  if (!(sb = calloc(1, sizeof *sb))) return NULL;
  sb->gw = gw;
  snprintf(sb->name, sizeof sb->name, "%s", name);
  hg_closer_init(&sb->closer, sb, sb_proxies_closed, sb_settle);
  hg_dns_limiter_init(&sb->limiter, gw->dns_rate, gw->dns_rate * 2,
                      (uint64_t)hg_now_ms());
  sb->next = gw->sandboxes;
  gw->sandboxes = sb;
  return sb;
}

static void sb_free(hg_gw_sandbox *sb) {
  hg_gateway *gw = sb->gw;
  hg_gw_sandbox **pp = &gw->sandboxes;
  while (*pp && *pp != sb) pp = &(*pp)->next;
  if (*pp) *pp = sb->next;
  hg__gateway_cache_clear(&sb->cache);
  hg_policy_free(sb->policy);
  hg_netns_close(sb->ns);
  if (sb->proxies) hg_proxy_set_free(sb->proxies); /* left if close_all never ended */
  free(sb->log);
  free(sb);
}

static void rules_config(const hg_gw_sandbox *sb, hg_nft_config *cfg) {
  memset(cfg, 0, sizeof *cfg);
  hg_netns_link_default(&cfg->link);
  cfg->dns_port = HG_GW_DNS_PORT;
  cfg->http_port = HG_GW_HTTP_PORT;
  cfg->https_port = HG_GW_HTTPS_PORT;
  cfg->relay_port = HG_GW_RELAY_PORT;
  if (sb->policy) {
    cfg->allow = sb->policy->nft;
    cfg->n_allow = sb->policy->nnft;
  }
}

static int rules_set_allow(hg_gw_sandbox *sb) {
  const hg_policy *p = sb->policy;
  int rc = hg_nft_set_allow(sb->ns, p ? p->nft : NULL, p ? p->nnft : 0);
  if (rc < 0)
    hg_log_error("gateway.allow_set", "sandbox=%s err=%s", sb->name, hg_err_str(rc));
  return rc;
}

/* Listeners and proxy state for an open namespace. */
static int sb_serve(hg_gw_sandbox *sb) {
  int rc = sb->listening ? 0 : listeners_open(sb);
  if (rc == 0 && !sb->proxies && !(sb->proxies = hg_proxy_set_new())) rc = -ENOMEM;
  return rc;
}

static int sb_attach(hg_gw_sandbox *sb, int *tap_fd) {
  hg_gateway *gw = sb->gw;
  bool fresh = false;
  int rc = 0, fd = -1;
  if (!sb->ns) {
    rc = hg_netns_create(gw->netns_dir, sb->name, &sb->ns);
    if (rc == 0)
      fresh = true;
    else if (rc == -EEXIST)
      rc = hg_netns_open(gw->netns_dir, sb->name, &sb->ns);
    if (rc < 0) return rc;
  }
  hg_nft_config cfg;
  rules_config(sb, &cfg);
  /* a fresh namespace needs its tap even when the caller wants no fd: the
   * listeners bind to the tap's address */
  if (tap_fd || fresh) rc = hg_netns_tap_create(sb->ns, &cfg.link, &fd);
  if (rc == 0) rc = hg_nft_apply(sb->ns, &cfg);
  if (rc == 0) rc = sb_serve(sb);
  if (rc < 0) {
    if (fd >= 0) close(fd);
    hg_log_error("gateway.attach", "sandbox=%s err=%s", sb->name, hg_err_str(rc));
    if (fresh) {
      listeners_close(sb);
      hg_netns_close(sb->ns);
      sb->ns = NULL;
      hg_netns_delete(gw->netns_dir, sb->name);
    }
    return rc;
  }
  if (tap_fd)
    *tap_fd = fd;
  else if (fd >= 0)
    close(fd);
  hg_log_info("gateway.attach", "sandbox=%s fresh=%d", sb->name, fresh);
  return 0;
}

static void sb_close_all(hg_gw_sandbox *sb);

static void proxies_closed(void *ud) {
  hg_gw_sandbox *sb = ud;
  hg_proxy_set_free(sb->proxies);
  sb->proxies = NULL;
  sb->proxies_closing = false;
  hg_closer_check(&sb->closer);
}

/* Closes every socket of the sandbox (asynchronously: sb_settle sees the
 * end). The namespace handle stays. */
static void sb_close_all(hg_gw_sandbox *sb) {
  while (sb->upqs) hg__gateway_upq_close(sb->upqs);
  while (sb->conns) hg__gateway_conn_close(sb->conns);
  listeners_close(sb);
  if (sb->proxies && !sb->proxies_closing) {
    sb->proxies_closing = true;
    hg_proxy_close_all(sb, proxies_closed, sb); /* may call back at once */
  }
}

static void req_done(hg_gateway *gw, gw_req *r, int rc);

/* A sandbox is not freed at once but settled each time its closes are all
 * done (sb->closer: no handle open, no proxy set closing): a detach waiting
 * for them completes, and a forgotten sandbox goes. */
static bool sb_proxies_closed(void *sb) { return !((hg_gw_sandbox *)sb)->proxies_closing; }

static void sb_settle(void *sbv) {
  hg_gw_sandbox *sb = sbv;
  hg_gateway *gw = sb->gw;
  gw_req *r = sb->detaching;
  if (r) {
    sb->detaching = NULL;
    hg_netns_close(sb->ns);
    sb->ns = NULL;
    int rc = hg_netns_delete(gw->netns_dir, sb->name);
    if (rc < 0)
      hg_log_error("gateway.detach", "sandbox=%s err=%s", sb->name, hg_err_str(rc));
    else
      hg_log_info("gateway.detach", "sandbox=%s", sb->name);
    req_done(gw, r, rc);
    uv_async_send(&gw->wake); /* the queue waited for this */
  }
  if (sb->forgotten && !sb->ns && !gw->stopping) sb_free(sb);
}

static void counters_add(hg_nft_counters *sum, const hg_nft_counters *c) {
  hg_nft_counter *s = (hg_nft_counter *)sum;
  const hg_nft_counter *a = (const hg_nft_counter *)c;
  for (size_t i = 0; i < sizeof *sum / sizeof *s; i++) {
    s[i].packets += a[i].packets;
    s[i].bytes += a[i].bytes;
  }
}

/* ---- requests on the gateway thread
 * ------------------------------------------------------ */

static void req_done(hg_gateway *gw, gw_req *r, int rc) {
  if (gw->busy == r) gw->busy = NULL;
  pthread_mutex_lock(&gw->lock);
  r->rc = rc;
  r->done = true;
  pthread_cond_signal(&r->cond);
  pthread_mutex_unlock(&gw->lock); /* r may be gone from here on */
}

/* Whatever state_dir holds, and every namespace under netns_dir: the
 * daemon restarted, the guests did not. */
static int op_recover(hg_gateway *gw) {
  DIR *d = opendir(gw->state_dir);
  for (struct dirent *e; d && (e = readdir(d)) != NULL;) {
    char name[HG_NETNS_NAME_MAX];
    size_t n = strlen(e->d_name);
    if (strstr(e->d_name, ".json.tmp.")) { /* a write the crash cut short */
      unlinkat(dirfd(d), e->d_name, 0);
      continue;
    }
    if (n <= 5 || n - 5 >= sizeof name || strcmp(e->d_name + n - 5, ".json") != 0)
      continue;
    memcpy(name, e->d_name, n - 5);
    name[n - 5] = '\0';
    hg_policy *p;
    if (!name_valid(name) || hg__gateway_policy_load(gw, name, &p) < 0) continue;
    hg_gw_sandbox *sb = sb_get(gw, name);
    if (!sb) {
      hg_policy_free(p);
      closedir(d);
      return -ENOMEM;
    }
    hg_policy_free(sb->policy);
    sb->policy = p;
  }
  if (d) closedir(d);

  char **names;
  size_t count;
  int rc = hg_netns_list(gw->netns_dir, &names, &count);
  if (rc < 0) return rc;
  for (size_t i = 0; i < count; i++) {
    hg_gw_sandbox *sb = sb_get(gw, names[i]);
    if (!sb) {
      rc = -ENOMEM;
      break;
    }
    int err = hg_netns_open(gw->netns_dir, sb->name, &sb->ns);
    if (err == 0) {
      /* the rules outlived us; the allow set may lag the policy file if
       * we died between the two */
      const hg_policy *p = sb->policy;
      err = hg_nft_set_allow(sb->ns, p ? p->nft : NULL, p ? p->nnft : 0);
      if (err == -ENOENT) {
        hg_nft_config cfg;
        rules_config(sb, &cfg);
        err = hg_nft_apply(sb->ns, &cfg);
      }
      int serr = sb_serve(sb);
      if (err == 0) err = serr;
    }
    if (err < 0)
      hg_log_error("gateway.recover", "sandbox=%s err=%s", sb->name, hg_err_str(err));
    else
      hg_log_info("gateway.recover", "sandbox=%s policy=%d", sb->name,
                  sb->policy != NULL);
  }
  hg_netns_list_free(names);
  return rc;
}

/* Returns 1 when the request completes later (sb_settle). */
static int op_detach(hg_gateway *gw, gw_req *r) {
  hg_gw_sandbox *sb = sb_find(gw, r->name);
  if (!sb || !sb->ns) {
    r->rc = hg_netns_delete(gw->netns_dir, r->name); /* a leftover, or nothing */
    return 0;
  }
  hg_nft_counters c;
  if (hg_nft_counters_read(sb->ns, &c) == 0) counters_add(&gw->retired, &c);
  memset(&sb->nft_last, 0, sizeof sb->nft_last); /* counted in retired now */
  sb->detaching = r;
  sb_close_all(sb);
  hg_closer_check(&sb->closer);
  return 1;
}

static int op_set_policy(hg_gateway *gw, gw_req *r) {
  hg_policy *np = NULL;
  int rc = r->policy ? hg__gateway_policy_copy(r->policy, &np) : 0;
  if (rc < 0) return rc;
  hg_gw_sandbox *sb = sb_get(gw, r->name);
  if (!sb || (rc = hg__gateway_policy_save(gw, r->name, np)) < 0) {
    hg_policy_free(np);
    return sb ? rc : -ENOMEM;
  }
  hg_policy *old = sb->policy;
  sb->policy = np;
  if (sb->ns) {
    rc = rules_set_allow(sb);
    if (sb->proxies) hg_proxy_recheck(sb);
  }
  hg_policy_free(old); /* after the recheck: see hg_gw_policy */
  hg_log_info("gateway.policy", "sandbox=%s allow=%zu credentials=%zu", sb->name,
              np ? hg_allow_count(np->allow) : 0, np ? np->ncreds : 0);
  return rc;
}

/* A fork starts with its parent's policy, secrets included: the copy is
 * made here, so no secret ever leaves the gateway to make it. */
static int op_copy_policy(hg_gateway *gw, gw_req *r) {
  hg_gw_sandbox *src = sb_find(gw, r->from);
  if (!src) return -ENOENT;
  if (!src->policy) return 0;
  r->policy = src->policy;
  return op_set_policy(gw, r);
}

static int op_forget(hg_gateway *gw, gw_req *r) {
  hg__gateway_policy_save(gw, r->name, NULL);
  hg_gw_sandbox *sb = sb_find(gw, r->name);
  if (!sb) return 0;
  hg_policy *old = sb->policy;
  sb->policy = NULL;
  if (old && sb->ns) {
    rules_set_allow(sb);
    if (sb->proxies) hg_proxy_recheck(sb);
  }
  hg_policy_free(old);
  free(sb->log);
  sb->log = NULL;
  sb->log_cap = sb->log_head = sb->log_len = 0;
  hg__gateway_cache_clear(&sb->cache);
  sb->forgotten = true;
  hg_closer_check(&sb->closer);
  return 0;
}

/* The drop counters of the attached namespaces, read into each sandbox's
 * nft_last at most once per GW_METRICS_NFT_REFRESH_MS: each read is a
 * netlink round trip into a namespace on this thread, which DNS and the
 * proxies share, so scrapes (one or many a second, from anyone who can
 * reach /metrics) must not cost one per sandbox each. The counters are up
 * to a second old. */
static void nft_refresh(hg_gateway *gw) {
  int64_t now = hg_now_ms();
  if (gw->nft_refreshed && now - gw->nft_read_ms < GW_METRICS_NFT_REFRESH_MS) return;
  gw->nft_refreshed = true;
  gw->nft_read_ms = now;
  atomic_fetch_add(&gw->nft_refreshes, 1);
  size_t read = 0;
  for (hg_gw_sandbox *sb = gw->sandboxes; sb && read < GW_METRICS_NFT_MAX; sb = sb->next) {
    if (!sb->ns) continue;
    hg_nft_counters c;
    read++;
    atomic_fetch_add(&gw->nft_reads, 1);
    if (hg_nft_counters_read(sb->ns, &c) == 0) sb->nft_last = c;
  }
}

static void metrics_write(hg_gateway *gw, hg_buf *out) {
  nft_refresh(gw);
  hg_nft_counters sum = gw->retired;
  size_t attached = 0;
  for (hg_gw_sandbox *sb = gw->sandboxes; sb; sb = sb->next) {
    if (!sb->ns) continue;
    attached++;
    counters_add(&sum, &sb->nft_last);
  }
  hg_buf_printf(out, "# TYPE hangar_gateway_decisions_total counter\n");
  for (int p = 0; p < P_COUNT; p++)
    for (int v = 1; v >= 0; v--)
      hg_buf_printf(
          out, "hangar_gateway_decisions_total{proto=\"%s\",verdict=\"%s\"} %llu\n",
          proto_names[p], v ? "allow" : "deny", (unsigned long long)gw->decisions[p][v]);
  hg_buf_printf(out,
                "# TYPE hangar_gateway_sandboxes gauge\nhangar_gateway_sandboxes %zu\n"
                "# TYPE hangar_gateway_dns_queries_total counter\n"
                "hangar_gateway_dns_queries_total %llu\n"
                "# TYPE hangar_gateway_dns_rate_limited_total counter\n"
                "hangar_gateway_dns_rate_limited_total %llu\n"
                "# TYPE hangar_gateway_dropped_packets_total counter\n",
                attached, (unsigned long long)gw->dns_queries,
                (unsigned long long)gw->dns_limited);
  static const char *const names[] = {"spoof_mac", "spoof_arp", "spoof_ip",
                                      "ipv6",      "l2_other",  "egress",
                                      "input",     "forward",   "output"};
  const hg_nft_counter *c = (const hg_nft_counter *)&sum;
  _Static_assert(sizeof(hg_nft_counters) ==
                     sizeof(names) / sizeof(names[0]) * sizeof(hg_nft_counter),
                 "counter names match hg_nft_counters");
  for (size_t i = 0; i < HG_ARRAY_SIZE(names); i++)
    hg_buf_printf(out, "hangar_gateway_dropped_packets_total{counter=\"%s\"} %llu\n",
                  names[i], (unsigned long long)c[i].packets);
  hg_buf_printf(out,
                "# TYPE hangar_gateway_nft_reads_total counter\n"
                "hangar_gateway_nft_reads_total %llu\n",
                (unsigned long long)atomic_load(&gw->nft_reads));
}

static void op_stop(hg_gateway *gw) {
  gw->stopping = true;
  for (hg_gw_sandbox *sb = gw->sandboxes; sb; sb = sb->next) sb_close_all(sb);
  uv_close((uv_handle_t *)&gw->wake, NULL);
}

static void run_req(hg_gateway *gw, gw_req *r) {
  hg_gw_sandbox *sb;
  int rc = 0;
  switch (r->op) {
    case OP_RECOVER:
      rc = op_recover(gw);
      break;
    case OP_ATTACH:
      sb = sb_get(gw, r->name);
      rc = sb ? sb_attach(sb, r->fd) : -ENOMEM;
      break;
    case OP_DETACH:
      if (op_detach(gw, r)) return;
      rc = r->rc;
      break;
    case OP_SET_POLICY:
      rc = op_set_policy(gw, r);
      break;
    case OP_COPY_POLICY:
      rc = op_copy_policy(gw, r);
      break;
    case OP_GET_POLICY:
      sb = sb_find(gw, r->name);
      if (!sb)
        rc = -ENOENT;
      else if (!(*r->json = sb->policy ? hg_policy_json(sb->policy, true) : json_null()))
        rc = -ENOMEM;
      break;
    case OP_FORGET:
      rc = op_forget(gw, r);
      break;
    case OP_LOG:
      *r->json = log_json(sb_find(gw, r->name));
      rc = *r->json ? 0 : -ENOMEM;
      break;
    case OP_METRICS:
      metrics_write(gw, r->buf);
      break;
    case OP_SOCKET:
      sb = sb_find(gw, r->name);
      rc = sb && sb->ns ? hg_netns_socket(sb->ns, AF_INET, SOCK_STREAM, 0, r->fd)
                        : -ENOENT;
      break;
    case OP_RUN:
      sb = sb_find(gw, r->name);
      if (sb) r->fn(sb, r->arg);
      rc = sb ? 0 : -ENOENT;
      break;
    case OP_STOP:
      op_stop(gw); /* the caller joins the thread instead of waiting */
      gw->busy = NULL;
      return;
  }
  req_done(gw, r, rc);
}

static void on_wake(uv_async_t *a) {
  hg_gateway *gw = a->data;
  while (!gw->busy && !gw->stopping) {
    pthread_mutex_lock(&gw->lock);
    gw_req *r = gw->q_head;
    if (r && !(gw->q_head = r->next)) gw->q_tail = NULL;
    pthread_mutex_unlock(&gw->lock);
    if (!r) return;
    gw->busy = r;
    run_req(gw, r);
  }
}

/* Hands r to the gateway thread and waits for it; a stop request is only
 * handed over (the caller joins the thread). */
static int gw_call(hg_gateway *gw, gw_req *r) {
  uv_thread_t self = uv_thread_self();
  if (uv_thread_equal(&self, &gw->thread)) return -EDEADLK;
  bool wait = r->op != OP_STOP;
  if (wait) pthread_cond_init(&r->cond, NULL);
  pthread_mutex_lock(&gw->lock);
  if (gw->closed) {
    pthread_mutex_unlock(&gw->lock);
    if (wait) pthread_cond_destroy(&r->cond);
    return -ESHUTDOWN;
  }
  if (gw->q_tail)
    gw->q_tail->next = r;
  else
    gw->q_head = r;
  gw->q_tail = r;
  gw->closed = !wait;
  pthread_mutex_unlock(&gw->lock);
  uv_async_send(&gw->wake);
  if (!wait) return 0;
  pthread_mutex_lock(&gw->lock);
  while (!r->done) pthread_cond_wait(&r->cond, &gw->lock);
  pthread_mutex_unlock(&gw->lock);
  pthread_cond_destroy(&r->cond);
  return r->rc;
}

/* ---- provided to proxy.c
 * ----------------------------------------------------------------- */

uv_loop_t *hg_gw_loop(hg_gw_sandbox *sb) {
  return &sb->gw->loop;
}
const char *hg_gw_name(hg_gw_sandbox *sb) {
  return sb->name;
}
const hg_policy *hg_gw_policy(hg_gw_sandbox *sb) {
  return sb->policy;
}
bool hg_gw_addr_denied(hg_gw_sandbox *sb, uint32_t ip) {
  return hg_addr_denied(&sb->gw->deny, ip) != 0;
}
hg_proxy_set *hg_gw_proxies(hg_gw_sandbox *sb) {
  return sb->proxies;
}

int hg_gw_run(hg_gateway *gw, const char *name, void (*fn)(hg_gw_sandbox *sb, void *arg),
              void *arg) {
  if (!gw || !name || !fn) return -EINVAL;
  gw_req r = {.op = OP_RUN, .name = name, .fn = fn, .arg = arg};
  return gw_call(gw, &r);
}

/* ---- the public calls
 * ----------------------------------------------------------------------- */

/* "a.b.c.d:port" or "a.b.c.d" (port 53). */
static int upstream_parse(const char *s, struct sockaddr_in *out) {
  char host[64];
  int port;
  uint32_t ip;
  if (hg_hostport_split(s, host, sizeof host, 53, &port) < 0 || port == 0 ||
      hg_ipv4_parse(host, strlen(host), &ip) < 0)
    return -EINVAL;
  memset(out, 0, sizeof *out);
  out->sin_family = AF_INET;
  out->sin_port = htons((uint16_t)port);
  out->sin_addr.s_addr = htonl(ip);
  return 0;
}

/* The first IPv4 nameserver of /etc/resolv.conf. */
static int upstream_default(struct sockaddr_in *out) {
  FILE *f = fopen("/etc/resolv.conf", "re");
  if (!f) return -errno;
  char line[512], ns[64];
  int rc = -ENOENT;
  while (rc < 0 && fgets(line, sizeof line, f))
    if (sscanf(line, " nameserver %63s", ns) == 1 && upstream_parse(ns, out) == 0 &&
        !strchr(ns, ':'))
      rc = 0;
  fclose(f);
  return rc;
}

static int deny_parse(hg_denylist *d, const char *s) {
  hg_denylist_init(d);
  while (s && *s) {
    size_t n = strcspn(s, ",");
    const char *p = s;
    size_t len = n;
    while (len && *p == ' ') p++, len--;
    while (len && p[len - 1] == ' ') len--;
    if (len && hg_denylist_add(d, p, len) < 0) return -EINVAL;
    s += n + (s[n] == ',');
  }
  return 0;
}

static void gw_thread(void *arg) {
  hg_gateway *gw = arg;
  uv_run(&gw->loop, UV_RUN_DEFAULT);
}

static void gw_free(hg_gateway *gw) {
  while (gw->sandboxes) sb_free(gw->sandboxes);
  if (uv_loop_close(&gw->loop) < 0) hg_log_error("gateway.stop", "err=loop_busy");
  pthread_mutex_destroy(&gw->lock);
  free(gw);
}

int hg_gateway_start(const hg_gateway_config *cfg, hg_gateway **out) {
  if (!cfg || !out || !cfg->netns_dir || !cfg->state_dir) return -EINVAL;
  hg_gateway *gw = calloc(1, sizeof *gw);
  if (!gw) return -ENOMEM;
  int rc = hg_path(gw->netns_dir, sizeof gw->netns_dir, "%s", cfg->netns_dir);
  if (rc == 0) rc = hg_path(gw->state_dir, sizeof gw->state_dir, "%s", cfg->state_dir);
  if (rc == 0 && cfg->upstream_dns) {
    rc = upstream_parse(cfg->upstream_dns, &gw->upstream);
    gw->have_upstream = rc == 0;
  } else if (rc == 0) {
    int err = upstream_default(&gw->upstream);
    gw->have_upstream = err == 0;
    if (err < 0)
      hg_log_warn("gateway.upstream", "msg=\"no IPv4 nameserver in /etc/resolv.conf\"");
  }
  if (rc == 0) rc = deny_parse(&gw->deny, cfg->deny);
  if (rc < 0) {
    hg_log_error("gateway.config", "upstream=%s deny=%s err=%s",
                 cfg->upstream_dns ? cfg->upstream_dns : "-", cfg->deny ? cfg->deny : "-",
                 hg_err_str(rc));
    free(gw);
    return rc;
  }
  gw->log_max = cfg->log_max ? cfg->log_max : GW_LOG_MAX_DEFAULT;
  gw->dns_rate = cfg->dns_rate ? cfg->dns_rate : GW_DNS_RATE_DEFAULT;
  if ((rc = hg_mkdir_p(gw->state_dir, 0700)) < 0 || (rc = uv_loop_init(&gw->loop)) < 0) {
    free(gw);
    return rc;
  }
  uv_async_init(&gw->loop, &gw->wake, on_wake);
  gw->wake.data = gw;
  pthread_mutex_init(&gw->lock, NULL);

  /* the thread takes no process signals: they belong to the main loop */
  sigset_t all, old;
  sigfillset(&all);
  pthread_sigmask(SIG_SETMASK, &all, &old);
  rc = uv_thread_create(&gw->thread, gw_thread, gw);
  pthread_sigmask(SIG_SETMASK, &old, NULL);
  if (rc < 0) {
    uv_close((uv_handle_t *)&gw->wake, NULL);
    uv_run(&gw->loop, UV_RUN_DEFAULT);
    gw_free(gw);
    return rc;
  }
  gw_req r = {.op = OP_RECOVER};
  rc = gw_call(gw, &r);
  if (rc < 0) hg_log_error("gateway.recover", "err=%s", hg_err_str(rc));
  char up[INET_ADDRSTRLEN] = "-";
  if (gw->have_upstream) ip_text(ntohl(gw->upstream.sin_addr.s_addr), up);
  hg_log_info("gateway.start", "netns_dir=%s upstream=%s:%u", gw->netns_dir, up,
              ntohs(gw->upstream.sin_port));
  *out = gw;
  return 0;
}

void hg_gateway_stop(hg_gateway *gw) {
  if (!gw) return;
  gw_req r = {.op = OP_STOP};
  if (gw_call(gw, &r) < 0) return; /* from the gateway thread: cannot join itself */
  uv_thread_join(&gw->thread);
  gw_free(gw);
}

int hg_gateway_attach(hg_gateway *gw, const char *name, int *tap_fd) {
  if (!gw || !name_valid(name)) return -EINVAL;
  gw_req r = {.op = OP_ATTACH, .name = name, .fd = tap_fd};
  return gw_call(gw, &r);
}

int hg_gateway_detach(hg_gateway *gw, const char *name) {
  if (!gw || !name_valid(name)) return -EINVAL;
  gw_req r = {.op = OP_DETACH, .name = name};
  return gw_call(gw, &r);
}

int hg_gateway_set_policy(hg_gateway *gw, const char *name, const hg_policy *p) {
  if (!gw || !name_valid(name) || (p && !p->src)) return -EINVAL;
  gw_req r = {.op = OP_SET_POLICY, .name = name, .policy = p};
  return gw_call(gw, &r);
}

int hg_gateway_copy_policy(hg_gateway *gw, const char *from, const char *to) {
  if (!gw || !name_valid(from) || !name_valid(to)) return -EINVAL;
  gw_req r = {.op = OP_COPY_POLICY, .name = to, .from = from};
  return gw_call(gw, &r);
}

int hg_gateway_get_policy(hg_gateway *gw, const char *name, json_t **out) {
  if (!gw || !out || !name_valid(name)) return -EINVAL;
  json_t *j = NULL;
  gw_req r = {.op = OP_GET_POLICY, .name = name, .json = &j};
  int rc = gw_call(gw, &r);
  if (rc == 0) *out = j;
  return rc;
}

void hg_gateway_forget(hg_gateway *gw, const char *name) {
  if (!gw || !name_valid(name)) return;
  gw_req r = {.op = OP_FORGET, .name = name};
  gw_call(gw, &r);
}

json_t *hg_gateway_egress_log(hg_gateway *gw, const char *name) {
  if (!gw || !name_valid(name)) return json_array();
  json_t *j = NULL;
  gw_req r = {.op = OP_LOG, .name = name, .json = &j};
  return gw_call(gw, &r) == 0 ? j : NULL;
}

void hg_gateway_stats_get(hg_gateway *gw, hg_gateway_stats *out) {
  out->nft_refreshes = atomic_load(&gw->nft_refreshes);
  out->nft_reads = atomic_load(&gw->nft_reads);
}

void hg_gateway_metrics(hg_gateway *gw, hg_buf *out) {
  if (!gw || !out) return;
  gw_req r = {.op = OP_METRICS, .buf = out};
  gw_call(gw, &r);
}

int hg_gateway_connect_guest(hg_gateway *gw, const char *name, uint16_t port, int *fd) {
  if (!gw || !fd || port == 0 || !name_valid(name)) return -EINVAL;
  int s = -1;
  gw_req r = {.op = OP_SOCKET, .name = name, .fd = &s};
  int rc = gw_call(gw, &r);
  if (rc < 0) return rc;
  /* the connect itself runs here, on the caller's thread: it can take
   * seconds and the gateway loop must not wait for it */
  hg_netns_link link;
  hg_netns_link_default(&link);
  struct sockaddr_in a = {
      .sin_family = AF_INET, .sin_port = htons(port), .sin_addr = link.guest_ip};
  int flags = fcntl(s, F_GETFL);
  if (flags < 0 || fcntl(s, F_SETFL, flags | O_NONBLOCK) < 0) rc = -errno;
  if (rc == 0 && connect(s, (struct sockaddr *)&a, sizeof a) < 0) {
    rc = errno == EINPROGRESS ? 0 : -errno;
    struct pollfd p = {.fd = s, .events = POLLOUT};
    int n = 0;
    while (rc == 0 && (n = poll(&p, 1, GW_CONNECT_TIMEOUT_MS)) < 0 && errno == EINTR) {
    }
    if (rc == 0 && n < 0)
      rc = -errno;
    else if (rc == 0 && n == 0)
      rc = -ETIMEDOUT;
    int err = 0;
    socklen_t len = sizeof err;
    if (rc == 0 && getsockopt(s, SOL_SOCKET, SO_ERROR, &err, &len) < 0) rc = -errno;
    if (rc == 0 && err) rc = -err;
  }
  if (rc == 0 && fcntl(s, F_SETFL, flags) < 0) rc = -errno;
  if (rc < 0) {
    close(s);
    return rc;
  }
  *fd = s;
  return 0;
}
