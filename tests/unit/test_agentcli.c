/* agentcli against the real hangar-agent (in --listen mode on this host),
 * and against fake guests that misbehave in every way we could think of. */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cmocka.h>

#include "node/agentcli.h"
#include "node/agentproto.h"
#include "node/core/mp.h"
#include "node/core/util.h"

static struct {
  pid_t pid;
  char dir[64];
  char sock[128];
  hg_agent *a;
} T;

/* ---- the real agent ---------------------------------------------------- */

static pid_t spawn_agent(const char *mode, const char *arg, int keep_fd) {
  const char *bin = getenv("HANGAR_AGENT_BIN");
  if (!bin) return -1;
  pid_t pid = fork();
  if (pid == 0) {
    char log[160];
    snprintf(log, sizeof log, "%s/agent.log", T.dir);
    int fd = open(log, O_WRONLY | O_CREAT | O_APPEND, 0644);
    if (fd >= 0) dup2(fd, 2);
    if (keep_fd >= 0) fcntl(keep_fd, F_SETFD, 0);
    char state[96];
    snprintf(state, sizeof state, "%s/state", T.dir);
    execl(bin, bin, mode, arg, "--state-dir", state, (char *)NULL);
    _exit(127);
  }
  return pid;
}

static int group_setup(void **state) {
  if (!getenv("HANGAR_AGENT_BIN")) {
    fprintf(stderr, "HANGAR_AGENT_BIN is not set (run through ctest)\n");
    return -1;
  }
  strcpy(T.dir, "/tmp/hg-agentcli-XXXXXX");
  if (!mkdtemp(T.dir)) return -1;
  snprintf(T.sock, sizeof T.sock, "%s/agent.sock", T.dir);
  T.pid = spawn_agent("--listen", T.sock, -1);
  if (T.pid < 0) return -1;
  return hg_agent_connect(T.sock, 5000, &T.a) == 0 ? 0 : -1;
}

static int group_teardown(void **state) {
  hg_agent_free(T.a);
  if (T.pid > 0) {
    kill(T.pid, SIGTERM);
    waitpid(T.pid, NULL, 0);
  }
  if (getenv("HG_TEST_KEEP"))
    fprintf(stderr, "kept %s\n", T.dir);
  else
    hg_rm_rf(T.dir);
  return 0;
}

static char *tpath(const char *name) {
  static __thread char p[256];
  snprintf(p, sizeof p, "%s/%s", T.dir, name);
  return p;
}

/* Runs a command to its end; returns its status and both streams. */
typedef struct run_res {
  hg_cmd_status st;
  hg_buf out, err;
} run_res;

static int read_all(hg_agent *a, uint64_t cid, int stream, hg_buf *out) {
  uint64_t off = 0;
  hg_read_res res;
  do {
    size_t before = out->len;
    int rc = hg_agent_read(a, cid, stream, off, 0, 2000, out, &res);
    if (rc < 0) return rc;
    off = res.offset + (out->len - before);
  } while (!res.eof);
  return 0;
}

static int run_cmd(hg_agent *a, const hg_exec_req *x, run_res *r) {
  uint64_t cid;
  int pid;
  hg_buf_init(&r->out, 16u << 20);
  hg_buf_init(&r->err, 16u << 20);
  int rc = hg_agent_exec(a, x, &cid, &pid);
  if (rc == 0) rc = hg_agent_wait(a, cid, 20000, &r->st);
  if (rc == 0) rc = read_all(a, cid, HG_STREAM_STDOUT, &r->out);
  if (rc == 0) rc = read_all(a, cid, HG_STREAM_STDERR, &r->err);
  return rc;
}

static void run_free(run_res *r) {
  hg_buf_free(&r->out);
  hg_buf_free(&r->err);
}

static int run_sh(const char *script, run_res *r) {
  const char *argv[] = {"sh", "-c", script, NULL};
  hg_exec_req x = {.argv = argv};
  return run_cmd(T.a, &x, r);
}

static uint64_t start_sh(const char *script, uint32_t timeout_ms) {
  const char *argv[] = {"sh", "-c", script, NULL};
  hg_exec_req x = {.argv = argv, .timeout_ms = timeout_ms};
  uint64_t cid = 0;
  int pid;
  assert_int_equal(hg_agent_exec(T.a, &x, &cid, &pid), 0);
  assert_true(pid > 0);
  return cid;
}

/* ---- commands ---------------------------------------------------------- */

static void ping_answers(void **state) {
  assert_int_equal(hg_agent_ping(T.a, 2000), 0);
}

static void echo_prints_to_stdout(void **state) {
  run_res r;
  assert_int_equal(run_sh("echo hello", &r), 0);
  assert_true(r.st.exited);
  assert_int_equal(r.st.code, 0);
  assert_int_equal(r.out.len, 6);
  assert_memory_equal(r.out.data, "hello\n", 6);
  assert_int_equal(r.err.len, 0);
  run_free(&r);
}

static void stderr_is_its_own_stream(void **state) {
  run_res r;
  assert_int_equal(run_sh("echo out; echo err >&2", &r), 0);
  assert_string_equal(r.out.data, "out\n");
  assert_string_equal(r.err.data, "err\n");
  run_free(&r);
}

static void exit_codes_and_signals_are_reported(void **state) {
  run_res r;
  assert_int_equal(run_sh("exit 7", &r), 0);
  assert_true(r.st.exited);
  assert_int_equal(r.st.code, 7);
  assert_int_equal(r.st.signal, 0);
  assert_false(r.st.timed_out);
  run_free(&r);
  assert_int_equal(run_sh("kill -KILL $$", &r), 0);
  assert_true(r.st.exited);
  assert_int_equal(r.st.signal, SIGKILL);
  run_free(&r);
}

static void env_and_cwd_are_applied(void **state) {
  const char *argv[] = {"sh", "-c", "echo \"$HG_TEST_VAR\"; pwd", NULL};
  const char *env[] = {"HG_TEST_VAR=bar baz", NULL};
  hg_exec_req x = {.argv = argv, .env = env, .cwd = T.dir};
  run_res r;
  assert_int_equal(run_cmd(T.a, &x, &r), 0);
  char want[200];
  snprintf(want, sizeof want, "bar baz\n%s\n", T.dir);
  assert_string_equal(r.out.data, want);
  run_free(&r);
}

static void stdin_data_then_more_then_eof(void **state) {
  const char *argv[] = {"cat", NULL};
  hg_exec_req x = {.argv = argv, .stdin_data = "abc", .stdin_len = 3, .stdin_open = true};
  uint64_t cid;
  int pid;
  assert_int_equal(hg_agent_exec(T.a, &x, &cid, &pid), 0);
  assert_int_equal(hg_agent_stdin(T.a, cid, "def", 3, false), 0);
  assert_int_equal(hg_agent_stdin(T.a, cid, "ghi", 3, true), 0);
  assert_int_equal(hg_agent_stdin(T.a, cid, "x", 1, false), -EPIPE); /* closed */
  hg_cmd_status st;
  assert_int_equal(hg_agent_wait(T.a, cid, 10000, &st), 0);
  assert_true(st.exited);
  hg_buf out;
  hg_buf_init(&out, 1u << 20);
  assert_int_equal(read_all(T.a, cid, HG_STREAM_STDOUT, &out), 0);
  assert_string_equal(out.data, "abcdefghi");
  hg_buf_free(&out);
}

static void stdin_without_open_ends_at_its_data(void **state) {
  const char *argv[] = {"cat", NULL};
  hg_exec_req x = {.argv = argv, .stdin_data = "xyz", .stdin_len = 3};
  run_res r;
  assert_int_equal(run_cmd(T.a, &x, &r), 0);
  assert_string_equal(r.out.data, "xyz");
  run_free(&r);
}

static void long_output_drops_the_oldest_bytes(void **state) {
  /* 3 MiB of a 16-byte pattern: the ring keeps the last HG_AGENT_RING. */
  const uint64_t total = 3u << 20;
  uint64_t cid = start_sh("yes abcdefghijklmno | head -c 3145728", 0);
  hg_cmd_status st;
  assert_int_equal(hg_agent_wait(T.a, cid, 20000, &st), 0);
  assert_true(st.exited);
  hg_buf out;
  hg_buf_init(&out, 4u << 20);
  hg_read_res res;
  assert_int_equal(hg_agent_read(T.a, cid, HG_STREAM_STDOUT, 0, 0, 0, &out, &res), 0);
  assert_int_equal(res.total, total);
  assert_int_equal(res.offset, total - HG_AGENT_RING);
  assert_int_equal(res.dropped, total - HG_AGENT_RING);
  assert_int_equal(out.len, HG_AGENT_MAX_DATA);
  assert_true(res.eof == (HG_AGENT_MAX_DATA == HG_AGENT_RING));
  static const char pat[] = "abcdefghijklmno\n";
  for (size_t i = 0; i < out.len; i++)
    if (out.data[i] != pat[(res.offset + i) % 16]) fail_msg("byte %zu differs", i);
  /* Reading from inside the ring loses nothing; past the end is EINVAL. */
  hg_buf_reset(&out);
  assert_int_equal(
      hg_agent_read(T.a, cid, HG_STREAM_STDOUT, total - 10, 0, 0, &out, &res), 0);
  assert_int_equal(res.dropped, 0);
  assert_int_equal(out.len, 10);
  assert_true(res.eof);
  assert_int_equal(hg_agent_read(T.a, cid, HG_STREAM_STDOUT, total + 1, 0, 0, &out, &res),
                   -EINVAL);
  hg_buf_free(&out);
}

static void read_is_held_until_output_comes(void **state) {
  uint64_t cid = start_sh("sleep 0.3; echo late", 0);
  hg_buf out;
  hg_buf_init(&out, 1u << 20);
  hg_read_res res;
  int64_t t0 = hg_now_ms();
  assert_int_equal(hg_agent_read(T.a, cid, HG_STREAM_STDOUT, 0, 0, 60000, &out, &res), 0);
  int64_t dt = hg_now_ms() - t0;
  assert_true(dt >= 200);                  /* held, not answered empty at once */
  assert_string_equal(out.data, "late\n"); /* and answered by the output */
  hg_buf_free(&out);
}

static void held_read_times_out_empty(void **state) {
  uint64_t cid = start_sh("sleep 60", 0);
  hg_buf out;
  hg_buf_init(&out, 1u << 20);
  hg_read_res res;
  int64_t t0 = hg_now_ms();
  assert_int_equal(hg_agent_read(T.a, cid, HG_STREAM_STDOUT, 0, 0, 200, &out, &res), 0);
  int64_t dt = hg_now_ms() - t0;
  assert_true(dt >= 150);
  assert_int_equal(out.len, 0);
  assert_false(res.eof); /* returned at its timeout, not at the command's end */
  assert_int_equal(hg_agent_signal(T.a, cid, SIGKILL), 0);
  hg_buf_free(&out);
}

static void wait_returns_at_its_timeout(void **state) {
  uint64_t cid = start_sh("sleep 60", 0);
  hg_cmd_status st;
  int64_t t0 = hg_now_ms();
  assert_int_equal(hg_agent_wait(T.a, cid, 200, &st), 0);
  int64_t dt = hg_now_ms() - t0;
  assert_false(st.exited); /* returned at its timeout, not at the command's end */
  assert_true(dt >= 150);
  assert_int_equal(hg_agent_wait(T.a, cid, 0, &st), 0); /* status, never held */
  assert_false(st.exited);
  assert_int_equal(hg_agent_signal(T.a, cid, SIGKILL), 0);
}

static void timeout_kills_the_whole_group(void **state) {
  /* The background sleep holds stdout: eof comes only if it died too. */
  uint64_t cid = start_sh("sleep 30 & sleep 30", 300);
  hg_cmd_status st;
  assert_int_equal(hg_agent_wait(T.a, cid, 60000, &st), 0);
  assert_true(st.exited);
  assert_true(st.timed_out);
  assert_int_equal(st.signal, SIGKILL);
  hg_buf out;
  hg_buf_init(&out, 1u << 20);
  hg_read_res res;
  /* eof well before the background sleep's 30 s: it was killed too */
  assert_int_equal(hg_agent_read(T.a, cid, HG_STREAM_STDOUT, 0, 0, 20000, &out, &res), 0);
  assert_true(res.eof);
  hg_buf_free(&out);
}

static void endless_background_writer_neither_stalls_nor_outlives_the_timeout(
    void **state) {
  /* sh exits at once; yes keeps its stdout and writes without end. */
  uint64_t cid = start_sh("yes & sleep 0.1", 1500);
  hg_cmd_status st;
  assert_int_equal(hg_agent_wait(T.a, cid, 5000, &st), 0);
  assert_true(st.exited);
  assert_int_equal(st.code, 0);
  int64_t t0 = hg_now_ms();
  assert_int_equal(hg_agent_ping(T.a, 30000), 0); /* the agent still answers */
  /* The group is killed at the deadline: stdout reaches its end. */
  hg_buf out;
  hg_buf_init(&out, 2u << 20);
  hg_read_res res = {0};
  uint64_t off = 0;
  while (!res.eof && hg_now_ms() - t0 < 60000) {
    hg_buf_reset(&out);
    assert_int_equal(hg_agent_read(T.a, cid, HG_STREAM_STDOUT, off, 0, 1000, &out, &res),
                     0);
    off = res.offset + out.len;
  }
  assert_true(res.eof);
  assert_true(res.total > HG_AGENT_RING);
  assert_int_equal(hg_agent_wait(T.a, cid, 0, &st), 0);
  assert_false(st.timed_out); /* sh itself ended in time */
  hg_buf_free(&out);
}

static void signal_reaches_the_command(void **state) {
  uint64_t cid = start_sh("sleep 30", 0);
  assert_int_equal(hg_agent_signal(T.a, cid, SIGTERM), 0);
  hg_cmd_status st;
  assert_int_equal(hg_agent_wait(T.a, cid, 10000, &st), 0);
  assert_true(st.exited);
  assert_int_equal(st.signal, SIGTERM);
  assert_int_equal(hg_agent_signal(T.a, cid, SIGTERM), -ESRCH);
  assert_int_equal(hg_agent_signal(T.a, cid, 99), -EINVAL);
}

static void unknown_command_is_enoent(void **state) {
  hg_cmd_status st;
  hg_buf out;
  hg_buf_init(&out, 1024);
  hg_read_res res;
  const uint64_t cid = 0xdeadbeef;
  assert_int_equal(hg_agent_wait(T.a, cid, 100, &st), -ENOENT);
  assert_int_equal(hg_agent_read(T.a, cid, HG_STREAM_STDOUT, 0, 0, 0, &out, &res),
                   -ENOENT);
  assert_int_equal(hg_agent_stdin(T.a, cid, "x", 1, true), -ENOENT);
  assert_int_equal(hg_agent_signal(T.a, cid, SIGTERM), -ENOENT);
  assert_int_equal(hg_agent_read(T.a, cid, 3, 0, 0, 0, &out, &res), -EINVAL);
  hg_buf_free(&out);
}

static void exec_failures_come_back_as_errno(void **state) {
  uint64_t cid;
  int pid;
  const char *missing[] = {"/nonexistent/binary", NULL};
  hg_exec_req x = {.argv = missing};
  assert_int_equal(hg_agent_exec(T.a, &x, &cid, &pid), -ENOENT);
  const char *argv[] = {"true", NULL};
  hg_exec_req y = {.argv = argv, .cwd = "/nonexistent/dir"};
  assert_int_equal(hg_agent_exec(T.a, &y, &cid, &pid), -ENOENT);
  hg_exec_req z = {.argv = argv, .cwd = "relative"};
  assert_int_equal(hg_agent_exec(T.a, &z, &cid, &pid), -EINVAL);
  /* A bare name is looked up in the command's own PATH, not the agent's. */
  const char *const no_path[] = {"PATH=/nonexistent:/also-not", NULL};
  hg_exec_req p = {.argv = argv, .env = no_path};
  assert_int_equal(hg_agent_exec(T.a, &p, &cid, &pid), -ENOENT);
  const char *unknown[] = {"hangar-no-such-command", NULL};
  hg_exec_req u = {.argv = unknown};
  assert_int_equal(hg_agent_exec(T.a, &u, &cid, &pid), -ENOENT);
  const char *const bin_path[] = {"PATH=/nonexistent:/bin:/usr/bin", NULL};
  hg_exec_req b = {.argv = argv, .env = bin_path};
  assert_int_equal(hg_agent_exec(T.a, &b, &cid, &pid), 0);
  hg_cmd_status st;
  assert_int_equal(hg_agent_wait(T.a, cid, 10000, &st), 0);
  assert_true(st.exited && st.code == 0);
  const char *none[] = {NULL};
  hg_exec_req e = {.argv = none};
  assert_int_equal(hg_agent_exec(T.a, &e, &cid, &pid), -EINVAL);
  hg_exec_req big = {.argv = argv, .stdin_len = HG_AGENT_MAX_DATA + 1, .stdin_data = ""};
  assert_int_equal(hg_agent_exec(T.a, &big, &cid, &pid), -E2BIG);
}

static void commands_survive_a_reconnect(void **state) {
  uint64_t cid = start_sh("echo kept", 0);
  hg_cmd_status st;
  assert_int_equal(hg_agent_wait(T.a, cid, 10000, &st), 0);
  hg_agent_free(T.a);
  T.a = NULL;
  assert_int_equal(hg_agent_connect(T.sock, 5000, &T.a), 0);
  hg_buf out;
  hg_buf_init(&out, 1024);
  assert_int_equal(read_all(T.a, cid, HG_STREAM_STDOUT, &out), 0);
  assert_string_equal(out.data, "kept\n");
  hg_buf_free(&out);
}

/* Starts n copies of script, then waits for them all (the agent forks them
 * one after the other anyway; this saves the round trips). */
static uint64_t run_batch(const char *script, int n, uint64_t *first) {
  uint64_t cids[64];
  assert_true(n <= 64);
  for (int i = 0; i < n; i++) cids[i] = start_sh(script, 0);
  for (int i = 0; i < n; i++) {
    hg_cmd_status st;
    assert_int_equal(hg_agent_wait(T.a, cids[i], 20000, &st), 0);
    assert_true(st.exited);
  }
  if (first) *first = cids[0];
  return cids[n - 1];
}

static void oldest_exited_commands_are_evicted(void **state) {
  /* By output: 1 MiB each, past the agent's 64 MiB ring budget. */
  uint64_t first = 0, last = 0;
  for (int i = 0; i < 8; i++)
    last = run_batch("head -c 1048576 /dev/zero", 10, i ? NULL : &first);
  hg_cmd_status st;
  assert_int_equal(hg_agent_wait(T.a, first, 0, &st), -ENOENT);
  assert_int_equal(hg_agent_wait(T.a, last, 0, &st), 0);
  hg_buf out;
  hg_buf_init(&out, 2u << 20);
  hg_read_res res;
  assert_int_equal(hg_agent_read(T.a, last, HG_STREAM_STDOUT, 0, 0, 0, &out, &res), 0);
  assert_int_equal(out.len, 1u << 20);
  hg_buf_free(&out);
  /* By count: at most 256 commands are kept, the newest. */
  for (int i = 0; i < 7; i++) last = run_batch("true", 30, NULL);
  assert_int_equal(hg_agent_wait(T.a, last - 256, 0, &st), -ENOENT);
  assert_int_equal(hg_agent_wait(T.a, last - 200, 0, &st), 0);
}

/* ---- files ------------------------------------------------------------- */

static void file_of_10mib_round_trips_byte_exact(void **state) {
  size_t len = 10u << 20;
  char *data = malloc(len);
  assert_non_null(data);
  assert_int_equal(hg_random_bytes(data, len), 0);
  const char *p = tpath("big.bin");
  assert_int_equal(hg_agent_file_write(T.a, p, data, len, 0600), 0);
  hg_file_stat st;
  assert_int_equal(hg_agent_stat(T.a, p, &st), 0);
  assert_string_equal(st.type, "file");
  assert_int_equal(st.size, len);
  assert_int_equal(st.mode, 0600);
  hg_buf out;
  hg_buf_init(&out, 64u << 20);
  assert_int_equal(hg_agent_file_read(T.a, p, 64u << 20, &out), 0);
  assert_int_equal(out.len, len);
  assert_memory_equal(out.data, data, len);
  /* Too big for the caller's limit: -EFBIG, and out is left as it was. */
  hg_buf_reset(&out);
  assert_int_equal(hg_buf_append(&out, "keep", 4), 0);
  assert_int_equal(hg_agent_file_read(T.a, p, len - 1, &out), -EFBIG);
  assert_int_equal(out.len, 4);
  /* Rewriting shorter truncates; without a mode the file keeps its own. */
  assert_int_equal(hg_agent_file_write(T.a, p, "short", 5, 0), 0);
  assert_int_equal(hg_agent_stat(T.a, p, &st), 0);
  assert_int_equal(st.mode, 0600);
  assert_int_equal(hg_agent_file_write(T.a, p, "short", 5, 0666),
                   0); /* exact, umask or not */
  assert_int_equal(hg_agent_stat(T.a, p, &st), 0);
  assert_int_equal(st.mode, 0666);
  hg_buf_reset(&out);
  assert_int_equal(hg_agent_file_read(T.a, p, 1024, &out), 0);
  assert_string_equal(out.data, "short");
  hg_buf_free(&out);
  free(data);
}

static void file_edge_cases(void **state) {
  hg_buf out;
  hg_buf_init(&out, 1u << 20);
  assert_int_equal(hg_agent_file_write(T.a, tpath("empty"), NULL, 0, 0), 0);
  assert_int_equal(hg_agent_file_read(T.a, tpath("empty"), 10, &out), 0);
  assert_int_equal(out.len, 0);
  assert_int_equal(hg_agent_file_read(T.a, tpath("missing"), 10, &out), -ENOENT);
  assert_int_equal(hg_agent_file_read(T.a, T.dir, 10, &out), -EISDIR);
  assert_int_equal(hg_agent_file_read(T.a, "relative/path", 10, &out), -EINVAL);
  assert_int_equal(hg_agent_file_write(T.a, tpath("no/such/dir/f"), "x", 1, 0), -ENOENT);
  assert_int_equal(hg_agent_file_read(T.a, "/dev/zero", 10, &out),
                   -EINVAL); /* not regular */
  /* procfs files say size 0 and still have contents. */
  assert_int_equal(hg_agent_file_read(T.a, "/proc/self/status", 1u << 20, &out), 0);
  assert_true(out.len > 0);
  hg_buf_free(&out);
}

typedef struct names {
  int n;
  bool saw_a, saw_sub;
} names;

static void collect(void *ud, const char *name, const hg_file_stat *st) {
  names *nm = ud;
  nm->n++;
  if (strcmp(name, "a.txt") == 0 && strcmp(st->type, "file") == 0) nm->saw_a = true;
  if (strcmp(name, "sub") == 0 && strcmp(st->type, "dir") == 0) nm->saw_sub = true;
}

static void tree_operations(void **state) {
  char d[200], sub[240], deep[300], f[260], g[260];
  snprintf(d, sizeof d, "%s/tree", T.dir);
  snprintf(sub, sizeof sub, "%s/sub", d);
  snprintf(deep, sizeof deep, "%s/x/y/z", sub);
  snprintf(f, sizeof f, "%s/a.txt", d);
  snprintf(g, sizeof g, "%s/b.txt", d);
  assert_int_equal(hg_agent_mkdir(T.a, d, false), 0);
  assert_int_equal(hg_agent_mkdir(T.a, d, false), -EEXIST);
  assert_int_equal(hg_agent_mkdir(T.a, deep, false), -ENOENT);
  assert_int_equal(hg_agent_mkdir(T.a, deep, true), 0);
  assert_int_equal(hg_agent_mkdir(T.a, deep, true), 0); /* like mkdir -p */
  assert_int_equal(hg_agent_file_write(T.a, g, "hi", 2, 0), 0);
  assert_int_equal(hg_agent_rename(T.a, g, f), 0);
  hg_file_stat st;
  assert_int_equal(hg_agent_stat(T.a, g, &st), -ENOENT);
  assert_int_equal(hg_agent_stat(T.a, f, &st), 0);
  assert_int_equal(st.size, 2);
  assert_int_equal(hg_agent_stat(T.a, sub, &st), 0);
  assert_string_equal(st.type, "dir");
  names nm = {0};
  bool truncated = true;
  assert_int_equal(hg_agent_list_ex(T.a, d, collect, &nm, &truncated), 0);
  assert_int_equal(nm.n, 2);
  assert_true(nm.saw_a && nm.saw_sub);
  assert_false(truncated);
  assert_int_equal(hg_agent_list(T.a, f, collect, &nm), -ENOTDIR);
  assert_int_equal(hg_agent_remove(T.a, sub, false), -ENOTEMPTY);
  assert_int_equal(hg_agent_remove(T.a, d, true), 0);
  assert_int_equal(hg_agent_stat(T.a, d, &st), -ENOENT);
  assert_int_equal(hg_agent_remove(T.a, d, true), -ENOENT);
  assert_int_equal(hg_agent_remove(T.a, "/", true), -EBUSY);
  assert_int_equal(hg_agent_rename(T.a, "rel", f), -EINVAL);
}

static void list_of_a_huge_directory_is_truncated(void **state) {
  char d[200];
  snprintf(d, sizeof d, "%s/huge", T.dir);
  assert_int_equal(mkdir(d, 0755), 0);
  char name[200];
  memset(name, 'n', sizeof name);
  for (int i = 0; i < 12000; i++) { /* ~12000 entries of ~250 bytes > 2 MiB */
    char p[512];
    snprintf(p, sizeof p, "%s/%.180s%06d", d, name, i);
    int fd = open(p, O_WRONLY | O_CREAT, 0644);
    assert_true(fd >= 0);
    close(fd);
  }
  names nm = {0};
  bool truncated = false;
  assert_int_equal(hg_agent_list_ex(T.a, d, collect, &nm, &truncated), 0);
  assert_true(truncated);
  assert_true(nm.n > 1000 && nm.n < 12000);
  hg_rm_rf(d);
}

static char *state_file(void) {
  char path[160], *text = NULL;
  snprintf(path, sizeof path, "%s/state/restored", T.dir);
  return hg_read_file(path, 4096, &text, NULL) == 0 ? text : NULL;
}

static void freeze_is_refused_on_a_host_and_restored_is_checked(void **state) {
  assert_int_equal(hg_agent_freeze(T.a), -EPERM);
  assert_int_equal(hg_agent_thaw(T.a), -EPERM);
  /* Test mode: checked, but the host's clock and name stay untouched. */
  hg_agent_restore fork = {.hostname = "sb-fork-1",
                           .machine_id = "0123456789abcdef0123456789abcdef"};
  assert_int_equal(hg_agent_restored(T.a, &fork), 0);
  assert_int_equal(hg_agent_restored(T.a, &(hg_agent_restore){0}), 0);
  hg_agent_restore bad[] = {{.hostname = "bad name!"},
                            {.machine_id = "0123456789ABCDEF0123456789ABCDEF"},
                            {.node = "../n1"}};
  for (size_t i = 0; i < HG_ARRAY_SIZE(bad); i++)
    assert_int_equal(hg_agent_restored(T.a, &bad[i]), -EINVAL);
}

/* What the guest reads after a restore: the generation, epoch and node it
 * runs at, and how many restores its memory has seen. */
static void restored_tells_programs_in_the_guest_where_they_run(void **state) {
  char *before = state_file();
  unsigned long long n0 = 0;
  if (before) sscanf(before, "restores=%llu", &n0);
  free(before);
  hg_agent_restore moved = {.gen = 7, .epoch = 4, .node = "n2"};
  assert_int_equal(hg_agent_restored(T.a, &moved), 0);
  char *text = state_file(), want[64];
  assert_non_null(text);
  snprintf(want, sizeof want, "restores=%llu\n", n0 + 1);
  assert_non_null(strstr(text, want));
  assert_non_null(strstr(text, "generation=7\nepoch=4\nnode=n2\n"));
  free(text);
}

/* ---- concurrency ------------------------------------------------------- */

typedef struct worker {
  int idx;
  int failures;
} worker;

static void *worker_main(void *arg) {
  worker *w = arg;
  for (int i = 0; i < 25; i++) {
    char script[64], want[64];
    snprintf(script, sizeof script, "echo w%d-%d", w->idx, i);
    snprintf(want, sizeof want, "w%d-%d\n", w->idx, i);
    const char *argv[] = {"sh", "-c", script, NULL};
    hg_exec_req x = {.argv = argv};
    run_res r;
    if (run_cmd(T.a, &x, &r) != 0 || !r.st.exited ||
        strcmp(r.out.data ? r.out.data : "", want))
      w->failures++;
    run_free(&r);
    hg_file_stat st;
    if (hg_agent_ping(T.a, 5000) != 0 || hg_agent_stat(T.a, T.dir, &st) != 0)
      w->failures++;
  }
  return NULL;
}

typedef struct held_waiter {
  uint64_t cid;
  int rc;
  hg_cmd_status st;
  int64_t done_at;
} held_waiter;

static void *held_main(void *arg) {
  held_waiter *h = arg;
  h->rc = hg_agent_wait(T.a, h->cid, 20000, &h->st);
  h->done_at = hg_now_ms();
  return NULL;
}

static void calls_from_many_threads_interleave(void **state) {
  /* A held wait on a slow command must not hold up anyone else. */
  held_waiter h = {.cid = start_sh("sleep 2", 0)};
  pthread_t ht;
  assert_int_equal(pthread_create(&ht, NULL, held_main, &h), 0);
  enum { N = 8 };
  pthread_t th[N];
  worker w[N];
  int64_t t0 = hg_now_ms();
  for (int i = 0; i < N; i++) {
    w[i] = (worker){.idx = i};
    assert_int_equal(pthread_create(&th[i], NULL, worker_main, &w[i]), 0);
  }
  for (int i = 0; i < N; i++) pthread_join(th[i], NULL);
  pthread_join(ht, NULL);
  for (int i = 0; i < N; i++) assert_int_equal(w[i].failures, 0);
  assert_int_equal(h.rc, 0);
  assert_true(h.st.exited);
  assert_true(h.done_at >= t0 + 1500);
}

typedef struct reader_arg {
  uint64_t cid;
  int rc;
  hg_buf out;
} reader_arg;

static void *held_reader(void *arg) {
  reader_arg *r = arg;
  hg_read_res res;
  hg_buf_init(&r->out, 1024);
  r->rc = hg_agent_read(T.a, r->cid, HG_STREAM_STDOUT, 0, 0, 10000, &r->out, &res);
  return NULL;
}

static void many_held_reads_wake_together(void **state) {
  uint64_t cid = start_sh("sleep 0.5; echo go", 0);
  enum { N = 32 };
  pthread_t th[N];
  reader_arg ra[N];
  for (int i = 0; i < N; i++) {
    ra[i] = (reader_arg){.cid = cid};
    assert_int_equal(pthread_create(&th[i], NULL, held_reader, &ra[i]), 0);
  }
  for (int i = 0; i < N; i++) {
    pthread_join(th[i], NULL);
    assert_int_equal(ra[i].rc, 0);
    assert_string_equal(ra[i].out.data, "go\n");
    hg_buf_free(&ra[i].out);
  }
}

/* ---- raw requests to an agent on a socketpair (--fd mode) -------------- */

static int raw_send(int fd, uint64_t id, const char *op, const char *key,
                    const char *strval, bool with_id) {
  msgpack_sbuffer sb;
  msgpack_packer pk;
  msgpack_sbuffer_init(&sb);
  msgpack_packer_init(&pk, &sb, msgpack_sbuffer_write);
  msgpack_pack_map(&pk, (with_id ? 1 : 0) + (op ? 1 : 0) + (key ? 1 : 0));
  if (with_id) hg_mp_pack_kv_u64(&pk, "id", id);
  if (op) hg_mp_pack_kv_str(&pk, "op", op);
  if (key && strval)
    hg_mp_pack_kv_str(&pk, key, strval);
  else if (key)
    hg_mp_pack_kv_u64(&pk, key, 5); /* a number where a string goes */
  hg_buf f;
  hg_buf_init(&f, 1u << 20);
  hg_frame_encode(&sb, &f);
  ssize_t n = write(fd, f.data, f.len);
  hg_buf_free(&f);
  msgpack_sbuffer_destroy(&sb);
  return n < 0 ? -errno : 0;
}

/* Reads one reply; returns its err (positive) or -1. */
static int raw_reply(int fd, hg_frame_reader *rd, uint64_t *id) {
  for (;;) {
    msgpack_unpacked u;
    int rc = hg_frame_reader_next(rd, &u);
    if (rc == 1) {
      uint64_t err = 999;
      hg_mp_u64(&u.data, "id", id);
      hg_mp_u64(&u.data, "err", &err);
      msgpack_unpacked_destroy(&u);
      return (int)err;
    }
    if (rc < 0) return -1;
    static char buf[65536];
    ssize_t n = read(fd, buf, sizeof buf);
    if (n <= 0) return -1;
    hg_frame_reader_feed(rd, buf, (size_t)n);
  }
}

static void raw_requests_are_validated(void **state) {
  int sp[2];
  assert_int_equal(socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sp), 0);
  char fdarg[16];
  snprintf(fdarg, sizeof fdarg, "%d", sp[1]);
  pid_t pid = spawn_agent("--fd", fdarg, sp[1]);
  close(sp[1]);
  /* A wait, not a bound: 20 MiB of replies from the sanitized agent took
   * over 5 s once beside the VM tests on 2 cores. */
  struct timeval tv = {.tv_sec = 60};
  setsockopt(sp[0], SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof tv);
  hg_frame_reader rd;
  hg_frame_reader_init(&rd);
  uint64_t id = 0;
  raw_send(sp[0], 1, "nosuchop", NULL, NULL, true);
  assert_int_equal(raw_reply(sp[0], &rd, &id), ENOSYS);
  assert_int_equal(id, 1);
  raw_send(sp[0], 2, NULL, NULL, NULL, true); /* no op */
  assert_int_equal(raw_reply(sp[0], &rd, &id), EINVAL);
  raw_send(sp[0], 3, "stat", "path", NULL, true); /* path is a number */
  assert_int_equal(raw_reply(sp[0], &rd, &id), EINVAL);
  raw_send(sp[0], 4, "exec", "argv", "not-an-array", true);
  assert_int_equal(raw_reply(sp[0], &rd, &id), EINVAL);
  raw_send(sp[0], 0, "ping", NULL, NULL, false); /* no id: dropped */
  raw_send(sp[0], 5, "ping", NULL, NULL, true);
  assert_int_equal(raw_reply(sp[0], &rd, &id), 0);
  assert_int_equal(id, 5);
  /* A host that does not read: the agent stops taking requests once its
   * reply queue is full, and loses none of them. */
  char *mib = calloc(1, 1u << 20);
  int ffd = open(tpath("mib"), O_WRONLY | O_CREAT | O_TRUNC, 0644);
  assert_int_equal(write(ffd, mib, 1u << 20), 1 << 20);
  close(ffd);
  free(mib);
  for (uint64_t i = 100; i < 120; i++)
    raw_send(sp[0], i, "file_read", "path", tpath("mib"), true);
  usleep(300 * 1000);
  for (uint64_t i = 100; i < 120; i++) {
    assert_int_equal(raw_reply(sp[0], &rd, &id), 0);
    assert_int_equal(id, i);
  }
  /* Garbage: the agent drops the connection, and in --fd mode leaves. */
  static const unsigned char junk[] = {0xff, 0xff, 0xff, 0xff, 1, 2, 3};
  assert_int_equal(write(sp[0], junk, sizeof junk), (ssize_t)sizeof junk);
  char c;
  assert_int_equal(read(sp[0], &c, 1), 0);
  int status;
  assert_int_equal(waitpid(pid, &status, 0), pid);
  assert_true(WIFEXITED(status) && WEXITSTATUS(status) == 0);
  hg_frame_reader_free(&rd);
  close(sp[0]);
}

/* ---- fake guests ------------------------------------------------------- */

typedef struct fake {
  int fd;
  int mode;
  int requests; /* wait for this many requests before misbehaving */
} fake;

enum {
  FAKE_GARBAGE,
  FAKE_OVERSIZED,
  FAKE_NON_MAP,
  FAKE_NO_ID,
  FAKE_BAD_TYPES,
  FAKE_SILENT,
  FAKE_CLOSE,
  FAKE_HUGE_ERR,
  FAKE_STRAY_THEN_OK,
  FAKE_LYING_READ
};

static void fake_reply(int fd, uint64_t id, int mode) {
  msgpack_sbuffer sb;
  msgpack_packer pk;
  msgpack_sbuffer_init(&sb);
  msgpack_packer_init(&pk, &sb, msgpack_sbuffer_write);
  if (mode == FAKE_BAD_TYPES) {
    msgpack_pack_map(&pk, 3);
    hg_mp_pack_kv_u64(&pk, "id", id);
    hg_mp_pack_kv_u64(&pk, "err", 0);
    hg_mp_pack_kv_u64(&pk, "version", 5); /* a number, not a string */
  } else if (mode == FAKE_HUGE_ERR) {
    msgpack_pack_map(&pk, 2);
    hg_mp_pack_kv_u64(&pk, "id", id);
    hg_mp_pack_kv_u64(&pk, "err", 1u << 20);
  } else if (mode == FAKE_LYING_READ) { /* more data than asked, offsets that lie */
    msgpack_pack_map(&pk, 7);
    hg_mp_pack_kv_u64(&pk, "id", id);
    hg_mp_pack_kv_u64(&pk, "err", 0);
    hg_mp_pack_kv_bin(&pk, "data", "0123456789", 10);
    hg_mp_pack_kv_u64(&pk, "offset", 0);
    hg_mp_pack_kv_u64(&pk, "dropped", 0);
    hg_mp_pack_kv_u64(&pk, "total", 5);
    hg_mp_pack_kv_bool(&pk, "eof", false);
  } else {
    msgpack_pack_map(&pk, 3);
    hg_mp_pack_kv_u64(&pk, "id", id);
    hg_mp_pack_kv_u64(&pk, "err", 0);
    hg_mp_pack_kv_str(&pk, "version", "1");
  }
  hg_buf f;
  hg_buf_init(&f, 1u << 20);
  hg_frame_encode(&sb, &f);
  ssize_t w = write(fd, f.data, f.len);
  (void)w;
  hg_buf_free(&f);
  msgpack_sbuffer_destroy(&sb);
}

static void fake_misbehave(fake *fk, uint64_t last_id) {
  static const unsigned char garbage[] = {0x00, 0x00, 0x00, 0x03, 0xc1, 0xc1, 0xc1};
  static const unsigned char oversized[] = {0x7f, 0xff, 0xff, 0xff, 0x80};
  static const unsigned char non_map[] = {0x00, 0x00, 0x00, 0x02, 0x91, 0x01};
  static const unsigned char no_id[] = {0x00, 0x00, 0x00, 0x01, 0x80};
  ssize_t w = 0;
  switch (fk->mode) {
    case FAKE_GARBAGE:
      w = write(fk->fd, garbage, sizeof garbage);
      break;
    case FAKE_OVERSIZED:
      w = write(fk->fd, oversized, sizeof oversized);
      break;
    case FAKE_NON_MAP:
      w = write(fk->fd, non_map, sizeof non_map);
      break;
    case FAKE_NO_ID:
      w = write(fk->fd, no_id, sizeof no_id);
      break;
    case FAKE_CLOSE:
      shutdown(fk->fd, SHUT_RDWR);
      break;
    case FAKE_SILENT:
      break;
    case FAKE_STRAY_THEN_OK:
      fake_reply(fk->fd, last_id + 1000, fk->mode); /* nobody asked */
      fake_reply(fk->fd, last_id, fk->mode);
      break;
    default:
      fake_reply(fk->fd, last_id, fk->mode);
      break;
  }
  (void)w;
}

static void *fake_main(void *arg) {
  fake *fk = arg;
  hg_frame_reader rd;
  hg_frame_reader_init(&rd);
  int seen = 0;
  uint64_t last_id = 0;
  while (seen < fk->requests) {
    char buf[4096];
    ssize_t n = read(fk->fd, buf, sizeof buf);
    if (n <= 0) break;
    hg_frame_reader_feed(&rd, buf, (size_t)n);
    msgpack_unpacked u;
    while (hg_frame_reader_next(&rd, &u) == 1) {
      hg_mp_u64(&u.data, "id", &last_id);
      msgpack_unpacked_destroy(&u);
      seen++;
    }
  }
  fake_misbehave(fk, last_id);
  hg_frame_reader_free(&rd);
  return NULL;
}

typedef struct pinger {
  hg_agent *a;
  int timeout_ms;
  int rc;
} pinger;

static void *pinger_main(void *arg) {
  pinger *p = arg;
  p->rc = hg_agent_ping(p->a, p->timeout_ms);
  return NULL;
}

/* Runs nthreads pings against a fake guest in the given mode; returns how
 * long they took in all, and each one's result in rcs. */
static int64_t against_fake(int mode, int nthreads, int timeout_ms, int *rcs,
                            hg_agent **keep) {
  int sp[2];
  assert_int_equal(socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sp), 0);
  hg_agent *a;
  assert_int_equal(hg_agent_attach_fd(sp[0], &a), 0);
  fake fk = {.fd = sp[1], .mode = mode, .requests = nthreads};
  pthread_t ft;
  assert_int_equal(pthread_create(&ft, NULL, fake_main, &fk), 0);
  pthread_t th[16];
  pinger pg[16];
  int64_t t0 = hg_now_ms();
  for (int i = 0; i < nthreads; i++) {
    pg[i] = (pinger){.a = a, .timeout_ms = timeout_ms};
    assert_int_equal(pthread_create(&th[i], NULL, pinger_main, &pg[i]), 0);
  }
  for (int i = 0; i < nthreads; i++) {
    pthread_join(th[i], NULL);
    rcs[i] = pg[i].rc;
  }
  int64_t dt = hg_now_ms() - t0;
  pthread_join(ft, NULL);
  if (keep) {
    *keep = a;
  } else {
    hg_agent_free(a);
  }
  close(sp[1]);
  return dt;
}

static void broken_frames_fail_every_call_at_once(void **state) {
  const int modes[] = {FAKE_GARBAGE, FAKE_OVERSIZED, FAKE_NON_MAP, FAKE_NO_ID};
  for (size_t m = 0; m < sizeof modes / sizeof modes[0]; m++) {
    int rcs[4];
    hg_agent *a;
    against_fake(modes[m], 4, 120000, rcs, &a);
    /* -EPROTO at once, not -ETIMEDOUT at the deadline */
    for (int i = 0; i < 4; i++) assert_int_equal(rcs[i], -EPROTO);
    assert_int_equal(hg_agent_ping(a, 1000), -EPROTO); /* the channel stays dead */
    hg_agent_free(a);
  }
}

static void bad_reply_types_fail_that_call(void **state) {
  int rcs[1];
  against_fake(FAKE_BAD_TYPES, 1, 5000, rcs, NULL);
  assert_int_equal(rcs[0], -EPROTO);
  against_fake(FAKE_HUGE_ERR, 1, 5000, rcs, NULL);
  assert_int_equal(rcs[0], -EPROTO);
  against_fake(FAKE_STRAY_THEN_OK, 1, 5000, rcs, NULL);
  assert_int_equal(rcs[0], 0);
}

static void lying_read_reply_is_eproto_and_out_untouched(void **state) {
  int sp[2];
  assert_int_equal(socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sp), 0);
  hg_agent *a;
  assert_int_equal(hg_agent_attach_fd(sp[0], &a), 0);
  fake fk = {.fd = sp[1], .mode = FAKE_LYING_READ, .requests = 1};
  pthread_t ft;
  assert_int_equal(pthread_create(&ft, NULL, fake_main, &fk), 0);
  hg_buf out;
  hg_buf_init(&out, 1024);
  hg_read_res res;
  assert_int_equal(hg_agent_read(a, 1, HG_STREAM_STDOUT, 0, 100, 0, &out, &res), -EPROTO);
  assert_int_equal(out.len, 0);
  pthread_join(ft, NULL);
  hg_agent_free(a);
  close(sp[1]);
  hg_buf_free(&out);
}

static void silent_guest_hits_the_deadline(void **state) {
  int rcs[3];
  int64_t dt = against_fake(FAKE_SILENT, 3, 300, rcs, NULL);
  for (int i = 0; i < 3; i++) assert_int_equal(rcs[i], -ETIMEDOUT);
  assert_true(dt >= 250); /* not before the deadline */
}

static void closed_guest_is_econnreset(void **state) {
  int rcs[2];
  against_fake(FAKE_CLOSE, 2, 120000, rcs, NULL);
  /* -ECONNRESET at once, not -ETIMEDOUT at the deadline */
  for (int i = 0; i < 2; i++) assert_int_equal(rcs[i], -ECONNRESET);
}

static void *free_later(void *arg) {
  usleep(200 * 1000);
  hg_agent_free(arg);
  return NULL;
}

static void free_fails_calls_in_flight(void **state) {
  int sp[2];
  assert_int_equal(socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sp), 0);
  hg_agent *a;
  assert_int_equal(hg_agent_attach_fd(sp[0], &a), 0);
  pthread_t t;
  assert_int_equal(pthread_create(&t, NULL, free_later, a), 0);
  int rc = hg_agent_ping(a, 120000);
  assert_true(rc == -ECONNRESET); /* failed by the free, not -ETIMEDOUT */
  pthread_join(t, NULL);
  close(sp[1]);
}

static void *listen_later(void *arg) {
  const char *path = arg;
  usleep(300 * 1000);
  struct sockaddr_un sa = {.sun_family = AF_UNIX};
  strcpy(sa.sun_path, path);
  int fd = socket(AF_UNIX, SOCK_STREAM, 0);
  bind(fd, (struct sockaddr *)&sa, sizeof sa);
  listen(fd, 1);
  int c = accept(fd, NULL, NULL);
  usleep(100 * 1000);
  close(c);
  close(fd);
  return NULL;
}

static void connect_waits_for_the_socket_to_appear(void **state) {
  char *p = strdup(tpath("late.sock"));
  hg_agent *a = NULL;
  int64_t t0 = hg_now_ms();
  assert_int_equal(hg_agent_connect(p, 200, &a), -ETIMEDOUT);
  assert_true(hg_now_ms() - t0 >= 150);
  pthread_t t;
  assert_int_equal(pthread_create(&t, NULL, listen_later, p), 0);
  assert_int_equal(hg_agent_connect(p, 60000, &a), 0);
  hg_agent_free(a);
  pthread_join(t, NULL);
  unlink(p);
  free(p);
}

/* ---- reply decoders on their own --------------------------------------- */

typedef void (*packfn)(msgpack_packer *pk);

static int check(const char *op, uint32_t n, packfn fn) {
  msgpack_sbuffer sb;
  msgpack_packer pk;
  msgpack_sbuffer_init(&sb);
  msgpack_packer_init(&pk, &sb, msgpack_sbuffer_write);
  msgpack_pack_map(&pk, n + 2);
  hg_mp_pack_kv_u64(&pk, "id", 1);
  hg_mp_pack_kv_u64(&pk, "err", 0);
  fn(&pk);
  msgpack_unpacked u;
  msgpack_unpacked_init(&u);
  size_t off = 0;
  msgpack_unpack_next(&u, sb.data, sb.size, &off);
  int rc = hg_agent_check_reply(op, &u.data);
  msgpack_unpacked_destroy(&u);
  msgpack_sbuffer_destroy(&sb);
  return rc;
}

static void st_ok(msgpack_packer *pk) {
  hg_mp_pack_kv_str(pk, "type", "file");
  hg_mp_pack_kv_u64(pk, "size", 1);
  hg_mp_pack_kv_u64(pk, "mode", 0644);
  hg_mp_pack_kv_i64(pk, "mtime", -5);
}
static void st_bad_type(msgpack_packer *pk) {
  hg_mp_pack_kv_str(pk, "type", "socket!");
  hg_mp_pack_kv_u64(pk, "size", 1);
  hg_mp_pack_kv_u64(pk, "mode", 0644);
  hg_mp_pack_kv_i64(pk, "mtime", 0);
}
static void st_bad_mode(msgpack_packer *pk) {
  hg_mp_pack_kv_str(pk, "type", "dir");
  hg_mp_pack_kv_u64(pk, "size", 1);
  hg_mp_pack_kv_u64(pk, "mode", 0100644);
  hg_mp_pack_kv_i64(pk, "mtime", 0);
}
static void list_slash(msgpack_packer *pk) {
  hg_mp_pack_str(pk, "entries");
  msgpack_pack_array(pk, 1);
  msgpack_pack_map(pk, 5);
  hg_mp_pack_kv_str(pk, "name", "../etc");
  st_ok(pk);
}
static void list_ok(msgpack_packer *pk) {
  hg_mp_pack_str(pk, "entries");
  msgpack_pack_array(pk, 1);
  msgpack_pack_map(pk, 5);
  hg_mp_pack_kv_str(pk, "name", "ok");
  st_ok(pk);
}
static void wait_bad_sig(msgpack_packer *pk) {
  hg_mp_pack_kv_bool(pk, "exited", true);
  hg_mp_pack_kv_i64(pk, "code", 0);
  hg_mp_pack_kv_i64(pk, "signal", -3);
  hg_mp_pack_kv_bool(pk, "timed_out", false);
}
static void exec_bad_pid(msgpack_packer *pk) {
  hg_mp_pack_kv_u64(pk, "cid", 1);
  hg_mp_pack_kv_i64(pk, "pid", 1ll << 40);
}

static void reply_decoders_check_every_field(void **state) {
  assert_int_equal(check("stat", 4, st_ok), 0);
  assert_int_equal(check("stat", 4, st_bad_type), -EPROTO);
  assert_int_equal(check("stat", 4, st_bad_mode), -EPROTO);
  assert_int_equal(check("list", 1, list_ok), 0);
  assert_int_equal(check("list", 1, list_slash), -EPROTO);
  assert_int_equal(check("wait", 4, wait_bad_sig), -EPROTO);
  assert_int_equal(check("exec", 2, exec_bad_pid), -EPROTO);
  assert_int_equal(check("read", 4, st_ok), -EPROTO);
}

int main(void) {
  signal(SIGPIPE, SIG_IGN);
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(ping_answers),
      cmocka_unit_test(echo_prints_to_stdout),
      cmocka_unit_test(stderr_is_its_own_stream),
      cmocka_unit_test(exit_codes_and_signals_are_reported),
      cmocka_unit_test(env_and_cwd_are_applied),
      cmocka_unit_test(stdin_data_then_more_then_eof),
      cmocka_unit_test(stdin_without_open_ends_at_its_data),
      cmocka_unit_test(long_output_drops_the_oldest_bytes),
      cmocka_unit_test(read_is_held_until_output_comes),
      cmocka_unit_test(held_read_times_out_empty),
      cmocka_unit_test(wait_returns_at_its_timeout),
      cmocka_unit_test(timeout_kills_the_whole_group),
      cmocka_unit_test(endless_background_writer_neither_stalls_nor_outlives_the_timeout),
      cmocka_unit_test(signal_reaches_the_command),
      cmocka_unit_test(unknown_command_is_enoent),
      cmocka_unit_test(exec_failures_come_back_as_errno),
      cmocka_unit_test(commands_survive_a_reconnect),
      cmocka_unit_test(oldest_exited_commands_are_evicted),
      cmocka_unit_test(file_of_10mib_round_trips_byte_exact),
      cmocka_unit_test(file_edge_cases),
      cmocka_unit_test(tree_operations),
      cmocka_unit_test(list_of_a_huge_directory_is_truncated),
      cmocka_unit_test(freeze_is_refused_on_a_host_and_restored_is_checked),
      cmocka_unit_test(restored_tells_programs_in_the_guest_where_they_run),
      cmocka_unit_test(calls_from_many_threads_interleave),
      cmocka_unit_test(many_held_reads_wake_together),
      cmocka_unit_test(raw_requests_are_validated),
      cmocka_unit_test(broken_frames_fail_every_call_at_once),
      cmocka_unit_test(bad_reply_types_fail_that_call),
      cmocka_unit_test(lying_read_reply_is_eproto_and_out_untouched),
      cmocka_unit_test(silent_guest_hits_the_deadline),
      cmocka_unit_test(closed_guest_is_econnreset),
      cmocka_unit_test(free_fails_calls_in_flight),
      cmocka_unit_test(connect_waits_for_the_socket_to_appear),
      cmocka_unit_test(reply_decoders_check_every_field),
  };
  return cmocka_run_group_tests(tests, group_setup, group_teardown);
}
