// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "model/cluster/clusterdescription.h"
#include "model/fabric/fabriccollective.h"
#include "model/fabric/fabricdesign.h"

#include <optional>
#include <string>

namespace cp::model {

/**
 * The fabric a cluster description implies: a rail-optimised fat-tree with one rail per NIC and
 * as many nodes per scalable unit as a leaf has down ports, or a fat-tree whose endpoints are the
 * NICs (a node's NICs side by side under one leaf), at the cluster's oversubscription; for a
 * campus, one building's (its nodesPerBuilding()).
 */
FabricDesign fabricDesignForCluster(const ClusterDescription &cluster);

/**
 * Replaces the closed-form scale-out share of `cluster` by rates measured on its fabric graph
 * (one building's: fabricDesignForCluster is the fabric of cluster.nodesPerBuilding() nodes):
 * for rings over 1, 2, 4, ... and all nodes, every rank ring (NIC i of consecutive nodes, as
 * Megatron orders data-parallel ranks after tensor-parallel ones) runs at once and the slowest
 * flow sets the rate (fabriccollective.h). Where the closed form is exact
 * (closedFormScaleOutIsExact) it is kept, and a fat-tree or rail fabric is not even built:
 * `hardwareOut` gets its switches and optical cables from the layout (every building's). Returns a
 * sentence for the explanation (a single node keeps the closed form and says so). Throws
 * FabricParameterError, naming the limit, for a fabric the switch radix cannot build: no estimate
 * on a fabric that cannot exist.
 */
std::string measureScaleOutOnFabric(ClusterDescription &cluster,
                                    NodePlacement placement = NodePlacement::Contiguous,
                                    FabricHardwareCount *hardwareOut = nullptr);

/**
 * Names the leaves' oversubscription the generator built in `cluster.fabricName` where it differs
 * from the one asked for (FabricGraph::leafDownPorts): the label said "4:1 oversubscribed" beside
 * the 3.27:1 fabric the step time was measured on.
 */
void nameBuiltOversubscription(ClusterDescription &cluster, const FabricGraph &graph);

/**
 * The same measurement on a fabric graph that already exists (a plan's): one building's, whose
 * endpoints are its cluster.nodesPerBuilding() x NICs-per-node NICs in node order (a campus's
 * other buildings are copies of it).
 */
std::string measureScaleOutOnGraph(ClusterDescription &cluster, const FabricGraph &graph,
                                   NodePlacement placement = NodePlacement::Contiguous,
                                   const std::string &fabricName = "fabric");

/**
 * Whether the closed form (ClusterDescription::scaleOutLink without measured rates) gives what
 * the graph measures, so the measurement can be skipped: fat-trees and rail-optimised fat-trees
 * without oversubscription, where every ring flow gets its whole NIC at any ring size and either
 * placement (tst_fabric compares both on full and partly built fabrics). Dragonflies, tori and
 * oversubscribed fabrics are measured.
 */
bool closedFormScaleOutIsExact(const FabricDesign &design);

class Catalog;

/** Whether `sw` speaks the NIC's protocol (InfiniBand with InfiniBand, Ethernet with RoCE). */
bool switchSpeaksNicProtocol(const SwitchSpec &sw, const NicSpec &nic);
/** ... and has ports at least as fast as the NIC. */
bool switchCarriesNic(const SwitchSpec &sw, const NicSpec &nic);

/**
 * The catalog switch a fabric of `nic` links is built from: one of the same protocol family whose
 * ports are at least as fast, preferring `radix` ports, then the slowest adequate port speed.
 * Empty when none fits.
 */
std::string catalogSwitchForNic(const Catalog &catalog, const NicSpec &nic,
                                std::optional<int> radix);

} // namespace cp::model
