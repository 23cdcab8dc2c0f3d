/* util: clocks, randomness, ids, and the file helpers every module shares.
 * All functions return 0 or a negative errno unless stated otherwise. */
#ifndef HG_CORE_UTIL_H
#define HG_CORE_UTIL_H

#include <pthread.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>
#include <time.h>

#define HG_ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

/* Ids are a short prefix, a dash and 16 lowercase hex digits: "sb-0123…". */
#define HG_ID_HEX 16
#define HG_ID_MAX 32

int64_t hg_now_ms(void);  /* CLOCK_MONOTONIC, shared by every process on the host */
int64_t hg_now_ns(void);  /* CLOCK_MONOTONIC */
int64_t hg_wall_ns(void); /* CLOCK_REALTIME */
/* RFC 3339 UTC with milliseconds: "2026-12-02T12:00:00.123Z". */
void hg_iso_time(int64_t wall_ms, char out[32]);
int64_t hg_iso_parse(const char *s); /* wall ms, or 0 when malformed */

int hg_random_bytes(void *buf, size_t len);
void hg_hex_encode(const void *data, size_t len, char *out); /* out: 2*len+1 */

/* Writes "<prefix>-<16 hex>" into out (HG_ID_MAX bytes). */
int hg_id_new(const char *prefix, char out[HG_ID_MAX]);
bool hg_id_valid(const char *prefix, const char *id);

/* Constant-time comparison of two NUL-terminated secrets. */
bool hg_secret_equal(const char *a, const char *b);

/* Writes a file so that after a crash it holds either the old or the new
 * contents: temp file, fsync, rename, fsync of the directory. The file is
 * mode 0600: most of what hangar writes (keys, state) is nobody else's. */
int hg_write_file_atomic(const char *path, const void *data, size_t len);
/* The same with the file's mode given (not masked by the umask), for files
 * other users must read, such as a guest's /etc/resolv.conf. */
int hg_write_file_atomic_mode(const char *path, const void *data, size_t len,
                              mode_t mode);
/* Reads at most max bytes; -EFBIG when the file is larger. *out is
 * NUL-terminated and freed by the caller. */
int hg_read_file(const char *path, size_t max, char **out, size_t *len);
/* The last lines of a text file (a console log) that fit in cap - 1 bytes,
 * starting at a line boundary, without '\r', other control bytes but
 * '\n' and every byte >= 0x7f shown as '?' (so it is ASCII, also valid
 * UTF-8 for JSON), trailing blank lines dropped: safe to quote in an
 * error message. out is "" for an empty file. */
int hg_file_tail(const char *path, char *out, size_t cap);
int hg_mkdir_p(const char *path, mode_t mode);
int hg_fsync_path(const char *path);
/* Removes a directory tree that holds no subvolumes (plain rm -rf). */
int hg_rm_rf(const char *path);

/* Splits "host:port" or "[v6]:port" into host (brackets stripped) and a
 * port 0-65535. Without ":port", *port = default_port when that is >= 0,
 * else -EINVAL; -EINVAL also for an empty host, a bad port, or a v6
 * literal without brackets; -ENAMETOOLONG when host does not fit. */
int hg_hostport_split(const char *s, char *host, size_t cap, int default_port, int *port);
/* The reverse: "host:port", "[v6]:port" for a host with a colon;
 * -ENAMETOOLONG when it does not fit. */
int hg_hostport_join(char *out, size_t cap, const char *host, int port);
/* snprintf into a fixed buffer; -ENAMETOOLONG when it does not fit. */
int hg_path(char *out, size_t cap, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/* Condition variables that wait on CLOCK_MONOTONIC (a wall clock step
 * must not stretch or cut a wait): init, and the timespec of a deadline in
 * hg_now_ms() milliseconds for pthread_cond_timedwait. */
int hg_cond_init_mono(pthread_cond_t *cv);
struct timespec hg_mono_ts(int64_t ms);

#endif
