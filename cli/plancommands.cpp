// SPDX-License-Identifier: GPL-3.0-or-later
#include "commands.h"
#include "servingreport.h"
#include "simulatecommand.h"
#include "table.h"
#include "trainingreport.h"
#include "worstfailurereport.h"

#include "model/core/atomicfile.h"
#include "model/core/csvtable.h"
#include "model/core/humantext.h"
#include "model/core/inputerror.h"
#include "model/core/units.h"
#include "model/inference/fleetcapacity.h"
#include "model/plan/planio.h"
#include "model/plan/scenarios.h"
#include "model/planning/estimatejson.h"
#include "model/planning/planestimator.h"
#include "model/planning/planfabric.h"
#include "model/planning/planworstfailure.h"
#include "model/planning/scenariocomparison.h"

#include <cmath>
#include <iostream>
#include <ostream>

namespace cp::cli {

namespace units = model::units;

namespace {

/** The room around the fabric: cable media, network, storage and management cabinets. */
void addHallRows(Table &summary, const model::PlanEstimate &e)
{
    if (!e.cablesByMedium.empty()) {
        std::string media;
        for (const auto &[medium, count] : e.cablesByMedium)
            media += (media.empty() ? "" : ", ") + model::groupedCount(count) + " " + medium;
        summary.addRow({"cables by medium",
                        "compute and storage networks: " + media
                            + format("; longest %.1f m", e.longestCableMeters)});
    }
    if (e.networkCabinets > 0)
        summary.addRow({"network racks",
                        std::to_string(e.networkCabinets)
                            + " (the leaves and management switch of each "
                              "row, the spine row)"});
    if (e.storageCabinets > 0)
        summary.addRow(
            {"storage racks",
             std::to_string(e.storageCabinets) + " (the storage systems, beside the spine row)"});
    if (e.managementSwitches > 0)
        summary.addRow({"management network",
                        model::groupedCount(e.managementSwitches)
                            + (e.managementSwitches == 1 ? " switch, " : " switches, ")
                            + model::groupedCount(e.managementCables)
                            + " cables (every BMC and management port)"});
    if (e.storageCables > 0)
        summary.addRow({"storage network",
                        e.storageSwitches > 0 ? model::groupedCount(e.storageSwitches)
                                + " switches of its own, " + model::groupedCount(e.storageCables)
                                + " cables (servers' storage ports and storage systems)"
                                              : model::groupedCount(e.storageCables)
                                + " cables from the storage systems to free fabric leaf ports"});
    if (e.pdus > 0 || e.patchPanels > 0)
        summary.addRow({"cabinet fittings",
                        model::groupedCount(e.pdus) + " zero-U PDUs (A and B feeds), "
                            + model::groupedCount(e.patchPanels)
                            + " patch panels for the fibre between rows"});
    if (e.overLimitRacks > 0)
        summary.addRow({"cabinets over a limit",
                        model::groupedCount(e.overLimitRacks)
                            + " (power, load, rack units or PDUs; see the Data Hall tab)"});
}

/** Hardware, room, power, cost and cabinets per server group. */
std::string planSummaryText(const model::PlanEstimate &e)
{
    Table summary({"figure", "value"});
    summary.addRow({"GPUs",
                    e.gpus > 0 ? model::groupedCount(e.gpus) + " x " + e.gpuName
                               : std::string("none: the plan has no servers yet")});
    summary.addRow({"nodes", model::groupedCount(e.nodes)});
    summary.addRow({"peak dense BF16/FP16", model::humanFlopsRate(e.peakDenseFlopsPerSecond)});
    if (e.computesInFp8())
        summary.addRow({"peak dense FP8, the workload's",
                        model::humanFlopsRate(e.peakDenseFp8FlopsPerSecond)});
    summary.addRow({"GPU memory", model::humanBytes(e.gpuMemoryBytes)});
    if (!e.fabricError.empty())
        summary.addRow({"fabric (" + e.fabric.topology + ")", "cannot be built: " + e.fabricError});
    else if (e.fabric.endpoints > 0)
        summary.addRow(
            {"fabric (" + e.fabric.topology + ")", model::fabricCountsSummary(e.fabric)});
    addHallRows(summary, e);
    summary.addRow({"IT power",
                    model::itPowerText({.gpusWatts = e.power.gpusWatts,
                                        .nodesWatts = e.power.nodesWatts,
                                        .networkWatts = e.power.networkWatts,
                                        .storageWatts = e.power.storageWatts})
                        + e.partialHardwareNote()});
    summary.addRow({"facility power",
                    model::humanPower(e.power.facilityWatts()) + format(" at PUE %.2f", e.power.pue)
                        + e.partialHardwareNote()});
    summary.addRow({"capital cost", model::humanUsd(e.capitalCostUsd) + e.partialHardwareNote()});
    if (e.campus)
        summary.addRow({"campus",
                        std::to_string(e.campus->buildings)
                            + " buildings like this one: " + model::groupedCount(e.campus->gpus)
                            + " GPUs, " + model::humanPower(e.campus->itWatts) + " IT ("
                            + model::humanPower(e.campus->facilityWatts) + " facility), "
                            + model::humanUsd(e.campus->capitalUsd) + "; interconnect "
                            + format("%.3g Tb/s",
                                     units::bytesPerSecondToTbitPerSecond(
                                         e.campus->interconnectBytesPerSecondPerBuilding))
                            + " out of each building, "
                            + format("%.3g us", e.campus->interconnectLatencySeconds * 1e6) + ", "
                            + model::humanUsd(e.campus->interconnectUsd) + e.campus->sparesText()});
    for (const model::RackUsage &rack : e.racks)
        summary.addRow({"racks: " + rack.groupName,
                        model::groupedCount(rack.racks) + " x " + rack.rackName + ", " + "up to "
                            + std::to_string(rack.nodesPerRack) + " nodes each, a full rack "
                            + format("%.1f kW", rack.wattsPerRack / units::kilo)
                            + format(" of %.1f kW", rack.rackLimitWatts / units::kilo)});
    return summary.render();
}

std::string billOfMaterialsText(const model::PlanEstimate &e)
{
    Table bom({"category", "item", "count", "unit USD", "total USD"});
    for (const model::BillOfMaterialsLine &line : e.billOfMaterials)
        bom.addRow({line.category, line.name, std::to_string(line.count),
                    format("%.0f", line.unitPriceUsd), format("%.0f", line.totalUsd())});
    bom.addRow({"total", "", "", "", format("%.0f", e.capitalCostUsd)});
    return bom.render();
}

std::string planInferenceText(const model::PlanEstimate &e)
{
    const model::InferenceEstimate &i = e.inference;
    Table table({"inference", "value"});
    table.addRow({"replica",
                  std::to_string(i.gpusPerReplica) + (i.gpusPerReplica == 1 ? " GPU" : " GPUs")
                      + ", batch " + std::to_string(i.batch)});
    // A replica that cannot hold the workload has no times of its own to show; one that runs
    // but meets no target shows its best (batch 1, unloaded), with no fleet or cost.
    if (i.fits) {
        table.addRow({i.offlineJob       ? "TTFT once its wave starts"
                          : i.hasFleet() ? "TTFT p95"
                                         : "TTFT (batch 1, unloaded)",
                      i.overloaded() ? "unbounded: the queue grows, as the load is more than "
                                       "the fleet serves"
                                     : format("%.1f ms", i.ttftSeconds * 1e3)});
        table.addRow({"time per output token", format("%.2f ms", i.tpotSeconds * 1e3)});
    }
    if (!i.hasFleet())
        table.addRow({"replicas needed",
                      i.fits ? "none: no fleet meets the targets"
                             : "none: a replica cannot hold the workload"});
    const long long fleetGpus = i.fleetGpus();
    if (i.hasFleet())
        table.addRow({i.offlineJob || i.fixedFleet ? "replicas" : "replicas needed",
                      model::groupedCount(i.replicas) + " (" + model::groupedCount(fleetGpus)
                          + (fleetGpus == 1 ? " GPU)" : " GPUs)")});
    if (i.hasFleet() && i.inFlightSequences > 0)
        table.addRow(
            {"in flight under the load",
             format("%.1f sequences per replica on average", i.inFlightSequences)
                 + format("; the load is %.0f%% of what a replica serves", 100 * i.utilisation)});
    if (i.offlineJob)
        addOfflineJobRows(table, i);
    if (i.capacityWithinLimits)
        table.addRow({"capacity within the targets", model::capacityWithinLimitsText(i)});
    if (i.hasFleet())
        table.addRow({"cost per million output tokens",
                      format("%.3f USD", i.costPerMillionOutputTokensUsd)});
    if (e.servingUse && e.servingUse->idleGpus() > 0)
        table.addRow({"  over every GPU of the plan",
                      format("%.3f USD", e.servingUse->costPerMillionOutputTokensAllGpusUsd) + " ("
                          + model::groupedCount(e.servingUse->idleGpus()) + " of the plan's "
                          + model::groupedCount(e.servingUse->planGpus) + " GPUs idle)"});
    if (i.hasFleet()) // else "not possible" says why
        table.addRow({"bottleneck", i.bottleneckExplanation});
    if (!i.fits || !i.meetsTargets)
        table.addRow({"not possible", i.reason});
    if (e.autoscaling)
        addAutoscalingRows(table, *e.autoscaling);
    return table.render()
        + "published measurements: " + model::publishedServingText(e.inferencePublishedRuns) + "\n";
}

} // namespace

/** The run around the step: failures, restarts, checkpoints and the wall time they make. */
std::string planRunText(const model::PlanEstimate &e)
{
    if (!e.hasTrainingRun)
        return {};
    const model::ReliabilityEstimate &r = e.trainingRun.reliability;
    Table table({"run", "value"});
    table.addRow({"failures",
                  format("%.2f interruptions per day", r.interruptionsPerDay) + ", job MTBF "
                      + model::humanWait(r.mtbfSeconds) + ", restart "
                      + model::humanWait(r.restartSeconds)});
    table.addRow({"goodput",
                  r.goodput > 0 ? model::withReason(
                      format("%.3g%% of wall time is useful work", 100 * r.goodput),
                      model::lowGoodputText(r))
                                : "0%: the run never finishes: " + model::runNeverFinishesText(r)});
    const model::TrainingRunEstimate &run = e.trainingRun;
    // The checkpoints and the storage the run needs, as `train` lists them (the JSON, the PDF
    // and the GUI had them; this table did not).
    table.addRow({"checkpoint",
                  r.checkpointsWritable ? model::humanBytes(run.checkpointBytes) + ", write "
                          + model::humanDuration(r.checkpointWriteSeconds) + " (restore "
                          + model::humanDuration(r.checkpointReadSeconds) + "), every "
                          + model::humanWait(r.checkpointIntervalSeconds) + " (" + r.intervalRule
                          + ")"
                                        : model::humanBytes(run.checkpointBytes)
                          + " cannot be written: no storage the servers reach"});
    table.addRow({"storage needed",
                  model::humanBytes(run.storedBytes)
                      + " (data and checkpoints): " + model::groupedCount(run.storageSystemsNeeded)
                      + (run.storageSystemsNeeded == 1 ? " system" : " systems")
                      + " of the plan's kind for its capacity and feed"});
    // Checkpoints that stop training longer than storage worth its price would.
    if (!run.checkpointStorageNote.empty())
        table.addRow({"storage", run.checkpointStorageNote});
    // What the data loader needs of storage, network and CPUs, and the GPUs' wait for it.
    if (run.dataPath.present)
        addDataPathRows(table, run.dataPath);
    const model::OperationsEstimate &o = run.operations;
    if (o.wallSeconds > 0) {
        addRunLengthRows(table, o);
        table.addRow({"cost",
                      model::humanUsd(o.costUsd)
                          + format(" at $%.2f per GPU-hour", o.costPerGpuHourUsd)
                          + " (the plan's capital amortised + electricity)"});
    }
    std::string text = "\n" + table.render();
    for (const std::string &note : run.notes)
        if (note != run.checkpointStorageNote) // a row of its own above
            text += "note: " + note + "\n";
    return text;
}

std::string renderPlanEstimate(const model::PlanEstimate &e)
{
    std::string text = "Plan: " + e.planName + "\n\n" + planSummaryText(e);
    text += "\nBill of materials:\n" + billOfMaterialsText(e);
    for (const std::string &warning : e.warnings)
        text += "warning: " + warning + "\n";
    if (e.hasTraining) {
        text += "\nTraining estimate:\n";
        if (e.training.found)
            text += renderTrainingEstimate(e.training.best, &e.trainingPublishedRuns)
                + planRunText(e);
        else
            text += "  not possible: " + e.trainingError + "\n";
    }
    if (e.hasInference)
        text += "\nInference estimate:\n" + planInferenceText(e);
    if (!e.workloadNote.empty())
        text += "\nnote: " + e.workloadNote + "\n";
    return text;
}

static std::string portfolioPointer(const model::Plan &plan)
{
    // The Estimate panel simulates the portfolio in the background; here it is a command of
    // its own, which takes seconds, and says so rather than leaving the queue out unsaid.
    const std::size_t classes = plan.portfolio.classes.size();
    const std::size_t services = plan.portfolio.services.size();
    if (classes == 0 && services == 0)
        return {};
    return "\nnote: the plan has a job portfolio (" + std::to_string(classes)
        + (classes == 1 ? " job class, " : " job classes, ") + std::to_string(services)
        + (services == 1 ? " service" : " services")
        + "): `plan simulate` runs it through the plan's scheduler for its queue waits and "
          "utilisation (the Estimate panel's Queue section)\n";
}

namespace {
std::string comparisonCell(double value)
{
    return std::abs(value) >= 1000 ? format("%.0f", value) : format("%.4g", value);
}
} // namespace

/** The scenarios' step operations side by side, phase by phase (compareOperations). */
std::string renderOperationComparison(const model::ScenarioComparison &c)
{
    std::vector<std::string> header = {"where the time goes", "unit"};
    for (const model::ScenarioResult &s : c.scenarios)
        header.push_back(s.name);
    Table table(header);
    std::string phase;
    for (const model::OperationComparisonRow &row : c.operations) {
        if (row.phase != phase) {
            phase = row.phase;
            std::vector<std::string> title(header.size());
            title[0] = phase;
            table.addRow(title);
        }
        std::vector<std::string> cells = {"  " + row.label, row.unit};
        for (const std::optional<double> &value : row.values)
            cells.push_back(value ? comparisonCell(*value) : "-");
        table.addRow(cells);
    }
    return "Where the time goes, scenario by scenario (on the critical path of one GPU; train and "
           "infer --explain give the FLOPs and bytes):\n"
        + table.render();
}

std::string renderComparison(const model::ScenarioComparison &c)
{
    std::vector<std::string> header = {"figure", "unit"};
    for (const model::ScenarioResult &s : c.scenarios)
        header.push_back(s.name);
    Table table(header);
    for (const model::ComparisonRow &canonical : c.rows) {
        if (canonical.key == "bottleneck" || canonical.key == "changes")
            continue; // long sentences: listed below the table
        const model::ComparisonRow row = model::inReadableUnit(canonical);
        std::vector<std::string> cells = {row.label, row.unit};
        for (std::size_t i = 0; i < row.values.size(); ++i) {
            std::string cell = row.isText() ? row.text[i]
                : row.values[i]             ? row.boundPrefix(i) + comparisonCell(*row.values[i])
                                            : "-";
            if (static_cast<int>(i) == row.bestIndex)
                cell = "*" + cell;
            cells.push_back(cell);
        }
        table.addRow(cells);
    }
    std::string text = table.render() + "(* best of the row)\n";
    for (const std::string &note : model::notRankedNotes(c.rows))
        text += note + "\n";
    for (std::size_t i = 0; i < c.scenarios.size(); ++i) {
        const model::ScenarioResult &s = c.scenarios[i];
        text += "\n" + s.name + (c.dominatedOnPlane(i) ? " (dominated on cost and time)" : "")
            + ":\n";
        for (const std::string &change : s.changes)
            text += "  " + change + "\n";
        for (const model::ComparisonRow &row : c.rows)
            if (row.key == "bottleneck" && !row.text[i].empty())
                text += "  bottleneck: " + row.text[i] + "\n";
        if (!s.ok)
            text += "  not estimated: " + s.error + "\n";
    }
    if (!c.operations.empty())
        text += "\n" + renderOperationComparison(c);
    if (!c.scaling.empty()) {
        // Three digits in the unit the largest rate reads in ("91.7" M tokens/s, not 91684556).
        double fastest = 0;
        for (const model::ScalingPoint &p : c.scaling)
            fastest = std::max(fastest, p.ok ? p.tokensPerSecond : 0.0);
        const auto [rateUnit, rateDivisor] = fastest >= units::mega
            ? std::pair("M tokens/s", units::mega)
            : fastest >= units::kilo ? std::pair("k tokens/s", units::kilo)
                                     : std::pair("tokens/s", 1.0);
        Table scaling({"GPUs", rateUnit, "per-GPU efficiency"});
        for (const model::ScalingPoint &p : c.scaling) {
            scaling.addRow({model::groupedCount(p.gpus),
                            p.ok ? model::threeDigits(p.tokensPerSecond / rateDivisor) : "-",
                            p.ok ? format("%.1f%%", 100 * p.efficiency) : "no layout"});
        }
        text += "\nScaling of the baseline:\n" + scaling.render();
        for (const std::string &note : c.scalingNotes)
            text += "note: " + note + "\n";
    }
    return text;
}

nlohmann::json comparisonToJson(const model::ScenarioComparison &c)
{
    nlohmann::json doc;
    doc["scenarios"] = nlohmann::json::array();
    for (std::size_t i = 0; i < c.scenarios.size(); ++i) {
        const model::ScenarioResult &s = c.scenarios[i];
        nlohmann::json entry = {{"name", s.name}, {"changes", s.changes}, {"ok", s.ok}};
        if (!s.ok)
            entry["error"] = s.error;
        // null where the scenario has no point on the time-cost plane to rank.
        entry["pareto_dominated"] = i < c.paretoPoints.size() && c.paretoPoints[i]
            ? nlohmann::json(c.dominatedOnPlane(i))
            : nlohmann::json(nullptr);
        doc["scenarios"].push_back(std::move(entry));
    }
    doc["rows"] = nlohmann::json::array();
    for (const model::ComparisonRow &row : c.rows) {
        nlohmann::json values = nlohmann::json::array();
        for (std::size_t i = 0; i < row.values.size(); ++i) {
            if (row.isText())
                values.push_back(row.wholeText(i));
            else if (row.values[i])
                values.push_back(*row.values[i]);
            else
                values.push_back(nullptr);
        }
        nlohmann::json entry
            = {{"key", row.key},   {"section", row.section}, {"label", row.label},
               {"unit", row.unit}, {"values", values},       {"differs", row.differs}};
        if (row.bestIndex >= 0)
            entry["best"] = row.bestIndex;
        if (!row.notRankedBecause.empty())
            entry["not_ranked_because"] = row.notRankedBecause;
        // Which values are lower bounds (waits that count jobs still waiting at the end).
        if (!row.lowerBounds.empty())
            entry["lower_bounds"] = row.lowerBounds;
        doc["rows"].push_back(std::move(entry));
    }
    doc["operations"] = nlohmann::json::array();
    for (const model::OperationComparisonRow &row : c.operations) {
        nlohmann::json values = nlohmann::json::array();
        for (const std::optional<double> &value : row.values)
            values.push_back(value ? nlohmann::json(*value) : nlohmann::json(nullptr));
        doc["operations"].push_back({{"phase", row.phase},
                                     {"label", row.label},
                                     {"unit", row.unit},
                                     {"total", row.total},
                                     {"values", values}});
    }
    doc["scaling"] = nlohmann::json::array();
    for (const model::ScalingPoint &p : c.scaling)
        doc["scaling"].push_back({{"gpus", p.gpus},
                                  {"ok", p.ok},
                                  {"tokens_per_s", p.tokensPerSecond},
                                  {"efficiency", p.efficiency}});
    doc["scaling_notes"] = c.scalingNotes;
    return doc;
}

namespace {

std::optional<model::SweepAxis> sweepAxisFromName(const std::string &name)
{
    for (model::SweepAxis axis : model::allSweepAxes())
        if (model::sweepAxisName(axis) == name)
            return axis;
    return std::nullopt;
}

/** plan estimate: the estimate as a table or JSON, with the worst single failure if asked. */
int runPlanEstimate(const ParsedArguments &a, const model::Plan &plan,
                    const model::Catalog &catalog, std::ostream &out)
{
    const model::PlanEstimate estimate = model::estimatePlan(plan, catalog);
    std::optional<model::WorstFailure> worst;
    if (a.has("worst-failure"))
        worst = model::planWorstFailure(plan, catalog);
    if (a.has("json")) {
        nlohmann::json json = model::planEstimateToJson(estimate);
        if (worst)
            json["worst_failure"] = model::worstFailureToJson(*worst);
        out << json.dump(2) << "\n";
    } else {
        out << renderPlanEstimate(estimate) << portfolioPointer(plan);
        if (worst)
            out << "\n" << renderWorstFailure(*worst);
    }
    // The estimate is printed whole, and the exit status says the design cannot work as drawn
    // (exit 3, as `fabric` and `infer` say it), so a script does not take it for a design.
    if (!estimate.fabricError.empty())
        throw InfeasibleError("the fabric cannot be built: " + estimate.fabricError);
    // A workload the plan cannot run exits as `train` and `infer` do for it (tensor parallelism
    // of 3 over 32 heads exited 0 here and 3 there).
    if (estimate.hasTraining && !estimate.training.found)
        throw InfeasibleError("training: " + estimate.trainingError);
    if (estimate.hasInference && (!estimate.inference.fits || !estimate.inference.meetsTargets))
        throw InfeasibleError("inference: " + estimate.inference.reason);
    return ExitOk;
}

/** plan compare: the scenarios side by side (and as CSV), with the scaling curve. */
int runPlanCompare(const ParsedArguments &a, const model::Plan &plan, const model::Catalog &catalog,
                   std::ostream &out)
{
    model::ComparisonOptions options;
    if (!a.has("no-scaling"))
        options.scalingGpuCounts = model::defaultScalingGpuCounts(plan, catalog);
    const model::ScenarioComparison comparison = model::compareScenarios(plan, catalog, options);
    if (auto csv = a.value("csv"))
        model::writeFileAtomically(*csv, model::toCsv(model::comparisonTableCells(comparison)));
    if (a.has("json"))
        out << comparisonToJson(comparison).dump(2) << "\n";
    else
        out << renderComparison(comparison);
    return ExitOk;
}

/** plan sweep: one scenario per value of the axis, written to --out or printed. */
int runPlanSweep(const ParsedArguments &a, const model::Plan &plan, const model::Catalog &catalog,
                 std::ostream &out)
{
    const std::string axisName = a.required("axis");
    const auto axis = sweepAxisFromName(axisName);
    if (!axis)
        throw UsageError("--axis: unknown axis '" + axisName
                         + "' (gpu-count, gpu-type, nic, oversubscription, precision, batch)");
    model::Plan swept = plan;
    try {
        for (model::Scenario &scenario :
             model::sweepScenarios(plan, *axis, splitList(a.required("values"), ','), catalog))
            swept.scenarios.push_back(std::move(scenario));
    } catch (const model::InputError &error) {
        throw UsageError("--values " + error.pointer() + ": " + error.reason());
    }
    // A swept size the plan's fixed tiers cannot join is said now, not first in a comparison
    // (on stderr: stdout may be the plan).
    for (std::size_t i = plan.scenarios.size(); i < swept.scenarios.size(); ++i) {
        const std::string problem = model::planFabricProblem(
            model::scenarioPlan(swept, static_cast<int>(i), &catalog), catalog);
        if (!problem.empty())
            std::cerr << "note: scenario '" << swept.scenarios[i].name
                      << "': the fabric cannot be built: " << problem << "\n";
    }
    if (auto file = a.value("out")) {
        model::savePlan(swept, *file);
        out << "wrote " << *file << " with " << swept.scenarios.size() << " scenario(s)\n";
    } else {
        out << model::planToJson(swept).dump(2) << "\n";
    }
    return ExitOk;
}

} // namespace

int runPlanCommand(CliContext &context, const std::vector<std::string> &args, std::ostream &out)
{
    const auto specs = withCommonOptions({
        {"csv", true, "compare: also write the comparison table to FILE (RFC 4180)"},
        {"no-scaling", false, "compare: skip the baseline's scaling curve"},
        {"axis", true, "sweep: gpu-count|gpu-type|nic|oversubscription|precision|batch"},
        {"values", true, "sweep: comma-separated values, e.g. 2048,4096"},
        {"out", true, "sweep: write the plan with the new scenarios to FILE (default: stdout)"},
        {"worst-failure", false,
         "estimate: also find the switch whose loss slows the training step most"},
        {"years", true, "simulate: simulated years (default 1)"},
        {"seed", true, "simulate: random seed (default 1); the same seed gives the same run"},
        {"seeds", true,
         "simulate: also run the next seeds, up to 10 runs in all, and show how far each class's "
         "waits move between them (default 1)"},
        {"policy", true, "simulate: fifo|backfill|kueue (default: the plan's portfolio, backfill)"},
        {"target-wait", true,
         "simulate: CLASS=HOURS, the fewest servers of the first group at which CLASS's p95 "
         "wait stays within HOURS"},
        {"trace-out", true,
         "simulate: also write the jobs as they ran to FILE (Standard Workload Format)"},
        {"trace", true,
         "simulate: replay FILE (Standard Workload Format, or sacct --parsable2 with JobID, "
         "Submit, Start, End and AllocTRES) instead of the portfolio's job classes"},
    });
    const ParsedArguments a = parseArguments(args, specs, "plan");
    const std::string synopsis = "clusterplanner-cli plan estimate|compare|simulate PLAN.json\n"
                                 "       clusterplanner-cli plan sweep PLAN.json --axis AXIS "
                                 "--values V1,V2,... [--out FILE]";
    if (a.has("help")) {
        out << usageText(synopsis, specs);
        return ExitOk;
    }
    if (a.positional.empty())
        throw UsageError("missing subcommand: plan estimate|compare|simulate|sweep PLAN.json");
    const std::string sub = a.positional[0];
    if (sub != "estimate" && sub != "compare" && sub != "simulate" && sub != "sweep")
        throw UsageError("unknown subcommand 'plan " + sub
                         + "' (expected: plan estimate|compare|simulate|sweep PLAN.json)");
    if (a.positional.size() != 2)
        throw UsageError("usage: plan " + sub + " PLAN.json");
    const model::Catalog &catalog = context.catalog();
    const std::string &path = a.positional[1];
    // A sweep's --out may be the plan itself (its scenarios added in place); the rest may not.
    for (const char *option : {"csv", "trace-out"})
        if (auto output = a.value(option))
            refuseToOverwriteInputs(std::string("--") + option, *output,
                                    {path, context.databasePath, a.value("trace").value_or("")});
    if (auto output = a.value("out"))
        refuseToOverwriteInputs("--out", *output, {context.databasePath});
    const model::Plan plan = model::loadPlan(path, &catalog);
    if (sub == "simulate")
        return runPlanSimulate(a, path, plan, catalog, out);
    if (sub == "estimate")
        return runPlanEstimate(a, plan, catalog, out);
    if (sub == "compare")
        return runPlanCompare(a, plan, catalog, out);
    return runPlanSweep(a, plan, catalog, out);
}

} // namespace cp::cli
