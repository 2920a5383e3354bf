#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0-only
"""Bad-input corpus: run every program on bad and extreme inputs and classify each outcome.

    scripts/bad-input-corpus.py --build-dir build [--work-dir DIR] [--jobs 2] [--timeout 8]
                                [--filter REGEX] [--list] [--known-failures FILE] [--json OUT]

The cases are generated here from the shipped files (data/nine-city.topology, the same network
as a DoubleZero sample directory, data/schedules/*.json, a sweep spec) and from the programs'
own option lists (--PrintHelp), so that options added later are covered:

* files: truncation, garbage, empty, out-of-range and non-finite numbers in every numeric
  column, encodings (UTF-8 byte-order mark: accepted; UTF-16, invalid UTF-8, NUL, control
  characters: refused), duplicates (keys, rows, sections, columns), unknown keys and columns,
  huge and deeply nested inputs, a city without devices, results databases that are corrupt,
  foreign, newer, read-only, a directory or in a missing directory; the network as GraphML
  (valid; an edge to an unknown node id, a node id twice, two graphs, parallel edges summing
  beyond the largest rate, directed, truncated);
* command lines: for every option, values that are not numbers, negative, non-finite, 1e300,
  fractional for integer options, unknown choices, bad paths; an unknown option; a stray
  argument;
* effects: valid inputs that must change the result (ten times the latencies, half the
  capacities, a program option and the ns-3 attribute it maps to), compared with the unchanged
  run in the results database.

Programs: the examples and tools listed in CMakeLists.txt (IN_EXAMPLES, IN_TOOLS), run with the
small arguments of test/example-tests.cmake. Each file variant runs on the program that reads
it first (nine-city-training, optimize-schedule) and on one more program in turn, so every
program meets bad files without running every variant everywhere.

Outcomes:
  crashed  killed by a signal, or an exit status other than 0, 1 and 2 (an abort);
  hung     still running after --timeout seconds, and again when run alone with four times
           that (a heavy valid input on a loaded machine is reported as slow, not hung);
  wrong    exit 0 or 1 on input that must be refused; a valid input refused; a refusal that
           came only after the simulation ran; a result that ignores the input;
  unclear  exit 2, but the message does not name the file (and line, when the case knows it)
           or the option;
  clean    everything else.
The summary goes to stdout; the exit status is 0 only if every case is clean, or, with
--known-failures, if every case that is not clean is listed there (one case name per line,
'#' comments): work pending elsewhere, printed as such.

Python 3 standard library only.
"""

import argparse
import concurrent.futures
import fnmatch
import json
import os
import re
import shlex
import shutil
import signal
import sqlite3
import subprocess
import sys
import tempfile
import time

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
PY = "/usr/bin/python3" if os.path.exists("/usr/bin/python3") else sys.executable

CWD = [None]  # programs run in the work directory (some write files there by default)
SCRATCH = []  # directories outside the work directory, removed at the end
# Programs that simulate print one of these lines when a simulation ran.
SIMULATED_RE = re.compile(r"^(complete|INCOMPLETE)\b", re.M)
# Extra arguments that keep each program small and quick (used when the option exists).
SMALL_ARGS = {
    "nine-city-training": ["--modelBytes=2e5", "--rounds=1"],
    "training-proxy": ["--modelBytes=2e5", "--rounds=1", "--hidden=16", "--samplesPerIsland=256",
                       "--localSteps=1"],
    "training-curves": ["--horizon=2", "--referenceHorizon=1", "--hidden=8",
                        "--samplesPerIsland=64", "--period=1", "--modelBytes=1e7",
                        "--localSteps=1"],
    "my-first-scenario": ["--modelBytes=2e5", "--rounds=1"],
    "schedule-comparison": ["--modelBytes=2e5", "--rounds=1", "--schedules=all-in-one"],
    "multicast-alone": ["--modelBytes=2e5"],
    "aggregation-alone": ["--modelBytes=2e5"],
    "optimize-schedule": ["--period=1", "--iterations=100", "--modelBytes=1e6"],
    "optimizer-table": ["--period=1", "--iterations=10"],
    "objective-validation": ["--capabilities=unicast", "--randomSchedules=0", "--period=1",
                             "--horizon=0.5", "--referenceHorizon=0.2", "--localSteps=1",
                             "--modelBytes=1e6", "--iterations=50"],
}
# The program each kind of file is first tried on.
PRIMARY = {"topology": ["nine-city-training", "optimize-schedule"],
           "schedule": ["nine-city-training"], "db": ["nine-city-training"]}


class Case:
    """One run of one program. expect: 'reject' (exit 2, clear message), 'accept' (exit 0),
    'either' (0, 1 or 2; a 2 must be clear) or 'differs' (exit 0 and a result different from
    case `baseline`)."""

    def __init__(self, name, program, args, expect, needles=(), line=None, baseline=None,
                 setup=None, as_nobody=False, cwd=None):
        self.name, self.program, self.args, self.expect = name, program, list(args), expect
        self.needles = list(needles)  # all must appear in stderr when refused
        self.line = line              # (basename, line): "basename:line" must appear
        self.baseline = baseline
        self.setup = setup
        self.as_nobody = as_nobody
        self.cwd = cwd
        self.result = None


# --------------------------------------------------------------------------------------------
# Programs


class Program:
    def __init__(self, name, path, options, base):
        self.name, self.path, self.options, self.base = name, path, options, base

    def has(self, option):
        return option in self.options

    def small_args(self, work):
        args = []
        for a in self.base + SMALL_ARGS.get(self.name, []):
            opt = a[2:].split("=", 1)[0]
            if self.has(opt):
                args.append(a.replace("@WORK@", work))
        if self.has("rounds") and not any(a.startswith("--rounds=") for a in args):
            args.append("--rounds=1")
        for opt in ("out", "csv", "json"):
            if self.has(opt) and not any(a.startswith("--%s=" % opt) for a in args):
                args.append("--%s=%s" % (opt, os.path.join(work, "%s-%s.out" % (self.name, opt))))
        return args


def cmake_list(text, variable):
    m = re.search(r"set\(%s\s+(.*?)\)" % re.escape(variable), text, re.S)
    return m.group(1).split() if m else []


def discover_programs(build, work):
    with open(os.path.join(REPO, "CMakeLists.txt")) as f:
        cmake = f.read()
    names = cmake_list(cmake, "IN_EXAMPLES") + cmake_list(cmake, "IN_TOOLS")
    base = {}
    tests = os.path.join(REPO, "test", "example-tests.cmake")
    if os.path.exists(tests):
        with open(tests) as f:
            text = f.read()
        for m in re.finditer(r"set\(IN_EXAMPLE_TEST_ARGS_([\w-]+)\s+(.*?)\)", text, re.S):
            base[m.group(1)] = [a.replace("${CMAKE_CURRENT_BINARY_DIR}", "@WORK@")
                                for a in m.group(2).split()]
    # The kind of every option of the shared table (integer, real, seconds, rate, ...): a real
    # option whose default is a whole number (--outerLr=1) takes fractions.
    kinds = {}
    for name in names:
        path = os.path.join(build, name)
        if not os.access(path, os.X_OK):
            continue
        try:
            rst = subprocess.run([path, "--PrintOptionsRst"], capture_output=True, text=True,
                                 timeout=30).stdout
        except (OSError, subprocess.TimeoutExpired):
            continue
        for m in re.finditer(r"^   \* - ``--([^`]+)``\n     - .*\n     - (\w+)", rst, re.M):
            kinds[m.group(1)] = m.group(2)
        if kinds:
            break
    TABLE_KINDS.update(kinds)
    programs = {}
    for name in names:
        path = os.path.join(build, name)
        if not os.access(path, os.X_OK):
            continue
        try:
            out = subprocess.run([path, "--PrintHelp"], capture_output=True, text=True,
                                 timeout=30).stdout
        except (OSError, subprocess.TimeoutExpired):
            continue
        options, section = {}, None
        for line in out.splitlines():
            if line and not line[0].isspace():
                section = line.strip().rstrip(":")
                continue
            m = re.match(r"^\s+--([^\s:=]+):\s*(.*?)\s*$", line)
            if m and section != "General Arguments":
                rest, default = m.group(2), None
                d = re.match(r"^(.*?)\s*\[(.*)\]$", rest)
                if d:
                    rest, default = d.group(1), d.group(2)
                options[m.group(1)] = (default, rest)
        programs[name] = Program(name, path, options, base.get(name, []))
    return programs


# --------------------------------------------------------------------------------------------
# File variants. Each: (name, content (str or bytes; None: a directory), expect, line, needles)


def topology_variants(text):
    lines = text.split("\n")

    def line_of(prefix):
        for i, l in enumerate(lines, 1):
            if l.startswith(prefix):
                return i
        raise KeyError(prefix)

    def replace_line(prefix, new):
        i = line_of(prefix)
        return "\n".join(lines[:i - 1] + [new] + lines[i:]), i

    v = []
    link = "SEO1,TYO2,4.50,10"
    li = line_of("SEO1,TYO2")
    for value in ("1e300", "1e999", "-1", "0", "nan", "inf", "-inf", "1e-300", "0x10", "abc",
                  "", " ", "1,5"):
        t, _ = replace_line("SEO1,TYO2", "SEO1,TYO2,%s,10" % value)
        v.append(("latency-%s" % (value.strip() or "empty").replace(",", "comma"), t, "reject",
                  li, []))
        t, _ = replace_line("SEO1,TYO2", "SEO1,TYO2,4.50,%s" % value)
        v.append(("capacity-%s" % (value.strip() or "empty").replace(",", "comma"), t, "reject",
                  li, []))
    di = line_of("AMS1,AMS")
    for value in ("1e300", "-10", "0", "nan", "abc"):
        t, _ = replace_line("AMS1,AMS", "AMS1,AMS,%s,Alpha" % value)
        v.append(("edge-%s" % value, t, "reject", di, ["edge_gbps"]))
    ci = line_of("AMS,Amsterdam")
    for lat, lon in (("91", "4.90"), ("52.37", "181"), ("1e999", "4.90"), ("nan", "4.90"),
                     ("52.37", "east")):
        t, _ = replace_line("AMS,Amsterdam", "AMS,Amsterdam,%s,%s" % (lat, lon))
        v.append(("coordinates-%s-%s" % (lat, lon), t, "reject", ci, []))
    # Structure and duplicates.
    t, _ = replace_line("SEO1,TYO2", link + "\n" + link)
    v.append(("duplicate-link", t, "reject", li + 1, ["device_b"]))
    t, _ = replace_line("SEO1,TYO2", link + "\nTYO2,SEO1,5,10")
    v.append(("duplicate-link-reversed", t, "reject", li + 1, []))
    t, _ = replace_line("AMS1,AMS", "AMS1,AMS,10,Alpha\nAMS1,AMS,10,Beta")
    v.append(("duplicate-device", t, "reject", di + 1, ["AMS1"]))
    t, _ = replace_line("AMS,Amsterdam", "AMS,Amsterdam,52.37,4.90\nAMS,Amsterdam,52.37,4.90")
    v.append(("duplicate-city", t, "reject", ci + 1, ["AMS"]))
    hi = line_of("device_a,device_b")
    t, _ = replace_line("device_a,device_b", "device_a,device_b,latency_ms,latency_ms")
    v.append(("duplicate-column", t, "reject", hi, ["latency_ms"]))
    t, _ = replace_line("device_a,device_b", "device_a,device_b,latency_ms,capacity_gbs")
    v.append(("misspelt-column", t, "reject", hi, ["capacity_gbps"]))
    t, _ = replace_line("device,city,edge_gbps", "device,city,edge_gbps,operator,colour")
    v.append(("unknown-column", t, "reject", line_of("device,city,edge_gbps"), ["colour"]))
    pi = line_of("[private_links]")
    t, _ = replace_line("[private_links]", "[private_links]\n[private_links]")
    v.append(("duplicate-section", t, "reject", pi + 1, ["private_links"]))
    t, _ = replace_line("[private_links]", "[private_link]")
    v.append(("unknown-section", t, "reject", pi, ["private_link"]))
    t, _ = replace_line("[private_links]", "[private_links")
    v.append(("malformed-section", t, "reject", pi, []))
    t, _ = replace_line("SEO1,TYO2", "SEO1,TYO9,4.50,10")
    v.append(("unknown-device", t, "reject", li, ["TYO9"]))
    t, _ = replace_line("SEO1,TYO2", "SEO1,SEO1,4.50,10")
    v.append(("self-link", t, "reject", li, []))
    t, _ = replace_line("SEO1,TYO2", "SEO1,TYO2,4.50,10,extra")
    v.append(("extra-cell", t, "reject", li, []))
    t, _ = replace_line("SEO1,TYO2", 'SEO1,"TYO2,4.50,10')
    v.append(("unterminated-quote", t, "reject", li, []))
    t, _ = replace_line("AMS1,AMS", "AM S1,AMS,10,Alpha")
    v.append(("bad-device-name", t, "reject", di, ["device"]))
    t, _ = replace_line("AMS,Amsterdam", "A+M,Amsterdam,52.37,4.90")
    v.append(("bad-city-code", t, "reject", ci, ["code"]))
    # Truncations: at a section header, inside a header row, inside a number, after a cell.
    for cut, name in ((text.index("[devices]"), "before-devices"),
                      (text.index("device,city,edge_gbps") + 8, "in-header"),
                      (text.index(link) + 11, "in-number"),
                      (text.index(link) + len(link) - 3, "after-cell"),
                      (len(text) // 3, "third")):
        v.append(("truncated-" + name, text[:cut], "either", None, []))
    # Empty, comments only, garbage, encodings.
    v.append(("empty", "", "reject", None, []))
    v.append(("comments-only", "# nothing\n# here\n", "reject", None, []))
    v.append(("garbage", bytes(range(256)) * 4, "reject", None, []))
    v.append(("text", "Hello, this is not a topology.\n", "reject", 1, []))
    v.append(("utf16", text.encode("utf-16"), "reject", 1, ["UTF-16"]))
    bad = text.replace("BAR,Buenos Aires", "BAR,Buenos Aires \udce9", 1).encode(
        "utf-8", "surrogateescape")
    v.append(("invalid-utf8", bad, "reject", line_of("BAR,Buenos"), ["UTF-8"]))
    v.append(("nul-byte", text.replace("Frankfurt", "Frank\0furt", 1), "reject",
              line_of("FRA,Frankfurt"), []))
    v.append(("control-char", text.replace("Frankfurt", "Frank\x01furt", 1), "reject",
              line_of("FRA,Frankfurt"), []))
    v.append(("bom", "\ufeff" + text, "accept", None, []))
    v.append(("crlf", text.replace("\n", "\r\n"), "accept", None, []))
    # A city without devices, not used by the schedule: accepted.
    t, _ = replace_line("TYO,Tokyo", "TYO,Tokyo,35.68,139.69\nPAR,Paris,48.85,2.35")
    v.append(("city-without-devices", t, "accept-if-scheduled-cities", None, ["@PAR"]))
    # Huge: 3 000 more cities without devices (about 100 KB); a 1 MB comment.
    extra = "\n".join("X%d,City %d,0,0" % (i, i) for i in range(3000))
    t, _ = replace_line("TYO,Tokyo", "TYO,Tokyo,35.68,139.69\n" + extra)
    v.append(("huge-unused-cities", t, "accept-if-scheduled-cities", None, ["@X0"]))
    v.append(("huge-comment", "#" + "x" * (1 << 20) + "\n" + text, "accept", None, []))
    v.append(("directory", None, "reject", None, []))
    # Valid changes that must change a simulated result.
    scaled = re.sub(r"^([A-Z]+\d,[A-Z]+\d),([0-9.]+),", lambda m: "%s,%g," % (
        m.group(1), float(m.group(2)) * 3), text, flags=re.M)
    v.append(("latencies-x3", scaled, "differs", None, []))
    halved = re.sub(r"^([A-Z]+\d,[A-Z]+\d,[0-9.]+),10$", r"\1,5", text, flags=re.M)
    v.append(("capacities-half", halved, "differs", None, []))
    return v


def topology_sections(topology_text):
    """{section: [cells of each row, header first]} of a topology file in our format."""
    sections, current = {}, None
    for line in topology_text.splitlines():
        if line.startswith("["):
            current = line.strip("[]")
            sections[current] = []
        elif current and line and not line.startswith("#"):
            sections[current].append(line.split(","))
    return sections


def doublezero_variants(topology_text):
    """The nine-city network as a DoubleZero sample directory, and broken ones."""
    sections = topology_sections(topology_text)
    devices = "Device,Edge,Operator\n" + "".join(
        "%s,%s,%s\n" % (r[0], r[2], r[3]) for r in sections["devices"][1:])
    private = "Device1,Device2,Latency,Bandwidth,Uptime,Shared\n" + "".join(
        "%s,%s,%s,%s,0.99,NA\n" % tuple(r[:4]) for r in sections["private_links"][1:])
    public = "City1,City2,Latency\n" + "".join(
        "%s,%s,%s\n" % tuple(r[:3]) for r in sections["public_links"][1:])
    good = {"devices.csv": devices, "private_links.csv": private, "public_links.csv": public}

    def variant(name, expect, line, needles, **changes):
        files = dict(good)
        files.update(changes)
        return ("dz-" + name, {k: v for k, v in files.items() if v is not False}, expect, line,
                needles)

    first_link = private.splitlines()[1]
    return [
        variant("valid", "accept", None, []),
        variant("bom", "accept", None, [], **{"devices.csv": "\ufeff" + devices}),
        variant("no-devices", "reject", None, ["devices.csv"], **{"devices.csv": False}),
        variant("empty-devices", "reject", None, ["devices.csv"], **{"devices.csv": ""}),
        variant("utf16", "reject", 1, ["UTF-16"],
                **{"public_links.csv": public.encode("utf-16")}),
        variant("latency-1e300", "reject", 2, ["Latency"], **{
            "private_links.csv": private.replace(first_link, first_link.replace(
                ",4.50,", ",1e300,"), 1)}),
        variant("bandwidth-nan", "reject", 2, ["Bandwidth"], **{
            "private_links.csv": private.replace(first_link, first_link.replace(
                ",10,0.99", ",nan,0.99"), 1)}),
        variant("edge-negative", "reject", 2, ["Edge"],
                **{"devices.csv": devices.replace(",10,", ",-10,", 1)}),
        variant("device-without-city", "reject", 2, ["Device"],
                **{"devices.csv": devices.replace(devices.splitlines()[1].split(",")[0],
                                                  "123", 1)}),
        variant("missing-column", "reject", 1, ["Latency"], **{
            "private_links.csv": "".join(",".join(c for i, c in enumerate(l.split(",")) if i != 2)
                                         + "\n" for l in private.splitlines())}),
        variant("truncated", "either", None, [],
                **{"private_links.csv": private[:len(private) // 2]}),
        variant("garbage", "reject", None, [], **{"public_links.csv": bytes(range(256))}),
    ]


def graphml_variants(topology_text):
    """The nine-city network's cities and private links as Internet Topology Zoo GraphML (labels
    the city codes, so the shipped schedules fit), and broken ones: what Boost's read_graphml
    alone would accept silently (an edge to an unknown node id, a node id twice, a second
    graph) or crash on later (parallel edges summing beyond ns-3's largest rate)."""
    sections = topology_sections(topology_text)
    cities = sections["cities"][1:]
    city_of = {r[0]: r[1] for r in sections["devices"][1:]}
    index = {r[0]: i for i, r in enumerate(cities)}
    head = ('<?xml version="1.0" encoding="utf-8"?>\n'
            '<graphml xmlns="http://graphml.graphdrawing.org/xmlns">\n'
            '<key attr.name="Latitude" attr.type="double" for="node" id="d0" />\n'
            '<key attr.name="Longitude" attr.type="double" for="node" id="d1" />\n'
            '<key attr.name="label" attr.type="string" for="node" id="d2" />\n'
            '<key attr.name="LinkSpeedRaw" attr.type="double" for="edge" id="d3" />\n')
    graph = '<graph edgedefault="undirected">\n'
    nodes = "".join('<node id="%d"><data key="d0">%s</data><data key="d1">%s</data>'
                    '<data key="d2">%s</data></node>\n' % (i, r[2], r[3], r[0])
                    for i, r in enumerate(cities))
    pairs = []
    for r in sections["private_links"][1:]:
        a, b = index[city_of[r[0]]], index[city_of[r[1]]]
        if a != b and (a, b) not in pairs and (b, a) not in pairs:
            pairs.append((a, b))
    edges = "".join('<edge source="%d" target="%d"><data key="d3">1e10</data></edge>\n' % ab
                    for ab in pairs)
    tail = "</graph>\n</graphml>\n"
    first_edge = 6 + 1 + len(cities) + 1  # the line of the first <edge>
    n = len(cities)
    return [
        ("valid", head + graph + nodes + edges + tail, "accept", None, []),
        ("edge-to-unknown-node", head + graph + nodes + edges +
         '<edge source="0" target="99" />\n' + tail, "reject", first_edge + len(pairs),
         ["edge target", "'99'"]),
        ("node-id-twice", head + graph + nodes +
         '<node id="1"><data key="d2">XXX</data></node>\n' + edges + tail, "reject",
         6 + 1 + n + 1, ["node id", "'1'"]),
        ("second-graph", head + graph + nodes + edges + "</graph>\n" + graph + tail, "reject",
         None, ["more than one top-level <graph>"]),
        ("parallel-sum-beyond-rate", head + graph + nodes + edges +
         '<edge source="%d" target="%d"><data key="d3">1e19</data></edge>\n' % pairs[0] +
         '<edge source="%d" target="%d"><data key="d3">1e19</data></edge>\n' % pairs[0] + tail,
         "reject", None, ["LinkSpeed", "1.8e19"]),
        ("directed", head + graph.replace("undirected", "directed") + nodes + edges + tail,
         "reject", None, ["directed"]),
        ("truncated", (head + graph + nodes + edges + tail)[:len(head) + 200], "reject", None,
         ["GraphML"]),
    ]


def schedule_variants(text):
    v = []
    rounds_at = text.index('"rounds"')
    v.append(("duplicate-key", text.replace('"rounds"', '"rounds": [], "rounds"', 1), "reject",
              text.count("\n", 0, rounds_at) + 1, ["duplicate key 'rounds'"]))
    v.append(("duplicate-cliques",
              text.replace('{"cliques":', '{"cliques": [["AMS"]], "cliques":', 1), "reject",
              None, ["duplicate key 'cliques'"]))
    v.append(("unknown-key", text.replace('"rounds"', '"speed": 3, "rounds"', 1), "reject", None,
              ["speed"]))
    v.append(("unknown-round-key", text.replace('{"cliques":', '{"clique": [], "cliques":', 1),
              "reject", None, ["clique"]))
    v.append(("number-overflow", text.replace('"AMS"', "1e999", 1), "reject", None, ["1e999"]))
    v.append(("number-city", text.replace('"AMS"', "7", 1), "reject", None, []))
    v.append(("unknown-city", text.replace('"AMS"', '"XYZ"', 1), "reject", None, ["XYZ"]))
    v.append(("empty-city", text.replace('"AMS"', '""', 1), "reject", None, []))
    v.append(("city-twice", text.replace('"FRA"', '"AMS"', 1), "reject", None, ["AMS"]))
    v.append(("nul-escape", text.replace('"AMS"', '"A\\u0000MS"', 1), "reject", None, []))
    v.append(("nul-byte", text.replace('"AMS"', '"A\0MS"', 1), "reject", None, []))
    v.append(("utf16", text.encode("utf-16"), "reject", 1, ["UTF-16"]))
    v.append(("invalid-utf8", text.replace('"AMS"', '"AM\udcffS"', 1).encode(
        "utf-8", "surrogateescape"), "reject", None, ["UTF-8"]))
    v.append(("bom", "\ufeff" + text, "accept", None, []))
    v.append(("empty", "", "reject", 1, []))
    v.append(("garbage", bytes(range(256)) * 4, "reject", None, []))
    v.append(("not-object", "[1, 2, 3]", "reject", 1, []))
    v.append(("rounds-object", '{"rounds": {}}', "reject", 1, ["rounds"]))
    v.append(("rounds-empty", '{"rounds": []}', "reject", 1, ["rounds"]))
    v.append(("clique-empty", '{"rounds": [{"cliques": [[]]}]}', "reject", 1, []))
    v.append(("patterns-short", '{"rounds": [{"cliques": [["AMS"], ["FRA"]], "patterns": '
              '["ring"]}]}', "reject", 1, ["patterns"]))
    v.append(("patterns-unknown", '{"rounds": [{"cliques": [["AMS", "FRA"]], "patterns": '
              '["broadcast"]}]}', "reject", 1, ["broadcast"]))
    v.append(("patterns-valid", '{"rounds": [{"cliques": [["AMS", "FRA", "SEO"], ["LON", '
              '"NYC"]], "patterns": ["ring", "ps"]}]}', "accept", None, []))
    for cut in (1, len(text) // 4, len(text) // 2, len(text) - 3):
        v.append(("truncated-%d" % cut, text[:cut], "reject", None, []))
    deep = '{"name": "deep", "rounds": ' + "[" * 40000 + "]" * 40000 + "}"
    v.append(("nested-80kb", deep, "reject", 1, ["nested deeper"]))
    cities = ["AMS", "BAR", "FRA", "LAX", "LON", "NYC", "SEO", "SIN", "TYO"]
    big = {"name": "big", "rounds": [{"cliques": [cities[i % 3::3] for i in range(3)]}
                                     for _ in range(6000)]}
    # Accepted where the program can place 6 000 period rounds (multicast groups cannot).
    v.append(("huge-700kb", json.dumps(big, indent=1), "either", None, ["@"]))
    v.append(("directory", None, "reject", None, []))
    v.append(("all-in-one-instead", None, "differs", None, []))  # content filled in by caller
    return v


SPEC_BASE = "# bad-input corpus: a tiny sweep\nmode = unicast, multicast\nmodelBytes = 2e5\n" \
            "rounds = 1\n"


def spec_variants():
    base = SPEC_BASE
    return [
        ("nul-in-value", base.replace("multicast", "multi\0cast"), "reject", 2, ["mode"]),
        ("control-char", base.replace("2e5", "2e5\x07"), "reject", 3, ["modelBytes"]),
        ("empty", "", "reject", None, ["no parameter"]),
        ("comments-only", "# nothing\n", "reject", None, ["no parameter"]),
        ("utf16", base.encode("utf-16"), "reject", 1, ["UTF-16"]),
        ("invalid-utf8", (base + "schedule = caf\xe9\n").encode("latin-1"), "reject", 5,
         ["UTF-8"]),
        ("duplicate-key", base + "rounds = 2\n", "reject", 5, ["rounds"]),
        ("unknown-parameter", base + "roundz = 2\n", "reject", 5, ["roundz"]),
        ("non-finite", base + "linkRate = 1e999\n", "reject", 5, ["linkRate"]),
        ("nan", base + "linkRate = nan\n", "reject", 5, ["linkRate"]),
        ("bad-choice", base.replace("multicast", "broadcast"), "reject", 2, ["mode"]),
        ("bad-range", base + "RngRun = 5..1\n", "reject", 5, ["RngRun"]),
        ("huge-range", base + "RngRun = 1..1e9\n", "reject", 5, ["RngRun"]),
        ("sets-db", base + "db = other.db\n", "reject", 5, ["--db"]),
        ("no-program", "program = no-such-program\n" + base, "reject", 1, ["no-such-program"]),
        ("garbage", bytes(range(1, 256)), "reject", None, []),
        ("bom", "\ufeff" + base, "accept", None, []),
    ]


def db_variants(work, data_topology):
    """(name, setup(path) -> path, needles, as_nobody)."""

    def text(path):
        with open(path, "w") as f:
            f.write("run,time\n" * 100)
        return path

    def foreign(path):
        con = sqlite3.connect(path)
        con.execute("CREATE TABLE moz_places(id INTEGER, url TEXT)")
        con.commit()
        con.close()
        return path

    def newer(path):
        con = sqlite3.connect(path)
        con.execute("PRAGMA application_id = %d" % 0x494E4554)
        con.execute("PRAGMA user_version = 99")
        con.execute("CREATE TABLE runs(run_id INTEGER PRIMARY KEY)")
        con.commit()
        con.close()
        return path

    def wrong_columns(path):
        con = sqlite3.connect(path)
        con.executescript("CREATE TABLE meta(key TEXT PRIMARY KEY, value TEXT);"
                          "INSERT INTO meta VALUES('schema_version', '1');"
                          "CREATE TABLE runs(run_id INTEGER PRIMARY KEY, status TEXT);")
        con.close()
        return path

    def directory(path):
        os.makedirs(path, exist_ok=True)
        return path

    def missing(path):
        return os.path.join(path + "-missing", "sub", "r.db")

    def read_only(path):
        # In /tmp, which every user can reach (the build directory may not be).
        d = tempfile.mkdtemp(prefix="corpus-ro-")
        SCRATCH.append(d)
        os.chmod(d, 0o755)
        p = os.path.join(d, "ro.db")
        con = sqlite3.connect(p)
        con.execute("PRAGMA application_id = %d" % 0x494E4554)
        con.execute("PRAGMA user_version = 2")
        con.executescript("CREATE TABLE meta(key TEXT PRIMARY KEY, value TEXT);")
        con.close()
        os.chmod(p, 0o444)
        return p

    def truncated(path):
        con = sqlite3.connect(path)
        con.execute("PRAGMA application_id = %d" % 0x494E4554)
        con.executescript("CREATE TABLE meta(key TEXT PRIMARY KEY, value TEXT);"
                          "CREATE TABLE runs(run_id INTEGER PRIMARY KEY, run_key TEXT, x TEXT);")
        for i in range(300):
            con.execute("INSERT INTO runs(run_key, x) VALUES(?, ?)", (str(i), "x" * 500))
        con.commit()
        con.close()
        with open(path, "r+b") as f:
            f.truncate(9000)
        return path

    return [("db-text", text, ["corrupt"], False), ("db-foreign", foreign,
                                                     ["not a results database"], False),
            ("db-newer", newer, ["newer version"], False),
            ("db-wrong-columns", wrong_columns, ["has no column"], False),
            ("db-truncated", truncated, ["corrupt"], False),
            ("db-directory", directory, ["directory"], False),
            ("db-missing-directory", missing, ["does not exist"], False),
            ("db-read-only", read_only, ["read-only"], True)]


# --------------------------------------------------------------------------------------------
# Command-line values


def is_number(text):
    try:
        float(text)
        return True
    except (TypeError, ValueError):
        return False


FILE_OPTIONS = ("topology", "schedule")
TABLE_KINDS = {}  # option -> kind in the shared options table (discover_programs)
OUTPUT_OPTIONS = ("out", "csv", "json", "writeTopology")
LIST_OPTIONS = ("schedules", "islands", "fpgaDevices")


def option_kind(name, default, help_text):
    if name == "db":
        return "db"
    if name in FILE_OPTIONS:
        return "input"
    if name in OUTPUT_OPTIONS:
        return "output"
    if name in LIST_OPTIONS and not is_number(default):
        return "list"
    if default is not None and default.lower() in ("true", "false"):
        return "bool"
    if re.fullmatch(r"\s*[\w.+-]+(\s*\|\s*[\w.+-]+)+\s*", help_text or ""):
        return "choice"
    if default is not None and is_number(default):
        if name in TABLE_KINDS:
            return "int" if TABLE_KINDS[name] == "integer" else "number"
        return "int" if re.fullmatch(r"-?\d+", default) and default != "0" else "number"
    return "string"


def cli_values(name, kind, default, work, help_text=""):
    """[(label, value, expect)] for one option."""
    if kind in ("number", "int"):
        # An option whose help says it takes "inf" (e.g. --alpha: iid shards) may accept it.
        takes_inf = re.search(r"\binf\b", help_text or "") is not None
        values = [("abc", "abc", "reject"), ("empty", "", "reject"),
                  ("nan", "nan", "either" if default == "nan" else "reject"),
                  ("inf", "inf", "either" if takes_inf else "reject"),
                  ("1e300", "1e300", "reject"),
                  ("overflow", "1e999", "reject")]
        if not default or not default.startswith("-"):
            values.append(("negative", "-1", "reject"))
        if kind == "int":
            values.append(("fraction", "1.5", "reject"))
            values.append(("2^64", "18446744073709551617", "reject"))
        return values
    if kind == "bool":
        return [("maybe", "maybe", "reject"), ("empty", "", "reject")]
    if kind == "choice":
        return [("unknown", "broadcast", "reject"), ("empty", "", "reject")]
    if kind == "list":
        return [("unknown", "XYZ", "reject"), ("separators", ",,", "reject")]
    if kind == "input":
        return [("missing", os.path.join(work, "no-such-dir", "x"), "reject"),
                ("directory", os.path.join(work, "db"), "reject")]
    if kind == "output":
        return [("in-missing-dir", os.path.join(work, "no-such-dir", "x.out"), "reject"),
                ("is-directory", work, "reject")]
    return []


# --------------------------------------------------------------------------------------------
# Building the corpus


def write_variant(path, content):
    if content is None:
        os.makedirs(path, exist_ok=True)
    elif isinstance(content, dict):
        os.makedirs(path, exist_ok=True)
        for name, data in content.items():
            write_variant(os.path.join(path, name), data)
    else:
        mode = "wb" if isinstance(content, bytes) else "w"
        with open(path, mode, **({} if mode == "wb" else {"encoding": "utf-8",
                                                          "errors": "surrogateescape",
                                                          "newline": ""})) as f:
            f.write(content)


def file_needles(path, needles):
    """What a refusal must name: the file and the case's own words. A word written '@WORD'
    replaces the file: the error is about the network, not a line of the file (a city without
    devices that a program tries to use); '@' alone asks for no particular word."""
    if any(n.startswith("@") for n in needles):
        return [n[1:] for n in needles if n.startswith("@") and len(n) > 1]
    return [os.path.basename(path)] + needles


def build_cases(programs, work, build):
    cases = []
    files = os.path.join(work, "files")
    os.makedirs(files, exist_ok=True)
    with open(os.path.join(REPO, "data", "nine-city.topology")) as f:
        topology = f.read()
    scheduled = ["nine-city-training", "training-proxy"]  # place islands by a schedule

    def runner(kind, index):
        """Programs a file variant of option `kind` runs on: the primary ones and one more in
        turn."""
        takers = [p for p in programs.values() if p.has(kind)]
        if not takers:
            return []
        primary = [p for p in takers if p.name in PRIMARY.get(kind, [])] or takers[:1]
        others = [p for p in takers if p not in primary]
        return primary + ([others[index % len(others)]] if others else [])

    def db_arg(p, name):
        return ["--db=" + os.path.join(work, "db", name + ".db")] if p.has("db") else []

    # Baselines for the 'differs' cases.
    nct = programs.get("nine-city-training")
    if nct:
        base = nct.small_args(work)
        cases.append(Case("baseline/nine-city-training", nct, base + db_arg(nct, "baseline"),
                          "accept"))
        cases.append(Case("baseline/nine-city-training-3x3", nct, base + [
            "--schedule=3x3-rotating"] + db_arg(nct, "baseline-3x3"), "accept"))

    for i, (name, content, expect, line, needles) in enumerate(topology_variants(topology)):
        path = os.path.join(files, "topology-" + name + ("" if content is None else ".topology"))
        write_variant(path, content)
        for p in runner("topology", i):
            if expect == "differs" and p.name != "nine-city-training":
                continue
            e = expect
            if expect == "accept-if-scheduled-cities":
                e = "accept" if p.name in scheduled else "either"
            cname = "topology/%s/%s" % (name, p.name)
            args = p.small_args(work) + ["--topology=" + path] + db_arg(p, cname.replace("/", "_"))
            cases.append(Case(cname, p, args, e, file_needles(path, needles),
                              (os.path.basename(path), line) if line else None,
                              baseline="baseline/nine-city-training"))
    for i, (name, content, expect, line, needles) in enumerate(doublezero_variants(topology)):
        path = os.path.join(files, name)
        write_variant(path, content)
        for p in runner("topology", i):
            cname = "topology-dir/%s/%s" % (name, p.name)
            args = p.small_args(work) + ["--topology=" + path] + db_arg(p, cname.replace("/", "_"))
            cases.append(Case(cname, p, args, expect, needles, None))
    for i, (name, content, expect, line, needles) in enumerate(graphml_variants(topology)):
        path = os.path.join(files, "graphml-" + name + ".graphml")
        write_variant(path, content)
        for p in runner("topology", i):
            cname = "graphml/%s/%s" % (name, p.name)
            args = p.small_args(work) + ["--topology=" + path] + db_arg(p, cname.replace("/", "_"))
            cases.append(Case(cname, p, args, expect, file_needles(path, needles),
                              (os.path.basename(path), line) if line else None))
    with open(os.path.join(REPO, "data", "schedules", "3x3-rotating.json")) as f:
        schedule = f.read()
    for i, (name, content, expect, line, needles) in enumerate(schedule_variants(schedule)):
        if name == "all-in-one-instead":
            with open(os.path.join(REPO, "data", "schedules", "all-in-one.json")) as f:
                content = f.read()
        path = os.path.join(files, "schedule-" + name + ("" if content is None else ".json"))
        write_variant(path, content)
        for p in runner("schedule", i):
            cname = "schedule/%s/%s" % (name, p.name)
            args = p.small_args(work) + ["--schedule=" + path] + db_arg(p, cname.replace("/", "_"))
            cases.append(Case(cname, p, args, expect, file_needles(path, needles),
                              (os.path.basename(path), line) if line else None,
                              baseline="baseline/nine-city-training-3x3"))
    # Results databases: every program that takes --db.
    unreachable = set()
    for name, setup, needles, nobody in db_variants(work, topology):
        for p in programs.values():
            if not p.has("db"):
                continue
            if nobody and not runnable_as_nobody(p.path):
                unreachable.add(p.path)
                continue
            cname = "%s/%s" % (name, p.name)
            path = os.path.join(work, "db", cname.replace("/", "_") + ".db")
            cases.append(Case(cname, p, p.small_args(work), "reject", needles,
                              setup=(setup, path), as_nobody=nobody))
    for path in sorted(unreachable):
        print("bad-input corpus: read-only-database cases of %s not run: as root they run as "
              "uid 65534, who cannot reach %s (a parent directory lacks o+x, e.g. a mktemp "
              "clone); run from a world-searchable checkout" % (os.path.basename(path), path))
    # Sweep specs.
    sweep = Program("sweep.py", os.path.join(REPO, "scripts", "sweep.py"), {}, [])
    for name, content, expect, line, needles in spec_variants():
        path = os.path.join(files, "spec-" + name + ".sweep")
        write_variant(path, content)
        args = [path, "--db", os.path.join(work, "db", "spec-" + name + ".db"), "--build-dir",
                build, "--jobs", "1", "--timeout", "30", "--no-progress"]
        cases.append(Case("spec/" + name, sweep, args, expect,
                          [os.path.basename(path)] + needles,
                          (os.path.basename(path), line) if line else None))
    # The sweep's own options (a valid spec; the option is what is wrong).
    base_spec = os.path.join(files, "spec-base.sweep")
    write_variant(base_spec, SPEC_BASE)
    a_file = os.path.join(files, "a-file")
    write_variant(a_file, "x\n")
    for name, extra, needles in (
            ("timeout-nan", ["--timeout", "nan"], ["--timeout"]),
            ("timeout-negative", ["--timeout", "-1"], ["--timeout"]),
            ("timeout-word", ["--timeout", "soon"], ["--timeout"]),
            ("jobs-zero", ["--jobs", "0"], ["--jobs"]),
            ("db-directory", ["--db", files], [files]),
            ("db-under-a-file", ["--db", os.path.join(a_file, "r.db")], [a_file]),
            ("log-dir-is-a-file", ["--log-dir", a_file], [a_file]),
            ("slurm-cpus-zero", ["--emit-slurm", os.path.join(work, "slurm"), "--slurm-cpus",
                                 "0"], ["--slurm-cpus"]),
            ("run-list-missing", ["--run-list", os.path.join(work, "none.jsonl")],
             ["none.jsonl"])):
        args = ([] if name.startswith("run-list") else [base_spec]) + [
            "--db", os.path.join(work, "db", "sweep-opt-%s.db" % name), "--build-dir", build,
            "--no-progress"] + extra
        cases.append(Case("sweep-option/" + name, sweep, args, "reject", needles))
    # Command lines.
    for p in programs.values():
        small = p.small_args(work)
        for opt, (default, help_text) in sorted(p.options.items()):
            kind = option_kind(opt, default, help_text)
            for label, value, expect in cli_values(opt, kind, default, work, help_text):
                cname = "cli/%s/%s=%s" % (p.name, opt, label)
                args = [a for a in small if not a.startswith("--%s=" % opt)]
                args += ["--%s=%s" % (opt, value)] + db_arg(p, cname.replace("/", "_"))
                # A refusal names the option, or for a path the path itself.
                needles = [value] if kind in ("input", "output") else [opt]
                cases.append(Case(cname, p, args, expect, needles))
        cases.append(Case("cli/%s/unknown-option" % p.name, p,
                          small + ["--noSuchOption=1"], "reject", ["noSuchOption"]))
        cases.append(Case("cli/%s/stray-argument" % p.name, p, small + ["stray"], "reject",
                          ["stray"]))
    # Settings that must change the result (nine-city-training, compared in the database).
    if nct:
        base = nct.small_args(work)
        for name, extra in (("computeTime", ["--computeTime=1"]),
                            ("attribute-ComputeTime", ["--ns3::TrainingIsland::ComputeTime=1s"]),
                            ("linkRate", ["--linkRate=2e9"])):
            cname = "effect/nine-city-training/" + name
            cases.append(Case(cname, nct, base + extra + db_arg(nct, cname.replace("/", "_")),
                              "differs", baseline="baseline/nine-city-training"))
    return cases


# --------------------------------------------------------------------------------------------
# Running and classifying


def drop_to_nobody():
    os.setgid(65534)
    os.setuid(65534)


def runnable_as_nobody(path):
    """True unless we are root and uid 65534 (who runs the read-only database cases, since
    file permissions bind root only through another user) cannot execute path."""
    if os.geteuid() != 0:
        return True
    return subprocess.run(["test", "-x", path], preexec_fn=drop_to_nobody).returncode == 0


def run_case(case, timeout):
    env = dict(os.environ)
    args = list(case.args)
    if case.setup:
        setup, path = case.setup
        for p in (path, path + "-missing"):
            if os.path.isdir(p):
                shutil.rmtree(p)
            elif os.path.exists(p):
                os.remove(p)
        args.append("--db=" + setup(path))
        case.args = args
    preexec = drop_to_nobody if case.as_nobody and os.geteuid() == 0 else None
    cmd = ([PY] if case.program.path.endswith(".py") else []) + [case.program.path] + args
    start = time.monotonic()
    try:
        p = subprocess.Popen(cmd, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                             stderr=subprocess.PIPE, env=env, preexec_fn=preexec,
                             start_new_session=True, cwd=case.cwd or CWD[0])
    except OSError as e:
        return {"rc": None, "stdout": "", "stderr": str(e), "time": 0, "hung": False}
    try:
        out, err = p.communicate(timeout=timeout)
        hung = False
    except subprocess.TimeoutExpired:
        os.killpg(p.pid, signal.SIGKILL)
        out, err = p.communicate()
        hung = True
    return {"rc": p.returncode, "stdout": out.decode("utf-8", "replace"),
            "stderr": err.decode("utf-8", "replace"), "time": time.monotonic() - start,
            "hung": hung}


def sim_time(case):
    """sim_time_s the case's run recorded in its database, or None."""
    db = [a[5:] for a in case.args if a.startswith("--db=")]
    if not db or not os.path.isfile(db[-1]):
        return None
    try:
        con = sqlite3.connect(db[-1])
        row = con.execute("SELECT sim_time_s FROM runs ORDER BY run_id DESC LIMIT 1").fetchone()
        con.close()
        return row[0] if row else None
    except sqlite3.Error:
        return None


def classify(case, by_name):
    r = case.result
    rc, err = r["rc"], r["stderr"]
    if r["hung"]:
        return "hung", "no answer within the timeout"
    if rc is None:
        return "crashed", "could not start: " + err
    if rc < 0:
        return "crashed", "killed by signal %s" % signal.Signals(-rc).name
    if rc not in (0, 1, 2):
        return "crashed", "exit status %d" % rc
    if "Traceback (most recent call last)" in err:
        return "crashed", "a Python traceback"
    if case.expect == "reject":
        if rc != 2:
            return "wrong", "exit %d on input that must be refused" % rc
        if SIMULATED_RE.search(r["stdout"]):
            return "wrong", "refused only after the simulation ran"
    elif case.expect == "accept":
        if rc != 0:
            return "wrong", "exit %d on a valid input" % rc
        return "clean", ""
    elif case.expect == "differs":
        if rc != 0:
            return "wrong", "exit %d on a valid input" % rc
        base = by_name.get(case.baseline)
        a, b = sim_time(case), sim_time(base) if base else None
        if a is None or b is None:
            return "wrong", "no result to compare with the baseline"
        if abs(a - b) <= 1e-9 * max(abs(a), abs(b), 1e-12):
            return "wrong", "same result as the unchanged input (%g s): the input is ignored" % a
        return "clean", ""
    if rc != 2:
        return "clean", ""
    missing = [n for n in case.needles if n not in err]
    if missing:
        return "unclear", "the message does not name %s" % ", ".join(repr(m) for m in missing)
    if case.line:
        base, line = case.line
        if not re.search(re.escape(base) + r":%d\b" % line, err):
            return "unclear", "the message does not name %s line %d" % (base, line)
    return "clean", ""


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--build-dir", default=os.path.join(REPO, "build"))
    ap.add_argument("--work-dir", help="scratch directory (default: a temporary one, removed)")
    ap.add_argument("--jobs", "-j", type=int, default=2)
    ap.add_argument("--timeout", type=float, default=8.0, help="seconds per case (default 8)")
    ap.add_argument("--filter", help="only cases whose name matches this regular expression")
    ap.add_argument("--list", action="store_true", help="list the cases and exit")
    ap.add_argument("--known-failures", help="file of case names (or fnmatch patterns, e.g. "
                    "cli/*) allowed not to be clean: work pending elsewhere")
    ap.add_argument("--skip-known", action="store_true", help="do not run the known failures")
    ap.add_argument("--json", help="write every case and its outcome to this file")
    ap.add_argument("--verbose", "-v", action="store_true", help="print every case")
    args = ap.parse_args(argv)

    build = os.path.abspath(args.build_dir)
    work = os.path.abspath(args.work_dir) if args.work_dir else \
        tempfile.mkdtemp(prefix="bad-input-corpus-")
    if args.work_dir:
        shutil.rmtree(work, ignore_errors=True)
    os.makedirs(os.path.join(work, "db"), exist_ok=True)
    os.chmod(work, 0o755)
    CWD[0] = work
    try:
        programs = discover_programs(build, work)
        if not programs:
            sys.stderr.write("bad-input-corpus: no program found in %s\n" % build)
            return 2
        cases = build_cases(programs, work, build)
        if args.filter:
            keep = re.compile(args.filter)
            cases = [c for c in cases if keep.search(c.name) or c.name.startswith("baseline/")]
        if args.list:
            for c in cases:
                print("%-70s %-7s %s" % (c.name, c.expect, shlex.join(c.args)))
            return 0
        patterns = []
        if args.known_failures:
            with open(args.known_failures) as f:
                patterns = [l.split("#")[0].strip() for l in f if l.split("#")[0].strip()]
        known = {c.name for c in cases if any(fnmatch.fnmatchcase(c.name, p) for p in patterns)}
        if args.skip_known:
            skipped = len(known)
            cases = [c for c in cases if c.name not in known]
            print("bad-input corpus: %d known failures not run (--skip-known)" % skipped)
        start = time.monotonic()
        baselines = [c for c in cases if c.name.startswith("baseline/")]
        others = [c for c in cases if not c.name.startswith("baseline/")]
        for c in baselines:
            c.result = run_case(c, args.timeout)
        with concurrent.futures.ThreadPoolExecutor(max_workers=max(1, args.jobs)) as pool:
            for c, result in zip(others, pool.map(lambda c: run_case(c, args.timeout), others)):
                c.result = result
        # A case still running at the timeout is run again alone, with four times the time:
        # on a loaded machine (CI runs other tests beside this one) a valid but heavy input can
        # pass the timeout without any hang; a real hang stays hung.
        slow = [c for c in others if c.result["hung"]]
        for c in slow:
            c.result = run_case(c, 4 * args.timeout)
            if not c.result["hung"]:
                print("slow     %s: finished in %.1f s when run alone (over %g s beside others)"
                      % (c.name, c.result["time"], args.timeout))
        by_name = {c.name: c for c in cases}
        counts = {k: 0 for k in ("crashed", "hung", "wrong", "unclear", "clean")}
        failing = []
        for c in cases:
            c.outcome, c.why = classify(c, by_name)
            counts[c.outcome] += 1
            if c.outcome != "clean":
                failing.append(c)
            if args.verbose:
                print("%-8s %-70s %s" % (c.outcome, c.name, c.why))
        unexpected = [c for c in failing if c.name not in known]
        pending = [c for c in failing if c.name in known]
        # Exact names listed but clean now (a pattern such as cli/* may match clean cases).
        now_clean = sorted(set(patterns) & {c.name for c in cases if c.outcome == "clean"})
        for c in unexpected:
            print("%-8s %s: %s\n         %s\n         stderr: %s" % (
                c.outcome.upper(), c.name, c.why, shlex.join([c.program.path] + c.args),
                c.result["stderr"].strip().replace("\n", " | ")[-400:]))
        if pending:
            print("known failures (listed in %s): %d" % (args.known_failures, len(pending)))
            for c in pending:
                print("  %-8s %s: %s" % (c.outcome, c.name, c.why))
        if now_clean:
            print("clean now, remove from %s: %s" % (args.known_failures, " ".join(now_clean)))
        print("bad-input corpus: %d cases on %d programs in %.0f s: %s" % (
            len(cases), len(programs) + 1, time.monotonic() - start,
            ", ".join("%d %s" % (n, k) for k, n in counts.items())))
        if args.json:
            with open(args.json, "w") as f:
                json.dump([{"name": c.name, "outcome": c.outcome, "why": c.why,
                            "expect": c.expect, "rc": c.result["rc"],
                            "time_s": round(c.result["time"], 3),
                            "command": [c.program.path] + c.args,
                            "stderr": c.result["stderr"][-2000:]} for c in cases], f, indent=1)
        return 1 if unexpected else 0
    finally:
        for d in SCRATCH + ([] if args.work_dir else [work]):
            shutil.rmtree(d, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
