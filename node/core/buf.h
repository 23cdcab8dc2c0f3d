/* buf: a growable byte buffer with a hard ceiling, for every input whose
 * size a peer or a guest controls. */
#ifndef HG_CORE_BUF_H
#define HG_CORE_BUF_H

#include <stddef.h>

typedef struct hg_buf {
  char *data;
  size_t len;
  size_t cap;
  size_t max; /* appends that would pass this fail with -ENOBUFS */
} hg_buf;

void hg_buf_init(hg_buf *b, size_t max);
void hg_buf_free(hg_buf *b);
int hg_buf_append(hg_buf *b, const void *data, size_t len);
int hg_buf_printf(hg_buf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* Drops the first n bytes. */
void hg_buf_consume(hg_buf *b, size_t n);
void hg_buf_reset(hg_buf *b);

#endif
