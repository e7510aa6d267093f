// SPDX-License-Identifier: GPL-3.0-or-later
#include "fabriclinkitem.h"

#include "cablerouter.h"

#include <QCoreApplication>
#include <QFont>
#include <QGraphicsScene>
#include <QLineF>
#include <QPainterPathStroker>
#include <QPen>

#include <algorithm>
#include <cmath>

namespace cp::views {

namespace {

/** How far a run keeps off a card's edge, and how far into a card's edge it may land from a
 *  corner, in scene units (a card is about 190 wide): the router's, so both ways agree. */
const double clearance = CableRouter::Layout().clearance;
const double edgeMargin = CableRouter::Layout().edgeMargin;
constexpr double bendRadius = 10;

/** `corners` without repeated points and without the middle one of three on one straight run. */
QList<QPointF> withoutRedundantCorners(const QList<QPointF> &corners)
{
    QList<QPointF> distinct;
    for (const QPointF &point : corners)
        if (distinct.isEmpty() || QLineF(distinct.back(), point).length() > 0.5)
            distinct.push_back(point);
    QList<QPointF> result;
    for (qsizetype i = 0; i < distinct.size(); ++i) {
        if (i > 0 && i + 1 < distinct.size()) {
            const QPointF in = distinct[i] - distinct[i - 1];
            const QPointF out = distinct[i + 1] - distinct[i];
            if (std::abs(in.x() * out.y() - in.y() * out.x()) < 1e-6)
                continue;
        }
        result.push_back(distinct[i]);
    }
    return result;
}

} // namespace

FabricLinkItem::FabricLinkItem(QString cardKey, const QList<QPointF> &corners)
    : m_cardKey(std::move(cardKey))
    , m_port(corners.isEmpty() ? QPointF() : corners.front())
{
    setPath(roundedPath(corners, bendRadius));
    setPen(QPen(QColor(0x15, 0x65, 0xc0, 140), 3, Qt::SolidLine, Qt::RoundCap, Qt::RoundJoin));
    setBrush(Qt::NoBrush);
    setZValue(-1);
    setFlag(QGraphicsItem::ItemIsSelectable);
    setData(0, m_cardKey);
    m_unlabelledToolTip = QCoreApplication::translate(
        "FabricLinkItem", "Link to the fabric: select it and press Delete to unplug");
    setToolTip(m_unlabelledToolTip);
}

void FabricLinkItem::setRoute(const QList<QPointF> &corners)
{
    m_port = corners.isEmpty() ? QPointF() : corners.front();
    setPath(roundedPath(corners, bendRadius));
    placeLabel();
}

void FabricLinkItem::placeLabel()
{
    if (!m_label)
        return;
    // Right of the port, its baseline just above the card's top edge: every route leaves the
    // port upwards, so the cable never crosses this spot.
    const QRectF box = m_label->boundingRect();
    m_label->setPos(m_port.x() + 10, m_port.y() - box.height() - 2);
}

void FabricLinkItem::setLabel(const QString &label, const QString &details)
{
    delete m_label;
    m_label = nullptr;
    setToolTip(m_unlabelledToolTip);
    if (label.isEmpty())
        return;
    m_label = new QGraphicsSimpleTextItem(label, this);
    if (scene())
        m_label->setFont(scene()->font()); // the cards' own size, so it zooms with them
    m_label->setBrush(QColor(0x0d, 0x47, 0xa1));
    m_label->setToolTip(details);
    placeLabel();
    setToolTip(m_unlabelledToolTip + QLatin1Char('\n') + details);
}

QString FabricLinkItem::label() const
{
    return m_label ? m_label->text() : QString();
}

QString FabricLinkItem::labelDetails() const
{
    return m_label ? m_label->toolTip() : QString();
}

QPainterPath FabricLinkItem::shape() const
{
    // The stroke, a little wider than drawn to be easy to pick; not the area inside the bends,
    // which QGraphicsPathItem's own shape would include.
    QPainterPathStroker stroker;
    stroker.setWidth(pen().widthF() + 6);
    stroker.setCapStyle(Qt::RoundCap);
    return stroker.createStroke(path());
}

QList<QPointF> FabricLinkItem::route(const QRectF &fabricCard, const QRectF &card, QPointF port,
                                     const QList<QRectF> &obstacles)
{
    CableRouter::Layout layout;
    layout.fabricCard = fabricCard;
    layout.cards = obstacles;
    layout.cards << card;
    layout.ports = {port};
    const CableRouter router(layout);
    return route(fabricCard, card, port, layout.cards, router);
}

QList<QPointF> FabricLinkItem::route(const QRectF &fabricCard, const QRectF &card, QPointF port,
                                     const QList<QRectF> &layoutCards, const CableRouter &router)
{
    const QList<QPointF> direct = directRoute(fabricCard, card, port);
    const auto passesUnder = [&](const QRectF &other) {
        for (qsizetype i = 0; i + 1 < direct.size(); ++i)
            if (CableRouter::crosses(direct[i], direct[i + 1], other))
                return true;
        return false;
    };
    // The cable's own card is not in its way; another card at the very same place is.
    bool ownCardSkipped = false;
    const auto blocks = [&](const QRectF &other) {
        if (!ownCardSkipped && other == card) {
            ownCardSkipped = true;
            return false;
        }
        return passesUnder(other);
    };
    if (std::none_of(layoutCards.begin(), layoutCards.end(), blocks))
        return direct;
    if (const auto around = router.route(port))
        return withoutRedundantCorners(*around);
    return direct; // boxed in on every side: under a card is the best there is
}

QList<QPointF> FabricLinkItem::directRoute(const QRectF &fabricCard, const QRectF &card,
                                           QPointF port)
{
    const double fabricX
        = std::clamp(port.x(), fabricCard.left() + edgeMargin, fabricCard.right() - edgeMargin);
    if (fabricCard.bottom() < port.y() - clearance / 2) {
        // The fabric card is above the port: down from its bottom edge, with one jog half-way
        // when the port is not under it.
        const double jogY = (fabricCard.bottom() + port.y()) / 2;
        return withoutRedundantCorners(
            {port, {port.x(), jogY}, {fabricX, jogY}, {fabricX, fabricCard.bottom()}});
    }
    // Otherwise up out of the port above both cards, across, and down onto the fabric card's
    // top edge, unless that drop would pass through the card itself: then around its side.
    const double overheadY = std::min(port.y(), fabricCard.top()) - clearance;
    const bool dropCrossesCard
        = fabricX > card.left() && fabricX < card.right() && card.top() < fabricCard.top();
    if (!dropCrossesCard)
        return withoutRedundantCorners(
            {port, {port.x(), overheadY}, {fabricX, overheadY}, {fabricX, fabricCard.top()}});
    const bool fabricToTheRight = fabricCard.center().x() >= card.center().x();
    const double sideX = fabricToTheRight ? card.right() + clearance : card.left() - clearance;
    if (sideX > fabricCard.left() && sideX < fabricCard.right())
        return withoutRedundantCorners(
            {port, {port.x(), overheadY}, {sideX, overheadY}, {sideX, fabricCard.top()}});
    const double fabricY = fabricCard.center().y();
    const double edgeX = sideX < fabricCard.left() ? fabricCard.left() : fabricCard.right();
    return withoutRedundantCorners(
        {port, {port.x(), overheadY}, {sideX, overheadY}, {sideX, fabricY}, {edgeX, fabricY}});
}

QPainterPath FabricLinkItem::roundedPath(const QList<QPointF> &corners, double radius)
{
    QPainterPath path;
    if (corners.isEmpty())
        return path;
    path.moveTo(corners.front());
    for (qsizetype i = 1; i + 1 < corners.size(); ++i) {
        const QLineF in(corners[i - 1], corners[i]);
        const QLineF out(corners[i], corners[i + 1]);
        const double bend = std::min({radius, in.length() / 2, out.length() / 2});
        const QPointF before = corners[i] - (in.p2() - in.p1()) * (bend / in.length());
        const QPointF after = corners[i] + (out.p2() - out.p1()) * (bend / out.length());
        path.lineTo(before);
        path.quadTo(corners[i], after);
    }
    if (corners.size() > 1)
        path.lineTo(corners.back());
    return path;
}

} // namespace cp::views
