// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <string>
#include <vector>

namespace cp::model {

using CsvRows = std::vector<std::vector<std::string>>;

/**
 * RFC 4180 text: fields with a comma, a double quote, CR or LF are quoted and their quotes
 * doubled; records end in CRLF. Spreadsheets and Python's csv module read it back unchanged,
 * but for text a spreadsheet would run as a formula ("=1+1", "@SUM(A1)"), which gets a leading
 * apostrophe.
 */
std::string toCsv(const CsvRows &rows);

/** Parses RFC 4180 text (CRLF or LF records). Throws InputError(file, "line N", reason). */
CsvRows parseCsv(const std::string &text, const std::string &file = "csv");

/** A number as a CSV cell: the shortest text that reads back to the same double. */
std::string csvNumber(double value);

/**
 * A figure as a spreadsheet reader wants it: whole numbers from 1,000 up (53312800, 2197),
 * four significant digits below (0.5487, 16.39, 2.971), no separators (they would split cells in
 * some locales); empty for inf or nan. The JSON output keeps the full precision.
 */
std::string csvFigure(double value);

} // namespace cp::model
