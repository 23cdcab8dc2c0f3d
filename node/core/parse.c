#include "node/core/parse.h"

#include <errno.h>
#include <stdbool.h>
#include <string.h>

int hg_parse_uint_n(const char *s, size_t len, uint64_t max, uint64_t *out) {
  if (!s || len == 0) return -EINVAL;
  uint64_t v = 0;
  bool over = false;
  for (size_t i = 0; i < len; i++) {
    if (s[i] < '0' || s[i] > '9') return -EINVAL;
    unsigned d = (unsigned)(s[i] - '0');
    /* keep reading after an overflow: junk later on is still -EINVAL */
    if (v > (UINT64_MAX - d) / 10)
      over = true;
    else
      v = v * 10 + d;
  }
  if (over || v > max) return -ERANGE;
  *out = v;
  return 0;
}

int hg_parse_int(const char *s, int64_t min, int64_t max, int64_t *out) {
  if (!s) return -EINVAL;
  bool neg = s[0] == '-';
  const char *d = s + neg;
  /* the magnitude of INT64_MIN is INT64_MAX + 1 */
  uint64_t mag, limit = neg ? (uint64_t)INT64_MAX + 1 : (uint64_t)INT64_MAX;
  int rc = hg_parse_uint_n(d, strlen(d), limit, &mag);
  if (rc < 0) return rc;
  int64_t v = neg ? (int64_t)(0 - mag) : (int64_t)mag;
  if (v < min || v > max) return -ERANGE;
  *out = v;
  return 0;
}
