// SPDX-License-Identifier: GPL-3.0-or-later
#include "datahallview.h"

#include "fabriccanvas.h"
#include "plandocument.h"
#include "rackelevationwidget.h"

#include "model/catalog/catalog.h"
#include "model/plan/plan.h"
#include "model/plan/scenarios.h"

#include <QComboBox>
#include <QGraphicsRectItem>
#include <QGraphicsScene>
#include <QHBoxLayout>
#include <QLabel>
#include <QMouseEvent>
#include <QSignalBlocker>
#include <QSpinBox>
#include <QTimer>
#include <QToolBar>
#include <QVBoxLayout>

#include <algorithm>
#include <cmath>

namespace cp::views {

DataHallView::DataHallView(PlanDocument *document, QWidget *parent)
    : QWidget(parent)
    , m_document(document)
    , m_canvas(new FabricCanvas(this))
    , m_scene(new QGraphicsScene(this))
    , m_elevation(new RackElevationWidget(this))
    , m_capacity(new QComboBox(this))
    , m_perRow(new QSpinBox(this))
    , m_status(new QLabel(this))
    , m_runner(this, [this](const auto &hall) { showHall(hall); })
{
    setObjectName(QStringLiteral("DataHallView"));
    m_canvas->setScene(m_scene);
    auto *bar = new QToolBar(this);
    bar->addAction(tr("Fit"), m_canvas, &FabricCanvas::fitAll);
    bar->addWidget(new QLabel(tr("  Colour cabinets by "), bar));
    m_capacity->setObjectName(QStringLiteral("rackCapacity"));
    // In RackCapacity's order: the index is the enum value.
    m_capacity->addItem(tr("power and cooling"));
    m_capacity->addItem(tr("rack units"));
    m_capacity->addItem(tr("heat at the training job's load"));
    m_capacity->addItem(tr("switch ports"));
    m_capacity->addItem(tr("weight"));
    m_capacity->setToolTip(tr("Green below 80% of the cabinet's limit, amber to 100%, red over; "
                              "grey where the measure does not apply (ports of a cabinet "
                              "without switches) or a figure is not in the catalog (a "
                              "weight or load rating)"));
    bar->addWidget(m_capacity);
    // The colour scale, spelled out under the floor plan: in the toolbar it overflowed a 1366
    // pixel window's, hiding itself and the cabinets-per-row box behind the "more" arrow.
    auto *legend = new QLabel(this);
    legend->setObjectName(QStringLiteral("capacityLegend"));
    QString legendText;
    const auto swatch = [](double fraction, const QString &label) {
        // A plain space between the entries, so that the key wraps in a narrow window.
        return QStringLiteral("&nbsp; <span style=\"background-color:%1\">&nbsp;&nbsp;&nbsp;"
                              "&nbsp;</span>&nbsp;%2")
            .arg(DataHallFloorItem::capacityColour(fraction).name(), label);
    };
    legendText += swatch(0.5, tr("under 80%"));
    legendText += swatch(0.9, tr("80-100%"));
    legendText += swatch(1.1, tr("over the limit"));
    legendText += swatch(-1, tr("does not apply / not known"));
    legend->setText(legendText);
    legend->setTextFormat(Qt::RichText);
    legend->setWordWrap(true);
    bar->addWidget(new QLabel(tr("  Cabinets per row "), bar));
    m_perRow->setObjectName(QStringLiteral("cabinetsPerRow"));
    m_perRow->setRange(1, 1000);
    m_perRow->setValue(model::HallPlan {}.cabinetsPerRow);
    m_perRow->setToolTip(tr("Compute cabinets in a row before its network cabinet (undoable, "
                            "saved in the plan): rows set the cable lengths"));
    bar->addWidget(m_perRow);
    m_status->setObjectName(QStringLiteral("dataHallStatus"));
    m_status->setWordWrap(true);
    auto *body = new QHBoxLayout;
    body->addWidget(m_canvas, 1);
    body->addWidget(m_elevation);
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(bar);
    layout->addLayout(body, 1);
    layout->addWidget(legend);
    layout->addWidget(m_status);
    connect(m_document, &PlanDocument::planChanged, this, &DataHallView::onPlanChanged);
    connect(m_canvas, &FabricCanvas::clicked, this,
            [this](QPointF scenePoint, double) { onClicked(scenePoint); });
    m_canvas->viewport()->installEventFilter(this);
    connect(m_perRow, &QSpinBox::valueChanged, this,
            [this](int cabinets) { setCabinetsPerRow(cabinets); });
    connect(m_capacity, &QComboBox::currentIndexChanged, this,
            [this](int index) { setCapacity(static_cast<RackCapacity>(index)); });
    updateStatus();
}

void DataHallView::setCatalog(std::shared_ptr<const model::Catalog> catalog)
{
    m_catalog = std::move(catalog);
    requestLayout();
}

void DataHallView::onPlanChanged(PlanParts parts)
{
    const QSignalBlocker quiet(m_perRow);
    m_perRow->setValue(m_document->plan().hall.cabinetsPerRow);
    if (!onlyLayoutChanged(parts))
        requestLayout();
}

void DataHallView::requestLayout()
{
    if (!m_catalog)
        return;
    const model::Plan plan = model::scenarioPlan(m_document->plan(), -1, nullptr);
    m_runner.request([plan, catalog = m_catalog](const std::atomic<bool> *) {
        try {
            return std::make_shared<const model::DataHall>(model::layoutDataHall(plan, *catalog));
        } catch (const std::exception &error) {
            auto failed = std::make_shared<model::DataHall>();
            failed->notes.push_back(std::string("The room cannot be laid out: ") + error.what());
            return std::shared_ptr<const model::DataHall>(failed);
        }
    });
}

void DataHallView::showHall(const std::shared_ptr<const model::DataHall> &hall)
{
    const std::string selected = m_item && m_item->selectedRack() >= 0
        ? m_hall->racks[static_cast<std::size_t>(m_item->selectedRack())].name
        : std::string();
    const bool firstLayout = m_item == nullptr;
    endDrag();
    m_hall = hall;
    m_scene->clear();
    m_item = new DataHallFloorItem(hall);
    m_item->setCapacity(static_cast<RackCapacity>(m_capacity->currentIndex()));
    m_scene->addItem(m_item);
    m_scene->setSceneRect(m_item->boundingRect());
    m_elevation->setRack(hall, -1);
    if (!selected.empty())
        selectRack(selected);
    if (firstLayout && isVisible())
        m_canvas->fitAll();
    else if (firstLayout)
        m_fitPending = true;
    updateStatus();
    emit hallReady();
}

bool DataHallView::selectRack(const std::string &name)
{
    if (!m_item)
        return false;
    for (std::size_t r = 0; r < m_hall->racks.size(); ++r)
        if (m_hall->racks[r].name == name) {
            m_item->setSelectedRack(static_cast<int>(r));
            m_elevation->setRack(m_hall, static_cast<int>(r));
            updateStatus();
            return true;
        }
    return false;
}

void DataHallView::setCabinetsPerRow(int cabinets)
{
    if (m_perRow->value() != cabinets) {
        const QSignalBlocker quiet(m_perRow);
        m_perRow->setValue(cabinets);
    }
    if (m_document->plan().hall.cabinetsPerRow == cabinets)
        return;
    model::Plan changed = m_document->plan();
    changed.hall.cabinetsPerRow = cabinets;
    m_document->edit(changed, tr("Set %1 cabinets per row").arg(cabinets));
}

bool DataHallView::moveGroupToRow(int rack, int roomRow)
{
    if (!m_hall || rack < 0 || rack >= static_cast<int>(m_hall->racks.size()) || roomRow < 0)
        return false;
    const model::HallRack &cabinet = m_hall->racks[static_cast<std::size_t>(rack)];
    model::Plan changed = m_document->plan();
    const auto group
        = std::find_if(changed.nodeGroups.begin(), changed.nodeGroups.end(),
                       [&](const model::NodeGroup &g) { return g.name == cabinet.group; });
    if (cabinet.role != "compute" || group == changed.nodeGroups.end())
        return false;
    // The row its first cabinet stands in now: dropping there changes nothing.
    int firstRow = cabinet.row;
    for (const model::HallRack &r : m_hall->racks)
        if (r.group == cabinet.group) {
            firstRow = r.row;
            break;
        }
    const int computeRow = m_hall->computeRowOf(roomRow);
    if (group->hallRow == computeRow || (group->hallRow < 0 && roomRow == firstRow))
        return false;
    group->hallRow = computeRow;
    m_document->edit(
        changed,
        tr("Move %1 to row %2").arg(QString::fromStdString(group->name)).arg(computeRow + 1));
    return true;
}

int DataHallView::roomRowAt(QPointF scenePoint) const
{
    return std::max(0, static_cast<int>(std::floor(scenePoint.y() / DataHallFloorItem::rowPitch)));
}

void DataHallView::showDragGhost(QPointF scenePoint)
{
    if (!m_dragGhost) {
        m_dragGhost = new QGraphicsRectItem;
        m_dragGhost->setPen(QPen(QColor(0, 188, 212), 2, Qt::DashLine));
        m_dragGhost->setBrush(QColor(0, 188, 212, 60));
        m_dragGhost->setZValue(10);
        m_scene->addItem(m_dragGhost);
    }
    // The group's first cabinet, at the start of the row under the cursor.
    const int row = roomRowAt(scenePoint);
    m_dragGhost->setRect(0, row * DataHallFloorItem::rowPitch, DataHallFloorItem::cabinetWidth * 3,
                         DataHallFloorItem::cabinetDepth);
}

void DataHallView::endDrag()
{
    m_dragRack = -1;
    m_dragMoved = false;
    if (m_dragGhost) {
        m_scene->removeItem(m_dragGhost);
        delete m_dragGhost;
        m_dragGhost = nullptr;
    }
    m_canvas->viewport()->unsetCursor();
}

bool DataHallView::eventFilter(QObject *watched, QEvent *event)
{
    if (watched != m_canvas->viewport() || !m_item)
        return QWidget::eventFilter(watched, event);
    auto *mouse = dynamic_cast<QMouseEvent *>(event);
    if (!mouse)
        return QWidget::eventFilter(watched, event);
    const QPointF scenePoint = m_canvas->mapToScene(mouse->position().toPoint());
    if (event->type() == QEvent::MouseButtonPress && mouse->button() == Qt::LeftButton) {
        const int rack = m_item->rackAt(scenePoint);
        if (rack < 0 || m_hall->racks[static_cast<std::size_t>(rack)].role != "compute")
            return false; // the floor pans
        m_dragRack = rack;
        m_dragPressedAt = mouse->position().toPoint();
        m_dragMoved = false;
        return true;
    }
    if (event->type() == QEvent::MouseMove && m_dragRack >= 0) {
        if ((mouse->position().toPoint() - m_dragPressedAt).manhattanLength() >= 4) {
            m_dragMoved = true;
            m_canvas->viewport()->setCursor(Qt::ClosedHandCursor);
            showDragGhost(scenePoint);
        }
        return true;
    }
    if (event->type() == QEvent::MouseButtonRelease && m_dragRack >= 0) {
        const int rack = m_dragRack;
        const bool moved = m_dragMoved;
        endDrag();
        if (moved)
            moveGroupToRow(rack, roomRowAt(scenePoint));
        else
            onClicked(scenePoint);
        return true;
    }
    return false;
}

void DataHallView::setCapacity(RackCapacity capacity)
{
    if (m_capacity->currentIndex() != static_cast<int>(capacity))
        m_capacity->setCurrentIndex(static_cast<int>(capacity));
    if (m_item)
        m_item->setCapacity(capacity);
    updateStatus();
}

void DataHallView::onClicked(QPointF scenePoint)
{
    if (!m_item)
        return;
    const int rack = m_item->rackAt(scenePoint);
    m_item->setSelectedRack(rack);
    m_elevation->setRack(m_hall, rack);
    updateStatus();
}

QString DataHallView::statusText() const
{
    return m_status->text();
}

void DataHallView::updateStatus()
{
    if (!m_hall) {
        m_status->setText(tr("Laying out the room…"));
        return;
    }
    int over = 0, near = 0, notApplicable = 0;
    for (std::size_t r = 0; r < m_hall->racks.size(); ++r) {
        const double fill = m_item->fillOf(static_cast<int>(r));
        over += fill > 1.0 ? 1 : 0;
        near += fill >= 0.8 && fill <= 1.0 ? 1 : 0;
        notApplicable += fill < 0 ? 1 : 0;
    }
    QStringList parts;
    // As the Estimate and the report count them: the compute and storage networks' cables,
    // then the management network's beside them.
    const auto management = std::count_if(m_hall->cables.begin(), m_hall->cables.end(),
                                          [](const model::HallCable &c) { return c.management; });
    const QLocale locale;
    parts << tr("%1 cabinets, %2 devices, %3 cables (compute and storage networks) and %4 "
                "management cables")
                 .arg(locale.toString(static_cast<qlonglong>(m_hall->racks.size())),
                      locale.toString(static_cast<qlonglong>(m_hall->devices.size())),
                      locale.toString(static_cast<qlonglong>(m_hall->cables.size()) - management),
                      locale.toString(static_cast<qlonglong>(management)));
    parts << tr("%1 over the limit, %2 within 20% of it (by %3; green under 80%, amber to "
                "100%, red over)")
                 .arg(over)
                 .arg(near)
                 .arg(m_capacity->currentText());
    if (notApplicable > 0)
        parts << (notApplicable == 1 ? tr("1 cabinet grey: %1 does not apply or is not known")
                                           .arg(m_capacity->currentText())
                                     : tr("%1 cabinets grey: %2 does not apply or is not known")
                                           .arg(notApplicable)
                                           .arg(m_capacity->currentText()));
    for (const std::string &note : m_hall->notes)
        parts << QString::fromStdString(note);
    if (m_item && m_item->selectedRack() >= 0)
        parts << tr("selected: %1")
                     .arg(QString::fromStdString(
                         m_hall->racks[static_cast<std::size_t>(m_item->selectedRack())].name));
    else
        parts << tr("click a cabinet for its elevation, drag it to move its group to another row");
    m_status->setText(parts.join(QStringLiteral(" · ")));
}

void DataHallView::showEvent(QShowEvent *event)
{
    QWidget::showEvent(event);
    if (m_fitPending) {
        m_fitPending = false;
        QTimer::singleShot(0, m_canvas, &FabricCanvas::fitAll);
    }
}

void DataHallView::waitForIdle()
{
    m_runner.waitForIdle();
}

} // namespace cp::views
