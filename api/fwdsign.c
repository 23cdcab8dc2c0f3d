/* fwdsign: signing and checking forwarded requests (fwdsign.h). */
#include "api/fwdsign.h"

#include <errno.h>
#include <openssl/crypto.h>
#include <openssl/evp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/uio.h>

#include "cluster/seal.h"
#include "node/core/util.h"

#define NONCE_RAW (HG_FWDSIGN_NONCE_HEX / 2)
#define MS_DIGITS_MAX 15 /* a wall clock in ms until the year 33658 */

typedef struct nonce_ent {
  uint8_t nonce[NONCE_RAW];
  int64_t expires_ms; /* its time + the window: a replay after it is stale anyway */
  int next;           /* bucket chain, -1 at the end */
} nonce_ent;

struct hg_fwdsign {
  uint8_t keys[HG_SEAL_KEYS_MAX][HG_SEAL_KEY_LEN]; /* derived: [0] signs */
  size_t nkeys;
  int64_t window_ms;
  /* Nonces in arrival order in a ring (oldest at head), indexed by a
   * chained hash over the first bytes of the nonce (random bytes, and only
   * signed ones get in: nobody can aim at a bucket without the key). */
  nonce_ent *ring;
  size_t cap, head, count;
  int *buckets;
  size_t nbuckets;
  hg_fwdsign_stats st;
};

int hg_fwdsign_new(const char *keys, const char *cluster_name, size_t max_nonces,
                   int64_t window_ms, hg_fwdsign **out) {
  hg_fwdsign *s = calloc(1, sizeof *s);
  if (!s) return -ENOMEM;
  int rc = hg_seal_keys_derive(keys, cluster_name, HG_FWDSIGN_LABEL, s->keys,
                               HG_SEAL_KEYS_MAX, &s->nkeys);
  s->cap = max_nonces ? max_nonces : HG_FWDSIGN_NONCES;
  s->window_ms = window_ms > 0 ? window_ms : HG_FWDSIGN_WINDOW_MS;
  s->nbuckets = s->cap / 4 + 1;
  if (rc == 0) {
    s->ring = calloc(s->cap, sizeof *s->ring);
    s->buckets = malloc(s->nbuckets * sizeof *s->buckets);
    if (!s->ring || !s->buckets) rc = -ENOMEM;
  }
  if (rc < 0) {
    hg_fwdsign_free(s);
    return rc;
  }
  for (size_t i = 0; i < s->nbuckets; i++) s->buckets[i] = -1;
  *out = s;
  return 0;
}

void hg_fwdsign_free(hg_fwdsign *s) {
  if (!s) return;
  free(s->ring);
  free(s->buckets);
  OPENSSL_cleanse(s, sizeof *s);
  free(s);
}

/* ---- the signed text ------------------------------------------------------ */

static bool field_ok(const char *v, size_t max) {
  size_t n = 0;
  for (; v[n]; n++)
    if ((unsigned char)v[n] < 0x20 || v[n] == 0x7f || n >= max) return false;
  return true;
}

static int mac_of(const uint8_t key[HG_SEAL_KEY_LEN], const char *method, const char *target,
                  const char *digest, int64_t ms, const char *nonce, const char *node,
                  const char *identity, uint8_t mac[32]) {
  char msbuf[24];
  snprintf(msbuf, sizeof msbuf, "%lld", (long long)ms);
  const char *f[] = {HG_FWDSIGN_LABEL, method, target, digest, msbuf, nonce, node, identity};
  struct iovec v[16];
  for (size_t i = 0; i < 8; i++) {
    v[2 * i] = (struct iovec){(void *)f[i], strlen(f[i])};
    v[2 * i + 1] = (struct iovec){(void *)"\n", 1};
  }
  return hg_seal_hmac(key, v, 16, mac);
}

static void sha256_hex(const void *body, size_t len, char out[HG_FWDSIGN_DIGEST_HEX + 1]) {
  uint8_t md[EVP_MAX_MD_SIZE];
  unsigned n = 0;
  if (!EVP_Digest(len ? body : "", len, md, &n, EVP_sha256(), NULL) || n != 32)
    memset(md, 0, 32); /* never matches a real digest's check below */
  hg_hex_encode(md, 32, out);
}

int hg_fwdsign_sign(const hg_fwdsign *s, const char *method, const char *target,
                    const char *node, const char *identity, const void *body, size_t len,
                    int64_t now_ms, hg_fwdsign_hdrs *out) {
  if (!s || !s->nkeys) return -ENOKEY;
  if (!field_ok(method, 32) || !field_ok(target, HG_FWDSIGN_TARGET_MAX) ||
      !field_ok(node, 64) || !field_ok(identity, HG_FWDSIGN_IDENT_MAX) || now_ms < 0)
    return -EINVAL;
  uint8_t raw[NONCE_RAW], mac[32];
  char nonce[HG_FWDSIGN_NONCE_HEX + 1], machex[65];
  int rc = hg_random_bytes(raw, sizeof raw);
  if (rc < 0) return rc;
  hg_hex_encode(raw, sizeof raw, nonce);
  sha256_hex(body, len, out->digest);
  rc = mac_of(s->keys[0], method, target, out->digest, now_ms, nonce, node, identity, mac);
  if (rc < 0) return rc;
  hg_hex_encode(mac, sizeof mac, machex);
  snprintf(out->sig, sizeof out->sig, "v1 %lld %s %s", (long long)now_ms, nonce, machex);
  return 0;
}

/* ---- decoding --------------------------------------------------------------- */

static int lhex(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  return -1;
}

/* n bytes from 2n lower-case hex digits at p. */
static bool hex_take(const char *p, size_t n, uint8_t *out) {
  for (size_t i = 0; i < n; i++) {
    int hi = lhex(p[2 * i]), lo = hi < 0 ? -1 : lhex(p[2 * i + 1]);
    if (lo < 0) return false;
    if (out) out[i] = (uint8_t)(hi << 4 | lo);
  }
  return true;
}

int hg_fwdsign_parse(const char *v, hg_fwdsig *out) {
  if (!v || strncmp(v, "v1 ", 3) != 0) return -EBADMSG;
  const char *p = v + 3;
  size_t d = 0;
  int64_t ms = 0;
  while (p[d] >= '0' && p[d] <= '9' && d < MS_DIGITS_MAX) ms = ms * 10 + (p[d++] - '0');
  if (d == 0 || p[d] != ' ' || (d > 1 && p[0] == '0')) return -EBADMSG;
  p += d + 1;
  if (strlen(p) != HG_FWDSIGN_NONCE_HEX + 1 + 64 || p[HG_FWDSIGN_NONCE_HEX] != ' ' ||
      !hex_take(p, NONCE_RAW, NULL) || !hex_take(p + HG_FWDSIGN_NONCE_HEX + 1, 32, out->mac))
    return -EBADMSG;
  out->ms = ms;
  memcpy(out->nonce, p, HG_FWDSIGN_NONCE_HEX);
  out->nonce[HG_FWDSIGN_NONCE_HEX] = '\0';
  return 0;
}

int hg_fwdsign_identity(const char *v, bool *admin, char *cred, size_t cap) {
  *admin = false;
  if (cap) cred[0] = '\0';
  if (!v) return -EBADMSG;
  if (!strcmp(v, "admin")) {
    *admin = true;
    return 0;
  }
  if (strncmp(v, "bearer ", 7) != 0) return -EBADMSG;
  v += 7;
  size_t n = strlen(v);
  if (n == 0 || n > 256 || n >= cap) return -EBADMSG;
  for (size_t i = 0; i < n; i++)
    if ((unsigned char)v[i] <= 0x20 || (unsigned char)v[i] >= 0x7f) return -EBADMSG;
  memcpy(cred, v, n + 1);
  return 0;
}

/* ---- nonces ------------------------------------------------------------------ */

static size_t bucket_of(const hg_fwdsign *s, const uint8_t n[NONCE_RAW]) {
  uint32_t h = (uint32_t)n[0] | (uint32_t)n[1] << 8 | (uint32_t)n[2] << 16 | (uint32_t)n[3] << 24;
  return h % s->nbuckets;
}

static void nonce_drop_oldest(hg_fwdsign *s) {
  int i = (int)s->head;
  int *pp = &s->buckets[bucket_of(s, s->ring[i].nonce)];
  while (*pp != -1 && *pp != i) pp = &s->ring[*pp].next;
  if (*pp == i) *pp = s->ring[i].next;
  s->head = (s->head + 1) % s->cap;
  s->count--;
}

/* 0: new, remembered; -EALREADY: seen; -EBUSY: full of unexpired ones. */
static int nonce_admit(hg_fwdsign *s, const uint8_t n[NONCE_RAW], int64_t expires, int64_t now) {
  while (s->count && s->ring[s->head].expires_ms < now) nonce_drop_oldest(s);
  size_t b = bucket_of(s, n);
  for (int i = s->buckets[b]; i != -1; i = s->ring[i].next)
    if (!memcmp(s->ring[i].nonce, n, NONCE_RAW)) return -EALREADY;
  if (s->count == s->cap) return -EBUSY;
  int i = (int)((s->head + s->count) % s->cap);
  memcpy(s->ring[i].nonce, n, NONCE_RAW);
  s->ring[i].expires_ms = expires;
  s->ring[i].next = s->buckets[b];
  s->buckets[b] = i;
  s->count++;
  return 0;
}

/* ---- checking ------------------------------------------------------------------ */

static int check(hg_fwdsign *s, const hg_fwdsign_req *r, int64_t now) {
  if (!s || !r->sig) return -ENOKEY;
  hg_fwdsig sig;
  if (hg_fwdsign_parse(r->sig, &sig) < 0 || !r->node || !r->digest || !r->method ||
      !r->target || strlen(r->digest) != HG_FWDSIGN_DIGEST_HEX ||
      !hex_take(r->digest, 32, NULL) || !field_ok(r->node, 64) ||
      !field_ok(r->target, HG_FWDSIGN_TARGET_MAX) || !field_ok(r->method, 32) ||
      (r->identity && !field_ok(r->identity, HG_FWDSIGN_IDENT_MAX)))
    return -EBADMSG;
  if (sig.ms < now - s->window_ms || sig.ms > now + s->window_ms) return -ESTALE;
  bool good = false;
  for (size_t k = 0; k < s->nkeys && !good; k++) {
    uint8_t want[32];
    if (mac_of(s->keys[k], r->method, r->target, r->digest, sig.ms, sig.nonce, r->node,
               r->identity ? r->identity : "", want) == 0)
      good = CRYPTO_memcmp(want, sig.mac, 32) == 0;
  }
  if (!good) return -EBADMSG;
  uint8_t raw[NONCE_RAW];
  hex_take(sig.nonce, NONCE_RAW, raw);
  return nonce_admit(s, raw, sig.ms + s->window_ms, now);
}

int hg_fwdsign_check(hg_fwdsign *s, const hg_fwdsign_req *r, int64_t now_ms) {
  int rc = check(s, r, now_ms);
  if (!s) return rc;
  switch (rc) {
  case 0: s->st.ok++; break;
  case -ESTALE: s->st.stale++; break;
  case -EALREADY: s->st.replayed++; break;
  case -EBUSY: s->st.busy++; break;
  default: s->st.bad++; break;
  }
  return rc;
}

int hg_fwdsign_check_body(const char *digest, const void *body, size_t len) {
  char got[HG_FWDSIGN_DIGEST_HEX + 1];
  if (!digest || strlen(digest) != HG_FWDSIGN_DIGEST_HEX) return -EBADMSG;
  sha256_hex(body, len, got);
  return CRYPTO_memcmp(got, digest, HG_FWDSIGN_DIGEST_HEX) == 0 ? 0 : -EBADMSG;
}

void hg_fwdsign_count_bad_body(hg_fwdsign *s) {
  if (s) s->st.bad_body++;
}

void hg_fwdsign_get_stats(const hg_fwdsign *s, hg_fwdsign_stats *out) {
  memset(out, 0, sizeof *out);
  if (!s) return;
  *out = s->st;
  out->nonces = s->count;
}
