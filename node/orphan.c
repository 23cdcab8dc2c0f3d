/* orphan: placing, listing and deleting fenced copies. See orphan.h. */
#include "node/orphan.h"

#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "node/core/err.h"
#include "node/core/log.h"
#include "node/core/util.h"

/* The dir orphans/ itself must be fsynced too: the rename's own fsyncs
 * cover the parents of source and target, and orphans/<id>/ may be new. */
static int sync_orphans_dir(hg_store *s) {
  char dir[4096];
  int rc = hg_store_abs(s, "orphans", dir, sizeof dir);
  return rc < 0 ? rc : hg_fsync_path(dir);
}

/* "<id>/<epoch>" for dup 0, else "<id>/<epoch>.<dup>". */
static int name_of(const char *id, uint64_t epoch, unsigned dup,
                   char name[HG_ORPHAN_NAME_MAX]) {
  if (dup == 0)
    return hg_path(name, HG_ORPHAN_NAME_MAX, "%s/%llu", id, (unsigned long long)epoch);
  return hg_path(name, HG_ORPHAN_NAME_MAX, "%s/%llu.%u", id, (unsigned long long)epoch,
                 dup);
}

/* 0 when orphans/<name> is free, 1 when taken, or a negative errno. */
static int taken(hg_store *s, const char *name) {
  char rel[96], path[4096];
  struct stat st;
  int rc = hg_path(rel, sizeof rel, "orphans/%s", name);
  if (rc == 0) rc = hg_store_abs(s, rel, path, sizeof path);
  if (rc < 0) return rc;
  if (lstat(path, &st) == 0) return 1;
  return errno == ENOENT ? 0 : -errno;
}

int hg_orphan_place(hg_store *s, const char *src, const char *id, uint64_t epoch,
                    char name[HG_ORPHAN_NAME_MAX]) {
  char nm[HG_ORPHAN_NAME_MAX], rel[96];
  int rc = -EEXIST;
  for (unsigned dup = 0; dup <= HG_ORPHAN_DUP_MAX && rc == -EEXIST; dup++) {
    rc = name_of(id, epoch, dup, nm);
    if (rc == 0) rc = taken(s, nm);
    if (rc == 1) rc = -EEXIST;
  }
  if (rc == 0 && !hg_orphan_name_valid(nm))
    rc = -EINVAL; /* id or epoch 0: a caller's bug */
  if (rc == 0) rc = hg_path(rel, sizeof rel, "orphans/%s", nm);
  if (rc == 0) rc = hg_store_move(s, src, rel);
  if (rc == 0) rc = sync_orphans_dir(s);
  /* DESIGN §3: an orphan is read-only, kept as the fence found it. */
  if (rc == 0) rc = hg_store_set_readonly(s, rel, true);
  if (rc < 0) {
    hg_log_error("orphan.place", "sandbox=%s epoch=%llu from=%s err=\"%s\"", id,
                 (unsigned long long)epoch, src, hg_err_str(rc));
    return rc;
  }
  memcpy(name, nm, sizeof nm);
  return 0;
}

/* --- walking orphans/ ------------------------------------------------------------ */

typedef void (*orphan_fn)(void *ud, hg_store *s, const char *name);

/* Calls fn for every orphans/<id>/<tail> whose name is valid. */
static void walk_one(hg_store *s, const char *root, const char *id, orphan_fn fn,
                     void *ud) {
  char dir[4096], name[HG_ORPHAN_NAME_MAX];
  if (hg_path(dir, sizeof dir, "%s/%s", root, id) < 0) return;
  DIR *d = opendir(dir);
  if (!d) return;
  struct dirent *e;
  while ((e = readdir(d)))
    if (hg_path(name, sizeof name, "%s/%s", id, e->d_name) == 0 &&
        hg_orphan_name_valid(name))
      fn(ud, s, name);
  closedir(d);
}

static void walk(hg_store *s, orphan_fn fn, void *ud) {
  char root[4096];
  if (hg_store_abs(s, "orphans", root, sizeof root) < 0) return;
  DIR *d = opendir(root);
  if (!d) return;
  struct dirent *e;
  while ((e = readdir(d)))
    if (hg_id_valid("sb", e->d_name)) walk_one(s, root, e->d_name, fn, ud);
  closedir(d);
}

/* --- listing ------------------------------------------------------------------------ */

/* The record of orphans/<name>, or NULL when it is missing or not JSON. */
static json_t *record_read(hg_store *s, const char *name) {
  char rel[128], path[4096], *text;
  if (hg_path(rel, sizeof rel, "orphans/%s/" HG_ORPHAN_RECORD, name) < 0 ||
      hg_store_abs(s, rel, path, sizeof path) < 0 ||
      hg_read_file(path, HG_ORPHAN_RECORD_MAX, &text, NULL) < 0)
    return NULL;
  json_t *j = json_loads(text, 0, NULL);
  free(text);
  if (j && !json_is_object(j)) {
    json_decref(j);
    j = NULL;
  }
  return j;
}

/* One listing entry: what the name says, and the record's fields of the
 * expected types (the record sat on disk: trust nothing of its shape). */
static json_t *entry_of(hg_store *s, const char *name) {
  char id[HG_ORPHAN_NAME_MAX];
  uint64_t epoch;
  if (hg_orphan_name_split(name, id, &epoch) < 0) return NULL;
  json_t *o =
      json_pack("{s:s,s:s,s:I}", "name", name, "id", id, "epoch", (json_int_t)epoch);
  json_t *rec = record_read(s, name);
  static const char *const strs[] = {"reason", "orphaned_at", "state", "template"};
  static const char *const ints[] = {"gen", "own_epoch"};
  for (size_t i = 0; o && rec && i < HG_ARRAY_SIZE(strs); i++) {
    json_t *v = json_object_get(rec, strs[i]);
    if (json_is_string(v)) json_object_set(o, strs[i], v);
  }
  for (size_t i = 0; o && rec && i < HG_ARRAY_SIZE(ints); i++) {
    json_t *v = json_object_get(rec, ints[i]);
    if (json_is_integer(v)) json_object_set(o, ints[i], v);
  }
  if (o && !rec) json_object_set_new(o, "record", json_string("unreadable"));
  json_decref(rec);
  return o;
}

static void list_add(void *ud, hg_store *s, const char *name) {
  json_t *o = entry_of(s, name);
  if (o) json_array_append_new(ud, o);
}

static int by_name(const void *a, const void *b) {
  const char *x = json_string_value(json_object_get(*(json_t *const *)a, "name"));
  const char *y = json_string_value(json_object_get(*(json_t *const *)b, "name"));
  return strcmp(x ? x : "", y ? y : "");
}

json_t *hg_orphan_list(hg_store *s) {
  json_t *arr = json_array();
  if (!arr) return NULL;
  walk(s, list_add, arr);
  /* readdir's order is the filesystem's: sort, so a listing reads the same twice. */
  size_t n = json_array_size(arr);
  json_t **items = n ? malloc(n * sizeof *items) : NULL;
  if (!items) return arr;
  for (size_t i = 0; i < n; i++) items[i] = json_incref(json_array_get(arr, i));
  qsort(items, n, sizeof *items, by_name);
  json_array_clear(arr);
  for (size_t i = 0; i < n; i++) json_array_append_new(arr, items[i]);
  free(items);
  return arr;
}

static void count_one(void *ud, hg_store *s, const char *name) {
  (void)s;
  (void)name;
  (*(unsigned *)ud)++;
}

unsigned hg_orphan_count(hg_store *s) {
  unsigned n = 0;
  walk(s, count_one, &n);
  return n;
}

/* --- deleting ----------------------------------------------------------------------- */

/* orphans/<id>/ goes with its last orphan; one that still holds some stays. */
static void remove_id_dir(hg_store *s, const char *id) {
  char rel[64], path[4096];
  if (hg_path(rel, sizeof rel, "orphans/%s", id) < 0 ||
      hg_store_abs(s, rel, path, sizeof path) < 0)
    return;
  if (rmdir(path) == 0) sync_orphans_dir(s);
}

int hg_orphan_delete(hg_store *s, const char *name) {
  char id[HG_ORPHAN_NAME_MAX], rel[96];
  uint64_t epoch;
  if (hg_orphan_name_split(name, id, &epoch) < 0) return -EINVAL;
  int rc = hg_path(rel, sizeof rel, "orphans/%s", name);
  if (rc < 0) return rc;
  if (!hg_store_is_subvol(s, rel)) return -ENOENT;
  rc = hg_store_subvol_delete(s, rel);
  if (rc < 0) return rc;
  remove_id_dir(s, id);
  hg_log_info("orphan.deleted", "orphan=%s", name);
  return 0;
}
