#include "node/core/proc.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

static ssize_t read_proc(int pid, const char *what, char *buf, size_t cap) {
  char path[64];
  snprintf(path, sizeof path, "/proc/%d/%s", pid, what);
  int fd = open(path, O_RDONLY | O_CLOEXEC);
  if (fd < 0) return -errno;
  ssize_t n = read(fd, buf, cap - 1);
  int err = errno;
  close(fd);
  if (n < 0) return -err;
  buf[n] = '\0';
  return n;
}

int hg_proc_stat_read(int pid, hg_proc_stat *out) {
  char buf[1024];
  ssize_t n = read_proc(pid, "stat", buf, sizeof buf);
  if (n < 0) return (int)n;
  /* comm may hold spaces and parens: the fields resume after the last ')' */
  char *p = strrchr(buf, ')');
  hg_proc_stat st;
  unsigned long long ut, stm, start;
  if (!p || sscanf(p + 1,
                   " %c %d %*d %*d %*d %*d %*u %*u %*u %*u %*u %llu %llu %*d %*d "
                   "%*d %*d %*d %*d %llu",
                   &st.state, &st.ppid, &ut, &stm, &start) != 5)
    return -EPROTO;
  st.utime = ut;
  st.stime = stm;
  st.starttime = start;
  *out = st;
  return 0;
}

int hg_proc_cmdline(int pid, char *out, size_t cap, size_t *len) {
  if (cap < 2) return -EINVAL;
  ssize_t n = read_proc(pid, "cmdline", out, cap);
  if (n < 0) return (int)n;
  if (n == 0) return -ESRCH;
  if (len) *len = (size_t)n;
  return 0;
}
