/* proc_util: what the VM, shim and nft tests read from /proc about processes
 * they started, and how they run a shell command. Header-only; shared by
 * test_qemu.c, test_shim.c, test_nft.c, it_cluster.c and it_sandbox.c. */
#ifndef HG_TESTS_PROC_UTIL_H
#define HG_TESTS_PROC_UTIL_H

#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "node/core/util.h"
#include "node/core/proc.h"

static inline void sleep_ms(long ms) {
  struct timespec ts = {ms / 1000, (ms % 1000) * 1000000};
  while (nanosleep(&ts, &ts) < 0 && errno == EINTR) {
  }
}

/* The value of the "key:" line of /proc/<pid>/status ("Uid" ->
 * "0\t0\t0\t0"), into out; 0, or a negative errno (-ENOENT: no such key). */
static inline int proc_status_field(int pid, const char *key, char *out, size_t cap) {
  char path[64], *text = NULL;
  snprintf(path, sizeof path, "/proc/%d/status", pid);
  int rc = hg_read_file(path, 65536, &text, NULL);
  if (rc < 0) return rc;
  size_t klen = strlen(key);
  rc = -ENOENT;
  for (char *line = text; line && *line;
       line = strchr(line, '\n') ? strchr(line, '\n') + 1 : NULL) {
    if (strncmp(line, key, klen) != 0 || line[klen] != ':') continue;
    const char *v = line + klen + 1;
    v += strspn(v, "\t ");
    snprintf(out, cap, "%.*s", (int)strcspn(v, "\n"), v);
    rc = 0;
    break;
  }
  free(text);
  return rc;
}

/* The state letter of /proc/<pid>/stat ('R', 'S', 'T', 'Z', ...), 0 if gone. */
static inline char proc_state(int pid) {
  hg_proc_stat ps;
  return hg_proc_stat_read(pid, &ps) == 0 ? ps.state : 0;
}

/* A SIGSTOP takes effect when the target next enters the kernel; on a busy
 * host /proc may show it runnable for a moment after kill() returned. */
static inline bool wait_stopped(int pid, int ms) {
  for (int64_t end = hg_now_ms() + ms; hg_now_ms() < end; sleep_ms(1))
    if (proc_state(pid) == 'T') return true;
  return proc_state(pid) == 'T';
}

static inline bool proc_alive(int pid) {
  char st = proc_state(pid);
  return st != 0 && st != 'Z' && st != 'X';
}

/* Runs a printf-formatted command under sh -c: its exit status, -1 if it
 * did not exit. */
static inline int sh(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static inline int sh(const char *fmt, ...) {
  char cmd[8192];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(cmd, sizeof cmd, fmt, ap);
  va_end(ap);
  int st = system(cmd);
  return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

#endif
