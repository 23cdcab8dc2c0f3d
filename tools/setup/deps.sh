#!/usr/bin/env bash
# Installs the Debian packages hangar needs to build, run and test.
# Idempotent: does nothing when everything is already there.
set -euo pipefail

PACKAGES=(
  build-essential cmake pkg-config clang libclang-rt-14-dev
  libuv1-dev libmsgpack-dev libbtrfsutil-dev libzstd-dev libcurl4-openssl-dev
  libnftnl-dev libmnl-dev libnetfilter-queue-dev libcmocka-dev libjansson-dev libssl-dev node-llhttp
  btrfs-progs nftables iptables qemu-system-x86 busybox-static cpio e2fsprogs kmod
  zstd curl iproute2 util-linux debootstrap ca-certificates spin
  chromium-headless-shell
)

missing=()
for p in "${PACKAGES[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
# Node and npm for the E2B SDK test (tools/e2b/install-sdk.sh): any
# install of them will do (a nodejs that bundles npm included).
command -v node >/dev/null || missing+=(nodejs)
command -v npm >/dev/null || missing+=(npm)
if [ ${#missing[@]} -eq 0 ]; then
  echo "deps: all ${#PACKAGES[@]} packages present"
  exit 0
fi
if [ "$(id -u)" -ne 0 ]; then
  echo "deps: missing ${missing[*]}; run as root to install them" >&2
  exit 1
fi
echo "deps: installing ${missing[*]}"
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq
apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
echo "deps: done"
