/* Commands in a sandbox: start (with ?wait), status, output (raw or
 * combined, followed), stdin, signals. */
#include "api/api_internal.h"

/* ---- commands -------------------------------------------------------------------- */

/* Runs fn with the sandbox's agent borrowed (the sandbox stays busy
 * meanwhile: no pause, suspend or delete). */
int hg__api_with_agent(hg_call *c, int (*fn)(hg_call *c, hg_agent *a)) {
  hg_agent *a = NULL;
  int rc = hg_sandbox_agent_get(c->api->m, c->p.id, &a);
  if (rc < 0) return rc;
  rc = fn(c, a);
  hg_sandbox_agent_put(c->api->m, c->p.id);
  return rc;
}

/* Appends s[0..n) to out as UTF-8, every byte that does not start a valid
 * sequence (RFC 3629: no overlongs, surrogates or code points past
 * U+10FFFF) replaced by U+FFFD. */
int hg__api_utf8_clean(const unsigned char *s, size_t n, hg_buf *out) {
  size_t i = 0;
  while (i < n) {
    unsigned char b = s[i];
    size_t len = b < 0x80 ? 1 : (b & 0xe0) == 0xc0 ? 2 : (b & 0xf0) == 0xe0 ? 3 : (b & 0xf8) == 0xf0 ? 4 : 0;
    bool ok = len > 0 && i + len <= n;
    for (size_t k = 1; ok && k < len; k++) ok = (s[i + k] & 0xc0) == 0x80;
    if (ok && len == 2) ok = b >= 0xc2;
    if (ok && len == 3) {
      unsigned cp = ((b & 0x0fu) << 12) | ((s[i + 1] & 0x3fu) << 6) | (s[i + 2] & 0x3fu);
      ok = cp >= 0x800 && (cp < 0xd800 || cp > 0xdfff);
    }
    if (ok && len == 4) {
      unsigned cp = ((b & 0x07u) << 18) | ((s[i + 1] & 0x3fu) << 12) | ((s[i + 2] & 0x3fu) << 6) |
                    (s[i + 3] & 0x3fu);
      ok = cp >= 0x10000 && cp <= 0x10ffff;
    }
    int rc = ok ? hg_buf_append(out, s + i, len) : hg_buf_append(out, "\xef\xbf\xbd", 3);
    if (rc < 0) return rc;
    i += ok ? len : 1;
  }
  return 0;
}

static json_t *text_json(const hg_buf *b) {
  hg_buf clean;
  hg_buf_init(&clean, 3 * b->len + 16);
  json_t *j = NULL;
  if (hg__api_utf8_clean((const unsigned char *)b->data, b->len, &clean) == 0)
    j = json_stringn(clean.data ? clean.data : "", clean.len);
  hg_buf_free(&clean);
  return j;
}

static int cmd_id(char out[32], uint64_t cid) {
  return hg_path(out, 32, "cmd-%" PRIu64, cid);
}

/* Reads a stream from its start into out (at most out->max bytes); sets
 * *trunc when bytes were lost to the ring before, or remain after. */
static int read_capped(hg_agent *a, uint64_t cid, int stream, hg_buf *out, bool *trunc) {
  uint64_t off = 0;
  hg_read_res res = {0};
  for (;;) {
    size_t room = out->max - out->len, before = out->len;
    if (room == 0) break;
    uint32_t max = room < HG_AGENT_MAX_DATA ? (uint32_t)room : HG_AGENT_MAX_DATA;
    int rc = hg_agent_read(a, cid, stream, off, max, 0, out, &res);
    if (rc < 0) return rc;
    if (res.offset != off) { /* bytes dropped before what we got */
      if (before) { /* a hole in the middle: keep what is contiguous */
        out->len = before;
        *trunc = true;
        return 0;
      }
      *trunc = true;
    }
    off = res.offset + (out->len - before);
    if (res.eof || out->len == before) break;
  }
  if (res.total > off) *trunc = true;
  return 0;
}

static int op_wait(hg_call *c, hg_agent *a) {
  return hg_agent_wait(a, c->p.cid, c->u.ex.slice_ms, &c->u.ex.st);
}

static int op_collect(hg_call *c, hg_agent *a) {
  hg_exec *x = &c->u.ex;
  int rc = read_capped(a, c->p.cid, HG_STREAM_STDOUT, &x->out[1], &x->trunc);
  if (rc == 0) rc = read_capped(a, c->p.cid, HG_STREAM_STDERR, &x->out[2], &x->trunc);
  return rc;
}

/* ?wait: waits in slices, giving the agent back in between, so that a long
 * wait does not keep the sandbox from being suspended, and a client that
 * left frees its worker within a slice. */
static void exec_wait(hg_call *c) {
  hg_exec *x = &c->u.ex;
  int64_t deadline = hg_now_ms() + x->wait_ms;
  for (;;) {
    int64_t left = deadline - hg_now_ms();
    if (left < 0 || atomic_load(&c->aborted)) left = 0;
    x->slice_ms = left > HG_API_EXEC_SLICE_MS ? HG_API_EXEC_SLICE_MS : (uint32_t)left;
    int rc = hg__api_with_agent(c, op_wait);
    /* A guest slow to answer (its vCPU starved) has not ended the wait: ask
     * again while it lasts. Other errors (suspended, gone) end it. */
    if ((rc < 0 && rc != -ETIMEDOUT) || x->st.exited || left == 0) break;
  }
  int rc = hg__api_with_agent(c, op_collect);
  if (rc < 0) {
    /* The sandbox stopped running here (fenced, moved, suspended) after the
     * command started: an empty stdout would be a lie the caller takes for
     * the command's output. It may have run: a 5xx, never a 4xx. */
    hg_log_warn("api.exec", "sandbox=%s cid=%" PRIu64 " exited=%d msg=\"output not collected\"",
                c->p.id, c->p.cid, x->st.exited);
    if (x->st.exited)
      snprintf(c->msg, sizeof c->msg, "the command ran (%s %d), but its output could not be "
               "read: %s", x->st.signal ? "killed by signal" : "exit code",
               x->st.signal ? x->st.signal : x->st.code, hg__api_err_text(rc));
    else
      snprintf(c->msg, sizeof c->msg, "the command started, but its status and output could not "
               "be read: %s", hg__api_err_text(rc));
    c->rc = HG_API_EOUTPUT_LOST;
    return;
  }
  /* built here, not on the loop: cleaning 2 MiB of text takes a while */
  c->out = json_pack("{s:o,s:o,s:b}", "stdout", text_json(&x->out[1]), "stderr",
                     text_json(&x->out[2]), "truncated", x->trunc);
}

static void w_exec(hg_call *c) {
  hg_exec *x = &c->u.ex;
  if ((c->rc = hg__api_token_new(x->out_token)) < 0) return;
  /* the manager puts the sandbox's env (from create) under the request's */
  c->rc = hg_sandbox_exec(c->api->m, c->p.id, &x->req, &c->p.cid, &x->pid);
  if (c->rc < 0 || x->wait_ms == 0) return;
  exec_wait(c);
}

static void status_json(json_t *o, const hg_cmd_status *st) {
  json_object_set_new(o, "exited", json_boolean(st->exited));
  json_object_set_new(o, "exit_code",
                      st->exited && !st->signal ? json_integer(st->code) : json_null());
  json_object_set_new(o, "signal", json_integer(st->signal));
  json_object_set_new(o, "timed_out", json_boolean(st->timed_out));
}

static void a_exec(hg_call *c) {
  hg_exec *x = &c->u.ex;
  char id[32];
  if (c->rc == HG_API_EOUTPUT_LOST) {
    hg__api_call_error(c, c->rc, "%s", c->msg);
    return;
  }
  if (c->rc < 0) {
    hg__api_call_fail(c, c->rc, c->p.id);
    return;
  }
  cmd_id(id, c->p.cid);
  hg__api_tok_put(c->api, TOK_OUTPUT, x->out_token, c->p.id, c->p.cid, x->pid);
  json_t *o =
      json_pack("{s:s,s:i,s:s}", "id", id, "pid", x->pid, "output_token", x->out_token);
  if (o && x->wait_ms) {
    status_json(o, &x->st);
    json_object_update(o, c->out);
  }
  hg__api_call_json(c, 201, o, NULL);
}

static void exec_cleanup(hg_call *c) {
  hg_exec *x = &c->u.ex;
  free(x->envd_config);
  hg_buf_free(&x->in_buf);
  free(x->argv);
  if (x->env)
    for (char **e = x->env; *e; e++) free(*e);
  free(x->env);
  hg_buf_free(&x->out[1]);
  hg_buf_free(&x->out[2]);
}

void hg__api_h_exec(hg_call *c) {
  hg_exec *x = &c->u.ex;
  c->cleanup = exec_cleanup;
  hg_buf_init(&x->out[1], HG_API_MAX_OUTPUT);
  hg_buf_init(&x->out[2], HG_API_MAX_OUTPUT);
  int rc = hg__api_exec_parse(c->body, x, c->msg);
  if (rc == 0) rc = hg__api_q_wait(c);
  if (rc < 0) {
    hg__api_call_error(c, rc, "%s", c->msg);
    return;
  }
  x->wait_ms = (uint32_t)c->wait_s * 1000;
  if (x->wait_ms && !hg__api_call_hold(c)) return;
  hg__api_call_queue(c, w_exec, a_exec);
}

/* GET …/commands/{cid}: status now (a wait of 0), and the byte counts of
 * both streams (the total of a 1-byte read: a max of 0 means "the most" to
 * hg_agent_read, which overflowed out and dropped the count). */
static int op_cmd_get(hg_call *c, hg_agent *a) {
  hg_exec *x = &c->u.ex;
  int rc = hg_agent_wait(a, c->p.cid, 0, &x->st);
  if (rc < 0) return rc;
  c->out = json_object();
  static const char *const names[3] = {NULL, "stdout_bytes", "stderr_bytes"};
  for (int s = HG_STREAM_STDOUT; s <= HG_STREAM_STDERR; s++) {
    hg_read_res res = {0};
    if (hg_agent_read(a, c->p.cid, s, 0, 1, 0, &x->out[s], &res) == 0)
      json_object_set_new(c->out, names[s], json_integer((json_int_t)res.total));
  }
  return 0;
}

static void w_cmd_get(hg_call *c) {
  c->rc = hg__api_with_agent(c, op_cmd_get);
}

static void a_cmd_get(hg_call *c) {
  char id[32];
  if (c->rc < 0) {
    hg__api_call_fail(c, c->rc, c->p.id);
    return;
  }
  cmd_id(id, c->p.cid);
  int pid = hg__api_tok_pid(c->api, c->p.id, c->p.cid);
  json_t *o =
      json_pack("{s:s,s:o}", "id", id, "pid", pid > 0 ? json_integer(pid) : json_null());
  status_json(o, &c->u.ex.st);
  json_object_update(o, c->out);
  hg__api_call_json(c, 200, o, NULL);
}

void hg__api_h_cmd_get(hg_call *c) {
  c->cleanup = exec_cleanup;
  hg_buf_init(&c->u.ex.out[1], 16);
  hg_buf_init(&c->u.ex.out[2], 16);
  hg__api_call_queue(c, w_cmd_get, a_cmd_get);
}

static void a_no_content(hg_call *c) {
  if (c->rc < 0) {
    hg__api_call_fail(c, c->rc, c->p.id);
    return;
  }
  hg__api_call_respond(c, 204, NULL, NULL, NULL, 0);
}

/* The bytes go in frames of half HG_AGENT_MAX_DATA; they are the
 * request's body (kept by the server until we answer) or the call's. */
static int op_stdin(hg_call *c, hg_agent *a) {
  const char *p = c->u.ex.in;
  size_t n = c->u.ex.in_len;
  int rc;
  do {
    size_t k = n > HG_AGENT_MAX_DATA / 2 ? HG_AGENT_MAX_DATA / 2 : n;
    rc = hg_agent_stdin(a, c->p.cid, p, k, c->u.ex.eof && k == n);
    p += k;
    n -= k;
  } while (rc == 0 && n > 0);
  return rc;
}

static void w_stdin(hg_call *c) {
  c->rc = hg__api_with_agent(c, op_stdin);
}

void hg__api_stdin_send(hg_call *c, hg_call_fn after) {
  hg__api_call_queue(c, w_stdin, after);
}

/* E2B's envd forgets a process once it exits: stdin for one that has
 * exited is -ESRCH, whatever became of its pipe. A command that is dying
 * (its pipe broken, not reaped yet) is given a moment to be told. */
static int op_stdin_live(hg_call *c, hg_agent *a) {
  hg_cmd_status st = {0};
  int rc = hg_agent_wait(a, c->p.cid, 0, &st);
  if (rc == 0 && st.exited) return -ESRCH;
  rc = op_stdin(c, a);
  if (rc == -EPIPE && hg_agent_wait(a, c->p.cid, 200, &st) == 0 && st.exited) return -ESRCH;
  return rc;
}

static void w_stdin_live(hg_call *c) {
  c->rc = hg__api_with_agent(c, op_stdin_live);
}

void hg__api_stdin_send_live(hg_call *c, hg_call_fn after) {
  hg__api_call_queue(c, w_stdin_live, after);
}

void hg__api_h_stdin(hg_call *c) {
  if (hg__api_q_bool(c, "eof", &c->u.ex.eof) < 0) {
    hg__api_call_error(c, -EINVAL, "%s", c->msg);
    return;
  }
  c->u.ex.in = c->req->body;
  c->u.ex.in_len = c->req->body_len;
  hg__api_stdin_send(c, a_no_content);
}

static int op_signal(hg_call *c, hg_agent *a) {
  return hg_agent_signal(a, c->p.cid, c->u.ex.sig);
}
static void w_signal(hg_call *c) {
  c->rc = hg__api_with_agent(c, op_signal);
}

void hg__api_signal_send(hg_call *c, hg_call_fn after) {
  hg__api_call_queue(c, w_signal, after);
}

void hg__api_h_signal(hg_call *c) {
  int64_t sig = 0;
  int rc = hg__api_get_int(c->body, "signal", 1, 64, &sig, c->msg);
  if (rc == 0 && sig == 0) rc = hg__api_bad(c->msg, "field \"signal\": required");
  if (rc < 0) {
    hg__api_call_error(c, rc, "%s", c->msg);
    return;
  }
  c->u.ex.sig = (int)sig;
  hg__api_signal_send(c, a_no_content);
}

/* ---- command output ------------------------------------------------------------
 * Offsets are absolute stream bytes, so a client that reconnects with the
 * offset it reached continues exactly. The bytes of one raw answer are
 * always contiguous from X-Hangar-Offset: when the ring dropped bytes the
 * reader had not taken yet, a raw follow stream ends there (the reconnect
 * then shows X-Hangar-Dropped), and a combined stream says "dropped". */

static const char *stream_name(int s) { return s == HG_STREAM_STDERR ? "stderr" : "stdout"; }

json_t *hg__api_base64_json(const hg_buf *d) {
  static const char tbl[] =
      "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
  const unsigned char *p = (const unsigned char *)d->data;
  size_t n = d->len, o = 0;
  char *s = malloc(4 * ((n + 2) / 3) + 1);
  if (!s) return NULL;
  for (size_t i = 0; i < n; i += 3) {
    uint32_t v = (uint32_t)p[i] << 16 | (i + 1 < n ? (uint32_t)p[i + 1] << 8 : 0) |
                 (i + 2 < n ? p[i + 2] : 0);
    s[o++] = tbl[v >> 18 & 63];
    s[o++] = tbl[v >> 12 & 63];
    s[o++] = i + 1 < n ? tbl[v >> 6 & 63] : '=';
    s[o++] = i + 2 < n ? tbl[v & 63] : '=';
  }
  json_t *j = json_stringn(s, o);
  free(s);
  return j;
}

static int follow_read(hg_call *c, hg_agent *a, int s, uint32_t wait_ms) {
  hg_follow *f = &c->u.fo;
  hg_buf_reset(&f->data[s]);
  return hg_agent_read(a, c->p.cid, s, f->off[s], HG_API_FOLLOW_CHUNK, wait_ms, &f->data[s],
                       &f->res[s]);
}

static int op_follow_raw(hg_call *c, hg_agent *a) {
  hg_follow *f = &c->u.fo;
  return follow_read(c, a, f->stream, f->started && f->follow ? HG_API_FOLLOW_WAIT_MS : 0);
}

/* Combined: one pass over both streams without waiting; when neither had
 * anything, hold on one still open (so the other's bytes wait at most
 * HG_API_COMBINED_WAIT_MS); once both ended, the exit status. */
static int op_follow_combined(hg_call *c, hg_agent *a) {
  hg_follow *f = &c->u.fo;
  bool held = f->started && f->follow, got = false;
  int rc = 0;
  for (int s = HG_STREAM_STDOUT; s <= HG_STREAM_STDERR && rc == 0; s++) {
    hg_buf_reset(&f->data[s]);
    if (f->res[s].eof) continue;
    rc = follow_read(c, a, s, 0);
    got = got || f->data[s].len > 0 || f->res[s].eof;
  }
  if (rc == 0 && !got && held)
    rc = follow_read(c, a, f->res[1].eof ? 2 : 1, HG_API_COMBINED_WAIT_MS);
  if (rc == 0 && f->res[1].eof && f->res[2].eof)
    rc = hg_agent_wait(a, c->p.cid, held ? HG_API_FOLLOW_WAIT_MS : 0, &f->st);
  return rc;
}

static void w_follow(hg_call *c) {
  c->rc = hg__api_with_agent(c, c->u.fo.stream ? op_follow_raw : op_follow_combined);
}

static int follow_start(hg_call *c) {
  hg_follow *f = &c->u.fo;
  char h[128] = "";
  const char *ctype = "application/x-ndjson";
  if (f->stream) {
    const hg_read_res *r = &f->res[f->stream];
    snprintf(h, sizeof h, "X-Hangar-Offset: %" PRIu64 "\r\nX-Hangar-Dropped: %" PRIu64 "\r\n",
             r->offset, r->dropped);
    ctype = "application/octet-stream";
  }
  f->started = true;
  c->streaming = true;
  hg__api_count_status(c->api, c->rt, 200);
  return hg_http_stream_start(c->req, 200, ctype, h[0] ? h : NULL);
}

/* Raw stream: true while there is more to send. */
static bool follow_raw(hg_call *c) {
  hg_follow *f = &c->u.fo;
  int s = f->stream;
  const hg_read_res *r = &f->res[s];
  const hg_buf *d = &f->data[s];
  if (!f->started) {
    f->off[s] = r->offset; /* the answer starts after what was dropped */
    if (follow_start(c) < 0) return false;
  } else if (r->offset != f->off[s]) {
    return false; /* a hole: end so that the reconnect reports it */
  }
  if (d->len && hg_http_stream_write(c->req, d->data, d->len) < 0) return false;
  f->off[s] = r->offset + d->len;
  return !r->eof;
}

static int ndjson_write(hg_call *c, json_t *ev) {
  char *s = ev ? json_dumps(ev, JSON_COMPACT) : NULL;
  json_decref(ev);
  if (!s) return -ENOMEM;
  size_t n = strlen(s);
  char *line = realloc(s, n + 2);
  if (!line) {
    free(s);
    return -ENOMEM;
  }
  line[n] = '\n';
  int rc = hg_http_stream_write(c->req, line, n + 1);
  free(line);
  return rc;
}

/* A Connect envelope: u8 flags (0x02: the end of the stream), u32
 * big-endian length, JSON. */
static int envelope_write(hg_call *c, unsigned flags, json_t *ev) {
  char *s = ev ? json_dumps(ev, JSON_COMPACT) : NULL;
  json_decref(ev);
  if (!s) return -ENOMEM;
  size_t n = strlen(s);
  unsigned char *m = malloc(n + 5);
  if (!m) {
    free(s);
    return -ENOMEM;
  }
  m[0] = (unsigned char)flags;
  m[1] = (unsigned char)(n >> 24);
  m[2] = (unsigned char)(n >> 16);
  m[3] = (unsigned char)(n >> 8);
  m[4] = (unsigned char)n;
  memcpy(m + 5, s, n);
  free(s);
  int rc = hg_http_stream_write(c->req, m, n + 5);
  free(m);
  c->u.fo.last_ms = hg_now_ms();
  return rc;
}

#define CONNECT_KEEPALIVE_MS 20000 /* E2B's client wants one within 50 s */

/* Connect stream (E2B's process.Process/Start): data events per read, a
 * keepalive when quiet, then the end event and the end of the stream. */
static bool follow_connect(hg_call *c) {
  hg_follow *f = &c->u.fo;
  bool wrote = false;
  for (int s = HG_STREAM_STDOUT; s <= HG_STREAM_STDERR; s++) {
    const hg_buf *d = &f->data[s];
    if (d->len == 0) continue;
    json_t *ev = json_pack("{s:{s:{s:o}}}", "event", "data", stream_name(s),
                           hg__api_base64_json(d));
    if (envelope_write(c, 0, ev) < 0) return false;
    f->off[s] = f->res[s].offset + d->len;
    wrote = true;
  }
  if (!f->res[1].eof || !f->res[2].eof || !f->st.exited) {
    if (!wrote && hg_now_ms() - f->last_ms > CONNECT_KEEPALIVE_MS &&
        envelope_write(c, 0, json_pack("{s:{s:{}}}", "event", "keepalive")) < 0)
      return false;
    return true;
  }
  char status[48];
  if (f->st.signal) snprintf(status, sizeof status, "signal: %d", f->st.signal);
  else snprintf(status, sizeof status, "exit status %d", f->st.code);
  json_t *end = json_pack("{s:{s:{s:i,s:b,s:s}}}", "event", "end", "exitCode",
                          f->st.signal ? -1 : f->st.code, "exited", 1, "status", status);
  if (envelope_write(c, 0, end) == 0) envelope_write(c, 0x02, json_object());
  return false;
}

/* Combined stream: {"stream","offset"[,"dropped"][,"data"]} per read, then
 * the exit status; true while there is more. */
static bool follow_ndjson(hg_call *c) {
  hg_follow *f = &c->u.fo;
  if (f->connect) return follow_connect(c);
  if (!f->started && follow_start(c) < 0) return false;
  for (int s = HG_STREAM_STDOUT; s <= HG_STREAM_STDERR; s++) {
    const hg_read_res *r = &f->res[s];
    const hg_buf *d = &f->data[s];
    if (d->len == 0 && r->offset <= f->off[s]) continue;
    json_t *ev = json_pack("{s:s,s:I}", "stream", stream_name(s), "offset", (json_int_t)r->offset);
    if (ev && r->offset > f->off[s])
      json_object_set_new(ev, "dropped", json_integer((json_int_t)(r->offset - f->off[s])));
    if (ev && d->len) json_object_set_new(ev, "data", hg__api_base64_json(d));
    if (ndjson_write(c, ev) < 0) return false;
    f->off[s] = r->offset + d->len;
  }
  if (!f->res[1].eof || !f->res[2].eof) return true;
  json_t *ev = json_object();
  status_json(ev, &f->st);
  ndjson_write(c, ev);
  return false;
}

/* Whole answer: what is there now, from offset. */
static void output_respond(hg_call *c) {
  hg_follow *f = &c->u.fo;
  const hg_read_res *r = &f->res[f->stream];
  const hg_buf *d = &f->data[f->stream];
  char h[256];
  snprintf(h, sizeof h,
           "X-Hangar-Offset: %" PRIu64 "\r\nX-Hangar-Dropped: %" PRIu64 "\r\nX-Hangar-Total: %" PRIu64
           "\r\nX-Hangar-Eof: %d\r\n",
           r->offset, r->dropped, r->total, r->eof ? 1 : 0);
  hg__api_call_respond(c, 200, "application/octet-stream", h, d->data ? d->data : "",
                       d->len);
}

static void follow_next(hg_call *c);

static void a_follow(hg_call *c) {
  hg_follow *f = &c->u.fo;
  /* A slow guest is no end of the stream: ask again while the client stays. */
  if (c->rc == -ETIMEDOUT && f->started && f->follow && !atomic_load(&c->aborted) &&
      !c->api->stopping) {
    follow_next(c);
    return;
  }
  if (c->rc < 0) {
    if (f->started)
      hg__api_call_respond(c, 200, NULL, NULL, NULL, 0);
    else
      hg__api_call_fail(c, c->rc, c->p.id);
    return;
  }
  if (f->stream && !f->follow) {
    output_respond(c);
    return;
  }
  bool more = f->stream ? follow_raw(c) : follow_ndjson(c);
  if (!more || !f->follow || atomic_load(&c->aborted) || c->api->stopping) {
    hg__api_call_respond(c, 200, NULL, NULL, NULL, 0);
    return;
  }
  follow_next(c);
}

static void on_follow_drain(uv_timer_t *t) {
  hg_call *c = t->data;
  if (atomic_load(&c->aborted) || c->api->stopping)
    hg__api_call_respond(c, 200, NULL, NULL, NULL, 0);
  else
    follow_next(c);
}

/* Back-pressure: no new read while the client has not taken what it got. */
static void follow_next(hg_call *c) {
  if (hg_http_stream_pending(c->req) > HG_API_HIGH_WATER)
    hg__api_call_timer(c, HG_API_DRAIN_MS, on_follow_drain);
  else
    hg__api_call_queue(c, w_follow, a_follow);
}

static void follow_cleanup(hg_call *c) {
  hg_buf_free(&c->u.fo.data[1]);
  hg_buf_free(&c->u.fo.data[2]);
}

static int output_query(hg_call *c) {
  hg_follow *f = &c->u.fo;
  char s[16];
  uint64_t off = 0;
  int rc = hg__api_q_opt(c, "stream", s, sizeof s);
  if (rc < 0) return rc;
  if (!s[0] || !strcmp(s, "stdout"))
    f->stream = HG_STREAM_STDOUT;
  else if (!strcmp(s, "stderr"))
    f->stream = HG_STREAM_STDERR;
  else if (!strcmp(s, "combined")) f->stream = 0;
  else
    return hg__api_bad(c->msg, "query parameter \"stream\": stdout, stderr or combined");
  if ((rc = hg__api_q_u64(c, "offset", UINT64_MAX, &off)) < 0 ||
      (rc = hg__api_q_u64(c, "stdout_offset", UINT64_MAX, &f->off[1])) < 0 ||
      (rc = hg__api_q_u64(c, "stderr_offset", UINT64_MAX, &f->off[2])) < 0 ||
      (rc = hg__api_q_bool(c, "follow", &f->follow)) < 0)
    return rc;
  if (f->stream) f->off[f->stream] = off;
  return 0;
}

/* Follows c->p.cid's output as Connect envelopes from the offsets on,
 * {"start": {pid}} first. c->u is taken over (whatever it held is freed). */
void hg__api_connect_stream(hg_call *c, uint32_t pid, uint64_t out_off, uint64_t err_off) {
  if (c->cleanup) c->cleanup(c);
  memset(&c->u, 0, sizeof c->u);
  hg_follow *f = &c->u.fo;
  c->cleanup = follow_cleanup;
  hg_buf_init(&f->data[1], HG_API_FOLLOW_CHUNK);
  hg_buf_init(&f->data[2], HG_API_FOLLOW_CHUNK);
  f->off[1] = out_off;
  f->off[2] = err_off;
  f->follow = f->connect = f->started = true;
  if (!hg__api_call_hold(c)) return; /* the slot is held for the stream's life */
  c->streaming = true;
  hg__api_count_status(c->api, c->rt, 200);
  if (hg_http_stream_start(c->req, 200, "application/connect+json", NULL) < 0 ||
      envelope_write(c, 0, json_pack("{s:{s:{s:I}}}", "event", "start", "pid",
                                     (json_int_t)pid)) < 0) {
    hg__api_call_respond(c, 200, NULL, NULL, NULL, 0);
    return;
  }
  follow_next(c);
}

/* process.Process/Start: the command started (its E2B pid, the guest's,
 * remembered for Connect, List, ...), then its output from the start. */
static void a_exec_connect(hg_call *c) {
  hg_exec *x = &c->u.ex;
  if (c->rc < 0) {
    hg__api_call_fail(c, c->rc, c->p.id);
    return;
  }
  hg__api_tok_put(c->api, TOK_OUTPUT, x->out_token, c->p.id, c->p.cid, x->pid);
  if (x->envd_config && x->pid > 0 &&
      hg__envd_procs_put(&c->api->envd, c->p.id, (uint32_t)x->pid, c->p.cid, x->envd_tag,
                         x->envd_config) < 0)
    hg_log_warn("api.envd", "sandbox=%s cid=%" PRIu64 " msg=\"pid not remembered\"",
                c->p.id, c->p.cid);
  hg__api_connect_stream(c, (uint32_t)x->pid, 0, 0);
}

/* config (owned from here on) and tag: what List shows of it. */
void hg__api_exec_connect(hg_call *c, char *config, const char *tag) {
  hg_exec *x = &c->u.ex;
  c->cleanup = exec_cleanup;
  x->envd_config = config;
  snprintf(x->envd_tag, sizeof x->envd_tag, "%s", tag ? tag : "");
  hg_buf_init(&x->out[1], 16);
  hg_buf_init(&x->out[2], 16);
  int rc = hg__api_exec_parse(c->body, x, c->msg);
  if (rc < 0) {
    hg__api_call_error(c, rc, "%s", c->msg);
    return;
  }
  x->wait_ms = 0;
  hg__api_call_queue(c, w_exec, a_exec_connect);
}

void hg__api_h_output(hg_call *c) {
  hg_follow *f = &c->u.fo;
  c->cleanup = follow_cleanup;
  hg_buf_init(&f->data[1], HG_API_FOLLOW_CHUNK);
  hg_buf_init(&f->data[2], HG_API_FOLLOW_CHUNK);
  if (output_query(c) < 0) {
    hg__api_call_error(c, -EINVAL, "%s", c->msg);
    return;
  }
  if (f->follow && !hg__api_call_hold(c))
    return; /* the slot is held for the stream's life */
  hg__api_call_queue(c, w_follow, a_follow);
}
