// SPDX-License-Identifier: GPL-3.0-or-later
#include "model/planning/planfabric.h"

#include "model/planning/planfabricfailures.h"

#include "model/catalog/catalog.h"
#include "model/catalog/catalogparser.h"
#include "model/core/humantext.h"
#include "model/core/units.h"
#include "model/fabric/fabricscaleout.h"
#include "model/fabric/torusgenerator.h"
#include "model/plan/plan.h"

#include <algorithm>
#include <cmath>

namespace cp::model {

namespace {

std::string protocolDisplayName(LinkProtocol protocol)
{
    switch (protocol) {
    case LinkProtocol::InfiniBand:
        return "InfiniBand";
    case LinkProtocol::RoCE:
        return "RoCE";
    case LinkProtocol::Ethernet:
        return "Ethernet";
    default:
        return linkProtocolName(protocol);
    }
}

/** Why `sw` cannot carry `nic`'s links: another protocol, or ports slower than the NIC. */
std::string switchMismatchReason(const SwitchSpec &sw, const NicSpec &nic)
{
    const auto gbps = [](double bytesPerSecond) {
        return groupedCount(std::llround(units::bytesPerSecondToGbitPerSecond(bytesPerSecond)))
            + " Gb/s";
    };
    const std::string why = switchSpeaksNicProtocol(sw, nic)
        ? "its ports (" + gbps(sw.portBytesPerSecond) + ") are slower than the NIC's "
            + gbps(nic.bytesPerSecond)
        : (sw.protocol == LinkProtocol::RoCE ? "a " : "an ") + protocolDisplayName(sw.protocol)
            + " switch cannot carry " + protocolDisplayName(nic.protocol) + " links";
    return sw.name + " cannot be the fabric's switch for " + nic.name + ": " + why
        + "; choose a switch of the NIC's protocol and speed, or leave the switch out to take "
          "the catalog's";
}

} // namespace

std::optional<PlanFabric> planFabric(const Plan &plan, const Catalog &catalog)
{
    const auto topology = fabricTopologyFromName(plan.fabric.topology);
    // Only the groups cabled to the fabric are its endpoints.
    const NodeGroup *first = nullptr;
    int nodes = 0;
    for (const NodeGroup &group : plan.nodeGroups)
        if (group.onFabric) {
            if (!first)
                first = &group;
            nodes += group.count;
        }
    if (!topology || !first)
        return std::nullopt;
    PlanFabric f;
    const NodeSpec &node = catalog.node(first->nodeId);
    f.nicId = plan.fabric.nicId.empty() ? node.nicId : plan.fabric.nicId;
    const NicSpec &nic = catalog.nic(f.nicId);
    const int nicsPerNode
        = plan.fabric.nicsPerNode > 0 ? plan.fabric.nicsPerNode : node.nicsPerNode;
    f.switchId = plan.fabric.switchId.empty() ? catalogSwitchForNic(catalog, nic, std::nullopt)
                                              : plan.fabric.switchId;
    f.endpoints = static_cast<long long>(nodes) * std::max(1, nicsPerNode);
    FabricDesign &d = f.design;
    d.topology = *topology;
    if (!f.switchId.empty()) {
        const SwitchSpec &sw = catalog.networkSwitch(f.switchId);
        if (!switchCarriesNic(sw, nic))
            f.switchMismatch = switchMismatchReason(sw, nic);
        d.setLinks(nic, sw, catalog.gpu(node.gpuId).scaleUpBytesPerSecond);
        d.fatTree.radix = sw.ports;
        d.railFatTree.radix = sw.ports;
        d.dragonfly.radix = sw.ports; // routers may not use more ports than the switch has
    }
    d.fatTree.endpoints = static_cast<int>(f.endpoints);
    d.fatTree.tiers = plan.fabric.tiers; // 1: one switch, when the endpoints fit its ports
    d.fatTree.leafOversubscription = plan.fabric.oversubscription;
    // Storage that shares the fabric takes leaf ports the leaves are sized for.
    const long long storagePorts = storagePortsOnFabric(plan, catalog);
    d.fatTree.storagePorts = storagePorts;
    d.railFatTree.storagePorts = storagePorts;
    d.railFatTree.nodes = nodes;
    d.railFatTree.gpusPerNode = std::max(1, nicsPerNode);
    d.railFatTree.nodesPerScalableUnit = plan.fabric.nodesPerScalableUnit;
    d.railFatTree.multiPlane = plan.fabric.multiPlane;
    d.railFatTree.tiers = plan.fabric.tiers; // the generator refuses one tier
    d.railFatTree.leafOversubscription = plan.fabric.oversubscription;
    d.dragonfly.a = plan.fabric.dragonflyA;
    d.dragonfly.p = plan.fabric.dragonflyP;
    d.dragonfly.h = plan.fabric.dragonflyH;
    d.dragonfly.groups = plan.fabric.dragonflyGroups;
    d.dragonfly.endpoints = static_cast<int>(f.endpoints);
    // Without dimensions the torus is sized from the plan: one chip per NIC. Only a torus has
    // them: sizing one for a fat-tree refused a 4.8 M-NIC fat-tree "at most 524288 chips in a
    // torus" instead of with the fat-tree's own limit.
    if (d.topology == FabricTopology::Torus)
        d.torus.dims = plan.fabric.torusDims.empty() ? torusDimsFor(f.endpoints)
                                                     : parseTorusDims(plan.fabric.torusDims);
    return f;
}

FabricGraph generatePlanFabric(const PlanFabric &fabric)
{
    const FabricTopology topology = fabric.design.topology;
    if (!fabric.switchMismatch.empty() && topology != FabricTopology::Torus)
        throw FabricParameterError(fabric.switchMismatch);
    if (fabric.switchId.empty() && topology != FabricTopology::Torus)
        throw FabricParameterError("no catalog switch carries the NIC " + fabric.nicId
                                   + ": choose a switch for this fabric");
    FabricGraph graph = generateFabric(fabric.design);
    const auto built = static_cast<long long>(graph.endpoints().size());
    if (built >= fabric.endpoints)
        return graph;
    const std::string name = topology == FabricTopology::Torus
        ? "the " + torusDimsText(fabric.design.torus.dims) + " torus"
        : topology == FabricTopology::Dragonfly ? std::string("the Dragonfly")
                                                : std::string("the fabric");
    std::string reason = name + " has " + std::to_string(built) + " endpoints, fewer than the "
        + std::to_string(fabric.endpoints) + " NICs of the plan's servers";
    if (topology == FabricTopology::Torus)
        reason += ": a torus needs a chip per NIC, for example "
            + torusDimsText(torusDimsFor(fabric.endpoints));
    else if (topology == FabricTopology::Dragonfly)
        reason += ": raise the groups, routers per group (a) or endpoints per router (p), or"
                  " leave them derived";
    throw FabricParameterError(reason);
}

std::optional<FabricMetrics> analysePlanFabric(const Plan &plan, const Catalog &catalog)
{
    const std::optional<PlanFabric> fabric = planFabric(plan, catalog);
    if (!fabric)
        return std::nullopt;
    const FabricGraph graph = generatePlanFabric(*fabric);
    return analyseFabric(graph, {}, planFabricFailures(plan, graph));
}

std::string planFabricProblem(const Plan &plan, const Catalog &catalog)
{
    try {
        const std::optional<PlanFabric> fabric = planFabric(plan, catalog);
        if (!fabric)
            return {};
        if (!fabric->switchMismatch.empty())
            return fabric->switchMismatch;
        if (fabric->design.topology == FabricTopology::FatTree)
            fabricHardwareCount(fabric->design.fatTree);
        else if (fabric->design.topology == FabricTopology::RailFatTree)
            fabricHardwareCount(fabric->design.railFatTree);
    } catch (const FabricParameterError &error) {
        return error.what();
    }
    return {};
}

int planEndpointsPerNode(const Plan &plan, const PlanFabric &fabric)
{
    // The nodes fabricNodeGroups lists, counted without listing them.
    long long nodes = 0;
    for (const NodeGroup &group : plan.nodeGroups)
        if (group.onFabric)
            nodes += std::max(0, group.count);
    return nodes > 0 ? static_cast<int>(std::max(1LL, fabric.endpoints / nodes)) : 1;
}

std::vector<int> fabricNodeGroups(const Plan &plan)
{
    std::vector<int> groups;
    for (std::size_t i = 0; i < plan.nodeGroups.size(); ++i)
        if (plan.nodeGroups[i].onFabric)
            groups.insert(groups.end(),
                          static_cast<std::size_t>(std::max(0, plan.nodeGroups[i].count)),
                          static_cast<int>(i));
    return groups;
}

std::optional<FabricAttachment> nodeGroupAttachment(const Plan &plan, const Catalog &catalog,
                                                    std::size_t group)
{
    if (group >= plan.nodeGroups.size() || !plan.nodeGroups[group].onFabric)
        return std::nullopt;
    return nodeGroupAttachments(plan, catalog)[group];
}

std::vector<std::optional<FabricAttachment>> nodeGroupAttachments(const Plan &plan,
                                                                  const Catalog &catalog)
{
    std::vector<std::optional<FabricAttachment>> attachments(plan.nodeGroups.size());
    const std::optional<PlanFabric> fabric = planFabric(plan, catalog);
    if (!fabric)
        return attachments;
    const long long perNode = planEndpointsPerNode(plan, *fabric);
    for (std::size_t group = 0; group < plan.nodeGroups.size(); ++group)
        if (plan.nodeGroups[group].onFabric)
            attachments[group] = FabricAttachment {
                std::max(0, plan.nodeGroups[group].count) * perNode, fabric->nicId};
    return attachments;
}

std::optional<FabricAttachment> storageAttachment(const Plan &plan, const Catalog &catalog,
                                                  std::size_t storage)
{
    if (storage >= plan.storage.size() || !plan.storage[storage].onFabric)
        return std::nullopt;
    const StorageSpec &spec = catalog.storage(plan.storage[storage].storageId);
    if (spec.networkPorts <= 0 || spec.nicId.empty())
        return std::nullopt;
    return FabricAttachment {static_cast<long long>(std::max(0, plan.storage[storage].count))
                                 * spec.networkPorts,
                             spec.nicId};
}

int serverStoragePortCount(const Plan &plan, const Catalog &catalog, const NodeSpec &node)
{
    const double bytesPerSecond
        = plan.fabric.storageNetworkBytesPerSecond.value_or(node.storageNetworkBytesPerSecond);
    if (node.storageNicId.empty() || bytesPerSecond <= 0)
        return 0;
    const NicSpec &nic = catalog.nic(node.storageNicId);
    return static_cast<int>(
        std::clamp(std::ceil(bytesPerSecond / nic.bytesPerSecond - 1e-9), 1.0, 64.0));
}

bool serversHaveStorageNetwork(const Plan &plan, const Catalog &catalog)
{
    return std::any_of(plan.nodeGroups.begin(), plan.nodeGroups.end(), [&](const NodeGroup &g) {
        return g.count > 0 && serverStoragePortCount(plan, catalog, catalog.node(g.nodeId)) > 0;
    });
}

long long storagePortsOnFabric(const Plan &plan, const Catalog &catalog)
{
    if (serversHaveStorageNetwork(plan, catalog))
        return 0;
    long long ports = 0;
    for (std::size_t i = 0; i < plan.storage.size(); ++i)
        if (const std::optional<FabricAttachment> links = storageAttachment(plan, catalog, i))
            ports += links->links;
    return ports;
}

} // namespace cp::model
