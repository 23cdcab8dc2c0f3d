/* wire: the cluster's messages and their msgpack encoding (DESIGN §8).
 *
 * One UDP packet carries one hg_wire_msg: a primary message (ping, ping-req,
 * ack, nack) or none (pure gossip), plus piggybacked member updates and
 * opaque user broadcasts (directory entries, see directory.h). A TCP
 * push-pull stream carries one hg_wire_msg of type PUSH_PULL with the full
 * member list and the full user state.
 *
 * The transport fills the replay fields (boot, pkt_seq, sent_ms) before
 * encoding and checks them after decoding; swim leaves them 0.
 *
 * Every byte decoded here came from the network: hg_wire_decode checks
 * every type and length, bounds every count by max_items, and never reads
 * past len. Strings are copied NUL-terminated; a string that does not fit
 * its field, holds a NUL, or an unknown type/kind is -EPROTO. */
#ifndef HG_CLUSTER_WIRE_H
#define HG_CLUSTER_WIRE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "node/core/buf.h"
#include "node/core/ident.h"

#define HG_WIRE_META_MAX 1024 /* a node's metadata blob (meta.h) */
#define HG_WIRE_USER_MAX 1024 /* one user broadcast */
#define HG_WIRE_UDP_MAX 1400  /* sealed datagram, bytes */
#define HG_WIRE_UDP_ITEMS 64  /* members + user items in one datagram */
#define HG_WIRE_TCP_MAX (64u * 1024 * 1024) /* decompressed push-pull stream */
#define HG_WIRE_TCP_ITEMS 200000

typedef enum hg_wire_type {
  HG_WIRE_GOSSIP = 0,   /* updates only */
  HG_WIRE_PING = 1,     /* seq, target (the id the sender believes is at this addr) */
  HG_WIRE_PING_REQ = 2, /* seq, target + target_addr: probe it for me */
  HG_WIRE_ACK = 3,      /* seq */
  HG_WIRE_NACK = 4,     /* seq: the indirect prober got no ack (Lifeguard) */
  HG_WIRE_PUSH_PULL = 5 /* TCP only: full state; join: sender is joining */
} hg_wire_type;

typedef enum hg_member_state {
  HG_MEMBER_ALIVE = 0,
  HG_MEMBER_SUSPECT = 1,
  HG_MEMBER_DEAD = 2,
  HG_MEMBER_LEFT = 3 /* dead by its own graceful leave */
} hg_member_state;

/* A member update (alive/suspect/dead/left) or, in push-pull, a member. */
typedef struct hg_wire_member {
  hg_member_state state;
  char id[HG_NODE_ID_MAX];
  uint64_t incarnation;
  char addr[HG_ADDR_MAX];  /* gossip address; "" when unknown */
  char from[HG_NODE_ID_MAX];    /* suspect/dead: who says so; "" otherwise */
  uint8_t meta[HG_WIRE_META_MAX];
  size_t meta_len;              /* alive and push-pull: the node's metadata */
} hg_wire_member;

/* Opaque user payload (a directory entry). key names what it updates, so a
 * newer broadcast replaces an older queued one with the same key. */
typedef struct hg_wire_user {
  char key[HG_NODE_ID_MAX];
  uint8_t data[HG_WIRE_USER_MAX];
  size_t len;
} hg_wire_user;

typedef struct hg_wire_msg {
  hg_wire_type type;
  /* replay protection, filled and checked by the transport */
  uint64_t boot;     /* random per process start */
  uint64_t pkt_seq;  /* per boot, increasing */
  int64_t sent_ms;   /* sender's wall clock */
  char from[HG_NODE_ID_MAX];
  char from_addr[HG_ADDR_MAX];
  uint32_t seq;                         /* ping/ping-req/ack/nack */
  char target[HG_NODE_ID_MAX];          /* ping, ping-req */
  char target_addr[HG_ADDR_MAX];   /* ping-req */
  bool join;                            /* push-pull */
  hg_wire_member *members;              /* heap arrays, hg_wire_msg_free */
  size_t nmembers;
  hg_wire_user *users;
  size_t nusers;
} hg_wire_msg;

/* Encodes into out (reset first); -ENOBUFS when it passes out->max,
 * -EINVAL when a field would not decode (string without its NUL, empty
 * from or member id, meta_len or len past its maximum, unknown type or
 * state). Only the fields m's type carries are sent (seq: ping..nack;
 * target: ping, ping-req; target_addr: ping-req; join: push-pull). */
int hg_wire_encode(const hg_wire_msg *m, hg_buf *out);
/* Encoded size of one piggybacked item, for packing datagrams to the MTU:
 * a bound, never less than what hg_wire_encode adds for it. */
size_t hg_wire_member_size(const hg_wire_member *u);
size_t hg_wire_user_size(const hg_wire_user *u);
/* Size of m without its items (also a bound) for m's type and strings,
 * whatever the replay fields will be and however many items are added
 * later: so header_size + sum of item sizes >= the encoded length. */
size_t hg_wire_header_size(const hg_wire_msg *m);

/* Decodes; at most max_items members + users (and at most 64 + 32 *
 * max_items msgpack objects, so a stream of tiny values cannot make msgpack-c
 * build gigabytes of them). Every error is -EPROTO (-ENOMEM aside). On
 * success the caller frees with hg_wire_msg_free; on error nothing is left
 * to free. A decoded member takes ~1.2 KB: HG_WIRE_TCP_ITEMS of them ~240 MB. */
int hg_wire_decode(const void *data, size_t len, size_t max_items, hg_wire_msg *out);
void hg_wire_msg_free(hg_wire_msg *m);

/* Unpacks exactly one msgpack object spanning all of data into out (free
 * with msgpack_unpacked_destroy); -EPROTO for anything else. It first checks
 * that no array or map claims more elements than bytes remain, because
 * msgpack-c allocates a container's elements up front from its count: five
 * hostile bytes would otherwise ask for gigabytes. Shared with meta.c. */
struct msgpack_unpacked;
int hg_wire_unpack(const void *data, size_t len, struct msgpack_unpacked *out);

/* Appends one item, growing the arrays; -ENOMEM. members and users belong
 * to the msg: allocate them only through these calls or hg_wire_decode
 * (the capacity is implied by the count); nmembers/nusers may be lowered. */
int hg_wire_add_member(hg_wire_msg *m, const hg_wire_member *u);
int hg_wire_add_user(hg_wire_msg *m, const hg_wire_user *u);

const char *hg_member_state_name(hg_member_state s); /* "alive", ... */

#endif
