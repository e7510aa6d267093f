// SPDX-License-Identifier: GPL-3.0-or-later
#include "model/training/trainingstep.h"

#include "model/training/gemmefficiency.h"
#include "model/training/transformershape.h"

#include <algorithm>
#include <cmath>
#include <utility>

namespace cp::model {

namespace {

/** Bytes of one activation element: Megatron keeps activations in 16-bit even with FP8 GEMMs. */
constexpr double activationBytes = 2.0;
/** Bytes of a 16-bit parameter as the distributed optimizer's all-gather sends it. */
constexpr double parameterBytes = 2.0;
/**
 * Bytes the Adam update streams per parameter it owns, besides the gradient: reads fp32 master,
 * m and v (12 B), writes master, m, v and the 16-bit weight (14 B). The gradient (2 or 4 B) is
 * read by the update and once more by the gradient-norm clip.
 */
constexpr double optimizerStateTrafficBytesPerParameter = 26.0;

/** RecomputeModule bits, for tagging the operations each module repeats. */
constexpr unsigned coreAttention = static_cast<unsigned>(RecomputeModule::CoreAttention);
constexpr unsigned layerNorm = static_cast<unsigned>(RecomputeModule::LayerNorm);
constexpr unsigned moeActivation = static_cast<unsigned>(RecomputeModule::MoeActivation);
constexpr unsigned denseMlp = static_cast<unsigned>(RecomputeModule::DenseMlp);
constexpr unsigned latentUpProjection = static_cast<unsigned>(RecomputeModule::LatentUpProjection);

/** The sizes one layout's operations share: TP, tokens per microbatch, the sequence. */
struct LayoutSizes
{
    LayoutSizes(const TrainingJob &job, const TransformerShape &shape, const ParallelConfig &config)
        : t(config.tp)
        , s(job.seqLen)
        , h(shape.hidden)
        , tokens(config.microbatch * s / config.cp)
        , spDivisor((config.sequenceParallel && config.tp > 1) ? t : 1.0)
    { }
    const double t, s, h, tokens, spDivisor;
};

/** A memory-bound kernel: its bytes at `achievableFraction` of HBM bandwidth (a streaming
 * kernel's when 0), plus its fixed cost. */
double memoryBoundSeconds(const GpuSpec &gpu, double bytes, double kernels,
                          double achievableFraction = 0)
{
    const double fraction
        = achievableFraction > 0 ? achievableFraction : gpu.memoryAchievableFraction;
    return bytes / (gpu.memoryBytesPerSecond * fraction) + kernels * gpu.kernelOverheadSeconds;
}

/**
 * Expected distinct bins `picks` uniform draws land in: bins·(1 - (1 - 1/bins)^picks). A token's
 * top-k experts, drawn evenly from the experts it may reach (benchmarks force-balance the
 * routing), fall on this many of the ranks or nodes holding them.
 */
double expectedDistinct(double bins, double picks)
{
    if (bins <= 1.0)
        return 1.0;
    return bins * (1.0 - std::pow(1.0 - 1.0 / bins, picks));
}

/** `part`'s work and time added to `op`'s: two GEMMs shown as one operation. */
void accumulate(LayerOperation &op, const LayerOperation &part)
{
    op.flops += part.flops;
    op.bytes += part.bytes;
    op.kernels += part.kernels;
    op.forwardSeconds += part.forwardSeconds;
    op.backwardSeconds += part.backwardSeconds;
    op.backwardFlops += part.backwardFlops;
    op.backwardBytes += part.backwardBytes;
    op.backwardKernels += part.backwardKernels;
    op.hiddenSeconds += part.hiddenSeconds;
}

/** `op` run on `share` of the layers: its work, traffic and time in proportion. */
LayerOperation scaled(LayerOperation op, double share)
{
    op.flops *= share;
    op.bytes *= share;
    op.kernels *= share;
    op.forwardSeconds *= share;
    op.backwardSeconds *= share;
    op.backwardFlops *= share;
    op.backwardBytes *= share;
    op.backwardKernels *= share;
    op.hiddenSeconds *= share;
    return op;
}

/**
 * Builds what one microbatch costs in one layer and in the logits (MicrobatchLayerCosts): every
 * operation here depends on TP, CP, EP, the microbatch and sequence parallelism only.
 */
class LayerCostBuilder : private LayoutSizes
{
public:
    /** Fills `costs`, whose shape is the job's model's. */
    LayerCostBuilder(const TrainingJob &job, const ClusterDescription &cluster,
                     const ParallelConfig &config, MicrobatchLayerCosts &costs)
        : LayoutSizes(job, costs.shape, config)
        , m_job(job)
        , m_cluster(cluster)
        , m_config(config)
        , m_gpu(cluster.gpu)
        , m_shape(costs.shape)
        , m_costs(costs)
    {
        sixteenBit = m_gpu.supports(Precision::BF16) ? Precision::BF16 : Precision::FP16;
        gemmPrecision = job.precision;
    }

    void build();

private:
    double gemm(double flops, double m, double n, double k, double kernels) const
    {
        return gemmSeconds(m_gpu, gemmPrecision, flops, m, n, k, kernels);
    }
    /** Which side of a tensor-parallel block a GEMM sits on, for the TP overlap's split. */
    enum class TpBlockSide { None, ColumnParallel, RowParallel };
    /** Forward one GEMM kernel; backward the data- and weight-gradient GEMMs. */
    LayerOperation gemmOperation(const char *name, double flops, double m, double n, double k,
                                 TpBlockSide side = TpBlockSide::None);
    double splitGemm(double flops, double m, double n, double k, double splits) const;
    bool tpOverlapSplitsGemms() const;
    /** A memory-bound kernel and its backward; a kernel measured slower than a streaming one
     * gives its forward and backward shares of the streaming bandwidth. */
    LayerOperation memoryOperation(const char *name, double bytes, double kernels,
                                   double forwardEfficiency = 1.0, double backwardEfficiency = 1.0);
    LayerOperation tensorParallelOperation(const LayerOperation &before,
                                           const LayerOperation &after, const char *name);
    void addAttentionBlock();
    void addMlpBlock();
    /** Names of a dense MLP's up and down GEMMs and of its TP collectives (none: the MLP
     * shares the attention block's). */
    struct DenseMlpNames
    {
        const char *up;
        const char *down;
        const char *collectives;
        /** The activation's, SwiGLU and GeLU: distinct where an MoE layer has two dense MLPs, so
         * a comparison by name never merges them. */
        const char *swiglu = "SwiGLU activation";
        const char *gelu = "GeLU activation";
    };
    void addDenseMlp(double copies, double ffnSize, const DenseMlpNames &names,
                     unsigned recomputeModule);
    void addLatentProjections(const LayerOperation &outputProjection);
    void addAttention();
    void addMixtureOfExperts(double expertTokens);
    LayerOperation expertAllToAll(double routedTokens) const;
    void addContextParallel(double attentionForwardSeconds);
    void addFp8Casts();
    void overlapExpertAllToAll(int commonOperations, int denseOperationsEnd);
    LinkLevel linkFor(int ranks) const;
    /** Adds an operation of the average layer, weighed by the share of layers that run it. */
    void addLayer(const LayerOperation &operation)
    {
        if (m_share == 1.0)
            m_costs.add(operation);
        else
            m_costs.add(scaled(operation, m_share));
    }

    const TrainingJob &m_job;
    const ClusterDescription &m_cluster;
    const ParallelConfig &m_config;
    const GpuSpec &m_gpu;
    const TransformerShape &m_shape;
    MicrobatchLayerCosts &m_costs;
    Precision sixteenBit, gemmPrecision;
    double m_share = 1.0; ///< share of the layers the operations being added run on
};

/**
 * Puts one layout's step together from its microbatch's layer costs: the busiest stage's
 * layers, the recompute it repeats, the pipeline sends and bubble, the data-parallel gradient
 * sync and the optimizer.
 */
class StepAssembler : private LayoutSizes
{
public:
    StepAssembler(const TrainingJob &job, const ClusterDescription &cluster,
                  const ParallelConfig &config, const MicrobatchLayerCosts &costs)
        : LayoutSizes(job, costs.shape, config)
        , m_job(job)
        , m_cluster(cluster)
        , m_config(config)
        , m_gpu(cluster.gpu)
        , m_costs(costs)
        , m_shape(costs.shape)
    {
        microbatches = static_cast<double>(job.globalBatch) / (config.dp * config.microbatch);
        fullRecompute = config.recompute == Recompute::Full;
        if (config.recompute == Recompute::Selective)
            selectiveModules = config.recomputeModules.bits;
        paceWithBusiestStage();
    }

    void assemble(TrainingEstimate &result);

private:
    bool repeated(const LayerOperation &op) const
    {
        return (fullRecompute && op.repeatedByFullRecompute)
            || (op.recomputeModule & selectiveModules) != 0;
    }
    /** Times the stage whose microbatch takes longest, which sets the pipeline's pace. */
    void paceWithBusiestStage();
    void setStage(PipelineEnd end);
    int buildingsPerStage() const;
    double pipelineSendSeconds() const;
    double gradientAllReduceSeconds(double bytes, int group, int stride) const;
    /** One microbatch's forward and backward work on the stage timed (recompute in backward). */
    struct StagePasses
    {
        double forwardSeconds = 0;
        double backwardSeconds = 0;
    };
    StagePasses stagePasses() const;
    double stageMicrobatchSeconds() const;
    /** A microbatch's pipeline sends on the stage timed, whose passes are `passes`: exposed and
     * hidden seconds. */
    std::pair<double, double> microbatchSendSeconds(const StagePasses &passes) const;
    void addStepOperations(TrainingEstimate &result, const StagePasses &passes, double p2pSeconds,
                           double hiddenP2pSeconds);
    void addDataParallel(TrainingEstimate &result, double stageForward, double stageBackward);
    void addHostOffload(TrainingEstimate &result, double layerForwardSeconds,
                        double layerBackwardSeconds);

    const TrainingJob &m_job;
    const ClusterDescription &m_cluster;
    const ParallelConfig &m_config;
    const GpuSpec &m_gpu;
    const MicrobatchLayerCosts &m_costs;
    const TransformerShape &m_shape;
    PipelineEnd stage = PipelineEnd::Last; ///< the stage timed: the busiest
    double layersPerStage = 0, microbatches = 0;
    /** Multi-token prediction blocks on the stage timed (the last): each a layer more with its
     * projection, logits and loss. */
    double mtpBlocks = 0;
    double heads = 1; ///< output projections and losses on the stage timed (outputHeadsOnStage)
    bool fullRecompute = false;
    unsigned selectiveModules = 0; ///< RecomputeModule bits selective recomputation repeats
};

/** `flops` of an M x N x K GEMM run as `splits` GEMMs of M / splits rows each. */
double LayerCostBuilder::splitGemm(double flops, double m, double n, double k, double splits) const
{
    return splits * gemm(flops / splits, std::max(1.0, m / splits), n, k, 1);
}

bool LayerCostBuilder::tpOverlapSplitsGemms() const
{
    return m_config.tp > 1 && m_config.sequenceParallel && m_job.framework.tpCommOverlap;
}

/**
 * One GEMM of a layer. Without TP overlap: forward one kernel, backward the data- and
 * weight-gradient GEMMs at the forward's efficiency (the three share M, N and K).
 *
 * Transformer Engine's userbuffers overlap (TE's initialize_ub defaults, the methods NeMo's H100
 * configurations keep: https://github.com/NVIDIA/TransformerEngine, transformer_engine/pytorch/
 * module/base.py; NVIDIA/NeMo nemo/collections/llm/recipes/tp_overlap_configs/userbuffers.py)
 * hides the collectives by cutting the GEMM next to them into pieces along the token rows:
 * - ring exchange (the all-gather before a column-parallel GEMM's forward, QKV and MLP up, and
 *   before a row-parallel GEMM's data gradient, projection and MLP down): TP GEMMs of M / TP
 *   rows, one per received chunk (num_splits = tp_size);
 * - pipeline (the reduce-scatter after a row-parallel GEMM's forward): 4 GEMMs of M / 4 rows
 *   (num_splits = 4);
 * - bulk (the column-parallel GEMMs' backward): the collective runs beside an unsplit GEMM.
 * Smaller pieces run at the lower efficiency of their size (gemmEfficiency); the SMs the
 * collectives take are the overlap slowdown counted on the hidden time.
 */
LayerOperation LayerCostBuilder::gemmOperation(const char *name, double flops, double m, double n,
                                               double k, TpBlockSide side)
{
    constexpr double pipelineSplits = 4;
    double forwardSplits = 1, dataGradientSplits = 1;
    if (tpOverlapSplitsGemms() && side == TpBlockSide::ColumnParallel)
        forwardSplits = t;
    if (tpOverlapSplitsGemms() && side == TpBlockSide::RowParallel) {
        forwardSplits = pipelineSplits;
        dataGradientSplits = t;
    }
    LayerOperation op {name, OperationKind::Gemm};
    op.flops = flops;
    op.kernels = forwardSplits;
    op.forwardSeconds = splitGemm(flops, m, n, k, forwardSplits);
    op.backwardFlops = 2.0 * flops;
    op.backwardKernels = dataGradientSplits + 1;
    op.backwardSeconds = splitGemm(flops, m, n, k, dataGradientSplits) + gemm(flops, m, n, k, 1);
    return op;
}

LayerOperation LayerCostBuilder::memoryOperation(const char *name, double bytes, double kernels,
                                                 double forwardEfficiency,
                                                 double backwardEfficiency)
{
    // Backward reads the saved tensors and the incoming gradient and writes the outgoing one:
    // about twice the forward traffic, in as many kernels.
    const double streaming = m_gpu.memoryAchievableFraction;
    LayerOperation op {name, OperationKind::MemoryBound};
    op.bytes = bytes;
    op.kernels = kernels;
    op.forwardSeconds = memoryBoundSeconds(m_gpu, bytes, kernels, streaming * forwardEfficiency);
    op.backwardBytes = 2.0 * bytes;
    op.backwardKernels = kernels;
    op.backwardSeconds
        = memoryBoundSeconds(m_gpu, 2.0 * bytes, kernels, streaming * backwardEfficiency);
    return op;
}

/**
 * Buildings one pipeline stage's GPUs fill (pipelineStageGpus): its data-parallel groups cross
 * the interconnect only when a stage is larger than a building (validate makes the two divide).
 */
int StepAssembler::buildingsPerStage() const
{
    const long long stageGpus = pipelineStageGpus(m_config);
    const int perBuilding = std::max(1, m_cluster.gpusPerBuilding());
    if (m_cluster.buildings <= 1 || stageGpus <= perBuilding)
        return 1;
    return static_cast<int>(stageGpus / perBuilding);
}

LinkLevel LayerCostBuilder::linkFor(int ranks) const
{
    if (ranks <= m_cluster.scaleUpDomainGpus)
        return m_cluster.scaleUpLink();
    return m_cluster.scaleOutLink((ranks + m_cluster.gpusPerNode - 1) / m_cluster.gpusPerNode);
}

/**
 * The two collectives around one TP block (attention or MLP). Without sequence parallelism an
 * all-reduce of the block's output, on the critical path (Shoeybi et al. 2019, Megatron-LM §3).
 * With it, an all-gather before the first GEMM and a reduce-scatter after the last (Korthikanti
 * et al. 2022 §4.2.2); with --tp-comm-overlap each is split into TP chunks pipelined with its
 * GEMM, so only the first chunk and whatever the GEMM cannot cover stay exposed (Wang et al.,
 * ASPLOS 2023): max(0, comm - gemm) + min(comm, gemm) / TP.
 */
LayerOperation LayerCostBuilder::tensorParallelOperation(const LayerOperation &before,
                                                         const LayerOperation &after,
                                                         const char *name)
{
    LayerOperation op {name, OperationKind::TensorParallel};
    if (m_config.tp <= 1)
        return op;
    const LinkLevel link = linkFor(m_config.tp);
    const double message = tokens * h * activationBytes;
    op.bytes = 2.0 * message * (t - 1.0) / t;
    op.backwardBytes = op.bytes;
    if (!m_config.sequenceParallel) {
        const double allReduce = allReduceSeconds(message, m_config.tp, link);
        op.kernels = 1;
        op.forwardSeconds = allReduce;
        op.backwardKernels = 1;
        op.backwardSeconds = allReduce;
        op.bytes = op.backwardBytes = message * 2.0 * (t - 1.0) / t;
        return op;
    }
    const double gather = allGatherSeconds(message, m_config.tp, link);
    const double scatter = reduceScatterSeconds(message, m_config.tp, link);
    op.kernels = 2;
    op.backwardKernels = 2;
    if (!m_job.framework.tpCommOverlap) {
        op.forwardSeconds = gather + scatter;
        op.backwardSeconds = gather + scatter;
        return op;
    }
    auto exposed = [&](double comm, double gemmSeconds) {
        return std::max(0.0, comm - gemmSeconds) + std::min(comm, gemmSeconds) / t;
    };
    // Forward: gather overlaps the first GEMM, scatter the last. Backward: the data-gradient
    // GEMMs (half of each GEMM's backward) take the same roles in reverse.
    op.forwardSeconds
        = exposed(gather, before.forwardSeconds) + exposed(scatter, after.forwardSeconds);
    op.backwardSeconds = exposed(scatter, 0.5 * before.backwardSeconds)
        + exposed(gather, 0.5 * after.backwardSeconds);
    op.hiddenSeconds = 2.0 * (gather + scatter) - op.forwardSeconds - op.backwardSeconds;
    return op;
}

void LayerCostBuilder::addAttention()
{
    // QK^T and PV over the context: a key's dot product over the query width, a value's
    // weighted sum over the value width (equal but for latent attention).
    const double queryWidth = m_shape.attentionWidth() / t;
    const double fullFlops = 2.0 * 2.0 * tokens * s * queryWidth;
    const double keysPerKernel = s / m_config.cp;
    double forwardSeconds = 0;
    if (m_job.framework.attention == AttentionKernel::Flash) {
        // One fused kernel per K/V block (CP splits the context into CP blocks per rank); the
        // kernel runs at the GPU's measured fused-attention share of the 16-bit peak, shrinking
        // for short blocks by the same half-performance size as the GEMMs. A local layer's
        // kernel skips the blocks outside its window's band or its chunk: fewer keys per query,
        // each block as short as the span. The layer is the average of full and local layers.
        auto kernelSeconds = [&](double executedFlops, double keys) {
            const double efficiency
                = m_gpu.attentionPeakFraction * keys / (keys + m_gpu.gemmHalfPerformanceDim);
            return executedFlops / (m_gpu.peakFlopsPerSecond(sixteenBit) * efficiency);
        };
        const double perKey = 4.0 * tokens * queryWidth; // QK^T and PV, per key per query
        const LocalAttention &local = m_shape.localAttention;
        const double localShare = m_shape.localLayerShare();
        const double executed = perKey * m_shape.attendedKeysPerQuery(s);
        // An encoder's query attends every key (in its window), a decoder's those before it.
        const bool encoder = m_shape.bidirectionalAttention;
        const auto keysPerQuery = [&](const LocalAttention &span) {
            return encoder ? (span.span > 0 ? std::min(s, span.span) : s)
                           : causalKeysPerQuery(s, span);
        };
        double seconds
            = (1.0 - localShare) * kernelSeconds(perKey * keysPerQuery({}), keysPerKernel);
        if (localShare > 0)
            seconds += localShare
                * kernelSeconds(perKey * keysPerQuery(local), std::min(keysPerKernel, local.span));
        const char *name = encoder ? "attention (fused, bidirectional)"
            : localShare <= 0      ? "attention (fused, causal)"
            : local.chunked
            ? (localShare >= 1.0 ? "attention (fused, causal, chunked)"
                                 : "attention (fused, causal; chunked and full layers)")
            : (localShare >= 1.0 ? "attention (fused, causal, sliding window)"
                                 : "attention (fused, causal; windowed and full layers)");
        LayerOperation op {name, OperationKind::Attention};
        op.flops = executed;
        op.kernels = m_config.cp;
        op.forwardSeconds = seconds + op.kernels * m_gpu.kernelOverheadSeconds;
        op.backwardFlops = flashBackwardWork * executed;
        op.backwardKernels = 2.0 * m_config.cp; // the dO·O preprocessing kernel and the backward
        op.backwardSeconds
            = flashBackwardWork * seconds + op.backwardKernels * m_gpu.kernelOverheadSeconds;
        op.recomputeModule = coreAttention;
        forwardSeconds = op.forwardSeconds;
        addLayer(op);
    } else {
        // 2021 kernels: batched GEMMs over the full (masked) score matrix, a fused
        // scale-mask-softmax and a dropout on the scores (Narayanan et al. SC21 §4).
        const double scoreElements = tokens * m_shape.heads / t * s;
        LayerOperation scores = gemmOperation("attention scores QK^T and PV (batched GEMM)",
                                              fullFlops, keysPerKernel, s, m_shape.headDim);
        scores.kind = OperationKind::Attention;
        scores.kernels = 2;
        scores.forwardSeconds += m_gpu.kernelOverheadSeconds;
        scores.backwardKernels = 4;
        scores.backwardSeconds += 2.0 * m_gpu.kernelOverheadSeconds;
        scores.recomputeModule = coreAttention;
        // Softmax reads and writes the scores; dropout reads them, writes them and a 1-byte mask.
        LayerOperation softmax = memoryOperation("softmax and dropout on the scores",
                                                 4.5 * scoreElements * activationBytes, 2);
        softmax.recomputeModule = coreAttention;
        forwardSeconds = scores.forwardSeconds + softmax.forwardSeconds;
        addLayer(scores);
        addLayer(softmax);
    }
    if (m_config.cp > 1)
        addContextParallel(forwardSeconds);
}

/**
 * Ring attention (Liu et al. 2023; Megatron-Core context parallelism): each of the CP-1 steps
 * sends the local K/V block to the next rank while the attention of the block in hand runs;
 * backward sends K/V and their gradients. What a step's transfer does not cover is exposed, and
 * every step merges its partial output into the running softmax (one memory-bound pass).
 */
void LayerCostBuilder::addContextParallel(double attentionForwardSeconds)
{
    const double steps = m_config.cp - 1.0;
    const LinkLevel link = linkFor(m_config.tp * m_config.cp);
    const double blockBytes = tokens * m_shape.kvWidth() / t * activationBytes;
    const double send = pointToPointSeconds(blockBytes, link);
    const double computePerBlock = attentionForwardSeconds / m_config.cp;
    LayerOperation op {"context-parallel K/V ring", OperationKind::ContextParallel};
    op.bytes = steps * blockBytes;
    op.kernels = steps;
    op.forwardSeconds = steps * std::max(0.0, send - computePerBlock);
    op.backwardBytes = 2.0 * steps * blockBytes;
    op.backwardKernels = steps;
    op.backwardSeconds = steps * std::max(0.0, 2.0 * send - flashBackwardWork * computePerBlock);
    op.hiddenSeconds = steps * 3.0 * send - op.forwardSeconds - op.backwardSeconds;
    op.recomputeModule = coreAttention;
    addLayer(op);
    LayerOperation merge
        = memoryOperation("context-parallel output merge",
                          steps * 3.0 * tokens * m_shape.valueWidth() / t * activationBytes, steps);
    merge.recomputeModule = coreAttention;
    addLayer(merge);
}

/**
 * Router, token permutation, dispatch and combine all-to-all, and the expert GEMMs (grouped
 * GEMMs over the local experts, each sized for capacity-factor x its balanced share of tokens;
 * Lepikhin et al., GShard, 2020; Fedus et al., Switch Transformers, 2021 §2.1). The all-to-all
 * is not overlapped in Megatron-Core 2024 (its MoE overlap arrived in 2025); across nodes only
 * the share for other nodes' experts crosses the NIC.
 */
void LayerCostBuilder::addMixtureOfExperts(double expertTokens)
{
    // Each rank dispatches its sequence-parallel share of the tokens. Split over TP, the experts'
    // weights make every TP rank multiply all of the routed tokens by 1/TP of each expert;
    // folded (ETP 1), each rank multiplies its own share by whole experts.
    const bool folded = expertsFolded(m_config);
    const double expertSplit = folded ? 1.0 : t;
    const double routedTokens = tokens * m_shape.topK / spDivisor * m_job.moeCapacityFactor;
    const double computedTokens
        = tokens * m_shape.topK * m_job.moeCapacityFactor / (folded ? spDivisor : 1.0);
    addLayer(gemmOperation("MoE router", 2.0 * tokens / spDivisor * h * m_shape.experts,
                           tokens / spDivisor, m_shape.experts, h));
    // Permuting the routed copies into expert order and back reads and writes each twice. The
    // all-to-all dispatcher then sorts what it received by local expert, and unsorts it before
    // the combine, wherever a rank holds more than one expert (Megatron-Core
    // MoEAlltoAllTokenDispatcher: "permutation 2" and "unpermutation 2", sort_chunks_by_idxs,
    // megatron/core/transformer/moe/token_dispatcher.py at commit d98e8a64dd): twice the
    // traffic. The deduplicated dispatcher receives tokens once and permutes them once.
    const double localExperts = m_shape.experts / m_config.ep;
    const bool sortsByLocalExpert
        = !deduplicatesTokens(m_job.framework.moeDispatcher) && localExperts > 1;
    const double permutations = sortsByLocalExpert ? 2.0 : 1.0;
    addLayer(memoryOperation("MoE token permute and unpermute",
                             permutations * 4.0 * routedTokens * h * activationBytes,
                             permutations * 2));
    if (m_config.ep > 1)
        addLayer(expertAllToAll(routedTokens));
    const double ffn = m_shape.ffn / expertSplit;
    const double upWidth = (m_shape.gatedMlp ? 2.0 : 1.0) * ffn;
    const double capacityTokens
        = expertTokens * m_job.moeCapacityFactor / (folded ? spDivisor : 1.0);
    addLayer(gemmOperation("expert MLP up (grouped GEMM)", 2.0 * computedTokens * h * upWidth,
                           capacityTokens, upWidth, h));
    LayerOperation activation = memoryOperation(
        "expert activation",
        computedTokens * (m_shape.gatedMlp ? 3.0 : 2.0) * ffn * activationBytes, 1);
    activation.recomputeModule = moeActivation;
    addLayer(activation);
    addLayer(gemmOperation("expert MLP down (grouped GEMM)", 2.0 * computedTokens * ffn * h,
                           capacityTokens, h, ffn));
}

/**
 * The dispatch and the combine of one MoE layer, forward and backward. The all-to-all dispatcher
 * sends every routed copy of a token: across nodes the peers in the node are reached over NVLink
 * while the rest leaves through the NIC (collectivecost.h). A deduplicated dispatcher (DeepEP;
 * DeepSeek-AI, "DeepSeek-V3 Technical Report", 2024, §3.2.2; HybridEP moves the same tokens) sends
 * a token once to each GPU that holds one of its experts and, across nodes, once through the NIC to
 * each node that does, where it is forwarded over NVLink; with group-limited routing a token's
 * experts lie in at most its groups' ranks and nodes (the DeepSeek-V3 report's "at most 4 nodes").
 * How many distinct GPUs and nodes a token reaches is the expectation for its top-k drawn evenly
 * among them.
 */
LayerOperation LayerCostBuilder::expertAllToAll(double routedTokens) const
{
    const int ep = m_config.ep;
    // Split over TP, an expert-parallel group takes every TP-th GPU; folded, consecutive ones.
    const int stride = (expertsFolded(m_config) ? 1 : m_config.tp) * m_config.cp;
    const int localRanks = std::clamp(m_cluster.gpusPerNode / stride, 1, ep);
    const bool oneNode = ep <= localRanks && stride * ep <= m_cluster.scaleUpDomainGpus;
    const int nodes = oneNode ? 1 : (ep + localRanks - 1) / localRanks;
    const int ranksPerNode = oneNode ? ep : localRanks;
    const LinkLevel scaleOut = oneNode ? m_cluster.scaleUpLink() : m_cluster.allToAllLink(nodes);
    LayerOperation op {"MoE dispatch and combine all-to-all", OperationKind::ExpertParallel};
    double seconds = 0, bytes = 0;
    if (deduplicatesTokens(m_job.framework.moeDispatcher)) {
        const double groups = m_shape.expertGroups, groupsPerToken = m_shape.expertGroupsPerToken;
        auto reachable = [&](double bins) {
            return groups > 0 ? std::min(bins, groupsPerToken * std::max(1.0, bins / groups))
                              : bins;
        };
        const double tokenBytes
            = routedTokens / m_shape.topK * h * activationBytes; // the tokens, once each
        const double ranks = expectedDistinct(reachable(ep), m_shape.topK);
        const double remoteNodes = nodes > 1
            ? expectedDistinct(reachable(nodes), m_shape.topK) * (nodes - 1.0) / nodes
            : 0.0;
        const double intraBytes = tokenBytes * ranks * (ranksPerNode - 1.0) / ranksPerNode;
        const double interBytes = tokenBytes * remoteNodes;
        seconds = deduplicatedDispatchSeconds(intraBytes, interBytes, ranksPerNode, nodes,
                                              m_cluster.scaleUpLink(), scaleOut);
        bytes = intraBytes + interBytes;
        op.name = m_job.framework.moeDispatcher == MoeDispatcher::HybridEp
            ? "MoE dispatch and combine (deduplicated, HybridEP)"
            : "MoE dispatch and combine (deduplicated, DeepEP)";
    } else {
        bytes = routedTokens * h * activationBytes;
        seconds = oneNode ? allToAllSeconds(bytes, ep, m_cluster.scaleUpLink())
                          : hierarchicalAllToAllSeconds(bytes, localRanks, nodes,
                                                        m_cluster.scaleUpLink(), scaleOut);
    }
    op.bytes = 2.0 * bytes;
    op.kernels = 2;
    op.forwardSeconds = 2.0 * seconds;
    op.backwardBytes = 2.0 * bytes;
    op.backwardKernels = 2;
    op.backwardSeconds = 2.0 * seconds;
    return op;
}

/**
 * Megatron-Core's expert-parallel overlap (--overlap-moe-expert-parallel-comm; its MoE README,
 * "EP A2A overlap", after DeepSeek-V3's DualPipe, arXiv:2412.19437 §3.2.1): in the steady state
 * of the interleaved 1F1B schedule one microbatch's forward and another's backward run as one
 * merged schedule, each one's dispatch and combine behind the other's computation. Per layer,
 * the all-to-all hides behind at most the layer's own computation (GEMMs, attention and
 * memory-bound kernels, forward and backward); the warm-up and cool-down of the pipeline are not
 * told apart.
 */
void LayerCostBuilder::overlapExpertAllToAll(int commonOperations, int denseOperationsEnd)
{
    // An MoE layer's computation: the operations every layer runs (before `commonOperations`),
    // weighed by the MoE layers' share as the all-to-all is, and the MoE block's own (from
    // `denseOperationsEnd`); a dense layer's MLP, between them, hides nothing.
    double compute = 0;
    LayerOperation *allToAll = nullptr;
    for (int i = 0; i < m_costs.count; ++i) {
        LayerOperation &op = m_costs.operations[i];
        if (op.kind == OperationKind::ExpertParallel)
            allToAll = &op;
        else if ((op.kind == OperationKind::Gemm || op.kind == OperationKind::Attention
                  || op.kind == OperationKind::MemoryBound)
                 && (i < commonOperations || i >= denseOperationsEnd))
            compute += (i < commonOperations ? m_share : 1.0)
                * (op.forwardSeconds + op.backwardSeconds);
    }
    if (!allToAll)
        return;
    const double total = allToAll->forwardSeconds + allToAll->backwardSeconds;
    if (total <= 0)
        return;
    const double hidden = std::min(total, compute);
    const double exposedShare = (total - hidden) / total;
    allToAll->forwardSeconds *= exposedShare;
    allToAll->backwardSeconds *= exposedShare;
    allToAll->hiddenSeconds += hidden;
}

StepAssembler::StagePasses StepAssembler::stagePasses() const
{
    double forward = 0, backward = 0;
    for (const LayerOperation &op : m_costs) {
        forward += op.forwardSeconds;
        backward += op.backwardSeconds + (repeated(op) ? op.forwardSeconds : 0.0);
    }
    const LayerOperation &projection = m_costs.mtpProjection;
    const double layers = layersPerStage + mtpBlocks;
    return {layers * forward + mtpBlocks * projection.forwardSeconds
                + heads * m_costs.logitForwardSeconds,
            layers * backward
                + mtpBlocks
                    * (projection.backwardSeconds
                       + (repeated(projection) ? projection.forwardSeconds : 0.0))
                + heads * (2.0 * m_costs.logitForwardSeconds + m_costs.lossSeconds)};
}

/** One microbatch through the busiest stage, forward, backward and what recompute repeats. */
double StepAssembler::stageMicrobatchSeconds() const
{
    const StagePasses passes = stagePasses();
    return passes.forwardSeconds + passes.backwardSeconds;
}

/**
 * One send forward and one backward per virtual stage. With an interleaved schedule Megatron
 * overlaps them with computation (--overlap-p2p-communication, on by default there and off
 * without interleaving: megatron/training/arguments.py at commit f2e5db4): a chunk's send runs
 * while the next chunk computes, so only what outlasts a chunk's forward (or backward) pass
 * shows.
 */
std::pair<double, double> StepAssembler::microbatchSendSeconds(const StagePasses &passes) const
{
    if (m_config.pp <= 1)
        return {0.0, 0.0};
    const double send = pipelineSendSeconds();
    const double chunks = m_config.interleave;
    if (chunks <= 1 || !m_job.framework.pipelineSendOverlap)
        return {2.0 * chunks * send, 0.0};
    const double exposed = std::max(0.0, send - passes.forwardSeconds / chunks)
        + std::max(0.0, send - passes.backwardSeconds / chunks);
    return {chunks * exposed, chunks * (2.0 * send - exposed)};
}

void StepAssembler::setStage(PipelineEnd end)
{
    stage = end;
    layersPerStage = stageLayers(m_shape, m_config, end);
    mtpBlocks = mtpBlocksOnStage(m_shape, m_config, end);
    heads = outputHeadsOnStage(m_shape, m_config, end);
}

void StepAssembler::paceWithBusiestStage()
{
    // Evenly split, the last stage is the busiest: as many layers as any, and the logits and
    // the loss besides. Lighter first or last stages (ParallelConfig::firstStageLayers,
    // lastStageLayers) can leave a middle stage, or the first, the busiest instead.
    setStage(PipelineEnd::Last);
    if (m_config.pp <= 1 || !hasUnevenStages(m_config))
        return;
    double busiest = stageMicrobatchSeconds();
    PipelineEnd pace = PipelineEnd::Last;
    for (PipelineEnd end : {PipelineEnd::First, PipelineEnd::Middle}) {
        if (end == PipelineEnd::Middle && m_config.pp < 3)
            continue; // two stages are a first and a last
        setStage(end);
        const double seconds = stageMicrobatchSeconds();
        if (seconds > busiest) {
            busiest = seconds;
            pace = end;
        }
    }
    setStage(pace);
}

/**
 * The attention block: norms, the QKV projection, rotary embedding, the attention kernel, the
 * output projection, residual adds and the TP collectives around it.
 */
void LayerCostBuilder::addAttentionBlock()
{
    // The output projection reads the attention's values (heads x value head dim).
    const double valueWidth = m_shape.valueWidth() / t;
    const double projectedWidth = (m_shape.queryWidth() + m_shape.kvWidth()) / t;
    const double replicatedTokens = tokens / spDivisor;
    // Norms: read and write h per token, twice per layer; bias-dropout-residual: read the
    // input and the residual, write the output (3 h) and, where the model drops out hidden
    // states, a 1-byte mask (0.5 h), twice per layer.
    LayerOperation norms
        = memoryOperation("layer norms", 2.0 * 2.0 * replicatedTokens * h * activationBytes, 2);
    norms.recomputeModule = layerNorm;
    addLayer(norms);
    const LayerOperation projection
        = gemmOperation("attention output projection", 2.0 * tokens * valueWidth * h, tokens, h,
                        valueWidth, TpBlockSide::RowParallel);
    if (m_shape.latentAttention()) {
        addLatentProjections(projection);
    } else {
        const double qkvWidth = m_shape.qkvWidth() / t;
        const LayerOperation qkv = gemmOperation("QKV projection", 2.0 * tokens * h * qkvWidth,
                                                 tokens, qkvWidth, h, TpBlockSide::ColumnParallel);
        addLayer(tensorParallelOperation(qkv, projection, "TP collectives, attention block"));
        addLayer(qkv);
    }
    // Megatron-Core's mla_up_proj recomputation repeats the rotary embedding with the
    // up-projections.
    // An encoder adds learned positions at its input: its layers only split Q, K and V.
    LayerOperation rotary
        = memoryOperation(m_shape.latentAttention()            ? "rotary embedding"
                              : m_shape.bidirectionalAttention ? "QKV split"
                                                               : "rotary embedding and QKV split",
                          2.0 * tokens * projectedWidth * activationBytes, 1);
    if (m_shape.latentAttention())
        rotary.recomputeModule = latentUpProjection;
    addLayer(rotary);
    addAttention();
    addLayer(projection);
    const double residualBytesPerUnit = m_shape.hiddenDropoutMasks ? 3.5 : 3.0;
    addLayer(memoryOperation("bias, dropout and residual adds",
                             2.0 * residualBytesPerUnit * replicatedTokens * h * activationBytes,
                             2));
}

/**
 * Latent attention's projections as Megatron-Core's MLASelfAttention runs them (DeepSeek-AI,
 * "DeepSeek-V2", 2024, https://arxiv.org/abs/2405.04434, §2.1.2): one GEMM from the hidden
 * state down to the query latent (or straight to the queries when they are not compressed), the
 * K/V latent and the shared rotary key; then the latents up to every head's query, key and value,
 * the two GEMMs mla_up_proj recomputation repeats. All are split over TP here (Megatron keeps the
 * down-projections whole on every rank: a share of their FLOPs, 15 M of DeepSeek-V3's 187 M
 * attention parameters a layer, is not counted on each rank).
 */
void LayerCostBuilder::addLatentProjections(const LayerOperation &outputProjection)
{
    const TransformerShape &shape = m_shape;
    const bool queriesCompressed = shape.qLoraRank > 0;
    const double downWidth = ((queriesCompressed ? shape.qLoraRank : shape.queryWidth())
                              + shape.kvLoraRank + shape.ropeHeadDim)
        / t;
    const LayerOperation down
        = gemmOperation("latent attention down-projections", 2.0 * tokens * h * downWidth, tokens,
                        downWidth, h, TpBlockSide::ColumnParallel);
    const double keyValueWidth = (shape.heads * shape.headDim + shape.valueWidth()) / t;
    LayerOperation up = gemmOperation("latent attention up-projections",
                                      2.0 * tokens * shape.kvLoraRank * keyValueWidth, tokens,
                                      keyValueWidth, shape.kvLoraRank);
    if (queriesCompressed) {
        const double queryWidth = shape.queryWidth() / t;
        accumulate(up,
                   gemmOperation("", 2.0 * tokens * shape.qLoraRank * queryWidth, tokens,
                                 queryWidth, shape.qLoraRank));
    }
    up.recomputeModule = latentUpProjection;
    addLayer(tensorParallelOperation(down, outputProjection, "TP collectives, attention block"));
    addLayer(down);
    addLayer(up);
}

/**
 * A dense MLP of `copies` x `ffnSize` (a dense model's MLP, or an MoE layer's shared experts)
 * with its TP collectives; `names` are its up, down and TP operations.
 */
void LayerCostBuilder::addDenseMlp(double copies, double ffnSize, const DenseMlpNames &names,
                                   unsigned recomputeModule)
{
    const double ffn = ffnSize / t;
    const double upWidth = (m_shape.gatedMlp ? 2.0 : 1.0) * ffn;
    LayerOperation up = gemmOperation(names.up, copies * 2.0 * tokens * h * upWidth, tokens,
                                      copies * upWidth, h, TpBlockSide::ColumnParallel);
    LayerOperation down = gemmOperation(names.down, copies * 2.0 * tokens * ffn * h, tokens, h,
                                        copies * ffn, TpBlockSide::RowParallel);
    // The gated activation runs the framework's measured SwiGLU kernels; GeLU's are unmeasured
    // and stream.
    const TrainingFramework &framework = m_job.framework;
    LayerOperation activation = m_shape.gatedMlp
        ? memoryOperation(names.swiglu, copies * tokens * 3.0 * ffn * activationBytes, 1,
                          framework.swigluForwardEfficiency, framework.swigluBackwardEfficiency)
        : memoryOperation(names.gelu, copies * tokens * 2.0 * ffn * activationBytes, 1);
    // A checkpointed MLP runs its whole forward again, its TP collectives included.
    if (names.collectives) {
        LayerOperation collectives = tensorParallelOperation(up, down, names.collectives);
        collectives.recomputeModule = recomputeModule;
        addLayer(collectives);
    }
    for (LayerOperation *op : {&up, &activation, &down})
        op->recomputeModule = recomputeModule;
    addLayer(up);
    addLayer(activation);
    addLayer(down);
}

/** The dense MLP (or a MoE layer's shared experts) with its TP collectives, then the experts. */
void LayerCostBuilder::addMlpBlock()
{
    // A gated MLP's up GEMM computes the gate and the up projection together; a plain one only
    // the up projection.
    static const DenseMlpNames gated {"MLP up (gate and up)", "MLP down",
                                      "TP collectives, MLP block"};
    static const DenseMlpNames plain {"MLP up", "MLP down", "TP collectives, MLP block"};
    if (m_shape.experts <= 1) {
        DenseMlpNames names = m_shape.gatedMlp ? gated : plain;
        // Beside attention (GPT-J, GPT-NeoX, Falcon), the MLP reads the input the attention
        // block's all-gather (all-reduce without SP) already brought and adds its partial output
        // to the attention's before their one reduce-scatter: no collectives of its own, forward
        // or backward (Black et al., "GPT-NeoX-20B", 2022, §2.1.2: the parallel layout saves
        // one all-reduce per layer under tensor parallelism).
        if (m_shape.parallelAttention)
            names.collectives = nullptr;
        addDenseMlp(1.0, m_shape.ffn, names, denseMlp);
        return;
    }
    // An MoE model whose dense layers are averaged in: their MLP weighs by their share of the
    // layers, the MoE block by the rest (moeLayerShare), as sliding windows are.
    const int commonOperations = m_costs.count;
    if (m_shape.denseMlpLayerShare() > 0) {
        m_share = m_shape.denseMlpLayerShare();
        addDenseMlp(1.0, m_shape.denseFfn,
                    {m_shape.gatedMlp ? "dense-layer MLP up (gate and up)" : "dense-layer MLP up",
                     "dense-layer MLP down", "TP collectives, dense-layer MLP",
                     "dense-layer SwiGLU activation", "dense-layer GeLU activation"},
                    denseMlp);
    }
    const int denseOperationsEnd = m_costs.count;
    m_share = m_shape.moeLayerShare();
    if (m_shape.sharedExperts > 0) {
        addDenseMlp(m_shape.sharedExperts, m_shape.ffn,
                    {"shared expert MLP up", "shared expert MLP down", "TP collectives, MLP block",
                     "shared expert SwiGLU activation", "shared expert GeLU activation"},
                    0);
    } else if (m_config.tp > 1 && !expertsFolded(m_config)) {
        // Experts split over TP still gather and scatter the sequence-parallel activations;
        // folded ones dispatch each rank's own share (Megatron-Core's all-to-all dispatcher
        // gathers over the expert-TP group only).
        addLayer(tensorParallelOperation(LayerOperation {}, LayerOperation {},
                                         "TP collectives, MoE block"));
    }
    addMixtureOfExperts(tokens * m_shape.topK * m_config.ep / m_shape.experts);
    if (m_job.framework.moeCommOverlap)
        overlapExpertAllToAll(commonOperations, denseOperationsEnd);
    m_share = 1.0;
}

/**
 * Transformer Engine's delayed-scaling recipe casts each GEMM input to FP8: the norm-fused GEMMs
 * get FP8 from the norm, the projection and the MLP down GEMM cast their inputs; backward casts
 * the incoming gradient of all four. Each is a cast-transpose (Hopper's FP8 GEMMs take only the
 * TN layout, so the weight-gradient GEMM needs the transposed copy): read 2 B, write 1 B twice
 * (NVIDIA/TransformerEngine PR #101, "Use 4B vector loads/stores in cast-transpose kernel for
 * small matrices"). Such a kernel reaches its own share of HBM bandwidth
 * (GpuSpec::fp8CastMemoryFraction), well below a streaming kernel's.
 */
void LayerCostBuilder::addFp8Casts()
{
    constexpr double castTransposeBytesPerElement = 4.0;
    const double queryWidth = m_shape.valueWidth() / t; // the output projection's input
    const double ffn = m_shape.ffn / t;
    const double upWidth = (m_shape.gatedMlp ? 2.0 : 1.0) * ffn;
    const double castFraction = m_gpu.fp8CastMemoryFraction; // 0: a streaming kernel's
    LayerOperation casts {"FP8 casts", OperationKind::MemoryBound};
    casts.bytes = (tokens * queryWidth + tokens * ffn) * castTransposeBytesPerElement;
    casts.kernels = 2;
    casts.forwardSeconds = memoryBoundSeconds(m_gpu, casts.bytes, casts.kernels, castFraction);
    casts.backwardBytes = (2.0 * tokens * h + tokens * queryWidth + tokens * upWidth)
        * castTransposeBytesPerElement;
    casts.backwardKernels = 4;
    casts.backwardSeconds
        = memoryBoundSeconds(m_gpu, casts.backwardBytes, casts.backwardKernels, castFraction);
    addLayer(casts);
}

void LayerCostBuilder::build()
{
    m_costs.count = 0;
    addAttentionBlock();
    addMlpBlock();
    if (gemmPrecision == Precision::FP8)
        addFp8Casts();
    // The last stage runs the output projection (16-bit, as Transformer Engine keeps it) and the
    // vocabulary-parallel cross-entropy the framework runs, at the bandwidth its passes reach.
    const double vocab = m_shape.vocab / t;
    m_costs.logitForwardSeconds
        = gemmSeconds(m_gpu, sixteenBit, 2.0 * tokens * h * vocab, tokens, vocab, h, 1);
    const CrossEntropyCost loss = crossEntropyCost(m_job.framework.crossEntropy);
    m_costs.lossBytes = loss.bytesPerLogit * tokens * vocab;
    m_costs.lossKernels = loss.kernels;
    m_costs.lossSeconds
        = memoryBoundSeconds(m_gpu, m_costs.lossBytes, m_costs.lossKernels,
                             m_gpu.memoryAchievableFraction * loss.streamingEfficiency);
    // A multi-token prediction block projects the concatenation of the hidden state and the
    // next token's embedding back to the hidden size (2h x h, split over TP).
    m_costs.mtpProjection = m_shape.mtpLayers > 0
        ? gemmOperation("multi-token prediction projection", 2.0 * tokens * 2.0 * h * h / t, tokens,
                        h / t, 2.0 * h)
        : LayerOperation {};
}

void StepAssembler::assemble(TrainingEstimate &result)
{
    result.operations.count = 0;
    // The stage's passes, once: the sends hide behind them and the bubble is made of them.
    const StagePasses passes = stagePasses();
    const auto [p2pSeconds, hiddenP2pSeconds] = microbatchSendSeconds(passes);
    addStepOperations(result, passes, p2pSeconds, hiddenP2pSeconds);
}

/**
 * One pipeline send of a microbatch's activation to the next stage. Scatter/gather optimisation:
 * each TP rank sends 1/t of it (SC21 §4.1). Stages lie one after another in rank order
 * (Megatron's tp-cp-dp-pp), so the sends stay on the scale-up link only while the whole pipeline
 * fits one scale-up domain; past it some stage boundary is a node boundary, and the slowest
 * boundary paces the pipeline. Where some stage boundary is a building boundary, every GPU of the
 * stage in that building sends across the interconnect at once.
 */
double StepAssembler::pipelineSendSeconds() const
{
    const long long stride = pipelineStageGpus(m_config);
    // Every GPU of a stage sends to the next stage at once, `stride` GPUs on: past a leaf those
    // sends share its oversubscribed uplinks (pipelineSendLink).
    const int strideNodes = static_cast<int>(std::min<long long>(
        (stride + m_cluster.gpusPerNode - 1) / std::max(1, m_cluster.gpusPerNode), 1 << 30));
    const LinkLevel link = stride * m_config.pp <= m_cluster.scaleUpDomainGpus
        ? m_cluster.scaleUpLink()
        : m_cluster.pipelineSendLink(strideNodes);
    const double bytes = tokens * h * activationBytes / t;
    double send = pointToPointSeconds(bytes, link);
    if (m_cluster.buildings > 1) {
        const int senders = static_cast<int>(
            std::min<long long>(stride, std::max(1, m_cluster.gpusPerBuilding())));
        send = std::max(send, pointToPointSeconds(bytes, m_cluster.interconnectLink(senders)));
    }
    return send;
}

void StepAssembler::addStepOperations(TrainingEstimate &result, const StagePasses &passes,
                                      double p2pSeconds, double hiddenP2pSeconds)
{
    const double m = microbatches;
    double stageForward = 0, stageBackward = 0;
    // `op` run `instances` times a microbatch (the stage's layers, or its MTP projections):
    // its step operation, and its forward and backward on the stage's timeline.
    auto addRepeated = [&](const LayerOperation &op, double instances) {
        const bool again = repeated(op);
        const double count = instances * m;
        StepOperation out;
        out.name = op.name;
        out.kind = op.kind;
        out.flops = count * (op.flops * (again ? 2.0 : 1.0) + op.backwardFlops);
        out.bytes = count * (op.bytes * (again ? 2.0 : 1.0) + op.backwardBytes);
        out.kernels = count * (op.kernels * (again ? 2.0 : 1.0) + op.backwardKernels);
        out.seconds = count * (op.forwardSeconds * (again ? 2.0 : 1.0) + op.backwardSeconds);
        out.hiddenSeconds = count * op.hiddenSeconds;
        if (out.seconds > 0 || out.hiddenSeconds > 0)
            result.operations.add(out);
        stageForward += instances * op.forwardSeconds;
        stageBackward += instances * (op.backwardSeconds + (again ? op.forwardSeconds : 0.0));
    };
    const double layers = layersPerStage + mtpBlocks;
    for (const LayerOperation &op : m_costs)
        addRepeated(op, layers);
    addHostOffload(result, stageForward / layers, stageBackward / layers);
    if (mtpBlocks > 0)
        addRepeated(m_costs.mtpProjection, mtpBlocks);
    // The model's logits and loss, and each multi-token prediction block's, on the last stage.
    if (heads > 0) {
        const double vocab = m_shape.vocab / t;
        StepOperation logits {"output projection (logits)", OperationKind::Gemm};
        logits.flops = heads * m * 3.0 * 2.0 * tokens * h * vocab;
        logits.kernels = heads * m * 3.0;
        logits.seconds = heads * m * 3.0 * m_costs.logitForwardSeconds;
        result.operations.add(logits);
        StepOperation loss {crossEntropyCost(m_job.framework.crossEntropy).operationName,
                            OperationKind::MemoryBound};
        loss.bytes = heads * m * m_costs.lossBytes;
        loss.kernels = heads * m * m_costs.lossKernels;
        loss.seconds = heads * m * m_costs.lossSeconds;
        result.operations.add(loss);
        stageForward += heads * m_costs.logitForwardSeconds;
        stageBackward += heads * (2.0 * m_costs.logitForwardSeconds + m_costs.lossSeconds);
    }
    if (m_config.pp > 1) {
        StepOperation sends {"pipeline sends", OperationKind::PipelineSend};
        sends.bytes = m * 2.0 * m_config.interleave * tokens * h * activationBytes / t;
        sends.kernels = m * 2.0 * m_config.interleave;
        sends.seconds = m * p2pSeconds;
        sends.hiddenSeconds = m * hiddenP2pSeconds;
        result.operations.add(sends);
        StepOperation bubble {"pipeline bubble", OperationKind::PipelineBubble};
        bubble.seconds = (m_config.pp - 1.0) / m_config.interleave
            * (passes.forwardSeconds + passes.backwardSeconds + p2pSeconds);
        result.operations.add(bubble);
    }
    addDataParallel(result, stageForward, stageBackward);
}

/**
 * Transformer Engine's CPU offload (transformer_engine/pytorch/cpu_offload.py) copies an
 * offloaded layer's activations (result.memory, kept per layer) to the host on its own stream
 * while the next layer runs forward, and back while the layer after it runs backward; a copy
 * longer than that layer's work shows on the step, per direction and microbatch. The copy engines
 * take no SMs, so the slowdown that overlapped collectives cause (overlapComputeSlowdown) does not
 * apply.
 */
void StepAssembler::addHostOffload(TrainingEstimate &result, double layerForwardSeconds,
                                   double layerBackwardSeconds)
{
    const int offloaded = m_job.activationOffloadLayers;
    if (offloaded <= 0)
        return;
    const double bytes = result.memory.activationBytesPerLayer;
    const double copySeconds = bytes / m_cluster.gpu.hostLinkBytesPerSecond;
    const double copies = microbatches * offloaded;
    StepOperation op {"activation copies to the host and back", OperationKind::HostOffload};
    op.bytes = copies * 2.0 * bytes;
    op.kernels = copies * 2.0;
    op.seconds = copies
        * (std::max(0.0, copySeconds - layerForwardSeconds)
           + std::max(0.0, copySeconds - layerBackwardSeconds));
    result.operations.add(op);
}

/**
 * One all-reduce of `bytes` of gradients over a data-parallel `group` whose ranks lie
 * `stride` GPUs apart: hierarchical (NVLink among the ranks a node holds, then the fabric), with
 * the interconnect as a third level when a pipeline stage spans buildings. Megatron-Core numbers
 * ranks TP fastest, then CP, EP and DP (parallel_state.py, order "tp-cp-ep-dp-pp"; experts
 * "tp-ep-dp-pp" with the expert TP size): the dense data-parallel group strides over TP, the
 * expert data-parallel group over ETP x EP, so with EP 8 on 8-GPU nodes its ranks sit one a node
 * and the whole reduction crosses the fabric.
 */
double StepAssembler::gradientAllReduceSeconds(double bytes, int group, int stride) const
{
    if (group <= 1 || bytes <= 0)
        return 0.0;
    const int gpusPerNode = m_cluster.gpusPerNode;
    const int local = std::clamp(gpusPerNode / std::max(1, stride), 1, group);
    const int nodes = std::max(1, group / local);
    // A stride beyond a node puts consecutive ranks stride / node nodes apart: the ring crosses
    // that many times the group's size in nodes (what an oversubscribed fabric divides).
    const int span = stride > gpusPerNode
        ? static_cast<int>(std::min<long long>(1LL * group * (stride / gpusPerNode), 1 << 30))
        : nodes;
    const int buildings = buildingsPerStage();
    if (buildings > 1) {
        // Over the interconnect: each building's share of the group, then across buildings.
        const int nodesPerBuilding = std::max(1, nodes / buildings);
        return campusAllReduceSeconds(
            bytes, local, nodesPerBuilding, buildings, m_cluster.scaleUpLink(),
            m_cluster.scaleOutLink(std::max(1, span / buildings)), m_cluster.interconnectLink());
    }
    return hierarchicalAllReduceSeconds(bytes, local, nodes, m_cluster.scaleUpLink(),
                                        m_cluster.scaleOutLink(span));
}

/** A step's data-parallel collectives for one ZeRO stage, each reduce-scatter and all-gather
 * already timed over its group. */
struct DataParallelCollectives
{
    int zeroStage = 1;
    double microbatches = 1;
    double reduceScatterSeconds = 0;
    double allGatherSeconds = 0;
    double overlap = 0; ///< share of a backward pass that can hide a reduction
    double forwardSeconds = 0; ///< one microbatch's forward pass through the stage
    double backwardSeconds = 0; ///< and its backward pass
    double lastBucketShare = 0; ///< of a reduction, still to go when the backward pass ends
    bool overlapParamGather = false;
};

struct DataParallelSeconds
{
    double total = 0;
    double exposed = 0;
};

/**
 * Gradient reduction and, for ZeRO, parameter gathers (Rajbhandari et al., ZeRO, SC20 §5; Zhao
 * et al., PyTorch FSDP, VLDB 2023 §3). The gradient reduction hides behind the last
 * microbatch's backward pass (as far as the framework overlaps it) except the last bucket; the
 * distributed optimizer's parameter all-gather behind the next step's first forward pass.
 * ZeRO-2 keeps only its shard of the gradients, so there is no full buffer to accumulate
 * microbatches in: it reduce-scatters after every microbatch's backward (FSDP's gradient
 * accumulation "with communication", PyTorch pull request 126166; Megatron-FSDP's
 * `grad_reduce_every_bprop` for optim_grads and optim_grads_params,
 * megatron/core/distributed/fsdp/src/megatron_fsdp/megatron_fsdp.py); a microbatch's last
 * bucket runs on into the next one's forward, and only the step's final one waits for the
 * optimizer. ZeRO-3 also gathers the parameters before every microbatch's forward and backward
 * (the backward gather also serves recomputation, as FSDP reuses it): 1.5 all-reduce volumes
 * per microbatch.
 */
DataParallelSeconds dataParallelSeconds(const DataParallelCollectives &d)
{
    const double reduceScatter = d.reduceScatterSeconds, allGather = d.allGatherSeconds;
    const double m = d.microbatches;
    DataParallelSeconds s;
    if (d.zeroStage == 0) { // all-reduce of the gradients
        s.total = 2.0 * reduceScatter;
        s.exposed
            = std::max(0.0, s.total - d.overlap * d.backwardSeconds) + d.lastBucketShare * s.total;
    } else if (d.zeroStage < 3) { // gradients reduce-scattered, parameters all-gathered
        const double reductions = d.zeroStage == 2 ? m : 1.0;
        s.total = reductions * reduceScatter + allGather;
        s.exposed = reductions * std::max(0.0, reduceScatter - d.overlap * d.backwardSeconds)
            + d.lastBucketShare * reduceScatter
            + (d.overlapParamGather ? std::max(0.0, allGather - d.forwardSeconds) : allGather);
    } else { // parameters gathered for forward and backward, gradients reduce-scattered
        s.total = (2.0 * allGather + reduceScatter) * m;
        s.exposed = m
                * (std::max(0.0, allGather - d.overlap * d.forwardSeconds)
                   + std::max(0.0, allGather + reduceScatter - d.overlap * d.backwardSeconds))
            + d.lastBucketShare * reduceScatter;
    }
    s.exposed = std::min(s.exposed, s.total);
    return s;
}

/** The data-parallel collectives of the busiest stage (dataParallelSeconds; a reduce-scatter or
 * an all-gather moves half an all-reduce) and the optimizer step. */
void StepAssembler::addDataParallel(TrainingEstimate &result, double stageForward,
                                    double stageBackward)
{
    const ParallelConfig &c = m_config;
    const StageParameters parameters = stageParameters(m_shape, c, stage);
    const double denseParams = parameters.dense, expertParams = parameters.expert;
    const double paramsPerGpu = parameters.total();
    const int expertTp = expertTensorParallel(c);

    const int dpGroup = c.dp * c.cp; // gradients are reduced over data- and context-parallel ranks
    const int expertGroup = std::max(1, dpGroup * c.tp / (c.ep * expertTp));
    const TrainingFramework &framework = m_job.framework;
    const double gradientBytes = gradientBytesPerParameter(framework, m_job.precision);
    // A reduce-scatter or an all-gather is half an all-reduce of the same bytes.
    auto halfAllReduce = [&](double bytesPerParameter) {
        return 0.5
            * (gradientAllReduceSeconds(denseParams * bytesPerParameter, dpGroup, c.tp)
               + gradientAllReduceSeconds(expertParams * bytesPerParameter, expertGroup,
                                          c.ep * expertTp));
    };
    DataParallelCollectives collectives;
    collectives.zeroStage = c.zero;
    collectives.microbatches = microbatches;
    collectives.reduceScatterSeconds = halfAllReduce(gradientBytes);
    collectives.allGatherSeconds = halfAllReduce(parameterBytes);
    collectives.overlap = framework.dpOverlapFraction;
    collectives.forwardSeconds = stageForward;
    collectives.backwardSeconds = stageBackward;
    collectives.overlapParamGather = framework.overlapParamGather;
    // Megatron-Core sizes buckets max(40M, 1M x DP) parameters; the one filled last is reduced
    // after the backward pass ends.
    const double bucket = std::max(framework.gradientBucketParameters, 1e6 * c.dp);
    collectives.lastBucketShare
        = collectives.overlap > 0 && paramsPerGpu > 0 ? std::min(1.0, bucket / paramsPerGpu) : 0.0;
    const DataParallelSeconds seconds = dataParallelSeconds(collectives);
    const double total = seconds.total, exposed = seconds.exposed;
    StepOperation dp {c.zero >= 3 ? "ZeRO-3 gathers and gradient reduce-scatter"
                                  : "data-parallel gradient sync",
                      OperationKind::DataParallel};
    dp.bytes = c.zero == 0 ? 2.0 * paramsPerGpu * gradientBytes
        : c.zero == 1      ? paramsPerGpu * (gradientBytes + parameterBytes)
        : c.zero == 2      ? paramsPerGpu * (gradientBytes * microbatches + parameterBytes)
                           : paramsPerGpu * (gradientBytes + 2.0 * parameterBytes) * microbatches;
    dp.kernels = c.zero >= 3 ? 3.0 * microbatches : c.zero == 2 ? microbatches + 1.0 : 2.0;
    dp.seconds = dpGroup > 1 ? exposed : 0.0;
    dp.hiddenSeconds = dpGroup > 1 ? total - exposed : 0.0;
    if (dpGroup > 1)
        result.operations.add(dp);
    result.dpCommTotalSeconds = dpGroup > 1 ? total : 0.0;

    // The distributed optimizer updates the shard of each parameter it owns: a dense one's over
    // the data-parallel ranks, an expert's over the ranks that hold the same expert.
    const bool sharded = c.zero >= 1;
    const double ownedParameters
        = sharded ? denseParams / dpGroup + expertParams / expertGroup : paramsPerGpu;
    StepOperation optimizer {"optimizer step (Adam, grad-norm clip)", OperationKind::Optimizer};
    optimizer.bytes
        = ownedParameters * (optimizerStateTrafficBytesPerParameter + 2.0 * gradientBytes);
    optimizer.kernels = 4;
    optimizer.seconds = memoryBoundSeconds(m_gpu, optimizer.bytes, optimizer.kernels);
    result.operations.add(optimizer);
}

} // namespace

StageParameters stageParameters(const ModelSpec &model, const ParallelConfig &config,
                                PipelineEnd end)
{
    return stageParameters(TransformerShape::fromModel(model), config, end);
}

double stageLayers(const TransformerShape &shape, const ParallelConfig &c, PipelineEnd end)
{
    const double v = c.interleave;
    if (c.pp <= 1)
        return std::ceil(shape.layers / v) * v;
    const int first = c.firstStageLayers, last = c.lastStageLayers;
    if (end == PipelineEnd::First && first > 0)
        return first;
    if (end == PipelineEnd::Last && last > 0)
        return last;
    // The stages without a count of their own share what the others leave, evenly.
    const double shared = c.pp - (first > 0 ? 1 : 0) - (last > 0 ? 1 : 0);
    const double rest = shape.layers - first - last;
    if (shared <= 0 || rest <= 0)
        return 0;
    return std::ceil(rest / (shared * v)) * v;
}

StageParameters stageParameters(const TransformerShape &shape, const ParallelConfig &c,
                                PipelineEnd end)
{
    const double t = c.tp, h = shape.hidden;
    const double layersPerStage = stageLayers(shape, c, end);
    // The routed experts count with the expert parameters; everything else in a layer (attention,
    // norms, the router, shared experts, an MoE model's dense-layer MLP) with the dense ones,
    // reduced over all data-parallel ranks.
    const double expertLayer = shape.routedExpertParametersPerLayer();
    const double denseLayer = shape.parametersPerLayer() - expertLayer;
    const double vocabulary = end == PipelineEnd::Middle ? 0.0 : shape.vocab * h;
    const double embedding = (c.pp == 1 ? shape.embeddingParameters() : vocabulary) / t;
    const double mtpBlocks = mtpBlocksOnStage(shape, c, end);
    const double mtpExpert = shape.mtpRoutedExpertParameters();
    const double mtpDense = shape.mtpBlockParameters() - mtpExpert;
    StageParameters parameters;
    parameters.dense = (denseLayer * layersPerStage + mtpDense * mtpBlocks) / t + embedding;
    parameters.expert
        = (expertLayer * layersPerStage + mtpExpert * mtpBlocks) / (expertTensorParallel(c) * c.ep);
    return parameters;
}

double gemmSeconds(const GpuSpec &gpu, Precision precision, double flops, double m, double n,
                   double k, double kernels)
{
    if (flops <= 0)
        return 0.0;
    const double efficiency = gemmEfficiency(gpu, precision, m, n, k);
    return flops / (gpu.peakFlopsPerSecond(precision) * efficiency)
        + kernels * gpu.kernelOverheadSeconds;
}

void MicrobatchLayerCosts::add(const LayerOperation &operation)
{
    if (count < capacity)
        operations[count++] = operation;
}

MicrobatchLayerCosts microbatchLayerCosts(const TrainingJob &job, const ClusterDescription &cluster,
                                          const ParallelConfig &config)
{
    MicrobatchLayerCosts costs;
    costs.shape = TransformerShape::fromModel(job.model);
    LayerCostBuilder(job, cluster, config, costs).build();
    return costs;
}

void estimateTrainingStep(const TrainingJob &job, const ClusterDescription &cluster,
                          const ParallelConfig &config, TrainingEstimate &result)
{
    estimateTrainingStep(job, cluster, config, microbatchLayerCosts(job, cluster, config), result);
}

void estimateTrainingStep(const TrainingJob &job, const ClusterDescription &cluster,
                          const ParallelConfig &config, const MicrobatchLayerCosts &costs,
                          TrainingEstimate &result)
{
    StepAssembler(job, cluster, config, costs).assemble(result);
    // What a collective hides behind compute still slows that compute down.
    for (int i = 0; i < result.operations.count; ++i) {
        StepOperation &op = result.operations.items[i];
        op.seconds += job.framework.overlapComputeSlowdown * op.hiddenSeconds;
    }
    StepBreakdown &b = result.breakdown;
    b = StepBreakdown {};
    for (const StepOperation &op : result.operations) {
        switch (op.kind) {
        case OperationKind::Gemm:
        case OperationKind::Attention:
            b.computeSeconds += op.seconds;
            break;
        case OperationKind::MemoryBound:
            b.memoryBoundSeconds += op.seconds;
            break;
        case OperationKind::TensorParallel:
            b.tpCommSeconds += op.seconds;
            break;
        case OperationKind::ContextParallel:
            b.cpCommSeconds += op.seconds;
            break;
        case OperationKind::ExpertParallel:
            b.epCommSeconds += op.seconds;
            break;
        case OperationKind::PipelineSend:
            b.ppCommSeconds += op.seconds;
            break;
        case OperationKind::PipelineBubble:
            b.bubbleSeconds += op.seconds;
            break;
        case OperationKind::DataParallel:
            b.dpCommExposedSeconds += op.seconds;
            break;
        case OperationKind::Optimizer:
            b.optimizerSeconds += op.seconds;
            break;
        case OperationKind::HostOffload:
            b.hostOffloadSeconds += op.seconds;
            break;
        }
    }
    result.stepSeconds = b.total();
}

} // namespace cp::model
