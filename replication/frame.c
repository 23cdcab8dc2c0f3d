/* frame: the replication wire (frame.h) - HMAC-SHA256 frames bound to one
 * exchange, their blocking socket I/O, and the bounded msgpack codecs of
 * the messages they carry.
 *
 * Messages are maps with short keys; decoders require the keys marked *,
 * ignore keys they do not know, and run the same checks as the encoders:
 *   offer:    n* nonce  c* cluster  f* from  s* sandbox  t tmpl  e epoch
 *             g gen  m name  u uuid  p [{g* gen, t* tmpl, u* uuid}…]
 *   reply:    v* verdict  ch* challenge  p* parent  k* code  ms* message
 *   end:      r* raw_bytes  z* zstd_bytes  c* chunks
 *   holdings: s* sandbox  g* gen  e* epoch
 *             h* [{g* gen, b* bytes, ms* created_ms, u* uuid}…]
 *   error:    k* code  ms* message
 * Each decoder first bounds the payload (MSG_MAX_*, well above what its
 * encoder can write) and then hg_wire_unpack refuses container counts the
 * bytes cannot hold, so msgpack-c never allocates more than a small
 * multiple of those bounds. */
#include "replication/frame.h"

#include <errno.h>
#include <limits.h>
#include <msgpack.h>
#include <openssl/crypto.h>
#include <openssl/evp.h>
#include <poll.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/uio.h>

#include "cluster/seal.h"
#include "cluster/wire.h"
#include "node/core/log.h"
#include "node/core/mp.h"

#define KEY_LEN 32
#define SID_LEN 32
#define DERIVE_LABEL "hangar-repl v1" /* sizeof counts its NUL: part of the input */
#define MSG_MAX_OFFER (16u * 1024)
#define MSG_MAX_HOLDINGS (64u * 1024)
#define MSG_MAX_SMALL (4u * 1024) /* reply, end, error */

/* ---- keys ------------------------------------------------------------------- */

int hg_rframe_keys_derive(const char *cluster_keys, const char *cluster_name,
                         hg_rframe_keys *out) {
  hg_rframe_keys k;
  size_t n = 0;
  memset(&k, 0, sizeof k);
  int rc = hg_seal_keys_derive(cluster_keys, cluster_name, DERIVE_LABEL, k.k,
                               HG_RFRAME_KEYS_MAX, &n);
  k.n = (unsigned)n;
  if (rc == 0) memcpy(out, &k, sizeof k);
  OPENSSL_cleanse(&k, sizeof k);
  return rc;
}

/* ---- sessions and frames ---------------------------------------------------- */

static int session_init(hg_rframe_session *s, const hg_rframe_keys *keys, bool initiator) {
  if (!keys || keys->n == 0 || keys->n > HG_RFRAME_KEYS_MAX) return -EINVAL;
  hg_rframe_session t;
  memset(&t, 0, sizeof t);
  t.keys = keys;
  t.initiator = initiator;
  t.key = initiator ? 0 : -1;
  int rc = hg_random_bytes(initiator ? t.nonce : t.challenge, HG_RFRAME_NONCE);
  if (rc < 0) return rc;
  *s = t;
  return 0;
}

int hg_rframe_session_initiator(hg_rframe_session *s, const hg_rframe_keys *keys) {
  return session_init(s, keys, true);
}

int hg_rframe_session_responder(hg_rframe_session *s, const hg_rframe_keys *keys) {
  return session_init(s, keys, false);
}

void hg_rframe_session_nonce(hg_rframe_session *s, const uint8_t nonce[HG_RFRAME_NONCE]) {
  memcpy(s->nonce, nonce, HG_RFRAME_NONCE);
}

void hg_rframe_session_challenge(hg_rframe_session *s,
                                const uint8_t challenge[HG_RFRAME_NONCE]) {
  memcpy(s->challenge, challenge, HG_RFRAME_NONCE);
}

static bool type_ok(unsigned t) {
  return t >= HG_RF_OFFER && t <= HG_RF_LISTED;
}

static uint32_t get_be32(const uint8_t *p) {
  return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
}

static void put_be(uint8_t *p, uint64_t v, size_t n) {
  for (size_t i = 0; i < n; i++) p[i] = (uint8_t)(v >> (8 * (n - 1 - i)));
}

/* The session id a frame is bound to (frame.h): the initiator's first
 * frame has no nonce to name yet, the responder's first has no challenge. */
static void session_id(const hg_rframe_session *s, bool from_initiator, uint64_t seq,
                       uint8_t sid[SID_LEN]) {
  memset(sid, 0, SID_LEN);
  if (seq == 0 && from_initiator) return;
  memcpy(sid, s->nonce, HG_RFRAME_NONCE);
  if (seq > 0) memcpy(sid + HG_RFRAME_NONCE, s->challenge, HG_RFRAME_NONCE);
}

/* HMAC-SHA256 over session id | seq | direction | type | length | payload. */
static int frame_mac(const uint8_t key[KEY_LEN], const hg_rframe_session *s,
                     bool from_initiator, uint64_t seq, unsigned type,
                     const void *payload, size_t len, uint8_t mac[HG_RFRAME_MAC]) {
  uint8_t pre[SID_LEN + 8 + 1 + 1 + 4];
  session_id(s, from_initiator, seq, pre);
  put_be(pre + SID_LEN, seq, 8);
  pre[SID_LEN + 8] = from_initiator ? 0 : 1;
  pre[SID_LEN + 9] = (uint8_t)type;
  put_be(pre + SID_LEN + 10, len, 4);
  struct iovec parts[2] = {{pre, sizeof pre}, {(void *)payload, len}};
  return hg_seal_hmac(key, parts, 2, mac);
}

/* Header and MAC of the next outgoing frame; the payload goes between. */
static int seal_frame(const hg_rframe_session *s, unsigned type, const void *payload,
                      size_t len, uint8_t hdr[HG_RFRAME_HDR], uint8_t mac[HG_RFRAME_MAC]) {
  if (len > HG_RFRAME_MAX) return -EMSGSIZE;
  if (!type_ok(type) || (len && !payload)) return -EINVAL;
  if (!s->keys || s->key < 0 || (unsigned)s->key >= s->keys->n) return -ENOKEY;
  put_be(hdr, len, 4);
  hdr[4] = (uint8_t)type;
  return frame_mac(s->keys->k[s->key], s, s->initiator, s->seq_out, type, payload, len,
                   mac);
}

int hg_rframe_encode(hg_rframe_session *s, hg_rframe_type type, const void *payload,
                    size_t len, hg_buf *out) {
  uint8_t hdr[HG_RFRAME_HDR], mac[HG_RFRAME_MAC];
  int rc = seal_frame(s, type, payload, len, hdr, mac);
  if (rc < 0) return rc;
  size_t mark = out->len;
  if ((rc = hg_buf_append(out, hdr, sizeof hdr)) < 0 ||
      (rc = hg_buf_append(out, payload, len)) < 0 ||
      (rc = hg_buf_append(out, mac, sizeof mac)) < 0) {
    out->len = mark;
    if (out->data) out->data[mark] = '\0';
    return rc;
  }
  s->seq_out++;
  return 0;
}

static int verify(const hg_rframe_session *s, unsigned key, unsigned type,
                  const uint8_t *payload, size_t len, const uint8_t *mac) {
  uint8_t want[HG_RFRAME_MAC];
  int rc =
      frame_mac(s->keys->k[key], s, !s->initiator, s->seq_in, type, payload, len, want);
  if (rc < 0) return rc;
  return CRYPTO_memcmp(want, mac, HG_RFRAME_MAC) == 0 ? 0 : -EBADMSG;
}

int hg_rframe_parse(hg_rframe_session *s, const uint8_t *data, size_t n,
                   hg_rframe_type *type, const uint8_t **payload, size_t *len,
                   size_t *used) {
  if (n < HG_RFRAME_HDR) return -EAGAIN;
  uint32_t plen = get_be32(data);
  unsigned t = data[4];
  if (plen > HG_RFRAME_MAX || !type_ok(t)) return -EPROTO;
  size_t total = HG_RFRAME_HDR + (size_t)plen + HG_RFRAME_MAC;
  if (n < total) return -EAGAIN;
  if (!s->keys || s->keys->n == 0 || s->keys->n > HG_RFRAME_KEYS_MAX) return -EBADMSG;
  const uint8_t *p = data + HG_RFRAME_HDR, *mac = p + plen;
  int rc = -EBADMSG, key = s->key;
  if (key >= 0) {
    rc =
        (unsigned)key < s->keys->n ? verify(s, (unsigned)key, t, p, plen, mac) : -EBADMSG;
  } else {
    /* The responder's first frame: whichever key of the ring the initiator
     * sends with (its first) is the one this exchange uses. */
    for (unsigned i = 0; i < s->keys->n && rc == -EBADMSG; i++) {
      rc = verify(s, i, t, p, plen, mac);
      if (rc == 0) key = (int)i;
    }
  }
  if (rc < 0) return rc;
  s->key = key;
  s->seq_in++;
  *type = (hg_rframe_type)t;
  *payload = p;
  *len = plen;
  *used = total;
  return 0;
}

/* ---- socket I/O ------------------------------------------------------------- */

static int64_t deadline_of(int timeout_ms) {
  return timeout_ms < 0 ? -1 : hg_now_ms() + timeout_ms;
}

static int wait_fd(int fd, short events, int64_t deadline) {
  for (;;) {
    int ms = -1;
    if (deadline >= 0) {
      int64_t left = deadline - hg_now_ms();
      if (left <= 0) return -ETIMEDOUT;
      ms = left > INT_MAX ? INT_MAX : (int)left;
    }
    struct pollfd p = {.fd = fd, .events = events};
    int r = poll(&p, 1, ms);
    if (r < 0 && errno == EINTR) continue;
    if (r < 0) return -errno;
    if (r == 0) continue; /* the deadline check above decides */
    if (p.revents & POLLNVAL) return -EBADF;
    return 0; /* readable, writable, or an error recv/send will name */
  }
}

/* MSG_DONTWAIT, so a blocking socket still honours the deadline. */
static int send_all(int fd, struct iovec *iov, size_t cnt, int64_t deadline) {
  while (cnt > 0) {
    if (iov->iov_len == 0) {
      iov++;
      cnt--;
      continue;
    }
    struct msghdr mh;
    memset(&mh, 0, sizeof mh);
    mh.msg_iov = iov;
    mh.msg_iovlen = cnt;
    ssize_t w = sendmsg(fd, &mh, MSG_NOSIGNAL | MSG_DONTWAIT);
    if (w < 0) {
      if (errno == EINTR) continue;
      if (errno != EAGAIN && errno != EWOULDBLOCK) return -errno;
      int rc = wait_fd(fd, POLLOUT, deadline);
      if (rc < 0) return rc;
      continue;
    }
    size_t done = (size_t)w;
    while (cnt > 0 && done >= iov->iov_len) {
      done -= iov->iov_len;
      iov++;
      cnt--;
    }
    if (cnt > 0) {
      iov->iov_base = (uint8_t *)iov->iov_base + done;
      iov->iov_len -= done;
    }
  }
  return 0;
}

static int recv_all(int fd, uint8_t *p, size_t n, int64_t deadline) {
  size_t got = 0;
  while (got < n) {
    ssize_t r = recv(fd, p + got, n - got, MSG_DONTWAIT);
    if (r > 0) {
      got += (size_t)r;
      continue;
    }
    if (r == 0) return -ECONNRESET;
    if (errno == EINTR) continue;
    if (errno != EAGAIN && errno != EWOULDBLOCK) return -errno;
    int rc = wait_fd(fd, POLLIN, deadline);
    if (rc < 0) return rc;
  }
  return 0;
}

int hg_rframe_write(int fd, hg_rframe_session *s, hg_rframe_type type, const void *payload,
                   size_t len, int timeout_ms) {
  uint8_t hdr[HG_RFRAME_HDR], mac[HG_RFRAME_MAC];
  int rc = seal_frame(s, type, payload, len, hdr, mac);
  if (rc < 0) return rc;
  struct iovec iov[3] = {{.iov_base = hdr, .iov_len = sizeof hdr},
                         {.iov_base = (void *)(uintptr_t)payload, .iov_len = len},
                         {.iov_base = mac, .iov_len = sizeof mac}};
  rc = send_all(fd, iov, 3, deadline_of(timeout_ms));
  if (rc < 0) return rc;
  s->seq_out++;
  return 0;
}

int hg_rframe_read(int fd, hg_rframe_session *s, uint8_t *buf, size_t cap,
                  hg_rframe_type *type, const uint8_t **payload, size_t *len,
                  int timeout_ms) {
  if (cap < HG_RFRAME_HDR + HG_RFRAME_MAC) return -ENOBUFS;
  int64_t deadline = deadline_of(timeout_ms);
  int rc = recv_all(fd, buf, HG_RFRAME_HDR, deadline);
  if (rc < 0) return rc;
  uint32_t plen = get_be32(buf);
  if (plen > HG_RFRAME_MAX || !type_ok(buf[4])) return -EPROTO;
  size_t total = HG_RFRAME_HDR + (size_t)plen + HG_RFRAME_MAC;
  if (total > cap) return -ENOBUFS;
  rc = recv_all(fd, buf + HG_RFRAME_HDR, total - HG_RFRAME_HDR, deadline);
  if (rc < 0) return rc;
  size_t used;
  return hg_rframe_parse(s, buf, total, type, payload, len, &used);
}

/* ---- validation shared by encoders and decoders ------------------------------ */

static bool terminated(const char *s, size_t cap) {
  return memchr(s, '\0', cap) != NULL;
}

static bool uuid_ok(const char *s) {
  for (int i = 0; i < 36; i++) {
    char c = s[i];
    bool ok = (i == 8 || i == 13 || i == 18 || i == 23)
                  ? c == '-'
                  : (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f');
    if (!ok) return false;
  }
  return s[36] == '\0';
}

/* A node id or cluster name: printable ASCII; node ids also without
 * spaces or '/' (they name things in logs and metrics). */
static bool printable(const char *s, bool id) {
  if (!*s) return false;
  for (; *s; s++) {
    unsigned char c = (unsigned char)*s;
    if (c < 0x20 || c > 0x7e || (id && (c == ' ' || c == '/'))) return false;
  }
  return true;
}

/* err.h codes: [a-z0-9_]. */
static bool code_ok(const char *s) {
  for (; *s; s++)
    if (!((*s >= 'a' && *s <= 'z') || (*s >= '0' && *s <= '9') || *s == '_'))
      return false;
  return true;
}

bool hg_repl_name_ok(const char *name) {
  if (!name) return false;
  size_t len = strnlen(name, HG_REPL_NAME_MAX);
  if (len == HG_REPL_NAME_MAX || len < 1 + 1 + 16) return false;
  const char *at = name + len - 17;
  if (*at != '@' || strstr(name, "..")) return false;
  for (const char *p = name; p < at; p++) {
    char c = *p;
    bool alnum = (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9');
    if (!alnum && (p == name || (c != '.' && c != '_' && c != '-' && c != ':')))
      return false;
  }
  for (const char *p = at + 1; *p; p++)
    if (!((*p >= '0' && *p <= '9') || (*p >= 'a' && *p <= 'f'))) return false;
  return true;
}

static bool sandbox_ok(const char *s, bool may_be_empty) {
  return (may_be_empty && !*s) || hg_id_valid("sb", s);
}

static bool offer_ok(const hg_repl_offer *m) {
  if (!terminated(m->cluster, sizeof m->cluster) || !printable(m->cluster, false) ||
      !terminated(m->from, sizeof m->from) || !printable(m->from, true) ||
      !terminated(m->sandbox, sizeof m->sandbox) ||
      !terminated(m->name, sizeof m->name) || !terminated(m->uuid, sizeof m->uuid) ||
      m->ncands > HG_REPL_CANDIDATES)
    return false;
  if (m->tmpl
          ? m->sandbox[0] || !hg_repl_name_ok(m->name) || m->epoch || m->gen
          : !sandbox_ok(m->sandbox, false) || (m->name[0] && !hg_repl_name_ok(m->name)))
    return false;
  if (!m->uuid[0] ? m->tmpl || m->epoch || m->gen || m->name[0] || m->ncands
                  : !uuid_ok(m->uuid))
    return false;
  for (unsigned i = 0; i < m->ncands; i++) {
    const hg_repl_parent *c = &m->cands[i];
    if (!terminated(c->uuid, sizeof c->uuid) || !uuid_ok(c->uuid) || (c->tmpl && c->gen))
      return false;
  }
  return true;
}

static bool reply_ok(const hg_repl_reply *m) {
  return m->verdict >= HG_REPL_SEND && m->verdict <= HG_REPL_REFUSE && m->parent >= -1 &&
         m->parent < HG_REPL_CANDIDATES && terminated(m->code, sizeof m->code) &&
         code_ok(m->code) && (m->verdict != HG_REPL_REFUSE || m->code[0]) &&
         terminated(m->message, sizeof m->message);
}

static bool holdings_ok(const hg_repl_holdings *m) {
  if (!terminated(m->sandbox, sizeof m->sandbox) || !sandbox_ok(m->sandbox, true) ||
      m->n > HG_REPL_HOLDINGS)
    return false;
  for (unsigned i = 0; i < m->n; i++)
    if (!terminated(m->h[i].uuid, sizeof m->h[i].uuid) || !uuid_ok(m->h[i].uuid))
      return false;
  return true;
}

static bool error_ok(const hg_repl_error *m) {
  return terminated(m->code, sizeof m->code) && m->code[0] && code_ok(m->code) &&
         terminated(m->message, sizeof m->message);
}

/* A peer's sentence ends up in our logs and API answers: no control bytes. */
static void tame(char *s) {
  for (; *s; s++)
    if ((unsigned char)*s < 0x20 || *s == 0x7f) *s = ' ';
}

/* ---- encoding --------------------------------------------------------------- */

/* An encoder's packer (node/core/mp.h) and where its message began, so a
 * failed encoder can leave the buffer as it found it. */
typedef struct enc {
  hg_mp_sink sink;
  size_t mark;
} enc;

static void enc_begin(enc *e, hg_buf *out, uint32_t nkeys) {
  hg_mp_sink_init(&e->sink, out);
  e->mark = out->len;
  msgpack_pack_map(&e->sink.pk, nkeys);
}

static int enc_end(enc *e) {
  hg_buf *b = e->sink.b;
  if (!e->sink.err) return 0;
  b->len = e->mark;
  if (b->data) b->data[e->mark] = '\0';
  return e->sink.err;
}

typedef void (*pack_fn)(msgpack_packer *pk, const void *elem);

/* key: an array of n maps, fn packing each of elems (size bytes apart). */
static void pack_list(msgpack_packer *pk, const char *key, unsigned n, pack_fn fn,
                      const void *elems, size_t size) {
  hg_mp_pack_str(pk, key);
  msgpack_pack_array(pk, n);
  for (unsigned i = 0; i < n; i++) fn(pk, (const char *)elems + i * size);
}

static void pack_parent(msgpack_packer *pk, const void *elem) {
  const hg_repl_parent *c = elem;
  msgpack_pack_map(pk, 3);
  hg_mp_pack_kv_u64(pk, "g", c->gen);
  hg_mp_pack_kv_bool(pk, "t", c->tmpl);
  hg_mp_pack_kv_str(pk, "u", c->uuid);
}

static void pack_holding(msgpack_packer *pk, const void *elem) {
  const hg_repl_holding *h = elem;
  msgpack_pack_map(pk, 4);
  hg_mp_pack_kv_u64(pk, "g", h->gen);
  hg_mp_pack_kv_u64(pk, "b", h->bytes);
  hg_mp_pack_kv_i64(pk, "ms", h->created_ms);
  hg_mp_pack_kv_str(pk, "u", h->uuid);
}

int hg_repl_offer_encode(const hg_repl_offer *m, hg_buf *out) {
  if (!offer_ok(m)) return -EINVAL;
  enc e;
  enc_begin(&e, out, 10);
  msgpack_packer *pk = &e.sink.pk;
  hg_mp_pack_kv_bin(pk, "n", m->nonce, HG_RFRAME_NONCE);
  hg_mp_pack_kv_str(pk, "c", m->cluster);
  hg_mp_pack_kv_str(pk, "f", m->from);
  hg_mp_pack_kv_str(pk, "s", m->sandbox);
  hg_mp_pack_kv_bool(pk, "t", m->tmpl);
  hg_mp_pack_kv_u64(pk, "e", m->epoch);
  hg_mp_pack_kv_u64(pk, "g", m->gen);
  hg_mp_pack_kv_str(pk, "m", m->name);
  hg_mp_pack_kv_str(pk, "u", m->uuid);
  pack_list(pk, "p", m->ncands, pack_parent, m->cands, sizeof m->cands[0]);
  return enc_end(&e);
}

int hg_repl_reply_encode(const hg_repl_reply *m, hg_buf *out) {
  if (!reply_ok(m)) return -EINVAL;
  enc e;
  enc_begin(&e, out, 5);
  hg_mp_pack_kv_u64(&e.sink.pk, "v", (uint64_t)m->verdict);
  hg_mp_pack_kv_bin(&e.sink.pk, "ch", m->challenge, HG_RFRAME_NONCE);
  hg_mp_pack_kv_i64(&e.sink.pk, "p", m->parent);
  hg_mp_pack_kv_str(&e.sink.pk, "k", m->code);
  hg_mp_pack_kv_str(&e.sink.pk, "ms", m->message);
  return enc_end(&e);
}

int hg_repl_end_encode(const hg_repl_end *m, hg_buf *out) {
  enc e;
  enc_begin(&e, out, 3);
  hg_mp_pack_kv_u64(&e.sink.pk, "r", m->raw_bytes);
  hg_mp_pack_kv_u64(&e.sink.pk, "z", m->zstd_bytes);
  hg_mp_pack_kv_u64(&e.sink.pk, "c", m->chunks);
  return enc_end(&e);
}

int hg_repl_holdings_encode(const hg_repl_holdings *m, hg_buf *out) {
  if (!holdings_ok(m)) return -EINVAL;
  enc e;
  enc_begin(&e, out, 4);
  msgpack_packer *pk = &e.sink.pk;
  hg_mp_pack_kv_str(pk, "s", m->sandbox);
  hg_mp_pack_kv_u64(pk, "g", m->gen);
  hg_mp_pack_kv_u64(pk, "e", m->epoch);
  pack_list(pk, "h", m->n, pack_holding, m->h, sizeof m->h[0]);
  return enc_end(&e);
}

int hg_repl_error_encode(const hg_repl_error *m, hg_buf *out) {
  if (!error_ok(m)) return -EINVAL;
  enc e;
  enc_begin(&e, out, 2);
  hg_mp_pack_kv_str(&e.sink.pk, "k", m->code);
  hg_mp_pack_kv_str(&e.sink.pk, "ms", m->message);
  return enc_end(&e);
}

/* ---- decoding: every failure is -EPROTO --------------------------------------- */

static int unpack_map(const void *data, size_t len, size_t max, msgpack_unpacked *u) {
  if (len > max || hg_wire_unpack(data, len, u) < 0) return -EPROTO;
  if (u->data.type != MSGPACK_OBJECT_MAP) {
    msgpack_unpacked_destroy(u);
    return -EPROTO;
  }
  return 0;
}

/* Optional fields keep the zero the decoder started from when absent. */
static int get_u64(const msgpack_object *map, const char *key, bool required,
                   uint64_t *out) {
  int rc = hg_mp_u64(map, key, out);
  return rc == 0 || (rc == -ENOENT && !required) ? 0 : -EPROTO;
}

static int get_i64(const msgpack_object *map, const char *key, int64_t *out) {
  return hg_mp_i64(map, key, out) < 0 ? -EPROTO : 0;
}

static int get_bool(const msgpack_object *map, const char *key, bool required,
                    bool *out) {
  int rc = hg_mp_bool(map, key, out);
  return rc == 0 || (rc == -ENOENT && !required) ? 0 : -EPROTO;
}

static int get_str(const msgpack_object *map, const char *key, bool required, char *out,
                   size_t cap) {
  int rc = hg_mp_strcpy(map, key, out, cap);
  return rc == 0 || (rc == -ENOENT && !required) ? 0 : -EPROTO;
}

static int get_nonce(const msgpack_object *map, const char *key,
                     uint8_t out[HG_RFRAME_NONCE]) {
  const char *p;
  size_t n;
  if (hg_mp_bin(map, key, &p, &n) < 0 || n != HG_RFRAME_NONCE) return -EPROTO;
  memcpy(out, p, n);
  return 0;
}

/* Decodes one map (a message, or an element of a list) into m. */
typedef int (*decode_fn)(const msgpack_object *o, void *m);

/* key: an array of at most max maps, fn decoding each into elems (size
 * bytes apart); when absent and not required, none. */
static int get_list(const msgpack_object *map, const char *key, bool required,
                    unsigned max, decode_fn fn, void *elems, size_t size, unsigned *n) {
  const msgpack_object *a = hg_mp_get(map, key);
  if (!a && !required) {
    *n = 0;
    return 0;
  }
  if (!a || a->type != MSGPACK_OBJECT_ARRAY || a->via.array.size > max) return -EPROTO;
  for (uint32_t i = 0; i < a->via.array.size; i++) {
    const msgpack_object *item = &a->via.array.ptr[i];
    if (item->type != MSGPACK_OBJECT_MAP || fn(item, (char *)elems + i * size) < 0)
      return -EPROTO;
  }
  *n = a->via.array.size;
  return 0;
}

static int decode_parent(const msgpack_object *o, void *p) {
  hg_repl_parent *c = p;
  if (get_u64(o, "g", true, &c->gen) < 0 || get_bool(o, "t", true, &c->tmpl) < 0 ||
      get_str(o, "u", true, c->uuid, sizeof c->uuid) < 0)
    return -EPROTO;
  return 0;
}

static int decode_holding(const msgpack_object *o, void *p) {
  hg_repl_holding *h = p;
  if (get_u64(o, "g", true, &h->gen) < 0 || get_u64(o, "b", true, &h->bytes) < 0 ||
      get_i64(o, "ms", &h->created_ms) < 0 ||
      get_str(o, "u", true, h->uuid, sizeof h->uuid) < 0)
    return -EPROTO;
  return 0;
}

static int decode_offer(const msgpack_object *o, void *p) {
  hg_repl_offer *m = p;
  if (get_nonce(o, "n", m->nonce) < 0 ||
      get_str(o, "c", true, m->cluster, sizeof m->cluster) < 0 ||
      get_str(o, "f", true, m->from, sizeof m->from) < 0 ||
      get_str(o, "s", true, m->sandbox, sizeof m->sandbox) < 0 ||
      get_bool(o, "t", false, &m->tmpl) < 0 || get_u64(o, "e", false, &m->epoch) < 0 ||
      get_u64(o, "g", false, &m->gen) < 0 ||
      get_str(o, "m", false, m->name, sizeof m->name) < 0 ||
      get_str(o, "u", false, m->uuid, sizeof m->uuid) < 0 ||
      get_list(o, "p", false, HG_REPL_CANDIDATES, decode_parent, m->cands,
               sizeof m->cands[0], &m->ncands) < 0)
    return -EPROTO;
  return offer_ok(m) ? 0 : -EPROTO;
}

static int decode_reply(const msgpack_object *o, void *p) {
  hg_repl_reply *m = p;
  uint64_t verdict;
  int64_t parent;
  if (get_u64(o, "v", true, &verdict) < 0 || verdict < HG_REPL_SEND ||
      verdict > HG_REPL_REFUSE || get_nonce(o, "ch", m->challenge) < 0 ||
      get_i64(o, "p", &parent) < 0 || parent < -1 || parent >= HG_REPL_CANDIDATES ||
      get_str(o, "k", true, m->code, sizeof m->code) < 0 ||
      get_str(o, "ms", true, m->message, sizeof m->message) < 0)
    return -EPROTO;
  m->verdict = (hg_repl_verdict)verdict;
  m->parent = (int)parent;
  tame(m->message);
  return reply_ok(m) ? 0 : -EPROTO;
}

static int decode_end(const msgpack_object *o, void *p) {
  hg_repl_end *m = p;
  if (get_u64(o, "r", true, &m->raw_bytes) < 0 ||
      get_u64(o, "z", true, &m->zstd_bytes) < 0 || get_u64(o, "c", true, &m->chunks) < 0)
    return -EPROTO;
  return 0;
}

static int decode_holdings(const msgpack_object *o, void *p) {
  hg_repl_holdings *m = p;
  if (get_str(o, "s", true, m->sandbox, sizeof m->sandbox) < 0 ||
      get_u64(o, "g", true, &m->gen) < 0 || get_u64(o, "e", true, &m->epoch) < 0 ||
      get_list(o, "h", true, HG_REPL_HOLDINGS, decode_holding, m->h, sizeof m->h[0],
               &m->n) < 0)
    return -EPROTO;
  return holdings_ok(m) ? 0 : -EPROTO;
}

static int decode_error(const msgpack_object *o, void *p) {
  hg_repl_error *m = p;
  if (get_str(o, "k", true, m->code, sizeof m->code) < 0 ||
      get_str(o, "ms", true, m->message, sizeof m->message) < 0)
    return -EPROTO;
  tame(m->message);
  return error_ok(m) ? 0 : -EPROTO;
}

/* Unpacks, decodes into a zeroed scratch copy, and only then writes out. */
static int decode(const void *data, size_t len, size_t max, decode_fn fn, void *scratch,
                  size_t size, void *out) {
  msgpack_unpacked u;
  int rc = unpack_map(data, len, max, &u);
  if (rc < 0) return rc;
  memset(scratch, 0, size);
  rc = fn(&u.data, scratch);
  msgpack_unpacked_destroy(&u);
  if (rc == 0) memcpy(out, scratch, size);
  return rc;
}

int hg_repl_offer_decode(const void *data, size_t len, hg_repl_offer *out) {
  hg_repl_offer m;
  return decode(data, len, MSG_MAX_OFFER, decode_offer, &m, sizeof m, out);
}

int hg_repl_reply_decode(const void *data, size_t len, hg_repl_reply *out) {
  hg_repl_reply m;
  return decode(data, len, MSG_MAX_SMALL, decode_reply, &m, sizeof m, out);
}

int hg_repl_end_decode(const void *data, size_t len, hg_repl_end *out) {
  hg_repl_end m;
  return decode(data, len, MSG_MAX_SMALL, decode_end, &m, sizeof m, out);
}

int hg_repl_holdings_decode(const void *data, size_t len, hg_repl_holdings *out) {
  hg_repl_holdings m;
  return decode(data, len, MSG_MAX_HOLDINGS, decode_holdings, &m, sizeof m, out);
}

int hg_repl_error_decode(const void *data, size_t len, hg_repl_error *out) {
  hg_repl_error m;
  return decode(data, len, MSG_MAX_SMALL, decode_error, &m, sizeof m, out);
}
