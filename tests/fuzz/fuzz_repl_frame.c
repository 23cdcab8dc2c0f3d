/* libFuzzer target: bytes from a replication peer (replication/frame.c).
 * The first byte picks what reads the rest:
 *   0 hg_rframe_parse with a responder session, frame after frame, as a
 *     receiver does: keys "<decoy>,<bytes 0..31 in hex>", cluster "fuzz",
 *     challenge all 0xc5 (so the seeds written by test_frame verify); the
 *     nonce comes from the first frame's offer. Each frame's payload then
 *     goes to the decoder of its type.
 *   1 offer  2 reply  3 end  4 holdings  5 error (the message decoders)
 * Whatever decodes is re-encoded, decodes again, and encodes to the same
 * bytes; a failed parse must leave the session byte for byte as it was. */
#include <errno.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "replication/frame.h"

#define DECOY "ffeeddccbbaa99887766554433221100ffeeddccbbaa99887766554433221100"

static void check(int ok) {
  if (!ok) abort();
}

static const hg_rframe_keys *fuzz_keys(void) {
  static hg_rframe_keys k;
  static int ready;
  if (!ready) {
    char list[200];
    char *p = list + sprintf(list, "%s,", DECOY);
    for (int i = 0; i < 32; i++) p += sprintf(p, "%02x", i);
    check(hg_rframe_keys_derive(list, "fuzz", &k) == 0 && k.n == 2);
    ready = 1;
  }
  return &k;
}

/* decode -> encode -> decode -> encode: the two encodings are equal. */
#define ROUND_TRIP(T, dec, enc, data, size)                           \
  do {                                                                \
    static T m1, m2;                                                  \
    hg_buf b1, b2;                                                    \
    if (dec((data), (size), &m1) < 0) break;                          \
    hg_buf_init(&b1, HG_RFRAME_MAX);                                   \
    hg_buf_init(&b2, HG_RFRAME_MAX);                                   \
    check(enc(&m1, &b1) == 0);                                        \
    check(dec(b1.data, b1.len, &m2) == 0);                            \
    check(enc(&m2, &b2) == 0);                                        \
    check(b1.len == b2.len && memcmp(b1.data, b2.data, b1.len) == 0); \
    hg_buf_free(&b1);                                                 \
    hg_buf_free(&b2);                                                 \
  } while (0)

static void message(unsigned sel, const uint8_t *data, size_t size) {
  switch (sel) {
    case 1:
      ROUND_TRIP(hg_repl_offer, hg_repl_offer_decode, hg_repl_offer_encode, data, size);
      break;
    case 2:
      ROUND_TRIP(hg_repl_reply, hg_repl_reply_decode, hg_repl_reply_encode, data, size);
      break;
    case 3:
      ROUND_TRIP(hg_repl_end, hg_repl_end_decode, hg_repl_end_encode, data, size);
      break;
    case 4:
      ROUND_TRIP(hg_repl_holdings, hg_repl_holdings_decode, hg_repl_holdings_encode, data,
                 size);
      break;
    case 5:
      ROUND_TRIP(hg_repl_error, hg_repl_error_decode, hg_repl_error_encode, data, size);
      break;
  }
}

static void frames(const uint8_t *data, size_t size) {
  hg_rframe_session s;
  check(hg_rframe_session_responder(&s, fuzz_keys()) == 0);
  memset(s.challenge, 0xc5, sizeof s.challenge);
  while (size > 0) {
    hg_rframe_session before;
    memcpy(&before, &s, sizeof before);
    hg_rframe_type type;
    const uint8_t *payload;
    size_t len, used;
    int rc = hg_rframe_parse(&s, data, size, &type, &payload, &len, &used);
    if (rc < 0) {
      check(rc == -EAGAIN || rc == -EPROTO || rc == -EBADMSG);
      check(memcmp(&before, &s, sizeof s) == 0);
      return;
    }
    check(used == HG_RFRAME_HDR + len + HG_RFRAME_MAC && used <= size);
    check(payload == data + HG_RFRAME_HDR && len <= HG_RFRAME_MAX);
    check(type >= HG_RF_OFFER && type <= HG_RF_LISTED);
    check(s.seq_in == before.seq_in + 1 && s.key >= 0 && (unsigned)s.key < s.keys->n);
    static hg_repl_offer o;
    if (type == HG_RF_OFFER || type == HG_RF_LIST) {
      message(1, payload, len);
      if (before.seq_in == 0 && hg_repl_offer_decode(payload, len, &o) == 0)
        hg_rframe_session_nonce(&s, o.nonce);
    } else if (type == HG_RF_REPLY) {
      message(2, payload, len);
    } else if (type == HG_RF_END) {
      message(3, payload, len);
    } else if (type == HG_RF_ACK || type == HG_RF_LISTED) {
      message(4, payload, len);
    } else if (type == HG_RF_ERROR) {
      message(5, payload, len);
    }
    data += used;
    size -= used;
  }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  if (size == 0) return 0;
  unsigned sel = data[0] % 6;
  if (sel == 0)
    frames(data + 1, size - 1);
  else
    message(sel, data + 1, size - 1);
  return 0;
}
