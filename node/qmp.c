#include "node/qmp.h"

#include <errno.h>
#include <poll.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <time.h>
#include <unistd.h>

#include "node/core/buf.h"
#include "node/core/log.h"
#include "node/core/util.h"

/* How often a connect is retried while the VMM has not created its socket
 * yet: short, because restore latency is QEMU start-up plus this. */
#define QMP_CONNECT_RETRY_NS (1 * 1000 * 1000)
#define QMP_READ_CHUNK 65536

struct hg_qmp {
  int fd;
  uint64_t next_id;
  hg_buf in;
  char path[sizeof(((struct sockaddr_un *)0)->sun_path)];
};

static void sleep_ns(long ns) {
  struct timespec ts = {0, ns};
  while (nanosleep(&ts, &ts) < 0 && errno == EINTR) {
  }
}

static int remaining_ms(int64_t deadline_ms) {
  int64_t left = deadline_ms - hg_now_ms();
  if (left <= 0) return 0;
  return left > 60 * 60 * 1000 ? 60 * 60 * 1000 : (int)left;
}

/* Waits for events on the socket until the deadline; -ETIMEDOUT then. */
static int wait_fd(hg_qmp *q, short events, int64_t deadline_ms) {
  for (;;) {
    struct pollfd p = {.fd = q->fd, .events = events};
    int ms = remaining_ms(deadline_ms);
    int n = poll(&p, 1, ms);
    if (n > 0) return 0;
    if (n == 0) return -ETIMEDOUT;
    if (errno != EINTR) return -errno;
  }
}

static int try_connect(const char *path, int *out) {
  struct sockaddr_un sa = {.sun_family = AF_UNIX};
  int rc = hg_path(sa.sun_path, sizeof sa.sun_path, "%s", path);
  if (rc < 0) return rc;
  int fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
  if (fd < 0) return -errno;
  if (connect(fd, (struct sockaddr *)&sa, sizeof sa) < 0) {
    rc = -errno;
    close(fd);
    return rc;
  }
  *out = fd;
  return 0;
}

/* Sends all of data; the first sendmsg carries pass_fd when >= 0. */
static int send_all(hg_qmp *q, const char *data, size_t len, int pass_fd,
                    int64_t deadline_ms) {
  union {
    char buf[CMSG_SPACE(sizeof(int))];
    struct cmsghdr align;
  } ctl;
  while (len > 0) {
    struct iovec iov = {.iov_base = (void *)data, .iov_len = len};
    struct msghdr msg = {.msg_iov = &iov, .msg_iovlen = 1};
    if (pass_fd >= 0) {
      memset(&ctl, 0, sizeof ctl);
      msg.msg_control = ctl.buf;
      msg.msg_controllen = sizeof ctl.buf;
      struct cmsghdr *c = CMSG_FIRSTHDR(&msg);
      c->cmsg_level = SOL_SOCKET;
      c->cmsg_type = SCM_RIGHTS;
      c->cmsg_len = CMSG_LEN(sizeof(int));
      memcpy(CMSG_DATA(c), &pass_fd, sizeof(int));
    }
    ssize_t n = sendmsg(q->fd, &msg, MSG_NOSIGNAL);
    if (n < 0) {
      if (errno == EINTR) continue;
      if (errno != EAGAIN) return -errno;
      int rc = wait_fd(q, POLLOUT, deadline_ms);
      if (rc < 0) return rc;
      continue;
    }
    pass_fd = -1; /* the fd went with the first byte */
    data += n;
    len -= (size_t)n;
  }
  return 0;
}

static int parse_line(hg_qmp *q, size_t len, json_t **out) {
  json_error_t err;
  json_t *msg = json_loadb(q->in.data, len, 0, &err);
  hg_buf_consume(&q->in, len + 1);
  if (!msg || !json_is_object(msg)) {
    hg_log_warn("qmp.bad_message", "path=%s err=\"%s\"", q->path,
                msg ? "not an object" : err.text);
    json_decref(msg);
    return -EPROTO;
  }
  *out = msg;
  return 0;
}

/* Reads one JSON object (one line) within the deadline and the size bound. */
static int read_msg(hg_qmp *q, int64_t deadline_ms, json_t **out) {
  char chunk[QMP_READ_CHUNK];
  for (;;) {
    char *nl = q->in.len ? memchr(q->in.data, '\n', q->in.len) : NULL;
    if (nl) return parse_line(q, (size_t)(nl - q->in.data), out);
    if (q->in.len > HG_QMP_MAX_LINE) {
      hg_log_warn("qmp.line_too_long", "path=%s max=%d", q->path, HG_QMP_MAX_LINE);
      return -EMSGSIZE;
    }
    int rc = wait_fd(q, POLLIN, deadline_ms);
    if (rc < 0) return rc;
    ssize_t n = read(q->fd, chunk, sizeof chunk);
    if (n == 0) return -ECONNRESET;
    if (n < 0) {
      if (errno == EINTR || errno == EAGAIN) continue;
      return -errno;
    }
    rc = hg_buf_append(&q->in, chunk, (size_t)n);
    if (rc < 0) return rc;
  }
}

static int error_code(const char *cls) {
  if (strcmp(cls, "CommandNotFound") == 0) return -EOPNOTSUPP; /* this QEMU lacks it */
  if (strcmp(cls, "DeviceNotFound") == 0) return -ENODEV;
  return -EIO;
}

/* Interprets the reply to our request: "return" or "error". */
static int take_reply(hg_qmp *q, const char *cmd, json_t *msg, json_t **ret) {
  json_t *err = json_object_get(msg, "error");
  if (err) {
    const char *cls = json_string_value(json_object_get(err, "class"));
    const char *desc = json_string_value(json_object_get(err, "desc"));
    hg_log_warn("qmp.error", "path=%s cmd=%s class=%s desc=\"%s\"", q->path, cmd,
                cls ? cls : "?", desc ? desc : "");
    return error_code(cls ? cls : "");
  }
  json_t *val = json_object_get(msg, "return");
  if (!val) return -EPROTO;
  if (ret) *ret = json_incref(val);
  return 0;
}

/* Reads until the reply carrying id; events and replies to requests whose
 * callers timed out earlier are dropped. */
static int await_reply(hg_qmp *q, const char *cmd, uint64_t id, int64_t deadline_ms,
                       json_t **ret, bool *replied) {
  for (;;) {
    json_t *msg;
    int rc = read_msg(q, deadline_ms, &msg);
    if (rc < 0) return rc;
    json_t *jid = json_object_get(msg, "id");
    if (json_object_get(msg, "event")) {
      hg_log_debug("qmp.event", "path=%s event=%s", q->path,
                   json_string_value(json_object_get(msg, "event")));
    } else if (json_is_integer(jid) && (uint64_t)json_integer_value(jid) == id) {
      *replied = true;
      rc = take_reply(q, cmd, msg, ret);
      json_decref(msg);
      return rc;
    } else {
      hg_log_debug("qmp.stale_reply", "path=%s", q->path);
    }
    json_decref(msg);
  }
}

static int exec_fd(hg_qmp *q, const char *cmd, json_t *args, int pass_fd, int timeout_ms,
                   json_t **ret) {
  if (q->fd < 0) return -ENOTCONN;
  int64_t deadline = hg_now_ms() + timeout_ms;
  uint64_t id = q->next_id++;
  json_t *req = json_pack("{s:s, s:I}", "execute", cmd, "id", (json_int_t)id);
  if (!req) return -ENOMEM;
  if (args && json_object_set(req, "arguments", args) < 0) {
    json_decref(req);
    return -ENOMEM;
  }
  char *text = json_dumps(req, JSON_COMPACT);
  json_decref(req);
  if (!text) return -ENOMEM;
  size_t len = strlen(text);
  text[len] = '\n'; /* QMP is line-framed; the NUL is not sent */
  bool replied = false;
  int rc = send_all(q, text, len + 1, pass_fd, deadline);
  free(text);
  if (rc == 0) rc = await_reply(q, cmd, id, deadline, ret, &replied);
  if (rc < 0 && !replied) {
    /* The stream is in an unknown state (timeout, EOF, garbage): drop it
     * so the owner reconnects instead of reading someone else's reply. */
    hg_log_warn("qmp.disconnect", "path=%s cmd=%s err=%d", q->path, cmd, rc);
    close(q->fd);
    q->fd = -1;
  }
  return rc;
}

int hg_qmp_exec(hg_qmp *q, const char *cmd, json_t *args, int timeout_ms, json_t **ret) {
  return exec_fd(q, cmd, args, -1, timeout_ms, ret);
}

int hg_qmp_send_fd(hg_qmp *q, int fd, const char *name, int timeout_ms) {
  json_t *args = json_pack("{s:s}", "fdname", name);
  if (!args) return -ENOMEM;
  int rc = exec_fd(q, "getfd", args, fd, timeout_ms, NULL);
  json_decref(args);
  return rc;
}

static int connect_retry(const char *path, int64_t deadline_ms, int *fd) {
  for (;;) {
    int rc = try_connect(path, fd);
    if (rc == 0) return 0;
    if (rc != -ENOENT && rc != -ECONNREFUSED && rc != -EAGAIN) return rc;
    if (hg_now_ms() >= deadline_ms) return -ETIMEDOUT;
    sleep_ns(QMP_CONNECT_RETRY_NS);
  }
}

static int handshake(hg_qmp *q, int64_t deadline_ms) {
  json_t *greeting;
  int rc = read_msg(q, deadline_ms, &greeting);
  if (rc < 0) return rc;
  bool ok = json_object_get(greeting, "QMP") != NULL;
  json_decref(greeting);
  if (!ok) return -EPROTO;
  return hg_qmp_exec(q, "qmp_capabilities", NULL, remaining_ms(deadline_ms), NULL);
}

int hg_qmp_connect(const char *path, int64_t deadline_ms, hg_qmp **out) {
  hg_qmp *q = calloc(1, sizeof *q);
  if (!q) return -ENOMEM;
  q->fd = -1;
  q->next_id = 1;
  hg_buf_init(&q->in, HG_QMP_MAX_LINE + QMP_READ_CHUNK);
  int rc = hg_path(q->path, sizeof q->path, "%s", path);
  if (rc == 0) rc = connect_retry(path, deadline_ms, &q->fd);
  if (rc == 0) rc = handshake(q, deadline_ms);
  if (rc < 0) {
    hg_log_warn("qmp.connect_failed", "path=%s err=%d", path, rc);
    hg_qmp_close(q);
    return rc;
  }
  *out = q;
  return 0;
}

bool hg_qmp_connected(const hg_qmp *q) {
  return q && q->fd >= 0;
}

void hg_qmp_close(hg_qmp *q) {
  if (!q) return;
  if (q->fd >= 0) close(q->fd);
  hg_buf_free(&q->in);
  free(q);
}
