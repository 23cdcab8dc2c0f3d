/* fuzz_envd_body: the E2B envd request bodies hangar parses from the
 * network (api/envd.c, api/envd_procs.c): process.Process/Start's Connect
 * envelope, the selectors, signals and base64 stdin of Connect, SendSignal
 * and SendInput, and a multipart/form-data upload under a Content-Type that
 * is hostile too, and envd's X-Access-Token ("<sandbox id>.<secret>").
 * Input: byte 0 picks the parser (bit 2: the access token, bit 1: the
 * process RPCs, bit 0: Start, none: multipart); for multipart, the Content-Type runs to
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
  if (data[0] & 4) { /* X-Access-Token: the sandbox it names, its secret */
    char tok[HG_API_TOKEN_MAX + 1], id[HG_ID_MAX];
    const char *secret = NULL;
    if (n > HG_API_TOKEN_MAX || memchr(in, '\0', n)) return 0;
    memcpy(tok, in, n);
    tok[n] = '\0';
    if (hg__api_envd_token_split(tok, id, &secret) == 0) {
      if (!hg_id_valid("sb", id) || secret <= tok || secret >= tok + n) abort();
      json_t *again = hg__api_envd_token(id, secret); /* NULL: not UTF-8 */
      if (again && (!json_is_string(again) || strcmp(json_string_value(again), tok))) abort();
      json_decref(again);
    }
    return 0;
  }
  if (data[0] & 2) { /* Connect's envelope, then what the process RPCs read of it */
    json_t *r = NULL;
    if (hg__api_envd_envelope(in, n, &r, msg) == 0) {
      uint32_t pid = 0;
      char tag[HG_ENVD_TAG_MAX];
      int sig = 0;
      if (hg__api_envd_selector(r, &pid, tag, msg) == 0 && pid == 0 &&
          (!tag[0] || strlen(tag) >= HG_ENVD_TAG_MAX))
        abort();
      if (hg__api_envd_signal(r, &sig, msg) == 0 && sig != 9 && sig != 15) abort();
      hg_buf b;
      hg_buf_init(&b, 1024);
      if (hg__api_envd_input(r, &b, msg) == 0 && b.len > 1024) abort();
      hg_buf_free(&b);
      json_decref(r);
    }
    return 0;
  }
  if (data[0] & 1) {
    json_t *h = NULL;
    char *config = NULL, tag[HG_ENVD_TAG_MAX];
    if (hg__api_envd_start_body(in, n, &h, &config, tag, msg) == 0) {
      if (!config || strlen(tag) >= HG_ENVD_TAG_MAX) abort();
      free(config);
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
