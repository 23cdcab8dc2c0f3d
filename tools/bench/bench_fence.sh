#!/usr/bin/env bash
# bench_fence: how soon a sandbox's VM stops once its owner is cut off from
# the majority of its lease group, and how soon it runs again after the
# partition heals (DESIGN §9, issue 13), on real hangards and a real VM.
#
#   tools/bench/bench_fence.sh [--rounds R] [--claims K] [--json FILE] [--prefix P]
#                              [--subnet A.B.C] [--lease-ms T] [--margin-ms M]
#   env: BUILD (build dir, default <repo>/build),
#        HANGAR_TEMPLATE_DIR (mkimage output, default /var/cache/hangar/test-template)
#
# `tools/cluster up 3` (local gossip profile, no warm pool, the template on
# n1, which replicates it to the others), one sandbox created on n1 through
# the API (its lease group is n1, n2, n3). First K more creates on n1
# (default 10), each deleted after: the claim of each new sandbox's lease
# in a group of three over the cluster's own transport (sealed UDP between
# namespaces, every acceptor's promise fsynced), as n1's "lease.taken"
# line times it (wait_ms: whole ms). Then R rounds (default 5):
#   1. after a random 1-2 s (so the cut lands anywhere in the renewal
#      cycle, T/3), cut n1 off from n2 (`tools/cluster partition 1 2`),
#      then from n3: n1 then has no majority. The second cut adds n3 to the
#      drop set tools/cluster made in n1's namespace (n1's input and
#      output) through an nft started beforehand and waiting for the end of
#      its input (nft applies a file as one transaction at EOF): closing it
#      applies the cut without a process start in between, a few ms where
#      nsenter + nft took ~100 ms on two busy cores. The clock starts when
#      that nft exited; how long it took after the close is the clock's
#      uncertainty. `tools/cluster partition 1 3` then adds n3's side.
#   2. time-to-fence: until the VMM's /proc/<pid>/stat reads 'T' (the
#      shim's SIGSTOP), polled every 5 ms with no process started per poll
#      (the pid from <node>/data/sandboxes/<id>/shim.json, "vmm_pid").
#      Bound: T - margin (the lease runs to the send time of the last
#      round a majority granted + T - margin, and that round went out
#      before the cut); the issue's target: <= T - margin + 50 ms.
#   3. late_ms of the shim's own "shim.fenced" line in the sandbox's
#      shim.log: deadline to SIGSTOP on the shim's clock (target <= 50 ms).
#   4. time-to-unfence: after a random 0-1 s (the renewal rounds keep the
#      phase of the lease, so without it every heal would land at the same
#      point of the renewal period, a fixed delay after the fence, and
#      every round would measure the same wait), the n1-n3 link healed the
#      same way (both sides' elements deleted by two waiting nfts at once),
#      from their exit until
#      the VMM no longer reads 'T' (same pid: the same VM goes on); then
#      `tools/cluster heal` lifts the rest.
#   5. every node lists every node alive again, and the sandbox answers an
#      exec (`echo`) through n1.
#
# Needs root (network namespaces, loop mounts, VMs), curl, jq. Whatever
# happens, the cluster is brought down on exit (tools/cluster down: its
# hangards, shims, VMs, mounts and namespaces).
set -euo pipefail

BENCH=bench_fence
# shellcheck source=tools/bench/lib.sh
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
PART_TABLE=hangar_partition # the nft table `tools/cluster partition` keeps in each namespace
json_out=$here/results/bench_fence.json
rounds=5
claims=10
prefix=hgfence
subnet=10.251.92
lease_ms=3000
margin_ms=500
POLL_S=0.005
TARGET_SLACK_MS=50 # issue 13: fenced within T - margin + 50 ms; shim late <= 50 ms
FENCE_WAIT_MS=30000
UNFENCE_WAIT_MS=60000

usage() {
  sed -n '6,9p' "$0" | sed 's/^# \{0,1\}//' >&2
  exit 2
}
while (($#)); do
  case $1 in
  --rounds) rounds=${2:?}; shift 2 ;;
  --claims) claims=${2:?}; shift 2 ;;
  --json) json_out=${2:?}; shift 2 ;;
  --prefix) prefix=${2:?}; shift 2 ;;
  --subnet) subnet=${2:?}; shift 2 ;;
  --lease-ms) lease_ms=${2:?}; shift 2 ;;
  --margin-ms) margin_ms=${2:?}; shift 2 ;;
  -h | --help) usage ;;
  *) echo "bench_fence: unknown argument $1" >&2; usage ;;
  esac
done
bench_positive "$rounds" "$claims" "$lease_ms" "$margin_ms"

bench_need root cluster hangard template curl jq nft

# ---- the cluster and cleanup -----------------------------------------------------

bench_cluster_tmp fence

NOW=0
now_ms() { # NOW = ms from bash's own clock: no process, no subshell per reading
  local t=${EPOCHREALTIME/[.,]/}
  NOW=$((t / 1000))
}
exec {NAP_FD}<> <(:)
nap() { read -r -t "$1" -u "$NAP_FD" _ || true; }

# STATE = the state letter of /proc/$1/stat ("" when the process is gone);
# a read and two expansions, no process started.
STATE=''
proc_state() {
  local s=''
  STATE=''
  { read -r s <"/proc/$1/stat"; } 2>/dev/null || return 0
  s=${s##*) } # after the last ')': comm may hold anything
  STATE=${s%% *}
}


# nft_arm NS RULE: an nft in namespace NS with RULE as its input, still
# open; nft_fire closes every armed input and waits: nft applies its input
# as one transaction at EOF, so nothing but the transaction lies between
# the close and the exit.
ARMED_FD=() ARMED_PID=()
nft_arm() {
  local fd
  exec {fd}> >(exec nsenter --net="/run/netns/$1" nft -f -)
  ARMED_PID+=($!)
  ARMED_FD+=("$fd")
  printf '%s\n' "$2" >&"$fd"
}
nft_fire() { # 1 when an nft failed
  local fd p rc=0
  for fd in "${ARMED_FD[@]}"; do exec {fd}>&-; done
  for p in "${ARMED_PID[@]}"; do wait "$p" || rc=1; done
  ARMED_FD=() ARMED_PID=()
  return "$rc"
}


# ---- up, and the sandbox ----------------------------------------------------------

load_start=$(cut -d' ' -f1-3 /proc/loadavg)
log "up 3 nodes (prefix $prefix, subnet $subnet.0/24, template $TEMPLATE_DIR, lease ${lease_ms}/${margin_ms} ms)"
# anything an interrupted run left under this prefix
bench_up 3 -- --lease-ms "$lease_ms" --lease-margin-ms "$margin_ms"

[[ $(api 1 POST '/v1/sandboxes?wait=300' '{}') == 201 ]] || die "create on n1: $(head -c 400 "$T/resp")"
SB=$(jq -r .id "$T/resp")
[[ $(jq -r .node "$T/resp") == n1 ]] || die "sandbox $SB was made on $(jq -r .node "$T/resp"), not n1"
SBDIR=$DIR/n1/data/sandboxes/$SB
[[ $(api 1 GET "/v1/sandboxes/$SB") == 200 ]] || die "GET $SB"
group=$(jq -c '.group // null' "$T/resp")
[[ $(api 1 GET /v1/node) == 200 ]] || die "GET /v1/node on n1"
jq -e '.leases.held >= 1 and .leases.can_fail_over == true' "$T/resp" >/dev/null ||
  die "n1 holds no lease or cannot fail over: $(jq -c .leases "$T/resp")"
log "sandbox $SB on n1, lease group $group"

vmm_pid() { jq -er '.vmm_pid | select(. > 0)' "$SBDIR/shim.json"; }
fenced_lines() {
  local n
  n=$(grep -c 'shim\.fenced' "$SBDIR/shim.log" 2>/dev/null) || true
  echo "${n:-0}"
}

# ---- claims over the cluster's transport ----------------------------------------------

claim=()
for ((k = 0; k < claims; k++)); do
  [[ $(api 1 POST '/v1/sandboxes?wait=300' '{}') == 201 ]] || die "create $k on n1: $(head -c 400 "$T/resp")"
  id=$(jq -r .id "$T/resp")
  w=$(grep "event=lease.taken" "$DIR/n1/hangard.log" | grep "sandbox=$id " |
    sed -n 's/.* wait_ms=\([0-9]*\).*/\1/p' | tail -1)
  [[ -n $w ]] || die "no lease.taken line for $id in n1's log"
  claim+=("$w")
  [[ $(api 1 DELETE "/v1/sandboxes/$id?wait=120") == 200 ]] || die "delete $id"
done
log "claims of $claims new sandboxes (ms): ${claim[*]}"

# ---- rounds -------------------------------------------------------------------------

fence=() late=() unfence=() cut=() heal=()
for ((r = 1; r <= rounds; r++)); do
  pid=$(vmm_pid) || die "no vmm_pid in $SBDIR/shim.json"
  proc_state "$pid"
  [[ -n $STATE && $STATE != T ]] || die "round $r: VMM $pid is '$STATE' before the cut"
  seen=$(fenced_lines)
  nap "1.$(printf '%03d' $((RANDOM % 1000)))"

  cluster partition 1 2 >/dev/null || die "partition 1 2"
  nsenter --net="/run/netns/$prefix-n1" nft list set inet "$PART_TABLE" peers >/dev/null 2>&1 ||
    die "no nft set $PART_TABLE peers in n1's namespace (tools/cluster changed?)"
  nft_arm "$prefix-n1" "add element inet $PART_TABLE peers { $subnet.3 }"
  nap 0.3 # nsenter and nft start
  now_ms
  c0=$NOW
  nft_fire || die "cannot cut n1 from n3"
  now_ms
  t0=$NOW
  cut+=($((t0 - c0)))
  proc_state "$pid"
  [[ $STATE != T ]] || die "round $r: fenced before n1 was cut off (renewals were failing already?)"
  while :; do
    proc_state "$pid"
    [[ $STATE == T ]] && break
    [[ -n $STATE ]] || die "round $r: VMM $pid exited instead of stopping"
    now_ms
    ((NOW - t0 < FENCE_WAIT_MS)) || die "round $r: not fenced $FENCE_WAIT_MS ms after the cut"
    nap "$POLL_S"
  done
  now_ms
  fence+=($((NOW - t0)))
  cluster partition 1 3 >/dev/null || die "partition 1 3"

  # the shim's own line (written right after its SIGSTOP)
  for ((i = 0; i < 200; i++)); do
    (($(fenced_lines) > seen)) && break
    nap 0.01
  done
  line=$(grep 'shim\.fenced' "$SBDIR/shim.log" | tail -1)
  [[ $line =~ late_ms=(-?[0-9]+) ]] || die "round $r: no shim.fenced line with late_ms in $SBDIR/shim.log"
  late+=("${BASH_REMATCH[1]}")

  nap "0.$(printf '%03d' $((RANDOM % 1000)))"
  nft_arm "$prefix-n1" "delete element inet $PART_TABLE peers { $subnet.3 }"
  nft_arm "$prefix-n3" "delete element inet $PART_TABLE peers { $subnet.1 }"
  nap 0.3
  now_ms
  c0=$NOW
  nft_fire || die "cannot heal n1-n3"
  now_ms
  h0=$NOW
  heal+=($((h0 - c0)))
  while :; do
    proc_state "$pid"
    [[ $STATE != T ]] && break
    now_ms
    ((NOW - h0 < UNFENCE_WAIT_MS)) || die "round $r: still fenced $UNFENCE_WAIT_MS ms after the heal"
    nap "$POLL_S"
  done
  now_ms
  unfence+=($((NOW - h0)))
  [[ -n $STATE ]] || die "round $r: VMM $pid exited after the heal (the same VM should go on)"
  [[ $(vmm_pid) == "$pid" ]] || die "round $r: another VMM after the heal"
  cluster heal >/dev/null || die "heal"

  for ((i = 0; ; i++)); do
    converged && break
    ((i < 600)) || die "round $r: the cluster did not converge in 60 s after the heal"
    nap 0.1
  done
  [[ $(api 1 POST "/v1/sandboxes/$SB/commands?wait=60" '{"cmd":["echo","round '"$r"'"]}') =~ ^20[01]$ ]] ||
    die "round $r: exec after the heal: $(head -c 400 "$T/resp")"
  jq -e --arg o "round $r"$'\n' '.exited == true and .exit_code == 0 and .stdout == $o' "$T/resp" >/dev/null ||
    die "round $r: exec after the heal: $(head -c 400 "$T/resp")"
  log "round $r: fenced ${fence[-1]} ms after the cut (shim late ${late[-1]} ms), running again ${unfence[-1]} ms after the heal; exec ok"
done
load_end=$(cut -d' ' -f1-3 /proc/loadavg)
api 1 DELETE "/v1/sandboxes/$SB?wait=120" >/dev/null || true

# ---- report -------------------------------------------------------------------------

bound=$((lease_ms - margin_ms))
target=$((bound + TARGET_SLACK_MS))
f50=$(printf '%s\n' "${fence[@]}" | pct 0.5) f90=$(printf '%s\n' "${fence[@]}" | pct 0.9)
fmax=$(printf '%s\n' "${fence[@]}" | maxof)
l50=$(printf '%s\n' "${late[@]}" | pct 0.5) lmax=$(printf '%s\n' "${late[@]}" | maxof)
u50=$(printf '%s\n' "${unfence[@]}" | pct 0.5) u90=$(printf '%s\n' "${unfence[@]}" | pct 0.9)
umax=$(printf '%s\n' "${unfence[@]}" | maxof)
c50=$(printf '%s\n' "${cut[@]}" | pct 0.5) cmax=$(printf '%s\n' "${cut[@]}" | maxof)
h50=$(printf '%s\n' "${heal[@]}" | pct 0.5) hmax=$(printf '%s\n' "${heal[@]}" | maxof)
k50=$(printf '%s\n' "${claim[@]}" | pct 0.5) k90=$(printf '%s\n' "${claim[@]}" | pct 0.9)
kmax=$(printf '%s\n' "${claim[@]}" | maxof)
yn() { (($1)) && echo yes || echo no; }

echo
echo "Owner of a running sandbox cut off from both other members of its lease group"
echo "($rounds rounds, 3 hangards, --lease-ms $lease_ms --lease-margin-ms $margin_ms, VMM state polled every 5 ms;"
echo " load average $load_start at start, $load_end at end)"
echo
echo "| measure | p50 | p90 | max | beside |"
echo "|---|---|---|---|---|"
printf '| time-to-fence (cut -> VMM stopped) | %d ms | %d ms | %d ms | bound T - margin = %d ms; target max <= %d ms: %s |\n' \
  "$f50" "$f90" "$fmax" "$bound" "$target" "$(yn "fmax <= target")"
printf '| shim late_ms (deadline -> SIGSTOP) | %d ms | | %d ms | target <= %d ms: %s |\n' \
  "$l50" "$lmax" "$TARGET_SLACK_MS" "$(yn "lmax <= TARGET_SLACK_MS")"
printf '| time-to-unfence (heal -> VMM runs again) | %d ms | %d ms | %d ms | renewal period T/3 = %d ms |\n' \
  "$u50" "$u90" "$umax" $((lease_ms / 3))
printf '| claim of a new sandbox, group of 3 (%d creates) | %d ms | %d ms | %d ms | target p50 <= 5 ms: %s |\n' \
  "$claims" "$k50" "$k90" "$kmax" "$(yn "k50 <= 5")"
echo
echo "cut, heal: the clock starts when the nft transaction that completes the cut (n1 drops"
echo "n3) or the heal (n1 and n3 no longer drop each other) ended; from its start it took"
echo "p50 $c50 ms, max $cmax ms for the cut, p50 $h50 ms, max $hmax ms for the heal (the"
echo "clock's uncertainty). Every round the same VM ran on and answered an exec."
echo "claim: wait_ms of n1's lease.taken line for each of $claims creates (whole ms), the"
echo "claim of a new sandbox's lease in its group of three over sealed UDP, every acceptor's"
echo "promise fsynced before it answers; bench_lease times it without the transport."

mkdir -p "$(dirname "$json_out")"
jq -n --argjson rounds "$rounds" --argjson lease_ms "$lease_ms" --argjson margin_ms "$margin_ms" \
  --argjson bound "$bound" --argjson target "$target" --argjson late_target "$TARGET_SLACK_MS" \
  --arg load_start "$load_start" --arg load_end "$load_end" --argjson group "$group" \
  --argjson fence "$(printf '%s\n' "${fence[@]}" | jq -cs .)" \
  --argjson late "$(printf '%s\n' "${late[@]}" | jq -cs .)" \
  --argjson unfence "$(printf '%s\n' "${unfence[@]}" | jq -cs .)" \
  --argjson cut "$(printf '%s\n' "${cut[@]}" | jq -cs .)" \
  --argjson heal "$(printf '%s\n' "${heal[@]}" | jq -cs .)" \
  --argjson claim "$(printf '%s\n' "${claim[@]}" | jq -cs .)" \
  --argjson k50 "$k50" --argjson k90 "$k90" --argjson kmax "$kmax" \
  --argjson f50 "$f50" --argjson f90 "$f90" --argjson fmax "$fmax" \
  --argjson l50 "$l50" --argjson lmax "$lmax" \
  --argjson u50 "$u50" --argjson u90 "$u90" --argjson umax "$umax" \
  '{bench: "fence", nodes: 3, rounds: $rounds, lease_ms: $lease_ms, margin_ms: $margin_ms,
    group: $group, loadavg_start: $load_start, loadavg_end: $load_end,
    time_to_fence: {p50_ms: $f50, p90_ms: $f90, max_ms: $fmax, bound_ms: $bound,
      target_max_ms: $target, met: ($fmax <= $target), ms: $fence},
    shim_late: {p50_ms: $l50, max_ms: $lmax, target_ms: $late_target,
      met: ($lmax <= $late_target), ms: $late},
    time_to_unfence: {p50_ms: $u50, p90_ms: $u90, max_ms: $umax, ms: $unfence},
    claim: {p50_ms: $k50, p90_ms: $k90, max_ms: $kmax, target_p50_ms: 5, met: ($k50 <= 5),
      ms: $claim},
    cut_call_ms: $cut, heal_call_ms: $heal}' >"$json_out"
log "wrote $json_out"
