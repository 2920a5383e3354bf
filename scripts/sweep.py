#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0-only
"""Parameter sweeps of an experiment program into one SQLite results database.

    scripts/sweep.py SPEC [--db results.db] [--jobs N] [--build-dir build]
    scripts/sweep.py SPEC --list                      # print the expanded runs, run nothing
    scripts/sweep.py SPEC --emit-slurm DIR            # SLURM job array + run list, run nothing
    scripts/sweep.py --run-list DIR/runs.jsonl --task-index I --task-count N --db task-I.db

A spec file is line based (doc/sweeps.rst has the full grammar):

    # comment
    program = nine-city-training          # built program (looked up in --build-dir) or a path
    mode = unicast, multicast, aggregation
    linkRate = 1e9..8e9 *2                # 1e9, 2e9, 4e9, 8e9
    RngRun = 1..3                         # 1, 2, 3
    modelBytes = 200e3                    # one value: a fixed parameter
    rounds = 1

Every parameter is checked against the program's --PrintHelp / --PrintGlobals option list (or a
`declare =` line); every error names the spec file and line. The runs are the cartesian product
of the value lists; each executes `program --p1=v1 ... --db=DB --runKey=KEY --quiet=1`, KEY being
a stable hash of the program name and the parameters. Runs whose key is already 'complete' in
the database are skipped, so an interrupted sweep is resumed by running it again. A run that
exits non-zero or crashes without recording itself gets a 'failed' row in table `runs`, with
the tail of its stderr in `error`, and the sweep goes on.

Python 3 standard library only. Exit status: 0 every run complete, 1 some run failed, 2 bad
input (spec, options, program), 130/143 interrupted (SIGINT/SIGTERM; restart to resume).
"""

import argparse
import ctypes
import hashlib
import itertools
import json
import math
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
DEFAULT_PROGRAM = "nine-city-training"
DIRECTIVES = ("program", "declare", "timeout")
# Options the sweep passes itself; a spec may not set them.
SWEEP_OPTIONS = ("db", "runKey", "quiet")
# ns-3 CommandLine's own arguments: never sweep parameters.
GENERAL_ARGUMENTS = ("PrintHelp", "PrintGlobals", "PrintGroups", "PrintGroup", "PrintTypeIds",
                     "PrintAttributes", "PrintVersion", "PrintAllAttributes")
MAX_RUNS = 1000000
MAX_RANGE_VALUES = 100000

# Table `runs` exactly as model/results-database.cc creates it (CREATE ... IF NOT EXISTS on both
# sides, so whichever opens the database first creates it; test_sweep.py checks they agree).
RUNS_SCHEMA = """
CREATE TABLE IF NOT EXISTS meta(
  key TEXT PRIMARY KEY,
  value TEXT);
CREATE TABLE IF NOT EXISTS runs(
  run_id INTEGER PRIMARY KEY AUTOINCREMENT,
  run_key TEXT,
  status TEXT NOT NULL,
  error TEXT,
  created_at TEXT NOT NULL,
  program TEXT,
  version TEXT,
  topology TEXT,
  schedule TEXT,
  mode TEXT,
  seed INTEGER,
  run_number INTEGER,
  model_bytes INTEGER,
  segment_size INTEGER,
  rounds INTEGER,
  parameters TEXT,
  sim_time_s REAL,
  wall_time_s REAL);
CREATE INDEX IF NOT EXISTS runs_key ON runs(run_key);
"""
BUSY_TIMEOUT_S = 120.0
STDERR_TAIL_CHARS = 2000

NUMBER_RE = r"[-+]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][-+]?\d+)?"
# Range ends: no trailing dot ("1." would make "1...4" a range).
END_RE = r"[-+]?(?:\d+(?:\.\d+)?|\.\d+)(?:[eE][-+]?\d+)?"
RANGE_RE = re.compile(r"^(%s)\s*\.\.\s*(%s)(?:\s+([*+])\s*(\S+))?$" % (END_RE, END_RE))
KEY_RE = re.compile(r"^[A-Za-z_][A-Za-z0-9_.:-]*$")


class SpecError(Exception):
    """Bad input; str() is 'file:line: error: message' (line omitted when 0)."""

    def __init__(self, path, line, message):
        self.path, self.line, self.message = path, line, message
        where = "%s:%d" % (path, line) if line else path
        super().__init__("%s: error: %s" % (where, message))


# --------------------------------------------------------------------------------------------
# Values and types


def is_number(text):
    return re.fullmatch(NUMBER_RE, text.strip()) is not None


def format_number(x):
    """Canonical text of a number: integral values without exponent or fraction."""
    if math.isfinite(x) and x == math.floor(x) and abs(x) < 1e15:
        return str(int(x))
    return repr(float(x))


class ParamType:
    """What values a parameter accepts: number, int, bool, string, or a set of choices."""

    def __init__(self, kind, choices=None, default=None):
        self.kind = kind  # "number" | "int" | "bool" | "string" | "choice"
        self.choices = choices or []
        self.default = default

    def numeric(self):
        return self.kind in ("number", "int")

    def describe(self):
        if self.kind == "choice":
            return "one of " + ", ".join(self.choices)
        text = {"number": "a number", "int": "an integer", "bool": "true or false",
                "string": "text"}[self.kind]
        if self.default not in (None, ""):
            text += " (default %s)" % self.default
        return text

    def check(self, name, text):
        """Canonical text of \\p text for this type; raises ValueError with a message."""
        if self.kind in ("number", "int"):
            if not is_number(text):
                raise ValueError("%s expects %s, got '%s'" % (name, self.describe(), text))
            x = float(text)
            if self.kind == "int" and x != math.floor(x):
                raise ValueError("%s expects %s, got '%s'" % (name, self.describe(), text))
            return format_number(x)
        if self.kind == "bool":
            low = text.lower()
            if low in ("true", "1", "t", "yes"):
                return "true"
            if low in ("false", "0", "f", "no"):
                return "false"
            raise ValueError("%s expects %s, got '%s'" % (name, self.describe(), text))
        if self.kind == "choice" and text not in self.choices:
            raise ValueError("%s expects %s, got '%s'" % (name, self.describe(), text))
        return text


def infer_type(default, help_text):
    """Type of an ns-3 CommandLine option from its help text and printed default."""
    choice = re.fullmatch(r"\s*([\w.+-]+(?:\s*\|\s*[\w.+-]+)+)\s*", help_text or "")
    if choice:
        return ParamType("choice", [c.strip() for c in choice.group(1).split("|")], default)
    if default is None:
        return ParamType("string", default=default)
    if default.lower() in ("true", "false"):
        return ParamType("bool", default=default)
    if is_number(default):
        # A double whose default is integral prints like an integer: accept any number.
        return ParamType("number", default=default)
    return ParamType("string", default=default)


def parse_declared_type(text):
    text = text.strip()
    if "|" in text:
        choices = [c.strip() for c in text.split("|")]
        if any(not c for c in choices):
            raise ValueError("empty choice in '%s'" % text)
        return ParamType("choice", choices)
    kinds = {"": "string", "str": "string", "string": "string", "int": "int",
             "integer": "int", "float": "number", "double": "number", "number": "number",
             "bool": "bool", "boolean": "bool"}
    if text not in kinds:
        raise ValueError("unknown type '%s' (int, float, bool, str or a|b|c)" % text)
    return ParamType(kinds[text])


# --------------------------------------------------------------------------------------------
# Spec file


class Spec:
    """A parsed sweep spec: program, parameters (name -> list of raw items) with their lines."""

    def __init__(self, path):
        self.path = path
        self.program = None  # (words, line)
        self.declared = None  # {name: ParamType}, line
        self.declare_line = 0
        self.timeout = None
        self.params = []  # [(name, [item...], line)]


def split_items(path, lineno, text):
    """Split a value list on commas outside double quotes; returns [(text, quoted)]."""
    items, cur, in_quote, had_quote = [], [], False, False
    i = 0
    while i < len(text):
        c = text[i]
        if in_quote:
            if c == "\\" and i + 1 < len(text):
                cur.append(text[i + 1])
                i += 2
                continue
            if c == '"':
                in_quote = False
            else:
                cur.append(c)
        elif c == '"':
            if "".join(cur).strip():
                raise SpecError(path, lineno, "a quote must start the value: %s" % text.strip())
            cur, in_quote, had_quote = [], True, True
        elif c == ",":
            items.append(("".join(cur).strip() if not had_quote else "".join(cur), had_quote))
            cur, had_quote = [], False
        else:
            if had_quote and not c.isspace():
                raise SpecError(path, lineno, "text after a closing quote: %s" % text.strip())
            cur.append(c)
        i += 1
    if in_quote:
        raise SpecError(path, lineno, "unterminated quote")
    items.append(("".join(cur).strip() if not had_quote else "".join(cur), had_quote))
    return items


def strip_comment(line):
    """Remove a # comment that is not inside double quotes."""
    in_quote = False
    for i, c in enumerate(line):
        if c == '"' and (i == 0 or line[i - 1] != "\\"):
            in_quote = not in_quote
        elif c == "#" and not in_quote:
            return line[:i]
    return line


def parse_spec(path, text=None):
    if text is None:
        try:
            with open(path, encoding="utf-8") as f:
                text = f.read()
        except OSError as e:
            raise SpecError(path, 0, "cannot read spec: %s" % e.strerror)
        except UnicodeDecodeError as e:
            raise SpecError(path, 0, "not UTF-8 text: %s" % e)
    spec = Spec(path)
    seen = {}
    for lineno, raw in enumerate(text.splitlines(), 1):
        line = strip_comment(raw).strip()
        if not line:
            continue
        if "=" not in line:
            raise SpecError(path, lineno, "expected 'name = value, value, ...', got '%s'" % line)
        key, _, value = line.partition("=")
        key, value = key.strip(), value.strip()
        if key.startswith("--"):
            key = key[2:]
        if not KEY_RE.match(key):
            raise SpecError(path, lineno, "bad parameter name '%s'" % key)
        if key in seen:
            raise SpecError(path, lineno, "'%s' already given on line %d" % (key, seen[key]))
        seen[key] = lineno
        if not value:
            raise SpecError(path, lineno, "'%s' has no value" % key)
        if key == "program":
            try:
                words = shlex.split(value)
            except ValueError as e:
                raise SpecError(path, lineno, "bad program line: %s" % e)
            spec.program = (words, lineno)
        elif key == "declare":
            spec.declared, spec.declare_line = {}, lineno
            for item, _ in split_items(path, lineno, value):
                name, _, type_text = item.partition(":")
                name = name.strip()
                if not KEY_RE.match(name):
                    raise SpecError(path, lineno, "bad declared parameter name '%s'" % name)
                try:
                    spec.declared[name] = parse_declared_type(type_text)
                except ValueError as e:
                    raise SpecError(path, lineno, "declare %s: %s" % (name, e))
        elif key == "timeout":
            if not is_number(value) or float(value) <= 0:
                raise SpecError(path, lineno, "timeout must be a positive number of seconds, "
                                "got '%s'" % value)
            spec.timeout = float(value)
        else:
            if key in SWEEP_OPTIONS:
                raise SpecError(path, lineno, "--%s is set by the sweep itself" % key)
            items = split_items(path, lineno, value)
            for text_item, quoted in items:
                if not text_item and not quoted:
                    raise SpecError(path, lineno, "empty value in the list of '%s'" % key)
            spec.params.append((key, items, lineno))
    return spec


def expand_range(path, lineno, name, text):
    """Values of 'a..b', 'a..b +step' or 'a..b *factor' (b included), or None if no range."""
    m = RANGE_RE.match(text) if "..." not in text else None
    if not m:
        if ".." in text:
            raise SpecError(path, lineno, "%s: bad range '%s' (expected a..b, a..b +step or "
                            "a..b *factor)" % (name, text))
        return None
    lo, hi, op, step_text = float(m.group(1)), float(m.group(2)), m.group(3) or "+", m.group(4)
    if step_text is not None and not is_number(step_text):
        raise SpecError(path, lineno, "%s: bad range step '%s' in '%s'" % (name, step_text, text))
    step = float(step_text) if step_text is not None else 1.0
    if hi < lo:
        raise SpecError(path, lineno, "%s: empty range '%s' (%s > %s)" %
                        (name, text, m.group(1), m.group(2)))
    values = []
    if op == "+":
        if step <= 0:
            raise SpecError(path, lineno, "%s: range step must be positive in '%s'" % (name, text))
        n = int(math.floor((hi - lo) / step + 1e-9)) + 1
        if n > MAX_RANGE_VALUES:
            raise SpecError(path, lineno, "%s: range '%s' has %d values (more than %d)" %
                            (name, text, n, MAX_RANGE_VALUES))
        values = [lo + i * step for i in range(n)]
        # Round away the binary noise of i*step (0.1*3 = 0.30000000000000004).
        values = [float("%.12g" % v) for v in values]
    else:
        if step <= 1:
            raise SpecError(path, lineno, "%s: range factor must be greater than 1 in '%s'" %
                            (name, text))
        if lo <= 0:
            raise SpecError(path, lineno, "%s: a geometric range must start above 0 in '%s'" %
                            (name, text))
        v = lo
        while v <= hi * (1 + 1e-9):
            values.append(float("%.12g" % v))
            v *= step
            if len(values) > MAX_RANGE_VALUES:
                raise SpecError(path, lineno, "%s: range '%s' has more than %d values" %
                                (name, text, MAX_RANGE_VALUES))
    return values


# --------------------------------------------------------------------------------------------
# Program and its options


def resolve_program(spec, build_dir, override=None):
    """Absolute command words of the spec's program (or --program)."""
    if override:
        words, lineno, where = shlex.split(override), 0, "--program"
    elif spec.program:
        words, lineno = spec.program
        where = spec.path
    else:
        words, lineno, where = [DEFAULT_PROGRAM], 0, spec.path
    exe = words[0]
    if "/" not in exe:
        candidate = os.path.join(build_dir, exe)
        if os.path.isfile(candidate) and os.access(candidate, os.X_OK):
            path = candidate
        else:
            path = shutil.which(exe)
        if not path:
            raise SpecError(where, lineno, "program '%s' is neither in the build directory %s "
                            "(build it: make -C %s %s) nor on PATH" % (exe, build_dir, build_dir,
                                                                          exe))
    else:
        base = os.path.dirname(os.path.abspath(spec.path)) if where == spec.path else os.getcwd()
        path = os.path.normpath(os.path.join(base, os.path.expanduser(exe)))
        if not (os.path.isfile(path) and os.access(path, os.X_OK)):
            raise SpecError(where, lineno, "program '%s' (%s) is not an executable file" %
                            (exe, path))
    return [os.path.abspath(path)] + words[1:], lineno


def program_options(words, path, lineno):
    """{name: ParamType} from the program's --PrintHelp and --PrintGlobals (ns-3 CommandLine)."""
    options = {}

    def run(flag):
        try:
            p = subprocess.run(words + [flag], stdin=subprocess.DEVNULL, capture_output=True,
                               text=True, timeout=60)
        except (OSError, subprocess.TimeoutExpired) as e:
            raise SpecError(path, lineno, "cannot run %s %s: %s" % (words[0], flag, e))
        return p.returncode, p.stdout

    rc, out = run("--PrintHelp")
    section = None
    for line in out.splitlines():
        if line and not line[0].isspace():
            section = line.strip().rstrip(":")
            continue
        m = re.match(r"^\s+--([^\s:=]+):\s*(.*?)\s*$", line)
        if not m or section == "General Arguments":
            continue
        name, rest = m.group(1), m.group(2)
        default = None
        d = re.match(r"^(.*?)\s*\[(.*)\]$", rest)
        if d:
            rest, default = d.group(1), d.group(2)
        if name not in GENERAL_ARGUMENTS:
            options[name] = infer_type(default, rest)
    if rc != 0 or not options:
        raise SpecError(path, lineno, "cannot list the options of %s with --PrintHelp (exit "
                        "status %d); declare the parameters instead: declare = name:type, ..." %
                        (words[0], rc))
    rc, out = run("--PrintGlobals")
    if rc == 0:
        for line in out.splitlines():
            m = re.match(r"^\s+--([A-Za-z]\w*)=\[(.*)\]\s*$", line)
            if m:
                options.setdefault(m.group(1), infer_type(m.group(2), ""))
    return options


def expand(spec, options):
    """Validate the parameters against \\p options and return [(name, [canonical values])]."""
    axes = []
    for name, items, lineno in spec.params:
        ptype = options.get(name)
        if ptype is None:
            if "::" in name:
                ptype = ParamType("string")  # an ns-3 attribute path: --ns3::Class::Attr=v
            else:
                known = ", ".join(sorted(n for n in options if n not in SWEEP_OPTIONS))
                raise SpecError(spec.path, lineno, "unknown parameter '%s' (the program accepts:"
                                " %s)" % (name, known))
        values = []
        for text, quoted in items:
            rng = None if quoted else expand_range(spec.path, lineno, name, text)
            if rng is not None:
                if not ptype.numeric():
                    raise SpecError(spec.path, lineno, "%s: a range needs a numeric parameter; "
                                    "%s expects %s" % (name, name, ptype.describe()))
                raw = [format_number(v) for v in rng]
            else:
                raw = [text]
            for r in raw:
                try:
                    values.append(ptype.check(name, r))
                except ValueError as e:
                    raise SpecError(spec.path, lineno, str(e))
        dup = sorted({v for v in values if values.count(v) > 1})
        if dup:
            raise SpecError(spec.path, lineno, "%s: value %s listed twice" % (name, dup[0]))
        axes.append((name, values))
    count = 1
    for _, values in axes:
        count *= len(values)
    if count > MAX_RUNS:
        raise SpecError(spec.path, 0, "the spec expands to %d runs (more than %d)" %
                        (count, MAX_RUNS))
    return axes


def run_key(program_words, params):
    """Stable identity of a run: hash of the program's name and its sorted parameters."""
    ident = {"program": [os.path.basename(w) if i == 0 or os.path.isabs(w) else w
                         for i, w in enumerate(program_words)],
             "params": sorted(params.items())}
    blob = json.dumps(ident, sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(blob.encode()).hexdigest()[:20]


def make_runs(program_words, axes):
    runs = []
    names = [n for n, _ in axes]
    for index, combo in enumerate(itertools.product(*[v for _, v in axes])):
        params = dict(zip(names, combo))
        runs.append({"index": index, "run_key": run_key(program_words, params),
                     "program": program_words, "params": params})
    return runs


def command_of(run, db):
    args = ["--%s=%s" % (k, v) for k, v in run["params"].items()]
    return list(run["program"]) + args + ["--db=%s" % db, "--runKey=%s" % run["run_key"],
                                          "--quiet=1"]


# --------------------------------------------------------------------------------------------
# Database


def connect(db, wal=False):
    con = sqlite3.connect(db, timeout=BUSY_TIMEOUT_S, isolation_level=None)
    if wal:
        con.execute("PRAGMA journal_mode=WAL")  # persistent: once, when the sweep starts
    return con


def ensure_db(db):
    """Create the database (WAL) with tables meta and runs if needed."""
    d = os.path.dirname(os.path.abspath(db))
    os.makedirs(d, exist_ok=True)
    con = connect(db, wal=True)
    try:
        con.execute("BEGIN IMMEDIATE")
        for stmt in RUNS_SCHEMA.split(";"):
            if stmt.strip():
                con.execute(stmt)
        con.execute("INSERT OR IGNORE INTO meta(key, value) VALUES('schema_version', '1')")
        con.execute("COMMIT")
    finally:
        con.close()


def complete_keys(db):
    con = connect(db)
    try:
        return {r[0] for r in con.execute(
            "SELECT DISTINCT run_key FROM runs WHERE status = 'complete' AND run_key IS NOT NULL")}
    finally:
        con.close()


def key_rows(db, key):
    """(rows with this run_key, complete rows with it)."""
    con = connect(db)
    try:
        r = con.execute("SELECT COUNT(*), COALESCE(SUM(status = 'complete'), 0) FROM runs "
                        "WHERE run_key = ?", (key,)).fetchone()
        return r[0], r[1]
    finally:
        con.close()


def param_number(params, *names):
    for n in names:
        v = params.get(n)
        if v is not None and is_number(v):
            return int(float(v))
    return None


def record_failure(db, run, error, wall_s):
    """Append a 'failed' runs row with the same columns the programs fill."""
    params = run["params"]
    parameters = {k: (float(v) if is_number(v) and not re.fullmatch(r"[-+]?\d+", v)
                      else int(v) if re.fullmatch(r"[-+]?\d+", v) else v)
                  for k, v in params.items()}
    stamp = time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())
    con = connect(db)
    try:
        con.execute("BEGIN IMMEDIATE")
        con.execute(
            "INSERT INTO runs(run_key, status, error, created_at, program, version, topology, "
            "schedule, mode, seed, run_number, model_bytes, segment_size, rounds, parameters, "
            "sim_time_s, wall_time_s) VALUES(?, 'failed', ?, ?, ?, NULL, ?, ?, ?, ?, ?, ?, ?, ?, "
            "?, NULL, ?)",
            (run["run_key"], error, stamp, os.path.basename(run["program"][0]),
             params.get("topology"), params.get("schedule"), params.get("mode"),
             param_number(params, "RngSeed"), param_number(params, "RngRun"),
             param_number(params, "modelBytes"), param_number(params, "segmentSize"),
             param_number(params, "rounds"), json.dumps(parameters), wall_s))
        con.execute("COMMIT")
    finally:
        con.close()


# --------------------------------------------------------------------------------------------
# Running


def describe_status(rc):
    if rc < 0:
        try:
            name = signal.Signals(-rc).name
        except ValueError:
            name = "signal %d" % -rc
        return "killed by signal %s" % name
    return "exit status %d" % rc


def hms(seconds):
    seconds = int(round(seconds))
    return "%d:%02d:%02d" % (seconds // 3600, seconds // 60 % 60, seconds % 60)


def _die_with_parent():
    """In the child: get SIGKILL if the sweep dies, so no orphan can write a run twice."""
    try:
        libc = ctypes.CDLL(None, use_errno=True)
        libc.prctl(1, signal.SIGKILL)  # PR_SET_PDEATHSIG
    except (OSError, AttributeError):
        pass


class Sweep:
    def __init__(self, db, jobs, timeout, log_dir, progress=True):
        self.db = os.path.abspath(db)
        self.jobs = max(1, jobs)
        self.timeout = timeout
        self.log_dir = log_dir
        self.interrupted = None
        self.tty = sys.stderr.isatty()
        self.progress = progress

    def _on_signal(self, signum, frame):
        if self.interrupted is None:
            self.interrupted = signum

    def _line(self, text, final=False):
        if not self.progress and not final:
            return
        if self.tty:
            sys.stderr.write("\r\033[K" + text + ("\n" if final else ""))
        else:
            sys.stderr.write(text + "\n")
        sys.stderr.flush()

    def run(self, runs):
        ensure_db(self.db)
        done_keys = complete_keys(self.db)
        todo = [r for r in runs if r["run_key"] not in done_keys]
        total, skipped = len(runs), len(runs) - len(todo)
        for sig in (signal.SIGINT, signal.SIGTERM, signal.SIGHUP):
            signal.signal(sig, self._on_signal)
        if self.log_dir:
            os.makedirs(self.log_dir, exist_ok=True)
        start = time.monotonic()
        running = []  # dicts: run, proc, started, err (file), before
        complete = failed = 0
        failed_keys = []
        last_print = 0.0

        def status_line():
            finished = complete + failed
            line = "sweep: %d/%d done (%d skipped as complete), %d failed, %d running, %s" % (
                skipped + finished, total, skipped, failed, len(running),
                hms(time.monotonic() - start))
            if finished:
                rate = finished / (time.monotonic() - start)
                line += ", ETA %s" % hms((len(todo) - finished) / rate)
            elif todo:
                line += ", ETA ?"
            return line

        self._line(status_line())
        queue = list(todo)
        while (queue or running) and self.interrupted is None:
            while queue and len(running) < self.jobs and self.interrupted is None:
                run = queue.pop(0)
                if key_rows(self.db, run["run_key"])[1]:
                    skipped += 1  # completed meanwhile by another process
                    continue
                running.append(self._start(run))
            progressed = False
            for job in list(running):
                rc = job["proc"].poll()
                timed_out = False
                if rc is None and self.timeout and time.monotonic() - job["started"] > \
                        self.timeout:
                    job["proc"].kill()
                    rc = job["proc"].wait()
                    timed_out = True
                if rc is None:
                    continue
                if rc < 0 and -rc in (signal.SIGINT, signal.SIGTERM, signal.SIGHUP) and \
                        not timed_out:
                    # Killed like the sweep itself (Ctrl-C, kill of the process group)? Let
                    # the sweep's own handler run first: an interruption is not a failure.
                    time.sleep(0.3)
                    if self.interrupted is not None:
                        break
                running.remove(job)
                progressed = True
                ok = self._finish(job, rc, timed_out)
                if ok:
                    complete += 1
                else:
                    failed += 1
                    failed_keys.append(job["run"]["run_key"])
            now = time.monotonic()
            # A terminal gets a live line; a log file a line every 10 s at most.
            if (self.tty and (progressed or now - last_print > 1.0)) or \
                    (not self.tty and progressed and now - last_print > 10.0):
                last_print = now
                self._line(status_line())
            if not progressed:
                time.sleep(0.05)

        if self.interrupted is not None:
            for job in running:
                try:
                    job["proc"].terminate()
                except OSError:
                    pass
            deadline = time.monotonic() + 10
            for job in running:
                try:
                    job["proc"].wait(max(0.1, deadline - time.monotonic()))
                except subprocess.TimeoutExpired:
                    job["proc"].kill()
                    job["proc"].wait()
                job["err"].close()
            self._line(status_line(), final=True)
            name = signal.Signals(self.interrupted).name
            sys.stderr.write("sweep: interrupted by %s; %d runs not finished (not recorded); "
                             "run the same command again to resume\n" %
                             (name, len(running) + len(queue)))
            return 128 + self.interrupted
        self._line(status_line(), final=True)
        sys.stderr.write("sweep: %d complete (%d skipped as already complete), %d failed, "
                         "database %s\n" % (complete + skipped, skipped, failed, self.db))
        if failed_keys:
            sys.stderr.write("sweep: failed run keys: %s%s\n" % (
                ", ".join(failed_keys[:20]), " ..." if len(failed_keys) > 20 else ""))
        return 1 if failed else 0

    def _start(self, run):
        cmd = command_of(run, self.db)
        if self.log_dir:
            out = open(os.path.join(self.log_dir, run["run_key"] + ".out"), "w")
            err = open(os.path.join(self.log_dir, run["run_key"] + ".err"), "w+")
        else:
            out = subprocess.DEVNULL
            err = tempfile.TemporaryFile("w+")
        before = key_rows(self.db, run["run_key"])[0]
        try:
            proc = subprocess.Popen(cmd, stdin=subprocess.DEVNULL, stdout=out, stderr=err,
                                    preexec_fn=_die_with_parent)
        except OSError as e:
            proc = _FailedProcess(e)
        if out is not subprocess.DEVNULL:
            out.close()
        return {"run": run, "proc": proc, "started": time.monotonic(), "err": err,
                "before": before, "cmd": cmd}

    def _finish(self, job, rc, timed_out):
        """Record the outcome; True if the run is complete in the database."""
        run, wall = job["run"], time.monotonic() - job["started"]
        err = job["err"]
        err.seek(0)
        tail = err.read()[-STDERR_TAIL_CHARS:].strip()
        err.close()
        if isinstance(job["proc"], _FailedProcess):
            tail = str(job["proc"].error)
        rows, complete = key_rows(self.db, run["run_key"])
        if complete:
            return True
        if rc == 0:
            why = "exited 0 but recorded no complete run in the database"
        elif timed_out:
            why = "timed out after %.0f s (killed)" % self.timeout
        else:
            why = describe_status(rc)
        if rows > job["before"] and not timed_out and rc >= 0:
            # The program recorded its own 'failed' row (e.g. an incomplete simulation).
            return False
        error = "%s: %s" % (why, shlex.join(job["cmd"]))
        if tail:
            error += "\n--- stderr (tail) ---\n" + tail
        record_failure(self.db, run, error, wall)
        return False


class _FailedProcess:
    """Stands for a program that could not be started at all."""

    def __init__(self, error):
        self.error = error
        self.returncode = 127

    def poll(self):
        return 127

    def wait(self, timeout=None):
        return 127

    def kill(self):
        pass

    def terminate(self):
        pass


# --------------------------------------------------------------------------------------------
# SLURM


SBATCH_TEMPLATE = """#!/bin/bash
# SLURM job array generated by scripts/sweep.py --emit-slurm from {spec}
# ({runs} runs in {tasks} array tasks). Submit:   sbatch {script}
# Each task runs its share of runs.jsonl (run index modulo {tasks}) into its own database
# db/task-<id>.db; a resubmitted task skips its complete runs. When all tasks are done, merge:
#   {merge}
# Environment overrides: SWEEP_DIR (this folder), PYTHON, SWEEP_PY, PROGRAM (replaces the
# program command recorded in runs.jsonl, e.g. when the build lives elsewhere on the cluster).
#SBATCH --job-name={name}
#SBATCH --array=0-{last}{throttle}
#SBATCH --cpus-per-task={cpus}
#SBATCH --time={time}
#SBATCH --output={dir}/logs/%A_%a.out
#SBATCH --error={dir}/logs/%A_%a.out
{extra}
set -euo pipefail
SWEEP_DIR=${{SWEEP_DIR:-{dir}}}
PYTHON=${{PYTHON:-/usr/bin/python3}}
SWEEP_PY=${{SWEEP_PY:-{sweep_py}}}
TASK=${{SLURM_ARRAY_TASK_ID:?run me with sbatch (or set SLURM_ARRAY_TASK_ID)}}
mkdir -p "$SWEEP_DIR/db" "$SWEEP_DIR/logs"
exec "$PYTHON" "$SWEEP_PY" --run-list "$SWEEP_DIR/runs.jsonl" \\
    --task-index "$TASK" --task-count {tasks} \\
    --db "$SWEEP_DIR/db/task-$TASK.db" --jobs "${{SLURM_CPUS_PER_TASK:-1}}" \\
    ${{PROGRAM:+--program "$PROGRAM"}} {timeout}--no-progress
"""


def emit_slurm(directory, spec_path, runs, args):
    directory = os.path.abspath(directory)
    os.makedirs(os.path.join(directory, "db"), exist_ok=True)
    os.makedirs(os.path.join(directory, "logs"), exist_ok=True)
    tasks = max(1, min(args.slurm_tasks or len(runs), len(runs)))
    with open(os.path.join(directory, "runs.jsonl"), "w") as f:
        for r in runs:
            f.write(json.dumps({"index": r["index"], "run_key": r["run_key"],
                                "program": r["program"], "params": r["params"]}) + "\n")
    merge = "/usr/bin/python3 %s OUT.db %s/db/task-*.db" % (
        os.path.join(REPO, "scripts", "merge-results.py"), directory)
    script = os.path.join(directory, "sweep.sbatch")
    extra = "\n".join("#SBATCH " + e for e in args.slurm_option)
    name = re.sub(r"[^\w.-]", "_", os.path.splitext(os.path.basename(spec_path))[0]) or "sweep"
    with open(script, "w") as f:
        f.write(SBATCH_TEMPLATE.format(
            spec=os.path.abspath(spec_path), runs=len(runs), tasks=tasks, script=script,
            merge=merge, name=name, last=tasks - 1,
            throttle="%%%d" % args.slurm_throttle if args.slurm_throttle else "",
            cpus=args.slurm_cpus, time=args.slurm_time, dir=directory, extra=extra,
            sweep_py=os.path.abspath(__file__),
            timeout="--timeout %g " % args.timeout if args.timeout else ""))
    os.chmod(script, 0o755)
    with open(os.path.join(directory, "merge.sh"), "w") as f:
        f.write("#!/bin/sh\n# Merge the per-task databases into one (run after every task "
                "finished).\nset -e\nexec %s \"${1:-%s}\" %s/db/task-*.db\n" %
                ("/usr/bin/python3 " + os.path.join(REPO, "scripts", "merge-results.py"),
                 os.path.join(directory, "results.db"), directory))
    os.chmod(os.path.join(directory, "merge.sh"), 0o755)
    sys.stderr.write("sweep: wrote %s (%d runs in %d array tasks), %s/runs.jsonl and %s/merge.sh"
                     "\n  submit: sbatch %s\n  then:   %s/merge.sh [OUT.db]\n" %
                     (script, len(runs), tasks, directory, directory, script, directory))


def load_run_list(path, index, count, program_override):
    runs = []
    try:
        with open(path) as f:
            for lineno, line in enumerate(f, 1):
                if not line.strip():
                    continue
                try:
                    r = json.loads(line)
                    r["index"], r["run_key"], r["program"], r["params"]  # noqa: B018
                except (ValueError, KeyError, TypeError) as e:
                    raise SpecError(path, lineno, "bad run list line: %s" % e)
                if r["index"] % count == index:
                    if program_override:
                        r["program"] = shlex.split(program_override)
                    runs.append(r)
    except OSError as e:
        raise SpecError(path, 0, "cannot read run list: %s" % e.strerror)
    return runs


# --------------------------------------------------------------------------------------------


def main(argv=None):
    ap = argparse.ArgumentParser(
        description="Run a parameter sweep of an experiment program into one SQLite results "
                    "database (see doc/sweeps.rst).")
    ap.add_argument("spec", nargs="?", help="sweep spec file")
    ap.add_argument("--db", default="results.db", help="results database (default results.db)")
    ap.add_argument("--jobs", "-j", type=int, default=os.cpu_count() or 1,
                    help="parallel runs (default: the core count, %(default)s)")
    ap.add_argument("--build-dir", default=os.path.join(REPO, "build"),
                    help="where built programs are looked up (default: <repo>/build)")
    ap.add_argument("--program", help="program command replacing the spec's 'program ='")
    ap.add_argument("--timeout", type=float, help="seconds before a run is killed and recorded "
                    "as failed (default: the spec's 'timeout =', else none)")
    ap.add_argument("--log-dir", help="keep every run's stdout/stderr as DIR/<run_key>.out/.err")
    ap.add_argument("--list", action="store_true", help="print the expanded runs and exit")
    ap.add_argument("--no-progress", dest="progress", action="store_false",
                    help="no progress lines (the final summary is still printed)")
    ap.add_argument("--emit-slurm", metavar="DIR",
                    help="write a SLURM job array for the spec into DIR instead of running")
    ap.add_argument("--slurm-tasks", type=int, default=0,
                    help="array tasks (default: one per run)")
    ap.add_argument("--slurm-cpus", type=int, default=1,
                    help="cpus per task = parallel runs per task (default 1)")
    ap.add_argument("--slurm-time", default="01:00:00", help="time limit per task")
    ap.add_argument("--slurm-throttle", type=int, default=0,
                    help="at most this many array tasks at once (sbatch --array=...%%N)")
    ap.add_argument("--slurm-option", action="append", default=[], metavar="OPT",
                    help="extra '#SBATCH OPT' line, e.g. --slurm-option=--partition=short")
    ap.add_argument("--run-list", help="run the runs of a runs.jsonl (SLURM tasks) instead of "
                    "a spec")
    ap.add_argument("--task-index", type=int, default=0)
    ap.add_argument("--task-count", type=int, default=1)
    args = ap.parse_args(argv)

    if args.jobs < 1:
        ap.error("--jobs must be at least 1")
    try:
        if args.run_list:
            if args.spec:
                ap.error("give a spec or --run-list, not both")
            if not 0 <= args.task_index < args.task_count:
                ap.error("--task-index must be in [0, --task-count)")
            runs = load_run_list(args.run_list, args.task_index, args.task_count, args.program)
            timeout = args.timeout
            spec_path = args.run_list
        else:
            if not args.spec:
                ap.error("a spec file is needed (or --run-list)")
            build_dir = os.path.abspath(args.build_dir)
            spec = parse_spec(args.spec)
            words, lineno = resolve_program(spec, build_dir, args.program)
            if spec.declared is not None:
                options = dict(spec.declared)
            else:
                options = program_options(words, spec.path if not args.program else "--program",
                                          lineno)
            axes = expand(spec, options)
            runs = make_runs(words, axes)
            timeout = args.timeout or spec.timeout
            spec_path = args.spec
    except SpecError as e:
        sys.stderr.write("%s\n" % e)
        return 2

    if args.list:
        for r in runs:
            print("%s  %s" % (r["run_key"], shlex.join(command_of(r, os.path.abspath(args.db)))))
        return 0
    if args.emit_slurm:
        args.timeout = timeout
        emit_slurm(args.emit_slurm, spec_path, runs, args)
        return 0
    sweep = Sweep(args.db, args.jobs, timeout, args.log_dir, args.progress)
    try:
        return sweep.run(runs)
    except sqlite3.Error as e:
        sys.stderr.write("sweep: results database %s: %s\n" % (args.db, e))
        return 2


if __name__ == "__main__":
    sys.exit(main())
