/* hangar-shim: the per-sandbox supervisor of one VMM process (DESIGN §4).
 *
 *   hangar-shim --dir DIR [--deadline-ms N] [--notify-fd FD] -- VMM ARGS...
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
 * With --notify-fd the shim writes "ok <shim_pid> <vmm_pid>\n" (or
 * "err <negative errno>\n") there once the VMM runs and the socket listens.
 * Every fd the shim inherits without FD_CLOEXEC goes to the VMM (a tap fd).
 * The VMM gets PDEATHSIG=SIGKILL: a VM whose fencing supervisor died must
 * not keep running unsupervised. */
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

#define SHIM_MAX_CLIENTS 16
#define SHIM_MAX_LINE 128
#define SHIM_MAX_INHERITED 64
/* After a SIGTERM to the shim, the VMM gets this long to exit cleanly. */
#define SHIM_TERM_GRACE_MS 5000
/* The shim sleeps nearly always; when its deadline fires it must get a CPU
 * at once even on a host full of busy TCG threads. Its VMM gets the
 * caller's priority back. */
#define SHIM_NICE (-10)

enum shim_state { SHIM_RUNNING, SHIM_FENCED, SHIM_EXITED };
static const char *const state_names[] = {"running", "fenced", "exited"};

typedef struct shim_client {
  int fd;
  size_t len;
  char line[SHIM_MAX_LINE];
} shim_client;

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
  int vmm_nice; /* the priority the shim was started with */
  int inherited[SHIM_MAX_INHERITED];
  int n_inherited;
  shim_client clients[SHIM_MAX_CLIENTS];
} shim;

static void usage(void) {
  static const char msg[] =
      "usage: hangar-shim --dir DIR [--deadline-ms N] [--notify-fd FD] -- VMM "
      "[ARGS...]\n";
  ssize_t w = write(2, msg, sizeof msg - 1);
  (void)w;
}

static int parse_i64(const char *s, int64_t *out) {
  return hg_parse_int(s, 0, INT64_MAX, out) < 0 ? -EINVAL : 0;
}

static int parse_args(shim *s, int argc, char **argv) {
  const char *dir = NULL;
  int64_t v;
  int i = 1;
  for (; i < argc; i++) {
    if (strcmp(argv[i], "--") == 0) break;
    if (i + 1 >= argc) return -EINVAL;
    if (strcmp(argv[i], "--dir") == 0) {
      dir = argv[++i];
    } else if (strcmp(argv[i], "--deadline-ms") == 0) {
      if (parse_i64(argv[++i], &s->deadline_ms) < 0) return -EINVAL;
    } else if (strcmp(argv[i], "--notify-fd") == 0) {
      if (parse_i64(argv[++i], &v) < 0 || v > INT_MAX) return -EINVAL;
      s->notify_fd = (int)v;
    } else {
      return -EINVAL;
    }
  }
  if (!dir || i + 1 >= argc) return -EINVAL;
  s->vmm_argv = argv + i + 1;
  if (!realpath(dir, s->dir)) return -errno;
  int rc = hg_path(s->sock_path, sizeof s->sock_path, "%s/shim.sock", s->dir);
  if (rc == 0) rc = hg_path(s->json_path, sizeof s->json_path, "%s/shim.json", s->dir);
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
  int n = snprintf(out, cap,
                   "{\"shim_pid\":%d,\"vmm_pid\":%d,\"state\":\"%s\","
                   "\"deadline_ms\":%" PRId64 ",\"now_ms\":%" PRId64
                   ",\"started_at\":%" PRId64
                   ",\"exit_status\":%s,"
                   "\"exit_signal\":%d,\"boot_id\":\"%s\",\"shim_start\":%llu,"
                   "\"vmm_start\":%llu}",
                   (int)s->shim_pid, (int)s->vmm_pid, state_names[s->state],
                   s->deadline_ms, hg_now_ms(), s->started_at, exit_status,
                   s->exit_signal, s->boot_id, s->shim_start, s->vmm_start);
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

/* In the forked child: undo what the shim set up for itself, then exec. */
static void exec_vmm(shim *s, int err_fd) {
  sigset_t none;
  sigemptyset(&none);
  sigprocmask(SIG_SETMASK, &none, NULL);
  signal(SIGPIPE, SIG_DFL);
  signal(SIGHUP, SIG_DFL);
  setpriority(PRIO_PROCESS, 0, s->vmm_nice);
  prctl(PR_SET_PDEATHSIG, SIGKILL);
  if (getppid() != s->shim_pid) _exit(127); /* the shim died before prctl */
  execvp(s->vmm_argv[0], s->vmm_argv);
  int e = errno;
  ssize_t w = write(err_fd, &e, sizeof e);
  (void)w;
  _exit(127);
}

static int spawn_vmm(shim *s) {
  int p[2];
  if (pipe2(p, O_CLOEXEC) < 0) return -errno;
  pid_t pid = fork();
  if (pid < 0) {
    int rc = -errno;
    close(p[0]);
    close(p[1]);
    return rc;
  }
  if (pid == 0) exec_vmm(s, p[1]);
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
  struct pollfd p[3 + SHIM_MAX_CLIENTS];
  while (s->state != SHIM_EXITED) {
    p[0] = (struct pollfd){.fd = s->timer_fd, .events = POLLIN};
    p[1] = (struct pollfd){.fd = s->sig_fd, .events = POLLIN};
    p[2] = (struct pollfd){.fd = s->listen_fd, .events = POLLIN};
    for (int i = 0; i < SHIM_MAX_CLIENTS; i++)
      p[3 + i] = (struct pollfd){.fd = s->clients[i].fd, .events = POLLIN};
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
    for (int i = 0; i < SHIM_MAX_CLIENTS; i++)
      if (p[3 + i].revents && s->clients[i].fd >= 0) on_client(s, &s->clients[i]);
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
  s->vmm_nice = getpriority(PRIO_PROCESS, 0);
  if (errno || setpriority(PRIO_PROCESS, 0, SHIM_NICE) < 0)
    hg_log_warn("shim.nice_failed", "nice=%d err=%d", SHIM_NICE, -errno);
  rc = setup_fds(s);
  if (rc == 0) rc = spawn_vmm(s);
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
