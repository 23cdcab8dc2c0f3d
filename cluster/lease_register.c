/* lease_register: an acceptor's promises on disk; see lease_register.h. */
#include "cluster/lease_register.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cluster/lease_wire.h"
#include "cluster/wire.h"
#include "node/core/buf.h"
#include "node/core/crc32c.h"
#include "node/core/log.h"
#include "node/core/mp.h"
#include "node/core/strmap.h"
#include "node/core/util.h"

#define REC_HDR 8                   /* u32 length, u32 crc32c */
#define REC_PAYLOAD_MAX (64u << 10) /* a promise is a few hundred bytes */
#define COMPACT_MIN_BYTES (1u << 20)
#define COMPACT_RATIO 4

typedef struct reg_entry {
  hg_strmap_node node;
  char sandbox[HG_ID_MAX];
  hg_lease_promise p;
  size_t rec_len; /* of its newest record */
} reg_entry;

struct hg_lease_register {
  char path[PATH_MAX];
  int fd;
  pthread_mutex_t mu;       /* entries, pending, tickets, broken */
  pthread_mutex_t flush_mu; /* one flush at a time, and the fd */
  hg_strmap entries;
  hg_buf pending;
  uint64_t staged, durable; /* tickets */
  size_t log_bytes, live_bytes;
  bool broken;
  bool full; /* the last flush found the disk full (logged once) */
};

/* ---- records --------------------------------------------------------------- */

static void put_le32(uint8_t *p, uint32_t v) {
  for (int i = 0; i < 4; i++) p[i] = (uint8_t)(v >> (8 * i));
}

static uint32_t get_le32(const uint8_t *p) {
  return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 |
         (uint32_t)p[3] << 24;
}

/* Appends one record of (sandbox, p) to b, packed in place after a
 * header filled in once the payload's length and crc are known; its
 * length in *len. */
static int record_append(hg_buf *b, const char *sandbox, const hg_lease_promise *p,
                         size_t *len) {
  size_t start = b->len;
  uint8_t hdr[REC_HDR] = {0};
  int rc = hg_buf_append(b, hdr, sizeof hdr);
  if (rc < 0) return rc;
  hg_mp_sink s;
  hg_mp_sink_init(&s, b);
  hg_lease_pack_promise(&s.pk, sandbox, p);
  size_t n = b->len - start - REC_HDR;
  rc = s.err ? s.err : n > REC_PAYLOAD_MAX ? -E2BIG : 0;
  if (rc < 0) {
    b->len = start;
    return rc;
  }
  uint8_t *at = (uint8_t *)b->data + start;
  put_le32(at, (uint32_t)n);
  put_le32(at + 4, hg_crc32c(0, at + REC_HDR, n));
  *len = REC_HDR + n;
  return 0;
}

/* Decodes the record at data[off..len): 1 and *next when whole and sound,
 * 0 when it runs past the end, -EIO when damaged. */
static int record_read(const uint8_t *data, size_t len, size_t off,
                       char sandbox[HG_ID_MAX], hg_lease_promise *p, size_t *next) {
  if (len - off < REC_HDR) return 0;
  uint32_t n = get_le32(data + off), crc = get_le32(data + off + 4);
  if (n == 0 || n > REC_PAYLOAD_MAX) return -EIO;
  if (len - off - REC_HDR < n) return 0;
  const uint8_t *payload = data + off + REC_HDR;
  if (hg_crc32c(0, payload, n) != crc) return -EIO;
  msgpack_unpacked u;
  if (hg_wire_unpack(payload, n, &u) < 0) return -EIO;
  int rc = hg_lease_unpack_promise(&u.data, sandbox, p);
  msgpack_unpacked_destroy(&u);
  if (rc < 0) return -EIO;
  *next = off + REC_HDR + n;
  return 1;
}

/* ---- the table --------------------------------------------------------------- */

static int entry_set(hg_lease_register *r, const char *sandbox, const hg_lease_promise *p,
                     size_t rec_len) {
  hg_strmap_node *n = hg_strmap_get(&r->entries, sandbox);
  reg_entry *e = n ? HG_CONTAINER_OF(n, reg_entry, node) : NULL;
  if (!e) {
    if (!(e = calloc(1, sizeof *e))) return -ENOMEM;
    snprintf(e->sandbox, sizeof e->sandbox, "%s", sandbox);
    e->node.key = e->sandbox;
    if (hg_strmap_put(&r->entries, &e->node) < 0) {
      free(e);
      return -ENOMEM;
    }
  }
  r->live_bytes += rec_len - e->rec_len;
  e->p = *p;
  e->rec_len = rec_len;
  return 0;
}

/* ---- open: replay ------------------------------------------------------------ */

static int replay(hg_lease_register *r, const uint8_t *data, size_t len, size_t *good) {
  size_t off = 0;
  while (off < len) {
    char sandbox[HG_ID_MAX];
    hg_lease_promise p;
    size_t next;
    int rc = record_read(data, len, off, sandbox, &p, &next);
    if (rc == 0) break; /* cut short at the end */
    if (rc < 0) {
      /* A damaged record whose length reaches the end is the last write,
       * torn by a crash before it was acknowledged; before the end, it is
       * promises lost, and the acceptor must not start without them. */
      if ((uint64_t)off + REC_HDR + get_le32(data + off) >= len) break;
      hg_log_error("lease.register_damaged", "path=%s offset=%zu len=%zu", r->path, off,
                   len);
      return -EIO;
    }
    if ((rc = entry_set(r, sandbox, &p, next - off)) < 0) return rc;
    off = next;
  }
  *good = off;
  return 0;
}

static int read_all(int fd, size_t max, uint8_t **out, size_t *len) {
  struct stat st;
  if (fstat(fd, &st) < 0) return -errno;
  if ((uint64_t)st.st_size > max) return -EFBIG;
  size_t n = (size_t)st.st_size;
  uint8_t *buf = malloc(n ? n : 1);
  if (!buf) return -ENOMEM;
  size_t got = 0;
  while (got < n) {
    ssize_t k = pread(fd, buf + got, n - got, (off_t)got);
    if (k < 0 && errno == EINTR) continue;
    if (k <= 0) {
      int rc = k < 0 ? -errno : -EIO;
      free(buf);
      return rc;
    }
    got += (size_t)k;
  }
  *out = buf;
  *len = n;
  return 0;
}

static void entries_free(hg_lease_register *r) {
  hg_strmap_free_all(&r->entries, offsetof(reg_entry, node));
}

int hg_lease_register_open(const char *path, hg_lease_register **out) {
  hg_lease_register *r = calloc(1, sizeof *r);
  if (!r) return -ENOMEM;
  if (snprintf(r->path, sizeof r->path, "%s", path) >= (int)sizeof r->path) {
    free(r);
    return -ENAMETOOLONG;
  }
  pthread_mutex_init(&r->mu, NULL);
  pthread_mutex_init(&r->flush_mu, NULL);
  hg_buf_init(&r->pending, SIZE_MAX);
  r->fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0600);
  int rc = r->fd < 0 ? -errno : 0;
  uint8_t *data = NULL;
  size_t len = 0, good = 0;
  if (rc == 0) rc = read_all(r->fd, HG_LEASE_REGISTER_MAX, &data, &len);
  if (rc == 0) rc = replay(r, data, len, &good);
  free(data);
  if (rc == 0 && good < len) {
    hg_log_warn("lease.register_torn", "path=%s cut=%zu bytes", path, len - good);
    if (ftruncate(r->fd, (off_t)good) < 0 || fdatasync(r->fd) < 0) rc = -errno;
  }
  if (rc == 0 && lseek(r->fd, 0, SEEK_END) < 0) rc = -errno;
  if (rc < 0) {
    hg_log_error("lease.register_open", "path=%s err=\"%s\"", path, strerror(-rc));
    hg_lease_register_close(r);
    return rc;
  }
  r->log_bytes = good;
  *out = r;
  return 0;
}

void hg_lease_register_close(hg_lease_register *r) {
  if (!r) return;
  if (r->fd >= 0) close(r->fd);
  entries_free(r);
  hg_buf_free(&r->pending);
  pthread_mutex_destroy(&r->mu);
  pthread_mutex_destroy(&r->flush_mu);
  free(r);
}

int hg_lease_register_foreach(hg_lease_register *r,
                              int (*fn)(void *ud, const char *sandbox,
                                        const hg_lease_promise *p),
                              void *ud) {
  int rc = 0;
  pthread_mutex_lock(&r->mu);
  size_t cur = 0;
  for (hg_strmap_node *n = hg_strmap_next(&r->entries, &cur, NULL); n && rc == 0;
       n = hg_strmap_next(&r->entries, &cur, n)) {
    reg_entry *e = HG_CONTAINER_OF(n, reg_entry, node);
    rc = fn(ud, e->sandbox, &e->p);
  }
  pthread_mutex_unlock(&r->mu);
  return rc;
}

/* ---- stage, flush --------------------------------------------------------------- */

int hg_lease_register_stage(hg_lease_register *r, const char *sandbox,
                            const hg_lease_promise *p, uint64_t *ticket) {
  pthread_mutex_lock(&r->mu);
  size_t rec_len;
  int rc = r->broken ? -EIO : record_append(&r->pending, sandbox, p, &rec_len);
  if (rc == 0) rc = entry_set(r, sandbox, p, rec_len);
  if (rc == 0) *ticket = ++r->staged;
  pthread_mutex_unlock(&r->mu);
  return rc;
}

static int write_all(int fd, const void *data, size_t n) {
  const char *p = data;
  while (n) {
    ssize_t k = write(fd, p, n);
    if (k < 0 && errno == EINTR) continue;
    if (k < 0) return -errno;
    p += k;
    n -= (size_t)k;
  }
  return 0;
}

/* Rewrites the log with the newest record of each sandbox (written whole
 * to a new file, synced and renamed over). Caller holds flush_mu; takes mu
 * for the snapshot. */
static int compact(hg_lease_register *r) {
  hg_buf all;
  hg_buf_init(&all, SIZE_MAX);
  int rc = 0;
  pthread_mutex_lock(&r->mu);
  size_t cur = 0, len;
  for (hg_strmap_node *n = hg_strmap_next(&r->entries, &cur, NULL); n && rc == 0;
       n = hg_strmap_next(&r->entries, &cur, n)) {
    reg_entry *e = HG_CONTAINER_OF(n, reg_entry, node);
    rc = record_append(&all, e->sandbox, &e->p, &len);
  }
  pthread_mutex_unlock(&r->mu);
  if (rc == 0) rc = hg_write_file_atomic_mode(r->path, all.data, all.len, 0600);
  int fd = rc == 0 ? open(r->path, O_RDWR | O_CLOEXEC) : -1;
  if (rc == 0 && (fd < 0 || lseek(fd, 0, SEEK_END) < 0)) rc = -errno;
  if (rc == 0) {
    close(r->fd);
    r->fd = fd;
    r->log_bytes = all.len;
  } else if (fd >= 0) {
    close(fd);
  }
  hg_log_info("lease.register_compact", "path=%s bytes=%zu err=%d", r->path, all.len,
              -rc);
  hg_buf_free(&all);
  return rc;
}

/* A write that found the disk full acknowledged nothing (replies wait for
 * the flush) and fdatasync never ran: the log goes back to its last whole
 * record, and what was to be written waits, first in line, for a flush
 * with room. false: the log could not be put back (then it is broken). */
static bool hold_back(hg_lease_register *r, hg_buf *out) {
  if (ftruncate(r->fd, (off_t)r->log_bytes) < 0 ||
      lseek(r->fd, (off_t)r->log_bytes, SEEK_SET) < 0)
    return false;
  pthread_mutex_lock(&r->mu);
  bool ok = hg_buf_append(out, r->pending.data, r->pending.len) == 0;
  if (ok) {
    hg_buf_free(&r->pending);
    r->pending = *out;
    hg_buf_init(out, SIZE_MAX);
  }
  pthread_mutex_unlock(&r->mu);
  return ok;
}

int hg_lease_register_flush(hg_lease_register *r, uint64_t *durable) {
  pthread_mutex_lock(&r->flush_mu);
  pthread_mutex_lock(&r->mu);
  hg_buf out = r->pending;
  hg_buf_init(&r->pending, SIZE_MAX);
  uint64_t upto = r->staged;
  bool broken = r->broken;
  size_t live = r->live_bytes;
  pthread_mutex_unlock(&r->mu);
  int rc = broken ? -EIO : 0;
  bool full = false;
  if (rc == 0 && out.len) {
    rc = write_all(r->fd, out.data, out.len);
    full = rc == -ENOSPC && hold_back(r, &out);
    if (rc == 0 && fdatasync(r->fd) < 0) rc = -errno;
    if (rc == 0) r->log_bytes += out.len;
  }
  if (full) {
    hg_buf_free(&out);
    pthread_mutex_lock(&r->mu);
    *durable = r->durable;
    bool was = r->full;
    r->full = true;
    pthread_mutex_unlock(&r->mu);
    pthread_mutex_unlock(&r->flush_mu);
    if (!was)
      hg_log_warn("lease.register_full", "path=%s msg=\"no room: promises wait, unanswered, "
                  "for a flush with room\"", r->path);
    return -ENOSPC;
  }
  if (rc == 0 && r->log_bytes > COMPACT_MIN_BYTES && r->log_bytes > COMPACT_RATIO * live)
    rc = compact(r);
  hg_buf_free(&out);
  pthread_mutex_lock(&r->mu);
  if (rc < 0 && !r->broken) {
    r->broken = true;
    hg_log_error("lease.register_write",
                 "path=%s err=\"%s\": refusing every promise from now", r->path,
                 strerror(-rc));
  }
  if (rc == 0) r->durable = upto;
  if (rc == 0 && r->full) {
    r->full = false;
    hg_log_info("lease.register_room", "path=%s msg=\"written again\"", r->path);
  }
  *durable = r->durable;
  pthread_mutex_unlock(&r->mu);
  pthread_mutex_unlock(&r->flush_mu);
  return rc;
}
