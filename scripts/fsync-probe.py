#!/usr/bin/env python3
"""How long the disk takes to make an appended write durable (docs/load.md, "The p99 at
200 rooms is the VM's wake-ups, not the disk").

Appends 12 KiB (three 4 KiB pages, about what one reply adds to SQLite's WAL) to a file
and times `fdatasync` alone, N times, then prints the distribution. Run it on the disk
of the server's data directory, on a quiet machine (scripts/quiet.sh):

    scripts/quiet.sh python3 scripts/fsync-probe.py 3000 /path/on/that/disk/probe.bin
"""
import os
import sys
import time

n = int(sys.argv[1]) if len(sys.argv) > 1 else 2000
path = sys.argv[2] if len(sys.argv) > 2 else "fsync-probe.bin"
fd = os.open(path, os.O_CREAT | os.O_WRONLY | os.O_TRUNC, 0o644)
buf = os.urandom(4096 * 3)
lat = []
off = 0
try:
    for _ in range(n):
        os.pwrite(fd, buf, off)
        off += len(buf)
        if off > 64 << 20:  # start over, as a WAL does, instead of filling the disk
            off = 0
        t = time.perf_counter()
        os.fdatasync(fd)
        lat.append(time.perf_counter() - t)
finally:
    os.close(fd)
    os.unlink(path)
lat.sort()


def q(p):
    return lat[min(len(lat) - 1, int(p * len(lat)))] * 1000


print(
    f"fdatasync of 12 KiB, {n} times: p50 {q(.5):.2f} ms, p90 {q(.9):.2f}, p99 {q(.99):.2f}, "
    f"p99.9 {q(.999):.2f}, max {lat[-1] * 1000:.2f}; mean {sum(lat) / n * 1000:.2f}"
)
