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
} hg_replicator_config;

int hg_replicator_start(const hg_replicator_config *cfg, hg_replicator **out);
/* Lets go of the cluster (calls in flight finish first; later ones see no
 * peers and no directory) and tells the keeper to stop: call before the
 * cluster closes. Does not wait for the keeper. */
void hg_replicator_detach(hg_replicator *rp);
/* Detaches, waits for the keeper's tick to end, and frees. No call may be
 * in flight. */
void hg_replicator_stop(hg_replicator *rp);

/* The hg_api_repl calls (api/api.h), with their contracts. */
int hg_replicator_after_suspend(hg_replicator *rp, const char *id, uint64_t gen,
                                const char *durability,
                                void (*progress)(void *pud, const char *text), void *pud,
                                json_t **report, char msg[256]);
int hg_replicator_adopt(hg_replicator *rp, const char *id, char msg[256]);
bool hg_replicator_holds(hg_replicator *rp, const char *id);
bool hg_replicator_token_ok(hg_replicator *rp, const char *id, const char *token);
int hg_replicator_replicas(hg_replicator *rp, const char *id, json_t **out, char msg[256]);
/* Loop-thread safe (directory and member lookups only). */
int hg_replicator_resume_at(hg_replicator *rp, const char *id, const char *node,
                            char target[HG_NODE_ID_MAX], char addr[HG_ADDR_MAX], char msg[256]);

/* One keeper pass now (tests, and the keeper thread itself). */
void hg_replicator_tick(hg_replicator *rp);

#endif
