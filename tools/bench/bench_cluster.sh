#!/usr/bin/env bash
# bench_cluster: how fast a peer cluster of real hangards notices a node
# that died, beside the bound the gossip profile promises.
#
#   tools/bench/bench_cluster.sh [--nodes "3 5"] [--rounds R] [--json FILE]
#                                [--prefix P] [--subnet A.B.C] [--poll-ms MS]
#   env: BUILD (build dir, default <repo>/build; tools/cluster runs its hangard)
#
# For each cluster size N it runs `tools/cluster up N --profile local` (no
# template, warm pool off: no VM is started), waits until every node lists
# every node alive, then R times: SIGKILLs a random node (`tools/cluster
# kill I KILL`), and times until EVERY survivor's GET /v1/cluster/members
# shows it "dead" (one poller per survivor, curl + jq in a loop; the clock
# starts when kill(1) is run on the pid from DIR/n<i>/pid, the file
# tools/cluster keeps);
# then restarts it (`tools/cluster start I`) and times until it is alive on
# every node again. The table gives p50/p90/max of both, beside:
#   floor   probe timeout + suspicion min: the earliest a death can be
#           declared once a probe has gone unanswered;
#   bound   the worst case of the profile: two randomised probe rounds
#           (2 (N-1) probe intervals) until some survivor probes the dead
#           node, one interval of direct + indirect probes, the suspicion
#           max, four gossip intervals to spread the verdict;
#   poll    the median round trip of one poll (curl + jq) measured in this
#           run: the resolution of every figure.
# The "local" profile (cluster/swim.h): probe 200 ms, probe timeout 100 ms,
# gossip 50 ms, suspicion mult 4 (min = 4 * max(1, log10 N) * probe), max 6x.
# Issue target: p50 of time-to-dead <= 2 s.
#
# Needs root (network namespaces, btrfs loop images), curl, jq. Whatever
# happens, the cluster is brought down on exit (tools/cluster down).
set -euo pipefail

BENCH=bench_cluster
# shellcheck source=tools/bench/lib.sh
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
export BUILD
json_out=$here/results/bench_cluster.json
sizes="3 5"
rounds=10
prefix=hgbench
subnet=10.251.91
poll_ms=20
TARGET_P50_MS=2000

# the "local" gossip profile (cluster/swim.h, hg_swim_profile)
PROBE_MS=200
PROBE_TIMEOUT_MS=100
GOSSIP_MS=50
SUSPICION_MULT=4
SUSPICION_MAX_MULT=6

usage() {
  sed -n '5,7p' "$0" | sed 's/^# \{0,1\}//' >&2
  exit 2
}
while (($#)); do
  case $1 in
  --nodes) sizes=${2:?}; shift 2 ;;
  --rounds) rounds=${2:?}; shift 2 ;;
  --json) json_out=${2:?}; shift 2 ;;
  --prefix) prefix=${2:?}; shift 2 ;;
  --subnet) subnet=${2:?}; shift 2 ;;
  --poll-ms) poll_ms=${2:?}; shift 2 ;;
  -h | --help) usage ;;
  *) echo "bench_cluster: unknown argument $1" >&2; usage ;;
  esac
done
# shellcheck disable=SC2086 # sizes: one word each
bench_positive $sizes "$rounds" "$poll_ms"
for n in $sizes; do
  ((n >= 2 && n <= 9)) || { echo "bench_cluster: cluster sizes 2..9" >&2; usage; }
done

bench_need root cluster hangard curl jq

# ---- the cluster and cleanup -----------------------------------------------------

T=$(mktemp -d /tmp/hangar-bench-cluster.XXXXXX)
DIR='' # the cluster's --dir while one is up
cleanup() {
  local rc=$?
  trap - EXIT INT TERM
  jobs -p | xargs -r kill 2>/dev/null || true
  if [[ -n $DIR ]]; then
    "$CLUSTER" down --dir "$DIR" --prefix "$prefix" >&2 || log "tools/cluster down failed"
  fi
  rm -rf "$T"
  exit "$rc"
}
trap cleanup EXIT
trap 'exit 130' INT TERM


NOW=0
now_ms() { # NOW = ms from bash's own clock: no process, no subshell per reading
  local t=${EPOCHREALTIME/[.,]/}
  NOW=$((t / 1000))
}

KEY='' URLS=()
read_env() { # $1: nodes
  local i
  KEY=$(. "$DIR/env" && echo "$HANGAR_KEY")
  URLS=()
  for ((i = 1; i <= $1; i++)); do
    URLS[i]=$(. "$DIR/env" && eval echo "\${HANGAR_URL_$i:-http://$subnet.$i:7070}")
  done
}

# The pollers start no process: bash's /dev/tcp for the request, a regex
# for the answer, read -t on a pipe nobody writes for the pauses. A curl +
# jq per poll costs ~100 ms on two busy cores, which would be the
# resolution of every figure.
exec {NAP_FD}<> <(:)
nap() { read -r -t "$1" -u "$NAP_FD" _ || true; }

BODY=''
members_raw() { # node: BODY = the answer to GET /v1/cluster/members, "" on failure
  local fd
  BODY=''
  # (the braces: "exec 2>/dev/null" alone would silence this shell for good)
  { exec {fd}<>"/dev/tcp/$subnet.$1/7070"; } 2>/dev/null || return 0
  { printf 'GET /v1/cluster/members HTTP/1.1\r\nHost: %s\r\nAuthorization: Bearer %s\r\nConnection: close\r\n\r\n' \
      "$subnet.$1" "$KEY" >&"$fd"; } 2>/dev/null || { exec {fd}<&-; return 0; }
  IFS= read -r -d '' -t 2 -u "$fd" BODY || true
  exec {fd}<&-
}

# STATE = member $2's state as node $1 sees it ("" when it does not answer)
STATE=''
state_of() {
  members_raw "$1"
  state_in_body "$2"
}
state_in_body() { # STATE = member $1's state in BODY
  # a member object: "id" comes before "state", with no object in between
  local re='"id": *"'"$1"'"[^{}]*"state": *"([a-z]+)"'
  STATE=''
  if [[ $BODY =~ $re ]]; then STATE=${BASH_REMATCH[1]}; fi
}

# the same with curl + jq, to check the fast path once against it
state_slow() {
  curl -s -m 1 -H "Authorization: Bearer $KEY" "${URLS[$1]}/v1/cluster/members" 2>/dev/null |
    jq -r --arg id "$2" '(if type == "array" then . else .members end)
      | map(select(.id == $id)) | .[0].state // "unknown"' 2>/dev/null || true
}

# 0 when every node in 1..$1 lists every node alive
converged() {
  local n=$1 i k
  for ((i = 1; i <= n; i++)); do
    members_raw "$i"
    for ((k = 1; k <= n; k++)); do
      state_in_body "n$k"
      [[ $STATE == alive ]] || return 1
    done
  done
}

wait_converged() { # nodes, timeout ms; prints the ms it took
  local n=$1 t0
  now_ms
  t0=$NOW
  until converged "$n"; do
    now_ms
    ((NOW - t0 < $2)) || return 1
    nap 0.05
  done
  now_ms
  echo $((NOW - t0))
}

# Polls node $1 until it says $2 is $3; prints the time (ms since the epoch).
poll_until() {
  for ((;;)); do
    state_of "$1" "$2"
    [[ $STATE == "$3" ]] && { now_ms; echo "$NOW"; return; }
    nap "$poll_s"
  done
}

poll_s=$(printf '%d.%03d' $((poll_ms / 1000)) $((poll_ms % 1000)))


# ---- one cluster size ---------------------------------------------------------------

declare -A RES
bench_size() {
  local n=$1 r victim vpid i t0 t1 tmax took pid
  DIR=$T/c$n
  mkdir -p "$DIR"
  # anything an interrupted run left under this prefix
  "$CLUSTER" down --dir "$DIR" --prefix "$prefix" >/dev/null 2>&1 || true
  mkdir -p "$DIR"
  log "up $n nodes (local profile, no pool)"
  "$CLUSTER" up "$n" --dir "$DIR" --prefix "$prefix" --subnet "$subnet" --profile local \
    --pool-size 0 --bin "$BUILD/node/hangard" >&2 || die "tools/cluster up $n failed"
  read_env "$n"
  took=$(wait_converged "$n" 60000) || die "cluster of $n did not converge in 60 s"
  log "converged $took ms after up"

  local fast slow
  state_of 2 n1
  fast=$STATE slow=$(state_slow 2 n1)
  [[ $fast == alive && $slow == alive ]] ||
    die "members poll disagrees: fast '$fast', curl+jq '$slow' (answer format changed?)"
  # resolution: one poll round trip, measured now
  local polls=()
  for ((i = 0; i < 20; i++)); do
    now_ms
    t0=$NOW
    state_of 1 n1
    now_ms
    polls+=($((NOW - t0)))
  done
  local poll_p50
  poll_p50=$(printf '%s\n' "${polls[@]}" | pct 0.5)

  local dead=() back=()
  for ((r = 1; r <= rounds; r++)); do
    victim=$((1 + RANDOM % n))
    local -a pids=() files=()
    # the signal straight from here (the pid file tools/cluster keeps):
    # `tools/cluster kill` would add its own bash start-up to every figure
    vpid=$(cat "$DIR/n$victim/pid")
    tr '\0' ' ' <"/proc/$vpid/cmdline" | grep -q -- "$DIR/n$victim/data" ||
      die "pid $vpid is not node $victim's hangard"
    now_ms
    t0=$NOW
    kill -KILL "$vpid" || die "kill $victim failed"
    for ((i = 1; i <= n; i++)); do
      ((i == victim)) && continue
      poll_until "$i" "n$victim" dead >"$T/at.$i" &
      pids+=($!)
      files+=("$T/at.$i")
    done
    # a bound for the wait: 30 s; a poller still going then is a failure
    local deadline=$((t0 + 30000)) left=1
    while ((left)); do
      left=0
      for pid in "${pids[@]}"; do kill -0 "$pid" 2>/dev/null && left=1; done
      ((left)) || break
      now_ms
      ((NOW < deadline)) || { kill "${pids[@]}" 2>/dev/null; die "round $r: n$victim not dead everywhere in 30 s"; }
      nap 0.02
    done
    wait "${pids[@]}" 2>/dev/null || true
    tmax=0
    for f in "${files[@]}"; do
      t1=$(cat "$f")
      ((t1 > tmax)) && tmax=$t1
    done
    dead+=($((tmax - t0)))
    now_ms
    t0=$NOW
    cluster start "$victim" >&2 || die "start $victim failed"
    wait_converged "$n" 60000 >/dev/null || die "round $r: n$victim did not rejoin in 60 s"
    now_ms
    back+=($((NOW - t0)))
    log "n=$n round $r: killed n$victim, dead everywhere after ${dead[-1]} ms, back after ${back[-1]} ms"
    sleep 1 # let the restarted node's metadata settle before the next kill
  done

  "$CLUSTER" down --dir "$DIR" --prefix "$prefix" >&2 || log "down failed"
  DIR=''

  local smin smax
  smin=$((SUSPICION_MULT * PROBE_MS)) # max(1, log10 n) = 1 below ten nodes
  smax=$((SUSPICION_MAX_MULT * smin))
  RES[$n.floor]=$((PROBE_TIMEOUT_MS + smin))
  RES[$n.bound]=$((2 * (n - 1) * PROBE_MS + PROBE_MS + smax + 4 * GOSSIP_MS))
  RES[$n.poll]=$poll_p50
  RES[$n.dead]=$(printf '%s\n' "${dead[@]}" | jq -cs .)
  RES[$n.back]=$(printf '%s\n' "${back[@]}" | jq -cs .)
  RES[$n.dead50]=$(printf '%s\n' "${dead[@]}" | pct 0.5)
  RES[$n.dead90]=$(printf '%s\n' "${dead[@]}" | pct 0.9)
  RES[$n.deadmax]=$(printf '%s\n' "${dead[@]}" | maxof)
  RES[$n.back50]=$(printf '%s\n' "${back[@]}" | pct 0.5)
  RES[$n.back90]=$(printf '%s\n' "${back[@]}" | pct 0.9)
}

for n in $sizes; do bench_size "$n"; done

# ---- report ---------------------------------------------------------------------------

echo
echo "SIGKILL of a random node until every survivor lists it dead ($rounds rounds per size, local profile)"
echo
echo "| nodes | p50 | p90 | max | floor | bound | poll | target p50 <= ${TARGET_P50_MS} ms | rejoin p50 | rejoin p90 |"
echo "|---|---|---|---|---|---|---|---|---|---|"
for n in $sizes; do
  ok=no
  ((RES[$n.dead50] <= TARGET_P50_MS)) && ok=yes
  printf '| %d | %d ms | %d ms | %d ms | %d ms | %d ms | %d ms | %s | %d ms | %d ms |\n' \
    "$n" "${RES[$n.dead50]}" "${RES[$n.dead90]}" "${RES[$n.deadmax]}" "${RES[$n.floor]}" \
    "${RES[$n.bound]}" "${RES[$n.poll]}" "$ok" "${RES[$n.back50]}" "${RES[$n.back90]}"
done
echo
echo "floor: probe timeout + suspicion min; bound: worst case of the profile; poll: one"
echo "members poll round trip (the resolution of every figure). rejoin: from"
echo "\`tools/cluster start\` (hangard start-up included) until alive on every node."

mkdir -p "$(dirname "$json_out")"
{
  echo '{"bench": "cluster", "profile": "local", "rounds": '"$rounds"', "target_p50_ms": '"$TARGET_P50_MS"', "sizes": ['
  first=1
  for n in $sizes; do
    ((first)) || echo ','
    first=0
    printf '{"nodes": %d, "dead_ms": %s, "rejoin_ms": %s, "p50_ms": %s, "p90_ms": %s, "max_ms": %s, "floor_ms": %s, "bound_ms": %s, "poll_ms": %s}' \
      "$n" "${RES[$n.dead]}" "${RES[$n.back]}" "${RES[$n.dead50]}" \
      "${RES[$n.dead90]}" "${RES[$n.deadmax]}" "${RES[$n.floor]}" "${RES[$n.bound]}" "${RES[$n.poll]}"
  done
  echo ']}'
} | jq . >"$json_out"
log "wrote $json_out"
