// SPDX-License-Identifier: GPL-3.0-or-later
#include "portitem.h"

#include <QBrush>
#include <QCoreApplication>
#include <QCursor>
#include <QPen>

namespace cp::views {

PortItem::PortItem(QString cardKey, bool connected, QGraphicsItem *parent)
    : QGraphicsEllipseItem(-7, -7, 14, 14, parent)
    , m_cardKey(std::move(cardKey))
    , m_connected(connected)
{
    setPen(QPen(connected ? QColor(0x15, 0x65, 0xc0) : QColor(0xef, 0x6c, 0x00), 2.5));
    setBrush(connected ? QBrush(QColor(0x15, 0x65, 0xc0)) : QBrush(Qt::white));
    setCursor(Qt::CrossCursor);
    setZValue(2);
    // On the middle of the card's top edge, where a cable would leave it.
    const QRectF card = parent->boundingRect();
    setPos(card.center().x(), card.top());
    setToolTip(
        connected ? QCoreApplication::translate(
            "PortItem", "Connected to the fabric. Drag this port off the fabric to unplug it.")
                  : QCoreApplication::translate(
                      "PortItem", "Not connected. Drag this port onto the fabric card."));
}

} // namespace cp::views
