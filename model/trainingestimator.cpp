// SPDX-License-Identifier: GPL-3.0-or-later
#include "model/trainingestimator.h"

#include "model/gemmefficiency.h"
#include "model/transformershape.h"
#include "model/units.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <numeric>

namespace cp::model {

namespace {

/** Bytes of one activation element: Megatron keeps activations in 16-bit even with FP8 GEMMs. */
constexpr double activationBytes = 2.0;
/**
 * Bytes per parameter held for mixed-precision Adam: 2 (16-bit weights) + 2 (16-bit gradients)
 * + 12 (fp32 master weights, momentum, variance). Rajbhandari et al., "ZeRO", SC20, §3.1 (K = 12).
 */
constexpr double weightBytesPerParameter = 2.0;
constexpr double gradientBytesPerParameter = 2.0;
constexpr double optimizerBytesPerParameter = 12.0;
/**
 * Bytes the Adam update streams per parameter it owns: reads fp32 master, m, v and the 16-bit
 * gradient (14 B), writes master, m, v and the 16-bit weight (14 B).
 */
constexpr double optimizerTrafficBytesPerParameter = 28.0;

std::string percent(double fraction)
{
    char text[32];
    std::snprintf(text, sizeof text, "%.0f%%", 100.0 * fraction);
    return text;
}

std::string formatNumber(const char *format, double value)
{
    char text[64];
    std::snprintf(text, sizeof text, format, value);
    return text;
}

std::vector<int> divisorsOf(int n, int limit)
{
    std::vector<int> result;
    for (int d = 1; d <= std::min(n, limit); ++d) {
        if (n % d == 0)
            result.push_back(d);
    }
    return result;
}

} // namespace

std::string recomputeName(Recompute recompute)
{
    switch (recompute) {
    case Recompute::None:
        return "none";
    case Recompute::Selective:
        return "selective";
    case Recompute::Full:
        return "full";
    }
    return "none";
}

std::optional<Recompute> recomputeFromName(const std::string &name)
{
    if (name == "none")
        return Recompute::None;
    if (name == "selective")
        return Recompute::Selective;
    if (name == "full")
        return Recompute::Full;
    return std::nullopt;
}

TrainingEstimator::TrainingEstimator(const TrainingJob &job, const ClusterDescription &cluster)
    : m_job(job)
    , m_cluster(cluster)
    , m_peakFlopsPerSecond(cluster.gpu.peakFlopsPerSecond(job.precision))
{ }

double TrainingEstimator::gemmEfficiency(double m, double n, double k) const
{
    return model::gemmEfficiency(m_cluster.gpu, m, n, k);
}

std::string TrainingEstimator::validate(const ParallelConfig &c) const
{
    const ModelSpec &model = m_job.model;
    if (m_peakFlopsPerSecond <= 0)
        return m_cluster.gpu.name + " has no " + precisionName(m_job.precision)
            + " tensor throughput";
    if (c.tp < 1 || c.pp < 1 || c.dp < 1 || c.cp < 1 || c.ep < 1 || c.microbatch < 1
        || c.interleave < 1)
        return "every parallel degree and the microbatch must be at least 1";
    if (c.zero < 0 || c.zero > 3)
        return "ZeRO stage must be 0, 1, 2 or 3";
    const long long product = 1LL * c.tp * c.pp * c.dp * c.cp;
    if (product != m_cluster.gpus)
        return "TP x PP x DP x CP = " + std::to_string(c.tp) + " x " + std::to_string(c.pp) + " x "
            + std::to_string(c.dp) + " x " + std::to_string(c.cp) + " = " + std::to_string(product)
            + ", but the cluster has " + std::to_string(m_cluster.gpus) + " GPUs";
    if (model.heads % c.tp != 0)
        return "the model's " + std::to_string(model.heads)
            + " attention heads are not divisible by TP=" + std::to_string(c.tp);
    if (model.kvHeads % c.tp != 0 && c.tp % model.kvHeads != 0)
        return "the model's " + std::to_string(model.kvHeads)
            + " KV heads cannot be split over TP=" + std::to_string(c.tp);
    if (c.tp > m_cluster.scaleUpDomainGpus && !m_job.allowTpAcrossNodes)
        return "TP=" + std::to_string(c.tp) + " exceeds the "
            + std::to_string(m_cluster.scaleUpDomainGpus)
            + "-GPU scale-up (NVLink/PCIe) domain; tensor parallelism across the network is not "
              "allowed";
    if (model.layers < c.pp * c.interleave)
        return std::to_string(model.layers) + " layers cannot fill PP=" + std::to_string(c.pp)
            + (c.interleave > 1 ? " x " + std::to_string(c.interleave) + " virtual" : std::string())
            + " stages";
    if (c.interleave > 1 && c.pp == 1)
        return "an interleaved schedule needs pipeline parallelism (PP > 1)";
    if (m_job.globalBatch % (c.dp * c.microbatch) != 0)
        return "global batch " + std::to_string(m_job.globalBatch)
            + " is not divisible by DP x microbatch = " + std::to_string(c.dp * c.microbatch);
    const int microbatches = m_job.globalBatch / (c.dp * c.microbatch);
    if (c.interleave > 1 && microbatches % c.pp != 0)
        return "the interleaved schedule needs the number of microbatches ("
            + std::to_string(microbatches) + ") to be a multiple of PP=" + std::to_string(c.pp);
    if (c.cp > 1 && m_job.seqLen % (2 * c.cp) != 0)
        return "sequence length " + std::to_string(m_job.seqLen)
            + " is not divisible by 2 x CP (load-balanced context parallelism)";
    if (c.ep > 1) {
        if (!model.isMoe())
            return "expert parallelism needs a mixture-of-experts model";
        if (model.experts % c.ep != 0)
            return std::to_string(model.experts)
                + " experts are not divisible by EP=" + std::to_string(c.ep);
        if ((c.dp * c.cp) % c.ep != 0)
            return "EP=" + std::to_string(c.ep)
                + " must divide DP x CP = " + std::to_string(c.dp * c.cp);
    }
    return {};
}

TrainingEstimate TrainingEstimator::estimate(const ParallelConfig &config) const
{
    return evaluate(config, true);
}

TrainingEstimate TrainingEstimator::evaluate(const ParallelConfig &c, bool withExplanation) const
{
    TrainingEstimate result;
    result.config = c;
    result.memoryCapacityBytes = m_cluster.gpu.memoryBytes;
    result.reason = validate(c);
    if (!result.reason.empty()) {
        result.valid = false;
        result.fits = false;
        return result;
    }

    const TransformerShape shape = TransformerShape::fromModel(m_job.model);
    const GpuSpec &gpu = m_cluster.gpu;
    const double t = c.tp, p = c.pp, d = c.dp, cpDeg = c.cp, e = c.ep, v = c.interleave;
    const double s = m_job.seqLen;
    const double h = shape.hidden;
    const double tokens = c.microbatch * s / cpDeg; // tokens per microbatch on one rank
    // Layers need not divide evenly (Llama 3 405B: 126 layers on 16 stages); the stage with the
    // most layers sets the pipeline's pace and holds the most activations.
    const double layersPerStage = std::ceil(shape.layers / (p * v)) * v;
    const double microbatches = static_cast<double>(m_job.globalBatch) / (d * c.microbatch);
    const bool unfused = m_job.attention == AttentionKernel::Unfused;
    const double spDivisor = (c.sequenceParallel && c.tp > 1) ? t : 1.0;
    const double hbm = gpu.memoryBytesPerSecond * gpu.memoryAchievableFraction;
    const double peak = m_peakFlopsPerSecond;

    // --- Compute: forward time of one layer for one microbatch -------------------------------
    const double expertTokens = tokens * shape.topK * e / shape.experts; // per local expert
    const double qkvFlops = 2.0 * tokens * h * shape.qkvWidth() / t;
    const double projFlops = 2.0 * tokens * h * h / t;
    const double mlpFlops = shape.topK * 2.0 * tokens * h * shape.ffn * shape.mlpMatrices() / t;
    const double routerFlops = shape.experts > 1 ? 2.0 * tokens * h * shape.experts : 0.0;
    const double attnFlops = shape.attentionCoreFlopsPerToken(s) * tokens / t;
    const double logitFlops = shape.logitFlopsPerToken() * tokens / t;

    const double gemmFwd = qkvFlops / (peak * gemmEfficiency(tokens, shape.qkvWidth() / t, h))
        + projFlops / (peak * gemmEfficiency(tokens, h, h / t))
        + mlpFlops / (peak * gemmEfficiency(expertTokens, shape.ffn / t, h))
        + (routerFlops > 0 ? routerFlops / (peak * gemmEfficiency(tokens, shape.experts, h)) : 0.0);
    const double attnFwd = attnFlops / (peak * gemmEfficiency(s / cpDeg, s, shape.headDim));
    const double logitFwd = logitFlops / (peak * gemmEfficiency(tokens, shape.vocab / t, h));

    // Backward costs two forward passes (gradients of inputs and of weights); recomputation
    // repeats the forward (full) or only the attention core (selective).
    const double recomputeGemm = c.recompute == Recompute::Full ? 1.0 : 0.0;
    const double recomputeAttn = c.recompute == Recompute::None ? 0.0 : 1.0;
    const double layerComputeFwd = gemmFwd + attnFwd;
    const double layerComputeBwd
        = 2.0 * (gemmFwd + attnFwd) + recomputeGemm * gemmFwd + recomputeAttn * attnFwd;

    // --- Memory-bound kernels: elements read + written per layer and microbatch -----------------
    // Norms (2 x read+write h), two bias-dropout-residual adds (read x and residual, write out,
    // write a 1-byte mask: 3.5 h each): 11 h per token, replicated across TP ranks unless
    // sequence parallel. QKV split/rotary: read+write the QKV width; activation function on the
    // MLP hidden (gated: read 2f, write f; else read and write f). Unfused attention: scale-mask-
    // softmax (read+write a·s) and dropout (read, write, 1-byte mask: 2.5 a·s).
    const double replicatedElems = tokens * 11.0 * h / spDivisor;
    const double shardedElems = tokens * 2.0 * shape.qkvWidth() / t
        + tokens * shape.topK * (shape.gatedMlp ? 3.0 : 2.0) * shape.ffn / t;
    const double softmaxElems = unfused ? tokens * 4.5 * shape.heads * s / t : 0.0;
    const double fwdMemBytes = (replicatedElems + shardedElems + softmaxElems) * activationBytes;
    const double softmaxBytes = softmaxElems * activationBytes;
    // Backward reads the saved tensors and the incoming gradient and writes the outgoing one:
    // about twice the forward traffic.
    const double layerMemFwd = fwdMemBytes / hbm;
    const double layerMemBwd = (2.0 * fwdMemBytes + recomputeGemm * fwdMemBytes
                                + (c.recompute == Recompute::Selective ? softmaxBytes : 0.0))
        / hbm;
    // Cross-entropy over fp32 logits: written and read in forward, read and written in backward.
    const double lossMem = 4.0 * tokens * shape.vocab / t * 4.0 / hbm;

    // --- Tensor-parallel collectives -----------------------------------------------------------
    const bool tpInDomain = c.tp <= m_cluster.scaleUpDomainGpus;
    const LinkLevel tpLink = tpInDomain
        ? m_cluster.scaleUpLink()
        : m_cluster.scaleOutLink((c.tp + m_cluster.gpusPerNode - 1) / m_cluster.gpusPerNode);
    const double tpMessage = tokens * h * activationBytes;
    const double tpOne = c.tp > 1 ? allReduceSeconds(tpMessage, c.tp, tpLink) : 0.0;
    // Two all-reduces (or reduce-scatter + all-gather with SP, the same volume) per layer in
    // forward, two in backward, two more when the forward is recomputed (Narayanan et al. §3.2).
    const double layerTpFwd = 2.0 * tpOne;
    const double layerTpBwd = (2.0 + 2.0 * recomputeGemm) * tpOne;

    // --- Context parallel: ring exchange of K and V, overlapped with attention -----------------
    double layerCpExposed = 0.0;
    if (c.cp > 1) {
        const int tpCp = c.tp * c.cp;
        const LinkLevel link = tpCp <= m_cluster.scaleUpDomainGpus
            ? m_cluster.scaleUpLink()
            : m_cluster.scaleOutLink((tpCp + m_cluster.gpusPerNode - 1) / m_cluster.gpusPerNode);
        const double kvBytes
            = 2.0 * c.microbatch * s * shape.kvHeads * shape.headDim / t * activationBytes;
        const double gather = allGatherSeconds(kvBytes, c.cp, link);
        layerCpExposed = std::max(0.0, gather - attnFwd)
            + std::max(0.0, 2.0 * gather - 2.0 * attnFwd)
            + recomputeAttn * std::max(0.0, gather - attnFwd);
    }

    // --- Expert parallel: dispatch and combine all-to-all --------------------------------------
    double layerEp = 0.0;
    if (shape.experts > 1 && c.ep > 1) {
        const int stride = c.tp * c.cp;
        const int localRanks = std::clamp(m_cluster.gpusPerNode / stride, 1, c.ep);
        const LinkLevel link = (c.ep <= localRanks && stride * c.ep <= m_cluster.scaleUpDomainGpus)
            ? m_cluster.scaleUpLink()
            : m_cluster.scaleOutLink(c.ep / localRanks);
        const double bytes = tokens * shape.topK * h * activationBytes / spDivisor;
        layerEp = (4.0 + 2.0 * recomputeGemm) * allToAllSeconds(bytes, c.ep, link);
    }

    // --- Pipeline point-to-point ----------------------------------------------------------------
    double p2pPerMicrobatch = 0.0;
    if (c.pp > 1) {
        const int stride = c.tp * c.cp * c.dp;
        const LinkLevel link
            = stride < m_cluster.gpusPerNode && stride * 2 <= m_cluster.scaleUpDomainGpus
            ? m_cluster.scaleUpLink()
            : m_cluster.scaleOutLink(2);
        // Scatter/gather optimisation: each TP rank sends 1/t of the activation (SC21 §4.1).
        const double bytes = tokens * h * activationBytes / t;
        p2pPerMicrobatch = 2.0 * v * pointToPointSeconds(bytes, link);
    }

    // --- Stage time per microbatch (the last stage also runs the logits and the loss) ---------
    const double layerFwd = layerComputeFwd + layerMemFwd + layerTpFwd;
    const double layerBwd = layerComputeBwd + layerMemBwd + layerTpBwd;
    const double logitCompute = 3.0 * logitFwd;
    const double stageFwd = layersPerStage * layerFwd + logitFwd;
    const double stageBwd = layersPerStage * layerBwd + 2.0 * logitFwd;
    const double stageMicro = stageFwd + stageBwd + layersPerStage * (layerCpExposed + layerEp)
        + lossMem + p2pPerMicrobatch;
    const double bubble = (p - 1.0) / v * stageMicro;

    // --- Parameters on the busiest stage -------------------------------------------------------
    const double denseLayer = shape.attentionParametersPerLayer() + 2.0 * h
        + (shape.experts > 1 ? h * shape.experts : 0.0);
    const double expertLayer = shape.experts * shape.expertParameters();
    const double embedding = (c.pp == 1 ? shape.embeddingParameters() : shape.vocab * h) / t;
    const double denseParams = denseLayer * layersPerStage / t + embedding;
    const double expertParams = expertLayer * layersPerStage / (t * e);
    const double paramsPerGpu = denseParams + expertParams;

    // --- Data-parallel gradient synchronisation
    // ---------------------------------------------------
    const int dpGroup = c.dp * c.cp; // gradients are reduced over data- and context-parallel ranks
    auto dpSync = [&](double bytes, int group) {
        if (group <= 1 || bytes <= 0)
            return 0.0;
        const int local = std::clamp(m_cluster.gpusPerNode / (c.tp), 1, group);
        const int nodes = std::max(1, group / local);
        return hierarchicalAllReduceSeconds(bytes, local, nodes, m_cluster.scaleUpLink(),
                                            m_cluster.scaleOutLink(nodes));
    };
    const double dpSeconds = dpSync(denseParams * gradientBytesPerParameter, dpGroup)
        + dpSync(expertParams * gradientBytesPerParameter, dpGroup / c.ep);
    double dpExposed = 0.0;
    double dpTotal = dpSeconds;
    if (c.zero < 3) {
        // Bucketed gradient reduction runs during the last microbatch's backward pass.
        dpExposed = std::max(0.0, dpSeconds - m_job.dpOverlapFraction * stageBwd);
    } else {
        // ZeRO-3 / FSDP gathers the weights before forward and backward of every microbatch and
        // reduce-scatters the gradients: 1.5x the volume of an all-reduce, per microbatch, hidden
        // behind that microbatch's compute where it can be.
        const double perMicrobatch = 1.5 * dpSeconds * (1.0 + 0.5 * recomputeGemm);
        dpTotal = perMicrobatch * microbatches;
        dpExposed = microbatches
            * std::max(0.0, perMicrobatch - m_job.dpOverlapFraction * (stageFwd + stageBwd));
    }

    // --- Optimizer step ----------------------------------------------------------------------
    const double optimizerShard = c.zero >= 1 ? dpGroup : 1.0;
    const double optimizerSeconds
        = paramsPerGpu / optimizerShard * optimizerTrafficBytesPerParameter / hbm;

    // --- Memory per GPU ------------------------------------------------------------------------
    MemoryBreakdown &mem = result.memory;
    const double shardDense = dpGroup, shardExpert = std::max(1, dpGroup / c.ep);
    auto sharded = [&](double bytesPerParameter, bool shard) {
        return bytesPerParameter
            * (shard ? denseParams / shardDense + expertParams / shardExpert : paramsPerGpu);
    };
    mem.weightsBytes = sharded(weightBytesPerParameter, c.zero >= 3);
    mem.gradientsBytes = sharded(gradientBytesPerParameter, c.zero >= 2);
    mem.optimizerBytes = sharded(optimizerBytesPerParameter, c.zero >= 1);
    // Activations, Korthikanti et al. 2022 eq. (1)-(5), generalised: per layer and microbatch,
    // 10·sbh replicated (norm inputs, block inputs, dropout masks; /t with SP), 2sbh (Q) +
    // 4·sb·kv·d (K, V) + 2sbh (projection input) + the MLP hidden (4sbf, gated 6sbf, times top-k)
    // sharded, and 5·a·s²·b for the unfused score matrix.
    const double actReplicated = 10.0 * tokens * h / spDivisor;
    const double actSharded = (4.0 * tokens * h + 4.0 * tokens * shape.kvHeads * shape.headDim
                               + shape.topK * (shape.gatedMlp ? 6.0 : 4.0) * tokens * shape.ffn)
        / t;
    const double actScores = unfused ? 5.0 * shape.heads * s * tokens / t : 0.0;
    const double actFullLayer = actReplicated + actSharded + actScores;
    double actPerLayer = actFullLayer;
    double actWorkingSet = 0.0;
    if (c.recompute == Recompute::Selective)
        actPerLayer = actReplicated + actSharded;
    else if (c.recompute == Recompute::Full) {
        actPerLayer = 2.0 * tokens * h / spDivisor; // only the layer input is kept
        actWorkingSet = actFullLayer; // one layer rebuilt at a time in backward
    }
    // 1F1B: the first stage holds min(p, m) microbatches of its L/p layers; interleaving adds
    // a factor 1 + (p-1)/(p·v) (Korthikanti et al. §4.2.3).
    const double inFlight = std::min(p, microbatches);
    const double interleaveFactor = c.interleave > 1 ? 1.0 + (p - 1.0) / (p * v) : 1.0;
    const double logitsBytes = 4.0 * tokens * shape.vocab / t; // fp32 logits for the loss
    mem.activationsBytes
        = layersPerStage * inFlight * interleaveFactor * actPerLayer + actWorkingSet + logitsBytes;
    mem.reservedBytes = m_job.reservedBytesPerGpu;
    result.fits = mem.totalBytes() <= gpu.memoryBytes;
    if (!result.fits)
        result.reason = "needs " + formatNumber("%.1f", mem.totalBytes() / units::gibi)
            + " GiB per GPU but " + gpu.name + " has "
            + formatNumber("%.1f", gpu.memoryBytes / units::gibi) + " GiB";

    // --- Step time and its breakdown -----------------------------------------------------------
    StepBreakdown &b = result.breakdown;
    const double m = microbatches;
    b.computeSeconds = m * (layersPerStage * (layerComputeFwd + layerComputeBwd) + logitCompute);
    b.memoryBoundSeconds = m * (layersPerStage * (layerMemFwd + layerMemBwd) + lossMem);
    b.tpCommSeconds = m * layersPerStage * (layerTpFwd + layerTpBwd);
    b.cpCommSeconds = m * layersPerStage * layerCpExposed;
    b.epCommSeconds = m * layersPerStage * layerEp;
    b.ppCommSeconds = m * p2pPerMicrobatch;
    b.bubbleSeconds = bubble;
    b.dpCommExposedSeconds = dpExposed;
    b.optimizerSeconds = optimizerSeconds;
    result.dpCommTotalSeconds = dpTotal;
    result.microbatchesPerStep = static_cast<int>(microbatches);

    result.stepSeconds = b.total();
    const double tokensPerStep = static_cast<double>(m_job.globalBatch) * s;
    result.tokensPerSecond = tokensPerStep / result.stepSeconds;

    // FLOPs per token, conventional counting (Megatron SC21): 3 passes of every layer and the
    // logits; recomputation adds what it repeats.
    const double layerFwdPerToken
        = shape.layerGemmFlopsPerToken() + shape.attentionCoreFlopsPerToken(s);
    const double modelFlopsPerToken
        = 3.0 * (shape.layers * layerFwdPerToken + shape.logitFlopsPerToken());
    const double recomputeFlopsPerToken = shape.layers
        * (recomputeGemm * shape.layerGemmFlopsPerToken()
           + recomputeAttn * shape.attentionCoreFlopsPerToken(s));
    const double gpus = m_cluster.gpus;
    result.modelFlopsPerSecondPerGpu
        = tokensPerStep * modelFlopsPerToken / (result.stepSeconds * gpus);
    result.hardwareFlopsPerSecondPerGpu = tokensPerStep
        * (modelFlopsPerToken + recomputeFlopsPerToken) / (result.stepSeconds * gpus);
    result.mfu = result.modelFlopsPerSecondPerGpu / peak;
    result.commExposedFraction = (b.tpCommSeconds + b.cpCommSeconds + b.epCommSeconds
                                  + b.ppCommSeconds + b.dpCommExposedSeconds)
        / result.stepSeconds;
    result.bubbleFraction = (p - 1.0) / (v * m);
    if (m_job.tokens > 0) {
        result.trainingSeconds = m_job.tokens / result.tokensPerSecond;
        result.gpuHours = result.trainingSeconds * gpus / units::secondsPerHour;
    }
    if (withExplanation)
        explain(result);
    return result;
}

void TrainingEstimator::explain(TrainingEstimate &r) const
{
    if (!r.fits) {
        r.bottleneck = "memory-capacity";
        r.bottleneckExplanation = "does not fit: " + r.reason
            + "; more model parallelism, ZeRO sharding or recomputation is needed";
        return;
    }
    const StepBreakdown &b = r.breakdown;
    const double step = r.stepSeconds;
    struct Candidate
    {
        const char *key;
        double seconds;
    };
    const Candidate overheads[] = {
        {"data-parallel", b.dpCommExposedSeconds},  {"tensor-parallel", b.tpCommSeconds},
        {"pipeline-bubble", b.bubbleSeconds},       {"pipeline-p2p", b.ppCommSeconds},
        {"memory-bandwidth", b.memoryBoundSeconds}, {"expert-parallel", b.epCommSeconds},
        {"context-parallel", b.cpCommSeconds},      {"optimizer", b.optimizerSeconds},
    };
    const Candidate *worst = &overheads[0];
    for (const Candidate &candidate : overheads) {
        if (candidate.seconds > worst->seconds)
            worst = &candidate;
    }
    const double share = worst->seconds / step;
    // An overhead is "the bottleneck" once it costs more than a sixth of the step; below that the
    // GEMMs themselves dominate and faster compute is what would help.
    if (share < 1.0 / 6.0) {
        r.bottleneck = "compute";
        r.bottleneckExplanation = "compute-bound: GEMMs and attention take "
            + percent(b.computeSeconds / step) + " of each step at an MFU of " + percent(r.mfu)
            + "; exposed communication is " + percent(r.commExposedFraction);
        return;
    }
    r.bottleneck = worst->key;
    const std::string key = worst->key;
    const std::string pct = percent(share);
    if (key == "data-parallel")
        r.bottleneckExplanation = "exposed data-parallel gradient sync on the "
            + m_cluster.fabricName + " takes " + pct + " of each step ("
            + formatNumber("%.3g", r.dpCommTotalSeconds)
            + " s of collectives, DP=" + std::to_string(r.config.dp) + ")";
    else if (key == "tensor-parallel")
        r.bottleneckExplanation = "tensor-parallel all-reduces (TP=" + std::to_string(r.config.tp)
            + ") over "
            + (r.config.tp <= m_cluster.scaleUpDomainGpus ? m_cluster.gpu.scaleUpName
                                                          : m_cluster.nicName)
            + " take " + pct + " of each step";
    else if (key == "pipeline-bubble")
        r.bottleneckExplanation = "the pipeline bubble (p-1)/(v*m) = "
            + formatNumber("%.2f", r.bubbleFraction) + " takes " + pct
            + " of each step; more microbatches or an interleaved " + "schedule would shrink it";
    else if (key == "pipeline-p2p")
        r.bottleneckExplanation = "pipeline point-to-point sends take " + pct + " of each step";
    else if (key == "memory-bandwidth")
        r.bottleneckExplanation = "memory-bound kernels (norms, activations, softmax) take " + pct
            + " of each step: HBM bandwidth, not tensor throughput, limits them";
    else if (key == "expert-parallel")
        r.bottleneckExplanation = "expert-parallel all-to-all (EP=" + std::to_string(r.config.ep)
            + ") takes " + pct + " of each step";
    else if (key == "context-parallel")
        r.bottleneckExplanation
            = "context-parallel KV exchange not hidden by attention takes " + pct + " of each step";
    else
        r.bottleneckExplanation
            = "the optimizer update (memory-bound Adam) takes " + pct + " of each step";
}

TrainingSearchResult TrainingEstimator::search(const std::atomic<bool> *cancel) const
{
    TrainingSearchResult result;
    const ParallelismConstraints &k = m_job.constraints;
    const ModelSpec &model = m_job.model;
    const int gpus = m_cluster.gpus;

    auto options = [](const std::optional<int> &fixed, std::vector<int> all) {
        return fixed ? std::vector<int> {*fixed} : all;
    };
    const int tpLimit = m_job.allowTpAcrossNodes ? gpus : m_cluster.scaleUpDomainGpus;
    std::vector<int> tps;
    for (int tp : divisorsOf(gpus, std::min(tpLimit, model.heads))) {
        if (model.heads % tp == 0)
            tps.push_back(tp);
    }
    const std::vector<int> tpOptions = options(k.tp, tps);
    std::vector<int> cps = {1};
    for (int cp = 2; cp <= 32; cp *= 2) {
        if (m_job.seqLen % (2 * cp) == 0 && m_job.seqLen / cp >= 1024)
            cps.push_back(cp);
    }
    const std::vector<int> cpOptions = options(k.cp, cps);
    const std::vector<int> ppOptions = options(k.pp, divisorsOf(gpus, model.layers));
    const std::vector<Recompute> recomputeOptions = k.recompute
        ? std::vector<Recompute> {*k.recompute}
        : std::vector<Recompute> {Recompute::None, Recompute::Selective, Recompute::Full};
    const std::vector<int> zeroOptions = options(k.zero, {0, 1, 2, 3});

    double smallestMemory = 1e300;
    std::string firstInvalidReason;
    auto consider = [&](const ParallelConfig &config) {
        ++result.evaluated;
        TrainingEstimate estimate = evaluate(config, false);
        if (!estimate.valid) {
            if (firstInvalidReason.empty())
                firstInvalidReason = estimate.reason;
            return;
        }
        if (!estimate.fits) {
            smallestMemory = std::min(smallestMemory, estimate.memory.totalBytes());
            return;
        }
        auto position = std::upper_bound(result.top.begin(), result.top.end(), estimate,
                                         [](const TrainingEstimate &a, const TrainingEstimate &b) {
                                             return a.stepSeconds < b.stepSeconds;
                                         });
        if (position - result.top.begin() < 10) {
            result.top.insert(position, std::move(estimate));
            if (result.top.size() > 10)
                result.top.pop_back();
        }
    };

    for (int tp : tpOptions) {
        for (int cp : cpOptions) {
            for (int pp : ppOptions) {
                if (cancel && cancel->load())
                    break;
                const long long modelParallel = 1LL * tp * cp * pp;
                if (gpus % modelParallel != 0)
                    continue;
                const int dp = static_cast<int>(gpus / modelParallel);
                if (k.dp && *k.dp != dp)
                    continue;
                if (m_job.globalBatch % dp != 0)
                    continue;
                std::vector<int> eps = {1};
                if (model.isMoe())
                    eps = divisorsOf(std::gcd(model.experts, dp * cp), model.experts);
                std::vector<int> microbatches;
                for (int mb : divisorsOf(m_job.globalBatch / dp, 64))
                    microbatches.push_back(mb);
                std::vector<int> interleaves = {1};
                if (pp > 1) {
                    for (int v = 2; v <= 8 && pp * v <= model.layers; ++v)
                        interleaves.push_back(v);
                }
                for (int ep : options(k.ep, eps)) {
                    for (int mb : options(k.microbatch, microbatches)) {
                        for (int v : options(k.interleave, interleaves)) {
                            for (Recompute recompute : recomputeOptions) {
                                for (int zero : zeroOptions) {
                                    ParallelConfig config;
                                    config.tp = tp;
                                    config.pp = pp;
                                    config.dp = dp;
                                    config.cp = cp;
                                    config.ep = ep;
                                    config.microbatch = mb;
                                    config.interleave = v;
                                    config.recompute = recompute;
                                    config.zero = zero;
                                    config.sequenceParallel = m_job.sequenceParallel;
                                    consider(config);
                                }
                            }
                        }
                    }
                }
            }
        }
    }

    for (TrainingEstimate &estimate : result.top)
        explain(estimate);
    if (!result.top.empty()) {
        result.found = true;
        result.best = result.top.front();
        // Memory headroom as a user sees it: how far the microbatch could grow with this layout.
        ParallelConfig probe = result.best.config;
        const int perReplica = m_job.globalBatch / probe.dp;
        for (int mb : divisorsOf(perReplica, perReplica)) {
            probe.microbatch = mb;
            const TrainingEstimate e = evaluate(probe, false);
            if (e.valid && e.fits)
                result.largestFittingMicrobatch = mb;
        }
    } else if (smallestMemory < 1e300) {
        result.reason = "no layout fits in memory: the smallest needs "
            + formatNumber("%.1f", smallestMemory / units::gibi) + " GiB per GPU but "
            + m_cluster.gpu.name + " has "
            + formatNumber("%.1f", m_cluster.gpu.memoryBytes / units::gibi) + " GiB";
    } else {
        result.reason = "no valid layout: "
            + (firstInvalidReason.empty() ? std::string("the constraints leave no combination")
                                          : firstInvalidReason);
    }
    return result;
}

} // namespace cp::model
