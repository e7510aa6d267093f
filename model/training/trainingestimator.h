// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "model/cluster/clusterdescription.h"
#include "model/training/trainingestimate.h"
#include "model/training/trainingstep.h"
#include "model/training/transformershape.h"

#include <atomic>
#include <optional>

namespace cp::model {

/**
 * Analytic estimate of one training step of a dense or MoE transformer on a cluster.
 *
 * Compute: per-layer FLOPs (transformershape.h) at the GPU's dense peak times a size-dependent
 * GEMM efficiency (gemmefficiency.h, Hockney's half-performance model).
 * Memory-bound kernels: bytes moved by norms, activations, dropout and (unfused) softmax over
 * achievable HBM bandwidth. Communication: alpha-beta collectives (collectivecost.h) on NVLink
 * or the scale-out network. Pipeline: 1F1B / interleaved bubble (p-1)/(v·m) (Narayanan et al.
 * SC21). Memory: ZeRO (Rajbhandari et al. SC20) for model states, Korthikanti et al. 2022
 * ("Reducing Activation Recomputation in Large Transformer Models") for activations.
 */
class TrainingEstimator
{
public:
    TrainingEstimator(const TrainingJob &job, const ClusterDescription &cluster);

    /** Evaluates one layout; invalid layouts come back with valid = false and a reason. */
    TrainingEstimate estimate(const ParallelConfig &config) const;

    /**
     * Searches every layout the constraints allow and returns the fastest that fits, with the
     * ten fastest. `cancel` is polled so a GUI can stop a long search.
     */
    TrainingSearchResult search(const std::atomic<bool> *cancel = nullptr) const;

    /** Why `config` cannot run, empty when it can; a placeholder when !withReason. */
    std::string validate(const ParallelConfig &config, bool withReason = true) const;
    /** Search: no reason texts, no step for a layout that does not fit; Explained: bottleneck. */
    enum class EvaluateMode { Search, Explained };

private:
    struct SearchSpace;
    struct LayoutRanking;
    SearchSpace searchSpace() const;
    /** Every expert, microbatch, interleave, recompute and ZeRO choice for one TP x CP x PP x DP
     * shape, in a fixed order (the ranking keeps the first of equal step times). */
    bool interleaveRunnable(const ParallelConfig &config) const;
    void searchLayoutsOfShape(int tp, int cp, int pp, int dp, const SearchSpace &space,
                              LayoutRanking &ranking) const;
    /** Ranks one layout; `costs` are its microbatch's layer costs, built on first use. */
    void consider(const ParallelConfig &config, std::optional<MicrobatchLayerCosts> &costs,
                  LayoutRanking &ranking) const;
    // validate's rules, in the order it checks them; each returns the first broken one.
    /** Degrees at least 1, ZeRO 0-3, and TP x PP x DP x CP the cluster's GPUs. */
    std::string checkDegrees(const ParallelConfig &config, bool withReason) const;
    /** Heads and KV heads over TP, TP inside the scale-up domain, layers over the stages. */
    std::string checkModelSplit(const ParallelConfig &config, bool withReason) const;
    /** The batch over DP x microbatch, the interleaved schedule, the sequence over CP. */
    std::optional<ParallelConfig> embeddingAndLossSplit(const ParallelConfig &config) const;
    std::string checkUnevenStages(const ParallelConfig &config) const;
    std::string checkSchedule(const ParallelConfig &config, bool withReason) const;
    std::string checkActivationOffload(const ParallelConfig &config, bool withReason) const;
    /** Expert parallelism: an MoE model whose experts and TP x DP x CP divide by EP. */
    std::string checkExperts(const ParallelConfig &config, bool withReason) const;
    std::string checkRecomputeModules(const ParallelConfig &config, bool withReason) const;
    std::string checkExpertTensorParallel(const ParallelConfig &config, bool withReason) const;
    /** Explanations of the ten best, the microbatch headroom, or why nothing fits. */
    void finishSearch(LayoutRanking &ranking) const;
    std::string noShapeReason() const;
    TrainingEstimate evaluate(const ParallelConfig &config, EvaluateMode mode) const;
    /**
     * evaluate into `result`, assigning every field a valid layout has (the search reuses one).
     * `costs`, when given, holds the layer costs of the layout's microbatch (TP, CP, EP and the
     * microbatch fixed): built on first use, then shared by every layout that keeps them.
     */
    void evaluateInto(const ParallelConfig &config, EvaluateMode mode,
                      std::optional<MicrobatchLayerCosts> *costs, TrainingEstimate &result) const;
    void explain(TrainingEstimate &estimate) const;
    void addThroughput(const ParallelConfig &c, TrainingEstimate &result) const;
    double recomputedLayerFlopsPerToken(const ParallelConfig &c) const;
    /** The attention core's FLOPs a token as the framework's kernel executes them, forward. */
    double executedAttentionCoreFlopsPerToken() const;
    MemoryBreakdown estimateMemory(const ParallelConfig &config) const;
    MemoryBreakdown stageMemory(const ParallelConfig &config, PipelineEnd end) const;
    /** What one layer keeps of one microbatch for backward, and what recomputation rebuilds at
     * a time (full recomputation's one layer), per GPU. */
    struct LayerActivations
    {
        double keptBytes = 0;
        double workingSetBytes = 0;
    };
    LayerActivations layerActivations(const ParallelConfig &config) const;

    TrainingJob m_job;
    ClusterDescription m_cluster;
    TransformerShape m_shape;
    double m_peakFlopsPerSecond = 0;
};

/**
 * For a mixture of experts searched with Megatron's all-to-all dispatcher and no expert-parallel
 * overlap: the fastest layout with the DeepEP dispatcher and --overlap-moe-expert-parallel-comm
 * (Megatron-Core 0.14), where it steps at least 5% faster than `best`; nullopt otherwise, or for
 * a dense model. DeepSeek-V3 on 2,048 H100s took 87 days one way and 47 the other, and nothing
 * said so.
 */
std::optional<TrainingEstimate> fasterWithExpertParallelOptions(const TrainingJob &job,
                                                                const ClusterDescription &cluster,
                                                                const TrainingEstimate &best);

} // namespace cp::model
