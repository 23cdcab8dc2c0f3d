#!/usr/bin/env bash
# Configures and builds hangar. Usage: build.sh [BUILD_DIR] [extra cmake args]
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
dir=${1:-$root/build}
shift || true
# -Werror here (developers, CI); a packager's own cmake call leaves it off.
cmake -S "$root" -B "$dir" -DCMAKE_BUILD_TYPE=RelWithDebInfo -DHG_WERROR=ON "$@" >/dev/null
cmake --build "$dir" -j"$(nproc)"
