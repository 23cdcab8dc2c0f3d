/* sandbox_internal.h: what node/sandbox.c (the manager), node/pool.c (its
 * warm pool) and node/sandbox_recover.c (its start-up) share, and nothing
 * else includes: the sandbox record, the manager's state, and the helpers
 * of sandbox.c that the other two call.
 * Everyone else goes through sandbox.h. Names shared across the two files
 * are hg__sb_* (on one sandbox) and hg__manager_* (on the manager), as
 * libuv's uv__*; everything else stays static in its file.
 *
 * Locking is sandbox.c's (see there): m->mu for the table and the fields
 * marked "under mu", each sandbox's rwlock for lifecycle work. */
#ifndef HG_NODE_SANDBOX_INTERNAL_H
#define HG_NODE_SANDBOX_INTERNAL_H

#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>

#include "node/adopted.h"
#include "node/core/keylock.h"
#include "node/sandbox.h"

#define AGENT_TIMEOUT_MS 10000
/* A VM just restored answers once its vCPUs get a core, and one adopted
 * at start-up once its recovered lease is renewed (it stays fenced till
 * then): on a loaded host (twenty restores at once under TCG on two
 * cores) either is seconds, and a resume or an exec that gives up fails
 * though nothing is wrong. As an agent call's own deadline (agentcli.c
 * CALL_MS). */
#define AGENT_SLOW_TIMEOUT_MS 30000
#define SANDBOX_JSON_MAX (1024 * 1024)
#define POOL_DEMAND_MAX 64 /* creates remembered for the pool's demand (pool.c) */

typedef struct sandbox {
  char id[HG_ID_MAX];
  char token[65];
  hg_sb_state state;
  char tpl_name[HG_TEMPLATE_NAME_MAX];
  char tpl_digest[65];
  char cmdline[512];
  unsigned vcpus, memory_mib;
  json_t *env, *metadata, *generations, *snapshots;
  int64_t idle_suspend_s;
  bool idle_delete;   /* idle_suspend_s passed: deleted, not suspended (E2B's kill) */
  int64_t created_ms, updated_ms;
  uint64_t gen;       /* newest generation; 0: none */
  uint64_t pub_gen;   /* newest generation advertised (on_change): a checkpoint's
                       * only once its holders have it; <= gen */
  int64_t checkpoint_s;   /* 0: no checkpoints */
  int64_t ckpt_due_ms;    /* monotonic: the next checkpoint's time; 0: not set (under mu) */
  uint64_t epoch;     /* ownership epoch: the lease's (1 at create, raised by each move) */
  unsigned ngroup;    /* its lease's acceptor group, as last known here */
  char group[HG_SB_GROUP_MAX][HG_NODE_ID_MAX];
  bool fresh;         /* new on this node, never leased: its first start claims */
  unsigned replicas;  /* copies of each generation, this node's included */
  unsigned next_snap; /* number of the next disk snapshot */
  char hostname[64], machine_id[33];
  char pending[32];   /* step of a half-done transition, for recovery */
  bool pooled;        /* warm, unclaimed: invisible to every caller */
  bool claimed;       /* taken from the pool by create_begin, which did the
                       * whole create: create_finish has nothing left to do */
  bool nic;           /* the VM has a NIC (its template's saved machine had one) */
  char accel[8];      /* "kvm" or "tcg": its memory image restores only under it */
  char error[160];    /* why a sandbox is failed */
  char adopted_from[96]; /* adopted lazily: the generation its copy into place
                          * comes from (adopted.h's record); "": in place */

  hg_vm *vm;
  hg_agent *agent;
  pthread_rwlock_t lock;
  int refs;                /* under m->mu */
  bool gone;               /* deleted: freed when refs drop to 0 */
  int64_t last_active_ms;  /* monotonic */
  int users;               /* agent users now, under m->mu */
} sandbox;

struct hg_manager {
  hg_manager_config cfg;
  pthread_mutex_t mu;
  sandbox **sbs;
  unsigned nsbs, cap;
  /* The pool's filler thread sleeps on pool_cv (under mu). */
  pthread_t pool_thread;
  pthread_cond_t pool_cv;
  bool pool_running, closing;
  uint64_t pool_hits, pool_misses; /* under mu */
  int64_t demand_ms[POOL_DEMAND_MAX]; /* ring of create times (hg_now_ms), under mu */
  unsigned demand_next;
  int64_t grace_until_ms;             /* the refill waits until then */
  /* Orders adopts, disowns and orphanings, so two of them never race over
   * one id between the table check and the subvolume work. By id, exactly
   * (move_begin in sandbox.c): a failover adopts hundreds of sandboxes at
   * once, each waiting for a record commit that concurrent ones share, and
   * none may wait for another id's. Taken before any sandbox's lock. */
  hg_keylock moves;
  /* Orders the placing and deleting of orphans (orphans/<id>/ is made by
   * one and removed by the other). Taken after any sandbox's lock. */
  pthread_mutex_t orphan_mu;
  hg_adopted *adopted; /* adoption records (adopted.h) */
};

/* sandbox.c: records */
sandbox *hg__sb_new(void);
void hg__sb_free(sandbox *sb);
int hg__sb_new_token(char token[65]);
int hg__sb_spec_apply(hg_manager *m, const hg_sandbox_spec *spec,
                      const hg_template_info *tpl, sandbox *sb);
int hg__sb_set_state(hg_manager *m, sandbox *sb, hg_sb_state st, const char *pending);
/* A new record and its subvolume; frees sb on failure. */
int hg__sb_create_cold(hg_manager *m, const hg_template_info *tpl, sandbox *sb);
/* Caller holds sb's write lock. */
int hg__sb_vm_restore(hg_manager *m, sandbox *sb);
int hg__sb_delete_locked(hg_manager *m, sandbox *sb);
/* Drops the write lock and the reference a lookup took. */
void hg__sb_lifecycle_end(hg_manager *m, sandbox *sb);
int hg__sb_from_json(sandbox *sb, json_t *j, unsigned default_replicas);
/* sandboxes/<id>, store-relative and absolute. */
int hg__sb_rel(const sandbox *sb, char *out, size_t cap);
int hg__sb_dir(hg_manager *m, const sandbox *sb, char out[4096]);
/* Removes the shim's files (status, sockets, log) a copy into place
 * brought along from the VM that ran when its source was taken. */
void hg__sb_remove_run_files(hg_manager *m, const sandbox *sb);
/* A generation's directory name: decimal, no sign, no leading zero. */
bool hg__sb_gen_name(const char *name, uint64_t *gen);
/* rel (store-relative) is a generation: a read-only subvolume. */
bool hg__sb_gen_whole(hg_manager *m, const char *rel);
/* Where generation gen of sandbox id is (snapshots/ or replicas/). */
int hg__sb_gen_find(hg_manager *m, const char *id, uint64_t gen, char out[96]);
/* Caller holds sb's write lock. */
int hg__sb_agent_attach(hg_manager *m, sandbox *sb);
void hg__sb_vm_release(hg_manager *m, sandbox *sb, bool stop);
int hg__sb_tell_restored(hg_manager *m, sandbox *sb, bool identity);
void hg__sb_set_failed(hg_manager *m, sandbox *sb, int err, const char *what);
void hg__sb_ckpt_continue(hg_manager *m, sandbox *sb);
/* Writes orphan.json into the subvolume rel (store-relative). */
int hg__sb_orphan_record_in(hg_manager *m, sandbox *sb, const char *rel, uint64_t epoch,
                            const char *reason, hg_sb_state was);
/* At start-up: finishes an orphaning of sb a crash cut short; false when
 * sandboxes/<id> holds no orphan record. */
bool hg__sb_orphan_recover(hg_manager *m, sandbox *sb);
/* A sandbox adopted lazily (hg_sandbox_adopt): its record as generation
 * gen_rel has it, suspended at epoch, adopted_from set; the generation is
 * checked, not copied. */
int hg__sb_adopt_read(hg_manager *m, const char *id, const char *gen_rel, uint64_t epoch,
                      sandbox **out);
/* Removes id's adoption record, if any (adopted.h); durable: synced. */
int hg__sb_adopted_remove(hg_manager *m, const char *id, bool durable);
/* Caller holds m->mu (or is hg_manager_open: no other thread yet). */
sandbox *hg__manager_find_locked(hg_manager *m, const char *id);
int hg__manager_table_add(hg_manager *m, sandbox *sb);
void hg__manager_table_remove(hg_manager *m, sandbox *sb);
int hg__manager_capacity_check(hg_manager *m, unsigned memory_mib, bool new_sandbox);

/* sandbox_recover.c: at open, every sandbox on disk into the table,
 * recovered (no other thread runs yet). */
void hg__manager_load_all(hg_manager *m);

/* pool.c: the warm pool */
sandbox *hg__manager_pool_claim(hg_manager *m, const hg_template_info *tpl, sandbox *fresh);
/* Starts the filler thread (pool_running says whether it runs). */
void hg__manager_pool_start(hg_manager *m);
/* Stops the filler thread and waits for it; the entries stay. */
void hg__manager_pool_halt(hg_manager *m);

#endif
