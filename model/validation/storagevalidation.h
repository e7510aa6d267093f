// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "model/validation/validationsummary.h"

#include <nlohmann/json.hpp>

#include <string>
#include <vector>

namespace cp::model {

class Catalog;

/** One published storage-benchmark result and the data path's figure for the same setup. */
struct StorageValidationRow
{
    std::string id;
    std::string storageName; ///< the catalog entry the prediction used
    std::string system; ///< what the benchmark ran on, as published
    std::string workload; ///< unet3d-h100, resnet50-a100, ...
    long long clients = 0;
    double measuredAccelerators = 0;
    double predictedAccelerators = 0;
    double perAcceleratorSamplesPerSecond = 0;
    std::string limitingStage;
    /** Positive: the data path predicts more accelerators kept busy than the run sustained. */
    double signedError() const { return predictedAccelerators / measuredAccelerators - 1.0; }
};

/**
 * Runs every row of a `clusterplanner-storage-validation` table (catalogs/validation/
 * storage_validation.json): MLPerf Storage results, each the number of simulated accelerators a
 * storage system kept at least `au` busy. One accelerator consumes batch / (computation_time /
 * au) samples per second; the data path (datapath.h) of the catalog's storage entry, with the
 * benchmark's clients and their NICs, feeds floor(capacity / that) of them. Nothing is fitted.
 */
std::vector<StorageValidationRow>
runStorageValidation(const nlohmann::json &table, const Catalog &catalog, const std::string &file);

/** docs/validation-storage.md: the rows and their summary. */
std::string storageValidationMarkdown(const std::vector<StorageValidationRow> &rows,
                                      const std::string &tableFile);

ValidationSummary summarizeStorageValidation(const std::vector<StorageValidationRow> &rows);

} // namespace cp::model
