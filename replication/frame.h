/* frame: the replication wire (DESIGN §10). One TCP connection carries one
 * exchange; every frame, both directions, is
 *
 *   u32 BE payload length | u8 type | payload | 32-byte HMAC-SHA256
 *
 * The MAC key is HMAC-SHA256(cluster key, "hangar-repl v1\0" | cluster
 * name), one per key of the keyring ("hex64[,hex64…]", as --cluster-key;
 * the first one sends, any one is accepted, the one that verified the first
 * frame is used for the rest of the exchange), so another cluster or a
 * wrong key fails the first frame. The MAC covers
 *
 *   session id (32) | u64 BE sequence | u8 direction | u8 type | u32 BE length | payload
 *
 * where the session id is zeros for the initiator's first frame (whose
 * payload carries its nonce, 16 random bytes), the nonce followed by zeros
 * for the responder's first frame (whose payload carries the responder's
 * challenge, 16 random bytes), and nonce | challenge for every later frame;
 * sequence counts frames per direction from 0, and direction is 0 from the
 * initiator, 1 from the responder. A frame can therefore be neither
 * replayed into another exchange (the responder's challenge is new; a
 * replayed first frame only earns a fresh challenge), reordered, dropped,
 * nor reflected back.
 *
 * Exchanges (initiator -> responder):
 *   OFFER  -> REPLY{send: parent, challenge} -> DATA… -> END -> ACK | ERROR
 *          -> REPLY{have | refuse}           (done)
 *   LIST   -> LISTED | ERROR
 * DATA payloads are raw zstd bytes; every other payload is a msgpack map,
 * decoded by the bounded decoders below (bytes from the network). */
#ifndef HG_REPL_FRAME_H
#define HG_REPL_FRAME_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "node/core/buf.h"
#include "node/core/ident.h"
#include "node/core/util.h"

#define HG_RFRAME_HDR 5
#define HG_RFRAME_MAC 32
#define HG_RFRAME_MAX (1u << 20)   /* payload bytes; a bigger length is -EPROTO */
#define HG_RFRAME_NONCE 16
#define HG_RFRAME_KEYS_MAX 8
#define HG_REPL_NAME_MAX 160      /* "name@digest16" of a template, with the NUL */
#define HG_REPL_UUID_MAX 37       /* canonical text form, with the NUL */
#define HG_REPL_CANDIDATES 64     /* parents offered at most */
#define HG_REPL_HOLDINGS 256      /* generations listed at most */

typedef enum hg_rframe_type {
  HG_RF_OFFER = 1,
  HG_RF_REPLY = 2,
  HG_RF_DATA = 3,
  HG_RF_END = 4,
  HG_RF_ACK = 5,
  HG_RF_ERROR = 6,
  HG_RF_LIST = 7,
  HG_RF_LISTED = 8,
} hg_rframe_type;

typedef struct hg_rframe_keys {
  uint8_t k[HG_RFRAME_KEYS_MAX][32];
  unsigned n;
} hg_rframe_keys;

/* Derives the MAC keys; -EINVAL for a malformed key list or a cluster name
 * that is empty or 64 bytes or longer (nothing secret is logged). */
int hg_rframe_keys_derive(const char *cluster_keys, const char *cluster_name, hg_rframe_keys *out);

typedef struct hg_rframe_session {
  const hg_rframe_keys *keys;
  int key;                  /* index in keys; -1 until the first frame verified (responder) */
  bool initiator;
  uint8_t nonce[HG_RFRAME_NONCE], challenge[HG_RFRAME_NONCE];
  uint64_t seq_out, seq_in;
} hg_rframe_session;

/* Initiator: draws the nonce (put it in the first frame's payload), key 0. */
int hg_rframe_session_initiator(hg_rframe_session *s, const hg_rframe_keys *keys);
/* Responder: draws the challenge (put it in the first answer's payload); no
 * key chosen until the first frame verifies. */
int hg_rframe_session_responder(hg_rframe_session *s, const hg_rframe_keys *keys);
/* Responder, after parsing and decoding the first frame: the nonce it carried. */
void hg_rframe_session_nonce(hg_rframe_session *s, const uint8_t nonce[HG_RFRAME_NONCE]);
/* Initiator, after parsing and decoding the first answer: its challenge. */
void hg_rframe_session_challenge(hg_rframe_session *s, const uint8_t challenge[HG_RFRAME_NONCE]);

/* Appends one frame to out. -EMSGSIZE past HG_RFRAME_MAX, -EINVAL for an
 * unknown type, -ENOKEY for a responder whose first frame has not verified
 * yet (it has nothing to answer an unauthenticated peer with). */
int hg_rframe_encode(hg_rframe_session *s, hg_rframe_type type, const void *payload, size_t len,
                    hg_buf *out);
/* Parses one frame from the front of data (pure: the fuzz target drives it).
 * 0: *type, *payload (points into data), *len and *used set, sequence
 * advanced. -EAGAIN: need more bytes (nothing consumed). -EPROTO: length
 * over HG_RFRAME_MAX or unknown type. -EBADMSG: the MAC does not verify
 * under any key (or, once a key was chosen, under that key); a failed
 * parse changes nothing in the session. */
int hg_rframe_parse(hg_rframe_session *s, const uint8_t *data, size_t n, hg_rframe_type *type,
                   const uint8_t **payload, size_t *len, size_t *used);

/* Blocking I/O on a connected socket, each call bounded by timeout_ms
 * (poll; < 0: unbounded): -ETIMEDOUT, -ECONNRESET on EOF mid-frame or
 * before one, -errno; the errors of encode and parse. After a failed call
 * the exchange is over (part of a frame may have moved). */
int hg_rframe_write(int fd, hg_rframe_session *s, hg_rframe_type type, const void *payload,
                   size_t len, int timeout_ms);
/* Reads one frame into buf (capacity HG_RFRAME_HDR + HG_RFRAME_MAX +
 * HG_RFRAME_MAC; -ENOBUFS for a frame that does not fit a smaller one);
 * *payload points into buf. Never reads past the frame. */
int hg_rframe_read(int fd, hg_rframe_session *s, uint8_t *buf, size_t cap, hg_rframe_type *type,
                  const uint8_t **payload, size_t *len, int timeout_ms);

/* ---- messages --------------------------------------------------------------- */

typedef struct hg_repl_parent {
  uint64_t gen;                    /* a generation of the sandbox; 0 with template */
  bool tmpl;                       /* the sandbox's template */
  char uuid[HG_REPL_UUID_MAX];     /* identity: received_uuid if set, else uuid */
} hg_repl_parent;

typedef struct hg_repl_offer {
  uint8_t nonce[HG_RFRAME_NONCE];   /* the initiator's, as in its session id */
  char cluster[64];
  char from[HG_NODE_ID_MAX];       /* sending node id */
  bool tmpl;                       /* a template (name) rather than a sandbox generation */
  char sandbox[HG_ID_MAX];         /* "" for a template */
  uint64_t epoch, gen;             /* 0, 0 for a template */
  char name[HG_REPL_NAME_MAX];     /* template "name@digest16": the template sent, or the
                                      sandbox's template */
  char uuid[HG_REPL_UUID_MAX];     /* identity of what is sent */
  hg_repl_parent cands[HG_REPL_CANDIDATES]; /* parents the sender could use, best first */
  unsigned ncands;
} hg_repl_offer;

typedef enum hg_repl_verdict { HG_REPL_SEND = 1, HG_REPL_HAVE = 2, HG_REPL_REFUSE = 3 } hg_repl_verdict;

typedef struct hg_repl_reply {
  hg_repl_verdict verdict;
  uint8_t challenge[HG_RFRAME_NONCE];
  int parent;                      /* SEND: index into the offer's cands, -1 full stream */
  char code[32];                   /* REFUSE: err.h code ("stale_epoch", "no_space", …) */
  char message[256];
} hg_repl_reply;

typedef struct hg_repl_end {
  uint64_t raw_bytes;              /* btrfs send stream bytes */
  uint64_t zstd_bytes;             /* DATA payload bytes */
  uint64_t chunks;                 /* DATA frames */
} hg_repl_end;

typedef struct hg_repl_holding {
  uint64_t gen;
  uint64_t bytes;                  /* referenced bytes of the subvolume (du), 0 unknown */
  int64_t created_ms;              /* wall clock */
  char uuid[HG_REPL_UUID_MAX];
} hg_repl_holding;

typedef struct hg_repl_holdings {  /* ACK and LISTED */
  char sandbox[HG_ID_MAX];
  uint64_t gen;                    /* ACK: the generation promoted */
  uint64_t epoch;                  /* highest epoch this holder accepted */
  hg_repl_holding h[HG_REPL_HOLDINGS];
  unsigned n;
} hg_repl_holdings;

typedef struct hg_repl_error {
  char code[32];
  char message[256];
} hg_repl_error;

/* Encoders append msgpack to out (-EINVAL for a message its decoder would
 * refuse, -ENOBUFS past out->max; out is left as it was on error).
 * Decoders take network bytes: -EPROTO for anything malformed (wrong type,
 * string without room or with a NUL, count over its maximum, missing
 * field, a uuid not in canonical lowercase form, a sandbox id that is not
 * "sb-<16 hex>", a name failing hg_repl_name_ok); out is written only on
 * success. Free text (message) arrives with control characters turned into
 * spaces, as it ends up in logs. Fields an OFFER carries beyond LIST's may
 * be absent (zero, ""); an offer whose uuid is "" must have only LIST's
 * fields (the receiver of an OFFER checks it has a uuid). */
int hg_repl_offer_encode(const hg_repl_offer *m, hg_buf *out);
int hg_repl_offer_decode(const void *data, size_t len, hg_repl_offer *out);
int hg_repl_reply_encode(const hg_repl_reply *m, hg_buf *out);
int hg_repl_reply_decode(const void *data, size_t len, hg_repl_reply *out);
int hg_repl_end_encode(const hg_repl_end *m, hg_buf *out);
int hg_repl_end_decode(const void *data, size_t len, hg_repl_end *out);
int hg_repl_holdings_encode(const hg_repl_holdings *m, hg_buf *out);
int hg_repl_holdings_decode(const void *data, size_t len, hg_repl_holdings *out);
int hg_repl_error_encode(const hg_repl_error *m, hg_buf *out);
int hg_repl_error_decode(const void *data, size_t len, hg_repl_error *out);
/* LIST carries {nonce, cluster, from, sandbox}: an offer with only those. */

/* A template directory name, "name:tag@digest16" ([a-z0-9._:-], starting
 * with a letter or digit, no "..", then '@' and 16 lowercase hex digits):
 * safe to join into a path. */
bool hg_repl_name_ok(const char *name);

#endif
