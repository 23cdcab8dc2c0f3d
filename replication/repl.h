/* repl: a node's replication service (DESIGN §10). It listens on the
 * replication address for exchanges from peers (frame.h) and sends this
 * node's generations and templates to peers, with blocking calls meant for
 * worker threads (a suspend operation, the reconciler).
 *
 * What a node holds of a sandbox S ("holdings"): every read-only
 * generation subvolume under snapshots/S/<gen> (its own, as owner) and
 * replicas/S/<gen> (received). A generation's identity is its received_uuid
 * when it has one, else its uuid: btrfs keeps it across send/receive, so a
 * generation has the same identity on every node that holds it, and that is
 * what `btrfs receive` looks the parent up by.
 *
 * Sending gen G of S to a peer: OFFER lists the local holdings of S below G
 * (newest first) and then the template S was created from as parent
 * candidates; the peer answers with the first candidate it holds with the
 * same identity (SEND), HAVE when it already holds G with the same
 * identity, or REFUSE (stale epoch, other cluster, no space, busy …). The
 * stream is against that parent, or full when there is none.
 *
 * Receiving: stream into staging/<random>/, verify (the child succeeded,
 * totals match END, exactly one read-only subvolume whose received_uuid is
 * the offered identity), then rename to replicas/S/<G> (templates:
 * templates/<name@digest16>), fsync, ACK with the holdings after
 * retention. Anything else: the staged subvolume is deleted and the
 * sender gets ERROR {code, message}. A stream whose epoch is below the
 * highest this node accepted for S (replicas/S/epoch) or below
 * known_epoch() is refused before any data moves.
 *
 * Retention: after each promotion a holder keeps the newest `keep`
 * generations in replicas/S and deletes older ones. A sender only ever uses
 * a parent the receiver listed in that exchange, so deleting never breaks a
 * stream; a holder's newest generation is never deleted. */
#ifndef HG_REPL_REPL_H
#define HG_REPL_REPL_H

#include <stdbool.h>
#include <stdint.h>

#include "node/core/buf.h"
#include "node/core/ident.h"
#include "node/store.h"
#include "replication/frame.h"
#include "replication/stream.h"

typedef struct hg_repl hg_repl;

typedef struct hg_repl_config {
  hg_store *store;
  const char *node_id;
  const char *cluster_name;   /* NULL: "hangar" */
  const char *cluster_keys;   /* "hex64[,hex64…]" (--cluster-key); required */
  const char *listen;         /* HOST:PORT to bind ("127.0.0.1:0" in tests) */
  int zstd_level;             /* 0: 1 */
  unsigned keep;              /* generations kept per sandbox in replicas/; 0: 3 */
  unsigned max_receives;      /* concurrent inbound exchanges; 0: 4 (more: REFUSE "busy") */
  int io_timeout_ms;          /* no progress for this long ends an exchange; 0: 30000 */
  /* The highest epoch the cluster knows for a sandbox (the directory), 0
   * when unknown. Called from receive threads; may be NULL. */
  uint64_t (*known_epoch)(void *ud, const char *sandbox);
  /* Told after a generation (sandbox, gen) or a template (template_name,
   * sandbox "") was promoted. Receive threads; may be NULL. */
  void (*on_received)(void *ud, const char *sandbox, uint64_t gen, const char *template_name);
  void *ud;
} hg_repl_config;

/* Binds (-EADDRINUSE …) and starts the accept thread. */
int hg_repl_open(const hg_repl_config *cfg, hg_repl **out);
/* Stops accepting, ends inbound exchanges (their staging is deleted), joins. */
void hg_repl_close(hg_repl *r);
/* The bound "host:port" (a :0 listen gets its real port). */
const char *hg_repl_addr(const hg_repl *r);

typedef struct hg_repl_target {
  char node[HG_NODE_ID_MAX];
  char addr[HG_ADDR_MAX];  /* the peer's replication "host:port" */
} hg_repl_target;

typedef struct hg_repl_result {
  char node[HG_NODE_ID_MAX];
  int rc;                       /* 0: acknowledged (or already held); < 0 failed */
  bool had;                     /* the peer already held it: nothing was streamed */
  bool parent_template;         /* the stream was against the template … */
  uint64_t parent_gen;          /* … or against this generation; full when neither */
  uint64_t raw_bytes, zstd_bytes;
  double ms;                    /* connect to ACK */
  char code[32], message[256];  /* why, when rc < 0 (err.h code, sentence) */
  hg_repl_holdings held;        /* the peer's holdings after the ACK (LIST form) */
} hg_repl_result;

/* Sends generation gen of sandbox (its local holding) to peer. tmpl: the
 * sandbox's template directory name ("name@digest16"), the parent of last
 * resort; NULL: none. progress as in hg_stream_send. Returns res->rc. */
int hg_repl_send_gen(hg_repl *r, const hg_repl_target *peer, const char *sandbox,
                     uint64_t epoch, uint64_t gen, const char *tmpl,
                     hg_stream_progress_fn progress, void *ud, hg_repl_result *res);
/* Sends templates/<tmpl> (full); HAVE when the peer has that name already. */
int hg_repl_send_template(hg_repl *r, const hg_repl_target *peer, const char *tmpl,
                          hg_repl_result *res);
/* A peer's holdings of sandbox (LIST); -errno, or the peer's ERROR as
 * -EPROTO/-EACCES with msg. */
int hg_repl_list(hg_repl *r, const hg_repl_target *peer, const char *sandbox,
                 hg_repl_holdings *out, char *msg, size_t msgcap);
/* Our holdings of sandbox (snapshots/ and replicas/), newest first. */
int hg_repl_local(hg_repl *r, const char *sandbox, hg_repl_holdings *out);
/* Our newest generation of sandbox: its number and store-relative path
 * (snapshots/ or replicas/); -ENOENT when we hold none. Cheaper than
 * hg_repl_local (no sizes). */
int hg_repl_newest(hg_repl *r, const char *sandbox, uint64_t *gen, char *rel, size_t cap);
/* Keeps receives and sends of sandbox out until hg_repl_unhold: waits for
 * a receive in progress and for this node's sends of it in flight; an
 * offer meanwhile is refused "busy" (its sender retries), and a send of
 * it here fails -EBUSY, code "busy" (the replicator retries it as a
 * peer's busy). For whoever deletes or rearranges the sandbox's
 * generations on disk: a disown moves snapshots/ to replicas/, writable
 * for a moment, and a receive then would not see them; btrfs refuses to
 * delete or flip the read-only flag of a subvolume a send reads (EPERM).
 * Take it before any lock of the manager's: sends and receives take none.
 * Not reentrant. r NULL (a node without replication): nothing to hold,
 * 0. -EINVAL bad id, -ENOMEM. */
int hg_repl_hold(hg_repl *r, const char *sandbox);
void hg_repl_unhold(hg_repl *r, const char *sandbox);
/* Deletes replicas/<sandbox> (a deleted sandbox); 0 if there is none. */
int hg_repl_drop(hg_repl *r, const char *sandbox);
/* Sandboxes with anything under replicas/ (for garbage collection); *ids is
 * malloc'd, n entries. */
int hg_repl_replica_ids(hg_repl *r, char (**ids)[HG_ID_MAX], size_t *n);

/* Prometheus lines: hangar_repl_{sent,received}_bytes_total{kind=raw|zstd},
 * hangar_repl_streams_total{direction,result}, hangar_repl_refused_total{code}. */
void hg_repl_metrics(hg_repl *r, hg_buf *out);

#endif
