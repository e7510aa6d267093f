// SPDX-License-Identifier: GPL-3.0-or-later
#include "model/core/humantext.h"

#include <cctype>

namespace cp::model {

std::string groupedCount(long long value)
{
    return groupThousands(std::to_string(value));
}

std::string groupThousands(std::string number)
{
    const std::size_t start = !number.empty() && number[0] == '-' ? 1 : 0;
    std::size_t end = start;
    while (end < number.size() && std::isdigit(static_cast<unsigned char>(number[end])))
        ++end;
    for (std::size_t at = end; at > start + 3; at -= 3)
        number.insert(at - 3, 1, ',');
    return number;
}

} // namespace cp::model
