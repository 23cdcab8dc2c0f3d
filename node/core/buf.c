#include "node/core/buf.h"

#include <errno.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void hg_buf_init(hg_buf *b, size_t max) {
  b->data = NULL;
  b->len = b->cap = 0;
  b->max = max;
}

void hg_buf_free(hg_buf *b) {
  free(b->data);
  hg_buf_init(b, b->max);
}

static int reserve(hg_buf *b, size_t extra) {
  /* The NUL takes a byte beyond len: with max near SIZE_MAX, need (and the
   * doubling below) would wrap to a tiny allocation or loop forever. */
  if (extra > b->max || b->len > b->max - extra || b->len + extra == SIZE_MAX)
    return -ENOBUFS;
  size_t need = b->len + extra + 1; /* room for a NUL */
  if (need <= b->cap) return 0;
  size_t cap = b->cap ? b->cap : 256;
  while (cap < need) cap = cap > SIZE_MAX / 2 ? need : cap * 2;
  char *p = realloc(b->data, cap);
  if (!p) return -ENOMEM;
  b->data = p;
  b->cap = cap;
  return 0;
}

int hg_buf_append(hg_buf *b, const void *data, size_t len) {
  int rc = reserve(b, len);
  if (rc < 0) return rc;
  if (len) memcpy(b->data + b->len, data, len);
  b->len += len;
  b->data[b->len] = '\0';
  return 0;
}

int hg_buf_printf(hg_buf *b, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  int n = vsnprintf(NULL, 0, fmt, ap);
  va_end(ap);
  if (n < 0) return -EINVAL;
  int rc = reserve(b, (size_t)n);
  if (rc < 0) return rc;
  va_start(ap, fmt);
  vsnprintf(b->data + b->len, (size_t)n + 1, fmt, ap);
  va_end(ap);
  b->len += (size_t)n;
  return 0;
}

void hg_buf_consume(hg_buf *b, size_t n) {
  if (n >= b->len) {
    b->len = 0;
  } else {
    memmove(b->data, b->data + n, b->len - n);
    b->len -= n;
  }
  if (b->data) b->data[b->len] = '\0';
}

void hg_buf_reset(hg_buf *b) { hg_buf_consume(b, b->len); }
