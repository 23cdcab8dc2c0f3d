# tools/bench/lib.sh: what the shell benches share, written once. Sourced
# (never run) by each bench after it set BENCH, its name for log lines:
#
#   BENCH=bench_x
#   . "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
#
# Gives: the paths (here, repo, BUILD, TEMPLATE_DIR, CLUSTER), log/die, the
# prerequisite checks, percentiles, and two ways to run: a cluster of
# tools/cluster in a temp dir that is brought down on exit whatever happens
# (bench_cluster_tmp, bench_up, api, converged), or single hangards whose
# processes and mounts the bench's own cleanup takes down (kill_mentioning,
# stop_pid, unmount_data, free_port).

# shellcheck disable=SC2154 # prefix, subnet, BENCH, usage: the bench's own
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
repo=$(cd "$here/../.." && pwd)
BUILD=${BUILD:-$repo/build}
TEMPLATE_DIR=${HANGAR_TEMPLATE_DIR:-/var/cache/hangar/test-template}
CLUSTER=$repo/tools/cluster

log() { printf '%s: %s\n' "$BENCH" "$*" >&2; }
die() { log "$*"; exit 1; }

# bench_need WHAT...: dies unless each is there: root, cluster (the
# launcher), hangard (built), template, or a command's name.
bench_need() {
  local w
  for w in "$@"; do
    case $w in
    root) ((EUID == 0)) || die "must run as root (network namespaces, loop mounts, VMs)" ;;
    cluster) [[ -x $CLUSTER ]] || die "no launcher at $CLUSTER" ;;
    hangard) [[ -x $BUILD/node/hangard ]] ||
      die "no hangard at $BUILD/node/hangard (build it, or set BUILD)" ;;
    template) [[ -f $TEMPLATE_DIR/rootfs.img ]] ||
      die "no template at $TEMPLATE_DIR (set HANGAR_TEMPLATE_DIR)" ;;
    *) command -v "$w" >/dev/null || die "needs $w" ;;
    esac
  done
}

# bench_positive N...: the bench's usage unless each is a positive integer.
bench_positive() {
  local v
  for v in "$@"; do
    [[ $v =~ ^[1-9][0-9]*$ ]] || { echo "$BENCH: not a positive number: $v" >&2; usage; }
  done
}

# pct P [FORMAT]: percentile P (0..1) of the numbers on stdin, nearest rank
# (index round(P * (n - 1)) of the sorted list, as bench_runtime computes
# it), printed with FORMAT (awk's printf; default $PCT_FORMAT, else %d);
# null when none.
pct() {
  sort -g | awk -v p="$1" -v f="${2:-${PCT_FORMAT:-%d}}\n" '{ v[NR - 1] = $1 } END {
    if (NR == 0) { print "null"; exit }
    i = int(p * (NR - 1) + 0.5); printf f, v[i] }'
}
maxof() { sort -g | tail -1; }

# ---- a cluster of tools/cluster ---------------------------------------------------

# bench_cluster_tmp TAG: T, a temp dir (/tmp/hangar-bench-TAG.*), and
# DIR=$T/c for the cluster. On exit: the bench's background jobs killed,
# the cluster under $prefix brought down once UP=1, T removed; after a
# failure (or with BENCH_KEEP_LOGS=1) the nodes' logs are kept first
# (/tmp/hangar-bench-TAG-logs.*).
bench_cluster_tmp() {
  T=$(mktemp -d "/tmp/hangar-bench-$1.XXXXXX")
  DIR=$T/c
  UP=0
  trap bench_cluster_cleanup EXIT
  trap 'exit 130' INT TERM
}

# bench_keep_logs: the nodes' logs copied to /tmp/hangar-bench-TAG-logs.*
# (before a `down`, which removes DIR), when there are any.
bench_keep_logs() {
  compgen -G "$DIR/n*/hangard.log" > /dev/null || return 0
  local keep
  keep=$(mktemp -d "${T}-logs.XXXXXX")
  for f in "$DIR"/n*/hangard.log; do cp "$f" "$keep/$(basename "$(dirname "$f")").log"; done
  log "the nodes' logs: $keep"
}

bench_cluster_cleanup() {
  local rc=$?
  trap - EXIT INT TERM
  jobs -p | xargs -r kill 2>/dev/null || true
  if ((rc != 0)) || [[ ${BENCH_KEEP_LOGS:-} == 1 ]]; then bench_keep_logs; fi
  if ((UP)); then
    "$CLUSTER" down --dir "$DIR" --prefix "$prefix" >&2 || log "tools/cluster down failed"
  fi
  rm -rf "$T"
  exit "$rc"
}

cluster() { "$CLUSTER" "$@" --dir "$DIR"; } # the rest comes from DIR/cluster.conf

# bench_up N [-- HANGARD ARGS...]: N nodes in DIR under $prefix and
# $subnet.0/24, the local gossip profile, a warm pool of $POOL_SIZE (none
# unless set); KEY, the API key.
# Whatever an interrupted run left under the prefix goes first.
bench_up() {
  local n=$1
  shift
  "$CLUSTER" down --dir "$DIR" --prefix "$prefix" >/dev/null 2>&1 || true
  UP=1
  "$CLUSTER" up "$n" --dir "$DIR" --prefix "$prefix" --subnet "$subnet" --profile local \
    --template-dir "$TEMPLATE_DIR" --pool-size "${POOL_SIZE:-0}" --bin "$BUILD/node/hangard" "$@" >&2 ||
    die "tools/cluster up $n failed"
  KEY=$(. "$DIR/env" && echo "$HANGAR_KEY")
}

# api I METHOD PATH [BODY] [MAXTIME]: node I's answer body to $RESP
# (default $T/resp: callers running at once each set their own), prints
# the HTTP status (000 when there was none). KEY: from bench_up.
api() {
  local args=(-sS -o "${RESP:-$T/resp}" -w '%{http_code}' -X "$2" -H "Authorization: Bearer $KEY"
              --max-time "${5:-330}")
  [[ -n ${4:-} ]] && args+=(-H 'Content-Type: application/json' --data-binary "$4")
  curl "${args[@]}" "http://$subnet.$1:7070$3" 2>/dev/null || echo 000
}

# 0 when every one of the 3 nodes answers and lists all three alive.
converged() {
  local i
  for ((i = 1; i <= 3; i++)); do
    [[ $(api "$i" GET /v1/cluster/members) == 200 ]] || return 1
    [[ $(grep -o '"state": *"alive"' "$T/resp" | wc -l) -ge 3 ]] || return 1
  done
}

# ---- single hangards ----------------------------------------------------------------

# Kills (SIGKILL) every process but us whose command line mentions $1;
# prints how many.
kill_mentioning() {
  local needle=$1 n=0 d pid cmd
  for d in /proc/[0-9]*; do
    pid=${d#/proc/}
    [[ $pid == "$$" || $pid == "$BASHPID" ]] && continue
    cmd=$({ tr '\0' ' ' <"$d/cmdline"; } 2>/dev/null) || continue
    [[ $cmd == *"$needle"* ]] || continue
    kill -KILL "$pid" 2>/dev/null && n=$((n + 1))
  done
  echo "$n"
}

stop_pid() { # pid, seconds to wait after SIGTERM
  local pid=$1 i
  [[ -n $pid ]] && kill -0 "$pid" 2>/dev/null || return 0
  kill -TERM "$pid" 2>/dev/null || true
  for ((i = 0; i < $2 * 10; i++)); do
    kill -0 "$pid" 2>/dev/null || break
    sleep 0.1
  done
  kill -KILL "$pid" 2>/dev/null || true
  wait "$pid" 2>/dev/null || true
}

# unmount_data DATA: 0 when nothing is mounted there any more. The
# gateway bind-mounts each sandbox's network namespace under <data>/netns
# (a mount of its own): those go first, deepest first, or <data> stays
# busy; hangard loop-mounts <data>.img on <data> (when /tmp is not btrfs):
# every layer is peeled before anything under it is removed.
unmount_data() {
  local data=$1 i
  awk -v d="$data/" 'index($2, d) == 1 { print $2 }' /proc/mounts | sort -r |
    while read -r mnt; do umount "$mnt" 2>/dev/null || umount -l "$mnt" 2>/dev/null || true; done
  for ((i = 0; i < 8; i++)); do
    mountpoint -q "$data" 2>/dev/null || break
    umount "$data" 2>/dev/null || { sleep 0.5; umount "$data" 2>/dev/null; } || true
  done
  ! mountpoint -q "$data" 2>/dev/null
}

free_port() { # a TCP port on 127.0.0.1 nobody listens on
  local p
  for ((;;)); do
    p=$((20000 + RANDOM % 20000))
    (exec 3<>"/dev/tcp/127.0.0.1/$p") 2>/dev/null || { echo "$p"; return; }
  done
}
