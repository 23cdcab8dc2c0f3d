/* orphan: the fenced copies of sandboxes a node keeps for its operator
 * (DESIGN §3, §9 "Fencing tokens"). When another node holds a sandbox at
 * a higher epoch, the sandbox manager (hg_sandbox_orphan) stops its VM
 * and this module puts its subvolume at
 *
 *   orphans/<id>/<epoch>/          read-only, its files as they were, with
 *   orphans/<id>/<epoch>.<n>/      orphan.json inside; .<n> when the epoch
 *                                  was taken already
 *
 * and lists and deletes them. Nothing here deletes an orphan by itself.
 * Names are hg_orphan_name_valid's (node/core/ident.h). Calls block
 * (renames, fsync, ioctls); the caller keeps two of them from running on
 * one sandbox's orphans at once (the manager holds a lock). */
#ifndef HG_NODE_ORPHAN_H
#define HG_NODE_ORPHAN_H

#include <jansson.h>
#include <stdint.h>

#include "node/core/ident.h"
#include "node/store.h"

#define HG_ORPHAN_RECORD "orphan.json"
#define HG_ORPHAN_RECORD_MAX (64 * 1024) /* bytes of orphan.json read back */

/* Moves the subvolume src (store-relative, holding its orphan.json) to
 * orphans/<id>/<epoch>, or <epoch>.<n> when that exists, fsyncs the dirs
 * the rename touched and makes it read-only; name gets "<id>/<epoch>[.<n>]".
 * -EEXIST when every .<n> is taken. */
int hg_orphan_place(hg_store *s, const char *src, const char *id, uint64_t epoch,
                    char name[HG_ORPHAN_NAME_MAX]);
/* [{name, id, epoch, reason, orphaned_at, state, template, gen, own_epoch}]
 * from the orphan.json files (no btrfs calls), by name; an orphan whose
 * record is missing or unreadable is listed with "record": "unreadable".
 * New reference. */
json_t *hg_orphan_list(hg_store *s);
unsigned hg_orphan_count(hg_store *s);
/* Deletes orphans/<name> and the subvolumes in it (generations taken
 * before the fence), and orphans/<id>/ once empty. -EINVAL not a valid
 * name, -ENOENT no such orphan. */
int hg_orphan_delete(hg_store *s, const char *name);

#endif
