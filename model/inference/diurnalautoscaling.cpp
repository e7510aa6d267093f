// SPDX-License-Identifier: GPL-3.0-or-later
#include "model/inference/diurnalautoscaling.h"

#include "model/core/humantext.h"

#include "model/core/inputerror.h"
#include "model/core/units.h"
#include "model/inference/inferenceestimator.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <numbers>

namespace cp::model {

DiurnalProfile diurnalProfileFromHourlyRates(const std::vector<double> &rates,
                                             const std::string &source)
{
    if (rates.size() != 24)
        throw InputError(source, "",
                         "a day has 24 hourly rates, found " + std::to_string(rates.size()));
    double peak = 0;
    for (std::size_t h = 0; h < rates.size(); ++h) {
        if (!std::isfinite(rates[h]) || rates[h] < 0)
            throw InputError(source, "/" + std::to_string(h),
                             "an hourly rate must be a finite number >= 0");
        peak = std::max(peak, rates[h]);
    }
    if (peak <= 0)
        throw InputError(source, "", "every hourly rate is zero: there is no traffic to serve");
    DiurnalProfile profile;
    for (std::size_t h = 0; h < rates.size(); ++h)
        profile.hourlyFraction[h] = rates[h] / peak;
    return profile;
}

DiurnalProfile cosineDiurnalProfile(double troughFraction, int peakHour)
{
    if (!(troughFraction >= 0 && troughFraction <= 1))
        throw InputError("diurnal profile", "trough",
                         "the trough must be a fraction of the peak between 0 and 1");
    if (peakHour < 0 || peakHour > 23)
        throw InputError("diurnal profile", "peak_hour", "the peak hour must be 0..23");
    DiurnalProfile profile;
    for (int h = 0; h < 24; ++h)
        profile.hourlyFraction[static_cast<std::size_t>(h)] = troughFraction
            + (1 - troughFraction) * (1 + std::cos(2 * std::numbers::pi * (h - peakHour) / 24.0))
                / 2;
    return profile;
}

AutoscalingEstimate estimateDiurnalAutoscaling(const InferenceJob &peakJob,
                                               const ClusterDescription &hardware,
                                               const ServingCostModel &cost,
                                               const DiurnalProfile &profile, int minReplicas)
{
    AutoscalingEstimate result;
    result.gpusPerReplica = peakJob.gpusPerReplica;
    if (!peakJob.ratePerSecond || *peakJob.ratePerSecond <= 0) {
        result.feasible = false;
        result.reason = "a diurnal profile needs the peak hour's request rate";
        return result;
    }
    minReplicas = std::max(0, minReplicas);
    const int replicaGpus = peakJob.gpusPerReplica; // all stages' GPUs
    const double usdPerReplicaHour = cost.usdPerGpuHour() * replicaGpus;
    // Hours at the same rate (the peak among them) are sized once.
    std::map<double, InferenceEstimate> byRate;
    const auto sizedFor = [&](double rate) -> const InferenceEstimate & {
        auto it = byRate.find(rate);
        if (it == byRate.end()) {
            InferenceJob job = peakJob;
            job.ratePerSecond = rate;
            it = byRate.emplace(rate, InferenceEstimator(job, hardware, cost).estimate()).first;
        }
        return it->second;
    };
    const InferenceEstimate &atPeak = sizedFor(*peakJob.ratePerSecond);
    if (!atPeak.fits || !atPeak.meetsTargets) {
        result.feasible = false;
        result.reason = atPeak.reason;
        return result;
    }
    double prefillUsd = 0;
    for (std::size_t h = 0; h < 24; ++h) {
        const double rate = *peakJob.ratePerSecond * profile.hourlyFraction[h];
        result.requestsPerSecond[h] = rate;
        int replicas = minReplicas;
        double prefillShare = atPeak.prefillCostShare; // an idle hour: the peak's split
        if (rate > 0) {
            const InferenceEstimate &e = sizedFor(rate);
            if (!e.fits || !e.meetsTargets) {
                result.feasible = false;
                result.reason = e.reason;
                return result;
            }
            replicas = std::max(replicas, e.replicas);
            prefillShare = e.prefillCostShare;
            // Static provisioning sizes for the busiest hour's need, not the autoscaler's floor.
            result.staticReplicas = std::max(result.staticReplicas, e.replicas);
        }
        result.replicas[h] = replicas;
        result.replicaHoursPerDay += replicas;
        prefillUsd += replicas * usdPerReplicaHour * prefillShare;
        result.outputTokensPerDay += rate * units::secondsPerHour * peakJob.outputTokens;
        result.inputTokensPerDay += rate * units::secondsPerHour * peakJob.inputTokens;
    }
    result.staticReplicas = std::max(1, result.staticReplicas);
    if (minReplicas > result.staticReplicas)
        result.note = "the floor of " + groupedCount(minReplicas) + " replicas is above the "
            + groupedCount(result.staticReplicas)
            + " the busiest hour needs: the fleet never scales, and costs more than a static "
              "one sized for the peak";
    result.staticReplicaHoursPerDay = 24.0 * result.staticReplicas;
    result.gpuHoursPerDay = result.replicaHoursPerDay * replicaGpus;
    result.usdPerDay = result.replicaHoursPerDay * usdPerReplicaHour;
    result.staticUsdPerDay = result.staticReplicaHoursPerDay * usdPerReplicaHour;
    result.savingFraction = result.staticReplicaHoursPerDay > 0
        ? 1 - result.replicaHoursPerDay / result.staticReplicaHoursPerDay
        : 0;
    if (result.outputTokensPerDay > 0) {
        result.costPerMillionOutputTokensUsd
            = (result.usdPerDay - prefillUsd) / (result.outputTokensPerDay / units::mega);
        result.costPerMillionInputTokensUsd = prefillUsd / (result.inputTokensPerDay / units::mega);
    }
    return result;
}

} // namespace cp::model
