/* sandbox: the node's sandbox manager (DESIGN §6). It owns the sandboxes of
 * this node: their subvolumes, their VMs (through a vmm driver) and their
 * agent channels, and moves them through the lifecycle
 *
 *   creating -> running <-> paused
 *   running|paused -> suspending -> suspended -> resuming -> running
 *   any -> deleting -> deleted
 *
 * writing sandbox.json (inside the subvolume) before any change is reported.
 * After a crash of hangard, hg_manager_open() re-adopts running VMs and
 * finishes or rolls back half-done transitions.
 *
 * Calls are thread-safe. hg_sandbox_describe, _list, _token_ok and
 * hg_manager_counts only take the manager's in-memory lock (never held
 * across I/O), so the event loop may call them; every other call blocks
 * (VMM, btrfs, agent round trips) and belongs on a worker thread, never on
 * the event loop. Calls on one sandbox are serialised, calls on different
 * sandboxes run in parallel.
 * Errors: -ENOENT unknown sandbox/template/command, -EBUSY wrong state
 * (API 409), -ENOSPC over capacity (507), -EINVAL bad argument,
 * -ETIMEDOUT guest did not answer, -EPROTO guest sent garbage. */
#ifndef HG_NODE_SANDBOX_H
#define HG_NODE_SANDBOX_H

#include <jansson.h>
#include <stdbool.h>
#include <stdint.h>

#include "node/agentcli.h"
#include "node/core/ident.h"
#include "node/core/util.h"
#include "node/store.h"
#include "node/template.h"
#include "node/vmm.h"

typedef struct hg_manager hg_manager;

typedef enum hg_sb_state {
  HG_SB_CREATING,
  HG_SB_RUNNING,
  HG_SB_PAUSED,
  HG_SB_SUSPENDING,
  HG_SB_SUSPENDED,
  HG_SB_RESUMING,
  HG_SB_DELETING,
  HG_SB_DELETED,
  HG_SB_FAILED,
} hg_sb_state;

const char *hg_sb_state_name(hg_sb_state s);
int hg_sb_state_parse(const char *name, hg_sb_state *out);

/* What on_change reports. */
typedef struct hg_sb_change {
  const char *id;
  const char *state;          /* hg_sb_state_name(), or "deleted" */
  uint64_t gen;               /* newest generation; 0: none */
  uint64_t epoch;             /* ownership epoch (1 at create, +1 per move to another node) */
  const char *template_ref;   /* "name:tag" */
} hg_sb_change;

/* A sandbox's lease as the manager keeps it (DESIGN §9): the epoch it
 * runs at, its acceptor group (recorded in sandbox.json, so that a replica
 * carries it to whoever resumes it next) and, when just taken, until when
 * (CLOCK_MONOTONIC ms) this node may run it: its VM's fencing deadline. */
#define HG_SB_GROUP_MAX 5
typedef struct hg_sb_lease {
  uint64_t epoch;
  int64_t until_ms;
  unsigned ngroup;
  char group[HG_SB_GROUP_MAX][HG_NODE_ID_MAX];
} hg_sb_lease;

/* How a lease is taken: for a sandbox new here (claimed at epoch 1 with a
 * new group), for one this node holds by its record (renewed at the
 * record's epoch: the group still promises it unless another node took
 * it, so a resume here does not raise the epoch), or for one moving here
 * from another node's record (claimed above that epoch). */
typedef enum hg_sb_take { HG_SB_TAKE_NEW, HG_SB_TAKE_OWN, HG_SB_TAKE_MOVE } hg_sb_take;

typedef struct hg_manager_config {
  hg_store *store;
  const hg_vmm_ops *vmm;
  const char *shim_path;      /* NULL: next to the running binary */
  const char *accel;          /* "kvm" or "tcg" (NULL): proven at start (node/accel.h) */
  const char *node_id;        /* told to guests on restore; NULL: not told */
  unsigned default_vcpus;     /* 1 */
  unsigned default_memory_mib;/* 256 */
  unsigned max_sandboxes;     /* 0: unlimited */
  uint64_t max_memory_mib;    /* sum of running guests' memory; 0: unlimited */
  int64_t default_idle_suspend_s; /* 6 h */
  /* Warm pool: this many sandboxes of pool_template kept restored, attached
   * and warmed up (under TCG the first run of every guest code path pays
   * for translation), so a create takes one instead of restoring. 0: off. */
  unsigned pool_size;
  /* The pool grows with demand: for a minute after a burst it keeps as
   * many as the most creates of its template that came within 10 s,
   * between pool_size and pool_max (0: 32),
   * within max_memory_mib. */
  unsigned pool_max;
  const char *pool_template;  /* NULL: "default" */
  /* Networking: every VM start (create, pool fill, resume, fork) attaches
   * the sandbox's tap first, every final stop (suspend, delete, a failed
   * start) detaches it; VMs re-adopted after a restart keep theirs. A
   * sandbox has a NIC when its template was built with one. NULL: no
   * networking (a NIC that a template's saved machine needs goes nowhere). */
  const hg_net_ops *net;
  /* Told after a sandbox's change is durable (sandbox.json written), with
   * state "deleted" once it is gone, and once per sandbox at the end of
   * hg_manager_open (after recovery), so a directory can mirror this node.
   * Never for unclaimed warm-pool sandboxes, nor for a disowned one. Called
   * from any thread, with no manager lock held; it must not call back into
   * the manager. NULL: off. */
  void (*on_change)(void *ud, const struct hg_sb_change *ch);
  void *on_change_ud;
  unsigned default_replicas;  /* copies of each generation, this node's included; 0: 2 */
  /* Leases: no VM of a sandbox starts (create, fork, resume; not the warm
   * pool's, which are no sandbox yet) before lease(ud, id, how, have,
   * out, msg) returned 0; its out->until_ms becomes the shim's fencing
   * deadline, its epoch and group the sandbox's. how: NEW for a sandbox
   * new on this node (create, a fork's child), else OWN. A worker; it
   * blocks. NULL: no leases. */
  int (*lease)(void *ud, const char *id, hg_sb_take how, const hg_sb_lease *have,
               hg_sb_lease *out, char msg[256]);
  void *lease_ud;
  /* Checkpoints: the interval of a sandbox whose create named none (s;
   * 0: off), and how many checkpoint generations each sandbox keeps here
   * (0: HG_CKPT_KEEP_DEFAULT). */
  int64_t default_checkpoint_s;
  unsigned checkpoint_keep;
} hg_manager_config;

int hg_manager_open(const hg_manager_config *cfg, hg_manager **out);
/* Releases handles; VMs keep running under their shims. */
void hg_manager_close(hg_manager *m);
/* The sandboxes idle longer than their idle_suspend_s (running, not in use,
 * not pooled): up to max ids into due; returns how many. Suspending them is
 * the caller's (node/hangard's lifecycle suspends and replicates them, or
 * deletes those whose idle_delete is set).
 * Takes only the in-memory lock. */
unsigned hg_manager_idle(hg_manager *m, char (*due)[HG_ID_MAX], unsigned max);

#define HG_SB_IDLE_MAX_S (10ll * 365 * 86400) /* idle_suspend_s at most: 10 years */

typedef struct hg_sandbox_spec {
  const char *template_ref;   /* "name", "name:tag" or NULL for "default" */
  unsigned vcpus;             /* 0: default */
  unsigned memory_mib;        /* 0: the template's */
  json_t *env;                /* object of strings, may be NULL */
  json_t *metadata;           /* object of strings, may be NULL */
  int64_t idle_suspend_s;     /* 0: default; -1: never */
  bool idle_delete;           /* once idle_suspend_s passed: delete it, not suspend */
  unsigned replicas;          /* copies of each generation, 1..8; 0: default_replicas */
  /* Checkpoints (node/checkpoint.h): a generation of the running sandbox
   * every checkpoint_s seconds. 0: default_checkpoint_s; -1: off. */
  int64_t checkpoint_s;
} hg_sandbox_spec;

/* Reserves an id and token and writes the sandbox as "creating"; the caller
 * then runs hg_sandbox_create_finish (usually on a worker as an operation).
 * A create the warm pool serves is done here already (the sandbox is
 * written once, as "running"), and create_finish returns 0 at once. */
int hg_sandbox_create_begin(hg_manager *m, const hg_sandbox_spec *spec,
                            char id[HG_ID_MAX], char token[65]);
int hg_sandbox_create_finish(hg_manager *m, const char *id);

/* Changes a sandbox's idle_suspend_s (-1 never, 1.. seconds; 0 the node's
 * default) and counts its idleness from now: "suspend it N s from now
 * unless it is used". Persisted (sandbox.json). -EINVAL out of range,
 * -ENOENT unknown. */
int hg_sandbox_set_idle(hg_manager *m, const char *id, int64_t idle_suspend_s);

/* JSON description: id, state, template, vcpus, memory_mib, created_at,
 * metadata, generations, snapshots, ... New reference for the caller. */
int hg_sandbox_describe(hg_manager *m, const char *id, json_t **out);
/* All sandboxes, optionally filtered by state name and "k=v" label. */
json_t *hg_sandbox_list(hg_manager *m, const char *state, const char *label);
/* Checks a sandbox token (constant time). */
bool hg_sandbox_token_ok(hg_manager *m, const char *id, const char *token);

int hg_sandbox_pause(hg_manager *m, const char *id);
/* Resumes a paused or suspended sandbox (from its latest generation). */
int hg_sandbox_resume(hg_manager *m, const char *id);
/* Saves memory + device state as a new read-only generation and stops the
 * VM; *gen gets its number. */
int hg_sandbox_suspend(hg_manager *m, const char *id, uint64_t *gen);
/* Checkpoint (DESIGN §9): a new read-only generation of a running
 * sandbox, which keeps running: pause, save memory + device state as a
 * suspend does, snapshot, continue. *gen gets its number, *pause_ms how
 * long the guest stood still. The generation records that it was taken
 * running (hg_sandbox_gen_running). It is not advertised (on_change
 * reports the previous gen) until hg_sandbox_gen_publish: a directory
 * must not name a generation its holders do not have yet. -EBUSY: not
 * running. */
int hg_sandbox_checkpoint(hg_manager *m, const char *id, uint64_t *gen, double *pause_ms);
/* Generation gen of id is with its holders: it is advertised from now on
 * (on_change). A gen at or below the advertised one changes nothing. */
int hg_sandbox_gen_publish(hg_manager *m, const char *id, uint64_t gen);
/* Retention of id's own generations (snapshots/<id>/): the checkpoint
 * generations beyond the newest checkpoint_keep go, except its newest
 * generation and its advertised one (hg_gen_retain_plan). Returns how many
 * went, or a negative errno. */
int hg_sandbox_retain(hg_manager *m, const char *id);
/* The running sandboxes whose checkpoint_s passed since their last
 * checkpoint (or start): up to max ids into due; returns how many. Each
 * is due again checkpoint_s after this. Takes only the in-memory lock. */
unsigned hg_manager_checkpoints_due(hg_manager *m, char (*due)[HG_ID_MAX], unsigned max);
/* Suspended sandboxes here, up to max into ids, from *cursor on (0 to
 * begin; the call moves it, and back to 0 past the last): for passes that
 * visit every one in turn, a few at a time. Takes only the in-memory lock. */
unsigned hg_manager_suspended(hg_manager *m, size_t *cursor, char (*ids)[HG_ID_MAX],
                              unsigned max);
/* Disk-only point in time (freeze, btrfs snapshot, thaw); VM keeps running. */
int hg_sandbox_snapshot(hg_manager *m, const char *id, char name[64]);
/* New sandbox with a new identity (hostname, machine-id, RNG seed) from a
 * generation of id, restored with its memory (gen 0: checkpoint id now and
 * fork from that), or, when snapshot names a disk snapshot ("snap-N"),
 * cold-booted from that snapshot's disk. new_id gets the new sandbox's id. */
int hg_sandbox_fork(hg_manager *m, const char *id, uint64_t gen, const char *snapshot,
                    char new_id[HG_ID_MAX], char new_token[65]);
int hg_sandbox_delete(hg_manager *m, const char *id);

/* What replication needs to know of a sandbox; only takes the lock (event
 * loop safe). tpl_dir is the template's directory under templates/
 * ("name@digest16"). */
typedef struct hg_sb_info {
  hg_sb_state state;
  uint64_t gen, epoch;
  hg_sb_lease lease; /* epoch and group; until_ms 0 */
  uint64_t pub_gen;   /* the newest generation advertised (<= gen) */
  unsigned replicas;
  bool idle_delete; /* its idle timer deletes it (hg_sandbox_spec) */
  char token[65];   /* its secret (E2B's connect hands it back) */
  char tpl_dir[HG_TEMPLATE_NAME_MAX + 20];
  char template_ref[HG_TEMPLATE_NAME_MAX + 8];
} hg_sb_info;
int hg_sandbox_info(hg_manager *m, const char *id, hg_sb_info *out);
/* Moves the fencing deadline of id's VM (its shim's) to until_ms, the end
 * of the lease just renewed; a past one stops the VM now. Thread-safe
 * beside any other call: it takes no sandbox lock (a renewal must never
 * wait behind a suspend). -ENOENT: no VM of id here; -ESRCH: its shim is
 * gone. */
int hg_sandbox_set_deadline(hg_manager *m, const char *id, int64_t until_ms);
/* Records a lease granted to id's VM in sandbox.json (so a replica taken
 * after carries it) and, through on_change, in the directory: its acceptor
 * group (a change committed) and its epoch when above ours (the lease
 * taken again above a rival's promise, node/hangard/regain.h). -ENOENT. */
int hg_sandbox_set_lease(hg_manager *m, const char *id, const hg_sb_lease *l);

/* Moving a sandbox between nodes (DESIGN §10, manual path).
 * adopt: makes the sandbox here from a read-only generation subvolume
 * (store-relative, e.g. "replicas/<id>/<gen>", holding sandbox.json): a
 * writable snapshot becomes sandboxes/<id>, the sandbox is "suspended" at
 * that generation with the given epoch (written before it is reported).
 * The VM is not started: hg_sandbox_resume does that. -EEXIST when the
 * sandbox is here already with an epoch >= epoch, -ENOENT no such
 * subvolume, -EPROTO its sandbox.json is not this sandbox's.
 * A sandbox here at a lower epoch that is suspended is disowned first.
 * disown: another node owns the sandbox now at a higher epoch: a suspended
 * (or failed) sandbox leaves this node's table, its writable subvolume is
 * deleted and its generations move from snapshots/<id>/ to replicas/<id>/,
 * where they stay as replicas. -EBUSY while it runs or is paused (that is
 * fencing's job), -ESTALE when epoch is not above ours. */
int hg_sandbox_adopt(hg_manager *m, const char *id, const char *gen_rel, uint64_t epoch);
int hg_sandbox_disown(hg_manager *m, const char *id, uint64_t epoch);

/* Fencing (DESIGN §9 "Fencing tokens"): another node holds the sandbox at
 * epoch, so this copy must stop and stay aside. In any state: the VM is
 * stopped for good (when this returns its VMM and shim are gone; one the
 * manager had lost track of is found through its shim's status file) and
 * its tap and namespace detached; the sandbox leaves the table (no longer
 * listed or served, no on_change: it lives on elsewhere); its subvolume
 * moves to orphans/<id>/<epoch> (<epoch>.<n> when that is taken),
 * read-only, with the generations and disk snapshots taken here inside it
 * (snapshots/<x>: they may hold history the new owner does not have, and
 * must not pass for this sandbox's generations) and orphan.json (id,
 * epoch, own_epoch, reason, orphaned_at, former state, template, gen).
 * Replicas held here (replicas/<id>/) stay. Nothing deletes an orphan but
 * hg_manager_orphan_delete. What the gateway keeps of the sandbox (its
 * egress policy) is the caller's. Serialised with every other call on the
 * sandbox (it waits for commands in flight). -ENOENT unknown sandbox,
 * -EINVAL epoch 0; a VM that will not stop: that error, the sandbox stays
 * (failed). A crash half-way is finished by the next hg_manager_open. */
int hg_sandbox_orphan(hg_manager *m, const char *id, uint64_t epoch, const char *reason);
/* Orphans on this node, by name: [{name: "<id>/<epoch>[.<n>]", id, epoch,
 * reason, orphaned_at, state, template, gen, own_epoch}]. Reads files
 * (node/orphan.h): blocks. New reference. */
json_t *hg_manager_orphans(hg_manager *m);
/* Deletes an orphan and all of it. -EINVAL: name is not
 * "<sandbox id>/<digits>[.<digits>]" (hg_orphan_name_valid); -ENOENT. */
int hg_manager_orphan_delete(hg_manager *m, const char *name);
/* Orphans on this node, for metrics (reads directories: blocks). */
unsigned hg_manager_orphan_count(hg_manager *m);

/* Commands. The agent handle is borrowed: the manager keeps the sandbox
 * busy (no suspend, pause or delete) until hg_sandbox_agent_put. Commands
 * of a paused or suspended sandbox answer -EBUSY. */
int hg_sandbox_agent_get(hg_manager *m, const char *id, hg_agent **out);
void hg_sandbox_agent_put(hg_manager *m, const char *id);
/* Starts a command with the sandbox's env under req->env (request wins). */
int hg_sandbox_exec(hg_manager *m, const char *id, const hg_exec_req *req,
                    uint64_t *cid, int *pid);

/* Templates under templates/: list, and build one from a directory holding
 * kernel, initrd, rootfs.img (cold boot, wait for the agent, save). */
json_t *hg_manager_template_list(hg_manager *m);
int hg_manager_template_register(hg_manager *m, const char *name_tag, const char *src_dir,
                                 char digest_out[65], char why[HG_TEMPLATE_WHY_MAX]);
/* True when a template answers to ref ("default", "name:tag"). */
bool hg_manager_template_exists(hg_manager *m, const char *ref);

/* Stops refilling the warm pool and deletes its unclaimed sandboxes. */
void hg_manager_pool_stop(hg_manager *m);
/* Warm sandboxes ready to be claimed by a create, for metrics and benches. */
unsigned hg_manager_pool_ready(hg_manager *m);
/* The warm pool's figures, for metrics and benches. */
typedef struct hg_pool_stats {
  unsigned ready;   /* warm sandboxes ready to be claimed */
  unsigned target;  /* how many the filler keeps now */
  uint64_t hits;    /* creates of the pool's template served from it */
  uint64_t misses;  /* creates of the pool's template that found it empty */
} hg_pool_stats;
void hg_manager_pool_stats(hg_manager *m, hg_pool_stats *out);
/* Counts of sandboxes per state, for metrics. */
void hg_manager_counts(hg_manager *m, unsigned counts[HG_SB_FAILED + 1]);

#endif
