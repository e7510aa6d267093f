// SPDX-License-Identifier: GPL-3.0-or-later
#include "model/fabric/fabriccollective.h"

#include <algorithm>
#include <limits>
#include <numeric>

namespace cp::model {

namespace {

/** One side of a bidirectional breadth-first search; state is reset lazily by stamping. */
struct SearchSide
{
    std::vector<unsigned> stamp;
    std::vector<int> dist;
    std::vector<double> sigma; ///< shortest paths from this side's root (Brandes 2001)
    std::vector<unsigned> backStamp;
    std::vector<double> fraction;
    std::vector<FabricVertexId> order;
    std::size_t levelBegin = 0;
    int depth = 0;
    FabricVertexId root = 0;

    explicit SearchSide(std::size_t n)
        : stamp(n, 0)
        , dist(n, 0)
        , sigma(n, 0)
        , backStamp(n, 0)
        , fraction(n, 0)
    { }
    bool seen(FabricVertexId v, unsigned current) const { return stamp[v] == current; }
    std::size_t frontierSize() const { return order.size() - levelBegin; }
};

std::size_t arcIndex(std::size_t linkId, FabricVertexId from, FabricVertexId to)
{
    return 2 * linkId + (from > to ? 1 : 0);
}

/**
 * Adds one flow's load, split over all shortest paths from s to t. The two searches grow from
 * both ends, the smaller frontier first; when a level meets the other side at depths a and b,
 * d = a + b and the vertices at exactly those depths form a cut every shortest path crosses once,
 * with sigma_s(v) * sigma_t(v) of the paths through v. Loads are pushed back from that layer to s
 * with sigma_s and forward to t with sigma_t. Returns the hop count, or -1 if t is unreachable.
 */
int addFlowLoad(const FabricGraph &graph, const FabricLiveness &alive, FabricVertexId s,
                FabricVertexId t, unsigned current, SearchSide &from, SearchSide &to,
                std::vector<double> &load, double &latency)
{
    const auto &g = graph.storage();
    const auto start = [&](SearchSide &side, FabricVertexId root) {
        side.root = root;
        side.order.assign(1, root);
        side.levelBegin = 0;
        side.depth = 0;
        side.stamp[root] = current;
        side.dist[root] = 0;
        side.sigma[root] = 1;
    };
    start(from, s);
    start(to, t);
    std::vector<FabricVertexId> meeting;
    const auto canMeet = [&](FabricVertexId v) {
        return v == s || v == t || g[v].forwards();
    };
    while (meeting.empty()) {
        SearchSide &side = from.frontierSize() <= to.frontierSize() ? from : to;
        SearchSide &other = &side == &from ? to : from;
        if (side.frontierSize() == 0)
            return -1;
        const std::size_t levelEnd = side.order.size();
        for (std::size_t k = side.levelBegin; k < levelEnd; ++k) {
            const FabricVertexId v = side.order[k];
            if (v != side.root && !g[v].forwards())
                continue;
            for (auto [it, end] = boost::out_edges(v, g); it != end; ++it) {
                if (!alive.link[g[*it].id])
                    continue;
                const FabricVertexId w = boost::target(*it, g);
                if (!side.seen(w, current)) {
                    side.stamp[w] = current;
                    side.dist[w] = side.dist[v] + 1;
                    side.sigma[w] = 0;
                    side.order.push_back(w);
                }
                if (side.dist[w] == side.dist[v] + 1)
                    side.sigma[w] += side.sigma[v];
            }
        }
        side.levelBegin = levelEnd;
        ++side.depth;
        for (std::size_t k = levelEnd; k < side.order.size(); ++k) {
            const FabricVertexId v = side.order[k];
            if (other.seen(v, current) && other.dist[v] == other.depth && canMeet(v))
                meeting.push_back(v);
        }
        // A vertex the other side reached at a shallower depth means an earlier level met.
        if (meeting.empty())
            for (std::size_t k = levelEnd; k < side.order.size(); ++k) {
                const FabricVertexId v = side.order[k];
                if (other.seen(v, current) && canMeet(v))
                    meeting.push_back(v);
            }
    }
    double paths = 0;
    for (FabricVertexId v : meeting)
        paths += from.sigma[v] * to.sigma[v];
    // Push the flow from the meeting layer towards one root, splitting by that side's sigma.
    const auto spread = [&](SearchSide &side, bool towardsRoot) {
        std::vector<FabricVertexId> level;
        for (FabricVertexId v : meeting) {
            side.backStamp[v] = current;
            side.fraction[v] = from.sigma[v] * to.sigma[v] / paths;
            level.push_back(v);
        }
        std::vector<FabricVertexId> next;
        while (!level.empty() && side.dist[level.front()] > 0) {
            next.clear();
            double levelLatency = 0;
            for (FabricVertexId w : level)
                for (auto [it, end] = boost::out_edges(w, g); it != end; ++it) {
                    const std::size_t id = g[*it].id;
                    const FabricVertexId u = boost::target(*it, g);
                    if (!alive.link[id] || !side.seen(u, current)
                        || side.dist[u] != side.dist[w] - 1 || (u != side.root && !g[u].forwards()))
                        continue;
                    const double share = side.fraction[w] * side.sigma[u] / side.sigma[w];
                    load[towardsRoot ? arcIndex(id, u, w) : arcIndex(id, w, u)] += share;
                    levelLatency = std::max(levelLatency, g[*it].latencySeconds);
                    if (side.backStamp[u] != current) {
                        side.backStamp[u] = current;
                        side.fraction[u] = 0;
                        next.push_back(u);
                    }
                    side.fraction[u] += share;
                }
            latency += levelLatency;
            level.swap(next);
        }
    };
    spread(from, true);
    spread(to, false);
    return from.dist[meeting.front()] + to.dist[meeting.front()];
}

} // namespace

RingRate concurrentRingRate(const FabricGraph &graph,
                            const std::vector<std::vector<FabricVertexId>> &rings,
                            double switchLatencySeconds, const FabricFailures &failures,
                            std::vector<double> *arcLoads)
{
    const auto &g = graph.storage();
    const FabricLiveness alive = fabricLiveness(graph, failures);
    std::vector<double> capacity(graph.linkCount(), 0.0);
    std::vector<std::pair<FabricVertexId, FabricVertexId>> ends(graph.linkCount());
    for (auto [it, end] = boost::edges(g); it != end; ++it) {
        capacity[g[*it].id] = g[*it].bytesPerSecond;
        ends[g[*it].id] = {boost::source(*it, g), boost::target(*it, g)};
    }
    std::vector<double> load(2 * graph.linkCount(), 0.0);
    SearchSide from(graph.vertexCount());
    SearchSide to(graph.vertexCount());
    unsigned current = 0;
    RingRate result;
    bool unroutable = false;

    for (const auto &ring : rings) {
        if (ring.size() < 2)
            continue;
        for (std::size_t i = 0; i < ring.size(); ++i) {
            const FabricVertexId s = ring[i];
            const FabricVertexId t = ring[(i + 1) % ring.size()];
            ++result.flows;
            if (s == t)
                continue;
            if (!alive.vertex[s] || !alive.vertex[t]) {
                unroutable = true;
                continue;
            }
            double latency = 0;
            const int hops = addFlowLoad(graph, alive, s, t, ++current, from, to, load, latency);
            if (hops < 0) {
                unroutable = true;
                continue;
            }
            latency += std::max(0, hops - 1) * switchLatencySeconds;
            result.maxHops = std::max(result.maxHops, hops);
            result.pathLatencySeconds = std::max(result.pathLatencySeconds, latency);
        }
    }
    if (arcLoads)
        *arcLoads = load;
    if (unroutable) {
        result.bytesPerSecondPerFlow = 0;
        result.bottleneckLink = "a ring member cannot be reached";
        return result;
    }
    double rate = std::numeric_limits<double>::infinity();
    std::size_t worst = 0;
    for (std::size_t arc = 0; arc < load.size(); ++arc) {
        if (load[arc] <= 0)
            continue;
        const double r = capacity[arc / 2] / load[arc];
        if (r < rate) {
            rate = r;
            worst = arc;
        }
    }
    if (result.flows == 0 || rate == std::numeric_limits<double>::infinity())
        return result;
    result.bytesPerSecondPerFlow = rate;
    result.bottleneckLoad = load[worst];
    auto [u, v] = ends[worst / 2];
    if (worst % 2 == 1 ? u < v : u > v)
        std::swap(u, v);
    result.bottleneckLink = g[u].label + " -> " + g[v].label;
    return result;
}

std::vector<std::vector<FabricVertexId>> rankRings(const FabricGraph &graph, int endpointsPerNode,
                                                   int ringNodes, NodePlacement placement)
{
    if (endpointsPerNode < 1 || ringNodes < 1)
        throw FabricParameterError("rings need at least one endpoint per node and one node");
    const auto &endpoints = graph.endpoints();
    const std::size_t nodes = endpoints.size() / static_cast<std::size_t>(endpointsPerNode);
    std::size_t stride = 1;
    if (placement == NodePlacement::Scattered && nodes > 2) {
        stride = static_cast<std::size_t>(0.618 * static_cast<double>(nodes));
        while (std::gcd(stride, nodes) != 1)
            ++stride;
    }
    const auto nodeAt = [&](std::size_t position) {
        return (position * stride) % nodes;
    };
    std::vector<std::vector<FabricVertexId>> rings;
    for (std::size_t first = 0; first < nodes; first += static_cast<std::size_t>(ringNodes))
        for (int rank = 0; rank < endpointsPerNode; ++rank) {
            std::vector<FabricVertexId> ring;
            for (std::size_t n = first; n < std::min(nodes, first + ringNodes); ++n)
                ring.push_back(endpoints[nodeAt(n) * endpointsPerNode + rank]);
            rings.push_back(std::move(ring));
        }
    return rings;
}

} // namespace cp::model
