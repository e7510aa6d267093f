// SPDX-License-Identifier: GPL-3.0-or-later
#include "model/planning/scenariocomparison.h"

#include "model/plan/planio.h"

#include "model/catalog/catalog.h"
#include "model/core/csvtable.h"
#include "model/core/humantext.h"
#include "model/core/parallelrun.h"
#include "model/core/units.h"
#include "model/fabric/fabricdesign.h"
#include "model/plan/scenarios.h"
#include "model/planning/operationcomparison.h"
#include "model/planning/planestimator.h"

#include <algorithm>
#include <cmath>
#include <exception>
#include <mutex>

namespace cp::model {

namespace {

using Value = std::optional<double>;

struct RowSpec
{
    const char *key;
    const char *section;
    const char *label;
    const char *unit;
    Preference preference;
    std::function<Value(const PlanEstimate &)> value;
    /** The amount of work the figure is for, where it depends on the workload: a row is ranked
     * only between scenarios doing the same work (a step of twice the global batch is longer
     * and no worse). Unset: the figure compares as it is. */
    std::function<Value(const PlanEstimate &)> work = {};
    /** Why the row is not ranked when the work differs, for the reader. */
    const char *unlikeWork = "";
};

bool trainingFound(const PlanEstimate &e)
{
    return e.hasTraining && e.training.found;
}

bool inferenceWorks(const PlanEstimate &e)
{
    return e.hasInference && e.inference.fits && e.inference.meetsTargets;
}

Value ifTraining(const PlanEstimate &e, double value)
{
    return trainingFound(e) ? Value(value) : std::nullopt;
}

Value ifRun(const PlanEstimate &e, double value)
{
    return trainingFound(e) && e.hasTrainingRun ? Value(value) : std::nullopt;
}

/** Figures that include the fabric are unknown, not zero, when it cannot be built. */
Value ifFabricBuilt(const PlanEstimate &e, double value)
{
    return e.fabricError.empty() ? Value(value) : std::nullopt;
}

Value ifInference(const PlanEstimate &e, double value)
{
    return inferenceWorks(e) ? Value(value) : std::nullopt;
}

double trainingGpus(const TrainingEstimate &t)
{
    return static_cast<double>(pipelineStageGpus(t.config)) * t.config.pp;
}

/** Model FLOPs of one optimizer step, all GPUs together: what a step time is the time of. It
 * changes with the model, the sequence length and the global batch. */
Value modelFlopsPerStep(const PlanEstimate &e)
{
    const TrainingEstimate &t = e.training.best;
    return ifTraining(e, t.modelFlopsPerSecondPerGpu * t.stepSeconds * trainingGpus(t));
}

/** Model FLOPs of one trained token: what a token of throughput is worth. It changes with the
 * model and the sequence length (attention grows with the context). */
Value modelFlopsPerToken(const PlanEstimate &e)
{
    const TrainingEstimate &t = e.training.best;
    return t.tokensPerSecond > 0
        ? ifTraining(e, t.modelFlopsPerSecondPerGpu * trainingGpus(t) / t.tokensPerSecond)
        : std::nullopt;
}

constexpr const char *unlikeSteps
    = "the scenarios' steps are different amounts of work (the model, sequence "
      "length or global batch differs); compare the time to train";
constexpr const char *unlikePeaks
    = "each scenario's MFU is against its own GPU's dense peak at its precision (FP8's is twice "
      "BF16's): a higher one is not a faster run; compare the throughput or the time to train";
constexpr const char *unlikeTokens
    = "the scenarios' tokens are different amounts of work (the model or sequence "
      "length differs); compare MFU or the time to train";

/** Buildings the estimate's hardware figures are copies of (1 unless a campus). */
double buildingsOf(const PlanEstimate &e)
{
    return e.campus ? e.campus->buildings : 1.0;
}

/** The scenario's whole hardware: a campus counts every building and its interconnect, so
 * changing the number of buildings shows in every row. */
const std::vector<RowSpec> &numericRows()
{
    using P = Preference;
    static const std::vector<RowSpec> rows = {
        // A campus's rows count every building: said first, since the Estimate panel's
        // hardware is one building's (131,072 GPUs there beside 1,048,576 here).
        {"buildings", "Hardware", "Buildings (rows below: all)", "count", P::None,
         [](const PlanEstimate &e) -> Value {
             if (!e.campus || e.campus->buildings <= 1)
                 return std::nullopt;
             return static_cast<double>(e.campus->buildings);
         }},
        {"gpus", "Hardware", "GPUs", "count", P::None,
         [](const PlanEstimate &e) {
             return Value(static_cast<double>(e.planGpus()));
         }},
        {"nodes", "Hardware", "Servers", "count", P::None,
         [](const PlanEstimate &e) {
             return Value(e.campus ? static_cast<double>(e.campus->nodes) : e.nodes);
         }},
        {"cabinets", "Hardware", "Cabinets", "count", P::Lower,
         [](const PlanEstimate &e) {
             long long cabinets = e.networkCabinets + e.storageCabinets;
             for (const RackUsage &usage : e.racks)
                 cabinets += usage.racks;
             return cabinets > 0 ? Value(static_cast<double>(cabinets) * buildingsOf(e)) : Value();
         }},
        {"peak_pflops", "Hardware", "Peak dense BF16/FP16", "PFLOP/s", P::Higher,
         [](const PlanEstimate &e) {
             return Value(e.peakDenseFlopsPerSecond / units::peta * buildingsOf(e));
         }},
        // Only where the scenario's workload computes in FP8: its throughput answers to this peak,
        // twice the BF16 one on an H100, which the row above alone left to the reader.
        {"peak_fp8_pflops", "Hardware", "Peak dense FP8", "PFLOP/s", P::Higher,
         [](const PlanEstimate &e) -> Value {
             if (!e.computesInFp8() || !(e.peakDenseFp8FlopsPerSecond > 0))
                 return std::nullopt;
             return e.peakDenseFp8FlopsPerSecond / units::peta * buildingsOf(e);
         }},
        {"gpu_memory_tb", "Hardware", "GPU memory", "TB", P::Higher,
         [](const PlanEstimate &e) {
             return Value(e.gpuMemoryBytes / units::tera * buildingsOf(e));
         }},
        {"switches", "Network", "Switches", "count", P::Lower,
         [](const PlanEstimate &e) {
             return ifFabricBuilt(e, static_cast<double>(e.fabric.switches()) * buildingsOf(e));
         }},
        {"cables", "Network", "Cables", "count", P::Lower,
         [](const PlanEstimate &e) {
             return ifFabricBuilt(e, static_cast<double>(e.fabric.cables) * buildingsOf(e));
         }},
        {"it_power_kw", "Power and cost", "IT power at full load", "kW", P::Lower,
         [](const PlanEstimate &e) {
             return ifFabricBuilt(e,
                                  (e.campus ? e.campus->itWatts : e.power.itWatts()) / units::kilo);
         }},
        {"facility_power_kw", "Power and cost", "Facility power (x PUE)", "kW", P::Lower,
         [](const PlanEstimate &e) {
             return ifFabricBuilt(
                 e, (e.campus ? e.campus->facilityWatts : e.power.facilityWatts()) / units::kilo);
         }},
        {"capital_usd", "Power and cost", "Capital cost", "USD", P::Lower,
         [](const PlanEstimate &e) {
             return ifFabricBuilt(e, e.campus ? e.campus->capitalUsd : e.capitalCostUsd);
         }},
        {"step_s", "Training", "Step time", "s", P::Lower,
         [](const PlanEstimate &e) { return ifTraining(e, e.training.best.stepSeconds); },
         modelFlopsPerStep, unlikeSteps},
        {"step_compute_s", "Training", "  compute", "s", P::Lower,
         [](const PlanEstimate &e) {
             return ifTraining(e, stepTimeShares(e.training.best.breakdown).computeSeconds);
         },
         modelFlopsPerStep, unlikeSteps},
        {"step_comm_s", "Training", "  exposed communication", "s", P::Lower,
         [](const PlanEstimate &e) {
             return ifTraining(e, stepTimeShares(e.training.best.breakdown).communicationSeconds);
         },
         modelFlopsPerStep, unlikeSteps},
        {"step_bubble_s", "Training", "  pipeline bubble", "s", P::Lower,
         [](const PlanEstimate &e) {
             return ifTraining(e, stepTimeShares(e.training.best.breakdown).bubbleSeconds);
         },
         modelFlopsPerStep, unlikeSteps},
        {"tokens_per_s", "Training", "Throughput", "tokens/s", P::Higher,
         [](const PlanEstimate &e) { return ifTraining(e, e.training.best.tokensPerSecond); },
         modelFlopsPerToken, unlikeTokens},
        // Ranked only over one peak: FP8 at 30% of its peak outruns BF16 at 45% of half of it.
        {"mfu_pct", "Training", "MFU", "%", P::Higher,
         [](const PlanEstimate &e) { return ifTraining(e, 100 * e.training.best.mfu); },
         [](const PlanEstimate &e) { return ifTraining(e, e.training.best.mfuPeakFlopsPerSecond); },
         unlikePeaks},
        // The fastest published run on the variant's GPU and precision, and how far the
        // estimator was off on those runs on average: a variant's MFU above the first, on a GPU
        // the estimator has missed by much, is the figure to trust least. Unknown (not zero) on
        // a GPU without published runs.
        {"published_max_mfu_pct", "Training", "Fastest published MFU", "%", P::None,
         [](const PlanEstimate &e) {
             const PublishedRunComparison &p = e.trainingPublishedRuns;
             return p.available() ? ifTraining(e, 100 * p.highestMfu) : std::nullopt;
         }},
        {"published_mean_error_pct", "Training", "  estimator bias (+ fast)", "%", P::None,
         [](const PlanEstimate &e) {
             const PublishedRunComparison &p = e.trainingPublishedRuns;
             return p.available() ? ifTraining(e, 100 * p.estimatorError.meanSignedError)
                                  : std::nullopt;
         }},
        {"training_days", "Training", "Training time (no failures)", "days", P::Lower,
         [](const PlanEstimate &e) {
             return e.training.best.trainingSeconds > 0
                 ? ifTraining(e, e.training.best.trainingSeconds / units::secondsPerDay)
                 : std::nullopt;
         }},
        {"gpu_hours", "Training", "GPU-hours (no failures)", "GPU-h", P::Lower,
         [](const PlanEstimate &e) {
             return e.training.best.gpuHours > 0 ? ifTraining(e, e.training.best.gpuHours)
                                                 : std::nullopt;
         }},
        {"interruptions_per_day", "Training", "Interruptions", "per day", P::Lower,
         [](const PlanEstimate &e) {
             return ifRun(e, e.trainingRun.reliability.interruptionsPerDay);
         }},
        {"goodput_pct", "Training", "Goodput", "%", P::Higher,
         [](const PlanEstimate &e) {
             return ifRun(e, 100 * e.trainingRun.reliability.goodput);
         }},
        {"wall_days", "Training", "Wall time with failures", "days", P::Lower,
         [](const PlanEstimate &e) {
             return e.trainingRun.operations.wallSeconds > 0
                 ? ifRun(e, e.trainingRun.operations.wallSeconds / units::secondsPerDay)
                 : std::nullopt;
         }},
        {"data_stall_pct", "Training", "GPUs waiting for data", "%", P::Lower,
         [](const PlanEstimate &e) {
             return e.trainingRun.dataPath.present
                 ? ifRun(e, 100 * e.trainingRun.dataPath.stallFraction)
                 : std::nullopt;
         }},
        {"storage_systems_needed", "Training", "Storage systems needed", "count", P::Lower,
         [](const PlanEstimate &e) {
             return ifRun(e, static_cast<double>(e.trainingRun.storageSystemsNeeded));
         }},
        // The systems the run writes to (on the fabric, every building's), beside which the
        // next row reads: more, fewer or the same.
        {"storage_systems", "Training", "Storage systems the run writes to", "count", P::None,
         [](const PlanEstimate &e) -> Value {
             if (e.trainingRun.checkpointStorage.systemsNow <= 0)
                 return std::nullopt;
             return ifRun(e, static_cast<double>(e.trainingRun.checkpointStorage.systemsNow));
         }},
        // Not ranked: more systems are the answer to slow checkpoints, not a fault of the plan;
        // the goodput and wall time above weigh them.
        {"checkpoint_storage_systems", "Training", "Storage systems cheapest for checkpoints",
         "count", P::None,
         [](const PlanEstimate &e) -> Value {
             if (e.trainingRun.checkpointStorage.systems <= 0)
                 return std::nullopt;
             return ifRun(e, static_cast<double>(e.trainingRun.checkpointStorage.systems));
         }},
        // Not ranked: a slower run draws less on average because its GPUs wait more; the run
        // energy below is the figure that weighs it.
        {"run_power_kw", "Training", "Average facility power", "kW", P::None,
         [](const PlanEstimate &e) {
             return ifRun(e, e.trainingRun.operations.facilityWatts / units::kilo);
         }},
        {"energy_mwh", "Training", "Run energy", "MWh", P::Lower,
         [](const PlanEstimate &e) {
             return e.trainingRun.operations.wallSeconds > 0
                 ? ifRun(e, e.trainingRun.operations.energyMegawattHours)
                 : std::nullopt;
         }},
        {"run_cost_usd", "Training", "Run cost", "USD", P::Lower,
         [](const PlanEstimate &e) {
             return e.trainingRun.operations.wallSeconds > 0
                 ? ifRun(e, e.trainingRun.operations.costUsd)
                 : std::nullopt;
         }},
        {"ttft_ms", "Inference", "TTFT (p95 under load)", "ms", P::Lower,
         [](const PlanEstimate &e) {
             return ifInference(e, e.inference.ttftSeconds * 1e3);
         }},
        // The mean beside the TTFT's p95 read as more headroom than a p95 target has: both.
        {"tpot_ms", "Inference", "Time per output token (mean)", "ms", P::Lower,
         [](const PlanEstimate &e) {
             return ifInference(e, e.inference.tpotSeconds * 1e3);
         }},
        {"tpot_p95_ms", "Inference", "TPOT (p95 under load)", "ms", P::Lower,
         [](const PlanEstimate &e) {
             return e.inference.tpotP95Seconds > 0
                 ? ifInference(e, e.inference.tpotP95Seconds * 1e3)
                 : std::nullopt;
         }},
        {"tokens_per_s_per_gpu", "Inference", "Output tokens/s per GPU", "tokens/s", P::Higher,
         [](const PlanEstimate &e) {
             return ifInference(e, e.inference.outputTokensPerSecondPerGpu);
         }},
        {"max_batch", "Inference", "Largest batch that runs", "sequences", P::Higher,
         [](const PlanEstimate &e) {
             // None runs where the replica does not fit: "-", as its other figures, not 0.
             return e.hasInference && e.inference.maxBatch > 0 ? Value(e.inference.maxBatch)
                                                               : std::nullopt;
         }},
        // Replicas are not a merit in themselves: their GPUs and the load they serve differ
        // between scenarios; the cost rows below weigh them.
        {"replicas", "Inference", "Replicas", "count", P::None,
         [](const PlanEstimate &e) {
             return ifInference(e, e.inference.replicas);
         }},
        // The plan may hold more GPUs than its load keeps busy (servinguse.h).
        {"serving_gpus", "Inference", "GPUs serving the load", "count", P::None,
         [](const PlanEstimate &e) {
             return e.servingUse ? ifInference(e, static_cast<double>(e.servingUse->servingGpus))
                                 : std::nullopt;
         }},
        {"serving_power_kw", "Inference", "Serving power (all replicas)", "kW", P::Lower,
         [](const PlanEstimate &e) {
             return ifInference(e, e.inference.powerWatts / units::kilo);
         }},
        {"cost_per_m_output_usd", "Inference", "Cost per million output tokens", "USD", P::Lower,
         [](const PlanEstimate &e) {
             return ifInference(e, e.inference.costPerMillionOutputTokensUsd);
         }},
        {"cost_per_m_output_all_gpus_usd", "Inference", "  over every GPU of the plan", "USD",
         P::Lower,
         [](const PlanEstimate &e) {
             // A fleet the plan cannot hold has no cost over the plan's GPUs (its own 40 GPUs'
             // figure stood there for a plan of 32).
             return e.servingUse && e.holdsServingFleet()
                 ? ifInference(e, e.servingUse->costPerMillionOutputTokensAllGpusUsd)
                 : std::nullopt;
         }},
        // A fixed fleet with no rate: the most it serves within the targets (fleetcapacity.h).
        {"capacity_within_targets", "Inference", "Capacity within the targets", "requests/s",
         P::Higher,
         [](const PlanEstimate &e) {
             return e.inference.capacityWithinLimits
                 ? ifInference(e, e.inference.capacityWithinLimits->requestsPerSecond)
                 : std::nullopt;
         }},
        // An offline job: how long it runs, and what it costs and draws (offlinejob.h).
        {"offline_job_hours", "Inference", "Offline job duration", "h", P::Lower,
         [](const PlanEstimate &e) {
             return e.inference.offlineJob
                 ? ifInference(e, e.inference.offlineJob->seconds / units::secondsPerHour)
                 : std::nullopt;
         }},
        {"offline_job_usd", "Inference", "Offline job cost", "USD", P::Lower,
         [](const PlanEstimate &e) {
             return e.inference.offlineJob ? ifInference(e, e.inference.offlineJob->usd)
                                           : std::nullopt;
         }},
        {"offline_job_mwh", "Inference", "Offline job energy", "MWh", P::Lower,
         [](const PlanEstimate &e) {
             return e.inference.offlineJob
                 ? ifInference(e, e.inference.offlineJob->joules / units::joulesPerMegawattHour)
                 : std::nullopt;
         }},
        {"autoscaled_replica_hours", "Inference", "Replica-hours per day (autoscaled)", "replica-h",
         P::Lower,
         [](const PlanEstimate &e) {
             return e.autoscaling && e.autoscaling->feasible
                 ? Value(e.autoscaling->replicaHoursPerDay)
                 : std::nullopt;
         }},
        {"autoscaling_saving", "Inference", "Saving against static provisioning", "%", P::Higher,
         [](const PlanEstimate &e) {
             return e.autoscaling && e.autoscaling->feasible
                 ? Value(100 * e.autoscaling->savingFraction)
                 : std::nullopt;
         }},
    };
    return rows;
}

void markBest(ComparisonRow &row, const std::vector<bool> &notOnOffer = {})
{
    // A scenario whose fabric cannot be built, or whose serving fleet needs more GPUs than its
    // plan has, is shown, never starred: its 8,105 PFLOP/s, or its 19.4 ms per token on 40 GPUs
    // of a 32-GPU plan, are not on offer.
    const auto ranked = [&](std::size_t i) {
        return row.values[i] && !(i < notOnOffer.size() && notOnOffer[i]);
    };
    std::vector<double> present;
    for (std::size_t i = 0; i < row.values.size(); ++i)
        if (ranked(i))
            present.push_back(*row.values[i]);
    row.differs = false;
    for (std::size_t i = 1; i < row.values.size(); ++i)
        row.differs = row.differs || row.values[i] != row.values[0];
    if (row.preference == Preference::None || present.size() < 2 || !row.differs)
        return;
    const double best = row.preference == Preference::Lower
        ? *std::min_element(present.begin(), present.end())
        : *std::max_element(present.begin(), present.end());
    // A tie for best marks none: the mark is meant to single one option out, and figures within
    // 1% of each other are the same to the accuracy of any estimate here (the validation's
    // median errors are 6 to 9%): 0.548 against 0.549 interruptions a day is not a finding.
    const auto near = [best](double v) {
        return std::abs(v - best) <= 1e-2 * std::max(std::abs(best), 1e-12);
    };
    if (std::count_if(present.begin(), present.end(), near) > 1)
        return;
    for (std::size_t i = 0; i < row.values.size(); ++i)
        if (ranked(i) && *row.values[i] == best)
            row.bestIndex = static_cast<int>(i);
}

/**
 * Where a fleet leaves some of the plan's GPUs idle, the cost over the GPUs that serve flatters
 * it: an A100 fleet keeping 7 of its 64 GPUs busy came out 7x cheaper than the L4 baseline,
 * though the plan buys all 64 and costs 16% more. The cost over every GPU is ranked instead.
 */
void rankServingCostOverEveryGpu(std::vector<ComparisonRow> &rows)
{
    const auto row = [&](const std::string &key) {
        return std::find_if(rows.begin(), rows.end(),
                            [&](const ComparisonRow &r) { return r.key == key; });
    };
    const auto serving = row("cost_per_m_output_usd");
    const auto everyGpu = row("cost_per_m_output_all_gpus_usd");
    if (serving == rows.end() || everyGpu == rows.end() || serving->bestIndex < 0)
        return;
    serving->bestIndex = -1;
    serving->notRankedBecause
        = "the plan buys every GPU, serving or not: ranked over every GPU of the plan instead";
}

/** "2: failures outpace the run: a failure every 3 min…": how many, and the first's start. */
std::string warningsSummary(const std::vector<std::string> &warnings)
{
    if (warnings.empty())
        return {};
    constexpr std::size_t lead = 60;
    std::string first = warnings.front();
    if (first.size() > lead) {
        const std::size_t cut = first.rfind(' ', lead);
        first = first.substr(0, cut == std::string::npos ? lead : cut) + "…";
    }
    return std::to_string(warnings.size()) + ": " + first;
}

/** "1: the load keeps ...; 2: ...": every warning, whole, for where no cell cuts it. */
std::string numberedWarnings(const std::vector<std::string> &warnings)
{
    std::string all;
    for (std::size_t i = 0; i < warnings.size(); ++i)
        all += (i > 0 ? "; " : "") + std::to_string(i + 1) + ": " + warnings[i];
    return all;
}

/** Every scenario with a figure in `row` does the same work by `work`, to 0.1%. */
bool sameWork(const ComparisonRow &row, const std::vector<ScenarioResult> &scenarios,
              const std::function<Value(const PlanEstimate &)> &work)
{
    std::optional<double> first;
    for (std::size_t i = 0; i < row.values.size(); ++i) {
        if (!row.values[i])
            continue;
        const Value amount = work(scenarios[i].estimate);
        if (!amount)
            return false;
        if (!first)
            first = amount;
        else if (std::abs(*amount - *first) > 1e-3 * std::abs(*first))
            return false;
    }
    return true;
}

std::string layoutText(const PlanEstimate &e)
{
    if (!trainingFound(e))
        return e.hasTraining ? "not possible: " + e.trainingError : std::string();
    return layoutDescription(e.training.best.config);
}

} // namespace

StepTimeShares stepTimeShares(const StepBreakdown &b)
{
    StepTimeShares shares;
    shares.computeSeconds = b.computeSeconds + b.memoryBoundSeconds + b.optimizerSeconds;
    shares.communicationSeconds = b.tpCommSeconds + b.cpCommSeconds + b.epCommSeconds
        + b.ppCommSeconds + b.dpCommExposedSeconds;
    shares.bubbleSeconds = b.bubbleSeconds;
    return shares;
}

PowerShares powerShares(const PowerBreakdown &power)
{
    PowerShares shares;
    shares.gpusWatts = power.gpusWatts;
    shares.serversWatts = power.nodesWatts;
    shares.networkWatts = power.networkWatts;
    shares.storageWatts = power.storageWatts;
    shares.coolingWatts = power.facilityWatts() - power.itWatts();
    return shares;
}

PowerShares planPowerShares(const PlanEstimate &estimate)
{
    PowerShares shares = powerShares(estimate.power);
    if (!estimate.campus)
        return shares;
    const CampusTotals &campus = *estimate.campus;
    const double buildings = campus.buildings;
    shares.gpusWatts *= buildings;
    shares.serversWatts *= buildings;
    shares.networkWatts = shares.networkWatts * buildings + campus.interconnectWatts;
    shares.storageWatts *= buildings;
    shares.coolingWatts = campus.facilityWatts - campus.itWatts;
    return shares;
}

/**
 * Marks the waits of `className` that are lower bounds (jobs still waiting when the period ended
 * count the wait they had then: `plan simulate` prints them "≥"); a lower bound is not the best
 * of a row that prefers less, since its true wait may be longer than another's.
 */
void markLowerBoundWaits(ComparisonRow &row, const std::vector<ScenarioResult> &scenarios,
                         const std::string &className)
{
    row.lowerBounds.assign(scenarios.size(), false);
    for (std::size_t i = 0; i < scenarios.size(); ++i) {
        const ScenarioResult &s = scenarios[i];
        if (!s.queue || !s.queue->ok())
            continue;
        for (const ClassResult &c : s.queue->result.classes)
            if (c.name == className)
                row.lowerBounds[i] = c.waitsAreLowerBounds();
    }
    if (row.bestIndex >= 0 && row.isLowerBound(static_cast<std::size_t>(row.bestIndex))) {
        row.bestIndex = -1;
        row.notRankedBecause = "the shortest wait is a lower bound (jobs of the class still "
                               "waited when the period ended), so it may be longer than another";
    }
}

/**
 * The queue of each variant's portfolio: how busy, how much lost, and each class's p95 wait (the
 * classes of all variants, in order of first appearance).
 */
void addQueueRows(std::vector<ComparisonRow> &rows, const std::vector<ScenarioResult> &scenarios)
{
    const auto queueRow = [&](const std::string &key, const std::string &label, const char *unit,
                              Preference preference,
                              const std::function<Value(const SimulationResult &)> &value) {
        ComparisonRow row {key, "Queue", label, unit, preference, {}, {}};
        for (const ScenarioResult &s : scenarios)
            row.values.push_back(s.queue && s.queue->ok() ? value(s.queue->result) : std::nullopt);
        if (std::none_of(row.values.begin(), row.values.end(),
                         [](const Value &v) { return v.has_value(); }))
            return;
        markBest(row);
        rows.push_back(std::move(row));
    };
    queueRow("queue_utilisation_pct", "Portfolio: GPUs busy", "%", Preference::Higher,
             [](const SimulationResult &r) { return Value(100 * r.utilisation); });
    queueRow("queue_useful_pct", "Portfolio: busy less lost work", "%", Preference::Higher,
             [](const SimulationResult &r) { return Value(100 * r.usefulUtilisation); });
    queueRow("queue_service_attainment_pct", "Portfolio: service replica-hours served", "%",
             Preference::Higher, [](const SimulationResult &r) -> Value {
                 return r.services.empty() ? std::nullopt : Value(100 * r.serviceAttainment);
             });
    queueRow("queue_fragmentation_pct", "Portfolio: idle while jobs wait", "%", Preference::Lower,
             [](const SimulationResult &r) { return Value(100 * r.fragmentation); });
    queueRow("queue_scatter_gpu_hours", "Portfolio: GPU-hours lost to scattered jobs", "GPU-h",
             Preference::Lower,
             [](const SimulationResult &r) { return Value(r.gpuHoursLostToScatter); });
    // The waits are the simulated period's (plan simulate's default is a year): say which.
    std::vector<std::string> classes;
    std::string period;
    for (const ScenarioResult &s : scenarios)
        if (s.queue && s.queue->ok()) {
            period = " over " + humanWait(s.queue->horizonSeconds);
            for (const ClassResult &c : s.queue->result.classes)
                if (std::find(classes.begin(), classes.end(), c.name) == classes.end())
                    classes.push_back(c.name);
        }
    for (const std::string &name : classes) {
        queueRow("queue_wait_p95_h:" + name, "Queue wait p95" + period + ": " + name, "h",
                 Preference::Lower, [name](const SimulationResult &r) -> Value {
                     for (const ClassResult &c : r.classes)
                         if (c.name == name && c.started > 0)
                             return c.waitP95Seconds / 3600.0;
                     return std::nullopt;
                 });
        if (rows.empty() || rows.back().key != "queue_wait_p95_h:" + name)
            continue;
        markLowerBoundWaits(rows.back(), scenarios, name);
    }
}

std::vector<ComparisonRow> comparisonRows(const std::vector<ScenarioResult> &scenarios)
{
    std::vector<ComparisonRow> rows;
    // `whole`, where given, is the text the cell cuts (ComparisonRow::fullText).
    using ScenarioText = std::function<std::string(const ScenarioResult &)>;
    const auto textRow = [&](const char *key, const char *section, const char *label,
                             const ScenarioText &text, const ScenarioText &whole = {}) {
        ComparisonRow row {key, section, label, "", Preference::None, {}, {}};
        for (const ScenarioResult &s : scenarios) {
            row.values.push_back(std::nullopt);
            row.text.push_back(text(s));
            if (whole)
                row.fullText.push_back(whole(s));
        }
        for (std::size_t i = 1; i < row.text.size(); ++i)
            row.differs = row.differs || row.text[i] != row.text[0];
        if (std::any_of(row.text.begin(), row.text.end(),
                        [](const std::string &t) { return !t.empty(); }))
            rows.push_back(std::move(row));
    };
    textRow("changes", "Scenario", "Changes from the baseline", [](const ScenarioResult &s) {
        std::string joined;
        for (const std::string &line : s.changes)
            joined += (joined.empty() ? "" : "; ") + line;
        return joined;
    });
    // A scenario's warnings were seen only by selecting it: an A100 fleet idling 57 of its 64
    // GPUs, storage ports with no free leaf port. The count and the first, cut at a word.
    textRow(
        "warnings", "Scenario", "Warnings",
        [](const ScenarioResult &s) {
            return s.ok ? warningsSummary(s.estimate.warnings) : std::string();
        },
        [](const ScenarioResult &s) {
            return s.ok ? numberedWarnings(s.estimate.warnings) : std::string();
        });
    textRow("error", "Scenario", "Could not estimate",
            [](const ScenarioResult &s) { return s.ok ? std::string() : s.error; });
    textRow("gpu", "Hardware", "GPU type",
            [](const ScenarioResult &s) { return s.ok ? s.estimate.gpuName : std::string(); });
    textRow("topology", "Network", "Fabric", [](const ScenarioResult &s) {
        return s.ok ? fabricTopologyTitle(s.estimate.fabric.topology) : std::string();
    });
    textRow("fabric_error", "Network", "Fabric cannot be built",
            [](const ScenarioResult &s) { return s.ok ? s.estimate.fabricError : std::string(); });
    std::vector<bool> notOnOffer;
    for (const ScenarioResult &s : scenarios)
        notOnOffer.push_back(s.ok
                             && (!s.estimate.fabricError.empty()
                                 || (s.estimate.hasInference && !s.estimate.holdsServingFleet())));
    for (const RowSpec &spec : numericRows()) {
        ComparisonRow row {spec.key, spec.section, spec.label, spec.unit, spec.preference, {}, {}};
        for (const ScenarioResult &s : scenarios)
            row.values.push_back(s.ok ? spec.value(s.estimate) : std::nullopt);
        if (std::none_of(row.values.begin(), row.values.end(),
                         [](const Value &v) { return v.has_value(); }))
            continue;
        markBest(row, notOnOffer);
        if (spec.work && !sameWork(row, scenarios, spec.work)) {
            row.bestIndex = -1;
            row.notRankedBecause = spec.unlikeWork;
        }
        rows.push_back(std::move(row));
    }
    rankServingCostOverEveryGpu(rows);
    addQueueRows(rows, scenarios);
    textRow("layout", "Training", "Parallel layout",
            [](const ScenarioResult &s) { return s.ok ? layoutText(s.estimate) : std::string(); });
    // Group by section in reading order; within a section, text rows first as built above.
    static const std::vector<std::string> sections
        = {"Scenario", "Hardware", "Network", "Power and cost", "Training", "Inference", "Queue"};
    const auto rank = [](const ComparisonRow &row) {
        const auto it = std::find(sections.begin(), sections.end(), row.section);
        return static_cast<int>(it - sections.begin());
    };
    std::stable_sort(rows.begin(), rows.end(), [&](const ComparisonRow &a, const ComparisonRow &b) {
        return rank(a) < rank(b);
    });
    textRow("bottleneck", "Bottleneck", "Bottleneck", [](const ScenarioResult &s) {
        if (!s.ok)
            return std::string();
        if (trainingFound(s.estimate))
            return s.estimate.training.best.bottleneckExplanation;
        if (s.estimate.hasInference)
            return s.estimate.inference.fits && s.estimate.inference.meetsTargets
                ? s.estimate.inference.bottleneckExplanation
                : s.estimate.inference.reason;
        return std::string();
    });
    return rows;
}

std::vector<std::string> notRankedNotes(const std::vector<ComparisonRow> &rows)
{
    std::vector<std::string> reasons;
    std::vector<std::vector<std::string>> labels;
    for (const ComparisonRow &row : rows) {
        if (row.notRankedBecause.empty())
            continue;
        const auto it = std::find(reasons.begin(), reasons.end(), row.notRankedBecause);
        const std::size_t index = static_cast<std::size_t>(it - reasons.begin());
        if (it == reasons.end()) {
            reasons.push_back(row.notRankedBecause);
            labels.emplace_back();
        }
        // Sub-rows are indented in the table ("  compute"); a sentence names them plainly.
        const std::size_t start = row.label.find_first_not_of(' ');
        labels[index].push_back(start == std::string::npos ? row.label : row.label.substr(start));
    }
    std::vector<std::string> notes;
    for (std::size_t i = 0; i < reasons.size(); ++i) {
        notes.push_back(joinedList(labels[i]) + (labels[i].size() == 1 ? " is" : " are")
                        + " not ranked: " + reasons[i] + ".");
    }
    return notes;
}

ComparisonRow inReadableUnit(ComparisonRow row)
{
    if (row.isText())
        return row;
    double largest = 0;
    bool any = false;
    for (const std::optional<double> &value : row.values) {
        if (value && std::isfinite(*value)) {
            largest = std::max(largest, std::abs(*value));
            any = true;
        }
    }
    if (!any)
        return row;
    struct Rescale
    {
        const char *from;
        const char *to;
        double divisor;
        bool applies;
    };
    const Rescale rescales[] = {
        {"days", "h", 1.0 / 24.0, largest < 2.0},
        {"h", "min", 1.0 / 60.0, largest < 1.0},
        // A ViT step of 0.081 s beside 81.29 ms in the estimate: milliseconds under a second.
        {"s", "ms", 1e-3, largest < 1.0},
        {"kW", "MW", 1e3, largest >= 1e4},
        {"PFLOP/s", "EFLOP/s", 1e3, largest >= 1e4},
        {"MWh", "GWh", 1e3, largest >= 1e4},
        {"TB", "PB", 1e3, largest >= 1e4},
        {"tokens/s", "M tokens/s", 1e6, largest >= 1e6},
        {"tokens/s", "k tokens/s", 1e3, largest >= 1e4 && largest < 1e6},
        {"GPU-h", "M GPU-h", 1e6, largest >= 1e7},
        {"USD", "B USD", 1e9, largest >= 1e10},
        {"USD", "M USD", 1e6, largest >= 1e7 && largest < 1e10},
        {"USD", "k USD", 1e3, largest >= 1e4 && largest < 1e7},
    };
    for (const Rescale &rescale : rescales) {
        if (row.unit != rescale.from || !rescale.applies)
            continue;
        row.unit = rescale.to;
        for (std::optional<double> &value : row.values) {
            if (value)
                *value /= rescale.divisor;
        }
        break;
    }
    return row;
}

std::vector<bool>
paretoDominated(const std::vector<std::optional<std::pair<double, double>>> &points)
{
    std::vector<bool> dominated(points.size(), false);
    for (std::size_t i = 0; i < points.size(); ++i) {
        if (!points[i]) {
            dominated[i] = true;
            continue;
        }
        for (std::size_t j = 0; j < points.size() && !dominated[i]; ++j) {
            if (i == j || !points[j])
                continue;
            const auto &[ti, ci] = *points[i];
            const auto &[tj, cj] = *points[j];
            dominated[i] = tj <= ti && cj <= ci && (tj < ti || cj < ci);
        }
    }
    return dominated;
}

std::vector<int> defaultScalingGpuCounts(const Plan &plan, const Catalog &catalog)
{
    if (plan.nodeGroups.size() != 1 || plan.workloadType != WorkloadType::Training)
        return {};
    const NodeGroup &group = plan.nodeGroups.front();
    const int perNode = catalog.node(group.nodeId).gpusPerNode;
    std::vector<int> counts;
    for (double factor : {0.125, 0.25, 0.5, 1.0, 2.0}) {
        const int nodes = static_cast<int>(std::lround(group.count * factor));
        if (nodes >= 1 && (counts.empty() || counts.back() != nodes * perNode))
            counts.push_back(nodes * perNode);
    }
    return counts;
}

namespace {

/**
 * Refuses a comparison that would not finish within seconds: each variant lays out its own hall
 * (their fabrics differ, so no layout is shared), about a second for 500,000 servers on this
 * project's two cores; 256 variants of such a hall took three minutes.
 */
void checkComparisonSize(const std::vector<Plan> &plans)
{
    long long servers = 0;
    for (const Plan &variant : plans)
        servers += std::max(0, variant.totalNodes());
    if (servers > maxComparedServers)
        throw std::runtime_error(
            "comparing these " + groupedCount(static_cast<long long>(plans.size()))
            + " variants lays out halls of " + groupedCount(servers) + " servers in all; at most "
            + groupedCount(maxComparedServers)
            + " are compared at once (about 10 s): compare fewer scenarios or smaller halls");
}

/** One scenario's estimate (and its queues over the simulated days when it has a portfolio). */
ScenarioResult estimateScenario(const Plan &plan, std::size_t index, const Plan &variant,
                                const nlohmann::json &baselineJson, const Catalog &catalog,
                                const ComparisonOptions &options, const std::atomic<bool> *cancel)
{
    ScenarioResult result;
    result.name = variant.name;
    result.plan = variant;
    if (index > 0)
        result.changes = describeChanges(plan.scenarios[index - 1].changes, baselineJson, &catalog);
    try {
        result.estimate = estimatePlan(variant, catalog, cancel);
        result.ok = true;
        if ((!variant.portfolio.classes.empty() || !variant.portfolio.services.empty())
            && options.queueSeconds > 0) {
            SimulationOptions queue;
            queue.horizonSeconds = options.queueSeconds;
            result.queue = simulatePlanPortfolio(variant, catalog, queue, {}, {}, cancel);
        }
    } catch (const std::exception &error) {
        result.error = error.what();
    }
    return result;
}

/**
 * Training's Pareto points, wall seconds and run USD, in the units their largest values read in
 * (a two-hour run's cost of $520 is not 0.00052 million USD over 0.088 days): days from two days,
 * hours from two hours, else minutes; million USD from a million, thousand from a thousand, else
 * USD. The axis labels name the units.
 */
void putTrainingParetoInReadableUnits(ScenarioComparison &comparison)
{
    double longest = 0;
    double dearest = 0;
    for (const auto &point : comparison.paretoPoints)
        if (point) {
            longest = std::max(longest, point->first);
            dearest = std::max(dearest, point->second);
        }
    struct Unit
    {
        const char *name;
        double size;
    };
    const Unit time = longest >= 2 * units::secondsPerDay ? Unit {"days", units::secondsPerDay}
        : longest >= 2 * 3600.0                           ? Unit {"h", 3600.0}
                                                          : Unit {"min", 60.0};
    const Unit money = dearest >= units::mega ? Unit {"million USD", units::mega}
        : dearest >= units::kilo              ? Unit {"thousand USD", units::kilo}
                                              : Unit {"USD", 1.0};
    for (auto &point : comparison.paretoPoints)
        if (point)
            point = std::pair(point->first / time.size, point->second / money.size);
    comparison.paretoTimeLabel = std::string("Wall time to train (") + time.name + ")";
    comparison.paretoCostLabel = std::string("Run cost (") + money.name + ")";
}

/** Each scenario's point on the time-cost plane (training: wall time and run cost; serving:
 * TTFT and cost per million tokens), and which points another beats on both. */
void findParetoFront(ScenarioComparison &comparison, bool training)
{
    for (const ScenarioResult &s : comparison.scenarios) {
        std::optional<std::pair<double, double>> point;
        const PlanEstimate &e = s.estimate;
        if (s.ok && training && trainingFound(e) && e.hasTrainingRun
            && e.trainingRun.operations.wallSeconds > 0)
            point
                = std::pair(e.trainingRun.operations.wallSeconds, e.trainingRun.operations.costUsd);
        else if (s.ok && !training && inferenceWorks(e) && e.holdsServingFleet())
            // The cost of what the plan buys: every GPU, serving or idle. A fleet larger than
            // the plan has no such cost (its figure was the fleet's own, another measure on the
            // same axis), and the plan cannot serve the load as asked: no point.
            point = std::pair(e.inference.ttftSeconds * 1e3,
                              e.servingUse ? e.servingUse->costPerMillionOutputTokensAllGpusUsd
                                           : e.inference.costPerMillionOutputTokensUsd);
        comparison.paretoPoints.push_back(point);
    }
    comparison.dominated = paretoDominated(comparison.paretoPoints);
    comparison.paretoTimeLabel = "TTFT p95 (ms)";
    comparison.paretoCostLabel = "USD per M output tokens, all GPUs";
    if (training)
        putTrainingParetoInReadableUnits(comparison);
}

/** The baseline's training throughput at another GPU count (a gap where no layout runs). */
ScalingPoint scalingPointAt(const Plan &baseline, int gpus, const Catalog &catalog,
                            const std::atomic<bool> *cancel)
{
    ScalingPoint point;
    // A campus copies the group into every building and trains on all of them: its throughput
    // is that many GPUs', not one building's.
    point.gpus = static_cast<long long>(gpus) * std::max(1, baseline.campus.buildings);
    try {
        Plan variant = baseline;
        variant.scenarios.clear();
        // The baseline's own count is the baseline (a sweep to it would change nothing and is
        // refused); every other count is a sweep of the one group.
        int scenario = -1;
        const bool ownCount = baseline.nodeGroups.size() == 1
            && 1LL * baseline.nodeGroups.front().count
                    * catalog.node(baseline.nodeGroups.front().nodeId).gpusPerNode
                == gpus;
        if (!ownCount) { // a plan of several groups is refused by the sweep: a gap
            variant.scenarios
                = sweepScenarios(baseline, SweepAxis::GpuCount, {std::to_string(gpus)}, catalog);
            scenario = 0;
        }
        // Only the throughput is read: no data hall to lay out.
        const PlanEstimate e
            = estimatePlanThroughput(scenarioPlan(variant, scenario, &catalog), catalog, cancel);
        if (trainingFound(e)) {
            const TrainingEstimate &best = e.training.best;
            point.ok = true;
            point.tokensPerSecond = best.tokensPerSecond;
            point.layout = best.config;
            point.microbatchesPerPipeline = best.microbatchesPerStep;
            point.bubbleShare = best.breakdown.bubbleSeconds / best.stepSeconds;
            point.communicationShare = best.commExposedFraction;
        }
    } catch (const std::exception &) {
        point.ok = false; // shown as a gap in the curve: this count has no valid layout
    }
    return point;
}

/** Per-GPU throughput of each scaling point against the smallest count that runs. */
void addScalingEfficiency(std::vector<ScalingPoint> &scaling)
{
    const auto first
        = std::find_if(scaling.begin(), scaling.end(), [](const ScalingPoint &p) { return p.ok; });
    if (first == scaling.end())
        return;
    for (ScalingPoint &p : scaling)
        if (p.ok)
            p.efficiency = (p.tokensPerSecond / p.gpus) / (first->tokensPerSecond / first->gpus);
}

/** "91.7 M tokens/s", "845 k tokens/s": the scaling notes' rates. */
std::string tokensRateText(double tokensPerSecond)
{
    if (tokensPerSecond >= units::mega)
        return threeDigits(tokensPerSecond / units::mega) + " M";
    if (tokensPerSecond >= units::kilo)
        return threeDigits(tokensPerSecond / units::kilo) + " k";
    return threeDigits(tokensPerSecond);
}

/** What the slower count's step spends that the faster one's did not: its pipelines' fill and
 * drain where the bubble outweighs its exposed communication, else that communication. */
std::string slowdownReason(const ScalingPoint &point, int globalBatch)
{
    const ParallelConfig &layout = point.layout;
    if (point.bubbleShare >= point.communicationShare && layout.pp > 1)
        return "the global batch of " + countOf(globalBatch, "sequence", "sequences")
            + " gives each of its " + groupedCount(layout.dp) + " data-parallel replicas "
            + countOf(point.microbatchesPerPipeline, "microbatch", "microbatches") + " for "
            + groupedCount(layout.pp) + " pipeline stages, and the pipeline bubble takes "
            + percentText(point.bubbleShare, 0)
            + " of its step; a larger global batch would fill the pipelines, up to the batch the "
              "model still converges with (McCandlish et al. 2018, the critical batch size)";
    if (point.communicationShare < 0.05)
        return "its fastest layout (" + layoutDescription(layout) + ") splits the global batch of "
            + countOf(globalBatch, "sequence", "sequences")
            + " into work too small to keep each GPU as busy";
    return "exposed communication takes " + percentText(point.communicationShare, 0)
        + " of its step (" + layoutDescription(layout) + "): the global batch of "
        + countOf(globalBatch, "sequence", "sequences")
        + " split over more GPUs leaves each less work to hide its communication behind";
}

} // namespace

std::vector<std::string> scalingSlowdownNotes(const std::vector<ScalingPoint> &scaling,
                                              int globalBatch)
{
    std::vector<std::string> notes;
    const ScalingPoint *fastest = nullptr; // the fastest smaller count so far
    for (const ScalingPoint &point : scaling) {
        if (!point.ok)
            continue;
        if (fastest && point.gpus > fastest->gpus
            && point.tokensPerSecond < fastest->tokensPerSecond)
            notes.push_back(groupedCount(point.gpus) + " GPUs train slower than "
                            + groupedCount(fastest->gpus) + " ("
                            + tokensRateText(point.tokensPerSecond) + " against "
                            + tokensRateText(fastest->tokensPerSecond)
                            + " tokens/s): " + slowdownReason(point, globalBatch) + ".");
        if (!fastest || point.tokensPerSecond > fastest->tokensPerSecond)
            fastest = &point;
    }
    // What the efficiency is measured against: the smallest count that trains, not the
    // curve's first when that one has no layout (the DeepSeek-V3 curve's 100% is 512 GPUs').
    const auto firstOk
        = std::find_if(scaling.begin(), scaling.end(), [](const ScalingPoint &p) { return p.ok; });
    if (firstOk != scaling.begin() && firstOk != scaling.end()) {
        std::vector<std::string> counts;
        for (auto p = scaling.begin(); p != firstOk; ++p)
            counts.push_back(groupedCount(p->gpus));
        notes.push_back(joinedList(counts)
                        + " GPUs have no layout that fits: the efficiency is against "
                        + groupedCount(firstOk->gpus) + " GPUs', the smallest count that trains.");
    }
    // Each count is searched for its own fastest layout: a larger one can find a layout whose
    // GPUs each run faster than the smallest count's did.
    if (std::any_of(scaling.begin(), scaling.end(),
                    [](const ScalingPoint &p) { return p.ok && p.efficiency > 1.0005; }))
        notes.push_back("an efficiency above 100% is a larger count's own fastest layout running "
                        "each GPU faster than the smallest count's (other parallelism), not speed "
                        "from more GPUs.");
    return notes;
}

ScenarioComparison compareScenarios(const Plan &plan, const Catalog &catalog,
                                    const ComparisonOptions &options,
                                    const std::atomic<bool> *cancel,
                                    const std::function<void(int, int)> &progress)
{
    ScenarioComparison comparison;
    const std::vector<Plan> plans = allScenarioPlans(plan, &catalog);
    checkComparisonSize(plans);
    const nlohmann::json baselineJson = planToJson(plan);
    const std::size_t variants = plans.size();
    const int total = static_cast<int>(variants + options.scalingGpuCounts.size());
    std::vector<ScenarioResult> results(variants);
    std::vector<ScalingPoint> scaling(options.scalingGpuCounts.size());
    // The variants and the scaling curve's points side by side; progress one call at a time.
    std::mutex progressMutex;
    int done = 0;
    runInParallel(results.size() + scaling.size(), [&](std::size_t task) {
        if (cancel && cancel->load())
            return;
        if (task < variants)
            results[task]
                = estimateScenario(plan, task, plans[task], baselineJson, catalog, options, cancel);
        else
            scaling[task - variants] = scalingPointAt(
                plans.front(), options.scalingGpuCounts[task - variants], catalog, cancel);
        if (progress) {
            const std::lock_guard lock(progressMutex);
            progress(++done, total);
        }
    });
    comparison.cancelled = cancel && cancel->load();
    if (comparison.cancelled)
        return comparison;
    comparison.scenarios = std::move(results);
    comparison.rows = comparisonRows(comparison.scenarios);
    comparison.operations = compareOperations(comparison.scenarios);
    findParetoFront(comparison, plan.workloadType == WorkloadType::Training);
    comparison.scaling = std::move(scaling);
    addScalingEfficiency(comparison.scaling);
    comparison.scalingNotes = scalingSlowdownNotes(comparison.scaling, plan.training.globalBatch);
    return comparison;
}

std::vector<std::vector<std::string>> comparisonTableCells(const ScenarioComparison &comparison)
{
    std::vector<std::vector<std::string>> cells;
    std::vector<std::string> header = {"Section", "Figure", "Unit"};
    for (const ScenarioResult &s : comparison.scenarios)
        header.push_back(s.name);
    cells.push_back(std::move(header));
    for (const ComparisonRow &row : comparison.rows) {
        std::vector<std::string> line = {row.section, row.label, row.unit};
        for (std::size_t i = 0; i < row.values.size(); ++i)
            line.push_back(
                row.isText()
                    ? row.wholeText(i)
                    : (row.values[i] ? row.boundPrefix(i) + csvFigure(*row.values[i]) : ""));
        cells.push_back(std::move(line));
    }
    // Then where each scenario's time goes, operation by operation, a section a phase.
    for (const OperationComparisonRow &row : comparison.operations) {
        std::vector<std::string> line = {"Where the time goes: " + row.phase, row.label, row.unit};
        for (const std::optional<double> &value : row.values)
            line.push_back(value ? csvFigure(*value) : "");
        cells.push_back(std::move(line));
    }
    return cells;
}

std::vector<std::vector<std::string>> billOfMaterialsCells(const PlanEstimate &estimate,
                                                           const std::string &scenarioName)
{
    std::vector<std::vector<std::string>> cells
        = {{"Scenario", "Category", "Item", "Name", "Count", "Unit price (USD)", "Total (USD)"}};
    double total = 0;
    for (const BillOfMaterialsLine &line : estimate.billOfMaterials) {
        cells.push_back({scenarioName, line.category, line.itemId, line.name,
                         std::to_string(line.count), csvFigure(line.unitPriceUsd),
                         csvFigure(line.totalUsd())});
        total += line.totalUsd();
    }
    if (!estimate.campus || estimate.campus->buildings <= 1) {
        cells.push_back({scenarioName, "Total", "", "", "", "", csvFigure(total)});
        return cells;
    }
    // A campus's lines are one building's: said, then the buildings and the interconnect that
    // make the campus's capital (the comparison's and the JSON's campus figure).
    const CampusTotals &campus = *estimate.campus;
    cells.push_back({scenarioName, "Total (each building)", "", "", "", "", csvFigure(total)});
    cells.push_back({scenarioName, "Campus", "buildings", "identical buildings",
                     std::to_string(campus.buildings), csvFigure(total),
                     csvFigure(campus.buildings * total)});
    if (campus.interconnectUsd > 0)
        cells.push_back({scenarioName, "Campus", "interconnect", "data-centre interconnect", "1",
                         csvFigure(campus.interconnectUsd), csvFigure(campus.interconnectUsd)});
    if (campus.spareNodes > 0)
        cells.push_back({scenarioName, "Campus", "spares",
                         "hot spare nodes with their GPUs (the training run's)",
                         std::to_string(campus.spareNodes),
                         csvFigure(campus.sparesUsd / static_cast<double>(campus.spareNodes)),
                         csvFigure(campus.sparesUsd)});
    cells.push_back({scenarioName, "Campus total", "", "", "", "", csvFigure(campus.capitalUsd)});
    return cells;
}

} // namespace cp::model
