// SPDX-License-Identifier: GPL-3.0-or-later
#include "model/fabric/fabricanalysis.h"

#include "model/catalog/catalogitems.h"
#include "model/core/humantext.h"
#include "model/core/units.h"

// GCC 12 reports maybe-uninitialized inside Boost's edge iterators when it inlines the max-flow
// solver (boost::optional in adj_list_edge_iterator); the code is correct, the warning is noise.
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#include <boost/graph/boykov_kolmogorov_max_flow.hpp>
#include <boost/graph/connected_components.hpp>
#include <boost/graph/filtered_graph.hpp>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <functional>
#include <limits>
#include <optional>

namespace cp::model {

namespace {

using Liveness = FabricLiveness;

} // namespace

FabricLiveness fabricLiveness(const FabricGraph &graph, const FabricFailures &failures)
{
    FabricLiveness alive {std::vector<char>(graph.vertexCount(), 1),
                          std::vector<char>(graph.linkCount(), 1)};
    for (FabricVertexId v : failures.vertices) {
        if (v >= graph.vertexCount())
            throw FabricParameterError("failed vertex " + std::to_string(v) + " does not exist");
        alive.vertex[v] = 0;
    }
    for (std::size_t e : failures.links) {
        if (e >= graph.linkCount())
            throw FabricParameterError("failed link " + std::to_string(e) + " does not exist");
        alive.link[e] = 0;
    }
    const auto &g = graph.storage();
    for (auto [it, end] = boost::edges(g); it != end; ++it)
        if (!alive.vertex[boost::source(*it, g)] || !alive.vertex[boost::target(*it, g)])
            alive.link[g[*it].id] = 0;
    return alive;
}

namespace {

/** Shortest-path statistics from a set of sources, accumulated. */
struct PathStatistics
{
    double hopSum = 0;
    double pathCountSum = 0;
    double minPaths = std::numeric_limits<double>::infinity();
    long long pairs = 0;
    int diameter = 0;
    int switchDiameter = 0;
};

/**
 * Breadth-first search from `source` counting shortest paths (sigma, as in Brandes 2001). Only
 * vertices that forward are expanded, so a path never crosses a GPU or host.
 */
void accumulateFrom(const FabricGraph &graph, const Liveness &alive, FabricVertexId source,
                    std::vector<int> &dist, std::vector<double> &sigma,
                    std::vector<FabricVertexId> &queue, PathStatistics &stats)
{
    const auto &g = graph.storage();
    std::fill(dist.begin(), dist.end(), -1);
    queue.clear();
    dist[source] = 0;
    sigma[source] = 1;
    queue.push_back(source);
    for (std::size_t head = 0; head < queue.size(); ++head) {
        const FabricVertexId v = queue[head];
        if (v != source && !g[v].forwards())
            continue;
        for (auto [it, end] = boost::out_edges(v, g); it != end; ++it) {
            if (!alive.link[g[*it].id])
                continue;
            const FabricVertexId w = boost::target(*it, g);
            if (dist[w] < 0) {
                dist[w] = dist[v] + 1;
                sigma[w] = 0;
                queue.push_back(w);
            }
            if (dist[w] == dist[v] + 1)
                sigma[w] += sigma[v];
        }
    }
    const int sourceAccess = g[source].role == FabricVertexRole::Endpoint ? 1 : 0;
    for (FabricVertexId t : graph.endpoints()) {
        if (t == source || !alive.vertex[t])
            continue;
        if (dist[t] < 0)
            continue; // counted by endpointsOutsideLargestComponent
        const int access = sourceAccess + (g[t].role == FabricVertexRole::Endpoint ? 1 : 0);
        stats.hopSum += dist[t];
        stats.pathCountSum += sigma[t];
        stats.minPaths = std::min(stats.minPaths, sigma[t]);
        stats.diameter = std::max(stats.diameter, dist[t]);
        stats.switchDiameter = std::max(stats.switchDiameter, dist[t] - access);
        ++stats.pairs;
    }
}

// Max-flow graph for the bisection: every cable becomes a pair of opposite arcs, each the
// other's reverse, so each direction carries up to the link rate (full duplex).
using FlowTraits = boost::adjacency_list_traits<boost::vecS, boost::vecS, boost::directedS>;
struct FlowArc
{
    std::int64_t capacity = 0;
    std::int64_t residual = 0;
    FlowTraits::edge_descriptor reverse;
};
using FlowGraph = boost::adjacency_list<boost::vecS, boost::vecS, boost::directedS,
                                        boost::no_property, FlowArc>;

/** Capacities are integers in kB/s so that the max flow is exact. */
std::int64_t flowUnits(double bytesPerSecond)
{
    return static_cast<std::int64_t>(bytesPerSecond / 1e3 + 0.5);
}

void addArcPair(FlowGraph &flow, std::size_t u, std::size_t v, std::int64_t forward,
                std::int64_t backward)
{
    const auto e = boost::add_edge(u, v, flow).first;
    const auto r = boost::add_edge(v, u, flow).first;
    flow[e].capacity = forward;
    flow[r].capacity = backward;
    flow[e].reverse = r;
    flow[r].reverse = e;
}

/**
 * Live endpoints outside the component holding most endpoints. Components are taken over live
 * links; an endpoint with two links (a GPU on NVLink and its NIC) can join them, as NCCL's PXN
 * forwards through a peer GPU.
 */
int endpointsOutsideLargestComponent(const FabricGraph &graph, const Liveness &alive)
{
    const auto &g = graph.storage();
    const auto liveLink = [&](const FabricEdge &e) {
        return alive.link[g[e].id] != 0;
    };
    const auto liveVertex = [&](FabricVertexId v) {
        return alive.vertex[v] != 0;
    };
    const boost::filtered_graph<FabricGraphStorage, std::function<bool(const FabricEdge &)>,
                                std::function<bool(FabricVertexId)>>
        live(g, liveLink, liveVertex);
    std::vector<int> component(graph.vertexCount(), -1);
    boost::connected_components(live, component.data());
    std::map<int, int> endpointsPerComponent;
    int liveEndpoints = 0;
    for (FabricVertexId v : graph.endpoints())
        if (alive.vertex[v]) {
            ++endpointsPerComponent[component[v]];
            ++liveEndpoints;
        }
    int largest = 0;
    for (const auto &[c, count] : endpointsPerComponent)
        largest = std::max(largest, count);
    return liveEndpoints - largest;
}

/** The one live link of `endpoint` and the vertex at its other end, if it has exactly one. */
std::optional<std::pair<FabricVertexId, std::int64_t>>
singleLiveLink(const FabricGraph &graph, const Liveness &alive, FabricVertexId endpoint)
{
    const auto &g = graph.storage();
    std::optional<std::pair<FabricVertexId, std::int64_t>> only;
    for (auto [it, end] = boost::out_edges(endpoint, g); it != end; ++it) {
        if (!alive.link[g[*it].id])
            continue;
        if (only)
            return std::nullopt;
        only = std::make_pair(boost::target(*it, g), flowUnits(g[*it].bytesPerSecond));
    }
    return only;
}

/**
 * Max flow from one half's endpoints to the other's. An endpoint with a single live link (a GPU
 * or host on one leaf port) is folded into the source or sink: its flow can only cross that
 * link, so an arc of the smaller of its injection and link capacities from the source to its
 * switch (or from the switch to the sink) carries exactly the same flow; folding the 65,536
 * endpoints of a k = 64 fat-tree leaves a graph of its 5,120 switches.
 */
double maxFlowBetweenHalves(const FabricGraph &graph, const Liveness &alive,
                            const std::vector<std::uint8_t> &half,
                            const std::vector<double> &endpointCapacity)
{
    const auto &g = graph.storage();
    const std::size_t n = graph.vertexCount();
    const auto &endpoints = graph.endpoints();
    std::vector<char> isEndpoint(n, 0), folded(n, 0);
    for (FabricVertexId v : endpoints)
        isEndpoint[v] = 1;
    std::vector<std::int64_t> fromSource(n, 0), toSink(n, 0);
    for (std::size_t i = 0; i < endpoints.size(); ++i) {
        if (!alive.vertex[endpoints[i]])
            continue;
        const std::int64_t c = flowUnits(endpointCapacity[i]);
        // Only onto a vertex that is no endpoint, which is never folded itself.
        if (const auto link = singleLiveLink(graph, alive, endpoints[i]);
            link && !isEndpoint[link->first]) {
            folded[endpoints[i]] = 1;
            (half[i] == 0 ? fromSource : toSink)[link->first] += std::min(c, link->second);
        }
    }
    // The flow graph holds only the vertices not folded (the switches, and endpoints with more
    // than one live link): a k = 64 fat-tree's 65,536 folded hosts cost it nothing.
    std::vector<std::size_t> index(n, 0);
    std::size_t kept = 0;
    for (std::size_t v = 0; v < n; ++v)
        if (!folded[v])
            index[v] = kept++;
    FlowGraph flow(kept + 2);
    const std::size_t source = kept;
    const std::size_t sink = kept + 1;
    for (std::size_t i = 0; i < endpoints.size(); ++i) {
        if (!alive.vertex[endpoints[i]] || folded[endpoints[i]])
            continue;
        const std::int64_t c = flowUnits(endpointCapacity[i]);
        if (half[i] == 0)
            addArcPair(flow, source, index[endpoints[i]], c, 0);
        else
            addArcPair(flow, index[endpoints[i]], sink, c, 0);
    }
    for (std::size_t v = 0; v < n; ++v) {
        if (fromSource[v] > 0)
            addArcPair(flow, source, index[v], fromSource[v], 0);
        if (toSink[v] > 0)
            addArcPair(flow, index[v], sink, toSink[v], 0);
    }
    for (auto [it, end] = boost::edges(g); it != end; ++it) {
        const FabricVertexId u = boost::source(*it, g), v = boost::target(*it, g);
        if (!alive.link[g[*it].id] || folded[u] || folded[v])
            continue;
        const std::int64_t c = flowUnits(g[*it].bytesPerSecond);
        addArcPair(flow, index[u], index[v], c, c);
    }
    const std::int64_t value = boost::boykov_kolmogorov_max_flow(
        flow, boost::get(&FlowArc::capacity, flow), boost::get(&FlowArc::residual, flow),
        boost::get(&FlowArc::reverse, flow), boost::get(boost::vertex_index, flow), source, sink);
    return static_cast<double>(value) * 1e3;
}

} // namespace

std::string bisectionText(const FabricMetrics &metrics)
{
    char ratio[32];
    std::snprintf(ratio, sizeof ratio, "%.2f", metrics.bisectionRatio);
    return threeDigits(metrics.bisectionBytesPerSecond * units::bitsPerByte / units::tera)
        + " Tb/s per direction, " + ratio + " of what half the endpoints inject";
}

FabricHardware fabricHardware(const SwitchSpec &sw, const NicSpec &nic, int radix)
{
    FabricHardware hardware;
    hardware.switchName = sw.name;
    hardware.transceiverWatts = nic.opticPowerWatts;
    hardware.transceiverPriceUsd = nic.opticPriceUsd;
    if (radix <= 0)
        return hardware;
    const double scale = static_cast<double>(radix) / sw.ports;
    hardware.switchWatts = sw.powerWatts * scale;
    hardware.switchPriceUsd = sw.priceUsd * scale;
    if (radix != sw.ports)
        hardware.note = "no catalog switch has " + std::to_string(radix)
            + " ports: switch power and price scaled per port from " + sw.id + " ("
            + std::to_string(sw.ports) + " ports)";
    return hardware;
}

FabricMetrics countFabric(const FabricGraph &graph, const FabricHardware &hardware)
{
    const auto &g = graph.storage();
    FabricMetrics m;
    m.topology = graph.topologyName();
    m.description = graph.description;
    for (FabricVertexId v = 0; v < graph.vertexCount(); ++v) {
        const FabricVertex &vertex = g[v];
        if (vertex.isEndpoint())
            ++m.endpoints;
        else if (vertex.role == FabricVertexRole::ScaleUpSwitch)
            ++m.scaleUpSwitches;
        else {
            ++m.switches;
            ++m.switchesPerTier[vertex.tier];
        }
    }
    for (auto [it, end] = boost::edges(g); it != end; ++it) {
        const FabricLink &link = g[*it];
        if (link.linkClass == LinkClass::ScaleUp)
            continue;
        ++m.links;
        ++m.linksPerClass[linkClassName(link.linkClass)];
        if (link.medium == LinkMedium::Optical)
            ++m.opticalCables;
        else
            ++m.copperCables;
    }
    m.transceivers = 2 * m.opticalCables;
    m.switchWatts = m.switches * hardware.switchWatts;
    m.switchCostUsd = m.switches * hardware.switchPriceUsd;
    m.opticsWatts = m.transceivers * hardware.transceiverWatts;
    m.opticsCostUsd = m.transceivers * hardware.transceiverPriceUsd;
    if (!hardware.note.empty())
        m.notes.push_back(hardware.note);
    if (m.switches == 0 && m.endpoints > 0)
        m.notes.push_back("the chips route: their network power is part of their own TDP");
    return m;
}

namespace {

/**
 * What each live endpoint can push into the network (NVLink included, for the max flow) into
 * `endpointCapacity`; sets the mean scale-out injection; returns the live endpoints.
 */
int measureInjection(const FabricGraph &graph, const Liveness &alive, FabricMetrics &m,
                     std::vector<double> &endpointCapacity)
{
    const auto &g = graph.storage();
    const auto &endpoints = graph.endpoints();
    endpointCapacity.assign(endpoints.size(), 0.0);
    double injectionSum = 0;
    int liveEndpoints = 0;
    for (std::size_t i = 0; i < endpoints.size(); ++i) {
        if (!alive.vertex[endpoints[i]])
            continue;
        ++liveEndpoints;
        double scaleOut = 0;
        double all = 0;
        for (auto [it, end] = boost::out_edges(endpoints[i], g); it != end; ++it) {
            if (!alive.link[g[*it].id])
                continue;
            all += g[*it].bytesPerSecond;
            if (g[*it].linkClass != LinkClass::ScaleUp)
                scaleOut += g[*it].bytesPerSecond;
        }
        endpointCapacity[i] = all;
        injectionSum += scaleOut;
    }
    m.injectionBytesPerSecond = liveEndpoints ? injectionSum / liveEndpoints : 0.0;
    return liveEndpoints;
}

/** The endpoints breadth-first searches start from: the symmetry's representatives, every
 * endpoint while that stays cheap, or an even sample (see the header for when it is exact). */
std::vector<FabricVertexId> pathSources(const FabricGraph &graph, const Liveness &alive,
                                        const FabricFailures &failures, FabricMetrics &m)
{
    const auto &endpoints = graph.endpoints();
    std::vector<FabricVertexId> sources;
    const std::size_t work = endpoints.size() * (graph.vertexCount() + graph.linkCount());
    if (!graph.symmetryRepresentatives.empty() && failures.empty()) {
        sources = graph.symmetryRepresentatives;
        m.pathStatisticsExact = true;
        m.pathMethod = "exact: breadth-first search from " + std::to_string(sources.size())
            + " endpoint(s) that represent all by the topology's symmetry";
    } else if (work <= 300'000'000ull) {
        for (FabricVertexId v : endpoints)
            if (alive.vertex[v])
                sources.push_back(v);
        m.pathStatisticsExact = true;
        m.pathMethod = "exact: breadth-first search from every endpoint";
    } else {
        const std::size_t samples = 64;
        for (std::size_t i = 0; i < samples; ++i) {
            const FabricVertexId v = endpoints[i * endpoints.size() / samples];
            if (alive.vertex[v])
                sources.push_back(v);
        }
        m.pathMethod = "sampled: breadth-first search from " + std::to_string(sources.size())
            + " of " + std::to_string(endpoints.size())
            + " evenly spaced endpoints; the diameter is a lower bound";
    }
    m.pathSources = static_cast<int>(sources.size());
    return sources;
}

/** Hops, shortest-path counts, diameter and reachability from `sources`. */
void measurePaths(const FabricGraph &graph, const Liveness &alive,
                  const std::vector<FabricVertexId> &sources, int liveEndpoints, FabricMetrics &m)
{
    PathStatistics stats;
    std::vector<int> dist(graph.vertexCount());
    std::vector<double> sigma(graph.vertexCount());
    std::vector<FabricVertexId> queue;
    queue.reserve(graph.vertexCount());
    for (FabricVertexId s : sources)
        accumulateFrom(graph, alive, s, dist, sigma, queue, stats);
    m.unreachableEndpoints = endpointsOutsideLargestComponent(graph, alive);
    m.connected = liveEndpoints > 0 && m.unreachableEndpoints == 0;
    if (stats.pairs > 0) {
        m.averageHops = stats.hopSum / stats.pairs;
        m.meanShortestPaths = stats.pathCountSum / stats.pairs;
        m.minShortestPaths = stats.minPaths;
    }
    m.diameter = stats.diameter;
    m.switchDiameter = stats.switchDiameter;
    if (!m.connected)
        m.notes.push_back(std::to_string(m.unreachableEndpoints)
                          + " endpoints cannot be reached: the fabric is partitioned");
}

/** The max flow across the topology's natural halving (or the endpoint list's halves). */
void measureBisection(const FabricGraph &graph, const Liveness &alive,
                      const std::vector<double> &endpointCapacity, FabricMetrics &m)
{
    const auto &endpoints = graph.endpoints();
    std::vector<std::uint8_t> half = graph.naturalHalf;
    if (half.size() == endpoints.size()) {
        m.bisectionMethod = "max flow between the two halves of the topology (half the "
                            "pods, groups or the longest torus dimension); a worse cut may "
                            "exist, so this is an upper bound on the minimum bisection";
    } else {
        half.assign(endpoints.size(), 0);
        for (std::size_t i = endpoints.size() / 2; i < endpoints.size(); ++i)
            half[i] = 1;
        m.bisectionMethod = "max flow between the first and second half of the endpoint list; "
                            "the minimum bisection may be lower";
    }
    int sideA = 0;
    int sideB = 0;
    for (std::size_t i = 0; i < endpoints.size(); ++i)
        if (alive.vertex[endpoints[i]])
            ++(half[i] == 0 ? sideA : sideB);
    if (sideA > 0 && sideB > 0) {
        m.bisectionBytesPerSecond = maxFlowBetweenHalves(graph, alive, half, endpointCapacity);
        const double demand = std::min(sideA, sideB) * m.injectionBytesPerSecond;
        m.bisectionRatio = demand > 0 ? m.bisectionBytesPerSecond / demand : 0.0;
    }
}

} // namespace

FabricMetrics analyseFabric(const FabricGraph &graph, const FabricHardware &hardware,
                            const FabricFailures &failures)
{
    const Liveness alive = fabricLiveness(graph, failures);
    FabricMetrics m = countFabric(graph, hardware);
    m.failedSwitches = static_cast<int>(failures.vertices.size());
    m.failedLinks = static_cast<int>(failures.links.size());
    std::vector<double> endpointCapacity;
    const int liveEndpoints = measureInjection(graph, alive, m, endpointCapacity);
    measurePaths(graph, alive, pathSources(graph, alive, failures, m), liveEndpoints, m);
    measureBisection(graph, alive, endpointCapacity, m);
    return m;
}

FabricVertexId findVertex(const FabricGraph &graph, const std::string &label)
{
    for (FabricVertexId v = 0; v < graph.vertexCount(); ++v)
        if (graph.vertex(v).label == label)
            return v;
    throw FabricParameterError("the fabric has no switch or endpoint called \"" + label + "\"");
}

std::size_t findLink(const FabricGraph &graph, const std::string &a, const std::string &b)
{
    return findLinks(graph, a, b).front();
}

std::vector<std::size_t> findLinks(const FabricGraph &graph, const std::string &a,
                                   const std::string &b)
{
    const FabricVertexId u = findVertex(graph, a);
    const FabricVertexId v = findVertex(graph, b);
    const auto &g = graph.storage();
    std::vector<std::size_t> ids;
    for (auto [it, end] = boost::out_edges(u, g); it != end; ++it)
        if (boost::target(*it, g) == v)
            ids.push_back(g[*it].id);
    if (ids.empty())
        throw FabricParameterError("no link joins \"" + a + "\" and \"" + b + "\"");
    std::sort(ids.begin(), ids.end());
    return ids;
}

} // namespace cp::model
