#!/bin/bash
# check.sh: the lease model (chaos/model/lease.pml) through spin.
#   - the protocol: must show no error. The state space does not close in
#     the time allowed, so this is a bounded search, and says so: bitstate
#     DFS with randomized transition order, depth-bounded, a few seeds,
#     each stopped after a time limit.
#   - every deliberate break: must produce a counterexample (an assertion
#     violation whose trail spin replays). Some are searched in a
#     restriction of the model (fewer kinds of fault): a trail found there
#     is a trail of the full model too.
# Exits non-zero if the protocol shows an error or a break is not caught.
# Env: LEASE_MODEL_SECS (per protocol seed, default 60), LEASE_MODEL_WORK.
set -u
here=$(cd "$(dirname "$0")" && pwd)
secs=${LEASE_MODEL_SECS:-60}
work=${LEASE_MODEL_WORK:-$(mktemp -d /tmp/lease-model.XXXXXX)}
mkdir -p "$work"

if ! command -v spin >/dev/null; then
  echo "check.sh: spin missing; installing the Debian package" >&2
  (apt-get install -y spin || sudo -n apt-get install -y spin) >/dev/null 2>&1 ||
    { echo "check.sh: cannot install spin" >&2; exit 2; }
fi

# build NAME "defines": pan in $work/NAME
build() {
  local d="$work/$1"
  mkdir -p "$d" && cp "$here/lease.pml" "$d/" &&
    (cd "$d" && spin $2 -a lease.pml >spin.out 2>&1 &&
       gcc -O2 -w -DSAFETY -DBITSTATE -DT_RAND -DMEMLIM=1024 -DVECTORSZ=512 \
         -o pan pan.c >gcc.out 2>&1) ||
    { echo "check.sh: $1: build failed, see $d" >&2; return 1; }
}

# run NAME SEED DEPTH SECS: sets errors, states, elapsed, reached
run() {
  local d="$work/$1"
  (cd "$d" && rm -f lease.pml.trail &&
     timeout -s INT "$4" ./pan -c1 -m"$3" -w28 -RS"$2" >pan.out.$2 2>&1)
  errors=$(sed -n 's/.*errors: \([0-9]*\).*/\1/p' "$d/pan.out.$2" | tail -1)
  states=$(sed -n 's/^ *\([0-9.e+]*\) states, stored$/\1/p' "$d/pan.out.$2" | tail -1)
  elapsed=$(sed -n 's/^pan: elapsed time \([0-9.e+]*\) seconds.*/\1/p' "$d/pan.out.$2" | tail -1)
  reached=$(sed -n 's/.*depth reached \([0-9]*\).*/\1/p' "$d/pan.out.$2" | tail -1)
  : "${errors:=?}" "${states:=?}" "${elapsed:=?}" "${reached:=?}"
}

fail=0
PDEPTH=40
# ---- the protocol: two seeds in parallel (2 cores) ----
build protocol "" || exit 1
for seed in 1 2; do
  (run protocol $seed $PDEPTH "$secs"
   echo "$errors $states $elapsed $reached" >"$work/protocol/result.$seed") &
done
wait
for seed in 1 2; do
  read -r errors states elapsed reached <"$work/protocol/result.$seed"
  if [ "$errors" = 0 ]; then verdict=ok; else verdict=FAIL; fail=1; fi
  printf 'protocol    seed %d: %-4s errors %s, %s states, %s s; BOUNDED: bitstate 2^28, depth <= %d, stopped at %s s, not exhaustive\n' \
    "$seed" "$verdict" "$errors" "$states" "$elapsed" "$PDEPTH" "$secs"
done

# ---- the breaks ----
# name, defines (the break plus any restriction), depth
breaks=(
  "BREAK_CLAIM_WAIT|-DBREAK_CLAIM_WAIT|30"
  "BREAK_RESTART|-DBREAK_RESTART|30"
  "BREAK_RENEW|-DBREAK_RENEW -DNO_DRIFT -DNO_CHANGE -DNO_PCRASH -DNO_ARESTART|30"
  "BREAK_JOINT|-DBREAK_JOINT -DNO_DRIFT -DNO_PCRASH -DNO_ARESTART -DNEXT_EPOCH|16"
  "BREAK_SLACK|-DBREAK_SLACK -DNO_CHANGE -DNO_PCRASH -DNO_ARESTART -DNEXT_EPOCH|18"
)
for b in "${breaks[@]}"; do
  IFS='|' read -r name defs depth <<<"$b"
  build "$name" "$defs" || { fail=1; continue; }
  caught=0
  for seed in 1 2 3; do
    run "$name" $seed "$depth" 40
    if [ "$errors" != 0 ] && [ "$errors" != "?" ] && [ -f "$work/$name/lease.pml.trail" ] &&
       (cd "$work/$name" && spin $defs -t lease.pml 2>&1 | grep -q "assertion violated"); then
      caught=1
      steps=$(wc -l <"$work/$name/lease.pml.trail")
      break
    fi
  done
  restr=${defs#-D$name}
  if [ $caught = 1 ]; then
    printf '%-16s caught: counterexample, trail of %s lines (depth bound %s, seed %d), %s states, %s s%s\n' \
      "$name" "$steps" "$depth" "$seed" "$states" "$elapsed" "${restr:+; searched with$restr}"
  else
    printf '%-16s NOT CAUGHT: no counterexample in 3 seeds (last: %s states, %s s)\n' \
      "$name" "$states" "$elapsed"
    fail=1
  fi
done

if [ $fail = 0 ] && [ -z "${LEASE_MODEL_WORK:-}" ]; then rm -rf "$work"; else echo "work files (trails, pan output): $work"; fi
if [ $fail = 0 ]; then echo "lease model: PASS (protocol: no error in a bounded search; every break caught)"; fi
exit $fail
