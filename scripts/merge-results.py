#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0-only
"""Merge results databases (e.g. the per-task databases of a SLURM sweep) into one.

    scripts/merge-results.py OUT.db IN1.db IN2.db ...

OUT.db is created if needed (WAL mode, like every results database). Every input is checked
first (scripts/results_db.py): an input written by a newer version, another application's
database or a corrupt file is refused with its cause. For each input, in one transaction:
  * every table and index of the input that OUT lacks is created with the input's own
    CREATE statement (so tables added by later modules, e.g. training-proxy loss curves, come
    along without this script knowing them);
  * rows of `runs` are appended with a new run_id, except rows whose run_key is already
    'complete' in OUT (the run is there) and rows identical to one OUT holds (same run_key,
    status and created_at: merging an input twice adds nothing);
  * rows of every other table with a run_id column follow their run, run_id renumbered; a
    table's own INTEGER PRIMARY KEY (other than run_id) is left to OUT to assign;
  * rows of tables without run_id (meta, sweep_runs) are inserted unless the same primary key
    exists;
  * a column of the input that OUT's table lacks (a table of an older schema) is added to OUT;
    views of the input that OUT lacks are created.
A run key is never 'complete' twice in OUT (unique index runs_complete_key).

Standard library only. Exit status 0 on success, 2 on error (nothing of the failing input is
kept; inputs merged before it stay merged).
"""

import os
import sqlite3
import sys

import results_db


def quote(name):
    return '"%s"' % name.replace('"', '""')


def tables(con, schema="main"):
    """{name: create sql} of user tables."""
    return {name: sql for name, sql in con.execute(
        "SELECT name, sql FROM %s.sqlite_master WHERE type = 'table' AND name NOT LIKE "
        "'sqlite_%%'" % schema)}


def columns(con, schema, table):
    """[(name, type, pk)] of a table."""
    return [(r[1], (r[2] or "").upper(), r[5])
            for r in con.execute("PRAGMA %s.table_info(%s)" % (schema, quote(table)))]


def check_input(path):
    """Refuse an input that is not a results database this script can read."""
    if not os.path.isfile(path):
        raise RuntimeError("no such file")
    try:
        src = sqlite3.connect("file:%s?mode=ro" % os.path.abspath(path), uri=True,
                              timeout=results_db.BUSY_TIMEOUT_S)
    except sqlite3.Error as e:
        raise RuntimeError(results_db.describe(path, e))
    try:
        results_db.inspect(src, path)
    except sqlite3.Error as e:
        raise RuntimeError(results_db.describe(path, e))
    except results_db.DatabaseError as e:
        raise RuntimeError(str(e))
    finally:
        src.close()


def merge_one(con, path):
    """Merge database \\p path into the open OUT connection; returns counts."""
    check_input(path)
    con.execute("ATTACH DATABASE ? AS src", (os.path.abspath(path),))
    try:
        con.execute("BEGIN IMMEDIATE")
        try:
            counts = _merge_attached(con, path)
            con.execute("COMMIT")
        except BaseException:
            if con.in_transaction:  # (a failed statement may have ended it: keep its error)
                con.execute("ROLLBACK")
            raise
    finally:
        con.execute("DETACH DATABASE src")
    return counts


def _merge_attached(con, path):
    src_tables = tables(con, "src")
    if "runs" not in src_tables:
        raise RuntimeError("%s: not a results database (no table runs)" % path)
    out_tables = tables(con, "main")
    for name, sql in src_tables.items():
        if name not in out_tables:
            con.execute(sql)
        else:
            # An older OUT table lacks a newer column of the input: add it (nullable, as
            # every column added after a table's creation is).
            have = {c[0] for c in columns(con, "main", name)}
            for cname, ctype, _ in columns(con, "src", name):
                if cname not in have:
                    con.execute("ALTER TABLE main.%s ADD COLUMN %s %s" %
                                (quote(name), quote(cname), ctype))
    out_objects = {r[0] for r in con.execute(
        "SELECT name FROM main.sqlite_master WHERE type IN ('index', 'view')")}
    for name, kind, sql in con.execute(
            "SELECT name, type, sql FROM src.sqlite_master WHERE type IN ('index', 'view') AND "
            "sql IS NOT NULL").fetchall():
        if name not in out_objects:
            if name == "runs_complete_key":
                con.execute(results_db.RELABEL_DUPLICATES_SQL)
            con.execute(sql)

    # Columns present on both sides.
    def shared_columns(table):
        out_cols = {c[0] for c in columns(con, "main", table)}
        return [c for c in columns(con, "src", table) if c[0] in out_cols]

    run_cols = [c[0] for c in shared_columns("runs") if c[0] != "run_id"]
    complete = {r[0] for r in con.execute(
        "SELECT DISTINCT run_key FROM main.runs WHERE status = 'complete' AND run_key IS NOT "
        "NULL")}
    # A run's identity: key, status, creation time (to the microsecond since 2026-12-07, to
    # the second before) and its parameters (every setting): two different runs made in the
    # same second are two runs; the very same row merged twice is one.
    existing = set(con.execute(
        "SELECT run_key, status, created_at, parameters FROM main.runs").fetchall())
    id_map = {}
    skipped = 0
    col_list = ", ".join(quote(c) for c in run_cols)
    key_at = run_cols.index("run_key")
    status_at = run_cols.index("status")
    created_at = run_cols.index("created_at")
    params_at = run_cols.index("parameters") if "parameters" in run_cols else None
    for row in con.execute("SELECT run_id, %s FROM src.runs ORDER BY run_id" %
                           col_list).fetchall():
        old_id, values = row[0], row[1:]
        key, status = values[key_at], values[status_at]
        identity = (key, status, values[created_at],
                    values[params_at] if params_at is not None else None)
        if (key is not None and key in complete) or identity in existing:
            skipped += 1
            continue
        cur = con.execute("INSERT INTO main.runs(%s) VALUES(%s)" %
                          (col_list, ", ".join("?" * len(values))), values)
        id_map[old_id] = cur.lastrowid
        existing.add(identity)
        if status == "complete" and key is not None:
            complete.add(key)

    rows = 0
    for table in src_tables:
        if table == "runs":
            continue
        cols = shared_columns(table)
        pks = [c for c in cols if c[2]]
        own_id = None
        if len(pks) == 1 and pks[0][1] == "INTEGER" and pks[0][0] != "run_id":
            own_id = pks[0][0]  # rowid alias: let OUT number it
        names = [c[0] for c in cols if c[0] != own_id]
        if not names:
            continue
        col_list_t = ", ".join(quote(c) for c in names)
        marks = ", ".join("?" * len(names))
        if "run_id" in names:
            at = names.index("run_id")
            for values in con.execute("SELECT %s FROM src.%s" % (col_list_t, quote(table))):
                new_id = id_map.get(values[at])
                if new_id is None:
                    continue  # its run was skipped (or the row is orphaned)
                values = list(values)
                values[at] = new_id
                con.execute("INSERT INTO main.%s(%s) VALUES(%s)" %
                            (quote(table), col_list_t, marks), values)
                rows += 1
        else:
            cur = con.execute("INSERT OR IGNORE INTO main.%s(%s) SELECT %s FROM src.%s" %
                              (quote(table), col_list_t, col_list_t, quote(table)))
            rows += max(cur.rowcount, 0)
    return len(id_map), skipped, rows


def main(argv):
    if len(argv) < 3 or argv[1] in ("-h", "--help"):
        sys.stderr.write(__doc__)
        return 0 if len(argv) > 1 and argv[1] in ("-h", "--help") else 2
    out, inputs = argv[1], argv[2:]
    out_abs = os.path.abspath(out)
    for path in inputs:
        # The same file under another name (a hard or symbolic link) is the same database.
        same = os.path.abspath(path) == out_abs or (
            os.path.exists(path) and os.path.exists(out) and os.path.samefile(path, out))
        if same:
            sys.stderr.write("merge-results: %s is both output and input\n" % path)
            return 2
    try:
        con = results_db.open_results(out)
    except results_db.DatabaseError as e:
        sys.stderr.write("merge-results: %s\n" % e)
        return 2
    try:
        total_runs = total_skipped = 0
        for path in inputs:
            try:
                runs, skipped, rows = merge_one(con, path)
            except (sqlite3.Error, RuntimeError) as e:
                sys.stderr.write("merge-results: %s: %s\n" % (path, e))
                return 2
            total_runs += runs
            total_skipped += skipped
            sys.stderr.write("merge-results: %s: %d runs added, %d skipped (already in %s), "
                             "%d other rows\n" % (path, runs, skipped, out, rows))
        sys.stderr.write("merge-results: %d runs added to %s from %d databases (%d skipped)\n" %
                         (total_runs, out, len(inputs), total_skipped))
    finally:
        con.close()
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
