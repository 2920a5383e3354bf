/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "results-database.h"

#include "heap-allocator.h"
#include "module-version.h"

#include <sqlite3.h>

#include <sys/stat.h>

#include <algorithm>
#include <array>
#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <ctime>
#include <sstream>
#include <stdexcept>
#include <thread>

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
  pattern TEXT,
  ecn_echoes INTEGER,
  ecn_reductions INTEGER,
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
  tree TEXT,
  fell_back INTEGER,
  PRIMARY KEY(run_id, round, clique));
CREATE TABLE IF NOT EXISTS fpgas(
  run_id INTEGER NOT NULL REFERENCES runs(run_id),
  device TEXT NOT NULL,
  contributions INTEGER NOT NULL,
  results INTEGER NOT NULL,
  busy_s REAL NOT NULL,
  utilization REAL NOT NULL,
  partials INTEGER,
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
  global_accuracy REAL,
  mean_global_accuracy REAL,
  PRIMARY KEY(run_id, round, island));
CREATE VIEW IF NOT EXISTS run_rounds AS
SELECT r.run_id, r.run_key, r.status, r.program, r.topology, r.schedule, r.mode,
  r.model_bytes, r.seed, r.run_number,
  q.round,
  COUNT(*) AS cliques,
  MIN(q.start_s) AS start_s,
  MAX(q.end_s) AS end_s,
  MAX(q.end_s) - MIN(q.start_s) AS round_time_s,
  SUM(q.bytes) AS bytes,
  SUM(q.retransmitted_bytes) AS retransmitted_bytes,
  (SELECT group_concat(p, ',') FROM
     (SELECT COALESCE(x.pattern, r.mode) AS p FROM rounds x
      WHERE x.run_id = r.run_id AND x.round = q.round ORDER BY x.clique)) AS patterns,
  COALESCE((SELECT MIN(l.capacity_bps) FROM links l
            WHERE l.run_id = r.run_id AND l.kind = 'private'),
           CASE WHEN json_valid(r.parameters)
                 AND json_extract(r.parameters, '$.linkRate') > 0
                THEN json_extract(r.parameters, '$.linkRate') END) AS link_rate_bps,
  COALESCE((SELECT MAX(l.capacity_bps) FROM links l
            WHERE l.run_id = r.run_id AND l.kind = 'private'),
           CASE WHEN json_valid(r.parameters)
                 AND json_extract(r.parameters, '$.linkRate') > 0
                THEN json_extract(r.parameters, '$.linkRate') END) AS link_rate_max_bps,
  COALESCE((SELECT MIN(l.capacity_bps) FROM links l
            WHERE l.run_id = r.run_id AND l.kind = 'metro'),
           CASE WHEN json_valid(r.parameters)
                 AND json_extract(r.parameters, '$.accessRate') > 0
                THEN json_extract(r.parameters, '$.accessRate') END) AS access_rate_bps
FROM runs r JOIN rounds q ON q.run_id = r.run_id
GROUP BY r.run_id, q.round;
)SQL";
}

namespace
{

/// Tables of the schema and the columns this class writes (checked on open).
const std::map<std::string, std::vector<std::string>>&
RequiredColumns()
{
    static const std::map<std::string, std::vector<std::string>> columns = {
        {"meta", {"key", "value"}},
        {"runs",
         {"run_id", "run_key", "status", "error", "created_at", "program", "version", "topology",
          "schedule", "mode", "seed", "run_number", "model_bytes", "segment_size", "rounds",
          "parameters", "sim_time_s", "wall_time_s"}},
        {"rounds",
         {"run_id", "round", "clique", "members", "start_s", "end_s", "duration_s", "bytes",
          "retransmitted_bytes"}},
        {"island_rounds",
         {"run_id", "round", "island", "clique", "start_s", "compute_end_s", "end_s",
          "bytes_sent", "bytes_received", "retransmitted_segments"}},
        {"links",
         {"run_id", "link", "kind", "from_node", "to_node", "capacity_bps", "bytes", "packets",
          "payload_bytes", "busy_s", "utilization"}},
        {"aggregation",
         {"run_id", "round", "clique", "members", "aggregator", "segments", "mean_slot_wait_s",
          "max_slot_wait_s", "max_slots_in_use", "timeouts", "duplicates", "stale",
          "resent_results", "overflows"}},
        {"fpgas", {"run_id", "device", "contributions", "results", "busy_s", "utilization"}},
        {"training",
         {"run_id", "round", "island", "time_s", "local_loss", "global_loss", "mean_global_loss",
          "consensus_distance"}},
    };
    return columns;
}

/// Before the unique index on complete run keys (schema 2), a key could be recorded complete
/// twice; the later rows are relabelled 'duplicate' (kept, as history) so the index can exist.
const char* kRelabelDuplicatesSql =
    "UPDATE runs SET status = 'duplicate' WHERE status = 'complete' AND run_key IS NOT NULL "
    "AND run_id NOT IN (SELECT MIN(run_id) FROM runs WHERE status = 'complete' AND run_key IS "
    "NOT NULL GROUP BY run_key);";

bool
IsBusy(int rc)
{
    int primary = rc & 0xFF;
    return primary == SQLITE_BUSY || primary == SQLITE_LOCKED;
}

} // namespace

ResultsDatabase::Error::Error(Cause cause, const std::string& message)
    : std::runtime_error(message),
      m_cause(cause)
{
}

ResultsDatabase::Error::Cause
ResultsDatabase::Error::GetCause() const
{
    return m_cause;
}

std::string
ResultsDatabase::Error::CauseName(Cause cause)
{
    switch (cause)
    {
    case CANNOT_OPEN:
        return "cannot open";
    case LOCKED:
        return "locked";
    case READ_ONLY:
        return "read-only";
    case CORRUPT:
        return "corrupt";
    case WRONG_SCHEMA:
        return "not a results database";
    case NEWER_VERSION:
        return "newer version";
    case DISK_FULL:
        return "disk full";
    case IO_ERROR:
        return "I/O error";
    case DUPLICATE_RUN:
        return "duplicate run";
    case OTHER:
        break;
    }
    return "error";
}

std::string
ResultsDatabase::ModuleVersion()
{
    return IntelligentNetworkVersion();
}

ResultsDatabase::ResultsDatabase(const std::string& path, double busyTimeoutS)
    : m_path(path),
      m_busyTimeoutS(busyTimeoutS)
{
    CheckPath();
    int rc = sqlite3_open_v2(path.c_str(),
                             &m_db,
                             SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_FULLMUTEX,
                             nullptr);
    if (rc != SQLITE_OK)
    {
        if (!m_db)
        {
            throw Error(Error::OTHER, "results database " + path + ": cannot open: out of memory");
        }
        try
        {
            Fail("cannot open", rc);
        }
        catch (...)
        {
            sqlite3_close(m_db);
            m_db = nullptr;
            throw;
        }
    }
    sqlite3_extended_result_codes(m_db, 1);
    sqlite3_busy_timeout(m_db, static_cast<int>(std::min(busyTimeoutS, 1e6) * 1000));
    try
    {
        CheckAndPrepare();
    }
    catch (...)
    {
        sqlite3_close(m_db);
        m_db = nullptr;
        throw;
    }
}

std::unique_ptr<ResultsDatabase>
ResultsDatabase::OpenForRun(const std::string& path, const std::string& runKey)
{
    if (path.empty() || path == "none")
    {
        return nullptr;
    }
    auto db = std::make_unique<ResultsDatabase>(path);
    if (!runKey.empty() && db->HasCompleteRun(runKey))
    {
        db->Fail(Error::DUPLICATE_RUN,
                 "run key '" + runKey +
                     "' is already recorded as complete: the run has been done (a sweep skips "
                     "it; use another --runKey to run it again)");
    }
    return db;
}

void
ResultsDatabase::CheckPath() const
{
    struct stat st;
    if (stat(m_path.c_str(), &st) == 0)
    {
        if (S_ISDIR(st.st_mode))
        {
            Fail(Error::CANNOT_OPEN, "is a directory, not a database file");
        }
        if (!S_ISREG(st.st_mode))
        {
            Fail(Error::CANNOT_OPEN, "is not a regular file");
        }
        return;
    }
    std::string dir = m_path.find('/') == std::string::npos
                          ? "."
                          : m_path.substr(0, std::max<std::size_t>(m_path.rfind('/'), 1));
    if (stat(dir.c_str(), &st) != 0 || !S_ISDIR(st.st_mode))
    {
        Fail(Error::CANNOT_OPEN, "its directory " + dir +
                                     (errno == EACCES ? " cannot be reached (permission denied)"
                                                      : " does not exist"));
    }
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

int
ResultsDatabase::Retry(const std::function<int()>& op)
{
    auto deadline =
        std::chrono::steady_clock::now() + std::chrono::duration<double>(m_busyTimeoutS);
    int sleepMs = 2;
    while (true)
    {
        int rc = op();
        if (!IsBusy(rc) || std::chrono::steady_clock::now() >= deadline)
        {
            return rc;
        }
        std::this_thread::sleep_for(std::chrono::milliseconds(sleepMs));
        sleepMs = std::min(sleepMs * 2, 100);
    }
}

void
ResultsDatabase::SwitchToWal()
{
    // The journal mode is persistent: a database switched once stays in WAL. SQLite returns
    // SQLITE_BUSY at once (without its busy handler) when another connection holds a lock
    // while the mode changes: retry until the busy timeout.
    auto mode = [&]() -> std::string {
        auto rows = Query("PRAGMA journal_mode;");
        return rows.empty() ? "" : std::get<std::string>(rows[0][0]);
    };
    if (mode() == "wal")
    {
        return;
    }
    std::string result;
    int rc = Retry([&] {
        sqlite3_stmt* stmt = nullptr;
        int r = sqlite3_prepare_v2(m_db, "PRAGMA journal_mode=WAL;", -1, &stmt, nullptr);
        if (r == SQLITE_OK)
        {
            r = sqlite3_step(stmt);
            if (r == SQLITE_ROW)
            {
                result = reinterpret_cast<const char*>(sqlite3_column_text(stmt, 0));
                r = SQLITE_OK;
            }
        }
        sqlite3_finalize(stmt);
        return r;
    });
    if (rc != SQLITE_OK)
    {
        Fail("cannot switch to WAL mode", rc);
    }
    if (result != "wal")
    {
        Fail(Error::OTHER, "cannot switch to WAL mode (the journal mode stays '" + result +
                               "'; WAL needs shared memory: is the file on a network file system?)");
    }
}

void
ResultsDatabase::CheckAndPrepare()
{
    // Steps 1-2 inspect the file. They run once before any write (so that a foreign, newer or
    // damaged file is refused without being touched) and again inside the write transaction,
    // where the state cannot change under us: another writer may create or upgrade the schema
    // between the first look and our lock.
    int64_t appId = 0;
    int64_t version = 0;
    std::map<std::string, std::vector<std::string>> tables;
    auto inspect = [&]() {
        // 1. Is it an SQLite database, ours, and not newer than us? (Reading the header is the
        // first access: a file that is not a database fails here.)
        std::vector<Row> header;
        int rc = Retry([&] {
            try
            {
                header = Query("SELECT (SELECT application_id FROM pragma_application_id), "
                               "(SELECT user_version FROM pragma_user_version);");
                return SQLITE_OK;
            }
            catch (const Error&)
            {
                return sqlite3_extended_errcode(m_db);
            }
        });
        if (rc != SQLITE_OK)
        {
            Fail("cannot read the database", rc);
        }
        appId = std::get<int64_t>(header.at(0).at(0));
        version = std::get<int64_t>(header.at(0).at(1));
        tables.clear();
        for (const auto& row : Query("SELECT name FROM sqlite_master WHERE type = 'table' AND name "
                                     "NOT LIKE 'sqlite_%';"))
        {
            tables[std::get<std::string>(row[0])];
        }
        if (appId != 0 && appId != ApplicationId())
        {
            char id[16];
            std::snprintf(id, sizeof id, "0x%08X", static_cast<unsigned>(appId));
            Fail(Error::WRONG_SCHEMA,
                 std::string("not a results database: it belongs to another application "
                             "(application_id ") +
                     id + ")");
        }
        if (version > SchemaVersion())
        {
            Fail(Error::NEWER_VERSION,
                 "written by a newer version of intelligent-network (schema " +
                     std::to_string(version) + "; this program knows schemas up to " +
                     std::to_string(SchemaVersion()) + "): use a newer build, or another database");
        }
        if (appId == 0 && !tables.empty())
        {
            // No application id: schema 1 (before versions), identified by its meta row.
            std::string v1;
            if (tables.count("meta") && tables.count("runs"))
            {
                auto rows = Query("SELECT value FROM meta WHERE key = 'schema_version';");
                if (!rows.empty() && std::holds_alternative<std::string>(rows[0][0]))
                {
                    v1 = std::get<std::string>(rows[0][0]);
                }
            }
            if (v1.empty())
            {
                std::string names;
                for (const auto& [name, cols] : tables)
                {
                    names += (names.empty() ? "" : ", ") + name;
                }
                Fail(Error::WRONG_SCHEMA,
                     "not a results database of intelligent-network (no application id, no "
                     "schema_version in a table meta; its tables: " +
                         names + ")");
            }
            if (v1 != "1")
            {
                Fail(Error::NEWER_VERSION,
                     "written by a newer version of intelligent-network (meta schema_version " + v1 +
                         "; this program knows schemas up to " + std::to_string(SchemaVersion()) +
                         ")");
            }
        }
        // 2. The tables it has must have the columns we write.
        for (auto& [name, cols] : tables)
        {
            auto required = RequiredColumns().find(name);
            if (required == RequiredColumns().end())
            {
                continue; // a table of a later module, or the user's own
            }
            std::vector<std::string> have;
            for (const auto& row : Query("SELECT name FROM pragma_table_info(?);", {name}))
            {
                have.push_back(std::get<std::string>(row[0]));
            }
            for (const auto& c : required->second)
            {
                if (std::find(have.begin(), have.end(), c) == have.end())
                {
                    Fail(Error::WRONG_SCHEMA, "table '" + name + "' has no column '" + c +
                                                  "' (not a results database of this module, or a "
                                                  "damaged one)");
                }
            }
            cols = have;
        }
    };
    // The first look is one read transaction: the header and the tables come from one snapshot
    // (a writer that creates the schema between two separate reads would look like schema 1).
    if (int rc = Retry([&] { return sqlite3_exec(m_db, "BEGIN;", nullptr, nullptr, nullptr); });
        rc != SQLITE_OK)
    {
        Fail("cannot read the database", rc);
    }
    try
    {
        inspect();
    }
    catch (...)
    {
        sqlite3_exec(m_db, "ROLLBACK;", nullptr, nullptr, nullptr);
        throw;
    }
    sqlite3_exec(m_db, "COMMIT;", nullptr, nullptr, nullptr);
    // 3. Writable? (SQLite opens a write-protected file read-only without an error.)
    if (sqlite3_db_readonly(m_db, "main") == 1)
    {
        Fail(Error::READ_ONLY, "read-only: the file is not writable (permissions or a "
                               "read-only file system); runs cannot be recorded");
    }
    // 4. WAL, then the schema (and the upgrade from schema 1) in one write transaction.
    SwitchToWal();
    Exec("PRAGMA foreign_keys=ON;");
    Begin();
    try
    {
        inspect();
        // Columns added since schema 1: an older database gains them (NULL in old rows).
        static const std::vector<std::array<const char*, 3>> added = {
            {"rounds", "pattern", "TEXT"},
            {"aggregation", "tree", "TEXT"},
            {"aggregation", "fell_back", "INTEGER"},
            {"fpgas", "partials", "INTEGER"},
            {"training", "global_accuracy", "REAL"},
            {"training", "mean_global_accuracy", "REAL"},
            {"rounds", "ecn_echoes", "INTEGER"},
            {"rounds", "ecn_reductions", "INTEGER"},
            {"runs", "transport", "TEXT"},
            {"runs", "queue_disc", "TEXT"},
            {"runs", "ecn", "INTEGER"},
            {"runs", "queue_drops", "INTEGER"},
            {"runs", "ecn_marks", "INTEGER"},
            {"runs", "ecn_echoes", "INTEGER"},
            {"runs", "ecn_reductions", "INTEGER"},
            {"runs", "retransmitted_bytes", "INTEGER"},
            {"runs", "fixed_point_overflows", "INTEGER"},
            {"runs", "allocator", "TEXT"},
        };
        for (const auto& [table, column, type] : added)
        {
            auto t = tables.find(table);
            if (t != tables.end() &&
                std::find(t->second.begin(), t->second.end(), column) == t->second.end())
            {
                Exec(std::string("ALTER TABLE ") + table + " ADD COLUMN " + column + " " + type +
                     ";");
            }
        }
        if (tables.count("runs"))
        {
            Exec(kRelabelDuplicatesSql);
        }
        Exec(SchemaSql());
        if (version != SchemaVersion())
        {
            Exec("PRAGMA user_version = " + std::to_string(SchemaVersion()) + ";");
        }
        if (appId != ApplicationId())
        {
            Exec("PRAGMA application_id = " + std::to_string(ApplicationId()) + ";");
        }
        Exec("INSERT OR REPLACE INTO meta(key, value) VALUES('schema_version', '" +
             std::to_string(SchemaVersion()) + "');");
        Commit();
    }
    catch (...)
    {
        Rollback();
        throw;
    }
}

void
ResultsDatabase::Fail(Error::Cause cause, const std::string& message) const
{
    throw Error(cause, "results database " + m_path + ": " + message);
}

void
ResultsDatabase::Fail(const std::string& what, int rc) const
{
    int extended = m_db ? sqlite3_extended_errcode(m_db) : rc;
    if ((extended & 0xFF) != (rc & 0xFF))
    {
        extended = rc;
    }
    std::string detail = m_db ? sqlite3_errmsg(m_db) : sqlite3_errstr(rc);
    int sysErrno = m_db ? sqlite3_system_errno(m_db) : 0;
    Error::Cause cause = Error::OTHER;
    std::string text;
    switch (extended & 0xFF)
    {
    case SQLITE_BUSY:
    case SQLITE_LOCKED: {
        std::ostringstream os;
        os << "locked by another process for longer than the busy timeout (" << m_busyTimeoutS
           << " s)";
        cause = Error::LOCKED;
        text = os.str();
        break;
    }
    case SQLITE_READONLY:
        cause = Error::READ_ONLY;
        text = extended == SQLITE_READONLY_DIRECTORY
                   ? "read-only: its directory is not writable (SQLite needs to create journal "
                     "files beside the database)"
                   : "read-only: the file, its journal or the file system is not writable";
        break;
    case SQLITE_FULL:
        cause = Error::DISK_FULL;
        text = "the disk is full (or the database reached its size limit)";
        break;
    case SQLITE_CORRUPT:
    case SQLITE_NOTADB:
        cause = Error::CORRUPT;
        text = "corrupt, or not an SQLite database";
        break;
    case SQLITE_CANTOPEN:
        cause = Error::CANNOT_OPEN;
        text = "cannot open the file or create its journal (does the directory exist, and is it "
               "writable?)";
        break;
    case SQLITE_PERM:
    case SQLITE_AUTH:
        cause = Error::READ_ONLY;
        text = "permission denied";
        break;
    case SQLITE_IOERR:
        cause = sysErrno == ENOSPC ? Error::DISK_FULL : Error::IO_ERROR;
        text = sysErrno == ENOSPC ? "the disk is full" : "I/O error";
        break;
    case SQLITE_CONSTRAINT:
        if (extended == SQLITE_CONSTRAINT_UNIQUE &&
            detail.find("runs.run_key") != std::string::npos)
        {
            cause = Error::DUPLICATE_RUN;
            text = "this run key is already recorded as complete (by another process?): the run "
                   "is not recorded twice";
        }
        break;
    default:
        break;
    }
    std::string message = what;
    if (!text.empty())
    {
        message += ": " + text;
    }
    message += " (SQLite: " + detail;
    if (sysErrno != 0 && ((extended & 0xFF) == SQLITE_IOERR || (extended & 0xFF) == SQLITE_CANTOPEN ||
                          (extended & 0xFF) == SQLITE_FULL))
    {
        message += std::string("; ") + std::strerror(sysErrno);
    }
    message += ")";
    Fail(cause, message);
}

void
ResultsDatabase::Exec(const std::string& sql)
{
    char* err = nullptr;
    int rc = sqlite3_exec(m_db, sql.c_str(), nullptr, nullptr, &err);
    sqlite3_free(err);
    if (rc != SQLITE_OK)
    {
        Fail("cannot execute '" + sql.substr(0, sql.find_first_of("(\n")) + "'", rc);
    }
}

void
ResultsDatabase::Begin()
{
    // IMMEDIATE takes the write lock now, so concurrent writers queue on the busy timeout
    // instead of failing later with SQLITE_BUSY on upgrade; retried as a whole in case SQLite
    // returns BUSY without waiting (e.g. while another connection recovers the WAL).
    int rc = Retry([&] { return sqlite3_exec(m_db, "BEGIN IMMEDIATE;", nullptr, nullptr, nullptr); });
    if (rc != SQLITE_OK)
    {
        Fail("cannot start a write transaction", rc);
    }
}

void
ResultsDatabase::Commit()
{
    int rc = Retry([&] { return sqlite3_exec(m_db, "COMMIT;", nullptr, nullptr, nullptr); });
    if (rc != SQLITE_OK)
    {
        Fail("cannot commit", rc);
    }
}

void
ResultsDatabase::Rollback() noexcept
{
    if (m_db && !sqlite3_get_autocommit(m_db))
    {
        sqlite3_exec(m_db, "ROLLBACK;", nullptr, nullptr, nullptr);
    }
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
        Fail("cannot prepare '" + sql.substr(0, 60) + "'", sqlite3_extended_errcode(m_db));
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
            Fail("cannot bind parameter " + std::to_string(idx), rc);
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
        sqlite3_reset(stmt);
        Fail("query failed", rc);
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
    int rc = sqlite3_step(stmt);
    if (rc != SQLITE_DONE)
    {
        sqlite3_reset(stmt);
        Fail("cannot insert into " + table, rc);
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
    // UTC to the microsecond (ISO 8601): with the parameters, a run's identity when databases
    // are merged (scripts/merge-results.py); whole seconds made runs of one second look alike.
    auto clock = std::chrono::system_clock::now();
    std::time_t now = std::chrono::system_clock::to_time_t(clock);
    auto micros = std::chrono::duration_cast<std::chrono::microseconds>(
                      clock.time_since_epoch()) %
                  std::chrono::seconds(1);
    char seconds[32];
    std::strftime(seconds, sizeof seconds, "%Y-%m-%dT%H:%M:%S", std::gmtime(&now));
    char stamp[48];
    std::snprintf(stamp, sizeof stamp, "%s.%06lldZ", seconds,
                  static_cast<long long>(micros.count()));
    auto i64 = [](uint64_t v) { return Value(static_cast<int64_t>(v)); };
    auto textOrNull = [](const std::string& s) { return s.empty() ? Value(nullptr) : Value(s); };
    return Insert("runs",
                  {"run_key", "status", "error", "created_at", "program", "version", "topology",
                   "schedule", "mode", "seed", "run_number", "model_bytes", "segment_size",
                   "rounds", "parameters", "sim_time_s", "wall_time_s", "allocator"},
                  {textOrNull(run.runKey), status, textOrNull(error), std::string(stamp),
                   run.program, run.version.empty() ? ModuleVersion() : run.version, run.topology,
                   run.schedule, run.mode, i64(run.seed), i64(run.runNumber), i64(run.modelBytes),
                   i64(run.segmentSize), i64(run.rounds),
                   run.parametersJson.empty() ? std::string("{}") : run.parametersJson, simTimeS,
                   wallTimeS, run.allocator.empty() ? HeapAllocator() : run.allocator});
}

void
ResultsDatabase::InsertRound(int64_t runId, const RoundRecord& r)
{
    Insert("rounds",
           {"run_id", "round", "clique", "members", "start_s", "end_s", "duration_s", "bytes",
            "retransmitted_bytes", "pattern", "ecn_echoes", "ecn_reductions"},
           {runId, static_cast<int64_t>(r.round), static_cast<int64_t>(r.clique), r.members,
            r.startS, r.endS, r.endS - r.startS, static_cast<int64_t>(r.bytes),
            static_cast<int64_t>(r.retransmittedBytes),
            r.pattern.empty() ? Value(nullptr) : Value(r.pattern),
            static_cast<int64_t>(r.ecnEchoes), static_cast<int64_t>(r.ecnReductions)});
}

void
ResultsDatabase::SetRunCounts(int64_t runId, const RunCounts& c)
{
    auto i64 = [](uint64_t v) { return Value(static_cast<int64_t>(v)); };
    Query("UPDATE runs SET transport = ?, queue_disc = ?, ecn = ?, queue_drops = ?, "
          "ecn_marks = ?, ecn_echoes = ?, ecn_reductions = ?, retransmitted_bytes = ?, "
          "fixed_point_overflows = ? WHERE run_id = ?",
          {c.transport.empty() ? Value(nullptr) : Value(c.transport),
           c.queueDisc.empty() ? Value(nullptr) : Value(c.queueDisc), Value(int64_t{c.ecn}),
           i64(c.queueDrops), i64(c.ecnMarks), i64(c.ecnEchoes), i64(c.ecnReductions),
           i64(c.retransmittedBytes), i64(c.fixedPointOverflows), Value(runId)});
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
            "resent_results", "overflows", "tree", "fell_back"},
           {runId, i64(r.round), i64(r.clique), r.members, r.aggregator, i64(r.segments),
            r.meanSlotWaitS, r.maxSlotWaitS, i64(r.maxSlotsInUse), i64(r.timeouts),
            i64(r.duplicates), i64(r.stale), i64(r.resentResults), i64(r.overflows),
            r.tree.empty() ? Value(nullptr) : Value(r.tree), i64(r.fellBack)});
}

void
ResultsDatabase::InsertFpga(int64_t runId, const FpgaRecord& r)
{
    Insert("fpgas",
           {"run_id", "device", "contributions", "results", "busy_s", "utilization", "partials"},
           {runId, r.device, static_cast<int64_t>(r.contributions),
            static_cast<int64_t>(r.results), r.busyS, r.utilization,
            static_cast<int64_t>(r.partials)});
}

void
ResultsDatabase::InsertTraining(int64_t runId, const TrainingRecord& r)
{
    // A NaN (an accuracy of a regression task, an untracked loss) is stored as NULL by SQLite.
    Insert("training",
           {"run_id", "round", "island", "time_s", "local_loss", "global_loss", "mean_global_loss",
            "consensus_distance", "global_accuracy", "mean_global_accuracy"},
           {runId, static_cast<int64_t>(r.round), r.island, r.timeS, r.localLoss, r.globalLoss,
            r.meanGlobalLoss, r.consensusDistance, r.globalAccuracy, r.meanGlobalAccuracy});
}

bool
ResultsDatabase::HasCompleteRun(const std::string& runKey)
{
    auto rows = Query("SELECT COUNT(*) FROM runs WHERE run_key = ? AND status = 'complete'",
                      {runKey});
    return !rows.empty() && std::get<int64_t>(rows[0][0]) > 0;
}

} // namespace ns3
