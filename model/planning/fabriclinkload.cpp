// SPDX-License-Identifier: GPL-3.0-or-later
#include "model/planning/fabriclinkload.h"

#include "model/catalog/catalog.h"
#include "model/fabric/fabriccollective.h"
#include "model/plan/plan.h"
#include "model/planning/planworstfailure.h"
#include "model/training/trainingestimator.h"

#include <algorithm>

namespace cp::model {

FabricLinkLoads fabricLinkLoads(const FabricGraph &graph,
                                const std::vector<std::vector<FabricVertexId>> &rings,
                                const FabricFailures &failures)
{
    FabricLinkLoads loads;
    std::vector<double> arcs;
    const RingRate rate = concurrentRingRate(graph, rings, 0.0, failures, &arcs);
    loads.bytesPerSecondPerFlow = rate.bytesPerSecondPerFlow;
    loads.bottleneckLink = rate.bottleneckLink;
    loads.utilisation.assign(graph.linkCount(), 0.0);
    loads.flows.assign(graph.linkCount(), 0.0);
    const auto &g = graph.storage();
    for (auto [it, end] = boost::edges(g); it != end; ++it) {
        const std::size_t id = g[*it].id;
        const double busier = std::max(arcs[2 * id], arcs[2 * id + 1]);
        loads.flows[id] = busier;
        // Every flow runs at the common rate, so a link carrying w flows uses w x rate of C.
        if (g[*it].bytesPerSecond > 0)
            loads.utilisation[id]
                = std::min(1.0, busier * rate.bytesPerSecondPerFlow / g[*it].bytesPerSecond);
    }
    return loads;
}

FabricLinkLoads planFabricLinkLoads(const Plan &plan, const Catalog &catalog,
                                    const FabricGraph &graph)
{
    const std::optional<PlanTrainingSetup> setup = planTrainingSetup(plan, catalog);
    if (!setup)
        return {};
    const TrainingSearchResult search = TrainingEstimator(setup->job, setup->cluster).search();
    if (!search.found)
        return {};
    const ParallelConfig &c = search.best.config;
    const long long groupGpus = 1LL * c.tp * c.cp * c.dp;
    const int nodes = setup->cluster.nodes();
    const int ringNodes = static_cast<int>(std::clamp<long long>(
        groupGpus / std::max(1, setup->cluster.gpusPerNode), 1, std::max(1, nodes)));
    FabricFailures failures;
    for (const std::string &label : plan.fabric.failedSwitches)
        failures.vertices.push_back(findVertex(graph, label));
    // Members the failures cut off have left the job (fabricfailure.h): the rings close over
    // the rest, as the restarted job's would.
    const FabricLiveness alive = fabricLiveness(graph, failures);
    const auto &g = graph.storage();
    const auto connected = [&](FabricVertexId v) {
        for (auto [it, end] = boost::out_edges(v, g); it != end; ++it)
            if (alive.link[g[*it].id] && g[*it].linkClass != LinkClass::ScaleUp)
                return true;
        return false;
    };
    auto rings = rankRings(graph, setup->nicsPerNode, ringNodes);
    for (auto &ring : rings)
        std::erase_if(ring, [&](FabricVertexId v) { return !connected(v); });
    FabricLinkLoads loads = fabricLinkLoads(graph, rings, failures);
    loads.ringNodes = ringNodes;
    return loads;
}

} // namespace cp::model
