// SPDX-License-Identifier: GPL-3.0-or-later
#include "model/validation/publishedruncomparison.h"

#include "model/catalog/catalog.h"
#include "model/core/humantext.h"
#include "model/training/transformershape.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <exception>
#include <limits>

namespace cp::model {

namespace {

/** Fewer runs than this of the estimate's own kind (dense or MoE) widen the set to both. */
constexpr int fewestRunsOfOneKind = 3;

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

/** "GPT 16B (Megatron-Core weak-scaling) on 192 GPUs". */
std::string runLabel(const TrainingValidationRow &run)
{
    const ParallelConfig &layout = run.estimate.config;
    const long long gpus = 1LL * layout.tp * layout.pp * layout.cp * layout.dp;
    return run.modelName + " on " + std::to_string(gpus) + " GPUs";
}

/** The run whose model's parameter count is nearest `parameters` (> 0) by ratio, the first of
 * equals. */
const TrainingValidationRow &nearestInSize(const std::vector<const TrainingValidationRow *> &runs,
                                           double parameters)
{
    const auto distance = [parameters](const TrainingValidationRow *run) {
        return run->parameters > 0 ? std::abs(std::log(run->parameters / parameters))
                                   : std::numeric_limits<double>::infinity();
    };
    return **std::min_element(runs.begin(), runs.end(),
                              [&](const TrainingValidationRow *a, const TrainingValidationRow *b) {
                                  return distance(a) < distance(b);
                              });
}

} // namespace

PublishedRunQuery publishedRunQuery(const TrainingJob &job, const std::string &gpuId, double mfu)
{
    return {.gpuId = gpuId,
            .precision = job.precision,
            .moe = job.model.isMoe(),
            .parameters = TransformerShape::fromModel(job.model).totalParameters(),
            .mfu = mfu};
}

std::string trainingPrecisionClass(Precision precision)
{
    return precision == Precision::FP8 ? "FP8" : "16-bit";
}

PublishedRunComparison summarizePublishedRuns(const std::vector<TrainingValidationRow> &runs,
                                              const PublishedRunQuery &query)
{
    PublishedRunComparison out;
    out.precisionClass = trainingPrecisionClass(query.precision);
    out.estimateMfu = query.mfu;
    std::vector<const TrainingValidationRow *> chosen
        = runsOfKind(runs, query.gpuId, out.precisionClass, &query.moe);
    out.kind = query.moe ? "mixture of experts" : "dense";
    if (static_cast<int>(chosen.size()) < fewestRunsOfOneKind) {
        std::vector<const TrainingValidationRow *> wider
            = runsOfKind(runs, query.gpuId, out.precisionClass, nullptr);
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
    out.fastestRun = runLabel(**fastest);
    if (query.parameters > 0) {
        const TrainingValidationRow &nearest = nearestInSize(chosen, query.parameters);
        out.nearestRun = runLabel(nearest);
        out.nearestRunMfu = nearest.publishedMfu;
        out.nearestRunSignedError = nearest.signedError();
    }
    std::vector<double> errors;
    for (const TrainingValidationRow *run : chosen)
        errors.push_back(run->signedError());
    out.estimatorError = summarizeSignedErrors(errors);
    return out;
}

PublishedRunComparison compareWithPublishedRuns(const Catalog &catalog,
                                                const PublishedRunQuery &query)
{
    PublishedRunComparison none;
    none.estimateMfu = query.mfu;
    const PublishedRunTable &table = catalog.publishedRuns(PublishedRunKind::Training);
    if (!table.document) {
        none.unavailable = "no published-runs table beside the catalog "
                           "(catalogs/validation/training_validation.json)";
        return none;
    }
    try {
        PublishedRunComparison own = summarizePublishedRuns(
            runTrainingValidationForGpu(*table.document, catalog, table.file, query.gpuId), query);
        if (own.available())
            return own;
        // No run on this GPU: another's with the same dense tensor peaks at every precision runs
        // the same tensor cores (the H200 is the H100's GH100 with more and faster memory), so
        // its runs bound what this one reaches; an H200 at 60.7% MFU had "none to compare with".
        const auto samePeaks = [](const GpuSpec &a, const GpuSpec &b) {
            if (a.denseFlopsPerSecond.size() != b.denseFlopsPerSecond.size())
                return false;
            for (const auto &[precision, flops] : a.denseFlopsPerSecond) {
                const auto other = b.denseFlopsPerSecond.find(precision);
                if (other == b.denseFlopsPerSecond.end()
                    || std::abs(other->second - flops) > 1e-3 * flops)
                    return false;
            }
            return !a.denseFlopsPerSecond.empty();
        };
        const GpuSpec &gpu = catalog.gpu(query.gpuId);
        for (const auto &[id, other] : catalog.gpus()) {
            if (id == query.gpuId || !samePeaks(gpu, other))
                continue;
            PublishedRunQuery onOther = query;
            onOther.gpuId = id;
            PublishedRunComparison standIn = summarizePublishedRuns(
                runTrainingValidationForGpu(*table.document, catalog, table.file, id), onOther);
            if (standIn.available() && standIn.runs > own.runs) {
                standIn.standInFor = gpu.name;
                own = std::move(standIn);
            }
        }
        return own;
    } catch (const std::exception &error) {
        // A user's catalog without a node the runs need, or a damaged installation: the
        // estimate stands on its own, and the reason is shown instead of the comparison.
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
    std::string text = (c.standInFor.empty()
                            ? std::string()
                            : "none on the " + c.standInFor + "; on a GPU of its tensor peaks, ")
        + std::to_string(c.runs) + " on the " + c.gpuName + " (" + c.precisionClass + ", " + c.kind
        + ") reached "
        + (one ? percentText(c.highestMfu)
               : percentText(c.lowestMfu) + " to " + percentText(c.highestMfu))
        + " MFU; the estimator's error on " + (one ? "it" : "them") + " is "
        + signedErrorRangeText(c.estimatorError) + " (positive: predicted faster than measured).";
    if (!one && !c.nearestRun.empty())
        text += " The nearest in size, " + c.nearestRun + ", reached "
            + percentText(c.nearestRunMfu) + " (the estimator's error on it: "
            + percentText(c.nearestRunSignedError, 1, true) + ").";
    if (c.aboveEveryRun())
        text += " This estimate's " + percentText(c.estimateMfu) + " is above "
            + (one ? "it, " : "the fastest of them, ") + c.fastestRun + " at "
            + percentText(c.highestMfu)
            + (c.standInFor.empty() ? ": no published run on this GPU and precision reaches it."
                                    : ": no published run on a GPU of its tensor peaks and "
                                      "precision reaches it.");
    return text;
}

} // namespace cp::model
