/* store: the data dir on btrfs (DESIGN §3), subvolume work through
 * libbtrfsutil, and the loop-mounted image used when the host has no btrfs.
 *
 * The handle is immutable after hg_store_open(), so calls from several
 * threads need no lock: every operation is a path computation plus ioctls
 * or syscalls that the kernel serialises. */
#include "node/store.h"

#include "node/core/err.h"
#include "node/core/log.h"
#include "node/core/util.h"

#include <btrfsutil.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <linux/btrfs.h>
#include <linux/btrfs_tree.h>
#include <linux/loop.h>
#include <linux/magic.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <sys/statvfs.h>
#include <sys/sysmacros.h>
#include <sys/wait.h>
#include <unistd.h>

#define HG_STORE_DEFAULT_IMAGE (64ULL << 30)
/* Attempts at grabbing a free loop device another process may take first. */
#define HG_STORE_LOOP_TRIES 16
/* Where the btrfs superblock magic sits in a formatted device. */
#define HG_BTRFS_MAGIC_OFF 0x10040
#define HG_BTRFS_MAGIC "_BHRfS_M"

extern char **environ;

struct hg_store {
  char root[PATH_MAX];  /* absolute, resolved data dir */
  char image[PATH_MAX]; /* "<root>.img" when root is our loop mount, else "" */
};

/* consoles/: guest console logs, the guest's to write: never replicated. */
static const char *const layout_dirs[] = {
    "templates", "sandboxes", "snapshots", "replicas", "orphans",
    "staging",   "state",     "consoles",  "adopted",
};

/* ---- paths ---------------------------------------------------------- */

/* Store paths come from ids the node made; a ".." or a leading "/" means a
 * bug or a forged id, and must never reach outside the data dir. */
static int check_rel(const char *rel) {
  if (!rel || !rel[0] || rel[0] == '/') return -EINVAL;
  const char *p = rel;
  while (*p) {
    const char *end = strchrnul(p, '/');
    size_t n = (size_t)(end - p);
    if ((n == 1 && p[0] == '.') || (n == 2 && p[0] == '.' && p[1] == '.')) return -EINVAL;
    p = *end ? end + 1 : end;
  }
  return 0;
}

int hg_store_abs(const hg_store *s, const char *rel, char *out, size_t cap) {
  int rc = check_rel(rel);
  if (rc < 0) {
    hg_log_error("store.path", "rel=\"%s\" err=\"invalid store path\"", rel ? rel : "");
    return rc;
  }
  rc = hg_path(out, cap, "%s/%s", s->root, rel);
  if (rc < 0) hg_log_error("store.path", "rel=\"%s\" err=\"%s\"", rel, hg_err_str(rc));
  return rc;
}

/* Copies the directory part of path into out ("/a/b/c" -> "/a/b"). */
static void parent_of(const char *path, char *out, size_t cap) {
  snprintf(out, cap, "%s", path);
  size_t n = strlen(out);
  while (n > 1 && out[n - 1] == '/') out[--n] = '\0';
  char *slash = strrchr(out, '/');
  if (!slash)
    snprintf(out, cap, ".");
  else if (slash == out)
    out[1] = '\0';
  else
    *slash = '\0';
}

static int make_parent(const char *path) {
  char dir[PATH_MAX];
  parent_of(path, dir, sizeof dir);
  return hg_mkdir_p(dir, 0700);
}

/* The data dir, resolved when it exists, and the image path beside it. */
static int resolve_dirs(const char *data_dir, char *root, char *image) {
  if (!data_dir || !data_dir[0]) return -EINVAL;
  if (!realpath(data_dir, root)) {
    if (errno != ENOENT) return -errno;
    int rc = hg_path(root, PATH_MAX, "%s", data_dir);
    if (rc < 0) return rc;
  }
  size_t n = strlen(root);
  while (n > 1 && root[n - 1] == '/') root[--n] = '\0';
  if (strcmp(root, "/") == 0) return -EINVAL;
  return hg_path(image, PATH_MAX, "%s.img", root);
}

/* ---- libbtrfsutil errors --------------------------------------------- */

/* libbtrfsutil leaves errno from the syscall that failed; the few errors it
 * detects itself get the nearest errno. */
static int btrfs_errno(enum btrfs_util_error e, int saved_errno) {
  switch (e) {
    case BTRFS_UTIL_OK:
      return 0;
    case BTRFS_UTIL_ERROR_NO_MEMORY:
      return -ENOMEM;
    case BTRFS_UTIL_ERROR_INVALID_ARGUMENT:
      return -EINVAL;
    case BTRFS_UTIL_ERROR_NOT_BTRFS:
      return -ENOTSUP;
    case BTRFS_UTIL_ERROR_NOT_SUBVOLUME:
      return -EINVAL;
    case BTRFS_UTIL_ERROR_SUBVOLUME_NOT_FOUND:
      return -ENOENT;
    default:
      return saved_errno > 0 ? -saved_errno : -EIO;
  }
}

/* Maps and logs a failed libbtrfsutil call; call it right after the failure
 * so errno is still the library's. */
static int btrfs_fail(enum btrfs_util_error e, const char *event, const char *path,
                      const char *path2) {
  int rc = btrfs_errno(e, errno);
  hg_log_error(event, "path=%s%s%s err=\"%s\" btrfs=\"%s\"", path, path2 ? " to=" : "",
               path2 ? path2 : "", hg_err_str(rc), btrfs_util_strerror(e));
  return rc;
}

static int log_fail(int rc, const char *event, const char *path) {
  hg_log_error(event, "path=%s err=\"%s\"", path, hg_err_str(rc));
  return rc;
}

/* 0 when path is a subvolume, -ENOENT, -EINVAL when it is something else. */
static int want_subvol(const char *path) {
  enum btrfs_util_error e = btrfs_util_is_subvolume(path);
  return btrfs_errno(e, errno);
}

/* Clears the read-only flag of path and of every subvolume below it: a
 * child's entry cannot be removed from a read-only parent (EROFS). */
static int make_writable(const char *path, const char *event) {
  struct btrfs_util_subvolume_iterator *it;
  enum btrfs_util_error e = btrfs_util_set_subvolume_read_only(path, false);
  if (!e) e = btrfs_util_create_subvolume_iterator(path, 0, 0, &it);
  if (e) return btrfs_fail(e, event, path, NULL);
  int rc = 0;
  char *sub, child[PATH_MAX];
  while (rc == 0 && !(e = btrfs_util_subvolume_iterator_next(it, &sub, NULL))) {
    rc = hg_path(child, sizeof child, "%s/%s", path, sub);
    free(sub);
    if (rc == 0 && (e = btrfs_util_set_subvolume_read_only(child, false)))
      rc = btrfs_fail(e, event, child, NULL);
  }
  if (rc == 0 && e != BTRFS_UTIL_ERROR_STOP_ITERATION)
    rc = btrfs_fail(e, event, path, NULL);
  btrfs_util_destroy_subvolume_iterator(it);
  return rc;
}

/* Deletes path and the subvolumes below it; 0 when it is already gone. The
 * common case is one call; only a read-only tree with children needs the
 * flags cleared first. */
static int delete_subvol_tree(const char *path, const char *event) {
  enum btrfs_util_error e =
      btrfs_util_delete_subvolume(path, BTRFS_UTIL_DELETE_SUBVOLUME_RECURSIVE);
  if (e && errno == EROFS) {
    int rc = make_writable(path, event);
    if (rc < 0) return rc;
    e = btrfs_util_delete_subvolume(path, BTRFS_UTIL_DELETE_SUBVOLUME_RECURSIVE);
  }
  if (e && errno == ENOENT) return 0; /* deleted under us: the goal holds */
  return e ? btrfs_fail(e, event, path, NULL) : 0;
}

/* ---- mounts and loop devices ---------------------------------------- */

/* Undoes the octal escapes (\040 for a space) of /proc/self/mountinfo. */
static void unescape_mountinfo(char *s) {
  char *w = s;
  for (char *r = s; *r; r++) {
    if (r[0] == '\\' && r[1] >= '0' && r[1] <= '3' && r[2] >= '0' && r[2] <= '7' &&
        r[3] >= '0' && r[3] <= '7') {
      *w++ = (char)((r[1] - '0') * 64 + (r[2] - '0') * 8 + (r[3] - '0'));
      r += 3;
    } else {
      *w++ = *r;
    }
  }
  *w = '\0';
}

/* Finds the topmost mount on dir; writes its fs type and source. */
static int mount_at(const char *dir, char *fstype, char *source, size_t cap) {
  FILE *f = fopen("/proc/self/mountinfo", "re");
  if (!f) return -errno;
  char *line = NULL;
  size_t len = 0;
  int found = -ENOENT;
  while (getline(&line, &len, f) > 0) {
    char *save, *field[5], *tok = strtok_r(line, " \n", &save);
    int i = 0;
    for (; tok && i < 5; i++, tok = strtok_r(NULL, " \n", &save)) field[i] = tok;
    while (tok && strcmp(tok, "-") != 0) tok = strtok_r(NULL, " \n", &save);
    char *type = tok ? strtok_r(NULL, " \n", &save) : NULL;
    char *src = type ? strtok_r(NULL, " \n", &save) : NULL;
    if (i < 5 || !src) continue;
    unescape_mountinfo(field[4]);
    if (strcmp(field[4], dir) != 0) continue;
    unescape_mountinfo(src);
    snprintf(fstype, cap, "%s", type);
    snprintf(source, cap, "%s", src);
    found = 0; /* keep going: the last line is the mount on top */
  }
  free(line);
  fclose(f);
  return found;
}

/* Whether dir is a btrfs mounted from a loop device backed by image. */
static bool image_mounted_at(const char *dir, const char *image) {
  char type[64], src[PATH_MAX], sys[PATH_MAX], *backing = NULL;
  if (mount_at(dir, type, src, sizeof src) < 0 || strcmp(type, "btrfs") != 0 ||
      strncmp(src, "/dev/loop", 9) != 0)
    return false;
  if (hg_path(sys, sizeof sys, "/sys/block/%s/loop/backing_file", src + 5) < 0 ||
      hg_read_file(sys, PATH_MAX, &backing, NULL) < 0)
    return false;
  backing[strcspn(backing, "\n")] = '\0';
  bool same = strcmp(backing, image) == 0;
  free(backing);
  return same;
}

static int open_loop_dev(int n, char *dev, size_t cap) {
  int rc = hg_path(dev, cap, "/dev/loop%d", n);
  if (rc < 0) return rc;
  int fd = open(dev, O_RDWR | O_CLOEXEC);
  /* A container's static /dev may lack the node the kernel just made. */
  if (fd < 0 && errno == ENOENT) {
    if (mknod(dev, S_IFBLK | 0660, makedev(7, n)) < 0 && errno != EEXIST) return -errno;
    fd = open(dev, O_RDWR | O_CLOEXEC);
  }
  return fd < 0 ? -errno : fd;
}

/* Binds file to the loop device. AUTOCLEAR: the device detaches itself on
 * the last close, so after a failed mount, an unmount or a crash nothing is
 * left attached. */
static int loop_bind(int dev_fd, int file_fd, const char *image) {
  struct loop_config cfg;
  memset(&cfg, 0, sizeof cfg);
  cfg.fd = (uint32_t)file_fd;
  cfg.info.lo_flags = LO_FLAGS_AUTOCLEAR;
  /* Informational only (losetup shows it); the kernel keeps 63 bytes. */
  memcpy(cfg.info.lo_file_name, image, strnlen(image, LO_NAME_SIZE - 1));
  if (ioctl(dev_fd, LOOP_CONFIGURE, &cfg) == 0) return 0;
  if (errno != EINVAL && errno != ENOTTY) return -errno;
  /* Kernels before 5.8: the two-step setup. */
  if (ioctl(dev_fd, LOOP_SET_FD, file_fd) < 0) return -errno;
  if (ioctl(dev_fd, LOOP_SET_STATUS64, &cfg.info) < 0) {
    int rc = -errno;
    ioctl(dev_fd, LOOP_CLR_FD, 0);
    return rc;
  }
  return 0;
}

/* Attaches image to a free loop device; returns the device's fd. */
static int loop_attach(const char *image, char *dev, size_t cap) {
  int ctl = open("/dev/loop-control", O_RDWR | O_CLOEXEC);
  if (ctl < 0) return -errno;
  int file = open(image, O_RDWR | O_CLOEXEC);
  if (file < 0) {
    int rc = -errno;
    close(ctl);
    return rc;
  }
  int rc = -EBUSY;
  for (int i = 0; i < HG_STORE_LOOP_TRIES && rc == -EBUSY; i++) {
    int n = ioctl(ctl, LOOP_CTL_GET_FREE);
    if (n < 0) {
      rc = -errno;
      break;
    }
    int fd = open_loop_dev(n, dev, cap);
    if (fd < 0) {
      rc = fd;
      break;
    }
    rc = loop_bind(fd, file, image);
    if (rc == 0)
      rc = fd;
    else
      close(fd); /* EBUSY: someone took it between GET_FREE and bind */
  }
  close(file);
  close(ctl);
  return rc;
}

/* Direct I/O between the loop device and its image, where the host's
 * filesystem allows it: without, every block the store writes is cached
 * twice and a flush of the store (each fsync in it) writes back every
 * dirty page of the whole image, the running VMs' RAM files included: an
 * adoption record's fsync took 500 ms with VMs restoring (docs/
 * benchmarks.md). With it, the image behaves as a disk does. false:
 * buffered (a host filesystem without O_DIRECT). */
static bool loop_direct_io(int dev_fd) {
  return ioctl(dev_fd, LOOP_SET_DIRECT_IO, 1UL) == 0;
}

static int image_mount(const char *image, const char *root) {
  char dev[64];
  int fd = loop_attach(image, dev, sizeof dev);
  if (fd < 0) return log_fail(fd, "store.loop_attach", image);
  bool dio = loop_direct_io(fd);
  /* noatime: atime updates would dirty metadata in every subvolume read and
   * bloat the incremental sends that replicate them. nosuid, nodev: the fs
   * holds streams received from peers, never binaries or devices to honour. */
  int rc = 0;
  if (mount(dev, root, "btrfs", MS_NOATIME | MS_NOSUID | MS_NODEV, NULL) < 0) rc = -errno;
  close(fd); /* the mount holds the device now; AUTOCLEAR detaches at umount */
  if (rc < 0) return log_fail(rc, "store.mount", root);
  hg_log_info("store.mount", "path=%s image=%s dev=%s direct_io=%d", root, image, dev, dio);
  return 0;
}

static int image_unmount(const char *root) {
  if (umount2(root, UMOUNT_NOFOLLOW) < 0) return log_fail(-errno, "store.umount", root);
  hg_log_info("store.umount", "path=%s", root);
  return 0;
}

/* ---- the image file ----------------------------------------------------- */

static int run_mkfs(const char *image) {
  static const char *const paths[] = {"mkfs.btrfs", "/usr/sbin/mkfs.btrfs",
                                      "/sbin/mkfs.btrfs"};
  char *argv[] = {"mkfs.btrfs", "-q", (char *)image, NULL};
  posix_spawn_file_actions_t fa;
  posix_spawn_file_actions_init(&fa);
  posix_spawn_file_actions_addopen(&fa, 1, "/dev/null", O_WRONLY, 0);
  pid_t pid = 0;
  int err = ENOENT;
  for (size_t i = 0; i < HG_ARRAY_SIZE(paths) && err == ENOENT; i++)
    err = posix_spawnp(&pid, paths[i], &fa, NULL, argv, environ);
  posix_spawn_file_actions_destroy(&fa);
  if (err) return -err;
  int status;
  while (waitpid(pid, &status, 0) < 0)
    if (errno != EINTR) return -errno;
  return WIFEXITED(status) && WEXITSTATUS(status) == 0 ? 0 : -EIO;
}

/* 1 when the image holds a btrfs, 0 when the superblock area is still
 * zero (a fresh image, or one whose mkfs was cut short), -EINVAL when it
 * holds something else, which is never overwritten. */
static int image_formatted(int fd) {
  char magic[8] = {0};
  ssize_t n = pread(fd, magic, sizeof magic, HG_BTRFS_MAGIC_OFF);
  if (n < 0) return -errno;
  if (memcmp(magic, HG_BTRFS_MAGIC, sizeof magic) == 0) return 1;
  static const char zero[8];
  return memcmp(magic, zero, sizeof magic) == 0 ? 0 : -EINVAL;
}

/* Makes the sparse image and its filesystem, resuming any earlier attempt
 * that died half-way. */
static int image_prepare(const char *image, uint64_t size) {
  int fd = open(image, O_RDWR | O_CREAT | O_CLOEXEC, 0600);
  if (fd < 0) return log_fail(-errno, "store.image", image);
  struct stat st;
  int rc = fstat(fd, &st) < 0 ? -errno : 0;
  if (rc == 0 && st.st_size == 0 && ftruncate(fd, (off_t)size) < 0) rc = -errno;
  if (rc == 0) rc = image_formatted(fd);
  close(fd);
  if (rc < 0) return log_fail(rc, "store.image", image);
  if (rc == 1) return 0;
  rc = run_mkfs(image);
  if (rc < 0) return log_fail(rc, "store.mkfs", image);
  hg_log_info("store.mkfs", "image=%s bytes=%llu", image, (unsigned long long)size);
  return 0;
}

/* ---- staging cleanup ------------------------------------------------- */

static int remove_entry(const char *path, const char *event);

/* Removes everything below dir, subvolumes included. */
static int clear_dir(const char *dir, const char *event) {
  DIR *d = opendir(dir);
  if (!d) return errno == ENOENT ? 0 : -errno;
  int rc = 0;
  struct dirent *de;
  while (rc == 0 && (de = readdir(d))) {
    if (strcmp(de->d_name, ".") == 0 || strcmp(de->d_name, "..") == 0) continue;
    char path[PATH_MAX];
    rc = hg_path(path, sizeof path, "%s/%s", dir, de->d_name);
    if (rc == 0) rc = remove_entry(path, event);
  }
  closedir(d);
  return rc;
}

/* rm -rf that knows subvolumes: a plain rmdir cannot remove one that is
 * read-only or has subvolumes of its own. */
static int remove_entry(const char *path, const char *event) {
  struct stat st;
  if (lstat(path, &st) < 0) return errno == ENOENT ? 0 : -errno;
  if (!S_ISDIR(st.st_mode)) return unlink(path) < 0 && errno != ENOENT ? -errno : 0;
  if (want_subvol(path) == 0) return delete_subvol_tree(path, event);
  int rc = clear_dir(path, event);
  if (rc == 0 && rmdir(path) < 0 && errno != ENOENT) rc = -errno;
  return rc;
}

static int make_layout(const hg_store *s) {
  char path[PATH_MAX];
  for (size_t i = 0; i < HG_ARRAY_SIZE(layout_dirs); i++) {
    int rc = hg_path(path, sizeof path, "%s/%s", s->root, layout_dirs[i]);
    /* 0700: the data dir holds guest memory and ownership promises. */
    if (rc == 0) rc = hg_mkdir_p(path, 0700);
    if (rc < 0) return log_fail(rc, "store.layout", path);
  }
  if (hg_path(path, sizeof path, "%s/staging", s->root) < 0) return -ENAMETOOLONG;
  int rc = clear_dir(path, "store.staging_clear");
  if (rc < 0) return log_fail(rc, "store.staging_clear", path);
  return 0;
}

/* ---- open / close ---------------------------------------------------- */

/* Makes sure root is a btrfs, mounting (and if need be making) the image
 * when the host's own filesystem is something else. */
static int attach_fs(hg_store *s, const char *image, uint64_t size, bool *mounted) {
  struct statfs fs;
  *mounted = false;
  if (statfs(s->root, &fs) < 0) return log_fail(-errno, "store.open", s->root);
  if (fs.f_type == BTRFS_SUPER_MAGIC) {
    /* Already btrfs: either the host's or our image from an earlier run. */
    if (image_mounted_at(s->root, image))
      snprintf(s->image, sizeof s->image, "%s", image);
    return 0;
  }
  int rc = image_prepare(image, size);
  if (rc == 0) rc = image_mount(image, s->root);
  if (rc < 0) return rc;
  snprintf(s->image, sizeof s->image, "%s", image);
  *mounted = true;
  return 0;
}

int hg_store_open(const char *data_dir, const hg_store_options *opt, hg_store **out) {
  hg_store *s = calloc(1, sizeof *s);
  if (!s) return -ENOMEM;
  char image[PATH_MAX];
  uint64_t size = opt && opt->image_size ? opt->image_size : HG_STORE_DEFAULT_IMAGE;
  int rc = data_dir && data_dir[0] ? hg_mkdir_p(data_dir, 0700) : -EINVAL;
  if (rc == 0) rc = resolve_dirs(data_dir, s->root, image);
  if (rc < 0) {
    log_fail(rc, "store.open", data_dir ? data_dir : "");
    free(s);
    return rc;
  }
  bool mounted;
  rc = attach_fs(s, image, size, &mounted);
  if (rc == 0) rc = make_layout(s);
  if (rc < 0) {
    /* Undo only our own mount; one found in place belongs to whoever made it. */
    if (mounted) image_unmount(s->root);
    free(s);
    return rc;
  }
  hg_log_info("store.open", "path=%s image=%s", s->root, s->image[0] ? s->image : "none");
  *out = s;
  return 0;
}

void hg_store_close(hg_store *s, bool unmount) {
  if (!s) return;
  if (unmount && s->image[0]) image_unmount(s->root);
  free(s);
}

int hg_store_destroy(const char *data_dir) {
  char root[PATH_MAX], image[PATH_MAX];
  int rc = resolve_dirs(data_dir, root, image);
  if (rc < 0) return log_fail(rc, "store.destroy", data_dir ? data_dir : "");
  /* The image may be mounted more than once on root (a crash between two
   * opens); peel every layer. */
  for (int i = 0; i < 8 && image_mounted_at(root, image); i++) {
    rc = image_unmount(root);
    if (rc < 0) return rc;
  }
  if (unlink(image) < 0 && errno != ENOENT)
    return log_fail(-errno, "store.destroy", image);
  hg_log_info("store.destroy", "path=%s image=%s", root, image);
  return 0;
}

const char *hg_store_root(const hg_store *s) {
  return s->root;
}

/* ---- subvolumes ------------------------------------------------------- */

int hg_store_subvol_create(hg_store *s, const char *rel) {
  char path[PATH_MAX];
  int rc = hg_store_abs(s, rel, path, sizeof path);
  if (rc < 0) return rc;
  rc = make_parent(path);
  if (rc < 0) return log_fail(rc, "store.subvol_create", path);
  enum btrfs_util_error e = btrfs_util_create_subvolume(path, 0, NULL, NULL);
  if (e) return btrfs_fail(e, "store.subvol_create", path, NULL);
  return 0;
}

int hg_store_snapshot(hg_store *s, const char *src, const char *dst, bool readonly) {
  char from[PATH_MAX], to[PATH_MAX];
  int rc = hg_store_abs(s, src, from, sizeof from);
  if (rc == 0) rc = hg_store_abs(s, dst, to, sizeof to);
  if (rc < 0) return rc;
  /* Check the source before making dst's parent, so a bad source leaves
   * nothing behind. */
  rc = want_subvol(from);
  if (rc < 0) return log_fail(rc, "store.snapshot", from);
  rc = make_parent(to);
  if (rc < 0) return log_fail(rc, "store.snapshot", to);
  int flags = readonly ? BTRFS_UTIL_CREATE_SNAPSHOT_READ_ONLY : 0;
  enum btrfs_util_error e = btrfs_util_create_snapshot(from, to, flags, NULL, NULL);
  if (e) return btrfs_fail(e, "store.snapshot", from, to);
  return 0;
}

/* Below the layout dirs ("sandboxes/x", not "sandboxes"): a plain tree may
 * be deleted there, but an empty id must never turn into "sandboxes/". */
static bool below_layout(const char *rel) {
  int parts = 0;
  for (const char *p = rel; *p; p++)
    if (*p != '/' && (p == rel || p[-1] == '/')) parts++;
  return parts >= 2;
}

int hg_store_subvol_delete(hg_store *s, const char *rel) {
  char path[PATH_MAX];
  int rc = hg_store_abs(s, rel, path, sizeof path);
  if (rc < 0) return rc;
  rc = want_subvol(path);
  if (rc == -ENOENT) return 0;
  if (rc == 0) return delete_subvol_tree(path, "store.subvol_delete");
  /* A plain directory such as snapshots/<id>, holding generations. */
  if (rc != -EINVAL || !below_layout(rel))
    return log_fail(rc, "store.subvol_delete", path);
  rc = remove_entry(path, "store.subvol_delete");
  if (rc < 0) return log_fail(rc, "store.subvol_delete", path);
  return 0;
}

int hg_store_set_readonly(hg_store *s, const char *rel, bool ro) {
  char path[PATH_MAX];
  int rc = hg_store_abs(s, rel, path, sizeof path);
  if (rc < 0) return rc;
  enum btrfs_util_error e = btrfs_util_set_subvolume_read_only(path, ro);
  if (e) return btrfs_fail(e, "store.set_readonly", path, NULL);
  return 0;
}

/* btrfs receive finds a parent by uuid or received_uuid, but a clone
 * source (the parent's extents that an increment refers to) only by
 * received_uuid. Recording a subvolume's own uuid as its received_uuid
 * makes it findable both ways on this node when another node sends back an
 * increment against a copy of it. The ioctl refuses read-only subvolumes,
 * so it comes first. */
int hg_store_freeze(hg_store *s, const char *rel) {
  char path[PATH_MAX];
  int rc = hg_store_abs(s, rel, path, sizeof path);
  if (rc < 0) return rc;
  struct btrfs_util_subvolume_info info;
  enum btrfs_util_error e = btrfs_util_subvolume_info(path, 0, &info);
  if (e) return btrfs_fail(e, "store.freeze", path, NULL);
  int fd = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (fd < 0) return log_fail(-errno, "store.freeze", path);
  struct btrfs_ioctl_received_subvol_args args;
  memset(&args, 0, sizeof args);
  memcpy(args.uuid, info.uuid, sizeof args.uuid);
  args.stransid = info.ctransid;
  rc = ioctl(fd, BTRFS_IOC_SET_RECEIVED_SUBVOL, &args) < 0 ? -errno : 0;
  if (rc == 0 && fsync(fd) < 0) rc = -errno;
  close(fd);
  if (rc < 0) return log_fail(rc, "store.freeze", path);
  return hg_store_set_readonly(s, rel, true);
}

bool hg_store_is_subvol(hg_store *s, const char *rel) {
  char path[PATH_MAX];
  if (hg_store_abs(s, rel, path, sizeof path) < 0) return false;
  return btrfs_util_is_subvolume(path) == BTRFS_UTIL_OK;
}

/* Moving a directory to another parent rewrites its "..", which the VFS
 * refuses in a read-only subvolume (EROFS), and a received generation is
 * read-only. It moves writable and gets its flag back at once; the
 * received_uuid that incremental receives match parents by survives. */
static int rename_readonly(const char *from, const char *to) {
  bool ro = false;
  if (btrfs_util_get_subvolume_read_only(from, &ro) != BTRFS_UTIL_OK || !ro)
    return -EROFS;
  enum btrfs_util_error e = btrfs_util_set_subvolume_read_only(from, false);
  if (e) return btrfs_fail(e, "store.move", from, NULL);
  int rc = renameat2(AT_FDCWD, from, AT_FDCWD, to, RENAME_NOREPLACE) < 0 ? -errno : 0;
  const char *now = rc == 0 ? to : from;
  e = btrfs_util_set_subvolume_read_only(now, true);
  if (e) return btrfs_fail(e, "store.move", now, NULL);
  return rc;
}

int hg_store_move(hg_store *s, const char *src, const char *dst) {
  char from[PATH_MAX], to[PATH_MAX], dir[PATH_MAX];
  int rc = hg_store_abs(s, src, from, sizeof from);
  if (rc == 0) rc = hg_store_abs(s, dst, to, sizeof to);
  if (rc < 0) return rc;
  struct stat st;
  if (lstat(from, &st) < 0) return log_fail(-errno, "store.move", from);
  rc = make_parent(to);
  if (rc < 0) return log_fail(rc, "store.move", to);
  /* NOREPLACE: a plain rename would silently swap out an empty dir at dst. */
  rc = renameat2(AT_FDCWD, from, AT_FDCWD, to, RENAME_NOREPLACE) < 0 ? -errno : 0;
  if (rc == -EROFS) rc = rename_readonly(from, to);
  if (rc < 0) {
    hg_log_error("store.move", "path=%s to=%s err=\"%s\"", from, to, hg_err_str(rc));
    return rc;
  }
  parent_of(from, dir, sizeof dir);
  rc = hg_fsync_path(dir);
  parent_of(to, dir, sizeof dir);
  if (rc == 0) rc = hg_fsync_path(dir);
  if (rc < 0) return log_fail(rc, "store.move", dir);
  return 0;
}

/* syncfs through the subvolume (on btrfs a transaction commit: its data,
 * its metadata, and the rename that put it here), then an fsync of each
 * dir from its parent up to the store's root. */
int hg_store_sync(hg_store *s, const char *rel) {
  char path[PATH_MAX];
  int rc = hg_store_abs(s, rel, path, sizeof path);
  if (rc < 0) return rc;
  int fd = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (fd < 0) return log_fail(-errno, "store.sync", path);
  rc = syncfs(fd) < 0 ? -errno : 0;
  close(fd);
  if (rc < 0) return log_fail(rc, "store.sync", path);
  size_t root = strlen(hg_store_root(s));
  for (char *slash = strrchr(path, '/'); slash && (size_t)(slash - path) >= root;
       slash = strrchr(path, '/')) {
    *slash = '\0';
    if ((rc = hg_fsync_path(path)) < 0) return log_fail(rc, "store.sync", path);
  }
  return 0;
}

static void format_uuid(const uint8_t u[16], char out[37]) {
  static const uint8_t zero[16];
  if (memcmp(u, zero, 16) == 0) {
    out[0] = '\0';
    return;
  }
  snprintf(out, 37,
           "%02x%02x%02x%02x-%02x%02x-%02x%02x-%02x%02x-%02x%02x%02x%02x%02x%02x", u[0],
           u[1], u[2], u[3], u[4], u[5], u[6], u[7], u[8], u[9], u[10], u[11], u[12],
           u[13], u[14], u[15]);
}

int hg_store_subvol_info(hg_store *s, const char *rel, hg_subvol_info *out) {
  char path[PATH_MAX];
  int rc = hg_store_abs(s, rel, path, sizeof path);
  if (rc < 0) return rc;
  /* With id 0 libbtrfsutil describes the subvolume *containing* path, so a
   * plain directory would pass as its parent subvolume. */
  rc = want_subvol(path);
  if (rc < 0) return log_fail(rc, "store.subvol_info", path);
  struct btrfs_util_subvolume_info info;
  enum btrfs_util_error e = btrfs_util_subvolume_info(path, 0, &info);
  if (e) return btrfs_fail(e, "store.subvol_info", path, NULL);
  out->id = info.id;
  out->generation = info.generation;
  out->readonly = (info.flags & BTRFS_ROOT_SUBVOL_RDONLY) != 0;
  format_uuid(info.uuid, out->uuid);
  format_uuid(info.received_uuid, out->received_uuid);
  out->otime = info.otime.tv_sec;
  return 0;
}

int hg_store_free_bytes(hg_store *s, uint64_t *out) {
  struct statvfs st;
  if (statvfs(s->root, &st) < 0) return log_fail(-errno, "store.free_bytes", s->root);
  *out = (uint64_t)st.f_bavail * st.f_frsize;
  return 0;
}
