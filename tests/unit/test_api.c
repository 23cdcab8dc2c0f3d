/* test_api: the v1 API without VMs. It links the API's pieces (hg_api) and
 * reaches their shared internals (routing table, error mapping, auth
 * decisions, validation, metrics, OpenAPI) through api/api_internal.h, so
 * they can be tested directly. The transport (hg_http_* on a request)
 * and the runtime (manager, operations, agent) are small fakes defined
 * here, so handlers run end to end on a real libuv loop and thread pool:
 * the real ones are covered by test_http and the integration tests. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "api/api_internal.h"
#include "api_node.h"

#include <pthread.h>
#include <unistd.h>

/* ---- fake transport ----------------------------------------------------------
 * A request the test can inspect after it is answered (hg_http would free
 * it). Answering twice is counted: it must never happen. */

typedef struct fk_req {
  hg_http_req pub; /* first: the API only sees this */
  char method[8], path[512], query[8192], authz[320];
  char ident[HG_FWDSIGN_IDENT_MAX]; /* a signed forward's headers */
  hg_fwdsign_hdrs sh;
  char *body;
  int status;
  bool answered, streamed, gone;
  char ctype[64], hdrs[1024];
  hg_buf out;
  size_t pending; /* what hg_http_stream_pending says */
  struct fk_req *next;
} fk_req;

static fk_req *reqs;
static int double_answers;

const char *hg_http_header_get(const hg_http_req *req, const char *lower_name) {
  for (int i = 0; i < req->nheaders; i++)
    if (!strcmp(req->headers[i].name, lower_name)) return req->headers[i].value;
  return NULL;
}

static int hexv(int ch) {
  if (ch >= '0' && ch <= '9') return ch - '0';
  if (ch >= 'a' && ch <= 'f') return ch - 'a' + 10;
  if (ch >= 'A' && ch <= 'F') return ch - 'A' + 10;
  return -1;
}

/* The same contract as hg_http's: -ENOENT, -EINVAL (bad escape, NUL),
 * -ENOBUFS (does not fit). */
int hg_http_query_get(const hg_http_req *req, const char *name, char *out, size_t cap) {
  const char *q = req->query;
  while (*q) {
    size_t plen = strcspn(q, "&"), klen = strcspn(q, "=&");
    if (klen == strlen(name) && !memcmp(q, name, klen)) {
      const char *v = klen < plen ? q + klen + 1 : q + klen;
      size_t vlen = klen < plen ? plen - klen - 1 : 0, o = 0;
      for (size_t i = 0; i < vlen; i++) {
        int ch = (unsigned char)v[i];
        if (ch == '%') {
          if (i + 2 >= vlen) return -EINVAL;
          int hi = hexv(v[i + 1]), lo = hexv(v[i + 2]);
          if (hi < 0 || lo < 0) return -EINVAL;
          ch = hi << 4 | lo;
          i += 2;
        } else if (ch == '+') {
          ch = ' ';
        }
        if (ch == 0) return -EINVAL;
        if (o + 1 >= cap) return -ENOBUFS;
        out[o++] = (char)ch;
      }
      if (cap == 0) return -ENOBUFS;
      out[o] = '\0';
      return 0;
    }
    q += plen;
    if (*q == '&') q++;
  }
  return -ENOENT;
}

bool hg_http_req_alive(const hg_http_req *req) { return !((const fk_req *)req)->gone; }

int hg_http_req_peer(const hg_http_req *req, char *out, size_t cap) {
  return ((const fk_req *)req)->gone ? -ENOTCONN : snprintf(out, cap, "192.0.2.1") < 0;
}

void hg_http_respond(hg_http_req *req, int status, const char *content_type,
                     const char *extra_headers, const void *body, size_t len) {
  fk_req *r = (fk_req *)req;
  if (r->answered) double_answers++;
  r->answered = true;
  r->status = status;
  snprintf(r->ctype, sizeof r->ctype, "%s", content_type ? content_type : "");
  snprintf(r->hdrs, sizeof r->hdrs, "%s", extra_headers ? extra_headers : "");
  if (len) hg_buf_append(&r->out, body, len);
}

int hg_http_stream_start(hg_http_req *req, int status, const char *content_type,
                         const char *extra_headers) {
  fk_req *r = (fk_req *)req;
  r->streamed = true;
  r->status = status;
  snprintf(r->ctype, sizeof r->ctype, "%s", content_type ? content_type : "");
  snprintf(r->hdrs, sizeof r->hdrs, "%s", extra_headers ? extra_headers : "");
  return r->gone ? -EPIPE : 0;
}

int hg_http_stream_write(hg_http_req *req, const void *data, size_t len) {
  fk_req *r = (fk_req *)req;
  if (r->gone) return -EPIPE;
  return hg_buf_append(&r->out, data, len);
}

size_t hg_http_stream_pending(const hg_http_req *req) { return ((const fk_req *)req)->pending; }

void hg_http_stream_end(hg_http_req *req) {
  fk_req *r = (fk_req *)req;
  if (r->answered) double_answers++;
  r->answered = true;
}

/* The API is driven here through its handler, whole requests only. */
static hg_api *api;
/* Only a signed forward's head reads its body here (peer_head): the body
 * is complete already, so the handler gets it at once. */
int hg_http_body_read(hg_http_req *req, size_t limit) {
  hg_api_handler(NULL, req, api);
  return 0;
}
int hg_http_body_stream(hg_http_req *req, size_t limit, size_t piece) { return -EINVAL; }
int hg_http_body_next(hg_http_req *req) { return -EINVAL; }

void hg_http_stream_abort(hg_http_req *req) {
  hg_http_stream_end(req);
  ((fk_req *)req)->gone = true;
}

/* ---- fake runtime ----------------------------------------------------------------
 * Called from pool workers: everything under one mutex. */

static pthread_mutex_t fk_mu = PTHREAD_MUTEX_INITIALIZER;

typedef struct fk_cmd {
  char sb[HG_ID_MAX];
  uint64_t cid;
  int pid;
  const char *script[4]; /* stdout chunks that arrive one per held read */
  int nscript, produced;
  hg_buf o, e;           /* stdout, stderr so far */
  uint64_t dropped;      /* stdout bytes lost to the ring */
  bool closed, exited, forever;
  bool fences; /* its sandbox stops running once its exit is seen */
  int code;
  char env0[64];
} fk_cmd;

typedef struct fk_sb {
  bool used;
  char id[HG_ID_MAX], token[65];
  hg_sb_state state;
  int64_t idle_suspend_s;
} fk_sb;

typedef struct fk_op {
  char id[HG_ID_MAX], kind[16], sandbox[HG_ID_MAX];
  hg_op_status st;
  int rc;
} fk_op;

static struct fk {
  fk_sb sbs[16];
  fk_cmd cmds[16];
  int ncmds;
  fk_op ops[64];
  int nops;
  int pause_rc, pause_ms;
  unsigned last_vcpus;
  int stdin_bytes, stdin_eof, sig, gets, puts;
  char file_path[64];
  hg_buf file;
  uint32_t file_mode;
  bool remove_recursive, mkdir_parents;
  char orphans[4][HG_ORPHAN_NAME_MAX]; /* "" : none */
  char orphan_deleted[HG_ORPHAN_NAME_MAX + 8]; /* what reached the manager, last */
} fk;

#define FK_MANAGER ((hg_manager *)&fk)
#define FK_OPS ((hg_ops *)&fk.ops)

static const char *const fk_states[] = {"creating", "running", "paused", "suspending", "suspended",
                                        "resuming", "deleting", "deleted", "failed"};

const char *hg_sb_state_name(hg_sb_state s) { return fk_states[s]; }

int hg_sb_state_parse(const char *name, hg_sb_state *out) {
  for (int i = 0; i <= HG_SB_FAILED; i++)
    if (!strcmp(name, fk_states[i])) {
      *out = (hg_sb_state)i;
      return 0;
    }
  return -EINVAL;
}

static fk_sb *fk_find(const char *id) {
  for (int i = 0; i < 16; i++)
    if (fk.sbs[i].used && !strcmp(fk.sbs[i].id, id)) return &fk.sbs[i];
  return NULL;
}

static fk_sb *fk_add(hg_sb_state st) {
  for (int i = 0; i < 16; i++)
    if (!fk.sbs[i].used) {
      fk_sb *s = &fk.sbs[i];
      s->used = true;
      s->state = st;
      hg_id_new("sb", s->id);
      hg__api_token_new(s->token);
      return s;
    }
  return NULL;
}

int hg_sandbox_create_begin(hg_manager *m, const hg_sandbox_spec *spec, char id[HG_ID_MAX],
                            char token[65]) {
  pthread_mutex_lock(&fk_mu);
  fk_sb *s = fk_add(HG_SB_CREATING);
  fk.last_vcpus = spec->vcpus;
  if (s) {
    memcpy(id, s->id, HG_ID_MAX);
    memcpy(token, s->token, 65);
  }
  pthread_mutex_unlock(&fk_mu);
  return s ? 0 : -ENOSPC;
}

/* Sets a state, or returns the error a lifecycle call would. */
static int fk_set(const char *id, hg_sb_state st) {
  pthread_mutex_lock(&fk_mu);
  fk_sb *s = fk_find(id);
  if (s) s->state = st;
  pthread_mutex_unlock(&fk_mu);
  return s ? 0 : -ENOENT;
}

int hg_sandbox_create_finish(hg_manager *m, const char *id) { return fk_set(id, HG_SB_RUNNING); }
int hg_sandbox_resume(hg_manager *m, const char *id) { return fk_set(id, HG_SB_RUNNING); }

int hg_sandbox_pause(hg_manager *m, const char *id) {
  if (fk.pause_ms) usleep((useconds_t)fk.pause_ms * 1000);
  return fk.pause_rc ? fk.pause_rc : fk_set(id, HG_SB_PAUSED);
}

int hg_sandbox_suspend(hg_manager *m, const char *id, uint64_t *gen) {
  *gen = 3;
  return fk_set(id, HG_SB_SUSPENDED);
}

int hg_sandbox_checkpoint(hg_manager *m, const char *id, uint64_t *gen, double *pause_ms) {
  pthread_mutex_lock(&fk_mu);
  fk_sb *s = fk_find(id);
  int rc = !s ? -ENOENT : s->state != HG_SB_RUNNING ? -EBUSY : 0;
  pthread_mutex_unlock(&fk_mu);
  if (rc < 0) return rc;
  *gen = 4;
  *pause_ms = 20.0;
  return 0;
}
int hg_sandbox_gen_publish(hg_manager *m, const char *id, uint64_t gen) { return 0; }

int hg_sandbox_snapshot(hg_manager *m, const char *id, char name[64]) {
  strcpy(name, "snap-1");
  return fk_set(id, HG_SB_RUNNING);
}

int hg_sandbox_fork(hg_manager *m, const char *id, uint64_t gen, const char *snapshot,
                    char new_id[HG_ID_MAX], char new_token[65]) {
  pthread_mutex_lock(&fk_mu);
  fk_sb *s = fk_find(id) ? fk_add(HG_SB_RUNNING) : NULL;
  if (s) {
    memcpy(new_id, s->id, HG_ID_MAX);
    memcpy(new_token, s->token, 65);
  }
  pthread_mutex_unlock(&fk_mu);
  return s ? 0 : -ENOENT;
}

int hg_sandbox_delete(hg_manager *m, const char *id) {
  pthread_mutex_lock(&fk_mu);
  fk_sb *s = fk_find(id);
  if (s) s->used = false;
  pthread_mutex_unlock(&fk_mu);
  return s ? 0 : -ENOENT;
}

int hg_sandbox_describe(hg_manager *m, const char *id, json_t **out) {
  pthread_mutex_lock(&fk_mu);
  fk_sb *s = fk_find(id);
  if (s) *out = json_pack("{s:s,s:s}", "id", s->id, "state", fk_states[s->state]);
  if (s && s->idle_suspend_s > 0) /* the real manager's: last activity + idle */
    json_object_set_new(*out, "idle_suspend_at", json_string("2030-01-02T03:04:05.000Z"));
  pthread_mutex_unlock(&fk_mu);
  return s ? 0 : -ENOENT;
}

int hg_sandbox_set_idle(hg_manager *m, const char *id, int64_t idle_suspend_s) {
  pthread_mutex_lock(&fk_mu);
  fk_sb *s = fk_find(id);
  if (s) s->idle_suspend_s = idle_suspend_s;
  pthread_mutex_unlock(&fk_mu);
  return s ? 0 : -ENOENT;
}

json_t *hg_sandbox_list(hg_manager *m, const char *state, const char *label) {
  json_t *arr = json_array();
  pthread_mutex_lock(&fk_mu);
  for (int i = 0; i < 16; i++)
    if (fk.sbs[i].used && (!state || !strcmp(state, fk_states[fk.sbs[i].state])))
      json_array_append_new(arr, json_pack("{s:s}", "id", fk.sbs[i].id));
  pthread_mutex_unlock(&fk_mu);
  return arr;
}

bool hg_sandbox_token_ok(hg_manager *m, const char *id, const char *token) {
  pthread_mutex_lock(&fk_mu);
  fk_sb *s = fk_find(id);
  bool ok = s && hg_secret_equal(s->token, token);
  pthread_mutex_unlock(&fk_mu);
  return ok;
}

void hg_manager_counts(hg_manager *m, unsigned counts[HG_SB_FAILED + 1]) {
  memset(counts, 0, sizeof(unsigned) * (HG_SB_FAILED + 1));
  pthread_mutex_lock(&fk_mu);
  for (int i = 0; i < 16; i++)
    if (fk.sbs[i].used) counts[fk.sbs[i].state]++;
  pthread_mutex_unlock(&fk_mu);
}

/* Orphans: the manager's contract (node/sandbox.h), on fk.orphans. */
json_t *hg_manager_orphans(hg_manager *m) {
  json_t *arr = json_array();
  pthread_mutex_lock(&fk_mu);
  for (size_t i = 0; i < HG_ARRAY_SIZE(fk.orphans); i++)
    if (fk.orphans[i][0])
      json_array_append_new(arr, json_pack("{s:s,s:s}", "name", fk.orphans[i], "reason", "t"));
  pthread_mutex_unlock(&fk_mu);
  return arr;
}

int hg_manager_orphan_delete(hg_manager *m, const char *name) {
  int rc = hg_orphan_name_valid(name) ? -ENOENT : -EINVAL;
  pthread_mutex_lock(&fk_mu);
  snprintf(fk.orphan_deleted, sizeof fk.orphan_deleted, "%s", name);
  for (size_t i = 0; rc == -ENOENT && i < HG_ARRAY_SIZE(fk.orphans); i++)
    if (fk.orphans[i][0] && !strcmp(fk.orphans[i], name)) {
      fk.orphans[i][0] = '\0';
      rc = 0;
    }
  pthread_mutex_unlock(&fk_mu);
  return rc;
}

unsigned hg_manager_orphan_count(hg_manager *m) {
  unsigned n = 0;
  pthread_mutex_lock(&fk_mu);
  for (size_t i = 0; i < HG_ARRAY_SIZE(fk.orphans); i++) n += fk.orphans[i][0] != '\0';
  pthread_mutex_unlock(&fk_mu);
  return n;
}

json_t *hg_manager_template_list(hg_manager *m) {
  return json_pack("[{s:s}]", "name", "default:latest");
}

int hg_manager_template_register(hg_manager *m, const char *name_tag, const char *src_dir,
                                 char digest_out[65], char why[HG_TEMPLATE_WHY_MAX]) {
  memset(digest_out, 'a', 64);
  digest_out[64] = '\0';
  if (strcmp(src_dir, "/missing") == 0) {
    snprintf(why, HG_TEMPLATE_WHY_MAX, "the template did not boot under TCG: console: oops");
    return -ENOENT;
  }
  return 0;
}

int hg_sandbox_agent_get(hg_manager *m, const char *id, hg_agent **out) {
  pthread_mutex_lock(&fk_mu);
  fk_sb *s = fk_find(id);
  int rc = !s ? -ENOENT : s->state != HG_SB_RUNNING ? -EBUSY : 0;
  if (rc == 0) {
    fk.gets++;
    *out = (hg_agent *)s;
  }
  pthread_mutex_unlock(&fk_mu);
  return rc;
}

void hg_sandbox_agent_put(hg_manager *m, const char *id) {
  pthread_mutex_lock(&fk_mu);
  fk.puts++;
  pthread_mutex_unlock(&fk_mu);
}

/* Commands by argv[0]: "echo" ends at once with "hello\n" on stdout and
 * invalid UTF-8 on stderr; "follow" writes a, bb, ccc over three held
 * reads then exits 3; "sleep" never ends; "flood" lost 5 bytes to its ring;
 * "fenced" ends at once, its sandbox fenced before its output is read. */
int hg_sandbox_exec(hg_manager *m, const char *id, const hg_exec_req *req, uint64_t *cid,
                    int *pid) {
  pthread_mutex_lock(&fk_mu);
  fk_sb *s = fk_find(id);
  int rc = !s ? -ENOENT : s->state != HG_SB_RUNNING ? -EBUSY : fk.ncmds == 16 ? -EAGAIN : 0;
  if (rc == 0) {
    fk_cmd *c = &fk.cmds[fk.ncmds++];
    memset(c, 0, sizeof *c);
    hg_buf_init(&c->o, 1 << 24);
    hg_buf_init(&c->e, 1 << 24);
    memcpy(c->sb, id, HG_ID_MAX);
    c->cid = (uint64_t)fk.ncmds;
    c->pid = 100 + fk.ncmds;
    if (req->env && req->env[0]) snprintf(c->env0, sizeof c->env0, "%s", req->env[0]);
    const char *a0 = req->argv[0];
    if (!strcmp(a0, "echo")) {
      hg_buf_append(&c->o, "hello\n", 6);
      hg_buf_append(&c->e, "bad \xff\xfe end", 10);
      c->closed = c->exited = true;
    } else if (!strcmp(a0, "follow")) {
      c->script[0] = "a", c->script[1] = "bb", c->script[2] = "ccc";
      c->nscript = 3;
    } else if (!strcmp(a0, "flood")) {
      hg_buf_append(&c->o, "56789", 5);
      c->dropped = 5;
      c->closed = c->exited = true;
    } else if (!strcmp(a0, "fenced")) {
      hg_buf_append(&c->o, "1\n2\n", 4);
      c->closed = c->exited = c->fences = true;
    } else {
      c->forever = true;
    }
    c->code = 3;
    *cid = c->cid;
    *pid = c->pid;
  }
  pthread_mutex_unlock(&fk_mu);
  return rc;
}

static fk_cmd *fk_cmd_find(hg_agent *a, uint64_t cid) {
  fk_sb *s = (fk_sb *)a;
  for (int i = 0; i < fk.ncmds; i++)
    if (fk.cmds[i].cid == cid && !strcmp(fk.cmds[i].sb, s->id)) return &fk.cmds[i];
  return NULL;
}

int hg_agent_wait(hg_agent *a, uint64_t cid, uint32_t timeout_ms, hg_cmd_status *st) {
  pthread_mutex_lock(&fk_mu);
  fk_cmd *c = fk_cmd_find(a, cid);
  bool forever = c && c->forever;
  pthread_mutex_unlock(&fk_mu);
  if (!c) return -ENOENT;
  if (forever && timeout_ms) usleep(timeout_ms * 1000u);
  pthread_mutex_lock(&fk_mu);
  memset(st, 0, sizeof *st);
  st->exited = c->exited;
  st->code = c->code;
  if (c->fences) ((fk_sb *)a)->state = HG_SB_SUSPENDED;
  pthread_mutex_unlock(&fk_mu);
  return 0;
}

int hg_agent_read(hg_agent *a, uint64_t cid, int stream, uint64_t offset, uint32_t max,
                  uint32_t wait_ms, hg_buf *out, hg_read_res *res) {
  pthread_mutex_lock(&fk_mu);
  fk_cmd *c = fk_cmd_find(a, cid);
  if (!c) {
    pthread_mutex_unlock(&fk_mu);
    return -ENOENT;
  }
  hg_buf *b = stream == HG_STREAM_STDOUT ? &c->o : &c->e;
  uint64_t start = stream == HG_STREAM_STDOUT ? c->dropped : 0;
  uint64_t off = offset < start ? start : offset;
  if (start + b->len <= off && wait_ms && c->forever) { /* nothing ever comes: held */
    pthread_mutex_unlock(&fk_mu);
    usleep(wait_ms * 1000u);
    pthread_mutex_lock(&fk_mu);
  } else if (start + b->len <= off && wait_ms && !c->closed) { /* arrives while held */
    if (c->produced < c->nscript)
      hg_buf_append(&c->o, c->script[c->produced], strlen(c->script[c->produced]));
    if (++c->produced > c->nscript) c->closed = c->exited = true;
  }
  uint64_t avail = start + b->len > off ? start + b->len - off : 0;
  size_t n = avail < max ? (size_t)avail : max;
  int rc = n ? hg_buf_append(out, b->data + (off - start), n) : 0;
  res->offset = off;
  res->dropped = start;
  res->total = start + b->len;
  res->eof = c->closed && off + n == res->total;
  pthread_mutex_unlock(&fk_mu);
  return rc;
}

int hg_agent_stdin(hg_agent *a, uint64_t cid, const void *data, size_t len, bool eof) {
  pthread_mutex_lock(&fk_mu);
  fk.stdin_bytes += (int)len;
  fk.stdin_eof += eof;
  pthread_mutex_unlock(&fk_mu);
  return fk_cmd_find(a, cid) ? 0 : -ENOENT;
}

int hg_agent_signal(hg_agent *a, uint64_t cid, int sig) {
  fk.sig = sig;
  return fk_cmd_find(a, cid) ? 0 : -ENOENT;
}

int hg_agent_file_read(hg_agent *a, const char *path, size_t max, hg_buf *out) {
  if (strcmp(path, fk.file_path)) return -ENOENT;
  return fk.file.len > max ? -EFBIG : hg_buf_append(out, fk.file.data, fk.file.len);
}

int hg_agent_file_write_at(hg_agent *a, const char *path, const void *data, size_t len,
                           uint64_t at, uint32_t mode) {
  if (at == 0) {
    snprintf(fk.file_path, sizeof fk.file_path, "%.63s", path);
    hg_buf_reset(&fk.file);
    fk.file_mode = mode;
  }
  if (strcmp(path, fk.file_path) || at != fk.file.len) return -EIO; /* pieces in order */
  return hg_buf_append(&fk.file, data, len);
}

int hg_agent_stat(hg_agent *a, const char *path, hg_file_stat *st) {
  if (strcmp(path, fk.file_path)) return -ENOENT;
  memset(st, 0, sizeof *st);
  strcpy(st->type, "file");
  st->size = fk.file.len;
  st->mode = fk.file_mode;
  st->mtime = 1700000000;
  return 0;
}

int hg_agent_list(hg_agent *a, const char *path,
                  void (*fn)(void *ud, const char *name, const hg_file_stat *st), void *ud) {
  if (strcmp(path, "/")) return -ENOTDIR;
  hg_file_stat st = {.type = "dir", .size = 4096, .mode = 0755, .mtime = 1};
  fn(ud, "etc", &st);
  fn(ud, "tmp", &st);
  return 0;
}

int hg_agent_mkdir(hg_agent *a, const char *path, bool parents) {
  fk.mkdir_parents = parents;
  return 0;
}

int hg_agent_remove(hg_agent *a, const char *path, bool recursive) {
  fk.remove_recursive = recursive;
  return strcmp(path, "/nope") ? 0 : -ENOENT;
}

int hg_agent_rename(hg_agent *a, const char *from, const char *to) {
  return strcmp(from, "/nope") ? 0 : -ENOENT;
}

/* Operations: in memory. */
int hg_op_begin(hg_ops *ops, const char *kind, const char *sandbox, char id[HG_ID_MAX]) {
  pthread_mutex_lock(&fk_mu);
  fk_op *o = &fk.ops[fk.nops++ % 64];
  hg_id_new("op", o->id);
  snprintf(o->kind, sizeof o->kind, "%s", kind);
  snprintf(o->sandbox, sizeof o->sandbox, "%s", sandbox);
  o->st = HG_OP_RUNNING;
  memcpy(id, o->id, HG_ID_MAX);
  pthread_mutex_unlock(&fk_mu);
  return 0;
}

static fk_op *fk_op_find(const char *id) {
  for (int i = 0; i < 64; i++)
    if (!strcmp(fk.ops[i].id, id)) return &fk.ops[i];
  return NULL;
}

void hg_op_finish(hg_ops *ops, const char *id, int rc, json_t *result) {
  pthread_mutex_lock(&fk_mu);
  fk_op *o = fk_op_find(id);
  if (o) {
    o->st = rc ? HG_OP_FAILED : HG_OP_SUCCEEDED;
    o->rc = rc;
  }
  pthread_mutex_unlock(&fk_mu);
  json_decref(result);
}

int hg_op_done(hg_ops *ops, const char *kind, const char *sandbox, json_t *result,
               char id[HG_ID_MAX]) {
  int rc = hg_op_begin(ops, kind, sandbox, id);
  if (rc == 0) hg_op_finish(ops, id, 0, result);
  else json_decref(result);
  return rc;
}

/* Only the state: the API asks whether a create is done after "begin". */
int hg_sandbox_info(hg_manager *m, const char *id, hg_sb_info *out) {
  pthread_mutex_lock(&fk_mu);
  fk_sb *s = fk_find(id);
  if (s) *out = (hg_sb_info){.state = s->state};
  pthread_mutex_unlock(&fk_mu);
  return s ? 0 : -ENOENT;
}

/* Progress text is not asserted here: the suspend's replication reports it. */
void hg_op_progress(hg_ops *ops, const char *id, const char *text) {}

static json_t *fk_op_json(const fk_op *o) {
  static const char *const st[] = {"running", "succeeded", "failed"};
  return json_pack("{s:s,s:s,s:s,s:s}", "id", o->id, "kind", o->kind, "sandbox", o->sandbox,
                   "status", st[o->st]);
}

int hg_op_describe(hg_ops *ops, const char *id, json_t **out) {
  pthread_mutex_lock(&fk_mu);
  fk_op *o = fk_op_find(id);
  if (o) *out = fk_op_json(o);
  pthread_mutex_unlock(&fk_mu);
  return o ? 0 : -ENOENT;
}

int hg_op_status_of(hg_ops *ops, const char *id, hg_op_status *out) {
  pthread_mutex_lock(&fk_mu);
  fk_op *o = fk_op_find(id);
  if (o) *out = o->st;
  pthread_mutex_unlock(&fk_mu);
  return o ? 0 : -ENOENT;
}

json_t *hg_op_list(hg_ops *ops, const char *sandbox) {
  json_t *arr = json_array();
  pthread_mutex_lock(&fk_mu);
  for (int i = 0; i < fk.nops && i < 64; i++)
    if (!sandbox || !strcmp(fk.ops[i].sandbox, sandbox))
      json_array_append_new(arr, fk_op_json(&fk.ops[i]));
  pthread_mutex_unlock(&fk_mu);
  return arr;
}

/* As node/op.c: n per-bucket counts over n-1 bounds, the last above all. */
void hg_ops_metrics(hg_ops *ops, hg_op_metric_fn fn, void *ud) {
  static const double bounds[] = {0.1, 1};
  static const uint64_t buckets[] = {2, 1, 1};
  fn(ud, "create", bounds, buckets, 3, 5.5, 4, 1);
}

/* ---- harness ------------------------------------------------------------------------ */

static uv_loop_t loop;
static char admin[] = "hgk_test_admin_key_0123456789";

static int setup(void **state) {
  memset(&fk, 0, sizeof fk);
  hg_buf_init(&fk.file, 1 << 20);
  double_answers = 0;
  uv_loop_init(&loop);
  hg_api_work w = test_work(FK_MANAGER);
  hg_api_config cfg = {.manager = FK_MANAGER, .ops = FK_OPS, .work = &w, .admin_key = admin,
                       .node_id = "n-test", .version = "t"};
  return hg_api_new(&loop, &cfg, &api);
}

static void drain(void) {
  for (int i = 0; i < 2000 && uv_run(&loop, UV_RUN_NOWAIT); i++) usleep(1000);
}

static int teardown(void **state) {
  hg_api_free(api);
  drain();
  assert_int_equal(uv_loop_close(&loop), 0);
  for (fk_req *r = reqs, *n; r; r = n) {
    n = r->next;
    hg_buf_free(&r->out);
    free(r->body);
    free(r);
  }
  reqs = NULL;
  for (int i = 0; i < fk.ncmds; i++) {
    hg_buf_free(&fk.cmds[i].o);
    hg_buf_free(&fk.cmds[i].e);
  }
  hg_buf_free(&fk.file);
  assert_int_equal(double_answers, 0);
  return 0;
}

/* A request as the server would hand it over (path percent-decoded). */
static fk_req *mkreq(const char *method, const char *target, const char *auth, const char *body) {
  fk_req *r = calloc(1, sizeof *r);
  snprintf(r->method, sizeof r->method, "%s", method);
  size_t plen = strcspn(target, "?");
  snprintf(r->path, sizeof r->path, "%.*s", (int)plen, target);
  snprintf(r->query, sizeof r->query, "%s", target[plen] ? target + plen + 1 : "");
  r->pub.method = r->method;
  r->pub.target = target;
  r->pub.path = r->path;
  r->pub.query = r->query;
  if (auth) {
    snprintf(r->authz, sizeof r->authz, "Bearer %s", auth);
    r->pub.headers[0] = (hg_http_header){"authorization", r->authz};
    r->pub.nheaders = 1;
  }
  r->body = strdup(body ? body : "");
  r->pub.body = r->body;
  r->pub.body_len = strlen(r->body);
  hg_buf_init(&r->out, 64u << 20);
  r->next = reqs;
  reqs = r;
  return r;
}

static void run_until(fk_req *r, int ms) {
  int64_t end = hg_now_ms() + ms;
  while (!r->answered && hg_now_ms() < end)
    if (!uv_run(&loop, UV_RUN_ONCE)) usleep(1000);
}

static fk_req *send_req(const char *method, const char *target, const char *auth, const char *body) {
  fk_req *r = mkreq(method, target, auth, body);
  hg_api_handler(NULL, &r->pub, api);
  run_until(r, 5000);
  assert_true(r->answered);
  return r;
}

static json_t *jbody(const fk_req *r) {
  json_t *j = json_loadb(r->out.data ? r->out.data : "", r->out.len, 0, NULL);
  assert_non_null(j);
  return j;
}

static const char *jstr(json_t *j, const char *path) {
  return json_string_value(json_object_get(j, path));
}

static const char *err_code(const fk_req *r, json_t **keep) {
  *keep = jbody(r);
  return json_string_value(json_object_get(json_object_get(*keep, "error"), "code"));
}

static const char *err_msg(json_t *j) {
  return json_string_value(json_object_get(json_object_get(j, "error"), "message"));
}

/* Creates a running sandbox through the API; id and token out. */
static void create(char id[HG_ID_MAX], char token[65]) {
  fk_req *r = send_req("POST", "/v1/sandboxes?wait=5", admin, "{}");
  assert_int_equal(r->status, 201);
  json_t *j = jbody(r);
  snprintf(id, HG_ID_MAX, "%s", jstr(j, "id"));
  snprintf(token, 65, "%s", jstr(j, "token"));
  json_decref(j);
}

static void target(char *out, size_t cap, const char *fmt, const char *id) {
  snprintf(out, cap, fmt, id);
}

/* ---- routing ----------------------------------------------------------------------- */

/* A concrete path for a pattern, with valid ids. */
static void concrete(const char *pattern, char *out, size_t cap) {
  size_t o = 0;
  for (const char *p = pattern; *p && o + 32 < cap;) {
    if (*p == '{') {
      size_t n = strcspn(p, "}");
      const char *v = !strncmp(p, "{id}", 4)       ? "sb-0123456789abcdef"
                      : !strncmp(p, "{op}", 4)     ? "op-0123456789abcdef"
                      : !strncmp(p, "{port}", 6)   ? "8080"
                      : !strncmp(p, "{path*}", 7)  ? "static/app.js"
                      : !strncmp(p, "{name*}", 7)  ? "sb-0123456789abcdef/3"
                                                   : "cmd-42";
      o += (size_t)snprintf(out + o, cap - o, "%s", v);
      p += n + 1;
    } else {
      out[o++] = *p++;
    }
  }
  out[o] = '\0';
}

static void routes_match_every_row(void **state) {
  for (int i = 0; i < HG_NROUTES; i++) {
    char path[256];
    hg_match m;
    concrete(hg__api_routes[i].pattern, path, sizeof path);
    assert_int_equal(hg__api_route_find(hg__api_routes[i].method, path, &m), 0);
    assert_ptr_equal(m.rt, &hg__api_routes[i]);
  }
  hg_match m;
  assert_int_equal(
      hg__api_route_find("GET", "/v1/sandboxes/sb-0123456789abcdef/commands/cmd-7/output",
                         &m),
      0);
  assert_string_equal(m.p.id, "sb-0123456789abcdef");
  assert_int_equal(m.p.cid, 7);
  assert_int_equal(hg__api_route_find("GET", "/v1/operations/op-00000000000000ff", &m),
                   0);
  assert_string_equal(m.p.op, "op-00000000000000ff");
  /* the inbound port route: any method, any tail, ports 1-65535 */
  const char *ports = "/v1/sandboxes/sb-0123456789abcdef/ports/";
  char path[160];
  static const char *const tails[] = {"80", "80/", "65535/a/b/c.js", "1/x"};
  for (size_t i = 0; i < HG_ARRAY_SIZE(tails); i++) {
    snprintf(path, sizeof path, "%s%s", ports, tails[i]);
    assert_int_equal(hg__api_route_find("DELETE", path, &m), 0);
    assert_string_equal(m.rt->method, "*");
    assert_int_equal(m.p.port, atoi(tails[i]));
  }
  static const char *const bad[] = {"0/", "65536/", "080/", "http/", "-1/", "99999999999/"};
  for (size_t i = 0; i < HG_ARRAY_SIZE(bad); i++) {
    snprintf(path, sizeof path, "%s%s", ports, bad[i]);
    assert_int_equal(hg__api_route_find("GET", path, &m), -ENOENT);
  }
  assert_int_equal(
      hg__api_route_find("GET", "/v1/sandboxes/sb-0123456789abcdef/ports", &m), -ENOENT);
}

static void routes_reject_bad_paths_and_ids(void **state) {
  static const char *const bad[] = {
      "/", "/v1", "/v1/", "/v1/sandboxes/", "/v1/sandboxes//pause", "/v1/nope",
      "/v1/sandboxes/sb-0123456789abcdef/", "/v1/sandboxes/sb-0123456789ABCDEF",
      "/v1/sandboxes/sb-0123", "/v1/sandboxes/sb-0123456789abcdef0",
      "/v1/sandboxes/op-0123456789abcdef", "/v1/sandboxes/../etc/passwd",
      "/v1/sandboxes/sb-0123456789abcdef/commands/cmd-01",
      "/v1/sandboxes/sb-0123456789abcdef/commands/cmd-",
      "/v1/sandboxes/sb-0123456789abcdef/commands/cmd-1x",
      "/v1/sandboxes/sb-0123456789abcdef/commands/42",
      "/v1/sandboxes/sb-0123456789abcdef/commands/cmd-18446744073709551616",
      "/v1/operations/sb-0123456789abcdef", "healthz", "",
  };
  for (size_t i = 0; i < HG_ARRAY_SIZE(bad); i++) {
    hg_match m;
    assert_int_equal(hg__api_route_find("GET", bad[i], &m), -ENOENT);
  }
  hg_match m;
  uint64_t cid;
  assert_true(hg__api_cid_parse("cmd-18446744073709551615", &cid));
  assert_true(cid == UINT64_MAX);
  assert_int_equal(
      hg__api_route_find("GET", "/v1/sandboxes/sb-0123456789abcdef/commands/cmd-0", &m),
      0);
}

static void routes_wrong_method_is_405_with_allow(void **state) {
  hg_match m;
  assert_int_equal(hg__api_route_find("PATCH", "/v1/sandboxes", &m), HG_API_EMETHOD);
  assert_string_equal(m.allow, "POST, GET");
  assert_int_equal(
      hg__api_route_find("GET", "/v1/sandboxes/sb-0123456789abcdef/pause", &m),
      HG_API_EMETHOD);
  assert_string_equal(m.allow, "POST");
  assert_int_equal(
      hg__api_route_find("POST", "/v1/sandboxes/sb-0123456789abcdef/files", &m),
      HG_API_EMETHOD);
  assert_string_equal(m.allow, "GET, PUT, DELETE");

  fk_req *r = send_req("PATCH", "/v1/sandboxes", admin, NULL);
  assert_int_equal(r->status, 405);
  assert_non_null(strstr(r->hdrs, "Allow: POST, GET\r\n"));
  json_t *j;
  assert_string_equal(err_code(r, &j), "method_not_allowed");
  json_decref(j);
}

static void unknown_route_is_404_json(void **state) {
  fk_req *r = send_req("GET", "/v1/sandboxes/sb-nothex", admin, NULL);
  assert_int_equal(r->status, 404);
  json_t *j;
  assert_string_equal(err_code(r, &j), "not_found");
  assert_string_equal(r->ctype, "application/json");
  json_decref(j);
}

static void body_limits_per_route(void **state) {
  const char *files = "/v1/sandboxes/sb-0123456789abcdef/files";
  assert_int_equal(hg_api_body_limit("PUT", files, api), HG_API_MAX_UPLOAD);
  assert_true((size_t)1 << 30 > hg_api_body_limit("PUT", files, api)); /* 1 GiB: 413 */
  assert_int_equal(hg_api_body_limit("GET", files, api), HG_API_MAX_JSON);
  assert_int_equal(hg_api_body_limit("POST", "/v1/sandboxes", api), HG_API_MAX_JSON);
  assert_int_equal(
      hg_api_body_limit("POST", "/v1/sandboxes/sb-0123456789abcdef/commands/cmd-1/stdin", api),
      HG_API_MAX_STDIN);
  assert_int_equal(hg_api_body_limit("PUT", "/nowhere", api), HG_API_MAX_JSON);
  hg_http_options opt = {0};
  hg_api_http_options(api, &opt);
  assert_ptr_equal(opt.handler, hg_api_handler);
  assert_ptr_equal(opt.on_abort, hg_api_on_abort);
  assert_ptr_equal(opt.ud, api);
  assert_int_equal(opt.max_body, HG_API_MAX_JSON);
}

/* ---- errors ------------------------------------------------------------------------ */

static void errno_table_matches_the_doc(void **state) {
  static const struct {
    int err, status;
    const char *code;
  } want[] = {
      {-ENOENT, 404, "not_found"},       {-EINVAL, 400, "bad_request"},
      {-EBUSY, 409, "conflict"},         {-ENOSPC, 507, "insufficient_capacity"},
      {-EAGAIN, 503, "unavailable"},     {-EFBIG, 413, "too_large"},
      {-ENOBUFS, 413, "too_large"},      {-E2BIG, 413, "too_large"},
      {-ETIMEDOUT, 504, "timeout"},      {-EPROTO, 502, "guest_error"},
      {-ECONNRESET, 502, "guest_error"}, {HG_API_EUNAUTH, 401, "unauthorized"},
      {HG_API_EFORBID, 403, "forbidden"}, {HG_API_EMETHOD, 405, "method_not_allowed"},
      {-EXDEV, 409, "incompatible_accelerator"}, {-12345, 500, "internal"},
      {-EHOSTUNREACH, 502, "owner_unreachable"}, {HG_API_EMISDIRECTED, 421, "misdirected"},
  };
  for (size_t i = 0; i < HG_ARRAY_SIZE(want); i++) {
    hg_err_class e = hg__api_err_class(want[i].err);
    assert_int_equal(e.status, want[i].status);
    assert_string_equal(e.code, want[i].code);
    assert_non_null(hg__api_err_text(want[i].err));
  }
}

static void runtime_errors_map_through_the_table(void **state) {
  char id[HG_ID_MAX], tok[65], t[256];
  create(id, tok);
  fk.pause_rc = -EBUSY;
  target(t, sizeof t, "/v1/sandboxes/%s/pause?wait=5", id);
  fk_req *r = send_req("POST", t, admin, NULL);
  assert_int_equal(r->status, 409);
  json_t *j;
  assert_string_equal(err_code(r, &j), "conflict");
  assert_true(hg_id_valid("op", jstr(j, "operation")));
  json_decref(j);
  fk.pause_rc = -ENOSPC;
  r = send_req("POST", t, admin, NULL);
  assert_int_equal(r->status, 507);
  /* without wait the failure is the operation's, not the request's */
  target(t, sizeof t, "/v1/sandboxes/%s/pause", id);
  r = send_req("POST", t, admin, NULL);
  assert_int_equal(r->status, 202);
}

/* ---- auth ---------------------------------------------------------------------------- */

static void auth_decisions(void **state) {
  hg_params p = {.id = "sb-0123456789abcdef", .cid = 7};
  hg_params other = {.id = "sb-fedcba9876543210", .cid = 7};
  char out_tok[65], sb_tok[65];
  bool adm;
  hg__api_token_new(out_tok);
  hg__api_token_new(sb_tok);
  hg__api_tok_put(api, TOK_OUTPUT, out_tok, p.id, 7, 0);
  hg__api_tok_put(api, TOK_SANDBOX, sb_tok, p.id, 0, 0);

  assert_int_equal(hg__api_auth_decide(api, SCOPE_PUBLIC, &p, "", NULL, &adm), AUTH_OK);
  for (hg_scope s = SCOPE_ADMIN; s <= SCOPE_OPLIST; s++) {
    assert_int_equal(hg__api_auth_decide(api, s, &p, "", NULL, &adm), HG_API_EUNAUTH);
    assert_int_equal(hg__api_auth_decide(api, s, &p, "", "", &adm), HG_API_EUNAUTH);
    assert_int_equal(hg__api_auth_decide(api, s, &p, "", admin, &adm), AUTH_OK);
    assert_true(adm);
  }
  /* an admin key one byte off is nothing */
  char near[sizeof admin];
  memcpy(near, admin, sizeof admin);
  near[3] ^= 1;
  assert_int_equal(hg__api_auth_decide(api, SCOPE_ADMIN, &p, "", near, &adm),
                   HG_API_EUNAUTH);
  assert_false(adm);
  assert_int_equal(hg__api_auth_decide(api, SCOPE_ADMIN, &p, "", "garbage", &adm),
                   HG_API_EUNAUTH);
  /* sandbox token: its own sandbox is for the manager to confirm */
  assert_int_equal(hg__api_auth_decide(api, SCOPE_SANDBOX, &p, "", sb_tok, &adm),
                   AUTH_CHECK);
  assert_int_equal(hg__api_auth_decide(api, SCOPE_OUTPUT, &p, "", sb_tok, &adm),
                   AUTH_CHECK);
  assert_int_equal(hg__api_auth_decide(api, SCOPE_SANDBOX, &other, "", sb_tok, &adm),
                   HG_API_EFORBID);
  assert_int_equal(hg__api_auth_decide(api, SCOPE_ADMIN, &p, "", sb_tok, &adm),
                   HG_API_EFORBID);
  assert_int_equal(hg__api_auth_decide(api, SCOPE_OPLIST, &p, "", sb_tok, &adm),
                   HG_API_EFORBID);
  assert_int_equal(hg__api_auth_decide(api, SCOPE_OPLIST, &p, p.id, sb_tok, &adm),
                   AUTH_CHECK);
  assert_int_equal(hg__api_auth_decide(api, SCOPE_OPLIST, &p, other.id, sb_tok, &adm),
                   HG_API_EFORBID);
  assert_int_equal(hg__api_auth_decide(api, SCOPE_SANDBOX, &p, "", "unknown", &adm),
                   AUTH_CHECK);
  /* output token: only its command's output */
  assert_int_equal(hg__api_auth_decide(api, SCOPE_OUTPUT, &p, "", out_tok, &adm),
                   AUTH_OK);
  hg_params cid8 = p;
  cid8.cid = 8;
  assert_int_equal(hg__api_auth_decide(api, SCOPE_OUTPUT, &cid8, "", out_tok, &adm),
                   HG_API_EFORBID);
  assert_int_equal(hg__api_auth_decide(api, SCOPE_OUTPUT, &other, "", out_tok, &adm),
                   HG_API_EFORBID);
  assert_int_equal(hg__api_auth_decide(api, SCOPE_SANDBOX, &p, "", out_tok, &adm),
                   HG_API_EFORBID);
  assert_int_equal(hg__api_auth_decide(api, SCOPE_ADMIN, &p, "", out_tok, &adm),
                   HG_API_EFORBID);
  assert_int_equal(hg__api_auth_decide(api, SCOPE_OP, &p, "", out_tok, &adm),
                   HG_API_EFORBID);
  /* forgotten with its sandbox */
  hg__api_tok_forget_sandbox(api, p.id);
  assert_int_equal(hg__api_auth_decide(api, SCOPE_OUTPUT, &p, "", out_tok, &adm),
                   AUTH_CHECK);
  assert_int_equal(hg__api_auth_decide(api, SCOPE_ADMIN, &p, "", sb_tok, &adm),
                   HG_API_EUNAUTH);
}

static void tokens_ring_forgets_the_oldest(void **state) {
  char first[65], t[65];
  hg__api_token_new(first);
  hg__api_tok_put(api, TOK_OUTPUT, first, "sb-0123456789abcdef", 1, 0);
  for (int i = 0; i < HG_API_TOKENS - 1; i++) {
    hg__api_token_new(t);
    hg__api_tok_put(api, TOK_OUTPUT, t, "sb-0123456789abcdef", 2, 0);
  }
  assert_non_null(hg__api_tok_find(api, first));
  hg__api_token_new(t);
  hg__api_tok_put(api, TOK_OUTPUT, t, "sb-0123456789abcdef", 3, 0);
  assert_null(hg__api_tok_find(api, first));
  assert_non_null(hg__api_tok_find(api, t));
}

/* A request whose one credential is the header hdr (lower case) = v. */
static fk_req *send_with(const char *method, const char *target, const char *hdr,
                         const char *v) {
  fk_req *r = mkreq(method, target, NULL, NULL);
  r->pub.headers[0] = (hg_http_header){hdr, v};
  r->pub.nheaders = 1;
  hg_api_handler(NULL, &r->pub, api);
  run_until(r, 5000);
  assert_true(r->answered);
  return r;
}

/* E2B's credential headers count where E2B's clients send them, and
 * nowhere else: X-API-KEY on its control API, X-Access-Token on envd;
 * hangar's own routes take Authorization only. */
static void e2b_credential_headers_only_on_e2b_routes(void **state) {
  char id[HG_ID_MAX], tok[65], t[256];
  create(id, tok);
  target(t, sizeof t, "/sandboxes/%s", id);
  assert_int_equal(send_with("GET", t, "x-api-key", admin)->status, 200);
  assert_int_equal(send_with("GET", t, "x-access-token", admin)->status, 401);
  target(t, sizeof t, "/v1/sandboxes/%s", id);
  assert_int_equal(send_with("GET", t, "x-api-key", admin)->status, 401);
  assert_int_equal(send_with("GET", t, "x-access-token", tok)->status, 401);
  assert_int_equal(send_with("GET", "/v1/sandboxes", "x-api-key", admin)->status, 401);
  assert_int_equal(send_req("GET", t, tok, NULL)->status, 200);
}

static void auth_over_http(void **state) {
  char id[HG_ID_MAX], tok[65], id2[HG_ID_MAX], tok2[65], t[256];
  create(id, tok);
  create(id2, tok2);
  target(t, sizeof t, "/v1/sandboxes/%s", id);

  fk_req *r = send_req("GET", t, NULL, NULL);
  assert_int_equal(r->status, 401);
  assert_non_null(strstr(r->hdrs, "WWW-Authenticate: Bearer"));
  assert_int_equal(send_req("GET", t, "wrong-key", NULL)->status, 401);
  r = mkreq("GET", t, NULL, NULL); /* not Bearer */
  r->pub.headers[0] = (hg_http_header){"authorization", "Basic YWRtaW46eA=="};
  r->pub.nheaders = 1;
  hg_api_handler(NULL, &r->pub, api);
  run_until(r, 2000);
  assert_int_equal(r->status, 401);

  assert_int_equal(send_req("GET", t, admin, NULL)->status, 200);
  assert_int_equal(send_req("GET", t, tok, NULL)->status, 200);
  assert_int_equal(send_req("GET", t, tok2, NULL)->status, 403); /* another sandbox's token */
  assert_int_equal(send_req("DELETE", t, tok2, NULL)->status, 403);
  assert_int_equal(send_req("GET", "/v1/sandboxes", tok, NULL)->status, 403);
  assert_int_equal(send_req("POST", "/v1/sandboxes", tok, "{}")->status, 403);
  assert_int_equal(send_req("GET", "/v1/templates", tok, NULL)->status, 403);
  assert_int_equal(send_req("GET", "/healthz", NULL, NULL)->status, 200);
  assert_int_equal(send_req("GET", "/v1/openapi.json", NULL, NULL)->status, 200);

  /* operations: the token of the operation's sandbox */
  target(t, sizeof t, "/v1/sandboxes/%s/snapshot", id);
  r = send_req("POST", t, tok, NULL);
  assert_int_equal(r->status, 202);
  json_t *j = jbody(r);
  char op[64];
  snprintf(op, sizeof op, "/v1/operations/%s?wait=5", jstr(j, "operation"));
  json_decref(j);
  r = send_req("GET", op, tok, NULL);
  assert_int_equal(r->status, 200);
  j = jbody(r);
  assert_string_equal(jstr(j, "status"), "succeeded");
  json_decref(j);
  assert_int_equal(send_req("GET", op, tok2, NULL)->status, 403);
  assert_int_equal(send_req("GET", op, admin, NULL)->status, 200);
  assert_int_equal(send_req("GET", "/v1/operations/op-0123456789abcdef", admin, NULL)->status, 404);
  assert_int_equal(send_req("GET", "/v1/operations/op-0123456789abcdef", tok, NULL)->status, 403);
  assert_int_equal(send_req("GET", "/v1/operations", tok, NULL)->status, 403);
  snprintf(t, sizeof t, "/v1/operations?sandbox=%s", id);
  r = send_req("GET", t, tok, NULL);
  assert_int_equal(r->status, 200);
  j = jbody(r);
  assert_int_equal(json_array_size(json_object_get(j, "operations")), 2); /* create, snapshot */
  json_decref(j);
  snprintf(t, sizeof t, "/v1/operations?sandbox=%s", id2);
  assert_int_equal(send_req("GET", t, tok, NULL)->status, 403);
  assert_int_equal(send_req("GET", "/v1/operations?sandbox=x", admin, NULL)->status, 400);
}

/* ---- validation ---------------------------------------------------------------------- */

/* Sends body; wants 400 and a message naming field. */
static void want_400(const char *method, const char *path, const char *body, const char *field) {
  fk_req *r = send_req(method, path, admin, body);
  json_t *j;
  if (r->status != 400) fprintf(stderr, "%s %s %s -> %d\n", method, path, body, r->status);
  assert_int_equal(r->status, 400);
  assert_string_equal(err_code(r, &j), "bad_request");
  if (!strstr(err_msg(j), field)) fprintf(stderr, "message \"%s\" lacks %s\n", err_msg(j), field);
  assert_non_null(strstr(err_msg(j), field));
  json_decref(j);
}

/* This API has no gateway (hangard --no-network): the network routes say
 * so, and a create that asks for a policy is refused. */
static void network_routes_without_a_gateway(void **state) {
  static const char *const routes[][2] = {
      {"GET", "/v1/sandboxes/sb-0123456789abcdef/network"},
      {"PUT", "/v1/sandboxes/sb-0123456789abcdef/network"},
      {"GET", "/v1/sandboxes/sb-0123456789abcdef/egress-log"},
      {"POST", "/v1/sandboxes/sb-0123456789abcdef/ports/8080/x?y=1"},
  };
  for (size_t i = 0; i < HG_ARRAY_SIZE(routes); i++) {
    fk_req *r = send_req(routes[i][0], routes[i][1], admin, "{}");
    json_t *j;
    assert_int_equal(r->status, 404);
    assert_string_equal(err_code(r, &j), "not_found");
    assert_non_null(strstr(err_msg(j), "networking is off"));
    json_decref(j);
  }
  want_400("POST", "/v1/sandboxes", "{\"network\": {\"allow\": []}}", "network");
  /* the body limit of the port route is the upload limit */
  assert_int_equal(hg_api_body_limit("PATCH", "/v1/sandboxes/sb-0123456789abcdef/ports/80/up",
                                     api),
                   HG_API_MAX_UPLOAD);
}

static void create_validation_names_the_field(void **state) {
  const char *c = "/v1/sandboxes";
  want_400("POST", c, "{\"vcpus\": \"2\"}", "vcpus");
  want_400("POST", c, "{\"vcpus\": 0}", "vcpus");
  want_400("POST", c, "{\"vcpus\": 2.5}", "vcpus");
  want_400("POST", c, "{\"memory_mib\": true}", "memory_mib");
  want_400("POST", c, "{\"memory_mib\": 99999999999}", "memory_mib");
  want_400("POST", c, "{\"template\": 7}", "template");
  want_400("POST", c, "{\"template\": \"../etc\"}", "template");
  want_400("POST", c, "{\"template\": \"UPPER\"}", "template");
  want_400("POST", c, "{\"env\": {\"A\": 1}}", "env");
  want_400("POST", c, "{\"env\": {\"A=B\": \"x\"}}", "env");
  want_400("POST", c, "{\"env\": []}", "env");
  want_400("POST", c, "{\"metadata\": \"x\"}", "metadata");
  want_400("POST", c, "{\"idle_suspend_s\": -2}", "idle_suspend_s");
  want_400("POST", c, "{\"checkpoint_s\": 1}", "checkpoint_s");
  want_400("POST", c, "{\"checkpoint_s\": -1}", "checkpoint_s");
  want_400("POST", c, "{\"checkpoint_s\": 86401}", "checkpoint_s");
  want_400("POST", c, "{\"checkpoint_s\": \"5\"}", "checkpoint_s");
  want_400("POST", c, "{\"vcpus\": 1, \"vcpus\": 2}", "duplicate");
  want_400("POST", c, "[1]", "object");
  want_400("POST", c, "{\"vcpus\": ", "invalid JSON");
  want_400("POST", c, "{\"s\": \"\\u0000\"}", "invalid JSON");
  want_400("POST", "/v1/sandboxes?wait=601", "{}", "wait");
  want_400("POST", "/v1/sandboxes?wait=-1", "{}", "wait");
  want_400("POST", "/v1/sandboxes?wait=1e3", "{}", "wait");
  want_400("POST", "/v1/templates", "{\"dir\": \"/x\"}", "name");
  want_400("POST", "/v1/templates", "{\"name\": \"t:v1\", \"dir\": \"rel\"}", "dir");
  want_400("GET", "/v1/sandboxes?state=sleepy", NULL, "state");
  want_400("GET", "/v1/sandboxes?label=novalue", NULL, "label");
  want_400("POST", c, "{\"placement\": \"z1\"}", "placement");
  want_400("POST", c, "{\"placement\": {\"zone\": 3}}", "placement");
  want_400("POST", c, "{\"placement\": {\"label\": \"novalue\"}}", "placement");
  want_400("POST", c, "{\"placement\": {\"label\": \"=v\"}}", "placement");
  /* unknown fields are ignored, null reads as absent */
  fk_req *r = send_req("POST", c, admin, "{\"vcpus\": 2, \"colour\": \"blue\", \"template\": null}");
  assert_int_equal(r->status, 202);
  assert_int_equal(fk.last_vcpus, 2);
  json_t *j = jbody(r);
  assert_true(hg_id_valid("sb", jstr(j, "id")));
  assert_int_equal(strlen(jstr(j, "token")), 64);
  assert_true(hg_id_valid("op", jstr(j, "operation")));
  json_decref(j);
  /* a JSON body past HG_API_MAX_JSON (were the server not to stop it) */
  char *big = malloc(HG_API_MAX_JSON + 16);
  memset(big, ' ', HG_API_MAX_JSON + 15);
  big[HG_API_MAX_JSON + 15] = '\0';
  big[0] = '{';
  big[HG_API_MAX_JSON + 14] = '}';
  r = send_req("POST", c, admin, big);
  free(big);
  assert_int_equal(r->status, 413);
}

static void command_and_file_validation(void **state) {
  char id[HG_ID_MAX], tok[65], t[256];
  create(id, tok);
  target(t, sizeof t, "/v1/sandboxes/%s/commands", id);
  want_400("POST", t, "{}", "cmd");
  want_400("POST", t, "{\"cmd\": []}", "cmd");
  want_400("POST", t, "{\"cmd\": \"ls\"}", "cmd");
  want_400("POST", t, "{\"cmd\": [\"ls\", 1]}", "cmd");
  want_400("POST", t, "{\"cmd\": [\"ls\"], \"cwd\": \"tmp\"}", "cwd");
  want_400("POST", t, "{\"cmd\": [\"ls\"], \"timeout_s\": -1}", "timeout_s");
  want_400("POST", t, "{\"cmd\": [\"ls\"], \"stdin_open\": 1}", "stdin_open");
  want_400("POST", t, "{\"cmd\": [\"ls\"], \"env\": {\"\": \"x\"}}", "env");
  target(t, sizeof t, "/v1/sandboxes/%s/commands/cmd-1/signal", id);
  want_400("POST", t, "{}", "signal");
  want_400("POST", t, "{\"signal\": 99}", "signal");
  target(t, sizeof t, "/v1/sandboxes/%s/commands/cmd-1/output?stream=both", id);
  want_400("GET", t, NULL, "stream");
  target(t, sizeof t, "/v1/sandboxes/%s/commands/cmd-1/output?offset=x", id);
  want_400("GET", t, NULL, "offset");
  target(t, sizeof t, "/v1/sandboxes/%s/commands/cmd-1/output?follow=maybe", id);
  want_400("GET", t, NULL, "follow");
  target(t, sizeof t, "/v1/sandboxes/%s/files", id);
  want_400("GET", t, NULL, "path");
  target(t, sizeof t, "/v1/sandboxes/%s/files?path=etc/passwd", id);
  want_400("GET", t, NULL, "path");
  target(t, sizeof t, "/v1/sandboxes/%s/files?path=/a%%00b", id);
  want_400("GET", t, NULL, "path");
  target(t, sizeof t, "/v1/sandboxes/%s/files?path=/x&mode=0999", id);
  want_400("PUT", t, NULL, "mode");
  char *longp = malloc(HG_API_MAX_PATH + 300);
  int n = snprintf(longp, 300, "/v1/sandboxes/%s/files?path=/", id);
  memset(longp + n, 'a', HG_API_MAX_PATH);
  longp[n + HG_API_MAX_PATH] = '\0';
  want_400("GET", longp, NULL, "path");
  free(longp);
}

/* ---- lifecycle --------------------------------------------------------------------- */

static void lifecycle_answers_and_waits(void **state) {
  char id[HG_ID_MAX], tok[65], t[256];
  create(id, tok);
  fk_req *r = send_req("GET", "/v1/sandboxes?state=running", admin, NULL);
  json_t *j = jbody(r);
  assert_int_equal(json_array_size(json_object_get(j, "sandboxes")), 1);
  assert_string_equal(jstr(json_array_get(json_object_get(j, "sandboxes"), 0), "node"), "n-test");
  json_decref(j);

  /* a checkpoint of the running sandbox: its gen and the pause */
  target(t, sizeof t, "/v1/sandboxes/%s/checkpoint?wait=5", id);
  r = send_req("POST", t, tok, NULL);
  assert_int_equal(r->status, 200);
  j = jbody(r);
  json_t *res = json_object_get(j, "result");
  assert_int_equal(json_integer_value(json_object_get(res, "gen")), 4);
  assert_true(json_number_value(json_object_get(res, "pause_ms")) == 20.0);
  json_decref(j);

  target(t, sizeof t, "/v1/sandboxes/%s/suspend?wait=5", id);
  r = send_req("POST", t, tok, NULL);
  assert_int_equal(r->status, 200);
  j = jbody(r);
  assert_int_equal(json_integer_value(json_object_get(json_object_get(j, "result"), "gen")), 3);
  json_decref(j);

  /* only a running sandbox is checkpointed */
  target(t, sizeof t, "/v1/sandboxes/%s/checkpoint?wait=5", id);
  r = send_req("POST", t, tok, NULL);
  assert_int_equal(r->status, 409);

  target(t, sizeof t, "/v1/sandboxes/%s/resume", id);
  r = send_req("POST", t, tok, NULL);
  assert_int_equal(r->status, 202);
  assert_non_null(strstr(r->hdrs, "Location: /v1/operations/op-"));

  /* a wait that runs out answers 202 with the operation */
  fk.pause_ms = 1500;
  target(t, sizeof t, "/v1/sandboxes/%s/pause?wait=1", id);
  r = send_req("POST", t, tok, NULL);
  assert_int_equal(r->status, 202);
  j = jbody(r);
  char op[80];
  snprintf(op, sizeof op, "/v1/operations/%s?wait=5", jstr(j, "operation"));
  json_decref(j);
  r = send_req("GET", op, tok, NULL); /* polls until it ends */
  j = jbody(r);
  assert_string_equal(jstr(j, "status"), "succeeded");
  json_decref(j);
  fk.pause_ms = 0;

  /* fork answers with the new sandbox */
  target(t, sizeof t, "/v1/sandboxes/%s/fork", id);
  r = send_req("POST", t, tok, "{\"gen\": 3}");
  assert_int_equal(r->status, 202);
  assert_non_null(strstr(r->hdrs, "Location: /v1/operations/op-"));
  j = jbody(r);
  char fid[HG_ID_MAX], ftok[65];
  snprintf(fid, sizeof fid, "%s", jstr(j, "id"));
  snprintf(ftok, sizeof ftok, "%s", jstr(j, "token"));
  json_decref(j);
  target(t, sizeof t, "/v1/sandboxes/%s", fid);
  assert_int_equal(send_req("GET", t, ftok, NULL)->status, 200);
  assert_int_equal(send_req("GET", t, tok, NULL)->status, 403);
  target(t, sizeof t, "/v1/sandboxes/%s/fork?wait=5", id);
  r = send_req("POST", t, tok, NULL);
  assert_int_equal(r->status, 200);
  j = jbody(r);
  assert_true(hg_id_valid("sb", jstr(json_object_get(j, "result"), "id")));
  assert_string_equal(jstr(json_object_get(j, "result"), "id"), jstr(j, "id"));
  assert_int_equal(strlen(jstr(j, "token")), 64);
  json_decref(j);

  /* delete; afterwards the token is nothing */
  target(t, sizeof t, "/v1/sandboxes/%s?wait=5", id);
  assert_int_equal(send_req("DELETE", t, tok, NULL)->status, 200);
  target(t, sizeof t, "/v1/sandboxes/%s", id);
  assert_int_equal(send_req("GET", t, tok, NULL)->status, 401);
  assert_int_equal(send_req("GET", t, admin, NULL)->status, 404);
  target(t, sizeof t, "/v1/sandboxes/%s/pause", id);
  assert_int_equal(send_req("POST", t, admin, NULL)->status, 404);

  /* templates */
  r = send_req("POST", "/v1/templates?wait=5", admin, "{\"name\": \"mine:v1\", \"dir\": \"/src\"}");
  assert_int_equal(r->status, 200);
  j = jbody(r);
  assert_string_equal(jstr(json_object_get(j, "result"), "name"), "mine:v1");
  json_decref(j);
  r = send_req("POST", "/v1/templates?wait=5", admin, "{\"name\": \"mine\", \"dir\": \"/missing\"}");
  assert_int_equal(r->status, 404);
  j = jbody(r); /* the build's own words, not just the errno */
  assert_non_null(strstr(jstr(json_object_get(j, "error"), "message"),
                         "failed: the template did not boot under TCG: console: oops"));
  json_decref(j);
  r = send_req("GET", "/v1/templates", admin, NULL);
  j = jbody(r);
  assert_int_equal(json_array_size(json_object_get(j, "templates")), 1);
  json_decref(j);
}

static void operations_queue_beyond_max_ops(void **state) {
  char id[HG_ID_MAX], tok[65], id2[HG_ID_MAX], tok2[65], t[256];
  create(id, tok);
  create(id2, tok2);
  api->max_ops = 1;
  fk.pause_ms = 300;
  target(t, sizeof t, "/v1/sandboxes/%s/pause?wait=5", id);
  fk_req *a = mkreq("POST", t, tok, NULL);
  target(t, sizeof t, "/v1/sandboxes/%s/pause?wait=5", id2);
  fk_req *b = mkreq("POST", t, tok2, NULL);
  int64_t t0 = hg_now_ms();
  hg_api_handler(NULL, &a->pub, api);
  hg_api_handler(NULL, &b->pub, api);
  run_until(a, 5000);
  run_until(b, 5000);
  assert_int_equal(a->status, 200);
  assert_int_equal(b->status, 200);
  assert_true(hg_now_ms() - t0 >= 600); /* one after the other */
  assert_int_equal(api->ops_running, 0);
}

/* ---- commands ------------------------------------------------------------------------ */

static void exec_wait_returns_output(void **state) {
  char id[HG_ID_MAX], tok[65], t[256];
  create(id, tok);
  target(t, sizeof t, "/v1/sandboxes/%s/commands?wait=5", id);
  fk_req *r = send_req("POST", t, tok, "{\"cmd\": [\"echo\"], \"env\": {\"K\": \"V\"}}");
  assert_int_equal(r->status, 201);
  json_t *j = jbody(r);
  assert_string_equal(jstr(j, "id"), "cmd-1");
  assert_int_equal(json_integer_value(json_object_get(j, "pid")), 101);
  assert_int_equal(strlen(jstr(j, "output_token")), 64);
  assert_true(json_is_true(json_object_get(j, "exited")));
  assert_int_equal(json_integer_value(json_object_get(j, "exit_code")), 3);
  assert_string_equal(jstr(j, "stdout"), "hello\n");
  assert_string_equal(jstr(j, "stderr"), "bad \xef\xbf\xbd\xef\xbf\xbd end");
  assert_true(json_is_false(json_object_get(j, "truncated")));
  json_decref(j);
  assert_string_equal(fk.cmds[0].env0, "K=V");
  assert_int_equal(fk.gets, fk.puts); /* every borrowed agent given back */
  assert_int_equal(api->held, 0);

  /* a command still running when S passes */
  target(t, sizeof t, "/v1/sandboxes/%s/commands?wait=1", id);
  r = send_req("POST", t, tok, "{\"cmd\": [\"sleep\"]}");
  assert_int_equal(r->status, 201);
  j = jbody(r);
  assert_true(json_is_false(json_object_get(j, "exited")));
  assert_true(json_is_null(json_object_get(j, "exit_code")));
  json_decref(j);

  /* bytes lost to the ring: truncated */
  target(t, sizeof t, "/v1/sandboxes/%s/commands?wait=5", id);
  r = send_req("POST", t, tok, "{\"cmd\": [\"flood\"]}");
  j = jbody(r);
  assert_string_equal(jstr(j, "stdout"), "56789");
  assert_true(json_is_true(json_object_get(j, "truncated")));
  json_decref(j);

  /* status */
  target(t, sizeof t, "/v1/sandboxes/%s/commands/cmd-1", id);
  r = send_req("GET", t, tok, NULL);
  assert_int_equal(r->status, 200);
  j = jbody(r);
  assert_int_equal(json_integer_value(json_object_get(j, "pid")), 101);
  assert_int_equal(json_integer_value(json_object_get(j, "stdout_bytes")), 6);
  assert_int_equal(json_integer_value(json_object_get(j, "stderr_bytes")), 10);
  json_decref(j);
  target(t, sizeof t, "/v1/sandboxes/%s/commands/cmd-99", id);
  assert_int_equal(send_req("GET", t, tok, NULL)->status, 404);

  /* a paused sandbox runs nothing */
  fk_set(id, HG_SB_PAUSED);
  target(t, sizeof t, "/v1/sandboxes/%s/commands", id);
  assert_int_equal(send_req("POST", t, tok, "{\"cmd\": [\"echo\"]}")->status, 409);
}


/* The sandbox stops running here (a lost lease fences it) between the
 * command's exit and the read of its output: never a 201 with an empty
 * stdout the caller would take for the output; a 5xx (it may have run). */
static void exec_output_lost_to_a_fence_is_an_error(void **state) {
  char id[HG_ID_MAX], tok[65], t[256];
  create(id, tok);
  target(t, sizeof t, "/v1/sandboxes/%s/commands?wait=5", id);
  fk_req *r = send_req("POST", t, tok, "{\"cmd\": [\"fenced\"]}");
  assert_int_equal(r->status, 502);
  json_t *j = jbody(r), *err = json_object_get(j, "error");
  assert_string_equal(jstr(err, "code"), "output_lost");
  assert_non_null(strstr(jstr(err, "message"), "exit code 3"));
  assert_null(json_object_get(j, "stdout"));
  json_decref(j);
  assert_int_equal(fk.gets, fk.puts);
  assert_int_equal(api->held, 0);
}
static void held_calls_are_capped(void **state) {
  char id[HG_ID_MAX], tok[65], t[256];
  create(id, tok);
  api->held = api->max_held;
  target(t, sizeof t, "/v1/sandboxes/%s/commands?wait=5", id);
  fk_req *r = send_req("POST", t, tok, "{\"cmd\": [\"echo\"]}");
  assert_int_equal(r->status, 503);
  assert_non_null(strstr(r->hdrs, "Retry-After: 1"));
  target(t, sizeof t, "/v1/sandboxes/%s/commands/cmd-1/output?follow=1", id);
  assert_int_equal(send_req("GET", t, tok, NULL)->status, 503);
  target(t, sizeof t, "/v1/sandboxes/%s/commands", id); /* no wait: not held */
  assert_int_equal(send_req("POST", t, tok, "{\"cmd\": [\"echo\"]}")->status, 201);
  api->held = 0;
  assert_int_equal(api->held_rejected, 2);
}

static void output_tokens_and_offsets(void **state) {
  char id[HG_ID_MAX], tok[65], t[300];
  create(id, tok);
  target(t, sizeof t, "/v1/sandboxes/%s/commands?wait=5", id);
  json_t *j = jbody(send_req("POST", t, tok, "{\"cmd\": [\"echo\"]}"));
  char otok[65];
  snprintf(otok, sizeof otok, "%s", jstr(j, "output_token"));
  json_decref(j);
  send_req("POST", t, tok, "{\"cmd\": [\"echo\"]}"); /* cmd-2 */

  target(t, sizeof t, "/v1/sandboxes/%s/commands/cmd-1/output", id);
  fk_req *r = send_req("GET", t, otok, NULL);
  assert_int_equal(r->status, 200);
  assert_string_equal(r->ctype, "application/octet-stream");
  assert_int_equal(r->out.len, 6);
  assert_memory_equal(r->out.data, "hello\n", 6);
  assert_non_null(strstr(r->hdrs, "X-Hangar-Offset: 0\r\n"));
  assert_non_null(strstr(r->hdrs, "X-Hangar-Eof: 1\r\n"));
  char q[400];
  snprintf(q, sizeof q, "%s?offset=2&stream=stdout", t);
  r = send_req("GET", q, otok, NULL);
  assert_int_equal(r->out.len, 4);
  assert_non_null(strstr(r->hdrs, "X-Hangar-Offset: 2\r\n"));
  snprintf(q, sizeof q, "%s?token=%s&stream=stderr", t, otok); /* token in the query */
  r = send_req("GET", q, NULL, NULL);
  assert_int_equal(r->status, 200);
  assert_int_equal(r->out.len, 10);
  /* the output token of cmd-1 is for nothing else */
  target(t, sizeof t, "/v1/sandboxes/%s/commands/cmd-2/output", id);
  assert_int_equal(send_req("GET", t, otok, NULL)->status, 403);
  target(t, sizeof t, "/v1/sandboxes/%s/commands/cmd-1", id);
  assert_int_equal(send_req("GET", t, otok, NULL)->status, 403);
  target(t, sizeof t, "/v1/sandboxes/%s", id);
  assert_int_equal(send_req("GET", t, otok, NULL)->status, 403);
  /* the sandbox token reads every command's output */
  target(t, sizeof t, "/v1/sandboxes/%s/commands/cmd-2/output", id);
  assert_int_equal(send_req("GET", t, tok, NULL)->status, 200);
}

static void follow_streams_until_eof_and_resumes_at_offset(void **state) {
  char id[HG_ID_MAX], tok[65], t[300];
  create(id, tok);
  target(t, sizeof t, "/v1/sandboxes/%s/commands", id);
  json_t *j = jbody(send_req("POST", t, tok, "{\"cmd\": [\"follow\"]}"));
  char otok[65];
  snprintf(otok, sizeof otok, "%s", jstr(j, "output_token"));
  json_decref(j);
  target(t, sizeof t, "/v1/sandboxes/%s/commands/cmd-1/output?follow=1", id);
  fk_req *r = send_req("GET", t, otok, NULL);
  assert_true(r->streamed);
  assert_int_equal(r->status, 200);
  assert_non_null(strstr(r->hdrs, "X-Hangar-Offset: 0\r\n"));
  assert_int_equal(r->out.len, 6);
  assert_memory_equal(r->out.data, "abbccc", 6);
  assert_int_equal(api->held, 0);
  /* a reconnect with an offset continues exactly */
  target(t, sizeof t, "/v1/sandboxes/%s/commands/cmd-1/output?follow=1&offset=3", id);
  r = send_req("GET", t, otok, NULL);
  assert_int_equal(r->out.len, 3);
  assert_memory_equal(r->out.data, "ccc", 3);
  assert_non_null(strstr(r->hdrs, "X-Hangar-Offset: 3\r\n"));
  assert_int_equal(fk.gets, fk.puts);
}

static void combined_stream_is_ndjson_with_exit(void **state) {
  char id[HG_ID_MAX], tok[65], t[300];
  create(id, tok);
  target(t, sizeof t, "/v1/sandboxes/%s/commands?wait=5", id);
  send_req("POST", t, tok, "{\"cmd\": [\"echo\"]}");
  target(t, sizeof t, "/v1/sandboxes/%s/commands/cmd-1/output?stream=combined&follow=1", id);
  fk_req *r = send_req("GET", t, tok, NULL);
  assert_string_equal(r->ctype, "application/x-ndjson");
  /* three lines: stdout, stderr, exit */
  char *text = strndup(r->out.data, r->out.len), *save = NULL;
  json_t *ev[4] = {0};
  int n = 0;
  for (char *line = strtok_r(text, "\n", &save); line && n < 4; line = strtok_r(NULL, "\n", &save))
    ev[n++] = json_loads(line, 0, NULL);
  free(text);
  assert_int_equal(n, 3);
  assert_string_equal(jstr(ev[0], "stream"), "stdout");
  assert_string_equal(jstr(ev[0], "data"), "aGVsbG8K"); /* "hello\n" */
  assert_string_equal(jstr(ev[1], "stream"), "stderr");
  assert_int_equal(json_integer_value(json_object_get(ev[2], "exit_code")), 3);
  for (int i = 0; i < n; i++) json_decref(ev[i]);
}

static void follow_stops_when_the_client_leaves(void **state) {
  char id[HG_ID_MAX], tok[65], t[300];
  create(id, tok);
  target(t, sizeof t, "/v1/sandboxes/%s/commands", id);
  send_req("POST", t, tok, "{\"cmd\": [\"sleep\"]}");
  target(t, sizeof t, "/v1/sandboxes/%s/commands/cmd-1/output?follow=1", id);
  fk_req *r = mkreq("GET", t, tok, NULL);
  r->pending = 2u << 20; /* a client that does not read: back-pressure */
  hg_api_handler(NULL, &r->pub, api);
  /* until it streams and a read is held (the workers run on their own) */
  for (int64_t end = hg_now_ms() + 60000;
       !(r->streamed && api->held == 1) && hg_now_ms() < end; usleep(1000))
    uv_run(&loop, UV_RUN_NOWAIT);
  assert_true(r->streamed);
  assert_false(r->answered);
  assert_int_equal(api->held, 1);
  r->gone = true;
  hg_api_on_abort(&r->pub, api);
  run_until(r, 60000);
  assert_true(r->answered);
  drain();
  assert_int_equal(api->held, 0);
}

static void quiet_follow_stops_within_a_read_when_the_client_leaves(void **state) {
  char id[HG_ID_MAX], tok[65], t[300];
  create(id, tok);
  target(t, sizeof t, "/v1/sandboxes/%s/commands", id);
  send_req("POST", t, tok, "{\"cmd\": [\"sleep\"]}");
  target(t, sizeof t, "/v1/sandboxes/%s/commands/cmd-1/output?follow=1", id);
  fk_req *r = mkreq("GET", t, tok, NULL);
  hg_api_handler(NULL, &r->pub, api);
  for (int64_t end = hg_now_ms() + 60000; !r->streamed && hg_now_ms() < end; usleep(1000))
    uv_run(&loop, UV_RUN_NOWAIT);
  assert_true(r->streamed);
  assert_false(r->answered); /* a read is held on a worker */
  r->gone = true;
  hg_api_on_abort(&r->pub, api);
  /* the command never ends: only the abort can end the follow, after the
   * read in hand (how soon is the held read's length, not asserted) */
  run_until(r, 60000);
  assert_true(r->answered);
  drain();
  assert_int_equal(api->held, 0);
  assert_int_equal(fk.gets, fk.puts);
}

static void stdin_and_signal(void **state) {
  char id[HG_ID_MAX], tok[65], t[300];
  create(id, tok);
  target(t, sizeof t, "/v1/sandboxes/%s/commands", id);
  send_req("POST", t, tok, "{\"cmd\": [\"sleep\"], \"stdin_open\": true}");
  target(t, sizeof t, "/v1/sandboxes/%s/commands/cmd-1/stdin?eof=1", id);
  fk_req *r = send_req("POST", t, tok, "some input");
  assert_int_equal(r->status, 204);
  assert_int_equal(fk.stdin_bytes, 10);
  assert_int_equal(fk.stdin_eof, 1);
  target(t, sizeof t, "/v1/sandboxes/%s/commands/cmd-1/signal", id);
  assert_int_equal(send_req("POST", t, tok, "{\"signal\": 15}")->status, 204);
  assert_int_equal(fk.sig, 15);
  target(t, sizeof t, "/v1/sandboxes/%s/commands/cmd-5/signal", id);
  assert_int_equal(send_req("POST", t, tok, "{\"signal\": 15}")->status, 404);
}

/* ---- files ------------------------------------------------------------------------------ */

/* PATCH /v1/sandboxes/{id} and E2B's POST /sandboxes/{id}/timeout both set
 * the idle suspend; anything else in the body, or out of range, is 400. */
static void idle_suspend_changes_after_create(void **state) {
  char id[HG_ID_MAX], tok[65], t[300];
  create(id, tok);
  target(t, sizeof t, "/v1/sandboxes/%s", id);
  fk_req *r = send_req("PATCH", t, tok, "{\"idle_suspend_s\": 90}");
  assert_int_equal(r->status, 200);
  json_t *j = jbody(r);
  assert_string_equal(jstr(j, "id"), id);
  json_decref(j);
  assert_int_equal(fk_find(id)->idle_suspend_s, 90);
  assert_int_equal(send_req("PATCH", t, tok, "{\"idle_suspend_s\": -1}")->status, 200);
  assert_int_equal(fk_find(id)->idle_suspend_s, -1);
  want_400("PATCH", t, "{\"idle_suspend_s\": -2}", "idle_suspend_s");
  want_400("PATCH", t, "{\"idle_suspend_s\": 5, \"vcpus\": 2}", "idle_suspend_s");
  want_400("PATCH", t, "{}", "idle_suspend_s");
  target(t, sizeof t, "/sandboxes/%s/timeout", id);
  assert_int_equal(send_req("POST", t, tok, "{\"timeout\": 300}")->status, 204);
  assert_int_equal(fk_find(id)->idle_suspend_s, 300);
  /* getInfo().endAt is the idle suspend's time */
  target(t, sizeof t, "/sandboxes/%s", id);
  r = send_req("GET", t, tok, NULL);
  assert_int_equal(r->status, 200);
  j = jbody(r);
  assert_string_equal(jstr(j, "endAt"), "2030-01-02T03:04:05.000Z");
  json_decref(j);
  target(t, sizeof t, "/sandboxes/%s/timeout", id);
  assert_int_equal(send_req("POST", t, tok, "{\"timeout\": 0}")->status, 400);
  assert_int_equal(send_req("POST", t, tok, "{}")->status, 400);
  assert_int_equal(send_req("POST", "/sandboxes/sb-0000000000000000/timeout", admin,
                            "{\"timeout\": 5}")->status, 404);
}

static void files_round_trip(void **state) {
  char id[HG_ID_MAX], tok[65], t[300];
  create(id, tok);
  target(t, sizeof t, "/v1/sandboxes/%s/files?path=/tmp/a%%20b&mode=0600", id);
  assert_int_equal(send_req("PUT", t, tok, "data!")->status, 204);
  assert_string_equal(fk.file_path, "/tmp/a b");
  assert_int_equal(fk.file_mode, 0600);
  target(t, sizeof t, "/v1/sandboxes/%s/files?path=/tmp/a+b", id);
  fk_req *r = send_req("GET", t, tok, NULL);
  assert_int_equal(r->status, 200);
  assert_int_equal(r->out.len, 5);
  target(t, sizeof t, "/v1/sandboxes/%s/files/stat?path=/tmp/a%%20b", id);
  json_t *j = jbody(send_req("GET", t, tok, NULL));
  assert_string_equal(jstr(j, "type"), "file");
  assert_int_equal(json_integer_value(json_object_get(j, "size")), 5);
  assert_int_equal(json_integer_value(json_object_get(j, "mode")), 0600);
  json_decref(j);
  target(t, sizeof t, "/v1/sandboxes/%s/files/list?path=/", id);
  j = jbody(send_req("GET", t, tok, NULL));
  assert_int_equal(json_array_size(json_object_get(j, "entries")), 2);
  assert_string_equal(jstr(json_array_get(json_object_get(j, "entries"), 1), "name"), "tmp");
  json_decref(j);
  target(t, sizeof t, "/v1/sandboxes/%s/files/list?path=/tmp/a%%20b", id);
  assert_int_equal(send_req("GET", t, tok, NULL)->status, 400); /* ENOTDIR: err.c's table */
  target(t, sizeof t, "/v1/sandboxes/%s/files?path=/nope", id);
  assert_int_equal(send_req("GET", t, tok, NULL)->status, 404);
  assert_int_equal(send_req("DELETE", t, tok, NULL)->status, 404);
  target(t, sizeof t, "/v1/sandboxes/%s/files?path=/d&recursive=1", id);
  assert_int_equal(send_req("DELETE", t, tok, NULL)->status, 204);
  assert_true(fk.remove_recursive);
  target(t, sizeof t, "/v1/sandboxes/%s/files/mkdir?path=/d/e", id);
  assert_int_equal(send_req("POST", t, tok, NULL)->status, 204);
  assert_true(fk.mkdir_parents);
  target(t, sizeof t, "/v1/sandboxes/%s/files/mkdir?path=/d/e&parents=0", id);
  assert_int_equal(send_req("POST", t, tok, NULL)->status, 204);
  assert_false(fk.mkdir_parents);
}

/* ---- text helpers -------------------------------------------------------------------------- */

static void utf8_is_cleaned(void **state) {
  static const struct {
    const char *in, *out;
  } cases[] = {
      {"plain", "plain"},
      {"\xc3\xa9t\xc3\xa9", "\xc3\xa9t\xc3\xa9"},
      {"\xf0\x9f\x98\x80", "\xf0\x9f\x98\x80"},
      {"\xc0\xaf", "\xef\xbf\xbd\xef\xbf\xbd"},         /* overlong '/' */
      {"\xed\xa0\x80", "\xef\xbf\xbd\xef\xbf\xbd\xef\xbf\xbd"}, /* surrogate */
      {"\xf4\x90\x80\x80", "\xef\xbf\xbd\xef\xbf\xbd\xef\xbf\xbd\xef\xbf\xbd"}, /* > U+10FFFF */
      {"ab\xe2\x82", "ab\xef\xbf\xbd\xef\xbf\xbd"},        /* cut short */
  };
  for (size_t i = 0; i < HG_ARRAY_SIZE(cases); i++) {
    hg_buf b;
    hg_buf_init(&b, 1024);
    assert_int_equal(
        hg__api_utf8_clean((const unsigned char *)cases[i].in, strlen(cases[i].in), &b),
        0);
    assert_int_equal(b.len, strlen(cases[i].out));
    assert_memory_equal(b.data, cases[i].out, b.len);
    hg_buf_free(&b);
  }
}

static void base64_encodes(void **state) {
  static const char *const in[] = {"", "f", "fo", "foo", "foob", "fooba", "foobar"};
  static const char *const out[] = {"", "Zg==", "Zm8=", "Zm9v", "Zm9vYg==", "Zm9vYmE=", "Zm9vYmFy"};
  for (size_t i = 0; i < HG_ARRAY_SIZE(in); i++) {
    hg_buf b = {.data = (char *)in[i], .len = strlen(in[i])};
    json_t *j = hg__api_base64_json(&b);
    assert_string_equal(json_string_value(j), out[i]);
    json_decref(j);
  }
}

/* ---- metrics, OpenAPI, health -------------------------------------------------------------- */

/* Prometheus text: every sample belongs to the family of the last TYPE
 * line, each family is declared once, and values parse. */
static void check_exposition(const char *text) {
  char family[128] = "", seen[4096] = "";
  char *copy = strdup(text), *save = NULL;
  for (char *l = strtok_r(copy, "\n", &save); l; l = strtok_r(NULL, "\n", &save)) {
    if (!strncmp(l, "# HELP ", 7)) continue;
    if (!strncmp(l, "# TYPE ", 7)) {
      sscanf(l + 7, "%127s", family);
      char key[140];
      snprintf(key, sizeof key, "|%s|", family);
      assert_null(strstr(seen, key));
      strncat(seen, key, sizeof seen - strlen(seen) - 1);
      continue;
    }
    assert_true(family[0]);
    assert_int_equal(strncmp(l, family, strlen(family)), 0);
    char *sp = strrchr(l, ' ');
    assert_non_null(sp);
    char *end;
    strtod(sp + 1, &end);
    assert_int_equal(*end, '\0');
    char *brace = strchr(l, '{');
    if (brace) assert_true(strchr(l, '}') && strchr(l, '}') < sp);
  }
  free(copy);
}

static void metrics_text(void **state) {
  char id[HG_ID_MAX], tok[65];
  create(id, tok);
  send_req("GET", "/healthz", NULL, NULL);
  send_req("GET", "/v1/nothing", NULL, NULL);
  fk_req *r = send_req("GET", "/metrics", NULL, NULL);
  assert_int_equal(r->status, 200);
  assert_non_null(strstr(r->ctype, "text/plain; version=0.0.4"));
  char *text = strndup(r->out.data, r->out.len);
  check_exposition(text);
  assert_non_null(strstr(text, "# TYPE hangar_sandboxes gauge\n"));
  assert_non_null(strstr(text, "hangar_sandboxes{state=\"running\"} 1\n"));
  assert_non_null(strstr(text, "hangar_sandboxes{state=\"failed\"} 0\n"));
  assert_non_null(strstr(text, "# TYPE hangar_operation_duration_seconds histogram\n"));
  assert_non_null(strstr(text, "hangar_operation_duration_seconds_bucket{kind=\"create\",le=\"0.1\"} 2\n"));
  assert_non_null(strstr(text, "hangar_operation_duration_seconds_bucket{kind=\"create\",le=\"1\"} 3\n"));
  assert_non_null(strstr(text, "hangar_operation_duration_seconds_bucket{kind=\"create\",le=\"+Inf\"} 4\n"));
  assert_non_null(strstr(text, "hangar_operation_duration_seconds_count{kind=\"create\"} 4\n"));
  assert_non_null(strstr(text, "hangar_operations_failed_total{kind=\"create\"} 1\n"));
  assert_non_null(strstr(text, "hangar_http_requests_total{route=\"/healthz\",status=\"200\"} 1\n"));
  assert_non_null(strstr(text, "hangar_http_requests_total{route=\"/v1/sandboxes\",status=\"201\"} 1\n"));
  assert_non_null(strstr(text, "hangar_http_requests_total{route=\"unmatched\",status=\"404\"} 1\n"));
  assert_non_null(strstr(text, "hangar_api_held_requests 0\n"));
  free(text);

  hg_buf b;
  hg_buf_init(&b, 1024);
  hg__api_label_put(&b, "a\"b\\c\nd");
  assert_string_equal(b.data, "a\\\"b\\\\c\\nd");
  hg_buf_free(&b);
}

/* GET /v1/orphans and DELETE /v1/orphans/{name*}: admin only; a name is
 * checked before anything reaches the manager. */
static void orphan_routes(void **state) {
  char id[HG_ID_MAX], tok[65];
  create(id, tok);
  snprintf(fk.orphans[0], sizeof fk.orphans[0], "sb-00000000000000a1/7");
  snprintf(fk.orphans[1], sizeof fk.orphans[1], "sb-00000000000000a1/7.1");
  assert_int_equal(send_req("GET", "/v1/orphans", NULL, NULL)->status, 401);
  assert_int_equal(send_req("GET", "/v1/orphans", "not-the-key", NULL)->status, 401);
  assert_int_equal(send_req("GET", "/v1/orphans", tok, NULL)->status, 403);
  assert_int_equal(send_req("DELETE", "/v1/orphans/sb-00000000000000a1/7", tok, NULL)->status,
                   403);
  assert_int_equal(send_req("DELETE", "/v1/orphans/sb-00000000000000a1/7", NULL, NULL)->status,
                   401);
  fk_req *r = send_req("GET", "/v1/orphans", admin, NULL);
  assert_int_equal(r->status, 200);
  json_t *j = jbody(r), *list = json_object_get(j, "orphans");
  assert_int_equal(json_array_size(list), 2);
  assert_string_equal(jstr(json_array_get(list, 1), "name"), "sb-00000000000000a1/7.1");
  assert_string_equal(jstr(json_array_get(list, 0), "node"), "n-test");
  json_decref(j);
  r = send_req("GET", "/metrics", NULL, NULL);
  assert_non_null(strstr(r->out.data, "# TYPE hangar_orphans gauge\nhangar_orphans 2\n"));

  /* Bad names: 400, and the manager never hears of them. */
  static const char *const bad[] = {
      "", "../x", "a/b/c", "x/1abc", "sb-00000000000000a1", "sb-00000000000000a1/",
      "sb-00000000000000a1/0", "sb-00000000000000a1/07", "sb-00000000000000a1/7.",
      "sb-00000000000000a1/7.0", "sb-00000000000000a1/7.1000", "sb-00000000000000a1/+7",
      "sb-00000000000000a1/7/x", "sb-00000000000000a1/../7", "../sb-00000000000000a1/7",
      "sb-00000000000000A1/7", "sb-00000000000000a1/18446744073709551616",
      "sb-00000000000000a1/7.1.1", "sb-00000000000000a1/ 7", "sb-00000000000000a1/7\n"};
  fk.orphan_deleted[0] = '\0';
  for (size_t i = 0; i < HG_ARRAY_SIZE(bad); i++) {
    char t[160];
    snprintf(t, sizeof t, "/v1/orphans/%s", bad[i]);
    r = send_req("DELETE", t, admin, NULL);
    if (r->status != 400) fprintf(stderr, "DELETE %s -> %d\n", t, r->status);
    assert_int_equal(r->status, 400);
    assert_string_equal(err_code(r, &j), "bad_request");
    json_decref(j);
  }
  assert_int_equal(send_req("DELETE", "/v1/orphans", admin, NULL)->status, 400);
  assert_string_equal(fk.orphan_deleted, "");
  assert_int_equal(hg_manager_orphan_count(FK_MANAGER), 2);
  assert_int_equal(send_req("POST", "/v1/orphans/sb-00000000000000a1/7", admin, NULL)->status,
                   405);

  r = send_req("DELETE", "/v1/orphans/sb-00000000000000a1/7.1", admin, NULL);
  assert_int_equal(r->status, 204);
  assert_string_equal(fk.orphan_deleted, "sb-00000000000000a1/7.1");
  r = send_req("DELETE", "/v1/orphans/sb-00000000000000a1/7.1", admin, NULL);
  assert_int_equal(r->status, 404);
  assert_string_equal(err_code(r, &j), "not_found");
  json_decref(j);
  assert_int_equal(hg_manager_orphan_count(FK_MANAGER), 1);

  assert_true(hg_orphan_name_valid("sb-00000000000000a1/18446744073709551615.999"));
  char oid[HG_ORPHAN_NAME_MAX];
  uint64_t epoch;
  assert_int_equal(hg_orphan_name_split("sb-00000000000000a1/42.3", oid, &epoch), 0);
  assert_string_equal(oid, "sb-00000000000000a1");
  assert_int_equal(epoch, 42);
}

static void openapi_covers_every_route(void **state) {
  fk_req *r = send_req("GET", "/v1/openapi.json", NULL, NULL);
  assert_int_equal(r->status, 200);
  json_t *doc = jbody(r);
  assert_int_equal(strncmp(jstr(doc, "openapi"), "3.0", 3), 0);
  json_t *paths = json_object_get(doc, "paths");
  size_t ops = 0, want_ops = 0;
  const char *k;
  json_t *v;
  json_object_foreach(paths, k, v) ops += json_object_size(v);
  /* a "*" route (the port proxy) is documented under each method */
  for (int i = 0; i < HG_NROUTES; i++)
    want_ops +=
        strcmp(hg__api_routes[i].method, "*") ? 1 : HG_ARRAY_SIZE(hg__api_any_methods);
  assert_int_equal(ops, want_ops);
  for (int i = 0; i < HG_NROUTES; i++) {
    const hg_route *rt = &hg__api_routes[i];
    char m[8], key[256];
    size_t n = 0;
    for (; rt->method[n]; n++) m[n] = (char)(rt->method[n] | 0x20);
    m[n] = '\0';
    if (!strcmp(m, "*")) strcpy(m, "put");
    n = 0; /* OpenAPI has no "{path*}" */
    for (const char *p = rt->pattern; *p; p++)
      if (*p != '*') key[n++] = *p;
    key[n] = '\0';
    json_t *op = json_object_get(json_object_get(paths, key), m);
    if (!op) fprintf(stderr, "missing %s %s\n", rt->method, rt->pattern);
    assert_non_null(op);
    assert_non_null(json_object_get(json_object_get(op, "responses"), "default"));
    /* every {param} of the pattern and every query parameter is described */
    size_t want = 0;
    for (const char *p = rt->pattern; (p = strchr(p, '{')); p++) want++;
    for (const char *q = rt->query; *q; q++) want += q == rt->query || q[-1] == ',';
    assert_int_equal(json_array_size(json_object_get(op, "parameters")), want);
    assert_int_equal(json_array_size(json_object_get(op, "security")) == 0 &&
                         json_object_get(op, "security"),
                     rt->scope == SCOPE_PUBLIC);
  }
  json_decref(doc);
}

static void healthz_says_node(void **state) {
  fk_req *r = send_req("GET", "/healthz", NULL, NULL);
  json_t *j = jbody(r);
  assert_string_equal(jstr(j, "status"), "ok");
  assert_string_equal(jstr(j, "node"), "n-test");
  json_decref(j);
}

/* ---- shutdown ---------------------------------------------------------------------------- */

static void stop_answers_waiters_and_refuses_new_requests(void **state) {
  char id[HG_ID_MAX], tok[65], t[256];
  create(id, tok);
  fk.pause_ms = 1000;
  target(t, sizeof t, "/v1/sandboxes/%s/pause?wait=30", id);
  fk_req *r = mkreq("POST", t, tok, NULL);
  hg_api_handler(NULL, &r->pub, api);
  int64_t end = hg_now_ms() + 200;
  while (hg_now_ms() < end) uv_run(&loop, UV_RUN_NOWAIT), usleep(1000);
  assert_false(r->answered);
  hg_api_stop(api);
  assert_true(r->answered);
  assert_int_equal(r->status, 202);
  fk_req *late = send_req("GET", "/healthz", NULL, NULL);
  assert_int_equal(late->status, 503);
  drain(); /* the pause itself still finishes */
}

static void bad_config_is_refused(void **state) {
  hg_api *a = NULL;
  hg_api_work w = test_work(FK_MANAGER);
  hg_api_config cfg = {.manager = FK_MANAGER, .ops = FK_OPS, .work = &w, .admin_key = ""};
  assert_int_equal(hg_api_new(&loop, &cfg, &a), -EINVAL);
  cfg.admin_key = NULL;
  assert_int_equal(hg_api_new(&loop, &cfg, &a), -EINVAL);
  cfg.admin_key = admin;
  cfg.ops = NULL;
  assert_int_equal(hg_api_new(&loop, &cfg, &a), -EINVAL);
  cfg.ops = FK_OPS;
  cfg.work = NULL; /* lifecycle work is the node's: required */
  assert_int_equal(hg_api_new(&loop, &cfg, &a), -EINVAL);
  w.suspend = NULL;
  cfg.work = &w;
  assert_int_equal(hg_api_new(&loop, &cfg, &a), -EINVAL);
  assert_null(a);
}


/* ---- the cluster ------------------------------------------------------------------------ */

static void cluster_routes_on_a_node_alone(void **state) {
  char id[HG_ID_MAX], tok[65];
  create(id, tok);
  fk_req *r = send_req("GET", "/v1/cluster/members", admin, NULL);
  assert_int_equal(r->status, 200);
  json_t *j = jbody(r);
  json_t *m = json_object_get(j, "members");
  assert_int_equal(json_array_size(m), 1);
  assert_string_equal(jstr(json_array_get(m, 0), "id"), "n-test");
  assert_string_equal(jstr(json_array_get(m, 0), "state"), "alive");
  json_decref(j);
  r = send_req("GET", "/v1/cluster/sandboxes", admin, NULL);
  assert_int_equal(r->status, 200);
  j = jbody(r);
  json_t *e = json_array_get(json_object_get(j, "sandboxes"), 0);
  assert_int_equal(json_array_size(json_object_get(j, "sandboxes")), 1);
  assert_string_equal(jstr(e, "sandbox"), id);
  assert_string_equal(jstr(e, "owner"), "n-test");
  json_decref(j);
  r = send_req("DELETE", "/v1/cluster/members/n-0123abcd", admin, NULL);
  assert_int_equal(r->status, 404);
  /* admin only, and node ids are validated like other ids (404) */
  assert_int_equal(send_req("GET", "/v1/cluster/members", tok, NULL)->status, 403);
  assert_int_equal(send_req("GET", "/v1/cluster/sandboxes", NULL, NULL)->status, 401);
  hg_match mt;
  assert_int_equal(hg__api_route_find("DELETE", "/v1/cluster/members/n-0123abcd", &mt),
                   0);
  assert_string_equal(mt.p.node, "n-0123abcd");
  assert_int_equal(hg__api_route_find("DELETE", "/v1/cluster/members/node-7", &mt), 0);
  static const char *const bad_nodes[] = {
      "/v1/cluster/members/N-1",
      "/v1/cluster/members/n_1",
      "/v1/cluster/members/n.1",
      "/v1/cluster/members/n%201",
  };
  for (size_t i = 0; i < HG_ARRAY_SIZE(bad_nodes); i++)
    assert_int_equal(hg__api_route_find("DELETE", bad_nodes[i], &mt), -ENOENT);
  char longest[128] = "/v1/cluster/members/";
  memset(longest + strlen(longest), 'a', 63); /* 63 bytes: the most */
  assert_int_equal(hg__api_route_find("DELETE", longest, &mt), 0);
  strcat(longest, "a");
  assert_int_equal(hg__api_route_find("DELETE", longest, &mt), -ENOENT);
}

/* A fake cluster: REMOTE is on n-b; placement, members, directory and
 * decommission answer what the test sets. */
#define REMOTE "sb-00000000000000bb"
static struct {
  int place_rc, decommission_rc;
  char place_reason[256], decommissioned[64];
  const char *directory;
} fc;

static int fc_locate(void *ud, const char *sb, char owner[64], char addr[64]) {
  if (strcmp(sb, REMOTE)) return 0;
  strcpy(owner, "n-b");
  strcpy(addr, "10.88.0.2:7070");
  return 1;
}

static int fc_place(void *ud, const char *tmpl, unsigned vcpus, unsigned mem, const char *zone,
                    const char *label, char owner[64], char addr[64], char reason[256]) {
  snprintf(reason, 256, "%s", fc.place_reason);
  return fc.place_rc;
}

static json_t *fc_members(void *ud) {
  return json_pack("[{s:s,s:s},{s:s,s:s}]", "id", "n-test", "state", "alive", "id", "n-b", "state",
                   "suspect");
}

static json_t *fc_directory(void *ud) { return json_loads(fc.directory, 0, NULL); }

static int fc_decommission(void *ud, const char *node) {
  snprintf(fc.decommissioned, sizeof fc.decommissioned, "%s", node);
  return fc.decommission_rc;
}

static void fc_metrics(void *ud, hg_buf *out) {
  hg_buf_printf(out, "# HELP hangar_cluster_members Members by state.\n"
                     "# TYPE hangar_cluster_members gauge\nhangar_cluster_members{state=\"alive\"} 2\n");
}

static const hg_api_peers fc_peers = {.locate = fc_locate, .place = fc_place,
                                      .members = fc_members, .directory = fc_directory,
                                      .decommission = fc_decommission, .metrics = fc_metrics};

#define CLUSTER_KEY "00112233445566778899aabbccddeeff00112233445566778899aabbccddeeff"
static hg_fwdsign *peer_signer; /* node n-c's, as it would sign a forward */

static int setup_peers(void **state) {
  memset(&fc, 0, sizeof fc);
  hg_fwdsign_free(peer_signer);
  if (hg_fwdsign_new(CLUSTER_KEY, "test", 0, 0, &peer_signer) < 0) return -1;
  fc.place_rc = 1;
  fc.directory = "[]";
  int rc = setup(state);
  if (rc < 0) return rc;
  hg_api_free(api);
  drain();
  hg_api_work w = test_work(FK_MANAGER);
  hg_api_config cfg = {.manager = FK_MANAGER, .ops = FK_OPS, .work = &w, .admin_key = admin,
                       .node_id = "n-test", .version = "t", .peers = &fc_peers,
                       .cluster_keys = CLUSTER_KEY, .cluster_name = "test"};
  return hg_api_new(&loop, &cfg, &api);
}

/* As node n-c forwards it (api/forward.c): no Authorization, the identity
 * it decided, signed; through the head hook as the server would. */
static fk_req *mk_forwarded(const char *method, const char *target, const char *auth,
                            const char *body) {
  fk_req *r = mkreq(method, target, NULL, body);
  if (auth && !strcmp(auth, admin)) snprintf(r->ident, sizeof r->ident, "admin");
  else if (auth) snprintf(r->ident, sizeof r->ident, "bearer %s", auth);
  assert_int_equal(hg_fwdsign_sign(peer_signer, method, target, "n-c", r->ident, r->pub.body,
                                   r->pub.body_len, hg_wall_ns() / 1000000, &r->sh),
                   0);
  hg_http_header *h = r->pub.headers;
  int n = 0;
  h[n++] = (hg_http_header){"x-hangar-forwarded", "n-c"};
  if (r->ident[0]) h[n++] = (hg_http_header){"x-hangar-identity", r->ident};
  h[n++] = (hg_http_header){"x-hangar-body-sha256", r->sh.digest};
  h[n++] = (hg_http_header){"x-hangar-signature", r->sh.sig};
  r->pub.nheaders = n;
  return r;
}

static fk_req *send_head(fk_req *r) {
  if (hg_api_on_head(&r->pub, api) > 0) hg_api_handler(NULL, &r->pub, api);
  run_until(r, 5000);
  assert_true(r->answered);
  return r;
}

static fk_req *send_forwarded(const char *method, const char *target, const char *auth) {
  return send_head(mk_forwarded(method, target, auth, NULL));
}

/* Forwarding headers are believed only under a valid signature: unsigned,
 * tampered, replayed, or a body other than the one signed: 401 before
 * anything runs, and never the owner's address. */
static void forwarded_request_needs_a_valid_signature(void **state) {
  const char *t = "/v1/sandboxes/" REMOTE;
  /* a client claiming to be a peer, with the admin identity */
  fk_req *r = mkreq("GET", t, NULL, NULL);
  r->pub.headers[0] = (hg_http_header){"x-hangar-forwarded", "n-c"};
  r->pub.headers[1] = (hg_http_header){"x-hangar-identity", "admin"};
  r->pub.nheaders = 2;
  send_head(r);
  assert_int_equal(r->status, 401);
  json_t *j;
  assert_string_equal(err_code(r, &j), "peer_signature_invalid");
  json_decref(j);
  assert_null(strstr(r->out.data, "10.88.0.2"));
  assert_null(strstr(r->hdrs, "10.88.0.2"));
  /* the identity header alone, and the handler without the head hook */
  r = mkreq("GET", t, admin, NULL);
  r->pub.headers[r->pub.nheaders++] = (hg_http_header){"x-hangar-identity", "admin"};
  assert_int_equal(send_head(r)->status, 401);
  r = mk_forwarded("GET", t, admin, NULL);
  hg_api_handler(NULL, &r->pub, api);
  assert_int_equal(r->status, 401);
  /* tampered identity: a token raised to admin */
  r = mk_forwarded("GET", t, "sometoken", NULL);
  snprintf(r->ident, sizeof r->ident, "admin");
  assert_int_equal(send_head(r)->status, 401);
  /* replayed: the same signed request twice */
  r = mk_forwarded("GET", t, admin, NULL);
  assert_int_equal(send_head(r)->status, 421);
  fk_req *again = mkreq("GET", t, NULL, NULL);
  memcpy(again->pub.headers, r->pub.headers, sizeof r->pub.headers);
  again->pub.nheaders = r->pub.nheaders;
  assert_int_equal(send_head(again)->status, 401);
  assert_non_null(strstr(again->out.data, "replay"));
  /* the body: signed over one, another sent */
  char id[HG_ID_MAX], tok[65], fp[256];
  create(id, tok);
  target(fp, sizeof fp, "/v1/sandboxes/%s/files?path=/x", id);
  r = mk_forwarded("PUT", fp, admin, "signed body");
  r->pub.body = "other body!";
  assert_int_equal(send_head(r)->status, 401);
  assert_non_null(strstr(r->out.data, "body"));
  assert_int_equal(fk.file.len, 0); /* nothing reached the guest */
  /* the same, untouched: written */
  r = mk_forwarded("PUT", fp, admin, "signed body");
  assert_int_equal(send_head(r)->status, 204);
  hg_fwdsign_stats st;
  hg_fwdsign_get_stats(api->fwdsign, &st);
  assert_int_equal(st.replayed, 1);
  assert_int_equal(st.bad_body, 1);
}

static void forwarded_request_elsewhere_is_421_with_owner(void **state) {
  fk_req *r = send_forwarded("GET", "/v1/sandboxes/" REMOTE "/files?path=/x", admin);
  assert_int_equal(r->status, 421);
  assert_string_equal(r->hdrs, "X-Hangar-Owner: n-b 10.88.0.2:7070\r\n");
  json_t *j;
  assert_string_equal(err_code(r, &j), "misdirected");
  assert_non_null(strstr(err_msg(j), "n-b (10.88.0.2:7070)"));
  json_decref(j);
  /* before auth: the owner judges credentials */
  assert_int_equal(send_forwarded("GET", "/v1/sandboxes/" REMOTE, NULL)->status, 421);
  /* what this node has is served, forwarded or not; unknown ones are 404 */
  char id[HG_ID_MAX], tok[65], t[128];
  create(id, tok);
  target(t, sizeof t, "/v1/sandboxes/%s", id);
  r = send_forwarded("GET", t, tok);
  assert_int_equal(r->status, 200);
  j = jbody(r);
  assert_string_equal(jstr(j, "node"), "n-test");
  json_decref(j);
  assert_int_equal(send_forwarded("GET", "/v1/sandboxes/sb-00000000000000ee", admin)->status, 404);
  assert_int_equal(api->misdirected, 2);
}

static void create_without_room_anywhere_is_507(void **state) {
  fc.place_rc = -ENOSPC;
  snprintf(fc.place_reason, sizeof fc.place_reason, "no alive node has 512 MiB free");
  fk_req *r = send_req("POST", "/v1/sandboxes", admin, "{}");
  assert_int_equal(r->status, 507);
  json_t *j;
  assert_string_equal(err_code(r, &j), "insufficient_capacity");
  assert_string_equal(err_msg(j), "no alive node has 512 MiB free");
  json_decref(j);
  /* the local node full after placement chose it, and placement says "here"
   * again: 507 rather than a loop */
  fc.place_rc = 1;
  for (int i = 0; i < 16; i++) fk_add(HG_SB_RUNNING);
  r = send_req("POST", "/v1/sandboxes", admin, "{}");
  assert_int_equal(r->status, 507);
  /* forwarded: placement is not asked */
  fc.place_rc = -ENOSPC;
  memset(&fk.sbs, 0, sizeof fk.sbs);
  fk_req *q = send_head(mk_forwarded("POST", "/v1/sandboxes", admin, "{}"));
  assert_int_equal(q->status, 202);
}

static void list_adds_sandboxes_of_other_nodes(void **state) {
  char id[HG_ID_MAX], tok[65];
  create(id, tok);
  char dir[1024];
  snprintf(dir, sizeof dir,
           "{\"sandboxes\":["
           "{\"sandbox\":\"sb-0000000000000001\",\"owner\":\"n-b\",\"state\":\"running\",\"epoch\":2,"
           "\"metadata\":{\"team\":\"x\"}},"
           "{\"sandbox\":\"sb-0000000000000002\",\"owner\":\"n-b\",\"state\":\"suspended\"},"
           "{\"sandbox\":\"sb-0000000000000003\",\"owner\":\"n-b\",\"state\":\"deleted\"},"
           "{\"sandbox\":\"%s\",\"owner\":\"n-b\",\"state\":\"running\"},"
           "{\"sandbox\":\"sb-0000000000000004\",\"owner\":\"n-test\",\"state\":\"running\"},"
           "{\"sandbox\":\"not-an-id\",\"owner\":\"n-b\",\"state\":\"running\"}]}",
           id);
  fc.directory = dir;
  fk_req *r = send_req("GET", "/v1/sandboxes", admin, NULL);
  assert_int_equal(r->status, 200);
  json_t *j = jbody(r), *arr = json_object_get(j, "sandboxes");
  assert_int_equal(json_array_size(arr), 3);
  assert_string_equal(jstr(json_array_get(arr, 0), "id"), id);
  assert_string_equal(jstr(json_array_get(arr, 0), "node"), "n-test");
  assert_string_equal(jstr(json_array_get(arr, 1), "id"), "sb-0000000000000001");
  assert_string_equal(jstr(json_array_get(arr, 1), "node"), "n-b");
  assert_int_equal(json_integer_value(json_object_get(json_array_get(arr, 1), "epoch")), 2);
  assert_string_equal(jstr(json_array_get(arr, 2), "id"), "sb-0000000000000002");
  json_decref(j);
  r = send_req("GET", "/v1/sandboxes?state=suspended", admin, NULL);
  j = jbody(r);
  arr = json_object_get(j, "sandboxes");
  assert_int_equal(json_array_size(arr), 1);
  assert_string_equal(jstr(json_array_get(arr, 0), "id"), "sb-0000000000000002");
  json_decref(j);
  r = send_req("GET", "/v1/sandboxes?label=team=x", admin, NULL);
  j = jbody(r);
  arr = json_object_get(j, "sandboxes");
  assert_int_equal(json_array_size(arr), 2); /* the fake local list ignores labels */
  assert_string_equal(jstr(json_array_get(arr, 1), "id"), "sb-0000000000000001");
  json_decref(j);
  /* a peer asking gets only what is here */
  r = send_forwarded("GET", "/v1/sandboxes", admin);
  j = jbody(r);
  assert_int_equal(json_array_size(json_object_get(j, "sandboxes")), 1);
  json_decref(j);
  /* the directory itself */
  r = send_req("GET", "/v1/cluster/sandboxes", admin, NULL);
  j = jbody(r);
  assert_int_equal(json_array_size(json_object_get(j, "sandboxes")), 6);
  json_decref(j);
}

static void cluster_routes_ask_the_cluster(void **state) {
  fk_req *r = send_req("GET", "/v1/cluster/members", admin, NULL);
  assert_int_equal(r->status, 200);
  json_t *j = jbody(r);
  assert_int_equal(json_array_size(json_object_get(j, "members")), 2);
  assert_string_equal(jstr(json_array_get(json_object_get(j, "members"), 1), "state"), "suspect");
  json_decref(j);
  r = send_req("DELETE", "/v1/cluster/members/n-b", admin, NULL);
  assert_int_equal(r->status, 204);
  assert_string_equal(fc.decommissioned, "n-b");
  fc.decommission_rc = -EBUSY;
  r = send_req("DELETE", "/v1/cluster/members/n-b", admin, NULL);
  assert_int_equal(r->status, 409);
  fc.decommission_rc = -ENOENT;
  assert_int_equal(send_req("DELETE", "/v1/cluster/members/n-zz", admin, NULL)->status, 404);
  /* an operation nobody else can have (no alive peer with an address): 404 here */
  r = send_req("GET", "/v1/operations/op-00000000000000aa", admin, NULL);
  assert_int_equal(r->status, 404);
}

static void metrics_add_forwarding_and_the_cluster(void **state) {
  send_forwarded("GET", "/v1/sandboxes/" REMOTE, admin);
  fk_req *r = send_req("GET", "/metrics", NULL, NULL);
  char *text = strndup(r->out.data, r->out.len);
  check_exposition(text);
  assert_non_null(strstr(text, "hangar_api_forwarded_total{outcome=\"ok\"} 0\n"));
  assert_non_null(strstr(text, "hangar_api_forwarded_total{outcome=\"unreachable\"} 0\n"));
  assert_non_null(strstr(text, "hangar_api_misdirected_total 1\n"));
  assert_non_null(strstr(text, "hangar_api_forwards_active 0\n"));
  assert_non_null(strstr(text, "hangar_cluster_members{state=\"alive\"} 2\n"));
  assert_non_null(strstr(text, "hangar_http_requests_total{route=\"/v1/sandboxes/{id}\",status=\"421\"} 1\n"));
  free(text);
}

static void bad_peers_are_refused(void **state) {
  hg_api *a = NULL;
  hg_api_peers p = fc_peers;
  p.place = NULL;
  hg_api_work w = test_work(FK_MANAGER);
  hg_api_config cfg = {.manager = FK_MANAGER, .ops = FK_OPS, .work = &w, .admin_key = admin,
                       .node_id = "n-x", .peers = &p, .cluster_keys = CLUSTER_KEY,
                       .cluster_name = "test"};
  assert_int_equal(hg_api_new(&loop, &cfg, &a), -EINVAL);
  cfg.peers = &fc_peers;
  cfg.cluster_keys = NULL; /* forwards are signed: no key, no peers */
  assert_int_equal(hg_api_new(&loop, &cfg, &a), -EINVAL);
  cfg.cluster_keys = "not a key";
  assert_int_equal(hg_api_new(&loop, &cfg, &a), -EINVAL);
  cfg.cluster_keys = CLUSTER_KEY;
  cfg.node_id = "Not A Node";
  assert_int_equal(hg_api_new(&loop, &cfg, &a), -EINVAL);
  cfg.node_id = NULL;
  assert_int_equal(hg_api_new(&loop, &cfg, &a), -EINVAL);
  assert_null(a);
  assert_true(hg_addr_valid("10.88.0.2:7070"));
  assert_true(hg_addr_valid("[::1]:1"));
  assert_true(hg_addr_valid("node-3.example:65535"));
  assert_false(hg_addr_valid("10.88.0.2"));
  assert_false(hg_addr_valid("10.88.0.2:0"));
  assert_false(hg_addr_valid("10.88.0.2:65536"));
  assert_false(hg_addr_valid("a b:80"));
  assert_false(hg_addr_valid("evil/x:80"));
  assert_false(hg_addr_valid("u@h:80"));
  assert_false(hg_addr_valid("[::1:80"));
}

#define T(name) cmocka_unit_test_setup_teardown(name, setup, teardown)
#define TP(name) cmocka_unit_test_setup_teardown(name, setup_peers, teardown)

int main(void) {
  setenv("UV_THREADPOOL_SIZE", "16", 1);
  hg_log_set_level(HG_LOG_ERROR);
  const struct CMUnitTest tests[] = {
      T(routes_match_every_row),
      T(routes_reject_bad_paths_and_ids),
      T(routes_wrong_method_is_405_with_allow),
      T(unknown_route_is_404_json),
      T(body_limits_per_route),
      T(errno_table_matches_the_doc),
      T(runtime_errors_map_through_the_table),
      T(auth_decisions),
      T(tokens_ring_forgets_the_oldest),
      T(auth_over_http),
      T(e2b_credential_headers_only_on_e2b_routes),
      T(create_validation_names_the_field),
      T(network_routes_without_a_gateway),
      T(command_and_file_validation),
      T(lifecycle_answers_and_waits),
      T(operations_queue_beyond_max_ops),
      T(exec_wait_returns_output),
      T(exec_output_lost_to_a_fence_is_an_error),
      T(held_calls_are_capped),
      T(output_tokens_and_offsets),
      T(follow_streams_until_eof_and_resumes_at_offset),
      T(combined_stream_is_ndjson_with_exit),
      T(follow_stops_when_the_client_leaves),
      T(quiet_follow_stops_within_a_read_when_the_client_leaves),
      T(stdin_and_signal),
      T(idle_suspend_changes_after_create),
      T(files_round_trip),
      T(utf8_is_cleaned),
      T(base64_encodes),
      T(metrics_text),
      T(orphan_routes),
      T(openapi_covers_every_route),
      T(healthz_says_node),
      T(stop_answers_waiters_and_refuses_new_requests),
      T(bad_config_is_refused),
      T(cluster_routes_on_a_node_alone),
      TP(forwarded_request_elsewhere_is_421_with_owner),
      TP(forwarded_request_needs_a_valid_signature),
      TP(create_without_room_anywhere_is_507),
      TP(list_adds_sandboxes_of_other_nodes),
      TP(cluster_routes_ask_the_cluster),
      TP(metrics_add_forwarding_and_the_cluster),
      T(bad_peers_are_refused),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
