#!/usr/bin/env bash
# Installs the pinned E2B JS SDK (npm `e2b`) into a cache dir for the E2B
# compatibility test (tests/integration/it_e2b.c). Idempotent.
# Usage: install-sdk.sh DIR [VERSION]   (DIR/node_modules/e2b afterwards;
# VERSION defaults to the pinned one, another is for an older-SDK check)
set -euo pipefail
dir=${1:?usage: install-sdk.sh DIR [VERSION]}
E2B_SDK_VERSION=${2:-2.51.0}
case $E2B_SDK_VERSION in
  *[!0-9.]* | '') echo "install-sdk: version: digits and dots only" >&2; exit 2 ;;
esac
if ! command -v node >/dev/null || ! command -v npm >/dev/null; then
  echo "install-sdk: node and npm are needed (tools/setup/deps.sh installs them)" >&2
  exit 1
fi
have=$(node -p "require('$dir/node_modules/e2b/package.json').version" 2>/dev/null || true)
if [ "$have" = "$E2B_SDK_VERSION" ]; then exit 0; fi
mkdir -p "$dir"
npm install --no-audit --no-fund --silent --prefix "$dir" "e2b@$E2B_SDK_VERSION" >&2
