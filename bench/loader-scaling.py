#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0-only
"""Loader scaling (issue 15 "loaders linear in their input"): time and peak memory of loading
schedules, deeply nested JSON and topologies of size N, 2N and 4N, side by side in one run.
Not a test: it prints ratios (a linear loader doubles its time when the input doubles).

    bench/loader-scaling.py [--build-dir build] [--repeat 3]

What runs (each a whole process; the best of --repeat runs; peak RSS from wait4):
  * schedules of 2 000, 4 000 and 8 000 rounds (about 0.23, 0.46 and 0.92 MB), loaded by
    nine-city-training with --rounds=1 --modelBytes=1e5 --db=none: the simulation is one
    tiny round whatever the file, so the difference to the shipped 3x3-rotating schedule is
    the loading;
  * 10 000, 20 000 and 40 000 nested arrays (the file is refused at depth 64: the time and
    memory to get there);
  * topologies of 5 000, 10 000 and 20 000 cities (one device each, a chain of private links
    plus a chord every third device), read by bench-inputs --topology (reading only).
"""

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
CITIES = ["AMS", "BAR", "FRA", "LAX", "LON", "NYC", "SEO", "SIN", "TYO"]


def measure(cmd, repeat):
    """(best wall seconds, peak RSS in MB of that run) of cmd."""
    best = None
    for _ in range(repeat):
        t0 = time.monotonic()
        p = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        _, status, usage = os.wait4(p.pid, 0)
        wall = time.monotonic() - t0
        p.returncode = os.waitstatus_to_exitcode(status)
        if best is None or wall < best[0]:
            best = (wall, usage.ru_maxrss / 1024.0)
    return best


def schedule_file(d, rounds):
    path = os.path.join(d, "schedule-%d.json" % rounds)
    with open(path, "w") as f:
        json.dump({"name": "big", "rounds": [{"cliques": [CITIES[i::3] for i in range(3)]}
                                             for _ in range(rounds)]}, f, indent=1)
    return path


def nested_file(d, depth):
    path = os.path.join(d, "nested-%d.json" % depth)
    with open(path, "w") as f:
        f.write('{"name": "deep", "rounds": ' + "[" * depth + "]" * depth + "}")
    return path


def topology_file(d, n):
    path = os.path.join(d, "topology-%d.topology" % n)
    lines = ["[cities]", "code,name,latitude,longitude"]
    lines += ["C%d,City %d,%.3f,%.3f" % (i, i, -60 + (i * 7) % 120, -170 + (i * 13) % 340)
              for i in range(n)]
    lines += ["[devices]", "device,city,edge_gbps"] + ["D%d,C%d,10" % (i, i) for i in range(n)]
    lines += ["[private_links]", "device_a,device_b,latency_ms,capacity_gbps"]
    lines += ["D%d,D%d,5,10" % (i, i + 1) for i in range(n - 1)]
    lines += ["D%d,D%d,7,10" % (i, i + 7) for i in range(0, n - 10, 3)]
    with open(path, "w") as f:
        f.write("\n".join(lines) + "\n")
    return path


def table(title, rows):
    print("\n%s" % title)
    print("%14s %10s %10s %10s %12s" % ("input", "size (KB)", "time (s)", "RSS (MB)",
                                         "time ratio"))
    prev = None
    for label, size, t, rss in rows:
        ratio = "%.2f" % (t / prev) if prev and prev > 0 else "-"
        print("%14s %10.0f %10.3f %10.1f %12s" % (label, size / 1024.0, t, rss, ratio))
        prev = t


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--build-dir", default=os.path.join(REPO, "build"))
    ap.add_argument("--repeat", type=int, default=3)
    args = ap.parse_args()
    nct = os.path.join(args.build_dir, "nine-city-training")
    inputs = os.path.join(args.build_dir, "bench-inputs")
    for exe in (nct, inputs):
        if not os.access(exe, os.X_OK):
            sys.exit("loader-scaling: %s is not built" % exe)
    d = tempfile.mkdtemp(prefix="loader-scaling-")
    try:
        small = ["--rounds=1", "--modelBytes=1e5", "--db=none", "--quiet=1"]
        base, _ = measure([nct, "--schedule=3x3-rotating"] + small, args.repeat)
        rows = []
        for n in (2000, 4000, 8000):
            f = schedule_file(d, n)
            t, rss = measure([nct, "--schedule=" + f] + small, args.repeat)
            rows.append(("%d rounds" % n, os.path.getsize(f), max(t - base, 0.0), rss))
        table("Schedules (nine-city-training, minus the %.3f s of a run with the shipped "
              "schedule)" % base, rows)
        rows = []
        for n in (10000, 20000, 40000):
            f = nested_file(d, n)
            t, rss = measure([nct, "--schedule=" + f] + small, args.repeat)
            rows.append(("%d deep" % n, os.path.getsize(f), t, rss))
        table("Nested arrays (refused at depth 64; whole process)", rows)
        rows = []
        for n in (5000, 10000, 20000):
            f = topology_file(d, n)
            t, rss = measure([inputs, "--topology=" + f], args.repeat)
            rows.append(("%d cities" % n, os.path.getsize(f), t, rss))
        table("Topologies (bench-inputs --topology: reading only; whole process)", rows)
    finally:
        shutil.rmtree(d, ignore_errors=True)


if __name__ == "__main__":
    main()
