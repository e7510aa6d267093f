// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QGraphicsPathItem>
#include <QGraphicsSimpleTextItem>
#include <QPainterPath>
#include <QPointF>
#include <QRectF>
#include <QString>

namespace cp::views {

class CableRouter;

/**
 * The cable between the fabric card and a server-group or storage card's port, drawn as a cable
 * tray would run it: straight out of the port, along horizontal and vertical runs with rounded
 * bends, into the nearest edge of the fabric card, and around the two cards rather than under
 * them. Selectable, so Delete unplugs it; only the stroke itself picks it, not the area the bends
 * enclose.
 */
class FabricLinkItem : public QGraphicsPathItem
{
public:
    /** The cable along `corners` (route()'s), from the port at its front. */
    FabricLinkItem(QString cardKey, const QList<QPointF> &corners);

    /** Runs the cable along new `corners` (a card moved), its label kept beside the port. */
    void setRoute(const QList<QPointF> &corners);

    const QString &cardKey() const { return m_cardKey; }
    QPainterPath shape() const override;

    /** Writes what the cable carries ("1,024 × 400 Gb/s") just above its card, beside the port,
     *  with `details` (the NIC) in the tooltip; empty leaves the cable unlabelled. */
    void setLabel(const QString &label, const QString &details);
    QString label() const;
    QString labelDetails() const;

    /** The corner points of the run from `port` (on `card`'s top edge) to the fabric card's edge:
     *  first the port, last a point on `fabricCard`'s border. The direct way (over the cards or
     *  with one jog) where it passes under none of `obstacles`, else CableRouter's way round. */
    static QList<QPointF> route(const QRectF &fabricCard, const QRectF &card, QPointF port,
                                const QList<QRectF> &obstacles = {});
    /** The same with a router built once for every cable of a layout (PlanScene's) and that
     *  layout's cards, `card` among them: every other card is an obstacle, so no cable needs a
     *  list of its own. */
    static QList<QPointF> route(const QRectF &fabricCard, const QRectF &card, QPointF port,
                                const QList<QRectF> &layoutCards, const CableRouter &router);
    /** `corners` as a path whose bends are arcs of up to `radius` (less where a run is shorter). */
    static QPainterPath roundedPath(const QList<QPointF> &corners, double radius);

private:
    /** Over both cards, or down with one jog, considering only the two cards. */
    static QList<QPointF> directRoute(const QRectF &fabricCard, const QRectF &card, QPointF port);

    /** Puts the label right of the port, its baseline just above the card's top edge. */
    void placeLabel();

    QString m_cardKey;
    QPointF m_port;
    QGraphicsSimpleTextItem *m_label = nullptr;
    QString m_unlabelledToolTip;
};

} // namespace cp::views
