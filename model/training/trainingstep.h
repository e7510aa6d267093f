// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "model/cluster/clusterdescription.h"
#include "model/training/trainingestimate.h"

namespace cp::model {

/**
 * The step time of one valid layout as a list of named operations (trainingestimate.h
 * StepOperation), each timed by its own roofline: GEMMs at a size-dependent share of the
 * tensor peak, fused attention at its own share, memory-bound kernels as bytes over achievable
 * HBM bandwidth, every kernel with the GPU's fixed per-kernel cost, collectives by the
 * alpha-beta models of collectivecost.h with the overlap the framework allows. Fills
 * `result.operations`, `result.breakdown`, `result.stepSeconds` and `result.dpCommTotalSeconds`;
 * the memory is estimated apart (trainingmemory.h).
 */
void estimateTrainingStep(const TrainingJob &job, const ClusterDescription &cluster,
                          const ParallelConfig &config, TrainingEstimate &result);

/** Parameters one GPU of the busiest pipeline stage holds, by how they are sharded. */
struct StageParameters
{
    double dense = 0; ///< attention, norms, router, shared experts, embedding: split over TP
    double expert = 0; ///< the MLPs (a dense model's MLP is its one expert): over ETP x EP
    double total() const { return dense + expert; }
};

/**
 * The busiest stage's parameters on one GPU: its ceil(L / (PP x v)) x v layers (uneven stages
 * allowed), the embedding (and the output projection on one stage when PP = 1, else the
 * vocabulary matrix of the first or last stage), divided by TP and, for experts, by expert
 * tensor parallelism x EP (expertTensorParallel).
 */
StageParameters stageParameters(const ModelSpec &model, const ParallelConfig &config);

/**
 * Time a GEMM of M x N x K on `gpu` at `precision` takes, with `kernels` launches: FLOPs over
 * the peak times the size-dependent efficiency (gemmefficiency.h), plus the fixed kernel cost.
 */
double gemmSeconds(const GpuSpec &gpu, Precision precision, double flops, double m, double n,
                   double k, double kernels);

} // namespace cp::model
