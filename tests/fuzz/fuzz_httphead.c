/* fuzz_httphead: arbitrary bytes as a guest's HTTP request on port 80.
 * Checks: parsing the buffer at once and growing it byte by byte agree; an
 * OK head's spans lie inside it and its host passes the name rules; the
 * head rebuilt without edits is the head byte for byte; rebuilt with one
 * ordinary field replaced (as credential injection does) it parses again
 * to the same host, port and body framing.
 *
 *   fuzz_httphead -max_total_time=20 corpus/ seeds/httphead/
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "gateway/httphead.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static hg_httphead whole, grown, again;
static char out[HG_HEAD_MAX + 512];

static int is(const char *buf, hg_span s, const char *name) {
  size_t n = strlen(name);
  if (s.len != n) return 0;
  for (size_t i = 0; i < n; i++) {
    char c = buf[s.off + i];
    if (c >= 'A' && c <= 'Z') c = (char)(c + 32);
    if (c != name[i]) return 0;
  }
  return 1;
}

static void check_ok(const char *buf, size_t size) {
  char host[HG_NAME_MAX + 1];
  size_t n;
  if (whole.head_len > size || whole.head_len > HG_HEAD_MAX) __builtin_trap();
  if (hg_name_normalize(whole.host, strlen(whole.host), host) != 0) __builtin_trap();
  for (size_t i = 0; i < whole.nfields; i++) {
    const hg_head_field *f = &whole.fields[i];
    if (f->line.off + f->line.len > whole.head_len) __builtin_trap();
    if (f->value.off + f->value.len > f->line.off + f->line.len) __builtin_trap();
  }
  if (hg_httphead_rebuild(&whole, buf, NULL, 0, out, sizeof(out), &n) != 0)
    __builtin_trap();
  if (n != whole.head_len || memcmp(out, buf, n) != 0) __builtin_trap();
  for (size_t i = 0; i < whole.nfields; i++) {
    const hg_span nm = whole.fields[i].name;
    if (is(buf, nm, "host") || is(buf, nm, "content-length") ||
        is(buf, nm, "transfer-encoding"))
      continue;
    hg_head_edit e = {i, "Bearer HANGAR_SECRET_1", 22};
    if (hg_httphead_rebuild(&whole, buf, &e, 1, out, sizeof(out), &n) != 0)
      __builtin_trap();
    hg_httphead_init(&again);
    int v = hg_httphead_parse(&again, out, n);
    /* the longer value can push a head past the cap; nothing else may
     * change the verdict */
    if (v == HG_HEAD_DENY && again.reason == HG_HEAD_R_TOO_LARGE) break;
    if (v != HG_HEAD_OK || strcmp(again.host, whole.host) != 0 ||
        again.port != whole.port || again.body != whole.body ||
        again.content_length != whole.content_length || again.nfields != whole.nfields)
      __builtin_trap();
    break;
  }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  /* a private copy: the parser may only read size bytes of it */
  char *buf = malloc(size ? size : 1);
  if (!buf) return 0;
  memcpy(buf, data, size);
  hg_httphead_init(&whole);
  int v = hg_httphead_parse(&whole, buf, size);
  hg_httphead_init(&grown);
  int g = HG_HEAD_NEED_MORE;
  for (size_t i = 1; i <= size && g == HG_HEAD_NEED_MORE; i++)
    g = hg_httphead_parse(&grown, buf, i);
  if (g != v || grown.reason != whole.reason) __builtin_trap();
  if (v == HG_HEAD_OK) check_ok(buf, size);
  (void)hg_head_reason_str(whole.reason);
  free(buf);
  return 0;
}
