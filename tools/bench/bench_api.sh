#!/usr/bin/env bash
# bench_api: hangard's HTTP API on this machine, each figure beside a
# baseline measured in the same run.
#
#   tools/bench/bench_api.sh [--json FILE] [--duration S] [--rounds R]
#                            [--connections C] [--iterations N] [--nice N]
#   env: BUILD (build dir, default <repo>/build),
#        HANGAR_TEMPLATE_DIR (mkimage output, default /var/cache/hangar/test-template)
#
# Starts its own hangard (fresh temp data dir, its own admin key), then:
#   GET /v1/sandboxes/{id} under wrk (keep-alive, C connections, one wrk
#     thread on core 0; every hangard thread on core 1), req/s and p99,
#     beside nginx (one worker on core 1, access_log off, its own temp
#     config) serving a static file of the same bytes as hangard's answer,
#     with the same request headers. R alternating rounds of S seconds
#     (hangard, nginx, hangard, ...) so load from elsewhere on the machine
#     falls on both; the table shows the median round.
#   create-to-first-output: POST /v1/sandboxes?wait then POST
#     …/commands?wait `echo hi`, N times one after the other (p50, p90),
#     each deleted after; beside the exec round trip of `true` in the
#     sandbox that is already running, measured between those iterations.
#     Times are curl's time_total of the requests (no client process start).
#
# Only hangard's own threads are pinned (taskset -a -p after start): its VMs
# are not, so the create/exec part runs as a node would.
#
# --nice N (-20..19, default 0) runs both servers and wrk at that nice level
# during the wrk rounds, and sets the same nice on their autogroup (with
# kernel.sched_autogroup_enabled a nice weighs only inside its session, and
# every hangar VM is a session of its own: its shim setsid()s). On a machine
# shared with other work, -19 keeps the others from taking core 1, which
# otherwise skews the comparison: CFS shares a core among runnable threads,
# and hangard (loop + pool) has more of them than nginx's single worker.
# The table's core1-other column shows how much was taken.
#
# Needs root (hangard loop-mounts <data>.img), curl, jq, wrk, nginx; installs
# the last three with apt-get when missing. Everything it starts is stopped on
# exit: hangard, every process whose command line names the temp dir (shims,
# QEMU, nginx), the data dir's mount and image, the temp dir.
set -euo pipefail

BENCH=bench_api
# shellcheck source=tools/bench/lib.sh
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
json_out=$here/results/bench_api.json
duration=10
rounds=3
conns=50
iterations=20
nice=0
TARGET_RPS_RATIO=0.5 # the issue's target for hangard / nginx req/s

usage() {
  sed -n '4,8p' "$0" | sed 's/^# \{0,1\}//' >&2
  exit 2
}
while (($#)); do
  case $1 in
  --json) json_out=${2:?}; shift 2 ;;
  --duration) duration=${2:?}; shift 2 ;;
  --rounds) rounds=${2:?}; shift 2 ;;
  --connections) conns=${2:?}; shift 2 ;;
  --iterations) iterations=${2:?}; shift 2 ;;
  --nice) nice=${2:?}; shift 2 ;;
  -h | --help) usage ;;
  *) echo "bench_api: unknown argument $1" >&2; usage ;;
  esac
done
bench_positive "$duration" "$rounds" "$conns" "$iterations"
if ! [[ $nice =~ ^-?[0-9]+$ ]] || ((nice < -20 || nice > 19)); then
  echo "bench_api: --nice wants -20..19" >&2
  usage
fi

# ---- tools ------------------------------------------------------------------

bench_need root hangard template
HANGARD=$BUILD/node/hangard
(($(nproc) >= 2)) || die "needs two cores (wrk on 0, the server on 1)"

apt_install() { # first of the packages apt can install
  local p
  for p in "$@"; do
    DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends "$p" \
      >/dev/null 2>&1 && return 0
  done
  return 1
}
need() { # command, packages...
  command -v "$1" >/dev/null && return 0
  log "installing $1"
  apt_install "${@:2}" || { apt-get update >/dev/null 2>&1 && apt_install "${@:2}"; } ||
    die "could not install $1"
}
need curl curl
need jq jq
need wrk wrk
need taskset util-linux
# nginx's package may start the system service (policy-rc.d decides); we
# never touch it: ours runs from its own prefix and config.
NGINX=$(command -v nginx || echo /usr/sbin/nginx)
[[ -x $NGINX ]] || { need nginx nginx-light nginx; NGINX=$(command -v nginx || echo /usr/sbin/nginx); }

# ---- the temp dir and cleanup ------------------------------------------------

T=$(mktemp -d /tmp/hangar-bench-api.XXXXXX)
chmod 711 "$T" # nginx's worker (not root) reads $T/nginx/www
DATA=$T/data
HPID='' NPID=''
AG_RESTORE=() # "pid nice" of autogroups whose nice we changed

cleanup() {
  local rc=$? i
  trap - EXIT INT TERM
  local ag
  for ag in "${AG_RESTORE[@]}"; do echo "${ag#* }" >"/proc/${ag%% *}/autogroup" 2>/dev/null || true; done
  stop_pid "$NPID" 5
  stop_pid "$HPID" 30
  for ((i = 0; i < 5; i++)); do
    [[ $(kill_mentioning "$T") == 0 ]] && break
    sleep 0.3
  done
  if ! unmount_data "$DATA"; then
    log "could not unmount $DATA; left $T in place"
  else
    rm -f "$DATA.img"
    rm -rf "$T"
  fi
  exit "$rc"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

# ---- helpers -----------------------------------------------------------------

PCT_FORMAT=%.3f # pct (lib.sh)
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { if (b + 0 == 0) print "null"; else printf "%.3f\n", a / b }'; }
json_array() { jq -cs . ; } # numbers on stdin, one a line -> [..]

# cpu seconds (user + system, all threads) of a pid so far
cpu_s() {
  awk -v hz="$(getconf CLK_TCK)" '{ sub(/^.*\) /, ""); print ($12 + $13) / hz }' "/proc/$1/stat"
}
# "busy total" ticks of core 1 so far (busy: all but idle and iowait)
core1_ticks() {
  awk '$1 == "cpu1" { t = 0; for (i = 2; i <= NF; i++) t += $i; print t - $5 - $6, t }' /proc/stat
}

ADMIN_KEY=bench-$(od -An -tx1 -N12 /dev/urandom | tr -d ' \n')
AUTH="Authorization: Bearer $ADMIN_KEY"

# api METHOD PATH [BODY]: writes the body to $T/resp, prints "status seconds".
api() {
  local args=(-sS -o "$T/resp" -w '%{http_code} %{time_total}' -X "$1" -H "$AUTH"
    --max-time 300)
  [[ $# -ge 3 ]] && args+=(-H 'Content-Type: application/json' --data-binary "$3")
  curl "${args[@]}" "$URL$2" || true
}
expect() { # "status seconds", wanted statuses..., what
  local got=${1%% *} w
  for w in "${@:2:$#-2}"; do [[ $got == "$w" ]] && return 0; done
  die "${*: -1}: status $got: $(head -c 400 "$T/resp" 2>/dev/null)"
}

# ---- hangard -----------------------------------------------------------------

load_start=$(cut -d' ' -f1-3 /proc/loadavg)
HPORT=$(free_port)
URL=http://127.0.0.1:$HPORT
log "starting hangard on $URL (data $DATA, template $TEMPLATE_DIR)"
# hangard reads HANGAR_<OPTION> from the environment: only ours reach it.
unset_env=()
for v in $(compgen -e | grep '^HANGAR_' || true); do unset_env+=(-u "$v"); done
env "${unset_env[@]}" HANGAR_API_KEY="$ADMIN_KEY" "$HANGARD" --data "$DATA" --listen "127.0.0.1:$HPORT" \
  --template-dir "$TEMPLATE_DIR" --image-size-gib 16 >"$T/hangard.log" 2>&1 &
HPID=$!
for ((i = 0; ; i++)); do
  kill -0 "$HPID" 2>/dev/null || die "hangard exited; its log: $(tail -20 "$T/hangard.log")"
  if r=$(api GET /v1/templates 2>/dev/null) && [[ ${r%% *} == 200 ]] &&
    jq -e '.templates | length > 0' "$T/resp" >/dev/null 2>&1; then break; fi
  ((i < 3000)) || die "no template listed after 300 s; log: $(tail -20 "$T/hangard.log")"
  sleep 0.1
done
log "hangard ready after $((i / 10)) s"

r=$(api POST '/v1/sandboxes?wait=120' '{}')
expect "$r" 201 "create the sandbox for GET"
SB=$(jq -r .id "$T/resp")
r=$(api GET "/v1/sandboxes/$SB")
expect "$r" 200 "GET /v1/sandboxes/$SB"
cp "$T/resp" "$T/body.json"
BODY_BYTES=$(stat -c %s "$T/body.json")
log "sandbox $SB; GET answers $BODY_BYTES bytes"

# ---- nginx, serving hangard's answer as a static file ------------------------

NPORT=$(free_port)
mkdir -p "$T/nginx/www/v1/sandboxes" "$T/nginx/tmp"
chmod -R 755 "$T/nginx"
cp "$T/body.json" "$T/nginx/www/v1/sandboxes/$SB"
chmod 644 "$T/nginx/www/v1/sandboxes/$SB"
cat >"$T/nginx/nginx.conf" <<EOF
worker_processes 1;
worker_cpu_affinity 10;
daemon off;
pid $T/nginx/nginx.pid;
error_log $T/nginx/error.log warn;
events { worker_connections 1024; }
http {
  access_log off;
  default_type application/json;
  client_body_temp_path $T/nginx/tmp/body;
  proxy_temp_path $T/nginx/tmp/proxy;
  fastcgi_temp_path $T/nginx/tmp/fastcgi;
  uwsgi_temp_path $T/nginx/tmp/uwsgi;
  scgi_temp_path $T/nginx/tmp/scgi;
  server {
    listen 127.0.0.1:$NPORT;
    root $T/nginx/www;
    location / { }
  }
}
EOF
nice -n "$nice" taskset -c 1 "$NGINX" -p "$T/nginx/" -c "$T/nginx/nginx.conf" -e "$T/nginx/error.log" \
  >"$T/nginx/stdout.log" 2>&1 &
NPID=$!
NURL=http://127.0.0.1:$NPORT
for ((i = 0; ; i++)); do
  kill -0 "$NPID" 2>/dev/null || die "nginx exited: $(cat "$T/nginx/error.log" "$T/nginx/stdout.log" 2>/dev/null)"
  n=$(curl -s -o /dev/null -w '%{http_code} %{size_download}' -H "$AUTH" "$NURL/v1/sandboxes/$SB" || true)
  [[ $n == "200 $BODY_BYTES" ]] && break
  ((i < 100)) || die "nginx does not serve the file: $n"
  sleep 0.1
done
NWORKER=$(awk '{ print $1 }' "/proc/$NPID/task/$NPID/children" 2>/dev/null || true)
log "nginx on $NURL (master $NPID, worker ${NWORKER:-?})"

# ---- GET under wrk, alternating rounds ----------------------------------------

# Every thread hangard has now (loop, pool) on core 1; threads it makes later
# inherit that. Its shims and VMs are other processes and stay unpinned.
taskset -a -p -c 1 "$HPID" >/dev/null
renice_threads() { # pid, level: setpriority is per thread on Linux
  local t
  for t in /proc/"$1"/task/*; do renice -n "$2" -p "${t##*/}" >/dev/null 2>&1 || true; done
}
renice_threads "$HPID" "$nice"
# The autogroups (sessions) of this script (so of wrk and nginx) and of
# hangard; the old nice comes back after the rounds, or in cleanup.
seen=
for p in $$ "$HPID"; do
  [[ -w /proc/$p/autogroup && $nice != 0 ]] || continue
  read -r ag _ old <"/proc/$p/autogroup" # "/autogroup-N nice V"
  [[ " $seen " == *" $ag "* ]] && continue # hangard is usually in ours
  seen+=" $ag"
  echo "$nice" >"/proc/$p/autogroup" 2>/dev/null && AG_RESTORE+=("$p ${old:-0}")
done

to_ms() { # wrk's "812.00us" / "3.21ms" / "1.02s" -> ms
  awk -v x="$1" 'BEGIN {
    if (x ~ /us$/) { sub(/us$/, "", x); printf "%.3f\n", x / 1000 }
    else if (x ~ /ms$/) { sub(/ms$/, "", x); printf "%.3f\n", x }
    else if (x ~ /m$/) { sub(/m$/, "", x); printf "%.3f\n", x * 60000 }
    else { sub(/s$/, "", x); printf "%.3f\n", x * 1000 } }'
}

# wrk_round NAME URL PID ROUND: appends "rps p50 p99 server_cpu% wrk_cpu% core1_other%"
# to $T/NAME.rounds
wrk_round() {
  local name=$1 url=$2 pid=$3 out=$T/wrk-$1-$4.txt c0 c1 t0 t1
  local k0 k1
  c0=$(cpu_s "$pid")
  k0=$(core1_ticks)
  t0=$(date +%s.%N)
  # bash's `time` gives wrk's own cpu (user+sys): near 100% means the client,
  # not the server, bounds the figure.
  { TIMEFORMAT='%U %S'; time nice -n "$nice" taskset -c 0 wrk -t1 -c"$conns" -d"${duration}s" --latency \
    -H "$AUTH" "$url" >"$out" 2>"$out.err"; } 2>"$out.time"
  t1=$(date +%s.%N)
  k1=$(core1_ticks)
  c1=$(cpu_s "$pid")
  local rps p50 p99 non2xx errs wall wcpu
  rps=$(awk '/^Requests\/sec:/ { print $2 }' "$out")
  p50=$(to_ms "$(awk '$1 == "50%" { print $2 }' "$out")")
  p99=$(to_ms "$(awk '$1 == "99%" { print $2 }' "$out")")
  non2xx=$(awk '/Non-2xx or 3xx responses:/ { print $NF }' "$out")
  errs=$(grep -o 'Socket errors:.*' "$out" || true)
  [[ -n $rps ]] || die "wrk against $name printed no req/s: $(cat "$out")"
  [[ -z $non2xx ]] || die "$name answered $non2xx non-2xx responses under wrk"
  [[ -z $errs ]] || log "$name round $4: $errs"
  wall=$(awk -v a="$t0" -v b="$t1" 'BEGIN { print b - a }')
  wcpu=$(awk '{ print $1 + $2 }' "$out.time")
  local scpu busy
  scpu=$(awk -v c="$c1" -v d="$c0" -v w="$wall" 'BEGIN { printf "%.0f", 100 * (c - d) / w }')
  # core 1's busy share not spent by the server: other work on the machine
  # (and the kernel's loopback softirqs, which land where they land)
  busy=$(awk -v a="$k0" -v b="$k1" 'BEGIN { split(a, x, " "); split(b, y, " ")
    printf "%.0f", (y[2] > x[2]) ? 100 * (y[1] - x[1]) / (y[2] - x[2]) : 0 }')
  printf '%s %s %s %s %s %s\n' "$rps" "$p50" "$p99" "$scpu" \
    "$(awk -v c="$wcpu" -v w="$wall" 'BEGIN { printf "%.0f", 100 * c / w }')" \
    "$((busy > scpu ? busy - scpu : 0))" >"$T/$name.rounds.last"
  cat "$T/$name.rounds.last" >>"$T/$name.rounds"
  local fig
  read -ra fig <"$T/$name.rounds.last"
  log "$(printf '%-7s round %d: %9.0f req/s  p50 %7.3f ms  p99 %7.3f ms  server cpu %s%%  wrk cpu %s%%  core 1 other %s%%' \
    "$name" "$4" "${fig[@]}")"
}

log "wrk: $rounds round(s) of ${duration}s each, $conns connections, keep-alive"
: >"$T/hangard.rounds"
: >"$T/nginx.rounds"
for ((k = 1; k <= rounds; k++)); do
  wrk_round hangard "$URL/v1/sandboxes/$SB" "$HPID" "$k"
  wrk_round nginx "$NURL/v1/sandboxes/$SB" "${NWORKER:-$NPID}" "$k"
done
taskset -a -p -c "0-$(($(nproc) - 1))" "$HPID" >/dev/null
renice_threads "$HPID" 0
for ag in "${AG_RESTORE[@]}"; do echo "${ag#* }" >"/proc/${ag%% *}/autogroup" 2>/dev/null || true; done
AG_RESTORE=()
stop_pid "$NPID" 5
NPID=

col() { awk -v c="$2" '{ print $c }' "$T/$1.rounds"; }
h_rps=$(col hangard 1 | pct 0.5) n_rps=$(col nginx 1 | pct 0.5)
h_p50=$(col hangard 2 | pct 0.5) n_p50=$(col nginx 2 | pct 0.5)
h_p99=$(col hangard 3 | pct 0.5) n_p99=$(col nginx 3 | pct 0.5)

# ---- create to first output, beside exec `true` in a running sandbox ----------

log "create-to-first-output: $iterations iterations"
log_mark=$(wc -l <"$T/hangard.log")
: >"$T/e2e" && : >"$T/create" && : >"$T/first" && : >"$T/exec"
api POST "/v1/sandboxes/$SB/commands?wait=60" '{"cmd":["true"]}' >/dev/null # warm-up
for ((k = 1; k <= iterations; k++)); do
  r=$(api POST "/v1/sandboxes/$SB/commands?wait=60" '{"cmd":["true"]}')
  expect "$r" 200 201 "exec true"
  jq -e '.exited == true and .exit_code == 0' "$T/resp" >/dev/null ||
    die "exec true: $(cat "$T/resp")"
  echo "${r#* }" >>"$T/exec"

  r1=$(api POST '/v1/sandboxes?wait=120' '{}')
  expect "$r1" 201 "create $k"
  id=$(jq -r .id "$T/resp")
  r2=$(api POST "/v1/sandboxes/$id/commands?wait=60" '{"cmd":["echo","hi"]}')
  expect "$r2" 200 201 "echo hi in $id"
  jq -e '.exited == true and .exit_code == 0 and .stdout == "hi\n"' "$T/resp" >/dev/null ||
    die "echo hi in $id: $(cat "$T/resp")"
  echo "${r1#* }" >>"$T/create"
  echo "${r2#* }" >>"$T/first"
  awk -v a="${r1#* }" -v b="${r2#* }" 'BEGIN { print a + b }' >>"$T/e2e"
  r=$(api DELETE "/v1/sandboxes/$id?wait=120")
  expect "$r" 200 "delete $id"
done
r=$(api DELETE "/v1/sandboxes/$SB?wait=120")
expect "$r" 200 "delete $SB"
# hangard logs each create with warm=1 when its warm pool served it.
from_pool=$(tail -n +"$((log_mark + 1))" "$T/hangard.log" | grep -c 'event=sandbox.create .*warm=1' || true)

ms() { awk '{ printf "%.3f\n", $1 * 1000 }' "$T/$1"; }
e2e50=$(ms e2e | pct 0.5) e2e90=$(ms e2e | pct 0.9)
cr50=$(ms create | pct 0.5) cr90=$(ms create | pct 0.9)
fi50=$(ms first | pct 0.5) fi90=$(ms first | pct 0.9)
ex50=$(ms exec | pct 0.5) ex90=$(ms exec | pct 0.9)
load_end=$(cut -d' ' -f1-3 /proc/loadavg)

# ---- table and JSON -----------------------------------------------------------

row() { printf '%-40s %12s %12s %8s\n' "$@"; }
echo
echo "bench_api: $(nproc) cores, load average $load_start at start, $load_end at end"
echo "GET /v1/sandboxes/{id}: $BODY_BYTES-byte body, wrk -t1 -c$conns keep-alive on core 0,"
echo "  server on core 1; median of $rounds round(s) of ${duration}s; baseline nginx, 1 worker, same bytes;"
echo "  servers and wrk at nice $nice"
echo "create-to-first-output: $iterations runs; baseline exec of \`true\` in a running sandbox"
echo
row measure value baseline ratio
row "GET sandbox req/s (target ratio >= $TARGET_RPS_RATIO)" "$h_rps" "$n_rps" "$(ratio "$h_rps" "$n_rps")"
row "GET sandbox p50 latency ms" "$h_p50" "$n_p50" "$(ratio "$h_p50" "$n_p50")"
row "GET sandbox p99 latency ms" "$h_p99" "$n_p99" "$(ratio "$h_p99" "$n_p99")"
row "create-to-first-output p50 ms" "$e2e50" "$ex50" "$(ratio "$e2e50" "$ex50")"
row "create-to-first-output p90 ms" "$e2e90" "$ex90" "$(ratio "$e2e90" "$ex90")"
row "  of which create?wait p50 ms" "$cr50" "$ex50" "$(ratio "$cr50" "$ex50")"
row "  of which first command p50 ms" "$fi50" "$ex50" "$(ratio "$fi50" "$ex50")"
echo "creates served by the warm pool (hangard's default --pool-size): $from_pool of $iterations"
echo
echo "per round: req/s p50-ms p99-ms server-cpu% wrk-cpu% core1-other%, req/s ratio"
echo "  (server-cpu under 100 with core1-other above 0: other work took core 1 from it)"
paste -d'|' "$T/hangard.rounds" "$T/nginx.rounds" |
  awk -F'|' '{ split($1, h, " "); split($2, n, " ")
    printf "  %d  hangard %s   nginx %s   %.3f\n", NR, $1, $2, (n[1] > 0 ? h[1] / n[1] : 0) }'

rounds_json() { # name -> [{rps,p50_ms,p99_ms,server_cpu_pct,wrk_cpu_pct,core1_other_pct}…]
  jq -Rn '[inputs | split(" ") | map(tonumber)
           | {rps: .[0], p50_ms: .[1], p99_ms: .[2], server_cpu_pct: .[3], wrk_cpu_pct: .[4],
             core1_other_pct: .[5]}]' \
    <"$T/$1.rounds"
}
mkdir -p "$(dirname "$json_out")"
jq -n \
  --argjson cores "$(nproc)" --argjson nice "$nice" --arg load_start "$load_start" --arg load_end "$load_end" \
  --argjson duration "$duration" --argjson rounds "$rounds" --argjson conns "$conns" \
  --argjson iterations "$iterations" --argjson body "$BODY_BYTES" --argjson from_pool "$from_pool" \
  --argjson hr "$(rounds_json hangard)" --argjson nr "$(rounds_json nginx)" \
  --argjson h_rps "$h_rps" --argjson n_rps "$n_rps" \
  --argjson h_p50 "$h_p50" --argjson n_p50 "$n_p50" \
  --argjson h_p99 "$h_p99" --argjson n_p99 "$n_p99" \
  --argjson target "$TARGET_RPS_RATIO" \
  --argjson e2e "$(ms e2e | json_array)" --argjson create "$(ms create | json_array)" \
  --argjson exec "$(ms exec | json_array)" \
  --argjson e2e50 "$e2e50" --argjson e2e90 "$e2e90" --argjson cr50 "$cr50" \
  --argjson cr90 "$cr90" --argjson fi50 "$fi50" --argjson fi90 "$fi90" \
  --argjson first "$(ms first | json_array)" --argjson ex50 "$ex50" --argjson ex90 "$ex90" \
  '{
    machine: {cores: $cores, loadavg_start: $load_start, loadavg_end: $load_end},
    nice: $nice,
    get_sandbox: {
      body_bytes: $body, duration_s: $duration, rounds: $rounds, connections: $conns,
      hangard: {rps: $h_rps, p50_ms: $h_p50, p99_ms: $h_p99, rounds: $hr},
      nginx_static_baseline: {rps: $n_rps, p50_ms: $n_p50, p99_ms: $n_p99, rounds: $nr},
      ratio_rps: (if $n_rps > 0 then $h_rps / $n_rps else null end),
      ratio_p99: (if $n_p99 > 0 then $h_p99 / $n_p99 else null end),
      ratio_rps_per_round: [range($hr | length) as $i
        | if $nr[$i].rps > 0 then $hr[$i].rps / $nr[$i].rps else null end],
      target_ratio_rps: $target
    },
    create_to_first_output: {runs: $iterations, from_pool: $from_pool, p50_ms: $e2e50, p90_ms: $e2e90,
      create_p50_ms: $cr50, create_p90_ms: $cr90,
      first_command_p50_ms: $fi50, first_command_p90_ms: $fi90,
      ms: $e2e, create_ms: $create, first_command_ms: $first},
    exec_true_running_baseline: {runs: $iterations, p50_ms: $ex50, p90_ms: $ex90, ms: $exec},
    ratio_create_to_first_output_p50: (if $ex50 > 0 then $e2e50 / $ex50 else null end)
  }' >"$json_out"
echo
echo "JSON: $json_out"
