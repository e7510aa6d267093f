// SPDX-License-Identifier: GPL-3.0-or-later
// The one command that links the views library: a PDF report draws the canvas and the charts
// with Qt's painter, so it needs a QApplication. It runs on Qt's offscreen platform, so no
// display is needed; every figure still comes from the model.
#include "commands.h"

#include "planreport.h"

#include "model/core/atomicfile.h"
#include "model/core/csvtable.h"
#include "model/plan/planio.h"
#include "model/planning/scenariocomparison.h"

#include <QApplication>

#include <ostream>

namespace cp::cli {

int runExportCommand(CliContext &context, const std::vector<std::string> &args, std::ostream &out)
{
    const auto specs = withCommonOptions({
        {"pdf", true, "write the PDF report to FILE"},
        {"csv", true, "write the scenario comparison table to FILE (RFC 4180)"},
        {"bom-csv", true, "write the baseline's bill of materials to FILE (RFC 4180)"},
        {"no-scaling", false, "skip the baseline's scaling curve"},
    });
    const ParsedArguments a = parseArguments(args, specs, "export");
    if (a.has("help")) {
        out << usageText("clusterplanner-cli export PLAN.json [--pdf FILE] [--csv FILE] "
                         "[--bom-csv FILE]",
                         specs);
        return ExitOk;
    }
    if (a.positional.size() != 1)
        throw UsageError("usage: export PLAN.json [--pdf FILE] [--csv FILE] [--bom-csv FILE]");
    if (!a.has("pdf") && !a.has("csv") && !a.has("bom-csv"))
        throw UsageError("nothing to export: give --pdf FILE, --csv FILE and/or --bom-csv FILE");
    const std::string &path = a.positional[0];
    const model::Catalog &catalog = context.catalog();
    const model::Plan plan = model::loadPlan(path, &catalog);
    model::ComparisonOptions options;
    if (!a.has("no-scaling"))
        options.scalingGpuCounts = model::defaultScalingGpuCounts(plan, catalog);
    const model::ScenarioComparison comparison = model::compareScenarios(plan, catalog, options);

    if (auto csv = a.value("csv")) {
        model::writeFileAtomically(*csv, model::toCsv(model::comparisonTableCells(comparison)));
        out << "wrote " << *csv << " (" << comparison.rows.size() << " figures x "
            << comparison.scenarios.size() << " scenarios)\n";
    }
    if (auto bom = a.value("bom-csv")) {
        const model::ScenarioResult &baseline = comparison.scenarios.front();
        if (!baseline.ok)
            throw InfeasibleError("the baseline could not be estimated: " + baseline.error);
        model::writeFileAtomically(
            *bom, model::toCsv(model::billOfMaterialsCells(baseline.estimate, baseline.name)));
        out << "wrote " << *bom << " (" << baseline.estimate.billOfMaterials.size() << " lines)\n";
    }
    if (auto pdf = a.value("pdf")) {
        if (qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM"))
            qputenv("QT_QPA_PLATFORM", "offscreen");
        static int argc = 1;
        static char name[] = "clusterplanner-cli";
        static char *argv[] = {name, nullptr};
        QApplication app(argc, argv);
        // The catalog is the context's; the report only reads it while this command runs.
        const std::shared_ptr<const model::Catalog> shared(&catalog, [](const model::Catalog *) {});
        const views::PlanReportInput input
            = views::preparePlanReport(plan, comparison, shared, QString::fromStdString(path));
        try {
            const int pages = views::writePlanReportPdf(input, QString::fromStdString(*pdf));
            out << "wrote " << *pdf << " (" << pages << " pages)\n";
        } catch (const views::ReportError &error) {
            throw std::runtime_error(error.what());
        }
    }
    return ExitOk;
}

} // namespace cp::cli
