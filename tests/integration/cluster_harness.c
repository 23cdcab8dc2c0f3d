#include "tests/integration/cluster_harness.h"

#include <curl/curl.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "node/core/proc.h"
#include "node/core/util.h"

#ifndef HG_IT_CLUSTER_TOOL
#define HG_IT_CLUSTER_TOOL "tools/cluster"
#endif

#define TOOL_ARGS_MAX 48

/* --- teardown that also runs from a signal handler -------------------------------- */

/* The argv of `tools/cluster down …` is built before anything is started, so
 * the handlers need nothing but fork, execve and waitpid, which are
 * async-signal-safe. */
static char down_store[4][512];
static char *down_argv[8];
static hg_itc *volatile active;

static const char *tool_path(void) {
  const char *t = getenv("HG_CLUSTER_TOOL");
  return t && *t ? t : HG_IT_CLUSTER_TOOL;
}

static void run_down(void) {
  pid_t pid = fork();
  if (pid == 0) {
    execv(down_argv[0], down_argv);
    _exit(127);
  }
  if (pid > 0)
    while (waitpid(pid, NULL, 0) < 0 && errno == EINTR) {
    }
}

static void on_fatal_signal(int sig) {
  static const char msg[] =
      "cluster_harness: signal or watchdog: tearing the cluster down\n";
  if (write(2, msg, sizeof msg - 1) < 0) {
  }
  if (active) {
    active = NULL;
    run_down();
  }
  signal(sig, SIG_DFL);
  raise(sig);
  _exit(128 + sig);
}

static void on_exit_down(void) {
  if (active) hg_itc_down(active);
}

static void arm_cleanup(hg_itc *c, unsigned deadline_s) {
  static bool registered;
  snprintf(down_store[0], sizeof down_store[0], "%s", tool_path());
  snprintf(down_store[1], sizeof down_store[1], "%s", c->dir);
  snprintf(down_store[2], sizeof down_store[2], "%s", c->prefix);
  down_argv[0] = down_store[0];
  down_argv[1] = "down";
  down_argv[2] = "--dir";
  down_argv[3] = down_store[1];
  down_argv[4] = "--prefix";
  down_argv[5] = down_store[2];
  down_argv[6] = NULL;
  active = c;
  if (!registered) {
    registered = true;
    atexit(on_exit_down);
    struct sigaction sa = {.sa_handler = on_fatal_signal};
    sigemptyset(&sa.sa_mask);
    int sigs[] = {SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGALRM};
    for (size_t i = 0; i < HG_ARRAY_SIZE(sigs); i++) sigaction(sigs[i], &sa, NULL);
  }
  alarm(deadline_s ? deadline_s : 600);
}

/* --- running tools/cluster -------------------------------------------------------- */

static int run_argv(char *const argv[]) {
  fprintf(stderr, "+");
  for (int i = 0; argv[i]; i++) fprintf(stderr, " %s", argv[i]);
  fprintf(stderr, "\n");
  pid_t pid = fork();
  if (pid < 0) return -errno;
  if (pid == 0) {
    /* the watchdog is ours, not the tool's */
    alarm(0);
    execv(argv[0], argv);
    fprintf(stderr, "cluster_harness: exec %s: %s\n", argv[0], strerror(errno));
    _exit(127);
  }
  int st;
  while (waitpid(pid, &st, 0) < 0)
    if (errno != EINTR) return -errno;
  if (WIFEXITED(st)) return WEXITSTATUS(st);
  return -EINTR;
}

int hg_itc_tool(hg_itc *c, ...) {
  char *argv[TOOL_ARGS_MAX];
  int n = 0;
  argv[n++] = (char *)tool_path();
  va_list ap;
  va_start(ap, c);
  for (const char *a; (a = va_arg(ap, const char *)) && n < TOOL_ARGS_MAX - 6;)
    argv[n++] = (char *)a;
  va_end(ap);
  /* --dir after the subcommand's own arguments, before any "--"; only up
   * and down take --prefix (the others read it from DIR/cluster.conf) */
  bool with_prefix = n > 1 && (!strcmp(argv[1], "up") || !strcmp(argv[1], "down"));
  int extra = with_prefix ? 4 : 2, dash = n;
  for (int i = 1; i < n; i++)
    if (strcmp(argv[i], "--") == 0) {
      dash = i;
      break;
    }
  memmove(&argv[dash + extra], &argv[dash], (size_t)(n - dash) * sizeof argv[0]);
  argv[dash] = "--dir";
  argv[dash + 1] = c->dir;
  if (with_prefix) {
    argv[dash + 2] = "--prefix";
    argv[dash + 3] = c->prefix;
  }
  n += extra;
  argv[n] = NULL;
  /* a node started again is checked again */
  if (n > 2 && strcmp(argv[1], "start") == 0) {
    int i = atoi(argv[2]);
    if (i >= 1 && i <= HG_ITC_MAX) c->killed[i] = false;
  }
  return run_argv(argv);
}

/* --- bringing it up --------------------------------------------------------------- */

/* DIR/env: KEY=VALUE lines, maybe "export " and quotes. */
static int read_env(hg_itc *c) {
  char path[320];
  snprintf(path, sizeof path, "%s/env", c->dir);
  FILE *f = fopen(path, "r");
  if (!f) {
    fprintf(stderr, "cluster_harness: no %s: %s\n", path, strerror(errno));
    return -ENOENT;
  }
  char line[1024];
  while (fgets(line, sizeof line, f)) {
    line[strcspn(line, "\r\n")] = '\0';
    char *k = line;
    if (strncmp(k, "export ", 7) == 0) k += 7;
    char *v = strchr(k, '=');
    if (!v) continue;
    *v++ = '\0';
    size_t vl = strlen(v);
    if (vl >= 2 && (v[0] == '"' || v[0] == '\'') && v[vl - 1] == v[0]) {
      v[vl - 1] = '\0';
      v++;
    }
    int i;
    if (strcmp(k, "HANGAR_KEY") == 0)
      snprintf(c->key, sizeof c->key, "%s", v);
    else if (strcmp(k, "HANGAR_CLUSTER_KEY") == 0)
      snprintf(c->cluster_key, sizeof c->cluster_key, "%s", v);
    else if (sscanf(k, "HANGAR_URL_%d", &i) == 1 && i >= 1 && i <= c->n)
      snprintf(c->node[i].url, sizeof c->node[i].url, "%s", v);
  }
  fclose(f);
  for (int i = 1; i <= c->n; i++) {
    if (!c->node[i].url[0]) /* as documented, should env not name it */
      snprintf(c->node[i].url, sizeof c->node[i].url, "http://%s.%d:%d", c->subnet, i,
               HG_ITC_API_PORT);
    c->node[i].port = HG_ITC_API_PORT;
  }
  if (!c->key[0] || !c->cluster_key[0]) {
    fprintf(stderr, "cluster_harness: %s lacks HANGAR_KEY or HANGAR_CLUSTER_KEY\n", path);
    return -EPROTO;
  }
  return 0;
}

int hg_itc_up(hg_itc *c, int n, const hg_itc_opts *o) {
  memset(c, 0, sizeof *c);
  if (n < 1 || n > HG_ITC_MAX) return -EINVAL;
  c->n = n;
  const char *p = o->prefix ? o->prefix : getenv("HG_IT_CLUSTER_PREFIX");
  const char *s = o->subnet ? o->subnet : getenv("HG_IT_CLUSTER_SUBNET");
  snprintf(c->prefix, sizeof c->prefix, "%s", p && *p ? p : "hgit");
  snprintf(c->subnet, sizeof c->subnet, "%s", s && *s ? s : "10.251.73");
  /* A fixed dir per prefix: a run killed before its teardown is cleaned by
   * the next one's `down`. */
  snprintf(c->dir, sizeof c->dir, "/tmp/hg-itc-%s", c->prefix);
  if (access(tool_path(), X_OK) != 0) {
    fprintf(stderr, "cluster_harness: no launcher at %s\n", tool_path());
    return -ENOENT;
  }
  arm_cleanup(c, o->deadline_s);
  hg_it_sanitizer_env(); /* tools/cluster passes the environment on to hangard */
  /* whatever an earlier run left under this prefix or dir */
  hg_itc_tool(c, "down", NULL);
  hg_rm_rf(c->dir);
  if (mkdir(c->dir, 0700) < 0) return -errno;

  char nb[16], pool[16];
  snprintf(nb, sizeof nb, "%d", n);
  snprintf(pool, sizeof pool, "%u", o->pool_size);
  char *argv[TOOL_ARGS_MAX];
  int k = 0;
  argv[k++] = (char *)tool_path();
  argv[k++] = "up";
  argv[k++] = nb;
  argv[k++] = "--dir";
  argv[k++] = c->dir;
  argv[k++] = "--prefix";
  argv[k++] = c->prefix;
  argv[k++] = "--subnet";
  argv[k++] = c->subnet;
  argv[k++] = "--profile";
  argv[k++] = "local";
  argv[k++] = "--pool-size";
  argv[k++] = pool;
  char timeout[16];
  snprintf(timeout, sizeof timeout, "%u", o->ready_timeout_s ? o->ready_timeout_s : 300);
  argv[k++] = "--timeout";
  argv[k++] = timeout;
  if (o->max_sandboxes) {
    argv[k++] = "--max-sandboxes";
    argv[k++] = (char *)o->max_sandboxes;
  }
  if (o->with_template) {
    const char *tpl = getenv("HANGAR_TEST_TEMPLATE_DIR");
    if (!tpl) tpl = "/var/cache/hangar/test-template";
    argv[k++] = "--template-dir";
    argv[k++] = (char *)tpl;
  }
  if (o->extra) {
    argv[k++] = "--";
    for (int i = 0; o->extra[i] && k < TOOL_ARGS_MAX - 1; i++)
      argv[k++] = (char *)o->extra[i];
  }
  argv[k] = NULL;
  int64_t t0 = hg_now_ms();
  int rc = run_argv(argv);
  fprintf(stderr, "cluster_harness: up %d nodes: exit %d after %.1f s\n", n, rc,
          (hg_now_ms() - t0) / 1000.0);
  c->up = true;
  if (rc != 0 || (rc = read_env(c)) < 0) {
    hg_itc_down(c);
    return rc > 0 ? -EIO : rc;
  }
  return 0;
}

/* After a failed check or expectation, or with HG_IT_KEEP=1: the nodes'
 * logs survive `down` (which removes DIR), in /tmp/hg-itc-<prefix>-logs/n<i>.log. */
static void keep_logs(hg_itc *c) {
  char to[300], from[320], path[340];
  snprintf(to, sizeof to, "/tmp/hg-itc-%s-logs", c->prefix);
  if (hg_mkdir_p(to, 0700) < 0) return;
  for (int i = 1; i <= c->n; i++) {
    char *text = NULL;
    size_t len = 0;
    snprintf(from, sizeof from, "%s/n%d/hangard.log", c->dir, i);
    snprintf(path, sizeof path, "%s/n%d.log", to, i);
    if (hg_read_file(from, 256u << 20, &text, &len) == 0)
      hg_write_file_atomic(path, text, len);
    free(text);
  }
  fprintf(stderr, "cluster_harness: logs kept in %s\n", to);
}

/* Node i's exit status as tools/cluster wrote it (the shell's $?: 0..255,
 * 128+N for signal N), or -1 when there is none (yet). */
static int exit_status(hg_itc *c, int i) {
  char path[320], *text = NULL;
  snprintf(path, sizeof path, "%s/n%d/exit", c->dir, i);
  if (hg_read_file(path, 64, &text, NULL) < 0) return -1;
  int st = atoi(text);
  free(text);
  return st;
}

/* SIGTERM to node i's hangard (SIGCONT first: a stopped one must act on
 * it), and its exit status within HG_IT_STOP_TIMEOUT_MS; -1 when none. */
static int stop_node(hg_itc *c, int i) {
  pid_t pid = hg_itc_pid(c, i);
  kill(pid, SIGCONT);
  kill(pid, SIGTERM);
  int st;
  for (int64_t end = hg_now_ms() + HG_IT_STOP_TIMEOUT_MS;
       (st = exit_status(c, i)) < 0 && hg_now_ms() < end;)
    usleep(50000);
  return st;
}

/* How every node stopped, and what its log says: 0, or -1 (printed). */
static int check_nodes(hg_itc *c) {
  int rc = 0;
  for (int i = 1; i <= c->n; i++) {
    char log[320], who[16];
    snprintf(log, sizeof log, "%s/n%d/hangard.log", c->dir, i);
    snprintf(who, sizeof who, "n%d", i);
    bool running = hg_itc_pid(c, i) > 0;
    int st = running ? stop_node(c, i) : exit_status(c, i);
    if (running && st < 0) {
      fprintf(stderr, "cluster_harness: n%d still running %d ms after SIGTERM\n", i,
              HG_IT_STOP_TIMEOUT_MS);
      rc = -1;
    } else if (st != 0 && (running || !c->killed[i])) {
      fprintf(stderr, "cluster_harness: n%d's hangard ended with status %d%s, not its "
                      "clean exit 0\n",
              i, st, running ? " after SIGTERM" : " without being told to");
      rc = -1;
    }
    if (rc < 0) hg_it_log_tail(log, 40);
    if (hg_it_log_check(log, who) < 0) rc = -1;
  }
  return rc;
}

int hg_itc_down(hg_itc *c) {
  if (!c->up) return 0;
  c->up = false;
  active = NULL;
  alarm(0);
  int rc = check_nodes(c);
  if (rc < 0 || c->failed || getenv("HG_IT_KEEP")) keep_logs(c);
  c->failed = false;
  int down = hg_itc_tool(c, "down", NULL);
  if (down != 0) fprintf(stderr, "cluster_harness: down exited %d\n", down);
  hg_rm_rf(c->dir);
  return rc;
}

pid_t hg_itc_pid(hg_itc *c, int i) {
  char path[320], *text = NULL;
  snprintf(path, sizeof path, "%s/n%d/pid", c->dir, i);
  if (hg_read_file(path, 64, &text, NULL) < 0) return 0;
  pid_t pid = (pid_t)atoi(text);
  free(text);
  if (pid <= 0) return 0;
  /* the pid is node i's hangard, not a recycled number */
  char cmd[8192], want[340];
  size_t len;
  snprintf(want, sizeof want, "%s/n%d/data", c->dir, i);
  if (hg_proc_cmdline((int)pid, cmd, sizeof cmd, &len) < 0) return 0;
  for (size_t k = 0; k < len; k++)
    if (cmd[k] == '\0') cmd[k] = ' ';
  return strstr(cmd, want) ? pid : 0;
}

int hg_itc_signal(hg_itc *c, int i, int sig) {
  pid_t pid = hg_itc_pid(c, i);
  if (pid <= 0) return -ESRCH;
  if (kill(pid, sig) < 0) return -errno;
  if (sig == SIGKILL) c->killed[i] = true;
  return 0;
}

void hg_itc_gossip_addr(const hg_itc *c, int i, char host[32], int *port) {
  snprintf(host, 32, "%.20s.%d", c->subnet, i);
  *port = HG_ITC_GOSSIP_PORT;
}

const char *hg_itc_id(int i) {
  static const char *const ids[] = {"n0", "n1", "n2", "n3", "n4", "n5", "n6", "n7", "n8"};
  return i >= 0 && i <= HG_ITC_MAX ? ids[i] : "n?";
}

/* --- HTTP with a deadline --------------------------------------------------------- */

static size_t on_body(char *p, size_t size, size_t nmemb, void *ud) {
  hg_it_resp *r = ud;
  return hg_buf_append(&r->body, p, size * nmemb) == 0 ? size * nmemb : 0;
}

static size_t on_header(char *p, size_t size, size_t nmemb, void *ud) {
  hg_it_resp *r = ud;
  size_t have = strlen(r->headers), len = size * nmemb;
  if (have + len < sizeof r->headers) {
    memcpy(r->headers + have, p, len);
    r->headers[have + len] = '\0';
  }
  return len;
}

int hg_itc_http(hg_itc *c, int i, const char *method, const char *path, const char *token,
                const void *body, size_t len, int timeout_ms, hg_it_resp *out) {
  memset(out, 0, sizeof *out);
  hg_buf_init(&out->body, 64u << 20);
  if (i < 1 || i > c->n) return -EINVAL;
  CURL *h = curl_easy_init();
  if (!h) return -ENOMEM;
  char url[4096], auth[600];
  snprintf(url, sizeof url, "%s%s", c->node[i].url, path);
  snprintf(auth, sizeof auth, "Authorization: Bearer %s", token ? token : c->key);
  struct curl_slist *hd = curl_slist_append(NULL, "Expect:");
  if (!token || *token) hd = curl_slist_append(hd, auth);
  curl_easy_setopt(h, CURLOPT_URL, url);
  curl_easy_setopt(h, CURLOPT_CUSTOMREQUEST, method);
  curl_easy_setopt(h, CURLOPT_HTTPHEADER, hd);
  curl_easy_setopt(h, CURLOPT_WRITEFUNCTION, on_body);
  curl_easy_setopt(h, CURLOPT_WRITEDATA, out);
  curl_easy_setopt(h, CURLOPT_HEADERFUNCTION, on_header);
  curl_easy_setopt(h, CURLOPT_HEADERDATA, out);
  curl_easy_setopt(h, CURLOPT_NOSIGNAL, 1L);
  curl_easy_setopt(h, CURLOPT_TIMEOUT_MS, (long)timeout_ms);
  curl_easy_setopt(h, CURLOPT_CONNECTTIMEOUT_MS,
                   (long)(timeout_ms < 2000 ? timeout_ms : 2000));
  if (body) {
    curl_easy_setopt(h, CURLOPT_POSTFIELDS, body);
    curl_easy_setopt(h, CURLOPT_POSTFIELDSIZE_LARGE, (curl_off_t)len);
  }
  CURLcode cc = curl_easy_perform(h);
  curl_easy_getinfo(h, CURLINFO_RESPONSE_CODE, &out->status);
  curl_slist_free_all(hd);
  curl_easy_cleanup(h);
  return cc == CURLE_OK ? 0 : -EIO;
}

json_t *hg_itc_json(hg_itc *c, int i, const char *token, const char *method,
                    const char *path, json_t *body, int timeout_ms, long *status) {
  char *text = body ? json_dumps(body, JSON_COMPACT) : NULL;
  hg_it_resp r;
  int rc = hg_itc_http(c, i, method, path, token, text, text ? strlen(text) : 0,
                       timeout_ms, &r);
  free(text);
  *status = rc == 0 ? r.status : 0;
  json_t *j = rc == 0 && r.body.len ? json_loadb(r.body.data, r.body.len, 0, NULL) : NULL;
  hg_it_resp_free(&r);
  return j;
}

/* What node i logged about the sandbox a failed request named
 * ("/v1/sandboxes/sb-<16 hex>…"): in the test's output, which CI keeps. */
static void log_about_path(hg_itc *c, int i, const char *path) {
  const char *p = strstr(path, "/sb-");
  char id[HG_ID_MAX], log[320];
  if (!p || i < 1 || i > c->n) return;
  snprintf(id, sizeof id, "%.19s", p + 1);
  if (!hg_id_valid("sb", id)) return;
  snprintf(log, sizeof log, "%s/n%d/hangard.log", c->dir, i);
  hg_it_log_about(log, id, 40);
}

bool hg_itc_expect(hg_itc *c, int i, const char *token, const char *method, const char *path,
                   json_t *body, long want, int timeout_ms, json_t **out) {
  long status;
  json_t *j = hg_itc_json(c, i, token, method, path, body, timeout_ms, &status);
  if (status != want) {
    char *d = j ? json_dumps(j, JSON_COMPACT) : NULL;
    fprintf(stderr, "n%d %s %s: status %ld, want %ld: %s\n", i, method, path, status, want,
            d ? d : "(no JSON)");
    free(d);
    log_about_path(c, i, path);
    c->failed = true;
  }
  if (out) *out = j;
  else json_decref(j);
  return status == want;
}

char *hg_itc_sh(hg_itc *c, int i, const char *token, const char *id, const char *cmd,
                int timeout_ms) {
  char path[128];
  snprintf(path, sizeof path, "/v1/sandboxes/%s/commands?wait=%d", id, timeout_ms / 1000);
  json_t *body = json_pack("{s:[s,s,s]}", "cmd", "sh", "-c", cmd), *j = NULL;
  bool ok = hg_itc_expect(c, i, token, "POST", path, body, 201, timeout_ms + 30000, &j);
  json_decref(body);
  const char *out = json_string_value(json_object_get(j, "stdout"));
  ok = ok && json_is_true(json_object_get(j, "exited")) &&
       json_integer_value(json_object_get(j, "exit_code")) == 0 && out;
  if (!ok && j) {
    char *d = json_dumps(j, JSON_COMPACT);
    fprintf(stderr, "n%d: `%s` in %s did not exit 0: %s\n", i, cmd, id, d ? d : "?");
    free(d);
  }
  char *text = ok ? strdup(out) : NULL;
  json_decref(j);
  return text;
}

char *hg_itc_metrics(hg_itc *c, int i) {
  hg_it_resp r;
  char *text = NULL;
  if (hg_itc_http(c, i, "GET", "/metrics", "", NULL, 0, 5000, &r) == 0 && r.status == 200)
    text = strndup(r.body.data ? r.body.data : "", r.body.len);
  hg_it_resp_free(&r);
  return text;
}

int hg_itc_owner(hg_itc *c, int via, const char *id, uint64_t *epoch, char state[16]) {
  char path[96];
  snprintf(path, sizeof path, "/v1/sandboxes/%s", id);
  long st = 0;
  json_t *j = hg_itc_json(c, via, NULL, "GET", path, NULL, 10000, &st);
  const char *node = st == 200 ? hg_it_str(j, "node") : NULL;
  const char *s = st == 200 ? hg_it_str(j, "state") : NULL;
  int owner = node && node[0] == 'n' ? atoi(node + 1) : 0;
  if (epoch) *epoch = st == 200 ? (uint64_t)json_integer_value(json_object_get(j, "epoch")) : 0;
  if (state) snprintf(state, 16, "%s", s ? s : "");
  json_decref(j);
  return owner;
}

int hg_itc_vmm_pid(hg_itc *c, int i, const char *id) {
  char path[512], *text = NULL;
  size_t len = 0;
  snprintf(path, sizeof path, "%s/n%d/data/sandboxes/%s/shim.json", c->dir, i, id);
  if (hg_read_file(path, 1 << 16, &text, &len) < 0) return 0;
  json_t *j = json_loadb(text, len, 0, NULL);
  free(text);
  json_int_t pid = json_integer_value(json_object_get(j, "vmm_pid"));
  json_decref(j);
  return pid > 0 && pid < INT32_MAX ? (int)pid : 0;
}

int hg_itc_vmms(hg_itc *c, const char *id) {
  int n = 0;
  for (int i = 1; i <= c->n; i++) {
    int pid = hg_itc_vmm_pid(c, i, id);
    if (pid > 0 && kill(pid, 0) == 0) n++;
  }
  return n;
}

/* --- what the nodes say about each other ------------------------------------------ */

json_t *hg_itc_members(hg_itc *c, int i, int timeout_ms) {
  long st;
  json_t *j =
      hg_itc_json(c, i, NULL, "GET", "/v1/cluster/members", NULL, timeout_ms, &st);
  if (st == 200 && hg_itc_member_list(j)) return j;
  json_decref(j);
  return NULL;
}

json_t *hg_itc_member_list(json_t *answer) {
  if (json_is_array(answer)) return answer;
  json_t *m = json_object_get(answer, "members");
  return json_is_array(m) ? m : NULL;
}

static const char *member_id(json_t *m) {
  const char *id = json_string_value(json_object_get(m, "id"));
  return id ? id : json_string_value(json_object_get(m, "node"));
}

hg_itc_view hg_itc_lookup(json_t *answer, const char *id) {
  hg_itc_view v = {0};
  json_t *list = hg_itc_member_list(answer), *m;
  size_t k;
  json_array_foreach(list, k, m) {
    const char *mid = member_id(m);
    if (!mid || strcmp(mid, id) != 0) continue;
    const char *st = json_string_value(json_object_get(m, "state"));
    v.known = true;
    snprintf(v.state, sizeof v.state, "%s", st ? st : "?");
    v.incarnation = (uint64_t)json_integer_value(json_object_get(m, "incarnation"));
    v.member = m;
    break;
  }
  return v;
}

int hg_itc_wait_state(hg_itc *c, unsigned mask, const char *id, const char *state,
                      int64_t t0_ms, int timeout_ms, int poll_ms, int64_t at_ms[]) {
  unsigned left = mask;
  for (int i = 0; i <= c->n; i++) at_ms[i] = -1;
  int64_t deadline = hg_now_ms() + timeout_ms;
  while (left) {
    for (int i = 1; i <= c->n; i++) {
      if (!(left & (1u << i))) continue;
      json_t *j = hg_itc_members(c, i, 1000);
      hg_itc_view v = hg_itc_lookup(j, id);
      if (v.known && strcmp(v.state, state) == 0) {
        at_ms[i] = hg_now_ms() - t0_ms;
        left &= ~(1u << i);
      }
      json_decref(j);
    }
    if (!left) break;
    if (hg_now_ms() >= deadline) {
      fprintf(stderr, "cluster_harness: %s not %s everywhere in %d ms\n", id, state,
              timeout_ms);
      hg_itc_dump(c, mask, "timeout");
      return -ETIMEDOUT;
    }
    usleep((useconds_t)poll_ms * 1000);
  }
  return 0;
}

bool hg_itc_converged(hg_itc *c, unsigned mask, int timeout_ms) {
  for (int i = 1; i <= c->n; i++) {
    if (!(mask & (1u << i))) continue;
    json_t *j = hg_itc_members(c, i, timeout_ms);
    bool ok = j != NULL;
    for (int k = 1; ok && k <= c->n; k++) {
      if (!(mask & (1u << k))) continue;
      hg_itc_view v = hg_itc_lookup(j, hg_itc_id(k));
      ok = v.known && strcmp(v.state, "alive") == 0;
    }
    json_decref(j);
    if (!ok) return false;
  }
  return true;
}

int64_t hg_itc_wait_converged(hg_itc *c, unsigned mask, int timeout_ms) {
  int64_t t0 = hg_now_ms();
  while (!hg_itc_converged(c, mask, 1000)) {
    if (hg_now_ms() - t0 > timeout_ms) {
      hg_itc_dump(c, mask, "not converged");
      return -ETIMEDOUT;
    }
    usleep(50000);
  }
  return hg_now_ms() - t0;
}

void hg_itc_dump(hg_itc *c, unsigned mask, const char *why) {
  for (int i = 1; i <= c->n; i++) {
    if (!(mask & (1u << i))) continue;
    json_t *j = hg_itc_members(c, i, 1000);
    fprintf(stderr, "  [%s] %s says:", why, hg_itc_id(i));
    if (!j) fprintf(stderr, " (no answer)");
    json_t *m;
    size_t k;
    json_array_foreach(hg_itc_member_list(j), k, m) {
      const char *st = json_string_value(json_object_get(m, "state"));
      fprintf(stderr, " %s=%s/%lld", member_id(m) ? member_id(m) : "?", st ? st : "?",
              (long long)json_integer_value(json_object_get(m, "incarnation")));
    }
    fprintf(stderr, "\n");
    json_decref(j);
  }
}

int64_t hg_itc_group_up(hg_itc *c, int n, const hg_itc_opts *o) {
  if (curl_global_init(CURL_GLOBAL_DEFAULT) != CURLE_OK) return -EIO;
  json_object_seed(0);
  int rc = hg_itc_up(c, n, o);
  return rc < 0 ? rc : hg_itc_wait_converged(c, hg_itc_all(c), 60000);
}

int hg_itc_group_down(hg_itc *c) {
  int rc = hg_itc_down(c);
  curl_global_cleanup();
  return rc;
}
