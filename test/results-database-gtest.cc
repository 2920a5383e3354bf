/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
// GoogleTest: ResultsDatabase schema, append-only runs, atomic transactions, two writers.

#include "gtest-util.h"

#include "ns3/results-database.h"

#include <sys/wait.h>
#include <unistd.h>

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
