/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
// GoogleTest: ResultsDatabase schema, append-only runs, atomic transactions, concurrent writers
// (40 processes on a fresh database, a writer holding the lock during the WAL switch), bad
// databases rejected on open with their real cause, a full disk, duplicate run keys, the
// upgrade from schema 1 and the run_rounds view.

#include "gtest-util.h"

#include "ns3/heap-allocator.h"
#include "ns3/results-database.h"
#include "ns3/scenario-result.h"

#include <sqlite3.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <sstream>
#include <thread>

using namespace ns3;
using ns3::testutil::TempDir;

namespace
{

int64_t
CountRows(ResultsDatabase& db, const std::string& table)
{
    return std::get<int64_t>(db.Query("SELECT COUNT(*) FROM " + table).at(0).at(0));
}

int64_t
WriteOneRun(ResultsDatabase& db, const std::string& key)
{
    RunRecord run;
    run.runKey = key;
    run.program = "gtest";
    run.mode = "unicast";
    run.modelBytes = 1000;
    db.Begin();
    int64_t id = db.InsertRun(run, "complete", 1.5, 0.1);
    db.InsertRound(id, RoundRecord{0, 0, "AMS+FRA", 0.0, 1.0, 2000, 0});
    db.InsertIslandRound(id, IslandRoundRecord{0, "AMS", 0, 0.0, 0.1, 1.0, 1000, 1000, 0});
    db.InsertLink(id, LinkRecord{"AMS1-FRA1", "private", "AMS1", "FRA1", 1e10, 2100, 3, 2000, 0.5, 0.33});
    db.Commit();
    return id;
}

} // namespace

TEST(ResultsDatabase, RunsAppendAndNeverOverwrite)
{
    TempDir dir;
    std::string path = dir.Path() + "/r.db";
    {
        ResultsDatabase db(path);
        EXPECT_EQ(WriteOneRun(db, "k1"), 1);
    }
    {
        ResultsDatabase db(path); // reopening keeps the rows
        EXPECT_EQ(WriteOneRun(db, "k2"), 2);
        EXPECT_EQ(CountRows(db, "runs"), 2);
        EXPECT_EQ(CountRows(db, "rounds"), 2);
        EXPECT_TRUE(db.HasCompleteRun("k1"));
        EXPECT_FALSE(db.HasCompleteRun("k3"));
        auto rows = db.Query("SELECT duration_s, members FROM rounds WHERE run_id = 2");
        EXPECT_DOUBLE_EQ(std::get<double>(rows.at(0).at(0)), 1.0);
        EXPECT_EQ(std::get<std::string>(rows.at(0).at(1)), "AMS+FRA");
        auto ver = db.Query("SELECT version FROM runs WHERE run_id = 1");
        EXPECT_EQ(std::get<std::string>(ver.at(0).at(0)), ResultsDatabase::ModuleVersion());
        // The heap allocator serving this process (heap-allocator-gtest.cc checks which).
        auto allocator = db.Query("SELECT allocator FROM runs WHERE run_id = 1");
        EXPECT_EQ(std::get<std::string>(allocator.at(0).at(0)), HeapAllocator());
    }
}

TEST(ResultsDatabase, RolledBackRunLeavesNothing)
{
    TempDir dir;
    ResultsDatabase db(dir.Path() + "/r.db");
    RunRecord run;
    db.Begin();
    int64_t id = db.InsertRun(run, "complete", 0, 0);
    db.InsertRound(id, RoundRecord{0, 0, "A", 0, 1, 1, 0});
    db.Rollback();
    EXPECT_EQ(CountRows(db, "runs"), 0);
    EXPECT_EQ(CountRows(db, "rounds"), 0);
    // A duplicate primary key is refused, not overwritten.
    WriteOneRun(db, "x");
    EXPECT_THROW(db.InsertRound(1, RoundRecord{0, 0, "B", 0, 1, 1, 0}), std::runtime_error);
}

TEST(ResultsDatabase, ConcurrentWritersLoseNoRow)
{
    TempDir dir;
    std::string path = dir.Path() + "/r.db";
    { ResultsDatabase db(path); }
    const int perProcess = 40;
    std::vector<pid_t> children;
    for (int p = 0; p < 3; ++p)
    {
        pid_t pid = fork();
        ASSERT_GE(pid, 0);
        if (pid == 0)
        {
            int rc = 0;
            try
            {
                ResultsDatabase db(path);
                for (int i = 0; i < perProcess; ++i)
                {
                    WriteOneRun(db, "p" + std::to_string(p) + "-" + std::to_string(i));
                }
            }
            catch (...)
            {
                rc = 1;
            }
            _exit(rc);
        }
        children.push_back(pid);
    }
    for (pid_t c : children)
    {
        int status = 0;
        waitpid(c, &status, 0);
        EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0);
    }
    ResultsDatabase db(path);
    EXPECT_EQ(CountRows(db, "runs"), 3 * perProcess);
    EXPECT_EQ(CountRows(db, "links"), 3 * perProcess);
}

TEST(ResultsDatabase, UnopenablePathIsAClearError)
{
    try
    {
        ResultsDatabase db("/nonexistent-dir/x/r.db");
        FAIL() << "expected an error";
    }
    catch (const std::runtime_error& e)
    {
        EXPECT_NE(std::string(e.what()).find("/nonexistent-dir/x/r.db"), std::string::npos);
    }
}

namespace
{

/// Run \p sql on \p path with a plain SQLite connection (as another program would).
void
RawExec(const std::string& path, const std::string& sql)
{
    sqlite3* db = nullptr;
    ASSERT_EQ(sqlite3_open(path.c_str(), &db), SQLITE_OK);
    char* err = nullptr;
    int rc = sqlite3_exec(db, sql.c_str(), nullptr, nullptr, &err);
    EXPECT_EQ(rc, SQLITE_OK) << (err ? err : "") << " in " << sql;
    sqlite3_free(err);
    sqlite3_close(db);
}

/// Open \p path; expect Error with \p cause whose message names the path and holds \p text.
void
ExpectRejected(const std::string& path, ResultsDatabase::Error::Cause cause, const std::string& text)
{
    try
    {
        ResultsDatabase db(path, 2.0);
        ADD_FAILURE() << path << ": opened, expected " << ResultsDatabase::Error::CauseName(cause);
    }
    catch (const ResultsDatabase::Error& e)
    {
        EXPECT_EQ(e.GetCause(), cause) << e.what();
        EXPECT_NE(std::string(e.what()).find(path), std::string::npos) << e.what();
        EXPECT_NE(std::string(e.what()).find(text), std::string::npos) << e.what();
    }
}

/// Run \p fn in a child process without root's privileges (file permissions then apply);
/// returns the child's exit status (fn's return value; 99 if it threw).
int
AsUnprivilegedChild(const std::function<int()>& fn)
{
    pid_t pid = fork();
    if (pid == 0)
    {
        int rc = 99;
        if (geteuid() != 0 || (setgid(65534) == 0 && setuid(65534) == 0))
        {
            try
            {
                rc = fn();
            }
            catch (...)
            {
            }
        }
        _exit(rc);
    }
    int status = 0;
    waitpid(pid, &status, 0);
    return WIFEXITED(status) ? WEXITSTATUS(status) : 98;
}

/// Cause of the error opening \p path (as an int), or 0 if it opened.
int
OpenCause(const std::string& path)
{
    try
    {
        ResultsDatabase db(path, 2.0);
        return 0;
    }
    catch (const ResultsDatabase::Error& e)
    {
        std::string what = e.what();
        bool named = what.find(path) != std::string::npos && what.find("read-only") != std::string::npos;
        return named ? 100 + e.GetCause() : 50;
    }
}

} // namespace

TEST(ResultsDatabase, WalSwitchWaitsForAWriterHoldingTheLock)
{
    // Another process holds the write lock of a new database (not yet in WAL mode) for half a
    // second. Opening must wait for it (the busy timeout) instead of failing at once with
    // "database is locked" in the switch to WAL, which SQLite does not retry by itself.
    // (No SQLite connection may cross a fork: the holder and the writer are both children.)
    TempDir dir;
    std::string path = dir.Path() + "/r.db";
    int ready[2];
    ASSERT_EQ(pipe(ready), 0);
    pid_t holderPid = fork();
    ASSERT_GE(holderPid, 0);
    if (holderPid == 0)
    {
        sqlite3* holder = nullptr;
        int rc = sqlite3_open(path.c_str(), &holder) == SQLITE_OK &&
                         sqlite3_exec(holder, "BEGIN IMMEDIATE;", nullptr, nullptr, nullptr) ==
                             SQLITE_OK
                     ? 0
                     : 1;
        (void)!write(ready[1], "x", 1);
        std::this_thread::sleep_for(std::chrono::milliseconds(500));
        rc |= sqlite3_exec(holder, "COMMIT;", nullptr, nullptr, nullptr) == SQLITE_OK ? 0 : 2;
        sqlite3_close(holder);
        _exit(rc);
    }
    char c;
    ASSERT_EQ(read(ready[0], &c, 1), 1);
    pid_t pid = fork();
    ASSERT_GE(pid, 0);
    if (pid == 0)
    {
        int rc = 1;
        try
        {
            ResultsDatabase db(path, 10.0);
            WriteOneRun(db, "after-the-lock");
            rc = 0;
        }
        catch (const std::exception& e)
        {
            std::fprintf(stderr, "child: %s\n", e.what());
        }
        _exit(rc);
    }
    int status = 0;
    waitpid(holderPid, &status, 0);
    EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0) << "the holder failed";
    waitpid(pid, &status, 0);
    EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0) << "the writer gave up";
    ResultsDatabase db(path);
    EXPECT_EQ(CountRows(db, "runs"), 1);
    EXPECT_EQ(std::get<std::string>(db.Query("PRAGMA journal_mode").at(0).at(0)), "wal");
}

TEST(ResultsDatabase, FortyConcurrentWritersOnAFreshDatabaseLoseNoRun)
{
    // Three trials: 40 processes released together on a database that does not exist yet, each
    // opening it (creation, WAL switch, schema) and appending one run. Every run must land.
    const int writers = 40;
    for (int trial = 0; trial < 3; ++trial)
    {
        TempDir dir;
        std::string path = dir.Path() + "/r.db";
        int gate[2];
        ASSERT_EQ(pipe(gate), 0);
        std::vector<pid_t> children;
        for (int p = 0; p < writers; ++p)
        {
            pid_t pid = fork();
            ASSERT_GE(pid, 0);
            if (pid == 0)
            {
                close(gate[1]);
                char c;
                (void)!read(gate[0], &c, 1); // returns when the parent closes the pipe
                int rc = 1;
                try
                {
                    ResultsDatabase db(path);
                    WriteOneRun(db, "t" + std::to_string(trial) + "-w" + std::to_string(p));
                    rc = 0;
                }
                catch (const std::exception& e)
                {
                    std::fprintf(stderr, "writer %d: %s\n", p, e.what());
                }
                _exit(rc);
            }
            children.push_back(pid);
        }
        close(gate[0]);
        close(gate[1]); // release them all at once
        int failed = 0;
        for (pid_t c : children)
        {
            int status = 0;
            waitpid(c, &status, 0);
            failed += WIFEXITED(status) && WEXITSTATUS(status) == 0 ? 0 : 1;
        }
        EXPECT_EQ(failed, 0) << "trial " << trial;
        ResultsDatabase db(path);
        EXPECT_EQ(CountRows(db, "runs"), writers) << "trial " << trial;
        EXPECT_EQ(CountRows(db, "rounds"), writers) << "trial " << trial;
        EXPECT_EQ(CountRows(db, "links"), writers) << "trial " << trial;
    }
}

TEST(ResultsDatabase, BadDatabasesAreRejectedOnOpenWithTheirCause)
{
    using E = ResultsDatabase::Error;
    TempDir dir;
    // Not an SQLite file at all.
    std::string text = dir.Write("text.db", "run,time\n1,2\n");
    ExpectRejected(text, E::CORRUPT, "corrupt, or not an SQLite database");
    // A results database cut short (a copy interrupted, a disk error).
    std::string good = dir.Path() + "/good.db";
    {
        ResultsDatabase db(good);
        for (int i = 0; i < 50; ++i)
        {
            WriteOneRun(db, "k" + std::to_string(i));
        }
    }
    std::string cut = dir.Path() + "/cut.db";
    ASSERT_EQ(std::system(("head -c 6000 " + good + " > " + cut).c_str()), 0);
    ExpectRejected(cut, E::CORRUPT, "corrupt");
    // Another program's SQLite database, with and without an application id.
    std::string other = dir.Path() + "/other.db";
    RawExec(other, "CREATE TABLE moz_places(id INTEGER, url TEXT);");
    ExpectRejected(other, E::WRONG_SCHEMA, "its tables: moz_places");
    std::string app = dir.Path() + "/app.db";
    RawExec(app, "PRAGMA application_id = 1234; CREATE TABLE runs(x);");
    ExpectRejected(app, E::WRONG_SCHEMA, "another application");
    // Our table names, wrong columns.
    std::string wrong = dir.Path() + "/wrong.db";
    RawExec(wrong, "CREATE TABLE meta(key TEXT PRIMARY KEY, value TEXT);"
                   "INSERT INTO meta VALUES('schema_version', '1');"
                   "CREATE TABLE runs(run_id INTEGER PRIMARY KEY, status TEXT);");
    ExpectRejected(wrong, E::WRONG_SCHEMA, "table 'runs' has no column 'run_key'");
    // Written by a newer version (versioned, and an unversioned meta row).
    std::string newer = dir.Path() + "/newer.db";
    { ResultsDatabase db(newer); }
    RawExec(newer, "PRAGMA user_version = 3;");
    ExpectRejected(newer, E::NEWER_VERSION, "schema 3; this program knows schemas up to 2");
    std::string newer1 = dir.Path() + "/newer1.db";
    RawExec(newer1, "CREATE TABLE meta(key TEXT PRIMARY KEY, value TEXT);"
                    "INSERT INTO meta VALUES('schema_version', '7');"
                    "CREATE TABLE runs(run_id INTEGER PRIMARY KEY);");
    ExpectRejected(newer1, E::NEWER_VERSION, "schema_version 7");
    // A directory, a missing directory.
    ExpectRejected(dir.Path(), E::CANNOT_OPEN, "is a directory");
    ExpectRejected(dir.Path() + "/no/such/r.db", E::CANNOT_OPEN, "does not exist");
    // Nothing of the rejected files was changed (no schema added to a foreign database).
    sqlite3* db = nullptr;
    ASSERT_EQ(sqlite3_open(other.c_str(), &db), SQLITE_OK);
    sqlite3_stmt* stmt = nullptr;
    sqlite3_prepare_v2(db, "SELECT COUNT(*) FROM sqlite_master", -1, &stmt, nullptr);
    ASSERT_EQ(sqlite3_step(stmt), SQLITE_ROW);
    EXPECT_EQ(sqlite3_column_int(stmt, 0), 1);
    sqlite3_finalize(stmt);
    sqlite3_close(db);
}

TEST(ResultsDatabase, ReadOnlyFileAndDirectoryAreRejectedOnOpen)
{
    // File permissions do not bind root: the checks run in a child without privileges.
    TempDir dir;
    ASSERT_EQ(chmod(dir.Path().c_str(), 0755), 0);
    std::string ro = dir.Path() + "/ro.db";
    {
        ResultsDatabase db(ro);
        WriteOneRun(db, "k");
    }
    ASSERT_EQ(chmod(ro.c_str(), 0444), 0);
    EXPECT_EQ(AsUnprivilegedChild([&] { return OpenCause(ro); }),
              100 + ResultsDatabase::Error::READ_ONLY);
    // A new database in a directory nobody may write to.
    std::string sub = dir.Path() + "/locked";
    ASSERT_EQ(mkdir(sub.c_str(), 0555), 0);
    int cause = AsUnprivilegedChild([&] {
        try
        {
            ResultsDatabase db(sub + "/r.db", 2.0);
            return 0;
        }
        catch (const ResultsDatabase::Error& e)
        {
            bool named = std::string(e.what()).find(sub + "/r.db") != std::string::npos;
            return named ? 100 + e.GetCause() : 50;
        }
    });
    EXPECT_TRUE(cause == 100 + ResultsDatabase::Error::CANNOT_OPEN ||
                cause == 100 + ResultsDatabase::Error::READ_ONLY)
        << cause;
}

TEST(ResultsDatabase, FullDiskIsReportedAsSuchAndLeavesNoPartialRun)
{
    // A database at its size limit fails like a full disk (SQLITE_FULL). SQLite then rolls the
    // transaction back itself; the error must say "disk is full", not "cannot rollback - no
    // transaction is active", and no part of the run may remain.
    TempDir dir;
    ResultsDatabase db(dir.Path() + "/full.db");
    WriteOneRun(db, "first");
    int64_t pages = std::get<int64_t>(db.Query("PRAGMA page_count").at(0).at(0));
    db.Exec("PRAGMA max_page_count = " + std::to_string(pages + 2) + ";");
    ScenarioResult result;
    result.complete = true;
    for (uint32_t r = 0; r < 20000; ++r)
    {
        result.rounds.push_back(RoundRecord{r, 0, "AMS+BAR+FRA+LAX+LON+NYC+SEO+SIN+TYO", 0.0, 1.0,
                                            100000000, 0});
    }
    RunRecord run;
    run.runKey = "big";
    try
    {
        result.Write(db, run);
        FAIL() << "expected a full disk";
    }
    catch (const ResultsDatabase::Error& e)
    {
        EXPECT_EQ(e.GetCause(), ResultsDatabase::Error::DISK_FULL) << e.what();
        EXPECT_NE(std::string(e.what()).find("the disk is full"), std::string::npos) << e.what();
        EXPECT_EQ(std::string(e.what()).find("cannot rollback"), std::string::npos) << e.what();
    }
    EXPECT_EQ(CountRows(db, "runs"), 1);
    EXPECT_EQ(CountRows(db, "rounds"), 1);
}

TEST(ResultsDatabase, ACompleteRunKeyIsRecordedOnce)
{
    TempDir dir;
    std::string path = dir.Path() + "/r.db";
    ResultsDatabase db(path);
    WriteOneRun(db, "k1");
    RunRecord run;
    run.runKey = "k1";
    try
    {
        db.InsertRun(run, "complete", 1, 1);
        FAIL() << "a second complete row for k1";
    }
    catch (const ResultsDatabase::Error& e)
    {
        EXPECT_EQ(e.GetCause(), ResultsDatabase::Error::DUPLICATE_RUN) << e.what();
    }
    // Failed attempts are history: any number of them.
    db.InsertRun(run, "failed", 0, 0, "first try");
    db.InsertRun(run, "failed", 0, 0, "second try");
    RunRecord other;
    db.InsertRun(other, "complete", 1, 1); // runs without a key are not constrained
    db.InsertRun(other, "complete", 1, 1);
    EXPECT_EQ(CountRows(db, "runs"), 5);
    // A program asked to run a key that is complete refuses before it simulates.
    try
    {
        ResultsDatabase::OpenForRun(path, "k1");
        FAIL() << "OpenForRun accepted a complete key";
    }
    catch (const ResultsDatabase::Error& e)
    {
        EXPECT_EQ(e.GetCause(), ResultsDatabase::Error::DUPLICATE_RUN) << e.what();
        EXPECT_NE(std::string(e.what()).find("'k1' is already recorded as complete"),
                  std::string::npos);
    }
    EXPECT_NE(ResultsDatabase::OpenForRun(path, "k2"), nullptr);
    EXPECT_EQ(ResultsDatabase::OpenForRun("none", "k1"), nullptr);
    EXPECT_EQ(ResultsDatabase::OpenForRun("", ""), nullptr);
}

TEST(ResultsDatabase, SchemaOneIsUpgraded)
{
    // A database of the unversioned schema 1, holding a key recorded complete twice (as an
    // orphaned run could before): it opens, becomes schema 2, keeps every row, and the later
    // duplicate is relabelled so that the unique index can hold.
    TempDir dir;
    std::string path = dir.Path() + "/old.db";
    std::string v1 = ResultsDatabase::SchemaSql();
    v1 = v1.substr(0, v1.find("CREATE VIEW"));
    auto cut = [&](const std::string& from, const std::string& to) {
        auto a = v1.find(from);
        ASSERT_NE(a, std::string::npos) << from;
        v1.erase(a, v1.find(to, a) - a);
    };
    cut("CREATE UNIQUE INDEX", "CREATE TABLE IF NOT EXISTS rounds");
    cut("  pattern TEXT,\n", "  PRIMARY KEY(run_id, round, clique)");
    RawExec(path, v1 + "INSERT INTO meta VALUES('schema_version', '1');"
                       "INSERT INTO runs(run_key, status, created_at) VALUES('a', 'complete', 't1');"
                       "INSERT INTO runs(run_key, status, created_at) VALUES('a', 'complete', 't2');"
                       "INSERT INTO rounds VALUES(1, 0, 0, 'AMS', 0, 1, 1, 5, 0);");
    ResultsDatabase db(path);
    EXPECT_EQ(std::get<int64_t>(db.Query("PRAGMA user_version").at(0).at(0)), 2);
    EXPECT_EQ(std::get<int64_t>(db.Query("PRAGMA application_id").at(0).at(0)),
              ResultsDatabase::ApplicationId());
    auto rows = db.Query("SELECT run_id, status FROM runs ORDER BY run_id");
    ASSERT_EQ(rows.size(), 2u);
    EXPECT_EQ(std::get<std::string>(rows[0][1]), "complete");
    EXPECT_EQ(std::get<std::string>(rows[1][1]), "duplicate");
    EXPECT_TRUE(db.HasCompleteRun("a"));
    EXPECT_EQ(CountRows(db, "run_rounds"), 1);
    EXPECT_NE(WriteOneRun(db, "b"), 0);
}

TEST(ResultsDatabase, RunRoundsViewResolvesPatternsAndLinkRate)
{
    TempDir dir;
    ResultsDatabase db(dir.Path() + "/r.db");
    // Run 1: linkRate "default" (0) in its parameters; its private links ran at 10 and 40
    // Gbit/s; two rounds of two cliques, patterns recorded per clique in round 1 only.
    RunRecord run;
    run.runKey = "one";
    run.mode = "multicast";
    run.parametersJson = R"({"linkRate": 0, "accessRate": 0})";
    db.Begin();
    int64_t id = db.InsertRun(run, "complete", 3, 1);
    db.InsertRound(id, RoundRecord{0, 0, "AMS+FRA", 0.5, 1.25, 10, 0});
    db.InsertRound(id, RoundRecord{0, 1, "LON+NYC", 0.25, 1.0, 20, 2});
    db.InsertRound(id, RoundRecord{1, 0, "AMS+LON", 1.5, 2.0, 30, 0, "ring"});
    db.InsertRound(id, RoundRecord{1, 1, "FRA+NYC", 1.5, 2.75, 40, 0, "aggregation"});
    db.InsertLink(id, LinkRecord{"A-B", "private", "A", "B", 10e9, 1, 1, 1, 0, 0});
    db.InsertLink(id, LinkRecord{"B-C", "private", "B", "C", 40e9, 1, 1, 1, 0, 0});
    // --accessRate sets the devices' metro links: access_rate_bps is the slowest of them (an
    // island's own access link, 400 Gbit/s here, is not what --accessRate sets).
    db.InsertLink(id, LinkRecord{"A-M", "metro", "A", "M", 100e9, 1, 1, 1, 0, 0});
    db.InsertLink(id, LinkRecord{"B-M", "metro", "B", "M", 120e9, 1, 1, 1, 0, 0});
    db.InsertLink(id, LinkRecord{"I-M", "access", "I", "M", 400e9, 1, 1, 1, 0, 0});
    // Run 2: no links recorded (failed early); linkRate given as 5e9.
    RunRecord run2;
    run2.runKey = "two";
    run2.mode = "unicast";
    run2.parametersJson = R"({"linkRate": 5e9})";
    int64_t id2 = db.InsertRun(run2, "failed", 0, 0, "stopped");
    db.InsertRound(id2, RoundRecord{0, 0, "AMS+FRA", 0, 2, 1, 0});
    db.Commit();
    auto rows = db.Query("SELECT run_key, round, cliques, round_time_s, patterns, link_rate_bps, "
                         "link_rate_max_bps, access_rate_bps, bytes FROM run_rounds "
                         "ORDER BY run_id, round");
    ASSERT_EQ(rows.size(), 3u);
    EXPECT_EQ(std::get<int64_t>(rows[0][2]), 2);
    EXPECT_DOUBLE_EQ(std::get<double>(rows[0][3]), 1.0); // 1.25 - 0.25
    EXPECT_EQ(std::get<std::string>(rows[0][4]), "multicast,multicast");
    EXPECT_DOUBLE_EQ(std::get<double>(rows[0][5]), 10e9);
    EXPECT_DOUBLE_EQ(std::get<double>(rows[0][6]), 40e9);
    EXPECT_DOUBLE_EQ(std::get<double>(rows[0][7]), 100e9);
    EXPECT_EQ(std::get<int64_t>(rows[0][8]), 30);
    EXPECT_DOUBLE_EQ(std::get<double>(rows[1][3]), 1.25); // 2.75 - 1.5
    EXPECT_EQ(std::get<std::string>(rows[1][4]), "ring,aggregation");
    EXPECT_EQ(std::get<std::string>(rows[2][0]), "two");
    EXPECT_DOUBLE_EQ(std::get<double>(rows[2][5]), 5e9);
    EXPECT_TRUE(std::holds_alternative<std::nullptr_t>(rows[2][7])); // unknown, not 0
}

TEST(ResultsDatabase, TransportSettingsAndEcnCountsAreRecorded)
{
    TempDir dir;
    ResultsDatabase db(dir.Path() + "/r.db");
    ScenarioResult result;
    result.complete = true;
    result.transport = "cc";
    result.queueDisc = "red-ecn";
    result.ecn = true;
    result.queueDrops = 60;
    result.ecnMarks = 113;
    result.ecnEchoes = 113;
    result.ecnReductions = 18;
    result.retransmittedBytes = 4096;
    RoundRecord r0{0, 0, "A+B", 0.0, 1.0, 100, 0};
    r0.ecnEchoes = 100;
    r0.ecnReductions = 15;
    RoundRecord r1{1, 0, "A+B", 1.0, 2.0, 100, 4096};
    r1.ecnEchoes = 13;
    r1.ecnReductions = 3;
    result.rounds = {r0, r1};
    RunRecord run;
    run.mode = "unicast";
    int64_t id = result.Write(db, run);
    auto runs = db.Query("SELECT transport, queue_disc, ecn, queue_drops, ecn_marks, ecn_echoes, "
                         "ecn_reductions, retransmitted_bytes FROM runs WHERE run_id = ?",
                         {id});
    ASSERT_EQ(runs.size(), 1u);
    EXPECT_EQ(std::get<std::string>(runs[0][0]), "cc");
    EXPECT_EQ(std::get<std::string>(runs[0][1]), "red-ecn");
    EXPECT_EQ(std::get<int64_t>(runs[0][2]), 1);
    EXPECT_EQ(std::get<int64_t>(runs[0][3]), 60);
    EXPECT_EQ(std::get<int64_t>(runs[0][4]), 113);
    EXPECT_EQ(std::get<int64_t>(runs[0][5]), 113);
    EXPECT_EQ(std::get<int64_t>(runs[0][6]), 18);
    EXPECT_EQ(std::get<int64_t>(runs[0][7]), 4096);
    auto rounds = db.Query("SELECT round, ecn_echoes, ecn_reductions FROM rounds WHERE run_id = ? "
                           "ORDER BY round",
                           {id});
    ASSERT_EQ(rounds.size(), 2u);
    EXPECT_EQ(std::get<int64_t>(rounds[0][1]), 100);
    EXPECT_EQ(std::get<int64_t>(rounds[0][2]), 15);
    EXPECT_EQ(std::get<int64_t>(rounds[1][1]), 13);
    EXPECT_EQ(std::get<int64_t>(rounds[1][2]), 3);
    // The per-round summary table shows them.
    std::ostringstream table;
    result.PrintRoundTable(table);
    EXPECT_NE(table.str().find("ecnEchoes"), std::string::npos) << table.str();
    EXPECT_NE(table.str().find("ecnReductions"), std::string::npos) << table.str();
    EXPECT_NE(table.str().find("      100            15"), std::string::npos) << table.str();
}
