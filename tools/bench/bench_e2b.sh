#!/usr/bin/env bash
# bench_e2b: Sandbox.create() then the first commands.run('true') resolved,
# through the unmodified E2B JS SDK, beside the same two steps through
# hangar's own API (POST /v1/sandboxes?wait, POST …/commands?wait
# {"cmd":["true"]}), in the same run against the same node (issue 17's
# target: the SDK path within 1.2x of the native one).
#
#   tools/bench/bench_e2b.sh [--runs N] [--json FILE]
#   env: BUILD (default <repo>/build), HANGAR_TEMPLATE_DIR,
#        HANGAR_E2B_SDK_DIR (default /var/cache/hangar/e2b-sdk; the pinned
#        SDK is installed there by tools/e2b/install-sdk.sh)
#
# One node (tools/cluster up 1, no warm pool). The two paths alternate,
# SDK then native, N times each, so whatever else the machine does falls
# on both; every sandbox is deleted after its run. The SDK is timed inside
# its Node process from before Sandbox.create() to after commands.run
# resolves (Node's start and the SDK's load are not counted); the native
# path is timed around its two curl calls. p50 and p90 of each, and their
# ratio.
set -euo pipefail
BENCH=bench_e2b
prefix=hgbe subnet=10.251.79
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

usage() { sed -n '2,19p' "$0" | sed 's/^# \{0,1\}//' >&2; exit 2; }
runs=20 json=
while [[ $# -gt 0 ]]; do
  case $1 in
  --runs) runs=$2; shift 2 ;;
  --json) json=$2; shift 2 ;;
  *) usage ;;
  esac
done
bench_positive "$runs"
bench_need root cluster hangard template node curl
sdk=${HANGAR_E2B_SDK_DIR:-/var/cache/hangar/e2b-sdk}
"$repo/tools/e2b/install-sdk.sh" "$sdk" || die "installing the E2B SDK failed"
version=$(node -p "require('$sdk/node_modules/e2b/package.json').version")

bench_cluster_tmp e2b
bench_up 1
url="http://$subnet.1:7070"
cat >"$T/sdk.cjs" <<'EOF'
const { Sandbox } = require('e2b');
(async () => {
  const t0 = process.hrtime.bigint();
  const sbx = await Sandbox.create({ timeoutMs: 600000, requestTimeoutMs: 300000 });
  const r = await sbx.commands.run('true');
  const ms = Number(process.hrtime.bigint() - t0) / 1e6;
  if (r.exitCode !== 0) throw new Error('exit ' + r.exitCode);
  console.log(ms.toFixed(1));
  await sbx.kill();
})().catch((e) => { console.error(e); process.exit(1); });
EOF
sdk_run() {
  NODE_PATH="$sdk/node_modules" E2B_API_URL="$url" E2B_SANDBOX_URL="$url" E2B_API_KEY="$KEY" \
    E2B_VALIDATE_API_KEY=false timeout 600 node "$T/sdk.cjs"
}
native_run() {
  local t0 t1 r id
  t0=$(date +%s%N)
  r=$(api 1 POST "/v1/sandboxes?wait=300" '{}')
  [[ $r == 201 ]] || die "create: $r $(cat "$T/resp")"
  id=$(grep -o '"id": *"sb-[0-9a-f]*"' "$T/resp" | head -1 | grep -o 'sb-[0-9a-f]*')
  r=$(api 1 POST "/v1/sandboxes/$id/commands?wait=60" '{"cmd":["true"]}')
  t1=$(date +%s%N)
  [[ $r == 200 || $r == 201 ]] || die "exec true: $r $(cat "$T/resp")"
  grep -q '"exit_code": *0' "$T/resp" || die "exec true: $(cat "$T/resp")"
  awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.1f\n", (b - a) / 1e6 }'
  [[ $(api 1 DELETE "/v1/sandboxes/$id?wait=300") == 200 ]] || die "delete $id"
}

log "SDK e2b@$version against one node; $runs runs of each path, alternating"
sdk_run >/dev/null || die "SDK warm-up run failed"
native_run >/dev/null
: >"$T/sdk" && : >"$T/native"
for ((i = 1; i <= runs; i++)); do
  sdk_run >>"$T/sdk" || die "SDK run $i failed"
  native_run >>"$T/native"
  log "run $i: sdk $(tail -1 "$T/sdk") ms, native $(tail -1 "$T/native") ms"
done
PCT_FORMAT=%.1f
s50=$(pct 0.5 <"$T/sdk") s90=$(pct 0.9 <"$T/sdk")
n50=$(pct 0.5 <"$T/native") n90=$(pct 0.9 <"$T/native")
r50=$(awk -v a="$s50" -v b="$n50" 'BEGIN { printf "%.2f", a / b }')
r90=$(awk -v a="$s90" -v b="$n90" 'BEGIN { printf "%.2f", a / b }')
printf '%-44s %10s %10s\n' "create -> first run('true') resolved" p50_ms p90_ms
printf '%-44s %10s %10s\n' "E2B SDK $version" "$s50" "$s90"
printf '%-44s %10s %10s\n' "hangar API (curl)" "$n50" "$n90"
printf '%-44s %10s %10s\n' "ratio SDK / native (target <= 1.2)" "$r50" "$r90"
if [[ -n $json ]]; then
  printf '{"bench":"e2b","sdk":"%s","runs":%d,"sdk_ms":{"p50":%s,"p90":%s},' \
    "$version" "$runs" "$s50" "$s90" >"$json"
  printf '"native_ms":{"p50":%s,"p90":%s},"ratio":{"p50":%s,"p90":%s}}\n' \
    "$n50" "$n90" "$r50" "$r90" >>"$json"
fi
