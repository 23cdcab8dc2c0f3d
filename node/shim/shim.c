/* hangar-shim: the per-sandbox supervisor of one VMM process (DESIGN §4).
 *
 *   hangar-shim --dir DIR [--deadline-ms N] [--notify-fd FD] [--console PATH]
 *               -- VMM ARGS...
 *
 * It detaches from its caller (setsid + double fork) so the VM outlives a
 * crash of hangard, is the VMM's parent, and holds the fencing deadline of
 * §9: when CLOCK_MONOTONIC passes the deadline it SIGSTOPs the VMM, within
 * milliseconds and whatever state hangard is in. A later deadline in the
 * future un-fences (SIGCONT).
 *
 * Files in DIR:
 *   shim.json  status for re-adoption, replaced atomically on every change
 *   shim.sock  control socket, one request line -> one reply line:
 *                "deadline <ms>" -> "ok"     (0: no deadline)
 *                "status"        -> one JSON object
 *                "kill"          -> "ok"     (SIGKILL to the VMM)
 *   shim.log   key=value log
 *
 * With --console the VMM's stdout and stderr (QEMU's serial chardev is
 * stdio) go to a pipe the shim drains into PATH, capped: at
 * SHIM_CONSOLE_PART bytes PATH becomes PATH.1 (replacing the older one) and
 * a fresh PATH starts, so a guest writing to its console forever holds at
 * most 2 * SHIM_CONSOLE_PART bytes of the host's disk. A file chardev in
 * QEMU would grow without bound. When the disk is full the output is
 * dropped, never blocked on: the guest must not stall on its console.
 *
 * With --notify-fd the shim writes "ok <shim_pid> <vmm_pid>\n" (or
 * "err <negative errno>\n") there once the VMM runs and the socket listens.
 * Every fd the shim inherits without FD_CLOEXEC goes to the VMM (a tap fd).
 * The VMM gets PDEATHSIG=SIGKILL: a VM whose fencing supervisor died must
 * not keep running unsupervised.
 *
 * With --jail the VMM runs jailed (jail.h): its own uid, mount namespace,
 * no privileges, cgroup limits. --jail-rw / --jail-ro PATH (repeatable)
 * name the files it needs besides the dir; --memory-mib and --vcpus size
 * its limits. The status reports the uid as "vmm_uid" (0: not jailed). */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/signalfd.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/timerfd.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "node/core/log.h"
#include "node/core/parse.h"
#include "node/core/proc.h"
#include "node/core/util.h"
#include "node/shim/jail.h"

#define SHIM_MAX_CLIENTS 16
#define SHIM_MAX_LINE 128
#define SHIM_MAX_INHERITED 64
/* The console cap: two files of this size (the current and the previous). */
#define SHIM_CONSOLE_PART (512 * 1024)
/* Console bytes moved per poll round: a guest flooding its console cannot
 * delay the deadline check by more than one such copy. */
#define SHIM_CONSOLE_BURST (256 * 1024)
/* After a SIGTERM to the shim, the VMM gets this long to exit cleanly. */
#define SHIM_TERM_GRACE_MS 5000
/* The shim sleeps nearly always; when its deadline fires it must get a CPU
 * at once even on a host full of busy TCG threads. */
#define SHIM_NICE (-10)
/* The VMM runs this many steps below the caller (hangard): guests get what
 * the control plane leaves, so a host full of busy vCPUs (a mass restore,
 * say) cannot starve lease renewals, the API or a failover's takes. On a
 * host with CPU to spare it changes nothing. */
#define VMM_NICE_BELOW 5

enum shim_state { SHIM_RUNNING, SHIM_FENCED, SHIM_EXITED };
static const char *const state_names[] = {"running", "fenced", "exited"};

typedef struct shim_client {
  int fd;
  size_t len;
  char line[SHIM_MAX_LINE];
} shim_client;

/* The VMM's console: the read end of its stdout/stderr pipe and the
 * capped file it is copied to. */
typedef struct shim_console {
  char path[PATH_MAX], old_path[PATH_MAX]; /* path[0] == 0: no --console */
  int pipe_fd;                             /* -1: none, or at EOF */
  int file_fd;                             /* -1: could not be opened */
  off_t size;                              /* of the current file */
  bool write_failed;                       /* logged once until a write works */
} shim_console;

typedef struct shim {
  char dir[PATH_MAX];
  char sock_path[sizeof(((struct sockaddr_un *)0)->sun_path)];
  char json_path[PATH_MAX];
  char boot_id[64];
  char **vmm_argv;
  int notify_fd;
  int listen_fd, sig_fd, timer_fd;
  pid_t shim_pid, vmm_pid;
  unsigned long long shim_start, vmm_start; /* /proc/<pid>/stat starttime */
  enum shim_state state;
  int64_t deadline_ms; /* CLOCK_MONOTONIC; 0: none */
  int64_t started_at;  /* wall clock, ms since the epoch */
  int64_t kill_at_ms;  /* SIGKILL escalation after a SIGTERM; 0: none */
  int exit_code, exit_signal;
  int caller_nice; /* the priority the shim was started with */
  int inherited[SHIM_MAX_INHERITED];
  int n_inherited;
  shim_console console;
  hg_jail jail;
  shim_client clients[SHIM_MAX_CLIENTS];
} shim;

static void usage(void) {
  static const char msg[] =
      "usage: hangar-shim --dir DIR [--deadline-ms N] [--notify-fd FD] "
      "[--console PATH] [--jail [--jail-rw PATH]... [--jail-ro PATH]... "
      "[--memory-mib N] [--vcpus N]] -- VMM [ARGS...]\n";
  ssize_t w = write(2, msg, sizeof msg - 1);
  (void)w;
}

static int parse_i64(const char *s, int64_t *out) {
  return hg_parse_int(s, 0, INT64_MAX, out) < 0 ? -EINVAL : 0;
}

static int parse_args(shim *s, int argc, char **argv) {
  const char *dir = NULL, *console = NULL;
  int64_t v;
  int i = 1;
  hg_jail *j = &s->jail;
  for (; i < argc; i++) {
    if (strcmp(argv[i], "--") == 0) break;
    if (strcmp(argv[i], "--jail") == 0) {
      j->on = true;
      continue;
    }
    if (i + 1 >= argc) return -EINVAL;
    if (strcmp(argv[i], "--dir") == 0) {
      dir = argv[++i];
    } else if (strcmp(argv[i], "--deadline-ms") == 0) {
      if (parse_i64(argv[++i], &s->deadline_ms) < 0) return -EINVAL;
    } else if (strcmp(argv[i], "--notify-fd") == 0) {
      if (parse_i64(argv[++i], &v) < 0 || v > INT_MAX) return -EINVAL;
      s->notify_fd = (int)v;
    } else if (strcmp(argv[i], "--console") == 0) {
      console = argv[++i];
    } else if (strcmp(argv[i], "--jail-rw") == 0 || strcmp(argv[i], "--jail-ro") == 0) {
      bool rw = strcmp(argv[i], "--jail-rw") == 0;
      const char *path = argv[++i];
      if (path[0] != '/' || (rw ? j->n_rw : j->n_ro) == HG_JAIL_MAX_PATHS) return -EINVAL;
      if (rw)
        j->rw[j->n_rw++] = path;
      else
        j->ro[j->n_ro++] = path;
    } else if (strcmp(argv[i], "--memory-mib") == 0 || strcmp(argv[i], "--vcpus") == 0) {
      bool mem = strcmp(argv[i], "--memory-mib") == 0;
      if (parse_i64(argv[++i], &v) < 0 || v > 1 << 24) return -EINVAL;
      if (mem)
        j->memory_mib = (unsigned)v;
      else
        j->vcpus = (unsigned)v;
    } else {
      return -EINVAL;
    }
  }
  if (!dir || i + 1 >= argc) return -EINVAL;
  s->vmm_argv = argv + i + 1;
  if (!realpath(dir, s->dir)) return -errno;
  j->dir = s->dir;
  int rc = hg_path(s->sock_path, sizeof s->sock_path, "%s/shim.sock", s->dir);
  if (rc == 0) rc = hg_path(s->json_path, sizeof s->json_path, "%s/shim.json", s->dir);
  if (rc == 0 && console) {
    if (console[0] != '/') return -EINVAL; /* the shim runs in "/" */
    rc = hg_path(s->console.path, sizeof s->console.path, "%s", console);
    if (rc == 0)
      rc = hg_path(s->console.old_path, sizeof s->console.old_path, "%s.1", console);
  }
  return rc;
}

/* setsid + double fork: the shim ends up a child of init (or of the nearest
 * subreaper), in its own session, and can never reacquire a terminal. The
 * caller reaps the first process, which exits once the second has. */
static int detach(void) {
  pid_t p = fork();
  if (p < 0) return -errno;
  if (p > 0) {
    int st;
    while (waitpid(p, &st, 0) < 0 && errno == EINTR) {
    }
    _exit(WIFEXITED(st) ? WEXITSTATUS(st) : 1);
  }
  if (setsid() < 0) _exit(1);
  p = fork();
  if (p < 0) _exit(1);
  if (p > 0) _exit(0);
  return 0;
}

static void notify(shim *s, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void notify(shim *s, const char *fmt, ...) {
  if (s->notify_fd < 0) return;
  char line[128];
  va_list ap;
  va_start(ap, fmt);
  int n = vsnprintf(line, sizeof line, fmt, ap);
  va_end(ap);
  if (n > 0 && n < (int)sizeof line) {
    ssize_t w = write(s->notify_fd, line, (size_t)n);
    (void)w;
  }
  close(s->notify_fd);
  s->notify_fd = -1;
}

/* Remembers the fds meant for the VMM, to close them in the shim once the
 * VMM holds them (a tap fd kept open here would outlive the VM). */
static void collect_inherited(shim *s) {
  DIR *d = opendir("/proc/self/fd");
  if (!d) return;
  int self = dirfd(d);
  struct dirent *e;
  while ((e = readdir(d)) && s->n_inherited < SHIM_MAX_INHERITED) {
    int64_t fd;
    if (parse_i64(e->d_name, &fd) < 0 || fd <= 2 || fd == self || fd == s->notify_fd)
      continue;
    int flags = fcntl((int)fd, F_GETFD);
    if (flags >= 0 && !(flags & FD_CLOEXEC)) s->inherited[s->n_inherited++] = (int)fd;
  }
  closedir(d);
}

static unsigned long long proc_starttime(pid_t pid) {
  hg_proc_stat ps;
  return hg_proc_stat_read((int)pid, &ps) == 0 ? ps.starttime : 0;
}

static void read_boot_id(shim *s) {
  char *text = NULL;
  size_t len = 0;
  if (hg_read_file("/proc/sys/kernel/random/boot_id", sizeof s->boot_id - 1, &text,
                   &len) < 0)
    return;
  while (len > 0 && (text[len - 1] == '\n' || text[len - 1] == ' ')) text[--len] = '\0';
  snprintf(s->boot_id, sizeof s->boot_id, "%s", text);
  free(text);
}

static int status_json(const shim *s, char *out, size_t cap) {
  char exit_status[32] = "null";
  if (s->state == SHIM_EXITED)
    snprintf(exit_status, sizeof exit_status, "%d", s->exit_code);
  int n = snprintf(
      out, cap,
      "{\"shim_pid\":%d,\"vmm_pid\":%d,\"state\":\"%s\","
      "\"deadline_ms\":%" PRId64 ",\"now_ms\":%" PRId64 ",\"started_at\":%" PRId64
      ",\"exit_status\":%s,"
      "\"exit_signal\":%d,\"boot_id\":\"%s\",\"shim_start\":%llu,"
      "\"vmm_start\":%llu,\"vmm_uid\":%u}",
      (int)s->shim_pid, (int)s->vmm_pid, state_names[s->state], s->deadline_ms,
      hg_now_ms(), s->started_at, exit_status, s->exit_signal, s->boot_id, s->shim_start,
      s->vmm_start, s->jail.on ? (unsigned)s->jail.uid : 0u);
  return n > 0 && (size_t)n < cap ? n : -ENOBUFS;
}

/* Atomic (rename) but not fsynced: the record only means something during
 * this boot (adopt checks boot_id, and a host crash takes the VM with it),
 * while an fsync here would sit on the restore path and in the fence loop. */
static int write_file_renamed(const char *path, const char *data, size_t len) {
  char tmp[PATH_MAX];
  int rc = hg_path(tmp, sizeof tmp, "%s.tmp", path);
  if (rc < 0) return rc;
  int fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
  if (fd < 0) return -errno;
  ssize_t n = write(fd, data, len);
  rc = n == (ssize_t)len ? 0 : n < 0 ? -errno : -EIO;
  close(fd);
  if (rc == 0 && rename(tmp, path) < 0) rc = -errno;
  if (rc < 0) unlink(tmp);
  return rc;
}

static void write_status(const shim *s) {
  char text[1024];
  int n = status_json(s, text, sizeof text - 1);
  if (n < 0) return;
  text[n++] = '\n';
  int rc = write_file_renamed(s->json_path, text, (size_t)n);
  if (rc < 0)
    hg_log_error("shim.status_write_failed", "path=%s err=%d", s->json_path, rc);
}

static int listen_control(shim *s) {
  struct sockaddr_un sa = {.sun_family = AF_UNIX};
  memcpy(sa.sun_path, s->sock_path, sizeof sa.sun_path);
  int fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
  if (fd < 0) return -errno;
  unlink(s->sock_path); /* a stale socket of an earlier shim */
  if (bind(fd, (struct sockaddr *)&sa, sizeof sa) < 0 || listen(fd, 16) < 0) {
    int rc = -errno;
    close(fd);
    return rc;
  }
  s->listen_fd = fd;
  return 0;
}

static int setup_fds(shim *s) {
  sigset_t set;
  sigemptyset(&set);
  sigaddset(&set, SIGCHLD);
  sigaddset(&set, SIGTERM);
  sigaddset(&set, SIGINT);
  if (sigprocmask(SIG_BLOCK, &set, NULL) < 0) return -errno;
  s->sig_fd = signalfd(-1, &set, SFD_CLOEXEC | SFD_NONBLOCK);
  if (s->sig_fd < 0) return -errno;
  s->timer_fd = timerfd_create(CLOCK_MONOTONIC, TFD_CLOEXEC | TFD_NONBLOCK);
  if (s->timer_fd < 0) return -errno;
  return listen_control(s);
}

/* ------------------------------------------------------------ console */

static int console_open(shim_console *c) {
  c->file_fd = open(c->path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0600);
  if (c->file_fd < 0) return -errno;
  struct stat st;
  c->size = fstat(c->file_fd, &st) == 0 ? st.st_size : 0;
  return 0;
}

/* PATH becomes PATH.1 and a fresh PATH starts. */
static void console_rotate(shim_console *c) {
  if (c->file_fd >= 0) close(c->file_fd);
  c->file_fd = -1;
  if (rename(c->path, c->old_path) < 0 && errno != ENOENT) {
    /* Unable to keep the old part: truncate rather than exceed the cap. */
    hg_log_warn("shim.console_rotate_failed", "path=%s err=%d", c->path, -errno);
    unlink(c->path);
  }
  int rc = console_open(c);
  if (rc < 0) hg_log_error("shim.console_open_failed", "path=%s err=%d", c->path, rc);
}

static void console_write(shim_console *c, const char *buf, size_t len) {
  while (len > 0) {
    if (c->file_fd < 0 || c->size >= SHIM_CONSOLE_PART) console_rotate(c);
    if (c->file_fd < 0) return; /* dropped: no file to hold it */
    size_t room = (size_t)(SHIM_CONSOLE_PART - c->size);
    ssize_t n = write(c->file_fd, buf, len < room ? len : room);
    if (n <= 0) {
      if (n < 0 && errno == EINTR) continue;
      if (!c->write_failed)
        hg_log_warn("shim.console_write_failed", "path=%s err=%d", c->path,
                    n < 0 ? -errno : -EIO);
      c->write_failed = true;
      return; /* dropped (disk full): the guest is never held up */
    }
    c->write_failed = false;
    c->size += n;
    buf += n;
    len -= (size_t)n;
  }
}

/* Moves what the VMM wrote to the file, at most SHIM_CONSOLE_BURST bytes
 * unless draining (the VMM exited: everything, for the failure's tail). */
static void console_pump(shim_console *c, bool drain) {
  char buf[65536];
  size_t moved = 0;
  while (c->pipe_fd >= 0 && (drain || moved < SHIM_CONSOLE_BURST)) {
    ssize_t n = read(c->pipe_fd, buf, sizeof buf);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0 && errno == EAGAIN) return;
    if (n <= 0) { /* EOF: every writer (the VMM) is gone */
      close(c->pipe_fd);
      c->pipe_fd = -1;
      return;
    }
    console_write(c, buf, (size_t)n);
    moved += (size_t)n;
  }
}

/* In the forked child: undo what the shim set up for itself, then exec. */
static void exec_vmm(shim *s, int err_fd) {
  sigset_t none;
  sigemptyset(&none);
  sigprocmask(SIG_SETMASK, &none, NULL);
  signal(SIGPIPE, SIG_DFL);
  signal(SIGHUP, SIG_DFL);
  setpriority(PRIO_PROCESS, 0, s->caller_nice + VMM_NICE_BELOW); /* clamped at 19 */
  int e;
  if (s->jail.on && (e = -hg_jail_enter(&s->jail)) > 0) {
    ssize_t w = write(err_fd, &e, sizeof e);
    (void)w;
    _exit(127);
  }
  /* After the jail's setuid, which clears the parent-death signal. */
  prctl(PR_SET_PDEATHSIG, SIGKILL);
  if (getppid() != s->shim_pid) _exit(127); /* the shim died before prctl */
  if (s->jail.on)
    execv(s->jail.exe, s->vmm_argv);
  else
    execvp(s->vmm_argv[0], s->vmm_argv);
  e = errno;
  ssize_t w = write(err_fd, &e, sizeof e);
  (void)w;
  _exit(127);
}

/* The pipe that becomes the VMM's stdout and stderr; *w is its write end. */
static int console_pipe(shim *s, int *w) {
  shim_console *c = &s->console;
  *w = -1;
  if (!c->path[0]) return 0;
  int p[2];
  if (pipe2(p, O_CLOEXEC) < 0) return -errno;
  if (fcntl(p[0], F_SETFL, O_NONBLOCK) < 0) {
    int rc = -errno;
    close(p[0]);
    close(p[1]);
    return rc;
  }
  c->pipe_fd = p[0];
  *w = p[1];
  int rc = console_open(c);
  if (rc < 0) hg_log_error("shim.console_open_failed", "path=%s err=%d", c->path, rc);
  return rc;
}

static int spawn_vmm(shim *s) {
  int p[2], con_w;
  int rc = console_pipe(s, &con_w);
  if (rc < 0) return rc;
  if (pipe2(p, O_CLOEXEC) < 0) {
    rc = -errno;
    if (con_w >= 0) close(con_w);
    return rc;
  }
  pid_t pid = fork();
  if (pid < 0) {
    rc = -errno;
    close(p[0]);
    close(p[1]);
    if (con_w >= 0) close(con_w);
    return rc;
  }
  if (pid == 0) {
    if (con_w >= 0 && (dup2(con_w, 1) < 0 || dup2(con_w, 2) < 0)) _exit(127);
    exec_vmm(s, p[1]);
  }
  if (con_w >= 0) close(con_w);
  close(p[1]);
  int e = 0;
  ssize_t n;
  while ((n = read(p[0], &e, sizeof e)) < 0 && errno == EINTR) {
  }
  close(p[0]);
  if (n == (ssize_t)sizeof e) { /* exec failed; the child exits 127 */
    while (waitpid(pid, NULL, 0) < 0 && errno == EINTR) {
    }
    return -e;
  }
  s->vmm_pid = pid;
  s->vmm_start = proc_starttime(pid);
  for (int i = 0; i < s->n_inherited; i++) close(s->inherited[i]);
  s->n_inherited = 0;
  return 0;
}

static void fence(shim *s) {
  if (s->state != SHIM_RUNNING) return;
  if (kill(s->vmm_pid, SIGSTOP) < 0) {
    hg_log_error("shim.fence_failed", "vmm_pid=%d err=%d", (int)s->vmm_pid, -errno);
    return;
  }
  s->state = SHIM_FENCED;
  hg_log_warn("shim.fenced", "vmm_pid=%d deadline_ms=%" PRId64 " late_ms=%" PRId64,
              (int)s->vmm_pid, s->deadline_ms, hg_now_ms() - s->deadline_ms);
  write_status(s);
}

static void unfence(shim *s) {
  if (s->state != SHIM_FENCED) return;
  if (kill(s->vmm_pid, SIGCONT) < 0) {
    hg_log_error("shim.unfence_failed", "vmm_pid=%d err=%d", (int)s->vmm_pid, -errno);
    return;
  }
  s->state = SHIM_RUNNING;
  hg_log_info("shim.unfenced", "vmm_pid=%d deadline_ms=%" PRId64, (int)s->vmm_pid,
              s->deadline_ms);
  write_status(s);
}

static void arm_timer(shim *s, int64_t at_ms) {
  struct itimerspec its = {0};
  its.it_value.tv_sec = at_ms / 1000;
  its.it_value.tv_nsec = (at_ms % 1000) * 1000000;
  if (timerfd_settime(s->timer_fd, TFD_TIMER_ABSTIME, &its, NULL) < 0)
    hg_log_error("shim.timer_failed", "err=%d", -errno);
}

/* The fencing rule: past (or at) a non-zero deadline the VMM is stopped;
 * before it, or with none, it runs. */
static void apply_deadline(shim *s) {
  if (s->state == SHIM_EXITED) return;
  int64_t now = hg_now_ms();
  if (s->deadline_ms != 0 && now >= s->deadline_ms) {
    arm_timer(s, 0);
    fence(s);
    return;
  }
  arm_timer(s, s->deadline_ms); /* 0 disarms */
  unfence(s);
}

static void on_timer(shim *s) {
  uint64_t ticks;
  ssize_t n = read(s->timer_fd, &ticks, sizeof ticks);
  (void)n;
  apply_deadline(s);
}

static void terminate_vmm(shim *s, int sig) {
  if (s->state == SHIM_EXITED) return;
  /* A fenced VMM must not run again, not even to shut down cleanly. */
  if (s->state == SHIM_FENCED) sig = SIGKILL;
  hg_log_info("shim.kill", "vmm_pid=%d signal=%d", (int)s->vmm_pid, sig);
  kill(s->vmm_pid, sig);
  if (sig != SIGKILL && s->kill_at_ms == 0)
    s->kill_at_ms = hg_now_ms() + SHIM_TERM_GRACE_MS;
}

static void client_close(shim_client *c) {
  close(c->fd);
  c->fd = -1;
  c->len = 0;
}

static void reply(shim_client *c, const char *text, size_t len) {
  /* Replies are tiny; a client that cannot take one is dropped rather than
   * allowed to block the deadline loop. */
  if (send(c->fd, text, len, MSG_NOSIGNAL | MSG_DONTWAIT) != (ssize_t)len)
    client_close(c);
}

static void handle_line(shim *s, shim_client *c, const char *line) {
  static const char ok[] = "ok\n";
  int64_t v;
  if (strncmp(line, "deadline ", 9) == 0 && parse_i64(line + 9, &v) == 0) {
    s->deadline_ms = v;
    hg_log_debug("shim.deadline", "deadline_ms=%" PRId64, v);
    apply_deadline(s);
    reply(c, ok, sizeof ok - 1);
  } else if (strcmp(line, "status") == 0) {
    char text[1024];
    int n = status_json(s, text, sizeof text - 1);
    if (n < 0) {
      client_close(c);
      return;
    }
    text[n++] = '\n';
    reply(c, text, (size_t)n);
  } else if (strcmp(line, "kill") == 0) {
    terminate_vmm(s, SIGKILL);
    reply(c, ok, sizeof ok - 1);
  } else {
    static const char bad[] = "err bad request\n";
    reply(c, bad, sizeof bad - 1);
  }
}

static void on_client(shim *s, shim_client *c) {
  ssize_t n = recv(c->fd, c->line + c->len, sizeof c->line - c->len, MSG_DONTWAIT);
  if (n < 0 && (errno == EAGAIN || errno == EINTR)) return;
  if (n <= 0) {
    client_close(c);
    return;
  }
  c->len += (size_t)n;
  char *nl;
  while ((nl = memchr(c->line, '\n', c->len))) {
    *nl = '\0';
    if (nl > c->line && nl[-1] == '\r') nl[-1] = '\0';
    handle_line(s, c, c->line);
    if (c->fd < 0) return; /* dropped while replying: its buffer is gone */
    size_t used = (size_t)(nl - c->line) + 1;
    memmove(c->line, nl + 1, c->len - used);
    c->len -= used;
  }
  if (c->len == sizeof c->line) {
    static const char big[] = "err line too long\n";
    reply(c, big, sizeof big - 1);
    if (c->fd >= 0) client_close(c);
  }
}

static void on_accept(shim *s) {
  for (;;) {
    int fd = accept4(s->listen_fd, NULL, NULL, SOCK_CLOEXEC | SOCK_NONBLOCK);
    if (fd < 0) return;
    shim_client *slot = NULL;
    for (int i = 0; i < SHIM_MAX_CLIENTS && !slot; i++)
      if (s->clients[i].fd < 0) slot = &s->clients[i];
    if (!slot) {
      hg_log_warn("shim.too_many_clients", "max=%d", SHIM_MAX_CLIENTS);
      close(fd);
      continue;
    }
    slot->fd = fd;
    slot->len = 0;
  }
}

static void on_vmm_exit(shim *s, int st) {
  s->state = SHIM_EXITED;
  console_pump(&s->console, true); /* QEMU's last words, before anyone looks */
  if (s->jail.on) hg_jail_release(&s->jail);
  s->exit_code = WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
  s->exit_signal = WIFSIGNALED(st) ? WTERMSIG(st) : 0;
  unlink(s->sock_path);
  hg_log_info("shim.vmm_exited", "vmm_pid=%d exit_status=%d signal=%d", (int)s->vmm_pid,
              s->exit_code, s->exit_signal);
  write_status(s);
}

static void on_signal(shim *s) {
  struct signalfd_siginfo si;
  while (read(s->sig_fd, &si, sizeof si) == (ssize_t)sizeof si) {
    if (si.ssi_signo == SIGTERM || si.ssi_signo == SIGINT) terminate_vmm(s, SIGTERM);
  }
  int st;
  pid_t p;
  while ((p = waitpid(-1, &st, WNOHANG)) > 0)
    if (p == s->vmm_pid) on_vmm_exit(s, st);
}

static int poll_timeout(const shim *s) {
  if (s->kill_at_ms == 0) return -1;
  int64_t left = s->kill_at_ms - hg_now_ms();
  return left < 0 ? 0 : (int)left;
}

static void serve(shim *s) {
  enum { FIXED = 4 };
  struct pollfd p[FIXED + SHIM_MAX_CLIENTS];
  while (s->state != SHIM_EXITED) {
    p[0] = (struct pollfd){.fd = s->timer_fd, .events = POLLIN};
    p[1] = (struct pollfd){.fd = s->sig_fd, .events = POLLIN};
    p[2] = (struct pollfd){.fd = s->listen_fd, .events = POLLIN};
    p[3] = (struct pollfd){.fd = s->console.pipe_fd, .events = POLLIN};
    for (int i = 0; i < SHIM_MAX_CLIENTS; i++)
      p[FIXED + i] = (struct pollfd){.fd = s->clients[i].fd, .events = POLLIN};
    int n = poll(p, HG_ARRAY_SIZE(p), poll_timeout(s));
    if (n < 0 && errno != EINTR) {
      hg_log_error("shim.poll_failed", "err=%d", -errno);
      sleep(1);
      continue;
    }
    /* The deadline goes first: nothing else may delay a fence. */
    if (p[0].revents) on_timer(s);
    if (p[1].revents) on_signal(s);
    if (p[2].revents) on_accept(s);
    if (p[3].revents) console_pump(&s->console, false);
    for (int i = 0; i < SHIM_MAX_CLIENTS; i++)
      if (p[FIXED + i].revents && s->clients[i].fd >= 0) on_client(s, &s->clients[i]);
    if (s->kill_at_ms && hg_now_ms() >= s->kill_at_ms) {
      s->kill_at_ms = 0;
      terminate_vmm(s, SIGKILL);
    }
  }
}

static int open_log(const shim *s) {
  char path[PATH_MAX];
  int rc = hg_path(path, sizeof path, "%s/shim.log", s->dir);
  if (rc < 0) return rc;
  int fd = open(path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0600);
  if (fd < 0) return -errno;
  hg_log_set_fd(fd);
  char prefix[64];
  snprintf(prefix, sizeof prefix, "shim_pid=%d", (int)getpid());
  hg_log_set_prefix(prefix);
  return 0;
}

static int start(shim *s) {
  int rc = open_log(s);
  if (rc < 0) return rc;
  s->shim_pid = getpid();
  s->shim_start = proc_starttime(s->shim_pid);
  s->started_at = hg_wall_ns() / 1000000;
  read_boot_id(s);
  errno = 0;
  s->caller_nice = getpriority(PRIO_PROCESS, 0);
  if (errno || setpriority(PRIO_PROCESS, 0, SHIM_NICE) < 0)
    hg_log_warn("shim.nice_failed", "nice=%d err=%d", SHIM_NICE, -errno);
  rc = setup_fds(s);
  if (rc == 0 && s->jail.on) rc = hg_jail_prepare(&s->jail, s->vmm_argv[0]);
  if (rc == 0) rc = spawn_vmm(s);
  if (rc < 0 && s->jail.on) hg_jail_release(&s->jail);
  if (rc < 0) {
    hg_log_error("shim.start_failed", "dir=%s vmm=%s err=%d", s->dir, s->vmm_argv[0], rc);
    if (s->listen_fd >= 0) unlink(s->sock_path);
    return rc;
  }
  hg_log_info("shim.started", "dir=%s vmm=%s vmm_pid=%d deadline_ms=%" PRId64, s->dir,
              s->vmm_argv[0], (int)s->vmm_pid, s->deadline_ms);
  apply_deadline(s);
  write_status(s);
  return 0;
}

int main(int argc, char **argv) {
  static shim s;
  s.notify_fd = s.listen_fd = s.sig_fd = s.timer_fd = -1;
  s.console.pipe_fd = s.console.file_fd = -1;
  s.jail.lock_fd = -1;
  for (int i = 0; i < SHIM_MAX_CLIENTS; i++) s.clients[i].fd = -1;
  if (parse_args(&s, argc, argv) < 0) {
    usage();
    return 2;
  }
  /* Never die of a closed client socket or of the caller's terminal. */
  signal(SIGPIPE, SIG_IGN);
  signal(SIGHUP, SIG_IGN);
  if (s.notify_fd >= 0 && fcntl(s.notify_fd, F_SETFD, FD_CLOEXEC) < 0) s.notify_fd = -1;
  collect_inherited(&s);
  /* Sockets, logs and status of a sandbox are for root's eyes only; QEMU
   * inherits this for the sockets it creates. */
  umask(077);
  if (detach() < 0) return 1;
  if (chdir("/") < 0) return 1;
  int rc = start(&s);
  if (rc < 0) {
    notify(&s, "err %d\n", rc);
    return 1;
  }
  notify(&s, "ok %d %d\n", (int)s.shim_pid, (int)s.vmm_pid);
  serve(&s);
  hg_log_info("shim.exit", "vmm_pid=%d exit_status=%d", (int)s.vmm_pid, s.exit_code);
  return 0;
}
