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
import json
import os
import re
import sqlite3
import subprocess
import sys
import tempfile

from rst_table import table

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
# (row label, --mode, schedule pattern of every clique or None: the mode's own). ring and tree
# are the all-reduce collectives the plain network runs best (unicast messages: over TCP under
# tcp); multicast and aggregation are the network-assisted modes.
MODES = [
    ("unicast", "unicast", None),
    ("ring", "unicast", "ring"),
    ("tree", "unicast", "tree"),
    ("multicast", "multicast", None),
    ("aggregation", "aggregation", None),
]
# (label, extra options)
TRANSPORTS = [
    ("ideal", ["--transport=ideal"]),
    ("ideal shallow", ["--transport=ideal"]),  # the other rows' queues (see the text)
    ("cc", ["--transport=cc"]),
    ("tcp NewReno", ["--transport=tcp", "--congestionControl=NewReno"]),
    ("tcp Cubic", ["--transport=tcp", "--congestionControl=Cubic"]),
    ("tcp Bbr", ["--transport=tcp", "--congestionControl=Bbr"]),
]
SUMMARY = re.compile(r"queue drops (\d+), ECN marks (\d+), retransmitted ([0-9.e+-]+) MB")


def run(binary, tmp, key, opts, timeout):
    base = os.path.join(tmp, key.replace(" ", "_").replace("/", "_"))
    db = base + ".db"
    cmd = [binary, "--db=" + db, "--quiet=1", "--runKey=" + key] + opts
    log = base + ".out"
    marker = base + ".timeout"
    if os.path.exists(marker):
        # --work-dir kept from an earlier invocation in which this run timed out: not again
        with open(marker) as f:
            return {"status": "timeout (%s s wall)" % f.read().strip()}
    if os.path.exists(log) and os.path.exists(db):
        # --work-dir kept from an earlier invocation: the same run, not run again
        with open(log) as f:
            text, returncode = f.read(), 0
    else:
        try:
            out = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout)
        except subprocess.TimeoutExpired:
            with open(marker, "w") as f:
                f.write("%d\n" % timeout)
            return {"status": "timeout (%d s wall)" % timeout}
        text, returncode = out.stdout + out.stderr, out.returncode
        if returncode == 0:
            with open(log, "w") as f:
                f.write(text)
    m = SUMMARY.search(text)
    if returncode != 0 or not m:
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


def main():
    p = argparse.ArgumentParser(description=__doc__)
    p.add_argument("--build-dir", default=os.path.join(ROOT, "build"))
    p.add_argument("--sizes", default="100e6,1e9", help="model bytes, comma-separated")
    p.add_argument("--schedules", default="3x3-rotating,all-in-one")
    p.add_argument("--rounds", type=int, default=3)
    p.add_argument("--segment-size", type=int, default=65000)
    p.add_argument("--mtu", type=int, default=65535)
    p.add_argument("--queue-size", type=int, default=100)
    p.add_argument("--ideal-queue-size", type=int, default=2000,
                   help="queues of the ideal runs (the reference: deep enough for its "
                        "instant reallocations, see the text)")
    p.add_argument("--jobs", type=int, default=2)
    p.add_argument("--timeout", type=float, default=1800, help="wall seconds per run")
    p.add_argument("--transports", default=",".join(t for t, _ in TRANSPORTS),
                   help="comma-separated subset of: " + ", ".join(t for t, _ in TRANSPORTS))
    p.add_argument("--note", action="append", default=[],
                   help="a paragraph for the document (e.g. what this regeneration did not "
                   "run); repeatable")
    p.add_argument("--work-dir", help="keep the runs' databases here; a run whose database "
                   "and output are already there is not run again (re-render, add sizes)")
    p.add_argument("--modes", default=",".join(m[0] for m in MODES),
                   help="comma-separated subset of: " + ", ".join(m[0] for m in MODES))
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
    tmp = args.work_dir or tempfile.mkdtemp()
    os.makedirs(tmp, exist_ok=True)
    common = ["--rounds=%d" % args.rounds, "--segmentSize=%d" % args.segment_size,
              "--mtu=%d" % args.mtu, "--computeTime=0"]
    modes = [m for m in MODES if m[0] in args.modes.split(",")]
    if len(modes) != len(args.modes.split(",")):
        sys.exit("--modes: one of %s" % ", ".join(m[0] for m in MODES))

    def schedule_file(schedule, pattern):
        """The shipped schedule, or a copy with every clique's pattern set."""
        if pattern is None:
            return schedule
        with open(os.path.join(ROOT, "data", "schedules", schedule + ".json")) as f:
            doc = json.load(f)
        for r in doc["rounds"]:
            r["patterns"] = [pattern] * len(r["cliques"])
        path = os.path.join(tmp, "%s-%s.json" % (schedule, pattern))
        with open(path, "w") as f:
            json.dump(doc, f)
        return path

    def over_tcp(mode):
        return mode[1] == "unicast"  # multicast and aggregation have no TCP form

    jobs = {}
    with concurrent.futures.ThreadPoolExecutor(max_workers=args.jobs) as pool:
        for schedule in schedules:
            for size in sizes:
                for mode in modes:
                    for label, opts in transports:
                        if label.startswith("tcp") and not over_tcp(mode):
                            continue  # no TCP form: the same run as cc
                        key = "%s/%g/%s/%s" % (schedule, size, mode[0], label)
                        queue = args.ideal_queue_size if label == "ideal" else args.queue_size
                        o = common + ["--schedule=" + schedule_file(schedule, mode[2]),
                                      "--modelBytes=%g" % size, "--mode=" + mode[1],
                                      "--queueSize=%d" % queue] + opts
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
        "MSS = MTU - 52), drop-tail egress queues of %d packets (``ideal``: %d, see below), no "
        "random loss. ``ideal`` is "
        "the idealised network-assisted pacing (the max-min fair reference); ``cc`` the UDP protocols "
        "with an end-to-end congestion window per stream; ``tcp`` ns-3's TCP with persistent "
        "connections and BDP buffers, unicast only (multicast and aggregation have no TCP form: "
        "an island under ``tcp`` runs them with ``cc``'s UDP protocols, so their ``cc`` rows "
        "stand for both). Ratio = round time / ideal's. Drops: packets "
        "dropped by every egress queue; retransmitted: payload sent again. Command: "
        "``python3 scripts/transport-table.py --sizes %s --rounds %d --modes %s --transports %s "
        "--queue-size %d --ideal-queue-size %d``. "
        "Modes: ``unicast`` (all-to-all), ``ring`` and ``tree`` (the all-reduce collectives, "
        "the best the plain network can do: every clique's pattern set in a copy of the "
        "schedule; unicast messages, so over TCP under ``tcp``), ``multicast`` and "
        "``aggregation`` (the network-assisted modes)." %
        (args.rounds, args.segment_size, args.mtu, args.queue_size, args.ideal_queue_size,
         args.sizes, args.rounds, args.modes, args.transports, args.queue_size,
         args.ideal_queue_size),
        "",
    ]
    for note in args.note:
        parts += [note, ""]
    parts += [
        "What ``ideal`` assumes",
        "~~~~~~~~~~~~~~~~~~~~~~",
        "",
        "``ideal`` is an idealisation, kept as the max-min fair reference of round time: a zero-delay "
        "bandwidth broker (``RateController``) knows every stream the instant it starts or "
        "ends and gives it its weighted max-min fair share of every link it crosses, and "
        "perfectly paced hosts send exactly that rate from the first segment. No window is "
        "learnt and no queue builds while the allocation holds. When it changes (a stream "
        "starts or ends) the broker applies the new rates at once, but packets already in "
        "flight at the old rates still reach the shared links for up to a one-way latency "
        "(100-200 ms here): a transient a real broker would schedule around (decreases "
        "first, increases once the old rates have drained) and that the fluid model ignores. "
        "The ``ideal`` runs are therefore given queues deep enough to absorb it "
        "(``--ideal-queue-size``); the rows ``ideal shallow`` are the same runs with the "
        "other rows' queues, where patterns whose streams start and end all the time (tree "
        "and ring all-reduce) drop and resend. The fluid ``CostModel`` computes the same "
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
            for m in modes:
                mode = m[0]
                ideal = results["%s/%g/%s/ideal" % (schedule, size, mode)]
                for label, _ in transports:
                    if label.startswith("tcp") and not over_tcp(m):
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
    # Hand check of one cell: 3x3-rotating, unicast, ideal, round 0, clique AMS+FRA+LON, on the
    # metro fabric. AMS has one device: its two outgoing streams (and the two coming in) share
    # the 10 Gbps metro link AMS-metro - AMS1, 5 Gbps each. Segments carry segment-size bytes
    # plus 58 header bytes (island 28, UDP 8, IPv4 20, PPP 2). The longest AMS path is
    # AMS - AMS-metro (access, 10 us) - AMS1 (metro, 50 us) - FRA1 (private, 2.11 ms) -
    # FRA-metro (50 us) - FRA (10 us) = 2.23 ms; the first segment crosses the island's access
    # link (18 Gbps: the sum of AMS's metro links and uplink) before the bottleneck, the last
    # one is stored and forwarded after it by AMS1 -> FRA1 and FRA1 -> FRA-metro (10 Gbps) and
    # FRA-metro -> FRA (28 Gbps).
    for size in sizes:
        key = "3x3-rotating/%g/unicast/ideal" % size
        r = results.get(key, {})
        if "db" not in r:
            continue
        seg = args.segment_size
        n = -(-int(size) // seg)
        last = int(size) - (n - 1) * seg
        wire = (n - 1) * (seg + 58) + (last + 58)
        expected = (wire * 8 / 5e9 + 2.23e-3 + (seg + 58) * 8 / 18e9 +
                    (last + 58) * 8 * (2 / 10e9 + 1 / 28e9))
        con = sqlite3.connect(r["db"])
        row = con.execute("SELECT duration_s FROM rounds WHERE round = 0 AND members LIKE "
                          "'%AMS%' AND members LIKE '%FRA%' AND members LIKE '%LON%'").fetchone()
        con.close()
        if row:
            parts += [
                "Hand check (%g MB, 3x3-rotating, unicast, ``ideal``, round 0, clique "
                "AMS+FRA+LON): AMS has one device, so its two outgoing streams (and the two "
                "coming in) share its 10 Gbps metro link, 5 Gbps each; %d segments of %d bytes "
                "(the last %d) plus 58 header bytes each = %d wire bytes at 5 Gbps, plus the "
                "longest AMS path (AMS-FRA: 10 us access, 50 us metro, 2.11 ms AMS1-FRA1, 50 us, "
                "10 us = 2.23 ms), the first segment over the 18 Gbps access link and the last "
                "one stored and forwarded by the three hops after the bottleneck: %.4f s by "
                "hand, %.4f s measured (%+.2f%%)." %
                (size / 1e6, n, seg, last, wire, expected, row[0],
                 100 * (row[0] / expected - 1)), ""]
    with open(args.out, "w") as f:
        f.write("\n".join(parts))
    print("wrote", args.out)


if __name__ == "__main__":
    main()
