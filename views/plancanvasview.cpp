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

void PlanCanvasView::zoomIn()
{
    if (zoomFactor() < 8)
        scale(1.25, 1.25);
}

void PlanCanvasView::zoomOut()
{
    if (zoomFactor() > 0.05)
        scale(0.8, 0.8);
}

void PlanCanvasView::fitAll()
{
    if (!scene())
        return;
    const QRectF bounds = scene()->itemsBoundingRect().adjusted(-40, -40, 40, 40);
    if (!bounds.isEmpty())
        fitInView(bounds, Qt::KeepAspectRatio);
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
