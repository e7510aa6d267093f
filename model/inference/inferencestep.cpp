// SPDX-License-Identifier: GPL-3.0-or-later
#include "model/inference/inferencestep.h"

#include "model/training/gemmefficiency.h"
#include "model/training/transformershape.h"

#include <algorithm>
#include <cmath>

namespace cp::model {

namespace {

constexpr double activationBytes = 2.0; ///< 16-bit hidden states
constexpr double logitBytes = 4.0; ///< fp32 logits for the sampler

/**
 * Rows a tensor-core MMA instruction computes at once: the m16n8k16 shape of the 16-bit mma.sync
 * (NVIDIA, PTX ISA, "Matrix shape" of mma, warp-level matrix multiply-accumulate). A GEMM of
 * fewer rows pays for this many.
 */
constexpr double mmaTileRows = 16.0;

class StageBuilder
{
public:
    StageBuilder(const ServingReplica &replica, double rows)
        : m_replica(replica)
        , m_gpu(replica.gpu)
        , m_rows(rows)
        , m_compute(computePrecision(replica.gpu, replica.weightPrecision))
        , m_hbm(replica.gpu.achievableMemoryBytesPerSecond())
        , m_weightStreaming(replica.gpu.weightStreamingBytesPerSecond())
        , m_layers(std::ceil(replica.shape.layers / replica.pipelineStages))
    { }

    /**
     * A weight GEMM of `rows` x n x k on the stage's layers. A grouped expert GEMM is as many
     * GEMMs as experts it reads, each of `groupRows` rows: its efficiency is that of one group,
     * times `rateShare` (the engine's expert kernels on this GPU, ServingReplica).
     */
    void addGemm(const char *name, double n, double k, double weightElements, double groupRows = 0,
                 double rateShare = 1.0)
    {
        const double flops = 2.0 * m_rows * n * k;
        const double efficiency
            = servingGemmEfficiency(m_gpu, m_replica.weightPrecision, m_compute,
                                    groupRows > 0 ? groupRows : m_rows, n, k, rateShare);
        const double computeSeconds = flops / (m_gpu.peakFlopsPerSecond(m_compute) * efficiency);
        // Its bytes at the rate a GEMM of few rows streams its weights, which is below an
        // element-wise kernel's (GpuSpec::gemmWeightStreamingFraction).
        const double bytes = weightElements * bytesPerElement(m_replica.weightPrecision)
            + m_rows * (k + n) * activationBytes;
        const double memorySeconds = bytes / m_weightStreaming;
        StepOperation op {name, OperationKind::Gemm};
        op.flops = m_layers * flops;
        op.bytes = m_layers * bytes;
        op.kernels = m_layers;
        op.seconds
            = m_layers * (std::max(computeSeconds, memorySeconds) + m_gpu.kernelOverheadSeconds);
        m_computeSeconds += m_layers * computeSeconds;
        m_memorySeconds += m_layers * memorySeconds;
        m_operations.add(op);
    }

    void addMemoryBound(const char *name, double bytesPerLayer, double kernelsPerLayer,
                        double flopsPerLayer = 0, double layers = -1)
    {
        const double count = layers < 0 ? m_layers : layers;
        StepOperation op {name, OperationKind::MemoryBound};
        op.flops = count * flopsPerLayer;
        op.bytes = count * bytesPerLayer;
        op.kernels = count * kernelsPerLayer;
        op.seconds = op.bytes / m_hbm + op.kernels * m_gpu.kernelOverheadSeconds;
        m_memorySeconds += op.bytes / m_hbm;
        m_operations.add(op);
    }

    /** A fused attention kernel per layer; `fixedSeconds` is its cost beyond its roofline (a
     * launch, or a decode kernel's measured fixed time); `memorySecondsPerLayer` its time to read
     * `bytesPerLayer` (at the achievable HBM bandwidth when negative). */
    void addAttention(const char *name, double flopsPerLayer, double bytesPerLayer,
                      double keysPerKernel, double fixedSeconds, double memorySecondsPerLayer = -1,
                      double layers = -1)
    {
        const double count = layers < 0 ? m_layers : layers;
        if (count <= 0)
            return;
        // Whichever limits the fused kernel: the K/V bytes at streaming bandwidth, or the score
        // FLOPs at the GPU's fused-attention share of the 16-bit peak.
        const Precision sixteen
            = m_gpu.supports(Precision::BF16) ? Precision::BF16 : Precision::FP16;
        const double efficiency = m_gpu.attentionPeakFraction * keysPerKernel
            / (keysPerKernel + m_gpu.gemmHalfPerformanceDim);
        const double computeSeconds
            = flopsPerLayer / (m_gpu.peakFlopsPerSecond(sixteen) * efficiency);
        const double memorySeconds
            = memorySecondsPerLayer >= 0 ? memorySecondsPerLayer : bytesPerLayer / m_hbm;
        StepOperation op {name, OperationKind::Attention};
        op.flops = count * flopsPerLayer;
        op.bytes = count * bytesPerLayer;
        op.kernels = count;
        op.seconds = count * (std::max(computeSeconds, memorySeconds) + fixedSeconds);
        m_computeSeconds += count * computeSeconds;
        m_memorySeconds += count * memorySeconds;
        m_operations.add(op);
    }

    void addTensorParallel()
    {
        if (m_replica.tensorParallel <= 1)
            return;
        // Two all-reduces of the hidden states per layer, after attention and after the MLP
        // (Shoeybi et al. 2019 §3). A layer whose attention and MLP run side by side sums the
        // two partial outputs first and all-reduces once: TensorRT-LLM's GPT-J and Falcon
        // decoder layers build both without a TP group and call allreduce on their sum
        // (tensorrt_llm/models/gptj/model.py and models/falcon/model.py, GPTJDecoderLayer and
        // FalconDecoderLayer.forward, https://github.com/NVIDIA/TensorRT-LLM).
        const double perLayer = m_replica.shape.parallelAttention ? 1.0 : 2.0;
        const double message = m_rows * m_replica.shape.hidden * activationBytes;
        StepOperation op {"TP all-reduces", OperationKind::TensorParallel};
        op.bytes = m_layers * perLayer * message;
        op.kernels = m_layers * perLayer;
        const int ranks = m_replica.tensorParallel;
        op.seconds = m_layers * perLayer
            * std::min(allReduceSeconds(message, ranks, m_replica.tensorParallelLink),
                       allReduceSeconds(message, ranks, m_replica.tensorParallelLowLatencyLink));
        m_operations.add(op);
    }

    void addStageSend()
    {
        if (m_replica.pipelineStages <= 1)
            return;
        const double bytes = m_rows * m_replica.shape.hidden * activationBytes;
        StepOperation op {"pipeline send to the next stage", OperationKind::PipelineSend};
        op.bytes = bytes;
        op.kernels = 1;
        op.seconds = pointToPointSeconds(bytes, m_replica.stageLink);
        m_operations.add(op);
    }

    void addQkv()
    {
        const TransformerShape &shape = m_replica.shape;
        const double t = m_replica.tensorParallel;
        addGemm("QKV projection", shape.qkvWidth() / t, shape.hidden,
                shape.hidden * shape.qkvWidth() / t);
    }

    void addOutputProjection()
    {
        const TransformerShape &shape = m_replica.shape;
        const double t = m_replica.tensorParallel;
        addGemm("attention output projection", shape.hidden, shape.valueWidth() / t,
                shape.valueWidth() * shape.hidden / t);
    }

    /** Names of a dense MLP's up GEMM, activation and down GEMM. */
    struct DenseMlpNames
    {
        const char *up;
        const char *activation;
        const char *down;
    };

    /** A dense MLP of `ffnSize` (split over TP) on the stage's layers. */
    void addDenseMlp(double ffnSize, const DenseMlpNames &names)
    {
        const double h = m_replica.shape.hidden;
        const bool gated = m_replica.shape.gatedMlp;
        const double ffn = ffnSize / m_replica.tensorParallel;
        const double up = (gated ? 2.0 : 1.0) * ffn;
        addGemm(names.up, up, h, h * up);
        addMemoryBound(names.activation, m_rows * (gated ? 3.0 : 2.0) * ffn * activationBytes, 1);
        addGemm(names.down, h, ffn, ffn * h);
    }

    /** The MLP, or for MoE the router and the `expertsRead` experts of each layer. */
    void addMlp(double expertsRead)
    {
        const TransformerShape &shape = m_replica.shape;
        const double t = m_replica.tensorParallel;
        const double h = shape.hidden;
        if (shape.experts <= 1) {
            addDenseMlp(shape.ffn,
                        {shape.gatedMlp ? "MLP up (gate and up)" : "MLP up",
                         shape.gatedMlp ? "SwiGLU activation" : "GeLU activation", "MLP down"});
            return;
        }
        const double ffn = shape.ffn / t;
        const double up = (shape.gatedMlp ? 2.0 : 1.0) * ffn;
        // An MoE model's dense layers (ModelSpec::denseLayers) run a dense MLP; the MoE block
        // runs on the rest of the stage's layers (the average layer, as for sliding windows).
        const double stageLayers = m_layers;
        if (shape.denseMlpLayerShare() > 0) {
            m_layers = stageLayers * shape.denseMlpLayerShare();
            addDenseMlp(shape.denseFfn,
                        {"dense-layer MLP up", "dense-layer activation", "dense-layer MLP down"});
        }
        m_layers = stageLayers * shape.moeLayerShare();
        // MoE: each row passes its top-k (and the shared) experts; the grouped GEMMs read the
        // weights of every expert the batch touches.
        addGemm("MoE router", shape.experts, h, h * shape.experts);
        // Routing and combine (TensorRT-LLM's MoE plugin, cpp/tensorrt_llm/kernels/
        // mixtureOfExperts/moe_kernels.cu: topkGatingSoftmax, the sort of the expert ids,
        // expandInputRowsKernel, finalizeMoeRoutingKernel): each row is copied to its k experts'
        // rows and their k outputs summed back, reading and writing rows x (1 + k) hidden states.
        addMemoryBound("MoE routing, permute and combine",
                       2.0 * m_rows * (1.0 + shape.topK) * h * activationBytes, 4);
        const double savedRows = m_rows;
        m_rows = savedRows * shape.expertsPerToken();
        const double perExpert = std::max(1.0, m_rows / expertsRead);
        const double rateShare = m_replica.expertGemmRateShare;
        addGemm("expert MLP up (grouped GEMM)", up, h, expertsRead * h * up, perExpert, rateShare);
        addMemoryBound("expert activation",
                       m_rows * (shape.gatedMlp ? 3.0 : 2.0) * ffn * activationBytes, 1);
        addGemm("expert MLP down (grouped GEMM)", h, ffn, expertsRead * ffn * h, perExpert,
                rateShare);
        m_rows = savedRows;
        m_layers = stageLayers;
    }

    /**
     * What a layer's attention runs before its attention kernel (ServingReplica's side
     * kernels): the rotary embedding reads the fresh Q, K and V and writes the rotated queries,
     * and the new tokens' keys and values go into the cache; the engine's set-up kernels move
     * next to nothing. Nothing when the engine's attention kernel does it itself.
     */
    void addAttentionSideKernels(int kernelsPerLayer)
    {
        if (kernelsPerLayer <= 0)
            return;
        const TransformerShape &shape = m_replica.shape;
        const double t = m_replica.tensorParallel;
        const double kvCacheBytes
            = cachedKvElementsPerToken(m_replica) * bytesPerElement(m_replica.kvPrecision);
        addMemoryBound(
            "rotary embedding and K/V cache write",
            m_rows * ((shape.qkvWidth() + shape.queryWidth()) / t * activationBytes + kvCacheBytes),
            kernelsPerLayer);
    }

    void addNormsAndResiduals()
    {
        const double h = m_replica.shape.hidden;
        addMemoryBound("layer norms and residual adds", 4.0 * 2.0 * m_rows * h * activationBytes,
                       4);
    }

    void addLogitsAndSampler(double sequences)
    {
        // The last stage projects to the vocabulary and samples once per sequence.
        const TransformerShape &shape = m_replica.shape;
        const double t = m_replica.tensorParallel;
        const double savedLayers = m_layers, savedRows = m_rows;
        m_layers = 1;
        m_rows = sequences;
        addGemm("output projection (logits)", shape.vocab / t, shape.hidden,
                shape.vocab * shape.hidden / t);
        addMemoryBound("sampler (softmax, top-p)", 2.0 * sequences * shape.vocab * logitBytes, 2, 0,
                       1);
        m_layers = savedLayers;
        m_rows = savedRows;
    }

    StepOperations &operations() { return m_operations; }
    double computeSeconds() const { return m_computeSeconds; }
    double memorySeconds() const { return m_memorySeconds; }
    double layers() const { return m_layers; }
    double rows() const { return m_rows; }

private:
    const ServingReplica &m_replica;
    const GpuSpec &m_gpu;
    double m_rows;
    Precision m_compute;
    double m_hbm; ///< what an element-wise kernel streams, bytes per second
    double m_weightStreaming; ///< what a GEMM of few rows streams its weights at
    double m_layers;
    double m_computeSeconds = 0, m_memorySeconds = 0;
    StepOperations m_operations;
};

/** Experts of one MoE layer that a batch of `tokens` touches: E·(1 - (1 - k/E)^tokens). */
double expertsTouched(const TransformerShape &shape, double tokens)
{
    if (shape.experts <= 1)
        return 1.0;
    return shape.routedExpertsTouched(tokens) + shape.sharedExperts;
}

} // namespace

Precision computePrecision(const GpuSpec &gpu, Precision weights)
{
    if (weights == Precision::INT4 || !gpu.supports(weights))
        return gpu.supports(Precision::BF16) ? Precision::BF16 : Precision::FP16;
    return weights;
}

double servingGemmEfficiency(const GpuSpec &gpu, Precision weights, Precision compute, double rows,
                             double n, double k, double rateShare)
{
    const bool mixedInput
        = bytesPerElement(weights) < bytesPerElement(computePrecision(gpu, weights));
    if (!mixedInput)
        return gemmEfficiency(gpu, compute, rows, n, k, rateShare);
    // Rows padded to the MMA tile, at the large-GEMM fraction for the weight matrix's size.
    const double weightSize = 2.0 / (1.0 / n + 1.0 / k);
    const double sizeEfficiency = rateShare * gpu.gemmPeakFractionFor(compute) * weightSize
        / (weightSize + rateShare * gpu.gemmHalfPerformanceDimFor(compute));
    return sizeEfficiency * std::min(1.0, rows / mmaTileRows);
}

StepOperations decodeStageOperations(const ServingReplica &replica, double tokens,
                                     const GenerationSpan &generation, double tokensPerSequence)
{
    StageBuilder stage(replica, tokens * tokensPerSequence);
    const TransformerShape &shape = replica.shape;
    stage.addNormsAndResiduals();
    stage.addQkv();
    stage.addAttentionSideKernels(replica.decodeAttentionSideKernels);
    // Decode attention: every sequence streams its whole K/V cache for each KV head its rank
    // holds (fewer KV heads than ranks: each rank keeps one; a latent cache, the latents) from
    // HBM, and the engine's kernel reads a head once per block serving the query heads of its
    // group (kvCacheReadSeconds).
    const double kvElementsPerToken = cachedKvElementsPerToken(replica);
    const double flopsPerKey = decodeAttentionFlopsPerKey(replica);
    // Paged batch-decode kernels stream the cache at the achievable bandwidth only once it is
    // large; a fixed time per kernel (GpuSpec::decodeAttentionFixedSeconds, measured) covers the
    // rest, in place of the launch cost when it is larger.
    const GpuSpec &gpu = replica.gpu;
    const double fixedSeconds
        = std::max(gpu.kernelOverheadSeconds, gpu.decodeAttentionFixedSeconds);
    // One kernel per layer over the `keys` tokens each sequence's new token attends: the whole
    // context on a full layer, at most the window or the chunk so far on a local one.
    auto addDecodeAttention = [&](const char *name, double keys, double layers) {
        const double kvBytes
            = tokens * keys * kvElementsPerToken * bytesPerElement(replica.kvPrecision);
        const double flops = tokens * tokensPerSequence * keys * flopsPerKey;
        stage.addAttention(name, flops, kvBytes, keys, fixedSeconds,
                           kvCacheReadSeconds(replica, kvBytes), layers);
    };
    // Its name says which kernel runs and when it re-reads heads: the bytes column counts HBM
    // only.
    const char *name = replica.maskedMultiheadKernel
        ? "decode attention (masked multi-head kernel, a block per query head)"
        : replica.kvReadsPerKvHead > 1.0
        ? "decode attention (reads the K/V cache; re-reads from L2)"
        : "decode attention (reads the K/V cache)";
    const double local = shape.localLayerShare();
    const LocalAttention &localAttention = shape.localAttention;
    addDecodeAttention(name, chunkKeysPerQuery(generation.inputTokens, generation.outputTokens, {}),
                       stage.layers() * (1.0 - local));
    if (local > 0)
        addDecodeAttention(
            localAttention.chunked ? "decode attention, chunked layers (the chunk's K/V only)"
                                   : "decode attention, windowed layers (the window's K/V only)",
            chunkKeysPerQuery(generation.inputTokens, generation.outputTokens, localAttention),
            stage.layers() * local);
    stage.addOutputProjection();
    stage.addMlp(expertsTouched(shape, tokens * tokensPerSequence));
    stage.addTensorParallel();
    stage.addLogitsAndSampler(tokens * tokensPerSequence);
    stage.addStageSend();
    return stage.operations();
}

StepOperations prefillStageOperations(const ServingReplica &replica, double prompts,
                                      double promptTokens, double priorTokens)
{
    const double rows = prompts * promptTokens;
    StageBuilder stage(replica, rows);
    const TransformerShape &shape = replica.shape;
    const double t = replica.tensorParallel;
    stage.addNormsAndResiduals();
    stage.addQkv();
    stage.addAttentionSideKernels(replica.prefillAttentionSideKernels);
    // Each prompt's queries attend causally: half the prompt on a full layer, at most the window
    // or the chunk so far on a local one (chunkKeysPerQuery), whose kernel's blocks are as short
    // as its span. A chunk after `priorTokens` cached tokens attends those it can see too and
    // reads their K/V; every prompt writes its own.
    const double kvBytesPerToken
        = cachedKvElementsPerToken(replica) * bytesPerElement(replica.kvPrecision);
    auto addPrefillAttention = [&](const char *name, const LocalAttention &local, double layers) {
        const double flops = 4.0 * rows * chunkKeysPerQuery(priorTokens, promptTokens, local)
            * shape.attentionWidth() / t;
        const double cachedRead = prompts * attendedTokens(priorTokens, local) * kvBytesPerToken;
        stage.addAttention(name, flops, rows * kvBytesPerToken + cachedRead,
                           cachedTokens(priorTokens + promptTokens, local),
                           replica.gpu.kernelOverheadSeconds, -1, layers);
    };
    const double local = shape.localLayerShare();
    addPrefillAttention("prefill attention (causal, fused)", {}, stage.layers() * (1.0 - local));
    if (local > 0)
        addPrefillAttention(shape.localAttention.chunked
                                ? "prefill attention, chunked layers (within each chunk)"
                                : "prefill attention, windowed layers (causal band)",
                            shape.localAttention, stage.layers() * local);
    stage.addOutputProjection();
    stage.addMlp(expertsTouched(shape, rows));
    stage.addTensorParallel();
    // Only each prompt's last position goes through the logits to sample its first token.
    stage.addLogitsAndSampler(prompts);
    stage.addStageSend();
    return stage.operations();
}

double kvCacheReadSeconds(const ServingReplica &replica, double hbmBytes)
{
    const GpuSpec &gpu = replica.gpu;
    const double hbmBytesPerSecond = gpu.achievableMemoryBytesPerSecond();
    const double l2BytesPerSecond
        = gpu.l2ReadBytesPerSecond > 0 ? gpu.l2ReadBytesPerSecond : hbmBytesPerSecond;
    double seconds = std::max(hbmBytes / hbmBytesPerSecond,
                              hbmBytes * replica.kvReadsPerKvHead / l2BytesPerSecond);
    if (replica.maskedMultiheadKernel && gpu.maskedAttentionElementsPerSecond > 0) {
        // Every query head's block takes each element of its K/V head: the rank's elements once
        // per query head it holds for each of its K/V heads.
        const double elements = hbmBytes / bytesPerElement(replica.kvPrecision);
        seconds = std::max(
            seconds, elements * replica.queryHeadsPerKvHead / gpu.maskedAttentionElementsPerSecond);
    }
    return seconds;
}

double cachedKvElementsPerToken(const ServingReplica &replica)
{
    const TransformerShape &shape = replica.shape;
    return shape.cachedKvElementsPerLayer(replica.latentKvCache)
        * shape.cachedKvShareOfRank(replica.latentKvCache, replica.tensorParallel);
}

double decodeAttentionFlopsPerKey(const ServingReplica &replica)
{
    const TransformerShape &shape = replica.shape;
    const double headsPerRank = shape.heads / replica.tensorParallel;
    if (shape.latentAttention() && replica.latentKvCache)
        return 2.0 * headsPerRank * (2.0 * shape.kvLoraRank + shape.ropeHeadDim);
    return 4.0 * shape.attentionWidth() / replica.tensorParallel;
}

double totalSeconds(const StepOperations &operations)
{
    double seconds = 0;
    for (const StepOperation &op : operations)
        seconds += op.seconds;
    return seconds;
}

} // namespace cp::model
