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

    bool available() const { return throughput.rows + latency.rows + latencyUnderLoad.rows > 0; }
};

/** A weight format's class: BF16 and FP16 together, the others apart. */
std::string servingPrecisionClass(Precision weights);

/** The estimated rows of `rows` on `gpuId` with weights of the same class, summarised. */
PublishedServingComparison
summarizePublishedServing(const std::vector<InferenceValidationRow> &rows, const std::string &gpuId,
                          Precision weights);

/**
 * summarizePublishedServing over the catalog's published serving measurements
 * (Catalog::publishedRuns), its rows for `gpuId` estimated with this catalog. Never throws: a
 * missing or unusable table makes the comparison unavailable, saying why.
 */
PublishedServingComparison compareServingWithPublishedRuns(const Catalog &catalog,
                                                           const std::string &gpuId,
                                                           Precision weights);

/** A sentence to follow a "Published measurements:" label: "on the NVIDIA H100 SXM5 80GB with
 * FP8 weights the estimator was off by -18.6% to +71.4%, mean +4.9%, on 56 throughputs; ...", or
 * "none to compare with (why)." */
std::string publishedServingText(const PublishedServingComparison &comparison);

} // namespace cp::model
