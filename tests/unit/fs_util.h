/* fs_util: what the tests that send and receive subvolumes ask of a
 * directory. Header-only; shared by test_stream.c and test_repl.c. */
#ifndef HG_TESTS_FS_UTIL_H
#define HG_TESTS_FS_UTIL_H

#include <dirent.h>
#include <string.h>

/* Entries of dir but "." and ".."; -1 when it cannot be opened. */
static inline int count_entries(const char *dir) {
  DIR *d = opendir(dir);
  if (!d) return -1;
  int n = 0;
  struct dirent *e;
  while ((e = readdir(d)))
    if (strcmp(e->d_name, ".") != 0 && strcmp(e->d_name, "..") != 0) n++;
  closedir(d);
  return n;
}

#endif
