/* test_forward: "any node answers" over real sockets. One loop thread runs
 * the front node (a real hg_http server with the API, a fake cluster
 * vtable and a small fake runtime) and three fake upstream nodes (plain
 * hg_http servers that answer like an owner would). The test thread is a
 * blocking-socket client that parses answers with llhttp and can read
 * slowly. The API's pieces are linked from hg_api and reached through
 * api/api_internal.h (as test_api does); the runtime they call is faked
 * here, and the linker takes these definitions over node/'s. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "api/api_internal.h"
#include "api/tls.h"
#include "api_node.h"

#include <arpa/inet.h>
#include <ctype.h>
#include <signal.h>
#include <llhttp.h>
#include <netinet/in.h>
#include <pthread.h>
#include <sys/socket.h>
#include <unistd.h>

#define LOCAL_SB "sb-00000000000000aa"
#define REMOTE_SB "sb-0000000000000abc"
#define ADMIN "hgk_forward_test_admin_key"
#define CLUSTER_KEY "ffeeddccbbaa99887766554433221100ffeeddccbbaa99887766554433221100"

/* ---- fake runtime: one local sandbox, no local operations -------------------- */

static atomic_bool create_nospc; /* hg_sandbox_create_begin says the node is full */
static atomic_int creates;

int hg_sandbox_create_begin(hg_manager *m, const hg_sandbox_spec *spec, char id[HG_ID_MAX],
                            char token[65]) {
  if (atomic_load(&create_nospc)) return -ENOSPC;
  atomic_fetch_add(&creates, 1);
  snprintf(id, HG_ID_MAX, "sb-00000000000000cc");
  memset(token, 'f', 64);
  token[64] = '\0';
  return 0;
}
int hg_sandbox_create_finish(hg_manager *m, const char *id) { return 0; }
int hg_sandbox_describe(hg_manager *m, const char *id, json_t **out) {
  if (strcmp(id, LOCAL_SB)) return -ENOENT;
  *out = json_pack("{s:s,s:s}", "id", id, "state", "running");
  return 0;
}
json_t *hg_sandbox_list(hg_manager *m, const char *state, const char *label) {
  return json_pack("[{s:s,s:s}]", "id", LOCAL_SB, "state", "running");
}
bool hg_sandbox_token_ok(hg_manager *m, const char *id, const char *token) { return false; }
/* Everything else of the runtime: the front node never runs it, since every
 * request in these tests is forwarded, placed elsewhere or answered from the
 * directory. A call is counted, and teardown asserts there was none. */
static atomic_int local_calls;
static int local_call(void) {
  atomic_fetch_add(&local_calls, 1);
  return -EOPNOTSUPP;
}
int hg_sandbox_pause(hg_manager *m, const char *id) { return local_call(); }
int hg_sandbox_resume(hg_manager *m, const char *id) { return local_call(); }
int hg_sandbox_set_idle(hg_manager *m, const char *id, int64_t s) { return local_call(); }
int hg_sandbox_suspend(hg_manager *m, const char *id, uint64_t *gen) { return local_call(); }
int hg_sandbox_snapshot(hg_manager *m, const char *id, char name[64]) { return local_call(); }
int hg_sandbox_checkpoint(hg_manager *m, const char *id, uint64_t *gen, double *pause_ms) {
  return local_call();
}
int hg_sandbox_gen_publish(hg_manager *m, const char *id, uint64_t gen) { return 0; }
int hg_sandbox_fork(hg_manager *m, const char *id, uint64_t gen, const char *snapshot,
                    char new_id[HG_ID_MAX], char new_token[65]) {
  return local_call();
}
int hg_sandbox_delete(hg_manager *m, const char *id) { return local_call(); }
int hg_sandbox_agent_get(hg_manager *m, const char *id, hg_agent **out) { return local_call(); }
void hg_sandbox_agent_put(hg_manager *m, const char *id) {}
int hg_sandbox_exec(hg_manager *m, const char *id, const hg_exec_req *req, uint64_t *cid,
                    int *pid) {
  return local_call();
}
json_t *hg_manager_template_list(hg_manager *m) { return json_array(); }
json_t *hg_manager_orphans(hg_manager *m) { return json_array(); }
int hg_manager_orphan_delete(hg_manager *m, const char *name) { return local_call(); }
unsigned hg_manager_orphan_count(hg_manager *m) { return 0; }
int hg_manager_template_register(hg_manager *m, const char *name_tag, const char *src_dir,
                                 char digest_out[65], char why[HG_TEMPLATE_WHY_MAX]) {
  return local_call();
}
void hg_manager_counts(hg_manager *m, unsigned counts[HG_SB_FAILED + 1]) {
  memset(counts, 0, sizeof(unsigned) * (HG_SB_FAILED + 1));
}
const char *hg_sb_state_name(hg_sb_state s) { return "running"; }
int hg_sb_state_parse(const char *name, hg_sb_state *out) { return -EINVAL; }
int hg_agent_wait(hg_agent *a, uint64_t cid, uint32_t timeout_ms, hg_cmd_status *st) { return local_call(); }
int hg_agent_read(hg_agent *a, uint64_t cid, int stream, uint64_t offset, uint32_t max,
                  uint32_t wait_ms, hg_buf *out, hg_read_res *res) {
  return local_call();
}
int hg_agent_stdin(hg_agent *a, uint64_t cid, const void *data, size_t len, bool eof) { return local_call(); }
int hg_agent_signal(hg_agent *a, uint64_t cid, int sig) { return local_call(); }
int hg_agent_file_read(hg_agent *a, const char *path, size_t max, hg_buf *out) { return local_call(); }
int hg_agent_file_write_at(hg_agent *a, const char *path, const void *data, size_t len,
                           uint64_t at, uint32_t mode) {
  return local_call();
}
int hg_agent_stat(hg_agent *a, const char *path, hg_file_stat *st) { return local_call(); }
int hg_agent_list(hg_agent *a, const char *path,
                  void (*fn)(void *ud, const char *name, const hg_file_stat *st), void *ud) {
  return local_call();
}
int hg_agent_mkdir(hg_agent *a, const char *path, bool parents) { return local_call(); }
int hg_agent_remove(hg_agent *a, const char *path, bool recursive) { return local_call(); }
int hg_agent_rename(hg_agent *a, const char *from, const char *to) { return local_call(); }
int hg_op_begin(hg_ops *ops, const char *kind, const char *sandbox, char id[HG_ID_MAX]) {
  return hg_id_new("op", id);
}
void hg_op_finish(hg_ops *ops, const char *id, int rc, json_t *result) { json_decref(result); }
int hg_op_done(hg_ops *ops, const char *kind, const char *sandbox, json_t *result,
               char id[HG_ID_MAX]) {
  json_decref(result);
  return hg_id_new("op", id);
}
int hg_sandbox_info(hg_manager *m, const char *id, hg_sb_info *out) { return -ENOENT; }
int hg_op_describe(hg_ops *ops, const char *id, json_t **out) { return -ENOENT; }
int hg_op_status_of(hg_ops *ops, const char *id, hg_op_status *out) { return -ENOENT; }
json_t *hg_op_list(hg_ops *ops, const char *sandbox) { return json_array(); }
void hg_ops_metrics(hg_ops *ops, hg_op_metric_fn fn, void *ud) {}
void hg_op_progress(hg_ops *ops, const char *id, const char *text) {}

static int fake_runtime;
#define FK_MANAGER ((hg_manager *)&fake_runtime)
#define FK_OPS ((hg_ops *)&fake_runtime)

/* ---- fake cluster (called on the loop thread; set by the test before a request) --- */

static struct {
  char loc_owner[64], loc_addr[64]; /* REMOTE_SB lives there ("" : nowhere else) */
  int place_rc[2], nplace;          /* answers of successive place calls */
  char place_owner[64], place_addr[64], place_reason[256];
  char zone[64], label[256];        /* what the last place call got */
  char members[2048];
  int decommission_rc;
} fp;

static int fp_locate(void *ud, const char *sb, char owner[64], char addr[64]) {
  if (!fp.loc_owner[0] || strcmp(sb, REMOTE_SB)) return 0;
  snprintf(owner, 64, "%s", fp.loc_owner);
  snprintf(addr, 64, "%s", fp.loc_addr);
  return 1;
}

static int fp_place(void *ud, const char *tmpl, unsigned vcpus, unsigned mem, const char *zone,
                    const char *label, char owner[64], char addr[64], char reason[256]) {
  snprintf(fp.zone, sizeof fp.zone, "%s", zone ? zone : "");
  snprintf(fp.label, sizeof fp.label, "%s", label ? label : "");
  int rc = fp.place_rc[fp.nplace < 2 ? fp.nplace : 1];
  fp.nplace++;
  if (rc == 0) {
    snprintf(owner, 64, "%s", fp.place_owner);
    snprintf(addr, 64, "%s", fp.place_addr);
  }
  if (rc == -ENOSPC) snprintf(reason, 256, "%s", fp.place_reason);
  return rc;
}

static json_t *fp_members(void *ud) { return json_loads(fp.members, 0, NULL); }
static json_t *fp_directory(void *ud) { return json_array(); }
static int fp_decommission(void *ud, const char *node) { return fp.decommission_rc; }

static const hg_api_peers fake_peers = {
    .locate = fp_locate, .place = fp_place, .members = fp_members,
    .directory = fp_directory, .decommission = fp_decommission,
};

/* ---- fake upstream nodes ---------------------------------------------------------- */

typedef struct upstream {
  hg_http_server *srv;
  int port;
  char name[16], addr[32];
  char misdirect[128]; /* "node addr": answer 421 with this X-Hangar-Owner */
  char op[HG_ID_MAX];  /* the one operation this node knows */
  atomic_int nreq, aborts;
  /* the last request */
  char method[8], target[256], authz[128], fwd[64], xff[128], ctype[64], accept[64], expect[32];
  char ident[300];
  int sig_rc; /* the signature as an owner checks it (fwdsign.h), body included */
  size_t body_len;
  uint64_t body_hash;
} upstream;

static upstream ups[3]; /* A, B, C */
/* HG_TEST_FWD_TLS set: the owners listen with TLS (api/tls.h, a self-signed
 * certificate for 127.0.0.1 made with the openssl CLI) and the front node
 * forwards over https, checking it against that certificate. */
static char tls_dir[64], tls_cert[128], tls_key[128];
static hg_tls *up_tls;
static hg_fwdsign *up_check; /* the owners' side of the cluster key */
static uv_loop_t *up_loop;

static uint64_t fnv(const void *p, size_t n) {
  uint64_t h = 1469598103934665603ull;
  for (size_t i = 0; i < n; i++) h = (h ^ ((const unsigned char *)p)[i]) * 1099511628211ull;
  return h;
}

/* The byte at absolute offset i of a streamed body. */
static unsigned char pattern(uint64_t i) { return (unsigned char)(i * 131 + (i >> 16)); }

typedef struct up_stream {
  uv_timer_t t;
  hg_http_req *req;
  upstream *u;
  uint64_t off, total; /* total 0: forever */
} up_stream;

static void up_stream_closed(uv_handle_t *h) { free(h->data); }

/* Writes while the front reads (its own queue bounded at 256 KiB), so the
 * stream as a whole is paced by the front, and so by the slow client. */
static void up_stream_tick(uv_timer_t *t) {
  up_stream *s = t->data;
  unsigned char chunk[64 * 1024];
  bool alive = hg_http_req_alive(s->req);
  while (alive && hg_http_stream_pending(s->req) < 256 * 1024 && (!s->total || s->off < s->total)) {
    size_t n = sizeof chunk;
    if (s->total && s->total - s->off < n) n = (size_t)(s->total - s->off);
    for (size_t i = 0; i < n; i++) chunk[i] = pattern(s->off + i);
    if (hg_http_stream_write(s->req, chunk, n) < 0) alive = false;
    s->off += n;
  }
  if (alive && (!s->total || s->off < s->total)) return;
  hg_http_stream_end(s->req);
  uv_timer_stop(t);
  uv_close((uv_handle_t *)t, up_stream_closed);
}

static void up_record(upstream *u, hg_http_req *req) {
  const char *v;
#define REC(field, name) snprintf(u->field, sizeof u->field, "%s", (v = hg_http_header_get(req, name)) ? v : "")
  REC(authz, "authorization");
  REC(fwd, "x-hangar-forwarded");
  REC(xff, "x-forwarded-for");
  REC(ctype, "content-type");
  REC(accept, "accept");
  REC(expect, "expect");
  REC(ident, "x-hangar-identity");
#undef REC
  hg_fwdsign_req fr = {.method = req->method,
                       .target = req->target,
                       .node = hg_http_header_get(req, "x-hangar-forwarded"),
                       .identity = hg_http_header_get(req, "x-hangar-identity"),
                       .digest = hg_http_header_get(req, "x-hangar-body-sha256"),
                       .sig = hg_http_header_get(req, "x-hangar-signature")};
  u->sig_rc = hg_fwdsign_check(up_check, &fr, hg_wall_ns() / 1000000);
  if (u->sig_rc == 0) u->sig_rc = hg_fwdsign_check_body(fr.digest, req->body, req->body_len);
  snprintf(u->method, sizeof u->method, "%s", req->method);
  snprintf(u->target, sizeof u->target, "%s", req->target);
  u->body_len = req->body_len;
  u->body_hash = fnv(req->body, req->body_len);
  atomic_fetch_add(&u->nreq, 1);
}

static void up_json(hg_http_req *req, int status, const char *hdrs, json_t *o) {
  char *s = json_dumps(o, JSON_COMPACT);
  json_decref(o);
  hg_http_respond(req, status, "application/json", hdrs, s, strlen(s));
  free(s);
}

static void up_handler(hg_http_server *srv, hg_http_req *req, void *ud) {
  upstream *u = ud;
  up_record(u, req);
  char hdr[256], val[32];
  if (!strncmp(req->path, "/v1/operations/", 15)) {
    if (!strcmp(req->path + 15, u->op))
      up_json(req, 200, NULL, json_pack("{s:s,s:s,s:s}", "id", u->op, "status", "succeeded", "node", u->name));
    else
      up_json(req, 404, NULL, json_pack("{s:{s:s,s:s}}", "error", "code", "not_found", "message", "no"));
  } else if (u->misdirect[0]) {
    snprintf(hdr, sizeof hdr, "X-Hangar-Owner: %s\r\n", u->misdirect);
    up_json(req, 421, hdr, json_pack("{s:{s:s,s:s}}", "error", "code", "misdirected", "message", u->name));
  } else if (strlen(req->path) > 7 && !strcmp(req->path + strlen(req->path) - 7, "/output")) {
    up_stream *s = calloc(1, sizeof *s);
    s->req = req;
    s->u = u;
    if (hg_http_query_get(req, "n", val, sizeof val) == 0) s->total = strtoull(val, NULL, 10);
    s->t.data = s;
    hg_http_stream_start(req, 200, "application/octet-stream", "X-Hangar-Offset: 0\r\n");
    uv_timer_init(up_loop, &s->t);
    uv_timer_start(&s->t, up_stream_tick, 0, 1);
  } else if (!strcmp(req->method, "PUT")) {
    hg_http_respond(req, 204, NULL, "X-Hangar-Written: 1\r\n", NULL, 0);
  } else if (!strcmp(req->method, "POST") && !strcmp(req->path, "/v1/sandboxes")) {
    up_json(req, 202, "Location: /v1/operations/op-00000000000000bb\r\n",
            json_pack("{s:s,s:s,s:s}", "id", "sb-00000000000000bb", "operation",
                      "op-00000000000000bb", "node", u->name));
  } else {
    json_t *o = json_pack("{s:s,s:s}", "node", u->name, "path", req->path);
    json_object_set_new(o, "body", json_stringn(req->body, req->body_len > 64 ? 64 : req->body_len));
    up_json(req, 200,
            "Location: /elsewhere\r\nX-Hangar-Offset: 7\r\nX-Other: 1\r\nRetry-After: 3\r\n"
            "X-Hangar-Node: liar\r\n",
            o);
  }
}

static void up_abort(hg_http_req *req, void *ud) { atomic_fetch_add(&((upstream *)ud)->aborts, 1); }

/* ---- the loop thread ------------------------------------------------------------ */

static struct {
  uv_loop_t loop;
  uv_async_t wake;
  pthread_t th;
  pthread_mutex_t mu;
  pthread_cond_t cv;
  bool ready;
  hg_api *api;
  hg_http_server *front;
  int port, dead_port;
  char dead_addr[32];
} lt;

static void on_front_done(void *ud) { hg_api_free(lt.api); }

static void on_wake(uv_async_t *a) {
  hg_api_stop(lt.api);
  hg_http_server_shutdown(lt.front, 0, on_front_done, NULL);
  for (int i = 0; i < 3; i++) hg_http_server_shutdown(ups[i].srv, 0, NULL, NULL);
  hg_tls_free(up_tls); /* once its relays have closed */
  up_tls = NULL;
  uv_close((uv_handle_t *)a, NULL);
}

static void *loop_main(void *arg) {
  uv_loop_init(&lt.loop);
  up_loop = &lt.loop;
  uv_async_init(&lt.loop, &lt.wake, on_wake);
  hg_api_work w = test_work(FK_MANAGER);
  hg_api_config cfg = {.manager = FK_MANAGER, .ops = FK_OPS, .work = &w, .admin_key = ADMIN,
                       .node_id = "n-front", .version = "t", .peers = &fake_peers,
                       .cluster_keys = CLUSTER_KEY, .cluster_name = "fwd",
                       .peer_tls = tls_cert[0] != '\0', .peer_ca = tls_cert};
  if (!up_check) assert_int_equal(hg_fwdsign_new(CLUSTER_KEY, "fwd", 0, 0, &up_check), 0);
  char err[256];
  if (tls_cert[0]) assert_int_equal(hg_tls_new(tls_cert, tls_key, &up_tls, err), 0);
  assert_int_equal(hg_api_new(&lt.loop, &cfg, &lt.api), 0);
  hg_http_options opt = {.host = "127.0.0.1"};
  hg_api_http_options(lt.api, &opt);
  assert_int_equal(hg_http_server_start(&lt.loop, &opt, &lt.front), 0);
  lt.port = hg_http_port(lt.front);
  static const char *const names[3] = {"n-a", "n-b", "n-c"};
  for (int i = 0; i < 3; i++) {
    upstream *u = &ups[i];
    hg_http_options uo = {.host = "127.0.0.1", .handler = up_handler, .on_abort = up_abort, .ud = u,
                          .max_body = 64u << 20, .tls = up_tls};
    assert_int_equal(hg_http_server_start(&lt.loop, &uo, &u->srv), 0);
    u->port = hg_http_port(u->srv);
    snprintf(u->name, sizeof u->name, "%s", names[i]);
    snprintf(u->addr, sizeof u->addr, "127.0.0.1:%d", u->port);
  }
  pthread_mutex_lock(&lt.mu);
  lt.ready = true;
  pthread_cond_signal(&lt.cv);
  pthread_mutex_unlock(&lt.mu);
  uv_run(&lt.loop, UV_RUN_DEFAULT);
  assert_int_equal(uv_loop_close(&lt.loop), 0);
  return NULL;
}

/* A port nobody listens on: bound, then closed. */
static int dead_port(void) {
  int fd = socket(AF_INET, SOCK_STREAM, 0);
  struct sockaddr_in a = {.sin_family = AF_INET, .sin_addr.s_addr = htonl(INADDR_LOOPBACK)};
  socklen_t len = sizeof a;
  assert_int_equal(bind(fd, (struct sockaddr *)&a, sizeof a), 0);
  getsockname(fd, (struct sockaddr *)&a, &len);
  close(fd);
  return ntohs(a.sin_port);
}

static int setup(void **state) {
  memset(&fp, 0, sizeof fp);
  memset(ups, 0, sizeof ups);
  memset(&lt, 0, sizeof lt);
  atomic_store(&create_nospc, false);
  atomic_store(&creates, 0);
  atomic_store(&local_calls, 0);
  pthread_mutex_init(&lt.mu, NULL);
  pthread_cond_init(&lt.cv, NULL);
  pthread_create(&lt.th, NULL, loop_main, NULL);
  pthread_mutex_lock(&lt.mu);
  while (!lt.ready) pthread_cond_wait(&lt.cv, &lt.mu);
  pthread_mutex_unlock(&lt.mu);
  lt.dead_port = dead_port();
  snprintf(lt.dead_addr, sizeof lt.dead_addr, "127.0.0.1:%d", lt.dead_port);
  return 0;
}

static int teardown(void **state) {
  uv_async_send(&lt.wake);
  pthread_join(lt.th, NULL);
  pthread_mutex_destroy(&lt.mu);
  pthread_cond_destroy(&lt.cv);
  assert_int_equal(atomic_load(&local_calls), 0);
  return 0;
}

/* The forwarder's counters now (another thread's: for polling). */
static hg_forward_stats fwd_stats(void) {
  hg_forward_stats st;
  hg_forward_get_stats(lt.api->fwd, &st);
  return st;
}

/* ... once no forward is in flight: the client can have the last bytes of
 * an answer before the loop thread has done its bookkeeping after them. */
static hg_forward_stats fwd_stats_idle(void) {
  for (int i = 0; i < 6000 && fwd_stats().active; i++) usleep(10000);
  return fwd_stats();
}

/* ---- the client ---------------------------------------------------------------- */

typedef struct resp {
  int status;
  char hdrs[4096]; /* "name: value\n", names lower-cased */
  char field[128];
  hg_buf body;
  bool check;      /* body: check pattern() instead of keeping it */
  uint64_t got;    /* body bytes */
  bool bad_byte, complete;
} resp;

static int r_field(llhttp_t *p, const char *at, size_t n) {
  resp *r = p->data;
  size_t k = strlen(r->field);
  for (size_t i = 0; i < n && k + 1 < sizeof r->field; i++) r->field[k++] = (char)tolower(at[i]);
  r->field[k] = '\0';
  return 0;
}

static int r_value(llhttp_t *p, const char *at, size_t n) {
  resp *r = p->data;
  size_t k = strlen(r->hdrs);
  snprintf(r->hdrs + k, sizeof r->hdrs - k, "%s: %.*s\n", r->field, (int)n, at);
  r->field[0] = '\0';
  return 0;
}

static int r_body(llhttp_t *p, const char *at, size_t n) {
  resp *r = p->data;
  if (r->check) {
    for (size_t i = 0; i < n; i++)
      if ((unsigned char)at[i] != pattern(r->got + i)) r->bad_byte = true;
  } else {
    hg_buf_append(&r->body, at, n);
  }
  r->got += n;
  return 0;
}

static int r_done(llhttp_t *p) {
  ((resp *)p->data)->complete = true;
  return HPE_PAUSED;
}

static const llhttp_settings_t r_settings = {
    .on_header_field = r_field, .on_header_value = r_value, .on_body = r_body,
    .on_message_complete = r_done};

static int cl_connect(int rcvbuf) {
  int fd = socket(AF_INET, SOCK_STREAM, 0);
  if (rcvbuf) setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &rcvbuf, sizeof rcvbuf);
  struct timeval tv = {.tv_sec = 20};
  setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof tv);
  struct sockaddr_in a = {.sin_family = AF_INET, .sin_port = htons((uint16_t)lt.port),
                          .sin_addr.s_addr = htonl(INADDR_LOOPBACK)};
  assert_int_equal(connect(fd, (struct sockaddr *)&a, sizeof a), 0);
  return fd;
}

static void cl_send(int fd, const char *method, const char *target, const char *hdrs,
                    const void *body, size_t len) {
  char head[4096];
  int n = snprintf(head, sizeof head, "%s %s HTTP/1.1\r\nHost: x\r\n%sContent-Length: %zu\r\n\r\n",
                   method, target, hdrs ? hdrs : "", len);
  assert_int_equal(send(fd, head, (size_t)n, MSG_NOSIGNAL), n);
  for (size_t off = 0; off < len;) {
    ssize_t k = send(fd, (const char *)body + off, len - off, MSG_NOSIGNAL);
    assert_true(k > 0);
    off += (size_t)k;
  }
}

/* Reads one answer: chunk bytes per recv, pausing delay_us between them;
 * stops early once stop_after body bytes came (0: never). */
static void cl_read(int fd, resp *r, size_t chunk, unsigned delay_us, uint64_t stop_after) {
  llhttp_t p;
  llhttp_init(&p, HTTP_RESPONSE, &r_settings);
  p.data = r;
  char *buf = malloc(chunk);
  while (!r->complete && (!stop_after || r->got < stop_after)) {
    ssize_t n = recv(fd, buf, chunk, 0);
    if (n <= 0) {
      if (n == 0) llhttp_finish(&p);
      break;
    }
    llhttp_errno_t e = llhttp_execute(&p, buf, (size_t)n);
    r->status = p.status_code;
    if (e != HPE_OK && e != HPE_PAUSED) break;
    if (delay_us) usleep(delay_us);
  }
  free(buf);
}

/* One request on a new connection, whole answer kept. */
static resp *request(const char *method, const char *target, const char *hdrs, const void *body,
                     size_t len) {
  resp *r = calloc(1, sizeof *r);
  hg_buf_init(&r->body, 64u << 20);
  int fd = cl_connect(0);
  cl_send(fd, method, target, hdrs, body, len);
  cl_read(fd, r, 64 * 1024, 0, 0);
  close(fd);
  assert_true(r->complete);
  return r;
}

static void resp_free(resp *r) {
  hg_buf_free(&r->body);
  free(r);
}

static bool has_header(const resp *r, const char *line) {
  char want[512];
  snprintf(want, sizeof want, "%s\n", line);
  return strstr(r->hdrs, want) != NULL;
}

static json_t *rjson(const resp *r) {
  json_t *j = json_loadb(r->body.data ? r->body.data : "", r->body.len, 0, NULL);
  assert_non_null(j);
  return j;
}

static const char *jerr(json_t *j, const char *what) {
  return json_string_value(json_object_get(json_object_get(j, "error"), what));
}

static void locate_at(const upstream *u) {
  snprintf(fp.loc_owner, sizeof fp.loc_owner, "%s", u->name);
  snprintf(fp.loc_addr, sizeof fp.loc_addr, "%s", u->addr);
}

/* ---- tests ------------------------------------------------------------------------ */

static void forwarded_get_passes_status_body_and_headers(void **state) {
  upstream *a = &ups[0];
  locate_at(a);
  resp *r = request("GET", "/v1/sandboxes/" REMOTE_SB "?x=1&y=%2F",
                    "Authorization: Bearer sbtoken\r\nAccept: application/json\r\n"
                    "X-Forwarded-For: 198.51.100.7\r\nCookie: no\r\n",
                    NULL, 0);
  assert_int_equal(r->status, 200);
  json_t *j = rjson(r);
  assert_string_equal(json_string_value(json_object_get(j, "node")), "n-a");
  json_decref(j);
  assert_true(has_header(r, "content-type: application/json"));
  assert_true(has_header(r, "location: /elsewhere"));
  assert_true(has_header(r, "x-hangar-offset: 7"));
  assert_true(has_header(r, "retry-after: 3"));
  assert_true(has_header(r, "x-hangar-node: n-a")); /* ours, not the upstream's */
  assert_null(strstr(r->hdrs, "liar"));
  assert_null(strstr(r->hdrs, "x-other"));
  /* what the owner got */
  assert_int_equal(atomic_load(&a->nreq), 1);
  assert_string_equal(a->method, "GET");
  assert_string_equal(a->target, "/v1/sandboxes/" REMOTE_SB "?x=1&y=%2F");
  assert_string_equal(a->authz, ""); /* the client's stays on the front node */
  assert_string_equal(a->ident, "bearer sbtoken");
  assert_int_equal(a->sig_rc, 0);
  if (up_tls) { /* it came over TLS (the relays of api/tls.c) */
    hg_tls_stats ts;
    hg_tls_get_stats(up_tls, &ts);
    assert_true(ts.handshakes >= 1);
    assert_int_equal(ts.failed, 0);
  }
  assert_string_equal(a->accept, "application/json");
  assert_string_equal(a->fwd, "n-front");
  assert_string_equal(a->xff, "198.51.100.7, 127.0.0.1");
  resp_free(r);

  /* a 3 MiB upload goes whole; a 204 comes back without a body */
  size_t n = 3u << 20;
  unsigned char *big = malloc(n);
  for (size_t i = 0; i < n; i++) big[i] = pattern(i);
  r = request("PUT", "/v1/sandboxes/" REMOTE_SB "/files?path=/tmp/x",
              "Authorization: Bearer k\r\nContent-Type: application/octet-stream\r\n", big, n);
  assert_int_equal(r->status, 204);
  assert_int_equal(r->got, 0);
  assert_true(has_header(r, "x-hangar-written: 1"));
  assert_int_equal(a->body_len, n);
  assert_true(a->body_hash == fnv(big, n));
  assert_int_equal(a->sig_rc, 0); /* the digest covers the 3 MiB */
  assert_string_equal(a->ctype, "application/octet-stream");
  assert_string_equal(a->expect, ""); /* no 100-continue round trip */
  assert_string_equal(a->accept, "");
  free(big);
  resp_free(r);

  /* a JSON POST, and keep-alive to the upstream: two answers, both whole */
  r = request("POST", "/v1/sandboxes/" REMOTE_SB "/commands",
              "Authorization: Bearer k\r\nContent-Type: application/json\r\n",
              "{\"cmd\":[\"true\"]}", 16);
  assert_int_equal(r->status, 200);
  j = rjson(r);
  assert_string_equal(json_string_value(json_object_get(j, "body")), "{\"cmd\":[\"true\"]}");
  json_decref(j);
  assert_string_equal(a->method, "POST");
  assert_string_equal(a->ctype, "application/json");
  resp_free(r);
  hg_forward_stats st = fwd_stats_idle();
  assert_int_equal(st.ok, 3);
  assert_int_equal(st.active, 0);

  /* a sandbox the directory does not place elsewhere is served here */
  r = request("GET", "/v1/sandboxes/" LOCAL_SB, "Authorization: Bearer " ADMIN "\r\n", NULL, 0);
  assert_int_equal(r->status, 200);
  j = rjson(r);
  assert_string_equal(json_string_value(json_object_get(j, "node")), "n-front");
  json_decref(j);
  assert_int_equal(atomic_load(&a->nreq), 3);
  resp_free(r);
}

static void slow_stream_arrives_whole_with_back_pressure(void **state) {
  locate_at(&ups[0]);
  const uint64_t total = 12u << 20;
  char t[256];
  snprintf(t, sizeof t, "/v1/sandboxes/" REMOTE_SB "/commands/cmd-1/output?follow=1&n=%llu",
           (unsigned long long)total);
  resp *r = calloc(1, sizeof *r);
  r->check = true;
  int64_t t0 = hg_now_ms();
  int fd = cl_connect(32 * 1024);
  cl_send(fd, "GET", t, "Authorization: Bearer k\r\n", NULL, 0);
  /* a client that stops reading: the forward must stop too (the kernel
   * buffers fill, then our queue reaches the high water mark) */
  for (int i = 0; i < 6000 && fwd_stats().paused == 0; i++) usleep(10000);
  assert_true(fwd_stats().paused > 0);
  cl_read(fd, r, 16 * 1024, 300, 0); /* then reads, slowly: 16 KiB per 0.3 ms */
  close(fd);
  assert_true(r->complete);
  assert_int_equal(r->status, 200);
  assert_true(r->got == total);
  assert_false(r->bad_byte);
  assert_true(has_header(r, "transfer-encoding: chunked"));
  assert_true(has_header(r, "x-hangar-offset: 0"));
  assert_true(has_header(r, "x-hangar-node: n-a"));
  hg_forward_stats st = fwd_stats_idle();
  if (getenv("HG_TEST_VERBOSE"))
    fprintf(stderr, "stream: %.0f ms, paused %llu times, pending_max %zu\n",
            (double)(hg_now_ms() - t0), (unsigned long long)st.paused, st.pending_max);
  assert_true(st.paused > 0); /* (again while it read slowly, if the front kept ahead) */
  /* memory: what the front queued for the client never passed the high
   * water mark by more than one of curl's reads (and its chunk framing) */
  assert_true(st.pending_max <= HG_FWD_HIGH_WATER + 64 * 1024 + 64);
  assert_int_equal(st.ok, 1);
  resp_free(r);
}

static void client_disconnect_cancels_the_upstream(void **state) {
  upstream *a = &ups[0];
  locate_at(a);
  resp *r = calloc(1, sizeof *r);
  r->check = true;
  int fd = cl_connect(0);
  cl_send(fd, "GET", "/v1/sandboxes/" REMOTE_SB "/commands/cmd-1/output?follow=1&n=0",
          "Authorization: Bearer k\r\n", NULL, 0);
  cl_read(fd, r, 64 * 1024, 0, 512 * 1024);
  assert_int_equal(r->status, 200);
  assert_true(r->got >= 512 * 1024);
  assert_false(r->bad_byte);
  assert_int_equal(atomic_load(&a->aborts), 0);
  close(fd);
  /* the front drops the transfer, so the owner sees its client go */
  for (int i = 0; i < 6000 && atomic_load(&a->aborts) == 0; i++) usleep(10000);
  assert_int_equal(atomic_load(&a->aborts), 1);
  hg_forward_stats st = fwd_stats_idle();
  assert_int_equal(st.active, 0);
  assert_int_equal(st.cancelled, 1);
  assert_int_equal(st.ok, 0);
  resp_free(r);
}

static void dead_owner_is_502_owner_unreachable(void **state) {
  snprintf(fp.loc_owner, sizeof fp.loc_owner, "n-dead");
  snprintf(fp.loc_addr, sizeof fp.loc_addr, "%s", lt.dead_addr);
  /* an admin is told where; anyone else is not */
  resp *r = request("GET", "/v1/sandboxes/" REMOTE_SB, "Authorization: Bearer k\r\n", NULL, 0);
  assert_int_equal(r->status, 502);
  assert_null(strstr(r->body.data, lt.dead_addr));
  resp_free(r);
  r = request("GET", "/v1/sandboxes/" REMOTE_SB, "Authorization: Bearer " ADMIN "\r\n", NULL, 0);
  assert_int_equal(r->status, 502);
  json_t *j = rjson(r);
  assert_string_equal(jerr(j, "code"), "owner_unreachable");
  char want[160];
  snprintf(want, sizeof want, "sandbox " REMOTE_SB " is on node n-dead (%s), which did not answer: ",
           lt.dead_addr);
  assert_int_equal(strncmp(jerr(j, "message"), want, strlen(want)), 0);
  json_decref(j);
  assert_int_equal(fwd_stats_idle().unreachable, 2);
  resp_free(r);
}

static void misdirected_is_retried_once_at_the_hint(void **state) {
  upstream *a = &ups[0], *b = &ups[1], *c = &ups[2];
  locate_at(a);
  snprintf(a->misdirect, sizeof a->misdirect, "%s %s", b->name, b->addr);
  resp *r = request("GET", "/v1/sandboxes/" REMOTE_SB, "Authorization: Bearer k\r\n", NULL, 0);
  assert_int_equal(r->status, 200);
  assert_true(has_header(r, "x-hangar-node: n-b"));
  json_t *j = rjson(r);
  assert_string_equal(json_string_value(json_object_get(j, "node")), "n-b");
  json_decref(j);
  assert_int_equal(atomic_load(&a->nreq), 1);
  assert_int_equal(atomic_load(&b->nreq), 1);
  assert_string_equal(b->fwd, "n-front");
  assert_string_equal(b->authz, "");
  assert_string_equal(b->ident, "bearer k");
  assert_int_equal(b->sig_rc, 0); /* signed afresh for the retry */
  assert_int_equal(fwd_stats_idle().retried, 1);
  resp_free(r);

  /* once only: B's own 421 (pointing at C) is not passed on, nor any
   * peer's address (the client is not even authenticated) */
  snprintf(b->misdirect, sizeof b->misdirect, "%s %s", c->name, c->addr);
  r = request("GET", "/v1/sandboxes/" REMOTE_SB, "Authorization: Bearer k\r\n", NULL, 0);
  assert_int_equal(r->status, 421);
  assert_null(strstr(r->hdrs, "x-hangar-owner"));
  assert_null(strstr(r->hdrs, "127.0.0.1"));
  assert_null(strstr(r->body.data, "127.0.0.1"));
  json_t *k = rjson(r);
  assert_string_equal(jerr(k, "code"), "misdirected");
  json_decref(k);
  assert_int_equal(atomic_load(&b->nreq), 2);
  assert_int_equal(atomic_load(&c->nreq), 0);
  resp_free(r);

  /* a hint naming the node that answered is not followed */
  snprintf(a->misdirect, sizeof a->misdirect, "%s %s", a->name, a->addr);
  r = request("GET", "/v1/sandboxes/" REMOTE_SB, "Authorization: Bearer k\r\n", NULL, 0);
  assert_int_equal(r->status, 421);
  assert_int_equal(atomic_load(&a->nreq), 3);
  assert_int_equal(atomic_load(&b->nreq), 2);
  resp_free(r);
}

/* The headers node n-b would send forwarding this request (fwdsign.h). */
static const char *peer_hdrs(const char *method, const char *target, const char *ident,
                             const char *body, size_t len) {
  static char out[1024];
  static hg_fwdsign *nb;
  if (!nb) assert_int_equal(hg_fwdsign_new(CLUSTER_KEY, "fwd", 0, 0, &nb), 0);
  hg_fwdsign_hdrs h;
  assert_int_equal(hg_fwdsign_sign(nb, method, target, "n-b", ident, body, len,
                                   hg_wall_ns() / 1000000, &h),
                   0);
  snprintf(out, sizeof out,
           "X-Hangar-Forwarded: n-b\r\n%s%s%sX-Hangar-Body-SHA256: %s\r\n"
           "X-Hangar-Signature: %s\r\n",
           ident[0] ? "X-Hangar-Identity: " : "", ident, ident[0] ? "\r\n" : "", h.digest,
           h.sig);
  return out;
}

static void forwarded_requests_are_never_forwarded_again(void **state) {
  upstream *a = &ups[0];
  locate_at(a);
  /* unsigned, the forwarding header gets 401 and no address */
  resp *r = request("GET", "/v1/sandboxes/" REMOTE_SB,
                    "Authorization: Bearer k\r\nX-Hangar-Forwarded: n-b\r\n", NULL, 0);
  assert_int_equal(r->status, 401);
  assert_null(strstr(r->hdrs, "x-hangar-owner"));
  assert_null(strstr(r->body.data, a->addr));
  resp_free(r);
  r = request("GET", "/v1/sandboxes/" REMOTE_SB,
              peer_hdrs("GET", "/v1/sandboxes/" REMOTE_SB, "bearer k", NULL, 0), NULL, 0);
  assert_int_equal(r->status, 421);
  char want[128];
  snprintf(want, sizeof want, "x-hangar-owner: n-a %s", a->addr);
  assert_true(has_header(r, want));
  json_t *j = rjson(r);
  assert_string_equal(jerr(j, "code"), "misdirected");
  json_decref(j);
  assert_int_equal(atomic_load(&a->nreq), 0);
  resp_free(r);

  /* a forwarded create is created here, whatever placement would say */
  fp.place_rc[0] = 0;
  snprintf(fp.place_owner, sizeof fp.place_owner, "n-a");
  snprintf(fp.place_addr, sizeof fp.place_addr, "%s", a->addr);
  r = request("POST", "/v1/sandboxes", peer_hdrs("POST", "/v1/sandboxes", "admin", "{}", 2),
              "{}", 2);
  assert_int_equal(r->status, 202);
  j = rjson(r);
  assert_string_equal(json_string_value(json_object_get(j, "id")), "sb-00000000000000cc");
  json_decref(j);
  assert_int_equal(fp.nplace, 0);
  assert_int_equal(atomic_load(&a->nreq), 0);
  resp_free(r);

  /* nor is an operation looked up on the peers */
  snprintf(fp.members, sizeof fp.members,
           "{\"members\":[{\"id\":\"n-a\",\"state\":\"alive\",\"addresses\":{\"api\":\"%s\"}}]}", a->addr);
  r = request("GET", "/v1/operations/op-00000000000000dd",
              peer_hdrs("GET", "/v1/operations/op-00000000000000dd", "admin", NULL, 0), NULL, 0);
  assert_int_equal(r->status, 404);
  assert_int_equal(atomic_load(&a->nreq), 0);
  resp_free(r);
  hg_forward_stats st = fwd_stats_idle();
  assert_int_equal(st.ok + st.unreachable + st.cancelled + st.declined, 0);
}

static void create_is_placed_on_a_peer_or_507(void **state) {
  upstream *b = &ups[1];
  const char *hdr = "Authorization: Bearer " ADMIN "\r\nContent-Type: application/json\r\n";
  const char *body = "{\"vcpus\":2,\"placement\":{\"zone\":\"z1\",\"label\":\"gpu=1\"}}";
  fp.place_rc[0] = fp.place_rc[1] = 0;
  snprintf(fp.place_owner, sizeof fp.place_owner, "%s", b->name);
  snprintf(fp.place_addr, sizeof fp.place_addr, "%s", b->addr);
  resp *r = request("POST", "/v1/sandboxes?wait=5", hdr, body, strlen(body));
  assert_int_equal(r->status, 202);
  assert_true(has_header(r, "x-hangar-node: n-b"));
  assert_true(has_header(r, "location: /v1/operations/op-00000000000000bb"));
  assert_string_equal(fp.zone, "z1");
  assert_string_equal(fp.label, "gpu=1");
  assert_int_equal(atomic_load(&b->nreq), 1);
  assert_string_equal(b->target, "/v1/sandboxes?wait=5");
  assert_string_equal(b->fwd, "n-front");
  assert_int_equal(b->body_len, strlen(body));
  assert_true(b->body_hash == fnv(body, strlen(body)));
  assert_int_equal(atomic_load(&creates), 0);
  resp_free(r);

  /* no room anywhere: 507 with placement's reason */
  fp.nplace = 0;
  fp.place_rc[0] = -ENOSPC;
  snprintf(fp.place_reason, sizeof fp.place_reason, "no node in zone z1 has 2 vCPUs free");
  r = request("POST", "/v1/sandboxes", hdr, body, strlen(body));
  assert_int_equal(r->status, 507);
  json_t *j = rjson(r);
  assert_string_equal(jerr(j, "code"), "insufficient_capacity");
  assert_string_equal(jerr(j, "message"), "no node in zone z1 has 2 vCPUs free");
  json_decref(j);
  resp_free(r);

  /* here */
  fp.nplace = 0;
  fp.place_rc[0] = 1;
  r = request("POST", "/v1/sandboxes", hdr, "{}", 2);
  assert_int_equal(r->status, 202);
  assert_int_equal(atomic_load(&creates), 1);
  resp_free(r);

  /* here, but the room went meanwhile: placed once more, on B */
  fp.nplace = 0;
  fp.place_rc[0] = 1;
  fp.place_rc[1] = 0;
  atomic_store(&create_nospc, true);
  r = request("POST", "/v1/sandboxes", hdr, "{}", 2);
  assert_int_equal(r->status, 202);
  assert_true(has_header(r, "x-hangar-node: n-b"));
  assert_int_equal(fp.nplace, 2);
  assert_int_equal(atomic_load(&b->nreq), 2);
  resp_free(r);

  /* ... and when placement says "here" again, 507 */
  fp.nplace = 0;
  fp.place_rc[0] = fp.place_rc[1] = 1;
  r = request("POST", "/v1/sandboxes", hdr, "{}", 2);
  assert_int_equal(r->status, 507);
  resp_free(r);

  /* placement constraints are validated */
  r = request("POST", "/v1/sandboxes", hdr, "{\"placement\":{\"label\":\"nokv\"}}", 30);
  assert_int_equal(r->status, 400);
  resp_free(r);
  r = request("POST", "/v1/sandboxes", hdr, "{\"placement\":\"z1\"}", 18);
  assert_int_equal(r->status, 400);
  resp_free(r);
}

static void operation_is_looked_up_on_the_peers(void **state) {
  upstream *a = &ups[0], *b = &ups[1], *c = &ups[2];
  snprintf(b->op, sizeof b->op, "op-00000000000000ee");
  /* self (skipped), A (404), a silent one, a dead one (not asked), B */
  snprintf(fp.members, sizeof fp.members,
           "{\"members\":["
           "{\"id\":\"n-front\",\"state\":\"alive\",\"addresses\":{\"api\":\"127.0.0.1:%d\"}},"
           "{\"id\":\"n-a\",\"state\":\"alive\",\"addresses\":{\"api\":\"%s\"}},"
           "{\"id\":\"n-silent\",\"state\":\"alive\",\"addresses\":{\"api\":\"%s\"}},"
           "{\"id\":\"n-c\",\"state\":\"dead\",\"addresses\":{\"api\":\"%s\"}},"
           "{\"id\":\"n-b\",\"state\":\"alive\",\"addresses\":{\"api\":\"%s\"}}]}",
           lt.port, a->addr, lt.dead_addr, c->addr, b->addr);
  resp *r = request("GET", "/v1/operations/op-00000000000000ee", "Authorization: Bearer " ADMIN "\r\n",
                    NULL, 0);
  assert_int_equal(r->status, 200);
  assert_true(has_header(r, "x-hangar-node: n-b"));
  json_t *j = rjson(r);
  assert_string_equal(json_string_value(json_object_get(j, "node")), "n-b");
  json_decref(j);
  assert_int_equal(atomic_load(&a->nreq), 1);
  assert_int_equal(atomic_load(&b->nreq), 1);
  assert_int_equal(atomic_load(&c->nreq), 0);
  assert_string_equal(a->fwd, "n-front");
  hg_forward_stats st = fwd_stats_idle();
  assert_int_equal(st.declined, 1);
  assert_int_equal(st.unreachable, 1);
  assert_int_equal(st.ok, 1);
  resp_free(r);

  /* with a sandbox token (checked by the node that has the operation) */
  r = request("GET", "/v1/operations/op-00000000000000ee?wait=1", "Authorization: Bearer sometoken\r\n",
              NULL, 0);
  assert_int_equal(r->status, 200);
  assert_string_equal(b->authz, "");
  assert_string_equal(b->ident, "bearer sometoken");
  assert_int_equal(b->sig_rc, 0);
  assert_string_equal(b->target, "/v1/operations/op-00000000000000ee?wait=1");
  resp_free(r);

  /* nobody has it */
  r = request("GET", "/v1/operations/op-00000000000000ff", "Authorization: Bearer " ADMIN "\r\n", NULL, 0);
  assert_int_equal(r->status, 404);
  j = rjson(r);
  assert_string_equal(jerr(j, "code"), "not_found");
  json_decref(j);
  assert_int_equal(atomic_load(&b->nreq), 3);
  resp_free(r);
}

static void stop_ends_forwarded_streams(void **state) {
  locate_at(&ups[0]);
  resp *r = calloc(1, sizeof *r);
  r->check = true;
  int fd = cl_connect(0);
  cl_send(fd, "GET", "/v1/sandboxes/" REMOTE_SB "/commands/cmd-1/output?follow=1&n=0",
          "Authorization: Bearer k\r\n", NULL, 0);
  cl_read(fd, r, 64 * 1024, 0, 128 * 1024);
  assert_int_equal(r->status, 200);
  /* teardown stops the API and the servers while the stream runs: the
   * stream ends, everything closes, the loop finishes (teardown joins) */
  teardown(state);
  cl_read(fd, r, 64 * 1024, 0, 0);
  close(fd);
  assert_false(r->bad_byte);
  resp_free(r);
  setup(state);
}

#define T(name) cmocka_unit_test_setup_teardown(name, setup, teardown)

/* The owners' certificate, for HG_TEST_FWD_TLS: 0, or -1 said on stderr. */
static int tls_make(void) {
  snprintf(tls_dir, sizeof tls_dir, "/tmp/hg-fwdtls-XXXXXX");
  if (!mkdtemp(tls_dir)) return -1;
  snprintf(tls_cert, sizeof tls_cert, "%s/cert.pem", tls_dir);
  snprintf(tls_key, sizeof tls_key, "%s/key.pem", tls_dir);
  char cmd[1024];
  snprintf(cmd, sizeof cmd,
           "openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:P-256 -nodes -days 2 "
           "-subj /CN=hangar-owner -addext subjectAltName=IP:127.0.0.1 -keyout %s -out %s "
           ">/dev/null 2>&1",
           tls_key, tls_cert);
  if (system(cmd) != 0) {
    fprintf(stderr, "openssl could not make a certificate\n");
    return -1;
  }
  return 0;
}

int main(void) {
  setenv("UV_THREADPOOL_SIZE", "8", 1);
  if (getenv("HG_TEST_FWD_TLS") && tls_make() < 0) return 1;
  signal(SIGPIPE, SIG_IGN);
  hg_log_set_level(HG_LOG_ERROR);
  const struct CMUnitTest tests[] = {
      T(forwarded_get_passes_status_body_and_headers),
      T(slow_stream_arrives_whole_with_back_pressure),
      T(client_disconnect_cancels_the_upstream),
      T(dead_owner_is_502_owner_unreachable),
      T(misdirected_is_retried_once_at_the_hint),
      T(forwarded_requests_are_never_forwarded_again),
      T(create_is_placed_on_a_peer_or_507),
      T(operation_is_looked_up_on_the_peers),
      T(stop_ends_forwarded_streams),
  };
  int rc = cmocka_run_group_tests(tests, NULL, NULL);
  if (tls_dir[0]) {
    unlink(tls_cert);
    unlink(tls_key);
    rmdir(tls_dir);
  }
  return rc;
}
