/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "congestion-window.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>

namespace ns3
{

void
CongestionWindowConfig::Validate() const
{
    auto bad = [](double v) { return !std::isfinite(v) || v <= 0; };
    if (algorithm != "cubic" && algorithm != "reno")
    {
        throw std::invalid_argument("congestion window: algorithm must be cubic or reno, not '" +
                                    algorithm + "'");
    }
    if (bad(initialWindow) || initialWindow > 1e9)
    {
        throw std::invalid_argument("congestion window: initial window must be in (0, 1e9]");
    }
    if (bad(minWindow) || minWindow > initialWindow)
    {
        throw std::invalid_argument(
            "congestion window: minimum window must be positive and at most the initial one");
    }
    if (!(beta == 0 || (beta > 0 && beta < 1)))
    {
        throw std::invalid_argument("congestion window: beta must be in (0, 1) (0: default)");
    }
    if (bad(cubicC))
    {
        throw std::invalid_argument("congestion window: CUBIC's C must be positive");
    }
    if (bad(initialSsthresh))
    {
        throw std::invalid_argument("congestion window: initial ssthresh must be positive");
    }
}

double
CongestionWindowConfig::Beta() const
{
    if (beta > 0)
    {
        return beta;
    }
    return algorithm == "cubic" ? 0.7 : 0.5;
}

CongestionWindow::CongestionWindow(const CongestionWindowConfig& config)
    : m_config(config),
      m_window(config.initialWindow),
      m_ssthresh(config.initialSsthresh)
{
    m_config.Validate();
}

double
CongestionWindow::Window() const
{
    return m_window;
}

double
CongestionWindow::Ssthresh() const
{
    return m_ssthresh;
}

bool
CongestionWindow::InSlowStart() const
{
    return m_window < m_ssthresh;
}

uint64_t
CongestionWindow::Reductions() const
{
    return m_reductions;
}

void
CongestionWindow::OnAcked(uint32_t segments, double now, double srtt)
{
    while (segments > 0 && InSlowStart())
    {
        m_window = std::min(m_window + 1, m_ssthresh);
        --segments;
    }
    if (segments == 0)
    {
        return;
    }
    if (m_config.algorithm == "reno")
    {
        for (uint32_t i = 0; i < segments; ++i)
        {
            m_window += 1.0 / m_window;
        }
        return;
    }
    // CUBIC (RFC 8312, windows in segments, time in seconds).
    const double c = m_config.cubicC;
    const double beta = m_config.Beta();
    if (m_epochStart < 0)
    {
        m_epochStart = now;
        if (m_window < m_wMax)
        {
            m_k = std::cbrt((m_wMax - m_window) / c);
        }
        else
        {
            m_k = 0;
            m_wMax = m_window;
        }
        m_wEst = m_window;
    }
    double t = now + srtt - m_epochStart;
    double target = c * std::pow(t - m_k, 3) + m_wMax;
    // TCP-friendly region: what Reno with the same beta would have reached.
    m_wEst += 3 * (1 - beta) / (1 + beta) * segments / m_window;
    double goal = std::max(target, m_wEst);
    if (goal > m_window)
    {
        // Grow towards the goal within one round trip (at most 1.5x per RTT, as Linux).
        double step = std::min(goal - m_window, 0.5 * m_window);
        m_window += step * segments / m_window;
    }
    else
    {
        m_window += 0.01 * segments / m_window; // plateau: probe slowly
    }
}

void
CongestionWindow::Reduce(uint32_t nextNew, double now)
{
    const double beta = m_config.Beta();
    // CUBIC fast convergence: release bandwidth when the plateau keeps dropping.
    m_wMax = (m_window < m_wMax) ? m_window * (1 + beta) / 2 : m_window;
    m_window = std::max(m_config.minWindow, m_window * beta);
    m_ssthresh = m_window;
    m_epochStart = -1;
    m_recoverySeq = nextNew;
    ++m_reductions;
}

bool
CongestionWindow::OnLoss(uint32_t seq, uint32_t nextNew, double now)
{
    if (seq < m_recoverySeq)
    {
        return false; // sent before the last reduction: the same congestion event
    }
    Reduce(nextNew, now);
    return true;
}

bool
CongestionWindow::OnMark(uint32_t markedSeq, uint32_t nextNew, double now)
{
    // As TCP's CWR state (RFC 3168 6.1.2): one reduction per window of data. A mark on a
    // segment sent before the last reduction (loss or mark) belongs to the congestion event
    // already answered: the queue it reports is the one the reduction drains.
    if (markedSeq < m_recoverySeq)
    {
        return false;
    }
    Reduce(nextNew, now);
    return true;
}

void
CongestionWindow::Restart()
{
    m_recoverySeq = 0;
    m_epochStart = -1;
}

void
CongestionWindow::Resume(double validated)
{
    Restart();
    if (!(validated > 0) || !std::isfinite(validated))
    {
        validated = m_config.initialWindow;
    }
    double old = m_window;
    m_window = std::min(old, std::max(m_config.initialWindow, validated));
    // Slow start back towards the old window (Linux's tcp_cwnd_restart keeps the threshold
    // at least 3/4 of the window it restarts from).
    m_ssthresh = std::max(m_ssthresh, 0.75 * old);
    m_wMax = old;
}

void
CongestionWindow::OnTimeout(uint32_t nextNew, double now)
{
    m_wMax = m_window;
    m_ssthresh = std::max(m_config.minWindow, m_window / 2);
    m_window = m_config.minWindow;
    m_epochStart = -1;
    m_recoverySeq = nextNew;
    ++m_reductions;
}

} // namespace ns3
