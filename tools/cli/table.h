/* table: aligned text columns for people (`hangar ls`, `ops`, …). Cells
 * are copied and sanitized (they come from the server); widths count UTF-8
 * code points so "…" lines up. Columns are three spaces apart; the last
 * one carries no trailing padding. */
#ifndef HG_CLI_TABLE_H
#define HG_CLI_TABLE_H

#include <stddef.h>
#include <stdio.h>

#include "node/core/buf.h"

typedef struct hg_table hg_table;

/* headers: ncols strings. */
hg_table *hg_table_new(size_t ncols, const char *const *headers);
void hg_table_free(hg_table *t);
/* Right-aligns a column (numbers, sizes). */
void hg_table_right(hg_table *t, size_t col);
/* Appends a row of ncols cells; a NULL cell prints as "-". */
int hg_table_add(hg_table *t, const char *const *cells);
size_t hg_table_rows(const hg_table *t);
int hg_table_render(const hg_table *t, hg_buf *out);
int hg_table_print(const hg_table *t, FILE *f);

#endif
