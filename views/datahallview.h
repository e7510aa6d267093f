// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "datahallflooritem.h"
#include "latestjobrunner.h"
#include "planchange.h"

#include <QWidget>

#include <memory>

class QComboBox;
class QGraphicsRectItem;
class QSpinBox;
class QGraphicsScene;
class QLabel;

namespace cp::model {
class Catalog;
}

namespace cp::views {

class FabricCanvas;
class PlanDocument;
class RackElevationWidget;

/**
 * The plan's room beside the canvas, on the same document: the floor plan of its rows of
 * cabinets coloured by how full each is (power and cooling, or rack units) and, for the cabinet
 * clicked, its front elevation with every device at its U. The layout (model::layoutDataHall)
 * runs on a worker thread whenever the plan changes.
 */
class DataHallView : public QWidget
{
    Q_OBJECT

public:
    explicit DataHallView(PlanDocument *document, QWidget *parent = nullptr);

    void setCatalog(std::shared_ptr<const model::Catalog> catalog);
    FabricCanvas *canvas() const { return m_canvas; }
    /** The laid-out hall, or null before the first layout arrives. */
    DataHallFloorItem *floorItem() const { return m_item; }
    RackElevationWidget *elevation() const { return m_elevation; }
    /** Selects the cabinet called `name`; false when the hall has none. */
    bool selectRack(const std::string &name);
    void setCapacity(RackCapacity capacity);
    /** Sets the plan's cabinets per row through the undo stack (saved in the plan's hall). */
    void setCabinetsPerRow(int cabinets);
    /**
     * Moves the server group of compute cabinet `rack` so that its cabinets start in room row
     * `roomRow` (NodeGroup::hallRow, through the undo stack); false for a cabinet that is not a
     * compute cabinet or a row the group already starts in. Dragging a cabinet does this.
     */
    bool moveGroupToRow(int rack, int roomRow);
    QSpinBox *cabinetsPerRowBox() const { return m_perRow; }
    QString statusText() const;
    void waitForIdle();

signals:
    void hallReady();

protected:
    /** The first layout fits the floor to the view once the view has its size. */
    void showEvent(QShowEvent *event) override;
    /** A press on a compute cabinet drags its group to another row instead of panning. */
    bool eventFilter(QObject *watched, QEvent *event) override;

private:
    void onPlanChanged(PlanParts parts);
    void requestLayout();
    void showHall(const std::shared_ptr<const model::DataHall> &hall);
    void onClicked(QPointF scenePoint);
    void updateStatus();
    int roomRowAt(QPointF scenePoint) const;
    void showDragGhost(QPointF scenePoint);
    void endDrag();

    PlanDocument *m_document;
    std::shared_ptr<const model::Catalog> m_catalog;
    FabricCanvas *m_canvas;
    QGraphicsScene *m_scene;
    DataHallFloorItem *m_item = nullptr;
    RackElevationWidget *m_elevation;
    QComboBox *m_capacity;
    QSpinBox *m_perRow;
    QLabel *m_status;
    bool m_fitPending = false;
    int m_dragRack = -1; ///< the compute cabinet pressed, while a drag may start
    QPoint m_dragPressedAt;
    bool m_dragMoved = false;
    QGraphicsRectItem *m_dragGhost = nullptr;
    std::shared_ptr<const model::DataHall> m_hall;
    LatestJobRunner<std::shared_ptr<const model::DataHall>> m_runner;
};

} // namespace cp::views
