/* chaos/workload.c: the clients. One thread per lane; a lane owns one
 * ledger sandbox at a time and sends it requests through random nodes,
 * every choice (operation, node, value, pause) from the lane's own
 * generator seeded by the run's seed, so a seed replays the same choices.
 * Each request is written to the history as invoke, then ok / fail /
 * unknown (no answer, or an answer that does not say whether it was done). */
#include "runner.h"

#include <curl/curl.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#define CH_BODY_MAX (1u << 20) /* answers above this are cut (and unparsed) */
#define CH_KNOWN_MAX 256

static pthread_mutex_t known_mu = PTHREAD_MUTEX_INITIALIZER;
static char known[CH_KNOWN_MAX][64];
static int nknown;
static pthread_mutex_t req_mu = PTHREAD_MUTEX_INITIALIZER;
static int next_req = 1;

static void remember(const char *id) {
  pthread_mutex_lock(&known_mu);
  int have = 0;
  for (int i = 0; i < nknown; i++) have |= strcmp(known[i], id) == 0;
  if (!have && nknown < CH_KNOWN_MAX) snprintf(known[nknown++], 64, "%s", id);
  pthread_mutex_unlock(&known_mu);
}

int ch_known_sandboxes(char (*ids)[64], int cap) {
  pthread_mutex_lock(&known_mu);
  int n = nknown < cap ? nknown : cap;
  memcpy(ids, known, (size_t)n * 64);
  pthread_mutex_unlock(&known_mu);
  return n;
}

/* ---- http ------------------------------------------------------------------ */

static size_t on_body(char *p, size_t sz, size_t n, void *arg) {
  ch_resp *r = arg;
  size_t add = sz * n;
  if (r->len + add > CH_BODY_MAX) return add; /* drop the rest, keep going */
  char *b = realloc(r->body, r->len + add + 1);
  if (!b) return 0;
  memcpy(b + r->len, p, add);
  r->body = b;
  r->len += add;
  b[r->len] = '\0';
  return add;
}

int ch_http(const ch_run *run, int node, const char *method, const char *path,
            const char *body, long timeout_ms, ch_resp *r) {
  memset(r, 0, sizeof *r);
  CURL *c = curl_easy_init();
  if (!c) return -ENOMEM;
  char url[512], auth[200];
  snprintf(url, sizeof url, "http://%s.%d:7070%s", run->subnet, node, path);
  snprintf(auth, sizeof auth, "Authorization: Bearer %s", run->key);
  struct curl_slist *h = curl_slist_append(NULL, auth);
  h = curl_slist_append(h, "Content-Type: application/json");
  curl_easy_setopt(c, CURLOPT_URL, url);
  curl_easy_setopt(c, CURLOPT_CUSTOMREQUEST, method);
  curl_easy_setopt(c, CURLOPT_HTTPHEADER, h);
  curl_easy_setopt(c, CURLOPT_TIMEOUT_MS, timeout_ms);
  curl_easy_setopt(c, CURLOPT_CONNECTTIMEOUT_MS, timeout_ms < 2000 ? timeout_ms : 2000);
  curl_easy_setopt(c, CURLOPT_NOSIGNAL, 1L);
  curl_easy_setopt(c, CURLOPT_WRITEFUNCTION, on_body);
  curl_easy_setopt(c, CURLOPT_WRITEDATA, r);
  if (body) curl_easy_setopt(c, CURLOPT_POSTFIELDS, body);
  else if (strcmp(method, "POST") == 0) curl_easy_setopt(c, CURLOPT_POSTFIELDS, "");
  r->curl_rc = (int)curl_easy_perform(c);
  if (r->curl_rc == CURLE_OK) curl_easy_getinfo(c, CURLINFO_RESPONSE_CODE, &r->status);
  curl_slist_free_all(h);
  curl_easy_cleanup(c);
  if (r->body) r->json = json_loadb(r->body, r->len, 0, NULL);
  return 0;
}

void ch_resp_free(ch_resp *r) {
  free(r->body);
  json_decref(r->json);
  memset(r, 0, sizeof *r);
}

/* ---- a lane ------------------------------------------------------------------ */

typedef enum { S_NONE, S_RUNNING, S_SUSPENDED, S_UNKNOWN } believed;

typedef struct lane_ctx {
  ch_lane *lane;
  ch_run *run;
  uint64_t rng;
  char sb[64];
  char fork[64]; /* the lane's fork of sb, "" when none: deleted later */
  believed st;
  int misses;   /* 404s in a row for the lane's sandbox */
  int64_t next_value;
} lane_ctx;

static uint64_t rnd(uint64_t *s) { /* splitmix64 */
  uint64_t z = (*s += 0x9E3779B97F4A7C15ULL);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
  return z ^ (z >> 31);
}
static int pick(uint64_t *s, int n) { return (int)(rnd(s) % (uint64_t)n); }

static int new_req(void) {
  pthread_mutex_lock(&req_mu);
  int r = next_req++;
  pthread_mutex_unlock(&req_mu);
  return r;
}

/* Writes the invoke of a request to sb; returns the request id. */
static int invoke_to(lane_ctx *L, const char *sb, const char *op, int node, json_t *extra) {
  int req = new_req();
  json_t *ev = json_pack("{s:s,s:i,s:i,s:s,s:s,s:i}", "ev", "invoke", "req", req, "lane",
                         L->lane->id, "op", op, "sb", sb, "node", node);
  if (extra) {
    json_object_update(ev, extra);
    json_decref(extra);
  }
  ch_hist(ev);
  return req;
}

static int invoke(lane_ctx *L, const char *op, int node, json_t *extra) {
  return invoke_to(L, L->sb, op, node, extra);
}

/* ok for 2xx, fail for 4xx and a refused connection (never delivered),
 * unknown for everything else: a timeout, a 5xx (a forwarded request may
 * have been done), a cut answer. */
static const char *outcome(const ch_resp *r) {
  if (r->status >= 200 && r->status < 300) return "ok";
  if (r->status >= 400 && r->status < 500) return "fail";
  if (r->status == 0 && r->curl_rc == CURLE_COULDNT_CONNECT) return "fail";
  return "unknown";
}

static json_t *complete_ev(int req, const char *oc, const ch_resp *r) {
  json_t *ev = json_pack("{s:s,s:i,s:i}", "ev", oc, "req", req, "status", (int)r->status);
  json_t *err = json_object_get(r->json, "error");
  const char *code = json_string_value(json_object_get(err, "code"));
  if (code) json_object_set_new(ev, "code", json_string(code));
  if (r->status == 0) json_object_set_new(ev, "curl", json_integer(r->curl_rc));
  return ev;
}

/* The sandbox fields a client sees (epoch, owner, state) onto ev. */
static void sandbox_fields(json_t *ev, json_t *sb) {
  json_t *v;
  if ((v = json_object_get(sb, "epoch")) && json_is_integer(v)) json_object_set(ev, "epoch", v);
  if ((v = json_object_get(sb, "node")) && json_is_string(v)) json_object_set(ev, "owner", v);
  if ((v = json_object_get(sb, "state")) && json_is_string(v)) json_object_set(ev, "state", v);
}

/* "1\n2\n---\n7\n---\n9\n" -> ledger [1,2], seq 7 (the file /root/seq),
 * mem 9 (the writer's in-memory counter, from tmpfs). A second "---" with
 * no number after it is "mem": null: the counter is gone from memory. */
static void parse_ledger(json_t *ev, const char *text) {
  json_t *ledger = json_array();
  const char *p = text;
  long long seq = -1, mem = -1;
  int part = 0; /* 0 ledger, 1 seq, 2 mem */
  while (p && *p) {
    const char *nl = strchr(p, '\n');
    size_t n = nl ? (size_t)(nl - p) : strlen(p);
    if (n == 3 && strncmp(p, "---", 3) == 0) part++;
    else if (n > 0 && n < 24) {
      char buf[24];
      memcpy(buf, p, n);
      buf[n] = '\0';
      char *end;
      long long v = strtoll(buf, &end, 10);
      if (*end == '\0') {
        if (part == 1) seq = v;
        else if (part == 2) mem = v;
        else if (part == 0) json_array_append_new(ledger, json_integer(v));
      }
    }
    p = nl ? nl + 1 : NULL;
  }
  json_object_set_new(ev, "ledger", ledger);
  if (seq >= 0) json_object_set_new(ev, "seq", json_integer(seq));
  if (part >= 2) json_object_set_new(ev, "mem", mem >= 0 ? json_integer(mem) : json_null());
}

static void lane_sleep(lane_ctx *L, int lo, int hi) {
  int ms = lo + pick(&L->rng, hi - lo + 1);
  struct timespec ts = {ms / 1000, (long)(ms % 1000) * 1000000L};
  nanosleep(&ts, NULL);
}

/* The sequence writer: $i lives in the shell's memory; each tick appends
 * it to /root/seq (disk) and publishes it in /dev/shm/ctr (tmpfs, guest
 * RAM: saved with the VM's memory, never on the root disk), renamed into
 * place so a reader never sees half a number. A restore from memory keeps
 * both the process and the file; a cold boot would lose both. */
#define SEQ_CMD                                                                              \
  "{\"cmd\":[\"sh\",\"-c\",\"i=0; while :; do i=$((i+1)); echo $i >> /root/seq; "               \
  "echo $i > /dev/shm/ctr.new && mv /dev/shm/ctr.new /dev/shm/ctr; sleep 0.5; done\"]}"

static void op_create(lane_ctx *L, int node) {
  L->sb[0] = '\0';
  int req = invoke(L, "create", node, NULL);
  ch_resp r;
  ch_http(L->run, node, "POST", "/v1/sandboxes?wait=30", "{}", 40000, &r);
  const char *oc = outcome(&r);
  json_t *ev = complete_ev(req, oc, &r);
  const char *id = json_string_value(json_object_get(r.json, "id"));
  if (id && strlen(id) < 64) {
    json_object_set_new(ev, "sb", json_string(id));
    snprintf(L->sb, sizeof L->sb, "%s", id);
    remember(id);
  }
  if (strcmp(oc, "ok") == 0) sandbox_fields(ev, r.json);
  ch_hist(ev);
  L->st = !L->sb[0] ? S_NONE : strcmp(oc, "ok") == 0 ? S_RUNNING : S_UNKNOWN;
  ch_resp_free(&r);
  if (L->st == S_RUNNING) { /* the sequence writer: a process the VM keeps */
    char path[160];
    snprintf(path, sizeof path, "/v1/sandboxes/%s/commands", L->sb);
    req = invoke(L, "start_seq", node, NULL);
    ch_http(L->run, node, "POST", path, SEQ_CMD, 10000, &r);
    ch_hist(complete_ev(req, outcome(&r), &r));
    ch_resp_free(&r);
  }
}

/* An append to sb's ledger (the lane's sandbox or its fork); the outcome. */
static const char *exec_on(lane_ctx *L, const char *sb, int node) {
  long long v = L->next_value++;
  char path[160], body[400];
  snprintf(path, sizeof path, "/v1/sandboxes/%s/commands?wait=10", sb);
  snprintf(body, sizeof body,
           "{\"cmd\":[\"sh\",\"-c\",\"echo %lld >> /root/ledger && sync && cat /root/ledger && "
           "echo --- && { tail -n1 /root/seq; echo ---; cat /dev/shm/ctr; true; } 2>/dev/null\"]}",
           v);
  int req = invoke_to(L, sb, "exec", node, json_pack("{s:I}", "value", (json_int_t)v));
  ch_resp r;
  ch_http(L->run, node, "POST", path, body, 15000, &r);
  const char *oc = outcome(&r);
  json_t *exited = json_object_get(r.json, "exited");
  json_t *code = json_object_get(r.json, "exit_code");
  if (strcmp(oc, "ok") == 0 && !json_is_true(exited)) oc = "unknown"; /* still running */
  else if (strcmp(oc, "ok") == 0 && json_integer_value(code) != 0) oc = "fail";
  json_t *ev = complete_ev(req, oc, &r);
  if (strcmp(oc, "ok") == 0) parse_ledger(ev, json_string_value(json_object_get(r.json, "stdout")));
  ch_hist(ev);
  ch_resp_free(&r);
  return oc;
}

static void op_exec(lane_ctx *L, int node) {
  if (strcmp(exec_on(L, L->sb, node), "ok") != 0) L->st = S_UNKNOWN;
}

static void op_get(lane_ctx *L, int node) {
  char path[160];
  snprintf(path, sizeof path, "/v1/sandboxes/%s", L->sb);
  int req = invoke(L, "get", node, NULL);
  ch_resp r;
  ch_http(L->run, node, "GET", path, NULL, 5000, &r);
  const char *oc = outcome(&r);
  json_t *ev = complete_ev(req, oc, &r);
  if (strcmp(oc, "ok") == 0) {
    sandbox_fields(ev, r.json);
    const char *st = json_string_value(json_object_get(r.json, "state"));
    L->st = st && strcmp(st, "running") == 0     ? S_RUNNING
            : st && strcmp(st, "suspended") == 0 ? S_SUSPENDED
                                                 : S_UNKNOWN;
    L->misses = 0;
  } else if (r.status == 404) {
    L->misses++;
  }
  ch_hist(ev);
  ch_resp_free(&r);
}

static void op_read(lane_ctx *L, int node) {
  char path[200];
  snprintf(path, sizeof path, "/v1/sandboxes/%s/files?path=/root/ledger", L->sb);
  int req = invoke(L, "read", node, NULL);
  ch_resp r;
  ch_http(L->run, node, "GET", path, NULL, 8000, &r);
  const char *oc = outcome(&r);
  json_t *ev = complete_ev(req, oc, &r);
  if (strcmp(oc, "ok") == 0) parse_ledger(ev, r.body ? r.body : "");
  else if (r.status == 404 && !r.json) { /* the file is absent: an empty ledger */
    json_object_set_new(ev, "ledger", json_array());
  }
  ch_hist(ev);
  if (strcmp(oc, "ok") != 0) L->st = S_UNKNOWN;
  ch_resp_free(&r);
}

/* A lifecycle request (POST …/suspend, …/checkpoint, …/fork or DELETE)
 * to sb, waited for up to 25 s: the outcome (a 202 whose wait ran out is
 * unknown: still going); *ev is its completion, not yet written, and r the
 * answer, both for the caller to finish. */
static const char *lifecycle(lane_ctx *L, const char *sb, const char *op, int node,
                             const char *method, const char *what, const char *body, ch_resp *r,
                             json_t **ev) {
  char path[200];
  snprintf(path, sizeof path, "/v1/sandboxes/%s%s?wait=25", sb, what);
  int req = invoke_to(L, sb, op, node, NULL);
  ch_http(L->run, node, method, path, body, 30000, r);
  const char *oc = outcome(r);
  if (r->status == 202) oc = "unknown";
  *ev = complete_ev(req, oc, r);
  json_t *gen = json_object_get(json_object_get(r->json, "result"), "gen");
  if (gen) json_object_set(*ev, "gen", gen);
  return oc;
}

static void op_suspend(lane_ctx *L, int node) {
  ch_resp r;
  json_t *ev;
  const char *oc = lifecycle(L, L->sb, "suspend", node, "POST", "/suspend", NULL, &r, &ev);
  ch_hist(ev);
  L->st = strcmp(oc, "ok") == 0 ? S_SUSPENDED : S_UNKNOWN;
  ch_resp_free(&r);
}

/* A generation of the running sandbox without stopping it (DESIGN §6):
 * acknowledged once its holders have it. */
static void op_checkpoint(lane_ctx *L, int node) {
  ch_resp r;
  json_t *ev;
  const char *oc = lifecycle(L, L->sb, "checkpoint", node, "POST", "/checkpoint", NULL, &r, &ev);
  ch_hist(ev);
  if (strcmp(oc, "ok") != 0) L->st = S_UNKNOWN;
  ch_resp_free(&r);
}

/* A fork of the running sandbox (from a generation taken now): a new
 * sandbox, "child" in the history, read once through another exec and
 * deleted on a later step of the lane (op_drop_fork). */
static void op_fork(lane_ctx *L, int node) {
  ch_resp r;
  json_t *ev;
  const char *oc = lifecycle(L, L->sb, "fork", node, "POST", "/fork", "{}", &r, &ev);
  const char *id = json_string_value(json_object_get(r.json, "id"));
  bool made = strcmp(oc, "ok") == 0 && id && strlen(id) < 64;
  if (made) {
    json_object_set_new(ev, "child", json_string(id));
    snprintf(L->fork, sizeof L->fork, "%s", id);
    remember(id);
  }
  ch_hist(ev);
  ch_resp_free(&r);
  if (made) exec_on(L, L->fork, node);
  else if (strcmp(oc, "fail") != 0) L->st = S_UNKNOWN;
}

static void op_drop_fork(lane_ctx *L, int node) {
  ch_resp r;
  json_t *ev;
  lifecycle(L, L->fork, "delete", node, "DELETE", "", NULL, &r, &ev);
  ch_hist(ev);
  ch_resp_free(&r);
  L->fork[0] = '\0'; /* whatever came of it: the teardown takes the rest */
}

typedef struct resume_arg {
  lane_ctx *L;
  int node, target; /* target: ?node=n<target>, 0 for none */
  int ok;
} resume_arg;

static void *resume_one(void *arg) {
  resume_arg *a = arg;
  char path[200];
  if (a->target)
    snprintf(path, sizeof path, "/v1/sandboxes/%s/resume?wait=25&node=n%d", a->L->sb, a->target);
  else
    snprintf(path, sizeof path, "/v1/sandboxes/%s/resume?wait=25", a->L->sb);
  int req = invoke(a->L, "resume", a->node, a->target ? json_pack("{s:i}", "target", a->target) : NULL);
  ch_resp r;
  ch_http(a->L->run, a->node, "POST", path, NULL, 30000, &r);
  const char *oc = outcome(&r);
  if (r.status == 202) oc = "unknown";
  ch_hist(complete_ev(req, oc, &r));
  a->ok = strcmp(oc, "ok") == 0;
  ch_resp_free(&r);
  return NULL;
}

/* Plain, ?node=, or two at once through two nodes (one of each): the race
 * a lease must settle with one winner. */
static void op_resume(lane_ctx *L, int node) {
  int n = L->run->nodes, how = pick(&L->rng, 10);
  resume_arg a = {L, node, 0, 0}, b = {L, 0, 0, 0};
  if (how >= 5) a.target = 1 + pick(&L->rng, n);
  if (how >= 8 && n > 1) {
    b.node = 1 + (node % n);
    a.target = 1 + pick(&L->rng, n);
    pthread_t th;
    if (pthread_create(&th, NULL, resume_one, &b) == 0) {
      resume_one(&a);
      pthread_join(th, NULL);
    }
  } else {
    resume_one(&a);
  }
  L->st = a.ok || b.ok ? S_RUNNING : S_UNKNOWN;
}

static void op_delete(lane_ctx *L, int node) {
  ch_resp r;
  json_t *ev;
  const char *oc = lifecycle(L, L->sb, "delete", node, "DELETE", "", NULL, &r, &ev);
  ch_hist(ev);
  if (strcmp(oc, "ok") == 0 || r.status == 404) L->sb[0] = '\0', L->st = S_NONE;
  else L->st = S_UNKNOWN;
  ch_resp_free(&r);
}

static void lane_step(lane_ctx *L) {
  int node = 1 + pick(&L->rng, L->run->nodes);
  int p = pick(&L->rng, 100);
  if (!L->sb[0] || L->misses >= 5) {
    L->misses = 0;
    op_create(L, node);
    return;
  }
  if (L->fork[0] && p < 25) {
    op_drop_fork(L, node);
    return;
  }
  switch (L->st) {
  case S_RUNNING:
    if (p < 40) op_exec(L, node);
    else if (p < 52) op_read(L, node);
    else if (p < 60) op_get(L, node);
    else if (p < 70) op_checkpoint(L, node);
    else if (p < 74 && !L->fork[0]) op_fork(L, node);
    else if (p < 95) op_suspend(L, node);
    else op_delete(L, node);
    break;
  case S_SUSPENDED:
    if (p < 85) op_resume(L, node);
    else if (p < 95) op_get(L, node);
    else op_delete(L, node);
    break;
  default:
    op_get(L, node);
    if (L->st == S_UNKNOWN && p < 30) op_resume(L, node); /* maybe suspended or stopped */
    break;
  }
}

void *ch_lane_main(void *arg) {
  ch_lane *lane = arg;
  lane_ctx L = {.lane = lane, .run = lane->run, .st = S_NONE,
                .next_value = (int64_t)(lane->id + 1) * 1000000};
  L.rng = lane->run->seed * 1000003ULL + (uint64_t)lane->id * 7919ULL + 17;
  while (!lane->run->stop_lanes) {
    lane_step(&L);
    lane_sleep(&L, 50, 300);
  }
  return NULL; /* a fork still there is the teardown's (checked after the heal as any) */
}
