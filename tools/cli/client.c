#include "tools/cli/client.h"

#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "node/core/util.h"
#include "tools/cli/cli.h"

#define JSON_TIMEOUT_S 60   /* a plain API call; a frozen daemon should not hang the CLI */
#define OP_WAIT_S 10        /* server-side long poll per operation request */
#define OP_MIN_POLL_MS 200  /* if the server ignores ?wait, do not hammer it */
#define OP_RETRIES 8        /* lost connections while waiting (~20 s: a daemon restart) */

int hg_client_init(hg_client *c, const char *url, const char *key) {
  memset(c, 0, sizeof *c);
  c->url = strdup(url);
  c->key = key ? strdup(key) : NULL;
  c->multi = curl_multi_init();
  c->err_tty = isatty(STDERR_FILENO);
  if (!c->url || (key && !c->key) || !c->multi) {
    hg_client_free(c);
    return -ENOMEM;
  }
  return 0;
}

void hg_client_free(hg_client *c) {
  if (c->multi) curl_multi_cleanup(c->multi);
  free(c->url);
  free(c->key);
  memset(c, 0, sizeof *c);
}

void hg_client_end_line(hg_client *c) {
  if (!c->line_open) return;
  fputc('\n', stderr);
  c->line_open = false;
}

/* ---- the loop ------------------------------------------------------------ */

static void finish_done(hg_client *c) {
  CURLMsg *m;
  int left;
  while ((m = curl_multi_info_read(c->multi, &left))) {
    if (m->msg != CURLMSG_DONE) continue;
    CURL *easy = m->easy_handle;
    CURLcode result = m->data.result; /* m dies with remove_handle */
    char *priv = NULL;
    curl_easy_getinfo(easy, CURLINFO_PRIVATE, &priv);
    hg_xfer *x = (hg_xfer *)priv;
    curl_multi_remove_handle(c->multi, easy);
    x->result = result;
    curl_easy_getinfo(easy, CURLINFO_RESPONSE_CODE, &x->status);
    x->done = true;
  }
}

int hg_client_step(hg_client *c, int timeout_ms, struct curl_waitfd *fds, unsigned nfds) {
  int running;
  CURLMcode mc = curl_multi_poll(c->multi, fds, nfds, timeout_ms, NULL);
  if (mc == CURLM_OK) mc = curl_multi_perform(c->multi, &running);
  if (mc != CURLM_OK) {
    hg_client_end_line(c);
    fprintf(stderr, "hangar: %s\n", curl_multi_strerror(mc));
    return -EIO;
  }
  finish_done(c);
  return 0;
}

/* ---- transfers ------------------------------------------------------------ */

static size_t write_body(char *p, size_t size, size_t n, void *arg) {
  hg_xfer *x = arg;
  return hg_buf_append(&x->body, p, size * n) == 0 ? size * n : 0;
}

int hg_xfer_add_header(hg_xfer *x, const char *header) {
  struct curl_slist *l = curl_slist_append(x->headers, header);
  if (!l) return -ENOMEM;
  x->headers = l;
  return 0;
}

static int set_url(hg_xfer *x, const char *path) {
  hg_buf url;
  hg_buf_init(&url, 16384);
  int rc = hg_buf_printf(&url, "%s%s", x->client->url, path);
  if (rc == 0 && curl_easy_setopt(x->easy, CURLOPT_URL, url.data) != CURLE_OK) rc = -EINVAL;
  hg_buf_free(&url);
  return rc;
}

static int set_auth(hg_xfer *x) {
  /* curl would wait a second for "100 Continue" before large bodies;
   * the daemon reads bodies without asking for that. */
  int rc = hg_xfer_add_header(x, "Expect:");
  if (rc == 0 && x->client->key) {
    hg_buf h;
    hg_buf_init(&h, 4096);
    rc = hg_buf_printf(&h, "Authorization: Bearer %s", x->client->key);
    if (rc == 0) rc = hg_xfer_add_header(x, h.data);
    hg_buf_free(&h);
  }
  return rc;
}

int hg_xfer_init(hg_xfer *x, hg_client *c, const char *method, const char *path) {
  memset(x, 0, sizeof *x);
  x->client = c;
  hg_buf_init(&x->body, HG_CLIENT_MAX_JSON);
  if (!(x->easy = curl_easy_init())) return -ENOMEM;
  CURL *e = x->easy;
  curl_easy_setopt(e, CURLOPT_PRIVATE, x);
  curl_easy_setopt(e, CURLOPT_NOSIGNAL, 1L);
  curl_easy_setopt(e, CURLOPT_USERAGENT, "hangar-cli/" HG_CLI_VERSION);
  curl_easy_setopt(e, CURLOPT_CONNECTTIMEOUT, (long)HG_CLIENT_CONNECT_TIMEOUT_S);
  curl_easy_setopt(e, CURLOPT_TCP_KEEPALIVE, 1L);
  curl_easy_setopt(e, CURLOPT_ERRORBUFFER, x->errbuf);
  /* https: the node's certificate is checked against $HANGAR_CA (a PEM
   * file: a self-signed node certificate, or the CA that signed it), else
   * the system's CA store; never unchecked */
  const char *ca = getenv("HANGAR_CA");
  if (ca && *ca) curl_easy_setopt(e, CURLOPT_CAINFO, ca);
  curl_easy_setopt(e, CURLOPT_WRITEFUNCTION, write_body);
  curl_easy_setopt(e, CURLOPT_WRITEDATA, x);
  if (strcmp(method, "POST") == 0) { /* an empty body unless one is set */
    curl_easy_setopt(e, CURLOPT_POSTFIELDS, "");
    curl_easy_setopt(e, CURLOPT_POSTFIELDSIZE, 0L);
  } else if (strcmp(method, "GET") != 0) {
    curl_easy_setopt(e, CURLOPT_CUSTOMREQUEST, method);
  }
  int rc = set_url(x, path);
  return rc ? rc : set_auth(x);
}

int hg_xfer_set_json(hg_xfer *x, const json_t *body) {
  free(x->req_body);
  x->req_body = json_dumps(body, JSON_COMPACT);
  if (!x->req_body) return -ENOMEM;
  curl_easy_setopt(x->easy, CURLOPT_POSTFIELDS, x->req_body);
  curl_easy_setopt(x->easy, CURLOPT_POSTFIELDSIZE, (long)strlen(x->req_body));
  return hg_xfer_add_header(x, "Content-Type: application/json");
}

int hg_xfer_start(hg_xfer *x) {
  curl_easy_setopt(x->easy, CURLOPT_HTTPHEADER, x->headers);
  if (curl_multi_add_handle(x->client->multi, x->easy) != CURLM_OK) return -ENOMEM;
  x->started = true;
  x->done = false;
  return 0;
}

void hg_xfer_wait(hg_xfer *x, void (*tick)(void *), void *arg) {
  while (!x->done) {
    if (hg_client_step(x->client, HG_CLIENT_TICK_MS, NULL, 0) < 0) {
      curl_multi_remove_handle(x->client->multi, x->easy);
      x->result = CURLE_FAILED_INIT;
      x->done = true;
    }
    if (tick) tick(arg);
  }
}

void hg_xfer_cleanup(hg_xfer *x) {
  if (x->started && !x->done) curl_multi_remove_handle(x->client->multi, x->easy);
  if (x->easy) curl_easy_cleanup(x->easy);
  curl_slist_free_all(x->headers);
  free(x->req_body);
  hg_buf_free(&x->body);
  memset(x, 0, sizeof *x);
}

/* ---- errors -------------------------------------------------------------- */

static bool unreachable(CURLcode rc) {
  return rc == CURLE_COULDNT_CONNECT || rc == CURLE_COULDNT_RESOLVE_HOST;
}

bool hg_xfer_retryable(const hg_xfer *x) {
  switch (x->result) {
  case CURLE_OK:
    return x->status == 503 || x->status == 421; /* restarting; owner moved */
  case CURLE_COULDNT_CONNECT:
  case CURLE_SEND_ERROR:
  case CURLE_RECV_ERROR:
  case CURLE_PARTIAL_FILE:
  case CURLE_GOT_NOTHING:
    return true;
  default:
    return false;
  }
}

static void print_transport_error(const hg_xfer *x) {
  const hg_client *c = x->client;
  const char *why = x->errbuf[0] ? x->errbuf : curl_easy_strerror(x->result);
  long os_errno = 0;
  curl_easy_getinfo(x->easy, CURLINFO_OS_ERRNO, &os_errno);
  if (unreachable(x->result) && os_errno) why = strerror((int)os_errno); /* "Connection refused" */
  if (x->result == CURLE_WRITE_ERROR && x->body.len + 65536 > x->body.max) {
    fprintf(stderr, "hangar: the answer from %s is larger than we hold (%zu MiB)\n", c->url,
            x->body.max >> 20);
  } else if (x->result == CURLE_COULDNT_RESOLVE_HOST) {
    fprintf(stderr, "hangar: cannot reach hangard at %s: %s\n"
                    "hint: check --url / HANGAR_URL / `url =` in the config file\n",
            c->url, why);
  } else if (unreachable(x->result)) {
    fprintf(stderr,
            "hangar: cannot reach hangard at %s: %s\n"
            "hint: is the daemon running? Start it on that host (`sudo hangard`),\n"
            "      or point --url / HANGAR_URL at a node that is up.\n",
            c->url, why);
  } else {
    fprintf(stderr, "hangar: %s: %s\n", c->url, why);
  }
}

/* An answer that is not our JSON (a proxy's HTML page, say): keep its
 * first line as the message. */
static json_t *error_from_text(long status, const char *text, size_t len) {
  size_t n = 0;
  while (n < len && n < 200 && text[n] != '\n' && text[n] != '\r') n++;
  char code[32];
  snprintf(code, sizeof code, "http_%ld", status);
  return json_pack("{s:{s:s,s:s%}}", "error", "code", code, "message", text, n);
}

void hg_client_print_error(hg_client *c, long status, const json_t *body) {
  const json_t *e = json_object_get(body, "error");
  char code[64], msg[1024];
  snprintf(code, sizeof code, "%s", hg_json_str(e, "code") ? hg_json_str(e, "code") : "");
  snprintf(msg, sizeof msg, "%s", hg_json_str(e, "message") ? hg_json_str(e, "message") : "");
  hg_cli_sanitize(code);
  hg_cli_sanitize(msg);
  hg_client_end_line(c);
  if (!code[0]) snprintf(code, sizeof code, "http_%ld", status);
  if (msg[0])
    fprintf(stderr, "hangar: %s: %s\n", code, msg);
  else
    fprintf(stderr, "hangar: %s: HTTP %ld from %s\n", code, status, c->url);
  if (status == 401)
    fprintf(stderr, "hint: %s; pass --key, set HANGAR_API_KEY, or put `key = …` in\n"
                    "      ~/.config/hangar/config (see 'hangar help')\n",
            c->key ? "the server refused this key" : "no API key is set");
}

void hg_xfer_print_error(const hg_xfer *x) {
  hg_client_end_line(x->client);
  if (x->result != CURLE_OK) {
    print_transport_error(x);
    return;
  }
  json_t *j = json_loadb(x->body.data ? x->body.data : "", x->body.len, 0, NULL);
  if (!j && x->body.len) j = error_from_text(x->status, x->body.data, x->body.len);
  hg_client_print_error(x->client, x->status, j);
  json_decref(j);
}

bool hg_xfer_status_ok(const hg_xfer *x) {
  long code = 0;
  curl_easy_getinfo(x->easy, CURLINFO_RESPONSE_CODE, &code);
  return code >= 200 && code < 300;
}

int hg_xfer_check(hg_xfer *x) {
  if (x->result == CURLE_OK && x->status >= 200 && x->status < 300) return 0;
  hg_xfer_print_error(x);
  if (x->result != CURLE_OK) return unreachable(x->result) ? -ECONNREFUSED : -EIO;
  return -EPROTO;
}

char *hg_client_escape(hg_client *c, const char *s) {
  return curl_easy_escape(NULL, s, 0);
}

/* ---- JSON calls ------------------------------------------------------------ */

static int run_json(hg_xfer *x, const json_t *body, long timeout_s, void (*tick)(void *),
                    void *arg) {
  int rc = body ? hg_xfer_set_json(x, body) : 0;
  if (rc == 0 && timeout_s) curl_easy_setopt(x->easy, CURLOPT_TIMEOUT, timeout_s);
  if (rc == 0) rc = hg_xfer_start(x);
  if (rc == 0) hg_xfer_wait(x, tick, arg);
  return rc;
}

static int parse_answer(hg_xfer *x, json_t **out) {
  *out = NULL;
  if (x->body.len == 0) return 0;
  json_error_t err;
  *out = json_loadb(x->body.data, x->body.len, 0, &err);
  if (*out) return 0;
  if (x->status >= 200 && x->status < 300) {
    fprintf(stderr, "hangar: %s answered with malformed JSON: %s\n", x->client->url, err.text);
    return -EPROTO;
  }
  *out = error_from_text(x->status, x->body.data, x->body.len);
  return 0;
}

int hg_client_try_json(hg_client *c, const char *method, const char *path,
                       const json_t *body, long *status, json_t **out) {
  hg_xfer x;
  int rc = hg_xfer_init(&x, c, method, path);
  if (rc == 0) rc = run_json(&x, body, JSON_TIMEOUT_S, NULL, NULL);
  if (rc == 0 && x.result != CURLE_OK) {
    hg_xfer_print_error(&x);
    rc = unreachable(x.result) ? -ECONNREFUSED : -EIO;
  }
  if (rc == 0) {
    *status = x.status;
    rc = parse_answer(&x, out);
  }
  hg_xfer_cleanup(&x);
  return rc;
}

int hg_client_json(hg_client *c, const char *method, const char *path, const json_t *body,
                   json_t **out) {
  long status = 0;
  json_t *j = NULL;
  int rc = hg_client_try_json(c, method, path, body, &status, &j);
  if (rc == 0 && (status < 200 || status >= 300)) {
    hg_client_print_error(c, status, j);
    rc = -EPROTO;
  }
  if (rc == 0 && out)
    *out = j;
  else
    json_decref(j);
  return rc;
}

/* ---- waiting for operations ------------------------------------------------ */

/* A signal handler can reach nothing but globals: this note is the one
 * piece of mutable state the CLI keeps outside its structs. */
static char interrupt_note[512];
static size_t interrupt_note_len;

static void on_interrupt(int sig) {
  if (write(STDERR_FILENO, interrupt_note, interrupt_note_len) < 0) {
  }
  _exit(HG_CLI_EXIT_SIGNAL + sig);
}

typedef struct op_wait {
  hg_client *c;
  const char *verb, *target;
  int64_t start_ms, drawn_ms;
  char what[128]; /* "…" or the server's progress */
  struct sigaction old_int, old_term;
} op_wait;

/* Leaving a wait with ^C is fine: the operation goes on without us. Say so. */
static void trap_interrupt(op_wait *w, const char *op_id) {
  snprintf(interrupt_note, sizeof interrupt_note,
           "\nhangar: stopped waiting; %s %s goes on (follow it: hangar op %s --wait)\n",
           w->verb, w->target, op_id);
  interrupt_note_len = strlen(interrupt_note);
  struct sigaction sa = {.sa_handler = on_interrupt};
  sigemptyset(&sa.sa_mask);
  sigaction(SIGINT, &sa, &w->old_int);
  sigaction(SIGTERM, &sa, &w->old_term);
}

static void untrap_interrupt(op_wait *w) {
  sigaction(SIGINT, &w->old_int, NULL);
  sigaction(SIGTERM, &w->old_term, NULL);
}

static void draw(void *arg) {
  op_wait *w = arg;
  int64_t now = hg_now_ms();
  if (!w->c->err_tty || now - w->drawn_ms < HG_CLIENT_TICK_MS - 20) return;
  char el[32];
  hg_cli_fmt_duration(now - w->start_ms, el, sizeof el);
  fprintf(stderr, "\r\033[K%s %s %s %s", w->verb, w->target, w->what, el);
  fflush(stderr);
  w->c->line_open = true;
  w->drawn_ms = now;
}

/* "gen=3", "snapshot=snap-1": the scalar members of an operation's result. */
static void summarize(const json_t *result, char *out, size_t cap) {
  const char *k;
  json_t *v;
  size_t n = 0;
  out[0] = '\0';
  json_object_foreach((json_t *)result, k, v) {
    char val[128];
    if (json_is_string(v))
      snprintf(val, sizeof val, "%s", json_string_value(v));
    else if (json_is_integer(v))
      snprintf(val, sizeof val, "%lld", (long long)json_integer_value(v));
    else
      continue;
    int m = snprintf(out + n, cap - n, "%s%s=%s", n ? " " : "", k, val);
    if (m < 0 || (size_t)m >= cap - n) break;
    n += (size_t)m;
  }
  hg_cli_sanitize(out);
}

static void finish_line(op_wait *w, const char *outcome, const json_t *op) {
  int64_t ms = hg_json_int(op, "duration_ms", -1);
  if (ms < 0) ms = hg_now_ms() - w->start_ms;
  char el[32], extra[256];
  hg_cli_fmt_duration(ms, el, sizeof el);
  summarize(json_object_get(op, "result"), extra, sizeof extra);
  if (w->c->err_tty) fputs("\r\033[K", stderr);
  fprintf(stderr, "%s %s %s %s%s%s\n", w->verb, w->target, outcome, el, extra[0] ? "  " : "",
          extra);
  w->c->line_open = false;
}

static void set_progress(op_wait *w, const json_t *op) {
  const json_t *p = json_object_get(op, "progress");
  if (json_is_string(p) && json_string_length(p) > 0)
    snprintf(w->what, sizeof w->what, "%s", json_string_value(p));
  else if (json_is_number(p) && json_number_value(p) <= 1.0) /* a fraction */
    snprintf(w->what, sizeof w->what, "%.0f%%", json_number_value(p) * 100);
  else if (json_is_number(p))
    snprintf(w->what, sizeof w->what, "%.0f%%", json_number_value(p));
  else
    snprintf(w->what, sizeof w->what, "…");
  hg_cli_sanitize(w->what);
}

/* Sleeps ms while keeping the progress line alive. */
static void pause_drawing(op_wait *w, int64_t ms) {
  int64_t until = hg_now_ms() + ms;
  for (int64_t left = ms; left > 0; left = until - hg_now_ms()) {
    hg_client_step(w->c, (int)(left < HG_CLIENT_TICK_MS ? left : HG_CLIENT_TICK_MS), NULL, 0);
    draw(w);
  }
}

/* One long-poll of the operation. 1: keep waiting, 0: succeeded, <0: failed. */
static int poll_op(op_wait *w, const char *path, int *retries, json_t **final) {
  hg_xfer x;
  int64_t asked = hg_now_ms();
  int rc = hg_xfer_init(&x, w->c, "GET", path);
  if (rc == 0) rc = run_json(&x, NULL, OP_WAIT_S + 30, draw, w);
  if (rc < 0) goto out;
  if (x.result != CURLE_OK || x.status != 200) {
    if (hg_xfer_retryable(&x) && ++*retries <= OP_RETRIES) {
      snprintf(w->what, sizeof w->what, "reconnecting…");
      pause_drawing(w, 250LL << (*retries < 4 ? *retries : 4));
      rc = 1;
    } else {
      rc = hg_xfer_check(&x);
    }
    goto out;
  }
  *retries = 0;
  json_t *op = NULL;
  if ((rc = parse_answer(&x, &op)) < 0) goto out;
  const char *status = hg_json_str(op, "status");
  status = status ? status : "";
  if (strcmp(status, "succeeded") == 0) {
    finish_line(w, "done", op);
    *final = op;
    rc = 0;
  } else if (!strcmp(status, "failed") || !strcmp(status, "cancelled") ||
             !strcmp(status, "canceled")) {
    finish_line(w, "failed", op);
    if (json_object_get(op, "error"))
      hg_client_print_error(w->c, 0, op); /* op.error is {code, message} */
    else
      fprintf(stderr, "hangar: %s %s failed\n", w->verb, w->target);
    *final = op; /* the caller may have more to tell of it (a suspend's peers) */
    rc = -EPROTO;
  } else {
    set_progress(w, op);
    json_decref(op);
    int64_t spent = hg_now_ms() - asked;
    if (spent < OP_MIN_POLL_MS) pause_drawing(w, OP_MIN_POLL_MS - spent);
    rc = 1;
  }
out:
  hg_xfer_cleanup(&x);
  return rc;
}

int hg_client_wait_op(hg_client *c, const char *verb, const char *target, const char *op_id,
                      int64_t start_ms, json_t **final) {
  op_wait w = {.c = c, .verb = verb, .target = target, .start_ms = start_ms};
  char path[256];
  if (!hg_cli_id_ok(op_id)) {
    fprintf(stderr, "hangar: the server named a strange operation id\n");
    return -EPROTO;
  }
  hg_path(path, sizeof path, "/v1/operations/%s?wait=%d", op_id, OP_WAIT_S);
  snprintf(w.what, sizeof w.what, "…");
  trap_interrupt(&w, op_id);
  draw(&w);
  int rc, retries = 0;
  json_t *op = NULL;
  while ((rc = poll_op(&w, path, &retries, &op)) == 1) {
  }
  untrap_interrupt(&w);
  if (final)
    *final = op;
  else
    json_decref(op);
  return rc;
}

/* ---- JSON helpers ---------------------------------------------------------- */

const char *hg_json_str(const json_t *obj, const char *key) {
  return json_string_value(json_object_get(obj, key)); /* NULL-safe all the way */
}

int64_t hg_json_int(const json_t *obj, const char *key, int64_t dflt) {
  const json_t *v = json_object_get(obj, key);
  if (json_is_integer(v)) return json_integer_value(v);
  /* A real beyond int64_t would convert to undefined behaviour. */
  double d = json_real_value(v);
  if (json_is_real(v) && d > -0x1p63 && d < 0x1p63) return (int64_t)d;
  return dflt;
}

bool hg_json_bool(const json_t *obj, const char *key) {
  return json_is_true(json_object_get(obj, key));
}

int64_t hg_json_time_ms(const json_t *obj, const char *key) {
  const json_t *v = json_object_get(obj, key);
  int64_t ms;
  if (json_is_string(v)) return hg_cli_parse_time(json_string_value(v), &ms) == 0 ? ms : -1;
  if (!json_is_number(v)) return -1;
  double n = json_number_value(v);
  return n > 1e11 ? (int64_t)n : (int64_t)(n * 1000); /* ms since 1973, or seconds */
}

int hg_json_print(const json_t *j) {
  if (json_dumpf(j, stdout, JSON_INDENT(2) | JSON_ENCODE_ANY) < 0) return -EIO;
  fputc('\n', stdout);
  return 0;
}
