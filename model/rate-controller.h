/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef INTELLIGENT_NETWORK_RATE_CONTROLLER_H
#define INTELLIGENT_NETWORK_RATE_CONTROLLER_H

#include "max-min-allocator.h"

#include "ns3/callback.h"
#include "ns3/event-id.h"
#include "ns3/object.h"
#include "ns3/traced-callback.h"

#include <map>
#include <string>
#include <vector>

namespace ns3
{

/**
 * \ingroup intelligent-network
 * \brief Network-assisted rate control: the network tells every stream its max-min fair rate.
 *
 * Senders register a stream with what it consumes (a FlowUsage built by the TrafficPlanner,
 * the same one the fluid CostModel uses) and a callback; whenever the set of active streams
 * changes, the controller re-runs MaxMinAllocator over all of them (once per simulated instant)
 * and pushes the new rates. When streams have only ended since the last allocation, it starts
 * from that allocation's events before the first that froze a stream now gone (the same rates,
 * bit for bit, see MaxMinAllocator): streams usually end fastest first, so the slower streams'
 * part of the filling is not redone each time one ends (and when those events freeze every
 * stream left, their rates are kept as they are). A stream is released when its last new
 * segment leaves. This models a centrally scheduled WAN (the "intelligent network" allocating
 * bandwidth per schedule) and keeps paced UDP senders from overrunning shared links; without a
 * controller, islands split their own SendRate.
 */
class RateController : public Object
{
  public:
    /// Receives a stream's rate in bit/s (wire bytes, all headers included). Called from within
    /// the controller: it must not register, release or update streams (schedule that instead).
    using RateCallback = Callback<void, double>;

    static TypeId GetTypeId();
    RateController();
    ~RateController() override;

    /// Capacity (bit/s) of every resource (TrafficPlanner::Capacities()).
    void SetCapacities(const std::vector<double>& capacities);
    const std::vector<double>& GetCapacities() const;

    /// Register a stream; its rate arrives through \p setRate (at the same simulated instant).
    uint64_t Register(const FlowUsage& usage, RateCallback setRate);
    /// Register one participant of a shared stream (e.g. the members of an aggregation, which
    /// together form one flow of the fluid model): the first registration with \p shareKey
    /// creates the stream, later ones join it and get the same rate. The stream is released
    /// when every participant has released its id.
    uint64_t RegisterShared(const std::string& shareKey,
                            const FlowUsage& usage,
                            RateCallback setRate);
    /// Remove a stream (or one participant of a shared stream); the others are re-rated.
    void Release(uint64_t id);
    /// The stream of participant \p id now uses \p usage (routes changed).
    void UpdateUsage(uint64_t id, const FlowUsage& usage);
    /// Number of registered streams.
    std::size_t ActiveStreams() const;
    /// The last rate given to stream \p id (0 if unknown).
    double GetRate(uint64_t id) const;

  protected:
    void DoDispose() override;

  private:
    void ScheduleRecompute();
    void Recompute();
    void Notify(uint64_t participant);

    static constexpr uint32_t kNoEvent = ~0u;

    struct Stream
    {
        FlowUsage usage;
        std::map<uint64_t, RateCallback> participants; ///< id -> callback
        double rate = -1;
        uint32_t index = 0;        ///< Position among the flows of the last allocation.
        uint32_t event = kNoEvent; ///< The event of the last allocation that froze it.
    };

    std::vector<double> m_capacities;
    std::map<uint64_t, Stream> m_streams;            ///< stream -> state
    std::map<uint64_t, uint64_t> m_streamOf;         ///< participant id -> stream
    std::map<std::string, uint64_t> m_shared;        ///< share key -> stream
    uint64_t m_nextId = 1;
    MaxMinTrace m_trace;              ///< The last allocation (flows by position).
    std::vector<uint64_t> m_traceIds; ///< Stream at each position of the last allocation.
    bool m_changed = true;            ///< Streams added or changed since (no warm start).
    bool m_notifying = false;         ///< Inside the rate callbacks.
    uint32_t m_firstGone = kNoEvent;  ///< Earliest event that froze a stream gone since.
    EventId m_recompute;
    TracedCallback<uint32_t> m_ratesUpdated;
    /// Recompute's working vectors, kept so that a recomputation allocates no memory once they
    /// have grown (see MaxMinAllocator's workspace).
    struct Scratch
    {
        std::vector<const FlowUsage*> usages;
        std::vector<uint64_t> ids;
        std::vector<Stream*> streams;
        std::vector<uint32_t> position;
        MaxMinTrace prefix;
        std::vector<double> rates;
    } m_scratch;
};

} // namespace ns3

#endif
