#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0-only
"""Parameter sweeps of an experiment program into one SQLite results database.

    scripts/sweep.py SPEC [--db results.db] [--jobs N] [--build-dir build]
    scripts/sweep.py SPEC --list                      # print the expanded runs, run nothing
    scripts/sweep.py SPEC --check                     # one trial run: is the contract kept?
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
`declare =` line); every error names the spec file and line (an empty spec, a control
character, a non-finite number are errors too). The runs are the cartesian product of the value
lists; each executes `program --p1=v1 ... --db=DB --runKey=KEY [--quiet=1]`, KEY being a stable
hash of the program name and the parameters, in its own process group (killed whole when the
run is stopped or ends). Runs whose key is already 'complete' in the database are skipped, so
an interrupted sweep is resumed by running it again; a key is recorded complete once. A run
that exits non-zero or crashes without recording itself gets a 'failed' row in table `runs`,
with the tail of its stderr in `error`, and the sweep goes on. The contract a program keeps
(doc/sweeps.rst, "Your own program") is checked by --list and --check.

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

import results_db
from results_db import BUSY_TIMEOUT_S, DatabaseError

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
MAX_SPEC_BYTES = 1 << 20

STDERR_TAIL_CHARS = 2000

NUMBER_RE = r"[-+]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][-+]?\d+)?"
# Range ends: no trailing dot ("1." would make "1...4" a range).
END_RE = r"[-+]?(?:\d+(?:\.\d+)?|\.\d+)(?:[eE][-+]?\d+)?"
RANGE_RE = re.compile(r"^(%s)\s*\.\.\s*(%s)(?:\s+([*+])\s*(\S+))?$" % (END_RE, END_RE))
KEY_RE = re.compile(r"^[A-Za-z_][A-Za-z0-9_.:-]*$")
# The 'Accepted' column of a program's --PrintOptionsRst (OptionValidator::Range): a number's
# range, e.g. 'integer: 1 .. 1000000', 'real: 0 .. <1', 'seconds: 1e-09 .. 1 s',
# 'rate: 0 (keep the topology's) or 1 .. <1.8e19 bit/s'.
ACCEPTED_RANGE_RE = re.compile(r"^(?:integer|real|seconds|rate): (?:(0) \([^)]*\) or )?"
                               r"(%s) \.\. (<?)(%s)(?: .*)?$" % (NUMBER_RE, NUMBER_RE))
# ns-3's own seed globals (RngSeedManager; --PrintGlobals gives no type): whole numbers, as the
# programs check them (helper/experiment-options.cc).
NS3_GLOBAL_RANGES = {"RngRun": "integer: 0 .. 18446744073709551615",
                     "RngSeed": "integer: 1 .. 18446744073709551615"}


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

    def __init__(self, kind, choices=None, default=None, accepted=None):
        self.kind = kind  # "number" | "int" | "bool" | "string" | "choice"
        self.choices = choices or []
        self.default = default
        # The program's accepted range of a number (--PrintOptionsRst): (zero also accepted,
        # lowest, highest, highest excluded) and its text; None: any value of the type.
        self.range = None
        self.accepted = (accepted or "").partition(": ")[2]
        if accepted:
            m = ACCEPTED_RANGE_RE.match(accepted)
            if m:
                self.range = (m.group(1) is not None, float(m.group(2)), float(m.group(4)),
                              m.group(3) == "<")

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
            if not math.isfinite(x):
                raise ValueError("%s: '%s' is out of range (not a finite number)" % (name, text))
            if self.kind == "int" and x != math.floor(x):
                raise ValueError("%s expects %s, got '%s'" % (name, self.describe(), text))
            if self.range:
                zero, lo, hi, hi_excluded = self.range
                if not (zero and x == 0) and (x < lo or x > hi or (hi_excluded and x >= hi)):
                    raise ValueError("%s = %s is out of range (accepted: %s)" %
                                     (name, text, self.accepted))
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


def read_spec_text(path):
    """The text of a spec file: UTF-8 (a byte-order mark is dropped), no NUL or other control
    character (a tab excepted); errors name the line."""
    try:
        if os.path.isdir(path):
            raise SpecError(path, 0, "is a directory, not a spec file")
        with open(path, "rb") as f:
            data = f.read(MAX_SPEC_BYTES + 1)
    except OSError as e:
        raise SpecError(path, 0, "cannot read spec: %s" % e.strerror)
    if len(data) > MAX_SPEC_BYTES:
        raise SpecError(path, 0, "larger than %d bytes: not a sweep spec" % MAX_SPEC_BYTES)
    if data.startswith((b"\xff\xfe", b"\xfe\xff")):
        raise SpecError(path, 1, "the file is UTF-16 text (byte-order mark); save it as UTF-8")
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as e:
        raise SpecError(path, data.count(b"\n", 0, e.start) + 1,
                        "not UTF-8 text: ill-formed byte 0x%02X" % data[e.start])


def check_characters(path, lineno, raw):
    """A control character (NUL included) anywhere in a line is an error naming its field."""
    for i, c in enumerate(raw):
        if (ord(c) < 0x20 and c != "\t") or ord(c) == 0x7F:
            key = raw.partition("=")[0].strip() if "=" in raw[:i] else ""
            where = ("in the value of '%s'" % key.lstrip("-")) if key else "in the line"
            raise SpecError(path, lineno, "control character U+%04X %s (column %d)" %
                            (ord(c), where, i + 1))


def parse_spec(path, text=None):
    if text is None:
        text = read_spec_text(path)
    spec = Spec(path)
    seen = {}
    # Only \n ends a line (splitlines() would also split on \v, \f, \x1c...: those are
    # control characters, refused below with their line).
    lines = text.split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    for lineno, raw in enumerate(lines, 1):
        if raw.endswith("\r"):
            raw = raw[:-1]
        check_characters(path, lineno, raw)
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
    if not spec.params:
        raise SpecError(path, 0, "the spec gives no parameter, so it would silently run the "
                        "program's defaults; name at least one (e.g. 'RngRun = 1' to run the "
                        "defaults once)")
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
    if not (math.isfinite(lo) and math.isfinite(hi)) or \
            (step_text is not None and is_number(step_text) and
             not math.isfinite(float(step_text))):
        raise SpecError(path, lineno, "%s: range '%s' has a number out of range (not finite)" %
                        (name, text))
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
    # A program of ours (ExperimentOptions: its help gives ranges, '(1 .. 8)') lists what each
    # option accepts with --PrintOptionsRst: checked here, so that a value the program would
    # refuse stops the sweep at its spec line before anything runs.
    if any(re.search(r"\(.* \.\. .*\)", line) for line in out.splitlines()):
        rc, rst = run("--PrintOptionsRst")
        if rc == 0:
            for name, accepted in options_accepted(rst).items():
                if name in options:
                    options[name] = typed_option(accepted, options[name])
    rc, out = run("--PrintGlobals")
    if rc == 0:
        for line in out.splitlines():
            m = re.match(r"^\s+--([A-Za-z]\w*)=\[(.*)\]\s*$", line)
            if m:
                ptype = infer_type(m.group(2), "")
                if m.group(1) in NS3_GLOBAL_RANGES:
                    ptype = typed_option(NS3_GLOBAL_RANGES[m.group(1)], ptype)
                options.setdefault(m.group(1), ptype)
    return options


def options_accepted(rst):
    """{option: its 'Accepted' text} of a --PrintOptionsRst table."""
    accepted, name, fields = {}, None, []
    for line in rst.splitlines():
        m = re.match(r"^\s+\* - ``--([^`]+)``\s*$", line)
        if m:
            name, fields = m.group(1), []
            continue
        m = re.match(r"^\s+- (.*)$", line)
        if name and m:
            fields.append(m.group(1).strip())
            if len(fields) == 2:  # Default, Accepted
                accepted[name] = fields[1]
    return accepted


def typed_option(accepted, ptype):
    """The ParamType an 'Accepted' text describes (a number's kind and range, a choice);
    \\p ptype (from --PrintHelp) otherwise."""
    kind, _, rest = accepted.partition(": ")
    if kind == "integer":
        return ParamType("int", default=ptype.default, accepted=accepted)
    if kind in ("real", "seconds", "rate"):
        return ParamType("number", default=ptype.default, accepted=accepted)
    if kind == "choice" and " | " in rest:
        return ParamType("choice", [c.strip() for c in rest.split(" | ")], ptype.default)
    return ptype


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
        seen, dup = set(), set()  # linear: a range may have MAX_RANGE_VALUES values
        for v in values:
            (dup if v in seen else seen).add(v)
        if dup:
            raise SpecError(spec.path, lineno, "%s: value %s listed twice" % (name, min(dup)))
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


def make_runs(program_words, axes, quiet=True):
    runs = []
    names = [n for n, _ in axes]
    for index, combo in enumerate(itertools.product(*[v for _, v in axes])):
        params = dict(zip(names, combo))
        runs.append({"index": index, "run_key": run_key(program_words, params),
                     "program": program_words, "params": params, "quiet": quiet})
    return runs


def command_of(run, db):
    args = ["--%s=%s" % (k, v) for k, v in run["params"].items()]
    return list(run["program"]) + args + ["--db=%s" % db, "--runKey=%s" % run["run_key"]] + \
        (["--quiet=1"] if run.get("quiet", True) else [])


def check_static_contract(options, declared, where, lineno, program):
    """The options a swept program must take (doc/sweeps.rst, 'Your own program'): --db and
    --runKey. Checked on the program's --PrintHelp; a program described by 'declare =' is
    checked by --check only (returns a note)."""
    if declared:
        return ("sweep: note: %s is described by 'declare =': whether it takes --db and "
                "--runKey and records its runs is checked by --check (one trial run)" %
                os.path.basename(program))
    missing = [o for o in ("db", "runKey") if o not in options]
    if missing:
        raise SpecError(where, lineno, "program %s does not take %s (not in its --PrintHelp): a "
                        "swept program must take --db=FILE and --runKey=KEY and record each run "
                        "in table runs of FILE (see doc/sweeps.rst, 'Your own program')" %
                        (os.path.basename(program), " and ".join("--" + m for m in missing)))
    return None


TIME_UNITS = {"y": 365 * 86400.0, "d": 86400.0, "h": 3600.0, "min": 60.0, "s": 1.0,
              "ms": 1e-3, "us": 1e-6, "ns": 1e-9, "ps": 1e-12, "fs": 1e-15}
RATE_PREFIX = {"": 1.0, "k": 1e3, "K": 1e3, "M": 1e6, "G": 1e9, "T": 1e12,
               "Ki": 1024.0, "Mi": 1024.0 ** 2, "Gi": 1024.0 ** 3, "Ti": 1024.0 ** 4}


def ns3_quantity(text):
    """An ns-3 Time ('10ms', '+1e+07ns') or DataRate ('5Gbps', '1Mb/s', '2MB/s') string as
    (kind, value in seconds or bit/s); None if it is neither. The sweep passes what the spec
    says; the program records ns-3's own spelling (a Time in ns)."""
    m = re.fullmatch(r"\s*([-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?)\s*([A-Za-z/]+)\s*",
                     str(text))
    if not m:
        return None
    number, unit = float(m.group(1)), m.group(2)
    if unit in TIME_UNITS:
        return ("time", number * TIME_UNITS[unit])
    r = re.fullmatch(r"(|k|K|M|G|T|Ki|Mi|Gi|Ti)(bps|b/s|Bps|B/s)", unit)
    if r:
        return ("rate", number * RATE_PREFIX[r.group(1)] * (8 if r.group(2)[0] == "B" else 1))
    return None


def recorded_value_matches(name, value, recorded, row):
    """Does the value a program recorded for parameter \\p name match what the sweep passed?"""
    columns = {"RngRun": "run_number", "RngSeed": "seed", "mode": "mode", "schedule": "schedule",
               "topology": "topology"}
    if name in columns and row.get(columns[name]) is not None and \
            str(row[columns[name]]) in (value, format_number(float(value))
                                        if is_number(value) else value):
        return True
    if recorded is None:
        return False
    if isinstance(recorded, bool) or value in ("true", "false"):
        return str(recorded).lower() in (value, "1" if value == "true" else "0")
    if isinstance(recorded, (int, float)) and is_number(value):
        a, b = float(recorded), float(value)
        return a == b or abs(a - b) <= 1e-9 * max(abs(a), abs(b))
    text = str(recorded)
    a, b = ns3_quantity(text), ns3_quantity(value)
    if a and b and a[0] == b[0]:  # '10ms' passed, '+1e+07ns' recorded
        return a[1] == b[1] or abs(a[1] - b[1]) <= 1e-9 * max(abs(a[1]), abs(b[1]))
    base = os.path.basename(text)
    return text == value or base in (value, value + ".json", value + ".topology")


def check_contract(run, timeout):
    """--check: one trial run of \\p run into a scratch database; True if the program kept the
    contract (exit 0, one complete runs row with its run key, every parameter recorded)."""
    scratch = tempfile.mkdtemp(prefix="sweep-check-")
    db = os.path.join(scratch, "check.db")
    problems = []
    try:
        ensure_db(db)
        cmd = command_of(run, db)
        sys.stderr.write("sweep: --check: running %s\n" % shlex.join(cmd))
        try:
            p = subprocess.run(cmd, stdin=subprocess.DEVNULL, capture_output=True, text=True,
                               timeout=timeout or 600, start_new_session=True)
            rc, err = p.returncode, p.stderr
        except (OSError, ValueError) as e:
            rc, err = 127, str(e)
        except subprocess.TimeoutExpired:
            rc, err = None, "timed out"
        if rc != 0:
            problems.append("the trial run ended with %s: %s" % (
                "a timeout" if rc is None else describe_status(rc), err.strip()[-800:]))
        con = connect(db)
        con.row_factory = sqlite3.Row
        rows = [dict(r) for r in con.execute("SELECT * FROM runs WHERE run_key = ?",
                                             (run["run_key"],))]
        con.close()
        if not rows:
            problems.append("it recorded no row with run_key = '%s' in table runs of the --db "
                            "database" % run["run_key"])
        else:
            row = rows[-1]
            if row["status"] != "complete" and rc == 0:
                problems.append("its row has status '%s', not 'complete'" % row["status"])
            try:
                recorded = json.loads(row["parameters"] or "{}")
            except ValueError:
                recorded = None
                problems.append("its runs.parameters is not JSON: %r" %
                                (row["parameters"] or "")[:200])
            if not isinstance(recorded, dict):
                recorded = {}
            for name, value in run["params"].items():
                if not recorded_value_matches(name, value, recorded.get(name), row):
                    problems.append("it does not record parameter '%s' = %s in runs.parameters "
                                    "(recorded: %s): runs that differ in it could not be told "
                                    "apart" % (name, value, json.dumps(recorded.get(name))))
    except DatabaseError as e:
        problems.append(str(e))
    finally:
        shutil.rmtree(scratch, ignore_errors=True)
    for p in problems:
        sys.stderr.write("sweep: --check: %s: %s\n" % (os.path.basename(run["program"][0]), p))
    if not problems:
        sys.stderr.write("sweep: --check: %s keeps the contract: it recorded run %s as complete "
                         "with all %d parameters\n" % (os.path.basename(run["program"][0]),
                                                        run["run_key"], len(run["params"])))
    return not problems


# --------------------------------------------------------------------------------------------
# Database


def connect(db):
    return results_db.connect(db)


def ensure_db(db):
    """Create (or check) the results database before anything runs: tables meta, runs and
    sweep_runs, WAL mode; raises DatabaseError with the cause. Its directory must exist: like
    the programs, the sweep creates none (a mistyped --db would land in a new tree)."""
    d = os.path.dirname(os.path.abspath(db))
    if not os.path.isdir(d):
        raise DatabaseError("--db %s: %s (the sweep, like the programs, creates no directory)" %
                            (db, "%s is not a directory" % d if os.path.exists(d) else
                             "no directory %s" % d))
    results_db.open_results(db, results_db.SWEEP_SCHEMA).close()


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
    now = time.time()  # UTC to the microsecond, as the programs write it
    stamp = time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime(now)) + ".%06dZ" % (
        int(now * 1e6) % 1000000)
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


def record_sweep_run(db, run, cmd, spec):
    """Record what the sweep passes to a run (table sweep_runs; the first start of a key),
    whatever the program itself records."""
    con = connect(db)
    try:
        con.execute("INSERT OR IGNORE INTO sweep_runs(run_key, program, parameters, command, "
                    "spec, started_at) VALUES(?, ?, ?, ?, ?, ?)",
                    (run["run_key"], os.path.basename(run["program"][0]),
                     json.dumps(run["params"], sort_keys=True), shlex.join(cmd), spec,
                     time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())))
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
    """In the child: get SIGKILL if the sweep dies (the direct child only; what it starts is
    found again by the next sweep, see kill_orphans)."""
    try:
        libc = ctypes.CDLL(None, use_errno=True)
        libc.prctl(1, signal.SIGKILL)  # PR_SET_PDEATHSIG
    except (OSError, AttributeError):
        pass


def process_start_time(pid):
    """Start time of process \\p pid (clock ticks since boot), or None if it does not exist."""
    try:
        with open("/proc/%d/stat" % pid) as f:
            return f.read().rsplit(")", 1)[1].split()[19]
    except (OSError, IndexError):
        return None


def kill_group(pgid, sig):
    try:
        os.killpg(pgid, sig)
    except (ProcessLookupError, PermissionError):
        pass


def orphans(db):
    """Pids of the processes that runs of an earlier sweep of database \\p db left behind when
    that sweep died (kill -9, a crash): found by the SWEEP_DB, SWEEP_PID and SWEEP_PID_START
    variables every run inherits, when that sweep is gone."""
    found = []
    me = os.getpid()
    for entry in os.listdir("/proc") if os.path.isdir("/proc") else []:
        if not entry.isdigit() or int(entry) == me:
            continue
        try:
            with open("/proc/%s/environ" % entry, "rb") as f:
                env = dict(v.split(b"=", 1) for v in f.read().split(b"\0") if b"=" in v)
        except (OSError, ValueError):
            continue
        if env.get(b"SWEEP_DB") != os.fsencode(db):
            continue
        try:
            owner = int(env.get(b"SWEEP_PID", b"0"))
        except ValueError:
            continue
        if owner == me or (process_start_time(owner) is not None and
                           process_start_time(owner) == env.get(b"SWEEP_PID_START",
                                                                b"").decode()):
            continue  # its sweep is alive (this one, or another sweep of the same database)
        found.append(int(entry))
    return found


def kill_orphans(db):
    """Kill the orphans(db) of an earlier sweep, each with its process group. Returns their
    pids."""
    killed = []
    for pid in orphans(db):
        try:
            pgid = os.getpgid(pid)
        except ProcessLookupError:
            continue
        if pgid != os.getpgid(0):
            kill_group(pgid, signal.SIGKILL)
        try:
            os.kill(pid, signal.SIGKILL)
        except (ProcessLookupError, PermissionError):
            pass
        killed.append(pid)
    return killed


class Sweep:
    """Runs the runs, each in its own process group (session): a run that is stopped (timeout,
    interruption) or that ends is taken down with everything it started, so no simulator of a
    wrapper program outlives its run and records it later."""

    GRACE_S = 5.0  # between SIGTERM and SIGKILL of a run's process group

    def __init__(self, db, jobs, timeout, log_dir, progress=True, spec=None):
        self.db = os.path.abspath(db)
        self.jobs = max(1, jobs)
        self.timeout = timeout
        self.log_dir = log_dir
        self.interrupted = None
        self.tty = sys.stderr.isatty()
        self.progress = progress
        self.spec = os.path.abspath(spec) if spec else None

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

    @staticmethod
    def _exited(job):
        """Exit status of the run's main process if it has ended, else None. Its process group
        is killed before the process is reaped (while its pid still names the group), so that
        nothing it started in the background survives it."""
        proc = job["proc"]
        if isinstance(proc, _FailedProcess):
            return proc.returncode
        try:
            info = os.waitid(os.P_PID, proc.pid, os.WEXITED | os.WNOHANG | os.WNOWAIT)
        except ChildProcessError:
            info = True  # reaped already
        if info is None:
            return None
        kill_group(proc.pid, signal.SIGKILL)
        return proc.wait()

    def _stop(self, jobs):
        """Stop runs: SIGTERM to each process group, SIGKILL after GRACE_S; returns their exit
        statuses."""
        for job in jobs:
            if not isinstance(job["proc"], _FailedProcess):
                kill_group(job["proc"].pid, signal.SIGTERM)
        deadline = time.monotonic() + self.GRACE_S
        status = {}
        while len(status) < len(jobs):
            for job in jobs:
                if id(job) not in status:
                    rc = self._exited(job)
                    if rc is not None:
                        status[id(job)] = rc
            if len(status) < len(jobs):
                if time.monotonic() > deadline:
                    for job in jobs:
                        if id(job) not in status:
                            kill_group(job["proc"].pid, signal.SIGKILL)
                time.sleep(0.02)
        return [status[id(job)] for job in jobs]

    def run(self, runs):
        ensure_db(self.db)
        orphans = kill_orphans(self.db)
        if orphans:
            sys.stderr.write("sweep: killed %d processes left running by an earlier, dead sweep "
                             "of %s (pids %s)\n" % (len(orphans), self.db,
                                                    " ".join(map(str, orphans[:20]))))
        done_keys = complete_keys(self.db)
        todo = [r for r in runs if r["run_key"] not in done_keys]
        total, skipped = len(runs), len(runs) - len(todo)
        for sig in (signal.SIGINT, signal.SIGTERM, signal.SIGHUP):
            signal.signal(sig, self._on_signal)
        if self.log_dir:
            os.makedirs(self.log_dir, exist_ok=True)
        self.env = dict(os.environ, SWEEP_DB=self.db, SWEEP_PID=str(os.getpid()),
                        SWEEP_PID_START=process_start_time(os.getpid()) or "")
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
                if self.interrupted is not None:
                    break
                rc = self._exited(job)
                timed_out = False
                if rc is None and self.timeout and time.monotonic() - job["started"] > \
                        self.timeout:
                    rc = self._stop([job])[0]
                    timed_out = True
                if rc is None:
                    continue
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
            self._stop(running)
            for job in running:
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
        record_sweep_run(self.db, run, cmd, self.spec)
        env = dict(self.env, SWEEP_RUN_KEY=run["run_key"])
        try:
            proc = subprocess.Popen(cmd, stdin=subprocess.DEVNULL, stdout=out, stderr=err,
                                    env=env, start_new_session=True,
                                    preexec_fn=_die_with_parent)
        except (OSError, ValueError) as e:
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
            why = "timed out after %.0f s (killed with its process group)" % self.timeout
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
        self.pid = -1

    def poll(self):
        return 127

    def wait(self, timeout=None):
        return 127


# --------------------------------------------------------------------------------------------
# SLURM


SBATCH_TEMPLATE = """#!/bin/bash
# SLURM job array generated by scripts/sweep.py --emit-slurm from {spec}
# ({runs} runs in {tasks} array tasks). Submit:   sbatch {script}
# Each task runs its share of runs.jsonl (run index modulo {tasks}) into its own database on
# node-local storage (WORK_DIR), then merges it into {dir}/db/task-<id>.db on shared storage
# (also when the task is stopped: time limit, preemption). A resubmitted task starts from that
# database and skips its complete runs. When all tasks are done, merge:
#   {merge}
# Environment overrides: SWEEP_DIR (this folder), WORK_DIR (node-local scratch; default
# {work_default}), PYTHON, SWEEP_PY, MERGE_PY, PROGRAM (replaces the program command recorded
# in runs.jsonl, e.g. when the build lives elsewhere on the cluster).
#SBATCH --job-name={name}
#SBATCH --array=0-{last}{throttle}
#SBATCH --cpus-per-task={cpus}
#SBATCH --time={time}
#SBATCH --output={log_dir}/%A_%a.out
#SBATCH --error={log_dir}/%A_%a.out
{extra}
set -uo pipefail
SWEEP_DIR=${{SWEEP_DIR:-{dir}}}
PYTHON=${{PYTHON:-/usr/bin/python3}}
SWEEP_PY=${{SWEEP_PY:-{sweep_py}}}
MERGE_PY=${{MERGE_PY:-{merge_py}}}
TASK=${{SLURM_ARRAY_TASK_ID:?run me with sbatch (or set SLURM_ARRAY_TASK_ID)}}
WORK_DIR=${{WORK_DIR:-{work_default}}}
WORK="$WORK_DIR/{name}-${{SLURM_ARRAY_JOB_ID:-$$}}-$TASK"
SHARED_DB="$SWEEP_DIR/db/task-$TASK.db"
LOCAL_DB="$WORK/task-$TASK.db"
mkdir -p "$SWEEP_DIR/db" "{log_dir}" "$WORK" || exit 2
# Resume: start from what this task recorded before (on another node, perhaps).
if [ -f "$SHARED_DB" ]; then
    "$PYTHON" "$MERGE_PY" "$LOCAL_DB" "$SHARED_DB" || exit 2
fi
save() {{
    # Back to shared storage: merging is idempotent, so a repeated save adds nothing.
    [ -f "$LOCAL_DB" ] || return 0
    "$PYTHON" "$MERGE_PY" "$SHARED_DB" "$LOCAL_DB" && rm -rf "$WORK"
}}
"$PYTHON" "$SWEEP_PY" --run-list "$SWEEP_DIR/runs.jsonl" \\
    --task-index "$TASK" --task-count {tasks} \\
    --db "$LOCAL_DB" --jobs "${{SLURM_CPUS_PER_TASK:-1}}" \\
    ${{PROGRAM:+--program "$PROGRAM"}} {timeout}--no-progress &
child=$!
trap 'kill -TERM $child 2>/dev/null' TERM INT HUP
wait $child
status=$?
if kill -0 $child 2>/dev/null; then
    wait $child  # a signal interrupted the first wait: let the sweep stop its runs
    status=$?
fi
trap - TERM INT HUP
save || {{ echo "sweep task $TASK: could not merge $LOCAL_DB into $SHARED_DB" >&2; exit 2; }}
exit $status
"""


def emit_slurm(directory, spec_path, runs, args):
    directory = os.path.abspath(directory)
    log_dir = os.path.abspath(args.slurm_log_dir or os.path.join(directory, "logs"))
    for d in (directory, os.path.join(directory, "db"), log_dir):
        os.makedirs(d, exist_ok=True)  # sbatch does not create the log directory
    tasks = max(1, min(args.slurm_tasks or len(runs), len(runs)))
    with open(os.path.join(directory, "runs.jsonl"), "w") as f:
        for r in runs:
            f.write(json.dumps({"index": r["index"], "run_key": r["run_key"],
                                "program": r["program"], "params": r["params"],
                                "quiet": r.get("quiet", True)}) + "\n")
    merge_py = os.path.join(REPO, "scripts", "merge-results.py")
    merge = "/usr/bin/python3 %s OUT.db %s/db/task-*.db" % (merge_py, directory)
    script = os.path.join(directory, "sweep.sbatch")
    extra = "\n".join("#SBATCH " + e for e in args.slurm_option)
    name = re.sub(r"[^\w.-]", "_", os.path.splitext(os.path.basename(spec_path))[0]) or "sweep"
    work_default = args.slurm_work_dir or "${SLURM_TMPDIR:-${TMPDIR:-/tmp}}"
    with open(script, "w") as f:
        f.write(SBATCH_TEMPLATE.format(
            spec=os.path.abspath(spec_path), runs=len(runs), tasks=tasks, script=script,
            merge=merge, name=name, last=tasks - 1,
            throttle="%%%d" % args.slurm_throttle if args.slurm_throttle else "",
            cpus=args.slurm_cpus, time=args.slurm_time, dir=directory, extra=extra,
            log_dir=log_dir, work_default=work_default,
            sweep_py=os.path.abspath(__file__), merge_py=merge_py,
            timeout="--timeout %g " % args.timeout if args.timeout else ""))
    os.chmod(script, 0o755)
    with open(os.path.join(directory, "merge.sh"), "w") as f:
        f.write("#!/bin/sh\n# Merge the per-task databases into one (run after every task "
                "finished).\nset -e\nexec %s \"${1:-%s}\" %s/db/task-*.db\n" %
                ("/usr/bin/python3 " + merge_py, os.path.join(directory, "results.db"),
                 directory))
    os.chmod(os.path.join(directory, "merge.sh"), 0o755)
    sys.stderr.write("sweep: wrote %s (%d runs in %d array tasks), %s/runs.jsonl and %s/merge.sh"
                     "\n  logs: %s\n  per-task databases: %s/<task> on the node, then %s/db\n"
                     "  submit: sbatch %s\n  then:   %s/merge.sh [OUT.db]\n" %
                     (script, len(runs), tasks, directory, directory, log_dir, work_default,
                      directory, script, directory))


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
                    if not isinstance(r["index"], int) or not isinstance(r["params"], dict) or \
                            not isinstance(r["program"], list) or not r["program"]:
                        raise TypeError("index, program or params of the wrong type")
                    for v in [r["run_key"]] + r["program"] + list(r["params"].values()):
                        if not isinstance(v, str) or "\0" in v:
                            raise TypeError("%r is not text without NUL" % (v,))
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
    ap.add_argument("--list", action="store_true", help="print the expanded runs and exit "
                    "(after checking the spec and that the program takes --db and --runKey)")
    ap.add_argument("--check", action="store_true", help="check the program's contract with "
                    "one trial run (the first run) into a scratch database, and exit")
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
    ap.add_argument("--slurm-log-dir", metavar="DIR",
                    help="where the tasks' logs go (default DIR/logs; created now)")
    ap.add_argument("--slurm-work-dir", metavar="DIR",
                    help="node-local scratch for the per-task databases (default: "
                    "$SLURM_TMPDIR, else $TMPDIR, else /tmp, on the node at run time)")
    ap.add_argument("--slurm-option", action="append", default=[], metavar="OPT",
                    help="extra '#SBATCH OPT' line, e.g. --slurm-option=--partition=short")
    ap.add_argument("--run-list", help="run the runs of a runs.jsonl (SLURM tasks) instead of "
                    "a spec")
    ap.add_argument("--task-index", type=int, default=0)
    ap.add_argument("--task-count", type=int, default=1)
    args = ap.parse_args(argv)

    if args.jobs < 1:
        ap.error("--jobs must be at least 1")
    if args.timeout is not None and not (math.isfinite(args.timeout) and args.timeout > 0):
        ap.error("--timeout must be a positive number of seconds, got %s" % args.timeout)
    if args.slurm_cpus < 1:
        ap.error("--slurm-cpus must be at least 1")
    if args.slurm_tasks < 0 or args.slurm_throttle < 0:
        ap.error("--slurm-tasks and --slurm-throttle must not be negative")
    if args.task_count < 1:
        ap.error("--task-count must be at least 1")
    note = None
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
            note = check_static_contract(options, spec.declared is not None,
                                         spec.path if not args.program else "--program",
                                         lineno, words[0])
            axes = expand(spec, options)
            runs = make_runs(words, axes, quiet="quiet" in options)
            timeout = args.timeout or spec.timeout
            spec_path = args.spec
    except SpecError as e:
        sys.stderr.write("%s\n" % e)
        return 2

    if args.list:
        if note:
            sys.stderr.write(note + "\n")
        for r in runs:
            print("%s  %s" % (r["run_key"], shlex.join(command_of(r, os.path.abspath(args.db)))))
        return 0
    if args.check:
        return 0 if runs and check_contract(runs[0], timeout) else 2
    if args.emit_slurm:
        args.timeout = timeout
        try:
            emit_slurm(args.emit_slurm, spec_path, runs, args)
        except OSError as e:
            sys.stderr.write("sweep: --emit-slurm: %s: %s\n" % (e.filename or "", e.strerror))
            return 2
        return 0
    sweep = Sweep(args.db, args.jobs, timeout, args.log_dir, args.progress,
                  spec_path if not args.run_list else None)
    try:
        return sweep.run(runs)
    except DatabaseError as e:
        sys.stderr.write("sweep: %s\n" % e)
        return 2
    except sqlite3.Error as e:
        sys.stderr.write("sweep: %s\n" % results_db.describe(args.db, e))
        return 2
    except OSError as e:  # e.g. a --log-dir that cannot be created
        sys.stderr.write("sweep: %s: %s\n" % (e.filename or "", e.strerror or e))
        return 2


if __name__ == "__main__":
    sys.exit(main())
