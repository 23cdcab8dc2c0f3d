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
  int64_t created_ms;
} hg_template_info;

/* Normalises "name" or "name:tag" into "name:tag" (tag "latest");
 * -EINVAL for names outside [a-z0-9._-]. */
int hg_template_name(const char *ref, char out[HG_TEMPLATE_NAME_MAX]);
/* Finds the newest template registered under ref. */
int hg_template_resolve(hg_store *st, const char *ref, hg_template_info *out);
json_t *hg_template_list_store(hg_store *st);

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
 * publishes the result read-only. Idempotent for identical inputs. With
 * net, the boot has a NIC (on a temporary namespace "tpl-<digest16>"), as
 * every sandbox restored from it will: the saved device set must match
 * the restoring one. template.json records the NIC and the accelerator,
 * and a KVM build is another template (digest) than a TCG one. On
 * failure, why (may be NULL) says what went wrong for an operator: for a
 * boot that failed, the console's last lines. */
int hg_template_build(const hg_template_build_args *a, const char *name_tag,
                      const char *src_dir, hg_template_info *out,
                      char why[HG_TEMPLATE_WHY_MAX]);

#endif
