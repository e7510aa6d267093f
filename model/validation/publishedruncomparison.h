// SPDX-License-Identifier: GPL-3.0-or-later
// Where a training estimate stands among the published runs of its kind: the runs of the shipped
// validation table (catalogs/validation/training_validation.json) on the same GPU and precision,
// how fast they were, and how far the estimator was from each of them. An architect reading
// "59% MFU" can then see at once whether any published run on that hardware got there, and how
// much the estimator's figures for such runs have been off, in which direction.
#pragma once

#include "model/catalog/catalogitems.h"
#include "model/validation/trainingvalidation.h"

#include <string>
#include <vector>

namespace cp::model {

class Catalog;

/** What a training estimate is set against the published runs by. */
struct PublishedRunQuery
{
    std::string gpuId; ///< catalog id
    Precision precision = Precision::BF16;
    bool moe = false;
    double parameters = 0; ///< the model's, counted from its shape, for the nearest run in size
    double mfu = 0; ///< the estimate's, against its precision's dense peak
};

/** The query for a training job's estimate on a GPU (catalog id) at an MFU. */
PublishedRunQuery publishedRunQuery(const TrainingJob &job, const std::string &gpuId, double mfu);

struct PublishedRunComparison
{
    /** Why there is nothing to set the estimate against (no table beside the catalog, no run on
     * this GPU and precision, a row the catalog cannot estimate); empty when runs > 0. */
    std::string unavailable;
    std::string gpuName;
    std::string precisionClass; ///< "16-bit" (BF16 and FP16 runs) or "FP8"
    std::string kind; ///< "dense", "mixture of experts", or "dense and MoE" when widened
    int runs = 0;
    /** Published MFU against the precision's dense peak, as the estimate's MFU is counted. */
    double lowestMfu = 0;
    double highestMfu = 0;
    std::string fastestRun; ///< "GPT 16B (Megatron-Core weak-scaling) on 192 GPUs"
    /** The estimator's signed errors on these runs (predicted / published - 1; positive:
     * it predicted them faster than they ran). */
    ValidationSummary estimatorError;
    /** The run whose model is nearest the estimate's in parameter count (by ratio), as an
     * anchor: what a model of that size reached on this GPU, and the estimator's error on it. */
    std::string nearestRun;
    double nearestRunMfu = 0;
    double nearestRunSignedError = 0;
    double estimateMfu = 0;
    /** The estimate's GPU when the runs are another's of the same dense tensor peaks (an H200
     * set against the H100's runs); empty when they are its own. */
    std::string standInFor;

    bool available() const { return runs > 0; }
    /** The estimate's MFU is above the fastest published run of its kind. */
    bool aboveEveryRun() const { return runs > 0 && estimateMfu > highestMfu; }
};

/** A run's precision class: FP8 apart, BF16 and FP16 together (the same 16-bit peak). */
std::string trainingPrecisionClass(Precision precision);

/**
 * Sets an estimate against `runs`: those on the query's GPU and precision class of the same kind
 * (dense or MoE) when there are at least three, else every kind; unavailable when none is left.
 */
PublishedRunComparison summarizePublishedRuns(const std::vector<TrainingValidationRow> &runs,
                                              const PublishedRunQuery &query);

/**
 * summarizePublishedRuns over the catalog's published training runs (Catalog::publishedRuns),
 * its rows for `gpuId` estimated with this catalog. Never throws: a missing or unusable table
 * makes the comparison unavailable, saying why.
 */
PublishedRunComparison compareWithPublishedRuns(const Catalog &catalog,
                                                const PublishedRunQuery &query);

/** One or two sentences for the CLI, the Estimate panel and the report, to follow a
 * "Published runs:" label: "12 on the NVIDIA H100 SXM5 80GB (16-bit, dense) reached 38.4% to
 * 49.4% MFU; ...", or "none to compare with (why)." */
std::string publishedRunsText(const PublishedRunComparison &comparison);

} // namespace cp::model
