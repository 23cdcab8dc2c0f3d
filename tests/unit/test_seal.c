/* cluster/seal: sealing, the keyring and its rotation, and the replay
 * window. Every way a sealed packet can be wrong must be -EBADMSG. */
#include <errno.h>
#include <openssl/evp.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "cluster/seal.h"
#include "node/core/util.h"

static void key_of(uint8_t seed, uint8_t key[HG_SEAL_KEY_LEN]) {
  for (int i = 0; i < HG_SEAL_KEY_LEN; i++) key[i] = (uint8_t)(seed * 31 + i);
}

static hg_keyring *ring(const char *name, const uint8_t *keys[], size_t n) {
  hg_keyring *kr;
  assert_int_equal(hg_keyring_new(name, &kr), 0);
  for (size_t i = 0; i < n; i++) assert_int_equal(hg_keyring_add(kr, keys[i]), 0);
  return kr;
}

/* Seals msg with a and opens it with b: 0 or the error. */
static int pass(const hg_keyring *a, const hg_keyring *b) {
  const char msg[] = "ping node-b seq 7";
  uint8_t sealed[128], plain[128];
  size_t sl, pl;
  assert_int_equal(hg_seal(a, msg, sizeof msg, sealed, sizeof sealed, &sl), 0);
  int rc = hg_unseal(b, sealed, sl, plain, sizeof plain, &pl);
  if (rc == 0) {
    assert_int_equal(pl, sizeof msg);
    assert_memory_equal(plain, msg, sizeof msg);
  }
  return rc;
}

/* ---- sealing ------------------------------------------------------------- */

static void seal_round_trips(void **state) {
  uint8_t k[HG_SEAL_KEY_LEN];
  key_of(1, k);
  const uint8_t *keys[] = {k};
  hg_keyring *kr = ring("prod-eu", keys, 1);
  size_t lens[] = {0, 1, 15, 16, 17, 1370, 100000};
  for (size_t i = 0; i < sizeof lens / sizeof lens[0]; i++) {
    size_t n = lens[i];
    uint8_t *plain = malloc(n + 1), *sealed = malloc(n + HG_SEAL_OVERHEAD),
            *out = malloc(n + 1);
    for (size_t j = 0; j < n; j++) plain[j] = (uint8_t)(j * 13);
    size_t sl, ol;
    assert_int_equal(hg_seal(kr, plain, n, sealed, n + HG_SEAL_OVERHEAD, &sl), 0);
    assert_int_equal(sl, n + HG_SEAL_OVERHEAD);
    assert_int_equal(sealed[0], 1);
    if (n >= 16) assert_memory_not_equal(sealed + 14, plain, 16); /* it is encrypted */
    assert_int_equal(hg_unseal(kr, sealed, sl, out, n, &ol), 0);
    assert_int_equal(ol, n);
    if (n) assert_memory_equal(out, plain, n);
    free(plain);
    free(sealed);
    free(out);
  }
  hg_keyring_free(kr);
}

static void seal_nonce_is_fresh_and_key_id_is_sha256_byte(void **state) {
  uint8_t k[HG_SEAL_KEY_LEN], md[32];
  key_of(2, k);
  const uint8_t *keys[] = {k};
  hg_keyring *kr = ring("c", keys, 1);
  uint8_t a[64], b[64];
  size_t al, bl;
  assert_int_equal(hg_seal(kr, "same", 4, a, sizeof a, &al), 0);
  assert_int_equal(hg_seal(kr, "same", 4, b, sizeof b, &bl), 0);
  assert_memory_not_equal(a + 2, b + 2, 12); /* nonces differ */
  assert_memory_not_equal(a + 14, b + 14, al - 14);
  unsigned mdlen;
  assert_true(EVP_Digest(k, sizeof k, md, &mdlen, EVP_sha256(), NULL));
  assert_int_equal(a[1], md[0]);
  hg_keyring_free(kr);
}

static void seal_refuses_wrong_key_and_other_cluster(void **state) {
  uint8_t k1[HG_SEAL_KEY_LEN], k2[HG_SEAL_KEY_LEN];
  key_of(1, k1);
  key_of(2, k2);
  const uint8_t *one[] = {k1}, *two[] = {k2};
  hg_keyring *a = ring("prod", one, 1), *b = ring("prod", two, 1),
             *c = ring("staging", one, 1), *d = ring("", one, 1);
  assert_int_equal(pass(a, a), 0);
  assert_int_equal(pass(a, b), -EBADMSG);
  assert_int_equal(pass(b, a), -EBADMSG);
  assert_int_equal(pass(a, c), -EBADMSG); /* same key, other cluster: the AAD */
  assert_int_equal(pass(c, a), -EBADMSG);
  assert_int_equal(pass(a, d), -EBADMSG);
  assert_int_equal(pass(d, d), 0);
  hg_keyring_free(a);
  hg_keyring_free(b);
  hg_keyring_free(c);
  hg_keyring_free(d);
}

static void seal_refuses_any_flipped_bit_and_truncation(void **state) {
  uint8_t k[HG_SEAL_KEY_LEN];
  key_of(3, k);
  const uint8_t *keys[] = {k};
  hg_keyring *kr = ring("prod", keys, 1);
  const char msg[] = "a datagram";
  uint8_t sealed[64], copy[64], out[64];
  size_t sl, ol;
  assert_int_equal(hg_seal(kr, msg, sizeof msg, sealed, sizeof sealed, &sl), 0);
  for (size_t bit = 0; bit < sl * 8; bit++) {
    memcpy(copy, sealed, sl);
    copy[bit / 8] ^= (uint8_t)(1u << (bit % 8));
    memset(out, 0, sizeof out);
    if (hg_unseal(kr, copy, sl, out, sizeof out, &ol) != -EBADMSG)
      fail_msg("bit %zu", bit);
    /* nothing unauthenticated is left behind */
    for (size_t i = 0; i < sizeof out; i++) assert_int_equal(out[i], 0);
  }
  for (size_t len = 0; len < sl; len++) {
    uint8_t *p = malloc(len ? len : 1); /* exact size: ASan sees overreads */
    memcpy(p, sealed, len);
    assert_int_equal(hg_unseal(kr, p, len, out, sizeof out, &ol), -EBADMSG);
    free(p);
  }
  /* an extra byte moves the tag */
  memcpy(copy, sealed, sl);
  copy[sl] = 0;
  assert_int_equal(hg_unseal(kr, copy, sl + 1, out, sizeof out, &ol), -EBADMSG);
  assert_int_equal(hg_unseal(kr, sealed, sl, out, sl - HG_SEAL_OVERHEAD, &ol), 0);
  hg_keyring_free(kr);
}

static void seal_buffer_and_ring_errors(void **state) {
  hg_keyring *kr;
  char name[65];
  memset(name, 'n', 64);
  name[64] = '\0';
  assert_int_equal(hg_keyring_new(name, &kr), -EINVAL);
  name[63] = '\0';
  assert_int_equal(hg_keyring_new(name, &kr), 0);
  uint8_t buf[64], out[64];
  size_t n;
  assert_int_equal(hg_seal(kr, "x", 1, buf, sizeof buf, &n), -ENOKEY);
  assert_int_equal(hg_keyring_count(kr), 0);
  uint8_t k[HG_SEAL_KEY_LEN];
  key_of(4, k);
  assert_int_equal(hg_keyring_add(kr, k), 0);
  assert_int_equal(hg_seal(kr, "xy", 2, buf, 2 + HG_SEAL_OVERHEAD - 1, &n), -ENOBUFS);
  assert_int_equal(hg_seal(kr, "xy", 2, buf, 2 + HG_SEAL_OVERHEAD, &n), 0);
  assert_int_equal(hg_unseal(kr, buf, n, out, 1, &n), -ENOBUFS);
  buf[0] = 2; /* a version we do not speak */
  assert_int_equal(hg_unseal(kr, buf, 2 + HG_SEAL_OVERHEAD, out, sizeof out, &n),
                   -EBADMSG);
  hg_keyring_free(kr);
}

/* ---- keyring ------------------------------------------------------------- */

static void keyring_rotation(void **state) {
  uint8_t old[HG_SEAL_KEY_LEN], new[HG_SEAL_KEY_LEN];
  key_of(10, old);
  key_of(11, new);
  const uint8_t *o[] = {old};
  hg_keyring *a = ring("prod", o, 1), *b = ring("prod", o, 1),
             *lagging = ring("prod", o, 1);

  /* 1. add the new key everywhere: still sealing with the old one */
  assert_int_equal(hg_keyring_add(a, new), 0);
  assert_int_equal(hg_keyring_add(b, new), 0);
  assert_int_equal(hg_keyring_count(a), 2);
  assert_int_equal(pass(a, lagging), 0);
  /* 2. a switches first: b (holding both) opens it, and a still opens b */
  assert_int_equal(hg_keyring_use(a, new), 0);
  assert_int_equal(pass(a, b), 0);
  assert_int_equal(pass(b, a), 0);
  assert_int_equal(pass(a, lagging), -EBADMSG); /* a node that skipped step 1 */
  assert_int_equal(pass(lagging, a), 0);        /* ... can still talk to a */
  /* 3. b switches; the old key can go */
  assert_int_equal(hg_keyring_use(b, new), 0);
  assert_int_equal(hg_keyring_remove(a, old), 0);
  assert_int_equal(hg_keyring_remove(b, old), 0);
  assert_int_equal(hg_keyring_count(a), 1);
  assert_int_equal(pass(a, b), 0);
  assert_int_equal(pass(lagging, a), -EBADMSG);
  /* the primary cannot be removed; absent keys are ENOENT */
  assert_int_equal(hg_keyring_remove(a, new), -EBUSY);
  assert_int_equal(hg_keyring_remove(a, old), -ENOENT);
  assert_int_equal(hg_keyring_use(a, old), -ENOENT);
  hg_keyring_free(a);
  hg_keyring_free(b);
  hg_keyring_free(lagging);
}

static void keyring_limits_and_remove_keeps_primary(void **state) {
  hg_keyring *kr;
  assert_int_equal(hg_keyring_new("c", &kr), 0);
  uint8_t k[HG_SEAL_KEYS_MAX + 1][HG_SEAL_KEY_LEN];
  for (int i = 0; i <= HG_SEAL_KEYS_MAX; i++) key_of((uint8_t)(100 + i), k[i]);
  for (int i = 0; i < HG_SEAL_KEYS_MAX; i++)
    assert_int_equal(hg_keyring_add(kr, k[i]), 0);
  assert_int_equal(hg_keyring_add(kr, k[0]), -EEXIST);
  assert_int_equal(hg_keyring_add(kr, k[HG_SEAL_KEYS_MAX]), -ENOSPC);
  /* primary in the middle; removing keys before it must not move it */
  assert_int_equal(hg_keyring_use(kr, k[5]), 0);
  for (int i = 0; i < 5; i++) assert_int_equal(hg_keyring_remove(kr, k[i]), 0);
  assert_int_equal(hg_keyring_count(kr), HG_SEAL_KEYS_MAX - 5);
  const uint8_t *only5[] = {k[5]};
  hg_keyring *five = ring("c", only5, 1);
  assert_int_equal(pass(kr, five), 0);
  assert_int_equal(hg_keyring_remove(kr, k[5]), -EBUSY);
  hg_keyring_free(five);
  hg_keyring_free(kr);
}

/* Keys whose ids collide (one byte): the opener tries every key. */
static void keyring_opens_when_key_ids_collide(void **state) {
  uint8_t a[HG_SEAL_KEY_LEN], b[HG_SEAL_KEY_LEN], md[32];
  unsigned mdlen;
  key_of(1, a);
  assert_true(EVP_Digest(a, sizeof a, md, &mdlen, EVP_sha256(), NULL));
  uint8_t want = md[0];
  for (uint32_t i = 0;; i++) {
    key_of(2, b);
    memcpy(b, &i, sizeof i);
    assert_true(EVP_Digest(b, sizeof b, md, &mdlen, EVP_sha256(), NULL));
    if (md[0] == want) break;
  }
  const uint8_t *ab[] = {a, b}, *onlyb[] = {b};
  hg_keyring *both = ring("c", ab, 2), *sender = ring("c", onlyb, 1);
  assert_int_equal(pass(sender, both), 0); /* a is tried first and fails */
  hg_keyring_free(both);
  hg_keyring_free(sender);
}

static void keyring_parse(void **state) {
  const char *k1 = "00112233445566778899aabbccddeeff00112233445566778899AABBCCDDEEFF";
  const char *k2 = "ffeeddccbbaa99887766554433221100ffeeddccbbaa99887766554433221100";
  char flag[512];
  hg_keyring *kr, *first;
  assert_int_equal(hg_keyring_new("c", &kr), 0);
  snprintf(flag, sizeof flag, "%s,%s", k1, k2);
  assert_int_equal(hg_keyring_parse(kr, flag), 0);
  assert_int_equal(hg_keyring_count(kr), 2);
  /* the first is primary */
  assert_int_equal(hg_keyring_new("c", &first), 0);
  assert_int_equal(hg_keyring_parse(first, k1), 0);
  assert_int_equal(pass(kr, first), 0);
  uint8_t raw2[HG_SEAL_KEY_LEN];
  for (int i = 0; i < HG_SEAL_KEY_LEN; i++) raw2[i] = (uint8_t)(0xff - 0x11 * (i % 16));
  assert_int_equal(hg_keyring_use(kr, raw2), 0); /* the second parsed as bytes */

  /* bad flags leave the ring as it was */
  char nine[9 * 65 + 1] = "";
  for (int i = 0; i < 9; i++) {
    char one[66];
    snprintf(one, sizeof one, "%s%064x", i ? "," : "", i);
    strcat(nine, one);
  }
  char dup[200], trailing[100], shortk[100], nonhex[100];
  snprintf(dup, sizeof dup, "%s,%s", k1, k1);
  snprintf(trailing, sizeof trailing, "%s,", k1);
  snprintf(shortk, sizeof shortk, "%.62s", k1);
  snprintf(nonhex, sizeof nonhex, "%.63sg", k1);
  const char *bad[] = {"", ",", dup, trailing, shortk, nonhex, nine, " 00"};
  for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
    assert_int_equal(hg_keyring_parse(first, bad[i]), -EINVAL);
    assert_int_equal(hg_keyring_count(first), 1);
    assert_int_equal(pass(kr, first), -EBADMSG); /* kr now seals with k2 */
  }
  assert_int_equal(hg_keyring_parse(first, NULL), -EINVAL);
  /* eight is the most */
  nine[8 * 65 - 1] = '\0';
  assert_int_equal(hg_keyring_parse(first, nine), 0);
  assert_int_equal(hg_keyring_count(first), 8);
  hg_keyring_free(kr);
  hg_keyring_free(first);
}

/* ---- replay -------------------------------------------------------------- */

#define NOW 1700000000000LL

static void replay_window(void **state) {
  hg_replay *r;
  assert_int_equal(hg_replay_new(16, 5000, &r), 0);
  assert_int_equal(hg_replay_check(r, "a", 7, 1, NOW, NOW), 0);
  assert_int_equal(hg_replay_check(r, "a", 7, 1, NOW, NOW), -EALREADY);
  assert_int_equal(hg_replay_check(r, "b", 7, 1, NOW, NOW), 0); /* per sender */
  assert_int_equal(hg_replay_check(r, "a", 7, 3, NOW, NOW), 0);
  assert_int_equal(hg_replay_check(r, "a", 7, 2, NOW, NOW), 0); /* reordered */
  assert_int_equal(hg_replay_check(r, "a", 7, 2, NOW, NOW), -EALREADY);
  assert_int_equal(hg_replay_check(r, "a", 7, 0, NOW, NOW), 0);
  /* top 2000: the window is (976, 2000] */
  assert_int_equal(hg_replay_check(r, "a", 7, 2000, NOW, NOW), 0);
  assert_int_equal(hg_replay_check(r, "a", 7, 977, NOW, NOW), 0);
  assert_int_equal(hg_replay_check(r, "a", 7, 977, NOW, NOW), -EALREADY);
  assert_int_equal(hg_replay_check(r, "a", 7, 976, NOW, NOW), -EALREADY);
  assert_int_equal(hg_replay_check(r, "a", 7, 3, NOW, NOW), -EALREADY);
  /* slots reused as the window slides are fresh: 2000 + 1024 shares 2000's bit */
  assert_int_equal(hg_replay_check(r, "a", 7, 3024, NOW, NOW), 0);
  assert_int_equal(hg_replay_check(r, "a", 7, 2001, NOW, NOW), 0);
  assert_int_equal(hg_replay_check(r, "a", 7, 2000, NOW, NOW), -EALREADY); /* below now */
  /* a jump far ahead clears everything */
  assert_int_equal(hg_replay_check(r, "a", 7, 1000000, NOW, NOW), 0);
  assert_int_equal(hg_replay_check(r, "a", 7, 1000000 - 1023, NOW, NOW), 0);
  assert_int_equal(hg_replay_check(r, "a", 7, 3024, NOW, NOW), -EALREADY);
  /* sliding by less than the window clears the slots it passes over:
   * 1114 shares 90's slot and must not look seen */
  assert_int_equal(hg_replay_check(r, "c", 7, 100, NOW, NOW), 0);
  assert_int_equal(hg_replay_check(r, "c", 7, 90, NOW, NOW), 0);
  assert_int_equal(hg_replay_check(r, "c", 7, 1120, NOW, NOW), 0);
  assert_int_equal(hg_replay_check(r, "c", 7, 1114, NOW, NOW), 0);
  assert_int_equal(hg_replay_check(r, "c", 7, 1114, NOW, NOW), -EALREADY);
  assert_int_equal(hg_replay_check(r, "c", 7, 100, NOW, NOW), -EALREADY);
  assert_int_equal(hg_replay_check(r, "c", 7, 97, NOW, NOW), 0);
  assert_int_equal(hg_replay_check(r, "c", 7, 96, NOW, NOW), -EALREADY);
  assert_int_equal(hg_replay_check(r, "a", 7, UINT64_MAX, NOW, NOW), 0);
  assert_int_equal(hg_replay_check(r, "a", 7, UINT64_MAX, NOW, NOW), -EALREADY);
  hg_replay_free(r);
}

static void replay_boots(void **state) {
  hg_replay *r;
  assert_int_equal(hg_replay_new(16, 5000, &r), 0);
  uint64_t boot1 = (uint64_t)NOW << 16 | 0xffff, boot2 = (uint64_t)(NOW + 1) << 16;
  assert_int_equal(hg_replay_check(r, "a", boot1, 5000, NOW, NOW), 0);
  /* the node restarted: packet numbers begin again */
  assert_int_equal(hg_replay_check(r, "a", boot2, 0, NOW, NOW), 0);
  assert_int_equal(hg_replay_check(r, "a", boot2, 1, NOW, NOW), 0);
  assert_int_equal(hg_replay_check(r, "a", boot2, 0, NOW, NOW), -EALREADY);
  /* its previous life's packets are stale, even unseen ones */
  assert_int_equal(hg_replay_check(r, "a", boot1, 5001, NOW, NOW), -ESTALE);
  assert_int_equal(hg_replay_check(r, "a", boot1, 1, NOW, NOW), -ESTALE);
  assert_int_equal(hg_replay_check(r, "a", boot2, 2, NOW, NOW), 0);
  hg_replay_free(r);
}

static void replay_skew(void **state) {
  hg_replay *r;
  assert_int_equal(hg_replay_new(16, 5000, &r), 0);
  assert_int_equal(hg_replay_check(r, "a", 1, 1, NOW - 5001, NOW), -ESTALE);
  assert_int_equal(hg_replay_check(r, "a", 1, 1, NOW + 5001, NOW), -ESTALE);
  /* a refused packet is not remembered */
  assert_int_equal(hg_replay_check(r, "a", 1, 1, NOW + 5000, NOW), 0);
  assert_int_equal(hg_replay_check(r, "a", 1, 2, NOW - 5000, NOW), 0);
  assert_int_equal(hg_replay_check(r, "a", 1, 3, INT64_MIN, NOW), -ESTALE);
  assert_int_equal(hg_replay_check(r, "a", 1, 3, INT64_MAX, NOW), -ESTALE);
  assert_int_equal(hg_replay_check(r, "a", 1, 3, INT64_MAX, INT64_MIN), -ESTALE);
  assert_int_equal(hg_replay_check(r, "a", 1, 3, INT64_MIN, INT64_MAX), -ESTALE);
  assert_int_equal(hg_replay_check(r, "a", 1, 3, INT64_MIN, INT64_MIN), 0);
  hg_replay_free(r);
}

static void replay_arguments(void **state) {
  hg_replay *r;
  assert_int_equal(hg_replay_new(0, 5000, &r), -EINVAL);
  assert_int_equal(hg_replay_new(4, 0, &r), -EINVAL);
  assert_int_equal(hg_replay_new(4, 5000, &r), 0);
  char long_id[65];
  memset(long_id, 'x', 64);
  long_id[64] = '\0';
  assert_int_equal(hg_replay_check(r, long_id, 1, 1, NOW, NOW), -EINVAL);
  assert_int_equal(hg_replay_check(r, "", 1, 1, NOW, NOW), -EINVAL);
  long_id[63] = '\0';
  assert_int_equal(hg_replay_check(r, long_id, 1, 1, NOW, NOW), 0);
  assert_int_equal(hg_replay_check(r, long_id, 1, 1, NOW, NOW), -EALREADY);
  hg_replay_free(r);
}

static void replay_forgets_least_recent_sender(void **state) {
  hg_replay *r;
  assert_int_equal(hg_replay_new(3, 5000, &r), 0);
  assert_int_equal(hg_replay_check(r, "a", 1, 1, NOW, NOW), 0);
  assert_int_equal(hg_replay_check(r, "b", 1, 1, NOW, NOW), 0);
  assert_int_equal(hg_replay_check(r, "c", 1, 1, NOW, NOW), 0);
  assert_int_equal(hg_replay_check(r, "a", 1, 2, NOW, NOW), 0); /* a is recent again */
  assert_int_equal(hg_replay_check(r, "d", 1, 1, NOW, NOW), 0); /* b goes */
  assert_int_equal(hg_replay_check(r, "a", 1, 1, NOW, NOW), -EALREADY);
  assert_int_equal(hg_replay_check(r, "c", 1, 1, NOW, NOW), -EALREADY);
  assert_int_equal(hg_replay_check(r, "d", 1, 1, NOW, NOW), -EALREADY);
  /* b was forgotten: only the skew bound stands between it and a replay */
  assert_int_equal(hg_replay_check(r, "b", 1, 1, NOW, NOW), 0); /* c goes */
  assert_int_equal(hg_replay_check(r, "c", 1, 1, NOW, NOW), 0); /* a goes */
  assert_int_equal(hg_replay_check(r, "b", 1, 1, NOW, NOW), -EALREADY);
  hg_replay_free(r);

  /* many senders through a small table: the newest stay, the hash chains hold */
  assert_int_equal(hg_replay_new(16, 5000, &r), 0);
  char id[32];
  for (int i = 0; i < 10000; i++) {
    snprintf(id, sizeof id, "node-%d", i);
    assert_int_equal(hg_replay_check(r, id, 1, 1, NOW, NOW), 0);
  }
  for (int i = 10000 - 16; i < 10000; i++) {
    snprintf(id, sizeof id, "node-%d", i);
    assert_int_equal(hg_replay_check(r, id, 1, 1, NOW, NOW), -EALREADY);
  }
  snprintf(id, sizeof id, "node-%d", 10000 - 17);
  assert_int_equal(hg_replay_check(r, id, 1, 1, NOW, NOW), 0);
  hg_replay_free(r);
}

static void replay_boot_ids_grow_with_the_clock(void **state) {
  int64_t before_ms = hg_wall_ns() / 1000000;
  uint64_t a = hg_replay_boot();
  int64_t wall_ms = hg_wall_ns() / 1000000;
  int64_t boot_ms = (int64_t)(a >> 16);
  /* the wall clock in ms at the call, whatever the machine's load */
  assert_true(before_ms <= boot_ms && boot_ms <= wall_ms);
  /* a later start (the next millisecond) is a larger boot, whatever its random bits */
  int64_t until = wall_ms + 2;
  while (hg_wall_ns() / 1000000 < until) {
  }
  uint64_t b = hg_replay_boot();
  assert_true(b > a);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(seal_round_trips),
      cmocka_unit_test(seal_nonce_is_fresh_and_key_id_is_sha256_byte),
      cmocka_unit_test(seal_refuses_wrong_key_and_other_cluster),
      cmocka_unit_test(seal_refuses_any_flipped_bit_and_truncation),
      cmocka_unit_test(seal_buffer_and_ring_errors),
      cmocka_unit_test(keyring_rotation),
      cmocka_unit_test(keyring_limits_and_remove_keeps_primary),
      cmocka_unit_test(keyring_opens_when_key_ids_collide),
      cmocka_unit_test(keyring_parse),
      cmocka_unit_test(replay_window),
      cmocka_unit_test(replay_boots),
      cmocka_unit_test(replay_skew),
      cmocka_unit_test(replay_arguments),
      cmocka_unit_test(replay_forgets_least_recent_sender),
      cmocka_unit_test(replay_boot_ids_grow_with_the_clock),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
