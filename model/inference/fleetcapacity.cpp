// SPDX-License-Identifier: GPL-3.0-or-later
#include "model/inference/fleetcapacity.h"

#include "model/core/humantext.h"
#include "model/inference/inferenceestimator.h"

#include <algorithm>

namespace cp::model {

std::string percentileName(LatencyLimits::Percentile percentile)
{
    return percentile == LatencyLimits::Percentile::P99 ? "p99" : "p95";
}

namespace {

/** The fixed fleet at one offered rate, and the limit it breaks there (empty: none). */
struct LoadVerdict
{
    InferenceEstimate estimate;
    std::string broken;
    double seconds = 0; ///< the broken latency limit's figure at this load
    double limitSeconds = 0; ///< and the limit
    bool keeps() const { return broken.empty(); }
    /** A latency limit broke, not memory or the throughput. */
    bool latencyBroken() const { return limitSeconds > 0; }
};

class FleetLoadProbe
{
public:
    FleetLoadProbe(const InferenceJob &job, const ClusterDescription &hardware,
                   const ServingCostModel &cost, const LatencyLimits &limits)
        : m_job(job)
        , m_hardware(hardware)
        , m_cost(cost)
        , m_limits(limits)
    {
        // The fleet as given, at whatever rate the search offers it; the limits here replace
        // the job's own p95 targets.
        m_job.replicas = job.replicas.value_or(1);
        m_job.batch.reset();
        m_job.offlineRequests.reset();
        m_job.ttftP95Seconds.reset();
        m_job.tpotP95Seconds.reset();
    }

    LoadVerdict at(double requestsPerSecond) const
    {
        InferenceJob job = m_job;
        job.ratePerSecond = requestsPerSecond;
        LoadVerdict verdict {InferenceEstimator(job, m_hardware, m_cost).estimate(), {}};
        const InferenceEstimate &e = verdict.estimate;
        const bool p99 = m_limits.percentile == LatencyLimits::Percentile::P99;
        const double ttft = p99 ? e.ttftP99Seconds : e.ttftSeconds;
        const double tpot = p99 ? e.tpotP99Seconds : e.tpotP95Seconds;
        const std::string percentile = percentileName(m_limits.percentile);
        if (!e.fits)
            verdict.broken = "memory";
        else if (!e.meetsTargets) // no targets of its own: the load is more than it serves
            verdict.broken = "throughput";
        else if (m_limits.ttftSeconds && ttft > *m_limits.ttftSeconds)
            verdict = {verdict.estimate, "TTFT " + percentile, ttft, *m_limits.ttftSeconds};
        // The TTFT counts no wait for a free slot: it holds only while the occupancy's
        // percentile fits the largest batch.
        else if (m_limits.ttftSeconds
                 && !occupancyFitsSlots(e.inFlightSequences, e.maxBatch, p99 ? 0.99 : 0.95))
            verdict.broken = "TTFT " + percentile + " (prompts would wait for a free slot)";
        else if (m_limits.tpotSeconds && tpot > *m_limits.tpotSeconds)
            verdict = {verdict.estimate, "TPOT " + percentile, tpot, *m_limits.tpotSeconds};
        return verdict;
    }

    int replicas() const { return *m_job.replicas; }
    int outputTokens() const { return m_job.outputTokens; }

private:
    InferenceJob m_job;
    const ClusterDescription &m_hardware;
    const ServingCostModel &m_cost;
    LatencyLimits m_limits;
};

/** Why even an unloaded fleet misses the limits. */
std::string unloadedMiss(const LoadVerdict &idle)
{
    if (!idle.latencyBroken())
        return idle.estimate.reason;
    return "even without load the " + idle.broken + " is "
        + formatNumber("%.1f ms", idle.seconds * 1e3) + ", above the "
        + formatNumber("%.1f ms", idle.limitSeconds * 1e3) + " limit";
}

} // namespace

FleetCapacity fleetCapacityWithinLimits(const InferenceJob &job, const ClusterDescription &hardware,
                                        const ServingCostModel &cost, const LatencyLimits &limits)
{
    const FleetLoadProbe probe(job, hardware, cost, limits);
    FleetCapacity capacity;
    // A load so light that nothing waits: the fleet's unloaded latencies, and the most it
    // serves flat out at its largest batch (InferenceEstimate::requestsPerSecondPerReplica).
    const double nearlyIdle = 1e-9;
    const LoadVerdict idle = probe.at(nearlyIdle);
    capacity.estimate = idle.estimate;
    if (!idle.keeps()) {
        capacity.reason = unloadedMiss(idle);
        return capacity;
    }
    // A load that breaks something: just above the fleet's flat-out rate (the most its largest
    // batch holds, InferenceEstimate::requestsPerSecondPerReplica) it is overloaded; doubling from
    // there is only a guard should that ever not hold.
    LoadVerdict kept = idle;
    double keeps = nearlyIdle;
    double breaks = std::max(2.0 * nearlyIdle,
                             idle.estimate.requestsPerSecondPerReplica * probe.replicas() * 1.0001);
    LoadVerdict above = probe.at(breaks);
    for (int doubling = 0; above.keeps() && doubling < 64; ++doubling) {
        keeps = breaks;
        kept = std::move(above);
        breaks *= 2.0;
        above = probe.at(breaks);
    }
    if (above.keeps()) // 2^64 times its flat-out rate still served: nothing to bisect
        above.broken = "throughput";
    // Bisection to 0.01% of the rate: about 14 estimates of about a millisecond each.
    for (int step = 0; step < 64 && breaks - keeps > 1e-4 * breaks; ++step) {
        const double middle = 0.5 * (keeps + breaks);
        LoadVerdict verdict = probe.at(middle);
        if (verdict.keeps()) {
            keeps = middle;
            kept = std::move(verdict);
        } else {
            breaks = middle;
            above = std::move(verdict);
        }
    }
    capacity.serves = true;
    capacity.estimate = std::move(kept.estimate);
    capacity.estimate.capacityWithinLimits
        = CapacityWithinLimits {.requestsPerSecond = keeps,
                                .outputTokensPerSecond = keeps * probe.outputTokens(),
                                .limitedBy = above.broken};
    return capacity;
}

InferenceEstimate estimateAtCapacity(const InferenceJob &job, const ClusterDescription &hardware,
                                     const ServingCostModel &cost, const LatencyLimits &limits)
{
    FleetCapacity capacity = fleetCapacityWithinLimits(job, hardware, cost, limits);
    if (!capacity.serves && capacity.estimate.fits) {
        capacity.estimate.meetsTargets = false;
        capacity.estimate.reason = capacity.reason;
    }
    return capacity.estimate;
}

std::string capacityWithinLimitsText(const InferenceEstimate &e)
{
    const CapacityWithinLimits &capacity = *e.capacityWithinLimits;
    const std::string breaks = capacity.limitedBy == "throughput"
        ? "beyond it the replicas' largest batch (" + groupedCount(e.maxBatch)
            + " sequences) serves no more"
        : "a little more load breaks the " + capacity.limitedBy + " limit";
    return threeDigits(capacity.requestsPerSecond) + " requests/s ("
        + threeDigits(capacity.outputTokensPerSecond) + " output tokens/s) on "
        + groupedCount(e.replicas) + (e.replicas == 1 ? " replica; " : " replicas; ") + breaks;
}

} // namespace cp::model
