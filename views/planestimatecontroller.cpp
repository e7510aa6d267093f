// SPDX-License-Identifier: GPL-3.0-or-later
#include "planestimatecontroller.h"

#include "model/planestimator.h"

#include <QtConcurrent>

namespace cp::views {

PlanEstimateController::PlanEstimateController(QObject *parent)
    : QObject(parent)
{
    m_pool.setMaxThreadCount(1);
    connect(&m_watcher, &QFutureWatcher<Outcome>::finished, this,
            &PlanEstimateController::onFinished);
}

PlanEstimateController::~PlanEstimateController()
{
    if (m_cancel)
        m_cancel->store(true);
    m_watcher.waitForFinished();
}

void PlanEstimateController::setCatalog(std::shared_ptr<const model::Catalog> catalog)
{
    m_catalog = std::move(catalog);
}

bool PlanEstimateController::isRunning() const
{
    return m_watcher.isRunning() || m_queued;
}

void PlanEstimateController::waitForIdle()
{
    while (isRunning()) {
        m_watcher.waitForFinished();
        QCoreApplication::processEvents();
    }
}

void PlanEstimateController::requestEstimate(const model::Plan &plan)
{
    ++m_generation;
    emit estimateStarted();
    if (m_watcher.isRunning()) {
        // One run at a time: cancel the running one and queue the newest snapshot.
        if (m_cancel)
            m_cancel->store(true);
        m_queued = std::make_unique<model::Plan>(plan);
        return;
    }
    auto cancel = std::make_shared<std::atomic<bool>>(false);
    m_cancel = cancel;
    const quint64 generation = m_generation;
    const std::shared_ptr<const model::Catalog> catalog = m_catalog;
    m_watcher.setFuture(QtConcurrent::run(&m_pool, [plan, catalog, cancel, generation]() {
        Outcome outcome;
        outcome.generation = generation;
        if (!catalog) {
            outcome.error = QObject::tr("no catalog loaded");
            return outcome;
        }
        try {
            outcome.estimate = model::estimatePlan(plan, *catalog, cancel.get());
            outcome.ok = true;
        } catch (const std::exception &error) {
            outcome.error = QString::fromStdString(error.what());
        }
        return outcome;
    }));
}

void PlanEstimateController::onFinished()
{
    const Outcome outcome = m_watcher.result();
    if (m_queued) {
        std::unique_ptr<model::Plan> next = std::move(m_queued);
        --m_generation; // requestEstimate bumps it again
        requestEstimate(*next);
        return;
    }
    if (outcome.generation != m_generation)
        return; // stale
    if (outcome.ok)
        emit estimateReady(outcome.estimate);
    else
        emit estimateFailed(outcome.error);
}

} // namespace cp::views
