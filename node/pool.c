/* pool: the manager's warm pool. pool_size sandboxes of pool_template are
 * kept restored, attached and warmed up (under TCG the first run of every
 * guest code path pays for translation), so a create takes one
 * (hg__manager_pool_claim, from hg_sandbox_create_begin) instead of
 * restoring. Entries are sandboxes in the manager's table marked pooled:
 * invisible to every caller, never leased, deleted when the node stops.
 * A filler thread (pool_main) keeps the pool at its target, refills after
 * claims and retires entries of an older build of the template.
 *
 * Demand is the most creates of its template that fell in any POOL_SPAN_MS
 * within the last POOL_WINDOW_MS (at most POOL_DEMAND_MAX remembered): a
 * burst raises the pool for a minute, a steady trickle that the refill
 * keeps up with does not. After a claim the refill waits POOL_GRACE_MS
 * while the pool still has a ready entry, so the restore it runs
 * (CPU-bound under TCG) does not compete with the claimed sandbox's first
 * command; claims within that wait do not extend it, so a steady stream
 * of creates cannot starve the refill.
 *
 * Locking is sandbox.c's: m->mu for the table, the counters and the
 * demand ring; the filler sleeps on m->pool_cv. */
#include <errno.h>
#include <pthread.h>
#include <string.h>
#include <time.h>

#include "node/core/err.h"
#include "node/core/log.h"
#include "node/sandbox_internal.h"
#include "node/template.h"

#define POOL_WINDOW_MS 60000
#define POOL_SPAN_MS 10000
#define POOL_GRACE_MS 250

/* Whether tpl is the template the pool keeps warm (by name: a create of a
 * newer build than the pool holds is a miss too). Caller holds m->mu. */
static bool pool_serves(hg_manager *m, const hg_template_info *tpl) {
  char name[HG_TEMPLATE_NAME_MAX];
  return hg_template_name(m->cfg.pool_template, name) == 0 && strcmp(name, tpl->name) == 0;
}

/* Claims a warm sandbox of tpl from the pool and gives it fresh's settings
 * (env, metadata, timers); NULL when none is ready. The filler refills. */
sandbox *hg__manager_pool_claim(hg_manager *m, const hg_template_info *tpl,
                               sandbox *fresh) {
  sandbox *got = NULL;
  pthread_mutex_lock(&m->mu);
  for (unsigned i = 0; i < m->nsbs && !got; i++) {
    sandbox *sb = m->sbs[i];
    if (sb->pooled && !sb->gone && sb->state == HG_SB_RUNNING &&
        strcmp(sb->tpl_digest, tpl->digest) == 0)
      got = sb;
  }
  if (got && hg__manager_capacity_check(m, 0, true) < 0) got = NULL;
  if (m->cfg.pool_size && pool_serves(m, tpl)) {
    m->demand_ms[m->demand_next++ % POOL_DEMAND_MAX] = hg_now_ms();
    pthread_cond_signal(&m->pool_cv);
    if (!got) m->pool_misses++;
  }
  if (got) {
    m->pool_hits++;
    int64_t now = hg_now_ms();
    if (now >= m->grace_until_ms) m->grace_until_ms = now + POOL_GRACE_MS;
    got->pooled = false;
    got->claimed = true;
    got->fresh = true;
    got->state = HG_SB_RUNNING; /* it is: restored, attached, warmed up */
    json_object_update(got->env, fresh->env);
    json_object_update(got->metadata, fresh->metadata);
    got->idle_suspend_s = fresh->idle_suspend_s;
    got->idle_delete = fresh->idle_delete;
    got->replicas = fresh->replicas;
    got->checkpoint_s = fresh->checkpoint_s;
    got->created_ms = got->updated_ms = hg_wall_ns() / 1000000;
    memcpy(got->token, fresh->token, sizeof got->token);
  }
  pthread_mutex_unlock(&m->mu);
  return got;
}

static unsigned pool_count(hg_manager *m) {
  unsigned n = 0;
  for (unsigned i = 0; i < m->nsbs; i++) n += m->sbs[i]->pooled && !m->sbs[i]->gone;
  return n;
}

/* An unclaimed pool entry, referenced for the caller; with stale_for set,
 * only one restored from another digest than that (a template registered
 * again leaves entries no create would take). NULL: none. */
static sandbox *pool_find(hg_manager *m, const char *stale_for) {
  sandbox *sb = NULL;
  pthread_mutex_lock(&m->mu);
  for (unsigned i = 0; i < m->nsbs && !sb; i++) {
    sandbox *c = m->sbs[i];
    if (!c->pooled || c->gone) continue;
    if (stale_for && (c->state != HG_SB_RUNNING || !strcmp(c->tpl_digest, stale_for))) continue;
    sb = c;
  }
  if (sb) sb->refs++;
  pthread_mutex_unlock(&m->mu);
  return sb;
}

static void pool_delete(hg_manager *m, sandbox *sb) {
  pthread_rwlock_wrlock(&sb->lock);
  pthread_mutex_lock(&m->mu);
  bool claimed = !sb->pooled; /* a create took it while we waited for the lock */
  pthread_mutex_unlock(&m->mu);
  if (!claimed && hg__sb_delete_locked(m, sb) < 0) {
    /* Do not spin on it: forget it here, the next start cleans up. */
    pthread_mutex_lock(&m->mu);
    hg__manager_table_remove(m, sb);
    sb->gone = true;
    pthread_mutex_unlock(&m->mu);
  }
  hg__sb_lifecycle_end(m, sb);
}

/* Retires entries of an older build of the pool's template, so the pool
 * refills with the one creates now get. */
static void pool_retire_stale(hg_manager *m) {
  hg_template_info tpl;
  if (hg_template_resolve(m->cfg.store, m->cfg.pool_template, &tpl) < 0) return;
  for (sandbox *sb; (sb = pool_find(m, tpl.digest));) {
    hg_log_info("pool.retire", "sandbox=%s digest=%.16s now=%.16s", sb->id, sb->tpl_digest,
                tpl.digest);
    pool_delete(m, sb);
  }
}

void hg__manager_pool_halt(hg_manager *m) {
  pthread_mutex_lock(&m->mu);
  m->closing = true;
  pthread_cond_signal(&m->pool_cv);
  pthread_mutex_unlock(&m->mu);
  if (m->pool_running) pthread_join(m->pool_thread, NULL);
  m->pool_running = false;
}

void hg_manager_pool_stop(hg_manager *m) {
  hg__manager_pool_halt(m);
  for (sandbox *sb; (sb = pool_find(m, NULL));) pool_delete(m, sb);
}

/* Caller holds m->mu. */
static unsigned pool_ready_locked(hg_manager *m) {
  unsigned n = 0;
  for (unsigned i = 0; i < m->nsbs; i++)
    n += m->sbs[i]->pooled && !m->sbs[i]->gone && m->sbs[i]->state == HG_SB_RUNNING;
  return n;
}

unsigned hg_manager_pool_ready(hg_manager *m) {
  pthread_mutex_lock(&m->mu);
  unsigned n = pool_ready_locked(m);
  pthread_mutex_unlock(&m->mu);
  return n;
}

/* How many entries the pool keeps now: the most creates of its template
 * in any POOL_SPAN_MS of the last POOL_WINDOW_MS, between pool_size and
 * pool_max. Caller holds m->mu. */
static unsigned pool_target(hg_manager *m, int64_t now_ms) {
  unsigned peak = 0;
  for (unsigned i = 0; i < POOL_DEMAND_MAX; i++) {
    int64_t t = m->demand_ms[i];
    if (!t || now_ms - t >= POOL_WINDOW_MS) continue;
    unsigned n = 0; /* creates in [t, t + span) */
    for (unsigned k = 0; k < POOL_DEMAND_MAX; k++)
      n += m->demand_ms[k] >= t && m->demand_ms[k] - t < POOL_SPAN_MS;
    if (n > peak) peak = n;
  }
  unsigned target = peak > m->cfg.pool_size ? peak : m->cfg.pool_size;
  return target < m->cfg.pool_max ? target : m->cfg.pool_max;
}

void hg_manager_pool_stats(hg_manager *m, hg_pool_stats *out) {
  pthread_mutex_lock(&m->mu);
  *out = (hg_pool_stats){.ready = pool_ready_locked(m),
                         .target = m->cfg.pool_size ? pool_target(m, hg_now_ms()) : 0,
                         .hits = m->pool_hits, .misses = m->pool_misses};
  pthread_mutex_unlock(&m->mu);
}

/* Runs `true` once so the exec path is translated before a user needs it. */
static int warm_up(sandbox *sb) {
  static const char *const argv[] = {"true", NULL};
  hg_exec_req req = {.argv = argv};
  uint64_t cid;
  int pid;
  hg_cmd_status st;
  int rc = hg_agent_exec(sb->agent, &req, &cid, &pid);
  return rc < 0 ? rc : hg_agent_wait(sb->agent, cid, AGENT_TIMEOUT_MS, &st);
}

static int pool_fill_one(hg_manager *m) {
  hg_template_info tpl;
  hg_sandbox_spec spec = {.template_ref = m->cfg.pool_template};
  int rc = hg_template_resolve(m->cfg.store, spec.template_ref, &tpl);
  if (rc < 0) return rc;
  sandbox *sb = hg__sb_new();
  if (!sb) return -ENOMEM;
  sb->pooled = true;
  if ((rc = hg__sb_spec_apply(m, &spec, &tpl, sb)) < 0 || (rc = hg__sb_new_token(sb->token)) < 0) {
    hg__sb_free(sb);
    return rc;
  }
  if ((rc = hg__sb_create_cold(m, &tpl, sb)) < 0) return rc;
  pthread_rwlock_wrlock(&sb->lock);
  rc = hg__sb_vm_restore(m, sb);
  if (rc == 0) rc = warm_up(sb);
  if (rc == 0) rc = hg__sb_set_state(m, sb, HG_SB_RUNNING, NULL);
  if (rc < 0) {
    hg_log_warn("pool.fill", "sandbox=%s err=\"%s\"", sb->id, hg_err_str(rc));
    hg__sb_delete_locked(m, sb);
  }
  pthread_rwlock_unlock(&sb->lock);
  if (rc < 0) hg__sb_free(sb);
  return rc;
}

/* One step of the filler, under m->mu (dropped around the work): fills
 * one entry when the pool is under its target, or retires one surplus
 * entry once demand has fallen. Returns how long to sleep, in ms (0: look
 * again now). */
static int64_t pool_step(hg_manager *m) {
  int64_t now = hg_now_ms();
  unsigned have = pool_count(m), target = pool_target(m, now);
  if (have > target) {
    pthread_mutex_unlock(&m->mu);
    sandbox *sb = pool_find(m, NULL);
    if (sb) {
      hg_log_info("pool.shrink", "sandbox=%s have=%u target=%u", sb->id, have, target);
      pool_delete(m, sb);
    }
    pthread_mutex_lock(&m->mu);
    return 1000; /* one a second: demand may come back */
  }
  if (have == target || hg__manager_capacity_check(m, m->cfg.default_memory_mib, false) < 0)
    return 1000;
  if (pool_ready_locked(m) > 0 && now < m->grace_until_ms) return m->grace_until_ms - now;
  pthread_mutex_unlock(&m->mu);
  int rc = pool_fill_one(m);
  pthread_mutex_lock(&m->mu);
  /* Nothing to do, no template yet, or a failure: look again later. */
  return rc == 0 ? 0 : 5000;
}

static void *pool_main(void *arg) {
  hg_manager *m = arg;
  pthread_mutex_lock(&m->mu);
  while (!m->closing) {
    pthread_mutex_unlock(&m->mu);
    pool_retire_stale(m);
    pthread_mutex_lock(&m->mu);
    int64_t wait_ms = pool_step(m);
    if (wait_ms == 0 || m->closing) continue;
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    int64_t ns = ts.tv_nsec + (wait_ms % 1000) * 1000000;
    ts.tv_sec += wait_ms / 1000 + ns / 1000000000;
    ts.tv_nsec = ns % 1000000000;
    pthread_cond_timedwait(&m->pool_cv, &m->mu, &ts);
  }
  pthread_mutex_unlock(&m->mu);
  return NULL;
}

void hg__manager_pool_start(hg_manager *m) {
  m->pool_running = pthread_create(&m->pool_thread, NULL, pool_main, m) == 0;
}
