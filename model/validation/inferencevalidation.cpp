// SPDX-License-Identifier: GPL-3.0-or-later
#include "model/validation/inferencevalidation.h"

#include "model/catalog/catalog.h"
#include "model/catalog/catalogparser.h"
#include "model/core/humantext.h"
#include "model/core/jsonfieldreader.h"
#include "model/core/units.h"
#include "model/inference/fleetcapacity.h"
#include "model/inference/inferenceestimator.h"
#include "model/inference/inferencesetup.h"
#include "model/inference/servingfloor.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace cp::model {

namespace {

ModelSpec modelOf(const nlohmann::json &raw, JsonFieldReader &row, const Catalog &catalog)
{
    const auto it = raw.find("model");
    if (it == raw.end() || !it->is_object())
        return catalogEntryAt(row, "model", catalog, &Catalog::llm); // a catalog id
    JsonFieldReader reader(row.object("model"), row.file(), row.childPointer("model"));
    ModelSpec model;
    model.id = "validation";
    model.name = reader.string("name");
    readModelShape(reader, model);
    reader.accept("params_b");
    reader.accept("source");
    reader.finish();
    return model;
}

Precision precisionOf(JsonFieldReader &row, const char *key, const char *fallback)
{
    const std::string name
        = row.optionalChoice(key, {"fp16", "bf16", "fp8", "int8", "int4", "int4-awq"})
              .value_or(fallback);
    if (name == "int4-awq")
        return Precision::INT4;
    return *precisionFromName(name);
}

struct Metric
{
    const char *name;
    bool latency;
};

constexpr Metric metrics[] = {
    {"output_tokens_per_second_per_gpu", false},
    {"output_tokens_per_second_total", false},
    {"total_tokens_per_second_total", false},
    {"requests_per_second", false},
    {"ttft_ms", true},
    {"tpot_ms", true},
    {"e2e_latency_ms", true},
};

/** A throughput metric of `gpus` GPUs generating `outputTotal` tokens a second in all. */
double throughputValue(const std::string &metric, double outputTotal, int gpus, double inputTokens,
                       double outputTokens)
{
    if (metric == "output_tokens_per_second_per_gpu")
        return outputTotal / gpus;
    if (metric == "total_tokens_per_second_total")
        return outputTotal * (inputTokens + outputTokens) / outputTokens;
    if (metric == "requests_per_second")
        return outputTotal / outputTokens;
    return outputTotal; // output_tokens_per_second_total
}

bool isLatencyMetric(const std::string &metric)
{
    for (const Metric &known : metrics)
        if (metric == known.name)
            return known.latency;
    return false;
}

double predictedValue(const std::string &metric, const InferenceEstimate &e, int gpus,
                      double inputTokens, double outputTokens)
{
    // A run of a stated number of requests is measured over the whole run, its smaller last
    // wave included (InferenceJob::offlineRequests).
    const double perGpu
        = e.offlineJob ? e.offlineJob->outputTokensPerSecondPerGpu : e.outputTokensPerSecondPerGpu;
    if (!isLatencyMetric(metric))
        return throughputValue(metric, perGpu * gpus, gpus, inputTokens, outputTokens);
    // Every published latency in the table is a mean or a median: the estimate's median (under
    // an offered load the TTFT spreads over a step; at a fixed batch all percentiles agree).
    if (metric == "ttft_ms")
        return e.ttftP50Seconds * 1e3;
    if (metric == "tpot_ms")
        return e.tpotSeconds * 1e3;
    return e.endToEndP50Seconds() * 1e3; // e2e_latency_ms
}

/** True when `object` holds `key` as JSON null (the table's "not stated"). */
bool isNull(const nlohmann::json &object, const char *key)
{
    const auto it = object.find(key);
    return it == object.end() || it->is_null();
}

/** A positive number the row may leave null (not published). */
std::optional<double> nullableNumber(const nlohmann::json &object, JsonFieldReader &reader,
                                     const char *key)
{
    if (isNull(object, key)) {
        reader.accept(key);
        return std::nullopt;
    }
    return reader.number(key, positive);
}

/** The workload's mean prompt and output lengths: the dataset's where the row gives its
 * distribution (it describes the workload better than a nominal length), else the nominal. */
std::pair<std::optional<double>, std::optional<double>> tokenLengthsOf(const nlohmann::json &raw,
                                                                       JsonFieldReader &row)
{
    std::optional<double> inputTokens = nullableNumber(raw, row, "input_tokens");
    std::optional<double> outputTokens = nullableNumber(raw, row, "output_tokens");
    if (isNull(raw, "token_distribution")) {
        row.accept("token_distribution");
        return {inputTokens, outputTokens};
    }
    const nlohmann::json &distribution = row.object("token_distribution");
    JsonFieldReader d(distribution, row.file(), row.childPointer("token_distribution"));
    if (auto mean = nullableNumber(distribution, d, "input_mean"))
        inputTokens = mean;
    if (auto mean = nullableNumber(distribution, d, "output_mean"))
        outputTokens = mean;
    for (const char *key : {"source", "input_median", "output_median", "output_reference_mean",
                            "max_input", "samples"})
        d.accept(key);
    d.finish();
    return {inputTokens, outputTokens};
}

/** Sequences one replica runs at once: the row's batch, or its concurrent requests spread over
 * the replicas (each runs its share at once); none for a rate-driven row. */
std::optional<int> batchOf(const nlohmann::json &raw, JsonFieldReader &row, int gpus,
                           int gpusPerReplica)
{
    std::optional<int> batch;
    row.accept("batch");
    row.accept("concurrency");
    if (!isNull(raw, "batch"))
        batch = row.integer("batch", 1, 1 << 20);
    if (!isNull(raw, "concurrency")) {
        const int concurrency = row.integer("concurrency", 1, 1 << 20);
        const int replicas = std::max(1, gpus / gpusPerReplica);
        batch = std::max(1, concurrency / replicas);
    }
    return batch;
}

/** The published figure and which metric (throughput or latency) it is. */
void readMeasured(JsonFieldReader &row, InferenceValidationRow &out)
{
    JsonFieldReader measured(row.object("measured"), row.file(), row.childPointer("measured"));
    std::vector<std::string> names;
    for (const Metric &metric : metrics)
        names.push_back(metric.name);
    out.metric = measured.choice("metric", names);
    out.latency = isLatencyMetric(out.metric);
    out.measured = measured.number("value", positive);
    measured.accept("statistic");
    measured.finish();
}

/**
 * The latency limits a server-scenario row was measured under (`latency_limits`: percentile 95
 * or 99, ttft_ms, tpot_ms, their source): the row is then scored as the most the fleet serves
 * within them. Only a throughput measured at an offered rate can be: that is what a server run
 * publishes.
 */
std::optional<LatencyLimits> latencyLimitsOf(const nlohmann::json &raw, JsonFieldReader &row,
                                             const InferenceValidationRow &out)
{
    if (isNull(raw, "latency_limits")) {
        row.accept("latency_limits");
        return std::nullopt;
    }
    if (out.latency || isNull(raw, "request_rate"))
        row.fail("latency_limits",
                 "latency limits score the rate a fleet serves within them: "
                 "give them on a throughput measured at a request_rate");
    const nlohmann::json &object = row.object("latency_limits");
    JsonFieldReader reader(object, row.file(), row.childPointer("latency_limits"));
    LatencyLimits limits;
    const int percentile = reader.integer("percentile", 95, 99);
    if (percentile != 95 && percentile != 99)
        reader.fail("percentile", "the estimator gives latencies at the 95th and 99th percentile");
    limits.percentile
        = percentile == 99 ? LatencyLimits::Percentile::P99 : LatencyLimits::Percentile::P95;
    if (auto ttft = nullableNumber(object, reader, "ttft_ms"))
        limits.ttftSeconds = *ttft / 1e3;
    if (auto tpot = nullableNumber(object, reader, "tpot_ms"))
        limits.tpotSeconds = *tpot / 1e3;
    reader.string("source");
    reader.finish();
    return limits;
}

/** The serving-engine profile of the engine a row names ("vllm-main-ci", "lmdeploy-0.1.0a1-...",
 * "mlperf-v4.1-amd-vllm": a submitter's vLLM-based harness runs vLLM). */
const char *profileForEngine(const std::string &engine)
{
    if (engine.rfind("vllm", 0) == 0 || engine.find("-vllm") != std::string::npos)
        return "vllm-0.6";
    if (engine.rfind("lmdeploy", 0) == 0)
        return "lmdeploy-0.1";
    if (engine.rfind("tensorrt-llm-0.9", 0) == 0)
        return "tensorrt-llm-0.9";
    return "tensorrt-llm-0.12";
}

/** The serving job the row describes (model, precisions, engine, layout, lengths, batch). */
InferenceJob jobOf(const nlohmann::json &raw, JsonFieldReader &row, const Catalog &catalog,
                   InferenceValidationRow &out, int gpus)
{
    const int tp = isNull(raw, "tp") ? 1 : row.integer("tp", 1, 1024);
    const int pp = isNull(raw, "pp") ? 1 : row.integer("pp", 1, 1024);
    row.accept("tp");
    row.accept("pp");
    InferenceJob job;
    job.model = modelOf(raw, row, catalog);
    out.modelId = job.model.id;
    out.modelName = job.model.name;
    out.moe = job.model.isMoe();
    job.weightPrecision = precisionOf(row, "precision", "fp16");
    job.kvPrecision
        = isNull(raw, "kv_precision") ? Precision::FP16 : precisionOf(row, "kv_precision", "fp16");
    row.accept("kv_precision");
    if (job.kvPrecision == Precision::INT4)
        row.fail("kv_precision", "an INT4 K/V cache is not modelled");
    // vLLM rows run on the vLLM profile and LMDeploy's on TurboMind's; TensorRT-LLM, NIM (built
    // on it) and MLPerf's NVIDIA submissions on TensorRT-LLM's.
    out.engineProfile = profileForEngine(out.engine);
    job.engine = *findServingEngine(out.engineProfile);
    job.gpusPerReplica = tp * pp;
    job.pipelineStages = pp;
    const auto [inputTokens, outputTokens] = tokenLengthsOf(raw, row);
    if (!inputTokens || !outputTokens)
        out.notEstimated = "the workload's mean prompt or output length is not published";
    job.inputTokens = static_cast<int>(std::lround(inputTokens.value_or(1)));
    job.outputTokens = static_cast<int>(std::lround(outputTokens.value_or(1)));
    job.batch = batchOf(raw, row, gpus, job.gpusPerReplica);
    // The engine's cap on sequences per batch as the run configured it (MLPerf's
    // gpu_batch_size); unstated, none: benchmark harnesses size it for the run (trtllm-bench
    // picks its own), so the profile's serving default (vLLM's 256) does not describe them.
    job.maxBatch = isNull(raw, "max_batch") ? InferenceJob::noBatchCap
                                            : row.integer("max_batch", 1, 1 << 20);
    row.accept("max_batch");
    if (!isNull(raw, "request_rate") && !job.batch) {
        // MLPerf's server scenario: the fleet serves an offered rate (InferenceJob::replicas).
        job.ratePerSecond = row.number("request_rate", positive);
        job.replicas = std::max(1, gpus / job.gpusPerReplica);
    }
    row.accept("request_rate");
    // A benchmark run of a stated number of requests, all queued at once (trtllm-bench's
    // $num_requests): the run's throughput includes its last, smaller wave.
    if (!isNull(raw, "requests")) {
        if (job.ratePerSecond)
            row.fail("requests", "a run at a request rate is not an offline job");
        job.offlineRequests = row.largeInteger("requests", 1, InferenceJob::maxOfflineRequests);
        job.replicas = std::max(1, gpus / job.gpusPerReplica);
    }
    row.accept("requests");
    return job;
}

/** What sets a pass's floor: its weights at the datasheet bandwidth, or its GEMMs at the peak. */
std::string floorReason(const ServingFloor &floor, double tokens)
{
    const double bytes = floor.weightBytesRead(tokens);
    const double flops = floor.gemmFlops(tokens);
    if (bytes / floor.memoryBytesPerSecond >= flops / floor.peakFlopsPerSecond)
        return "a rank streams the " + formatNumber("%.3g", bytes / 1e9)
            + " GB of weights its tokens touch at the datasheet's "
            + groupThousands(formatNumber("%.0f", floor.memoryBytesPerSecond / 1e9)) + " GB/s";
    return "a rank's " + formatNumber("%.3g", flops / 1e12) + " TFLOP of weight GEMMs at the "
        + "datasheet's " + groupThousands(formatNumber("%.0f", floor.peakFlopsPerSecond / 1e12))
        + " TFLOP/s";
}

/**
 * The floor a figure of the row's metric cannot beat where the row states how many sequences run
 * at once (ServingFloor): a request's prompt passes at least its own tokens; a decode step at
 * least one sequence's token, or the whole static batch's; and a replica generates at most that
 * many tokens a step, no faster than the floor of a step of that many. None where the row states
 * no batch (offline at the engine's choice, or an offered rate): no floor follows from the
 * description alone.
 */
std::optional<InferenceValidationRow::Floor> floorOf(const InferenceJob &job, const GpuSpec &gpu,
                                                     const std::string &metric, int gpus,
                                                     bool staticBatch)
{
    if (!job.batch || job.ratePerSecond)
        return std::nullopt;
    const double tensorParallel
        = static_cast<double>(job.gpusPerReplica) / std::max(1, job.pipelineStages.value_or(1));
    const ServingFloor floor = servingFloorOf(TransformerShape::fromModel(job.model), gpu,
                                              job.weightPrecision, tensorParallel);
    const double inFlight = *job.batch;
    const double stepTokens = staticBatch ? inFlight : 1.0;
    const double promptSeconds = floor.passSeconds(job.inputTokens);
    const double stepSeconds = floor.passSeconds(stepTokens);
    if (metric == "ttft_ms")
        return InferenceValidationRow::Floor {promptSeconds * 1e3,
                                              floorReason(floor, job.inputTokens)};
    if (metric == "tpot_ms")
        return InferenceValidationRow::Floor {stepSeconds * 1e3, floorReason(floor, stepTokens)};
    if (metric == "e2e_latency_ms")
        return InferenceValidationRow::Floor {
            (promptSeconds + (job.outputTokens - 1) * stepSeconds) * 1e3,
            "its prompt and " + std::to_string(job.outputTokens - 1)
                + " decode steps; a step: " + floorReason(floor, stepTokens)};
    const double replicas = std::max(1, gpus / job.gpusPerReplica);
    return InferenceValidationRow::Floor {
        throughputValue(metric, replicas * inFlight / floor.passSeconds(inFlight), gpus,
                        job.inputTokens, job.outputTokens),
        formatNumber("%.0f", inFlight) + " tokens a step; " + floorReason(floor, inFlight)};
}

/** Why the published figure breaks the row's floor, or empty. */
std::string floorBreach(const InferenceValidationRow &row)
{
    if (!row.floor)
        return {};
    const bool breaks
        = row.latency ? row.measured < row.floor->value : row.measured > row.floor->value;
    if (!breaks)
        return {};
    return std::string("faster than its stated workload allows: ")
        + (row.latency ? "at least " + threeDigits(row.floor->value) + " ms"
                       : "at most " + threeDigits(row.floor->value))
        + " (" + row.floor->reason + ")";
}

InferenceValidationRow runRow(const nlohmann::json &raw, JsonFieldReader &row,
                              const Catalog &catalog)
{
    InferenceValidationRow out;
    out.id = row.string("id");
    row.string("source");
    out.engine = row.optionalString("engine").value_or("");
    const GpuSpec &gpu = catalogEntryAt(row, "gpu", catalog, &Catalog::gpu);
    const std::string gpuId = gpu.id;
    out.gpuId = gpuId;
    out.gpuName = gpu.name;
    const int gpus = row.integer("gpus", 1, 1 << 20);
    const InferenceJob job = jobOf(raw, row, catalog, out, gpus);
    out.weightPrecision = job.weightPrecision;
    readMeasured(row, out);
    out.underLoad = job.ratePerSecond && job.replicas;
    const std::optional<LatencyLimits> limits = latencyLimitsOf(raw, row, out);
    out.withinLimits = limits.has_value();
    if (out.underLoad && !out.latency && !limits && out.notEstimated.empty())
        out.notEstimated = "a fleet that keeps up serves the offered rate: its throughput is the "
                           "rate, nothing for the estimator to predict";
    row.accept("notes");
    row.finish();
    if (!out.notEstimated.empty())
        return out;

    const std::string nodeId = nodeForGpu(catalog, gpuId);
    if (nodeId.empty())
        row.fail("gpu", "no catalog node carries '" + gpuId + "'");
    const InferenceSetup setup = inferenceSetupFromCatalog(catalog,
                                                           {.nodeId = nodeId,
                                                            .gpuId = gpuId,
                                                            .facilityId = "dc-industry-average",
                                                            .hourlyUsdPerGpu = 2.0});
    if (limits) {
        const FleetCapacity capacity
            = fleetCapacityWithinLimits(job, setup.hardware, setup.cost, *limits);
        out.estimate = capacity.estimate;
        if (!capacity.serves) {
            out.notEstimated = "no load keeps the latency limits: " + capacity.reason;
            return out;
        }
        out.estimate.bottleneck = "limit: " + capacity.capacity().limitedBy;
        out.predicted = throughputValue(out.metric, capacity.capacity().outputTokensPerSecond, gpus,
                                        job.inputTokens, job.outputTokens);
        return out;
    }
    const InferenceEstimator estimator(job, setup.hardware, setup.cost);
    out.estimate = estimator.estimate();
    if (!out.estimate.fits) {
        out.notEstimated
            = "the estimator cannot run the published workload: " + out.estimate.reason;
        return out;
    }
    out.predicted
        = predictedValue(out.metric, out.estimate, gpus, job.inputTokens, job.outputTokens);
    out.floor = floorOf(job, setup.hardware.gpu, out.metric, gpus, !isNull(raw, "batch"));
    out.beyondFloor = floorBreach(out);
    return out;
}

/** "a, b and c": the rows' ids in their order. */
std::string listOfIds(const std::vector<InferenceValidationRow> &rows)
{
    std::vector<std::string> ids;
    for (const InferenceValidationRow &row : rows)
        ids.push_back(row.id);
    return joinedList(ids);
}

std::string summaryLine(const char *label, const std::vector<InferenceValidationRow> &rows)
{
    return validationSummaryRow(label, summarizeInferenceValidation(rows));
}

template<typename Predicate>
std::vector<InferenceValidationRow> select(const std::vector<InferenceValidationRow> &rows,
                                           Predicate keep)
{
    std::vector<InferenceValidationRow> subset;
    std::copy_if(rows.begin(), rows.end(), std::back_inserter(subset), keep);
    return subset;
}

} // namespace

namespace {
std::vector<InferenceValidationRow> runRows(const nlohmann::json &table, const Catalog &catalog,
                                            const std::string &file, const std::string *onlyGpuId)
{
    const nlohmann::json &rows
        = validationTableRows(table, file, "clusterplanner-inference-validation");
    std::vector<InferenceValidationRow> result;
    for (std::size_t i = 0; i < rows.size(); ++i) {
        if (onlyGpuId && !validationRowMeasuredOn(rows[i], *onlyGpuId))
            continue;
        JsonFieldReader row(rows[i], file, "/rows/" + std::to_string(i));
        result.push_back(runRow(rows[i], row, catalog));
    }
    return result;
}
} // namespace

std::vector<InferenceValidationRow>
runInferenceValidation(const nlohmann::json &table, const Catalog &catalog, const std::string &file)
{
    return runRows(table, catalog, file, nullptr);
}

std::vector<InferenceValidationRow> runInferenceValidationForGpu(const nlohmann::json &table,
                                                                 const Catalog &catalog,
                                                                 const std::string &file,
                                                                 const std::string &gpuId)
{
    return runRows(table, catalog, file, &gpuId);
}

ValidationSummary summarizeInferenceValidation(const std::vector<InferenceValidationRow> &all)
{
    std::vector<double> errors;
    for (const InferenceValidationRow &row : all) {
        // Rows that could not be estimated, or whose figure contradicts their own workload,
        // are not in the figures.
        if (row.scored())
            errors.push_back(row.signedError());
    }
    return summarizeSignedErrors(errors);
}

std::string inferenceValidationMarkdown(const std::vector<InferenceValidationRow> &rows,
                                        const std::string &tableFile)
{
    std::string text = "# Validation: inference estimator against published serving runs\n\n";
    text += "Generated by `clusterplanner-validate " + tableFile
        + "` from the shipped catalog; do not edit by hand. Each row is a published measurement "
          "(its source and workload are in the table file) estimated for the workload it "
          "describes; nothing is fitted to these rows. A positive error means the estimator is "
          "optimistic: a throughput predicted too high or a latency predicted too low. Rows "
          "under an offered load are MLPerf server runs: a fixed fleet at the rate the "
          "submitter chose to just meet the latency limits, so close to saturation that a "
          "capacity error of a few percent moves the latencies by multiples (batch: the "
          "in-flight sequences the estimate finds). A server run's throughput is scored as "
          "what it is, the most the fleet serves within the benchmark's p99 TTFT and TPOT "
          "limits (the submitter raises the rate until one breaks): a well-conditioned "
          "figure, each percent of capacity error a percent here; the bottleneck column names "
          "the limit that a little more load breaks.\n\n";
    text += "A row is set aside, estimated and listed but left out of the summaries, when its "
            "published figure is faster than any engine can run the workload it states: the "
            "floor of every weight its tokens touch streamed once at the datasheet's HBM "
            "bandwidth, or their GEMMs at the datasheet peak, with no K/V traffic, overhead or "
            "efficiency below 100% (a mixture of experts reading the experts that tokens routed "
            "evenly touch). Such a figure describes some other run (other weights, another "
            "precision, routing that touched fewer experts), not the row.";
    const auto setAside = select(rows, [](const auto &r) { return !r.beyondFloor.empty(); });
    if (setAside.empty())
        text += " No row is.\n\n";
    else
        text += (setAside.size() == 1 ? std::string(" 1 row is: ")
                                      : " " + std::to_string(setAside.size()) + " rows are: ")
            + listOfIds(setAside) + ".\n\n";
    text += validationSummaryHeader();
    text += summaryLine("throughput", select(rows, [](const auto &r) { return !r.latency; }));
    text += summaryLine("throughput at a batch, a concurrency or offline",
                        select(rows, [](const auto &r) { return !r.latency && !r.withinLimits; }));
    text += summaryLine("fleet capacity within latency limits (MLPerf server)",
                        select(rows, [](const auto &r) { return r.withinLimits; }));
    text += summaryLine("latency (TTFT, TPOT, end to end)",
                        select(rows, [](const auto &r) { return r.latency; }));
    text += summaryLine("latency at a given batch or concurrency",
                        select(rows, [](const auto &r) { return r.latency && !r.underLoad; }));
    text += summaryLine("latency under an offered load (MLPerf server)",
                        select(rows, [](const auto &r) { return r.latency && r.underLoad; }));
    for (const std::string &gpu : gpuNamesInOrder(rows))
        text += summaryLine(gpu.c_str(),
                            select(rows, [&](const auto &r) { return r.gpuName == gpu; }));
    // By the software that measured them: one published table can hold many rows, and its
    // engine's own bias would otherwise hide in the suite's figures.
    std::vector<std::string> engines;
    for (const InferenceValidationRow &row : rows)
        if (std::find(engines.begin(), engines.end(), row.engine) == engines.end())
            engines.push_back(row.engine);
    for (const std::string &engine : engines)
        text += summaryLine(("measured with " + engine).c_str(),
                            select(rows, [&](const auto &r) { return r.engine == engine; }));
    text += "\n| run | GPU | model | engine | metric | batch | published | predicted | error | "
            "bottleneck |\n";
    text += "| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |\n";
    for (const InferenceValidationRow &row : rows) {
        char line[768];
        if (!row.notEstimated.empty()) {
            std::snprintf(
                line, sizeof line, "| %s | %s | %s | %s | %s | | %.4g | not estimated: %s | | |\n",
                row.id.c_str(), row.gpuName.c_str(), row.modelName.c_str(), row.engine.c_str(),
                row.metric.c_str(), row.measured, row.notEstimated.c_str());
            text += line;
            continue;
        }
        const std::string note
            = row.beyondFloor.empty() ? row.estimate.bottleneck : "set aside, " + row.beyondFloor;
        std::snprintf(line, sizeof line,
                      "| %s | %s | %s | %s | %s | %d | %.4g | %.4g | %+.1f%% | %s |\n",
                      row.id.c_str(), row.gpuName.c_str(), row.modelName.c_str(),
                      row.engine.c_str(), row.metric.c_str(), row.estimate.batch, row.measured,
                      row.predicted, 100 * row.signedError(), note.c_str());
        text += line;
    }
    return text;
}

} // namespace cp::model
