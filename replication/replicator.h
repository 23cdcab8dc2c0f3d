/* replicator: replication as the node runs it (DESIGN §10), between the
 * sandbox manager, the cluster and the replication service.
 *
 * - After a suspend, the new generation goes to the sandbox's replicas - 1
 *   holders (rendezvous over the compatible live peers), in parallel; the
 *   directory entry lists the peers that acknowledged it.
 * - A resume sent to a holder adopts the sandbox there: its newest
 *   generation becomes the sandbox, owner and epoch + 1 go to the directory.
 * - A keeper thread, every tick: pushes templates to peers that lack them,
 *   hands back sandboxes another node took at a higher epoch (disown),
 *   restores the holder count of our suspended sandboxes when holders die
 *   or a replication failed, and deletes the replicas of deleted sandboxes.
 *
 * All calls block (network, btrfs) unless marked: worker threads. */
#ifndef HG_REPL_REPLICATOR_H
#define HG_REPL_REPLICATOR_H

#include <jansson.h>
#include <stdbool.h>
#include <stdint.h>

#include "cluster/cluster.h"
#include "node/sandbox.h"
#include "replication/repl.h"

typedef struct hg_replicator hg_replicator;

typedef struct hg_replicator_config {
  hg_repl *repl;
  hg_manager *manager;
  hg_cluster *cluster;   /* only its thread-safe calls are used */
  hg_store *store;
  const char *node_id;
  int tick_ms;           /* keeper period; 0: 2000 */
  /* Asks the sandbox's acceptor group whether id, of which we hold
   * replicas the directory no longer knows (its tombstone expired while
   * we were away), was deleted: 1 yes, 0 no, < 0 unknown (asked again
   * later). have: the group and epoch our newest replica records. May
   * block for seconds. NULL: such replicas are kept. */
  int (*ask_deleted)(void *ud, const char *id, const hg_sb_lease *have);
  void *ask_ud;
} hg_replicator_config;

int hg_replicator_start(const hg_replicator_config *cfg, hg_replicator **out);
/* Lets go of the cluster (calls in flight finish first; later ones see no
 * peers and no directory) and tells the keeper to stop: call before the
 * cluster closes. Does not wait for the keeper. */
void hg_replicator_detach(hg_replicator *rp);
/* Detaches, waits for the keeper's tick to end, and frees. No call may be
 * in flight. */
void hg_replicator_stop(hg_replicator *rp);

/* What the node's lifecycle (node/hangard/lifecycle.c) and the API ask. */

/* A suspend of id begins (on) or failed (off): the keeper leaves id alone
 * meanwhile, so the generation goes out once, by after_suspend, which
 * reports what it sent. */
void hg_replicator_keep_off(hg_replicator *rp, const char *id, bool on);
/* After a suspend took generation gen: copies it to the sandbox's holders.
 * durability "replicated", "local" or NULL (the default: the sandbox's
 * replica count, when peers can hold copies). progress(pud, text) shows
 * how far it is (may be NULL). *report (new reference, may be set on
 * failure too) is what an operation's result shows as "replication".
 * -EREMOTEIO when fewer peers acknowledged than wanted (msg says who). */
int hg_replicator_after_suspend(hg_replicator *rp, const char *id, uint64_t gen,
                                const char *durability,
                                void (*progress)(void *pud, const char *text), void *pud,
                                json_t **report, char msg[256]);
/* After a checkpoint took generation gen of a running sandbox: copies it
 * to the sandbox's holders as after_suspend does (durability: the
 * default). The directory entry's gen moves up to it only once a holder
 * acknowledged it (or at once when the sandbox keeps no copies), with
 * those holders: a failover never looks for a generation no live node
 * has. -EREMOTEIO when fewer acknowledged than wanted. */
int hg_replicator_after_checkpoint(hg_replicator *rp, const char *id, uint64_t gen,
                                   json_t **report, char msg[256]);
/* Moving a sandbox here (a resume sent to a node that does not own it),
 * in two steps around the lease (DESIGN §9):
 * move_view: 0 when it is ours already; 1 when it must move, with *view
 * what to claim it from: the highest epoch known (directory, local) and
 * the acceptor group our newest generation records. -ENODATA: we hold no
 * generation of it, or not the newest; -EBUSY: it runs on a live owner
 * (msg says which).
 * adopt: makes it ours from our newest generation, at epoch (the lease's,
 * just claimed). */
int hg_replicator_move_view(hg_replicator *rp, const char *id, hg_sb_lease *view,
                            char msg[256]);
int hg_replicator_adopt(hg_replicator *rp, const char *id, uint64_t epoch, char msg[256]);
/* True when we hold a generation of a sandbox the manager does not have:
 * a resume sent here is then accepted (and adopts). */
bool hg_replicator_holds(hg_replicator *rp, const char *id);
/* A sandbox token checked against our newest generation of it. */
bool hg_replicator_token_ok(hg_replicator *rp, const char *id, const char *token);
/* GET …/replicas: every holder's generations; new reference. */
int hg_replicator_replicas(hg_replicator *rp, const char *id, json_t **out, char msg[256]);
/* Where a resume goes: node is ?node= or NULL. 1: forward to target at
 * addr; 0: serve it here; < 0 with msg: -EHOSTDOWN the node named is not
 * alive, -ENOENT unknown node, -EHOSTUNREACH the owner is down and no
 * alive node holds the newest generation.
 * Loop-thread safe (directory and member lookups only). */
int hg_replicator_resume_at(hg_replicator *rp, const char *id, const char *node,
                            char target[HG_NODE_ID_MAX], char addr[HG_ADDR_MAX], char msg[256]);

/* Appends the replication service's Prometheus lines (hangar_repl_*).
 * Loop-thread safe. */
void hg_replicator_metrics(hg_replicator *rp, hg_buf *out);

/* One keeper pass now (tests, and the keeper thread itself). */
void hg_replicator_tick(hg_replicator *rp);

#endif
