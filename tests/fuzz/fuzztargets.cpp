// SPDX-License-Identifier: GPL-3.0-or-later
#include "fuzztargets.h"

#include "model/catalog/catalog.h"
#include "model/catalog/catalogdatabase.h"
#include "model/core/inputerror.h"
#include "model/core/jsonfieldreader.h"
#include "model/plan/planio.h"
#include "model/plan/scenarios.h"
#include "model/planning/planestimator.h"
#include "model/validation/inferencevalidation.h"
#include "model/validation/storagevalidation.h"
#include "model/validation/trainingvalidation.h"
#include "testsupport.h"

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <exception>

namespace cp::fuzz {

namespace {

using cp::test::shippedCatalog;

const model::Plan &samplePlan()
{
    static const model::Plan plan = cp::test::loadSamplePlan("h100-1024-ndr-rail-fat-tree.json");
    return plan;
}

std::string text(const std::uint8_t *data, std::size_t size)
{
    return {reinterpret_cast<const char *>(data), size};
}

void requireFinite(double value, const std::string &what)
{
    if (!std::isfinite(value))
        fail("accepted a figure that is not finite after conversion: " + what);
}

/**
 * Estimates that are pure arithmetic (no fabric to generate, no workload to search) are cheap
 * enough to run on every input: the counts must not wrap and the totals must be finite.
 */
void checkCheapEstimate(const model::Plan &plan)
{
    if (plan.fabric.topology != "none" || plan.workloadType != model::WorkloadType::None)
        return;
    const model::PlanEstimate estimate = model::estimatePlan(plan, shippedCatalog());
    if (estimate.gpus < 0 || estimate.nodes < 0)
        fail("negative GPU or server count");
    requireFinite(estimate.capitalCostUsd, "capital cost");
    requireFinite(estimate.gpuMemoryBytes, "GPU memory");
    requireFinite(estimate.peakDenseFlopsPerSecond, "peak FLOP/s");
}

template<class Body> void guarded(Body body)
{
    try {
        body();
    } catch (const model::InputError &) {
        // Reported to the user with file, pointer and reason: the expected way to refuse input.
    } catch (const std::exception &error) {
        fail(std::string("escaped exception: ") + error.what());
    }
}

} // namespace

void fail(const std::string &what)
{
    std::fprintf(stderr, "fuzz finding: %s\n", what.c_str());
    std::abort();
}

void planLoader(const std::uint8_t *data, std::size_t size)
{
    guarded([&] {
        const model::Plan plan = model::parsePlan(model::parseJsonText(text(data, size), "fuzz"),
                                                  "fuzz", &shippedCatalog());
        // What savePlan writes; the file itself is skipped to keep executions fast.
        const std::string saved = model::planToJson(plan).dump(2) + "\n";
        model::Plan reloaded;
        try {
            reloaded = model::parsePlan(model::parseJsonText(saved, "saved"), "saved",
                                        &shippedCatalog());
        } catch (const model::InputError &error) {
            fail(std::string("a saved plan does not load again: ") + error.what());
        }
        if (model::planToJson(reloaded).dump(2) + "\n" != saved)
            fail("save -> reload -> save changed the file");
        checkCheapEstimate(plan);
    });
}

void catalogImport(const std::uint8_t *data, std::size_t size)
{
    guarded([&] {
        const nlohmann::json document = model::parseJsonText(text(data, size), "fuzz");
        model::Catalog catalog;
        catalog.addDocument(document, "fuzz");
        catalog.validateReferences();
        for (const std::string &id : catalog.ids(model::CatalogKind::Gpu)) {
            const model::GpuSpec &gpu = catalog.gpu(id);
            requireFinite(gpu.memoryBytes, id + " memory");
            requireFinite(gpu.memoryBytesPerSecond, id + " memory bandwidth");
            requireFinite(gpu.scaleUpBytesPerSecond, id + " scale-up bandwidth");
            for (const auto &[precision, flops] : gpu.denseFlopsPerSecond)
                requireFinite(flops, id + " FLOP/s");
        }
        // The same document through the database: import, then load every row back.
        model::CatalogDatabase database(":memory:");
        database.importDocument(document, "fuzz");
        if (database.load().size() != catalog.size())
            fail("the database holds a different number of entries than the document");
    });
}

void scenarioPatch(const std::uint8_t *data, std::size_t size)
{
    guarded([&] {
        model::Plan plan = samplePlan();
        model::Scenario scenario;
        scenario.name = "fuzz";
        scenario.changes = model::parseJsonText(text(data, size), "fuzz");
        if (!scenario.changes.is_object())
            return; // parsePlan requires an object; a non-object never reaches the merge
        plan.scenarios = {scenario};
        // Through the file format, as a saved plan with this scenario would be read.
        const model::Plan loaded
            = model::parsePlan(model::planToJson(plan), "fuzz", &shippedCatalog());
        const model::Plan variant = model::scenarioPlan(loaded, 0, &shippedCatalog(), "fuzz");
        model::describeChanges(model::scenarioChanges(loaded, variant));
        checkCheapEstimate(variant);
    });
}

void validationTable(const std::uint8_t *data, std::size_t size)
{
    guarded([&] {
        const nlohmann::json table = model::parseJsonText(text(data, size), "fuzz");
        // Dispatched on the table's format, as clusterplanner-validate does.
        const auto format = [&](const char *name) {
            return table.is_object() && table.contains("format") && table["format"] == name;
        };
        if (format("clusterplanner-inference-validation")) {
            const auto rows = model::runInferenceValidation(table, shippedCatalog(), "fuzz");
            for (const model::InferenceValidationRow &row : rows)
                if (row.notEstimated.empty())
                    requireFinite(row.predicted, row.id + " predicted");
            model::inferenceValidationMarkdown(rows, "fuzz");
        } else if (format("clusterplanner-storage-validation")) {
            const auto rows = model::runStorageValidation(table, shippedCatalog(), "fuzz");
            model::storageValidationMarkdown(rows, "fuzz");
        } else {
            const auto rows = model::runTrainingValidation(table, shippedCatalog(), "fuzz");
            for (const model::TrainingValidationRow &row : rows)
                requireFinite(row.predicted, row.id + " predicted");
            model::trainingValidationMarkdown(rows, "fuzz");
        }
    });
}

} // namespace cp::fuzz
