#!/bin/sh
# Stand-in for hangar-agent, for testing images before the real agent exists:
#   mkimage.sh --profile minimal --agent tools/mkimage/stub-agent.sh --out DIR
# It runs as PID 1 after switch_root, prints what the real agent will find,
# then the ready line that boot-check.sh waits for, and idles.
echo "stub-agent: pid=$$ uptime=$(cut -d' ' -f1 /proc/uptime)s kernel=$(uname -r)"
echo "stub-agent: root=$(awk '$2 == "/" {print $1, $3, $4}' /proc/mounts)"
echo "stub-agent: mounts=$(awk '{print $2}' /proc/mounts | tr '\n' ' ')"
for p in /sys/class/virtio-ports/*; do
  [ -e "$p/name" ] && echo "stub-agent: virtio port /dev/${p##*/} name=$(cat "$p/name")"
done
[ -x /usr/bin/python3 ] && echo "stub-agent: $(/usr/bin/python3 --version 2>&1)"
echo "hangar-agent: ready"
while :; do sleep 3600; done
