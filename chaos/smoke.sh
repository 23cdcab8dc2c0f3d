#!/bin/sh
# chaos_smoke (ctest): two short seeds, every nemesis, three nodes; fails
# on any violation (or a run that could not be checked). Usage:
#   smoke.sh HG_CHAOS_RUN OUTDIR
# The template: $HANGAR_TEMPLATE_DIR, else the tests' $HANGAR_TEST_TEMPLATE_DIR.
# A failed seed prints its evidence (the history and the nodes' log lines of
# each sandbox named in a violation): CI keeps only what a test prints.
set -u
run=$1 out=$2
: "${HANGAR_TEMPLATE_DIR:=${HANGAR_TEST_TEMPLATE_DIR:-}}"
export HANGAR_TEMPLATE_DIR

evidence() { # DIR RUNLOG
  for sb in $(grep VIOLATION "$2" | grep -o 'sb-[0-9a-f]*' | sort -u | head -3); do
    echo "--- evidence for $sb: history"
    grep -F "$sb" "$1/history.jsonl" | grep -v '"ev":"sample"' | tail -60
    for log in "$1"/logs/*.log; do
      echo "--- evidence for $sb: $(basename "$log") (last 80 lines naming it)"
      grep -F "$sb" "$log" | tail -80
    done
  done
  grep -q 'VIOLATION' "$2" || tail -40 "$1/cluster.log" 2>/dev/null
}

# The report page, as a browser shows it (issue 15): headless Chromium's
# screenshot of seed-N/report.html, which page_check.py reads for the lanes.
shoot() { # DIR
  shell=$(command -v chromium-headless-shell || command -v chromium || true)
  if [ -z "$shell" ]; then
    echo "chaos_smoke: no chromium-headless-shell (tools/setup/deps.sh installs it)"
    return 1
  fi
  "$shell" --no-sandbox --headless --disable-gpu --hide-scrollbars --window-size=1400,1000 \
    --screenshot="$1/report.png" "file://$1/report.html" > "$1/screenshot.log" 2>&1 ||
    { tail -5 "$1/screenshot.log"; return 1; }
  python3 "$(dirname "$0")/page_check.py" "$1/report.png" 1400 1000
}

rm -rf "$out"
mkdir -p "$out"
status=0
for seed in ${CHAOS_SMOKE_SEEDS:-1 2}; do
  "$run" --seed "$seed" --nodes 3 --duration "${CHAOS_SMOKE_DURATION:-25}" --sandboxes 2 \
    --out "$out/seed-$seed" > "$out/seed-$seed.log" 2>&1
  rc=$?
  cat "$out/seed-$seed.log"
  echo "chaos_smoke: seed $seed exit $rc (report: $out/seed-$seed/report.html)"
  if [ "$rc" -ne 0 ]; then
    status=1
    evidence "$out/seed-$seed" "$out/seed-$seed.log"
  fi
  shoot "$out/seed-$seed" || status=1
done
exit $status
