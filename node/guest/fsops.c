/* File operations, freeze/thaw and the after-restore fix-ups. Paths are
 * absolute and bounded; nothing here follows the host's word beyond what the
 * guest's own permissions allow (the agent is root in its own VM). */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <linux/fs.h>
#include <linux/random.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "node/core/ident.h"
#include "node/core/log.h"
#include "node/core/mp.h"
#include "node/core/util.h"
#include "node/guest/agent.h"

/* Room kept free in a list reply for the map around the entries. */
#define LIST_BUDGET (HG_AGENT_MAX_FRAME - 64u * 1024)
#define SEED_MAX 512

static void reply_ok(hg_guest *g, uint64_t id) {
  hg_guest_reply r;
  hg_guest_reply_begin(&r, id, 0);
  hg_guest_reply_end(g, &r);
}

static int done(hg_guest *g, uint64_t id, int rc) {
  if (rc == 0) reply_ok(g, id);
  return rc;
}

static const char *type_name(mode_t m) {
  if (S_ISREG(m)) return "file";
  if (S_ISDIR(m)) return "dir";
  if (S_ISLNK(m)) return "symlink";
  return "other";
}

/* ---- read and write ---------------------------------------------------- */

/* O_NONBLOCK: a FIFO must not stall the agent's only thread in open(). */
static int open_regular(const char *path, int flags, mode_t mode, struct stat *st) {
  int fd = open(path, flags | O_CLOEXEC | O_NOCTTY | O_NONBLOCK, mode);
  if (fd < 0) return -errno;
  int rc = fstat(fd, st) < 0 ? -errno : 0;
  if (rc == 0 && S_ISDIR(st->st_mode))
    rc = -EISDIR;
  else if (rc == 0 && !S_ISREG(st->st_mode))
    rc = -EINVAL; /* devices, FIFOs */
  if (rc < 0) {
    close(fd);
    return rc;
  }
  return fd;
}

/* Reads up to len bytes at off; a short count only at the end of the file
 * (procfs files report size 0 yet have contents, so size is not trusted). */
static ssize_t read_full(int fd, char *buf, size_t len, uint64_t off) {
  size_t got = 0;
  while (got < len) {
    ssize_t n = pread(fd, buf + got, len - got, (off_t)(off + got));
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) return -errno;
    if (n == 0) break;
    got += (size_t)n;
  }
  return (ssize_t)got;
}

int hg_guest_op_file_read(hg_guest *g, uint64_t id, const msgpack_object *req) {
  char path[HG_GUEST_PATH_MAX];
  uint64_t off, len;
  struct stat st;
  int rc = hg_guest_arg_path(req, "path", path);
  if (rc == 0) rc = hg_guest_arg_u64(req, "offset", 0, INT64_MAX / 2, &off);
  if (rc == 0)
    rc = hg_guest_arg_u64(req, "len", HG_AGENT_MAX_DATA, HG_AGENT_MAX_DATA, &len);
  if (rc < 0) return rc;
  int fd = open_regular(path, O_RDONLY, 0, &st);
  if (fd < 0) return fd;
  char *buf = malloc(len ? len : 1);
  ssize_t n = buf ? read_full(fd, buf, len, off) : -ENOMEM;
  close(fd);
  if (n < 0) {
    free(buf);
    return (int)n;
  }
  hg_guest_reply r;
  hg_guest_reply_begin(&r, id, 2);
  hg_mp_pack_kv_bin(&r.pk, "data", buf, (size_t)n);
  hg_mp_pack_kv_u64(&r.pk, "size", (uint64_t)st.st_size);
  hg_guest_reply_end(g, &r);
  free(buf);
  return 0;
}

static int write_full(int fd, const char *p, size_t len, uint64_t off) {
  while (len > 0) {
    ssize_t n = pwrite(fd, p, len, (off_t)off);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) return -errno;
    p += n;
    off += (uint64_t)n;
    len -= (size_t)n;
  }
  return 0;
}

int hg_guest_op_file_write(hg_guest *g, uint64_t id, const msgpack_object *req) {
  char path[HG_GUEST_PATH_MAX];
  const char *data;
  size_t len;
  uint64_t off, mode;
  bool trunc;
  struct stat st;
  int rc = hg_guest_arg_path(req, "path", path);
  if (rc == 0) rc = hg_guest_arg_bin(req, "data", HG_AGENT_MAX_DATA, &data, &len);
  if (rc == 0) rc = hg_guest_arg_u64(req, "offset", 0, INT64_MAX / 2, &off);
  if (rc == 0) rc = hg_guest_arg_bool(req, "trunc", false, &trunc);
  if (rc == 0) rc = hg_guest_arg_u64(req, "mode", 0644, 07777, &mode);
  if (rc < 0) return rc;
  if (g->frozen) return -EBUSY; /* a write now would block the agent itself */
  int fd =
      open_regular(path, O_WRONLY | O_CREAT | (trunc ? O_TRUNC : 0), (mode_t)mode, &st);
  if (fd < 0) return fd;
  /* An explicit mode is the file's, umask or not, when it is (re)written
   * from the start; without one an existing file keeps its own. */
  if (trunc && hg_mp_get(req, "mode") && fchmod(fd, (mode_t)mode) < 0) rc = -errno;
  if (rc == 0) rc = write_full(fd, data, len, off);
  if (close(fd) < 0 && rc == 0) rc = -errno;
  return done(g, id, rc);
}

/* ---- metadata ---------------------------------------------------------- */

static void pack_stat(msgpack_packer *pk, const struct stat *st) {
  hg_mp_pack_kv_str(pk, "type", type_name(st->st_mode));
  hg_mp_pack_kv_u64(pk, "size", (uint64_t)st->st_size);
  hg_mp_pack_kv_u64(pk, "mode", st->st_mode & 07777);
  hg_mp_pack_kv_i64(pk, "mtime", st->st_mtim.tv_sec);
}

int hg_guest_op_stat(hg_guest *g, uint64_t id, const msgpack_object *req) {
  char path[HG_GUEST_PATH_MAX];
  struct stat st;
  int rc = hg_guest_arg_path(req, "path", path);
  if (rc < 0) return rc;
  if (lstat(path, &st) < 0) return -errno;
  hg_guest_reply r;
  hg_guest_reply_begin(&r, id, 4);
  pack_stat(&r.pk, &st);
  hg_guest_reply_end(g, &r);
  return 0;
}

/* Packs entries until the frame budget is spent; *truncated says so. */
static int list_pack(DIR *d, msgpack_sbuffer *sb, uint32_t *count, bool *truncated) {
  msgpack_packer pk;
  msgpack_packer_init(&pk, sb, msgpack_sbuffer_write);
  struct dirent *e;
  *count = 0;
  *truncated = false;
  errno = 0;
  while ((e = readdir(d))) {
    if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0) continue;
    if (sb->size > LIST_BUDGET) {
      *truncated = true;
      return 0;
    }
    struct stat st;
    if (fstatat(dirfd(d), e->d_name, &st, AT_SYMLINK_NOFOLLOW) < 0)
      continue; /* raced away */
    msgpack_pack_map(&pk, 5);
    hg_mp_pack_kv_str(&pk, "name", e->d_name);
    pack_stat(&pk, &st);
    (*count)++;
  }
  return errno ? -errno : 0;
}

int hg_guest_op_list(hg_guest *g, uint64_t id, const msgpack_object *req) {
  char path[HG_GUEST_PATH_MAX];
  int rc = hg_guest_arg_path(req, "path", path);
  if (rc < 0) return rc;
  DIR *d = opendir(path);
  if (!d) return -errno;
  msgpack_sbuffer entries;
  msgpack_sbuffer_init(&entries);
  uint32_t count;
  bool truncated;
  rc = list_pack(d, &entries, &count, &truncated);
  closedir(d);
  if (rc == 0) {
    hg_guest_reply r;
    hg_guest_reply_begin(&r, id, 2);
    hg_mp_pack_str(&r.pk, "entries");
    msgpack_pack_array(&r.pk, count);
    msgpack_sbuffer_write(&r.sb, entries.data, entries.size);
    hg_mp_pack_kv_bool(&r.pk, "truncated", truncated);
    hg_guest_reply_end(g, &r);
  }
  msgpack_sbuffer_destroy(&entries);
  return rc;
}

/* ---- changes to the tree ----------------------------------------------- */

int hg_guest_op_mkdir(hg_guest *g, uint64_t id, const msgpack_object *req) {
  char path[HG_GUEST_PATH_MAX];
  bool parents;
  int rc = hg_guest_arg_path(req, "path", path);
  if (rc == 0) rc = hg_guest_arg_bool(req, "parents", false, &parents);
  if (rc < 0) return rc;
  if (g->frozen) return -EBUSY;
  if (!parents) return done(g, id, mkdir(path, 0755) < 0 ? -errno : 0);
  rc = hg_mkdir_p(path, 0755);
  struct stat st;
  if (rc == 0 && stat(path, &st) == 0 && !S_ISDIR(st.st_mode)) rc = -ENOTDIR;
  return done(g, id, rc);
}

int hg_guest_op_remove(hg_guest *g, uint64_t id, const msgpack_object *req) {
  char path[HG_GUEST_PATH_MAX];
  bool recursive;
  struct stat st;
  int rc = hg_guest_arg_path(req, "path", path);
  if (rc == 0) rc = hg_guest_arg_bool(req, "recursive", false, &recursive);
  if (rc < 0) return rc;
  if (g->frozen) return -EBUSY;
  if (strspn(path, "/") == strlen(path)) return -EBUSY; /* never the root */
  if (lstat(path, &st) < 0) return -errno;
  if (!S_ISDIR(st.st_mode))
    rc = unlink(path) < 0 ? -errno : 0;
  else if (!recursive)
    rc = rmdir(path) < 0 ? -errno : 0;
  else
    rc = hg_rm_rf(path);
  return done(g, id, rc);
}

int hg_guest_op_rename(hg_guest *g, uint64_t id, const msgpack_object *req) {
  char from[HG_GUEST_PATH_MAX], to[HG_GUEST_PATH_MAX];
  int rc = hg_guest_arg_path(req, "from", from);
  if (rc == 0) rc = hg_guest_arg_path(req, "to", to);
  if (rc < 0) return rc;
  if (g->frozen) return -EBUSY;
  return done(g, id, rename(from, to) < 0 ? -errno : 0);
}

/* ---- freeze / thaw ----------------------------------------------------- */

static int freeze_ioctl(const char *path, unsigned long req) {
  int fd = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (fd < 0) return -errno;
  int rc = ioctl(fd, req, 0) < 0 ? -errno : 0;
  close(fd);
  return rc;
}

int hg_guest_op_freeze(hg_guest *g, uint64_t id, const msgpack_object *req) {
  if (!g->freeze_path) return -EPERM; /* test modes: never the host's / */
  if (g->frozen) return -EBUSY;
  int rc = freeze_ioctl(g->freeze_path, FIFREEZE);
  if (rc < 0) return rc;
  g->frozen = true;
  g->frozen_until = hg_now_ms() + HG_GUEST_FREEZE_MAX_MS;
  hg_log_info("agent.freeze", "path=%s", g->freeze_path);
  return done(g, id, 0);
}

int hg_guest_op_thaw(hg_guest *g, uint64_t id, const msgpack_object *req) {
  if (!g->freeze_path) return -EPERM;
  int rc = freeze_ioctl(g->freeze_path, FITHAW);
  if (rc < 0 && !(rc == -EINVAL && g->frozen)) return rc;
  g->frozen = false;
  hg_log_info("agent.thaw", "path=%s", g->freeze_path);
  return done(g, id, 0);
}

/* A host that froze the guest and died must not leave it frozen forever. */
void hg_guest_freeze_tick(hg_guest *g, int64_t now) {
  if (!g->frozen || now < g->frozen_until) return;
  int rc = freeze_ioctl(g->freeze_path, FITHAW);
  g->frozen = false;
  hg_log_warn("agent.thaw", "why=freeze_too_long err=%d", rc < 0 ? -rc : 0);
}

/* ---- restored ---------------------------------------------------------- */

typedef struct restored_args {
  uint64_t wall_ns;
  bool has_wall;
  const char *seed;
  size_t seed_len;
  char hostname[65];
  char machine_id[33];
  uint64_t gen, epoch; /* 0: not said */
  char node[65];       /* "": not said */
} restored_args;

static bool hostname_ok(const char *s) {
  size_t n = strlen(s);
  return n > 0 && n <= 64 && s[0] != '-' && s[0] != '.' &&
         strspn(s, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-.") ==
             n;
}

static int restored_parse(const msgpack_object *req, restored_args *a) {
  memset(a, 0, sizeof *a);
  int rc = hg_mp_u64(req, "wall_ns", &a->wall_ns);
  if (rc < 0 && rc != -ENOENT) return -EINVAL;
  a->has_wall = rc == 0;
  rc = hg_guest_arg_bin(req, "seed", SEED_MAX, &a->seed, &a->seed_len);
  if (rc < 0) return -EINVAL;
  rc = hg_mp_strcpy(req, "hostname", a->hostname, sizeof a->hostname);
  if (rc == 0 && !hostname_ok(a->hostname)) return -EINVAL;
  if (rc < 0 && rc != -ENOENT) return -EINVAL;
  rc = hg_mp_strcpy(req, "machine_id", a->machine_id, sizeof a->machine_id);
  if (rc == 0 &&
      (strlen(a->machine_id) != 32 || strspn(a->machine_id, "0123456789abcdef") != 32))
    return -EINVAL;
  if (rc < 0 && rc != -ENOENT) return -EINVAL;
  if ((rc = hg_mp_u64(req, "gen", &a->gen)) < 0 && rc != -ENOENT) return -EINVAL;
  if ((rc = hg_mp_u64(req, "epoch", &a->epoch)) < 0 && rc != -ENOENT) return -EINVAL;
  rc = hg_mp_strcpy(req, "node", a->node, sizeof a->node);
  if (rc == 0 && !hg_node_id_valid(a->node)) return -EINVAL;
  if (rc < 0 && rc != -ENOENT) return -EINVAL;
  return 0;
}

/* Credits the seed to the kernel pool and forces a reseed, so two VMs
 * restored from one image stop sharing their random stream at once. */
static int reseed(const char *seed, size_t len) {
  int fd = open("/dev/random", O_WRONLY | O_CLOEXEC);
  if (fd < 0) return -errno;
  struct rand_pool_info *info = malloc(sizeof *info + SEED_MAX);
  int rc = -ENOMEM;
  if (info) {
    info->entropy_count = (int)(len * 8);
    info->buf_size = (int)len;
    memcpy(info->buf, seed, len);
    rc = ioctl(fd, RNDADDENTROPY, info) < 0 ? -errno : 0;
    free(info);
  }
#ifdef RNDRESEEDCRNG
  if (rc == 0 && ioctl(fd, RNDRESEEDCRNG) < 0) rc = -errno;
#endif
  close(fd);
  /* Also mixed in uncredited, which works even where the ioctl is refused. */
  fd = open("/dev/urandom", O_WRONLY | O_CLOEXEC);
  if (fd >= 0) {
    ssize_t w = write(fd, seed, len);
    (void)w;
    close(fd);
  }
  return rc;
}

/* Identity files are rewritten at every restore. No fsync: the guest's page
 * cache is part of the memory image a suspend saves, and a disk snapshot
 * freezes (flushes) the filesystem first; an fsync here cost a journal
 * commit on every create (hundreds of ms under TCG). Unchanged files are
 * left alone. */
static int write_text(const char *path, const char *buf) {
  char old[512] = "", tmp[PATH_MAX];
  int rc;
  int fd = open(path, O_RDONLY | O_CLOEXEC);
  if (fd >= 0) {
    ssize_t n = read(fd, old, sizeof old - 1);
    old[n > 0 ? n : 0] = '\0';
    close(fd);
    if (strcmp(old, buf) == 0) return 0;
  }
  if ((rc = hg_path(tmp, sizeof tmp, "%s.new", path)) < 0) return rc;
  fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  if (fd < 0) return -errno;
  size_t len = strlen(buf);
  rc = write(fd, buf, len) == (ssize_t)len ? 0 : -EIO;
  close(fd);
  if (rc == 0 && rename(tmp, path) < 0) rc = -errno;
  if (rc < 0) unlink(tmp);
  return rc;
}

static int write_line(const char *path, const char *s) {
  char buf[80];
  int rc = hg_path(buf, sizeof buf, "%s\n", s);
  return rc < 0 ? rc : write_text(path, buf);
}

/* <state dir>/restored: how the guest was last restored, for programs in
 * it to read (a sandbox moved to another node, or rolled back to a
 * checkpoint, sees a new epoch, node or generation there). restores counts
 * the restores this guest's memory has seen: a guest restored twice from
 * one checkpoint reads the same count twice. */
static int write_restored(hg_guest *g, const restored_args *a) {
  char path[PATH_MAX], text[512];
  if (!g->state_dir) return 0;
  int rc = hg_mkdir_p(g->state_dir, 0755);
  if (rc == 0) rc = hg_path(path, sizeof path, "%s/restored", g->state_dir);
  if (rc == 0)
    rc = hg_path(text, sizeof text,
                 "restores=%" PRIu64 "\ngeneration=%" PRIu64 "\nepoch=%" PRIu64
                 "\nnode=%s\nrestored_at_ns=%" PRIu64 "\n",
                 g->restores, a->gen, a->epoch, a->node,
                 a->has_wall ? a->wall_ns : (uint64_t)hg_wall_ns());
  return rc < 0 ? rc : write_text(path, text);
}

static int restored_apply(const restored_args *a) {
  int rc = 0, r;
  if (a->has_wall) {
    struct timespec ts = {(time_t)(a->wall_ns / 1000000000u),
                          (long)(a->wall_ns % 1000000000u)};
    if (clock_settime(CLOCK_REALTIME, &ts) < 0 && !rc) rc = -errno;
  }
  if (a->seed_len && (r = reseed(a->seed, a->seed_len)) < 0 && !rc) rc = r;
  if (a->hostname[0]) {
    if (sethostname(a->hostname, strlen(a->hostname)) < 0 && !rc) rc = -errno;
    if ((r = write_line("/etc/hostname", a->hostname)) < 0)
      hg_log_warn("agent.restored", "file=/etc/hostname err=%d", -r);
  }
  if (a->machine_id[0] && (r = write_line("/etc/machine-id", a->machine_id)) < 0 && !rc)
    rc = r;
  return rc;
}

int hg_guest_op_restored(hg_guest *g, uint64_t id, const msgpack_object *req) {
  restored_args a;
  int rc = restored_parse(req, &a);
  if (rc < 0) return rc;
  if (g->frozen) return -EBUSY;
  if (!g->sys_ok) {
    /* A test agent on a host must not set the host's clock or name; it
     * writes the state file where --state-dir says. */
    g->restores++;
    hg_log_info("agent.restored", "applied=0 why=test_mode");
    return done(g, id, write_restored(g, &a));
  }
  rc = restored_apply(&a);
  g->restores++;
  int r = write_restored(g, &a);
  if (r < 0 && !rc) rc = r;
  hg_log_info("agent.restored", "err=%d hostname=%s gen=%" PRIu64 " epoch=%" PRIu64 " node=%s",
              rc < 0 ? -rc : 0, a.hostname, a.gen, a.epoch, a.node);
  return done(g, id, rc);
}
