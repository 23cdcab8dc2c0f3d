/* leasing: this node's leases (DESIGN §9) as the rest of hangard uses
 * them. It runs cluster/leases.h on the loop, carries its batches over the
 * cluster's sealed datagrams, and gives the sandbox workers blocking calls:
 * take a sandbox's lease before a VM of it starts, give it back when the
 * VM stops for good. Every grant moves the VM's fencing deadline (its
 * shim's), so a VM runs only while this node's lease on it does; a lease
 * lost to a higher epoch stops the VM and hands the sandbox to on_lost.
 *
 * Without a cluster each sandbox's group is this node alone: the same
 * path, no network. */
#ifndef HG_HANGARD_LEASING_H
#define HG_HANGARD_LEASING_H

#include <stdbool.h>
#include <stdint.h>
#include <uv.h>

#include "cluster/cluster.h"
#include "cluster/lease.h"
#include "node/sandbox.h"

typedef struct hg_leasing hg_leasing;

typedef struct hg_leasing_config {
  uv_loop_t *loop;
  const char *self;
  const char *register_path; /* <data>/state/leases.log */
  int64_t lease_ms, margin_ms;
  unsigned acceptors;   /* group size at create: 3 or 5 */
  /* A member dead this long is replaced (a suspended sandbox's group too:
   * its owner claims its lease for the change); 0: 600 s. */
  int64_t dead_member_ms;
  int64_t ahead_max_ms;   /* a claim ahead no take came for this long goes; 0: 60 s */
  hg_cluster *cluster;  /* NULL: alone; the loop's handle (sends, membership) */
  /* A lease this node held went to another node at a higher epoch (a
   * majority of its group promised that node, which may or may not go on
   * to hold it), or, deleted, the sandbox was deleted through its group
   * while we were away: the VM was fenced already. The next take of id
   * claims above the epoch seen. Called on the fencer's thread. */
  void (*on_lost)(void *ud, const char *id, uint64_t epoch, const char *holder,
                  bool deleted);
  void *ud;
} hg_leasing_config;

typedef struct hg_leasing_stats {
  unsigned held;     /* leases held and valid now */
  unsigned fenced;   /* held, but past their end: the shim stopped the VM */
  unsigned claiming; /* claims in flight */
  uint64_t lost;     /* leases lost to another node since start */
} hg_leasing_stats;

/* On the loop, before the manager opens (its VM starts ask for leases). */
int hg_leasing_open(const hg_leasing_config *cfg, hg_leasing **out);
/* The manager whose VMs' deadlines follow the leases; then takes up the
 * leases of the sandboxes that run here (after a restart: their VMs stay
 * fenced until a majority grants again). */
void hg_leasing_attach(hg_leasing *l, hg_manager *m);
/* On the loop; done when the lease service closed. VMs keep their last
 * deadline (they fence when it passes). */
void hg_leasing_close(hg_leasing *l, void (*done)(void *ud), void *ud);
void hg_leasing_free(hg_leasing *l);

/* The manager's lease hook (node/sandbox.h): blocks a worker until this
 * node holds id's lease (held already: at once). how: NEW, claimed at
 * epoch 1 with a new group; OWN, renewed at have->epoch from have's group;
 * MOVE, claimed above have->epoch from have's group (a stale view is
 * fine). -ESTALE: another node holds it at a higher epoch; -EBUSY: its
 * lease is live elsewhere (msg says whose); -ENOLCK: no majority of its
 * group answered in time (no_quorum); -ENOENT: it was deleted. */
int hg_leasing_take(hg_leasing *l, const char *id, hg_sb_take how, const hg_sb_lease *have,
                    hg_sb_lease *out, char msg[256]);
/* Starts, without waiting, the claim a take(MOVE, have) of id would make
 * (a failover's: hundreds of them go out in the same batches, and the
 * acceptors' flushes, instead of a few at a time behind the takers). The
 * next take of id waits for this claim's outcome rather than claiming
 * again: held, it returns at once; lost, -ESTALE. Nothing if id's lease
 * is held, claimed or lost here already. A claim ahead no take comes for
 * is given back after ahead_max_ms (checked every 5 s). Any thread. */
int hg_leasing_claim_ahead(hg_leasing *l, const char *id, const hg_sb_lease *have);
/* Asks id's group (have: the group and epoch a replica here records)
 * whether id was deleted, for a replica the directory has forgotten: 1
 * deleted, 0 not (or leased here), -ENOLCK: no quorum answered in time.
 * Blocks up to 2 (T + margin). */
int hg_leasing_deleted(hg_leasing *l, const char *id, const hg_sb_lease *have);
/* Deletes through the group (a claim that records "deleted"), so a
 * holder away for days learns of it; then stops renewing. */
int hg_leasing_delete(hg_leasing *l, const char *id, const hg_sb_lease *have,
                      char msg[256]);
/* The VM stopped for good (suspend, delete): no more renewals. */
void hg_leasing_drop(hg_leasing *l, const char *id);
/* True while this node holds id's lease at epoch and it has not run out:
 * what a checkpoint's replication goes on under. With wait_ms > 0, a
 * lease still held here but run out (its renewals came late: the VM is
 * fenced until the next one lands) is waited for that long. Any thread. */
bool hg_leasing_valid(hg_leasing *l, const char *id, uint64_t epoch, int64_t wait_ms);
void hg_leasing_get_stats(hg_leasing *l, hg_leasing_stats *out);
/* Whether this node could lose a member and still grant: groups of 3+. */
bool hg_leasing_can_fail_over(hg_leasing *l);

#endif
