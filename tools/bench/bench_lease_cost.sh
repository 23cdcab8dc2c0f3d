#!/usr/bin/env bash
# bench_lease_cost: what a sandbox's lease (DESIGN §9) adds to create and
# to resume, beside the same requests on a hangard without leases, in one run.
#
#   tools/bench/bench_lease_cost.sh [--rounds N] [--json FILE]
#   env: BUILD (build dir, default <repo>/build),
#        HANGAR_TEMPLATE_DIR (mkimage output, default /var/cache/hangar/test-template)
#
# Two hangards side by side on this machine, alike but for one thing: "lease"
# as it runs in production, "none" with HANGAR_LEASES=off in its environment
# (tools/bench only: its VMs run unfenced). Each has its own temp data dir
# (its own btrfs loop image), its own port and admin key, the same template,
# and --pool-size 0, so every create restores a VM. Neither is in a cluster,
# so a lease's group is the node itself: the figures are the lease's local
# cost (claim with its fsynced promise, the shim's deadline set and moved),
# not the round trip to two peers a 3-node group adds (bench_lease measures
# a claim in a group of three, without the transport).
#
# One untimed warm-up of each, then N rounds (default 10), the order of the
# two alternating round by round (lease first in odd rounds): on one
# hangard, then the other,
#   POST /v1/sandboxes?wait        create, until the VM runs
#   POST …/suspend?wait            (gives the lease back)
#   POST …/resume?wait             until the VM runs again
#   POST …/commands?wait `true`    untimed: it runs
#   DELETE …?wait                  untimed
# Times are curl's time_total. The table gives p50/p90 of each with and
# without leases, the differences of those, and the median of the per-round
# differences (lease - none of the same round: the two ran seconds apart, so
# load from elsewhere on the machine weighs less on it). The first round checks that the
# "lease" hangard held a lease while its sandbox ran and "none" did not
# (GET /v1/node, "leases").
#
# Needs root (hangard loop-mounts its data image), curl, jq. On exit (also on
# failure or Ctrl-C) it stops both hangards, kills the shims and QEMUs whose
# command line names its temp dir, unmounts the loop images, removes them.
set -euo pipefail

BENCH=bench_lease_cost
# shellcheck source=tools/bench/lib.sh
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
json_out=$here/results/bench_lease_cost.json
rounds=10
KINDS=(lease none)

usage() {
  sed -n '5,7p' "$0" | sed 's/^# \{0,1\}//' >&2
  exit 2
}
while (($#)); do
  case $1 in
  --rounds) rounds=${2:?}; shift 2 ;;
  --json) json_out=${2:?}; shift 2 ;;
  -h | --help) usage ;;
  *) echo "bench_lease_cost: unknown argument $1" >&2; usage ;;
  esac
done
[[ $rounds =~ ^[1-9][0-9]*$ ]] || { echo "bench_lease_cost: not a positive number: $rounds" >&2; usage; }

bench_need root hangard template curl jq
HANGARD=$BUILD/node/hangard

# ---- the temp dir and cleanup ------------------------------------------------

T=$(mktemp -d /tmp/hangar-bench-lease-cost.XXXXXX)
declare -A PID URL KEY

cleanup() {
  local rc=$? k i ok=1
  trap - EXIT INT TERM
  for k in "${KINDS[@]}"; do stop_pid "${PID[$k]:-}" 30; done
  for ((i = 0; i < 5; i++)); do
    [[ $(kill_mentioning "$T") == 0 ]] && break
    sleep 0.3
  done
  for k in "${KINDS[@]}"; do
    if unmount_data "$T/$k"; then rm -f "$T/$k.img"; else ok=0; log "could not unmount $T/$k"; fi
  done
  if ((ok)); then rm -rf "$T"; else log "left $T in place"; fi
  exit "$rc"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

# ---- helpers -----------------------------------------------------------------

PCT_FORMAT=%.1f # pct (lib.sh)

# api KIND METHOD PATH [BODY]: the body to $T/resp, prints "status seconds".
api() {
  local args=(-sS -o "$T/resp" -w '%{http_code} %{time_total}' -X "$2"
    -H "Authorization: Bearer ${KEY[$1]}" --max-time 330)
  [[ $# -ge 4 ]] && args+=(-H 'Content-Type: application/json' --data-binary "$4")
  curl "${args[@]}" "${URL[$1]}$3" || true
}
expect() { # "status seconds", wanted statuses..., what
  local got=${1%% *} w
  for w in "${@:2:$#-2}"; do [[ $got == "$w" ]] && return 0; done
  die "${*: -1}: status $got: $(head -c 400 "$T/resp" 2>/dev/null)"
}
ms_of() { awk -v s="${1#* }" 'BEGIN { printf "%.1f\n", s * 1000 }'; }

# ---- the two hangards ----------------------------------------------------------

# hangard reads HANGAR_<OPTION> from the environment: only ours reach it.
unset_env=()
for v in $(compgen -e | grep '^HANGAR_' || true); do unset_env+=(-u "$v"); done

start_hangard() { # kind
  local k=$1 port extra=()
  [[ $k == none ]] && extra=(HANGAR_LEASES=off)
  port=$(free_port)
  URL[$k]=http://127.0.0.1:$port
  KEY[$k]=bench-$(od -An -tx1 -N12 /dev/urandom | tr -d ' \n')
  env "${unset_env[@]}" HANGAR_API_KEY="${KEY[$k]}" "${extra[@]}" "$HANGARD" --data "$T/$k" \
    --listen "127.0.0.1:$port" --template-dir "$TEMPLATE_DIR" --image-size-gib 16 --pool-size 0 \
    >"$T/$k.log" 2>&1 &
  PID[$k]=$!
}
wait_ready() { # kind
  local k=$1 i r
  for ((i = 0; ; i++)); do
    kill -0 "${PID[$k]}" 2>/dev/null || die "hangard ($k) exited; its log: $(tail -20 "$T/$k.log")"
    if r=$(api "$k" GET /v1/templates 2>/dev/null) && [[ ${r%% *} == 200 ]] &&
      jq -e '.templates | length > 0' "$T/resp" >/dev/null 2>&1; then break; fi
    ((i < 3000)) || die "hangard ($k): no template listed after 300 s; log: $(tail -20 "$T/$k.log")"
    sleep 0.1
  done
  log "hangard ($k) ready on ${URL[$k]} after $((i / 10)) s"
}

load_start=$(cut -d' ' -f1-3 /proc/loadavg)
# one after the other: two template imports at once would slow both
for k in "${KINDS[@]}"; do start_hangard "$k"; wait_ready "$k"; done
grep -q 'lease\.off' "$T/none.log" || die "hangard (none) did not log lease.off: HANGAR_LEASES=off not honoured?"
! grep -q 'lease\.off' "$T/lease.log" || die "hangard (lease) runs without leases"

# one cycle on KIND; with a 4th argument, appends the ms of each step to
# $T/<kind>.{create,suspend,resume}
cycle() { # kind, round (0: warm-up), record?
  local k=$1 r=$2 id res
  res=$(api "$k" POST '/v1/sandboxes?wait=300' '{}')
  expect "$res" 201 "$k round $r: create"
  id=$(jq -r .id "$T/resp")
  [[ -n ${3:-} ]] && ms_of "$res" >>"$T/$k.create"
  if ((r == 1)); then # the lease is there, or not
    expect "$(api "$k" GET /v1/node)" 200 "$k: GET /v1/node"
    local held
    held=$(jq -r '.leases.held // 0' "$T/resp")
    if [[ $k == lease ]]; then
      ((held >= 1)) || die "hangard (lease) holds no lease while $id runs: $(jq -c .leases "$T/resp")"
    else
      ((held == 0)) || die "hangard (none) holds $held leases"
    fi
  fi
  res=$(api "$k" POST "/v1/sandboxes/$id/suspend?wait=300")
  expect "$res" 200 "$k round $r: suspend $id"
  [[ -n ${3:-} ]] && ms_of "$res" >>"$T/$k.suspend"
  res=$(api "$k" POST "/v1/sandboxes/$id/resume?wait=300")
  expect "$res" 200 "$k round $r: resume $id"
  [[ -n ${3:-} ]] && ms_of "$res" >>"$T/$k.resume"
  res=$(api "$k" POST "/v1/sandboxes/$id/commands?wait=60" '{"cmd":["true"]}')
  expect "$res" 200 201 "$k round $r: exec in $id"
  jq -e '.exited == true and .exit_code == 0' "$T/resp" >/dev/null || die "$k round $r: true in $id: $(cat "$T/resp")"
  res=$(api "$k" DELETE "/v1/sandboxes/$id?wait=120")
  expect "$res" 200 "$k round $r: delete $id"
}

log "warm-up, one cycle on each"
for k in "${KINDS[@]}"; do cycle "$k" 0; done
for k in "${KINDS[@]}"; do : >"$T/$k.create" && : >"$T/$k.suspend" && : >"$T/$k.resume"; done
for ((r = 1; r <= rounds; r++)); do
  if ((r % 2)); then order=(lease none); else order=(none lease); fi
  for k in "${order[@]}"; do cycle "$k" "$r" record; done
  log "round $r ($(IFS=,; echo "${order[*]}")): create $(tail -1 "$T/lease.create") / $(tail -1 "$T/none.create") ms, resume $(tail -1 "$T/lease.resume") / $(tail -1 "$T/none.resume") ms (lease / none)"
done
load_end=$(cut -d' ' -f1-3 /proc/loadavg)

# ---- table and JSON -----------------------------------------------------------

declare -A P
for k in "${KINDS[@]}"; do
  for s in create suspend resume; do
    P[$k.$s.50]=$(pct 0.5 <"$T/$k.$s")
    P[$k.$s.90]=$(pct 0.9 <"$T/$k.$s")
  done
done
for s in create suspend resume; do
  paste -d' ' "$T/lease.$s" "$T/none.$s" | awk '{ printf "%.1f\n", $1 - $2 }' >"$T/pair.$s"
  P[pair.$s.50]=$(pct 0.5 <"$T/pair.$s")
done
delta() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%+.1f\n", a - b }'; }

echo
echo "A lease's cost on one node (its group: itself), $rounds rounds, the order alternating;"
echo "hangard with leases beside one with HANGAR_LEASES=off, same template, --pool-size 0;"
echo "load average $load_start at start, $load_end at end"
echo
echo "| request | lease p50 | none p50 | diff p50 | lease p90 | none p90 | diff p90 | per-round diff p50 |"
echo "|---|---|---|---|---|---|---|---|"
for s in create suspend resume; do
  printf '| %s?wait | %s ms | %s ms | %s ms | %s ms | %s ms | %s ms | %s ms |\n' "$s" \
    "${P[lease.$s.50]}" "${P[none.$s.50]}" "$(delta "${P[lease.$s.50]}" "${P[none.$s.50]}")" \
    "${P[lease.$s.90]}" "${P[none.$s.90]}" "$(delta "${P[lease.$s.90]}" "${P[none.$s.90]}")" \
    "$(delta "${P[pair.$s.50]}" 0)"
done
echo
echo "create and resume: until the VM runs (both take the lease first); suspend gives it back."
echo "per-round diff: the median of (lease - none) over the rounds, each pair seconds apart."
echo "curl's time_total per request; with one node a claim is a local fsynced promise, not"
echo "the round trip to two peers that a 3-node group adds."

arr() { jq -cs . <"$T/$1"; }
mkdir -p "$(dirname "$json_out")"
jq -n --argjson rounds "$rounds" --arg load_start "$load_start" --arg load_end "$load_end" \
  --argjson lc "$(arr lease.create)" --argjson nc "$(arr none.create)" \
  --argjson ls "$(arr lease.suspend)" --argjson ns "$(arr none.suspend)" \
  --argjson lr "$(arr lease.resume)" --argjson nr "$(arr none.resume)" \
  'def q($a; $p): ($a | sort) as $s | $s[(($p * (($s | length) - 1)) + 0.5) | floor];
   def side($a): {p50_ms: q($a; 0.5), p90_ms: q($a; 0.9), ms: $a};
   def r1: (. * 10 | round) / 10;
   def both($l; $n): ([range($l | length) as $i | $l[$i] - $n[$i] | r1]) as $d
     | {lease: side($l), none: side($n),
        diff_p50_ms: (q($l; 0.5) - q($n; 0.5) | r1), diff_p90_ms: (q($l; 0.9) - q($n; 0.9) | r1),
        per_round_diff_p50_ms: q($d; 0.5), per_round_diff_ms: $d};
   {bench: "lease_cost", rounds: $rounds, nodes: 1, pool_size: 0,
    loadavg_start: $load_start, loadavg_end: $load_end,
    create: both($lc; $nc), suspend: both($ls; $ns), resume: both($lr; $nr)}' >"$json_out"
log "wrote $json_out"
