// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "model/catalog/catalogitems.h"
#include "model/training/recomputemodules.h"
#include "model/training/stepoperation.h"
#include "model/training/trainingframework.h"

#include <optional>
#include <string>
#include <vector>

namespace cp::model {

enum class Recompute { None, Selective, Full };

std::string recomputeName(Recompute recompute);
std::optional<Recompute> recomputeFromName(const std::string &name);

/** One concrete way to lay a training job out over the GPUs. */
struct ParallelConfig
{
    int tp = 1; ///< tensor parallel
    int pp = 1; ///< pipeline parallel
    int dp = 1; ///< data parallel
    int cp = 1; ///< context parallel
    int ep = 1; ///< expert parallel (carved out of dp)
    /** Expert tensor parallelism (Megatron-Core's --expert-tensor-parallel-size), 1 or TP; 0:
     * chosen, TP where EP divides DP x CP, else 1 (expertTensorParallel). */
    int etp = 0;
    int microbatch = 1; ///< sequences per microbatch
    int interleave = 1; ///< virtual pipeline stages per GPU (1 = plain 1F1B)
    /**
     * Layers on the first and on the last pipeline stage (Megatron-Core's
     * --decoder-first-pipeline-num-layers and --decoder-last-pipeline-num-layers), so that the
     * stages holding the embedding, or the logits and the loss, can hold fewer layers; 0: an even
     * share (stageLayers). The other stages share the rest evenly.
     */
    int firstStageLayers = 0;
    int lastStageLayers = 0;
    Recompute recompute = Recompute::None;
    /** What Recompute::Selective repeats (ignored otherwise). */
    RecomputeModules recomputeModules;
    int zero = 1; ///< ZeRO stage 0..3 (1 = distributed optimizer)
    bool sequenceParallel = true; ///< Korthikanti et al. 2022 sequence parallelism with TP
};

/**
 * GPUs of one pipeline stage: Megatron orders ranks TP, CP, DP and pipeline stages outermost, so
 * a stage is tp x cp x dp consecutive GPUs.
 */
inline long long pipelineStageGpus(const ParallelConfig &config)
{
    return 1LL * config.tp * config.cp * config.dp;
}

/** "none", "full", "selective" (core attention alone, Megatron-Core's default) or "selective
 * (layernorm, moe_act)": the recomputation `config` runs, as reports and tables name it. */
std::string recomputeDescription(const ParallelConfig &config);

/** The first or the last pipeline stage holds its own number of layers, not an even share. */
inline bool hasUnevenStages(const ParallelConfig &config)
{
    return config.firstStageLayers > 0 || config.lastStageLayers > 0;
}

/** The first and last stages' own layer counts in words: "7 layers on the first stage and 6 on
 * the last", "7 layers on the last stage"; empty for an even split. */
std::string unevenStagesText(const ParallelConfig &config);

/** "TP 2 x PP 8 x DP 64, EP 64, microbatch 1, interleave 4, recompute selective (mla_up_proj,
 * mlp), ZeRO-1": the layout as the CLI, the Estimate panel and the comparison name it (CP,
 * EP and the interleave only where they are used). */
std::string layoutDescription(const ParallelConfig &config);

/**
 * Tensor parallelism of the expert MLPs. Megatron-Core's MoE parallel folding lets EP span the
 * TP ranks too: when EP does not divide DP x CP, the experts are not split over TP (ETP = 1)
 * and EP is carved out of TP x DP x CP (Liu et al., "MoE Parallel Folding", 2025,
 * https://arxiv.org/abs/2504.14960).
 */
inline int expertTensorParallel(const ParallelConfig &config)
{
    if (config.etp > 0)
        return config.etp;
    return (config.dp * config.cp) % config.ep == 0 ? config.tp : 1;
}

/**
 * The experts are folded over the tensor-parallel ranks (ETP 1 under TP > 1): each GPU is an
 * expert-parallel rank of its own holding whole experts, dispatching its sequence-parallel share
 * of the tokens, and the expert-parallel group runs over consecutive GPUs (Liu et al., "MoE
 * Parallel Folding", 2025).
 */
inline bool expertsFolded(const ParallelConfig &config)
{
    return config.tp > 1 && expertTensorParallel(config) == 1;
}

/** What the user fixed; anything left empty is searched. */
struct ParallelismConstraints
{
    std::optional<int> tp, pp, dp, cp, ep, etp, microbatch, interleave, firstStageLayers,
        lastStageLayers, zero;
    std::optional<Recompute> recompute;
    /** The modules selective recomputation repeats; set, it fixes recompute to selective. */
    std::optional<RecomputeModules> recomputeModules;
};

/** One dimension a plan, the CLI or the GUI may fix: its key (plan JSON and CLI option), the
 * values accepted, and its field. */
struct ParallelismDimension
{
    const char *key;
    int minimum;
    int maximum;
    std::optional<int> ParallelismConstraints::*member;
};

/** tp, pp, dp, cp, ep, etp, microbatch, interleave, first_stage_layers, last_stage_layers and
 * zero, with the bounds every reader applies (dp to 2^24, interleave to 1,024 virtual stages,
 * zero 0 to 3, the rest to 2^20). Keys are the plan's; the command line writes '_' as '-'. */
const std::vector<ParallelismDimension> &parallelismDimensions();

struct TrainingJob
{
    ModelSpec model;
    int seqLen = 2048;
    int globalBatch = 512; ///< sequences per optimizer step
    double tokens = 0; ///< tokens to train on (0: no total time)
    /** The most tokens a job may name: 10^16, over 600 times the largest published pre-training
     * run (Llama 3's 15.6 T tokens); more gives run times and costs no plan can mean. */
    static constexpr double maxTokens = 1e16;
    Precision precision = Precision::BF16;
    /** The software: kernels, overlap and per-GPU reserves (trainingframework.h). The CLI's and
     * the plan's overrides (--attention, --dp-overlap, ...) change fields of this copy. */
    TrainingFramework framework = defaultTrainingFramework();
    bool allowTpAcrossNodes = false;
    /** Tokens an expert is sized for, relative to a perfectly balanced share (GShard, Switch). */
    double moeCapacityFactor = 1.0;
    /**
     * Layers whose activations Transformer Engine's CPU offload copies to host memory in the
     * forward pass and back in the backward pass (Megatron-Core cpu_offloading_num_layers), so
     * that the GPU keeps (layers - offloaded) layers' activations (transformer_engine/pytorch/
     * cpu_offload.py). Megatron-Core allows it only without pipeline parallelism and without
     * recomputation, and for fewer layers than the model has.
     */
    int activationOffloadLayers = 0;
    ParallelismConstraints constraints;
};

struct MemoryBreakdown
{
    double weightsBytes = 0;
    double gradientsBytes = 0;
    double optimizerBytes = 0;
    double activationsBytes = 0;
    double reservedBytes = 0;
    /** What one layer keeps of one microbatch for its backward pass (what an offloaded layer
     * copies to the host and back). */
    double activationBytesPerLayer = 0;
    double totalBytes() const
    {
        return weightsBytes + gradientsBytes + optimizerBytes + activationsBytes + reservedBytes;
    }
};

/** Seconds per optimizer step, by cause; they add up to the step time. */
struct StepBreakdown
{
    double computeSeconds = 0; ///< GEMMs and attention at achievable throughput
    double memoryBoundSeconds = 0; ///< norms, activations, softmax, dropout: bytes over HBM
    double tpCommSeconds = 0; ///< tensor-parallel collectives (not overlapped)
    double cpCommSeconds = 0; ///< exposed context-parallel KV exchange
    double epCommSeconds = 0; ///< expert-parallel all-to-all
    double ppCommSeconds = 0; ///< pipeline point-to-point sends on the critical path
    double bubbleSeconds = 0; ///< pipeline fill and drain
    double dpCommExposedSeconds = 0; ///< data-parallel gradient sync not hidden by backward
    double optimizerSeconds = 0; ///< Adam update, memory-bound
    double hostOffloadSeconds = 0; ///< activation copies to and from the host not hidden
    double total() const
    {
        return computeSeconds + memoryBoundSeconds + tpCommSeconds + cpCommSeconds + epCommSeconds
            + ppCommSeconds + bubbleSeconds + dpCommExposedSeconds + optimizerSeconds
            + hostOffloadSeconds;
    }
};

struct TrainingEstimate
{
    ParallelConfig config;
    bool valid = true; ///< false: the layout is impossible (reason says why)
    bool fits = true; ///< memory fits on each GPU
    std::string reason; ///< why invalid or not fitting
    int microbatchesPerStep = 0;
    double stepSeconds = 0;
    double tokensPerSecond = 0;
    double modelFlopsPerSecondPerGpu = 0; ///< model FLOPs (no recompute) / step / GPU
    /** The dense peak the MFU divides by: the job's precision's (FP8's for an FP8 run). */
    Precision mfuPrecision = Precision::BF16;
    double mfuPeakFlopsPerSecond = 0;
    double hardwareFlopsPerSecondPerGpu = 0; ///< FLOPs executed, recompute included
    /** The model FLOPs the kernels execute (a causal fused attention skips the masked half),
     * of the conventional count the MFU takes. */
    double executedModelFlopsShare = 1;
    double mfu = 0;
    double commExposedFraction = 0;
    double bubbleFraction = 0;
    double dpCommTotalSeconds = 0; ///< before overlap, for explanations
    MemoryBreakdown memory;
    double memoryCapacityBytes = 0;
    StepBreakdown breakdown;
    /** Whether the step copies activations to the host (TrainingJob::activationOffloadLayers). */
    bool offloadsActivations() const
    {
        for (const StepOperation &op : operations)
            if (op.kind == OperationKind::HostOffload)
                return true;
        return false;
    }
    StepOperations operations; ///< where every second of the step goes
    double usableMemoryBytes = 0; ///< capacity less the CUDA context and NCCL buffers
    double trainingSeconds = 0;
    double gpuHours = 0;
    std::string bottleneck; ///< compute, memory-bandwidth, tensor-parallel, ..., memory
    std::string bottleneckExplanation;
};

/**
 * What the MFU is of, where a reader could take it otherwise: the FP8 peak for an FP8 run ("of
 * the dense FP8 peak, 1,979 TFLOP/s a GPU"), and why it stands above the share of the peak the
 * GPU executes when it does by 10% or more ("attention counted over the whole sequence (PaLM's
 * and Megatron's convention); the causal kernels execute 59% of those FLOPs, 47.5% of the
 * peak"). Empty otherwise.
 */
std::string mfuConventionNote(const TrainingEstimate &estimate);
/**
 * Why the hardware FLOP/s are below the model FLOP/s, when they are (they include recompute, so
 * a reader expects them at or above): the model count takes attention over the whole sequence,
 * the causal kernels run about half of it. Empty when the hardware figure is not below.
 */
std::string hardwareBelowModelNote(const TrainingEstimate &estimate);

struct TrainingSearchResult
{
    TrainingEstimate best; ///< valid and fits, when found
    int largestFittingMicrobatch
        = 0; ///< with best's other settings, the largest microbatch that fits
    bool found = false;
    std::vector<TrainingEstimate> top; ///< up to 10, fastest first
    long long evaluated = 0; ///< layouts evaluated
    long long pruned = 0; ///< layouts skipped unevaluated: interleaves the schedule cannot run
    std::string reason; ///< why nothing was found
};

} // namespace cp::model
