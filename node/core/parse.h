/* parse: decimal integers from text written by people and peers, with the
 * range checked in the same step, so no caller converts with strtol and
 * forgets errno, the sign, the empty string or trailing junk. */
#ifndef HG_CORE_PARSE_H
#define HG_CORE_PARSE_H

#include <stddef.h>
#include <stdint.h>

/* The len bytes at s as 1*DIGIT (no sign, no space) in [0, max]:
 * -EINVAL for anything else, -ERANGE past max (overflow included). */
int hg_parse_uint_n(const char *s, size_t len, uint64_t max, uint64_t *out);

/* The string s as an optional '-' and 1*DIGIT, nothing around it, in
 * [min, max]: -EINVAL for anything else, -ERANGE outside the range. */
int hg_parse_int(const char *s, int64_t min, int64_t max, int64_t *out);

#endif
