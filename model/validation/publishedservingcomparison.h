// SPDX-License-Identifier: GPL-3.0-or-later
// How far the inference estimator has been from the published serving measurements on a GPU
// with the same weight format: the rows of the shipped validation table
// (catalogs/validation/inference_validation.json) on that GPU, estimated with the catalog in use.
// Serving workloads differ too much (model, lengths, batch, engine) for the measurements
// themselves to bound an estimate, as published MFU bounds a training run; what carries over is
// the estimator's error and its direction, throughput and latency apart.
#pragma once

#include "model/catalog/catalogitems.h"
#include "model/validation/inferencevalidation.h"

#include <string>
#include <vector>

namespace cp::model {

class Catalog;

/** What a serving estimate is set against the published measurements by. */
struct PublishedServingQuery
{
    std::string gpuId; ///< catalog id
    Precision weights = Precision::FP16;
    std::string modelId; ///< catalog id: its own measurements are summarised apart
};

struct PublishedServingComparison
{
    /** Why there is nothing to compare with; empty when some measurement was estimated. */
    std::string unavailable;
    std::string gpuName;
    std::string weights; ///< "16-bit" (BF16 and FP16), "FP8", "INT8" or "INT4"
    /** Signed errors (positive: predicted faster than measured) on published throughputs, on
     * latencies at a given batch or concurrency, and on latencies under an offered load
     * (MLPerf's server scenario, where the submitter runs the fleet at its limit). */
    ValidationSummary throughput;
    ValidationSummary latency;
    ValidationSummary latencyUnderLoad;
    /** On the most a fixed fleet serves within latency limits (MLPerf server results). */
    ValidationSummary capacityWithinLimits;
    /** The same, on the estimate's own model only (throughputs, and latencies at a batch). */
    std::string modelName;
    ValidationSummary sameModelThroughput;
    ValidationSummary sameModelLatency;

    bool available() const
    {
        return throughput.rows + latency.rows + latencyUnderLoad.rows + capacityWithinLimits.rows
            > 0;
    }
};

/** A weight format's class: BF16 and FP16 together, the others apart. */
std::string servingPrecisionClass(Precision weights);

/** The estimated rows of `rows` on the query's GPU with weights of the same class, summarised,
 * and those of its model apart. */
PublishedServingComparison
summarizePublishedServing(const std::vector<InferenceValidationRow> &rows,
                          const PublishedServingQuery &query);

/**
 * summarizePublishedServing over the catalog's published serving measurements
 * (Catalog::publishedRuns), its rows for the query's GPU estimated with this catalog. Never throws:
 * a missing or unusable table makes the comparison unavailable, saying why.
 */
PublishedServingComparison compareServingWithPublishedRuns(const Catalog &catalog,
                                                           const PublishedServingQuery &query);

/** A sentence to follow a "Published measurements:" label: "on the NVIDIA H100 SXM5 80GB with
 * FP8 weights the estimator was off by -18.6% to +71.4%, mean +4.9%, on 56 throughputs; ...",
 * then its model's own ("On Llama 2 70B itself: ..."), or "none to compare with (why)." */
std::string publishedServingText(const PublishedServingComparison &comparison);

} // namespace cp::model
