#!/usr/bin/env bash
# bench_checkpoint: what a checkpoint of a running sandbox costs (DESIGN §9,
# issue 14): how long the guest stands still, and how many bytes one
# increment sends, against a suspend of the same guest measured in the same
# run (the baseline: the other way to get a replicated generation).
#
#   tools/bench/bench_checkpoint.sh [--rounds R] [--work-s S] [--json FILE]
#                                   [--prefix P] [--subnet A.B.C]
#   env: BUILD (build dir, default <repo>/build),
#        HANGAR_TEMPLATE_DIR (mkimage output, default /var/cache/hangar/test-template)
#
# `tools/cluster up 3` (local gossip profile, no warm pool), one sandbox of
# the template (its guest memory: the template's, 256 MiB for the test
# template) created on n1 with two copies (n1's and one peer's) and no
# checkpoint timer: every checkpoint here is a POST …/checkpoint?wait.
#   1. idle: R checkpoints of the idle guest; pause_ms of each (the
#      manager's own clock: QMP stop -> device state saved, memory fsynced,
#      subvolume snapshotted -> QMP cont).
#   2. working: a guest process rewrites 8 MiB of random data in a tmpfs
#      file and bumps a counter, without pause; R checkpoints while it runs.
#   3. increment: R times, a checkpoint, S s of that work (default 5), a
#      checkpoint: the second one's stream to the peer (raw: the btrfs send
#      stream; zstd: what went on the wire), parent = the first.
#   4. baseline, R times: S s of the same work, then a suspend (replicated,
#      the same peer): its stream's bytes, and how long the sandbox did not
#      run: the suspend operation plus the resume that follows (the API's
#      ?wait times, client side), beside the suspend's own save alone.
#
# Needs root (network namespaces, loop mounts, VMs), curl, jq. Whatever
# happens, the cluster is brought down on exit.
set -euo pipefail

BENCH=bench_checkpoint
# shellcheck source=tools/bench/lib.sh
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
json_out=$here/results/bench_checkpoint.json
rounds=10
work_s=5
prefix=hgckpt
subnet=10.251.94

usage() {
  sed -n '7,10p' "$0" | sed 's/^# \{0,1\}//' >&2
  exit 2
}
while (($#)); do
  case $1 in
  --rounds) rounds=${2:?}; shift 2 ;;
  --work-s) work_s=${2:?}; shift 2 ;;
  --json) json_out=${2:?}; shift 2 ;;
  --prefix) prefix=${2:?}; shift 2 ;;
  --subnet) subnet=${2:?}; shift 2 ;;
  -h | --help) usage ;;
  *) echo "bench_checkpoint: unknown argument $1" >&2; usage ;;
  esac
done
bench_positive "$rounds" "$work_s"

bench_need root cluster hangard template curl jq
bench_cluster_tmp ckpt

now_ms() { local t=${EPOCHREALTIME/[.,]/}; echo $((t / 1000)); }
PCT_FORMAT=%.1f
arr() { printf '%s\n' "$@" | jq -cs .; }

# ---- up, and the sandbox ----------------------------------------------------------

load_start=$(cut -d' ' -f1-3 /proc/loadavg)
log "up 3 nodes (prefix $prefix, subnet $subnet.0/24, template $TEMPLATE_DIR)"
bench_up 3

[[ $(api 1 POST '/v1/sandboxes?wait=300' '{"replicas": 2, "checkpoint_s": 0}') == 201 ]] ||
  die "create on n1: $(head -c 400 "$T/resp")"
SB=$(jq -r .id "$T/resp")
MEM=$(jq -r .memory_mib "$T/resp")
[[ $(jq -r .node "$T/resp") == n1 ]] || die "sandbox $SB was made on $(jq -r .node "$T/resp"), not n1"
log "sandbox $SB on n1, $MEM MiB"

# checkpoint: one through the API; PAUSE, RAW, ZSTD of it (the first peer's stream)
PAUSE=0 RAW=0 ZSTD=0 PARENT=''
checkpoint() {
  local st
  for ((i = 0; i < 50; i++)); do
    st=$(api 1 POST "/v1/sandboxes/$SB/checkpoint?wait=300")
    [[ $st == 409 ]] || break
    sleep 0.2
  done
  [[ $st == 200 ]] || die "checkpoint: $st $(head -c 400 "$T/resp")"
  PAUSE=$(jq -r .result.pause_ms "$T/resp")
  RAW=$(jq -r '.result.replication.peers[0].raw_bytes // 0' "$T/resp")
  ZSTD=$(jq -r '.result.replication.peers[0].zstd_bytes // 0' "$T/resp")
  PARENT=$(jq -r '.result.replication.peers[0].parent // ""' "$T/resp")
  jq -e '.result.replication.acked >= 1' "$T/resp" >/dev/null ||
    die "checkpoint not acknowledged: $(head -c 400 "$T/resp")"
}

WORKER=''
work_start() { # a guest process that keeps rewriting 8 MiB of memory
  local cmd='d=/dev/shm; [ -d $d ] || d=/tmp; i=0; while :; do i=$((i+1)); '
  cmd+='dd if=/dev/urandom of=$d/work bs=64k count=128 2>/dev/null; echo $i > $d/count; done'
  [[ $(api 1 POST "/v1/sandboxes/$SB/commands" "$(jq -cn --arg c "$cmd" '{cmd: ["sh", "-c", $c]}')") == 201 ]] ||
    die "start the work: $(head -c 400 "$T/resp")"
  WORKER=$(jq -r .id "$T/resp")
}
work_stop() {
  [[ -n $WORKER ]] || return 0
  api 1 POST "/v1/sandboxes/$SB/commands/$WORKER/signal" '{"signal": 9}' >/dev/null || true
  WORKER=''
}

# ---- 1, 2: pauses ------------------------------------------------------------------------

idle=()
checkpoint # the first against the template: not counted
for ((r = 0; r < rounds; r++)); do
  sleep 0.5
  checkpoint
  idle+=("$PAUSE")
done
log "idle pauses (ms): ${idle[*]}"

work_start
sleep 2
busy=()
for ((r = 0; r < rounds; r++)); do
  sleep 0.5
  checkpoint
  busy+=("$PAUSE")
done
log "working pauses (ms): ${busy[*]}"

# ---- 3: the increment after S s of work ---------------------------------------------------

inc_raw=() inc_zstd=() inc_pause=()
for ((r = 0; r < rounds && r < 5; r++)); do
  checkpoint
  sleep "$work_s"
  checkpoint
  [[ $PARENT == gen* ]] || die "increment against '$PARENT', not the previous gen"
  inc_raw+=("$RAW") inc_zstd+=("$ZSTD") inc_pause+=("$PAUSE")
done
log "increments after ${work_s} s of work: raw ${inc_raw[*]}, zstd ${inc_zstd[*]}"

# ---- 4: the suspend of the same guest -----------------------------------------------------

sus_raw=() sus_zstd=() sus_ms=() res_ms=() down_ms=() save_ms=()
for ((r = 0; r < rounds && r < 5; r++)); do
  sleep "$work_s"
  t0=$(now_ms)
  st=$(api 1 POST "/v1/sandboxes/$SB/suspend?wait=300")
  t1=$(now_ms)
  [[ $st == 200 ]] || die "suspend: $st $(head -c 400 "$T/resp")"
  sus_raw+=("$(jq -r '.result.replication.peers[0].raw_bytes // 0' "$T/resp")")
  sus_zstd+=("$(jq -r '.result.replication.peers[0].zstd_bytes // 0' "$T/resp")")
  repl=$(jq -r '.result.replication.ms // 0' "$T/resp")
  st=$(api 1 POST "/v1/sandboxes/$SB/resume?wait=300")
  t2=$(now_ms)
  [[ $st == 200 ]] || die "resume: $st $(head -c 400 "$T/resp")"
  sus_ms+=($((t1 - t0))) res_ms+=($((t2 - t1))) down_ms+=($((t2 - t0)))
  save_ms+=("$(awk -v a=$((t1 - t0)) -v b="$repl" 'BEGIN { printf "%.0f", a - b }')")
done  # the work goes on after each resume: the guest's memory came back
work_stop
log "suspends: down ${down_ms[*]} ms; raw ${sus_raw[*]}, zstd ${sus_zstd[*]}"
load_end=$(cut -d' ' -f1-3 /proc/loadavg)
api 1 DELETE "/v1/sandboxes/$SB?wait=120" >/dev/null || true

# ---- report --------------------------------------------------------------------------------

p() { printf '%s\n' "${@:2}" | pct "$1"; }
mib() { awk -v b="$1" 'BEGIN { printf "%.2f MiB", b / 1048576 }'; }
i50=$(p 0.5 "${idle[@]}") i90=$(p 0.9 "${idle[@]}")
b50=$(p 0.5 "${busy[@]}") b90=$(p 0.9 "${busy[@]}")
ir50=$(p 0.5 "${inc_raw[@]}") iz50=$(p 0.5 "${inc_zstd[@]}")
sr50=$(p 0.5 "${sus_raw[@]}") sz50=$(p 0.5 "${sus_zstd[@]}")
d50=$(p 0.5 "${down_ms[@]}") d90=$(p 0.9 "${down_ms[@]}")
s50=$(p 0.5 "${sus_ms[@]}") r50=$(p 0.5 "${res_ms[@]}") v50=$(p 0.5 "${save_ms[@]}")

echo
echo "Checkpoint of a running $MEM MiB guest beside a suspend of the same guest"
echo "(3 hangards, 2 copies: n1's and one peer's; $rounds checkpoints idle and $rounds working;"
echo " ${#inc_raw[@]} increments and ${#sus_raw[@]} suspends after ${work_s} s of work; load average"
echo " $load_start at start, $load_end at end)"
echo
echo "| measure | p50 | p90 | baseline (suspend, same run) |"
echo "|---|---|---|---|"
printf '| guest stood still, idle | %s ms | %s ms | suspend + resume: p50 %s ms, p90 %s ms (target <= 100 ms: %s) |\n' \
  "$i50" "$i90" "${d50%.0}" "${d90%.0}" "$(awk -v a="$i50" 'BEGIN { print (a <= 100) ? "yes" : "no" }')"
printf '| guest stood still, working | %s ms | %s ms | suspend %s ms (of which save, before the copy, ~%s ms) + resume %s ms |\n' \
  "$b50" "$b90" "${s50%.0}" "${v50%.0}" "${r50%.0}"
printf '| increment after %s s of work, raw (send stream) | %s | | suspend after %s s: %s |\n' \
  "$work_s" "$(mib "$ir50")" "$work_s" "$(mib "$sr50")"
printf '| increment after %s s of work, zstd (on the wire) | %s | | suspend after %s s: %s |\n' \
  "$work_s" "$(mib "$iz50")" "$work_s" "$(mib "$sz50")"
echo
echo "pause: the manager's pause_ms (QMP stop until cont returned: device state saved, guest"
echo "memory fsynced, subvolume snapshotted), as POST …/checkpoint reports it. The work: a guest"
echo "loop rewriting 8 MiB of /dev/urandom into a tmpfs file. Suspend + resume: the API's ?wait"
echo "times from the client, the VM gone in between; save: the suspend less its copy's ms."

mkdir -p "$(dirname "$json_out")"
jq -n --argjson rounds "$rounds" --argjson work_s "$work_s" --argjson mem "$MEM" \
  --arg load_start "$load_start" --arg load_end "$load_end" \
  --argjson idle "$(arr "${idle[@]}")" --argjson busy "$(arr "${busy[@]}")" \
  --argjson inc_raw "$(arr "${inc_raw[@]}")" --argjson inc_zstd "$(arr "${inc_zstd[@]}")" \
  --argjson sus_raw "$(arr "${sus_raw[@]}")" --argjson sus_zstd "$(arr "${sus_zstd[@]}")" \
  --argjson sus_ms "$(arr "${sus_ms[@]}")" --argjson res_ms "$(arr "${res_ms[@]}")" \
  --argjson down_ms "$(arr "${down_ms[@]}")" \
  '{bench: "checkpoint", nodes: 3, memory_mib: $mem, rounds: $rounds, work_s: $work_s,
    loadavg_start: $load_start, loadavg_end: $load_end,
    pause_idle_ms: $idle, pause_working_ms: $busy,
    increment: {raw_bytes: $inc_raw, zstd_bytes: $inc_zstd},
    baseline_suspend: {raw_bytes: $sus_raw, zstd_bytes: $sus_zstd, suspend_ms: $sus_ms,
      resume_ms: $res_ms, down_ms: $down_ms}}' >"$json_out"
log "wrote $json_out"
