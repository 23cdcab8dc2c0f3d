/* leases: this node's part in the lease protocol (DESIGN §9), on its loop:
 * the acceptor with its register on disk, the proposer with its timer, and
 * the batching between them and the transport.
 *
 * Everything the proposer sends within one turn of the loop leaves as one
 * batch per destination node (renewals of all the sandboxes a node holds
 * in an acceptor's groups: one message). Requests to this node's own
 * acceptor never touch the transport. Promises the acceptor changes are
 * group-committed by a flush on the thread pool; every reply waits for the
 * flush that covers the promises staged before it, then leaves in a batch.
 * A register that failed a write answers nothing more (logged once).
 *
 * Loop thread only. */
#ifndef HG_CLUSTER_LEASES_H
#define HG_CLUSTER_LEASES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <uv.h>

#include "cluster/lease.h"

typedef struct hg_leases hg_leases;

typedef struct hg_leases_cb {
  /* Sends an encoded batch (lease_wire) to node `to`; the transport seals
   * it and hands what arrives to hg_leases_receive. Loss is fine. */
  void (*send)(void *ud, const char *to, const void *data, size_t len);
  /* A lease's state, epoch or end changed (lease.h). */
  void (*changed)(void *ud, const char *sandbox, const hg_lease_info *info);
  void *ud;
} hg_leases_cb;

typedef struct hg_leases_config {
  const char *self;
  const char *register_path; /* <data>/state/leases.log */
  int64_t lease_ms;          /* 0: HG_LEASE_MS_DEFAULT */
  int64_t margin_ms;         /* 0: HG_LEASE_MARGIN_MS_DEFAULT */
  size_t max_batch_bytes;    /* one encoded batch at most (a datagram); 0: 4 MiB */
  hg_leases_cb cb;
} hg_leases_config;

typedef struct hg_leases_stats {
  uint64_t batches_sent, bytes_sent, batches_received, bytes_received;
  uint64_t dropped_malformed; /* batches that did not decode */
  uint64_t flushes, promises; /* register flushes, promises staged */
} hg_leases_stats;

/* Opens the register (replaying it: the acceptor's restart rule starts
 * now) and starts the renewal timer. */
int hg_leases_open(uv_loop_t *loop, const hg_leases_config *cfg, hg_leases **out);
/* Stops; done runs once no work is out (a flush in progress finishes). */
void hg_leases_close(hg_leases *l, void (*done)(void *ud), void *ud);
/* A batch from the transport. Malformed ones are counted and dropped. */
void hg_leases_receive(hg_leases *l, const void *data, size_t len);

/* The proposer's calls (lease.h), sending what they start at once. */
int hg_leases_claim(hg_leases *l, const char *sandbox, const hg_lease_conf *conf,
                    uint64_t min_epoch, bool deleting);
/* Renews sandbox at the epoch this node held it at (lease.h,
 * hg_lease_recover; vm: a VM of it ran here). */
int hg_leases_recover(hg_leases *l, const char *sandbox, const hg_lease_conf *conf,
                      uint64_t epoch, bool vm);
int hg_leases_query(hg_leases *l, const char *sandbox, const hg_lease_conf *conf,
                    uint64_t epoch);
int hg_leases_change_group(hg_leases *l, const char *sandbox, const hg_lease_group *next);
void hg_leases_release(hg_leases *l, const char *sandbox);
int hg_leases_info(const hg_leases *l, const char *sandbox, hg_lease_info *out);
bool hg_leases_valid(const hg_leases *l, const char *sandbox);
void hg_leases_get_stats(const hg_leases *l, hg_leases_stats *out);

#endif
