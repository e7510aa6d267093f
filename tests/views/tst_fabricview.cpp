// SPDX-License-Identifier: GPL-3.0-or-later
// The Fabric view offscreen: each topology drawn from the plan's generated graph, bundles at
// overview and switches zoomed in, failing a switch by clicking it and pressing Delete, undo, and
// the worst single failure; screenshots go to the build tree (docs/images holds copies).
#include "cardkeys.h"
#include "estimatesummaryview.h"
#include "fabriccanvas.h"
#include "fabricdrawingitem.h"
#include "fabricview.h"
#include "humannumbers.h"
#include "mainwindow.h"
#include "plandocument.h"
#include "planestimatecontroller.h"
#include "planscene.h"
#include "testsupport.h"

#include "model/catalog/catalogdatabase.h"
#include "model/fabric/fattreegenerator.h"
#include "model/plan/planio.h"
#include "model/planning/fabriclinkload.h"
#include "model/planning/planestimator.h"
#include "model/planning/planfabric.h"
#include "model/planning/planworstfailure.h"

#include <QDir>
#include <QImage>
#include <QPainter>
#include <QSignalSpy>
#include <QSlider>
#include <QTemporaryDir>
#include <QTest>
#include <QTreeWidget>
#include <map>

#include <chrono>
#include <set>

using namespace cp;

namespace {

const char *samplePath = CP_SOURCE_DIR "/samples/h100-1024-ndr-rail-fat-tree.json";

/** Switches (tier >= 1, not NVSwitches) of the plan's generated fabric, counted on the model. */
std::size_t modelSwitches(const model::Plan &plan, const model::Catalog &catalog)
{
    const model::FabricGraph graph = model::generatePlanFabric(*model::planFabric(plan, catalog));
    std::size_t count = 0;
    for (model::FabricVertexId v = 0; v < graph.vertexCount(); ++v)
        count += graph.vertex(v).role == model::FabricVertexRole::Switch ? 1 : 0;
    return count;
}

void saveShot(QWidget *widget, const QString &name)
{
    QDir().mkpath(QStringLiteral(CP_SCREENSHOT_DIR));
    // Let pending layout requests run first (a status line that wraps to a second line asks
    // for its height in a posted event), so the shot shows what the user sees.
    QCoreApplication::processEvents();
    QVERIFY(widget->grab().save(QStringLiteral(CP_SCREENSHOT_DIR "/") + name));
}

QString stepShown(app::MainWindow &window)
{
    const auto items = window.summaryView()->tree()->findItems(
        QStringLiteral("Step time"), Qt::MatchExactly | Qt::MatchRecursive, 0);
    return items.isEmpty() ? QString() : items.first()->text(1);
}

QString stepText(double seconds)
{
    return QStringLiteral("%1 s").arg(QLocale().toString(seconds, 'f', 3));
}

} // namespace

class TestFabricView : public QObject
{
    Q_OBJECT

private:
    std::shared_ptr<const model::Catalog> m_catalog = cp::test::shippedCatalogPointer();

    model::Plan sample() const { return model::loadPlan(samplePath, m_catalog.get()); }

    /** A document and a 1920 x 1080 Fabric view showing `plan`, its drawing delivered. */
    struct Shown
    {
        views::PlanDocument document;
        views::FabricView view {&document};
    };
    std::unique_ptr<Shown> show(const model::Plan &plan)
    {
        auto shown = std::make_unique<Shown>();
        shown->view.resize(1920, 1080);
        shown->view.show();
        QSignalSpy ready(&shown->view, &views::FabricView::drawingReady);
        shown->view.setCatalog(m_catalog);
        shown->document.reset(plan, QString());
        shown->view.waitForIdle();
        if (ready.isEmpty())
            ready.wait(20000);
        return shown;
    }

private slots:
    void bitRatesReadWithThreeGroupedDigits()
    {
        // 4,096 links of 400 Gb/s carry 1,638.4 Tb/s: "1,638 Tb/s", not "1638"; a campus's
        // 400 Tb/s is not "400.0"; 12.8 Tb/s keeps its third digit.
        QCOMPARE(views::humanBitRate(4096 * 400e9 / 8), QStringLiteral("1,638 Tb/s"));
        QCOMPARE(views::humanBitRate(400e12 / 8), QStringLiteral("400 Tb/s"));
        QCOMPARE(views::humanBitRate(12.8e12 / 8), QStringLiteral("12.8 Tb/s"));
        QCOMPARE(views::humanBitRate(400e9 / 8), QStringLiteral("400 Gb/s"));
    }

    void fabricKeyStaysShortWithManyRails()
    {
        // A node of 72 GPUs on a rail fabric has 72 rails, but the drawing has eight rail colours
        // (repeating from rail 8): the key gives each colour one swatch, so it is as tall as
        // eight rails' key and not 72 swatches (some 2,800 px at this font) wide.
        QImage image(16, 16, QImage::Format_ARGB32);
        QPainter painter(&image);
        const QFont font;
        views::FabricLegend legend;
        legend.rails = 8;
        const QSizeF eight = views::fabricLegendSize(painter, legend, font);
        legend.rails = 72;
        const QSizeF many = views::fabricLegendSize(painter, legend, font);
        QCOMPARE(many.height(), eight.height());
        // Only the title grows, by its note that the colours repeat.
        QVERIFY2(many.width() < 2 * eight.width(),
                 qPrintable(QStringLiteral("%1 against %2").arg(many.width()).arg(eight.width())));
    }

    void storageLeavesAreBoxedApartFromTheRails()
    {
        // 128 nodes in 4 units of 32 with 32 storage ports: the rail fabric's 33rd leaf is the
        // storage's, boxed as "storage leaves", not as a fifth unit's rail leaves ("SU 4"), and
        // without a rail colour.
        model::RailFatTreeParameters rail;
        rail.nodes = 128;
        rail.storagePorts = 32;
        const views::FabricDrawing d = views::buildFabricDrawing(model::generateRailFatTree(rail));
        std::set<std::string> boxes;
        for (const auto &box : d.blocks)
            boxes.insert(box.text);
        QVERIFY(boxes.count("storage leaves"));
        QVERIFY(boxes.count("SU 3 rail leaves"));
        QVERIFY(!boxes.count("SU 4 rail leaves"));
        QCOMPARE(d.rails, 8);
    }

    void drawsEachTopology_data()
    {
        QTest::addColumn<QString>("topology");
        QTest::addColumn<bool>("multiPlane");
        QTest::addColumn<int>("tiers");
        QTest::newRow("rail-fat-tree") << QStringLiteral("rail-fat-tree") << false << 0;
        QTest::newRow("multi-plane") << QStringLiteral("rail-fat-tree") << true << 0;
        QTest::newRow("fat-tree") << QStringLiteral("fat-tree") << false << 0;
        QTest::newRow("four-tier") << QStringLiteral("fat-tree") << false << 4;
        QTest::newRow("dragonfly") << QStringLiteral("dragonfly") << false << 0;
        QTest::newRow("torus") << QStringLiteral("torus") << false << 0;
    }

    void drawsEachTopology()
    {
        QFETCH(QString, topology);
        QFETCH(bool, multiPlane);
        QFETCH(int, tiers);
        const QString shot = QString::fromLatin1(QTest::currentDataTag());
        model::Plan plan = sample();
        plan.fabric.topology = topology.toStdString();
        plan.fabric.multiPlane = multiPlane;
        plan.fabric.tiers = tiers;
        auto shown = show(plan);
        views::FabricDrawingItem *item = shown->view.drawingItem();
        QVERIFY(item);
        const views::FabricDrawing &d = item->drawing();
        QVERIFY2(d.error.empty(), d.error.c_str());
        QCOMPARE(d.topology, topology.toStdString());
        // Every switch of the model's graph is drawn once.
        QCOMPARE(d.switches.size(), modelSwitches(plan, *m_catalog));
        if (tiers == 4) {
            // 1,024 NICs on 64-port switches in four tiers: 32 leaves in one pod under 32
            // spines, one block of 32 cores (one per spine) and 32 super-spines above them, a
            // row each, top to bottom.
            std::map<int, int> perTier;
            for (const auto &s : d.switches)
                ++perTier[s.tier];
            QCOMPARE(perTier, (std::map<int, int> {{1, 32}, {2, 32}, {3, 32}, {4, 32}}));
            // The overview boxes the spines by pod and the cores by block, as with three tiers.
            std::set<std::string> boxes;
            for (const auto &box : d.blocks)
                boxes.insert(box.text);
            QVERIFY(boxes.count("pod 0 spines"));
            QVERIFY(boxes.count("block 0 cores"));
            QVERIFY(!boxes.count("spines"));
        }
        QVERIFY(!d.links.empty());
        // A rail-optimised fabric colours each leaf by its rail (the GPU index of the NICs it
        // connects: 8 on the DGX H100 sample) and says so in the view's corner; other fabrics
        // colour leaves by tier and show no rail key.
        QCOMPARE(shown->view.canvas()->legend().rails,
                 topology == QLatin1String("rail-fat-tree") ? 8 : 0);
        // Without the heat map, links not in a rail's colour are in their class's, and the key
        // names the classes drawn: a Dragonfly's blue local links join routers within a group,
        // its orange global ones the groups; a torus's join neighbouring chips.
        const views::FabricLegend &legend = shown->view.canvas()->legend();
        QVERIFY(!legend.heatScale);
        if (topology == QLatin1String("dragonfly")) {
            QVERIFY(legend.globalLinks && legend.fabricLinks);
            QCOMPARE(legend.fabricLinkName, QStringLiteral("within a group"));
        } else if (topology == QLatin1String("torus")) {
            QVERIFY(legend.fabricLinks && !legend.globalLinks);
            QCOMPARE(legend.fabricLinkName, QStringLiteral("between neighbours"));
        } else if (topology == QLatin1String("fat-tree")) {
            QVERIFY(legend.fabricLinks && legend.accessLinks && !legend.globalLinks);
            QVERIFY(legend.fabricLinkName.isEmpty()); // "between switches"
        }
        if (topology == QLatin1String("rail-fat-tree")) {
            // Zoomed out until the leaves merge into grey blocks, the key has no rails to name.
            shown->view.canvas()->setZoom(0.01);
            QVERIFY(item->showsBundles(0.01));
            QCOMPARE(shown->view.canvas()->legend().rails, 0);
            shown->view.canvas()->fitAll();
        }
        if (topology == QLatin1String("torus")) {
            // 1,024 NICs: an 8 x 8 x 16 torus, drawn one 8 x 8 plane at a time with its
            // 8 x 8 x 2 = 128 in-plane links (a ring of 8 has 8 links, 16 rings), 16 of them
            // (one per ring) wrapping around.
            QCOMPARE(d.torusPlanes, 16);
            // The toolbar lays out (and so shows) an action's widget on its next layout pass.
            QTRY_VERIFY(
                shown->view.findChild<QSlider *>(QStringLiteral("torusPlane"))->isVisible());
            QCOMPARE(d.servers.size(), std::size_t(64));
            QCOMPARE(d.links.size(), std::size_t(128));
            QCOMPARE(std::count_if(d.links.begin(), d.links.end(),
                                   [](const auto &line) { return line.curved; }),
                     16L);
        } else {
            // No planes to pick: the toolbar has no slider for them.
            QVERIFY(!shown->view.findChild<QSlider *>(QStringLiteral("torusPlane"))->isVisible());
            QVERIFY(!d.bundles.empty());
            // Bundles carry every cable of the detail lines, none lost or counted twice.
            long long detail = 0;
            long long bundled = 0;
            for (const auto &line : d.links)
                detail += line.cables;
            for (const auto &line : d.bundles)
                bundled += line.cables;
            if (topology == QLatin1String("dragonfly")) {
                for (const auto &line : d.links)
                    detail -= line.linkClass == model::LinkClass::Global ? 0 : line.cables;
            }
            QCOMPARE(bundled, detail);
        }
        shown->view.canvas()->fitAll();
        saveShot(&shown->view, QStringLiteral("fabric-%1-overview.png").arg(shot));
        shown->view.canvas()->setZoom(2.0);
        const auto &first = d.switches.empty() ? views::FabricDrawing::Switch {} : d.switches[0];
        shown->view.canvas()->centerOn(first.x + 300, first.y + 200);
        saveShot(&shown->view, QStringLiteral("fabric-%1-detail.png").arg(shot));
        QVERIFY(!item->lastPaintShowedBundles());
    }

    void levelOfDetailSwitchesToBundles()
    {
        // 16,384 GPUs: 2,048 DGX H100 on a 3-tier rail fabric, 64 scalable units x 8 rails = 512
        // leaves in a row. Fitted into 1,920 pixels a leaf gets under 4 px: bundles. At scale 1
        // the leaves are 24 px apart: switches.
        model::Plan plan = sample();
        plan.nodeGroups.front().count = 2048;
        plan.fabric.tiers = 3;
        const auto started = std::chrono::steady_clock::now();
        auto shown = show(plan);
        const double buildSeconds
            = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
        QVERIFY2(buildSeconds < 20, "the 16,384-GPU fabric took too long to draw");
        views::FabricDrawingItem *item = shown->view.drawingItem();
        QVERIFY(item);
        shown->view.canvas()->fitAll();
        QVERIFY(item->showsBundles(shown->view.canvas()->zoom()));
        saveShot(&shown->view, QStringLiteral("fabric-16k-overview.png"));
        QVERIFY(item->lastPaintShowedBundles());
        QVERIFY(shown->view.statusText().contains(QStringLiteral("overview")));
        shown->view.canvas()->setZoom(1.0);
        saveShot(&shown->view, QStringLiteral("fabric-16k-detail.png"));
        QVERIFY(!item->lastPaintShowedBundles());
        QVERIFY(shown->view.statusText().contains(QStringLiteral("detail")));
    }

    void drawingFirstShownFillsTheTab()
    {
        // The drawing arrives while the Canvas tab is current: fitted then, the hidden view had
        // no size of its own and the Fabric tab first showed a drawing about 100 pixels wide
        // with its labels piled up. Shown, it fills most of the view's width or height.
        app::MainWindow window(m_catalog);
        window.resize(1920, 1080);
        window.show();
        QVERIFY(window.openPlan(QString::fromLatin1(samplePath)));
        auto *view = window.findChild<views::FabricView *>();
        QVERIFY(view);
        view->waitForIdle();
        QVERIFY(view->drawingItem());
        QVERIFY(!view->isVisible());
        auto *tabs = window.findChild<QTabWidget *>(QStringLiteral("centralTabs"));
        tabs->setCurrentWidget(view);
        QTRY_VERIFY(view->isVisible());
        QCoreApplication::processEvents();
        QCoreApplication::processEvents();
        views::FabricCanvas *canvas = view->canvas();
        const QRect drawn
            = canvas->mapFromScene(view->drawingItem()->boundingRect()).boundingRect();
        const QSize room = canvas->viewport()->size();
        QVERIFY2(drawn.width() > room.width() / 2 || drawn.height() > room.height() / 2,
                 qPrintable(QStringLiteral("%1 x %2 in %3 x %4")
                                .arg(drawn.width())
                                .arg(drawn.height())
                                .arg(room.width())
                                .arg(room.height())));
    }

    void failingASelectedSwitchChangesTheEstimateAndUndoRestoresIt()
    {
        app::MainWindow window(m_catalog);
        window.resize(1920, 1080);
        window.show();
        QSignalSpy estimated(window.controller(), &views::PlanEstimateController::estimateReady);
        QVERIFY(window.openPlan(QString::fromLatin1(samplePath)));
        QVERIFY(estimated.wait(60000));
        auto *view = window.findChild<views::FabricView *>();
        QVERIFY(view);
        view->waitForIdle();
        QVERIFY(view->drawingItem());
        const model::Plan plan = sample();
        const model::PlanEstimate intact = model::estimatePlan(plan, *m_catalog);
        QCOMPARE(stepShown(window), stepText(intact.training.best.stepSeconds));

        // Click the first rail leaf at scale 2, then press Delete.
        auto *tabs = window.findChild<QTabWidget *>(QStringLiteral("centralTabs"));
        tabs->setCurrentWidget(view);
        views::FabricCanvas *canvas = view->canvas();
        canvas->setZoom(2.0);
        const auto &switches = view->drawingItem()->drawing().switches;
        const auto leaf = std::find_if(switches.begin(), switches.end(),
                                       [](const auto &s) { return s.label == "leaf-su0-rail0"; });
        QVERIFY(leaf != switches.end());
        canvas->centerOn(leaf->x, leaf->y);
        QTest::mouseClick(canvas->viewport(), Qt::LeftButton, {},
                          canvas->mapFromScene(QPointF(leaf->x, leaf->y)));
        QCOMPARE(view->drawingItem()->selectedSwitch(), static_cast<int>(leaf - switches.begin()));
        saveShot(view, QStringLiteral("fabric-selected.png"));
        estimated.clear();
        canvas->setFocus();
        QTest::keyClick(canvas, Qt::Key_Delete);
        QCOMPARE(window.document()->plan().fabric.failedSwitches,
                 std::vector<std::string> {"leaf-su0-rail0"});
        QVERIFY(estimated.wait(60000));

        // The estimate shown is the model's on the failed plan: 32 of 128 nodes gone.
        model::Plan failed = plan;
        failed.fabric.failedSwitches = {"leaf-su0-rail0"};
        const model::PlanEstimate after = model::estimatePlan(failed, *m_catalog);
        QCOMPARE(after.nodesCutOffByFailures, 32LL);
        QVERIFY(after.training.best.stepSeconds > intact.training.best.stepSeconds);
        QCOMPARE(stepShown(window), stepText(after.training.best.stepSeconds));
        // The headline says the figures are a what-if, first.
        QVERIFY2(window.summaryView()->headline().startsWith(
                     QStringLiteral("With 1 switch failed (Fabric view): ")),
                 qPrintable(window.summaryView()->headline()));
        saveShot(&window, QStringLiteral("fabric-failed-mainwindow.png"));

        estimated.clear();
        window.document()->undoStack()->undo();
        QVERIFY(window.document()->plan().fabric.failedSwitches.empty());
        QVERIFY(estimated.wait(60000));
        QCOMPARE(stepShown(window), stepText(intact.training.best.stepSeconds));

        // Redo fails it again; Restore All brings it back as one more undo step.
        window.document()->undoStack()->redo();
        QCOMPARE(window.document()->plan().fabric.failedSwitches.size(), std::size_t(1));
        QVERIFY(view->restoreAllFailures());
        QVERIFY(window.document()->plan().fabric.failedSwitches.empty());
        QVERIFY(!view->restoreAllFailures());
        window.document()->undoStack()->undo();
        QCOMPARE(window.document()->plan().fabric.failedSwitches,
                 std::vector<std::string> {"leaf-su0-rail0"});
    }

    void failingTheCablesOfASelectedLinkChangesTheEstimate()
    {
        app::MainWindow window(m_catalog);
        window.resize(1920, 1080);
        window.show();
        QSignalSpy estimated(window.controller(), &views::PlanEstimateController::estimateReady);
        QVERIFY(window.openPlan(QString::fromLatin1(samplePath)));
        QVERIFY(estimated.wait(60000));
        auto *view = window.findChild<views::FabricView *>();
        view->waitForIdle();
        const model::PlanEstimate intact = model::estimatePlan(sample(), *m_catalog);
        auto *tabs = window.findChild<QTabWidget *>(QStringLiteral("centralTabs"));
        tabs->setCurrentWidget(view);

        // Click the middle of the line from rail 0's leaf of unit 0 to spine 0 (2 cables: 32
        // uplinks over 16 spines), far from both switches, and press Delete: one cable fails.
        views::FabricCanvas *canvas = view->canvas();
        canvas->setZoom(2.0);
        const auto &links = view->drawingItem()->drawing().links;
        const auto line = std::find_if(links.begin(), links.end(), [](const auto &l) {
            return std::set<std::string> {l.endA, l.endB}
            == std::set<std::string> {"leaf-su0-rail0", "spine-0"};
        });
        QVERIFY2(
            line != links.end(),
            qPrintable(QStringLiteral("%1 lines; %2 %3")
                           .arg(links.size())
                           .arg(QString::fromStdString(view->drawingItem()->drawing().description),
                                QString::fromStdString(view->drawingItem()->drawing().error))));
        QCOMPARE(line->cables, 2LL);
        const QPointF middle((line->x1 + line->x2) / 2, (line->y1 + line->y2) / 2);
        canvas->centerOn(middle);
        QTest::mouseClick(canvas->viewport(), Qt::LeftButton, {}, canvas->mapFromScene(middle));
        QCOMPARE(view->drawingItem()->selectedLink(), static_cast<int>(line - links.begin()));
        QCOMPARE(view->drawingItem()->selectedSwitch(), -1);
        canvas->setFocus();
        estimated.clear();
        QTest::keyClick(canvas, Qt::Key_Delete);
        const auto &failed = window.document()->plan().fabric.failedLinks;
        QCOMPARE(failed.size(), std::size_t(1));
        QCOMPARE(failed[0], line->endA + ":" + line->endB);
        QVERIFY(estimated.wait(60000));
        QVERIFY(view->statusText().contains(QStringLiteral("1 cable failed")));
        // The second Delete takes the pair's other cable; a third finds none left.
        QVERIFY(view->failSelection());
        QVERIFY(!view->failSelection());
        QCOMPARE(window.document()->plan().fabric.failedLinks.size(), std::size_t(2));
        saveShot(view, QStringLiteral("fabric-failed-link.png"));

        // Every uplink of that leaf (2 cables to each of the 16 spines) makes it an island: its
        // 32 nodes leave the job, as when the leaf itself fails (the model test derives it).
        for (int spine = 1; spine < 16; ++spine) {
            QVERIFY(view->selectLink("leaf-su0-rail0", "spine-" + std::to_string(spine)));
            QVERIFY(view->failSelection());
            QVERIFY(view->failSelection());
        }
        QVERIFY(estimated.wait(60000));
        while (estimated.wait(2000)) { } // the last of the 32 edits' estimates
        model::Plan leafDown = sample();
        leafDown.fabric.failedSwitches = {"leaf-su0-rail0"};
        const model::PlanEstimate island = model::estimatePlan(leafDown, *m_catalog);
        QCOMPARE(stepShown(window), stepText(island.training.best.stepSeconds));

        // Undo one cable: that one uplink carries the unit's single boundary flow each way (ring
        // neighbours are consecutive nodes; only node 31 -> 32 and the closing flow leave the
        // unit on a rail) at its full rate, so the intact step returns.
        estimated.clear();
        window.document()->undoStack()->undo();
        QCOMPARE(window.document()->plan().fabric.failedLinks.size(), std::size_t(31));
        QVERIFY(estimated.wait(60000));
        QCOMPARE(stepShown(window), stepText(intact.training.best.stepSeconds));
        QVERIFY(view->restoreAllFailures());
        QVERIFY(window.document()->plan().fabric.failedLinks.empty());
    }

    void selectionIsSharedWithTheCanvas()
    {
        // The sample's 128 nodes as two groups of 64. The rail fabric puts 32 consecutive nodes
        // in a scalable unit, one leaf per rail (8 rails): group 0 is units 0-1 and group 1
        // units 2-3, so each group is cabled to 2 x 8 = 16 rail leaves and to no spine.
        model::Plan plan = sample();
        QCOMPARE(plan.nodeGroups.size(), std::size_t(1));
        QCOMPARE(plan.nodeGroups[0].count, 128);
        plan.nodeGroups[0].count = 64;
        plan.nodeGroups.push_back(plan.nodeGroups[0]);
        plan.nodeGroups[1].name += " (second half)";
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("two-groups.json"));
        model::savePlan(plan, path.toStdString());

        app::MainWindow window(m_catalog);
        window.resize(1920, 1080);
        window.show();
        QVERIFY(window.openPlan(path));
        auto *view = window.findChild<views::FabricView *>();
        view->waitForIdle();
        QVERIFY(view->drawingItem());
        const auto highlighted = [&] {
            std::set<std::string> labels;
            for (const auto &s : view->drawingItem()->drawing().switches)
                if (view->drawingItem()->isHighlighted(s))
                    labels.insert(s.label);
            return labels;
        };
        std::set<std::string> groupOneLeaves;
        for (int unit : {2, 3})
            for (int rail = 0; rail < 8; ++rail)
                groupOneLeaves.insert("leaf-su" + std::to_string(unit) + "-rail"
                                      + std::to_string(rail));

        // Canvas -> Fabric view.
        window.scene()->selectKey(views::groupKey(1));
        QCOMPARE(highlighted(), groupOneLeaves);
        QVERIFY(view->statusText().contains(QStringLiteral("cabled to 16 switches")));
        auto *tabs = window.findChild<QTabWidget *>(QStringLiteral("centralTabs"));
        tabs->setCurrentWidget(view);
        view->canvas()->setZoom(1.0);
        saveShot(view, QStringLiteral("fabric-shared-selection.png"));
        window.scene()->clearSelection();
        QVERIFY(highlighted().empty());

        // Fabric view -> canvas: clicking rail 5's leaf of unit 0 selects group 0 there.
        views::FabricCanvas *canvas = view->canvas();
        canvas->setZoom(2.0);
        const auto &switches = view->drawingItem()->drawing().switches;
        const auto leaf = std::find_if(switches.begin(), switches.end(),
                                       [](const auto &s) { return s.label == "leaf-su0-rail5"; });
        QVERIFY(leaf != switches.end());
        canvas->centerOn(leaf->x, leaf->y);
        QTest::mouseClick(canvas->viewport(), Qt::LeftButton, {},
                          canvas->mapFromScene(QPointF(leaf->x, leaf->y)));
        QCOMPARE(window.scene()->selectedKeys(), QStringList {views::groupKey(0)});
        // ... and the Fabric view lights up group 0's leaves: units 0-1.
        QCOMPARE(highlighted().size(), std::size_t(16));
        QVERIFY(highlighted().count("leaf-su1-rail7"));
        QVERIFY(!highlighted().count("leaf-su2-rail0"));
        // A spine serves no group: picking it clears the canvas selection.
        const auto spine = std::find_if(switches.begin(), switches.end(),
                                        [](const auto &s) { return s.label == "spine-3"; });
        canvas->centerOn(spine->x, spine->y);
        QTest::mouseClick(canvas->viewport(), Qt::LeftButton, {},
                          canvas->mapFromScene(QPointF(spine->x, spine->y)));
        QVERIFY(window.scene()->selectedKeys().isEmpty());
        QVERIFY(highlighted().empty());
    }

    void heatMapColoursAreTheModelsLoads()
    {
        // 2 leaves x 2 hosts under one spine, 2:1 at each leaf, all links 50 GB/s; the ring
        // h0 -> h2 -> h1 -> h3 alternates leaves, so each uplink carries 2 flows each way at
        // 25 GB/s (utilisation 1, red) and each access link 1 flow each way (0.5, the middle of
        // the scale). The drawing merges each leaf's two host cables into one line to its
        // server group: still 0.5, its busiest link's.
        model::FabricGraph graph;
        const model::FabricLink access {model::LinkClass::Access, model::LinkMedium::Optical, 50e9,
                                        0, 0};
        const model::FabricLink uplink {model::LinkClass::Fabric, model::LinkMedium::Optical, 50e9,
                                        0, 0};
        const auto spine = graph.addVertex({model::FabricVertexRole::Switch, 2, -1, "spine-0"});
        std::vector<model::FabricVertexId> hosts;
        for (int l = 0; l < 2; ++l) {
            const auto leaf = graph.addVertex(
                {model::FabricVertexRole::Switch, 1, l, "leaf-" + std::to_string(l)});
            graph.addLink(leaf, spine, uplink);
            for (int h = 0; h < 2; ++h) {
                hosts.push_back(graph.addVertex({model::FabricVertexRole::Endpoint, 0, l,
                                                 "host-" + std::to_string(2 * l + h)}));
                graph.addLink(hosts.back(), leaf, access);
            }
        }
        const model::FabricLinkLoads loads
            = model::fabricLinkLoads(graph, {{hosts[0], hosts[2], hosts[1], hosts[3]}});
        const auto drawing = std::make_shared<const views::FabricDrawing>(
            views::buildFabricDrawing(graph, 0, &loads));
        views::FabricDrawingItem item(drawing);
        item.setHeatMap(true);
        int uplinks = 0;
        int accessLines = 0;
        for (const auto &line : drawing->links) {
            if (line.linkClass == model::LinkClass::Fabric) {
                ++uplinks;
                QCOMPARE(line.utilisation, 1.0);
                QCOMPARE(item.colourOf(line), views::FabricDrawingItem::heatColour(1.0));
            } else {
                ++accessLines;
                QCOMPARE(line.cables, 2LL);
                QCOMPARE(line.utilisation, 0.5);
                QCOMPARE(item.colourOf(line), views::FabricDrawingItem::heatColour(0.5));
            }
        }
        QCOMPARE(uplinks, 2);
        QCOMPARE(accessLines, 2);
        QVERIFY(views::FabricDrawingItem::heatColour(1.0)
                != views::FabricDrawingItem::heatColour(0.5));
        // Hovering the middle of leaf 0's uplink shows its figures.
        const auto &up
            = *std::find_if(drawing->links.begin(), drawing->links.end(),
                            [](const auto &l) { return l.linkClass == model::LinkClass::Fabric; });
        const QString tip
            = item.lineToolTip(QPointF((up.x1 + up.x2) / 2, (up.y1 + up.y2) / 2), 5, 4.0);
        QVERIFY2(tip.contains(QStringLiteral("100% of its capacity, 2.00 flows")), qPrintable(tip));
        item.setHeatMap(false);
        QVERIFY(item.colourOf(up) != views::FabricDrawingItem::heatColour(1.0));
    }

    void heatMapOfThePlan()
    {
        // The sample's layout on its non-blocking rail fabric: some link is the rings'
        // bottleneck (utilisation 1) and every line has a load.
        auto shown = show(sample());
        shown->view.setHeatMap(true);
        const views::FabricDrawing &d = shown->view.drawingItem()->drawing();
        QVERIFY(!d.loadNote.empty());
        double hottest = 0;
        for (const auto &line : d.links) {
            QVERIFY(line.utilisation >= 0);
            hottest = std::max(hottest, line.utilisation);
        }
        QCOMPARE(hottest, 1.0);
        QVERIFY(shown->view.statusText().contains(QStringLiteral("heat:")));
        shown->view.canvas()->fitAll();
        saveShot(&shown->view, QStringLiteral("fabric-heat-overview.png"));
        shown->view.canvas()->setZoom(2.0);
        saveShot(&shown->view, QStringLiteral("fabric-heat-detail.png"));
    }

    void heatTrafficSelectorShowsEachClass()
    {
        // The sample fixed at TP 4 x PP 2 trains over nodes 0-63 and 64-127: GPU i of node n
        // exchanges with GPU i of node n + 64 on rail i, one flow each way on every rail access
        // link, and the non-blocking rail fabric gives each a whole NIC (utilisation 1).
        model::Plan plan = sample();
        plan.training.constraints.tp = 4;
        plan.training.constraints.pp = 2;
        auto shown = show(plan);
        QSignalSpy ready(&shown->view, &views::FabricView::drawingReady);
        shown->view.setHeatTraffic(model::FabricTraffic::Pipeline);
        QVERIFY(ready.wait(20000));
        QVERIFY(shown->view.drawingItem()->heatMap()); // choosing a class turns the map on
        // Its colour scale shows beside it, and goes with it; link classes are not what the
        // colours mean then.
        QVERIFY(shown->view.canvas()->heatLegendShown());
        QVERIFY(!shown->view.canvas()->legend().linkClasses());
        QCOMPARE(shown->view.canvas()->legend().heatTitle,
                 QStringLiteral("Link load while the pipeline sends run, share of capacity"));
        shown->view.setHeatMap(false);
        QVERIFY(!shown->view.canvas()->heatLegendShown());
        shown->view.setHeatMap(true);
        QVERIFY(shown->view.canvas()->heatLegendShown());
        const views::FabricDrawing &pipeline = shown->view.drawingItem()->drawing();
        QVERIFY2(shown->view.statusText().contains(QStringLiteral("pipeline sends")),
                 qPrintable(shown->view.statusText()));
        int accessLines = 0;
        for (const auto &line : pipeline.links)
            if (line.linkClass == model::LinkClass::Access) {
                ++accessLines;
                QCOMPARE(line.utilisation, 1.0);
                QVERIFY(line.bytesPerStep > 0);
            }
        QVERIFY(accessLines > 0);
        shown->view.canvas()->setZoom(2.0);
        saveShot(&shown->view, QStringLiteral("fabric-heat-pipeline.png"));

        // No experts in a dense model: the status says why the map is empty.
        ready.clear();
        shown->view.setHeatTraffic(model::FabricTraffic::ExpertParallel);
        QVERIFY(ready.wait(20000));
        QVERIFY2(shown->view.statusText().contains(QStringLiteral("EP 1")),
                 qPrintable(shown->view.statusText()));
        for (const auto &line : shown->view.drawingItem()->drawing().links)
            QCOMPARE(line.utilisation, -1.0);

        // All traffic: bytes per step against the step, below saturation on the access links
        // (the step also computes), and the hover names the bytes.
        ready.clear();
        shown->view.setHeatTraffic(model::FabricTraffic::All);
        QVERIFY(ready.wait(20000));
        QVERIFY(shown->view.statusText().contains(QStringLiteral("bytes of one")));
        // Its key says so: the share of the step a link is busy. One class's flows (the
        // pipeline sends above) are the share of a link's capacity they take while they run,
        // red where they saturate it, not a link busy all step.
        QCOMPARE(shown->view.canvas()->legend().heatTitle,
                 QStringLiteral("Link busy, share of the step"));
        const views::FabricDrawing &all = shown->view.drawingItem()->drawing();
        for (const auto &line : all.links)
            if (line.linkClass == model::LinkClass::Access) {
                QVERIFY(line.utilisation > 0 && line.utilisation < 1.0);
                const QPointF middle((line.x1 + line.x2) / 2, (line.y1 + line.y2) / 2);
                const QString tip = shown->view.drawingItem()->lineToolTip(middle, 1.0, 2.0);
                QVERIFY2(tip.contains(QStringLiteral("GB per training step")), qPrintable(tip));
                break;
            }
        saveShot(&shown->view, QStringLiteral("fabric-heat-all.png"));
        shown->view.resize(1366, 768);
        QCoreApplication::processEvents();
        saveShot(&shown->view, QStringLiteral("fabric-heat-all-1366.png"));
    }

    void worstSingleFailureSelectsTheModelsSwitch()
    {
        auto shown = show(sample());
        QSignalSpy found(&shown->view, &views::FabricView::worstFailureReady);
        shown->view.findWorstFailure();
        QVERIFY(found.wait(60000));
        const model::WorstFailure expected = model::planWorstFailure(sample(), *m_catalog);
        QCOMPARE(shown->view.worstFailure().switchLabel, expected.switchLabel);
        const auto &selected = shown->view.drawingItem()->drawing().switches.at(
            static_cast<std::size_t>(shown->view.drawingItem()->selectedSwitch()));
        QCOMPARE(selected.label, expected.switchLabel);
        QVERIFY(shown->view.statusText().contains(QStringLiteral("Worst single failure")));
    }
};

QTEST_MAIN(TestFabricView)
#include "tst_fabricview.moc"
