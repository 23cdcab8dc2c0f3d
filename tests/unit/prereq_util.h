/* prereq_util: what a test does when the machine lacks something it needs
 * (qemu, a tap device, btrfs, root, IPv6). On a developer's machine the
 * test is skipped: cmocka prints "[  SKIPPED ]", which ctest reports as
 * "Skipped" (SKIP_REGULAR_EXPRESSION in tests/CMakeLists.txt), not
 * "Passed". Under CI=true the same test fails, naming what is missing: CI
 * must run every test, and a test that did not run proves nothing.
 * Header-only; for cmocka test bodies (skip() and fail_msg() jump out). */
#ifndef HG_TESTS_PREREQ_UTIL_H
#define HG_TESTS_PREREQ_UTIL_H

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* CI=true, as .ci/run's environment sets it. */
static inline bool hg_test_in_ci(void) {
  const char *ci = getenv("CI");
  return ci && strcmp(ci, "true") == 0;
}

/* HG_NEED(have, what…): unless have, skip the test, or under CI=true fail
 * it; what… (printf format and arguments) names the missing prerequisite. */
#define HG_NEED(have, ...)                                                         \
  do {                                                                             \
    if (!(have)) {                                                                 \
      char need_what_[512];                                                        \
      snprintf(need_what_, sizeof need_what_, __VA_ARGS__);                        \
      if (hg_test_in_ci())                                                         \
        fail_msg("missing prerequisite: %s (CI=true: a test that cannot run "      \
                 "fails)",                                                         \
                 need_what_);                                                      \
      fprintf(stderr, "missing prerequisite: %s: skipped\n", need_what_);          \
      skip();                                                                      \
    }                                                                              \
  } while (0)

#endif
