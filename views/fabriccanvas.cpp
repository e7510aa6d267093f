// SPDX-License-Identifier: GPL-3.0-or-later
#include "fabriccanvas.h"

#include "fabricdrawingitem.h"

#include <QKeyEvent>
#include <QMouseEvent>
#include <QWheelEvent>

#include <algorithm>
#include <cmath>

namespace cp::views {

FabricCanvas::FabricCanvas(QWidget *parent)
    : QGraphicsView(parent)
{
    setObjectName(QStringLiteral("FabricCanvas"));
    setDragMode(ScrollHandDrag);
    setTransformationAnchor(AnchorUnderMouse);
    setRenderHint(QPainter::Antialiasing, true);
    // The one item repaints what is exposed; a smart update keeps pans to the new strip.
    setViewportUpdateMode(SmartViewportUpdate);
    setOptimizationFlag(DontSavePainterState, true);
    setBackgroundBrush(QColor(0xFA, 0xFA, 0xFA));
}

void FabricCanvas::setZoom(double scale)
{
    const double clamped = std::clamp(scale, 1e-4, 8.0);
    setTransform(QTransform::fromScale(clamped, clamped));
    emit zoomChanged(clamped);
}

void FabricCanvas::setLegend(const FabricLegend &legend)
{
    if (legend == m_legend)
        return;
    m_legend = legend;
    viewport()->update();
}

void FabricCanvas::drawForeground(QPainter *painter, const QRectF &rect)
{
    QGraphicsView::drawForeground(painter, rect);
    if (m_legend.isEmpty())
        return;
    // In viewport pixels at the bottom left, so the legend stays put and readable at any zoom.
    painter->save();
    painter->resetTransform();
    const QFont font = this->font();
    const QSizeF size = fabricLegendSize(*painter, m_legend, font);
    const double margin = 8;
    paintFabricLegend(*painter, m_legend, font,
                      QRectF(QPointF(margin, viewport()->height() - size.height() - margin), size));
    painter->restore();
}

void FabricCanvas::fitAll()
{
    if (!scene())
        return;
    fitInView(scene()->itemsBoundingRect(), Qt::KeepAspectRatio);
    emit zoomChanged(zoom());
}

namespace {
bool isDeleteKey(const QKeyEvent *event)
{
    return event->key() == Qt::Key_Delete || event->key() == Qt::Key_Backspace;
}
} // namespace

bool FabricCanvas::event(QEvent *event)
{
    // The main window's Delete removes canvas cards; with the Fabric view focused the key is
    // ours, so claim it before the window-wide shortcut sees it.
    if (event->type() == QEvent::ShortcutOverride && isDeleteKey(static_cast<QKeyEvent *>(event))) {
        event->accept();
        return true;
    }
    return QGraphicsView::event(event);
}

void FabricCanvas::keyPressEvent(QKeyEvent *event)
{
    if (isDeleteKey(event)) {
        emit deletePressed();
        event->accept();
        return;
    }
    QGraphicsView::keyPressEvent(event);
}

void FabricCanvas::wheelEvent(QWheelEvent *event)
{
    const double steps = event->angleDelta().y() / 120.0;
    const double factor = std::pow(1.25, steps);
    const double target = std::clamp(zoom() * factor, 1e-4, 8.0);
    scale(target / zoom(), target / zoom());
    emit zoomChanged(zoom());
    event->accept();
}

void FabricCanvas::mousePressEvent(QMouseEvent *event)
{
    m_pressedAt = event->position().toPoint();
    QGraphicsView::mousePressEvent(event);
}

void FabricCanvas::mouseReleaseEvent(QMouseEvent *event)
{
    QGraphicsView::mouseReleaseEvent(event);
    // A press and release in place is a click; anything longer was a pan.
    if (event->button() == Qt::LeftButton
        && (event->position().toPoint() - m_pressedAt).manhattanLength() < 4)
        emit clicked(mapToScene(event->position().toPoint()), 12.0 / std::max(zoom(), 1e-6));
}

} // namespace cp::views
