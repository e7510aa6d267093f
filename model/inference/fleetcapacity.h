// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "model/cluster/clusterdescription.h"
#include "model/inference/inferenceestimate.h"

#include <optional>
#include <string>

namespace cp::model {

/**
 * Latency limits a fixed fleet keeps, each at one percentile of its requests: a service-level
 * objective, or MLPerf's server scenario (p99 TTFT 2 s and p99 TPOT 200 ms for Llama 2 70B and
 * Mixtral 8x7B: mlcommons/inference loadgen/mlperf.conf, `*.Server.target_latency_percentile =
 * 99`, `llama2-70b.Server.ttft_latency = 2000`, `tpot_latency = 200`).
 */
struct LatencyLimits
{
    enum class Percentile { P95, P99 };
    Percentile percentile = Percentile::P95;
    std::optional<double> ttftSeconds;
    std::optional<double> tpotSeconds;
};

/** "p95" or "p99". */
std::string percentileName(LatencyLimits::Percentile percentile);

/** A fixed fleet at the most it serves within its limits, or why no load keeps them. */
struct FleetCapacity
{
    bool serves = false; ///< some load keeps the limits
    /** At the capacity, whose figures estimate.capacityWithinLimits holds; unloaded when no
     * load keeps the limits. */
    InferenceEstimate estimate;
    std::string reason; ///< why no load keeps the limits
    const CapacityWithinLimits &capacity() const { return *estimate.capacityWithinLimits; }
};

/**
 * The highest Poisson request rate at which `job`'s fixed fleet (InferenceJob::replicas, one when
 * unset) keeps `limits`, found by bisection over the rate: the fixed fleet's latencies rise with
 * its load (the in-flight batch grows with the rate; InferenceEstimator), so the rates that keep
 * the limits form an interval from zero. The job's own rate and p95 targets are ignored. This is
 * the quantity MLPerf's server scenario publishes (the submitter raises the rate until a limit
 * breaks), and what an architect asks of a fleet: how much traffic it takes inside the SLO.
 * Latency at a given rate near saturation moves by multiples with a few percent of capacity; the
 * rate at the limits does not, so it is the well-conditioned question.
 */
FleetCapacity fleetCapacityWithinLimits(const InferenceJob &job, const ClusterDescription &hardware,
                                        const ServingCostModel &cost, const LatencyLimits &limits);

/**
 * The fleet at its capacity within `limits` (fleetCapacityWithinLimits), as an estimate to show:
 * when no load keeps the limits, the unloaded estimate refused with the reason.
 */
InferenceEstimate estimateAtCapacity(const InferenceJob &job, const ClusterDescription &hardware,
                                     const ServingCostModel &cost, const LatencyLimits &limits);

/**
 * The capacity in words, for the estimate it was found for (InferenceEstimate::
 * capacityWithinLimits set): "96.7 requests/s (28,047 output tokens/s) on 4 replicas; beyond it
 * the replicas' largest batch (1,024 sequences) serves no more", or "...; a little more load
 * breaks the TPOT p95 limit".
 */
std::string capacityWithinLimitsText(const InferenceEstimate &estimate);

} // namespace cp::model
