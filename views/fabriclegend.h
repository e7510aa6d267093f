// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QFont>
#include <QSizeF>

class QPainter;
class QPointF;

namespace cp::views {

/**
 * What the fabric drawing's colours mean, for the Fabric view's corner and the report's fabric
 * page: the heat scale of the links' load (blue idle to red saturated, FabricDrawingItem::
 * heatColour) and the colour of each rail's leaves (FabricDrawingItem::railColour).
 */
struct FabricLegend
{
    bool heatScale = false; ///< the links carry a heat map
    int rails = 0; ///< a rail-optimised fabric's rails; 0: none drawn

    bool isEmpty() const { return !heatScale && rails <= 0; }
    bool operator==(const FabricLegend &other) const = default;
};

/** The size paintFabricLegend() takes in `font` on `painter`'s device, padding included. */
QSizeF fabricLegendSize(QPainter &painter, const FabricLegend &legend, const QFont &font);

/**
 * Paints the legend in a framed white box with its top-left corner at `topLeft`, in the
 * painter's current coordinates: the heat scale as a colour bar marked 0%, 50% and 100%, the
 * rails as a swatch each with its GPU index. Nothing for an empty legend.
 */
void paintFabricLegend(QPainter &painter, const FabricLegend &legend, const QFont &font,
                       QPointF topLeft);

} // namespace cp::views
