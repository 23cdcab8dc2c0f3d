#include "node/core/log.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static enum hg_log_level log_level = HG_LOG_INFO;
static int log_fd = 2;
static char log_prefix[128];

static const char *const level_names[] = {"debug", "info", "warn", "error"};

void hg_log_set_level(enum hg_log_level level) { log_level = level; }
void hg_log_set_fd(int fd) { log_fd = fd; }

void hg_log_set_prefix(const char *prefix) {
  snprintf(log_prefix, sizeof log_prefix, "%s", prefix ? prefix : "");
}

void hg_log(enum hg_log_level level, const char *event, const char *fmt, ...) {
  if (level < log_level) return;
  char line[2048];
  struct timespec ts;
  struct tm tm;
  clock_gettime(CLOCK_REALTIME, &ts);
  gmtime_r(&ts.tv_sec, &tm);
  int n = snprintf(line, sizeof line,
                   "ts=%04d-%02d-%02dT%02d:%02d:%02d.%03ldZ level=%s event=%s%s%s",
                   tm.tm_year + 1900, tm.tm_mon + 1, tm.tm_mday, tm.tm_hour,
                   tm.tm_min, tm.tm_sec, ts.tv_nsec / 1000000, level_names[level],
                   event, log_prefix[0] ? " " : "", log_prefix);
  if (fmt && fmt[0] && n < (int)sizeof line - 2) {
    line[n++] = ' ';
    va_list ap;
    va_start(ap, fmt);
    int m = vsnprintf(line + n, sizeof line - n, fmt, ap);
    va_end(ap);
    n = m < 0 ? n : n + m;
  }
  if (n > (int)sizeof line - 2) n = sizeof line - 2;
  /* A guest-supplied string could carry a newline: keep one event per line. */
  for (int i = 0; i < n; i++)
    if (line[i] == '\n' || line[i] == '\r') line[i] = ' ';
  line[n++] = '\n';
  ssize_t w = write(log_fd, line, n);
  (void)w;
}
