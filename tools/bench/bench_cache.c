/* bench_cache: see bench_cache.h. */
#include "tools/bench/bench_cache.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <sys/stat.h>
#include <unistd.h>

static int drop_fd(int fd) {
  int rc = posix_fadvise(fd, 0, 0, POSIX_FADV_DONTNEED);
  return rc ? -rc : 0;
}

static int drop_dir(const char *dir) {
  DIR *d = opendir(dir);
  if (!d) return -errno;
  int n = 0, rc = 0;
  for (struct dirent *e; (e = readdir(d));) {
    int fd = openat(dirfd(d), e->d_name, O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK);
    if (fd < 0) continue;
    struct stat st;
    if (fstat(fd, &st) == 0 && S_ISREG(st.st_mode)) {
      if ((rc = drop_fd(fd)) == 0) n++;
    }
    close(fd);
    if (rc < 0) break;
  }
  closedir(d);
  return rc < 0 ? rc : n;
}

int bench_drop_files(const char *const *dirs, size_t n, const char *image) {
  if (n == 0) return 0;
  int fd = open(dirs[0], O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (fd < 0) return -errno;
  int rc = syncfs(fd) < 0 ? -errno : 0;
  close(fd);
  int dropped = 0;
  for (size_t i = 0; rc == 0 && i < n; i++) {
    int r = drop_dir(dirs[i]);
    if (r < 0) rc = r;
    else dropped += r;
  }
  if (rc == 0 && image && (fd = open(image, O_RDONLY | O_CLOEXEC)) >= 0) {
    if (fdatasync(fd) < 0) rc = -errno;
    if (rc == 0) rc = drop_fd(fd);
    close(fd);
  }
  return rc < 0 ? rc : dropped;
}
