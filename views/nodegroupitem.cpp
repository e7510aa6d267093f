// SPDX-License-Identifier: GPL-3.0-or-later
#include "nodegroupitem.h"

#include <QFontMetricsF>
#include <QLocale>
#include <QPainter>

#include <algorithm>

namespace cp::views {

namespace {
constexpr int racksDrawn = 16; ///< more than this: one aggregated block with the count
}

NodeGroupItem::NodeGroupItem(QString key, QString title, QStringList lines, int racks,
                             int nodesPerRack, int nodes, int rackUnits, int nodeUnits)
    : PlanCardItem(std::move(key), std::move(title), std::move(lines), QColor(0x2e, 0x7d, 0x32))
    , m_racks(racks)
    , m_nodesPerRack(nodesPerRack)
    , m_nodes(nodes)
    , m_rackUnits(std::max(1, rackUnits))
    , m_nodeUnits(std::max(1, nodeUnits))
{
    setBodyHeight(m_racks > 0 ? 96 : 0);
}

void NodeGroupItem::paintBody(QPainter *painter, const QRectF &area, double levelOfDetail)
{
    if (m_racks <= 0)
        return;
    const int drawn = std::min(m_racks, racksDrawn);
    const double gap = 3;
    const double width = std::min(28.0, (area.width() - gap * (drawn - 1)) / drawn);
    painter->setPen(QPen(QColor(0x55, 0x55, 0x55), 1));
    for (int r = 0; r < drawn; ++r) {
        const QRectF rack(area.left() + r * (width + gap), area.top(), width, area.height() - 14);
        painter->setBrush(QColor(0x37, 0x47, 0x4f));
        painter->drawRect(rack);
        // One slot per server at its rack units (the rack's height is its U count).
        const int inRack = (r == m_racks - 1 && m_racks * m_nodesPerRack > m_nodes)
            ? m_nodes - (m_racks - 1) * m_nodesPerRack
            : m_nodesPerRack;
        const double unit = rack.height() / m_rackUnits;
        painter->setBrush(QColor(0x81, 0xc7, 0x84));
        if (levelOfDetail < 0.8) {
            // Too small for slots (a card fitted at 1366 x 768): the servers' units as one
            // block, so a full rack does not look empty.
            const double filled = std::min(rack.height(), inRack * m_nodeUnits * unit);
            painter->setPen(Qt::NoPen);
            painter->drawRect(
                QRectF(rack.left() + 2, rack.bottom() - filled, rack.width() - 4, filled));
            painter->setPen(QPen(QColor(0x55, 0x55, 0x55), 1));
            continue;
        }
        for (int n = 0; n < inRack; ++n) {
            const double top = rack.bottom() - (n + 1) * m_nodeUnits * unit;
            if (top < rack.top())
                break;
            painter->drawRect(
                QRectF(rack.left() + 2, top + 0.5, rack.width() - 4, m_nodeUnits * unit - 1));
        }
    }
    painter->setPen(QColor(0x30, 0x30, 0x30));
    const QString caption = racksCaption(QFontMetricsF(painter->font()), area.width());
    painter->drawText(QRectF(area.left(), area.bottom() - 13, area.width(), 13),
                      Qt::AlignLeft | Qt::AlignVCenter, caption);
}

QString NodeGroupItem::racksCaption(const QFontMetricsF &metrics, double width) const
{
    // "16 of 5,462 racks shown, up to 3 servers each" ran past a card's edge: shorter wordings
    // follow, the first that fits is drawn.
    const int drawn = std::min(m_racks, racksDrawn);
    const QString racks = QLocale().toString(m_racks);
    const QStringList captions = m_racks > drawn
        ? QStringList {QObject::tr("%1 of %2 racks shown, up to %3 servers each")
                           .arg(drawn)
                           .arg(racks)
                           .arg(m_nodesPerRack),
                       QObject::tr("%1 of %2 racks, up to %3 servers each")
                           .arg(drawn)
                           .arg(racks)
                           .arg(m_nodesPerRack),
                       QObject::tr("%1 of %2 racks").arg(drawn).arg(racks)}
        : QStringList {
            QObject::tr("%1 racks, up to %2 servers each").arg(racks).arg(m_nodesPerRack),
            QObject::tr("%1 racks").arg(racks)};
    for (const QString &candidate : captions)
        if (metrics.horizontalAdvance(candidate) <= width)
            return candidate;
    return captions.back();
}

} // namespace cp::views
