// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "model/training/trainingestimate.h"
#include "model/validation/validationsummary.h"

#include <nlohmann/json.hpp>

#include <string>
#include <vector>

namespace cp::model {

class Catalog;

/** One published training measurement and what the estimator predicts for the same run. */
struct TrainingValidationRow
{
    std::string id;
    std::string source;
    std::string gpuId;
    std::string gpuName;
    std::string framework; ///< the profile the row was estimated with
    bool gradientsReducedInBf16 = false; ///< the run set grad_reduce_in_fp32 off
    int activationOffloadLayers = 0; ///< layers whose activations the run kept in host memory
    MoeDispatcher moeDispatcher = MoeDispatcher::AllToAll; ///< how its MoE layers sent tokens
    bool moeCommOverlap = false; ///< its MoE all-to-all ran behind another microbatch
    std::string metric; ///< model_tflops_per_gpu, hardware_tflops_per_gpu, mfu, ...
    std::string modelName;
    Precision precision = Precision::BF16;
    bool moe = false;
    double parameters = 0; ///< the model's, counted from its shape (every expert for an MoE)
    double measured = 0;
    double predicted = 0;
    /** The run's published MFU against its precision's dense peak, as the estimate's MFU is
     * counted: every metric of a run scales with its step rate, so it is the estimated MFU times
     * published / predicted. */
    double publishedMfu = 0;
    TrainingEstimate estimate;
    /** predicted / measured - 1: positive means the estimator is optimistic (too fast). */
    double signedError() const { return predicted / measured - 1.0; }
};

/**
 * Runs every row of a `clusterplanner-training-validation` table (catalogs/validation/
 * training_validation.json) through the training estimator with the layout the run used: its
 * GPU's NVSwitch node with the node's NICs on a non-blocking rail-optimised fabric, TP, PP, CP,
 * EP, microbatch, interleave and recomputation as published, ZeRO-1 (the distributed optimizer)
 * for Megatron-Core-era rows and plain data parallelism for 2021-2022 Megatron-LM unless the row
 * names its ZeRO stage (3 for a fully sharded run), and the framework profile of the row's era
 * with its flash-attention and sequence-parallel flags.
 * Nothing is searched and nothing is fitted. Throws InputError for a malformed table.
 */
std::vector<TrainingValidationRow>
runTrainingValidation(const nlohmann::json &table, const Catalog &catalog, const std::string &file);

/** runTrainingValidation for the rows measured on one GPU (catalog id) only. */
std::vector<TrainingValidationRow> runTrainingValidationForGpu(const nlohmann::json &table,
                                                               const Catalog &catalog,
                                                               const std::string &file,
                                                               const std::string &gpuId);

ValidationSummary summarizeValidation(const std::vector<TrainingValidationRow> &rows);

/** The rows and the summaries (all, by GPU, dense and MoE) as docs/validation-training.md. */
std::string trainingValidationMarkdown(const std::vector<TrainingValidationRow> &rows,
                                       const std::string &tableFile);

} // namespace cp::model
