// SPDX-License-Identifier: GPL-3.0-or-later
// The Data hall view: the floor plan's cabinets, their capacity colours and a rack's elevation.
#include "datahallview.h"
#include "fabriccanvas.h"
#include "mainwindow.h"
#include "plandocument.h"
#include "rackelevationwidget.h"
#include "testsupport.h"

#include "model/plan/planio.h"

#include <QDir>
#include <QFontMetricsF>
#include <QLabel>
#include <QSignalSpy>
#include <QSpinBox>
#include <QTabWidget>
#include <QTest>
#include <QToolBar>
#include <QUndoStack>

using namespace cp;

namespace {

const char *samplePath = CP_SOURCE_DIR "/samples/h100-1024-ndr-rail-fat-tree.json";

void saveShot(QWidget *widget, const QString &name)
{
    QDir().mkpath(QStringLiteral(CP_SCREENSHOT_DIR));
    QVERIFY(widget->grab().save(QStringLiteral(CP_SCREENSHOT_DIR "/") + name));
}

int rackNamed(const views::DataHallFloorItem &item, const std::string &name)
{
    for (std::size_t r = 0; r < item.hall().racks.size(); ++r)
        if (item.hall().racks[r].name == name)
            return static_cast<int>(r);
    return -1;
}

} // namespace

class TestDataHallView : public QObject
{
    Q_OBJECT

private:
    std::shared_ptr<const model::Catalog> m_catalog = cp::test::shippedCatalogPointer();

    struct Shown
    {
        views::PlanDocument document;
        views::DataHallView view {&document};
    };
    std::unique_ptr<Shown> show(const model::Plan &plan)
    {
        auto shown = std::make_unique<Shown>();
        shown->view.resize(1920, 1080);
        shown->view.show();
        QSignalSpy ready(&shown->view, &views::DataHallView::hallReady);
        shown->view.setCatalog(m_catalog);
        shown->document.reset(plan, QString());
        shown->view.waitForIdle();
        if (!shown->view.floorItem())
            ready.wait(20000);
        return shown;
    }

private slots:
    void theToolbarFitsASmallWindow()
    {
        // In a 1366 x 768 window with both docks the Data Hall tab is about 660 pixels wide:
        // its toolbar (Fit, the colour choice, cabinets per row) fits it, and the colour key,
        // which overflowed it and hid the row box behind the "more" arrow, sits below the floor.
        const std::unique_ptr<Shown> shown
            = show(cp::test::loadSamplePlan("h100-2048-shared-cluster.json"));
        const auto *bar = shown->view.findChild<QToolBar *>();
        QVERIFY(bar);
        QVERIFY2(bar->sizeHint().width() <= 660,
                 qPrintable(QString::number(bar->sizeHint().width())));
        const auto *legend = shown->view.findChild<QLabel *>(QStringLiteral("capacityLegend"));
        QVERIFY(legend && legend->parentWidget() != bar);
    }

    void aRoomTooLargeToLayOutSaysSo()
    {
        // 600,000 racked servers are more than the 524,288 the layout places one by one: the view
        // shows an empty room and its status line says why, at once rather than after a stall.
        model::Plan plan;
        model::NodeGroup group;
        group.name = "servers";
        group.nodeId = "dgx-h100";
        group.count = 600000;
        group.rackId = "rack-air-40kw";
        plan.nodeGroups.push_back(group);
        plan.fabric.topology = "none"; // 4.8 M NICs are beyond any fabric's limit too
        auto shown = show(plan);
        QVERIFY(shown->view.floorItem());
        QVERIFY(shown->view.floorItem()->hall().racks.empty());
        QVERIFY2(shown->view.statusText().contains(
                     QStringLiteral("600,000 servers in racks are more than the 524,288")),
                 qPrintable(shown->view.statusText()));
    }

    void cabinetNamesAreAsLargeAsTheirCabinetAllows()
    {
        using views::DataHallFloorItem;
        // "R02-C10" fits a 48 x 22 cabinet at more than the old fixed 7 pixels, and at the size
        // chosen it runs no longer than the 44 units the depth leaves and stands no taller than
        // the 18 the width leaves.
        QFont font(QStringLiteral("DejaVu Sans"));
        const QString name = QStringLiteral("R02-C10");
        const int pixels = DataHallFloorItem::cabinetNamePixelSize(font, name);
        QVERIFY2(pixels > 7, qPrintable(QString::number(pixels)));
        font.setPixelSize(pixels);
        QVERIFY(QFontMetricsF(font).horizontalAdvance(name) <= 44);
        QVERIFY(QFontMetricsF(font).height() <= 18);
        // One pixel larger would break a limit, unless the size is already the largest.
        if (pixels < 11) {
            font.setPixelSize(pixels + 1);
            QVERIFY(QFontMetricsF(font).horizontalAdvance(name) > 44
                    || QFontMetricsF(font).height() > 18);
        }
        // A name too long for any size keeps the old 7.
        QCOMPARE(DataHallFloorItem::cabinetNamePixelSize(
                     font, QStringLiteral("R120-COMPUTE-CABINET-0001")),
                 7);
    }

    void cabinetsAreColouredByHowFullTheyAre()
    {
        // The sample: 43 compute cabinets of 3 DGX H100, 30.6 of 40 kW (77%, green) and 24 of
        // 42 U (57%); with 4 per cabinet they draw 40.8 kW, over the limit (red).
        auto shown = show(model::loadPlan(samplePath, m_catalog.get()));
        views::DataHallFloorItem *item = shown->view.floorItem();
        QVERIFY(item);
        const int first = rackNamed(*item, "R01-C01");
        QVERIFY(first >= 0);
        QVERIFY(qAbs(item->fillOf(first) - 30.6 / 40.0) < 1e-12);
        QCOMPARE(item->colourOf(first), views::DataHallFloorItem::capacityColour(0.5));
        QVERIFY2(shown->view.statusText().contains(QStringLiteral("0 over the limit")),
                 qPrintable(shown->view.statusText()));
        // Its cables counted as the Estimate counts them: the fabric's 2,048 and the storage
        // network's 588 (2,636), and the 391 management cables beside them (tst_mainwindow).
        QVERIFY2(shown->view.statusText().contains(
                     QStringLiteral("2,636 cables (compute and storage networks) and 391 "
                                    "management cables")),
                 qPrintable(shown->view.statusText()));
        shown->view.setCapacity(views::RackCapacity::Space);
        QVERIFY(qAbs(item->fillOf(first) - 24.0 / 42.0) < 1e-12);
        // At the training job's load the GPUs draw less than their TDP: below the nameplate.
        shown->view.setCapacity(views::RackCapacity::RunPower);
        QVERIFY(item->fillOf(first) > 0 && item->fillOf(first) < 30.6 / 40.0);
        QVERIFY(views::DataHallFloorItem::capacityColour(0.85)
                != views::DataHallFloorItem::capacityColour(0.5));
        QVERIFY(views::DataHallFloorItem::capacityColour(1.02)
                != views::DataHallFloorItem::capacityColour(0.85));
        // By switch ports: every port of the sample's non-blocking rail fabric is cabled (64 of
        // 64 on each leaf, tst_datahall derives it); with the row's three 40-port storage leaves
        // (20 server ports down and 20 up each) and its two 48-port management switches serving
        // its 30 servers, 8 leaves, 3 storage leaves and 42 PDUs, R01-N1 has 512 + 120 + 83 = 715
        // of 8 x 64 + 3 x 40 + 2 x 48 = 728 ports cabled, amber;
        // the 43 compute cabinets hold no switch and are grey (the storage cabinet holds the
        // storage network's), and the status says why.
        shown->view.setCapacity(views::RackCapacity::Ports);
        const int network = rackNamed(*item, "R01-N1");
        QCOMPARE(item->fillOf(network), 715.0 / 728.0);
        QCOMPARE(item->colourOf(network), views::DataHallFloorItem::capacityColour(0.85));
        QVERIFY(item->fillOf(first) < 0);
        QCOMPARE(item->colourOf(first), views::DataHallFloorItem::capacityColour(-1));
        QVERIFY(views::DataHallFloorItem::capacityColour(-1)
                != views::DataHallFloorItem::capacityColour(0.5));
        QVERIFY2(shown->view.statusText().contains(QStringLiteral("43 cabinets grey")),
                 qPrintable(shown->view.statusText()));
        // By weight: 3 x 130.45 kg of 1,360 kg is 28.8%, green; only the storage cabinet is grey,
        // as the catalog gives no weight for the AI400X2.
        shown->view.setCapacity(views::RackCapacity::Weight);
        QVERIFY(qAbs(item->fillOf(first) - 391.35 / 1360.0) < 1e-9);
        QCOMPARE(item->colourOf(first), views::DataHallFloorItem::capacityColour(0.5));
        QVERIFY(item->fillOf(rackNamed(*item, "R03-ST1")) < 0);
        QVERIFY2(shown->view.statusText().contains(QStringLiteral("1 cabinet grey: weight")),
                 qPrintable(shown->view.statusText()));

        model::Plan dense = model::loadPlan(samplePath, m_catalog.get());
        dense.nodeGroups[0].nodesPerRack = 4;
        QSignalSpy ready(&shown->view, &views::DataHallView::hallReady);
        shown->document.reset(dense, QString());
        shown->view.waitForIdle();
        shown->view.setCapacity(views::RackCapacity::Power);
        item = shown->view.floorItem();
        const int crowded = rackNamed(*item, "R01-C01");
        QCOMPARE(item->fillOf(crowded), 40800.0 / 40000.0);
        QCOMPARE(item->colourOf(crowded), views::DataHallFloorItem::capacityColour(1.02));
        QVERIFY2(shown->view.statusText().contains(QStringLiteral("32 over the limit")),
                 qPrintable(shown->view.statusText()));
    }

    void clickingACabinetShowsItsElevation()
    {
        auto shown = show(model::loadPlan(samplePath, m_catalog.get()));
        views::DataHallFloorItem *item = shown->view.floorItem();
        const int first = rackNamed(*item, "R01-C01");
        views::FabricCanvas *canvas = shown->view.canvas();
        canvas->setZoom(2.0);
        const QPointF centre = item->rackRect(first).center();
        canvas->centerOn(centre);
        QTest::mouseClick(canvas->viewport(), Qt::LeftButton, {}, canvas->mapFromScene(centre));
        QCOMPARE(item->selectedRack(), first);
        // Its three servers bottom up, then its zero-U PDUs: 30.6 kW needs two 17.3 kW PDUs on
        // each feed.
        QCOMPARE(shown->view.elevation()->deviceNames(),
                 (QStringList {QStringLiteral("compute-0001"), QStringLiteral("compute-0002"),
                               QStringLiteral("compute-0003"), QStringLiteral("R01-C01-PDU-A1"),
                               QStringLiteral("R01-C01-PDU-A2"), QStringLiteral("R01-C01-PDU-B1"),
                               QStringLiteral("R01-C01-PDU-B2")}));
        QVERIFY(shown->view.statusText().contains(QStringLiteral("selected: R01-C01")));
        saveShot(&shown->view, QStringLiteral("datahall-selected.png"));
        // The row's network cabinet holds its rail leaves, 1U each from U1.
        QVERIFY(shown->view.selectRack("R01-N1"));
        const QStringList leaves = shown->view.elevation()->deviceNames();
        QVERIFY(!leaves.isEmpty());
        QVERIFY2(leaves.front().startsWith(QStringLiteral("leaf-")), qPrintable(leaves.front()));
        // ... its 7 patch panels from the top U down (256 uplinks, 16 server cables from row 2 and
        // 60 storage uplinks leave the row: tst_datahall), and its two PDUs, one a feed, last.
        QVERIFY2(leaves.contains(QStringLiteral("R01-N1-PP7")), qPrintable(leaves.join(u' ')));
        QVERIFY(!leaves.contains(QStringLiteral("R01-N1-PP8")));
        QCOMPARE(leaves.back(), QStringLiteral("R01-N1-PDU-B1"));
        saveShot(&shown->view, QStringLiteral("datahall-network-cabinet.png"));
        shown->view.canvas()->fitAll();
        saveShot(&shown->view, QStringLiteral("datahall-overview.png"));
        shown->view.resize(1366, 768);
        QCoreApplication::processEvents();
        saveShot(&shown->view, QStringLiteral("datahall-1366.png"));
    }

    void cabinetsPerRowIsAnUndoableEdit()
    {
        // Five cabinets to a row: 43 compute cabinets need 9 rows; the edit is saved in the
        // plan's hall and undo brings back the sample's 10.
        auto shown = show(model::loadPlan(samplePath, m_catalog.get()));
        QSignalSpy ready(&shown->view, &views::DataHallView::hallReady);
        shown->view.cabinetsPerRowBox()->setValue(5);
        QCOMPARE(shown->document.plan().hall.cabinetsPerRow, 5);
        shown->view.waitForIdle();
        const auto &racks = shown->view.floorItem()->hall().racks;
        int lastComputeColumn = 0;
        for (const auto &rack : racks)
            if (rack.role == "compute")
                lastComputeColumn = std::max(lastComputeColumn, rack.column);
        QCOMPARE(lastComputeColumn, 4);
        shown->document.undoStack()->undo();
        QCOMPARE(shown->document.plan().hall.cabinetsPerRow, 10);
        QCOMPARE(shown->view.cabinetsPerRowBox()->value(), 10);
    }

    void draggingACabinetMovesItsGroupAndUndoes()
    {
        // Two groups in the sample's cabinets (three DGX H100 each, ten to a row): A's 30
        // servers fill compute row 0, B's 12 the first four places of compute row 1, which
        // stands behind the spine row in room row 2 (tst_datahall derives the same rows).
        model::Plan plan = model::loadPlan(samplePath, m_catalog.get());
        model::NodeGroup a = plan.nodeGroups[0];
        a.name = "A";
        a.count = 30;
        model::NodeGroup b = a;
        b.name = "B";
        b.count = 12;
        plan.nodeGroups = {a, b};
        auto shown = show(plan);
        views::DataHallFloorItem *item = shown->view.floorItem();
        const int first = rackNamed(*item, "R03-C01");
        QVERIFY(first >= 0);
        QCOMPARE(item->hall().racks[static_cast<std::size_t>(first)].group, std::string("B"));
        views::FabricCanvas *canvas = shown->view.canvas();
        canvas->fitAll();
        // Drag B's first cabinet down to room row 4: compute row 3 (the spine row is room row 1).
        const QPoint from = canvas->mapFromScene(item->rackRect(first).center());
        const QPoint to = canvas->mapFromScene(QPointF(
            item->rackRect(first).center().x(),
            4 * views::DataHallFloorItem::rowPitch + views::DataHallFloorItem::cabinetDepth / 2));
        QSignalSpy ready(&shown->view, &views::DataHallView::hallReady);
        QTest::mousePress(canvas->viewport(), Qt::LeftButton, {}, from);
        QTest::mouseMove(canvas->viewport(), (from + to) / 2);
        QTest::mouseMove(canvas->viewport(), to);
        QTest::mouseRelease(canvas->viewport(), Qt::LeftButton, {}, to);
        QCOMPARE(shown->document.plan().nodeGroups[1].hallRow, 3);
        QCOMPARE(shown->document.plan().nodeGroups[0].hallRow, -1);
        shown->view.waitForIdle();
        if (ready.isEmpty())
            QVERIFY(ready.wait(20000));
        // Four compute rows now: the spine row moves to room row 2 and B stands in room row 4.
        item = shown->view.floorItem();
        const int moved = rackNamed(*item, "R05-C01");
        QVERIFY(moved >= 0);
        QCOMPARE(item->hall().racks[static_cast<std::size_t>(moved)].group, std::string("B"));
        QCOMPARE(rackNamed(*item, "R03-C01"), -1);
        canvas->fitAll();
        saveShot(&shown->view, QStringLiteral("datahall-dragged.png"));
        // The drag is one undoable edit, named for what it did; undo puts B back.
        QCOMPARE(shown->document.undoStack()->undoText(), QStringLiteral("Move B to row 4"));
        shown->document.undoStack()->undo();
        QCOMPARE(shown->document.plan().nodeGroups[1].hallRow, -1);
        shown->view.waitForIdle();
        QCoreApplication::processEvents();
        item = shown->view.floorItem();
        QCOMPARE(item->hall().racks[static_cast<std::size_t>(rackNamed(*item, "R03-C01"))].group,
                 std::string("B"));
        // A press and release in place still selects, and a press on the floor does not drag.
        const int back = rackNamed(*item, "R03-C01");
        const QPoint at = canvas->mapFromScene(item->rackRect(back).center());
        QTest::mouseClick(canvas->viewport(), Qt::LeftButton, {}, at);
        QCOMPARE(item->selectedRack(), back);
        QCOMPARE(shown->document.undoStack()->count(), 1);
    }

    void theMainWindowHasADataHallTab()
    {
        app::MainWindow window(m_catalog);
        window.resize(1920, 1080);
        window.show();
        QVERIFY(window.openPlan(QString::fromLatin1(samplePath)));
        auto *view = window.findChild<views::DataHallView *>();
        QVERIFY(view);
        view->waitForIdle();
        QVERIFY(view->floorItem());
        auto *tabs = window.findChild<QTabWidget *>(QStringLiteral("centralTabs"));
        tabs->setCurrentWidget(view);
        view->selectRack("R01-C01");
        QCoreApplication::processEvents();
        QCoreApplication::processEvents();
        // Laid out while its tab was hidden, the floor is fitted when the tab is shown: the
        // whole room in view, not a speck in its corner.
        const QRectF shown
            = view->canvas()->mapToScene(view->canvas()->viewport()->rect()).boundingRect();
        const QRectF room = view->floorItem()->boundingRect();
        QVERIFY(shown.contains(room));
        QVERIFY2(room.width() > 0.5 * shown.width() || room.height() > 0.5 * shown.height(),
                 qPrintable(QStringLiteral("%1 x %2 in %3 x %4")
                                .arg(room.width())
                                .arg(room.height())
                                .arg(shown.width())
                                .arg(shown.height())));
        saveShot(&window, QStringLiteral("datahall-mainwindow.png"));
    }
};

QTEST_MAIN(TestDataHallView)
#include "tst_datahallview.moc"
