/* fuzz_fwdsign: arbitrary header values as a forwarded request's
 * X-Hangar-Signature, X-Hangar-Identity and X-Hangar-Body-SHA256 (split at
 * the first two NUL bytes of the input). The decoders must never read
 * outside what they were fed (ASan), never accept what the grammar refuses
 * (checked by re-encoding), and a full check must never accept: nothing
 * here knows the key.
 *
 *   fuzz_fwdsign -max_total_time=20 corpus/
 */
#include <inttypes.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "api/fwdsign.h"
#include "node/core/util.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static hg_fwdsign *checker;

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  if (!checker &&
      hg_fwdsign_new("00112233445566778899aabbccddeeff00112233445566778899aabbccddeeff",
                     "fuzz", 64, 0, &checker) < 0)
    __builtin_trap();
  char *buf = malloc(size + 3);
  memcpy(buf, data, size);
  buf[size] = buf[size + 1] = buf[size + 2] = '\0';
  const char *sig = buf;
  const char *ident = sig + strlen(sig) + 1;
  if (ident > buf + size) ident = buf + size;
  const char *digest = ident + strlen(ident) + 1;
  if (digest > buf + size + 1) digest = buf + size + 1;
  hg_fwdsig s;
  int64_t at = 0;
  if (hg_fwdsign_parse(sig, &s) == 0) {
    at = s.ms;
    char mac[65], again[160];
    for (int i = 0; i < 32; i++) sprintf(mac + 2 * i, "%02x", s.mac[i]);
    snprintf(again, sizeof again, "v1 %" PRId64 " %s %s", s.ms, s.nonce, mac);
    if (strcmp(again, sig) != 0) __builtin_trap(); /* only the canonical form */
  }
  bool admin;
  char cred[HG_FWDSIGN_IDENT_MAX];
  if (hg_fwdsign_identity(ident, &admin, cred, sizeof cred) == 0 && !admin &&
      (strlen(cred) == 0 || strlen(cred) > 256))
    __builtin_trap();
  hg_fwdsign_req r = {.method = "GET", .target = "/v1/x", .node = "n-a",
                      .identity = ident, .digest = digest, .sig = sig};
  int rc = hg_fwdsign_check(checker, &r, at);
  if (rc == 0) __builtin_trap(); /* a MAC nobody computed */
  hg_fwdsign_check_body(digest, data, size);
  free(buf);
  return 0;
}
