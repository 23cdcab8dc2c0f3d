/* cluster: this node's membership in a peer cluster (DESIGN §8). It runs
 * swim over sealed UDP datagrams and sealed (zstd when large) TCP push-pull
 * streams on the hangard loop, keeps the roster (every node that ever
 * joined, persisted under state/roster.json, left only by decommission),
 * the sandbox directory, and answers placement.
 *
 * Loop thread only, except the calls marked thread-safe (sandbox workers
 * publish directory changes from the thread pool). */
#ifndef HG_CLUSTER_CLUSTER_H
#define HG_CLUSTER_CLUSTER_H

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <uv.h>

#include "cluster/meta.h"
#include "cluster/swim.h"
#include "node/core/buf.h"

typedef struct hg_cluster hg_cluster;

typedef struct hg_cluster_config {
  const char *node_id;
  const char *gossip;        /* bind HOST:PORT (also advertised unless advertise is set) */
  const char *advertise;     /* HOST:PORT peers use to reach our gossip; NULL: gossip */
  const char *join;          /* "HOST:PORT[,HOST:PORT…]" seeds; NULL or "": start alone */
  const char *cluster_key;   /* "hex64[,hex64…]"; required */
  const char *cluster_name;  /* AAD; NULL: "hangar" */
  const char *zone;          /* "" */
  const char *profile;       /* "lan" or "local" */
  const char *state_dir;     /* <data>/state: roster.json, incarnation; NULL: not persisted */
  hg_swim_config swim;       /* 0 fields take the profile's value */
  hg_node_meta self;         /* initial metadata (id, addresses, capacity) */
  int64_t tombstone_ms;      /* how long "deleted" entries are kept; 0: 10 min */
} hg_cluster_config;

int hg_cluster_new(uv_loop_t *loop, const hg_cluster_config *cfg, hg_cluster **out);
/* Binds, starts gossip, joins the seeds (and keeps re-joining them). */
int hg_cluster_start(hg_cluster *c);
/* Graceful leave (broadcast, wait up to 500 ms), closes handles, frees,
 * then calls done. Also for a cluster that was never started or failed to
 * start. Worker threads must have stopped calling dir_put/set_meta. */
void hg_cluster_close(hg_cluster *c, void (*done)(void *ud), void *ud);

/* Load and capacity changed: gossiped at most once per second. Thread-safe. */
void hg_cluster_set_meta(hg_cluster *c, const hg_node_meta *self);

/* Directory. put publishes our own entry and gossips it; thread-safe. It
 * sets the version to max(known + 1, e->version + 1, wall-clock ms), so an
 * owner that restarted before hearing its old entries still wins; an empty
 * owner becomes us, a zero updated_ms now. -ESTALE when the directory
 * already knows a higher epoch for the sandbox (fenced), -ENOSPC when it
 * holds 100000 live entries. "deleted" entries are kept as tombstones
 * for the config's tombstone_ms, counted from the deleter's wall clock (a
 * tombstone older than that is not taken from a peer). get copies the newest entry known (tombstones too);
 * -ENOENT; thread-safe. A get followed by a put is not atomic: to change
 * an entry that others may change too, use update. */
int hg_cluster_dir_put(hg_cluster *c, const hg_dirent *e);
int hg_cluster_dir_get(hg_cluster *c, const char *sandbox, hg_dirent *out);
/* The one way to read-modify-write an entry: fn runs under the directory's
 * lock with the newest entry known for sandbox (exists false: none, e
 * zeroed but for its sandbox), edits it in place and returns 1 to put it
 * (as hg_cluster_dir_put, so version, owner and fencing apply), 0 to leave
 * the directory as it is, or a negative errno, returned as it is. Updates
 * from several threads therefore compose: none is lost between another's
 * read and write. fn must be short and must not call into the cluster.
 * 0, fn's error, -EINVAL, or dir_put's. Thread-safe. */
typedef int (*hg_cluster_dir_fn)(void *arg, hg_dirent *e, bool exists);
int hg_cluster_dir_update(hg_cluster *c, const char *sandbox, hg_cluster_dir_fn fn,
                          void *arg);

/* A member's API address ("host:port"); -ENOENT unknown (or no metadata
 * yet), -EHOSTDOWN not alive. */
int hg_cluster_api_addr(hg_cluster *c, const char *node_id, char addr[HG_ADDR_MAX]);

/* Peers as worker threads see them: a copy the loop keeps current on every
 * membership or metadata change and rebuilds every housekeeping tick. */
typedef struct hg_cluster_peer {
  char id[HG_NODE_ID_MAX];
  char api_addr[HG_ADDR_MAX];
  char repl_addr[HG_ADDR_MAX]; /* "" when the peer advertises none */
  char zone[32];
  bool alive;      /* alive or suspect: suspects count as alive for reads, */
  bool suspect;    /* not as replica targets */
  bool compatible; /* same vmm kind and cpu_class as our latest metadata */
  bool draining;
  uint64_t memory_free_mib; /* total - used, saturating at 0 */
} hg_cluster_peer;

/* Members other than us that have metadata and are alive or suspect,
 * sorted by id; returns how many were written (<= cap). Thread-safe. */
size_t hg_cluster_peers(hg_cluster *c, hg_cluster_peer *out, size_t cap);
/* One member by id (our own id gives our own entry): 0, -EHOSTDOWN dead or
 * left (roster members swim forgot too), -ENOENT unknown or no metadata
 * yet, -EINVAL for a NULL id. Thread-safe. */
int hg_cluster_peer_get(hg_cluster *c, const char *id, hg_cluster_peer *out);
/* Replica holders for key (DESIGN §8): rendezvous hashing (weight: the
 * first 8 bytes, big-endian, of SHA-256(key | 0x00 | node id); ties by id)
 * over peers that are alive (not suspect), compatible, not draining and
 * advertise a replication address, other than us and the exclude ids.
 * Spread across zones: first the best peer of each zone not yet used, in
 * weight order, where our own zone and the zones of the excluded ids still
 * alive or suspect (current holders, typically) count as used; then the
 * remaining peers by weight. Writes up to n peers in that order and returns
 * the count (0 also when out of memory). Deterministic for the same
 * membership. Thread-safe; worker threads must stop calling these before
 * hg_cluster_close. */
size_t hg_cluster_replica_targets(hg_cluster *c, const char *key,
                                  const char *const *exclude, size_t nexclude, size_t n,
                                  hg_cluster_peer *out);
/* A new acceptor group's members beside us: as hg_cluster_replica_targets
 * with no exclusions, but a suspect peer is a candidate too, after every
 * alive one. A group is chosen once for the sandbox's life, and a peer that
 * missed a few pings while the create ran (SWIM on a loaded host) must not
 * leave it a group of two, which the death of either member then stops for
 * good (no majority to claim or regroup with). */
size_t hg_cluster_acceptor_targets(hg_cluster *c, const char *key, size_t n,
                                   hg_cluster_peer *out);

typedef struct hg_place_req {
  const char *template_ref;  /* "name:tag" or "name" (":latest") or NULL ("default") */
  unsigned vcpus;
  unsigned memory_mib;
  const char *zone;          /* NULL: any */
  const char *label;         /* "k=v" or NULL */
} hg_place_req;

/* 1: place it here. 0: node_id/api_addr name the chosen peer (power of two
 * choices on free memory among alive, non-draining members with room, the
 * template and matching constraints). -ENOSPC: no node fits; reason says
 * why in a sentence for the 507. */
int hg_cluster_place(hg_cluster *c, const hg_place_req *req, char node_id[HG_NODE_ID_MAX],
                     char api_addr[HG_ADDR_MAX], char reason[256]);

/* JSON for the API (docs/api.md): members with state, incarnation, addresses,
 * zone, capacity, load, roster flag; directory entries. New references.
 * Members: [{id, state, incarnation, since, addresses:{api,gossip,
 * replication}, zone, draining, vmm:{kind,version,cpu_class}, capacity:
 * {vcpus,memory_mib,disk_free_mib,max_sandboxes}, load:{vcpus_used,
 * memory_used_mib, sandboxes:{running,paused,suspended,total}}, templates,
 * labels, roster, self}] sorted by id; roster members swim has forgotten
 * are listed as "dead". Directory: [{sandbox, owner, epoch, version, state,
 * template, gen, holders, updated_at}] sorted by sandbox. */
json_t *hg_cluster_members_json(hg_cluster *c);
json_t *hg_cluster_dir_json(hg_cluster *c);
/* Removes a node from the roster (it must be dead or left; -EBUSY if alive,
 * suspect or ourselves, -ENOENT not in the roster) and persists it. */
int hg_cluster_decommission(hg_cluster *c, const char *node_id);

typedef struct hg_cluster_stats {
  hg_swim_stats swim;
  uint64_t dropped_auth;     /* bad tag, wrong key, other cluster */
  uint64_t dropped_replay;
  uint64_t dropped_malformed;/* truncated, bad msgpack, over limits */
  uint64_t bytes_sent, bytes_received, push_pulls;
  size_t members_alive, members_suspect, members_dead;
  unsigned health;           /* Lifeguard local health (awareness), 0 = healthy */
} hg_cluster_stats;
void hg_cluster_get_stats(hg_cluster *c, hg_cluster_stats *out);
/* The stats in Prometheus text (hangar_cluster_*), appended to out. */
void hg_cluster_metrics(hg_cluster *c, hg_buf *out);
const char *hg_cluster_self_id(const hg_cluster *c);
/* Has the directory come from a peer (one push-pull done) since start? A
 * node that knows of no other (no seeds, a roster of itself) has none to
 * wait for, and one that heard nobody for 10 s after its start stops
 * waiting (its peers may be gone for good). Before it, this node's copies
 * may be ones the cluster has moved past (it was away). Loop thread. */
bool hg_cluster_heard(const hg_cluster *c);

/* Lease messages (cluster/leases.h) ride the gossip socket, sealed with
 * the cluster keyring like swim's datagrams and told apart by their first
 * plaintext byte, 0xc1, which msgpack never uses. They are not replay
 * checked: the lease protocol is safe under duplication and delay (its
 * model says so), and their payload names the sender. Loss is fine too:
 * the proposer retries. Loop thread only. */
#define HG_CLUSTER_LEASE_MAX 60000 /* plaintext bytes of one lease datagram */
typedef void (*hg_cluster_lease_fn)(void *ud, const void *data, size_t len);
/* Who gets the lease datagrams that arrive; NULL drops them. */
void hg_cluster_on_lease(hg_cluster *c, hg_cluster_lease_fn fn, void *ud);
/* A member other than us changed state (swim's view: alive, suspect,
 * dead, left), or appeared: fn(ud, id, state) on the loop, after the
 * peers copy was updated. NULL: nobody is told. Loop thread only. */
typedef void (*hg_cluster_member_fn)(void *ud, const char *node_id, hg_member_state state);
void hg_cluster_on_member_change(hg_cluster *c, hg_cluster_member_fn fn, void *ud);
/* The rendezvous weight of node id for key (as replica_targets uses it):
 * the first 8 bytes, big-endian, of SHA-256(key | 0x00 | id). Thread-safe. */
uint64_t hg_cluster_rendezvous(const char *key, const char *id);

/* One datagram to node_id's gossip address: -ENOENT for a node swim does
 * not know, -EMSGSIZE past HG_CLUSTER_LEASE_MAX - 1. */
int hg_cluster_lease_send(hg_cluster *c, const char *node_id, const void *data, size_t len);

#endif
