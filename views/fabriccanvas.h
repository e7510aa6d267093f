// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "fabriclegend.h"

#include <QGraphicsView>

namespace cp::views {

/** The Fabric view's graphics view: wheel zooms about the cursor, drag pans, a click selects. */
class FabricCanvas : public QGraphicsView
{
    Q_OBJECT

public:
    explicit FabricCanvas(QWidget *parent = nullptr);

    /** The current scale: 1 draws one scene unit per pixel. */
    double zoom() const { return transform().m11(); }
    void setZoom(double scale);
    void fitAll();
    /** Shows what the colours mean in a corner of the view: the heat map's scale while links
     * carry loads (blue and red in the share of the step a link is busy), the rails' colours
     * on a rail-optimised fabric. */
    void setLegend(const FabricLegend &legend);
    const FabricLegend &legend() const { return m_legend; }
    bool heatLegendShown() const { return m_legend.heatScale; }

signals:
    void clicked(QPointF scenePoint, double sceneRadius);
    void zoomChanged(double scale);
    /** Delete or Backspace with the canvas focused: fail the selected switch. */
    void deletePressed();

protected:
    bool event(QEvent *event) override;
    void keyPressEvent(QKeyEvent *event) override;
    void wheelEvent(QWheelEvent *event) override;
    void mousePressEvent(QMouseEvent *event) override;
    void mouseReleaseEvent(QMouseEvent *event) override;
    void drawForeground(QPainter *painter, const QRectF &rect) override;

private:
    QPoint m_pressedAt;
    FabricLegend m_legend;
};

} // namespace cp::views
