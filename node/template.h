/* template: read-only template subvolumes, templates/<name:tag>@<digest16>/,
 * each holding vmlinuz, initrd.img, rootfs.img, and a booted memory image
 * (mem + vmstate) so every sandbox create is a restore, never a cold boot. */
#ifndef HG_NODE_TEMPLATE_H
#define HG_NODE_TEMPLATE_H

#include <jansson.h>
#include <stdbool.h>

#include "node/store.h"
#include "node/vmm.h"

#define HG_TEMPLATE_NAME_MAX 96
#define HG_TEMPLATE_WHY_MAX 1024 /* a failed build's reason, console lines included */

typedef struct hg_template_info {
  char name[HG_TEMPLATE_NAME_MAX]; /* "default:latest" */
  char digest[65];                 /* sha256 of kernel, initrd, rootfs, cmdline, memory */
  char rel[192];                   /* "templates/default:latest@0123…" */
  char cmdline[512];
  unsigned memory_mib;
  unsigned vcpus;
  bool nic;                        /* booted (and saved) with a NIC: restores need one */
  char accel[8];                   /* booted (and saved) under "kvm" or "tcg" */
  char profile[32];                /* mkimage's profile ("minimal", "debian"); "" unknown */
  int64_t created_ms;
} hg_template_info;

/* Where a template was last imported from, recorded per name beside the
 * templates (templates/.source-<name:tag>.json): the mkimage output dir, a
 * cheap fingerprint of its artifacts (size, mtime, inode of each, and the
 * content of its template.json), the sha256 of that template.json (the
 * "manifest", which a script can compute too) and the digest the import
 * made or found. The template that record names is the name's default. */
typedef struct hg_template_source {
  char dir[1024];
  char fingerprint[65];
  char manifest[65]; /* "" when the dir has no template.json */
  char digest[65];
} hg_template_source;

/* Normalises "name" or "name:tag" into "name:tag" (tag "latest");
 * -EINVAL for names outside [a-z0-9._-]. */
int hg_template_name(const char *ref, char out[HG_TEMPLATE_NAME_MAX]);
/* Finds the newest template registered under ref. */
int hg_template_resolve(hg_store *st, const char *ref, hg_template_info *out);
/* Every template; the one name resolves to has "default": true and the
 * source_dir and source_manifest of its record. */
json_t *hg_template_list_store(hg_store *st);

/* The record of name (normalised by the caller); -ENOENT without one. */
int hg_template_source_read(hg_store *st, const char *name, hg_template_source *out);
/* Fills dir, fingerprint and manifest of src_dir as it is now (digest
 * empty); -errno when an artifact is missing. */
int hg_template_source_scan(const char *src_dir, hg_template_source *out);
/* Records src (digest set) as where name's default template came from. */
int hg_template_source_write(hg_store *st, const char *name,
                             const hg_template_source *src);
/* Whether src_dir must be imported under name_tag: 0 when the record
 * says the default template came from exactly these artifacts, 1 when not
 * (*why: "missing", "no_record", "source_changed", "dir_changed",
 * "template_gone"), or a negative errno when src_dir cannot be read. Cheap:
 * stats and one small file, no hashing of images. */
int hg_template_source_check(hg_store *st, const char *name_tag, const char *src_dir,
                             const char **why);

typedef void (*hg_template_progress)(void *ud, const char *text);

/* How a template build runs its one boot. */
typedef struct hg_template_build_args {
  hg_store *store;
  const hg_vmm_ops *vmm;
  const char *shim_path;          /* NULL: next to the running binary */
  const char *accel;              /* "kvm" or "tcg" (NULL): the node's (node/accel.h) */
  const hg_net_ops *net;          /* NULL: no NIC */
  hg_template_progress progress;  /* NULL: none */
  void *ud;
} hg_template_build_args;

/* Copies kernel/initrd/rootfs from src_dir (made by tools/mkimage), boots
 * them once, waits for the agent, saves memory + device state, and
 * publishes the result read-only. Idempotent for identical inputs. Either
 * way the result becomes name_tag's default and the source record says
 * it came from src_dir. With net, the boot has a NIC (on a temporary namespace "tpl-<digest16>"), as
 * every sandbox restored from it will: the saved device set must match
 * the restoring one. template.json records the NIC and the accelerator,
 * and a KVM build is another template (digest) than a TCG one. On
 * failure, why (may be NULL) says what went wrong for an operator: for a
 * boot that failed, the console's last lines. */
int hg_template_build(const hg_template_build_args *a, const char *name_tag,
                      const char *src_dir, hg_template_info *out,
                      char why[HG_TEMPLATE_WHY_MAX]);

#endif
