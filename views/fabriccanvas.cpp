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

void FabricCanvas::setHeatLegend(bool shown)
{
    if (shown == m_heatLegend)
        return;
    m_heatLegend = shown;
    viewport()->update();
}

void FabricCanvas::drawForeground(QPainter *painter, const QRectF &rect)
{
    QGraphicsView::drawForeground(painter, rect);
    if (!m_heatLegend)
        return;
    // In viewport pixels at the bottom left, so the scale stays put and readable at any zoom;
    // the colours are the links' own (FabricDrawingItem::heatColour).
    painter->save();
    painter->resetTransform();
    const QFontMetrics metrics = painter->fontMetrics();
    const QString title = tr("Link busy, share of the step");
    const int barWidth = 160;
    const int barHeight = 10;
    const int pad = 8;
    const int width = std::max(barWidth, metrics.horizontalAdvance(title)) + 2 * pad;
    const int height = 2 * metrics.height() + barHeight + 3 * pad;
    const QRect box(pad, viewport()->height() - height - pad, width, height);
    painter->setPen(QColor(0xc0, 0xc0, 0xc0));
    painter->setBrush(QColor(0xff, 0xff, 0xff, 235));
    painter->drawRect(box);
    painter->setPen(QColor(0x30, 0x30, 0x30));
    painter->drawText(box.left() + pad, box.top() + pad + metrics.ascent(), title);
    const QRect bar(box.left() + pad, box.top() + pad + metrics.height() + pad / 2, barWidth,
                    barHeight);
    for (int x = 0; x < bar.width(); ++x)
        painter->fillRect(QRect(bar.left() + x, bar.top(), 1, bar.height()),
                          FabricDrawingItem::heatColour(double(x) / (bar.width() - 1)));
    const int labelsY = bar.bottom() + pad / 2 + metrics.ascent();
    painter->drawText(bar.left(), labelsY, QStringLiteral("0%"));
    const QString half = QStringLiteral("50%");
    painter->drawText(bar.center().x() - metrics.horizontalAdvance(half) / 2, labelsY, half);
    const QString full = tr("100%");
    painter->drawText(bar.right() - metrics.horizontalAdvance(full), labelsY, full);
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
