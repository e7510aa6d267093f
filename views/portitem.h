// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QGraphicsEllipseItem>
#include <QString>

namespace cp::views {

/**
 * The port on top of a server-group or storage card: drag from it onto the fabric card to cable
 * the card to the fabric, or off the fabric to unplug it (PlanScene handles the drag). Filled when
 * connected, hollow when not.
 */
class PortItem : public QGraphicsEllipseItem
{
public:
    PortItem(QString cardKey, bool connected, QGraphicsItem *parent);

    const QString &cardKey() const { return m_cardKey; }
    bool connected() const { return m_connected; }

private:
    QString m_cardKey;
    bool m_connected;
};

} // namespace cp::views
