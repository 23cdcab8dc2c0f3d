/* accel: the node's accelerator, proven by booting a kernel under KVM. */
#include "node/accel.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "node/core/err.h"
#include "node/core/log.h"
#include "node/core/util.h"

#define QEMU_DEFAULT_BIN "qemu-system-x86_64"
/* The kernel boots with no initrd and no root device, so it ends in a
 * panic ("VFS: Unable to mount root fs"): the one message that proves it
 * ran all the way through its own start-up, printed at KERN_EMERG. */
#define PROBE_CMDLINE "console=ttyS0 panic=-1 tsc_early_khz=2000000 pci=off"
#define PROBE_MARKER "Kernel panic"
#define PROBE_CONSOLE_MAX 4096

const char *hg_qemu_bin(void) {
  const char *bin = getenv("HANGAR_QEMU");
  return bin && *bin ? bin : QEMU_DEFAULT_BIN;
}

int hg_accel_mode_parse(const char *s, hg_accel_mode *out) {
  static const char *const names[] = {[HG_ACCEL_AUTO] = "auto", [HG_ACCEL_KVM] = "kvm",
                                      [HG_ACCEL_TCG] = "tcg"};
  for (size_t i = 0; i < HG_ARRAY_SIZE(names); i++) {
    if (s && !strcmp(s, names[i])) {
      *out = (hg_accel_mode)i;
      return 0;
    }
  }
  return -EINVAL;
}

/* The console's last line, for a reason that must stay one line. */
static void last_line(const char *con, char *out, size_t cap) {
  size_t len = strlen(con);
  while (len > 0 && (con[len - 1] == '\n' || con[len - 1] == '\r')) len--;
  size_t start = len;
  while (start > 0 && con[start - 1] != '\n') start--;
  snprintf(out, cap, "%.*s", (int)(len - start), con + start);
  for (char *p = out; *p; p++)
    if ((unsigned char)*p < 0x20 || *p == '"') *p = '?';
  if (!out[0]) snprintf(out, cap, "empty");
}

static pid_t spawn_probe(const char *kernel, int out_fd) {
  const char *bin = hg_qemu_bin();
  const char *const argv[] = {bin, "-M", "microvm,acpi=on,pit=on,pic=on,rtc=on", "-accel",
                              "kvm", "-cpu", "max", "-m", "128", "-smp", "1",
                              "-nodefaults", "-no-user-config", "-display", "none",
                              "-no-reboot", "-serial", "stdio", "-kernel", kernel,
                              "-append", PROBE_CMDLINE, NULL};
  pid_t pid = fork();
  if (pid != 0) return pid;
  int null = open("/dev/null", O_RDONLY);
  if (null >= 0) dup2(null, 0);
  dup2(out_fd, 1);
  dup2(out_fd, 2);
  execvp(bin, (char *const *)argv);
  _exit(127);
}

/* Appends what the probe printed, keeping the newest PROBE_CONSOLE_MAX/2
 * bytes at least, NUL-terminated. */
static void console_add(char *con, size_t *len, const char *data, size_t n) {
  if (*len + n >= PROBE_CONSOLE_MAX) {
    size_t keep = PROBE_CONSOLE_MAX / 2 < *len ? PROBE_CONSOLE_MAX / 2 : *len;
    memmove(con, con + *len - keep, keep);
    *len = keep;
  }
  if (n >= PROBE_CONSOLE_MAX - *len) n = PROBE_CONSOLE_MAX - *len - 1;
  memcpy(con + *len, data, n);
  *len += n;
  con[*len] = '\0';
}

typedef enum probe_end { PROBE_BOOTED, PROBE_EXITED, PROBE_TIMEOUT } probe_end;

/* Reads the probe's console until the marker, its exit, or the deadline. */
static probe_end watch_probe(int fd, int timeout_ms, char *con) {
  size_t len = 0;
  int64_t deadline = hg_now_ms() + timeout_ms;
  con[0] = '\0';
  for (;;) {
    int64_t left = deadline - hg_now_ms();
    if (left <= 0) return PROBE_TIMEOUT;
    struct pollfd p = {.fd = fd, .events = POLLIN};
    int r = poll(&p, 1, (int)left);
    if (r < 0 && errno == EINTR) continue;
    if (r <= 0) return r == 0 ? PROBE_TIMEOUT : PROBE_EXITED;
    char chunk[1024];
    ssize_t n = read(fd, chunk, sizeof chunk);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return PROBE_EXITED;
    console_add(con, &len, chunk, (size_t)n);
    if (strstr(con, PROBE_MARKER)) return PROBE_BOOTED;
  }
}

/* 0 when kernel booted under KVM within timeout_ms; else -ENODEV with why. */
static int probe_kvm(const char *kernel, int timeout_ms, char *why, size_t cap) {
  int pfd[2];
  if (pipe2(pfd, O_CLOEXEC) < 0) return -errno;
  int64_t t0 = hg_now_ms();
  pid_t pid = spawn_probe(kernel, pfd[1]);
  close(pfd[1]);
  if (pid < 0) {
    close(pfd[0]);
    return -errno;
  }
  char con[PROBE_CONSOLE_MAX], line[160];
  probe_end end = watch_probe(pfd[0], timeout_ms, con);
  close(pfd[0]);
  if (end != PROBE_EXITED) kill(pid, SIGKILL);
  int status = 0;
  while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  last_line(con, line, sizeof line);
  if (end == PROBE_BOOTED) {
    snprintf(why, cap, "a kernel booted under KVM in %lld ms", (long long)(hg_now_ms() - t0));
    return 0;
  }
  if (end == PROBE_TIMEOUT)
    snprintf(why, cap, "/dev/kvm opens, but a kernel did not boot under it within %d ms "
             "(console: %s)", timeout_ms, line);
  else
    snprintf(why, cap, "/dev/kvm opens, but QEMU could not boot under it (exit %d: %s)",
             WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status), line);
  return -ENODEV;
}

static int try_kvm(const char *kernel, int timeout_ms, char *why, size_t cap) {
  int fd = open("/dev/kvm", O_RDWR | O_CLOEXEC);
  if (fd < 0) {
    snprintf(why, cap, "/dev/kvm: %s", strerror(errno));
    return -ENODEV;
  }
  close(fd);
  if (!kernel || access(kernel, R_OK) < 0) {
    snprintf(why, cap, "/dev/kvm opens, but there is no kernel yet to prove it boots one "
             "(no --template-dir and no template)");
    return -ENODEV;
  }
  return probe_kvm(kernel, timeout_ms, why, cap);
}

int hg_accel_choose(hg_accel_mode mode, const char *kernel, int timeout_ms, hg_accel *out) {
  memset(out, 0, sizeof *out);
  snprintf(out->name, sizeof out->name, "tcg");
  if (mode == HG_ACCEL_TCG) {
    snprintf(out->reason, sizeof out->reason, "--accel tcg");
  } else {
    char why[HG_ACCEL_REASON_MAX - 64];
    int rc = try_kvm(kernel, timeout_ms, why, sizeof why);
    if (rc == 0) snprintf(out->name, sizeof out->name, "kvm");
    if (rc == 0 || mode == HG_ACCEL_AUTO)
      snprintf(out->reason, sizeof out->reason, "%s%s", why, rc == 0 ? "" : "; using TCG");
    else
      snprintf(out->reason, sizeof out->reason, "--accel kvm: %s", why);
    if (rc < 0 && mode == HG_ACCEL_KVM) {
      hg_log_error("accel.kvm_failed", "reason=\"%s\"", out->reason);
      return rc;
    }
  }
  hg_log_info("accel.chosen", "accel=%s reason=\"%s\"", out->name, out->reason);
  return 0;
}
