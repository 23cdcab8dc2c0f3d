/* seed_util: seeds for the fuzz targets whose first input byte picks the
 * decoder (fuzz_repl_frame.c, fuzz_cluster_wire.c), written by the unit
 * tests that can make valid inputs. Header-only; shared by test_frame.c
 * and test_wire.c. */
#ifndef HG_TESTS_SEED_UTIL_H
#define HG_TESTS_SEED_UTIL_H

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include <cmocka.h>

/* dir/name: the selector byte sel, then the len bytes at p. */
static inline void write_seed(const char *dir, const char *name, uint8_t sel,
                              const void *p, size_t len) {
  char path[512];
  snprintf(path, sizeof path, "%s/%s", dir, name);
  FILE *f = fopen(path, "wb");
  assert_non_null(f);
  fputc(sel, f);
  fwrite(p, 1, len, f);
  fclose(f);
}

#endif
