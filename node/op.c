/* op: tracked lifecycle operations, journaled one file per operation under
 * state/ops/ so that a restart can tell what was in flight. */
#include "node/op.h"

#include <dirent.h>
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "node/core/err.h"
#include "node/core/log.h"

#define OP_KINDS 16
#define OP_BUCKETS 13

static const double op_bounds[OP_BUCKETS] = {0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1,
                                             2.5,  5,     10,   30,  60,   300};

typedef struct op_hist {
  char kind[16];
  uint64_t buckets[OP_BUCKETS + 1]; /* last: +Inf */
  double sum;
  uint64_t count;
  uint64_t failed;
} op_hist;

typedef struct op {
  char id[HG_ID_MAX];
  char kind[16];
  char sandbox[HG_ID_MAX];
  hg_op_status status;
  int64_t started_wall_ms, finished_wall_ms;
  int64_t started_mono_ns;
  double duration_ms;
  char progress[128];
  json_t *result;
  int err;
  char message[1024]; /* a failed template boot quotes its console */
} op;

struct hg_ops {
  pthread_mutex_t mu;
  /* Taken before mu is released and held across the write, so journal
   * writes land in the order of the changes they record. */
  pthread_mutex_t journal_mu;
  char dir[4096];
  op *ops[HG_OP_KEEP];
  unsigned nops;
  op_hist hist[OP_KINDS];
  unsigned nhist;
};

static const char *status_names[] = {"running", "succeeded", "failed"};

static json_t *op_json(const op *o) {
  char started[32], finished[32];
  hg_iso_time(o->started_wall_ms, started);
  json_t *j = json_pack("{s:s, s:s, s:s, s:s, s:s}", "id", o->id, "kind", o->kind,
                        "sandbox", o->sandbox, "status", status_names[o->status],
                        "started_at", started);
  if (o->progress[0]) json_object_set_new(j, "progress", json_string(o->progress));
  if (o->status == HG_OP_RUNNING) return j;
  hg_iso_time(o->finished_wall_ms, finished);
  json_object_set_new(j, "finished_at", json_string(finished));
  json_object_set_new(j, "duration_ms", json_real(o->duration_ms));
  if (o->status == HG_OP_SUCCEEDED) {
    json_object_set(j, "result", o->result ? o->result : json_object());
    if (!o->result) json_decref(json_object_get(j, "result"));
  } else {
    hg_err_class cls = hg_err_classify(o->err);
    json_object_set_new(j, "error", json_pack("{s:s, s:s}", "code", cls.code,
                                              "message", o->message));
    /* what a failed operation did do (a suspend that replicated in part) */
    if (o->result) json_object_set(j, "result", o->result);
  }
  return j;
}

/* The journal text of an operation; taken under ops->mu, written outside
 * it so that a slow fsync never stalls readers of the table (the API polls
 * operation status from the event loop). */
static char *op_journal_text(const op *o) {
  json_t *j = op_json(o);
  json_object_set_new(j, "errno", json_integer(o->err));
  char *text = json_dumps(j, JSON_COMPACT);
  json_decref(j);
  return text;
}

/* Called with ops->mu held; releases it and writes the text. */
static void op_write(hg_ops *ops, const char *id, char *text) {
  pthread_mutex_lock(&ops->journal_mu);
  pthread_mutex_unlock(&ops->mu);
  char path[4200];
  if (text && hg_path(path, sizeof path, "%s/%s.json", ops->dir, id) == 0) {
    int rc = hg_write_file_atomic(path, text, strlen(text));
    if (rc < 0) hg_log_error("op.persist", "op=%s err=\"%s\"", id, hg_err_str(rc));
  }
  free(text);
  pthread_mutex_unlock(&ops->journal_mu);
}

/* Only at open, before any other thread has the table. */
static void op_persist(hg_ops *ops, const op *o) {
  pthread_mutex_lock(&ops->mu);
  op_write(ops, o->id, op_journal_text(o));
}

static void op_free(op *o) {
  if (!o) return;
  json_decref(o->result);
  free(o);
}

/* Loads one journaled operation; one that was running when the daemon died
 * is failed now, and written back so. */
static op *op_load(hg_ops *ops, const char *path) {
  char *text;
  if (hg_read_file(path, 1 << 20, &text, NULL) < 0) return NULL;
  json_t *j = json_loads(text, 0, NULL);
  free(text);
  if (!j) return NULL;
  op *o = calloc(1, sizeof *o);
  const char *id = json_string_value(json_object_get(j, "id"));
  const char *kind = json_string_value(json_object_get(j, "kind"));
  const char *sb = json_string_value(json_object_get(j, "sandbox"));
  const char *st = json_string_value(json_object_get(j, "status"));
  if (!o || !hg_id_valid("op", id) || !kind || !sb || !st) {
    free(o);
    json_decref(j);
    return NULL;
  }
  snprintf(o->id, sizeof o->id, "%s", id);
  snprintf(o->kind, sizeof o->kind, "%s", kind);
  snprintf(o->sandbox, sizeof o->sandbox, "%s", sb);
  o->started_wall_ms = hg_iso_parse(json_string_value(json_object_get(j, "started_at")));
  o->finished_wall_ms = hg_iso_parse(json_string_value(json_object_get(j, "finished_at")));
  o->duration_ms = json_real_value(json_object_get(j, "duration_ms"));
  if (strcmp(st, "succeeded") == 0) {
    o->status = HG_OP_SUCCEEDED;
    o->result = json_incref(json_object_get(j, "result"));
  } else if (strcmp(st, "failed") == 0) {
    o->status = HG_OP_FAILED;
    o->err = (int)json_integer_value(json_object_get(j, "errno"));
    const char *msg = json_string_value(
        json_object_get(json_object_get(j, "error"), "message"));
    snprintf(o->message, sizeof o->message, "%s", msg ? msg : "");
    o->result = json_incref(json_object_get(j, "result"));
  } else {
    o->status = HG_OP_FAILED;
    o->err = -EINTR;
    o->finished_wall_ms = hg_wall_ns() / 1000000;
    snprintf(o->message, sizeof o->message, "interrupted by daemon restart");
    op_persist(ops, o);
  }
  json_decref(j);
  return o;
}

static int by_start(const void *a, const void *b) {
  const op *x = *(op *const *)a, *y = *(op *const *)b;
  return (x->started_wall_ms > y->started_wall_ms) - (x->started_wall_ms < y->started_wall_ms);
}

static void ops_load_all(hg_ops *ops) {
  DIR *d = opendir(ops->dir);
  if (!d) return;
  struct dirent *e;
  size_t n = 0, cap = 64;
  op **all = malloc(cap * sizeof *all);
  while (all && (e = readdir(d))) {
    size_t len = strlen(e->d_name);
    if (len < 6 || strcmp(e->d_name + len - 5, ".json") != 0) continue;
    char path[4400];
    if (hg_path(path, sizeof path, "%s/%s", ops->dir, e->d_name) < 0) continue;
    op *o = op_load(ops, path);
    if (!o) continue;
    if (n == cap) {
      op **grown = realloc(all, 2 * cap * sizeof *all);
      if (!grown) {
        op_free(o);
        break;
      }
      all = grown;
      cap *= 2;
    }
    all[n++] = o;
  }
  closedir(d);
  if (!all) return;
  qsort(all, n, sizeof *all, by_start);
  /* Keep the newest; forget (and unlink) the rest. */
  size_t skip = n > HG_OP_KEEP / 2 ? n - HG_OP_KEEP / 2 : 0;
  for (size_t i = 0; i < n; i++) {
    if (i < skip) {
      char path[4200];
      if (hg_path(path, sizeof path, "%s/%s.json", ops->dir, all[i]->id) == 0) unlink(path);
      op_free(all[i]);
    } else {
      ops->ops[ops->nops++] = all[i];
    }
  }
  free(all);
}

int hg_ops_open(const char *state_dir, hg_ops **out) {
  hg_ops *ops = calloc(1, sizeof *ops);
  if (!ops) return -ENOMEM;
  int rc = hg_path(ops->dir, sizeof ops->dir, "%s/ops", state_dir);
  if (rc == 0) rc = hg_mkdir_p(ops->dir, 0700);
  if (rc < 0) {
    free(ops);
    return rc;
  }
  pthread_mutex_init(&ops->mu, NULL);
  pthread_mutex_init(&ops->journal_mu, NULL);
  ops_load_all(ops);
  *out = ops;
  return 0;
}

void hg_ops_close(hg_ops *ops) {
  if (!ops) return;
  for (unsigned i = 0; i < ops->nops; i++) op_free(ops->ops[i]);
  pthread_mutex_destroy(&ops->mu);
  pthread_mutex_destroy(&ops->journal_mu);
  free(ops);
}

static op *find(hg_ops *ops, const char *id) {
  for (unsigned i = 0; i < ops->nops; i++)
    if (strcmp(ops->ops[i]->id, id) == 0) return ops->ops[i];
  return NULL;
}

/* Makes room for one more: forgets the oldest finished operation. */
static int evict_one(hg_ops *ops) {
  for (unsigned i = 0; i < ops->nops; i++) {
    if (ops->ops[i]->status == HG_OP_RUNNING) continue;
    char path[4200];
    if (hg_path(path, sizeof path, "%s/%s.json", ops->dir, ops->ops[i]->id) == 0)
      unlink(path);
    op_free(ops->ops[i]);
    memmove(&ops->ops[i], &ops->ops[i + 1], (ops->nops - i - 1) * sizeof ops->ops[0]);
    ops->nops--;
    return 0;
  }
  return -EAGAIN;
}

static void hist_add(hg_ops *ops, const op *o);

/* A new operation in the table, journaled; with done, one that already
 * succeeded with result (stolen), in the same one write. */
static int op_start(hg_ops *ops, const char *kind, const char *sandbox, bool done,
                    json_t *result, char id[HG_ID_MAX]) {
  op *o = calloc(1, sizeof *o);
  if (!o) return -ENOMEM;
  int rc = hg_id_new("op", o->id);
  if (rc < 0) {
    free(o);
    return rc;
  }
  snprintf(o->kind, sizeof o->kind, "%s", kind);
  snprintf(o->sandbox, sizeof o->sandbox, "%s", sandbox ? sandbox : "");
  o->status = HG_OP_RUNNING;
  o->started_wall_ms = hg_wall_ns() / 1000000;
  o->started_mono_ns = hg_now_ns();
  if (done) {
    o->status = HG_OP_SUCCEEDED;
    o->finished_wall_ms = o->started_wall_ms;
    o->result = result;
    result = NULL;
  }
  pthread_mutex_lock(&ops->mu);
  if (ops->nops == HG_OP_KEEP && evict_one(ops) < 0) {
    pthread_mutex_unlock(&ops->mu);
    op_free(o);
    json_decref(result);
    return -EAGAIN;
  }
  ops->ops[ops->nops++] = o;
  memcpy(id, o->id, HG_ID_MAX);
  if (done) hist_add(ops, o);
  hg_log_info(done ? "op.done" : "op.begin", "op=%s kind=%s sandbox=%s", o->id, kind,
              o->sandbox);
  op_write(ops, id, op_journal_text(o));
  return 0;
}

int hg_op_begin(hg_ops *ops, const char *kind, const char *sandbox, char id[HG_ID_MAX]) {
  return op_start(ops, kind, sandbox, false, NULL, id);
}

int hg_op_done(hg_ops *ops, const char *kind, const char *sandbox, json_t *result,
               char id[HG_ID_MAX]) {
  return op_start(ops, kind, sandbox, true, result, id);
}

void hg_op_progress(hg_ops *ops, const char *id, const char *text) {
  pthread_mutex_lock(&ops->mu);
  op *o = find(ops, id);
  if (o) snprintf(o->progress, sizeof o->progress, "%s", text);
  pthread_mutex_unlock(&ops->mu);
}

static op_hist *hist_for(hg_ops *ops, const char *kind) {
  for (unsigned i = 0; i < ops->nhist; i++)
    if (strcmp(ops->hist[i].kind, kind) == 0) return &ops->hist[i];
  if (ops->nhist == OP_KINDS) return NULL;
  op_hist *h = &ops->hist[ops->nhist++];
  snprintf(h->kind, sizeof h->kind, "%s", kind);
  return h;
}

static void hist_add(hg_ops *ops, const op *o) {
  op_hist *h = hist_for(ops, o->kind);
  if (!h) return;
  double s = o->duration_ms / 1000.0;
  int b = 0;
  while (b < OP_BUCKETS && s > op_bounds[b]) b++;
  h->buckets[b]++;
  h->sum += s;
  h->count++;
  if (o->status == HG_OP_FAILED) h->failed++;
}

void hg_op_finish(hg_ops *ops, const char *id, int rc, json_t *result) {
  pthread_mutex_lock(&ops->mu);
  op *o = find(ops, id);
  if (!o) {
    pthread_mutex_unlock(&ops->mu);
    json_decref(result);
    return;
  }
  o->finished_wall_ms = hg_wall_ns() / 1000000;
  o->duration_ms = (double)(hg_now_ns() - o->started_mono_ns) / 1e6;
  o->progress[0] = '\0';
  if (rc == 0) {
    o->status = HG_OP_SUCCEEDED;
    o->result = result;
  } else {
    o->status = HG_OP_FAILED;
    o->err = rc;
    const char *msg = result ? json_string_value(json_object_get(result, "message")) : NULL;
    snprintf(o->message, sizeof o->message, "%s", msg ? msg : hg_err_str(rc));
    if (result) json_object_del(result, "message"); /* it is the error's message */
    o->result = result && json_object_size(result) ? result : NULL;
    if (!o->result) json_decref(result);
  }
  hist_add(ops, o);
  char *text = op_journal_text(o);
  hg_log_info("op.finish", "op=%s kind=%s sandbox=%s status=%s ms=%.1f%s%s", o->id,
              o->kind, o->sandbox, status_names[o->status], o->duration_ms,
              rc ? " err=" : "", rc ? hg_err_str(rc) : "");
  op_write(ops, id, text);
}

int hg_op_describe(hg_ops *ops, const char *id, json_t **out) {
  pthread_mutex_lock(&ops->mu);
  op *o = find(ops, id);
  if (o) *out = op_json(o);
  pthread_mutex_unlock(&ops->mu);
  return o ? 0 : -ENOENT;
}

int hg_op_status_of(hg_ops *ops, const char *id, hg_op_status *out) {
  pthread_mutex_lock(&ops->mu);
  op *o = find(ops, id);
  if (o) *out = o->status;
  pthread_mutex_unlock(&ops->mu);
  return o ? 0 : -ENOENT;
}

json_t *hg_op_list(hg_ops *ops, const char *sandbox) {
  json_t *arr = json_array();
  pthread_mutex_lock(&ops->mu);
  for (unsigned i = 0; i < ops->nops; i++)
    if (!sandbox || strcmp(ops->ops[i]->sandbox, sandbox) == 0)
      json_array_append_new(arr, op_json(ops->ops[i]));
  pthread_mutex_unlock(&ops->mu);
  return arr;
}

void hg_ops_metrics(hg_ops *ops, hg_op_metric_fn fn, void *ud) {
  pthread_mutex_lock(&ops->mu);
  for (unsigned i = 0; i < ops->nhist; i++) {
    const op_hist *h = &ops->hist[i];
    fn(ud, h->kind, op_bounds, h->buckets, OP_BUCKETS + 1, h->sum, h->count, h->failed);
  }
  pthread_mutex_unlock(&ops->mu);
}
