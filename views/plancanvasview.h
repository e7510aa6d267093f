// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QGraphicsView>

namespace cp::views {

/** The canvas: zoom with Ctrl+wheel or the Zoom actions, rubber-band selection, drops. */
class PlanCanvasView : public QGraphicsView
{
    Q_OBJECT

public:
    explicit PlanCanvasView(QWidget *parent = nullptr);
    void zoomIn();
    void zoomOut();
    void fitAll();
    double zoomFactor() const { return transform().m11(); }

protected:
    void wheelEvent(QWheelEvent *event) override;
};

} // namespace cp::views
