// SPDX-License-Identifier: GPL-3.0-or-later
#include "cablerouter.h"

#include <QLineF>

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>
#include <queue>

namespace cp::views {

namespace {

/** A bend costs as much as this much more cable: among routes of about one length, the one with
 *  fewer bends reads better. */
constexpr double bendCost = 40;

enum Heading { Up, Down, Left, Right, Headings };

std::vector<double> sortedUnique(std::vector<double> values)
{
    std::sort(values.begin(), values.end());
    values.erase(std::unique(values.begin(), values.end(),
                             [](double a, double b) { return std::abs(a - b) < 0.5; }),
                 values.end());
    return values;
}

bool strictlyInside(QPointF point, const QRectF &rect)
{
    return point.x() > rect.left() && point.x() < rect.right() && point.y() > rect.top()
        && point.y() < rect.bottom();
}

} // namespace

/** A* over (grid node, heading of the run that reached it): a run costs its length, a change
 *  of heading `bendCost` more; the estimate still to go is the rectilinear distance to the fabric
 *  card, never more than what is left, so the first landing reached at the lowest estimate is the
 *  cheapest. */
class RouteSearch
{
public:
    RouteSearch(const CableRouter &router, const CableRouter::Grid &grid)
        : m_router(router)
        , m_grid(grid)
        , m_columns(static_cast<int>(grid.xs.size()))
        , m_rows(static_cast<int>(grid.ys.size()))
        , m_cost(grid.open.size() * Headings, std::numeric_limits<double>::infinity())
        , m_previous(m_cost.size(), -1)
    { }

    std::optional<QList<QPointF>> run(int startNode, double startCost)
    {
        push(startNode * Headings + Up, startCost, -1);
        while (!m_queue.empty()) {
            const Step step = m_queue.top();
            m_queue.pop();
            if (step.estimate >= m_bestCost)
                break;
            if (step.cost <= m_cost[static_cast<std::size_t>(step.state)])
                expand(step);
        }
        if (m_bestState < 0)
            return std::nullopt;
        QList<QPointF> corners {m_bestEnd};
        for (int state = m_bestState; state >= 0;
             state = m_previous[static_cast<std::size_t>(state)])
            corners.prepend(m_grid.point(state / Headings));
        return corners;
    }

private:
    struct Step
    {
        double estimate; ///< cost so far plus the least cable still to run
        double cost;
        int state; ///< node x Headings + heading of the run that arrived
        bool operator>(const Step &other) const { return estimate > other.estimate; }
    };

    double leastToGo(QPointF point) const
    {
        const QRectF &fabric = m_router.m_layout.fabricCard;
        const double dx = std::max({fabric.left() - point.x(), 0.0, point.x() - fabric.right()});
        const double dy = std::max({fabric.top() - point.y(), 0.0, point.y() - fabric.bottom()});
        return dx + dy;
    }

    void push(int state, double cost, int from)
    {
        if (cost >= m_cost[static_cast<std::size_t>(state)])
            return;
        m_cost[static_cast<std::size_t>(state)] = cost;
        m_previous[static_cast<std::size_t>(state)] = from;
        m_queue.push({cost + leastToGo(m_grid.point(state / Headings)), cost, state});
    }

    /** Lands on the fabric card from here if that is the cheapest so far, then runs on to the
     *  four neighbouring nodes the cards leave open. */
    void expand(const Step &step)
    {
        const int node = step.state / Headings;
        const int heading = step.state % Headings;
        const QPointF at = m_grid.point(node);
        if (const auto &end = m_grid.landing[static_cast<std::size_t>(node)]) {
            const bool vertical = std::abs(end->x() - at.x()) < 0.5;
            const bool turns = vertical != (heading == Up || heading == Down);
            const double total = step.cost + QLineF(at, *end).length() + (turns ? bendCost : 0);
            if (total < m_bestCost) {
                m_bestCost = total;
                m_bestState = step.state;
                m_bestEnd = *end;
            }
        }
        const int column = node % m_columns;
        const int row = node / m_columns;
        const auto open = [this](const std::vector<bool> &flags, int index) {
            return flags[static_cast<std::size_t>(index)];
        };
        const std::array<std::pair<int, bool>, Headings> neighbours {{
            {node - m_columns, row > 0 && open(m_grid.downOpen, node - m_columns)},
            {node + m_columns, row + 1 < m_rows && open(m_grid.downOpen, node)},
            {node - 1, column > 0 && open(m_grid.rightOpen, node - 1)},
            {node + 1, column + 1 < m_columns && open(m_grid.rightOpen, node)},
        }};
        for (int next = 0; next < Headings; ++next) {
            const auto [neighbour, reachable] = neighbours[static_cast<std::size_t>(next)];
            if (!reachable || !open(m_grid.open, neighbour))
                continue;
            const double run = QLineF(at, m_grid.point(neighbour)).length();
            push(neighbour * Headings + next, step.cost + run + (next != heading ? bendCost : 0),
                 step.state);
        }
    }

    const CableRouter &m_router;
    const CableRouter::Grid &m_grid;
    int m_columns;
    int m_rows;
    std::vector<double> m_cost;
    std::vector<int> m_previous;
    std::priority_queue<Step, std::vector<Step>, std::greater<>> m_queue;
    double m_bestCost = std::numeric_limits<double>::infinity();
    int m_bestState = -1;
    QPointF m_bestEnd;
};

CableRouter::CableRouter(Layout layout)
    : m_layout(std::move(layout))
{
    m_blocking = m_layout.cards;
    m_blocking << m_layout.fabricCard;
}

const CableRouter::Grid &CableRouter::grid() const
{
    if (!m_grid)
        m_grid = buildGrid();
    return *m_grid;
}

CableRouter::Grid CableRouter::buildGrid() const
{
    Grid grid;
    if (m_layout.cards.size() > maxCards)
        return grid; // no grid: route() finds no way, and the cables take the direct one
    const QRectF &fabric = m_layout.fabricCard;
    const double gap = m_layout.clearance;
    const double margin = m_layout.edgeMargin;
    std::vector<double> xs {fabric.left() + margin, fabric.center().x(), fabric.right() - margin};
    std::vector<double> ys {fabric.center().y()};
    for (const QPointF &port : std::as_const(m_layout.ports)) {
        xs.insert(
            xs.end(),
            {port.x(), std::clamp(port.x(), fabric.left() + margin, fabric.right() - margin)});
        ys.push_back(port.y() - gap);
    }
    for (const QRectF &card : std::as_const(m_blocking)) {
        xs.insert(xs.end(), {card.left() - gap, card.right() + gap});
        ys.insert(ys.end(), {card.top() - gap, card.bottom() + gap});
    }
    grid.xs = sortedUnique(std::move(xs));
    grid.ys = sortedUnique(std::move(ys));
    const std::size_t nodes = grid.xs.size() * grid.ys.size();
    grid.open.resize(nodes);
    grid.rightOpen.resize(nodes);
    grid.downOpen.resize(nodes);
    grid.landing.resize(nodes);
    for (std::size_t node = 0; node < nodes; ++node) {
        const QPointF at = grid.point(static_cast<int>(node));
        grid.open[node]
            = std::none_of(m_blocking.begin(), m_blocking.end(),
                           [&](const QRectF &card) { return strictlyInside(at, card); });
        const std::size_t column = node % grid.xs.size();
        const std::size_t row = node / grid.xs.size();
        grid.rightOpen[node]
            = column + 1 < grid.xs.size() && clear(at, grid.point(static_cast<int>(node + 1)));
        grid.downOpen[node] = row + 1 < grid.ys.size()
            && clear(at, grid.point(static_cast<int>(node + grid.xs.size())));
        grid.landing[node] = landing(at);
    }
    return grid;
}

bool CableRouter::crosses(QPointF from, QPointF to, const QRectF &rect)
{
    const double left = std::min(from.x(), to.x());
    const double right = std::max(from.x(), to.x());
    const double top = std::min(from.y(), to.y());
    const double bottom = std::max(from.y(), to.y());
    const double slack = 0.5; // along an edge is not through
    return right > rect.left() + slack && left < rect.right() - slack && bottom > rect.top() + slack
        && top < rect.bottom() - slack;
}

std::optional<QList<QPointF>> CableRouter::route(QPointF port) const
{
    const Grid &grid = this->grid();
    if (grid.xs.empty())
        return std::nullopt; // more cards than maxCards: no grid
    // The first run leaves the port straight up, a clearance's length, onto the grid.
    const QPointF start(port.x(), port.y() - m_layout.clearance);
    const std::optional<int> startNode = grid.nodeAt(start);
    if (!startNode || !grid.open[static_cast<std::size_t>(*startNode)] || !clear(port, start))
        return std::nullopt;
    std::optional<QList<QPointF>> corners
        = RouteSearch(*this, grid).run(*startNode, m_layout.clearance);
    if (corners)
        corners->prepend(port);
    return corners;
}

bool CableRouter::clear(QPointF from, QPointF to) const
{
    return std::none_of(m_blocking.begin(), m_blocking.end(),
                        [&](const QRectF &card) { return crosses(from, to, card); });
}

std::optional<int> CableRouter::Grid::nodeAt(QPointF at) const
{
    const auto near = [](double a, double b) {
        return std::abs(a - b) < 0.5;
    };
    const auto column
        = std::find_if(xs.begin(), xs.end(), [&](double x) { return near(x, at.x()); });
    const auto row = std::find_if(ys.begin(), ys.end(), [&](double y) { return near(y, at.y()); });
    if (column == xs.end() || row == ys.end())
        return std::nullopt;
    return static_cast<int>(static_cast<std::size_t>(row - ys.begin()) * xs.size()
                            + static_cast<std::size_t>(column - xs.begin()));
}

QPointF CableRouter::Grid::point(int node) const
{
    const auto index = static_cast<std::size_t>(node);
    return {xs[index % xs.size()], ys[index / xs.size()]};
}

std::optional<QPointF> CableRouter::landing(QPointF at) const
{
    const QRectF &fabric = m_layout.fabricCard;
    const double margin = m_layout.edgeMargin;
    std::optional<QPointF> end;
    if (at.x() >= fabric.left() + margin - 0.5 && at.x() <= fabric.right() - margin + 0.5) {
        if (at.y() <= fabric.top())
            end = QPointF(at.x(), fabric.top());
        else if (at.y() >= fabric.bottom())
            end = QPointF(at.x(), fabric.bottom());
    } else if (at.y() >= fabric.top() + margin - 0.5 && at.y() <= fabric.bottom() - margin + 0.5) {
        end = QPointF(at.x() <= fabric.left() ? fabric.left() : fabric.right(), at.y());
    }
    if (end && !clear(at, *end))
        return std::nullopt;
    return end;
}

} // namespace cp::views
