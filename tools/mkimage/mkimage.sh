#!/usr/bin/env bash
# mkimage.sh - build a hangar template's boot artifacts from Debian packages.
#
#   mkimage.sh --profile minimal|debian --agent PATH/hangar-agent --out DIR
#              [--rootfs-size SIZE] [--cache DIR] [--mirror URL] [--vmlinux]
#   mkimage.sh --check DIR [boot-check.sh options]    (cold-boot DIR under QEMU)
#
# Output DIR: vmlinuz, initrd.img, rootfs.img, template.json (see README.md),
# and with --vmlinux also vmlinux (the uncompressed ELF kernel).
#
# Host packages this script installs with
#   apt-get install -y --no-install-recommends PKG...
# when the command they provide is missing:
#   cpio                    cpio          (initramfs archive)
#   gzip                    gzip          (initramfs compression)
#   e2fsprogs               mkfs.ext4     (rootfs image, `mkfs.ext4 -d`)
#   kmod                    depmod        (modules.dep for the kernel package)
#   lz4                     lz4           (--vmlinux only: the Debian bzImage is LZ4-compressed)
#   debootstrap             debootstrap   (profile "debian" only)
#   debian-archive-keyring  keyring file  (profile "debian" only)
#   qemu-system-x86         (--check only; installed by boot-check.sh)
#   dpkg-dev make build-essential  (once: to rebuild busybox-static with wget -T,
#                           from `apt-get source busybox` on the host's mirror)
# Packages that are only downloaded into the cache (`apt-get download` +
# `dpkg -x`), never installed on the host:
#   linux-image-6.1.*-cloud-amd64  (exact name from `apt-cache depends linux-image-cloud-amd64`)
#   busybox-static                 (initramfs tools, and the whole userland of "minimal")
#
# Re-running is safe: downloads, the extracted kernel and the debootstrap
# tree are cached under --cache; artifacts are written to temporary files and
# renamed into --out only when everything succeeded.
set -euo pipefail

SELF_DIR="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
readonly SELF_DIR
readonly SUITE=bookworm
# Kernel command line recorded in template.json. /init is the kernel's
# default rdinit and /init finds the root device itself, so the driver's base
# line "console=ttyS0 quiet panic=-1 tsc_early_khz=2000000" is enough to
# boot. The rest only makes a TCG cold boot faster (~0.6 s less guest time:
# no PCI probe (microvm has none), no i8042 probing, one UART, no crypto
# self-tests).
readonly CMDLINE="console=ttyS0 quiet panic=-1 tsc_early_khz=2000000 pci=off i8042.noaux i8042.nomux i8042.nopnp i8042.dumbkbd 8250.nr_uarts=1 cryptomgr.notests"
readonly READY_LINE="hangar-agent: ready"
readonly MEMORY_MIB=256
# Virtio modules for the initramfs; their dependencies come from modules.dep.
readonly MODULES=(virtio_mmio virtio_blk virtio_net virtio_console vsock
                  vmw_vsock_virtio_transport_common vmw_vsock_virtio_transport)
readonly DEBIAN_INCLUDE="python3"

T0=${EPOCHREALTIME}
log()  { printf '[mkimage %6.1fs] %s\n' "$(elapsed)" "$*" >&2; }
warn() { printf '[mkimage] WARNING: %s\n' "$*" >&2; }
die()  { printf '[mkimage] ERROR: %s\n' "$*" >&2; exit 1; }
elapsed() { awk -v a="$T0" -v b="${EPOCHREALTIME}" 'BEGIN{printf "%.1f", b-a}'; }

usage() {
  cat <<EOF
usage: $(basename "$0") --profile minimal|debian --agent PATH --out DIR
                  [--rootfs-size SIZE] [--cache DIR] [--mirror URL] [--vmlinux]
       $(basename "$0") --check DIR [--timeout SEC] [--keep]

  --profile      minimal (busybox userland) or debian (debootstrap minbase $SUITE + $DEBIAN_INCLUDE)
  --agent        the guest agent binary; installed as /usr/bin/hangar-agent and run as PID 1
  --out          output directory (created); gets vmlinuz initrd.img rootfs.img template.json
  --rootfs-size  size of rootfs.img (default 256M for minimal, 2G for debian)
  --cache        download/build cache (default /var/cache/hangar)
  --mirror       Debian mirror for debootstrap (default: read from /etc/apt/sources.list*)
  --vmlinux      also write vmlinux, the uncompressed ELF kernel (Firecracker needs it;
                 QEMU boots it ~1 s faster under TCG than the bzImage; ~53 MB)
  --check DIR    cold-boot the artifacts in DIR under QEMU and wait for "$READY_LINE"
EOF
}

# ---------------------------------------------------------------- arguments
PROFILE="" AGENT="" OUT="" ROOTFS_SIZE="" CACHE=/var/cache/hangar MIRROR="" VMLINUX=0
if [[ $# -ge 1 && $1 == --check ]]; then
  shift
  exec "$SELF_DIR/boot-check.sh" "$@"
fi
while [[ $# -gt 0 ]]; do
  case "$1" in
    --profile)     PROFILE=${2:?--profile needs a value}; shift 2 ;;
    --agent)       AGENT=${2:?--agent needs a value}; shift 2 ;;
    --out)         OUT=${2:?--out needs a value}; shift 2 ;;
    --rootfs-size) ROOTFS_SIZE=${2:?--rootfs-size needs a value}; shift 2 ;;
    --cache)       CACHE=${2:?--cache needs a value}; shift 2 ;;
    --mirror)      MIRROR=${2:?--mirror needs a value}; shift 2 ;;
    --vmlinux)     VMLINUX=1; shift ;;
    -h|--help)     usage; exit 0 ;;
    *) usage >&2; die "unknown argument: $1" ;;
  esac
done
[[ -n $PROFILE && -n $AGENT && -n $OUT ]] || { usage >&2; die "--profile, --agent and --out are required"; }
case "$PROFILE" in
  minimal) : "${ROOTFS_SIZE:=256M}" ;;
  debian)  : "${ROOTFS_SIZE:=2G}" ;;
  *) die "unknown profile '$PROFILE' (expected minimal or debian)" ;;
esac
[[ $ROOTFS_SIZE =~ ^[0-9]+[KMG]?$ ]] || die "bad --rootfs-size '$ROOTFS_SIZE' (e.g. 512M, 2G)"
[[ $(id -u) -eq 0 ]] || die "must run as root (device nodes, file ownership in the images, debootstrap)"
[[ -f $AGENT && -r $AGENT ]] || die "agent '$AGENT' is not a readable file"
[[ $(dpkg --print-architecture) == amd64 ]] || die "only amd64 hosts are supported"
# The agent runs as PID 1 right after switch_root: make sure it can start.
AGENT_MAGIC=$(head -c 4 "$AGENT" | od -An -c | tr -d ' ')
if [[ $AGENT_MAGIC == '177ELF' ]]; then
  LDD_OUT=$(ldd "$AGENT" 2>&1 || true)
  if [[ $PROFILE == minimal && $LDD_OUT != *"statically linked"* && $LDD_OUT != *"not a dynamic executable"* ]]; then
    die "agent $AGENT is dynamically linked; the minimal rootfs has no libc (link it -static)"
  fi
elif [[ $AGENT_MAGIC != '#!'* ]]; then
  die "agent $AGENT is neither an ELF binary nor a #! script"
fi

# symlinks TARGET LINK...: make each LINK (unless it exists) a symlink to
# TARGET, in one process rather than one `ln` per busybox applet.
symlinks() {
  perl -e '$t = shift; for (@ARGV) { -e $_ or -l $_ or symlink($t, $_) or die "symlink $_: $!\n" }' "$@"
}

size_bytes() {  # 512M -> bytes
  local n=${1%[KMG]} u=${1##*[0-9]}
  case "$u" in K) echo $((n << 10)) ;; M) echo $((n << 20)) ;; G) echo $((n << 30)) ;; *) echo "$n" ;; esac
}

# ------------------------------------------------------------ host packages
APT_UPDATED=0
apt_update_once() {
  [[ $APT_UPDATED -eq 1 ]] && return 0
  log "apt-get update"
  apt-get update -q >/dev/null || warn "apt-get update failed; continuing with the lists we have"
  APT_UPDATED=1
}
need() {  # need CMD|PATH PKG: install PKG unless CMD (or file PATH) exists
  local what=$1 pkg=$2
  if [[ $what == /* ]]; then [[ -e $what ]] && return 0; else command -v "$what" >/dev/null && return 0; fi
  log "installing $pkg (for $what)"
  local out
  if ! out=$(DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends "$pkg" 2>&1); then
    apt_update_once
    out=$(DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends "$pkg" 2>&1) \
      || { printf '%s\n' "$out" | tail -n 15 >&2; die "could not install $pkg"; }
  fi
}
need cpio cpio
need gzip gzip
need mkfs.ext4 e2fsprogs
need depmod kmod
[[ $VMLINUX -eq 0 ]] || need lz4 lz4
if [[ $PROFILE == debian ]]; then
  need debootstrap debootstrap
  need /usr/share/keyrings/debian-archive-keyring.gpg debian-archive-keyring
fi

# ------------------------------------------------------- cache, lock, tmp
# $CACHE/debs holds downloaded .debs (named package_version_arch, shareable);
# everything else of ours lives under $CACHE/mkimage.
MK="$CACHE/mkimage"
mkdir -p "$CACHE/debs" "$MK/kernel" "$MK/busybox" "$MK/debootstrap" "$OUT"
OUT=$(cd "$OUT" && pwd)
exec 9>"$MK/.lock"
flock -n 9 || { log "waiting for another mkimage run holding $MK/.lock"; flock 9; }
umount_under() {  # unmount everything mounted at or below $1, deepest first
  local m
  while read -r m; do umount -l "$m" 2>/dev/null || true; done \
    < <(awk -v w="$1" '$2 == w || index($2, w "/") == 1 {print $2}' /proc/mounts | sort -r)
}
for stale in "$MK"/build.*; do  # left by a run that was killed (we hold the lock)
  [[ -d $stale ]] || continue
  umount_under "$stale"; rm -rf "$stale"
done
WORK=$(mktemp -d "$MK/build.XXXXXX")
cleanup() {
  local rc=$?
  # An interrupted debootstrap leaves proc/sys mounted in its target.
  umount_under "$WORK"
  rm -rf "$WORK" "$OUT"/.*.tmp 2>/dev/null || true
  [[ $rc -eq 0 ]] || printf '[mkimage] FAILED (exit %d); nothing in %s was replaced\n' "$rc" "$OUT" >&2
}
trap cleanup EXIT
trap 'exit 130' INT TERM

# ---------------------------------------------------------- package fetch
# fetch_deb PKG: echo the path of PKG's candidate .deb in the cache,
# downloading it if needed. Offline, falls back to the newest cached one.
fetch_deb() {
  local pkg=$1 ver f
  ver=$(apt-cache policy "$pkg" 2>/dev/null | awk '/Candidate:/ {print $2}')
  if [[ -z $ver || $ver == "(none)" ]]; then
    apt_update_once
    ver=$(apt-cache policy "$pkg" 2>/dev/null | awk '/Candidate:/ {print $2}')
  fi
  if [[ -n $ver && $ver != "(none)" ]]; then
    f="$CACHE/debs/${pkg}_${ver//:/%3a}_amd64.deb"
    if [[ ! -s $f ]]; then
      log "downloading $pkg $ver"
      if ! (cd "$CACHE/debs" && apt-get download -q -o APT::Sandbox::User=root "$pkg=$ver" >/dev/null); then
        [[ $APT_UPDATED -eq 0 ]] || die "apt-get download $pkg=$ver failed"
        apt_update_once   # stale lists name a version the mirror no longer has
        fetch_deb "$pkg"; return
      fi
      [[ -s $f ]] || die "apt-get download did not produce $f"
    else
      log "using cached $(basename "$f")"
    fi
    dpkg-deb --info "$f" >/dev/null 2>&1 || { rm -f "$f"; die "corrupt download $f removed; re-run"; }
    echo "$f"; return 0
  fi
  f=$(newest_cached_deb "$pkg")
  [[ -n $f ]] || die "package $pkg not known to apt and not in $CACHE/debs"
  warn "apt has no candidate for $pkg; using cached $(basename "$f")"
  echo "$f"
}
newest_cached_deb() {
  local pkg=$1 f best="" bestv=""
  for f in "$CACHE/debs/${pkg}"_*_amd64.deb; do
    [[ -s $f ]] || continue
    local v; v=$(dpkg-deb -f "$f" Version)
    if [[ -z $best ]] || dpkg --compare-versions "$v" gt "$bestv"; then best=$f bestv=$v; fi
  done
  echo "$best"
}

mirror_from_host() {  # first Debian archive URI on this host that serves $SUITE/main
  local f
  for f in /etc/apt/sources.list /etc/apt/sources.list.d/*.list; do
    [[ -f $f ]] || continue
    awk -v s="$SUITE" '$1 == "deb" { i = 2; if ($2 ~ /^\[/) { while ($i !~ /\]$/) i++; i++ }
      if ($(i+1) == s) { print $i; exit } }' "$f"
  done
  for f in /etc/apt/sources.list.d/*.sources; do
    [[ -f $f ]] || continue
    # deb822 stanzas: print a URI of a stanza whose Suites include $SUITE.
    awk -v s="$SUITE" 'BEGIN { RS = ""; FS = "\n" }
      { uris = ""; ok = 0; deb = 1
        for (i = 1; i <= NF; i++) {
          if ($i ~ /^URIs:/)   { uris = $i; sub(/^URIs:[ \t]*/, "", uris) }
          if ($i ~ /^Types:/ && $i !~ /[ \t]deb([ \t]|$)/) deb = 0
          if ($i ~ /^Suites:/) { n = split($i, a, /[ \t]+/); for (j = 2; j <= n; j++) if (a[j] == s) ok = 1 }
        }
        if (ok && deb && uris != "") { split(uris, u, /[ \t]+/); print u[1]; exit } }' "$f"
  done
}

kernel_package() {  # exact linux-image-6.1.*-cloud-amd64 that the meta package depends on
  local re='^linux-image-6\.1\.[0-9]+-[0-9]+-cloud-amd64$' p
  p=$(apt-cache depends linux-image-cloud-amd64 2>/dev/null | awk '$1 == "Depends:" {print $2}' | grep -E "$re" | head -n1 || true)
  if [[ -z $p ]]; then
    apt_update_once
    p=$(apt-cache depends linux-image-cloud-amd64 2>/dev/null | awk '$1 == "Depends:" {print $2}' | grep -E "$re" | head -n1 || true)
  fi
  if [[ -z $p ]]; then  # offline: newest cached kernel package
    p=$(ls "$CACHE/debs" 2>/dev/null | sed -n 's/^\(linux-image-6\.1\.[0-9]*-[0-9]*-cloud-amd64\)_.*\.deb$/\1/p' | sort -V | tail -n1)
    [[ -n $p ]] || die "cannot resolve linux-image-cloud-amd64 (no apt lists and nothing cached)"
    warn "apt cannot resolve linux-image-cloud-amd64; using cached $p"
  fi
  echo "$p"
}

# ------------------------------------------------------------------ kernel
log "profile=$PROFILE agent=$AGENT out=$OUT rootfs-size=$ROOTFS_SIZE cache=$CACHE"
KPKG=$(kernel_package)
KDEB=$(fetch_deb "$KPKG")
KDIR="$MK/kernel/$(basename "$KDEB" .deb)"
if [[ ! -f $KDIR/.done ]]; then
  log "extracting $(basename "$KDEB")"
  rm -rf "$KDIR" "$KDIR.tmp"
  dpkg -x "$KDEB" "$KDIR.tmp"
  mv "$KDIR.tmp" "$KDIR"
fi
KVER=$(basename "$(ls -d "$KDIR"/lib/modules/*/ | head -n1)")
[[ -n $KVER && -d $KDIR/lib/modules/$KVER ]] || die "no lib/modules/<version> in $KDEB"
[[ -f $KDIR/boot/vmlinuz-$KVER ]] || die "no boot/vmlinuz-$KVER in $KDEB"
if [[ ! -f $KDIR/.done ]]; then
  # The package ships no modules.dep (its postinst runs depmod): make one.
  log "depmod $KVER"
  depmod -b "$KDIR" "$KVER"
  touch "$KDIR/.done"
fi
MODDIR="$KDIR/lib/modules/$KVER"
log "kernel $KVER ($KPKG $(dpkg-deb -f "$KDEB" Version))"

# Resolve MODULES plus their dependencies into load order (dependencies
# first), walking modules.dep depth-first.
declare -A MOD_DEPS=() MOD_PATH=() MOD_STATE=()
while IFS= read -r line; do
  p=${line%%:*}
  n=${p##*/}; n=${n%%.ko*}; n=${n//-/_}
  MOD_PATH[$n]=$p
  MOD_DEPS[$p]=${line#*:}
done < "$MODDIR/modules.dep"
MOD_ORDER=()
visit_module() {
  local p=$1 deps i
  case "${MOD_STATE[$p]:-}" in
    visited) return 0 ;;
    visiting) die "dependency cycle in modules.dep at $p" ;;
  esac
  MOD_STATE[$p]=visiting
  read -r -a deps <<<"${MOD_DEPS[$p]:-}"
  for ((i = ${#deps[@]} - 1; i >= 0; i--)); do visit_module "${deps[i]}"; done
  MOD_STATE[$p]=visited
  MOD_ORDER+=("$p")
}
for m in "${MODULES[@]}"; do
  if [[ -z ${MOD_PATH[$m]:-} ]]; then
    grep -qE "/${m}\.ko" "$MODDIR/modules.builtin" && { log "module $m is built in"; continue; }
    die "module $m not found in $KPKG"
  fi
  visit_module "${MOD_PATH[$m]}"
done

# ----------------------------------------------------------------- busybox
BBDEB=$(fetch_deb busybox-static)
BBDIR="$MK/busybox/$(basename "$BBDEB" .deb)"
if [[ ! -x $BBDIR/bin/busybox ]]; then
  rm -rf "$BBDIR"; dpkg -x "$BBDEB" "$BBDIR.tmp"; mv "$BBDIR.tmp" "$BBDIR"
fi
BUSYBOX="$BBDIR/bin/busybox"
"$BUSYBOX" true || die "$BUSYBOX does not run on this host"

# Debian builds busybox-static without FEATURE_WGET_TIMEOUT, yet wget.c
# still declares -T a number option ("T:+") and hands getopt32 a NULL
# pointer for it (IF_NOT_FEATURE_WGET_TIMEOUT(NULL)), and getopt32 stores
# numbers without checking the pointer (libbb/getopt32.c): `wget -T 5 URL`
# writes 5 to address 0, a SIGSEGV before any I/O (gdb: mov %ecx,(%rax)
# with rax=0, ecx=5). -T is what scripts add so a dead network cannot hang
# them. A /usr/bin/wget wrapper cannot stand in: the static build's sh has
# FEATURE_SH_STANDALONE and runs its applets before searching PATH. So
# the userland is rebuilt from the same Debian source package with that one
# option turned on, once, and cached beside the extracted package.
busybox_with_wget_timeout() {  # DEB: echo the path of the rebuilt busybox
  local deb=$1 out="$MK/busybox/$(basename "$1" .deb)+wget-timeout"
  [[ -x $out/busybox ]] && { echo "$out/busybox"; return 0; }
  need dpkg-source dpkg-dev
  need make make
  need gcc build-essential
  local src ver mirror
  src=$(dpkg-deb -f "$deb" Source)   # "busybox (1:1.35.0-4+deb12u1)" for a binNMU
  ver=$(sed -n 's/.*(\(.*\)).*/\1/p' <<<"$src")
  [[ -n $ver ]] || ver=$(dpkg-deb -f "$deb" Version)
  mirror=${MIRROR:-$(mirror_from_host | head -n1)}
  [[ -n $mirror ]] || { warn "no Debian mirror for busybox's source; pass --mirror"; return 1; }
  # A private apt state for deb-src, so the host's apt configuration is untouched.
  local apt="$MK/apt-src" b="$WORK/busybox-src"
  mkdir -p "$apt/lists/partial" "$b"
  printf 'deb-src %s %s main\ndeb-src %s %s-updates main\n' "$mirror" "$SUITE" "$mirror" "$SUITE" >"$apt/sources.list"
  local -a aptopt=(-q -o "Dir::Etc::SourceList=$apt/sources.list" -o Dir::Etc::SourceParts=/dev/null
                   -o "Dir::State::Lists=$apt/lists" -o APT::Sandbox::User=root)
  log "fetching the source of busybox $ver from $mirror"
  if ! (cd "$b" && { apt-get "${aptopt[@]}" source --download-only "busybox=$ver" >/dev/null 2>&1 ||
        { apt-get "${aptopt[@]}" update >/dev/null && apt-get "${aptopt[@]}" source --download-only "busybox=$ver" >/dev/null; }; }); then
    warn "cannot fetch the source of busybox $ver"; return 1
  fi
  # apt checked the files against the signed Sources index; dpkg-source's
  # own check of the .dsc signature has no uploader keyring here and only warns.
  if ! (cd "$b" && dpkg-source -x ./*.dsc tree >"$b/dpkg-source.log" 2>&1); then
    tail -n 5 "$b/dpkg-source.log" >&2; warn "dpkg-source -x busybox $ver failed"; return 1
  fi
  log "building busybox $ver with FEATURE_WGET_TIMEOUT (once; a few minutes)"
  cp "$b/tree/debian/config/pkg/static" "$b/tree/.config"
  sed -i 's/^# CONFIG_FEATURE_WGET_TIMEOUT is not set$/CONFIG_FEATURE_WGET_TIMEOUT=y/' "$b/tree/.config"
  if ! (cd "$b/tree" && { yes '' || :; } | make oldconfig >"$b/build.log" 2>&1 && make -j"$(nproc)" busybox >>"$b/build.log" 2>&1); then
    tail -n 15 "$b/build.log" >&2; warn "building busybox $ver failed (log above)"; return 1
  fi
  "$b/tree/busybox" wget --help 2>&1 | grep -q -e '-T SEC' || { warn "rebuilt busybox still has no wget -T"; return 1; }
  rm -rf "$out" "$out.tmp"; mkdir -p "$out.tmp"
  install -m 0755 "$b/tree/busybox" "$out.tmp/busybox"
  mv "$out.tmp" "$out"
  echo "$out/busybox"
}
if ! "$BUSYBOX" wget --help 2>&1 | grep -q -e '-T SEC'; then
  if BB_FIXED=$(busybox_with_wget_timeout "$BBDEB"); then
    BUSYBOX=$BB_FIXED
    log "busybox: $BUSYBOX (Debian's, rebuilt with wget -T)"
  else
    warn "using Debian's busybox-static as is: its 'wget -T' is a SIGSEGV"
  fi
fi
BB_APPLETS=" $("$BUSYBOX" --list | tr '\n' ' ') "
for a in sh mount insmod switch_root setsid cttyhack usleep; do
  [[ $BB_APPLETS == *" $a "* ]] || die "busybox lacks the '$a' applet"
done

# -------------------------------------------------------------- initramfs
log "building initrd.img (${#MOD_ORDER[@]} modules)"
IR="$WORK/initramfs"
mkdir -p "$IR"/{bin,dev,proc,sys,newroot,run,tmp,etc,lib/modules/"$KVER"}
ln -s bin "$IR/sbin"
cp "$BUSYBOX" "$IR/bin/busybox"
mapfile -t APPLETS < <("$BUSYBOX" --list | grep -vx -e busybox -e linuxrc)
symlinks busybox "${APPLETS[@]/#/$IR/bin/}"
mknod -m 600 "$IR/dev/console" c 5 1
mknod -m 666 "$IR/dev/null" c 1 3
: >"$IR/etc/modules.load"
for p in "${MOD_ORDER[@]}"; do
  dst="$IR/lib/modules/$KVER/${p%.ko*}.ko"
  mkdir -p "$(dirname "$dst")"
  case "$p" in
    *.ko)     cp "$MODDIR/$p" "$dst" ;;
    *.ko.xz)  xz -dc "$MODDIR/$p" >"$dst" ;;
    *.ko.zst) zstd -qdc "$MODDIR/$p" >"$dst" ;;
    *.ko.gz)  gzip -dc "$MODDIR/$p" >"$dst" ;;
    *) die "unknown module format $p" ;;
  esac
  echo "/lib/modules/$KVER/${p%.ko*}.ko" >>"$IR/etc/modules.load"
done
log "module load order: $(sed 's#.*/##; s#\.ko$##' "$IR/etc/modules.load" | tr '\n' ' ')"

cat >"$IR/init" <<'INIT'
#!/bin/sh
# hangar initramfs /init (generated by tools/mkimage/mkimage.sh).
# Loads the virtio modules, mounts the root disk and hands PID 1 to the
# agent. On any failure it says why on the console and starts a rescue shell:
# it never exits, since PID 1 exiting would panic the kernel.
# Kernel cmdline overrides (all optional):
#   hangar.root=/dev/vda  hangar.rootflags=rw,noatime  hangar.init=/usr/bin/hangar-agent
#   hangar.break          (rescue shell just before switch_root)
export PATH=/bin
ROOT=/dev/vda
ROOTFLAGS=rw,noatime
INIT=/usr/bin/hangar-agent
BREAK=

say() { echo "hangar-init: $*"; }
up() { read -r u _ </proc/uptime 2>/dev/null && echo "${u}s" || echo "?"; }

rescue() {
  say "ERROR: $*"
  say "starting a rescue shell on the console (root: $ROOT, init: $INIT)"
  hint="exec switch_root /newroot $INIT"
  for d in sys proc dev; do grep -q " /newroot/$d " /proc/mounts 2>/dev/null || hint="mount --move /$d /newroot/$d && $hint"; done
  grep -q " /newroot " /proc/mounts 2>/dev/null || hint="mount -t ext4 $ROOT /newroot && $hint"
  say "to continue by hand: $hint"
  while :; do
    setsid cttyhack sh -l || sh -l
    say "rescue shell exited; starting another"
    sleep 1
  done
}

mount -t proc -o nosuid,nodev,noexec proc /proc || rescue "cannot mount /proc"
say "start (uptime $(up))"
mount -t sysfs -o nosuid,nodev,noexec sysfs /sys || rescue "cannot mount /sys"
mount -t devtmpfs -o nosuid,mode=0755 devtmpfs /dev || rescue "cannot mount devtmpfs on /dev"
exec </dev/console >/dev/console 2>&1
mkdir -p /dev/pts /dev/shm
mount -t devpts -o nosuid,noexec,gid=5,mode=620,ptmxmode=666 devpts /dev/pts || rescue "cannot mount /dev/pts"
mount -t tmpfs -o nosuid,nodev,mode=1777 tmpfs /dev/shm || rescue "cannot mount /dev/shm"

for arg in $(cat /proc/cmdline); do
  case "$arg" in
    hangar.root=*)      ROOT=${arg#*=} ;;
    hangar.rootflags=*) ROOTFLAGS=${arg#*=} ;;
    hangar.init=*)      INIT=${arg#*=} ;;
    hangar.break)       BREAK=1 ;;
  esac
done

while read -r mod; do
  out=$(insmod "$mod" 2>&1) || rescue "insmod $mod failed: $out"
done </etc/modules.load

i=0
while [ ! -b "$ROOT" ]; do
  i=$((i + 1))
  [ $i -le 500 ] || rescue "root device $ROOT did not appear within 10s (no virtio-blk-device attached?)"
  usleep 20000
done
out=$(mount -t ext4 -o "$ROOTFLAGS" "$ROOT" /newroot 2>&1) || rescue "cannot mount $ROOT (ext4, $ROOTFLAGS) on /newroot: $out"
[ -f "/newroot$INIT" ] && [ -x "/newroot$INIT" ] || rescue "$INIT is missing or not executable on $ROOT"
for d in dev proc sys; do
  [ -d "/newroot/$d" ] || mkdir -p "/newroot/$d" || rescue "cannot create /$d on $ROOT"
done
[ -z "$BREAK" ] || rescue "hangar.break on the kernel command line"

say "switch_root to $ROOT, exec $INIT (uptime $(up))"
for d in dev proc sys; do
  mount --move "/$d" "/newroot/$d" || rescue "cannot move /$d to the new root"
done
export PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin
exec switch_root /newroot "$INIT"
INIT
chmod 755 "$IR/init"

# Deterministic archive: sorted names, fixed mtimes, no gzip timestamp.
find "$IR" -exec touch -h -d @0 {} +
(cd "$IR" && find . -mindepth 1 | LC_ALL=C sort | cpio -o -H newc --reproducible --quiet -R 0:0) \
  | gzip -1 -n >"$OUT/.initrd.img.tmp"

# ----------------------------------------------------------------- rootfs
STAGE="$WORK/rootfs"
mkdir -p "$STAGE"

stage_minimal() {
  log "staging minimal rootfs (busybox $(dpkg-deb -f "$BBDEB" Version)${BB_FIXED:+, rebuilt with wget -T})"
  mkdir -p "$STAGE"/{usr/bin,usr/sbin,usr/lib,etc,dev,proc,sys,run,tmp,root,var/tmp,mnt,home}
  ln -s usr/bin "$STAGE/bin"; ln -s usr/sbin "$STAGE/sbin"; ln -s usr/lib "$STAGE/lib"
  chmod 1777 "$STAGE/tmp" "$STAGE/var/tmp"; chmod 700 "$STAGE/root"
  cp "$BUSYBOX" "$STAGE/usr/bin/busybox"
  local path name bin=() sbin=()
  while read -r path; do
    name=${path##*/}
    [[ $name == busybox || $name == linuxrc || $path != */* ]] && continue
    case "$path" in
      bin/*|usr/bin/*)   bin+=("$STAGE/usr/bin/$name") ;;
      sbin/*|usr/sbin/*) sbin+=("$STAGE/usr/sbin/$name") ;;
    esac
  done < <("$BUSYBOX" --list-full)
  symlinks busybox "${bin[@]}"
  symlinks ../bin/busybox "${sbin[@]}"
  cat >"$STAGE/etc/passwd" <<'EOF'
root:x:0:0:root:/root:/bin/sh
nobody:x:65534:65534:nobody:/nonexistent:/usr/sbin/nologin
EOF
  cat >"$STAGE/etc/group" <<'EOF'
root:x:0:
tty:x:5:
nogroup:x:65534:
EOF
  printf 'root:*:19000:0:99999:7:::\nnobody:*:19000:0:99999:7:::\n' >"$STAGE/etc/shadow"
  chmod 600 "$STAGE/etc/shadow"
  printf 'PRETTY_NAME="hangar minimal (busybox)"\nNAME="hangar-minimal"\nID=hangar-minimal\n' >"$STAGE/etc/os-release"
}

stage_debian() {
  if [[ -z $MIRROR ]]; then
    MIRROR=$(mirror_from_host | head -n1)
    [[ -n $MIRROR ]] || die "no '$SUITE' Debian mirror found in /etc/apt/sources.list*; pass --mirror URL"
  fi
  local key="$SUITE-minbase-${DEBIAN_INCLUDE//,/+}"
  local tarball="$MK/debootstrap/$key.tar"
  if [[ ! -s $tarball ]]; then
    log "debootstrap --variant=minbase --include=$DEBIAN_INCLUDE $SUITE from $MIRROR (a few minutes)"
    local target="$WORK/debootstrap"
    if ! debootstrap --variant=minbase --include="$DEBIAN_INCLUDE" \
        --keyring=/usr/share/keyrings/debian-archive-keyring.gpg \
        "$SUITE" "$target" "$MIRROR" >"$WORK/debootstrap.log" 2>&1; then
      tail -n 20 "$WORK/debootstrap.log" >&2
      [[ -f $target/debootstrap/debootstrap.log ]] && tail -n 20 "$target/debootstrap/debootstrap.log" >&2
      die "debootstrap failed (log above)"
    fi
    umount_under "$target"  # nothing may stay mounted inside the tree we archive
    rm -rf "$target"/var/cache/apt/archives/*.deb "$target"/var/cache/apt/*.bin \
           "$target"/var/lib/apt/lists/*_Packages "$target"/var/lib/apt/lists/*_Release* \
           "$target"/var/log/*.log "$target"/var/log/apt/* "$target"/debootstrap
    log "caching debootstrap tree as $tarball"
    tar --numeric-owner --xattrs --xattrs-include='*' -C "$target" -cf "$tarball.tmp" .
    mv "$tarball.tmp" "$tarball"
    rm -rf "$target"
  else
    log "using cached debootstrap tree $(basename "$tarball")"
  fi
  log "unpacking debian rootfs"
  tar --numeric-owner --xattrs --xattrs-include='*' -C "$STAGE" -xpf "$tarball"
  [[ -x $STAGE/usr/bin/python3 ]] || die "cached debootstrap tree has no python3: delete $tarball and re-run"
}

stage_common() {
  mkdir -p "$STAGE"/{dev,proc,sys,run,tmp,root,etc,usr/bin}
  chmod 1777 "$STAGE/tmp"
  echo hangar >"$STAGE/etc/hostname"
  printf '127.0.0.1\tlocalhost\n127.0.1.1\thangar\n::1\tlocalhost ip6-localhost ip6-loopback\n' >"$STAGE/etc/hosts"
  # Template identity; the agent gives every fork a new one (DESIGN.md §4).
  od -An -tx1 -N16 /dev/urandom | tr -d ' \n' >"$STAGE/etc/machine-id"; echo >>"$STAGE/etc/machine-id"
  rm -f "$STAGE/etc/resolv.conf"; : >"$STAGE/etc/resolv.conf"   # written at runtime, not the build host's
  printf '/dev/vda\t/\text4\trw,noatime\t0\t1\n' >"$STAGE/etc/fstab"
  install -m 0755 "$AGENT" "$STAGE/usr/bin/hangar-agent"
  if [[ $AGENT_MAGIC == '#!'* ]]; then
    local interp; interp=$(head -n1 "$AGENT" | sed 's/^#![[:space:]]*//; s/[[:space:]].*//')
    [[ -e $STAGE$interp ]] || die "agent script interpreter $interp does not exist in the $PROFILE rootfs"
  fi
}

case "$PROFILE" in
  minimal) stage_minimal ;;
  debian)  stage_debian ;;
esac
stage_common

need_bytes=$(du -sb "$STAGE" | awk '{print $1}')
size=$(size_bytes "$ROOTFS_SIZE")
# ext4 metadata (inode tables, journal) needs room too: ask for ~1.25x + 16M.
if (( need_bytes + need_bytes / 4 + (16 << 20) > size )); then
  die "rootfs content is $((need_bytes >> 20)) MiB; --rootfs-size $ROOTFS_SIZE is too small"
fi
log "making rootfs.img ($ROOTFS_SIZE, $((need_bytes >> 20)) MiB of files)"
rm -f "$OUT/.rootfs.img.tmp"
truncate -s "$ROOTFS_SIZE" "$OUT/.rootfs.img.tmp"
mkfs.ext4 -q -F -L hangar-root -m 0 -E root_owner=0:0 -d "$STAGE" "$OUT/.rootfs.img.tmp" \
  || die "mkfs.ext4 -d failed"
rm -rf "$STAGE" "$IR"

# --------------------------------------------------------------- outputs
cp "$KDIR/boot/vmlinuz-$KVER" "$OUT/.vmlinuz.tmp"

# vmlinux: the ELF kernel inside the bzImage. The compressed payload starts
# at the decompressor's magic; the config names the compressor.
extract_vmlinux() {
  local comp magic off
  local -a tool
  comp=$(sed -n 's/^CONFIG_KERNEL_\([A-Z0-9]*\)=y$/\1/p' "$KDIR/boot/config-$KVER" | head -n1)
  case "$comp" in
    LZ4)  magic='\x02\x21\x4c\x18'; tool=(lz4 -dc) ;;
    GZIP) magic='\x1f\x8b\x08';      tool=(gzip -dc) ;;
    XZ)   magic='\xfd\x37\x7a\x58\x5a\x00'; need xz xz-utils; tool=(xz -dc) ;;
    ZSTD) magic='\x28\xb5\x2f\xfd'; need zstd zstd; tool=(zstd -dc) ;;
    *) die "--vmlinux: kernel compression '$comp' not supported" ;;
  esac
  for off in $(LC_ALL=C grep -obUaP "$magic" "$KDIR/boot/vmlinuz-$KVER" | cut -d: -f1); do
    # The payload is followed by more bzImage data, so the decompressor
    # complains at the end: judge by the output, not its exit status.
    tail -c +$((off + 1)) "$KDIR/boot/vmlinuz-$KVER" | "${tool[@]}" >"$1" 2>/dev/null || true
    [[ $(head -c 4 "$1" | od -An -c | tr -d ' ') == '177ELF' ]] && return 0
  done
  die "--vmlinux: no $comp-compressed ELF found in vmlinuz-$KVER"
}
ARTIFACTS=(vmlinuz initrd.img rootfs.img template.json)
if [[ $VMLINUX -eq 1 ]]; then
  log "extracting vmlinux"
  extract_vmlinux "$OUT/.vmlinux.tmp"
  ARTIFACTS+=(vmlinux)
fi
json_str() { local s=${1//\\/\\\\}; s=${s//\"/\\\"}; printf '"%s"' "$s"; }
{
  printf '{\n'
  printf '  "profile": %s,\n' "$(json_str "$PROFILE")"
  printf '  "kernel_version": %s,\n' "$(json_str "$KVER")"
  printf '  "built_at": %s,\n' "$(json_str "$(date -u +%Y-%m-%dT%H:%M:%SZ)")"
  printf '  "cmdline": %s,\n' "$(json_str "$CMDLINE")"
  printf '  "memory_mib": %d,\n' "$MEMORY_MIB"
  printf '  "kernel_package": %s,\n' "$(json_str "$KPKG=$(dpkg-deb -f "$KDEB" Version)")"
  printf '  "rootfs_size": %d,\n' "$size"
  printf '  "agent_sha256": %s,\n' "$(json_str "$(sha256sum "$AGENT" | cut -d' ' -f1)")"
  printf '  "ready_line": %s\n' "$(json_str "$READY_LINE")"
  printf '}\n'
} >"$OUT/.template.json.tmp"

# A memory image saved from the previous artifacts would not match the new ones.
for f in mem vmstate; do
  if [[ -e $OUT/$f ]]; then warn "removing stale $OUT/$f (saved from the previous build)"; rm -f "$OUT/$f"; fi
done
for f in "${ARTIFACTS[@]}"; do
  mv -f "$OUT/.$f.tmp" "$OUT/$f"
done
# A vmlinux left by an earlier --vmlinux build would not match this kernel.
[[ $VMLINUX -eq 1 ]] || rm -f "$OUT/vmlinux"
sync -f "$OUT/rootfs.img" 2>/dev/null || true

log "done in $(elapsed)s: $OUT"
for f in "${ARTIFACTS[@]}"; do
  printf '  %-14s %10s bytes (%s on disk)\n' "$f" "$(stat -c %s "$OUT/$f")" "$(du -h "$OUT/$f" | cut -f1)" >&2
done
