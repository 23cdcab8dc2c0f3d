/* lease_wire: the msgpack encoding of lease messages and promises.
 *
 * One batch carries a node's requests to one acceptor, or an acceptor's
 * replies to one proposer (renewals are batched per acceptor: one message
 * for all the sandboxes a node holds in that acceptor's groups). The same
 * promise encoding is what the lease register (lease_register.h) writes.
 *
 * Every byte decoded here came from the network or the disk: the decoder
 * checks every type and length, bounds the batch by HG_LEASE_BATCH_ITEMS,
 * requires NUL-free strings that fit their fields and configurations that
 * hg_lease_conf_check accepts; anything else is -EPROTO. */
#ifndef HG_CLUSTER_LEASE_WIRE_H
#define HG_CLUSTER_LEASE_WIRE_H

#include <msgpack.h>
#include <stddef.h>

#include "cluster/lease.h"
#include "node/core/buf.h"

#define HG_LEASE_BATCH_ITEMS 8192

typedef struct hg_lease_batch {
  char from[HG_NODE_ID_MAX];
  hg_lease_req *reqs;
  size_t nreqs;
  hg_lease_reply *reps;
  size_t nreps;
} hg_lease_batch;

/* Appends the encoding of b to out: 0 or -ENOMEM, -EINVAL over the limit. */
int hg_lease_batch_encode(const hg_lease_batch *b, hg_buf *out);
/* Decodes data into *out, whose arrays it allocates (hg_lease_batch_free). */
int hg_lease_batch_decode(const void *data, size_t len, hg_lease_batch *out);
void hg_lease_batch_free(hg_lease_batch *b);

/* A promise as one msgpack map, for the register. */
void hg_lease_pack_promise(msgpack_packer *pk, const char *sandbox,
                           const hg_lease_promise *p);
int hg_lease_unpack_promise(const msgpack_object *o, char sandbox[HG_ID_MAX],
                            hg_lease_promise *p);

#endif
