// SPDX-License-Identifier: GPL-3.0-or-later
#include "model/fabric/fabriccollective.h"

#include "model/core/parallelrun.h"

#include <algorithm>
#include <cstdint>
#include <limits>
#include <memory>
#include <numeric>
#include <tuple>

namespace cp::model {

namespace {

/** One side of a bidirectional breadth-first search; state is reset lazily by stamping. */
struct SearchSide
{
    // Only the stamps start at zero: a vertex's distance, path count and flow share are written
    // when this search stamps it and read only after, so those arrays are left uninitialised
    // (on a 131,072-GPU fabric, zeroing them cost two of every three of a meter's page faults).
    std::vector<unsigned> stamp;
    std::unique_ptr<int[]> dist;
    std::unique_ptr<double[]> sigma; ///< shortest paths from this side's root (Brandes 2001)
    std::vector<unsigned> backStamp;
    std::unique_ptr<double[]> fraction;
    std::vector<FabricVertexId> order;
    /** Arcs of the shortest-path DAG by the child's depth: parent, child, link (recorded while
     * the search grows, so pushing a flow back visits only these, not every link of a level). */
    struct Arc
    {
        FabricVertexId parent;
        FabricVertexId child;
        std::size_t linkId;
        double latencySeconds;
    };
    std::vector<std::vector<Arc>> arcsByDepth;
    std::size_t levelBegin = 0;
    int depth = 0;
    FabricVertexId root = 0;

    explicit SearchSide(std::size_t n)
        : stamp(n, 0)
        , dist(new int[n])
        , sigma(new double[n])
        , backStamp(n, 0)
        , fraction(new double[n])
    { }
    bool seen(FabricVertexId v, unsigned current) const { return stamp[v] == current; }
    std::size_t frontierSize() const { return order.size() - levelBegin; }
};

std::size_t arcIndex(std::size_t linkId, FabricVertexId from, FabricVertexId to)
{
    return 2 * linkId + (from > to ? 1 : 0);
}

/**
 * The live links of a fabric as compact arrays, each vertex's in the graph's own order (so the
 * searches add path counts in the same order as over the graph): the breadth-first searches
 * read 8 bytes per arc here instead of an edge record and a liveness flag elsewhere in memory.
 */
struct LiveAdjacency
{
    struct Arc
    {
        std::uint32_t target;
        std::uint32_t linkId;
    };
    std::vector<std::uint32_t> begin; ///< vertex v's arcs are arcs[begin[v] .. begin[v + 1])
    std::vector<Arc> arcs;
    std::vector<char> forwards; ///< switches forward flows; endpoints do not
    std::vector<double> latencySeconds; ///< by link id

    LiveAdjacency() = default;
    /**
     * Built from the edge list, which is in link-id order, in two sequential passes (degrees,
     * then arcs): every vertex's arcs come out in the order its links were added, the order of
     * its out-edges, without a cache miss on each out-edge's record (most of building a meter on
     * a 131,072-GPU fabric before).
     */
    LiveAdjacency(const FabricGraph &graph, const FabricLiveness &alive)
        : begin(graph.vertexCount() + 1, 0)
        , forwards(graph.vertexCount(), 0)
        , latencySeconds(graph.linkCount(), 0.0)
    {
        const auto &g = graph.storage();
        for (FabricVertexId v = 0; v < graph.vertexCount(); ++v)
            forwards[v] = g[v].forwards();
        for (auto [it, end] = boost::edges(g); it != end; ++it) {
            const std::size_t id = g[*it].id;
            latencySeconds[id] = g[*it].latencySeconds;
            if (!alive.link[id])
                continue;
            ++begin[boost::source(*it, g) + 1];
            ++begin[boost::target(*it, g) + 1];
        }
        for (std::size_t v = 0; v < graph.vertexCount(); ++v)
            begin[v + 1] += begin[v];
        arcs.resize(begin.back());
        std::vector<std::uint32_t> next(begin.begin(), begin.end() - 1);
        for (auto [it, end] = boost::edges(g); it != end; ++it) {
            const std::size_t id = g[*it].id;
            if (!alive.link[id])
                continue;
            const auto u = static_cast<std::uint32_t>(boost::source(*it, g));
            const auto w = static_cast<std::uint32_t>(boost::target(*it, g));
            arcs[next[u]++] = {w, static_cast<std::uint32_t>(id)};
            arcs[next[w]++] = {u, static_cast<std::uint32_t>(id)};
        }
    }
};

/**
 * The two breadth-first searches of addFlowLoad, grown from both ends, the smaller frontier
 * first, until a level meets the other side; returns that meeting layer (empty: t unreachable).
 */
std::vector<FabricVertexId> meetInTheMiddle(const LiveAdjacency &adjacency, FabricVertexId s,
                                            FabricVertexId t, unsigned current, SearchSide &from,
                                            SearchSide &to)
{
    const auto start = [&](SearchSide &side, FabricVertexId root) {
        side.root = root;
        side.order.assign(1, root);
        side.levelBegin = 0;
        side.depth = 0;
        side.stamp[root] = current;
        side.dist[root] = 0;
        side.sigma[root] = 1;
        for (auto &arcs : side.arcsByDepth)
            arcs.clear();
    };
    start(from, s);
    start(to, t);
    std::vector<FabricVertexId> meeting;
    const auto canMeet = [&](FabricVertexId v) {
        return v == s || v == t || adjacency.forwards[v];
    };
    while (meeting.empty()) {
        SearchSide &side = from.frontierSize() <= to.frontierSize() ? from : to;
        SearchSide &other = &side == &from ? to : from;
        if (side.frontierSize() == 0)
            return {};
        const std::size_t levelEnd = side.order.size();
        if (side.arcsByDepth.size() < static_cast<std::size_t>(side.depth) + 2)
            side.arcsByDepth.resize(side.depth + 2);
        auto &arcs = side.arcsByDepth[side.depth + 1];
        for (std::size_t k = side.levelBegin; k < levelEnd; ++k) {
            const FabricVertexId v = side.order[k];
            if (v != side.root && !adjacency.forwards[v])
                continue;
            const LiveAdjacency::Arc *arc = adjacency.arcs.data() + adjacency.begin[v];
            const LiveAdjacency::Arc *end = adjacency.arcs.data() + adjacency.begin[v + 1];
            for (; arc != end; ++arc) {
                const FabricVertexId w = arc->target;
                // An endpoint other than the two ends neither forwards nor meets: no shortest
                // path between them passes it (a leaf's many hosts are skipped here).
                if (!adjacency.forwards[w] && w != s && w != t)
                    continue;
                if (!side.seen(w, current)) {
                    side.stamp[w] = current;
                    side.dist[w] = side.dist[v] + 1;
                    side.sigma[w] = 0;
                    side.order.push_back(w);
                }
                if (side.dist[w] == side.dist[v] + 1) {
                    side.sigma[w] += side.sigma[v];
                    arcs.push_back({v, w, arc->linkId, adjacency.latencySeconds[arc->linkId]});
                }
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
    return meeting;
}

/** What one side of a flow adds to the arcs' loads and its latency: the flow pushed from the
 * meeting layer towards that side's root, split by the side's shortest-path counts. */
struct FlowSpread
{
    const std::vector<FabricVertexId> &meeting;
    const SearchSide &from;
    const SearchSide &to;
    double weight = 0;
    double paths = 0; ///< shortest paths from s to t
    unsigned current = 0;
};

void spreadTowardsRoot(const FlowSpread &flow, SearchSide &side, bool towardsRoot,
                       std::vector<double> &load, double &latency)
{
    const unsigned current = flow.current;
    for (FabricVertexId v : flow.meeting) {
        side.backStamp[v] = current;
        side.fraction[v] = flow.weight * flow.from.sigma[v] * flow.to.sigma[v] / flow.paths;
    }
    // Depth by depth from the meeting layer back to the root, along the recorded arcs whose
    // child carries some of the flow: each parent gets the child's share in proportion to its
    // own shortest-path count.
    for (int depth = side.dist[flow.meeting.front()]; depth > 0; --depth) {
        double levelLatency = 0;
        for (const SearchSide::Arc &arc : side.arcsByDepth[depth]) {
            if (side.backStamp[arc.child] != current)
                continue;
            const double share
                = side.fraction[arc.child] * side.sigma[arc.parent] / side.sigma[arc.child];
            load[towardsRoot ? arcIndex(arc.linkId, arc.parent, arc.child)
                             : arcIndex(arc.linkId, arc.child, arc.parent)]
                += share;
            levelLatency = std::max(levelLatency, arc.latencySeconds);
            if (side.backStamp[arc.parent] != current) {
                side.backStamp[arc.parent] = current;
                side.fraction[arc.parent] = 0;
            }
            side.fraction[arc.parent] += share;
        }
        latency += levelLatency;
    }
}

/**
 * Adds one flow's load, split over all shortest paths from s to t. The two searches grow from
 * both ends, the smaller frontier first; when a level meets the other side at depths a and b,
 * d = a + b and the vertices at exactly those depths form a cut every shortest path crosses once,
 * with sigma_s(v) * sigma_t(v) of the paths through v. Loads are pushed back from that layer to s
 * with sigma_s and forward to t with sigma_t. Returns the hop count, or -1 if t is unreachable.
 */
int addFlowLoad(const LiveAdjacency &adjacency, FabricVertexId s, FabricVertexId t,
                unsigned current, SearchSide &from, SearchSide &to, std::vector<double> &load,
                double weight, double &latency)
{
    const std::vector<FabricVertexId> meeting = meetInTheMiddle(adjacency, s, t, current, from, to);
    if (meeting.empty())
        return -1;
    double paths = 0;
    for (FabricVertexId v : meeting)
        paths += from.sigma[v] * to.sigma[v];
    const FlowSpread flow {meeting, from, to, weight, paths, current};
    spreadTowardsRoot(flow, from, true, load, latency);
    spreadTowardsRoot(flow, to, false, load, latency);
    return from.dist[meeting.front()] + to.dist[meeting.front()];
}

/**
 * Where a non-forwarding endpoint meets the scale-out network when it has exactly one live
 * scale-out link: every route from it to an endpoint outside its NVLink domain starts with that
 * link (its other links lead to scale-up switches that only reach endpoints, which forward
 * nothing). Flows between such endpoints are routed once per switch pair: the access links
 * carry the flow whole, and the switch pair splits it over the same shortest paths.
 */
struct Attachment
{
    bool single = false;
    FabricVertexId attachedSwitch = 0;
    std::size_t linkId = 0;
    double latencySeconds = 0;
    /** Scale-up switches the endpoint has live links to; the one, when there is exactly one
     * (two endpoints with one each share a scale-up domain exactly when it is the same). */
    int scaleUpSwitches = 0;
    FabricVertexId scaleUpSwitch = 0;
};

std::vector<Attachment> attachmentsOf(const FabricGraph &graph, const FabricLiveness &alive)
{
    const auto &g = graph.storage();
    const auto scaleUpReachesOnlyEndpoints = [&](FabricVertexId sw) {
        for (auto [it, end] = boost::out_edges(sw, g); it != end; ++it)
            if (g[boost::target(*it, g)].forwards())
                return false;
        return true;
    };
    std::vector<Attachment> attachments(graph.vertexCount());
    for (FabricVertexId v : graph.endpoints()) {
        if (g[v].forwards() || !alive.vertex[v])
            continue;
        Attachment attachment;
        int scaleOutLinks = 0;
        bool closedScaleUp = true;
        for (auto [it, end] = boost::out_edges(v, g); it != end; ++it) {
            const FabricVertexId w = boost::target(*it, g);
            const bool scaleUp = g[*it].linkClass == LinkClass::ScaleUp;
            if (scaleUp) {
                // Sharing a domain is a matter of wiring, live or not (shareScaleUpDomain).
                ++attachment.scaleUpSwitches;
                attachment.scaleUpSwitch = w;
            }
            if (!alive.link[g[*it].id])
                continue;
            if (scaleUp) {
                closedScaleUp = closedScaleUp && scaleUpReachesOnlyEndpoints(w);
                continue;
            }
            ++scaleOutLinks;
            attachment.attachedSwitch = w;
            attachment.linkId = g[*it].id;
            attachment.latencySeconds = g[*it].latencySeconds;
            attachment.single = g[w].forwards();
        }
        attachment.single = attachment.single && scaleOutLinks == 1 && closedScaleUp;
        attachments[v] = attachment;
    }
    return attachments;
}

/** Whether s and t share a scale-up switch: their flow may take NVLink, never the fabric. */
bool shareScaleUpDomain(const FabricGraph &graph, FabricVertexId s, FabricVertexId t)
{
    const auto &g = graph.storage();
    for (auto [it, end] = boost::out_edges(s, g); it != end; ++it)
        if (g[*it].linkClass == LinkClass::ScaleUp
            && boost::edge(boost::target(*it, g), t, g).second)
            return true;
    return false;
}

} // namespace

/** What meters prepare once per fabric and failures: live links, attachments, adjacency and
 * capacities. Read-only once built, so meters on several threads share one. */
struct RingRateMeter::Fabric
{
    Fabric(const FabricGraph &fabric, const FabricFailures &failures)
        : graph(fabric)
        , alive(fabricLiveness(fabric, failures))
    {
        // Three independent reads of the graph, built side by side (a 131,072-GPU fabric's
        // adjacency alone is several milliseconds).
        runInParallel(3, [&](std::size_t part) {
            if (part == 0)
                attachments = attachmentsOf(fabric, alive);
            else if (part == 1)
                adjacency = LiveAdjacency(fabric, alive);
            else
                addLinkFigures();
        });
    }

    /** Capacity and tier of every link, from the edge list in one sequential pass. */
    void addLinkFigures()
    {
        const auto &g = graph.storage();
        std::vector<char> upper(graph.vertexCount(), 0);
        for (FabricVertexId v = 0; v < graph.vertexCount(); ++v)
            upper[v] = g[v].role == FabricVertexRole::Switch && g[v].tier >= 2;
        capacity.assign(graph.linkCount(), 0.0);
        aboveLeaves.assign(graph.linkCount(), 0);
        for (auto [it, end] = boost::edges(g); it != end; ++it) {
            const FabricVertexId u = boost::source(*it, g), v = boost::target(*it, g);
            const std::size_t id = g[*it].id;
            capacity[id] = g[*it].bytesPerSecond;
            aboveLeaves[id] = upper[u] && upper[v];
        }
    }

    const FabricGraph &graph;
    FabricLiveness alive;
    std::vector<Attachment> attachments;
    LiveAdjacency adjacency;
    std::vector<double> capacity; ///< bytes per second of each link, by id
    /** By link id: both ends are switches above the leaves (spines, cores, super-spines). */
    std::vector<char> aboveLeaves;
};

/** One meter's own working state: its search buffers and its link-direction loads, kept from
 * one measurement to the next (a fresh 2 x links vector each time cost a page fault per page). */
struct RingRateMeter::Context
{
    explicit Context(std::shared_ptr<const Fabric> prepared)
        : fabric(std::move(prepared))
        , from(fabric->graph.vertexCount())
        , to(fabric->graph.vertexCount())
    { }

    std::shared_ptr<const Fabric> fabric;
    SearchSide from, to;
    unsigned current = 0; ///< the stamp of the latest search
    std::vector<double> load; ///< by link direction (arcIndex)
};

namespace {

/**
 * Adds flows' loads to the link directions: a flow between single-homed endpoints on two
 * different switches is held back and routed once per switch pair, with the pair's summed
 * weight, when finish() is called; every other flow is routed at once.
 */
class RingLoadAccumulator
{
public:
    RingLoadAccumulator(RingRateMeter::Context &context, double switchLatencySeconds)
        : load(context.load)
        , m_context(context)
        , m_fabric(*context.fabric)
        , m_switchLatencySeconds(switchLatencySeconds)
    {
        load.assign(2 * m_fabric.graph.linkCount(), 0.0);
    }

    void addFlow(FabricVertexId s, FabricVertexId t, double weight)
    {
        ++result.flows;
        if (s == t)
            return;
        if (!m_fabric.alive.vertex[s] || !m_fabric.alive.vertex[t]) {
            unroutable = true;
            return;
        }
        const Attachment &up = m_fabric.attachments[s], &down = m_fabric.attachments[t];
        if (up.single && down.single && !shareScaleUpDomain(s, t)) {
            load[arcIndex(up.linkId, s, up.attachedSwitch)] += weight;
            load[arcIndex(down.linkId, down.attachedSwitch, t)] += weight;
            const double accessLatency = up.latencySeconds + down.latencySeconds;
            if (up.attachedSwitch == down.attachedSwitch) {
                noteFlow(2, accessLatency);
                return;
            }
            m_heldBack.push_back({up.attachedSwitch, down.attachedSwitch, weight, accessLatency});
            return;
        }
        route(s, t, weight, 0.0, 0);
    }

    /** Routes the held-back flows once per switch pair, in the pairs' order, each pair's
     * weights summed in the order the flows came. */
    void finish()
    {
        std::stable_sort(m_heldBack.begin(), m_heldBack.end(),
                         [](const HeldBack &a, const HeldBack &b) {
                             return std::tie(a.from, a.to) < std::tie(b.from, b.to);
                         });
        for (std::size_t i = 0; i < m_heldBack.size();) {
            const HeldBack &first = m_heldBack[i];
            double weight = 0, latency = 0;
            std::size_t j = i;
            for (; j < m_heldBack.size() && m_heldBack[j].from == first.from
                 && m_heldBack[j].to == first.to;
                 ++j) {
                weight += m_heldBack[j].weight;
                latency = std::max(latency, m_heldBack[j].accessLatencySeconds);
            }
            route(first.from, first.to, weight, latency, 2);
            i = j;
        }
        m_heldBack.clear();
    }

    RingRate result;
    bool unroutable = false;
    std::vector<double> &load; ///< the meter's, reset for this measurement

private:
    /** A flow between two switches' single-homed endpoints, routed in finish(). */
    struct HeldBack
    {
        FabricVertexId from;
        FabricVertexId to;
        double weight;
        double accessLatencySeconds;
    };

    void route(FabricVertexId s, FabricVertexId t, double weight, double latency, int extraHops)
    {
        Context &c = m_context;
        const int hops = addFlowLoad(m_fabric.adjacency, s, t, ++c.current, c.from, c.to, load,
                                     weight, latency);
        if (hops < 0)
            unroutable = true;
        else
            noteFlow(hops + extraHops, latency);
    }
    /** Whether s and t share a scale-up switch, from their attachments where each has one
     * (a cache-friendly compare instead of walking s's links for every flow). */
    bool shareScaleUpDomain(FabricVertexId s, FabricVertexId t) const
    {
        const Attachment &a = m_fabric.attachments[s], &b = m_fabric.attachments[t];
        if (a.scaleUpSwitches == 0 || b.scaleUpSwitches == 0)
            return false;
        if (a.scaleUpSwitches == 1 && b.scaleUpSwitches == 1)
            return a.scaleUpSwitch == b.scaleUpSwitch;
        return model::shareScaleUpDomain(m_fabric.graph, s, t);
    }
    void noteFlow(int hops, double latency)
    {
        latency += std::max(0, hops - 1) * m_switchLatencySeconds;
        result.maxHops = std::max(result.maxHops, hops);
        result.pathLatencySeconds = std::max(result.pathLatencySeconds, latency);
    }

    using Context = RingRateMeter::Context;
    Context &m_context;
    const RingRateMeter::Fabric &m_fabric;
    double m_switchLatencySeconds;
    std::vector<HeldBack> m_heldBack;
};

/**
 * The common rate: the most loaded link direction's capacity over its load. With
 * `sharedMultiplier` > 1 the links between switches above the leaves carry that many times the
 * load given (the ranks of interchangeable rails).
 */
void setBottleneck(const RingRateMeter::Fabric &fabric, const std::vector<double> &load,
                   RingRate &result, double sharedMultiplier = 1.0)
{
    double rate = std::numeric_limits<double>::infinity();
    std::size_t worst = 0;
    double worstLoad = 0;
    for (std::size_t arc = 0; arc < load.size(); ++arc) {
        if (load[arc] <= 0)
            continue;
        const double carried
            = fabric.aboveLeaves[arc / 2] ? sharedMultiplier * load[arc] : load[arc];
        const double r = fabric.capacity[arc / 2] / carried;
        if (r < rate) {
            rate = r;
            worst = arc;
            worstLoad = carried;
        }
    }
    if (result.flows == 0 || rate == std::numeric_limits<double>::infinity())
        return;
    result.bytesPerSecondPerFlow = rate;
    result.bottleneckLoad = worstLoad;
    auto [u, v] = fabric.graph.linkEnds(worst / 2);
    if (worst % 2 == 1 ? u < v : u > v)
        std::swap(u, v);
    const auto &g = fabric.graph.storage();
    result.bottleneckLink = g[u].label + " -> " + g[v].label;
}

} // namespace

RingRateMeter::RingRateMeter(const FabricGraph &graph, const FabricFailures &failures)
    : m_context(std::make_unique<Context>(prepare(graph, failures)))
{ }

RingRateMeter::RingRateMeter(std::shared_ptr<const Fabric> prepared)
    : m_context(std::make_unique<Context>(std::move(prepared)))
{ }

std::shared_ptr<const RingRateMeter::Fabric> RingRateMeter::prepare(const FabricGraph &graph,
                                                                    const FabricFailures &failures)
{
    return std::make_shared<const Fabric>(graph, failures);
}

RingRateMeter::~RingRateMeter() = default;

RingRate RingRateMeter::rate(const std::vector<std::vector<FabricVertexId>> &rings,
                             double switchLatencySeconds, std::vector<double> *arcLoads,
                             const std::vector<double> *ringWeights)
{
    return measure(rings, switchLatencySeconds, arcLoads, ringWeights, 1);
}

RingRate
RingRateMeter::rateOfInterchangeableRails(const std::vector<std::vector<FabricVertexId>> &rankZero,
                                          int rails, double switchLatencySeconds)
{
    RingRate result = measure(rankZero, switchLatencySeconds, nullptr, nullptr, rails);
    result.flows *= rails;
    return result;
}

RingRate RingRateMeter::measure(const std::vector<std::vector<FabricVertexId>> &rings,
                                double switchLatencySeconds, std::vector<double> *arcLoads,
                                const std::vector<double> *ringWeights, int sharedMultiplier)
{
    RingLoadAccumulator flows(*m_context, switchLatencySeconds);
    for (std::size_t r = 0; r < rings.size(); ++r) {
        const auto &ring = rings[r];
        const double weight = ringWeights && r < ringWeights->size() ? (*ringWeights)[r] : 1.0;
        if (ring.size() < 2 || weight <= 0)
            continue;
        for (std::size_t i = 0; i < ring.size(); ++i)
            flows.addFlow(ring[i], ring[(i + 1) % ring.size()], weight);
    }
    flows.finish();
    if (arcLoads)
        *arcLoads = flows.load;
    RingRate result = flows.result;
    if (flows.unroutable) {
        result.bytesPerSecondPerFlow = 0;
        result.bottleneckLink = "a ring member cannot be reached";
        return result;
    }
    setBottleneck(*m_context->fabric, flows.load, result, sharedMultiplier);
    return result;
}

RingRate concurrentRingRate(const FabricGraph &graph,
                            const std::vector<std::vector<FabricVertexId>> &rings,
                            double switchLatencySeconds, const FabricFailures &failures,
                            std::vector<double> *arcLoads, const std::vector<double> *ringWeights)
{
    return RingRateMeter(graph, failures).rate(rings, switchLatencySeconds, arcLoads, ringWeights);
}

std::vector<std::vector<FabricVertexId>> rankRings(const FabricGraph &graph, int endpointsPerNode,
                                                   int ringNodes, NodePlacement placement,
                                                   int onlyRank)
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
            if (onlyRank >= 0 && rank != onlyRank)
                continue;
            std::vector<FabricVertexId> ring;
            ring.reserve(std::min(nodes - first, static_cast<std::size_t>(ringNodes)));
            for (std::size_t n = first; n < std::min(nodes, first + ringNodes); ++n)
                ring.push_back(endpoints[nodeAt(n) * endpointsPerNode + rank]);
            rings.push_back(std::move(ring));
        }
    return rings;
}

} // namespace cp::model
