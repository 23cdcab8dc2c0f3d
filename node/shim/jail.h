/* jail: what hangar-shim does to a VMM before it execs it, in the manner
 * of Firecracker's jailer. An escape from QEMU, or a hostile vmstate, then
 * holds no more than its own sandbox:
 *   - a uid (and gid) of its own, from HG_JAIL_UID_BASE on, held by a lock
 *     file for as long as the shim lives (so two live VMMs never share one,
 *     and one cannot ptrace or signal another);
 *   - its own mount namespace whose root is a read-only tmpfs holding only
 *     the sandbox dir, the paths it was given (kernel, initrd, ...), QEMU's
 *     binary, libraries and firmware (read-only), /dev/{null,zero,random,
 *     urandom}, and a /proc that shows only its own processes (QEMU opens
 *     the restore's kernel stub as /proc/self/fd/N); each at the path it
 *     has outside, so the VMM's command line does not change;
 *   - no capabilities, PR_SET_NO_NEW_PRIVS;
 *   - cgroup limits (memory, pids, cpu weight) in a cgroup of its own under
 *     the shim's: cgroup v2 where the controller is enabled there, else the
 *     controller's v1 hierarchy, else none (logged).
 * The files the VMM opens read-write become its uid's; a file it reads that
 * others may not read does too. The sandbox dir becomes 0711: the VMM can
 * reach its files but not list, create or remove any (its sockets are made
 * by the driver and passed as fds). */
#ifndef HG_SHIM_JAIL_H
#define HG_SHIM_JAIL_H

#include <limits.h>
#include <stdbool.h>
#include <sys/types.h>

#define HG_JAIL_UID_BASE 2000000000u
#define HG_JAIL_UID_SLOTS 65536u
#define HG_JAIL_MAX_PATHS 16
#define HG_JAIL_MAX_CGROUPS 4
/* Where each jail's tmpfs root is mounted, inside its own namespace only;
 * outside it this is an empty dir. Lock files of the uids in use: uids/. */
#define HG_JAIL_RUN_DIR "/run/hangar-vmm"
/* The VMM's own memory beside guest RAM (TCG's translation cache, device
 * buffers): the cgroup's memory limit is guest RAM + this. */
#define HG_JAIL_MEM_OVERHEAD_MIB 512
#define HG_JAIL_PIDS_MAX 256

typedef struct hg_jail {
  bool on;
  const char *dir; /* the sandbox dir, absolute and resolved */
  const char *rw[HG_JAIL_MAX_PATHS];
  const char *ro[HG_JAIL_MAX_PATHS];
  int n_rw, n_ro;
  unsigned memory_mib, vcpus;
  /* set by hg_jail_prepare */
  char exe[PATH_MAX]; /* the VMM binary, resolved: what the jail execs */
  bool wrapper;       /* exe is a script: the host's bin dirs are bound too */
  uid_t uid;
  int lock_fd;
  gid_t groups[HG_JAIL_MAX_PATHS]; /* a device's group (/dev/kvm's) */
  int n_groups;
  char cgroups[HG_JAIL_MAX_CGROUPS][PATH_MAX]; /* dirs made, to join and remove */
  int n_cgroups;
} hg_jail;

/* In the shim, before the fork: takes a uid, hands it the files, makes the
 * cgroups. vmm: the VMM's argv[0]. 0 or a negative errno (logged). */
int hg_jail_prepare(hg_jail *j, const char *vmm);
/* In the forked child, as root: joins the cgroups, builds the namespace
 * and pivots into it, drops to the jail's uid, sets no_new_privs. Logs
 * and returns a negative errno on failure (the child must then _exit). */
int hg_jail_enter(const hg_jail *j);
/* In the shim once the VMM is gone: removes the cgroups, frees the uid. */
void hg_jail_release(hg_jail *j);

#endif
