// SPDX-License-Identifier: GPL-3.0-or-later
#include "planestimatecontroller.h"

#include "model/planning/planestimator.h"

namespace cp::views {

PlanEstimateController::PlanEstimateController(QObject *parent)
    : QObject(parent)
    , m_runner(this, [this](const Outcome &outcome) {
        if (outcome.ok)
            emit estimateReady(outcome.estimate);
        else
            emit estimateFailed(outcome.error);
    })
{ }

PlanEstimateController::~PlanEstimateController() = default;

void PlanEstimateController::setCatalog(std::shared_ptr<const model::Catalog> catalog)
{
    m_catalog = std::move(catalog);
}

bool PlanEstimateController::isRunning() const
{
    return m_runner.isRunning();
}

void PlanEstimateController::waitForIdle()
{
    m_runner.waitForIdle();
}

void PlanEstimateController::requestEstimate(const model::Plan &plan)
{
    emit estimateStarted();
    const std::shared_ptr<const model::Catalog> catalog = m_catalog;
    m_runner.request([plan, catalog](const std::atomic<bool> *cancel) {
        Outcome outcome;
        if (!catalog) {
            outcome.error = QObject::tr("no catalog loaded");
            return outcome;
        }
        try {
            outcome.estimate = model::estimatePlan(plan, *catalog, cancel);
            outcome.ok = true;
        } catch (const std::exception &error) {
            outcome.error = QString::fromStdString(error.what());
        }
        return outcome;
    });
}

} // namespace cp::views
