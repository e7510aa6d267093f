// SPDX-License-Identifier: GPL-3.0-or-later
#include "table.h"

#include <algorithm>
#include <cstdio>

namespace cp::cli {

Table::Table(std::vector<std::string> header)
{
    m_rows.push_back(std::move(header));
}

void Table::addRow(std::vector<std::string> row)
{
    m_rows.push_back(std::move(row));
}

std::string Table::render() const
{
    std::vector<std::size_t> widths;
    for (const auto &row : m_rows) {
        widths.resize(std::max(widths.size(), row.size()), 0);
        for (std::size_t i = 0; i < row.size(); ++i)
            widths[i] = std::max(widths[i], row[i].size());
    }
    std::string text;
    for (std::size_t r = 0; r < m_rows.size(); ++r) {
        const auto &row = m_rows[r];
        std::string line;
        for (std::size_t i = 0; i < row.size(); ++i) {
            std::string cell = row[i];
            if (i + 1 < row.size())
                cell.resize(widths[i], ' ');
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
    char text[128];
    std::snprintf(text, sizeof text, pattern, value);
    return text;
}

} // namespace cp::cli
