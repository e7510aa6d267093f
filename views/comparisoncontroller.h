// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "latestjobrunner.h"

#include "model/catalog/catalog.h"
#include "model/plan/plan.h"
#include "model/planning/scenariocomparison.h"

#include <QObject>

#include <atomic>
#include <memory>

namespace cp::views {

/**
 * Runs model::compareScenarios for a snapshot of the whole document (baseline and scenarios) on
 * a worker thread, reporting progress. A newer request or cancel() stops the running one
 * between or inside estimates; a stale or cancelled result is never emitted as ready.
 */
class ComparisonController : public QObject
{
    Q_OBJECT

public:
    explicit ComparisonController(QObject *parent = nullptr);
    ~ComparisonController() override;

    void setCatalog(std::shared_ptr<const model::Catalog> catalog);
    void requestComparison(const model::Plan &documentPlan);
    void cancel();
    bool isRunning() const;
    /** Blocks until the current comparison finishes (tests, export and shutdown only). */
    void waitForIdle();

signals:
    void comparisonStarted();
    void progressChanged(int done, int total);
    void comparisonReady(const cp::model::ScenarioComparison &comparison);
    void comparisonFailed(const QString &message);
    void comparisonCancelled();

private:
    struct Outcome
    {
        bool ok = false;
        model::ScenarioComparison comparison;
        QString error;
    };

    std::shared_ptr<const model::Catalog> m_catalog;
    LatestJobRunner<Outcome> m_runner;
};

} // namespace cp::views
