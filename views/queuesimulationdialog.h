// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "model/plan/plan.h"
#include "model/planning/portfoliosimulation.h"

#include <QDialog>
#include <QFutureWatcher>

#include <atomic>
#include <memory>

class QDoubleSpinBox;
class QLabel;
class QProgressBar;
class QPushButton;
class QSpinBox;
class QTabWidget;
class QTableWidget;

namespace cp::model {
class Catalog;
}

namespace cp::views {

/**
 * Puts the plan's job portfolio through its scheduler for a simulated period (Plan > Simulate
 * Queue…), off the GUI thread with progress and cancel, and shows what `plan simulate` prints:
 * the summary figures, each class's waits, the services' replica-hours, and two charts, the
 * GPUs busy day by day and each class's wait percentiles.
 */
class QueueSimulationDialog : public QDialog
{
    Q_OBJECT

public:
    QueueSimulationDialog(model::Plan plan, std::shared_ptr<const model::Catalog> catalog,
                          QWidget *parent = nullptr);
    ~QueueSimulationDialog() override;

    /** Starts a simulation with the period and seed set in the dialog. */
    void simulate();
    /** Stops a running simulation; its partial result is not shown. */
    void cancel();
    bool isRunning() const { return m_watcher.isRunning(); }
    /** Blocks until the running simulation (if any) has been delivered; for tests. */
    void waitForResult();

    QDoubleSpinBox *yearsBox() const { return m_years; }
    QSpinBox *seedBox() const { return m_seed; }
    QLabel *statusLabel() const { return m_status; }
    QTableWidget *figuresTable() const { return m_figures; }
    QTableWidget *classesTable() const { return m_classes; }
    QTabWidget *tabs() const { return m_tabs; }
    const model::PortfolioSimulation *lastSimulation() const
    {
        return m_last ? m_last.get() : nullptr;
    }

private:
    void buildLayout();
    void setProgress(double fraction);
    void showResult();
    void fillFigures(const model::SimulationResult &result);
    void fillClasses(const model::SimulationResult &result);
    void fillServices(const model::SimulationResult &result);
    void fillCharts(const model::SimulationResult &result);

    model::Plan m_plan;
    std::shared_ptr<const model::Catalog> m_catalog;
    std::shared_ptr<std::atomic<bool>> m_cancel;
    QFutureWatcher<model::PortfolioSimulation> m_watcher;
    std::unique_ptr<model::PortfolioSimulation> m_last;
    QDoubleSpinBox *m_years;
    QSpinBox *m_seed;
    QPushButton *m_run;
    QPushButton *m_stop;
    QProgressBar *m_progress;
    QLabel *m_status;
    QTabWidget *m_tabs;
    QTableWidget *m_figures;
    QTableWidget *m_classes;
    QTableWidget *m_services;
};

} // namespace cp::views
