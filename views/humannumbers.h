// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QString>

namespace cp::views {

/** A count as people say it: "2 T", "160.6 B", "512 M", "4,096" (three significant digits). */
QString humanCount(double count);

} // namespace cp::views
