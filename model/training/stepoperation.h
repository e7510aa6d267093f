// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <string>

namespace cp::model {

/** What kind of work an operation is, for the step breakdown and the explanation table. */
enum class OperationKind {
    Gemm, ///< dense matrix multiply on the tensor cores
    Attention, ///< attention scores and weighted values
    MemoryBound, ///< elementwise and normalisation kernels: bytes over HBM bandwidth
    TensorParallel, ///< TP all-reduce / all-gather / reduce-scatter
    ContextParallel, ///< ring exchange of K and V blocks
    ExpertParallel, ///< MoE dispatch and combine all-to-all
    PipelineSend, ///< activations and gradients between stages
    PipelineBubble, ///< fill and drain of the pipeline schedule
    DataParallel, ///< gradient reduction and parameter gathers
    Optimizer, ///< the Adam update
    HostOffload, ///< activations copied to host memory and back (the part not hidden)
};

std::string operationKindName(OperationKind kind);

/**
 * One named operation of a training step (on the busiest pipeline stage) or of a serving step, with
 * what it does per step and the time it costs there. Seconds are what it puts on the critical path;
 * hidden seconds are the part of a collective that ran behind compute.
 */
struct StepOperation
{
    const char *name = ""; ///< static text: the search builds millions of these
    OperationKind kind = OperationKind::Gemm;
    double flops = 0; ///< per step on one GPU, executed (recompute included)
    double bytes = 0; ///< HBM bytes or bytes on the wire, per step on one GPU
    double kernels = 0; ///< kernel launches or collective calls per step
    double seconds = 0; ///< on the critical path, per step
    double hiddenSeconds = 0; ///< overlapped with compute, per step
};

/** The operations of one step, in the order a layer runs them (fixed capacity, no allocation). */
struct StepOperations
{
    static constexpr int capacity = 40;
    StepOperation items[capacity];
    int count = 0;
    void add(const StepOperation &operation)
    {
        if (count < capacity)
            items[count++] = operation;
    }
    const StepOperation *begin() const { return items; }
    const StepOperation *end() const { return items + count; }
};

} // namespace cp::model
