/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef INTELLIGENT_NETWORK_IDEAL_TRANSPORT_H
#define INTELLIGENT_NETWORK_IDEAL_TRANSPORT_H

#include "rate-controller.h"
#include "udp-transport.h"

#include "ns3/data-rate.h"

#include <map>

namespace ns3
{

/**
 * \ingroup intelligent-network
 * \brief The idealised transport: UDP streams paced at the max-min fair rate a central
 * allocator assigns (network-assisted pacing, `--transport=ideal`).
 *
 * An idealisation, the max-min fair reference of round time: a zero-delay bandwidth broker
 * (RateController, running the same MaxMinAllocator as the fluid CostModel over the same
 * routes) tells every stream its rate the instant the set of active streams changes, and hosts
 * pace perfectly, so queues never build and nothing is lost to congestion. Not a strict lower
 * bound: fair sharing is not the fastest, and a transport that shares a link unequally can end
 * a round sooner. The fluid model reproduces this transport only. Without a controller each island shares SendRate equally
 * among its active streams (no congestion control: `--rateControl=false`).
 *
 * Loss is not a congestion signal here (the rates are allocated): the poll timeout is a
 * tail-loss probe, SRTT + 2 RTTVAR + 1 ms (at least MinRto), doubled at most twice.
 */
class IdealTransport : public UdpTransport
{
  public:
    static TypeId GetTypeId();
    IdealTransport();
    ~IdealTransport() override;

    /// Use network-assisted rates from \p controller (null: share SendRate).
    void SetRateController(Ptr<RateController> controller);
    void RefreshStreams() override;

  protected:
    void DoDispose() override;
    void OnOpen(Stream& s) override;
    void OnAllNewSent(Stream& s) override;
    void OnClose(Stream& s) override;
    double Rto(const Stream& s) const override;
    uint32_t RepairCopies() const override;
    uint32_t DefaultNackRanges() const override;

  private:
    void OnRate(uint64_t handle, double rate);
    void ShareSendRate();

    DataRate m_sendRate;
    uint32_t m_maxRepairCopies;
    Ptr<RateController> m_controller;
    std::map<uint64_t, uint64_t> m_controllerId; ///< handle -> controller participant
};

} // namespace ns3

#endif
