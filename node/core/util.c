#include "node/core/util.h"

#include "node/core/buf.h"
#include "node/core/parse.h"

#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

static int64_t clock_ns(clockid_t id) {
  struct timespec ts;
  clock_gettime(id, &ts);
  return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

int64_t hg_now_ns(void) {
  return clock_ns(CLOCK_MONOTONIC);
}
int64_t hg_now_ms(void) {
  return clock_ns(CLOCK_MONOTONIC) / 1000000;
}
int64_t hg_wall_ns(void) {
  return clock_ns(CLOCK_REALTIME);
}

void hg_iso_time(int64_t wall_ms, char out[32]) {
  time_t s = (time_t)(wall_ms / 1000);
  struct tm tm;
  gmtime_r(&s, &tm);
  size_t n = strftime(out, 32, "%Y-%m-%dT%H:%M:%S", &tm);
  snprintf(out + n, 32 - n, ".%03dZ", (int)(wall_ms % 1000));
}

int64_t hg_iso_parse(const char *s) {
  struct tm tm = {0};
  int ms = 0;
  if (!s || sscanf(s, "%d-%d-%dT%d:%d:%d.%dZ", &tm.tm_year, &tm.tm_mon, &tm.tm_mday,
                   &tm.tm_hour, &tm.tm_min, &tm.tm_sec, &ms) < 6)
    return 0;
  tm.tm_year -= 1900;
  tm.tm_mon -= 1;
  return (int64_t)timegm(&tm) * 1000 + ms;
}

int hg_random_bytes(void *buf, size_t len) {
  uint8_t *p = buf;
  while (len > 0) {
    ssize_t n = getrandom(p, len, 0);
    if (n < 0) {
      if (errno == EINTR) continue;
      return -errno;
    }
    p += n;
    len -= (size_t)n;
  }
  return 0;
}

void hg_hex_encode(const void *data, size_t len, char *out) {
  static const char digits[] = "0123456789abcdef";
  const uint8_t *p = data;
  for (size_t i = 0; i < len; i++) {
    out[2 * i] = digits[p[i] >> 4];
    out[2 * i + 1] = digits[p[i] & 15];
  }
  out[2 * len] = '\0';
}

int hg_id_new(const char *prefix, char out[HG_ID_MAX]) {
  uint8_t raw[HG_ID_HEX / 2];
  char hex[HG_ID_HEX + 1];
  int rc = hg_random_bytes(raw, sizeof raw);
  if (rc < 0) return rc;
  hg_hex_encode(raw, sizeof raw, hex);
  return hg_path(out, HG_ID_MAX, "%s-%s", prefix, hex);
}

bool hg_id_valid(const char *prefix, const char *id) {
  size_t pl = strlen(prefix);
  if (!id || strncmp(id, prefix, pl) != 0 || id[pl] != '-') return false;
  const char *h = id + pl + 1;
  for (int i = 0; i < HG_ID_HEX; i++)
    if (!((h[i] >= '0' && h[i] <= '9') || (h[i] >= 'a' && h[i] <= 'f'))) return false;
  return h[HG_ID_HEX] == '\0';
}

bool hg_secret_equal(const char *a, const char *b) {
  size_t la = strlen(a), lb = strlen(b);
  unsigned char diff = la != lb;
  for (size_t i = 0; i < la; i++) diff |= (unsigned char)(a[i] ^ b[i % (lb ? lb : 1)]);
  return diff == 0;
}

int hg_path(char *out, size_t cap, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  int n = vsnprintf(out, cap, fmt, ap);
  va_end(ap);
  if (n < 0 || (size_t)n >= cap) return -ENAMETOOLONG;
  return 0;
}

static int fsync_dir_of(const char *path) {
  char dir[4096];
  int rc = hg_path(dir, sizeof dir, "%s", path);
  if (rc < 0) return rc;
  char *slash = strrchr(dir, '/');
  if (!slash)
    strcpy(dir, ".");
  else if (slash == dir)
    dir[1] = '\0';
  else
    *slash = '\0';
  return hg_fsync_path(dir);
}

static int write_all(int fd, const void *data, size_t len) {
  const char *p = data;
  while (len > 0) {
    ssize_t n = write(fd, p, len);
    if (n < 0) {
      if (errno == EINTR) continue;
      return -errno;
    }
    p += n;
    len -= (size_t)n;
  }
  return 0;
}

/* The temp name is unique per call: with one fixed name, two threads saving
 * the same file would write into one temp file and could publish a mix. */
int hg_write_file_atomic_mode(const char *path, const void *data, size_t len,
                              mode_t mode) {
  char tmp[4096];
  int rc = hg_path(tmp, sizeof tmp, "%s.tmp.XXXXXX", path);
  if (rc < 0) return rc;
  int fd = mkostemp(tmp, O_CLOEXEC); /* mode 0600 */
  if (fd < 0) return -errno;
  /* fchmod before any byte is written: the mode is set, not umasked, and
   * a reader never sees the file with the wrong one. */
  if ((mode & 07777) != 0600 && fchmod(fd, mode & 07777) < 0) rc = -errno;
  if (rc == 0) rc = write_all(fd, data, len);
  if (rc == 0 && fsync(fd) < 0) rc = -errno;
  if (close(fd) < 0 && rc == 0) rc = -errno;
  if (rc == 0 && rename(tmp, path) < 0) rc = -errno;
  if (rc < 0) {
    unlink(tmp);
    return rc;
  }
  return fsync_dir_of(path);
}

int hg_write_file_atomic(const char *path, const void *data, size_t len) {
  return hg_write_file_atomic_mode(path, data, len, 0600);
}

/* Reads to EOF instead of trusting st_size: procfs reports 0 and sysfs 4096
 * whatever they hold, and a file may change while it is read. */
int hg_read_file(const char *path, size_t max, char **out, size_t *len) {
  int fd = open(path, O_RDONLY | O_CLOEXEC);
  if (fd < 0) return -errno;
  struct stat st;
  int rc = fstat(fd, &st) < 0 ? -errno : 0;
  if (rc == 0 && S_ISDIR(st.st_mode)) rc = -EISDIR;
  hg_buf b;
  hg_buf_init(&b, max);
  char chunk[4096];
  while (rc == 0) {
    ssize_t n = read(fd, chunk, sizeof chunk);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) {
      rc = n < 0 ? -errno : 0;
      break;
    }
    rc = hg_buf_append(&b, chunk, (size_t)n);
    if (rc == -ENOBUFS) rc = -EFBIG;
  }
  close(fd);
  if (rc == 0 && !b.data && !(b.data = calloc(1, 1))) rc = -ENOMEM; /* empty file */
  if (rc < 0) {
    hg_buf_free(&b);
    return rc;
  }
  *out = b.data;
  if (len) *len = b.len;
  return 0;
}

int hg_file_tail(const char *path, char *out, size_t cap) {
  if (cap < 2) return -EINVAL;
  int fd = open(path, O_RDONLY | O_CLOEXEC);
  if (fd < 0) return -errno;
  off_t end = lseek(fd, 0, SEEK_END);
  off_t from = end > (off_t)cap - 1 ? end - (off_t)cap + 1 : 0;
  ssize_t n = end < 0 ? -1 : pread(fd, out, (size_t)(end - from), from);
  int rc = n < 0 ? -errno : 0;
  close(fd);
  if (rc < 0) return rc;
  size_t start = 0, len = (size_t)n;
  if (from > 0) { /* the first line was cut: start at the next one */
    while (start < len && out[start] != '\n') start++;
    if (start < len) start++;
  }
  while (len > start && (out[len - 1] == '\n' || out[len - 1] == '\r' || out[len - 1] == ' '))
    len--;
  memmove(out, out + start, len - start);
  len -= start;
  out[len] = '\0';
  size_t w = 0;
  for (size_t i = 0; i < len; i++) {
    unsigned char c = (unsigned char)out[i];
    if (c == '\r') continue; /* a serial console ends its lines with \r\n */
    out[w++] = (c < 0x20 && c != '\n') || c >= 0x7f ? '?' : (char)c;
  }
  out[w] = '\0';
  return 0;
}

int hg_mkdir_p(const char *path, mode_t mode) {
  char tmp[4096];
  if (!path || !path[0]) return -EINVAL;
  int rc = hg_path(tmp, sizeof tmp, "%s", path);
  if (rc < 0) return rc;
  for (char *p = tmp + 1; *p; p++) {
    if (*p != '/') continue;
    *p = '\0';
    if (mkdir(tmp, mode) < 0 && errno != EEXIST) return -errno;
    *p = '/';
  }
  if (mkdir(tmp, mode) == 0) return 0;
  if (errno != EEXIST) return -errno;
  /* EEXIST also means a file is in the way. */
  struct stat st;
  if (stat(tmp, &st) < 0) return -errno;
  return S_ISDIR(st.st_mode) ? 0 : -ENOTDIR;
}

int hg_fsync_path(const char *path) {
  int fd = open(path, O_RDONLY | O_CLOEXEC);
  if (fd < 0) return -errno;
  int rc = fsync(fd) < 0 ? -errno : 0;
  close(fd);
  return rc;
}

static int rm_entry(const char *path, const struct stat *sb, int flag, struct FTW *ftw) {
  return remove(path) < 0 ? -1 : 0;
}

/* FTW_MOUNT: never descend into another filesystem mounted below path
 * (a loop-mounted data dir, a bind mount in the guest); removing its
 * mount point then fails instead of wiping what is mounted there. */
int hg_rm_rf(const char *path) {
  if (nftw(path, rm_entry, 16, FTW_DEPTH | FTW_PHYS | FTW_MOUNT) < 0)
    return errno == ENOENT ? 0 : -errno;
  return 0;
}

int hg_hostport_join(char *out, size_t cap, const char *host, int port) {
  return hg_path(out, cap, strchr(host, ':') ? "[%s]:%d" : "%s:%d", host, port);
}

int hg_hostport_split(const char *s, char *host, size_t cap, int default_port,
                      int *port) {
  const char *h = s, *hend, *colon;
  if (!s) return -EINVAL;
  if (s[0] == '[') {
    h = s + 1;
    if (!(hend = strchr(h, ']'))) return -EINVAL;
    colon = hend[1] == ':' ? hend + 1 : NULL;
    if (!colon && hend[1]) return -EINVAL;
  } else {
    colon = strrchr(s, ':');
    hend = colon ? colon : s + strlen(s);
    if (memchr(s, ':', (size_t)(hend - s))) return -EINVAL; /* v6 needs brackets */
  }
  size_t len = (size_t)(hend - h);
  if (len == 0) return -EINVAL;
  if (len >= cap) return -ENAMETOOLONG;
  long p = default_port;
  if (colon) {
    const char *q = colon + 1;
    uint64_t v;
    if (strlen(q) > 5 || hg_parse_uint_n(q, strlen(q), 65535, &v) < 0) return -EINVAL;
    p = (long)v;
  }
  if (p < 0 || p > 65535) return -EINVAL;
  memcpy(host, h, len);
  host[len] = '\0';
  *port = (int)p;
  return 0;
}

int hg_cond_init_mono(pthread_cond_t *cv) {
  pthread_condattr_t ca;
  pthread_condattr_init(&ca);
  pthread_condattr_setclock(&ca, CLOCK_MONOTONIC);
  int rc = -pthread_cond_init(cv, &ca);
  pthread_condattr_destroy(&ca);
  return rc;
}

struct timespec hg_mono_ts(int64_t ms) {
  return (struct timespec){.tv_sec = ms / 1000, .tv_nsec = (ms % 1000) * 1000000};
}
