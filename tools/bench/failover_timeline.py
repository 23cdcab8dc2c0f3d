#!/usr/bin/env python3
"""failover_timeline: where a survivor's time went in a failover.

    tools/bench/failover_timeline.py LOG...

Each LOG is a survivor's hangard.log (bench_failover with BENCH_KEEP_LOGS=1
keeps them as n<i>.log). Times are ms after that node logged the death
(event=failover.member_dead): for each step of a take, the first, p50, p90
and last of its events; per sandbox, lease.taken -> sandbox.adopted; each
step's share of a take (the move's view, the lease's claim, the adoption);
and how many were taken and adopted in each 250 ms, where a 0 is a stall.
"""
import datetime
import re
import sys

STEPS = ["failover.claims_ahead", "failover.claims_ahead_sent", "failover.queued", "lease.flush_slow", "lease.taken", "sandbox.adopted",
         "failover.restored", "repl.sent"]


def stamp(line):
    m = re.match(r"ts=(\S+)Z", line)
    return datetime.datetime.fromisoformat(m.group(1)).timestamp() if m else None


def pct(v, q):
    return v[min(len(v) - 1, int(len(v) * q))]


def per_quarter_second(times):
    if not times:
        return []
    h = {}
    for t in times:
        h[int(t * 4)] = h.get(int(t * 4), 0) + 1
    return [h.get(i, 0) for i in range(max(h) + 1)]


def timeline(path):
    t0, events, by_sandbox, takes = None, {}, {}, {}
    with open(path, errors="replace") as f:
        for line in f:
            t = stamp(line)
            if t is None:
                continue
            if t0 is None and "event=failover.member_dead" in line:
                t0 = t
            if t0 is None:
                continue
            ev = re.search(r"event=([a-z_.]+)", line)
            sb = re.search(r"sandbox=(sb-[0-9a-f]+)", line)
            if not ev:
                continue
            events.setdefault(ev.group(1), []).append(t - t0)
            if "step=take " in line:
                for part, ms in re.findall(r" (view|claim|adopt)_ms=(\d+)", line):
                    takes.setdefault(part, []).append(int(ms))
            if sb:
                by_sandbox.setdefault(sb.group(1), {}).setdefault(ev.group(1), t - t0)
    print(f"== {path}")
    if t0 is None:
        print("no failover.member_dead: no death seen")
        return
    for step in STEPS:
        v = sorted(events.get(step, []))
        if v:
            print(f"{step:24s} n={len(v):5d} first={v[0] * 1000:7.0f} p50={pct(v, .5) * 1000:7.0f}"
                  f" p90={pct(v, .9) * 1000:7.0f} last={v[-1] * 1000:7.0f}")
    d = sorted(s["sandbox.adopted"] - s["lease.taken"] for s in by_sandbox.values()
               if "sandbox.adopted" in s and "lease.taken" in s)
    if d:
        print(f"taken -> adopted ms: p50 {pct(d, .5) * 1000:.0f} p90 {pct(d, .9) * 1000:.0f}"
              f" max {d[-1] * 1000:.0f}")
    for part in ("view", "claim", "adopt"):
        v = sorted(takes.get(part, []))
        if v:
            print(f"a take's {part:5s} ms: p50 {pct(v, .5)} p90 {pct(v, .9)} max {v[-1]}")
    first_taken = sorted(s["lease.taken"] for s in by_sandbox.values() if "lease.taken" in s)
    print("taken per 250 ms:  ", per_quarter_second(first_taken))
    print("adopted per 250 ms:", per_quarter_second(events.get("sandbox.adopted", [])))


def main():
    if len(sys.argv) < 2:
        print(__doc__.strip(), file=sys.stderr)
        return 2
    for path in sys.argv[1:]:
        timeline(path)
    return 0


if __name__ == "__main__":
    sys.exit(main())
