/* bench_cache: drops chosen files from the page cache, so a bench can time
 * a resume that reads its generation from disk instead of from memory,
 * without dropping the rest of the machine's cache (the machine is shared:
 * `echo 1 > /proc/sys/vm/drop_caches` would slow everyone else's work and
 * make the next figures depend on what they were doing).
 *
 * bench_drop_files: syncfs on the filesystem of dirs[0] (dirty pages cannot
 * be dropped), then posix_fadvise(POSIX_FADV_DONTNEED) over every regular
 * file directly in each dir. image, when not NULL and present, is the loop
 * device's backing file of that btrfs (hg_store's "<data>.img"): its own
 * page cache holds the same blocks a second time, so it is flushed and
 * dropped too (whole file: that store's blocks only). Returns the number
 * of files dropped, or a negative errno. */
#ifndef HG_BENCH_CACHE_H
#define HG_BENCH_CACHE_H

#include <stddef.h>

int bench_drop_files(const char *const *dirs, size_t n, const char *image);

#endif
