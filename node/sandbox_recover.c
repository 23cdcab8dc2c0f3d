/* sandbox_recover: what the manager does with the sandboxes it finds on
 * disk when it opens (hg__manager_load_all, from hg_manager_open): each
 * sandboxes/<id>/sandbox.json is read, an orphaning a crash cut short is
 * finished, and a transition a crash cut short is brought to a clear
 * state: a generation's freeze is finished, an adopted VM goes on, a lost
 * one falls back to the newest whole generation, a half-made sandbox
 * fails, a half-deleted one goes. Then each adoption record (adopted.h), a sandbox
 * adopted lazily and not yet copied into place, enters the table again.
 *
 * Locking is sandbox.c's; at open no other thread runs yet. */
#include <dirent.h>
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "node/core/err.h"
#include "node/core/log.h"
#include "node/orphan.h"
#include "node/sandbox_internal.h"

/* take_generation snapshots the sandbox after its VM's state was saved
 * and sandbox.json written, then freezes the snapshot (its identity, then
 * read-only). A writable snapshots/<id>/<gen> at open is a whole
 * generation whose freeze a crash cut short (chaos seed 38), or one that
 * a disown's move had made writable for its rename (store.c
 * rename_readonly); either way its freeze is finished here, before
 * recovery looks for generations. One that will not freeze stays
 * writable, and is no generation to hg__sb_gen_find or to replication. */
static void finish_freezes(hg_manager *m, const sandbox *sb) {
  char dir_rel[96], dir[4096], rel[128];
  if (hg_path(dir_rel, sizeof dir_rel, "snapshots/%s", sb->id) < 0 ||
      hg_store_abs(m->cfg.store, dir_rel, dir, sizeof dir) < 0)
    return;
  DIR *d = opendir(dir);
  if (!d) return;
  struct dirent *e;
  while ((e = readdir(d))) {
    uint64_t gen;
    if (!hg__sb_gen_name(e->d_name, &gen) ||
        hg_path(rel, sizeof rel, "%s/%s", dir_rel, e->d_name) < 0 ||
        !hg_store_is_subvol(m->cfg.store, rel) || hg__sb_gen_whole(m, rel))
      continue;
    int rc = hg_store_freeze(m->cfg.store, rel);
    if (rc == 0)
      hg_log_warn("sandbox.gen_frozen", "sandbox=%s gen=%llu why=\"freeze cut short by a crash\"",
                  sb->id, (unsigned long long)gen);
    else
      hg_log_error("sandbox.gen_frozen", "sandbox=%s gen=%llu err=\"%s\" msg=\"left writable: "
                   "not a generation\"", sb->id, (unsigned long long)gen, hg_err_str(rc));
  }
  closedir(d);
}

static bool has_generation(hg_manager *m, sandbox *sb, uint64_t gen) {
  char rel[96];
  return hg__sb_gen_find(m, sb->id, gen, rel) == 0;
}

/* Makes the working subvolume a writable copy of generation gen again:
 * after a crash in the middle of a save, the working copy's memory and
 * device state may not belong together, the generation's always do. The
 * shim's files in the generation are those of the VM that ran when it was
 * taken (on another node, for a checkpoint a failover brought): they go,
 * as on every other copy into place, or the next shim would append to
 * that VM's log. */
static int rollback_to(hg_manager *m, sandbox *sb, uint64_t gen) {
  char src[96], dst[64];
  int rc = hg__sb_gen_find(m, sb->id, gen, src);
  if (rc < 0) return rc;
  hg__sb_rel(sb, dst, sizeof dst);
  rc = hg_store_subvol_delete(m->cfg.store, dst);
  if (rc == 0) rc = hg_store_snapshot(m->cfg.store, src, dst, false);
  if (rc == 0) hg__sb_remove_run_files(m, sb);
  if (rc == 0) {
    pthread_mutex_lock(&m->mu);
    sb->gen = gen;
    pthread_mutex_unlock(&m->mu);
  }
  return rc;
}

/* What the VM wrote after generation g is in no generation: before the
 * working copy goes back to g, its files as they were when the VM died
 * go to orphans/<id>/<epoch> for an operator (a copy that ran is never
 * deleted by itself, DESIGN §9). Writes after a generation were never
 * promised to last, so a copy that cannot be kept (disk full) does not
 * stop the sandbox from going back: it is logged. The copy is made in
 * staging/ (emptied at open), so a crash midway leaves nothing behind. */
static void keep_crashed_copy(hg_manager *m, sandbox *sb, hg_sb_state was, uint64_t g,
                              const char *why) {
  char src[64], tmp[96], reason[320], name[HG_ORPHAN_NAME_MAX] = "";
  uint64_t epoch = sb->epoch ? sb->epoch : 1;
  snprintf(reason, sizeof reason, "%s; the sandbox went back to generation %llu, these are "
           "its files as they were then", why, (unsigned long long)g);
  int rc = hg__sb_rel(sb, src, sizeof src);
  if (rc == 0) rc = hg_path(tmp, sizeof tmp, "staging/crashed-%s", sb->id);
  if (rc == 0) rc = hg_store_snapshot(m->cfg.store, src, tmp, false);
  if (rc == 0) rc = hg__sb_orphan_record_in(m, sb, tmp, epoch, reason, was);
  if (rc == 0) {
    pthread_mutex_lock(&m->orphan_mu);
    rc = hg_orphan_place(m->cfg.store, tmp, sb->id, epoch, name);
    pthread_mutex_unlock(&m->orphan_mu);
  }
  if (rc < 0) {
    hg_log_error("sandbox.crashed_copy", "sandbox=%s err=\"%s\" msg=\"not kept: what it "
                 "wrote after generation %llu is lost\"", sb->id, hg_err_str(rc),
                 (unsigned long long)g);
    hg_store_subvol_delete(m->cfg.store, tmp);
    return;
  }
  hg_log_warn("sandbox.orphaned", "sandbox=%s own_epoch=%llu state=%s orphan=%s "
              "reason=\"%.200s\"", sb->id, (unsigned long long)sb->epoch,
              hg_sb_state_name(was), name, reason);
}

/* The VM is gone: the newest whole generation is what is left. */
static void fall_back(hg_manager *m, sandbox *sb, const char *why) {
  hg_sb_state was = sb->state;
  hg__sb_vm_release(m, sb, true);
  uint64_t g = sb->gen;
  while (g > 0 && !has_generation(m, sb, g)) g--;
  if (g > 0) keep_crashed_copy(m, sb, was, g, why);
  if (g > 0 && rollback_to(m, sb, g) == 0) {
    hg_log_warn("sandbox.rollback", "sandbox=%s gen=%llu why=\"%s\"", sb->id,
                (unsigned long long)g, why);
    hg__sb_set_state(m, sb, HG_SB_SUSPENDED, NULL);
  } else {
    hg__sb_set_failed(m, sb, -ESRCH, why);
  }
}

/* A suspend cut short by a crash. "saved": the generation is whole, finish.
 * "saving" with the VM alive: the suspend never happened, go on running.
 * "saving" with the VM gone: back to the newest whole generation. */
static void recover_suspend(hg_manager *m, sandbox *sb) {
  if (strcmp(sb->pending, "saved") == 0) {
    hg__sb_vm_release(m, sb, true);
    hg__sb_set_state(m, sb, HG_SB_SUSPENDED, NULL);
    return;
  }
  if (sb->vm && m->cfg.vmm->resume(sb->vm) == 0 && hg__sb_agent_attach(m, sb) == 0) {
    hg__sb_set_state(m, sb, HG_SB_RUNNING, NULL);
    return;
  }
  fall_back(m, sb, "suspend interrupted and the VM is gone");
}

/* Its lease ran out while hangard was away (or runs out as we attach: the
 * deadline may pass between the adopt and the agent's answer): the shim
 * stopped it and it answers nothing until the lease is granted again (the
 * leases are taken up once the manager is open). Kept; the agent attaches
 * on first use. */
static bool kept_fenced(hg_manager *m, sandbox *sb) {
  hg_vm_info info;
  if (!sb->vm || m->cfg.vmm->info(sb->vm, &info) < 0 || !info.fenced) return false;
  hg_log_info("sandbox.fenced", "sandbox=%s why=\"lease ran out while hangard was "
              "down; continues once it is granted again\"", sb->id);
  return true;
}

/* Brings a sandbox found on disk back to a clear state after a restart. */
static void recover(hg_manager *m, sandbox *sb) {
  char dir[4096];
  hg__sb_dir(m, sb, dir);
  if (sb->pooled) {
    /* Unclaimed warm sandboxes are cheap to make again. */
    sb->vm = NULL;
    if (m->cfg.vmm->adopt(dir, &sb->vm) < 0) sb->vm = NULL;
    hg__sb_delete_locked(m, sb);
    return;
  }
  /* Idleness counts from the restart: the last run's monotonic clock is
   * gone, and a VM adopted fenced attaches its agent (which set it) only
   * at its first use; with 0 the first idle pass took the sandbox for
   * idle since the host booted and suspended it. */
  sb->last_active_ms = hg_now_ms();
  hg_sb_state st = sb->state;
  bool live = st == HG_SB_RUNNING || st == HG_SB_PAUSED || st == HG_SB_RESUMING ||
              st == HG_SB_SUSPENDING || st == HG_SB_CREATING;
  if (live && m->cfg.vmm->adopt(dir, &sb->vm) < 0) sb->vm = NULL;
  switch (st) {
  case HG_SB_RUNNING:
  case HG_SB_RESUMING:
    if (st == HG_SB_RUNNING && kept_fenced(m, sb)) break;
    if (sb->vm && !strcmp(sb->pending, "checkpoint")) hg__sb_ckpt_continue(m, sb);
    if (sb->vm && hg__sb_agent_attach(m, sb) == 0) {
      if (st == HG_SB_RESUMING) hg__sb_tell_restored(m, sb, true);
      hg__sb_set_state(m, sb, HG_SB_RUNNING, NULL);
    } else if (!(st == HG_SB_RUNNING && kept_fenced(m, sb))) {
      fall_back(m, sb, "VM lost while hangard was down");
    }
    break;
  case HG_SB_PAUSED:
    if (!sb->vm) fall_back(m, sb, "VM lost while hangard was down");
    break;
  case HG_SB_SUSPENDING:
    recover_suspend(m, sb);
    break;
  case HG_SB_CREATING:
    hg__sb_vm_release(m, sb, true);
    hg__sb_set_failed(m, sb, -EINTR, "create interrupted by daemon restart");
    break;
  case HG_SB_DELETING:
    hg__sb_delete_locked(m, sb);
    break;
  default:
    break;
  }
  hg_log_info("sandbox.recovered", "sandbox=%s state=%s vm=%s", sb->id,
              hg_sb_state_name(sb->state), sb->vm ? "adopted" : "none");
}

static sandbox *load_one(hg_manager *m, const char *name) {
  char path[4096], *text;
  if (hg_store_abs(m->cfg.store, "sandboxes", path, sizeof path - 100) < 0) return NULL;
  size_t len = strlen(path);
  snprintf(path + len, sizeof path - len, "/%s/sandbox.json", name);
  if (hg_read_file(path, SANDBOX_JSON_MAX, &text, NULL) < 0) return NULL;
  json_t *j = json_loads(text, 0, NULL);
  free(text);
  sandbox *sb = hg__sb_new();
  if (sb && (!j || hg__sb_from_json(sb, j, m->cfg.default_replicas) < 0 ||
             strcmp(sb->id, name) != 0)) {
    hg_log_warn("sandbox.load", "dir=%s err=\"unreadable sandbox.json\"", name);
    hg__sb_free(sb);
    sb = NULL;
  }
  json_decref(j);
  return sb;
}

/* An adoption record (adopted.h). The sandbox's own record wins when it
 * is as new (its copy into place finished, the adoption record's removal
 * did not); one older than the adoption cannot be (the adopt disowns it
 * before it writes), and is left with both, said. A generation that no
 * longer reads is said too: the record goes. */
static void load_adopted(void *ud, const char *id, const char *from, uint64_t epoch) {
  hg_manager *m = ud;
  sandbox *have = hg__manager_find_locked(m, id), *sb = NULL;
  int rc = from && epoch > 0 ? 0 : -EPROTO;
  if (rc == 0 && have && have->epoch >= epoch) {
    hg__sb_adopted_remove(m, id, false);
  } else if (rc == 0 && have) {
    hg_log_error("sandbox.adopt", "sandbox=%s epoch=%llu own_epoch=%llu err=\"an adoption "
                 "record above the sandbox here: both left for the operator\"", id,
                 (unsigned long long)epoch, (unsigned long long)have->epoch);
  } else if (rc == 0 && (rc = hg__sb_adopt_read(m, id, from, epoch, &sb)) == 0 &&
             (rc = hg__manager_table_add(m, sb)) < 0) {
    hg__sb_free(sb);
  }
  if (rc < 0) {
    hg_log_error("sandbox.adopt", "sandbox=%s from=%s err=\"%s\" msg=\"adopted here, but its "
                 "generation does not read: the record goes\"", id, from ? from : "?",
                 hg_err_str(rc));
    hg__sb_adopted_remove(m, id, true);
  } else if (sb) {
    sb->last_active_ms = hg_now_ms();
    hg_log_info("sandbox.recovered", "sandbox=%s state=suspended adopted_from=%s", id, from);
  }
}

void hg__manager_load_all(hg_manager *m) {
  char dir[4096];
  if (hg_store_abs(m->cfg.store, "sandboxes", dir, sizeof dir) < 0) return;
  DIR *d = opendir(dir);
  if (!d) return;
  struct dirent *e;
  while ((e = readdir(d))) {
    if (!hg_id_valid("sb", e->d_name)) continue;
    sandbox *sb = load_one(m, e->d_name);
    if (!sb) continue;
    if (hg__sb_orphan_recover(m, sb)) {
      hg__sb_free(sb);
      continue;
    }
    finish_freezes(m, sb);
    if (hg__manager_table_add(m, sb) < 0) {
      hg__sb_free(sb);
      continue;
    }
    recover(m, sb);
    if (sb->gone) {
      hg__manager_table_remove(m, sb);
      hg__sb_free(sb);
    }
  }
  closedir(d);
  hg__adopted_each(m->adopted, load_adopted, m);
}
