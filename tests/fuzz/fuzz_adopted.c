/* libFuzzer target: the adoption records read from disk (node/adopted.c).
 * The input is up to three files, split at NUL bytes: two batches
 * (b-1.json, b-7.json) and one record of the earlier version
 * (sb-0000000000000001.json), so ids in two files meet. Whatever they
 * hold, the records read are well formed or flagged (from NULL), each id
 * once; reading again after the first open's repairs gives the same
 * records; a record put is read back; removing every record leaves none. */
#include <dirent.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "node/adopted.h"
#include "node/core/log.h"
#include "node/core/util.h"

#define MAX_RECS 4096
#define PUT_ID "sb-fffffffffffffff0"
#define PUT_EPOCH ((uint64_t)1 << 62)

typedef struct recs {
  char *line[MAX_RECS]; /* "<id> <from> <epoch>" */
  unsigned n;
} recs;

static char dir[64];

static void check(int ok) {
  if (!ok) abort();
}

static void collect(void *ud, const char *id, const char *from, uint64_t epoch) {
  recs *r = ud;
  check(r->n < MAX_RECS);
  check(hg_id_valid("sb", id));
  check(from ? epoch > 0 && *from && strlen(from) < 96 : epoch == 0);
  char *line = NULL;
  check(asprintf(&line, "%s %s %llu", id, from ? from : "-", (unsigned long long)epoch) > 0);
  r->line[r->n++] = line;
}

static int cmp(const void *a, const void *b) {
  return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The records dir holds, sorted, each id once. */
static void read_all(recs *r) {
  hg_adopted *a;
  r->n = 0;
  check(hg__adopted_open(dir, &a) == 0);
  hg__adopted_each(a, collect, r);
  hg__adopted_close(a);
  qsort(r->line, r->n, sizeof r->line[0], cmp);
  for (unsigned i = 1; i < r->n; i++) /* valid ids are all as long as PUT_ID */
    check(strncmp(r->line[i], r->line[i - 1], strlen(PUT_ID)) != 0);
}

static void recs_free(recs *r) {
  for (unsigned i = 0; i < r->n; i++) free(r->line[i]);
  r->n = 0;
}

static void dir_empty(void) {
  DIR *d = opendir(dir);
  struct dirent *e;
  char path[512];
  while (d && (e = readdir(d)))
    if (e->d_name[0] != '.') {
      snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
      unlink(path);
    }
  if (d) closedir(d);
}

static void dir_remove(void) {
  dir_empty();
  rmdir(dir);
}

static void write_file(const char *name, const uint8_t *data, size_t len) {
  char path[512];
  snprintf(path, sizeof path, "%s/%s", dir, name);
  FILE *f = fopen(path, "w");
  check(f != NULL);
  check(fwrite(data, 1, len, f) == len || len == 0);
  fclose(f);
}

static void remove_all(const recs *r) {
  hg_adopted *a;
  check(hg__adopted_open(dir, &a) == 0);
  for (unsigned i = 0; i < r->n; i++) {
    char id[64];
    snprintf(id, sizeof id, "%.*s", (int)strcspn(r->line[i], " "), r->line[i]);
    check(hg__adopted_remove(a, id, false) == 0);
  }
  hg__adopted_close(a);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  static const char *const names[] = {"b-1.json", "b-7.json", "sb-0000000000000001.json"};
  static recs first, again;
  if (!dir[0]) {
    hg_log_set_fd(open("/dev/null", O_WRONLY)); /* files that do not read are logged */
    snprintf(dir, sizeof dir, "/dev/shm/fuzz-adopted.XXXXXX");
    check(mkdtemp(dir) != NULL);
    atexit(dir_remove);
  }
  dir_empty();
  for (unsigned f = 0; f < 3 && size > 0; f++) {
    const uint8_t *end = memchr(data, 0, size);
    size_t len = end ? (size_t)(end - data) : size;
    write_file(names[f], data, len);
    data += len + (end != NULL);
    size -= len + (end != NULL);
  }
  read_all(&first);
  read_all(&again);
  check(first.n == again.n);
  for (unsigned i = 0; i < first.n; i++) check(!strcmp(first.line[i], again.line[i]));
  recs_free(&again);

  hg_adopted *a;
  check(hg__adopted_open(dir, &a) == 0);
  check(hg__adopted_put(a, PUT_ID, "replicas/fuzz/1", PUT_EPOCH) == 0);
  hg__adopted_close(a);
  read_all(&again);
  unsigned put = 0;
  for (unsigned i = 0; i < again.n; i++) {
    unsigned long long e = 0;
    if (!strncmp(again.line[i], PUT_ID " ", sizeof PUT_ID) &&
        sscanf(strrchr(again.line[i], ' '), " %llu", &e) == 1 && e >= PUT_EPOCH)
      put++;
  }
  check(put == 1);

  remove_all(&again);
  recs_free(&again);
  read_all(&again);
  check(again.n == 0);
  recs_free(&first);
  return 0;
}
