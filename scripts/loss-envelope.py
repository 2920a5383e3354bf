#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""Issue 15's loss envelope, measured: writes doc/loss-envelope.rst.

For every schedule (3x3-rotating, all-in-one) x mode (unicast, multicast, aggregation) x link
loss (1%, 5%), runs nine-city-training without loss and with loss p on every link, under the
ideal transport, and compares every clique-round with its envelope

    bound = lossFree / (1 - pPath) + 4 rtt

where lossFree is the same clique-round's time in the loss-free run, pPath = 1 - (1 - p)^hops
the end-to-end loss of the clique's longest path and rtt twice its largest one-way latency
(LossEnvelope, printed per clique-round by the loss-envelope-bound program from the same
options). The round times come from the results database each run writes (table rounds).
Under cc and tcp, where random loss is also a congestion signal, the same runs are reported as
inflation over their own loss-free runs (and, for information, beside the ideal bound).

Usage: /usr/bin/python3 scripts/loss-envelope.py [--build-dir build] [--model-bytes 100e6]
       [--transports ideal,cc,tcp] [--jobs 2] [--work-dir DIR [--reuse]]
       [--out doc/loss-envelope.rst]
       /usr/bin/python3 scripts/loss-envelope.py --quick --out /tmp/x.rst   # tiny, for CTest

Exit status: 0 if every run completed and every row was measured (whether or not the bound is
met: the table says so), 1 otherwise, 2 on bad arguments.
"""
import argparse
import concurrent.futures
import csv
import io
import os
import shlex
import sqlite3
import subprocess
import sys
import tempfile
import time

from rst_table import table

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
# Rounds per schedule: one period.
PERIOD = {"3x3-rotating": 2, "all-in-one": 1}


def read_run(db, key):
    """(status, version, {(round, clique): row}) of run \p key in database \p db."""
    con = sqlite3.connect(db)
    try:
        run = con.execute("SELECT status, version, error FROM runs WHERE run_key=?",
                          (key,)).fetchone()
        rows = con.execute(
            "SELECT r.round, r.clique, r.members, r.duration_s, r.retransmitted_bytes "
            "FROM rounds r JOIN runs u ON u.run_id = r.run_id WHERE u.run_key=?",
            (key,)).fetchall()
    finally:
        con.close()
    if not run:
        return None, None, {}
    if run[0] != "complete":
        return run[0], run[1], run[2] or ""
    return run[0], run[1], {(r, c): {"members": m, "duration": d, "retx": x}
                            for r, c, m, d, x in rows}


def run_experiment(args, binary, work, key, opts):
    """Runs nine-city-training once; returns ({(round, clique): row}, version) or an error
    string. With --reuse, a complete run of the same key already in the work directory (from
    an earlier invocation with the same options) is read instead of run again."""
    db = os.path.join(work, key + ".db")
    if args.reuse and os.path.exists(db):
        try:
            status, version, rows = read_run(db, key)
        except sqlite3.Error:
            status = None
        if status == "complete":
            sys.stderr.write("  %-48s reused (%s)\n" % (key, version))
            return rows, version
        if status in ("failed", "incomplete") and rows:
            # A run that ended with a recorded cause (the simulated-time limit, a TCP
            # connection given up) ends there again, the simulation being deterministic:
            # reused as its outcome (a run killed or cut off records none: run again).
            sys.stderr.write("  %-48s reused, %s (%s)\n" % (key, status, version))
            return "%s (%s): %s" % (status, version, rows[:90])
    if os.path.exists(db):
        os.remove(db)
    cmd = [binary, "--db=" + db, "--quiet=true", "--runKey=" + key] + opts
    start = time.time()
    try:
        out = subprocess.run(cmd, capture_output=True, text=True, timeout=args.timeout)
    except subprocess.TimeoutExpired:
        return "timeout (%d s wall)" % args.timeout
    wall = time.time() - start
    if out.returncode != 0:
        last = ((out.stdout + out.stderr).strip().splitlines() or ["no output"])[-1]
        return "exit %d: %s" % (out.returncode, last[:100])
    status, version, rows = read_run(db, key)
    if status != "complete":
        return "run not complete (%s)" % (status or "no row")
    sys.stderr.write("  %-48s %6.1f s wall\n" % (key, wall))
    return rows, version


def envelopes(binary, opts):
    """{(round, clique): (hops, rtt_s, path_loss)} from loss-envelope-bound."""
    out = subprocess.run([binary] + opts, capture_output=True, text=True, timeout=300)
    if out.returncode != 0:
        raise SystemExit("loss-envelope-bound failed: " + out.stderr.strip()[-300:])
    rows = csv.DictReader(io.StringIO(out.stdout))
    return {(int(r["round"]), int(r["clique"])): (int(r["hops"]), float(r["rtt_s"]),
                                                  float(r["path_loss"])) for r in rows}


def main():
    p = argparse.ArgumentParser(description=__doc__,
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--build-dir", default=os.path.join(ROOT, "build"))
    p.add_argument("--model-bytes", default="100e6")
    p.add_argument("--schedules", default="3x3-rotating,all-in-one")
    p.add_argument("--modes", default="unicast,multicast,aggregation")
    p.add_argument("--losses", default="0.01,0.05")
    p.add_argument("--transports", default="ideal,cc,tcp")
    p.add_argument("--congested-modes", default=None,
                   help="modes that get the cc and tcp rows (default: every mode)")
    p.add_argument("--timeout", type=int, default=3600, help="wall seconds per run")
    p.add_argument("--work-dir", default=None, help="databases (default: a temporary dir)")
    p.add_argument("--reuse", action="store_true",
                   help="read a complete run already in --work-dir instead of running it again "
                   "(the table lists the revisions its runs come from)")
    p.add_argument("--jobs", type=int, default=1, help="runs at a time")
    p.add_argument("--out", default=os.path.join(ROOT, "doc", "loss-envelope.rst"))
    p.add_argument("--quick", action="store_true",
                   help="tiny (200 kB, 3x3-rotating, 1%%, ideal and cc): checks the script")
    p.add_argument("--note", default="", help="a sentence added to the document")
    args = p.parse_args()
    if args.quick:
        args.model_bytes = "2e5"
        args.schedules = "3x3-rotating"
        args.losses = "0.01"
        args.transports = "ideal,cc"
    try:
        model_bytes = float(args.model_bytes)
        losses = [float(x) for x in args.losses.split(",")]
    except ValueError as e:
        p.error(str(e))
    if not (model_bytes >= 1) or any(not (0 < x < 1) for x in losses):
        p.error("--model-bytes must be >= 1 and every loss in (0, 1)")
    transports = args.transports.split(",")
    if "ideal" not in transports or any(t not in ("ideal", "cc", "tcp") for t in transports):
        p.error("--transports: ideal (needed for the bound), cc, tcp")
    if args.jobs < 1:
        p.error("--jobs must be at least 1")
    if args.reuse and not args.work_dir:
        p.error("--reuse needs --work-dir")
    sim = os.path.join(args.build_dir, "nine-city-training")
    bound_bin = os.path.join(args.build_dir, "loss-envelope-bound")
    for b in (sim, bound_bin):
        if not os.access(b, os.X_OK):
            p.error("no program %s (build it first)" % b)
    work = args.work_dir or tempfile.mkdtemp(prefix="loss-envelope.")
    os.makedirs(work, exist_ok=True)

    congested = (args.congested_modes or args.modes).split(",")

    def applies(mode, transport):
        # Under tcp only unicast messages use TCP: multicast and aggregation run cc's UDP
        # protocols, so their tcp runs would repeat the cc runs (not run; the doc says so).
        if transport != "ideal" and mode not in congested:
            return False
        return transport != "tcp" or mode == "unicast"

    # Every run first (independent: --jobs of them at a time), then the table.
    plan = {}
    bounds = {}
    for schedule in args.schedules.split(","):
        rounds = PERIOD.get(schedule, 2)
        for mode in args.modes.split(","):
            base = ["--schedule=" + schedule, "--mode=" + mode, "--rounds=%d" % rounds,
                    "--modelBytes=%g" % model_bytes]
            for loss in [0.0] + losses:
                if loss > 0:
                    bounds[(schedule, mode, loss)] = envelopes(
                        bound_bin, base + ["--lossRate=%g" % loss])
                for transport in transports:
                    if not applies(mode, transport):
                        continue
                    key = "%s-%s-%s-%s" % (schedule, mode, transport,
                                           "free" if loss == 0 else "%g" % loss)
                    plan[(schedule, mode, transport, loss)] = (
                        key, base + ["--transport=" + transport, "--lossRate=%g" % loss])
    with concurrent.futures.ThreadPoolExecutor(max_workers=args.jobs) as pool:
        futures = {k: pool.submit(run_experiment, args, sim, work, key, opts)
                   for k, (key, opts) in plan.items()}
        results = {k: f.result() for k, f in futures.items()}
    versions = sorted({r[1] for r in results.values() if not isinstance(r, str)})

    rows = []
    failures = []
    for schedule in args.schedules.split(","):
        for mode in args.modes.split(","):
            free = {t: results[(schedule, mode, t, 0.0)] for t in transports
                    if applies(mode, t)}
            for loss in losses:
                env = bounds[(schedule, mode, loss)]
                for transport in transports:
                    if not applies(mode, transport):
                        continue
                    lossy = results[(schedule, mode, transport, loss)]
                    label = [schedule, mode, "%g%%" % (loss * 100), transport]
                    clean = free[transport]
                    if isinstance(clean, str) or isinstance(lossy, str):
                        why = clean if isinstance(clean, str) else lossy
                        failures.append(" ".join(label) + ": " + why)
                        rows.append(label + ["-", "-", "-", "-", "-", why])
                        continue
                    clean, lossy = clean[0], lossy[0]
                    ideal_free = free["ideal"][0] if not isinstance(free["ideal"], str) \
                        else clean
                    worst, worst_key, infl = 0.0, None, 0.0
                    for k, rec in lossy.items():
                        if k not in clean or k not in env:
                            failures.append(" ".join(label) + ": clique-round %s missing" % (k,))
                            continue
                        hops, rtt, ppath = env[k]
                        # The envelope is the ideal transport's loss-free time inflated:
                        # cc and tcp rows show how far they are from it too.
                        bound = ideal_free[k]["duration"] / (1 - ppath) + 4 * rtt
                        ratio = rec["duration"] / bound
                        if ratio > worst:
                            worst, worst_key = ratio, k
                        infl = max(infl, rec["duration"] / clean[k]["duration"])
                    total = sum(r["duration"] for r in lossy.values())
                    total_free = sum(clean[k]["duration"] for k in lossy if k in clean)
                    retx = sum(r["retx"] for r in lossy.values()) / 1e6
                    wk = lossy[worst_key]["members"] + " r%d" % worst_key[0] if worst_key else "-"
                    hops, rtt, ppath = env.get(worst_key, (0, 0, 0))
                    verdict = ("met" if worst <= 1 else "NOT met") if transport == "ideal" \
                        else "(congestion signal)"
                    rows.append(label + ["%.3f" % (total_free / len(lossy)),
                                         "%.3f" % (total / len(lossy)),
                                         "x%.2f" % infl,
                                         "%.2f (%s, pPath %.0f%%, rtt %.0f ms)" % (
                                             worst, wk, ppath * 100, rtt * 1e3),
                                         "%.1f" % retx, verdict])

    header = ["schedule", "mode", "loss", "transport", "loss-free round (s)",
              "lossy round (s)", "worst inflation", "worst clique-round / bound",
              "retx (MB)", "envelope"]
    command = " ".join(shlex.quote(a) for a in ["/usr/bin/python3", "scripts/loss-envelope.py"] +
                       sys.argv[1:])
    size = "%g MB" % (model_bytes / 1e6)
    doc = """.. Generated by scripts/loss-envelope.py; do not edit by hand.

Loss envelope (issue 15)
------------------------

With independent random loss ``p`` on every link direction (per packet, ns-3
``RateErrorModel`` at each device's receive side), a clique-round should take at most

.. math::

   T_{lossy} \\le \\frac{T_{loss-free}}{1 - p_{path}} + 4\\,RTT

where :math:`T_{loss-free}` is the same clique-round without loss under the ``ideal``
transport, :math:`p_{path} = 1 - (1 - p)^{hops}` the end-to-end loss of the clique's longest
path (most links: unicast the route, multicast the source tree, aggregation member -> FPGA ->
member) and :math:`RTT` twice the largest one-way propagation latency of its paths
(``LossEnvelope``, printed per clique-round by ``loss-envelope-bound``).

Measured: model size **%(size)s**, %(rounds)s, seed 1, every other option at its default
(8192-byte segments, 9000-byte MTU, 2000-packet queues, barrier rounds, tree aggregation).
"lossy round" and "loss-free round" are the mean clique-round times; "worst inflation" the
largest ratio of a clique-round to the same clique-round without loss under the same
transport; "worst clique-round / bound" the largest ratio to the envelope above (built on the
``ideal`` loss-free time for every transport), with the clique-round, its path loss and RTT;
"retx" the bytes sent again. Under ``ideal`` the envelope is the requirement (``met`` when
the worst ratio is at most 1). Under ``cc`` and ``tcp`` random loss is also a congestion
signal (windows halve on every loss), so their rows report the inflation beside the envelope
and are not held to it; under ``tcp`` only unicast uses TCP (multicast and aggregation have no
TCP form and run the ``cc`` protocols, as in doc/transport-comparison.rst), so ``tcp`` rows
appear for unicast only (the ``cc`` rows of multicast and aggregation stand for both).
Revisions the runs come from: %(versions)s.
%(note)s
Recovery (doc/intelligent-network.rst, *Loss recovery*): NACKs as soon as a gap is seen,
acks listing every missing range that fits in a segment, whole-message acks to resends after
the last new segment, a tail probe, and redundant repair copies (``MaxRepairCopies`` 8).

%(table)s

Generated by::

   %(command)s
""" % {"size": size, "table": table(rows, header), "command": command,
       "rounds": ", ".join("%s %d rounds" % (s, PERIOD.get(s, 2))
                           for s in args.schedules.split(",")),
       "note": ("\n" + args.note + "\n") if args.note else "",
       "versions": ", ".join(versions) or "none"}
    with open(args.out, "w") as f:
        f.write(doc)
    sys.stderr.write("wrote %s (%d rows)\n" % (args.out, len(rows)))
    for f in failures:
        sys.stderr.write("FAILED: %s\n" % f)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
