#!/bin/sh
# chaos_delay (ctest): the delay nemesis's delayer holds packets on NFQUEUE
# for [min, max] ms each, so they arrive late and out of order, and lets
# them through once it is gone (the rule's --queue-bypass). Two network
# namespaces joined by a veth; UDP echoes timed from one into the other
# (python3, as mkimage uses). Usage: delay_test.sh HG_CHAOS_DELAY
set -eu
delay=$1
a=hgdl-a-$$ b=hgdl-b-$$ va=hgdla$$ vb=hgdlb$$
pids=
cleanup() {
  for p in $pids; do kill "$p" 2>/dev/null || true; done
  ip netns del "$a" 2>/dev/null || true
  ip netns del "$b" 2>/dev/null || true
}
trap cleanup EXIT INT TERM
ip netns add "$a"
ip netns add "$b"
ip link add "$va" type veth peer name "$vb"
ip link set "$va" netns "$a"
ip link set "$vb" netns "$b"
ip -n "$a" addr add 10.252.19.1/24 dev "$va"
ip -n "$b" addr add 10.252.19.2/24 dev "$vb"
ip -n "$a" link set "$va" up
ip -n "$b" link set "$vb" up
ip netns exec "$b" python3 -c '
import socket
s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
s.bind(("10.252.19.2", 9999))
while True:
    d, a = s.recvfrom(100)
    s.sendto(d, a)' &
pids="$pids $!"
# probe N: 40 datagrams 5 ms apart; prints "<ms from last send to last echo> <out of order>"
probe() {
  ip netns exec "$a" python3 -c '
import socket, time
s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
s.settimeout(5)
for i in range(40):
    s.sendto(str(i).encode(), ("10.252.19.2", 9999))
    time.sleep(0.005)
t = time.time()
got = [int(s.recvfrom(100)[0]) for _ in range(40)]
print(int((time.time() - t) * 1000), sum(1 for x, y in zip(got, got[1:]) if y < x))'
}
for i in $(seq 1 50); do probe > /dev/null 2>&1 && break; sleep 0.1; done
set -- $(probe); echo "no delayer: last echo ${1} ms after the last send, ${2} out of order"
[ "$1" -lt 100 ] && [ "$2" -eq 0 ] || { echo "FAIL: the path is slow or reorders already"; exit 1; }
ip netns exec "$b" iptables -I INPUT -s 10.252.19.1 -j NFQUEUE --queue-num 19 --queue-bypass
ip netns exec "$b" "$delay" --queue 19 --min-ms 150 --max-ms 400 --seed 7 &
dpid=$!
pids="$pids $dpid"
sleep 0.5
set -- $(probe); echo "delayer 150-400 ms: last echo ${1} ms after the last send, ${2} out of order"
[ "$1" -ge 150 ] || { echo "FAIL: not delayed"; exit 1; }
[ "$2" -gt 0 ] || { echo "FAIL: not reordered"; exit 1; }
kill "$dpid"
wait "$dpid"
set -- $(probe); echo "delayer gone: last echo ${1} ms after the last send, ${2} out of order"
[ "$1" -lt 100 ] && [ "$2" -eq 0 ] || { echo "FAIL: packets held after the delayer left"; exit 1; }
echo "chaos_delay: ok"
