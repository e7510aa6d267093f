// SPDX-License-Identifier: GPL-3.0-or-later
// Drives the real main window offscreen: open each sample, wait for the background estimate, check
// the figures shown against the model's, and save screenshots into the build tree.
#include "applicationicon.h"
#include "catalogpalette.h"
#include "comparisoncontroller.h"
#include "estimatesummaryview.h"
#include "mainwindow.h"
#include "plandocument.h"
#include "planestimatecontroller.h"
#include "stepbreakdownbar.h"
#include "testsupport.h"
#include "userguidedialog.h"

#include "model/catalog/catalogdatabase.h"
#include "model/core/humantext.h"
#include "model/core/jsonfieldreader.h"
#include "model/core/units.h"
#include "model/inference/fleetcapacity.h"
#include "model/inference/servingfloor.h"
#include "model/plan/planio.h"
#include "model/planning/planestimator.h"

#include <QDir>
#include <QFile>
#include <QLabel>
#include <QRegularExpression>
#include <QSignalSpy>
#include <QStatusBar>
#include <QTemporaryDir>
#include <QTest>
#include <QTextBrowser>
#include <QTreeWidget>

using namespace cp;

class TestMainWindow : public QObject
{
    Q_OBJECT

private:
    std::shared_ptr<const model::Catalog> m_catalog = cp::test::shippedCatalogPointer();

    static QString findValue(QTreeWidget *tree, const QString &name)
    {
        const auto items = tree->findItems(name, Qt::MatchExactly | Qt::MatchRecursive, 0);
        return items.isEmpty() ? QString() : items.first()->text(1);
    }

    /**
     * Saves `window` at both sizes architects use (1920 x 1080 and 1366 x 768) as
     * `<prefix>-<width>x<height>.png`, the Estimate panel's row `rowName` scrolled into view.
     * False when the row is not there exactly once or a file cannot be written.
     */
    static bool
    saveScreenshotsAtRow(app::MainWindow &window, const QString &rowName, const char *prefix,
                         QAbstractItemView::ScrollHint hint = QAbstractItemView::PositionAtTop)
    {
        QTreeWidget *tree = window.summaryView()->tree();
        const auto items = tree->findItems(rowName, Qt::MatchExactly | Qt::MatchRecursive, 0);
        if (items.size() != 1)
            return false;
        items.first()->setExpanded(true);
        QDir().mkpath(QStringLiteral(CP_SCREENSHOT_DIR));
        for (const QSize size : {QSize(1920, 1080), QSize(1366, 768)}) {
            window.resize(size);
            QCoreApplication::processEvents();
            tree->scrollToItem(items.first(), hint);
            if (!window.grab().save(QStringLiteral(CP_SCREENSHOT_DIR "/%1-%2x%3.png")
                                        .arg(QLatin1String(prefix))
                                        .arg(size.width())
                                        .arg(size.height())))
                return false;
        }
        return true;
    }

    /** Writes `document` as `name` in `dir` and returns its path (empty when it cannot). */
    static QString writePlanFile(const QTemporaryDir &dir, const char *name,
                                 const nlohmann::json &document)
    {
        const QString path = dir.filePath(QLatin1String(name));
        QFile file(path);
        if (!file.open(QIODevice::WriteOnly))
            return {};
        file.write(QByteArray::fromStdString(document.dump(2)));
        return path;
    }

    /** Opens the H100 sample, waits for its estimate and returns the model's own estimate. */
    model::PlanEstimate openSample(app::MainWindow &window) const
    {
        const QString path
            = QStringLiteral(CP_SOURCE_DIR "/samples/h100-1024-ndr-rail-fat-tree.json");
        QSignalSpy ready(window.controller(), &views::PlanEstimateController::estimateReady);
        if (!window.openPlan(path) || !ready.wait(60000))
            return {};
        return model::estimatePlan(model::loadPlan(path.toStdString(), m_catalog.get()),
                                   *m_catalog);
    }

private slots:
    void sharedClusterShowsItsQueue()
    {
        // The shared-cluster sample is about its queue: the Estimate panel shows the scheduler
        // simulation of its job portfolio (run with the scenario comparison, off the GUI
        // thread), as the PDF's key figures do; it had shown only hardware, power and cost.
        app::MainWindow window(m_catalog);
        window.show();
        QSignalSpy compared(window.comparisonController(),
                            &views::ComparisonController::comparisonReady);
        QVERIFY(window.openPlan(
            QStringLiteral(CP_SOURCE_DIR "/samples/h100-2048-shared-cluster.json")));
        QVERIFY(compared.wait(120000));
        QCoreApplication::processEvents();
        // The status bar no longer says the queue is being simulated once it is.
        QVERIFY2(!window.statusBar()->currentMessage().contains(QStringLiteral("simulating")),
                 qPrintable(window.statusBar()->currentMessage()));
        const QString queue
            = findValue(window.summaryView()->tree(), QStringLiteral("Jobs and services"));
        QVERIFY2(queue.contains(QStringLiteral("GPUs busy"))
                     && queue.contains(QStringLiteral("p95 wait: ")),
                 qPrintable(queue));
        // A value too long for the panel at 1366 x 768 reads whole on hover.
        const auto rows = window.summaryView()->tree()->findItems(
            QStringLiteral("Jobs and services"), Qt::MatchExactly | Qt::MatchRecursive, 0);
        QCOMPARE(rows.size(), 1);
        QCOMPARE(rows.first()->toolTip(1), queue);
        QVERIFY(
            saveScreenshotsAtRow(window, QStringLiteral("Queue (simulated)"), "estimate-queue"));
        // A plan without a portfolio has no such section.
        QSignalSpy ready(window.controller(), &views::PlanEstimateController::estimateReady);
        QVERIFY(window.openPlan(
            QStringLiteral(CP_SOURCE_DIR "/samples/h100-1024-ndr-rail-fat-tree.json")));
        QVERIFY(ready.wait(60000));
        QVERIFY(
            findValue(window.summaryView()->tree(), QStringLiteral("Jobs and services")).isEmpty());
    }

    void opensSampleAndShowsModelFigures()
    {
        app::MainWindow window(m_catalog);
        window.show();
        const QString path
            = QStringLiteral(CP_SOURCE_DIR "/samples/h100-1024-ndr-rail-fat-tree.json");
        QSignalSpy ready(window.controller(), &views::PlanEstimateController::estimateReady);
        QVERIFY(window.openPlan(path));
        QVERIFY(ready.wait(60000));

        const model::PlanEstimate expected
            = model::estimatePlan(model::loadPlan(path.toStdString(), m_catalog.get()), *m_catalog);
        QTreeWidget *tree = window.summaryView()->tree();
        QCOMPARE(findValue(tree, QStringLiteral("Nodes")), QString::number(expected.nodes));
        QCOMPARE(findValue(tree, QStringLiteral("Step time")),
                 QStringLiteral("%1 s").arg(
                     QLocale().toString(expected.training.best.stepSeconds, 'f', 3)));
        QVERIFY(window.summaryView()->headline().contains(QLocale().toString(
            expected.training.best.trainingSeconds / model::units::secondsPerDay, 'f', 1)));

        QDir().mkpath(QStringLiteral(CP_SCREENSHOT_DIR));
        QCoreApplication::processEvents(); // the estimate's wrapped lines laid out, as on screen
        QVERIFY(window.grab().save(QStringLiteral(CP_SCREENSHOT_DIR "/mainwindow-h100.png")));

        // A step under a second reads in milliseconds: the ViT sample's (81.29 ms in the CLI)
        // read "0.081 s".
        const QString vit = QStringLiteral(CP_SOURCE_DIR "/samples/h100-128-vit-imagenet-nfs.json");
        QVERIFY(window.openPlan(vit));
        QVERIFY(ready.wait(60000));
        const model::PlanEstimate vitEstimate
            = model::estimatePlan(model::loadPlan(vit.toStdString(), m_catalog.get()), *m_catalog);
        QVERIFY(vitEstimate.training.best.stepSeconds < 1.0);
        QCOMPARE(findValue(tree, QStringLiteral("Step time")),
                 QStringLiteral("%1 ms").arg(
                     QLocale().toString(vitEstimate.training.best.stepSeconds * 1e3, 'f', 2)));
    }

    void catalogTooltipsCountThePublishedRuns()
    {
        // Hovering a GPU in the catalog says how much published evidence its estimates have:
        // 31 training runs and 84 serving measurements on the H100 (counted by hand in
        // catalogs/validation), none at all on the L4.
        app::MainWindow window(m_catalog);
        const QList<QTreeWidgetItem *> h100 = window.palette()->tree()->findItems(
            QStringLiteral("NVIDIA H100 SXM5 80GB"), Qt::MatchExactly | Qt::MatchRecursive);
        const QList<QTreeWidgetItem *> l4 = window.palette()->tree()->findItems(
            QStringLiteral("NVIDIA L4"), Qt::MatchExactly | Qt::MatchRecursive);
        QVERIFY(!h100.isEmpty() && !l4.isEmpty());
        QVERIFY2(h100.first()->toolTip(0).contains(
                     QStringLiteral("Published on this GPU: 31 training runs and 84 serving "
                                    "measurements")),
                 qPrintable(h100.first()->toolTip(0)));
        QVERIFY2(l4.first()->toolTip(0).contains(QStringLiteral("rest on the model alone")),
                 qPrintable(l4.first()->toolTip(0)));
    }

    void catalogPaletteSaysEachModelsAttention()
    {
        // The Models branch of the catalog lists each model's attention beside its layers, in
        // the words attentionDescription gives (tst_catalog derives them from the entries).
        app::MainWindow window(m_catalog);
        window.show();
        QTreeWidget *tree = window.palette()->tree();
        const QList<QTreeWidgetItem *> deepseek = tree->findItems(
            QStringLiteral("DeepSeek-V3 671B (MoE, MLA)"), Qt::MatchExactly | Qt::MatchRecursive);
        const QList<QTreeWidgetItem *> scout = tree->findItems(
            QStringLiteral("Llama 4 Scout 17B-16E (MoE)"), Qt::MatchExactly | Qt::MatchRecursive);
        QVERIFY(!deepseek.isEmpty() && !scout.isEmpty());
        QCOMPARE(deepseek.first()->text(1), QStringLiteral("61 layers, latent 512+64"));
        QCOMPARE(scout.first()->text(1),
                 QStringLiteral("48 layers, GQA 8 K/V heads, chunks 8192 on 36 of 48"));
        // A narrow palette elides the column; hovering shows it whole.
        QVERIFY(scout.first()->toolTip(1).contains(scout.first()->text(1)));
        deepseek.first()->parent()->setExpanded(true);
        QDir().mkpath(QStringLiteral(CP_SCREENSHOT_DIR));
        for (const QSize size : {QSize(1920, 1080), QSize(1366, 768)}) {
            window.resize(size);
            QCoreApplication::processEvents();
            tree->scrollToItem(deepseek.first(), QAbstractItemView::PositionAtTop);
            QVERIFY(window.grab().save(QStringLiteral(CP_SCREENSHOT_DIR "/palette-models-%1x%2.png")
                                           .arg(size.width())
                                           .arg(size.height())));
        }
    }

    void headlineSaysWhereTheStepGoes()
    {
        // The one-sentence diagnosis sits under the headline, above the tree, and a bar shows
        // the step's parts with the model's seconds.
        app::MainWindow window(m_catalog);
        window.resize(1366, 768);
        window.show();
        const model::PlanEstimate expected = openSample(window);
        QVERIFY(expected.training.found);
        const model::TrainingEstimate &t = expected.training.best;
        views::EstimateSummaryView *summary = window.summaryView();
        QString sentence = QString::fromStdString(t.bottleneckExplanation);
        sentence[0] = sentence[0].toUpper();
        QVERIFY2(summary->diagnosis().startsWith(QStringLiteral("Bottleneck: %1.").arg(sentence)),
                 qPrintable(summary->diagnosis()));
        QVERIFY(summary->headline().contains(sentence));
        // The sample's MFU is above every dense 16-bit H100 run of the published-runs table, the
        // fastest of which, Megatron-Core's GPT 16B, reached 489.1 of 989.4 TFLOP/s (49.4%): the
        // diagnosis says so where it is read first, with the run nearest in size (the GPT 70B of
        // the same table, 419.7 TFLOP/s: 42.4%), and the tree has the whole comparison.
        QVERIFY(t.mfu > 489.1 / 989.4);
        QVERIFY2(summary->diagnosis().contains(
                     QStringLiteral("MFU %1% is above every published 16-bit run on this GPU (the "
                                    "fastest, GPT 16B (Megatron-Core weak-scaling) on 192 GPUs, "
                                    "reached %2%; the nearest in size, GPT 70B (Megatron-Core "
                                    "weak-scaling) on 768 GPUs, %3%)")
                         .arg(QLocale().toString(100 * t.mfu, 'f', 1),
                              QLocale().toString(49.4, 'f', 1), QLocale().toString(42.4, 'f', 1))),
                 qPrintable(summary->diagnosis()));
        // The estimator's errors on those runs run from negative to positive (the weak-scaling
        // GPT 32B is pessimistic, the 1.7B optimistic): whole percents, each with its own sign.
        const model::ValidationSummary &errors = expected.trainingPublishedRuns.estimatorError;
        QVERIFY(errors.lowestSignedError < -0.005 && errors.highestSignedError > 0.005);
        QVERIFY2(summary->diagnosis().contains(
                     QStringLiteral("); on those runs the estimator was -%1% to +%2% off.")
                         .arg(QLocale().toString(-100 * errors.lowestSignedError, 'f', 0),
                              QLocale().toString(100 * errors.highestSignedError, 'f', 0))),
                 qPrintable(summary->diagnosis()));
        QVERIFY2(
            findValue(summary->tree(), QStringLiteral("Published runs on this GPU"))
                .startsWith(QStringLiteral("Above all: 12 runs (16-bit, dense) at 38.4-49.4% "
                                           "MFU")),
            qPrintable(findValue(summary->tree(), QStringLiteral("Published runs on this GPU"))));
        const views::StepBreakdownBar *bar = summary->stepBar();
        QVERIFY(bar->isVisible());
        double total = 0;
        for (const auto &segment : bar->segments())
            total += segment.seconds;
        QVERIFY(std::abs(total - t.breakdown.total()) <= 1e-9 * t.breakdown.total());
        QCOMPARE(bar->segments().front().name, QStringLiteral("compute"));
        QCOMPARE(bar->segments().front().seconds, t.breakdown.computeSeconds);
        // The legend's compute share is the model's, rounded.
        QVERIFY2(bar->legendText().contains(
                     QStringLiteral("compute %1%")
                         .arg(std::lround(100 * t.breakdown.computeSeconds / t.breakdown.total()))),
                 qPrintable(bar->legendText()));
        // Catalog names in the tree, not ids.
        const QString racks = findValue(summary->tree(), QStringLiteral("Racks: compute"));
        QVERIFY2(racks.contains(QString::fromStdString(m_catalog->rack("rack-air-40kw").name)),
                 qPrintable(racks));
        // The room's management network: one or two SN2201 in each of the sample's six rows and
        // a cable from each of its 391 other devices, PDUs included (tst_datahall derives both),
        // the storage network and the cabinets' 188 PDUs and 68 patch panels.
        QCOMPARE(findValue(summary->tree(), QStringLiteral("Management network")),
                 QStringLiteral("10 switches, 391 cables (every BMC and management port, out of "
                                "band)"));
        QCOMPARE(findValue(summary->tree(), QStringLiteral("Storage network")),
                 QStringLiteral("23 switches of its own, 588 cables (servers' storage ports and "
                                "storage systems)"));
        QCOMPARE(findValue(summary->tree(), QStringLiteral("Cabinet fittings")),
                 QStringLiteral("188 zero-U PDUs (A and B feeds), 68 patch panels for the fibre "
                                "between rows"));
        // Above the tree, not a row inside it.
        QVERIFY(bar->geometry().bottom() <= summary->tree()->geometry().top());
    }

    void aSingleRunIsNamedInTheDiagnosis()
    {
        // The sample's servers swapped for DGX B200: the table's only 16-bit B200 run is
        // GPT-OSS 120B on 64 GPUs (its other two B200 rows are MXFP8), so the Llama 3 70B estimate
        // is set against that one run, named, with one error and not a range.
        nlohmann::json document
            = model::readJsonFile(CP_SOURCE_DIR "/samples/h100-1024-ndr-rail-fat-tree.json");
        QCOMPARE(document.at("nodes").at(0).at("node"), "dgx-h100");
        document["nodes"][0]["node"] = "dgx-b200";
        QTemporaryDir dir;
        const QString path = writePlanFile(dir, "b200.json", document);
        QVERIFY(!path.isEmpty());
        app::MainWindow window(m_catalog);
        window.resize(1366, 768);
        window.show();
        QSignalSpy ready(window.controller(), &views::PlanEstimateController::estimateReady);
        QVERIFY(window.openPlan(path));
        QVERIFY(ready.wait(60000));
        views::EstimateSummaryView *summary = window.summaryView();
        const QString diagnosis = summary->diagnosis();
        QVERIFY2(diagnosis.contains(QStringLiteral("is above the only published 16-bit run on this "
                                                   "GPU (GPT-OSS 120B on 64 GPUs, "))
                     && diagnosis.contains(QStringLiteral("); on it the estimator was +"))
                     && !diagnosis.contains(QStringLiteral("on those runs")),
                 qPrintable(diagnosis));
        const QString row
            = findValue(summary->tree(), QStringLiteral("Published runs on this GPU"));
        QVERIFY2(row.startsWith(QStringLiteral("Above it: 1 run (16-bit, dense and MoE), GPT-OSS "
                                               "120B on 64 GPUs, at ")),
                 qPrintable(row));
    }

    void warningsComeFirst()
    {
        // Four 10.2 kW DGX H100 in a 40 kW rack: over its limit, a warning. It heads the
        // Estimate panel rather than following the bill of materials at its foot.
        app::MainWindow window(m_catalog);
        window.show();
        QVERIFY(window.openPlan(
            QStringLiteral(CP_SOURCE_DIR "/samples/h100-1024-ndr-rail-fat-tree.json")));
        model::Plan plan = window.plan();
        plan.nodeGroups[0].nodesPerRack = 4;
        QSignalSpy ready(window.controller(), &views::PlanEstimateController::estimateReady);
        window.document()->edit(plan, QStringLiteral("Four servers a rack"));
        QVERIFY(ready.wait(60000));
        QTreeWidget *tree = window.summaryView()->tree();
        QCOMPARE(tree->topLevelItem(0)->text(0), QStringLiteral("Warnings"));
        QVERIFY2(tree->topLevelItem(0)->child(0)->text(1).contains(QStringLiteral("40.8 kW")),
                 qPrintable(tree->topLevelItem(0)->child(0)->text(1)));
        window.document()->undoStack()->setClean();
    }

    void checkpointsWithoutStorageAreSaidToBeImpossible()
    {
        // The sample without its storage: no "0 s to write, every 0 min" and a 99% goodput, but
        // the reason, and the goodput of a run that restarts from scratch on every failure: 19.19
        // days (460.5 h) of work with a job MTBF of 43.71 h is x = T/MTBF = 10.536; a restart
        // from scratch expects (MTBF + R)(e^x - 1) of wall time, R the 10 min restart, so goodput
        // is x / ((1 + R/MTBF)(e^x - 1)) = 10.536 / (1.003813 x 37,646) = 0.0279%.
        app::MainWindow window(m_catalog);
        window.show();
        const QString path
            = QStringLiteral(CP_SOURCE_DIR "/samples/h100-1024-ndr-rail-fat-tree.json");
        QVERIFY(window.openPlan(path));
        model::Plan plan = window.plan();
        plan.storage.clear();
        QSignalSpy ready(window.controller(), &views::PlanEstimateController::estimateReady);
        window.document()->edit(plan, QStringLiteral("Remove storage"));
        QVERIFY(ready.wait(60000));
        const QString checkpoints
            = findValue(window.summaryView()->tree(), QStringLiteral("Checkpoints"));
        QVERIFY2(checkpoints.contains(QStringLiteral("cannot be written")),
                 qPrintable(checkpoints));
        const QString goodput = findValue(window.summaryView()->tree(), QStringLiteral("Goodput"));
        QVERIFY2(goodput.startsWith(QStringLiteral("0.0279")), qPrintable(goodput));
        // The line read first names the failures, not the GEMMs the step spends its time on:
        // 19.2 days of work take 68,818 days of wall time.
        const QString noCheckpoints
            = QStringLiteral("Failures outpace the run: with no storage to write checkpoints to, "
                             "every failure sends the run back to its start, and one comes "
                             "every 44 h, so only 0.0279% of the wall time is useful work. Step "
                             "bottleneck: GEMMs");
        QVERIFY2(window.summaryView()->diagnosis().startsWith(noCheckpoints),
                 qPrintable(window.summaryView()->diagnosis()));

        // The same storage kept in the plan but taken off the fabric: the servers cannot reach
        // it, and the diagnosis says the same.
        plan = window.plan();
        plan.storage.push_back({});
        plan.storage.back().storageId = "lustre-exascaler";
        plan.storage.back().count = 4;
        plan.storage.back().onFabric = false;
        window.document()->edit(plan, QStringLiteral("Storage off the fabric"));
        QVERIFY(ready.wait(60000));
        QVERIFY2(window.summaryView()->diagnosis().startsWith(noCheckpoints),
                 qPrintable(window.summaryView()->diagnosis()));
        window.document()->undoStack()->setClean();
    }

    void estimatePanelShowsTheOperations()
    {
        // Every operation of the training step is a row of the Estimate panel with the model's
        // time and share, at both window sizes architects use.
        app::MainWindow window(m_catalog);
        window.show();
        const model::PlanEstimate expected = openSample(window);
        QVERIFY(expected.training.found);
        const model::TrainingEstimate &t = expected.training.best;
        QTreeWidget *tree = window.summaryView()->tree();
        QVERIFY(t.operations.count > 10);
        for (const model::StepOperation &op : t.operations) {
            const QString shown = findValue(tree, QString::fromLatin1(op.name));
            QVERIFY2(shown.startsWith(QLocale().toString(op.seconds * 1e3, 'f', 1)),
                     qPrintable(QString::fromLatin1(op.name) + QStringLiteral(": ") + shown));
        }
        QVERIFY(
            saveScreenshotsAtRow(window, QStringLiteral("Operations of one step"), "operations"));
    }

    void estimatePanelShowsTheDataPath()
    {
        // The ViT sample reads ImageNet JPEGs from one NFS server: every stage of the data path
        // is a row with the model's first-epoch and warm utilisation, and the stall is named.
        app::MainWindow window(m_catalog);
        window.show();
        const QString path
            = QStringLiteral(CP_SOURCE_DIR "/samples/h100-128-vit-imagenet-nfs.json");
        QSignalSpy ready(window.controller(), &views::PlanEstimateController::estimateReady);
        QVERIFY(window.openPlan(path));
        QVERIFY(ready.wait(60000));
        const model::PlanEstimate expected
            = model::estimatePlan(model::loadPlan(path.toStdString(), m_catalog.get()), *m_catalog);
        const model::DataPathEstimate &dataPath = expected.trainingRun.dataPath;
        QVERIFY(dataPath.present);
        QVERIFY(dataPath.firstEpoch.stallFraction > 0);
        QTreeWidget *tree = window.summaryView()->tree();
        // The feed in human units (humanBytes, tested in tst_planestimator), never "0.00 GB/s".
        const QString feed = findValue(tree, QStringLiteral("Data path"));
        QVERIFY2(feed.endsWith(QStringLiteral(", ")
                               + QString::fromStdString(
                                   model::humanBytes(dataPath.requiredReadBytesPerSecond))
                               + QStringLiteral("/s")),
                 qPrintable(feed));
        for (std::size_t i = 0; i < dataPath.firstEpoch.stages.size(); ++i) {
            const model::DataPathStage &stage = dataPath.firstEpoch.stages[i];
            const QString shown = findValue(tree, QString::fromStdString(stage.name));
            QVERIFY2(shown.startsWith(QStringLiteral("needs ")
                                      + QLocale().toString(100 * stage.utilisation(), 'f', 0)
                                      + QStringLiteral("% of its capacity in the first epoch")),
                     qPrintable(shown));
        }
        const QString stall = findValue(tree, QStringLiteral("Cannot keep up"));
        QVERIFY2(stall.startsWith(QString::fromStdString(dataPath.firstEpoch.limitingStage)),
                 qPrintable(stall));
        QCOMPARE(findValue(tree, QStringLiteral("What to add")),
                 QString::fromStdString(dataPath.advice));
        QVERIFY(saveScreenshotsAtRow(window, QStringLiteral("Data path"), "datapath"));
    }

    void estimatePanelShowsAFleetsCapacity()
    {
        // The L4 sample as a fixed fleet of 16 replicas with no rate: the Estimate panel says
        // the most it serves within the sample's targets, as the model words it, and what a
        // little more load breaks.
        nlohmann::json document
            = model::readJsonFile(CP_SOURCE_DIR "/samples/l4-inference-fleet.json");
        document["workload"].erase("rate_per_s");
        document["workload"].erase("diurnal");
        document["workload"]["replicas"] = 16;
        QTemporaryDir dir;
        const QString path = writePlanFile(dir, "l4-capacity.json", document);
        QVERIFY(!path.isEmpty());
        app::MainWindow window(m_catalog);
        window.show();
        QSignalSpy ready(window.controller(), &views::PlanEstimateController::estimateReady);
        QVERIFY(window.openPlan(path));
        QVERIFY(ready.wait(60000));
        const model::PlanEstimate expected
            = model::estimatePlan(model::loadPlan(path.toStdString(), m_catalog.get()), *m_catalog);
        QVERIFY(expected.inference.capacityWithinLimits.has_value());
        QTreeWidget *tree = window.summaryView()->tree();
        const QString shown = findValue(tree, QStringLiteral("Capacity within the targets"));
        QCOMPARE(shown,
                 QString::fromStdString(model::capacityWithinLimitsText(expected.inference)));
        QVERIFY2(shown.contains(QStringLiteral("on 16 replicas; a little more load breaks the "
                                               "TPOT p95 limit")),
                 qPrintable(shown));
        const QString headline = window.summaryView()->headline();
        QVERIFY2(headline.contains(QStringLiteral("16 replicas serve up to "))
                     && headline.contains(QStringLiteral(" requests/s within the targets")),
                 qPrintable(headline));
        QVERIFY(saveScreenshotsAtRow(window, QStringLiteral("Capacity within the targets"),
                                     "capacity", QAbstractItemView::PositionAtCenter));
        // Beside the estimate, the floor no engine beats on the replica, as the model words it.
        const QString floor = findValue(tree, QStringLiteral("Floor (no engine is faster)"));
        QCOMPARE(floor, QString::fromStdString(model::servingFloorText(expected.inference)));
        QVERIFY2(floor.startsWith(QStringLiteral("prefill "))
                     && floor.endsWith(QStringLiteral("x as long")),
                 qPrintable(floor));
    }

    void estimatePanelPricesNoFleetThatCannotServe()
    {
        // The L4 sample in BF16 with a 20 ms TPOT target: each token streams Llama 3 8B's 16 GB
        // of weights from the L4's 300 GB/s, 53.5 ms at least, so no fleet serves it. The
        // headline said "1 replica, ... 0.043 USD per million output tokens"; now it says the
        // plan cannot serve the load, and the panel gives the replica's best and no cost.
        nlohmann::json document
            = model::readJsonFile(CP_SOURCE_DIR "/samples/l4-inference-fleet.json");
        document["workload"]["precision"] = "bf16";
        document["workload"]["tpot_p95_ms"] = 20;
        document.erase("scenarios");
        QTemporaryDir dir;
        const QString path = writePlanFile(dir, "l4-too-slow.json", document);
        QVERIFY(!path.isEmpty());
        app::MainWindow window(m_catalog);
        window.show();
        QSignalSpy ready(window.controller(), &views::PlanEstimateController::estimateReady);
        QVERIFY(window.openPlan(path));
        QVERIFY(ready.wait(60000));
        const QString headline = window.summaryView()->headline();
        QVERIFY2(headline.contains(QStringLiteral("cannot serve the workload as asked"))
                     && headline.contains(QStringLiteral("above the target"))
                     && !headline.contains(QStringLiteral("USD")),
                 qPrintable(headline));
        QTreeWidget *tree = window.summaryView()->tree();
        QCOMPARE(findValue(tree, QStringLiteral("Replicas needed")),
                 QStringLiteral("none: no fleet meets the targets"));
        QVERIFY(findValue(tree, QStringLiteral("Cost per million output tokens")).isEmpty());
        QVERIFY(!findValue(tree, QStringLiteral("TTFT (batch 1, unloaded)")).isEmpty());
        QVERIFY(saveScreenshotsAtRow(window, QStringLiteral("Replicas needed"), "no-fleet",
                                     QAbstractItemView::PositionAtCenter));
        // Llama 3 405B on the same servers does not fit an L4 (810 GB of BF16 weights in 24 GB):
        // no times either.
        document["workload"]["model"] = "llama-3-405b";
        const QString huge = writePlanFile(dir, "l4-405b.json", document);
        QVERIFY(window.openPlan(huge));
        QVERIFY(ready.wait(60000));
        QVERIFY(window.summaryView()->headline().contains(
            QStringLiteral("cannot serve the workload as asked")));
        QVERIFY(!findValue(window.summaryView()->tree(), QStringLiteral("Not possible")).isEmpty());
        QVERIFY(findValue(window.summaryView()->tree(), QStringLiteral("Time per output token"))
                    .isEmpty());
        // The sample's 50 requests/s on a fixed fleet of 4 replicas, each serving about 3.4 at
        // its largest batch: its queue grows without bound, so it has no TTFT.
        document["workload"]["model"] = "llama-3-8b";
        document["workload"]["precision"] = "fp8";
        document["workload"]["tpot_p95_ms"] = 50;
        document["workload"]["replicas"] = 4;
        document["workload"].erase("diurnal");
        const QString overloaded = writePlanFile(dir, "l4-overloaded.json", document);
        QVERIFY(window.openPlan(overloaded));
        QVERIFY(ready.wait(60000));
        QVERIFY2(window.summaryView()->headline().contains(
                     QStringLiteral("cannot serve the workload as asked")),
                 qPrintable(window.summaryView()->headline()));
        QVERIFY(findValue(window.summaryView()->tree(), QStringLiteral("TTFT"))
                    .startsWith(QStringLiteral("unbounded")));
    }

    void everySampleOpens()
    {
        app::MainWindow window(m_catalog);
        const QDir samples(QStringLiteral(CP_SOURCE_DIR "/samples"));
        for (const QString &file : samples.entryList({QStringLiteral("*.json")})) {
            QSignalSpy ready(window.controller(), &views::PlanEstimateController::estimateReady);
            QVERIFY(window.openPlan(samples.filePath(file)));
            QVERIFY2(ready.wait(60000), qPrintable(file));
            QVERIFY(window.summaryView()->tree()->topLevelItemCount() > 2);
            // The DeepSeek-V3 serving sample buys 4 servers of 8 H200 for 3 requests/s. One
            // replica of 8 GPUs serves about 4.09 requests/s at its largest batch, so alone it
            // would run at 3 / 4.09 = 73%, above the 70% a fleet sized for latency targets
            // keeps: two replicas serve it (it was one, at 73%), and the diagnosis says 16 of
            // the 32 GPUs stay idle.
            if (file == QStringLiteral("h200-deepseek-v3-serving.json")) {
                QVERIFY2(window.summaryView()->diagnosis().contains(
                             QStringLiteral("Idle GPUs: the load keeps 16 of the plan's 32 GPUs "
                                            "busy; 16 stay idle")),
                         qPrintable(window.summaryView()->diagnosis()));
                // The headline gives a token's cost over all 32 GPUs beside the 16 that serve:
                // twice as much, as the idle GPUs cost the same.
                const model::PlanEstimate expected = model::estimatePlan(
                    model::loadPlan(samples.filePath(file).toStdString(), m_catalog.get()),
                    *m_catalog);
                QVERIFY(expected.servingUse.has_value());
                QVERIFY(qAbs(expected.servingUse->costPerMillionOutputTokensAllGpusUsd
                                 / expected.inference.costPerMillionOutputTokensUsd
                             - 2.0)
                        < 1e-9);
                const QString all = QLocale().toString(
                    expected.servingUse->costPerMillionOutputTokensAllGpusUsd, 'f', 3);
                const QString allIn = QLocale().toString(
                    expected.inference.costPerMillionOutputTokensAllInUsd, 'f', 3);
                QVERIFY2(window.summaryView()->headline().contains(
                             QStringLiteral("(%1 with the prompts' share; %2 over every GPU the "
                                            "plan buys)")
                                 .arg(allIn, all)),
                         qPrintable(window.summaryView()->headline()));
                // Its wrapped bottleneck line keeps each figure with its unit: no break inside
                // "4,176 GB/s" (a word joiner after the slash, a no-break space before the unit).
                QString shown;
                for (QLabel *label : window.summaryView()->findChildren<QLabel *>())
                    if (label->text().contains(QStringLiteral("GB/")))
                        shown = label->text();
                QVERIFY2(shown.contains(QStringLiteral("GB/") + QChar(0x2060) + QLatin1Char('s'))
                             && !shown.contains(QRegularExpression(QStringLiteral("[0-9] GB"))),
                         qPrintable(shown));
            }
            QVERIFY(window.grab().save(QStringLiteral(CP_SCREENSHOT_DIR "/mainwindow-%1.png")
                                           .arg(QFileInfo(file).completeBaseName())));
        }
    }

    void brokenPlanKeepsOldOne()
    {
        app::MainWindow window(m_catalog);
        QSignalSpy ready(window.controller(), &views::PlanEstimateController::estimateReady);
        const QString fleet = QStringLiteral(CP_SOURCE_DIR "/samples/l4-inference-fleet.json");
        QVERIFY(window.openPlan(fleet));
        QVERIFY(ready.wait(60000));
        // The sample's diurnal traffic: the autoscaled day from the model, in the Estimate panel.
        const model::PlanEstimate expected = model::estimatePlan(
            model::loadPlan(fleet.toStdString(), m_catalog.get()), *m_catalog);
        QVERIFY(expected.autoscaling && expected.autoscaling->feasible);
        QCOMPARE(findValue(window.summaryView()->tree(),
                           QStringLiteral("Cost per day, autoscaled / static")),
                 QStringLiteral("%1 / %2 USD")
                     .arg(QLocale().toString(expected.autoscaling->usdPerDay, 'f', 0),
                          QLocale().toString(expected.autoscaling->staticUsdPerDay, 'f', 0)));
        QTemporaryDir dir;
        const QString broken = dir.filePath(QStringLiteral("broken.json"));
        QFile file(broken);
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.write("{\"format\": \"clusterplanner-plan\", \"version\": 1}");
        file.close();
        QVERIFY(!window.openPlan(broken));
        QCOMPARE(QString::fromStdString(window.plan().name),
                 QStringLiteral("L4 inference fleet for Llama 3 8B"));
    }

    void helpShowsTheUserGuideAndTheIconIsDrawn()
    {
        app::MainWindow window(m_catalog);
        window.showUserGuide();
        QVERIFY(window.userGuide());
        QVERIFY(window.userGuide()->loaded());
        QVERIFY(window.userGuide()->browser()->toPlainText().contains(
            QStringLiteral("Compare what-if scenarios")));
        const views::UserGuideDialog missing(QStringLiteral("/nonexistent/user-guide.md"));
        QVERIFY(!missing.loaded());
        QVERIFY(missing.browser()->toPlainText().contains(QStringLiteral("/nonexistent")));

        // The icon's top-left GPU tile (x 50..78, y 126..140 of 256) is green, its corner clear.
        const QImage icon = views::applicationIcon().pixmap(256).toImage();
        QCOMPARE(icon.width(), 256);
        QCOMPARE(icon.pixelColor(64, 133).rgb(), QColor(0x76, 0xd2, 0x75).rgb());
        QCOMPARE(icon.pixelColor(1, 1).alpha(), 0);
    }

    void newerRequestSupersedesOlder()
    {
        // Two requests in a row: only the newest plan's estimate may be shown.
        views::PlanEstimateController controller;
        controller.setCatalog(m_catalog);
        QSignalSpy ready(&controller, &views::PlanEstimateController::estimateReady);
        const model::Plan first = model::loadPlan(
            CP_SOURCE_DIR "/samples/h100-1024-ndr-rail-fat-tree.json", m_catalog.get());
        const model::Plan second
            = model::loadPlan(CP_SOURCE_DIR "/samples/l4-inference-fleet.json", m_catalog.get());
        controller.requestEstimate(first);
        controller.requestEstimate(second);
        QTRY_VERIFY_WITH_TIMEOUT(!controller.isRunning(), 60000);
        QTest::qWait(50);
        QCOMPARE(ready.count(), 1);
        QCOMPARE(ready.first().first().value<model::PlanEstimate>().planName, second.name);
    }
};

QTEST_MAIN(TestMainWindow)
#include "tst_mainwindow.moc"
