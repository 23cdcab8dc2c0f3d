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

typedef struct hg_template_info {
  char name[HG_TEMPLATE_NAME_MAX]; /* "default:latest" */
  char digest[65];                 /* sha256 of kernel, initrd, rootfs, cmdline, memory */
  char rel[192];                   /* "templates/default:latest@0123…" */
  char cmdline[512];
  unsigned memory_mib;
  unsigned vcpus;
  bool nic;                        /* booted (and saved) with a NIC: restores need one */
  int64_t created_ms;
} hg_template_info;

/* Normalises "name" or "name:tag" into "name:tag" (tag "latest");
 * -EINVAL for names outside [a-z0-9._-]. */
int hg_template_name(const char *ref, char out[HG_TEMPLATE_NAME_MAX]);
/* Finds the newest template registered under ref. */
int hg_template_resolve(hg_store *st, const char *ref, hg_template_info *out);
json_t *hg_template_list_store(hg_store *st);

typedef void (*hg_template_progress)(void *ud, const char *text);
/* Copies kernel/initrd/rootfs from src_dir (made by tools/mkimage), boots
 * them once, waits for the agent, saves memory + device state, and
 * publishes the result read-only. Idempotent for identical inputs. With
 * net, the boot has a NIC (on a temporary namespace "tpl-<digest16>"), as
 * every sandbox restored from it will: the saved device set must match
 * the restoring one. NULL: no NIC. template.json records which. */
int hg_template_build(hg_store *st, const hg_vmm_ops *vmm, const char *shim_path,
                      const hg_net_ops *net, const char *name_tag, const char *src_dir,
                      hg_template_progress progress, void *ud, hg_template_info *out);

#endif
