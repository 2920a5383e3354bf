#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0-only
"""Plots from a results database (and schedule / optimizer files), as PNG (or SVG) files.

    /usr/bin/python3 scripts/plot-results.py results.db --out plots/
    scripts/plot-results.py results.db --out plots --only map --schedule 3x3-rotating --format svg

Plots (each skipped with a message, never a crash, when its data is absent):
  round-time-vs-link-rate  mean round time versus private link rate, one line per mode, one
                           panel per (schedule, model size); error bars span the runs (seeds).
  clique-size-vs-capabilities
                           island-weighted mean clique size of the best (optimized) schedules
                           versus the network's capabilities, from runs of 'optimized*'
                           schedules in the database, doc/optimizer-table.rst and optimizer
                           schedule files (--optimizer-schedule).
  loss-vs-time             training loss versus time, from any table with run_id, a *loss*
                           column and a time column (the training proxy's tables).
  map-<schedule>           the cities of the topology with each period round's cliques drawn,
                           one panel per round.

Needs matplotlib (Debian: python3-matplotlib); uses the Agg backend. Exit status 0 when every
requested plot was written or skipped for lack of data, 2 on bad input.
"""

import argparse
import collections
import csv
import json
import os
import re
import sqlite3
import sys

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
DATA = os.path.join(REPO, "data")
PLOTS = ("round-time", "clique-size", "loss", "map")
MODE_ORDER = ["unicast", "multicast", "aggregation"]
MODE_LABEL = {"unicast": "unicast", "multicast": "multicast",
              "aggregation": "multicast + aggregation"}
KNOWN_TABLES = {"meta", "runs", "rounds", "island_rounds", "links"}


def log(msg):
    sys.stderr.write("plot-results: %s\n" % msg)


def skip(plot, why):
    log("skipped %s: %s" % (plot, why))


def pyplot():
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    return plt


def save(fig, path):
    fig.savefig(path, dpi=110, bbox_inches="tight")
    pyplot().close(fig)
    log("wrote %s" % path)


def rate_text(bps):
    for div, unit in ((1e9, "Gbps"), (1e6, "Mbps"), (1e3, "kbps")):
        if bps >= div:
            return "%g %s" % (bps / div, unit)
    return "%g bps" % bps


def bytes_text(b):
    for div, unit in ((1e9, "GB"), (1e6, "MB"), (1e3, "kB")):
        if b >= div:
            return "%g %s" % (b / div, unit)
    return "%g B" % b


def mode_key(mode):
    return (MODE_ORDER.index(mode) if mode in MODE_ORDER else len(MODE_ORDER), mode)


# --------------------------------------------------------------------------------------------
# Round time versus link rate


def plot_round_time(con, out, fmt):
    name = "round-time-vs-link-rate"
    runs = con.execute("SELECT run_id, mode, schedule, model_bytes, parameters FROM runs "
                       "WHERE status = 'complete'").fetchall()
    if not runs:
        return skip(name, "no complete runs in the database")
    durations = collections.defaultdict(list)
    for run_id, rnd, d in con.execute(
            "SELECT run_id, round, MAX(end_s) - MIN(start_s) FROM rounds GROUP BY run_id, round"):
        durations[run_id].append(d)
    private_rate = dict(con.execute(
        "SELECT run_id, MAX(capacity_bps) FROM links WHERE kind = 'private' GROUP BY run_id"))
    series = collections.defaultdict(lambda: collections.defaultdict(list))
    for run_id, mode, schedule, model_bytes, params in runs:
        if not durations.get(run_id):
            continue
        try:
            p = json.loads(params or "{}")
        except ValueError:
            p = {}
        rate = float(p.get("linkRate") or 0) or private_rate.get(run_id)
        if not rate:
            continue
        mean = sum(durations[run_id]) / len(durations[run_id])
        series[(schedule or "?", model_bytes or 0)][(mode or "?", rate)].append(mean)
    if not series:
        return skip(name, "no complete run has rounds and a link rate")
    groups = sorted(series, key=lambda g: (-sum(len(v) for v in series[g].values()), g))
    if len(groups) > 6:
        log("%s: %d (schedule, model size) groups; plotting the 6 with most runs" %
            (name, len(groups)))
        groups = sorted(groups[:6])
    else:
        groups = sorted(groups)
    plt = pyplot()
    cols = min(3, len(groups))
    rows = (len(groups) + cols - 1) // cols
    fig, axes = plt.subplots(rows, cols, figsize=(5.2 * cols, 3.9 * rows), squeeze=False,
                             constrained_layout=True)
    for ax, group in zip(axes.flat, groups):
        points = series[group]
        for mode in sorted({m for m, _ in points}, key=mode_key):
            xs = sorted(r for m, r in points if m == mode)
            ys = [sum(points[(mode, x)]) / len(points[(mode, x)]) for x in xs]
            lo = [max(0.0, y - min(points[(mode, x)])) for x, y in zip(xs, ys)]
            hi = [max(0.0, max(points[(mode, x)]) - y) for x, y in zip(xs, ys)]
            ax.errorbar(xs, ys, yerr=[lo, hi], marker="o", capsize=3,
                        label=MODE_LABEL.get(mode, mode))
        ax.set_xscale("log")
        rates = sorted({r for _, r in points})
        ax.set_xticks(rates)
        ax.set_xticklabels([rate_text(r) for r in rates], rotation=30 if len(rates) > 5 else 0)
        ax.minorticks_off()
        low = min(min(v) for v in points.values())
        if low > 0 and max(max(v) for v in points.values()) / low > 10:
            ax.set_yscale("log")
        ax.set_xlabel("private link rate")
        ax.set_ylabel("mean round time (s)")
        ax.set_title("%s, %s model" % (group[0], bytes_text(group[1])), fontsize=10)
        ax.grid(True, which="both", alpha=0.3)
        ax.legend(fontsize=8)
    for ax in list(axes.flat)[len(groups):]:
        ax.set_visible(False)
    fig.suptitle("Round time versus link rate")
    save(fig, os.path.join(out, "%s.%s" % (name, fmt)))


# --------------------------------------------------------------------------------------------
# Best clique size versus capabilities


def weighted_clique_size(rounds):
    """Island-weighted mean clique size over the rounds: sum(size^2) / sum(size)."""
    num = den = 0
    for sizes in rounds:
        num += sum(s * s for s in sizes)
        den += sum(sizes)
    return num / den if den else float("nan")


def clique_points_db(con):
    points = []
    rows = con.execute("SELECT run_id, mode, model_bytes, parameters FROM runs WHERE status = "
                       "'complete' AND schedule LIKE 'optimized%'").fetchall()
    for run_id, mode, model_bytes, params in rows:
        per_round = collections.defaultdict(list)
        for rnd, members in con.execute("SELECT round, members FROM rounds WHERE run_id = ?",
                                        (run_id,)):
            per_round[rnd].append(len(members.split("+")))
        if not per_round:
            continue
        try:
            rate = float(json.loads(params or "{}").get("linkRate") or 0)
        except ValueError:
            rate = 0
        points.append((mode, rate, model_bytes or 0, weighted_clique_size(per_round.values()),
                       "db"))
    return points


def clique_points_table(path):
    """Rows of doc/optimizer-table.rst: mode, rate, model size, 'p=2: 3+3+3 | 9'."""
    points = []
    try:
        text = open(path, encoding="utf-8").read()
    except OSError:
        return points
    for block in re.split(r"\n\s*\*\s+-\s+", text)[1:]:
        cells = [c.strip() for c in re.split(r"\n\s+-\s+", block)]
        if len(cells) < 4:
            continue
        m = re.match(r"p=\d+:\s*(.*)$", cells[3])
        r = re.match(r"([\d.]+)\s*Gbps", cells[1])
        if not (m and r):
            continue
        sizes = [[int(x) for x in part.split("+") if x.strip()]
                 for part in m.group(1).split("|")]
        mode = {"multicast+aggregation": "aggregation"}.get(cells[0], cells[0])
        points.append((mode, float(r.group(1)) * 1e9, parse_bytes(cells[2]),
                       weighted_clique_size(sizes), "optimizer table"))
    return points


def parse_bytes(text):
    m = re.match(r"([\d.]+)\s*([kMG]?)B", text.strip())
    if not m:
        return 0
    return float(m.group(1)) * {"": 1, "k": 1e3, "M": 1e6, "G": 1e9}[m.group(2)]


def clique_points_schedules(paths):
    """Optimizer output schedules: the description names mode, model and link rate."""
    points = []
    for path in paths:
        try:
            with open(path) as f:
                doc = json.load(f)
        except (OSError, ValueError) as e:
            log("ignoring optimizer schedule %s: %s" % (path, e))
            continue
        desc = doc.get("description", "")
        mode = re.search(r"mode (\w+)", desc)
        model = re.search(r"model ([\d.e+]+) B", desc)
        link = re.search(r"link ([\d.e+]+) bit/s", desc)
        sizes = [[len(c) for c in r.get("cliques", [])] for r in doc.get("rounds", [])]
        if not mode or not sizes:
            log("ignoring %s: not an optimize-schedule output (no mode in description)" % path)
            continue
        points.append((mode.group(1), float(link.group(1)) if link else 0,
                       float(model.group(1)) if model else 0, weighted_clique_size(sizes),
                       "schedule file"))
    return points


def plot_clique_size(con, out, fmt, table_path, schedule_files):
    name = "clique-size-vs-capabilities"
    points = clique_points_db(con) + clique_points_table(table_path) + \
        clique_points_schedules(schedule_files)
    if not points:
        return skip(name, "no optimized schedules: no 'optimized*' runs in the database, no "
                    "%s, no --optimizer-schedule files" % table_path)
    plt = pyplot()
    modes = sorted({p[0] for p in points}, key=mode_key)
    series = collections.defaultdict(dict)
    for mode, rate, model, size, source in points:
        series[(rate, model, source)][mode] = size
    fig, ax = plt.subplots(figsize=(7, 4.5))
    markers = "osD^v<>p*h"
    n = len(series)
    for i, key in enumerate(sorted(series)):
        rate, model, source = key
        ms = [m for m in modes if m in series[key]]
        shift = (i - (n - 1) / 2) * min(0.04, 0.5 / n)  # coinciding lines side by side
        label = "%s, %s model%s" % (rate_text(rate) if rate else "topology rate",
                                     bytes_text(model) if model else "?",
                                     "" if source == "optimizer table" else " (%s)" % source)
        ax.plot([modes.index(m) + shift for m in ms], [series[key][m] for m in ms],
                marker=markers[i % len(markers)], label=label)
    ax.set_xticks(range(len(modes)))
    ax.set_xticklabels([MODE_LABEL.get(m, m) for m in modes])
    ax.set_xlabel("network capabilities")
    ax.set_ylabel("mean clique size of the best schedule\n(island-weighted)")
    ax.grid(True, alpha=0.3)
    ax.legend(fontsize=7, loc="best")
    ax.set_title("Best clique size versus capabilities")
    save(fig, os.path.join(out, "%s.%s" % (name, fmt)))


# --------------------------------------------------------------------------------------------
# Loss versus time


# Time columns by preference; a round's loss is measured at its end (end_s, not start_s).
TIME_NAMES = [r"^(sim_)?time(_s)?$", r"^t(_s)?$", r"(^|_)time(_s)?$", r"^end(_time)?_s$",
              r"_s$", r"^wall", r"step", r"^round$", r"epoch"]


def loss_rank(name):
    """Prefer 'loss', then a global (held-out) loss, then any other *loss* column."""
    low = name.lower()
    return (0 if low == "loss" else 1 if "global" in low or "held" in low else
            3 if low.startswith(("local", "initial", "island")) else 2)


def find_loss_tables(con):
    """[(table, loss column, time column)] of tables that look like loss curves."""
    found = []
    for (table,) in con.execute("SELECT name FROM sqlite_master WHERE type = 'table'"):
        if table in KNOWN_TABLES or table.startswith("sqlite_"):
            continue
        cols = [r[1] for r in con.execute("PRAGMA table_info(\"%s\")" % table)]
        if "run_id" not in cols:
            continue
        loss = sorted((c for c in cols if "loss" in c.lower()), key=loss_rank)
        if not loss:
            continue
        time_col = None
        for pattern in TIME_NAMES:
            cands = [c for c in cols if re.search(pattern, c.lower()) and c not in loss]
            if cands:
                time_col = cands[0]
                break
        if time_col:
            found.append((table, loss[0], time_col))
    return found


def plot_loss(con, out, fmt):
    name = "loss-vs-time"
    tables = find_loss_tables(con)
    if not tables:
        return skip(name, "no loss table in the database (a table with run_id, a *loss* column "
                    "and a time column; the training proxy adds one)")
    run_info = {r[0]: r[1:] for r in con.execute(
        "SELECT run_id, mode, schedule, run_number FROM runs")}
    # The first loss table with rows: an empty one (the results schema always creates the
    # training table) must not hide another table's curves.
    for table, loss_col, time_col in tables:
        rows = con.execute("SELECT run_id, \"%s\", AVG(\"%s\") FROM \"%s\" WHERE \"%s\" IS NOT "
                           "NULL GROUP BY run_id, \"%s\" ORDER BY run_id, \"%s\"" %
                           (time_col, loss_col, table, loss_col, time_col, time_col)).fetchall()
        curves = collections.defaultdict(list)
        for run_id, t, loss in rows:
            if t is not None and loss is not None:
                curves[run_id].append((t, loss))
        if curves:
            break
    else:
        return skip(name, "table%s %s ha%s no rows" % ("s" if len(tables) > 1 else "",
                                                      ", ".join(t[0] for t in tables),
                                                      "ve" if len(tables) > 1 else "s"))
    plt = pyplot()
    fig, ax = plt.subplots(figsize=(7, 4.5))
    shown = sorted(curves)[:12]
    if len(curves) > 12:
        log("%s: %d runs; plotting the first 12" % (name, len(curves)))
    for run_id in shown:
        mode, schedule, run_number = run_info.get(run_id, ("?", "?", "?"))
        xs, ys = zip(*curves[run_id])
        ax.plot(xs, ys, marker="o" if len(xs) <= 30 else None, markersize=3,
                label="run %s: %s, %s, RngRun %s" % (run_id, mode, schedule, run_number))
    if all(y > 0 for c in curves.values() for _, y in c):
        ax.set_yscale("log")
    ax.set_xlabel(time_col)
    ax.set_ylabel(loss_col)
    ax.grid(True, alpha=0.3)
    ax.legend(fontsize=7)
    ax.set_title("Loss versus time (table %s)" % table)
    save(fig, os.path.join(out, "%s.%s" % (name, fmt)))


# --------------------------------------------------------------------------------------------
# Map


def read_cities(path):
    """{code: (name, lat, lon)} from the [cities] section of a topology file."""
    cities, section, header = {}, None, None
    with open(path, encoding="utf-8") as f:
        for line in f:
            line = line.strip()
            if not line or line.startswith("#"):
                continue
            if line.startswith("["):
                section, header = line.strip("[]").strip(), None
                continue
            if section != "cities":
                continue
            row = next(csv.reader([line]))
            if header is None:
                header = [h.strip() for h in row]
                continue
            rec = dict(zip(header, [c.strip() for c in row]))
            try:
                cities[rec["code"]] = (rec.get("name", rec["code"]), float(rec["latitude"]),
                                       float(rec["longitude"]))
            except (KeyError, ValueError):
                continue
    return cities


def schedule_path(name):
    if os.path.sep in name or name.endswith(".json"):
        return name
    return os.path.join(DATA, "schedules", name + ".json")


def convex_hull(points):
    pts = sorted(set(points))
    if len(pts) <= 2:
        return pts

    def cross(o, a, b):
        return (a[0] - o[0]) * (b[1] - o[1]) - (a[1] - o[1]) * (b[0] - o[0])

    lower, upper = [], []
    for p in pts:
        while len(lower) >= 2 and cross(lower[-2], lower[-1], p) <= 0:
            lower.pop()
        lower.append(p)
    for p in reversed(pts):
        while len(upper) >= 2 and cross(upper[-2], upper[-1], p) <= 0:
            upper.pop()
        upper.append(p)
    return lower[:-1] + upper[:-1]


def label_offset(cities, code):
    """Label placement that keeps the codes of nearby cities (AMS, LON, FRA) apart."""
    _, lat, lon = cities[code]
    near = sorted((c[2], k) for k, c in cities.items()
                  if abs(c[1] - lat) < 8 and abs(c[2] - lon) < 12)
    if len(near) == 1:
        return (4, 4), "left"
    fan = [((-5, 2), "right"), ((0, 7), "center"), ((5, -9), "left"), ((0, -14), "center")]
    return fan[[k for _, k in near].index(code) % len(fan)]


def plot_map(out, fmt, topology, schedule_file):
    cities = read_cities(topology)
    if not cities:
        return skip("map", "no [cities] with coordinates in %s" % topology)
    try:
        with open(schedule_file) as f:
            sched = json.load(f)
    except (OSError, ValueError) as e:
        return skip("map", "cannot read schedule %s: %s" % (schedule_file, e))
    rounds = sched.get("rounds", [])
    if not rounds:
        return skip("map", "schedule %s has no rounds" % schedule_file)
    name = sched.get("name") or os.path.splitext(os.path.basename(schedule_file))[0]
    plt = pyplot()
    cols = min(2, len(rounds))
    rows_n = (len(rounds) + cols - 1) // cols
    fig, axes = plt.subplots(rows_n, cols, figsize=(7.5 * cols, 4.2 * rows_n), squeeze=False,
                             constrained_layout=True)
    colors = plt.get_cmap("tab10").colors
    lons = [c[2] for c in cities.values()]
    lats = [c[1] for c in cities.values()]
    for r, (ax, rnd) in enumerate(zip(axes.flat, rounds)):
        in_clique = set()
        for k, clique in enumerate(rnd.get("cliques", [])):
            pts = [(cities[c][2], cities[c][1]) for c in clique if c in cities]
            color = colors[k % len(colors)]
            for i in range(len(pts)):
                for j in range(i + 1, len(pts)):
                    ax.plot([pts[i][0], pts[j][0]], [pts[i][1], pts[j][1]], color=color,
                            alpha=0.7, linewidth=1.5, zorder=2)
            hull = convex_hull(pts)
            if len(hull) >= 3:
                ax.fill([p[0] for p in hull], [p[1] for p in hull], color=color, alpha=0.12,
                        zorder=1)
            ax.scatter([p[0] for p in pts], [p[1] for p in pts], color=color, s=45, zorder=3,
                       label="+".join(clique))
            in_clique.update(clique)
        idle = [c for c in cities if c not in in_clique]
        if idle:
            ax.scatter([cities[c][2] for c in idle], [cities[c][1] for c in idle], color="grey",
                       marker="x", s=35, zorder=3, label="idle: " + "+".join(idle))
        for code, (_, lat, lon) in cities.items():
            offset, ha = label_offset(cities, code)
            ax.annotate(code, (lon, lat), textcoords="offset points", xytext=offset, ha=ha,
                        fontsize=8, zorder=4)
        ax.set_xlim(min(lons) - 20, max(lons) + 20)
        ax.set_ylim(min(lats) - 15, max(lats) + 15)
        ax.set_aspect("equal")
        ax.axhline(0, color="lightgrey", linewidth=0.8, zorder=0)
        ax.grid(True, alpha=0.25)
        ax.set_xlabel("longitude")
        ax.set_ylabel("latitude")
        ax.set_title("round %d of %d" % (r, len(rounds)), fontsize=10)
        ax.legend(fontsize=7, loc="lower left")
    for ax in list(axes.flat)[len(rounds):]:
        ax.set_visible(False)
    fig.suptitle("Schedule %s: cliques per period round" % name)
    safe = re.sub(r"[^\w.-]", "_", name)
    save(fig, os.path.join(out, "map-%s.%s" % (safe, fmt)))


def default_schedules(con):
    """Schedules the database's runs used (as files), else the shipped 3x3-rotating."""
    found = {}
    if con is not None:
        for name, params in con.execute("SELECT DISTINCT schedule, parameters FROM runs"):
            try:
                path = json.loads(params or "{}").get("schedule")
            except ValueError:
                path = None
            for cand in (schedule_path(name) if name else None, path):
                if name not in found and cand and os.path.isfile(cand):
                    found[name] = cand
    return list(found.values()) or [schedule_path("3x3-rotating")]


# --------------------------------------------------------------------------------------------


def main(argv=None):
    ap = argparse.ArgumentParser(description="Plots from a results database (doc/sweeps.rst).")
    ap.add_argument("db", nargs="?", help="results database (optional for --only map)")
    ap.add_argument("--out", default="plots", help="output directory (default plots/)")
    ap.add_argument("--format", choices=("png", "svg"), default="png")
    ap.add_argument("--only", default=",".join(PLOTS),
                    help="comma-separated subset of: %s" % ", ".join(PLOTS))
    ap.add_argument("--topology", default=os.path.join(DATA, "nine-city.topology"),
                    help="topology file for the map (default data/nine-city.topology)")
    ap.add_argument("--schedule", action="append", default=[],
                    help="schedule to map (name of a shipped one or a JSON path; repeatable; "
                         "default: the schedules of the database's runs)")
    ap.add_argument("--optimizer-table", default=os.path.join(REPO, "doc", "optimizer-table.rst"),
                    help="optimizer table for the clique-size plot (default "
                         "doc/optimizer-table.rst, used if present)")
    ap.add_argument("--optimizer-schedule", action="append", default=[],
                    help="optimize-schedule --out file for the clique-size plot (repeatable)")
    args = ap.parse_args(argv)

    wanted = [w.strip() for w in args.only.split(",") if w.strip()]
    bad = [w for w in wanted if w not in PLOTS]
    if bad:
        ap.error("unknown plot %s (choose from %s)" % (", ".join(bad), ", ".join(PLOTS)))
    con = None
    if args.db:
        if not os.path.isfile(args.db):
            log("error: %s: no such database" % args.db)
            return 2
        try:
            con = sqlite3.connect(args.db, timeout=60)
            con.execute("SELECT COUNT(*) FROM runs").fetchone()
        except sqlite3.Error as e:
            log("error: %s: not a results database: %s" % (args.db, e))
            return 2
    elif any(w != "map" for w in wanted):
        ap.error("a database is needed for plots other than the map")
    os.makedirs(args.out, exist_ok=True)
    try:
        pyplot()
    except ImportError as e:
        log("error: matplotlib is missing (apt-get install python3-matplotlib): %s" % e)
        return 2
    if "round-time" in wanted:
        plot_round_time(con, args.out, args.format)
    if "clique-size" in wanted:
        plot_clique_size(con, args.out, args.format, args.optimizer_table,
                         args.optimizer_schedule)
    if "loss" in wanted:
        plot_loss(con, args.out, args.format)
    if "map" in wanted:
        if not os.path.isfile(args.topology):
            log("error: %s: no such topology file" % args.topology)
            return 2
        for s in args.schedule or default_schedules(con):
            plot_map(args.out, args.format, args.topology, schedule_path(s))
    return 0


if __name__ == "__main__":
    sys.exit(main())
