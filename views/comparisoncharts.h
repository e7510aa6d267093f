// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "model/planning/scenariocomparison.h"

#include <QList>

class QChart;

namespace cp::views {

/**
 * The comparison's charts, built from model figures only (model/planning/scenariocomparison.h): for
 * training plans the step-time breakdown (compute / exposed communication / bubble), wall time
 * and run cost, power breakdown, scaling curve and the cost-versus-time Pareto chart; for
 * inference the cost per million tokens with TTFT, power, and cost-versus-latency Pareto chart.
 * `highlight` (a scenario index, -1 none) is marked "▶" in categories and legends, so the charts
 * follow the scenario selected in the table or the scenario list. The caller owns the charts.
 */
/** Decimals an axis needs so that labels one `tickStep` apart read differently. */
int axisLabelDecimals(double tickStep);

QList<QChart *> comparisonCharts(const model::ScenarioComparison &comparison, int highlight = -1);

} // namespace cp::views
