#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0-only
"""Script-level tests of scripts/sweep.py, merge-results.py and plot-results.py (CTest).

    /usr/bin/python3 test/test_sweep.py --source-dir . --build-dir build \\
        --work-dir build/test-sweep [unittest args, e.g. -v TestRestart]

--build-dir holds the built nine-city-training. Each test class works in its own folder under
--work-dir (emptied first). Standard library only.
"""

import argparse
import json
import os
import shutil
import signal
import sqlite3
import subprocess
import sys
import tempfile
import time
import unittest

PY = "/usr/bin/python3" if os.path.exists("/usr/bin/python3") else sys.executable
SRC = BUILD = WORK = None

# Tiny runs: a 200 KB model, one round of the nine-city WAN (about a second each).
TINY = """\
modelBytes = 200e3
rounds = 1
"""


def sweep_py():
    return os.path.join(SRC, "scripts", "sweep.py")


def workdir(name):
    d = os.path.join(WORK, name)
    shutil.rmtree(d, ignore_errors=True)
    os.makedirs(d)
    return d


def write(path, text):
    with open(path, "w") as f:
        f.write(text)
    return path


def sweep(*args, **kw):
    return subprocess.run([PY, sweep_py(), "--build-dir", BUILD] + list(args),
                          capture_output=True, text=True, timeout=kw.pop("timeout", 600), **kw)


def query(db, sql, params=()):
    con = sqlite3.connect(db, timeout=60)
    try:
        return con.execute(sql, params).fetchall()
    finally:
        con.close()


def count(db, status="complete"):
    if not os.path.exists(db):
        return 0
    try:
        return query(db, "SELECT COUNT(*) FROM runs WHERE status = ?", (status,))[0][0]
    except sqlite3.OperationalError:
        return 0  # not created yet


class TestBadSpec(unittest.TestCase):
    """Bad spec input: non-zero exit and an error naming the file and line."""

    @classmethod
    def setUpClass(cls):
        cls.dir = workdir("bad-spec")

    def check(self, body, line, *needles):
        spec = write(os.path.join(self.dir, "bad.sweep"), "# a bad spec\n" + body)
        db = os.path.join(self.dir, "bad.db")
        if os.path.exists(db):
            os.remove(db)
        p = sweep(spec, "--db", db, timeout=60)
        self.assertEqual(p.returncode, 2, p.stderr)
        self.assertIn("%s:%d: error:" % (spec, line), p.stderr)
        for n in needles:
            self.assertIn(n, p.stderr)
        self.assertFalse(os.path.exists(db), "a bad spec must not touch the database")

    def test_unknown_parameter(self):
        self.check("rounds = 1\nmodelBytez = 1e6, 2e6\n", 3, "unknown parameter 'modelBytez'",
                   "modelBytes")

    def test_empty_range(self):
        self.check("linkRate = 8e9..1e9 *2\n", 2, "empty range '8e9..1e9 *2'")

    def test_bad_type(self):
        self.check("rounds = 1, many\n", 2, "rounds expects an integer", "'many'")

    def test_bad_choice(self):
        self.check("rounds = 1\n\nmode = unicast, broadcast\n", 4,
                   "mode expects one of unicast, multicast, aggregation")

    def test_bad_bool(self):
        self.check("barrier = true, maybe\n", 2, "barrier expects true or false")

    def test_range_on_text(self):
        self.check("schedule = 1..3\n", 2, "a range needs a numeric parameter")

    def test_bad_step(self):
        self.check("linkRate = 1e9..8e9 *1\n", 2, "factor must be greater than 1")
        self.check("RngRun = 1..4 +0\n", 2, "step must be positive")
        self.check("RngRun = 1..4 *two\n", 2, "bad range step 'two'")
        self.check("RngRun = 1...4\n", 2, "bad range")

    def test_syntax(self):
        self.check("rounds 1\n", 2, "expected 'name = value")
        self.check("rounds =\n", 2, "'rounds' has no value")
        self.check("rounds = 1,,2\n", 2, "empty value")
        self.check("rounds = 1\nrounds = 2\n", 3, "'rounds' already given on line 2")
        self.check("db = x.db\n", 2, "--db is set by the sweep itself")
        self.check('schedule = "all-in-one\n', 2, "unterminated quote")

    def test_program(self):
        self.check("program = no-such-program\nrounds = 1\n", 2, "no-such-program")
        self.check("timeout = -1\n", 2, "timeout must be a positive number")

    def test_declared(self):
        self.check("program = /bin/true\ndeclare = n:int, x:bogus\n", 3, "unknown type 'bogus'")
        self.check("program = /bin/true\ndeclare = n:int\nn = 1.5\n", 4, "n expects an integer")
        self.check("program = /bin/true\ndeclare = n:int\nm = 1\n", 4, "unknown parameter 'm'")

    def raw_check(self, data, line, *needles):
        """Like check() for a spec given as bytes; line 0: an error about the whole file."""
        spec = os.path.join(self.dir, "raw.sweep")
        with open(spec, "wb") as f:
            f.write(data)
        db = os.path.join(self.dir, "raw.db")
        if os.path.exists(db):
            os.remove(db)
        p = sweep(spec, "--db", db, timeout=60)
        self.assertEqual(p.returncode, 2, p.stderr)
        self.assertIn("%s:%d: error:" % (spec, line) if line else "%s: error:" % spec, p.stderr)
        for n in needles:
            self.assertIn(n, p.stderr)
        self.assertNotIn("Traceback", p.stderr)
        self.assertFalse(os.path.exists(db), "a bad spec must not touch the database")

    def test_nul_and_control_characters(self):
        # A NUL byte in a value used to crash the sweep mid-run (Popen: embedded null byte).
        self.raw_check(b"rounds = 1\nschedule = all\x00in-one, 3x3-rotating\n", 2,
                       "control character U+0000 in the value of 'schedule'")
        self.raw_check(b"modelBytes = 200e3\x01\n", 1,
                       "control character U+0001 in the value of 'modelBytes'")
        self.raw_check(b"# comment\n\x00\n", 2, "control character U+0000")

    def test_empty_spec_is_refused(self):
        # An empty spec used to run the program's default experiment, silently.
        self.raw_check(b"", 0, "the spec gives no parameter")
        self.raw_check(b"# only a comment\n\n   \n", 0, "the spec gives no parameter")
        self.raw_check(b"program = nine-city-training\n", 0, "the spec gives no parameter")

    def test_encodings(self):
        self.raw_check("rounds = 1\n".encode("utf-16"), 1, "UTF-16")
        self.raw_check(b"rounds = 1\n\nschedule = caf\xe9\n", 3, "not UTF-8")
        spec = os.path.join(self.dir, "bom.sweep")
        with open(spec, "wb") as f:
            f.write(b"\xef\xbb\xbfrounds = 1\nmodelBytes = 200e3\n")
        p = sweep(spec, "--list")
        self.assertEqual(p.returncode, 0, p.stderr)
        self.assertIn("--rounds=1", p.stdout)

    def test_non_finite_numbers(self):
        self.check("rounds = 1\nlinkRate = 1e999\n", 3, "linkRate", "out of range")
        self.check("linkRate = 1e9..1e999 *2\n", 2, "not finite")

    def test_values_out_of_the_programs_range(self):
        # Checked for type only, these passed --list and a sweep ran the good runs, recorded
        # the bad ones as failed and exited 1; the program's --PrintOptionsRst says the ranges.
        self.check("modelBytes = 200e3\nrounds = 1.5\n", 3, "rounds expects an integer")
        self.check("modelBytes = 200e3\nrounds = 0\n", 3, "rounds = 0 is out of range",
                   "accepted: 1 .. 1000000")
        self.check("rounds = 1\nlinkRate = -5\n", 3, "linkRate = -5 is out of range")
        self.check("rounds = 1\nperiod = 9\n", 3, "period = 9 is out of range",
                   "accepted: 1 .. 8")
        self.check(TINY + "RngRun = 1.5, 2\n", 4, "RngRun expects an integer", "'1.5'")
        self.check(TINY + "lossRate = 0, 1\n", 4, "lossRate = 1 is out of range")
        spec = write(os.path.join(self.dir, "range-ok.sweep"),
                     TINY + "linkRate = 0, 1e9\nlossRate = 0.5\nRngRun = 0\n")
        p = sweep(spec, "--list")
        self.assertEqual(p.returncode, 0, p.stderr)

    def test_large_range_lists_in_linear_time(self):
        # The check for a value listed twice was quadratic: 100000 values took minutes.
        spec = write(os.path.join(self.dir, "large.sweep"), "RngRun = 1..100000\nrounds = 1\n")
        start = time.monotonic()
        p = sweep(spec, "--list", timeout=60)
        self.assertEqual(p.returncode, 0, p.stderr)
        self.assertEqual(len(p.stdout.splitlines()), 100000)
        self.assertLess(time.monotonic() - start, 30)
        self.check("RngRun = 1..3, 2\n", 2, "RngRun: value 2 listed twice")

    def test_database_directory_must_exist(self):
        # The sweep created the whole tree; the programs refuse a missing directory.
        spec = write(os.path.join(self.dir, "db-dir.sweep"), TINY)
        missing = os.path.join(self.dir, "no-such-dir")
        db = os.path.join(missing, "sub", "r.db")
        p = sweep(spec, "--db", db, timeout=60)
        self.assertEqual(p.returncode, 2, p.stderr)
        self.assertIn("--db %s" % db, p.stderr)
        self.assertIn("no directory", p.stderr)
        self.assertNotIn("Traceback", p.stderr)
        self.assertFalse(os.path.exists(missing), "no directory is created")

    def test_list_expands_cartesian_product(self):
        spec = write(os.path.join(self.dir, "ok.sweep"),
                     "mode = unicast  # comment\nlinkRate = 1e9..8e9 *2\nRngRun = 1..3\n"
                     "schedule = \"all-in-one\"\n" + TINY)
        p = sweep(spec, "--list")
        self.assertEqual(p.returncode, 0, p.stderr)
        lines = p.stdout.splitlines()
        self.assertEqual(len(lines), 12)
        self.assertIn("--linkRate=8000000000", lines[-1])
        self.assertIn("--RngRun=3", lines[-1])
        self.assertIn("--modelBytes=200000", lines[0])
        keys = [l.split()[0] for l in lines]
        self.assertEqual(len(set(keys)), 12)
        again = sweep(spec, "--list").stdout.splitlines()
        self.assertEqual([l.split()[0] for l in again], keys, "run keys must be stable")


class TestRestart(unittest.TestCase):
    """A 24-run sweep (three modes) with --jobs 2, interrupted twice (SIGTERM, then SIGKILL of
    the process group), restarted, ends with exactly 24 complete runs and every row; then the
    plots."""

    SPEC = """\
# 3 modes x 2 schedules x 4 link rates = 24 tiny runs
program = nine-city-training
mode = unicast, multicast, aggregation
schedule = all-in-one, 3x3-rotating
linkRate = 1e9..8e9 *2
RngRun = 1
""" + TINY

    @classmethod
    def setUpClass(cls):
        cls.dir = workdir("restart")
        cls.spec = write(os.path.join(cls.dir, "restart.sweep"), cls.SPEC)
        cls.db = os.path.join(cls.dir, "results.db")
        cls.swept = False

    def start(self):
        return subprocess.Popen([PY, sweep_py(), "--build-dir", BUILD, self.spec, "--db",
                                 self.db, "--jobs", "2"], stdout=subprocess.PIPE,
                                stderr=subprocess.PIPE, text=True, start_new_session=True)

    def interrupt_at(self, proc, complete_runs, sig):
        deadline = time.monotonic() + 300
        while count(self.db) < complete_runs:
            if proc.poll() is not None:
                self.fail("sweep ended before the interruption: %s" % proc.communicate()[1])
            self.assertLess(time.monotonic(), deadline, "sweep too slow")
            time.sleep(0.1)
        os.killpg(proc.pid, sig)
        out, err = proc.communicate(timeout=60)
        return proc.returncode, err

    def test_1_interrupted_sweep_restarts_to_24_complete(self):
        t0 = time.monotonic()
        rc, err = self.interrupt_at(self.start(), 6, signal.SIGTERM)
        self.assertEqual(rc, 128 + signal.SIGTERM, err)
        self.assertIn("interrupted by SIGTERM", err)
        first = count(self.db)
        self.assertLess(first, 24)
        self.assertEqual(count(self.db, "failed"), 0, "an interruption is not a failure")

        rc, err = self.interrupt_at(self.start(), first + 5, signal.SIGKILL)
        self.assertEqual(rc, -signal.SIGKILL)
        # The runs die with the sweep (PR_SET_PDEATHSIG), but a run in its last system call
        # (its database commit) finishes it first: count once they are all gone.
        sys.path.insert(0, os.path.join(SRC, "scripts"))
        import importlib
        sweep_mod = importlib.import_module("sweep")
        wait_for(lambda: not sweep_mod.orphans(os.path.abspath(self.db)), 60,
                 "the runs of the killed sweep to end")
        second = count(self.db)
        self.assertLess(second, 24)
        self.assertGreater(second, first)

        p = subprocess.run([PY, sweep_py(), "--build-dir", BUILD, self.spec, "--db", self.db,
                            "--jobs", "2"], capture_output=True, text=True, timeout=600)
        self.assertEqual(p.returncode, 0, p.stderr)
        self.assertIn("%d skipped as complete" % second, p.stderr)
        self.assertIn("24/24 done", p.stderr)
        sys.stderr.write("\n[restart: %d then %d complete before the interruptions; %.1f s in "
                         "all] " % (first, second, time.monotonic() - t0))

        self.assertEqual(count(self.db), 24)
        self.assertEqual(count(self.db, "failed"), 0)
        keys = query(self.db, "SELECT run_key, COUNT(*) FROM runs GROUP BY run_key")
        self.assertEqual(len(keys), 24)
        self.assertTrue(all(n == 1 for _, n in keys), "duplicate run keys: %s" % keys)
        listed = {l.split()[0] for l in sweep(self.spec, "--list").stdout.splitlines()}
        self.assertEqual(listed, {k for k, _ in keys})
        # No row lost: every run has its cliques, its nine islands and its links.
        for run_id, schedule in query(self.db, "SELECT run_id, schedule FROM runs"):
            cliques = query(self.db, "SELECT COUNT(*) FROM rounds WHERE run_id = ?",
                            (run_id,))[0][0]
            islands = query(self.db, "SELECT COUNT(*) FROM island_rounds WHERE run_id = ?",
                            (run_id,))[0][0]
            links = query(self.db, "SELECT COUNT(*) FROM links WHERE run_id = ?",
                          (run_id,))[0][0]
            self.assertEqual(cliques, 1 if schedule == "all-in-one" else 3, schedule)
            self.assertEqual(islands, 9)
            self.assertGreater(links, 0)
        rates = {json.loads(p)["linkRate"] for (p,) in query(self.db, "SELECT parameters "
                                                             "FROM runs")}
        self.assertEqual(rates, {1e9, 2e9, 4e9, 8e9})
        self.assertEqual(query(self.db, "SELECT mode, COUNT(*) FROM runs GROUP BY mode"),
                         [("aggregation", 8), ("multicast", 8), ("unicast", 8)])
        # Runs again: nothing to do.
        p = sweep(self.spec, "--db", self.db)
        self.assertEqual(p.returncode, 0, p.stderr)
        self.assertIn("24 skipped as complete", p.stderr)
        self.assertEqual(count(self.db), 24)
        type(self).swept = True

    def test_2_plots_from_the_sweep_database(self):
        if not self.swept:
            self.skipTest("the sweep test did not pass")
        out = os.path.join(self.dir, "plots")
        p = subprocess.run([PY, os.path.join(SRC, "scripts", "plot-results.py"), self.db,
                            "--out", out], capture_output=True, text=True, timeout=300)
        self.assertEqual(p.returncode, 0, p.stderr)
        for name in ("round-time-vs-link-rate.png", "map-all-in-one.png",
                     "map-3x3-rotating.png"):
            path = os.path.join(out, name)
            self.assertTrue(os.path.isfile(path), "%s missing: %s" % (name, p.stderr))
            self.assertGreater(os.path.getsize(path), 5000)
        # No optimizer output and no loss table yet: skipped with a message, no crash.
        self.assertIn("skipped clique-size-vs-capabilities", p.stderr)
        self.assertIn("skipped loss-vs-time", p.stderr)

        # With an optimizer schedule and a loss table (as the training proxy will add).
        opt = write(os.path.join(self.dir, "optimized.json"), json.dumps({
            "name": "optimized",
            "description": "optimize-schedule: mode multicast, model 1e+08 B, link 1e+10 bit/s",
            "rounds": [{"cliques": [["AMS", "FRA", "LON", "NYC"], ["BAR", "LAX"],
                                    ["SEO", "SIN", "TYO"]]}]}))
        db2 = os.path.join(self.dir, "with-loss.db")
        shutil.copy(self.db, db2)
        con = sqlite3.connect(db2)
        con.execute("CREATE TABLE loss_curve(run_id INTEGER, island TEXT, time_s REAL, "
                    "loss REAL)")
        for run_id in (1, 2):
            for i in range(20):
                for island in ("AMS", "LON"):
                    con.execute("INSERT INTO loss_curve VALUES(?, ?, ?, ?)",
                                (run_id, island, i * 0.5, 2.0 / (1 + i * run_id)))
        con.commit()
        con.close()
        out2 = os.path.join(self.dir, "plots2")
        p = subprocess.run([PY, os.path.join(SRC, "scripts", "plot-results.py"), db2, "--out",
                            out2, "--optimizer-schedule", opt, "--format", "svg", "--schedule",
                            "3x3-rotating"], capture_output=True, text=True, timeout=300)
        self.assertEqual(p.returncode, 0, p.stderr)
        for name in ("clique-size-vs-capabilities.svg", "loss-vs-time.svg",
                     "map-3x3-rotating.svg", "round-time-vs-link-rate.svg"):
            path = os.path.join(out2, name)
            self.assertTrue(os.path.isfile(path) and os.path.getsize(path) > 5000,
                            "%s: %s" % (name, p.stderr))


CRASHER = """\
#!/usr/bin/python3
# Test program: a wrapper of nine-city-training (first argument) that crashes on --crash=1.
import os, resource, signal, sys
real, args = sys.argv[1], sys.argv[2:]
if "--PrintHelp" in args or "--PrintGlobals" in args:
    if "--PrintHelp" in args:
        print("Program Options:\\n    --crash:  Crash with SIGSEGV instead of running [0]")
    sys.stdout.flush()
    os.execv(real, [real] + args)
if "--crash=1" in args:
    sys.stderr.write("simulated crash: segmentation fault ahead\\n")
    sys.stderr.flush()
    resource.setrlimit(resource.RLIMIT_CORE, (0, 0))
    os.kill(os.getpid(), signal.SIGSEGV)
args = [a for a in args if not a.startswith("--crash=")]
os.execv(real, [real] + args)
"""


class TestFailures(unittest.TestCase):
    """A run that crashes or exits non-zero is recorded as failed; the sweep goes on."""

    def test_crash_and_error_recorded_as_failed(self):
        d = workdir("failures")
        crasher = write(os.path.join(d, "crasher.py"), CRASHER)
        os.chmod(crasher, 0o755)
        real = os.path.join(BUILD, "nine-city-training")
        spec = write(os.path.join(d, "failures.sweep"),
                     "program = %s %s\ncrash = 0, 1\nmodelBytes = 200e3\nrounds = 1\n"
                     "schedule = all-in-one, no-such-schedule\n" % (crasher, real))
        db = os.path.join(d, "results.db")
        p = sweep(spec, "--db", db, "--jobs", "2")
        self.assertEqual(p.returncode, 1, p.stderr)
        self.assertIn("4/4 done", p.stderr)
        self.assertIn("1 complete", p.stderr)
        self.assertEqual(count(db), 1)
        failed = query(db, "SELECT run_key, error, program, model_bytes, rounds, parameters, "
                           "created_at, wall_time_s FROM runs WHERE status = 'failed'")
        self.assertEqual(len(failed), 3)
        crashes = [f for f in failed if "SIGSEGV" in f[1]]
        self.assertEqual(len(crashes), 2, failed)
        for f in crashes:
            self.assertIn("simulated crash", f[1])
            self.assertEqual(f[2], "crasher.py")
            self.assertEqual(f[4], 1)
            self.assertIsNotNone(f[6])
            self.assertIsNotNone(f[7])
        errors = [f for f in failed if "SIGSEGV" not in f[1]]
        self.assertIn("exit status 2", errors[0][1])
        self.assertIn("--- stderr (tail) ---\nnine-city-training: error:", errors[0][1])
        # A value only the program can refuse (a value out of its range stops the sweep at
        # its spec line: TestBadSpec.test_values_out_of_the_programs_range).
        self.assertIn("no-such-schedule", errors[0][1].split("stderr (tail)")[1])
        self.assertEqual(json.loads(errors[0][5])["schedule"], "no-such-schedule")
        # Restart: the complete run is skipped, the failed ones are tried again.
        p = sweep(spec, "--db", db, "--jobs", "2")
        self.assertEqual(p.returncode, 1)
        self.assertIn("1 skipped as complete", p.stderr)
        self.assertEqual(count(db), 1)
        self.assertEqual(count(db, "failed"), 6)

    def test_timeout(self):
        d = workdir("timeout")
        spec = write(os.path.join(d, "slow.sweep"),
                     'program = /bin/sh -c "exec sleep 30" run\ndeclare = n:int\n'
                     'timeout = 0.5\nn = 1, 2\n')
        db = os.path.join(d, "results.db")
        t0 = time.monotonic()
        p = sweep(spec, "--db", db)
        self.assertEqual(p.returncode, 1, p.stderr)
        self.assertLess(time.monotonic() - t0, 20)
        errors = [e for (e,) in query(db, "SELECT error FROM runs WHERE status = 'failed'")]
        self.assertEqual(len(errors), 2)
        self.assertTrue(all("timed out after" in e for e in errors), errors)


class TestSlurm(unittest.TestCase):
    """--emit-slurm writes a job array; its tasks (run here without SLURM) fill per-task
    databases that merge-results.py merges into one, idempotently."""

    def test_emit_run_tasks_and_merge(self):
        d = workdir("slurm")
        spec = write(os.path.join(d, "small.sweep"),
                     "schedule = all-in-one, 3x3-rotating\nRngRun = 1..2\n" + TINY)
        out = os.path.join(d, "job")
        p = sweep(spec, "--emit-slurm", out, "--slurm-tasks", "2",
                  "--slurm-option=--partition=short")
        self.assertEqual(p.returncode, 0, p.stderr)
        with open(os.path.join(out, "sweep.sbatch")) as f:
            script = f.read()
        self.assertIn("#SBATCH --array=0-1\n", script)
        self.assertIn("#SBATCH --partition=short\n", script)
        with open(os.path.join(out, "runs.jsonl")) as f:
            runs = [json.loads(l) for l in f]
        self.assertEqual(len(runs), 4)
        listed = {l.split()[0] for l in sweep(spec, "--list").stdout.splitlines()}
        self.assertEqual({r["run_key"] for r in runs}, listed)
        for task in (0, 1):
            env = dict(os.environ, SLURM_ARRAY_TASK_ID=str(task), PYTHON=PY)
            t = subprocess.run(["bash", os.path.join(out, "sweep.sbatch")], env=env,
                               capture_output=True, text=True, timeout=300)
            self.assertEqual(t.returncode, 0, t.stderr)
            self.assertEqual(count(os.path.join(out, "db", "task-%d.db" % task)), 2)
        merged = os.path.join(d, "merged.db")
        tasks = [os.path.join(out, "db", "task-%d.db" % t) for t in (0, 1)]
        m = subprocess.run([PY, os.path.join(SRC, "scripts", "merge-results.py"), merged] +
                           tasks, capture_output=True, text=True, timeout=120)
        self.assertEqual(m.returncode, 0, m.stderr)
        self.assertEqual(count(merged), 4)
        self.assertEqual(sorted(r[0] for r in query(merged, "SELECT run_id FROM runs")),
                         [1, 2, 3, 4])
        # Every table's rows came along, attached to the renumbered run.
        for table in ("rounds", "island_rounds", "links"):
            got = dict(query(merged, "SELECT r.run_key, COUNT(*) FROM %s t JOIN runs r "
                                     "USING(run_id) GROUP BY r.run_key" % table))
            want = {}
            for db in tasks:
                want.update(query(db, "SELECT r.run_key, COUNT(*) FROM %s t JOIN runs r "
                                      "USING(run_id) GROUP BY r.run_key" % table))
            self.assertEqual(got, want, table)
        # Merging again adds nothing; the sweep over the merged database has nothing to do.
        m = subprocess.run([PY, os.path.join(SRC, "scripts", "merge-results.py"), merged] +
                           tasks, capture_output=True, text=True, timeout=120)
        self.assertEqual(m.returncode, 0, m.stderr)
        self.assertIn("0 runs added", m.stderr)
        self.assertEqual(query(merged, "SELECT COUNT(*) FROM runs")[0][0], 4)
        p = sweep(spec, "--db", merged)
        self.assertEqual(p.returncode, 0, p.stderr)
        self.assertIn("4 skipped as complete", p.stderr)
        # The generated merge.sh does the same.
        m = subprocess.run(["sh", os.path.join(out, "merge.sh"), os.path.join(d, "m2.db")],
                           capture_output=True, text=True, timeout=120)
        self.assertEqual(m.returncode, 0, m.stderr)
        self.assertEqual(count(os.path.join(d, "m2.db")), 4)


class TestMergeDirectRuns(unittest.TestCase):
    """Runs without a key (every direct run of a program) survive a merge: two different runs
    made in the same second are two runs (created_at is to the microsecond, and the parameters
    tell even whole-second stamps apart); the same row merged twice is one."""

    def test_unkeyed_runs_are_not_taken_for_copies(self):
        d = workdir("merge-direct")
        direct = os.path.join(d, "direct.db")
        prog = os.path.join(BUILD, "nine-city-training")
        for ct in ("0.01", "0.02", "0.03"):
            p = subprocess.run([prog, "--modelBytes=1e5", "--rounds=1", "--quiet=1",
                                "--computeTime=" + ct, "--db=" + direct],
                               capture_output=True, text=True, timeout=300)
            self.assertEqual(p.returncode, 0, p.stderr)
        stamps = [r[0] for r in query(direct, "SELECT created_at FROM runs")]
        for s in stamps:
            self.assertRegex(s, r"^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}Z$")
        # A database of the older format: whole-second stamps, the same for three runs that
        # differ in one parameter, and one exact copy of a row.
        old = os.path.join(d, "old.db")
        shutil.copy(direct, old)
        con = sqlite3.connect(old)
        con.execute("UPDATE runs SET created_at = '2026-12-01T10:00:00Z'")
        con.execute("INSERT INTO runs(run_key, status, created_at, program, parameters) "
                    "SELECT run_key, status, created_at, program, parameters FROM runs "
                    "WHERE run_id = 1")
        con.commit()
        con.close()
        merge = os.path.join(SRC, "scripts", "merge-results.py")
        out = os.path.join(d, "out.db")
        for source, added, skipped in ((direct, 3, 0), (direct, 0, 3), (old, 3, 1)):
            m = subprocess.run([PY, merge, out, source], capture_output=True, text=True,
                               timeout=120)
            self.assertEqual(m.returncode, 0, m.stderr)
            self.assertIn("%d runs added, %d skipped" % (added, skipped), m.stderr)
        self.assertEqual(query(out, "SELECT COUNT(*) FROM runs")[0][0], 6)
        # Rounds follow their runs: every run of OUT has its round.
        self.assertEqual(query(out, "SELECT COUNT(*) FROM runs WHERE run_id NOT IN "
                                    "(SELECT run_id FROM rounds)")[0][0], 0)
        # The output given again as an input under another name (a hard link) is refused.
        link = os.path.join(d, "same.db")
        os.link(out, link)
        m = subprocess.run([PY, merge, link, out], capture_output=True, text=True, timeout=120)
        self.assertEqual(m.returncode, 2, m.stderr)
        self.assertIn("both output and input", m.stderr)


class TestSchema(unittest.TestCase):
    """The sweep creates table runs exactly as the C++ ResultsDatabase does."""

    def test_runs_schema_matches_results_database(self):
        d = workdir("schema")
        by_program = os.path.join(d, "program.db")
        p = subprocess.run([os.path.join(BUILD, "nine-city-training"), "--db=" + by_program,
                            "--modelBytes=200e3", "--rounds=1", "--quiet=1"],
                           capture_output=True, text=True, timeout=300)
        self.assertEqual(p.returncode, 0, p.stderr)
        sys.path.insert(0, os.path.join(SRC, "scripts"))
        import importlib
        sweep_mod = importlib.import_module("sweep")
        by_sweep = os.path.join(d, "sweep.db")
        sweep_mod.ensure_db(by_sweep)
        sql = "SELECT type, name, sql FROM sqlite_master WHERE name IN ('runs', 'meta', " \
              "'runs_key', 'runs_complete_key') ORDER BY name"
        self.assertEqual(len(query(by_sweep, sql)), 4)
        self.assertEqual(query(by_sweep, sql), query(by_program, sql))
        self.assertEqual(query(by_sweep, "PRAGMA journal_mode"), [("wal",)])
        for pragma in ("user_version", "application_id"):
            self.assertEqual(query(by_sweep, "PRAGMA " + pragma),
                             query(by_program, "PRAGMA " + pragma), pragma)
        self.assertEqual(query(by_program, "PRAGMA user_version"), [(2,)])
        # The program completes a database the sweep created, and the reverse.
        p = subprocess.run([os.path.join(BUILD, "nine-city-training"), "--db=" + by_sweep,
                            "--modelBytes=200e3", "--rounds=1", "--quiet=1"],
                           capture_output=True, text=True, timeout=300)
        self.assertEqual(p.returncode, 0, p.stderr)
        sweep_mod.ensure_db(by_program)
        self.assertEqual(query(by_sweep, "SELECT COUNT(*) FROM run_rounds"), [(1,)])


FAKE_SIM = """\
#!/usr/bin/python3
# Test program: a "simulator" keeping the sweep contract naively. It leaves a marker when it
# starts, sleeps --sleep seconds, records its run as complete with plain SQL (no check that the
# key is complete already) and leaves a marker when it has recorded it.
import json, os, sqlite3, sys, time
if "--PrintHelp" in sys.argv:
    print("Program Options:")
    for o in HELP:
        print("    --%s:  option [0]" % o)
    sys.exit(0)
if "--PrintGlobals" in sys.argv:
    sys.exit(0)
args = dict(a[2:].split("=", 1) for a in sys.argv[1:] if a.startswith("--") and "=" in a)
key, markers = args["runKey"], os.environ["FAKE_MARKERS"]
open(os.path.join(markers, "started-%s-%d" % (key, os.getpid())), "w").close()
time.sleep(float(args.get("sleep", "0")))
params = {k: v for k, v in args.items() if k not in ("db", "runKey", "quiet") + DROP}
con = sqlite3.connect(args["db"], timeout=60)
try:
    con.execute("INSERT INTO runs(run_key, status, created_at, program, parameters) "
                "VALUES(?, 'complete', ?, 'fake', ?)", (key, time.ctime(), json.dumps(params)))
    con.commit()
except sqlite3.IntegrityError as e:
    sys.stderr.write("fake: %s\\n" % e)
    sys.exit(1)
open(os.path.join(markers, "finished-%s-%d" % (key, os.getpid())), "w").close()
"""


def make_fake(d, help_options=("n", "sleep", "db", "runKey"), drop=()):
    path = write(os.path.join(d, "fake-sim.py"),
                 FAKE_SIM.replace("HELP", repr(tuple(help_options)), 1)
                 .replace("+ DROP", "+ " + repr(tuple(drop)), 1))
    os.chmod(path, 0o755)
    return path


def make_wrapper(d, fake, background=False):
    """A shell script that runs the fake simulator as its child (not exec: the shell stays)."""
    body = '/usr/bin/python3 %s "$@"%s\n' % (fake, " &\nexit 0" if background else "\nexit $?")
    path = write(os.path.join(d, "wrapper-bg.sh" if background else "wrapper.sh"),
                 "#!/bin/sh\n" + body)
    os.chmod(path, 0o755)
    return path


def alive(pid):
    """True if process pid exists and is not a zombie."""
    try:
        with open("/proc/%d/stat" % pid) as f:
            return f.read().rsplit(")", 1)[1].split()[0] not in ("Z", "X")
    except OSError:
        return False


def markers(d, kind):
    """{pid: run_key} of the fake simulator's markers of one kind (started, finished)."""
    out = {}
    for name in os.listdir(d):
        if name.startswith(kind + "-"):
            key, pid = name[len(kind) + 1:].rsplit("-", 1)
            out[int(pid)] = key
    return out


def wait_for(predicate, seconds, what):
    deadline = time.monotonic() + seconds
    while not predicate():
        if time.monotonic() > deadline:
            raise AssertionError("timed out waiting for " + what)
        time.sleep(0.05)


class TestProcessGroups(unittest.TestCase):
    """A run's whole process group goes when the sweep stops it or when it ends: a wrapper's
    simulator never outlives its run and records it later (two complete rows per key)."""

    def setup(self, name, sleep, background=False, timeout=None):
        d = workdir(name)
        self.markers = os.path.join(d, "markers")
        os.makedirs(self.markers)
        fake = make_fake(d)
        wrapper = make_wrapper(d, fake, background)
        spec = write(os.path.join(d, "w.sweep"),
                     "program = %s\ndeclare = n:int, sleep:float\nn = 1, 2\nsleep = %g\n%s" %
                     (wrapper, sleep, "timeout = %g\n" % timeout if timeout else ""))
        return spec, os.path.join(d, "results.db")

    def start(self, spec, db):
        env = dict(os.environ, FAKE_MARKERS=self.markers)
        return subprocess.Popen([PY, sweep_py(), "--build-dir", BUILD, spec, "--db", db,
                                 "--jobs", "2"], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                text=True, env=env, start_new_session=True)

    def test_interrupted_sweep_leaves_no_simulator(self):
        spec, db = self.setup("pg-term", 3)
        proc = self.start(spec, db)
        wait_for(lambda: len(markers(self.markers, "started")) == 2, 60, "two simulators")
        os.kill(proc.pid, signal.SIGTERM)
        _, err = proc.communicate(timeout=60)
        self.assertEqual(proc.returncode, 128 + signal.SIGTERM, err)
        pids = list(markers(self.markers, "started"))
        time.sleep(4)  # longer than the simulators sleep
        self.assertFalse([p for p in pids if alive(p)], "simulators outlived their sweep")
        self.assertEqual(markers(self.markers, "finished"), {}, "an orphan recorded its run")
        self.assertEqual(count(db), 0)
        # Resumed: each key exactly once.
        p = subprocess.run([PY, sweep_py(), spec, "--db", db], capture_output=True, text=True,
                           timeout=120, env=dict(os.environ, FAKE_MARKERS=self.markers))
        self.assertEqual(p.returncode, 0, p.stderr)
        self.assertEqual(query(db, "SELECT run_key, COUNT(*) FROM runs WHERE status = "
                                   "'complete' GROUP BY run_key ORDER BY 1"),
                         sorted((k, 1) for k in set(markers(self.markers, "started").values())))

    def test_killed_sweep_orphans_are_killed_by_the_next_one(self):
        # kill -9 of the sweep alone: its direct children die (parent-death signal), but the
        # wrapper's simulators are orphans; the next sweep of the database kills them first.
        spec, db = self.setup("pg-kill", 4)
        proc = self.start(spec, db)
        wait_for(lambda: len(markers(self.markers, "started")) == 2, 60, "two simulators")
        orphans = list(markers(self.markers, "started"))
        os.kill(proc.pid, signal.SIGKILL)
        proc.communicate(timeout=60)
        p = subprocess.run([PY, sweep_py(), spec, "--db", db], capture_output=True, text=True,
                           timeout=120, env=dict(os.environ, FAKE_MARKERS=self.markers))
        self.assertEqual(p.returncode, 0, p.stderr)
        self.assertIn("killed 2 processes left running by an earlier, dead sweep", p.stderr)
        self.assertFalse([o for o in orphans if alive(o)])
        time.sleep(1)
        finished = markers(self.markers, "finished")
        self.assertFalse(set(finished) & set(orphans), "an orphan recorded its run")
        keys = query(db, "SELECT run_key, COUNT(*) FROM runs GROUP BY run_key")
        self.assertEqual(len(keys), 2)
        self.assertTrue(all(n == 1 for _, n in keys), keys)
        self.assertEqual(count(db), 2)

    def test_timeout_kills_the_wrapped_simulator(self):
        spec, db = self.setup("pg-timeout", 30, timeout=1)
        p = subprocess.run([PY, sweep_py(), spec, "--db", db], capture_output=True, text=True,
                           timeout=120, env=dict(os.environ, FAKE_MARKERS=self.markers))
        self.assertEqual(p.returncode, 1, p.stderr)
        started = list(markers(self.markers, "started"))
        self.assertEqual(len(started), 2)
        self.assertFalse([s for s in started if alive(s)], "a timed-out simulator survived")
        errors = [e for (e,) in query(db, "SELECT error FROM runs WHERE status = 'failed'")]
        self.assertEqual(len(errors), 2)
        self.assertTrue(all("killed with its process group" in e for e in errors), errors)

    def test_run_ends_with_its_process_group(self):
        # A wrapper that starts the simulator in the background and exits 0 at once: the run
        # is over (recorded failed: nothing recorded), and the simulator goes with it.
        spec, db = self.setup("pg-bg", 2, background=True)
        p = subprocess.run([PY, sweep_py(), spec, "--db", db], capture_output=True, text=True,
                           timeout=120, env=dict(os.environ, FAKE_MARKERS=self.markers))
        self.assertEqual(p.returncode, 1, p.stderr)
        time.sleep(3)
        self.assertEqual(markers(self.markers, "finished"), {})
        self.assertEqual(count(db), 0)
        self.assertEqual(count(db, "failed"), 2)


class TestDuplicateGuard(unittest.TestCase):
    """Two sweeps of one spec on one database at once: each key is recorded complete once (the
    database refuses the second complete row of a key: unique index runs_complete_key)."""

    def test_concurrent_sweeps_record_each_key_once(self):
        d = workdir("dup")
        marks = os.path.join(d, "markers")
        os.makedirs(marks)
        fake = make_fake(d)
        spec = write(os.path.join(d, "d.sweep"), "program = %s\ndeclare = n:int, sleep:float\n"
                     "n = 1..3\nsleep = 1\n" % fake)
        db = os.path.join(d, "results.db")
        env = dict(os.environ, FAKE_MARKERS=marks)
        sweep_py_args = [PY, sweep_py(), spec, "--db", db, "--jobs", "1"]
        procs = [subprocess.Popen(sweep_py_args, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                  text=True, env=env) for _ in range(2)]
        for proc in procs:
            out, err = proc.communicate(timeout=120)
            self.assertEqual(proc.returncode, 0, err)
        started = markers(marks, "started")
        self.assertGreater(len(started), 3, "the two sweeps never ran a key twice: no test")
        keys = query(db, "SELECT run_key, COUNT(*) FROM runs WHERE status = 'complete' "
                         "GROUP BY run_key")
        self.assertEqual(len(keys), 3)
        self.assertTrue(all(n == 1 for _, n in keys), keys)


class TestContract(unittest.TestCase):
    """A sweep of the user's own program: the contract (--db, --runKey, record the run with
    every parameter) is checked by --list and --check; the sweep records what it passed."""

    def test_list_refuses_a_program_without_db_or_runkey(self):
        d = workdir("contract-list")
        fake = make_fake(d, help_options=("n", "db"))
        spec = write(os.path.join(d, "c.sweep"), "program = %s\nn = 1, 2\n" % fake)
        p = sweep(spec, "--list")
        self.assertEqual(p.returncode, 2, p.stderr)
        self.assertIn("%s:1: error: program fake-sim.py does not take --runKey" % spec, p.stderr)

    def test_check_runs_one_trial_and_verifies_the_record(self):
        d = workdir("contract-check")
        marks = os.path.join(d, "markers")
        os.makedirs(marks)
        env = dict(os.environ, FAKE_MARKERS=marks)
        good = make_fake(d)
        spec = write(os.path.join(d, "c.sweep"), "program = %s\nn = 1, 2\nsleep = 0\n" % good)
        p = subprocess.run([PY, sweep_py(), spec, "--check"], capture_output=True, text=True,
                           timeout=120, env=env)
        self.assertEqual(p.returncode, 0, p.stderr)
        self.assertIn("keeps the contract", p.stderr)
        self.assertEqual(len(markers(marks, "started")), 1, "one trial run")
        # A program that does not record one of the parameters fails the check, by name.
        bad_dir = os.path.join(d, "bad")
        os.makedirs(bad_dir)
        bad = make_fake(bad_dir, drop=("n",))
        spec = write(os.path.join(d, "b.sweep"), "program = %s\nn = 1, 2\nsleep = 0\n" % bad)
        p = subprocess.run([PY, sweep_py(), spec, "--check"], capture_output=True, text=True,
                           timeout=120, env=env)
        self.assertEqual(p.returncode, 2, p.stderr)
        self.assertIn("does not record parameter 'n' = 1", p.stderr)
        # The shipped program keeps the contract, RngRun included (column run_number).
        spec = write(os.path.join(d, "n.sweep"), "mode = multicast, unicast\nlinkRate = 2e9\n"
                     "RngRun = 2\nschedule = all-in-one\n" + TINY)
        p = sweep(spec, "--check")
        self.assertEqual(p.returncode, 0, p.stderr)
        # An attribute with units, as doc/sweeps.rst writes it: the program records ns-3's
        # spelling ('+1e+07ns' for 10ms), the same value (the check compared text before).
        spec = write(os.path.join(d, "u.sweep"), "ns3::TrainingIsland::ComputeTime = 10ms, "
                     "50ms\nschedule = all-in-one\n" + TINY)
        p = sweep(spec, "--check")
        self.assertEqual(p.returncode, 0, p.stderr)
        self.assertIn("keeps the contract", p.stderr)

    def test_sweep_records_what_it_passed(self):
        d = workdir("contract-record")
        marks = os.path.join(d, "markers")
        os.makedirs(marks)
        fake = make_fake(d, drop=("n", "sleep"))  # the program records none of them
        spec = write(os.path.join(d, "r.sweep"), "program = %s\nn = 1, 2\nsleep = 0\n" % fake)
        db = os.path.join(d, "results.db")
        p = subprocess.run([PY, sweep_py(), spec, "--db", db], capture_output=True, text=True,
                           timeout=120, env=dict(os.environ, FAKE_MARKERS=marks))
        self.assertEqual(p.returncode, 0, p.stderr)
        rows = query(db, "SELECT s.parameters, s.spec FROM sweep_runs s JOIN runs r "
                         "USING(run_key) WHERE r.status = 'complete' ORDER BY 1")
        self.assertEqual([json.loads(r[0]) for r in rows],
                         [{"n": "1", "sleep": "0"}, {"n": "2", "sleep": "0"}])
        self.assertTrue(all(r[1] == os.path.abspath(spec) for r in rows))


class TestSlurmStorage(unittest.TestCase):
    """SLURM tasks: log and work directories configurable and created; the per-task database
    lives on node-local storage and is merged into the shared one; a rerun task resumes."""

    def test_node_local_database_merged_and_resumed(self):
        d = workdir("slurm-storage")
        spec = write(os.path.join(d, "s.sweep"), "RngRun = 1..2\n" + TINY)
        out, logs, local = (os.path.join(d, x) for x in ("job", "shared-logs", "node-local"))
        p = sweep(spec, "--emit-slurm", out, "--slurm-tasks", "1", "--slurm-log-dir", logs,
                  "--slurm-work-dir", local)
        self.assertEqual(p.returncode, 0, p.stderr)
        self.assertTrue(os.path.isdir(logs), "the log directory must exist before sbatch")
        with open(os.path.join(out, "sweep.sbatch")) as f:
            script = f.read()
        self.assertIn("#SBATCH --output=%s/%%A_%%a.out\n" % logs, script)
        env = dict(os.environ, SLURM_ARRAY_TASK_ID="0", SLURM_ARRAY_JOB_ID="77", PYTHON=PY)
        t = subprocess.run(["bash", os.path.join(out, "sweep.sbatch")], env=env,
                           capture_output=True, text=True, timeout=300)
        self.assertEqual(t.returncode, 0, t.stderr)
        shared = os.path.join(out, "db", "task-0.db")
        self.assertEqual(count(shared), 2)
        commands = [c for (c,) in query(shared, "SELECT command FROM sweep_runs")]
        self.assertEqual(len(commands), 2)
        self.assertTrue(all("--db=%s/s-77-0/task-0.db" % local in c for c in commands),
                        commands)
        self.assertFalse(os.path.exists(os.path.join(local, "s-77-0")), "scratch left behind")
        # Resubmitted (another job id, another node): starts from the shared database.
        env["SLURM_ARRAY_JOB_ID"] = "78"
        t = subprocess.run(["bash", os.path.join(out, "sweep.sbatch")], env=env,
                           capture_output=True, text=True, timeout=300)
        self.assertEqual(t.returncode, 0, t.stderr)
        self.assertIn("2 skipped as complete", t.stderr)
        self.assertEqual(count(shared), 2)


class TestProgramDatabase(unittest.TestCase):
    """nine-city-training and its results database: a bad database is refused before the
    simulation, with its cause and exit status 2; the run_rounds view; the bytes of a partial
    last segment under aggregation."""

    ARGS = ["--modelBytes=200e3", "--rounds=1"]

    def run_program(self, *args):
        return subprocess.run([os.path.join(BUILD, "nine-city-training")] + self.ARGS +
                              list(args), capture_output=True, text=True, timeout=300)

    def expect_refused(self, db, *needles, preexec=None):
        p = subprocess.run([os.path.join(BUILD, "nine-city-training"), "--db=" + db] +
                           self.ARGS, capture_output=True, text=True, timeout=300,
                           preexec_fn=preexec)
        self.assertEqual(p.returncode, 2, p.stdout + p.stderr)
        self.assertIn("error: results database %s:" % db, p.stderr)
        for n in needles:
            self.assertIn(n, p.stderr)
        # Refused before the simulation: no round was simulated, no summary printed.
        self.assertNotIn("clique-rounds", p.stdout)
        self.assertNotIn("Per-round summary", p.stdout)

    def test_bad_databases_refused_before_the_simulation(self):
        d = workdir("program-db")
        text = write(os.path.join(d, "text.db"), "not a database\n" * 100)
        self.expect_refused(text, "corrupt, or not an SQLite database")
        foreign = os.path.join(d, "foreign.db")
        con = sqlite3.connect(foreign)
        con.execute("CREATE TABLE moz_places(id INTEGER)")
        con.commit()
        con.close()
        self.expect_refused(foreign, "not a results database")
        newer = os.path.join(d, "newer.db")
        p = self.run_program("--db=" + newer, "--quiet=1")
        self.assertEqual(p.returncode, 0, p.stderr)
        con = sqlite3.connect(newer)
        con.execute("PRAGMA user_version = 3")
        con.close()
        self.expect_refused(newer, "newer version", "schema 3")
        self.expect_refused(d, "is a directory")
        self.expect_refused(os.path.join(d, "missing", "r.db"), "does not exist")
        # A run key already complete: refused before simulating it again.
        p = self.run_program("--db=" + newer.replace("newer", "keys"), "--runKey=k", "--quiet=1")
        self.assertEqual(p.returncode, 0, p.stderr)
        self.expect_refused_key(newer.replace("newer", "keys"))

    def test_read_only_database_refused_before_the_simulation(self):
        d = workdir("program-db-ro")
        newer = os.path.join(d, "base.db")
        p = self.run_program("--db=" + newer, "--quiet=1")
        self.assertEqual(p.returncode, 0, p.stderr)
        # Read-only (file permissions bind root only through another user).
        scratch = tempfile.mkdtemp(prefix="ro-db-")
        try:
            os.chmod(scratch, 0o755)
            ro = os.path.join(scratch, "ro.db")
            shutil.copy(newer, ro)
            con = sqlite3.connect(ro)
            con.execute("PRAGMA user_version = 2")
            con.close()
            os.chmod(ro, 0o444)

            def as_nobody():
                if os.geteuid() == 0:
                    os.setgid(65534)
                    os.setuid(65534)
            program = os.path.join(BUILD, "nine-city-training")
            if subprocess.run(["test", "-x", program], preexec_fn=as_nobody).returncode != 0:
                self.skipTest("read-only database case not run: as root it runs as uid 65534, "
                              "who cannot reach %s (a parent directory lacks o+x, e.g. a "
                              "mktemp clone)" % program)
            self.expect_refused(ro, "read-only", preexec=as_nobody)
        finally:
            shutil.rmtree(scratch, ignore_errors=True)

    def expect_refused_key(self, db):
        p = self.run_program("--db=" + db, "--runKey=k")
        self.assertEqual(p.returncode, 2, p.stderr)
        self.assertIn("'k' is already recorded as complete", p.stderr)
        self.assertNotIn("clique-rounds", p.stdout)
        self.assertEqual(query(db, "SELECT COUNT(*) FROM runs"), [(1,)])

    def test_run_rounds_view(self):
        d = workdir("program-view")
        db = os.path.join(d, "r.db")
        for extra in ([], ["--linkRate=2e9", "--mode=multicast"]):
            p = self.run_program("--db=" + db, "--quiet=1", "--schedule=3x3-rotating", *extra)
            self.assertEqual(p.returncode, 0, p.stderr)
        rows = query(db, "SELECT run_id, round, cliques, round_time_s, patterns, link_rate_bps "
                         "FROM run_rounds ORDER BY run_id, round")
        self.assertEqual(len(rows), 2)
        by_rounds = dict(((r, rd), t) for r, rd, _, t, _, _ in rows)
        for run_id, rnd, cliques, round_time, patterns, rate in rows:
            self.assertEqual(cliques, 3)
            want = query(db, "SELECT MAX(end_s) - MIN(start_s) FROM rounds WHERE run_id = ? "
                             "AND round = ?", (run_id, rnd))[0][0]
            self.assertAlmostEqual(round_time, want, places=12)
        # Every clique's pattern is recorded (PatternName): unicast mode runs all-to-all.
        self.assertEqual(rows[0][4], "all-to-all,all-to-all,all-to-all")
        self.assertEqual(rows[1][4], "multicast,multicast,multicast")
        self.assertEqual(rows[0][5], 10e9)  # the topology's private links, not 0 ("default")
        self.assertEqual(rows[1][5], 2e9)
        self.assertTrue(by_rounds)

    def test_aggregation_counts_a_partial_last_segment_as_partial(self):
        # 10 000 bytes in segments of 8 192: 8 192 + 1 808. Every island receives exactly the
        # model per round, not two full segments (16 384).
        d = workdir("program-partial")
        db = os.path.join(d, "r.db")
        p = subprocess.run([os.path.join(BUILD, "nine-city-training"), "--db=" + db,
                            "--modelBytes=10000", "--segmentSize=8192", "--mode=aggregation",
                            "--schedule=all-in-one", "--rounds=2", "--quiet=1"],
                           capture_output=True, text=True, timeout=300)
        self.assertEqual(p.returncode, 0, p.stderr)
        received = query(db, "SELECT island, round, bytes_received FROM island_rounds")
        self.assertEqual(len(received), 18)
        self.assertTrue(all(r[2] == 10000 for r in received), received)
        segments = query(db, "SELECT segments FROM aggregation")
        self.assertTrue(segments and all(s == (2,) for s in segments), segments)


def main():
    global SRC, BUILD, WORK
    ap = argparse.ArgumentParser()
    ap.add_argument("--source-dir", required=True)
    ap.add_argument("--build-dir", required=True)
    ap.add_argument("--work-dir", required=True)
    args, rest = ap.parse_known_args()
    SRC, BUILD, WORK = (os.path.abspath(p) for p in (args.source_dir, args.build_dir,
                                                     args.work_dir))
    os.makedirs(WORK, exist_ok=True)
    if not os.path.isfile(os.path.join(BUILD, "nine-city-training")):
        sys.exit("test_sweep: %s/nine-city-training is not built" % BUILD)
    unittest.main(argv=[sys.argv[0]] + rest)


if __name__ == "__main__":
    main()
