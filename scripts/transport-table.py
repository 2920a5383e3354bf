#!/usr/bin/env python3
"""Runs the nine-city experiment under every transport and writes doc/transport-comparison.rst:
round time under ideal, cc and tcp (NewReno, Cubic, Bbr), the ratio to ideal, queue drops,
ECN marks and retransmitted bytes, for the 3x3-rotating and all-in-one schedules, 100 MB and
1 GB models, unicast, multicast and aggregation (measured, not typed in).

Under tcp only unicast messages use TCP: multicast and aggregation have no TCP form, so those
rows run the cc transport's UDP protocols beside TCP (the table says so).

Usage: /usr/bin/python3 scripts/transport-table.py [--build-dir build] [--sizes 100e6,1e9]
       [--jobs 2] [--out doc/transport-comparison.rst]
"""
import argparse
import concurrent.futures
import os
import re
import sqlite3
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
MODES = ["unicast", "multicast", "aggregation"]
# (label, extra options)
TRANSPORTS = [
    ("ideal", ["--transport=ideal"]),
    ("cc", ["--transport=cc"]),
    ("tcp NewReno", ["--transport=tcp", "--congestionControl=NewReno"]),
    ("tcp Cubic", ["--transport=tcp", "--congestionControl=Cubic"]),
    ("tcp Bbr", ["--transport=tcp", "--congestionControl=Bbr"]),
]
SUMMARY = re.compile(r"queue drops (\d+), ECN marks (\d+), retransmitted ([0-9.e+-]+) MB")


def run(binary, tmp, key, opts, timeout):
    db = os.path.join(tmp, key.replace(" ", "_").replace("/", "_") + ".db")
    cmd = [binary, "--db=" + db, "--quiet=1", "--runKey=" + key] + opts
    try:
        out = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout)
    except subprocess.TimeoutExpired:
        return {"status": "timeout (%d s wall)" % timeout}
    text = out.stdout + out.stderr
    m = SUMMARY.search(text)
    if out.returncode != 0 or not m:
        last = (text.strip().splitlines() or ["no output"])[-1]
        return {"status": "failed: " + last[:80]}
    con = sqlite3.connect(db)
    status = con.execute("SELECT status FROM runs WHERE run_key=?", (key,)).fetchone()[0]
    rows = con.execute(
        "SELECT r.round, MAX(r.end_s) - MIN(r.start_s) FROM rounds r JOIN runs u "
        "ON u.run_id = r.run_id WHERE u.run_key=? GROUP BY r.round ORDER BY r.round",
        (key,)).fetchall()
    con.close()
    result = {"status": status, "drops": int(m.group(1)), "marks": int(m.group(2)),
              "retx_mb": float(m.group(3)), "db": db}
    if rows:
        result["round_s"] = sum(d for _, d in rows) / len(rows)
    sys.stderr.write("  %s: %s\n" % (key, result))
    return result


def table(rows, header):
    widths = [max(len(str(r[i])) for r in rows + [header]) for i in range(len(header))]
    line = "  ".join("=" * w for w in widths)
    out = [line, "  ".join(str(h).ljust(w) for h, w in zip(header, widths)), line]
    out += ["  ".join(str(c).ljust(w) for c, w in zip(r, widths)) for r in rows]
    out.append(line)
    return "\n".join(out)


def main():
    p = argparse.ArgumentParser(description=__doc__)
    p.add_argument("--build-dir", default=os.path.join(ROOT, "build"))
    p.add_argument("--sizes", default="100e6,1e9", help="model bytes, comma-separated")
    p.add_argument("--schedules", default="3x3-rotating,all-in-one")
    p.add_argument("--rounds", type=int, default=3)
    p.add_argument("--segment-size", type=int, default=65000)
    p.add_argument("--mtu", type=int, default=65535)
    p.add_argument("--queue-size", type=int, default=100)
    p.add_argument("--jobs", type=int, default=2)
    p.add_argument("--timeout", type=float, default=1800, help="wall seconds per run")
    p.add_argument("--transports", default=",".join(t for t, _ in TRANSPORTS),
                   help="comma-separated subset of: " + ", ".join(t for t, _ in TRANSPORTS))
    p.add_argument("--out", default=os.path.join(ROOT, "doc", "transport-comparison.rst"))
    args = p.parse_args()
    chosen = args.transports.split(",")
    unknown = [t for t in chosen if t not in [name for name, _ in TRANSPORTS]]
    if unknown or "ideal" not in chosen:
        sys.exit("--transports: unknown %s (ideal is required: the ratios use it)" % unknown)
    transports = [(name, opts) for name, opts in TRANSPORTS if name in chosen]
    binary = os.path.join(args.build_dir, "nine-city-training")
    if not os.path.exists(binary):
        sys.exit("no %s: build first (scripts/build.sh)" % binary)
    if args.jobs < 1 or args.rounds < 1 or not args.timeout > 0:
        sys.exit("--jobs, --rounds and --timeout must be positive")
    sizes = [float(s) for s in args.sizes.split(",")]
    schedules = args.schedules.split(",")
    tmp = tempfile.mkdtemp()
    common = ["--rounds=%d" % args.rounds, "--segmentSize=%d" % args.segment_size,
              "--mtu=%d" % args.mtu, "--queueSize=%d" % args.queue_size, "--computeTime=0"]
    jobs = {}
    with concurrent.futures.ThreadPoolExecutor(max_workers=args.jobs) as pool:
        for schedule in schedules:
            for size in sizes:
                for mode in MODES:
                    for label, opts in transports:
                        if label.startswith("tcp") and mode != "unicast":
                            continue  # no TCP form: the same run as cc
                        key = "%s/%g/%s/%s" % (schedule, size, mode, label)
                        o = common + ["--schedule=" + schedule, "--modelBytes=%g" % size,
                                      "--mode=" + mode] + opts
                        jobs[key] = pool.submit(run, binary, tmp, key, o, args.timeout)
    results = {k: f.result() for k, f in jobs.items()}

    parts = [
        ".. Generated by scripts/transport-table.py; do not edit.",
        "",
        "Transports side by side",
        "-----------------------",
        "",
        "The nine-city network (``data/nine-city.topology``), %d rounds (mean round time, "
        "compute time 0: the exchange alone), %d-byte segments over a %d-byte MTU (TCP: "
        "MSS = MTU - 52), drop-tail egress queues of %d packets, no random loss. ``ideal`` is "
        "the idealised network-assisted pacing (the lower bound); ``cc`` the UDP protocols "
        "with an end-to-end congestion window per stream; ``tcp`` ns-3's TCP with persistent "
        "connections and BDP buffers, unicast only (multicast and aggregation have no TCP form: "
        "an island under ``tcp`` runs them with ``cc``'s UDP protocols, so their ``cc`` rows "
        "stand for both). Ratio = round time / ideal's. Drops: packets "
        "dropped by every egress queue; retransmitted: payload sent again. Command: "
        "``python3 scripts/transport-table.py --sizes %s --rounds %d --transports %s``." %
        (args.rounds, args.segment_size, args.mtu, args.queue_size, args.sizes, args.rounds,
         args.transports),
        "",
    ]
    parts += [
        "What ``ideal`` assumes",
        "~~~~~~~~~~~~~~~~~~~~~~",
        "",
        "``ideal`` is an idealisation, kept as the lower bound of round time: a zero-delay "
        "bandwidth broker (``RateController``) knows every stream the instant it starts or "
        "ends and gives it its weighted max-min fair share of every link it crosses, and "
        "perfectly paced hosts send exactly that rate from the first segment. No window is "
        "learnt, no queue builds, nothing is dropped. The fluid ``CostModel`` computes the same "
        "allocation and reproduces ``ideal`` only; ``cc`` and ``tcp`` add what real end-to-end "
        "congestion control costs (slow start over 100-290 ms round trips, losses at shallow "
        "queues, round-trip unfairness, and for ``tcp`` ack compression between the two "
        "directions of an exchange).",
        "",
    ]
    header = ["mode", "transport", "round (s)", "x ideal", "drops", "marks", "retx (MB)"]
    for schedule in schedules:
        for size in sizes:
            title = "%s, %g MB model" % (schedule, size / 1e6)
            parts += [title, "~" * len(title), ""]
            rows = []
            for mode in MODES:
                ideal = results["%s/%g/%s/ideal" % (schedule, size, mode)]
                for label, _ in transports:
                    if label.startswith("tcp") and mode != "unicast":
                        continue
                    r = results["%s/%g/%s/%s" % (schedule, size, mode, label)]
                    shown = label
                    if "round_s" not in r or r["status"] != "complete":
                        rows.append([mode, shown, r["status"], "", "", "", ""])
                        continue
                    ratio = (r["round_s"] / ideal["round_s"]) if "round_s" in ideal else None
                    rows.append([mode, shown, "%.3f" % r["round_s"],
                                 "%.2f" % ratio if ratio else "",
                                 r["drops"], r["marks"], "%.1f" % r["retx_mb"]])
            parts += [table(rows, header), ""]
    # Hand check of one cell: 3x3-rotating, unicast, ideal, round 0, clique AMS+FRA+LON. Each
    # island sends the model to two peers through its one 10 Gbps access link (LON and FRA
    # reach both peers by LON1 and FRA1): two streams of 5 Gbps each. Segments carry
    # segment-size bytes plus 58 header bytes (island 28, UDP 8, IPv4 20, PPP 2); the last
    # one is stored and forwarded by each of the 3 hops; the longest path is LON1-FRA1 (4.96 ms)
    # plus two 10 us access links.
    for size in sizes:
        key = "3x3-rotating/%g/unicast/ideal" % size
        r = results.get(key, {})
        if "db" not in r:
            continue
        seg = args.segment_size
        n = -(-int(size) // seg)
        last = int(size) - (n - 1) * seg
        wire = (n - 1) * (seg + 58) + (last + 58)
        expected = wire * 8 / 5e9 + 3 * (last + 58) * 8 / 10e9 + 4.96e-3 + 2 * 10e-6
        con = sqlite3.connect(r["db"])
        row = con.execute("SELECT duration_s FROM rounds WHERE round = 0 AND members LIKE "
                          "'%AMS%' AND members LIKE '%FRA%' AND members LIKE '%LON%'").fetchone()
        con.close()
        if row:
            parts += [
                "Hand check (%g MB, 3x3-rotating, unicast, ``ideal``, round 0, clique "
                "AMS+FRA+LON): every island sends the model to two peers through its one 10 Gbps "
                "access link, two streams of 5 Gbps; %d segments of %d bytes (the last %d) plus "
                "58 header bytes each = %d wire bytes at 5 Gbps, plus the last segment stored "
                "and forwarded by 3 hops at 10 Gbps, plus the longest path (LON1-FRA1 4.96 ms "
                "and two 10 us access links): %.4f s by hand, %.4f s measured (%+.2f%%)." %
                (size / 1e6, n, seg, last, wire, expected, row[0],
                 100 * (row[0] / expected - 1)), ""]
    with open(args.out, "w") as f:
        f.write("\n".join(parts))
    print("wrote", args.out)


if __name__ == "__main__":
    main()
