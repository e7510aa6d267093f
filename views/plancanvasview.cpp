// SPDX-License-Identifier: GPL-3.0-or-later
#include "plancanvasview.h"

#include <QWheelEvent>

namespace cp::views {

PlanCanvasView::PlanCanvasView(QWidget *parent)
    : QGraphicsView(parent)
{
    setAcceptDrops(true);
    setDragMode(QGraphicsView::RubberBandDrag);
    setRenderHint(QPainter::Antialiasing);
    setTransformationAnchor(QGraphicsView::AnchorUnderMouse);
    setViewportUpdateMode(QGraphicsView::SmartViewportUpdate);
    setBackgroundBrush(QColor(0xee, 0xf1, 0xf5));
}

void PlanCanvasView::setHint(const QString &hint)
{
    if (hint == m_hint)
        return;
    m_hint = hint;
    viewport()->update();
}

void PlanCanvasView::drawForeground(QPainter *painter, const QRectF &rect)
{
    QGraphicsView::drawForeground(painter, rect);
    if (m_hint.isEmpty())
        return;
    // In viewport pixels, so the hint stays put and readable at any zoom.
    painter->save();
    painter->resetTransform();
    const QRect area = viewport()->rect().adjusted(24, 16, -24, -16);
    QFont font = painter->font();
    font.setPointSizeF(font.pointSizeF() * 1.15);
    painter->setFont(font);
    const QRect box
        = painter->fontMetrics()
              .boundingRect(area, Qt::AlignHCenter | Qt::AlignTop | Qt::TextWordWrap, m_hint)
              .adjusted(-14, -8, 14, 8);
    painter->setPen(QColor(0x9a, 0xb4, 0xd8));
    painter->setBrush(QColor(0xff, 0xff, 0xff, 235));
    painter->drawRoundedRect(box, 8, 8);
    painter->setPen(QColor(0x1f, 0x3b, 0x63));
    painter->drawText(area, Qt::AlignHCenter | Qt::AlignTop | Qt::TextWordWrap, m_hint);
    painter->restore();
}

void PlanCanvasView::zoomIn()
{
    m_keepFitted = false; // the user's zoom stays
    if (zoomFactor() < 8)
        scale(1.25, 1.25);
}

void PlanCanvasView::zoomOut()
{
    m_keepFitted = false;
    if (zoomFactor() > 0.05)
        scale(0.8, 0.8);
}

void PlanCanvasView::fitAll()
{
    if (!scene())
        return;
    if (!isVisible()) {
        // Before the first show the viewport has a placeholder size: fitting now would leave
        // the plan a speck once the window opens at its real size.
        m_fitPending = true;
        return;
    }
    m_fitPending = false;
    m_keepFitted = true;
    const QRectF bounds = scene()->itemsBoundingRect().adjusted(-40, -40, 40, 40);
    if (bounds.isEmpty())
        return;
    fitInView(bounds, Qt::KeepAspectRatio);
    // A plan of two cards on a large screen would fill it with 30-pixel text: at most twice
    // the cards' own size.
    constexpr double largestFitZoom = 2.0;
    if (zoomFactor() > largestFitZoom) {
        resetTransform();
        scale(largestFitZoom, largestFitZoom);
        centerOn(bounds.center());
    }
}

void PlanCanvasView::showEvent(QShowEvent *event)
{
    QGraphicsView::showEvent(event);
    if (m_fitPending)
        fitAll();
}

void PlanCanvasView::resizeEvent(QResizeEvent *event)
{
    QGraphicsView::resizeEvent(event);
    // The window's layout may size the view after it is shown, and the docks settle once the
    // first estimate is in: fit to the final size, until the user zooms.
    if ((m_fitPending || m_keepFitted) && isVisible())
        fitAll();
}

void PlanCanvasView::wheelEvent(QWheelEvent *event)
{
    if (event->modifiers() & Qt::ControlModifier) {
        event->angleDelta().y() > 0 ? zoomIn() : zoomOut();
        event->accept();
        return;
    }
    QGraphicsView::wheelEvent(event);
}

} // namespace cp::views
