/* sandbox: the node's sandbox manager. See sandbox.h for the contract.
 *
 * Locking: m->mu guards the table and every sandbox's descriptive fields
 * (held only briefly, never across I/O). Each sandbox's rwlock orders
 * lifecycle work (write side) against agent users (read side), so a
 * suspend never frees an agent channel that a command is using.
 *
 * The warm pool lives in pool.c, what happens at open to the sandboxes
 * found on disk in sandbox_recover.c; sandbox_internal.h is what the three
 * share. */
#include "node/sandbox.h"

#include <dirent.h>
#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "node/checkpoint.h"
#include "node/core/err.h"
#include "node/core/log.h"
#include "node/core/strmap.h"
#include "node/orphan.h"
#include "node/sandbox_internal.h"
#include "node/template.h"

#define BOOT_TIMEOUT_MS 120000 /* a cold boot under TCG takes seconds */
#define MAX_GENERATIONS 4096
#define MAX_REPLICAS 8
#define POOL_MAX_DEFAULT 32 /* pool_max when the config leaves it 0 */

static const char *const state_names[] = {"creating", "running",  "paused",
                                          "suspending", "suspended", "resuming",
                                          "deleting", "deleted",  "failed"};

const char *hg_sb_state_name(hg_sb_state s) {
  return (unsigned)s < HG_ARRAY_SIZE(state_names) ? state_names[s] : "unknown";
}

int hg_sb_state_parse(const char *name, hg_sb_state *out) {
  for (unsigned i = 0; i < HG_ARRAY_SIZE(state_names); i++)
    if (strcmp(name, state_names[i]) == 0) {
      *out = (hg_sb_state)i;
      return 0;
    }
  return -EINVAL;
}

/* --- paths ---------------------------------------------------------------- */

int hg__sb_rel(const sandbox *sb, char *out, size_t cap) {
  return hg_path(out, cap, "sandboxes/%s", sb->id);
}

int hg__sb_dir(hg_manager *m, const sandbox *sb, char out[4096]) {
  char rel[64];
  int rc = hg__sb_rel(sb, rel, sizeof rel);
  return rc < 0 ? rc : hg_store_abs(m->cfg.store, rel, out, 4096);
}

static int sb_file(hg_manager *m, const sandbox *sb, const char *name, char out[4096]) {
  char dir[4096];
  int rc = hg__sb_dir(m, sb, dir);
  return rc < 0 ? rc : hg_path(out, 4096, "%s/%s", dir, name);
}

/* --- sandbox records -------------------------------------------------------- */

sandbox *hg__sb_new(void) {
  sandbox *sb = calloc(1, sizeof *sb);
  if (!sb) return NULL;
  pthread_rwlockattr_t attr;
  pthread_rwlockattr_init(&attr);
  /* Lifecycle work must not starve behind a stream of command calls. */
  pthread_rwlockattr_setkind_np(&attr, PTHREAD_RWLOCK_PREFER_WRITER_NONRECURSIVE_NP);
  pthread_rwlock_init(&sb->lock, &attr);
  pthread_rwlockattr_destroy(&attr);
  sb->generations = json_array();
  sb->snapshots = json_array();
  sb->env = json_object();
  sb->metadata = json_object();
  sb->epoch = 1;
  snprintf(sb->accel, sizeof sb->accel, "tcg");
  return sb;
}

void hg__sb_free(sandbox *sb) {
  json_decref(sb->env);
  json_decref(sb->metadata);
  json_decref(sb->generations);
  json_decref(sb->snapshots);
  pthread_rwlock_destroy(&sb->lock);
  free(sb);
}

/* The generations a checkpoint took, as describe lists them: {gen, at,
 * pause_ms}. */
static json_t *checkpoints_json(json_t *generations) {
  json_t *out = json_array(), *g;
  size_t i;
  json_array_foreach(generations, i, g) {
    const char *kind = json_string_value(json_object_get(g, "kind"));
    if (!kind || strcmp(kind, "checkpoint")) continue;
    json_t *c = json_pack("{s:O, s:O}", "gen", json_object_get(g, "gen"), "at",
                          json_object_get(g, "at"));
    json_t *p = json_object_get(g, "pause_ms");
    if (c && p) json_object_set(c, "pause_ms", p);
    if (c) json_array_append_new(out, c);
  }
  return out;
}

/* Caller holds m->mu. */
static json_t *sb_to_json(const sandbox *sb, bool with_secrets) {
  char created[32], updated[32];
  hg_iso_time(sb->created_ms, created);
  hg_iso_time(sb->updated_ms, updated);
  json_t *j = json_pack(
      "{s:s,s:s,s:s,s:s,s:i,s:i,s:s,s:s,s:O,s:O,s:O,s:I,s:I,s:s,s:b,s:s,s:s,s:I,s:i,s:I}",
      "id", sb->id, "state", hg_sb_state_name(sb->state), "template", sb->tpl_name,
      "template_digest", sb->tpl_digest, "vcpus", (int)sb->vcpus, "memory_mib",
      (int)sb->memory_mib, "created_at", created, "updated_at", updated, "metadata",
      sb->metadata, "generations", sb->generations, "snapshots", sb->snapshots,
      "idle_suspend_s", (json_int_t)sb->idle_suspend_s, "gen", (json_int_t)sb->gen,
      "hostname", sb->hostname, "nic", sb->nic, "accel", sb->accel, "idle_action",
      sb->idle_delete ? "delete" : "suspend", "epoch", (json_int_t)sb->epoch, "replicas",
      (int)sb->replicas, "checkpoint_s", (json_int_t)sb->checkpoint_s);
  if (sb->ngroup) {
    json_t *g = json_array();
    for (unsigned i = 0; i < sb->ngroup; i++) json_array_append_new(g, json_string(sb->group[i]));
    json_object_set_new(j, "group", g);
  }
  if (sb->pub_gen != sb->gen)
    json_object_set_new(j, "published_gen", json_integer((json_int_t)sb->pub_gen));
  if (!with_secrets) json_object_set_new(j, "checkpoints", checkpoints_json(sb->generations));
  /* When the idle suspend falls if nothing touches it first (a described
   * view only: last_active_ms is monotonic, gone at a restart). */
  if (!with_secrets && sb->state == HG_SB_RUNNING && sb->idle_suspend_s > 0) {
    char at[32];
    int64_t left = sb->last_active_ms + sb->idle_suspend_s * 1000 - hg_now_ms();
    hg_iso_time(hg_wall_ns() / 1000000 + (left > 0 ? left : 0), at);
    json_object_set_new(j, "idle_suspend_at", json_string(at));
  }
  if (sb->error[0]) json_object_set_new(j, "error", json_string(sb->error));
  if (with_secrets) {
    json_object_set_new(j, "token", json_string(sb->token));
    json_object_set(j, "env", sb->env);
    json_object_set_new(j, "cmdline", json_string(sb->cmdline));
    json_object_set_new(j, "machine_id", json_string(sb->machine_id));
    json_object_set_new(j, "pending", json_string(sb->pending));
    json_object_set_new(j, "next_snap", json_integer(sb->next_snap));
    if (sb->pooled) json_object_set_new(j, "pooled", json_true());
  }
  return j;
}

static const char *jstr(json_t *j, const char *key) {
  const char *s = json_string_value(json_object_get(j, key));
  return s ? s : "";
}

/* A lease group: 1 to HG_SB_GROUP_MAX distinct node ids. */
static int group_from_json(sandbox *sb, json_t *arr) {
  size_t n = json_array_size(arr);
  if (!json_is_array(arr) || n == 0 || n > HG_SB_GROUP_MAX) return -EPROTO;
  for (size_t i = 0; i < n; i++) {
    const char *id = json_string_value(json_array_get(arr, i));
    if (!id || !hg_node_id_valid(id)) return -EPROTO;
    for (size_t k = 0; k < i; k++)
      if (strcmp(sb->group[k], id) == 0) return -EPROTO;
    snprintf(sb->group[i], HG_NODE_ID_MAX, "%s", id);
  }
  sb->ngroup = (unsigned)n;
  return 0;
}

/* Absent fields take what records made before them meant: epoch 1, the
 * manager's default replica count. */
int hg__sb_from_json(sandbox *sb, json_t *j, unsigned default_replicas) {
  const char *id = jstr(j, "id");
  if (!hg_id_valid("sb", id) || hg_sb_state_parse(jstr(j, "state"), &sb->state) < 0)
    return -EPROTO;
  snprintf(sb->id, sizeof sb->id, "%s", id);
  snprintf(sb->token, sizeof sb->token, "%s", jstr(j, "token"));
  snprintf(sb->tpl_name, sizeof sb->tpl_name, "%s", jstr(j, "template"));
  snprintf(sb->tpl_digest, sizeof sb->tpl_digest, "%s", jstr(j, "template_digest"));
  snprintf(sb->cmdline, sizeof sb->cmdline, "%s", jstr(j, "cmdline"));
  snprintf(sb->hostname, sizeof sb->hostname, "%s", jstr(j, "hostname"));
  snprintf(sb->machine_id, sizeof sb->machine_id, "%s", jstr(j, "machine_id"));
  snprintf(sb->pending, sizeof sb->pending, "%s", jstr(j, "pending"));
  snprintf(sb->error, sizeof sb->error, "%s", jstr(j, "error"));
  sb->vcpus = (unsigned)json_integer_value(json_object_get(j, "vcpus"));
  sb->memory_mib = (unsigned)json_integer_value(json_object_get(j, "memory_mib"));
  sb->idle_suspend_s = json_integer_value(json_object_get(j, "idle_suspend_s"));
  sb->idle_delete = !strcmp(jstr(j, "idle_action"), "delete"); /* absent: suspend */
  sb->gen = (uint64_t)json_integer_value(json_object_get(j, "gen"));
  sb->next_snap = (unsigned)json_integer_value(json_object_get(j, "next_snap"));
  sb->pooled = json_is_true(json_object_get(j, "pooled"));
  sb->nic = json_is_true(json_object_get(j, "nic")); /* absent: made before NICs */
  /* absent: made before it was recorded, when every node here ran TCG */
  snprintf(sb->accel, sizeof sb->accel, "%s", strcmp(jstr(j, "accel"), "kvm") ? "tcg" : "kvm");
  sb->created_ms = hg_iso_parse(jstr(j, "created_at"));
  sb->updated_ms = hg_iso_parse(jstr(j, "updated_at"));
  if (strlen(sb->token) != 64 || sb->memory_mib == 0) return -EPROTO;
  json_t *epoch = json_object_get(j, "epoch"), *replicas = json_object_get(j, "replicas");
  if (epoch && (!json_is_integer(epoch) || json_integer_value(epoch) < 1)) return -EPROTO;
  if (replicas && (!json_is_integer(replicas) || json_integer_value(replicas) < 1 ||
                   json_integer_value(replicas) > MAX_REPLICAS))
    return -EPROTO;
  sb->epoch = epoch ? (uint64_t)json_integer_value(epoch) : 1;
  /* absent: made before checkpoints, or everything it has is advertised */
  json_t *pub = json_object_get(j, "published_gen"), *ck = json_object_get(j, "checkpoint_s");
  sb->pub_gen = json_is_integer(pub) && (uint64_t)json_integer_value(pub) < sb->gen
                    ? (uint64_t)json_integer_value(pub)
                    : sb->gen;
  char why[128];
  sb->checkpoint_s = json_is_integer(ck) ? json_integer_value(ck) : 0;
  if (hg_ckpt_interval_check(sb->checkpoint_s, why) < 0) return -EPROTO;
  sb->replicas = replicas ? (unsigned)json_integer_value(replicas) : default_replicas;
  json_t *arr;
  if ((arr = json_object_get(j, "group")) && group_from_json(sb, arr) < 0) return -EPROTO;
  if (json_is_object(arr = json_object_get(j, "env"))) json_object_update(sb->env, arr);
  if (json_is_object(arr = json_object_get(j, "metadata")))
    json_object_update(sb->metadata, arr);
  if (json_is_array(arr = json_object_get(j, "generations")))
    json_array_extend(sb->generations, arr);
  if (json_is_array(arr = json_object_get(j, "snapshots")))
    json_array_extend(sb->snapshots, arr);
  return 0;
}

/* What on_change is told of sb now (state NULL: its own). The strings stay
 * valid while the caller holds a reference. Caller holds m->mu, or is the
 * only thread. */
static hg_sb_change change_of(const sandbox *sb, const char *state) {
  return (hg_sb_change){.id = sb->id,
                        .state = state ? state : hg_sb_state_name(sb->state),
                        .gen = sb->pub_gen,
                        .epoch = sb->epoch,
                        .template_ref = sb->tpl_name};
}

static void report(hg_manager *m, const hg_sb_change *ch) {
  if (m->cfg.on_change) m->cfg.on_change(m->cfg.on_change_ud, ch);
}

/* Writes sb's record (secrets included) to path; *ch gets what it says. */
static int sb_write(hg_manager *m, sandbox *sb, const char *path, hg_sb_change *ch,
                    bool *pooled) {
  pthread_mutex_lock(&m->mu);
  sb->updated_ms = hg_wall_ns() / 1000000;
  json_t *j = sb_to_json(sb, true);
  *ch = change_of(sb, NULL);
  *pooled = sb->pooled;
  pthread_mutex_unlock(&m->mu);
  char *text = json_dumps(j, JSON_INDENT(2));
  json_decref(j);
  if (!text) return -ENOMEM;
  int rc = hg_write_file_atomic(path, text, strlen(text));
  free(text);
  if (rc < 0)
    hg_log_error("sandbox.persist", "sandbox=%s path=%s err=\"%s\"", sb->id, path,
                 hg_err_str(rc));
  return rc;
}

/* Writes sandbox.json inside the subvolume (so it travels with every
 * snapshot and replica) before the change is reported to anyone. */
static int sb_persist(hg_manager *m, sandbox *sb) {
  char path[4096];
  hg_sb_change ch;
  bool pooled;
  int rc = sb_file(m, sb, "sandbox.json", path);
  if (rc == 0) rc = sb_write(m, sb, path, &ch, &pooled);
  if (rc == 0 && !pooled) report(m, &ch);
  return rc;
}

int hg__sb_set_state(hg_manager *m, sandbox *sb, hg_sb_state st, const char *pending) {
  pthread_mutex_lock(&m->mu);
  hg_sb_state old = sb->state;
  sb->state = st;
  snprintf(sb->pending, sizeof sb->pending, "%s", pending ? pending : "");
  pthread_mutex_unlock(&m->mu);
  int rc = sb_persist(m, sb);
  if (old != st)
    hg_log_info("sandbox.state", "sandbox=%s from=%s to=%s", sb->id,
                hg_sb_state_name(old), hg_sb_state_name(st));
  return rc;
}

/* --- table ------------------------------------------------------------------ */

int hg__manager_table_add(hg_manager *m, sandbox *sb) {
  if (m->nsbs == m->cap) {
    unsigned cap = m->cap ? 2 * m->cap : 64;
    sandbox **grown = realloc(m->sbs, cap * sizeof *grown);
    if (!grown) return -ENOMEM;
    m->sbs = grown;
    m->cap = cap;
  }
  m->sbs[m->nsbs++] = sb;
  return 0;
}

void hg__manager_table_remove(hg_manager *m, sandbox *sb) {
  for (unsigned i = 0; i < m->nsbs; i++)
    if (m->sbs[i] == sb) {
      m->sbs[i] = m->sbs[--m->nsbs];
      return;
    }
}

/* A caller-visible sandbox (not deleted, not a warm one); caller holds m->mu. */
sandbox *hg__manager_find_locked(hg_manager *m, const char *id) {
  for (unsigned i = 0; i < m->nsbs; i++)
    if (!m->sbs[i]->gone && !m->sbs[i]->pooled && strcmp(m->sbs[i]->id, id) == 0)
      return m->sbs[i];
  return NULL;
}

/* Finds a sandbox and takes a reference; -ENOENT when unknown or deleted. */
static int sb_get(hg_manager *m, const char *id, sandbox **out) {
  if (!hg_id_valid("sb", id)) return -ENOENT;
  pthread_mutex_lock(&m->mu);
  sandbox *sb = hg__manager_find_locked(m, id);
  if (sb) sb->refs++;
  pthread_mutex_unlock(&m->mu);
  if (!sb) return -ENOENT;
  *out = sb;
  return 0;
}

static void sb_put(hg_manager *m, sandbox *sb) {
  pthread_mutex_lock(&m->mu);
  bool free_it = --sb->refs == 0 && sb->gone;
  pthread_mutex_unlock(&m->mu);
  if (free_it) hg__sb_free(sb);
}

/* --- VM plumbing ------------------------------------------------------------ */

/* A fork or a resume must never adopt the source's shim through a status
 * file copied with the snapshot. */
void hg__sb_remove_run_files(hg_manager *m, const sandbox *sb) {
  char dir[4096];
  if (hg__sb_dir(m, sb, dir) == 0) m->cfg.vmm->clear(dir);
}

/* consoles/<id>.log: outside the subvolume, so a guest's console output
 * is never snapshotted or replicated (the shim caps it). */
static int console_path(hg_manager *m, const char *id, char out[4096]) {
  char rel[64];
  int rc = hg_path(rel, sizeof rel, "consoles/%s.log", id);
  return rc < 0 ? rc : hg_store_abs(m->cfg.store, rel, out, 4096);
}

/* The console and its older part go with the sandbox's last local VM. */
static void remove_console(hg_manager *m, const char *id) {
  char path[4096], old[4096 + 2];
  if (console_path(m, id, path) < 0) return;
  snprintf(old, sizeof old, "%s.1", path);
  unlink(path);
  unlink(old);
}

static int vm_config(hg_manager *m, const sandbox *sb, hg_vm_config *cfg,
                     char paths[5][4096]) {
  int rc = hg__sb_dir(m, sb, paths[0]);
  if (rc == 0) rc = hg_path(paths[1], 4096, "%s/vmlinuz", paths[0]);
  if (rc == 0) rc = hg_path(paths[2], 4096, "%s/initrd.img", paths[0]);
  if (rc == 0) rc = hg_path(paths[3], 4096, "%s/rootfs.img", paths[0]);
  if (rc == 0) rc = console_path(m, sb->id, paths[4]);
  *cfg = (hg_vm_config){.dir = paths[0], .kernel = paths[1], .initrd = paths[2],
                        .cmdline = sb->cmdline[0] ? sb->cmdline : NULL,
                        .rootfs = paths[3], .vcpus = sb->vcpus,
                        .memory_mib = sb->memory_mib, .tap_fd = -1,
                        .accel = m->cfg.accel, .shim_path = m->cfg.shim_path};
  cfg->log_path = paths[4];
  return rc;
}

static int agent_attach_within(hg_manager *m, sandbox *sb, int timeout_ms) {
  hg_agent *a;
  int rc = hg_agent_connect(m->cfg.vmm->agent_path(sb->vm), timeout_ms, &a);
  if (rc == 0 && (rc = hg_agent_ping(a, timeout_ms)) < 0) hg_agent_free(a);
  if (rc < 0) {
    hg_log_error("sandbox.agent", "sandbox=%s err=\"%s\"", sb->id, hg_err_str(rc));
    return rc;
  }
  sb->agent = a;
  sb->last_active_ms = hg_now_ms();
  return 0;
}

int hg__sb_agent_attach(hg_manager *m, sandbox *sb) {
  return agent_attach_within(m, sb, AGENT_TIMEOUT_MS);
}

static void agent_detach(sandbox *sb) {
  hg_agent_free(sb->agent);
  sb->agent = NULL;
}

/* Fills cfg's NIC for a VM start. With networking, the tap in the
 * sandbox's own namespace (made, or reopened after a restart); *tap is the
 * caller's copy, to close once the VMM holds its own. */
static int net_attach(hg_manager *m, const sandbox *sb, hg_vm_config *cfg, int *tap) {
  const hg_net_ops *net = m->cfg.net;
  *tap = -1;
  if (!sb->nic) return 0;
  if (!net) {
    cfg->nic_unplugged = true;
    return 0;
  }
  int rc = net->attach(net->ud, sb->id, tap);
  if (rc < 0) {
    hg_log_error("sandbox.net_attach", "sandbox=%s err=\"%s\"", sb->id, hg_err_str(rc));
    return rc;
  }
  cfg->tap_fd = *tap;
  cfg->mac = net->mac;
  return 0;
}

/* After the VM stopped for good. The gateway keeps the sandbox's policy
 * for its next attach. Nothing attached (a sandbox suspended before a
 * restart, a double stop) is no error. */
static void net_detach(hg_manager *m, const sandbox *sb) {
  const hg_net_ops *net = m->cfg.net;
  if (!sb->nic || !net) return;
  int rc = net->detach(net->ud, sb->id);
  if (rc < 0 && rc != -ENOENT)
    hg_log_warn("sandbox.net_detach", "sandbox=%s err=\"%s\"", sb->id, hg_err_str(rc));
}

/* stop: the VM is gone for good (its tap goes too); else only our handle. */
void hg__sb_vm_release(hg_manager *m, sandbox *sb, bool stop) {
  agent_detach(sb);
  if (sb->vm) {
    if (stop) m->cfg.vmm->stop(sb->vm);
    m->cfg.vmm->release(sb->vm);
    sb->vm = NULL;
  }
  if (stop) net_detach(m, sb);
}

/* Takes sb's lease before a VM of it starts (DESIGN §9: no VM starts
 * without one); *deadline gets the lease's end, the shim's fencing
 * deadline. Warm-pool VMs belong to no sandbox yet: no lease, no deadline. */
static int lease_for_start(hg_manager *m, sandbox *sb, int64_t *deadline) {
  *deadline = 0;
  if (sb->pooled || !m->cfg.lease) return 0;
  hg_sb_lease have = {.epoch = sb->epoch, .ngroup = sb->ngroup}, got;
  memcpy(have.group, sb->group, sizeof have.group);
  char msg[256] = "";
  int rc = m->cfg.lease(m->cfg.lease_ud, sb->id, sb->fresh ? HG_SB_TAKE_NEW : HG_SB_TAKE_OWN,
                        &have, &got, msg);
  if (rc < 0) {
    hg_log_warn("sandbox.lease", "sandbox=%s err=\"%s\" msg=\"%s\"", sb->id, hg_err_str(rc),
                msg);
    return rc;
  }
  pthread_mutex_lock(&m->mu);
  sb->epoch = got.epoch;
  sb->ngroup = got.ngroup;
  memcpy(sb->group, got.group, sizeof sb->group);
  sb->fresh = false;
  pthread_mutex_unlock(&m->mu);
  *deadline = got.until_ms;
  return 0;
}

/* Tells the guest it was restored: clock, entropy, and (identity) its
 * hostname and machine id; always the generation, epoch and node it runs
 * at now, which it writes where programs in it can read them. */
int hg__sb_tell_restored(hg_manager *m, sandbox *sb, bool identity) {
  hg_agent_restore r = {.hostname = identity ? sb->hostname : NULL,
                        .machine_id = identity ? sb->machine_id : NULL,
                        .gen = sb->gen,
                        .epoch = sb->epoch,
                        .node = m->cfg.node_id};
  return hg_agent_restored(sb->agent, &r);
}

/* Restores the VM from the subvolume's mem + vmstate, reattaches the agent
 * and tells the guest it was restored (clock, entropy, identity). */
int hg__sb_vm_restore(hg_manager *m, sandbox *sb) {
  hg_vm_config cfg;
  char paths[5][4096], vmstate[4096];
  int tap = -1;
  /* A memory image saved under TCG does not load under KVM, nor the
   * reverse (CPU state, -cpu max differ): refuse before QEMU half-loads it. */
  const char *node_accel = m->cfg.accel && !strcmp(m->cfg.accel, "kvm") ? "kvm" : "tcg";
  if (strcmp(sb->accel, node_accel) != 0) {
    hg_log_error("sandbox.restore", "sandbox=%s err=\"saved under %s; this node runs %s\"",
                 sb->id, sb->accel, node_accel);
    return -EXDEV;
  }
  int rc = vm_config(m, sb, &cfg, paths);
  if (rc == 0) rc = hg_path(vmstate, sizeof vmstate, "%s/vmstate", paths[0]);
  if (rc == 0) rc = lease_for_start(m, sb, &cfg.deadline_ms);
  if (rc == 0) rc = net_attach(m, sb, &cfg, &tap);
  if (rc == 0) rc = m->cfg.vmm->restore(&cfg, vmstate, &sb->vm);
  if (tap >= 0) close(tap);
  if (rc < 0) {
    hg_log_error("sandbox.restore", "sandbox=%s err=\"%s\"", sb->id, hg_err_str(rc));
    net_detach(m, sb);
    return rc;
  }
  int64_t t0 = hg_now_ns();
  rc = agent_attach_within(m, sb, AGENT_SLOW_TIMEOUT_MS);
  int64_t t1 = hg_now_ns();
  if (rc == 0) rc = hg__sb_tell_restored(m, sb, true);
  if (rc < 0) hg__sb_vm_release(m, sb, true);
  hg_log_debug("sandbox.restored", "sandbox=%s attach_ms=%.1f restored_ms=%.1f", sb->id,
               (double)(t1 - t0) / 1e6, (double)(hg_now_ns() - t1) / 1e6);
  return rc;
}

/* Cold boot of the subvolume's kernel and rootfs with fresh memory: for
 * disk-only snapshots, whose memory image is not a consistent machine. */
static int vm_boot(hg_manager *m, sandbox *sb) {
  hg_vm_config cfg;
  char paths[5][4096];
  int tap = -1;
  int rc = vm_config(m, sb, &cfg, paths);
  if (rc == 0) rc = lease_for_start(m, sb, &cfg.deadline_ms);
  if (rc == 0) rc = net_attach(m, sb, &cfg, &tap);
  if (rc == 0) rc = m->cfg.vmm->start(&cfg, &sb->vm);
  if (tap >= 0) close(tap);
  if (rc == 0) rc = agent_attach_within(m, sb, BOOT_TIMEOUT_MS);
  if (rc == 0) rc = hg__sb_tell_restored(m, sb, true);
  if (rc < 0) {
    hg_log_error("sandbox.boot", "sandbox=%s err=\"%s\"", sb->id, hg_err_str(rc));
    hg__sb_vm_release(m, sb, true);
  }
  return rc;
}

/* Saves device state into the subvolume and records generation gen+1 as a
 * read-only snapshot. The VM is left stopped. publish: advertised at once
 * (else hg_sandbox_gen_publish does it once its holders have it). */
static int take_generation(hg_manager *m, sandbox *sb, const char *kind, bool publish,
                           uint64_t *gen) {
  char vmstate[4096], src[64], dst[96];
  int rc = sb_file(m, sb, "vmstate", vmstate);
  if (rc == 0) rc = m->cfg.vmm->save(sb->vm, vmstate);
  if (rc < 0) return rc;
  char at[32];
  hg_iso_time(hg_wall_ns() / 1000000, at);
  pthread_mutex_lock(&m->mu);
  uint64_t g = sb->gen + 1;
  pthread_mutex_unlock(&m->mu);
  hg__sb_rel(sb, src, sizeof src);
  hg_path(dst, sizeof dst, "snapshots/%s/%llu", sb->id, (unsigned long long)g);
  /* Persist first so the generation's own sandbox.json names itself. */
  pthread_mutex_lock(&m->mu);
  uint64_t pub = sb->pub_gen;
  sb->gen = g;
  if (publish) sb->pub_gen = g;
  /* running: a restore of it elsewhere (failover) starts it running */
  json_array_append_new(sb->generations,
                        json_pack("{s:I, s:s, s:s, s:b}", "gen", (json_int_t)g, "at", at,
                                  "kind", kind, "running", sb->state == HG_SB_RUNNING));
  pthread_mutex_unlock(&m->mu);
  rc = sb_persist(m, sb);
  if (rc == 0) rc = hg_store_snapshot(m->cfg.store, src, dst, false);
  if (rc == 0 && (rc = hg_store_freeze(m->cfg.store, dst)) < 0)
    hg_store_subvol_delete(m->cfg.store, dst);
  if (rc < 0) {
    pthread_mutex_lock(&m->mu);
    sb->gen = g - 1;
    sb->pub_gen = pub;
    json_array_remove(sb->generations, json_array_size(sb->generations) - 1);
    pthread_mutex_unlock(&m->mu);
    sb_persist(m, sb);
    return rc;
  }
  *gen = g;
  return 0;
}

/* --- capacity ----------------------------------------------------------------- */

static bool holds_memory(hg_sb_state s) {
  return s == HG_SB_CREATING || s == HG_SB_RUNNING || s == HG_SB_PAUSED ||
         s == HG_SB_RESUMING || s == HG_SB_SUSPENDING;
}

/* Caller holds m->mu. */
int hg__manager_capacity_check(hg_manager *m, unsigned memory_mib, bool new_sandbox) {
  unsigned live = 0;
  uint64_t mem = 0;
  for (unsigned i = 0; i < m->nsbs; i++) {
    if (m->sbs[i]->gone) continue;
    if (!m->sbs[i]->pooled) live++;
    if (holds_memory(m->sbs[i]->state)) mem += m->sbs[i]->memory_mib;
  }
  if (new_sandbox && m->cfg.max_sandboxes && live >= m->cfg.max_sandboxes) return -ENOSPC;
  if (m->cfg.max_memory_mib && mem + memory_mib > m->cfg.max_memory_mib) return -ENOSPC;
  return 0;
}

/* Takes a sandbox for lifecycle work: reference + write lock. One deleted
 * or disowned while we waited for the lock is gone: -ENOENT, so no call
 * works on (or reports) a sandbox that has left the table. As it is:
 * moves (adopt, disown, orphan) take one adopted lazily without its copy. */
static int lifecycle_take(hg_manager *m, const char *id, sandbox **out) {
  sandbox *sb;
  int rc = sb_get(m, id, &sb);
  if (rc < 0) return rc;
  pthread_rwlock_wrlock(&sb->lock);
  pthread_mutex_lock(&m->mu);
  bool gone = sb->gone;
  pthread_mutex_unlock(&m->mu);
  if (gone) {
    pthread_rwlock_unlock(&sb->lock);
    sb_put(m, sb);
    return -ENOENT;
  }
  *out = sb;
  return 0;
}

void hg__sb_lifecycle_end(hg_manager *m, sandbox *sb) {
  pthread_rwlock_unlock(&sb->lock);
  sb_put(m, sb);
}

static int adopt_copy(hg_manager *m, sandbox *sb);

/* lifecycle_take, with the copy into place of a sandbox adopted lazily. */
static int lifecycle_begin(hg_manager *m, const char *id, sandbox **out) {
  int rc = lifecycle_take(m, id, out);
  if (rc == 0 && (*out)->adopted_from[0] && (rc = adopt_copy(m, *out)) < 0)
    hg__sb_lifecycle_end(m, *out);
  return rc;
}

/* --- create ------------------------------------------------------------------- */

static int new_identity(sandbox *sb) {
  uint8_t raw[16];
  int rc = hg_random_bytes(raw, sizeof raw);
  if (rc < 0) return rc;
  hg_hex_encode(raw, sizeof raw, sb->machine_id);
  snprintf(sb->hostname, sizeof sb->hostname, "%s", sb->id);
  return 0;
}

int hg__sb_new_token(char token[65]) {
  uint8_t raw[32];
  int rc = hg_random_bytes(raw, sizeof raw);
  if (rc == 0) hg_hex_encode(raw, sizeof raw, token);
  return rc;
}

static int check_string_object(json_t *obj) {
  if (!obj) return 0;
  if (!json_is_object(obj)) return -EINVAL;
  const char *k;
  json_t *v;
  json_object_foreach(obj, k, v) if (!json_is_string(v) || !*k) return -EINVAL;
  return 0;
}

int hg__sb_spec_apply(hg_manager *m, const hg_sandbox_spec *spec,
                      const hg_template_info *tpl, sandbox *sb) {
  if (check_string_object(spec->env) < 0 || check_string_object(spec->metadata) < 0)
    return -EINVAL;
  /* A restore brings back the template's machine: its memory size and vCPU
   * count are fixed by the saved state. */
  if (spec->memory_mib && spec->memory_mib != tpl->memory_mib) return -EINVAL;
  if (spec->vcpus && spec->vcpus != tpl->vcpus) return -EINVAL;
  if (spec->replicas > MAX_REPLICAS) return -EINVAL;
  snprintf(sb->tpl_name, sizeof sb->tpl_name, "%s", tpl->name);
  snprintf(sb->tpl_digest, sizeof sb->tpl_digest, "%s", tpl->digest);
  snprintf(sb->cmdline, sizeof sb->cmdline, "%s", tpl->cmdline);
  sb->nic = tpl->nic; /* restores need the device set the template saved */
  snprintf(sb->accel, sizeof sb->accel, "%s", tpl->accel); /* and its accelerator */
  sb->vcpus = tpl->vcpus;
  sb->memory_mib = tpl->memory_mib;
  if (spec->env) json_object_update(sb->env, spec->env);
  if (spec->metadata) json_object_update(sb->metadata, spec->metadata);
  sb->idle_suspend_s =
      spec->idle_suspend_s ? spec->idle_suspend_s : m->cfg.default_idle_suspend_s;
  sb->idle_delete = spec->idle_delete;
  sb->replicas = spec->replicas ? spec->replicas : m->cfg.default_replicas;
  sb->checkpoint_s = spec->checkpoint_s > 0    ? spec->checkpoint_s
                     : spec->checkpoint_s == 0 ? m->cfg.default_checkpoint_s
                                               : 0;
  char why[128];
  if (hg_ckpt_interval_check(sb->checkpoint_s, why) < 0) return -EINVAL;
  sb->created_ms = sb->updated_ms = hg_wall_ns() / 1000000;
  sb->state = HG_SB_CREATING;
  return 0;
}

/* Registers a prepared record, or refuses it when over capacity. */
static int admit(hg_manager *m, sandbox *sb) {
  pthread_mutex_lock(&m->mu);
  int rc = hg__manager_capacity_check(m, sb->memory_mib, true);
  if (rc == 0) rc = hg__manager_table_add(m, sb);
  pthread_mutex_unlock(&m->mu);
  return rc;
}

static void forget(hg_manager *m, sandbox *sb) {
  pthread_mutex_lock(&m->mu);
  hg__manager_table_remove(m, sb);
  pthread_mutex_unlock(&m->mu);
  hg__sb_free(sb);
}

/* A new record and its subvolume, a CoW snapshot of the template; the VM is
 * restored later (create_finish). Frees sb on failure. */
int hg__sb_create_cold(hg_manager *m, const hg_template_info *tpl, sandbox *sb) {
  char rel[64];
  int rc = hg_id_new("sb", sb->id);
  if (rc == 0) rc = new_identity(sb);
  if (rc == 0) rc = admit(m, sb);
  if (rc < 0) {
    hg__sb_free(sb);
    return rc;
  }
  hg__sb_rel(sb, rel, sizeof rel);
  rc = hg_store_snapshot(m->cfg.store, tpl->rel, rel, false);
  if (rc == 0) rc = sb_persist(m, sb);
  if (rc < 0) {
    hg_store_subvol_delete(m->cfg.store, rel);
    forget(m, sb);
  }
  return rc;
}

/* Milliseconds since *t; moves *t to now. For the step timings a create
 * logs (sandbox.create_steps, debug level). */
static double step_ms(int64_t *t) {
  int64_t now = hg_now_ns();
  double ms = (double)(now - *t) / 1e6;
  *t = now;
  return ms;
}

/* The rest of a create from the pool, done here so that the one durable
 * write says "running": the pool made the VM, its identity (hostname,
 * machine-id: the pool entry's id is the sandbox's) and warmed it up
 * before anyone asked, so what is left is the guest's clock (it may have
 * drifted while the entry waited) and fresh entropy, then the record.
 * On failure the entry is deleted (nobody has its id yet) and the caller
 * creates without the pool. */
static int warm_claimed(hg_manager *m, sandbox *sb, int64_t *t, double *clock_ms) {
  pthread_rwlock_wrlock(&sb->lock);
  int64_t deadline = 0;
  int rc = lease_for_start(m, sb, &deadline);
  if (rc == 0 && deadline > 0) rc = m->cfg.vmm->set_deadline(sb->vm, deadline);
  if (rc == 0) rc = hg__sb_tell_restored(m, sb, false);
  *clock_ms = step_ms(t);
  if (rc == 0) rc = sb_persist(m, sb);
  if (rc < 0) {
    hg_log_warn("pool.claim", "sandbox=%s err=\"%s\"", sb->id, hg_err_str(rc));
    pthread_mutex_lock(&m->mu);
    m->pool_hits--; /* the caller creates without the pool after all */
    m->pool_misses++;
    pthread_mutex_unlock(&m->mu);
    if (hg__sb_delete_locked(m, sb) < 0) {
      pthread_mutex_lock(&m->mu);
      hg__manager_table_remove(m, sb);
      sb->gone = true;
      pthread_mutex_unlock(&m->mu);
    }
  }
  pthread_rwlock_unlock(&sb->lock);
  if (rc < 0) hg__sb_free(sb);
  return rc;
}

int hg_sandbox_create_begin(hg_manager *m, const hg_sandbox_spec *spec,
                            char id[HG_ID_MAX], char token[65]) {
  int64_t t = hg_now_ns();
  hg_template_info tpl;
  int rc = hg_template_resolve(m->cfg.store, spec->template_ref, &tpl);
  if (rc < 0) return rc;
  double resolve_ms = step_ms(&t);
  sandbox *sb = hg__sb_new();
  if (!sb) return -ENOMEM;
  sb->fresh = true;
  if ((rc = hg__sb_spec_apply(m, spec, &tpl, sb)) < 0 || (rc = hg__sb_new_token(sb->token)) < 0) {
    hg__sb_free(sb);
    return rc;
  }
  sandbox *warm = hg__manager_pool_claim(m, &tpl, sb);
  double claim_ms = step_ms(&t), clock_ms = 0;
  if (warm && warm_claimed(m, warm, &t, &clock_ms) < 0) warm = NULL;
  if (warm) {
    hg__sb_free(sb);
    sb = warm;
  } else {
    rc = hg__sb_create_cold(m, &tpl, sb);
  }
  if (rc < 0) return rc;
  hg_log_info("sandbox.create", "sandbox=%s template=%s warm=%d", sb->id, tpl.name,
              warm != NULL);
  hg_log_debug("sandbox.create_steps", "sandbox=%s warm=%d resolve_ms=%.2f claim_ms=%.2f "
               "clock_ms=%.2f record_ms=%.2f", sb->id, warm != NULL, resolve_ms, claim_ms,
               clock_ms, step_ms(&t));
  memcpy(id, sb->id, HG_ID_MAX);
  memcpy(token, sb->token, 65);
  return 0;
}

void hg__sb_set_failed(hg_manager *m, sandbox *sb, int err, const char *what) {
  pthread_mutex_lock(&m->mu);
  snprintf(sb->error, sizeof sb->error, "%s: %s", what, hg_err_str(err));
  pthread_mutex_unlock(&m->mu);
  hg__sb_set_state(m, sb, HG_SB_FAILED, NULL);
}

int hg_sandbox_create_finish(hg_manager *m, const char *id) {
  int64_t t = hg_now_ns();
  sandbox *sb;
  int rc = lifecycle_begin(m, id, &sb);
  if (rc < 0) return rc;
  double lock_ms = step_ms(&t), start_ms = 0;
  if (sb->claimed && sb->state == HG_SB_RUNNING) {
    sb->claimed = false; /* create_begin did it all */
  } else if (sb->state != HG_SB_CREATING) {
    rc = -EBUSY;
  } else {
    rc = hg__sb_vm_restore(m, sb);
    start_ms = step_ms(&t);
    if (rc == 0) rc = hg__sb_set_state(m, sb, HG_SB_RUNNING, NULL);
    hg_log_debug("sandbox.create_steps", "sandbox=%s warm=0 lock_ms=%.2f restore_ms=%.2f "
                 "record_ms=%.2f", sb->id, lock_ms, start_ms, step_ms(&t));
    if (rc < 0) {
      hg__sb_vm_release(m, sb, true);
      hg__sb_set_failed(m, sb, rc, "create");
    }
  }
  hg__sb_lifecycle_end(m, sb);
  return rc;
}

/* --- queries ------------------------------------------------------------------- */

int hg_sandbox_set_idle(hg_manager *m, const char *id, int64_t idle_suspend_s) {
  if (idle_suspend_s < -1 || idle_suspend_s > HG_SB_IDLE_MAX_S) return -EINVAL;
  sandbox *sb;
  int rc = lifecycle_begin(m, id, &sb);
  if (rc < 0) return rc;
  pthread_mutex_lock(&m->mu);
  sb->idle_suspend_s = idle_suspend_s ? idle_suspend_s : m->cfg.default_idle_suspend_s;
  sb->last_active_ms = hg_now_ms();
  pthread_mutex_unlock(&m->mu);
  rc = sb_persist(m, sb);
  hg__sb_lifecycle_end(m, sb);
  return rc;
}

int hg_sandbox_describe(hg_manager *m, const char *id, json_t **out) {
  sandbox *sb;
  int rc = sb_get(m, id, &sb);
  if (rc < 0) return rc;
  pthread_mutex_lock(&m->mu);
  *out = sb_to_json(sb, false);
  pthread_mutex_unlock(&m->mu);
  sb_put(m, sb);
  return 0;
}

static bool label_matches(json_t *metadata, const char *label) {
  const char *eq = strchr(label, '=');
  if (!eq) return json_object_get(metadata, label) != NULL;
  char key[256];
  if ((size_t)(eq - label) >= sizeof key) return false;
  memcpy(key, label, (size_t)(eq - label));
  key[eq - label] = '\0';
  const char *v = json_string_value(json_object_get(metadata, key));
  return v && strcmp(v, eq + 1) == 0;
}

json_t *hg_sandbox_list(hg_manager *m, const char *state, const char *label) {
  json_t *arr = json_array();
  pthread_mutex_lock(&m->mu);
  for (unsigned i = 0; i < m->nsbs; i++) {
    sandbox *sb = m->sbs[i];
    if (sb->gone || sb->pooled) continue;
    if (state && *state && strcmp(state, hg_sb_state_name(sb->state)) != 0) continue;
    if (label && *label && !label_matches(sb->metadata, label)) continue;
    json_array_append_new(arr, sb_to_json(sb, false));
  }
  pthread_mutex_unlock(&m->mu);
  return arr;
}

bool hg_sandbox_token_ok(hg_manager *m, const char *id, const char *token) {
  sandbox *sb;
  if (!token || sb_get(m, id, &sb) < 0) return false;
  bool ok = hg_secret_equal(sb->token, token);
  sb_put(m, sb);
  return ok;
}

void hg_manager_counts(hg_manager *m, unsigned counts[HG_SB_FAILED + 1]) {
  memset(counts, 0, sizeof(unsigned) * (HG_SB_FAILED + 1));
  pthread_mutex_lock(&m->mu);
  for (unsigned i = 0; i < m->nsbs; i++)
    if (!m->sbs[i]->gone && !m->sbs[i]->pooled) counts[m->sbs[i]->state]++;
  pthread_mutex_unlock(&m->mu);
}

/* --- lifecycle ------------------------------------------------------------------ */

int hg_sandbox_pause(hg_manager *m, const char *id) {
  sandbox *sb;
  int rc = lifecycle_begin(m, id, &sb);
  if (rc < 0) return rc;
  if (sb->state != HG_SB_RUNNING) rc = -EBUSY;
  if (rc == 0) rc = m->cfg.vmm->pause(sb->vm);
  if (rc == 0) rc = hg__sb_set_state(m, sb, HG_SB_PAUSED, NULL);
  hg__sb_lifecycle_end(m, sb);
  return rc;
}

static int resume_paused(hg_manager *m, sandbox *sb) {
  int64_t deadline = 0;
  int rc = lease_for_start(m, sb, &deadline);
  if (rc == 0 && deadline > 0) rc = m->cfg.vmm->set_deadline(sb->vm, deadline);
  if (rc == 0) rc = m->cfg.vmm->resume(sb->vm);
  if (rc == 0) rc = hg__sb_set_state(m, sb, HG_SB_RUNNING, NULL);
  sb->last_active_ms = hg_now_ms();
  return rc;
}

static int resume_suspended(hg_manager *m, sandbox *sb) {
  pthread_mutex_lock(&m->mu);
  int rc = hg__manager_capacity_check(m, sb->memory_mib, false);
  pthread_mutex_unlock(&m->mu);
  if (rc == 0) rc = hg__sb_set_state(m, sb, HG_SB_RESUMING, NULL);
  if (rc < 0) return rc;
  rc = hg__sb_vm_restore(m, sb);
  if (rc < 0) {
    hg__sb_set_state(m, sb, HG_SB_SUSPENDED, NULL);
    return rc;
  }
  return hg__sb_set_state(m, sb, HG_SB_RUNNING, NULL);
}

int hg_sandbox_resume(hg_manager *m, const char *id) {
  sandbox *sb;
  int rc = lifecycle_begin(m, id, &sb);
  if (rc < 0) return rc;
  if (sb->state == HG_SB_PAUSED)
    rc = resume_paused(m, sb);
  else if (sb->state == HG_SB_SUSPENDED)
    rc = resume_suspended(m, sb);
  else
    rc = -EBUSY;
  hg__sb_lifecycle_end(m, sb);
  return rc;
}

/* suspend: steps "saving" -> "saved" are recorded so that recovery after a
 * crash knows whether the saved state on disk is whole. */
static int suspend_locked(hg_manager *m, sandbox *sb, uint64_t *gen) {
  if (sb->state != HG_SB_RUNNING && sb->state != HG_SB_PAUSED) return -EBUSY;
  hg_sb_state before = sb->state;
  int rc = hg__sb_set_state(m, sb, HG_SB_SUSPENDING, "saving");
  if (rc < 0) return rc;
  /* Drop the channel first: no frame may be half-way when memory is saved. */
  agent_detach(sb);
  rc = take_generation(m, sb, "suspend", true, gen);
  if (rc == 0) rc = hg__sb_set_state(m, sb, HG_SB_SUSPENDING, "saved");
  if (rc < 0) {
    hg_log_error("sandbox.suspend", "sandbox=%s err=\"%s\"", sb->id, hg_err_str(rc));
    if (before == HG_SB_RUNNING) m->cfg.vmm->resume(sb->vm);
    if (hg__sb_agent_attach(m, sb) < 0 && before == HG_SB_RUNNING) {
      hg__sb_set_failed(m, sb, rc, "suspend");
      return rc;
    }
    hg__sb_set_state(m, sb, before, NULL);
    return rc;
  }
  hg__sb_vm_release(m, sb, true);
  return hg__sb_set_state(m, sb, HG_SB_SUSPENDED, NULL);
}

int hg_sandbox_suspend(hg_manager *m, const char *id, uint64_t *gen) {
  sandbox *sb;
  int rc = lifecycle_begin(m, id, &sb);
  if (rc < 0) return rc;
  rc = suspend_locked(m, sb, gen);
  hg__sb_lifecycle_end(m, sb);
  return rc;
}

int hg_sandbox_snapshot(hg_manager *m, const char *id, char name[64]) {
  sandbox *sb;
  int rc = lifecycle_begin(m, id, &sb);
  if (rc < 0) return rc;
  /* (the agent of a VM adopted fenced attaches now: see recover) */
  if (sb->state != HG_SB_RUNNING || (!sb->agent && hg__sb_agent_attach(m, sb) < 0)) {
    hg__sb_lifecycle_end(m, sb);
    return -EBUSY;
  }
  char src[64], dst[128], at[32];
  pthread_mutex_lock(&m->mu);
  unsigned n = ++sb->next_snap;
  pthread_mutex_unlock(&m->mu);
  snprintf(name, 64, "snap-%u", n);
  hg__sb_rel(sb, src, sizeof src);
  hg_path(dst, sizeof dst, "snapshots/%s/%s", sb->id, name);
  /* Freeze so the rootfs image holds a clean filesystem at this instant. */
  rc = hg_agent_freeze(sb->agent);
  if (rc == 0) {
    rc = hg_store_snapshot(m->cfg.store, src, dst, true);
    int thaw = hg_agent_thaw(sb->agent);
    if (rc == 0) rc = thaw;
  }
  if (rc == 0) {
    hg_iso_time(hg_wall_ns() / 1000000, at);
    pthread_mutex_lock(&m->mu);
    json_array_append_new(sb->snapshots, json_pack("{s:s, s:s}", "name", name, "at", at));
    pthread_mutex_unlock(&m->mu);
    rc = sb_persist(m, sb);
  }
  if (rc < 0)
    hg_log_error("sandbox.snapshot", "sandbox=%s err=\"%s\"", sb->id, hg_err_str(rc));
  hg__sb_lifecycle_end(m, sb);
  return rc;
}

/* A running or paused sandbox keeps running: stop, save, snapshot, go on. */
static int checkpoint_locked(hg_manager *m, sandbox *sb, uint64_t *gen) {
  if (sb->state == HG_SB_SUSPENDED) {
    *gen = sb->gen;
    return sb->gen ? 0 : -ENOENT;
  }
  if (sb->state != HG_SB_RUNNING && sb->state != HG_SB_PAUSED) return -EBUSY;
  int rc = take_generation(m, sb, "checkpoint", true, gen);
  if (sb->state == HG_SB_RUNNING) {
    int rrc = m->cfg.vmm->resume(sb->vm);
    if (rc == 0) rc = rrc;
  }
  return rc;
}

/* The next checkpoint of sb is due checkpoint_s from now. */
static void ckpt_rearm(hg_manager *m, sandbox *sb) {
  pthread_mutex_lock(&m->mu);
  sb->ckpt_due_ms = sb->checkpoint_s > 0 ? hg_now_ms() + sb->checkpoint_s * 1000 : 0;
  pthread_mutex_unlock(&m->mu);
}

/* pause_ms goes with the generation's entry in the sandbox's own record
 * (the generation's copy was written while the guest stood still). */
static void gen_note_pause(hg_manager *m, sandbox *sb, uint64_t gen, double ms) {
  pthread_mutex_lock(&m->mu);
  json_t *g = json_array_get(sb->generations, json_array_size(sb->generations) - 1);
  if (json_integer_value(json_object_get(g, "gen")) == (json_int_t)gen)
    json_object_set_new(g, "pause_ms", json_real((double)(int64_t)(ms * 10) / 10));
  pthread_mutex_unlock(&m->mu);
}

/* As a suspend saves (the agent channel dropped first, so no frame is
 * half-way in the saved memory), but the VM goes on and the generation
 * waits for hg_sandbox_gen_publish. */
int hg_sandbox_checkpoint(hg_manager *m, const char *id, uint64_t *gen, double *pause_ms) {
  sandbox *sb;
  int rc = lifecycle_begin(m, id, &sb);
  if (rc < 0) return rc;
  if (sb->state != HG_SB_RUNNING || !sb->vm) {
    hg__sb_lifecycle_end(m, sb);
    return -EBUSY;
  }
  agent_detach(sb);
  /* recorded with the generation: a hangard that dies before the VM
   * continues leaves it stopped, and recovery continues it (hg__sb_ckpt_continue) */
  pthread_mutex_lock(&m->mu);
  snprintf(sb->pending, sizeof sb->pending, "checkpoint");
  pthread_mutex_unlock(&m->mu);
  int64_t t0 = hg_now_ns();
  rc = take_generation(m, sb, "checkpoint", false, gen);
  int rrc = m->cfg.vmm->resume(sb->vm);
  pthread_mutex_lock(&m->mu);
  sb->pending[0] = '\0';
  pthread_mutex_unlock(&m->mu);
  double ms = (double)(hg_now_ns() - t0) / 1e6;
  ckpt_rearm(m, sb);
  if (rrc < 0) { /* stopped for good: as a failed suspend that cannot go back */
    hg__sb_set_failed(m, sb, rrc, "checkpoint");
    hg__sb_lifecycle_end(m, sb);
    return rrc;
  }
  /* A guest slow to answer gets its channel back at its next use. */
  if (hg__sb_agent_attach(m, sb) < 0)
    hg_log_warn("sandbox.checkpoint", "sandbox=%s msg=\"agent reattaches at next use\"",
                sb->id);
  if (rc == 0) gen_note_pause(m, sb, *gen, ms);
  sb_persist(m, sb); /* the pause in the record, no step pending */
  if (rc == 0) {
    *pause_ms = ms;
    hg_log_info("sandbox.checkpoint", "sandbox=%s gen=%llu pause_ms=%.1f", sb->id,
                (unsigned long long)*gen, ms);
  } else {
    hg_log_error("sandbox.checkpoint", "sandbox=%s err=\"%s\"", sb->id, hg_err_str(rc));
  }
  hg__sb_lifecycle_end(m, sb);
  return rc;
}

int hg_sandbox_gen_publish(hg_manager *m, const char *id, uint64_t gen) {
  sandbox *sb;
  int rc = lifecycle_begin(m, id, &sb);
  if (rc < 0) return rc;
  pthread_mutex_lock(&m->mu);
  bool newer = gen > sb->pub_gen && gen <= sb->gen;
  if (newer) sb->pub_gen = gen;
  pthread_mutex_unlock(&m->mu);
  if (newer) rc = sb_persist(m, sb);
  hg__sb_lifecycle_end(m, sb);
  return rc;
}

/* Drops gen from sb's list of generations (caller holds m->mu). */
static void gen_unlist(sandbox *sb, uint64_t gen) {
  for (size_t i = 0; i < json_array_size(sb->generations); i++)
    if (json_integer_value(json_object_get(json_array_get(sb->generations, i), "gen")) ==
        (json_int_t)gen) {
      json_array_remove(sb->generations, i);
      return;
    }
}

int hg_sandbox_retain(hg_manager *m, const char *id) {
  sandbox *sb;
  int rc = lifecycle_begin(m, id, &sb);
  if (rc < 0) return rc;
  pthread_mutex_lock(&m->mu);
  size_t n = json_array_size(sb->generations);
  hg_gen_ref *refs = calloc(n ? n : 1, sizeof *refs);
  uint64_t *drop = calloc(n ? n : 1, sizeof *drop), pinned[2] = {sb->gen, sb->pub_gen};
  for (size_t i = 0; refs && i < n; i++) {
    json_t *g = json_array_get(sb->generations, i);
    const char *kind = json_string_value(json_object_get(g, "kind"));
    refs[i].gen = (uint64_t)json_integer_value(json_object_get(g, "gen"));
    refs[i].checkpoint = kind && !strcmp(kind, "checkpoint");
  }
  unsigned keep = m->cfg.checkpoint_keep ? m->cfg.checkpoint_keep : HG_CKPT_KEEP_DEFAULT;
  size_t nd = refs && drop ? hg_gen_retain_plan(refs, n, keep, pinned, 2, drop, n) : 0;
  pthread_mutex_unlock(&m->mu);
  int done = 0;
  for (size_t i = 0; i < nd; i++) {
    char rel[96];
    hg_path(rel, sizeof rel, "snapshots/%s/%llu", sb->id, (unsigned long long)drop[i]);
    if (hg_store_is_subvol(m->cfg.store, rel) && hg_store_subvol_delete(m->cfg.store, rel) < 0)
      continue;
    pthread_mutex_lock(&m->mu);
    gen_unlist(sb, drop[i]);
    pthread_mutex_unlock(&m->mu);
    done++;
    hg_log_debug("sandbox.retention", "sandbox=%s gen=%llu keep=%u", sb->id,
                 (unsigned long long)drop[i], keep);
  }
  rc = !refs || !drop ? -ENOMEM : done ? sb_persist(m, sb) : 0;
  free(refs);
  free(drop);
  hg__sb_lifecycle_end(m, sb);
  return rc < 0 ? rc : done;
}

bool hg__sb_gen_name(const char *name, uint64_t *gen) {
  char *end;
  unsigned long long n = strtoull(name, &end, 10);
  if (name[0] < '1' || name[0] > '9' || *end || n == 0) return false;
  *gen = n;
  return true;
}

bool hg__sb_gen_whole(hg_manager *m, const char *rel) {
  hg_subvol_info info;
  return hg_store_is_subvol(m->cfg.store, rel) &&
         hg_store_subvol_info(m->cfg.store, rel, &info) == 0 && info.readonly;
}

/* Where generation gen of sandbox id is: one taken here
 * (snapshots/<id>/<gen>), else a replica (replicas/<id>/<gen>): a sandbox
 * moved here starts from a replica, and its older generations may exist
 * here only as replicas. Only a read-only subvolume is a generation (as
 * replication counts them, holdings.c): a writable one is not whole, or
 * not yet. -ENOENT: neither. */
int hg__sb_gen_find(hg_manager *m, const char *id, uint64_t gen, char out[96]) {
  static const char *const dirs[] = {"snapshots", "replicas"};
  for (size_t i = 0; i < HG_ARRAY_SIZE(dirs); i++)
    if (hg_path(out, 96, "%s/%s/%llu", dirs[i], id, (unsigned long long)gen) == 0 &&
        hg__sb_gen_whole(m, out))
      return 0;
  return -ENOENT;
}

/* Makes the child's record from the parent's, with a new identity. */
static int fork_record(hg_manager *m, sandbox *parent, sandbox *child) {
  pthread_mutex_lock(&m->mu);
  snprintf(child->tpl_name, sizeof child->tpl_name, "%s", parent->tpl_name);
  snprintf(child->tpl_digest, sizeof child->tpl_digest, "%s", parent->tpl_digest);
  snprintf(child->cmdline, sizeof child->cmdline, "%s", parent->cmdline);
  child->vcpus = parent->vcpus;
  child->memory_mib = parent->memory_mib;
  child->nic = parent->nic;
  snprintf(child->accel, sizeof child->accel, "%s", parent->accel);
  child->idle_suspend_s = parent->idle_suspend_s;
  child->idle_delete = parent->idle_delete;
  child->checkpoint_s = parent->checkpoint_s;
  child->replicas = parent->replicas;
  json_object_update(child->env, parent->env);
  json_object_update(child->metadata, parent->metadata);
  json_object_set_new(child->metadata, "forked_from", json_string(parent->id));
  pthread_mutex_unlock(&m->mu);
  child->created_ms = child->updated_ms = hg_wall_ns() / 1000000;
  child->state = HG_SB_CREATING;
  int rc = hg_id_new("sb", child->id);
  if (rc == 0) rc = hg__sb_new_token(child->token);
  if (rc == 0) rc = new_identity(child);
  return rc;
}

/* The child starts from the subvolume src (point names it for the log):
 * restored when it is a generation (memory + devices), booted when it is a
 * disk snapshot. */
static int fork_from(hg_manager *m, sandbox *parent, const char *src, const char *point,
                     bool boot, sandbox *child) {
  char dst[64];
  int rc = fork_record(m, parent, child);
  /* A cold boot owes no saved machine its device set: networking if on. */
  if (boot) { /* nor its accelerator */
    child->nic = m->cfg.net != NULL;
    snprintf(child->accel, sizeof child->accel, "%s",
             m->cfg.accel && !strcmp(m->cfg.accel, "kvm") ? "kvm" : "tcg");
  }
  if (rc == 0) rc = admit(m, child);
  if (rc < 0) return rc;
  hg__sb_rel(child, dst, sizeof dst);
  pthread_rwlock_wrlock(&child->lock);
  rc = hg_store_snapshot(m->cfg.store, src, dst, false);
  if (rc == 0) hg__sb_remove_run_files(m, child);
  if (rc == 0) rc = sb_persist(m, child);
  if (rc == 0) rc = boot ? vm_boot(m, child) : hg__sb_vm_restore(m, child);
  if (rc == 0) rc = hg__sb_set_state(m, child, HG_SB_RUNNING, NULL);
  pthread_rwlock_unlock(&child->lock);
  if (rc < 0) {
    hg_log_error("sandbox.fork", "sandbox=%s from=%s err=\"%s\"", parent->id, point,
                 hg_err_str(rc));
    hg__sb_vm_release(m, child, true);
    hg_store_subvol_delete(m->cfg.store, dst);
    forget(m, child);
  }
  return rc;
}

static bool has_snapshot(hg_manager *m, sandbox *sb, const char *name) {
  unsigned n;
  char rel[128], end;
  if (sscanf(name, "snap-%u%c", &n, &end) != 1) return false;
  hg_path(rel, sizeof rel, "snapshots/%s/%s", sb->id, name);
  return hg_store_is_subvol(m->cfg.store, rel);
}

int hg_sandbox_fork(hg_manager *m, const char *id, uint64_t gen, const char *snapshot,
                    char new_id[HG_ID_MAX], char new_token[65]) {
  sandbox *sb;
  int rc = lifecycle_begin(m, id, &sb);
  if (rc < 0) return rc;
  char point[64], src[128];
  if (snapshot) {
    rc = has_snapshot(m, sb, snapshot) ? 0 : -ENOENT;
    snprintf(point, sizeof point, "%s", snapshot);
    if (rc == 0) rc = hg_path(src, sizeof src, "snapshots/%s/%s", sb->id, snapshot);
  } else {
    if (gen == 0) rc = checkpoint_locked(m, sb, &gen);
    if (rc == 0) rc = hg__sb_gen_find(m, sb->id, gen, src);
    snprintf(point, sizeof point, "%llu", (unsigned long long)gen);
  }
  sandbox *child = rc == 0 ? hg__sb_new() : NULL;
  if (child) child->fresh = true;
  if (rc == 0 && !child) rc = -ENOMEM;
  if (rc == 0) rc = fork_from(m, sb, src, point, snapshot != NULL, child);
  if (rc == 0) {
    memcpy(new_id, child->id, HG_ID_MAX);
    memcpy(new_token, child->token, 65);
    hg_log_info("sandbox.fork", "sandbox=%s from=%s child=%s", sb->id, point, child->id);
  }
  hg__sb_lifecycle_end(m, sb);
  return rc;
}

/* Drops a sandbox from the table; the last reference frees it. */
static void table_forget(hg_manager *m, sandbox *sb, hg_sb_state st) {
  pthread_mutex_lock(&m->mu);
  sb->state = st;
  sb->gone = true;
  hg__manager_table_remove(m, sb);
  pthread_mutex_unlock(&m->mu);
}

/* Deletes store paths of sandbox id under each of dirs ("snapshots" ->
 * snapshots/<id>: the generations and the dir holding them). */
static int delete_dirs(hg_manager *m, const char *id, const char *const *dirs, size_t n) {
  int rc = 0;
  char rel[96];
  for (size_t i = 0; i < n && rc == 0; i++) {
    rc = hg_path(rel, sizeof rel, "%s/%s", dirs[i], id);
    if (rc == 0) rc = hg_store_subvol_delete(m->cfg.store, rel);
  }
  return rc;
}

int hg__sb_delete_locked(hg_manager *m, sandbox *sb) {
  /* One adopted lazily has no record of its own to mark: its adoption
   * record goes last instead. */
  bool lazy = sb->adopted_from[0] != '\0';
  if (sb->state != HG_SB_DELETING && !lazy) hg__sb_set_state(m, sb, HG_SB_DELETING, NULL);
  hg__sb_vm_release(m, sb, true);
  /* Generations first, the record last: a crash in between leaves a
   * "deleting" sandbox that recovery deletes again. A deleted sandbox's
   * replicas held here go too (every holder drops its own). */
  static const char *const dirs[] = {"snapshots", "replicas", "sandboxes"};
  int rc = delete_dirs(m, sb->id, dirs, HG_ARRAY_SIZE(dirs));
  if (rc == 0 && lazy) rc = hg__sb_adopted_remove(m, sb->id, true);
  if (rc < 0) {
    hg_log_error("sandbox.delete", "sandbox=%s err=\"%s\"", sb->id, hg_err_str(rc));
    return rc;
  }
  remove_console(m, sb->id);
  table_forget(m, sb, HG_SB_DELETED);
  hg_log_info("sandbox.deleted", "sandbox=%s", sb->id);
  if (!sb->pooled) {
    hg_sb_change ch = change_of(sb, "deleted");
    report(m, &ch);
  }
  return 0;
}

int hg_sandbox_delete(hg_manager *m, const char *id) {
  sandbox *sb;
  int rc = lifecycle_take(m, id, &sb); /* one adopted lazily: no copy to make first */
  if (rc < 0) return rc;
  rc = hg__sb_delete_locked(m, sb);
  /* Out of the table now: the last reference frees it. */
  hg__sb_lifecycle_end(m, sb);
  return rc;
}

/* --- moves between nodes ------------------------------------------------------- */

int hg_sandbox_info(hg_manager *m, const char *id, hg_sb_info *out) {
  if (!hg_id_valid("sb", id)) return -ENOENT;
  hg_sb_info info = {0};
  char name[HG_TEMPLATE_NAME_MAX];
  pthread_mutex_lock(&m->mu);
  sandbox *sb = hg__manager_find_locked(m, id);
  if (sb) {
    info.state = sb->state;
    info.gen = sb->gen, info.pub_gen = sb->pub_gen;
    info.epoch = info.lease.epoch = sb->epoch;
    info.lease.ngroup = sb->ngroup;
    memcpy(info.lease.group, sb->group, sizeof info.lease.group);
    info.replicas = sb->replicas;
    info.idle_delete = sb->idle_delete;
    memcpy(info.token, sb->token, sizeof info.token);
    /* templates/<name:tag>@<digest16>, as hg_template_build names it. */
    if (hg_template_name(sb->tpl_name, name) < 0)
      snprintf(name, sizeof name, "%s", sb->tpl_name);
    hg_path(info.tpl_dir, sizeof info.tpl_dir, "%s@%.16s", name, sb->tpl_digest);
    hg_path(info.template_ref, sizeof info.template_ref, "%s", name);
  }
  pthread_mutex_unlock(&m->mu);
  if (!sb) return -ENOENT;
  *out = info;
  return 0;
}

int hg_sandbox_set_deadline(hg_manager *m, const char *id, int64_t until_ms) {
  if (!hg_id_valid("sb", id)) return -ENOENT;
  char dir[4096];
  int rc = -ENOENT;
  pthread_mutex_lock(&m->mu);
  sandbox *sb = hg__manager_find_locked(m, id);
  /* By state, not sb->vm (which changes under the sandbox's lock): the
   * states a VM may exist in. */
  hg_sb_state st = sb ? sb->state : HG_SB_FAILED;
  if (sb && !sb->pooled &&
      (st == HG_SB_RUNNING || st == HG_SB_PAUSED || st == HG_SB_SUSPENDING ||
       st == HG_SB_RESUMING || st == HG_SB_CREATING))
    rc = hg__sb_dir(m, sb, dir);
  pthread_mutex_unlock(&m->mu);
  if (rc < 0) return rc;
  return m->cfg.vmm->set_deadline_at(dir, until_ms);
}

int hg_sandbox_set_lease(hg_manager *m, const char *id, const hg_sb_lease *l) {
  sandbox *sb;
  int rc = sb_get(m, id, &sb);
  if (rc < 0) return rc;
  pthread_mutex_lock(&m->mu);
  sb->ngroup = l->ngroup < HG_SB_GROUP_MAX ? l->ngroup : HG_SB_GROUP_MAX;
  memcpy(sb->group, l->group, sizeof sb->group);
  if (l->epoch > sb->epoch) sb->epoch = l->epoch;
  pthread_mutex_unlock(&m->mu);
  rc = sb_persist(m, sb);
  sb_put(m, sb);
  return rc;
}

/* Moves the generations taken here (snapshots/<id>/<gen>) to
 * replicas/<id>/<gen>; one already held as a replica stays where it is. */
static int generations_to_replicas(hg_manager *m, const char *id) {
  char rel[96], dir[4096], src[128], dst[128];
  int rc = hg_path(rel, sizeof rel, "snapshots/%s", id);
  if (rc == 0) rc = hg_store_abs(m->cfg.store, rel, dir, sizeof dir);
  if (rc < 0) return rc;
  DIR *d = opendir(dir);
  if (!d) return errno == ENOENT ? 0 : -errno;
  struct dirent *e;
  while (rc == 0 && (e = readdir(d))) {
    uint64_t gen;
    if (!hg__sb_gen_name(e->d_name, &gen)) continue;
    rc = hg_path(src, sizeof src, "%s/%s", rel, e->d_name);
    if (rc == 0) rc = hg_path(dst, sizeof dst, "replicas/%s/%llu", id, (unsigned long long)gen);
    if (rc < 0 || !hg_store_is_subvol(m->cfg.store, src) ||
        hg_store_is_subvol(m->cfg.store, dst))
      continue;
    rc = hg_store_move(m->cfg.store, src, dst);
  }
  closedir(d);
  return rc;
}

/* Moves of sandbox id (adopt, disown, orphan) one at a time. */
static int move_begin(hg_manager *m, const char *id) {
  return hg_keylock_take(&m->moves, id, true);
}

static void move_end(hg_manager *m, const char *id) {
  hg_keylock_release(&m->moves, id);
}

/* The sandbox leaves this node: its generations stay as replicas, its
 * writable subvolume, disk snapshots and record go. Generations move first
 * and the record goes last, so a crash at any step leaves either the whole
 * sandbox (recovery finds it suspended, a new disown finishes) or none. */
static int disown_locked(hg_manager *m, sandbox *sb) {
  hg__sb_vm_release(m, sb, true);
  static const char *const dirs[] = {"snapshots", "sandboxes"};
  int rc = generations_to_replicas(m, sb->id);
  if (rc == 0) rc = delete_dirs(m, sb->id, dirs, HG_ARRAY_SIZE(dirs));
  if (rc == 0) rc = hg__sb_adopted_remove(m, sb->id, true); /* one adopted lazily */
  if (rc < 0) {
    hg_log_error("sandbox.disown", "sandbox=%s err=\"%s\"", sb->id, hg_err_str(rc));
    return rc;
  }
  remove_console(m, sb->id);
  /* No on_change: the sandbox lives on, owned elsewhere. */
  table_forget(m, sb, sb->state);
  return 0;
}

int hg_sandbox_disown(hg_manager *m, const char *id, uint64_t epoch) {
  sandbox *sb;
  int rc = move_begin(m, id);
  if (rc < 0) return rc;
  rc = lifecycle_take(m, id, &sb);
  if (rc == 0) {
    if (epoch <= sb->epoch)
      rc = -ESTALE;
    else if (sb->state != HG_SB_SUSPENDED && sb->state != HG_SB_FAILED)
      rc = -EBUSY;
    else
      rc = disown_locked(m, sb);
    if (rc == 0)
      hg_log_info("sandbox.disowned", "sandbox=%s epoch=%llu gen=%llu", id,
                  (unsigned long long)epoch, (unsigned long long)sb->gen);
    hg__sb_lifecycle_end(m, sb);
  }
  move_end(m, id);
  return rc;
}

/* --- fencing: orphans ------------------------------------------------------------ */

/* Stops sb's VM for good and detaches its network: the VM is gone when
 * this returns 0. Without a handle the shim's status file is asked too: a
 * VM the manager lost track of (an adopt that failed) may still run. */
static int vm_kill(hg_manager *m, sandbox *sb) {
  char dir[4096];
  int rc = hg__sb_dir(m, sb, dir);
  if (rc < 0) return rc;
  agent_detach(sb);
  if (!sb->vm && m->cfg.vmm->adopt(dir, &sb->vm) < 0) sb->vm = NULL;
  if (sb->vm) {
    rc = m->cfg.vmm->stop(sb->vm);
    if (rc < 0) {
      hg_log_error("sandbox.orphan", "sandbox=%s err=\"VM did not stop: %s\"", sb->id,
                   hg_err_str(rc));
      return rc; /* the handle stays, for another try */
    }
    m->cfg.vmm->release(sb->vm);
    sb->vm = NULL;
  }
  net_detach(m, sb);
  m->cfg.vmm->clear(dir); /* no status file left to adopt, no stale socket */
  return 0;
}

/* Writes sandboxes/<id>/orphan.json: from here on the sandbox is an
 * orphan, and a restart finishes the move (hg__manager_load_all). */
/* Writes orphan.json into the subvolume rel (store-relative). */
int hg__sb_orphan_record_in(hg_manager *m, sandbox *sb, const char *rel, uint64_t epoch,
                            const char *reason, hg_sb_state was) {
  char dir[4096], path[4096] = "", at[32];
  hg_iso_time(hg_wall_ns() / 1000000, at);
  pthread_mutex_lock(&m->mu);
  json_t *j = json_pack("{s:s,s:I,s:I,s:s,s:s,s:s,s:I}", "id", sb->id, "epoch",
                        (json_int_t)epoch, "own_epoch", (json_int_t)sb->epoch, "orphaned_at",
                        at, "state", hg_sb_state_name(was), "template", sb->tpl_name, "gen",
                        (json_int_t)sb->gen);
  pthread_mutex_unlock(&m->mu);
  /* The reason is the caller's text: bounded, and JSON needs UTF-8. */
  json_t *why = json_stringn(reason ? reason : "", strnlen(reason ? reason : "", 512));
  if (j) json_object_set_new(j, "reason", why ? why : json_string("(not UTF-8)"));
  char *text = j ? json_dumps(j, JSON_INDENT(2)) : NULL;
  json_decref(j);
  int rc = text ? hg_store_abs(m->cfg.store, rel, dir, sizeof dir) : -ENOMEM;
  if (rc == 0) rc = hg_path(path, sizeof path, "%s/%s", dir, HG_ORPHAN_RECORD);
  if (rc == 0) rc = hg_write_file_atomic(path, text, strlen(text));
  free(text);
  if (rc < 0)
    hg_log_error("sandbox.orphan", "sandbox=%s path=%s err=\"%s\"", sb->id, path,
                 hg_err_str(rc));
  return rc;
}

static int orphan_record(hg_manager *m, sandbox *sb, uint64_t epoch, const char *reason,
                         hg_sb_state was) {
  char rel[64];
  int rc = hg__sb_rel(sb, rel, sizeof rel);
  return rc < 0 ? rc : hg__sb_orphan_record_in(m, sb, rel, epoch, reason, was);
}

/* Moves every subvolume in from/ (store-relative) to to/<same name>. */
static int move_subvols(hg_manager *m, const char *from, const char *to) {
  char dir[4096], src[160], dst[160];
  int rc = hg_store_abs(m->cfg.store, from, dir, sizeof dir);
  if (rc < 0) return rc;
  DIR *d = opendir(dir);
  if (!d) return errno == ENOENT ? 0 : -errno;
  struct dirent *e;
  while (rc == 0 && (e = readdir(d))) {
    if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, "..")) continue;
    rc = hg_path(src, sizeof src, "%s/%s", from, e->d_name);
    if (rc == 0) rc = hg_path(dst, sizeof dst, "%s/%s", to, e->d_name);
    if (rc == 0 && hg_store_is_subvol(m->cfg.store, src))
      rc = hg_store_move(m->cfg.store, src, dst);
  }
  closedir(d);
  return rc;
}

/* The part of an orphaning after its record is written, again after a
 * crash: the generations and disk snapshots taken here go inside the
 * subvolume (snapshots/<id>/x -> sandboxes/<id>/snapshots/x), then the
 * subvolume to orphans/. Each step is a rename, so a crash between two
 * leaves nothing that a second run does not finish. */
static int orphan_finish(hg_manager *m, const char *id, uint64_t epoch,
                         char name[HG_ORPHAN_NAME_MAX]) {
  char src[64], gens[64], into[96];
  int rc = hg_path(src, sizeof src, "sandboxes/%s", id);
  if (rc == 0) rc = hg_path(gens, sizeof gens, "snapshots/%s", id);
  if (rc == 0) rc = hg_path(into, sizeof into, "%s/snapshots", src);
  if (rc == 0) rc = move_subvols(m, gens, into);
  if (rc == 0) rc = hg_store_subvol_delete(m->cfg.store, gens); /* empty now */
  if (rc < 0) return rc;
  pthread_mutex_lock(&m->orphan_mu);
  rc = hg_orphan_place(m->cfg.store, src, id, epoch, name);
  pthread_mutex_unlock(&m->orphan_mu);
  if (rc == 0) remove_console(m, id);
  return rc;
}

static int orphan_locked(hg_manager *m, sandbox *sb, uint64_t epoch, const char *reason) {
  hg_sb_state was = sb->state;
  char name[HG_ORPHAN_NAME_MAX];
  /* Adopted lazily: no copy of ours ever ran, its generations are replicas. */
  if (sb->adopted_from[0]) return disown_locked(m, sb);
  int rc = vm_kill(m, sb);
  if (rc < 0) {
    hg__sb_set_failed(m, sb, rc, "orphan: the VM did not stop");
    return rc;
  }
  if (epoch <= sb->epoch) /* the lease layer knows better; say so, and obey */
    hg_log_warn("sandbox.orphan", "sandbox=%s epoch=%llu own_epoch=%llu err=\"not above ours\"",
                sb->id, (unsigned long long)epoch, (unsigned long long)sb->epoch);
  rc = orphan_record(m, sb, epoch, reason, was);
  if (rc < 0) return rc; /* still ours, stopped: a retry starts over */
  /* Out of the table before the moves: nobody is served an orphan. */
  table_forget(m, sb, sb->state);
  rc = orphan_finish(m, sb->id, epoch, name);
  if (rc < 0) {
    hg_log_error("sandbox.orphan", "sandbox=%s epoch=%llu err=\"%s\" "
                 "(left in sandboxes/, the next start finishes the move)",
                 sb->id, (unsigned long long)epoch, hg_err_str(rc));
    return rc;
  }
  hg_log_warn("sandbox.orphaned", "sandbox=%s epoch=%llu own_epoch=%llu state=%s orphan=%s "
              "reason=\"%.200s\"", sb->id, (unsigned long long)epoch,
              (unsigned long long)sb->epoch, hg_sb_state_name(was), name, reason ? reason : "");
  return 0;
}

int hg_sandbox_orphan(hg_manager *m, const char *id, uint64_t epoch, const char *reason) {
  if (epoch == 0) return -EINVAL;
  sandbox *sb;
  /* After adopts and disowns, as they order themselves over one id. */
  int rc = move_begin(m, id);
  if (rc < 0) return rc;
  rc = lifecycle_take(m, id, &sb);
  if (rc == 0) {
    rc = orphan_locked(m, sb, epoch, reason);
    hg__sb_lifecycle_end(m, sb);
  }
  move_end(m, id);
  return rc;
}

/* At start-up: sandboxes/<id> holding an orphan record is an orphaning a
 * crash cut short. Its VM (if its shim still runs it) stops, the move is
 * finished; the sandbox never enters the table. false: no record. */
bool hg__sb_orphan_recover(hg_manager *m, sandbox *sb) {
  char path[4096], *text = NULL, name[HG_ORPHAN_NAME_MAX];
  struct stat st;
  if (sb_file(m, sb, HG_ORPHAN_RECORD, path) < 0 || lstat(path, &st) < 0) return false;
  /* Present is enough: a record that does not read still says "not ours". */
  json_t *j = NULL;
  if (hg_read_file(path, HG_ORPHAN_RECORD_MAX, &text, NULL) == 0) j = json_loads(text, 0, NULL);
  free(text);
  json_int_t epoch = json_integer_value(json_object_get(j, "epoch"));
  json_decref(j);
  int rc = vm_kill(m, sb);
  if (epoch < 1) epoch = (json_int_t)sb->epoch + 1; /* a torn record: still not ours */
  if (rc == 0) rc = orphan_finish(m, sb->id, (uint64_t)epoch, name);
  if (rc == 0)
    hg_log_warn("sandbox.orphaned", "sandbox=%s orphan=%s recovered=1", sb->id, name);
  else
    hg_log_error("sandbox.orphan", "sandbox=%s err=\"%s\" recovered=0", sb->id,
                 hg_err_str(rc));
  if (sb->vm) m->cfg.vmm->release(sb->vm); /* one that would not stop: not served either */
  sb->vm = NULL;
  return true;
}

json_t *hg_manager_orphans(hg_manager *m) {
  pthread_mutex_lock(&m->orphan_mu); /* no half-deleted orphan in the list */
  json_t *list = hg_orphan_list(m->cfg.store);
  pthread_mutex_unlock(&m->orphan_mu);
  return list;
}

unsigned hg_manager_orphan_count(hg_manager *m) { return hg_orphan_count(m->cfg.store); }

int hg_manager_orphan_delete(hg_manager *m, const char *name) {
  if (!hg_orphan_name_valid(name)) return -EINVAL;
  pthread_mutex_lock(&m->orphan_mu);
  int rc = hg_orphan_delete(m->cfg.store, name);
  pthread_mutex_unlock(&m->orphan_mu);
  return rc;
}

/* The files the VMM opens must be the subvolume's own regular files: a
 * replica came over the network, and a symlink there would hand the VMM
 * (or a later write) a file of the host. */
static int check_files(const char *dir) {
  static const char *const names[] = {"sandbox.json", "vmstate", "mem",
                                      "rootfs.img",   "vmlinuz", "initrd.img"};
  for (size_t i = 0; i < HG_ARRAY_SIZE(names); i++) {
    char path[4096];
    struct stat st;
    if (hg_path(path, sizeof path, "%s/%s", dir, names[i]) < 0) return -ENAMETOOLONG;
    if (lstat(path, &st) < 0 || !S_ISREG(st.st_mode)) {
      hg_log_warn("sandbox.adopt", "dir=%s file=%s err=\"missing or not a regular file\"",
                  dir, names[i]);
      return -EPROTO;
    }
  }
  return 0;
}

/* gen_rel's last component, when it is a number, names the generation. */
static bool gen_matches_path(const char *gen_rel, uint64_t gen) {
  const char *base = strrchr(gen_rel, '/');
  base = base ? base + 1 : gen_rel;
  char *end;
  unsigned long long n = strtoull(base, &end, 10);
  if (base[0] < '0' || base[0] > '9' || *end) return true;
  return n == gen;
}

/* The record in a staged copy: it must be sandbox id's, at a generation,
 * built from a template this node can name. */
static int staged_record(hg_manager *m, const char *dir, const char *id,
                         const char *gen_rel, sandbox *sb) {
  char path[4096], *text, name[HG_TEMPLATE_NAME_MAX];
  int rc = hg_path(path, sizeof path, "%s/sandbox.json", dir);
  if (rc == 0) rc = hg_read_file(path, SANDBOX_JSON_MAX, &text, NULL);
  if (rc < 0) return rc == -EFBIG ? -EPROTO : rc;
  json_t *j = json_loads(text, 0, NULL);
  free(text);
  rc = j ? hg__sb_from_json(sb, j, m->cfg.default_replicas) : -EPROTO;
  json_decref(j);
  if (rc == 0 &&
      (strcmp(sb->id, id) != 0 || sb->gen == 0 || !gen_matches_path(gen_rel, sb->gen) ||
       hg_template_name(sb->tpl_name, name) < 0 || strlen(sb->tpl_digest) != 64))
    rc = -EPROTO;
  if (rc < 0)
    hg_log_warn("sandbox.adopt",
                "sandbox=%s from=%s err=\"not this sandbox's generation\"", id, gen_rel);
  return rc;
}

/* The sandbox gen_rel records, suspended here at epoch and not yet copied
 * into place (adopted_from: the copy waits for its first lifecycle call).
 * gen_rel must be a read-only generation of this very sandbox whose files
 * are its own. Reads only: the generation stays as it is. */
int hg__sb_adopt_read(hg_manager *m, const char *id, const char *gen_rel, uint64_t epoch,
                      sandbox **out) {
  char dir[4096];
  hg_subvol_info info;
  int rc = hg_store_abs(m->cfg.store, gen_rel, dir, sizeof dir);
  if (rc < 0) return rc;
  if (!hg_store_is_subvol(m->cfg.store, gen_rel)) return -ENOENT;
  if ((rc = hg_store_subvol_info(m->cfg.store, gen_rel, &info)) < 0) return rc;
  if (!info.readonly) return -EPROTO; /* a generation never changes */
  sandbox *sb = hg__sb_new();
  if (!sb) return -ENOMEM;
  rc = check_files(dir);
  if (rc == 0) rc = staged_record(m, dir, id, gen_rel, sb);
  if (rc == 0 && hg_path(sb->adopted_from, sizeof sb->adopted_from, "%s", gen_rel) < 0)
    rc = -ENAMETOOLONG;
  if (rc < 0) {
    hg__sb_free(sb);
    return rc;
  }
  sb->state = HG_SB_SUSPENDED;
  sb->pending[0] = sb->error[0] = '\0';
  sb->epoch = epoch;
  sb->pub_gen = sb->gen; /* what it is adopted from is its newest, and held */
  sb->pooled = false;
  /* Disk snapshots stay on the node that took them. */
  json_array_clear(sb->snapshots);
  *out = sb;
  return 0;
}

int hg__sb_adopted_remove(hg_manager *m, const char *id, bool durable) {
  return hg__adopted_remove(m->adopted, id, durable);
}

/* The copy a lazy adopt put off, at the sandbox's first lifecycle call:
 * staging/adopt-<id>, a writable snapshot of its generation whose
 * sandbox.json says "suspended at this epoch", moved into place in one
 * rename. A crash before the rename leaves the adoption record (the next
 * start adopts lazily again), after it the sandbox's own record, which
 * wins. A sandboxes/<id> no record claims (left by an older crash) goes
 * first. Caller holds sb's lock. */
static int adopt_copy(hg_manager *m, sandbox *sb) {
  char stage[64], dir[4096], rel[64], rec[4096];
  hg_sb_change ch;
  bool pooled;
  struct stat st;
  int64_t t0 = hg_now_ms();
  int rc = hg_path(stage, sizeof stage, "staging/adopt-%s", sb->id);
  if (rc == 0) rc = hg__sb_rel(sb, rel, sizeof rel);
  /* An orphaning a failure cut short is not stale: the next start moves it. */
  if (rc == 0 && sb_file(m, sb, HG_ORPHAN_RECORD, rec) == 0 && lstat(rec, &st) == 0) {
    hg_log_error("sandbox.adopt", "sandbox=%s err=\"%s holds an unfinished orphan\"", sb->id,
                 rel);
    return -EBUSY;
  }
  if (rc == 0) rc = hg_store_subvol_delete(m->cfg.store, stage);
  if (rc == 0) rc = hg_store_snapshot(m->cfg.store, sb->adopted_from, stage, false);
  if (rc == 0) rc = hg_store_abs(m->cfg.store, stage, dir, sizeof dir);
  if (rc == 0) {
    m->cfg.vmm->clear(dir); /* the source node's shim files name its processes */
    rc = hg_path(dir + strlen(dir), sizeof dir - strlen(dir), "/sandbox.json");
  }
  if (rc == 0) rc = sb_write(m, sb, dir, &ch, &pooled);
  if (rc == 0 && hg_store_is_subvol(m->cfg.store, rel)) {
    hg_log_warn("sandbox.adopt", "sandbox=%s stale=%s", sb->id, rel);
    rc = hg_store_subvol_delete(m->cfg.store, rel);
  }
  if (rc == 0) rc = hg_store_move(m->cfg.store, stage, rel);
  if (rc < 0) {
    hg_store_subvol_delete(m->cfg.store, stage);
    hg_log_warn("sandbox.adopt", "sandbox=%s from=%s step=copy err=\"%s\"", sb->id,
                sb->adopted_from, hg_err_str(rc));
    return rc;
  }
  hg_log_info("sandbox.adopt_copied", "sandbox=%s from=%s ms=%lld", sb->id, sb->adopted_from,
              (long long)(hg_now_ms() - t0));
  sb->adopted_from[0] = '\0';
  hg__sb_adopted_remove(m, sb->id, false); /* the sandbox's own record wins now */
  return 0;
}

/* Takes the sandbox already here as id, if any, for adopt: *old (locked)
 * when it is to be disowned first. */
static int adopt_check(hg_manager *m, const char *id, uint64_t epoch, sandbox **old) {
  sandbox *sb;
  *old = NULL;
  int rc = lifecycle_take(m, id, &sb);
  if (rc == -ENOENT) return 0;
  if (rc < 0) return rc;
  if (sb->epoch >= epoch)
    rc = -EEXIST;
  else if (sb->state != HG_SB_SUSPENDED && sb->state != HG_SB_FAILED)
    rc = -EBUSY;
  if (rc < 0) {
    hg__sb_lifecycle_end(m, sb);
    return rc;
  }
  *old = sb;
  return 0;
}

/* Enters an adopted sb in the table and says so. */
static int adopt_enter(hg_manager *m, sandbox *sb) {
  hg_sb_change ch;
  pthread_mutex_lock(&m->mu);
  int rc = hg__manager_capacity_check(m, 0, true); /* suspended: no memory held yet */
  if (rc == 0) rc = hg__manager_table_add(m, sb);
  if (rc == 0) ch = change_of(sb, NULL);
  pthread_mutex_unlock(&m->mu);
  if (rc == 0) report(m, &ch);
  return rc;
}

/* Lazy: a failover adopts hundreds of sandboxes at once, and a copy into
 * place costs btrfs two commits (the snapshot, the rename), ~100 a second
 * on a busy node at best; what makes the sandbox ours is a small record
 * (adopted.h: group-committed), and the copy waits for the first lifecycle call
 * (lifecycle_begin), most of them never soon. */
int hg_sandbox_adopt(hg_manager *m, const char *id, const char *gen_rel, uint64_t epoch) {
  if (!hg_id_valid("sb", id) || !gen_rel || epoch == 0) return -EINVAL;
  int rc = move_begin(m, id);
  if (rc < 0) return rc;
  sandbox *old, *sb = NULL;
  rc = adopt_check(m, id, epoch, &old);
  if (rc == 0) rc = hg__sb_adopt_read(m, id, gen_rel, epoch, &sb);
  /* The older copy goes first (its own adoption record with it), then
   * ours is written: a crash between leaves neither, and the sandbox
   * waits as replicas for a move (a resume through any node). */
  if (rc == 0 && old) rc = disown_locked(m, old);
  if (old) hg__sb_lifecycle_end(m, old);
  if (rc == 0) rc = hg__adopted_put(m->adopted, sb->id, sb->adopted_from, sb->epoch);
  /* Once in the table sb is the table's: what the log needs, copied first. */
  unsigned long long gen = sb ? sb->gen : 0;
  if (rc == 0 && (rc = adopt_enter(m, sb)) < 0) hg__sb_adopted_remove(m, id, true);
  if (rc < 0) {
    if (sb) hg__sb_free(sb);
    hg_log_warn("sandbox.adopt", "sandbox=%s from=%s epoch=%llu err=\"%s\"", id, gen_rel,
                (unsigned long long)epoch, hg_err_str(rc));
  } else {
    hg_log_info("sandbox.adopted", "sandbox=%s from=%s epoch=%llu gen=%llu", id, gen_rel,
                (unsigned long long)epoch, gen);
  }
  move_end(m, id);
  return rc;
}

/* --- commands ------------------------------------------------------------------ */

/* A checkpoint that hangard did not live to finish left its VM stopped
 * (QMP stop): it continues. Caller holds sb's write lock; the VM is not
 * fenced (a SIGSTOPped QEMU answers no QMP). */
void hg__sb_ckpt_continue(hg_manager *m, sandbox *sb) {
  int rc = m->cfg.vmm->resume(sb->vm);
  hg_log_info("sandbox.checkpoint_continued", "sandbox=%s rc=%d", sb->id, rc);
  if (rc == 0) hg__sb_set_state(m, sb, HG_SB_RUNNING, NULL); /* clears pending */
}

static void agent_attach_late(hg_manager *m, sandbox *sb) {
  pthread_rwlock_wrlock(&sb->lock);
  if (sb->state == HG_SB_RUNNING && sb->vm && !strcmp(sb->pending, "checkpoint"))
    hg__sb_ckpt_continue(m, sb);
  if (sb->state == HG_SB_RUNNING && sb->vm && !sb->agent &&
      agent_attach_within(m, sb, AGENT_SLOW_TIMEOUT_MS) == 0)
    hg_log_info("sandbox.agent_attached", "sandbox=%s late=1", sb->id);
  pthread_rwlock_unlock(&sb->lock);
}

int hg_sandbox_agent_get(hg_manager *m, const char *id, hg_agent **out) {
  sandbox *sb;
  int rc = sb_get(m, id, &sb);
  if (rc < 0) return rc;
  pthread_rwlock_rdlock(&sb->lock);
  if (sb->state == HG_SB_RUNNING && !sb->agent) {
    pthread_rwlock_unlock(&sb->lock);
    agent_attach_late(m, sb);
    pthread_rwlock_rdlock(&sb->lock);
  }
  if (sb->state != HG_SB_RUNNING || !sb->agent) {
    pthread_rwlock_unlock(&sb->lock);
    sb_put(m, sb);
    return -EBUSY;
  }
  pthread_mutex_lock(&m->mu);
  sb->users++;
  pthread_mutex_unlock(&m->mu);
  *out = sb->agent;
  return 0;
}

void hg_sandbox_agent_put(hg_manager *m, const char *id) {
  pthread_mutex_lock(&m->mu);
  sandbox *sb = NULL;
  for (unsigned i = 0; i < m->nsbs && !sb; i++)
    if (strcmp(m->sbs[i]->id, id) == 0) sb = m->sbs[i];
  if (sb) {
    sb->users--;
    sb->last_active_ms = hg_now_ms();
  }
  pthread_mutex_unlock(&m->mu);
  if (!sb) return;
  pthread_rwlock_unlock(&sb->lock);
  sb_put(m, sb);
}

/* Builds "K=V" strings: the sandbox's env, overridden by the request's. */
static char **merged_env(hg_manager *m, const char *id, const char *const *req_env) {
  sandbox *sb;
  if (sb_get(m, id, &sb) < 0) return NULL;
  size_t nreq = 0;
  while (req_env && req_env[nreq]) nreq++;
  pthread_mutex_lock(&m->mu);
  size_t n = json_object_size(sb->env), i = 0;
  char **env = calloc(n + nreq + 1, sizeof *env);
  const char *k;
  json_t *v;
  json_object_foreach(sb->env, k, v) {
    bool overridden = false;
    for (size_t r = 0; r < nreq && !overridden; r++)
      overridden = strncmp(req_env[r], k, strlen(k)) == 0 && req_env[r][strlen(k)] == '=';
    if (env && !overridden && asprintf(&env[i], "%s=%s", k, json_string_value(v)) > 0) i++;
  }
  pthread_mutex_unlock(&m->mu);
  sb_put(m, sb);
  for (size_t r = 0; env && r < nreq; r++) env[i++] = strdup(req_env[r]);
  return env;
}

int hg_sandbox_exec(hg_manager *m, const char *id, const hg_exec_req *req, uint64_t *cid,
                    int *pid) {
  hg_agent *a;
  int rc = hg_sandbox_agent_get(m, id, &a);
  if (rc < 0) return rc;
  char **env = merged_env(m, id, req->env);
  hg_exec_req r = *req;
  r.env = (const char *const *)env;
  rc = env ? hg_agent_exec(a, &r, cid, pid) : -ENOMEM;
  for (size_t i = 0; env && env[i]; i++) free(env[i]);
  free(env);
  hg_sandbox_agent_put(m, id);
  return rc;
}

/* --- templates ------------------------------------------------------------------ */

json_t *hg_manager_template_list(hg_manager *m) { return hg_template_list_store(m->cfg.store); }

bool hg_manager_template_exists(hg_manager *m, const char *ref) {
  hg_template_info info;
  return hg_template_resolve(m->cfg.store, ref, &info) == 0;
}

int hg_manager_template_register(hg_manager *m, const char *name_tag, const char *src_dir,
                                 char digest_out[65], char why[HG_TEMPLATE_WHY_MAX]) {
  hg_template_info info;
  hg_template_build_args args = {.store = m->cfg.store, .vmm = m->cfg.vmm,
                                 .shim_path = m->cfg.shim_path, .accel = m->cfg.accel,
                                 .net = m->cfg.net};
  int rc = hg_template_build(&args, name_tag, src_dir, &info, why);
  if (rc == 0) memcpy(digest_out, info.digest, 65);
  return rc;
}

/* --- open, recovery, idle ------------------------------------------------------- */

int hg_manager_open(const hg_manager_config *cfg, hg_manager **out) {
  hg_manager *m = calloc(1, sizeof *m);
  if (!m) return -ENOMEM;
  m->cfg = *cfg;
  if (!m->cfg.default_vcpus) m->cfg.default_vcpus = 1;
  if (!m->cfg.default_memory_mib) m->cfg.default_memory_mib = 256;
  if (!m->cfg.default_idle_suspend_s) m->cfg.default_idle_suspend_s = 6 * 3600;
  if (!m->cfg.pool_template) m->cfg.pool_template = "default";
  if (!m->cfg.pool_max) m->cfg.pool_max = POOL_MAX_DEFAULT;
  if (m->cfg.pool_max < m->cfg.pool_size) m->cfg.pool_max = m->cfg.pool_size;
  if (!m->cfg.default_replicas) m->cfg.default_replicas = 2;
  if (m->cfg.default_replicas > MAX_REPLICAS) m->cfg.default_replicas = MAX_REPLICAS;
  int rc = hg_keylock_init(&m->moves);
  if (rc < 0) {
    free(m);
    return rc;
  }
  pthread_mutex_init(&m->mu, NULL);
  pthread_mutex_init(&m->orphan_mu, NULL);
  pthread_cond_init(&m->pool_cv, NULL);
  char adopted[4096];
  rc = hg_store_abs(m->cfg.store, "adopted", adopted, sizeof adopted);
  if (rc == 0) rc = hg__adopted_open(adopted, &m->adopted);
  if (rc < 0) {
    hg_manager_close(m);
    return rc;
  }
  hg__manager_load_all(m);
  /* No other thread runs yet: the table is ours to read without the lock. */
  for (unsigned i = 0; i < m->nsbs; i++)
    if (!m->sbs[i]->pooled && !m->sbs[i]->gone) {
      hg_sb_change ch = change_of(m->sbs[i], NULL);
      report(m, &ch);
    }
  if (m->cfg.pool_size) hg__manager_pool_start(m);
  hg_log_info("manager.open", "sandboxes=%u pool=%u", m->nsbs, m->cfg.pool_size);
  *out = m;
  return 0;
}

void hg_manager_close(hg_manager *m) {
  if (!m) return;
  hg__manager_pool_halt(m);
  for (unsigned i = 0; i < m->nsbs; i++) {
    hg__sb_vm_release(m, m->sbs[i], false);
    hg__sb_free(m->sbs[i]);
  }
  free(m->sbs);
  pthread_cond_destroy(&m->pool_cv);
  hg_keylock_destroy(&m->moves);
  pthread_mutex_destroy(&m->orphan_mu);
  pthread_mutex_destroy(&m->mu);
  hg__adopted_close(m->adopted);
  free(m);
}

unsigned hg_manager_idle(hg_manager *m, char (*due)[HG_ID_MAX], unsigned max) {
  unsigned n = 0;
  int64_t now = hg_now_ms();
  pthread_mutex_lock(&m->mu);
  for (unsigned i = 0; i < m->nsbs && n < max; i++) {
    sandbox *sb = m->sbs[i];
    if (sb->gone || sb->pooled || sb->state != HG_SB_RUNNING || sb->idle_suspend_s <= 0 ||
        sb->users)
      continue;
    if (now - sb->last_active_ms > sb->idle_suspend_s * 1000)
      memcpy(due[n++], sb->id, HG_ID_MAX);
  }
  pthread_mutex_unlock(&m->mu);
  return n;
}

unsigned hg_manager_suspended(hg_manager *m, size_t *cursor, char (*ids)[HG_ID_MAX],
                              unsigned max) {
  unsigned n = 0;
  pthread_mutex_lock(&m->mu);
  size_t i = *cursor < m->nsbs ? *cursor : 0;
  for (; i < m->nsbs && n < max; i++) {
    sandbox *sb = m->sbs[i];
    if (!sb->gone && !sb->pooled && sb->state == HG_SB_SUSPENDED) memcpy(ids[n++], sb->id, HG_ID_MAX);
  }
  *cursor = i < m->nsbs ? i : 0;
  pthread_mutex_unlock(&m->mu);
  return n;
}

unsigned hg_manager_checkpoints_due(hg_manager *m, char (*due)[HG_ID_MAX], unsigned max) {
  unsigned n = 0;
  int64_t now = hg_now_ms();
  pthread_mutex_lock(&m->mu);
  for (unsigned i = 0; i < m->nsbs && n < max; i++) {
    sandbox *sb = m->sbs[i];
    if (sb->gone || sb->pooled || sb->state != HG_SB_RUNNING || sb->checkpoint_s <= 0) {
      sb->ckpt_due_ms = 0; /* the first one comes checkpoint_s after it runs again */
      continue;
    }
    if (sb->ckpt_due_ms == 0) sb->ckpt_due_ms = now + sb->checkpoint_s * 1000;
    if (now < sb->ckpt_due_ms) continue;
    sb->ckpt_due_ms = now + sb->checkpoint_s * 1000;
    memcpy(due[n++], sb->id, HG_ID_MAX);
  }
  pthread_mutex_unlock(&m->mu);
  return n;
}
