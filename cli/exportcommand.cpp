// SPDX-License-Identifier: GPL-3.0-or-later
// The one command that links the views library: a PDF report draws the canvas and the charts
// with Qt's painter, so it needs a QApplication. It runs on Qt's offscreen platform, so no
// display is needed; every figure still comes from the model.
#include "commands.h"

#include "planreport.h"

#include "model/core/atomicfile.h"
#include "model/core/csvtable.h"
#include "model/fabric/fabricgraph.h"
#include "model/plan/planio.h"
#include "model/plan/scenarios.h"
#include "model/planning/datahall.h"
#include "model/planning/netboxexport.h"
#include "model/planning/scenariocomparison.h"
#include "simulatecommand.h"

#include <QApplication>

#include <filesystem>
#include <optional>
#include <ostream>

namespace cp::cli {

namespace {

/** The baseline's room: its cable schedule and its NetBox imports, with what they hold. */
void writeDataHallFiles(const model::Plan &plan, const model::Catalog &catalog,
                        const std::optional<std::string> &schedule,
                        const std::optional<std::string> &netboxDirectory, std::ostream &out)
{
    const model::Plan baseline = model::scenarioPlan(plan, -1, nullptr);
    model::DataHall hall;
    try {
        hall = model::layoutDataHall(baseline, catalog);
    } catch (const model::FabricParameterError &error) {
        throw InfeasibleError("the baseline's fabric cannot be built, so its cables cannot be "
                              "laid out: "
                              + std::string(error.what()));
    }
    if (!hall.notLaidOut.empty())
        throw InfeasibleError("the baseline's room is not laid out, so it has no cable schedule or "
                              "NetBox import: "
                              + hall.notLaidOut);
    for (const std::string &note : hall.notes)
        out << "note: " << note << "\n";
    if (schedule) {
        model::writeFileAtomically(*schedule, model::toCsv(model::cableScheduleRows(hall)));
        out << "wrote " << *schedule << " (" << hall.cables.size() << " cables)\n";
    }
    if (netboxDirectory) {
        std::error_code error;
        std::filesystem::create_directories(*netboxDirectory, error);
        if (error)
            throw std::runtime_error(*netboxDirectory + ": " + error.message());
        const std::string site = plan.name.empty() ? "ClusterPlanner plan" : plan.name;
        for (const model::NetboxImportFile &file : model::netboxImportFiles(hall, site)) {
            const std::string target
                = (std::filesystem::path(*netboxDirectory) / file.fileName).string();
            model::writeFileAtomically(target, model::toCsv(file.rows));
        }
        out << "wrote " << *netboxDirectory << " (NetBox imports: " << hall.racks.size()
            << " racks, " << hall.devices.size() << " devices, " << hall.cables.size()
            << " cables; load the files in their numbered order)\n";
    }
}

/** The PDF report on Qt's offscreen platform: the report draws with Qt's painter. */
void writePdfReport(const model::Plan &plan, const model::ScenarioComparison &comparison,
                    const model::Catalog &catalog, const std::string &planPath,
                    const std::string &pdf, std::ostream &out)
{
    if (qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM"))
        qputenv("QT_QPA_PLATFORM", "offscreen");
    static int argc = 1;
    static char name[] = "clusterplanner-cli";
    static char *argv[] = {name, nullptr};
    QApplication app(argc, argv);
    // The catalog is the caller's; the report only reads it while this command runs.
    const std::shared_ptr<const model::Catalog> shared(&catalog, [](const model::Catalog *) {});
    const views::PlanReportInput input
        = views::preparePlanReport(plan, comparison, shared, QString::fromStdString(planPath));
    try {
        const int pages = views::writePlanReportPdf(input, QString::fromStdString(pdf));
        out << "wrote " << pdf << " (" << pages << " pages)\n";
    } catch (const views::ReportError &error) {
        throw std::runtime_error(error.what());
    }
}

} // namespace

int runExportCommand(CliContext &context, const std::vector<std::string> &args, std::ostream &out)
{
    const auto specs = withCommonOptions({
        {"pdf", true, "write the PDF report to FILE"},
        {"csv", true, "write the scenario comparison table to FILE (RFC 4180)"},
        {"bom-csv", true, "write the baseline's bill of materials to FILE (RFC 4180)"},
        {"cable-schedule", true,
         "write the baseline's cable schedule (both ends, medium, length) to FILE (RFC 4180)"},
        {"netbox", true,
         "write the baseline's racks, devices, interfaces and cables as NetBox CSV bulk "
         "imports into directory DIR (created if missing)"},
        {"slurm", true,
         "write slurm.conf node and partition lines and topology.conf for the baseline into "
         "directory DIR (created if missing)"},
        {"no-scaling", false, "skip the baseline's scaling curve"},
    });
    const ParsedArguments a = parseArguments(args, specs, "export");
    if (a.has("help")) {
        out << usageText("clusterplanner-cli export PLAN.json [--pdf FILE] [--csv FILE] "
                         "[--bom-csv FILE] [--cable-schedule FILE] [--netbox DIR] [--slurm DIR]",
                         specs);
        return ExitOk;
    }
    if (a.positional.size() != 1)
        throw UsageError("usage: export PLAN.json [--pdf FILE] [--csv FILE] [--bom-csv FILE]");
    if (!a.has("pdf") && !a.has("csv") && !a.has("bom-csv") && !a.has("cable-schedule")
        && !a.has("netbox") && !a.has("slurm"))
        throw UsageError("nothing to export: give --pdf FILE, --csv FILE, --bom-csv FILE, "
                         "--cable-schedule FILE, --netbox DIR and/or --slurm DIR");
    const std::string &path = a.positional[0];
    for (const char *option : {"pdf", "csv", "bom-csv", "cable-schedule", "netbox", "slurm"})
        if (auto output = a.value(option))
            refuseToOverwriteInputs(std::string("--") + option, *output,
                                    {path, context.databasePath});
    const model::Catalog &catalog = context.catalog();
    const model::Plan plan = model::loadPlan(path, &catalog);
    if (a.has("cable-schedule") || a.has("netbox"))
        writeDataHallFiles(plan, catalog, a.value("cable-schedule"), a.value("netbox"), out);
    if (auto directory = a.value("slurm"))
        writeSlurmConfiguration(plan, catalog, *directory, out);
    if (!a.has("pdf") && !a.has("csv") && !a.has("bom-csv"))
        return ExitOk; // the files above need no comparison
    model::ComparisonOptions options;
    if (!a.has("no-scaling"))
        options.scalingGpuCounts = model::defaultScalingGpuCounts(plan, catalog);
    const model::ScenarioComparison comparison = model::compareScenarios(plan, catalog, options);

    if (auto csv = a.value("csv")) {
        model::writeFileAtomically(*csv, model::toCsv(model::comparisonTableCells(comparison)));
        out << "wrote " << *csv << " (" << comparison.rows.size() + comparison.operations.size()
            << " rows x " << comparison.scenarios.size() << " scenarios)\n";
    }
    if (auto bom = a.value("bom-csv")) {
        const model::ScenarioResult &baseline = comparison.scenarios.front();
        if (!baseline.ok)
            throw InfeasibleError("the baseline could not be estimated: " + baseline.error);
        model::writeFileAtomically(
            *bom, model::toCsv(model::billOfMaterialsCells(baseline.estimate, baseline.name)));
        out << "wrote " << *bom << " (" << baseline.estimate.billOfMaterials.size() << " lines)\n";
    }
    if (auto pdf = a.value("pdf"))
        writePdfReport(plan, comparison, catalog, path, *pdf, out);
    return ExitOk;
}

} // namespace cp::cli
