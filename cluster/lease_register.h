/* lease_register: an acceptor's promises on disk, the lease register of
 * DESIGN §9 (<data>/state/leases.log).
 *
 * An append-only log of records
 *   u32 LE payload length | u32 LE crc32c of the payload | payload
 * where the payload is one promise as lease_wire packs it; the newest
 * record of a sandbox wins. Promises are staged as the acceptor makes them
 * and written by a flush: one write and one fdatasync for everything staged
 * since the last (group commit). A reply that depends on a promise leaves
 * only after a flush that covers its ticket. When the log holds over 4x its
 * live records (and over 1 MiB) a flush rewrites it with the newest promise
 * of each sandbox and renames it over the old one.
 *
 * Opening replays the log. A record cut short at the end, or a damaged last
 * record, is a write a crash interrupted: never acknowledged, so it is cut
 * off. A damaged record before the end is -EIO, its offset logged: a lost
 * promise could let through a claim the acceptor refused, so it does not
 * start on a guess. After a failed fdatasync, or a write that failed for
 * another reason than a full disk, the register refuses everything (-EIO):
 * what the kernel kept of the failed pages is unknown. A write that found
 * the disk full (-ENOSPC) is cut back to the last whole record and what it
 * held is written by the next flush with room: until then nothing staged
 * since is durable, so no reply that depends on it leaves.
 *
 * stage and flush are thread-safe (the loop stages, a worker flushes;
 * flushes run one at a time, in ticket order). */
#ifndef HG_CLUSTER_LEASE_REGISTER_H
#define HG_CLUSTER_LEASE_REGISTER_H

#include <stdint.h>

#include "cluster/lease.h"

#define HG_LEASE_REGISTER_MAX (512u << 20) /* bytes of log replayed at open */

typedef struct hg_lease_register hg_lease_register;

/* Opens (creating) the log at path and replays it. -EIO damaged, -EFBIG
 * over HG_LEASE_REGISTER_MAX, or what open/read said. */
int hg_lease_register_open(const char *path, hg_lease_register **out);
void hg_lease_register_close(hg_lease_register *r);
/* Calls fn with the newest promise of each sandbox, staged ones included;
 * stops at fn's first nonzero return and returns it. */
int hg_lease_register_foreach(hg_lease_register *r,
                              int (*fn)(void *ud, const char *sandbox,
                                        const hg_lease_promise *p),
                              void *ud);
/* Stages a promise; *ticket is the flush ticket that covers it. */
int hg_lease_register_stage(hg_lease_register *r, const char *sandbox,
                            const hg_lease_promise *p, uint64_t *ticket);
/* Writes and fdatasyncs what is staged. On return every ticket up to
 * *durable is on disk. -ENOSPC: the disk is full, nothing new is durable,
 * call again later; any other error: broken for good. */
int hg_lease_register_flush(hg_lease_register *r, uint64_t *durable);

#endif
