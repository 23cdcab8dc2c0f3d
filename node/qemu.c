/* qemu: the QEMU microvm driver (DESIGN §4, reference/qemu-recipe.md).
 *
 * Guest RAM is a shared memory-backend-file (cfg->mem_path), so save only
 * writes device state (migration with x-ignore-shared, ~50 KB) and restore
 * maps the same file again. Each QEMU runs under hangar-shim, which holds
 * the fencing deadline; this file talks QMP to QEMU and a line protocol to
 * the shim. The vmstate travels as an fd passed over QMP (getfd + "fd:"),
 * which QEMU 7.2 supports both ways: no shell, no quoting, no extra process.
 *
 * A fenced VM (SIGSTOPped by its shim) cannot answer QMP: commands on it
 * fail fast with -ENOLCK (its lease is gone) instead of hanging. */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <jansson.h>
#include <limits.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/pidfd.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "node/accel.h"
#include "node/core/log.h"
#include "node/core/proc.h"
#include "node/core/util.h"
#include "node/qmp.h"
#include "node/vmm.h"

#define QEMU_DEFAULT_MAC "52:54:00:12:34:56"
/* tsc_early_khz: without it a TCG guest hangs calibrating the TSC. The
 * rest skips probing for hardware a microvm does not have (PCI, a PS/2
 * mouse, more UARTs) and the crypto self-tests: ~10% off a TCG boot. */
#define QEMU_DEFAULT_CMDLINE                                           \
  "console=ttyS0 quiet panic=-1 tsc_early_khz=2000000 pci=off "        \
  "8250.nr_uarts=1 i8042.noaux i8042.nomux i8042.nopnp i8042.dumbkbd " \
  "cryptomgr.notests"
/* Fixed fd numbers in the shim and QEMU: the tap device, the pipe on which
 * the shim reports its pid, the kernel stub of a restore, and the QMP and
 * agent sockets, bound and listening here: a jailed QEMU may not create
 * files in the sandbox dir. */
#define QEMU_TAP_FD 3
#define QEMU_NOTIFY_FD 4
#define QEMU_KERNEL_FD 5
#define QEMU_QMP_FD 6
#define QEMU_AGENT_FD 7
#define QEMU_CHILD_FDS 8
/* QEMU's own seccomp filter, for a jailed QEMU (node/shim/jail.h). */
#define QEMU_SANDBOX \
  "on,obsolete=deny,elevateprivileges=deny,spawn=deny,resourcecontrol=deny"
/* A restore's kernel stub: the bzImage's boot sector and setup header plus
 * this much of the payload. */
#define KERNEL_STUB_PAYLOAD 65536
#define QEMU_START_TIMEOUT_MS 30000
#define QEMU_FENCED_WAIT_MS 60000 /* a start's wait for QMP, while fenced, on top */
#define QEMU_FENCED_TRY_MS 5000   /* each try after the first, while fenced */
#define QEMU_CMD_TIMEOUT_MS 10000
#define QEMU_MIGRATE_TIMEOUT_MS 60000
#define QEMU_STOP_GRACE_MS 5000
#define SHIM_CTL_TIMEOUT_MS 2000
#define SHIM_STATUS_MAX 4096
#define SHIM_JSON_MAX 65536
#define VMSTATE_FD_NAME "hg-vmstate"

typedef char hg_sock_path[sizeof(((struct sockaddr_un *)0)->sun_path)];

struct hg_vm {
  char dir[PATH_MAX];
  char mem_path[PATH_MAX]; /* "" after adopt until asked from QEMU */
  char log_path[PATH_MAX];
  char kernel[PATH_MAX], initrd[PATH_MAX], rootfs[PATH_MAX]; /* "": none */
  hg_sock_path qmp_path, agent_path, ctl_path;
  int shim_pid, vmm_pid;
  int shim_pidfd; /* -1: unavailable, liveness via /proc */
  int kernel_fd;  /* memfd with the kernel stub while a restore starts; -1 */
  hg_qmp *qmp;    /* connected lazily */
  int ctl_fd;     /* shim control connection, connected lazily */
};

typedef struct argv_list {
  char **v;
  int n, cap;
} argv_list;

typedef struct shim_status {
  int shim_pid, vmm_pid;
  char state[16];
} shim_status;

/* ---------------------------------------------------------------- helpers */

static void sleep_ms(long ms) {
  struct timespec ts = {ms / 1000, (ms % 1000) * 1000000};
  while (nanosleep(&ts, &ts) < 0 && errno == EINTR) {
  }
}

static int argv_push(argv_list *a, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
static int argv_push(argv_list *a, const char *fmt, ...) {
  if (a->n + 2 > a->cap) {
    int cap = a->cap ? a->cap * 2 : 64;
    char **v = realloc(a->v, (size_t)cap * sizeof *v);
    if (!v) return -ENOMEM;
    a->v = v;
    a->cap = cap;
  }
  va_list ap;
  va_start(ap, fmt);
  int n = vasprintf(&a->v[a->n], fmt, ap);
  va_end(ap);
  if (n < 0) return -ENOMEM;
  a->v[++a->n] = NULL;
  return 0;
}

static void argv_free(argv_list *a) {
  for (int i = 0; i < a->n; i++) free(a->v[i]);
  free(a->v);
}

/* QEMU option values escape ',' as ",,"; our paths never hold one, so a
 * path that does is refused rather than escaped. */
static int check_opt_path(const char *what, const char *p) {
  if (!strchr(p, ',')) return 0;
  hg_log_error("vmm.bad_path", "what=%s path=\"%s\" reason=comma", what, p);
  return -EINVAL;
}

/* The console is the guest's to write: what reaches our log is one line,
 * quoted, with every byte that could end the value, the line, or speak to
 * a terminal written as an escape (\n, \", \\, \xHH). */
static void escape_console(const char *in, char *out, size_t cap) {
  static const char hex[] = "0123456789abcdef";
  size_t w = 0;
  for (const unsigned char *p = (const unsigned char *)in; *p && w + 5 < cap; p++) {
    unsigned char c = *p;
    if (c == '\n' || c == '"' || c == '\\') {
      out[w++] = '\\';
      out[w++] = c == '\n' ? 'n' : (char)c;
    } else if (c < 0x20 || c >= 0x7f) {
      out[w++] = '\\';
      out[w++] = 'x';
      out[w++] = hex[c >> 4];
      out[w++] = hex[c & 15];
    } else {
      out[w++] = (char)c;
    }
  }
  out[w] = '\0';
}

static void log_console_tail(const char *log_path) {
  char tail[512], line[4 * sizeof tail + 1];
  if (hg_file_tail(log_path, tail, sizeof tail) < 0 || !tail[0]) return;
  escape_console(tail, line, sizeof line);
  hg_log_error("vmm.console_tail", "log=%s tail=\"%s\"", log_path, line);
}

/* ------------------------------------------------------ process liveness */

static bool shim_alive(hg_vm *vm) {
  if (vm->shim_pidfd >= 0) {
    struct pollfd p = {.fd = vm->shim_pidfd, .events = POLLIN};
    return poll(&p, 1, 0) == 0;
  }
  hg_proc_stat ps;
  return hg_proc_stat_read(vm->shim_pid, &ps) == 0 && ps.state != 'Z';
}

/* Waits for the shim to exit; it exits right after its VMM. */
static bool wait_shim_exit(hg_vm *vm, int timeout_ms) {
  int64_t deadline = hg_now_ms() + timeout_ms;
  bool gone = false;
  while (!gone) {
    if (vm->shim_pidfd >= 0) {
      struct pollfd p = {.fd = vm->shim_pidfd, .events = POLLIN};
      int left = (int)(deadline - hg_now_ms());
      gone = poll(&p, 1, left > 0 ? left : 0) > 0;
    } else {
      gone = !shim_alive(vm);
      if (!gone) sleep_ms(5);
    }
    if (!gone && hg_now_ms() >= deadline) return false;
  }
  /* Reap it should this process be its subreaper; harmless otherwise. */
  waitpid(vm->shim_pid, NULL, WNOHANG);
  return true;
}

/* ------------------------------------------------- shim control socket */

static void ctl_close(hg_vm *vm) {
  if (vm->ctl_fd >= 0) close(vm->ctl_fd);
  vm->ctl_fd = -1;
}

static int ctl_connect(hg_vm *vm) {
  struct sockaddr_un sa = {.sun_family = AF_UNIX};
  memcpy(sa.sun_path, vm->ctl_path, sizeof sa.sun_path);
  int fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
  if (fd < 0) return -errno;
  if (connect(fd, (struct sockaddr *)&sa, sizeof sa) < 0) {
    int rc = -errno;
    close(fd);
    return rc == -ENOENT || rc == -ECONNREFUSED ? -ESRCH : rc;
  }
  vm->ctl_fd = fd;
  return 0;
}

static int ctl_read_line(hg_vm *vm, char *out, size_t cap, int64_t deadline) {
  size_t len = 0;
  for (;;) {
    struct pollfd p = {.fd = vm->ctl_fd, .events = POLLIN};
    int left = (int)(deadline - hg_now_ms());
    int n = poll(&p, 1, left > 0 ? left : 0);
    if (n == 0) return -ETIMEDOUT;
    if (n < 0) {
      if (errno == EINTR) continue;
      return -errno;
    }
    ssize_t r = recv(vm->ctl_fd, out + len, cap - 1 - len, 0);
    if (r == 0) return -ECONNRESET;
    if (r < 0) {
      if (errno == EINTR || errno == EAGAIN) continue;
      return -errno;
    }
    len += (size_t)r;
    out[len] = '\0';
    char *nl = memchr(out, '\n', len);
    if (nl) {
      *nl = '\0';
      return 0;
    }
    if (len == cap - 1) return -EMSGSIZE;
  }
}

static int ctl_once(hg_vm *vm, const char *req, char *out, size_t cap) {
  if (vm->ctl_fd < 0) {
    int rc = ctl_connect(vm);
    if (rc < 0) return rc;
  }
  int64_t deadline = hg_now_ms() + SHIM_CTL_TIMEOUT_MS;
  size_t len = strlen(req);
  ssize_t n = send(vm->ctl_fd, req, len, MSG_NOSIGNAL);
  if (n != (ssize_t)len) return n < 0 ? -errno : -EIO;
  return ctl_read_line(vm, out, cap, deadline);
}

/* One request line, one reply line. A kept connection that went stale (the
 * shim dropped a slow client) is retried once on a fresh one. */
static int ctl_request(hg_vm *vm, const char *req, char *out, size_t cap) {
  int rc = ctl_once(vm, req, out, cap);
  if (rc < 0 && rc != -ESRCH) {
    ctl_close(vm);
    rc = ctl_once(vm, req, out, cap);
  }
  if (rc < 0) {
    ctl_close(vm);
    if (!shim_alive(vm)) rc = -ESRCH;
  }
  return rc;
}

static int parse_status(const char *text, shim_status *out) {
  json_error_t err;
  json_t *j = json_loads(text, 0, &err);
  const char *state = j ? json_string_value(json_object_get(j, "state")) : NULL;
  json_t *vmm = j ? json_object_get(j, "vmm_pid") : NULL;
  json_t *shim = j ? json_object_get(j, "shim_pid") : NULL;
  int rc = -EPROTO;
  if (state && json_is_integer(vmm) && json_is_integer(shim) &&
      strlen(state) < sizeof out->state) {
    snprintf(out->state, sizeof out->state, "%s", state);
    out->vmm_pid = (int)json_integer_value(vmm);
    out->shim_pid = (int)json_integer_value(shim);
    rc = 0;
  }
  json_decref(j);
  return rc;
}

static int shim_status_get(hg_vm *vm, shim_status *out) {
  char line[SHIM_STATUS_MAX];
  int rc = ctl_request(vm, "status\n", line, sizeof line);
  if (rc < 0) return rc;
  return parse_status(line, out);
}

/* Whether the shim stopped the VM (its deadline passed): QMP on it would
 * hang, and a QMP wait that ran out on it is the lease's doing. */
static bool shim_says_fenced(hg_vm *vm) {
  shim_status st;
  return shim_status_get(vm, &st) == 0 && strcmp(st.state, "fenced") == 0;
}

/* QMP would hang on a SIGSTOPped QEMU: ask the shim first. */
static int check_controllable(hg_vm *vm) {
  shim_status st;
  int rc = shim_status_get(vm, &st);
  if (rc < 0) return rc;
  if (strcmp(st.state, "fenced") == 0) return -ENOLCK;
  if (strcmp(st.state, "running") != 0) return -ESRCH;
  return 0;
}

/* ---------------------------------------------------------------- QMP */

static int vm_qmp(hg_vm *vm, hg_qmp **out) {
  if (vm->qmp && !hg_qmp_connected(vm->qmp)) {
    hg_qmp_close(vm->qmp);
    vm->qmp = NULL;
  }
  if (!vm->qmp) {
    int rc = hg_qmp_connect(vm->qmp_path, hg_now_ms() + QEMU_CMD_TIMEOUT_MS, &vm->qmp);
    if (rc < 0) return rc;
  }
  *out = vm->qmp;
  return 0;
}

static int qmp_exec(hg_vm *vm, const char *cmd, json_t *args, json_t **ret) {
  hg_qmp *q;
  int rc = vm_qmp(vm, &q);
  if (rc < 0) return rc;
  return hg_qmp_exec(q, cmd, args, QEMU_CMD_TIMEOUT_MS, ret);
}

static int qmp_simple(hg_vm *vm, const char *cmd) {
  return qmp_exec(vm, cmd, NULL, NULL);
}

/* "running", "paused", "inmigrate", "postmigrate", ... into out. */
static int qmp_run_state(hg_vm *vm, char *out, size_t cap) {
  json_t *ret;
  int rc = qmp_exec(vm, "query-status", NULL, &ret);
  if (rc < 0) return rc;
  const char *s = json_string_value(json_object_get(ret, "status"));
  rc = s ? hg_path(out, cap, "%s", s) : -EPROTO;
  json_decref(ret);
  return rc;
}

static int set_ignore_shared(hg_vm *vm) {
  json_t *args = json_pack("{s:[{s:s, s:b}]}", "capabilities", "capability",
                           "x-ignore-shared", "state", 1);
  if (!args) return -ENOMEM;
  int rc = qmp_exec(vm, "migrate-set-capabilities", args, NULL);
  json_decref(args);
  return rc;
}

static int qmp_with_uri(hg_vm *vm, const char *cmd, const char *uri) {
  json_t *args = json_pack("{s:s}", "uri", uri);
  if (!args) return -ENOMEM;
  int rc = qmp_exec(vm, cmd, args, NULL);
  json_decref(args);
  return rc;
}

static int send_vmstate_fd(hg_vm *vm, int fd) {
  hg_qmp *q;
  int rc = vm_qmp(vm, &q);
  if (rc < 0) return rc;
  return hg_qmp_send_fd(q, fd, VMSTATE_FD_NAME, QEMU_CMD_TIMEOUT_MS);
}

/* ------------------------------------------------------------ handle */

static int vm_new(const char *dir, hg_vm **out) {
  hg_vm *vm = calloc(1, sizeof *vm);
  if (!vm) return -ENOMEM;
  vm->shim_pidfd = vm->ctl_fd = vm->kernel_fd = -1;
  int rc = realpath(dir, vm->dir) ? 0 : -errno;
  if (rc == 0) rc = hg_path(vm->qmp_path, sizeof vm->qmp_path, "%s/qmp.sock", vm->dir);
  if (rc == 0)
    rc = hg_path(vm->agent_path, sizeof vm->agent_path, "%s/agent.sock", vm->dir);
  if (rc == 0) rc = hg_path(vm->ctl_path, sizeof vm->ctl_path, "%s/shim.sock", vm->dir);
  if (rc < 0) {
    hg_log_error("vmm.bad_dir", "dir=%s err=%d", dir, rc);
    free(vm);
    return rc;
  }
  *out = vm;
  return 0;
}

static void vm_attach_pids(hg_vm *vm, int shim_pid, int vmm_pid) {
  vm->shim_pid = shim_pid;
  vm->vmm_pid = vmm_pid;
  /* Without a pidfd (kernel < 5.3) liveness falls back to /proc. */
  vm->shim_pidfd = pidfd_open(shim_pid, 0);
}

static void qemu_release(hg_vm *vm) {
  if (!vm) return;
  hg_qmp_close(vm->qmp);
  ctl_close(vm);
  if (vm->kernel_fd >= 0) close(vm->kernel_fd);
  if (vm->shim_pidfd >= 0) close(vm->shim_pidfd);
  free(vm);
}

/* ------------------------------------------------------- command line */

static int push_machine(argv_list *a, const hg_vm_config *cfg, const char *mem) {
  unsigned vcpus = cfg->vcpus ? cfg->vcpus : 1;
  int rc = 0;
  rc |= argv_push(a, "%s", hg_qemu_bin());
  rc |= argv_push(a, "-M");
  rc |= argv_push(a, "microvm,acpi=on,pit=on,pic=on,rtc=on,memory-backend=m0");
  rc |= argv_push(a, "-accel");
  /* The node proved its accelerator at start (node/accel.h); a driver
   * never guesses from /dev/kvm, which may open and still boot nothing. */
  rc |= argv_push(a, "%s", cfg->accel && !strcmp(cfg->accel, "kvm") ? "kvm" : "tcg");
  rc |= argv_push(a, "-cpu");
  rc |= argv_push(a, "max");
  rc |= argv_push(a, "-smp");
  rc |= argv_push(a, "%u", vcpus);
  rc |= argv_push(a, "-m");
  rc |= argv_push(a, "%uM", cfg->memory_mib);
  rc |= argv_push(a, "-object");
  rc |= argv_push(a, "memory-backend-file,id=m0,size=%uM,mem-path=%s,share=on",
                  cfg->memory_mib, mem);
  /* -no-reboot: a guest that panics (panic=-1) makes QEMU exit, so the shim
   * reports it instead of the VM rebooting into a fresh, empty guest. */
  const char *fixed[] = {"-nodefaults", "-no-user-config", "-display", "none",
                         "-no-reboot"};
  for (size_t i = 0; i < HG_ARRAY_SIZE(fixed); i++) rc |= argv_push(a, "%s", fixed[i]);
  return rc ? -ENOMEM : 0;
}

static int push_boot(argv_list *a, const hg_vm_config *cfg, const hg_vm *vm) {
  int rc = 0;
  rc |= argv_push(a, "-kernel");
  if (vm->kernel_fd >= 0) {
    rc |= argv_push(a, "/proc/self/fd/%d", QEMU_KERNEL_FD);
  } else {
    rc |= argv_push(a, "%s", vm->kernel);
    if (vm->initrd[0]) {
      rc |= argv_push(a, "-initrd");
      rc |= argv_push(a, "%s", vm->initrd);
    }
  }
  rc |= argv_push(a, "-append");
  rc |= argv_push(a, "%s", cfg->cmdline ? cfg->cmdline : QEMU_DEFAULT_CMDLINE);
  return rc ? -ENOMEM : 0;
}

static int push_devices(argv_list *a, const hg_vm_config *cfg, const hg_vm *vm) {
  int rc = 0;
  /* The serial console is QEMU's stdout, a pipe to the shim, which caps
   * the file it goes to (a file chardev would let the guest fill the disk). */
  rc |= argv_push(a, "-chardev");
  rc |= argv_push(a, "stdio,id=con,signal=off");
  rc |= argv_push(a, "-serial");
  rc |= argv_push(a, "chardev:con");
  rc |= argv_push(a, "-chardev");
  rc |= argv_push(a, "socket,id=qmp,fd=%d,server=on,wait=off", QEMU_QMP_FD);
  rc |= argv_push(a, "-mon");
  rc |= argv_push(a, "chardev=qmp,mode=control");
  rc |= argv_push(a, "-device");
  rc |= argv_push(a, "virtio-serial-device");
  rc |= argv_push(a, "-chardev");
  rc |= argv_push(a, "socket,id=agent,fd=%d,server=on,wait=off", QEMU_AGENT_FD);
  rc |= argv_push(a, "-device");
  rc |= argv_push(a, "virtserialport,chardev=agent,name=agent");
  if (vm->rootfs[0]) {
    rc |= argv_push(a, "-drive");
    rc |= argv_push(a, "id=root,file=%s,format=raw,if=none", vm->rootfs);
    rc |= argv_push(a, "-device");
    rc |= argv_push(a, "virtio-blk-device,drive=root");
  }
  if (cfg->tap_fd >= 0 || cfg->nic_unplugged) {
    /* A fixed MAC: a restored guest keeps the one it booted with. An
     * unplugged NIC sits alone on a hub: frames go nowhere. */
    rc |= argv_push(a, "-netdev");
    if (cfg->tap_fd >= 0)
      rc |= argv_push(a, "tap,id=net0,fd=%d", QEMU_TAP_FD);
    else
      rc |= argv_push(a, "hubport,id=net0,hubid=0");
    rc |= argv_push(a, "-device");
    rc |= argv_push(a, "virtio-net-device,netdev=net0,mac=%s",
                    cfg->mac ? cfg->mac : QEMU_DEFAULT_MAC);
  }
  return rc ? -ENOMEM : 0;
}

/* The VMM is jailed (node/shim/jail.h) unless HANGAR_VMM_JAIL=off, which
 * exists to measure what the jail costs (tools/bench), or hangard is not
 * root (it could not hand the files over). */
static bool jailed(void) {
  const char *e = getenv("HANGAR_VMM_JAIL");
  return !(e && strcmp(e, "off") == 0) && geteuid() == 0;
}

static int build_argv(argv_list *a, const hg_vm_config *cfg, const hg_vm *vm,
                      bool incoming) {
  int rc = push_machine(a, cfg, vm->mem_path);
  if (rc == 0) rc = push_boot(a, cfg, vm);
  if (rc == 0) rc = push_devices(a, cfg, vm);
  if (rc == 0 && jailed()) {
    rc |= argv_push(a, "-sandbox");
    rc |= argv_push(a, "%s", QEMU_SANDBOX);
  }
  if (rc == 0 && incoming) {
    rc |= argv_push(a, "-incoming");
    rc |= argv_push(a, "defer");
  }
  return rc ? -ENOMEM : 0;
}

static int check_config(const hg_vm *vm) {
  const char *need[] = {vm->kernel, vm->initrd, vm->rootfs};
  for (size_t i = 0; i < HG_ARRAY_SIZE(need); i++) {
    if (need[i][0] && access(need[i], R_OK) < 0) {
      int rc = -errno;
      hg_log_error("vmm.missing_file", "dir=%s path=%s err=%d", vm->dir, need[i], rc);
      return rc;
    }
  }
  int rc = check_opt_path("mem", vm->mem_path);
  if (rc == 0) rc = check_opt_path("dir", vm->dir);
  if (rc == 0) rc = check_opt_path("rootfs", vm->rootfs);
  return rc;
}

/* ---------------------------------------------------------- spawning */

/* Next to the running binary when installed (bin/), or in shim/ beside it
 * in a build tree (node/hangard, node/shim/hangar-shim). */
static int shim_binary(const hg_vm_config *cfg, char *out, size_t cap) {
  if (cfg->shim_path) return hg_path(out, cap, "%s", cfg->shim_path);
  char exe[PATH_MAX];
  ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
  if (n <= 0) return -errno;
  exe[n] = '\0';
  char *slash = strrchr(exe, '/');
  if (slash) *slash = '\0';
  int rc = hg_path(out, cap, "%s/hangar-shim", exe);
  if (rc == 0 && access(out, X_OK) < 0)
    rc = hg_path(out, cap, "%s/shim/hangar-shim", exe);
  return rc;
}

/* In the forked child (async-signal-safe calls only): installs src[i] as
 * fd i (-1: leave i closed) and closes everything else, then runs the shim. */
static void exec_shim(char **argv, const int src[QEMU_CHILD_FDS]) {
  sigset_t none;
  sigemptyset(&none);
  sigprocmask(SIG_SETMASK, &none, NULL);
  /* Lift every source above the targets first so no dup2 clobbers one. */
  int lifted[QEMU_CHILD_FDS];
  for (int i = 0; i < QEMU_CHILD_FDS; i++) {
    lifted[i] = src[i] >= 0 ? fcntl(src[i], F_DUPFD, 16) : -1;
    if (src[i] >= 0 && lifted[i] < 0) _exit(127);
  }
  for (int i = 0; i < QEMU_CHILD_FDS; i++) {
    if (lifted[i] < 0)
      close(i);
    else if (dup2(lifted[i], i) < 0)
      _exit(127);
  }
  close_range(QEMU_CHILD_FDS, ~0U, 0);
  execv(argv[0], argv);
  _exit(127);
}

/* Reads "ok <shim_pid> <vmm_pid>" or "err <code>" from the shim. */
static int read_notify(int fd, int *shim_pid, int *vmm_pid) {
  char line[128];
  size_t len = 0;
  int64_t deadline = hg_now_ms() + QEMU_START_TIMEOUT_MS;
  while (len < sizeof line - 1 && !memchr(line, '\n', len)) {
    struct pollfd p = {.fd = fd, .events = POLLIN};
    int left = (int)(deadline - hg_now_ms());
    int n = poll(&p, 1, left > 0 ? left : 0);
    if (n == 0) return -ETIMEDOUT;
    if (n < 0 && errno == EINTR) continue;
    ssize_t r = n < 0 ? -1 : read(fd, line + len, sizeof line - 1 - len);
    if (r < 0 && errno == EINTR) continue;
    if (r <= 0) break;
    len += (size_t)r;
  }
  line[len] = '\0';
  int err;
  if (sscanf(line, "ok %d %d", shim_pid, vmm_pid) == 2 && *shim_pid > 0 && *vmm_pid > 0)
    return 0;
  if (sscanf(line, "err %d", &err) == 1 && err < 0) return err;
  return -EIO;
}

/* fds: what the shim (and through it QEMU) gets as fds 3-7; 0-2 become
 * /dev/null (the shim logs to its file and gives QEMU the console pipe as
 * stdout and stderr) and the notify pipe is made here. */
static int fork_shim(char **argv, int fds[QEMU_CHILD_FDS], int *shim_pid, int *vmm_pid) {
  int null_fd = open("/dev/null", O_RDWR | O_CLOEXEC);
  if (null_fd < 0) return -errno;
  int p[2];
  if (pipe2(p, O_CLOEXEC) < 0) {
    int rc = -errno;
    close(null_fd);
    return rc;
  }
  fds[0] = fds[1] = fds[2] = null_fd;
  fds[QEMU_NOTIFY_FD] = p[1];
  pid_t pid = fork();
  if (pid == 0) exec_shim(argv, fds);
  int rc = pid < 0 ? -errno : 0;
  close(p[1]);
  close(null_fd);
  if (rc == 0) rc = read_notify(p[0], shim_pid, vmm_pid);
  close(p[0]);
  /* The first shim process exits as soon as it has detached. */
  if (pid > 0)
    while (waitpid(pid, NULL, 0) < 0 && errno == EINTR) {
    }
  return rc;
}

/* A listening socket at path, for QEMU to serve (it gets the fd). */
static int listen_unix(const char *path, int *out) {
  struct sockaddr_un sa = {.sun_family = AF_UNIX};
  snprintf(sa.sun_path, sizeof sa.sun_path, "%s", path);
  int fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
  if (fd < 0) return -errno;
  unlink(path);
  int rc = 0;
  if (bind(fd, (struct sockaddr *)&sa, sizeof sa) < 0 || chmod(path, 0600) < 0 ||
      listen(fd, 16) < 0)
    rc = -errno;
  if (rc < 0) {
    hg_log_error("vmm.listen_failed", "path=%s err=%d", path, rc);
    close(fd);
    return rc;
  }
  *out = fd;
  return 0;
}

/* The shim's jail options: what QEMU opens besides the dir, and its size. */
static int push_jail(argv_list *a, const hg_vm_config *cfg, const hg_vm *vm) {
  int rc = argv_push(a, "--jail");
  rc |= argv_push(a, "--jail-rw");
  rc |= argv_push(a, "%s", vm->mem_path);
  if (vm->rootfs[0]) {
    rc |= argv_push(a, "--jail-rw");
    rc |= argv_push(a, "%s", vm->rootfs);
  }
  if (vm->kernel_fd < 0) { /* a cold boot reads the kernel and initrd */
    rc |= argv_push(a, "--jail-ro");
    rc |= argv_push(a, "%s", vm->kernel);
    if (vm->initrd[0]) {
      rc |= argv_push(a, "--jail-ro");
      rc |= argv_push(a, "%s", vm->initrd);
    }
  }
  if (cfg->accel && strcmp(cfg->accel, "kvm") == 0) {
    rc |= argv_push(a, "--jail-rw");
    rc |= argv_push(a, "/dev/kvm");
  }
  rc |= argv_push(a, "--memory-mib");
  rc |= argv_push(a, "%u", cfg->memory_mib);
  rc |= argv_push(a, "--vcpus");
  rc |= argv_push(a, "%u", cfg->vcpus ? cfg->vcpus : 1);
  return rc ? -ENOMEM : 0;
}

static int spawn(hg_vm *vm, const hg_vm_config *cfg, argv_list *qemu) {
  char shim[PATH_MAX];
  int rc = shim_binary(cfg, shim, sizeof shim);
  if (rc == 0 && access(shim, X_OK) < 0) rc = -errno;
  if (rc < 0) {
    hg_log_error("vmm.no_shim", "dir=%s shim=%s err=%d", vm->dir, shim, rc);
    return rc;
  }
  argv_list a = {0};
  rc |= argv_push(&a, "%s", shim);
  rc |= argv_push(&a, "--dir");
  rc |= argv_push(&a, "%s", vm->dir);
  rc |= argv_push(&a, "--notify-fd");
  rc |= argv_push(&a, "%d", QEMU_NOTIFY_FD);
  rc |= argv_push(&a, "--console");
  rc |= argv_push(&a, "%s", vm->log_path);
  /* Fenced from its first instruction: the lease it starts under. */
  if (cfg->deadline_ms > 0) {
    rc |= argv_push(&a, "--deadline-ms");
    rc |= argv_push(&a, "%" PRId64, cfg->deadline_ms);
  }
  if (rc == 0 && jailed()) rc = push_jail(&a, cfg, vm);
  rc |= argv_push(&a, "--");
  for (int i = 0; i < qemu->n && rc == 0; i++) rc |= argv_push(&a, "%s", qemu->v[i]);
  if (rc) rc = -ENOMEM;
  int qmp_fd = -1, agent_fd = -1;
  if (rc == 0) rc = listen_unix(vm->qmp_path, &qmp_fd);
  if (rc == 0) rc = listen_unix(vm->agent_path, &agent_fd);
  int shim_pid = 0, vmm_pid = 0;
  int fds[QEMU_CHILD_FDS] = {-1,     -1,      -1, cfg->tap_fd, -1, vm->kernel_fd,
                             qmp_fd, agent_fd};
  if (rc == 0) rc = fork_shim(a.v, fds, &shim_pid, &vmm_pid);
  if (qmp_fd >= 0) close(qmp_fd); /* QEMU holds them now, or nobody */
  if (agent_fd >= 0) close(agent_fd);
  argv_free(&a);
  if (rc < 0) {
    hg_log_error("vmm.spawn_failed", "dir=%s shim=%s err=%d", vm->dir, shim, rc);
    return rc;
  }
  vm_attach_pids(vm, shim_pid, vmm_pid);
  return 0;
}

/* QEMU dropped its QMP connection: it is exiting (bad image, bad vmstate). */
static int gone_as_eio(int rc) {
  return rc == -ECONNRESET || rc == -EPIPE ? -EIO : rc;
}

/* The QMP socket appears early in QEMU's start-up; until it does, watch
 * for QEMU having died (bad image, bad flag) so that fails fast. Then
 * QMP's greeting, by the same deadline. */
static int qmp_try(hg_vm *vm, int64_t deadline) {
  while (access(vm->qmp_path, F_OK) < 0) {
    if (!shim_alive(vm)) return -EIO;
    if (hg_now_ms() >= deadline) return -ETIMEDOUT;
    sleep_ms(1);
  }
  int rc = hg_qmp_connect(vm->qmp_path, deadline, &vm->qmp);
  if (rc < 0 && !shim_alive(vm)) rc = -EIO;
  return gone_as_eio(rc);
}

/* A QEMU the shim stopped neither makes its socket nor greets: on a loaded
 * node the deadline it was started with can pass that early (a lease round
 * landing late; CI's it_api saw a resume fail so, 30 s fenced). While the
 * shim says fenced, another try follows, up to QEMU_FENCED_WAIT_MS past
 * the first deadline: the next renewal lets QEMU on, and a lease lost for
 * good is the lease layer's to act on. */
static int await_qmp(hg_vm *vm, int64_t deadline) {
  int64_t limit = deadline + QEMU_FENCED_WAIT_MS;
  int rc;
  while ((rc = qmp_try(vm, deadline)) == -ETIMEDOUT && hg_now_ms() < limit &&
         shim_says_fenced(vm)) {
    int64_t next = hg_now_ms() + QEMU_FENCED_TRY_MS;
    deadline = next < limit ? next : limit;
  }
  return rc;
}

/* A restored guest has its kernel in memory already, yet QEMU loads
 * -kernel (and -initrd) into fw_cfg all the same: for a 14 MB bzImage that
 * is ~40% of a TCG restore. So a restore gets a stub instead: the kernel's
 * own boot sector and setup header, so QEMU decides everything about the
 * machine as it did at boot, and a token payload; fw_cfg contents are not
 * part of the migrated state, and -no-reboot means the stub never boots.
 * Not a bzImage (no "HdrS"): -ENOTSUP, and the real kernel is used. */
static int kernel_stub(const char *kernel, int *out) {
  int fd = open(kernel, O_RDONLY | O_CLOEXEC);
  if (fd < 0) return -errno;
  uint8_t hdr[0x210];
  ssize_t n = pread(fd, hdr, sizeof hdr, 0);
  if (n != (ssize_t)sizeof hdr || memcmp(hdr + 0x202, "HdrS", 4) != 0) {
    close(fd);
    return -ENOTSUP;
  }
  size_t setup = ((size_t)(hdr[0x1f1] ? hdr[0x1f1] : 4) + 1) * 512;
  size_t len = setup + KERNEL_STUB_PAYLOAD;
  char *buf = malloc(len);
  int mfd = memfd_create("hangar-kernel-stub", MFD_CLOEXEC);
  n = buf && mfd >= 0 ? pread(fd, buf, len, 0) : -1;
  int rc = n > (ssize_t)setup && write(mfd, buf, (size_t)n) == n ? 0 : -EIO;
  free(buf);
  close(fd);
  if (rc < 0) {
    if (mfd >= 0) close(mfd);
    return rc;
  }
  *out = mfd;
  return 0;
}

static int vm_launch(hg_vm *vm, const hg_vm_config *cfg, bool incoming) {
  const char *stale[] = {vm->qmp_path, vm->agent_path, vm->ctl_path};
  for (size_t i = 0; i < HG_ARRAY_SIZE(stale); i++) unlink(stale[i]);
  if (incoming && kernel_stub(vm->kernel, &vm->kernel_fd) < 0) vm->kernel_fd = -1;
  argv_list qemu = {0};
  int64_t t0 = hg_now_ns();
  int rc = build_argv(&qemu, cfg, vm, incoming);
  if (rc == 0) rc = spawn(vm, cfg, &qemu);
  argv_free(&qemu);
  if (vm->kernel_fd >= 0) close(vm->kernel_fd); /* QEMU has its own copy now */
  vm->kernel_fd = -1;
  if (rc < 0) return rc;
  int64_t t1 = hg_now_ns();
  rc = await_qmp(vm, hg_now_ms() + QEMU_START_TIMEOUT_MS);
  hg_log_debug("vmm.launch", "dir=%s shim_ms=%.1f qmp_ms=%.1f", vm->dir, (t1 - t0) / 1e6,
               (hg_now_ns() - t1) / 1e6);
  if (rc < 0) {
    hg_log_error("vmm.qemu_failed", "dir=%s vmm_pid=%d err=%d", vm->dir, vm->vmm_pid, rc);
    log_console_tail(vm->log_path);
  }
  return rc;
}

/* ------------------------------------------------------ adopt checks */

typedef struct shim_record {
  int shim_pid, vmm_pid;
  unsigned long long shim_start, vmm_start;
  char state[16];
  char boot_id[64];
} shim_record;

static int read_record(const char *dir, shim_record *r) {
  char path[PATH_MAX], *text;
  int rc = hg_path(path, sizeof path, "%s/shim.json", dir);
  if (rc == 0) rc = hg_read_file(path, SHIM_JSON_MAX, &text, NULL);
  if (rc < 0) return rc == -ENOENT ? -ESRCH : rc;
  json_error_t err;
  json_t *j = json_loads(text, 0, &err);
  free(text);
  json_int_t shim = 0, vmm = 0, ss = 0, vs = 0;
  const char *state = NULL, *boot = NULL;
  rc = j ? json_unpack(j, "{s:I, s:I, s:s, s:s, s:I, s:I}", "shim_pid", &shim, "vmm_pid",
                       &vmm, "state", &state, "boot_id", &boot, "shim_start", &ss,
                       "vmm_start", &vs)
         : -1;
  if (rc == 0 && shim > 0 && vmm > 0 && shim <= INT_MAX && vmm <= INT_MAX) {
    r->shim_pid = (int)shim;
    r->vmm_pid = (int)vmm;
    r->shim_start = (unsigned long long)ss;
    r->vmm_start = (unsigned long long)vs;
    snprintf(r->state, sizeof r->state, "%s", state);
    snprintf(r->boot_id, sizeof r->boot_id, "%s", boot);
  } else {
    rc = -EPROTO;
  }
  json_decref(j);
  if (rc < 0) hg_log_warn("vmm.bad_status_file", "dir=%s", dir);
  return rc < 0 ? -EPROTO : 0;
}

static bool same_boot(const char *boot_id) {
  char *text = NULL;
  size_t len = 0;
  if (hg_read_file("/proc/sys/kernel/random/boot_id", 128, &text, &len) < 0) return false;
  while (len > 0 && text[len - 1] == '\n') text[--len] = '\0';
  bool same = strcmp(text, boot_id) == 0;
  free(text);
  return same;
}

/* The value of the shim's option opt ("--dir") before "--", or NULL. */
static const char *shim_option(const char *cmd, size_t len, const char *opt) {
  for (size_t off = 0; off < len; off += strlen(cmd + off) + 1) {
    if (strcmp(cmd + off, "--") == 0) return NULL;
    size_t next = off + strlen(cmd + off) + 1;
    if (strcmp(cmd + off, opt) == 0 && next < len) return cmd + next;
  }
  return NULL;
}

/* The shim is alive, started when recorded, and serves this dir. */
static bool shim_matches(const shim_record *r, const char *dir) {
  char cmd[8192];
  hg_proc_stat ps;
  size_t len = 0;
  if (kill(r->shim_pid, 0) < 0) return false;
  if (hg_proc_stat_read(r->shim_pid, &ps) < 0 || ps.state == 'Z' ||
      ps.starttime != r->shim_start)
    return false;
  if (hg_proc_cmdline(r->shim_pid, cmd, sizeof cmd, &len) < 0 || !strstr(cmd, "hangar-shim"))
    return false;
  const char *d = shim_option(cmd, len, "--dir");
  return d && strcmp(d, dir) == 0;
}

/* Where an adopted VM's console goes: the shim's --console. */
static void adopted_console(hg_vm *vm, int shim_pid) {
  char cmd[8192];
  size_t len = 0;
  const char *c = hg_proc_cmdline(shim_pid, cmd, sizeof cmd, &len) == 0
                      ? shim_option(cmd, len, "--console")
                      : NULL;
  if (c)
    (void)hg_path(vm->log_path, sizeof vm->log_path, "%s", c);
  else
    (void)hg_path(vm->log_path, sizeof vm->log_path, "%s/console.log", vm->dir);
}

/* The VMM is alive, started when recorded, and still the shim's child. */
static bool vmm_matches(const shim_record *r) {
  hg_proc_stat ps;
  if (kill(r->vmm_pid, 0) < 0) return false;
  return hg_proc_stat_read(r->vmm_pid, &ps) == 0 && ps.state != 'Z' &&
         ps.ppid == r->shim_pid && ps.starttime == r->vmm_start;
}

/* 0 when dir holds a live shim + VMM pair, -ESRCH when it holds none. */
static int find_live(const char *dir, shim_record *r) {
  int rc = read_record(dir, r);
  if (rc < 0) return rc;
  if (strcmp(r->state, "exited") == 0 || !same_boot(r->boot_id) ||
      !shim_matches(r, dir) || !vmm_matches(r))
    return -ESRCH;
  return 0;
}

/* ------------------------------------------------------------ ops */

/* QEMU runs with "/" as its working directory (the shim's): make every
 * path the caller gave absolute. */
static int abs_path(const char *in, const char *dflt_dir, const char *dflt_name,
                    char *out, size_t cap) {
  char cwd[PATH_MAX];
  if (!in) return hg_path(out, cap, "%s/%s", dflt_dir, dflt_name);
  if (in[0] == '/') return hg_path(out, cap, "%s", in);
  if (!getcwd(cwd, sizeof cwd)) return -errno;
  return hg_path(out, cap, "%s/%s", cwd, in);
}

static int resolve_paths(const hg_vm_config *cfg, hg_vm *vm) {
  int rc = abs_path(cfg->mem_path, vm->dir, "mem", vm->mem_path, sizeof vm->mem_path);
  if (rc == 0)
    rc = abs_path(cfg->log_path, vm->dir, "console.log", vm->log_path,
                  sizeof vm->log_path);
  if (rc == 0) rc = abs_path(cfg->kernel, NULL, NULL, vm->kernel, sizeof vm->kernel);
  if (rc == 0 && cfg->initrd)
    rc = abs_path(cfg->initrd, NULL, NULL, vm->initrd, sizeof vm->initrd);
  if (rc == 0 && cfg->rootfs)
    rc = abs_path(cfg->rootfs, NULL, NULL, vm->rootfs, sizeof vm->rootfs);
  return rc;
}

/* "xx:xx:xx:xx:xx:xx" in hex: it goes into a QEMU option string. */
static bool mac_valid(const char *mac) {
  for (int i = 0; i < 17; i++) {
    char c = mac[i];
    bool ok = i % 3 == 2 ? c == ':'
                         : (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') ||
                               (c >= 'A' && c <= 'F');
    if (!ok) return false;
  }
  return mac[17] == '\0';
}

static int prepare(const hg_vm_config *cfg, hg_vm **out) {
  if (!cfg || !cfg->dir || !cfg->kernel || cfg->memory_mib == 0) return -EINVAL;
  if (cfg->mac && !mac_valid(cfg->mac)) return -EINVAL;
  hg_vm *vm;
  int rc = vm_new(cfg->dir, &vm);
  if (rc < 0) return rc;
  rc = resolve_paths(cfg, vm);
  if (rc == 0) rc = check_config(vm);
  /* Two VMMs on one memory file would corrupt it: refuse while a shim is
   * alive here, by its record or, should that be unreadable, its socket. */
  shim_record r;
  if (rc == 0 && (find_live(vm->dir, &r) == 0 || ctl_connect(vm) == 0)) {
    hg_log_error("vmm.busy", "dir=%s", vm->dir);
    ctl_close(vm);
    rc = -EBUSY;
  }
  if (rc < 0) {
    qemu_release(vm);
    return rc;
  }
  *out = vm;
  return 0;
}

static int fresh_memory(const char *path, unsigned mib) {
  /* A new file, not a truncated old one: on btrfs the old extents may be
   * shared with snapshots, and a cold boot owes them nothing. */
  if (unlink(path) < 0 && errno != ENOENT) return -errno;
  int fd = open(path, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
  if (fd < 0) return -errno;
  int rc = ftruncate(fd, (off_t)mib << 20) < 0 ? -errno : 0;
  close(fd);
  return rc;
}

/* Kills what vm_launch started, for the failure paths of start/restore. */
static void abandon(hg_vm *vm) {
  if (vm->shim_pid > 0 && shim_alive(vm)) {
    char line[64];
    ctl_request(vm, "kill\n", line, sizeof line);
    if (!wait_shim_exit(vm, QEMU_STOP_GRACE_MS)) kill(vm->shim_pid, SIGKILL);
  }
  qemu_release(vm);
}

static int qemu_start(const hg_vm_config *cfg, hg_vm **out) {
  int64_t t0 = hg_now_ns();
  hg_vm *vm;
  int rc = prepare(cfg, &vm);
  if (rc < 0) return rc;
  rc = fresh_memory(vm->mem_path, cfg->memory_mib);
  if (rc < 0) hg_log_error("vmm.mem_failed", "path=%s err=%d", vm->mem_path, rc);
  if (rc == 0) rc = vm_launch(vm, cfg, false);
  if (rc < 0) {
    abandon(vm);
    return rc;
  }
  hg_log_info("vmm.started", "dir=%s shim_pid=%d vmm_pid=%d ms=%.1f", vm->dir,
              vm->shim_pid, vm->vmm_pid, (hg_now_ns() - t0) / 1e6);
  *out = vm;
  return 0;
}

static int check_restore_files(const hg_vm *vm, unsigned mib, const char *vmstate) {
  struct stat st;
  if (access(vmstate, R_OK) < 0 || stat(vm->mem_path, &st) < 0) {
    int rc = -errno;
    hg_log_error("vmm.restore_missing", "dir=%s vmstate=%s err=%d", vm->dir, vmstate, rc);
    return rc;
  }
  if (st.st_size != (off_t)mib << 20) {
    /* QEMU would silently grow a short file: a guest with a hole of zeros. */
    hg_log_error("vmm.restore_mem_size", "path=%s size=%lld want=%llu", vm->mem_path,
                 (long long)st.st_size, (unsigned long long)mib << 20);
    return -EINVAL;
  }
  return 0;
}

/* QEMU starts paused in "inmigrate"; once the stream is read it lands in
 * the state saved with it ("paused", since save stops first). */
static int await_incoming(hg_vm *vm) {
  int64_t deadline = hg_now_ms() + QEMU_MIGRATE_TIMEOUT_MS;
  char state[32];
  for (;;) {
    int rc = qmp_run_state(vm, state, sizeof state);
    if (rc < 0) return shim_alive(vm) ? gone_as_eio(rc) : -EIO;
    if (strcmp(state, "inmigrate") != 0) break;
    if (hg_now_ms() >= deadline) return -ETIMEDOUT;
    sleep_ms(1);
  }
  if (strcmp(state, "running") == 0) return 0;
  if (strcmp(state, "paused") != 0 && strcmp(state, "postmigrate") != 0 &&
      strcmp(state, "prelaunch") != 0) {
    hg_log_error("vmm.restore_state", "dir=%s state=%s", vm->dir, state);
    return -EIO;
  }
  return qmp_simple(vm, "cont");
}

/* *step names the step that failed, for the log. */
static int incoming(hg_vm *vm, const char *vmstate, const char **step) {
  *step = "open vmstate";
  int fd = open(vmstate, O_RDONLY | O_CLOEXEC);
  if (fd < 0) return -errno;
  *step = "x-ignore-shared";
  int rc = set_ignore_shared(vm);
  if (rc == 0) *step = "send vmstate fd";
  if (rc == 0) rc = send_vmstate_fd(vm, fd);
  close(fd);
  if (rc == 0) *step = "migrate-incoming";
  if (rc == 0) rc = qmp_with_uri(vm, "migrate-incoming", "fd:" VMSTATE_FD_NAME);
  if (rc == 0) *step = "await incoming";
  if (rc == 0) rc = await_incoming(vm);
  return rc;
}

static int qemu_restore(const hg_vm_config *cfg, const char *vmstate, hg_vm **out) {
  int64_t t0 = hg_now_ns();
  hg_vm *vm;
  if (!vmstate) return -EINVAL;
  int rc = prepare(cfg, &vm);
  if (rc < 0) return rc;
  rc = check_restore_files(vm, cfg->memory_mib, vmstate);
  if (rc < 0) {
    qemu_release(vm);
    return rc;
  }
  const char *step = "launch";
  rc = vm_launch(vm, cfg, true);
  int64_t t1 = hg_now_ns();
  if (rc == 0) rc = incoming(vm, vmstate, &step);
  if (rc < 0) {
    hg_log_error("vmm.restore_failed", "dir=%s vmstate=%s step=\"%s\" fenced=%d ms=%.1f err=%d",
                 vm->dir, vmstate, step, shim_says_fenced(vm), (hg_now_ns() - t0) / 1e6, rc);
    log_console_tail(vm->log_path);
    abandon(vm);
    return rc;
  }
  hg_log_info("vmm.restored", "dir=%s vmm_pid=%d ms=%.1f qemu_start_ms=%.1f", vm->dir,
              vm->vmm_pid, (hg_now_ns() - t0) / 1e6, (t1 - t0) / 1e6);
  *out = vm;
  return 0;
}

static int qemu_pause(hg_vm *vm) {
  int rc = check_controllable(vm);
  return rc < 0 ? rc : qmp_simple(vm, "stop");
}

static int qemu_resume(hg_vm *vm) {
  int rc = check_controllable(vm);
  return rc < 0 ? rc : qmp_simple(vm, "cont");
}

static int await_migration(hg_vm *vm) {
  int64_t deadline = hg_now_ms() + QEMU_MIGRATE_TIMEOUT_MS;
  for (;;) {
    json_t *ret;
    int rc = qmp_exec(vm, "query-migrate", NULL, &ret);
    if (rc < 0) return rc;
    const char *st = json_string_value(json_object_get(ret, "status"));
    if (st && strcmp(st, "completed") == 0)
      rc = 1;
    else if (!st || strcmp(st, "failed") == 0 || strcmp(st, "cancelled") == 0) {
      const char *why = json_string_value(json_object_get(ret, "error-desc"));
      hg_log_error("vmm.save_failed", "dir=%s status=%s why=\"%s\"", vm->dir,
                   st ? st : "?", why ? why : "");
      rc = -EIO;
    }
    json_decref(ret);
    if (rc) return rc < 0 ? rc : 0;
    if (hg_now_ms() >= deadline) return -ETIMEDOUT;
    sleep_ms(1);
  }
}

/* The memory file of an adopted VM is only known to QEMU. */
static int memory_path(hg_vm *vm) {
  if (vm->mem_path[0]) return 0;
  json_t *args = json_pack("{s:s, s:s}", "path", "/objects/m0", "property", "mem-path");
  json_t *ret = NULL;
  int rc = args ? qmp_exec(vm, "qom-get", args, &ret) : -ENOMEM;
  json_decref(args);
  if (rc < 0) return rc;
  const char *p = json_string_value(ret);
  rc = p ? hg_path(vm->mem_path, sizeof vm->mem_path, "%s", p) : -EPROTO;
  json_decref(ret);
  return rc;
}

static int migrate_to(hg_vm *vm, int fd) {
  int rc = set_ignore_shared(vm);
  if (rc == 0) rc = send_vmstate_fd(vm, fd);
  if (rc == 0) rc = qmp_with_uri(vm, "migrate", "fd:" VMSTATE_FD_NAME);
  if (rc == 0) rc = await_migration(vm);
  if (rc == 0 && fsync(fd) < 0) rc = -errno;
  return rc;
}

static int dir_of_fsync(const char *path) {
  char dir[PATH_MAX];
  int rc = hg_path(dir, sizeof dir, "%s", path);
  if (rc < 0) return rc;
  char *slash = strrchr(dir, '/');
  if (slash == dir)
    slash[1] = '\0';
  else if (slash)
    *slash = '\0';
  else
    snprintf(dir, sizeof dir, ".");
  return hg_fsync_path(dir);
}

/* stop, then device state into vmstate.tmp, fsync, rename; then fsync the
 * memory file, whose pages the guest wrote through the shared mapping. */
static int qemu_save(hg_vm *vm, const char *vmstate) {
  int64_t t0 = hg_now_ns();
  char tmp[PATH_MAX];
  int rc = vmstate ? hg_path(tmp, sizeof tmp, "%s.tmp", vmstate) : -EINVAL;
  if (rc == 0) rc = check_controllable(vm);
  if (rc == 0) rc = qmp_simple(vm, "stop");
  if (rc == 0) rc = memory_path(vm);
  if (rc < 0) return rc;
  int fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
  if (fd < 0) return -errno;
  rc = migrate_to(vm, fd);
  close(fd);
  if (rc == 0 && rename(tmp, vmstate) < 0) rc = -errno;
  if (rc < 0) {
    unlink(tmp);
    hg_log_error("vmm.save_failed", "dir=%s vmstate=%s err=%d", vm->dir, vmstate, rc);
    return rc;
  }
  int64_t t1 = hg_now_ns();
  rc = dir_of_fsync(vmstate);
  if (rc == 0) rc = hg_fsync_path(vm->mem_path);
  if (rc < 0) {
    hg_log_error("vmm.save_fsync_failed", "dir=%s err=%d", vm->dir, rc);
    return rc;
  }
  hg_log_info("vmm.saved", "dir=%s ms=%.1f migrate_ms=%.1f", vm->dir,
              (hg_now_ns() - t0) / 1e6, (t1 - t0) / 1e6);
  return 0;
}

/* Asks QEMU to quit; a fenced or stuck one is killed through the shim, and
 * as a last resort directly. */
static int qemu_stop(hg_vm *vm) {
  if (shim_alive(vm)) {
    bool fenced = shim_says_fenced(vm);
    char line[64];
    /* QEMU may close the socket before its reply to quit gets out. */
    int rc = fenced ? -ENOLCK : qmp_simple(vm, "quit");
    if (rc < 0 && rc != -ECONNRESET) {
      if (!fenced) hg_log_warn("vmm.quit_failed", "dir=%s err=%d", vm->dir, rc);
      ctl_request(vm, "kill\n", line, sizeof line);
    }
    if (!wait_shim_exit(vm, QEMU_STOP_GRACE_MS)) {
      hg_log_warn("vmm.stop_kill", "dir=%s shim_pid=%d", vm->dir, vm->shim_pid);
      ctl_request(vm, "kill\n", line, sizeof line);
      if (!wait_shim_exit(vm, QEMU_STOP_GRACE_MS)) {
        shim_record r = {.shim_pid = vm->shim_pid, .vmm_pid = vm->vmm_pid};
        hg_proc_stat ps;
        if (hg_proc_stat_read(r.vmm_pid, &ps) == 0 && ps.ppid == vm->shim_pid)
          kill(vm->vmm_pid, SIGKILL);
        kill(vm->shim_pid, SIGKILL);
        if (!wait_shim_exit(vm, QEMU_STOP_GRACE_MS)) return -ETIMEDOUT;
      }
    }
  }
  hg_qmp_close(vm->qmp);
  vm->qmp = NULL;
  ctl_close(vm);
  /* A killed QEMU leaves its listening sockets behind. */
  unlink(vm->qmp_path);
  unlink(vm->agent_path);
  hg_log_info("vmm.stopped", "dir=%s shim_pid=%d vmm_pid=%d", vm->dir, vm->shim_pid,
              vm->vmm_pid);
  return 0;
}

static int qemu_adopt(const char *dir, hg_vm **out) {
  hg_vm *vm;
  if (!dir || vm_new(dir, &vm) < 0) return -ESRCH;
  shim_record r;
  int rc = find_live(vm->dir, &r);
  if (rc == 0) {
    vm_attach_pids(vm, r.shim_pid, r.vmm_pid);
    adopted_console(vm, r.shim_pid);
    shim_status st;
    rc = shim_status_get(vm, &st);
    if (rc == 0 && (st.vmm_pid != r.vmm_pid || strcmp(st.state, "exited") == 0))
      rc = -ESRCH;
  }
  if (rc < 0) {
    hg_log_info("vmm.adopt_failed", "dir=%s err=%d", vm->dir, rc);
    qemu_release(vm);
    return rc == -EPROTO ? rc : -ESRCH;
  }
  hg_log_info("vmm.adopted", "dir=%s shim_pid=%d vmm_pid=%d", vm->dir, vm->shim_pid,
              vm->vmm_pid);
  *out = vm;
  return 0;
}

static int qemu_set_deadline(hg_vm *vm, int64_t deadline_ms) {
  if (deadline_ms < 0) return -EINVAL;
  char req[64], line[64];
  snprintf(req, sizeof req, "deadline %" PRId64 "\n", deadline_ms);
  int rc = ctl_request(vm, req, line, sizeof line);
  if (rc == 0 && strcmp(line, "ok") != 0) rc = -EPROTO;
  return rc;
}

/* For a caller without the VM's handle (the lease's deadline pusher, on
 * a thread of its own): a connection of its own, closed after. */
static int qemu_set_deadline_at(const char *dir, int64_t deadline_ms) {
  if (deadline_ms < 0) return -EINVAL;
  static const hg_vm blank = {.ctl_fd = -1};
  hg_vm *tmp = malloc(sizeof *tmp);
  if (!tmp) return -ENOMEM;
  *tmp = blank;
  char req[64], line[64];
  snprintf(req, sizeof req, "deadline %" PRId64 "\n", deadline_ms);
  int rc = hg_path(tmp->ctl_path, sizeof tmp->ctl_path, "%s/shim.sock", dir);
  if (rc == 0) rc = ctl_once(tmp, req, line, sizeof line);
  if (rc == 0 && strcmp(line, "ok") != 0) rc = -EPROTO;
  ctl_close(tmp);
  free(tmp);
  return rc;
}

static int qemu_info(hg_vm *vm, hg_vm_info *out) {
  shim_status st;
  int rc = shim_status_get(vm, &st);
  if (rc < 0) return rc;
  hg_vm_info info = {.shim_pid = vm->shim_pid, .vmm_pid = st.vmm_pid};
  info.fenced = strcmp(st.state, "fenced") == 0;
  if (strcmp(st.state, "running") == 0) {
    char state[32];
    rc = qmp_run_state(vm, state, sizeof state);
    if (rc < 0) return rc;
    info.running = strcmp(state, "running") == 0;
  } else if (!info.fenced) {
    return -ESRCH;
  }
  *out = info;
  return 0;
}

static const char *qemu_agent_path(const hg_vm *vm) {
  return vm->agent_path;
}

static void qemu_clear(const char *dir) {
  static const char *const names[] = {"qmp.sock",     "agent.sock", "shim.sock",
                                      "shim.json",    "shim.log",   "console.log",
                                      "console.log.1"};
  for (size_t i = 0; i < HG_ARRAY_SIZE(names); i++) {
    char path[PATH_MAX];
    if (hg_path(path, sizeof path, "%s/%s", dir, names[i]) == 0) unlink(path);
  }
}

const hg_vmm_ops hg_vmm_qemu = {
    .name = "qemu",
    .start = qemu_start,
    .restore = qemu_restore,
    .pause = qemu_pause,
    .resume = qemu_resume,
    .save = qemu_save,
    .stop = qemu_stop,
    .adopt = qemu_adopt,
    .set_deadline = qemu_set_deadline,
    .set_deadline_at = qemu_set_deadline_at,
    .info = qemu_info,
    .agent_path = qemu_agent_path,
    .release = qemu_release,
    .clear = qemu_clear,
};
