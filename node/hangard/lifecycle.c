/* lifecycle: each operation on a sandbox in one sequence, across the
 * manager, the gateway and the replicator (see lifecycle.h). The API calls
 * these through hg_api_work; the idle timer calls the same suspend. */
#include "node/hangard/lifecycle.h"

#include <errno.h>
#include <inttypes.h>
#include <pthread.h>
#include <string.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "node/core/err.h"
#include "node/core/log.h"
#include "node/core/util.h"

#define HG_LIFE_IDLE_MAX 64 /* idle suspends per pass; the rest wait for the next */
#define HG_LIFE_CKPT_MAX 64 /* checkpoints per pass; the rest wait for the next */
#define HG_LIFE_BUSY_MAX 256 /* sandboxes in a checkpoint, suspend or delete at once */
#define FENCE_WAIT_MS 10000  /* a suspend waits this long for a late renewal */
#define FENCE_RETRY_MS 50

struct hg_life {
  /* Sandboxes in a checkpoint, suspend or delete now (under mu): one of
   * them at a time per sandbox; busy_cv wakes a suspend or delete that
   * waits for a checkpoint to end. */
  pthread_mutex_t mu;
  pthread_cond_t busy_cv;
  char busy[HG_LIFE_BUSY_MAX][HG_ID_MAX];
  hg_manager *m;
  hg_gateway *gw;    /* NULL: no networking */
  hg_replicator *rp; /* NULL: no replication */
  hg_repl *repl;     /* NULL: no replication */
  hg_life_leases leases; /* take NULL: none */
  hg_api_work work;  /* the API's view, ud = this */
};

/* --- one checkpoint, suspend or delete per sandbox at a time -------------------- */

static int busy_find(hg_life *l, const char *id) {
  for (int i = 0; i < HG_LIFE_BUSY_MAX; i++)
    if (!strcmp(l->busy[i], id)) return i;
  return -1;
}

/* Marks id busy; wait: until it is free (a suspend or delete waits for a
 * checkpoint), else false at once (a checkpoint skips a busy sandbox). */
static bool busy_enter(hg_life *l, const char *id, bool wait) {
  pthread_mutex_lock(&l->mu);
  int slot;
  for (;;) {
    slot = busy_find(l, id) < 0 ? busy_find(l, "") : -2;
    if (slot != -2 || !wait) break;
    pthread_cond_wait(&l->busy_cv, &l->mu);
  }
  /* no free slot (256 at once): go on unmarked rather than refuse */
  if (slot >= 0) snprintf(l->busy[slot], HG_ID_MAX, "%s", id);
  pthread_mutex_unlock(&l->mu);
  return slot != -2;
}

static void busy_leave(hg_life *l, const char *id) {
  pthread_mutex_lock(&l->mu);
  int slot = busy_find(l, id);
  if (slot >= 0) l->busy[slot][0] = '\0';
  pthread_cond_broadcast(&l->busy_cv);
  pthread_mutex_unlock(&l->mu);
}

/* Deletes through the sandbox's group first (a holder away for days then
 * learns of it and never brings it back), then here, then what the
 * gateway keeps of it (its policy and egress log): a sandbox that failed
 * to go keeps its policy. */
static int life_delete_one(hg_life *l, const char *id) {
  hg_sb_info info;
  if (l->leases.remove && hg_sandbox_info(l->m, id, &info) == 0) {
    char msg[256];
    int rc = l->leases.remove(l->leases.ud, id, &info.lease, msg);
    if (rc < 0) {
      hg_log_warn("sandbox.delete", "sandbox=%s err=\"%s\" msg=\"%s\"", id, hg_err_str(rc),
                  msg);
      return rc;
    }
  }
  int rc = hg_sandbox_delete(l->m, id);
  if (rc == 0 && l->gw) hg_gateway_forget(l->gw, id);
  return rc;
}

/* Under the sandbox's replication hold, taken before the group round: a
 * send of it here (the keeper's, to a new holder) reads its generations,
 * and btrfs refuses to delete a subvolume a send reads (EPERM), which
 * left a sandbox deleted in its group but "deleting" here for good
 * (chaos seed 31). The hold waits for such a send and starts no new one. */
static int life_delete(void *ud, const char *id) {
  hg_life *l = ud;
  busy_enter(l, id, true);
  int rc = hg_repl_hold(l->repl, id);
  if (rc == 0) {
    rc = life_delete_one(l, id);
    hg_repl_unhold(l->repl, id);
  }
  busy_leave(l, id);
  return rc;
}

/* The policy goes in before create_finish starts the VM (a warm one:
 * before anyone has its id), so it is in force for its first command.
 * From the warm pool the sandbox runs already (and is written so). */
static int life_create_begin(void *ud, const hg_sandbox_spec *spec,
                             const hg_policy *policy, char id[HG_ID_MAX], char token[65],
                             bool *running) {
  hg_life *l = ud;
  int rc = hg_sandbox_create_begin(l->m, spec, id, token);
  if (rc < 0) return rc;
  if (policy) rc = l->gw ? hg_gateway_set_policy(l->gw, id, policy) : -EINVAL;
  if (rc < 0) {
    hg_sandbox_delete(l->m, id);
    if (l->gw) hg_gateway_forget(l->gw, id);
    return rc;
  }
  hg_sb_info info;
  *running = hg_sandbox_info(l->m, id, &info) == 0 && info.state == HG_SB_RUNNING;
  return 0;
}

static int life_create_finish(void *ud, const char *id) {
  hg_life *l = ud;
  return hg_sandbox_create_finish(l->m, id);
}

static int life_pause(void *ud, const char *id) {
  hg_life *l = ud;
  return hg_sandbox_pause(l->m, id);
}

/* How long each step of a take waited (ms): the move's view (the
 * directory, our newest generation's record), the lease's claim, the
 * adoption. For the failover's log: a mass failover's stalls are in one. */
typedef struct take_times {
  int64_t view, claim, adopt;
} take_times;

/* A sandbox that is not ours becomes ours (adopt, from our newest
 * generation of it), under the lease claimed from the group that
 * generation records: of two such moves through two nodes, one claim
 * wins and the other learns of it (-ESTALE) before anything of the
 * sandbox changed here. Our own sandbox takes its lease up again. *moved:
 * it was adopted here just now. */
static int life_take_here(hg_life *l, const char *id, bool *moved, take_times *t,
                          char msg[256]) {
  hg_sb_lease view, got;
  *moved = false;
  *t = (take_times){0};
  int64_t t0 = hg_now_ms();
  int move = l->rp ? hg_replicator_move_view(l->rp, id, &view, msg) : 0;
  hg_sb_info info;
  if (move == 0 && hg_sandbox_info(l->m, id, &info) == 0) view = info.lease;
  else if (move == 0) return -ENOENT;
  int rc = move < 0 ? move : 0;
  hg_sb_take how = move == 1 ? HG_SB_TAKE_MOVE : HG_SB_TAKE_OWN;
  int64_t t1 = hg_now_ms();
  if (rc == 0 && l->leases.take) rc = l->leases.take(l->leases.ud, id, how, &view, &got, msg);
  int64_t t2 = hg_now_ms();
  if (rc == 0 && move == 1)
    rc = hg_replicator_adopt(l->rp, id, l->leases.take ? got.epoch : view.epoch + 1, msg);
  *t = (take_times){.view = t1 - t0, .claim = t2 - t1, .adopt = hg_now_ms() - t2};
  *moved = rc == 0 && move == 1;
  return rc;
}

/* A resume sent to a node that is not the owner makes it the owner first
 * (life_take_here); the VM then starts under the lease. */
static int life_resume(void *ud, const char *id, char msg[256]) {
  hg_life *l = ud;
  bool moved;
  take_times t;
  msg[0] = '\0';
  int rc = life_take_here(l, id, &moved, &t, msg);
  if (rc == 0) rc = hg_sandbox_resume(l->m, id);
  if (rc < 0 && !msg[0]) snprintf(msg, 256, "%s", hg_err_str(rc));
  return rc;
}

/* The VM stopped for good: its lease goes (another node may claim it). */
static void life_drop(hg_life *l, const char *id) {
  if (l->leases.drop) l->leases.drop(l->leases.ud, id);
}

/* Failover (DESIGN §9): the sandbox of a dead owner becomes ours through
 * the same move as a resume sent here. One that ran there runs again
 * (hg_life_failover_run) from the generation adopted; a suspended one
 * stays suspended here, its lease given back as a suspend gives it back.
 * One already ours (an earlier failover, a resume by hand) is left as it
 * is. */
int hg_life_failover_take(hg_life *l, const char *id, bool run, char msg[256]) {
  bool moved;
  msg[0] = '\0';
  if (!l->rp) {
    snprintf(msg, 256, "no replication: nothing to fail over from");
    return -ENOTSUP;
  }
  hg_sb_info info;
  if (hg_sandbox_info(l->m, id, &info) == 0 && info.state != HG_SB_SUSPENDED) return 1;
  take_times t;
  int rc = life_take_here(l, id, &moved, &t, msg);
  if (rc == 0 && !run) life_drop(l, id);
  if (rc < 0 && !msg[0]) snprintf(msg, 256, "%s", hg_err_str(rc));
  hg_log_info("sandbox.failover", "sandbox=%s step=take run=%s moved=%s view_ms=%" PRId64
              " claim_ms=%" PRId64 " adopt_ms=%" PRId64 " err=\"%s\" msg=\"%s\"", id,
              run ? "yes" : "no", moved ? "yes" : "no", t.view, t.claim, t.adopt,
              rc < 0 ? hg_err_str(rc) : "none", msg);
  return rc;
}

void hg_life_failover_claim_ahead(hg_life *l, const char *id) {
  hg_sb_lease view;
  hg_sb_info info;
  char msg[256];
  if (!l->rp || !l->leases.claim_ahead || hg_sandbox_info(l->m, id, &info) == 0) return;
  if (hg_replicator_move_view(l->rp, id, &view, msg) != 1) return;
  int rc = l->leases.claim_ahead(l->leases.ud, id, &view);
  if (rc < 0)
    hg_log_warn("sandbox.failover", "sandbox=%s step=claim_ahead err=\"%s\"", id,
                hg_err_str(rc));
}

int hg_life_failover_run(hg_life *l, const char *id, char msg[256]) {
  msg[0] = '\0';
  int rc = hg_sandbox_resume(l->m, id);
  /* Adopted but not running (no room, say): ours and suspended, so it
   * holds no lease, and the directory says so; a resume may follow. */
  if (rc < 0) {
    life_drop(l, id);
    snprintf(msg, 256, "%s", hg_err_str(rc));
  }
  hg_log_info("sandbox.failover", "sandbox=%s step=run err=\"%s\"", id,
              rc < 0 ? hg_err_str(rc) : "none");
  return rc;
}

int hg_life_regain(hg_life *l, const char *id, char msg[256]) {
  hg_sb_info info;
  hg_sb_lease got;
  msg[0] = '\0';
  int rc = hg_sandbox_info(l->m, id, &info);
  if (rc == 0 && info.state != HG_SB_RUNNING && info.state != HG_SB_PAUSED) {
    snprintf(msg, 256, "sandbox %s is %s here: no VM to run again", id,
             hg_sb_state_name(info.state));
    return -EINVAL;
  }
  if (rc == 0 && !l->leases.take) return 0; /* no leases: nothing fences it */
  if (rc == 0) rc = l->leases.take(l->leases.ud, id, HG_SB_TAKE_OWN, &info.lease, &got, msg);
  if (rc == 0) rc = hg_sandbox_set_lease(l->m, id, &got);
  if (rc == 0) rc = hg_sandbox_set_deadline(l->m, id, got.until_ms);
  if (rc < 0 && !msg[0]) snprintf(msg, 256, "%s", hg_err_str(rc));
  return rc;
}

static bool life_resumable(void *ud, const char *id) {
  hg_life *l = ud;
  return l->rp && hg_replicator_holds(l->rp, id);
}

/* hg_sandbox_suspend, through a fence that only a late renewal caused:
 * on an overloaded node (a register's fdatasync slow, say) a round can
 * land after the lease ran out, and the shim stops the VM until the next
 * one does; the save then fails -ENOLCK with the lease still held here.
 * It is waited for (FENCE_WAIT_MS at most) and the suspend tried again;
 * a lease lost to a rival fails at once. The failed try changed nothing:
 * the VM stays as it was, running. */
static int suspend_through_fence(hg_life *l, const char *id, uint64_t *gen) {
  int64_t until = hg_now_ms() + FENCE_WAIT_MS;
  for (;;) {
    int rc = hg_sandbox_suspend(l->m, id, gen);
    int64_t left = until - hg_now_ms();
    hg_sb_info info;
    if (rc != -ENOLCK || !l->leases.valid || left <= 0 ||
        hg_sandbox_info(l->m, id, &info) < 0 ||
        !l->leases.valid(l->leases.ud, id, info.epoch, left))
      return rc;
    hg_log_info("sandbox.suspend", "sandbox=%s msg=\"fenced by a late renewal: the lease "
                "is back, suspending again\"", id);
    usleep(FENCE_RETRY_MS * 1000); /* the shim hears of the renewal just after */
  }
}

/* Suspend, then copy the new generation to the sandbox's holders: with
 * durability "replicated" it succeeds only once they have it. */
static int life_suspend(void *ud, const char *id, const char *durability,
                        void (*progress)(void *pud, const char *text), void *pud,
                        uint64_t *gen, json_t **report, char msg[256]) {
  hg_life *l = ud;
  *report = NULL;
  msg[0] = '\0';
  busy_enter(l, id, true);
  if (l->rp) hg_replicator_keep_off(l->rp, id, true);
  int rc = suspend_through_fence(l, id, gen);
  if (rc == 0) life_drop(l, id);
  if (rc < 0 && l->rp) hg_replicator_keep_off(l->rp, id, false);
  if (rc == 0 && l->rp)
    rc = hg_replicator_after_suspend(l->rp, id, *gen, durability, progress, pud, report,
                                     msg);
  busy_leave(l, id);
  return rc;
}

static bool lease_valid(hg_life *l, const char *id, uint64_t epoch) {
  return !l->leases.valid || l->leases.valid(l->leases.ud, id, epoch, 0);
}

/* Whether the replicator advertised the checkpoint (a holder has it, or
 * the sandbox keeps no copies): then the manager does too. */
static bool ckpt_published(const json_t *report) {
  const char *dur = json_string_value(json_object_get(report, "durability"));
  return !report || (dur && !strcmp(dur, "local")) ||
         json_integer_value(json_object_get(report, "acked")) > 0;
}

/* A checkpoint: the manager takes the generation (the guest pauses only
 * for that), then it goes to the holders as a suspend's does, under the
 * lease: a node whose lease ran out meanwhile copies nothing (another
 * node may own the sandbox by now). Retention follows. */
static int life_checkpoint_one(hg_life *l, const char *id, uint64_t *gen, double *pause_ms,
                               json_t **report, char msg[256]) {
  hg_sb_info info;
  int rc = hg_sandbox_info(l->m, id, &info);
  if (rc == 0 && info.state != HG_SB_RUNNING) {
    snprintf(msg, 256, "sandbox %s is %s: only a running sandbox is checkpointed", id,
             hg_sb_state_name(info.state));
    return -EBUSY;
  }
  if (rc == 0 && !lease_valid(l, id, info.epoch)) {
    snprintf(msg, 256, "this node's lease on sandbox %s is not valid now", id);
    return -ENOLCK;
  }
  if (rc == 0) rc = hg_sandbox_checkpoint(l->m, id, gen, pause_ms);
  if (rc < 0) return rc;
  if (l->rp && !lease_valid(l, id, info.epoch)) {
    snprintf(msg, 256, "gen %" PRIu64 " taken, but this node's lease on sandbox %s ran out: "
             "not copied", *gen, id);
    rc = -ENOLCK;
  } else if (l->rp) {
    rc = hg_replicator_after_checkpoint(l->rp, id, *gen, report, msg);
  }
  if ((rc == 0 || rc == -EREMOTEIO) && ckpt_published(*report))
    hg_sandbox_gen_publish(l->m, id, *gen);
  hg_sandbox_retain(l->m, id);
  return rc;
}

static int life_checkpoint(void *ud, const char *id, uint64_t *gen, double *pause_ms,
                           json_t **report, char msg[256]) {
  hg_life *l = ud;
  *report = NULL;
  msg[0] = '\0';
  *gen = 0;
  *pause_ms = 0;
  if (!busy_enter(l, id, false)) {
    snprintf(msg, 256, "a checkpoint, suspend or delete of sandbox %s is under way", id);
    return -EBUSY;
  }
  int rc = life_checkpoint_one(l, id, gen, pause_ms, report, msg);
  busy_leave(l, id);
  if (rc < 0 && !msg[0]) snprintf(msg, 256, "%s", hg_err_str(rc));
  return rc;
}

static int life_snapshot(void *ud, const char *id, char name[64]) {
  hg_life *l = ud;
  return hg_sandbox_snapshot(l->m, id, name);
}

/* A fork starts with its parent's egress policy, credentials and all (the
 * gateway copies it, so no secret passes through here). */
static int life_fork(void *ud, const char *id, uint64_t gen, const char *snapshot,
                     char new_id[HG_ID_MAX], char new_token[65]) {
  hg_life *l = ud;
  int rc = hg_sandbox_fork(l->m, id, gen, snapshot, new_id, new_token);
  if (rc < 0 || !l->gw) return rc;
  int prc = hg_gateway_copy_policy(l->gw, id, new_id);
  if (prc < 0)
    hg_log_error("api.fork_policy", "sandbox=%s from=%s err=\"%s\"", new_id, id,
                 hg_err_str(prc));
  return 0;
}

static json_t *life_leases(void *ud) {
  hg_life *l = ud;
  return l->leases.status ? l->leases.status(l->leases.ud) : NULL;
}

void hg_life_idle(hg_life *l) {
  char due[HG_LIFE_IDLE_MAX][HG_ID_MAX];
  unsigned n = hg_manager_idle(l->m, due, HG_LIFE_IDLE_MAX);
  for (unsigned i = 0; i < n; i++) {
    uint64_t gen = 0;
    json_t *report = NULL;
    char msg[256];
    hg_sb_info info = {0};
    /* A VM fenced since its lease went elsewhere (regain.h) is not idle:
     * it is not ours to suspend until the lease comes back. */
    if (hg_sandbox_info(l->m, due[i], &info) == 0 && !lease_valid(l, due[i], info.epoch))
      continue;
    if (info.idle_delete) { /* E2B's timeout without autoPause: killed */
      hg_log_info("sandbox.idle", "sandbox=%s action=delete", due[i]);
      int rc = life_delete(l, due[i]);
      if (rc < 0 && rc != -ENOENT)
        hg_log_warn("sandbox.idle", "sandbox=%s action=delete err=\"%s\"", due[i],
                    hg_err_str(rc));
      continue;
    }
    hg_log_info("sandbox.idle", "sandbox=%s action=suspend", due[i]);
    int rc = life_suspend(l, due[i], NULL, NULL, NULL, &gen, &report, msg);
    const char *dur = json_string_value(json_object_get(report, "durability"));
    json_int_t acked = json_integer_value(json_object_get(report, "acked"));
    if (rc < 0)
      hg_log_warn("sandbox.idle", "sandbox=%s gen=%" PRIu64 " err=\"%s\" msg=\"%s\"",
                  due[i], gen, hg_err_str(rc), msg);
    else
      hg_log_info("sandbox.idled", "sandbox=%s gen=%" PRIu64 " durability=%s acked=%lld",
                  due[i], gen, dur ? dur : "local", (long long)acked);
    json_decref(report);
  }
}

void hg_life_checkpoints(hg_life *l) {
  char due[HG_LIFE_CKPT_MAX][HG_ID_MAX];
  unsigned n = hg_manager_checkpoints_due(l->m, due, HG_LIFE_CKPT_MAX);
  for (unsigned i = 0; i < n; i++) {
    uint64_t gen = 0;
    double pause_ms = 0;
    json_t *report = NULL;
    char msg[256];
    int rc = life_checkpoint(l, due[i], &gen, &pause_ms, &report, msg);
    json_int_t acked = json_integer_value(json_object_get(report, "acked"));
    if (rc < 0)
      hg_log_warn("sandbox.checkpoint_failed",
                  "sandbox=%s gen=%" PRIu64 " err=\"%s\" msg=\"%s\"", due[i], gen,
                  hg_err_str(rc), msg);
    else
      hg_log_info("sandbox.checkpointed", "sandbox=%s gen=%" PRIu64 " pause_ms=%.1f acked=%lld",
                  due[i], gen, pause_ms, (long long)acked);
    json_decref(report);
  }
}

int hg_life_new(const hg_life_config *cfg, hg_life **out) {
  if (!cfg || !cfg->manager) return -EINVAL;
  hg_life *l = calloc(1, sizeof *l);
  if (!l) return -ENOMEM;
  pthread_mutex_init(&l->mu, NULL);
  pthread_cond_init(&l->busy_cv, NULL);
  l->m = cfg->manager;
  l->gw = cfg->gateway;
  l->rp = cfg->replicator;
  l->repl = cfg->repl;
  if (cfg->leases) l->leases = *cfg->leases;
  l->work = (hg_api_work){.ud = l,
                          .create_begin = life_create_begin,
                          .create_finish = life_create_finish,
                          .pause = life_pause,
                          .resume = life_resume,
                          .resumable = life_resumable,
                          .suspend = life_suspend,
                          .checkpoint = life_checkpoint,
                          .snapshot = life_snapshot,
                          .fork = life_fork,
                          .remove = life_delete,
                          .leases = life_leases};
  *out = l;
  return 0;
}

void hg_life_free(hg_life *l) {
  if (!l) return;
  pthread_cond_destroy(&l->busy_cv);
  pthread_mutex_destroy(&l->mu);
  free(l);
}

const hg_api_work *hg_life_work(hg_life *l) {
  return &l->work;
}
