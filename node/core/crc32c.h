/* crc32c: CRC-32C (Castagnoli), raw: the seed goes in as is and the result
 * comes out without the final inversion (the kernel's crc32c(), which
 * btrfs send streams carry). Thread-safe; SSE4.2 where the CPU has it. */
#ifndef HG_CORE_CRC32C_H
#define HG_CORE_CRC32C_H

#include <stddef.h>
#include <stdint.h>

uint32_t hg_crc32c(uint32_t seed, const void *data, size_t len);

#endif
