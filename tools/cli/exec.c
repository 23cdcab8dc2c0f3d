/* exec: runs a command in a sandbox the way a local one runs.
 *
 * POST …/commands starts it. Its stdout and stderr then stream live over
 * two follow requests (…/output?stream=…&follow=1) that the client's multi
 * handle drives side by side, each written to our own fd as bytes arrive.
 * Between turns of that loop we read our stdin and send it up in chunks
 * (…/stdin, then ?eof=1), and pass ^C and friends on (…/signal). When
 * both streams have ended we ask for the exit status and exit with it.
 *
 * Output stays in the guest and is read by offset, so a stream that breaks
 * (daemon restart, owner moved) resumes where it stopped: nothing is lost
 * and nothing repeats. */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include "node/core/util.h"
#include "tools/cli/cmdutil.h"
#include "tools/cli/commands.h"

#define EXEC_STDIN_CHUNK (64u * 1024)
#define EXEC_RETRIES 8       /* per stream, backing off to 4 s: rides out a restart */
#define EXEC_DETACH_AFTER 3  /* the third ^C leaves the command running and us gone */
#define EXEC_STATUS_POLL_MAX_MS 1000

/* Signals land here and the loop forwards them; a handler can reach
 * nothing but globals. */
static volatile sig_atomic_t pending_sig;
static volatile sig_atomic_t sigint_count;

typedef struct exec_run exec_run;

typedef struct stream {
  exec_run *ex;
  const char *name; /* "stdout" | "stderr", as the API names them */
  int fd;
  hg_xfer x;
  uint64_t offset;  /* the next byte we want; survives reconnects */
  uint64_t asked;   /* the offset the request in flight started at */
  int retries;
  int64_t retry_at; /* when to reconnect; 0: not waiting */
  bool ended, failed;
} stream;

struct exec_run {
  hg_client *c;
  char sb[HG_CLI_ID_MAX];
  char cmd[HG_CLI_ID_MAX];
  char base[192]; /* "/v1/sandboxes/<sb>/commands/<cmd>" */
  stream out, err;
  bool fwd_stdin;
  bool stdin_done;   /* eof sent, or forwarding given up */
  bool in_eof;       /* the stdin request in flight carries eof */
  hg_xfer in, sig, st;
  int64_t st_next;   /* when to ask for the status again */
  int st_wait_ms;
  int st_retries;
  bool finished;
  int exit_code;
  int write_errno;   /* writing our stdout/stderr failed */
  char inbuf[EXEC_STDIN_CHUNK];
};

static bool busy(const hg_xfer *x) { return x->started && !x->done; }

/* ---- output streams ----------------------------------------------------------- */

static size_t stream_write(char *p, size_t size, size_t n, void *arg) {
  stream *s = arg;
  size_t len = size * n;
  if (!hg_xfer_status_ok(&s->x)) { /* an error answer: keep it for the message */
    hg_buf_append(&s->x.body, p, len);
    return len;
  }
  int rc = hg_cmd_write_all(s->fd, p, len);
  if (rc < 0) {
    s->ex->write_errno = -rc;
    return 0; /* aborts the transfer */
  }
  s->offset += len;
  return len;
}

/* X-Hangar-Offset says where the bytes start. Past what we asked for means
 * the guest's output ring dropped some before we read them: say so. */
static size_t stream_header(char *p, size_t size, size_t n, void *arg) {
  static const char name[] = "x-hangar-offset:";
  stream *s = arg;
  size_t len = size * n;
  if (len <= sizeof name - 1 || strncasecmp(p, name, sizeof name - 1) != 0) return len;
  if (!hg_xfer_status_ok(&s->x)) return len;
  char val[32], *end;
  size_t vlen = len - (sizeof name - 1);
  snprintf(val, sizeof val, "%.*s", (int)(vlen < sizeof val ? vlen : sizeof val - 1),
           p + sizeof name - 1);
  unsigned long long off = strtoull(val, &end, 10);
  if (end == val) return len;
  if (off > s->asked)
    fprintf(stderr, "hangar: %llu bytes of %s were dropped before we read them\n",
            off - (unsigned long long)s->asked, s->name);
  s->offset = off;
  return len;
}

static int stream_start(stream *s) {
  exec_run *ex = s->ex;
  char path[320];
  hg_path(path, sizeof path, "%s/output?stream=%s&offset=%llu&follow=1", ex->base, s->name,
          (unsigned long long)s->offset);
  int rc = hg_xfer_init(&s->x, ex->c, "GET", path);
  if (rc < 0) return rc;
  hg_buf_init(&s->x.body, HG_CLIENT_MAX_ERROR);
  curl_easy_setopt(s->x.easy, CURLOPT_WRITEFUNCTION, stream_write);
  curl_easy_setopt(s->x.easy, CURLOPT_WRITEDATA, s);
  curl_easy_setopt(s->x.easy, CURLOPT_HEADERFUNCTION, stream_header);
  curl_easy_setopt(s->x.easy, CURLOPT_HEADERDATA, s);
  s->asked = s->offset;
  s->retry_at = 0;
  return hg_xfer_start(&s->x);
}

static void stream_done(stream *s) {
  hg_xfer *x = &s->x;
  if (s->offset > s->asked) s->retries = 0; /* it got somewhere: a fresh budget */
  if (x->result == CURLE_OK && x->status >= 200 && x->status < 300) {
    s->ended = true; /* the command closed it */
  } else if (s->ex->write_errno) {
    s->ended = true;
  } else if (hg_xfer_retryable(x) && s->retries < EXEC_RETRIES) {
    s->retries++;
    s->retry_at = hg_now_ms() + (250LL << (s->retries < 4 ? s->retries : 4));
  } else {
    hg_xfer_print_error(x);
    s->ended = s->failed = true;
  }
  hg_xfer_cleanup(x);
}

static void stream_tick(stream *s) {
  if (s->x.done) stream_done(s);
  if (s->retry_at && hg_now_ms() >= s->retry_at && stream_start(s) < 0) {
    fprintf(stderr, "hangar: cannot reopen %s\n", s->name);
    s->ended = s->failed = true;
  }
}

/* ---- stdin --------------------------------------------------------------------- */

static void stdin_send(exec_run *ex, size_t n) {
  char path[256];
  hg_path(path, sizeof path, "%s/stdin%s", ex->base, n ? "" : "?eof=1");
  hg_xfer *x = &ex->in;
  int rc = hg_xfer_init(x, ex->c, "POST", path);
  if (rc == 0) {
    curl_easy_setopt(x->easy, CURLOPT_POSTFIELDS, ex->inbuf); /* untouched until done */
    curl_easy_setopt(x->easy, CURLOPT_POSTFIELDSIZE, (long)n);
    rc = hg_xfer_add_header(x, "Content-Type: application/octet-stream");
  }
  if (rc == 0) rc = hg_xfer_start(x);
  if (rc < 0) {
    hg_xfer_cleanup(x);
    ex->stdin_done = true;
  }
  ex->in_eof = n == 0;
}

static void stdin_read(exec_run *ex) {
  ssize_t n = read(STDIN_FILENO, ex->inbuf, sizeof ex->inbuf);
  if (n < 0 && (errno == EINTR || errno == EAGAIN)) return;
  if (n < 0) {
    fprintf(stderr, "hangar: reading stdin: %s; closing the command's stdin\n", strerror(errno));
    n = 0;
  }
  stdin_send(ex, (size_t)n);
}

static void stdin_done(exec_run *ex) {
  hg_xfer *x = &ex->in;
  bool ok = x->result == CURLE_OK && x->status >= 200 && x->status < 300;
  /* 409: the command has exited or closed stdin; its status will tell. */
  if (!ok && x->status != 409) hg_xfer_print_error(x);
  if (!ok || ex->in_eof) ex->stdin_done = true;
  hg_xfer_cleanup(x);
}

/* ---- signals ------------------------------------------------------------------- */

static void on_signal(int sig) {
  pending_sig = sig;
  if (sig == SIGINT) sigint_count++;
}

static const int forwarded[] = {SIGINT, SIGTERM, SIGHUP};

static void trap_signals(struct sigaction *old) {
  struct sigaction sa = {.sa_handler = on_signal}; /* no SA_RESTART: wake the poll */
  sigemptyset(&sa.sa_mask);
  pending_sig = sigint_count = 0;
  for (size_t i = 0; i < HG_ARRAY_SIZE(forwarded); i++) sigaction(forwarded[i], &sa, &old[i]);
}

static void untrap_signals(const struct sigaction *old) {
  for (size_t i = 0; i < HG_ARRAY_SIZE(forwarded); i++) sigaction(forwarded[i], &old[i], NULL);
}

static void signal_send(exec_run *ex, int sig) {
  char path[256];
  hg_path(path, sizeof path, "%s/signal", ex->base);
  json_t *body = json_pack("{s:i}", "signal", sig);
  int rc = body ? hg_xfer_init(&ex->sig, ex->c, "POST", path) : -ENOMEM;
  if (rc == 0) rc = hg_xfer_set_json(&ex->sig, body);
  if (rc == 0) rc = hg_xfer_start(&ex->sig);
  if (rc < 0) hg_xfer_cleanup(&ex->sig);
  json_decref(body);
}

/* Returns true when we should leave now (the third ^C). */
static bool signal_tick(exec_run *ex) {
  if (ex->sig.done) {
    if (ex->sig.status != 409) hg_xfer_check(&ex->sig); /* 409: it had already exited */
    hg_xfer_cleanup(&ex->sig);
  }
  if (sigint_count >= EXEC_DETACH_AFTER) {
    fprintf(stderr, "\nhangar: detached; %s goes on in %s\n", ex->cmd, ex->sb);
    return true;
  }
  if (pending_sig && !busy(&ex->sig)) {
    int sig = pending_sig;
    pending_sig = 0;
    signal_send(ex, sig);
  }
  return false;
}

/* ---- exit status ---------------------------------------------------------------- */

static void status_ask(exec_run *ex) {
  if (hg_xfer_init(&ex->st, ex->c, "GET", ex->base) < 0 || hg_xfer_start(&ex->st) < 0) {
    hg_xfer_cleanup(&ex->st);
    ex->finished = true;
    ex->exit_code = HG_CLI_EXIT_ERROR;
  }
}

static void status_later(exec_run *ex, int ms) { ex->st_next = hg_now_ms() + ms; }

/* The streams ended, which is not yet the exit (a command can close its
 * stdout and go on), so ask until it has exited. */
static void status_done(exec_run *ex) {
  hg_xfer *x = &ex->st;
  json_t *j = NULL;
  if (x->result != CURLE_OK || x->status != 200) {
    if (hg_xfer_retryable(x) && ex->st_retries++ < EXEC_RETRIES) {
      status_later(ex, 250 << (ex->st_retries < 4 ? ex->st_retries : 4));
    } else {
      hg_xfer_check(x);
      ex->finished = true;
      ex->exit_code = HG_CLI_EXIT_ERROR;
    }
  } else if (!(j = json_loadb(x->body.data, x->body.len, 0, NULL))) {
    fprintf(stderr, "hangar: the command's status is not JSON\n");
    ex->finished = true;
    ex->exit_code = HG_CLI_EXIT_ERROR;
  } else {
    bool exited = hg_json_bool(j, "exited"), timed_out = hg_json_bool(j, "timed_out");
    int64_t sig = hg_json_int(j, "signal", 0);
    if (exited || timed_out || sig > 0) {
      ex->finished = true;
      ex->exit_code = hg_cli_exit_code(exited, hg_json_int(j, "exit_code", 0), sig, timed_out);
    } else {
      ex->st_wait_ms = ex->st_wait_ms ? ex->st_wait_ms * 2 : 100;
      if (ex->st_wait_ms > EXEC_STATUS_POLL_MAX_MS) ex->st_wait_ms = EXEC_STATUS_POLL_MAX_MS;
      status_later(ex, ex->st_wait_ms);
    }
  }
  json_decref(j);
  hg_xfer_cleanup(x);
}

static void status_tick(exec_run *ex) {
  if (ex->st.done) status_done(ex);
  if (ex->finished || !ex->out.ended || !ex->err.ended || busy(&ex->st)) return;
  if (hg_now_ms() >= ex->st_next) status_ask(ex);
}

/* ---- the loop ------------------------------------------------------------------- */

static int exec_loop(exec_run *ex) {
  while (!ex->finished) {
    bool want_stdin = ex->fwd_stdin && !ex->stdin_done && !ex->in.started;
    struct curl_waitfd wfd = {.fd = STDIN_FILENO, .events = CURL_WAIT_POLLIN};
    if (hg_client_step(ex->c, HG_CLIENT_TICK_MS, want_stdin ? &wfd : NULL, want_stdin) < 0)
      return HG_CLI_EXIT_ERROR;
    if (want_stdin && wfd.revents) stdin_read(ex);
    if (ex->in.done) stdin_done(ex);
    stream_tick(&ex->out);
    stream_tick(&ex->err);
    if (ex->write_errno == EPIPE) return HG_CLI_EXIT_SIGNAL + SIGPIPE; /* as `cmd | head` */
    if (ex->write_errno) {
      fprintf(stderr, "hangar: writing output: %s\n", strerror(ex->write_errno));
      return HG_CLI_EXIT_ERROR;
    }
    if (ex->out.failed || ex->err.failed) return HG_CLI_EXIT_ERROR;
    if (signal_tick(ex)) return HG_CLI_EXIT_SIGNAL + SIGINT;
    status_tick(ex);
  }
  return ex->exit_code;
}

/* ---- starting ------------------------------------------------------------------- */

static json_t *command_body(const hg_cli_args *a, bool stdin_open) {
  json_t *argv = json_array(), *body = json_object();
  for (int i = 0; argv && i < a->n_tail; i++) {
    if (json_array_append_new(argv, json_string(a->tail[i])) < 0) {
      fprintf(stderr, "hangar: exec: argument '%s' is not UTF-8\n", a->tail[i]);
      json_decref(argv);
      argv = NULL;
    }
  }
  if (!argv || !body) goto fail;
  json_object_set_new(body, "cmd", argv);
  argv = NULL;
  if (a->n_env) {
    json_t *env = hg_cmd_kv_object(a->env, a->n_env);
    if (!env) goto fail;
    json_object_set_new(body, "env", env);
  }
  if (a->cwd) json_object_set_new(body, "cwd", json_string(a->cwd));
  if (a->timeout_s) json_object_set_new(body, "timeout_s", json_integer(a->timeout_s));
  json_object_set_new(body, "stdin_open", json_boolean(stdin_open));
  return body;
fail:
  json_decref(argv);
  json_decref(body);
  return NULL;
}

static int start_command(exec_run *ex, const hg_cli_args *a) {
  char path[160];
  json_t *body = command_body(a, ex->fwd_stdin), *resp = NULL;
  if (!body) return -EINVAL;
  hg_path(path, sizeof path, "/v1/sandboxes/%s/commands", ex->sb);
  int rc = hg_client_json(ex->c, "POST", path, body, &resp);
  json_decref(body);
  const char *id = hg_json_str(resp, "id");
  if (rc == 0 && (!id || !hg_cli_id_ok(id))) {
    fprintf(stderr, "hangar: the server's answer names no command\n");
    rc = -EPROTO;
  }
  if (rc == 0) {
    snprintf(ex->cmd, sizeof ex->cmd, "%s", id);
    hg_path(ex->base, sizeof ex->base, "%s/%s", path, ex->cmd);
  }
  json_decref(resp);
  return rc;
}

static void exec_cleanup(exec_run *ex) {
  hg_xfer *xs[] = {&ex->out.x, &ex->err.x, &ex->in, &ex->sig, &ex->st};
  for (size_t i = 0; i < HG_ARRAY_SIZE(xs); i++)
    if (xs[i]->easy) hg_xfer_cleanup(xs[i]);
}

int hg_cmd_exec(hg_client *c, const hg_cli_args *a) {
  exec_run *ex = calloc(1, sizeof *ex);
  if (!ex) return HG_CLI_EXIT_ERROR;
  ex->c = c;
  /* A terminal's stdin is the user typing at us, not input for the
   * command, unless -i says so; a pipe or a file is meant for it. */
  ex->fwd_stdin = a->interactive || !isatty(STDIN_FILENO);
  ex->out = (stream){.ex = ex, .name = "stdout", .fd = STDOUT_FILENO};
  ex->err = (stream){.ex = ex, .name = "stderr", .fd = STDERR_FILENO};

  int rc = hg_cmd_sandbox_id(c, a->args[0], ex->sb);
  if (rc == 0) rc = start_command(ex, a);
  if (rc < 0) {
    free(ex);
    return hg_cmd_exit(rc);
  }
  struct sigaction old[HG_ARRAY_SIZE(forwarded)];
  trap_signals(old);
  int code = HG_CLI_EXIT_ERROR;
  if (stream_start(&ex->out) == 0 && stream_start(&ex->err) == 0) code = exec_loop(ex);
  untrap_signals(old);
  exec_cleanup(ex);
  free(ex);
  return code;
}
