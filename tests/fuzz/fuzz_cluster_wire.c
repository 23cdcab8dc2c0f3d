/* libFuzzer target: bytes from the network into the cluster's decoders.
 * The first byte picks the decoder:
 *   0 hg_wire_decode, UDP limits     1 hg_wire_decode, TCP limits
 *   2 hg_node_meta_decode            3 hg_dirent_decode
 *   4 hg_unseal with a fixed key (cluster "fuzz", key bytes 0..31), and when
 *     it opens, hg_wire_decode of the plaintext
 * Whatever decodes is re-encoded and must decode again to the same thing. */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "cluster/meta.h"
#include "cluster/seal.h"
#include "cluster/wire.h"

static void check(int ok) {
  if (!ok) abort();
}

/* Round trip of what decoded: the encoder accepts it, and the sizes bound it. */
static void reencode(const hg_wire_msg *m, size_t max_items) {
  hg_buf b;
  hg_buf_init(&b, HG_WIRE_TCP_MAX);
  check(hg_wire_encode(m, &b) == 0);
  size_t bound = hg_wire_header_size(m);
  for (size_t i = 0; i < m->nmembers; i++) bound += hg_wire_member_size(&m->members[i]);
  for (size_t i = 0; i < m->nusers; i++) bound += hg_wire_user_size(&m->users[i]);
  check(b.len <= bound);
  hg_wire_msg again;
  check(hg_wire_decode(b.data, b.len, max_items, &again) == 0);
  check(again.type == m->type && again.nmembers == m->nmembers &&
        again.nusers == m->nusers && again.pkt_seq == m->pkt_seq &&
        strcmp(again.from, m->from) == 0);
  for (size_t i = 0; i < m->nmembers; i++)
    check(again.members[i].meta_len == m->members[i].meta_len &&
          strcmp(again.members[i].id, m->members[i].id) == 0);
  hg_wire_msg_free(&again);
  hg_buf_free(&b);
}

static void wire(const uint8_t *data, size_t size, size_t max_items) {
  hg_wire_msg m;
  if (hg_wire_decode(data, size, max_items, &m) < 0) return;
  check(m.nmembers + m.nusers <= max_items);
  reencode(&m, max_items);
  hg_wire_msg_free(&m);
}

static void meta(const uint8_t *data, size_t size) {
  hg_node_meta m, again;
  uint8_t buf[HG_WIRE_META_MAX];
  size_t len;
  if (hg_node_meta_decode(data, size, &m) < 0) return;
  check(m.ntemplates <= HG_META_TEMPLATES && m.nlabels <= HG_META_LABELS);
  /* what came in HG_WIRE_META_MAX bytes fits them again */
  check(hg_node_meta_encode(&m, buf, sizeof buf, &len) == 0);
  check(hg_node_meta_decode(buf, len, &again) == 0 && strcmp(again.id, m.id) == 0);
}

static void dirent(const uint8_t *data, size_t size) {
  hg_dirent e, again;
  uint8_t buf[HG_WIRE_USER_MAX];
  size_t len;
  if (hg_dirent_decode(data, size, &e) < 0) return;
  check(e.nholders <= HG_DIR_HOLDERS);
  check(hg_dirent_encode(&e, buf, sizeof buf, &len) == 0);
  check(hg_dirent_decode(buf, len, &again) == 0 && hg_dirent_cmp(&e, &again) == 0);
}

static hg_keyring *fuzz_ring(void) {
  static hg_keyring *kr;
  if (!kr) {
    uint8_t key[HG_SEAL_KEY_LEN];
    for (int i = 0; i < HG_SEAL_KEY_LEN; i++) key[i] = (uint8_t)i;
    check(hg_keyring_new("fuzz", &kr) == 0 && hg_keyring_add(kr, key) == 0);
  }
  return kr;
}

static void sealed(const uint8_t *data, size_t size) {
  uint8_t *plain = malloc(size ? size : 1);
  size_t len;
  if (plain && hg_unseal(fuzz_ring(), data, size, plain, size, &len) == 0)
    wire(plain, len, HG_WIRE_UDP_ITEMS);
  free(plain);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  if (size == 0) return 0;
  uint8_t sel = data[0] % 5;
  data++;
  size--;
  switch (sel) {
    case 0:
      if (size <= HG_WIRE_UDP_MAX) wire(data, size, HG_WIRE_UDP_ITEMS);
      break;
    case 1:
      wire(data, size, HG_WIRE_TCP_ITEMS);
      break;
    case 2:
      meta(data, size);
      break;
    case 3:
      dirent(data, size);
      break;
    case 4:
      sealed(data, size);
      break;
  }
  return 0;
}
