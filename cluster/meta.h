/* meta: what a node tells the cluster about itself (carried in its alive
 * messages, at most HG_WIRE_META_MAX bytes of msgpack), and the sandbox
 * directory entry (carried as user broadcasts and in push-pull).
 * Both decoders take bytes from the network: every field is checked. */
#ifndef HG_CLUSTER_META_H
#define HG_CLUSTER_META_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "cluster/wire.h"
#include "node/core/util.h"

#define HG_META_TEMPLATES 8
#define HG_META_LABELS 8
#define HG_META_NAME_MAX 96   /* template name:tag, label k=v, with the NUL */
#define HG_DIR_HOLDERS 8

typedef struct hg_node_meta {
  char id[HG_NODE_ID_MAX];
  char api_addr[HG_ADDR_MAX];   /* host:port other nodes and clients reach */
  char gossip_addr[HG_ADDR_MAX];
  char repl_addr[HG_ADDR_MAX];  /* "" until replication exists */
  char zone[32];
  bool draining;
  char vmm_kind[16];                 /* "qemu" */
  char vmm_version[32];
  char cpu_class[64];                /* "tcg", or the host CPU model under KVM */
  uint32_t vcpus_total, vcpus_used;
  uint64_t memory_total_mib, memory_used_mib;
  uint64_t disk_free_mib;
  uint32_t max_sandboxes;            /* 0: no limit */
  uint32_t sandboxes_running, sandboxes_paused, sandboxes_suspended, sandboxes_total;
  char templates[HG_META_TEMPLATES][HG_META_NAME_MAX];  /* "name:tag" held */
  unsigned ntemplates;
  char labels[HG_META_LABELS][HG_META_NAME_MAX];        /* "k=v" */
  unsigned nlabels;
  int64_t updated_ms;                /* sender's wall clock */
} hg_node_meta;

/* -ENOBUFS past cap or past HG_WIRE_META_MAX (realistic values take a few
 * hundred bytes; eight long templates and labels can overflow it), -EINVAL
 * for an empty id, a string without its NUL or a count past its maximum. */
int hg_node_meta_encode(const hg_node_meta *m, uint8_t *out, size_t cap, size_t *len);
/* -EPROTO for anything malformed; out is written only on success. */
int hg_node_meta_decode(const void *data, size_t len, hg_node_meta *out);

/* One sandbox in the directory. Last writer wins on (epoch, version). */
typedef struct hg_dirent {
  char sandbox[HG_ID_MAX];
  char owner[HG_NODE_ID_MAX];
  uint64_t epoch;
  uint64_t version;
  char state[16];                    /* hg_sb_state_name(), or "deleted" */
  char template_ref[HG_META_NAME_MAX];
  uint64_t gen;                      /* latest generation, 0 if none */
  char holders[HG_DIR_HOLDERS][HG_NODE_ID_MAX];
  unsigned nholders;
  int64_t updated_ms;
} hg_dirent;

/* Any valid entry fits HG_WIRE_USER_MAX; -ENOBUFS past cap, -EINVAL for an
 * empty sandbox, a string without its NUL or nholders past its maximum. */
int hg_dirent_encode(const hg_dirent *e, uint8_t *out, size_t cap, size_t *len);
/* -EPROTO for anything malformed; out is written only on success. */
int hg_dirent_decode(const void *data, size_t len, hg_dirent *out);
/* > 0 when a is newer than b (epoch, then version), 0 equal, < 0 older. */
int hg_dirent_cmp(const hg_dirent *a, const hg_dirent *b);

#endif
