// SPDX-License-Identifier: GPL-3.0-or-later
#include "commands.h"
#include "modelarguments.h"
#include "servingreport.h"
#include "table.h"

#include "model/core/humantext.h"
#include "model/core/inputerror.h"
#include "model/core/units.h"
#include "model/inference/chunkedprefill.h"
#include "model/inference/diurnalautoscaling.h"
#include "model/inference/fleetcapacity.h"
#include "model/inference/inferenceestimator.h"
#include "model/inference/inferencesetup.h"
#include "model/inference/servingfloor.h"
#include "model/operations/operationsestimator.h"
#include "model/planning/estimatejson.h"
#include "model/validation/publishedservingcomparison.h"

#include <cmath>
#include <ostream>

namespace cp::cli {

namespace {

std::vector<OptionSpec> inferOptions()
{
    std::vector<OptionSpec> specs = {
        {"gpu", true, "GPU id, or 'all' to compare every GPU and precision and pick the cheapest"},
        {"node", true, "node id (default: the catalog node that carries --gpu)"},
        {"gpus-per-replica", true,
         "GPUs per model replica (default 1): tensor parallel in the scale-up domain, and "
         "pipeline stages across nodes beyond it (16 on 8-GPU servers: TP 8 x PP 2)"},
        {"pp", true, "pipeline stages across nodes (default: as --gpus-per-replica needs)"},
        {"precision", true, "weights: fp16|bf16|fp8|int8|int4"},
        {"kv-precision", true, "KV cache: fp16|bf16|fp8|int8 (default fp16)"},
        {"input-tokens", true, "prompt tokens per request"},
        {"output-tokens", true, "generated tokens per request"},
        {"batch", true, "concurrent sequences per replica"},
        {"max-batch", true,
         "the engine's limit on sequences per batch (vLLM --max-num-seqs, TensorRT-LLM "
         "max_batch_size; default: the engine profile's, 256 for vLLM)"},
        {"rate", true, "requests per second to serve"},
        {"replicas", true,
         "a fixed fleet of this many replicas serving --rate: the latencies the load gives it "
         "(default: as many replicas as the targets need); without --rate, the most requests/s "
         "the fleet serves within the latency targets; with --requests, the replicas that "
         "share the job (default 1)"},
        {"requests", true,
         "an offline job of this many requests, all queued at once (batch inference; 3000, "
         "1.5M): how long it runs, its cost and energy, its smaller last wave included"},
        {"ttft-p95-ms", true, "p95 time-to-first-token target"},
        {"tpot-p95-ms", true, "p95 time-per-output-token target"},
        {"ttft-p99-ms", true,
         "p99 time-to-first-token limit, for a fixed fleet's capacity (--replicas without --rate; "
         "MLPerf's server scenario: 2000 for Llama 2 70B)"},
        {"tpot-p99-ms", true,
         "p99 time-per-output-token limit, for a fixed fleet's capacity (MLPerf: 200 for Llama "
         "2 70B)"},
        {"facility", true, "facility id for PUE and electricity (default dc-industry-average)"},
        {"lifetime-years", true, "amortisation period of the hardware (default 4)"},
        {"hourly-price", true, "USD per GPU-hour (cloud); replaces capital and energy"},
        {"diurnal", true,
         "24 comma-separated hourly rates (any unit); --rate is the busiest hour's: autoscale"},
        {"diurnal-trough", true,
         "a raised-cosine day whose quietest hour is this fraction of --rate (e.g. 0.3)"},
        {"peak-hour", true, "with --diurnal-trough: the busiest hour, 0-23 (default 14)"},
        {"min-replicas", true, "replicas an autoscaler keeps even at no traffic (default 1)"},
        {"explain", false, "list every operation of a prefill and a decode step with its time"},
        {"engine", true,
         "serving engine profile: vllm-0.7 (default; vLLM 0.6's scheduling, and a latent K/V "
         "cache for latent-attention models such as DeepSeek-V3) | vllm-0.6 | tensorrt-llm-0.12 | "
         "tensorrt-llm-0.9 | lmdeploy-0.1"},
        {"speculative", true,
         "speculative decoding with a draft model id, or 'ngram' (prompt lookup, no draft cost)"},
        {"draft-tokens", true, "tokens the draft proposes per step (default 4)"},
        {"acceptance-rate", true, "probability a draft token is accepted, 0..1 (measured)"},
    };
    for (const OptionSpec &spec : modelShapeOptions())
        specs.push_back(spec);
    return withCommonOptions(std::move(specs));
}

/** "max 1051 by memory", or "max 256 by the engine; 1051 fit in memory" when the engine's
 * cap holds the batch. */
std::string batchLimitText(const model::InferenceEstimate &e)
{
    // A replica that cannot serve for its context or layout has no batch limit to speak of.
    if (!e.fits && e.memoryBytesPerGpu <= e.memoryCapacityBytes)
        return "cannot serve: see below";
    if (!e.fits && e.memoryBatchLimit <= 0) // "batch 1 (max 0 by memory)" read as a batch
        return "not even one sequence fits in memory"; // past its limit
    if (e.engineHoldsBatch())
        return "max " + model::groupedCount(e.maxBatch) + " by the engine; "
            + model::groupedCount(e.memoryBatchLimit) + " fit in memory";
    return "max " + model::groupedCount(e.memoryBatchLimit) + " by memory";
}

/** How a latency reads: a time to first token in milliseconds to a tenth below 10 s, an
 * end-to-end latency in seconds to the hundredth below 100 s; beyond, in the unit its size needs
 * ("26.7 h", not "96,034,008.0 ms"). */
struct LatencyScale
{
    double belowSeconds;
    double scale;
    const char *numberFormat;
    const char *unit;
};
constexpr LatencyScale firstTokenScale {10.0, 1e3, "%.1f", " ms"};
constexpr LatencyScale endToEndScale {100.0, 1.0, "%.2f", " s"};

std::string latencyText(double seconds, const LatencyScale &scale)
{
    return seconds < scale.belowSeconds
        ? format(scale.numberFormat, seconds * scale.scale) + scale.unit
        : model::humanDuration(seconds);
}

/** p50 / p95 / p99 in one unit while the largest is below the scale's bound, else each in its
 * own. */
std::string latencyTriple(double p50, double p95, double p99, const LatencyScale &scale)
{
    if (p99 < scale.belowSeconds)
        return format(scale.numberFormat, p50 * scale.scale) + " / "
            + format(scale.numberFormat, p95 * scale.scale) + " / "
            + format(scale.numberFormat, p99 * scale.scale) + scale.unit;
    return model::humanDuration(p50) + " / " + model::humanDuration(p95) + " / "
        + model::humanDuration(p99);
}

/** "4 x NVIDIA DGX H100 (4 GPUs spare; the whole servers 84.6 USD/hour)": what an owner buys. */
std::string serversText(const model::InferenceEstimate &e, const std::string &serverName)
{
    std::string text = model::groupedCount(e.servers) + " x " + serverName;
    if (e.spareGpus() <= 0)
        return text;
    text += " (" + model::countOf(e.spareGpus(), "GPU", "GPUs") + " spare";
    if (e.wholeServersUsdPerHour > e.usdPerHour)
        text += (e.servers == 1 ? "; the whole server " : "; the whole servers ")
            + model::threeDigits(e.wholeServersUsdPerHour) + " USD/hour";
    return text + ")";
}

std::string renderInference(const model::InferenceEstimate &e, const model::InferenceJob &job,
                            const std::string &title, const std::string &serverName)
{
    namespace units = model::units;
    Table table({"figure", "value"});
    table.addRow({"replica",
                  std::to_string(e.gpusPerReplica) + (e.gpusPerReplica == 1 ? " GPU" : " GPUs")
                      + (e.pipelineStages > 1 ? " (TP " + std::to_string(e.tensorParallel)
                                 + " x PP " + std::to_string(e.pipelineStages) + ")"
                                              : std::string())
                      + ", batch " + std::to_string(e.batch) + " (" + batchLimitText(e) + ")"});
    if (e.inFlightSequences > 0)
        table.addRow({"in flight under the load",
                      format("%.1f sequences per replica on average", e.inFlightSequences)});
    table.addRow({"memory per GPU",
                  format("%.1f GiB", e.memoryBytesPerGpu / units::gibi)
                      + format(" of %.1f GiB", e.memoryCapacityBytes / units::gibi)
                      + format(" (weights %.1f", e.weightsBytesPerGpu / units::gibi)
                      + format(", KV %.1f", e.kvBytesPerGpu / units::gibi) + ", activations "
                      + model::threeDigits(e.workspaceBytesPerGpu / units::gibi)
                      + format(", engine reserve %.1f", e.reserveBytesPerGpu / units::gibi)
                      + ")"
                      // Only memory's own shortfall: a context or layout the replica cannot
                      // serve fits in memory and is said so below.
                      + (e.memoryBytesPerGpu > e.memoryCapacityBytes ? " DOES NOT FIT" : "")});
    table.addRow({"KV cache per token", format("%.0f KiB", e.kvBytesPerToken / 1024)});
    // What one request keeps by its last token (its prompt and output, not the model's whole
    // context window: "at full context" read as the window), which a sliding window caps on its
    // layers.
    table.addRow({"KV cache per sequence",
                  format("%.2f GiB by its last token (", e.kvBytesPerSequence / units::gibi)
                      + model::groupedCount(job.inputTokens + job.outputTokens)
                      + " tokens), whole model"});
    if (!e.fits) {
        // No times for a replica that cannot hold or serve the workload (its JSON has none):
        // 61 ms to a first token read as an estimate beside "does not fit".
        table.addRow({"times", "none: a replica cannot serve the workload"});
        table.addRow({"replicas", "none: " + e.reason});
        table.addRow({"bottleneck", e.bottleneck});
        return title + "\n" + table.render() + "  " + e.bottleneckExplanation + "\n";
    }
    table.addRow({"prefill (one prompt)",
                  latencyText(e.prefillSeconds, firstTokenScale)
                      + (e.draftPrefillSeconds > 0 ? ", the draft model's "
                                 + latencyText(e.draftPrefillSeconds, firstTokenScale) + " of it"
                                                   : std::string())});
    if (e.tokensPerDecodeStep > 1 || e.draftSeconds > 0)
        table.addRow({"speculative decoding",
                      format("%.2f tokens per verify step", e.tokensPerDecodeStep)
                          + format(", draft %.2f ms per round", e.draftSeconds * 1e3)});
    table.addRow({"decode step",
                  format("%.2f ms", e.decodeStepSeconds * 1e3)
                      + format(" (memory %.2f", e.decodeMemorySeconds * 1e3)
                      + format(", compute %.2f", e.decodeComputeSeconds * 1e3)
                      + format(", comm %.2f ms)", e.decodeCommSeconds * 1e3)});
    // What no engine beats here: the estimate's distance from it is the reader's check.
    if (const std::string floor = model::servingFloorText(e); !floor.empty())
        table.addRow({"floor (no engine is faster)", floor});
    if (e.overloaded())
        table.addRow({"TTFT",
                      "unbounded: the queue grows, as the load is more than the fleet "
                      "serves"});
    else if (e.utilisation > 0)
        table.addRow({"TTFT p50 / p95 / p99",
                      model::withReason(latencyTriple(e.ttftP50Seconds, e.ttftSeconds,
                                                      e.ttftP99Seconds, firstTokenScale),
                                        model::ttftTailText(e))});
    else
        table.addRow({e.offlineJob ? "TTFT once its wave starts" : "TTFT",
                      latencyText(e.ttftSeconds, firstTokenScale)});
    table.addRow({e.tpotP95Seconds > 0 ? "time per output token (mean / p95 step under the load)"
                                       : "time per output token",
                  format("%.2f ms", e.tpotSeconds * 1e3)
                      + (e.tpotP95Seconds > 0 ? format(" / %.2f ms", e.tpotP95Seconds * 1e3)
                                              : std::string())});
    if (e.overloaded()) // its JSON's end-to-end figures are null: the queue has no bound
        table.addRow({"end-to-end latency", "unbounded, as the TTFT"});
    else if (e.utilisation > 0)
        table.addRow({"end-to-end p50 / p95 / p99",
                      latencyTriple(e.endToEndP50Seconds(), e.endToEndSeconds,
                                    e.endToEndP99Seconds(), endToEndScale)});
    else
        table.addRow({e.offlineJob ? "end-to-end once its wave starts" : "end-to-end latency",
                      latencyText(e.endToEndSeconds, endToEndScale)});
    table.addRow({"throughput per GPU",
                  model::threeDigits(e.outputTokensPerSecondPerGpu) + " output tokens/s"});
    if (e.offlineJob)
        addOfflineJobRows(table, e);
    if (e.hasFleet()) {
        const long long fleetGpus = e.fleetGpus();
        table.addRow({e.fixedFleet ? "replicas (fixed)" : "replicas",
                      model::groupedCount(e.replicas) + " (" + model::groupedCount(fleetGpus)
                          + (fleetGpus == 1 ? " GPU" : " GPUs")
                          + (e.utilisation > 0 ? format(", %.0f%% utilised)", 100 * e.utilisation)
                                               : std::string(")"))});
        table.addRow({"power", model::humanPower(e.powerWatts)});
        // Cents where they matter; a fleet of millions an hour reads in whole dollars.
        table.addRow(
            {"cost",
             model::groupThousands(format(e.usdPerHour < 1e4 ? "%.2f" : "%.0f", e.usdPerHour))
                 + " USD/hour"});
        table.addRow({"cost per million output tokens", usdText(e.costPerMillionOutputTokensUsd)});
        table.addRow({"cost per million input tokens", usdText(e.costPerMillionInputTokensUsd)});
        // The two above split the cost by where the GPU time goes, as APIs price prompts and
        // output apart; this is the whole cost over the output tokens.
        table.addRow(
            {"all-in cost per million output", usdText(e.costPerMillionOutputTokensAllInUsd)});
        // The per-token prices split the cost by where each GPU's time goes, so only their sum
        // over a request compares across GPUs.
        table.addRow({"cost per 1,000 requests", usdText(1000 * e.costPerRequestUsd)});
        table.addRow({"servers", serversText(e, serverName)});
    } else {
        // Times above are one replica's; no fleet, power or cost for a load it cannot serve.
        table.addRow({"replicas",
                      e.fits ? "none: no fleet meets the targets"
                             : "none: a replica cannot hold the workload"});
    }
    table.addRow({"bottleneck", e.bottleneck});
    return title + "\n" + table.render() + "  " + e.bottleneckExplanation + "\n";
}

std::string renderOperations(const model::StepOperations &operations, double stages,
                             const char *title)
{
    namespace units = model::units;
    double total = 0;
    for (const model::StepOperation &op : operations)
        total += op.seconds;
    Table table({"operation", "kind", "GFLOP", "MB moved", "kernels", "ms", "share"});
    for (const model::StepOperation &op : operations)
        table.addRow({op.name, model::operationKindName(op.kind),
                      op.flops > 0 ? format("%.4g", op.flops / units::giga) : "",
                      op.bytes > 0 ? format("%.4g", op.bytes / units::mega) : "",
                      format("%.0f", op.kernels), format("%.3f", op.seconds * 1e3),
                      format("%.1f%%", 100 * op.seconds / total)});
    std::string text = std::string(title)
        + (stages > 1 ? format(" (one of %.0f pipeline stages)", stages) : std::string()) + ":\n";
    return text + table.render();
}

} // namespace

namespace {

/** --diurnal or --diurnal-trough as a day's profile; nothing when neither is given. */
std::optional<model::DiurnalProfile> diurnalFromArguments(const ParsedArguments &a)
{
    std::optional<model::DiurnalProfile> diurnal;
    if (a.has("diurnal") && a.has("diurnal-trough"))
        throw UsageError("give either --diurnal or --diurnal-trough, not both");
    if ((a.has("diurnal") || a.has("diurnal-trough")) && !a.has("rate"))
        throw UsageError("a diurnal profile scales the peak hour's rate: give --rate");
    if (a.has("peak-hour") && !a.has("diurnal-trough"))
        throw UsageError("--peak-hour shapes --diurnal-trough's day");
    try {
        if (auto rates = a.numberList("diurnal")) {
            diurnal = model::diurnalProfileFromHourlyRates(*rates, "--diurnal");
        } else if (auto trough = a.number("diurnal-trough", 0.0, 1.0)) {
            diurnal
                = model::cosineDiurnalProfile(*trough, a.integer("peak-hour", 0, 23).value_or(14));
        }
    } catch (const model::InputError &error) {
        throw UsageError("option '--diurnal'"
                         + (error.pointer().empty() ? "" : " value " + error.pointer()) + ": "
                         + error.reason());
    }
    return diurnal;
}

/** --requests: a whole count up to InferenceJob::maxOfflineRequests ("3000", "1.5M"). */
std::optional<long long> offlineRequestsFromArguments(const ParsedArguments &a)
{
    const std::optional<double> requests = a.count("requests");
    if (!requests)
        return std::nullopt;
    constexpr long long most = model::InferenceJob::maxOfflineRequests;
    if (*requests != std::floor(*requests) || *requests > static_cast<double>(most))
        throw UsageError("option '--requests': expected a whole number of requests up to "
                         + model::groupedCount(most) + ", found '" + *a.value("requests") + "'");
    return static_cast<long long>(*requests);
}

/** The serving job the options describe, without its model and weight precision. */
model::InferenceJob inferenceJobFromArguments(const ParsedArguments &a)
{
    model::InferenceJob job;
    job.kvPrecision = *model::precisionFromName(
        a.choice("kv-precision", {"fp16", "bf16", "fp8", "int8"}).value_or("fp16"));
    job.gpusPerReplica = a.integer("gpus-per-replica", 1, 1 << 16).value_or(1);
    job.pipelineStages = a.integer("pp", 1, 1024);
    if (auto engine = a.choice("engine", model::servingEngineIdList()))
        job.engine = *model::findServingEngine(*engine);
    if (a.has("speculative")) {
        job.speculative.enabled = true;
        job.speculative.draftTokens = a.integer("draft-tokens", 1, 64).value_or(4);
        if (!a.has("acceptance-rate"))
            throw UsageError("--speculative needs --acceptance-rate (measure it on your traffic)");
        job.speculative.acceptanceRate = *a.number("acceptance-rate", 0.0, 1.0);
        const std::string draft = *a.value("speculative");
        if (draft != "ngram")
            job.speculative.draftModelId = draft;
    } else if (a.has("draft-tokens") || a.has("acceptance-rate")) {
        throw UsageError("--draft-tokens and --acceptance-rate need --speculative");
    }
    if (!a.has("input-tokens"))
        throw UsageError("missing required option '--input-tokens'");
    if (!a.has("output-tokens"))
        throw UsageError("missing required option '--output-tokens'");
    job.inputTokens = *a.integer("input-tokens", 1, 1 << 24);
    job.outputTokens = *a.integer("output-tokens", 1, 1 << 24);
    job.batch = a.integer("batch", 1, 1 << 20);
    job.maxBatch = a.integer("max-batch", 1, 1 << 20);
    job.ratePerSecond = a.number("rate", 1e-6, 1e12);
    job.replicas = a.integer("replicas", 1, 1 << 20);
    job.offlineRequests = offlineRequestsFromArguments(a);
    if (job.offlineRequests && job.ratePerSecond)
        throw UsageError("give either --requests (an offline job) or --rate (online serving)");
    if (job.batch && job.ratePerSecond)
        throw UsageError("give either --batch or --rate, not both");
    if (auto ttft = a.number("ttft-p95-ms", 1e-6, 1e9))
        job.ttftP95Seconds = *ttft / 1e3;
    if (auto tpot = a.number("tpot-p95-ms", 1e-6, 1e9))
        job.tpotP95Seconds = *tpot / 1e3;
    if (job.batch && job.maxBatch && *job.batch > *job.maxBatch)
        throw UsageError("--batch is more than --max-batch");
    if ((job.ttftP95Seconds || job.tpotP95Seconds) && !job.ratePerSecond && !job.replicas)
        throw UsageError("latency targets need a request rate (--rate) or a fixed fleet whose "
                         "capacity within them to find (--replicas)");
    if (job.batch && job.replicas && !job.ratePerSecond && !job.offlineRequests)
        throw UsageError("--batch fixes each replica's load; a fleet's capacity follows from the "
                         "load it takes (give --replicas without --batch)");
    return job;
}

/** --replicas without --rate or --requests: the fleet's capacity within the latency limits
 * (p95 targets or p99 limits, not both); nothing otherwise. */
std::optional<model::LatencyLimits> capacityLimitsFromArguments(const ParsedArguments &a,
                                                                const model::InferenceJob &job)
{
    const bool p99 = a.has("ttft-p99-ms") || a.has("tpot-p99-ms");
    const bool capacity = job.replicas && !job.ratePerSecond && !job.offlineRequests;
    if (!capacity) {
        if (p99)
            throw UsageError("p99 limits (--ttft-p99-ms, --tpot-p99-ms) measure a fixed fleet's "
                             "capacity: give --replicas without --rate");
        return std::nullopt;
    }
    model::LatencyLimits limits;
    if (p99) {
        if (job.ttftP95Seconds || job.tpotP95Seconds)
            throw UsageError("give the limits at one percentile: p95 or p99, not both");
        limits.percentile = model::LatencyLimits::Percentile::P99;
        if (auto ttft = a.number("ttft-p99-ms", 1e-6, 1e9))
            limits.ttftSeconds = *ttft / 1e3;
        if (auto tpot = a.number("tpot-p99-ms", 1e-6, 1e9))
            limits.tpotSeconds = *tpot / 1e3;
    } else {
        limits.ttftSeconds = job.ttftP95Seconds;
        limits.tpotSeconds = job.tpotP95Seconds;
    }
    return limits;
}

/** Where the replicas run and what they cost: the same for every GPU tried. */
struct ServingSite
{
    const model::Catalog &catalog;
    std::string facility;
    double lifetimeYears = 4;
    std::optional<double> hourlyPrice;
    std::pair<model::InferenceSetup, model::InferenceEstimate>
    estimate(const model::InferenceJob &job, const std::string &gpu, const std::string &node,
             model::Precision weights) const
    {
        model::InferenceJob j = job;
        j.weightPrecision = weights;
        const model::InferenceSetup setup
            = model::inferenceSetupFromCatalog(catalog,
                                               {.nodeId = node,
                                                .gpuId = gpu,
                                                .facilityId = facility,
                                                .lifetimeYears = lifetimeYears,
                                                .hourlyUsdPerGpu = hourlyPrice});
        const model::InferenceEstimator estimator(j, setup.hardware, setup.cost);
        return std::make_pair(setup, estimator.estimate());
    }
};

/** "+4.9% on 56" (the estimator's mean error on the published throughputs with these weights on
 * the GPU, and how many), "latency only" or "none". */
std::string publishedCell(const model::PublishedServingComparison &published)
{
    if (published.throughput.rows > 0)
        return format("%+.1f%%", 100 * published.throughput.meanSignedError) + " on "
            + std::to_string(published.throughput.rows);
    return published.available() ? "latency only" : "none";
}

/** Replica sizes --gpu all tries on a server of `gpusPerNode`: the one --gpus-per-replica (or a
 * plan) names, else 1, 2, 4, ... up to the server's GPUs, tensor parallel inside it, then 2, 4
 * and 8 whole servers, pipeline stages across them (a model too large for one server, as
 * DeepSeek-V3 in FP8 is for 8 H100, is served on two; it was ruled out for its memory). */
std::vector<int> replicaSizes(const ParsedArguments &a, const model::InferenceJob &job,
                              int gpusPerNode)
{
    if (a.has("gpus-per-replica"))
        return {job.gpusPerReplica};
    std::vector<int> sizes;
    for (int size = 1; size < gpusPerNode; size *= 2)
        sizes.push_back(size);
    for (int servers = 1; servers <= 8; servers *= 2)
        sizes.push_back(servers * gpusPerNode);
    return sizes;
}

/**
 * --gpu all: every GPU with a node type, every precision it computes in and every replica size
 * (1, 2, 4, ... GPUs of its server, tensor parallel, then 2, 4 and 8 servers in pipeline stages,
 * unless --gpus-per-replica fixes one), the cheapest size of each GPU and precision, cheapest
 * first.
 */
int compareEveryGpu(const ParsedArguments &a, const model::InferenceJob &job,
                    const std::string &precision, const ServingSite &site, std::ostream &out)
{
    const model::Catalog &catalog = site.catalog;
    // Every GPU with a node type, every precision it computes in: the cheapest that fits and
    // meets the targets.
    struct Option
    {
        std::string gpu;
        std::string gpuName;
        std::string precision;
        model::InferenceEstimate estimate;
        model::PublishedServingComparison published;
    };
    std::vector<Option> options;
    const std::vector<std::string> precisions = precision.empty()
        ? std::vector<std::string> {"fp16", "fp8", "int8", "int4"}
        : std::vector<std::string> {precision};
    // The cheapest way to serve the load, or to finish the offline job; at a batch or the
    // largest one (no load given) the fleets serve different loads, so per token.
    // An owner buys whole servers: each option costs what its servers do, spare GPUs included
    // (one GPU of a GB200 NVL72 ranked first at 1.80 USD/hour; the rack it takes is 72 GPUs).
    // A cloud price rents GPUs one by one: there the factor is 1.
    const auto wholeServers = [](const model::InferenceEstimate &e) {
        return e.usdPerHour > 0 ? e.wholeServersUsdPerHour / e.usdPerHour : 1.0;
    };
    const auto cost = [&job, &wholeServers](const model::InferenceEstimate &e) {
        return wholeServers(e)
            * (e.offlineJob            ? e.offlineJob->usd
                   : job.ratePerSecond ? e.usdPerHour
                                       : e.costPerMillionOutputTokensAllInUsd);
    };
    // GPUs no option of which is shown, and why: the reader asked "L4, A100 or H100?".
    std::vector<std::pair<std::string, std::string>> excluded;
    for (const auto &[id, spec] : catalog.gpus()) {
        const std::string node = model::nodeForGpu(catalog, id);
        if (node.empty()) {
            excluded.emplace_back(spec.name, "no server type in the catalog carries it");
            continue;
        }
        const std::size_t optionsBefore = options.size();
        std::string lastReason;
        std::vector<std::string> unsupported;
        for (const std::string &p : precisions) {
            const model::Precision weights = *model::precisionFromName(p);
            if ((weights == model::Precision::FP8 || weights == model::Precision::INT8)
                && !spec.supports(weights)) {
                unsupported.push_back(p);
                continue;
            }
            std::optional<model::InferenceEstimate> best;
            for (int size : replicaSizes(a, job, catalog.node(node).gpusPerNode)) {
                model::InferenceJob sized = job;
                sized.gpusPerReplica = size;
                const auto [setup, e] = site.estimate(sized, id, node, weights);
                // A layout the server cannot hold does not fit.
                if (e.fits && e.meetsTargets && (!best || cost(e) < cost(*best)))
                    best = e;
                else if (!e.reason.empty())
                    lastReason = p + " on " + std::to_string(size)
                        + (size == 1 ? " GPU: " : " GPUs: ") + e.reason;
            }
            if (best)
                options.push_back(
                    {id, spec.name, p, *best,
                     model::compareServingWithPublishedRuns(
                         catalog, {.gpuId = id, .weights = weights, .modelId = job.model.id})});
        }
        // The A100 asked for FP8 has no FP8 tensor cores: that is why, not that nothing fits.
        if (options.size() == optionsBefore && unsupported.size() == precisions.size())
            excluded.emplace_back(spec.name,
                                  "its tensor cores do not compute in " + unsupported.front());
        else if (options.size() == optionsBefore)
            excluded.emplace_back(spec.name,
                                  lastReason.empty()
                                      ? std::string("no precision and replica size fits")
                                      : lastReason);
    }
    // Fleets of the same servers cost the same an hour: the cheaper token first among them.
    std::sort(options.begin(), options.end(), [&](const Option &x, const Option &y) {
        const double byX = cost(x.estimate), byY = cost(y.estimate);
        if (byX != byY)
            return byX < byY;
        return x.estimate.costPerRequestUsd < y.estimate.costPerRequestUsd;
    });
    if (options.empty()) {
        std::string why;
        for (const auto &[name, reason] : excluded)
            why += (why.empty() ? "" : "; ") + name + ": " + reason;
        throw InfeasibleError(
            "no GPU and precision in the catalog fits the model and meets the targets (" + why
            + ")");
    }
    if (a.has("json")) {
        nlohmann::json list = nlohmann::json::array();
        for (const Option &o : options) {
            nlohmann::json item = model::inferenceEstimateToJson(o.estimate);
            item["gpu"] = o.gpu;
            item["gpu_name"] = o.gpuName;
            item["precision"] = o.precision;
            item["published_measurements"] = model::publishedServingComparisonToJson(o.published);
            // The costs the options are ranked by, those of the whole servers each fleet fills
            // (the fields above are its GPUs' own): a reader ranking by those found another
            // "cheapest" than the list's first.
            const double whole = wholeServers(o.estimate);
            item["whole_servers_cost_per_million_output_tokens_usd"]
                = item["cost_per_million_output_tokens_usd"].is_null()
                ? nlohmann::json()
                : nlohmann::json(whole * o.estimate.costPerMillionOutputTokensUsd);
            item["whole_servers_cost_per_million_output_tokens_all_in_usd"]
                = item["cost_per_million_output_tokens_all_in_usd"].is_null()
                ? nlohmann::json()
                : nlohmann::json(whole * o.estimate.costPerMillionOutputTokensAllInUsd);
            item["whole_servers_cost_per_million_input_tokens_usd"]
                = item["cost_per_million_input_tokens_usd"].is_null()
                ? nlohmann::json()
                : nlohmann::json(whole * o.estimate.costPerMillionInputTokensUsd);
            list.push_back(std::move(item));
        }
        nlohmann::json left = nlohmann::json::array();
        for (const auto &[name, reason] : excluded)
            left.push_back({{"gpu_name", name}, {"reason", reason}});
        const std::string rankedBy = job.offlineRequests ? "the job's cost"
            : job.ratePerSecond                          ? "the fleet's cost an hour"
                                : "the all-in cost per million output tokens";
        out << nlohmann::json {{"cheapest", list.front()},
                               {"ranked_by",
                                rankedBy
                                    + " on the whole servers each fleet fills "
                                      "(whole_servers_*), every GPU in them"},
                               {"options", list},
                               {"excluded", left}}
                   .dump(2)
            << "\n";
        return ExitOk;
    }
    // Under a rate the targets are p95s, and so are the latencies shown (the mean TPOT beside a
    // p95 TTFT read as more headroom than there is); at a batch there is no load to vary them.
    const bool underLoad = job.ratePerSecond.has_value();
    std::vector<std::string> columns = {"GPU",
                                        "precision",
                                        "GPUs a replica",
                                        "GPUs",
                                        "servers",
                                        "batch",
                                        underLoad ? "TTFT p95 ms" : "TTFT ms",
                                        underLoad ? "TPOT p95 ms" : "TPOT ms",
                                        "USD/hour",
                                        "all-in USD / M out",
                                        "decode USD / M out",
                                        "prefill USD / M in"};
    if (job.offlineRequests)
        columns.insert(columns.end(), {"job time", "job cost"});
    // How far the estimator has been from published throughputs on the GPU with these weights:
    // an option nobody has measured ranks on the model alone, and the reader should know.
    columns.insert(columns.end(), {"published", "bottleneck"});
    Table table(columns);
    for (const Option &o : options) {
        const model::InferenceEstimate &e = o.estimate;
        const double whole = wholeServers(e);
        std::vector<std::string> row
            = {o.gpuName,
               o.precision,
               std::to_string(e.gpusPerReplica),
               model::groupedCount(e.fleetGpus()),
               model::groupedCount(e.servers),
               std::to_string(e.batch),
               format("%.1f", e.ttftSeconds * 1e3),
               format("%.2f",
                      (underLoad && e.tpotP95Seconds > 0 ? e.tpotP95Seconds : e.tpotSeconds) * 1e3),
               format("%.2f", whole * e.usdPerHour),
               format("%.3f", whole * e.costPerMillionOutputTokensAllInUsd),
               format("%.3f", whole * e.costPerMillionOutputTokensUsd),
               format("%.3f", whole * e.costPerMillionInputTokensUsd)};
        if (e.offlineJob)
            row.insert(
                row.end(),
                {model::humanDuration(e.offlineJob->seconds), usdText(whole * e.offlineJob->usd)});
        row.push_back(publishedCell(o.published));
        row.push_back(e.bottleneck);
        table.addRow(row);
    }
    out << (job.offlineRequests ? "Running " + model::groupedCount(*job.offlineRequests)
                    + " requests of " + job.model.name
                                : "Serving " + job.model.name)
        << (job.offlineRequests     ? ", cheapest job first:\n"
                : job.ratePerSecond ? ", cheapest fleet first:\n"
                                    : ", cheapest per million output tokens (all-in) first:\n")
        << table.render();
    if (!a.has("hourly-price"))
        out << "costs: the whole servers each fleet fills, every GPU in them, as an owner buys "
               "them (a GB200 NVL72 by the rack of 72)\n";
    else
        // One price for every GPU type ranks the fleets by GPU count alone: said, not left
        // to be read as each GPU's own cloud price.
        out << "costs: every GPU type at the same " << *a.value("hourly-price")
            << " USD per GPU-hour (--hourly-price), so the ranking is by GPUs; give each GPU's "
               "own price with --gpu ID --hourly-price P to compare clouds\n";
    for (const auto &[name, reason] : excluded)
        out << "not shown: " << name << ": " << reason << "\n";
    return ExitOk;
}

/** What `infer` found for one GPU, everything its text and JSON outputs print. */
struct ServingOutput
{
    const model::InferenceEstimate &e;
    const model::InferenceSetup &setup;
    const model::InferenceJob &job;
    const std::string &precision;
    const std::optional<model::AutoscalingEstimate> &autoscaling;
    model::PublishedServingComparison published;
};

/** One serving estimate as JSON, with the fleet's power, energy, cost and availability per day. */
void printServingJson(const ServingOutput &o, std::ostream &out)
{
    const model::InferenceEstimate &e = o.e;
    const model::InferenceSetup &setup = o.setup;
    const std::optional<model::AutoscalingEstimate> &autoscaling = o.autoscaling;
    nlohmann::json json = model::inferenceEstimateToJson(e);
    if (autoscaling)
        json["autoscaling"] = model::autoscalingEstimateToJson(*autoscaling);
    json["gpu"] = setup.hardware.gpu.id;
    json["model"] = o.job.model.id;
    json["precision"] = o.precision;
    json["published_measurements"] = model::publishedServingComparisonToJson(o.published);
    // The fleet's draw and what it costs per day (the same keys as the training run; energy and
    // cost are per day).
    const model::ServingReliability reliability = model::estimateServingReliability(
        setup.hardware.gpu, setup.node, e.replicas, e.gpusPerReplica, 300.0);
    json["power_kw"] = e.powerWatts / 1e3;
    json["facility_power_kw"] = e.powerWatts * setup.cost.pue / 1e3;
    // An autoscaled day runs the fleet's replica-hours, not the peak's fleet all day: its
    // energy, carbon and cost follow them (the static fleet's 641 USD a day stood beside the
    // autoscaled 440).
    const bool autoscaled
        = autoscaling && autoscaling->feasible && autoscaling->staticReplicaHoursPerDay > 0;
    const double dayShare = autoscaled
        ? autoscaling->replicaHoursPerDay / autoscaling->staticReplicaHoursPerDay
        : 1.0;
    json["energy_mwh"] = e.powerWatts * setup.cost.pue * 24.0 * dayShare / 1e6;
    json["energy_period"] = "day";
    json["cost_usd"] = autoscaled ? autoscaling->usdPerDay : e.usdPerHour * 24.0;
    json["cost_period"] = "day";
    json["day_fleet"] = autoscaled ? "autoscaled" : "static";
    json["goodput"] = reliability.availability;
    json["interruptions_per_day"] = reliability.interruptionsPerDay;
    json["checkpoint_interval_min"] = nullptr; // serving keeps no training state
    json["carbon_t_per_day"]
        = e.powerWatts * setup.cost.pue * 24.0 * dayShare / 1e6 * setup.facility.carbonKgPerKwh;
    out << json.dump(2) << "\n";
}

void printServingText(const ParsedArguments &a, const ServingOutput &o, std::ostream &out)
{
    const model::InferenceEstimate &e = o.e;
    out << renderInference(e, o.job,
                           "Serving " + o.job.model.name + " (" + o.precision + ") on "
                               + o.setup.hardware.gpu.name,
                           o.setup.node.name);
    if (e.capacityWithinLimits)
        out << "fleet capacity within the limits: " << model::capacityWithinLimitsText(e)
            << ". The figures above are at that load.\n";
    out << "published measurements: " << model::publishedServingText(o.published) << "\n";
    if (a.has("explain")) {
        out << "\n"
            << renderOperations(
                   e.prefillOperations, e.pipelineStages,
                   model::withReason("Prefill of one prompt, per GPU", model::chunkedPrefillText(e))
                       .c_str())
            << "\n"
            << renderOperations(e.decodeOperations, e.pipelineStages,
                                ("Decode step of " + std::to_string(e.batch / e.pipelineStages)
                                 + " sequences, per GPU")
                                    .c_str());
    }
    if (o.autoscaling) {
        Table day({"diurnal traffic", "value"});
        addAutoscalingRows(day, *o.autoscaling);
        out << "\n" << day.render();
    }
}

} // namespace

int runInferCommand(CliContext &context, const std::vector<std::string> &args, std::ostream &out)
{
    const auto specs = inferOptions();
    const ParsedArguments a = parseArguments(args, specs, "infer");
    if (a.has("help")) {
        out << usageText("clusterplanner-cli infer --gpu ID --model ID --precision P "
                         "--input-tokens I --output-tokens O "
                         "[--batch B | --rate R --ttft-p95-ms X --tpot-p95-ms Y]",
                         specs);
        return ExitOk;
    }
    if (!a.positional.empty())
        throw UsageError("unexpected argument '" + a.positional[0] + "'");
    const std::optional<model::DiurnalProfile> diurnal = diurnalFromArguments(a);
    const int minReplicas = a.integer("min-replicas", 0, 1 << 20).value_or(1);
    const std::string precision
        = a.choice("precision", {"fp16", "bf16", "fp8", "int8", "int4"}).value_or("");
    model::InferenceJob job = inferenceJobFromArguments(a);
    if (job.replicas && diurnal)
        throw UsageError("--replicas fixes the fleet; a diurnal profile sizes it hour by hour");
    const double lifetime = a.number("lifetime-years", 0.1, 50).value_or(4.0);
    const std::optional<double> hourly = hourlyPrice(a);
    const std::string gpuId = a.required("gpu");
    if (precision.empty() && gpuId != "all")
        throw UsageError("missing required option '--precision'");

    const model::Catalog &catalog = context.catalog();
    job.model = modelFromArguments(a, catalog);
    if (!job.speculative.draftModelId.empty()) {
        job.draftModel = catalog.llm(job.speculative.draftModelId);
        if (const std::string problem = model::draftModelProblem(*job.draftModel, job.model);
            !problem.empty())
            throw UsageError(problem);
    }
    const std::string facility = a.value("facility").value_or("dc-industry-average");
    catalog.facility(facility);

    const ServingSite site {catalog, facility, lifetime, hourly};
    if (gpuId == "all" && job.replicas)
        throw UsageError("--replicas describes a fleet of one GPU type, not --gpu all");
    if (gpuId == "all" && a.has("node"))
        throw UsageError("--node names one server type; --gpu all compares each GPU on its own");
    // The comparison ranks fleets sized for the peak rate: a day's profile it would not apply
    // was accepted and left the output unchanged, as if the autoscaled day had been priced.
    if (gpuId == "all" && (a.has("diurnal") || a.has("diurnal-trough")))
        throw UsageError("--diurnal and --diurnal-trough autoscale one GPU type's fleet; --gpu all "
                         "ranks fleets sized for the peak rate: choose the GPU, then give the day");
    if (gpuId == "all")
        return compareEveryGpu(a, job, precision, site, out);

    // A node of another GPU would be estimated as that GPU, under the name asked for.
    if (a.has("node"))
        nodeIdFromArguments(a, catalog);
    const std::optional<model::LatencyLimits> limits = capacityLimitsFromArguments(a, job);
    auto [setup, e] = site.estimate(job, gpuId, a.value("node").value_or(""),
                                    *model::precisionFromName(precision));
    if (limits) {
        model::InferenceJob fleet = job;
        fleet.weightPrecision = *model::precisionFromName(precision);
        e = model::estimateAtCapacity(fleet, setup.hardware, setup.cost, *limits);
    }
    std::optional<model::AutoscalingEstimate> autoscaling;
    if (diurnal && e.fits && e.meetsTargets) {
        model::InferenceJob peak = job;
        peak.weightPrecision = *model::precisionFromName(precision);
        autoscaling = model::estimateDiurnalAutoscaling(peak, setup.hardware, setup.cost, *diurnal,
                                                        minReplicas);
    }
    const ServingOutput output {
        e,
        setup,
        job,
        precision,
        autoscaling,
        model::compareServingWithPublishedRuns(catalog,
                                               {.gpuId = setup.hardware.gpu.id,
                                                .weights = *model::precisionFromName(precision),
                                                .modelId = job.model.id})};
    if (a.has("json"))
        printServingJson(output, out);
    else
        printServingText(a, output, out);
    if (!e.fits)
        throw InfeasibleError(e.reason);
    if (!e.meetsTargets)
        throw InfeasibleError(e.reason);
    return ExitOk;
}

} // namespace cp::cli
