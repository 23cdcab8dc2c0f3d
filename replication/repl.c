/* repl: the node's replication service (repl.h, DESIGN §10).
 *
 * Threads: one accept thread, one thread per inbound connection (joined
 * by the accept thread once it is done, or by hg_repl_close), and the
 * callers' worker threads for sending and listing. Shared state - the
 * connection list, the receive slots, the send gates and the counters -
 * is under r->mu, the per-sandbox locks under their own (r->locks); everything else an exchange touches is its
 * own or the store's (which is thread-safe).
 *
 * Two inbound exchanges never work on one sandbox (or template) at once:
 * the second is refused "busy" and its sender retries. That is what keeps
 * retention from deleting a parent an exchange in flight has chosen, and
 * two receives of one generation from racing to the same name.
 *
 * A sandbox held (hg_repl_hold) for a delete or a move of its
 * generations also waits for this node's sends of it, and starts none:
 * btrfs refuses to delete, or flip the read-only flag of, a subvolume a
 * BTRFS_IOC_SEND reads (EPERM; chaos seed 31).
 *
 * This file: the shared helpers, send gates and receive slots,
 * sockets, open and close, metrics. Beside it, behind repl_internal.h:
 * what this node holds (holdings.c), the responder to inbound exchanges
 * (receive.c) and the sender (send.c). */
#include "replication/repl.h"

#include <arpa/inet.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <netdb.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/eventfd.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <unistd.h>

#include "node/core/err.h"
#include "node/core/log.h"
#include "node/core/util.h"
#include "replication/repl_internal.h"

/* The code and the errno a sender returns for it. */
const hg__repl_code hg__repl_codes[C_COUNT] = {
    [C_UNAUTH] = {"unauthenticated", EACCES},
    [C_OTHER_CLUSTER] = {"other_cluster", EACCES},
    [C_STALE] = {"stale_epoch", ESTALE},
    [C_UNKNOWN_PARENT] = {"unknown_parent", EPROTO},
    [C_CORRUPT] = {"corrupt_stream", EPROTO},
    [C_NO_SPACE] = {"no_space", ENOSPC},
    [C_BUSY] = {"busy", EBUSY},
    [C_CONFLICT] = {"conflict", EEXIST},
    [C_BAD_REQUEST] = {"bad_request", EPROTO},
    [C_IO] = {"io_error", EIO},
    [C_TIMEOUT] = {"timeout", ETIMEDOUT},
};

/* ---- small helpers ------------------------------------------------------- */

/* Copies text into a message or a log value: no quotes, backslashes or
 * control bytes (peer and child text ends up in both). */
void hg__repl_set_text(char *out, size_t cap, const char *in) {
  size_t j = 0;
  for (size_t i = 0; in[i] && j + 1 < cap; i++) {
    unsigned char c = (unsigned char)in[i];
    out[j++] = c < 0x20 || c >= 0x7f || c == '"' || c == '\\' ? ' ' : (char)c;
  }
  out[j] = '\0';
}

__attribute__((format(printf, 3, 4))) void hg__repl_set_error(hg_repl_error *e, int code,
                                                              const char *fmt, ...) {
  char tmp[sizeof e->message];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(tmp, sizeof tmp, fmt, ap);
  va_end(ap);
  snprintf(e->code, sizeof e->code, "%s", hg__repl_codes[code].code);
  hg__repl_set_text(e->message, sizeof e->message, tmp);
}

static int code_index(const char *code) {
  for (int i = 0; i < C_COUNT; i++)
    if (strcmp(hg__repl_codes[i].code, code) == 0) return i;
  return -1;
}

/* What a sender returns for a peer's REFUSE or ERROR code. */
int hg__repl_code_errno(const char *code) {
  int i = code_index(code);
  return i < 0 ? -EPROTO : -hg__repl_codes[i].err;
}

/* The code a sender reports for its own failures. */
const char *hg__repl_local_code(int rc) {
  switch (-rc) {
    case ETIMEDOUT:
      return hg__repl_codes[C_TIMEOUT].code;
    case EBADMSG:
      return hg__repl_codes[C_UNAUTH].code;
    case ENOSPC:
      return hg__repl_codes[C_NO_SPACE].code;
    case ECONNREFUSED:
    case ECONNRESET:
    case ECONNABORTED:
    case EPIPE:
    case EHOSTUNREACH:
    case ENETUNREACH:
    case ENOTCONN:
    case EPROTO:
    case EIO:
      return hg__repl_codes[C_IO].code;
    default:
      return hg_err_classify(rc).code;
  }
}

void hg__repl_count_stream(hg_repl *r, int dir, int result) {
  pthread_mutex_lock(&r->mu);
  r->streams[dir][result]++;
  pthread_mutex_unlock(&r->mu);
}

void hg__repl_count_refused(hg_repl *r, const char *code) {
  int i = code_index(code);
  if (i < 0) return;
  pthread_mutex_lock(&r->mu);
  r->refused[i]++;
  pthread_mutex_unlock(&r->mu);
}

void hg__repl_count_bytes(hg_repl *r, int dir, uint64_t raw, uint64_t zstd) {
  pthread_mutex_lock(&r->mu);
  if (dir == DIR_IN) {
    r->recv_raw += raw;
    r->recv_zstd += zstd;
  } else {
    r->sent_raw += raw;
    r->sent_zstd += zstd;
  }
  pthread_mutex_unlock(&r->mu);
}

bool hg__repl_is_closing(hg_repl *r) {
  pthread_mutex_lock(&r->mu);
  bool c = r->closing;
  pthread_mutex_unlock(&r->mu);
  return c;
}

const char *hg__repl_what_of(const hg_repl_offer *o, char *buf, size_t cap) {
  if (o->tmpl)
    snprintf(buf, cap, "template=%s", o->name);
  else
    snprintf(buf, cap, "sandbox=%s gen=%" PRIu64 " epoch=%" PRIu64, o->sandbox, o->gen,
             o->epoch);
  return buf;
}

/* "template", a generation number, or "none" (a full stream). */
const char *hg__repl_parent_text(const hg_repl_parent *p, char *buf, size_t cap) {
  if (!p) return "none";
  if (p->tmpl) return "template";
  snprintf(buf, cap, "%" PRIu64, p->gen);
  return buf;
}

/* ---- send gates and receive slots --------------------------------------------- */

/* The sandbox's gate (r->mu held); a new one when create. NULL: none, or
 * out of memory. */
static sendgate *gate_get(hg_repl *r, const char *sandbox, bool create) {
  for (sendgate *g = r->gates; g; g = g->next)
    if (strcmp(g->sandbox, sandbox) == 0) return g;
  sendgate *g = create ? calloc(1, sizeof *g) : NULL;
  if (!g) return NULL;
  snprintf(g->sandbox, sizeof g->sandbox, "%s", sandbox);
  for (size_t i = 0; i < HG_REPL_GATE_SOCKS; i++) g->socks[i] = -1;
  g->next = r->gates;
  r->gates = g;
  return g;
}

/* Frees the sandbox's gate once nothing keeps it (r->mu held); wakes a
 * hold waiting for the sends to end. */
static void gate_put(hg_repl *r, const char *sandbox) {
  pthread_cond_broadcast(&r->cv);
  for (sendgate **pp = &r->gates; *pp; pp = &(*pp)->next) {
    sendgate *g = *pp;
    if (strcmp(g->sandbox, sandbox) != 0) continue;
    if (g->sends || g->held) return;
    *pp = g->next;
    free(g);
    return;
  }
}

int hg__repl_send_enter(hg_repl *r, const char *sandbox) {
  pthread_mutex_lock(&r->mu);
  sendgate *g = gate_get(r, sandbox, true);
  int rc = !g ? -ENOMEM : g->held ? -EBUSY : 0;
  if (rc == 0) g->sends++;
  pthread_mutex_unlock(&r->mu);
  return rc;
}

void hg__repl_send_leave(hg_repl *r, const char *sandbox) {
  pthread_mutex_lock(&r->mu);
  sendgate *g = gate_get(r, sandbox, false);
  if (g && g->sends) g->sends--;
  gate_put(r, sandbox);
  pthread_mutex_unlock(&r->mu);
}

bool hg__repl_send_sock(hg_repl *r, const char *sandbox, int fd, bool on) {
  pthread_mutex_lock(&r->mu);
  sendgate *g = gate_get(r, sandbox, false);
  bool ok = !on || (g && !g->held);
  for (size_t i = 0; ok && g && i < HG_REPL_GATE_SOCKS; i++) {
    if (g->socks[i] != (on ? -1 : fd)) continue;
    g->socks[i] = on ? fd : -1;
    break; /* all taken: this send is waited for, not cut */
  }
  pthread_mutex_unlock(&r->mu);
  return ok;
}

/* The wait ends: the sends' sockets are shut down, so their frame writes
 * fail at once (a send not registered yet sees the hold when it does),
 * and one without a socket fails once a write makes no progress for
 * r->timeout_ms (frame.c). The ioctl ends when its reader stops. */
bool hg__repl_sends_stop(hg_repl *r, const char *sandbox) {
  pthread_mutex_lock(&r->mu);
  sendgate *g = gate_get(r, sandbox, true);
  if (g) g->held = true;
  for (size_t i = 0; g && i < HG_REPL_GATE_SOCKS; i++)
    if (g->socks[i] >= 0) shutdown(g->socks[i], SHUT_RDWR);
  while (g && g->sends) pthread_cond_wait(&r->cv, &r->mu);
  pthread_mutex_unlock(&r->mu);
  return g != NULL;
}

void hg__repl_sends_resume(hg_repl *r, const char *sandbox) {
  pthread_mutex_lock(&r->mu);
  sendgate *g = gate_get(r, sandbox, false);
  if (g) g->held = false;
  gate_put(r, sandbox);
  pthread_mutex_unlock(&r->mu);
}

bool hg__repl_slot_take(hg_repl *r) {
  pthread_mutex_lock(&r->mu);
  bool ok = r->receiving < r->max_receives;
  if (ok) r->receiving++;
  pthread_mutex_unlock(&r->mu);
  return ok;
}

void hg__repl_slot_release(hg_repl *r) {
  pthread_mutex_lock(&r->mu);
  r->receiving--;
  pthread_mutex_unlock(&r->mu);
}

/* ---- sockets ---------------------------------------------------------------- */

void hg__repl_addr_format(const struct sockaddr_storage *ss, char *out, size_t cap) {
  char host[INET6_ADDRSTRLEN] = "?";
  int port = 0;
  if (ss->ss_family == AF_INET) {
    const struct sockaddr_in *a = (const struct sockaddr_in *)ss;
    inet_ntop(AF_INET, &a->sin_addr, host, sizeof host);
    port = ntohs(a->sin_port);
  } else if (ss->ss_family == AF_INET6) {
    const struct sockaddr_in6 *a = (const struct sockaddr_in6 *)ss;
    inet_ntop(AF_INET6, &a->sin6_addr, host, sizeof host);
    port = ntohs(a->sin6_port);
  }
  if (hg_hostport_join(out, cap, host, port) < 0) snprintf(out, cap, "?");
}

/* Keepalive and a user timeout, so a peer that vanished (power cut, no
 * RST) fails the exchange even while our side has nothing to read. No
 * SO_SNDBUF: a fixed size turns off the kernel's autotuning, which grows
 * to tcp_wmem's maximum, while a set value is capped by wmem_max (often
 * 208 KiB) - slower on any path with latency. */
void hg__repl_sock_tune(int fd, int timeout_ms) {
  int on = 1, idle = HG_REPL_KEEPIDLE_S, intvl = HG_REPL_KEEPINTVL_S,
      cnt = HG_REPL_KEEPCNT;
  unsigned user = (unsigned)timeout_ms;
  (void)setsockopt(fd, SOL_SOCKET, SO_KEEPALIVE, &on, sizeof on);
  (void)setsockopt(fd, IPPROTO_TCP, TCP_KEEPIDLE, &idle, sizeof idle);
  (void)setsockopt(fd, IPPROTO_TCP, TCP_KEEPINTVL, &intvl, sizeof intvl);
  (void)setsockopt(fd, IPPROTO_TCP, TCP_KEEPCNT, &cnt, sizeof cnt);
  (void)setsockopt(fd, IPPROTO_TCP, TCP_USER_TIMEOUT, &user, sizeof user);
}

static int resolve(const char *hostport, bool passive, struct addrinfo **out) {
  char host[256], port_s[8];
  int port;
  int rc = hg_hostport_split(hostport, host, sizeof host, -1, &port);
  if (rc < 0) return rc;
  snprintf(port_s, sizeof port_s, "%d", port);
  struct addrinfo hints;
  memset(&hints, 0, sizeof hints);
  hints.ai_family = AF_UNSPEC;
  hints.ai_socktype = SOCK_STREAM;
  hints.ai_flags = AI_NUMERICSERV | (passive ? AI_PASSIVE : 0);
  int g = getaddrinfo(host, port_s, &hints, out);
  if (g == EAI_SYSTEM) return errno ? -errno : -EIO;
  if (g == EAI_MEMORY) return -ENOMEM;
  return g ? -EHOSTUNREACH : 0;
}

static int listen_open(const char *spec, int *out, char addr[HG_ADDR_MAX]) {
  struct addrinfo *res;
  int rc = resolve(spec, true, &res);
  if (rc < 0) return rc == -EHOSTUNREACH ? -EADDRNOTAVAIL : rc;
  int fd = -1;
  rc = -EADDRNOTAVAIL;
  for (struct addrinfo *ai = res; ai && fd < 0; ai = ai->ai_next) {
    fd = socket(ai->ai_family, ai->ai_socktype | SOCK_CLOEXEC, ai->ai_protocol);
    if (fd < 0) {
      rc = -errno;
      continue;
    }
    int on = 1;
    (void)setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &on, sizeof on);
    if (bind(fd, ai->ai_addr, ai->ai_addrlen) < 0 || listen(fd, HG_REPL_BACKLOG) < 0) {
      rc = -errno;
      close(fd);
      fd = -1;
    }
  }
  freeaddrinfo(res);
  if (fd < 0) return rc;
  struct sockaddr_storage ss;
  socklen_t sl = sizeof ss;
  if (getsockname(fd, (struct sockaddr *)&ss, &sl) < 0) {
    rc = -errno;
    close(fd);
    return rc;
  }
  hg__repl_addr_format(&ss, addr, HG_ADDR_MAX);
  *out = fd;
  return 0;
}

/* Non-blocking connect bounded by the deadline; the socket stays blocking
 * afterwards (frame.c bounds every call with poll and MSG_DONTWAIT). */
static int connect_one(const struct addrinfo *ai, int64_t deadline, int *out) {
  int fd = socket(ai->ai_family, ai->ai_socktype | SOCK_CLOEXEC | SOCK_NONBLOCK,
                  ai->ai_protocol);
  if (fd < 0) return -errno;
  int rc = connect(fd, ai->ai_addr, ai->ai_addrlen) == 0 ? 0 : -errno;
  while (rc == -EINPROGRESS || rc == -EINTR) {
    int64_t left = deadline - hg_now_ms();
    if (left <= 0) {
      rc = -ETIMEDOUT;
      break;
    }
    struct pollfd p = {.fd = fd, .events = POLLOUT};
    int n = poll(&p, 1, left > INT_MAX ? INT_MAX : (int)left);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) {
      rc = -errno;
      break;
    }
    if (n == 0) continue;
    int err = 0;
    socklen_t len = sizeof err;
    rc = getsockopt(fd, SOL_SOCKET, SO_ERROR, &err, &len) < 0 ? -errno : -err;
  }
  if (rc == 0 && fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK) < 0) rc = -errno;
  if (rc < 0) {
    close(fd);
    return rc;
  }
  *out = fd;
  return 0;
}

int hg__repl_dial(const char *hostport, int timeout_ms, int *out) {
  struct addrinfo *res;
  int rc = resolve(hostport, false, &res);
  if (rc < 0) return rc;
  int64_t deadline = hg_now_ms() + timeout_ms;
  rc = -EHOSTUNREACH;
  for (struct addrinfo *ai = res; ai; ai = ai->ai_next)
    if ((rc = connect_one(ai, deadline, out)) == 0 || rc == -ETIMEDOUT) break;
  freeaddrinfo(res);
  if (rc == 0) hg__repl_sock_tune(*out, timeout_ms);
  return rc;
}

/* Encodes with one of frame.h's encoders (enc_rc is its result) and
 * writes the frame; frees b. */
int hg__repl_write_msg(int fd, hg_rframe_session *s, hg_rframe_type type, hg_buf *b,
                       int enc_rc, int timeout_ms) {
  int rc =
      enc_rc < 0 ? enc_rc : hg_rframe_write(fd, s, type, b->data, b->len, timeout_ms);
  hg_buf_free(b);
  return rc;
}

/* ---- open / close ---------------------------------------------------------------- */

static void repl_free(hg_repl *r) {
  if (r->lfd >= 0) close(r->lfd);
  if (r->wake >= 0) close(r->wake);
  while (r->gates) {
    sendgate *g = r->gates;
    r->gates = g->next;
    free(g);
  }
  pthread_cond_destroy(&r->cv);
  pthread_mutex_destroy(&r->mu);
  hg_keylock_destroy(&r->locks);
  memset(&r->keys, 0, sizeof r->keys);
  free(r);
}

static int repl_configure(hg_repl *r, const hg_repl_config *cfg) {
  const char *cluster = cfg->cluster_name ? cfg->cluster_name : HG_REPL_DEFAULT_CLUSTER;
  if (!cfg->store || !cfg->node_id || strlen(cfg->node_id) >= sizeof r->node_id ||
      strlen(cluster) >= sizeof r->cluster || !cfg->listen || cfg->zstd_level < 0 ||
      cfg->zstd_level > 19 || cfg->io_timeout_ms < 0)
    return -EINVAL;
  r->store = cfg->store;
  snprintf(r->node_id, sizeof r->node_id, "%s", cfg->node_id);
  snprintf(r->cluster, sizeof r->cluster, "%s", cluster);
  r->level = cfg->zstd_level ? cfg->zstd_level : 1;
  r->keep = cfg->keep ? cfg->keep : HG_REPL_DEFAULT_KEEP;
  r->max_receives = cfg->max_receives ? cfg->max_receives : HG_REPL_DEFAULT_RECEIVES;
  r->timeout_ms = cfg->io_timeout_ms ? cfg->io_timeout_ms : HG_REPL_DEFAULT_TIMEOUT_MS;
  r->known_epoch = cfg->known_epoch;
  r->on_received = cfg->on_received;
  r->ud = cfg->ud;
  return hg_rframe_keys_derive(cfg->cluster_keys, r->cluster, &r->keys);
}

int hg_repl_open(const hg_repl_config *cfg, hg_repl **out) {
  if (!cfg || !out) return -EINVAL;
  hg_repl *r = calloc(1, sizeof *r);
  if (!r) return -ENOMEM;
  r->lfd = r->wake = -1;
  int rc = hg_keylock_init(&r->locks);
  if (rc < 0) {
    free(r);
    return rc;
  }
  pthread_mutex_init(&r->mu, NULL);
  pthread_cond_init(&r->cv, NULL);
  rc = repl_configure(r, cfg);
  if (rc == 0) hg__repl_replicas_settle(r);
  if (rc == 0) rc = listen_open(cfg->listen, &r->lfd, r->addr);
  if (rc == 0 && (r->wake = eventfd(0, EFD_CLOEXEC)) < 0) rc = -errno;
  if (rc == 0) rc = -pthread_create(&r->acceptor, NULL, hg__repl_accept_main, r);
  if (rc < 0) {
    hg_log_error("repl.open", "listen=%s err=\"%s\"", cfg->listen ? cfg->listen : "",
                 hg_err_str(rc));
    repl_free(r);
    return rc;
  }
  hg_log_info("repl.listen", "addr=%s cluster=%s keys=%u keep=%u max_receives=%u",
              r->addr, r->cluster, r->keys.n, r->keep, r->max_receives);
  *out = r;
  return 0;
}

void hg_repl_close(hg_repl *r) {
  if (!r) return;
  uint64_t one = 1;
  if (write(r->wake, &one, sizeof one) < 0)
    hg_log_error("repl.close", "err=\"%s\"", hg_err_str(-errno));
  pthread_join(r->acceptor, NULL);
  close(r->lfd);
  r->lfd = -1;
  /* Every exchange's next read or write fails; each deletes its staging. */
  pthread_mutex_lock(&r->mu);
  r->closing = true;
  for (inbound *in = r->conns; in; in = in->next)
    if (in->fd >= 0) shutdown(in->fd, SHUT_RDWR);
  pthread_mutex_unlock(&r->mu);
  while (r->conns) {
    inbound *in = r->conns;
    r->conns = in->next;
    pthread_join(in->thread, NULL);
    free(in);
  }
  hg_log_info("repl.close", "addr=%s", r->addr);
  repl_free(r);
}

const char *hg_repl_addr(const hg_repl *r) {
  return r->addr;
}

/* ---- metrics -------------------------------------------------------------------------
 */

void hg_repl_metrics(hg_repl *r, hg_buf *out) {
  static const char *const dirs[DIR_COUNT] = {"in", "out"};
  static const char *const results[RES_COUNT] = {"ok", "have", "refused", "failed"};
  pthread_mutex_lock(&r->mu);
  hg_buf_printf(
      out,
      "# HELP hangar_repl_sent_bytes_total Replication stream bytes sent: btrfs "
      "send (raw) and on the wire (zstd).\n"
      "# TYPE hangar_repl_sent_bytes_total counter\n"
      "hangar_repl_sent_bytes_total{kind=\"raw\"} %" PRIu64
      "\n"
      "hangar_repl_sent_bytes_total{kind=\"zstd\"} %" PRIu64
      "\n"
      "# HELP hangar_repl_received_bytes_total Replication stream bytes received.\n"
      "# TYPE hangar_repl_received_bytes_total counter\n"
      "hangar_repl_received_bytes_total{kind=\"raw\"} %" PRIu64
      "\n"
      "hangar_repl_received_bytes_total{kind=\"zstd\"} %" PRIu64
      "\n"
      "# HELP hangar_repl_streams_total Replication exchanges by direction and "
      "outcome.\n"
      "# TYPE hangar_repl_streams_total counter\n",
      r->sent_raw, r->sent_zstd, r->recv_raw, r->recv_zstd);
  for (int d = 0; d < DIR_COUNT; d++)
    for (int i = 0; i < RES_COUNT; i++)
      hg_buf_printf(
          out, "hangar_repl_streams_total{direction=\"%s\",result=\"%s\"} %" PRIu64 "\n",
          dirs[d], results[i], r->streams[d][i]);
  hg_buf_printf(
      out,
      "# HELP hangar_repl_refused_total Inbound exchanges refused or failed, by "
      "code.\n"
      "# TYPE hangar_repl_refused_total counter\n");
  for (int i = 0; i < C_COUNT; i++)
    hg_buf_printf(out, "hangar_repl_refused_total{code=\"%s\"} %" PRIu64 "\n",
                  hg__repl_codes[i].code, r->refused[i]);
  pthread_mutex_unlock(&r->mu);
}
