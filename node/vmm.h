/* vmm: the microVM driver interface. A driver runs one VM per sandbox
 * directory, under hangar-shim (so the VM outlives hangard), and can
 * re-adopt it after a daemon restart. Calls block (QMP round trips, process
 * start-up): run them off the event loop. All return 0 or a negative errno.
 *
 * Files a driver keeps in cfg->dir (the sandbox subvolume or a run dir):
 *   mem        guest RAM (memory-backend-file, share=on): memory *is* this file
 *   vmstate    device state written by save, read by restore
 *   qmp.sock   control socket       agent.sock  agent channel (virtio-serial)
 *   shim.sock  shim control socket  shim.json   status, for adopt
 *   console.log (unless cfg->log_path puts it elsewhere)
 * The qemu driver jails each VMM (node/shim/jail.h): a uid of its own, a
 * mount namespace holding only this dir and the files named in cfg, no
 * privileges, QEMU's seccomp sandbox, cgroup limits. The driver binds the
 * sockets QEMU serves and passes them as fds; HANGAR_VMM_JAIL=off (for
 * tools/bench only) runs it unjailed.
 */
#ifndef HG_NODE_VMM_H
#define HG_NODE_VMM_H

#include <stdbool.h>
#include <stdint.h>

typedef struct hg_vm hg_vm;

typedef struct hg_vm_config {
  const char *dir;        /* where mem, sockets and status live */
  const char *kernel;     /* bzImage */
  const char *initrd;
  const char *cmdline;    /* NULL: the driver's default */
  const char *rootfs;     /* raw ext4 image, the guest's /dev/vda */
  const char *mem_path;   /* NULL: "<dir>/mem" */
  unsigned vcpus;
  unsigned memory_mib;
  /* The NIC: a virtio-net device on tap_fd (the VMM gets its own copy;
   * the caller closes its fd once start/restore returned), or with
   * nic_unplugged and no tap, a NIC whose cable goes nowhere: a machine
   * saved with a NIC must be restored with one, also where networking is
   * off. Neither: no network device. */
  int tap_fd;             /* -1: none */
  bool nic_unplugged;
  const char *mac;        /* the guest's MAC, "02:68:67:00:00:0f"; NULL: the driver's */
  const char *accel;      /* "kvm" or "tcg" (NULL): what the node's probe chose */
  const char *shim_path;  /* hangar-shim binary; NULL: next to /proc/self/exe */
  /* The guest's serial console and the VMM's stderr, written by the shim
   * capped at 2 x 512 KiB (log_path and log_path.1). Keep it out of a
   * replicated subvolume: it is the guest's to fill. NULL: <dir>/console.log */
  const char *log_path;
  /* The fencing deadline the shim starts with (CLOCK_MONOTONIC ms; the
   * lease's end); 0: none. */
  int64_t deadline_ms;
} hg_vm_config;

typedef struct hg_vm_info {
  int shim_pid;
  int vmm_pid;
  bool running;  /* vCPUs running (not paused, not fenced) */
  bool fenced;   /* the shim's deadline passed and it stopped the VM */
} hg_vm_info;

typedef struct hg_vmm_ops {
  const char *name;
  /* Cold boot: kernel + initrd + rootfs, fresh memory. */
  int (*start)(const hg_vm_config *cfg, hg_vm **out);
  /* Start from cfg->mem_path + vmstate (written by save); VM left running. */
  int (*restore)(const hg_vm_config *cfg, const char *vmstate, hg_vm **out);
  int (*pause)(hg_vm *vm);
  int (*resume)(hg_vm *vm);
  /* Stops the vCPUs, writes device state to vmstate and fsyncs it and the
   * memory file. The VM stays stopped; call stop or resume next. */
  int (*save)(hg_vm *vm, const char *vmstate);
  /* Terminates the VMM and its shim, waits for them to exit. */
  int (*stop)(hg_vm *vm);
  /* Re-attaches to a VM whose shim left a status file in dir. -ESRCH when
   * the VM is gone. */
  int (*adopt)(const char *dir, hg_vm **out);
  /* Fencing: the shim stops the vCPUs when CLOCK_MONOTONIC passes deadline
   * (ms); 0 means no deadline. A later deadline un-fences. */
  int (*set_deadline)(hg_vm *vm, int64_t deadline_ms);
  /* The same for the VM running in dir, without its handle: thread-safe
   * beside every other call. -ESRCH: no shim there. */
  int (*set_deadline_at)(const char *dir, int64_t deadline_ms);
  int (*info)(hg_vm *vm, hg_vm_info *out);
  /* Unix socket path of the agent channel. */
  const char *(*agent_path)(const hg_vm *vm);
  /* Frees the handle; the VM itself is not touched. */
  void (*release)(hg_vm *vm);
  /* Removes what a run leaves in dir (sockets, status file, logs), so that a
   * dir published as a template, or copied into a new sandbox, carries no
   * trace of the VM that ran there. No VM may be running in dir. */
  void (*clear)(const char *dir);
} hg_vmm_ops;

extern const hg_vmm_ops hg_vmm_qemu;

/* Networking as the node runtime sees it (DESIGN §11): hangard implements
 * it with the gateway; the manager and the template build only ask for a
 * tap before a VM starts and give it back once the VM is gone for good.
 * A NULL hg_net_ops means no networking (tools, unit tests, --no-network).
 * Both calls block (the gateway answers within a few ms) and are
 * thread-safe. */
typedef struct hg_net_ops {
  void *ud;
  /* The namespace and tap of name (a sandbox id, or a template build's
   * "tpl-…"), made or reopened; *tap_fd is the caller's to close once the
   * VMM holds its copy. */
  int (*attach)(void *ud, const char *name, int *tap_fd);
  /* Deletes what attach made; -ENOENT when there is nothing. */
  int (*detach)(void *ud, const char *name);
  const char *mac; /* the guest MAC the attach side's rules expect */
} hg_net_ops;

#endif
