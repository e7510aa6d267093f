// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "model/planning/datahall.h"

#include <QFont>
#include <QGraphicsItem>
#include <QString>

#include <memory>

namespace cp::views {

/** What the floor plan colours the cabinets by. */
enum class RackCapacity {
    Power, ///< nameplate power at full load against the cabinet's limit
    Space, ///< rack units used
    RunPower, ///< power (heat) at the training job's load
    Ports, ///< switch ports with a cable against the switches' ports (network cabinets)
    Weight, ///< what the devices weigh against the cabinet's load rating
};

/**
 * The data hall from above: each cabinet a rectangle at its row and position, coloured by how
 * full it is against its limit (power and cooling, or rack units), green below 80%, amber to
 * 100%, red beyond; network and spine cabinets outlined darker. One item paints them all.
 */
class DataHallFloorItem : public QGraphicsItem
{
public:
    static constexpr double cabinetWidth = 24; ///< scene units per 0.6 m cabinet
    static constexpr double cabinetDepth = 48; ///< per 1.2 m of depth
    static constexpr double rowPitch = 96; ///< per 2.4 m row pitch

    explicit DataHallFloorItem(std::shared_ptr<const model::DataHall> hall);

    const model::DataHall &hall() const { return *m_hall; }
    QRectF boundingRect() const override;
    void paint(QPainter *painter, const QStyleOptionGraphicsItem *option, QWidget *widget) override;

    QRectF rackRect(int rack) const;
    /** The cabinet under a scene point, or -1. */
    int rackAt(QPointF scenePoint) const;
    void setSelectedRack(int rack);
    int selectedRack() const { return m_selected; }
    void setCapacity(RackCapacity capacity);
    RackCapacity capacity() const { return m_capacity; }
    /** How full a cabinet is by the chosen measure: 0.77 for 30.6 of 40 kW; negative where
     * the measure does not apply (ports of a cabinet without switches). */
    double fillOf(int rack) const;
    QColor colourOf(int rack) const;
    /** The capacity scale: green below 0.8, amber to 1.0, red above; grey where it does not
     * apply (a negative fraction). */
    static QColor capacityColour(double fraction);
    /** The pixel size of `font` at which `name` fits along a cabinet's depth and across its
     *  width with a little margin: as large as 11 (a 0.6 m cabinet is 24 units wide), never
     *  below the 7 the names had before, so a short name reads larger on paper. */
    static int cabinetNamePixelSize(QFont font, const QString &name);

private:
    std::shared_ptr<const model::DataHall> m_hall;
    QRectF m_bounds;
    int m_rows = 0; ///< room rows, the spine row and empty rows included
    int m_selected = -1;
    QString m_longestName; ///< the cabinet name with the most characters, which sets their size
    RackCapacity m_capacity = RackCapacity::Power;
};

} // namespace cp::views
