/* libFuzzer target: lease batches from the network (cluster/lease_wire.c).
 * Whatever decodes is re-encoded, decodes again, and encodes to the same
 * bytes: the encoding of a decoded batch is canonical. */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "cluster/lease_wire.h"

static void check(int ok) {
  if (!ok) abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  hg_lease_batch b;
  if (hg_lease_batch_decode(data, size, &b) < 0) return 0;
  hg_buf one, two;
  hg_buf_init(&one, 1u << 24);
  hg_buf_init(&two, 1u << 24);
  check(hg_lease_batch_encode(&b, &one) == 0);
  hg_lease_batch again;
  check(hg_lease_batch_decode(one.data, one.len, &again) == 0);
  check(again.nreqs == b.nreqs && again.nreps == b.nreps && !strcmp(again.from, b.from));
  check(hg_lease_batch_encode(&again, &two) == 0);
  check(one.len == two.len && memcmp(one.data, two.data, one.len) == 0);
  hg_lease_batch_free(&again);
  hg_lease_batch_free(&b);
  hg_buf_free(&one);
  hg_buf_free(&two);
  return 0;
}
