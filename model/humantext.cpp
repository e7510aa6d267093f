// SPDX-License-Identifier: GPL-3.0-or-later
#include "model/humantext.h"

namespace cp::model {

std::string groupedCount(long long value)
{
    std::string digits = std::to_string(value);
    const std::size_t start = digits[0] == '-' ? 1 : 0;
    for (std::size_t at = digits.size(); at > start + 3; at -= 3)
        digits.insert(at - 3, 1, ',');
    return digits;
}

} // namespace cp::model
