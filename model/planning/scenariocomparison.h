// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "model/plan/plan.h"
#include "model/planning/operationcomparison.h"
#include "model/planning/planestimate.h"
#include "model/planning/portfoliosimulation.h"

#include <atomic>
#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace cp::model {

class Catalog;

/** One variant of the plan with its estimate (or why it could not be estimated). */
struct ScenarioResult
{
    std::string name;
    std::vector<std::string> changes; ///< describeChanges of its patch; empty for the baseline
    Plan plan;
    bool ok = false;
    std::string error;
    PlanEstimate estimate;
    /** Its portfolio through its scheduler (portfoliosimulation.h), when it has one. */
    std::optional<PortfolioSimulation> queue;
};

enum class Preference { None, Lower, Higher };

/**
 * One figure across the scenarios, in the unit `unit` names (the table is a presentation of the
 * SI estimates; this is where they are converted). A value is missing where a scenario has no
 * such figure (an inference plan has no step time) or failed; `text` holds non-numeric figures.
 */
struct ComparisonRow
{
    std::string key; ///< stable id, e.g. "training_days"
    std::string section;
    std::string label;
    std::string unit;
    Preference preference = Preference::None;
    std::vector<std::optional<double>> values;
    std::vector<std::string> text; ///< same size as values; used when the row is textual
    int bestIndex = -1; ///< the best scenario by `preference`, -1 when none or tied throughout
    bool differs = false; ///< not every scenario has the same value
    /** Why the row names no best though its values differ: the scenarios' figures are for
     * different amounts of work (a longer step of a larger global batch is no worse). Empty
     * when the row is ranked as usual. */
    std::string notRankedBecause = {};
    /** The whole text where `text` is cut to fit a table cell (every warning, not the start of
     * the first): for the CSV, the JSON and a cell's tooltip. Empty when `text` is whole. */
    std::vector<std::string> fullText = {};
    /** Per scenario, whether its value is a lower bound (a queue wait that counts jobs still
     * waiting when the period ends at the wait they had then); empty when none is. */
    std::vector<bool> lowerBounds = {};
    bool isText() const { return !text.empty(); }
    bool isLowerBound(std::size_t i) const { return i < lowerBounds.size() && lowerBounds[i]; }
    /** "≥ " before a lower bound's figure, else nothing. */
    const char *boundPrefix(std::size_t i) const { return isLowerBound(i) ? "≥ " : ""; }
    /** Scenario `i`'s whole text (fullText where the cell is cut). */
    const std::string &wholeText(std::size_t i) const
    {
        return i < fullText.size() ? fullText[i] : text[i];
    }
};

/**
 * The rows left unranked because the scenarios do different work, one sentence per reason:
 * "Step time, compute, exposed communication and pipeline bubble are not ranked: the scenarios'
 * steps are ...". For the notes under a comparison table; empty when every row is ranked.
 */
std::vector<std::string> notRankedNotes(const std::vector<ComparisonRow> &rows);

/** Step time split as in the comparison chart: compute / exposed communication / bubble. */
struct StepTimeShares
{
    double computeSeconds = 0; ///< GEMMs, memory-bound kernels and the optimizer
    double communicationSeconds = 0; ///< TP, CP, EP, PP and exposed DP communication
    double bubbleSeconds = 0;
};
StepTimeShares stepTimeShares(const StepBreakdown &step);

/** Where a cluster's facility power goes: IT parts at full load, then cooling and losses. */
struct PowerShares
{
    double gpusWatts = 0;
    double serversWatts = 0;
    double networkWatts = 0;
    double storageWatts = 0;
    double coolingWatts = 0; ///< IT x (PUE - 1)
};
PowerShares powerShares(const PowerBreakdown &power);
/** The same for the whole plan: a campus's every building, its interconnect counted with the
 * network (the comparison table's campus totals; one building's parts were charted beside them). */
PowerShares planPowerShares(const PlanEstimate &estimate);

struct ScalingPoint
{
    /** The GPUs that train: every building's on a campus (the plan's group is one building's). */
    long long gpus = 0;
    bool ok = false;
    double tokensPerSecond = 0;
    /** Per-GPU throughput relative to the smallest count's (weak-scaling efficiency). */
    double efficiency = 0;
    /** The fastest layout at this count and what its step spends beside computing: what explains
     * a count that trains slower than a smaller one (scalingSlowdownNotes). */
    ParallelConfig layout;
    int microbatchesPerPipeline = 0;
    double bubbleShare = 0; ///< pipeline fill and drain, of the step
    double communicationShare = 0; ///< exposed communication, of the step
};

/**
 * Why a count of the scaling curve trains slower than a smaller one, one sentence a count:
 * "2,097,152 GPUs train slower than 1,048,576 (69.0 M against 91.7 M tokens/s): the global batch
 * of 16,384 sequences gives each of its 512 data-parallel replicas 32 microbatches for 64 pipeline
 * stages, and the pipeline bubble takes 66% of its step; ...". The curve holds the global batch,
 * so more GPUs split the same sequences (strong scaling): past some count each pipeline has too few
 * microbatches to hide its fill and drain, (p - 1) / (v · m) of the step (Narayanan et al., SC21,
 * §2.2), or the communication per GPU stops shrinking with its work. Empty while throughput rises.
 */
std::vector<std::string> scalingSlowdownNotes(const std::vector<ScalingPoint> &scaling,
                                              int globalBatch);

struct ScenarioComparison
{
    std::vector<ScenarioResult> scenarios; ///< baseline first
    std::vector<ComparisonRow> rows;
    /** Where each scenario's step time goes, operation by operation (operationcomparison.h). */
    std::vector<OperationComparisonRow> operations;
    /** Pareto front over (time or latency, cost), both minimised: true where another
     * scenario is no worse in both and better in one. */
    std::vector<bool> dominated;
    /** Whether scenario `i` has a point on the time-cost plane and another beats it on both: a
     * scenario without one (no training time or serving cost, or not estimated) is not ranked. */
    bool dominatedOnPlane(std::size_t i) const
    {
        return i < paretoPoints.size() && paretoPoints[i] && i < dominated.size() && dominated[i];
    }
    /** "Wall time to train (days)" (or h, min) or "TTFT p95 (ms)": the points' time unit. */
    std::string paretoTimeLabel;
    /** "Run cost (million USD)" (or thousand USD, USD) or "USD per M output tokens, all GPUs"
     * (serving: the cost of every GPU the plan buys): the points' cost unit. */
    std::string paretoCostLabel;
    std::vector<std::optional<std::pair<double, double>>> paretoPoints; ///< (time, cost)
    std::vector<ScalingPoint> scaling; ///< the baseline at other GPU counts
    std::vector<std::string> scalingNotes; ///< scalingSlowdownNotes of the curve
    bool cancelled = false;
};

struct ComparisonOptions
{
    /** Estimate the baseline at these GPU counts for the scaling curve; empty: none. */
    std::vector<int> scalingGpuCounts;
    /** Simulated period of each variant's job portfolio for the queue rows; 0: none. Shorter
     * than `plan simulate`'s year so that a comparison stays interactive. */
    double queueSeconds = 90 * 86400.0;
};

/** GPU counts for the scaling curve: 1/8 to 2x the baseline's, whole servers, one group. */
std::vector<int> defaultScalingGpuCounts(const Plan &plan, const Catalog &catalog);

/**
 * Estimates the baseline and every scenario (estimatePlan each), builds the comparison rows,
 * the Pareto front and the scaling curve. The estimates run side by side on the machine's
 * hardware threads. `progress(done, total)` is called after each estimate, one call at a time,
 * from whichever thread finished it; `cancel` stops between and inside estimates (the result
 * is then marked cancelled and holds no scenarios).
 */
ScenarioComparison compareScenarios(const Plan &plan, const Catalog &catalog,
                                    const ComparisonOptions &options = {},
                                    const std::atomic<bool> *cancel = nullptr,
                                    const std::function<void(int, int)> &progress = {});

/** The most servers a comparison lays out over all its variants' halls: about ten seconds. */
inline constexpr long long maxComparedServers = 8388608;

/** The rows for already estimated scenarios (compareScenarios uses this). */
std::vector<ComparisonRow> comparisonRows(const std::vector<ScenarioResult> &scenarios);

/**
 * `row` in the unit people read at its scale, for the tables people look at (the Comparison
 * tab, the PDF, the CLI): days become hours when every value is under two days (a two-hour run
 * reads 2.02 h, not 0.084 days) and hours minutes under one (a queue wait of 7.6 min, not
 * 0.127 h); kW become MW, MWh GWh and TB PB from 10,000 up; USD become
 * thousands from 10,000 and millions from 10 million. The largest value decides for the whole
 * row, so the scenarios stay side by side in one unit. Keys, CSV and JSON keep the canonical
 * units.
 */
ComparisonRow inReadableUnit(ComparisonRow row);

/** Which points are dominated (minimising both coordinates); a missing point is dominated. */
std::vector<bool>
paretoDominated(const std::vector<std::optional<std::pair<double, double>>> &points);

/** The comparison as cells, header first: Section, Figure, Unit, then one column per scenario;
 * the figures' rows, then the operations side by side (sections "Where the time goes: ..."). */
std::vector<std::vector<std::string>> comparisonTableCells(const ScenarioComparison &comparison);

/**
 * A bill of materials as cells: Scenario, Category, Item, Name, Count, Unit price (USD), Total
 * (USD); every line names the scenario it was estimated for ("Baseline" or the scenario's
 * name), so a file read later, or pasted beside another, says what it prices.
 */
std::vector<std::vector<std::string>> billOfMaterialsCells(const PlanEstimate &estimate,
                                                           const std::string &scenarioName);

} // namespace cp::model
