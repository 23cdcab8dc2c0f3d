/* stream: btrfs send -> zstd -> emit() on one side, zstd -> `btrfs receive`
 * on the other (DESIGN §10).
 *
 * Memory stays bounded on both ends: the sender holds one read buffer, one
 * chunk and zstd's context; the receiver one output buffer and a zstd
 * window capped at HG_STREAM_WINDOW_LOG, whatever the frame header asks for.
 * Back-pressure is the pipe: a slow emit() stops reading, the full pipe
 * stops the send ioctl; a slow `btrfs receive` blocks feed(). */
#include "replication/stream.h"
#include "replication/sendstream.h"

#include "node/core/err.h"
#include "node/core/log.h"
#include "node/core/util.h"

#include <btrfsutil.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <linux/btrfs.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>
#include <zstd.h>

#define HG_STREAM_READ (1u << 20)     /* bytes per read of the send pipe */
#define HG_STREAM_PIPE (1u << 20)     /* pipe capacity asked for, both ends */
#define HG_STREAM_PROGRESS (4u << 20) /* send stream bytes between progress calls */
#define HG_STREAM_OUT (256u * 1024)   /* decompressed bytes per write to the child */
#define HG_STREAM_MIN_LEVEL 1
#define HG_STREAM_MAX_LEVEL 19
/* zstd levels up to 19 never use a window above 8 MiB; a frame asking for
 * more did not come from hg_stream_send and is refused, not allocated. */
#define HG_STREAM_WINDOW_LOG 23
#define HG_STREAM_TAIL 1024 /* bytes of the child's stderr kept for messages */
/* RFC 8878: 4 bytes of magic, then the frame header descriptor whose bit 2
 * says a content checksum follows the frame. */
#define HG_ZSTD_HEAD 5
#define HG_ZSTD_FHD_CHECKSUM 0x04

extern char **environ;

/* ---- sending ------------------------------------------------------------ */

typedef struct send_job {
  int fd;             /* the subvolume being sent */
  int pipe_w;         /* the ioctl writes here; closed by the thread */
  uint64_t parent_id; /* root id of the parent, 0 for a full stream */
  int rc;             /* the ioctl's result */
} send_job;

/* The compressor's side: what has been read from the pipe goes through
 * zstd into out, which is emitted each time it fills. */
typedef struct pump {
  ZSTD_CCtx *cctx;
  ZSTD_outBuffer out;
  hg_stream_emit_fn emit;
  hg_stream_progress_fn progress;
  void *ud;
  hg_stream_stats *st;
  uint64_t next_progress;
  int emit_rc; /* what emit() returned when it stopped the stream */
} pump;

static int btrfs_errno(enum btrfs_util_error e, int saved_errno) {
  if (e == BTRFS_UTIL_ERROR_NOT_SUBVOLUME || e == BTRFS_UTIL_ERROR_NOT_BTRFS)
    return -EINVAL;
  if (e == BTRFS_UTIL_ERROR_NO_MEMORY) return -ENOMEM;
  return saved_errno > 0 ? -saved_errno : -EIO;
}

/* Opens path when it is a read-only subvolume and gives its root id;
 * -EINVAL when it is anything else. */
static int open_ro_subvol(const char *path, int *fd_out, uint64_t *id) {
  int fd = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (fd < 0) return errno == ENOTDIR ? -EINVAL : -errno;
  bool ro = false;
  enum btrfs_util_error e = btrfs_util_is_subvolume_fd(fd);
  if (!e) e = btrfs_util_get_subvolume_read_only_fd(fd, &ro);
  if (!e) e = btrfs_util_subvolume_id_fd(fd, id);
  int rc = e ? btrfs_errno(e, errno) : ro ? 0 : -EINVAL;
  if (rc < 0) {
    close(fd);
    return rc;
  }
  *fd_out = fd;
  return 0;
}

static int fs_uuid(int fd, uint8_t out[BTRFS_FSID_SIZE]) {
  struct btrfs_ioctl_fs_info_args a;
  memset(&a, 0, sizeof a);
  if (ioctl(fd, BTRFS_IOC_FS_INFO, &a) < 0) return -errno;
  memcpy(out, a.fsid, BTRFS_FSID_SIZE);
  return 0;
}

/* The parent is named by root id in the ioctl: one on another filesystem
 * would silently pick whatever subvolume has that id here. */
static int parent_id_of(int fd, const char *parent, uint64_t *id) {
  int pfd = -1;
  int rc = open_ro_subvol(parent, &pfd, id);
  if (rc < 0) return rc;
  uint8_t a[BTRFS_FSID_SIZE], b[BTRFS_FSID_SIZE];
  rc = fs_uuid(fd, a);
  if (rc == 0) rc = fs_uuid(pfd, b);
  if (rc == 0 && memcmp(a, b, sizeof a) != 0) rc = -EXDEV;
  close(pfd);
  return rc;
}

static void *send_thread(void *arg) {
  send_job *j = arg;
  __u64 clone = j->parent_id;
  struct btrfs_ioctl_send_args a;
  memset(&a, 0, sizeof a);
  a.send_fd = j->pipe_w;
  if (j->parent_id) {
    a.parent_root = j->parent_id;
    a.clone_sources = &clone; /* the parent's extents are shared, not sent */
    a.clone_sources_count = 1;
  }
  j->rc = ioctl(j->fd, BTRFS_IOC_SEND, &a) < 0 ? -errno : 0;
  close(j->pipe_w); /* EOF for the reader */
  j->pipe_w = -1;
  return NULL;
}

/* The thread starts with every signal blocked: a write into a pipe whose
 * reader went away raises SIGPIPE at the writer, here the kernel inside
 * the ioctl, and a blocked one is dropped with the thread. */
static int start_thread(pthread_t *t, void *(*fn)(void *), void *arg) {
  sigset_t all, old;
  sigfillset(&all);
  pthread_sigmask(SIG_SETMASK, &all, &old);
  int err = pthread_create(t, NULL, fn, arg);
  pthread_sigmask(SIG_SETMASK, &old, NULL);
  return -err;
}

static int pump_emit(pump *p) {
  if (p->out.pos == 0) return 0;
  int rc = p->emit(p->ud, p->out.dst, p->out.pos);
  if (rc < 0) return p->emit_rc = rc;
  p->st->zstd_bytes += p->out.pos;
  p->st->chunks++;
  p->out.pos = 0;
  return 0;
}

/* Compresses data, emitting every chunk that fills. ZSTD_e_end also ends
 * the frame and emits what is left. */
static int pump_compress(pump *p, const void *data, size_t len, ZSTD_EndDirective mode) {
  ZSTD_inBuffer in = {data, len, 0};
  for (;;) {
    size_t left = ZSTD_compressStream2(p->cctx, &p->out, &in, mode);
    if (ZSTD_isError(left)) {
      hg_log_error("stream.send", "err=\"zstd: %s\"", ZSTD_getErrorName(left));
      return -ENOMEM; /* the only way a compressor fails on good arguments */
    }
    bool done = mode == ZSTD_e_end ? left == 0 : in.pos == in.size;
    if (p->out.pos == p->out.size || (done && mode == ZSTD_e_end)) {
      int rc = pump_emit(p);
      if (rc < 0) return rc;
    }
    if (done) return 0;
  }
}

/* Reads the send stream until EOF (the ioctl thread closed its end). */
static int pump_run(pump *p, int fd, uint8_t *buf) {
  for (;;) {
    ssize_t n = read(fd, buf, HG_STREAM_READ);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) return -errno;
    if (n == 0) return 0;
    p->st->raw_bytes += (uint64_t)n;
    int rc = pump_compress(p, buf, (size_t)n, ZSTD_e_continue);
    if (rc < 0) return rc;
    if (p->progress && p->st->raw_bytes >= p->next_progress) {
      p->progress(p->ud, p->st);
      p->next_progress = p->st->raw_bytes + HG_STREAM_PROGRESS;
    }
  }
}

static ZSTD_CCtx *make_cctx(int level) {
  ZSTD_CCtx *c = ZSTD_createCCtx();
  if (!c) return NULL;
  if (ZSTD_isError(ZSTD_CCtx_setParameter(c, ZSTD_c_compressionLevel, level)) ||
      ZSTD_isError(ZSTD_CCtx_setParameter(c, ZSTD_c_checksumFlag, 1))) {
    ZSTD_freeCCtx(c);
    return NULL;
  }
  return c;
}

static int make_pipe(int *r, int *w) {
  int p[2];
  if (pipe2(p, O_CLOEXEC) < 0) return -errno;
  /* Fewer, bigger transfers; the default 64 KiB is a wakeup per 64 KiB. A
   * refusal (pipe-max-size, user quota) only costs speed. */
  (void)fcntl(p[1], F_SETPIPE_SZ, (int)HG_STREAM_PIPE);
  *r = p[0];
  *w = p[1];
  return 0;
}

/* Runs the ioctl thread and the pump until both are done. The pipe's read
 * end is closed before the join: a pump that stopped early (emit failed)
 * makes the ioctl fail with EPIPE instead of waiting for a reader. */
static int send_run(send_job *job, int pipe_r, pump *p) {
  uint8_t *buf = malloc(HG_STREAM_READ);
  pthread_t t;
  int rc = buf ? start_thread(&t, send_thread, job) : -ENOMEM;
  if (rc < 0) {
    free(buf);
    close(pipe_r);
    close(job->pipe_w);
    return rc;
  }
  rc = pump_run(p, pipe_r, buf);
  close(pipe_r);
  pthread_join(t, NULL);
  free(buf);
  if (rc == 0) rc = job->rc;
  /* The frame is ended only after a whole send stream: a stream cut short
   * by a failed ioctl reaches the receiver as a truncated frame. */
  if (rc == 0) rc = pump_compress(p, NULL, 0, ZSTD_e_end);
  return rc;
}

int hg_stream_send(const char *subvol, const char *parent, int level,
                   hg_stream_emit_fn emit, hg_stream_progress_fn progress, void *ud,
                   hg_stream_stats *st) {
  hg_stream_stats local;
  if (!st) st = &local;
  memset(st, 0, sizeof *st);
  if (!subvol || !emit || level < HG_STREAM_MIN_LEVEL || level > HG_STREAM_MAX_LEVEL)
    return -EINVAL;

  send_job job = {.fd = -1, .pipe_w = -1};
  uint64_t id;
  int pipe_r = -1;
  int rc = open_ro_subvol(subvol, &job.fd, &id);
  if (rc == 0 && parent) rc = parent_id_of(job.fd, parent, &job.parent_id);
  uint8_t *chunk = rc == 0 ? malloc(HG_STREAM_CHUNK) : NULL;
  pump p = {
      .cctx = rc == 0 ? make_cctx(level) : NULL,
      .out = {chunk, HG_STREAM_CHUNK, 0},
      .emit = emit,
      .progress = progress,
      .ud = ud,
      .st = st,
      .next_progress = HG_STREAM_PROGRESS,
  };
  if (rc == 0 && (!chunk || !p.cctx)) rc = -ENOMEM;
  if (rc == 0) rc = make_pipe(&pipe_r, &job.pipe_w);
  if (rc == 0) rc = send_run(&job, pipe_r, &p);
  if (rc < 0 && rc != p.emit_rc) /* emit's own failure is the caller's to report */
    hg_log_error("stream.send", "subvol=%s parent=%s err=\"%s\"", subvol,
                 parent ? parent : "", hg_err_str(rc));
  ZSTD_freeCCtx(p.cctx);
  free(chunk);
  if (job.fd >= 0) close(job.fd);
  return rc;
}

/* ---- receiving ---------------------------------------------------------- */

struct hg_stream_recv {
  char dir[PATH_MAX];
  pid_t pid;  /* the `btrfs receive` child, 0 once reaped */
  int in_fd;  /* its stdin, -1 once closed */
  int out_fd; /* memfd holding its stderr */
  ZSTD_DCtx *dctx;
  uint8_t *out; /* HG_STREAM_OUT bytes */
  uint64_t raw; /* bytes written to the child */
  uint8_t head[HG_ZSTD_HEAD];
  size_t head_len;
  bool frame_done;           /* the frame ended with its checksum verified */
  hg_sendstream_check check; /* the decompressed bytes, before the child sees them */
  bool child_quit;           /* it stopped reading before the end: feed says -EPIPE */
  int failed;                /* the first error, sticky; what finish returns */
  char err[HG_STREAM_TAIL + 64];
};

static pthread_once_t sigpipe_once = PTHREAD_ONCE_INIT;

/* A child that quits makes our next write to its stdin EPIPE, and SIGPIPE,
 * which by default kills the whole process. hangard ignores it already;
 * this keeps the module safe in other programs (tests, tools) without
 * replacing a handler someone installed. */
static void ignore_sigpipe(void) {
  struct sigaction sa;
  if (sigaction(SIGPIPE, NULL, &sa) == 0 && sa.sa_handler == SIG_DFL) {
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = SIG_IGN;
    sigaction(SIGPIPE, &sa, NULL);
  }
}

__attribute__((format(printf, 3, 4))) static int recv_fail(hg_stream_recv *r, int rc,
                                                           const char *fmt, ...) {
  if (r->failed) return r->failed;
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(r->err, sizeof r->err, fmt, ap);
  va_end(ap);
  r->failed = rc;
  return rc;
}

/* The last HG_STREAM_TAIL bytes the child wrote, made one printable line:
 * it ends up in logs and JSON, and stream bytes (path names) reach it. */
static void child_tail(const hg_stream_recv *r, char *out, size_t cap) {
  char raw[HG_STREAM_TAIL];
  struct stat st;
  out[0] = '\0';
  if (cap == 0 || fstat(r->out_fd, &st) < 0 || st.st_size <= 0) return;
  off_t off = st.st_size > HG_STREAM_TAIL ? st.st_size - HG_STREAM_TAIL : 0;
  ssize_t n = pread(r->out_fd, raw, sizeof raw, off);
  if (n <= 0) return;
  size_t i = 0, len = (size_t)n, w = 0;
  if (off > 0) /* cut mid-line: start at the next whole one */
    while (i < len && raw[i++] != '\n') {
    }
  while (len > i && (raw[len - 1] == '\n' || raw[len - 1] == ' ')) len--;
  /* "-C" makes btrfs receive say "Chroot to <staging>" first: only a
   * staging path, which would crowd the error out of short messages. */
  static const char chroot_line[] = "Chroot to ";
  if (len - i > sizeof chroot_line - 1 &&
      memcmp(raw + i, chroot_line, sizeof chroot_line - 1) == 0) {
    while (i < len && raw[i] != '\n') i++;
    if (i < len) i++;
  }
  for (; i < len && w + 3 < cap; i++) {
    unsigned char c = (unsigned char)raw[i];
    if (c == '\n') {
      out[w++] = ';';
      out[w++] = ' ';
    } else {
      out[w++] = c >= 0x20 && c < 0x7f ? (char)c : '?';
    }
  }
  out[w] = '\0';
}

static int child_failed(hg_stream_recv *r, const char *what) {
  char tail[HG_STREAM_TAIL];
  child_tail(r, tail, sizeof tail);
  /* btrfs receive reports with strerror(): a full disk is worth telling
   * apart (the sender can pick another holder). */
  int rc = strstr(tail, strerror(ENOSPC)) ? -ENOSPC : -EIO;
  return recv_fail(r, rc, "btrfs receive %s: %s", what, tail[0] ? tail : "no message");
}

/* 0 when dir is an existing, empty directory. */
static int check_empty_dir(const char *dir) {
  DIR *d = opendir(dir);
  if (!d) return -errno;
  int rc = 0;
  struct dirent *e;
  while (rc == 0 && (e = readdir(d)))
    if (strcmp(e->d_name, ".") != 0 && strcmp(e->d_name, "..") != 0) rc = -ENOTEMPTY;
  closedir(d);
  return rc;
}

/* The btrfs binary, as execve needs it (a path, looked up before the fork:
 * the child may only make system calls). */
static int find_btrfs(char out[PATH_MAX]) {
  static const char *const fixed[] = {"/usr/bin/btrfs", "/sbin/btrfs", "/usr/sbin/btrfs",
                                      "/bin/btrfs"};
  const char *path = getenv("PATH");
  char copy[4096];
  snprintf(copy, sizeof copy, "%s", path ? path : "");
  for (char *save, *d = strtok_r(copy, ":", &save); d; d = strtok_r(NULL, ":", &save))
    if (d[0] == '/' && hg_path(out, PATH_MAX, "%s/btrfs", d) == 0 &&
        access(out, X_OK) == 0)
      return 0;
  for (size_t i = 0; i < HG_ARRAY_SIZE(fixed); i++)
    if (access(fixed[i], X_OK) == 0) return hg_path(out, PATH_MAX, "%s", fixed[i]);
  return -ENOENT;
}

/* The mount that holds dir, by its root: the one the child may write. */
static int mount_root_of(const char *dir, char out[PATH_MAX]) {
  struct statx sx;
  char cur[PATH_MAX];
  if (!realpath(dir, cur)) return -errno;
  if (statx(AT_FDCWD, cur, 0, STATX_MNT_ID, &sx) < 0) return -errno;
  if (!(sx.stx_mask & STATX_MNT_ID)) return -ENOTSUP;
  uint64_t id = sx.stx_mnt_id;
  for (;;) {
    char *slash = strrchr(cur, '/');
    if (!slash || slash == cur) break; /* "/": the root mount */
    *slash = '\0';
    if (statx(AT_FDCWD, cur, 0, STATX_MNT_ID, &sx) < 0) return -errno;
    if (sx.stx_mnt_id != id) {
      *slash = '/';
      break;
    }
  }
  return hg_path(out, PATH_MAX, "%s", cur[0] ? cur : "/");
}

#ifndef MOUNT_ATTR_RDONLY
#define MOUNT_ATTR_RDONLY 0x00000001
struct mount_attr {
  uint64_t attr_set, attr_clr, propagation, userns_fd;
};
#endif
#ifndef AT_RECURSIVE
#define AT_RECURSIVE 0x8000
#endif

/* In the forked child, system calls only (other threads may have held
 * malloc's or the log's locks at the fork). A step that fails writes why
 * to stderr (the memfd, which becomes the message) and exits. */
static void __attribute__((noreturn)) child_fail(const char *what) {
  char msg[160];
  const char *why = strerrordesc_np(errno);
  int n = snprintf(msg, sizeof msg, "receive jail: %s: %s\n", what, why ? why : "error");
  if (n > 0) (void)!write(2, msg, (size_t)n);
  _exit(126);
}

/* Its own mount namespace in which every mount is read-only but the one
 * holding the staging dir, then `btrfs receive -C`: chrooted into the
 * staging dir, so a path the checker let through still cannot name
 * anything outside it, and even an escape from the chroot finds the rest
 * of the host read-only (the same namespace step as the VMM jail,
 * node/shim/jail.c). */
static void __attribute__((noreturn))
child_exec(const char *exe, char *const argv[], int in_r, int err_fd, const char *mnt) {
  if (dup2(in_r, 0) < 0 || dup2(err_fd, 2) < 0) _exit(126);
  /* stdout only says "At subvol …", block-buffered: it would interleave
   * with the errors out of order. */
  int null = open("/dev/null", O_WRONLY);
  if (null < 0 || dup2(null, 1) < 0) child_fail("/dev/null");
  /* fds other threads left inheritable */
  if (syscall(SYS_close_range, 3u, ~0u, 0u) < 0) child_fail("close_range");
  if (unshare(CLONE_NEWNS) < 0) child_fail("unshare");
  if (mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL) < 0) child_fail("private mounts");
  struct mount_attr ro = {.attr_set = MOUNT_ATTR_RDONLY};
  struct mount_attr rw = {.attr_clr = MOUNT_ATTR_RDONLY};
  if (syscall(SYS_mount_setattr, AT_FDCWD, "/", AT_RECURSIVE, &ro, sizeof ro) < 0)
    child_fail("read-only mounts");
  if (syscall(SYS_mount_setattr, AT_FDCWD, mnt, 0, &rw, sizeof rw) < 0)
    child_fail("the data mount");
  sigset_t none;
  sigemptyset(&none);
  signal(SIGPIPE, SIG_DFL); /* we ignore it; the child should not inherit that */
  sigprocmask(SIG_SETMASK, &none, NULL);
  execve(exe, argv, environ);
  child_fail(exe);
}

static int spawn_receive(hg_stream_recv *r) {
  /* -e: stop at the stream's end command instead of waiting for EOF;
   * -C: chroot into the staging dir; --max-errors 1: the first failed
   * command ends the receive (it is the default; said so it stays so). */
  char *argv[] = {"btrfs", "receive", "-e",   "-C", "--max-errors",
                  "1",     "--",      r->dir, NULL};
  char exe[PATH_MAX], mnt[PATH_MAX];
  int rc = find_btrfs(exe);
  if (rc == 0) rc = mount_root_of(r->dir, mnt);
  int in_r = -1, in_w = -1;
  if (rc == 0) rc = make_pipe(&in_r, &in_w);
  if (rc < 0) return rc;
  r->in_fd = in_w;
  /* Signals stay blocked across the fork: a handler must not run in the
   * child before it execs. */
  sigset_t all, old;
  sigfillset(&all);
  pthread_sigmask(SIG_SETMASK, &all, &old);
  pid_t pid = fork();
  if (pid == 0) child_exec(exe, argv, in_r, r->out_fd, mnt);
  int err = errno;
  pthread_sigmask(SIG_SETMASK, &old, NULL);
  close(in_r);
  if (pid < 0) return -err;
  r->pid = pid;
  return 0;
}

/* Stops the child if it still runs and reaps it. */
static void child_stop(hg_stream_recv *r) {
  if (r->in_fd >= 0) close(r->in_fd);
  r->in_fd = -1;
  if (r->pid <= 0) return;
  kill(r->pid, SIGKILL);
  while (waitpid(r->pid, NULL, 0) < 0 && errno == EINTR) {
  }
  r->pid = 0;
}

/* End of input for the child, then its exit status. */
static int child_wait(hg_stream_recv *r) {
  close(r->in_fd);
  r->in_fd = -1;
  int status;
  pid_t got;
  while ((got = waitpid(r->pid, &status, 0)) < 0 && errno == EINTR) {
  }
  if (got < 0)
    return recv_fail(r, -errno, "waiting for btrfs receive: %s", strerror(errno));
  r->pid = 0;
  if (WIFEXITED(status) && WEXITSTATUS(status) == 0) return 0;
  if (WIFSIGNALED(status)) {
    char what[48];
    snprintf(what, sizeof what, "killed by signal %d", WTERMSIG(status));
    return child_failed(r, what);
  }
  return child_failed(r, "failed");
}

/* The child closed its stdin: it is exiting, or has, with its message
 * written. A zero exit means it met its end command with input left. */
static int child_quit(hg_stream_recv *r) {
  r->child_quit = true;
  int rc = child_wait(r);
  if (rc == 0) rc = recv_fail(r, -EPROTO, "data after the end of the btrfs stream");
  return rc;
}

static int delete_subvol(const char *path) {
  enum btrfs_util_error e =
      btrfs_util_delete_subvolume(path, BTRFS_UTIL_DELETE_SUBVOLUME_RECURSIVE);
  if (e && errno == EROFS) { /* a child below a read-only parent */
    btrfs_util_set_subvolume_read_only(path, false);
    e = btrfs_util_delete_subvolume(path, BTRFS_UTIL_DELETE_SUBVOLUME_RECURSIVE);
  }
  return e ? btrfs_errno(e, errno) : 0;
}

/* Deletes everything in dir: it was empty at begin, so all of it is the
 * child's work (a whole or half-made subvolume). */
static void clear_dir(const hg_stream_recv *r) {
  DIR *d = opendir(r->dir);
  if (!d) return;
  struct dirent *e;
  while ((e = readdir(d))) {
    char path[PATH_MAX];
    if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0) continue;
    if (hg_path(path, sizeof path, "%s/%s", r->dir, e->d_name) < 0) continue;
    int rc = btrfs_util_is_subvolume(path) == BTRFS_UTIL_OK ? delete_subvol(path)
                                                            : hg_rm_rf(path);
    if (rc < 0)
      hg_log_error("stream.recv.cleanup", "path=%s err=\"%s\"", path, hg_err_str(rc));
  }
  closedir(d);
}

/* The child's work: exactly one entry in dir, a read-only subvolume
 * (btrfs receive sets the flag last, after received_uuid). */
static int find_received(hg_stream_recv *r, char name[256]) {
  DIR *d = opendir(r->dir);
  if (!d) return recv_fail(r, -errno, "reading %s: %s", r->dir, strerror(errno));
  struct dirent *e;
  char first[256] = "";
  int n = 0;
  while ((e = readdir(d))) {
    if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0) continue;
    if (n++ == 0) snprintf(first, sizeof first, "%s", e->d_name);
  }
  closedir(d);
  if (n != 1) return recv_fail(r, -EPROTO, "btrfs receive made %d entries, not 1", n);
  char path[PATH_MAX];
  bool ro = false;
  if (hg_path(path, sizeof path, "%s/%s", r->dir, first) < 0)
    return recv_fail(r, -ENAMETOOLONG, "received path too long");
  if (btrfs_util_get_subvolume_read_only(path, &ro) != BTRFS_UTIL_OK || !ro)
    return recv_fail(r, -EPROTO, "btrfs receive did not make a read-only subvolume");
  memcpy(name, first, sizeof first);
  return 0;
}

static void recv_free(hg_stream_recv *r) {
  hg_sendstream_check_free(&r->check);
  if (r->out_fd >= 0) close(r->out_fd);
  ZSTD_freeDCtx(r->dctx);
  free(r->out);
  free(r);
}

static int write_child(hg_stream_recv *r, const uint8_t *p, size_t len) {
  while (len > 0) {
    ssize_t n = write(r->in_fd, p, len);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0 && errno == EPIPE) return child_quit(r);
    if (n < 0)
      return recv_fail(r, -errno, "writing to btrfs receive: %s", strerror(errno));
    p += n;
    len -= (size_t)n;
    r->raw += (uint64_t)n;
  }
  return 0;
}

/* The checker's output: whole commands it let through. */
static int check_emit(void *ud, const void *data, size_t len) {
  return write_child(ud, data, len);
}

int hg_stream_recv_begin(const char *dir, const hg_sendstream_policy *policy,
                         hg_stream_recv **out) {
  pthread_once(&sigpipe_once, ignore_sigpipe);
  if (!dir || !out) return -EINVAL;
  int rc = check_empty_dir(dir);
  if (rc < 0) return rc;
  hg_stream_recv *r = calloc(1, sizeof *r);
  if (!r) return -ENOMEM;
  r->in_fd = r->out_fd = -1;
  rc = hg_sendstream_check_init(&r->check, policy, check_emit, r);
  if (rc == 0) rc = hg_path(r->dir, sizeof r->dir, "%s", dir);
  if (rc == 0) {
    r->dctx = ZSTD_createDCtx();
    r->out = malloc(HG_STREAM_OUT);
    if (!r->dctx || !r->out ||
        ZSTD_isError(
            ZSTD_DCtx_setParameter(r->dctx, ZSTD_d_windowLogMax, HG_STREAM_WINDOW_LOG)))
      rc = -ENOMEM;
  }
  if (rc == 0 && (r->out_fd = memfd_create("btrfs-receive", MFD_CLOEXEC)) < 0)
    rc = -errno;
  if (rc == 0) rc = spawn_receive(r);
  if (rc < 0) {
    hg_log_error("stream.recv", "dir=%s err=\"%s\"", dir, hg_err_str(rc));
    hg_stream_recv_abort(r);
    return rc;
  }
  *out = r;
  return 0;
}

/* Refuses a frame without a content checksum, or anything but one zstd
 * frame, before a byte of it is decoded. */
static int check_head(hg_stream_recv *r, const uint8_t *z, size_t len) {
  if (r->head_len == HG_ZSTD_HEAD) return 0;
  size_t n = HG_ZSTD_HEAD - r->head_len < len ? HG_ZSTD_HEAD - r->head_len : len;
  memcpy(r->head + r->head_len, z, n);
  r->head_len += n;
  if (r->head_len < HG_ZSTD_HEAD) return 0;
  uint32_t magic = (uint32_t)r->head[0] | (uint32_t)r->head[1] << 8 |
                   (uint32_t)r->head[2] << 16 | (uint32_t)r->head[3] << 24;
  if (magic != ZSTD_MAGICNUMBER) return recv_fail(r, -EPROTO, "not a zstd stream");
  if (!(r->head[4] & HG_ZSTD_FHD_CHECKSUM))
    return recv_fail(r, -EPROTO, "zstd stream without a checksum");
  return 0;
}

int hg_stream_recv_feed(hg_stream_recv *r, const void *z, size_t len) {
  if (r->failed) return r->child_quit ? -EPIPE : r->failed;
  if (len == 0) return 0;
  if (r->frame_done)
    return recv_fail(r, -EPROTO, "data after the end of the zstd stream");
  int rc = check_head(r, z, len);
  if (rc < 0) return rc;
  ZSTD_inBuffer in = {z, len, 0};
  for (;;) {
    ZSTD_outBuffer out = {r->out, HG_STREAM_OUT, 0};
    size_t ret = ZSTD_decompressStream(r->dctx, &out, &in);
    if (ZSTD_isError(ret))
      return recv_fail(r, -EPROTO, "corrupt zstd stream: %s", ZSTD_getErrorName(ret));
    /* The checker passes on only whole commands it let through. An error
     * of its own leaves r->failed unset; one of the child's set it. */
    if (out.pos > 0 && (rc = hg_sendstream_check_feed(&r->check, r->out, out.pos)) < 0) {
      if (r->child_quit) return -EPIPE;
      if (r->failed) return rc;
      return recv_fail(r, -EPROTO, "refused send stream: %s", r->check.err);
    }
    if (ret == 0) { /* frame ended, checksum verified */
      r->frame_done = true;
      if (in.pos < in.size)
        return recv_fail(r, -EPROTO, "data after the end of the zstd stream");
      return 0;
    }
    if (in.pos == in.size && out.pos < out.size) return 0; /* all flushed */
  }
}

int hg_stream_recv_finish(hg_stream_recv *r, char name[256], uint64_t *raw_bytes,
                          char *msg, size_t msgcap) {
  int rc = r->failed;
  if (rc == 0 && !r->frame_done) rc = recv_fail(r, -EPROTO, "stream truncated");
  if (rc == 0 && hg_sendstream_check_end(&r->check) < 0)
    rc = recv_fail(r, -EPROTO, "refused send stream: %s", r->check.err);
  if (rc == 0) rc = child_wait(r);
  char got[256];
  if (rc == 0) rc = find_received(r, got);
  if (rc == 0) {
    memcpy(name, got, sizeof got);
    if (raw_bytes) *raw_bytes = r->raw;
  } else {
    /* a feed that failed with EPIPE left the message; others report here */
    hg_log_warn("stream.recv", "dir=%s raw=%llu err=\"%s\" msg=\"%s\"", r->dir,
                (unsigned long long)r->raw, hg_err_str(rc), r->err);
  }
  if (msg && msgcap) snprintf(msg, msgcap, "%s", rc == 0 ? "" : r->err);
  if (rc < 0)
    hg_stream_recv_abort(r);
  else
    recv_free(r);
  return rc;
}

void hg_stream_recv_abort(hg_stream_recv *r) {
  if (!r) return;
  child_stop(r); /* first: nothing may be half-written while we delete */
  clear_dir(r);
  recv_free(r);
}

const char *hg_stream_recv_error(const hg_stream_recv *r) {
  return r->err;
}
