// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "model/cluster/clusterdescription.h"
#include "model/inference/inferenceestimate.h"

#include <array>
#include <string>
#include <vector>

namespace cp::model {

/** Request rate for each hour of the day as a fraction of the peak hour's (which is 1). */
struct DiurnalProfile
{
    std::array<double, 24> hourlyFraction {};
};

/**
 * A profile from 24 hourly rates in any unit (requests/s, a traffic graph's heights), scaled so
 * the busiest hour is 1. Throws InputError(source, "/N", reason) for a count other than 24, a
 * negative or non-finite value, or an all-zero day.
 */
DiurnalProfile diurnalProfileFromHourlyRates(const std::vector<double> &rates,
                                             const std::string &source);

/**
 * A stylised day: a raised cosine from `troughFraction` of the peak at peakHour - 12 up to the peak
 * at `peakHour`, f(h) = t + (1 - t)·(1 + cos(2π(h - peakHour)/24))/2. It is a shape, not
 * measured traffic; give hourly rates when you have them. Throws InputError for a trough outside
 * [0, 1] or an hour outside 0..23.
 */
DiurnalProfile cosineDiurnalProfile(double troughFraction, int peakHour = 14);

struct AutoscalingEstimate
{
    bool feasible = true; ///< the peak hour can be served within the SLOs
    std::string reason;
    std::array<double, 24> requestsPerSecond {};
    std::array<int, 24> replicas {}; ///< what the autoscaler runs in each hour
    int staticReplicas = 0; ///< static provisioning: the peak hour's replicas all day
    int gpusPerReplica = 1;
    double replicaHoursPerDay = 0;
    double staticReplicaHoursPerDay = 0;
    double gpuHoursPerDay = 0;
    double usdPerDay = 0; ///< autoscaled replica-hours at the cost model's GPU-hour price
    double staticUsdPerDay = 0;
    double savingFraction = 0; ///< 1 - autoscaled / static replica-hours
    double outputTokensPerDay = 0;
    double inputTokensPerDay = 0;
    /** The autoscaled day's cost split between prompts and generated tokens as each hour's GPU
     * time splits (InferenceEstimate::prefillCostShare), like the steady-state figures. */
    double costPerMillionOutputTokensUsd = 0;
    double costPerMillionInputTokensUsd = 0;
    /** What the reader should know of the day: a floor (minReplicas) above the peak's need. */
    std::string note;
};

/**
 * Replica-hours per day when an autoscaler sizes the fleet every hour to that hour's rate, against
 * static provisioning for the peak. Each hour is sized by InferenceEstimator with the hour's rate
 * and the job's SLOs (the hour is treated as a steady state: a Poisson rate that changes slowly
 * against request latency, the usual assumption for hourly autoscaling); an hour with no traffic
 * keeps `minReplicas` running. `peakJob.ratePerSecond` is the peak hour's rate. Every provisioned
 * replica-hour is charged the cost model's GPU-hour price, so the saving is real money with an
 * hourly cloud price, or where the freed GPUs run other work.
 */
AutoscalingEstimate estimateDiurnalAutoscaling(const InferenceJob &peakJob,
                                               const ClusterDescription &hardware,
                                               const ServingCostModel &cost,
                                               const DiurnalProfile &profile, int minReplicas = 1);

} // namespace cp::model
