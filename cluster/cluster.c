/* cluster: the transport and the state around swim (see cluster.h).
 *
 * Everything runs on the loop thread except what the header marks
 * thread-safe. Those calls touch only the fields under mu (the directory,
 * the broadcasts still to queue, and our latest metadata) and wake the loop
 * with the async handle.
 *
 * Datagrams: swim hands us a message; we stamp the replay fields, encode,
 * seal and send it. A received datagram goes through size check, unseal,
 * decode, replay check, then swim. Nothing bad is logged per packet: drops
 * are counted and summed up in one line per CL_DROP_LOG_MS.
 *
 * The rest lives beside it, behind cluster_internal.h: push-pull streams
 * (pushpull.c), the sandbox directory (directory.c), members and the peers
 * copy for other threads (members.c), the roster and what is persisted
 * (roster.c), placement and replica targets (placement.c). */
#include "cluster/cluster.h"

#include <errno.h>
#include <inttypes.h>
#include <netinet/in.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>

#include "cluster/cluster_internal.h"
#include "cluster/seal.h"
#include "node/core/buf.h"
#include "node/core/log.h"
#include "node/core/util.h"

static void swim_kick(hg_cluster *c);

/* ---- addresses ---- */

/* "a.b.c.d:port" or "[v6]:port", numeric only, port not 0. */
int hg__cluster_addr_parse(const char *s, struct sockaddr_storage *out) {
  char host[HG_ADDR_MAX];
  int port;
  if (!s || strnlen(s, HG_ADDR_MAX) >= HG_ADDR_MAX ||
      hg_hostport_split(s, host, sizeof host, -1, &port) < 0 || port == 0)
    return -EINVAL;
  memset(out, 0, sizeof *out);
  if (strchr(host, ':'))
    return uv_ip6_addr(host, port, (struct sockaddr_in6 *)out) < 0 ? -EINVAL : 0;
  return uv_ip4_addr(host, port, (struct sockaddr_in *)out) < 0 ? -EINVAL : 0;
}

static bool addr_unspecified(const struct sockaddr_storage *sa) {
  if (sa->ss_family == AF_INET)
    return ((const struct sockaddr_in *)sa)->sin_addr.s_addr == htonl(INADDR_ANY);
  return IN6_IS_ADDR_UNSPECIFIED(&((const struct sockaddr_in6 *)sa)->sin6_addr);
}

/* A target for our UDP socket: a v6 socket reaches v4 peers as v4-mapped. */
static int addr_for_udp(const hg_cluster *c, const char *s,
                        struct sockaddr_storage *out) {
  int rc = hg__cluster_addr_parse(s, out);
  if (rc < 0) return rc;
  if (out->ss_family == c->bind_sa.ss_family) return 0;
  if (out->ss_family == AF_INET6) return -EAFNOSUPPORT;
  struct sockaddr_in v4 = *(struct sockaddr_in *)out;
  struct sockaddr_in6 *v6 = (struct sockaddr_in6 *)out;
  memset(out, 0, sizeof *out);
  v6->sin6_family = AF_INET6;
  v6->sin6_port = v4.sin_port;
  v6->sin6_addr.s6_addr[10] = 0xff;
  v6->sin6_addr.s6_addr[11] = 0xff;
  memcpy(&v6->sin6_addr.s6_addr[12], &v4.sin_addr, 4);
  return 0;
}

void hg__cluster_addr_name(const struct sockaddr *sa, char *out, size_t cap) {
  char host[INET6_ADDRSTRLEN] = "?";
  int port = 0;
  if (sa && sa->sa_family == AF_INET) {
    uv_ip4_name((const struct sockaddr_in *)sa, host, sizeof host);
    port = ntohs(((const struct sockaddr_in *)sa)->sin_port);
  } else if (sa && sa->sa_family == AF_INET6) {
    uv_ip6_name((const struct sockaddr_in6 *)sa, host, sizeof host);
    port = ntohs(((const struct sockaddr_in6 *)sa)->sin6_port);
  }
  snprintf(out, cap, "%s:%d", host, port);
}

/* ---- drops: counted always, logged at most once per CL_DROP_LOG_MS ---- */

void hg__cluster_drop(hg_cluster *c, enum hg__cluster_drop_kind k, const char *from) {
  if (k == CL_DROP_AUTH)
    c->dropped_auth++;
  else if (k == CL_DROP_REPLAY)
    c->dropped_replay++;
  else
    c->dropped_malformed++;
  if (from) hg__cluster_copy_str(c->last_drop_from, sizeof c->last_drop_from, from);
}

static void drop_log(hg_cluster *c, bool force) {
  pthread_mutex_lock(&c->mu); /* dir_refused is counted by dir_put's threads too */
  uint64_t refused = c->dir_refused;
  pthread_mutex_unlock(&c->mu);
  uint64_t a = c->dropped_auth - c->logged_auth, r = c->dropped_replay - c->logged_replay,
           m = c->dropped_malformed - c->logged_malformed,
           f = refused - c->logged_refused, s = c->send_failed - c->logged_send_failed;
  if (!a && !r && !m && !f && !s) return;
  int64_t now = hg_now_ms();
  if (!force && now - c->drop_log_ms < CL_DROP_LOG_MS) return;
  hg_log_warn("cluster.dropped",
              "auth=%" PRIu64 " replay=%" PRIu64 " malformed=%" PRIu64
              " dir_full=%" PRIu64 " unsendable=%" PRIu64 " last_from=%s window_s=%d",
              a, r, m, f, s, c->last_drop_from[0] ? c->last_drop_from : "-",
              CL_DROP_LOG_MS / 1000);
  c->logged_auth = c->dropped_auth;
  c->logged_replay = c->dropped_replay;
  c->logged_malformed = c->dropped_malformed;
  c->logged_refused = refused;
  c->logged_send_failed = c->send_failed;
  c->drop_log_ms = now;
}

/* ---- node metadata ---- */

/* Fields the cluster owns whatever the caller filled in. */
static void meta_fix(hg_cluster *c, hg_node_meta *m) {
  hg__cluster_copy_str(m->id, sizeof m->id, c->id);
  hg__cluster_copy_str(m->gossip_addr, sizeof m->gossip_addr, c->advertise);
  if (!m->zone[0]) hg__cluster_copy_str(m->zone, sizeof m->zone, c->zone);
}

/* Publishes our metadata if it changed since the last time (loop). */
static void meta_publish(hg_cluster *c, bool force) {
  uint8_t cmp[HG_WIRE_META_MAX], out[HG_WIRE_META_MAX];
  size_t cmp_len = 0, out_len = 0;
  pthread_mutex_lock(&c->mu);
  bool changed = c->meta_changed || force;
  c->meta_changed = false;
  hg_node_meta m = c->meta;
  pthread_mutex_unlock(&c->mu);
  if (!changed) return;
  m.updated_ms = 0;
  int rc = hg_node_meta_encode(&m, cmp, sizeof cmp, &cmp_len);
  if (rc < 0) {
    hg_log_error("cluster.meta_encode", "err=%s", uv_strerror(rc));
    return;
  }
  if (!force && cmp_len == c->meta_sent_len && memcmp(cmp, c->meta_sent, cmp_len) == 0)
    return;
  m.updated_ms = hg__cluster_wall_ms();
  if (hg_node_meta_encode(&m, out, sizeof out, &out_len) < 0) return;
  rc = hg_swim_set_meta(c->swim, out, out_len);
  if (rc < 0) {
    hg_log_error("cluster.meta_publish", "err=%s", uv_strerror(rc));
    return;
  }
  memcpy(c->meta_sent, cmp, cmp_len);
  c->meta_sent_len = cmp_len;
  hg__cluster_after_swim(c);
}

/* ---- UDP ---- */

typedef struct udp_req {
  uv_udp_send_t req;
  size_t len;
  uint8_t data[];
} udp_req;

static void on_udp_sent(uv_udp_send_t *r, int status) {
  free(r->data);
}

void hg__cluster_stamp(hg_cluster *c, hg_wire_msg *m) {
  m->boot = c->boot;
  m->pkt_seq = ++c->pkt_seq;
  m->sent_ms = hg__cluster_wall_ms();
  hg__cluster_copy_str(m->from, sizeof m->from, c->id);
  hg__cluster_copy_str(m->from_addr, sizeof m->from_addr, c->advertise);
}

static void udp_send_raw(hg_cluster *c, const struct sockaddr_storage *sa,
                         const uint8_t *data, size_t len) {
  uv_buf_t b = uv_buf_init((char *)data, (unsigned)len);
  int rc = uv_udp_try_send(&c->udp, &b, 1, (const struct sockaddr *)sa);
  if (rc == UV_EAGAIN || rc == UV_ENOSYS) {
    udp_req *r = malloc(sizeof *r + len);
    if (!r) return;
    memcpy(r->data, data, len);
    r->len = len;
    r->req.data = r;
    b = uv_buf_init((char *)r->data, (unsigned)len);
    rc = uv_udp_send(&r->req, &c->udp, &b, 1, (const struct sockaddr *)sa, on_udp_sent);
    if (rc < 0) free(r);
  }
  if (rc >= 0) c->bytes_sent += len;
}

static void io_send(void *ud, const char *addr, const hg_wire_msg *msg) {
  hg_cluster *c = ud;
  struct sockaddr_storage sa;
  size_t n = 0;
  if (!c->started || c->shutting) return;
  int rc = addr_for_udp(c, addr, &sa);
  if (rc < 0) {
    hg_log_debug("cluster.send_addr", "addr=%s err=%s", addr, uv_strerror(rc));
    return;
  }
  hg_wire_msg m = *msg; /* shallow: the item arrays stay swim's */
  hg__cluster_stamp(c, &m);
  rc = hg_wire_encode(&m, &c->enc);
  if (rc == 0) rc = hg_seal(c->kr, c->enc.data, c->enc.len, c->tx, sizeof c->tx, &n);
  if (rc < 0) {
    c->send_failed++; /* summed up in the hg__cluster_drop line, never per packet */
    return;
  }
  udp_send_raw(c, &sa, c->tx, n);
}

#define LEASE_MARK 0xc1 /* a lease datagram's first plaintext byte (never msgpack) */

static void udp_input(hg_cluster *c, const uint8_t *data, size_t len, bool partial,
                      const struct sockaddr *from) {
  char src[64];
  size_t plen = 0;
  hg_wire_msg m;
  hg__cluster_addr_name(from, src, sizeof src);
  /* Not even the shape of a sealed datagram (version byte 1): malformed,
   * not a failed authentication. */
  if (partial || len >= sizeof c->rx || len <= HG_SEAL_OVERHEAD || data[0] != 1) {
    hg__cluster_drop(c, CL_DROP_MALFORMED, src);
    return;
  }
  if (hg_unseal(c->kr, data, len, c->plain, sizeof c->plain, &plen) < 0) {
    hg__cluster_drop(c, CL_DROP_AUTH, src);
    return;
  }
  if (plen > 0 && c->plain[0] == LEASE_MARK && c->on_lease) {
    c->lease_received++;
    c->on_lease(c->on_lease_ud, c->plain + 1, plen - 1);
    return;
  }
  if (len > HG_WIRE_UDP_MAX || hg_wire_decode(c->plain, plen, HG_WIRE_UDP_ITEMS, &m) < 0) {
    hg__cluster_drop(c, CL_DROP_MALFORMED, src);
    return;
  }
  if (m.type == HG_WIRE_PUSH_PULL) {
    hg_wire_msg_free(&m);
    hg__cluster_drop(c, CL_DROP_MALFORMED, src);
    return;
  }
  if (hg_replay_check(c->udp_replay, m.from, m.boot, m.pkt_seq, m.sent_ms,
                      hg__cluster_wall_ms()) < 0) {
    hg_wire_msg_free(&m);
    hg__cluster_drop(c, CL_DROP_REPLAY, src);
    return;
  }
  hg_swim_receive(c->swim, &m);
  hg_wire_msg_free(&m);
  hg__cluster_after_swim(c);
}

void hg_cluster_on_lease(hg_cluster *c, hg_cluster_lease_fn fn, void *ud) {
  c->on_lease = fn;
  c->on_lease_ud = ud;
}

void hg_cluster_on_member_change(hg_cluster *c, hg_cluster_member_fn fn, void *ud) {
  c->on_member_change = fn;
  c->on_member_change_ud = ud;
}

int hg_cluster_lease_send(hg_cluster *c, const char *node_id, const void *data,
                          size_t len) {
  if (!c->started || c->shutting) return -ESHUTDOWN;
  if (len + 1 > HG_CLUSTER_LEASE_MAX) return -EMSGSIZE;
  const hg_swim_member *mb = hg_swim_member_get(c->swim, node_id);
  if (!mb) return -ENOENT;
  struct sockaddr_storage sa;
  int rc = addr_for_udp(c, mb->addr, &sa);
  if (rc < 0) return rc;
  /* The mark and the payload, sealed in place of one another: plain is
   * the receive side's, so the sealed copy goes to tx. */
  uint8_t *plain = malloc(len + 1);
  if (!plain) return -ENOMEM;
  plain[0] = LEASE_MARK;
  memcpy(plain + 1, data, len);
  size_t n = 0;
  rc = hg_seal(c->kr, plain, len + 1, c->tx, sizeof c->tx, &n);
  free(plain);
  if (rc < 0) return rc;
  udp_send_raw(c, &sa, c->tx, n);
  c->lease_sent++;
  return 0;
}

static void on_udp_alloc(uv_handle_t *h, size_t suggested, uv_buf_t *buf) {
  hg_cluster *c = h->data;
  *buf = uv_buf_init((char *)c->rx, sizeof c->rx);
}

static void on_udp_recv(uv_udp_t *u, ssize_t nread, const uv_buf_t *buf,
                        const struct sockaddr *addr, unsigned flags) {
  hg_cluster *c = u->data;
  if (nread == 0 && !addr) return;
  if (nread < 0) {
    hg_log_debug("cluster.udp_recv", "err=%s", uv_strerror((int)nread));
    return;
  }
  if (c->shutting) return;
  c->bytes_received += (uint64_t)nread;
  udp_input(c, (const uint8_t *)buf->base, (size_t)nread, flags & UV_UDP_PARTIAL, addr);
}

/* ---- swim callbacks and timers ---- */

static int64_t io_now(void *ud) {
  return hg_now_ms();
}

static void on_swim_timer(uv_timer_t *t) {
  hg_cluster *c = t->data;
  hg_swim_tick(c->swim);
  hg__cluster_after_swim(c);
}

static void swim_kick(hg_cluster *c) {
  if (!c->started || c->shutting) return;
  int64_t delay = hg_swim_next_ms(c->swim) - hg_now_ms();
  /* +1: the loop's clock may lag ours by a fraction of a millisecond */
  uv_timer_start(&c->swim_timer, on_swim_timer, delay > 0 ? (uint64_t)delay + 1 : 0, 0);
}

void hg__cluster_after_swim(hg_cluster *c) {
  swim_kick(c);
  hg__cluster_dir_burst(c);
  hg__cluster_persist_schedule(c);
}

static void on_house_timer(uv_timer_t *t) {
  hg_cluster *c = t->data;
  if (!c->closing) meta_publish(c, false); /* swim refuses it after leave */
  int64_t now = hg_now_ms();
  if (now - c->sweep_ms >= CL_SWEEP_MS) {
    c->sweep_ms = now;
    hg__cluster_dir_sweep(c);
    hg__cluster_minfo_prune(c);
  }
  hg__cluster_peers_rebuild(c);
  drop_log(c, false);
  hg__cluster_persist_schedule(c);
}

/* ---- lifecycle ---- */

static int swim_setup(hg_cluster *c, const hg_cluster_config *cfg) {
  hg_swim_config *s = &c->swim_cfg;
  memset(s, 0, sizeof *s);
  int rc = hg_swim_profile(s, cfg->profile ? cfg->profile : "lan");
  if (rc < 0) {
    hg_log_error("cluster.config", "profile=%s err=unknown profile", cfg->profile);
    return rc;
  }
  const hg_swim_config *o = &cfg->swim;
#define OVERRIDE(f) \
  if (o->f) s->f = o->f
  OVERRIDE(probe_interval_ms);
  OVERRIDE(probe_timeout_ms);
  OVERRIDE(indirect_checks);
  OVERRIDE(suspicion_mult);
  OVERRIDE(suspicion_max_mult);
  OVERRIDE(retransmit_mult);
  OVERRIDE(gossip_interval_ms);
  OVERRIDE(gossip_nodes);
  OVERRIDE(push_pull_interval_ms);
  OVERRIDE(rejoin_interval_ms);
  OVERRIDE(awareness_max);
  OVERRIDE(dead_forget_ms);
  OVERRIDE(seed);
#undef OVERRIDE
  size_t udp_max = HG_WIRE_UDP_MAX - HG_SEAL_OVERHEAD;
  s->udp_max = o->udp_max && o->udp_max < udp_max ? o->udp_max : udp_max;
  hg__cluster_copy_str(s->id, sizeof s->id, c->id);
  hg__cluster_copy_str(s->addr, sizeof s->addr, c->advertise);
  if (!s->seed && hg_random_bytes(&s->seed, sizeof s->seed) < 0)
    s->seed = (uint64_t)hg_now_ns();
  hg_buf_init(&c->enc, s->udp_max);

  hg_swim_io io = {.ud = c,
                   .now_ms = io_now,
                   .send = io_send,
                   .push_pull = hg__cluster_push_pull,
                   .on_member = hg__cluster_on_member,
                   .on_user = hg__cluster_on_user};
  uint64_t stored = hg__cluster_incarnation_load(c);
  return hg_swim_new(s, &io, stored ? stored + 1 : 0, &c->swim);
}

/* Besides its handles, the cluster waits for its push-pulls and a persist
 * still on the thread pool. */
static bool cluster_may_finish(void *cl) {
  hg_cluster *c = cl;
  return c->shutting && !c->pps && !c->persist_busy;
}

static void cluster_free(hg_cluster *c);

static void cluster_finish(void *cl) {
  hg_cluster *c = cl;
  hg__cluster_persist_flush(c);
  drop_log(c, true);
  hg_log_info("cluster.closed", "node=%s", c->id);
  cluster_free(c);
}

static void cluster_free(hg_cluster *c) {
  hg_swim_free(c->swim);
  hg_keyring_free(c->kr);
  hg_replay_free(c->udp_replay);
  hg_replay_free(c->tcp_replay);
  hg_buf_free(&c->enc);
  hg__cluster_dir_free(c);
  free(c->pending);
  free(c->minfo);
  free(c->peers);
  free(c->peers_build);
  free(c->roster);
  free(c->join);
  free(c->state_dir);
  pthread_mutex_destroy(&c->mu);
  free(c);
}

static int config_check(const hg_cluster_config *cfg) {
  if (!cfg->node_id || !cfg->node_id[0] || strlen(cfg->node_id) >= HG_NODE_ID_MAX)
    return -EINVAL;
  if (!cfg->gossip || !cfg->cluster_key || !cfg->cluster_key[0]) return -EINVAL;
  if (cfg->zone && strlen(cfg->zone) >= sizeof((hg_node_meta *)0)->zone) return -EINVAL;
  return 0;
}

int hg_cluster_new(uv_loop_t *loop, const hg_cluster_config *cfg, hg_cluster **out) {
  int rc = config_check(cfg);
  if (rc < 0) {
    hg_log_error("cluster.config", "err=node_id, gossip and cluster_key are required");
    return rc;
  }
  hg_cluster *c = calloc(1, sizeof *c);
  if (!c) return -ENOMEM;
  pthread_mutex_init(&c->mu, NULL);
  c->loop = loop;
  hg__cluster_copy_str(c->id, sizeof c->id, cfg->node_id);
  hg__cluster_copy_str(c->gossip, sizeof c->gossip, cfg->gossip);
  hg__cluster_copy_str(
      c->advertise, sizeof c->advertise,
      cfg->advertise && cfg->advertise[0] ? cfg->advertise : cfg->gossip);
  hg__cluster_copy_str(c->zone, sizeof c->zone, cfg->zone);
  c->tombstone_ms = cfg->tombstone_ms > 0 ? cfg->tombstone_ms : CL_TOMBSTONE_MS;
  c->boot = hg_replay_boot();
  if (hg_random_bytes(&c->rng, sizeof c->rng) < 0 || !c->rng)
    c->rng = (uint64_t)hg_now_ns() | 1;
  c->nbuckets = 1024;
  c->buckets = calloc(c->nbuckets, sizeof *c->buckets);
  c->join = strdup(cfg->join ? cfg->join : "");
  c->state_dir = cfg->state_dir && cfg->state_dir[0] ? strdup(cfg->state_dir) : NULL;
  rc = c->buckets && c->join && (c->state_dir || !cfg->state_dir || !cfg->state_dir[0])
           ? 0
           : -ENOMEM;
  struct sockaddr_storage adv;
  if (rc == 0 &&
      (hg__cluster_addr_parse(c->gossip, &c->bind_sa) < 0 ||
       hg__cluster_addr_parse(c->advertise, &adv) < 0 || addr_unspecified(&adv))) {
    hg_log_error("cluster.config",
                 "gossip=%s advertise=%s err=need numeric HOST:PORT (advertise "
                 "one peers can reach)",
                 c->gossip, c->advertise);
    rc = -EINVAL;
  }
  if (rc == 0)
    rc = hg_keyring_new(cfg->cluster_name ? cfg->cluster_name : "hangar", &c->kr);
  if (rc == 0) rc = hg_keyring_parse(c->kr, cfg->cluster_key);
  if (rc == 0) rc = hg_replay_new(CL_REPLAY_SENDERS, CL_REPLAY_SKEW_MS, &c->udp_replay);
  if (rc == 0) rc = hg_replay_new(CL_REPLAY_SENDERS, CL_REPLAY_SKEW_MS, &c->tcp_replay);
  if (rc == 0 && c->state_dir) rc = hg_mkdir_p(c->state_dir, 0700);
  if (rc == 0) rc = hg__cluster_roster_load(c);
  if (rc == 0) rc = swim_setup(c, cfg);
  if (rc < 0) {
    cluster_free(c);
    return rc;
  }
  c->meta = cfg->self;
  meta_fix(c, &c->meta);
  hg__cluster_roster_note(c, c->id, c->advertise, c->meta.api_addr);

  uv_udp_init(loop, &c->udp);
  uv_tcp_init(loop, &c->listener);
  uv_timer_init(loop, &c->swim_timer);
  uv_timer_init(loop, &c->house_timer);
  uv_timer_init(loop, &c->leave_timer);
  uv_async_init(loop, &c->async, hg__cluster_dir_on_async);
  c->udp.data = c->listener.data = c->swim_timer.data = c->house_timer.data = c;
  c->leave_timer.data = c->async.data = c;
  hg_closer_init(&c->closer, c, cluster_may_finish, cluster_finish);
  hg_closer_add(&c->closer, 6);
  *out = c;
  return 0;
}

/* Seeds: the join flag, then a random sample of the roster's last known
 * addresses, so a restarted node finds the cluster even when its seeds are
 * gone. swim keeps at most CL_SEEDS_MAX. */
static void join_seeds(hg_cluster *c) {
  size_t cap = c->nroster + CL_SEEDS_MAX, n = 0, nflag = 0;
  char(*seeds)[HG_ADDR_MAX] = calloc(cap, sizeof *seeds);
  const char **ptrs = calloc(cap, sizeof *ptrs);
  char *list = strdup(c->join);
  if (!seeds || !ptrs || !list) goto out;
  for (char *save = NULL, *tok = strtok_r(list, ",", &save); tok;
       tok = strtok_r(NULL, ",", &save)) {
    while (*tok == ' ') tok++;
    if (*tok && n < CL_SEEDS_MAX) hg__cluster_copy_str(seeds[n++], HG_ADDR_MAX, tok);
  }
  nflag = n;
  for (size_t i = 0; i < c->nroster; i++)
    if (strcmp(c->roster[i].id, c->id) != 0 && c->roster[i].gossip[0])
      hg__cluster_copy_str(seeds[n++], HG_ADDR_MAX, c->roster[i].gossip);
  for (size_t i = n; i > nflag + 1; i--) { /* shuffle the roster's part */
    size_t j = nflag + hg__cluster_rnd(c) % (i - nflag);
    char tmp[HG_ADDR_MAX];
    memcpy(tmp, seeds[i - 1], sizeof tmp);
    memcpy(seeds[i - 1], seeds[j], sizeof tmp);
    memcpy(seeds[j], tmp, sizeof tmp);
  }
  size_t k = 0;
  for (size_t i = 0; i < n && k < CL_SEEDS_MAX; i++) {
    bool dup = strcmp(seeds[i], c->advertise) == 0 || strcmp(seeds[i], c->gossip) == 0;
    for (size_t j = 0; j < k && !dup; j++) dup = strcmp(ptrs[j], seeds[i]) == 0;
    if (dup) continue;
    struct sockaddr_storage sa;
    if (hg__cluster_addr_parse(seeds[i], &sa) < 0) {
      hg_log_warn("cluster.seed_invalid", "seed=%s", seeds[i]);
      continue;
    }
    ptrs[k++] = seeds[i];
  }
  if (k) {
    int rc = hg_swim_join(c->swim, ptrs, k);
    hg_log_info("cluster.join", "seeds=%zu first=%s err=%s", k, ptrs[0],
                rc < 0 ? uv_strerror(rc) : "none");
  }
out:
  free(seeds);
  free(ptrs);
  free(list);
}

/* Lease batches are datagrams of up to HG_CLUSTER_LEASE_MAX (60 KB, ~40 IP
 * fragments): the kernel's default buffer (208 KiB) holds two or three, and
 * while the loop is busy for a moment (a mass failover's claims and their
 * answers, both ways at once) the rest is dropped and waits for a retry
 * round (T/3 each). So: CL_UDP_BUF_BYTES each way, forced where we may
 * (CAP_NET_ADMIN), else what net.core.[rw]mem_max allows. */
static void udp_buffers(hg_cluster *c) {
  uv_os_fd_t fd;
  int want = CL_UDP_BUF_BYTES, got[2] = {0, 0};
  static const int force[2] = {SO_RCVBUFFORCE, SO_SNDBUFFORCE}, plain[2] = {SO_RCVBUF, SO_SNDBUF};
  if (uv_fileno((uv_handle_t *)&c->udp, &fd) < 0) return;
  for (int i = 0; i < 2; i++) {
    if (setsockopt(fd, SOL_SOCKET, force[i], &want, sizeof want) < 0)
      (void)setsockopt(fd, SOL_SOCKET, plain[i], &want, sizeof want);
    socklen_t len = sizeof got[i];
    (void)getsockopt(fd, SOL_SOCKET, plain[i], &got[i], &len);
  }
  hg_log_info("cluster.udp_buffers", "rcvbuf=%d sndbuf=%d want=%d", got[0], got[1], want);
}

int hg_cluster_start(hg_cluster *c) {
  if (c->started || c->closing) return -EALREADY;
  const struct sockaddr *sa = (const struct sockaddr *)&c->bind_sa;
  int rc = uv_udp_bind(&c->udp, sa, 0);
  if (rc == 0) rc = uv_tcp_bind(&c->listener, sa, 0);
  if (rc == 0)
    rc = uv_listen((uv_stream_t *)&c->listener, 128, hg__cluster_on_pp_connection);
  if (rc == 0) rc = uv_udp_recv_start(&c->udp, on_udp_alloc, on_udp_recv);
  if (rc == 0) udp_buffers(c);
  if (rc < 0) {
    hg_log_error("cluster.bind", "addr=%s err=%s", c->gossip, uv_strerror(rc));
    return rc;
  }
  /* The incarnation we start with is on disk before anyone hears it, so
   * two quick restarts still count up. Blocking, once, at start. */
  uint64_t inc = hg_swim_incarnation(c->swim);
  if (c->state_dir && hg__cluster_persist_write(c->state_dir, NULL, true, inc) == 0)
    c->inc_saved = inc;
  c->started = true;
  c->started_ms = c->sweep_ms = hg_now_ms();
  meta_publish(c, true);
  hg__cluster_peers_rebuild(c);
  uv_timer_start(&c->house_timer, on_house_timer, CL_HOUSEKEEP_MS, CL_HOUSEKEEP_MS);
  hg_log_info("cluster.start",
              "node=%s gossip=%s advertise=%s incarnation=%" PRIu64 " roster=%zu", c->id,
              c->gossip, c->advertise, hg_swim_incarnation(c->swim), c->nroster);
  join_seeds(c);
  hg__cluster_after_swim(c);
  return 0;
}

static void on_cluster_closed(uv_handle_t *h) {
  hg_cluster *c = h->data;
  hg_closer_closed(&c->closer);
}

static void close_handles(hg_cluster *c) {
  c->shutting = true;
  pthread_mutex_lock(&c->mu);
  c->async_closed = true; /* no thread may signal a closing handle */
  pthread_mutex_unlock(&c->mu);
  if (c->started) uv_udp_recv_stop(&c->udp);
  uv_close((uv_handle_t *)&c->udp, on_cluster_closed);
  uv_close((uv_handle_t *)&c->listener, on_cluster_closed);
  uv_close((uv_handle_t *)&c->swim_timer, on_cluster_closed);
  uv_close((uv_handle_t *)&c->house_timer, on_cluster_closed);
  uv_close((uv_handle_t *)&c->leave_timer, on_cluster_closed);
  uv_close((uv_handle_t *)&c->async, on_cluster_closed);
  hg__cluster_pp_close_all(c);
  if (c->persist_busy) uv_cancel((uv_req_t *)&c->persist);
  hg_closer_check(&c->closer);
}

static void on_leave_timer(uv_timer_t *t) {
  close_handles(t->data);
}

static void cluster_close(hg_cluster *c, bool leave, void (*done)(void *), void *ud) {
  if (c->closing) return;
  c->closing = true;
  hg_closer_then(&c->closer, done, ud);
  if (!leave || !c->started) {
    c->crashed = !leave;
    close_handles(c);
    return;
  }
  hg_log_info("cluster.leave", "node=%s", c->id);
  hg_swim_leave(c->swim);
  hg__cluster_after_swim(c);
  /* A few gossip rounds carry the "left" to the others. */
  unsigned wait = 4 * c->swim_cfg.gossip_interval_ms;
  if (wait > CL_LEAVE_MAX_MS || wait == 0) wait = CL_LEAVE_MAX_MS;
  uv_timer_start(&c->leave_timer, on_leave_timer, wait, 0);
}

void hg_cluster_close(hg_cluster *c, void (*done)(void *ud), void *ud) {
  cluster_close(c, true, done, ud);
}

void hg_cluster_crash(hg_cluster *c, void (*done)(void *ud), void *ud) {
  cluster_close(c, false, done, ud);
}

/* ---- metadata and directory API ---- */

void hg_cluster_set_meta(hg_cluster *c, const hg_node_meta *self) {
  pthread_mutex_lock(&c->mu);
  c->meta = *self;
  meta_fix(c, &c->meta);
  c->meta_changed = true;
  pthread_mutex_unlock(&c->mu);
}

/* ---- stats ---- */

void hg_cluster_get_stats(hg_cluster *c, hg_cluster_stats *out) {
  memset(out, 0, sizeof *out);
  hg_swim_get_stats(c->swim, &out->swim);
  out->dropped_auth = c->dropped_auth;
  out->dropped_replay = c->dropped_replay;
  out->dropped_malformed = c->dropped_malformed;
  out->bytes_sent = c->bytes_sent;
  out->bytes_received = c->bytes_received;
  out->push_pulls = c->push_pulls;
  out->health = hg_swim_health(c->swim);
  size_t n = 0;
  hg_swim_member *ms = hg__cluster_members_copy(c, &n);
  for (size_t i = 0; ms && i < n; i++) {
    if (ms[i].state == HG_MEMBER_ALIVE)
      out->members_alive++;
    else if (ms[i].state == HG_MEMBER_SUSPECT)
      out->members_suspect++;
    else
      out->members_dead++;
  }
  free(ms);
}

void hg_cluster_metrics(hg_cluster *c, hg_buf *out) {
  hg_cluster_stats st;
  hg_cluster_get_stats(c, &st);
  hg_buf_printf(
      out,
      "# HELP hangar_cluster_members Cluster members by state, as this node sees them.\n"
      "# TYPE hangar_cluster_members gauge\n"
      "hangar_cluster_members{state=\"alive\"} %zu\n"
      "hangar_cluster_members{state=\"suspect\"} %zu\n"
      "hangar_cluster_members{state=\"dead\"} %zu\n"
      "# HELP hangar_cluster_dropped_total Cluster packets dropped before gossip saw "
      "them.\n"
      "# TYPE hangar_cluster_dropped_total counter\n"
      "hangar_cluster_dropped_total{reason=\"auth\"} %" PRIu64
      "\n"
      "hangar_cluster_dropped_total{reason=\"replay\"} %" PRIu64
      "\n"
      "hangar_cluster_dropped_total{reason=\"malformed\"} %" PRIu64
      "\n"
      "# HELP hangar_cluster_bytes_total Cluster bytes on the wire (UDP and push-pull).\n"
      "# TYPE hangar_cluster_bytes_total counter\n"
      "hangar_cluster_bytes_total{dir=\"sent\"} %" PRIu64
      "\n"
      "hangar_cluster_bytes_total{dir=\"received\"} %" PRIu64
      "\n"
      "# HELP hangar_cluster_push_pulls_total Full state exchanges over TCP.\n"
      "# TYPE hangar_cluster_push_pulls_total counter\n"
      "hangar_cluster_push_pulls_total %" PRIu64
      "\n"
      "# HELP hangar_cluster_swim_events_total Failure detector events.\n"
      "# TYPE hangar_cluster_swim_events_total counter\n"
      "hangar_cluster_swim_events_total{event=\"probe\"} %" PRIu64
      "\n"
      "hangar_cluster_swim_events_total{event=\"indirect_probe\"} %" PRIu64
      "\n"
      "hangar_cluster_swim_events_total{event=\"nack\"} %" PRIu64
      "\n"
      "hangar_cluster_swim_events_total{event=\"suspect\"} %" PRIu64
      "\n"
      "hangar_cluster_swim_events_total{event=\"refute\"} %" PRIu64
      "\n"
      "hangar_cluster_swim_events_total{event=\"dead\"} %" PRIu64
      "\n"
      "hangar_cluster_swim_events_total{event=\"false_suspicion\"} %" PRIu64 "\n",
      st.members_alive, st.members_suspect, st.members_dead, st.dropped_auth,
      st.dropped_replay, st.dropped_malformed, st.bytes_sent, st.bytes_received,
      st.push_pulls, st.swim.probes, st.swim.indirect_probes, st.swim.nacks,
      st.swim.suspects_raised, st.swim.refutes, st.swim.deaths_declared,
      st.swim.false_suspicions);
  hg_buf_printf(
      out,
      "# HELP hangar_cluster_health Lifeguard local health score (0: healthy).\n"
      "# TYPE hangar_cluster_health gauge\n"
      "hangar_cluster_health %u\n",
      st.health);
}

bool hg_cluster_heard(const hg_cluster *c) {
  bool others = (c->join && c->join[0]) || c->nroster > 1;
  bool gave_up = c->started && hg_now_ms() - c->started_ms > CL_HEAR_WAIT_MS;
  return c->push_pulls > 0 || !others || gave_up;
}

const char *hg_cluster_self_id(const hg_cluster *c) {
  return c->id;
}
