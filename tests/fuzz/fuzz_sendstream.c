/* fuzz_sendstream: arbitrary bytes as a decompressed btrfs send stream from
 * a peer. The checker must give the same verdict whether the bytes come at
 * once or in pieces (sizes drawn from the input itself), stay within what
 * it was fed (ASan), and accept only streams whose every command's crc32c
 * holds: a verdict of "whole" is rechecked here by walking the commands.
 *
 *   fuzz_sendstream -max_total_time=20 corpus/
 */
#include <stdint.h>
#include <string.h>

#include "replication/sendstream.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static uint32_t le32(const uint8_t *p) {
  return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

/* An independent walk over a stream the checker accepted. */
static void recheck(const uint8_t *data, size_t size) {
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

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  hg_sendstream_check whole, pieces;
  hg_sendstream_check_init(&whole);
  hg_sendstream_check_init(&pieces);
  int vw = hg_sendstream_check_feed(&whole, data, size);
  if (vw == 0) vw = hg_sendstream_check_end(&whole);
  int vp = 0;
  for (size_t i = 0, k = 0; i < size && vp == 0; k++) {
    size_t c = 1 + data[k % size] % 37;
    if (c > size - i) c = size - i;
    vp = hg_sendstream_check_feed(&pieces, data + i, c);
    i += c;
  }
  if (vp == 0) vp = hg_sendstream_check_end(&pieces);
  if (vw != vp) __builtin_trap();
  if (vw == 0) recheck(data, size);
  return 0;
}
