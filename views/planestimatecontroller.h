// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "latestjobrunner.h"

#include "model/catalog/catalog.h"
#include "model/plan/plan.h"
#include "model/planning/planestimate.h"

#include <QObject>

#include <atomic>
#include <memory>

namespace cp::views {

/**
 * Runs model::estimatePlan on a worker thread (QtConcurrent on a private pool) for a snapshot of
 * the plan. A newer request cancels the older one and a stale result is dropped, so the view never
 * shows figures for a plan that has since changed.
 */
class PlanEstimateController : public QObject
{
    Q_OBJECT

public:
    explicit PlanEstimateController(QObject *parent = nullptr);
    ~PlanEstimateController() override;

    void setCatalog(std::shared_ptr<const model::Catalog> catalog);
    void requestEstimate(const model::Plan &plan);
    bool isRunning() const;
    /** Blocks until the current estimate finishes (tests and shutdown only, never the GUI). */
    void waitForIdle();

signals:
    void estimateStarted();
    void estimateReady(const cp::model::PlanEstimate &estimate);
    void estimateFailed(const QString &message);

private:
    struct Outcome
    {
        bool ok = false;
        model::PlanEstimate estimate;
        QString error;
    };

    std::shared_ptr<const model::Catalog> m_catalog;
    LatestJobRunner<Outcome> m_runner;
};

} // namespace cp::views
