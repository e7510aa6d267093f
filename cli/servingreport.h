// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "table.h"

#include "model/inference/diurnalautoscaling.h"
#include "model/inference/inferenceestimate.h"

#include <string>

namespace cp::cli {

/** Rows for an autoscaled day: replica-hours against static provisioning, the saving, cost. */
void addAutoscalingRows(Table &table, const model::AutoscalingEstimate &autoscaling);

/** A price to about three significant digits, thousands grouped: "0.072 USD", "1,204 USD". */
std::string usdText(double usd);

/** Rows for an offline job (the estimate must hold one): its waves, duration, throughput over
 * the job, cost and energy. */
void addOfflineJobRows(Table &table, const model::InferenceEstimate &estimate);

} // namespace cp::cli
