#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0-only
"""Plots from a results database, as PNG (or SVG) files, each with the data it shows.

    /usr/bin/python3 scripts/plot-results.py results.db --out plots/
    scripts/plot-results.py results.db --out plots --only timeline --run 7 --format svg
    scripts/plot-results.py results.db --where lossRate=0 --where topology=...  # select runs

Every plot is drawn from the complete runs of the database only, and never averages runs it
cannot tell apart: a run's configuration is every column of `runs` and every key of its
recorded `parameters` (options, attributes, globals). Runs that differ only in their random
seeds (RngRun, RngSeed) are replicates: a point averages them and its error bar spans them.
Any other parameter that varies between runs splits the figure (panels, lines); a plot that
would need more than --max-panels panels is skipped with the parameters that vary, to select
with --where. Every figure says where its data comes from (database, run ids, query) under
the plot and in its metadata, and a sidecar <figure>.data.json holds the plotted numbers.

Plots (each skipped with a message, never a crash, when its data is absent):
  round-time-vs-link-rate  mean round time versus private link rate (the run's linkRate, or
                           its private links' capacity), one line per mode, one panel per
                           configuration of the other varying parameters.
  clique-size-vs-capabilities
                           island-weighted mean clique size of the optimizer's schedules
                           (runs whose schedule is named optimized-*, from their rounds)
                           versus the network's capabilities, one line per configuration;
                           optimizer output files given with --optimizer-schedule too.
  loss-vs-time             training loss versus time, one curve per run, from any table with
                           run_id, a *loss* column and a time column (the training proxy's).
  map-<schedule>           the cities of the run's own topology (its recorded --topology:
                           our format or GraphML) with each round's cliques, from the run's
                           rounds (or a schedule file given with --schedule).
  timeline-run<id>         per island and round: compute, exchange (send and receive) and
                           wait for the slowest island (table island_rounds): stragglers show.

Needs matplotlib (Debian: python3-matplotlib); uses the Agg backend. Exit status 0 when every
requested plot was written or skipped for lack of data, 2 on bad input.
"""

import argparse
import collections
import csv
import json
import math
import os
import re
import sqlite3
import stat
import sys
import tempfile
import xml.etree.ElementTree as ET

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
DATA = os.path.join(REPO, "data")
PLOTS = ("round-time", "clique-size", "loss", "map", "timeline")
MODE_ORDER = ["unicast", "multicast", "aggregation"]
MODE_LABEL = {"unicast": "unicast", "multicast": "multicast",
              "aggregation": "multicast + aggregation"}
KNOWN_TABLES = {"meta", "runs", "rounds", "island_rounds", "links"}
# Replicate axes: runs differing only in these are repetitions of one configuration.
REPLICATE_KEYS = {"RngRun", "RngSeed", "run_number", "seed"}
# Identity and bookkeeping columns of runs: never parameters of a configuration.
RUN_COLUMNS = ("program", "version", "topology", "schedule", "mode", "model_bytes",
               "segment_size", "rounds")


def log(msg):
    sys.stderr.write("plot-results: %s\n" % msg)


def skip(plot, why):
    log("skipped %s: %s" % (plot, why))


class BadInput(Exception):
    """Bad input (a file, an option): exit status 2 before anything is drawn. str() is
    'FILE:LINE: field 'FIELD': message' as the programs' InputError (parts known only)."""

    def __init__(self, where, message, line=0, field=""):
        text = where + (":%d" % line if line else "") + (": field '%s'" % field if field
                                                          else "")
        super().__init__("%s: %s" % (text, message))


def read_input_text(path, what):
    """The UTF-8 text of input file \\p path (a byte-order mark dropped). A FIFO, device or
    directory is refused without being opened (it could block or never end)."""
    try:
        st = os.stat(path)
    except OSError as e:
        raise BadInput(path, "cannot read %s: %s" % (what, e.strerror))
    if not stat.S_ISREG(st.st_mode):
        raise BadInput(path, "not a regular file (%s): not a %s" % (
            "a directory" if stat.S_ISDIR(st.st_mode) else "a FIFO" if stat.S_ISFIFO(st.st_mode)
            else "a device or special file", what))
    try:
        with open(path, "rb") as f:
            data = f.read()
    except OSError as e:
        raise BadInput(path, "cannot read %s: %s" % (what, e.strerror))
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as e:
        raise BadInput(path, "not UTF-8 text: ill-formed byte 0x%02X" % data[e.start],
                       line=data.count(b"\n", 0, e.start) + 1)


def pyplot():
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    return plt


class Source:
    """Where a figure's data comes from: database, run ids, query."""

    def __init__(self, db, run_ids, query, note=""):
        self.db, self.run_ids, self.query, self.note = db, sorted(run_ids), query, note

    def text(self):
        return "data: %s, %d run%s (%s); %s%s" % (
            os.path.basename(self.db) if self.db else "(no database)", len(self.run_ids),
            "" if len(self.run_ids) == 1 else "s", id_ranges(self.run_ids), self.query,
            "; " + self.note if self.note else "")

    def json(self):
        return {"database": os.path.abspath(self.db) if self.db else None,
                "run_ids": self.run_ids, "query": self.query, "note": self.note}


def id_ranges(ids):
    """[1, 2, 3, 7] -> 'runs 1-3, 7'."""
    if not ids:
        return "no runs"
    parts, start, prev = [], ids[0], ids[0]
    for i in ids[1:] + [None]:
        if i is not None and i == prev + 1:
            prev = i
            continue
        parts.append(str(start) if start == prev else "%d-%d" % (start, prev))
        if i is not None:
            start = prev = i
    return "run " + ", ".join(parts) if len(ids) == 1 else "runs " + ", ".join(parts)


def save(fig, out, name, fmt, source, data):
    """Save the figure with its source under it (and in its metadata) and the data beside."""
    text = source.text()
    # Below the axes (bbox_inches="tight" grows the image to hold it).
    fig.text(0.01, -0.01, text, fontsize=6, color="dimgray", ha="left", va="top", wrap=True)
    path = os.path.join(out, "%s.%s" % (name, fmt))
    meta = {"Description": text} if fmt == "png" else {"Description": text}
    fig.savefig(path, dpi=110, bbox_inches="tight", pad_inches=0.25, metadata=meta)
    pyplot().close(fig)
    with open(os.path.join(out, "%s.data.json" % name), "w") as f:
        json.dump({"figure": os.path.basename(path), "source": source.json(), "data": data}, f,
                  indent=1, sort_keys=True, default=str)
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
# Runs and their configurations


def value_text(v):
    if isinstance(v, float) and v == int(v) and abs(v) < 1e15:
        v = int(v)
    return json.dumps(v) if isinstance(v, (dict, list)) else str(v)


def run_parameters(text):
    """The parameters object of a runs row ({} when absent or not an object)."""
    try:
        p = json.loads(text or "{}")
    except ValueError:
        return {}
    return p if isinstance(p, dict) else {}


def load_runs(con, where):
    """{run_id: config dict} of the complete runs that pass every --where filter. A --where
    NAME that no run of the database (of any status) has at all is bad input (BadInput)."""
    runs = {}
    cols = ", ".join(RUN_COLUMNS)
    names, any_run = set(RUN_COLUMNS), False
    for (params,) in con.execute("SELECT parameters FROM runs"):
        any_run = True
        names.update(run_parameters(params))
    unknown = [k for k, _ in where if k not in names]
    if any_run and unknown:
        raise BadInput("--where %s" % unknown[0], "no run of the database has a parameter "
                       "'%s' (its options and columns: %s; attributes: ns3::TYPE::NAME)" %
                       (unknown[0], ", ".join(sorted(n for n in names if "::" not in n))))
    for row in con.execute("SELECT run_id, %s, parameters FROM runs WHERE status = "
                           "'complete' ORDER BY run_id" % cols):
        run_id, values, params = row[0], row[1:-1], row[-1]
        cfg = {"run." + c: v for c, v in zip(RUN_COLUMNS, values)}
        cfg.update(run_parameters(params))
        runs[run_id] = cfg
    for key, want in where:
        runs = {r: c for r, c in runs.items()
                if where_matches(c.get(key, c.get("run." + key)), want)}
    return runs


def where_matches(value, want):
    """--where KEY=VALUE: the text as recorded, or the same number however written
    (linkRate=5e9 matches 5000000000)."""
    text = value_text(value)
    if text == want:
        return True
    try:
        a, b = float(text), float(want)
    except (TypeError, ValueError):
        return False
    return a == b or abs(a - b) <= 1e-12 * max(abs(a), abs(b))


def varying(runs, ignore=()):
    """Keys whose values differ between \\p runs (missing counts as a value), replicates and
    \\p ignore left out; sorted."""
    keys = set()
    for cfg in runs.values():
        keys.update(cfg)
    out = []
    for k in sorted(keys):
        if k in REPLICATE_KEYS or k in ignore:
            continue
        if len({value_text(cfg.get(k)) for cfg in runs.values()}) > 1:
            out.append(k)
    return out


# runs columns shown under their option's name (labels show each setting once).
COLUMN_OPTION = {"model_bytes": "modelBytes", "segment_size": "segmentSize"}


def config_label(cfg, keys):
    parts = []
    for k in keys:
        if "run." + k in keys:
            continue  # the runs column says it (resolved: the schedule's name, not its path)
        name = k[4:] if k.startswith("run.") else k
        name = COLUMN_OPTION.get(name, name)
        v = cfg.get(k)
        if name in ("linkRate", "accessRate", "publicRate", "fpgaRate") and \
                isinstance(v, (int, float)) and v:
            v = rate_text(v)
        elif name in ("modelBytes", "model_bytes") and isinstance(v, (int, float)):
            v = bytes_text(v)
        elif name == "topology" and isinstance(v, str):
            v = os.path.splitext(os.path.basename(v))[0]
        part = "%s=%s" % (name, value_text(v) if v is not None else "(none)")
        if part not in parts:
            parts.append(part)
    return ", ".join(parts) if parts else "all runs"


def group_runs(runs, keys):
    groups = collections.defaultdict(list)
    for run_id, cfg in runs.items():
        groups[tuple(value_text(cfg.get(k)) for k in keys)].append(run_id)
    return groups


def too_many(name, n, limit, keys):
    names = []
    for k in keys:
        k = k[4:] if k.startswith("run.") else k
        if k not in names:
            names.append(k)
    skip(name, "%d configurations (%s vary) need more than %d panels; select runs with "
         "--where NAME=VALUE" % (n, ", ".join(names), limit))


# --------------------------------------------------------------------------------------------
# Round time versus link rate


def plot_round_time(con, db, runs, out, fmt, max_panels):
    name = "round-time-vs-link-rate"
    if not runs:
        return skip(name, "no complete runs in the database (or none selected)")
    query = ("round time = MAX(end_s) - MIN(start_s) per (run_id, round) of table rounds, "
             "averaged over a run's rounds; link rate = parameters.linkRate, else "
             "MAX(capacity_bps) of the run's private links")
    durations = collections.defaultdict(list)
    for run_id, rnd, d in con.execute(
            "SELECT run_id, round, MAX(end_s) - MIN(start_s) FROM rounds GROUP BY run_id, round"):
        durations[run_id].append(d)
    private_rate = dict(con.execute(
        "SELECT run_id, MAX(capacity_bps) FROM links WHERE kind = 'private' GROUP BY run_id"))
    usable = {}
    for run_id, cfg in runs.items():
        if not durations.get(run_id):
            continue
        rate = cfg.get("linkRate")
        rate = float(rate) if isinstance(rate, (int, float)) and rate else \
            private_rate.get(run_id)
        if rate:
            usable[run_id] = (rate, sum(durations[run_id]) / len(durations[run_id]))
    if not usable:
        return skip(name, "no complete run has rounds and a link rate")
    sel = {r: runs[r] for r in usable}
    panel_keys = varying(sel, ignore={"linkRate", "mode", "run.mode"})
    panels = group_runs(sel, panel_keys)
    if len(panels) > max_panels:
        return too_many(name, len(panels), max_panels, panel_keys)
    plt = pyplot()
    cols = min(3, len(panels))
    rows = (len(panels) + cols - 1) // cols
    fig, axes = plt.subplots(rows, cols, figsize=(5.4 * cols, 4.1 * rows), squeeze=False,
                             constrained_layout=True)
    data = []
    for ax, key in zip(axes.flat, sorted(panels)):
        members = panels[key]
        label = config_label(runs[members[0]], panel_keys)
        points = collections.defaultdict(list)
        for r in members:
            mode = runs[r].get("mode") or runs[r].get("run.mode") or "?"
            points[(mode, usable[r][0])].append(r)
        panel = {"panel": label, "lines": []}
        for mode in sorted({m for m, _ in points}, key=mode_key):
            xs = sorted(x for m, x in points if m == mode)
            ys, lo, hi, pts = [], [], [], []
            for x in xs:
                vals = [usable[r][1] for r in points[(mode, x)]]
                y = sum(vals) / len(vals)
                ys.append(y)
                lo.append(max(0.0, y - min(vals)))
                hi.append(max(0.0, max(vals) - y))
                pts.append({"link_rate_bps": x, "mean_round_s": y, "runs": points[(mode, x)],
                            "replicates": len(vals)})
            ax.errorbar(xs, ys, yerr=[lo, hi], marker="o", capsize=3,
                        label=MODE_LABEL.get(mode, mode))
            panel["lines"].append({"mode": mode, "points": pts})
        data.append(panel)
        rates = sorted({x for _, x in points})
        ax.set_xscale("log")
        ax.set_xticks(rates)
        ax.set_xticklabels([rate_text(r) for r in rates], rotation=30 if len(rates) > 5 else 0)
        ax.minorticks_off()
        ys_all = [usable[r][1] for r in members]
        if min(ys_all) > 0 and max(ys_all) / min(ys_all) > 10:
            ax.set_yscale("log")
        ax.set_xlabel("private link rate")
        ax.set_ylabel("mean round time (s)")
        ax.set_title(label, fontsize=8)
        ax.grid(True, which="both", alpha=0.3)
        ax.legend(fontsize=8)
    for ax in list(axes.flat)[len(panels):]:
        ax.set_visible(False)
    fig.suptitle("Round time versus link rate (error bars: replicates differing in RngRun/"
                 "RngSeed only)", fontsize=10)
    save(fig, out, name, fmt, Source(db, usable, query,
                                     "panels by " + (", ".join(panel_keys) or "nothing")), data)


# --------------------------------------------------------------------------------------------
# Best clique size versus capabilities


def weighted_clique_size(rounds):
    """Island-weighted mean clique size over the rounds: sum(size^2) / sum(size)."""
    num = den = 0
    for sizes in rounds:
        num += sum(s * s for s in sizes)
        den += sum(sizes)
    return num / den if den else float("nan")


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
        sizes = [[len(c) for c in r.get("cliques", [])] for r in doc.get("rounds", [])]
        if not mode or not sizes:
            log("ignoring %s: not an optimize-schedule output (no mode in description)" % path)
            continue
        points.append((mode.group(1), "file %s: %s" % (os.path.basename(path),
                                                        doc.get("name", "?")),
                       weighted_clique_size(sizes)))
    return points


def plot_clique_size(con, db, runs, out, fmt, schedule_files):
    name = "clique-size-vs-capabilities"
    query = ("complete runs whose schedule is named optimized-*; clique sizes from the members "
             "of table rounds, weighted by islands")
    opt = {r: c for r, c in runs.items() if str(c.get("run.schedule") or "").startswith(
        "optimized")}
    per_run = {}
    for r in opt:
        per_round = collections.defaultdict(list)
        for rnd, members in con.execute("SELECT round, members FROM rounds WHERE run_id = ?",
                                        (r,)):
            per_round[rnd].append(len(members.split("+")))
        if per_round:
            per_run[r] = weighted_clique_size(per_round.values())
    files = clique_points_schedules(schedule_files)
    if not per_run and not files:
        return skip(name, "no runs of the optimizer's schedules (schedule optimized-*) in the "
                    "database and no --optimizer-schedule files")
    sel = {r: opt[r] for r in per_run}
    # The schedule is the optimizer's answer, not a setting: lines by every other parameter.
    line_keys = varying(sel, ignore={"mode", "run.mode", "run.schedule", "schedule"})
    lines = group_runs(sel, line_keys)
    plt = pyplot()
    fig, ax = plt.subplots(figsize=(7.5, 4.8), constrained_layout=True)
    modes = sorted({(c.get("mode") or c.get("run.mode") or "?") for c in sel.values()} |
                   {p[0] for p in files}, key=mode_key)
    markers = "osD^v<>p*h"
    data = []
    n = len(lines) + len(files)
    for i, key in enumerate(sorted(lines)):
        members = lines[key]
        by_mode = collections.defaultdict(list)
        for r in members:
            by_mode[sel[r].get("mode") or sel[r].get("run.mode") or "?"].append(r)
        ms = [m for m in modes if m in by_mode]
        ys = [sum(per_run[r] for r in by_mode[m]) / len(by_mode[m]) for m in ms]
        shift = (i - (n - 1) / 2) * min(0.04, 0.5 / max(n, 1))
        label = config_label(sel[members[0]], line_keys)
        ax.plot([modes.index(m) + shift for m in ms], ys, marker=markers[i % len(markers)],
                label=label)
        data.append({"line": label, "points": [
            {"mode": m, "clique_size": y, "runs": by_mode[m],
             "schedules": sorted({sel[r]["run.schedule"] for r in by_mode[m]})}
            for m, y in zip(ms, ys)]})
    for j, (mode, label, size) in enumerate(files):
        ax.plot([modes.index(mode)], [size], marker=markers[(len(lines) + j) % len(markers)],
                linestyle="none", label=label)
        data.append({"line": label, "points": [{"mode": mode, "clique_size": size}]})
    ax.set_xticks(range(len(modes)))
    ax.set_xticklabels([MODE_LABEL.get(m, m) for m in modes])
    ax.set_xlabel("network capabilities")
    ax.set_ylabel("mean clique size of the optimizer's schedule\n(island-weighted)")
    ax.grid(True, alpha=0.3)
    ax.legend(fontsize=7, loc="best")
    ax.set_title("Best clique size versus capabilities", fontsize=10)
    note = "lines by " + (", ".join(line_keys) or "nothing")
    if files:
        note += "; files: " + ", ".join(os.path.basename(f) for f in schedule_files)
    save(fig, out, name, fmt, Source(db, per_run, query, note), data)


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


def plot_loss(con, db, runs, out, fmt):
    name = "loss-vs-time"
    tables = find_loss_tables(con)
    if not tables:
        return skip(name, "no loss table in the database (a table with run_id, a *loss* column "
                    "and a time column; the training proxy adds one)")
    # The first loss table with rows of selected runs: an empty one (the results schema always
    # creates the training table) must not hide another table's curves.
    for table, loss_col, time_col in tables:
        rows = con.execute("SELECT run_id, \"%s\", AVG(\"%s\") FROM \"%s\" WHERE \"%s\" IS NOT "
                           "NULL GROUP BY run_id, \"%s\" ORDER BY run_id, \"%s\"" %
                           (time_col, loss_col, table, loss_col, time_col, time_col)).fetchall()
        curves = collections.defaultdict(list)
        for run_id, t, loss in rows:
            if t is not None and loss is not None and (run_id in runs or not runs):
                curves[run_id].append((t, loss))
        if curves:
            break
    else:
        return skip(name, "table%s %s ha%s no rows of the selected runs" % (
            "s" if len(tables) > 1 else "", ", ".join(t[0] for t in tables),
            "ve" if len(tables) > 1 else "s"))
    plt = pyplot()
    fig, ax = plt.subplots(figsize=(7.5, 4.8), constrained_layout=True)
    shown = sorted(curves)[:12]
    if len(curves) > 12:
        log("%s: %d runs; plotting the first 12 (select with --where)" % (name, len(curves)))
    known = {r: runs[r] for r in shown if r in runs}
    keys = varying(known) if len(known) > 1 else []
    data = []
    for run_id in shown:
        xs, ys = zip(*curves[run_id])
        label = "run %s" % run_id + (": " + config_label(runs.get(run_id, {}), keys)
                                     if keys else "")
        ax.plot(xs, ys, marker="o" if len(xs) <= 30 else None, markersize=3, label=label)
        data.append({"run": run_id, "label": label, "time": list(xs), "loss": list(ys)})
    if all(y > 0 for c in curves.values() for _, y in c):
        ax.set_yscale("log")
    ax.set_xlabel(time_col)
    ax.set_ylabel(loss_col)
    ax.grid(True, alpha=0.3)
    ax.legend(fontsize=7)
    ax.set_title("Loss versus time (table %s)" % table, fontsize=10)
    query = "AVG(%s) per (run_id, %s) of table %s (islands averaged)" % (loss_col, time_col,
                                                                        table)
    save(fig, out, name, fmt, Source(db, shown, query,
                                     "labels by " + (", ".join(keys) or "run id")), data)


# --------------------------------------------------------------------------------------------
# Topologies (the run's own) and the map


def read_cities(path, codes=None):
    """{code: (name, lat, lon)}: our format's [cities], or a GraphML file (Topology Zoo). With
    \\p codes (a set), bad input raises BadInput (file, line, field) and \\p codes gets every
    city's code, those without coordinates too; without, what cannot be read is left out."""
    if path.lower().endswith(".graphml"):
        return read_graphml_cities(path, codes)
    strict = codes is not None
    cities, section, header, seen_section = {}, None, None, False
    if strict:
        lines = read_input_text(path, "topology file").split("\n")
    else:
        with open(path, encoding="utf-8-sig") as f:
            lines = f.read().split("\n")
    for lineno, line in enumerate(lines, 1):
        line = line.strip()
        if not line or line.startswith("#"):
            continue
        if line.startswith("["):
            section, header = line.strip("[]").strip(), None
            seen_section = seen_section or section == "cities"
            continue
        if section != "cities":
            continue
        row = next(csv.reader([line]))
        if header is None:
            header = [h.strip() for h in row]
            missing = [c for c in ("code", "latitude", "longitude") if c not in header]
            if strict and missing:
                raise BadInput(path, "section [cities] has no column %s" % ", ".join(missing),
                               line=lineno, field=missing[0])
            continue
        rec = dict(zip(header, [c.strip() for c in row]))
        if not strict:
            try:
                cities[rec["code"].upper()] = (rec.get("name", rec["code"]),
                                               float(rec["latitude"]), float(rec["longitude"]))
            except (KeyError, ValueError):
                pass
            continue
        code = rec.get("code", "").upper()
        if not code:
            raise BadInput(path, "a city needs a code", line=lineno, field="code")
        codes.add(code)
        coords = []
        for col, limit in (("latitude", 90), ("longitude", 180)):
            text = rec.get(col, "")
            try:
                x = float(text) if text else None
            except ValueError:
                x = float("nan")
            if x is not None and not (math.isfinite(x) and -limit <= x <= limit):
                raise BadInput(path, "city '%s': '%s' is not a %s (-%d .. %d)" %
                               (code, text, col, limit, limit), line=lineno, field=col)
            coords.append(x)
        if (coords[0] is None) != (coords[1] is None):
            raise BadInput(path, "city '%s' has only one of latitude and longitude" % code,
                           line=lineno, field="latitude" if coords[0] is None else "longitude")
        if coords[0] is not None:
            cities[code] = (rec.get("name") or code, coords[0], coords[1])
    if strict and not seen_section:
        raise BadInput(path, "no [cities] section: not a topology file (.topology or .graphml)")
    return cities


def graphml_code(label):
    """GraphmlTopologyReader::CodeFromLabel: the first three ASCII letters or digits."""
    return "".join(c for c in label if c.isascii() and c.isalnum())[:3].upper()


def read_graphml_cities(path, codes=None):
    """Cities of a GraphML file with the codes GraphmlTopologyReader gives them (label ->
    code, made unique in file order; device = code + "1" also reserved). Nodes without
    coordinates are left out (the reader keeps them unknown). With \\p codes (a set): bad input
    raises BadInput and \\p codes gets every node's code."""
    ns = {"g": "http://graphml.graphdrawing.org/xmlns"}
    if codes is None:
        root = ET.parse(path).getroot()
    else:
        text = read_input_text(path, "GraphML topology file")
        try:
            root = ET.fromstring(text)
        except ET.ParseError as e:
            raise BadInput(path, "not XML: %s" % e, line=e.position[0])
    if not root.tag.endswith("graphml"):
        if codes is not None:
            raise BadInput(path, "not GraphML (the root element is <%s>)" % root.tag)
        return {}
    tag = lambda t: "{%s}%s" % (ns["g"], t) if root.tag.startswith("{") else t
    keys = {k.get("id"): k.get("attr.name") for k in root.iter(tag("key"))
            if k.get("for") == "node"}
    cities, taken = {}, set()
    for i, node in enumerate(root.iter(tag("node"))):
        values = {keys.get(d.get("key")): (d.text or "").strip() for d in node.iter(tag("data"))}
        base = graphml_code(values.get("label", "")) or "N%d" % i
        code, k = base, 2
        while code in taken or code + "1" in taken:
            code, k = "%s%d" % (base, k), k + 1
        taken.update((code, code + "1"))
        if codes is not None:
            codes.add(code)
        try:
            cities[code] = (values.get("label") or code, float(values["Latitude"]),
                            float(values["Longitude"]))
        except (KeyError, ValueError):
            continue
    return cities


def schedule_path(name):
    if os.path.sep in name or name.endswith(".json"):
        return name
    return os.path.join(DATA, "schedules", name + ".json")


class _JsonError(ValueError):
    def __init__(self, message, field=""):
        super().__init__(message)
        self.message, self.field, self.pos = message, field, None


def parse_json(path, text):
    """JSON as the programs' JsonDocument reads it (model/json-document.cc): a key at most once
    in an object, finite numbers only; errors name the line. Returns the document and
    {id(object or array): the line it starts on}."""
    lines = {}

    def line_of(pos):
        return text.count("\n", 0, pos) + 1

    def pairs(items):
        out = {}
        for key, value in items:
            if key in out:
                raise _JsonError("duplicate key '%s' (a key may appear once in an object)" % key,
                                 key)
            out[key] = value
        return out

    def number(t):
        if not math.isfinite(float(t)):
            raise _JsonError("number '%s' is out of range (not a finite double)" % t)
        return float(t)

    def constant(t):
        raise _JsonError("'%s' is not a JSON value (numbers are finite)" % t)

    def positioned(parse):
        def wrapper(s_and_end, *rest):
            try:
                value, end = parse(s_and_end, *rest)
            except _JsonError as e:
                e.pos = s_and_end[1] if e.pos is None else e.pos
                raise
            lines[id(value)] = line_of(s_and_end[1])
            return value, end
        return wrapper

    dec = json.JSONDecoder(object_pairs_hook=pairs, parse_float=number,
                           parse_constant=constant)
    # The pure-Python scanner calls these hooks (the C one does not): lines of every object
    # and array, and of the one where an error is found.
    dec.parse_object = positioned(json.decoder.JSONObject)
    dec.parse_array = positioned(json.decoder.JSONArray)
    dec.scan_once = json.scanner.py_make_scanner(dec)
    try:
        return dec.decode(text), lines
    except _JsonError as e:
        raise BadInput(path, e.message, line=line_of(e.pos or 0), field=e.field)
    except json.JSONDecodeError as e:
        raise BadInput(path, "not JSON: %s" % e.msg, line=e.lineno)
    except RecursionError:
        raise BadInput(path, "not JSON: nested too deeply")


# ExchangePattern names ParsePattern (model/exchange-pattern.cc) accepts.
PATTERNS = ("all-to-all", "ring", "tree", "ps", "multicast", "aggregation", "unicast",
            "parameter-server")


def load_schedule(path, known=None):
    """(name, [[clique, ...] per round]) of a schedule file, checked as Schedule::Parse
    (model/schedule.cc) checks it: known fields and types, at least one round, non-empty
    rounds and cliques, a city at most once per round and (\\p known, a set) in the topology,
    known pattern names. Bad input raises BadInput naming the file, line and field."""
    doc, lines = parse_json(path, read_input_text(path, "schedule file"))

    def fail(field, message, container):
        raise BadInput(path, message, line=lines.get(id(container), 0), field=field)

    def text_only(value, field, container):
        """A lone surrogate (\\udc80) is no text: the programs refuse it."""
        if isinstance(value, str):
            try:
                value.encode("utf-8")
            except UnicodeEncodeError:
                fail(field, "a lone surrogate in a string (not Unicode text)", container)
        elif isinstance(value, (dict, list)):
            for k, v in (value.items() if isinstance(value, dict) else enumerate(value)):
                sub = "%s[%d]" % (field, k) if isinstance(k, int) else \
                    (field + "." if field else "") + k
                text_only(k, sub, value)
                text_only(v, sub, value)

    text_only(doc, "", doc)
    if not isinstance(doc, dict):
        fail("", "a schedule must be a JSON object with a \"rounds\" array", doc)
    for key in doc:
        if key not in ("name", "description", "rounds"):
            fail(key, "unknown field (expected name, description, rounds)", doc)
    for key in ("name", "description"):
        if key in doc and not isinstance(doc[key], str):
            fail(key, "must be a string", doc)
    if "rounds" not in doc:
        fail("", "missing field \"rounds\"", doc)
    rounds = doc["rounds"]
    if not isinstance(rounds, list):
        fail("rounds", "must be an array of rounds", doc)
    if not rounds:
        fail("rounds", "a schedule needs at least one round", rounds)
    out = []
    for r, rnd in enumerate(rounds):
        rp = "rounds[%d]" % r
        if not isinstance(rnd, dict) or "cliques" not in rnd:
            fail(rp, "a round must be an object with a \"cliques\" array", rounds)
        for key in rnd:
            if key not in ("cliques", "patterns"):
                fail(rp + "." + key, "unknown field (expected cliques, patterns)", rnd)
        cliques = rnd["cliques"]
        if not isinstance(cliques, list):
            fail(rp + ".cliques", "must be an array of cliques", rnd)
        if not cliques:
            fail(rp + ".cliques", "a round needs at least one clique", cliques)
        seen, codes = set(), []
        for c, clique in enumerate(cliques):
            cp = "%s.cliques[%d]" % (rp, c)
            if not isinstance(clique, list):
                fail(cp, "a clique must be an array of city codes", cliques)
            if not clique:
                fail(cp, "empty clique", clique)
            for m, city in enumerate(clique):
                mp = "%s[%d]" % (cp, m)
                if not isinstance(city, str) or not city:
                    fail(mp, "a city code must be a non-empty string", clique)
                code = city.upper()
                if known is not None and code not in known:
                    fail(mp, "unknown city '%s' (the topology has %s)" %
                         (code, ", ".join(sorted(known))), clique)
                if code in seen:
                    fail(mp, "city '%s' appears twice in round %d" % (code, r), clique)
                seen.add(code)
            codes.append([city.upper() for city in clique])
        if "patterns" in rnd:
            patterns = rnd["patterns"]
            if not isinstance(patterns, list) or len(patterns) != len(cliques):
                fail(rp + ".patterns", "must be an array with one pattern per clique (%d)" %
                     len(cliques), rnd)
            for c, pattern in enumerate(patterns):
                if not isinstance(pattern, str) or pattern not in PATTERNS:
                    fail("%s.patterns[%d]" % (rp, c), "unknown exchange pattern %s (expected "
                         "all-to-all, ring, tree, ps, multicast or aggregation; unicast means "
                         "all-to-all)" % json.dumps(pattern), patterns)
        out.append(codes)
    return doc.get("name") or os.path.splitext(os.path.basename(path))[0], out


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


def draw_map(out, fmt, cities, rounds, name, topo_name, source):
    """rounds: [[clique (list of codes), ...], ...]."""
    plt = pyplot()
    cols = min(2, len(rounds))
    rows_n = (len(rounds) + cols - 1) // cols
    fig, axes = plt.subplots(rows_n, cols, figsize=(7.5 * cols, 4.4 * rows_n), squeeze=False,
                             constrained_layout=True)
    colors = plt.get_cmap("tab10").colors
    lons = [c[2] for c in cities.values()]
    lats = [c[1] for c in cities.values()]
    unplaced = set()
    for r, (ax, cliques) in enumerate(zip(axes.flat, rounds)):
        in_clique = set()
        for k, clique in enumerate(cliques):
            pts = [(cities[c][2], cities[c][1]) for c in clique if c in cities]
            unplaced.update(c for c in clique if c not in cities)
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
        for code in cities:
            offset, ha = label_offset(cities, code)
            ax.annotate(code, (cities[code][2], cities[code][1]), textcoords="offset points",
                        xytext=offset, ha=ha, fontsize=8, zorder=4)
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
    fig.suptitle("Schedule %s on %s: cliques per round" % (name, topo_name), fontsize=10)
    if unplaced:
        source.note += ("; " if source.note else "") + "not drawn (no coordinates): " + \
            ", ".join(sorted(unplaced))
    safe = re.sub(r"[^\w.-]", "_", name)
    save(fig, out, "map-%s" % safe, fmt, source,
         {"topology": topo_name, "schedule": name, "rounds": rounds,
          "cities": {c: [v[1], v[2]] for c, v in cities.items()}})


def run_topology_path(cfg, db):
    """The topology file a run used (its recorded --topology), resolved; None if unknown."""
    path = cfg.get("topology")
    if not isinstance(path, str) or not path:
        return None
    for cand in (path, os.path.join(os.path.dirname(os.path.abspath(db)), path)):
        if os.path.isfile(cand):
            return cand
    return None


def run_rounds(con, run_id):
    """[[clique, ...] per round] of a run from table rounds, up to the first repetition."""
    per = collections.defaultdict(dict)
    for rnd, clique, members in con.execute(
            "SELECT round, clique, members FROM rounds WHERE run_id = ? ORDER BY round, clique",
            (run_id,)):
        per[rnd][clique] = members.split("+")
    rounds = []
    for rnd in sorted(per):
        cliques = [per[rnd][c] for c in sorted(per[rnd])]
        if rounds and cliques == rounds[0]:
            break  # the period repeats
        rounds.append(cliques)
    return rounds[:8]


def load_schedule_maps(schedules, topology):
    """(topology path, its cities, [(path, name, rounds)]) of the --schedule files on
    --topology (default the nine cities), all checked before anything is drawn: bad input
    raises BadInput."""
    topo = topology or os.path.join(DATA, "nine-city.topology")
    codes = set()
    cities = read_cities(topo, codes)
    if not cities:
        raise BadInput(topo, "no city with coordinates: nothing to draw a map on")
    return topo, cities, [(schedule_path(s),) + load_schedule(schedule_path(s), codes)
                          for s in schedules]


def plot_maps(con, db, runs, out, fmt, schedule_maps):
    if schedule_maps:  # schedule files on a given (or the default) topology: no database needed
        topo, cities, schedules = schedule_maps
        for path, name, rounds in schedules:
            draw_map(out, fmt, cities, rounds, name,
                     os.path.splitext(os.path.basename(topo))[0],
                     Source(None, [], "schedule file %s, topology file %s" % (path, topo)))
        return 0
    if not runs:
        skip("map", "no complete runs (give --schedule NAME to map a schedule file)")
        return 0
    # One map per (schedule, topology) of the runs, from the first run's rounds.
    first = {}
    for run_id, cfg in sorted(runs.items()):
        key = (cfg.get("run.schedule"), run_topology_path(cfg, db) or cfg.get("topology"))
        first.setdefault(key, []).append(run_id)
    names = collections.Counter(k[0] for k in first)
    for (sched, topo), ids in sorted(first.items(), key=lambda kv: kv[1][0]):
        cfg = runs[ids[0]]
        topo_path = run_topology_path(cfg, db)
        if topo_path is None:
            skip("map", "runs %s: topology %r not found (a synthetic topology, or a file that "
                 "moved)" % (id_ranges(ids), cfg.get("topology")))
            continue
        cities = read_cities(topo_path)
        rounds = run_rounds(con, ids[0])
        if not cities or not rounds:
            skip("map", "%s: no cities with coordinates in %s or no rounds" %
                 (id_ranges(ids), topo_path))
            continue
        topo_name = os.path.splitext(os.path.basename(topo_path))[0]
        name = sched or "?"
        if names[sched] > 1:
            name = "%s-%s" % (name, topo_name)
        draw_map(out, fmt, cities, rounds, name, topo_name,
                 Source(db, ids, "cliques of run %d's rounds (table rounds); cities of its "
                        "recorded topology %s" % (ids[0], topo_path)))
    return 0


# --------------------------------------------------------------------------------------------
# Per-island timeline


def plot_timelines(con, db, runs, out, fmt, run_ids, limit):
    name = "timeline"
    have = [r for (r,) in con.execute("SELECT DISTINCT run_id FROM island_rounds ORDER BY "
                                      "run_id")]
    chosen = [r for r in (run_ids or have) if r in have and (r in runs or run_ids)]
    if not chosen:
        return skip(name, "no island_rounds rows of the selected runs")
    if not run_ids and len(chosen) > limit:
        log("%s: %d runs; drawing the last %d (choose with --run ID)" % (name, len(chosen),
                                                                         limit))
        chosen = chosen[-limit:]
    plt = pyplot()
    for run_id in chosen:
        rows = con.execute("SELECT island, round, start_s, compute_end_s, end_s FROM "
                           "island_rounds WHERE run_id = ? ORDER BY island, round",
                           (run_id,)).fetchall()
        islands = sorted({r[0] for r in rows})
        starts = collections.defaultdict(dict)
        for island, rnd, s, c, e in rows:
            starts[island][rnd] = s
        round_end = collections.defaultdict(float)
        for island, rnd, s, c, e in rows:
            round_end[rnd] = max(round_end[rnd], e)
        fig, ax = plt.subplots(figsize=(9, 0.45 * len(islands) + 1.6), constrained_layout=True)
        colors = {"compute": "#4c72b0", "exchange": "#dd8452", "wait": "#c8c8c8"}
        data = []
        for y, island in enumerate(islands):
            for isl, rnd, s, c, e in rows:
                if isl != island:
                    continue
                nxt = starts[island].get(rnd + 1, round_end[rnd])
                phases = [("compute", s, c), ("exchange", c, e), ("wait", e, max(e, nxt))]
                for phase, a, b in phases:
                    if b > a:
                        ax.barh(y, b - a, left=a, color=colors[phase], edgecolor="white",
                                linewidth=0.3, height=0.7)
                data.append({"island": island, "round": rnd, "compute_s": c - s,
                             "exchange_s": e - c, "wait_s": max(0.0, nxt - e)})
        for rnd, end in round_end.items():
            ax.axvline(end, color="black", linewidth=0.4, alpha=0.4)
        ax.set_yticks(range(len(islands)))
        ax.set_yticklabels(islands)
        ax.invert_yaxis()
        ax.set_xlabel("simulated time (s)")
        handles = [pyplot().Rectangle((0, 0), 1, 1, color=colors[k]) for k in colors]
        ax.legend(handles, ["compute", "exchange (send and receive)",
                            "wait for the slowest island"], fontsize=7, loc="upper right")
        cfg = runs.get(run_id, {})
        ax.set_title("Run %d per island and round: %s, mode %s, schedule %s" % (
            run_id, os.path.splitext(os.path.basename(str(cfg.get("topology", "?"))))[0],
            cfg.get("mode", cfg.get("run.mode", "?")), cfg.get("run.schedule", "?")),
            fontsize=9)
        save(fig, out, "%s-run%d" % (name, run_id), fmt,
             Source(db, [run_id], "table island_rounds: compute = compute_end_s - start_s, "
                    "exchange = end_s - compute_end_s, wait = the island's next start (or the "
                    "round's last end) - end_s"), data)


# --------------------------------------------------------------------------------------------


def main(argv=None):
    ap = argparse.ArgumentParser(description="Plots from a results database (doc/sweeps.rst).")
    ap.add_argument("db", nargs="?", help="results database (optional for --schedule maps)")
    ap.add_argument("--out", default="plots", help="output directory (default plots/)")
    ap.add_argument("--format", choices=("png", "svg"), default="png")
    ap.add_argument("--only", default=",".join(PLOTS),
                    help="comma-separated subset of: %s" % ", ".join(PLOTS))
    ap.add_argument("--where", action="append", default=[], metavar="NAME=VALUE",
                    help="only runs whose parameter (or runs column) NAME has VALUE "
                         "(repeatable), e.g. --where lossRate=0 --where mode=unicast")
    ap.add_argument("--max-panels", type=int, default=9,
                    help="most panels of one figure (default 9); more configurations: skipped")
    ap.add_argument("--schedule", action="append", default=[],
                    help="map this schedule file (shipped name or JSON path; repeatable) on "
                         "--topology instead of the runs' own schedules")
    ap.add_argument("--topology", default=None,
                    help="topology of the --schedule maps (default data/nine-city.topology)")
    ap.add_argument("--optimizer-schedule", action="append", default=[],
                    help="optimize-schedule --out file for the clique-size plot (repeatable)")
    ap.add_argument("--run", action="append", type=int, default=[],
                    help="runs of the timeline plot (default: the last --timelines runs)")
    ap.add_argument("--timelines", type=int, default=4, help="timelines drawn (default 4)")
    args = ap.parse_args(argv)

    wanted = [w.strip() for w in args.only.split(",") if w.strip()]
    bad = [w for w in wanted if w not in PLOTS]
    if bad:
        ap.error("unknown plot %s (choose from %s)" % (", ".join(bad), ", ".join(PLOTS)))
    where = []
    for w in args.where:
        if "=" not in w:
            ap.error("--where needs NAME=VALUE, got %r" % w)
        where.append(tuple(w.split("=", 1)))
    for option, value, least in (("--max-panels", [args.max_panels], 1),
                                 ("--timelines", [args.timelines], 1), ("--run", args.run, 1)):
        for v in value:
            if v < least:
                ap.error("%s must be at least %d, got %d" % (option, least, v))
    con = None
    runs = {}
    schedule_maps = None
    try:
        if args.db:
            if not os.path.isfile(args.db):
                log("error: %s: no such database" % args.db)
                return 2
            try:
                con = sqlite3.connect("file:%s?mode=ro" % os.path.abspath(args.db), uri=True,
                                      timeout=60)
                runs = load_runs(con, where)
            except sqlite3.Error as e:
                log("error: %s: not a results database: %s" % (args.db, e))
                return 2
        elif any(w != "map" for w in wanted) or not args.schedule:
            ap.error("a database is needed (only --only map --schedule NAME works without one)")
        if args.schedule or args.topology:
            schedule_maps = load_schedule_maps(args.schedule, args.topology)
        if os.path.exists(args.out) and not os.path.isdir(args.out):
            raise BadInput("--out %s" % args.out, "not a directory")
        try:
            os.makedirs(args.out, exist_ok=True)
        except OSError as e:
            raise BadInput("--out %s" % args.out, "cannot create the directory: %s" %
                           e.strerror)
        try:  # root passes os.access() where the file system refuses (/proc)
            tempfile.TemporaryFile(dir=args.out).close()
        except OSError as e:
            raise BadInput("--out %s" % args.out, "cannot write in the directory: %s" %
                           e.strerror)
    except BadInput as e:
        log("error: %s" % e)
        return 2
    try:
        pyplot()
    except ImportError as e:
        log("error: matplotlib is missing (apt-get install python3-matplotlib): %s" % e)
        return 2
    if con is not None and where and not runs:
        log("no complete run matches %s" % " and ".join("=".join(w) for w in where))
    status = 0
    if "round-time" in wanted:
        plot_round_time(con, args.db, runs, args.out, args.format, args.max_panels)
    if "clique-size" in wanted:
        plot_clique_size(con, args.db, runs, args.out, args.format, args.optimizer_schedule)
    if "loss" in wanted:
        plot_loss(con, args.db, runs, args.out, args.format)
    if "map" in wanted:
        status = plot_maps(con, args.db, runs, args.out, args.format,
                           schedule_maps if args.schedule else None) or status
    if "timeline" in wanted:
        plot_timelines(con, args.db, runs, args.out, args.format, args.run, args.timelines)
    return status


if __name__ == "__main__":
    sys.exit(main())
