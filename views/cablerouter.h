// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QList>
#include <QPointF>
#include <QRectF>

#include <optional>
#include <vector>

namespace cp::views {

/**
 * Cables across the canvas from the cards' ports to the fabric card that pass under no card: a
 * shortest orthogonal path (a bend weighs as some extra cable) on the grid of lines a clearance
 * off every card's edges, the usual way connector routers such as libavoid lay out orthogonal
 * connectors. The grid and which of its runs a card blocks are worked out once for a layout;
 * each port's route is then an A* search on it.
 */
class CableRouter
{
public:
    struct Layout
    {
        QRectF fabricCard;
        QList<QRectF> cards; ///< every card but the fabric's, the ports' own included
        QList<QPointF> ports; ///< on their cards' top edges; each cable leaves its port upwards
        double clearance = 24; ///< how far a run keeps off a card's edge
        double edgeMargin = 16; ///< how far from a fabric card's corner a cable may land
    };

    /** More cards than this and the router stands aside (route() finds nothing, so cables take
     *  the direct way): its grid grows with the square of the cards, and a redraw on every
     *  move of a card must stay quick (98 cards: 8.5 ms on a 2-core Xeon). */
    static constexpr int maxCards = 100;

    explicit CableRouter(Layout layout);

    /** The corners from `port` (one of the layout's) to a point on the fabric card's border,
     *  or empty when the cards leave no way through. */
    std::optional<QList<QPointF>> route(QPointF port) const;

    /** True when the axis-aligned segment from `from` to `to` passes through the inside of
     *  `rect` (running along its edge does not). */
    static bool crosses(QPointF from, QPointF to, const QRectF &rect);

private:
    /** The grid: its columns and rows, and per node whether it lies outside every card, whether
     *  the runs to the next column and the next row pass under none, and where a cable from it
     *  would land on the fabric card straight ahead. */
    struct Grid
    {
        std::vector<double> xs;
        std::vector<double> ys;
        std::vector<bool> open;
        std::vector<bool> rightOpen;
        std::vector<bool> downOpen;
        std::vector<std::optional<QPointF>> landing;

        QPointF point(int node) const;
        std::optional<int> nodeAt(QPointF point) const;
    };

    /** Built on the first route asked for: most redraws need none (every direct way clear). */
    const Grid &grid() const;
    Grid buildGrid() const;
    bool clear(QPointF from, QPointF to) const;
    /** Where a cable from `at` lands straight ahead on the fabric card, if it can. */
    std::optional<QPointF> landing(QPointF at) const;

    Layout m_layout;
    QList<QRectF> m_blocking; ///< the cards and the fabric card
    mutable std::optional<Grid> m_grid;

    friend class RouteSearch;
};

} // namespace cp::views
