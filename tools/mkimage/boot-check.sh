#!/usr/bin/env bash
# boot-check.sh - cold-boot a template built by mkimage.sh under QEMU (the
# flags of shared/reference/qemu-recipe.md, no -incoming) and wait until the
# console shows the agent's ready line.
#
#   boot-check.sh DIR [--timeout SEC] [--keep] [--vmlinux]
#   (also reachable as: mkimage.sh --check DIR ...)
#
# DIR holds vmlinuz, initrd.img, rootfs.img, template.json. The rootfs is
# booted from a sparse copy, so the template itself is never modified.
# Prints wall-clock times (from QEMU start) and guest uptimes for: /init
# started, switch_root, agent ready. Exit 0 when the ready line was seen.
# --vmlinux boots DIR/vmlinux (mkimage.sh --vmlinux) instead of DIR/vmlinuz;
# --keep keeps the scratch dir (console.log, rootfs copy) and prints its path.
#
# Host packages installed with `apt-get install -y --no-install-recommends`
# when missing:
#   qemu-system-x86   qemu-system-x86_64
set -euo pipefail

READY_LINE="hangar-agent: ready"
TIMEOUT=120 KEEP=0 DIR="" KERNEL=vmlinuz
die() { printf '[boot-check] ERROR: %s\n' "$*" >&2; exit 1; }
while [[ $# -gt 0 ]]; do
  case "$1" in
    --timeout) TIMEOUT=${2:?}; shift 2 ;;
    --keep)    KEEP=1; shift ;;
    --vmlinux) KERNEL=vmlinux; shift ;;
    -h|--help) sed -n '2,19p' "$0"; exit 0 ;;
    -*) die "unknown option $1" ;;
    *) [[ -z $DIR ]] || die "one DIR only"; DIR=$1; shift ;;
  esac
done
[[ -n $DIR ]] || die "usage: boot-check.sh DIR [--timeout SEC] [--keep] [--vmlinux]"
for f in $KERNEL initrd.img rootfs.img template.json; do
  [[ -s $DIR/$f ]] || die "$DIR/$f is missing"
done
if ! command -v qemu-system-x86_64 >/dev/null; then
  echo "[boot-check] installing qemu-system-x86" >&2
  apt_install() { DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends qemu-system-x86 >/tmp/boot-check-apt.log 2>&1; }
  apt_install || { apt-get update -q >/dev/null 2>&1; apt_install; } \
    || { tail -n 15 /tmp/boot-check-apt.log >&2; die "could not install qemu-system-x86"; }
fi

json_field() {  # flat string/number field of template.json (as mkimage.sh writes it)
  sed -nE -e "s/^ *\"$1\": *\"([^\"]*)\",? *\$/\1/p" -e "s/^ *\"$1\": *([0-9]+),? *\$/\1/p" \
    "$DIR/template.json" | head -n1
}
CMDLINE=$(json_field cmdline)
MEM=$(json_field memory_mib)
READY=$(json_field ready_line); READY=${READY:-$READY_LINE}
[[ -n $CMDLINE && $MEM =~ ^[0-9]+$ ]] || die "cannot read cmdline/memory_mib from $DIR/template.json"

SB=$(mktemp -d /tmp/hangar-bootcheck.XXXXXX)
QPID=""
cleanup() {
  if [[ -n $QPID ]] && kill -0 "$QPID" 2>/dev/null; then
    kill "$QPID" 2>/dev/null || true
    wait "$QPID" 2>/dev/null || true
  fi
  if [[ $KEEP -eq 1 ]]; then echo "[boot-check] kept $SB" >&2; else rm -rf "$SB"; fi
}
trap cleanup EXIT
trap 'exit 130' INT TERM

cp --sparse=always --reflink=auto "$DIR/rootfs.img" "$SB/rootfs.img"
ACCEL=()
[[ -w /dev/kvm ]] && ACCEL=(-accel kvm)
: >"$SB/console.log"

T0=${EPOCHREALTIME}
qemu-system-x86_64 "${ACCEL[@]}" \
  -M microvm,acpi=on,pit=on,pic=on,rtc=on,memory-backend=m0 \
  -object "memory-backend-file,id=m0,size=${MEM}M,mem-path=$SB/mem,share=on" \
  -cpu max -m "${MEM}M" -nodefaults -no-user-config -nographic \
  -kernel "$DIR/$KERNEL" -initrd "$DIR/initrd.img" -append "$CMDLINE" \
  -qmp unix:"$SB/qmp.sock",server=on,wait=off \
  -device virtio-serial-device -chardev socket,id=ag,path="$SB/agent.sock",server=on,wait=off \
  -device virtserialport,chardev=ag,name=agent \
  -drive id=root,file="$SB/rootfs.img",format=raw,if=none -device virtio-blk-device,drive=root \
  -chardev file,id=con,path="$SB/console.log" -serial chardev:con \
  </dev/null >"$SB/qemu.out" 2>&1 &
QPID=$!

since() { awk -v a="$T0" -v b="${EPOCHREALTIME}" 'BEGIN{printf "%.2f", b-a}'; }
T_INIT="" T_SWITCH="" T_READY="" RESULT=timeout
while :; do
  [[ -z $T_INIT ]]   && grep -q '^hangar-init: start' "$SB/console.log" && T_INIT=$(since)
  [[ -z $T_SWITCH ]] && grep -q '^hangar-init: switch_root' "$SB/console.log" && T_SWITCH=$(since)
  if grep -qF "$READY" "$SB/console.log"; then T_READY=$(since); RESULT=ready; break; fi
  if grep -qE '^hangar-init: ERROR|Kernel panic' "$SB/console.log"; then RESULT=failed; sleep 0.5; break; fi
  kill -0 "$QPID" 2>/dev/null || { RESULT="qemu exited"; break; }
  awk -v a="$T0" -v b="${EPOCHREALTIME}" -v t="$TIMEOUT" 'BEGIN{exit !(b-a > t)}' && break
  sleep 0.01
done
[[ -n $T_INIT ]]   || { grep -q '^hangar-init: start' "$SB/console.log" && T_INIT=$(since); } || true
[[ -n $T_SWITCH ]] || { grep -q '^hangar-init: switch_root' "$SB/console.log" && T_SWITCH=$(since); } || true

guest_up() { grep -m1 "^hangar-init: $1" "$SB/console.log" | sed -n 's/.*(uptime \([0-9.]*s\)).*/\1/p'; }
echo "---- console ($DIR, $KERNEL) ----"
tr -d '\r' <"$SB/console.log"
echo "------------------------"
if [[ -s $SB/qemu.out ]]; then echo "---- qemu stderr ----"; cat "$SB/qemu.out"; fi
printf 'boot-check: %s\n' "$RESULT"
printf '  /init started   wall %6ss  guest uptime %s\n' "${T_INIT:--}" "$(guest_up start || true)"
printf '  switch_root     wall %6ss  guest uptime %s\n' "${T_SWITCH:--}" "$(guest_up switch_root || true)"
printf '  agent ready     wall %6ss  ("%s")\n' "${T_READY:--}" "$READY"
[[ $RESULT == ready ]]
