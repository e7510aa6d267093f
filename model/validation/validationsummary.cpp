// SPDX-License-Identifier: GPL-3.0-or-later
#include "model/validation/validationsummary.h"

#include "model/core/jsonfieldreader.h"
#include "model/core/median.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace cp::model {

const nlohmann::json &validationTableRows(const nlohmann::json &table, const std::string &file,
                                          const std::string &format)
{
    JsonFieldReader root(table, file, "");
    if (root.string("format") != format)
        root.fail("format", "expected \"" + format + "\"");
    root.integer("version", 1, 1);
    root.accept("description");
    const nlohmann::json &rows = root.array("rows");
    root.finish();
    return rows;
}

bool validationRowMeasuredOn(const nlohmann::json &row, const std::string &gpuId)
{
    if (!row.is_object())
        return false;
    const auto gpu = row.find("gpu");
    return gpu != row.end() && gpu->is_string() && gpu->get_ref<const std::string &>() == gpuId;
}

int countRowsMeasuredOn(const nlohmann::json *table, const std::string &gpuId)
{
    if (!table || !table->is_object())
        return 0;
    const auto rows = table->find("rows");
    if (rows == table->end() || !rows->is_array())
        return 0;
    return static_cast<int>(
        std::count_if(rows->begin(), rows->end(), [&](const nlohmann::json &row) {
            return validationRowMeasuredOn(row, gpuId);
        }));
}

ValidationSummary summarizeSignedErrors(const std::vector<double> &signedErrors)
{
    ValidationSummary summary;
    summary.rows = static_cast<int>(signedErrors.size());
    if (signedErrors.empty())
        return summary;
    std::vector<double> absolute;
    double sum = 0;
    summary.lowestSignedError = signedErrors.front();
    summary.highestSignedError = signedErrors.front();
    for (double error : signedErrors) {
        sum += error;
        absolute.push_back(std::abs(error));
        summary.lowestSignedError = std::min(summary.lowestSignedError, error);
        summary.highestSignedError = std::max(summary.highestSignedError, error);
    }
    summary.meanSignedError = sum / static_cast<double>(absolute.size());
    summary.maxAbsoluteError = *std::max_element(absolute.begin(), absolute.end());
    summary.medianAbsoluteError = median(std::move(absolute));
    return summary;
}

std::string validationSummaryRow(const std::string &label, const ValidationSummary &s)
{
    char text[256];
    if (s.rows == 0)
        std::snprintf(text, sizeof text, "| %s | 0 | — | — | — |\n", label.c_str());
    else
        std::snprintf(text, sizeof text, "| %s | %d | %+.1f%% | %.1f%% | %.1f%% |\n", label.c_str(),
                      s.rows, 100 * s.meanSignedError, 100 * s.medianAbsoluteError,
                      100 * s.maxAbsoluteError);
    return text;
}

std::string signedErrorRangeText(const ValidationSummary &s)
{
    char text[96];
    if (s.rows == 1)
        std::snprintf(text, sizeof text, "%+.1f%%", 100 * s.meanSignedError);
    else
        std::snprintf(text, sizeof text, "%+.1f%% to %+.1f%%, mean %+.1f%%",
                      100 * s.lowestSignedError, 100 * s.highestSignedError,
                      100 * s.meanSignedError);
    return text;
}

std::string validationSummaryHeader()
{
    return "| | rows | mean signed error | median absolute error | largest absolute error |\n"
           "| --- | --- | --- | --- | --- |\n";
}

} // namespace cp::model
