// SPDX-License-Identifier: GPL-3.0-or-later
#include "plandocument.h"

#include "planeditcommand.h"

#include "model/plan/scenarios.h"

#include "model/plan/planio.h"

#include <algorithm>

namespace cp::views {

PlanDocument::PlanDocument(QObject *parent)
    : QObject(parent)
{
    connect(&m_undoStack, &QUndoStack::cleanChanged, this, &PlanDocument::fileChanged);
}

void PlanDocument::reset(const model::Plan &plan, const QString &filePath)
{
    m_undoStack.clear();
    m_plan = plan;
    m_activeScenario = -1;
    rebuildEffective();
    m_filePath = filePath;
    m_undoStack.setClean();
    emit activeScenarioChanged(m_activeScenario);
    emit planChanged(allPlanParts);
    emit fileChanged();
}

void PlanDocument::setActiveScenario(int index)
{
    if (index < -1 || index >= static_cast<int>(m_plan.scenarios.size()))
        index = -1;
    if (index == m_activeScenario)
        return;
    m_activeScenario = index;
    const model::Plan shown = m_effective;
    rebuildEffective();
    emit activeScenarioChanged(m_activeScenario);
    emit planChanged(changedPlanParts(shown, m_effective) | PlanPart::ActiveScenario);
}

void PlanDocument::edit(const model::Plan &changed, const QString &text, int mergeKey)
{
    model::Plan document = m_plan;
    if (m_activeScenario < 0) {
        document = changed;
        document.scenarios = m_plan.scenarios;
    } else {
        model::Scenario &scenario = document.scenarios[static_cast<std::size_t>(m_activeScenario)];
        const model::Plan baseline = model::scenarioPlan(m_plan, -1, nullptr);
        scenario.changes = model::scenarioChanges(baseline, changed);
        if (changed.name != scenario.name
            && model::scenarioNameProblem(m_plan, changed.name, m_activeScenario).empty())
            scenario.name = changed.name;
        document.layout = changed.layout;
    }
    m_undoStack.push(new PlanEditCommand(this, m_plan, document, text, mergeKey));
}

void PlanDocument::editDocument(const model::Plan &changed, const QString &text)
{
    m_undoStack.push(new PlanEditCommand(this, m_plan, changed, text, -1));
}

void PlanDocument::rebuildEffective()
{
    if (m_activeScenario >= static_cast<int>(m_plan.scenarios.size()))
        m_activeScenario = -1;
    try {
        m_effective = model::scenarioPlan(m_plan, m_activeScenario, nullptr);
    } catch (const std::exception &) {
        // A patch that no longer applies (hand-edited file): show the baseline rather than
        // nothing; the comparison reports the scenario's error.
        m_activeScenario = -1;
        m_effective = model::scenarioPlan(m_plan, -1, nullptr);
    }
}

void PlanDocument::save(const QString &path)
{
    model::savePlan(m_plan, path.toStdString());
    m_filePath = path;
    m_undoStack.setClean();
    emit fileChanged();
}

void PlanDocument::setPlan(const model::Plan &plan)
{
    const int active = m_activeScenario;
    const model::Plan shown = m_effective;
    PlanParts parts;
    const auto sameScenarios = [](const model::Plan &a, const model::Plan &b) {
        return std::equal(a.scenarios.begin(), a.scenarios.end(), b.scenarios.begin(),
                          b.scenarios.end(),
                          [](const model::Scenario &x, const model::Scenario &y) {
                              return x.name == y.name && x.changes == y.changes;
                          });
    };
    if (!sameScenarios(m_plan, plan))
        parts |= PlanPart::Scenarios;
    m_plan = plan;
    rebuildEffective();
    parts |= changedPlanParts(shown, m_effective);
    if (active != m_activeScenario) {
        parts |= PlanPart::ActiveScenario;
        emit activeScenarioChanged(m_activeScenario);
    }
    emit planChanged(parts);
}

} // namespace cp::views
