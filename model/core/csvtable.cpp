// SPDX-License-Identifier: GPL-3.0-or-later
#include "model/core/csvtable.h"

#include <cstdio>
#include <cstdlib>

#include "model/core/inputerror.h"

#include <charconv>
#include <cmath>

namespace cp::model {

namespace {

bool needsQuotes(const std::string &field)
{
    return field.find_first_of(",\"\r\n") != std::string::npos;
}

/**
 * Whether a spreadsheet would run `field` as a formula: text (a scenario or group name from a
 * plan someone sent) that starts with =, +, -, @, a tab or a carriage return and is not a number
 * or the "-" of a missing value (OWASP, "CSV Injection",
 * https://owasp.org/www-community/attacks/CSV_Injection).
 */
bool readsAsFormula(const std::string &field)
{
    if (field.empty() || field == "-"
        || std::string("=+-@\t\r").find(field[0]) == std::string::npos)
        return false;
    char *end = nullptr;
    std::strtod(field.c_str(), &end);
    return end != field.c_str() + field.size();
}

} // namespace

std::string toCsv(const CsvRows &rows)
{
    std::string out;
    for (const std::vector<std::string> &row : rows) {
        for (std::size_t i = 0; i < row.size(); ++i) {
            if (i > 0)
                out += ',';
            // A leading apostrophe makes the spreadsheet show the text instead of running it.
            const std::string field = readsAsFormula(row[i]) ? "'" + row[i] : row[i];
            if (!needsQuotes(field)) {
                out += field;
                continue;
            }
            out += '"';
            for (char c : field) {
                if (c == '"')
                    out += '"';
                out += c;
            }
            out += '"';
        }
        out += "\r\n";
    }
    return out;
}

CsvRows parseCsv(const std::string &text, const std::string &file)
{
    CsvRows rows;
    std::vector<std::string> row;
    std::string field;
    int line = 1;
    std::size_t i = 0;
    const auto fail = [&](const std::string &reason) {
        throw InputError(file, "line " + std::to_string(line), reason);
    };
    bool atFieldStart = true;
    while (i < text.size()) {
        const char c = text[i];
        if (atFieldStart && c == '"') {
            ++i;
            for (;;) {
                if (i >= text.size())
                    fail("a quoted field is not closed");
                if (text[i] == '"') {
                    if (i + 1 < text.size() && text[i + 1] == '"') {
                        field += '"';
                        i += 2;
                        continue;
                    }
                    ++i;
                    break;
                }
                if (text[i] == '\n')
                    ++line;
                field += text[i++];
            }
            if (i < text.size() && text[i] != ',' && text[i] != '\r' && text[i] != '\n')
                fail("text after a closing quote (a quote inside a field must be doubled)");
            atFieldStart = false;
            continue;
        }
        if (c == ',') {
            row.push_back(std::move(field));
            field.clear();
            atFieldStart = true;
            ++i;
        } else if (c == '\r' || c == '\n') {
            row.push_back(std::move(field));
            field.clear();
            rows.push_back(std::move(row));
            row.clear();
            atFieldStart = true;
            i += (c == '\r' && i + 1 < text.size() && text[i + 1] == '\n') ? 2 : 1;
            ++line;
        } else {
            if (c == '"')
                fail("a quote inside an unquoted field");
            field += c;
            atFieldStart = false;
            ++i;
        }
    }
    if (!atFieldStart || !row.empty()) {
        row.push_back(std::move(field));
        rows.push_back(std::move(row));
    }
    return rows;
}

std::string csvNumber(double value)
{
    if (!std::isfinite(value))
        return {};
    // Plain decimals (what a spreadsheet shows) in the range figures take; exponents only
    // beyond it. Either way the shortest text that reads back to the same double.
    char buffer[400];
    const double magnitude = std::abs(value);
    const bool plain = magnitude == 0 || (magnitude >= 1e-4 && magnitude < 1e15);
    const auto result
        = std::to_chars(buffer, buffer + sizeof buffer, value,
                        plain ? std::chars_format::fixed : std::chars_format::general);
    return std::string(buffer, result.ptr);
}

std::string csvFigure(double value)
{
    if (!std::isfinite(value))
        return {};
    if (std::abs(value) >= 1000)
        return csvNumber(std::round(value));
    char buffer[64];
    std::snprintf(buffer, sizeof buffer, "%.4g", value);
    // Read back and write the shortest form, so 0.1 stays "0.1" and no exponent appears.
    return csvNumber(std::strtod(buffer, nullptr));
}

} // namespace cp::model
