/* lifecycle: the one place each operation on a sandbox (create, pause,
 * resume, suspend, checkpoint, snapshot, fork, delete, failover)
 * is sequenced across the sandbox manager (node/sandbox.h), the gateway
 * (gateway/gateway.h) and the replicator (replication/replicator.h),
 * whoever asks: the API through hg_api_work (api/work.h), the idle timer
 * through hg_life_idle, the checkpoint timer through hg_life_checkpoints.
 * A checkpoint, a suspend and a delete of one sandbox never overlap (a
 * checkpoint's replication runs after the manager let go of it); a delete
 * holds the sandbox in the replication service (hg_repl_hold), so no send
 * or receive of it here is in flight while its generations go. A resume
 * takes the sandbox's lease (DESIGN §9) first, a suspend gives it back, a
 * delete goes through its group; the manager's own lease hook covers the
 * VM starts inside create and fork.
 *
 * It owns nothing but itself: the subsystems are the node's. Calls block
 * and run on workers (as hg_api_work says). */
#ifndef HG_HANGARD_LIFECYCLE_H
#define HG_HANGARD_LIFECYCLE_H

#include "api/work.h"
#include "gateway/gateway.h"
#include "node/sandbox.h"
#include "replication/repl.h"
#include "replication/replicator.h"

typedef struct hg_life hg_life;

/* The leases (node/hangard/leasing.h) as lifecycle asks for them: take
 * before a VM starts, delete through the group, drop once the VM stopped
 * for good. Errors: -ESTALE (another node holds it), -EBUSY (its lease is
 * live elsewhere), -ENOLCK (no majority answered), msg says which. */
typedef struct hg_life_leases {
  int (*take)(void *ud, const char *id, hg_sb_take how, const hg_sb_lease *have,
              hg_sb_lease *out, char msg[256]);
  int (*remove)(void *ud, const char *id, const hg_sb_lease *have, char msg[256]);
  void (*drop)(void *ud, const char *id);
  /* hg_leasing_claim_ahead; NULL: takes claim as they come. */
  int (*claim_ahead)(void *ud, const char *id, const hg_sb_lease *have);
  json_t *(*status)(void *ud); /* hg_api_work's leases */
  /* True while this node's lease on id at epoch is valid (a checkpoint
   * is taken and copied only then); with wait_ms > 0, one still held here
   * but run out (renewals late, the VM fenced until the next lands) is
   * waited for that long. NULL: always. */
  bool (*valid)(void *ud, const char *id, uint64_t epoch, int64_t wait_ms);
  void *ud;
} hg_life_leases;

typedef struct hg_life_config {
  hg_manager *manager;       /* required */
  hg_gateway *gateway;       /* NULL: no networking */
  hg_replicator *replicator; /* NULL: no replication (no cluster) */
  hg_repl *repl;             /* its service, whose hold a delete takes; NULL: none */
  const hg_life_leases *leases; /* NULL: no leases */
} hg_life_config;

int hg_life_new(const hg_life_config *cfg, hg_life **out);
void hg_life_free(hg_life *l);

/* The API's view; valid while l lives. */
const hg_api_work *hg_life_work(hg_life *l);

/* Suspends every sandbox idle longer than its idle_suspend_s, as the API's
 * suspend does (a new generation, copied to its holders). A worker; call
 * periodically. */
void hg_life_idle(hg_life *l);

/* Checkpoints every running sandbox whose checkpoint_s has passed
 * (hg_manager_checkpoints_due), one after the other, as the API's
 * checkpoint does. A worker; call about every second, one pass at a time. */
void hg_life_checkpoints(hg_life *l);

/* Failover (DESIGN §9 "Failover") in two steps, so that a dead node's
 * many claims go out together while its VMs start a few at a time.
 *
 * hg_life_failover_take: id's owner is dead and this node was chosen to
 * take it. Claims its lease (the claim waits out the dead owner's lease by
 * itself) and adopts our newest generation of it at the new epoch (the
 * directory then names us). When run, the lease stays held for
 * hg_life_failover_run; else it is given back as a suspend gives it back
 * and the sandbox stays suspended here. 1 when it is ours already and not
 * suspended (nothing to do), 0 taken. Blocks (seconds): a worker. Errors
 * as a resume's (-ESTALE another node took it, -EBUSY its lease is live,
 * -ENOLCK no majority, -ENODATA we do not hold its newest generation), msg
 * says why.
 *
 * hg_life_failover_run: resumes what hg_life_failover_take(run) took; on
 * failure the lease goes (ours and suspended: a resume may follow). */
int hg_life_failover_take(hg_life *l, const char *id, bool run, char msg[256]);
/* Starts the claim hg_life_failover_take(id) will make, without waiting
 * (leases' claim_ahead): a failover's claims go out together. Nothing when
 * id is here already or no replica here records it. Reads a replica's
 * record: a worker. */
void hg_life_failover_claim_ahead(hg_life *l, const char *id);
int hg_life_failover_run(hg_life *l, const char *id, char msg[256]);

/* Takes the lease of id, running (or paused) here with its VM fenced
 * since a rival was promised it (node/hangard/regain.h), again: claimed
 * above that promise, it is granted once the rival's lease window has
 * passed unless the rival holds it. The sandbox then records the new
 * epoch (the directory follows) and the same VM continues. -EINVAL not
 * running or paused here; errors as a resume's take; msg says why.
 * Blocks (seconds): a worker. */
int hg_life_regain(hg_life *l, const char *id, char msg[256]);

#endif
