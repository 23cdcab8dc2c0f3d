/* work: lifecycle work as the API asks for it (DESIGN §2). The API
 * validates a request, journals and tracks its operation, and answers; it
 * sequences nothing. node/hangard's lifecycle implements this: the one
 * place each operation is sequenced across the sandbox manager, the
 * gateway and the replicator, whoever asks (the API, the idle timer, later
 * a failover).
 *
 * Every call blocks (VMs, btrfs, peers) and runs on a worker, never on the
 * loop, except resumable. Errors are those of node/sandbox.h; where a call
 * has msg (256 bytes), it says more when it is set. */
#ifndef HG_API_WORK_H
#define HG_API_WORK_H

#include <jansson.h>
#include <stdbool.h>
#include <stdint.h>

#include "node/sandbox.h"

typedef struct hg_policy hg_policy; /* an egress policy (gateway/gateway.h) */

typedef struct hg_api_work {
  void *ud;
  /* Reserves a sandbox (id, token) and puts policy (NULL: no egress) in
   * force before any VM of it starts. *running: the warm pool served it
   * and nothing is left to do; else create_finish starts it. On failure
   * nothing is left of it. */
  int (*create_begin)(void *ud, const hg_sandbox_spec *spec, const hg_policy *policy,
                      char id[HG_ID_MAX], char token[65], bool *running);
  int (*create_finish)(void *ud, const char *id);
  int (*pause)(void *ud, const char *id);
  /* A paused or suspended sandbox runs again. One this node does not own
   * but holds a generation of becomes ours first, from our newest one
   * (-ENODATA: not the newest; -EBUSY: it runs elsewhere). */
  int (*resume)(void *ud, const char *id, char msg[256]);
  /* True when a resume of a sandbox the manager does not have may be
   * served here: this node holds a generation of it. */
  bool (*resumable)(void *ud, const char *id);
  /* Suspends to a new generation (*gen) and copies it to the sandbox's
   * holders: durability "replicated", "local" or NULL (the sandbox's
   * default). progress(pud, text) shows how far the copy is (may be NULL).
   * *report (new reference, NULL when nothing was copied; may be set on
   * failure too) says how the copy went. -EREMOTEIO: fewer holders
   * acknowledged than wanted (msg says who). */
  int (*suspend)(void *ud, const char *id, const char *durability,
                 void (*progress)(void *pud, const char *text), void *pud, uint64_t *gen,
                 json_t **report, char msg[256]);
  /* Checkpoints a running sandbox (DESIGN §9): a new generation (*gen)
   * taken without stopping it (the guest stands still *pause_ms), copied
   * to its holders under this node's lease, as a suspend's. *report as
   * suspend's (may be set on failure too). -EBUSY: not running, or a
   * checkpoint, suspend or delete of it is under way; -ENOLCK: this
   * node's lease on it is not valid now; -EREMOTEIO: fewer holders
   * acknowledged than wanted (msg says who). */
  int (*checkpoint)(void *ud, const char *id, uint64_t *gen, double *pause_ms,
                    json_t **report, char msg[256]);
  int (*snapshot)(void *ud, const char *id, char name[64]);
  /* A new sandbox from generation gen of id (0: a checkpoint now) or from
   * its disk snapshot; it starts with its parent's egress policy. */
  int (*fork)(void *ud, const char *id, uint64_t gen, const char *snapshot,
              char new_id[HG_ID_MAX], char new_token[65]);
  /* Deletes the sandbox and everything of it the node keeps (its egress
   * policy and log); also undoes a create_begin. */
  int (*remove)(void *ud, const char *id);
  /* This node's leases now (DESIGN §9): {"held", "fenced", "claiming",
   * "lost", "can_fail_over", "why"}; NULL when it keeps none. A new
   * reference; any thread. */
  json_t *(*leases)(void *ud);
} hg_api_work;

#endif
