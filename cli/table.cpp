// SPDX-License-Identifier: GPL-3.0-or-later
#include "table.h"

#include "model/core/humantext.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>

namespace cp::cli {

Table::Table(std::vector<std::string> header)
{
    m_rows.push_back(std::move(header));
}

void Table::addRow(std::vector<std::string> row)
{
    m_rows.push_back(std::move(row));
}

namespace {
/** Characters a terminal shows for UTF-8 `text`: its bytes less the continuation bytes, so that
 * "≥ 16 days" pads like the nine characters it is, not the eleven bytes it takes. */
std::size_t displayWidth(const std::string &text)
{
    return static_cast<std::size_t>(std::count_if(text.begin(), text.end(), [](char c) {
        return (static_cast<unsigned char>(c) & 0xC0) != 0x80;
    }));
}
} // namespace

std::string Table::render() const
{
    std::vector<std::size_t> widths;
    for (const auto &row : m_rows) {
        widths.resize(std::max(widths.size(), row.size()), 0);
        for (std::size_t i = 0; i < row.size(); ++i)
            widths[i] = std::max(widths[i], displayWidth(row[i]));
    }
    std::string text;
    for (std::size_t r = 0; r < m_rows.size(); ++r) {
        const auto &row = m_rows[r];
        std::string line;
        for (std::size_t i = 0; i < row.size(); ++i) {
            std::string cell = row[i];
            if (i + 1 < row.size())
                cell.append(widths[i] - displayWidth(cell), ' ');
            line += (i ? "  " : "") + cell;
        }
        text += line + "\n";
        if (r == 0) {
            std::string rule;
            for (std::size_t i = 0; i < widths.size(); ++i)
                rule += (i ? "  " : "") + std::string(widths[i], '-');
            text += rule + "\n";
        }
    }
    return text;
}

std::string format(const char *pattern, double value)
{
    const std::string spec(pattern);
    const std::size_t percent = spec.find('%');
    const std::size_t conversion = spec.find_first_of("fgeE", percent);
    if (percent == std::string::npos || conversion == std::string::npos)
        return spec;
    const auto literal = [](std::string text) {
        for (std::size_t at = text.find("%%"); at != std::string::npos;
             at = text.find("%%", at + 1))
            text.erase(at, 1);
        return text;
    };
    const std::string prefix = literal(spec.substr(0, percent));
    const std::string suffix = literal(spec.substr(conversion + 1));
    // Never "inf" or "nan" in front of a person.
    if (!std::isfinite(value))
        return prefix + "unknown" + suffix;
    std::string number(128, '\0');
    const bool general = spec[conversion] == 'g';
    if (general && std::abs(value) >= 1e4) {
        // %.4g of 2535913 is "2.536e+06": the same digits, written out with separators.
        const int significant = std::max(1, std::atoi(spec.c_str() + percent + 2));
        const double scale
            = std::pow(10.0, std::floor(std::log10(std::abs(value))) + 1 - significant);
        number.resize(
            std::snprintf(number.data(), number.size(), "%.0f", std::round(value / scale) * scale));
    } else {
        const std::string one = spec.substr(percent, conversion - percent + 1);
        number.resize(std::snprintf(number.data(), number.size(), one.c_str(), value));
    }
    if (number.find_first_of("eE") == std::string::npos)
        number = model::groupThousands(number);
    return prefix + number + suffix;
}

} // namespace cp::cli
