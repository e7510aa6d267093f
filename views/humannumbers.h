// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QString>

#include <string>

namespace cp::views {

/** A count as people say it: "2 T", "160.6 B", "512 M", "4,096" (three significant digits). */
QString humanCount(double count);

/** "1 replica", "6 replicas". */
QString replicaCount(int replicas);

/** A figure for a table cell: grouped thousands, decimals by magnitude, counts as integers. */
QString comparisonNumber(double value, const std::string &unit = {});

} // namespace cp::views
