// SPDX-License-Identifier: GPL-3.0-or-later
#include "model/fabric/fabricfailure.h"

#include "model/fabric/fabriccollective.h"

#include <boost/graph/connected_components.hpp>
#include <boost/graph/filtered_graph.hpp>

#include <algorithm>
#include <functional>
#include <limits>
#include <map>
#include <optional>
#include <stdexcept>

namespace cp::model {

namespace {

long long checkedMultiply(long long a, long long b)
{
    long long product = 0;
    if (__builtin_mul_overflow(a, b, &product))
        throw FabricParameterError("count overflow: " + std::to_string(a) + " x "
                                   + std::to_string(b));
    return product;
}

/**
 * Connected components of the scale-out network that survives (NVLink links left out: they
 * join a node's own GPUs, not the fabric); failed vertices get no component.
 */
std::vector<std::size_t> scaleOutComponents(const FabricGraph &graph, const FabricLiveness &alive)
{
    const auto &g = graph.storage();
    const auto liveLink = [&](FabricEdge e) {
        return alive.link[g[e].id] && g[e].linkClass != LinkClass::ScaleUp;
    };
    const auto liveVertex = [&](FabricVertexId v) {
        return alive.vertex[v] != 0;
    };
    const boost::filtered_graph<FabricGraphStorage, std::function<bool(FabricEdge)>,
                                std::function<bool(FabricVertexId)>>
        live(g, liveLink, liveVertex);
    std::vector<std::size_t> component(graph.vertexCount(),
                                       std::numeric_limits<std::size_t>::max());
    boost::connected_components(live, component.data());
    return component;
}

/** Whether endpoint `v` keeps a live link into the scale-out network (not NVLink). */
bool reachesFabric(const FabricGraph &graph, const FabricLiveness &alive, FabricVertexId v)
{
    const auto &g = graph.storage();
    if (g[v].role == FabricVertexRole::RoutingEndpoint)
        return true;
    for (auto [it, end] = boost::out_edges(v, g); it != end; ++it)
        if (alive.link[g[*it].id] && g[*it].linkClass != LinkClass::ScaleUp)
            return true;
    return false;
}

/**
 * The component holding a strict majority of the job's live endpoints, or none when the
 * failures split the fabric without one (the job then spans no part: its rings get no rate).
 */
std::optional<std::size_t> majorityComponent(const std::vector<std::size_t> &component,
                                             const std::vector<FabricVertexId> &endpoints)
{
    std::map<std::size_t, long long> endpointsIn;
    for (FabricVertexId v : endpoints)
        if (component[v] != std::numeric_limits<std::size_t>::max())
            ++endpointsIn[component[v]];
    long long live = 0;
    for (const auto &entry : endpointsIn)
        live += entry.second;
    for (const auto &[id, count] : endpointsIn)
        if (2 * count > live)
            return id;
    return std::nullopt;
}

} // namespace

/**
 * A node is cut off when any of its endpoints failed or lost every live link to the scale-out
 * network, or sits on an island apart from the part of the fabric that holds most of the job's
 * endpoints (a leaf whose every uplink failed). NCCL aborts on a NIC it cannot use, so such a
 * node cannot stay in the job, even in a rail fabric where its other NICs still work (PXN
 * rerouting through NVLink to another rail is not modelled); the job restarts without it.
 */
std::vector<char> nodesCutOff(const FabricGraph &graph, const FabricLiveness &alive,
                              int endpointsPerNode, long long jobNodes)
{
    std::vector<FabricVertexId> jobEndpoints;
    for (long long i = 0; i < checkedMultiply(jobNodes, endpointsPerNode); ++i)
        jobEndpoints.push_back(graph.endpoints()[static_cast<std::size_t>(i)]);
    const std::vector<std::size_t> component = scaleOutComponents(graph, alive);
    const std::optional<std::size_t> main = majorityComponent(component, jobEndpoints);
    std::vector<char> cut(static_cast<std::size_t>(jobNodes), 0);
    for (std::size_t i = 0; i < jobEndpoints.size(); ++i) {
        const FabricVertexId v = jobEndpoints[i];
        const bool island = main && component[v] != *main;
        if (!alive.vertex[v] || !reachesFabric(graph, alive, v) || island)
            cut[i / static_cast<std::size_t>(endpointsPerNode)] = 1;
    }
    return cut;
}

namespace {

/** Rank rings (NIC i of `size` consecutive listed nodes) over the listed nodes only. */
std::vector<std::vector<FabricVertexId>> ringsOver(const FabricGraph &graph, int endpointsPerNode,
                                                   const std::vector<long long> &nodes,
                                                   long long size)
{
    std::vector<std::vector<FabricVertexId>> rings;
    const auto count = static_cast<long long>(nodes.size());
    for (long long first = 0; first < count; first += size)
        for (int rank = 0; rank < endpointsPerNode; ++rank) {
            std::vector<FabricVertexId> ring;
            for (long long i = first; i < std::min(count, first + size); ++i)
                ring.push_back(graph.endpoints()[static_cast<std::size_t>(
                    checkedMultiply(nodes[static_cast<std::size_t>(i)], endpointsPerNode) + rank)]);
            rings.push_back(std::move(ring));
        }
    return rings;
}

/** Ring sizes to measure: the requested ones up to the node count, and the node count. */
std::vector<long long> normalisedSizes(std::vector<long long> sizes, long long nodes)
{
    sizes.push_back(nodes);
    std::erase_if(sizes, [&](long long s) { return s < 2 || s > nodes; });
    std::sort(sizes.begin(), sizes.end());
    sizes.erase(std::unique(sizes.begin(), sizes.end()), sizes.end());
    return sizes;
}

/** The rate of each ring size over `nodes` with `failures`; 0 when some flow has no path. */
std::vector<double> ringRates(const FabricGraph &graph, int endpointsPerNode,
                              const std::vector<long long> &nodes,
                              const std::vector<long long> &sizes, const FabricFailures &failures)
{
    if (nodes.size() < 2) // nothing to send
        return std::vector<double>(sizes.size(), std::numeric_limits<double>::infinity());
    // One meter for every size: the live links, attachments and adjacency are the same.
    RingRateMeter meter(graph, failures);
    std::vector<double> rates;
    for (long long size : sizes) {
        const auto rings = ringsOver(graph, endpointsPerNode, nodes, size);
        rates.push_back(meter.rate(rings, 0.0).bytesPerSecondPerFlow);
    }
    return rates;
}

long long jobNodeCount(const FabricGraph &graph, int endpointsPerNode, long long jobNodes)
{
    if (endpointsPerNode < 1)
        throw FabricParameterError("a node needs at least one endpoint");
    const auto built = static_cast<long long>(graph.endpoints().size()) / endpointsPerNode;
    return jobNodes > 0 ? std::min(jobNodes, built) : built;
}

/** The impact of `failures` against rates measured on the intact graph. */
FabricFailureImpact impactAgainst(const FabricGraph &graph, int endpointsPerNode, long long nodes,
                                  const std::vector<long long> &sizes,
                                  const std::vector<double> &intactRates,
                                  const FabricFailures &failures)
{
    FabricFailureImpact impact;
    impact.nodes = nodes;
    const std::vector<char> cut
        = nodesCutOff(graph, fabricLiveness(graph, failures), endpointsPerNode, nodes);
    std::vector<long long> surviving;
    for (long long n = 0; n < nodes; ++n)
        if (!cut[static_cast<std::size_t>(n)])
            surviving.push_back(n);
    impact.nodesCutOff = nodes - static_cast<long long>(surviving.size());
    const std::vector<double> rates
        = ringRates(graph, endpointsPerNode, surviving, sizes, failures);
    for (std::size_t i = 0; i < sizes.size(); ++i) {
        const double fraction = intactRates[i] > 0 ? std::min(1.0, rates[i] / intactRates[i]) : 1.0;
        impact.ringRateFraction.emplace_back(sizes[i], fraction);
    }
    return impact;
}

std::vector<long long> allNodes(long long nodes)
{
    std::vector<long long> list(static_cast<std::size_t>(nodes));
    for (long long n = 0; n < nodes; ++n)
        list[static_cast<std::size_t>(n)] = n;
    return list;
}

} // namespace

FabricFailureImpact measureFabricFailure(const FabricGraph &graph, int endpointsPerNode,
                                         long long jobNodes, const FabricFailures &failures,
                                         std::vector<long long> ringSizes)
{
    const long long nodes = jobNodeCount(graph, endpointsPerNode, jobNodes);
    const std::vector<long long> sizes = normalisedSizes(std::move(ringSizes), nodes);
    const std::vector<double> intact
        = ringRates(graph, endpointsPerNode, allNodes(nodes), sizes, FabricFailures {});
    return impactAgainst(graph, endpointsPerNode, nodes, sizes, intact, failures);
}

std::vector<long long> ringSizesForCluster(const ClusterDescription &cluster)
{
    // A campus's failures are in one building's fabric, whose rings span at most its nodes.
    std::vector<long long> sizes;
    for (long long n = 2; n < cluster.nodesPerBuilding(); n *= 2)
        sizes.push_back(n);
    // The closed form steps after nodesPerLeaf, a measured profile at its own sizes.
    sizes.push_back(cluster.nodesPerLeaf);
    for (const auto &[n, rate] : cluster.fabricRingBytesPerSecond)
        sizes.push_back(n);
    return sizes;
}

ClusterDescription clusterAfterFailure(const ClusterDescription &cluster,
                                       const FabricFailureImpact &impact)
{
    ClusterDescription after = cluster;
    // On a campus the impact is one building's (its fabric is the graph); the job keeps the same
    // nodes in every building, so the stages still fill whole buildings, and the damaged
    // building's rings pace the others' in the synchronous step.
    const int buildingNodes = cluster.nodesPerBuilding();
    const long long lostNodes = checkedMultiply(
        std::min<long long>(impact.nodesCutOff, buildingNodes), std::max(1, cluster.buildings));
    const long long lostGpus = checkedMultiply(lostNodes, cluster.gpusPerNode);
    after.gpus = static_cast<int>(std::max<long long>(0, cluster.gpus - lostGpus));
    if (impact.ringRateFraction.empty())
        return after;
    // scaleOutLink multiplies a measured rate by the achievable fraction; the closed form
    // already includes it, so dividing it out keeps both readings of the base rate equal.
    std::vector<std::pair<int, double>> rates;
    for (const auto &[nodes, fraction] : impact.ringRateFraction) {
        const int span = static_cast<int>(std::min<long long>(nodes, buildingNodes));
        const double base = cluster.scaleOutLink(span).busBytesPerSecond
            / std::max(1e-9, cluster.nicAchievableFraction);
        rates.emplace_back(span, base * fraction);
    }
    after.fabricRingBytesPerSecond = std::move(rates);
    return after;
}

std::vector<FabricVertexId> failureCandidates(const FabricGraph &graph, bool exhaustive)
{
    const auto &g = graph.storage();
    std::vector<FabricVertexId> switches;
    for (FabricVertexId v = 0; v < graph.vertexCount(); ++v)
        if (g[v].role == FabricVertexRole::Switch)
            switches.push_back(v);
    if (exhaustive || switches.size() <= 64)
        return switches;
    // Class key: tier, then the number of links to endpoints (-1) and to each switch tier.
    std::map<std::vector<int>, FabricVertexId> classes;
    for (FabricVertexId v : switches) {
        std::map<int, int> linksTo;
        for (auto [it, end] = boost::out_edges(v, g); it != end; ++it) {
            const FabricVertex &u = g[boost::target(*it, g)];
            ++linksTo[u.isEndpoint() ? -1 : u.tier];
        }
        std::vector<int> key {g[v].tier};
        for (const auto &[tier, count] : linksTo) {
            key.push_back(tier);
            key.push_back(count);
        }
        classes.emplace(std::move(key), v); // keeps the first member in graph order
    }
    std::vector<FabricVertexId> representatives;
    for (const auto &[key, v] : classes)
        representatives.push_back(v);
    std::sort(representatives.begin(), representatives.end());
    return representatives;
}

std::string switchDisplayName(const FabricGraph &graph, FabricVertexId vertex)
{
    const std::string &label = graph.vertex(vertex).label;
    const auto number = [&](const std::string &prefix, std::size_t from) {
        const std::size_t at = label.find(prefix, from);
        if (at == std::string::npos)
            return std::string();
        const std::size_t begin = at + prefix.size();
        std::size_t end = begin;
        while (end < label.size() && label[end] >= '0' && label[end] <= '9')
            ++end;
        return label.substr(begin, end - begin);
    };
    if (label.rfind("leaf-su", 0) == 0)
        return "rail " + number("-rail", 0) + " leaf of scalable unit " + number("leaf-su", 0);
    if (label.rfind("router-g", 0) == 0)
        return "router " + number("-r", 8) + " of group " + number("router-g", 0);
    // A fat-tree's switches by the label prefix its generator gives each tier.
    static const char *const prefixes[] = {"", "leaf-", "spine-", "core-", "super-"};
    for (int tier = 1; tier <= 4; ++tier) {
        const std::string prefix = prefixes[tier];
        if (label.rfind(prefix, 0) == 0)
            return fabricTierName(tier) + " " + label.substr(prefix.size());
    }
    return label;
}

WorstFailure findWorstSingleFailure(const FabricGraph &graph, int endpointsPerNode,
                                    long long jobNodes, const StepSecondsAfterFailure &stepSeconds,
                                    const std::vector<long long> &ringSizes,
                                    const FabricFailures &alreadyFailed)
{
    WorstFailure worst;
    const long long nodes = jobNodeCount(graph, endpointsPerNode, jobNodes);
    const std::vector<long long> sizes = normalisedSizes(ringSizes, nodes);
    const std::vector<double> intactRates
        = ringRates(graph, endpointsPerNode, allNodes(nodes), sizes, FabricFailures {});
    const auto stepOf = [&](const FabricFailures &failures) {
        const FabricFailureImpact impact
            = impactAgainst(graph, endpointsPerNode, nodes, sizes, intactRates, failures);
        const std::optional<double> step = stepSeconds(impact);
        return std::make_pair(step ? *step : std::numeric_limits<double>::infinity(), impact);
    };
    const auto intact = stepOf(alreadyFailed);
    if (intact.first == std::numeric_limits<double>::infinity()) {
        worst.reason = "the job does not run on the fabric as it is";
        return worst;
    }
    worst.intactStepSeconds = intact.first;
    const FabricLiveness alive = fabricLiveness(graph, alreadyFailed);
    for (FabricVertexId v = 0; v < graph.vertexCount(); ++v)
        worst.switches += graph.vertex(v).role == FabricVertexRole::Switch ? 1 : 0;
    for (FabricVertexId v : failureCandidates(graph)) {
        if (!alive.vertex[v])
            continue; // already failed
        FabricFailures failures = alreadyFailed;
        failures.vertices.push_back(v);
        auto [step, impact] = stepOf(failures);
        ++worst.candidatesEvaluated;
        if (!worst.found || step > worst.stepSeconds) {
            worst.found = true;
            worst.vertex = v;
            worst.stepSeconds = step;
            worst.impact = std::move(impact);
        }
    }
    if (!worst.found) {
        worst.reason = graph.topologyName() == "torus" ? "a torus has no switches: the chips route"
                                                       : "the fabric has no switch left to fail";
        return worst;
    }
    worst.switchName = switchDisplayName(graph, worst.vertex);
    worst.switchLabel = graph.vertex(worst.vertex).label;
    return worst;
}

} // namespace cp::model
