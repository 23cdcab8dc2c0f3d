/* fwdsign: requests one node forwards to another (api/forward.c) are
 * signed with the cluster key, and the receiver believes who sent them and
 * on whose behalf only under a valid signature (docs/security.md, "Peers").
 *
 * The forwarder drops the client's Authorization and sends
 *   X-Hangar-Forwarded:    <its node id>
 *   X-Hangar-Identity:     admin | bearer <credential>      (absent: none)
 *   X-Hangar-Body-SHA256:  <64 hex: SHA-256 of the body as sent>
 *   X-Hangar-Signature:    v1 <unix ms> <32 hex nonce> <64 hex MAC>
 * "admin": the forwarder checked the client's admin key. "bearer X": a
 * credential the forwarder cannot check (a sandbox or output token: they
 * live with their sandbox on the owner), checked by the receiver as if it
 * had come in Authorization.
 *
 * The MAC is HMAC-SHA256 (hg_seal_hmac) under HMAC-SHA256(cluster key,
 * "hangar-fwd v1\0" | cluster name) over
 *   "hangar-fwd v1\n" method "\n" target "\n" digest "\n" ms "\n" nonce "\n"
 *   node "\n" identity "\n"
 * None of these can hold a newline (llhttp refuses them in a head, the
 * forwarder sends only visible ASCII targets), so the fields cannot run
 * into each other. The primary (first) key signs; any key of the list is
 * accepted, so a key rotation works as it does for gossip.
 *
 * The receiver checks at the request's head, cheapest first: the fields
 * are well-formed, the time is within ±window of its own wall clock, the
 * MAC verifies, then the nonce was not seen (only signed requests reach the
 * nonce cache, so nobody without the key can fill it). The cache keeps a
 * nonce until its time leaves the window; full (max_nonces unexpired) it
 * refuses rather than forgets (-EBUSY). The body's digest is checked when
 * the body is complete, before anything acts on the request.
 *
 * Not thread-safe: the loop thread only. */
#ifndef HG_API_FWDSIGN_H
#define HG_API_FWDSIGN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define HG_FWDSIGN_WINDOW_MS 30000  /* accepted clock difference, each way */
#define HG_FWDSIGN_NONCES 65536     /* signed requests remembered in one window */
#define HG_FWDSIGN_NONCE_HEX 32
#define HG_FWDSIGN_DIGEST_HEX 64
#define HG_FWDSIGN_SIG_MAX 128      /* "v1 <ms> <nonce> <mac>" with its NUL */
#define HG_FWDSIGN_IDENT_MAX 272    /* "bearer " + a credential of 256 bytes, NUL */
#define HG_FWDSIGN_TARGET_MAX 8192  /* longest target signed or checked */
#define HG_FWDSIGN_LABEL "hangar-fwd v1"

typedef struct hg_fwdsign hg_fwdsign;

/* keys: "hex64[,hex64…]" (--cluster-key); max_nonces, window_ms: 0 for the
 * defaults above. -EINVAL: a bad key list or cluster name. */
int hg_fwdsign_new(const char *keys, const char *cluster_name, size_t max_nonces,
                   int64_t window_ms, hg_fwdsign **out);
void hg_fwdsign_free(hg_fwdsign *s);

/* The signed headers' values (not their names). */
typedef struct hg_fwdsign_hdrs {
  char digest[HG_FWDSIGN_DIGEST_HEX + 1];
  char sig[HG_FWDSIGN_SIG_MAX];
} hg_fwdsign_hdrs;

/* identity: "admin", "bearer <cred>" or "" (none). -EINVAL: a field with a
 * control character or too long (nothing is signed). */
int hg_fwdsign_sign(const hg_fwdsign *s, const char *method, const char *target,
                    const char *node, const char *identity, const void *body, size_t len,
                    int64_t now_ms, hg_fwdsign_hdrs *out);

/* What a request carried (NULL: the header was absent). */
typedef struct hg_fwdsign_req {
  const char *method, *target;
  const char *node;     /* X-Hangar-Forwarded */
  const char *identity; /* X-Hangar-Identity */
  const char *digest;   /* X-Hangar-Body-SHA256 */
  const char *sig;      /* X-Hangar-Signature */
} hg_fwdsign_req;

/* 0: signed by a key holder within the window, first time seen (its
 * nonce is now remembered). -ENOKEY: no signature (or s is NULL: this node
 * has no cluster key); -EBADMSG: malformed or a MAC no key verifies;
 * -ESTALE: its time is outside the window; -EALREADY: its nonce was seen;
 * -EBUSY: the nonce cache is full. */
int hg_fwdsign_check(hg_fwdsign *s, const hg_fwdsign_req *r, int64_t now_ms);
/* 0 when body hashes to the hex digest; -EBADMSG otherwise. */
int hg_fwdsign_check_body(const char *digest, const void *body, size_t len);

/* The parsed X-Hangar-Signature (the decoder the fuzz target runs). */
typedef struct hg_fwdsig {
  int64_t ms;
  char nonce[HG_FWDSIGN_NONCE_HEX + 1];
  uint8_t mac[32];
} hg_fwdsig;
/* 0 or -EBADMSG: exactly "v1 <1-15 digits> <32 lower hex> <64 lower hex>". */
int hg_fwdsign_parse(const char *v, hg_fwdsig *out);

/* Identity header value: "admin" or "bearer <cred>" (cred: 1-256 visible
 * ASCII bytes); -EBADMSG otherwise. *admin true for "admin"; cred gets the
 * credential (cap HG_FWDSIGN_IDENT_MAX), "" for admin. */
int hg_fwdsign_identity(const char *v, bool *admin, char *cred, size_t cap);

typedef struct hg_fwdsign_stats {
  uint64_t ok, bad, stale, replayed, busy, bad_body;
  size_t nonces; /* remembered now */
} hg_fwdsign_stats;
void hg_fwdsign_get_stats(const hg_fwdsign *s, hg_fwdsign_stats *out);
/* The receiver counts a digest mismatch it found (hg_fwdsign_check_body). */
void hg_fwdsign_count_bad_body(hg_fwdsign *s);

#endif
