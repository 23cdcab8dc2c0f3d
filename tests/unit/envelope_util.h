/* envelope_util.h: a Connect protocol envelope for the envd unit tests
 * (test_e2b_mapping, test_envd_process_table): flags, a 4-byte big-endian
 * length, the JSON. out must hold strlen(json) + 5 bytes. */
#ifndef HG_TESTS_ENVELOPE_UTIL_H
#define HG_TESTS_ENVELOPE_UTIL_H

#include <stddef.h>
#include <string.h>

static inline size_t envelope_of(char *out, unsigned flags, const char *json) {
  size_t n = strlen(json);
  out[0] = (char)flags;
  out[1] = (char)(n >> 24);
  out[2] = (char)(n >> 16);
  out[3] = (char)(n >> 8);
  out[4] = (char)n;
  memcpy(out + 5, json, n);
  return n + 5;
}

#endif
