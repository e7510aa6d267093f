// SPDX-License-Identifier: GPL-3.0-or-later
#include "model/inference/inferenceestimator.h"

#include "model/cluster/collectivecost.h"
#include "model/core/humantext.h"
#include "model/core/units.h"
#include "model/inference/inferencestep.h"
#include "model/inference/offlinejob.h"
#include "model/inference/servingfloor.h"
#include "model/training/transformershape.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>
#include <string_view>
#include <utility>

namespace cp::model {

namespace {

/**
 * A replica that cannot hold the workload (its weights, its batch's K/V cache or its layout),
 * or a rate no batch serves within the targets: no fleet, power or cost. The replica's prefill
 * and decode times stay, as what its operations take, but no cost per token is credited to a
 * fleet that cannot serve the load as asked.
 */
void withdrawFleet(InferenceEstimate &e)
{
    e.replicas = 0;
    e.utilisation = 0;
    e.inFlightSequences = 0;
    e.powerWatts = 0;
    e.usdPerHour = 0;
    e.servers = 0;
    e.wholeServersUsdPerHour = 0;
    e.costPerMillionOutputTokensUsd = 0;
    e.costPerMillionInputTokensUsd = 0;
    e.costPerRequestUsd = 0;
    e.prefillCostShare = 0;
    e.offlineJob.reset();
    e.capacityWithinLimits.reset();
}

/** Compute precision for a weight format: weight-only INT4 kernels (AWQ/GPTQ) dequantise to FP16.
 */
double computePeak(const GpuSpec &gpu, Precision weights)
{
    if (weights == Precision::INT4 && !gpu.supports(Precision::INT4))
        weights = Precision::FP16;
    if ((weights == Precision::FP8 || weights == Precision::INT8) && !gpu.supports(weights))
        weights = Precision::FP16;
    double peak = gpu.peakFlopsPerSecond(weights);
    if (peak <= 0)
        peak = std::max(gpu.peakFlopsPerSecond(Precision::FP16),
                        gpu.peakFlopsPerSecond(Precision::BF16));
    return peak;
}

} // namespace

std::string ttftTailText(const InferenceEstimate &e)
{
    if (!(e.utilisation > 0) || !(e.ttftP99Seconds > 2.0 * e.ttftSeconds))
        return {};
    return "the p99 request waits for a free slot at its replica: requests are routed to "
           "replicas at random, each queueing its own (a router that picks the least-loaded "
           "replica waits less)";
}

double erlangCWaitQuantileSeconds(double arrivalsPerSecond, double slotServiceRate, int slots,
                                  double quantile)
{
    const double offered = arrivalsPerSecond / slotServiceRate; // a = lambda / mu, in Erlangs
    const double rho = offered / slots;
    if (rho >= 1.0)
        return std::numeric_limits<double>::infinity();
    // Erlang B by the stable recursion B(k) = a·B(k-1) / (k + a·B(k-1)), then Erlang C.
    double erlangB = 1.0;
    for (int k = 1; k <= slots; ++k)
        erlangB = offered * erlangB / (k + offered * erlangB);
    const double probabilityOfWaiting = erlangB / (1.0 - rho * (1.0 - erlangB));
    const double tail = 1.0 - quantile;
    if (probabilityOfWaiting <= tail)
        return 0.0;
    // P(W > t) = C · exp(-(c·mu - lambda)·t) = 1 - q
    return std::log(probabilityOfWaiting / tail) / (slots * slotServiceRate - arrivalsPerSecond);
}

double erlangCWaitP95Seconds(double arrivalsPerSecond, double slotServiceRate, int slots)
{
    return erlangCWaitQuantileSeconds(arrivalsPerSecond, slotServiceRate, slots, 0.95);
}

bool occupancyFitsSlots(double inFlightSequences, int slots, double probability)
{
    return poissonQuantile(inFlightSequences, probability) < slots;
}

int poissonQuantile(double mean, double probability)
{
    if (!(mean > 0))
        return 0;
    // Sum the probabilities in log space from well below the mean, where the lower tail holds
    // less than 1e-30 (twelve standard deviations), so that no term underflows.
    const double spread = std::sqrt(mean);
    const long long first = std::max(0LL, static_cast<long long>(mean - 12.0 * spread - 10.0));
    const long long last = static_cast<long long>(mean + 12.0 * spread + 10.0);
    double cumulative = 0;
    for (long long k = first; k <= last; ++k) {
        const double kd = static_cast<double>(k);
        cumulative += std::exp(kd * std::log(mean) - mean - std::lgamma(kd + 1.0));
        if (cumulative >= probability)
            return static_cast<int>(std::min<long long>(k, std::numeric_limits<int>::max()));
    }
    return static_cast<int>(std::min<long long>(last, std::numeric_limits<int>::max()));
}

double ServingCostModel::usdPerGpuHour() const
{
    if (hourlyUsdPerGpu)
        return *hourlyUsdPerGpu;
    const double capital = capitalUsdPerGpu / (lifetimeYears * units::hoursPerYear);
    const double energy = wattsPerGpu / units::kilo * pue * electricityUsdPerKwh;
    return capital + energy;
}

InferenceEstimator::InferenceEstimator(const InferenceJob &job, const ClusterDescription &hardware,
                                       const ServingCostModel &cost)
    : m_job(job)
    , m_hw(hardware)
    , m_cost(cost)
{ }

int InferenceEstimator::pipelineStages() const
{
    if (m_job.pipelineStages)
        return std::max(1, *m_job.pipelineStages);
    const int domain = std::max(1, m_hw.scaleUpDomainGpus);
    if (m_job.gpusPerReplica <= domain || m_job.gpusPerReplica % domain != 0)
        return 1;
    return m_job.gpusPerReplica / domain;
}

int InferenceEstimator::tensorParallel() const
{
    return std::max(1, m_job.gpusPerReplica / pipelineStages());
}

std::string InferenceEstimator::layoutProblem() const
{
    const int stages = pipelineStages();
    const int layers = m_job.model.layers;
    if (m_job.gpusPerReplica % stages != 0)
        return std::to_string(stages) + " pipeline stages do not divide "
            + countOf(m_job.gpusPerReplica, "GPU per replica", "GPUs per replica");
    if (stages > layers)
        return std::to_string(stages) + " pipeline stages exceed the model's "
            + std::to_string(layers) + " layers";
    if (tensorParallel() > m_hw.scaleUpDomainGpus)
        return std::to_string(tensorParallel()) + " tensor-parallel GPUs per stage exceed the "
            + std::to_string(m_hw.scaleUpDomainGpus) + "-GPU scale-up domain of " + m_hw.gpu.name
            + (stages == 1 && m_job.gpusPerReplica % std::max(1, m_hw.scaleUpDomainGpus) != 0
                   ? " (for pipeline stages across nodes use a multiple of "
                       + std::to_string(m_hw.scaleUpDomainGpus) + " GPUs)"
                   : "");
    // Engines split attention heads evenly over the tensor-parallel ranks and K/V heads too, or
    // give each rank a copy of one when there are fewer (vLLM's and TensorRT-LLM's checks).
    const int tp = tensorParallel();
    const int heads = m_job.model.heads;
    const int kvHeads = m_job.model.kvHeads > 0 ? m_job.model.kvHeads : heads;
    if (heads > 0 && heads % tp != 0)
        return "tensor parallelism of " + std::to_string(tp) + " does not divide the model's "
            + std::to_string(heads) + " attention heads";
    if (kvHeads > 0 && kvHeads % tp != 0 && tp % kvHeads != 0)
        return "tensor parallelism of " + std::to_string(tp) + " neither divides the model's "
            + std::to_string(kvHeads) + " K/V heads nor is a multiple of them";
    return {};
}

std::string InferenceEstimator::contextProblem() const
{
    // An engine refuses a request longer than the model's context (vLLM's max_model_len is the
    // model's by default; a longer one is an error unless the user overrides it).
    const long long request = 1LL * m_job.inputTokens + m_job.outputTokens;
    if (m_job.model.maxSeqLen <= 0 || request <= m_job.model.maxSeqLen)
        return {};
    return "a request of " + groupedCount(request) + " tokens (" + groupedCount(m_job.inputTokens)
        + " in, " + groupedCount(m_job.outputTokens) + " out) is longer than "
        + (m_job.model.name.empty() ? std::string("the model") : m_job.model.name)
        + "'s context of " + groupedCount(m_job.model.maxSeqLen) + " tokens";
}

int InferenceEstimator::memoryBatchLimit() const
{
    const InferenceEstimate one = estimateAtBatch(1);
    if (!one.fits)
        return 0;
    const double free = one.memoryCapacityBytes - one.weightsBytesPerGpu - one.workspaceBytesPerGpu
        - engineReserveBytes(one.weightsBytesPerGpu, one.workspaceBytesPerGpu);
    const double perSequence = one.kvBytesPerGpu; // batch 1
    return static_cast<int>(std::floor(free / perSequence));
}

bool InferenceEstimator::chunksPrefill() const
{
    if (m_job.model.latentAttention() && m_job.engine.latentKvCache
        && !m_job.engine.chunksLatentAttention)
        return false;
    const long long request = 1LL * m_job.inputTokens + m_job.outputTokens;
    return model::chunksPrefill(m_job.engine, std::max<long long>(m_job.model.maxSeqLen, request));
}

int InferenceEstimator::engineBatchLimit() const
{
    const int cap = m_job.maxBatch.value_or(m_job.engine.defaultMaxBatch);
    return cap >= InferenceJob::noBatchCap ? 0 : cap;
}

InferenceEstimator::BatchLimits InferenceEstimator::batchLimits() const
{
    BatchLimits limits;
    limits.memory = memoryBatchLimit();
    limits.engine = engineBatchLimit();
    limits.largest = limits.engine > 0 ? std::min(limits.memory, limits.engine) : limits.memory;
    return limits;
}

int InferenceEstimator::maxBatch() const
{
    return batchLimits().largest;
}

void InferenceEstimator::BatchLimits::applyTo(InferenceEstimate &e) const
{
    e.maxBatch = largest;
    e.memoryBatchLimit = memory;
    e.engineBatchLimit = engine;
}

/** What every stage of estimateAtBatch reads: the shapes, the layout and the batch. */
struct InferenceEstimator::BatchSetup
{
    TransformerShape shape;
    bool draft = false; ///< speculative decoding with a draft model beside the target
    TransformerShape draftShape;
    double tensorParallel = 1, stages = 1;
    double batch = 1; ///< sequences per replica
    double microBatch = 1; ///< sequences per micro-batch in flight (batch / stages)
    double inputTokens = 0, outputTokens = 0;
    GenerationSpan generation() const { return {inputTokens, outputTokens}; }
    double kvShare = 1; ///< this GPU's share of a token's K/V (its KV heads, its stage)
    double draftKvShare = 1; ///< the same for the draft model's K/V
    double hbmBytesPerSecond = 0; ///< achievable by an element-wise kernel
    double weightStreamingBytesPerSecond = 0; ///< achievable by a GEMM streaming its weights
    ServingReplica replica;
    ServingFloor floor; ///< what no engine beats on the target's TP group
};

InferenceEstimator::BatchSetup InferenceEstimator::batchSetup(int batch) const
{
    BatchSetup s;
    s.shape = TransformerShape::fromModel(m_job.model);
    s.draft = m_job.speculative.enabled && m_job.draftModel.has_value();
    if (s.draft)
        s.draftShape = TransformerShape::fromModel(*m_job.draftModel);
    const GpuSpec &gpu = m_hw.gpu;
    const int tp = tensorParallel();
    const int stages = pipelineStages();
    s.tensorParallel = tp;
    s.stages = stages;
    s.batch = batch;
    s.microBatch = s.batch / s.stages;
    s.floor = servingFloorOf(s.shape, gpu, m_job.weightPrecision, tp);
    s.inputTokens = m_job.inputTokens;
    s.outputTokens = m_job.outputTokens;
    // KV heads are split over TP ranks; with fewer KV heads than ranks each rank keeps a copy of
    // one. A latent cache is the whole latent on every rank. A stage keeps the cache of its own
    // layers. The draft model's cache splits by its own heads.
    const auto kvShareOf = [&](const TransformerShape &shape) {
        return shape.cachedKvShareOfRank(latentCache(shape), tp) / stages;
    };
    s.kvShare = kvShareOf(s.shape);
    if (s.draft)
        s.draftKvShare = kvShareOf(s.draftShape);
    s.hbmBytesPerSecond = gpu.achievableMemoryBytesPerSecond();
    s.weightStreamingBytesPerSecond = gpu.weightStreamingBytesPerSecond();
    ServingReplica &replica = s.replica;
    replica.shape = s.shape;
    replica.gpu = gpu;
    replica.weightPrecision = m_job.weightPrecision;
    replica.kvPrecision = m_job.kvPrecision;
    replica.tensorParallel = tp;
    replica.pipelineStages = stages;
    replica.latentKvCache = latentCache(s.shape);
    // Inside the scale-up domain NCCL's tuner picks per message between its Simple and LL
    // protocols (src/graph/tuning.cc): decode's all-reduces of a few hidden vectors take LL's
    // shorter latency, at LL's bandwidth once the batch makes them megabytes.
    const bool insideScaleUp = tp <= m_hw.scaleUpDomainGpus;
    replica.tensorParallelLink = insideScaleUp ? m_hw.scaleUpLink() : m_hw.scaleOutLink(2);
    replica.tensorParallelLowLatencyLink
        = insideScaleUp ? m_hw.scaleUpLowLatencyLink() : replica.tensorParallelLink;
    setDecodeKernel(replica);
    // The rotary embedding and the K/V cache write beside the attention kernel, unless the
    // engine's masked multi-head kernel does them itself (ServingEngine).
    replica.prefillAttentionSideKernels = m_job.engine.prefillAttentionSideKernels;
    replica.decodeAttentionSideKernels
        = replica.maskedMultiheadKernel && m_job.engine.maskedKernelAppliesRope
        ? 0
        : m_job.engine.decodeAttentionSideKernels;
    replica.expertGemmRateShare = m_job.engine.moeGemmLegacyKernels
        ? gpu.legacyKernelAsymptoticShare(computePrecision(gpu, m_job.weightPrecision))
        : 1.0;
    // Stages hand 16-bit hidden states to the next node over the scale-out network.
    replica.stageLink = stages > 1 ? m_hw.scaleOutLink(2) : LinkLevel {};
    return s;
}

/**
 * The engine's decode-attention kernel for `replica`'s model, as it sees a rank's own heads: its
 * query heads on its K/V heads (one, kept on every rank, when there are fewer K/V heads than
 * ranks).
 */
void InferenceEstimator::setDecodeKernel(ServingReplica &replica) const
{
    const double t = replica.tensorParallel;
    if (replica.latentKvCache && replica.shape.latentAttention()) {
        // A latent-attention kernel (FlashMLA, FlashInfer's MLA decode) serves all of a rank's
        // query heads from one read of each token's latent.
        replica.queryHeadsPerKvHead = replica.shape.heads / t;
        replica.kvReadsPerKvHead = 1.0;
        replica.maskedMultiheadKernel = false;
        return;
    }
    replica.queryHeadsPerKvHead
        = (replica.shape.heads / t) / std::max(1.0, replica.shape.kvHeads / t);
    const int groupSize = static_cast<int>(std::lround(replica.queryHeadsPerKvHead));
    const int headDim = static_cast<int>(std::lround(replica.shape.headDim));
    replica.kvReadsPerKvHead
        = kvReadsPerKvHead(m_job.engine, groupSize, headDim, m_job.kvPrecision == Precision::INT8);
    replica.maskedMultiheadKernel = runsMaskedMultiheadKernel(m_job.engine, groupSize, headDim);
}

bool InferenceEstimator::latentCache(const TransformerShape &shape) const
{
    return shape.latentAttention() && m_job.engine.latentKvCache;
}

double InferenceEstimator::kvBytesPerToken(const TransformerShape &shape) const
{
    // Every layer's K and V heads, or its latent where the engine caches latents
    // (ServingEngine::latentKvCache).
    return shape.layers * shape.cachedKvElementsPerLayer(latentCache(shape))
        * bytesPerElement(m_job.kvPrecision);
}

double InferenceEstimator::kvBytesReadPerSequenceOnGpu(const BatchSetup &s) const
{
    // A decode step reads the K/V its token attends: decodeAttendedKeys averages the layers.
    double bytes = kvBytesPerToken(s.shape)
        * s.shape.decodeAttendedKeys(s.inputTokens, s.outputTokens) * s.kvShare;
    if (s.draft)
        bytes += kvBytesPerToken(s.draftShape)
            * s.draftShape.decodeAttendedKeys(s.inputTokens, s.outputTokens) * s.draftKvShare;
    return bytes;
}

double InferenceEstimator::kvBytesPerSequence(const BatchSetup &s, double context,
                                              KvScope scope) const
{
    // A local layer keeps only its window's or its chunk's K/V (TensorRT-LLM's cyclic KV cache,
    // vLLM's sliding-window and chunked-local-attention KV managers), up to the span at a
    // chunk's end; attendedContext averages the layers' cached tokens. On one GPU, each model's
    // cache counts its own share.
    const bool oneGpu = scope == KvScope::OneGpu;
    double bytes
        = kvBytesPerToken(s.shape) * s.shape.attendedContext(context) * (oneGpu ? s.kvShare : 1.0);
    if (s.draft)
        bytes += kvBytesPerToken(s.draftShape) * s.draftShape.attendedContext(context)
            * (oneGpu ? s.draftKvShare : 1.0);
    return bytes;
}

void InferenceEstimator::estimateMemory(InferenceEstimate &e, const BatchSetup &s) const
{
    const GpuSpec &gpu = m_hw.gpu;
    const double t = s.tensorParallel, p = s.stages;
    e.weightsBytesPerGpu
        = s.shape.totalParameters() * bytesPerElement(m_job.weightPrecision) / (t * p);
    if (s.draft) // the draft model lives beside the target on the same GPUs
        e.weightsBytesPerGpu
            += s.draftShape.totalParameters() * bytesPerElement(m_job.weightPrecision) / (t * p);
    // KV cache: layers x 2 (K and V) x KV heads x head dim x bytes, per token.
    e.kvBytesPerToken = kvBytesPerToken(s.shape);
    if (s.draft)
        e.kvBytesPerToken += kvBytesPerToken(s.draftShape);
    const double context = s.inputTokens + s.outputTokens;
    e.kvBytesPerSequence = kvBytesPerSequence(s, context, KvScope::WholeModel);
    e.kvBytesPerGpu = s.batch * kvBytesPerSequence(s, context, KvScope::OneGpu);
    // Prefill workspace for the tokens one step processes: hidden states, QKV and the MLP
    // intermediate, 16-bit. A chunking engine never runs more than its step's token budget
    // (vLLM sizes its activation memory by profiling a step of max_num_batched_tokens), so a
    // long prompt needs a chunk's workspace, not its own. The MLP intermediate is the widest a
    // layer has: a token's experts (routed and shared), or an MoE model's dense-layer MLP.
    const double mlpWidth = std::max(s.shape.ffn * s.shape.expertsPerToken(),
                                     s.shape.denseMlpLayerShare() > 0 ? s.shape.denseFfn : 0.0);
    const double stepTokens = chunksPrefill()
        ? std::min(s.inputTokens, static_cast<double>(m_job.engine.tokensPerStep))
        : s.inputTokens;
    e.workspaceBytesPerGpu = stepTokens * (4.0 * s.shape.hidden + 2.0 * mlpWidth) * 2.0 / t;
    e.reserveBytesPerGpu = engineReserveBytes(e.weightsBytesPerGpu, e.workspaceBytesPerGpu);
    e.memoryBytesPerGpu
        = e.weightsBytesPerGpu + e.kvBytesPerGpu + e.workspaceBytesPerGpu + e.reserveBytesPerGpu;
    e.fits = e.memoryBytesPerGpu <= gpu.memoryBytes;
    if (!e.fits)
        e.reason = "needs " + formatNumber("%.1f", e.memoryBytesPerGpu / units::gibi)
            + " GiB per GPU (weights " + formatNumber("%.1f", e.weightsBytesPerGpu / units::gibi)
            + ", KV cache " + formatNumber("%.1f", e.kvBytesPerGpu / units::gibi) + " GiB) but "
            + gpu.name + " has " + formatNumber("%.1f", gpu.memoryBytes / units::gibi) + " GiB";
}

double InferenceEstimator::estimateDecode(InferenceEstimate &e, const BatchSetup &s) const
{
    const GpuSpec &gpu = m_hw.gpu;
    const TransformerShape &shape = s.shape;
    const double t = s.tensorParallel, p = s.stages, b = s.microBatch;
    e.decodeOperations = decodeStageOperations(s.replica, std::max(1.0, b), s.generation());
    // The roofline terms, for the explanation: all bytes read and all FLOPs of one step. The
    // weights a micro-batch touches (ServingFloor: not the input embedding's rows it does not
    // gather, not the experts none of its tokens routes to), and a speculative draft's beside.
    const double targetWeightBytes
        = shape.totalParameters() * bytesPerElement(m_job.weightPrecision) / (t * p);
    const double weightBytesRead
        = s.floor.weightBytesRead(b) / p + (e.weightsBytesPerGpu - targetWeightBytes);
    const double kvRead = b * kvBytesReadPerSequenceOnGpu(s);
    e.decodeKvStreamSeconds = p * kvRead / s.hbmBytesPerSecond;
    e.decodeKvKernelSeconds = p * kvCacheReadSeconds(s.replica, kvRead);
    e.decodeMaskedMultiheadKernel = s.replica.maskedMultiheadKernel;
    e.decodeMemorySeconds
        = p * weightBytesRead / s.weightStreamingBytesPerSecond + e.decodeKvKernelSeconds;
    // Embedding lookups cost no FLOPs; the output projection is counted as logit FLOPs. The
    // weight GEMMs' FLOPs at the efficiency of M = the micro-batch; the decode attention's at
    // the GPU's fused-attention rate: a long context's score FLOPs are no matrix-vector
    // product, and at M = 1 the GEMMs' efficiency would call a batch-1 decode compute-bound.
    const double linearFlopsPerToken
        = 2.0 * (shape.activeParameters() - shape.embeddingParameters() - shape.hidden);
    const double gemmFlops = b * (linearFlopsPerToken + shape.logitFlopsPerToken()) / (t * p);
    const double attentionFlops = b * shape.layers
        * shape.decodeAttendedKeys(s.inputTokens, s.outputTokens)
        * decodeAttentionFlopsPerKey(s.replica) / p;
    const Precision sixteenBit = gpu.supports(Precision::BF16) ? Precision::BF16 : Precision::FP16;
    const double gemmFraction = servingGemmEfficiency(
        gpu, m_job.weightPrecision, Precision::BF16, std::max(1.0, b), shape.hidden, shape.ffn / t);
    // The GEMMs alone, at their size's efficiency and at the large-GEMM rate of the same curve
    // (servingGemmEfficiency's), beside their weights streamed from HBM: decodeGemmsTooSmall.
    const double peak = computePeak(gpu, m_job.weightPrecision);
    e.decodeGemmSeconds = p * gemmFlops / (peak * gemmFraction);
    e.decodeGemmTensorSeconds = p * gemmFlops / (peak * gpu.gemmPeakFractionFor(Precision::BF16));
    e.decodeWeightStreamSeconds = p * weightBytesRead / s.weightStreamingBytesPerSecond;
    e.decodeComputeSeconds = e.decodeGemmSeconds
        + p * attentionFlops / (gpu.peakFlopsPerSecond(sixteenBit) * gpu.attentionPeakFraction);
    e.decodeCommSeconds = 0;
    for (const StepOperation &op : e.decodeOperations) {
        if (op.kind == OperationKind::TensorParallel || op.kind == OperationKind::PipelineSend)
            e.decodeCommSeconds += p * op.seconds;
    }
    // Each operation is the slower of its bytes and its FLOPs plus its kernel cost, so the step
    // is at least the roofline of the whole and at most the sum of both.
    e.decodeStepSeconds = p * totalSeconds(e.decodeOperations);
    if (m_job.speculative.enabled)
        estimateSpeculativeDecode(e, s);
    return weightBytesRead + kvRead;
}

void InferenceEstimator::estimateSpeculativeDecode(InferenceEstimate &e, const BatchSetup &s) const
{
    // A round: gamma draft steps (none for n-gram drafting), then one target step that verifies
    // gamma + 1 tokens per sequence and yields E of them on average.
    const double b = std::max(1.0, s.microBatch), p = s.stages;
    const int gamma = m_job.speculative.draftTokens;
    e.decodeOperations = decodeStageOperations(s.replica, b, s.generation(), gamma + 1.0);
    e.decodeStepSeconds = p * totalSeconds(e.decodeOperations);
    if (s.draft) {
        ServingReplica drafter = s.replica;
        drafter.shape = s.draftShape;
        setDecodeKernel(drafter); // the draft's own heads pick its kernel
        e.draftSeconds
            = gamma * p * totalSeconds(decodeStageOperations(drafter, b, s.generation()));
    }
    e.tokensPerDecodeStep = expectedTokensPerVerifyStep(m_job.speculative.acceptanceRate, gamma);
}

namespace {

/** `operations` with every figure `times` as large. */
StepOperations repeated(StepOperations operations, double times)
{
    for (int i = 0; i < operations.count; ++i) {
        StepOperation &operation = operations.items[i];
        operation.flops *= times;
        operation.bytes *= times;
        operation.kernels *= times;
        operation.seconds *= times;
        operation.hiddenSeconds *= times;
    }
    return operations;
}

/** `more` added to `operations`, operation by operation (matched by name). */
void addOperations(StepOperations &operations, const StepOperations &more)
{
    for (const StepOperation &extra : more) {
        StepOperation *same = nullptr;
        for (int i = 0; i < operations.count && !same; ++i)
            if (std::string_view(operations.items[i].name) == extra.name)
                same = &operations.items[i];
        if (!same) {
            operations.add(extra);
            continue;
        }
        same->flops += extra.flops;
        same->bytes += extra.bytes;
        same->kernels += extra.kernels;
        same->seconds += extra.seconds;
        same->hiddenSeconds += extra.hiddenSeconds;
    }
}

} // namespace

void InferenceEstimator::estimateChunkedPrefill(InferenceEstimate &e, const BatchSetup &s) const
{
    // Sarathi-Serve / vLLM chunked prefill (Agrawal et al., "Taming Throughput-Latency Tradeoff
    // in LLM Inference with Sarathi-Serve", OSDI 2024): each step carries the running decodes
    // and a chunk of the prompt filling the rest of the step's token budget, so the prompt
    // takes ceil(I / chunk) steps, each as long as a decode step plus its chunk's prefill. A
    // chunk's queries attend the chunks before it too: the full chunks priced at their mean
    // prior context, (full - 1) / 2 chunks, and the last, shorter one after all of them, so a
    // 513-token prompt costs a 512-token chunk and a 1-token one, not two of 512.
    const double B = s.batch, I = s.inputTokens, p = s.stages;
    const double chunk = std::min(
        I, std::max(1.0, m_job.engine.tokensPerStep - std::max(0.0, s.microBatch - 1.0)));
    const double fullChunks = std::floor(I / chunk);
    const double lastChunk = I - fullChunks * chunk;
    StepOperations work = repeated(
        prefillStageOperations(s.replica, 1, chunk, (fullChunks - 1) * chunk / 2.0), fullChunks);
    if (lastChunk > 0)
        addOperations(work, prefillStageOperations(s.replica, 1, lastChunk, fullChunks * chunk));
    e.prefillChunks = static_cast<long long>(fullChunks) + (lastChunk > 0 ? 1 : 0);
    e.prefillChunkTokens = static_cast<long long>(chunk);
    e.prefillOperations = work;
    // At batch 1 nothing else runs; otherwise each of the prompt's steps runs the decodes too.
    e.prefillDecodeSeconds = B > 1 ? e.prefillChunks * e.decodeStepSeconds : 0.0;
    e.prefillSeconds = p * totalSeconds(work) + e.prefillDecodeSeconds;
    // The batch's prompts cost the replica their chunks' work, not one batched prefill: the
    // capacity, the load's prefill share and the cost split count what the TTFT counts.
    e.batchedPrefillSeconds = B * p * totalSeconds(work);
}

void InferenceEstimator::addDraftPrefill(InferenceEstimate &e, const BatchSetup &s) const
{
    // Draft-target speculative decoding runs the draft over the prompt too, to fill the draft's
    // own K/V cache before it proposes (Leviathan et al., "Fast Inference from Transformers via
    // Speculative Decoding", ICML 2023, section 3: both models see the prefix): the TTFT and the
    // replica's prefill work carry the draft's prefill, one row of the prefill's operations.
    if (!s.draft)
        return;
    ServingReplica drafter = s.replica;
    drafter.shape = s.draftShape;
    StepOperation draft {"draft model's prefill", OperationKind::Gemm};
    for (const StepOperation &operation : prefillStageOperations(drafter, 1, s.inputTokens)) {
        draft.flops += operation.flops;
        draft.bytes += operation.bytes;
        draft.kernels += operation.kernels;
        draft.seconds += operation.seconds;
    }
    e.prefillOperations.add(draft);
    e.draftPrefillSeconds = s.stages * draft.seconds;
    e.prefillSeconds += e.draftPrefillSeconds;
    e.batchedPrefillSeconds
        += s.stages * totalSeconds(prefillStageOperations(drafter, s.batch, s.inputTokens));
}

void InferenceEstimator::estimateServing(InferenceEstimate &e, const BatchSetup &s) const
{
    const double B = s.batch, O = s.outputTokens, p = s.stages;
    // Over the O tokens in which a batch turns over, its B prompts are prefilled: as one batch,
    // or chunk by chunk on an engine that chunks them (estimateChunkedPrefill).
    const double decodeRounds = O / e.tokensPerDecodeStep;
    const double cycle
        = decodeRounds * (e.decodeStepSeconds + e.draftSeconds) + e.batchedPrefillSeconds;
    e.requestsPerSecondPerReplica = B / cycle;
    e.outputTokensPerSecondPerReplica = e.requestsPerSecondPerReplica * O;
    e.outputTokensPerSecondPerGpu = e.outputTokensPerSecondPerReplica / (s.tensorParallel * p);
    // A sequence's own prompt is prefilled before its first token (TTFT); while it generates,
    // the batch's other B - 1 prompts are, and their share of the batched prefill stretches its
    // O tokens. (At batch 1 nothing else runs: its tokens come a decode step apart.)
    e.tpotSeconds = (cycle - e.batchedPrefillSeconds / B) / O;
    e.ttftSeconds = e.prefillSeconds;
    e.ttftP50Seconds = e.prefillSeconds; // no queue without a request rate
    e.ttftP99Seconds = e.prefillSeconds;
    e.endToEndSeconds = e.ttftSeconds + O * e.tpotSeconds;
    e.replicas = 1;
}

void InferenceEstimator::explainBottleneck(InferenceEstimate &e, const std::string &layout,
                                           double decodeBytesRead, int batch) const
{
    if (!layout.empty()) {
        e.bottleneck = "layout";
        e.bottleneckExplanation = e.reason;
    } else if (!e.fits) {
        e.bottleneck = "memory-capacity";
        e.bottleneckExplanation = "does not fit: " + e.reason;
    } else if (e.decodeCommSeconds > 0.3 * e.decodeStepSeconds) {
        e.bottleneck = "interconnect";
        e.bottleneckExplanation = std::string(e.pipelineStages > 1 ? "stage sends and " : "")
            + "tensor-parallel all-reduces take "
            + formatNumber("%.0f%%", 100 * e.decodeCommSeconds / e.decodeStepSeconds)
            + " of each decode step";
    } else if (e.decodeMemorySeconds >= e.decodeComputeSeconds) {
        const GpuSpec &gpu = m_hw.gpu;
        e.bottleneck = "memory-bandwidth";
        e.bottleneckExplanation = "decode is memory-bound: each step reads "
            + formatNumber("%.1f", decodeBytesRead / units::giga)
            + " GB per GPU (weights and KV cache)";
        const double weightRate = gpu.weightStreamingBytesPerSecond();
        const double streamRate = gpu.achievableMemoryBytesPerSecond();
        // "Up to": the GPU's streaming rates, which each kernel's fixed cost and the attention
        // kernel's reads lower in the operation table (5.32 GB of K/V in 2.98 ms, not 1.78 ms).
        if (weightRate == streamRate)
            e.bottleneckExplanation += " at up to "
                + groupThousands(formatNumber("%.0f", streamRate / units::giga)) + " GB/s";
        else
            e.bottleneckExplanation += ": its GEMMs stream the weights at up to "
                + groupThousands(formatNumber("%.0f", weightRate / units::giga))
                + " GB/s, the K/V cache at up to "
                + groupThousands(formatNumber("%.0f", streamRate / units::giga)) + " GB/s";
        // Where the engine's attention kernel, not HBM, sets the K/V cache's time, say so.
        if (e.decodeKvKernelSeconds > 1.1 * e.decodeKvStreamSeconds)
            e.bottleneckExplanation += std::string("; its attention kernel (")
                + (e.decodeMaskedMultiheadKernel
                       ? "the masked multi-head kernel, a thread block per query head"
                       : "re-reading each K/V head from L2 for its query heads")
                + ") takes " + formatNumber("%.1f", e.decodeKvKernelSeconds * 1e3)
                + " ms a step over the K/V cache, which HBM streams in "
                + formatNumber("%.1f", e.decodeKvStreamSeconds * 1e3) + " ms";
    } else if (e.decodeGemmsTooSmall()) {
        // Below the GPU's ridge point the tensor cores are not what limits the step: its GEMMs,
        // one row a sequence, are too small for the kernels to stream their weights at full
        // bandwidth (servingGemmEfficiency's small-GEMM curve). "Compute-bound" sent readers to
        // faster tensor cores; more sequences a step is what helps.
        e.bottleneck = "small-gemms";
        e.bottleneckExplanation = "decode's GEMMs are small at batch " + std::to_string(batch)
            + " (one row a sequence): they take " + formatNumber("%.2f", e.decodeGemmSeconds * 1e3)
            + " ms a step where HBM streams their weights in "
            + formatNumber("%.2f", e.decodeWeightStreamSeconds * 1e3)
            + " ms and the tensor cores would compute them in "
            + formatNumber("%.2f", e.decodeGemmTensorSeconds * 1e3)
            + " ms at a large GEMM's rate, so a larger batch adds tokens for little more time";
    } else {
        e.bottleneck = "compute";
        // The GEMMs of a decode step have one row a sequence: at this batch they run below the
        // GPU's peak (servingGemmEfficiency), so more sequences still add tokens, each fewer,
        // until the memory for their K/V cache or the latency targets stop them.
        e.bottleneckExplanation = "decode is compute-bound at batch " + std::to_string(batch)
            + ": its GEMMs, one row a sequence, run below the GPU's peak, so a larger batch adds "
              "throughput only as they grow more efficient";
    }
}

InferenceEstimate InferenceEstimator::estimateAtBatch(int batch) const
{
    InferenceEstimate e;
    const BatchSetup s = batchSetup(batch);
    e.gpusPerReplica = m_job.gpusPerReplica;
    e.tensorParallel = static_cast<int>(s.tensorParallel);
    e.pipelineStages = static_cast<int>(s.stages);
    e.batch = batch;
    e.memoryCapacityBytes = m_hw.gpu.memoryBytes;
    estimateMemory(e, s);
    std::string layout = layoutProblem();
    if (layout.empty())
        layout = contextProblem();
    if (!layout.empty()) {
        e.fits = false;
        e.reason = layout;
    }
    // Prefill: one prompt through the stages in turn (TTFT), and the batch's prompts as one
    // batched prefill (GEMMs of B x I rows that read the weights once) for the throughput.
    e.prefillOperations = prefillStageOperations(s.replica, 1, s.inputTokens);
    e.prefillSeconds = s.stages * totalSeconds(e.prefillOperations);
    e.batchedPrefillSeconds
        = s.stages * totalSeconds(prefillStageOperations(s.replica, s.batch, s.inputTokens));
    // Decode: one step for the whole batch, P rounds of one stage per micro-batch.
    const double decodeBytesRead = estimateDecode(e, s);
    e.prefillFloorSeconds = s.floor.passSeconds(s.inputTokens);
    // A decode step also reads every running sequence's K/V cache once, at best at the
    // datasheet's bandwidth: without it the floor of a long-context batch was a fifth of what
    // the step's own bytes take (2.59 ms against 40.9 GB at 3.35 TB/s, 12.2 ms).
    const double decodeTokens = std::max(1.0, s.microBatch);
    e.decodeFloorSeconds = s.floor.passSeconds(
        decodeTokens, s.stages * decodeTokens * kvBytesReadPerSequenceOnGpu(s));
    if (chunksPrefill())
        estimateChunkedPrefill(e, s);
    addDraftPrefill(e, s);
    estimateServing(e, s);
    explainBottleneck(e, layout, decodeBytesRead, batch);
    finishCosts(e);
    return e;
}

void InferenceEstimator::finishCosts(InferenceEstimate &e,
                                     std::optional<double> servedRequestsPerSecond) const
{
    const double gpus = static_cast<double>(e.replicas) * e.gpusPerReplica;
    e.powerWatts = gpus * m_cost.wattsPerGpu;
    e.usdPerHour = gpus * m_cost.usdPerGpuHour();
    // An owner buys whole servers (a replica's GPUs divide a server or fill whole ones:
    // layoutProblem); a cloud price rents GPUs one by one.
    e.gpusPerServer = std::max(1, m_hw.gpusPerNode);
    e.servers = (e.fleetGpus() + e.gpusPerServer - 1) / e.gpusPerServer;
    e.wholeServersUsdPerHour = m_cost.hourlyUsdPerGpu
        ? e.usdPerHour
        : static_cast<double>(e.servers) * e.gpusPerServer * m_cost.usdPerGpuHour();
    // Served load: the offered rate when given, else the replica's capacity.
    const double requests = servedRequestsPerSecond ? *servedRequestsPerSecond
        : m_job.ratePerSecond                       ? *m_job.ratePerSecond
                                                    : e.requestsPerSecondPerReplica * e.replicas;
    if (requests <= 0)
        return;
    // Split the cost by where the GPU time goes: prompts (prefill) vs generated tokens (decode).
    const double decodeSeconds
        = m_job.outputTokens / e.tokensPerDecodeStep * (e.decodeStepSeconds + e.draftSeconds);
    const double prefillShare = e.batchedPrefillSeconds / (decodeSeconds + e.batchedPrefillSeconds);
    e.prefillCostShare = prefillShare;
    setTokenCosts(e, e.usdPerHour / units::secondsPerHour, requests);
}

void InferenceEstimator::setTokenCosts(InferenceEstimate &e, double usd, double requests) const
{
    e.costPerMillionOutputTokensUsd
        = usd * (1.0 - e.prefillCostShare) / (requests * m_job.outputTokens) * 1e6;
    e.costPerMillionInputTokensUsd
        = usd * e.prefillCostShare / (requests * m_job.inputTokens) * 1e6;
    e.costPerRequestUsd = usd / requests;
    e.costPerMillionOutputTokensAllInUsd = usd / (requests * m_job.outputTokens) * 1e6;
}

InferenceEstimate InferenceEstimator::estimate() const
{
    InferenceEstimate e = servingPlan();
    if (!e.fits)
        withdrawFleet(e);
    return e;
}

InferenceEstimate InferenceEstimator::servingPlan() const
{
    const BatchLimits limits = batchLimits();
    if (limits.largest < 1) {
        InferenceEstimate e = estimateAtBatch(1);
        limits.applyTo(e);
        e.maxBatch = 0;
        return e;
    }
    if (m_job.batch)
        return withOfflineJob(estimateGivenBatch(*m_job.batch, limits), limits);
    if (m_job.ratePerSecond && m_job.replicas)
        return fixedFleetAtRate(limits);
    if (!m_job.ratePerSecond) {
        InferenceEstimate e = estimateAtBatch(limits.largest);
        limits.applyTo(e);
        if (limits.largest < limits.memory)
            e.bottleneckExplanation += "; the batch is held at " + std::to_string(limits.engine)
                + " sequences by " + m_job.engine.name + "'s " + m_job.engine.maxBatchSetting + " ("
                + std::to_string(limits.memory) + " would fit in memory)";
        return withOfflineJob(e, limits);
    }
    return cheapestBatchForRate(limits);
}

InferenceEstimate InferenceEstimator::withOfflineJob(InferenceEstimate e,
                                                     const BatchLimits &limits) const
{
    if (!m_job.offlineRequests || m_job.ratePerSecond || !e.fits || !e.meetsTargets
        || e.requestsPerSecondPerReplica <= 0)
        return e;
    e.replicas = m_job.replicas.value_or(1);
    OfflineJobWaves waves = offlineJobWaves(*m_job.offlineRequests, e.replicas, e.batch);
    // A job smaller than one batch a replica runs as one wave of what it has: its latencies,
    // step and throughput are that wave's (one request showed batch 211's 197 ms a token and
    // a 39.7 s request inside a 3.9 s job).
    if (waves.fullWaves == 0 && waves.lastWaveBatch > 0 && waves.lastWaveBatch < e.batch) {
        InferenceEstimate wave = estimateAtBatch(static_cast<int>(waves.lastWaveBatch));
        limits.applyTo(wave);
        if (wave.fits && wave.meetsTargets && wave.requestsPerSecondPerReplica > 0) {
            wave.replicas = e.replicas;
            e = std::move(wave);
            waves = offlineJobWaves(*m_job.offlineRequests, e.replicas, e.batch);
        }
    }
    finishCosts(e);
    // A wave of b sequences takes b / (requests per second at batch b): its prompts' batched
    // prefill and its O decode steps (estimateServing).
    const double fullWaveSeconds = e.batch / e.requestsPerSecondPerReplica;
    double lastWaveSeconds = 0;
    if (waves.lastWaveBatch > 0) {
        const int last = static_cast<int>(waves.lastWaveBatch); // below e.batch, an int
        lastWaveSeconds = last / estimateAtBatch(last).requestsPerSecondPerReplica;
    }
    OfflineJobEstimate job;
    job.requests = *m_job.offlineRequests;
    job.requestsPerReplica = waves.requestsPerReplica;
    job.fullWaves = waves.fullWaves;
    job.lastWaveBatch = waves.lastWaveBatch;
    job.seconds = static_cast<double>(waves.fullWaves) * fullWaveSeconds + lastWaveSeconds;
    const double gpus = static_cast<double>(e.replicas) * e.gpusPerReplica;
    job.outputTokensPerSecondPerGpu
        = static_cast<double>(job.requests) * m_job.outputTokens / job.seconds / gpus;
    job.usd = e.usdPerHour * job.seconds / units::secondsPerHour;
    job.joules = e.powerWatts * m_cost.pue * job.seconds;
    // What the job's tokens cost is the job's cost over them (a smaller last wave costs its
    // time too), split between prompts and generated tokens as the steady figures are.
    setTokenCosts(e, job.usd, static_cast<double>(job.requests));
    e.offlineJob = job;
    explainOfflineJob(e);
    return e;
}

void InferenceEstimator::explainOfflineJob(InferenceEstimate &e) const
{
    const OfflineJobEstimate &job = *e.offlineJob;
    // A job that outlasts the hardware it is priced on (843,069 days on one L4) is no plan: say
    // so, and what shortens it.
    const double lifetimeSeconds
        = m_cost.lifetimeYears * units::hoursPerYear * units::secondsPerHour;
    if (job.seconds > lifetimeSeconds)
        e.bottleneckExplanation += "; the job outlasts the hardware's "
            + formatNumber("%.3g", m_cost.lifetimeYears) + "-year life on "
            + countOf(e.replicas, "replica", "replicas")
            + ": more replicas share it (--replicas, or the plan's replicas)";
    const double share = job.outputTokensPerSecondPerGpu / e.outputTokensPerSecondPerGpu;
    if (job.lastWaveBatch == 0 || share > 0.995) // nothing to explain at the percent
        return;
    e.bottleneckExplanation += "; the job's last wave runs "
        + countOf(job.lastWaveBatch, "sequence", "sequences")
        + (e.replicas > 1 ? " per replica" : "")
        + (job.fullWaves > 0 ? " after " + groupedCount(job.fullWaves)
                   + (job.fullWaves == 1 ? " full wave of " : " full waves of ")
                   + groupedCount(e.batch)
                             : std::string())
        + ", so the job averages " + formatNumber("%.0f%%", 100 * share)
        + " of the steady throughput";
}

InferenceEstimate InferenceEstimator::estimateGivenBatch(int batch, const BatchLimits &limits) const
{
    InferenceEstimate e = estimateAtBatch(batch);
    limits.applyTo(e);
    if (batch > limits.memory) {
        e.fits = false;
        e.reason = "batch " + std::to_string(batch) + " needs "
            + formatNumber("%.1f", e.memoryBytesPerGpu / units::gibi)
            + " GiB per GPU; the KV cache leaves room for at most "
            + countOf(limits.memory, "sequence", "sequences");
        e.bottleneck = "memory-capacity";
        e.bottleneckExplanation = "does not fit: " + e.reason;
    } else if (limits.engine > 0 && batch > limits.engine) {
        e.meetsTargets = false;
        e.reason = "batch " + std::to_string(batch) + " is more than the "
            + std::to_string(limits.engine) + " sequences " + m_job.engine.name + " runs at once ("
            + m_job.engine.maxBatchSetting + "); raise the engine's limit";
        e.bottleneck = "engine-batch-limit";
        e.bottleneckExplanation = e.reason;
    }
    return e;
}

double InferenceEstimator::promptStepSeconds(const InferenceEstimate &e) const
{
    // Prefilled in a step carrying the running decodes; a chunked engine spreads it over
    // several steps, whose decodes prefillSeconds already counts.
    return chunksPrefill() ? e.prefillSeconds
                           : e.prefillSeconds + e.decodeStepSeconds + e.draftSeconds;
}

double InferenceEstimator::ttftBeforeQueueSeconds(const InferenceEstimate &e, int batch,
                                                  double quantile) const
{
    const double step = e.tpotSeconds * e.tokensPerDecodeStep;
    return batch > 1 ? std::max(step, promptStepSeconds(e)) + quantile * step : e.prefillSeconds;
}

std::string InferenceEstimator::perReplicaRateText(double capacity) const
{
    // fewestReplicasForRate's headroom, said: 1e9 requests/s over "5.58 requests/s each" did not
    // make the replica count, as each replica is sized to carry 70% of that.
    if (!m_job.ttftP95Seconds && !m_job.tpotP95Seconds)
        return formatNumber("%.3g", capacity) + " requests/s each";
    return formatNumber("%.3g", trustedUtilisation * capacity)
        + " requests/s each: " + formatNumber("%.0f%%", 100 * trustedUtilisation) + " of the "
        + formatNumber("%.3g", capacity)
        + " a replica carries, the headroom a fleet sized for latency targets keeps";
}

double InferenceEstimator::fewestReplicasForRate(const InferenceEstimate &e, double rate) const
{
    // As for a continuously batching fleet (fewestContinuouslyBatchingReplicas), no fleet sized
    // for latency targets runs past the load at which this model's latencies stop being
    // trustworthy: one replica at 88% of its rate gave a p95 TTFT of 2.4 s beside a p50 of
    // 0.15 s. Without targets the fleet is sized for throughput alone, up to its rate.
    const bool latencyTargets = m_job.ttftP95Seconds || m_job.tpotP95Seconds;
    const double headroom = latencyTargets ? trustedUtilisation : 1.0;
    return std::ceil(rate / (headroom * e.requestsPerSecondPerReplica) * 1.0000001);
}

std::optional<std::string> InferenceEstimator::provisionReplicas(InferenceEstimate &e, int batch,
                                                                 double rate) const
{
    const double mu = e.requestsPerSecondPerReplica;
    // Beside the other sequences of a batch, a prompt that finds a free slot still waits for the
    // next step boundary (uniform over a step, so its quantile q is q steps), then is prefilled
    // in a step that also carries the running decodes, unless the engine chunks its prompt
    // (prefillSeconds then already counts them): the same terms as a fixed fleet's load point
    // (loadPoint). The step is the one between a sequence's tokens, prefills included. A batch of
    // one runs nothing beside its prompt.
    const auto beforeQueue = [&](double quantile) {
        return ttftBeforeQueueSeconds(e, batch, quantile);
    };
    // However many replicas share the load, a prompt waits at least for a step boundary and its
    // prefill: past the target, no fleet of this batch meets it.
    if (m_job.ttftP95Seconds && beforeQueue(0.95) > *m_job.ttftP95Seconds)
        return "at batch " + std::to_string(batch) + " the p95 TTFT is "
            + formatNumber("%.1f ms", 1e3 * beforeQueue(0.95))
            + " before any wait for a free slot, above the target";
    const auto tooMany = [batch] {
        return "at batch " + std::to_string(batch) + " the rate needs more than "
            + groupedCount(maxReplicas) + " replicas";
    };
    const double fewest = fewestReplicasForRate(e, rate);
    if (!(fewest <= maxReplicas))
        return tooMany();
    for (int replicas = std::max(1, static_cast<int>(fewest)); replicas <= maxReplicas;
         ++replicas) {
        const double rho = rate / replicas / mu;
        if (rho >= 1.0)
            continue;
        // The quantile of the sum taken as the sum of the quantiles: an upper bound, reached
        // when the wait for a slot and for a step boundary are both at their tails.
        const auto ttftAt = [&](double quantile) {
            return beforeQueue(quantile)
                + erlangCWaitQuantileSeconds(rate / replicas, mu / batch, batch, quantile);
        };
        const double ttft = ttftAt(0.95);
        if (!m_job.ttftP95Seconds || ttft <= *m_job.ttftP95Seconds) {
            e.replicas = replicas;
            e.utilisation = rho;
            e.ttftSeconds = ttft;
            e.endToEndSeconds = ttft + m_job.outputTokens * e.tpotSeconds;
            // The other percentiles of the same queue; decode is a steady O·TPOT here, so only
            // the wait before prefill spreads the end-to-end latency.
            e.ttftP50Seconds = ttftAt(0.50);
            e.ttftP99Seconds = ttftAt(0.99);
            // Every slot decodes at the batch's pace (the worst case of its occupancy), and the
            // slots hold rho x batch sequences on average (Erlang C's busy servers).
            e.tpotP95Seconds = e.tpotP99Seconds = e.tpotSeconds;
            e.inFlightSequences = rho * batch;
            // Its throughput is the load it serves, as a fleet that admits prompts as they come
            // reports it (fleetUnderLoad): it was the batch's capacity, so two fleets compared
            // side by side read one as load and the other as capacity.
            e.outputTokensPerSecondPerReplica = rate / replicas * m_job.outputTokens;
            e.outputTokensPerSecondPerGpu = e.outputTokensPerSecondPerReplica / e.gpusPerReplica;
            return std::nullopt;
        }
    }
    return tooMany();
}

InferenceEstimate InferenceEstimator::cheapestBatchForRate(const BatchLimits &limits) const
{
    const int limit = limits.largest;
    std::vector<int> batches;
    for (int b = 1; b < limit; b *= 2)
        batches.push_back(b);
    batches.push_back(limit);
    const double rate = *m_job.ratePerSecond;
    std::optional<InferenceEstimate> best;
    // Why no batch serves the rate: the smallest batch's reason, the least constrained (a larger
    // batch's TPOT over the target said "even at batch 1 ..." of a batch 1 that met it).
    std::string why;
    std::string overCap;
    double fewestOverCap = std::numeric_limits<double>::infinity();
    const auto refuse = [&why](std::string reason) {
        if (why.empty())
            why = std::move(reason);
    };
    for (int b : batches) {
        InferenceEstimate e = estimateAtBatch(b);
        limits.applyTo(e);
        if (m_job.tpotP95Seconds && e.tpotSeconds > *m_job.tpotP95Seconds) {
            refuse("at batch " + std::to_string(b) + " the time per output token is "
                   + formatNumber("%.1f ms", 1e3 * e.tpotSeconds) + ", above the target");
            continue;
        }
        if (m_job.ttftP95Seconds && e.prefillSeconds >= *m_job.ttftP95Seconds) {
            refuse("the prompt's prefill alone takes "
                   + formatNumber("%.1f ms", 1e3 * e.prefillSeconds) + ", above the TTFT target");
            continue;
        }
        if (auto unmet = provisionReplicas(e, b, rate)) {
            // A batch whose latencies the targets allow and whose fleet only outgrows the
            // sizing's cap says more than the smallest batch's reason ("at batch 1 the rate
            // needs more than 1,000,000 replicas" where batch 64 met the targets).
            const double needed = fewestReplicasForRate(e, rate);
            if (needed > maxReplicas && needed < fewestOverCap
                && (!m_job.ttftP95Seconds
                    || ttftBeforeQueueSeconds(e, b, 0.95) <= *m_job.ttftP95Seconds)) {
                fewestOverCap = needed;
                overCap = "the rate needs "
                    + groupedCount(static_cast<long long>(std::min(needed, 9.0e18)))
                    + " replicas at batch " + std::to_string(b) + " ("
                    + perReplicaRateText(e.requestsPerSecondPerReplica) + "), more than the "
                    + groupedCount(maxReplicas) + " a fleet is sized to";
            }
            refuse(*unmet);
            continue;
        }
        finishCosts(e);
        if (!best || e.replicas < best->replicas
            || (e.replicas == best->replicas && e.endToEndSeconds < best->endToEndSeconds))
            best = e;
    }
    // The engine does not hold a replica at one batch size: it admits every arriving prompt up
    // to its limit, so the sequences in flight, and the step and TPOT with them, follow the
    // load (the fixed fleet's model, fleetUnderLoad). A fleet sized by the fixed batch above
    // is refused a slot at that batch while the engine would still admit: where the engine's
    // own admission serves the rate with fewer replicas, that is the fleet, so a fleet sized
    // here and then given as --replicas meets the same targets.
    const InferenceEstimate atLargest = estimateAtBatch(limits.largest);
    if (auto admitted
        = fewestContinuouslyBatchingReplicas(limits, atLargest, fleetCapacityPerReplica(atLargest),
                                             best ? best->replicas : maxReplicas))
        return *admitted;
    if (!best) {
        // No batch meets the targets: the replica's shortest latencies (batch 1, unloaded)
        // show how far off they are; no fleet is sized or priced for a load it cannot serve
        // as asked (one replica credited with the whole rate was a cost per token far too low).
        InferenceEstimate e = estimateAtBatch(1);
        limits.applyTo(e);
        withdrawFleet(e);
        e.meetsTargets = false;
        e.reason = !overCap.empty() ? overCap
            : why.empty()           ? "no batch size meets the latency targets"
                                    : why;
        e.bottleneck = "latency";
        e.bottleneckExplanation = e.reason;
        return e;
    }
    // The next batch tried, where the chosen one is not the largest the replica runs.
    const auto larger
        = std::find_if(batches.begin(), batches.end(), [&](int b) { return b > best->batch; });
    if (larger != batches.end()) {
        InferenceEstimate next = estimateAtBatch(*larger);
        limits.applyTo(next);
        explainBatchLimit(*best, next);
    }
    // A fleet kept nearly idle for its TTFT target: the target, not the load, sizes it. An L4
    // fleet of 82,088 GPUs 5% busy for 50 requests/s of Llama 3 70B, a 570 ms prefill against a
    // 700 ms target, read as a sizing error where it is the price of that target on that GPU.
    if (m_job.ttftP95Seconds && best->utilisation > 0 && best->utilisation < 0.1)
        best->bottleneckExplanation += "; the TTFT target leaves "
            + formatNumber("%.0f ms", (*m_job.ttftP95Seconds - best->prefillSeconds) * 1e3)
            + " beyond a prompt's " + formatNumber("%.0f ms", best->prefillSeconds * 1e3)
            + " prefill, so each replica is kept " + percentText(best->utilisation, 0)
            + " busy for a prompt seldom to wait for it: the target, not the load, sizes this "
              "fleet (a replica with a shorter prefill, on a faster GPU or more GPUs, serves the "
              "load with far fewer)";
    return *best;
}

/** A replica under load at one batch size: its step, TPOT, TTFT and the sequences it holds. */
struct InferenceEstimator::LoadPoint
{
    InferenceEstimate estimate;
    double prefillShare = 0; ///< of every second spent prefilling arriving prompts
    double tpotSeconds = 0;
    double ttftMinSeconds = 0; ///< admitted at a step boundary: the step that prefills it
    double stepSeconds = 0; ///< one step, with its share of prefill
    double ttftMeanSeconds() const { return ttftMinSeconds + 0.5 * stepSeconds; }
    double ttftQuantileSeconds(double q) const { return ttftMinSeconds + q * stepSeconds; }
    int batch = 1;
    double inFlight = 0; ///< Little's law at this point's latencies
    bool saturated() const { return prefillShare >= 1.0; }
    /** The batch runs every sequence its latencies keep in flight. */
    bool holds(int batch) const { return !saturated() && inFlight <= batch; }
};

InferenceEstimator::LoadPoint InferenceEstimator::loadPoint(InferenceEstimate atBatch,
                                                            double arrivalsPerSecond) const
{
    LoadPoint point;
    point.batch = atBatch.batch;
    point.estimate = std::move(atBatch);
    const InferenceEstimate &e = point.estimate;
    const double batch = point.batch;
    // Each arriving prompt costs its share of a batched prefill; that share of every second is
    // not spent on decode steps, so each decode round stretches by 1 / (1 - share).
    point.prefillShare = arrivalsPerSecond * e.batchedPrefillSeconds / batch;
    if (point.saturated())
        return point;
    const double round = e.decodeStepSeconds + e.draftSeconds;
    point.stepSeconds = round / (1.0 - point.prefillShare);
    point.tpotSeconds = point.stepSeconds / e.tokensPerDecodeStep;
    // A prompt waits for the next step boundary (uniform over a step), then for its own step.
    point.ttftMinSeconds = std::max(point.stepSeconds, promptStepSeconds(e));
    point.inFlight
        = arrivalsPerSecond * (point.ttftMeanSeconds() + m_job.outputTokens * point.tpotSeconds);
    return point;
}

double InferenceEstimator::fleetCapacityPerReplica(const InferenceEstimate &atLargest) const
{
    // The highest rate whose in-flight sequences (Little's law at that rate's latencies, the
    // prompts' prefill interleaved with decode) the largest batch still holds: the same test
    // that refuses a load as more than the replica serves, so the two never disagree. The
    // in-flight count rises with the rate, without bound as prefill approaches all of the
    // replica's time, so the rates it holds are an interval from zero: bisection.
    const int largest = atLargest.batch;
    double holds = 0;
    double breaks = atLargest.batchedPrefillSeconds > 0
        ? largest / atLargest.batchedPrefillSeconds // prefill alone would take all the time
        : 2.0 * atLargest.requestsPerSecondPerReplica;
    for (int doubling = 0; doubling < 64 && loadPoint(atLargest, breaks).holds(largest); ++doubling)
        breaks *= 2.0;
    for (int step = 0; step < 100 && breaks - holds > 1e-9 * breaks; ++step) {
        const double middle = 0.5 * (holds + breaks);
        (loadPoint(atLargest, middle).holds(largest) ? holds : breaks) = middle;
    }
    return holds;
}

int InferenceEstimator::inFlightBatch(double arrivalsPerSecond, int largest) const
{
    // The smallest batch that holds the sequences its own latencies bring in flight: the
    // in-flight count grows more slowly than the batch beyond it.
    int low = 1, high = largest;
    while (low < high) {
        const int middle = low + (high - low) / 2;
        if (loadPoint(estimateAtBatch(middle), arrivalsPerSecond).holds(middle))
            high = middle;
        else
            low = middle + 1;
    }
    return low;
}

InferenceEstimate InferenceEstimator::fixedFleetAtRate(const BatchLimits &limits) const
{
    const InferenceEstimate atLargest = estimateAtBatch(limits.largest);
    const double capacity = fleetCapacityPerReplica(atLargest);
    InferenceEstimate e = fleetUnderLoad(limits, *m_job.replicas, atLargest, capacity);
    // A TTFT target holds only where prompts find a free slot (occupancyFitsSlots), as a sized
    // fleet's must: 10 replicas at 99.97% of their capacity met a 500 ms target "at 225 ms"
    // while more than one prompt in twenty would have waited for a slot.
    if (e.fits && e.meetsTargets && m_job.ttftP95Seconds
        && !occupancyFitsSlots(e.inFlightSequences, limits.largest, 0.95)) {
        e.meetsTargets = false;
        e.reason = slotsTakenText(e.replicas, limits.largest)
            + " and wait for one, a wait the TTFT p95 does not count";
    }
    if (e.meetsTargets || !e.fits)
        return e;
    // The fleet that would serve the load: what sizing for the rate (without --replicas) gives.
    if (const auto enough
        = fewestContinuouslyBatchingReplicas(limits, atLargest, capacity, maxReplicas)) {
        e.reason += "; " + groupedCount(enough->replicas) + " replicas serve the rate within "
            + (m_job.ttftP95Seconds || m_job.tpotP95Seconds ? "the targets" : "their capacity");
        e.bottleneckExplanation = e.reason;
    }
    return e;
}

InferenceEstimate InferenceEstimator::fleetUnderLoad(const BatchLimits &limits, int replicas,
                                                     const InferenceEstimate &atLargest,
                                                     double capacity) const
{
    const double lambda = *m_job.ratePerSecond / replicas;
    const LoadPoint full = loadPoint(atLargest, lambda);
    if (!full.holds(limits.largest))
        return overloadedFleet(full.estimate, limits, capacity, replicas);

    const LoadPoint point
        = loadPoint(estimateAtBatch(inFlightBatch(lambda, limits.largest)), lambda);
    InferenceEstimate e = point.estimate;
    limits.applyTo(e);
    e.fixedFleet = true;
    e.replicas = replicas;
    e.inFlightSequences = point.inFlight;
    e.requestsPerSecondPerReplica = capacity;
    e.outputTokensPerSecondPerReplica = lambda * m_job.outputTokens;
    e.outputTokensPerSecondPerGpu = e.outputTokensPerSecondPerReplica / e.gpusPerReplica;
    e.utilisation = lambda / capacity;
    e.tpotSeconds = point.tpotSeconds;
    auto tpotAtOccupancy = [&](double probability) {
        const int busy
            = std::clamp(poissonQuantile(point.inFlight, probability), point.batch, limits.largest);
        return std::max(point.tpotSeconds, loadPoint(estimateAtBatch(busy), lambda).tpotSeconds);
    };
    e.tpotP95Seconds = tpotAtOccupancy(0.95);
    e.tpotP99Seconds = tpotAtOccupancy(0.99);
    e.ttftP50Seconds = point.ttftQuantileSeconds(0.50);
    e.ttftSeconds = point.ttftQuantileSeconds(0.95);
    e.ttftP99Seconds = point.ttftQuantileSeconds(0.99);
    e.endToEndSeconds = e.ttftSeconds + m_job.outputTokens * e.tpotSeconds;
    explainFleetLoad(e, lambda, capacity);
    checkFleetTargets(e);
    finishCosts(e);
    return e;
}

std::string InferenceEstimator::slotsTakenText(int replicas, int largest)
{
    return "with " + countOf(replicas, "replica", "replicas")
        + " more than one prompt in twenty would find all " + std::to_string(largest)
        + " of its replica's slots taken";
}

std::optional<InferenceEstimate>
InferenceEstimator::fewestContinuouslyBatchingReplicas(const BatchLimits &limits,
                                                       const InferenceEstimate &atLargest,
                                                       double capacity, int mostReplicas) const
{
    if (!(capacity > 0))
        return std::nullopt;
    const double rate = *m_job.ratePerSecond;
    // No fleet is sized past the load at which this model's latencies stop being trustworthy
    // (explainFleetLoad): a sized fleet keeps that headroom over its estimated capacity.
    const double fewest
        = std::max(1.0, std::ceil(rate / (trustedUtilisation * capacity) * 1.0000001));
    if (!(fewest <= mostReplicas))
        return std::nullopt;
    const auto serves = [&](int replicas) {
        const InferenceEstimate fleet = fleetUnderLoad(limits, replicas, atLargest, capacity);
        return fleet.meetsTargets
            && occupancyFitsSlots(fleet.inFlightSequences, limits.largest, 0.95);
    };
    // More replicas share the rate, each runs fewer sequences in shorter steps: the latencies
    // fall with the fleet, so the fewest that serve it are found by bisection.
    int low = static_cast<int>(fewest), high = mostReplicas;
    if (!serves(high))
        return std::nullopt;
    while (low < high) {
        const int middle = low + (high - low) / 2;
        if (serves(middle))
            high = middle;
        else
            low = middle + 1;
    }
    InferenceEstimate fleet = fleetUnderLoad(limits, low, atLargest, capacity);
    fleet.fixedFleet = false; // sized for the rate, not given
    explainFewestReplicas(fleet, limits, atLargest, capacity);
    return fleet;
}

void InferenceEstimator::explainFewestReplicas(InferenceEstimate &fleet, const BatchLimits &limits,
                                               const InferenceEstimate &atLargest,
                                               double capacity) const
{
    // Why not one replica fewer: the target it misses, the slots it runs out of, or the
    // headroom a sized fleet keeps.
    if (fleet.replicas <= 1)
        return;
    const int fewer = fleet.replicas - 1;
    const InferenceEstimate smaller = fleetUnderLoad(limits, fewer, atLargest, capacity);
    if (!smaller.meetsTargets)
        fleet.bottleneckExplanation += "; " + smaller.reason;
    else if (!occupancyFitsSlots(smaller.inFlightSequences, limits.largest, 0.95))
        fleet.bottleneckExplanation += "; " + slotsTakenText(fewer, limits.largest);
    else
        fleet.bottleneckExplanation += "; " + countOf(fewer, "replica", "replicas")
            + " would meet the targets on paper, but above "
            + formatNumber("%.0f%%", 100 * trustedUtilisation) + " of "
            + (fewer == 1 ? "its" : "their")
            + " capacity, where this model's latencies are a lower bound";
}

InferenceEstimate InferenceEstimator::overloadedFleet(InferenceEstimate e,
                                                      const BatchLimits &limits, double capacity,
                                                      int replicas) const
{
    const double rate = *m_job.ratePerSecond;
    limits.applyTo(e);
    // "At least": that many replicas carry the rate at their largest batch, but its latencies
    // there may miss the targets (fixedFleetAtRate then names the fleet that meets them).
    const int needed = static_cast<int>(std::ceil(rate / capacity * 1.0000001));
    e.meetsTargets = false;
    e.fixedFleet = true;
    e.replicas = replicas;
    e.requestsPerSecondPerReplica = capacity;
    e.utilisation = rate / replicas / capacity;
    // Its queue grows without bound while every replica runs its largest batch.
    e.inFlightSequences = limits.largest;
    e.reason = threeDigits(rate) + " requests/s is more than "
        + (replicas == 1 ? std::string("one replica serves")
                         : std::to_string(replicas) + " replicas serve")
        + ": one replica runs at most " + countOf(limits.largest, "sequence", "sequences")
        + ", about " + threeDigits(capacity) + " requests/s; at least "
        + std::to_string(std::max(needed, replicas + 1)) + " replicas are needed";
    e.bottleneck = "load";
    e.bottleneckExplanation = e.reason;
    // Its replicas serve their capacity, not the rate offered: a token costs what they do.
    finishCosts(e, capacity * replicas);
    return e;
}

void InferenceEstimator::explainFleetLoad(InferenceEstimate &e, double arrivalsPerSecond,
                                          double capacity) const
{
    e.bottleneckExplanation += "; at " + threeDigits(arrivalsPerSecond)
        + " requests/s a replica runs " + threeDigits(e.inFlightSequences)
        + " sequences at once on average, " + formatNumber("%.0f%%", 100.0 * e.utilisation)
        + " of the " + threeDigits(capacity) + " requests/s it serves at its largest batch";
    // Near saturation the in-flight batch, and with it TPOT and TTFT, rise steeply with load:
    // throughput estimates run about 10% optimistic on the published suite
    // (docs/validation-inference.md), and MLPerf server fleets that this model puts at 75% of
    // capacity and more were measured at their latency limits.
    if (e.utilisation > trustedUtilisation)
        e.bottleneckExplanation += " (above " + formatNumber("%.0f%%", 100 * trustedUtilisation)
            + " of the estimated capacity the real fleet may be near saturation, where latencies "
              "rise steeply: treat them as a lower bound)";
}

void InferenceEstimator::checkFleetTargets(InferenceEstimate &e) const
{
    std::string missed;
    if (m_job.ttftP95Seconds && e.ttftSeconds > *m_job.ttftP95Seconds)
        missed
            = "TTFT p95 " + formatNumber("%.0f ms", e.ttftSeconds * 1e3) + " is above the target";
    else if (m_job.tpotP95Seconds && e.tpotP95Seconds > *m_job.tpotP95Seconds)
        missed = "TPOT p95 " + formatNumber("%.1f ms", e.tpotP95Seconds * 1e3)
            + " is above the target";
    if (missed.empty())
        return;
    e.meetsTargets = false;
    e.reason = (e.replicas == 1 ? std::string("with one replica the ")
                                : "with " + groupedCount(e.replicas) + " replicas the ")
        + missed;
}

double InferenceEstimator::engineReserveBytes(double weightsBytes, double workspaceBytes) const
{
    const double capacity = m_hw.gpu.memoryBytes;
    const ServingEngine &engine = m_job.engine;
    if (!engine.shareOfFreeMemory) // vLLM: the engine uses its share of the whole GPU
        return (1.0 - engine.memoryUtilization) * capacity;
    // TensorRT-LLM: the runtime's buffers, then its share of what the weights leave.
    const double free
        = std::max(0.0, capacity - weightsBytes - workspaceBytes - m_job.reservedBytesPerGpu);
    return m_job.reservedBytesPerGpu + (1.0 - engine.memoryUtilization) * free;
}

void InferenceEstimator::explainBatchLimit(InferenceEstimate &e,
                                           const InferenceEstimate &larger) const
{
    // Why not the next batch: its time per output token (a decode step, and the share of the
    // batch's other prompts prefilled between a sequence's tokens, which grows with the batch),
    // or its prompt's prefill against the TTFT target; else it was served, by no fewer replicas.
    const std::string held = "; the batch (" + std::to_string(e.batch) + " of the "
        + std::to_string(e.maxBatch) + " the replica can run) is held by the ";
    const std::string at = "at batch " + std::to_string(larger.batch);
    if (m_job.tpotP95Seconds && larger.tpotSeconds > *m_job.tpotP95Seconds) {
        const double decodeSeconds
            = (larger.decodeStepSeconds + larger.draftSeconds) / larger.tokensPerDecodeStep;
        const double prefillSeconds = std::max(0.0, larger.tpotSeconds - decodeSeconds);
        e.bottleneckExplanation += held + "TPOT target: " + at + " a token would take "
            + formatNumber("%.1f ms", larger.tpotSeconds * 1e3) + ", "
            + formatNumber("%.1f ms", decodeSeconds * 1e3) + " of decoding and "
            + formatNumber("%.1f ms", prefillSeconds * 1e3)
            + " of the other prompts' prefill spread over each sequence's "
            + groupedCount(m_job.outputTokens) + " tokens, above the "
            + formatNumber("%.0f ms", *m_job.tpotP95Seconds * 1e3) + " target";
    } else if (m_job.ttftP95Seconds && larger.prefillSeconds >= *m_job.ttftP95Seconds) {
        e.bottleneckExplanation += held + "TTFT target: " + at + " a prompt's prefill alone "
            + "would take " + formatNumber("%.1f ms", larger.prefillSeconds * 1e3);
    } else {
        e.bottleneckExplanation += "; a larger batch (" + std::to_string(larger.batch)
            + ") would need no fewer replicas";
    }
}

} // namespace cp::model
