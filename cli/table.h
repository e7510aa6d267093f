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

/**
 * One printf-style number with text around it, for people: thousands separators ("878,519,200
 * USD"), %g of large values written out to the same significant digits ("2,536,000 tokens/s",
 * not "2.536e+06"), and "unknown" for inf or nan. Patterns with %% before the number are not
 * supported. JSON output never goes through this.
 */
std::string format(const char *pattern, double value);

} // namespace cp::cli
