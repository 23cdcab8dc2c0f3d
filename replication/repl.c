/* repl: the node's replication service (repl.h, DESIGN §10).
 *
 * Threads: one accept thread, one thread per inbound connection (joined
 * by the accept thread once it is done, or by hg_repl_close), and the
 * callers' worker threads for sending and listing. Shared state - the
 * connection list, the receive slots, the per-sandbox locks and the
 * counters - is under r->mu; everything else an exchange touches is its
 * own or the store's (which is thread-safe).
 *
 * Two inbound exchanges never work on one sandbox (or template) at once:
 * the second is refused "busy" and its sender retries. That is what keeps
 * retention from deleting a parent an exchange in flight has chosen, and
 * two receives of one generation from racing to the same name. */
#include "replication/repl.h"

#include "node/core/err.h"
#include "node/core/log.h"
#include "node/core/util.h"

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

#define HG_REPL_DEFAULT_CLUSTER "hangar"
#define HG_REPL_DEFAULT_KEEP 3
#define HG_REPL_DEFAULT_RECEIVES 4
#define HG_REPL_DEFAULT_TIMEOUT_MS 30000
#define HG_REPL_LIST_MS 3000              /* a LIST: connect and answer */
/* A receive is refused up front below this much free space: a stream
 * that would fill the disk fails anyway, and late, after the transfer. */
#define HG_REPL_MIN_FREE (64ULL << 20)
/* Connections beyond max_receives still get a thread, so they can read
 * the first frame and be told "busy"; past this many more they are closed
 * unanswered. */
#define HG_REPL_EXTRA_CONNS 4
#define HG_REPL_BACKLOG 64
#define HG_REPL_FRAME_BUF (HG_RFRAME_HDR + HG_RFRAME_MAX + HG_RFRAME_MAC)
#define HG_REPL_MSG_MAX (64u * 1024) /* an encoded control message */
/* After an ERROR mid-stream: how long and how much of the sender's data
 * still in flight is read and dropped before the close. */
#define HG_REPL_DRAIN_MS 2000
#define HG_REPL_DRAIN_BYTES (64u << 20)
/* A sender whose stream was cut waits this long for the peer's ERROR. */
#define HG_REPL_ANSWER_MS 5000
#define HG_REPL_AUTH_LOG_MS 10000 /* one unauthenticated-peer line per period */
#define HG_REPL_REL_MAX 320       /* store-relative paths */
#define HG_REPL_SCAN_MAX 4096     /* generation entries read per directory */
#define HG_REPL_KEEPIDLE_S 10
#define HG_REPL_KEEPINTVL_S 5
#define HG_REPL_KEEPCNT 3

/* The codes exchanges end with (REFUSE and ERROR), err.h style. */
enum code_id {
  C_UNAUTH,
  C_OTHER_CLUSTER,
  C_STALE,
  C_UNKNOWN_PARENT,
  C_CORRUPT,
  C_NO_SPACE,
  C_BUSY,
  C_CONFLICT,
  C_BAD_REQUEST,
  C_IO,
  C_TIMEOUT,
  C_COUNT
};

/* The code and the errno a sender returns for it. */
static const struct {
  const char *code;
  int err;
} codes[C_COUNT] = {
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

enum { DIR_IN, DIR_OUT, DIR_COUNT };
enum { RES_OK, RES_HAVE, RES_REFUSED, RES_FAILED, RES_COUNT };

typedef struct inbound {
  struct inbound *next;
  hg_repl *r;
  int fd;    /* -1 once the thread closed it */
  bool done; /* the thread has finished: join it */
  pthread_t thread;
  char peer[HG_ADDR_MAX];
} inbound;

typedef struct keylock {
  struct keylock *next;
  char key[HG_REPL_NAME_MAX + 2]; /* "s/<sandbox>" or "t/<template>" */
} keylock;

struct hg_repl {
  hg_store *store;
  char node_id[HG_NODE_ID_MAX];
  char cluster[64];
  hg_rframe_keys keys;
  int level;
  unsigned keep, max_receives;
  int timeout_ms;
  uint64_t (*known_epoch)(void *ud, const char *sandbox);
  void (*on_received)(void *ud, const char *sandbox, uint64_t gen,
                      const char *template_name);
  void *ud;

  char addr[HG_ADDR_MAX];
  int lfd;  /* listening socket */
  int wake; /* eventfd: tells the accept thread to stop */
  pthread_t acceptor;

  pthread_mutex_t mu;
  pthread_cond_t cv; /* a key lock was released */
  bool closing;
  inbound *conns;
  unsigned nconns, receiving;
  keylock *locks;
  uint64_t sent_raw, sent_zstd, recv_raw, recv_zstd;
  uint64_t streams[DIR_COUNT][RES_COUNT];
  uint64_t refused[C_COUNT];
  int64_t auth_log_ms;
  uint64_t auth_suppressed;
};

/* ---- small helpers ------------------------------------------------------- */

/* Copies text into a message or a log value: no quotes, backslashes or
 * control bytes (peer and child text ends up in both). */
static void set_text(char *out, size_t cap, const char *in) {
  size_t j = 0;
  for (size_t i = 0; in[i] && j + 1 < cap; i++) {
    unsigned char c = (unsigned char)in[i];
    out[j++] = c < 0x20 || c >= 0x7f || c == '"' || c == '\\' ? ' ' : (char)c;
  }
  out[j] = '\0';
}

__attribute__((format(printf, 3, 4))) static void set_error(hg_repl_error *e, int code,
                                                            const char *fmt, ...) {
  char tmp[sizeof e->message];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(tmp, sizeof tmp, fmt, ap);
  va_end(ap);
  snprintf(e->code, sizeof e->code, "%s", codes[code].code);
  set_text(e->message, sizeof e->message, tmp);
}

static int code_index(const char *code) {
  for (int i = 0; i < C_COUNT; i++)
    if (strcmp(codes[i].code, code) == 0) return i;
  return -1;
}

/* What a sender returns for a peer's REFUSE or ERROR code. */
static int code_errno(const char *code) {
  int i = code_index(code);
  return i < 0 ? -EPROTO : -codes[i].err;
}

/* The code a sender reports for its own failures. */
static const char *local_code(int rc) {
  switch (-rc) {
    case ETIMEDOUT:
      return codes[C_TIMEOUT].code;
    case EBADMSG:
      return codes[C_UNAUTH].code;
    case ENOSPC:
      return codes[C_NO_SPACE].code;
    case ECONNREFUSED:
    case ECONNRESET:
    case ECONNABORTED:
    case EPIPE:
    case EHOSTUNREACH:
    case ENETUNREACH:
    case ENOTCONN:
    case EPROTO:
    case EIO:
      return codes[C_IO].code;
    default:
      return hg_err_classify(rc).code;
  }
}

static void count_stream(hg_repl *r, int dir, int result) {
  pthread_mutex_lock(&r->mu);
  r->streams[dir][result]++;
  pthread_mutex_unlock(&r->mu);
}

static void count_refused(hg_repl *r, const char *code) {
  int i = code_index(code);
  if (i < 0) return;
  pthread_mutex_lock(&r->mu);
  r->refused[i]++;
  pthread_mutex_unlock(&r->mu);
}

static void count_bytes(hg_repl *r, int dir, uint64_t raw, uint64_t zstd) {
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

static bool is_closing(hg_repl *r) {
  pthread_mutex_lock(&r->mu);
  bool c = r->closing;
  pthread_mutex_unlock(&r->mu);
  return c;
}

static bool sandbox_ok(const char *id) {
  return id && strnlen(id, HG_ID_MAX) < HG_ID_MAX && hg_id_valid("sb", id);
}

/* ---- per-sandbox locks and receive slots ----------------------------------- */

static keylock *key_find(hg_repl *r, const char *key) {
  for (keylock *k = r->locks; k; k = k->next)
    if (strcmp(k->key, key) == 0) return k;
  return NULL;
}

/* Takes key, or waits for it when wait; false when it is taken (!wait) or
 * out of memory. */
static bool key_take(hg_repl *r, const char *key, bool wait) {
  keylock *k = calloc(1, sizeof *k);
  if (!k) return false;
  snprintf(k->key, sizeof k->key, "%s", key);
  pthread_mutex_lock(&r->mu);
  while (wait && key_find(r, key)) pthread_cond_wait(&r->cv, &r->mu);
  bool ok = !key_find(r, key);
  if (ok) {
    k->next = r->locks;
    r->locks = k;
  }
  pthread_mutex_unlock(&r->mu);
  if (!ok) free(k);
  return ok;
}

static void key_release(hg_repl *r, const char *key) {
  keylock *found = NULL;
  pthread_mutex_lock(&r->mu);
  for (keylock **pp = &r->locks; *pp; pp = &(*pp)->next)
    if (strcmp((*pp)->key, key) == 0) {
      found = *pp;
      *pp = found->next;
      break;
    }
  pthread_cond_broadcast(&r->cv);
  pthread_mutex_unlock(&r->mu);
  free(found);
}

static bool slot_take(hg_repl *r) {
  pthread_mutex_lock(&r->mu);
  bool ok = r->receiving < r->max_receives;
  if (ok) r->receiving++;
  pthread_mutex_unlock(&r->mu);
  return ok;
}

static void slot_release(hg_repl *r) {
  pthread_mutex_lock(&r->mu);
  r->receiving--;
  pthread_mutex_unlock(&r->mu);
}

/* ---- holdings -------------------------------------------------------------- */

typedef struct gen_entry {
  uint64_t gen;
  bool owned; /* snapshots/ (our own) rather than replicas/ */
  hg_subvol_info info;
} gen_entry;

/* A generation directory name: decimal, no sign, no leading zero. */
static bool parse_gen(const char *s, uint64_t *out) {
  if (s[0] < '1' || s[0] > '9') return false;
  uint64_t v = 0;
  for (const char *p = s; *p; p++) {
    if (*p < '0' || *p > '9') return false;
    unsigned d = (unsigned)(*p - '0');
    if (v > (UINT64_MAX - d) / 10) return false;
    v = v * 10 + d;
  }
  *out = v;
  return true;
}

static const char *identity(const hg_subvol_info *i) {
  return i->received_uuid[0] ? i->received_uuid : i->uuid;
}

/* btrfs receive finds a parent by received_uuid, then by uuid: either
 * one naming the identity is the same content. */
static bool same_identity(const hg_subvol_info *i, const char *uuid) {
  return uuid[0] && (strcmp(i->received_uuid, uuid) == 0 || strcmp(i->uuid, uuid) == 0);
}

static int push_gen(gen_entry **a, size_t *n, size_t *cap, const gen_entry *e) {
  if (*n == *cap) {
    size_t ncap = *cap ? *cap * 2 : 16;
    gen_entry *na = realloc(*a, ncap * sizeof *na);
    if (!na) return -ENOMEM;
    *a = na;
    *cap = ncap;
  }
  (*a)[(*n)++] = *e;
  return 0;
}

/* Appends the read-only generation subvolumes of dir_rel ("snapshots/<id>"),
 * skipping user snapshots (named, not numbered) and anything else. */
static int scan_dir(hg_repl *r, const char *dir_rel, bool owned, gen_entry **a, size_t *n,
                    size_t *cap) {
  char abs[PATH_MAX];
  int rc = hg_store_abs(r->store, dir_rel, abs, sizeof abs);
  if (rc < 0) return rc;
  DIR *d = opendir(abs);
  if (!d) return errno == ENOENT ? 0 : -errno;
  struct dirent *de;
  size_t seen = 0;
  while (rc == 0 && seen < HG_REPL_SCAN_MAX && (de = readdir(d))) {
    gen_entry e;
    char rel[HG_REPL_REL_MAX];
    memset(&e, 0, sizeof e);
    if (!parse_gen(de->d_name, &e.gen)) continue;
    seen++;
    e.owned = owned;
    /* Checked first: subvol_info logs an error for a plain directory. */
    if (hg_path(rel, sizeof rel, "%s/%s", dir_rel, de->d_name) < 0 ||
        !hg_store_is_subvol(r->store, rel) ||
        hg_store_subvol_info(r->store, rel, &e.info) < 0 || !e.info.readonly)
      continue;
    rc = push_gen(a, n, cap, &e);
  }
  closedir(d);
  return rc;
}

static int cmp_gen_desc(const void *a, const void *b) {
  const gen_entry *x = a, *y = b;
  if (x->gen != y->gen) return x->gen < y->gen ? 1 : -1;
  return (int)y->owned - (int)x->owned;
}

/* The generations held of sandbox, newest first, one per gen (our own
 * snapshot before a replica). replicas_only: replicas/ alone (retention). */
static int gens_list(hg_repl *r, const char *sandbox, bool replicas_only, gen_entry **out,
                     size_t *n) {
  gen_entry *a = NULL;
  size_t len = 0, cap = 0;
  char dir[HG_REPL_REL_MAX];
  int rc = 0;
  if (!replicas_only && (rc = hg_path(dir, sizeof dir, "snapshots/%s", sandbox)) == 0)
    rc = scan_dir(r, dir, true, &a, &len, &cap);
  if (rc == 0 && (rc = hg_path(dir, sizeof dir, "replicas/%s", sandbox)) == 0)
    rc = scan_dir(r, dir, false, &a, &len, &cap);
  if (rc < 0) {
    free(a);
    return rc;
  }
  if (len) qsort(a, len, sizeof *a, cmp_gen_desc);
  size_t w = 0;
  for (size_t i = 0; i < len; i++)
    if (w == 0 || a[w - 1].gen != a[i].gen) a[w++] = a[i];
  *out = a;
  *n = w;
  return 0;
}

static int gen_rel(const char *sandbox, const gen_entry *e, char *out, size_t cap) {
  return hg_path(out, cap, "%s/%s/%" PRIu64, e->owned ? "snapshots" : "replicas", sandbox,
                 e->gen);
}

/* du of a directory tree (st_blocks, so holes and shared extents count as
 * they are allocated to this tree's files): a cheap size estimate. */
static uint64_t du_fd(int dfd, int depth) {
  DIR *d = fdopendir(dfd);
  if (!d) {
    close(dfd);
    return 0;
  }
  uint64_t sum = 0;
  struct dirent *de;
  while ((de = readdir(d))) {
    struct stat st;
    if (strcmp(de->d_name, ".") == 0 || strcmp(de->d_name, "..") == 0) continue;
    if (fstatat(dirfd(d), de->d_name, &st, AT_SYMLINK_NOFOLLOW) < 0) continue;
    sum += (uint64_t)st.st_blocks * 512;
    if (S_ISDIR(st.st_mode) && depth < 8) {
      int fd =
          openat(dirfd(d), de->d_name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
      if (fd >= 0) sum += du_fd(fd, depth + 1);
    }
  }
  closedir(d);
  return sum;
}

static uint64_t subvol_bytes(hg_repl *r, const char *rel) {
  char abs[PATH_MAX];
  if (hg_store_abs(r->store, rel, abs, sizeof abs) < 0) return 0;
  int fd = open(abs, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
  return fd < 0 ? 0 : du_fd(fd, 0);
}

/* replicas/<id>/epoch: the highest epoch this node accepted a stream of
 * the sandbox at; 0 when none. */
static uint64_t epoch_read(hg_repl *r, const char *sandbox) {
  char rel[HG_REPL_REL_MAX], abs[PATH_MAX], *text = NULL;
  if (hg_path(rel, sizeof rel, "replicas/%s/epoch", sandbox) < 0 ||
      hg_store_abs(r->store, rel, abs, sizeof abs) < 0 ||
      hg_read_file(abs, 64, &text, NULL) < 0)
    return 0;
  uint64_t v = strtoull(text, NULL, 10);
  free(text);
  return v;
}

static int epoch_write(hg_repl *r, const char *sandbox, uint64_t epoch) {
  char rel[HG_REPL_REL_MAX], abs[PATH_MAX], text[32];
  int rc = hg_path(rel, sizeof rel, "replicas/%s", sandbox);
  if (rc == 0) rc = hg_store_abs(r->store, rel, abs, sizeof abs);
  if (rc == 0) rc = hg_mkdir_p(abs, 0700);
  if (rc == 0) rc = hg_path(abs + strlen(abs), sizeof abs - strlen(abs), "/epoch");
  int n = snprintf(text, sizeof text, "%" PRIu64 "\n", epoch);
  if (rc == 0) rc = hg_write_file_atomic(abs, text, (size_t)n);
  if (rc < 0)
    hg_log_error("repl.epoch", "sandbox=%s epoch=%" PRIu64 " err=\"%s\"", sandbox, epoch,
                 hg_err_str(rc));
  return rc;
}

static void holdings_fill(hg_repl *r, const char *sandbox, const gen_entry *g, size_t n,
                          hg_repl_holdings *h) {
  memset(h, 0, sizeof *h);
  snprintf(h->sandbox, sizeof h->sandbox, "%s", sandbox);
  h->epoch = epoch_read(r, sandbox);
  for (size_t i = 0; i < n && h->n < HG_REPL_HOLDINGS; i++) {
    hg_repl_holding *x = &h->h[h->n++];
    char rel[HG_REPL_REL_MAX];
    x->gen = g[i].gen;
    x->created_ms = g[i].info.otime * 1000;
    snprintf(x->uuid, sizeof x->uuid, "%s", identity(&g[i].info));
    if (gen_rel(sandbox, &g[i], rel, sizeof rel) == 0) x->bytes = subvol_bytes(r, rel);
  }
}

static int holdings_of(hg_repl *r, const char *sandbox, hg_repl_holdings *h) {
  gen_entry *g;
  size_t n;
  int rc = gens_list(r, sandbox, false, &g, &n);
  if (rc < 0) return rc;
  holdings_fill(r, sandbox, g, n, h);
  free(g);
  return 0;
}

int hg_repl_newest(hg_repl *r, const char *sandbox, uint64_t *gen, char *rel, size_t cap) {
  gen_entry *g;
  size_t n;
  if (!sandbox_ok(sandbox)) return -EINVAL;
  int rc = gens_list(r, sandbox, false, &g, &n);
  if (rc < 0) return rc;
  rc = n ? gen_rel(sandbox, &g[0], rel, cap) : -ENOENT;
  if (rc == 0) *gen = g[0].gen;
  free(g);
  return rc;
}

/* Keeps the newest r->keep generations in replicas/<sandbox>. keep >= 1,
 * so the newest is never deleted. */
static void retain(hg_repl *r, const char *sandbox) {
  gen_entry *g;
  size_t n;
  if (gens_list(r, sandbox, true, &g, &n) < 0) return;
  for (size_t i = r->keep; i < n; i++) {
    char rel[HG_REPL_REL_MAX];
    if (gen_rel(sandbox, &g[i], rel, sizeof rel) < 0) continue;
    int rc = hg_store_subvol_delete(r->store, rel);
    if (rc == 0)
      hg_log_info("repl.retention", "sandbox=%s gen=%" PRIu64 " keep=%u", sandbox,
                  g[i].gen, r->keep);
  }
  free(g);
}

/* A read-only subvolume at rel, with its identity. */
static int local_subvol(hg_repl *r, const char *rel, hg_subvol_info *info) {
  if (!hg_store_is_subvol(r->store, rel)) return -ENOENT;
  int rc = hg_store_subvol_info(r->store, rel, info);
  if (rc == 0 && !info->readonly) rc = -EINVAL;
  return rc;
}

/* Our holding of (sandbox, gen): our own snapshot, else a replica. */
static int local_gen(hg_repl *r, const char *sandbox, uint64_t gen,
                     char rel[HG_REPL_REL_MAX], hg_subvol_info *info) {
  int rc = hg_path(rel, HG_REPL_REL_MAX, "snapshots/%s/%" PRIu64, sandbox, gen);
  if (rc == 0) rc = local_subvol(r, rel, info);
  if (rc != -ENOENT) return rc;
  rc = hg_path(rel, HG_REPL_REL_MAX, "replicas/%s/%" PRIu64, sandbox, gen);
  return rc < 0 ? rc : local_subvol(r, rel, info);
}

/* ---- sockets ---------------------------------------------------------------- */

static void addr_format(const struct sockaddr_storage *ss, char *out, size_t cap) {
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
static void sock_tune(int fd, int timeout_ms) {
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
  addr_format(&ss, addr, HG_ADDR_MAX);
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

static int dial(const char *hostport, int timeout_ms, int *out) {
  struct addrinfo *res;
  int rc = resolve(hostport, false, &res);
  if (rc < 0) return rc;
  int64_t deadline = hg_now_ms() + timeout_ms;
  rc = -EHOSTUNREACH;
  for (struct addrinfo *ai = res; ai; ai = ai->ai_next)
    if ((rc = connect_one(ai, deadline, out)) == 0 || rc == -ETIMEDOUT) break;
  freeaddrinfo(res);
  if (rc == 0) sock_tune(*out, timeout_ms);
  return rc;
}

/* Encodes with one of frame.h's encoders (enc_rc is its result) and
 * writes the frame; frees b. */
static int write_msg(int fd, hg_rframe_session *s, hg_rframe_type type, hg_buf *b,
                     int enc_rc, int timeout_ms) {
  int rc = enc_rc < 0 ? enc_rc : hg_rframe_write(fd, s, type, b->data, b->len, timeout_ms);
  hg_buf_free(b);
  return rc;
}

/* ---- responder ---------------------------------------------------------------- */

typedef struct xchg {
  hg_repl *r;
  int fd;
  char peer[HG_ADDR_MAX];
  hg_rframe_session s;
  uint8_t *buf;
  hg_repl_offer offer;
} xchg;

static int answer_reply(xchg *x, hg_repl_verdict v, int parent,
                        const hg_repl_error *why) {
  hg_repl_reply rep;
  hg_buf b;
  memset(&rep, 0, sizeof rep);
  rep.verdict = v;
  rep.parent = parent;
  memcpy(rep.challenge, x->s.challenge, HG_RFRAME_NONCE);
  if (why) {
    memcpy(rep.code, why->code, sizeof rep.code);
    memcpy(rep.message, why->message, sizeof rep.message);
  }
  hg_buf_init(&b, HG_REPL_MSG_MAX);
  return write_msg(x->fd, &x->s, HG_RF_REPLY, &b, hg_repl_reply_encode(&rep, &b),
                   x->r->timeout_ms);
}

static int answer_error(xchg *x, const hg_repl_error *e) {
  hg_buf b;
  hg_buf_init(&b, HG_REPL_MSG_MAX);
  return write_msg(x->fd, &x->s, HG_RF_ERROR, &b, hg_repl_error_encode(e, &b),
                   x->r->timeout_ms);
}

static int answer_holdings(xchg *x, hg_rframe_type type, const hg_repl_holdings *h) {
  hg_buf b;
  hg_buf_init(&b, HG_REPL_MSG_MAX);
  return write_msg(x->fd, &x->s, type, &b, hg_repl_holdings_encode(h, &b),
                   x->r->timeout_ms);
}

static const char *what_of(const hg_repl_offer *o, char *buf, size_t cap) {
  if (o->tmpl)
    snprintf(buf, cap, "template=%s", o->name);
  else
    snprintf(buf, cap, "sandbox=%s gen=%" PRIu64 " epoch=%" PRIu64, o->sandbox, o->gen,
             o->epoch);
  return buf;
}

/* "template", a generation number, or "none" (a full stream). */
static const char *parent_text(const hg_repl_parent *p, char *buf, size_t cap) {
  if (!p) return "none";
  if (p->tmpl) return "template";
  snprintf(buf, cap, "%" PRIu64, p->gen);
  return buf;
}

/* REFUSE: the offer is answered and nothing moves. */
__attribute__((format(printf, 3, 4))) static void refuse(xchg *x, int code,
                                                         const char *fmt, ...) {
  hg_repl_error e;
  char tmp[sizeof e.message], what[256];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(tmp, sizeof tmp, fmt, ap);
  va_end(ap);
  set_error(&e, code, "%s", tmp);
  int rc = answer_reply(x, HG_REPL_REFUSE, -1, &e);
  count_refused(x->r, e.code);
  count_stream(x->r, DIR_IN, RES_REFUSED);
  hg_log_info("repl.refused", "%s from=%s peer=%s code=%s msg=\"%s\"%s",
              what_of(&x->offer, what, sizeof what), x->offer.from, x->peer, e.code,
              e.message, rc < 0 ? " answer=failed" : "");
}

/* After an ERROR mid-stream the sender may still have DATA in flight;
 * closing with unread bytes resets the connection, which can destroy the
 * ERROR before the sender reads it. Drop what arrives until it hangs up. */
static void drain(int fd) {
  char buf[16384];
  size_t total = 0;
  int64_t end = hg_now_ms() + HG_REPL_DRAIN_MS;
  shutdown(fd, SHUT_WR);
  while (total < HG_REPL_DRAIN_BYTES) {
    int64_t left = end - hg_now_ms();
    if (left <= 0) break;
    struct pollfd p = {.fd = fd, .events = POLLIN};
    int n = poll(&p, 1, (int)left);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) break;
    ssize_t got = recv(fd, buf, sizeof buf, MSG_DONTWAIT);
    if (got < 0 && (errno == EINTR || errno == EAGAIN)) continue;
    if (got <= 0) break;
    total += (size_t)got;
  }
}

/* A failed receive, after its staging was deleted: logged, counted, and
 * told to the sender while it can still hear. */
static void recv_failed(xchg *x, const hg_repl_error *e, int rc) {
  char what[256];
  hg_log_warn("repl.recv_failed", "%s from=%s peer=%s code=%s msg=\"%s\"",
              what_of(&x->offer, what, sizeof what), x->offer.from, x->peer, e->code,
              e->message);
  count_refused(x->r, e->code);
  count_stream(x->r, DIR_IN, RES_FAILED);
  if (rc == -ECONNRESET || rc == -EPIPE) return;
  if (answer_error(x, e) == 0) drain(x->fd);
}

static int wire_error(hg_repl_error *e, int rc, int timeout_ms) {
  if (rc == -EBADMSG)
    set_error(e, C_UNAUTH,
              "a frame failed authentication (replayed, reordered or altered)");
  else if (rc == -ETIMEDOUT)
    set_error(e, C_TIMEOUT, "no data for %d ms", timeout_ms);
  else if (rc == -EPROTO)
    set_error(e, C_BAD_REQUEST, "malformed frame");
  else if (rc == -ECONNRESET || rc == -EPIPE)
    set_error(e, C_IO, "the sender went away mid-stream");
  else
    set_error(e, C_IO, "reading the stream: %s", hg_err_str(rc));
  return rc;
}

/* A failure of the receive child (or of the stream it was fed). */
static int child_error(hg_repl *r, hg_repl_error *e, int rc, const char *msg) {
  uint64_t free_bytes = UINT64_MAX;
  (void)hg_store_free_bytes(r->store, &free_bytes);
  if (rc == -ENOSPC || rc == -EDQUOT || free_bytes < HG_REPL_MIN_FREE)
    set_error(e, C_NO_SPACE, "%s", msg[0] ? msg : "no space left on the receiver");
  else if (rc == -EPROTO)
    set_error(e, C_CORRUPT, "%s", msg[0] ? msg : "corrupt stream");
  else if (strstr(msg, "parent subvol") || strstr(msg, "source subvol"))
    set_error(e, C_UNKNOWN_PARENT, "%s", msg);
  else
    set_error(e, C_IO, "%s", msg[0] ? msg : hg_err_str(rc));
  return rc;
}

typedef struct recv_state {
  char stage[64]; /* "staging/<32 hex>" */
  char name[256]; /* what btrfs receive made in it */
  uint64_t zbytes, chunks, raw;
} recv_state;

/* Feeds DATA frames to a `btrfs receive` in the staging dir until END;
 * 0 when the child made its subvolume and the totals match END. */
static int recv_stream(xchg *x, recv_state *rs, hg_repl_error *e) {
  hg_repl *r = x->r;
  char abs[PATH_MAX], msg[256];
  hg_stream_recv *rx = NULL;
  int rc = hg_store_abs(r->store, rs->stage, abs, sizeof abs);
  if (rc == 0 && mkdir(abs, 0700) < 0) rc = -errno;
  if (rc == 0) rc = hg_stream_recv_begin(abs, &rx);
  if (rc < 0) {
    set_error(e, C_IO, "staging: %s", hg_err_str(rc));
    return rc;
  }
  hg_rframe_type t;
  const uint8_t *p;
  size_t len;
  for (;;) {
    rc = hg_rframe_read(x->fd, &x->s, x->buf, HG_REPL_FRAME_BUF, &t, &p, &len,
                       r->timeout_ms);
    if (rc < 0 || t == HG_RF_END) break;
    if (t != HG_RF_DATA) {
      rc = -EPROTO;
      set_error(e, C_BAD_REQUEST, "frame type %d inside a stream", (int)t);
      hg_stream_recv_abort(rx);
      return rc;
    }
    rs->zbytes += len;
    rs->chunks++;
    if ((rc = hg_stream_recv_feed(rx, p, len)) < 0) {
      /* finish() names the cause (a full disk, the child's message) and
       * deletes what the child made. */
      rc = hg_stream_recv_finish(rx, rs->name, NULL, msg, sizeof msg);
      rs->name[0] = '\0';
      return child_error(r, e, rc < 0 ? rc : -EPROTO, msg);
    }
  }
  if (rc < 0) {
    hg_stream_recv_abort(rx);
    return wire_error(e, rc, r->timeout_ms);
  }
  hg_repl_end end;
  if (hg_repl_end_decode(p, len, &end) < 0) {
    hg_stream_recv_abort(rx);
    set_error(e, C_BAD_REQUEST, "malformed END");
    return -EPROTO;
  }
  rc = hg_stream_recv_finish(rx, rs->name, &rs->raw, msg, sizeof msg);
  if (rc < 0) {
    rs->name[0] = '\0';
    return child_error(r, e, rc, msg);
  }
  if (end.zstd_bytes != rs->zbytes || end.chunks != rs->chunks ||
      end.raw_bytes != rs->raw) {
    set_error(e, C_CORRUPT,
              "totals differ: got %" PRIu64 " raw, %" PRIu64 " zstd bytes in %" PRIu64
              " chunks; END says %" PRIu64 ", %" PRIu64 ", %" PRIu64,
              rs->raw, rs->zbytes, rs->chunks, end.raw_bytes, end.zstd_bytes, end.chunks);
    return -EPROTO;
  }
  return 0;
}

/* Verifies what the child made (the offered identity, read-only, the
 * expected name) and renames it into place. */
static int promote(xchg *x, const recv_state *rs, hg_repl_error *e) {
  hg_repl *r = x->r;
  const hg_repl_offer *o = &x->offer;
  char want[HG_REPL_NAME_MAX], src[HG_REPL_REL_MAX], dst[HG_REPL_REL_MAX];
  hg_subvol_info info;
  if (o->tmpl)
    snprintf(want, sizeof want, "%s", o->name);
  else
    snprintf(want, sizeof want, "%" PRIu64, o->gen);
  if (strcmp(rs->name, want) != 0) {
    set_error(e, C_CORRUPT, "the stream made %s, not %s", rs->name, want);
    return -EPROTO;
  }
  int rc = hg_path(src, sizeof src, "%s/%s", rs->stage, rs->name);
  if (rc == 0) rc = hg_store_subvol_info(r->store, src, &info);
  if (rc < 0) {
    set_error(e, C_IO, "reading the received subvolume: %s", hg_err_str(rc));
    return rc;
  }
  if (!info.readonly || strcmp(info.received_uuid, o->uuid) != 0) {
    set_error(e, C_CORRUPT, "received subvolume is not %s (received_uuid %s)", o->uuid,
              info.received_uuid[0] ? info.received_uuid : "none");
    return -EPROTO;
  }
  if (is_closing(r)) {
    set_error(e, C_IO, "the receiver is shutting down");
    return -ECANCELED;
  }
  if (o->tmpl) {
    rc = hg_path(dst, sizeof dst, "templates/%s", o->name);
  } else {
    rc = o->epoch > epoch_read(r, o->sandbox) ? epoch_write(r, o->sandbox, o->epoch) : 0;
    if (rc == 0)
      rc = hg_path(dst, sizeof dst, "replicas/%s/%" PRIu64, o->sandbox, o->gen);
  }
  if (rc == 0) rc = hg_store_move(r->store, src, dst);
  /* A template registered here meanwhile is the same content (the name
   * carries its digest). */
  if (rc == -EEXIST && o->tmpl) rc = 0;
  if (rc < 0) {
    set_error(e,
              rc == -EEXIST   ? C_CONFLICT
              : rc == -ENOSPC ? C_NO_SPACE
                              : C_IO,
              "promoting to %s: %s", dst, hg_err_str(rc));
    return rc;
  }
  return 0;
}

/* The exchange after REPLY{send}: stream, verify, promote, ACK. */
static void serve_stream(xchg *x, int parent) {
  hg_repl *r = x->r;
  const hg_repl_offer *o = &x->offer;
  recv_state rs;
  hg_repl_error e;
  uint8_t rnd[16];
  char hex[33];
  int64_t t0 = hg_now_ns();
  memset(&rs, 0, sizeof rs);
  memset(&e, 0, sizeof e);
  int rc = hg_random_bytes(rnd, sizeof rnd);
  hg_hex_encode(rnd, sizeof rnd, hex);
  if (rc == 0) rc = hg_path(rs.stage, sizeof rs.stage, "staging/%s", hex);
  if (rc < 0) set_error(&e, C_IO, "staging: %s", hg_err_str(rc));
  if (rc == 0) rc = recv_stream(x, &rs, &e);
  if (rc == 0) rc = promote(x, &rs, &e);
  /* Deletes the staging dir and anything in it, subvolumes included. */
  if (rs.stage[0]) (void)hg_store_subvol_delete(r->store, rs.stage);
  count_bytes(r, DIR_IN, rc == 0 ? rs.raw : 0, rs.zbytes);
  if (rc < 0) {
    recv_failed(x, &e, rc);
    return;
  }
  if (!o->tmpl) retain(r, o->sandbox);
  count_stream(r, DIR_IN, RES_OK);
  char what[256], ptext[24];
  hg_log_info("repl.received",
              "%s from=%s parent=%s raw=%" PRIu64 " zstd=%" PRIu64 " ms=%.1f",
              what_of(o, what, sizeof what), o->from,
              parent_text(parent < 0 ? NULL : &o->cands[parent], ptext, sizeof ptext),
              rs.raw, rs.zbytes, (double)(hg_now_ns() - t0) / 1e6);
  /* Before the ACK: a sender that holds an ACK knows this node has
   * taken note of the generation too. */
  if (r->on_received)
    r->on_received(r->ud, o->tmpl ? "" : o->sandbox, o->gen, o->tmpl ? o->name : NULL);
  hg_repl_holdings *h = calloc(1, sizeof *h);
  rc = h ? 0 : -ENOMEM;
  if (rc == 0 && !o->tmpl) rc = holdings_of(r, o->sandbox, h);
  if (rc == 0) {
    h->gen = o->gen;
    rc = answer_holdings(x, HG_RF_ACK, h);
  }
  free(h);
  /* Promoted and kept either way; the sender retries and hears HAVE. */
  if (rc < 0)
    hg_log_warn("repl.ack_failed", "%s from=%s err=\"%s\"", what, o->from,
                hg_err_str(rc));
}

static bool have_space(hg_repl *r) {
  uint64_t free_bytes;
  return hg_store_free_bytes(r->store, &free_bytes) < 0 || free_bytes >= HG_REPL_MIN_FREE;
}

/* The verdicts below answer REFUSE themselves and say so with
 * HG_REPL_REFUSE. */
static hg_repl_verdict judge_template(xchg *x) {
  char rel[HG_REPL_REL_MAX];
  if (hg_path(rel, sizeof rel, "templates/%s", x->offer.name) < 0) {
    refuse(x, C_BAD_REQUEST, "template name too long");
    return HG_REPL_REFUSE;
  }
  if (hg_store_is_subvol(x->r->store, rel)) return HG_REPL_HAVE;
  if (!have_space(x->r)) {
    refuse(x, C_NO_SPACE, "less than %llu MiB free", HG_REPL_MIN_FREE >> 20);
    return HG_REPL_REFUSE;
  }
  return HG_REPL_SEND;
}

/* The first candidate we hold with the same identity; -1 for none. */
static int pick_parent(xchg *x, const gen_entry *g, size_t n) {
  const hg_repl_offer *o = &x->offer;
  for (unsigned i = 0; i < o->ncands; i++) {
    const hg_repl_parent *c = &o->cands[i];
    if (c->tmpl) {
      char rel[HG_REPL_REL_MAX];
      hg_subvol_info info;
      if (o->name[0] && hg_path(rel, sizeof rel, "templates/%s", o->name) == 0 &&
          local_subvol(x->r, rel, &info) == 0 && same_identity(&info, c->uuid))
        return (int)i;
      continue;
    }
    for (size_t j = 0; j < n; j++)
      if (g[j].gen == c->gen && same_identity(&g[j].info, c->uuid)) return (int)i;
  }
  return -1;
}

/* Holding offer->gen already: HAVE when it is the same generation. A
 * different one from a lower epoch was the old owner's, superseded by a
 * newer owner's: deleted. Otherwise two owners made one generation at one
 * epoch, and neither is thrown away here. */
static hg_repl_verdict judge_held(xchg *x, const gen_entry *e, uint64_t held_epoch) {
  const hg_repl_offer *o = &x->offer;
  char rel[HG_REPL_REL_MAX];
  if (same_identity(&e->info, o->uuid)) return HG_REPL_HAVE;
  if (e->owned || o->epoch <= held_epoch) {
    refuse(x, C_CONFLICT, "holds gen %" PRIu64 " as %s (%s, epoch %" PRIu64 ")", e->gen,
           identity(&e->info), e->owned ? "own snapshot" : "replica", held_epoch);
    return HG_REPL_REFUSE;
  }
  int rc = gen_rel(o->sandbox, e, rel, sizeof rel);
  if (rc == 0) rc = hg_store_subvol_delete(x->r->store, rel);
  if (rc < 0) {
    refuse(x, C_IO, "deleting superseded gen %" PRIu64 ": %s", e->gen, hg_err_str(rc));
    return HG_REPL_REFUSE;
  }
  hg_log_info("repl.superseded",
              "sandbox=%s gen=%" PRIu64 " old=%s epoch=%" PRIu64
              " new=%s new_epoch=%" PRIu64,
              o->sandbox, e->gen, identity(&e->info), held_epoch, o->uuid, o->epoch);
  return HG_REPL_SEND;
}

static hg_repl_verdict judge_gen(xchg *x, int *parent) {
  hg_repl *r = x->r;
  const hg_repl_offer *o = &x->offer;
  if (o->gen == 0) {
    refuse(x, C_BAD_REQUEST, "generation 0");
    return HG_REPL_REFUSE;
  }
  uint64_t held = epoch_read(r, o->sandbox);
  uint64_t known = r->known_epoch ? r->known_epoch(r->ud, o->sandbox) : 0;
  uint64_t floor = held > known ? held : known;
  if (o->epoch < floor) {
    refuse(x, C_STALE, "epoch %" PRIu64 " is below %" PRIu64, o->epoch, floor);
    return HG_REPL_REFUSE;
  }
  gen_entry *g;
  size_t n;
  int rc = gens_list(r, o->sandbox, false, &g, &n);
  if (rc < 0) {
    refuse(x, C_IO, "listing holdings: %s", hg_err_str(rc));
    return HG_REPL_REFUSE;
  }
  hg_repl_verdict v = HG_REPL_SEND;
  for (size_t i = 0; i < n && v == HG_REPL_SEND; i++)
    if (g[i].gen == o->gen) v = judge_held(x, &g[i], held);
  if (v == HG_REPL_SEND) *parent = pick_parent(x, g, n);
  free(g);
  if (v == HG_REPL_SEND && !have_space(r)) {
    refuse(x, C_NO_SPACE, "less than %llu MiB free", HG_REPL_MIN_FREE >> 20);
    v = HG_REPL_REFUSE;
  }
  return v;
}

static void serve_offer(xchg *x) {
  hg_repl *r = x->r;
  const hg_repl_offer *o = &x->offer;
  char key[HG_REPL_NAME_MAX + 2];
  snprintf(key, sizeof key, "%c/%s", o->tmpl ? 't' : 's', o->tmpl ? o->name : o->sandbox);
  if (!slot_take(r)) {
    refuse(x, C_BUSY, "%u receives in progress", r->max_receives);
    return;
  }
  if (!key_take(r, key, false)) {
    slot_release(r);
    refuse(x, C_BUSY, "another exchange is receiving %s", o->tmpl ? o->name : o->sandbox);
    return;
  }
  int parent = -1;
  hg_repl_verdict v = o->tmpl ? judge_template(x) : judge_gen(x, &parent);
  if (v == HG_REPL_HAVE) {
    /* The sender's epoch is the highest seen for this sandbox now. */
    if (!o->tmpl && o->epoch > epoch_read(r, o->sandbox))
      (void)epoch_write(r, o->sandbox, o->epoch);
    (void)answer_reply(x, HG_REPL_HAVE, -1, NULL);
    count_stream(r, DIR_IN, RES_HAVE);
  } else if (v == HG_REPL_SEND) {
    int rc = answer_reply(x, HG_REPL_SEND, parent, NULL);
    if (rc == 0) {
      serve_stream(x, parent);
    } else {
      char what[256];
      count_stream(r, DIR_IN, RES_FAILED);
      hg_log_warn("repl.recv_failed", "%s from=%s peer=%s code=io_error msg=\"%s\"",
                  what_of(o, what, sizeof what), o->from, x->peer, hg_err_str(rc));
    }
  }
  key_release(r, key);
  slot_release(r);
}

static void serve_list(xchg *x) {
  hg_repl_holdings *h = calloc(1, sizeof *h);
  int rc = h ? holdings_of(x->r, x->offer.sandbox, h) : -ENOMEM;
  if (rc == 0) {
    (void)answer_holdings(x, HG_RF_LISTED, h);
  } else {
    hg_repl_error e;
    set_error(&e, C_IO, "listing holdings: %s", hg_err_str(rc));
    count_refused(x->r, e.code);
    (void)answer_error(x, &e);
  }
  free(h);
}

/* A first frame that does not authenticate is not answered: an answer
 * would only help whoever is probing. Logged at most once a period. */
static void note_unauth(hg_repl *r, const char *peer, int rc) {
  int64_t now = hg_now_ms();
  pthread_mutex_lock(&r->mu);
  r->refused[C_UNAUTH]++;
  r->streams[DIR_IN][RES_REFUSED]++;
  bool log = r->auth_log_ms == 0 || now - r->auth_log_ms >= HG_REPL_AUTH_LOG_MS;
  uint64_t suppressed = r->auth_suppressed;
  if (log) {
    r->auth_log_ms = now;
    r->auth_suppressed = 0;
  } else {
    r->auth_suppressed++;
  }
  pthread_mutex_unlock(&r->mu);
  if (log)
    hg_log_warn("repl.unauthenticated",
                "peer=%s suppressed=%" PRIu64
                " err=\"%s\" msg=\"first frame failed "
                "authentication (another cluster or a wrong key)\"",
                peer, suppressed, hg_err_str(rc));
}

static void serve(xchg *x) {
  hg_repl *r = x->r;
  hg_rframe_type t;
  const uint8_t *p;
  size_t len;
  int rc = hg_rframe_session_responder(&x->s, &r->keys);
  if (rc == 0)
    rc = hg_rframe_read(x->fd, &x->s, x->buf, HG_REPL_FRAME_BUF, &t, &p, &len,
                       r->timeout_ms);
  if (rc == -EBADMSG || rc == -EPROTO) {
    note_unauth(r, x->peer, rc);
    return;
  }
  if (rc < 0) {
    hg_log_debug("repl.conn", "peer=%s err=\"%s\"", x->peer, hg_err_str(rc));
    return;
  }
  /* An authenticated peer's malformed first frame: without its nonce
   * there is nothing an answer could be bound to. */
  if ((t != HG_RF_OFFER && t != HG_RF_LIST) ||
      hg_repl_offer_decode(p, len, &x->offer) < 0 ||
      (t == HG_RF_OFFER) != (x->offer.uuid[0] != '\0')) {
    count_refused(r, codes[C_BAD_REQUEST].code);
    hg_log_warn("repl.bad_request", "peer=%s type=%d msg=\"malformed first frame\"",
                x->peer, (int)t);
    return;
  }
  hg_rframe_session_nonce(&x->s, x->offer.nonce);
  if (strcmp(x->offer.cluster, r->cluster) != 0) {
    if (t == HG_RF_OFFER) {
      refuse(x, C_OTHER_CLUSTER, "this node is in cluster %s", r->cluster);
    } else {
      hg_repl_error e;
      set_error(&e, C_OTHER_CLUSTER, "this node is in cluster %s", r->cluster);
      count_refused(r, e.code);
      (void)answer_error(x, &e);
    }
    return;
  }
  if (t == HG_RF_LIST)
    serve_list(x);
  else
    serve_offer(x);
}

static void *inbound_main(void *arg) {
  inbound *in = arg;
  hg_repl *r = in->r;
  xchg *x = calloc(1, sizeof *x);
  uint8_t *buf = malloc(HG_REPL_FRAME_BUF);
  if (x && buf) {
    x->r = r;
    x->fd = in->fd;
    x->buf = buf;
    memcpy(x->peer, in->peer, sizeof x->peer);
    serve(x);
  }
  free(buf);
  free(x);
  pthread_mutex_lock(&r->mu);
  int fd = in->fd;
  in->fd = -1; /* hg_repl_close must not shut down a reused fd number */
  in->done = true;
  r->nconns--;
  pthread_mutex_unlock(&r->mu);
  close(fd);
  return NULL;
}

/* Joins the threads of finished connections. */
static void reap(hg_repl *r) {
  inbound *done = NULL;
  pthread_mutex_lock(&r->mu);
  for (inbound **pp = &r->conns; *pp;) {
    inbound *in = *pp;
    if (in->done) {
      *pp = in->next;
      in->next = done;
      done = in;
    } else {
      pp = &in->next;
    }
  }
  pthread_mutex_unlock(&r->mu);
  while (done) {
    inbound *next = done->next;
    pthread_join(done->thread, NULL);
    free(done);
    done = next;
  }
}

static void start_inbound(hg_repl *r, int fd, const struct sockaddr_storage *ss) {
  inbound *in = calloc(1, sizeof *in);
  char peer[HG_ADDR_MAX];
  addr_format(ss, peer, sizeof peer);
  pthread_mutex_lock(&r->mu);
  bool full = r->nconns >= r->max_receives + HG_REPL_EXTRA_CONNS;
  if (!full && in) {
    in->r = r;
    in->fd = fd;
    memcpy(in->peer, peer, sizeof peer);
    in->next = r->conns;
    r->conns = in;
    r->nconns++;
  }
  if (full) r->refused[C_BUSY]++;
  pthread_mutex_unlock(&r->mu);
  if (full || !in) {
    hg_log_warn("repl.busy", "peer=%s msg=\"too many connections, closed unanswered\"",
                peer);
    free(in);
    close(fd);
    return;
  }
  sock_tune(fd, r->timeout_ms);
  int err = pthread_create(&in->thread, NULL, inbound_main, in);
  if (err) {
    /* Never started: undo the registration (only this thread reaps). */
    pthread_mutex_lock(&r->mu);
    for (inbound **pp = &r->conns; *pp; pp = &(*pp)->next)
      if (*pp == in) {
        *pp = in->next;
        break;
      }
    r->nconns--;
    pthread_mutex_unlock(&r->mu);
    hg_log_error("repl.accept", "peer=%s err=\"%s\"", peer, hg_err_str(-err));
    close(fd);
    free(in);
  }
}

static void *accept_main(void *arg) {
  hg_repl *r = arg;
  struct pollfd p[2] = {{.fd = r->lfd, .events = POLLIN},
                        {.fd = r->wake, .events = POLLIN}};
  for (;;) {
    int n = poll(p, 2, -1);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0 || p[1].revents) break;
    if (!(p[0].revents & POLLIN)) continue;
    struct sockaddr_storage ss;
    socklen_t sl = sizeof ss;
    int fd = accept4(r->lfd, (struct sockaddr *)&ss, &sl, SOCK_CLOEXEC);
    if (fd < 0) {
      if (errno == EMFILE || errno == ENFILE || errno == ENOBUFS || errno == ENOMEM) {
        /* Out of descriptors: back off instead of spinning on the backlog. */
        hg_log_warn("repl.accept", "err=\"%s\"", hg_err_str(-errno));
        (void)poll(&p[1], 1, 100);
      }
      continue;
    }
    reap(r);
    start_inbound(r, fd, &ss);
  }
  return NULL;
}

/* ---- open / close ---------------------------------------------------------------- */

static void repl_free(hg_repl *r) {
  if (r->lfd >= 0) close(r->lfd);
  if (r->wake >= 0) close(r->wake);
  while (r->locks) {
    keylock *k = r->locks;
    r->locks = k->next;
    free(k);
  }
  pthread_cond_destroy(&r->cv);
  pthread_mutex_destroy(&r->mu);
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
  pthread_mutex_init(&r->mu, NULL);
  pthread_cond_init(&r->cv, NULL);
  int rc = repl_configure(r, cfg);
  if (rc == 0) rc = listen_open(cfg->listen, &r->lfd, r->addr);
  if (rc == 0 && (r->wake = eventfd(0, EFD_CLOEXEC)) < 0) rc = -errno;
  if (rc == 0) rc = -pthread_create(&r->acceptor, NULL, accept_main, r);
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

/* ---- sender ------------------------------------------------------------------------ */

typedef struct out_xchg {
  hg_repl *r;
  const hg_repl_target *peer;
  hg_repl_result *res;
  int fd;
  hg_rframe_session s;
  uint8_t *buf;
  int64_t t0;
  uint64_t zbytes, chunks;
  int emit_rc;     /* why emit stopped the stream */
  bool refused;    /* the peer answered REFUSE */
  bool peer_error; /* the peer answered ERROR */
  hg_stream_progress_fn progress;
  void *progress_ud;
  int dial_ms;     /* connecting; a LIST waits less than a transfer */
} out_xchg;

/* One exchange with peer, accounted in res; false when its frame buffer
 * could not be had (out_end frees what there is either way). */
static bool out_begin(out_xchg *x, hg_repl *r, const hg_repl_target *peer,
                      hg_repl_result *res) {
  memset(x, 0, sizeof *x);
  x->r = r;
  x->peer = peer;
  x->res = res;
  x->fd = -1;
  x->t0 = hg_now_ns();
  x->dial_ms = r->timeout_ms;
  x->buf = malloc(HG_REPL_FRAME_BUF);
  return x->buf != NULL;
}

static void out_end(out_xchg *x) {
  if (x->fd >= 0) close(x->fd);
  free(x->buf);
}

__attribute__((format(printf, 4, 5))) static int out_fail(out_xchg *x, int rc,
                                                          const char *code,
                                                          const char *fmt, ...) {
  char tmp[sizeof x->res->message];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(tmp, sizeof tmp, fmt, ap);
  va_end(ap);
  x->res->rc = rc;
  snprintf(x->res->code, sizeof x->res->code, "%s", code);
  set_text(x->res->message, sizeof x->res->message, tmp);
  return rc;
}

/* The peer's ERROR frame: its code and sentence become the result. */
static int out_peer_error(out_xchg *x, const uint8_t *p, size_t len) {
  hg_repl_error e;
  if (hg_repl_error_decode(p, len, &e) < 0)
    return out_fail(x, -EPROTO, codes[C_IO].code, "malformed ERROR from the peer");
  x->peer_error = true;
  return out_fail(x, code_errno(e.code), e.code, "%s", e.message);
}

/* Reads the peer's next frame, expecting type want (an ERROR instead
 * becomes the result). */
static int out_read(out_xchg *x, hg_rframe_type want, int timeout_ms, const uint8_t **p,
                    size_t *len) {
  hg_rframe_type t;
  bool first = x->s.seq_in == 0;
  int rc = hg_rframe_read(x->fd, &x->s, x->buf, HG_REPL_FRAME_BUF, &t, p, len, timeout_ms);
  if (rc == -ECONNRESET && first)
    return out_fail(
        x, rc, codes[C_IO].code,
        "the peer closed the connection without answering (another cluster or a "
        "wrong cluster key?)");
  if (rc < 0)
    return out_fail(x, rc, local_code(rc), "reading the answer: %s", hg_err_str(rc));
  if (t == HG_RF_ERROR) return out_peer_error(x, *p, *len);
  if (t != want)
    return out_fail(x, -EPROTO, codes[C_IO].code, "frame type %d where %d was due",
                    (int)t, (int)want);
  return 0;
}

/* Connects and sends the first frame (OFFER or LIST). */
static int out_open(out_xchg *x, hg_rframe_type type, hg_repl_offer *o) {
  hg_repl *r = x->r;
  int rc = dial(x->peer->addr, x->dial_ms, &x->fd);
  if (rc < 0)
    return out_fail(x, rc, local_code(rc), "connecting to %s: %s", x->peer->addr,
                    hg_err_str(rc));
  rc = hg_rframe_session_initiator(&x->s, &r->keys);
  if (rc < 0) return out_fail(x, rc, local_code(rc), "session: %s", hg_err_str(rc));
  memcpy(o->nonce, x->s.nonce, HG_RFRAME_NONCE);
  snprintf(o->cluster, sizeof o->cluster, "%s", r->cluster);
  snprintf(o->from, sizeof o->from, "%s", r->node_id);
  hg_buf b;
  hg_buf_init(&b, HG_REPL_MSG_MAX);
  rc = write_msg(x->fd, &x->s, type, &b, hg_repl_offer_encode(o, &b), r->timeout_ms);
  if (rc < 0)
    return out_fail(x, rc, local_code(rc), "sending the offer: %s", hg_err_str(rc));
  return 0;
}

/* The receiver speaks mid-stream only to say it failed (an ERROR, or a
 * hang-up): the sender stops instead of pushing the rest of the stream. */
static int emit_data(void *ud, const void *z, size_t len) {
  out_xchg *x = ud;
  struct pollfd p = {.fd = x->fd, .events = POLLIN};
  int rc = poll(&p, 1, 0) > 0 ? -ECANCELED : 0;
  if (rc == 0) rc = hg_rframe_write(x->fd, &x->s, HG_RF_DATA, z, len, x->r->timeout_ms);
  if (rc < 0) return x->emit_rc = rc;
  x->zbytes += len;
  x->chunks++;
  return 0;
}

static void emit_progress(void *ud, const hg_stream_stats *st) {
  out_xchg *x = ud;
  if (x->progress) x->progress(x->progress_ud, st);
}

/* DATA… END, then the ACK with the peer's holdings. */
static int out_stream(out_xchg *x, const char *src_rel, const char *parent_rel) {
  hg_repl *r = x->r;
  char src[PATH_MAX], parent[PATH_MAX];
  int rc = hg_store_abs(r->store, src_rel, src, sizeof src);
  if (rc == 0 && parent_rel)
    rc = hg_store_abs(r->store, parent_rel, parent, sizeof parent);
  if (rc < 0) return out_fail(x, rc, local_code(rc), "path: %s", hg_err_str(rc));
  hg_stream_stats st;
  rc = hg_stream_send(src, parent_rel ? parent : NULL, r->level, emit_data, emit_progress,
                      x, &st);
  x->res->raw_bytes = st.raw_bytes;
  x->res->zstd_bytes = x->zbytes;
  count_bytes(r, DIR_OUT, st.raw_bytes, x->zbytes);
  if (rc < 0 && x->emit_rc) {
    const uint8_t *p;
    size_t len;
    hg_rframe_type t;
    if (hg_rframe_read(x->fd, &x->s, x->buf, HG_REPL_FRAME_BUF, &t, &p, &len,
                      HG_REPL_ANSWER_MS) == 0 &&
        t == HG_RF_ERROR)
      return out_peer_error(x, p, len);
    rc = x->emit_rc == -ECANCELED ? -ECONNRESET : x->emit_rc;
    return out_fail(x, rc, local_code(rc), "sending the stream: %s", hg_err_str(rc));
  }
  if (rc < 0) return out_fail(x, rc, local_code(rc), "btrfs send: %s", hg_err_str(rc));
  hg_repl_end end = {
      .raw_bytes = st.raw_bytes, .zstd_bytes = x->zbytes, .chunks = x->chunks};
  hg_buf b;
  hg_buf_init(&b, HG_REPL_MSG_MAX);
  rc =
      write_msg(x->fd, &x->s, HG_RF_END, &b, hg_repl_end_encode(&end, &b), r->timeout_ms);
  if (rc < 0) return out_fail(x, rc, local_code(rc), "sending END: %s", hg_err_str(rc));
  const uint8_t *p;
  size_t len;
  rc = out_read(x, HG_RF_ACK, r->timeout_ms, &p, &len);
  if (rc < 0) return rc;
  if (hg_repl_holdings_decode(p, len, &x->res->held) < 0)
    return out_fail(x, -EPROTO, codes[C_IO].code, "malformed ACK");
  return 0;
}

/* OFFER, REPLY, and the stream when the peer asks for it. paths[i] is
 * the store path of o->cands[i]. */
static int out_offer(out_xchg *x, hg_repl_offer *o, char (*paths)[HG_REPL_REL_MAX],
                     const char *src_rel) {
  const uint8_t *p;
  size_t len;
  hg_repl_reply rep;
  int rc = out_open(x, HG_RF_OFFER, o);
  if (rc == 0) rc = out_read(x, HG_RF_REPLY, x->r->timeout_ms, &p, &len);
  if (rc < 0) return rc;
  if (hg_repl_reply_decode(p, len, &rep) < 0)
    return out_fail(x, -EPROTO, codes[C_IO].code, "malformed REPLY");
  hg_rframe_session_challenge(&x->s, rep.challenge);
  if (rep.verdict == HG_REPL_HAVE) {
    x->res->had = true;
    return 0;
  }
  x->refused = rep.verdict == HG_REPL_REFUSE;
  if (x->refused) return out_fail(x, code_errno(rep.code), rep.code, "%s", rep.message);
  if (rep.parent >= (int)o->ncands)
    return out_fail(x, -EPROTO, codes[C_IO].code, "the peer chose parent %d of %u",
                    rep.parent, o->ncands);
  const char *parent = NULL;
  if (rep.parent >= 0) {
    parent = paths[rep.parent];
    x->res->parent_template = o->cands[rep.parent].tmpl;
    x->res->parent_gen = o->cands[rep.parent].gen;
  }
  return out_stream(x, src_rel, parent);
}

static void res_init(hg_repl_result *res, const hg_repl_target *peer) {
  memset(res, 0, sizeof *res);
  if (peer) snprintf(res->node, sizeof res->node, "%s", peer->node);
}

/* Runs one sending exchange and accounts for it. */
static int out_run(hg_repl *r, const hg_repl_target *peer, hg_repl_offer *o,
                   char (*paths)[HG_REPL_REL_MAX], const char *src_rel,
                   hg_stream_progress_fn progress, void *ud, hg_repl_result *res) {
  out_xchg x;
  bool ok = out_begin(&x, r, peer, res);
  x.progress = progress;
  x.progress_ud = ud;
  int rc = ok ? out_offer(&x, o, paths, src_rel)
              : out_fail(&x, -ENOMEM, local_code(-ENOMEM), "out of memory");
  out_end(&x);
  res->rc = rc;
  res->ms = (double)(hg_now_ns() - x.t0) / 1e6;
  char what[256];
  what_of(o, what, sizeof what);
  if (rc == 0) {
    hg_repl_parent p = {.gen = res->parent_gen, .tmpl = res->parent_template};
    char ptext[24];
    count_stream(r, DIR_OUT, res->had ? RES_HAVE : RES_OK);
    hg_log_info("repl.sent",
                "%s to=%s had=%d parent=%s raw=%" PRIu64 " zstd=%" PRIu64 " ms=%.1f",
                what, peer->node, res->had,
                parent_text(p.tmpl || p.gen ? &p : NULL, ptext, sizeof ptext),
                res->raw_bytes, res->zstd_bytes, res->ms);
  } else {
    count_stream(r, DIR_OUT, x.refused ? RES_REFUSED : RES_FAILED);
    hg_log_warn("repl.send_failed", "%s to=%s addr=%s code=%s msg=\"%s\"", what,
                peer->node, peer->addr, res->code, res->message);
  }
  return rc;
}

int hg_repl_send_gen(hg_repl *r, const hg_repl_target *peer, const char *sandbox,
                     uint64_t epoch, uint64_t gen, const char *tmpl,
                     hg_stream_progress_fn progress, void *ud, hg_repl_result *res) {
  res_init(res, peer);
  if (!peer || !sandbox_ok(sandbox) || gen == 0 || (tmpl && !hg_repl_name_ok(tmpl))) {
    res->rc = -EINVAL;
    snprintf(res->code, sizeof res->code, "bad_request");
    snprintf(res->message, sizeof res->message,
             "invalid sandbox, generation or template");
    return res->rc;
  }
  hg_repl_offer *o = calloc(1, sizeof *o);
  char(*paths)[HG_REPL_REL_MAX] = calloc(HG_REPL_CANDIDATES + 1, HG_REPL_REL_MAX);
  gen_entry *g = NULL;
  size_t n = 0;
  hg_subvol_info info;
  int rc = o && paths ? 0 : -ENOMEM;
  if (rc == 0) rc = local_gen(r, sandbox, gen, paths[HG_REPL_CANDIDATES], &info);
  if (rc == 0) rc = gens_list(r, sandbox, false, &g, &n);
  if (rc < 0) {
    res->rc = rc;
    snprintf(res->code, sizeof res->code, "%s", local_code(rc));
    snprintf(res->message, sizeof res->message, "local gen %" PRIu64 " of %s: %s", gen,
             sandbox, hg_err_str(rc));
    hg_log_warn("repl.send_failed", "sandbox=%s gen=%" PRIu64 " to=%s code=%s msg=\"%s\"",
                sandbox, gen, peer->node, res->code, res->message);
    free(o);
    free(paths);
    return rc;
  }
  snprintf(o->sandbox, sizeof o->sandbox, "%s", sandbox);
  o->epoch = epoch;
  o->gen = gen;
  snprintf(o->uuid, sizeof o->uuid, "%s", identity(&info));
  if (tmpl) snprintf(o->name, sizeof o->name, "%s", tmpl);
  /* Parents, best first: our generations below gen, newest first (the
   * smallest difference), then the template it was made from. */
  for (size_t i = 0; i < n && o->ncands < HG_REPL_CANDIDATES - 1; i++) {
    if (g[i].gen >= gen || gen_rel(sandbox, &g[i], paths[o->ncands], HG_REPL_REL_MAX) < 0)
      continue;
    hg_repl_parent *c = &o->cands[o->ncands++];
    c->gen = g[i].gen;
    snprintf(c->uuid, sizeof c->uuid, "%s", identity(&g[i].info));
  }
  hg_subvol_info ti;
  if (tmpl && hg_path(paths[o->ncands], HG_REPL_REL_MAX, "templates/%s", tmpl) == 0 &&
      local_subvol(r, paths[o->ncands], &ti) == 0) {
    hg_repl_parent *c = &o->cands[o->ncands++];
    c->tmpl = true;
    snprintf(c->uuid, sizeof c->uuid, "%s", identity(&ti));
  }
  free(g);
  rc = out_run(r, peer, o, paths, paths[HG_REPL_CANDIDATES], progress, ud, res);
  /* The peer holds the parent but btrfs receive could not use it (a copy
   * made before generations carried their identity as received_uuid, or one
   * changed under it): once more as a full stream, which needs nothing. */
  if (rc < 0 && o->ncands && !strcmp(res->code, "unknown_parent")) {
    hg_log_warn("repl.full_retry", "sandbox=%s gen=%" PRIu64 " to=%s msg=\"%s\"", sandbox, gen,
                peer->node, res->message);
    o->ncands = 0;
    res_init(res, peer);
    rc = out_run(r, peer, o, paths, paths[HG_REPL_CANDIDATES], progress, ud, res);
  }
  free(o);
  free(paths);
  return rc;
}

int hg_repl_send_template(hg_repl *r, const hg_repl_target *peer, const char *tmpl,
                          hg_repl_result *res) {
  res_init(res, peer);
  char src[HG_REPL_REL_MAX];
  hg_subvol_info info;
  int rc = peer && hg_repl_name_ok(tmpl) ? 0 : -EINVAL;
  if (rc == 0) rc = hg_path(src, sizeof src, "templates/%s", tmpl);
  if (rc == 0) rc = local_subvol(r, src, &info);
  if (rc < 0) {
    res->rc = rc;
    snprintf(res->code, sizeof res->code, "%s", local_code(rc));
    snprintf(res->message, sizeof res->message, "local template %s: %s", tmpl ? tmpl : "",
             hg_err_str(rc));
    hg_log_warn("repl.send_failed", "template=%s to=%s code=%s msg=\"%s\"",
                tmpl ? tmpl : "", peer ? peer->node : "", res->code, res->message);
    return rc;
  }
  hg_repl_offer *o = calloc(1, sizeof *o);
  if (!o) return res->rc = -ENOMEM;
  o->tmpl = true;
  snprintf(o->name, sizeof o->name, "%s", tmpl);
  snprintf(o->uuid, sizeof o->uuid, "%s", identity(&info));
  rc = out_run(r, peer, o, NULL, src, NULL, NULL, res);
  free(o);
  return rc;
}

int hg_repl_list(hg_repl *r, const hg_repl_target *peer, const char *sandbox,
                 hg_repl_holdings *out, char *msg, size_t msgcap) {
  if (msg && msgcap) msg[0] = '\0';
  if (!peer || !sandbox_ok(sandbox)) return -EINVAL;
  hg_repl_result *res = calloc(1, sizeof *res);
  hg_repl_offer *o = calloc(1, sizeof *o);
  out_xchg x;
  int rc = out_begin(&x, r, peer, res) && res && o ? 0 : -ENOMEM;
  const uint8_t *p;
  size_t len;
  /* GET …/replicas asks every peer in turn: a silent one must not hold it */
  x.dial_ms = r->timeout_ms < HG_REPL_LIST_MS ? r->timeout_ms : HG_REPL_LIST_MS;
  if (rc == 0) {
    snprintf(o->sandbox, sizeof o->sandbox, "%s", sandbox);
    rc = out_open(&x, HG_RF_LIST, o);
  }
  if (rc == 0) rc = out_read(&x, HG_RF_LISTED, x.dial_ms, &p, &len);
  if (rc == 0 && (hg_repl_holdings_decode(p, len, &res->held) < 0 ||
                  strcmp(res->held.sandbox, sandbox) != 0))
    rc = out_fail(&x, -EPROTO, codes[C_IO].code, "malformed LISTED");
  if (rc == 0) memcpy(out, &res->held, sizeof *out);
  if (rc < 0 && res) {
    /* The peer's refusals come back as -EACCES (auth) or -EPROTO. */
    if (x.peer_error && rc != -EACCES) rc = -EPROTO;
    if (msg && msgcap) snprintf(msg, msgcap, "%s: %s", res->code, res->message);
    hg_log_warn("repl.list_failed", "sandbox=%s to=%s code=%s msg=\"%s\"", sandbox,
                peer->node, res->code, res->message);
  }
  out_end(&x);
  free(o);
  free(res);
  return rc;
}

int hg_repl_local(hg_repl *r, const char *sandbox, hg_repl_holdings *out) {
  if (!sandbox_ok(sandbox)) return -EINVAL;
  hg_repl_holdings *h = calloc(1, sizeof *h);
  if (!h) return -ENOMEM;
  int rc = holdings_of(r, sandbox, h);
  if (rc == 0) memcpy(out, h, sizeof *out);
  free(h);
  return rc;
}

int hg_repl_drop(hg_repl *r, const char *sandbox) {
  if (!sandbox_ok(sandbox)) return -EINVAL;
  char key[HG_REPL_NAME_MAX + 2], rel[HG_REPL_REL_MAX], abs[PATH_MAX];
  snprintf(key, sizeof key, "s/%s", sandbox);
  int rc = hg_path(rel, sizeof rel, "replicas/%s", sandbox);
  if (rc == 0) rc = hg_store_abs(r->store, rel, abs, sizeof abs);
  if (rc < 0) return rc;
  /* Waits for a receive of the sandbox in progress, which would
   * otherwise bring the directory back. */
  if (!key_take(r, key, true)) return -ENOMEM;
  bool had = access(abs, F_OK) == 0;
  rc = had ? hg_store_subvol_delete(r->store, rel) : 0;
  key_release(r, key);
  if (had && rc == 0) hg_log_info("repl.drop", "sandbox=%s", sandbox);
  return rc;
}

int hg_repl_replica_ids(hg_repl *r, char (**ids)[HG_ID_MAX], size_t *n) {
  char abs[PATH_MAX];
  int rc = hg_store_abs(r->store, "replicas", abs, sizeof abs);
  if (rc < 0) return rc;
  DIR *d = opendir(abs);
  if (!d) return -errno;
  char(*a)[HG_ID_MAX] = NULL;
  size_t len = 0, cap = 0;
  struct dirent *de;
  while (rc == 0 && (de = readdir(d))) {
    if (!sandbox_ok(de->d_name)) continue;
    if (len == cap) {
      size_t ncap = cap ? cap * 2 : 16;
      char(*na)[HG_ID_MAX] = realloc(a, ncap * sizeof *na);
      if (!na) {
        rc = -ENOMEM;
        break;
      }
      a = na;
      cap = ncap;
    }
    snprintf(a[len++], HG_ID_MAX, "%s", de->d_name);
  }
  closedir(d);
  if (rc < 0) {
    free(a);
    return rc;
  }
  *ids = a;
  *n = len;
  return 0;
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
                  codes[i].code, r->refused[i]);
  pthread_mutex_unlock(&r->mu);
}
