// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "model/inference/inferenceestimate.h"
#include "model/validation/trainingvalidation.h"

#include <nlohmann/json.hpp>

#include <optional>
#include <string>
#include <vector>

namespace cp::model {

class Catalog;

/** One published serving measurement and the estimator's figure for the same workload. */
struct InferenceValidationRow
{
    std::string id;
    std::string gpuId;
    std::string gpuName;
    std::string modelId; ///< the catalog id of a catalog model, "validation" for a shape
    std::string modelName;
    std::string engine;
    /** The serving-engine profile the row runs on (servingengine.h): the engine that measured
     * it ("vllm-0.6" for vLLM and vLLM-based harnesses such as AMD's MLPerf one). */
    std::string engineProfile;
    Precision weightPrecision = Precision::FP16;
    std::string metric; ///< output_tokens_per_second_per_gpu, ttft_ms, tpot_ms, ...
    bool latency = false; ///< a latency (lower is better) rather than a throughput
    bool moe = false;
    /** A fixed fleet at an offered rate (MLPerf's server scenario), not a fixed batch. */
    bool underLoad = false;
    /** Scored as the most the fixed fleet serves within the row's latency limits (MLPerf's
     * server result), not at the row's rate (fleetCapacityWithinLimits). */
    bool withinLimits = false;
    double measured = 0;
    double predicted = 0;
    InferenceEstimate estimate;
    /** Empty when estimated; otherwise why the row cannot be (it is left out of the summaries). */
    std::string notEstimated;
    /** The floor a figure of the row's metric cannot beat (ServingFloor), where the row states
     * its batch: the least latency in ms, or the most throughput; and what sets it. */
    struct Floor
    {
        double value = 0;
        std::string reason;
    };
    std::optional<Floor> floor;
    /**
     * Empty unless the published figure is faster than any engine can run the workload the row
     * states (ServingFloor: the weights the tokens touch at the datasheet bandwidth, their
     * GEMMs at the datasheet peak); then the floor it breaks. Such a row does not describe
     * its own run, so it is estimated and listed but left out of the summaries.
     */
    std::string beyondFloor;
    /** Scored in the summaries: estimated, and consistent with its own description. */
    bool scored() const { return notEstimated.empty() && beyondFloor.empty(); }
    /**
     * Positive means optimistic: a throughput predicted too high or a latency predicted too
     * low (measured / predicted - 1 for latencies), so the sign reads the same for both.
     */
    double signedError() const
    {
        return latency ? measured / predicted - 1.0 : predicted / measured - 1.0;
    }
};

/**
 * Runs every row of a `clusterplanner-inference-validation` table (catalogs/validation/
 * inference_validation.json) through the inference estimator with the workload it describes:
 * the GPU's node, GPUs per replica (TP x PP), weight and KV precision, prompt and output
 * lengths (the dataset's mean where a distribution is given), and the fixed batch or
 * concurrency, or the largest batch that fits for offline throughput. Nothing is fitted.
 */
std::vector<InferenceValidationRow> runInferenceValidation(const nlohmann::json &table,
                                                           const Catalog &catalog,
                                                           const std::string &file);

/** runInferenceValidation for the rows measured on one GPU (catalog id) only. */
std::vector<InferenceValidationRow> runInferenceValidationForGpu(const nlohmann::json &table,
                                                                 const Catalog &catalog,
                                                                 const std::string &file,
                                                                 const std::string &gpuId);

ValidationSummary summarizeInferenceValidation(const std::vector<InferenceValidationRow> &rows);

/** docs/inference-validation-suite.md: rows and summaries for throughput and latency apart. */
std::string inferenceValidationMarkdown(const std::vector<InferenceValidationRow> &rows,
                                        const std::string &tableFile);

} // namespace cp::model
