/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef INTELLIGENT_NETWORK_RESULTS_DATABASE_H
#define INTELLIGENT_NETWORK_RESULTS_DATABASE_H

#include <cstdint>
#include <functional>
#include <limits>
#include <map>
#include <memory>
#include <stdexcept>
#include <string>
#include <variant>
#include <vector>

struct sqlite3;
struct sqlite3_stmt;

namespace ns3
{

/// Parameters and identity of one run (one row of table `runs`).
struct RunRecord
{
    std::string runKey;         ///< Caller's identity of the run (sweeps skip complete keys).
    std::string program;        ///< Program that produced it.
    std::string version;        ///< Module version (ResultsDatabase::ModuleVersion()).
    std::string topology;       ///< Topology name or path.
    std::string schedule;       ///< Schedule name.
    std::string mode;           ///< unicast | multicast | aggregation.
    uint64_t seed = 1;          ///< ns-3 RngSeed.
    uint64_t runNumber = 1;     ///< ns-3 RngRun.
    uint64_t modelBytes = 0;    ///< Modelled payload per island per round.
    uint64_t segmentSize = 0;   ///< Payload bytes per simulated segment.
    uint64_t rounds = 0;        ///< Rounds simulated.
    std::string parametersJson; ///< Every parameter of the run as a JSON object.
    /// Heap allocator of the process (empty: HeapAllocator(), the one serving malloc now).
    std::string allocator;
};

/// One clique of one round (table `rounds`).
struct RoundRecord
{
    uint32_t round;
    uint32_t clique;
    std::string members; ///< City codes joined by '+'.
    double startS;       ///< Earliest member start of the round (simulated seconds).
    double endS;         ///< Latest member finish.
    uint64_t bytes;      ///< Payload bytes the members sent (first transmissions + retransmissions).
    uint64_t retransmittedBytes;
    std::string pattern = ""; ///< Exchange pattern of the clique (PatternName); empty: the run's mode.
    uint64_t ecnEchoes = 0;     ///< Congestion-mark echoes the members' streams heard.
    uint64_t ecnReductions = 0; ///< Window reductions marks caused (once per window of data).
};

/// Run-wide settings and counts of the transport and the queues (columns of table `runs`).
struct RunCounts
{
    std::string transport;     ///< ideal | cc | tcp.
    std::string queueDisc;     ///< none | pfifo | red-ecn | fq-codel.
    bool ecn = false;          ///< UDP transports sent ECN-capable data (ns3::UdpTransport::Ecn).
    uint64_t queueDrops = 0;   ///< Packets dropped by egress queues.
    uint64_t ecnMarks = 0;     ///< Packets queue disciplines marked CE.
    uint64_t ecnEchoes = 0;    ///< Congestion-mark echoes the senders heard.
    uint64_t ecnReductions = 0; ///< Window reductions marks caused.
    uint64_t retransmittedBytes = 0; ///< Payload bytes sent again.
    /// Fixed-point saturations the islands saw (ScenarioResult::fixedPointOverflows).
    uint64_t fixedPointOverflows = 0;
};

/// RoundRecord::pattern of an aggregation clique-round whose members gave up on the FPGA and
/// exchanged by multicast instead (fallback after the aggregation timeout).
constexpr const char* kFallbackPattern = "multicast (aggregation fell back)";

/// One island in one round (table `island_rounds`).
struct IslandRoundRecord
{
    uint32_t round;
    std::string island;
    int32_t clique; ///< -1 when the island sat the round out.
    double startS;
    double computeEndS;
    double endS;
    uint64_t bytesSent;
    uint64_t bytesReceived;
    uint64_t retransmittedSegments;
};

/// One direction of one link (table `links`).
struct LinkRecord
{
    std::string link; ///< e.g. "LON1-FRA1"
    std::string kind; ///< private | public | access | metro | exchange
    std::string from;
    std::string to;
    double capacityBps;
    uint64_t bytes;   ///< Bytes put on the wire (all headers included).
    uint64_t packets;
    uint64_t payloadBytes; ///< Model bytes among them (segments of models and sums).
    double busyS;     ///< Time spent transmitting.
    double utilization; ///< busyS / simulated duration.
};

/// One clique's in-network aggregation in one round (table `aggregation`).
struct AggregationRecord
{
    uint32_t round;
    uint32_t clique;
    std::string members;    ///< City codes joined by '+'.
    std::string aggregator; ///< Device carrying the FPGA.
    uint64_t segments;      ///< Segments summed.
    double meanSlotWaitS;   ///< Mean time a segment's slot waited for all members.
    double maxSlotWaitS;
    uint32_t maxSlotsInUse;
    uint64_t timeouts;      ///< Straggler timeouts.
    uint64_t duplicates;    ///< Contributions counted already (resent needlessly).
    uint64_t stale;         ///< Contributions dropped as too old.
    uint64_t resentResults; ///< Sums sent again to a member that missed them.
    uint64_t overflows;     ///< Segments whose int32 sum overflowed.
    /// The FPGAs of the clique's aggregation tree, root first: "DEV" or "DEV>PARENT".
    std::string tree;
    uint32_t fellBack = 0; ///< Members that fell back from the FPGAs to multicast this round.
};

/// One FPGA over the run (table `fpgas`).
struct FpgaRecord
{
    std::string device;
    uint64_t contributions;
    uint64_t results;
    double busyS;
    double utilization; ///< busyS / simulated duration.
    uint64_t partials = 0; ///< Partial sums sent up an aggregation tree.
};

/// One island at the end of one round of a training run (table `training`).
struct TrainingRecord
{
    uint32_t round;
    std::string island;
    double timeS;             ///< Simulated time the round ended (all islands synchronised).
    double localLoss;         ///< Loss on the island's own shard after its local steps.
    double globalLoss;        ///< Held-out loss of the island's vector after synchronisation.
    double meanGlobalLoss;    ///< Held-out loss of the mean of all islands' vectors.
    double consensusDistance; ///< Mean over islands of ||x_i - mean||.
    /// Held-out accuracy of the island's vector (NaN, stored NULL, if the task has none).
    double globalAccuracy = std::numeric_limits<double>::quiet_NaN();
    /// Held-out accuracy of the mean of all islands' vectors (NaN: NULL).
    double meanGlobalAccuracy = std::numeric_limits<double>::quiet_NaN();
};

/**
 * \ingroup intelligent-network
 * \brief The SQLite results database (SQLite C API). Pure C++.
 *
 * Opening checks the database and prepares it for appending, so that a program can open it
 * before a simulation and learn of any problem before spending the simulation's time:
 * - the file must be an SQLite database of this module (PRAGMA application_id ApplicationId(),
 *   or a database of schema 1, the unversioned one, which is upgraded) or a new, empty one;
 * - its schema version (PRAGMA user_version) must not be newer than SchemaVersion();
 * - every table it has must have the columns this class writes;
 * - it must be writable, and it is switched to WAL mode;
 * - the schema (SchemaSql()) is created where missing, idempotently.
 * Each step that meets a lock held by another process is retried until the busy timeout (120 s
 * by default) has passed, the switch to WAL included (SQLite itself does not wait there).
 * Errors are ResultsDatabase::Error with the real cause (locked, read-only, corrupt, not a
 * results database, newer version, disk full, cannot open) in the message and in GetCause().
 *
 * A run's rows are written in one transaction (Begin/Commit), so a run is either wholly
 * present or absent; runs are only ever appended, never overwritten, and a run key is recorded
 * `complete` at most once (unique index `runs_complete_key`). No connection may be carried
 * across a fork(): open the database in the process that uses it.
 */
class ResultsDatabase
{
  public:
    using Value = std::variant<std::nullptr_t, int64_t, double, std::string>;
    using Row = std::vector<Value>;

    /// A results-database error, with its cause.
    class Error : public std::runtime_error
    {
      public:
        /// What went wrong, as far as SQLite and the checks tell.
        enum Cause
        {
            OTHER,         ///< Anything else (SQLite's message says what).
            CANNOT_OPEN,   ///< Missing directory, a directory given as the file, no permission.
            LOCKED,        ///< Another process held a lock for longer than the busy timeout.
            READ_ONLY,     ///< The file, its directory or the file system is not writable.
            CORRUPT,       ///< Not an SQLite database, or a damaged one.
            WRONG_SCHEMA,  ///< An SQLite database, but not a results database of this module.
            NEWER_VERSION, ///< Written by a newer version (schema newer than SchemaVersion()).
            DISK_FULL,     ///< No space left (or the database reached its size limit).
            IO_ERROR,      ///< An I/O error of the operating system.
            DUPLICATE_RUN, ///< The run key is already recorded as complete.
        };

        Error(Cause cause, const std::string& message);
        Cause GetCause() const;
        /// Short name of a cause ("locked", "read-only", ...).
        static std::string CauseName(Cause cause);

      private:
        Cause m_cause;
    };

    /// Open (creating if needed), check and prepare the database at \p path (see the class
    /// description); throws Error. \p busyTimeoutS bounds every wait for another process.
    explicit ResultsDatabase(const std::string& path, double busyTimeoutS = DefaultBusyTimeoutS());
    ~ResultsDatabase();
    ResultsDatabase(const ResultsDatabase&) = delete;
    ResultsDatabase& operator=(const ResultsDatabase&) = delete;

    /**
     * For programs, before they simulate: open the database a `--db` option names and check
     * it; nullptr when \p path is empty or "none" (do not record). When \p runKey is not empty
     * and already recorded as complete, throws Error (DUPLICATE_RUN): the run has been done.
     */
    static std::unique_ptr<ResultsDatabase> OpenForRun(const std::string& path,
                                                       const std::string& runKey = "");

    const std::string& Path() const;

    /// Schema version written in PRAGMA user_version (1 was the unversioned schema).
    static constexpr int SchemaVersion()
    {
        return 2;
    }
    /// PRAGMA application_id of results databases: 0x494E4554, "INET".
    static constexpr int32_t ApplicationId()
    {
        return 0x494E4554;
    }
    /// Default wait for another process's lock: 120 s.
    static constexpr double DefaultBusyTimeoutS()
    {
        return 120.0;
    }
    /// The schema this class creates (CREATE ... IF NOT EXISTS statements, tables, indexes and
    /// the view `run_rounds`).
    static std::string SchemaSql();
    /// Version string of the module (CMake project version and git revision when known).
    static std::string ModuleVersion();

    void Begin();
    void Commit();
    /// Roll back the open transaction, if any (SQLite may have rolled it back already, e.g.
    /// on a full disk); never throws, so that it cannot hide the error that caused it.
    void Rollback() noexcept;
    /// Execute SQL without results.
    /// Record the transport's and queues' settings and counts of run \p runId.
    void SetRunCounts(int64_t runId, const RunCounts& counts);
    void Exec(const std::string& sql);
    /// Run a query with bound parameters and return all rows.
    std::vector<Row> Query(const std::string& sql, const std::vector<Value>& params = {});
    /// Insert one row; returns its rowid.
    int64_t Insert(const std::string& table,
                   const std::vector<std::string>& columns,
                   const std::vector<Value>& values);

    /// Insert a runs row with \p status ("complete" or "failed"); returns run_id. A second
    /// complete row for a run key throws Error (DUPLICATE_RUN).
    int64_t InsertRun(const RunRecord& run,
                      const std::string& status,
                      double simTimeS,
                      double wallTimeS,
                      const std::string& error = "");
    void InsertRound(int64_t runId, const RoundRecord& r);
    void InsertIslandRound(int64_t runId, const IslandRoundRecord& r);
    void InsertLink(int64_t runId, const LinkRecord& r);
    void InsertAggregation(int64_t runId, const AggregationRecord& r);
    void InsertFpga(int64_t runId, const FpgaRecord& r);
    void InsertTraining(int64_t runId, const TrainingRecord& r);

    /// True if a run with this key is already recorded as complete.
    bool HasCompleteRun(const std::string& runKey);

  private:
    void CheckPath() const;
    void CheckAndPrepare();
    void SwitchToWal();
    /// Run \p op (returns an SQLite result code) again while another process holds a lock,
    /// until the busy timeout; returns the last result code.
    int Retry(const std::function<int()>& op);
    sqlite3_stmt* Prepare(const std::string& sql);
    void Bind(sqlite3_stmt* stmt, const std::vector<Value>& values);
    /// Throw Error for the last SQLite error (result code \p rc) while doing \p what.
    [[noreturn]] void Fail(const std::string& what, int rc) const;
    [[noreturn]] void Fail(Error::Cause cause, const std::string& message) const;

    std::string m_path;
    double m_busyTimeoutS;
    sqlite3* m_db = nullptr;
    std::map<std::string, sqlite3_stmt*> m_statements;
};

} // namespace ns3

#endif
