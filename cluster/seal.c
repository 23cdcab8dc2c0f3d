/* seal: AES-256-GCM sealing with a keyring, and the replay window. */
#include "cluster/seal.h"

#include <errno.h>
#include <limits.h>
#include <openssl/core_names.h>
#include <openssl/crypto.h>
#include <openssl/evp.h>
#include <openssl/rand.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/uio.h>

#include "cluster/wire.h"
#include "node/core/log.h"
#include "node/core/util.h"

#define SEAL_VERSION 1
#define NAME_MAX_LEN 63
#define NONCE_LEN 12
#define TAG_LEN 16
#define HDR_LEN 2 /* version, key id */
#define AAD_MAX (HDR_LEN + NAME_MAX_LEN)

struct hg_keyring {
  char name[NAME_MAX_LEN + 1];
  size_t name_len;
  uint8_t keys[HG_SEAL_KEYS_MAX][HG_SEAL_KEY_LEN];
  uint8_t ids[HG_SEAL_KEYS_MAX];
  size_t n;
  size_t primary;
};

int hg_keyring_new(const char *cluster_name, hg_keyring **out) {
  if (!cluster_name || strlen(cluster_name) > NAME_MAX_LEN) return -EINVAL;
  hg_keyring *kr = calloc(1, sizeof *kr);
  if (!kr) return -ENOMEM;
  kr->name_len = strlen(cluster_name);
  memcpy(kr->name, cluster_name, kr->name_len);
  *out = kr;
  return 0;
}

void hg_keyring_free(hg_keyring *kr) {
  if (!kr) return;
  OPENSSL_cleanse(kr, sizeof *kr);
  free(kr);
}

static int key_id(const uint8_t key[HG_SEAL_KEY_LEN], uint8_t *id) {
  uint8_t md[EVP_MAX_MD_SIZE];
  unsigned mdlen = 0;
  if (!EVP_Digest(key, HG_SEAL_KEY_LEN, md, &mdlen, EVP_sha256(), NULL)) return -EIO;
  *id = md[0];
  return 0;
}

static int find_key(const hg_keyring *kr, const uint8_t key[HG_SEAL_KEY_LEN]) {
  for (size_t i = 0; i < kr->n; i++)
    if (CRYPTO_memcmp(kr->keys[i], key, HG_SEAL_KEY_LEN) == 0) return (int)i;
  return -1;
}

int hg_keyring_add(hg_keyring *kr, const uint8_t key[HG_SEAL_KEY_LEN]) {
  if (find_key(kr, key) >= 0) return -EEXIST;
  if (kr->n == HG_SEAL_KEYS_MAX) return -ENOSPC;
  uint8_t id;
  int rc = key_id(key, &id);
  if (rc < 0) return rc;
  memcpy(kr->keys[kr->n], key, HG_SEAL_KEY_LEN);
  kr->ids[kr->n] = id;
  if (kr->n == 0) kr->primary = 0; /* the first key seals */
  kr->n++;
  return 0;
}

int hg_keyring_use(hg_keyring *kr, const uint8_t key[HG_SEAL_KEY_LEN]) {
  int i = find_key(kr, key);
  if (i < 0) return -ENOENT;
  kr->primary = (size_t)i;
  return 0;
}

int hg_keyring_remove(hg_keyring *kr, const uint8_t key[HG_SEAL_KEY_LEN]) {
  int i = find_key(kr, key);
  if (i < 0) return -ENOENT;
  size_t k = (size_t)i;
  if (k == kr->primary) return -EBUSY;
  memmove(kr->keys[k], kr->keys[k + 1], (kr->n - k - 1) * HG_SEAL_KEY_LEN);
  memmove(&kr->ids[k], &kr->ids[k + 1], kr->n - k - 1);
  kr->n--;
  OPENSSL_cleanse(kr->keys[kr->n], HG_SEAL_KEY_LEN);
  if (kr->primary > k) kr->primary--;
  return 0;
}

size_t hg_keyring_count(const hg_keyring *kr) {
  return kr->n;
}

static int hexval(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

int hg_seal_keys_parse(const char *keys, uint8_t out[][HG_SEAL_KEY_LEN], size_t cap,
                       size_t *n) {
  const char *p = keys ? keys : "";
  const char *why = NULL;
  size_t idx = 0;
  for (;;) {
    size_t len = strcspn(p, ",");
    if (idx == cap)
      why = "too many keys";
    else if (len != 2 * HG_SEAL_KEY_LEN)
      why = "want 64 hex digits";
    for (size_t j = 0; j < HG_SEAL_KEY_LEN && !why; j++) {
      int hi = hexval(p[2 * j]), lo = hexval(p[2 * j + 1]);
      if (hi < 0 || lo < 0)
        why = "not hex";
      else
        out[idx][j] = (uint8_t)(hi << 4 | lo);
    }
    for (size_t j = 0; j < idx && !why; j++)
      if (CRYPTO_memcmp(out[j], out[idx], HG_SEAL_KEY_LEN) == 0) why = "duplicate";
    if (why) break;
    idx++;
    p += len;
    if (*p == '\0') break;
    p++; /* the comma; "k1," leaves an empty key, refused above */
  }
  if (why) {
    hg_log_error("cluster.key", "err=invalid index=%zu reason=\"%s\"", idx, why);
    return -EINVAL;
  }
  *n = idx;
  return 0;
}

int hg_seal_hmac(const uint8_t key[HG_SEAL_KEY_LEN], const struct iovec *parts, size_t n,
                 uint8_t mac[32]) {
  if (n > 16) return -EINVAL;
  char digest[] = "SHA256";
  OSSL_PARAM params[] = {OSSL_PARAM_construct_utf8_string(OSSL_MAC_PARAM_DIGEST, digest, 0),
                         OSSL_PARAM_construct_end()};
  EVP_MAC *alg = EVP_MAC_fetch(NULL, "HMAC", NULL);
  EVP_MAC_CTX *ctx = alg ? EVP_MAC_CTX_new(alg) : NULL;
  size_t outl = 0;
  bool ok = ctx && EVP_MAC_init(ctx, key, HG_SEAL_KEY_LEN, params);
  for (size_t i = 0; ok && i < n; i++)
    ok = parts[i].iov_len == 0 || EVP_MAC_update(ctx, parts[i].iov_base, parts[i].iov_len);
  ok = ok && EVP_MAC_final(ctx, mac, &outl, 32) && outl == 32;
  EVP_MAC_CTX_free(ctx);
  EVP_MAC_free(alg);
  return ok ? 0 : -EIO;
}

int hg_seal_keys_derive(const char *keys, const char *cluster_name, const char *label,
                        uint8_t out[][HG_SEAL_KEY_LEN], size_t cap, size_t *n) {
  size_t name_len = cluster_name ? strlen(cluster_name) : 0;
  if (name_len == 0 || name_len > NAME_MAX_LEN || !label) {
    hg_log_error("cluster.key", "err=invalid reason=\"cluster name empty or too long\"");
    return -EINVAL;
  }
  uint8_t raw[HG_SEAL_KEYS_MAX][HG_SEAL_KEY_LEN];
  size_t k = 0;
  int rc = hg_seal_keys_parse(keys, raw, cap < HG_SEAL_KEYS_MAX ? cap : HG_SEAL_KEYS_MAX, &k);
  if (rc == 0 && k == 0) rc = -EINVAL;
  struct iovec in[2] = {{(void *)label, strlen(label) + 1}, {(void *)cluster_name, name_len}};
  for (size_t i = 0; rc == 0 && i < k; i++) rc = hg_seal_hmac(raw[i], in, 2, out[i]);
  OPENSSL_cleanse(raw, sizeof raw);
  if (rc == 0) *n = k;
  return rc;
}

/* Replaces the ring only when the whole list is good: a typo in the flag
 * must not leave a node half keyed. */
int hg_keyring_parse(hg_keyring *kr, const char *keys) {
  uint8_t raw[HG_SEAL_KEYS_MAX][HG_SEAL_KEY_LEN];
  size_t n = 0;
  hg_keyring tmp;
  memset(&tmp, 0, sizeof tmp);
  memcpy(tmp.name, kr->name, sizeof tmp.name);
  tmp.name_len = kr->name_len;
  int rc = hg_seal_keys_parse(keys, raw, HG_SEAL_KEYS_MAX, &n);
  for (size_t i = 0; rc == 0 && i < n; i++) {
    /* the list has no duplicates and fits: only the key id's digest can fail */
    if (hg_keyring_add(&tmp, raw[i]) < 0) {
      hg_log_error("cluster.key", "err=invalid index=%zu reason=\"digest failed\"", i);
      rc = -EINVAL;
    }
  }
  if (rc == 0) memcpy(kr, &tmp, sizeof tmp);
  OPENSSL_cleanse(raw, sizeof raw);
  OPENSSL_cleanse(&tmp, sizeof tmp);
  return rc;
}

static size_t make_aad(const hg_keyring *kr, uint8_t ver, uint8_t id,
                       uint8_t aad[AAD_MAX]) {
  aad[0] = ver;
  aad[1] = id;
  memcpy(aad + HDR_LEN, kr->name, kr->name_len);
  return HDR_LEN + kr->name_len;
}

int hg_seal(const hg_keyring *kr, const void *plain, size_t len, uint8_t *out, size_t cap,
            size_t *out_len) {
  if (kr->n == 0) return -ENOKEY;
  if (len > (size_t)INT_MAX - HG_SEAL_OVERHEAD) return -EMSGSIZE;
  if (cap < len + HG_SEAL_OVERHEAD) return -ENOBUFS;
  const uint8_t *key = kr->keys[kr->primary];
  uint8_t id = kr->ids[kr->primary];
  uint8_t aad[AAD_MAX];
  size_t aad_len = make_aad(kr, SEAL_VERSION, id, aad);
  uint8_t *nonce = out + HDR_LEN, *ct = nonce + NONCE_LEN, *tag = ct + len;
  if (RAND_bytes(nonce, NONCE_LEN) != 1) return -EIO;
  out[0] = SEAL_VERSION;
  out[1] = id;

  EVP_CIPHER_CTX *ctx = EVP_CIPHER_CTX_new();
  if (!ctx) return -ENOMEM;
  int n = 0, ok = EVP_EncryptInit_ex(ctx, EVP_aes_256_gcm(), NULL, NULL, NULL) &&
                  EVP_CIPHER_CTX_ctrl(ctx, EVP_CTRL_GCM_SET_IVLEN, NONCE_LEN, NULL) &&
                  EVP_EncryptInit_ex(ctx, NULL, NULL, key, nonce) &&
                  EVP_EncryptUpdate(ctx, NULL, &n, aad, (int)aad_len) &&
                  (len == 0 || EVP_EncryptUpdate(ctx, ct, &n, plain, (int)len)) &&
                  EVP_EncryptFinal_ex(ctx, ct + len, &n) &&
                  EVP_CIPHER_CTX_ctrl(ctx, EVP_CTRL_GCM_GET_TAG, TAG_LEN, tag);
  EVP_CIPHER_CTX_free(ctx);
  if (!ok) {
    OPENSSL_cleanse(out, len + HG_SEAL_OVERHEAD);
    return -EIO;
  }
  *out_len = len + HG_SEAL_OVERHEAD;
  return 0;
}

/* 0 when key opens the packet, 1 when it does not, <0 on a library error. */
static int open_with(const hg_keyring *kr, const uint8_t *key, const uint8_t *sealed,
                     size_t clen, uint8_t *out) {
  uint8_t aad[AAD_MAX];
  size_t aad_len = make_aad(kr, sealed[0], sealed[1], aad);
  const uint8_t *nonce = sealed + HDR_LEN, *ct = nonce + NONCE_LEN, *tag = ct + clen;
  uint8_t tagbuf[TAG_LEN];
  memcpy(tagbuf, tag, TAG_LEN); /* the ctrl takes a non-const pointer */

  EVP_CIPHER_CTX *ctx = EVP_CIPHER_CTX_new();
  if (!ctx) return -ENOMEM;
  int n = 0, rc = 1;
  if (!EVP_DecryptInit_ex(ctx, EVP_aes_256_gcm(), NULL, NULL, NULL) ||
      !EVP_CIPHER_CTX_ctrl(ctx, EVP_CTRL_GCM_SET_IVLEN, NONCE_LEN, NULL) ||
      !EVP_DecryptInit_ex(ctx, NULL, NULL, key, nonce) ||
      !EVP_DecryptUpdate(ctx, NULL, &n, aad, (int)aad_len) ||
      (clen > 0 && !EVP_DecryptUpdate(ctx, out, &n, ct, (int)clen)) ||
      !EVP_CIPHER_CTX_ctrl(ctx, EVP_CTRL_GCM_SET_TAG, TAG_LEN, tagbuf))
    rc = -EIO;
  else if (EVP_DecryptFinal_ex(ctx, out + clen, &n) > 0)
    rc = 0;
  EVP_CIPHER_CTX_free(ctx);
  return rc;
}

int hg_unseal(const hg_keyring *kr, const void *sealed, size_t len, uint8_t *out,
              size_t cap, size_t *out_len) {
  const uint8_t *s = sealed;
  if (len < HG_SEAL_OVERHEAD || s[0] != SEAL_VERSION) return -EBADMSG;
  if (len > (size_t)INT_MAX) return -EBADMSG;
  size_t clen = len - HG_SEAL_OVERHEAD;
  if (cap < clen) return -ENOBUFS;
  /* keys whose id matches first; the id is one byte, so others may match */
  for (int pass = 0; pass < 2; pass++) {
    for (size_t i = 0; i < kr->n; i++) {
      if ((kr->ids[i] == s[1]) != (pass == 0)) continue;
      int rc = open_with(kr, kr->keys[i], s, clen, out);
      if (rc == 0) {
        *out_len = clen;
        return 0;
      }
      if (rc < 0) {
        OPENSSL_cleanse(out, clen);
        return rc;
      }
    }
  }
  OPENSSL_cleanse(out, clen);
  return -EBADMSG;
}

/* ---- replay ---- */

#define WINDOW 1024
#define WORDS (WINDOW / 64)

typedef struct sender {
  char id[HG_NODE_ID_MAX];
  uint64_t boot;
  uint64_t top;         /* highest packet number seen this boot */
  uint64_t seen[WORDS]; /* bit (n % WINDOW) for n in (top - WINDOW, top] */
  uint64_t used;        /* r->tick when last accepted, for LRU */
  int next;             /* hash chain */
} sender;

struct hg_replay {
  sender *s;
  size_t n, max;
  int *buckets; /* index into s, -1 empty */
  size_t nbuckets;
  int64_t skew;
  uint64_t tick;
};

int hg_replay_new(size_t max_senders, int64_t max_skew_ms, hg_replay **out) {
  if (max_senders == 0 || max_senders > INT_MAX / 4 || max_skew_ms <= 0) return -EINVAL;
  hg_replay *r = calloc(1, sizeof *r);
  if (!r) return -ENOMEM;
  r->max = max_senders;
  r->skew = max_skew_ms;
  r->nbuckets = 16;
  while (r->nbuckets < 2 * max_senders) r->nbuckets *= 2;
  r->s = calloc(max_senders, sizeof *r->s);
  r->buckets = malloc(r->nbuckets * sizeof *r->buckets);
  if (!r->s || !r->buckets) {
    hg_replay_free(r);
    return -ENOMEM;
  }
  for (size_t i = 0; i < r->nbuckets; i++) r->buckets[i] = -1;
  *out = r;
  return 0;
}

void hg_replay_free(hg_replay *r) {
  if (!r) return;
  free(r->s);
  free(r->buckets);
  free(r);
}

static size_t bucket_of(const hg_replay *r, const char *id) {
  uint64_t h = 1469598103934665603ull; /* FNV-1a */
  for (const unsigned char *p = (const unsigned char *)id; *p; p++)
    h = (h ^ *p) * 1099511628211ull;
  return (size_t)(h & (r->nbuckets - 1));
}

static sender *find_sender(hg_replay *r, const char *id) {
  for (int i = r->buckets[bucket_of(r, id)]; i >= 0; i = r->s[i].next)
    if (strcmp(r->s[i].id, id) == 0) return &r->s[i];
  return NULL;
}

static void unlink_sender(hg_replay *r, int i) {
  int *pp = &r->buckets[bucket_of(r, r->s[i].id)];
  while (*pp != i) pp = &r->s[*pp].next;
  *pp = r->s[i].next;
}

/* A slot for a new sender: a free one, else the least recently seen. The
 * scan is linear, but only a sender that passed the seal gets here. */
static sender *add_sender(hg_replay *r, const char *id) {
  int i;
  if (r->n < r->max) {
    i = (int)r->n++;
  } else {
    i = 0;
    for (size_t k = 1; k < r->n; k++)
      if (r->s[k].used < r->s[i].used) i = (int)k;
    unlink_sender(r, i);
  }
  sender *s = &r->s[i];
  memset(s, 0, sizeof *s);
  strcpy(s->id, id);
  size_t b = bucket_of(r, id);
  s->next = r->buckets[b];
  r->buckets[b] = i;
  return s;
}

static bool bit_get(const sender *s, uint64_t n) {
  return s->seen[(n % WINDOW) / 64] >> (n % 64) & 1;
}
static void bit_set(sender *s, uint64_t n) {
  s->seen[(n % WINDOW) / 64] |= 1ull << (n % 64);
}
static void bit_clear(sender *s, uint64_t n) {
  s->seen[(n % WINDOW) / 64] &= ~(1ull << (n % 64));
}

static void restart_window(sender *s, uint64_t boot, uint64_t pkt_seq) {
  s->boot = boot;
  s->top = pkt_seq;
  memset(s->seen, 0, sizeof s->seen);
  bit_set(s, pkt_seq);
}

int hg_replay_check(hg_replay *r, const char *sender_id, uint64_t boot, uint64_t pkt_seq,
                    int64_t sent_ms, int64_t now_ms) {
  size_t idlen = sender_id ? strnlen(sender_id, HG_NODE_ID_MAX) : 0;
  if (idlen == 0 || idlen >= HG_NODE_ID_MAX) return -EINVAL;
  /* |sent - now| without overflow: both are anything a peer chose */
  uint64_t d = sent_ms > now_ms ? (uint64_t)sent_ms - (uint64_t)now_ms
                                : (uint64_t)now_ms - (uint64_t)sent_ms;
  if (d > (uint64_t)r->skew) return -ESTALE;

  sender *s = find_sender(r, sender_id);
  if (!s) {
    s = add_sender(r, sender_id);
    restart_window(s, boot, pkt_seq);
  } else if (boot < s->boot) {
    return -ESTALE;
  } else if (boot > s->boot) {
    restart_window(s, boot, pkt_seq);
  } else if (pkt_seq > s->top) {
    if (pkt_seq - s->top >= WINDOW)
      memset(s->seen, 0, sizeof s->seen);
    else
      for (uint64_t n = s->top + 1; n != pkt_seq; n++) bit_clear(s, n);
    s->top = pkt_seq;
    bit_set(s, pkt_seq);
  } else if (s->top - pkt_seq >= WINDOW || bit_get(s, pkt_seq)) {
    return -EALREADY;
  } else {
    bit_set(s, pkt_seq);
  }
  s->used = ++r->tick;
  return 0;
}

uint64_t hg_replay_boot(void) {
  uint16_t rnd = 0;
  if (hg_random_bytes(&rnd, sizeof rnd) < 0) rnd = (uint16_t)hg_now_ns();
  return (uint64_t)(hg_wall_ns() / 1000000) << 16 | rnd;
}
