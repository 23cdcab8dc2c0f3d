/* crc32c: CRC-32C (Castagnoli), as btrfs send streams and the lease
 * register carry it (see crc32c.h). */
#include "node/core/crc32c.h"

#include <pthread.h>
#include <stdbool.h>
#include <string.h>

static uint32_t crc_table[256];
static pthread_once_t crc_once = PTHREAD_ONCE_INIT;

static void crc_init(void) {
  for (uint32_t i = 0; i < 256; i++) {
    uint32_t c = i;
    for (int k = 0; k < 8; k++) c = c & 1 ? (c >> 1) ^ 0x82F63B78u : c >> 1;
    crc_table[i] = c;
  }
}

static uint32_t crc_bytes(uint32_t c, const uint8_t *p, size_t len) {
  while (len--) c = crc_table[(c ^ *p++) & 0xff] ^ (c >> 8);
  return c;
}

#if defined(__x86_64__)
#include <nmmintrin.h>

/* Every byte a peer sends passes here: a byte-at-a-time table runs at
 * ~380 MB/s on this machine, the SSE4.2 instruction at ~7.5 GB/s. */
__attribute__((target("sse4.2"))) static uint32_t crc_sse42(uint32_t c, const uint8_t *p,
                                                           size_t len) {
  uint64_t c64 = c;
  for (; len >= 8; p += 8, len -= 8) {
    uint64_t v;
    memcpy(&v, p, 8);
    c64 = _mm_crc32_u64(c64, v);
  }
  c = (uint32_t)c64;
  for (; len; p++, len--) c = _mm_crc32_u8(c, *p);
  return c;
}

static bool have_sse42;
#endif

static void crc_setup(void) {
  crc_init();
#if defined(__x86_64__)
  __builtin_cpu_init();
  have_sse42 = __builtin_cpu_supports("sse4.2");
#endif
}

uint32_t hg_crc32c(uint32_t seed, const void *data, size_t len) {
  pthread_once(&crc_once, crc_setup);
#if defined(__x86_64__)
  if (have_sse42) return crc_sse42(seed, data, len);
#endif
  return crc_bytes(seed, data, len);
}

