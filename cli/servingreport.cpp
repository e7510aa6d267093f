// SPDX-License-Identifier: GPL-3.0-or-later
#include "servingreport.h"

#include "model/core/humantext.h"

#include <algorithm>
#include <string>

namespace cp::cli {

void addAutoscalingRows(Table &table, const model::AutoscalingEstimate &a)
{
    if (!a.feasible) {
        table.addRow({"autoscaling", "not possible: " + a.reason});
        return;
    }
    std::string hours;
    for (std::size_t h = 0; h < a.replicas.size(); ++h)
        hours += (h ? " " : "") + std::to_string(a.replicas[h]);
    const auto [low, high] = std::minmax_element(a.replicas.begin(), a.replicas.end());
    table.addRow({"replicas by hour (00-23)", hours});
    table.addRow({"autoscaled day",
                  format("%.0f replica-hours", a.replicaHoursPerDay)
                      + format(" (%.0f GPU-hours), ", a.gpuHoursPerDay) + std::to_string(*low)
                      + " to " + std::to_string(*high) + " replicas"});
    table.addRow({"static for the peak",
                  std::to_string(a.staticReplicas) + " replicas, "
                      + format("%.0f replica-hours", a.staticReplicaHoursPerDay)});
    table.addRow({"autoscaling saving",
                  model::withReason(format("%.1f%%", 100 * a.savingFraction)
                                        + format(" (%.0f USD/day", a.usdPerDay)
                                        + format(" instead of %.0f)", a.staticUsdPerDay),
                                    a.note)});
    table.addRow({"cost per million output / input tokens",
                  format("%.3f", a.costPerMillionOutputTokensUsd)
                      + format(" / %.3f USD over the day", a.costPerMillionInputTokensUsd)});
}

/** A price to about three significant digits, thousands grouped: "0.072 USD", "1,204 USD". */
std::string usdText(double usd)
{
    return model::groupThousands(format(usd >= 100     ? "%.0f"
                                            : usd >= 1 ? "%.2f"
                                                       : "%.3f",
                                        usd))
        + " USD";
}

namespace {

/** "1 wave of 1,813 and 1 of 1,187": the busiest replica's waves. */
std::string wavesText(const model::OfflineJobEstimate &job, int batch)
{
    std::string text;
    if (job.fullWaves > 0)
        text = model::groupedCount(job.fullWaves)
            + (job.fullWaves == 1 ? " wave of " : " waves of ") + model::groupedCount(batch);
    if (job.lastWaveBatch > 0)
        text += (text.empty() ? "1 wave of " : " and 1 of ")
            + model::groupedCount(job.lastWaveBatch);
    return text;
}

} // namespace

void addOfflineJobRows(Table &table, const model::InferenceEstimate &e)
{
    const model::OfflineJobEstimate &job = *e.offlineJob;
    table.addRow({"offline job",
                  model::countOf(job.requests, "request", "requests")
                      + (e.replicas > 1 ? ", " + model::groupedCount(job.requestsPerReplica)
                                 + " on the busiest replica"
                                        : std::string())
                      + ": " + wavesText(job, e.batch)});
    table.addRow({"job duration", model::humanDuration(job.seconds)});
    table.addRow({"job throughput per GPU",
                  model::groupThousands(format("%.0f", job.outputTokensPerSecondPerGpu))
                      + " output tokens/s over the whole job"});
    table.addRow({"job cost", usdText(job.usd)});
    table.addRow({"job energy", model::humanEnergy(job.joules) + " at the facility"});
}

} // namespace cp::cli
