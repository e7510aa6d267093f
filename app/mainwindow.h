// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "model/catalog/catalog.h"
#include "model/plan/plan.h"
#include "model/planning/scenariocomparison.h"

#include <functional>

#include <QFutureWatcher>
#include <QMainWindow>
#include <QPointer>
#include <QTimer>

#include <memory>

class QDockWidget;
class QMenu;
class QProgressBar;
class QToolBar;

namespace cp::views {
class CatalogPalette;
class ComparisonController;
class EstimateSummaryView;
class FabricView;
class PlanCanvasView;
class PlanDocument;
class PlanEstimateController;
class PlanScene;
class PropertyEditor;
class ScenarioComparisonView;
class ScenarioPanel;
class UserGuideDialog;
class QueueSimulationDialog;
} // namespace cp::views

namespace cp::app {

/**
 * The main window: catalog palette (left), canvas (centre), property editor (right), live
 * estimate (bottom). The plan lives in a PlanDocument; every edit is an undo command; the
 * estimate re-runs off the GUI thread after each edit; the plan is autosaved and recovered after
 * a crash.
 */
class MainWindow : public QMainWindow
{
    Q_OBJECT

public:
    explicit MainWindow(std::shared_ptr<const model::Catalog> catalog, QWidget *parent = nullptr);
    ~MainWindow() override;

    /** Loads a plan file; on error shows a message naming the file and field, keeps the old plan.
     */
    bool openPlan(const QString &path);
    bool savePlan(const QString &path);
    void newPlan();
    /** Asks to restore an autosave left by a session that did not exit cleanly. */
    void offerRecovery();
    /** The autosave file of this user (in the data directory). */
    static QString autosavePath();
    void autosaveNow();
    /** Starts the pending estimate now and waits for it (tests and --screenshot only). */
    void finishEstimate();

    views::EstimateSummaryView *summaryView() const { return m_summary; }
    views::PlanEstimateController *controller() const { return m_controller; }
    views::PlanDocument *document() const { return m_document; }
    views::PlanScene *scene() const { return m_scene; }
    views::PlanCanvasView *canvas() const { return m_canvas; }
    views::CatalogPalette *palette() const { return m_palette; }
    views::PropertyEditor *propertyEditor() const { return m_properties; }
    views::ScenarioPanel *scenarioPanel() const { return m_scenarios; }
    views::ScenarioComparisonView *comparisonView() const { return m_comparisonView; }
    views::ComparisonController *comparisonController() const { return m_comparison; }

    /**
     * Exports once the comparison is current (computing it in the background first if needed);
     * the PDF is written on a worker thread. Results and errors go to the status bar and to
     * exportFinished.
     */
    void exportPdf(const QString &path);
    void exportComparisonCsv(const QString &path);
    void exportBillOfMaterialsCsv(const QString &path);
    /** Waits for a running export and comparison (tests and --screenshot only). */
    void finishBackgroundWork();
    /** Starts a comparison of every scenario now. */
    void compareNow();
    /** Help > User Guide: docs/user-guide.md in a window of its own. */
    void showUserGuide();
    views::UserGuideDialog *userGuide() const { return m_userGuide; }
    /**
     * Scenarios > Simulate Queue: the active scenario's job portfolio through its scheduler for
     * a year, in a window of its own (a fresh one for each call, so two scenarios can be seen
     * side by side); it starts at once.
     */
    void simulateQueue();
    /** The newest queue simulation window, while it is open. */
    views::QueueSimulationDialog *queueSimulation() const;
    const model::Plan &plan() const;

signals:
    void exportFinished(bool ok, const QString &message);

protected:
    void closeEvent(QCloseEvent *event) override;
    void showEvent(QShowEvent *event) override;

private:
    /** Exports waiting for a comparison that failed or was cancelled: each reports `why`. */
    void abandonWaitingExports(const QString &why);
    /** "Export failed, nothing was written: <why>". */
    static QString nothingWritten(const std::exception &error);
    /** Shows `message` in the status bar and emits exportFinished(false, message). */
    void reportExportFailure(const QString &message);
    /** The PDF export is over (written, failed or abandoned): no longer pending, no progress. */
    void endPdfExport();
    /** Writes `cells` as RFC 4180 CSV atomically and reports the outcome (exportFinished). */
    void writeCsvExport(const QString &path, const std::vector<std::vector<std::string>> &cells);
    views::FabricView *createCentralTabs();
    void createDocks();
    void connectComparison();
    void connectExport();
    void connectSelection(views::FabricView *fabricView);
    void connectEstimate();
    void connectDocument();
    void createActions();
    void createFileMenu(QToolBar *tools);
    void createEditMenu(QToolBar *tools);
    void createViewAndFabricMenus(QToolBar *tools);
    void createScenarioMenu(QToolBar *tools);
    void createHelpMenu();
    void addSampleActions(QMenu *samples);
    QAction *addExportActions(QMenu *exportMenu);
    void addUndoButtons(QToolBar *tools, QAction *remove);
    void openPlanDialog();
    bool saveAs();
    bool save();
    bool maybeSave();
    void generateFabric();
    void updateTitle();
    void addRecentFile(const QString &path);
    void rebuildRecentMenu();
    void whenComparisonCurrent(std::function<void(const model::ScenarioComparison &)> then);
    QString exportPath(const QString &title, const QString &filter, const QString &suffix);

    std::shared_ptr<const model::Catalog> m_catalog;
    views::PlanDocument *m_document;
    views::PlanScene *m_scene;
    views::PlanCanvasView *m_canvas;
    views::CatalogPalette *m_palette;
    views::PropertyEditor *m_properties;
    views::EstimateSummaryView *m_summary;
    views::PlanEstimateController *m_controller;
    QMenu *m_recentMenu = nullptr;
    views::ScenarioPanel *m_scenarios;
    views::ScenarioComparisonView *m_comparisonView;
    views::ComparisonController *m_comparison;
    QDockWidget *m_paletteDock = nullptr;
    QDockWidget *m_summaryDock = nullptr;
    QDockWidget *m_propertiesDock = nullptr;
    QDockWidget *m_scenariosDock = nullptr;
    bool m_firstRunLayout = false; ///< no saved window state: size the docks on first show
    QDockWidget *m_comparisonDock = nullptr;
    bool m_comparisonCurrent = false;
    /** The baseline's simulated queue from the last comparison (empty: none or not yet). */
    QString m_queueText;
    /** Shows the plan's queue in the Estimate panel, starting the comparison that simulates it
     * when it is not current; true while it is still being simulated. */
    bool showPlanQueue();
    std::vector<std::function<void(const model::ScenarioComparison &)>> m_waitingForComparison;
    QFutureWatcher<QString> m_exportWatcher;
    views::UserGuideDialog *m_userGuide = nullptr;
    QPointer<views::QueueSimulationDialog> m_queueSimulation;
    QAction *m_exportPdfAction = nullptr; ///< File > Export > PDF, also on the toolbar
    /** A PDF export from the moment it is asked for until its exportFinished is emitted (it may
     * first wait for the comparison, then for the writer thread). */
    bool m_pdfExportPending = false;
    QProgressBar *m_exportProgress = nullptr;
    QTimer m_comparisonTimer;
    QTimer m_estimateTimer;
    QTimer m_autosaveTimer;
};

} // namespace cp::app
