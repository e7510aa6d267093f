// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "model/fabric/fabricanalysis.h"
#include "model/fabric/fabricdesign.h"
#include "model/fabric/fabricgraph.h"

#include <optional>
#include <string>
#include <vector>

namespace cp::model {

class Catalog;
struct NodeSpec;
struct Plan;

/** The fabric a plan describes, ready for generateFabric: endpoints are the plan's NICs. */
struct PlanFabric
{
    FabricDesign design;
    std::string nicId;
    std::string switchId; ///< empty when no catalog switch fits the NIC
    long long endpoints = 0;
    /** Leaf ports the generated fabric keeps free for storage that shares it: the design's
     * storage ports where its generator sizes leaves for them (a fat-tree, a rail fat-tree of
     * shared spines), else 0 (the data hall then finds what ports it can). */
    long long storagePortsOnLeaves() const
    {
        if (design.topology == FabricTopology::FatTree)
            return design.fatTree.storagePorts;
        if (design.topology == FabricTopology::RailFatTree && !design.railFatTree.multiPlane)
            return design.railFatTree.storagePorts;
        return 0;
    }
    /** Why the plan's switch cannot carry its NIC's links (an InfiniBand switch for RoCE NICs,
     * ports slower than the NIC); empty when it can. generatePlanFabric refuses it. */
    std::string switchMismatch;
};

/**
 * From the plan's fabric settings and the node groups on the fabric (NodeGroup::onFabric): NIC
 * (the plan's or the first such node type's),
 * NICs per node, switch (the plan's or the catalog one for the NIC), radix, tiers (0 = fewest),
 * oversubscription, Dragonfly and torus parameters. Empty for topology "none" or when no group is
 * on the fabric.
 */
std::optional<PlanFabric> planFabric(const Plan &plan, const Catalog &catalog);

/**
 * generateFabric(fabric.design), refused when the result cannot carry the plan: a fabric with
 * fewer endpoints (torus chips, Dragonfly terminals) than the plan's NICs, or a switched fabric
 * with no switch in the catalog for the NIC. Throws FabricParameterError with the reason and a
 * size that would work, so that no caller counts an unbuildable fabric as zero switches.
 */
FabricGraph generatePlanFabric(const PlanFabric &fabric);

/**
 * analyseFabric of the plan's generated fabric with the switches and links the plan marks
 * failed taken out: hop counts and the bisection, which the estimate's counts leave out (a max
 * flow: about a second at the fabric size limit, so for reports, not every edit). Empty when the
 * plan has no fabric; throws FabricParameterError when it cannot be built.
 */
std::optional<FabricMetrics> analysePlanFabric(const Plan &plan, const Catalog &catalog);

/**
 * Why the plan's fabric cannot be built, found from a fat-tree's or rail fabric's layout without
 * generating it (fabricHardwareCount): 8,192 GPUs on two fixed tiers, a switch that cannot carry
 * the NIC. Empty when it can, when there is no fabric, and for Dragonfly and torus designs, whose
 * limits the estimate checks as it builds them.
 */
std::string planFabricProblem(const Plan &plan, const Catalog &catalog);

/**
 * The plan's node-group index (into Plan::nodeGroups) of each node on the fabric, in the order
 * the generated fabric lists them: the groups cabled to it, in plan order, each its count of
 * nodes (planFabric counts its endpoints the same way). Node n owns the endpoints
 * n x endpointsPerNode to (n + 1) x endpointsPerNode - 1 of FabricGraph::endpoints().
 */
std::vector<int> fabricNodeGroups(const Plan &plan);

/**
 * The endpoints each node on the fabric owns: the plan's NICs per node (PlanFabric::endpoints
 * over the nodes cabled to it). FabricDesign::endpointsPerNode is 1 for every topology but the
 * rail fat-tree, whose generator knows nodes; the others list a node's NICs side by side.
 */
int planEndpointsPerNode(const Plan &plan, const PlanFabric &fabric);

/** The links one card of the plan brings to its network: how many ports, and their NIC. */
struct FabricAttachment
{
    long long links = 0;
    std::string nicId;
};

/**
 * The fabric links of node group `group` (an index into Plan::nodeGroups): its nodes times the
 * fabric's NICs per node, on the fabric's NIC, as planFabric counts them for the whole fabric.
 * Empty when the group is not cabled to the fabric or the plan has none.
 */
std::optional<FabricAttachment> nodeGroupAttachment(const Plan &plan, const Catalog &catalog,
                                                    std::size_t group);
/** nodeGroupAttachment of every node group, in Plan::nodeGroups order, the fabric sized once:
 * what the canvas labels all its cables with on each redraw. */
std::vector<std::optional<FabricAttachment>> nodeGroupAttachments(const Plan &plan,
                                                                  const Catalog &catalog);

/**
 * The network links of storage entry `storage` (an index into Plan::storage): its systems times
 * each system's front-end ports, on the storage's own NIC (StorageSpec::networkPorts, nicId).
 * Empty when it is not cabled or its catalog entry does not say its ports.
 */
std::optional<FabricAttachment> storageAttachment(const Plan &plan, const Catalog &catalog,
                                                  std::size_t storage);

/** The storage-network ports one server of `node` has in `plan`: the storage rate (the plan's
 * fabric.storage_network_gb_per_s, or the node's) over its storage NIC's rate, rounded up, 1 to
 * 64; 0 without a storage NIC or rate. */
int serverStoragePortCount(const Plan &plan, const Catalog &catalog, const NodeSpec &node);

/** Whether the plan's servers have a storage network of their own: a group whose node has
 * storage ports (serverStoragePortCount). Without one the storage shares the compute fabric, on
 * its leaves (datahall.h). */
bool serversHaveStorageNetwork(const Plan &plan, const Catalog &catalog);

/** The storage ports the compute fabric's leaves must hold: those of every storage entry on the
 * fabric (storageAttachment) when the servers have no storage network of their own, else 0. */
long long storagePortsOnFabric(const Plan &plan, const Catalog &catalog);

} // namespace cp::model
