#!/bin/sh
# fetch-kernel.sh: puts the Debian cloud kernel (bzImage + modules) into a
# cache dir once, and prints the cache dir. Self-contained and idempotent so
# the tests and tools/mkimage can both call it; concurrent callers serialise
# on a lock file and the result appears atomically (rename of a finished dir).
#
#   tests/integration/fetch-kernel.sh [CACHE_DIR]
#   -> CACHE_DIR/vmlinuz, CACHE_DIR/version, CACHE_DIR/lib/modules/<version>/
#
# CACHE_DIR defaults to $HANGAR_KERNEL_CACHE or /var/cache/hangar/kernel.
set -eu

cache=${1:-${HANGAR_KERNEL_CACHE:-/var/cache/hangar/kernel}}

if [ -f "$cache/vmlinuz" ] && [ -f "$cache/version" ]; then
    echo "$cache"
    exit 0
fi

parent=$(dirname "$cache")
mkdir -p "$parent"
exec 9>"$cache.lock"
flock 9
# Another caller may have finished while we waited for the lock.
if [ -f "$cache/vmlinuz" ] && [ -f "$cache/version" ]; then
    echo "$cache"
    exit 0
fi

# The meta package names the exact versioned image package.
pkg=$(apt-cache depends linux-image-cloud-amd64 2>/dev/null |
      sed -n 's/^ *Depends: \(linux-image-[0-9][^ ]*-cloud-amd64\)$/\1/p' | head -n1)
if [ -z "$pkg" ]; then
    apt-get update -qq >/dev/null 2>&1 || true
    pkg=$(apt-cache depends linux-image-cloud-amd64 2>/dev/null |
          sed -n 's/^ *Depends: \(linux-image-[0-9][^ ]*-cloud-amd64\)$/\1/p' | head -n1)
fi
if [ -z "$pkg" ]; then
    echo "fetch-kernel: cannot resolve linux-image-cloud-amd64" >&2
    exit 1
fi

work=$(mktemp -d "$parent/.kernel.XXXXXX")
trap 'rm -rf "$work"' EXIT
# tools/mkimage keeps downloaded .debs in <cache root>/debs: reuse one.
deb=$(ls "$parent/debs/${pkg}"_*_amd64.deb 2>/dev/null | sort -V | tail -n1 || true)
if [ -z "$deb" ]; then
    ( cd "$work" && apt-get download -q -o APT::Sandbox::User=root "$pkg" >/dev/null )
    deb=$(ls "$work"/*.deb | head -n1)
fi
dpkg -x "$deb" "$work/root"

version=${pkg#linux-image-}
img="$work/root/boot/vmlinuz-$version"
if [ ! -f "$img" ]; then
    echo "fetch-kernel: $img missing in $deb" >&2
    exit 1
fi

out="$work/out"
mkdir -p "$out/lib/modules"
cp "$img" "$out/vmlinuz"
[ -d "$work/root/lib/modules/$version" ] &&
    mv "$work/root/lib/modules/$version" "$out/lib/modules/$version"
[ -f "$work/root/boot/config-$version" ] && cp "$work/root/boot/config-$version" "$out/config"
# The package ships no modules.dep (the postinst builds it): build it here so
# an initramfs can load modules in dependency order.
if command -v depmod >/dev/null 2>&1 || [ -x /usr/sbin/depmod ]; then
    PATH=$PATH:/usr/sbin:/sbin depmod -b "$out" "$version"
fi
echo "$version" >"$out/version"
sync "$out/vmlinuz" "$out/version" 2>/dev/null || true
rm -rf "$cache"
mv "$out" "$cache"
echo "$cache"
