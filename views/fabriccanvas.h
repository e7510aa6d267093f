// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

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
    /** Shows the heat map's colour scale in a corner of the view (on while links carry
     * loads): what blue and red mean, in the share of the step a link is busy. */
    void setHeatLegend(bool shown);
    bool heatLegendShown() const { return m_heatLegend; }

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
    bool m_heatLegend = false;
};

} // namespace cp::views
