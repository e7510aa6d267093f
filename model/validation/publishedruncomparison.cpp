// SPDX-License-Identifier: GPL-3.0-or-later
#include "model/validation/publishedruncomparison.h"

#include "model/catalog/catalog.h"

#include <algorithm>
#include <cstdio>
#include <exception>

namespace cp::model {

namespace {

/** Fewer runs than this of the estimate's own kind (dense or MoE) widen the set to both. */
constexpr int fewestRunsOfOneKind = 3;

std::string percent(double fraction)
{
    char text[32];
    std::snprintf(text, sizeof text, "%.1f%%", 100 * fraction);
    return text;
}

std::vector<const TrainingValidationRow *>
runsOfKind(const std::vector<TrainingValidationRow> &runs, const std::string &gpuId,
           const std::string &precisionClass, const bool *moe)
{
    std::vector<const TrainingValidationRow *> chosen;
    for (const TrainingValidationRow &run : runs) {
        if (run.gpuId == gpuId && trainingPrecisionClass(run.precision) == precisionClass
            && (!moe || run.moe == *moe))
            chosen.push_back(&run);
    }
    return chosen;
}

} // namespace

std::string trainingPrecisionClass(Precision precision)
{
    return precision == Precision::FP8 ? "FP8" : "16-bit";
}

PublishedRunComparison summarizePublishedRuns(const std::vector<TrainingValidationRow> &runs,
                                              const std::string &gpuId, Precision precision,
                                              bool moe, double estimateMfu)
{
    PublishedRunComparison out;
    out.precisionClass = trainingPrecisionClass(precision);
    out.estimateMfu = estimateMfu;
    std::vector<const TrainingValidationRow *> chosen
        = runsOfKind(runs, gpuId, out.precisionClass, &moe);
    out.kind = moe ? "mixture of experts" : "dense";
    if (static_cast<int>(chosen.size()) < fewestRunsOfOneKind) {
        std::vector<const TrainingValidationRow *> wider
            = runsOfKind(runs, gpuId, out.precisionClass, nullptr);
        if (wider.size() > chosen.size()) {
            chosen = std::move(wider);
            out.kind = "dense and MoE";
        }
    }
    if (chosen.empty()) {
        out.unavailable = "no published " + out.precisionClass + " training run on this GPU";
        return out;
    }
    out.gpuName = chosen.front()->gpuName;
    out.runs = static_cast<int>(chosen.size());
    const auto byMfu = [](const TrainingValidationRow *a, const TrainingValidationRow *b) {
        return a->publishedMfu < b->publishedMfu;
    };
    const auto [slowest, fastest] = std::minmax_element(chosen.begin(), chosen.end(), byMfu);
    out.lowestMfu = (*slowest)->publishedMfu;
    out.highestMfu = (*fastest)->publishedMfu;
    const ParallelConfig &layout = (*fastest)->estimate.config;
    const long long gpus = 1LL * layout.tp * layout.pp * layout.cp * layout.dp;
    out.fastestRun = (*fastest)->modelName + " on " + std::to_string(gpus) + " GPUs";
    std::vector<double> errors;
    for (const TrainingValidationRow *run : chosen)
        errors.push_back(run->signedError());
    out.estimatorError = summarizeSignedErrors(errors);
    return out;
}

PublishedRunComparison compareWithPublishedRuns(const Catalog &catalog, const std::string &gpuId,
                                                Precision precision, bool moe, double estimateMfu)
{
    const PublishedRunTable &table = catalog.publishedRuns(PublishedRunKind::Training);
    if (!table.document) {
        PublishedRunComparison none;
        none.estimateMfu = estimateMfu;
        none.unavailable = "no published-runs table beside the catalog "
                           "(catalogs/validation/training_validation.json)";
        return none;
    }
    try {
        const std::vector<TrainingValidationRow> runs
            = runTrainingValidationForGpu(*table.document, catalog, table.file, gpuId);
        return summarizePublishedRuns(runs, gpuId, precision, moe, estimateMfu);
    } catch (const std::exception &error) {
        // A user's catalog without a node the runs need, or a damaged installation: the
        // estimate stands on its own, and the reason is shown instead of the comparison.
        PublishedRunComparison none;
        none.estimateMfu = estimateMfu;
        none.unavailable = std::string("the published runs cannot be estimated with this "
                                       "catalog: ")
            + error.what();
        return none;
    }
}

std::string publishedRunsText(const PublishedRunComparison &c)
{
    if (!c.available())
        return "none to compare with (" + c.unavailable + ").";
    const bool one = c.runs == 1;
    std::string text = std::to_string(c.runs) + " on the " + c.gpuName + " (" + c.precisionClass
        + ", " + c.kind + ") reached "
        + (one ? percent(c.highestMfu) : percent(c.lowestMfu) + " to " + percent(c.highestMfu))
        + " MFU; the estimator's error on " + (one ? "it" : "them") + " is "
        + signedErrorRangeText(c.estimatorError) + " (positive: predicted faster than measured).";
    if (c.aboveEveryRun())
        text += " This estimate's " + percent(c.estimateMfu) + " is above the fastest of them, "
            + c.fastestRun + " at " + percent(c.highestMfu)
            + ": no published run on this GPU and precision reaches it.";
    return text;
}

} // namespace cp::model
