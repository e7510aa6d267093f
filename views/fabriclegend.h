// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QFont>
#include <QSizeF>
#include <QString>

class QPainter;
class QRectF;

namespace cp::views {

/**
 * What the fabric drawing's colours mean, for the Fabric view's corner and the report's fabric
 * page: the heat scale of the links' load (blue idle to red saturated, FabricDrawingItem::
 * heatColour), the colour of each rail's leaves (FabricDrawingItem::railColour) and, without
 * the heat map, of each class of link (FabricDrawingItem::linkClassColour).
 */
struct FabricLegend
{
    bool heatScale = false; ///< the links carry a heat map
    /** What the heat scale measures: "Link busy, share of the step" when empty. */
    QString heatTitle;
    int rails = 0; ///< a rail-optimised fabric's rails; 0: none drawn
    // Without the heat map (or rails), each class of link drawn, in its class's colour:
    bool fabricLinks = false; ///< between switches (a Dragonfly's within a group)
    bool accessLinks = false; ///< from servers to their first switch
    bool globalLinks = false; ///< a Dragonfly's links between groups
    /** What the fabric's switch-to-switch links join: "between switches" when empty, a
     * Dragonfly's "within a group", a torus's "between neighbours". */
    QString fabricLinkName;

    bool linkClasses() const { return fabricLinks || accessLinks || globalLinks; }
    bool isEmpty() const { return !heatScale && rails <= 0 && !linkClasses(); }
    bool operator==(const FabricLegend &other) const = default;
};

/** The size paintFabricLegend() takes in `font` on `painter`'s device, padding included. */
QSizeF fabricLegendSize(QPainter &painter, const FabricLegend &legend, const QFont &font);

/**
 * Paints the legend in a framed white box, `box` in the painter's current coordinates (its size
 * the one fabricLegendSize() gives, which the caller needs first to place it): the heat scale as
 * a colour bar marked 0%, 50% and 100%, the rails as a swatch each with its GPU index, the link
 * classes as a line each with its name. Nothing for an empty legend.
 */
void paintFabricLegend(QPainter &painter, const FabricLegend &legend, const QFont &font,
                       const QRectF &box);

} // namespace cp::views
