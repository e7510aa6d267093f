// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "fabricdrawing.h"
#include "fabriclegend.h"

#include <QGraphicsItem>

#include <map>
#include <memory>
#include <set>
#include <string>
#include <utility>
#include <vector>

namespace cp::views {

/**
 * The whole fabric as one item that paints many lines: at overview zoom the bundles and blocks,
 * zoomed in the switches and their links, switching where neighbouring switches come closer
 * than a few pixels on screen (QStyleOptionGraphicsItem::levelOfDetailFromTransform). One item
 * instead of 50,000 keeps a 16,384-GPU fabric's scene cheap to build and to pan; only what lies
 * in the exposed rectangle is drawn.
 */
class FabricDrawingItem : public QGraphicsItem
{
public:
    enum { Type = UserType + 40 };

    explicit FabricDrawingItem(std::shared_ptr<const FabricDrawing> drawing);

    int type() const override { return Type; }
    QRectF boundingRect() const override;
    void paint(QPainter *painter, const QStyleOptionGraphicsItem *option, QWidget *widget) override;

    const FabricDrawing &drawing() const { return *m_drawing; }
    /** Switch index (in drawing().switches) nearest to `scenePoint` within `radius`, or -1. */
    int switchAt(const QPointF &scenePoint, double radius) const;
    void setSelectedSwitch(int index);
    int selectedSwitch() const { return m_selected; }
    /**
     * Detail line (index in drawing().links) nearest `scenePoint` within `radius` that stands
     * for the cables between two vertices (Line::endA, endB), or -1; none at overview zoom.
     */
    int linkAt(const QPointF &scenePoint, double radius, double levelOfDetail) const;
    /** Selects a detail line (-1: none); selecting a line clears the selected switch. */
    void setSelectedLink(int index);
    int selectedLink() const { return m_selectedLink; }
    /**
     * Plan node groups selected on the canvas: the switches they are cabled to, their server
     * boxes and access lines are drawn highlighted.
     */
    void setHighlightedGroups(std::vector<int> groups);
    const std::vector<int> &highlightedGroups() const { return m_highlightedGroups; }
    /** Whether the switch or box serves one of the highlighted groups. */
    bool isHighlighted(const FabricDrawing::Switch &s) const;
    bool isHighlighted(const FabricDrawing::Box &box) const;
    /** Server box (index in drawing().servers) under `scenePoint`, or -1. */
    int serverBoxAt(const QPointF &scenePoint) const;
    /** Failed switches by graph label, drawn crossed out in red. */
    void setFailedLabels(std::set<std::string> labels);
    /** Failed cables per switch pair, as {endA, endB} in either order: drawn dashed red. */
    void setFailedLinks(std::map<std::pair<std::string, std::string>, int> cablesPerPair);
    /** Failed cables of a drawn line (0 when none). */
    int failedCables(const FabricDrawing::Line &line) const;
    /** Whether a view at `levelOfDetail` (scale) draws bundles rather than switches. */
    bool showsBundles(double levelOfDetail) const;
    /**
     * What a view at `levelOfDetail` needs explained: the heat scale while the heat map is on
     * and the links carry loads, the rails where rail leaves are drawn one by one in their
     * colours (an overview's grey blocks of leaves have none).
     */
    FabricLegend legendAt(double levelOfDetail) const;
    /** Colour links by their load (the drawing's utilisation) instead of by rail and class. */
    void setHeatMap(bool on);
    bool heatMap() const { return m_heatMap; }
    /**
     * Labels (switch names, bundle rates, server groups) at `scale` times their screen size,
     * which is fixed in pixels: a drawing recorded for the printed report, where 1,000 units
     * span the page, needs them larger to read at the tables' size. 0.5 to 4; 1 on screen.
     */
    void setLabelScale(double scale);
    double labelScale() const { return m_labelScale; }
    /** Blue (idle) through yellow to red (a saturated link) for a utilisation in [0, 1]. */
    static QColor heatColour(double utilisation);
    /** A rail's colour (rail leaves and their links): eight, repeating past rail 7. */
    static QColor railColour(int rail);
    /** The colour of a link of this class where no rail or heat colours it. */
    static QColor linkClassColour(model::LinkClass linkClass);
    /** The colour a line is drawn in, before translucency: heat or rail/class colour. */
    QColor colourOf(const FabricDrawing::Line &line) const;
    /** The tooltip for the line nearest `scenePoint` within `radius`; empty when none. */
    QString lineToolTip(const QPointF &scenePoint, double radius, double levelOfDetail) const;
    /** The last painted level of detail (tests, the status line). */
    bool lastPaintShowedBundles() const { return m_lastBundles; }

protected:
    void hoverMoveEvent(QGraphicsSceneHoverEvent *event) override;

private:
    void paintBundles(QPainter *painter, const QRectF &exposed, double lod) const;
    void paintDetail(QPainter *painter, const QRectF &exposed, double lod) const;
    void paintLines(QPainter *painter, const std::vector<FabricDrawing::Line> &lines,
                    const QRectF &exposed, bool labels) const;
    void paintLinkMarks(QPainter *painter) const;
    int labelPixels(int pixels) const; ///< a label's screen size at the label scale
    QRectF extent() const; ///< the drawing's own rectangle, without the margin
    void paintHighlights(QPainter *painter, const QRectF &exposed, double lod) const;
    void paintBoxes(QPainter *painter, const std::vector<FabricDrawing::Box> &boxes,
                    const QRectF &exposed, const QColor &fill, double lod) const;

    std::shared_ptr<const FabricDrawing> m_drawing;
    int m_selected = -1;
    int m_selectedLink = -1;
    std::vector<int> m_highlightedGroups; ///< sorted
    std::set<std::string> m_failed;
    std::map<std::pair<std::string, std::string>, int> m_failedLinks;
    std::vector<std::pair<std::size_t, int>> m_failedLines; ///< line index, failed cables
    bool m_lastBundles = true;
    bool m_heatMap = false;
    double m_labelScale = 1.0;
};

} // namespace cp::views
