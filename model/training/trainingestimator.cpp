// SPDX-License-Identifier: GPL-3.0-or-later
#include "model/training/trainingestimator.h"

#include "model/core/humantext.h"
#include "model/core/units.h"
#include "model/training/trainingstep.h"
#include "model/training/transformershape.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdio>
#include <numeric>

namespace cp::model {

namespace {

/**
 * Bytes per parameter held for mixed-precision Adam: 2 (16-bit weights) + the gradient (2 B, or
 * 4 where the framework accumulates in fp32: gradientBytesPerParameter) + 12 (fp32 master
 * weights, momentum, variance). Rajbhandari et al., "ZeRO", SC20, §3.1 (K = 12).
 */
constexpr double weightBytesPerParameter = 2.0;
constexpr double optimizerBytesPerParameter = 12.0;

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

std::string operationKindName(OperationKind kind)
{
    switch (kind) {
    case OperationKind::Gemm:
        return "GEMM";
    case OperationKind::Attention:
        return "attention";
    case OperationKind::MemoryBound:
        return "memory-bound";
    case OperationKind::TensorParallel:
        return "tensor-parallel";
    case OperationKind::ContextParallel:
        return "context-parallel";
    case OperationKind::ExpertParallel:
        return "expert-parallel";
    case OperationKind::PipelineSend:
        return "pipeline send";
    case OperationKind::PipelineBubble:
        return "pipeline bubble";
    case OperationKind::DataParallel:
        return "data-parallel";
    case OperationKind::Optimizer:
        return "optimizer";
    case OperationKind::HostOffload:
        return "host offload";
    }
    return "GEMM";
}

const std::vector<ParallelismDimension> &parallelismDimensions()
{
    using C = ParallelismConstraints;
    static const std::vector<ParallelismDimension> dimensions {
        {"tp", 1, 1 << 20, &C::tp},
        {"pp", 1, 1 << 20, &C::pp},
        {"dp", 1, 1 << 24, &C::dp},
        {"cp", 1, 1 << 20, &C::cp},
        {"ep", 1, 1 << 20, &C::ep},
        {"etp", 1, 1 << 20, &C::etp},
        {"microbatch", 1, 1 << 20, &C::microbatch},
        {"interleave", 1, 1 << 10, &C::interleave},
        {"first_stage_layers", 1, 1 << 20, &C::firstStageLayers},
        {"last_stage_layers", 1, 1 << 20, &C::lastStageLayers},
        {"zero", 0, 3, &C::zero},
    };
    return dimensions;
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

std::string unevenStagesText(const ParallelConfig &c)
{
    const int first = c.firstStageLayers, last = c.lastStageLayers;
    const auto layers = [](int count) {
        return std::to_string(count) + (count == 1 ? " layer" : " layers");
    };
    if (first > 0 && last > 0)
        return layers(first) + " on the first stage and " + std::to_string(last) + " on the last";
    if (first > 0)
        return layers(first) + " on the first stage";
    if (last > 0)
        return layers(last) + " on the last stage";
    return {};
}

namespace {

std::string upperCase(std::string text)
{
    for (char &c : text)
        c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
    return text;
}

} // namespace

std::string mfuConventionNote(const TrainingEstimate &e)
{
    if (!(e.mfu > 0))
        return {};
    std::string note;
    // An FP8 run's MFU is of the FP8 peak, twice the BF16 figure a plan's hardware lists: a
    // reader dividing by the BF16 peak gets twice the MFU shown.
    if (e.mfuPrecision != Precision::BF16 && e.mfuPrecision != Precision::FP16)
        note = "of the dense " + upperCase(precisionName(e.mfuPrecision)) + " peak, "
            + groupThousands(std::to_string(std::llround(e.mfuPeakFlopsPerSecond / 1e12)))
            + " TFLOP/s a GPU";
    const double executedShare = e.executedModelFlopsShare;
    if (executedShare < 0.9)
        note += (note.empty() ? "" : "; ")
            + std::string("attention counted over the whole sequence (PaLM's and Megatron's "
                          "convention); the causal kernels execute ")
            + percentText(executedShare, 0) + " of those FLOPs, "
            + percentText(executedShare * e.mfu) + " of the peak";
    return note;
}

std::string hardwareBelowModelNote(const TrainingEstimate &e)
{
    if (!(e.hardwareFlopsPerSecondPerGpu < e.modelFlopsPerSecondPerGpu))
        return {};
    return "below the model figure: the model count takes attention over the whole sequence "
           "(PaLM's and Megatron's convention), while the causal kernels run about half of it; "
           "recompute, when there is any, is counted in the hardware figure only";
}

std::string layoutDescription(const ParallelConfig &c)
{
    std::string text = "TP " + std::to_string(c.tp) + " x PP " + std::to_string(c.pp) + " x DP "
        + std::to_string(c.dp);
    if (c.cp > 1)
        text += " x CP " + std::to_string(c.cp);
    if (c.ep > 1)
        text += ", EP " + std::to_string(c.ep);
    if (c.ep > 1 && c.tp > 1)
        text += " x ETP " + std::to_string(expertTensorParallel(c));
    text += ", microbatch " + std::to_string(c.microbatch);
    if (c.interleave > 1)
        text += ", interleave " + std::to_string(c.interleave);
    if (hasUnevenStages(c))
        text += ", " + unevenStagesText(c);
    return text + ", recompute " + recomputeDescription(c) + ", ZeRO-" + std::to_string(c.zero);
}

std::string recomputeDescription(const ParallelConfig &config)
{
    if (config.recompute != Recompute::Selective || config.recomputeModules == RecomputeModules {})
        return recomputeName(config.recompute);
    std::string list;
    for (const std::string &name : recomputeModuleNames(config.recomputeModules))
        list += (list.empty() ? "" : ", ") + name;
    return "selective (" + list + ")";
}

TrainingEstimator::TrainingEstimator(const TrainingJob &job, const ClusterDescription &cluster)
    : m_job(job)
    , m_cluster(cluster)
    , m_shape(TransformerShape::fromModel(job.model))
    , m_peakFlopsPerSecond(cluster.gpu.peakFlopsPerSecond(job.precision))
{ }

namespace {

/**
 * The reason a rule gives, or a placeholder: the search rejects most layouts it tries and needs
 * no sentence for them, and building one (to_string and concatenation) took more time than the
 * arithmetic of a valid layout.
 */
template<typename Message> std::string rejection(bool withReason, const Message &message)
{
    return withReason ? std::string(message()) : std::string("rejected");
}

/**
 * Megatron gives every virtual stage at least one layer, except that with a pipeline the
 * embedding and the loss may each take a layer's place (Megatron-Core's
 * --account-for-embedding-in-pipeline-split and --account-for-loss-in-pipeline-split; Llama 3
 * 405B, "The Llama 3 Herd of Models" §3.3.2: the first chunk of the first stage holds only the
 * embedding, the last chunk of the last stage only the output projection and the loss).
 */
bool layersFillVirtualStages(const ModelSpec &model, const ParallelConfig &c)
{
    const long long chunks = 1LL * c.pp * c.interleave;
    const long long embeddingAndLoss = c.pp > 1 ? 2 : 0;
    return model.layers + embeddingAndLoss >= chunks;
}

/** Megatron's interleaved schedule needs the microbatches (the batch over DP x microbatch, which
 * checkSchedule requires whole) to be a multiple of PP. */
bool interleavedScheduleRuns(int globalBatch, const ParallelConfig &c)
{
    if (c.interleave <= 1)
        return true;
    const long long perStep = 1LL * c.dp * c.microbatch;
    return globalBatch % perStep == 0 && (globalBatch / perStep) % c.pp == 0;
}

} // namespace

std::string TrainingEstimator::validate(const ParallelConfig &c, bool withReason) const
{
    if (m_peakFlopsPerSecond <= 0)
        return rejection(withReason, [&] {
            return std::string(m_cluster.gpu.name + " has no " + precisionName(m_job.precision)
                               + " tensor throughput");
        });
    std::string reason = checkDegrees(c, withReason);
    if (reason.empty())
        reason = checkModelSplit(c, withReason);
    if (reason.empty())
        reason = checkSchedule(c, withReason);
    if (reason.empty() && c.ep > 1)
        reason = checkExperts(c, withReason);
    if (reason.empty() && c.etp > 0)
        reason = checkExpertTensorParallel(c, withReason);
    if (reason.empty() && c.recompute == Recompute::Selective)
        reason = checkRecomputeModules(c, withReason);
    return reason;
}

/** Megatron-Core refuses moe_act without grouped GEMMs and mla_up_proj without latent attention
 * (TransformerConfig.__post_init__); a module the model does not have would repeat nothing. */
std::string TrainingEstimator::checkRecomputeModules(const ParallelConfig &c, bool withReason) const
{
    const RecomputeModules modules = c.recomputeModules;
    if (modules.bits == 0)
        return rejection(withReason, [&] {
            return std::string("selective recomputation needs at least one module");
        });
    const char *missing = nullptr;
    if (modules.contains(RecomputeModule::MoeActivation) && m_shape.experts <= 1)
        missing = "moe_act recomputes the experts' activation, and the model has no experts";
    else if (modules.contains(RecomputeModule::LatentUpProjection) && !m_shape.latentAttention())
        missing = "mla_up_proj recomputes latent attention's up-projections, and the model has "
                  "no latent attention";
    else if (modules.contains(RecomputeModule::DenseMlp) && m_shape.experts > 1
             && m_shape.denseMlpLayerShare() <= 0)
        missing = "mlp recomputes a dense layer's MLP, and every layer of the model is a "
                  "mixture of experts";
    if (!missing)
        return {};
    return rejection(withReason, [&] { return std::string(missing); });
}

std::string TrainingEstimator::checkDegrees(const ParallelConfig &c, bool withReason) const
{
    if (c.tp < 1 || c.pp < 1 || c.dp < 1 || c.cp < 1 || c.ep < 1 || c.microbatch < 1
        || c.interleave < 1)
        return rejection(withReason, [&] {
            return std::string("every parallel degree and the microbatch must be at least 1");
        });
    if (c.zero < 0 || c.zero > 3)
        return rejection(withReason,
                         [&] { return std::string("ZeRO stage must be 0, 1, 2 or 3"); });
    const long long product = 1LL * c.tp * c.pp * c.dp * c.cp;
    if (product != m_cluster.gpus)
        return rejection(withReason, [&] {
            return std::string("TP x PP x DP x CP = " + std::to_string(c.tp) + " x "
                               + std::to_string(c.pp) + " x " + std::to_string(c.dp) + " x "
                               + std::to_string(c.cp) + " = " + std::to_string(product)
                               + ", but the cluster has " + std::to_string(m_cluster.gpus)
                               + " GPUs");
        });
    if (m_cluster.buildings > 1) {
        // Stages are the outermost rank dimension: they must fill whole buildings, or a building
        // hold whole stages, so that no group but data parallelism (and the pipeline sends)
        // crosses the interconnect.
        const long long stage = pipelineStageGpus(c);
        const long long building = std::max(1, m_cluster.gpusPerBuilding());
        if (stage % building != 0 && building % stage != 0)
            return rejection(withReason, [&] {
                return "a pipeline stage's " + std::to_string(stage)
                    + " GPUs neither fill whole buildings of " + std::to_string(building)
                    + " GPUs nor divide one";
            });
    }
    return {};
}

std::string TrainingEstimator::checkModelSplit(const ParallelConfig &c, bool withReason) const
{
    const ModelSpec &model = m_job.model;
    if (model.heads % c.tp != 0)
        return rejection(withReason, [&] {
            return std::string("the model's " + std::to_string(model.heads)
                               + " attention heads are not divisible by TP="
                               + std::to_string(c.tp));
        });
    if (model.kvHeads % c.tp != 0 && c.tp % model.kvHeads != 0)
        return rejection(withReason, [&] {
            return std::string("the model's " + std::to_string(model.kvHeads)
                               + " KV heads cannot be split over TP=" + std::to_string(c.tp));
        });
    if (c.tp > m_cluster.scaleUpDomainGpus && !m_job.allowTpAcrossNodes)
        return rejection(withReason, [&] {
            return std::string("TP=" + std::to_string(c.tp) + " exceeds the "
                               + std::to_string(m_cluster.scaleUpDomainGpus)
                               + "-GPU scale-up (NVLink/PCIe) domain; tensor parallelism across "
                                 "the network is not allowed");
        });
    if (hasUnevenStages(c)) {
        const std::string split = checkUnevenStages(c);
        if (!split.empty())
            return rejection(withReason, [&] { return split; });
    }
    if (!layersFillVirtualStages(model, c))
        return rejection(withReason, [&] {
            return std::string(
                std::to_string(model.layers) + " layers cannot fill PP=" + std::to_string(c.pp)
                + (c.interleave > 1 ? " x " + std::to_string(c.interleave) + " virtual"
                                    : std::string())
                + " stages");
        });
    return {};
}

/**
 * A first or last stage of its own size needs a pipeline, and leaves the other stages at least
 * one layer each; with both given on two stages they are the whole model (Megatron-Core checks
 * the same when it builds the stages: transformer_block.get_num_layers_to_build).
 */
std::string TrainingEstimator::checkUnevenStages(const ParallelConfig &c) const
{
    const int layers = m_job.model.layers;
    if (c.pp < 2)
        return "a first or last stage's layer count needs pipeline parallelism (PP > 1)";
    const long long given = 1LL * c.firstStageLayers + c.lastStageLayers;
    const int shared = c.pp - (c.firstStageLayers > 0 ? 1 : 0) - (c.lastStageLayers > 0 ? 1 : 0);
    if (shared == 0 && given != layers)
        return "the first and last stages are the whole pipeline: their " + std::to_string(given)
            + " layers must be the model's " + std::to_string(layers);
    if (shared > 0 && layers - given < shared)
        return "the first and last stages' " + std::to_string(given) + " layers leave "
            + std::to_string(std::max(0LL, layers - given)) + " of the model's "
            + std::to_string(layers) + " for the other " + std::to_string(shared)
            + (shared == 1 ? " stage" : " stages") + ", fewer than one each";
    return {};
}

std::string TrainingEstimator::checkSchedule(const ParallelConfig &c, bool withReason) const
{
    if (c.interleave > 1 && c.pp == 1)
        return rejection(withReason, [&] {
            return std::string("an interleaved schedule needs pipeline parallelism (PP > 1)");
        });
    if (m_job.globalBatch % (c.dp * c.microbatch) != 0)
        return rejection(withReason, [&] {
            return std::string("global batch " + std::to_string(m_job.globalBatch)
                               + " is not divisible by DP x microbatch = "
                               + std::to_string(c.dp * c.microbatch));
        });
    const int microbatches = m_job.globalBatch / (c.dp * c.microbatch);
    if (!interleavedScheduleRuns(m_job.globalBatch, c))
        return rejection(withReason, [&] {
            return std::string("the interleaved schedule needs the number of microbatches ("
                               + std::to_string(microbatches)
                               + ") to be a multiple of PP=" + std::to_string(c.pp));
        });
    if (c.cp > 1 && m_job.seqLen % (2 * c.cp) != 0)
        return rejection(withReason, [&] {
            return std::string("sequence length " + std::to_string(m_job.seqLen)
                               + " is not divisible by 2 x CP (load-balanced context parallelism)");
        });
    return checkActivationOffload(c, withReason);
}

/**
 * Megatron-Core's CPU offloading (transformer_config.py, TransformerConfig.__post_init__): no
 * pipeline parallelism, no recomputation, fewer offloaded layers than the model has; and the GPU
 * needs a link to its host.
 */
std::string TrainingEstimator::checkActivationOffload(const ParallelConfig &c,
                                                      bool withReason) const
{
    const int offloaded = m_job.activationOffloadLayers;
    if (offloaded <= 0)
        return {};
    if (c.pp > 1)
        return rejection(withReason, [&] {
            return std::string("activation offloading to the host needs PP=1 (Megatron-Core has "
                               "no CPU offloading with pipeline parallelism)");
        });
    if (c.recompute != Recompute::None)
        return rejection(withReason, [&] {
            return std::string("activation offloading to the host does not work with "
                               "recomputation (Megatron-Core)");
        });
    if (offloaded >= m_job.model.layers)
        return rejection(withReason, [&] {
            return std::string("only fewer than the model's " + std::to_string(m_job.model.layers)
                               + " layers can be offloaded, not " + std::to_string(offloaded));
        });
    if (m_cluster.gpu.hostLinkBytesPerSecond <= 0)
        return rejection(withReason, [&] {
            return std::string("activation offloading needs the GPU's host link "
                               "(host_link_gb_per_s), which the catalog does not give for "
                               + m_cluster.gpu.name);
        });
    return {};
}

std::string TrainingEstimator::checkExperts(const ParallelConfig &c, bool withReason) const
{
    const ModelSpec &model = m_job.model;
    if (!model.isMoe())
        return rejection(withReason, [&] {
            return std::string("expert parallelism needs a mixture-of-experts model");
        });
    if (model.experts % c.ep != 0)
        return rejection(withReason, [&] {
            return std::string(std::to_string(model.experts)
                               + " experts are not divisible by EP=" + std::to_string(c.ep));
        });
    if ((1LL * c.dp * c.cp * c.tp) % c.ep != 0)
        return rejection(withReason, [&] {
            return std::string("EP=" + std::to_string(c.ep) + " must divide TP x DP x CP = "
                               + std::to_string(1LL * c.dp * c.cp * c.tp));
        });
    return {};
}

/** The estimate splits experts over all of TP or none of it; split over TP, the expert groups
 * repeat across the TP ranks, so EP must divide DP x CP. A dense model has no experts to split. */
std::string TrainingEstimator::checkExpertTensorParallel(const ParallelConfig &c,
                                                         bool withReason) const
{
    if (!m_job.model.isMoe())
        return rejection(withReason, [&] {
            return std::string("expert tensor parallelism needs a mixture-of-experts model");
        });
    if (c.etp != 1 && c.etp != c.tp)
        return rejection(withReason, [&] {
            return "expert tensor parallelism must be 1 or TP (" + std::to_string(c.tp) + "), not "
                + std::to_string(c.etp);
        });
    if (c.etp > 1 && (1LL * c.dp * c.cp) % c.ep != 0)
        return rejection(withReason, [&] {
            return "with the experts split over TP, EP=" + std::to_string(c.ep)
                + " must divide DP x CP = " + std::to_string(1LL * c.dp * c.cp);
        });
    return {};
}

TrainingEstimate TrainingEstimator::estimate(const ParallelConfig &config) const
{
    return evaluate(config, EvaluateMode::Explained);
}

/**
 * Memory per GPU on the fullest pipeline stage: the first (the one with the most activations in
 * flight), or the last when multi-token prediction's blocks there outweigh that, or, when the
 * first or last stage holds fewer layers (ParallelConfig::firstStageLayers, lastStageLayers), the
 * second, with almost as many in flight and more layers (stageMemory).
 */
MemoryBreakdown TrainingEstimator::estimateMemory(const ParallelConfig &c) const
{
    MemoryBreakdown fullest = stageMemory(c, PipelineEnd::First);
    if (c.pp <= 1)
        return fullest; // one stage holds everything
    const bool uneven = hasUnevenStages(c);
    std::vector<PipelineEnd> others;
    if (m_shape.mtpLayers > 0 || uneven)
        others.push_back(PipelineEnd::Last);
    if (uneven && c.pp >= 3)
        others.push_back(PipelineEnd::Middle);
    for (PipelineEnd end : others) {
        const MemoryBreakdown stage = stageMemory(c, end);
        if (stage.totalBytes() > fullest.totalBytes())
            fullest = stage;
    }
    return fullest;
}

/**
 * Memory per GPU on the first, the second or the last pipeline stage (one at PP = 1). Model
 * states follow ZeRO (Rajbhandari et al. SC20 §5), activations Korthikanti et al. 2022 eq. (1)-(5)
 * generalised to GQA, gated MLPs and MoE (layerActivations); the framework adds its CUDA context,
 * NCCL buffers and the caching allocator's fragmentation of the activation memory.
 */
MemoryBreakdown TrainingEstimator::stageMemory(const ParallelConfig &c, PipelineEnd end) const
{
    const TransformerShape &shape = m_shape;
    const double t = c.tp, p = c.pp, v = c.interleave;
    const double tokens = c.microbatch * m_job.seqLen / c.cp;
    const double layersPerStage = stageLayers(shape, c, end);
    const double microbatches = static_cast<double>(m_job.globalBatch) / (c.dp * c.microbatch);
    const TrainingFramework &framework = m_job.framework;

    const StageParameters parameters = stageParameters(m_shape, c, end);
    const double dense = parameters.dense, expertParams = parameters.expert;
    const double paramsPerGpu = parameters.total();
    const int expertTp = expertTensorParallel(c);

    MemoryBreakdown mem;
    const double dpGroup = c.dp * c.cp;
    const double shardExpert = std::max(1, (c.dp * c.cp * c.tp) / (c.ep * expertTp));
    auto sharded = [&](double bytesPerParameter, bool shard) {
        return bytesPerParameter
            * (shard ? dense / dpGroup + expertParams / shardExpert : paramsPerGpu);
    };
    mem.weightsBytes = sharded(weightBytesPerParameter, c.zero >= 3);
    mem.gradientsBytes
        = sharded(gradientBytesPerParameter(framework, m_job.precision), c.zero >= 2);
    mem.optimizerBytes = sharded(optimizerBytesPerParameter, c.zero >= 1);

    const LayerActivations layer = layerActivations(c);
    // 1F1B: the first stage holds min(p, m) microbatches of its L/p layers; interleaving adds a
    // factor 1 + (p-1)/(p·v) (Korthikanti et al. §4.2.3). The last stage holds one; interleaved,
    // it warms up (v-1)·p chunks of L/(p·v) layers before its first backward (Megatron-Core's
    // interleaved schedule, get_pp_rank_microbatches): ((v-1)·p + 1) / v microbatches.
    // The second stage (the middle one whose memory counts) warms up one microbatch fewer than
    // the first.
    const double interleaveFactor = c.interleave > 1 ? 1.0 + (p - 1.0) / (p * v) : 1.0;
    const double inFlight = end == PipelineEnd::First ? std::min(p, microbatches) * interleaveFactor
        : end == PipelineEnd::Middle ? std::min(p - 1.0, microbatches) * interleaveFactor
                                     : std::min(microbatches, ((v - 1.0) * p + 1.0) / v);
    // Each multi-token prediction block is a layer more on the last stage, with logits and a
    // loss of its own (DeepSeek-AI, "DeepSeek-V3 Technical Report", 2024, §2.2).
    const double mtpBlocks = mtpBlocksOnStage(shape, c, end);
    const double logitsBytes = 4.0 * tokens * shape.vocab / t; // fp32 logits for the loss
    // Offloaded layers keep nothing on the GPU (Transformer Engine's CPU offload holds
    // (layers - offloaded) layers' activations; it runs only at PP = 1, one microbatch in flight).
    const double residentLayers = layersPerStage + mtpBlocks - m_job.activationOffloadLayers;
    mem.activationBytesPerLayer = layer.keptBytes;
    mem.activationsBytes = residentLayers * inFlight * layer.keptBytes + layer.workingSetBytes
        + outputHeadsOnStage(shape, c, end) * logitsBytes;
    mem.reservedBytes = framework.cudaContextBytes + framework.ncclBufferBytes
        + framework.allocatorFragmentationFraction * mem.activationsBytes;
    if (c.zero >= 3) // the gathered weights of the layer in use and of the one prefetched
        mem.reservedBytes
            += 2.0 * weightBytesPerParameter * paramsPerGpu / (layersPerStage + mtpBlocks);
    return mem;
}

/**
 * What one layer keeps of one microbatch for its backward pass, per GPU, and what recomputation
 * rebuilds at a time. Per token (Korthikanti et al. §4.1): replicated (/t with SP) the two
 * norms' inputs (2h + 2h), the QKV and MLP inputs the norms produce (2h + 2h) and, where the
 * model drops out hidden states, two 1-byte masks (h + h: at probability 0 PyTorch's dropout
 * returns its input and keeps none); sharded Q (2h), K and V (4·kv·d), the projection input (2h)
 * and per expert a token passes the MLP's up-projection output (2f, gated 4f) and
 * down-projection input (2f); and 5·a·s²·b for the unfused score matrix. Transformer Engine keeps
 * an FP8 GEMM's input for the weight gradient in 8 bits, its column-wise copy only
 * (module/linear.py: "Discard row-wise data since it is not needed in backward pass"), except
 * that a norm-fused GEMM under sequence parallelism keeps the row-wise copy too, to all-gather it
 * again in backward (module/layernorm_linear.py): 2 bytes there, 1 for a norm output without SP
 * and for the down-projection input, which replaces the 16-bit activation output. The
 * projection's FP8 input is a copy beside the 16-bit attention output the fused attention keeps
 * for its own backward: 1 byte more.
 */
TrainingEstimator::LayerActivations
TrainingEstimator::layerActivations(const ParallelConfig &c) const
{
    const TransformerShape &shape = m_shape;
    const double t = c.tp;
    const double s = m_job.seqLen;
    const double h = shape.hidden;
    const double tokens = c.microbatch * s / c.cp;
    const bool unfused = m_job.framework.attention == AttentionKernel::Unfused;
    const bool sequenceParallel = c.sequenceParallel && c.tp > 1;
    const double spDivisor = sequenceParallel ? t : 1.0;
    const bool fp8 = m_job.precision == Precision::FP8;
    const double normOutputBytes = fp8 && !sequenceParallel ? 1.0 : 2.0;
    const double maskBytes = shape.hiddenDropoutMasks ? 2.0 : 0.0;
    const double actReplicated = (4.0 + 2.0 * normOutputBytes + maskBytes) * tokens * h / spDivisor;
    const double mlpBytesPerUnit = (shape.gatedMlp ? 4.0 : 2.0) + (fp8 ? 1.0 : 2.0);
    const double projectionInputBytes = fp8 ? 3.0 : 2.0;
    // MLP hidden units a token's activations span in the average layer: its experts' in an MoE
    // layer (sized for the capacity factor), the dense MLP's in a dense one.
    const double mlpUnits = shape.experts > 1
        ? shape.moeLayerShare() * shape.expertsPerToken() * shape.ffn * m_job.moeCapacityFactor
            + shape.denseMlpLayerShare() * shape.denseFfn
        : shape.expertsPerToken() * shape.ffn;
    // The attention keeps its queries, keys and values (2 B each) and the output projection's
    // input; latent attention also keeps the latents its up-projections read.
    const double attentionBytesPerToken = shape.latentAttention()
        ? 2.0 * (shape.queryWidth() + shape.kvWidth() + shape.kvLoraRank + shape.qLoraRank)
            + projectionInputBytes * shape.valueWidth()
        : (2.0 + projectionInputBytes) * h + 4.0 * shape.kvHeads * shape.headDim;
    const double actSharded
        = (attentionBytesPerToken * tokens + mlpBytesPerUnit * tokens * mlpUnits) / t;
    const double actScores = unfused ? 5.0 * shape.heads * s * tokens / t : 0.0;
    const double actFullLayer = actReplicated + actSharded + actScores;
    LayerActivations layer {actFullLayer, 0.0};
    if (c.recompute == Recompute::Selective) {
        // What each module's checkpoint drops (the terms above): core attention its score
        // matrix (nothing under a fused kernel, which keeps no scores); the norms their outputs;
        // the MoE activation its output, the routed experts' down-projection input; a dense MLP
        // its inner activations (its input is the norm output, kept); the latent up-projections
        // the queries, keys and values (the latents they read stay).
        const RecomputeModules modules = c.recomputeModules;
        double dropped = 0.0;
        if (modules.contains(RecomputeModule::CoreAttention))
            dropped += actScores;
        if (modules.contains(RecomputeModule::LayerNorm))
            dropped += 2.0 * normOutputBytes * tokens * h / spDivisor;
        if (modules.contains(RecomputeModule::MoeActivation))
            dropped += (fp8 ? 1.0 : 2.0) * tokens * shape.moeLayerShare() * shape.topK * shape.ffn
                * m_job.moeCapacityFactor / t;
        if (modules.contains(RecomputeModule::DenseMlp)) {
            const double denseUnits
                = shape.experts > 1 ? shape.denseMlpLayerShare() * shape.denseFfn : shape.ffn;
            dropped += mlpBytesPerUnit * tokens * denseUnits / t;
        }
        if (modules.contains(RecomputeModule::LatentUpProjection) && shape.latentAttention())
            dropped += 2.0 * (shape.queryWidth() + shape.kvWidth()) * tokens / t;
        layer.keptBytes = actFullLayer - dropped;
    } else if (c.recompute == Recompute::Full) {
        layer.keptBytes = 2.0 * tokens * h / spDivisor; // only the layer input is kept
        layer.workingSetBytes = actFullLayer; // one layer rebuilt at a time in backward
    }
    return layer;
}

double TrainingEstimator::executedAttentionCoreFlopsPerToken() const
{
    // A fused (flash) kernel skips the key blocks a query cannot see: a decoder's query attends
    // the keys before it, half the sequence on average (attendedKeysPerQuery), where the
    // conventional count takes all of them. The unfused kernels of Megatron-LM 2021-2022 compute
    // every score and mask them afterwards.
    if (m_job.framework.attention == AttentionKernel::Unfused)
        return m_shape.attentionCoreFlopsPerToken(m_job.seqLen);
    return 4.0 * m_shape.attendedKeysPerQuery(m_job.seqLen) * m_shape.attentionWidth();
}

/**
 * The FLOPs a layer's recomputation repeats per token: the whole forward under full
 * recomputation; under selective, the attention core, the dense MLP's GEMMs and the latent
 * up-projections of the modules it names (norms and activations are memory-bound, no FLOPs).
 */
double TrainingEstimator::recomputedLayerFlopsPerToken(const ParallelConfig &c) const
{
    const TransformerShape &shape = m_shape;
    const double attentionCore = executedAttentionCoreFlopsPerToken();
    if (c.recompute == Recompute::Full)
        return shape.layerGemmFlopsPerToken() + attentionCore;
    if (c.recompute != Recompute::Selective)
        return 0.0;
    const RecomputeModules modules = c.recomputeModules;
    double flops = 0.0;
    if (modules.contains(RecomputeModule::CoreAttention))
        flops += attentionCore;
    if (modules.contains(RecomputeModule::DenseMlp))
        flops += 2.0
            * (shape.experts > 1 ? shape.denseMlpLayerShare() * shape.denseMlpParameters()
                                 : shape.expertParameters());
    if (modules.contains(RecomputeModule::LatentUpProjection) && shape.latentAttention())
        flops += 2.0
            * (shape.kvLoraRank * (shape.heads * shape.headDim + shape.valueWidth())
               + shape.qLoraRank * shape.queryWidth());
    return flops;
}

/** Tokens per second, model and hardware FLOP/s per GPU and MFU of `result`'s step. */
void TrainingEstimator::addThroughput(const ParallelConfig &c, TrainingEstimate &result) const
{
    const TransformerShape &shape = m_shape;
    const double s = m_job.seqLen;
    const double tokensPerStep = static_cast<double>(m_job.globalBatch) * s;
    result.tokensPerSecond = tokensPerStep / result.stepSeconds;
    // FLOPs per token, conventional counting (Megatron SC21): 3 passes of every layer and the
    // logits; recomputation adds what it repeats.
    const double layerFwdPerToken
        = shape.layerGemmFlopsPerToken() + shape.attentionCoreFlopsPerToken(s);
    // A multi-token prediction block adds a layer, its projection and the logits again
    // (Megatron-Core counts them in its MFU: num_floating_point_operations, mtp_num_layers).
    const double mtpFwdPerToken
        = layerFwdPerToken + 2.0 * shape.mtpProjectionParameters() + shape.logitFlopsPerToken();
    const double modelFlopsPerToken
        = 3.0 * (shape.layers * layerFwdPerToken + shape.logitFlopsPerToken())
        + 3.0 * shape.mtpLayers * mtpFwdPerToken;
    const double recomputeFlopsPerToken
        = (shape.layers + shape.mtpLayers) * recomputedLayerFlopsPerToken(c)
        + (c.recompute == Recompute::Full ? shape.mtpLayers * 2.0 * shape.mtpProjectionParameters()
                                          : 0.0);
    // Hardware FLOPs are those the GPU executes: the attention core as its kernel runs it (a
    // causal fused kernel about half the conventional count forward, and 2.5 forward passes
    // backward, flashBackwardWork), and what recomputation repeats.
    const double executedPasses
        = m_job.framework.attention == AttentionKernel::Unfused ? 3.0 : 1.0 + flashBackwardWork;
    const double skippedAttentionPerToken = (shape.layers + shape.mtpLayers)
        * (3.0 * shape.attentionCoreFlopsPerToken(s)
           - executedPasses * executedAttentionCoreFlopsPerToken());
    const double gpus = m_cluster.gpus;
    result.modelFlopsPerSecondPerGpu
        = tokensPerStep * modelFlopsPerToken / (result.stepSeconds * gpus);
    result.hardwareFlopsPerSecondPerGpu = tokensPerStep
        * (modelFlopsPerToken - skippedAttentionPerToken + recomputeFlopsPerToken)
        / (result.stepSeconds * gpus);
    result.mfu = result.modelFlopsPerSecondPerGpu / m_peakFlopsPerSecond;
    result.mfuPrecision = m_job.precision;
    result.mfuPeakFlopsPerSecond = m_peakFlopsPerSecond;
    result.executedModelFlopsShare
        = (modelFlopsPerToken - skippedAttentionPerToken) / modelFlopsPerToken;
}

TrainingEstimate TrainingEstimator::evaluate(const ParallelConfig &c, EvaluateMode mode) const
{
    TrainingEstimate result;
    evaluateInto(c, mode, nullptr, result);
    return result;
}

void TrainingEstimator::evaluateInto(const ParallelConfig &c, EvaluateMode mode,
                                     std::optional<MicrobatchLayerCosts> *costs,
                                     TrainingEstimate &result) const
{
    result.config = c;
    result.valid = true;
    result.fits = true;
    result.memoryCapacityBytes = m_cluster.gpu.memoryBytes;
    result.usableMemoryBytes = m_cluster.gpu.memoryBytes - m_job.framework.cudaContextBytes
        - m_job.framework.ncclBufferBytes;
    result.reason = validate(c, mode != EvaluateMode::Search);
    if (!result.reason.empty()) {
        result.valid = false;
        result.fits = false;
        return;
    }

    result.memory = estimateMemory(c);
    result.fits = result.memory.totalBytes() <= m_cluster.gpu.memoryBytes;
    // The search only needs the memory of a layout that does not fit.
    if (!result.fits && mode == EvaluateMode::Search)
        return;
    if (!result.fits)
        result.reason = "needs " + formatNumber("%.1f", result.memory.totalBytes() / units::gibi)
            + " GiB per GPU but " + m_cluster.gpu.name + " has "
            + formatNumber("%.1f", m_cluster.gpu.memoryBytes / units::gibi) + " GiB";

    if (!costs) {
        estimateTrainingStep(m_job, m_cluster, c, result);
    } else {
        // Built for the first layout of its microbatch that fits, then shared.
        if (!*costs)
            *costs = microbatchLayerCosts(m_job, m_cluster, c);
        estimateTrainingStep(m_job, m_cluster, c, **costs, result);
    }
    const StepBreakdown &b = result.breakdown;
    const double microbatches = static_cast<double>(m_job.globalBatch) / (c.dp * c.microbatch);
    result.microbatchesPerStep = static_cast<int>(microbatches);
    addThroughput(c, result);
    const double gpus = m_cluster.gpus;
    result.commExposedFraction = (b.tpCommSeconds + b.cpCommSeconds + b.epCommSeconds
                                  + b.ppCommSeconds + b.dpCommExposedSeconds)
        / result.stepSeconds;
    result.bubbleFraction = (c.pp - 1.0) / (c.interleave * microbatches);
    if (m_job.tokens > 0) {
        result.trainingSeconds = m_job.tokens / result.tokensPerSecond;
        result.gpuHours = result.trainingSeconds * gpus / units::secondsPerHour;
    }
    if (mode == EvaluateMode::Explained)
        explain(result);
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
        {"host-offload", b.hostOffloadSeconds},
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
        // A sentence without a label of its own: the panel and the report put "Bottleneck: "
        // before it ("Bottleneck: Compute-bound: ..." read twice).
        r.bottleneckExplanation = "GEMMs and attention take "
            + percentText(b.computeSeconds / step, 0) + " of each step at an MFU of "
            + percentText(r.mfu, 0) + " (compute-bound); exposed communication is "
            + percentText(r.commExposedFraction, 0);
        return;
    }
    r.bottleneck = worst->key;
    const std::string key = worst->key;
    const std::string pct = percentText(share, 0);
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
        // The remedy the layout has not used yet: an interleaved schedule, or a deeper one
        // than the v it runs (the million-GPU sample at v = 2 was told to interleave).
        r.bottleneckExplanation
            = "the pipeline bubble (p-1)/(v*m) = " + formatNumber("%.2f", r.bubbleFraction)
            + " takes " + pct + " of each step; more microbatches"
            + (r.config.interleave > 1
                   ? " or a deeper interleave than v = " + std::to_string(r.config.interleave)
                   : std::string(" or an interleaved schedule"))
            + " would shrink it";
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
    else if (key == "host-offload")
        r.bottleneckExplanation = "copying " + std::to_string(m_job.activationOffloadLayers)
            + " layers' activations to host memory and back over the "
            + formatNumber("%.0f", m_cluster.gpu.hostLinkBytesPerSecond / 1e9)
            + " GB/s host link takes " + pct + " of each step beyond the compute that hides it";
    else
        r.bottleneckExplanation
            = "the optimizer update (memory-bound Adam) takes " + pct + " of each step";
}

/** The values the search tries for each dimension the user did not fix. */
struct TrainingEstimator::SearchSpace
{
    std::vector<int> tensorParallel, contextParallel, pipelineStages, zeroStages;
    std::vector<Recompute> recompute;
};

/** The ten fastest layouts that fit, and what to say when none does. */
struct TrainingEstimator::LayoutRanking
{
    TrainingSearchResult result;
    double smallestMemoryBytes = 1e300; ///< of the layouts that do not fit
    std::optional<ParallelConfig> firstInvalid; ///< its reason is written only if nothing fits
    TrainingEstimate scratch; ///< the layout being ranked, copied into `top` if it gets there
};

namespace {

std::vector<int> fixedOr(const std::optional<int> &fixed, std::vector<int> all)
{
    return fixed ? std::vector<int> {*fixed} : all;
}

} // namespace

TrainingEstimator::SearchSpace TrainingEstimator::searchSpace() const
{
    const ParallelismConstraints &k = m_job.constraints;
    const ModelSpec &model = m_job.model;
    const int gpus = m_cluster.gpus;
    SearchSpace space;
    const int tpLimit = m_job.allowTpAcrossNodes ? gpus : m_cluster.scaleUpDomainGpus;
    std::vector<int> tps;
    for (int tp : divisorsOf(gpus, std::min(tpLimit, model.heads))) {
        if (model.heads % tp == 0)
            tps.push_back(tp);
    }
    space.tensorParallel = fixedOr(k.tp, tps);
    const TrainingFramework &framework = m_job.framework;
    std::vector<int> cps = {1};
    for (int cp = 2; framework.contextParallel && cp <= 32; cp *= 2) {
        if (m_job.seqLen % (2 * cp) == 0 && m_job.seqLen / cp >= 1024)
            cps.push_back(cp);
    }
    space.contextParallel = fixedOr(k.cp, cps);
    space.pipelineStages = fixedOr(k.pp, divisorsOf(gpus, model.layers));
    space.recompute = k.recompute ? std::vector<Recompute> {*k.recompute}
        : k.recomputeModules      ? std::vector<Recompute> {Recompute::Selective}
        : framework.selectiveRecompute
        ? std::vector<Recompute> {Recompute::None, Recompute::Selective, Recompute::Full}
        : std::vector<Recompute> {Recompute::None, Recompute::Full};
    std::vector<int> zeroStages;
    for (int zero = 0; zero <= std::clamp(framework.largestZeroStage, 0, 3); ++zero)
        zeroStages.push_back(zero);
    space.zeroStages = fixedOr(k.zero, zeroStages);
    return space;
}

void TrainingEstimator::consider(const ParallelConfig &config,
                                 std::optional<MicrobatchLayerCosts> &costs,
                                 LayoutRanking &ranking) const
{
    TrainingSearchResult &result = ranking.result;
    ++result.evaluated;
    TrainingEstimate &estimate = ranking.scratch;
    evaluateInto(config, EvaluateMode::Search, &costs, estimate);
    if (!estimate.valid) {
        if (!ranking.firstInvalid)
            ranking.firstInvalid = config;
        return;
    }
    if (!estimate.fits) {
        ranking.smallestMemoryBytes
            = std::min(ranking.smallestMemoryBytes, estimate.memory.totalBytes());
        return;
    }
    auto position = std::upper_bound(result.top.begin(), result.top.end(), estimate,
                                     [](const TrainingEstimate &a, const TrainingEstimate &b) {
                                         return a.stepSeconds < b.stepSeconds;
                                     });
    if (position - result.top.begin() < 10) {
        result.top.insert(position, estimate);
        if (result.top.size() > 10)
            result.top.pop_back();
    }
}

/**
 * Interleave choices the schedule cannot run are skipped without an evaluation: more virtual
 * stages than layers, or microbatches that are no multiple of PP (Megatron's interleaved
 * schedule needs both). The first is kept for the reason when nothing else runs.
 */
bool TrainingEstimator::interleaveRunnable(const ParallelConfig &config) const
{
    return config.interleave <= 1
        || (layersFillVirtualStages(m_job.model, config)
            && interleavedScheduleRuns(m_job.globalBatch, config));
}

void TrainingEstimator::searchLayoutsOfShape(int tp, int cp, int pp, int dp,
                                             const SearchSpace &space, LayoutRanking &ranking) const
{
    const ParallelismConstraints &k = m_job.constraints;
    const ModelSpec &model = m_job.model;
    std::vector<int> eps = {1};
    if (model.isMoe())
        eps = divisorsOf(std::gcd(model.experts, dp * cp), model.experts);
    const std::vector<int> microbatches = divisorsOf(m_job.globalBatch / dp, 64);
    // Any number of virtual stages that splits the stage's layers evenly (Megatron needs layers /
    // PP divisible by the interleave), not only up to 8.
    std::vector<int> interleaves = {1};
    if (pp > 1) {
        const int layersPerStage = (model.layers + pp - 1) / pp;
        for (int v = 2; v <= layersPerStage; ++v) {
            if (layersPerStage % v == 0)
                interleaves.push_back(v);
        }
    }
    ParallelConfig config;
    config.tp = tp;
    config.pp = pp;
    config.dp = dp;
    config.cp = cp;
    config.sequenceParallel = m_job.framework.sequenceParallel;
    config.recomputeModules = k.recomputeModules.value_or(RecomputeModules {});
    config.etp = k.etp.value_or(0);
    config.firstStageLayers = k.firstStageLayers.value_or(0);
    config.lastStageLayers = k.lastStageLayers.value_or(0);
    for (int ep : fixedOr(k.ep, eps))
        for (int mb : fixedOr(k.microbatch, microbatches)) {
            // Everything below shares this microbatch's layer costs (MicrobatchLayerCosts).
            std::optional<MicrobatchLayerCosts> costs;
            for (int v : fixedOr(k.interleave, interleaves))
                for (Recompute recompute : space.recompute)
                    for (int zero : space.zeroStages) {
                        config.ep = ep;
                        config.microbatch = mb;
                        config.interleave = v;
                        config.recompute = recompute;
                        config.zero = zero;
                        if (!interleaveRunnable(config)) {
                            ++ranking.result.pruned;
                            if (!ranking.firstInvalid)
                                ranking.firstInvalid = config;
                            continue;
                        }
                        consider(config, costs, ranking);
                        if (const auto accounted = embeddingAndLossSplit(config))
                            consider(*accounted, costs, ranking);
                    }
        }
}

/**
 * `config` with the embedding and the loss each taking a layer's slot in the pipeline split
 * (Megatron-Core's account_for_embedding_in_pipeline_split and account_for_loss_in_pipeline_split,
 * Meta's Llama 3 405B layout): L + 2 slots over PP x v chunks, so the first and last stages hold a
 * layer fewer than the others. Only where the slots divide evenly, the user left the stage sizes
 * open and the split differs from the even one (80 layers on two stages are 40 and 40 either way).
 */
std::optional<ParallelConfig>
TrainingEstimator::embeddingAndLossSplit(const ParallelConfig &config) const
{
    const ParallelismConstraints &k = m_job.constraints;
    if (config.pp < 2 || k.firstStageLayers || k.lastStageLayers)
        return std::nullopt;
    const long long slots = 1LL * m_job.model.layers + 2;
    const long long chunks = 1LL * config.pp * config.interleave;
    if (slots % chunks != 0)
        return std::nullopt;
    const int ends = static_cast<int>(slots / config.pp) - 1;
    if (ends < 1 || ends == stageLayers(m_shape, config, PipelineEnd::Last))
        return std::nullopt;
    ParallelConfig accounted = config;
    accounted.firstStageLayers = ends;
    accounted.lastStageLayers = ends;
    return accounted;
}

/**
 * Why no TP x PP x CP x DP shape was even tried: the GPU count must be that product, with DP
 * dividing the global batch and the other degrees within what the model and the cluster allow.
 */
std::string TrainingEstimator::noShapeReason() const
{
    const SearchSpace space = searchSpace();
    const auto largest = [](const std::vector<int> &values) {
        return values.empty() ? 0 : *std::max_element(values.begin(), values.end());
    };
    // A degree the job fixes is named as given ("TP 3"), not as a bound ("TP at most 3").
    const auto degree = [&](const char *name, const std::vector<int> &values) {
        return std::string(name) + (values.size() == 1 ? " " : " at most ")
            + std::to_string(largest(values));
    };
    const long long modelParallel = 1LL * largest(space.tensorParallel)
        * largest(space.pipelineStages) * largest(space.contextParallel);
    const std::optional<int> dp = m_job.constraints.dp;
    if (dp && m_job.globalBatch % *dp != 0)
        return "DP " + std::to_string(*dp) + " does not divide the global batch of "
            + groupedCount(m_job.globalBatch) + " sequences";
    return groupedCount(m_cluster.gpus)
        + " GPUs must be TP x PP x CP x DP with DP dividing the global batch of "
        + groupedCount(m_job.globalBatch) + ", " + degree("TP", space.tensorParallel) + ", "
        + degree("PP", space.pipelineStages) + " and " + degree("CP", space.contextParallel)
        + " (so at most " + groupedCount(modelParallel)
        + " GPUs per replica), and no such product is " + groupedCount(m_cluster.gpus)
        + ": a larger global batch or a GPU count these divide would run";
}

void TrainingEstimator::finishSearch(LayoutRanking &ranking) const
{
    TrainingSearchResult &result = ranking.result;
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
            const TrainingEstimate e = evaluate(probe, EvaluateMode::Search);
            if (e.valid && e.fits)
                result.largestFittingMicrobatch = mb;
        }
    } else if (ranking.smallestMemoryBytes < 1e300) {
        result.reason = "no layout fits in memory: the smallest needs "
            + formatNumber("%.1f", ranking.smallestMemoryBytes / units::gibi) + " GiB per GPU but "
            + m_cluster.gpu.name + " has "
            + formatNumber("%.1f", m_cluster.gpu.memoryBytes / units::gibi) + " GiB";
    } else {
        result.reason = "no valid layout: "
            + (ranking.firstInvalid ? validate(*ranking.firstInvalid, true) : noShapeReason());
    }
}

TrainingSearchResult TrainingEstimator::search(const std::atomic<bool> *cancel) const
{
    const ParallelismConstraints &k = m_job.constraints;
    const int gpus = m_cluster.gpus;
    const SearchSpace space = searchSpace();
    LayoutRanking ranking;
    for (int tp : space.tensorParallel)
        for (int cp : space.contextParallel)
            for (int pp : space.pipelineStages) {
                if (cancel && cancel->load())
                    break;
                const long long modelParallel = 1LL * tp * cp * pp;
                if (gpus % modelParallel != 0)
                    continue;
                const int dp = static_cast<int>(gpus / modelParallel);
                if ((k.dp && *k.dp != dp) || m_job.globalBatch % dp != 0)
                    continue;
                searchLayoutsOfShape(tp, cp, pp, dp, space, ranking);
            }
    finishSearch(ranking);
    return std::move(ranking.result);
}

std::optional<TrainingEstimate> fasterWithExpertParallelOptions(const TrainingJob &job,
                                                                const ClusterDescription &cluster,
                                                                const TrainingEstimate &best)
{
    const TrainingFramework &framework = job.framework;
    if (job.model.experts <= 1 || framework.moeDispatcher != MoeDispatcher::AllToAll
        || framework.moeCommOverlap || !(best.stepSeconds > 0))
        return std::nullopt;
    TrainingJob with = job;
    with.framework.moeDispatcher = MoeDispatcher::DeepEp;
    with.framework.moeCommOverlap = true;
    const TrainingSearchResult found = TrainingEstimator(with, cluster).search();
    if (!found.found || found.best.stepSeconds > 0.95 * best.stepSeconds)
        return std::nullopt;
    return found.best;
}

} // namespace cp::model
