/* mask: hides secrets in a byte stream, for the L7 proxy's responses from
 * an upstream a credential is in scope for (DESIGN §11, docs/security.md).
 *
 * Each secret is looked for in its raw form and in the forms an echo
 * endpoint commonly reflects it in: a JSON string (minimal escaping; with
 * "/" as "\/"; with <, > and & as \u003c, \u003e, \u0026 as Go writes
 * them) and percent-encoding (upper- and lower-case hex; '+' for a space as
 * forms write it). A match is overwritten with '*' of the match's length,
 * so the framing around it (Content-Length, chunk sizes) holds.
 *
 * Streaming: bytes go in as they arrive. Every pattern's matcher state
 * (KMP) carries over from one call to the next, and the bytes that could
 * still be the start of a match (at most the longest pattern's length
 * minus one) are held back until the next call or the flush: a secret
 * split across reads or chunks is found like a whole one. All patterns
 * step through the bytes together and a match is masked only once every
 * pattern has read its last byte, so overlapping secrets are all found.
 *
 * Not found: any other transformation (base64, hex, HTML entities, \u
 * escapes of plain letters, compression). The proxy keeps compression out
 * (Accept-Encoding: identity, coded responses refused); the rest is a
 * documented limit: masking is a net under credential scoping, not a
 * guarantee against an upstream that wants to leak. */
#ifndef HG_GATEWAY_MASK_H
#define HG_GATEWAY_MASK_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "gateway/gw.h"
#include "node/core/buf.h"

#define HG_MASK_FORMS 7 /* raw, 3 JSON, 3 percent-encoded */
#define HG_MASK_PATTERNS (HG_GW_CREDS_MAX * HG_MASK_FORMS)
/* The longest form: every byte as \u00XX. */
#define HG_MASK_PATTERN_MAX (6u * HG_GW_SECRET_MAX)
/* Bytes scanned per step: with the longest pattern, the hold's bound. */
#define HG_MASK_PIECE (64u * 1024)

typedef struct hg_mask_pat {
  char *s;
  size_t len;
  uint32_t *fail; /* KMP failure function */
  size_t q;       /* bytes of s matched by the end of what was fed */
} hg_mask_pat;

typedef struct hg_mask {
  hg_mask_pat pats[HG_MASK_PATTERNS];
  size_t npats;
  hg_buf hold; /* bytes fed, not yet given out: they may begin a match */
} hg_mask;

/* Where masked bytes go, in order; a negative return stops the call. */
typedef int (*hg_mask_out_fn)(void *ud, const char *p, size_t n);

void hg_mask_init(hg_mask *m);
/* Forgets the secrets and the held bytes; m can be used again. */
void hg_mask_reset(hg_mask *m);
/* Adds secret[0..len) in all its forms (an empty or known one: 0).
 * -ENOBUFS past HG_MASK_PATTERNS, -EINVAL past HG_GW_SECRET_MAX. */
int hg_mask_add(hg_mask *m, const char *secret, size_t len);
static inline bool hg_mask_active(const hg_mask *m) {
  return m->npats > 0;
}
static inline size_t hg_mask_held(const hg_mask *m) {
  return m->hold.len;
}
/* Passes p[0..n) on to out with every match masked, holding back what may
 * begin one. Without secrets, everything goes on. */
int hg_mask_feed(hg_mask *m, const char *p, size_t n, hg_mask_out_fn out, void *ud);
/* The end of the stream: the held bytes go on, matchers start afresh. */
int hg_mask_flush(hg_mask *m, hg_mask_out_fn out, void *ud);
/* Masks a whole buffer in place: a stream of its own, from a fresh state,
 * which it leaves fresh. Nothing may be held. */
void hg_mask_apply(hg_mask *m, char *t, size_t n);

#endif
