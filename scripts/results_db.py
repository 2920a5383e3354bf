# SPDX-License-Identifier: GPL-2.0-only
"""Opening and checking results databases from Python (sweep.py, merge-results.py).

The same rules as the C++ ResultsDatabase (model/results-database.cc), for the part of the
schema the scripts write (tables meta and runs, the sweep's own table sweep_runs):

* a results database carries PRAGMA application_id APPLICATION_ID and PRAGMA user_version
  SCHEMA_VERSION; an unversioned database with meta.schema_version '1' is schema 1 (it gets
  the unique index below; the C++ side adds the rest of schema 2 when a program opens it);
* a newer schema, another application's database, a database without table runs, a corrupt
  file, a read-only one are refused with their cause, before anything runs;
* the switch to WAL mode is retried while another process holds a lock (SQLite does not wait
  there by itself), up to the busy timeout;
* a run key is recorded 'complete' at most once: unique index runs_complete_key (later
  duplicates of schema-1 databases are relabelled 'duplicate' first).

Standard library only.
"""

import os
import sqlite3
import time

SCHEMA_VERSION = 2
APPLICATION_ID = 0x494E4554  # "INET"
BUSY_TIMEOUT_S = 120.0

# Tables meta and runs and their indexes exactly as model/results-database.cc creates them
# (CREATE ... IF NOT EXISTS on both sides, so whichever opens the database first creates them;
# test_sweep.py checks they agree).
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
  wall_time_s REAL,
  transport TEXT,
  queue_disc TEXT,
  ecn INTEGER,
  queue_drops INTEGER,
  ecn_marks INTEGER,
  ecn_echoes INTEGER,
  ecn_reductions INTEGER,
  retransmitted_bytes INTEGER,
  fixed_point_overflows INTEGER,
  allocator TEXT);
CREATE INDEX IF NOT EXISTS runs_key ON runs(run_key);
CREATE UNIQUE INDEX IF NOT EXISTS runs_complete_key ON runs(run_key)
  WHERE status = 'complete' AND run_key IS NOT NULL;
"""

# What the sweep passed to each run (written by sweep.py, whatever the program records).
SWEEP_SCHEMA = """
CREATE TABLE IF NOT EXISTS sweep_runs(
  run_key TEXT PRIMARY KEY,
  program TEXT NOT NULL,
  parameters TEXT NOT NULL,
  command TEXT NOT NULL,
  spec TEXT,
  started_at TEXT NOT NULL);
"""

RELABEL_DUPLICATES_SQL = (
    "UPDATE runs SET status = 'duplicate' WHERE status = 'complete' AND run_key IS NOT NULL "
    "AND run_id NOT IN (SELECT MIN(run_id) FROM runs WHERE status = 'complete' AND run_key IS "
    "NOT NULL GROUP BY run_key)")

RUNS_COLUMNS = ("run_id", "run_key", "status", "error", "created_at", "program", "parameters",
                "wall_time_s")


class DatabaseError(Exception):
    """A results database that cannot be used; str() names the file and the cause."""


def cause_of(error):
    """The real cause of an sqlite3 error, in words."""
    name = getattr(error, "sqlite_errorname", "") or ""
    text = str(error)
    low = (name + " " + text).lower()
    if "notadb" in low or "not a database" in low or "corrupt" in low or "malformed" in low:
        return "corrupt, or not an SQLite database"
    if "busy" in low or "locked" in low:
        return "locked by another process for longer than the busy timeout (%g s)" % \
            BUSY_TIMEOUT_S
    if "readonly" in low or "read-only" in low:
        return "read-only: the file, its directory or the file system is not writable"
    if "full" in low:
        return "the disk is full (or the database reached its size limit)"
    if "cantopen" in low or "unable to open" in low:
        return "cannot open the file or create its journal (does the directory exist, and is " \
               "it writable?)"
    return "error"


def describe(path, error):
    return "results database %s: %s (SQLite: %s)" % (path, cause_of(error), error)


def connect(path, timeout=BUSY_TIMEOUT_S):
    return sqlite3.connect(path, timeout=timeout, isolation_level=None)


def retry(fn, timeout=BUSY_TIMEOUT_S):
    """Call fn() again while SQLite reports a lock, until \\p timeout seconds have passed."""
    deadline = time.monotonic() + timeout
    pause = 0.002
    while True:
        try:
            return fn()
        except sqlite3.OperationalError as e:
            if "locked" not in str(e) and "busy" not in str(e).lower():
                raise
            if time.monotonic() >= deadline:
                raise
            time.sleep(pause)
            pause = min(pause * 2, 0.1)


def switch_to_wal(con, path, timeout=BUSY_TIMEOUT_S):
    if con.execute("PRAGMA journal_mode").fetchone()[0] == "wal":
        return
    mode = retry(lambda: con.execute("PRAGMA journal_mode=WAL").fetchone()[0], timeout)
    if mode != "wal":
        raise DatabaseError("results database %s: cannot switch to WAL mode (the journal mode "
                            "stays '%s'; WAL needs shared memory: is the file on a network file "
                            "system?)" % (path, mode))


def inspect(con, path):
    """(application_id, user_version, {table: [columns]}) of an open database; raises
    DatabaseError unless it is empty or a results database this code can use."""
    app = retry(lambda: con.execute("PRAGMA application_id").fetchone()[0])
    version = con.execute("PRAGMA user_version").fetchone()[0]
    tables = {}
    for (name,) in con.execute("SELECT name FROM sqlite_master WHERE type = 'table' AND name "
                               "NOT LIKE 'sqlite_%'").fetchall():
        tables[name] = [r[1] for r in con.execute("PRAGMA table_info(\"%s\")" %
                                                  name.replace('"', '""'))]
    if app not in (0, APPLICATION_ID):
        raise DatabaseError("results database %s: not a results database: it belongs to another "
                            "application (application_id 0x%08X)" % (path, app & 0xFFFFFFFF))
    if version > SCHEMA_VERSION:
        raise DatabaseError("results database %s: written by a newer version of "
                            "intelligent-network (schema %d; this script knows schemas up to %d)"
                            ": use newer scripts, or another database" %
                            (path, version, SCHEMA_VERSION))
    if app == 0 and tables:
        v1 = None
        if "meta" in tables and "runs" in tables:
            row = con.execute("SELECT value FROM meta WHERE key = 'schema_version'").fetchone()
            v1 = row[0] if row else None
        if v1 is None:
            raise DatabaseError("results database %s: not a results database of "
                                "intelligent-network (no application id, no schema_version in a "
                                "table meta; its tables: %s)" % (path, ", ".join(sorted(tables))))
        if str(v1) != "1":
            raise DatabaseError("results database %s: written by a newer version of "
                                "intelligent-network (meta schema_version %s; this script knows "
                                "schemas up to %d)" % (path, v1, SCHEMA_VERSION))
    if "runs" in tables:
        missing = [c for c in RUNS_COLUMNS if c not in tables["runs"]]
        if missing:
            raise DatabaseError("results database %s: table 'runs' has no column '%s' (not a "
                                "results database of this module, or a damaged one)" %
                                (path, missing[0]))
    return app, version, tables


def open_results(path, extra_schema="", timeout=BUSY_TIMEOUT_S):
    """Open (creating if needed) results database \\p path for appending: checked, writable,
    in WAL mode, tables meta and runs (plus \\p extra_schema) present. Returns the connection;
    raises DatabaseError with the cause."""
    if os.path.isdir(path):
        raise DatabaseError("results database %s: is a directory, not a database file" % path)
    directory = os.path.dirname(os.path.abspath(path))
    if not os.path.isdir(directory):
        raise DatabaseError("results database %s: its directory %s does not exist" %
                            (path, directory))
    try:
        con = connect(path, timeout)
    except sqlite3.Error as e:
        raise DatabaseError(describe(path, e))
    try:
        app, version, tables = inspect(con, path)
        switch_to_wal(con, path, timeout)
        retry(lambda: con.execute("BEGIN IMMEDIATE"), timeout)
        try:
            if "runs" in tables:
                con.execute(RELABEL_DUPLICATES_SQL)
            for stmt in (RUNS_SCHEMA + extra_schema).split(";"):
                if stmt.strip():
                    con.execute(stmt)
            if not tables:  # a new database: schema 2 from the start
                con.execute("PRAGMA user_version = %d" % SCHEMA_VERSION)
                con.execute("PRAGMA application_id = %d" % APPLICATION_ID)
                con.execute("INSERT OR REPLACE INTO meta(key, value) VALUES('schema_version', "
                            "'%d')" % SCHEMA_VERSION)
            # A write, so that a read-only file fails here (root ignores file permissions).
            con.execute("INSERT OR REPLACE INTO meta(key, value) VALUES('opened_at', ?)",
                        (time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),))
            con.execute("COMMIT")
        except BaseException:
            if con.in_transaction:
                con.execute("ROLLBACK")
            raise
        return con
    except sqlite3.Error as e:
        con.close()
        raise DatabaseError(describe(path, e))
    except BaseException:
        con.close()
        raise
