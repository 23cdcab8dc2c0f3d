/* failover: a dead node's sandboxes to the chosen survivors; see
 * failover.h. Everything here is the loop's but the two steps of a
 * restore, which run on workers: the take (the lease's claim and wait,
 * the adoption) and, for a sandbox that ran, the VM's restore. */
#include "node/hangard/failover.h"

#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "node/core/err.h"
#include "node/core/log.h"
#include "node/core/strmap.h"
#include "node/core/util.h"

#define SCAN_MS 2000       /* the directory is read again this often */
#define RETRY_MS 10000     /* a restore that failed is tried again after this */
#define WORKERS_MAX 8
#define AHEAD_CHUNK 32     /* claims ahead a worker starts (failover_claim_ahead) */
#define STRANDED_MAX 1000  /* listed; the count goes on */
#define RETRYING_MAX 100   /* listed; the count goes on */
#define SEEN_MAX 64        /* deaths remembered */
/* A member swim lists as dead at our start may only be one it has not
 * reached yet (the roster's, after our restart): before this long, only a
 * death seen happen counts. */
#define GRACE_MS 30000

enum { STEP_TAKE, STEP_RUN };

/* A sandbox this node is restoring, queued, or failed to restore lately. */
typedef struct job {
  hg_strmap_node node;
  char id[HG_ID_MAX];
  bool run;
  int step;      /* the queue it is in or the step it runs */
  bool queued, busy;
  int64_t retry_at_ms; /* failed: not before */
  uint64_t scan;       /* the last scan that chose this node for it */
  struct job *next;    /* the queue */
  uv_work_t work;
  hg_failover *f;
  int rc;
  char msg[256];
} job;

typedef struct stranded {
  char id[HG_ID_MAX];
  char owner[HG_NODE_ID_MAX];
  uint64_t gen;
  int64_t since_ms;
} stranded;

/* Jobs waiting for one step, in order, and how many run it now. */
typedef struct queue {
  job *head, **tail;
  unsigned busy, max;
} queue;

struct hg_failover {
  hg_failover_config cfg;
  char self[HG_NODE_ID_MAX];
  uv_timer_t timer;
  bool closing, timer_closed;
  hg_strmap jobs;      /* job by sandbox id */
  queue q[2];          /* [STEP_TAKE], [STEP_RUN] */
  unsigned busy;       /* both steps */
  uint64_t restored, failed;
  uint64_t scans;
  int64_t started_ms;
  char seen_dead[SEEN_MAX][HG_NODE_ID_MAX]; /* deaths seen happen ("": free) */
  char (*ahead)[HG_ID_MAX]; /* queued by this scan: their claims go out ahead */
  size_t nahead, capahead, nahead_run; /* those that ran first */
  stranded *strand;    /* from the last scan */
  size_t nstrand, strand_total;
};

bool hg_failover_was_running(const char *dir_state) {
  /* A paused VM is memory on a dead host, like a running one, but the
   * user stopped it: it stays suspended (a resume brings it back). */
  return dir_state && (!strcmp(dir_state, "running") || !strcmp(dir_state, "resuming"));
}

/* ---- restores on workers -------------------------------------------------------- */

static void pump(hg_failover *f);
static void maybe_free(hg_failover *f);

static void job_work(uv_work_t *w) {
  job *j = w->data;
  hg_life *life = j->f->cfg.life;
  j->rc = j->step == STEP_TAKE ? hg_life_failover_take(life, j->id, j->run, j->msg)
                               : hg_life_failover_run(life, j->id, j->msg);
}

static void job_free(hg_failover *f, job *j) {
  hg_strmap_del(&f->jobs, &j->node);
  free(j);
}

static void queue_push(hg_failover *f, job *j, int step) {
  queue *q = &f->q[step];
  j->step = step;
  j->queued = true;
  j->next = NULL;
  *q->tail = j;
  q->tail = &j->next;
}

/* Ahead of the queue: a sandbox that ran is down until its VM runs again,
 * a suspended one only waits for its new owner's name. */
static void queue_push_front(hg_failover *f, job *j, int step) {
  queue *q = &f->q[step];
  j->step = step;
  j->queued = true;
  j->next = q->head;
  if (!q->head) q->tail = &j->next;
  q->head = j;
}

static void job_done(uv_work_t *w, int status) {
  job *j = w->data;
  hg_failover *f = j->f;
  f->busy--;
  f->q[j->step].busy--;
  j->busy = false;
  if (status == 0 && j->rc == 0 && j->step == STEP_TAKE && j->run) {
    queue_push(f, j, STEP_RUN); /* ours now, its lease held: the VM next */
  } else if (status == 0 && j->rc >= 0) {
    f->restored++;
    hg_log_info("failover.restored", "sandbox=%s run=%s", j->id, j->run ? "yes" : "no");
    job_free(f, j);
  } else {
    /* Another survivor may have won the claim (-ESTALE): the next scan
     * sees the new owner alive and leaves it. Anything else is tried
     * again after a while, if the owner is still dead. */
    f->failed++;
    j->retry_at_ms = hg_now_ms() + RETRY_MS;
    if (status < 0) j->rc = status;
    hg_log_warn("failover.failed", "sandbox=%s step=%s err=\"%s\" msg=\"%s\"", j->id,
                j->step == STEP_TAKE ? "take" : "run", hg_err_str(j->rc), j->msg);
  }
  if (f->closing) maybe_free(f);
  else pump(f);
}

static void pump_queue(hg_failover *f, queue *q) {
  while (!f->closing && q->head && q->busy < q->max) {
    job *j = q->head;
    q->head = j->next;
    if (!q->head) q->tail = &q->head;
    j->queued = false;
    j->busy = true;
    j->f = f;
    j->work.data = j;
    int rc = uv_queue_work(f->cfg.loop, &j->work, job_work, job_done);
    if (rc < 0) {
      j->busy = false;
      j->rc = rc;
      snprintf(j->msg, sizeof j->msg, "no worker: %s", uv_strerror(rc));
      j->retry_at_ms = hg_now_ms() + RETRY_MS;
      continue;
    }
    q->busy++;
    f->busy++;
  }
}

/* The claims of a scan's new jobs, started at once on a few workers (each
 * reads a replica's record and posts, without waiting): the lease service
 * sends them in the same batches and the acceptors promise them in the
 * same flushes, while the takes that wait for them go HG_FAILOVER_TAKERS
 * at a time. */
typedef struct ahead_batch {
  uv_work_t work;
  hg_failover *f;
  char (*ids)[HG_ID_MAX];
  size_t n;
  int64_t queued_ms;
} ahead_batch;

static void ahead_work(uv_work_t *w) {
  ahead_batch *b = w->data;
  for (size_t i = 0; i < b->n; i++) hg_life_failover_claim_ahead(b->f->cfg.life, b->ids[i]);
}

static void ahead_done(uv_work_t *w, int status) {
  ahead_batch *b = w->data;
  hg_failover *f = b->f;
  (void)status;
  /* When the claims left: a worker's wait and each sandbox's view first. */
  hg_log_info("failover.claims_ahead_sent", "sandboxes=%zu ms=%" PRId64, b->n,
              hg_now_ms() - b->queued_ms);
  free(b->ids);
  free(b);
  f->busy--;
  if (f->closing) maybe_free(f);
}

/* As the takes: a sandbox that ran ahead of the suspended ones. */
static void ahead_note(hg_failover *f, const char *id, bool run) {
  if (f->nahead == f->capahead) {
    size_t cap = f->capahead ? 2 * f->capahead : 64;
    void *p = realloc(f->ahead, cap * sizeof *f->ahead);
    if (!p) return; /* its take claims when it comes */
    f->ahead = p;
    f->capahead = cap;
  }
  size_t at = run ? f->nahead_run++ : f->nahead;
  memmove(f->ahead + at + 1, f->ahead + at, (f->nahead - at) * sizeof *f->ahead);
  snprintf(f->ahead[at], HG_ID_MAX, "%s", id);
  f->nahead++;
}

/* In chunks, on as many workers: reading the records is most of it. */
static void ahead_start(hg_failover *f) {
  size_t total = f->nahead;
  for (size_t at = 0; at < f->nahead; at += AHEAD_CHUNK) {
    size_t n = f->nahead - at < AHEAD_CHUNK ? f->nahead - at : AHEAD_CHUNK;
    ahead_batch *b = calloc(1, sizeof *b);
    char(*ids)[HG_ID_MAX] = b ? malloc(n * sizeof *ids) : NULL;
    if (!ids) {
      free(b);
      break; /* their takes claim when they come */
    }
    memcpy(ids, f->ahead + at, n * sizeof *ids);
    *b = (ahead_batch){.f = f, .ids = ids, .n = n, .queued_ms = hg_now_ms()};
    b->work.data = b;
    if (uv_queue_work(f->cfg.loop, &b->work, ahead_work, ahead_done) < 0) {
      free(ids);
      free(b);
      break;
    }
    f->busy++;
  }
  f->nahead = f->nahead_run = 0;
  if (total) hg_log_info("failover.claims_ahead", "sandboxes=%zu", total);
}

/* VM restores first: they hold leases taken for them. */
static void pump(hg_failover *f) {
  pump_queue(f, &f->q[STEP_RUN]);
  pump_queue(f, &f->q[STEP_TAKE]);
}

static void enqueue(hg_failover *f, const char *id, bool run) {
  hg_strmap_node *n = hg_strmap_get(&f->jobs, id);
  job *j = n ? HG_CONTAINER_OF(n, job, node) : NULL;
  if (j) j->scan = f->scans;
  if (j && (j->queued || j->busy || hg_now_ms() < j->retry_at_ms)) return;
  if (!j) {
    if (!(j = calloc(1, sizeof *j))) return; /* the next scan tries again */
    snprintf(j->id, sizeof j->id, "%s", id);
    j->node.key = j->id;
    j->scan = f->scans;
    if (hg_strmap_put(&f->jobs, &j->node) < 0) {
      free(j);
      return;
    }
  }
  j->run = run;
  j->retry_at_ms = 0;
  if (run)
    queue_push_front(f, j, STEP_TAKE);
  else
    queue_push(f, j, STEP_TAKE);
  ahead_note(f, id, run);
  hg_log_info("failover.queued", "sandbox=%s run=%s", id, run ? "yes" : "no");
}

/* ---- the choice -------------------------------------------------------------------- */

/* A member as the scan sees it. */
typedef struct member {
  const char *id;
  const char *state;
  double weight; /* capacity: memory in MiB, at least 1 */
} member;

static const member *member_find(const member *ms, size_t n, const char *id) {
  for (size_t i = 0; i < n; i++)
    if (!strcmp(ms[i].id, id)) return &ms[i];
  return NULL;
}

/* Weighted rendezvous (the highest w / -ln(h) wins, h the hash as a
 * fraction in (0, 1)): each holder gets sandboxes in proportion to its
 * capacity, and every survivor that sees the same members picks the same
 * one. Ties by id. A suspect holder counts: swim has not declared it dead,
 * and one survivor's brief suspicion of the other (a loaded host misses
 * pings) must not send both after the same sandboxes; if it dies, its
 * death is a scan of its own. NULL: no such holder. */
static const char *choose(const char *sandbox, json_t *holders, const member *ms, size_t n) {
  const char *best = NULL;
  double best_score = -1;
  size_t i;
  json_t *h;
  json_array_foreach(holders, i, h) {
    const char *id = json_string_value(h);
    const member *m = id ? member_find(ms, n, id) : NULL;
    if (!m || (strcmp(m->state, "alive") && strcmp(m->state, "suspect"))) continue;
    uint64_t w = hg_cluster_rendezvous(sandbox, id);
    double frac = ((double)(w >> 11) + 0.5) / 9007199254740992.0; /* (0, 1) */
    double score = m->weight / -log(frac);
    if (score > best_score || (score == best_score && best && strcmp(id, best) < 0)) {
      best = id;
      best_score = score;
    }
  }
  return best;
}

static void strand_note(hg_failover *f, stranded *v, size_t *nv, const char *id,
                        const char *owner, uint64_t gen) {
  f->strand_total++;
  if (*nv >= STRANDED_MAX) return;
  stranded *s = &v[(*nv)++];
  snprintf(s->id, sizeof s->id, "%s", id);
  snprintf(s->owner, sizeof s->owner, "%s", owner);
  s->gen = gen;
  s->since_ms = hg_wall_ns() / 1000000;
  for (size_t k = 0; k < f->nstrand; k++) /* known: keep its time, say nothing */
    if (!strcmp(f->strand[k].id, id)) {
      s->since_ms = f->strand[k].since_ms;
      return;
    }
  hg_log_warn("failover.stranded", "sandbox=%s owner=%s gen=%" PRIu64
              " msg=\"its owner is dead and no alive node holds its newest generation: "
              "it comes back with its owner, or a node holding it\"", id, owner, gen);
}

static bool seen_dead(const hg_failover *f, const char *id) {
  for (unsigned i = 0; i < SEEN_MAX; i++)
    if (!strcmp(f->seen_dead[i], id)) return true;
  return false;
}

static void seen_set(hg_failover *f, const char *id, bool dead) {
  char *free_slot = NULL;
  for (unsigned i = 0; i < SEEN_MAX; i++) {
    if (!strcmp(f->seen_dead[i], id)) {
      if (!dead) f->seen_dead[i][0] = '\0';
      return;
    }
    if (!f->seen_dead[i][0] && !free_slot) free_slot = f->seen_dead[i];
  }
  if (dead && free_slot) snprintf(free_slot, HG_NODE_ID_MAX, "%s", id);
}

/* Dead for failover: swim says so, and we saw it die or are past the grace. */
static bool counts_dead(const hg_failover *f, const char *id, const char *state) {
  return !strcmp(state, "dead") &&
         (seen_dead(f, id) || hg_now_ms() - f->started_ms >= GRACE_MS);
}

/* A failed job waiting for its retry that this scan no longer chose (its
 * owner is back, another node took it, it was deleted) is forgotten. */
static bool failed_idle(const job *j) {
  return j->retry_at_ms && !j->queued && !j->busy;
}

static void forget_unchosen(hg_failover *f) {
  size_t cur = 0, n = 0;
  job **gone = malloc((f->jobs.count ? f->jobs.count : 1) * sizeof *gone);
  if (!gone) return; /* the next scan */
  for (hg_strmap_node *nd = hg_strmap_next(&f->jobs, &cur, NULL); nd;
       nd = hg_strmap_next(&f->jobs, &cur, nd)) {
    job *j = HG_CONTAINER_OF(nd, job, node);
    if (failed_idle(j) && j->scan != f->scans) gone[n++] = j;
  }
  for (size_t i = 0; i < n; i++) job_free(f, gone[i]);
  free(gone);
}

static void scan(hg_failover *f) {
  f->scans++;
  json_t *mj = hg_cluster_members_json(f->cfg.cluster);
  json_t *dir = NULL;
  size_t nm = json_array_size(mj), nms = 0;
  member *ms = calloc(nm ? nm : 1, sizeof *ms);
  bool any_dead = false;
  for (size_t i = 0; ms && i < nm; i++) {
    json_t *o = json_array_get(mj, i);
    member *m = &ms[nms];
    m->id = json_string_value(json_object_get(o, "id"));
    m->state = json_string_value(json_object_get(o, "state"));
    if (!m->id || !m->state) continue;
    if (json_is_true(json_object_get(o, "self"))) m->state = "alive";
    json_int_t mem =
        json_integer_value(json_object_get(json_object_get(o, "capacity"), "memory_mib"));
    m->weight = mem > 0 ? (double)mem : 1.0;
    if (!strcmp(m->state, "dead") && !counts_dead(f, m->id, m->state)) m->state = "unknown";
    any_dead |= !strcmp(m->state, "dead");
    nms++;
  }
  stranded *v = NULL;
  size_t nv = 0;
  f->strand_total = 0;
  if (ms && any_dead) {
    dir = hg_cluster_dir_json(f->cfg.cluster);
    v = calloc(STRANDED_MAX, sizeof *v);
  }
  size_t i;
  json_t *e;
  json_array_foreach(dir, i, e) {
    const char *id = json_string_value(json_object_get(e, "sandbox"));
    const char *owner = json_string_value(json_object_get(e, "owner"));
    const char *state = json_string_value(json_object_get(e, "state"));
    if (!id || !owner || !state || !strcmp(state, "deleted") || !strcmp(owner, f->self))
      continue;
    const member *om = member_find(ms, nms, owner);
    if (!om || strcmp(om->state, "dead")) continue; /* alive, suspect, left, unknown */
    uint64_t gen = (uint64_t)json_integer_value(json_object_get(e, "gen"));
    const char *to = gen ? choose(id, json_object_get(e, "holders"), ms, nms) : NULL;
    if (!to) {
      if (v) strand_note(f, v, &nv, id, owner, gen);
      continue;
    }
    if (!strcmp(to, f->self)) enqueue(f, id, hg_failover_was_running(state));
  }
  free(f->strand);
  f->strand = v;
  f->nstrand = nv;
  free(ms);
  json_decref(dir);
  json_decref(mj);
  forget_unchosen(f);
  ahead_start(f);
  pump(f);
}

static void on_timer(uv_timer_t *t) {
  scan(t->data);
}

/* A death is acted on at once; the periodic scan is the safety net. */
static void on_member(void *ud, const char *node_id, hg_member_state state) {
  hg_failover *f = ud;
  seen_set(f, node_id, state == HG_MEMBER_DEAD);
  if (state != HG_MEMBER_DEAD || f->closing) return;
  hg_log_info("failover.member_dead", "node=%s", node_id);
  scan(f);
}

static unsigned default_workers(void) {
  long cpus = sysconf(_SC_NPROCESSORS_ONLN);
  if (cpus < 1) cpus = 1;
  return cpus > WORKERS_MAX ? WORKERS_MAX : (unsigned)cpus;
}

int hg_failover_open(const hg_failover_config *cfg, hg_failover **out) {
  if (!cfg->loop || !cfg->cluster || !cfg->life || !cfg->self) return -EINVAL;
  hg_failover *f = calloc(1, sizeof *f);
  if (!f) return -ENOMEM;
  f->cfg = *cfg;
  snprintf(f->self, sizeof f->self, "%s", cfg->self);
  f->cfg.self = f->self;
  /* Takes at a time: a take mostly waits
   * (its claim, the adoption record's group commit), and those in flight
   * together share the lease service's batches, the acceptors' flushes and
   * the records' commits: the more in flight, the fewer rounds of them. At
   * 64 a 1000-round's takes went ~200 a second per survivor, every slot
   * waiting in the same stalled commit (250-600 ms beside btrfs commits). */
  f->q[STEP_TAKE].max = HG_FAILOVER_TAKERS;
  f->q[STEP_RUN].max = cfg->workers ? cfg->workers : default_workers();
  for (int k = 0; k < 2; k++) f->q[k].tail = &f->q[k].head;
  f->started_ms = hg_now_ms();
  int rc = uv_timer_init(cfg->loop, &f->timer);
  if (rc < 0) {
    free(f);
    return rc;
  }
  f->timer.data = f;
  uv_timer_start(&f->timer, on_timer, SCAN_MS, SCAN_MS);
  hg_cluster_on_member_change(cfg->cluster, on_member, f);
  hg_log_info("failover.on", "takers=%u workers=%u", f->q[STEP_TAKE].max, f->q[STEP_RUN].max);
  *out = f;
  return 0;
}

/* Jobs on workers still point at f: it goes with the last of them. */
static void maybe_free(hg_failover *f) {
  if (!f->timer_closed || f->busy > 0) return;
  hg_strmap_free_all(&f->jobs, offsetof(job, node));
  free(f->strand);
  free(f->ahead);
  free(f);
}

static void on_closed(uv_handle_t *h) {
  hg_failover *f = h->data;
  f->timer_closed = true;
  maybe_free(f);
}

void hg_failover_close(hg_failover *f) {
  if (!f) return;
  f->closing = true;
  for (int k = 0; k < 2; k++) {
    f->q[k].head = NULL;
    f->q[k].tail = &f->q[k].head;
  }
  hg_cluster_on_member_change(f->cfg.cluster, NULL, NULL);
  uv_close((uv_handle_t *)&f->timer, on_closed);
}

json_t *hg_failover_status(hg_failover *f) {
  json_t *list = json_array();
  for (size_t i = 0; i < f->nstrand; i++) {
    char at[32];
    hg_iso_time(f->strand[i].since_ms, at);
    json_array_append_new(list, json_pack("{s:s,s:s,s:I,s:s}", "sandbox", f->strand[i].id,
                                          "owner", f->strand[i].owner, "gen",
                                          (json_int_t)f->strand[i].gen, "since", at));
  }
  unsigned queued = 0;
  for (int k = 0; k < 2; k++)
    for (job *j = f->q[k].head; j; j = j->next) queued++;
  /* Chosen here, failed, tried again later: a group with no majority left
   * (its claim cannot be granted) waits here, not in stranded. */
  json_t *retrying = json_array();
  size_t cur = 0, nretrying = 0;
  for (hg_strmap_node *nd = hg_strmap_next(&f->jobs, &cur, NULL); nd;
       nd = hg_strmap_next(&f->jobs, &cur, nd)) {
    job *j = HG_CONTAINER_OF(nd, job, node);
    if (!failed_idle(j)) continue;
    if (nretrying++ < RETRYING_MAX)
      json_array_append_new(retrying, json_pack("{s:s,s:s,s:s,s:s}", "sandbox", j->id, "step",
                                                j->step == STEP_TAKE ? "take" : "run", "error",
                                                hg_err_str(j->rc), "message", j->msg));
  }
  return json_pack("{s:b,s:I,s:I,s:I,s:I,s:I,s:o,s:I,s:o}", "on", true, "queued",
                   (json_int_t)queued, "restoring", (json_int_t)f->busy, "restored",
                   (json_int_t)f->restored, "failed", (json_int_t)f->failed, "stranded_count",
                   (json_int_t)f->strand_total, "stranded", list, "retrying_count",
                   (json_int_t)nretrying, "retrying", retrying);
}
