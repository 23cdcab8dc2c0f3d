/* test_shim: hangar-shim's control protocol, fencing and process handling,
 * with /bin/sleep standing in for the VMM (fast, no VM needed). */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <cmocka.h>

#include "node/core/util.h"
#include "tests/unit/prereq_util.h"
#include "tests/unit/proc_util.h"

typedef struct fixture {
  char dir[PATH_MAX];
  int shim_pid, vmm_pid;
} fixture;

static bool wait_gone(int pid, int ms) {
  for (int64_t end = hg_now_ms() + ms; hg_now_ms() < end; sleep_ms(2))
    if (!proc_alive(pid)) return true;
  return !proc_alive(pid);
}

/* Runs the shim as the driver does (its fd 4 is the notify pipe); returns
 * the notify line. extra_fd, when >= 0, becomes fd 3 (to pass to the VMM).
 * opts: more shim options; vmm: the VMM's argv (NULL-terminated). */
static void spawn_argv(fixture *fx, char line[128], int extra_fd, const char *const *opts,
                       const char *const *vmm) {
  int p[2];
  assert_int_equal(pipe2(p, O_CLOEXEC), 0);
  pid_t pid = fork();
  assert_true(pid >= 0);
  if (pid == 0) {
    /* Lift both above 4 first: pipe2 may have handed out 3 or 4 itself. */
    int e = extra_fd >= 0 ? fcntl(extra_fd, F_DUPFD, 10) : -1;
    int w = fcntl(p[1], F_DUPFD, 10);
    if (e >= 0) dup2(e, 3);
    dup2(w, 4);
    if (e >= 0) close(e);
    close(w);
    const char *argv[32];
    int n = 0;
    argv[n++] = HG_SHIM_PATH;
    argv[n++] = "--dir";
    argv[n++] = fx->dir;
    argv[n++] = "--notify-fd";
    argv[n++] = "4";
    for (int i = 0; opts && opts[i] && n < 20; i++) argv[n++] = opts[i];
    argv[n++] = "--";
    for (int i = 0; vmm[i] && n < 31; i++) argv[n++] = vmm[i];
    argv[n] = NULL;
    execv(HG_SHIM_PATH, (char **)argv);
    _exit(127);
  }
  close(p[1]);
  size_t len = 0;
  ssize_t n;
  while (len < 127 && (n = read(p[0], line + len, 127 - len)) > 0) {
    len += (size_t)n;
    if (memchr(line, '\n', len)) break;
  }
  line[len] = '\0';
  close(p[0]);
  int st;
  waitpid(pid, &st, 0); /* the first shim process exits once detached */
  assert_true(WIFEXITED(st) && WEXITSTATUS(st) == 0);
  sscanf(line, "ok %d %d", &fx->shim_pid, &fx->vmm_pid);
}

static void spawn(fixture *fx, char line[128], int extra_fd, const char *deadline,
                  const char *vmm) {
  const char *opts[] = {"--deadline-ms", deadline, NULL};
  const char *argv[] = {vmm, "1000", NULL};
  spawn_argv(fx, line, extra_fd, deadline ? opts : NULL, argv);
}

static void spawn_ok(fixture *fx) {
  char line[128];
  spawn(fx, line, -1, NULL, "/bin/sleep");
  assert_true(fx->shim_pid > 0 && fx->vmm_pid > 0);
}

static int dial(const fixture *fx) {
  struct sockaddr_un sa = {.sun_family = AF_UNIX};
  assert_int_equal(hg_path(sa.sun_path, sizeof sa.sun_path, "%s/shim.sock", fx->dir), 0);
  int fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
  assert_true(fd >= 0);
  assert_int_equal(connect(fd, (struct sockaddr *)&sa, sizeof sa), 0);
  return fd;
}

/* Sends req, reads one reply line (empty on EOF). */
static void ask_on(int fd, const char *req, char *out, size_t cap) {
  size_t len = strlen(req), got = 0;
  assert_int_equal(send(fd, req, len, MSG_NOSIGNAL), (ssize_t)len);
  while (got < cap - 1) {
    struct pollfd p = {.fd = fd, .events = POLLIN};
    assert_int_equal(poll(&p, 1, 2000), 1);
    ssize_t n = recv(fd, out + got, cap - 1 - got, 0);
    if (n <= 0) break;
    got += (size_t)n;
    if (memchr(out, '\n', got)) break;
  }
  out[got] = '\0';
}

static void ask(const fixture *fx, const char *req, char *out, size_t cap) {
  int fd = dial(fx);
  ask_on(fd, req, out, cap);
  close(fd);
}

static void set_deadline(const fixture *fx, int64_t ms) {
  char req[64], out[64];
  snprintf(req, sizeof req, "deadline %lld\n", (long long)ms);
  ask(fx, req, out, sizeof out);
  assert_string_equal(out, "ok\n");
}

static void assert_status_running(const fixture *fx) {
  char out[1024];
  ask(fx, "status\n", out, sizeof out);
  assert_non_null(strstr(out, "\"state\":\"running\""));
}

static char *status_file(const fixture *fx) {
  char p[PATH_MAX], *text = NULL;
  assert_int_equal(hg_path(p, sizeof p, "%s/shim.json", fx->dir), 0);
  assert_int_equal(hg_read_file(p, 65536, &text, NULL), 0);
  return text;
}

static int setup(void **state) {
  fixture *fx = calloc(1, sizeof *fx);
  if (!fx) return -1;
  snprintf(fx->dir, sizeof fx->dir, "/tmp/hg-test-shim.XXXXXX");
  if (!mkdtemp(fx->dir)) return -1;
  *state = fx;
  return 0;
}

static int teardown(void **state) {
  fixture *fx = *state;
  if (fx->vmm_pid > 0 && proc_alive(fx->vmm_pid)) kill(fx->vmm_pid, SIGKILL);
  if (fx->shim_pid > 0) wait_gone(fx->shim_pid, 2000);
  if (fx->shim_pid > 0 && proc_alive(fx->shim_pid)) kill(fx->shim_pid, SIGKILL);
  hg_rm_rf(fx->dir);
  free(fx);
  return 0;
}

static void status_reports_running_and_pids(void **state) {
  fixture *fx = *state;
  spawn_ok(fx);
  assert_true(proc_alive(fx->shim_pid) && proc_alive(fx->vmm_pid));
  char out[1024], want[64];
  ask(fx, "status\n", out, sizeof out);
  assert_non_null(strstr(out, "\"state\":\"running\""));
  snprintf(want, sizeof want, "\"vmm_pid\":%d", fx->vmm_pid);
  assert_non_null(strstr(out, want));
  char *json = status_file(fx);
  assert_non_null(strstr(json, want));
  assert_non_null(strstr(json, "\"boot_id\":\""));
  free(json);
}

/* Guests get what the control plane leaves: the VMM runs 5 nice steps
 * below the shim's caller (hangard), whatever the shim raised itself to. */
static void vmm_runs_below_its_callers_priority(void **state) {
  fixture *fx = *state;
  errno = 0;
  int caller = getpriority(PRIO_PROCESS, 0);
  assert_int_equal(errno, 0);
  spawn_ok(fx);
  errno = 0;
  int vmm = getpriority(PRIO_PROCESS, (id_t)fx->vmm_pid);
  assert_int_equal(errno, 0);
  assert_int_equal(vmm, caller + 5 > 19 ? 19 : caller + 5);
}

/* The worst lateness the shim logged for its fences (event=shim.fenced). */
static long worst_logged_lateness(const fixture *fx) {
  char p[PATH_MAX], *text = NULL;
  long worst = -1;
  assert_int_equal(hg_path(p, sizeof p, "%s/shim.log", fx->dir), 0);
  assert_int_equal(hg_read_file(p, 1 << 20, &text, NULL), 0);
  for (char *hit = text; (hit = strstr(hit, "event=shim.fenced"));) {
    hit = strstr(hit, "late_ms=");
    if (!hit) break;
    long late = strtol(hit + 8, &hit, 10);
    if (late > worst) worst = late;
  }
  free(text);
  return worst;
}

/* The shim stops the VMM at each deadline (not before) and a later one
 * lets it run. How late after the deadline (§9: within 50 ms) is printed
 * from the shim's own log, not asserted: a loaded machine schedules the
 * shim late, and no benchmark measures it yet. */
static void deadline_stops_and_a_later_one_continues(void **state) {
  fixture *fx = *state;
  spawn_ok(fx);
  int64_t worst_seen = 0;
  for (int i = 0; i < 10; i++) {
    int64_t deadline = hg_now_ms() + 50;
    set_deadline(fx, deadline);
    assert_true(wait_stopped(fx->vmm_pid, 60000));
    int64_t seen = hg_now_ms() - deadline;
    assert_true(seen >= 0);
    if (seen > worst_seen) worst_seen = seen;
    char out[1024];
    ask(fx, "status\n", out, sizeof out);
    assert_non_null(strstr(out, "\"state\":\"fenced\""));
    set_deadline(fx, hg_now_ms() + 10000);
    assert_true(proc_state(fx->vmm_pid) != 'T');
  }
  long worst = worst_logged_lateness(fx);
  print_message("fence latency over 10 deadlines: worst %ld ms (shim), seen %lld ms\n",
                worst, (long long)worst_seen);
  assert_true(worst >= 0); /* each fence was the shim's, which logged it */
  set_deadline(fx, 0);
  sleep_ms(100);
  assert_true(proc_state(fx->vmm_pid) != 'T');
  char *json = status_file(fx);
  assert_non_null(strstr(json, "\"state\":\"running\""));
  free(json);
}

static void past_deadline_at_start_fences_at_once(void **state) {
  fixture *fx = *state;
  char line[128], past[32];
  snprintf(past, sizeof past, "%lld", (long long)(hg_now_ms() - 1));
  spawn(fx, line, -1, past, "/bin/sleep");
  assert_true(fx->vmm_pid > 0);
  assert_true(wait_stopped(fx->vmm_pid, 60000));
}

static void bad_requests_get_errors(void **state) {
  fixture *fx = *state;
  spawn_ok(fx);
  char out[256];
  ask(fx, "bogus\n", out, sizeof out);
  assert_string_equal(out, "err bad request\n");
  ask(fx, "deadline -5\n", out, sizeof out);
  assert_string_equal(out, "err bad request\n");
  ask(fx, "deadline 12x\n", out, sizeof out);
  assert_string_equal(out, "err bad request\n");
  char big[300];
  memset(big, 'a', sizeof big - 2);
  big[sizeof big - 2] = '\n';
  big[sizeof big - 1] = '\0';
  ask(fx, big, out, sizeof out);
  assert_string_equal(out, "err line too long\n");
  /* Several requests in one write are answered in order. */
  int fd = dial(fx);
  ask_on(fd, "deadline 0\r\nstatus\n", out, sizeof out);
  assert_true(strncmp(out, "ok\n", 3) == 0);
  close(fd);
  assert_true(proc_alive(fx->shim_pid));
}

static void vanishing_clients_and_sighup_do_not_kill_it(void **state) {
  fixture *fx = *state;
  spawn_ok(fx);
  for (int i = 0; i < 200; i++) {
    int fd = dial(fx);
    send(fd, "status\n", 7, MSG_NOSIGNAL);
    close(fd); /* gone before the reply: the shim's send meets EPIPE */
  }
  int many[40];
  for (int i = 0; i < 40; i++) many[i] = dial(fx); /* beyond its client limit */
  for (int i = 0; i < 40; i++) close(many[i]);
  kill(fx->shim_pid, SIGHUP);
  kill(fx->shim_pid, SIGPIPE);
  sleep_ms(100);
  assert_true(proc_alive(fx->shim_pid));
  assert_status_running(fx);
}

static void kill_ends_vmm_and_shim_and_records_it(void **state) {
  fixture *fx = *state;
  spawn_ok(fx);
  set_deadline(fx, hg_now_ms() - 1); /* kill works on a fenced VMM too */
  char out[64];
  ask(fx, "kill\n", out, sizeof out);
  assert_string_equal(out, "ok\n");
  assert_true(wait_gone(fx->shim_pid, 60000));
  assert_false(proc_alive(fx->vmm_pid));
  char *json = status_file(fx);
  assert_non_null(strstr(json, "\"state\":\"exited\""));
  assert_non_null(strstr(json, "\"exit_status\":137"));
  assert_non_null(strstr(json, "\"exit_signal\":9"));
  free(json);
  char sock[PATH_MAX];
  assert_int_equal(hg_path(sock, sizeof sock, "%s/shim.sock", fx->dir), 0);
  assert_int_equal(access(sock, F_OK), -1);
}

static void sigterm_to_shim_terminates_vmm(void **state) {
  fixture *fx = *state;
  spawn_ok(fx);
  kill(fx->shim_pid, SIGTERM);
  assert_true(wait_gone(fx->shim_pid, 60000));
  assert_false(proc_alive(fx->vmm_pid));
  char *json = status_file(fx);
  assert_non_null(strstr(json, "\"exit_signal\":15"));
  free(json);
}

static void vmm_dies_with_its_shim(void **state) {
  fixture *fx = *state;
  spawn_ok(fx);
  kill(fx->shim_pid, SIGKILL);
  assert_true(wait_gone(fx->vmm_pid, 60000)); /* PDEATHSIG */
}

static void exec_failure_is_reported(void **state) {
  fixture *fx = *state;
  char line[128];
  spawn(fx, line, -1, NULL, "/nonexistent/vmm");
  assert_string_equal(line, "err -2\n");
  assert_int_equal(fx->shim_pid, 0);
}

static void inherited_fds_go_to_the_vmm_only(void **state) {
  fixture *fx = *state;
  char p[PATH_MAX], line[128];
  assert_int_equal(hg_path(p, sizeof p, "%s/marker", fx->dir), 0);
  int fd = open(p, O_RDWR | O_CREAT | O_CLOEXEC, 0600);
  assert_true(fd >= 0);
  spawn(fx, line, fd, NULL, "/bin/sleep");
  close(fd);
  char link[64], target[PATH_MAX];
  snprintf(link, sizeof link, "/proc/%d/fd/3", fx->vmm_pid);
  ssize_t n = readlink(link, target, sizeof target - 1);
  assert_true(n > 0);
  target[n] = '\0';
  assert_string_equal(target, p);
  snprintf(link, sizeof link, "/proc/%d/fd/3", fx->shim_pid);
  n = readlink(link, target, sizeof target - 1);
  if (n > 0) {
    target[n] = '\0';
    assert_string_not_equal(target, p);
  }
  snprintf(link, sizeof link, "/proc/%d/fd/4", fx->vmm_pid); /* not the notify pipe */
  /* The notify pipe stays with the shim (fd 4 may briefly be a library
   * the VMM's loader has open). */
  n = readlink(link, target, sizeof target - 1);
  if (n > 0) {
    target[n] = '\0';
    assert_null(strstr(target, "pipe:"));
  }
}

static off_t file_size(const fixture *fx, const char *name) {
  char p[PATH_MAX];
  struct stat st;
  assert_int_equal(hg_path(p, sizeof p, "%s/%s", fx->dir, name), 0);
  return stat(p, &st) == 0 ? st.st_size : -1;
}

/* A VMM (a shell standing in for QEMU's serial output) writes 24 MiB to
 * its console, far past the cap: the shim keeps the newest output, in two
 * files of at most 512 KiB, and the VMM is never held up: it writes all of
 * it and goes on running. */
static void console_flood_is_capped_and_keeps_the_newest(void **state) {
  fixture *fx = *state;
  char console[PATH_MAX], line[128];
  assert_int_equal(hg_path(console, sizeof console, "%s/console.log", fx->dir), 0);
  const char *opts[] = {"--console", console, NULL};
  const char *vmm[] = {"/bin/sh", "-c",
                       "head -c 25165824 /dev/urandom; echo; echo flood-done >&2; "
                       "exec sleep 1000",
                       NULL};
  spawn_argv(fx, line, -1, opts, vmm);
  assert_true(fx->shim_pid > 0 && fx->vmm_pid > 0);
  /* The shell's stderr goes to the console too: its last line arrives. */
  char *text = NULL;
  for (int64_t end = hg_now_ms() + 60000;; sleep_ms(20)) {
    free(text);
    text = NULL;
    size_t len = 0;
    if (hg_read_file(console, 1 << 20, &text, &len) == 0 && strstr(text, "flood-done"))
      break;
    assert_true(hg_now_ms() < end);
  }
  free(text);
  assert_true(file_size(fx, "console.log") <= 512 * 1024);
  assert_int_equal(file_size(fx, "console.log.1"), 512 * 1024);
  assert_true(proc_alive(fx->vmm_pid)); /* it went on to sleep */
  assert_status_running(fx);
}

/* Without --console the VMM keeps the shim's stdout and stderr. */
static void console_is_optional(void **state) {
  fixture *fx = *state;
  spawn_ok(fx);
  assert_int_equal(file_size(fx, "console.log"), -1);
}

static unsigned vmm_uid(const fixture *fx) {
  char *json = status_file(fx);
  char *p = strstr(json, "\"vmm_uid\":");
  assert_non_null(p);
  unsigned uid = (unsigned)strtoul(p + 10, NULL, 10);
  free(json);
  return uid;
}

/* The names in dir, sorted, space-separated. */
static void names_in(const char *dir, char *out, size_t cap) {
  char cmd[PATH_MAX + 64];
  snprintf(cmd, sizeof cmd, "ls -A '%s' | tr '\\n' ' '", dir);
  FILE *f = popen(cmd, "r");
  assert_non_null(f);
  size_t n = fread(out, 1, cap - 1, f);
  pclose(f);
  while (n > 0 && out[n - 1] == ' ') n--;
  out[n] = '\0';
}

static int count_cgroups(unsigned uid) {
  char cmd[256], out[64] = "";
  snprintf(
      cmd, sizeof cmd,
      "find /sys/fs/cgroup -maxdepth 6 -type d -name hangar-vmm-%u 2>/dev/null | wc -l",
      uid);
  FILE *f = popen(cmd, "r");
  assert_non_null(f);
  size_t n = fread(out, 1, sizeof out - 1, f);
  out[n] = '\0';
  pclose(f);
  return atoi(out);
}

/* --jail (with /bin/sleep as the VMM): a uid of its own, no capabilities,
 * no_new_privs, a root holding only the dir, the binary's libraries and a
 * few devices, its own cgroups; all of it gone with the VMM, the uid free
 * again for the next. */
static void jail_runs_vmm_as_its_own_uid_in_its_own_root(void **state) {
  fixture *fx = *state;
  char line[128], v[256], path[PATH_MAX], list[4096];
  HG_NEED(geteuid() == 0, "root (the jail changes uid and mounts)");
  const char *opts[] = {"--jail", "--memory-mib", "64", "--vcpus", "1", NULL};
  const char *vmm[] = {"/bin/sleep", "1000", NULL};
  spawn_argv(fx, line, -1, opts, vmm);
  assert_true(fx->vmm_pid > 0);
  unsigned uid = vmm_uid(fx);
  assert_true(uid >= 2000000000u);
  char want[64];
  snprintf(want, sizeof want, "%u\t%u\t%u\t%u", uid, uid, uid, uid);
  assert_int_equal(proc_status_field(fx->vmm_pid, "Uid", v, sizeof v), 0);
  assert_string_equal(v, want);
  assert_int_equal(proc_status_field(fx->vmm_pid, "Gid", v, sizeof v), 0);
  assert_string_equal(v, want);
  assert_int_equal(proc_status_field(fx->vmm_pid, "CapEff", v, sizeof v), 0);
  assert_string_equal(v, "0000000000000000");
  assert_int_equal(proc_status_field(fx->vmm_pid, "NoNewPrivs", v, sizeof v), 0);
  assert_string_equal(v, "1");
  snprintf(path, sizeof path, "/proc/%d/root/tmp", fx->vmm_pid);
  names_in(path, list, sizeof list);
  assert_string_equal(list, strrchr(fx->dir, '/') + 1); /* /tmp holds the dir alone */
  snprintf(path, sizeof path, "/proc/%d/root/dev", fx->vmm_pid);
  names_in(path, list, sizeof list);
  assert_string_equal(list, "null random urandom zero");
  snprintf(path, sizeof path, "/proc/%d/root/usr/bin", fx->vmm_pid);
  names_in(path, list, sizeof list);
  assert_string_equal(list, "sleep");
  assert_true(count_cgroups(uid) >= 1);
  struct stat st;
  assert_int_equal(stat(fx->dir, &st), 0);
  assert_int_equal(st.st_mode & 0777, 0711);

  ask(fx, "kill\n", line, sizeof line);
  assert_true(wait_gone(fx->shim_pid, 60000));
  assert_int_equal(count_cgroups(uid), 0);
  /* The uid is free again: the next jail in this dir gets it back. */
  spawn_argv(fx, line, -1, opts, vmm);
  assert_int_equal(vmm_uid(fx), uid);
}

/* A shim killed by SIGKILL cannot remove its VMM's cgroups; the next jail
 * made on the host does, once nobody holds that uid. */
static void jail_collects_cgroups_a_killed_shim_left(void **state) {
  fixture *fx = *state;
  char line[128];
  HG_NEED(geteuid() == 0, "root (the jail changes uid and mounts)");
  const char *opts[] = {"--jail", "--memory-mib", "64", NULL};
  const char *vmm[] = {"/bin/sleep", "1000", NULL};
  spawn_argv(fx, line, -1, opts, vmm);
  unsigned uid = vmm_uid(fx);
  kill(fx->shim_pid, SIGKILL);
  assert_true(wait_gone(fx->vmm_pid, 60000)); /* PDEATHSIG */
  assert_true(count_cgroups(uid) >= 1);
  fixture other = {0};
  snprintf(other.dir, sizeof other.dir, "/tmp/hg-test-shim.XXXXXX");
  assert_non_null(mkdtemp(other.dir));
  spawn_argv(&other, line, -1, opts, vmm);
  unsigned uid2 = vmm_uid(&other);
  int left = count_cgroups(uid);
  kill(other.shim_pid, SIGTERM);
  wait_gone(other.shim_pid, 60000);
  hg_rm_rf(other.dir);
  assert_true(uid2 != uid || left >= 1);
  if (uid2 != uid) assert_int_equal(left, 0);
}

static void bad_usage_exits_2(void **state) {
  int st = system(HG_SHIM_PATH " --dir /tmp 2>/dev/null");
  assert_true(WIFEXITED(st) && WEXITSTATUS(st) == 2);
  st = system(HG_SHIM_PATH " --dir /nonexistent/x -- /bin/true 2>/dev/null");
  assert_true(WIFEXITED(st) && WEXITSTATUS(st) == 2);
  st = system(HG_SHIM_PATH " --dir /tmp --console rel.log -- /bin/true 2>/dev/null");
  assert_true(WIFEXITED(st) && WEXITSTATUS(st) == 2);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test_setup_teardown(status_reports_running_and_pids, setup, teardown),
      cmocka_unit_test_setup_teardown(vmm_runs_below_its_callers_priority, setup, teardown),
      cmocka_unit_test_setup_teardown(deadline_stops_and_a_later_one_continues, setup,
                                      teardown),
      cmocka_unit_test_setup_teardown(past_deadline_at_start_fences_at_once, setup,
                                      teardown),
      cmocka_unit_test_setup_teardown(bad_requests_get_errors, setup, teardown),
      cmocka_unit_test_setup_teardown(vanishing_clients_and_sighup_do_not_kill_it, setup,
                                      teardown),
      cmocka_unit_test_setup_teardown(kill_ends_vmm_and_shim_and_records_it, setup,
                                      teardown),
      cmocka_unit_test_setup_teardown(sigterm_to_shim_terminates_vmm, setup, teardown),
      cmocka_unit_test_setup_teardown(vmm_dies_with_its_shim, setup, teardown),
      cmocka_unit_test_setup_teardown(exec_failure_is_reported, setup, teardown),
      cmocka_unit_test_setup_teardown(inherited_fds_go_to_the_vmm_only, setup, teardown),
      cmocka_unit_test_setup_teardown(console_flood_is_capped_and_keeps_the_newest, setup,
                                      teardown),
      cmocka_unit_test_setup_teardown(console_is_optional, setup, teardown),
      cmocka_unit_test_setup_teardown(jail_runs_vmm_as_its_own_uid_in_its_own_root, setup,
                                      teardown),
      cmocka_unit_test_setup_teardown(jail_collects_cgroups_a_killed_shim_left, setup,
                                      teardown),
      cmocka_unit_test(bad_usage_exits_2),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
