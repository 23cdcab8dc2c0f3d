/* agentcli: calls multiplexed by id over one stream. Callers frame their
 * request and write it under a write lock, then sleep on their own condvar;
 * one reader thread per channel decodes replies and hands each to the call
 * that waits for its id. A reply whose caller gave up is dropped. Anything
 * malformed from the guest breaks the channel for everyone, at once. */
#include "node/agentcli.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <time.h>
#include <unistd.h>

#include "node/agentproto.h"
#include "node/core/ident.h"
#include "node/core/list.h"
#include "node/core/log.h"
#include "node/core/mp.h"
#include "node/core/util.h"

#define CALL_MS 30000       /* deadline of a call that is not held */
#define HOLD_MARGIN_MS 5000 /* a held call's deadline: its wait plus this */
#define CONNECT_RETRY_MS 20
#define READ_CHUNK (64u * 1024)
#define PATH_MAX_LEN 4095
#define NAME_MAX_LEN 255
#define MAX_ERRNO 4095
#define SEED_LEN 64

typedef struct call {
  uint64_t id;
  pthread_cond_t cv;
  bool done;
  int rc;
  msgpack_unpacked reply;
  struct call *prev, *next;
} call;

struct hg_agent {
  int fd;
  pthread_mutex_t mu;  /* calls, err, next_id, inflight */
  pthread_mutex_t wmu; /* one frame on the wire at a time */
  pthread_cond_t idle; /* inflight fell to 0 */
  pthread_t reader;
  int err;        /* once set the channel is dead: every call gets it */
  char name[112]; /* socket path or fd, for the log */
  uint64_t next_id;
  unsigned inflight;
  call *calls;
};

typedef struct req {
  uint64_t id;
  msgpack_sbuffer sb;
  msgpack_packer pk;
} req;

/* ---- time -------------------------------------------------------------- */


static int64_t deadline_in(int64_t ms) {
  return hg_now_ms() + (ms < 0 ? 0 : ms);
}

/* ---- the channel breaks ------------------------------------------------ */

/* Fails every call in flight with err and makes err sticky. Called with mu. */
static void fail_all_locked(hg_agent *a, int err) {
  if (!a->err) a->err = err;
  for (call *c = a->calls; c; c = c->next) {
    c->done = true;
    c->rc = a->err;
    pthread_cond_signal(&c->cv);
  }
  a->calls = NULL;
  shutdown(a->fd, SHUT_RDWR); /* wakes the reader and any blocked writer */
}

static void fail_all(hg_agent *a, int err) {
  pthread_mutex_lock(&a->mu);
  fail_all_locked(a, err);
  pthread_mutex_unlock(&a->mu);
}

static void call_unlink(hg_agent *a, call *c) {
  if (c->prev || a->calls == c) HG_LIST_UNLINK(a->calls, c);
  c->prev = c->next = NULL;
}

/* ---- the reader -------------------------------------------------------- */

static int deliver(hg_agent *a, msgpack_unpacked *u) {
  uint64_t id;
  if (hg_mp_u64(&u->data, "id", &id) < 0) return -EPROTO;
  pthread_mutex_lock(&a->mu);
  call *c = a->calls;
  while (c && c->id != id) c = c->next;
  if (c) {
    call_unlink(a, c);
    c->reply = *u;
    c->done = true;
    c->rc = 0;
    pthread_cond_signal(&c->cv);
  }
  pthread_mutex_unlock(&a->mu);
  if (!c) msgpack_unpacked_destroy(u); /* its caller gave up already */
  return 0;
}

static int read_some(hg_agent *a, hg_frame_reader *rd) {
  char buf[READ_CHUNK];
  ssize_t n = read(a->fd, buf, sizeof buf);
  if (n < 0 && (errno == EINTR || errno == EAGAIN)) {
    struct pollfd p = {.fd = a->fd, .events = POLLIN};
    poll(&p, 1, -1);
    return 0;
  }
  if (n <= 0) return -ECONNRESET;
  if (hg_frame_reader_feed(rd, buf, (size_t)n) < 0) return -EPROTO;
  msgpack_unpacked u;
  int rc;
  while ((rc = hg_frame_reader_next(rd, &u)) == 1) {
    rc = deliver(a, &u);
    if (rc < 0) {
      msgpack_unpacked_destroy(&u);
      return rc;
    }
  }
  return rc;
}

static void *reader_main(void *arg) {
  hg_agent *a = arg;
  hg_frame_reader rd;
  hg_frame_reader_init(&rd);
  int rc;
  while ((rc = read_some(a, &rd)) == 0) {
  }
  pthread_mutex_lock(&a->mu);
  if (!a->err && rc != -ECONNRESET)
    hg_log_warn("agent.broken", "chan=%s err=%d", a->name,
                -rc); /* the guest misbehaved */
  fail_all_locked(a, rc);
  pthread_mutex_unlock(&a->mu);
  hg_frame_reader_free(&rd);
  return NULL;
}

/* ---- connect / free ---------------------------------------------------- */

static int agent_new(int fd, const char *name, hg_agent **out) {
  hg_agent *a = calloc(1, sizeof *a);
  if (!a) return -ENOMEM;
  a->fd = fd;
  snprintf(a->name, sizeof a->name, "%s", name);
  pthread_mutex_init(&a->mu, NULL);
  pthread_mutex_init(&a->wmu, NULL);
  hg_cond_init_mono(&a->idle);
  int rc = -pthread_create(&a->reader, NULL, reader_main, a);
  if (rc < 0) {
    pthread_mutex_destroy(&a->mu);
    pthread_mutex_destroy(&a->wmu);
    pthread_cond_destroy(&a->idle);
    free(a);
    return rc;
  }
  *out = a;
  return 0;
}

static int attach(int fd, const char *name, hg_agent **out) {
  int fl = fcntl(fd, F_GETFL);
  if (fl < 0 || fcntl(fd, F_SETFL, fl | O_NONBLOCK) < 0) return -errno;
  return agent_new(fd, name, out);
}

int hg_agent_attach_fd(int fd, hg_agent **out) {
  char name[32];
  snprintf(name, sizeof name, "fd:%d", fd);
  return attach(fd, name, out);
}

static int try_connect(const struct sockaddr_un *sa) {
  int fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
  if (fd < 0) return -errno;
  if (connect(fd, (const struct sockaddr *)sa, sizeof *sa) < 0) {
    int rc = -errno;
    close(fd);
    return rc;
  }
  return fd;
}

int hg_agent_connect(const char *sock_path, int timeout_ms, hg_agent **out) {
  struct sockaddr_un sa = {.sun_family = AF_UNIX};
  if (!sock_path || !out) return -EINVAL;
  if (strlen(sock_path) >= sizeof sa.sun_path) return -ENAMETOOLONG;
  strcpy(sa.sun_path, sock_path);
  int64_t deadline = deadline_in(timeout_ms);
  int fd;
  /* QEMU creates the socket as it starts: absent or refusing is "not yet". */
  while ((fd = try_connect(&sa)) == -ENOENT || fd == -ECONNREFUSED || fd == -EAGAIN) {
    if (hg_now_ms() >= deadline) return -ETIMEDOUT;
    struct timespec ts = hg_mono_ts(CONNECT_RETRY_MS);
    nanosleep(&ts, NULL);
  }
  if (fd < 0) return fd;
  int rc = attach(fd, sock_path, out);
  if (rc < 0) close(fd);
  return rc;
}

void hg_agent_free(hg_agent *a) {
  if (!a) return;
  shutdown(a->fd, SHUT_RDWR);
  pthread_join(a->reader, NULL); /* it fails every call in flight */
  pthread_mutex_lock(&a->mu);
  while (a->inflight > 0) pthread_cond_wait(&a->idle, &a->mu);
  pthread_mutex_unlock(&a->mu);
  close(a->fd);
  pthread_mutex_destroy(&a->mu);
  pthread_mutex_destroy(&a->wmu);
  pthread_cond_destroy(&a->idle);
  free(a);
}

/* ---- one call ---------------------------------------------------------- */

static void req_begin(hg_agent *a, req *r, const char *op, uint32_t nargs) {
  pthread_mutex_lock(&a->mu);
  r->id = ++a->next_id;
  pthread_mutex_unlock(&a->mu);
  msgpack_sbuffer_init(&r->sb);
  msgpack_packer_init(&r->pk, &r->sb, msgpack_sbuffer_write);
  msgpack_pack_map(&r->pk, 2 + nargs);
  hg_mp_pack_kv_u64(&r->pk, "id", r->id);
  hg_mp_pack_kv_str(&r->pk, "op", op);
}

/* Writes a whole frame before the deadline. A frame cut short leaves the
 * stream out of step, so that breaks the channel; one never started does not. */
static int send_frame(hg_agent *a, const hg_buf *f, int64_t deadline) {
  struct timespec ts = hg_mono_ts(deadline);
  if (pthread_mutex_clocklock(&a->wmu, CLOCK_MONOTONIC, &ts) != 0) return -ETIMEDOUT;
  size_t off = 0;
  int rc = 0;
  while (off < f->len && rc == 0) {
    ssize_t n = send(a->fd, f->data + off, f->len - off, MSG_NOSIGNAL);
    if (n > 0) {
      off += (size_t)n;
    } else if (n < 0 && errno == EAGAIN) {
      int64_t left = deadline - hg_now_ms();
      struct pollfd p = {.fd = a->fd, .events = POLLOUT};
      if (left <= 0 || poll(&p, 1, (int)(left > INT_MAX ? INT_MAX : left)) == 0)
        rc = -ETIMEDOUT;
    } else if (n < 0 && errno != EINTR) {
      rc = -ECONNRESET;
    }
  }
  pthread_mutex_unlock(&a->wmu);
  if (rc < 0 && off > 0) fail_all(a, -ECONNRESET);
  return rc;
}

/* Waits for the reply to c (registered) until the deadline. Called with mu. */
static int await_locked(hg_agent *a, call *c, int64_t deadline) {
  struct timespec ts = hg_mono_ts(deadline);
  while (!c->done)
    if (pthread_cond_timedwait(&c->cv, &a->mu, &ts) == ETIMEDOUT && !c->done) {
      call_unlink(a, c);
      return -ETIMEDOUT;
    }
  return c->rc;
}

/* The reply's own verdict: 0 or the guest's errno, negated. */
static int reply_err(const msgpack_object *m) {
  uint64_t e;
  if (hg_mp_u64(m, "err", &e) < 0 || e > MAX_ERRNO) return -EPROTO;
  return -(int)e;
}

/* Sends r (consumed) and waits up to timeout_ms for its reply. On 0, *out
 * holds a reply whose err was 0 (caller destroys it). */
static int rpc(hg_agent *a, req *r, int64_t timeout_ms, msgpack_unpacked *out) {
  int64_t deadline = deadline_in(timeout_ms);
  hg_buf f;
  hg_buf_init(&f, HG_AGENT_MAX_FRAME + 4);
  int rc = hg_frame_encode(&r->sb, &f);
  msgpack_sbuffer_destroy(&r->sb);
  if (rc < 0) {
    hg_buf_free(&f);
    return rc == -ENOBUFS ? -EMSGSIZE : rc;
  }
  call c = {.id = r->id};
  hg_cond_init_mono(&c.cv);

  pthread_mutex_lock(&a->mu);
  rc = a->err;
  if (rc == 0) { /* registered before sending, so no reply can beat it */
    call *cp = &c;
    HG_LIST_PUSH(a->calls, cp);
    a->inflight++;
  }
  pthread_mutex_unlock(&a->mu);
  if (rc < 0) goto out;

  int sent = send_frame(a, &f, deadline);
  pthread_mutex_lock(&a->mu);
  if (sent < 0 && !c.done) call_unlink(a, &c);
  rc = sent < 0 && !c.done ? sent : await_locked(a, &c, deadline);
  if (--a->inflight == 0) pthread_cond_broadcast(&a->idle);
  pthread_mutex_unlock(&a->mu);
  if (rc == 0 && (rc = reply_err(&c.reply.data)) < 0) msgpack_unpacked_destroy(&c.reply);
  if (rc == 0) *out = c.reply;
out:
  pthread_cond_destroy(&c.cv);
  hg_buf_free(&f);
  return rc;
}

/* An rpc whose results are only its err. */
static int rpc_simple(hg_agent *a, req *r, int64_t timeout_ms) {
  msgpack_unpacked u;
  int rc = rpc(a, r, timeout_ms, &u);
  if (rc == 0) msgpack_unpacked_destroy(&u);
  return rc;
}

/* ---- reply decoders: every field type- and range-checked --------------- */

static int decode_ping(const msgpack_object *m) {
  const char *v;
  size_t n;
  return hg_mp_str(m, "version", &v, &n) < 0 || n == 0 || n > 32 ? -EPROTO : 0;
}

static int decode_exec(const msgpack_object *m, uint64_t *cid, int *pid) {
  uint64_t c;
  int64_t p;
  if (hg_mp_u64(m, "cid", &c) < 0 || hg_mp_i64(m, "pid", &p) < 0 || p <= 0 || p > INT_MAX)
    return -EPROTO;
  if (cid) *cid = c;
  if (pid) *pid = (int)p;
  return 0;
}

static int decode_status(const msgpack_object *m, hg_cmd_status *st) {
  hg_cmd_status s;
  int64_t code, sig;
  if (hg_mp_bool(m, "exited", &s.exited) < 0 || hg_mp_i64(m, "code", &code) < 0 ||
      hg_mp_i64(m, "signal", &sig) < 0 || hg_mp_bool(m, "timed_out", &s.timed_out) < 0 ||
      code < INT_MIN || code > INT_MAX || sig < 0 || sig > 128)
    return -EPROTO;
  s.code = (int)code;
  s.signal = (int)sig;
  if (st) *st = s;
  return 0;
}

static int decode_read(const msgpack_object *m, uint64_t want_off, uint32_t max,
                       hg_buf *out, hg_read_res *res) {
  hg_read_res r;
  const char *data;
  size_t n;
  if (hg_mp_bin(m, "data", &data, &n) < 0 || hg_mp_u64(m, "offset", &r.offset) < 0 ||
      hg_mp_u64(m, "dropped", &r.dropped) < 0 || hg_mp_u64(m, "total", &r.total) < 0 ||
      hg_mp_bool(m, "eof", &r.eof) < 0)
    return -EPROTO;
  /* Data never starts before what was asked, nor ends past what was written. */
  if (n > max || r.offset < want_off || r.dropped != r.offset - want_off ||
      r.total < r.offset || r.total - r.offset < n)
    return -EPROTO;
  if (out) {
    int rc = hg_buf_append(out, data, n);
    if (rc < 0) return rc;
  }
  if (res) *res = r;
  return 0;
}

static int decode_chunk(const msgpack_object *m, size_t want, const char **data,
                        size_t *n, uint64_t *size) {
  if (hg_mp_bin(m, "data", data, n) < 0 || hg_mp_u64(m, "size", size) < 0 || *n > want)
    return -EPROTO;
  return 0;
}

static int decode_stat(const msgpack_object *m, hg_file_stat *st) {
  static const char *const types[] = {"file", "dir", "symlink", "other"};
  hg_file_stat s;
  const char *t;
  size_t tl;
  uint64_t mode;
  if (hg_mp_str(m, "type", &t, &tl) < 0 || hg_mp_u64(m, "size", &s.size) < 0 ||
      hg_mp_u64(m, "mode", &mode) < 0 || hg_mp_i64(m, "mtime", &s.mtime) < 0 ||
      mode > 07777)
    return -EPROTO;
  size_t i = 0;
  while (i < HG_ARRAY_SIZE(types) && (strlen(types[i]) != tl || memcmp(types[i], t, tl)))
    i++;
  if (i == HG_ARRAY_SIZE(types)) return -EPROTO;
  memset(s.type, 0, sizeof s.type);
  memcpy(s.type, t, tl);
  s.mode = (uint32_t)mode;
  if (st) *st = s;
  return 0;
}

static int decode_entry(const msgpack_object *e, char name[NAME_MAX_LEN + 1],
                        hg_file_stat *st) {
  const char *p;
  size_t n;
  if (e->type != MSGPACK_OBJECT_MAP || hg_mp_str(e, "name", &p, &n) < 0 || n == 0 ||
      n > NAME_MAX_LEN || memchr(p, '/', n) || memchr(p, '\0', n) ||
      (n == 1 && p[0] == '.') || (n == 2 && p[0] == '.' && p[1] == '.'))
    return -EPROTO;
  memcpy(name, p, n);
  name[n] = '\0';
  return decode_stat(e, st);
}

typedef void (*list_fn)(void *ud, const char *name, const hg_file_stat *st);

/* All entries are checked before fn sees the first one. */
static int decode_list(const msgpack_object *m, list_fn fn, void *ud, bool *truncated) {
  const msgpack_object *v = hg_mp_get(m, "entries");
  bool tr = false;
  if (!v || v->type != MSGPACK_OBJECT_ARRAY) return -EPROTO;
  int rc = hg_mp_bool(m, "truncated", &tr);
  if (rc < 0 && rc != -ENOENT) return -EPROTO;
  char name[NAME_MAX_LEN + 1];
  hg_file_stat st;
  for (int pass = 0; pass < 2; pass++) {
    for (uint32_t i = 0; i < v->via.array.size; i++) {
      if (decode_entry(&v->via.array.ptr[i], name, &st) < 0) return -EPROTO;
      if (pass == 1 && fn) fn(ud, name, &st);
    }
  }
  if (truncated) *truncated = tr;
  return 0;
}

int hg_agent_check_reply(const char *op, const struct msgpack_object *reply) {
  const msgpack_object *m = reply;
  if (!m || m->type != MSGPACK_OBJECT_MAP) return -EPROTO;
  uint64_t id;
  if (hg_mp_u64(m, "id", &id) < 0) return -EPROTO;
  int rc = reply_err(m);
  if (rc < 0) return rc;
  const char *data;
  size_t n;
  uint64_t size;
  if (strcmp(op, "ping") == 0) return decode_ping(m);
  if (strcmp(op, "exec") == 0) return decode_exec(m, NULL, NULL);
  if (strcmp(op, "wait") == 0 || strcmp(op, "status") == 0) return decode_status(m, NULL);
  if (strcmp(op, "read") == 0) return decode_read(m, 0, HG_AGENT_MAX_DATA, NULL, NULL);
  if (strcmp(op, "file_read") == 0)
    return decode_chunk(m, HG_AGENT_MAX_DATA, &data, &n, &size);
  if (strcmp(op, "stat") == 0) return decode_stat(m, NULL);
  if (strcmp(op, "list") == 0) return decode_list(m, NULL, NULL, NULL);
  return 0;
}

/* ---- the calls --------------------------------------------------------- */

static int check_path(const char *path) {
  if (!path || path[0] != '/') return -EINVAL;
  return strlen(path) > PATH_MAX_LEN ? -ENAMETOOLONG : 0;
}

int hg_agent_ping(hg_agent *a, int timeout_ms) {
  req r;
  msgpack_unpacked u;
  req_begin(a, &r, "ping", 0);
  int rc = rpc(a, &r, timeout_ms, &u);
  if (rc < 0) return rc;
  rc = decode_ping(&u.data);
  msgpack_unpacked_destroy(&u);
  return rc;
}

static void pack_strv(msgpack_packer *pk, const char *key, const char *const *v,
                      size_t n) {
  hg_mp_pack_str(pk, key);
  msgpack_pack_array(pk, n);
  for (size_t i = 0; i < n; i++) hg_mp_pack_str(pk, v[i]);
}

static size_t strv_len(const char *const *v) {
  size_t n = 0;
  while (v && v[n]) n++;
  return n;
}

int hg_agent_exec(hg_agent *a, const hg_exec_req *x, uint64_t *cid, int *pid) {
  if (!x || !x->argv || !x->argv[0]) return -EINVAL;
  if (x->stdin_len > HG_AGENT_MAX_DATA) return -E2BIG;
  if (x->cwd && check_path(x->cwd) < 0) return check_path(x->cwd);
  size_t argc = strv_len(x->argv), envc = strv_len(x->env);
  req r;
  msgpack_unpacked u;
  req_begin(a, &r, "exec", 6);
  pack_strv(&r.pk, "argv", x->argv, argc);
  pack_strv(&r.pk, "env", x->env, envc);
  hg_mp_pack_kv_str(&r.pk, "cwd", x->cwd ? x->cwd : "/");
  hg_mp_pack_kv_bin(&r.pk, "stdin", x->stdin_data, x->stdin_len);
  hg_mp_pack_kv_bool(&r.pk, "stdin_open", x->stdin_open);
  hg_mp_pack_kv_u64(&r.pk, "timeout_ms", x->timeout_ms);
  int rc = rpc(a, &r, CALL_MS, &u);
  if (rc < 0) return rc;
  rc = decode_exec(&u.data, cid, pid);
  msgpack_unpacked_destroy(&u);
  return rc;
}

int hg_agent_stdin(hg_agent *a, uint64_t cid, const void *data, size_t len, bool eof) {
  if (len > HG_AGENT_MAX_DATA) return -E2BIG;
  req r;
  req_begin(a, &r, "stdin", 3);
  hg_mp_pack_kv_u64(&r.pk, "cid", cid);
  hg_mp_pack_kv_bin(&r.pk, "data", data, len);
  hg_mp_pack_kv_bool(&r.pk, "eof", eof);
  return rpc_simple(a, &r, CALL_MS);
}

int hg_agent_signal(hg_agent *a, uint64_t cid, int sig) {
  if (sig < 0 || sig > 64) return -EINVAL;
  req r;
  req_begin(a, &r, "signal", 2);
  hg_mp_pack_kv_u64(&r.pk, "cid", cid);
  hg_mp_pack_kv_u64(&r.pk, "sig", (uint64_t)sig);
  return rpc_simple(a, &r, CALL_MS);
}

int hg_agent_wait(hg_agent *a, uint64_t cid, uint32_t timeout_ms, hg_cmd_status *st) {
  req r;
  msgpack_unpacked u;
  req_begin(a, &r, "wait", 2);
  hg_mp_pack_kv_u64(&r.pk, "cid", cid);
  hg_mp_pack_kv_u64(&r.pk, "timeout_ms", timeout_ms);
  int rc = rpc(a, &r, (int64_t)timeout_ms + HOLD_MARGIN_MS, &u);
  if (rc < 0) return rc;
  rc = decode_status(&u.data, st);
  msgpack_unpacked_destroy(&u);
  return rc;
}

int hg_agent_read(hg_agent *a, uint64_t cid, int stream, uint64_t offset, uint32_t max,
                  uint32_t wait_ms, hg_buf *out, hg_read_res *res) {
  if (stream != HG_STREAM_STDOUT && stream != HG_STREAM_STDERR) return -EINVAL;
  if (max == 0 || max > HG_AGENT_MAX_DATA) max = HG_AGENT_MAX_DATA;
  req r;
  msgpack_unpacked u;
  req_begin(a, &r, "read", 5);
  hg_mp_pack_kv_u64(&r.pk, "cid", cid);
  hg_mp_pack_kv_u64(&r.pk, "stream", (uint64_t)stream);
  hg_mp_pack_kv_u64(&r.pk, "offset", offset);
  hg_mp_pack_kv_u64(&r.pk, "max", max);
  hg_mp_pack_kv_u64(&r.pk, "wait_ms", wait_ms);
  int rc = rpc(a, &r, (int64_t)wait_ms + HOLD_MARGIN_MS, &u);
  if (rc < 0) return rc;
  rc = decode_read(&u.data, offset, max, out, res);
  msgpack_unpacked_destroy(&u);
  return rc;
}

/* ---- files ------------------------------------------------------------- */

static int file_chunk(hg_agent *a, const char *path, uint64_t off, size_t max_total,
                      hg_buf *out, size_t *got) {
  req r;
  msgpack_unpacked u;
  req_begin(a, &r, "file_read", 3);
  hg_mp_pack_kv_str(&r.pk, "path", path);
  hg_mp_pack_kv_u64(&r.pk, "offset", off);
  hg_mp_pack_kv_u64(&r.pk, "len", HG_AGENT_MAX_DATA);
  int rc = rpc(a, &r, CALL_MS, &u);
  if (rc < 0) return rc;
  const char *data;
  size_t n;
  uint64_t size;
  rc = decode_chunk(&u.data, HG_AGENT_MAX_DATA, &data, &n, &size);
  /* size is only a hint (procfs says 0), but one above max fails early. */
  if (rc == 0 && (size > max_total || n > max_total - off)) rc = -EFBIG;
  if (rc == 0) rc = hg_buf_append(out, data, n);
  if (rc == 0) *got = n;
  msgpack_unpacked_destroy(&u);
  return rc;
}

int hg_agent_file_read(hg_agent *a, const char *path, size_t max, hg_buf *out) {
  int rc = check_path(path);
  if (rc < 0) return rc;
  size_t before = out->len;
  uint64_t off = 0;
  size_t got = HG_AGENT_MAX_DATA;
  while (rc == 0 && got == HG_AGENT_MAX_DATA) { /* a short chunk is the end */
    rc = file_chunk(a, path, off, max, out, &got);
    off += rc == 0 ? got : 0;
  }
  if (rc < 0 && out->data) { /* out is written only on success */
    out->len = before;
    out->data[before] = '\0';
  }
  return rc;
}

int hg_agent_file_write_at(hg_agent *a, const char *path, const void *data, size_t len,
                           uint64_t at, uint32_t mode) {
  int rc = check_path(path);
  if (rc < 0) return rc;
  if (mode > 07777 || at > UINT64_MAX - len) return -EINVAL;
  const char *p = data;
  size_t off = 0;
  do { /* at least once: an empty file is created or truncated too */
    size_t n = len - off < HG_AGENT_MAX_DATA ? len - off : HG_AGENT_MAX_DATA;
    bool first = at + off == 0, with_mode = first && mode != 0;
    req r;
    req_begin(a, &r, "file_write", 4 + with_mode);
    hg_mp_pack_kv_str(&r.pk, "path", path);
    hg_mp_pack_kv_bin(&r.pk, "data", p ? p + off : NULL, n);
    hg_mp_pack_kv_u64(&r.pk, "offset", at + off);
    hg_mp_pack_kv_bool(&r.pk, "trunc", first);
    if (with_mode) hg_mp_pack_kv_u64(&r.pk, "mode", mode);
    rc = rpc_simple(a, &r, CALL_MS);
    off += n;
  } while (rc == 0 && off < len);
  return rc;
}

int hg_agent_file_write(hg_agent *a, const char *path, const void *data, size_t len,
                        uint32_t mode) {
  return hg_agent_file_write_at(a, path, data, len, 0, mode);
}

static int path_call(hg_agent *a, const char *op, const char *path, msgpack_unpacked *u) {
  int rc = check_path(path);
  if (rc < 0) return rc;
  req r;
  req_begin(a, &r, op, 1);
  hg_mp_pack_kv_str(&r.pk, "path", path);
  return rpc(a, &r, CALL_MS, u);
}

int hg_agent_stat(hg_agent *a, const char *path, hg_file_stat *st) {
  msgpack_unpacked u;
  int rc = path_call(a, "stat", path, &u);
  if (rc < 0) return rc;
  rc = decode_stat(&u.data, st);
  msgpack_unpacked_destroy(&u);
  return rc;
}

int hg_agent_list_ex(hg_agent *a, const char *path,
                     void (*fn)(void *ud, const char *name, const hg_file_stat *st),
                     void *ud, bool *truncated) {
  msgpack_unpacked u;
  int rc = path_call(a, "list", path, &u);
  if (rc < 0) return rc;
  rc = decode_list(&u.data, fn, ud, truncated);
  msgpack_unpacked_destroy(&u);
  return rc;
}

int hg_agent_list(hg_agent *a, const char *path,
                  void (*fn)(void *ud, const char *name, const hg_file_stat *st),
                  void *ud) {
  return hg_agent_list_ex(a, path, fn, ud, NULL);
}

static int path_flag_call(hg_agent *a, const char *op, const char *path, const char *flag,
                          bool val) {
  int rc = check_path(path);
  if (rc < 0) return rc;
  req r;
  req_begin(a, &r, op, 2);
  hg_mp_pack_kv_str(&r.pk, "path", path);
  hg_mp_pack_kv_bool(&r.pk, flag, val);
  return rpc_simple(a, &r, CALL_MS);
}

int hg_agent_mkdir(hg_agent *a, const char *path, bool parents) {
  return path_flag_call(a, "mkdir", path, "parents", parents);
}

int hg_agent_remove(hg_agent *a, const char *path, bool recursive) {
  return path_flag_call(a, "remove", path, "recursive", recursive);
}

int hg_agent_rename(hg_agent *a, const char *from, const char *to) {
  int rc = check_path(from);
  if (rc == 0) rc = check_path(to);
  if (rc < 0) return rc;
  req r;
  req_begin(a, &r, "rename", 2);
  hg_mp_pack_kv_str(&r.pk, "from", from);
  hg_mp_pack_kv_str(&r.pk, "to", to);
  return rpc_simple(a, &r, CALL_MS);
}

static int bare_call(hg_agent *a, const char *op) {
  req r;
  req_begin(a, &r, op, 0);
  return rpc_simple(a, &r, CALL_MS);
}

int hg_agent_freeze(hg_agent *a) {
  return bare_call(a, "freeze");
}
int hg_agent_thaw(hg_agent *a) {
  return bare_call(a, "thaw");
}

int hg_agent_restored(hg_agent *a, const hg_agent_restore *r) {
  uint8_t seed[SEED_LEN];
  int rc = hg_random_bytes(seed, sizeof seed);
  if (rc < 0) return rc;
  if ((r->hostname && strlen(r->hostname) > 64) ||
      (r->machine_id && strlen(r->machine_id) != 32) ||
      (r->node && !hg_node_id_valid(r->node)))
    return -EINVAL;
  req q;
  req_begin(a, &q, "restored",
            2 + (r->hostname != NULL) + (r->machine_id != NULL) + (r->gen > 0) +
                (r->epoch > 0) + (r->node != NULL));
  hg_mp_pack_kv_u64(&q.pk, "wall_ns", (uint64_t)hg_wall_ns());
  hg_mp_pack_kv_bin(&q.pk, "seed", seed, sizeof seed);
  if (r->hostname) hg_mp_pack_kv_str(&q.pk, "hostname", r->hostname);
  if (r->machine_id) hg_mp_pack_kv_str(&q.pk, "machine_id", r->machine_id);
  if (r->gen > 0) hg_mp_pack_kv_u64(&q.pk, "gen", r->gen);
  if (r->epoch > 0) hg_mp_pack_kv_u64(&q.pk, "epoch", r->epoch);
  if (r->node) hg_mp_pack_kv_str(&q.pk, "node", r->node);
  return rpc_simple(a, &q, CALL_MS);
}
