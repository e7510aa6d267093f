// SPDX-License-Identifier: GPL-3.0-or-later
#include "comparisoncontroller.h"

namespace cp::views {

ComparisonController::ComparisonController(QObject *parent)
    : QObject(parent)
    , m_runner(this, [this](const Outcome &outcome) {
        if (outcome.ok)
            emit comparisonReady(outcome.comparison);
        else if (!outcome.error.isEmpty())
            emit comparisonFailed(outcome.error);
    })
{ }

ComparisonController::~ComparisonController() = default;

void ComparisonController::setCatalog(std::shared_ptr<const model::Catalog> catalog)
{
    m_catalog = std::move(catalog);
}

bool ComparisonController::isRunning() const
{
    return m_runner.isRunning();
}

void ComparisonController::waitForIdle()
{
    m_runner.waitForIdle();
}

void ComparisonController::cancel()
{
    m_runner.cancel();
    emit comparisonCancelled();
}

void ComparisonController::requestComparison(const model::Plan &plan)
{
    emit comparisonStarted();
    const std::shared_ptr<const model::Catalog> catalog = m_catalog;
    // Progress is queued to the GUI thread and dropped there once a newer request exists. The
    // runner's destructor waits for the worker, so `self` outlives every progress callback.
    ComparisonController *self = this;
    m_runner.request([plan, catalog, self,
                      generation = m_runner.generation() + 1](const std::atomic<bool> *cancel) {
        Outcome outcome;
        if (!catalog) {
            outcome.error = QObject::tr("no catalog loaded");
            return outcome;
        }
        try {
            model::ComparisonOptions options;
            options.scalingGpuCounts = model::defaultScalingGpuCounts(plan, *catalog);
            outcome.comparison = model::compareScenarios(
                plan, *catalog, options, cancel, [self, generation](int done, int total) {
                    QMetaObject::invokeMethod(
                        self,
                        [self, generation, done, total] {
                            if (self->m_runner.generation() == generation)
                                emit self->progressChanged(done, total);
                        },
                        Qt::QueuedConnection);
                });
            outcome.ok = !outcome.comparison.cancelled;
        } catch (const std::exception &error) {
            outcome.error = QString::fromStdString(error.what());
        }
        return outcome;
    });
}

} // namespace cp::views
