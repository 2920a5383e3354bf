/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "results-database.h"

#include "module-version.h"

#include <sqlite3.h>

#include <chrono>
#include <ctime>
#include <stdexcept>

namespace ns3
{

std::string
ResultsDatabase::SchemaSql()
{
    return R"SQL(
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
CREATE TABLE IF NOT EXISTS rounds(
  run_id INTEGER NOT NULL REFERENCES runs(run_id),
  round INTEGER NOT NULL,
  clique INTEGER NOT NULL,
  members TEXT NOT NULL,
  start_s REAL NOT NULL,
  end_s REAL NOT NULL,
  duration_s REAL NOT NULL,
  bytes INTEGER NOT NULL,
  retransmitted_bytes INTEGER NOT NULL,
  PRIMARY KEY(run_id, round, clique));
CREATE TABLE IF NOT EXISTS island_rounds(
  run_id INTEGER NOT NULL REFERENCES runs(run_id),
  round INTEGER NOT NULL,
  island TEXT NOT NULL,
  clique INTEGER NOT NULL,
  start_s REAL NOT NULL,
  compute_end_s REAL NOT NULL,
  end_s REAL NOT NULL,
  bytes_sent INTEGER NOT NULL,
  bytes_received INTEGER NOT NULL,
  retransmitted_segments INTEGER NOT NULL,
  PRIMARY KEY(run_id, round, island));
CREATE TABLE IF NOT EXISTS links(
  run_id INTEGER NOT NULL REFERENCES runs(run_id),
  link TEXT NOT NULL,
  kind TEXT NOT NULL,
  from_node TEXT NOT NULL,
  to_node TEXT NOT NULL,
  capacity_bps REAL NOT NULL,
  bytes INTEGER NOT NULL,
  packets INTEGER NOT NULL,
  payload_bytes INTEGER NOT NULL,
  busy_s REAL NOT NULL,
  utilization REAL NOT NULL,
  PRIMARY KEY(run_id, link, from_node));
CREATE TABLE IF NOT EXISTS aggregation(
  run_id INTEGER NOT NULL REFERENCES runs(run_id),
  round INTEGER NOT NULL,
  clique INTEGER NOT NULL,
  members TEXT NOT NULL,
  aggregator TEXT NOT NULL,
  segments INTEGER NOT NULL,
  mean_slot_wait_s REAL NOT NULL,
  max_slot_wait_s REAL NOT NULL,
  max_slots_in_use INTEGER NOT NULL,
  timeouts INTEGER NOT NULL,
  duplicates INTEGER NOT NULL,
  stale INTEGER NOT NULL,
  resent_results INTEGER NOT NULL,
  overflows INTEGER NOT NULL,
  PRIMARY KEY(run_id, round, clique));
CREATE TABLE IF NOT EXISTS fpgas(
  run_id INTEGER NOT NULL REFERENCES runs(run_id),
  device TEXT NOT NULL,
  contributions INTEGER NOT NULL,
  results INTEGER NOT NULL,
  busy_s REAL NOT NULL,
  utilization REAL NOT NULL,
  PRIMARY KEY(run_id, device));
CREATE TABLE IF NOT EXISTS training(
  run_id INTEGER NOT NULL REFERENCES runs(run_id),
  round INTEGER NOT NULL,
  island TEXT NOT NULL,
  time_s REAL NOT NULL,
  local_loss REAL,
  global_loss REAL,
  mean_global_loss REAL,
  consensus_distance REAL,
  PRIMARY KEY(run_id, round, island));
)SQL";
}

std::string
ResultsDatabase::ModuleVersion()
{
    return IntelligentNetworkVersion();
}

ResultsDatabase::ResultsDatabase(const std::string& path)
    : m_path(path)
{
    if (sqlite3_open_v2(path.c_str(),
                        &m_db,
                        SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_FULLMUTEX,
                        nullptr) != SQLITE_OK)
    {
        std::string msg = m_db ? sqlite3_errmsg(m_db) : "out of memory";
        sqlite3_close(m_db);
        m_db = nullptr;
        throw std::runtime_error("results database " + path + ": cannot open: " + msg);
    }
    sqlite3_busy_timeout(m_db, 120000);
    Exec("PRAGMA journal_mode=WAL;");
    Exec("PRAGMA foreign_keys=ON;");
    Begin();
    Exec(SchemaSql());
    Exec("INSERT OR IGNORE INTO meta(key, value) VALUES('schema_version', '1');");
    Commit();
}

ResultsDatabase::~ResultsDatabase()
{
    for (auto& [sql, stmt] : m_statements)
    {
        sqlite3_finalize(stmt);
    }
    sqlite3_close(m_db);
}

const std::string&
ResultsDatabase::Path() const
{
    return m_path;
}

void
ResultsDatabase::Fail(const std::string& what) const
{
    throw std::runtime_error("results database " + m_path + ": " + what + ": " +
                             sqlite3_errmsg(m_db));
}

void
ResultsDatabase::Exec(const std::string& sql)
{
    char* err = nullptr;
    if (sqlite3_exec(m_db, sql.c_str(), nullptr, nullptr, &err) != SQLITE_OK)
    {
        std::string msg = err ? err : "unknown error";
        sqlite3_free(err);
        throw std::runtime_error("results database " + m_path + ": " + msg + " in: " +
                                 sql.substr(0, 200));
    }
}

void
ResultsDatabase::Begin()
{
    // IMMEDIATE takes the write lock now, so concurrent writers queue on the busy timeout
    // instead of failing later with SQLITE_BUSY on upgrade.
    Exec("BEGIN IMMEDIATE;");
}

void
ResultsDatabase::Commit()
{
    Exec("COMMIT;");
}

void
ResultsDatabase::Rollback()
{
    Exec("ROLLBACK;");
}

sqlite3_stmt*
ResultsDatabase::Prepare(const std::string& sql)
{
    auto it = m_statements.find(sql);
    if (it != m_statements.end())
    {
        sqlite3_reset(it->second);
        sqlite3_clear_bindings(it->second);
        return it->second;
    }
    sqlite3_stmt* stmt = nullptr;
    if (sqlite3_prepare_v2(m_db, sql.c_str(), -1, &stmt, nullptr) != SQLITE_OK)
    {
        Fail("cannot prepare '" + sql + "'");
    }
    m_statements[sql] = stmt;
    return stmt;
}

void
ResultsDatabase::Bind(sqlite3_stmt* stmt, const std::vector<Value>& values)
{
    for (std::size_t i = 0; i < values.size(); ++i)
    {
        int idx = static_cast<int>(i + 1);
        int rc = SQLITE_OK;
        const Value& v = values[i];
        if (std::holds_alternative<std::nullptr_t>(v))
        {
            rc = sqlite3_bind_null(stmt, idx);
        }
        else if (std::holds_alternative<int64_t>(v))
        {
            rc = sqlite3_bind_int64(stmt, idx, std::get<int64_t>(v));
        }
        else if (std::holds_alternative<double>(v))
        {
            rc = sqlite3_bind_double(stmt, idx, std::get<double>(v));
        }
        else
        {
            const std::string& s = std::get<std::string>(v);
            rc = sqlite3_bind_text(stmt, idx, s.c_str(), static_cast<int>(s.size()),
                                   SQLITE_TRANSIENT);
        }
        if (rc != SQLITE_OK)
        {
            Fail("cannot bind parameter " + std::to_string(idx));
        }
    }
}

std::vector<ResultsDatabase::Row>
ResultsDatabase::Query(const std::string& sql, const std::vector<Value>& params)
{
    sqlite3_stmt* stmt = Prepare(sql);
    Bind(stmt, params);
    std::vector<Row> rows;
    int rc;
    while ((rc = sqlite3_step(stmt)) == SQLITE_ROW)
    {
        Row row;
        int n = sqlite3_column_count(stmt);
        for (int c = 0; c < n; ++c)
        {
            switch (sqlite3_column_type(stmt, c))
            {
            case SQLITE_INTEGER:
                row.emplace_back(static_cast<int64_t>(sqlite3_column_int64(stmt, c)));
                break;
            case SQLITE_FLOAT:
                row.emplace_back(sqlite3_column_double(stmt, c));
                break;
            case SQLITE_NULL:
                row.emplace_back(nullptr);
                break;
            default:
                row.emplace_back(std::string(
                    reinterpret_cast<const char*>(sqlite3_column_text(stmt, c)),
                    static_cast<std::size_t>(sqlite3_column_bytes(stmt, c))));
            }
        }
        rows.push_back(std::move(row));
    }
    if (rc != SQLITE_DONE)
    {
        Fail("query failed");
    }
    sqlite3_reset(stmt);
    return rows;
}

int64_t
ResultsDatabase::Insert(const std::string& table,
                        const std::vector<std::string>& columns,
                        const std::vector<Value>& values)
{
    if (columns.size() != values.size())
    {
        throw std::invalid_argument("results database: column/value count mismatch");
    }
    std::string sql = "INSERT INTO " + table + "(";
    std::string marks;
    for (std::size_t i = 0; i < columns.size(); ++i)
    {
        sql += (i ? "," : "") + columns[i];
        marks += i ? ",?" : "?";
    }
    sql += ") VALUES(" + marks + ")";
    sqlite3_stmt* stmt = Prepare(sql);
    Bind(stmt, values);
    if (sqlite3_step(stmt) != SQLITE_DONE)
    {
        Fail("cannot insert into " + table);
    }
    sqlite3_reset(stmt);
    return sqlite3_last_insert_rowid(m_db);
}

int64_t
ResultsDatabase::InsertRun(const RunRecord& run,
                           const std::string& status,
                           double simTimeS,
                           double wallTimeS,
                           const std::string& error)
{
    std::time_t now = std::chrono::system_clock::to_time_t(std::chrono::system_clock::now());
    char stamp[32];
    std::strftime(stamp, sizeof stamp, "%Y-%m-%dT%H:%M:%SZ", std::gmtime(&now));
    auto i64 = [](uint64_t v) { return Value(static_cast<int64_t>(v)); };
    auto textOrNull = [](const std::string& s) { return s.empty() ? Value(nullptr) : Value(s); };
    return Insert("runs",
                  {"run_key", "status", "error", "created_at", "program", "version", "topology",
                   "schedule", "mode", "seed", "run_number", "model_bytes", "segment_size",
                   "rounds", "parameters", "sim_time_s", "wall_time_s"},
                  {textOrNull(run.runKey), status, textOrNull(error), std::string(stamp),
                   run.program, run.version.empty() ? ModuleVersion() : run.version, run.topology,
                   run.schedule, run.mode, i64(run.seed), i64(run.runNumber), i64(run.modelBytes),
                   i64(run.segmentSize), i64(run.rounds),
                   run.parametersJson.empty() ? std::string("{}") : run.parametersJson, simTimeS,
                   wallTimeS});
}

void
ResultsDatabase::InsertRound(int64_t runId, const RoundRecord& r)
{
    Insert("rounds",
           {"run_id", "round", "clique", "members", "start_s", "end_s", "duration_s", "bytes",
            "retransmitted_bytes"},
           {runId, static_cast<int64_t>(r.round), static_cast<int64_t>(r.clique), r.members,
            r.startS, r.endS, r.endS - r.startS, static_cast<int64_t>(r.bytes),
            static_cast<int64_t>(r.retransmittedBytes)});
}

void
ResultsDatabase::InsertIslandRound(int64_t runId, const IslandRoundRecord& r)
{
    Insert("island_rounds",
           {"run_id", "round", "island", "clique", "start_s", "compute_end_s", "end_s",
            "bytes_sent", "bytes_received", "retransmitted_segments"},
           {runId, static_cast<int64_t>(r.round), r.island, static_cast<int64_t>(r.clique),
            r.startS, r.computeEndS, r.endS, static_cast<int64_t>(r.bytesSent),
            static_cast<int64_t>(r.bytesReceived), static_cast<int64_t>(r.retransmittedSegments)});
}

void
ResultsDatabase::InsertLink(int64_t runId, const LinkRecord& r)
{
    Insert("links",
           {"run_id", "link", "kind", "from_node", "to_node", "capacity_bps", "bytes", "packets",
            "payload_bytes", "busy_s", "utilization"},
           {runId, r.link, r.kind, r.from, r.to, r.capacityBps, static_cast<int64_t>(r.bytes),
            static_cast<int64_t>(r.packets), static_cast<int64_t>(r.payloadBytes), r.busyS,
            r.utilization});
}

void
ResultsDatabase::InsertAggregation(int64_t runId, const AggregationRecord& r)
{
    auto i64 = [](uint64_t v) { return Value(static_cast<int64_t>(v)); };
    Insert("aggregation",
           {"run_id", "round", "clique", "members", "aggregator", "segments", "mean_slot_wait_s",
            "max_slot_wait_s", "max_slots_in_use", "timeouts", "duplicates", "stale",
            "resent_results", "overflows"},
           {runId, i64(r.round), i64(r.clique), r.members, r.aggregator, i64(r.segments),
            r.meanSlotWaitS, r.maxSlotWaitS, i64(r.maxSlotsInUse), i64(r.timeouts),
            i64(r.duplicates), i64(r.stale), i64(r.resentResults), i64(r.overflows)});
}

void
ResultsDatabase::InsertFpga(int64_t runId, const FpgaRecord& r)
{
    Insert("fpgas",
           {"run_id", "device", "contributions", "results", "busy_s", "utilization"},
           {runId, r.device, static_cast<int64_t>(r.contributions),
            static_cast<int64_t>(r.results), r.busyS, r.utilization});
}

void
ResultsDatabase::InsertTraining(int64_t runId, const TrainingRecord& r)
{
    Insert("training",
           {"run_id", "round", "island", "time_s", "local_loss", "global_loss", "mean_global_loss",
            "consensus_distance"},
           {runId, static_cast<int64_t>(r.round), r.island, r.timeS, r.localLoss, r.globalLoss,
            r.meanGlobalLoss, r.consensusDistance});
}

bool
ResultsDatabase::HasCompleteRun(const std::string& runKey)
{
    auto rows = Query("SELECT COUNT(*) FROM runs WHERE run_key = ? AND status = 'complete'",
                      {runKey});
    return !rows.empty() && std::get<int64_t>(rows[0][0]) > 0;
}

} // namespace ns3
