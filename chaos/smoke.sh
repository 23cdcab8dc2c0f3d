#!/bin/sh
# chaos_smoke (ctest): two short seeds, every nemesis, three nodes; fails
# on any violation (or a run that could not be checked). Usage:
#   smoke.sh HG_CHAOS_RUN OUTDIR
# The template: $HANGAR_TEMPLATE_DIR, else the tests' $HANGAR_TEST_TEMPLATE_DIR.
set -u
run=$1 out=$2
: "${HANGAR_TEMPLATE_DIR:=${HANGAR_TEST_TEMPLATE_DIR:-}}"
export HANGAR_TEMPLATE_DIR
rm -rf "$out"
status=0
for seed in ${CHAOS_SMOKE_SEEDS:-1 2}; do
  "$run" --seed "$seed" --nodes 3 --duration "${CHAOS_SMOKE_DURATION:-25}" --sandboxes 2 \
    --out "$out/seed-$seed"
  rc=$?
  echo "chaos_smoke: seed $seed exit $rc (report: $out/seed-$seed/report.html)"
  [ "$rc" -eq 0 ] || status=1
done
exit $status
