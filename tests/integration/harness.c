#include "tests/integration/harness.h"

#include <arpa/inet.h>
#include <curl/curl.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cmocka.h>

#include "gateway/netns.h"
#include "node/core/proc.h"
#include "node/core/util.h"
#include "node/store.h"

#define START_TIMEOUT_MS 180000

static int free_port(void) {
  /* Ports from the pid keep parallel test binaries apart. */
  return 20000 + (getpid() * 7 + (int)(hg_now_ns() % 1000)) % 20000;
}

static int spawn(hg_it_node *n) {
  const char *bin = getenv("HANGARD_BIN");
  const char *tpl = getenv("HANGAR_TEST_TEMPLATE_DIR");
  if (!bin || !tpl) {
    fprintf(stderr, "harness: HANGARD_BIN and HANGAR_TEST_TEMPLATE_DIR must be set "
                    "(run through ctest, after tools/test built the template)\n");
    return -EINVAL;
  }
  char listen[64], log[320];
  snprintf(listen, sizeof listen, "127.0.0.1:%d", n->port);
  snprintf(log, sizeof log, "%s/hangard.log", n->dir);
  hg_it_sanitizer_env();
  pid_t pid = fork();
  if (pid < 0) return -errno;
  if (pid == 0) {
    int fd = open(log, O_WRONLY | O_CREAT | O_APPEND, 0644);
    if (fd >= 0) {
      dup2(fd, 1);
      dup2(fd, 2);
    }
    /* No warm pool unless a test asks for one: VM counts stay exact. */
    const char *pool = getenv("HANGAR_IT_POOL_SIZE");
    const char *argv[64] = {bin, "--data", n->data, "--listen", listen, "--api-key",
                            HG_IT_KEY, "--template-dir", tpl, "--image-size-gib", "16",
                            "--log-level", "debug", "--pool-size", pool ? pool : "0"};
    size_t argc = 15;
    for (size_t i = 0; n->extra && n->extra[i] && argc < HG_ARRAY_SIZE(argv) - 1; i++)
      argv[argc++] = n->extra[i];
    execv(bin, (char *const *)argv);
    _exit(127);
  }
  n->pid = pid;
  return 0;
}

static bool template_ready(hg_it_node *n) {
  long status = 0;
  json_t *j = hg_it_json(n, "GET", "/v1/templates", NULL, &status);
  bool ok = status == 200 && json_array_size(json_object_get(j, "templates")) > 0;
  json_decref(j);
  return ok;
}

/* The error of the node's template import when it failed, else NULL (the
 * caller frees it): a node whose template cannot boot never gets ready,
 * and a test should say why at once rather than wait out its start. */
static char *template_failure(hg_it_node *n) {
  long status = 0;
  json_t *j = hg_it_json(n, "GET", "/v1/operations", NULL, &status);
  json_t *op, *last = NULL;
  size_t i;
  json_array_foreach(json_object_get(j, "operations"), i, op) {
    if (!strcmp(hg_it_str(op, "kind"), "template")) last = op;
  }
  char *why = NULL;
  if (last && !strcmp(hg_it_str(last, "status"), "failed"))
    why = strdup(hg_it_str(json_object_get(last, "error"), "message"));
  json_decref(j);
  return why;
}

static int wait_ready(hg_it_node *n) {
  int64_t deadline = hg_now_ms() + START_TIMEOUT_MS;
  for (unsigned polls = 1; hg_now_ms() < deadline; polls++) {
    int st;
    if (waitpid(n->pid, &st, WNOHANG) == n->pid) {
      fprintf(stderr, "harness: hangard exited early (status 0x%x); its last lines:\n", st);
      char log[300];
      snprintf(log, sizeof log, "%s/hangard.log", n->dir);
      hg_it_log_tail(log, 20); /* the node's dir goes with the cleanup */
      n->exit_status = st;
      n->pid = 0;
      return -ECHILD;
    }
    if (template_ready(n)) return 0;
    char *why = polls % 10 == 0 ? template_failure(n) : NULL;
    if (why) {
      fprintf(stderr, "harness: the node's template failed to build: %s\n", why);
      free(why);
      return -EIO;
    }
    usleep(100000);
  }
  fprintf(stderr, "harness: hangard not ready in time; see %s/hangard.log\n", n->dir);
  return -ETIMEDOUT;
}

int hg_it_node_start(hg_it_node *n) { return hg_it_node_start_with(n, NULL); }

int hg_it_node_start_with(hg_it_node *n, const char *const *extra) {
  memset(n, 0, sizeof *n);
  n->extra = extra;
  snprintf(n->dir, sizeof n->dir, "/tmp/hgit-XXXXXX");
  if (!mkdtemp(n->dir)) return -errno;
  snprintf(n->data, sizeof n->data, "%s/data", n->dir);
  n->port = free_port();
  for (size_t i = 0; extra && extra[i] && extra[i + 1]; i++)
    if (!strcmp(extra[i], "--tls-cert")) snprintf(n->ca, sizeof n->ca, "%s", extra[i + 1]);
  snprintf(n->url, sizeof n->url, "%s://127.0.0.1:%d", n->ca[0] ? "https" : "http", n->port);
  int rc = spawn(n);
  return rc < 0 ? rc : wait_ready(n);
}

void hg_it_node_kill(hg_it_node *n, int sig) {
  if (n->pid <= 0) return;
  kill(n->pid, sig);
  waitpid(n->pid, NULL, 0);
  n->pid = 0;
}

int hg_it_node_restart(hg_it_node *n) {
  if (n->port == 0) { /* a data dir the test filled itself: its first start */
    n->port = free_port();
    snprintf(n->url, sizeof n->url, "http://127.0.0.1:%d", n->port);
  }
  int rc = spawn(n);
  return rc < 0 ? rc : wait_ready(n);
}

/* Kills every process whose command line mentions our dir: shims and VMMs. */
static int kill_matching(const char *needle, bool count_only, const char *exe_name) {
  DIR *d = opendir("/proc");
  if (!d) return 0;
  struct dirent *e;
  int found = 0;
  while ((e = readdir(d))) {
    int pid = atoi(e->d_name);
    if (pid <= 0 || pid == getpid()) continue;
    char cmd[8192];
    size_t len;
    if (hg_proc_cmdline(pid, cmd, sizeof cmd, &len) < 0) continue;
    /* The program itself (argv[0]), not a shim whose arguments name it. */
    bool is_exe = !exe_name || strstr(cmd, exe_name);
    for (size_t i = 0; i < len; i++)
      if (cmd[i] == '\0') cmd[i] = ' ';
    if (!is_exe || !strstr(cmd, needle)) continue;
    found++;
    if (!count_only) kill(pid, SIGKILL);
  }
  closedir(d);
  return found;
}

int hg_it_kill_vm(hg_it_node *n, const char *id) {
  char needle[400];
  snprintf(needle, sizeof needle, "%s/sandboxes/%s/", n->data, id);
  return kill_matching(needle, false, "qemu-system");
}

int hg_it_count_vms(hg_it_node *n) {
  return kill_matching(n->dir, true, "qemu-system");
}

/* The sandboxes' network namespaces outlive hangard by design (bind
 * mounts under <data>/netns): they go before the image can be unmounted. */
static void netns_cleanup(hg_it_node *n) {
  char dir[400], **names;
  size_t count;
  snprintf(dir, sizeof dir, "%s/netns", n->data);
  if (hg_netns_list(dir, &names, &count) == 0) {
    for (size_t i = 0; i < count; i++) hg_netns_delete(dir, names[i]);
    hg_netns_list_free(names);
  }
  hg_netns_dir_release(dir);
}

/* What an exit status says: "exit 23", "signal 9". */
static const char *status_str(int status, char buf[32]) {
  if (WIFEXITED(status)) snprintf(buf, 32, "exit %d", WEXITSTATUS(status));
  else if (WIFSIGNALED(status)) snprintf(buf, 32, "signal %d", WTERMSIG(status));
  else snprintf(buf, 32, "status 0x%x", (unsigned)status);
  return buf;
}

int hg_it_stop_child(pid_t pid, const char *who) {
  int st = 0;
  pid_t got = 0;
  kill(pid, SIGTERM);
  for (int64_t end = hg_now_ms() + HG_IT_STOP_TIMEOUT_MS;
       (got = waitpid(pid, &st, WNOHANG)) == 0 && hg_now_ms() < end;)
    usleep(50000);
  char why[32];
  if (got == 0) {
    fprintf(stderr, "harness: %s (pid %d) still running %d ms after SIGTERM\n", who,
            (int)pid, HG_IT_STOP_TIMEOUT_MS);
    kill(pid, SIGKILL);
    waitpid(pid, NULL, 0);
    return -1;
  }
  if (got < 0 || !WIFEXITED(st) || WEXITSTATUS(st) != 0) {
    fprintf(stderr, "harness: %s stopped by SIGTERM with %s, not its clean exit 0\n", who,
            got < 0 ? strerror(errno) : status_str(st, why));
    return -1;
  }
  return 0;
}

int hg_it_node_stop(hg_it_node *n) {
  if (!n->dir[0]) return 0;
  int rc = n->pid > 0 ? hg_it_stop_child(n->pid, "hangard") : 0;
  n->pid = 0;
  char log[320];
  snprintf(log, sizeof log, "%s/hangard.log", n->dir);
  if (rc < 0) hg_it_log_tail(log, 40);
  if (hg_it_log_check(log, "hangard") < 0) rc = -1;
  for (int i = 0; i < 3 && kill_matching(n->dir, false, NULL) > 0; i++) usleep(200000);
  netns_cleanup(n);
  hg_store_destroy(n->data);
  if (rc == 0 && !getenv("HG_IT_KEEP")) hg_rm_rf(n->dir);
  else fprintf(stderr, "harness: kept %s (hangard.log) for a look\n", n->dir);
  n->dir[0] = '\0';
  return rc;
}

/* --- what hangard leaves to check ----------------------------------------------- */

void hg_it_sanitizer_env(void) {
  const char *now = getenv("ASAN_OPTIONS");
  static const char want[] = "detect_leaks=1";
  size_t len = now ? strlen(now) : 0;
  if (len >= sizeof want - 1 && strcmp(now + len - (sizeof want - 1), want) == 0) return;
  char *v = malloc(len + sizeof want + 1);
  if (!v) return;
  sprintf(v, "%s%s%s", len ? now : "", len ? ":" : "", want); /* the last one wins */
  setenv("ASAN_OPTIONS", v, 1);
  free(v);
}

/* Prints text from p on, at most max bytes, each line prefixed. */
static void print_from(const char *who, const char *p, size_t max) {
  const char *end = p + strnlen(p, max);
  while (p < end) {
    const char *nl = memchr(p, '\n', (size_t)(end - p));
    int len = (int)((nl ? nl : end) - p);
    fprintf(stderr, "  %s| %.*s\n", who, len, p);
    p += len + 1;
  }
}

void hg_it_log_tail(const char *path, int lines) {
  char *text = NULL;
  size_t len = 0;
  if (hg_read_file(path, 256u << 20, &text, &len) < 0) return;
  size_t i = len && text[len - 1] == '\n' ? len - 1 : len;
  for (int k = 0; i > 0; i--)
    if (text[i - 1] == '\n' && ++k == lines) break;
  fprintf(stderr, "harness: the end of %s:\n", path);
  print_from("log", text + i, len - i);
  free(text);
}

void hg_it_log_about(const char *path, const char *needle, int lines) {
  char *text = NULL;
  size_t len = 0;
  if (hg_read_file(path, 256u << 20, &text, &len) < 0) return;
  const char *from[lines > 0 ? lines : 1]; /* starts of the last matching lines */
  int got = 0;
  for (const char *p = text, *nl; p < text + len; p = nl + 1) {
    nl = memchr(p, '\n', (size_t)(text + len - p));
    if (!nl) nl = text + len;
    if (memmem(p, (size_t)(nl - p), needle, strlen(needle)))
      from[got++ % lines] = p;
  }
  fprintf(stderr, "harness: %s about %s (last %d of %d lines):\n", path, needle,
          got < lines ? got : lines, got);
  for (int k = got < lines ? 0 : got - lines; k < got; k++) {
    const char *p = from[k % lines], *nl = strchr(p, '\n');
    fprintf(stderr, "  log| %.*s\n", (int)(nl ? nl - p : (long)strlen(p)), p);
  }
  free(text);
}

int hg_it_log_check(const char *path, const char *who) {
  static const char *const marks[] = {"ERROR: AddressSanitizer", "ERROR: LeakSanitizer",
                                      "runtime error:", "SUMMARY: "};
  char *text = NULL;
  size_t len = 0;
  int rc = hg_read_file(path, 256u << 20, &text, &len);
  if (rc == -ENOENT) return 0;
  if (rc < 0) {
    fprintf(stderr, "harness: cannot read %s: %s\n", path, strerror(-rc));
    return -1;
  }
  const char *first = NULL;
  int hits = 0;
  for (size_t k = 0; k < HG_ARRAY_SIZE(marks); k++)
    for (const char *h = strstr(text, marks[k]); h; h = strstr(h + 1, marks[k])) {
      hits++;
      if (!first || h < first) first = h;
    }
  if (first) {
    while (first > text && first[-1] != '\n') first--;
    fprintf(stderr, "harness: %s: %d sanitizer report line(s) in %s; the first:\n", who,
            hits, path);
    print_from(who, first, 24 * 1024);
  }
  free(text);
  return first ? -1 : 0;
}

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

/* token as hg_it_http; hdrs: more header lines, NULL-terminated, or NULL. */
static int http_do(void *curl, hg_it_node *n, const char *method, const char *path,
                   const char *token, const char *const *hdrs, const void *body, size_t len,
                   hg_it_resp *out) {
  memset(out, 0, sizeof *out);
  hg_buf_init(&out->body, 64u << 20);
  CURL *c = curl ? curl : curl_easy_init();
  if (!c) return -ENOMEM;
  if (curl) curl_easy_reset(c); /* options go, the connection stays */
  char url[4096], auth[300];
  snprintf(url, sizeof url, "%s%s", n->url, path);
  snprintf(auth, sizeof auth, "Authorization: Bearer %s", token ? token : HG_IT_KEY);
  struct curl_slist *h = curl_slist_append(NULL, "Expect:");
  if (!token || *token) h = curl_slist_append(h, auth);
  for (size_t i = 0; hdrs && hdrs[i]; i++) h = curl_slist_append(h, hdrs[i]);
  curl_easy_setopt(c, CURLOPT_URL, url);
  if (n->ca[0]) curl_easy_setopt(c, CURLOPT_CAINFO, n->ca);
  curl_easy_setopt(c, CURLOPT_PATH_AS_IS, 1L); /* "/../" reaches the server as written */
  curl_easy_setopt(c, CURLOPT_CUSTOMREQUEST, method);
  curl_easy_setopt(c, CURLOPT_HTTPHEADER, h);
  curl_easy_setopt(c, CURLOPT_WRITEFUNCTION, on_body);
  curl_easy_setopt(c, CURLOPT_WRITEDATA, out);
  curl_easy_setopt(c, CURLOPT_HEADERFUNCTION, on_header);
  curl_easy_setopt(c, CURLOPT_HEADERDATA, out);
  curl_easy_setopt(c, CURLOPT_NOSIGNAL, 1L);
  /* above the longest ?wait (600 s), so the server's answer always comes first */
  curl_easy_setopt(c, CURLOPT_TIMEOUT, 660L);
  if (body) {
    curl_easy_setopt(c, CURLOPT_POSTFIELDS, body);
    curl_easy_setopt(c, CURLOPT_POSTFIELDSIZE_LARGE, (curl_off_t)len);
  }
  CURLcode cc = curl_easy_perform(c);
  curl_easy_getinfo(c, CURLINFO_RESPONSE_CODE, &out->status);
  curl_slist_free_all(h);
  if (!curl) curl_easy_cleanup(c);
  return cc == CURLE_OK ? 0 : -EIO;
}

int hg_it_http_on(void *curl, hg_it_node *n, const char *method, const char *path,
                  const char *token, const void *body, size_t len, hg_it_resp *out) {
  return http_do(curl, n, method, path, token, NULL, body, len, out);
}

int hg_it_http_hdrs(hg_it_node *n, const char *method, const char *path,
                    const char *const *hdrs, const void *body, size_t len, hg_it_resp *out) {
  return http_do(NULL, n, method, path, "", hdrs, body, len, out);
}

int hg_it_http(hg_it_node *n, const char *method, const char *path, const char *token,
               const void *body, size_t len, hg_it_resp *out) {
  return hg_it_http_on(NULL, n, method, path, token, body, len, out);
}

void hg_it_resp_free(hg_it_resp *r) { hg_buf_free(&r->body); }

json_t *hg_it_json_on(void *curl, hg_it_node *n, const char *token, const char *method,
                      const char *path, json_t *body, long *status) {
  char *text = body ? json_dumps(body, JSON_COMPACT) : NULL;
  hg_it_resp r;
  int rc = hg_it_http_on(curl, n, method, path, token, text, text ? strlen(text) : 0, &r);
  free(text);
  *status = rc == 0 ? r.status : 0;
  json_t *j = rc == 0 && r.body.len ? json_loadb(r.body.data, r.body.len, 0, NULL) : NULL;
  hg_it_resp_free(&r);
  return j;
}

json_t *hg_it_json(hg_it_node *n, const char *method, const char *path, json_t *body,
                   long *status) {
  return hg_it_json_on(NULL, n, NULL, method, path, body, status);
}

int hg_it_connect(hg_it_node *n) {
  int fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
  if (fd < 0) return -errno;
  struct sockaddr_in sa = {.sin_family = AF_INET, .sin_port = htons((uint16_t)n->port)};
  sa.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  if (connect(fd, (struct sockaddr *)&sa, sizeof sa) < 0) {
    int rc = -errno;
    close(fd);
    return rc;
  }
  return fd;
}

char *hg_it_metrics(hg_it_node *n) {
  hg_it_resp r;
  char *text = NULL;
  /* no credentials: /metrics is public */
  if (hg_it_http(n, "GET", "/metrics", "", NULL, 0, &r) == 0 && r.status == 200)
    text = strndup(r.body.data ? r.body.data : "", r.body.len);
  hg_it_resp_free(&r);
  return text;
}

double hg_it_metric(const char *text, const char *series) {
  size_t n = strlen(series);
  for (const char *l = text; l && *l; l = strchr(l, '\n'), l = l ? l + 1 : NULL)
    if (strncmp(l, series, n) == 0 && l[n] == ' ') return strtod(l + n + 1, NULL);
  return 0;
}

int hg_it_delete(hg_it_node *n, const char *id) {
  char path[128];
  long status;
  snprintf(path, sizeof path, "/v1/sandboxes/%s?wait=300", id);
  json_t *j = hg_it_json(n, "DELETE", path, NULL, &status);
  json_decref(j);
  if (status != 200) fprintf(stderr, "delete %s: status %ld\n", id, status);
  return status == 200 ? 0 : -EIO;
}

int hg_it_create(hg_it_node *n, char id[32]) {
  long status;
  json_t *req = json_object();
  json_t *j = hg_it_json(n, "POST", "/v1/sandboxes?wait=120", req, &status);
  json_decref(req);
  const char *s = json_string_value(json_object_get(j, "id"));
  int rc = status == 201 && s ? 0 : -EIO;
  if (rc == 0) snprintf(id, 32, "%s", s);
  else fprintf(stderr, "create: status %ld\n", status);
  json_decref(j);
  return rc;
}

int hg_it_run(hg_it_node *n, const char *id, const char *sh_cmd, const char *stdin_text,
              char **out_stdout, int *exit_code) {
  char path[128];
  long status;
  snprintf(path, sizeof path, "/v1/sandboxes/%s/commands?wait=120", id);
  json_t *req = json_pack("{s:[s,s,s]}", "cmd", "sh", "-c", sh_cmd);
  if (stdin_text) json_object_set_new(req, "stdin", json_string(stdin_text));
  json_t *j = hg_it_json(n, "POST", path, req, &status);
  json_decref(req);
  int rc = (status == 201 || status == 200) && json_is_true(json_object_get(j, "exited"))
               ? 0 : -EIO;
  if (rc == 0) {
    *exit_code = (int)json_integer_value(json_object_get(j, "exit_code"));
    const char *s = json_string_value(json_object_get(j, "stdout"));
    if (out_stdout) *out_stdout = strdup(s ? s : "");
  } else {
    char *dump = j ? json_dumps(j, JSON_COMPACT) : NULL;
    fprintf(stderr, "run %s: status %ld %s\n", sh_cmd, status, dump ? dump : "");
    free(dump);
  }
  json_decref(j);
  return rc;
}

long hg_it_counter_last(const char *text) {
  long expect = 1;
  for (const char *p = text; *p;) {
    char *end;
    long v = strtol(p, &end, 10);
    if (v != expect) {
      fprintf(stderr, "counter output broken at %ld:\n%s\n", expect, text);
      return -1;
    }
    expect++;
    p = end;
    while (*p == '\n') p++;
  }
  return expect - 1;
}

long hg_it_wait_counter(char *(*read)(void *ud), void *ud, long min, int timeout_ms) {
  long last = 0;
  for (int64_t end = hg_now_ms() + timeout_ms;; usleep(100000)) {
    char *out = read(ud);
    last = out ? hg_it_counter_last(out) : 0;
    free(out);
    if (last < 0 || last >= min) return last;
    if (hg_now_ms() > end) break;
  }
  fprintf(stderr, "counter at %ld after %d ms, want %ld\n", last, timeout_ms, min);
  return last;
}

const char *hg_it_str(const json_t *j, const char *key) {
  const char *s = json_string_value(json_object_get(j, key));
  return s ? s : "";
}

/* ---- a group whose teardown counts ------------------------------------------- */

static int (*group_teardown)(void **state);
static int group_teardown_rc;

static int teardown_recorded(void **state) {
  group_teardown_rc = group_teardown(state);
  return group_teardown_rc;
}

int hg__it_run_group(const char *name, const struct CMUnitTest *tests, size_t n,
                     int (*setup)(void **state), int (*teardown)(void **state)) {
  group_teardown = teardown;
  group_teardown_rc = 0;
  int failed = _cmocka_run_group_tests(name, tests, n, setup,
                                       teardown ? teardown_recorded : NULL);
  if (group_teardown_rc != 0)
    fprintf(stderr, "%s: the group teardown failed (see above): the test fails\n", name);
  return failed || group_teardown_rc != 0 ? 1 : 0;
}
