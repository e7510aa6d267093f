// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "plancarditem.h"

class QFontMetricsF;

namespace cp::views {

/**
 * A group of identical servers and its racks: a rack elevation per rack (rack units, one slot
 * per server) when zoomed in, one block with counts when zoomed out or when there are more racks
 * than fit, so a 16,384-GPU plan stays a handful of items.
 */
class NodeGroupItem : public PlanCardItem
{
public:
    NodeGroupItem(QString key, QString title, QStringList lines, int racks, int nodesPerRack,
                  int nodes, int rackUnits, int nodeUnits);

    /** The line under the racks in the longest wording that fits `width` in `metrics`: "16 of
     * 5,462 racks shown, up to 3 servers each", then shorter ones, "16 of 5,462 racks" last. */
    QString racksCaption(const QFontMetricsF &metrics, double width) const;

protected:
    void paintBody(QPainter *painter, const QRectF &area, double levelOfDetail) override;

private:
    int m_racks;
    int m_nodesPerRack;
    int m_nodes;
    int m_rackUnits;
    int m_nodeUnits;
};

} // namespace cp::views
