// SPDX-License-Identifier: GPL-3.0-or-later
#include "model/planning/operationcomparison.h"

#include "model/planning/scenariocomparison.h"

#include <algorithm>
#include <functional>

namespace cp::model {

namespace {

using Operations = const StepOperations *;

/**
 * The operation names of every scenario in one order: each scenario's own order kept, a name
 * first seen in a later scenario placed after the name that precedes it there. A name a step
 * repeats further on (its row adds both up) leaves the place where the next name goes alone:
 * going back to its first place put the operations after the repeat before the ones between.
 */
std::vector<std::string> mergedNames(const std::vector<Operations> &perScenario)
{
    std::vector<std::string> names;
    for (Operations operations : perScenario) {
        if (!operations)
            continue;
        std::size_t insertAt = 0;
        std::vector<std::string> seenInThisStep;
        for (const StepOperation &op : *operations) {
            const bool repeat = std::find(seenInThisStep.begin(), seenInThisStep.end(), op.name)
                != seenInThisStep.end();
            seenInThisStep.emplace_back(op.name);
            if (repeat)
                continue;
            const auto found = std::find(names.begin(), names.end(), op.name);
            if (found != names.end()) {
                insertAt = static_cast<std::size_t>(found - names.begin()) + 1;
                continue;
            }
            names.insert(names.begin() + static_cast<std::ptrdiff_t>(insertAt), op.name);
            ++insertAt;
        }
    }
    return names;
}

/** The phase's rows: its total, then each operation (a name twice in one step adds up). */
void addPhase(std::vector<OperationComparisonRow> &rows, const std::string &phase,
              const std::vector<Operations> &perScenario)
{
    if (std::none_of(perScenario.begin(), perScenario.end(),
                     [](Operations operations) { return operations != nullptr; }))
        return;
    OperationComparisonRow total {phase, "total", "ms", true, false, {}};
    for (Operations operations : perScenario) {
        if (!operations) {
            total.values.push_back(std::nullopt);
            continue;
        }
        double seconds = 0;
        for (const StepOperation &op : *operations)
            seconds += op.seconds;
        total.values.push_back(seconds * 1e3);
    }
    rows.push_back(std::move(total));
    for (const std::string &name : mergedNames(perScenario)) {
        OperationComparisonRow row {phase, name, "ms", false, false, {}};
        for (Operations operations : perScenario) {
            std::optional<double> milliseconds;
            if (operations)
                for (const StepOperation &op : *operations)
                    if (name == op.name)
                        milliseconds = milliseconds.value_or(0) + op.seconds * 1e3;
            row.values.push_back(milliseconds);
        }
        rows.push_back(std::move(row));
    }
}

/** Each scenario's `pick`, null where it failed or has no such phase. */
std::vector<Operations> phaseOf(const std::vector<ScenarioResult> &scenarios,
                                const std::function<Operations(const PlanEstimate &)> &pick)
{
    std::vector<Operations> perScenario;
    for (const ScenarioResult &s : scenarios)
        perScenario.push_back(s.ok ? pick(s.estimate) : nullptr);
    return perScenario;
}

bool servingWorks(const PlanEstimate &e)
{
    return e.hasInference && e.inference.fits;
}

/** A serving figure of each scenario, as a row of phase `phase`; a figure under the load
 * (`figure`) is empty where no fleet serves it (InferenceEstimate::hasFleet) or the load
 * overwhelms its fixed fleet (InferenceEstimate::overloaded). */
OperationComparisonRow servingRow(const std::vector<ScenarioResult> &scenarios,
                                  const std::string &phase, const std::string &label,
                                  const std::string &unit, bool figure,
                                  const std::function<double(const InferenceEstimate &)> &value)
{
    OperationComparisonRow row {phase, label, unit, false, figure, {}};
    for (const ScenarioResult &s : scenarios) {
        const InferenceEstimate &serving = s.estimate.inference;
        const bool shown = s.ok && servingWorks(s.estimate)
            && (!figure || (serving.hasFleet() && !serving.overloaded()));
        row.values.push_back(shown ? std::optional<double>(value(s.estimate.inference))
                                   : std::nullopt);
    }
    return row;
}

} // namespace

std::vector<OperationComparisonRow> compareOperations(const std::vector<ScenarioResult> &scenarios)
{
    std::vector<OperationComparisonRow> rows;
    addPhase(rows, "Training step", phaseOf(scenarios, [](const PlanEstimate &e) -> Operations {
                 return e.hasTraining && e.training.found ? &e.training.best.operations : nullptr;
             }));
    const auto at = [&rows](std::size_t index) {
        return rows.begin() + static_cast<std::ptrdiff_t>(index);
    };
    const std::string prefill = "Prefill of one prompt";
    const std::size_t prefillStart = rows.size();
    addPhase(rows, prefill, phaseOf(scenarios, [](const PlanEstimate &e) -> Operations {
                 return servingWorks(e) ? &e.inference.prefillOperations : nullptr;
             }));
    if (rows.size() > prefillStart) // after the prefill's total, the TTFT it leads to
        rows.insert(at(prefillStart + 1),
                    servingRow(scenarios, prefill, "TTFT p95 under load", "ms", true,
                               [](const InferenceEstimate &e) { return e.ttftSeconds * 1e3; }));
    const std::string decode = "Decode step";
    const std::size_t decodeStart = rows.size();
    addPhase(rows, decode, phaseOf(scenarios, [](const PlanEstimate &e) -> Operations {
                 return servingWorks(e) ? &e.inference.decodeOperations : nullptr;
             }));
    if (rows.size() > decodeStart) {
        // After the total, the time per token it leads to once the prompts prefilled between
        // steps are counted; before it, what a step carries (the micro-batch on each stage).
        rows.insert(at(decodeStart + 1),
                    servingRow(scenarios, decode, "time per output token under load", "ms", true,
                               [](const InferenceEstimate &e) { return e.tpotSeconds * 1e3; }));
        rows.insert(at(decodeStart),
                    servingRow(scenarios, decode, "sequences in the step", "sequences", false,
                               [](const InferenceEstimate &e) {
                                   return static_cast<double>(e.batch
                                                              / std::max(1, e.pipelineStages));
                               }));
    }
    return rows;
}

} // namespace cp::model
