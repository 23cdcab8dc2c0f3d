/* cluster push-pull: full state exchanges over TCP (see cluster_internal.h).
 *
 * One TCP connection carries one frame each way:
 *   u32 big-endian length of the sealed payload | flags (bit 0: zstd) | sealed
 * The initiator sends first; the responder answers only a frame that
 * authenticated. Encoding, zstd and sealing (and the reverse) run on the
 * thread pool because a full state can be megabytes. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zstd.h>

#include "cluster/cluster_internal.h"
#include "cluster/seal.h"
#include "node/core/buf.h"
#include "node/core/list.h"
#include "node/core/log.h"
#include "node/core/util.h"

typedef struct pp pp;

struct pp {
  hg_cluster *c;
  pp *prev, *next;
  uv_tcp_t tcp;
  uv_timer_t timer;
  uv_connect_t connect;
  uv_write_t write;
  uv_work_t work;
  hg_closer closer; /* tcp and timer; frees p once no work item uses it */
  bool initiator, join, closing, working;
  char addr[HG_ADDR_MAX]; /* initiator: the peer; responder: for logs */
  int64_t started_ms;
  /* in */
  uint8_t hdr[CL_PP_HDR];
  size_t hdr_len;
  uint8_t *in;
  size_t in_len, in_cap, in_need;
  uint8_t in_flags;
  /* out */
  uint8_t *out;
  size_t out_len;
  /* the state being sealed or just opened */
  hg_wire_msg msg;
  hg_dirent *dirs;
  size_t ndirs;
  size_t bad_dirs;
  int work_rc;
  bool auth_failed;
};

static void pp_close(pp *p);

/* ---- push-pull ---- */

static bool pp_no_work(void *p) { return !((pp *)p)->working; }

static void pp_free(void *pv) {
  pp *p = pv;
  hg_cluster *c = p->c;
  HG_LIST_UNLINK(c->pps, p);
  if (p->initiator)
    c->pp_out--;
  else
    c->pp_in--;
  hg_wire_msg_free(&p->msg);
  free(p->dirs);
  free(p->in);
  free(p->out);
  free(p);
  hg_closer_check(&c->closer); /* the cluster may wait for its last pp */
}

static void on_pp_closed(uv_handle_t *h) {
  pp *p = h->data;
  hg_closer_closed(&p->closer);
}

static void pp_close(pp *p) {
  if (p->closing) return;
  p->closing = true;
  uv_close((uv_handle_t *)&p->tcp, on_pp_closed);
  uv_close((uv_handle_t *)&p->timer, on_pp_closed);
}

/* A work item came back. false: p is closing (and maybe freed): stop. */
static bool pp_work_back(pp *p, int status) {
  p->working = false;
  if (p->closing) {
    hg_closer_check(&p->closer);
    return false;
  }
  if (status < 0) {
    pp_close(p);
    return false;
  }
  return true;
}

static void on_pp_timeout(uv_timer_t *t) {
  pp *p = t->data;
  hg_log_debug("cluster.push_pull_timeout", "peer=%s initiator=%d", p->addr,
               p->initiator);
  pp_close(p);
}

static void pp_arm(pp *p) {
  int64_t left = p->started_ms + CL_PP_TOTAL_MS - hg_now_ms();
  int64_t ms = left < CL_PP_IDLE_MS ? left : CL_PP_IDLE_MS;
  uv_timer_start(&p->timer, on_pp_timeout, ms > 0 ? (uint64_t)ms : 0, 0);
}

static pp *pp_new(hg_cluster *c, bool initiator) {
  pp *p = calloc(1, sizeof *p);
  if (!p) return NULL;
  p->c = c;
  p->initiator = initiator;
  p->started_ms = hg_now_ms();
  uv_tcp_init(c->loop, &p->tcp);
  uv_timer_init(c->loop, &p->timer);
  p->tcp.data = p->timer.data = p->connect.data = p->write.data = p->work.data = p;
  hg_closer_init(&p->closer, p, pp_no_work, pp_free);
  hg_closer_add(&p->closer, 2);
  HG_LIST_PUSH(c->pps, p);
  if (initiator)
    c->pp_out++;
  else
    c->pp_in++;
  return p;
}

static int zstd_pack(const void *in, size_t len, uint8_t **out, size_t *out_len) {
  size_t cap = ZSTD_compressBound(len);
  uint8_t *z = malloc(cap);
  ZSTD_CCtx *cx = ZSTD_createCCtx();
  int rc = z && cx ? 0 : -ENOMEM;
  if (rc == 0) {
    ZSTD_CCtx_setParameter(cx, ZSTD_c_compressionLevel, 1);
    ZSTD_CCtx_setParameter(cx, ZSTD_c_checksumFlag, 1);
    size_t n = ZSTD_compress2(cx, z, cap, in, len);
    if (ZSTD_isError(n))
      rc = -EIO;
    else
      *out_len = n;
  }
  ZSTD_freeCCtx(cx);
  if (rc < 0)
    free(z);
  else
    *out = z;
  return rc;
}

/* Decompresses at most HG_WIRE_TCP_MAX bytes; the frame must say its size. */
static int zstd_unpack(const void *in, size_t len, uint8_t **out, size_t *out_len) {
  unsigned long long n = ZSTD_getFrameContentSize(in, len);
  if (n == ZSTD_CONTENTSIZE_ERROR || n == ZSTD_CONTENTSIZE_UNKNOWN || n == 0 ||
      n > HG_WIRE_TCP_MAX)
    return -EPROTO;
  uint8_t *d = malloc((size_t)n);
  if (!d) return -ENOMEM;
  size_t got = ZSTD_decompress(d, (size_t)n, in, len);
  if (ZSTD_isError(got) || got != n) {
    free(d);
    return -EPROTO;
  }
  *out = d;
  *out_len = got;
  return 0;
}

/* Thread pool: dirents -> users, encode, maybe zstd, seal, frame. */
static void pp_seal_work(uv_work_t *w) {
  pp *p = w->data;
  hg_cluster *c = p->c;
  hg_buf b;
  uint8_t *z = NULL;
  size_t zlen = 0, slen = 0;
  int rc = 0;
  for (size_t i = 0; rc == 0 && i < p->ndirs; i++) {
    hg_wire_user u;
    hg__cluster_copy_str(u.key, sizeof u.key, p->dirs[i].sandbox);
    if (hg_dirent_encode(&p->dirs[i], u.data, sizeof u.data, &u.len) < 0) continue;
    rc = hg_wire_add_user(&p->msg, &u);
  }
  free(p->dirs);
  p->dirs = NULL;
  p->ndirs = 0;
  hg_buf_init(&b, HG_WIRE_TCP_MAX);
  if (rc == 0) rc = hg_wire_encode(&p->msg, &b);
  hg_wire_msg_free(&p->msg);
  const void *plain = b.data;
  size_t plen = b.len;
  uint8_t flags = 0;
  if (rc == 0 && plen > CL_ZSTD_MIN && zstd_pack(plain, plen, &z, &zlen) == 0 &&
      zlen < plen) {
    plain = z;
    plen = zlen;
    flags = CL_PP_ZSTD;
  }
  if (rc == 0) {
    size_t cap = CL_PP_HDR + plen + HG_SEAL_OVERHEAD;
    p->out = malloc(cap);
    rc = p->out ? hg_seal(c->kr, plain, plen, p->out + CL_PP_HDR, cap - CL_PP_HDR, &slen)
                : -ENOMEM;
  }
  if (rc == 0) {
    p->out[0] = (uint8_t)(slen >> 24);
    p->out[1] = (uint8_t)(slen >> 16);
    p->out[2] = (uint8_t)(slen >> 8);
    p->out[3] = (uint8_t)slen;
    p->out[4] = flags;
    p->out_len = CL_PP_HDR + slen;
  }
  free(z);
  hg_buf_free(&b);
  p->work_rc = rc;
}

/* Thread pool: unseal, maybe unzstd, decode, users -> dirents. */
static void pp_open_work(uv_work_t *w) {
  pp *p = w->data;
  hg_cluster *c = p->c;
  size_t plen = 0, dlen = 0;
  uint8_t *plain = malloc(p->in_len), *dz = NULL;
  int rc = plain ? 0 : -ENOMEM;
  if (rc == 0 && hg_unseal(c->kr, p->in, p->in_len, plain, p->in_len, &plen) < 0) {
    p->auth_failed = true;
    rc = -EBADMSG;
  }
  free(p->in);
  p->in = NULL;
  const uint8_t *data = plain;
  if (rc == 0 && (p->in_flags & CL_PP_ZSTD)) {
    rc = zstd_unpack(plain, plen, &dz, &dlen);
    data = dz;
    plen = dlen;
  }
  if (rc == 0) rc = hg_wire_decode(data, plen, HG_WIRE_TCP_ITEMS, &p->msg);
  free(plain);
  free(dz);
  if (rc == 0 && p->msg.nusers) {
    p->dirs = malloc(p->msg.nusers * sizeof *p->dirs);
    if (!p->dirs) rc = -ENOMEM;
    for (size_t i = 0; rc == 0 && i < p->msg.nusers; i++) {
      hg_dirent *e = &p->dirs[p->ndirs];
      if (hg_dirent_decode(p->msg.users[i].data, p->msg.users[i].len, e) < 0 ||
          strcmp(e->sandbox, p->msg.users[i].key) != 0)
        p->bad_dirs++;
      else
        p->ndirs++;
    }
    p->msg.nusers = 0;
  }
  if (rc < 0) hg_wire_msg_free(&p->msg);
  p->work_rc = rc;
}

static void on_pp_read(uv_stream_t *s, ssize_t nread, const uv_buf_t *buf);
static void on_pp_alloc(uv_handle_t *h, size_t suggested, uv_buf_t *buf);
static void pp_after_seal(uv_work_t *w, int status);

static void pp_send_state(pp *p) {
  hg_cluster *c = p->c;
  memset(&p->msg, 0, sizeof p->msg);
  int rc = hg_swim_local_state(c->swim, p->initiator && p->join, &p->msg);
  if (rc == 0) {
    p->msg.type = HG_WIRE_PUSH_PULL;
    p->msg.join = p->initiator && p->join;
    hg__cluster_stamp(c, &p->msg);
    rc = hg__cluster_dir_snapshot(c, &p->dirs, &p->ndirs);
  }
  if (rc == 0) rc = uv_queue_work(c->loop, &p->work, pp_seal_work, pp_after_seal);
  if (rc < 0) {
    hg_log_warn("cluster.push_pull_state", "peer=%s err=%s", p->addr, uv_strerror(rc));
    pp_close(p);
    return;
  }
  p->working = true;
  uv_timer_stop(&p->timer);
}

static void on_pp_write(uv_write_t *w, int status) {
  pp *p = w->data;
  free(p->out);
  p->out = NULL;
  if (p->closing) return;
  if (status < 0) {
    hg_log_debug("cluster.push_pull_write", "peer=%s err=%s", p->addr,
                 uv_strerror(status));
    pp_close(p);
  } else if (!p->initiator) {
    pp_close(p); /* our answer is out: the exchange is over for us */
  }
}

static void pp_after_seal(uv_work_t *w, int status) {
  pp *p = w->data;
  hg_cluster *c = p->c;
  if (!pp_work_back(p, status)) return;
  if (p->work_rc < 0) {
    hg_log_warn("cluster.push_pull_encode", "peer=%s err=%s", p->addr,
                uv_strerror(p->work_rc));
    pp_close(p);
    return;
  }
  uv_buf_t b = uv_buf_init((char *)p->out, (unsigned)p->out_len);
  int rc = uv_write(&p->write, (uv_stream_t *)&p->tcp, &b, 1, on_pp_write);
  if (rc == 0 && p->initiator)
    rc = uv_read_start((uv_stream_t *)&p->tcp, on_pp_alloc, on_pp_read);
  if (rc < 0) {
    pp_close(p);
    return;
  }
  c->bytes_sent += p->out_len;
  pp_arm(p);
}

static void pp_after_open(uv_work_t *w, int status) {
  pp *p = w->data;
  hg_cluster *c = p->c;
  if (!pp_work_back(p, status)) return;
  if (p->work_rc < 0) {
    hg__cluster_drop(c, p->auth_failed ? CL_DROP_AUTH : CL_DROP_MALFORMED, p->addr);
    pp_close(p);
    return;
  }
  hg_wire_msg *m = &p->msg;
  if (m->type != HG_WIRE_PUSH_PULL) {
    hg__cluster_drop(c, CL_DROP_MALFORMED, p->addr);
    pp_close(p);
    return;
  }
  if (hg_replay_check(c->tcp_replay, m->from, m->boot, m->pkt_seq, m->sent_ms,
                      hg__cluster_wall_ms()) < 0) {
    hg__cluster_drop(c, CL_DROP_REPLAY, p->addr);
    pp_close(p);
    return;
  }
  c->dropped_malformed += p->bad_dirs;
  hg_swim_merge_state(c->swim, m);
  pthread_mutex_lock(&c->mu);
  for (size_t i = 0; i < p->ndirs; i++) hg__cluster_dir_merge(c, &p->dirs[i]);
  pthread_mutex_unlock(&c->mu);
  c->push_pulls++;
  hg_log_debug("cluster.push_pull",
               "peer=%s from=%s members=%zu entries=%zu bytes=%zu zstd=%d initiator=%d",
               p->addr, m->from, m->nmembers, p->ndirs, p->in_need,
               p->in_flags & CL_PP_ZSTD, p->initiator);
  hg_wire_msg_free(m);
  free(p->dirs);
  p->dirs = NULL;
  p->ndirs = 0;
  hg__cluster_after_swim(c);
  if (p->initiator)
    pp_close(p);
  else
    pp_send_state(p);
}

static void on_pp_alloc(uv_handle_t *h, size_t suggested, uv_buf_t *buf) {
  pp *p = h->data;
  if (p->hdr_len < CL_PP_HDR) {
    *buf = uv_buf_init((char *)p->hdr + p->hdr_len, (unsigned)(CL_PP_HDR - p->hdr_len));
    return;
  }
  /* Grow as bytes arrive: a peer that announces 64 MiB must send them. */
  if (p->in_len == p->in_cap) {
    size_t cap = p->in_cap ? 2 * p->in_cap : 64 * 1024;
    if (cap > p->in_need) cap = p->in_need;
    uint8_t *n = realloc(p->in, cap);
    if (!n) {
      *buf = uv_buf_init(NULL, 0);
      return;
    }
    p->in = n;
    p->in_cap = cap;
  }
  *buf = uv_buf_init((char *)p->in + p->in_len, (unsigned)(p->in_cap - p->in_len));
}

static void on_pp_read(uv_stream_t *s, ssize_t nread, const uv_buf_t *buf) {
  pp *p = s->data;
  hg_cluster *c = p->c;
  if (nread == 0 || p->closing) return;
  if (nread < 0) {
    hg_log_debug("cluster.push_pull_read", "peer=%s err=%s", p->addr,
                 uv_strerror((int)nread));
    pp_close(p);
    return;
  }
  c->bytes_received += (uint64_t)nread;
  if (p->hdr_len < CL_PP_HDR) {
    p->hdr_len += (size_t)nread;
    if (p->hdr_len < CL_PP_HDR) return;
    uint32_t len = (uint32_t)p->hdr[0] << 24 | (uint32_t)p->hdr[1] << 16 |
                   (uint32_t)p->hdr[2] << 8 | p->hdr[3];
    p->in_flags = p->hdr[4];
    if (len <= HG_SEAL_OVERHEAD || len > HG_WIRE_TCP_MAX + HG_SEAL_OVERHEAD ||
        (p->in_flags & ~CL_PP_ZSTD)) {
      hg__cluster_drop(c, CL_DROP_MALFORMED, p->addr);
      pp_close(p);
      return;
    }
    p->in_need = len;
  } else {
    p->in_len += (size_t)nread;
  }
  if (p->in_len < p->in_need) {
    pp_arm(p);
    return;
  }
  uv_read_stop(s);
  uv_timer_stop(&p->timer);
  if (uv_queue_work(c->loop, &p->work, pp_open_work, pp_after_open) < 0) {
    pp_close(p);
    return;
  }
  p->working = true;
}

static void on_pp_connect(uv_connect_t *req, int status) {
  pp *p = req->data;
  if (p->closing) return;
  if (status < 0) {
    hg_log_debug("cluster.push_pull_connect", "peer=%s err=%s", p->addr,
                 uv_strerror(status));
    pp_close(p);
    return;
  }
  pp_send_state(p);
}

void hg__cluster_push_pull(void *ud, const char *addr, bool join) {
  hg_cluster *c = ud;
  struct sockaddr_storage sa;
  if (!c->started || c->shutting) return;
  if (c->pp_out >= CL_PP_MAX) {
    hg_log_debug("cluster.push_pull_busy", "peer=%s", addr);
    return;
  }
  if (hg__cluster_addr_parse(addr, &sa) < 0) {
    hg_log_debug("cluster.push_pull_addr", "peer=%s", addr);
    return;
  }
  pp *p = pp_new(c, true);
  if (!p) return;
  hg__cluster_copy_str(p->addr, sizeof p->addr, addr);
  p->join = join;
  int rc =
      uv_tcp_connect(&p->connect, &p->tcp, (const struct sockaddr *)&sa, on_pp_connect);
  if (rc < 0) {
    hg_log_debug("cluster.push_pull_connect", "peer=%s err=%s", addr, uv_strerror(rc));
    pp_close(p);
    return;
  }
  pp_arm(p);
}

void hg__cluster_on_pp_connection(uv_stream_t *server, int status) {
  hg_cluster *c = server->data;
  if (status < 0 || c->shutting) return;
  pp *p = pp_new(c, false);
  if (!p) return;
  if (uv_accept(server, (uv_stream_t *)&p->tcp) < 0) {
    pp_close(p);
    return;
  }
  struct sockaddr_storage sa;
  int len = sizeof sa;
  if (uv_tcp_getpeername(&p->tcp, (struct sockaddr *)&sa, &len) == 0)
    hg__cluster_addr_name((struct sockaddr *)&sa, p->addr, sizeof p->addr);
  if (c->pp_in > CL_PP_MAX) {
    hg_log_debug("cluster.push_pull_busy", "peer=%s", p->addr);
    pp_close(p);
    return;
  }
  if (uv_read_start((uv_stream_t *)&p->tcp, on_pp_alloc, on_pp_read) < 0) {
    pp_close(p);
    return;
  }
  pp_arm(p);
}

/* Shutdown: every exchange closes, its work cancelled if it has not run. */
void hg__cluster_pp_close_all(hg_cluster *c) {
  for (pp *p = c->pps; p; p = p->next) {
    if (p->working) uv_cancel((uv_req_t *)&p->work);
    pp_close(p);
  }
}
