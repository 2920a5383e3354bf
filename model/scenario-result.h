/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef INTELLIGENT_NETWORK_SCENARIO_RESULT_H
#define INTELLIGENT_NETWORK_SCENARIO_RESULT_H

#include "results-database.h"

#include <ostream>
#include <string>
#include <vector>

namespace ns3
{

/**
 * \ingroup intelligent-network
 * \brief What one simulated run measured: rounds, islands, links. Pure C++ value.
 */
struct ScenarioResult
{
    bool complete = false;   ///< Every island finished every round.
    std::string error;       ///< Why not, when not complete.
    double simTimeS = 0;     ///< Simulated time when the last island finished.
    double wallTimeS = 0;    ///< Wall-clock time of the simulation.
    double cpuTimeS = 0;     ///< Process CPU time (user + system) of the simulation alone.
    uint64_t events = 0;     ///< Simulator events executed.
    std::string transport = "ideal"; ///< ideal | cc | tcp.
    uint64_t queueDrops = 0; ///< Packets dropped by egress queues (device and queue disc).
    uint64_t ecnMarks = 0;   ///< Packets marked CE by queue discs.
    uint64_t ecnEchoes = 0;  ///< Congestion-mark echoes the senders heard (acks, sums).
    uint64_t ecnReductions = 0; ///< Window reductions marks caused (once per window of data).
    std::string queueDisc = "none"; ///< Egress queue discipline.
    bool ecn = false;        ///< UDP data sent ECN-capable (ns3::UdpTransport::Ecn).
    uint64_t retransmittedBytes = 0; ///< Payload bytes sent again, all islands.
    /// Fixed-point saturations, summed over the islands (TrainingIsland::GetOverflows: values
    /// that did not fit int32 when encoded, result segments whose FPGA sum saturated, sums a
    /// member computed itself after an FPGA failure): 0 when every aggregation sum was exact.
    uint64_t fixedPointOverflows = 0;
    std::vector<RoundRecord> rounds;
    std::vector<IslandRoundRecord> islandRounds;
    std::vector<LinkRecord> links;
    std::vector<AggregationRecord> aggregation;
    std::vector<FpgaRecord> fpgas;
    std::vector<TrainingRecord> training; ///< Filled by training programs (round observers).

    /// Duration of round \p round: latest member end minus earliest member start.
    double RoundDuration(uint32_t round) const;
    /// Write the run and all its rows in one transaction; returns the run id.
    int64_t Write(ResultsDatabase& db, const RunRecord& run) const;
    /// Print the per-round summary table (ECN echoes and mark reductions per round too).
    void PrintRoundTable(std::ostream& os) const;
    /// Print the busiest links.
    void PrintLinkTable(std::ostream& os, std::size_t top = 10) const;
};

} // namespace ns3

#endif
