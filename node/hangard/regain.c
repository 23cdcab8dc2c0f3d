/* regain: fenced copies whose lease a rival was promised; see regain.h. */
#include "node/hangard/regain.h"

#include <errno.h>
#include <inttypes.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "node/core/err.h"
#include "node/core/log.h"
#include "node/core/strmap.h"
#include "node/core/util.h"

#define WAITING_MAX 4096
#define BACKOFF_MIN_MS 1000
#define BACKOFF_MAX_MS 10000
#define LOG_EVERY 10 /* a try that failed again is logged this often */

typedef struct item {
  hg_strmap_node node;
  char id[HG_ID_MAX];
  int64_t next_ms;  /* monotonic: the next look */
  int64_t since_ms; /* monotonic: lost then */
  unsigned tries;
} item;

struct hg_regain {
  hg_regain_config cfg;
  hg_manager *manager; /* set once, under mu, by hg_regain_attach */
  hg_life *life;
  pthread_t thread;
  pthread_mutex_t mu;
  pthread_cond_t cv;
  hg_strmap items; /* item, under mu */
  bool stop;       /* under mu */
};

enum { LOOK_DONE, LOOK_AGAIN, LOOK_SOON };

static int64_t backoff_ms(unsigned tries) {
  int64_t ms = BACKOFF_MIN_MS << (tries < 4 ? tries : 4);
  return ms < BACKOFF_MAX_MS ? ms : BACKOFF_MAX_MS;
}

/* The directory names the holder: ours goes aside, under the epoch it
 * ran at (orphans/<id>/<own epoch>, as every orphan of a lost lease). */
static int look_taken(hg_regain *r, const char *id, uint64_t own, const char *owner,
                      uint64_t epoch) {
  char reason[160];
  snprintf(reason, sizeof reason, "node %s holds it at epoch %" PRIu64 " (its lease was "
           "promised to that node while this copy ran)", owner, epoch);
  int rc = r->cfg.orphan(r->cfg.ud, id, own, reason);
  if (rc < 0 && rc != -ENOENT) {
    hg_log_error("lease.orphan", "sandbox=%s epoch=%" PRIu64 " err=\"%s\"", id, epoch,
                 hg_err_str(rc));
    return LOOK_AGAIN;
  }
  return LOOK_DONE;
}

static int look_at(hg_regain *r, const char *id, unsigned tries, int64_t since_ms) {
  hg_sb_info info;
  if (hg_sandbox_info(r->manager, id, &info) < 0) return LOOK_DONE;
  if (info.state != HG_SB_RUNNING && info.state != HG_SB_PAUSED) {
    hg_log_info("lease.regain_over", "sandbox=%s state=%s msg=\"no VM left to run again\"",
                id, hg_sb_state_name(info.state));
    return LOOK_DONE;
  }
  char owner[HG_NODE_ID_MAX];
  uint64_t epoch = 0;
  if (r->cfg.taken && r->cfg.taken(r->cfg.ud, id, info.epoch, owner, &epoch))
    return look_taken(r, id, info.epoch, owner, epoch);
  /* The rival's claim may still be going on (won, about to adopt and be
   * in the directory; or about to give up): a claim of ours now would
   * leave a higher promise at our own member (it promised us before)
   * that fails the holder's next claim or delete. Once a claim's whole
   * wait has passed since we lost, the rival has won or given up. */
  if (hg_now_ms() - since_ms < r->cfg.settle_ms) return LOOK_SOON;
  char msg[256];
  int64_t t0 = hg_now_ms();
  int rc = hg_life_regain(r->life, id, msg);
  if (rc == 0) {
    hg_sandbox_info(r->manager, id, &info);
    hg_log_warn("lease.regained", "sandbox=%s epoch=%" PRIu64 " tries=%u ms=%" PRId64
                " msg=\"the rival never held it: the same VM runs on\"", id, info.epoch,
                tries + 1, hg_now_ms() - t0);
    return LOOK_DONE;
  }
  if (rc == -EINVAL || rc == -ENOENT) return LOOK_DONE;
  if (tries % LOG_EVERY == 0)
    hg_log_info("lease.regain_wait", "sandbox=%s tries=%u err=\"%s\" msg=\"%s\"", id,
                tries + 1, hg_err_str(rc), msg);
  return LOOK_AGAIN;
}

/* The item due first (mu held); *next_ms: when, INT64_MAX with none. */
static item *first_due(hg_regain *r, int64_t *next_ms) {
  size_t cur = 0;
  item *best = NULL;
  for (hg_strmap_node *n = hg_strmap_next(&r->items, &cur, NULL); n;
       n = hg_strmap_next(&r->items, &cur, n)) {
    item *it = HG_CONTAINER_OF(n, item, node);
    if (!best || it->next_ms < best->next_ms) best = it;
  }
  *next_ms = best ? best->next_ms : INT64_MAX;
  return best;
}

static void *regain_main(void *arg) {
  hg_regain *r = arg;
  pthread_mutex_lock(&r->mu);
  while (!r->stop) {
    int64_t due_ms;
    item *it = r->life ? first_due(r, &due_ms) : NULL;
    if (!it || due_ms > hg_now_ms()) {
      if (!it) {
        pthread_cond_wait(&r->cv, &r->mu);
      } else {
        struct timespec ts = hg_mono_ts(due_ms);
        pthread_cond_timedwait(&r->cv, &r->mu, &ts);
      }
      continue;
    }
    char id[HG_ID_MAX];
    snprintf(id, sizeof id, "%s", it->id);
    unsigned tries = it->tries;
    int64_t since = it->since_ms;
    pthread_mutex_unlock(&r->mu);
    int verdict = look_at(r, id, tries, since);
    pthread_mutex_lock(&r->mu);
    hg_strmap_node *n = hg_strmap_get(&r->items, id); /* added again meanwhile: the same */
    if (!n) continue;
    it = HG_CONTAINER_OF(n, item, node);
    if (verdict == LOOK_DONE) {
      hg_strmap_del(&r->items, n);
      free(it);
    } else if (verdict == LOOK_SOON) {
      it->next_ms = hg_now_ms() + BACKOFF_MIN_MS;
    } else {
      it->next_ms = hg_now_ms() + backoff_ms(it->tries++);
    }
  }
  pthread_mutex_unlock(&r->mu);
  return NULL;
}

int hg_regain_start(const hg_regain_config *cfg, hg_regain **out) {
  hg_regain *r = calloc(1, sizeof *r);
  if (!r) return -ENOMEM;
  r->cfg = *cfg;
  pthread_mutex_init(&r->mu, NULL);
  hg_cond_init_mono(&r->cv);
  int rc = pthread_create(&r->thread, NULL, regain_main, r);
  if (rc != 0) {
    pthread_cond_destroy(&r->cv);
    pthread_mutex_destroy(&r->mu);
    free(r);
    return -rc;
  }
  *out = r;
  return 0;
}

int hg_regain_add(hg_regain *r, const char *id) {
  int rc = 0;
  pthread_mutex_lock(&r->mu);
  hg_strmap_node *n = hg_strmap_get(&r->items, id);
  item *it = n ? HG_CONTAINER_OF(n, item, node) : NULL;
  if (!it && r->items.count >= WAITING_MAX) rc = -ENOSPC;
  if (!it && rc == 0 && !(it = calloc(1, sizeof *it))) rc = -ENOMEM;
  if (!n && rc == 0) {
    snprintf(it->id, sizeof it->id, "%s", id);
    it->node.key = it->id;
    it->since_ms = hg_now_ms();
    rc = hg_strmap_put(&r->items, &it->node);
    if (rc < 0) free(it);
  }
  if (rc == 0) it->next_ms = hg_now_ms(); /* look now: the directory may name the holder */
  pthread_cond_signal(&r->cv);
  pthread_mutex_unlock(&r->mu);
  return rc;
}

unsigned hg_regain_waiting(hg_regain *r) {
  pthread_mutex_lock(&r->mu);
  unsigned n = (unsigned)r->items.count;
  pthread_mutex_unlock(&r->mu);
  return n;
}

void hg_regain_attach(hg_regain *r, hg_manager *manager, hg_life *life) {
  pthread_mutex_lock(&r->mu);
  r->manager = manager;
  r->life = life;
  pthread_cond_signal(&r->cv);
  pthread_mutex_unlock(&r->mu);
}

void hg_regain_stop(hg_regain *r) {
  if (!r) return;
  pthread_mutex_lock(&r->mu);
  r->stop = true;
  pthread_cond_signal(&r->cv);
  pthread_mutex_unlock(&r->mu);
  pthread_join(r->thread, NULL);
}

void hg_regain_free(hg_regain *r) {
  if (!r) return;
  hg_strmap_free_all(&r->items, offsetof(item, node));
  pthread_cond_destroy(&r->cv);
  pthread_mutex_destroy(&r->mu);
  free(r);
}
