// SPDX-License-Identifier: GPL-3.0-or-later
#include "model/fabric/fabricscaleout.h"

#include "model/catalog/catalog.h"
#include "model/core/parallelrun.h"
#include "model/fabric/fabriccollective.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace cp::model {

FabricDesign fabricDesignForCluster(const ClusterDescription &cluster)
{
    FabricDesign design;
    const int nics = std::max(1, cluster.nicsPerNode);
    FabricLinkRates rates;
    rates.accessBytesPerSecond = cluster.nicBytesPerSecond;
    rates.fabricBytesPerSecond = cluster.nicBytesPerSecond;
    if (cluster.railOptimised) {
        design.topology = FabricTopology::RailFatTree;
        auto &p = design.railFatTree;
        p.nodes = cluster.nodesPerBuilding();
        p.gpusPerNode = nics;
        p.radix = cluster.switchPorts;
        p.leafOversubscription = cluster.oversubscription;
        p.multiPlane = cluster.multiPlane;
        p.rates = rates;
        p.nodesPerScalableUnit = railNodesPerLeafWithFewestSwitches(p);
    } else {
        design.topology = FabricTopology::FatTree;
        auto &p = design.fatTree;
        p.endpoints = cluster.nodesPerBuilding() * nics;
        p.radix = cluster.switchPorts;
        p.leafOversubscription = cluster.oversubscription;
        p.rates = rates;
    }
    return design;
}

bool closedFormScaleOutIsExact(const FabricDesign &design)
{
    switch (design.topology) {
    case FabricTopology::FatTree:
        return design.fatTree.leafOversubscription <= 1.0
            && design.fatTree.spineOversubscription <= 1.0;
    case FabricTopology::RailFatTree:
        return design.railFatTree.leafOversubscription <= 1.0
            && design.railFatTree.spineOversubscription <= 1.0;
    case FabricTopology::Dragonfly:
    case FabricTopology::Torus:
        return false;
    }
    return false;
}

namespace {

/** The leaves' down:up ports as the generator built them (0 without uplinks). */
double builtLeafRatio(const FabricGraph &graph)
{
    return graph.leafUpPorts > 0
        ? static_cast<double>(graph.leafDownPorts) / static_cast<double>(graph.leafUpPorts)
        : 0.0;
}

} // namespace

std::string measureScaleOutOnGraph(ClusterDescription &cluster, const FabricGraph &graph,
                                   NodePlacement placement, const std::string &fabricName)
{
    // The graph is one building's; a campus's other buildings are copies of it.
    const int nodes = cluster.nodesPerBuilding();
    if (nodes < 2)
        return "one node: no scale-out traffic";
    const int nics = std::max(1, cluster.nicsPerNode);
    if (graph.endpoints().size() != static_cast<std::size_t>(nodes) * nics)
        return "scale-out closed form: the fabric graph's endpoints are not the cluster's "
               "nodes' NICs";
    // What crosses a leaf's uplinks all at once (pipeline sends, all-to-alls) is slowed by the
    // leaves as built, each serving the nodes its down ports reach.
    if (graph.leafUpPorts > 0 && cluster.oversubscription > 1.0) {
        cluster.builtOversubscription = builtLeafRatio(graph);
        cluster.nodesPerLeaf
            = cluster.railOptimised ? graph.leafDownPorts : std::max(1, graph.leafDownPorts / nics);
    }
    std::vector<int> sizes;
    for (int n = 2; n < nodes; n *= 2)
        sizes.push_back(n);
    sizes.push_back(nodes);
    // Every ring size is measured on its own, so the sizes are shared out over the hardware
    // threads, each with a meter of its own over the one prepared fabric; each size's rate is
    // the same whichever thread measures it.
    std::vector<RingRate> rates(sizes.size());
    const std::size_t workers = parallelWorkers(sizes.size());
    // Rank 0's rings alone tell every rank's loads on identical planes (rank r's rings stay on
    // plane r, a copy of plane 0) and on interchangeable rails (fabricgraph.h); rankRings lists
    // each block's ranks in turn.
    const bool identicalPlanes = graph.identicalPlanes > 1 && graph.identicalPlanes == nics;
    const bool swappableRails
        = graph.interchangeableRails > 1 && graph.interchangeableRails == nics;
    const int onlyRank = identicalPlanes || swappableRails ? 0 : -1;
    const std::shared_ptr<const RingRateMeter::Fabric> prepared = RingRateMeter::prepare(graph);
    runInParallel(workers, [&](std::size_t worker) {
        RingRateMeter meter(prepared);
        for (std::size_t i = worker; i < sizes.size(); i += workers) {
            const auto rings = rankRings(graph, nics, sizes[i], placement, onlyRank);
            rates[i] = swappableRails ? meter.rateOfInterchangeableRails(rings, nics, 0.0)
                                      : meter.rate(rings, 0.0);
        }
    });
    cluster.fabricRingBytesPerSecond.clear();
    std::string bottleneck;
    for (std::size_t i = 0; i < sizes.size(); ++i) {
        const RingRate &rate = rates[i];
        const double perGpu = rate.bytesPerSecondPerFlow * nics / std::max(1, cluster.gpusPerNode);
        cluster.fabricRingBytesPerSecond.emplace_back(sizes[i], perGpu);
        // Name the bottleneck of the largest rings when they run below the NIC rate.
        bottleneck = rate.bytesPerSecondPerFlow < 0.999 * cluster.nicBytesPerSecond
            ? rate.bottleneckLink
            : std::string();
    }
    char text[256];
    std::snprintf(text, sizeof text,
                  "scale-out measured on the %s graph, %s placement: rings over all %d nodes get "
                  "%.0f%% of the NIC rate%s%s",
                  fabricName.c_str(),
                  placement == NodePlacement::Scattered ? "scattered" : "contiguous", nodes,
                  100.0 * cluster.fabricRingBytesPerSecond.back().second
                      * std::max(1, cluster.gpusPerNode) / nics / cluster.nicBytesPerSecond,
                  bottleneck.empty() ? "" : "; bottleneck ", bottleneck.c_str());
    return text;
}

void nameBuiltOversubscription(ClusterDescription &cluster, const FabricGraph &graph)
{
    if (graph.leafUpPorts <= 0 || cluster.oversubscription <= 1.0)
        return;
    const double built = builtLeafRatio(graph);
    if (std::abs(built / cluster.oversubscription - 1.0) < 0.005)
        return;
    char ratio[32];
    std::snprintf(ratio, sizeof ratio, "%.3g:1", built);
    char asked[128];
    std::snprintf(asked, sizeof asked,
                  " (%g:1 at most, as asked: %d ports down and %d up a leaf take the fewest "
                  "switches)",
                  cluster.oversubscription, graph.leafDownPorts, graph.leafUpPorts);
    cluster.fabricName = fabricNameOf(ratio, cluster.nicName, cluster.railOptimised) + asked;
}

std::string measureScaleOutOnFabric(ClusterDescription &cluster, NodePlacement placement,
                                    FabricHardwareCount *hardwareOut)
{
    // One building's fabric, measured once: a campus's other buildings are copies of it.
    const std::string campus = cluster.buildings > 1
        ? "each of " + std::to_string(cluster.buildings)
            + " identical buildings (one measured, exact for all): "
        : std::string();
    if (cluster.nodesPerBuilding() < 2)
        return campus + "one node: no scale-out traffic";
    const FabricDesign design = fabricDesignForCluster(cluster);
    if (closedFormScaleOutIsExact(design)) {
        // Counted from the layout, which checks what the generator checks (the same errors);
        // the closed form is exact only for fat-trees and rail fabrics, which it counts.
        const FabricHardwareCount count = *fabricHardwareCount(design);
        if (hardwareOut)
            *hardwareOut = count.times(cluster.buildings);
        cluster.fabricRingBytesPerSecond.clear();
        return campus + "scale-out on the non-blocking " + fabricTopologyName(design.topology)
            + ": every ring gets its whole NIC at any size and placement (the closed form, "
              "equal to the graph's measurement there)";
    }
    const FabricGraph graph = generateFabric(design);
    if (hardwareOut)
        *hardwareOut = hardwareCountOf(graph).times(cluster.buildings);
    nameBuiltOversubscription(cluster, graph);
    return campus
        + measureScaleOutOnGraph(cluster, graph, placement, fabricTopologyName(design.topology));
}

bool switchSpeaksNicProtocol(const SwitchSpec &sw, const NicSpec &nic)
{
    // RoCE is RDMA over Ethernet: any Ethernet switch carries it (IBTA RoCEv2 annex A17).
    const auto ethernetFamily = [](LinkProtocol p) {
        return p == LinkProtocol::Ethernet || p == LinkProtocol::RoCE;
    };
    return sw.protocol == nic.protocol
        || (ethernetFamily(sw.protocol) && ethernetFamily(nic.protocol));
}

bool switchCarriesNic(const SwitchSpec &sw, const NicSpec &nic)
{
    return switchSpeaksNicProtocol(sw, nic) && sw.portBytesPerSecond + 1 >= nic.bytesPerSecond;
}

std::string catalogSwitchForNic(const Catalog &catalog, const NicSpec &nic,
                                std::optional<int> radix)
{
    const SwitchSpec *best = nullptr;
    for (const std::string &id : catalog.ids(CatalogKind::Switch)) {
        const SwitchSpec &sw = catalog.networkSwitch(id);
        if (!switchCarriesNic(sw, nic))
            continue;
        const auto preferred = [&](const SwitchSpec *s) {
            return radix && s->ports == *radix;
        };
        if (!best || (preferred(&sw) && !preferred(best))
            || (preferred(&sw) == preferred(best)
                && sw.portBytesPerSecond < best->portBytesPerSecond))
            best = &sw;
    }
    return best ? best->id : std::string();
}

} // namespace cp::model
