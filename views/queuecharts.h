// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "model/scheduling/schedulingtypes.h"

class QChart;

namespace cp::views {

/**
 * The charts of one queue simulation (model/scheduling/schedulersimulation.h), built from its
 * figures only: the share of the GPUs busy day by day, and each job class's waits at the
 * median, 95th and 99th percentile. Null when the result has nothing to draw. The caller owns
 * the chart.
 */
QChart *queueBusyChart(const model::SimulationResult &result);
QChart *queueWaitPercentileChart(const model::SimulationResult &result);

} // namespace cp::views
