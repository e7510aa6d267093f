// SPDX-License-Identifier: GPL-3.0-or-later
#include "commands.h"
#include "table.h"
#include "trainingreport.h"

#include "model/estimatejson.h"
#include "model/planestimator.h"
#include "model/planio.h"
#include "model/units.h"

#include <ostream>

namespace cp::cli {

namespace units = model::units;

std::string renderPlanEstimate(const model::PlanEstimate &e)
{
    std::string text = "Plan: " + e.planName + "\n\n";
    Table summary({"figure", "value"});
    summary.addRow({"GPUs", std::to_string(e.gpus) + " x " + e.gpuName});
    summary.addRow({"nodes", std::to_string(e.nodes)});
    summary.addRow(
        {"peak dense BF16/FP16", format("%.2f PFLOP/s", e.peakDenseFlopsPerSecond / units::peta)});
    summary.addRow({"GPU memory", format("%.2f TB", e.gpuMemoryBytes / units::tera)});
    if (e.fabric.endpoints > 0)
        summary.addRow({"fabric (" + e.fabric.topology + ")",
                        std::to_string(e.fabric.endpoints) + " ports, "
                            + std::to_string(e.fabric.leafSwitches) + " leaf + "
                            + std::to_string(e.fabric.spineSwitches) + " spine switches, "
                            + std::to_string(e.fabric.cables) + " cables"});
    summary.addRow({"IT power",
                    format("%.1f kW", e.power.itWatts() / units::kilo)
                        + format(" (GPUs %.1f", e.power.gpusWatts / units::kilo)
                        + format(", nodes %.1f", e.power.nodesWatts / units::kilo)
                        + format(", network %.1f", e.power.networkWatts / units::kilo)
                        + format(", storage %.1f kW)", e.power.storageWatts / units::kilo)});
    summary.addRow({"facility power",
                    format("%.1f kW", e.power.facilityWatts() / units::kilo)
                        + format(" at PUE %.2f", e.power.pue)});
    summary.addRow({"capital cost", format("%.0f USD", e.capitalCostUsd)});
    for (const model::RackUsage &rack : e.racks)
        summary.addRow({"racks: " + rack.groupName,
                        std::to_string(rack.racks) + " x " + rack.rackId + ", "
                            + std::to_string(rack.nodesPerRack) + " nodes each, "
                            + format("%.1f kW", rack.wattsPerRack / units::kilo)
                            + format(" of %.1f kW", rack.rackLimitWatts / units::kilo)});
    text += summary.render();

    text += "\nBill of materials:\n";
    Table bom({"category", "item", "count", "unit USD", "total USD"});
    for (const model::BillOfMaterialsLine &line : e.billOfMaterials)
        bom.addRow({line.category, line.name, std::to_string(line.count),
                    format("%.0f", line.unitPriceUsd), format("%.0f", line.totalUsd())});
    bom.addRow({"total", "", "", "", format("%.0f", e.capitalCostUsd)});
    text += bom.render();

    for (const std::string &warning : e.warnings)
        text += "warning: " + warning + "\n";
    if (e.hasTraining) {
        text += "\nTraining estimate:\n";
        if (e.training.found)
            text += renderTrainingEstimate(e.training.best);
        else
            text += "  not possible: " + e.trainingError + "\n";
    }
    if (e.hasInference) {
        const model::InferenceEstimate &i = e.inference;
        Table table({"inference", "value"});
        table.addRow(
            {"replica",
             std::to_string(i.gpusPerReplica) + " GPU(s), batch " + std::to_string(i.batch)});
        table.addRow({"TTFT p95", format("%.1f ms", i.ttftSeconds * 1e3)});
        table.addRow({"time per output token", format("%.2f ms", i.tpotSeconds * 1e3)});
        table.addRow({"replicas needed",
                      std::to_string(i.replicas) + " ("
                          + std::to_string(i.replicas * i.gpusPerReplica) + " GPUs)"});
        table.addRow({"cost per million output tokens",
                      format("%.3f USD", i.costPerMillionOutputTokensUsd)});
        table.addRow({"bottleneck", i.bottleneckExplanation});
        if (!i.fits || !i.meetsTargets)
            table.addRow({"not possible", i.reason});
        text += "\nInference estimate:\n" + table.render();
    }
    if (!e.workloadNote.empty())
        text += "\nnote: " + e.workloadNote + "\n";
    return text;
}

int runPlanCommand(CliContext &context, const std::vector<std::string> &args, std::ostream &out)
{
    const auto specs = withCommonOptions({});
    const ParsedArguments a = parseArguments(args, specs, "plan");
    if (a.has("help")) {
        out << usageText("clusterplanner-cli plan estimate PLAN.json", specs);
        return ExitOk;
    }
    if (a.positional.empty())
        throw UsageError("missing subcommand: plan estimate PLAN.json");
    if (a.positional[0] != "estimate")
        throw UsageError("unknown subcommand 'plan " + a.positional[0]
                         + "' (expected: plan estimate PLAN.json)");
    if (a.positional.size() != 2)
        throw UsageError("usage: plan estimate PLAN.json");
    const model::Catalog &catalog = context.catalog();
    const model::Plan plan = model::loadPlan(a.positional[1], &catalog);
    const model::PlanEstimate estimate = model::estimatePlan(plan, catalog);
    if (a.has("json"))
        out << model::planEstimateToJson(estimate).dump(2) << "\n";
    else
        out << renderPlanEstimate(estimate);
    return ExitOk;
}

} // namespace cp::cli
