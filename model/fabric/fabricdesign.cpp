// SPDX-License-Identifier: GPL-3.0-or-later
#include "model/fabric/fabricdesign.h"

#include "model/core/humantext.h"

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

std::string extraTiersText(const FabricDesign &design, int tiers, long long switches,
                           long long endpoints)
{
    if (tiers < 2
        || (design.topology != FabricTopology::FatTree
            && design.topology != FabricTopology::RailFatTree))
        return {};
    FabricDesign fewest = design;
    fewest.fatTree.tiers = 0;
    fewest.railFatTree.tiers = 0;
    std::optional<FabricHardwareCount> needed;
    try {
        needed = fabricHardwareCount(fewest);
    } catch (const FabricParameterError &) {
        return {}; // the fabric's own error is reported where it is built
    }
    if (!needed || switches <= needed->switches)
        return {};
    return std::to_string(tiers) + " tiers: " + groupedCount(switches)
        + " switches where the fewest tiers that hold the " + groupedCount(endpoints)
        + " NICs need " + groupedCount(needed->switches)
        + "; the tiers above cost switches and optics and join nothing more (set the tiers to "
          "the fewest unless the fabric must grow)";
}

} // namespace cp::model
