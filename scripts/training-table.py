#!/usr/bin/env python3
"""Accuracy versus simulated time, time to target and the gap to colocated training, generated.

Runs build/training-curves (nine-city topology, 10 Gbps links, 1 GB modelled payload, the
classification proxy task by default: the fast path, fluid round times), then reruns the best
schedule of every capability set through the packet-level exchange (build/training-proxy: real
values through the simulated network) under each --transports entry, and writes
doc/training-gap.rst (the table), doc/training-gap.csv (columns
series,capabilities,transport,schedule,time_to_target_s,gap; time empty where the target is
never reached) and doc/training-loss.png (held-out accuracy and loss against time).

Usage: /usr/bin/python3 scripts/training-table.py [--build-dir build] [--transports ideal,tcp]
[extra training-curves options, e.g. --modelBytes=1e9 --linkRate=10e9]
"""
import argparse
import csv
import json
import math
import os
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
# ExperimentOptions' "training" group: what the packet-level reruns take from the fast path.
TRAINING_OPTIONS = ["task", "dataset", "datasetDir", "hidden", "alpha", "classes",
                    "samplesPerIsland", "dimension", "heterogeneity", "optimizer", "lr",
                    "sgdMomentum", "batch", "outerLr", "outerMomentum", "fixedPointBits"]


def main():
    p = argparse.ArgumentParser(description=__doc__,
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--build-dir", default=os.path.join(ROOT, "build"))
    p.add_argument("--rst", default=os.path.join(ROOT, "doc", "training-gap.rst"))
    p.add_argument("--png", default=os.path.join(ROOT, "doc", "training-loss.png"))
    p.add_argument("--csv", default=os.path.join(ROOT, "doc", "training-gap.csv"))
    p.add_argument("--transports", default="ideal,tcp",
                   help="packet-level transports of the best schedules' reruns (comma-separated: "
                        "ideal, cc, tcp; empty: none)")
    p.add_argument("--packet-scale", type=float, default=100,
                   help="the packet-level reruns exchange modelBytes / scale over links of "
                        "linkRate / scale (access links and FPGAs scaled alike): the same "
                        "transmission times and the same latencies, scale^-1 of the packets")
    p.add_argument("--access-rate", type=float, default=10e9,
                   help="full-scale access rate of the devices, bit/s (the nine-city topology's "
                        "edge capacity), divided by --packet-scale for the reruns")
    args, extra = p.parse_known_args()
    binary = os.path.join(args.build_dir, "training-curves")
    if not os.path.exists(binary):
        sys.exit("no %s: build it first (scripts/build.sh --target training-curves)" % binary)
    tmp = tempfile.mkdtemp()
    csv_path = os.path.join(tmp, "curves.csv")
    json_path = os.path.join(tmp, "summary.json")
    # The documented case (the programs' shared defaults are a 100 MB model, 10 ms, one step,
    # period 2); extra arguments come after these and override them.
    case = ["--modelBytes=1e9", "--linkRate=10e9", "--computeTime=0.05", "--localSteps=20",
            "--period=3", "--objective=training"]
    run = subprocess.run([binary, "--csv=" + csv_path, "--json=" + json_path,
                          "--scheduleDir=" + tmp] + case + extra,
                         capture_output=True, text=True)
    sys.stderr.write(run.stdout)
    if run.returncode != 0:
        sys.exit("training-curves failed:\n" + run.stderr)
    summary = json.load(open(json_path))
    curves = {}
    with open(csv_path) as f:
        for row in csv.DictReader(f):
            curves.setdefault(row["series"], ([], [], []))
            curves[row["series"]][0].append(float(row["time_s"]))
            curves[row["series"]][1].append(float(row["loss"]))
            curves[row["series"]][2].append(float(row.get("accuracy") or "nan"))

    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    fig, (top, bottom) = plt.subplots(2, 1, figsize=(8, 8), sharex=True)
    for name, (t, loss, acc) in curves.items():
        width = 2 if name == "colocated" else 1.5
        top.plot(t, acc, label=name, linewidth=width)
        bottom.plot(t, loss, label=name, linewidth=width)
    top.axhline(summary["targetAccuracy"], color="grey", linestyle=":", linewidth=1,
                label="target accuracy")
    top.set_ylabel("held-out accuracy (%s)" % summary["metric"])
    bottom.set_ylabel("held-out loss (%s)" % summary["metric"])
    bottom.set_xlabel("simulated wall-clock time (s)")
    bottom.set_yscale("log")
    top.set_title("Nine cities, %g Gbps links, %g GB model: accuracy and loss against time" %
                  (summary["linkRate"] / 1e9, summary["modelBytes"] / 1e9))
    top.legend(fontsize="small")
    for ax in (top, bottom):
        ax.grid(True, which="both", alpha=0.3)
    fig.tight_layout()
    fig.savefig(args.png, dpi=110)

    packet = packet_rows(args, summary, tmp)

    def fmt(v, digits=2):
        return "never" if v is None or v < 0 else ("%.*f" % (digits, v))

    colocated_final = curves["colocated"][2][-1] if "colocated" in curves else float("nan")
    rows = [["colocated", "-", "%.2f" % (summary["computeTime"] * summary["localSteps"]),
             fmt(summary["colocated"]["timeToTarget"]), "1.00", "%.3f" % colocated_final]]
    rows[0].insert(1, "fast path")
    for s in summary["series"]:
        rows.append([s["name"], "fast path", s["cliques"], "%.2f" % s["meanRoundS"],
                     fmt(s["timeToTarget"]), fmt(s["gap"]), "%.3f" % s["finalAccuracy"]])
    def fast_accuracy_at(series, t):
        """The fast path's accuracy of \p series at simulated time t (its last point <= t)."""
        times, _, acc = curves[series]
        last = acc[0]
        for ti, ai in zip(times, acc):
            if ti > t + 1e-9:
                break
            last = ai
        return last

    for r in packet:
        # A packet rerun stops soon after the target (not at the fast path's horizon), so its
        # last accuracy is set beside the fast path's at the same simulated time.
        rows.append([r["series"], "packet, %s, 1/%g" % (r["transport"], args.packet_scale),
                     r["cliques"],
                     "%.2f" % r["meanRoundS"], fmt(r["timeToTarget"]), fmt(r["gap"]),
                     "%.3f at %.0f s (fast path %.3f)" % (
                         r["finalAccuracy"], r["finalTime"],
                         fast_accuracy_at(r["series"], r["finalTime"]))])
    header = ["series", "path", "schedule (clique sizes per round)", "round (s)",
              "to target (s)", "gap (x colocated)", "final accuracy"]
    colocated_t = summary["colocated"]["timeToTarget"]
    with open(args.csv, "w", newline="") as f:
        w = csv.writer(f)
        w.writerow(["series", "capabilities", "transport", "schedule", "time_to_target_s", "gap"])
        w.writerow(["colocated", "", "none", "-", "%.3f" % colocated_t, "1.000"])
        for s in summary["series"]:
            t = s["timeToTarget"]
            w.writerow([s["name"], s["capabilities"], "fluid", one_line(s["describe"]),
                        "" if t < 0 else "%.3f" % t, "" if t < 0 else "%.3f" % s["gap"]])
        for r in packet:
            t = r["timeToTarget"]
            w.writerow([r["series"], r["capabilities"], r["transport"], one_line(r["describe"]),
                        "" if t < 0 else "%.3f" % t, "" if t < 0 else "%.3f" % r["gap"]])
    agreement = []
    for r in packet:
        fast = next(s for s in summary["series"] if s["name"] == r["series"])
        if fast["timeToTarget"] > 0 and r["timeToTarget"] > 0:
            agreement.append("%s under %s: time to target %.2f s against %.2f s on the fast "
                             "path (%+.1f%%), mean round %.3f s against %.3f s (%+.1f%%)" % (
                                 r["series"], r["transport"], r["timeToTarget"],
                                 fast["timeToTarget"],
                                 100 * (r["timeToTarget"] / fast["timeToTarget"] - 1),
                                 r["meanRoundS"], fast["meanRoundS"],
                                 100 * (r["meanRoundS"] / fast["meanRoundS"] - 1)))
        else:
            agreement.append("%s under %s: time to target %s (fast path %s), mean round %.3f s "
                             "against %.3f s (%+.1f%%)" % (
                                 r["series"], r["transport"], fmt(r["timeToTarget"]),
                                 fmt(fast["timeToTarget"]), r["meanRoundS"], fast["meanRoundS"],
                                 100 * (r["meanRoundS"] / fast["meanRoundS"] - 1)))
    widths = [max(len(r[i]) for r in rows + [header]) for i in range(len(header))]
    line = "  ".join("=" * w for w in widths)
    table = [line, "  ".join(h.ljust(w) for h, w in zip(header, widths)), line]
    table += ["  ".join(c.ljust(w) for c, w in zip(r, widths)) for r in rows]
    table.append(line)
    text = [
        ".. Generated by scripts/training-table.py; do not edit.",
        "",
        "Accuracy against time and the gap to colocated training",
        "-------------------------------------------------------",
        "",
        "Proxy task: %s, an MLP with hidden layers %s (%d parameters) on %d samples per "
        "island, label-skewed shards (Dirichlet alpha %s), %s (learning rate %g, momentum %g, "
        "batch %d) with %d local steps of %g s per round on every island. Network: nine-city "
        "topology, %g Gbps private links, %g GB modelled payload per island per round; round "
        "times from the fluid cost model on the fast path (checked against the packet level "
        "below). "
        "Colocated: the same data and compute with free synchronous all-reduce, trained for "
        "%g s. Target: %d%% of colocated's best held-out accuracy (%.4f of %.4f); distributed "
        "runs are scored on %s; gap = time to target / colocated time to target; \"never\": "
        "not within %g s. \"Best\" schedules are the optimizer's (objective %s, periods up to "
        "%s, period 1 exact and longer ones from its heuristic) for each capability set; ring "
        "all-reduce is the all-in-one ring pattern. Final accuracy: %s at the end of the run "
        "(fast path: at %g s; a packet rerun stops soon after the target, so its last value "
        "is set beside the fast path's at the same time: under label skew the islands' own "
        "models lose accuracy in the rounds without communication, and a run that ends on "
        "such a round scores low)." % (
            summary["task"], summary["hidden"], summary["parameterCount"],
            summary["samplesPerIsland"], summary["alpha"], summary["optimizer"], summary["lr"],
            summary["sgdMomentum"], summary["batch"], summary["localSteps"],
            summary["computeTime"], summary["linkRate"] / 1e9, summary["modelBytes"] / 1e9,
            summary["referenceHorizon"], round(100 * summary["targetFraction"]),
            summary["targetAccuracy"], summary["bestAccuracy"], summary["metric"],
            summary["horizon"], summary["objective"], summary["parameters"]["period"],
            summary["metric"], summary["horizon"]),
        "",
        "\n".join(table),
        "",
        "Paths: \"fast path\" trains the islands (GapEvaluator) with the fluid cost model's "
        "round times; \"packet, <transport>\" reruns the same schedule (same patterns, task, "
        "seed and minibatches) through the packet-level exchange (examples/training-proxy.cc: "
        "the islands' real values cross the simulated network, the FPGAs sum fixed point) "
        "under that ns-3 transport (ideal: UDP paced at the central allocator's max-min "
        "rates; tcp: ns-3's TCP for unicast messages), for as many rounds as the fast path "
        "needed plus a margin, scaled by 1/%g (\"1/%g\" in the table): %g MB over %g Mbps "
        "links and access links (FPGAs at 1/%g of their rate), so the same serialisation "
        "times and the same latencies as the fast path's %g GB at %g Gbps with 1/%g of the "
        "packets (a full-size packet-level round costs minutes of CPU here); the model's "
        "real values are the same. Agreement (packet round times over whole periods): " % (
            args.packet_scale, args.packet_scale,
            summary["modelBytes"] / args.packet_scale / 1e6,
            summary["linkRate"] / args.packet_scale / 1e6, args.packet_scale,
            summary["modelBytes"] / 1e9, summary["linkRate"] / 1e9, args.packet_scale) + ("; ".join(agreement) if agreement else
                                            "no packet-level rerun in this build") + ".",
        "",
        ".. image:: training-loss.png",
        "   :width: 90%",
        ""]
    with open(args.rst, "w") as f:
        f.write("\n".join(text))
    sys.stderr.write("wrote %s and %s\n" % (args.rst, args.png))


def mean_round(times, period):
    """Mean round time over the whole periods of a run (times: start, then every round end)."""
    rounds = len(times) - 1
    whole = rounds - rounds % period if rounds >= period else rounds
    return (times[whole] - times[0]) / max(whole, 1)


def one_line(describe):
    """Schedule::Describe() on one line: rounds separated by '; '."""
    return "; ".join(line.strip() for line in describe.strip().splitlines())


def packet_rows(args, summary, tmp):
    """Rerun every best-* series through the packet level under each transport."""
    binary = os.path.join(args.build_dir, "training-proxy")
    transports = [t for t in args.transports.split(",") if t]
    out = []
    parameters = summary["parameters"]
    for s in summary["series"]:
        if not s["name"].startswith("best") or not s.get("scheduleFile"):
            continue
        # Rounds: what the fast path needed (or its whole horizon) plus a margin.
        t = s["timeToTarget"] if s["timeToTarget"] > 0 else summary["horizon"]
        rounds = int(math.ceil(1.25 * t / s["meanRoundS"])) + 2
        scale = args.packet_scale
        fpga_rate = summary["parameters"].get("fpgaRate", 1e11)
        for transport in transports:
            cmd = [binary, "--schedule=" + s["scheduleFile"], "--capabilities=" + s["capabilities"],
                   "--linkRate=%g" % (summary["linkRate"] / scale),
                   "--accessRate=%g" % (args.access_rate / scale),
                   "--fpgaRate=%g" % (float(fpga_rate) / scale),
                   "--rounds=%d" % rounds, "--modelBytes=%g" % (summary["modelBytes"] / scale),
                   "--computeTime=%g" % summary["computeTime"],
                   "--localSteps=%d" % summary["localSteps"],
                   "--seed=%d" % summary["seed"], "--db=none"]
            # The same task and inner/outer optimizers as the fast path (the "training" group).
            cmd += ["--%s=%s" % (k, parameters[k]) for k in TRAINING_OPTIONS if k in parameters]
            if transport != "ideal":
                cmd.append("--transport=" + transport)  # the default is ideal
            sys.stderr.write(" ".join(cmd) + "\n")
            run = subprocess.run(cmd, capture_output=True, text=True)
            if run.returncode != 0:
                sys.exit("training-proxy failed:\n" + run.stdout[-2000:] + run.stderr)
            times, acc = [], []
            for line in run.stdout.splitlines():
                f = line.split()
                if len(f) == 7 and (f[0].isdigit() or f[0] == "init"):
                    times.append(float(f[1]))
                    acc.append(float(f[5]))  # islands' own models (islands-mean)
            target = summary["targetAccuracy"]
            reached = -1.0
            for i, a in enumerate(acc):
                if times[i] > summary["horizon"]:
                    break  # the fast path's horizon: "never" means the same on both paths
                if a >= target:
                    if i == 0:
                        reached = times[0]
                    else:
                        reached = times[i - 1] + (target - acc[i - 1]) / (a - acc[i - 1]) * (
                            times[i] - times[i - 1])
                    break
            colocated = summary["colocated"]["timeToTarget"]
            out.append({"series": s["name"], "capabilities": s["capabilities"],
                        "transport": transport, "describe": s["describe"],
                        "cliques": s["cliques"],
                        "meanRoundS": mean_round(times, len(s["roundTimes"])),
                        "timeToTarget": reached,
                        "gap": reached / colocated if reached > 0 else -1,
                        "finalAccuracy": acc[-1], "finalTime": times[-1]})
    return out


if __name__ == "__main__":
    main()
