/* fuzz_sendstream: arbitrary bytes as a decompressed btrfs send stream from
 * a peer, through the checker and its TLV parser. The checker must give
 * the same verdict, and let through the same bytes, whether the input
 * comes at once or in pieces (sizes drawn from the input itself); stay
 * within what it was fed (ASan); let through only a prefix of the input
 * made of the header and whole commands whose crc32c holds; and let
 * through all of it exactly when it accepts. Half the inputs run under a
 * policy with an agreed parent, so SNAPSHOT and CLONE paths are reached.
 *
 *   fuzz_sendstream -max_total_time=20 corpus/
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "replication/sendstream.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

typedef struct sink {
  uint8_t *out;
  size_t len, cap;
} sink;

static int collect(void *ud, const void *p, size_t len) {
  sink *k = ud;
  if (len > k->cap - k->len) __builtin_trap(); /* more than it was fed */
  memcpy(k->out + k->len, p, len);
  k->len += len;
  return 0;
}

static uint32_t le32(const uint8_t *p) {
  return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 |
         (uint32_t)p[3] << 24;
}

/* An independent walk over what the checker let through. */
static void recheck(const uint8_t *data, size_t size) {
  if (size == 0) return;
  if (size < 17) __builtin_trap();
  size_t at = 17;
  uint8_t hdr[10];
  while (at + 10 <= size) {
    uint32_t len = le32(data + at);
    if (len > size - at - 10) __builtin_trap();
    memcpy(hdr, data + at, 10);
    memset(hdr + 6, 0, 4);
    uint32_t crc = hg_crc32c(hg_crc32c(0, hdr, 10), data + at + 10, len);
    if (crc != le32(data + at + 6)) __builtin_trap();
    at += 10 + len;
  }
  if (at != size) __builtin_trap();
}

static int check(const uint8_t *data, size_t size, const hg_sendstream_policy *p,
                 size_t piece_seed, sink *k) {
  static hg_sendstream_check c; /* 64 KiB: not on the stack */
  k->len = 0;
  if (hg_sendstream_check_init(&c, p, collect, k) < 0) __builtin_trap();
  int v = 0;
  for (size_t i = 0, n = 0; i < size && v == 0; n++) {
    size_t len = piece_seed ? 1 + data[(n * piece_seed) % size] % 37 : size;
    if (len > size - i) len = size - i;
    v = hg_sendstream_check_feed(&c, data + i, len);
    i += len;
  }
  if (v == 0) v = hg_sendstream_check_end(&c);
  hg_sendstream_check_free(&c);
  return v;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  hg_sendstream_policy agreed = {.parent_uuid = "00000000-0000-0000-0000-000000000000",
                                 .name = "1"};
  const hg_sendstream_policy *p = size && (data[size - 1] & 1) ? &agreed : NULL;
  sink whole = {malloc(size + 1), 0, size}, pieces = {malloc(size + 1), 0, size};
  if (!whole.out || !pieces.out) abort();
  int vw = check(data, size, p, 0, &whole);
  int vp = check(data, size, p, 1, &pieces);
  if (vw != vp || whole.len != pieces.len || memcmp(whole.out, pieces.out, whole.len))
    __builtin_trap();
  if (memcmp(whole.out, data, whole.len)) __builtin_trap(); /* a prefix of the input */
  recheck(whole.out, whole.len);
  if (vw == 0 && whole.len != size) __builtin_trap();
  free(whole.out);
  free(pieces.out);
  return 0;
}
