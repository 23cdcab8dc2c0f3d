/* adopted: the records of sandboxes adopted lazily (hg_sandbox_adopt), in
 * <data>/adopted/. A failover adopts hundreds at once; a record each, with
 * its two fsyncs (the file, the directory), made those fsyncs the pace of
 * a mass failover (docs/benchmarks.md). So records are group-committed:
 * an adopt stages its record and waits; one of the waiters writes every
 * record staged so far as one file, b-<seq>.json ({"<id>": {"from",
 * "epoch"}, ...}), written whole and renamed into place (two fsyncs for
 * the batch), and all of them return. A record goes (a copy into place, a
 * disown, a delete) by rewriting its batch without it, or removing the
 * batch when it was the last. Files sb-<id>.json, one record each
 * ({"sandbox", "from", "epoch"}), are what earlier versions wrote: read
 * at start, removed the same way.
 *
 * Every file here is written whole and renamed into place: a crash leaves
 * each file as it was or as it became. An id in two files (a crash between
 * a re-adoption and the old record's removal) keeps its highest epoch. */
#include "node/adopted.h"

#include <dirent.h>
#include <errno.h>
#include <inttypes.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "node/core/err.h"
#include "node/core/log.h"
#include "node/core/util.h"

#define RECORDS_FILE_MAX (8u << 20) /* bytes of one batch file read */
#define LEGACY (-1)                  /* where[id] of an sb-<id>.json */

/* Records staged together; the adopts that staged them wait for done. */
typedef struct batch {
  json_t *recs; /* id -> {"from", "epoch"} */
  int rc;
  bool done;
  unsigned refs;
} batch;

struct hg_adopted {
  char dir[4096];
  pthread_mutex_t mu;
  pthread_cond_t cv; /* a batch is done */
  batch *cur;        /* staging, under mu */
  bool writing;      /* a batch is being written, under mu */
  uint64_t next_seq; /* under mu */
  json_t *files;     /* "<seq>" -> {id: record} as on disk, under mu */
  json_t *where;     /* id -> seq (LEGACY: sb-<id>.json), under mu */
  pthread_mutex_t rm_mu; /* rewrites of a file, one at a time; before mu */
};

static int file_path(const hg_adopted *a, int64_t seq, const char *id, char out[4096]) {
  return seq == LEGACY ? hg_path(out, 4096, "%s/%s.json", a->dir, id)
                       : hg_path(out, 4096, "%s/b-%" PRId64 ".json", a->dir, seq);
}

/* File seq's records in an index's files ({"<seq>": {id: record}}), or NULL. */
static json_t *file_recs(json_t *files, int64_t seq) {
  char key[32];
  snprintf(key, sizeof key, "%" PRId64, seq);
  return json_object_get(files, key);
}

static json_t *record_new(const char *from, uint64_t epoch) {
  return json_pack("{s:s,s:I}", "from", from, "epoch", (json_int_t)epoch);
}

/* A record as read from disk: its generation and epoch, or false. */
static bool record_ok(json_t *rec, const char **from, uint64_t *epoch) {
  *from = json_string_value(json_object_get(rec, "from"));
  json_int_t e = json_integer_value(json_object_get(rec, "epoch"));
  *epoch = e > 0 ? (uint64_t)e : 0;
  return *from && **from && strlen(*from) < 96 && *epoch > 0;
}

/* Removes id from file seq's records (mu held). */
static void drop_locked(hg_adopted *a, int64_t seq, const char *id) {
  json_t *file = file_recs(a->files, seq);
  json_object_del(file, id);
  if (file && seq != LEGACY && json_object_size(file) == 0) {
    char key[32];
    snprintf(key, sizeof key, "%" PRId64, seq);
    json_object_del(a->files, key);
  }
}

/* Enters (mu held, or before anyone shares a) record rec of id from file
 * seq. An id already in another file keeps its higher epoch; the loser
 * leaves the index and *stale names its file (0: none), to be written
 * again without it (file_sync). */
static void index_record(hg_adopted *a, int64_t seq, const char *id, json_t *rec,
                         int64_t *stale) {
  char key[32];
  const char *f;
  uint64_t e_new, e_old;
  *stale = 0;
  json_t *was = json_object_get(a->where, id);
  if (was) {
    int64_t old = json_integer_value(was);
    record_ok(json_object_get(file_recs(a->files, old), id), &f, &e_old);
    record_ok(rec, &f, &e_new);
    if (e_old >= e_new) {
      *stale = seq;
      return;
    }
    drop_locked(a, old, id);
    *stale = old;
  }
  json_t *file = file_recs(a->files, seq);
  if (!file) {
    snprintf(key, sizeof key, "%" PRId64, seq);
    json_object_set_new(a->files, key, file = json_object());
  }
  json_object_set(file, id, rec);
  json_object_set_new(a->where, id, json_integer(seq));
}

/* Makes file seq on disk what the index says it holds (rm_mu held): id's
 * own file (LEGACY) or a batch with no record left goes; a batch with
 * records is written again whole. durable: the removal is synced too. */
static int file_sync(hg_adopted *a, int64_t seq, const char *id, bool durable) {
  char path[4096];
  int rc = file_path(a, seq, id, path);
  if (rc < 0) return rc;
  pthread_mutex_lock(&a->mu);
  json_t *file = file_recs(a->files, seq);
  json_t *rest = seq != LEGACY && json_object_size(file) ? json_deep_copy(file) : NULL;
  bool keep_legacy = seq == LEGACY && json_object_get(file, id);
  pthread_mutex_unlock(&a->mu);
  if (keep_legacy) return 0;
  if (rest) {
    char *text = json_dumps(rest, JSON_COMPACT | JSON_SORT_KEYS);
    rc = text ? hg_write_file_atomic(path, text, strlen(text)) : -ENOMEM;
    free(text);
    json_decref(rest);
  } else {
    rc = unlink(path) < 0 && errno != ENOENT ? -errno : 0;
    if (rc == 0 && durable) rc = hg_fsync_path(a->dir);
  }
  if (rc < 0)
    hg_log_warn("sandbox.adopted_write", "path=%s err=\"%s\"", path, hg_err_str(rc));
  return rc;
}

/* ---- open: what is on disk ------------------------------------------------------ */

/* Notes in stale ({id: seq}) a loser index_record named. */
static void stale_note(json_t *stale, const char *id, int64_t seq) {
  if (seq) json_object_set_new(stale, id, json_integer(seq));
}

/* Writes again every file that held a loser (rm_mu held). */
static void stale_sync(hg_adopted *a, json_t *stale) {
  const char *id;
  json_t *o;
  json_object_foreach(stale, id, o) file_sync(a, json_integer_value(o), id, true);
}

/* Reads one file of the dir into the index. */
static void load_file(hg_adopted *a, const char *name, json_t *stale) {
  char path[4096], *text = NULL, id[HG_ID_MAX] = "";
  int64_t seq = LEGACY;
  size_t n = strlen(name);
  unsigned long long s;
  int used = 0;
  if (n < 6 || strcmp(name + n - 5, ".json")) return;
  if (sscanf(name, "b-%llu.json%n", &s, &used) == 1 && (size_t)used == n && s > 0 &&
      s < INT64_MAX)
    seq = (int64_t)s;
  else if (n - 5 < sizeof id)
    snprintf(id, sizeof id, "%.*s", (int)(n - 5), name);
  if (seq == LEGACY && !hg_id_valid("sb", id)) return;
  /* Past every batch named, read or not: a new one never takes its name. */
  if (seq != LEGACY && (uint64_t)seq >= a->next_seq) a->next_seq = (uint64_t)seq + 1;
  if (hg_path(path, sizeof path, "%s/%s", a->dir, name) < 0 ||
      hg_read_file(path, RECORDS_FILE_MAX, &text, NULL) < 0)
    return;
  json_t *j = json_loads(text, 0, NULL);
  free(text);
  if (!json_is_object(j)) {
    hg_log_error("sandbox.adopted_file", "path=%s err=\"not a JSON object: left as it is\"",
                 path);
    json_decref(j);
    return;
  }
  if (seq == LEGACY) { /* {"sandbox", "from", "epoch"} */
    const char *named = json_string_value(json_object_get(j, "sandbox"));
    int64_t lost = 0;
    if (named && !strcmp(named, id)) index_record(a, LEGACY, id, j, &lost);
    stale_note(stale, id, lost);
  } else {
    const char *k;
    json_t *rec;
    json_object_foreach(j, k, rec) {
      int64_t lost = 0;
      if (hg_id_valid("sb", k)) index_record(a, seq, k, rec, &lost);
      stale_note(stale, k, lost);
    }
  }
  json_decref(j);
}

int hg__adopted_open(const char *dir, hg_adopted **out) {
  hg_adopted *a = calloc(1, sizeof *a);
  if (!a) return -ENOMEM;
  int rc = hg_path(a->dir, sizeof a->dir, "%s", dir);
  if (rc < 0) {
    free(a);
    return rc;
  }
  pthread_mutex_init(&a->mu, NULL);
  pthread_mutex_init(&a->rm_mu, NULL);
  pthread_cond_init(&a->cv, NULL);
  a->files = json_object();
  a->where = json_object();
  a->next_seq = 1;
  DIR *d = opendir(a->dir);
  struct dirent *e;
  json_t *stale = json_object();
  while (d && (e = readdir(d))) load_file(a, e->d_name, stale);
  if (d) closedir(d);
  /* A crash between a re-adoption and the old record's removal: the file
   * holding the lower epoch is written again without it. */
  pthread_mutex_lock(&a->rm_mu);
  stale_sync(a, stale);
  pthread_mutex_unlock(&a->rm_mu);
  json_decref(stale);
  *out = a;
  return 0;
}
void hg__adopted_close(hg_adopted *a) {
  if (!a) return;
  json_decref(a->files);
  json_decref(a->where);
  pthread_cond_destroy(&a->cv);
  pthread_mutex_destroy(&a->rm_mu);
  pthread_mutex_destroy(&a->mu);
  free(a);
}

void hg__adopted_each(hg_adopted *a, void (*fn)(void *ud, const char *id, const char *from,
                                                uint64_t epoch),
                      void *ud) {
  pthread_mutex_lock(&a->mu);
  json_t *where = json_deep_copy(a->where), *files = json_deep_copy(a->files);
  pthread_mutex_unlock(&a->mu);
  const char *id;
  json_t *w;
  json_object_foreach(where, id, w) {
    const char *from;
    uint64_t epoch;
    json_t *rec = json_object_get(file_recs(files, json_integer_value(w)), id);
    if (record_ok(rec, &from, &epoch)) fn(ud, id, from, epoch);
    else fn(ud, id, NULL, 0);
  }
  json_decref(where);
  json_decref(files);
}

/* ---- put: group commit ------------------------------------------------------------ */

/* Writes b (mu not held) as the next batch file. */
static int batch_write(hg_adopted *a, batch *b, int64_t seq) {
  char path[4096];
  char *text = json_dumps(b->recs, JSON_COMPACT | JSON_SORT_KEYS);
  int rc = text ? file_path(a, seq, "", path) : -ENOMEM;
  if (rc == 0) rc = hg_write_file_atomic(path, text, strlen(text));
  free(text);
  return rc;
}

/* Writes the staged batch, mu held on entry and exit. A record that
 * replaced an older one of its id elsewhere (a re-adoption whose old
 * record a crash kept) has that file written again without it. */
static void batch_lead(hg_adopted *a) {
  batch *b = a->cur;
  a->cur = NULL;
  a->writing = true;
  int64_t seq = (int64_t)a->next_seq++;
  pthread_mutex_unlock(&a->mu);
  int64_t t0 = hg_now_ms();
  int rc = batch_write(a, b, seq);
  /* What a failover's adopts wait for: one line a batch, not a record. */
  hg_log_info("sandbox.adopted_batch", "seq=%" PRId64 " records=%zu ms=%lld rc=%d", seq,
              json_object_size(b->recs), (long long)(hg_now_ms() - t0), rc);
  pthread_mutex_lock(&a->mu);
  json_t *stale = json_object();
  const char *id;
  json_t *rec;
  json_object_foreach(b->recs, id, rec) {
    int64_t lost = 0;
    if (rc == 0) index_record(a, seq, id, rec, &lost);
    stale_note(stale, id, lost);
  }
  b->rc = rc;
  b->done = true;
  a->writing = false;
  pthread_cond_broadcast(&a->cv);
  if (json_object_size(stale)) {
    pthread_mutex_unlock(&a->mu);
    pthread_mutex_lock(&a->rm_mu);
    stale_sync(a, stale);
    pthread_mutex_unlock(&a->rm_mu);
    pthread_mutex_lock(&a->mu);
  }
  json_decref(stale);
}

int hg__adopted_put(hg_adopted *a, const char *id, const char *from, uint64_t epoch) {
  json_t *rec = record_new(from, epoch);
  if (!rec) return -ENOMEM;
  pthread_mutex_lock(&a->mu);
  if (!a->cur && (a->cur = calloc(1, sizeof *a->cur)) && !(a->cur->recs = json_object())) {
    free(a->cur);
    a->cur = NULL;
  }
  batch *b = a->cur;
  if (!b) {
    pthread_mutex_unlock(&a->mu);
    json_decref(rec);
    return -ENOMEM;
  }
  json_object_set_new(b->recs, id, rec);
  b->refs++;
  /* One writer at a time; whoever waits when none writes leads the next. */
  while (!b->done) {
    if (!a->writing) batch_lead(a);
    else pthread_cond_wait(&a->cv, &a->mu);
  }
  int rc = b->rc;
  if (--b->refs == 0) {
    json_decref(b->recs);
    free(b);
  }
  pthread_mutex_unlock(&a->mu);
  return rc;
}

/* ---- remove ------------------------------------------------------------------------- */

int hg__adopted_remove(hg_adopted *a, const char *id, bool durable) {
  pthread_mutex_lock(&a->rm_mu);
  pthread_mutex_lock(&a->mu);
  json_t *w = json_object_get(a->where, id);
  int64_t seq = w ? json_integer_value(w) : LEGACY;
  if (w) {
    drop_locked(a, seq, id);
    json_object_del(a->where, id);
  }
  pthread_mutex_unlock(&a->mu);
  /* Not indexed: an sb-<id>.json another version may have left, if any. */
  int rc = file_sync(a, seq, id, durable);
  pthread_mutex_unlock(&a->rm_mu);
  return rc;
}
