// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "model/clusterdescription.h"
#include "model/trainingestimate.h"

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

/**
 * Time a GEMM of M x N x K on `gpu` at `precision` takes, with `kernels` launches: FLOPs over
 * the peak times the size-dependent efficiency (gemmefficiency.h), plus the fixed kernel cost.
 */
double gemmSeconds(const GpuSpec &gpu, Precision precision, double flops, double m, double n,
                   double k, double kernels);

} // namespace cp::model
