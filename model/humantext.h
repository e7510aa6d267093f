// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <string>

namespace cp::model {

/** A count as people read it: 1024 as "1,024", -2048000 as "-2,048,000". */
std::string groupedCount(long long value);

} // namespace cp::model
