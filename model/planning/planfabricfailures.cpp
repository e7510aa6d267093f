// SPDX-License-Identifier: GPL-3.0-or-later
#include "model/planning/planfabricfailures.h"

#include "model/fabric/fabricfailure.h"
#include "model/plan/plan.h"

#include <algorithm>
#include <map>
#include <unordered_map>
#include <utility>

namespace cp::model {

namespace {

/** Label to vertex, built once: findVertex scans every vertex, and a plan may list many. */
std::unordered_map<std::string, FabricVertexId> vertexIndex(const FabricGraph &graph)
{
    std::unordered_map<std::string, FabricVertexId> index;
    index.reserve(graph.vertexCount());
    for (FabricVertexId v = 0; v < graph.vertexCount(); ++v)
        index.emplace(graph.vertex(v).label, v);
    return index;
}

using VertexPair = std::pair<FabricVertexId, FabricVertexId>;

/** The entry's two ends, lower vertex first; throws with `pointer` when either is unknown. */
VertexPair cableEnds(const std::unordered_map<std::string, FabricVertexId> &index,
                     const std::string &entry, const std::string &pointer, const FabricGraph &graph)
{
    const std::size_t colon = entry.find(':');
    const auto end = [&](const std::string &label) {
        const auto it = index.find(label);
        if (it == index.end())
            throw FabricParameterError(pointer + ": " + entry + " is not a cable of this fabric ("
                                       + graph.description + "): it has no \"" + label + "\"");
        return it->second;
    };
    const FabricVertexId a = end(entry.substr(0, colon));
    const FabricVertexId b = end(entry.substr(colon + 1));
    return std::minmax(a, b);
}

/** Ids of the parallel cables joining `ends`, in the order they were added. */
std::vector<std::size_t> cablesBetween(const FabricGraph &graph, VertexPair ends)
{
    const auto &g = graph.storage();
    std::vector<std::size_t> ids;
    for (auto [it, last] = boost::out_edges(ends.first, g); it != last; ++it)
        if (boost::target(*it, g) == ends.second)
            ids.push_back(g[*it].id);
    std::sort(ids.begin(), ids.end());
    return ids;
}

void addFailedSwitches(const Plan &plan, const FabricGraph &graph,
                       const std::unordered_map<std::string, FabricVertexId> &index,
                       FabricFailures &failures)
{
    for (std::size_t i = 0; i < plan.fabric.failedSwitches.size(); ++i) {
        const std::string &label = plan.fabric.failedSwitches[i];
        const auto it = index.find(label);
        if (it == index.end() || graph.vertex(it->second).role != FabricVertexRole::Switch)
            throw FabricParameterError("/fabric/failed_switches/" + std::to_string(i) + ": " + label
                                       + " is not a switch of this fabric (" + graph.description
                                       + ")");
        failures.vertices.push_back(it->second);
    }
}

void addFailedLinks(const Plan &plan, const FabricGraph &graph,
                    const std::unordered_map<std::string, FabricVertexId> &index,
                    FabricFailures &failures)
{
    std::map<VertexPair, std::size_t> taken; // cables of each pair failed so far
    for (std::size_t i = 0; i < plan.fabric.failedLinks.size(); ++i) {
        const std::string &entry = plan.fabric.failedLinks[i];
        const std::string pointer = "/fabric/failed_links/" + std::to_string(i);
        const VertexPair ends = cableEnds(index, entry, pointer, graph);
        const std::vector<std::size_t> cables = cablesBetween(graph, ends);
        std::size_t &count = taken[ends];
        if (cables.empty())
            throw FabricParameterError(pointer + ": no cable joins the two ends of " + entry
                                       + " in this fabric (" + graph.description + ")");
        if (count >= cables.size())
            throw FabricParameterError(
                pointer + ": " + entry + " is listed " + std::to_string(count + 1)
                + " times, but only " + std::to_string(cables.size())
                + (cables.size() == 1 ? " cable joins" : " cables join") + " its ends");
        failures.links.push_back(cables[count++]);
    }
}

} // namespace

FabricFailures planFabricFailures(const Plan &plan, const FabricGraph &graph)
{
    FabricFailures failures;
    if (plan.fabric.failedSwitches.empty() && plan.fabric.failedLinks.empty())
        return failures;
    const auto index = vertexIndex(graph);
    addFailedSwitches(plan, graph, index, failures);
    addFailedLinks(plan, graph, index, failures);
    return failures;
}

std::string vertexDisplayName(const FabricGraph &graph, FabricVertexId vertex)
{
    return graph.vertex(vertex).role == FabricVertexRole::Switch ? switchDisplayName(graph, vertex)
                                                                 : graph.vertex(vertex).label;
}

std::vector<std::string> failedLinkDisplayNames(const Plan &plan, const FabricGraph &graph)
{
    if (plan.fabric.failedLinks.empty())
        return {};
    const auto index = vertexIndex(graph);
    std::map<VertexPair, std::size_t> failedPerPair;
    std::vector<std::pair<VertexPair, std::string>> order; // first mention, as the user wrote it
    for (std::size_t i = 0; i < plan.fabric.failedLinks.size(); ++i) {
        const std::string &entry = plan.fabric.failedLinks[i];
        const VertexPair ends
            = cableEnds(index, entry, "/fabric/failed_links/" + std::to_string(i), graph);
        if (failedPerPair[ends]++ == 0)
            order.emplace_back(ends, entry);
    }
    std::vector<std::string> names;
    for (const auto &[ends, entry] : order) {
        const FabricVertexId first = index.at(entry.substr(0, entry.find(':')));
        const FabricVertexId second = first == ends.first ? ends.second : ends.first;
        const std::size_t cables = cablesBetween(graph, ends).size();
        names.push_back(vertexDisplayName(graph, first) + " – " + vertexDisplayName(graph, second)
                        + ": " + std::to_string(failedPerPair[ends]) + " of "
                        + std::to_string(cables) + (cables == 1 ? " cable" : " cables"));
    }
    return names;
}

} // namespace cp::model
