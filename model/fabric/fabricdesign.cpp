// SPDX-License-Identifier: GPL-3.0-or-later
#include "model/fabric/fabricdesign.h"

#include "model/catalog/catalogitems.h"

namespace cp::model {

std::string fabricTopologyName(FabricTopology topology)
{
    switch (topology) {
    case FabricTopology::FatTree:
        return "fat-tree";
    case FabricTopology::RailFatTree:
        return "rail-fat-tree";
    case FabricTopology::Dragonfly:
        return "dragonfly";
    case FabricTopology::Torus:
        return "torus";
    }
    return "?";
}

std::string fabricTopologyTitle(FabricTopology topology)
{
    switch (topology) {
    case FabricTopology::FatTree:
        return "fat-tree";
    case FabricTopology::RailFatTree:
        return "rail-optimised fat-tree";
    case FabricTopology::Dragonfly:
        return "Dragonfly";
    case FabricTopology::Torus:
        return "torus";
    }
    return "?";
}

std::string fabricTopologyTitle(const std::string &name)
{
    const std::optional<FabricTopology> topology = fabricTopologyFromName(name);
    return topology ? fabricTopologyTitle(*topology) : name;
}

std::optional<FabricTopology> fabricTopologyFromName(const std::string &name)
{
    for (FabricTopology t : {FabricTopology::FatTree, FabricTopology::RailFatTree,
                             FabricTopology::Dragonfly, FabricTopology::Torus})
        if (fabricTopologyName(t) == name)
            return t;
    return std::nullopt;
}

void FabricDesign::setLinks(const NicSpec &nic, const SwitchSpec &sw, double scaleUpBytesPerSecond)
{
    FabricLinkRates rates;
    rates.accessBytesPerSecond = nic.bytesPerSecond;
    // A switch-to-switch link runs at the slower of the two ends' rates.
    rates.fabricBytesPerSecond = std::min(nic.bytesPerSecond, sw.portBytesPerSecond);
    rates.scaleUpBytesPerSecond = scaleUpBytesPerSecond;
    // NICs without a transceiver (RJ45, DAC-only parts) are cabled in copper.
    rates.accessMedium = nic.opticPowerWatts > 0 ? LinkMedium::Optical : LinkMedium::Copper;
    fatTree.rates = rates;
    railFatTree.rates = rates;
    dragonfly.rates = rates;
    torus.rates = rates;
}

int FabricDesign::endpointsPerNode() const
{
    return topology == FabricTopology::RailFatTree ? railFatTree.gpusPerNode : 1;
}

FabricGraph generateFabric(const FabricDesign &design)
{
    switch (design.topology) {
    case FabricTopology::FatTree:
        return generateFatTree(design.fatTree);
    case FabricTopology::RailFatTree:
        return generateRailFatTree(design.railFatTree);
    case FabricTopology::Dragonfly:
        return generateDragonfly(design.dragonfly);
    case FabricTopology::Torus:
        return generateTorus(design.torus);
    }
    throw FabricParameterError("unknown topology");
}

FabricHardwareCount hardwareCountOf(const FabricGraph &graph)
{
    FabricHardwareCount count;
    for (FabricVertexId v = 0; v < graph.vertexCount(); ++v)
        if (graph.vertex(v).role == FabricVertexRole::Switch)
            ++count.switches;
    const auto &g = graph.storage();
    for (auto [it, end] = boost::edges(g); it != end; ++it)
        if (g[*it].medium == LinkMedium::Optical)
            ++count.opticalLinks;
    return count;
}

std::optional<FabricHardwareCount> fabricHardwareCount(const FabricDesign &design)
{
    switch (design.topology) {
    case FabricTopology::FatTree:
        return fabricHardwareCount(design.fatTree);
    case FabricTopology::RailFatTree:
        return fabricHardwareCount(design.railFatTree);
    case FabricTopology::Dragonfly:
    case FabricTopology::Torus:
        return std::nullopt;
    }
    return std::nullopt;
}

} // namespace cp::model
