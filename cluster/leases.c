/* leases: this node's part in the lease protocol; see leases.h. */
#include "cluster/leases.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cluster/lease_register.h"
#include "cluster/lease_wire.h"
#include "node/core/buf.h"
#include "node/core/closer.h"
#include "node/core/log.h"
#include "node/core/util.h"

#define OUTBOX_MAX 256 /* destinations with something to send */
#define BATCH_BYTES_MAX (4u << 20)
/* A flush this slow is logged: every grant waits for one (a busy disk). */
#define FLUSH_SLOW_MS 100

/* What goes to one node at the end of this turn. */
typedef struct outbox {
  char to[HG_NODE_ID_MAX];
  hg_lease_req *reqs;
  size_t nreqs, capreqs;
  hg_lease_reply *reps;
  size_t nreps, capreps;
} outbox;

/* A reply waiting for the flush that covers ticket. */
typedef struct held_reply {
  char to[HG_NODE_ID_MAX];
  uint64_t ticket;
  hg_lease_reply rep;
} held_reply;

struct hg_leases {
  uv_loop_t *loop;
  char self[HG_NODE_ID_MAX];
  hg_leases_cb cb;
  size_t max_bytes; /* of one encoded batch: the transport's datagram */
  hg_lease_acceptor *acc;
  hg_lease_proposer *prop;
  hg_lease_register *reg;
  uv_timer_t tick;
  /* Group commit: one flush on the thread pool at a time. */
  uv_work_t flush;
  bool flushing, broken;
  int flush_rc;
  uint64_t staged, durable, flush_durable;
  int64_t flush_started_ms;
  held_reply *held;
  size_t nheld, capheld;
  outbox boxes[OUTBOX_MAX];
  size_t nboxes;
  bool pumping, closing;
  hg_closer closer; /* tick; frees l once no flush is out */
  hg_leases_stats stats;
};

static bool no_flush_out(void *l);
static void leases_free(void *l);

/* ---- outboxes ------------------------------------------------------------- */

static int grow(void **arr, size_t *cap, size_t need, size_t elem) {
  if (need <= *cap) return 0;
  size_t n = *cap ? *cap * 2 : 16;
  while (n < need) n *= 2;
  void *p = realloc(*arr, n * elem);
  if (!p) return -ENOMEM;
  *arr = p;
  *cap = n;
  return 0;
}

static outbox *box_for(hg_leases *l, const char *to) {
  for (size_t i = 0; i < l->nboxes; i++)
    if (strcmp(l->boxes[i].to, to) == 0) return &l->boxes[i];
  if (l->nboxes == OUTBOX_MAX) return NULL;
  outbox *b = &l->boxes[l->nboxes++];
  *b = (outbox){0};
  snprintf(b->to, sizeof b->to, "%s", to);
  return b;
}

/* Out of memory or of outboxes, a message is dropped: the protocol
 * retries, as after a loss on the network. */
static void queue_req(hg_leases *l, const char *to, const hg_lease_req *req) {
  outbox *b = box_for(l, to);
  if (b && grow((void **)&b->reqs, &b->capreqs, b->nreqs + 1, sizeof *req) == 0)
    b->reqs[b->nreqs++] = *req;
}

static void queue_reply(hg_leases *l, const char *to, const hg_lease_reply *rep) {
  outbox *b = box_for(l, to);
  if (b && grow((void **)&b->reps, &b->capreps, b->nreps + 1, sizeof *rep) == 0)
    b->reps[b->nreps++] = *rep;
}

static void on_proposer_send(void *ud, const char *to, const hg_lease_req *req) {
  queue_req(ud, to, req);
}

static void on_proposer_changed(void *ud, const char *sandbox,
                                const hg_lease_info *info) {
  hg_leases *l = ud;
  if (l->cb.changed) l->cb.changed(l->cb.ud, sandbox, info);
}

/* ---- the acceptor's side ------------------------------------------------- */

static void start_flush(hg_leases *l);

static void accept_reqs(hg_leases *l, const hg_lease_req *reqs, size_t n) {
  if (l->broken) return;
  int64_t now = hg_now_ms();
  for (size_t i = 0; i < n; i++) {
    hg_lease_reply rep;
    int rc = hg_lease_acceptor_handle(l->acc, &reqs[i], now, &rep);
    if (rc < 0) continue;
    if (rc == 1) {
      hg_lease_promise p;
      uint64_t ticket;
      if (hg_lease_acceptor_get(l->acc, reqs[i].sandbox, &p) < 0 ||
          hg_lease_register_stage(l->reg, reqs[i].sandbox, &p, &ticket) < 0) {
        /* Not persisted: the reply must not leave. The acceptor's memory
         * is ahead of its disk now, so it answers nothing more. */
        l->broken = true;
        hg_log_error("lease.acceptor_stopped", "sandbox=%s why=\"promise not staged\"",
                     reqs[i].sandbox);
        return;
      }
      l->staged = ticket;
      l->stats.promises++;
    }
    if (l->staged <= l->durable) {
      queue_reply(l, reqs[i].from, &rep);
    } else if (grow((void **)&l->held, &l->capheld, l->nheld + 1, sizeof *l->held) == 0) {
      held_reply *h = &l->held[l->nheld++];
      snprintf(h->to, sizeof h->to, "%s", reqs[i].from);
      h->ticket = l->staged;
      h->rep = rep;
    }
  }
  if (l->staged > l->durable) start_flush(l);
}

static void flush_work(uv_work_t *w) {
  hg_leases *l = w->data;
  l->flush_rc = hg_lease_register_flush(l->reg, &l->flush_durable);
}

static void pump(hg_leases *l);

/* Replies the flush made safe leave; later ones wait for the next. */
static void release_held(hg_leases *l) {
  size_t k = 0;
  for (size_t i = 0; i < l->nheld; i++) {
    if (l->held[i].ticket <= l->durable)
      queue_reply(l, l->held[i].to, &l->held[i].rep);
    else
      l->held[k++] = l->held[i];
  }
  l->nheld = k;
}

static void flush_after(uv_work_t *w, int status) {
  hg_leases *l = w->data;
  l->flushing = false;
  l->stats.flushes++;
  int64_t ms = hg_now_ms() - l->flush_started_ms;
  if (ms >= FLUSH_SLOW_MS)
    hg_log_warn("lease.flush_slow", "ms=%lld held=%zu", (long long)ms, l->nheld);
  if (status == 0 && l->flush_rc == -ENOSPC) {
    /* The disk is full: the replies wait with their promises; the next
     * requests try the flush again (lease_register.h). */
    l->durable = l->flush_durable;
    release_held(l);
    l->stats.full++;
  } else if (status < 0 || l->flush_rc < 0) {
    l->broken = true;
    l->nheld = 0;
    hg_log_error("lease.acceptor_stopped", "why=\"register flush failed\" err=\"%s\"",
                 strerror(status < 0 ? -status : -l->flush_rc));
  } else {
    l->durable = l->flush_durable;
    release_held(l);
  }
  if (l->closing) {
    hg_closer_check(&l->closer);
    return;
  }
  /* After a full disk the next requests try again, not this at once. */
  if (!l->broken && l->flush_rc != -ENOSPC && l->staged > l->durable) start_flush(l);
  pump(l);
}

static void start_flush(hg_leases *l) {
  if (l->flushing || l->closing) return;
  l->flush.data = l;
  l->flush_started_ms = hg_now_ms();
  if (uv_queue_work(l->loop, &l->flush, flush_work, flush_after) == 0) l->flushing = true;
}

/* ---- sending --------------------------------------------------------------- */

/* Sends reqs and reps to one node as one batch, or as two halves (and so
 * on) when the encoding passes the transport's datagram size. */
static void send_part(hg_leases *l, const char *to, hg_lease_req *reqs, size_t nreqs,
                      hg_lease_reply *reps, size_t nreps) {
  hg_lease_batch batch = {.reqs = reqs, .nreqs = nreqs, .reps = reps, .nreps = nreps};
  snprintf(batch.from, sizeof batch.from, "%s", l->self);
  hg_buf buf;
  hg_buf_init(&buf, BATCH_BYTES_MAX);
  int rc = hg_lease_batch_encode(&batch, &buf);
  if (rc == 0 && buf.len <= l->max_bytes) {
    l->cb.send(l->cb.ud, to, buf.data, buf.len);
    l->stats.batches_sent++;
    l->stats.bytes_sent += buf.len;
  } else if (nreqs + nreps > 1) {
    size_t hq = nreqs / 2, hp = nreps / 2;
    send_part(l, to, reqs, hq, reps, hp);
    send_part(l, to, reqs + hq, nreqs - hq, reps + hp, nreps - hp);
  } else {
    hg_log_warn("lease.batch_dropped", "to=%s reqs=%zu reps=%zu bytes=%zu", to, nreqs,
                nreps, buf.len);
  }
  hg_buf_free(&buf);
}

static void send_box(hg_leases *l, outbox *b) {
  send_part(l, b->to, b->reqs, b->nreqs, b->reps, b->nreps);
}

static void deliver(hg_leases *l, const hg_lease_req *reqs, size_t nreqs,
                    const hg_lease_reply *reps, size_t nreps) {
  accept_reqs(l, reqs, nreqs);
  int64_t now = hg_now_ms();
  for (size_t i = 0; i < nreps; i++) hg_lease_proposer_reply(l->prop, &reps[i], now);
}

/* Sends every outbox; what goes to this node is delivered here, and what
 * that answers is sent in the same way, until nothing is left. A batch
 * holds at most HG_LEASE_BATCH_ITEMS; more waits for the next pass. */
static void pump(hg_leases *l) {
  if (l->pumping || l->closing) return;
  l->pumping = true;
  while (l->nboxes) {
    outbox b = l->boxes[--l->nboxes];
    size_t nq = b.nreqs < HG_LEASE_BATCH_ITEMS ? b.nreqs : HG_LEASE_BATCH_ITEMS;
    size_t np = b.nreps < HG_LEASE_BATCH_ITEMS - nq ? b.nreps : HG_LEASE_BATCH_ITEMS - nq;
    outbox part = b;
    part.nreqs = nq;
    part.nreps = np;
    if (strcmp(b.to, l->self) == 0)
      deliver(l, b.reqs, nq, b.reps, np);
    else
      send_box(l, &part);
    /* The rest, if any, goes back for the next pass. */
    for (size_t i = nq; i < b.nreqs; i++) queue_req(l, b.to, &b.reqs[i]);
    for (size_t i = np; i < b.nreps; i++) queue_reply(l, b.to, &b.reps[i]);
    free(b.reqs);
    free(b.reps);
  }
  l->pumping = false;
}

/* ---- the timer --------------------------------------------------------------- */

static void on_tick(uv_timer_t *t) {
  hg_leases *l = t->data;
  int64_t wait = hg_lease_proposer_tick(l->prop, hg_now_ms());
  pump(l);
  uv_timer_start(&l->tick, on_tick, wait > 0 ? (uint64_t)wait : 1, 0);
}

/* ---- life ------------------------------------------------------------------------ */

static int load_one(void *ud, const char *sandbox, const hg_lease_promise *p) {
  return hg_lease_acceptor_load(ud, sandbox, p);
}

int hg_leases_open(uv_loop_t *loop, const hg_leases_config *cfg, hg_leases **out) {
  if (!cfg->self || !cfg->register_path || !cfg->cb.send) return -EINVAL;
  int64_t t = cfg->lease_ms ? cfg->lease_ms : HG_LEASE_MS_DEFAULT;
  int64_t margin = cfg->margin_ms ? cfg->margin_ms : HG_LEASE_MARGIN_MS_DEFAULT;
  hg_leases *l = calloc(1, sizeof *l);
  if (!l) return -ENOMEM;
  l->loop = loop;
  snprintf(l->self, sizeof l->self, "%s", cfg->self);
  l->cb = cfg->cb;
  l->max_bytes = cfg->max_batch_bytes ? cfg->max_batch_bytes : BATCH_BYTES_MAX;
  hg_lease_proposer_cb pcb = {
      .send = on_proposer_send, .changed = on_proposer_changed, .ud = l};
  int rc = hg_lease_register_open(cfg->register_path, &l->reg);
  if (rc == 0) rc = hg_lease_acceptor_new(l->self, t, margin, hg_now_ms(), &l->acc);
  if (rc == 0) rc = hg_lease_register_foreach(l->reg, load_one, l->acc);
  if (rc == 0) rc = hg_lease_proposer_new(l->self, t, margin, &pcb, &l->prop);
  if (rc == 0) rc = uv_timer_init(loop, &l->tick);
  if (rc < 0) {
    hg_lease_proposer_free(l->prop);
    hg_lease_acceptor_free(l->acc);
    hg_lease_register_close(l->reg);
    free(l);
    return rc;
  }
  l->tick.data = l;
  hg_closer_init(&l->closer, l, no_flush_out, leases_free);
  hg_closer_add(&l->closer, 1);
  uv_timer_start(&l->tick, on_tick, (uint64_t)t / 3, 0);
  hg_log_info("lease.open", "self=%s lease_ms=%lld margin_ms=%lld", l->self, (long long)t,
              (long long)margin);
  *out = l;
  return 0;
}

/* Freed once the timer is closed (it closes only in hg_leases_close) and no
 * flush is out on the thread pool. */
static bool no_flush_out(void *l) { return !((hg_leases *)l)->flushing; }

static void free_all(hg_leases *l) {
  for (size_t i = 0; i < l->nboxes; i++) {
    free(l->boxes[i].reqs);
    free(l->boxes[i].reps);
  }
  free(l->held);
  hg_lease_proposer_free(l->prop);
  hg_lease_acceptor_free(l->acc);
  hg_lease_register_close(l->reg);
}

static void leases_free(void *l) {
  free_all(l);
  free(l);
}

static void on_tick_closed(uv_handle_t *h) {
  hg_leases *l = h->data;
  hg_closer_closed(&l->closer);
}

void hg_leases_close(hg_leases *l, void (*done)(void *ud), void *ud) {
  if (!l) return;
  l->closing = true;
  hg_closer_then(&l->closer, done, ud);
  uv_timer_stop(&l->tick);
  uv_close((uv_handle_t *)&l->tick, on_tick_closed);
}

/* ---- calls ------------------------------------------------------------------------ */

void hg_leases_receive(hg_leases *l, const void *data, size_t len) {
  if (l->closing) return;
  hg_lease_batch b;
  l->stats.batches_received++;
  l->stats.bytes_received += len;
  if (hg_lease_batch_decode(data, len, &b) < 0) {
    l->stats.dropped_malformed++;
    return;
  }
  deliver(l, b.reqs, b.nreqs, b.reps, b.nreps);
  hg_lease_batch_free(&b);
  pump(l);
}

/* A new round may be due before the timer's next turn: tick now. */
static void rearm(hg_leases *l) {
  if (!l->closing) uv_timer_start(&l->tick, on_tick, 0, 0);
}

int hg_leases_claim(hg_leases *l, const char *sandbox, const hg_lease_conf *conf,
                    uint64_t min_epoch, bool deleting) {
  int rc = hg_lease_claim(l->prop, sandbox, conf, min_epoch, deleting, hg_now_ms());
  pump(l);
  rearm(l);
  return rc;
}

int hg_leases_recover(hg_leases *l, const char *sandbox, const hg_lease_conf *conf,
                      uint64_t epoch, bool vm) {
  int rc = hg_lease_recover(l->prop, sandbox, conf, epoch, vm, hg_now_ms());
  pump(l);
  rearm(l);
  return rc;
}

int hg_leases_query(hg_leases *l, const char *sandbox, const hg_lease_conf *conf,
                    uint64_t epoch) {
  int rc = hg_lease_query(l->prop, sandbox, conf, epoch, hg_now_ms());
  pump(l);
  rearm(l);
  return rc;
}

int hg_leases_change_group(hg_leases *l, const char *sandbox,
                           const hg_lease_group *next) {
  int rc = hg_lease_change_group(l->prop, sandbox, next, hg_now_ms());
  pump(l);
  return rc;
}

void hg_leases_release(hg_leases *l, const char *sandbox) {
  hg_lease_release(l->prop, sandbox);
}

int hg_leases_info(const hg_leases *l, const char *sandbox, hg_lease_info *out) {
  return hg_lease_info_get(l->prop, sandbox, out);
}

bool hg_leases_valid(const hg_leases *l, const char *sandbox) {
  return hg_lease_valid(l->prop, sandbox, hg_now_ms());
}

void hg_leases_get_stats(const hg_leases *l, hg_leases_stats *out) {
  *out = l->stats;
}
