/* regain: what becomes of a running copy of ours whose lease went to a
 * rival (DESIGN §9). A majority of the sandbox's group promised another
 * node a higher epoch, so our VM is fenced (its shim stopped it) and must
 * not run on. But a promise is not a lease: the rival's claim may never
 * hold (in a group of two, the member that promised it was the only one
 * it reached while we restarted, and it gave up), and orphaning our copy
 * then would lose the sandbox: nobody runs it, and the directory, written
 * only by a lease holder, still names us (chaos seed 2). So the copy stays
 * here, fenced, and a thread of its own looks at it again and again until
 * one of two things happens:
 *   - the directory names another owner at an epoch above ours: that node
 *     holds it; ours goes to orphans/ (hg_sandbox_orphan);
 *   - this node is granted the lease again (hg_life_regain, a claim above
 *     the rival's promise, granted once the rival's lease window passed
 *     with nobody renewing): the same VM continues, at the new epoch.
 * The first claim waits until the rival's claim must have ended (won, so
 * the directory soon names it, or given up). A claim never takes a lease
 * its holder renews, so a rival that did win is never fenced by this. A copy that left (deleted, orphaned, suspended
 * by hand) is forgotten. Tries back off from 1 s to 10 s, one sandbox at
 * a time (each may wait out a lease window: seconds). */
#ifndef HG_HANGARD_REGAIN_H
#define HG_HANGARD_REGAIN_H

#include <stdbool.h>
#include <stdint.h>

#include "node/core/ident.h"
#include "node/hangard/lifecycle.h"
#include "node/sandbox.h"

typedef struct hg_regain hg_regain;

typedef struct hg_regain_config {
  /* Whether the directory names an owner other than this node for id at
   * an epoch above `epoch`: that owner and its epoch. From the thread. */
  bool (*taken)(void *ud, const char *id, uint64_t epoch, char owner[HG_NODE_ID_MAX],
                uint64_t *owner_epoch);
  /* Orphans our copy (hg_sandbox_orphan, as the node does it: under the
   * sandbox's replication hold). From the thread; required. */
  int (*orphan)(void *ud, const char *id, uint64_t epoch, const char *reason);
  void *ud;
  /* No claim of ours before this long after the loss (the directory is
   * looked at every second meanwhile): a claim's whole wait, after which
   * the rival has won (and adopted) or given up. */
  int64_t settle_ms;
} hg_regain_config;

/* Before the leases open (a lease may be lost as soon as the manager
 * recovers its VMs); nothing is looked at before hg_regain_attach. */
int hg_regain_start(const hg_regain_config *cfg, hg_regain **out);
void hg_regain_attach(hg_regain *r, hg_manager *manager, hg_life *life);
/* id's lease was lost while its VM ran here. Any thread. -ENOSPC with
 * 4096 waiting already, -ENOMEM: not kept (the caller orphans it). */
int hg_regain_add(hg_regain *r, const char *id);
/* Copies waiting now (for GET /v1/node). Any thread. */
unsigned hg_regain_waiting(hg_regain *r);
/* Joins the thread (after the look under way; a take fails fast once the
 * leases closed). hg_regain_add still takes ids after (they wait for the
 * next start's recovery). NULL is fine. */
void hg_regain_stop(hg_regain *r);
void hg_regain_free(hg_regain *r);

#endif
