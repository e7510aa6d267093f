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
    /** A line drawn over the top of the canvas (the empty state's "how to start"); empty: none. */
    void setHint(const QString &hint);
    QString hint() const { return m_hint; }

protected:
    void wheelEvent(QWheelEvent *event) override;
    void drawForeground(QPainter *painter, const QRectF &rect) override;
    void showEvent(QShowEvent *event) override;
    void resizeEvent(QResizeEvent *event) override;

private:
    QString m_hint;
    /** fitAll() was asked for before the view had its real size (a plan opened before the
     * window is shown); it fits once the view is shown at its size. */
    bool m_fitPending = false;
    /** Fitted and not zoomed since: a resize (the docks settling, the window maximised)
     * fits again, so the plan neither shrinks to a corner nor spills out of view. */
    bool m_keepFitted = false;
};

} // namespace cp::views
