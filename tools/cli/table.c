#include "tools/cli/table.h"

#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "tools/cli/cli.h"

#define TABLE_GAP 3

struct hg_table {
  size_t ncols;
  size_t nrows;  /* data rows; row 0 of cells holds the headers */
  size_t cap;    /* rows the cells array has room for, headers included */
  char **cells;  /* (nrows + 1) * ncols strings */
  bool *right;   /* per column */
};

static char *cell_dup(const char *s) {
  char *c = strdup(s ? s : "-");
  if (c) hg_cli_sanitize(c);
  return c;
}

static int add_row(hg_table *t, const char *const *cells) {
  size_t row = t->nrows + 1; /* the header row counts as one */
  if (t->cells && row >= t->cap) {
    size_t cap = t->cap * 2;
    char **p = realloc(t->cells, cap * t->ncols * sizeof *p);
    if (!p) return -ENOMEM;
    t->cells = p;
    t->cap = cap;
  }
  for (size_t c = 0; c < t->ncols; c++) {
    char *s = cell_dup(cells[c]);
    if (!s) {
      while (c-- > 0) free(t->cells[row * t->ncols + c]);
      return -ENOMEM;
    }
    t->cells[row * t->ncols + c] = s;
  }
  return 0;
}

hg_table *hg_table_new(size_t ncols, const char *const *headers) {
  hg_table *t = calloc(1, sizeof *t);
  if (!t) return NULL;
  t->ncols = ncols;
  t->cap = 16;
  t->cells = calloc(t->cap * ncols, sizeof *t->cells);
  t->right = calloc(ncols, sizeof *t->right);
  if (!t->cells || !t->right) goto fail;
  for (size_t c = 0; c < ncols; c++)
    if (!(t->cells[c] = cell_dup(headers[c]))) goto fail;
  return t;
fail:
  hg_table_free(t);
  return NULL;
}

void hg_table_free(hg_table *t) {
  if (!t) return;
  if (t->cells)
    for (size_t i = 0; i < (t->nrows + 1) * t->ncols; i++) free(t->cells[i]);
  free(t->cells);
  free(t->right);
  free(t);
}

void hg_table_right(hg_table *t, size_t col) {
  if (col < t->ncols) t->right[col] = true;
}

int hg_table_add(hg_table *t, const char *const *cells) {
  int rc = add_row(t, cells);
  if (rc == 0) t->nrows++;
  return rc;
}

size_t hg_table_rows(const hg_table *t) { return t->nrows; }

/* Display width: UTF-8 continuation bytes take no column. */
static size_t width(const char *s) {
  size_t w = 0;
  for (; *s; s++)
    if (((unsigned char)*s & 0xC0) != 0x80) w++;
  return w;
}

static int pad(hg_buf *out, size_t n) {
  for (size_t i = 0; i < n; i++)
    if (hg_buf_append(out, " ", 1) < 0) return -ENOBUFS;
  return 0;
}

static int render_row(const hg_table *t, const size_t *widths, size_t row, hg_buf *out) {
  int rc = 0;
  for (size_t c = 0; c < t->ncols && rc == 0; c++) {
    const char *s = t->cells[row * t->ncols + c];
    size_t fill = widths[c] - width(s);
    bool last = c + 1 == t->ncols;
    if (c > 0) rc = pad(out, TABLE_GAP);
    if (rc == 0 && t->right[c]) rc = pad(out, fill);
    if (rc == 0) rc = hg_buf_append(out, s, strlen(s));
    if (rc == 0 && !t->right[c] && !last) rc = pad(out, fill);
  }
  return rc ? rc : hg_buf_append(out, "\n", 1);
}

int hg_table_render(const hg_table *t, hg_buf *out) {
  size_t *widths = calloc(t->ncols, sizeof *widths);
  if (!widths) return -ENOMEM;
  for (size_t r = 0; r <= t->nrows; r++)
    for (size_t c = 0; c < t->ncols; c++) {
      size_t w = width(t->cells[r * t->ncols + c]);
      if (w > widths[c]) widths[c] = w;
    }
  int rc = 0;
  for (size_t r = 0; r <= t->nrows && rc == 0; r++) rc = render_row(t, widths, r, out);
  free(widths);
  return rc;
}

int hg_table_print(const hg_table *t, FILE *f) {
  hg_buf b;
  hg_buf_init(&b, 64u << 20);
  int rc = hg_table_render(t, &b);
  if (rc == 0 && b.len && fwrite(b.data, 1, b.len, f) != b.len) rc = -EIO;
  hg_buf_free(&b);
  return rc;
}
