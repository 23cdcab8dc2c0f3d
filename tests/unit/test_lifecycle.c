/* test_lifecycle: node/hangard's lifecycle sequences each operation across
 * the manager, the gateway and the replicator, the same whoever asks (the
 * API through hg_api_work, the idle timer). The three are fakes here that
 * write what they were asked into one log, so a test reads the sequence. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "node/hangard/lifecycle.h"

/* ---- fakes ------------------------------------------------------------------------ */

static char calls[2048];
static struct {
  const char *idle[4]; /* what hg_manager_idle reports */
  int suspend_fenced;  /* suspends that fail -ENOLCK (a fenced VM) first */
  bool lease_late;     /* valid only when waited for */
  int suspend_rc, delete_rc, adopt_rc, fork_rc, policy_rc, after_rc;
  int move_rc, take_rc; /* move_view: 1 moves; the lease's take */
  bool pooled; /* create_begin: the warm pool served it */
  bool running, lease_lost; /* info says running; the lease is not valid */
  bool idle_delete;         /* info says its idle timer deletes it */
  const char *due[4];       /* what hg_manager_checkpoints_due reports */
  int ckpt_rc, ckpt_after_rc;
  long ckpt_acked;          /* holders that acknowledged the checkpoint */
  int hold_rc;              /* hg_repl_hold */
} fk;

static void note(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static void note(const char *fmt, ...) {
  size_t n = strlen(calls);
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(calls + n, sizeof calls - n, fmt, ap);
  va_end(ap);
}

static int fk_manager, fk_gateway, fk_replicator, fk_repl;
#define M ((hg_manager *)&fk_manager)
#define GW ((hg_gateway *)&fk_gateway)
#define RP ((hg_replicator *)&fk_replicator)
#define RPL ((hg_repl *)&fk_repl)

unsigned hg_manager_idle(hg_manager *m, char (*due)[HG_ID_MAX], unsigned max) {
  unsigned n = 0;
  for (; n < max && n < 4 && fk.idle[n]; n++)
    snprintf(due[n], HG_ID_MAX, "%s", fk.idle[n]);
  return n;
}
int hg_sandbox_create_begin(hg_manager *m, const hg_sandbox_spec *spec,
                            char id[HG_ID_MAX], char token[65]) {
  snprintf(id, HG_ID_MAX, "sb-new");
  snprintf(token, 65, "tok");
  note("create_begin ");
  return 0;
}
int hg_sandbox_info(hg_manager *m, const char *id, hg_sb_info *out) {
  memset(out, 0, sizeof *out);
  out->state = fk.pooled || fk.running ? HG_SB_RUNNING : HG_SB_CREATING;
  out->epoch = 3;
  out->idle_delete = fk.idle_delete;
  return 0;
}
int hg_sandbox_create_finish(hg_manager *m, const char *id) {
  note("create_finish(%s) ", id);
  return 0;
}
int hg_sandbox_pause(hg_manager *m, const char *id) {
  note("pause(%s) ", id);
  return 0;
}
int hg_sandbox_resume(hg_manager *m, const char *id) {
  note("resume(%s) ", id);
  return 0;
}
int hg_sandbox_suspend(hg_manager *m, const char *id, uint64_t *gen) {
  note("suspend(%s) ", id);
  if (fk.suspend_fenced > 0 && fk.suspend_fenced--) return -ENOLCK;
  if (fk.suspend_rc) return fk.suspend_rc;
  *gen = 7;
  return 0;
}
int hg_sandbox_snapshot(hg_manager *m, const char *id, char name[64]) {
  snprintf(name, 64, "snap-1");
  return 0;
}
int hg_sandbox_fork(hg_manager *m, const char *id, uint64_t gen, const char *snapshot,
                    char new_id[HG_ID_MAX], char new_token[65]) {
  note("fork(%s) ", id);
  if (fk.fork_rc) return fk.fork_rc;
  snprintf(new_id, HG_ID_MAX, "sb-child");
  snprintf(new_token, 65, "tok2");
  return 0;
}
int hg_sandbox_delete(hg_manager *m, const char *id) {
  note("delete(%s) ", id);
  return fk.delete_rc;
}
/* As the real ones: NULL (no replication) holds nothing. */
int hg_repl_hold(hg_repl *r, const char *id) {
  if (!r) return 0;
  note("hold(%s) ", id);
  return fk.hold_rc;
}
void hg_repl_unhold(hg_repl *r, const char *id) {
  if (r) note("unhold(%s) ", id);
}
int hg_gateway_set_policy(hg_gateway *gw, const char *name, const hg_policy *p) {
  note("set_policy(%s) ", name);
  return fk.policy_rc;
}
int hg_gateway_copy_policy(hg_gateway *gw, const char *from, const char *to) {
  note("copy_policy(%s->%s) ", from, to);
  return 0;
}
void hg_gateway_forget(hg_gateway *gw, const char *name) {
  note("forget(%s) ", name);
}
int hg_replicator_move_view(hg_replicator *rp, const char *id, hg_sb_lease *view,
                            char msg[256]) {
  note("move_view(%s) ", id);
  memset(view, 0, sizeof *view);
  view->epoch = 4;
  if (fk.move_rc < 0) snprintf(msg, 256, "holds no generation");
  return fk.move_rc;
}
int hg_replicator_adopt(hg_replicator *rp, const char *id, uint64_t epoch, char msg[256]) {
  note("adopt(%s,%llu) ", id, (unsigned long long)epoch);
  return fk.adopt_rc;
}
static int fk_take(void *ud, const char *id, hg_sb_take how, const hg_sb_lease *have,
                   hg_sb_lease *out, char msg[256]) {
  note("take(%s,%s,above=%llu) ", id, how == HG_SB_TAKE_MOVE ? "move" : "own",
       (unsigned long long)have->epoch);
  memset(out, 0, sizeof *out);
  out->epoch = have->epoch + 1;
  if (fk.take_rc) snprintf(msg, 256, "held by node n-b");
  return fk.take_rc;
}
static int fk_remove(void *ud, const char *id, const hg_sb_lease *have, char msg[256]) {
  note("lease_delete(%s) ", id);
  return 0;
}
static void fk_drop(void *ud, const char *id) {
  note("drop(%s) ", id);
}
static bool fk_valid(void *ud, const char *id, uint64_t epoch, int64_t wait_ms) {
  note("%s(%s,%llu) ", wait_ms > 0 ? "await" : "valid", id, (unsigned long long)epoch);
  return !fk.lease_lost && (!fk.lease_late || wait_ms > 0);
}
static const hg_life_leases fk_leases = {
    .take = fk_take, .remove = fk_remove, .drop = fk_drop, .valid = fk_valid};
const char *hg_sb_state_name(hg_sb_state st) {
  return st == HG_SB_RUNNING ? "running" : "creating";
}
unsigned hg_manager_checkpoints_due(hg_manager *m, char (*due)[HG_ID_MAX], unsigned max) {
  unsigned n = 0;
  for (; n < max && n < 4 && fk.due[n]; n++) snprintf(due[n], HG_ID_MAX, "%s", fk.due[n]);
  return n;
}
int hg_sandbox_checkpoint(hg_manager *m, const char *id, uint64_t *gen, double *pause_ms) {
  note("checkpoint(%s) ", id);
  if (fk.ckpt_rc) return fk.ckpt_rc;
  *gen = 9;
  *pause_ms = 12.5;
  return 0;
}
int hg_sandbox_gen_publish(hg_manager *m, const char *id, uint64_t gen) {
  note("publish(%s,gen=%llu) ", id, (unsigned long long)gen);
  return 0;
}
int hg_sandbox_retain(hg_manager *m, const char *id) {
  note("retain(%s) ", id);
  return 0;
}
int hg_replicator_after_checkpoint(hg_replicator *rp, const char *id, uint64_t gen,
                                   json_t **report, char msg[256]) {
  note("replicate_ckpt(%s,gen=%llu) ", id, (unsigned long long)gen);
  *report = json_pack("{s:s,s:i}", "durability", "replicated", "acked", (int)fk.ckpt_acked);
  if (fk.ckpt_after_rc) snprintf(msg, 256, "0 of 1 holders");
  return fk.ckpt_after_rc;
}
int hg_sandbox_set_lease(hg_manager *m, const char *id, const hg_sb_lease *l) {
  note("set_lease(%s,epoch=%llu) ", id, (unsigned long long)l->epoch);
  return 0;
}
int hg_sandbox_set_deadline(hg_manager *m, const char *id, int64_t until_ms) {
  note("deadline(%s) ", id);
  return 0;
}
bool hg_replicator_holds(hg_replicator *rp, const char *id) {
  return !strcmp(id, "sb-held");
}
void hg_replicator_keep_off(hg_replicator *rp, const char *id, bool on) {
  note("keep_off(%s,%s) ", id, on ? "on" : "off");
}
int hg_replicator_after_suspend(hg_replicator *rp, const char *id, uint64_t gen,
                                const char *durability,
                                void (*progress)(void *pud, const char *text), void *pud,
                                json_t **report, char msg[256]) {
  note("replicate(%s,gen=%llu,%s) ", id, (unsigned long long)gen,
       durability ? durability : "default");
  *report = json_pack("{s:s}", "durability", "replicated");
  if (fk.after_rc) snprintf(msg, 256, "1 of 2 holders");
  return fk.after_rc;
}

/* ---- harness ---------------------------------------------------------------------- */

static hg_life *life;

static int open_life(hg_gateway *gw, hg_replicator *rp, const hg_life_leases *leases) {
  memset(&fk, 0, sizeof fk);
  calls[0] = '\0';
  hg_life_config cfg = {.manager = M, .gateway = gw, .replicator = rp, .leases = leases};
  return hg_life_new(&cfg, &life);
}
static int setup_repl(void **state) {
  memset(&fk, 0, sizeof fk);
  calls[0] = '\0';
  hg_life_config cfg = {
      .manager = M, .gateway = GW, .replicator = RP, .repl = RPL, .leases = &fk_leases};
  return hg_life_new(&cfg, &life);
}
static int setup_leased(void **state) {
  return open_life(GW, RP, &fk_leases);
}
static int setup(void **state) {
  return open_life(GW, RP, NULL);
}
static int setup_alone(void **state) {
  return open_life(NULL, NULL, NULL);
}
static int teardown(void **state) {
  hg_life_free(life);
  return 0;
}

/* ---- tests ------------------------------------------------------------------------ */

/* The timer's suspend is the API's: the new generation goes to the holders. */
static void idle_suspend_replicates_the_new_generation(void **state) {
  fk.idle[0] = "sb-a";
  fk.idle[1] = "sb-b";
  hg_life_idle(life);
  assert_string_equal(calls,
                      "keep_off(sb-a,on) suspend(sb-a) replicate(sb-a,gen=7,default) "
                      "keep_off(sb-b,on) suspend(sb-b) replicate(sb-b,gen=7,default) ");
}

static void idle_suspend_that_fails_replicates_nothing(void **state) {
  fk.idle[0] = "sb-a";
  fk.suspend_rc = -EBUSY;
  hg_life_idle(life);
  assert_string_equal(calls, "keep_off(sb-a,on) suspend(sb-a) keep_off(sb-a,off) ");
}

/* A VM fenced since its lease went to a rival is not the timer's to
 * suspend: a suspend would claim the lease back (regain.h decides). */
static void idle_leaves_a_fenced_copy_alone(void **state) {
  fk.idle[0] = "sb-a";
  fk.lease_lost = true;
  hg_life_idle(life);
  assert_string_equal(calls, "valid(sb-a,3) ");
  calls[0] = '\0';
  fk.lease_lost = false;
  hg_life_idle(life);
  assert_string_equal(calls, "valid(sb-a,3) keep_off(sb-a,on) suspend(sb-a) drop(sb-a) "
                             "replicate(sb-a,gen=7,default) ");
}

/* idle_action "delete" (E2B's timeout without autoPause): the timer
 * deletes it as the API does, through the group, and suspends nothing. */
static void idle_delete_deletes_through_the_group(void **state) {
  fk.idle[0] = "sb-a";
  fk.idle_delete = true;
  hg_life_idle(life);
  assert_string_equal(calls, "valid(sb-a,3) lease_delete(sb-a) delete(sb-a) forget(sb-a) ");
}

static void idle_suspend_alone_only_suspends(void **state) {
  fk.idle[0] = "sb-a";
  hg_life_idle(life);
  assert_string_equal(calls, "suspend(sb-a) ");
}

static void suspend_reports_the_copy(void **state) {
  const hg_api_work *w = hg_life_work(life);
  uint64_t gen = 0;
  json_t *report = NULL;
  char msg[256];
  fk.after_rc = -EREMOTEIO;
  assert_int_equal(
      w->suspend(w->ud, "sb-a", "replicated", NULL, NULL, &gen, &report, msg),
      -EREMOTEIO);
  assert_int_equal(gen, 7);
  assert_non_null(report);
  assert_string_equal(msg, "1 of 2 holders");
  json_decref(report);
  assert_string_equal(calls, "keep_off(sb-a,on) suspend(sb-a) replicate(sb-a,gen=7,replicated) ");
}

/* The policy is in force before the VM starts; a policy that cannot be set
 * leaves nothing of the sandbox. */
static void create_sets_the_policy_before_the_start(void **state) {
  const hg_api_work *w = hg_life_work(life);
  char id[HG_ID_MAX], token[65];
  bool running = true;
  hg_sandbox_spec spec = {0};
  int policy;
  assert_int_equal(
      w->create_begin(w->ud, &spec, (hg_policy *)&policy, id, token, &running), 0);
  assert_false(running);
  assert_int_equal(w->create_finish(w->ud, id), 0);
  assert_string_equal(calls, "create_begin set_policy(sb-new) create_finish(sb-new) ");
  calls[0] = '\0';
  fk.policy_rc = -ENOMEM;
  assert_int_equal(
      w->create_begin(w->ud, &spec, (hg_policy *)&policy, id, token, &running), -ENOMEM);
  assert_string_equal(calls,
                      "create_begin set_policy(sb-new) delete(sb-new) forget(sb-new) ");
}

static void create_from_the_pool_is_running(void **state) {
  const hg_api_work *w = hg_life_work(life);
  char id[HG_ID_MAX], token[65];
  bool running = false;
  hg_sandbox_spec spec = {0};
  fk.pooled = true;
  assert_int_equal(w->create_begin(w->ud, &spec, NULL, id, token, &running), 0);
  assert_true(running);
  assert_string_equal(calls, "create_begin ");
}

static void delete_forgets_the_policy_only_when_gone(void **state) {
  const hg_api_work *w = hg_life_work(life);
  assert_int_equal(w->remove(w->ud, "sb-a"), 0);
  assert_string_equal(calls, "delete(sb-a) forget(sb-a) ");
  calls[0] = '\0';
  fk.delete_rc = -EBUSY;
  assert_int_equal(w->remove(w->ud, "sb-a"), -EBUSY);
  assert_string_equal(calls, "delete(sb-a) ");
}

static void resume_adopts_first(void **state) {
  const hg_api_work *w = hg_life_work(life);
  char msg[256];
  fk.move_rc = 1;
  assert_int_equal(w->resume(w->ud, "sb-a", msg), 0);
  assert_string_equal(calls, "move_view(sb-a) adopt(sb-a,5) resume(sb-a) ");
  calls[0] = '\0';
  fk.adopt_rc = -ENODATA;
  assert_int_equal(w->resume(w->ud, "sb-a", msg), -ENODATA);
  assert_string_equal(calls, "move_view(sb-a) adopt(sb-a,5) ");
  assert_true(msg[0] != '\0'); /* says why, even when the replicator did not */
  calls[0] = '\0';
  fk.move_rc = -ENODATA;
  assert_int_equal(w->resume(w->ud, "sb-a", msg), -ENODATA);
  assert_string_equal(calls, "move_view(sb-a) ");
  assert_string_equal(msg, "holds no generation");
  assert_true(w->resumable(w->ud, "sb-held"));
  assert_false(w->resumable(w->ud, "sb-a"));
}

/* Under leases a move claims from the generation's view before anything
 * of the sandbox changes here, and adopts at the epoch it won; a claim
 * another node won adopts nothing. */
static void resume_elsewhere_claims_before_it_adopts(void **state) {
  const hg_api_work *w = hg_life_work(life);
  char msg[256];
  fk.move_rc = 1;
  assert_int_equal(w->resume(w->ud, "sb-a", msg), 0);
  assert_string_equal(calls,
                      "move_view(sb-a) take(sb-a,move,above=4) adopt(sb-a,5) resume(sb-a) ");
  calls[0] = '\0';
  fk.take_rc = -ESTALE;
  assert_int_equal(w->resume(w->ud, "sb-a", msg), -ESTALE);
  assert_string_equal(calls, "move_view(sb-a) take(sb-a,move,above=4) ");
  assert_string_equal(msg, "held by node n-b");
}

/* A suspend gives the lease back once the VM stopped; a delete goes
 * through the group before anything here goes. */
static void suspend_drops_and_delete_goes_through_the_group(void **state) {
  const hg_api_work *w = hg_life_work(life);
  uint64_t gen = 0;
  json_t *report = NULL;
  char msg[256];
  assert_int_equal(w->suspend(w->ud, "sb-a", NULL, NULL, NULL, &gen, &report, msg), 0);
  json_decref(report);
  assert_string_equal(calls,
                      "keep_off(sb-a,on) suspend(sb-a) drop(sb-a) replicate(sb-a,gen=7,default) ");
  calls[0] = '\0';
  assert_int_equal(w->remove(w->ud, "sb-a"), 0);
  assert_string_equal(calls, "lease_delete(sb-a) delete(sb-a) forget(sb-a) ");
  calls[0] = '\0';
  fk.suspend_rc = -EBUSY;
  assert_int_equal(w->suspend(w->ud, "sb-a", NULL, NULL, NULL, &gen, &report, msg), -EBUSY);
  /* still running: still leased, and the keeper may send it again */
  assert_string_equal(calls, "keep_off(sb-a,on) suspend(sb-a) keep_off(sb-a,off) ");
}

/* A suspend that found its VM fenced (-ENOLCK) while the lease is still
 * this node's (a renewal landed late on a loaded node: it-api under CI's
 * load) waits for the lease and suspends again; a lease lost to a rival
 * ends it at once with -ENOLCK. */
static void suspend_waits_out_a_fence_of_a_late_renewal(void **state) {
  const hg_api_work *w = hg_life_work(life);
  uint64_t gen = 0;
  json_t *report = NULL;
  char msg[256];
  fk.suspend_fenced = 2;
  fk.lease_late = true;
  assert_int_equal(w->suspend(w->ud, "sb-a", NULL, NULL, NULL, &gen, &report, msg), 0);
  json_decref(report);
  assert_int_equal(gen, 7);
  assert_string_equal(calls, "keep_off(sb-a,on) suspend(sb-a) await(sb-a,3) suspend(sb-a) "
                             "await(sb-a,3) suspend(sb-a) drop(sb-a) "
                             "replicate(sb-a,gen=7,default) ");
  calls[0] = '\0';
  fk.suspend_fenced = 1;
  fk.lease_lost = true;
  assert_int_equal(w->suspend(w->ud, "sb-a", NULL, NULL, NULL, &gen, &report, msg), -ENOLCK);
  assert_string_equal(calls, "keep_off(sb-a,on) suspend(sb-a) await(sb-a,3) "
                             "keep_off(sb-a,off) ");
}

static void fork_inherits_the_policy(void **state) {
  const hg_api_work *w = hg_life_work(life);
  char id[HG_ID_MAX], token[65];
  assert_int_equal(w->fork(w->ud, "sb-a", 0, NULL, id, token), 0);
  assert_string_equal(id, "sb-child");
  assert_string_equal(calls, "fork(sb-a) copy_policy(sb-a->sb-child) ");
  calls[0] = '\0';
  fk.fork_rc = -ENOSPC;
  assert_int_equal(w->fork(w->ud, "sb-a", 0, NULL, id, token), -ENOSPC);
  assert_string_equal(calls, "fork(sb-a) ");
}

static void alone_there_is_nothing_to_adopt_or_forget(void **state) {
  const hg_api_work *w = hg_life_work(life);
  char msg[256], id[HG_ID_MAX], token[65];
  assert_int_equal(w->resume(w->ud, "sb-a", msg), 0);
  assert_int_equal(w->remove(w->ud, "sb-a"), 0);
  assert_int_equal(w->fork(w->ud, "sb-a", 0, NULL, id, token), 0);
  assert_false(w->resumable(w->ud, "sb-held"));
  assert_string_equal(calls, "resume(sb-a) delete(sb-a) fork(sb-a) ");
}

/* The timer's checkpoint is the API's: taken under a valid lease, copied,
 * advertised once a holder has it, then retention. */
static void timer_checkpoint_copies_then_advertises(void **state) {
  fk.due[0] = "sb-a";
  fk.running = true;
  fk.ckpt_acked = 1;
  hg_life_checkpoints(life);
  assert_string_equal(calls, "valid(sb-a,3) checkpoint(sb-a) valid(sb-a,3) "
                             "replicate_ckpt(sb-a,gen=9) publish(sb-a,gen=9) retain(sb-a) ");
}

/* No holder acknowledged: the generation stays unadvertised (a failover
 * must not look for it), and the API hears why. */
static void checkpoint_no_holder_has_stays_unadvertised(void **state) {
  const hg_api_work *w = hg_life_work(life);
  uint64_t gen;
  double ms;
  json_t *report = NULL;
  char msg[256];
  fk.running = true;
  fk.ckpt_after_rc = -EREMOTEIO;
  assert_int_equal(w->checkpoint(w->ud, "sb-a", &gen, &ms, &report, msg), -EREMOTEIO);
  assert_int_equal(gen, 9);
  assert_string_equal(msg, "0 of 1 holders");
  json_decref(report);
  assert_string_equal(calls, "valid(sb-a,3) checkpoint(sb-a) valid(sb-a,3) "
                             "replicate_ckpt(sb-a,gen=9) retain(sb-a) ");
}

/* Without a valid lease nothing is taken; one that ran out during the
 * checkpoint copies nothing. */
static void checkpoint_needs_a_valid_lease(void **state) {
  const hg_api_work *w = hg_life_work(life);
  uint64_t gen;
  double ms;
  json_t *report = NULL;
  char msg[256];
  fk.running = true;
  fk.lease_lost = true;
  assert_int_equal(w->checkpoint(w->ud, "sb-a", &gen, &ms, &report, msg), -ENOLCK);
  assert_string_equal(calls, "valid(sb-a,3) ");
  assert_non_null(strstr(msg, "lease"));
}

static void only_a_running_sandbox_is_checkpointed(void **state) {
  const hg_api_work *w = hg_life_work(life);
  uint64_t gen;
  double ms;
  json_t *report = NULL;
  char msg[256];
  assert_int_equal(w->checkpoint(w->ud, "sb-a", &gen, &ms, &report, msg), -EBUSY);
  assert_string_equal(calls, "");
  assert_non_null(strstr(msg, "only a running sandbox"));
}

/* Alone (no replicator): the generation is advertised at once. */
static void checkpoint_alone_is_advertised_at_once(void **state) {
  const hg_api_work *w = hg_life_work(life);
  uint64_t gen;
  double ms;
  json_t *report = NULL;
  char msg[256];
  fk.running = true;
  assert_int_equal(w->checkpoint(w->ud, "sb-a", &gen, &ms, &report, msg), 0);
  assert_null(report);
  assert_true(ms > 12 && ms < 13);
  assert_string_equal(calls, "checkpoint(sb-a) publish(sb-a,gen=9) retain(sb-a) ");
}

/* A running copy fenced by a rival's promise: the lease is taken again
 * (its own, claimed above) and only then does the sandbox record the new
 * epoch and its VM get a deadline in the future; a take that fails
 * changes nothing; a sandbox with no VM here has nothing to regain. */
static void regain_records_the_lease_before_the_vm_continues(void **state) {
  char msg[256];
  fk.running = true;
  assert_int_equal(hg_life_regain(life, "sb-a", msg), 0);
  assert_string_equal(calls, "take(sb-a,own,above=0) set_lease(sb-a,epoch=1) deadline(sb-a) ");
  calls[0] = '\0';
  fk.take_rc = -EBUSY;
  assert_int_equal(hg_life_regain(life, "sb-a", msg), -EBUSY);
  assert_string_equal(calls, "take(sb-a,own,above=0) ");
  assert_string_equal(msg, "held by node n-b");
  calls[0] = '\0';
  fk.running = false;
  assert_int_equal(hg_life_regain(life, "sb-a", msg), -EINVAL);
  assert_string_equal(calls, "");
  assert_true(msg[0] != '\0');
}

static void a_life_needs_a_manager(void **state) {
  hg_life *l = NULL;
  hg_life_config cfg = {0};
  assert_int_equal(hg_life_new(&cfg, &l), -EINVAL);
  assert_null(l);
}

/* A delete holds the sandbox in the replication service from before its
 * group round to after its generations went: a send of it here would make
 * btrfs refuse the delete (chaos seed 31). A hold that fails deletes
 * nothing, not even in the group. */
static void delete_holds_the_sandbox_against_sends(void **state) {
  const hg_api_work *w = hg_life_work(life);
  assert_int_equal(w->remove(w->ud, "sb-a"), 0);
  assert_string_equal(
      calls, "hold(sb-a) lease_delete(sb-a) delete(sb-a) forget(sb-a) unhold(sb-a) ");
  calls[0] = '\0';
  fk.delete_rc = -EPERM;
  assert_int_equal(w->remove(w->ud, "sb-a"), -EPERM);
  assert_string_equal(calls, "hold(sb-a) lease_delete(sb-a) delete(sb-a) unhold(sb-a) ");
  calls[0] = '\0';
  fk.hold_rc = -ENOMEM;
  assert_int_equal(w->remove(w->ud, "sb-a"), -ENOMEM);
  assert_string_equal(calls, "hold(sb-a) ");
}

int main(void) {
#define T(name) cmocka_unit_test_setup_teardown(name, setup, teardown)
#define TA(name) cmocka_unit_test_setup_teardown(name, setup_alone, teardown)
  const struct CMUnitTest tests[] = {
      T(idle_suspend_replicates_the_new_generation),
      T(idle_suspend_that_fails_replicates_nothing),
      TA(idle_suspend_alone_only_suspends),
      cmocka_unit_test_setup_teardown(idle_leaves_a_fenced_copy_alone, setup_leased, teardown),
      cmocka_unit_test_setup_teardown(idle_delete_deletes_through_the_group, setup_leased,
                                      teardown),
      T(suspend_reports_the_copy),
      T(create_sets_the_policy_before_the_start),
      T(create_from_the_pool_is_running),
      T(delete_forgets_the_policy_only_when_gone),
      T(resume_adopts_first),
      cmocka_unit_test_setup_teardown(resume_elsewhere_claims_before_it_adopts, setup_leased,
                                      teardown),
      cmocka_unit_test_setup_teardown(suspend_waits_out_a_fence_of_a_late_renewal,
                                      setup_leased, teardown),
      cmocka_unit_test_setup_teardown(suspend_drops_and_delete_goes_through_the_group,
                                      setup_leased, teardown),
      cmocka_unit_test_setup_teardown(delete_holds_the_sandbox_against_sends, setup_repl,
                                      teardown),
      T(fork_inherits_the_policy),
      TA(alone_there_is_nothing_to_adopt_or_forget),
      cmocka_unit_test_setup_teardown(timer_checkpoint_copies_then_advertises, setup_leased,
                                      teardown),
      cmocka_unit_test_setup_teardown(checkpoint_no_holder_has_stays_unadvertised,
                                      setup_leased, teardown),
      cmocka_unit_test_setup_teardown(checkpoint_needs_a_valid_lease, setup_leased, teardown),
      T(only_a_running_sandbox_is_checkpointed),
      TA(checkpoint_alone_is_advertised_at_once),
      cmocka_unit_test_setup_teardown(regain_records_the_lease_before_the_vm_continues,
                                      setup_leased, teardown),
      cmocka_unit_test(a_life_needs_a_manager),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
