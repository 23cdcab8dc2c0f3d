#!/usr/bin/env python3
"""bench_loop_dio: what the store's loop device doing direct I/O to its image
(node/store.c loop_direct_io) does to the latency of a small durable record
(an adoption batch, node/adopted.c: a file written, fsynced, renamed, the
directory fsynced) while guests dirty their RAM files (shared mappings in the
store, as QEMU's memory-backend-file). Both variants in one run, each on a
fresh btrfs in its own sparse loop image: buffered (the baseline) and direct.

    tools/bench/bench_loop_dio.py [--guests N] [--seconds S] [--tmp DIR] [--json F]

Needs root, mkfs.btrfs, losetup. Everything it mounts and attaches is undone
on exit."""
import argparse, json, mmap, os, random, subprocess, sys, tempfile, time

RAM = 256 << 20


def guest(path, seconds, seed):
    """A guest's RAM file: pages dirtied at random, 2000 every 10 ms."""
    fd = os.open(path, os.O_CREAT | os.O_RDWR)
    os.ftruncate(fd, RAM)
    m = mmap.mmap(fd, RAM, mmap.MAP_SHARED)
    r, end = random.Random(seed), time.time() + seconds
    while time.time() < end:
        for _ in range(2000):
            off = r.randrange(0, RAM // 4096) * 4096
            m[off:off + 8] = b"dirtydat"
        time.sleep(0.01)
    os._exit(0)


def record(d, i):
    """One adoption batch's worth of durable write; its ms."""
    t, p = time.monotonic(), f"{d}/b-{i}.tmp"
    fd = os.open(p, os.O_CREAT | os.O_WRONLY)
    os.write(fd, b"x" * 2000)
    os.fsync(fd)
    os.close(fd)
    os.rename(p, f"{d}/b-{i}.json")
    fd = os.open(d, os.O_RDONLY)
    os.fsync(fd)
    os.close(fd)
    return (time.monotonic() - t) * 1000


def variant(tmp, direct, guests, seconds):
    img, mnt = f"{tmp}/{'direct' if direct else 'buffered'}.img", f"{tmp}/mnt"
    subprocess.run(["truncate", "-s", "8G", img], check=True)
    subprocess.run(["mkfs.btrfs", "-q", img], check=True, capture_output=True)
    os.makedirs(mnt, exist_ok=True)
    dev = subprocess.run(["losetup", "-f", "--show", f"--direct-io={'on' if direct else 'off'}",
                          img], check=True, capture_output=True, text=True).stdout.strip()
    kids, lat = [], []
    try:
        subprocess.run(["mount", "-o", "noatime", dev, mnt], check=True)
        try:
            dio = open(f"/sys/block/{os.path.basename(dev)}/loop/dio").read().strip()
            for g in range(guests):
                pid = os.fork()
                if pid == 0:
                    guest(f"{mnt}/ram{g}", seconds + 10, g)
                kids.append(pid)
            time.sleep(8)  # their dirty pages build up, writeback starts
            end, i = time.time() + seconds, 0
            while time.time() < end:
                lat.append(record(mnt, i))
                i += 1
                time.sleep(0.05)
        finally:
            for k in kids:
                os.waitpid(k, 0)
            subprocess.run(["umount", mnt])
    finally:
        subprocess.run(["losetup", "-d", dev])
        os.remove(img)
    lat.sort()
    q = lambda f: round(lat[min(len(lat) - 1, int(len(lat) * f))], 1)
    return {"direct_io": dio, "records": len(lat), "p50_ms": q(.5), "p90_ms": q(.9),
            "p99_ms": q(.99), "max_ms": round(lat[-1], 1)}


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--guests", type=int, default=4)
    ap.add_argument("--seconds", type=int, default=25)
    ap.add_argument("--tmp", default="/var/tmp")
    ap.add_argument("--json")
    a = ap.parse_args()
    if os.geteuid() != 0:
        sys.exit("bench_loop_dio: needs root (losetup, mount)")
    with tempfile.TemporaryDirectory(dir=a.tmp, prefix="bench-loop-dio.") as tmp:
        res = {"buffered": variant(tmp, False, a.guests, a.seconds),
               "direct": variant(tmp, True, a.guests, a.seconds)}
    b, d = res["buffered"], res["direct"]
    print(f"record write (file + rename, 2 fsyncs) beside {a.guests} guests of "
          f"{RAM >> 20} MiB dirtying pages, {a.seconds} s each:")
    print("| loop | dio | records | p50 | p90 | p99 | max |")
    print("|---|---|---|---|---|---|---|")
    for k in ("buffered", "direct"):
        r = res[k]
        print(f"| {k} | {r['direct_io']} | {r['records']} | {r['p50_ms']} ms | {r['p90_ms']} ms "
              f"| {r['p99_ms']} ms | {r['max_ms']} ms |")
    print("direct / buffered: p50 %.2f, p90 %.2f, p99 %.2f, max %.2f" %
          tuple(d[k] / b[k] for k in ("p50_ms", "p90_ms", "p99_ms", "max_ms")))
    if a.json:
        with open(a.json, "w") as f:
            json.dump(res, f, indent=1)


if __name__ == "__main__":
    main()
