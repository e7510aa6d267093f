// SPDX-License-Identifier: GPL-3.0-or-later
#include "model/validation/publishedservingcomparison.h"

#include "model/catalog/catalog.h"

#include <algorithm>
#include <cctype>
#include <exception>

namespace cp::model {

namespace {

std::string countOf(int rows, const char *singular, const char *plural)
{
    return std::to_string(rows) + " " + (rows == 1 ? singular : plural);
}

/** "-3.2% to +12.8%, mean +4.9%, on 5 throughputs" and the suffix after it. */
std::string errorsOnText(const ValidationSummary &errors, const char *singular, const char *plural,
                         const char *suffix = "")
{
    return signedErrorRangeText(errors) + ", on " + countOf(errors.rows, singular, plural) + suffix;
}

} // namespace

std::string servingPrecisionClass(Precision weights)
{
    if (weights == Precision::FP16 || weights == Precision::BF16)
        return "16-bit";
    std::string name = precisionName(weights); // "fp8" -> "FP8"
    std::transform(name.begin(), name.end(), name.begin(),
                   [](unsigned char c) { return static_cast<char>(std::toupper(c)); });
    return name;
}

PublishedServingComparison
summarizePublishedServing(const std::vector<InferenceValidationRow> &rows,
                          const PublishedServingQuery &query)
{
    PublishedServingComparison out;
    out.weights = servingPrecisionClass(query.weights);
    std::vector<double> throughput, latency, underLoad, capacity, modelThroughput, modelLatency;
    for (const InferenceValidationRow &row : rows) {
        if (row.gpuId != query.gpuId || !row.scored()
            || servingPrecisionClass(row.weightPrecision) != out.weights)
            continue;
        out.gpuName = row.gpuName;
        (row.withinLimits    ? capacity
             : !row.latency  ? throughput
             : row.underLoad ? underLoad
                             : latency)
            .push_back(row.signedError());
        if (!query.modelId.empty() && row.modelId == query.modelId && !row.underLoad) {
            out.modelName = row.modelName;
            (row.latency ? modelLatency : modelThroughput).push_back(row.signedError());
        }
    }
    out.throughput = summarizeSignedErrors(throughput);
    out.latency = summarizeSignedErrors(latency);
    out.latencyUnderLoad = summarizeSignedErrors(underLoad);
    out.capacityWithinLimits = summarizeSignedErrors(capacity);
    out.sameModelThroughput = summarizeSignedErrors(modelThroughput);
    out.sameModelLatency = summarizeSignedErrors(modelLatency);
    if (!out.available())
        out.unavailable
            = "no published serving measurement with " + out.weights + " weights on this GPU";
    return out;
}

PublishedServingComparison compareServingWithPublishedRuns(const Catalog &catalog,
                                                           const PublishedServingQuery &query)
{
    const PublishedRunTable &table = catalog.publishedRuns(PublishedRunKind::Inference);
    PublishedServingComparison none;
    none.weights = servingPrecisionClass(query.weights);
    if (!table.document) {
        none.unavailable = "no published-measurements table beside the catalog "
                           "(catalogs/validation/inference_validation.json)";
        return none;
    }
    try {
        return summarizePublishedServing(
            runInferenceValidationForGpu(*table.document, catalog, table.file, query.gpuId), query);
    } catch (const std::exception &error) {
        // The estimate stands on its own; the reason is shown instead of the comparison.
        none.unavailable = std::string("the published measurements cannot be estimated with "
                                       "this catalog: ")
            + error.what();
        return none;
    }
}

std::string publishedServingText(const PublishedServingComparison &c)
{
    if (!c.available())
        return "none to compare with (" + c.unavailable + ").";
    std::vector<std::string> parts;
    if (c.throughput.rows > 0)
        parts.push_back(errorsOnText(c.throughput, "throughput", "throughputs"));
    if (c.latency.rows > 0)
        parts.push_back(errorsOnText(c.latency, "latency", "latencies", " at a given batch"));
    if (c.latencyUnderLoad.rows > 0)
        parts.push_back(errorsOnText(c.latencyUnderLoad, "latency", "latencies",
                                     " under an offered load (MLPerf server)"));
    if (c.capacityWithinLimits.rows > 0)
        parts.push_back(errorsOnText(c.capacityWithinLimits, "fleet capacity", "fleet capacities",
                                     " within latency limits (MLPerf server)"));
    std::string text
        = "on the " + c.gpuName + " with " + c.weights + " weights the estimator was off by ";
    for (std::size_t i = 0; i < parts.size(); ++i)
        text += (i == 0 ? "" : i + 1 == parts.size() ? "; and by " : "; by ") + parts[i];
    text += " (positive: predicted faster than measured).";
    std::vector<std::string> own;
    if (c.sameModelThroughput.rows > 0)
        own.push_back(errorsOnText(c.sameModelThroughput, "throughput", "throughputs"));
    if (c.sameModelLatency.rows > 0)
        own.push_back(
            errorsOnText(c.sameModelLatency, "latency", "latencies", " at a given batch"));
    if (!own.empty())
        text += " On " + c.modelName
            + " itself: " + (own.size() == 1 ? own[0] : own[0] + "; and " + own[1]) + ".";
    return text;
}

} // namespace cp::model
