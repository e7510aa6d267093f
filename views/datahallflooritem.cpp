// SPDX-License-Identifier: GPL-3.0-or-later
#include "datahallflooritem.h"

#include <QFontMetricsF>
#include <QObject>
#include <QPainter>
#include <QStyleOptionGraphicsItem>

#include <algorithm>

namespace cp::views {

DataHallFloorItem::DataHallFloorItem(std::shared_ptr<const model::DataHall> hall)
    : m_hall(std::move(hall))
{
    // exposedRect: paint only the cabinets on screen (a 16,384-GPU room has thousands).
    setFlag(ItemUsesExtendedStyleOption);
    for (std::size_t r = 0; r < m_hall->racks.size(); ++r) {
        m_bounds |= rackRect(static_cast<int>(r));
        m_rows = std::max(m_rows, m_hall->racks[r].row + 1);
        const QString name = QString::fromStdString(m_hall->racks[r].name);
        if (name.size() > m_longestName.size())
            m_longestName = name;
    }
    // Room on the left for the row names.
    m_bounds.adjust(-3 * cabinetWidth, -cabinetWidth, cabinetWidth, cabinetWidth);
}

QRectF DataHallFloorItem::boundingRect() const
{
    return m_bounds;
}

QRectF DataHallFloorItem::rackRect(int rack) const
{
    const model::HallRack &r = m_hall->racks[static_cast<std::size_t>(rack)];
    return {r.column * cabinetWidth, r.row * rowPitch, cabinetWidth - 2, cabinetDepth};
}

int DataHallFloorItem::rackAt(QPointF scenePoint) const
{
    for (std::size_t r = 0; r < m_hall->racks.size(); ++r)
        if (rackRect(static_cast<int>(r)).contains(scenePoint))
            return static_cast<int>(r);
    return -1;
}

void DataHallFloorItem::setSelectedRack(int rack)
{
    m_selected = rack;
    update();
}

void DataHallFloorItem::setCapacity(RackCapacity capacity)
{
    m_capacity = capacity;
    update();
}

double DataHallFloorItem::fillOf(int rack) const
{
    const model::HallRack &r = m_hall->racks[static_cast<std::size_t>(rack)];
    if (m_capacity == RackCapacity::Space)
        return r.rackUnits > 0 ? static_cast<double>(r.usedUnits) / r.rackUnits : 0.0;
    if (m_capacity == RackCapacity::RunPower)
        return r.limitWatts > 0 ? r.runWatts / r.limitWatts : 0.0;
    if (m_capacity == RackCapacity::Ports)
        return r.ports > 0 ? static_cast<double>(r.portsUsed) / r.ports : -1.0;
    if (m_capacity == RackCapacity::Weight)
        return r.weightFraction();
    return r.powerFraction();
}

QColor DataHallFloorItem::capacityColour(double fraction)
{
    if (fraction < 0)
        return {189, 189, 189}; // not applicable
    if (fraction > 1.0)
        return {211, 47, 47}; // over the limit
    if (fraction >= 0.8)
        return {245, 166, 35}; // within 20% of it
    return {76, 175, 80};
}

int DataHallFloorItem::cabinetNamePixelSize(QFont font, const QString &name)
{
    // The name runs along the cabinet (rotated), so its advance meets the depth and its line
    // height the width of the drawn cabinet (cabinetWidth - 2), each with 2 units either side.
    const double length = cabinetDepth - 4;
    const double across = cabinetWidth - 2 - 4;
    for (int pixels = 11; pixels > 7; --pixels) {
        font.setPixelSize(pixels);
        const QFontMetricsF metrics(font);
        if (metrics.horizontalAdvance(name) <= length && metrics.height() <= across)
            return pixels;
    }
    return 7;
}

QColor DataHallFloorItem::colourOf(int rack) const
{
    return capacityColour(fillOf(rack));
}

void DataHallFloorItem::paint(QPainter *painter, const QStyleOptionGraphicsItem *option, QWidget *)
{
    const double lod = option->levelOfDetailFromTransform(painter->worldTransform());
    // What is on screen: the exposed part, narrowed by the painter's clip where it has one
    // (QGraphicsView::render() exposes the whole item but clips to its target).
    QRectF visible = option->exposedRect;
    if (painter->hasClipping())
        visible &= painter->clipBoundingRect();
    // Every shape here is an axis-aligned rectangle: without antialiasing they take the raster
    // engine's rectangle fast path, with no visible loss (text keeps its own antialiasing).
    painter->setRenderHint(QPainter::Antialiasing, false);
    QFont font = painter->font();
    // Every row of the room, empty ones too (a drag's targets), named as its cabinets are.
    font.setPixelSize(10);
    painter->setFont(font);
    const double rowLength = m_bounds.right() - cabinetWidth;
    // Aisles alternate between rows (ANSI/TIA-942's hot and cold aisles): cabinets of rows 1
    // and 2 face each other across a cold aisle, rows 2 and 3 back onto a hot one, and so on.
    for (int row = 0; row + 1 < m_rows; ++row) {
        const QRectF aisle(0, row * rowPitch + cabinetDepth + 2, rowLength,
                           rowPitch - cabinetDepth - 4);
        if (!aisle.intersects(visible))
            continue;
        const bool cold = row % 2 == 0;
        painter->setPen(Qt::NoPen);
        painter->setBrush(cold ? QColor(227, 242, 253) : QColor(255, 235, 238));
        painter->drawRect(aisle);
        painter->setPen(cold ? QColor(30, 100, 170) : QColor(170, 50, 50));
        painter->drawText(aisle, Qt::AlignCenter,
                          cold ? QObject::tr("cold aisle") : QObject::tr("hot aisle"));
    }
    for (int row = 0; row < m_rows; ++row) {
        const QRectF band(0, row * rowPitch, rowLength, cabinetDepth);
        if (!band.adjusted(-3 * cabinetWidth, 0, 0, 0).intersects(visible))
            continue;
        painter->setPen(QPen(QColor(200, 200, 200), 1, Qt::DotLine));
        painter->setBrush(Qt::NoBrush);
        painter->drawRect(band.adjusted(-2, -2, 2, 2));
        painter->setPen(QColor(90, 90, 90));
        painter->drawText(
            QRectF(-3 * cabinetWidth, row * rowPitch, 2.5 * cabinetWidth, cabinetDepth),
            Qt::AlignRight | Qt::AlignVCenter,
            QStringLiteral("R%1").arg(row + 1, 2, 10, QLatin1Char('0')));
    }
    font.setPixelSize(cabinetNamePixelSize(font, m_longestName));
    painter->setFont(font);
    for (std::size_t i = 0; i < m_hall->racks.size(); ++i) {
        const int rack = static_cast<int>(i);
        const QRectF rect = rackRect(rack);
        if (!rect.intersects(visible))
            continue;
        const model::HallRack &r = m_hall->racks[i];
        QColor fill = colourOf(rack);
        fill.setAlpha(r.role == "compute" ? 255 : 200);
        painter->setBrush(fill);
        const bool network = r.role != "compute";
        painter->setPen(QPen(network ? QColor(40, 40, 90) : QColor(60, 60, 60), network ? 2 : 1));
        painter->drawRect(rect);
        if (rack == m_selected) {
            painter->setBrush(Qt::NoBrush);
            painter->setPen(QPen(QColor(0, 188, 212), 3));
            painter->drawRect(rect.adjusted(-3, -3, 3, 3));
        }
        // Names once a cabinet is a few dozen pixels tall.
        if (lod * cabinetDepth > 60) {
            painter->setPen(Qt::black);
            painter->save();
            painter->translate(rect.center());
            painter->rotate(-90);
            painter->drawText(
                QRectF(-cabinetDepth / 2, -cabinetWidth / 2, cabinetDepth, cabinetWidth),
                Qt::AlignCenter, QString::fromStdString(r.name));
            painter->restore();
        }
    }
}

} // namespace cp::views
