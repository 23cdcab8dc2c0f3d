/* fuzz_sni: arbitrary bytes as the first flight of a port-443 connection.
 * The reader must give the same verdict, reason and name whether the
 * bytes come at once or in pieces (sizes drawn from the input itself), an
 * OK name must be one the name rules accept unchanged, and it must never
 * touch memory outside what it was fed (ASan) or leak its buffer.
 *
 *   fuzz_sni -max_total_time=20 corpus/ seeds/sni/
 */
#include <stdint.h>
#include <string.h>

#include "gateway/sni.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  hg_sni whole, pieces;
  hg_sni_init(&whole);
  hg_sni_init(&pieces);
  int vw = hg_sni_feed(&whole, data, size);
  int vp = HG_SNI_NEED_MORE;
  for (size_t i = 0, k = 0; i < size; k++) {
    size_t c = 1 + data[k % size] % 23;
    if (c > size - i) c = size - i;
    vp = hg_sni_feed(&pieces, data + i, c);
    i += c;
  }
  if (vw >= 0 && vp >= 0) {
    if (vw != vp || whole.reason != pieces.reason || strcmp(whole.name, pieces.name) != 0)
      __builtin_trap();
    if (vw == HG_SNI_OK) {
      char again[HG_NAME_MAX + 1];
      if (hg_name_normalize(whole.name, strlen(whole.name), again) != 0 ||
          strcmp(again, whole.name) != 0)
        __builtin_trap();
    }
    if ((vw == HG_SNI_DENY) != (whole.reason != HG_SNI_R_NONE)) __builtin_trap();
    if (vw != HG_SNI_NEED_MORE && whole.msg) __builtin_trap();
    (void)hg_sni_reason_str(whole.reason);
  }
  int t = hg_tls_sniff(data, size);
  if (t == 1 && whole.reason == HG_SNI_R_NOT_TLS) __builtin_trap();
  hg_sni_free(&whole);
  hg_sni_free(&pieces);
  return 0;
}
