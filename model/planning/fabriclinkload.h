// SPDX-License-Identifier: GPL-3.0-or-later
// How hard a training layout drives each link: the heat map of the Fabric view.
#pragma once

#include "model/fabric/fabricanalysis.h"
#include "model/fabric/fabricgraph.h"

#include <string>
#include <vector>

namespace cp::model {

class Catalog;
struct Plan;

/** Per link (by id) what the rings put on it, in its busier direction. */
struct FabricLinkLoads
{
    /**
     * Share of the link's capacity the rings use while they all run at their common rate (the
     * slowest flow's, fabriccollective.h): 1 on the bottleneck link, 0 on an idle one.
     */
    std::vector<double> utilisation;
    /** ECMP-weighted flows in the busier direction (2 where two flows share one uplink). */
    std::vector<double> flows;
    double bytesPerSecondPerFlow = 0; ///< the rings' common rate; 0 when a member is unreachable
    std::string bottleneckLink;
    int ringNodes = 0; ///< nodes per ring the loads were measured for
};

/** concurrentRingRate's per-link loads for `rings` with `failures` removed. */
FabricLinkLoads fabricLinkLoads(const FabricGraph &graph,
                                const std::vector<std::vector<FabricVertexId>> &rings,
                                const FabricFailures &failures = {});

/**
 * The loads of the plan's training layout on its generated fabric: every data-parallel rank ring
 * at once (NIC i of the tp x cp x dp / GPUs-per-node consecutive nodes a data-parallel group
 * spans, Megatron's rank order), on the fabric without the plan's failed switches. Empty
 * utilisation when the plan has no training layout or no fabric.
 */
FabricLinkLoads planFabricLinkLoads(const Plan &plan, const Catalog &catalog,
                                    const FabricGraph &graph);

} // namespace cp::model
