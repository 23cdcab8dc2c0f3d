/* fuzz_envd_body: the E2B envd request bodies hangar parses from the
 * network (api/envd.c): process.Process/Start's Connect envelope, and a
 * multipart/form-data upload under a Content-Type that is hostile too.
 * Input: byte 0 picks the parser; for multipart, the Content-Type runs to
 * the first '\n' and the body is the rest. Checks that a found part lies
 * inside the body, and walks every part as a multi-file write does.
 *
 *   fuzz_envd_body -max_total_time=30 -max_len=4096 corpus/
 */
#include "api/api_internal.h"

#include <assert.h>
#include <stdint.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  static char msg[HG_API_MSG];
  if (size < 1 || size > 65536) return 0;
  const char *in = (const char *)data + 1;
  size_t n = size - 1;
  if (data[0] & 1) {
    json_t *h = NULL;
    if (hg__api_envd_start_body(in, n, &h, NULL, NULL, msg) == 0) {
      assert(json_is_array(json_object_get(h, "cmd")));
      json_decref(h);
    }
    return 0;
  }
  const char *nl = memchr(in, '\n', n);
  if (!nl) return 0;
  char ctype[512];
  size_t cl = (size_t)(nl - in);
  if (cl >= sizeof ctype || memchr(in, '\0', cl)) return 0;
  memcpy(ctype, in, cl);
  ctype[cl] = '\0';
  const char *body = nl + 1, *d = NULL;
  size_t bl = n - cl - 1, dl = 0;
  char name[64];
  if (hg__api_multipart_file(ctype, body, bl, &d, &dl, name, sizeof name) == 0) {
    assert(d >= body && d + dl <= body + bl);
    assert(strlen(name) < sizeof name);
  }
  /* every part, as a multi-file write walks them: *off only moves forward */
  size_t off = 0, prev = 0;
  while (hg__api_multipart_next(ctype, body, bl, &off, &d, &dl, name, sizeof name) == 0) {
    /* abort, not assert: the fuzz build may define NDEBUG */
    if (off <= prev || off > bl || d < body || d + dl > body + bl) abort();
    prev = off;
  }
  (void)hg__api_envd_parts_check(ctype, body, bl, msg);
  return 0;
}
