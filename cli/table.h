// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <string>
#include <vector>

namespace cp::cli {

/** A plain-text table with aligned columns, for the CLI's human-readable output. */
class Table
{
public:
    explicit Table(std::vector<std::string> header);
    void addRow(std::vector<std::string> row);
    std::string render() const;

private:
    std::vector<std::vector<std::string>> m_rows;
};

/** printf-style formatting into a std::string. */
std::string format(const char *pattern, double value);

} // namespace cp::cli
