// SPDX-License-Identifier: GPL-3.0-or-later
// Scenarios and their comparison through the main window offscreen: sweep and duplicate as
// undoable edits, editing a scenario records only its changes, the comparison table's values
// against the estimator's, charts, CSV parsed back, the PDF's pages and text (pdfinfo,
// pdftotext), failed exports leaving nothing behind, cancel. Screenshots into the build tree.
#include "compactchartview.h"
#include "comparisoncharts.h"
#include "comparisoncontroller.h"
#include "humannumbers.h"
#include "mainwindow.h"
#include "plandocument.h"
#include "propertyeditor.h"
#include "scenariocomparisonview.h"
#include "scenariopanel.h"
#include "sweepdialog.h"
#include "testsupport.h"

#include "model/catalog/catalogdatabase.h"
#include "model/core/csvtable.h"
#include "model/core/units.h"
#include "model/plan/planio.h"
#include "model/plan/scenarios.h"
#include "model/planning/planestimator.h"
#include "model/planning/planworstfailure.h"

#include <QBarCategoryAxis>
#include <QBarSeries>
#include <QBarSet>
#include <QChart>
#include <QComboBox>
#include <QDir>
#include <QDockWidget>
#include <QFile>
#include <QHeaderView>
#include <QLabel>
#include <QLegendMarker>
#include <QLineEdit>
#include <QLineSeries>
#include <QListWidget>
#include <QLocale>
#include <QMap>
#include <QProcess>
#include <QRegularExpression>
#include <QScatterSeries>
#include <QScrollBar>
#include <QSignalSpy>
#include <QStackedBarSeries>
#include <QStandardPaths>
#include <QTabBar>
#include <QTabWidget>
#include <QTableWidget>
#include <QTemporaryDir>
#include <QTest>
#include <QValueAxis>

using namespace cp;

class TestComparison : public QObject
{
    Q_OBJECT

private:
    std::shared_ptr<const model::Catalog> m_catalog = cp::test::shippedCatalogPointer();
    QTemporaryDir m_data;
    QTemporaryDir m_out;
    QString m_sample; // the H100 sample without its shipped scenarios; see initTestCase

    static int rowOf(QTableWidget *table, const QString &label)
    {
        for (int r = 0; r < table->rowCount(); ++r)
            if (table->verticalHeaderItem(r)->data(Qt::UserRole).toString() == label)
                return r;
        return -1;
    }

    static QString runTool(const QString &tool, const QStringList &arguments)
    {
        const QString path = QStandardPaths::findExecutable(tool);
        if (path.isEmpty())
            return QStringLiteral("MISSING ") + tool;
        QProcess process;
        process.start(path, arguments);
        process.waitForFinished(60000);
        return QString::fromUtf8(process.readAllStandardOutput());
    }

    /** The sample with two sweeps: 2:1 oversubscription and a RoCE fabric. */
    void openWithScenarios(app::MainWindow &window)
    {
        QVERIFY(window.openPlan(m_sample));
        QCOMPARE(window.scenarioPanel()->addSweep(model::SweepAxis::Oversubscription, {"2"}),
                 QString());
        QCOMPARE(window.scenarioPanel()->addSweep(model::SweepAxis::Nic, {"roce-400g"}), QString());
        QCOMPARE(window.document()->documentPlan().scenarios.size(), std::size_t(2));
    }

    /** Compare Now from the menu, as a user does, and wait for the comparison. */
    static void compareNow(app::MainWindow &window)
    {
        for (QAction *action : window.findChildren<QAction *>())
            if (action->text() == QStringLiteral("&Compare Now"))
                action->trigger();
        window.finishBackgroundWork();
        QTest::qWait(50);
    }

    /** The Comparison dock's "Where the time goes" tab, brought to the front; null when none. */
    static QTableWidget *showOperationsTab(views::ScenarioComparisonView *view)
    {
        for (int i = 0; i < view->chartTabs()->count(); ++i)
            if (view->chartTabs()->tabText(i) == QStringLiteral("Where the time goes")) {
                view->chartTabs()->setCurrentIndex(i);
                return qobject_cast<QTableWidget *>(view->chartTabs()->widget(i));
            }
        return nullptr;
    }

    /** The first chart whose title starts with `prefix`; null when none. */
    /** A comparison of "Baseline", "A" and "B", each estimated, with no figures yet. */
    static model::ScenarioComparison comparisonOfThreeOptions()
    {
        model::ScenarioComparison c;
        for (const char *name : {"Baseline", "A", "B"}) {
            model::ScenarioResult result;
            result.name = name;
            result.ok = true;
            c.scenarios.push_back(result);
        }
        return c;
    }

    static QChart *chartTitled(const QList<QChart *> &charts, const QString &prefix)
    {
        for (QChart *chart : charts)
            if (chart->title().startsWith(prefix))
                return chart;
        return nullptr;
    }

private slots:
    void initTestCase()
    {
        qputenv("XDG_DATA_HOME", m_data.path().toLocal8Bit());
        QCoreApplication::setOrganizationName(QStringLiteral("ClusterPlannerTest"));
        QCoreApplication::setApplicationName(QStringLiteral("ClusterPlannerTest"));
        model::Plan plan = model::loadPlan(
            CP_SOURCE_DIR "/samples/h100-1024-ndr-rail-fat-tree.json", m_catalog.get());
        plan.scenarios.clear();
        m_sample = m_out.filePath(QStringLiteral("h100-sample-baseline.json"));
        model::savePlan(plan, m_sample.toStdString());
    }

    void sweepDialogPicksCatalogEntriesByName()
    {
        // A NIC sweep is ticked from the catalog's NICs by name, not typed as ids; the scenario
        // is named by the NIC's name. Ticking none says so and adds nothing.
        app::MainWindow window(m_catalog);
        window.resize(1366, 768);
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        QVERIFY(window.openPlan(m_sample));
        window.scenarioPanel()->openSweepDialog();
        auto *dialog = window.scenarioPanel()->findChild<views::SweepDialog *>();
        QVERIFY(dialog);
        dialog->axisBox()->setCurrentIndex(
            dialog->axisBox()->findData(static_cast<int>(model::SweepAxis::Nic)));
        QVERIFY(dialog->choiceList()->isVisibleTo(dialog));
        QVERIFY(!dialog->valuesEdit()->isVisibleTo(dialog));
        dialog->accept();
        QCOMPARE(dialog->errorText(), QStringLiteral("Tick at least one."));
        QCOMPARE(window.document()->documentPlan().scenarios.size(), std::size_t(0));
        // Listed by name, numbers by value: the three plain Ethernet NICs 1, 10 and 25 GbE
        // come first, in that order (they were listed "100 GbE, 10 GbE, 1 GbE, 25 GbE").
        QCOMPARE(dialog->choiceList()->item(0)->text(), QStringLiteral("1 GbE"));
        QCOMPARE(dialog->choiceList()->item(1)->text(), QStringLiteral("10 GbE"));
        QCOMPARE(dialog->choiceList()->item(2)->text(), QStringLiteral("25 GbE"));
        QVERIFY(dialog->choiceList()->item(3)->text().startsWith(QStringLiteral("100 GbE")));
        const QList<QListWidgetItem *> roce = dialog->choiceList()->findItems(
            QStringLiteral("RoCE v2 400 GbE (ConnectX-7)"), Qt::MatchExactly);
        QCOMPARE(roce.size(), 1);
        roce.front()->setCheckState(Qt::Checked);
        QDir().mkpath(QStringLiteral(CP_SCREENSHOT_DIR));
        QVERIFY(dialog->grab().save(QStringLiteral(CP_SCREENSHOT_DIR "/sweep-dialog-nic.png")));
        dialog->accept();
        QCOMPARE(window.document()->documentPlan().scenarios.size(), std::size_t(1));
        QCOMPARE(window.document()->documentPlan().scenarios.front().name,
                 std::string("NIC RoCE v2 400 GbE (ConnectX-7)"));
        // A numeric axis is typed.
        window.scenarioPanel()->openSweepDialog();
        dialog = window.scenarioPanel()->findChildren<views::SweepDialog *>().back();
        dialog->axisBox()->setCurrentIndex(
            dialog->axisBox()->findData(static_cast<int>(model::SweepAxis::GpuCount)));
        QVERIFY(dialog->valuesEdit()->isVisibleTo(dialog));
        QVERIFY(!dialog->choiceList()->isVisibleTo(dialog));
    }

    void servingOperationsLineUpInTheComparison()
    {
        // The L4 sample against its L40S and A100 scenarios: the tab lines up the prefill and
        // the decode step, with the sequences a step carries and the TTFT and TPOT they lead
        // to, the figures the comparison table shows.
        app::MainWindow window(m_catalog);
        window.resize(1366, 768);
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        QVERIFY(window.openPlan(QStringLiteral(CP_SOURCE_DIR "/samples/l4-inference-fleet.json")));
        compareNow(window);
        views::ScenarioComparisonView *view = window.comparisonView();
        QTableWidget *operations = showOperationsTab(view);
        QVERIFY(operations);
        QStringList labels; // as the model words them (UserRole); the cells wrap long ones
        for (int r = 0; r < operations->rowCount(); ++r) {
            const QVariant whole = operations->item(r, 0)->data(Qt::UserRole);
            labels << (whole.isValid() ? whole.toString() : operations->item(r, 0)->text());
        }
        for (const QString &expected :
             {QStringLiteral("Prefill of one prompt"), QStringLiteral("  TTFT p95 under load"),
              QStringLiteral("Decode step"), QStringLiteral("  sequences in the step"),
              QStringLiteral("  time per output token under load")})
            QVERIFY2(labels.contains(expected), qPrintable(expected));
        // The TPOT row is the comparison table's, scenario by scenario.
        const int tpotRow = static_cast<int>(labels.indexOf("  time per output token under load"));
        for (std::size_t c = 0; c < view->comparison().scenarios.size(); ++c)
            QCOMPARE(
                operations->item(tpotRow, static_cast<int>(c) + 2)->text(),
                views::comparisonNumber(
                    view->comparison().scenarios[c].estimate.inference.tpotSeconds * 1e3, "ms"));
        // Its three scenarios fit beside the table at 1366 pixels: long operation and scenario
        // names wrap (the A100 column's "76.90" showed as "76" at the panel's edge).
        QCOMPARE(operations->horizontalScrollBar()->maximum(), 0);
        QDir().mkpath(QStringLiteral(CP_SCREENSHOT_DIR));
        QVERIFY(window.grab().save(
            QStringLiteral(CP_SCREENSHOT_DIR "/comparison-serving-operations-1366x768.png")));
        // The baseline and its two scenarios fit beside the charts at 1366 pixels: the figures'
        // names wrap in a narrow column instead of pushing the last scenario out of view.
        QTableWidget *table = view->table();
        QCOMPARE(table->horizontalScrollBar()->maximum(), 0);
        // Lines of at most 170 pixels, and the header's margins.
        QVERIFY2(table->verticalHeader()->width() <= 200,
                 qPrintable(QString::number(table->verticalHeader()->width())));
        // A name wider than its column takes two lines or more, whole.
        const QFontMetrics names(table->verticalHeader()->font());
        int wrapped = -1;
        for (int r = 0; r < table->rowCount(); ++r) {
            const QString name = table->verticalHeaderItem(r)->data(Qt::UserRole).toString();
            if (names.horizontalAdvance(name) <= table->verticalHeader()->width())
                continue;
            QVERIFY2(table->rowHeight(r) >= 2 * names.lineSpacing(), qPrintable(name));
            wrapped = r;
        }
        QVERIFY(wrapped >= 0); // "Saving against static provisioning", at least
        table->scrollToItem(table->item(wrapped, 1), QAbstractItemView::PositionAtCenter);
        QVERIFY(window.grab().save(
            QStringLiteral(CP_SCREENSHOT_DIR "/comparison-serving-rows-1366x768.png")));
    }

    void sweepAndDuplicateAreUndoable()
    {
        app::MainWindow window(m_catalog);
        QVERIFY(window.openPlan(m_sample));
        views::ScenarioPanel *panel = window.scenarioPanel();
        QCOMPARE(panel->list()->count(), 1); // the baseline
        QCOMPARE(panel->addSweep(model::SweepAxis::GpuCount, {"512", "2048"}), QString());
        QCOMPARE(panel->list()->count(), 3);
        QCOMPARE(panel->list()->item(2)->text(), QStringLiteral("2,048 GPUs"));
        window.document()->undoStack()->undo();
        QCOMPARE(panel->list()->count(), 1);
        window.document()->undoStack()->redo();
        QCOMPARE(panel->list()->count(), 3);
        // A bad value changes nothing and says why.
        const QString error = panel->addSweep(model::SweepAxis::GpuCount, {"1004"});
        QVERIFY2(error.contains(QStringLiteral("whole number of 8-GPU servers")),
                 qPrintable(error));
        QCOMPARE(panel->list()->count(), 3);

        // Duplicate the baseline, then change one thing: the scenario records only that, and
        // the baseline keeps its NIC.
        panel->duplicateActive();
        QCOMPARE(window.document()->activeScenario(), 2);
        model::Plan edited = window.plan();
        edited.fabric.oversubscription = 4;
        window.document()->edit(edited, QStringLiteral("oversubscribe"));
        const model::Scenario &scenario = window.document()->documentPlan().scenarios[2];
        QVERIFY(scenario.changes == nlohmann::json({{"fabric", {{"oversubscription", 4.0}}}}));
        QCOMPARE(window.plan().fabric.oversubscription, 4.0);
        window.document()->setActiveScenario(-1);
        QCOMPARE(window.plan().fabric.oversubscription, 1.0);
        // Undone with the baseline shown, the edit is undone where it was made, in view: it
        // changed the copy out of sight while the baseline stayed on screen.
        window.document()->undoStack()->undo();
        QCOMPARE(window.document()->activeScenario(), 2);
        QCOMPARE(window.plan().fabric.oversubscription, 1.0);
        window.document()->setActiveScenario(-1);
        window.document()->undoStack()->redo();
        QCOMPARE(window.document()->activeScenario(), 2);
        QCOMPARE(window.plan().fabric.oversubscription, 4.0);
        window.document()->setActiveScenario(-1);
        QVERIFY(window.windowTitle().startsWith(QStringLiteral("1024 x H100")));
        // Rename rules: unique, not "Baseline".
        QVERIFY(!panel->renameScenario(2, QStringLiteral("Baseline")).isEmpty());
        QVERIFY(!panel->renameScenario(2, QStringLiteral("512 GPUs")).isEmpty());
        // Nor blank, nor "baseline" in any case beside the real Baseline column; what is typed
        // is taken without the spaces around it ("H200 servers " stood beside "H200 servers").
        QVERIFY(!panel->renameScenario(2, QStringLiteral("baseline")).isEmpty());
        QVERIFY(!panel->renameScenario(2, QStringLiteral("   ")).isEmpty());
        QCOMPARE(panel->renameScenario(2, QStringLiteral(" 4:1 leaf ")), QString());
        QCOMPARE(window.document()->documentPlan().scenarios[2].name, std::string("4:1 leaf"));
        // The Properties Name field, with that scenario shown, keeps the same rules and says so:
        // a taken name was dropped without a word, the form kept it and an empty undo step came.
        window.document()->setActiveScenario(2);
        const int steps = window.document()->undoStack()->count();
        auto *nameField = window.propertyEditor()->findChildren<QLineEdit *>().value(0);
        QVERIFY(nameField);
        QCOMPARE(nameField->text(), QStringLiteral("4:1 leaf"));
        nameField->setText(QStringLiteral("512 GPUs"));
        emit nameField->editingFinished();
        QVERIFY2(window.propertyEditor()->lastError().contains(
                     QStringLiteral("another scenario is already called '512 GPUs'")),
                 qPrintable(window.propertyEditor()->lastError()));
        QCOMPARE(window.document()->undoStack()->count(), steps);
        QCOMPARE(window.document()->documentPlan().scenarios[2].name, std::string("4:1 leaf"));
        window.document()->setActiveScenario(-1);
        // A name longer than the dock is wide is elided in the list; its tooltip gives it whole.
        const QString longName = QStringLiteral("4:1 leaf, RoCE 400G, FP8, 2,048 GPUs, spare "
                                                "servers for a 30-day run, second building");
        QCOMPARE(panel->renameScenario(2, longName), QString());
        QCOMPARE(panel->list()->item(3)->toolTip(), longName);
        QCOMPARE(panel->renameScenario(2, QStringLiteral("4:1 leaf")), QString());
        panel->deleteScenario(0);
        QCOMPARE(window.document()->documentPlan().scenarios.size(), std::size_t(2));
        QCOMPARE(window.document()->activeScenario(), -1); // the baseline, not the next one
        window.document()->undoStack()->undo();
        QCOMPARE(window.document()->documentPlan().scenarios.size(), std::size_t(3));
        // The scenario that comes back is the one shown, as the panel's list selects it.
        QCOMPARE(window.document()->activeScenario(), 0);
        window.document()->setActiveScenario(-1);

        // Saved and reopened, the scenarios come back.
        const QString path = m_out.filePath(QStringLiteral("with-scenarios.json"));
        QVERIFY(window.savePlan(path));
        app::MainWindow reopened(m_catalog);
        QVERIFY(reopened.openPlan(path));
        QCOMPARE(reopened.document()->documentPlan().scenarios.size(), std::size_t(3));
        QVERIFY(reopened.document()->documentPlan().scenarios[2].changes == scenario.changes);
    }

    void comparisonTableShowsTheEstimatorsFigures()
    {
        app::MainWindow window(m_catalog);
        window.show();
        openWithScenarios(window);
        window.compareNow();
        window.finishBackgroundWork();
        views::ScenarioComparisonView *view = window.comparisonView();
        QVERIFY(view->isCurrent());
        QTableWidget *table = view->table();
        QCOMPARE(table->columnCount(), 4); // unit + baseline + 2 scenarios
        QCOMPARE(
            table->horizontalHeaderItem(2)->text().startsWith(QStringLiteral("2:1 oversubscribed")),
            true);
        // Each cell is the estimator's figure for that variant.
        const model::Plan document = window.document()->documentPlan();
        const int daysRow = rowOf(table, QStringLiteral("Training time (no failures)"));
        QVERIFY(daysRow >= 0);
        for (int i = -1; i < 2; ++i) {
            const model::PlanEstimate e = model::estimatePlan(
                model::scenarioPlan(document, i, m_catalog.get()), *m_catalog);
            QString text = table->item(daysRow, i + 2)->text();
            text.remove(QStringLiteral("★ "));
            QCOMPARE(text,
                     views::comparisonNumber(
                         e.training.best.trainingSeconds / model::units::secondsPerDay, "days"));
        }
        // Zero is "0", not "0.000"; small figures keep three decimals, larger ones fewer.
        QCOMPARE(views::comparisonNumber(0.0, "GPU-h"), QStringLiteral("0"));
        QCOMPARE(views::comparisonNumber(0.057, "h"), QLocale().toString(0.057, 'f', 3));
        QCOMPARE(views::comparisonNumber(1.77, "h"), QLocale().toString(1.77, 'f', 2));
        // Replica-hours are whole replicas for whole hours: 653, not 653.0.
        QCOMPARE(views::comparisonNumber(653.0, "replica-h"), QLocale().toString(653.0, 'f', 0));
        // A row is tinted where its cells read differently, not where its figures differ past
        // the digits shown: goodputs of 98.9201%, 98.9204% and 98.9199% all read "98.92".
        model::ComparisonRow goodput;
        goodput.unit = "%";
        goodput.values = {98.9201, 98.9204, 98.9199};
        goodput.differs = true; // as the model finds the raw figures
        QVERIFY(!views::differsAsShown(goodput));
        goodput.values[2] = 98.95;
        QVERIFY(views::differsAsShown(goodput));
        goodput.values[2] = std::nullopt; // a figure against none reads differently
        QVERIFY(views::differsAsShown(goodput));
        // On the sample the three goodputs read alike (they differ past the second decimal): no
        // tint, which would say the scenarios differ there.
        const int goodputRow = rowOf(table, QStringLiteral("Goodput"));
        QVERIFY(goodputRow >= 0);
        QCOMPARE(table->item(goodputRow, 2)->text(), table->item(goodputRow, 1)->text());
        QCOMPARE(table->item(goodputRow, 3)->text(), table->item(goodputRow, 1)->text());
        for (int c = 1; c <= 3; ++c)
            QVERIFY(table->item(goodputRow, c)->background() == QBrush());
        // The fastest variant is marked in the days row.
        const int best = view->comparison().rows[static_cast<std::size_t>(daysRow)].bestIndex;
        if (best >= 0)
            QVERIFY(table->item(daysRow, best + 1)->text().startsWith(QStringLiteral("★")));
        // Charts: step time, time and cost, power, scaling, Pareto; then the operations table.
        QCOMPARE(view->chartTabs()->count(), 6);
        QCOMPARE(view->chartTabs()->tabText(5), QStringLiteral("Where the time goes"));

        // Picking a scenario's column makes it the active variant; the charts follow.
        emit table->horizontalHeader()->sectionClicked(2);
        QCOMPARE(window.document()->activeScenario(), 0);
        QVERIFY(table->horizontalHeaderItem(2)->text().startsWith(QStringLiteral("▶")));

        // An edit makes the comparison stale until it is recomputed.
        model::Plan edited = window.plan();
        edited.training.globalBatch = 1024;
        window.document()->edit(edited, QStringLiteral("batch"));
        QVERIFY(!view->isCurrent());
        QVERIFY(!view->table()->isEnabled());
        window.compareNow();
        window.finishBackgroundWork();
        QVERIFY(view->isCurrent());
        window.document()->undoStack()->setClean();

        // Screenshot of the comparison: the dock raised over the estimate.
        for (QDockWidget *dock : window.findChildren<QDockWidget *>())
            if (dock->widget() == view)
                dock->raise();
        QTest::qWait(50);
        QDir().mkpath(QStringLiteral(CP_SCREENSHOT_DIR));
        QVERIFY(
            window.grab().save(QStringLiteral(CP_SCREENSHOT_DIR "/comparison-main-window.png")));
        view->resize(1400, 700);
        for (int i = 0; i < view->chartTabs()->count(); ++i) {
            view->chartTabs()->setCurrentIndex(i);
            QVERIFY(view->grab().save(
                QStringLiteral(CP_SCREENSHOT_DIR "/comparison-chart-%1.png").arg(i)));
        }
    }

    void comparisonIsUsableAt1366x768()
    {
        // The smallest screen architects use: every scenario's column readable without
        // scrolling, charts tall enough to read, the Properties hint not clipped.
        app::MainWindow window(m_catalog);
        window.resize(1366, 768);
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        openWithScenarios(window);
        compareNow(window);
        views::ScenarioComparisonView *view = window.comparisonView();
        QTableWidget *table = view->table();
        const int columns = table->columnCount();
        QCOMPARE(columns, 3 + 1); // unit column + baseline + 2 scenarios
        const int lastRight
            = table->columnViewportPosition(columns - 1) + table->columnWidth(columns - 1);
        QVERIFY2(lastRight <= table->viewport()->width(),
                 qPrintable(QStringLiteral("last column ends at %1 of %2")
                                .arg(lastRight)
                                .arg(table->viewport()->width())));
        QWidget *chart = view->chartTabs()->currentWidget();
        QVERIFY2(chart->height() >= 220, qPrintable(QString::number(chart->height())));
        // Every chart's tab shows, with no scroll arrows: short names, the title in the tooltip.
        QTabBar *tabs = view->chartTabs()->tabBar();
        QVERIFY2(tabs->sizeHint().width() <= view->chartTabs()->width(),
                 qPrintable(QStringLiteral("%1 px of tabs in %2")
                                .arg(tabs->sizeHint().width())
                                .arg(view->chartTabs()->width())));
        QCOMPARE(tabs->tabText(0), QStringLiteral("Step time"));
        QVERIFY(tabs->tabToolTip(0).startsWith(QStringLiteral("Step time breakdown")));
        QDir().mkpath(QStringLiteral(CP_SCREENSHOT_DIR));
        QVERIFY(window.grab().save(QStringLiteral(CP_SCREENSHOT_DIR "/comparison-1366x768.png")));
        for (int i = 0; i < view->chartTabs()->count(); ++i) {
            view->chartTabs()->setCurrentIndex(i);
            QTest::qWait(20);
            QVERIFY(view->chartTabs()->currentWidget()->grab().save(
                QStringLiteral(CP_SCREENSHOT_DIR "/comparison-1366-chart-%1.png").arg(i)));
        }
        // The Properties hint: its text fits its label.
        for (QLabel *label : window.propertyEditor()->findChildren<QLabel *>())
            if (label->wordWrap() && label->isVisible() && !label->text().isEmpty())
                QVERIFY2(label->heightForWidth(label->width()) <= label->height() + 1,
                         qPrintable(label->text()));
    }

    void scalingTabSaysWhyACountTrainsSlower()
    {
        // The million-GPU campus sample holds its global batch of 16,384 sequences: at 2,097,152
        // GPUs its 64-stage pipelines get 16,384 / 512 replicas = 32 microbatches each, fewer
        // than their stages, and the curve's last point falls below 1,048,576's. The Scaling tab
        // says so under the chart (a falling curve had no word of why).
        app::MainWindow window(m_catalog);
        window.resize(1920, 1080);
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        QVERIFY(window.openPlan(QStringLiteral(CP_SOURCE_DIR "/samples/h100-1m-8-buildings.json")));
        compareNow(window);
        views::ScenarioComparisonView *view = window.comparisonView();
        auto *notes = view->findChild<QLabel *>(QStringLiteral("scalingNotes"));
        QVERIFY(notes);
        QVERIFY2(
            notes->text().startsWith(QStringLiteral("2,097,152 GPUs train slower than 1,048,576")),
            qPrintable(notes->text()));
        QVERIFY2(notes->text().contains(QStringLiteral("32 microbatches for 64 pipeline stages")),
                 qPrintable(notes->text()));
        QTabWidget *tabs = view->chartTabs();
        for (int i = 0; i < tabs->count(); ++i)
            if (tabs->tabText(i) == QStringLiteral("Scaling"))
                tabs->setCurrentIndex(i);
        QVERIFY(notes->isVisible());
        QDir().mkpath(QStringLiteral(CP_SCREENSHOT_DIR));
        QVERIFY(
            window.grab().save(QStringLiteral(CP_SCREENSHOT_DIR "/comparison-scaling-notes.png")));
    }

    void batchSweepLeavesStepTimeUnranked()
    {
        // A global-batch sweep: a step of 1,024 sequences is twice the work of one of 512, so the
        // longer step is not worse and no step-time cell may carry the star; the status line
        // says why, and so does the row's tooltip. Throughput (tokens of the same model) is
        // still ranked.
        app::MainWindow window(m_catalog);
        window.resize(1366, 768);
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        QVERIFY(window.openPlan(m_sample));
        QCOMPARE(window.scenarioPanel()->addSweep(model::SweepAxis::Batch, {"1024"}), QString());
        compareNow(window);
        views::ScenarioComparisonView *view = window.comparisonView();
        QVERIFY2(view->status().contains(QStringLiteral("Step time, compute, exposed "
                                                        "communication and pipeline bubble are "
                                                        "not ranked")),
                 qPrintable(view->status()));
        QTableWidget *table = view->table();
        int stepRow = -1;
        int throughputRow = -1;
        for (int r = 0; r < table->rowCount(); ++r) {
            if (table->verticalHeaderItem(r)->data(Qt::UserRole).toString()
                == QStringLiteral("Step time"))
                stepRow = r;
            if (table->verticalHeaderItem(r)->data(Qt::UserRole).toString()
                == QStringLiteral("Throughput"))
                throughputRow = r;
        }
        QVERIFY(stepRow >= 0 && throughputRow >= 0);
        QVERIFY(table->verticalHeaderItem(stepRow)->toolTip().contains(
            QStringLiteral("Not ranked: the scenarios' steps are different amounts of work")));
        QVERIFY(table->item(stepRow, 1)->text() != table->item(stepRow, 2)->text());
        bool throughputStarred = false;
        for (int c = 1; c < table->columnCount(); ++c) {
            QVERIFY(!table->item(stepRow, c)->text().contains(QStringLiteral("★")));
            throughputStarred
                = throughputStarred || table->item(throughputRow, c)->text().contains("★");
        }
        QVERIFY(throughputStarred);
        // The operations behind the step times, side by side, in a tab of their own: the
        // total of each scenario's training step is its step time.
        QTableWidget *operations = showOperationsTab(view);
        QVERIFY(operations);
        QCOMPARE(operations->columnCount(), 2 + 2);
        QCOMPARE(operations->item(0, 0)->text(), QStringLiteral("Training step"));
        QCOMPARE(operations->item(1, 0)->text(), QStringLiteral("  total"));
        for (int c = 0; c < 2; ++c) {
            const double stepMs
                = view->comparison().scenarios[c].estimate.training.best.stepSeconds * 1e3;
            QCOMPARE(operations->item(1, c + 2)->text(), views::comparisonNumber(stepMs, "ms"));
        }
        QVERIFY(operations->item(2, 0)->text().startsWith(QStringLiteral("  ")));
        QDir().mkpath(QStringLiteral(CP_SCREENSHOT_DIR));
        QVERIFY(window.grab().save(
            QStringLiteral(CP_SCREENSHOT_DIR "/comparison-batch-sweep-1366x768.png")));
    }

    void duplicatingStopsAtThePlansMostScenarios()
    {
        // At 256 scenarios Duplicate adds none and says why; one fewer and it adds the 256th.
        app::MainWindow window(m_catalog);
        QVERIFY(window.openPlan(m_sample));
        model::Plan plan = window.document()->documentPlan();
        while (plan.scenarios.size() < model::Plan::maxScenarios - 1)
            plan.scenarios.push_back({"what-if " + std::to_string(plan.scenarios.size()),
                                      {{"facility", {{"pue", 1.3}}}}});
        window.document()->editDocument(plan, QStringLiteral("many what-ifs"));
        QCOMPARE(window.scenarioPanel()->duplicateActive(), QString());
        QCOMPARE(window.document()->documentPlan().scenarios.size(), model::Plan::maxScenarios);
        const QString refused = window.scenarioPanel()->duplicateActive();
        QVERIFY2(refused.contains(QStringLiteral("most scenarios, 256")), qPrintable(refused));
        QCOMPARE(window.document()->documentPlan().scenarios.size(), model::Plan::maxScenarios);
    }

    void paretoChartTellsOptionsApart()
    {
        // Axis labels: as many decimals as the tick step needs. 0.005 apart needs 3 (21.145,
        // 21.150), 0.25 needs 2, 5 none.
        QCOMPARE(views::axisLabelDecimals(0.005), 3);
        QCOMPARE(views::axisLabelDecimals(0.25), 2);
        QCOMPARE(views::axisLabelDecimals(5), 0);
        QCOMPARE(views::axisLabelDecimals(0), 0);
        // Three options, two dominated: each its own colour in legend and point, the dominated
        // faded (the same hue, transparent fill), the front opaque.
        model::ScenarioComparison c = comparisonOfThreeOptions();
        c.paretoPoints
            = {std::pair(21.151, 0.70), std::pair(21.149, 0.69), std::pair(21.152, 0.71)};
        c.dominated = model::paretoDominated(c.paretoPoints);
        QCOMPARE(c.dominated, std::vector<bool>({true, false, true}));
        const QList<QChart *> charts = views::comparisonCharts(c);
        QChart *pareto = chartTitled(charts, QStringLiteral("Pareto"));
        QVERIFY(pareto);
        QList<QColor> borders;
        for (QAbstractSeries *series : pareto->series())
            if (auto *scatter = qobject_cast<QScatterSeries *>(series)) {
                borders << scatter->borderColor();
                const bool dominated = scatter->name().contains(QStringLiteral("dominated"));
                QCOMPARE(scatter->color().alpha() < 255, dominated);
                QCOMPARE(scatter->color().rgb(), scatter->borderColor().rgb()); // same hue
            }
        QCOMPARE(borders.size(), 3);
        QVERIFY(borders[0] != borders[1] && borders[1] != borders[2] && borders[0] != borders[2]);
        // One option on the front is a point: no "Pareto front" line in the legend for it.
        for (QAbstractSeries *series : pareto->series())
            QVERIFY2(!qobject_cast<QLineSeries *>(series), qPrintable(series->name()));
        // Distinct x labels for options 0.003 days apart.
        auto *x = qobject_cast<QValueAxis *>(pareto->axes(Qt::Horizontal).front());
        const double step = (x->max() - x->min()) / (x->tickCount() - 1);
        QString format = x->labelFormat();
        QVERIFY(QString::asprintf(qPrintable(format), x->min())
                != QString::asprintf(qPrintable(format), x->min() + step));
        qDeleteAll(charts);
    }

    void aMissingFigureIsNoPointOnTheLine()
    {
        // The DeepSeek-V3 serving sample with an FP16 scenario, whose weights do not fit: it has
        // no TTFT ("-" in the table), and its point on the cost-and-TTFT chart sat at 0 ms, the
        // best of the chart. The line now runs through the scenarios that have one.
        model::Plan plan = model::loadPlan(CP_SOURCE_DIR "/samples/h200-deepseek-v3-serving.json",
                                           m_catalog.get());
        plan.scenarios.push_back({"FP16", {{"workload", {{"precision", "fp16"}}}}});
        const model::ScenarioComparison c = model::compareScenarios(plan, *m_catalog);
        QCOMPARE(c.scenarios.size(), std::size_t(3));
        QVERIFY(!c.scenarios[2].estimate.inference.fits);
        const QList<QChart *> charts = views::comparisonCharts(c);
        QChart *chart = chartTitled(charts, QStringLiteral("Cost per million output tokens"));
        QVERIFY(chart);
        QList<double> xs;
        int lines = 0;
        for (QAbstractSeries *series : chart->series())
            if (auto *line = qobject_cast<QLineSeries *>(series)) {
                ++lines;
                for (const QPointF &point : line->points()) {
                    xs << point.x();
                    QVERIFY(point.y() > 0);
                }
            }
        QCOMPARE(xs, (QList<double> {0.0, 1.0}));
        QCOMPARE(lines, 1); // nothing after the gap: no second piece
        // A gap between two scenarios with figures breaks the line in two pieces, the second
        // without a legend entry of its own.
        std::swap(plan.scenarios[0], plan.scenarios[1]);
        const model::ScenarioComparison middle = model::compareScenarios(plan, *m_catalog);
        const QList<QChart *> middleCharts = views::comparisonCharts(middle);
        QChart *broken
            = chartTitled(middleCharts, QStringLiteral("Cost per million output tokens"));
        QVERIFY(broken);
        QList<QLineSeries *> pieces;
        for (QAbstractSeries *series : broken->series())
            if (auto *line = qobject_cast<QLineSeries *>(series))
                pieces << line;
        QCOMPARE(pieces.size(), 2);
        QCOMPARE(pieces[0]->points().size(), 1);
        QCOMPARE(pieces[1]->points().front().x(), 2.0);
        QCOMPARE(broken->legend()->markers(pieces[1]).size(), 1);
        QVERIFY(!broken->legend()->markers(pieces[1]).front()->isVisible());
        qDeleteAll(middleCharts);
        qDeleteAll(charts);
    }

    void paretoOptionsOnOneSpotStayVisible()
    {
        // A what-if that changes neither time nor cost (here A, on the baseline's point) used to
        // be drawn over the baseline, hiding it. Both stay visible as concentric rings, the
        // earlier wider, and the legend says which option the later one sits on; B, 10% of the
        // spread away, is its own point.
        model::ScenarioComparison c = comparisonOfThreeOptions();
        c.paretoPoints = {std::pair(20.0, 50.0), std::pair(20.0, 50.0), std::pair(30.0, 40.0)};
        c.dominated = model::paretoDominated(c.paretoPoints);
        QCOMPARE(c.dominated, std::vector<bool>({false, false, false})); // neither beats the other
        const QList<QChart *> charts = views::comparisonCharts(c, -1);
        QChart *pareto = chartTitled(charts, QStringLiteral("Pareto"));
        QVERIFY(pareto);
        QList<QScatterSeries *> points;
        for (QAbstractSeries *series : pareto->series())
            if (auto *scatter = qobject_cast<QScatterSeries *>(series))
                points << scatter;
        QCOMPARE(points.size(), 3);
        QVERIFY(points[0]->markerSize() > points[1]->markerSize());
        QCOMPARE(points[1]->markerSize(), points[2]->markerSize());
        QVERIFY2(points[1]->name().contains(QStringLiteral("on Baseline's point")),
                 qPrintable(points[1]->name()));
        QVERIFY(!points[0]->name().contains(QStringLiteral("point")));
        QVERIFY(!points[2]->name().contains(QStringLiteral("point")));
        qDeleteAll(charts);
    }

    void sharedClusterComparesQueues()
    {
        // The shared-cluster sample in the window at 1920 x 1080: Compare Now fills the Queue
        // rows and both queue charts for its five variants (Slurm, bigger, 2:1 leaves, FIFO,
        // Kueue).
        app::MainWindow window(m_catalog);
        window.resize(1920, 1080);
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        QVERIFY(window.openPlan(
            QStringLiteral(CP_SOURCE_DIR "/samples/h100-2048-shared-cluster.json")));
        window.compareNow();
        window.finishBackgroundWork();
        QTest::qWait(50);
        views::ScenarioComparisonView *view = window.comparisonView();
        QTableWidget *table = view->table();
        QCOMPARE(table->columnCount(), 1 + 5);
        QStringList labels;
        for (int r = 0; r < table->rowCount(); ++r)
            labels << table->verticalHeaderItem(r)->data(Qt::UserRole).toString();
        QVERIFY2(labels.contains(QStringLiteral("Queue wait p95 over 90 days: research")),
                 qPrintable(labels.join(QLatin1Char('|'))));
        QVERIFY(labels.contains(QStringLiteral("Portfolio: service replica-hours served")));
        QStringList charts;
        for (int i = 0; i < view->chartTabs()->count(); ++i)
            charts << view->chartTabs()->tabText(i);
        QVERIFY2(charts.contains(QStringLiteral("Queue waits"))
                     && charts.contains(QStringLiteral("GPUs busy")),
                 qPrintable(charts.join(QLatin1Char('|'))));
        // The table scrolled to the queue rows and the day-by-day chart, for the user guide: the
        // comparison's dock raised above the estimate's and given room, as Compare Now does.
        for (QWidget *w = view; w; w = w->parentWidget())
            if (auto *dock = qobject_cast<QDockWidget *>(w)) {
                dock->show();
                dock->raise();
                window.resizeDocks({dock}, {560}, Qt::Vertical);
            }
        for (int r = 0; r < table->rowCount(); ++r)
            if (table->verticalHeaderItem(r)
                    ->data(Qt::UserRole)
                    .toString()
                    .startsWith(QStringLiteral("Portfolio")))
                table->scrollToItem(table->item(r, 0), QAbstractItemView::PositionAtTop);
        for (int i = 0; i < view->chartTabs()->count(); ++i)
            if (view->chartTabs()->tabText(i) == QStringLiteral("GPUs busy"))
                view->chartTabs()->setCurrentIndex(i);
        QTest::qWait(20);
        QDir().mkpath(QStringLiteral(CP_SCREENSHOT_DIR));
        QVERIFY(window.grab().save(
            QStringLiteral(CP_SCREENSHOT_DIR "/comparison-queues-1920x1080.png")));
    }

    void fiveScenariosNamesFitUnderTheirBars()
    {
        // At the report's 12-point chart text five scenario names share the axis: "4,096 GPUs"
        // and "Kubernetes (Kueue)" were cut to "4,096 GP..." and "Kubernet...". Their names
        // are set 2.5 points smaller; three keep the chart's size.
        const auto categoryPoints = [this](int scenarios) {
            model::ScenarioComparison c;
            for (int i = 0; i < scenarios; ++i) {
                model::ScenarioResult result;
                result.name = "Scenario " + std::to_string(i);
                result.ok = true;
                c.scenarios.push_back(result);
            }
            QList<QChart *> charts = views::comparisonCharts(c);
            QChart *power = chartTitled(charts, QStringLiteral("Facility power at full load"));
            double points = 0;
            if (power) {
                views::setChartTextPoints(power, 12);
                points = power->axes(Qt::Horizontal).front()->labelsFont().pointSizeF();
            }
            qDeleteAll(charts);
            return points;
        };
        QCOMPARE(categoryPoints(5), 9.5);
        QCOMPARE(categoryPoints(3), 12.0);
    }

    void aShortChartGivesItsTitleToThePlot()
    {
        // In a short dock (a 1366 x 768 window's comparison: about 220 pixels) the chart's title
        // and margins took the plot's room; the tab names the chart. Tall again, it is back.
        auto *chart = new QChart;
        chart->setTitle(QStringLiteral("Step time breakdown"));
        const QMargins margins = chart->margins();
        views::CompactChartView view(chart);
        view.resize(600, 220);
        view.show();
        QCoreApplication::processEvents();
        QVERIFY(view.isCompact());
        QVERIFY(chart->title().isEmpty());
        QVERIFY(chart->margins().top() < margins.top());
        view.resize(600, 500);
        QCoreApplication::processEvents();
        QVERIFY(!view.isCompact());
        QCOMPARE(chart->title(), QStringLiteral("Step time breakdown"));
        QCOMPARE(chart->margins(), margins);
    }

    void queueWaitChart()
    {
        // Two scenarios, two job classes: one bar set per scenario, one category per class,
        // the heights the rows' hours (missing: 0).
        model::ScenarioComparison c;
        for (const char *name : {"Baseline", "Bigger"}) {
            model::ScenarioResult result;
            result.name = name;
            result.ok = true;
            c.scenarios.push_back(result);
        }
        c.rows.push_back({"queue_wait_p95_h:training",
                          "Queue",
                          "p95 wait: training",
                          "h",
                          model::Preference::Lower,
                          {12.0, 3.0},
                          {},
                          -1,
                          true});
        c.rows.push_back({"queue_wait_p95_h:interactive",
                          "Queue",
                          "p95 wait: interactive",
                          "h",
                          model::Preference::Lower,
                          {0.5, std::nullopt},
                          {},
                          -1,
                          true});
        const QList<QChart *> charts = views::comparisonCharts(c);
        QChart *queue = chartTitled(charts, QStringLiteral("Queue waits:"));
        QVERIFY(queue);
        auto *bars = qobject_cast<QBarSeries *>(queue->series().front());
        QVERIFY(bars);
        QCOMPARE(bars->count(), 2);
        QCOMPARE(bars->barSets()[0]->at(0), 12.0);
        QCOMPARE(bars->barSets()[1]->at(0), 3.0);
        QCOMPARE(bars->barSets()[0]->at(1), 0.5);
        QCOMPARE(bars->barSets()[1]->at(1), 0.0);
        auto *categories = qobject_cast<QBarCategoryAxis *>(queue->axes(Qt::Horizontal).front());
        QCOMPARE(categories->categories(),
                 QStringList({QStringLiteral("training"), QStringLiteral("interactive")}));
        qDeleteAll(charts);
        // Waits of minutes beside waits of hundreds of hours have no bar to see: the class's
        // name says how long they are at most (0.1 h beside 12 h is under 2% of the axis:
        // "6 min").
        c.rows[1].values = {0.1, std::nullopt};
        const QList<QChart *> shortWaits = views::comparisonCharts(c);
        auto *shortCategories = qobject_cast<QBarCategoryAxis *>(
            chartTitled(shortWaits, QStringLiteral("Queue waits:"))->axes(Qt::Horizontal).front());
        QCOMPARE(
            shortCategories->categories(),
            QStringList({QStringLiteral("training"), QStringLiteral("interactive<br>(≤ 6 min)")}));
        qDeleteAll(shortWaits);
        c.rows[1].values = {0.5, std::nullopt};
        // A lower bound (jobs still waiting at the end) cannot be marked on its bar: the class
        // says how many of its bars are, as the table marks them "≥".
        c.rows[0].lowerBounds = {true, false};
        const QList<QChart *> bounded = views::comparisonCharts(c);
        auto *boundedCategories = qobject_cast<QBarCategoryAxis *>(
            chartTitled(bounded, QStringLiteral("Queue waits:"))->axes(Qt::Horizontal).front());
        QCOMPARE(boundedCategories->categories().front(), QStringLiteral("training<br>(1 bar ≥)"));
        qDeleteAll(bounded);
        c.rows[0].lowerBounds.clear();
        // A scenario's daily utilisation is a line of percentages, one point a day.
        model::PortfolioSimulation simulated;
        simulated.result.dailyUtilisation = {0.5, 0.75, 1.0};
        c.scenarios[1].queue = simulated;
        const QList<QChart *> withDays = views::comparisonCharts(c);
        QChart *busy = chartTitled(withDays, QStringLiteral("GPUs busy:"));
        QVERIFY(busy);
        auto *line = qobject_cast<QLineSeries *>(busy->series().front());
        QVERIFY(line);
        QCOMPARE(line->count(), 3);
        QCOMPARE(line->at(1), QPointF(1, 75));
        QCOMPARE(line->name(), QStringLiteral("Bigger"));
        qDeleteAll(withDays);
        c.scenarios[1].queue.reset();
        // No queue rows, no queue chart.
        c.rows.clear();
        const QList<QChart *> none = views::comparisonCharts(c);
        QVERIFY(!chartTitled(none, QStringLiteral("Queue waits:")));
        qDeleteAll(none);
    }

    void chartsReadInTheUnitTheirSizeNeeds()
    {
        // Two training variants: a $5,400 run of 5.6 days (the A100 sample's size) and one
        // of $6,000. Run cost reads in k USD (5.4, 6.0), not 0.0054 M USD; the facility power
        // of a 2.31 GW campus in MW (2,310), not "2e+06" kW; no axis label uses e-notation.
        model::ScenarioComparison c;
        for (const char *name : {"Baseline", "Other"}) {
            model::ScenarioResult result;
            result.name = name;
            result.ok = true;
            result.estimate.hasTraining = true;
            result.estimate.training.found = true;
            result.estimate.power.gpusWatts = 1.0e9;
            result.estimate.power.nodesWatts = 0.46e9;
            result.estimate.power.pue = 1.58; // 1.46 GW x 1.58 = 2.31 GW
            c.scenarios.push_back(result);
        }
        const auto row = [](const char *key, const char *unit,
                            std::vector<std::optional<double>> v) {
            return model::ComparisonRow {
                key, "Training", key, unit, model::Preference::Lower, std::move(v), {}, -1, true};
        };
        c.rows.push_back(row("wall_days", "days", {5.6, 5.9}));
        c.rows.push_back(row("run_cost_usd", "USD", {5400.0, 6000.0}));
        const QList<QChart *> charts = views::comparisonCharts(c);
        QChart *wall = chartTitled(charts, QStringLiteral("Wall time to train and run cost"));
        QVERIFY(wall);
        QStringList titles;
        for (QAbstractAxis *axis : wall->axes(Qt::Vertical))
            titles << axis->titleText();
        QVERIFY2(titles.contains(QStringLiteral("Run cost (k USD)")), qPrintable(titles.join('|')));
        QLineSeries *line = nullptr;
        for (QAbstractSeries *series : wall->series())
            if (auto *candidate = qobject_cast<QLineSeries *>(series))
                line = candidate;
        QVERIFY(line && qAbs(line->at(0).y() - 5.4) < 1e-12);
        QChart *power = chartTitled(charts, QStringLiteral("Facility power at full load"));
        QVERIFY(power);
        QValueAxis *watts = nullptr;
        for (QAbstractAxis *axis : power->axes(Qt::Vertical))
            watts = qobject_cast<QValueAxis *>(axis);
        QVERIFY(watts);
        QCOMPARE(watts->titleText(), QStringLiteral("MW"));
        QVERIFY2(watts->max() >= 2310 && watts->max() < 5000,
                 qPrintable(QString::number(watts->max())));
        for (QChart *chart : charts)
            for (QAbstractAxis *axis : chart->axes())
                if (auto *values = qobject_cast<QValueAxis *>(axis))
                    QVERIFY2(
                        !values->labelFormat().contains(QLatin1Char('g')),
                        qPrintable(chart->title() + QStringLiteral(": ") + values->labelFormat()));
        qDeleteAll(charts);
        // A scaling curve past ten thousand GPUs counts thousands on its axis ("300000" read as
        // a run of zeros): 16,384 to 131,072 GPUs are 16.384 to 131.072 thousand.
        c.scaling.assign(2, model::ScalingPoint {});
        c.scaling[0].gpus = 16384;
        c.scaling[0].tokensPerSecond = 1e7;
        c.scaling[0].efficiency = 1.0;
        c.scaling[1].gpus = 131072;
        c.scaling[1].tokensPerSecond = 7e7;
        c.scaling[1].efficiency = 0.875;
        c.scaling[0].ok = c.scaling[1].ok = true;
        const QList<QChart *> scaled = views::comparisonCharts(c);
        QChart *scaling = chartTitled(scaled, QStringLiteral("Scaling of the baseline"));
        QVERIFY(scaling);
        QStringList bottom;
        for (QAbstractAxis *axis : scaling->axes(Qt::Horizontal))
            bottom << axis->titleText();
        QCOMPARE(bottom, QStringList {QStringLiteral("Thousand GPUs")});
        auto *tokens = qobject_cast<QLineSeries *>(scaling->series().at(0));
        QVERIFY(tokens && qAbs(tokens->at(1).x() - 131.072) < 1e-9);
        qDeleteAll(scaled);
        c.scaling.clear();
        // Two options make a cost/time front; one alone (the other failed) gets no chart drawn
        // on axes fitted to a single point.
        c.paretoPoints = {std::pair(5.6, 5400.0), std::nullopt};
        c.dominated = {false, true};
        const QList<QChart *> single = views::comparisonCharts(c);
        QVERIFY(!chartTitled(single, QStringLiteral("Pareto front")));
        qDeleteAll(single);
        c.paretoPoints[1] = std::pair(5.9, 6000.0); // slower and dearer: dominated
        const QList<QChart *> pair = views::comparisonCharts(c);
        QVERIFY(chartTitled(pair, QStringLiteral("Pareto front")));
        qDeleteAll(pair);
        // Steps all under a second are charted in milliseconds, as the table's step row reads:
        // 60 ms of compute and 21 ms of exposed communication stack to 81 ms, not 0.081.
        for (model::ScenarioResult &scenario : c.scenarios) {
            scenario.estimate.training.best.breakdown.computeSeconds = 0.060;
            scenario.estimate.training.best.breakdown.dpCommExposedSeconds = 0.021;
        }
        c.rows.push_back(row("step_s", "s", {0.081, 0.081}));
        const QList<QChart *> fast = views::comparisonCharts(c);
        QChart *steps = chartTitled(fast, QStringLiteral("Step time breakdown"));
        QVERIFY(steps);
        QStringList stepTitles;
        for (QAbstractAxis *axis : steps->axes(Qt::Vertical))
            stepTitles << axis->titleText();
        QCOMPARE(stepTitles, QStringList {QStringLiteral("Milliseconds per step")});
        auto *stack = qobject_cast<QStackedBarSeries *>(steps->series().at(0));
        QVERIFY(stack && stack->barSets().size() >= 2);
        QVERIFY(qAbs(stack->barSets().at(0)->at(0) - 60.0) < 1e-9);
        QVERIFY(qAbs(stack->barSets().at(1)->at(0) - 21.0) < 1e-9);
        qDeleteAll(fast);
        c.rows.pop_back();
        // A run that never finishes has no wall time: no empty chart for it.
        c.rows[0].values = {0.0, 0.0};
        const QList<QChart *> unfinished = views::comparisonCharts(c);
        QVERIFY(!chartTitled(unfinished, QStringLiteral("Wall time to train and run cost")));
        qDeleteAll(unfinished);
    }

    void csvAndPdfExports()
    {
        app::MainWindow window(m_catalog);
        openWithScenarios(window);
        QSignalSpy finished(&window, &app::MainWindow::exportFinished);

        const QString csv = m_out.filePath(QStringLiteral("comparison.csv"));
        window.exportComparisonCsv(csv);
        window.finishBackgroundWork();
        QVERIFY(finished.count() == 1 && finished.last().at(0).toBool());
        QFile file(csv);
        QVERIFY(file.open(QIODevice::ReadOnly));
        const model::CsvRows parsed
            = model::parseCsv(file.readAll().toStdString(), "comparison.csv");
        QVERIFY(parsed == model::comparisonTableCells(window.comparisonView()->comparison()));
        QCOMPARE(parsed.front().size(), std::size_t(6));

        const QString bom = m_out.filePath(QStringLiteral("bom.csv"));
        window.exportBillOfMaterialsCsv(bom);
        window.finishBackgroundWork();
        QFile bomFile(bom);
        QVERIFY(bomFile.open(QIODevice::ReadOnly));
        const model::CsvRows bomRows = model::parseCsv(bomFile.readAll().toStdString());
        // The sample's capital cost from the catalog's prices: 1,024 H100 x $30,000 = $30.72 M;
        // 128 DGX H100 chassis x $120,000 = $15.36 M; 43 server racks (40 kW / 10.2 kW = 3 DGX
        // each), 7 network racks (the leaves of rows 1, 2, 4 and 5, the spines in row 3, the
        // management switches of rows 3 and 6: tst_datahall) and 1 storage rack x $12,000 =
        // $0.612 M; 48 QM9700 (32 rail leaves + 16 spines) x $30,000 = $1.44 M; 10 SN2201
        // management switches x $5,000 = $50,000; 4 AI400X2 x $500,000 = $2 M; the storage
        // network's switches, $345,000, the cables and the transceivers their lengths need,
        // $3,897,573, and the cabinets' PDUs and patch panels, $538,000 (tst_cli:
        // humanNumbersInTables), $54,962,573; and the training run's hot spare, a DGX H100 with
        // its 8 GPUs, $120,000 + 8 x $30,000 = $360,000: $55,322,573.
        QCOMPARE(bomRows.back().back(), std::string("55322573"));
        QCOMPARE(bomRows.front().front(), std::string("Scenario"));
        QCOMPARE(bomRows.back().front(), std::string("Baseline"));
        // With a scenario selected, its lines name it.
        window.document()->setActiveScenario(0);
        window.exportBillOfMaterialsCsv(bom);
        window.finishBackgroundWork();
        QFile scenarioFile(bom);
        QVERIFY(scenarioFile.open(QIODevice::ReadOnly));
        const model::CsvRows scenarioRows = model::parseCsv(scenarioFile.readAll().toStdString());
        QCOMPARE(scenarioRows.back().front(), window.document()->documentPlan().scenarios[0].name);

        const QString pdf = m_out.filePath(QStringLiteral("report.pdf"));
        window.exportPdf(pdf);
        window.finishBackgroundWork();
        QCOMPARE(finished.count(), 4); // comparison, two bills of materials, the report
        QVERIFY2(finished.last().at(0).toBool(), qPrintable(finished.last().at(1).toString()));
        const QRegularExpression pagesWritten(QStringLiteral("\\((\\d+) page"));
        const auto match = pagesWritten.match(finished.last().at(1).toString());
        QVERIFY(match.hasMatch());
        const int pages = match.captured(1).toInt();
        // Title, summary and bill of materials, topology, comparison, the charts (five, two to
        // a full page), assumptions and sources: at least eight.
        QVERIFY2(pages >= 8, qPrintable(QString::number(pages)));
        const QString info = runTool(QStringLiteral("pdfinfo"), {pdf});
        QVERIFY2(info.contains(QRegularExpression(QStringLiteral("Pages:\\s+%1\\n").arg(pages))),
                 qPrintable(info));
        const QString text = runTool(QStringLiteral("pdftotext"), {pdf, QStringLiteral("-")});
        for (const QString &expected :
             {QStringLiteral("ClusterPlanner plan report"),
              QStringLiteral("1024 x H100 on NDR rail-optimised fat-tree"),
              QStringLiteral("1,024 x NVIDIA H100 SXM5 80GB"), QStringLiteral("Bill of materials"),
              QStringLiteral("55,322,573 USD"), QStringLiteral("2:1 oversubscribed"),
              QStringLiteral("NIC RoCE v2 400"), QStringLiteral("Scenario comparison"),
              QStringLiteral("Step time breakdown"), QStringLiteral("Assumptions"),
              QStringLiteral("Catalog entries and their sources"),
              QStringLiteral("Data hall (baseline)"),
              // The summary names catalog entries and the tiers the generator built; the step
              // is broken down operation by operation.
              QStringLiteral("NVIDIA DGX H100"), QStringLiteral("2 switch tiers"),
              QStringLiteral("train Llama 3 70B with Megatron-Core (2024)"),
              QStringLiteral("Where the training step goes"), QStringLiteral("QKV projection"),
              // Changes in words with catalog names; "[U]" explained where sources are listed.
              QStringLiteral("Oversubscription: 2:1 instead of 1:1"),
              QStringLiteral("[U] marks an unsourced")})
            QVERIFY2(text.contains(expected), qPrintable(expected));
        // Page 1 is not half empty: the plan summary follows the key figures on it.
        const QString first
            = runTool(QStringLiteral("pdftotext"),
                      {QStringLiteral("-f"), QStringLiteral("1"), QStringLiteral("-l"),
                       QStringLiteral("1"), pdf, QStringLiteral("-")});
        QVERIFY(first.contains(
            QStringLiteral("(baseline)"))); // "Key figures", whose "fi" is a ligature
        QVERIFY(first.contains(QStringLiteral("Plan summary")));
        // No section starts a page of its own where the one before leaves room: the operations
        // side by side follow the last chart (the Pareto front, half a page) on its page.
        const auto pageText = [&](int number) {
            return runTool(QStringLiteral("pdftotext"),
                           {QStringLiteral("-f"), QString::number(number), QStringLiteral("-l"),
                            QString::number(number), pdf, QStringLiteral("-")});
        };
        int paretoPage = 0;
        for (int number = 1; number <= pages && paretoPage == 0; ++number)
            if (pageText(number).contains(QStringLiteral("Pareto front: ")))
                paretoPage = number;
        QVERIFY(paretoPage > 0);
        QVERIFY2(pageText(paretoPage).contains(QStringLiteral("Where the time goes, scenario by")),
                 qPrintable(pageText(paretoPage)));
        // Charts are drawn at a window's layout scaled into the page's column; their text still
        // reads at least as large as the tables' 8.5-point text (it read at about 6 points
        // when the charts kept the window's 9-point fonts). Heights from pdftotext's word boxes.
        const QString boxes = runTool(QStringLiteral("pdftotext"),
                                      {QStringLiteral("-bbox"), pdf, QStringLiteral("-")});
        const QRegularExpression wordBox(QStringLiteral(
            "yMin=\"([0-9.]+)\" xMax=\"[0-9.]+\" yMax=\"([0-9.]+)\">([^<]*)</word>"));
        QList<QPair<QString, double>> words;
        for (auto it = wordBox.globalMatch(boxes); it.hasNext();) {
            const auto box = it.next();
            words.append(
                {box.captured(3), box.captured(2).toDouble() - box.captured(1).toDouble()});
        }
        // The fabric page's four server groups of 32 are labelled under their own boxes, evenly
        // spaced (the report's recorded drawing once moved the last label onto the third's).
        const QRegularExpression groupLabel(QStringLiteral(
            "xMin=\"([0-9.]+)\" yMin=\"[0-9.]+\" xMax=\"[0-9.]+\" yMax=\"[0-9.]+\">32</word>\\s*"
            "<word [^>]*>servers</word>"));
        QList<double> groupX;
        for (auto it = groupLabel.globalMatch(boxes); it.hasNext();)
            groupX << it.next().captured(1).toDouble();
        QVERIFY2(groupX.size() >= 4, qPrintable(QString::number(groupX.size())));
        const double spacing = groupX[1] - groupX[0];
        QVERIFY(spacing > 0);
        for (int g = 2; g < 4; ++g)
            QVERIFY2(qAbs((groupX[g] - groupX[g - 1]) / spacing - 1.0) < 0.1,
                     qPrintable(QStringLiteral("labels at %1, %2, %3, %4")
                                    .arg(groupX[0])
                                    .arg(groupX[1])
                                    .arg(groupX[2])
                                    .arg(groupX[3])));
        // Those labels print at about the tables' size: the drawing is recorded 1,000 units
        // wide and its labels are a fixed 11 px, which a page 180 mm (1,020 px at 144 dpi) wide
        // printed at 11 / 144 in = 5.5 pt, two thirds of the tables' 8.5 pt.
        const QRegularExpression groupWord(
            QStringLiteral(">32</word>\\s*<word [^>]*yMin=\"([0-9.]+)\" xMax=\"[0-9.]+\" "
                           "yMax=\"([0-9.]+)\">servers</word>"));
        double groupLabelHeight = 0;
        for (auto it = groupWord.globalMatch(boxes); it.hasNext();) {
            const auto box = it.next();
            groupLabelHeight = box.captured(2).toDouble() - box.captured(1).toDouble();
        }
        // A legend under the drawing says what its colours mean: the heat map's scale (the
        // data-parallel rings' load while they run, not a share of the step) and, on this
        // rail-optimised fabric, the eight rails' colours.
        QVERIFY2(text.contains(QStringLiteral("Link load while the data-parallel rings run")),
                 qPrintable(text));
        QVERIFY(text.contains(QStringLiteral("Leaf colour: its rail")));
        // The assumptions' bullets are set in one size, the one carried onto a new page too (it
        // was drawn in the footer's 8 points): "Power:", "Failures:" and "Cost:" lead three.
        QMap<QString, double> bulletHeight;
        for (const auto &[word, height] : words)
            if (word == QStringLiteral("Power:") || word == QStringLiteral("Failures:")
                || word == QStringLiteral("Cost:"))
                bulletHeight[word]
                    = bulletHeight.contains(word) ? std::min(bulletHeight[word], height) : height;
        QCOMPARE(bulletHeight.size(), 3);
        QVERIFY2(qAbs(bulletHeight.value(QStringLiteral("Power:"))
                      - bulletHeight.value(QStringLiteral("Failures:")))
                         < 0.2
                     && qAbs(bulletHeight.value(QStringLiteral("Cost:"))
                             - bulletHeight.value(QStringLiteral("Failures:")))
                         < 0.2,
                 qPrintable(QStringLiteral("%1 %2 %3")
                                .arg(bulletHeight.value(QStringLiteral("Power:")))
                                .arg(bulletHeight.value(QStringLiteral("Failures:")))
                                .arg(bulletHeight.value(QStringLiteral("Cost:")))));
        double tableWordHeight = 0; // "QKV projection", a row of the step's operations table
        double chartTitleHeight = 0; // the tallest "Step time breakdown": the chart's title
        for (int i = 0; i + 2 < words.size(); ++i) {
            if (words[i].first == QStringLiteral("QKV")
                && words[i + 1].first == QStringLiteral("projection"))
                tableWordHeight = words[i].second;
            if (words[i].first == QStringLiteral("Step")
                && words[i + 1].first == QStringLiteral("time")
                && words[i + 2].first == QStringLiteral("breakdown"))
                chartTitleHeight = std::max(chartTitleHeight, words[i + 2].second);
        }
        QVERIFY(tableWordHeight > 0);
        QVERIFY2(groupLabelHeight >= 0.9 * tableWordHeight,
                 qPrintable(QStringLiteral("server group label %1 pt high, table text %2 pt")
                                .arg(groupLabelHeight)
                                .arg(tableWordHeight)));
        QVERIFY2(chartTitleHeight >= 1.05 * tableWordHeight,
                 qPrintable(QStringLiteral("chart title %1 pt high, table text %2 pt")
                                .arg(chartTitleHeight)
                                .arg(tableWordHeight)));
        // The training time the estimator gives is in the report.
        const model::PlanEstimate e = model::estimatePlan(
            model::scenarioPlan(window.document()->documentPlan(), -1, m_catalog.get()),
            *m_catalog);
        const QString days = QLocale().toString(
            e.training.best.trainingSeconds / model::units::secondsPerDay, 'f', 1);
        QVERIFY2(text.contains(QStringLiteral("Training: %1 days").arg(days)), qPrintable(days));
        // The fabric page names the model's worst single failure (any rail leaf of the sample
        // cuts off its 32-node scalable unit; the first is found first).
        const model::WorstFailure worst = model::planWorstFailure(
            model::scenarioPlan(window.document()->documentPlan(), -1, m_catalog.get()),
            *m_catalog);
        QVERIFY(text.contains(QStringLiteral("Fabric (generated graph of the baseline)")));
        QVERIFY2(text.contains(QStringLiteral("Worst single failure: %1")
                                   .arg(QString::fromStdString(worst.switchName))),
                 qPrintable(text));

        // A failed export says why and leaves nothing behind.
        const QString nowhere = m_out.filePath(QStringLiteral("no-such-dir/report.pdf"));
        window.exportPdf(nowhere);
        window.finishBackgroundWork();
        QVERIFY(!finished.last().at(0).toBool());
        QVERIFY(finished.last().at(1).toString().contains(nowhere));
        QVERIFY(!QFile::exists(nowhere));
        // An existing report is replaced only by a complete one: the old bytes stay until then.
        QVERIFY(QFileInfo(pdf).size() > 10000);
    }

    void cancelledComparisonIsNeverShownAsCurrent()
    {
        app::MainWindow window(m_catalog);
        openWithScenarios(window);
        QSignalSpy ready(window.comparisonController(),
                         &views::ComparisonController::comparisonReady);
        QSignalSpy cancelled(window.comparisonController(),
                             &views::ComparisonController::comparisonCancelled);
        window.compareNow();
        window.comparisonController()->cancel();
        window.comparisonController()->waitForIdle();
        QCoreApplication::processEvents();
        QCOMPARE(cancelled.count(), 1);
        QCOMPARE(ready.count(), 0);
        QVERIFY(!window.comparisonView()->isCurrent());
        QVERIFY(window.comparisonView()->status().contains(QStringLiteral("cancelled")));
        window.document()->undoStack()->setClean();
    }
};

QTEST_MAIN(TestComparison)
#include "tst_comparison.moc"
