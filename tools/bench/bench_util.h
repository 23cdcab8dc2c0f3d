/* bench_util: the figures the benches share — milliseconds between two
 * hg_now_ns() readings, and percentiles of a run's samples. Header-only;
 * shared by bench_gateway.c, bench_netns.c and bench_runtime.c. */
#ifndef HG_BENCH_UTIL_H
#define HG_BENCH_UTIL_H

#include <stdint.h>
#include <stdlib.h>

static inline double bench_ms(int64_t t0_ns, int64_t t1_ns) {
  return (double)(t1_ns - t0_ns) / 1e6;
}

static inline int bench_cmp_double(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

/* The p-quantile (0..1) of n samples, nearest rank; 0 with none. Sorts the
 * samples in place. */
static inline double bench_pct(double *v, int n, double p) {
  if (n == 0) return 0;
  qsort(v, (size_t)n, sizeof v[0], bench_cmp_double);
  return v[(int)(p * (n - 1) + 0.5)];
}

#endif
