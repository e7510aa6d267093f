// SPDX-License-Identifier: GPL-3.0-or-later
#include "comparisoncontroller.h"

#include <QtConcurrent>

namespace cp::views {

ComparisonController::ComparisonController(QObject *parent)
    : QObject(parent)
{
    m_pool.setMaxThreadCount(1);
    connect(&m_watcher, &QFutureWatcher<Outcome>::finished, this,
            &ComparisonController::onFinished);
}

ComparisonController::~ComparisonController()
{
    if (m_cancel)
        m_cancel->store(true);
    m_watcher.waitForFinished();
}

void ComparisonController::setCatalog(std::shared_ptr<const model::Catalog> catalog)
{
    m_catalog = std::move(catalog);
}

bool ComparisonController::isRunning() const
{
    return m_watcher.isRunning() || m_queued;
}

void ComparisonController::waitForIdle()
{
    while (isRunning()) {
        m_watcher.waitForFinished();
        QCoreApplication::processEvents();
    }
}

void ComparisonController::cancel()
{
    m_queued.reset();
    ++m_generation;
    if (m_cancel)
        m_cancel->store(true);
    emit comparisonCancelled();
}

void ComparisonController::requestComparison(const model::Plan &plan)
{
    ++m_generation;
    emit comparisonStarted();
    if (m_watcher.isRunning()) {
        if (m_cancel)
            m_cancel->store(true);
        m_queued = std::make_unique<model::Plan>(plan);
        return;
    }
    auto cancel = std::make_shared<std::atomic<bool>>(false);
    m_cancel = cancel;
    const quint64 generation = m_generation;
    const std::shared_ptr<const model::Catalog> catalog = m_catalog;
    // The destructor waits for the worker, so `self` outlives every progress callback; queued
    // calls to a deleted controller are discarded by Qt.
    ComparisonController *self = this;
    m_watcher.setFuture(QtConcurrent::run(&m_pool, [plan, catalog, cancel, generation, self]() {
        Outcome outcome;
        outcome.generation = generation;
        if (!catalog) {
            outcome.error = QObject::tr("no catalog loaded");
            return outcome;
        }
        try {
            model::ComparisonOptions options;
            options.scalingGpuCounts = model::defaultScalingGpuCounts(plan, *catalog);
            outcome.comparison = model::compareScenarios(
                plan, *catalog, options, cancel.get(), [self, generation](int done, int total) {
                    // Queued to the GUI thread; dropped there if a newer run has started.
                    QMetaObject::invokeMethod(
                        self,
                        [self, generation, done, total] {
                            if (self->m_generation == generation)
                                emit self->progressChanged(done, total);
                        },
                        Qt::QueuedConnection);
                });
            outcome.ok = !outcome.comparison.cancelled;
        } catch (const std::exception &error) {
            outcome.error = QString::fromStdString(error.what());
        }
        return outcome;
    }));
}

void ComparisonController::onFinished()
{
    const Outcome outcome = m_watcher.result();
    if (m_queued) {
        std::unique_ptr<model::Plan> next = std::move(m_queued);
        --m_generation;
        requestComparison(*next);
        return;
    }
    if (outcome.generation != m_generation)
        return;
    if (outcome.ok)
        emit comparisonReady(outcome.comparison);
    else if (!outcome.error.isEmpty())
        emit comparisonFailed(outcome.error);
}

} // namespace cp::views
