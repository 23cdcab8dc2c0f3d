/* bench_gateway: what the egress gateway costs a sandbox's traffic, beside
 * the same traffic going direct, measured in the same run.
 *
 *   bench_gateway [--runs N] [--rounds R] [--seconds S] [--clients K]
 *                 [--download-mib M] [--attach-runs A] [--bench-netns PATH] [--json FILE]
 *
 * A TCG guest would measure the emulator, so the "guest" is a network
 * namespace joined to the sandbox's namespace by a veth in the tap's place
 * (gateway/gateway_test.h); the "internet" is the fake one of the
 * integration tests (tests/integration/fakenet.h), which the root
 * namespace reaches over a veth of its own.
 *
 *   proxy   guest netns -> veth -> gateway (nft redirect, L7 proxy) -> root netns ->
 * fakenet direct  root netns -> fakenet (the path the gateway's own dial takes)
 *
 * Figures, proxy beside direct, runs alternating so both see the same
 * machine: a new connection with one HTTP request (connect to the last
 * byte), a new TLS handshake (connect to handshake done), both p50/p90
 * over N runs (issue target: added latency <= 1 ms); a download of M MiB
 * (default 1024) over HTTP, R rounds, median (target >= 70% of direct);
 * connections per second with K clients for S seconds, R rounds; and the
 * gateway's attach + detach of one sandbox network (namespace, tap, rules,
 * listeners), A runs, beside bench_netns's figures for the namespace +
 * tap + rules alone and for `ip netns add + del` (bench_netns is run as
 * a child; it sits next to this binary, or give --bench-netns).
 *
 * Needs root, `ip`, `nft`, `nsenter`. Everything it makes (namespaces,
 * veths, routes, temp dirs) goes at exit, also on failure. */
#include <arpa/inet.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <jansson.h>
#include <libgen.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <openssl/ssl.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <spawn.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include "gateway/gateway.h"
#include "gateway/gateway_test.h"
#include "gateway/netns.h"
#include "node/core/err.h"
#include "node/core/log.h"
#include "node/core/proc.h"
#include "node/core/util.h"
#include "tests/integration/fakenet.h"
#include "tools/bench/bench_util.h"

#define TARGET_ADDED_MS 1.0
#define TARGET_TPUT 0.70
#define SANDBOX "sb-bench-gw"
#define HOST "allowed.test"

extern char **environ;

static struct {
  int runs, rounds, seconds, clients, download_mib, attach_runs;
  const char *json, *bench_netns;
} opt = {200, 2, 3, 4, 1024, 20, NULL, NULL};

static fakenet *fn;
static hg_gateway *gw;
static char dir[64], netns_dir[96], state_dir[96], guest[48];
static int guest_fd = -1, root_fd = -1;
static SSL_CTX *tls;

/* ---- statistics ------------------------------------------------------------------- */

typedef struct series {
  double *ms;
  int n;
} series;

static double pct(series *s, double p) {
  return bench_pct(s->ms, s->n, p);
}

static void die(const char *what, int rc) {
  fprintf(stderr, "bench_gateway: %s: %s\n", what, hg_err_str(rc));
  exit(1);
}

/* ---- namespaces -------------------------------------------------------------------- */

static int sh(const char *cmd) {
  int st = system(cmd);
  return st == 0 ? 0 : -EIO;
}

static void cleanup(void) {
  if (gw) {
    hg_gateway_detach(gw, SANDBOX);
    hg_gateway_stop(gw);
    gw = NULL;
  }
  if (netns_dir[0]) {
    hg_netns_dir_release(netns_dir);
    rmdir(netns_dir);
  }
  if (guest[0]) {
    char cmd[128];
    snprintf(cmd, sizeof cmd, "ip netns del %s 2>/dev/null", guest);
    sh(cmd);
    guest[0] = '\0';
  }
  if (dir[0]) {
    hg_rm_rf(dir);
    dir[0] = '\0';
  }
  fakenet_stop(fn);
  fn = NULL;
}

/* The calling thread into a namespace (per thread: the gateway's thread
 * and fakenet's stay where they are). */
static void enter(int nsfd) {
  if (setns(nsfd, CLONE_NEWNET) < 0) die("setns", -errno);
}

/* ---- one client connection
 * ------------------------------------------------------------- */

static int dial(const char *ip, int port) {
  int fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
  if (fd < 0) return -errno;
  int one = 1;
  setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
  struct timeval tv = {.tv_sec = 30};
  setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof tv);
  struct sockaddr_in sa = {.sin_family = AF_INET, .sin_port = htons((uint16_t)port)};
  inet_pton(AF_INET, ip, &sa.sin_addr);
  if (connect(fd, (struct sockaddr *)&sa, sizeof sa) < 0) {
    int rc = -errno;
    close(fd);
    return rc;
  }
  return fd;
}

/* GET path with Connection: close, read to EOF; returns body+head bytes or
 * a negative errno. */
static int64_t http_get(const char *path, size_t bufsize) {
  int fd = dial(FAKENET_WEB, 80);
  if (fd < 0) return fd;
  char req[256];
  int n =
      snprintf(req, sizeof req,
               "GET %s HTTP/1.1\r\nHost: " HOST "\r\nConnection: close\r\n\r\n", path);
  if (send(fd, req, (size_t)n, MSG_NOSIGNAL) != n) {
    close(fd);
    return -EIO;
  }
  static _Thread_local char *buf;
  static _Thread_local size_t cap;
  if (cap < bufsize) {
    free(buf);
    buf = malloc(bufsize);
    cap = buf ? bufsize : 0;
    if (!buf) return -ENOMEM;
  }
  int64_t total = 0;
  ssize_t k;
  while ((k = recv(fd, buf, cap, 0)) > 0) total += k;
  close(fd);
  return k < 0 ? -errno : total;
}

/* The same over TLS (SNI HOST): through the proxy this is its L4 relay
 * path once the ClientHello is checked. */
static int64_t https_get(const char *path, size_t bufsize) {
  int fd = dial(FAKENET_WEB, 443);
  if (fd < 0) return fd;
  SSL *s = SSL_new(tls);
  SSL_set_fd(s, fd);
  SSL_set_tlsext_host_name(s, HOST);
  int64_t total = -EPROTO;
  char req[256];
  int n =
      snprintf(req, sizeof req,
               "GET %s HTTP/1.1\r\nHost: " HOST "\r\nConnection: close\r\n\r\n", path);
  char *buf = malloc(bufsize);
  if (buf && SSL_connect(s) == 1 && SSL_write(s, req, n) == n) {
    total = 0;
    int k;
    while ((k = SSL_read(s, buf, (int)bufsize)) > 0) total += k;
  }
  free(buf);
  SSL_free(s);
  close(fd);
  return total;
}

static int tls_handshake(void) {
  int fd = dial(FAKENET_WEB, 443);
  if (fd < 0) return fd;
  SSL *s = SSL_new(tls);
  SSL_set_fd(s, fd);
  SSL_set_tlsext_host_name(s, HOST);
  int rc = SSL_connect(s) == 1 ? 0 : -EPROTO;
  SSL_free(s);
  close(fd);
  return rc;
}

/* An A query to the gateway's responder from the guest: the proxy lets a
 * connection through only to an address it handed out for the name. */
static int resolve_in_guest(void) {
  uint8_t q[64] = {0x12, 0x34, 0x01, 0x00, 0x00, 0x01}, a[512];
  size_t o = 12;
  for (const char *l = HOST; *l;) {
    size_t len = strcspn(l, ".");
    q[o++] = (uint8_t)len;
    memcpy(q + o, l, len);
    o += len;
    l += len + (l[len] == '.');
  }
  q[o++] = 0, q[o++] = 0, q[o++] = 1, q[o++] = 0, q[o++] = 1;
  int fd = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
  struct timeval tv = {.tv_sec = 2};
  setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof tv);
  struct sockaddr_in sa = {.sin_family = AF_INET, .sin_port = htons(53)};
  inet_pton(AF_INET, "10.0.2.1", &sa.sin_addr);
  ssize_t n = -1;
  if (sendto(fd, q, o, 0, (struct sockaddr *)&sa, sizeof sa) > 0)
    n = recv(fd, a, sizeof a, 0);
  close(fd);
  return n > 12 && (a[3] & 0x0f) == 0 && (a[6] | a[7]) ? 0 : -ENOENT;
}

/* ---- the measurements -------------------------------------------------------------- */

enum { PROXY, DIRECT };

static void enter_mode(int mode) {
  enter(mode == PROXY ? guest_fd : root_fd);
  if (mode == PROXY && resolve_in_guest() < 0) die("DNS through the gateway", -ENOENT);
}

typedef struct latency {
  series http[2], tls[2];
} latency;

static void *latency_thread(void *arg) {
  latency *l = arg;
  int64_t last_dns = 0;
  for (int i = 0; i < opt.runs; i++) {
    for (int k = 0; k < 2; k++) {
      int mode = (i + k) % 2; /* alternate which goes first */
      enter(mode == PROXY ? guest_fd : root_fd);
      if (mode == PROXY && hg_now_ms() - last_dns > 2000) {
        if (resolve_in_guest() < 0) die("DNS through the gateway", -ENOENT);
        last_dns = hg_now_ms();
      }
      int64_t t0 = hg_now_ns();
      int64_t got = http_get("/", 4096);
      int64_t t1 = hg_now_ns();
      if (got <= 0) die(mode == PROXY ? "GET through the proxy" : "GET direct", (int)got);
      int rc = tls_handshake();
      int64_t t2 = hg_now_ns();
      if (rc < 0) die(mode == PROXY ? "TLS through the proxy" : "TLS direct", rc);
      l->http[mode].ms[l->http[mode].n++] = bench_ms(t0, t1);
      l->tls[mode].ms[l->tls[mode].n++] = bench_ms(t1, t2);
    }
  }
  return NULL;
}

/* CPU time (s) of the whole process, and of the gateway's threads. */
static pid_t gw_tids[8];
static int n_gw_tids;

static double proc_cpu_s(void) {
  struct rusage ru;
  getrusage(RUSAGE_SELF, &ru);
  return (double)(ru.ru_utime.tv_sec + ru.ru_stime.tv_sec) +
         (double)(ru.ru_utime.tv_usec + ru.ru_stime.tv_usec) / 1e6;
}

static double tid_cpu_s(pid_t tid) {
  hg_proc_stat ps;
  if (hg_proc_stat_read((int)tid, &ps) < 0) return 0;
  return (double)(ps.utime + ps.stime) / (double)sysconf(_SC_CLK_TCK);
}

static double gw_cpu_s(void) {
  double t = 0;
  for (int i = 0; i < n_gw_tids; i++) t += tid_cpu_s(gw_tids[i]);
  return t;
}

/* The threads of this process, into tids (at most max). */
static int list_tids(pid_t *tids, int max) {
  DIR *d = opendir("/proc/self/task");
  int n = 0;
  struct dirent *e;
  while (d && (e = readdir(d)) && n < max)
    if (atoi(e->d_name) > 0) tids[n++] = atoi(e->d_name);
  if (d) closedir(d);
  return n;
}

typedef struct download {
  series mbs[2], cpu[2], gw_cpu; /* per round; CPU s per GiB */
  series tls_mbs[2];
} download;

static void *download_thread(void *arg) {
  download *d = arg;
  char path[64];
  uint64_t want = (uint64_t)opt.download_mib << 20;
  double gib = (double)want / (double)(1u << 30);
  snprintf(path, sizeof path, "/zero/%llu", (unsigned long long)want);
  for (int r = 0; r < opt.rounds; r++) {
    for (int k = 0; k < 2; k++) {
      int mode = (r + k) % 2;
      enter_mode(mode);
      double c0 = proc_cpu_s(), g0 = gw_cpu_s();
      int64_t t0 = hg_now_ns();
      int64_t got = http_get(path, 1u << 20);
      int64_t t1 = hg_now_ns();
      double c1 = proc_cpu_s(), g1 = gw_cpu_s();
      if (got < (int64_t)want) die("download", got < 0 ? (int)got : -EPIPE);
      d->mbs[mode].ms[d->mbs[mode].n++] = (double)want / 1e6 / ((double)(t1 - t0) / 1e9);
      d->cpu[mode].ms[d->cpu[mode].n++] = (c1 - c0) / gib;
      if (mode == PROXY) d->gw_cpu.ms[d->gw_cpu.n++] = (g1 - g0) / gib;
      t0 = hg_now_ns();
      got = https_get(path, 1u << 20);
      t1 = hg_now_ns();
      if (got < (int64_t)want) die("download over TLS", got < 0 ? (int)got : -EPIPE);
      d->tls_mbs[mode].ms[d->tls_mbs[mode].n++] =
          (double)want / 1e6 / ((double)(t1 - t0) / 1e9);
    }
  }
  return NULL;
}

typedef struct cps_arg {
  int nsfd;
  int64_t deadline_ns;
  atomic_long *done;
  atomic_long *errors;
} cps_arg;

static void *cps_client(void *arg) {
  cps_arg *a = arg;
  enter(a->nsfd);
  while (hg_now_ns() < a->deadline_ns) {
    if (http_get("/", 4096) > 0)
      atomic_fetch_add(a->done, 1);
    else
      atomic_fetch_add(a->errors, 1);
  }
  return NULL;
}

static double cps_round(int mode, long *errors) {
  atomic_long done = 0, errs = 0;
  pthread_t th[64];
  cps_arg a = {
      .nsfd = mode == PROXY ? guest_fd : root_fd, .done = &done, .errors = &errs};
  a.deadline_ns = hg_now_ns() + (int64_t)opt.seconds * 1000000000;
  int64_t t0 = hg_now_ns();
  for (int i = 0; i < opt.clients; i++) pthread_create(&th[i], NULL, cps_client, &a);
  for (int i = 0; i < opt.clients; i++) pthread_join(th[i], NULL);
  *errors += atomic_load(&errs);
  return (double)atomic_load(&done) / ((double)(hg_now_ns() - t0) / 1e9);
}

static void *resolve_thread(void *arg) {
  enter(guest_fd);
  *(int *)arg = resolve_in_guest();
  return NULL;
}

static void run_thread(void *(*fn_)(void *), void *arg) {
  pthread_t th;
  if (pthread_create(&th, NULL, fn_, arg) != 0) die("pthread_create", -EAGAIN);
  pthread_join(th, NULL);
}

/* bench_netns's p50s for its setup + teardown and its iproute2 baseline. */
static int bench_netns_figures(const char *prog, double *hangar, double *ip) {
  char path[4096], json[128];
  if (opt.bench_netns)
    snprintf(path, sizeof path, "%s", opt.bench_netns);
  else {
    char self[4096];
    snprintf(self, sizeof self, "%s", prog);
    snprintf(path, sizeof path, "%s/bench_netns", dirname(self));
  }
  if (access(path, X_OK) != 0) return -ENOENT;
  snprintf(json, sizeof json, "%s/bench_netns.json", dir);
  char runs[16], nsdir[128];
  snprintf(runs, sizeof runs, "%d", opt.attach_runs);
  snprintf(nsdir, sizeof nsdir, "%s/netns-b", dir);
  char *argv[] = {path, "--runs", runs, "--dir", nsdir, "--json", json, NULL};
  pid_t pid;
  int devnull = open("/dev/null", O_WRONLY | O_CLOEXEC);
  posix_spawn_file_actions_t fa;
  posix_spawn_file_actions_init(&fa);
  posix_spawn_file_actions_adddup2(&fa, devnull, 1);
  int rc = posix_spawn(&pid, path, &fa, NULL, argv, environ);
  posix_spawn_file_actions_destroy(&fa);
  close(devnull);
  if (rc != 0) return -rc;
  int st;
  waitpid(pid, &st, 0);
  if (!WIFEXITED(st) || WEXITSTATUS(st) != 0) return -EIO;
  json_t *j = json_load_file(json, 0, NULL);
  size_t i;
  json_t *s;
  json_array_foreach(json_object_get(j, "series"), i, s) {
    const char *name = json_string_value(json_object_get(s, "name"));
    double v = json_real_value(json_object_get(s, "p50_ms"));
    if (name && !strcmp(name, "hangar setup + teardown")) *hangar = v;
    if (name && !strcmp(name, "ip netns add + del (baseline)")) *ip = v;
  }
  json_decref(j);
  return 0;
}

static void usage(void) {
  fprintf(stderr,
          "usage: bench_gateway [--runs N] [--rounds R] [--seconds S] [--clients K] "
          "[--download-mib M] [--attach-runs A] [--bench-netns PATH] [--json FILE]\n");
  exit(2);
}

static void parse(int argc, char **argv) {
  for (int i = 1; i < argc; i++) {
    const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
    if (!v) usage();
    i++;
    if (!strcmp(a, "--runs"))
      opt.runs = atoi(v);
    else if (!strcmp(a, "--rounds"))
      opt.rounds = atoi(v);
    else if (!strcmp(a, "--seconds"))
      opt.seconds = atoi(v);
    else if (!strcmp(a, "--clients"))
      opt.clients = atoi(v);
    else if (!strcmp(a, "--download-mib"))
      opt.download_mib = atoi(v);
    else if (!strcmp(a, "--attach-runs"))
      opt.attach_runs = atoi(v);
    else if (!strcmp(a, "--bench-netns"))
      opt.bench_netns = v;
    else if (!strcmp(a, "--json"))
      opt.json = v;
    else
      usage();
  }
  if (opt.runs < 1 || opt.runs > 100000 || opt.rounds < 1 || opt.rounds > 100 ||
      opt.seconds < 1 || opt.seconds > 600 || opt.clients < 1 || opt.clients > 64 ||
      opt.download_mib < 1 || opt.download_mib > 65536 || opt.attach_runs < 1 ||
      opt.attach_runs > 10000)
    usage();
}

static series new_series(int n) {
  series s = {.ms = calloc((size_t)n, sizeof(double))};
  if (!s.ms) die("calloc", -ENOMEM);
  return s;
}

static double median(series *s) {
  return pct(s, 0.5);
}

static void on_exit_cleanup(void) {
  cleanup();
}

int main(int argc, char **argv) {
  parse(argc, argv);
  if (geteuid() != 0) {
    fprintf(stderr, "bench_gateway: needs root\n");
    return 2;
  }
  hg_log_set_level(HG_LOG_WARN);
  signal(SIGPIPE, SIG_IGN);
  atexit(on_exit_cleanup);
  int rc;

  /* the fake internet, the gateway, one sandbox whose guest is a netns */
  snprintf(dir, sizeof dir, "/tmp/hgb-gw-XXXXXX");
  if (!mkdtemp(dir)) die("mkdtemp", -errno);
  snprintf(netns_dir, sizeof netns_dir, "%s/netns", dir);
  snprintf(state_dir, sizeof state_dir, "%s/state", dir);
  /* fakenet keeps no record of the bench's thousands of requests */
  if ((rc = fakenet_start(&(fakenet_config){.max_events = 16}, &fn)) < 0)
    die("fake internet", rc);
  hg_gateway_config gc = {.netns_dir = netns_dir,
                          .state_dir = state_dir,
                          .upstream_dns = FAKENET_DNS ":53",
                          .log_max = 100};
  pid_t before[256], after[256];
  int nb = list_tids(before, 256);
  if ((rc = hg_gateway_start(&gc, &gw)) < 0) die("gateway start", rc);
  int na = list_tids(after, 256);
  for (int i = 0; i < na && n_gw_tids < 8; i++) {
    bool old_ = false;
    for (int j = 0; j < nb; j++) old_ = old_ || after[i] == before[j];
    if (!old_) gw_tids[n_gw_tids++] = after[i];
  }
  snprintf(guest, sizeof guest, "hgb-guest-%d", (int)getpid());
  char cmd[256];
  snprintf(cmd, sizeof cmd,
           "ip netns add %s && ip netns exec %s sysctl -qw "
           "net.ipv6.conf.all.disable_ipv6=1",
           guest, guest);
  if (sh(cmd) < 0) die("ip netns add", -EIO);
  char path[128];
  snprintf(path, sizeof path, "/run/netns/%s", guest);
  if ((guest_fd = open(path, O_RDONLY | O_CLOEXEC)) < 0) die(path, -errno);
  if ((root_fd = open("/proc/self/ns/net", O_RDONLY | O_CLOEXEC)) < 0)
    die("own netns", -errno);
  if ((rc = hg_gateway_test_attach_veth(gw, netns_dir, SANDBOX, guest)) < 0)
    die("attach", rc);
  json_t *pj = json_pack("{s:[s]}", "allow", HOST);
  hg_policy *p;
  char err[256] = "";
  if ((rc = hg_policy_parse(pj, &p, err)) < 0) die(err, rc);
  json_decref(pj);
  if ((rc = hg_gateway_set_policy(gw, SANDBOX, p)) < 0) die("set policy", rc);
  hg_policy_free(p);
  int dns_rc = -1;
  run_thread(resolve_thread, &dns_rc);
  if (dns_rc < 0) die("DNS through the gateway", dns_rc);
  tls = SSL_CTX_new(TLS_client_method());

  printf(
      "bench_gateway: proxy (guest netns -> veth -> gateway -> fakenet) vs direct "
      "(root netns -> fakenet), alternating, same run\n\n");
  fflush(stdout);

  latency lat;
  for (int m = 0; m < 2; m++)
    lat.http[m] = new_series(opt.runs), lat.tls[m] = new_series(opt.runs);
  run_thread(latency_thread, &lat);

  download dl = {.mbs = {new_series(opt.rounds), new_series(opt.rounds)},
                 .cpu = {new_series(opt.rounds), new_series(opt.rounds)},
                 .gw_cpu = new_series(opt.rounds),
                 .tls_mbs = {new_series(opt.rounds), new_series(opt.rounds)}};
  run_thread(download_thread, &dl);

  series cps[2] = {new_series(opt.rounds), new_series(opt.rounds)};
  long cps_errors = 0;
  for (int r = 0; r < opt.rounds; r++)
    for (int k = 0; k < 2; k++) {
      int mode = (r + k) % 2;
      if (mode == PROXY) run_thread(resolve_thread, &dns_rc);
      cps[mode].ms[cps[mode].n++] = cps_round(mode, &cps_errors);
    }

  /* a sandbox network through the gateway: namespace, tap, rules, listeners */
  series att = new_series(opt.attach_runs);
  for (int i = 0; i < opt.attach_runs; i++) {
    char name[32];
    snprintf(name, sizeof name, "sb-bench-att-%d", i);
    int tap;
    int64_t t0 = hg_now_ns();
    if ((rc = hg_gateway_attach(gw, name, &tap)) < 0) die("attach", rc);
    close(tap);
    if ((rc = hg_gateway_detach(gw, name)) < 0) die("detach", rc);
    att.ms[att.n++] = bench_ms(t0, hg_now_ns());
    hg_gateway_forget(gw, name);
  }
  double bn_hangar = 0, bn_ip = 0;
  int bn_rc = bench_netns_figures(argv[0], &bn_hangar, &bn_ip);

  double hp50[2], hp90[2], tp50[2], tp90[2];
  for (int m = 0; m < 2; m++) {
    hp50[m] = pct(&lat.http[m], 0.5), hp90[m] = pct(&lat.http[m], 0.9);
    tp50[m] = pct(&lat.tls[m], 0.5), tp90[m] = pct(&lat.tls[m], 0.9);
  }
  double dlm[2] = {median(&dl.mbs[0]), median(&dl.mbs[1])};
  double cpum[2] = {median(&dl.cpu[0]), median(&dl.cpu[1])}, gwcpu = median(&dl.gw_cpu);
  double tlsm[2] = {median(&dl.tls_mbs[0]), median(&dl.tls_mbs[1])};
  double tls_ratio = tlsm[DIRECT] > 0 ? tlsm[PROXY] / tlsm[DIRECT] : 0;
  double cpsm[2] = {median(&cps[0]), median(&cps[1])};
  double added50 = hp50[PROXY] - hp50[DIRECT], added90 = hp90[PROXY] - hp90[DIRECT];
  double tadded50 = tp50[PROXY] - tp50[DIRECT], tadded90 = tp90[PROXY] - tp90[DIRECT];
  double ratio = dlm[DIRECT] > 0 ? dlm[PROXY] / dlm[DIRECT] : 0;
  printf("%-40s %12s %12s %12s\n", "", "proxy", "direct", "added/ratio");
  printf("%-40s %9.3f ms %9.3f ms %+9.3f ms\n", "new connection + GET, p50", hp50[PROXY],
         hp50[DIRECT], added50);
  printf("%-40s %9.3f ms %9.3f ms %+9.3f ms\n", "new connection + GET, p90", hp90[PROXY],
         hp90[DIRECT], added90);
  printf("%-40s %9.3f ms %9.3f ms %+9.3f ms\n", "new TLS handshake, p50", tp50[PROXY],
         tp50[DIRECT], tadded50);
  printf("%-40s %9.3f ms %9.3f ms %+9.3f ms\n", "new TLS handshake, p90", tp90[PROXY],
         tp90[DIRECT], tadded90);
  char label[64];
  snprintf(label, sizeof label, "download %d MiB (HTTP), median of %d", opt.download_mib,
           opt.rounds);
  printf("%-40s %7.0f MB/s %7.0f MB/s %11.0f%%\n", label, dlm[PROXY], dlm[DIRECT],
         ratio * 100);
  printf("%-40s %9.2f s  %9.2f s  %+9.2f s\n", "  CPU per GiB, whole process",
         cpum[PROXY], cpum[DIRECT], cpum[PROXY] - cpum[DIRECT]);
  printf("%-40s %9.2f s\n", "  CPU per GiB, gateway thread", gwcpu);
  snprintf(label, sizeof label, "download %d MiB (TLS, relay), median", opt.download_mib);
  printf("%-40s %7.0f MB/s %7.0f MB/s %11.0f%%\n", label, tlsm[PROXY], tlsm[DIRECT],
         tls_ratio * 100);
  snprintf(label, sizeof label, "connections/s, %d clients x %d s", opt.clients,
           opt.seconds);
  printf("%-40s %12.0f %12.0f %11.0f%%\n", label, cpsm[PROXY], cpsm[DIRECT],
         cpsm[DIRECT] > 0 ? 100 * cpsm[PROXY] / cpsm[DIRECT] : 0);
  printf("\n%-40s %9.2f ms (p50) %9.2f ms (p90)\n", "gateway attach + detach (full)",
         pct(&att, 0.5), pct(&att, 0.9));
  if (bn_rc == 0)
    printf("%-40s %9.2f ms (p50)\n%-40s %9.2f ms (p50)\n",
           "  bench_netns: netns + tap + rules", bn_hangar,
           "  bench_netns: ip netns add + del", bn_ip);
  else
    printf("  (bench_netns not found next to this binary: no baseline)\n");
  if (cps_errors)
    printf("\nconnection errors during the connections/s rounds: %ld\n", cps_errors);
  printf("\nadded latency per new connection p50 %.3f ms: target <= %.1f ms %s\n",
         added50, TARGET_ADDED_MS, added50 <= TARGET_ADDED_MS ? "met" : "NOT met");
  printf(
      "download through the proxy %.0f%% of direct (HTTP), %.0f%% (TLS): target >= "
      "%.0f%% "
      "%s\n",
      ratio * 100, tls_ratio * 100, TARGET_TPUT * 100,
      ratio >= TARGET_TPUT && tls_ratio >= TARGET_TPUT ? "met" : "NOT met");

  if (opt.json) {
    json_t *j = json_pack(
        "{s:s, s:i, s:i, s:{s:f,s:f,s:f,s:f}, s:{s:f,s:f,s:f,s:f}, "
        "s:{s:f,s:f,s:f,s:f,s:f,s:f,s:f,s:f,s:f},"
        " s:{s:f,s:f,s:i,s:i,s:i}, s:{s:f,s:f,s:f,s:f}, s:{s:f,s:f}}",
        "bench", "gateway", "runs", opt.runs, "rounds", opt.rounds,
        "http_new_connection_ms", "proxy_p50", hp50[PROXY], "proxy_p90", hp90[PROXY],
        "direct_p50", hp50[DIRECT], "direct_p90", hp90[DIRECT], "tls_handshake_ms",
        "proxy_p50", tp50[PROXY], "proxy_p90", tp90[PROXY], "direct_p50", tp50[DIRECT],
        "direct_p90", tp90[DIRECT], "download", "proxy_mb_s", dlm[PROXY], "direct_mb_s",
        dlm[DIRECT], "ratio", ratio, "proxy_cpu_s_per_gib", cpum[PROXY],
        "direct_cpu_s_per_gib", cpum[DIRECT], "gateway_cpu_s_per_gib", gwcpu,
        "tls_proxy_mb_s", tlsm[PROXY], "tls_direct_mb_s", tlsm[DIRECT], "tls_ratio",
        tls_ratio, "connections_per_s", "proxy", cpsm[PROXY], "direct", cpsm[DIRECT],
        "clients", opt.clients, "seconds", opt.seconds, "errors", (int)cps_errors,
        "attach_detach_ms", "p50", pct(&att, 0.5), "p90", pct(&att, 0.9),
        "bench_netns_p50", bn_hangar, "ip_netns_p50", bn_ip, "targets",
        "added_latency_ms", TARGET_ADDED_MS, "throughput_ratio", TARGET_TPUT);
    if (!j || json_dump_file(j, opt.json, JSON_INDENT(2)) < 0) die(opt.json, -EIO);
    json_decref(j);
  }
  SSL_CTX_free(tls);
  for (int m = 0; m < 2; m++)
    free(lat.http[m].ms), free(lat.tls[m].ms), free(dl.mbs[m].ms), free(dl.cpu[m].ms),
        free(cps[m].ms);
  free(dl.gw_cpu.ms);
  free(dl.tls_mbs[0].ms);
  free(dl.tls_mbs[1].ms);
  free(att.ms);
  close(guest_fd);
  close(root_fd);
  return 0;
}
