/* seal: authenticated encryption of every gossip datagram and push-pull
 * stream with the cluster key (AES-256-GCM, OpenSSL EVP), the cluster name
 * as additional data, and a keyring for rotation (DESIGN §8).
 *
 * Sealed form: version (1 byte, 1) | key id (1 byte: first byte of
 * SHA-256(key)) | nonce (12 random bytes) | ciphertext | tag (16 bytes).
 * The additional data is version | key id | cluster name, so the two
 * header bytes are authenticated too: no bit of a sealed packet can change
 * without hg_unseal refusing it.
 * Opening tries the key whose id matches first, then every other key, so a
 * rotation works: add the new key everywhere, make it primary everywhere,
 * then remove the old one.
 *
 * Replay: a datagram is accepted once. hg_replay keeps, per sender, the boot
 * id it last saw and a sliding window of 1024 packet numbers; packets older
 * than the window, already seen, from an older boot, or whose sent time is
 * more than max_skew_ms away from ours are refused.
 *
 * Boot ids compare as numbers: a higher boot from a sender replaces its
 * window, a lower one is refused. A process picks its boot with
 * hg_replay_boot(): wall-clock ms << 16 | 16 random bits, so a restarted node
 * (whose packet numbers start again at 0) is newer than its previous life as
 * long as its wall clock did not step back across the restart; the random
 * bits split two starts within one millisecond.
 *
 * Only the skew bound protects against replays of a sender that hg_replay
 * does not remember (never seen, or forgotten when max_senders newer ones
 * pushed it out): keep max_skew_ms small (seconds). */
#ifndef HG_CLUSTER_SEAL_H
#define HG_CLUSTER_SEAL_H

#include <stddef.h>
#include <stdint.h>

#define HG_SEAL_KEY_LEN 32
#define HG_SEAL_KEYS_MAX 8
#define HG_SEAL_OVERHEAD (1 + 1 + 12 + 16)

typedef struct hg_keyring hg_keyring;

/* cluster_name: the AAD, at most 63 bytes. */
int hg_keyring_new(const char *cluster_name, hg_keyring **out);
void hg_keyring_free(hg_keyring *kr);
/* Parses "hex64[,hex64…]" (the --cluster-key flag); the first is primary.
 * -EINVAL names nothing secret in the log. */
int hg_keyring_parse(hg_keyring *kr, const char *keys);
/* The one reader of that list, for whoever derives keys of its own from
 * it (the replication wire): out[0..*n) in order, hex case-blind, at most
 * cap keys, none twice. -EINVAL for a malformed list, logged with the
 * key's position, never its bytes. out may hold key bytes either way: the
 * caller wipes it. */
int hg_seal_keys_parse(const char *keys, uint8_t out[][HG_SEAL_KEY_LEN], size_t cap,
                       size_t *n);
/* HMAC-SHA256 of the concatenation of parts (n at most 16; a part of
 * length 0 may have a NULL base): the one MAC of the wire formats keyed by
 * the cluster key (replication frames, signed forwards). 0 or -EIO/-EINVAL. */
struct iovec;
int hg_seal_hmac(const uint8_t key[HG_SEAL_KEY_LEN], const struct iovec *parts, size_t n,
                 uint8_t mac[32]);
/* Keys for one purpose, one per key of the list ("hex64[,hex64…]", as
 * --cluster-key, in order): HMAC-SHA256(key, label | NUL | cluster name).
 * A label per use keeps a MAC of one format from being valid in another.
 * -EINVAL: a malformed list, no key, more than cap, or a cluster name empty
 * or 64 bytes or longer (nothing secret is logged). The caller wipes out. */
int hg_seal_keys_derive(const char *keys, const char *cluster_name, const char *label,
                        uint8_t out[][HG_SEAL_KEY_LEN], size_t cap, size_t *n);
/* Adds a key (-EEXIST if present, -ENOSPC past HG_SEAL_KEYS_MAX). */
int hg_keyring_add(hg_keyring *kr, const uint8_t key[HG_SEAL_KEY_LEN]);
/* Makes a present key the one used for sealing; -ENOENT if absent. */
int hg_keyring_use(hg_keyring *kr, const uint8_t key[HG_SEAL_KEY_LEN]);
/* Removes a key; -EBUSY for the primary one. */
int hg_keyring_remove(hg_keyring *kr, const uint8_t key[HG_SEAL_KEY_LEN]);
size_t hg_keyring_count(const hg_keyring *kr);

/* out must hold len + HG_SEAL_OVERHEAD bytes (-ENOBUFS otherwise);
 * -ENOKEY on an empty keyring, -EMSGSIZE past INT_MAX bytes. */
int hg_seal(const hg_keyring *kr, const void *plain, size_t len, uint8_t *out, size_t cap,
            size_t *out_len);
/* out must hold len - HG_SEAL_OVERHEAD bytes and must not overlap sealed
 * (a failed key leaves garbage in out; it is wiped before returning an
 * error). -EBADMSG: too short, unknown version, or no key authenticates it
 * (wrong key, other cluster, tampered). */
int hg_unseal(const hg_keyring *kr, const void *sealed, size_t len, uint8_t *out, size_t cap,
              size_t *out_len);

typedef struct hg_replay hg_replay;

/* max_senders: senders remembered (least recently seen forgotten first);
 * both arguments > 0, else -EINVAL. */
int hg_replay_new(size_t max_senders, int64_t max_skew_ms, hg_replay **out);
void hg_replay_free(hg_replay *r);
/* 0: fresh, now remembered. -EALREADY: seen before or below the window.
 * -ESTALE: older boot, or sent_ms too far from now_ms (both wall clock ms).
 * -EINVAL: sender empty or 64 bytes or longer (HG_NODE_ID_MAX). */
int hg_replay_check(hg_replay *r, const char *sender, uint64_t boot, uint64_t pkt_seq,
                    int64_t sent_ms, int64_t now_ms);
/* A boot id for this process start (see above). */
uint64_t hg_replay_boot(void);

#endif
