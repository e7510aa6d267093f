// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "model/cluster/clusterdescription.h"
#include "model/training/trainingestimate.h"
#include "model/training/transformershape.h"

namespace cp::model {

/**
 * FlashAttention-2's backward pass runs five matrix multiplies against the forward's two
 * (Dao, "FlashAttention-2", 2023, https://arxiv.org/abs/2307.08691, Algorithm 2: it recomputes
 * the scores): 2.5 forward passes of work, where MFU accounting counts 2.
 */
inline constexpr double flashBackwardWork = 2.5;

/** One operation of one layer for one microbatch: its forward, backward and recompute cost. */
struct LayerOperation
{
    const char *name = ""; ///< static text
    OperationKind kind = OperationKind::Gemm;
    double flops = 0; ///< forward
    double bytes = 0; ///< forward
    double kernels = 0; ///< forward
    double forwardSeconds = 0;
    double backwardSeconds = 0;
    double backwardFlops = 0;
    double backwardBytes = 0;
    double backwardKernels = 0;
    double hiddenSeconds = 0; ///< forward + backward, overlapped
    bool repeatedByFullRecompute = true;
    /** The selective recompute module whose forward repeats this operation (RecomputeModule
     * bits), 0 for none. */
    unsigned recomputeModule = 0;
};

/**
 * What one microbatch costs in one transformer layer, and in the output projection and loss.
 * These depend on TP, CP, EP, the microbatch and sequence parallelism (with the job and the
 * cluster), never on the pipeline stages, the interleave, recomputation or the ZeRO stage: the
 * layout search builds them once for every choice of those (fixed capacity, no allocation).
 */
struct MicrobatchLayerCosts
{
    TransformerShape shape; ///< the model's, as the costs were built for it
    static constexpr int capacity = 28;
    LayerOperation operations[capacity];
    int count = 0;
    double logitForwardSeconds = 0;
    double lossSeconds = 0;
    double lossBytes = 0; ///< the cross-entropy's HBM traffic for one microbatch
    double lossKernels = 0;
    /** A multi-token prediction block's projection (none without MTP); the block's layer costs
     * what the average layer does. */
    LayerOperation mtpProjection;
    void add(const LayerOperation &operation);
    const LayerOperation *begin() const { return operations; }
    const LayerOperation *end() const { return operations + count; }
};

/** The layer costs of `config`'s microbatch: its GEMMs, attention, memory-bound kernels and TP,
 * CP and EP collectives, each timed by its own roofline (see estimateTrainingStep). */
MicrobatchLayerCosts microbatchLayerCosts(const TrainingJob &job, const ClusterDescription &cluster,
                                          const ParallelConfig &config);

/**
 * The step time of one valid layout as a list of named operations (trainingestimate.h
 * StepOperation), each timed by its own roofline: GEMMs at a size-dependent share of the
 * tensor peak, fused attention at its own share, memory-bound kernels as bytes over achievable
 * HBM bandwidth, every kernel with the GPU's fixed per-kernel cost, collectives by the
 * alpha-beta models of collectivecost.h with the overlap the framework allows. Fills
 * `result.operations`, `result.breakdown`, `result.stepSeconds` and `result.dpCommTotalSeconds`;
 * the memory is estimated apart (TrainingEstimator::estimateMemory).
 */
void estimateTrainingStep(const TrainingJob &job, const ClusterDescription &cluster,
                          const ParallelConfig &config, TrainingEstimate &result);

/** The same from `config`'s microbatch layer costs, built before (microbatchLayerCosts). */
void estimateTrainingStep(const TrainingJob &job, const ClusterDescription &cluster,
                          const ParallelConfig &config, const MicrobatchLayerCosts &costs,
                          TrainingEstimate &result);

/** Parameters one GPU of the busiest pipeline stage holds, by how they are sharded. */
struct StageParameters
{
    double dense = 0; ///< attention, norms, router, shared experts, embedding: split over TP
    double expert = 0; ///< the MLPs (a dense model's MLP is its one expert): over ETP x EP
    double total() const { return dense + expert; }
};

/**
 * Which pipeline stage: the first holds the embedding and the most activations in flight, the
 * last the output projection, the loss and the multi-token prediction blocks; a middle one (the
 * second, for memory: the most in flight after the first) only layers. At PP = 1 the one stage is
 * all of them.
 */
enum class PipelineEnd { First, Middle, Last };

/** Multi-token prediction blocks on the `end` stage: all of them on the last (the only one at
 * PP = 1), none elsewhere. */
inline double mtpBlocksOnStage(const TransformerShape &shape, const ParallelConfig &config,
                               PipelineEnd end)
{
    return end == PipelineEnd::Last || config.pp == 1 ? shape.mtpLayers : 0.0;
}

/** Output projections and losses on the `end` stage: the model's and each multi-token prediction
 * block's on the last (the only one at PP = 1), none elsewhere. */
inline double outputHeadsOnStage(const TransformerShape &shape, const ParallelConfig &config,
                                 PipelineEnd end)
{
    return end == PipelineEnd::Last || config.pp == 1 ? 1.0 + mtpBlocksOnStage(shape, config, end)
                                                      : 0.0;
}

/**
 * Layers one GPU of the `end` stage holds over its virtual chunks. Evenly split, every stage
 * holds ceil(L / (PP x v)) x v (uneven splits allowed: Llama 3 405B's 126 layers on 16 stages
 * hold 8 each, the last 8 too). With the first or last stage's count given
 * (ParallelConfig::firstStageLayers, lastStageLayers), that stage holds it and the others share
 * the rest, rounded up the same way: Llama 3 405B as Meta trained it, 7 + 14 x 8 + 7 (Llama
 * Team, "The Llama 3 Herd of Models", 2024, §3.3.2).
 */
double stageLayers(const TransformerShape &shape, const ParallelConfig &config, PipelineEnd end);

/**
 * A stage's parameters on one GPU: its layers (stageLayers), the embedding (and the output
 * projection on one stage when PP = 1; else the vocabulary matrix on the first and on the last
 * stage, none on a middle one) and, on the last, the multi-token prediction blocks, divided by TP
 * and, for experts, by expert tensor parallelism x EP (expertTensorParallel).
 */
StageParameters stageParameters(const ModelSpec &model, const ParallelConfig &config,
                                PipelineEnd end = PipelineEnd::Last);
StageParameters stageParameters(const TransformerShape &shape, const ParallelConfig &config,
                                PipelineEnd end = PipelineEnd::Last);

/**
 * Time a GEMM of M x N x K on `gpu` at `precision` takes, with `kernels` launches: FLOPs over
 * the peak times the size-dependent efficiency (gemmefficiency.h), plus the fixed kernel cost.
 */
double gemmSeconds(const GpuSpec &gpu, Precision precision, double flops, double m, double n,
                   double k, double kernels);

} // namespace cp::model
