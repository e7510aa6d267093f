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

/**
 * Sets the chart's axis labels to `points`, its title a point larger, and its axis titles and
 * legend a point smaller (they have the least room: a short chart's side, a wide legend). A report
 * draws a chart laid out for a window scaled down to its column, which shrinks the window's 9-point
 * text below the report's own; a larger size keeps it legible.
 */
void setChartTextPoints(QChart *chart, double points);

} // namespace cp::views
