/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef INTELLIGENT_NETWORK_RESULTS_DATABASE_H
#define INTELLIGENT_NETWORK_RESULTS_DATABASE_H

#include <cstdint>
#include <limits>
#include <map>
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
};

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
    std::string kind; ///< private | public | access
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
};

/// One FPGA over the run (table `fpgas`).
struct FpgaRecord
{
    std::string device;
    uint64_t contributions;
    uint64_t results;
    double busyS;
    double utilization; ///< busyS / simulated duration.
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
 * Opening creates the schema if needed (see SchemaSql(), documented in doc/). The database is
 * in WAL mode with a busy timeout, so several processes of a sweep may append concurrently. A
 * run's rows are written in one transaction (Begin/Commit), so a run is either wholly present
 * or absent; runs are only ever appended, never overwritten.
 */
class ResultsDatabase
{
  public:
    using Value = std::variant<std::nullptr_t, int64_t, double, std::string>;
    using Row = std::vector<Value>;

    /// Open (creating if needed) the database at \p path; throws std::runtime_error on failure.
    explicit ResultsDatabase(const std::string& path);
    ~ResultsDatabase();
    ResultsDatabase(const ResultsDatabase&) = delete;
    ResultsDatabase& operator=(const ResultsDatabase&) = delete;

    const std::string& Path() const;

    /// The schema this class creates (CREATE TABLE IF NOT EXISTS statements).
    static std::string SchemaSql();
    /// Version string of the module (CMake project version and git revision when known).
    static std::string ModuleVersion();

    void Begin();
    void Commit();
    void Rollback();
    /// Execute SQL without results.
    void Exec(const std::string& sql);
    /// Run a query with bound parameters and return all rows.
    std::vector<Row> Query(const std::string& sql, const std::vector<Value>& params = {});
    /// Insert one row; returns its rowid.
    int64_t Insert(const std::string& table,
                   const std::vector<std::string>& columns,
                   const std::vector<Value>& values);

    /// Insert a runs row with \p status ("complete" or "failed"); returns run_id.
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
    sqlite3_stmt* Prepare(const std::string& sql);
    void Bind(sqlite3_stmt* stmt, const std::vector<Value>& values);
    [[noreturn]] void Fail(const std::string& what) const;

    std::string m_path;
    sqlite3* m_db = nullptr;
    std::map<std::string, sqlite3_stmt*> m_statements;
};

} // namespace ns3

#endif
