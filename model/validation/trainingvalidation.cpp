// SPDX-License-Identifier: GPL-3.0-or-later
#include "model/validation/trainingvalidation.h"

#include "model/catalog/catalog.h"
#include "model/catalog/catalogparser.h"
#include "model/cluster/clusterdescription.h"
#include "model/core/humantext.h"
#include "model/core/jsonfieldreader.h"
#include "model/core/units.h"
#include "model/training/trainingestimator.h"
#include "model/training/trainingframework.h"
#include "model/training/transformershape.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace cp::model {

namespace {

std::string nodeFor(const Catalog &catalog, const std::string &gpuId, JsonFieldReader &row)
{
    for (const auto &[id, node] : catalog.nodes()) {
        if (node.gpuId == gpuId && node.scaleUpDomain == ScaleUpDomain::NVSwitch)
            return id;
    }
    row.fail("gpu", "no NVSwitch node in the catalog carries '" + gpuId + "'");
}

ModelSpec readModel(JsonFieldReader &reader)
{
    ModelSpec model;
    model.id = "validation";
    model.name = reader.string("name");
    readModelShape(reader, model);
    model.publishedParameters = reader.number("params_b", positive) * units::giga;
    reader.finish();
    return model;
}

/**
 * The profile of the row's era: "megatron-lm-2021" and "megatron-lm-2022" rows and the 2022
 * BigScience Megatron-DeepSpeed fork use the 2021-2022 kernels and schedules; later software
 * (Megatron-Core, NeMo, Megatron-Bridge, Meta's Llama 3 stack) the 2024 profile.
 */
const TrainingFramework &frameworkFor(const std::string &text)
{
    if (text.rfind("megatron-lm-2021", 0) == 0)
        return *findTrainingFramework("megatron-lm-2021");
    if (text.rfind("megatron-lm-2022", 0) == 0 || text.rfind("megatron-deepspeed", 0) == 0)
        return *findTrainingFramework("megatron-lm-2022");
    return *findTrainingFramework("megatron-core-2024");
}

double predictedValue(const std::string &metric, const TrainingEstimate &e, int gpus,
                      double bf16Peak)
{
    if (metric == "hardware_tflops_per_gpu")
        return e.hardwareFlopsPerSecondPerGpu / units::tera;
    if (metric == "model_tflops_per_gpu")
        return e.modelFlopsPerSecondPerGpu / units::tera;
    if (metric == "mfu") // published MFUs are against the 16-bit dense peak
        return e.modelFlopsPerSecondPerGpu / bf16Peak;
    return e.tokensPerSecond / gpus; // tokens_per_second_per_gpu
}

TrainingValidationRow runRow(JsonFieldReader &row, const Catalog &catalog)
{
    TrainingValidationRow out;
    out.id = row.string("id");
    out.source = row.string("source");
    const GpuSpec &gpu = catalogEntryAt(row, "gpu", catalog, &Catalog::gpu);
    const std::string gpuId = gpu.id;
    out.gpuId = gpuId;
    out.gpuName = gpu.name;
    const int gpus = row.integer("gpus", 1, 1 << 24);

    TrainingJob job;
    JsonFieldReader modelReader(row.object("model"), row.file(), row.childPointer("model"));
    job.model = readModel(modelReader);
    out.modelName = job.model.name;
    out.moe = job.model.isMoe();
    out.parameters = TransformerShape::fromModel(job.model).totalParameters();
    job.seqLen = row.integer("seq_len", 1, 1 << 24);
    job.globalBatch = row.integer("global_batch", 1, 1 << 24);
    job.precision = *precisionFromName(row.choice("precision", {"bf16", "fp16", "fp8"}));
    out.precision = job.precision;
    const std::string frameworkText = row.string("framework");
    job.framework = frameworkFor(frameworkText);
    out.framework = job.framework.id;
    job.framework.attention = row.optionalBool("flash_attention").value_or(true)
        ? AttentionKernel::Flash
        : AttentionKernel::Unfused;
    job.framework.sequenceParallel = row.optionalBool("sequence_parallel").value_or(true);
    job.framework.moeCommOverlap = row.optionalBool("moe_comm_overlap").value_or(false);
    if (auto dispatcher = row.optionalChoice("moe_dispatcher", moeDispatcherIds()))
        job.framework.moeDispatcher = *moeDispatcherFromId(*dispatcher);
    out.moeDispatcher = job.framework.moeDispatcher;
    out.moeCommOverlap = job.framework.moeCommOverlap;
    // The run's cross-entropy, where it names one (Megatron-Bridge's benchmarks: "te").
    if (auto crossEntropy = row.optionalChoice("cross_entropy", crossEntropyKernelIds()))
        job.framework.crossEntropy = *crossEntropyKernelFromId(*crossEntropy);
    // Megatron reduces BF16 gradients in fp32 unless the run sets --grad-reduce-in-bf16 (or a
    // recipe's grad_reduce_in_fp32 = False), as NVIDIA's Megatron-Bridge benchmark configs do.
    out.gradientsReducedInBf16 = row.optionalBool("grad_reduce_in_bf16").value_or(false);
    if (out.gradientsReducedInBf16)
        job.framework.bf16GradientsInFp32 = false;
    const bool modernStack = job.framework.id == "megatron-core-2024";
    // Megatron-Core's cpu_offloading_num_layers: the layers whose activations go to host memory.
    job.activationOffloadLayers
        = row.optionalInteger("activation_offload_layers", 0, 100000).value_or(0);
    out.activationOffloadLayers = job.activationOffloadLayers;

    ParallelConfig config;
    config.tp = row.integer("tp", 1, 1024);
    config.pp = row.integer("pp", 1, 4096);
    config.cp = row.integer("cp", 1, 1024);
    config.ep = row.integer("ep", 1, 4096);
    // Expert tensor parallelism as the recipe set it (1 or TP); chosen as the search does when
    // the row does not say.
    config.etp = row.optionalInteger("etp", 1, 1024).value_or(0);
    // The first and last stages' layers where the run gave them their own (Megatron-Core's
    // decoder-first/last-pipeline-num-layers, a pipeline layout, or Meta's lighter ends).
    config.firstStageLayers = row.optionalInteger("first_stage_layers", 1, 1 << 20).value_or(0);
    config.lastStageLayers = row.optionalInteger("last_stage_layers", 1, 1 << 20).value_or(0);
    config.microbatch = row.integer("microbatch", 1, 1 << 20);
    config.interleave = row.integer("interleave", 1, 1024);
    config.recompute = *recomputeFromName(row.choice("recompute", {"none", "selective", "full"}));
    // The modules a selective run repeats (Megatron-Core's recompute_modules; core_attn alone
    // when the row does not say).
    if (auto modules = readRecomputeModules(row, "recompute_modules")) {
        if (config.recompute != Recompute::Selective)
            row.fail("recompute_modules", "recompute modules need \"recompute\": \"selective\"");
        config.recomputeModules = *modules;
    }
    // ZeRO-1 (the distributed optimizer) for Megatron-Core-era rows and plain data parallelism
    // for 2021-2022 Megatron-LM, unless the row names its stage: 3 for a fully sharded run
    // (Megatron-FSDP, PyTorch FSDP).
    config.zero = row.optionalInteger("zero", 0, 3).value_or(modernStack ? 1 : 0);
    config.sequenceParallel = job.framework.sequenceParallel;
    const long long modelParallel = 1LL * config.tp * config.pp * config.cp;
    if (gpus % modelParallel != 0)
        row.fail("gpus", "not divisible by TP x PP x CP");
    config.dp = static_cast<int>(gpus / modelParallel);

    JsonFieldReader measured(row.object("measured"), row.file(), row.childPointer("measured"));
    out.metric = measured.choice(
        "metric",
        {"model_tflops_per_gpu", "hardware_tflops_per_gpu", "mfu", "tokens_per_second_per_gpu"});
    out.measured = measured.number("value", positive);
    measured.finish();
    row.accept("notes");
    row.finish();

    const std::string nodeId = nodeFor(catalog, gpuId, row);
    ClusterFromCatalogOptions options; // the published runs' non-blocking rail fabrics
    options.nodeId = nodeId;
    options.gpus = gpus;
    const ClusterDescription cluster = ClusterDescription::fromCatalog(catalog, options);
    const TrainingEstimator estimator(job, cluster);
    out.estimate = estimator.estimate(config);
    if (!out.estimate.valid)
        row.fail("", "the estimator rejects the published layout: " + out.estimate.reason);
    const double sixteenBitPeak = gpu.supports(Precision::BF16)
        ? gpu.peakFlopsPerSecond(Precision::BF16)
        : gpu.peakFlopsPerSecond(Precision::FP16);
    out.predicted = predictedValue(out.metric, out.estimate, gpus, sixteenBitPeak);
    out.publishedMfu = out.estimate.mfu * out.measured / out.predicted;
    return out;
}

std::string summaryLine(const char *label, const std::vector<TrainingValidationRow> &rows)
{
    return validationSummaryRow(label, summarizeValidation(rows));
}

std::vector<TrainingValidationRow> runRows(const nlohmann::json &table, const Catalog &catalog,
                                           const std::string &file, const std::string *onlyGpuId)
{
    const nlohmann::json &rows
        = validationTableRows(table, file, "clusterplanner-training-validation");
    std::vector<TrainingValidationRow> result;
    for (std::size_t i = 0; i < rows.size(); ++i) {
        if (onlyGpuId && !validationRowMeasuredOn(rows[i], *onlyGpuId))
            continue;
        JsonFieldReader row(rows[i], file, "/rows/" + std::to_string(i));
        result.push_back(runRow(row, catalog));
    }
    return result;
}
} // namespace

std::vector<TrainingValidationRow>
runTrainingValidation(const nlohmann::json &table, const Catalog &catalog, const std::string &file)
{
    return runRows(table, catalog, file, nullptr);
}

std::vector<TrainingValidationRow> runTrainingValidationForGpu(const nlohmann::json &table,
                                                               const Catalog &catalog,
                                                               const std::string &file,
                                                               const std::string &gpuId)
{
    return runRows(table, catalog, file, &gpuId);
}

ValidationSummary summarizeValidation(const std::vector<TrainingValidationRow> &rows)
{
    return summarizeRows(rows);
}

std::string trainingValidationMarkdown(const std::vector<TrainingValidationRow> &rows,
                                       const std::string &tableFile)
{
    std::string text = "# Validation: training estimator against published runs\n\n";
    text += "Generated by `clusterplanner-validate " + tableFile
        + "` from the shipped catalog; do not edit by hand. Each row is a published measurement "
          "(its source is in the table file) estimated with the layout the run used and the "
          "framework profile of its era; nothing is searched and no constant is fitted to these "
          "rows. A positive error means the estimator is optimistic (predicts a faster run).\n\n";
    text += validationSummaryHeader();
    text += summaryLine("all", rows);
    for (const std::string &gpu : gpuNamesInOrder(rows)) {
        std::vector<TrainingValidationRow> subset;
        std::copy_if(rows.begin(), rows.end(), std::back_inserter(subset),
                     [&](const TrainingValidationRow &row) { return row.gpuName == gpu; });
        text += summaryLine(gpu.c_str(), subset);
    }
    for (bool moe : {false, true}) {
        std::vector<TrainingValidationRow> subset;
        std::copy_if(rows.begin(), rows.end(), std::back_inserter(subset),
                     [&](const TrainingValidationRow &row) { return row.moe == moe; });
        if (!subset.empty())
            text += summaryLine(moe ? "mixture of experts" : "dense", subset);
    }
    text += "\n| run | GPU | GPUs | layout | framework | metric | published | predicted | error "
            "| bottleneck |\n";
    text += "| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |\n";
    for (const TrainingValidationRow &row : rows) {
        const ParallelConfig &c = row.estimate.config;
        const std::string offload = row.activationOffloadLayers > 0
            ? " offload-" + std::to_string(row.activationOffloadLayers)
            : std::string();
        char layout[192];
        // The expert-parallel group, the dispatcher when it is not the all-to-all one
        // (EP16/HybridEP) and "+overlap" when the dispatch ran behind another microbatch.
        std::string experts = c.ep > 1 && c.tp > 1
            ? "EP" + std::to_string(c.ep) + "xETP" + std::to_string(expertTensorParallel(c))
            : "EP" + std::to_string(c.ep);
        if (c.ep > 1 && row.moeDispatcher == MoeDispatcher::DeepEp)
            experts += "/DeepEP";
        else if (c.ep > 1 && row.moeDispatcher == MoeDispatcher::HybridEp)
            experts += "/HybridEP";
        if (c.ep > 1 && row.moeCommOverlap)
            experts += "+overlap";
        // Own first and last stage sizes as PP8[7..6] ('=' for an even share).
        const auto stageSize = [](int layers) {
            return layers > 0 ? std::to_string(layers) : std::string("=");
        };
        const std::string pipeline = "PP" + std::to_string(c.pp)
            + (hasUnevenStages(c)
                   ? "[" + stageSize(c.firstStageLayers) + ".." + stageSize(c.lastStageLayers) + "]"
                   : std::string());
        std::snprintf(layout, sizeof layout, "TP%d %s CP%d %s DP%d mb%d v%d %s%s%s%s%s", c.tp,
                      pipeline.c_str(), c.cp, experts.c_str(), c.dp, c.microbatch, c.interleave,
                      recomputeDescription(c).c_str(), c.zero >= 3 ? " ZeRO-3" : "",
                      row.gradientsReducedInBf16 ? " bf16-grads" : "", offload.c_str(),
                      row.estimate.fits ? "" : " (estimated not to fit)");
        char line[768];
        std::snprintf(
            line, sizeof line, "| %s | %s | %d | %s | %s | %s | %.4g | %.4g | %s | %s |\n",
            row.id.c_str(), row.gpuName.c_str(), c.tp * c.pp * c.cp * c.dp, layout,
            row.framework.c_str(), row.metric.c_str(), row.measured, row.predicted,
            percentText(row.signedError(), 1, true).c_str(), row.estimate.bottleneck.c_str());
        text += line;
    }
    return text;
}

} // namespace cp::model
