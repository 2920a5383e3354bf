#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0-only
"""Script tests of scripts/plot-results.py on a database of real runs (CTest, label script).

    /usr/bin/python3 test/test_plots.py --source-dir . --build-dir build \\
        --work-dir build/test-plots [unittest args]

The database holds tiny nine-city-training runs that differ in link rate, loss rate and seed,
runs of the optimizer's schedules in two modes, and a run on a Topology Zoo GraphML file. Each
test reads the plotted numbers from the figure's <name>.data.json. Standard library only
(matplotlib for the script itself).
"""

import argparse
import json
import os
import shutil
import sqlite3
import struct
import subprocess
import sys
import unittest
import zlib

PY = "/usr/bin/python3" if os.path.exists("/usr/bin/python3") else sys.executable
SRC = BUILD = WORK = None
DB = None


def sim(*args):
    p = subprocess.run([os.path.join(BUILD, "nine-city-training"), "--modelBytes=1e5",
                        "--quiet=1", "--db=" + DB] + list(args), capture_output=True, text=True,
                       timeout=600)
    if p.returncode != 0:
        raise RuntimeError("nine-city-training %s failed: %s" % (" ".join(args), p.stderr))


def plot(out, *args):
    return subprocess.run([PY, os.path.join(SRC, "scripts", "plot-results.py"), DB, "--out",
                           out] + list(args), capture_output=True, text=True, timeout=600)


def data(out, name):
    with open(os.path.join(out, name + ".data.json")) as f:
        return json.load(f)


def params(run_id):
    con = sqlite3.connect(DB)
    try:
        return json.loads(con.execute("SELECT parameters FROM runs WHERE run_id = ?",
                                      (run_id,)).fetchone()[0])
    finally:
        con.close()


def png_text(path):
    """The tEXt chunks of a PNG file."""
    out = {}
    with open(path, "rb") as f:
        f.read(8)
        while True:
            head = f.read(8)
            if len(head) < 8:
                break
            length, kind = struct.unpack(">I4s", head)
            body = f.read(length)
            f.read(4)
            if kind == b"tEXt":
                k, v = body.split(b"\0", 1)
                out[k.decode()] = v.decode("latin-1")
            elif kind == b"zTXt":
                k, rest = body.split(b"\0", 1)
                out[k.decode()] = zlib.decompress(rest[1:]).decode("latin-1")
    return out


def setUpModule():
    global DB
    shutil.rmtree(WORK, ignore_errors=True)
    os.makedirs(WORK)
    DB = os.path.join(WORK, "results.db")
    base = ["--schedule=all-in-one", "--rounds=2"]
    for rate in ("1e9", "2e9"):
        sim(*base, "--linkRate=" + rate, "--lossRate=0")
        for rng in ("1", "2"):
            sim(*base, "--linkRate=" + rate, "--lossRate=0.01", "--RngRun=" + rng)
    for mode in ("unicast", "multicast"):  # the optimizer's schedules
        sim("--rounds=2", "--mode=" + mode, "--linkRate=1e9")
    sim("--rounds=2", "--topology=" + os.path.join(SRC, "test", "data", "zoo-test.graphml"))


class TestGrouping(unittest.TestCase):
    """No point averages runs that differ in anything but their seeds."""

    def test_round_time_never_mixes_configurations(self):
        out = os.path.join(WORK, "round-time")
        p = plot(out, "--only", "round-time")
        self.assertEqual(p.returncode, 0, p.stderr)
        d = data(out, "round-time-vs-link-rate")
        panels = d["data"]
        points = [pt for panel in panels for line in panel["lines"] for pt in line["points"]]
        self.assertTrue(points)
        replicated = 0
        for pt in points:
            cfgs = [params(r) for r in pt["runs"]]
            for key in set().union(*cfgs):
                if key in ("RngRun", "RngSeed"):
                    continue
                self.assertEqual(len({json.dumps(c.get(key)) for c in cfgs}), 1,
                                 "point %s mixes runs differing in %s" % (pt, key))
            replicated += pt["replicates"] > 1
        # The loss runs with two seeds are averaged (error bars); lossRate splits panels.
        self.assertGreaterEqual(replicated, 2)
        self.assertTrue(any("lossRate=0.01" in p["panel"] for p in panels), panels)
        self.assertTrue(any("lossRate=0," in p["panel"] + "," for p in panels), panels)
        # Where the data comes from: database, run ids, query (sidecar and PNG metadata).
        self.assertEqual(d["source"]["database"], os.path.abspath(DB))
        self.assertTrue(d["source"]["run_ids"])
        self.assertIn("MAX(end_s) - MIN(start_s)", d["source"]["query"])
        meta = png_text(os.path.join(out, "round-time-vs-link-rate.png"))
        self.assertIn("results.db", meta.get("Description", ""), meta)
        self.assertIn("runs", meta.get("Description", ""), meta)

    def test_too_many_configurations_refused_and_where_selects(self):
        out = os.path.join(WORK, "panels")
        p = plot(out, "--only", "round-time", "--max-panels", "1")
        self.assertEqual(p.returncode, 0, p.stderr)
        self.assertIn("skipped round-time-vs-link-rate", p.stderr)
        self.assertIn("lossRate", p.stderr)
        self.assertFalse(os.path.exists(os.path.join(out, "round-time-vs-link-rate.png")))
        p = plot(out, "--only", "round-time", "--max-panels", "1", "--where", "lossRate=0",
                 "--where", "schedule=all-in-one")
        self.assertEqual(p.returncode, 0, p.stderr)
        d = data(out, "round-time-vs-link-rate")
        for r in d["source"]["run_ids"]:
            self.assertEqual(params(r)["lossRate"], 0)
        # A number selects however it is written (lossRate=0.0, 0e0 and 0 are one value).
        p = plot(out, "--only", "round-time", "--max-panels", "1", "--where", "lossRate=0e0",
                 "--where", "schedule=all-in-one")
        self.assertEqual(p.returncode, 0, p.stderr)
        self.assertEqual(data(out, "round-time-vs-link-rate")["source"]["run_ids"],
                         d["source"]["run_ids"])


class TestOptimizedAndMaps(unittest.TestCase):

    def test_clique_size_from_the_runs_of_optimized_schedules(self):
        out = os.path.join(WORK, "clique")
        p = plot(out, "--only", "clique-size")
        self.assertEqual(p.returncode, 0, p.stderr)
        d = data(out, "clique-size-vs-capabilities")
        names = set()
        for line in d["data"]:
            for pt in line["points"]:
                names.update(pt["schedules"])
                self.assertGreater(pt["clique_size"], 1)
        self.assertTrue(names)
        self.assertTrue(all(n.startswith("optimized-") and n != "optimized" for n in names),
                        names)
        # Not from a shipped doc: without optimized runs the plot is skipped.
        p = plot(os.path.join(WORK, "clique2"), "--only", "clique-size", "--where",
                 "schedule=all-in-one")
        self.assertIn("skipped clique-size-vs-capabilities", p.stderr)

    def test_map_uses_the_runs_topology(self):
        out = os.path.join(WORK, "maps")
        p = plot(out, "--only", "map")
        self.assertEqual(p.returncode, 0, p.stderr)
        maps = [f for f in os.listdir(out) if f.startswith("map-") and f.endswith(".data.json")]
        topologies = {}
        for f in maps:
            d = data(out, f[:-len(".data.json")])
            topologies[d["data"]["topology"]] = d
        self.assertIn("zoo-test", topologies, list(topologies))
        self.assertIn("nine-city", topologies)
        zoo = topologies["zoo-test"]
        self.assertIn("MAD", zoo["data"]["cities"])
        self.assertNotIn("NYC", zoo["data"]["cities"])
        self.assertIn("GEN", zoo["source"]["note"])  # no coordinates: said, not drawn
        members = {c for r in zoo["data"]["rounds"] for clique in r for c in clique}
        self.assertLessEqual(members, {"AMS", "LON", "PAR", "FRA", "MAD", "GEN"})


class TestBadInput(unittest.TestCase):
    """Bad --schedule, --topology, --out and options: exit status 2 with the file (line, field)
    or the option, before anything is drawn; never a traceback, a hang or a skipped map."""

    def refused(self, args, *needles, out=None):
        out = out or os.path.join(WORK, "bad-input-out")
        shutil.rmtree(out, ignore_errors=True)
        p = subprocess.run([PY, os.path.join(SRC, "scripts", "plot-results.py"), DB, "--out",
                            out] + list(args), capture_output=True, text=True, timeout=60)
        self.assertEqual(p.returncode, 2, p.stderr)
        self.assertNotIn("Traceback", p.stderr)
        for n in needles:
            self.assertIn(n, p.stderr)
        if out.startswith(WORK):
            self.assertFalse(os.path.exists(out), "nothing is drawn on bad input")
        return p

    def schedule(self, name, text):
        path = os.path.join(WORK, name)
        with open(path, "w") as f:
            f.write(text)
        return path

    def test_bad_schedules_refused(self):
        ok = '{"rounds": [{"cliques": [["AMS", "LON"]]}]}'
        cases = [  # (file text, line, field, message)
            ('{"name": "\\udc80", "rounds": [{"cliques": [["AMS", "LON"]]}]}', 1, "name",
             "lone surrogate"),
            ('{"name": 1e400,\n "rounds": [{"cliques": [["AMS", "LON"]]}]}', 1, None,
             "not a finite double"),
            ('{"rounds": [{"cliques": [["AMS", "LON"]]},\n {"cliques": []}]}', 2,
             "rounds[1].cliques", "a round needs at least one clique"),
            ('{"rounds": [{"cliques": [["AMS", "LON"], ["ams"]]}]}', 1,
             "rounds[0].cliques[1][0]", "city 'AMS' appears twice in round 0"),
            ('{"rounds": [{"cliques": {"a": ["AMS", "LON"]}}]}', 1, "rounds[0].cliques",
             "must be an array"),
            ('{"rounds": [{"cliques": [["AMS", "LON"]], "patterns": [null]}]}', 1,
             "rounds[0].patterns[0]", "unknown exchange pattern null"),
            ('{"rounds": [{"cliques": [["AMS"]], "cliques": [["LON"]]}]}', 1, "cliques",
             "duplicate key 'cliques'"),
            ('{"rounds": [{"cliques": [["AMS", "LON"]]}],\n "round": 1}', 1, "round",
             "unknown field"),
            ('{"rounds": [{"cliques": [["AMS", "XYZ"]]}]}', 1, "rounds[0].cliques[0][1]",
             "unknown city 'XYZ'"),
            ('{"rounds": [{"cliques": [["AMS", "LON"]]}]', 1, None, "not JSON"),
        ]
        for i, (text, line, field, message) in enumerate(cases):
            path = self.schedule("bad-%d.json" % i, text)
            self.refused(["--only", "map", "--schedule", path],
                         "%s:%d:" % (path, line), message,
                         *(["field '%s'" % field] if field else []))
        # Not regular files: refused without reading (a FIFO or /dev/zero used to hang).
        fifo = os.path.join(WORK, "schedule.fifo")
        if not os.path.exists(fifo):
            os.mkfifo(fifo)
        for path in (fifo, "/dev/zero", WORK):
            self.refused(["--only", "map", "--schedule", path], path, "not a regular file")
        # Missing or unparsable files and a topology that is not one: errors, not skipped maps.
        self.refused(["--only", "map", "--schedule", os.path.join(WORK, "no-such.json")],
                     "no-such.json", "cannot read schedule")
        good = self.schedule("good.json", ok)
        self.refused(["--only", "map", "--schedule", good, "--topology", good], good,
                     "no [cities] section")
        # The good schedule is drawn.
        out = os.path.join(WORK, "good-map")
        p = plot(out, "--only", "map", "--schedule", good)
        self.assertEqual(p.returncode, 0, p.stderr)
        self.assertEqual(data(out, "map-good")["data"]["rounds"], [[["AMS", "LON"]]])

    def test_bad_out_refused(self):
        self.refused(["--only", "round-time"], "--out /dev/full", out="/dev/full")
        self.refused(["--only", "round-time"], "--out /proc/x", out="/proc/x")

    def test_bad_options_refused(self):
        for args, needle in ((["--max-panels", "0"], "--max-panels"),
                             (["--max-panels", "-1"], "--max-panels"),
                             (["--timelines", "-1"], "--timelines"),
                             (["--run", "-1"], "--run"),
                             (["--where", "nosuch=1"], "'nosuch'")):
            self.refused(["--only", "round-time,timeline"] + args, needle)
        # A known parameter without a matching run still selects nothing (exit 0).
        p = plot(os.path.join(WORK, "where-none"), "--only", "round-time", "--where",
                 "lossRate=7")
        self.assertEqual(p.returncode, 0, p.stderr)


class TestTimeline(unittest.TestCase):

    def test_compute_exchange_wait_add_up(self):
        out = os.path.join(WORK, "timeline")
        con = sqlite3.connect(DB)
        run_id = con.execute("SELECT MAX(run_id) FROM runs WHERE status = 'complete' AND "
                             "parameters LIKE '%\"lossRate\":0.01%'").fetchone()[0]
        rows = con.execute("SELECT island, round, start_s, compute_end_s, end_s FROM "
                           "island_rounds WHERE run_id = ?", (run_id,)).fetchall()
        con.close()
        p = plot(out, "--only", "timeline", "--run", str(run_id))
        self.assertEqual(p.returncode, 0, p.stderr)
        d = data(out, "timeline-run%d" % run_id)
        self.assertEqual(d["source"]["run_ids"], [run_id])
        got = {(e["island"], e["round"]): e for e in d["data"]}
        self.assertEqual(len(got), len(rows))
        starts = {(i, r): s for i, r, s, c, e in rows}
        last_end = {}
        for i, r, s, c, e in rows:
            last_end[r] = max(last_end.get(r, 0), e)
        waits = 0
        for i, r, s, c, e in rows:
            g = got[(i, r)]
            self.assertAlmostEqual(g["compute_s"], c - s, places=9)
            self.assertAlmostEqual(g["exchange_s"], e - c, places=9)
            nxt = starts.get((i, r + 1), last_end[r])
            self.assertAlmostEqual(g["compute_s"] + g["exchange_s"] + g["wait_s"], nxt - s,
                                   places=9)
            waits += g["wait_s"] > 0
        self.assertGreater(waits, 0, "someone waits for the slowest island")


if __name__ == "__main__":
    ap = argparse.ArgumentParser()
    ap.add_argument("--source-dir", required=True)
    ap.add_argument("--build-dir", required=True)
    ap.add_argument("--work-dir", required=True)
    args, rest = ap.parse_known_args()
    SRC, BUILD, WORK = (os.path.abspath(p) for p in (args.source_dir, args.build_dir,
                                                      args.work_dir))
    unittest.main(argv=[sys.argv[0]] + rest)
