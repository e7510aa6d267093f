// SPDX-License-Identifier: GPL-3.0-or-later
#include "mainwindow.h"

#include "cardkeys.h"
#include "catalogpalette.h"
#include "comparisoncontroller.h"
#include "datahallview.h"
#include "estimatesummaryview.h"
#include "fabricgeneratordialog.h"
#include "fabricview.h"
#include "plancanvasview.h"
#include "plandocument.h"
#include "planestimatecontroller.h"
#include "planreport.h"
#include "planscene.h"
#include "propertyeditor.h"
#include "queuesimulationdialog.h"
#include "scenariocomparisonview.h"
#include "scenariopanel.h"
#include "userguidedialog.h"

#include "model/core/atomicfile.h"
#include "model/core/csvtable.h"

#include "model/catalog/catalogpaths.h"
#include "model/plan/planio.h"
#include "model/planning/simulationsummary.h"

#include <QApplication>
#include <QCloseEvent>
#include <QDir>
#include <QDockWidget>
#include <QFileDialog>
#include <QFileInfo>
#include <QMenuBar>
#include <QMessageBox>
#include <QProgressBar>
#include <QScrollArea>
#include <QSettings>
#include <QStatusBar>
#include <QTabWidget>
#include <QToolBar>
#include <QUndoStack>
#include <QtConcurrent>

namespace cp::app {

namespace {
constexpr int maxRecentFiles = 8;

model::Plan emptyPlan()
{
    model::Plan plan;
    plan.name = "Untitled plan";
    plan.fabric.topology = "rail-fat-tree";
    plan.facility.facilityId = "dc-industry-average";
    return plan;
}
} // namespace

MainWindow::MainWindow(std::shared_ptr<const model::Catalog> catalog, QWidget *parent)
    : QMainWindow(parent)
    , m_catalog(std::move(catalog))
    , m_document(new views::PlanDocument(this))
    , m_scene(new views::PlanScene(m_document, this))
    , m_canvas(new views::PlanCanvasView(this))
    , m_palette(new views::CatalogPalette(this))
    , m_properties(new views::PropertyEditor(m_document, this))
    , m_summary(new views::EstimateSummaryView(this))
    , m_controller(new views::PlanEstimateController(this))
    , m_scenarios(new views::ScenarioPanel(m_document, this))
    , m_comparisonView(new views::ScenarioComparisonView(this))
    , m_comparison(new views::ComparisonController(this))
{
    setObjectName(QStringLiteral("MainWindow"));
    m_canvas->setScene(m_scene);
    views::FabricView *fabricView = createCentralTabs();
    createDocks();
    connectComparison();
    connectExport();
    connectSelection(fabricView);
    connectEstimate();
    connectDocument();
    createActions();
    resize(1400, 900);
    // First-run proportions: names and details readable in the palette, the property forms
    // without clipped fields, and room for the canvas; restoreState below overrides them.
    resizeDocks({m_paletteDock, m_propertiesDock}, {360, 330}, Qt::Horizontal);
    resizeDocks({m_summaryDock}, {300}, Qt::Vertical);
    QSettings settings;
    restoreGeometry(settings.value(QStringLiteral("window/geometry")).toByteArray());
    m_firstRunLayout = !restoreState(settings.value(QStringLiteral("window/state")).toByteArray());
    m_document->reset(emptyPlan(), QString());
}

/** The canvas, the Fabric view and the Data Hall view: three tabs on one document. */
views::FabricView *MainWindow::createCentralTabs()
{
    // The Fabric view draws the same document's generated fabric, beside the canvas.
    auto *tabs = new QTabWidget(this);
    tabs->setObjectName(QStringLiteral("centralTabs"));
    tabs->setDocumentMode(true);
    tabs->addTab(m_canvas, tr("Canvas"));
    auto *fabricView = new views::FabricView(m_document, tabs);
    tabs->addTab(fabricView, tr("Fabric"));
    auto *dataHallView = new views::DataHallView(m_document, tabs);
    tabs->addTab(dataHallView, tr("Data Hall"));
    dataHallView->setCatalog(m_catalog);
    setCentralWidget(tabs);
    fabricView->setCatalog(m_catalog);
    m_scene->setCatalog(m_catalog);
    m_palette->setCatalog(m_catalog);
    m_properties->setCatalog(m_catalog);
    m_controller->setCatalog(m_catalog);
    m_scenarios->setCatalog(m_catalog);
    m_comparison->setCatalog(m_catalog);
    return fabricView;
}

/** Catalog, properties, scenarios, estimate and comparison as docks around the tabs. */
void MainWindow::createDocks()
{
    const auto dock = [this](QWidget *widget, const QString &title, Qt::DockWidgetArea area) {
        auto *d = new QDockWidget(title, this);
        d->setObjectName(title);
        d->setWidget(widget);
        addDockWidget(area, d);
        return d;
    };
    m_paletteDock = dock(m_palette, tr("Catalog"), Qt::LeftDockWidgetArea);
    // The forms (a training workload has two dozen fields) scroll rather than clip on a
    // 768-pixel screen.
    auto *propertiesScroll = new QScrollArea;
    propertiesScroll->setWidget(m_properties);
    propertiesScroll->setWidgetResizable(true);
    propertiesScroll->setFrameShape(QFrame::NoFrame);
    propertiesScroll->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    m_propertiesDock = dock(propertiesScroll, tr("Properties"), Qt::RightDockWidgetArea);
    m_summaryDock = dock(m_summary, tr("Estimate"), Qt::BottomDockWidgetArea);
    m_scenariosDock = dock(m_scenarios, tr("Scenarios"), Qt::RightDockWidgetArea);
    m_comparisonDock = dock(m_comparisonView, tr("Comparison"), Qt::BottomDockWidgetArea);
    tabifyDockWidget(m_summaryDock, m_comparisonDock);
    m_summaryDock->raise();
    splitDockWidget(m_propertiesDock, m_scenariosDock, Qt::Vertical);
}

void MainWindow::connectComparison()
{
    // The comparison re-runs in the background after edits (a little later than the single
    // estimate: it estimates every scenario and the scaling curve), and only while it is shown.
    m_comparisonTimer.setSingleShot(true);
    m_comparisonTimer.setInterval(400);
    connect(&m_comparisonTimer, &QTimer::timeout, this, &MainWindow::compareNow);
    connect(m_comparisonDock, &QDockWidget::visibilityChanged, this, [this](bool visible) {
        if (visible && !m_comparisonCurrent && !m_comparison->isRunning())
            m_comparisonTimer.start();
    });
    connect(m_comparison, &views::ComparisonController::comparisonStarted, this,
            [this] { m_comparisonView->showPending(0, 1); });
    connect(m_comparison, &views::ComparisonController::progressChanged, m_comparisonView,
            &views::ScenarioComparisonView::showPending);
    connect(m_comparison, &views::ComparisonController::comparisonReady, this,
            [this](const model::ScenarioComparison &comparison) {
                m_comparisonCurrent = true;
                m_comparisonView->showComparison(comparison);
                const auto &queue = comparison.scenarios.empty()
                    ? std::optional<model::PortfolioSimulation> {}
                    : comparison.scenarios.front().queue;
                m_queueText = queue && queue->ok()
                    ? QString::fromStdString(model::portfolioSummaryText(*queue))
                    : QString();
                showPlanQueue();
                if (statusBar()->currentMessage().contains(QStringLiteral("simulating the queue")))
                    statusBar()->showMessage(tr("Estimate and queue up to date"), 5000);
                auto waiting = std::move(m_waitingForComparison);
                m_waitingForComparison.clear();
                for (const auto &then : waiting)
                    then(comparison);
            });
    connect(m_comparison, &views::ComparisonController::comparisonFailed, this,
            [this](const QString &message) {
                m_comparisonView->showError(message);
                statusBar()->showMessage(tr("Cannot compare scenarios: %1").arg(message), 8000);
                abandonWaitingExports(tr("Export failed, the comparison failed: %1").arg(message));
            });
    connect(m_comparison, &views::ComparisonController::comparisonCancelled, this, [this] {
        m_comparisonView->showCancelled();
        if (!m_waitingForComparison.empty())
            statusBar()->showMessage(tr("Export cancelled with the comparison"), 8000);
        abandonWaitingExports(tr("Export cancelled with the comparison"));
    });
    connect(m_comparisonView, &views::ScenarioComparisonView::cancelRequested, m_comparison,
            &views::ComparisonController::cancel);
    connect(m_comparisonView, &views::ScenarioComparisonView::scenarioActivated, m_document,
            &views::PlanDocument::setActiveScenario);
    connect(m_document, &views::PlanDocument::activeScenarioChanged, this,
            [this](int index) { m_comparisonView->setHighlight(index + 1); });
}

/** The PDF export's worker and its progress in the status bar. */
void MainWindow::connectExport()
{
    connect(&m_exportWatcher, &QFutureWatcher<QString>::finished, this, [this] {
        const QString message = m_exportWatcher.result();
        const bool ok = !message.startsWith(QLatin1Char('!'));
        const QString text = ok ? message : message.mid(1);
        endPdfExport();
        statusBar()->showMessage(text, 10000);
        emit exportFinished(ok, text);
    });
    m_exportProgress = new QProgressBar(this);
    m_exportProgress->setRange(0, 0);
    m_exportProgress->setMaximumWidth(140);
    m_exportProgress->hide();
    statusBar()->addPermanentWidget(m_exportProgress);
}

/** Messages from the canvas and the one selection shared with the Fabric view. */
void MainWindow::connectSelection(views::FabricView *fabricView)
{
    connect(m_scene, &views::PlanScene::message, this,
            [this](const QString &text) { statusBar()->showMessage(text, 8000); });
    connect(m_scene, &views::PlanScene::selectedKeyChanged, m_properties,
            &views::PropertyEditor::setKey);
    // One selection across the canvas and the Fabric view: a server group selected on the
    // canvas lights up its leaves and cables there, a switch picked there selects its groups.
    connect(m_scene, &views::PlanScene::selectedKeyChanged, fabricView, [this, fabricView] {
        std::vector<int> groups;
        for (const QString &key : m_scene->selectedKeys())
            if (const auto index = views::groupIndex(key))
                groups.push_back(*index);
        fabricView->highlightGroups(groups);
    });
    connect(fabricView, &views::FabricView::groupsSelected, this,
            [this](const std::vector<int> &groups) {
                QStringList keys;
                for (int index : groups)
                    keys << views::groupKey(static_cast<std::size_t>(index));
                m_scene->selectKeys(keys);
            });
    connect(m_properties, &views::PropertyEditor::generateFabricRequested, this,
            &MainWindow::generateFabric);
}

void MainWindow::connectEstimate()
{
    connect(m_controller, &views::PlanEstimateController::estimateStarted, this, [this] {
        m_summary->showPending(tr("Estimating %1…").arg(QString::fromStdString(plan().name)));
        statusBar()->showMessage(tr("Estimating…"));
    });
    connect(m_controller, &views::PlanEstimateController::estimateReady, this,
            [this](const model::PlanEstimate &estimate) {
                m_summary->showEstimate(estimate);
                const bool simulating = showPlanQueue();
                // The Properties form's "searched" dimensions show what the search chose.
                m_properties->showSearchedLayout(estimate.hasTraining && estimate.training.found
                                                     ? std::optional(estimate.training.best.config)
                                                     : std::nullopt);
                // Not "up to date" while the queue's rows still say they are being simulated.
                statusBar()->showMessage(simulating ? tr("Estimate up to date; simulating the "
                                                         "queue (Comparison tab)…")
                                                    : tr("Estimate up to date"),
                                         simulating ? 0 : 5000);
            });
    connect(m_controller, &views::PlanEstimateController::estimateFailed, this,
            [this](const QString &message) {
                m_summary->showError(message);
                statusBar()->showMessage(tr("Estimate failed"));
            });
    // Live estimates: every change re-runs the estimate shortly after (typing does not queue
    // one per keystroke); the summary shows "Estimating…" until the new result is in.
    m_estimateTimer.setSingleShot(true);
    m_estimateTimer.setInterval(150);
    connect(&m_estimateTimer, &QTimer::timeout, this,
            [this] { m_controller->requestEstimate(plan()); });
}

/** Every edit: the title, a fresh estimate shortly after, a stale comparison; autosave. */
void MainWindow::connectDocument()
{
    connect(m_document, &views::PlanDocument::planChanged, this, [this](views::PlanParts parts) {
        updateTitle();
        if (views::onlyLayoutChanged(parts))
            return; // card positions change no figure
        // The shown plan's estimate depends on its design and (in the headline) its name; a
        // change of other scenarios only makes the comparison stale.
        if (views::changesShownDesign(parts) || parts.testFlag(views::PlanPart::Name)) {
            m_summary->showPending(tr("Estimating %1…").arg(QString::fromStdString(plan().name)));
            m_estimateTimer.start();
        }
        m_comparisonCurrent = false;
        m_comparisonView->markStale();
        if (m_comparisonDock->isVisible() || !m_waitingForComparison.empty())
            m_comparisonTimer.start();
        m_canvas->setHint(plan().nodeGroups.empty()
                              ? tr("Start by dragging a server from Catalog > Servers onto the "
                                   "canvas (set Add per drop for many), or open a ready plan with "
                                   "File > Open Sample.")
                              : QString());
    });
    connect(m_document, &views::PlanDocument::fileChanged, this, &MainWindow::updateTitle);
    connect(m_document, &views::PlanDocument::activeScenarioChanged, this,
            &MainWindow::updateTitle);
    m_autosaveTimer.setInterval(30000);
    connect(&m_autosaveTimer, &QTimer::timeout, this, &MainWindow::autosaveNow);
    m_autosaveTimer.start();
}

MainWindow::~MainWindow()
{
    m_exportWatcher.waitForFinished();
    m_comparison->blockSignals(true);
    m_scene->blockSignals(true);
    m_document->blockSignals(true);
    m_controller->waitForIdle();
}

const model::Plan &MainWindow::plan() const
{
    return m_document->plan();
}

/** One action per shipped sample, named by the plan's own name (the file's if it does not load). */
void MainWindow::addSampleActions(QMenu *samples)
{
    const QDir dir(QString::fromStdString(model::shippedSamplesDirectory()));
    for (const QFileInfo &info :
         dir.entryInfoList({QStringLiteral("*.json")}, QDir::Files, QDir::Name)) {
        const QString path = info.absoluteFilePath();
        // The plan's own name reads better than its file name; a sample that does not load
        // keeps its file name here and reports why when opened.
        QString title = info.completeBaseName();
        QString description;
        try {
            const model::Plan plan = model::loadPlan(path.toStdString(), m_catalog.get());
            title = QString::fromStdString(plan.name);
            description = QString::fromStdString(plan.description);
        } catch (const std::exception &) { }
        QAction *action = samples->addAction(title, this, [this, path] {
            if (maybeSave())
                openPlan(path);
        });
        action->setStatusTip(description);
        action->setToolTip(description);
    }
}

/** File > Export: the PDF report (returned, for the toolbar) and the two CSV tables. */
QAction *MainWindow::addExportActions(QMenu *exportMenu)
{
    QAction *exportPdfAction = exportMenu->addAction(
        tr("&PDF Report…"), QKeySequence(Qt::CTRL | Qt::Key_E), this, [this] {
            const QString path
                = exportPath(tr("Export PDF report"), tr("PDF (*.pdf)"), QStringLiteral("pdf"));
            if (!path.isEmpty())
                exportPdf(path);
        });
    exportMenu->addAction(tr("&Comparison Table as CSV…"), this, [this] {
        const QString path
            = exportPath(tr("Export comparison"), tr("CSV (*.csv)"), QStringLiteral("csv"));
        if (!path.isEmpty())
            exportComparisonCsv(path);
    });
    exportMenu->addAction(tr("&Bill of Materials as CSV…"), this, [this] {
        const QString path
            = exportPath(tr("Export bill of materials"), tr("CSV (*.csv)"), QStringLiteral("csv"));
        if (!path.isEmpty())
            exportBillOfMaterialsCsv(path);
    });
    return exportPdfAction;
}

void MainWindow::addUndoButtons(QToolBar *tools, QAction *remove)
{
    // The toolbar says just Undo/Redo (the menu items carry the command's name, which would make
    // the buttons as wide as "Undo Disconnect compute from the fabric"); the tooltip names it.
    QUndoStack *stack = m_document->undoStack();
    auto *undoButton = new QAction(tr("Undo"), this);
    auto *redoButton = new QAction(tr("Redo"), this);
    connect(undoButton, &QAction::triggered, stack, &QUndoStack::undo);
    connect(redoButton, &QAction::triggered, stack, &QUndoStack::redo);
    const auto syncButtons = [stack, undoButton, redoButton] {
        undoButton->setEnabled(stack->canUndo());
        redoButton->setEnabled(stack->canRedo());
        undoButton->setToolTip(stack->canUndo() ? tr("Undo %1").arg(stack->undoText())
                                                : tr("Nothing to undo"));
        redoButton->setToolTip(stack->canRedo() ? tr("Redo %1").arg(stack->redoText())
                                                : tr("Nothing to redo"));
    };
    connect(stack, &QUndoStack::indexChanged, this, syncButtons);
    connect(stack, &QUndoStack::cleanChanged, this, syncButtons);
    syncButtons();
    for (QAction *a : {undoButton, redoButton, remove})
        tools->addAction(a);
}

/** File menu: new, open, samples, recent, save, export, quit; the toolbar's file buttons. */
void MainWindow::createFileMenu(QToolBar *tools)
{
    QMenu *file = menuBar()->addMenu(tr("&File"));
    QAction *newAction = file->addAction(tr("&New"), QKeySequence::New, this, [this] {
        if (maybeSave())
            newPlan();
    });
    QAction *open
        = file->addAction(tr("&Open…"), QKeySequence::Open, this, &MainWindow::openPlanDialog);
    QMenu *samples = file->addMenu(tr("Open &Sample"));
    addSampleActions(samples);
    samples->setToolTipsVisible(true);
    samples->setEnabled(!samples->isEmpty());
    m_recentMenu = file->addMenu(tr("Open &Recent"));
    rebuildRecentMenu();
    QAction *saveAction = file->addAction(tr("&Save"), QKeySequence::Save, this, &MainWindow::save);
    file->addAction(tr("Save &As…"), QKeySequence::SaveAs, this, &MainWindow::saveAs);
    file->addSeparator();
    QMenu *exportMenu = file->addMenu(tr("&Export"));
    m_exportPdfAction = addExportActions(exportMenu);
    file->addSeparator();
    file->addAction(tr("&Quit"), QKeySequence::Quit, this, &QWidget::close);
    for (QAction *a : {newAction, open, saveAction})
        tools->addAction(a);
}

/** Edit menu (undo, redo, copy, paste, delete) and the toolbar's undo buttons. */
void MainWindow::createEditMenu(QToolBar *tools)
{
    QMenu *edit = menuBar()->addMenu(tr("&Edit"));
    QAction *undo = m_document->undoStack()->createUndoAction(this, tr("&Undo"));
    undo->setShortcut(QKeySequence::Undo);
    QAction *redo = m_document->undoStack()->createRedoAction(this, tr("&Redo"));
    redo->setShortcut(QKeySequence::Redo);
    edit->addAction(undo);
    edit->addAction(redo);
    edit->addSeparator();
    edit->addAction(tr("&Copy"), QKeySequence::Copy, m_scene, &views::PlanScene::copySelection);
    edit->addAction(tr("&Paste"), QKeySequence::Paste, m_scene, &views::PlanScene::paste);
    QAction *remove = edit->addAction(tr("&Delete"), QKeySequence::Delete, m_scene,
                                      &views::PlanScene::deleteSelection);
    tools->addSeparator();
    addUndoButtons(tools, remove);
}

/** View and Fabric menus: zoom, fit, generate a topology; their toolbar buttons. */
void MainWindow::createViewAndFabricMenus(QToolBar *tools)
{
    QMenu *view = menuBar()->addMenu(tr("&View"));
    QAction *zoomIn = view->addAction(tr("Zoom &In"), QKeySequence::ZoomIn, m_canvas,
                                      &views::PlanCanvasView::zoomIn);
    QAction *zoomOut = view->addAction(tr("Zoom &Out"), QKeySequence::ZoomOut, m_canvas,
                                       &views::PlanCanvasView::zoomOut);
    QAction *fit = view->addAction(tr("&Fit"), QKeySequence(Qt::CTRL | Qt::Key_0), m_canvas,
                                   &views::PlanCanvasView::fitAll);
    QMenu *fabric = menuBar()->addMenu(tr("F&abric"));
    QAction *generate
        = fabric->addAction(tr("&Generate Topology…"), QKeySequence(Qt::CTRL | Qt::Key_G), this,
                            &MainWindow::generateFabric);
    tools->addSeparator();
    for (QAction *a : {zoomIn, zoomOut, fit, generate})
        tools->addAction(a);
}

/** Scenarios menu: duplicate, sweep, delete, compare, simulate the queue; their buttons. */
void MainWindow::createScenarioMenu(QToolBar *tools)
{
    QMenu *scenarios = menuBar()->addMenu(tr("&Scenarios"));
    QAction *duplicate
        = scenarios->addAction(tr("&Duplicate Scenario"), QKeySequence(Qt::CTRL | Qt::Key_D),
                               m_scenarios, &views::ScenarioPanel::duplicateActive);
    scenarios->addAction(tr("&Sweep a Parameter…"), m_scenarios,
                         &views::ScenarioPanel::openSweepDialog);
    scenarios->addAction(tr("De&lete Scenario"), this,
                         [this] { m_scenarios->deleteScenario(m_document->activeScenario()); });
    scenarios->addSeparator();
    QAction *compare
        = scenarios->addAction(tr("&Compare Now"), QKeySequence(Qt::Key_F5), this, [this] {
              m_comparisonDock->show();
              m_comparisonDock->raise();
              // The table and charts need more room than the one-line estimate headline.
              if (m_comparisonDock->height() < 420)
                  resizeDocks({m_comparisonDock}, {440}, Qt::Vertical);
              compareNow();
          });
    scenarios->addAction(tr("Simulate &Queue…"), QKeySequence(Qt::Key_F6), this,
                         &MainWindow::simulateQueue);
    tools->addSeparator();
    for (QAction *a : {duplicate, compare, m_exportPdfAction})
        tools->addAction(a);
}

void MainWindow::createHelpMenu()
{
    QMenu *help = menuBar()->addMenu(tr("&Help"));
    help->addAction(tr("&User Guide"), QKeySequence::HelpContents, this,
                    &MainWindow::showUserGuide);
    help->addAction(tr("&About ClusterPlanner"), this, [this] {
        QMessageBox::about(this, tr("About ClusterPlanner"),
                           tr("ClusterPlanner %1\nDesign GPU clusters and see what they will do.")
                               .arg(QApplication::applicationVersion()));
    });
}

void MainWindow::createActions()
{
    QToolBar *tools = addToolBar(tr("Main"));
    tools->setObjectName(QStringLiteral("MainToolBar"));
    createFileMenu(tools);
    createEditMenu(tools);
    createViewAndFabricMenus(tools);
    createScenarioMenu(tools);
    createHelpMenu();
}

views::QueueSimulationDialog *MainWindow::queueSimulation() const
{
    return m_queueSimulation.data();
}

void MainWindow::simulateQueue()
{
    auto *dialog = new views::QueueSimulationDialog(plan(), m_catalog, this);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    // Room for the class table's ten columns, within a 1366 x 768 screen.
    dialog->resize(std::min(1180, std::max(640, width() - 80)),
                   std::min(760, std::max(480, height() - 40)));
    m_queueSimulation = dialog;
    dialog->show();
    dialog->simulate();
}

void MainWindow::showUserGuide()
{
    if (!m_userGuide) {
        const QString guide = QDir(QString::fromStdString(model::shippedDocsDirectory()))
                                  .filePath(QStringLiteral("user-guide.md"));
        m_userGuide = new views::UserGuideDialog(guide, this);
    }
    m_userGuide->show();
    m_userGuide->raise();
}

bool MainWindow::showPlanQueue()
{
    const model::PortfolioPlan &portfolio = plan().portfolio;
    if (portfolio.classes.empty() && portfolio.services.empty()) {
        m_summary->showQueue({});
        return false;
    }
    if (m_comparisonCurrent && !m_queueText.isEmpty()) {
        m_summary->showQueue(m_queueText);
        return false;
    }
    if (m_comparisonCurrent) {
        m_summary->showQueue(tr("not simulated: see the Comparison tab"));
        return false;
    }
    // The queue is the comparison's simulation of the plan's jobs, off the GUI thread.
    m_summary->showQueue(tr("simulating the jobs through the scheduler (Comparison tab)…"));
    if (!m_comparison->isRunning())
        m_comparisonTimer.start();
    return true;
}

void MainWindow::compareNow()
{
    m_comparisonTimer.stop();
    m_comparison->requestComparison(m_document->documentPlan());
}

void MainWindow::whenComparisonCurrent(std::function<void(const model::ScenarioComparison &)> then)
{
    if (m_comparisonCurrent && !m_comparison->isRunning() && !m_comparisonTimer.isActive()) {
        then(m_comparisonView->comparison());
        return;
    }
    m_waitingForComparison.push_back(std::move(then));
    if (!m_comparison->isRunning())
        compareNow();
}

QString MainWindow::exportPath(const QString &title, const QString &filter, const QString &suffix)
{
    QString base = QFileInfo(m_document->filePath()).completeBaseName();
    if (base.isEmpty())
        base = QStringLiteral("plan");
    QString path = QFileDialog::getSaveFileName(
        this, title, QDir(QDir::homePath()).filePath(base + QLatin1Char('.') + suffix), filter);
    if (!path.isEmpty() && QFileInfo(path).suffix().isEmpty())
        path += QLatin1Char('.') + suffix;
    return path;
}

void MainWindow::exportPdf(const QString &path)
{
    if (m_pdfExportPending) {
        statusBar()->showMessage(tr("An export is still running"), 5000);
        return;
    }
    m_pdfExportPending = true;
    m_exportProgress->show();
    statusBar()->showMessage(tr("Preparing the report…"));
    whenComparisonCurrent([this, path](const model::ScenarioComparison &comparison) {
        views::PlanReportInput input;
        try {
            input = views::preparePlanReport(m_document->documentPlan(), comparison, m_catalog,
                                             m_document->filePath());
        } catch (const std::exception &error) {
            endPdfExport();
            reportExportFailure(nothingWritten(error));
            return;
        }
        statusBar()->showMessage(tr("Writing %1…").arg(path));
        m_exportWatcher.setFuture(QtConcurrent::run([input, path]() -> QString {
            try {
                const int pages = views::writePlanReportPdf(input, path);
                return tr("Exported %1 (%n page(s))", nullptr, pages).arg(path);
            } catch (const std::exception &error) {
                return QLatin1Char('!') + nothingWritten(error);
            }
        }));
    });
}

void MainWindow::writeCsvExport(const QString &path,
                                const std::vector<std::vector<std::string>> &cells)
{
    try {
        model::writeFileAtomically(path.toStdString(), model::toCsv(cells));
        statusBar()->showMessage(tr("Exported %1").arg(path), 8000);
        emit exportFinished(true, path);
    } catch (const std::exception &error) {
        reportExportFailure(nothingWritten(error));
    }
}

void MainWindow::exportComparisonCsv(const QString &path)
{
    whenComparisonCurrent([this, path](const model::ScenarioComparison &comparison) {
        writeCsvExport(path, model::comparisonTableCells(comparison));
    });
}

void MainWindow::exportBillOfMaterialsCsv(const QString &path)
{
    whenComparisonCurrent([this, path](const model::ScenarioComparison &comparison) {
        const int active = m_document->activeScenario() + 1;
        const auto &scenarios = comparison.scenarios;
        if (active >= static_cast<int>(scenarios.size())
            || !scenarios[static_cast<std::size_t>(active)].ok) {
            reportExportFailure(tr("Export failed: this variant has no estimate"));
            return;
        }
        writeCsvExport(
            path,
            model::billOfMaterialsCells(scenarios[static_cast<std::size_t>(active)].estimate,
                                        scenarios[static_cast<std::size_t>(active)].name));
    });
}

QString MainWindow::nothingWritten(const std::exception &error)
{
    return tr("Export failed, nothing was written: %1").arg(QString::fromStdString(error.what()));
}

void MainWindow::reportExportFailure(const QString &message)
{
    statusBar()->showMessage(message, 10000);
    emit exportFinished(false, message);
}

void MainWindow::endPdfExport()
{
    m_pdfExportPending = false;
    m_exportProgress->hide();
}

void MainWindow::abandonWaitingExports(const QString &why)
{
    const std::size_t waiting = m_waitingForComparison.size();
    m_waitingForComparison.clear();
    if (m_pdfExportPending && !m_exportWatcher.isRunning())
        endPdfExport();
    for (std::size_t i = 0; i < waiting; ++i)
        emit exportFinished(false, why);
}

void MainWindow::finishBackgroundWork()
{
    finishEstimate();
    while (m_comparisonTimer.isActive() || m_comparison->isRunning() || m_exportWatcher.isRunning()
           || m_pdfExportPending || !m_waitingForComparison.empty()) {
        if (m_comparisonTimer.isActive())
            compareNow();
        m_comparison->waitForIdle();
        m_exportWatcher.waitForFinished();
        QCoreApplication::processEvents();
    }
}

void MainWindow::updateTitle()
{
    QString name = QString::fromStdString(m_document->documentPlan().name);
    if (m_document->activeScenario() >= 0)
        name += tr(" — scenario %1").arg(QString::fromStdString(plan().name));
    setWindowTitle(tr("%1%2 — ClusterPlanner")
                       .arg(name, m_document->isModified() ? QStringLiteral(" *") : QString()));
}

void MainWindow::newPlan()
{
    m_document->reset(emptyPlan(), QString());
}

void MainWindow::openPlanDialog()
{
    if (!maybeSave())
        return;
    const QString path = QFileDialog::getOpenFileName(
        this, tr("Open plan"), QString::fromStdString(model::shippedSamplesDirectory()),
        tr("ClusterPlanner plans (*.json)"));
    if (!path.isEmpty())
        openPlan(path);
}

bool MainWindow::openPlan(const QString &path)
{
    model::Plan loaded;
    try {
        loaded = model::loadPlan(path.toStdString(), m_catalog.get());
    } catch (const std::exception &error) {
        // Non-blocking: the message box is window-modal, the old plan stays open.
        auto *box = new QMessageBox(QMessageBox::Warning, tr("Cannot open plan"),
                                    tr("The plan could not be opened:\n%1\n\nFix the field named "
                                       "above and open the file again.")
                                        .arg(QString::fromStdString(error.what())),
                                    QMessageBox::Ok, this);
        box->setAttribute(Qt::WA_DeleteOnClose);
        box->setWindowModality(Qt::WindowModal);
        box->show();
        return false;
    }
    m_document->reset(loaded, path);
    addRecentFile(path);
    m_canvas->fitAll();
    return true;
}

bool MainWindow::savePlan(const QString &path)
{
    try {
        m_document->save(path);
    } catch (const std::exception &error) {
        QMessageBox::warning(this, tr("Cannot save plan"),
                             tr("The plan was not saved (the old file is unchanged):\n%1\n\n"
                                "Choose another folder with Save As.")
                                 .arg(QString::fromStdString(error.what())));
        return false;
    }
    addRecentFile(path);
    QFile::remove(autosavePath());
    statusBar()->showMessage(tr("Saved %1").arg(path), 5000);
    return true;
}

bool MainWindow::save()
{
    if (m_document->filePath().isEmpty()
        || m_document->filePath().startsWith(
            QString::fromStdString(model::shippedSamplesDirectory())))
        return saveAs();
    return savePlan(m_document->filePath());
}

bool MainWindow::saveAs()
{
    const QString path = QFileDialog::getSaveFileName(this, tr("Save plan"), QDir::homePath(),
                                                      tr("ClusterPlanner plans (*.json)"));
    return !path.isEmpty() && savePlan(path);
}

bool MainWindow::maybeSave()
{
    if (!m_document->isModified())
        return true;
    const auto answer
        = QMessageBox::warning(this, tr("Unsaved changes"),
                               tr("%1 has unsaved changes. Save them first?")
                                   .arg(QString::fromStdString(m_document->documentPlan().name)),
                               QMessageBox::Save | QMessageBox::Discard | QMessageBox::Cancel);
    if (answer == QMessageBox::Save)
        return save();
    return answer == QMessageBox::Discard;
}

void MainWindow::closeEvent(QCloseEvent *event)
{
    if (!maybeSave()) {
        event->ignore();
        return;
    }
    QSettings settings;
    settings.setValue(QStringLiteral("window/geometry"), saveGeometry());
    settings.setValue(QStringLiteral("window/state"), saveState());
    QFile::remove(autosavePath()); // a clean exit leaves nothing to recover
    event->accept();
}

void MainWindow::showEvent(QShowEvent *event)
{
    QMainWindow::showEvent(event);
    if (!m_firstRunLayout)
        return;
    // First run: the estimate gets about two fifths of the window's height, whatever the
    // screen (300 px left a three-row tree at 1920x1080).
    m_firstRunLayout = false;
    resizeDocks({m_summaryDock}, {std::max(260, height() * 2 / 5)}, Qt::Vertical);
    if (height() < 900) {
        // A 768-pixel screen leaves the right column about 400 pixels: Properties (two dozen
        // fields for a training workload) and Scenarios share it as tabs rather than each
        // getting a sliver.
        tabifyDockWidget(m_propertiesDock, m_scenariosDock);
        m_propertiesDock->raise();
    } else {
        resizeDocks({m_propertiesDock, m_scenariosDock}, {height() * 2 / 5, height() / 5},
                    Qt::Vertical);
    }
}

void MainWindow::generateFabric()
{
    auto *dialog = new views::FabricGeneratorDialog(plan(), m_catalog, this);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    connect(dialog, &QDialog::accepted, this, [this, dialog] {
        m_document->edit(
            dialog->result(),
            tr("Generate %1").arg(QString::fromStdString(dialog->result().fabric.topology)));
        m_scene->selectKey(QStringLiteral("fabric"));
    });
    dialog->open();
}

void MainWindow::finishEstimate()
{
    if (m_estimateTimer.isActive()) {
        m_estimateTimer.stop();
        m_controller->requestEstimate(plan());
    }
    m_controller->waitForIdle();
}

QString MainWindow::autosavePath()
{
    return QDir(QString::fromStdString(model::userDataDirectory()))
        .filePath(QStringLiteral("autosave.json"));
}

void MainWindow::autosaveNow()
{
    if (!m_document->isModified())
        return;
    try {
        QDir().mkpath(QFileInfo(autosavePath()).absolutePath());
        model::savePlan(m_document->documentPlan(), autosavePath().toStdString());
    } catch (const std::exception &error) {
        statusBar()->showMessage(
            tr("Autosave failed: %1").arg(QString::fromStdString(error.what())));
    }
}

void MainWindow::offerRecovery()
{
    const QString path = autosavePath();
    if (!QFileInfo::exists(path))
        return;
    model::Plan recovered;
    try {
        recovered = model::loadPlan(path.toStdString(), m_catalog.get());
    } catch (const std::exception &) {
        QFile::rename(path, path + QStringLiteral(".unreadable"));
        return;
    }
    const auto answer = QMessageBox::question(
        this, tr("Recover unsaved plan?"),
        tr("ClusterPlanner did not exit cleanly. Recover the autosaved \"%1\"?")
            .arg(QString::fromStdString(recovered.name)),
        QMessageBox::Yes | QMessageBox::No, QMessageBox::Yes);
    if (answer == QMessageBox::Yes) {
        // Recovered work is unsaved work: keep it marked modified until saved.
        m_document->reset(emptyPlan(), QString());
        m_document->edit(recovered, tr("Recover autosave"));
    }
    QFile::remove(path);
}

void MainWindow::addRecentFile(const QString &path)
{
    QSettings settings;
    QStringList files = settings.value(QStringLiteral("recentFiles")).toStringList();
    files.removeAll(path);
    files.prepend(path);
    while (files.size() > maxRecentFiles)
        files.removeLast();
    settings.setValue(QStringLiteral("recentFiles"), files);
    rebuildRecentMenu();
}

void MainWindow::rebuildRecentMenu()
{
    if (!m_recentMenu)
        return;
    m_recentMenu->clear();
    const QStringList files = QSettings().value(QStringLiteral("recentFiles")).toStringList();
    for (const QString &path : files)
        m_recentMenu->addAction(QFileInfo(path).fileName(), this, [this, path] {
            if (maybeSave())
                openPlan(path);
        });
    m_recentMenu->setEnabled(!files.isEmpty());
}

} // namespace cp::app
