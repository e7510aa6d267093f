// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "fabricdrawing.h"
#include "latestjobrunner.h"
#include "planchange.h"

#include "model/fabric/fabricfailure.h"

#include <QWidget>

#include <memory>

class QAction;
class QComboBox;
class QGraphicsScene;
class QLabel;
class QSlider;

namespace cp::model {
class Catalog;
}

namespace cp::views {

class FabricCanvas;
class FabricDrawingItem;
class PlanDocument;

/**
 * The plan's generated fabric drawn as itself (fat-tree tiers, Dragonfly groups on a circle, a
 * torus plane), beside the canvas on the same document: select a switch and press Fail (Delete)
 * to take it out of the plan through the undo stack, or let "Worst Single Failure" find the one
 * whose loss slows the training step most. The drawing and the search run on worker threads.
 */
class FabricView : public QWidget
{
    Q_OBJECT

public:
    explicit FabricView(PlanDocument *document, QWidget *parent = nullptr);

    void setCatalog(std::shared_ptr<const model::Catalog> catalog);

    FabricCanvas *canvas() const { return m_canvas; }
    /** The drawn fabric, or null before the first drawing arrives. */
    FabricDrawingItem *drawingItem() const { return m_item; }
    /** Selects the switch with graph label `label`; false when the drawing has none. */
    bool selectSwitch(const std::string &label);
    /** Selects the line joining the vertices labelled `endA` and `endB` (either order). */
    bool selectLink(const std::string &endA, const std::string &endB);
    /** Fails the selected switch (one undo step); false when none is selected or it failed. */
    bool failSelectedSwitch();
    /**
     * Fails one more cable of the selected line (one undo step: fabric.failed_links gains an
     * "A:B" entry); false when no line is selected or all its cables already failed.
     */
    bool failSelectedLink();
    /** Fails whatever is selected: the switch, or one cable of the line (Delete). */
    bool failSelection();
    /**
     * Brings every failed switch and cable back (one undo step); false when none failed. Also
     * the way out when the topology changed under a failure and its switch no longer exists.
     */
    bool restoreAllFailures();
    void findWorstFailure();
    /**
     * Highlights the switches, server boxes and access cables of these plan node groups (the
     * canvas's selection); an empty list clears it.
     */
    void highlightGroups(const std::vector<int> &groups);
    /** Colours links by the training layout's load on them. */
    void setHeatMap(bool on);
    /** Which traffic the heat map colours the links by (redraws off the GUI thread). */
    void setHeatTraffic(model::FabricTraffic traffic);
    model::FabricTraffic heatTraffic() const;
    const model::WorstFailure &worstFailure() const { return m_worst; }
    QString statusText() const;
    /** "rail 0 leaf of scalable unit 0 – spine 3" for a detail line. */
    QString lineName(const FabricDrawing::Line &line) const;
    /** Blocks until the drawing and the worst-failure search are done (tests only). */
    void waitForIdle();

signals:
    void drawingReady();
    /**
     * The user picked a switch or a server box: the plan node groups cabled to it, for the canvas
     * to select (empty when it serves none, e.g. a spine).
     */
    void groupsSelected(const std::vector<int> &groups);
    void worstFailureReady();

protected:
    /** A drawing fitted while the tab was hidden is fitted again when it shows (a hidden view
     * fits into its unlaid-out size: a 100-pixel drawing with its labels piled up). */
    void showEvent(QShowEvent *event) override;

private:
    void onPlanChanged(PlanParts parts);
    void requestDrawing();
    void showDrawing(const std::shared_ptr<const FabricDrawing> &drawing);
    void showWorstFailure(const model::WorstFailure &worst);
    void onClicked(QPointF scenePoint, double sceneRadius);
    void syncFailures();
    void updateStatus();

    PlanDocument *m_document;
    std::shared_ptr<const model::Catalog> m_catalog;
    FabricCanvas *m_canvas;
    QGraphicsScene *m_scene;
    FabricDrawingItem *m_item = nullptr;
    QLabel *m_status;
    QSlider *m_plane;
    QAction *m_planeLabelAction = nullptr; ///< the toolbar's "Torus plane" label and slider
    QAction *m_planeAction = nullptr;
    QAction *m_fail;
    QAction *m_restore;
    QAction *m_worstAction;
    QAction *m_heatAction;
    QComboBox *m_traffic;
    QString m_drawnKey;
    QString m_worstText;
    std::string m_drawnTopology;
    bool m_fitPending = false;
    std::vector<int> m_highlightedGroups;
    model::WorstFailure m_worst;
    LatestJobRunner<std::shared_ptr<const FabricDrawing>> m_drawingRunner;
    LatestJobRunner<model::WorstFailure> m_worstRunner;
};

} // namespace cp::views
