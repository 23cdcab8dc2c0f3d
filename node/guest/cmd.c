/* Commands: spawn, stdin, signals, exit, and output kept in per-stream rings
 * that survive suspend/resume (they are guest memory) and can be re-read by
 * absolute offset. Held replies (wait, read with wait_ms) live here too. */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

#include "node/core/list.h"
#include "node/core/log.h"
#include "node/core/mp.h"
#include "node/core/util.h"
#include "node/guest/agent.h"

extern char **environ;

#define PULL_MAX (256u * 1024) /* bytes taken from one pipe per poll event */

struct hg_guest_held {
  uint64_t id;
  bool is_read;
  hg_guest_cmd *cmd;
  int stream; /* 0 stdout, 1 stderr */
  uint64_t offset;
  uint32_t max;
  int64_t deadline;
  hg_guest_held *next;
};

static hg_guest_cmd *cmd_find(hg_guest *g, const msgpack_object *req) {
  uint64_t cid;
  if (hg_mp_u64(req, "cid", &cid) < 0) return NULL;
  for (hg_guest_cmd *c = g->cmds; c; c = c->next)
    if (c->cid == cid) return c;
  return NULL;
}

/* After its leader exits, a command's group may live on in background
 * children; they hold its pipes, which is how we can tell. */
static bool group_lingers(const hg_guest_cmd *c) {
  return c->out[0].fd >= 0 || c->out[1].fd >= 0;
}

static void close_fd(int *fd) {
  if (*fd >= 0) close(*fd);
  *fd = -1;
}

/* ---- rings ------------------------------------------------------------- */

/* First offset still held; a stream whose ring could not be mapped holds
 * nothing (its bytes are counted, and dropped). */
static uint64_t ring_start(const hg_guest_stream *s) {
  if (!s->ring) return s->total;
  return s->total > HG_AGENT_RING ? s->total - HG_AGENT_RING : 0;
}

static size_t ring_resident(const hg_guest_stream *s) {
  return s->total < HG_AGENT_RING ? (size_t)s->total : HG_AGENT_RING;
}

/* Reads what the pipe holds, straight into the ring. The ring is mapped
 * lazily and untouched pages cost nothing, so a command that prints a line
 * uses one page, not a megabyte. Returns false once the stream is closed or
 * drained for now. */
static bool stream_pull(hg_guest *g, hg_guest_cmd *c, int si, size_t budget) {
  hg_guest_stream *s = &c->out[si];
  if (s->fd < 0) return false;
  if (!s->ring && s->total == 0) {
    void *m = mmap(NULL, HG_AGENT_RING, PROT_READ | PROT_WRITE,
                   MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    if (m != MAP_FAILED)
      s->ring = m;
    else
      hg_log_warn("agent.ring", "cid=%llu err=%d", (unsigned long long)c->cid, errno);
  }
  while (budget > 0) {
    char scratch[4096];
    size_t pos = (size_t)(s->total % HG_AGENT_RING);
    size_t room = s->ring ? HG_AGENT_RING - pos : sizeof scratch;
    if (room > budget) room = budget;
    ssize_t n = read(s->fd, s->ring ? s->ring + pos : scratch, room);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0 && errno == EAGAIN) return false;
    if (n <= 0) {
      close_fd(&s->fd);
      s->eof = true;
      return false;
    }
    size_t before = ring_resident(s);
    s->total += (uint64_t)n;
    if (s->ring) g->ring_bytes += ring_resident(s) - before;
    budget -= (size_t)n;
  }
  return true;
}

void hg_guest_cmd_on_output(hg_guest *g, hg_guest_cmd *c, int stream) {
  stream_pull(g, c, stream, PULL_MAX);
}

/* ---- eviction ---------------------------------------------------------- */

static void held_remove(hg_guest *g, hg_guest_held **pp) {
  hg_guest_held *h = *pp;
  *pp = h->next;
  free(h);
  g->nheld--;
}

static void cmd_evict(hg_guest *g, hg_guest_cmd *c) {
  for (hg_guest_held **pp = &g->held; *pp;) {
    if ((*pp)->cmd != c) {
      pp = &(*pp)->next;
      continue;
    }
    hg_guest_reply_err(g, (*pp)->id, -ENOENT);
    held_remove(g, pp);
  }
  HG_LIST_UNLINK2(g->cmds, g->cmds_tail, c);
  g->ncmds--;
  close_fd(&c->in_fd);
  for (int s = 0; s < 2; s++) {
    close_fd(&c->out[s].fd);
    if (c->out[s].ring) g->ring_bytes -= ring_resident(&c->out[s]);
  }
  c->evicted = true;
  c->next = g->grave; /* freed at the end of the turn: the poll set may name it */
  g->grave = c;
  hg_log_debug("agent.evict", "cid=%llu", (unsigned long long)c->cid);
}

static bool cmd_has_held(const hg_guest *g, const hg_guest_cmd *c) {
  for (const hg_guest_held *h = g->held; h; h = h->next)
    if (h->cmd == c) return true;
  return false;
}

/* Oldest exited commands go first, while there are too many or their
 * output takes too much memory. Running commands are never evicted, nor
 * ones with a reply still held (their exit may not be told yet). */
static void cmd_gc(hg_guest *g, unsigned room) {
  while (g->ncmds + room > HG_GUEST_MAX_CMDS || g->ring_bytes > HG_GUEST_RING_BUDGET) {
    hg_guest_cmd *c = g->cmds;
    while (c && (!c->exited || cmd_has_held(g, c))) c = c->next;
    if (!c) return;
    cmd_evict(g, c);
  }
}

void hg_guest_cmd_bury(hg_guest *g) {
  while (g->grave) {
    hg_guest_cmd *c = g->grave;
    g->grave = c->next;
    for (int s = 0; s < 2; s++)
      if (c->out[s].ring) munmap(c->out[s].ring, HG_AGENT_RING);
    hg_buf_free(&c->inq);
    free(c);
  }
}

void hg_guest_cmd_kill_all(hg_guest *g) {
  for (hg_guest_cmd *c = g->cmds; c; c = c->next)
    if (!c->exited || group_lingers(c)) kill(-c->pid, SIGKILL);
}

/* ---- exec -------------------------------------------------------------- */

/* A NULL-terminated copy of an array of strings, in one allocation.
 * Env entries must look like K=V. */
static int strv_copy(const msgpack_object *req, const char *key, bool env, char ***out) {
  const msgpack_object *v = hg_mp_get(req, key);
  *out = NULL;
  if (!v) return env ? 0 : -EINVAL;
  if (v->type != MSGPACK_OBJECT_ARRAY) return -EINVAL;
  uint32_t n = v->via.array.size;
  if ((!env && n == 0) || n > HG_GUEST_MAX_ARGS) return -EINVAL;
  size_t bytes = (n + 1) * sizeof(char *);
  for (uint32_t i = 0; i < n; i++) {
    const msgpack_object *e = &v->via.array.ptr[i];
    if (e->type != MSGPACK_OBJECT_STR) return -EINVAL;
    const char *p = e->via.str.ptr;
    uint32_t len = e->via.str.size;
    if (memchr(p, '\0', len)) return -EINVAL;
    if (env) {
      const char *eq = memchr(p, '=', len);
      if (!eq || eq == p) return -EINVAL;
    }
    bytes += len + 1;
  }
  char **vec = malloc(bytes);
  if (!vec) return -ENOMEM;
  char *dst = (char *)(vec + n + 1);
  for (uint32_t i = 0; i < n; i++) {
    const msgpack_object *e = &v->via.array.ptr[i];
    vec[i] = dst;
    memcpy(dst, e->via.str.ptr, e->via.str.size);
    dst[e->via.str.size] = '\0';
    dst += e->via.str.size + 1;
  }
  vec[n] = NULL;
  *out = vec;
  return 0;
}

static bool env_has_key(char *const *env, const char *kv) {
  size_t kl = strcspn(kv, "=");
  for (; env && *env; env++)
    if (strncmp(*env, kv, kl) == 0 && (*env)[kl] == '=') return true;
  return false;
}

/* The agent's environment (PATH, HOME, ...) under the request's entries. */
static char **env_merge(char **req_env) {
  size_t n = 0, m = 0;
  while (req_env && req_env[n]) n++;
  while (environ && environ[m]) m++;
  char **out = malloc((n + m + 1) * sizeof *out);
  if (!out) return NULL;
  size_t k = 0;
  for (size_t i = 0; i < n; i++) out[k++] = req_env[i];
  for (size_t i = 0; i < m; i++)
    if (!env_has_key(req_env, environ[i])) out[k++] = environ[i];
  out[k] = NULL;
  return out;
}

typedef struct spawn_req {
  char **argv, **envp;
  char cwd[HG_GUEST_PATH_MAX];
} spawn_req;

static void child_fail(int fd, int err) {
  ssize_t w = write(fd, &err, sizeof err);
  (void)w;
  _exit(127);
}

/* execvp's search with the command's own PATH (from envp; glibc's default
 * when it has none), since a vfork child must not set the agent's environ.
 * Returns the errno to report when nothing could be run. Stack only: this
 * runs in the vfork child. */
static int exec_search(char *const argv[], char *const envp[]) {
  const char *file = argv[0];
  if (!*file) return ENOENT;
  if (strchr(file, '/')) {
    execve(file, argv, envp);
    return errno;
  }
  const char *path = "/bin:/usr/bin";
  for (size_t i = 0; envp[i]; i++)
    if (strncmp(envp[i], "PATH=", 5) == 0) path = envp[i] + 5;
  size_t flen = strlen(file);
  int err = ENOENT;
  bool denied = false;
  for (const char *p = path;; p++) {
    const char *end = strchr(p, ':');
    size_t dlen = end ? (size_t)(end - p) : strlen(p);
    char full[HG_GUEST_PATH_MAX];
    if (dlen + 1 + flen < sizeof full) {
      memcpy(full, dlen ? p : ".", dlen ? dlen : 1);
      size_t k = dlen ? dlen : 1;
      full[k] = '/';
      memcpy(full + k + 1, file, flen + 1);
      execve(full, argv, envp);
      err = errno;
      if (err == EACCES) denied = true;
      else if (err != ENOENT && err != ENOTDIR && err != ELOOP && err != ENAMETOOLONG)
        return err; /* found but not runnable (ENOEXEC, ETXTBSY, ...): as execvp */
    }
    if (!end) break;
    p = end;
  }
  return denied ? EACCES : err;
}

/* In the child of vfork (so the agent's memory is not copied: under TCG a
 * fork of the agent cost milliseconds per command): a clean signal state,
 * its own session (so a timeout or a signal reaches the whole group), the
 * pipes as 0/1/2, then exec. The exec error, if any, goes back on a
 * close-on-exec pipe. Only system calls and stack: the memory is the
 * agent's until the exec. */
static void child_exec(const spawn_req *sr, int in, int out, int err, int st) {
  sigset_t none;
  sigemptyset(&none);
  sigprocmask(SIG_SETMASK, &none, NULL);
  signal(SIGPIPE, SIG_DFL);
  setsid();
  if (dup2(in, 0) < 0 || dup2(out, 1) < 0 || dup2(err, 2) < 0) child_fail(st, errno);
  if (chdir(sr->cwd) < 0) child_fail(st, errno);
  child_fail(st, exec_search(sr->argv, sr->envp));
}

/* vfork + child_exec, apart so that no local of spawn() lives across vfork. */
static __attribute__((noinline)) pid_t start_child(const spawn_req *sr, int p[4][2]) {
  pid_t pid = vfork();
  if (pid == 0) child_exec(sr, p[0][0], p[1][1], p[2][1], p[3][1]);
  return pid;
}

static int spawn(hg_guest_cmd *c, const spawn_req *sr) {
  int p[4][2]; /* stdin, stdout, stderr, exec status */
  int made = 0, rc = 0;
  for (; made < 4; made++)
    if (pipe2(p[made], O_CLOEXEC) < 0) break;
  if (made < 4) {
    rc = -errno;
    goto fail;
  }
  pid_t pid = start_child(sr, p);
  if (pid < 0) {
    rc = -errno;
    goto fail;
  }
  close(p[0][0]);
  close(p[1][1]);
  close(p[2][1]);
  close(p[3][1]);
  int err = 0;
  ssize_t n;
  do n = read(p[3][0], &err, sizeof err);
  while (n < 0 && errno == EINTR);
  close(p[3][0]);
  if (n == (ssize_t)sizeof err) {
    waitpid(pid, NULL, 0);
    close(p[0][1]);
    close(p[1][0]);
    close(p[2][0]);
    return -err;
  }
  c->pid = pid;
  c->in_fd = p[0][1];
  c->out[0].fd = p[1][0];
  c->out[1].fd = p[2][0];
  fcntl(c->in_fd, F_SETFL, O_NONBLOCK);
  fcntl(c->out[0].fd, F_SETFL, O_NONBLOCK);
  fcntl(c->out[1].fd, F_SETFL, O_NONBLOCK);
  return 0;
fail:
  for (int i = 0; i < made; i++) {
    close(p[i][0]);
    close(p[i][1]);
  }
  return rc;
}

static hg_guest_cmd *cmd_new(hg_guest *g) {
  hg_guest_cmd *c = calloc(1, sizeof *c);
  if (!c) return NULL;
  c->cid = g->next_cid++;
  c->in_fd = c->out[0].fd = c->out[1].fd = -1;
  hg_buf_init(&c->inq, HG_GUEST_STDIN_MAX);
  return c;
}

static void cmd_link(hg_guest *g, hg_guest_cmd *c) {
  HG_LIST_APPEND2(g->cmds, g->cmds_tail, c);
  g->ncmds++;
}

static int exec_args(const msgpack_object *req, spawn_req *sr, char ***env,
                     const char **in, size_t *inlen, bool *in_open, uint64_t *tmo) {
  int rc = strv_copy(req, "argv", false, &sr->argv);
  if (rc == 0) rc = strv_copy(req, "env", true, env);
  if (rc == 0 && hg_mp_get(req, "cwd"))
    rc = hg_guest_arg_path(req, "cwd", sr->cwd);
  else if (rc == 0)
    strcpy(sr->cwd, "/");
  if (rc == 0) rc = hg_guest_arg_bin(req, "stdin", HG_AGENT_MAX_DATA, in, inlen);
  if (rc == 0) rc = hg_guest_arg_bool(req, "stdin_open", false, in_open);
  if (rc == 0) rc = hg_guest_arg_u64(req, "timeout_ms", 0, UINT32_MAX, tmo);
  return rc;
}

int hg_guest_op_exec(hg_guest *g, uint64_t id, const msgpack_object *req) {
  spawn_req sr = {0};
  char **env = NULL;
  const char *in;
  size_t inlen;
  bool in_open;
  uint64_t tmo;
  hg_guest_cmd *c = NULL;
  int rc = exec_args(req, &sr, &env, &in, &inlen, &in_open, &tmo);
  if (rc < 0) goto out;
  cmd_gc(g, 1);
  rc = -EAGAIN; /* every slot holds a running command */
  if (g->ncmds >= HG_GUEST_MAX_CMDS) goto out;
  rc = -ENOMEM;
  if (!(sr.envp = env_merge(env)) || !(c = cmd_new(g))) goto out;
  rc = spawn(c, &sr);
  if (rc < 0) goto out;
  if (inlen) hg_buf_append(&c->inq, in, inlen); /* fits: MAX_DATA < STDIN_MAX */
  c->in_close = !in_open;
  if (tmo) c->deadline = hg_now_ms() + (int64_t)tmo;
  cmd_link(g, c);
  hg_guest_cmd_on_stdin(g, c);
  hg_log_debug("agent.exec", "cid=%llu pid=%d argv0=%.64s", (unsigned long long)c->cid,
               (int)c->pid, sr.argv[0]);
  hg_guest_reply r;
  hg_guest_reply_begin(&r, id, 2);
  hg_mp_pack_kv_u64(&r.pk, "cid", c->cid);
  hg_mp_pack_kv_i64(&r.pk, "pid", c->pid);
  hg_guest_reply_end(g, &r);
  c = NULL;
  rc = 0;
out:
  if (c) {
    hg_buf_free(&c->inq);
    free(c);
  }
  free(sr.argv);
  free(sr.envp);
  free(env);
  return rc;
}

/* ---- stdin and signals ------------------------------------------------- */

void hg_guest_cmd_on_stdin(hg_guest *g, hg_guest_cmd *c) {
  while (c->in_fd >= 0 && c->in_off < c->inq.len) {
    ssize_t n = write(c->in_fd, c->inq.data + c->in_off, c->inq.len - c->in_off);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0 && errno == EAGAIN) return;
    if (n < 0) { /* EPIPE: the command closed its stdin; the rest is moot */
      close_fd(&c->in_fd);
      break;
    }
    c->in_off += (size_t)n;
  }
  hg_buf_reset(&c->inq);
  c->in_off = 0;
  if (c->in_close) close_fd(&c->in_fd);
}

int hg_guest_op_stdin(hg_guest *g, uint64_t id, const msgpack_object *req) {
  const char *data;
  size_t len;
  bool eof;
  int rc = hg_guest_arg_bin(req, "data", HG_AGENT_MAX_DATA, &data, &len);
  if (rc == 0) rc = hg_guest_arg_bool(req, "eof", false, &eof);
  if (rc < 0) return rc;
  hg_guest_cmd *c = cmd_find(g, req);
  if (!c) return -ENOENT;
  if (c->in_fd < 0 || c->in_close) return -EPIPE;
  if (len > HG_GUEST_STDIN_MAX - (c->inq.len - c->in_off)) return -EAGAIN;
  if (c->in_off && c->in_off == c->inq.len) {
    hg_buf_reset(&c->inq);
    c->in_off = 0;
  }
  if (c->inq.len + len > HG_GUEST_STDIN_MAX) { /* make room at the front */
    hg_buf_consume(&c->inq, c->in_off);
    c->in_off = 0;
  }
  rc = hg_buf_append(&c->inq, data, len);
  if (rc < 0) return rc;
  c->in_close = eof;
  hg_guest_cmd_on_stdin(g, c);
  hg_guest_reply r;
  hg_guest_reply_begin(&r, id, 0);
  hg_guest_reply_end(g, &r);
  return 0;
}

int hg_guest_op_signal(hg_guest *g, uint64_t id, const msgpack_object *req) {
  uint64_t sig;
  int rc = hg_guest_arg_u64(req, "sig", SIGTERM, 64, &sig);
  if (rc < 0) return rc;
  hg_guest_cmd *c = cmd_find(g, req);
  if (!c) return -ENOENT;
  if (c->exited) return -ESRCH;
  if (kill(-c->pid, (int)sig) < 0) return -errno;
  hg_guest_reply r;
  hg_guest_reply_begin(&r, id, 0);
  hg_guest_reply_end(g, &r);
  return 0;
}

/* ---- exit -------------------------------------------------------------- */

static hg_guest_cmd *cmd_by_pid(hg_guest *g, pid_t pid) {
  for (hg_guest_cmd *c = g->cmds; c; c = c->next)
    if (c->pid == pid && !c->exited) return c;
  return NULL;
}

/* Reaps every child, ours or orphans handed to PID 1. A command's output is
 * drained from its pipes before its exit is told, so a wait followed by a
 * read sees all of it. */
void hg_guest_reap(hg_guest *g) {
  int st;
  pid_t pid;
  while ((pid = waitpid(-1, &st, WNOHANG)) > 0) {
    hg_guest_cmd *c = cmd_by_pid(g, pid);
    if (!c) continue;
    c->exited = true;
    if (WIFSIGNALED(st)) {
      c->sig = WTERMSIG(st);
      c->code = 128 + c->sig; /* as shells report it */
    } else {
      c->code = WEXITSTATUS(st);
    }
    /* One bounded pull, not "until empty": a background child that keeps
     * the pipe and writes without end must not hold PID 1 here. */
    for (int s = 0; s < 2; s++) stream_pull(g, c, s, HG_AGENT_RING);
    if (!group_lingers(c)) c->deadline = 0;
    hg_log_debug("agent.exit", "cid=%llu code=%d sig=%d timed_out=%d",
                 (unsigned long long)c->cid, c->code, c->sig, c->timed_out);
  }
  cmd_gc(g, 0);
}

/* ---- wait, status, read ------------------------------------------------ */

static void reply_status(hg_guest *g, uint64_t id, const hg_guest_cmd *c) {
  hg_guest_reply r;
  hg_guest_reply_begin(&r, id, 4);
  hg_mp_pack_kv_bool(&r.pk, "exited", c->exited);
  hg_mp_pack_kv_i64(&r.pk, "code", c->code);
  hg_mp_pack_kv_i64(&r.pk, "signal", c->sig);
  hg_mp_pack_kv_bool(&r.pk, "timed_out", c->timed_out);
  hg_guest_reply_end(g, &r);
}

static void reply_read(hg_guest *g, uint64_t id, const hg_guest_cmd *c, int si,
                       uint64_t offset, uint32_t max) {
  const hg_guest_stream *s = &c->out[si];
  uint64_t start = ring_start(s);
  uint64_t from = offset < start ? start : offset;
  size_t n = s->total - from < max ? (size_t)(s->total - from) : max;
  hg_guest_reply r;
  hg_guest_reply_begin(&r, id, 5);
  hg_mp_pack_str(&r.pk, "data");
  msgpack_pack_bin(&r.pk, n);
  size_t pos = (size_t)(from % HG_AGENT_RING);
  size_t first = n < HG_AGENT_RING - pos ? n : HG_AGENT_RING - pos;
  if (n) msgpack_pack_bin_body(&r.pk, s->ring + pos, first);
  if (n > first) msgpack_pack_bin_body(&r.pk, s->ring, n - first);
  hg_mp_pack_kv_u64(&r.pk, "offset", from);
  hg_mp_pack_kv_u64(&r.pk, "dropped", from - offset);
  hg_mp_pack_kv_u64(&r.pk, "total", s->total);
  hg_mp_pack_kv_bool(&r.pk, "eof", s->eof && from + n == s->total);
  hg_guest_reply_end(g, &r);
}

static int hold(hg_guest *g, const hg_guest_held *tmpl) {
  if (g->nheld >= HG_GUEST_MAX_HELD) return -EAGAIN;
  hg_guest_held *h = malloc(sizeof *h);
  if (!h) return -ENOMEM;
  *h = *tmpl;
  h->next = g->held;
  g->held = h;
  g->nheld++;
  return 1;
}

int hg_guest_op_wait(hg_guest *g, uint64_t id, const msgpack_object *req) {
  uint64_t tmo;
  int rc = hg_guest_arg_u64(req, "timeout_ms", 0, UINT32_MAX, &tmo);
  if (rc < 0) return rc;
  hg_guest_cmd *c = cmd_find(g, req);
  if (!c) return -ENOENT;
  if (c->exited || tmo == 0) {
    reply_status(g, id, c);
    return 0;
  }
  return hold(
      g, &(hg_guest_held){.id = id, .cmd = c, .deadline = hg_now_ms() + (int64_t)tmo});
}

int hg_guest_op_status(hg_guest *g, uint64_t id, const msgpack_object *req) {
  hg_guest_cmd *c = cmd_find(g, req);
  if (!c) return -ENOENT;
  reply_status(g, id, c);
  return 0;
}

static bool read_ready(const hg_guest_held *h) {
  const hg_guest_stream *s = &h->cmd->out[h->stream];
  return s->total > h->offset || s->eof;
}

int hg_guest_op_read(hg_guest *g, uint64_t id, const msgpack_object *req) {
  uint64_t stream, offset, max, wait_ms;
  int rc = hg_guest_arg_u64(req, "stream", 0, HG_STREAM_STDERR, &stream);
  if (rc == 0) rc = hg_guest_arg_u64(req, "offset", 0, UINT64_MAX, &offset);
  if (rc == 0) rc = hg_guest_arg_u64(req, "max", 0, UINT32_MAX, &max);
  if (rc == 0) rc = hg_guest_arg_u64(req, "wait_ms", 0, UINT32_MAX, &wait_ms);
  if (rc == 0 && stream < HG_STREAM_STDOUT) rc = -EINVAL;
  if (rc < 0) return rc;
  if (max == 0 || max > HG_AGENT_MAX_DATA) max = HG_AGENT_MAX_DATA;
  hg_guest_cmd *c = cmd_find(g, req);
  if (!c) return -ENOENT;
  hg_guest_held h = {.id = id,
                     .is_read = true,
                     .cmd = c,
                     .stream = (int)stream - 1,
                     .offset = offset,
                     .max = (uint32_t)max,
                     .deadline = hg_now_ms() + (int64_t)wait_ms};
  if (offset > c->out[h.stream].total) return -EINVAL;
  if (wait_ms == 0 || read_ready(&h)) {
    reply_read(g, id, c, h.stream, offset, h.max);
    return 0;
  }
  return hold(g, &h);
}

/* ---- timers ------------------------------------------------------------ */

static void fire_held(hg_guest *g, int64_t now) {
  for (hg_guest_held **pp = &g->held; *pp && !hg_guest_outq_full(g);) {
    hg_guest_held *h = *pp;
    bool due = now >= h->deadline;
    if (h->is_read && (due || read_ready(h))) {
      reply_read(g, h->id, h->cmd, h->stream, h->offset, h->max);
    } else if (!h->is_read && (due || h->cmd->exited)) {
      reply_status(g, h->id, h->cmd);
    } else {
      pp = &h->next;
      continue;
    }
    held_remove(g, pp);
  }
}

/* timeout_ms covers the whole group: what a command left running in the
 * background is killed at the same deadline (its exit status stays its own). */
void hg_guest_cmd_tick(hg_guest *g, int64_t now) {
  for (hg_guest_cmd *c = g->cmds; c; c = c->next) {
    if (!c->deadline || now < c->deadline) continue;
    c->deadline = 0;
    if (c->exited && !group_lingers(c)) continue;
    kill(-c->pid, SIGKILL);
    if (!c->exited) c->timed_out = true;
    hg_log_info("agent.timeout", "cid=%llu exited=%d", (unsigned long long)c->cid,
                c->exited);
  }
  fire_held(g, now);
}

int64_t hg_guest_cmd_next_deadline(const hg_guest *g) {
  int64_t due = 0;
  for (const hg_guest_cmd *c = g->cmds; c; c = c->next)
    if (c->deadline && (!due || c->deadline < due)) due = c->deadline;
  /* Held replies wait for room in the queue; POLLOUT wakes the loop then. */
  if (hg_guest_outq_full(g)) return due;
  for (const hg_guest_held *h = g->held; h; h = h->next)
    if (!due || h->deadline < due) due = h->deadline;
  return due;
}

void hg_guest_held_drop_all(hg_guest *g) {
  while (g->held) held_remove(g, &g->held);
}
