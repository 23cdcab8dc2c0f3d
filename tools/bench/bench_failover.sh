#!/usr/bin/env bash
# bench_failover: how soon a running sandbox answers again after its
# owner's host dies (DESIGN §9 "Failover", issue 14), on real hangards and
# real VMs, with no call from anyone but the exec that measures it.
#
#   tools/bench/bench_failover.sh [--rounds R] [--lease-ms LIST] [--json FILE]
#                                 [--prefix P] [--subnet A.B.C]
#                                 [--mass N] [--mass-running R2] [--quiet-lock FILE]
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
# --mass N (default 0: skipped): mass failover, once, at the first T of
# LIST. Node 1 is made the owner of N suspended sandboxes and R2 (default
# 20) running ones, each with three copies and its state in a replicated
# generation (made through node 1 and suspended; the running ones resumed
# there with ?node=n1; three at a time); then its host crashes. Reported: time until the directory,
# read through a survivor every 200 ms, names a survivor as the owner of
# all N + R2 (target T + margin + 2 s after the death is seen), and until
# the R2 run again (each then answers an exec). Disk: every generation
# holds the guest's touched memory (about 60-120 MiB for this template),
# on each of three holders; the nodes' images are 24 GiB (sparse).
#
# --quiet-lock FILE: each measured part (from just before a crash until
# the answer) holds FILE's flock (/tmp/hangar-it.lock: chaos/campaign and
# the integration tests take it between their runs), so the bench can
# build up beside them and still measure on a quiet host.
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
mass=0
mass_running=20
quiet_lock=

usage() {
  sed -n '6,10p' "$0" | sed 's/^# \{0,1\}//' >&2
  exit 2
}
while (($#)); do
  case $1 in
  --rounds) rounds=${2:?}; shift 2 ;;
  --lease-ms) leases=${2:?}; shift 2 ;;
  --json) json_out=${2:?}; shift 2 ;;
  --prefix) prefix=${2:?}; shift 2 ;;
  --subnet) subnet=${2:?}; shift 2 ;;
  --mass) mass=${2:?}; shift 2 ;;
  --mass-running) mass_running=${2:?}; shift 2 ;;
  --quiet-lock) quiet_lock=${2:?}; shift 2 ;;
  -h | --help) usage ;;
  *) echo "bench_failover: unknown argument $1" >&2; usage ;;
  esac
done
[[ $rounds =~ ^[0-9]+$ ]] || usage
[[ $leases =~ ^[1-9][0-9]*(,[1-9][0-9]*)*$ ]] || usage
[[ $mass =~ ^[0-9]+$ && $mass_running =~ ^[0-9]+$ ]] || usage

bench_need root cluster hangard template curl jq
bench_cluster_tmp failover

now_ms() { local t=${EPOCHREALTIME/[.,]/}; echo $((t / 1000)); }

# seen_ms OWNER T0: ms from T0 until the first survivor logged the owner's
# death (failover.member_dead, wall clock; the nodes share this host's
# clock), or -1: how much of a failover is the sighting, how much the take.
seen_ms() {
  local first="" ts
  for f in "$DIR"/n*/hangard.log; do
    ts=$(grep -E "event=failover\.member_dead node=n[0-9]+ node=n$1( |$)" "$f" |
      grep -o '^ts=[^ ]*' | cut -c4- | while read -r t; do
        ms=$(date -d "$t" +%s%3N) && ((ms >= $2)) && echo "$ms"
      done | sort -n | head -1)
    [[ -n $ts && ( -z $first || $ts -lt $first ) ]] && first=$ts
  done
  [[ -n $first ]] && echo $((first - $2)) || echo -1
}

exec_ok() { # exec_ok I SB MAXTIME: 0 when `true` ran through node I
  [[ $(api "$1" POST "/v1/sandboxes/$2/commands?wait=10" '{"cmd":["true"]}' "$3") == 20[01] ]] &&
    [[ $(jq -r .exit_code "$T/resp" 2>/dev/null) == 0 ]]
}

# quiet_begin / quiet_end: with --quiet-lock FILE, the measured part of a
# round holds FILE's lock (flock), so that whatever else takes it between
# its steps (chaos/campaign, the integration tests) waits and the numbers
# are of a quiet host; the build-up does not hold it.
quiet_begin() {
  [[ -n $quiet_lock ]] || return 0
  exec {quiet_fd}>> "$quiet_lock"
  log "waiting for $quiet_lock"
  flock "$quiet_fd"
}
quiet_end() {
  [[ -n $quiet_lock && -n ${quiet_fd:-} ]] || return 0
  exec {quiet_fd}>&-
  quiet_fd=
}

results='[]'
IFS=, read -r -a lease_list <<< "$leases"
for lease in "${lease_list[@]}"; do
  ((rounds > 0)) || break # --rounds 0: the mass round only
  margin=$((lease / 4 < 500 ? lease / 4 : 500)) # hangard: at most a quarter of T
  log "up 3 nodes, lease ${lease}/${margin} ms, local gossip profile"
  bench_up 3 -- --lease-ms "$lease" --lease-margin-ms "$margin"
  base=() fail=() seen=()
  for ((r = 1; r <= rounds; r++)); do
    [[ $(api 1 POST '/v1/sandboxes?wait=300' '{"replicas":3}') == 201 ]] ||
      die "create: $(head -c 300 "$T/resp")"
    sb=$(jq -r .id "$T/resp")
    owner=$(jq -r .node "$T/resp" | tr -dc 0-9)
    [[ $(api "$owner" POST "/v1/sandboxes/$sb/suspend?wait=300") == 200 ]] || die "suspend: $(head -c 300 "$T/resp")"
    [[ $(api "$owner" POST "/v1/sandboxes/$sb/resume?wait=300&node=n$owner") == 200 ]] ||
      die "resume: $(head -c 300 "$T/resp")"
    via=$((owner % 3 + 1))
    quiet_begin
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
    quiet_end
    seen+=($(seen_ms "$owner" "$t0"))
    log "lease $lease round $r: n$owner crashed; seen dead after ${seen[-1]} ms; $sb answered through n$via after ${fail[-1]} ms (baseline ${base[-1]} ms)"
    cluster start "$owner" >&2
    for ((w = 0; w < 600; w++)); do converged && break; sleep 0.2; done
    api "$via" DELETE "/v1/sandboxes/$sb?wait=300" > /dev/null
  done
  b50=$(printf '%s\n' "${base[@]}" | pct 0.5) b90=$(printf '%s\n' "${base[@]}" | pct 0.9)
  f50=$(printf '%s\n' "${fail[@]}" | pct 0.5) f90=$(printf '%s\n' "${fail[@]}" | pct 0.9)
  fmax=$(printf '%s\n' "${fail[@]}" | sort -g | tail -1)
  s50=$(printf '%s\n' "${seen[@]}" | pct 0.5) s90=$(printf '%s\n' "${seen[@]}" | pct 0.9)
  printf 'lease %5d/%d ms: crash -> exec answers on a survivor p50 %6d ms p90 %6d ms max %6d ms (death seen p50 %d ms p90 %d ms) | plain exec p50 %4d ms p90 %4d ms (%d runs)\n' \
    "$lease" "$margin" "$f50" "$f90" "$fmax" "$s50" "$s90" "$b50" "$b90" "$rounds"
  results=$(jq -c --argjson l "$lease" --argjson f "$(printf '%s\n' "${fail[@]}" | jq -s .)" \
    --argjson b "$(printf '%s\n' "${base[@]}" | jq -s .)" \
    --argjson s "$(printf '%s\n' "${seen[@]}" | jq -s .)" \
    --argjson m "$margin" '. + [{lease_ms: $l, margin_ms: $m, failover_ms: $f, seen_ms: $s, exec_ms: $b}]' <<< "$results")
  "$CLUSTER" down --dir "$DIR" --prefix "$prefix" >&2
  UP=0
done
# mass_call K WANT METHOD PATH [BODY]: api through node 1, again after a
# 503 (no_quorum: a lease round that timed out on a loaded host) up to 3
# times; 1 with the answer logged when it never got WANT. A suspend whose
# copies fell short (503 replication_incomplete: a peer briefly suspect on
# the loaded host) is suspended: the keeper copies it later, and the round
# waits for every copy before the crash (mass_copied).
mass_call() {
  local k=$1 want=$2 try st
  shift 2
  for try in 1 2 3; do
    st=$(api 1 "$@")
    [[ $st == "$want" ]] && return 0
    if [[ $st == 503 && $2 == */suspend* ]] &&
      jq -e '.error.code == "replication_incomplete"' "$RESP" > /dev/null 2>&1; then
      log "mass $k: $1 $2 -> 503 replication_incomplete: suspended, the keeper copies it"
      return 0
    fi
    [[ $st == 503 ]] || break
    sleep 1
  done
  log "mass $k: $1 $2 -> $st $(head -c 300 "$RESP")"
  return 1
}

# mass_make K RUN: sandbox K of the mass round, owned by node 1 (see the
# header); its id in $T/mass/K. Own response file: three run at once.
mass_make() {
  local k=$1 run=$2 sb owner
  local RESP=$T/mass/resp.$k
  mass_call "$k" 201 POST '/v1/sandboxes?wait=300' '{"replicas":3}' || return 1
  sb=$(jq -r .id "$RESP") owner=$(jq -r .node "$RESP")
  mass_call "$k" 200 POST "/v1/sandboxes/$sb/suspend?wait=300" || return 1
  # A create through n1 lands there while it has room; a suspended one
  # made elsewhere moves to n1 by a resume there and a suspend again.
  if ((run)) || [[ $owner != n1 ]]; then
    mass_call "$k" 200 POST "/v1/sandboxes/$sb/resume?wait=300&node=n1" || return 1
  fi
  if ((!run)) && [[ $owner != n1 ]]; then
    mass_call "$k" 200 POST "/v1/sandboxes/$sb/suspend?wait=300" || return 1
  fi
  echo "$sb" > "$T/mass/$k"
}

# mass_dir [FILE]: the directory through node 2 into FILE ($T/mass/dir);
# its status.
mass_dir() {
  local RESP=${1:-$T/mass/dir}
  api 2 GET /v1/cluster/sandboxes '' 5
}

# mass_jq FILTER [FILE]: FILTER over the round's sandboxes in FILE
# ($T/mass/dir) (as .sandboxes[] | select(in the round)), $runset the
# running ones: as sets (objects), not index() per entry: 1020 x 1020
# compares a poll.
mass_jq() {
  jq -r --slurpfile ids "$T/mass/ids.json" --slurpfile run "$T/mass/run.json" "
    (\$ids[0] | map({key: ., value: true}) | from_entries) as \$idset
    | (\$run[0] | map({key: ., value: true}) | from_entries) as \$runset
    | [.sandboxes[] | select(\$idset[.sandbox])] | $1" "${2:-$T/mass/dir}"
}

# mass_counts FILE: "owned running" in a poll's answer: how many of the
# round's sandboxes a survivor owns, how many of the running ones run there.
mass_counts() {
  mass_jq '[.[] | select(.owner != "n1" and .owner != null)] as $mine
    | "\($mine | length) \([$mine[] | select($runset[.sandbox]) | select(.state == "running")]
                         | length)"' "$1"
}

# mass_may_be_done FILE: a cheap look (grep, no jq) at a poll's answer:
# false while any sandbox is n1's or no one's, or fewer run than ran.
# Only when it is true does the poll loop pay for mass_counts.
mass_may_be_done() {
  ! grep -Eq '"owner": *("n1"|null)' "$1" &&
    (($(grep -Eo '"state": *"running"' "$1" | wc -l) >= mass_running))
}

# mass_poll T0: polls the directory through node 2 back to back (one in
# flight: the API under a mass failover is part of what is measured) until
# every sandbox is owned by a survivor and the running ones run, keeping
# each answer ($T/mass/poll.I) and when it was sent and came back (ms after
# T0) in $T/mass/polls. The counts are computed afterwards (mass_times):
# jq over 1020 entries takes a loaded host ~0.4 s, which between polls
# made the stamps that coarse.
mass_poll() {
  local i=0 sent st at c r
  : > "$T/mass/polls"
  while :; do
    sent=$(($(now_ms) - $1))
    st=$(mass_dir "$T/mass/poll.$i")
    at=$(($(now_ms) - $1))
    echo "$i $sent $at $st" >> "$T/mass/polls"
    if [[ $st == 200 ]] && mass_may_be_done "$T/mass/poll.$i"; then
      read -r c r <<< "$(mass_counts "$T/mass/poll.$i")"
      if ((c == mass + mass_running && r == mass_running)); then return 0; fi
    fi
    ((at < 600000)) || die "mass: after 600 s, not all owned and running (poll $i)"
    i=$((i + 1))
    sleep 0.05
  done
}

# mass_times: "owned ran": when the first poll answered that showed all
# owned, and all that ran running (ms after T0; -1: never); each poll's
# counts go to $T/mass/polls.counted (sent, answered, owned, running).
mass_times() {
  local i sent at st c r owned=-1 ran=-1
  while read -r i sent at st; do
    c=0 r=0
    if [[ $st == 200 ]]; then read -r c r <<< "$(mass_counts "$T/mass/poll.$i")"; fi
    echo "$sent $at $c $r" >> "$T/mass/polls.counted"
    if ((owned < 0 && c == mass + mass_running)); then owned=$at; fi
    if ((ran < 0 && mass_running > 0 && r == mass_running)); then ran=$at; fi
  done < "$T/mass/polls"
  echo "$owned $ran"
}

# mass_copied: how many of the round's sandboxes list both peers of n1
# among the holders of their newest generation.
mass_copied() {
  [[ $(mass_dir) == 200 ]] || { echo 0; return; }
  mass_jq '[.[] | select([.holders[] | select(. != "n1")] | length >= 2)] | length'
}

mass_round() {
  local lease=${lease_list[0]} margin k total=$((mass + mass_running)) t0 c owned=-1 ran=-1
  margin=$((lease / 4 < 500 ? lease / 4 : 500))
  log "mass: up 3 nodes, lease ${lease}/${margin} ms; $mass suspended + $mass_running running on n1"
  POOL_SIZE=${MASS_POOL_SIZE:-2} bench_up 3 -- --lease-ms "$lease" --lease-margin-ms "$margin" --image-size-gib 24
  mkdir -p "$T/mass"
  local t_make
  t_make=$(now_ms)
  for ((k = 0; k < total; k++)); do
    while (($(jobs -rp | wc -l) >= 3)); do wait -n || die "mass: making a sandbox failed"; done
    mass_make "$k" $((k >= mass)) & # the running ones last: they load the host
    if ((k % 20 == 19)); then log "mass: $((k + 1)) of $total under way"; fi
  done
  while (($(jobs -rp | wc -l) > 0)); do wait -n || die "mass: making a sandbox failed"; done
  for ((k = 0; k < total; k++)); do [[ -s $T/mass/$k ]] || die "mass: sandbox $k missing"; done
  for ((k = 0; k < total; k++)); do cat "$T/mass/$k"; done | jq -R . | jq -s . > "$T/mass/ids.json"
  for ((k = mass; k < total; k++)); do cat "$T/mass/$k"; done | jq -R . | jq -s . > "$T/mass/run.json"
  local copied t_copy
  t_copy=$(now_ms)
  while copied=$(mass_copied) && ((copied < total)); do
    (($(now_ms) - t_copy < 300000)) || die "mass: after 300 s, $copied of $total copied to both peers"
    sleep 2
  done
  log "mass: $total sandboxes on n1 in $(($(now_ms) - t_make)) ms, copied to both peers; crash n1"
  # what they cost on disk: each node's btrfs image, blocks allocated
  local disk_mb
  disk_mb=$(du -m "$DIR"/n*/data.img 2>/dev/null | awk '{s += $1} END {print s + 0}')
  log "mass: the three nodes' images hold $disk_mb MiB ($((disk_mb / total)) MiB a sandbox)"
  quiet_begin
  t0=$(now_ms)
  cluster crash 1 >&2
  mass_poll "$t0"
  read -r owned ran <<< "$(mass_times)"
  for ((k = mass; k < total; k++)); do
    exec_ok 2 "$(cat "$T/mass/$k")" 60 || die "mass: running sandbox $k does not answer"
  done
  quiet_end
  log "mass: the polls through n2 (sent, answered: ms after the crash; owned, running): $(
    tr '\n' ';' < "$T/mass/polls.counted")"
  local dead; dead=$(seen_ms 1 "$t0")
  local again="none ran"
  if ((mass_running > 0)); then again="the $mass_running running ran again after $ran ms, each answered an exec"; fi
  printf 'mass failover, lease %d/%d ms: n1 seen dead %d ms after the crash; %d sandboxes (%d running) owned by survivors %d ms after the crash; %s\n' \
    "$lease" "$margin" "$dead" "$total" "$mass_running" "$owned" "$again"
  if ((ran < 0)); then ran=null; fi # none ran: no time to report
  results=$(jq -c --argjson l "$lease" --argjson m "$margin" --argjson n "$total" \
    --argjson r "$mass_running" --argjson o "$owned" --argjson x "$ran" --argjson d "$dead" \
    --argjson disk "$disk_mb" \
    '. + [{mass: {lease_ms: $l, margin_ms: $m, sandboxes: $n, running: $r, seen_ms: $d,
                 all_owned_ms: $o, running_again_ms: $x, disk_mib: $disk}}]' <<< "$results")
  if [[ ${BENCH_KEEP_LOGS:-} == 1 ]]; then bench_keep_logs; fi
  "$CLUSTER" down --dir "$DIR" --prefix "$prefix" >&2
  UP=0
}

if ((mass > 0)); then mass_round; fi

mkdir -p "$(dirname "$json_out")"
jq . <<< "$results" > "$json_out"
