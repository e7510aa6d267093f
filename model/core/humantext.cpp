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

std::string slugOf(const std::string &text)
{
    std::string slug;
    for (char c : text) {
        const auto u = static_cast<unsigned char>(c);
        if (std::isalnum(u))
            slug += static_cast<char>(std::tolower(u));
        else if (!slug.empty() && slug.back() != '-')
            slug += '-';
    }
    while (!slug.empty() && slug.back() == '-')
        slug.pop_back();
    return slug.empty() ? "item" : slug;
}

} // namespace cp::model
