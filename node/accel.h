/* accel: which accelerator this node's VMs run under, chosen once at start.
 *
 * A /dev/kvm that opens proves nothing. Some hosts of this fleet have one
 * that is a nested PVM hypervisor: it answers ioctls and cannot boot a
 * stock kernel (the guest spins with an empty console). So KVM counts only
 * after a real kernel boots under it within a deadline; otherwise the node
 * runs TCG and says why, in its log, GET /v1/node and `hangar status`.
 *
 * The probe is QEMU's: it runs the VMM binary of the qemu driver. */
#ifndef HG_NODE_ACCEL_H
#define HG_NODE_ACCEL_H

#define HG_ACCEL_REASON_MAX 512
/* A KVM boot to the kernel's end of init takes well under a second; TCG
 * needs a few. Past this, a hypervisor that boots nothing is given up on. */
#define HG_ACCEL_PROBE_MS 8000

typedef enum hg_accel_mode { HG_ACCEL_AUTO, HG_ACCEL_KVM, HG_ACCEL_TCG } hg_accel_mode;

typedef struct hg_accel {
  char name[8];                     /* "kvm" or "tcg" */
  char reason[HG_ACCEL_REASON_MAX]; /* why this one, one line */
} hg_accel;

/* "auto", "kvm" or "tcg"; -EINVAL otherwise. */
int hg_accel_mode_parse(const char *s, hg_accel_mode *out);

/* Chooses: tcg when asked; kvm only when `kernel` (a bzImage; NULL when
 * none is at hand) boots under it within timeout_ms. Always fills out.
 * Returns 0, or -ENODEV when mode is HG_ACCEL_KVM and KVM failed (the
 * reason says why). Blocks for the probe: call it before serving. */
int hg_accel_choose(hg_accel_mode mode, const char *kernel, int timeout_ms, hg_accel *out);

/* The QEMU binary: $HANGAR_QEMU, else qemu-system-x86_64 on PATH. */
const char *hg_qemu_bin(void);

#endif
