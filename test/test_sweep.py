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
        self.check("rounds = 1, many\n", 2, "rounds expects a number", "'many'")

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
                     "program = %s %s\ncrash = 0, 1\nmodelBytes = 200e3, 0.5\nrounds = 1\n" %
                     (crasher, real))
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
        self.assertIn("modelBytes", errors[0][1].split("stderr (tail)")[1])
        self.assertEqual(json.loads(errors[0][5])["modelBytes"], 0.5)
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
              "'runs_key') ORDER BY name"
        self.assertEqual(query(by_sweep, sql), query(by_program, sql))
        self.assertEqual(query(by_sweep, "PRAGMA journal_mode"), [("wal",)])


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
