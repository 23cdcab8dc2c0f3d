/* hangar-agent: the in-VM agent. PID 1 of the guest (or started by it); it
 * serves the host's requests (agentproto.h) on the "agent" virtio-serial
 * port, runs commands and keeps their output in rings.
 *
 * Test modes for the host: --listen PATH (unix socket server, one connection
 * at a time) and --fd N. They never mount, set the clock or freeze. */
#include "node/guest/agent.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/signalfd.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#include "node/core/log.h"
#include "node/core/mp.h"
#include "node/core/util.h"

#define READ_CHUNK (64u * 1024)
#define WRITE_CHUNK (256u * 1024)
#define MAX_POLL (4 + 3 * HG_GUEST_MAX_CMDS)

/* ---- replies ---------------------------------------------------------- */

bool hg_guest_outq_full(const hg_guest *g) {
  return g->outq.len - g->out_off >= HG_GUEST_OUTQ_SOFT;
}

void hg_guest_reply_begin(hg_guest_reply *r, uint64_t id, uint32_t nresults) {
  r->id = id;
  msgpack_sbuffer_init(&r->sb);
  msgpack_packer_init(&r->pk, &r->sb, msgpack_sbuffer_write);
  msgpack_pack_map(&r->pk, 2 + nresults);
  hg_mp_pack_kv_u64(&r->pk, "id", id);
  hg_mp_pack_kv_u64(&r->pk, "err", 0);
}

static void queue_frame(hg_guest *g, const msgpack_sbuffer *sb) {
  if (g->chan_fd < 0 || !g->chan_connected) return; /* nobody to tell */
  int rc = hg_frame_encode(sb, &g->outq);
  if (rc < 0) hg_log_error("agent.reply", "err=%d bytes=%zu", -rc, sb->size);
}

void hg_guest_reply_end(hg_guest *g, hg_guest_reply *r) {
  if (r->sb.size > HG_AGENT_MAX_FRAME) {
    /* Handlers size their results; this is the last line of defence. */
    hg_log_error("agent.reply", "err=too_big id=%llu bytes=%zu",
                 (unsigned long long)r->id, r->sb.size);
    hg_guest_reply_err(g, r->id, -EMSGSIZE);
  } else {
    queue_frame(g, &r->sb);
  }
  msgpack_sbuffer_destroy(&r->sb);
}

void hg_guest_reply_err(hg_guest *g, uint64_t id, int err) {
  msgpack_sbuffer sb;
  msgpack_packer pk;
  msgpack_sbuffer_init(&sb);
  msgpack_packer_init(&pk, &sb, msgpack_sbuffer_write);
  msgpack_pack_map(&pk, 2);
  hg_mp_pack_kv_u64(&pk, "id", id);
  hg_mp_pack_kv_u64(&pk, "err", (uint64_t)(err < 0 ? -err : err));
  queue_frame(g, &sb);
  msgpack_sbuffer_destroy(&sb);
}

/* ---- argument checks --------------------------------------------------- */

int hg_guest_arg_u64(const msgpack_object *req, const char *key, uint64_t def,
                     uint64_t max, uint64_t *out) {
  uint64_t v;
  int rc = hg_mp_u64(req, key, &v);
  if (rc == -ENOENT)
    v = def;
  else if (rc < 0 || v > max)
    return -EINVAL;
  *out = v;
  return 0;
}

int hg_guest_arg_bool(const msgpack_object *req, const char *key, bool def, bool *out) {
  bool v;
  int rc = hg_mp_bool(req, key, &v);
  if (rc == -ENOENT)
    v = def;
  else if (rc < 0)
    return -EINVAL;
  *out = v;
  return 0;
}

int hg_guest_arg_bin(const msgpack_object *req, const char *key, size_t max,
                     const char **ptr, size_t *len) {
  const char *p = NULL;
  size_t n = 0;
  int rc = hg_mp_bin(req, key, &p, &n);
  if (rc < 0 && rc != -ENOENT) return -EINVAL;
  if (n > max) return -E2BIG;
  *ptr = p;
  *len = n;
  return 0;
}

int hg_guest_arg_path(const msgpack_object *req, const char *key,
                      char out[HG_GUEST_PATH_MAX]) {
  int rc = hg_mp_strcpy(req, key, out, HG_GUEST_PATH_MAX);
  if (rc == -ENAMETOOLONG) return rc;
  if (rc < 0 || out[0] != '/') return -EINVAL;
  return 0;
}

/* ---- dispatch ---------------------------------------------------------- */

static int op_ping(hg_guest *g, uint64_t id, const msgpack_object *req) {
  hg_guest_reply r;
  hg_guest_reply_begin(&r, id, 1);
  hg_mp_pack_kv_str(&r.pk, "version", HG_AGENT_VERSION);
  hg_guest_reply_end(g, &r);
  return 0;
}

static const struct {
  const char *name;
  hg_guest_op_fn fn;
} ops[] = {
    {"ping", op_ping},
    {"exec", hg_guest_op_exec},
    {"stdin", hg_guest_op_stdin},
    {"signal", hg_guest_op_signal},
    {"wait", hg_guest_op_wait},
    {"status", hg_guest_op_status},
    {"read", hg_guest_op_read},
    {"file_read", hg_guest_op_file_read},
    {"file_write", hg_guest_op_file_write},
    {"stat", hg_guest_op_stat},
    {"list", hg_guest_op_list},
    {"mkdir", hg_guest_op_mkdir},
    {"remove", hg_guest_op_remove},
    {"rename", hg_guest_op_rename},
    {"freeze", hg_guest_op_freeze},
    {"thaw", hg_guest_op_thaw},
    {"restored", hg_guest_op_restored},
};

static void dispatch(hg_guest *g, const msgpack_object *req) {
  uint64_t id;
  const char *op;
  size_t oplen;
  if (hg_mp_u64(req, "id", &id) < 0) {
    /* Without an id there is no one to answer: drop it, say so. */
    hg_log_warn("agent.request", "err=no_id");
    return;
  }
  if (hg_mp_str(req, "op", &op, &oplen) < 0) {
    hg_guest_reply_err(g, id, -EINVAL);
    return;
  }
  for (size_t i = 0; i < HG_ARRAY_SIZE(ops); i++) {
    if (strlen(ops[i].name) != oplen || memcmp(ops[i].name, op, oplen) != 0) continue;
    int rc = ops[i].fn(g, id, req);
    if (rc < 0) hg_guest_reply_err(g, id, rc);
    return;
  }
  hg_guest_reply_err(g, id, -ENOSYS);
}

static void chan_lost(hg_guest *g, const char *why, bool fatal);

/* Takes buffered requests while the reply queue has room: replies of one
 * read's worth of small requests could otherwise be gigabytes. */
static void process_frames(hg_guest *g) {
  while (g->chan_fd >= 0 && !hg_guest_outq_full(g)) {
    msgpack_unpacked u;
    int rc = hg_frame_reader_next(&g->rd, &u);
    if (rc == 0) return;
    if (rc < 0) {
      /* A stream out of step cannot be resynchronised: drop the connection
       * (a port cannot be dropped: forget its bytes and start over). */
      hg_log_warn("agent.bad_frame", "err=%d", -rc);
      chan_lost(g, "bad_frame", g->mode != HG_GUEST_PORT);
      return;
    }
    dispatch(g, &u.data);
    msgpack_unpacked_destroy(&u);
  }
}

/* ---- the channel ------------------------------------------------------- */

/* The host went away: what was in flight belongs to a dead connection. */
static void session_reset(hg_guest *g) {
  hg_frame_reader_reset(&g->rd);
  hg_buf_reset(&g->outq);
  g->out_off = 0;
  hg_guest_held_drop_all(g);
}

/* fatal: the fd itself is broken (a port unplugged, a stream out of sync). */
static void chan_lost(hg_guest *g, const char *why, bool fatal) {
  if (g->chan_connected) hg_log_info("agent.disconnected", "why=%s", why);
  g->chan_connected = false;
  session_reset(g);
  switch (g->mode) {
    case HG_GUEST_PORT:
      /* virtio-serial: the port stays open; while no host is attached it
       * reads EOF and polls HUP at once, so look again later, not in a spin.
       * A broken port is reopened (found anew) after the same pause. */
      if (fatal) {
        close(g->chan_fd);
        g->chan_fd = -1;
      }
      g->chan_retry_at = hg_now_ms() + HG_GUEST_RETRY_MS;
      break;
    case HG_GUEST_LISTEN:
      close(g->chan_fd);
      g->chan_fd = -1;
      break;
    case HG_GUEST_FD:
      close(g->chan_fd);
      g->chan_fd = -1;
      if (!g->pid1) g->stop = true;
      break;
  }
}

static void chan_flush(hg_guest *g) {
  while (g->chan_fd >= 0 && g->out_off < g->outq.len) {
    size_t n = g->outq.len - g->out_off;
    if (n > WRITE_CHUNK) n = WRITE_CHUNK;
    ssize_t w = g->mode == HG_GUEST_PORT
                    ? write(g->chan_fd, g->outq.data + g->out_off, n)
                    : send(g->chan_fd, g->outq.data + g->out_off, n, MSG_NOSIGNAL);
    if (w < 0) {
      if (errno == EINTR) continue;
      if (errno == EAGAIN) break;
      chan_lost(g, "write", true);
      return;
    }
    g->out_off += (size_t)w;
  }
  if (g->out_off == g->outq.len) {
    hg_buf_reset(&g->outq);
    g->out_off = 0;
  } else if (g->out_off >= HG_AGENT_MAX_FRAME) {
    hg_buf_consume(&g->outq, g->out_off); /* seldom: keeps the memmove cheap */
    g->out_off = 0;
  }
}

static void chan_read(hg_guest *g, short revents) {
  char buf[READ_CHUNK];
  ssize_t n = read(g->chan_fd, buf, sizeof buf);
  if (n < 0 && (errno == EINTR || errno == EAGAIN)) {
    if (revents & (POLLHUP | POLLERR)) chan_lost(g, "hup", false);
    return;
  }
  if (n <= 0) {
    chan_lost(g, n == 0 ? "eof" : "read", n < 0);
    return;
  }
  if (!g->chan_connected) {
    g->chan_connected = true;
    hg_log_info("agent.connected", "mode=%d", g->mode);
  }
  if (hg_frame_reader_feed(&g->rd, buf, (size_t)n) < 0) {
    chan_lost(g, "overflow", true);
    return;
  }
  process_frames(g);
}

static void chan_event(hg_guest *g, short revents) {
  if (revents & POLLOUT) chan_flush(g);
  if (g->chan_fd < 0) return;
  if (g->mode == HG_GUEST_PORT && (revents & POLLHUP)) {
    /* No host attached. Bytes may still sit in the port from the last one;
     * they belong to it, as does anything queued for it. */
    if (g->chan_connected || g->outq.len) chan_lost(g, "hup", false);
    g->chan_retry_at = hg_now_ms() + HG_GUEST_RETRY_MS;
    return;
  }
  if (revents & (POLLIN | POLLHUP | POLLERR)) chan_read(g, revents);
}

static void chan_accept(hg_guest *g) {
  int fd = accept4(g->listen_fd, NULL, NULL, SOCK_NONBLOCK | SOCK_CLOEXEC);
  if (fd < 0) return;
  g->chan_fd = fd;
  g->chan_connected = true;
  session_reset(g);
  hg_log_info("agent.connected", "mode=%d", g->mode);
}

/* tools/mkimage's boot check waits for this line on the console. */
static void say_ready(hg_guest *g) {
  static const char line[] = "hangar-agent: ready\n";
  if (g->ready_said) return;
  g->ready_said = true;
  ssize_t w = write(1, line, sizeof line - 1);
  (void)w;
}

/* Opens the virtio-serial port when it is not open yet. */
static void chan_port_open(hg_guest *g, int64_t now) {
  if (g->chan_fd >= 0 || now < g->chan_retry_at) return;
  int fd = hg_guest_port_open(g->port_path);
  if (fd < 0) {
    if (!g->port_logged_at || now - g->port_logged_at >= 10000) {
      hg_log_warn("agent.no_port", "err=%d", -fd);
      g->port_logged_at = now;
    }
    g->chan_retry_at = now + HG_GUEST_PORT_RETRY_MS;
    return;
  }
  g->chan_fd = fd;
  g->chan_retry_at = 0;
  g->chan_connected = true; /* until the port says HUP */
  hg_log_info("agent.port_open", "fd=%d", fd);
  say_ready(g);
}

static int listen_on(const char *path) {
  struct sockaddr_un sa = {.sun_family = AF_UNIX};
  if (strlen(path) >= sizeof sa.sun_path) return -ENAMETOOLONG;
  strcpy(sa.sun_path, path);
  int fd = socket(AF_UNIX, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
  if (fd < 0) return -errno;
  unlink(path);
  if (bind(fd, (struct sockaddr *)&sa, sizeof sa) < 0 || listen(fd, 4) < 0) {
    int rc = -errno;
    close(fd);
    return rc;
  }
  return fd;
}

/* ---- signals ----------------------------------------------------------- */

static int signals_setup(hg_guest *g) {
  sigset_t set;
  sigemptyset(&set);
  sigaddset(&set, SIGCHLD);
  sigaddset(&set, SIGTERM);
  sigaddset(&set, SIGINT);
  sigaddset(&set, SIGHUP);
  if (sigprocmask(SIG_BLOCK, &set, NULL) < 0) return -errno;
  signal(SIGPIPE, SIG_IGN); /* a command that closed stdin is EPIPE, not death */
  g->sig_fd = signalfd(-1, &set, SFD_NONBLOCK | SFD_CLOEXEC);
  return g->sig_fd < 0 ? -errno : 0;
}

static void on_signal(hg_guest *g) {
  struct signalfd_siginfo si;
  bool child = false;
  while (read(g->sig_fd, &si, sizeof si) == (ssize_t)sizeof si) {
    if (si.ssi_signo == SIGCHLD) {
      child = true;
    } else if (!g->pid1 && (si.ssi_signo == SIGTERM || si.ssi_signo == SIGINT)) {
      g->stop = true;
    } else {
      hg_log_info("agent.signal", "sig=%u ignored=1", si.ssi_signo);
    }
  }
  if (child) hg_guest_reap(g);
}

/* ---- the loop ---------------------------------------------------------- */

enum { T_SIG, T_CHAN, T_LISTEN, T_OUT, T_IN };

typedef struct poll_set {
  struct pollfd pfd[MAX_POLL];
  struct {
    int kind, stream;
    hg_guest_cmd *cmd;
  } tag[MAX_POLL];
  nfds_t n;
} poll_set;

static void ps_add(poll_set *ps, int fd, short events, int kind, hg_guest_cmd *c, int s) {
  if (ps->n >= MAX_POLL) return;
  ps->pfd[ps->n] = (struct pollfd){.fd = fd, .events = events};
  ps->tag[ps->n].kind = kind;
  ps->tag[ps->n].cmd = c;
  ps->tag[ps->n].stream = s;
  ps->n++;
}

static void ps_build(hg_guest *g, poll_set *ps, int64_t now) {
  ps->n = 0;
  ps_add(ps, g->sig_fd, POLLIN, T_SIG, NULL, 0);
  if (g->chan_fd >= 0 && (g->chan_retry_at == 0 || now >= g->chan_retry_at)) {
    g->chan_retry_at = 0;
    short ev = hg_guest_outq_full(g) ? 0 : POLLIN;
    if (g->out_off < g->outq.len) ev |= POLLOUT;
    ps_add(ps, g->chan_fd, ev, T_CHAN, NULL, 0);
  }
  if (g->listen_fd >= 0 && g->chan_fd < 0)
    ps_add(ps, g->listen_fd, POLLIN, T_LISTEN, NULL, 0);
  for (hg_guest_cmd *c = g->cmds; c; c = c->next) {
    for (int s = 0; s < 2; s++)
      if (c->out[s].fd >= 0) ps_add(ps, c->out[s].fd, POLLIN, T_OUT, c, s);
    if (c->in_fd >= 0 && c->in_off < c->inq.len)
      ps_add(ps, c->in_fd, POLLOUT, T_IN, c, 0);
  }
}

static int poll_timeout(const hg_guest *g, int64_t now) {
  int64_t due = hg_guest_cmd_next_deadline(g);
  if (g->chan_retry_at && (!due || g->chan_retry_at < due)) due = g->chan_retry_at;
  if (g->frozen && (!due || g->frozen_until < due)) due = g->frozen_until;
  if (!due) return -1;
  if (due <= now) return 0;
  return due - now > 60000 ? 60000 : (int)(due - now);
}

static void ps_dispatch(hg_guest *g, poll_set *ps) {
  for (nfds_t i = 0; i < ps->n; i++) {
    short re = ps->pfd[i].revents;
    if (!re) continue;
    hg_guest_cmd *c = ps->tag[i].cmd;
    switch (ps->tag[i].kind) {
      case T_SIG:
        on_signal(g);
        break;
      case T_CHAN:
        if (g->chan_fd == ps->pfd[i].fd) chan_event(g, re);
        break;
      case T_LISTEN:
        chan_accept(g);
        break;
      case T_OUT:
        if (!c->evicted) hg_guest_cmd_on_output(g, c, ps->tag[i].stream);
        break;
      case T_IN:
        if (!c->evicted) hg_guest_cmd_on_stdin(g, c);
        break;
    }
  }
}

static void run(hg_guest *g) {
  static poll_set ps; /* ~20 KB: keep it off PID 1's stack */
  while (!g->stop) {
    int64_t now = hg_now_ms();
    if (g->mode == HG_GUEST_PORT) chan_port_open(g, now);
    process_frames(g);
    ps_build(g, &ps, now);
    int n = poll(ps.pfd, ps.n, poll_timeout(g, now));
    if (n < 0 && errno != EINTR) {
      hg_log_error("agent.poll", "err=%d", errno);
      usleep(100 * 1000); /* never spin, never exit */
      continue;
    }
    if (n > 0) ps_dispatch(g, &ps);
    now = hg_now_ms();
    hg_guest_cmd_tick(g, now);
    hg_guest_freeze_tick(g, now);
    if (g->chan_fd >= 0 && g->out_off < g->outq.len) chan_flush(g);
    hg_guest_cmd_bury(g);
  }
}

/* ---- start-up ---------------------------------------------------------- */

static void usage(void) {
  fprintf(stderr,
          "usage: hangar-agent [--port DEV | --listen PATH | --fd N]\n"
          "                    [--freeze-path DIR] [--state-dir DIR] [--debug]\n"
          "  no option: serve the \"agent\" virtio-serial port (inside a VM)\n"
          "  --listen, --fd: test modes on a host (no mounts, clock, freeze)\n");
}

static int parse_args(hg_guest *g, int argc, char **argv) {
  for (int i = 1; i < argc; i++) {
    const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
    if (strcmp(a, "--debug") == 0) {
      hg_log_set_level(HG_LOG_DEBUG);
      continue;
    }
    if (!v) return -EINVAL;
    i++;
    if (strcmp(a, "--listen") == 0) {
      g->mode = HG_GUEST_LISTEN;
      g->listen_path = v;
    } else if (strcmp(a, "--fd") == 0) {
      g->mode = HG_GUEST_FD;
      g->fixed_fd = atoi(v);
    } else if (strcmp(a, "--port") == 0) {
      g->mode = HG_GUEST_PORT;
      g->port_path = v;
    } else if (strcmp(a, "--state-dir") == 0) {
      g->state_dir = v;
    } else if (strcmp(a, "--freeze-path") == 0) {
      g->freeze_path = v;
    } else {
      return -EINVAL;
    }
  }
  return 0;
}

static void guest_init(hg_guest *g) {
  memset(g, 0, sizeof *g);
  g->chan_fd = g->listen_fd = g->sig_fd = g->fixed_fd = -1;
  g->next_cid = 1;
  hg_frame_reader_init(&g->rd);
  hg_buf_init(&g->outq, HG_GUEST_OUTQ_MAX);
}

static int open_channel(hg_guest *g) {
  if (g->mode == HG_GUEST_LISTEN) {
    g->listen_fd = listen_on(g->listen_path);
    return g->listen_fd < 0 ? g->listen_fd : 0;
  }
  if (g->mode == HG_GUEST_FD) {
    if (g->fixed_fd < 0 || fcntl(g->fixed_fd, F_SETFL, O_NONBLOCK) < 0) return -EBADF;
    fcntl(g->fixed_fd, F_SETFD, FD_CLOEXEC);
    g->chan_fd = g->fixed_fd;
    g->chan_connected = true;
  }
  return 0; /* the port is opened (and reopened) by the loop */
}

int main(int argc, char **argv) {
  static hg_guest g; /* the one agent; PID 1 keeps it for its whole life */
  guest_init(&g);
  g.pid1 = getpid() == 1;
  if (parse_args(&g, argc, argv) < 0) {
    usage();
    if (!g.pid1) return 2;
    g.mode = HG_GUEST_PORT; /* PID 1 cannot give up: serve the default */
  }
  g.sys_ok = g.mode == HG_GUEST_PORT;
  if (!g.freeze_path && g.sys_ok) g.freeze_path = "/";
  if (!g.state_dir && g.sys_ok) g.state_dir = "/run/hangar";
  if (g.pid1)
    hg_guest_pid1_setup();
  else
    hg_guest_std_fds();
  if (!g.pid1 && g.mode != HG_GUEST_PORT) prctl(PR_SET_PDEATHSIG, SIGTERM);
  int rc = signals_setup(&g);
  if (rc == 0) rc = open_channel(&g);
  if (rc < 0) {
    hg_log_error("agent.start", "err=%d", -rc);
    if (!g.pid1) return 1;
  }
  hg_log_info("agent.start", "version=%s pid1=%d mode=%d", HG_AGENT_VERSION, g.pid1,
              g.mode);
  if (g.mode != HG_GUEST_PORT) say_ready(&g);
  run(&g);
  hg_guest_cmd_kill_all(&g);
  if (g.listen_fd >= 0 && g.listen_path) unlink(g.listen_path);
  hg_log_info("agent.stop", "pid=%d", (int)getpid());
  return 0;
}
