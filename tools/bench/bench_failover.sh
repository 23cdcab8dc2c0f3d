#!/usr/bin/env bash
# bench_failover: how soon a running sandbox answers again after its
# owner's host dies (DESIGN §9 "Failover", issue 14), on real hangards and
# real VMs, with no call from anyone but the exec that measures it.
#
#   tools/bench/bench_failover.sh [--rounds R] [--lease-ms LIST] [--json FILE]
#                                 [--prefix P] [--subnet A.B.C]
#   env: BUILD (build dir, default <repo>/build),
#        HANGAR_TEMPLATE_DIR (mkimage output, default /var/cache/hangar/test-template)
#
# For each lease length T in LIST (default "1000,3000"; 3000 is hangard's
# default; the margin is 500 ms, or T/4 when that is less: 250 ms at 1000): `tools/cluster up 3` (local gossip
# profile, no warm pool), then R rounds (default 5):
#   1. a sandbox with three copies, suspended and resumed once on its owner
#      (its state in a replicated generation, its VM running);
#   2. baseline: one plain exec (`true`, ?wait) through a survivor,
#      forwarded to the owner;
#   3. `tools/cluster crash` of the owner (hangard, shims, VMs SIGKILLed);
#      the clock starts just before it;
#   4. an exec through a survivor, tried every 100 ms (each try bounded by
#      5 s), until one answers with exit code 0: time-to-answer;
#   5. the owner starts again, the cluster converges, the sandbox is deleted.
# Prints p50/p90/max of each per T, and JSON to FILE.
#
# Needs root (network namespaces, loop mounts, VMs), curl, jq. Whatever
# happens, the cluster is brought down on exit.
set -euo pipefail

BENCH=bench_failover
# shellcheck source=tools/bench/lib.sh
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
json_out=$here/results/bench_failover.json
rounds=5
leases=1000,3000
prefix=hgfail
subnet=10.251.93
ANSWER_WAIT_MS=120000

usage() {
  sed -n '6,9p' "$0" | sed 's/^# \{0,1\}//' >&2
  exit 2
}
while (($#)); do
  case $1 in
  --rounds) rounds=${2:?}; shift 2 ;;
  --lease-ms) leases=${2:?}; shift 2 ;;
  --json) json_out=${2:?}; shift 2 ;;
  --prefix) prefix=${2:?}; shift 2 ;;
  --subnet) subnet=${2:?}; shift 2 ;;
  -h | --help) usage ;;
  *) echo "bench_failover: unknown argument $1" >&2; usage ;;
  esac
done
[[ $rounds =~ ^[1-9][0-9]*$ ]] || usage
[[ $leases =~ ^[1-9][0-9]*(,[1-9][0-9]*)*$ ]] || usage

bench_need root cluster hangard template curl jq
bench_cluster_tmp failover

now_ms() { local t=${EPOCHREALTIME/[.,]/}; echo $((t / 1000)); }

exec_ok() { # exec_ok I SB MAXTIME: 0 when `true` ran through node I
  [[ $(api "$1" POST "/v1/sandboxes/$2/commands?wait=10" '{"cmd":["true"]}' "$3") == 20[01] ]] &&
    [[ $(jq -r .exit_code "$T/resp" 2>/dev/null) == 0 ]]
}

results='[]'
IFS=, read -r -a lease_list <<< "$leases"
for lease in "${lease_list[@]}"; do
  margin=$((lease / 4 < 500 ? lease / 4 : 500)) # hangard: at most a quarter of T
  log "up 3 nodes, lease ${lease}/${margin} ms, local gossip profile"
  bench_up 3 -- --lease-ms "$lease" --lease-margin-ms "$margin"
  base=() fail=()
  for ((r = 1; r <= rounds; r++)); do
    [[ $(api 1 POST '/v1/sandboxes?wait=300' '{"replicas":3}') == 201 ]] ||
      die "create: $(head -c 300 "$T/resp")"
    sb=$(jq -r .id "$T/resp")
    owner=$(jq -r .node "$T/resp" | tr -dc 0-9)
    [[ $(api "$owner" POST "/v1/sandboxes/$sb/suspend?wait=300") == 200 ]] || die "suspend: $(head -c 300 "$T/resp")"
    [[ $(api "$owner" POST "/v1/sandboxes/$sb/resume?wait=300&node=n$owner") == 200 ]] ||
      die "resume: $(head -c 300 "$T/resp")"
    via=$((owner % 3 + 1))
    t0=$(now_ms)
    exec_ok "$via" "$sb" 60 || die "baseline exec: $(head -c 300 "$T/resp")"
    base+=($(($(now_ms) - t0)))
    t0=$(now_ms)
    cluster crash "$owner" >&2
    until exec_ok "$via" "$sb" 5; do
      (($(now_ms) - t0 < ANSWER_WAIT_MS)) || die "no answer after the crash of n$owner"
      sleep 0.1
    done
    fail+=($(($(now_ms) - t0)))
    log "lease $lease round $r: n$owner crashed; $sb answered through n$via after ${fail[-1]} ms (baseline ${base[-1]} ms)"
    cluster start "$owner" >&2
    for ((w = 0; w < 600; w++)); do converged && break; sleep 0.2; done
    api "$via" DELETE "/v1/sandboxes/$sb?wait=300" > /dev/null
  done
  b50=$(printf '%s\n' "${base[@]}" | pct 0.5) b90=$(printf '%s\n' "${base[@]}" | pct 0.9)
  f50=$(printf '%s\n' "${fail[@]}" | pct 0.5) f90=$(printf '%s\n' "${fail[@]}" | pct 0.9)
  fmax=$(printf '%s\n' "${fail[@]}" | sort -g | tail -1)
  printf 'lease %5d/%d ms: crash -> exec answers on a survivor p50 %6d ms p90 %6d ms max %6d ms | plain exec p50 %4d ms p90 %4d ms (%d runs)\n' \
    "$lease" "$margin" "$f50" "$f90" "$fmax" "$b50" "$b90" "$rounds"
  results=$(jq -c --argjson l "$lease" --argjson f "$(printf '%s\n' "${fail[@]}" | jq -s .)" \
    --argjson b "$(printf '%s\n' "${base[@]}" | jq -s .)" \
    --argjson m "$margin" '. + [{lease_ms: $l, margin_ms: $m, failover_ms: $f, exec_ms: $b}]' <<< "$results")
  "$CLUSTER" down --dir "$DIR" --prefix "$prefix" >&2
  UP=0
done
mkdir -p "$(dirname "$json_out")"
jq . <<< "$results" > "$json_out"
