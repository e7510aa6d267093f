// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "model/catalog/catalog.h"
#include "model/core/jsonfieldreader.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <string>
#include <vector>

namespace cp::model {

/** Mean signed, median and largest absolute error of a set of validation rows. */
struct ValidationSummary
{
    int rows = 0;
    double meanSignedError = 0;
    double medianAbsoluteError = 0;
    double maxAbsoluteError = 0;
    double lowestSignedError = 0; ///< the most pessimistic row
    double highestSignedError = 0; ///< the most optimistic row
};

/**
 * The rows of a validation table, after checking its `format` (e.g.
 * "clusterplanner-training-validation") and version 1; throws InputError naming the file.
 */
const nlohmann::json &validationTableRows(const nlohmann::json &table, const std::string &file,
                                          const std::string &format);

/**
 * The catalog entry a row names at `key`, through `lookup` (Catalog::gpu, llm, storage): an id the
 * catalog does not hold as that kind is refused at the field, with the ids it knows.
 */
template<typename Spec>
const Spec &catalogEntryAt(JsonFieldReader &row, const char *key, const Catalog &catalog,
                           const Spec &(Catalog::*lookup)(const std::string &) const)
{
    const std::string id = row.string(key);
    try {
        return (catalog.*lookup)(id);
    } catch (const UnknownCatalogIdError &error) {
        row.fail(key, error.what());
    }
}

/** Whether a table row names `gpuId` as its GPU; a row too malformed to say does not (the full
 * run of the table reports it). */
bool validationRowMeasuredOn(const nlohmann::json &row, const std::string &gpuId);

/** How many rows of a validation table (null: none) name `gpuId`; a malformed table has none. */
int countRowsMeasuredOn(const nlohmann::json *table, const std::string &gpuId);

/** The summary of signed relative errors (positive: the estimator is optimistic). */
ValidationSummary summarizeSignedErrors(const std::vector<double> &signedErrors);

/** The summary of a table's rows, each with its signedError(). */
template<typename Row> ValidationSummary summarizeRows(const std::vector<Row> &rows)
{
    std::vector<double> errors;
    errors.reserve(rows.size());
    for (const Row &row : rows)
        errors.push_back(row.signedError());
    return summarizeSignedErrors(errors);
}

/** "-23.1% to +40.0%, mean +4.8%" ("+10.0%" for one row): how far an estimator was off, and in
 * which direction, for people. */
std::string signedErrorRangeText(const ValidationSummary &summary);

/** One markdown table row: | label | rows | mean signed | median absolute | largest absolute |. */
std::string validationSummaryRow(const std::string &label, const ValidationSummary &summary);

/** The header of the table validationSummaryRow's rows go in. */
std::string validationSummaryHeader();

/** Each GPU the rows name, in the order they first name it (one summary row per GPU). */
template<typename Row> std::vector<std::string> gpuNamesInOrder(const std::vector<Row> &rows)
{
    std::vector<std::string> gpus;
    for (const Row &row : rows)
        if (std::find(gpus.begin(), gpus.end(), row.gpuName) == gpus.end())
            gpus.push_back(row.gpuName);
    return gpus;
}

} // namespace cp::model
