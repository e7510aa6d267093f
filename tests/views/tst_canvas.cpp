// SPDX-License-Identifier: GPL-3.0-or-later
// The design canvas driven through real widgets offscreen: drops from the palette (as QDropEvents
// on the view), undo/redo, refused drops, the property editor, the topology generator, copy,
// paste and delete, save and reopen, autosave recovery. Screenshots go into the build tree.
#include "cablerouter.h"
#include "cardkeys.h"
#include "catalogpalette.h"
#include "estimatesummaryview.h"
#include "fabricgeneratordialog.h"
#include "fabricitem.h"
#include "fabriclinkitem.h"
#include "humannumbers.h"
#include "mainwindow.h"
#include "nodegroupitem.h"
#include "plancanvasview.h"
#include "plancarditem.h"
#include "plandocument.h"
#include "plandrop.h"
#include "planestimatecontroller.h"
#include "planscene.h"
#include "portitem.h"
#include "propertyeditor.h"
#include "testsupport.h"

#include "model/catalog/catalogdatabase.h"
#include "model/fabric/fabricgraph.h"
#include "model/inference/inferencesetup.h"
#include "model/plan/planio.h"
#include "model/plan/scenarios.h"
#include "model/planning/planestimator.h"
#include "model/planning/planfabric.h"

#include <QApplication>
#include <QComboBox>
#include <QDir>
#include <QDoubleSpinBox>
#include <QDropEvent>
#include <QGraphicsScene>
#include <QImage>
#include <QLabel>
#include <QLineEdit>
#include <QMessageBox>
#include <QPainter>
#include <QPushButton>
#include <QRegularExpression>
#include <QScrollArea>
#include <QSignalSpy>
#include <QSpinBox>
#include <QStatusBar>
#include <QTemporaryDir>
#include <QTest>
#include <QTimer>
#include <QTreeWidget>

using namespace cp;

class TestCanvas : public QObject
{
    Q_OBJECT

private:
    std::shared_ptr<const model::Catalog> m_catalog = cp::test::shippedCatalogPointer();
    QTemporaryDir m_data;
    const QString m_sample
        = QStringLiteral(CP_SOURCE_DIR "/samples/h100-1024-ndr-rail-fat-tree.json");

    /** Drags `drop` onto the canvas at viewport position `at`, as the palette's QDrag would. */
    static void dropOnCanvas(app::MainWindow &window, const views::CatalogDrop &drop, QPoint at)
    {
        QWidget *viewport = window.canvas()->viewport();
        std::unique_ptr<QMimeData> mime(views::mimeDataForDrop(drop));
        QDragEnterEvent enter(at, Qt::CopyAction, mime.get(), Qt::LeftButton, Qt::NoModifier);
        QApplication::sendEvent(viewport, &enter);
        QDragMoveEvent move(at, Qt::CopyAction, mime.get(), Qt::LeftButton, Qt::NoModifier);
        QApplication::sendEvent(viewport, &move);
        QDropEvent dropEvent(at, Qt::CopyAction, mime.get(), Qt::LeftButton, Qt::NoModifier);
        QApplication::sendEvent(viewport, &dropEvent);
    }

    static QPoint viewportPointOf(app::MainWindow &window, const QString &key)
    {
        views::PlanCardItem *card = window.scene()->cardForKey(key);
        return window.canvas()->mapFromScene(card->sceneBoundingRect().center());
    }

    /** Saves the window to `fileName` under the screenshot folder with `field` scrolled into
     *  view in the Properties dock, once the rebuilt form is laid out. */
    static bool saveWithFieldShown(app::MainWindow &window, QWidget *field, const QString &fileName)
    {
        QTest::qWait(20); // the rebuilt form is laid out before it can be scrolled to
        for (QWidget *parent = field ? field->parentWidget() : nullptr; parent;
             parent = parent->parentWidget())
            if (auto *scroll = qobject_cast<QScrollArea *>(parent)) {
                scroll->ensureWidgetVisible(field);
                break;
            }
        QTest::qWait(20);
        return window.grab().save(QStringLiteral(CP_SCREENSHOT_DIR "/") + fileName);
    }

    static QPoint emptyPoint(app::MainWindow &window)
    {
        // A point of the viewport with no card under it.
        for (int y = 10; y < window.canvas()->viewport()->height(); y += 20)
            for (int x = 10; x < window.canvas()->viewport()->width(); x += 20)
                if (window.canvas()->items(QPoint(x, y)).isEmpty())
                    return {x, y};
        return {5, 5};
    }

private slots:
    void initTestCase()
    {
        qputenv("XDG_DATA_HOME", m_data.path().toLocal8Bit());
        QCoreApplication::setOrganizationName(QStringLiteral("ClusterPlannerTest"));
        QCoreApplication::setApplicationName(QStringLiteral("ClusterPlannerTest"));
    }

    void racksCaptionFitsItsCard()
    {
        // 16,384 DGX H100, three to a cabinet: 5,462 racks, 16 drawn. The full wording runs past
        // a card 180 units wide at 7-point text; a shorter one fits, and a wide card keeps the
        // full one.
        const views::NodeGroupItem group(QStringLiteral("group:0"), QStringLiteral("compute"), {},
                                         5462, 3, 16384, 42, 8);
        QFont font;
        font.setPointSizeF(7);
        const QFontMetricsF metrics(font);
        const QString full = QStringLiteral("16 of %1 racks shown, up to 3 servers each")
                                 .arg(QLocale().toString(5462));
        const double width = 180;
        QVERIFY(metrics.horizontalAdvance(full) > width); // the case that ran past the edge
        const QString fitted = group.racksCaption(metrics, width);
        QVERIFY2(metrics.horizontalAdvance(fitted) <= width, qPrintable(fitted));
        QVERIFY(fitted.startsWith(QStringLiteral("16 of ")));
        QCOMPARE(group.racksCaption(metrics, 1000), full);
    }

    void racksShowTheirServersWhenZoomedOut()
    {
        // Two 42U racks of three 8U servers (six servers). Zoomed in, each server is a green
        // slot; at half scale (a card fitted at 1366 x 768) the slots were left out and the
        // racks looked empty: their servers' units now show as one green block.
        const auto greenPixels = [](double scale) {
            QGraphicsScene scene;
            auto *group = new views::NodeGroupItem(QStringLiteral("group:0"),
                                                   QStringLiteral("compute"), {}, 2, 3, 6, 42, 8);
            scene.addItem(group);
            const QRectF source = scene.itemsBoundingRect();
            QImage image((source.size() * scale).toSize(), QImage::Format_ARGB32);
            image.fill(Qt::white);
            QPainter painter(&image);
            scene.render(&painter, QRectF(QPointF(0, 0), source.size() * scale), source);
            painter.end();
            // Right of the card's accent stripe, which is green too.
            int green = 0;
            for (int y = 0; y < image.height(); ++y)
                for (int x = static_cast<int>(10 * scale); x < image.width(); ++x) {
                    const QColor c = image.pixelColor(x, y);
                    // The servers' green (0x81c784), not the card's darker green border.
                    green += c.green() > 185 && c.red() < 160 && c.blue() < 160 ? 1 : 0;
                }
            return green;
        };
        QVERIFY(greenPixels(1.0) > 0);
        QVERIFY2(greenPixels(0.5) > 0, "the racks look empty at half scale");
    }

    void dropServersThenUndoRedo()
    {
        app::MainWindow window(m_catalog);
        window.show();
        QVERIFY(window.openPlan(m_sample));
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        const std::size_t groups = window.plan().nodeGroups.size();
        dropOnCanvas(window, {model::CatalogKind::Node, "dgx-b200", 32}, emptyPoint(window));
        QCOMPARE(window.plan().nodeGroups.size(), groups + 1);
        QCOMPARE(window.plan().nodeGroups.back().nodeId, std::string("dgx-b200"));
        QCOMPARE(window.plan().nodeGroups.back().count, 32);
        // Named with the catalog's name, not "dgx-b200 2".
        QCOMPARE(window.plan().nodeGroups.back().name, m_catalog->node("dgx-b200").name);
        QVERIFY(window.document()->isModified());
        QVERIFY(window.scene()->cardForKey(QStringLiteral("group:%1").arg(groups)));
        window.document()->undoStack()->undo();
        QCOMPARE(window.plan().nodeGroups.size(), groups);
        QVERIFY(!window.scene()->cardForKey(QStringLiteral("group:%1").arg(groups)));
        QVERIFY(!window.document()->isModified());
        window.document()->undoStack()->redo();
        QCOMPARE(window.plan().nodeGroups.size(), groups + 1);

        // Onto the existing DGX H100 group: more servers of that type, no new group.
        const int before = window.plan().nodeGroups.front().count;
        dropOnCanvas(window, {model::CatalogKind::Node, "dgx-h100", 8},
                     viewportPointOf(window, QStringLiteral("group:0")));
        QCOMPARE(window.plan().nodeGroups.front().count, before + 8);
        QCOMPARE(window.plan().nodeGroups.size(), groups + 1);
        // The estimate re-runs for the edited plan.
        QSignalSpy ready(window.controller(), &views::PlanEstimateController::estimateReady);
        QVERIFY(ready.wait(60000));
        QCOMPARE(ready.last().first().value<model::PlanEstimate>().nodes,
                 window.plan().totalNodes());
        window.document()->undoStack()->setClean(); // no save prompt on close
    }

    void datasetDropFeedsTheTrainingWorkloadWithUndo()
    {
        // The H100 sample trains Llama 3 70B on packed tokens; dropping a dataset makes the run
        // read it, one undoable edit, and the workload card names it.
        app::MainWindow window(m_catalog);
        window.show();
        QVERIFY(window.openPlan(m_sample));
        QVERIFY(window.plan().trainingDatasetId.empty());
        dropOnCanvas(window, {model::CatalogKind::Dataset, "imagenet-1k-webdataset", 1},
                     emptyPoint(window));
        QCOMPARE(window.plan().trainingDatasetId, std::string("imagenet-1k-webdataset"));
        const QStringList lines = window.scene()->cardForKey(QStringLiteral("workload"))->lines();
        QVERIFY2(lines.contains(QStringLiteral("reads ImageNet-1k in WebDataset tar shards")),
                 qPrintable(lines.join(QLatin1Char('|'))));
        // The sample's 4 Lustre appliances read 4 x 90 GB/s / 115,440 B = 3,118,503 images/s;
        // their IOPS and metadata allow far more for shards.
        const QStringList storage
            = window.scene()->cardForKey(QStringLiteral("storage:0"))->lines();
        QVERIFY2(
            storage.contains(
                QStringLiteral("feeds %1 samples/s").arg(QLocale().toString(3118503.0, 'f', 0))),
            qPrintable(storage.join(QLatin1Char('|'))));
        window.document()->undoStack()->undo();
        QVERIFY(window.plan().trainingDatasetId.empty());
        QVERIFY(!window.document()->isModified());
    }

    void invalidDropsAreRefusedWithARemedy()
    {
        app::MainWindow window(m_catalog);
        window.show();
        QVERIFY(window.openPlan(m_sample));
        const std::string before = model::planToJson(window.plan()).dump();
        dropOnCanvas(window, {model::CatalogKind::Gpu, "h100-sxm5-80gb", 1}, emptyPoint(window));
        QCOMPARE(model::planToJson(window.plan()).dump(), before);
        QVERIFY2(window.statusBar()->currentMessage().contains(
                     QStringLiteral("A GPU goes into a server")),
                 qPrintable(window.statusBar()->currentMessage()));
        // The server that carries it, by name (the catalog's first node with this GPU).
        const std::string carrier = model::nodeForGpu(*m_catalog, "h100-sxm5-80gb");
        QVERIFY2(window.statusBar()->currentMessage().contains(
                     QString::fromStdString(m_catalog->node(carrier).name)),
                 qPrintable(window.statusBar()->currentMessage()));
        QVERIFY(!window.statusBar()->currentMessage().contains(QString::fromStdString(carrier)));
        // A dataset without a training workload has nothing to feed.
        model::Plan serving = window.plan();
        serving.workloadType = model::WorkloadType::Inference;
        serving.inference.modelId = "llama-3-8b";
        const views::DropOutcome refused = views::applyDrop(
            serving, *m_catalog, {model::CatalogKind::Dataset, "imagenet-1k-jpeg", 1}, QString());
        QVERIFY(!refused.plan);
        QVERIFY2(refused.description.contains(QStringLiteral("drop a model first")),
                 qPrintable(refused.description));
        // An Ethernet switch cannot carry the plan's InfiniBand NDR links.
        dropOnCanvas(window, {model::CatalogKind::Switch, "leaf-100g", 1},
                     viewportPointOf(window, QStringLiteral("fabric")));
        QCOMPARE(model::planToJson(window.plan()).dump(), before);
        QVERIFY(window.statusBar()->currentMessage().contains(QStringLiteral("cannot carry")));
        // A rack dropped on empty canvas has nothing to rack.
        dropOnCanvas(window, {model::CatalogKind::Rack, "rack-air-40kw", 1}, emptyPoint(window));
        QCOMPARE(model::planToJson(window.plan()).dump(), before);
        QVERIFY(!window.document()->isModified());
        // A plan at its 1,024 server groups takes no new group; the same type dropped on a group
        // still adds to its count.
        model::Plan full = window.plan();
        while (full.nodeGroups.size() < model::Plan::maxNodeGroups) {
            model::NodeGroup team = full.nodeGroups.front();
            team.name = "team " + std::to_string(full.nodeGroups.size());
            team.count = 1;
            full.nodeGroups.push_back(team);
        }
        const views::DropOutcome noRoom = views::applyDrop(
            full, *m_catalog, {model::CatalogKind::Node, "dgx-b200", 1}, QString());
        QVERIFY(!noRoom.plan);
        QVERIFY2(noRoom.description.contains(QStringLiteral("most server groups, 1,024")),
                 qPrintable(noRoom.description));
        const views::DropOutcome more = views::applyDrop(
            full, *m_catalog, {model::CatalogKind::Node, "dgx-h100", 2}, QStringLiteral("group:0"));
        QVERIFY(more.plan);
        QCOMPARE(more.plan->nodeGroups.front().count, full.nodeGroups.front().count + 2);
        // Nor may a drop push a count past what the plan file holds: 99,999 storage systems and
        // 2 more would be 100,001, over the 100,000 an entry loads with; the loader's words say
        // where. 1 more is fine.
        model::Plan stored = window.plan();
        stored.storage.front().count = 99999;
        const std::string storageId = stored.storage.front().storageId;
        const views::DropOutcome tooMany = views::applyDrop(
            stored, *m_catalog, {model::CatalogKind::Storage, storageId, 2}, QString());
        QVERIFY(!tooMany.plan);
        QVERIFY2(tooMany.description.contains(QStringLiteral("/storage/0/count")),
                 qPrintable(tooMany.description));
        const views::DropOutcome oneMore = views::applyDrop(
            stored, *m_catalog, {model::CatalogKind::Storage, storageId, 1}, QString());
        QVERIFY(oneMore.plan);
        QCOMPARE(oneMore.plan->storage.front().count, 100000);
    }

    void aPlanOpenedBeforeShowFitsTheWindow()
    {
        // As `clusterplanner PLAN.json` does: open the plan, then show the window. The cards must
        // fill the canvas (their bounds span most of its width or height), not a speck.
        app::MainWindow window(m_catalog);
        QVERIFY(window.openPlan(m_sample));
        window.resize(1366, 768);
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        QCoreApplication::processEvents();
        const QRectF bounds = window.scene()->itemsBoundingRect();
        const QRect shown = window.canvas()->mapFromScene(bounds).boundingRect();
        const QSize viewport = window.canvas()->viewport()->size();
        QVERIFY2(shown.width() > 0.6 * viewport.width() || shown.height() > 0.6 * viewport.height(),
                 qPrintable(QStringLiteral("%1 x %2 in %3 x %4")
                                .arg(shown.width())
                                .arg(shown.height())
                                .arg(viewport.width())
                                .arg(viewport.height())));
    }

    void aDroppedModelTrainsOnAComputeOptimalBudget()
    {
        // A model dropped on a plan without a workload trains on 20 tokens per parameter
        // (Hoffmann et al. 2022): Llama 3 8B has about 8.0 B parameters, so about 160 B tokens,
        // not the "0.0 days to train" of no tokens at all.
        app::MainWindow window(m_catalog);
        window.show();
        model::Plan plan;
        plan.name = "empty";
        window.document()->reset(plan, QString());
        dropOnCanvas(window, {model::CatalogKind::Model, "llama-3-8b", 1}, emptyPoint(window));
        QCOMPARE(window.plan().workloadType, model::WorkloadType::Training);
        QVERIFY2(qAbs(window.plan().training.tokens / 160.6e9 - 1.0) < 0.01,
                 qPrintable(QString::number(window.plan().training.tokens)));
    }

    void workloadCardReadsAsPeopleSpeak()
    {
        // The workload card names the model as the catalog does and the budget in human units:
        // the sample trains Llama 3 70B on 2e12 tokens, "2 T tokens", not "2000 B tokens".
        QCOMPARE(views::humanCount(2e12), QStringLiteral("2 T"));
        QCOMPARE(views::humanCount(160.6e9), QStringLiteral("160.6 B"));
        QCOMPARE(views::humanCount(1.25e12), QStringLiteral("1.25 T"));
        QCOMPARE(views::humanCount(512e6), QStringLiteral("512 M"));
        app::MainWindow window(m_catalog);
        window.show();
        QVERIFY(window.openPlan(m_sample));
        views::PlanCardItem *card = window.scene()->cardForKey(QStringLiteral("workload"));
        QVERIFY(card);
        QCOMPARE(card->title(), QStringLiteral("Training Llama 3 70B"));
        QVERIFY2(card->lines().contains(QStringLiteral("2 T tokens")),
                 qPrintable(card->lines().join(QStringLiteral(" | "))));
    }

    void tiersReadAsThePlanMeansThem()
    {
        // A plan that asks for the fewest tiers (0): Properties says so instead of showing 1,
        // which in the plan format means a single switch.
        app::MainWindow window(m_catalog);
        window.show();
        QVERIFY(window.openPlan(m_sample));
        model::Plan fewest = window.plan();
        fewest.fabric.tiers = 0;
        window.document()->edit(fewest, QStringLiteral("Fewest tiers"));
        window.scene()->selectKey(QStringLiteral("fabric"));
        QSpinBox *tiers = nullptr;
        for (QSpinBox *box : window.propertyEditor()->findChildren<QSpinBox *>())
            if (box->toolTip().startsWith(QStringLiteral("Fat-tree tiers")))
                tiers = box;
        QVERIFY(tiers);
        QCOMPARE(tiers->maximum(), 4); // up to four tiers (super-spines)
        QCOMPARE(tiers->value(), 0);
        QCOMPARE(tiers->text(), QStringLiteral("fewest"));
    }

    void aPlainClickIsNotAMove()
    {
        // Clicking a card selects it and changes nothing: no undo entry, no modified plan, the
        // card stays where it is. Dragging it is one "Move".
        app::MainWindow window(m_catalog);
        window.show();
        QVERIFY(window.openPlan(m_sample));
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        views::PlanCardItem *card = window.scene()->cardForKey(QStringLiteral("fabric"));
        QVERIFY(card);
        const QPointF before = card->pos();
        const int undoCount = window.document()->undoStack()->count();
        QWidget *viewport = window.canvas()->viewport();
        const QPoint centre
            = window.canvas()->mapFromScene(card->sceneBoundingRect().center() + QPointF(0, 8));
        QTest::mouseClick(viewport, Qt::LeftButton, {}, centre);
        QCOMPARE(window.document()->undoStack()->count(), undoCount);
        QVERIFY(!window.document()->isModified());
        QVERIFY(window.scene()->cardForKey(QStringLiteral("fabric"))->isSelected());
        QCOMPARE(window.scene()->cardForKey(QStringLiteral("fabric"))->pos(), before);
        // A drag is a move.
        QTest::mousePress(viewport, Qt::LeftButton, {}, centre);
        QTest::mouseMove(viewport, centre + QPoint(30, 0));
        QTest::mouseMove(viewport, centre + QPoint(60, 0));
        QTest::mouseRelease(viewport, Qt::LeftButton, {}, centre + QPoint(60, 0));
        QCOMPARE(window.document()->undoStack()->count(), undoCount + 1);
        QCOMPARE(window.document()->undoStack()->undoText(), QStringLiteral("Move"));
    }

    void documentSaysWhatChanged()
    {
        // One typed change signal: a move is Layout only, so the cards stay (same objects, no
        // rebuild) and no estimate is started; a server count is Servers, and rebuilds.
        app::MainWindow window(m_catalog);
        window.show();
        QVERIFY(window.openPlan(m_sample));
        window.finishEstimate();
        window.scene()->waitForFabricSummary();
        QSignalSpy changes(window.document(), &views::PlanDocument::planChanged);
        QSignalSpy estimates(window.controller(), &views::PlanEstimateController::estimateStarted);
        views::PlanCardItem *fabric = window.scene()->cardForKey(QStringLiteral("fabric"));
        model::Plan moved = window.plan();
        moved.layout["items"]["fabric"] = {500.0, -200.0};
        window.document()->edit(moved, QStringLiteral("Move"));
        QCOMPARE(changes.size(), 1);
        QCOMPARE(changes[0][0].value<views::PlanParts>(),
                 views::PlanParts(views::PlanPart::Layout));
        QCOMPARE(window.scene()->cardForKey(QStringLiteral("fabric")), fabric);
        QCOMPARE(fabric->pos(), QPointF(500, -200));
        QTest::qWait(300); // longer than the 150 ms the estimate waits for more edits
        QCOMPARE(estimates.size(), 0);
        QVERIFY(!window.scene()->isCountingFabric());
        // A rename is Name only: no card is rebuilt.
        model::Plan renamed = window.plan();
        renamed.name = "renamed";
        window.document()->edit(renamed, QStringLiteral("Rename"));
        QCOMPARE(changes.last()[0].value<views::PlanParts>(),
                 views::PlanParts(views::PlanPart::Name));
        QCOMPARE(window.scene()->cardForKey(QStringLiteral("fabric")), fabric);
        window.document()->undoStack()->undo();
        QCOMPARE(changes.size(), 3);
        // A new scenario changes no figure of the baseline shown: no estimate either. (The
        // rename above re-estimates: the name is in the headline.)
        QTRY_COMPARE(estimates.size(), 1);
        window.finishEstimate();
        estimates.clear();
        model::Plan withScenario = window.document()->documentPlan();
        withScenario.scenarios.push_back({"copy", nlohmann::json::object()});
        window.document()->editDocument(withScenario, QStringLiteral("Add scenario"));
        QCOMPARE(changes.last()[0].value<views::PlanParts>(),
                 views::PlanParts(views::PlanPart::Scenarios));
        QTest::qWait(300);
        QCOMPARE(estimates.size(), 0);
        window.document()->undoStack()->undo();
        changes.clear();

        model::Plan bigger = window.plan();
        bigger.nodeGroups[0].count = 64;
        window.document()->edit(bigger, QStringLiteral("Servers"));
        QCOMPARE(changes.size(), 1);
        const auto parts = changes[0][0].value<views::PlanParts>();
        QVERIFY(parts.testFlag(views::PlanPart::Servers));
        QVERIFY(!parts.testFlag(views::PlanPart::Layout)
                && !parts.testFlag(views::PlanPart::Fabric));
        QTRY_COMPARE(estimates.size(), 1);
        // Undo restores the layout as a Layout-only change too.
        window.document()->undoStack()->undo();
        window.document()->undoStack()->undo();
        QCOMPARE(changes.size(), 3);
        QCOMPARE(changes[2][0].value<views::PlanParts>(),
                 views::PlanParts(views::PlanPart::Layout));
        QVERIFY(window.scene()->cardForKey(QStringLiteral("fabric"))->pos() != QPointF(500, -200));
    }

    void openedPlanFillsTheCanvasUntilZoomed()
    {
        // Opened at 1366 x 768 and then maximised to 1920 x 1080 (the docks settle after the
        // first estimate too): the whole plan stays in view and fills most of it, rather than
        // being cut at the bottom or left a speck in a corner; once the user zooms, a resize
        // keeps their zoom.
        app::MainWindow window(m_catalog);
        window.resize(1366, 768);
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        QSignalSpy ready(window.controller(), &views::PlanEstimateController::estimateReady);
        QVERIFY(window.openPlan(m_sample));
        QVERIFY(ready.wait(60000));
        views::PlanCanvasView *canvas = window.canvas();
        const auto shownShare = [&] {
            QApplication::processEvents();
            const QRect plan
                = canvas->mapFromScene(canvas->scene()->itemsBoundingRect()).boundingRect();
            const QRect view = canvas->viewport()->rect();
            if (!view.contains(plan))
                return 0.0; // cut off
            return std::max(double(plan.width()) / view.width(),
                            double(plan.height()) / view.height());
        };
        QVERIFY2(shownShare() > 0.75, qPrintable(QString::number(shownShare())));
        window.resize(1920, 1080);
        QVERIFY2(shownShare() > 0.75, qPrintable(QString::number(shownShare())));
        canvas->zoomIn();
        const double zoomed = canvas->zoomFactor();
        window.resize(1366, 768);
        QApplication::processEvents();
        QCOMPARE(canvas->zoomFactor(), zoomed);
    }

    void propertyEditorEditsAreUndoable()
    {
        app::MainWindow window(m_catalog);
        window.show();
        QVERIFY(window.openPlan(m_sample));
        window.scene()->selectKey(QStringLiteral("group:0"));
        QCOMPARE(window.propertyEditor()->key(), QStringLiteral("group:0"));
        QSpinBox *count = nullptr;
        for (QSpinBox *box : window.propertyEditor()->findChildren<QSpinBox *>())
            if (box->suffix().contains(QStringLiteral("servers")))
                count = box;
        QVERIFY(count);
        count->setValue(64);
        emit count->editingFinished();
        QCOMPARE(window.plan().nodeGroups.front().count, 64);
        window.document()->undoStack()->undo();
        QCOMPARE(window.plan().nodeGroups.front().count, 128);
    }

    void unrackingAGroupClearsItsRowAndCabinetFill()
    {
        // A group dragged to hall row 2 with 3 servers a cabinet: "(not racked)" had been
        // refused ("hall_row: needs a rack") and the form has no row field, so only undo got
        // out of it. Unracked, the row and the servers per cabinet go with the rack.
        app::MainWindow window(m_catalog);
        window.show();
        QVERIFY(window.openPlan(m_sample));
        model::Plan plan = window.plan();
        plan.nodeGroups[0].hallRow = 2;
        plan.nodeGroups[0].nodesPerRack = 3;
        window.document()->edit(plan, QStringLiteral("Row 2"));
        window.scene()->selectKey(QStringLiteral("group:0"));
        QComboBox *rack = nullptr;
        for (QComboBox *combo : window.propertyEditor()->findChildren<QComboBox *>())
            if (combo->findText(QStringLiteral("(not racked)")) >= 0)
                rack = combo;
        QVERIFY(rack);
        rack->setCurrentIndex(rack->findText(QStringLiteral("(not racked)")));
        QVERIFY2(window.propertyEditor()->lastError().isEmpty(),
                 qPrintable(window.propertyEditor()->lastError()));
        QVERIFY(window.plan().nodeGroups[0].rackId.empty());
        QCOMPARE(window.plan().nodeGroups[0].hallRow, -1);
        QCOMPARE(window.plan().nodeGroups[0].nodesPerRack, 0);
        window.document()->undoStack()->undo();
        QCOMPARE(window.plan().nodeGroups[0].hallRow, 2);
        window.document()->undoStack()->setClean();
    }

    void searchedDimensionsShowTheSearchsChoice()
    {
        // The sample leaves every parallel dimension to the search; once its estimate is in,
        // each reads what the search chose (the Estimate panel's layout: TP 4 x PP 4 x DP 64,
        // interleave 10), not a bare "searched"; a dimension the user fixes shows its number.
        app::MainWindow window(m_catalog);
        window.resize(1366, 768);
        window.show();
        QSignalSpy ready(window.controller(), &views::PlanEstimateController::estimateReady);
        QVERIFY(window.openPlan(m_sample));
        QVERIFY(ready.wait(60000));
        views::PropertyEditor *editor = window.propertyEditor();
        editor->setKey(QStringLiteral("workload"));
        QTest::qWait(20); // the rebuilt form is laid out
        const model::PlanEstimate expected = model::estimatePlan(window.plan(), *m_catalog);
        QVERIFY(expected.training.found);
        const model::ParallelConfig &chosen = expected.training.best.config;
        const auto shown = [&](const char *label) {
            auto *box = editor->findChild<QSpinBox *>(QString::fromLatin1(label));
            return box ? box->text() : QString();
        };
        QCOMPARE(shown("Tensor parallel"), QStringLiteral("searched: %1").arg(chosen.tp));
        QCOMPARE(shown("Pipeline parallel"), QStringLiteral("searched: %1").arg(chosen.pp));
        QCOMPARE(shown("Data parallel"), QStringLiteral("searched: %1").arg(chosen.dp));
        QCOMPARE(shown("Interleave"), QStringLiteral("searched: %1").arg(chosen.interleave));
        // Stage sizes the search left to an even share say only "searched".
        if (chosen.firstStageLayers == 0)
            QCOMPARE(shown("First stage layers"), QStringLiteral("searched"));
        auto *tp = editor->findChild<QSpinBox *>(QStringLiteral("Tensor parallel"));
        QVERIFY(tp);
        auto *scroll = qobject_cast<QScrollArea *>(editor->parentWidget()->parentWidget());
        if (scroll)
            scroll->ensureWidgetVisible(tp);
        QDir().mkpath(QStringLiteral(CP_SCREENSHOT_DIR));
        QVERIFY(window.grab().save(
            QStringLiteral(CP_SCREENSHOT_DIR "/properties-searched-1366x768.png")));
    }

    void everyWorkloadAndFacilityFieldIsEditable()
    {
        // Training: sequence length, a parallel dimension fixed and back to searched, undo; a
        // token count that is not one is refused with the reason and changes nothing.
        app::MainWindow window(m_catalog);
        window.resize(1366, 768);
        window.show();
        QVERIFY(window.openPlan(m_sample));
        views::PropertyEditor *editor = window.propertyEditor();
        editor->setKey(QStringLiteral("workload"));
        QTest::qWait(20);
        QDir().mkpath(QStringLiteral(CP_SCREENSHOT_DIR));
        QVERIFY(window.grab().save(
            QStringLiteral(CP_SCREENSHOT_DIR "/properties-training-1366x768.png")));
        // In the 1366-pixel window's narrow dock, a choice whose name does not fit beside its
        // label goes below it and shows the name whole: the software profile's name, about
        // 20 characters, once fitted into a field beside its label and cut to 14.
        auto *software = editor->findChild<QComboBox *>(QStringLiteral("Software"));
        QVERIFY(software);
        const int softwareTextPixels
            = software->fontMetrics().horizontalAdvance(software->currentText());
        QVERIFY2(software->width() > softwareTextPixels + software->height(),
                 qPrintable(QStringLiteral("%1 px wide for %2 px of text")
                                .arg(software->width())
                                .arg(softwareTextPixels)));
        // ... and whole inside the dock: its drop-down arrow is not pushed out of view.
        QWidget *dockViewport = editor->parentWidget();
        QVERIFY(dockViewport);
        const QRect softwareInDock(software->mapTo(dockViewport, QPoint(0, 0)), software->size());
        QVERIFY2(softwareInDock.right() < dockViewport->width(),
                 qPrintable(QStringLiteral("ends at %1 of %2 px")
                                .arg(softwareInDock.right())
                                .arg(dockViewport->width())));
        auto *seq = editor->findChild<QSpinBox *>(QStringLiteral("Sequence length"));
        QVERIFY(seq);
        seq->setValue(4096);
        emit seq->editingFinished();
        QCOMPARE(window.plan().training.seqLen, 4096);
        auto *tp = editor->findChild<QSpinBox *>(QStringLiteral("Tensor parallel"));
        QVERIFY(tp);
        QCOMPARE(tp->text(), QStringLiteral("searched"));
        tp->setValue(8);
        emit tp->editingFinished();
        QCOMPARE(window.plan().training.constraints.tp, std::optional<int>(8));
        QCOMPARE(model::planToJson(window.plan())["workload"]["tp"].get<int>(), 8);
        window.document()->undoStack()->undo();
        QVERIFY(!window.plan().training.constraints.tp);
        window.document()->undoStack()->undo();
        QCOMPARE(window.plan().training.seqLen, 8192);
        for (const char *name : {"Global batch",       "Precision",
                                 "Attention",          "Sequence parallel",
                                 "TP comm overlap",    "MoE comm overlap",
                                 "MoE dispatcher",     "MTP layers",
                                 "DP overlap",         "Pipeline parallel",
                                 "Data parallel",      "Context parallel",
                                 "Expert parallel",    "Expert tensor parallel",
                                 "Microbatch",         "Interleave",
                                 "Recompute",          "ZeRO stage",
                                 "Gradient reduction", "Offloaded layers",
                                 "First stage layers", "Last stage layers"})
            QVERIFY2(editor->findChild<QWidget *>(QLatin1String(name)), name);
        // The ZeRO choice says what each stage costs, ZeRO-2's reduction every microbatch too.
        auto *zero = editor->findChild<QComboBox *>(QStringLiteral("ZeRO stage"));
        QVERIFY(zero);
        QVERIFY2(
            zero->toolTip().contains(QStringLiteral("reduce-scattered after every microbatch")),
            qPrintable(zero->toolTip()));
        // The last stage's own size: one undoable edit, written to the plan under its key.
        auto *lastStage = editor->findChild<QSpinBox *>(QStringLiteral("Last stage layers"));
        QVERIFY(lastStage);
        lastStage->setValue(7);
        emit lastStage->editingFinished();
        QCOMPARE(window.plan().training.constraints.lastStageLayers, std::optional<int>(7));
        QCOMPARE(model::planToJson(window.plan())["workload"]["last_stage_layers"].get<int>(), 7);
        editor = window.propertyEditor();
        lastStage = editor->findChild<QSpinBox *>(QStringLiteral("Last stage layers"));
        QCOMPARE(lastStage->value(), 7);
        window.resize(1366, 768);
        QVERIFY(saveWithFieldShown(window, lastStage,
                                   QStringLiteral("properties-stages-1366x768.png")));
        window.document()->undoStack()->undo();
        QVERIFY(!window.plan().training.constraints.lastStageLayers);
        editor = window.propertyEditor();
        // BF16 gradients reduced in 16 bits: written as an override of the profile, then undone.
        auto *gradients = editor->findChild<QComboBox *>(QStringLiteral("Gradient reduction"));
        QVERIFY(gradients);
        QCOMPARE(gradients->currentData().toString(), QStringLiteral("fp32"));
        // A narrow dock may cut the shown choice; each item's tooltip is its whole text (the
        // box's own tooltip explains the field).
        for (int item = 0; item < gradients->count(); ++item)
            QCOMPARE(gradients->itemData(item, Qt::ToolTipRole).toString(),
                     gradients->itemText(item));
        gradients->setCurrentIndex(gradients->findData(QStringLiteral("16-bit")));
        QVERIFY(!window.plan().training.framework.bf16GradientsInFp32);
        QCOMPARE(model::planToJson(window.plan())["workload"]["grad_reduce_in_fp32"].get<bool>(),
                 false);
        window.document()->undoStack()->undo();
        QVERIFY(window.plan().training.framework.bf16GradientsInFp32);
        // The loss kernel: the profile's fused Megatron one until Transformer Engine's is chosen,
        // which is written to the plan and renames the step's loss row; undone, it is gone.
        editor = window.propertyEditor();
        auto *crossEntropy = editor->findChild<QComboBox *>(QStringLiteral("Cross-entropy"));
        QVERIFY(crossEntropy);
        QCOMPARE(crossEntropy->currentData().toString(), QStringLiteral("native"));
        QCOMPARE(crossEntropy->count(), 3);
        crossEntropy->setCurrentIndex(crossEntropy->findData(QStringLiteral("te")));
        QCOMPARE(window.plan().training.framework.crossEntropy,
                 model::CrossEntropyKernel::TransformerEngine);
        QCOMPARE(model::planToJson(window.plan())["workload"]["cross_entropy"].get<std::string>(),
                 std::string("te"));
        editor = window.propertyEditor();
        crossEntropy = editor->findChild<QComboBox *>(QStringLiteral("Cross-entropy"));
        QVERIFY(saveWithFieldShown(window, crossEntropy,
                                   QStringLiteral("properties-cross-entropy-1366x768.png")));
        window.document()->undoStack()->undo();
        QCOMPARE(window.plan().training.framework.crossEntropy, model::CrossEntropyKernel::Native);
        QVERIFY(!model::planToJson(window.plan())["workload"].contains("cross_entropy"));
        // The MoE dispatcher: all-to-all, the profile's, until HybridEP (the flex dispatcher's
        // other backend beside DeepEP) is chosen, which is written to the plan; undone, it is gone.
        editor = window.propertyEditor();
        auto *dispatcher = editor->findChild<QComboBox *>(QStringLiteral("MoE dispatcher"));
        QVERIFY(dispatcher);
        QCOMPARE(dispatcher->currentData().toString(), QStringLiteral("alltoall"));
        QCOMPARE(dispatcher->count(), 3);
        QVERIFY(dispatcher->findData(QStringLiteral("deepep")) >= 0);
        dispatcher->setCurrentIndex(dispatcher->findData(QStringLiteral("hybridep")));
        QCOMPARE(window.plan().training.framework.moeDispatcher, model::MoeDispatcher::HybridEp);
        QCOMPARE(model::planToJson(window.plan())["workload"]["moe_dispatcher"].get<std::string>(),
                 std::string("hybridep"));
        editor = window.propertyEditor();
        dispatcher = editor->findChild<QComboBox *>(QStringLiteral("MoE dispatcher"));
        QCOMPARE(dispatcher->currentText(), QStringLiteral("HybridEP (deduplicated)"));
        QVERIFY(saveWithFieldShown(window, dispatcher,
                                   QStringLiteral("properties-moe-dispatcher-1366x768.png")));
        window.document()->undoStack()->undo();
        QCOMPARE(window.plan().training.framework.moeDispatcher, model::MoeDispatcher::AllToAll);
        QVERIFY(!model::planToJson(window.plan())["workload"].contains("moe_dispatcher"));
        // Offloaded layers: blank (none) until set; one undoable edit, written to the plan.
        editor = window.propertyEditor();
        auto *offload = editor->findChild<QSpinBox *>(QStringLiteral("Offloaded layers"));
        QVERIFY(offload);
        QCOMPARE(offload->value(), 0);
        offload->setValue(4);
        emit offload->editingFinished();
        QCOMPARE(window.plan().training.activationOffloadLayers, 4);
        QCOMPARE(
            model::planToJson(window.plan())["workload"]["activation_offload_layers"].get<int>(),
            4);
        window.document()->undoStack()->undo();
        QCOMPARE(window.plan().training.activationOffloadLayers, 0);
        // MTP layers: blank trains the model's own (Llama 3 70B has none); 0 or more is written.
        editor = window.propertyEditor();
        auto *mtp = editor->findChild<QSpinBox *>(QStringLiteral("MTP layers"));
        QVERIFY(mtp);
        QCOMPARE(mtp->text(), QStringLiteral("the model's (0)"));
        mtp->setValue(1);
        emit mtp->editingFinished();
        QCOMPARE(window.plan().trainingMtpLayers, std::optional<int>(1));
        QCOMPARE(model::planToJson(window.plan())["workload"]["mtp_layers"].get<int>(), 1);
        editor = window.propertyEditor();
        mtp = editor->findChild<QSpinBox *>(QStringLiteral("MTP layers"));
        QVERIFY(saveWithFieldShown(window, mtp, QStringLiteral("properties-mtp-1366x768.png")));
        window.document()->undoStack()->undo();
        QVERIFY(!window.plan().trainingMtpLayers);
        // Recompute modules: Megatron-Core's names, comma-separated; one undoable edit. An
        // unknown name is refused in red and changes nothing; choosing full recomputation drops
        // the modules in the same edit, so the plan never holds what its reader refuses.
        editor = window.propertyEditor();
        auto *modules = editor->findChild<QLineEdit *>(QStringLiteral("Recompute modules"));
        QVERIFY(modules);
        QVERIFY(modules->text().isEmpty());
        const int edits = window.document()->undoStack()->index();
        modules->setText(QStringLiteral("layernorm, attn"));
        emit modules->editingFinished();
        QVERIFY2(editor->lastError().contains(QStringLiteral("unknown recompute module \"attn\"")),
                 qPrintable(editor->lastError()));
        QCOMPARE(window.document()->undoStack()->index(), edits);
        QVERIFY(!window.plan().training.constraints.recomputeModules);
        modules = editor->findChild<QLineEdit *>(QStringLiteral("Recompute modules"));
        modules->setText(QStringLiteral("mlp, layernorm"));
        emit modules->editingFinished();
        QVERIFY(editor->lastError().isEmpty());
        QVERIFY(model::planToJson(window.plan())["workload"]["recompute_modules"]
                == nlohmann::json::parse(R"(["layernorm", "mlp"])"));
        editor = window.propertyEditor();
        modules = editor->findChild<QLineEdit *>(QStringLiteral("Recompute modules"));
        QCOMPARE(modules->text(), QStringLiteral("layernorm, mlp"));
        for (const QSize &size : {QSize(1920, 1080), QSize(1366, 768)}) {
            window.resize(size);
            QVERIFY(saveWithFieldShown(window, modules,
                                       QStringLiteral("properties-recompute-%1x%2.png")
                                           .arg(size.width())
                                           .arg(size.height())));
        }
        auto *recompute = editor->findChild<QComboBox *>(QStringLiteral("Recompute"));
        QVERIFY(recompute);
        recompute->setCurrentIndex(recompute->findData(QStringLiteral("full")));
        QVERIFY(!window.plan().training.constraints.recomputeModules);
        QCOMPARE(window.document()->undoStack()->index(), edits + 2);
        window.document()->undoStack()->undo();
        QVERIFY(window.plan().training.constraints.recomputeModules);
        window.document()->undoStack()->undo();
        QVERIFY(!window.plan().training.constraints.recomputeModules);

        editor = window.propertyEditor();
        const int undoCount = window.document()->undoStack()->count();
        auto *tokens = editor->findChild<QLineEdit *>(QStringLiteral("Tokens"));
        QVERIFY(tokens);
        QCOMPARE(tokens->text(), QStringLiteral("2 T"));
        tokens->setText(QStringLiteral("lots"));
        emit tokens->editingFinished();
        QVERIFY2(editor->lastError().contains(QStringLiteral("Tokens")),
                 qPrintable(editor->lastError()));
        QCOMPARE(window.document()->undoStack()->count(), undoCount);
        QCOMPARE(window.plan().training.tokens, 2e12);
        tokens = editor->findChild<QLineEdit *>(QStringLiteral("Tokens"));
        tokens->setText(QStringLiteral("300B"));
        emit tokens->editingFinished();
        QCOMPARE(window.plan().training.tokens, 300e9);
        QVERIFY(editor->lastError().isEmpty());

        // Facility: the preset's PUE until overridden.
        editor->setKey(QStringLiteral("facility"));
        auto *pue = editor->findChild<QDoubleSpinBox *>(QStringLiteral("PUE"));
        QVERIFY(pue);
        QVERIFY(pue->text().startsWith(QStringLiteral("preset: ")));
        pue->setValue(1.25);
        emit pue->editingFinished();
        QCOMPARE(window.plan().facility.pue, std::optional<double>(1.25));
        QVERIFY(editor->findChild<QDoubleSpinBox *>(QStringLiteral("Electricity")));
        QVERIFY(editor->findChild<QDoubleSpinBox *>(QStringLiteral("Carbon")));
        // A power budget below the full-load draw: IT 1,401.8 kW (tst_planestimator) x PUE 1.25
        // = 1,752 kW, "1.75 MW" to three digits, over "1.50 MW"; the diagnosis leads with it.
        auto *budget = editor->findChild<QDoubleSpinBox *>(QStringLiteral("Power budget"));
        QVERIFY(budget);
        QCOMPARE(budget->text(), QStringLiteral("none"));
        budget->setValue(1.5);
        emit budget->editingFinished();
        QCOMPARE(window.plan().facility.powerLimitWatts, std::optional<double>(1.5e6));
        window.finishEstimate();
        QVERIFY2(window.summaryView()->diagnosis().startsWith(
                     QStringLiteral("Over the facility's power budget: 1.75 MW at full load "
                                    "(IT x PUE) for 1.50 MW.")),
                 qPrintable(window.summaryView()->diagnosis()));

        // Campus: four buildings are refused until the interconnect has a capacity (the
        // loader's rule, with its reason); with one, the Estimate panel gains the campus row.
        auto *buildings = editor->findChild<QSpinBox *>(QStringLiteral("Buildings"));
        auto *interconnect = editor->findChild<QDoubleSpinBox *>(QStringLiteral("Interconnect"));
        QVERIFY(buildings && interconnect);
        buildings->setValue(4);
        emit buildings->editingFinished();
        QCOMPARE(window.plan().campus.buildings, 1);
        QVERIFY2(editor->lastError().contains(QStringLiteral("interconnect_tbps")),
                 qPrintable(editor->lastError()));
        interconnect = editor->findChild<QDoubleSpinBox *>(QStringLiteral("Interconnect"));
        interconnect->setValue(100);
        emit interconnect->editingFinished();
        QCOMPARE(window.plan().campus.interconnectBytesPerSecondPerBuilding, 100e12 / 8);
        buildings = editor->findChild<QSpinBox *>(QStringLiteral("Buildings"));
        buildings->setValue(4);
        emit buildings->editingFinished();
        QCOMPARE(window.plan().campus.buildings, 4);
        window.finishEstimate();
        const auto campusRows = [&] {
            return window.summaryView()
                ->findChildren<QTreeWidget *>()
                .front()
                ->findItems(QStringLiteral("Campus of 4 buildings"),
                            Qt::MatchRecursive | Qt::MatchExactly)
                .size();
        };
        QTRY_COMPARE_WITH_TIMEOUT(campusRows(), 1, 10000);
        QVERIFY(window.grab().save(
            QStringLiteral(CP_SCREENSHOT_DIR "/properties-campus-1366x768.png")));
        window.resize(1920, 1080);
        QTest::qWait(20);
        QVERIFY(window.grab().save(
            QStringLiteral(CP_SCREENSHOT_DIR "/properties-campus-1920x1080.png")));
        window.document()->undoStack()->undo();
        window.document()->undoStack()->undo();
        QCOMPARE(window.plan().campus.buildings, 1);

        // Inference: the hourly profile goes through the loader's check (24 hours).
        model::Plan serving = window.plan();
        serving.workloadType = model::WorkloadType::Inference;
        serving.inference.modelId = "llama-3-70b";
        serving.inference.inputTokens = 1024;
        serving.inference.outputTokens = 256;
        serving.inference.gpusPerReplica = 4; // 140 GB of FP16 weights on 80 GB GPUs
        window.document()->edit(serving, QStringLiteral("Serve"));
        editor->setKey(QStringLiteral("workload"));
        for (const char *name :
             {"Weights", "K/V cache", "Prompt tokens", "Output tokens", "Requests",
              "TTFT p95 target", "TPOT p95 target", "Batch", "GPUs per replica", "Pipeline stages",
              "Engine", "Engine batch limit", "Replicas", "Offline job"})
            QVERIFY2(editor->findChild<QWidget *>(QLatin1String(name)), name);
        // A fixed fleet without a rate is asked for its capacity within the targets; a fixed
        // batch would leave it no load to take, and is refused with the loader's reason.
        auto *replicas = editor->findChild<QSpinBox *>(QStringLiteral("Replicas"));
        replicas->setValue(4);
        emit replicas->editingFinished();
        QVERIFY2(editor->lastError().isEmpty(), qPrintable(editor->lastError()));
        QCOMPARE(window.plan().inference.replicas, std::optional<int>(4));
        auto *batch = editor->findChild<QSpinBox *>(QStringLiteral("Batch"));
        batch->setValue(8);
        emit batch->editingFinished();
        QVERIFY2(editor->lastError().contains(QStringLiteral("/workload/batch")),
                 qPrintable(editor->lastError()));
        QVERIFY(!window.plan().inference.batch);
        auto *rate = editor->findChild<QDoubleSpinBox *>(QStringLiteral("Requests"));
        rate->setValue(50);
        emit rate->editingFinished();
        QCOMPARE(window.plan().inference.ratePerSecond, std::optional<double>(50));
        replicas = editor->findChild<QSpinBox *>(QStringLiteral("Replicas"));
        replicas->setValue(4);
        emit replicas->editingFinished();
        QCOMPARE(window.plan().inference.replicas, std::optional<int>(4));
        // An offline job replaces the rate in one edit (the loader refuses both together); the
        // four replicas share it, and the Estimate shows how it runs.
        auto *offline = editor->findChild<QDoubleSpinBox *>(QStringLiteral("Offline job"));
        offline->setValue(3000);
        emit offline->editingFinished();
        QCOMPARE(window.plan().inference.offlineRequests, std::optional<long long>(3000));
        QVERIFY(!window.plan().inference.ratePerSecond);
        QCOMPARE(window.plan().inference.replicas, std::optional<int>(4));
        // The workload card says it is a job, in place of the rate.
        const QStringList cardLines
            = window.scene()->cardForKey(QStringLiteral("workload"))->lines();
        QVERIFY2(cardLines.contains(
                     QStringLiteral("offline job of %1 requests").arg(views::humanCount(3000))),
                 qPrintable(cardLines.join(QStringLiteral(" | "))));
        window.finishEstimate();
        const auto jobRows = [&] {
            return window.summaryView()
                ->findChildren<QTreeWidget *>()
                .front()
                ->findItems(QStringLiteral("Offline job"), Qt::MatchRecursive | Qt::MatchExactly)
                .size();
        };
        QTRY_COMPARE_WITH_TIMEOUT(jobRows(), 1, 10000);
        // A rate again: online serving, the job gone; undo brings the job back.
        rate = editor->findChild<QDoubleSpinBox *>(QStringLiteral("Requests"));
        rate->setValue(50);
        emit rate->editingFinished();
        QCOMPARE(window.plan().inference.ratePerSecond, std::optional<double>(50));
        QVERIFY(!window.plan().inference.offlineRequests);
        window.document()->undoStack()->undo();
        QCOMPARE(window.plan().inference.offlineRequests, std::optional<long long>(3000));
        window.document()->undoStack()->redo();
        auto *limit = editor->findChild<QSpinBox *>(QStringLiteral("Engine batch limit"));
        limit->setValue(64);
        emit limit->editingFinished();
        QCOMPARE(window.plan().inference.maxBatch, std::optional<int>(64));
        auto *hours = editor->findChild<QLineEdit *>(QStringLiteral("Hourly traffic"));
        QVERIFY(hours);
        hours->setText(QStringLiteral("1, 2, 3"));
        emit hours->editingFinished();
        QVERIFY2(editor->lastError().contains(QStringLiteral("/workload/diurnal")),
                 qPrintable(editor->lastError()));
        QVERIFY(window.plan().inference.diurnalRates.empty());
    }

    void workloadSoftwareIsEditable()
    {
        // The training software is a Properties choice, an undoable edit that changes the plan
        // file and the estimate's profile.
        app::MainWindow window(m_catalog);
        window.show();
        QVERIFY(window.openPlan(m_sample));
        window.propertyEditor()->setKey(QStringLiteral("workload"));
        QComboBox *software = nullptr;
        for (QComboBox *combo : window.propertyEditor()->findChildren<QComboBox *>())
            if (combo->findData(QStringLiteral("megatron-lm-2021")) >= 0)
                software = combo;
        QVERIFY(software);
        QCOMPARE(software->currentData().toString(), QStringLiteral("megatron-core-2024"));
        software->setCurrentIndex(software->findData(QStringLiteral("megatron-lm-2021")));
        QCOMPARE(window.plan().training.framework.id, std::string("megatron-lm-2021"));
        QCOMPARE(model::planToJson(window.plan())["workload"]["framework"].get<std::string>(),
                 std::string("megatron-lm-2021"));
        window.document()->undoStack()->undo();
        QCOMPARE(window.plan().training.framework.id, std::string("megatron-core-2024"));
    }

    void generateFatTreeOntoTheCanvas()
    {
        app::MainWindow window(m_catalog);
        window.show();
        QVERIFY(window.openPlan(m_sample));
        views::FabricGeneratorDialog dialog(window.plan(), m_catalog);
        auto *topology = dialog.findChildren<QComboBox *>().front();
        topology->setCurrentText(QStringLiteral("fat-tree"));
        dialog.waitForPreview();
        // 128 nodes x 8 NICs = 1,024 endpoints on radix-64 switches, 2 tiers: 32 leaves, 16 spines.
        QVERIFY2(dialog.previewText().contains(
                     QStringLiteral("1,024 endpoints for 1,024 NICs, 48 switches")),
                 qPrintable(dialog.previewText()));
        window.document()->edit(dialog.result(), QStringLiteral("Generate fat-tree"));
        QCOMPARE(window.plan().fabric.topology, std::string("fat-tree"));
        const auto f = model::planFabric(window.plan(), *m_catalog);
        const model::FabricGraph graph = model::generateFabric(f->design);
        int switches = 0;
        for (model::FabricVertexId v = 0; v < graph.vertexCount(); ++v)
            switches += graph.vertex(v).role == model::FabricVertexRole::Switch;
        QCOMPARE(switches, 48);
        // The graph is built on a worker thread; the card says so until the count is in.
        auto *fabric = dynamic_cast<views::FabricItem *>(
            window.scene()->cardForKey(QStringLiteral("fabric")));
        QVERIFY(fabric);
        QVERIFY(fabric->title().contains(QStringLiteral("fat-tree")));
        // (delivered through the event loop, which has not run since the edit)
        QVERIFY(fabric->lines().join(QLatin1Char(' ')).contains(QStringLiteral("counting")));
        window.scene()->waitForFabricSummary();
        fabric = dynamic_cast<views::FabricItem *>(
            window.scene()->cardForKey(QStringLiteral("fabric")));
        // Catalog names, not ids: "1,024 x <NIC name>", the switch's name.
        const QString text = fabric->lines().join(QLatin1Char(' '));
        const QString nicName = QString::fromStdString(m_catalog->nic("ib-ndr-400").name);
        const QString switchName = QString::fromStdString(m_catalog->networkSwitch("qm9700").name);
        QVERIFY2(text.contains(QStringLiteral("1,024 x ") + nicName), qPrintable(text));
        QVERIFY2(text.contains(switchName), qPrintable(text));
        QVERIFY(!text.contains(QStringLiteral("ib-ndr-400"))
                && !text.contains(QStringLiteral("qm9700")));
        QCOMPARE(fabric->tiers().size(), std::size_t(2));
        QCOMPARE(fabric->tiers()[0].switches + fabric->tiers()[1].switches, 48);
        // Cards: workload, facility, fabric, one server group, one storage.
        QCOMPARE(window.scene()->cards().size(), 5);
        window.document()->undoStack()->undo();
        QCOMPARE(window.plan().fabric.topology, std::string("rail-fat-tree"));
    }

    void generatorRefusesAFabricThatCannotCarryThePlan()
    {
        app::MainWindow window(m_catalog);
        window.show();
        QVERIFY(window.openPlan(m_sample));
        views::FabricGeneratorDialog dialog(window.plan(), m_catalog);
        auto *topology = dialog.findChildren<QComboBox *>().front();
        topology->setCurrentText(QStringLiteral("torus"));
        dialog.waitForPreview();
        // The default is sized from the plan: 128 servers x 8 NICs = 1,024 chips = 8x8x16.
        auto *dims = dialog.findChild<QLineEdit *>(QStringLiteral("torusDims"));
        QCOMPARE(dims->text(), QStringLiteral("8x8x16"));
        QVERIFY2(dialog.previewText().contains(QStringLiteral("1,024 endpoints for 1,024 NICs")),
                 qPrintable(dialog.previewText()));
        QVERIFY(dialog.canGenerate());
        // 4x4x4 has 64 chips for 1,024 NICs: refused with the reason and a size that works.
        dims->setText(QStringLiteral("4x4x4"));
        emit dims->editingFinished();
        dialog.waitForPreview();
        QVERIFY2(dialog.previewText().contains(QStringLiteral("64 endpoints, fewer than the 1024")),
                 qPrintable(dialog.previewText()));
        QVERIFY(dialog.previewText().contains(QStringLiteral("8x8x16")));
        QVERIFY(!dialog.canGenerate());
        dialog.accept(); // Enter or a script: still refused
        QCOMPARE(dialog.QDialog::result(), int(QDialog::Rejected));
        QCOMPARE(window.plan().fabric.topology, std::string("rail-fat-tree"));
    }

    void generatorShowsOnlyTheSelectedTopologysFields()
    {
        views::FabricGeneratorDialog dialog(
            model::loadPlan(m_sample.toStdString(), m_catalog.get()), m_catalog);
        auto *topology = dialog.findChildren<QComboBox *>().front();
        auto *dims = dialog.findChild<QLineEdit *>(QStringLiteral("torusDims"));
        QList<QSpinBox *> boxes;
        for (const char *name : {"tiers", "serversPerScalableUnit", "dragonflyA", "dragonflyP",
                                 "dragonflyH", "dragonflyGroups"})
            boxes << dialog.findChild<QSpinBox *>(QLatin1String(name));
        QVERIFY(!boxes.contains(nullptr));
        topology->setCurrentText(QStringLiteral("rail-fat-tree"));
        QVERIFY(dialog.isFieldShown(boxes[0]) && dialog.isFieldShown(boxes[1]));
        for (int i = 2; i < 6; ++i)
            QVERIFY(!dialog.isFieldShown(boxes[i]));
        QVERIFY(!dialog.isFieldShown(dims));
        topology->setCurrentText(QStringLiteral("dragonfly"));
        QVERIFY(!dialog.isFieldShown(boxes[0]) && !dialog.isFieldShown(boxes[1]));
        for (int i = 2; i < 6; ++i)
            QVERIFY(dialog.isFieldShown(boxes[i]));
        dialog.waitForPreview();
        // Derived for 1,024 endpoints on the sample's 64-port switches: the balanced design
        // with the fewest of them, p = 16, a = 32, h = 16, routers of 63 ports in 2 groups (see
        // tst_fabric dragonflyParametersAreChecked); it once took p = 4 and used 15 ports of
        // each switch, four times the switches.
        QVERIFY2(dialog.previewText().contains(QStringLiteral("p = 16, a = 32, h = 16")),
                 qPrintable(dialog.previewText()));
        QVERIFY2(dialog.previewText().contains(QStringLiteral("64 switches")),
                 qPrintable(dialog.previewText()));
        topology->setCurrentText(QStringLiteral("torus"));
        QVERIFY(dialog.isFieldShown(dims));
        QVERIFY(!dialog.isFieldShown(boxes[0]));
        dialog.waitForPreview();
    }

    void copyPasteDelete()
    {
        app::MainWindow window(m_catalog);
        window.show();
        QVERIFY(window.openPlan(m_sample));
        window.scene()->selectKey(QStringLiteral("group:0"));
        window.scene()->copySelection();
        window.scene()->paste();
        QCOMPARE(window.plan().nodeGroups.size(), std::size_t(2));
        QCOMPARE(window.plan().nodeGroups[1].count, 128);
        window.scene()->selectKey(QStringLiteral("group:0"));
        window.scene()->deleteSelection();
        QCOMPARE(window.plan().nodeGroups.size(), std::size_t(1));
        QVERIFY(window.plan().nodeGroups[0].name.find("(copy)") != std::string::npos);
        window.document()->undoStack()->undo();
        window.document()->undoStack()->undo();
        QCOMPARE(window.plan().nodeGroups.size(), std::size_t(1));
        QCOMPARE(window.plan().nodeGroups[0].name, std::string("compute"));
    }

    void deletingOrRenamingAGroupKeepsItsReferences()
    {
        // The shared-cluster sample: groups compute (224) and dev (32); its fifth job class runs
        // on the partition 'dev', and its scenario "4,096 GPUs" changes group 0's count to 480.
        app::MainWindow window(m_catalog);
        window.show();
        QVERIFY(window.openPlan(
            QStringLiteral(CP_SOURCE_DIR "/samples/h100-2048-shared-cluster.json")));
        QCOMPARE(window.plan().portfolio.classes[4].partition, std::string("dev"));
        const int edits = window.document()->undoStack()->count();

        // Deleting dev would leave that class on no group: refused, with the loader's pointer.
        window.scene()->selectKey(QStringLiteral("group:1"));
        window.scene()->deleteSelection();
        QCOMPARE(window.plan().nodeGroups.size(), std::size_t(2));
        QCOMPARE(window.document()->undoStack()->count(), edits);
        QVERIFY2(window.statusBar()->currentMessage().startsWith(
                     QStringLiteral("Not deleted: Delete: /portfolio/classes/4/partition")),
                 qPrintable(window.statusBar()->currentMessage()));

        // Renaming dev takes the class with it (it had kept 'dev' and the file would not open).
        window.scene()->selectKey(QStringLiteral("group:1"));
        QLineEdit *name = nullptr;
        for (QLineEdit *edit : window.propertyEditor()->findChildren<QLineEdit *>())
            if (edit->text() == QStringLiteral("dev"))
                name = edit;
        QVERIFY(name);
        name->setText(QStringLiteral("devbox"));
        emit name->editingFinished();
        QCOMPARE(window.plan().nodeGroups[1].name, std::string("devbox"));
        QCOMPARE(window.plan().portfolio.classes[4].partition, std::string("devbox"));

        // A copy of compute after dev (group 2), a scenario change to it, then compute deleted
        // in the baseline: the scenario's change to group 0 goes with it, and its change to
        // the copy follows the copy to index 1 (it had stayed at 2, past the end: the scenario
        // broke and the saved file would not open). dev's partition class is untouched.
        window.scene()->selectKey(QStringLiteral("group:0"));
        window.scene()->copySelection();
        window.scene()->paste();
        QCOMPARE(window.plan().nodeGroups.size(), std::size_t(3));
        model::Plan document = window.document()->documentPlan();
        document.scenarios[0].changes["nodes"]["2"] = {{"count", 64}};
        window.document()->editDocument(document, QStringLiteral("Scenario change to the copy"));
        window.scene()->selectKey(QStringLiteral("group:0"));
        window.scene()->deleteSelection();
        QCOMPARE(window.plan().nodeGroups.size(), std::size_t(2));
        const model::Plan &after = window.document()->documentPlan();
        QVERIFY2(after.scenarios[0].changes["nodes"] == nlohmann::json({{"1", {{"count", 64}}}}),
                 after.scenarios[0].changes.dump().c_str());
        const model::Plan scenario = model::scenarioPlan(after, 0, m_catalog.get());
        QCOMPARE(scenario.nodeGroups[0].name, std::string("devbox"));
        QCOMPARE(scenario.nodeGroups[0].count, 32);
        QCOMPARE(scenario.nodeGroups[1].count, 64);
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("deleted.json"));
        QVERIFY(window.savePlan(path));
        app::MainWindow reopened(m_catalog);
        QVERIFY(reopened.openPlan(path));
        window.document()->undoStack()->setClean();
    }

    void saveReopenCompare()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("edited.json"));
        app::MainWindow window(m_catalog);
        window.show();
        QVERIFY(window.openPlan(m_sample));
        dropOnCanvas(window, {model::CatalogKind::Storage, "weka-flash", 2}, emptyPoint(window));
        QCOMPARE(window.plan().storage.size(), std::size_t(2));
        QVERIFY(window.savePlan(path));
        QVERIFY(!window.document()->isModified());
        app::MainWindow reopened(m_catalog);
        QVERIFY(reopened.openPlan(path));
        QVERIFY(model::planToJson(reopened.plan()) == model::planToJson(window.plan()));
        QVERIFY(reopened.scene()->cardForKey(QStringLiteral("storage:1")));
    }

    void autosaveIsOfferedAfterACrash()
    {
        const QString autosave = app::MainWindow::autosavePath();
        QFile::remove(autosave);
        {
            app::MainWindow crashed(m_catalog);
            QVERIFY(crashed.openPlan(m_sample));
            dropOnCanvas(crashed, {model::CatalogKind::Node, "dgx-b200", 4}, emptyPoint(crashed));
            crashed.autosaveNow();
            QVERIFY(QFileInfo::exists(autosave));
            crashed.document()->undoStack()->setClean(); // the "crash": no clean exit path runs
        }
        QVERIFY(QFileInfo::exists(autosave));
        app::MainWindow next(m_catalog);
        QTimer::singleShot(0, [] {
            auto *box = qobject_cast<QMessageBox *>(QApplication::activeModalWidget());
            if (box)
                box->button(QMessageBox::Yes)->click();
        });
        next.offerRecovery();
        QCOMPARE(next.plan().nodeGroups.size(), std::size_t(2));
        QCOMPARE(next.plan().nodeGroups.back().nodeId, std::string("dgx-b200"));
        QVERIFY(next.document()->isModified()); // recovered work still needs saving
        QVERIFY(!QFileInfo::exists(autosave));
        next.document()->undoStack()->setClean();
    }

    static views::PortItem *portOf(app::MainWindow &window, const QString &key)
    {
        views::PlanCardItem *card = window.scene()->cardForKey(key);
        for (QGraphicsItem *child : card->childItems())
            if (auto *port = dynamic_cast<views::PortItem *>(child))
                return port;
        return nullptr;
    }

    /** Drags a link from `key`'s port to viewport point `to`, as the mouse would. */
    static void dragLink(app::MainWindow &window, const QString &key, QPoint to)
    {
        views::PortItem *port = portOf(window, key);
        QVERIFY(port);
        QWidget *viewport = window.canvas()->viewport();
        const QPoint from = window.canvas()->mapFromScene(port->scenePos());
        QTest::mousePress(viewport, Qt::LeftButton, {}, from);
        QTest::mouseMove(viewport, (from + to) / 2);
        QTest::mouseMove(viewport, to);
        QTest::mouseRelease(viewport, Qt::LeftButton, {}, to);
    }

    void linksConnectAndDisconnect()
    {
        app::MainWindow window(m_catalog);
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        QVERIFY(window.openPlan(m_sample));
        window.canvas()->fitAll();
        QVERIFY(portOf(window, QStringLiteral("group:0"))->connected());

        // Dragging the group's link off into empty canvas unplugs it; undo plugs it back.
        dragLink(window, QStringLiteral("group:0"), emptyPoint(window));
        QVERIFY(!window.plan().nodeGroups[0].onFabric);
        QVERIFY(window.scene()
                    ->cardForKey(QStringLiteral("group:0"))
                    ->warning()
                    .contains(QStringLiteral("not connected to the fabric")));
        QVERIFY(!portOf(window, QStringLiteral("group:0"))->connected());
        QDir().mkpath(QStringLiteral(CP_SCREENSHOT_DIR));
        QVERIFY(window.grab().save(QStringLiteral(CP_SCREENSHOT_DIR "/canvas-unplugged.png")));
        window.document()->undoStack()->undo();
        QVERIFY(window.plan().nodeGroups[0].onFabric);
        window.document()->undoStack()->redo();
        QVERIFY(!window.plan().nodeGroups[0].onFabric);

        // Dropping the link on the fabric card connects it again.
        dragLink(window, QStringLiteral("group:0"),
                 viewportPointOf(window, QStringLiteral("fabric")));
        QVERIFY(window.plan().nodeGroups[0].onFabric);

        // A link onto the workload card is refused with what a link can join; nothing changes.
        const int edits = window.document()->undoStack()->count();
        dragLink(window, QStringLiteral("storage:0"),
                 viewportPointOf(window, QStringLiteral("workload")));
        QCOMPARE(window.document()->undoStack()->count(), edits);
        QVERIFY2(window.statusBar()->currentMessage().contains(QStringLiteral("cannot take one")),
                 qPrintable(window.statusBar()->currentMessage()));

        // A selected link and Delete unplug the storage.
        window.scene()->clearSelection();
        for (QGraphicsItem *item : window.scene()->items())
            if (item->data(0).toString() == QStringLiteral("storage:0"))
                item->setSelected(true);
        window.scene()->deleteSelection();
        QVERIFY(!window.plan().storage[0].onFabric);
        QCOMPARE(window.plan().storage.size(), std::size_t(1)); // the storage itself stays
    }

    void aNewTopologyRebuildsTheFabricForm()
    {
        // The sample's rail fabric shows Planes, a rail fabric's own choice. Changing the
        // topology to a plain fat-tree left that row on the form, and choosing "one plane per
        // rail" there saved multi_plane into a fat-tree; the form now follows the topology.
        app::MainWindow window(m_catalog);
        window.show();
        QVERIFY(window.openPlan(m_sample));
        window.scene()->clearSelection();
        window.scene()->cardForKey(QStringLiteral("fabric"))->setSelected(true);
        const auto formHasRow = [&window](const QString &label) {
            QCoreApplication::sendPostedEvents(nullptr, QEvent::DeferredDelete);
            for (const QLabel *row : window.propertyEditor()->findChildren<QLabel *>())
                if (row->text() == label && !row->isHidden())
                    return true;
            return false;
        };
        QVERIFY(formHasRow(QStringLiteral("Planes")));
        QComboBox *topology = nullptr;
        for (QComboBox *combo : window.propertyEditor()->findChildren<QComboBox *>())
            if (combo->findText(QStringLiteral("rail-fat-tree")) >= 0)
                topology = combo;
        QVERIFY(topology);
        topology->setCurrentText(QStringLiteral("fat-tree"));
        QCOMPARE(window.plan().fabric.topology, std::string("fat-tree"));
        QVERIFY(!formHasRow(QStringLiteral("Planes")));
        QVERIFY(formHasRow(QStringLiteral("Topology")));
    }

    void fabricFormRefusesASwitchThatCannotCarryTheNic()
    {
        // The sample's fabric: InfiniBand NDR NICs on QM9700 InfiniBand switches. RoCE NICs
        // under them were accepted and the estimate only said the fabric could not be built; a
        // drop refuses them, and so does the form now. With the switch left to match the NIC,
        // the same change goes through.
        app::MainWindow window(m_catalog);
        window.show();
        QVERIFY(window.openPlan(m_sample));
        window.scene()->selectKey(QStringLiteral("fabric"));
        const auto comboWith = [&window](const QString &itemText) -> QComboBox * {
            for (QComboBox *combo : window.propertyEditor()->findChildren<QComboBox *>())
                if (combo->findText(itemText, Qt::MatchContains) >= 0)
                    return combo;
            return nullptr;
        };
        QComboBox *nic = comboWith(QStringLiteral("RoCE v2 400 GbE"));
        QVERIFY(nic);
        const int edits = window.document()->undoStack()->count();
        nic->setCurrentIndex(nic->findText(QStringLiteral("RoCE v2 400 GbE"), Qt::MatchContains));
        QCOMPARE(window.plan().fabric.nicId, std::string("ib-ndr-400"));
        QCOMPARE(window.document()->undoStack()->count(), edits);
        QVERIFY2(window.propertyEditor()->lastError().contains(
                     QStringLiteral("an InfiniBand switch cannot carry RoCE links")),
                 qPrintable(window.propertyEditor()->lastError()));

        // The refusal is the fabric form's: another card's form does not show it.
        window.scene()->selectKey(QStringLiteral("group:0"));
        QVERIFY(window.propertyEditor()->lastError().isEmpty());
        window.scene()->selectKey(QStringLiteral("fabric"));

        QComboBox *sw = comboWith(QStringLiteral("(matching the NIC)"));
        QVERIFY(sw);
        sw->setCurrentIndex(sw->findText(QStringLiteral("(matching the NIC)")));
        QVERIFY(window.plan().fabric.switchId.empty());
        nic = comboWith(QStringLiteral("RoCE v2 400 GbE"));
        nic->setCurrentIndex(nic->findText(QStringLiteral("RoCE v2 400 GbE"), Qt::MatchContains));
        QCOMPARE(window.plan().fabric.nicId, std::string("roce-400g"));
        window.document()->undoStack()->setClean();
    }

    /** True when some point of `path` lies inside `rect` shrunk by a pixel (its edge allowed). */
    static bool pathEntersRect(const QPainterPath &path, const QRectF &rect)
    {
        const QRectF inside = rect.adjusted(1, 1, -1, -1);
        for (int step = 0; step <= 400; ++step)
            if (inside.contains(path.pointAtPercent(step / 400.0)))
                return true;
        return false;
    }

    void fabricLinkRoutesKeepOffTheCards()
    {
        using views::FabricLinkItem;
        // Cards 190 x 100 as the canvas lays them out; the port sits on the middle of a card's top.
        const QRectF fabric(300, 0, 190, 100);

        // Fabric above, port right under its middle: one straight drop onto its bottom edge.
        const QRectF below(300, 200, 190, 100);
        QCOMPARE(FabricLinkItem::route(fabric, below, {395, 200}),
                 (QList<QPointF> {{395, 200}, {395, 100}}));

        // Fabric above, port far to its right (x 720): down from the fabric's bottom edge 16 in
        // from its right corner (490 - 16 = 474), a jog half-way down ((100 + 200) / 2 = 150).
        const QRectF belowRight(625, 200, 190, 100);
        QCOMPARE(FabricLinkItem::route(fabric, belowRight, {720, 200}),
                 (QList<QPointF> {{720, 200}, {720, 150}, {474, 150}, {474, 100}}));

        // Storage beside the fabric, tops level (the samples' layout): up 24 above both tops,
        // across, and down onto the fabric's top edge, never through either card.
        const QRectF beside(520, 0, 190, 70);
        const QList<QPointF> overTheTop = FabricLinkItem::route(fabric, beside, {615, 0});
        QCOMPARE(overTheTop, (QList<QPointF> {{615, 0}, {615, -24}, {474, -24}, {474, 0}}));
        const QPainterPath overPath = FabricLinkItem::roundedPath(overTheTop, 10);
        QVERIFY(!pathEntersRect(overPath, fabric));
        QVERIFY(!pathEntersRect(overPath, beside));
        QCOMPARE(overPath.pointAtPercent(0), QPointF(615, 0));
        QCOMPARE(overPath.pointAtPercent(1), QPointF(474, 0));

        // A card straight above the fabric: a drop onto the fabric's top would run through the
        // card, so the cable goes round the card's side (its right edge 490 + 24 = 514, beyond
        // the fabric's right edge 490) and into the fabric's right edge at its middle (y 50).
        const QRectF above(300, -200, 190, 100);
        const QList<QPointF> round = FabricLinkItem::route(fabric, above, {395, -200});
        QCOMPARE(round,
                 (QList<QPointF> {{395, -200}, {395, -224}, {514, -224}, {514, 50}, {490, 50}}));
        const QPainterPath roundPath = FabricLinkItem::roundedPath(round, 10);
        QVERIFY(!pathEntersRect(roundPath, fabric));
        QVERIFY(!pathEntersRect(roundPath, above));

        // A second row: the lower card's cable may not run under the card above it. Around it,
        // the shortest way is 459 long: up 24 out of the port (400 -> 376), 119 across to the
        // channel left of the upper card (395 -> 276, 24 off its edge), 276 up to 24 under the
        // fabric (376 -> 100), 40 across into the fabric's landing margin (276 -> 316). A way with
        // one bend fewer may be up to a bend's worth (40) longer.
        const QRectF upper(300, 200, 190, 100);
        const QRectF lower(300, 400, 190, 100);
        const QList<QPointF> around = FabricLinkItem::route(fabric, lower, {395, 400}, {upper});
        QCOMPARE(around.front(), QPointF(395, 400));
        QCOMPARE(around[1].x(), 395.0);
        QVERIFY(around[1].y() < 400); // out of the port upwards
        double length = 0;
        for (qsizetype i = 0; i + 1 < around.size(); ++i) {
            const QPointF from = around[i];
            const QPointF to = around[i + 1];
            QVERIFY(from.x() == to.x() || from.y() == to.y()); // horizontal or vertical runs
            for (const QRectF &card : {fabric, upper, lower})
                QVERIFY2(!views::CableRouter::crosses(from, to, card),
                         qPrintable(QStringLiteral("run %1").arg(i)));
            length += QLineF(from, to).length();
        }
        QVERIFY(fabric.adjusted(-0.5, -0.5, 0.5, 0.5).contains(around.back()));
        QVERIFY(!fabric.adjusted(1, 1, -1, -1).contains(around.back()));
        QVERIFY2(length >= 459 - 1e-9 && length <= 459 + 40, qPrintable(QString::number(length)));
        // Without the upper card in the way the direct drop stays.
        QCOMPARE(FabricLinkItem::route(fabric, lower, {395, 400}),
                 (QList<QPointF> {{395, 400}, {395, 100}}));
        // A card sitting on the port leaves the router no way out; the cable then takes the
        // direct way rather than none.
        const QRectF lid(280, 380, 230, 20);
        views::CableRouter::Layout boxed;
        boxed.fabricCard = fabric;
        boxed.cards = {lower, lid};
        boxed.ports = {QPointF(395, 400)};
        QVERIFY(!views::CableRouter(boxed).route({395, 400}));
        QCOMPARE(FabricLinkItem::route(fabric, lower, {395, 400}, {lid}).size(), 2);

        // Past CableRouter::maxCards (100) cards the router stands aside and the cables take the
        // direct way: its grid grows with the square of the cards. The detour above with 98 far
        // cards beside it (100 in all) is still found; with 99 (101) it is not.
        views::CableRouter::Layout many;
        many.fabricCard = fabric;
        many.cards = {upper, lower};
        many.ports = {QPointF(395, 400)};
        for (int far = 0; far < 98; ++far)
            many.cards << QRectF(2000 + 30 * far, 2000, 20, 20);
        QVERIFY(views::CableRouter(many).route({395, 400}));
        many.cards << QRectF(5000, 5000, 20, 20);
        QVERIFY(!views::CableRouter(many).route({395, 400}));

        // Bends shorter than twice the radius take half the run, so a bend never overshoots.
        const QPainterPath tight = FabricLinkItem::roundedPath({{0, 0}, {0, -6}, {40, -6}}, 10);
        QCOMPARE(tight.pointAtPercent(0), QPointF(0, 0));
        QCOMPARE(tight.pointAtPercent(1), QPointF(40, -6));
        QVERIFY(tight.boundingRect().top() >= -6.01);
    }

    static QList<views::FabricLinkItem *> linksOf(app::MainWindow &window)
    {
        QList<views::FabricLinkItem *> links;
        for (QGraphicsItem *item : window.scene()->items())
            if (auto *link = dynamic_cast<views::FabricLinkItem *>(item))
                links << link;
        return links;
    }

    /** `link` lands on the fabric card's border and passes under no card, its own and the
     *  fabric card included. */
    static void checkLandsOnTheFabricOverNoCard(app::MainWindow &window,
                                                const views::FabricLinkItem &link)
    {
        const QPainterPath path = link.path();
        const QRectF fabric
            = window.scene()->cardForKey(QStringLiteral("fabric"))->sceneBoundingRect();
        const QPointF end = path.pointAtPercent(1);
        QVERIFY(fabric.adjusted(-0.5, -0.5, 0.5, 0.5).contains(end));
        QVERIFY(!fabric.adjusted(1, 1, -1, -1).contains(end));
        for (views::PlanCardItem *card : window.scene()->cards())
            QVERIFY2(!pathEntersRect(path, card->sceneBoundingRect()),
                     qPrintable(link.cardKey() + QLatin1String(" under ") + card->key()));
    }

    void fabricLinksRunIntoThePorts()
    {
        app::MainWindow window(m_catalog);
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        QVERIFY(window.openPlan(m_sample));
        const QList<views::FabricLinkItem *> links = linksOf(window);
        QCOMPARE(links.size(), 2); // the compute group and the storage, both cabled in the sample
        QStringList labels;
        for (views::FabricLinkItem *link : links) {
            // Each cable starts at its card's port and ends on the fabric card's border; it
            // passes under no card (the storage card sits beside the fabric card).
            const QPainterPath path = link->path();
            QCOMPARE(path.pointAtPercent(0), portOf(window, link->cardKey())->scenePos());
            checkLandsOnTheFabricOverNoCard(window, *link);
            // Picking follows the stroke: the middle of the area a bend encloses is not the link.
            QVERIFY(link->shape().contains(path.pointAtPercent(0.5)));
            QVERIFY(!link->shape().contains(path.boundingRect().center())
                    || path.boundingRect().width() < 10 || path.boundingRect().height() < 10);
            labels << link->label();
        }
        // Each cable says what it carries: 128 DGX H100 x 8 NDR 400 NICs, and 4 AI400X2 systems
        // x the catalog's 8 HDR 200 front-end ports.
        labels.sort();
        QCOMPARE(
            labels,
            (QStringList {QStringLiteral("1,024 × 400 Gb/s"), QStringLiteral("32 × 200 Gb/s")}));

        // Six server groups lay out in two rows under the fabric: every cable, the second row's
        // too, keeps off every card and lands on the fabric card.
        model::Plan crowded = window.plan();
        for (int team = 0; team < 5; ++team) {
            model::NodeGroup group = crowded.nodeGroups.front();
            group.name = "team-" + std::to_string(team);
            group.count = 8;
            crowded.nodeGroups.push_back(group);
        }
        window.document()->edit(crowded, QStringLiteral("add teams"));
        const QList<views::FabricLinkItem *> crowdedLinks = linksOf(window);
        QCOMPARE(crowdedLinks.size(), 7); // six groups and the storage
        for (views::FabricLinkItem *link : crowdedLinks)
            checkLandsOnTheFabricOverNoCard(window, *link);
    }

    void aMovedCardKeepsItsCable()
    {
        // Dragging a card re-routes its cable into the port where the port now is; the cable and
        // its label stay the same items, saying the same (a drag step re-routes every cable, and
        // making their labels anew was most of its cost); the tooltip does not grow with moves.
        app::MainWindow window(m_catalog);
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        QVERIFY(window.openPlan(m_sample));
        const QString key = views::groupKey(0);
        const auto linkOf = [&]() -> views::FabricLinkItem * {
            for (views::FabricLinkItem *link : linksOf(window))
                if (link->cardKey() == key)
                    return link;
            return nullptr;
        };
        views::FabricLinkItem *before = linkOf();
        QVERIFY(before);
        const QString label = before->label();
        const QString toolTip = before->toolTip();
        QCOMPARE(label, QStringLiteral("1,024 × 400 Gb/s"));
        // A mark only the same item carries (a new one at a recycled address would not).
        before->setData(1, QStringLiteral("drawn before the move"));
        views::PlanCardItem *card = window.scene()->cardForKey(key);
        for (const double dx : {-60.0, 45.0, -30.0}) {
            card->setPos(card->pos() + QPointF(dx, 0));
            views::FabricLinkItem *after = linkOf();
            QVERIFY(after);
            QCOMPARE(after->data(1).toString(), QStringLiteral("drawn before the move"));
            QCOMPARE(after->path().pointAtPercent(0), portOf(window, key)->scenePos());
            checkLandsOnTheFabricOverNoCard(window, *after);
            QCOMPARE(after->label(), label);
            QCOMPARE(after->toolTip(), toolTip);
        }
        // An edit of the plan draws the cables anew, with what they now carry.
        model::Plan half = window.plan();
        half.nodeGroups.front().count = 64;
        window.document()->edit(half, QStringLiteral("halve"));
        QVERIFY(linkOf());
        QCOMPARE(linkOf()->label(), QStringLiteral("512 × 400 Gb/s"));
    }

    void emptyPlanSaysHowToStart()
    {
        app::MainWindow window(m_catalog);
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        window.newPlan();
        QVERIFY(window.canvas()->hint().contains(QStringLiteral("File > Open Sample")));
        QDir().mkpath(QStringLiteral(CP_SCREENSHOT_DIR));
        window.finishEstimate();
        QVERIFY(window.summaryView()->headline().contains(QStringLiteral("no servers yet")));
        QVERIFY(window.grab().save(QStringLiteral(CP_SCREENSHOT_DIR "/canvas-new-plan.png")));
        // The first server dropped takes the hint away.
        views::CatalogDrop drop;
        drop.kind = model::CatalogKind::Node;
        drop.id = "dgx-h100";
        drop.count = 1;
        dropOnCanvas(window, drop, emptyPoint(window));
        QCOMPARE(window.plan().totalNodes(), 1);
        QVERIFY(window.canvas()->hint().isEmpty());
    }

    void screenshots()
    {
        app::MainWindow window(m_catalog);
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        QDir().mkpath(QStringLiteral(CP_SCREENSHOT_DIR));
        const QDir samples(QStringLiteral(CP_SOURCE_DIR "/samples"));
        for (const QString &file : samples.entryList({QStringLiteral("*.json")})) {
            QVERIFY(window.openPlan(samples.filePath(file)));
            window.finishEstimate();
            window.canvas()->fitAll();
            // Every sample estimates (its headline names it, then its GPU count and type, a
            // campus's as "8 buildings x 131,072 = 1,048,576 x") and fits in the view after Fit:
            // the whole plan is in the screenshot.
            const QString headline = window.summaryView()->headline();
            const QRegularExpression estimated(
                QStringLiteral("^")
                + QRegularExpression::escape(QString::fromStdString(window.plan().name))
                + QStringLiteral(": ([0-9]+ buildings x [0-9,]+ = )?[0-9][0-9,]* x "));
            QVERIFY2(estimated.match(headline).hasMatch(),
                     qPrintable(file + QStringLiteral(": ") + headline));
            // Its count grouped as people read it ("2048 x NVIDIA H100" on the shared sample).
            QVERIFY2(
                !QRegularExpression(QStringLiteral(": [0-9]{4,} x ")).match(headline).hasMatch(),
                qPrintable(file + QStringLiteral(": ") + headline));
            const QRectF visible
                = window.canvas()->mapToScene(window.canvas()->viewport()->rect()).boundingRect();
            // (within a scene unit: fitInView rounds to whole pixels)
            QVERIFY2(visible.adjusted(-1, -1, 1, 1).contains(window.scene()->itemsBoundingRect()),
                     qPrintable(file));
            // The Estimate panel's wrapped headline and diagnosis get the height their text
            // needs at their width: a two-line headline is not cut at top and bottom.
            QTest::qWait(20);
            for (QLabel *label : window.summaryView()->findChildren<QLabel *>())
                if (label->wordWrap() && label->isVisible())
                    QVERIFY2(label->height() >= label->heightForWidth(label->width()),
                             qPrintable(file + QStringLiteral(": ") + label->text()));
            QVERIFY(window.grab().save(QStringLiteral(CP_SCREENSHOT_DIR "/canvas-%1.png")
                                           .arg(QFileInfo(file).completeBaseName())));
        }
    }
};

QTEST_MAIN(TestCanvas)
#include "tst_canvas.moc"
