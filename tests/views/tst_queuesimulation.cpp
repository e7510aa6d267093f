// SPDX-License-Identifier: GPL-3.0-or-later
// Scenarios > Simulate Queue through the main window offscreen: the window's figures are the
// model's for the same period and seed, the charts are drawn, cancel stops a long run, a plan
// without a portfolio says why, and screenshots at 1920 x 1080 and 1366 x 768.
#include "mainwindow.h"
#include "queuesimulationdialog.h"
#include "testsupport.h"

#include "model/core/humantext.h"
#include "model/plan/planio.h"
#include "model/planning/portfoliosimulation.h"

#include <QChartView>
#include <QDir>
#include <QDoubleSpinBox>
#include <QLabel>
#include <QSpinBox>
#include <QTabWidget>
#include <QTableWidget>
#include <QTest>

using namespace cp;

class TestQueueSimulation : public QObject
{
    Q_OBJECT

private:
    std::shared_ptr<const model::Catalog> m_catalog = cp::test::shippedCatalogPointer();
    const QString m_sample = QStringLiteral(CP_SOURCE_DIR "/samples/h100-2048-shared-cluster.json");

    static QString cell(QTableWidget *table, int row, int column)
    {
        return table->item(row, column) ? table->item(row, column)->text() : QString();
    }

private slots:
    void showsTheModelsFiguresAndCharts()
    {
        app::MainWindow window(m_catalog);
        window.resize(1920, 1080);
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        QVERIFY(window.openPlan(m_sample));
        window.simulateQueue();
        views::QueueSimulationDialog *dialog = window.queueSimulation();
        QVERIFY(dialog);
        QVERIFY(dialog->isRunning());
        // The year it started with is left to finish in the background; a shorter run with
        // another seed replaces it (one run at a time: wait for the first).
        dialog->waitForResult();
        dialog->yearsBox()->setValue(0.1);
        dialog->seedBox()->setValue(7);
        dialog->simulate();
        dialog->waitForResult();
        QVERIFY(!dialog->isRunning());
        QVERIFY(dialog->lastSimulation() && dialog->lastSimulation()->ok());

        // The same period and seed through the model directly.
        model::SimulationOptions options;
        options.horizonSeconds = 0.1 * 365 * 86400;
        options.seed = 7;
        const model::PortfolioSimulation expected
            = model::simulatePlanPortfolio(window.plan(), *m_catalog, options);
        QVERIFY(expected.ok());
        QCOMPARE(dialog->lastSimulation()->result.utilisation, expected.result.utilisation);
        // The two classes whose runtimes the training estimator gives come first.
        QTableWidget *figures = dialog->figuresTable();
        QCOMPARE(cell(figures, 0, 0), QStringLiteral("runtime: pretraining"));
        QVERIFY2(cell(figures, 0, 1)
                     .startsWith(QStringLiteral("Llama 3 70B, 150 B tokens on 1,024 "
                                                "NVIDIA H100 SXM5 80GB: ")),
                 qPrintable(cell(figures, 0, 1)));
        QCOMPARE(cell(figures, 3, 0), QStringLiteral("utilisation (allocated)"));
        QCOMPARE(cell(figures, 3, 1),
                 QString::asprintf("%.1f%%", 100 * expected.result.utilisation));
        // One row per class, in the plan's order, its p95 wait as the model's in words.
        QTableWidget *classes = dialog->classesTable();
        QCOMPARE(classes->rowCount(), 5);
        QCOMPARE(cell(classes, 4, 0), QStringLiteral("interactive"));
        QCOMPARE(cell(classes, 4, 1), QStringLiteral("partition dev"));
        QCOMPARE(cell(classes, 2, 1), QStringLiteral("any server, at most 512 GPUs"));
        QCOMPARE(
            cell(classes, 0, 6),
            QString::fromStdString(model::humanWait(expected.result.classes[0].waitP95Seconds)));
        QVERIFY(
            dialog->statusLabel()->text().contains(QStringLiteral("2,048 GPUs in 256 servers")));

        // Both charts are drawn.
        QTabWidget *tabs = dialog->tabs();
        QCOMPARE(tabs->count(), 3);
        for (int tab = 1; tab < tabs->count(); ++tab)
            QVERIFY2(qobject_cast<QChartView *>(tabs->widget(tab)), qPrintable(tabs->tabText(tab)));

        QDir().mkpath(QStringLiteral(CP_SCREENSHOT_DIR));
        QTest::qWait(20);
        QVERIFY(dialog->grab().save(QStringLiteral(CP_SCREENSHOT_DIR "/queue-simulation.png")));
        tabs->setCurrentIndex(2);
        QTest::qWait(20);
        QVERIFY(dialog->grab().save(QStringLiteral(CP_SCREENSHOT_DIR "/queue-waits.png")));
        tabs->setCurrentIndex(1);
        QTest::qWait(20);
        QVERIFY(dialog->grab().save(QStringLiteral(CP_SCREENSHOT_DIR "/queue-busy.png")));
        dialog->close();
    }

    void fitsA1366ScreenAndCancels()
    {
        app::MainWindow window(m_catalog);
        window.resize(1366, 768);
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        QVERIFY(window.openPlan(m_sample));
        window.simulateQueue();
        views::QueueSimulationDialog *dialog = window.queueSimulation();
        QVERIFY(dialog->width() <= 1366 && dialog->height() <= 768);
        dialog->waitForResult();
        const double firstUtilisation = dialog->lastSimulation()->result.utilisation;
        QTest::qWait(20); // the tables' new heights laid out
        QVERIFY(QDir().mkpath(QStringLiteral(CP_SCREENSHOT_DIR)));
        QVERIFY(dialog->grab().save(
            QStringLiteral(CP_SCREENSHOT_DIR "/queue-simulation-1366x768.png")));
        // Ten years of the sample (about 8.8 M jobs, many seconds) stopped at once: the window
        // says so and keeps the year it had.
        dialog->yearsBox()->setValue(10);
        dialog->simulate();
        QVERIFY(dialog->isRunning());
        dialog->cancel();
        dialog->waitForResult();
        QVERIFY2(dialog->statusLabel()->text().startsWith(QStringLiteral("Cancelled")),
                 qPrintable(dialog->statusLabel()->text()));
        QCOMPARE(dialog->lastSimulation()->result.utilisation, firstUtilisation);
        dialog->close();
    }

    void planWithoutPortfolioSaysWhy()
    {
        app::MainWindow window(m_catalog);
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        QVERIFY(window.openPlan(
            QStringLiteral(CP_SOURCE_DIR "/samples/h100-1024-ndr-rail-fat-tree.json")));
        window.simulateQueue();
        views::QueueSimulationDialog *dialog = window.queueSimulation();
        dialog->waitForResult();
        QVERIFY2(
            dialog->statusLabel()->text().contains(QStringLiteral("the plan has no portfolio")),
            qPrintable(dialog->statusLabel()->text()));
        QCOMPARE(dialog->classesTable()->rowCount(), 0);
        dialog->close();
    }
};

QTEST_MAIN(TestQueueSimulation)
#include "tst_queuesimulation.moc"
