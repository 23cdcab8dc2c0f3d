#!/usr/bin/env bash
# bench_send_holes: the btrfs send stream of a sandbox's generation against
# its template, after more and more sandboxes were made from that template,
# for a template whose mem and rootfs.img have holes (as hangar published
# them before) beside the same template with every hole written with zeros
# (what node/template.c fill_holes does at publish now), in one run.
#
#   tools/bench/bench_send_holes.sh [--sandboxes N] [--image-gib G] [--json FILE]
#                                   [--tmp DIR] [--check-ioctl PROG]
#
# No hangard, no VM, no template needed: its own sparse loop image of G GiB
# (default 12) in a temp dir under DIR (default /var/tmp), mkfs.btrfs with
# the defaults (NO_HOLES: a hole is the absence of a file extent item), and
# in it two template subvolumes made the same way but for the holes, each
# then set read-only:
#   sparse  mem: 256 MiB, random data in [0,64) [80,112) [128,136) [160,162)
#           [192,256) MiB, holes between (guest RAM the guest never touched
#           stays a hole of the share=on file); rootfs.img: 512 MiB, 206 MiB
#           of data in 10 runs (an ext4 image copied sparse), holes between.
#   filled  the same files, the same bytes (fixed seeds), then every hole
#           written with zeros in 64 KiB pwrites and fsynced, as fill_holes.
# Then for i = 1..N (default 60), for each variant in turn: a writable
# snapshot of the template (the sandbox), 300 random 4 KiB pages of its mem
# and 50 of its rootfs.img rewritten with random bytes (seed i: the same
# pages and bytes in both variants), fsynced, a read-only snapshot of it (the
# generation), and the bytes of `btrfs send -p TEMPLATE GENERATION`: parent
# and clone source the template, as replication/stream.c's BTRFS_IOC_SEND
# (btrfs-progs adds the parent to the clone sources). The sandboxes and
# generations stay, as they do on a node, holding references to the
# template's extents.
#
# Prints the stream bytes (and the send's wall ms, host-dependent) at
# i = 1, 10, 15, 20, 30, ..., N, then median and max over all i per
# variant, their ratio sparse / filled, the first i where the sparse stream
# is more than twice the filled one, the write/clone commands of the last
# stream (btrfs receive --dump), the template's allocated bytes and the
# disk each variant uses in all (btrfs filesystem du). JSON with every i's
# bytes to FILE (default tools/bench/results/bench_send_holes.json).
# --check-ioctl PROG: at those i, also PROG GENERATION TEMPLATE pc (a
# BTRFS_IOC_SEND caller printing the stream bytes, parent_root and
# clone_sources = {parent}) and die unless it gives the CLI's bytes.
#
# Needs root (loop device, mount), btrfs-progs, python3, jq. On exit (also
# on failure or Ctrl-C) it unmounts, detaches the loop device, removes the
# temp dir.
set -euo pipefail

BENCH=bench_send_holes
# shellcheck source=tools/bench/lib.sh
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
json_out=$here/results/bench_send_holes.json
n=60
image_gib=12
tmp_parent=/var/tmp
check_ioctl=
VARIANTS=(sparse filled)
MEM_PAGES=300
ROOTFS_PAGES=50

usage() {
  sed -n '8,9p' "$0" | sed 's/^# \{0,1\}//' >&2
  exit 2
}
while (($#)); do
  case $1 in
  --sandboxes) n=${2:?}; shift 2 ;;
  --image-gib) image_gib=${2:?}; shift 2 ;;
  --json) json_out=${2:?}; shift 2 ;;
  --tmp) tmp_parent=${2:?}; shift 2 ;;
  --check-ioctl) check_ioctl=${2:?}; shift 2 ;;
  -h | --help) usage ;;
  *) echo "bench_send_holes: unknown argument $1" >&2; usage ;;
  esac
done
bench_positive "$n" "$image_gib"
bench_need root btrfs mkfs.btrfs losetup python3 jq
[[ -z $check_ioctl || -x $check_ioctl ]] || die "--check-ioctl: $check_ioctl is not executable"

# ---- the temp dir, the loop image, and cleanup ------------------------------------

T=$(mktemp -d "$tmp_parent/hangar-bench-send-holes.XXXXXX")
MNT=$T/mnt
LOOP=

cleanup() {
  local rc=$? ok=1 i
  trap - EXIT INT TERM
  if mountpoint -q "$MNT" 2>/dev/null; then
    for ((i = 0; i < 10; i++)); do
      umount "$MNT" 2>/dev/null && break
      sleep 0.5
    done
    mountpoint -q "$MNT" 2>/dev/null && { ok=0; log "could not unmount $MNT"; }
  fi
  if [[ -n $LOOP ]] && ((ok)); then
    losetup -d "$LOOP" 2>/dev/null || { ok=0; log "could not detach $LOOP"; }
  fi
  if ((ok)); then rm -rf "$T"; else log "left $T in place"; fi
  exit "$rc"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

truncate -s "${image_gib}G" "$T/img"
LOOP=$(losetup -f --show "$T/img")
mkfs.btrfs -q -f "$LOOP" >/dev/null
mkdir -p "$MNT"
mount -o noatime "$LOOP" "$MNT"
holes=without
btrfs inspect-internal dump-super "$LOOP" | grep -q NO_HOLES && holes=NO_HOLES
[[ $holes == NO_HOLES ]] || log "warning: this mkfs.btrfs did not turn NO_HOLES on"

# ---- the files --------------------------------------------------------------------

# files.py make DIR sparse|filled: mem and rootfs.img of a template.
# files.py dirty FILE NPAGES SEED: NPAGES random 4 KiB pages rewritten with
# random bytes at random page offsets, then fsync (a guest's dirtied RAM or
# disk blocks once written back).
cat > "$T/files.py" <<'PY'
import os, random, sys

M, PG = 1 << 20, 4096
# (start MiB, length MiB) of the data; holes between
MEM = (256, [(0, 64), (80, 32), (128, 8), (160, 2), (192, 64)])
ROOTFS = (512, [(0, 24), (32, 1), (64, 48), (128, 1), (160, 96), (288, 1), (320, 32),
                (384, 1), (448, 1), (511, 1)])


def fill_holes(fd):
    """node/template.c fill_holes: every hole written with zeros, fsync."""
    zeros = bytes(1 << 16)
    size = os.fstat(fd).st_size
    off = 0
    while off < size:
        hole = os.lseek(fd, off, os.SEEK_HOLE)
        if hole >= size:
            break
        try:
            data = os.lseek(fd, hole, os.SEEK_DATA)
        except OSError:
            data = size  # ENXIO: a hole to the end
        off = hole
        while off < data:
            off += os.pwrite(fd, zeros[:min(len(zeros), data - off)], off)
    os.fsync(fd)


def lay(path, layout, seed, fill):
    size, regions = layout
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o644)
    os.ftruncate(fd, size * M)
    for k, (off, ln) in enumerate(regions):
        os.pwrite(fd, random.Random(seed * 1000 + k).randbytes(ln * M), off * M)
    os.fsync(fd)
    if fill:
        fill_holes(fd)
    os.close(fd)


def dirty(path, n, seed):
    rnd = random.Random(seed)
    fd = os.open(path, os.O_WRONLY)
    npg = os.fstat(fd).st_size // PG
    for _ in range(n):
        os.pwrite(fd, rnd.randbytes(PG), rnd.randrange(npg) * PG)
    os.fsync(fd)
    os.close(fd)


if sys.argv[1] == 'make':
    d, fill = sys.argv[2], sys.argv[3] == 'filled'
    lay(os.path.join(d, 'mem'), MEM, 1, fill)
    lay(os.path.join(d, 'rootfs.img'), ROOTFS, 2, fill)
else:
    dirty(sys.argv[2], int(sys.argv[3]), int(sys.argv[4]))
PY

now_ms() { local t=${EPOCHREALTIME/[.,]/}; echo $((t / 1000)); }
mib() { awk -v b="$1" 'BEGIN { printf (b >= 100 * 1048576 ? "%.1f" : "%.2f"), b / 1048576 }'; }
extents() { filefrag "$1" | sed 's/.*: \([0-9]*\) extents\{0,1\} found/\1/'; }
alloc() { du -B1 "$@" | awk '{ s += $1 } END { print s + 0 }'; } # blocks the files' extents take

declare -A TPL_EXT TPL_ALLOC
for v in "${VARIANTS[@]}"; do
  mkdir -p "$MNT/$v/sandboxes" "$MNT/$v/generations"
  btrfs subvolume create "$MNT/$v/template" >/dev/null
  python3 "$T/files.py" make "$MNT/$v/template" "$v"
  btrfs property set -ts "$MNT/$v/template" ro true
  TPL_EXT[$v]="mem $(extents "$MNT/$v/template/mem"), rootfs.img $(extents "$MNT/$v/template/rootfs.img")"
  TPL_ALLOC[$v]=$(alloc "$MNT/$v/template/mem" "$MNT/$v/template/rootfs.img")
  log "template $v: ${TPL_EXT[$v]} extents, $(mib "${TPL_ALLOC[$v]}") MiB allocated"
done
btrfs filesystem sync "$MNT" >/dev/null

# ---- the sandboxes ----------------------------------------------------------------

shown() { # the i of the table
  local i=$1
  ((i == 1 || i == 10 || i == 15 || i == 20 || i % 10 == 0 || i == n))
}

declare -A BYTES MS
load_start=$(cut -d' ' -f1-3 /proc/loadavg)
t_start=$(now_ms)
for ((i = 1; i <= n; i++)); do
  for v in "${VARIANTS[@]}"; do
    tpl=$MNT/$v/template sb=$MNT/$v/sandboxes/$i gen=$MNT/$v/generations/$i
    btrfs subvolume snapshot "$tpl" "$sb" >/dev/null
    python3 "$T/files.py" dirty "$sb/mem" "$MEM_PAGES" "$i"
    python3 "$T/files.py" dirty "$sb/rootfs.img" "$ROOTFS_PAGES" $((i + 100000))
    btrfs filesystem sync "$MNT" >/dev/null
    btrfs subvolume snapshot -r "$sb" "$gen" >/dev/null
    t0=$(now_ms)
    b=$(btrfs send -q -p "$tpl" "$gen" | wc -c)
    MS[$v,$i]=$(($(now_ms) - t0))
    BYTES[$v,$i]=$b
    if [[ -n $check_ioctl ]] && shown "$i"; then
      c=$("$check_ioctl" "$gen" "$tpl" pc)
      [[ $c == "$b" ]] || die "i=$i $v: btrfs send -p gave $b bytes, $check_ioctl $c"
    fi
  done
  if ((i % 10 == 0)); then
    log "i=$i: sparse $(mib "${BYTES[sparse,$i]}") MiB, filled $(mib "${BYTES[filled,$i]}") MiB"
  fi
done
t_total=$((($(now_ms) - t_start) / 1000))
load_end=$(cut -d' ' -f1-3 /proc/loadavg)

# the commands of the last stream: "write K (X MiB), clone L (Y MiB)"
commands() {
  btrfs send -q -p "$1" "$2" | btrfs receive --dump 2>/dev/null | awk '
    $1 == "write" || $1 == "clone" {
      c[$1]++
      for (k = 2; k <= NF; k++) if ($k ~ /^len=/) { sub(/len=/, "", $k); b[$1] += $k }
    }
    END { printf "write %d (%.2f MiB), clone %d (%.2f MiB)", c["write"], b["write"] / 1048576,
                  c["clone"], b["clone"] / 1048576 }'
}
declare -A LAST DISK
for v in "${VARIANTS[@]}"; do
  LAST[$v]=$(commands "$MNT/$v/template" "$MNT/$v/generations/$n")
done
btrfs filesystem sync "$MNT" >/dev/null
for v in "${VARIANTS[@]}"; do
  # disk the variant's template, sandboxes and generations take: exclusive
  # + shared (each extent once), btrfs filesystem du over its subvolumes
  DISK[$v]=$(btrfs filesystem du -s --raw "$MNT/$v" | awk 'NR == 2 { print $2 + $3 }')
done

# ---- the table --------------------------------------------------------------------

col() { local v=$1 i; for ((i = 1; i <= n; i++)); do echo "${BYTES[$v,$i]}"; done; }
declare -A MED MAX
for v in "${VARIANTS[@]}"; do
  MED[$v]=$(col "$v" | pct 0.5)
  MAX[$v]=$(col "$v" | maxof)
done
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.1f", b ? a / b : 0 }'; }
first2x=-
for ((i = 1; i <= n; i++)); do
  if ((BYTES[sparse,$i] > 2 * BYTES[filled,$i])); then first2x=$i; break; fi
done

echo
echo "btrfs send -p TEMPLATE GENERATION (parent and clone source: the template) of sandbox i's"
echo "generation, after i sandboxes were made from the template (each: $MEM_PAGES random pages of"
echo "mem and $ROOTFS_PAGES of rootfs.img rewritten); template with holes beside the same template"
echo "with its holes written with zeros; kernel $(uname -r), $(btrfs --version | head -1),"
echo "fs $holes, $n sandboxes per template, ${t_total} s; load average $load_start at start,"
echo "$load_end at end"
echo
echo "| i | sparse (holes) | send ms | filled (zeros) | send ms | sparse / filled |"
echo "|---|---|---|---|---|---|"
for ((i = 1; i <= n; i++)); do
  shown "$i" || continue
  printf '| %d | %s MiB | %d | %s MiB | %d | %s |\n' "$i" "$(mib "${BYTES[sparse,$i]}")" \
    "${MS[sparse,$i]}" "$(mib "${BYTES[filled,$i]}")" "${MS[filled,$i]}" \
    "$(ratio "${BYTES[sparse,$i]}" "${BYTES[filled,$i]}")"
done
echo
echo "| over i = 1..$n | sparse (holes) | filled (zeros) | sparse / filled |"
echo "|---|---|---|---|"
printf '| median stream | %s MiB | %s MiB | %s |\n' "$(mib "${MED[sparse]}")" "$(mib "${MED[filled]}")" \
  "$(ratio "${MED[sparse]}" "${MED[filled]}")"
printf '| max stream | %s MiB | %s MiB | %s |\n' "$(mib "${MAX[sparse]}")" "$(mib "${MAX[filled]}")" \
  "$(ratio "${MAX[sparse]}" "${MAX[filled]}")"
printf '| stream %d: commands | %s | %s | |\n' "$n" "${LAST[sparse]}" "${LAST[filled]}"
printf '| template extents | %s | %s | |\n' "${TPL_EXT[sparse]}" "${TPL_EXT[filled]}"
printf '| template mem + rootfs.img allocated | %s MiB | %s MiB | %s |\n' "$(mib "${TPL_ALLOC[sparse]}")" \
  "$(mib "${TPL_ALLOC[filled]}")" "$(ratio "${TPL_ALLOC[sparse]}" "${TPL_ALLOC[filled]}")"
printf '| disk: template + %d sandboxes + %d generations | %s MiB | %s MiB | %s |\n' "$n" "$n" \
  "$(mib "${DISK[sparse]}")" "$(mib "${DISK[filled]}")" "$(ratio "${DISK[sparse]}" "${DISK[filled]}")"
echo
echo "first i where the sparse stream is more than twice the filled one: $first2x"
echo "median: nearest rank over the $n generations. send ms: wall time of the send into wc -c"
echo "(depends on what else runs). disk: btrfs filesystem du -s (exclusive + set shared)."

# ---- JSON -------------------------------------------------------------------------

arr() { local -n a=$2; local i; for ((i = 1; i <= n; i++)); do echo "${a[$1,$i]}"; done | jq -cs .; }
mkdir -p "$(dirname "$json_out")"
jq -n --arg kernel "$(uname -r)" --arg progs "$(btrfs --version | head -1)" --arg fs "$holes" \
  --argjson n "$n" --argjson mp "$MEM_PAGES" --argjson rp "$ROOTFS_PAGES" \
  --argjson sb "$(arr sparse BYTES)" --argjson sm "$(arr sparse MS)" \
  --argjson fb "$(arr filled BYTES)" --argjson fm "$(arr filled MS)" \
  --argjson sta "${TPL_ALLOC[sparse]}" --argjson fta "${TPL_ALLOC[filled]}" \
  --argjson sd "${DISK[sparse]}" --argjson fd "${DISK[filled]}" \
  --argjson smed "${MED[sparse]}" --argjson fmed "${MED[filled]}" \
  --argjson smax "${MAX[sparse]}" --argjson fmax "${MAX[filled]}" \
  --arg slast "${LAST[sparse]}" --arg flast "${LAST[filled]}" --arg first2x "$first2x" \
  --argjson secs "$t_total" --arg load0 "$load_start" --arg load1 "$load_end" '{
    kernel: $kernel, btrfs_progs: $progs, fs: $fs, sandboxes: $n, seconds: $secs,
    load_start: $load0, load_end: $load1,
    mem_mib: 256, rootfs_mib: 512, dirty_pages: {mem: $mp, rootfs: $rp},
    first_i_sparse_over_2x: (if $first2x == "-" then null else ($first2x | tonumber) end),
    variants: {
      sparse: {stream_bytes: $sb, send_ms: $sm, median_bytes: $smed, max_bytes: $smax,
               last_stream: $slast, template_alloc_bytes: $sta, disk_bytes: $sd},
      filled: {stream_bytes: $fb, send_ms: $fm, median_bytes: $fmed, max_bytes: $fmax,
               last_stream: $flast, template_alloc_bytes: $fta, disk_bytes: $fd}},
    ratio_median: ($smed / $fmed), ratio_max: ($smax / $fmax)}' > "$json_out"
log "JSON: $json_out"
