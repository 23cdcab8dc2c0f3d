/* proc: what /proc says about a process, read one way for the daemon, the
 * shim, the tests and the benches. A pid alone can be recycled: the start
 * time (and the command line) tell one process from the next. */
#ifndef HG_CORE_PROC_H
#define HG_CORE_PROC_H

#include <stddef.h>
#include <stdint.h>

typedef struct hg_proc_stat {
  char state;         /* 'R', 'S', 'D', 'T', 'Z', ... */
  int ppid;
  uint64_t utime;     /* clock ticks in user mode */
  uint64_t stime;     /* clock ticks in the kernel */
  uint64_t starttime; /* clock ticks after boot */
} hg_proc_stat;

/* /proc/<pid>/stat (a thread id works too): -ENOENT when the process is
 * gone, -EPROTO when the line does not parse. */
int hg_proc_stat_read(int pid, hg_proc_stat *out);

/* /proc/<pid>/cmdline as read, its arguments NUL-separated, NUL-terminated
 * in out (cap bytes, the rest cut): -ENOENT for a process gone, -ESRCH for
 * a zombie or kernel thread (an empty command line). *len, when given, is the bytes read. */
int hg_proc_cmdline(int pid, char *out, size_t cap, size_t *len);

#endif
