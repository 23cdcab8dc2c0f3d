/* store: a node's data dir on btrfs (DESIGN §3). When the data dir is not on
 * btrfs, the store makes a sparse image file beside it ("<dir>.img"),
 * mkfs.btrfs's it and loop-mounts it on the dir. Subvolume work goes
 * through libbtrfsutil. Paths given to the store are relative to the data
 * dir ("sandboxes/sb-…"); hg_store_abs() turns them into absolute ones.
 *
 *   templates/<name>@<digest>/  sandboxes/<id>/  snapshots/<id>/<gen>/
 *   replicas/<id>/<gen>/        orphans/<id>/<epoch>/  staging/  state/
 *
 * Calls block (ioctls, fsync): run them off the event loop. */
#ifndef HG_NODE_STORE_H
#define HG_NODE_STORE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef struct hg_store hg_store;

typedef struct hg_store_options {
  uint64_t image_size; /* bytes of the sparse image when one is made; 0: 64 GiB */
} hg_store_options;

/* Opens (and if needed creates, formats and mounts) the data dir, makes the
 * layout, and deletes whatever is left in staging/. */
int hg_store_open(const char *data_dir, const hg_store_options *opt, hg_store **out);
/* Frees the handle; unmounts (and detaches the loop device) when unmount. */
void hg_store_close(hg_store *s, bool unmount);
/* Unmounts a data dir's loop image and deletes the image file. */
int hg_store_destroy(const char *data_dir);

const char *hg_store_root(const hg_store *s);
int hg_store_abs(const hg_store *s, const char *rel, char *out, size_t cap);

int hg_store_subvol_create(hg_store *s, const char *rel);
/* Snapshot src to dst (dst's parent must exist; made if missing). */
int hg_store_snapshot(hg_store *s, const char *src, const char *dst, bool readonly);
/* Deletes a subvolume and any subvolumes below it; 0 if it does not exist. */
int hg_store_subvol_delete(hg_store *s, const char *rel);
int hg_store_set_readonly(hg_store *s, const char *rel, bool ro);
/* Makes a writable subvolume read-only with its own uuid as its
 * received_uuid, so that `btrfs receive` on this node finds it as a parent
 * and as a clone source of an increment made from a copy of it elsewhere
 * (generations and templates; DESIGN §10). */
int hg_store_freeze(hg_store *s, const char *rel);
bool hg_store_is_subvol(hg_store *s, const char *rel);
/* Moves a subvolume (rename within the filesystem), fsyncs both parents. */
int hg_store_move(hg_store *s, const char *src, const char *dst);
/* Makes rel durable: syncfs of the filesystem through it, then fsync of
 * every dir from its parent up to the store's root. */
int hg_store_sync(hg_store *s, const char *rel);

typedef struct hg_subvol_info {
  uint64_t id;
  uint64_t generation;     /* btrfs transid */
  bool readonly;
  char uuid[37];
  char received_uuid[37];  /* "" when not received */
  int64_t otime;           /* creation, unix seconds */
} hg_subvol_info;

int hg_store_subvol_info(hg_store *s, const char *rel, hg_subvol_info *out);

/* Free bytes on the filesystem. */
int hg_store_free_bytes(hg_store *s, uint64_t *out);

#endif
