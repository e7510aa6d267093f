// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "table.h"

#include "model/inference/diurnalautoscaling.h"

namespace cp::cli {

/** Rows for an autoscaled day: replica-hours against static provisioning, the saving, cost. */
void addAutoscalingRows(Table &table, const model::AutoscalingEstimate &autoscaling);

} // namespace cp::cli
