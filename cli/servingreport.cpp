// SPDX-License-Identifier: GPL-3.0-or-later
#include "servingreport.h"

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
                  format("%.1f%%", 100 * a.savingFraction) + format(" (%.0f USD/day", a.usdPerDay)
                      + format(" instead of %.0f)", a.staticUsdPerDay)});
    table.addRow({"cost per million output / input tokens",
                  format("%.3f", a.costPerMillionOutputTokensUsd)
                      + format(" / %.3f USD over the day", a.costPerMillionInputTokensUsd)});
}

} // namespace cp::cli
