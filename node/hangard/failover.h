/* failover: this node's part in taking over a dead node's sandboxes
 * (DESIGN §9 "Failover"). When gossip declares a member dead (and every
 * few seconds after, so a failed or lost attempt is tried again), each
 * survivor reads the directory: for every sandbox the dead node owned, the
 * survivor chosen by rendezvous over the alive (or only suspect) holders
 * of its newest replicated generation (weighted by their memory, so load spreads by
 * capacity; every survivor computes the same choice) takes it through
 * hg_life_failover_take, and a sandbox that ran there runs again
 * (hg_life_failover_run); a suspended one stays suspended here. The lease decides if two survivors disagree (a
 * view not yet converged): one claim wins.
 *
 * Both steps run on the loop's workers: up to HG_FAILOVER_TAKERS takes at
 * a time (they mostly wait on the lease group and the adoption records'
 * commits; the claims of all of a scan's sandboxes go out ahead of them,
 * together, in the same batches), and at most
 * `workers` VM restores; the loop only reads the directory and queues. A sandbox whose newest
 * generation no alive node holds is stranded: logged once, counted, and
 * listed (hg_failover_status), never dropped.
 *
 * For 30 s after start only deaths seen happen count: swim lists the
 * roster's members as dead until it reaches them, and a node that just
 * restarted must not take what live owners hold.
 *
 * A node that left gracefully is not dead: its VMs run on (fenced when its
 * leases lapse) until it comes back. */
#ifndef HG_HANGARD_FAILOVER_H
#define HG_HANGARD_FAILOVER_H

#include <jansson.h>
#include <stdbool.h>
#include <uv.h>

#include "cluster/cluster.h"
#include "node/hangard/lifecycle.h"

/* The loop's pool must hold this many workers beyond everything else's
 * (hangard.h's THREADPOOL_SIZE). */
#define HG_FAILOVER_TAKERS 256

typedef struct hg_failover hg_failover;

typedef struct hg_failover_config {
  uv_loop_t *loop;
  hg_cluster *cluster; /* the loop's handle */
  hg_life *life;
  const char *self;
  unsigned workers;    /* VM restores at a time; 0: by this host's CPUs (1 to 8) */
} hg_failover_config;

/* On the loop, after the lifecycle exists and before gossip starts. */
int hg_failover_open(const hg_failover_config *cfg, hg_failover **out);
/* On the loop: no new restores start; those running finish on their
 * workers (the loop runs until they did). Then frees. */
void hg_failover_close(hg_failover *f);

/* The "was it running" decision: what the dead owner last said of the
 * sandbox (its directory state). A sandbox that ran runs again after its
 * failover; any other stays suspended. */
bool hg_failover_was_running(const char *dir_state);

/* {"on": true, "queued", "restoring", "restored", "failed",
 * "stranded_count", "stranded": [{"sandbox", "owner", "gen", "since"}],
 * "retrying_count", "retrying": [{"sandbox", "step", "error", "message"}]}
 * for GET /v1/node; retrying: chosen here, its take failed, tried again
 * every 10 s (a sandbox whose acceptor group has no majority left waits
 * there).
 * Loop thread. New reference. */
json_t *hg_failover_status(hg_failover *f);

#endif
