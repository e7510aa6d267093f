// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "model/catalog.h"
#include "model/plan.h"

#include <QMainWindow>

#include <memory>

namespace cp::views {
class EstimateSummaryView;
class PlanEstimateController;
} // namespace cp::views

namespace cp::app {

/** The main window: opens a plan and shows its live estimate (canvas and editors come next). */
class MainWindow : public QMainWindow
{
    Q_OBJECT

public:
    explicit MainWindow(std::shared_ptr<const model::Catalog> catalog, QWidget *parent = nullptr);

    /** Loads a plan file; on error shows a message naming the file and field, keeps the old plan.
     */
    bool openPlan(const QString &path);
    views::EstimateSummaryView *summaryView() const { return m_summary; }
    views::PlanEstimateController *controller() const { return m_controller; }
    const model::Plan &plan() const { return m_plan; }

private:
    void createMenus();
    void openPlanDialog();

    std::shared_ptr<const model::Catalog> m_catalog;
    model::Plan m_plan;
    QString m_planPath;
    views::EstimateSummaryView *m_summary = nullptr;
    views::PlanEstimateController *m_controller = nullptr;
};

} // namespace cp::app
