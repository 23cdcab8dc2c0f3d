/* api_node.h: the node's side of the API for tests that run it over a fake
 * runtime (test_api, test_forward). hg_api_work here is node/hangard's
 * lifecycle on a node without networking or replication: each call is the
 * manager's (faked by the test). The replicator's calls are link stubs: the
 * tests give the API none, and without them the linker would take
 * replication's objects, which need the real manager. */
#ifndef HG_TEST_API_NODE_H
#define HG_TEST_API_NODE_H

#include "api/api_internal.h"

static int tw_create_begin(void *ud, const hg_sandbox_spec *spec, const hg_policy *policy,
                           char id[HG_ID_MAX], char token[65], bool *running) {
  if (policy) return -EINVAL; /* no gateway */
  int rc = hg_sandbox_create_begin(ud, spec, id, token);
  hg_sb_info info;
  *running =
      rc == 0 && hg_sandbox_info(ud, id, &info) == 0 && info.state == HG_SB_RUNNING;
  return rc;
}
static int tw_create_finish(void *ud, const char *id) {
  return hg_sandbox_create_finish(ud, id);
}
static int tw_pause(void *ud, const char *id) {
  return hg_sandbox_pause(ud, id);
}
static int tw_resume(void *ud, const char *id, char msg[256]) {
  msg[0] = '\0';
  return hg_sandbox_resume(ud, id);
}
static bool tw_resumable(void *ud, const char *id) {
  return false;
}
static int tw_suspend(void *ud, const char *id, const char *durability,
                      void (*progress)(void *pud, const char *text), void *pud,
                      uint64_t *gen, json_t **report, char msg[256]) {
  *report = NULL;
  msg[0] = '\0';
  return hg_sandbox_suspend(ud, id, gen);
}
static int tw_checkpoint(void *ud, const char *id, uint64_t *gen, double *pause_ms,
                         json_t **report, char msg[256]) {
  *report = NULL;
  msg[0] = '\0';
  int rc = hg_sandbox_checkpoint(ud, id, gen, pause_ms);
  if (rc == 0) rc = hg_sandbox_gen_publish(ud, id, *gen);
  return rc;
}
static int tw_snapshot(void *ud, const char *id, char name[64]) {
  return hg_sandbox_snapshot(ud, id, name);
}
static int tw_fork(void *ud, const char *id, uint64_t gen, const char *snapshot,
                   char new_id[HG_ID_MAX], char new_token[65]) {
  return hg_sandbox_fork(ud, id, gen, snapshot, new_id, new_token);
}
static int tw_delete(void *ud, const char *id) {
  return hg_sandbox_delete(ud, id);
}

/* The work of a node whose manager is m. */
static inline hg_api_work test_work(hg_manager *m) {
  return (hg_api_work){.ud = m,
                       .create_begin = tw_create_begin,
                       .create_finish = tw_create_finish,
                       .pause = tw_pause,
                       .resume = tw_resume,
                       .resumable = tw_resumable,
                       .suspend = tw_suspend,
                       .checkpoint = tw_checkpoint,
                       .snapshot = tw_snapshot,
                       .fork = tw_fork,
                       .remove = tw_delete};
}

bool hg_replicator_token_ok(hg_replicator *rp, const char *id, const char *token) {
  return false;
}
int hg_replicator_replicas(hg_replicator *rp, const char *id, json_t **out,
                           char msg[256]) {
  return -ENOENT;
}
int hg_replicator_resume_at(hg_replicator *rp, const char *id, const char *node,
                            char target[64], char addr[64], char msg[256]) {
  return 0;
}
void hg_replicator_metrics(hg_replicator *rp, hg_buf *out) {}

#endif
