// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "model/trainingestimate.h"

#include <nlohmann/json.hpp>

#include <string>
#include <vector>

namespace cp::model {

class Catalog;

struct ValidationRow
{
    std::string label;
    double publishedTflopsPerGpu = 0;
    double predictedTflopsPerGpu = 0;
    TrainingEstimate estimate;
    double relativeError() const { return predictedTflopsPerGpu / publishedTflopsPerGpu - 1.0; }
};

/**
 * Runs every row of a published-runs table in the format of shared/validation/
 * megatron_sc21_table1.json (Narayanan et al. SC21, Table 1) through the training estimator:
 * the run's GPU, TP/PP/batch and recomputation, 2021 Megatron kernels (unfused attention, no
 * sequence parallelism, gradient all-reduce after the backward pass), microbatch 1 and plain
 * 1F1B for the pipelined rows and interleaving only for the largest, as the table's notes say.
 * Throws InputError for a malformed table.
 */
std::vector<ValidationRow> validateAgainstMegatronTable(const nlohmann::json &table,
                                                        const Catalog &catalog,
                                                        const std::string &file);

/** The rows as a markdown report (predicted vs published and the error of each). */
std::string validationReportMarkdown(const std::vector<ValidationRow> &rows,
                                     const std::string &source);

} // namespace cp::model
