// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "model/catalog/catalogitems.h"
#include "model/inference/inferenceestimate.h"
#include "model/training/transformershape.h"

#include <string>

namespace cp::model {

/**
 * The least time any engine can take to pass tokens through a model on a tensor-parallel group:
 * every weight the tokens touch streamed once from HBM at the datasheet bandwidth, or their
 * weight GEMMs' FLOPs at the datasheet peak, whichever is longer (the roofline of Williams,
 * Waterman and Patterson, "Roofline: An Insightful Visual Performance Model for Multicore
 * Architectures", CACM 52(4), 2009, with both roofs at their nominal values). Nothing the
 * estimator calibrates enters: no achievable fraction, kernel efficiency, overhead, K/V cache
 * traffic, attention-score FLOPs or communication, so every real run is at least this slow. A
 * published figure faster than its workload's floor cannot describe that workload (validation
 * sets such rows aside), and no estimate may be faster than it.
 */
struct ServingFloor
{
    TransformerShape shape;
    Precision weightPrecision = Precision::FP16;
    double tensorParallel = 1;
    double memoryBytesPerSecond = 0; ///< the datasheet's HBM bandwidth
    double peakFlopsPerSecond = 0; ///< the datasheet's dense peak of the GEMMs' compute format

    /**
     * Weight bytes one rank reads when `tokens` tokens pass the whole model in one pass: all but
     * the input embedding (its rows are gathered; a tied table is read as the output
     * projection), and of each MoE layer's routed experts only those the tokens touch,
     * E·(1 - (1 - k/E)^tokens) in expectation under routing that spreads tokens evenly.
     */
    double weightBytesRead(double tokens) const;
    /** The weight GEMMs' FLOPs of `tokens` tokens on one rank: 2 per active weight and token,
     * without the output projection (an engine computes a prompt's logits for its last token). */
    double gemmFlops(double tokens) const;
    /** The floor of one pass of `tokens` tokens through the model: a prefill of that many prompt
     * tokens, or a decode step of that many sequences, which also reads `otherBytesRead` beside
     * the weights (a decode step's K/V cache) at the same bandwidth. */
    double passSeconds(double tokens, double otherBytesRead = 0) const;
};

/**
 * The floor of a replica of `shape` on `gpu` with `weightPrecision` weights over
 * `tensorParallel` ranks. Weight-only formats (INT4, and INT8 where the GPU has no INT8 peak)
 * compute at the 16-bit peak, as the estimator's kernels do.
 */
ServingFloor servingFloorOf(const TransformerShape &shape, const GpuSpec &gpu,
                            Precision weightPrecision, double tensorParallel);

/**
 * The estimate's floor for a reader: "prefill 9.70 ms, decode step 11.1 ms; the estimate's take
 * 7.4x and 2.3x as long". Empty for an estimate without one (nothing estimated).
 */
std::string servingFloorText(const InferenceEstimate &estimate);

} // namespace cp::model
