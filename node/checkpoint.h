/* checkpoint: the rules of checkpoints (DESIGN §6, §9) that the API, the
 * sandbox manager, the replication service and the tests share: the
 * interval a sandbox may ask for, which generations retention may delete,
 * and what a generation records of the VM it was taken from.
 *
 * A checkpoint is a generation of a running sandbox taken without stopping
 * it (pause, save device state, snapshot the subvolume, continue); the
 * manager takes it (hg_sandbox_checkpoint), node/hangard's lifecycle
 * replicates it under the lease. */
#ifndef HG_NODE_CHECKPOINT_H
#define HG_NODE_CHECKPOINT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "node/store.h"

#define HG_CKPT_MIN_S 2      /* shorter: the pauses and increments would be the workload */
#define HG_CKPT_MAX_S 86400
#define HG_CKPT_KEEP_DEFAULT 3

/* A checkpoint interval as a create request or --checkpoint-s gives it:
 * 0 (off) or HG_CKPT_MIN_S..HG_CKPT_MAX_S seconds. -EINVAL with msg (128
 * bytes: "must be …", for the caller to prefix with the field) saying so. */
int hg_ckpt_interval_check(int64_t s, char msg[128]);

/* One generation as retention sees it. */
typedef struct hg_gen_ref {
  uint64_t gen;
  bool checkpoint; /* taken by a checkpoint (the others: suspends, kept) */
} hg_gen_ref;

/* Which generations retention deletes: of those marked checkpoint, all
 * but the newest keep (keep >= 1; 0 counts as 1), and never one of
 * pinned (the newest generation, the one the sandbox's holders are known
 * to have: the parent of the next increment, so the chain a peer needs
 * stays whole). gens in any order. Writes up to cap gen numbers to drop,
 * returns how many. Pure: the caller deletes. */
size_t hg_gen_retain_plan(const hg_gen_ref *gens, size_t n, unsigned keep,
                          const uint64_t *pinned, size_t npinned, uint64_t *drop,
                          size_t cap);

/* Whether the generation at gen_rel (store-relative, e.g.
 * "replicas/<id>/<gen>") was taken from a running VM (a checkpoint of a
 * running sandbox: a restore should start it running) or not (a suspend,
 * or a checkpoint of a paused one). Reads its sandbox.json: -ENOENT no
 * such generation, -EPROTO a record that is not one. */
int hg_sandbox_gen_running(hg_store *store, const char *gen_rel, bool *running);

#endif
