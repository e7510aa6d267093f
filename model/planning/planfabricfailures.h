// SPDX-License-Identifier: GPL-3.0-or-later
// The plan's failure what-if (fabric.failed_switches and fabric.failed_links) on its graph.
#pragma once

#include "model/fabric/fabricanalysis.h"
#include "model/fabric/fabricgraph.h"

#include <string>
#include <vector>

namespace cp::model {

struct Plan;

/**
 * The plan's failed switches and cables on its generated graph. A cable "A:B" listed k times
 * takes out k of the parallel cables joining A and B ("B:A" is the same pair). An unknown label,
 * a label that is not a switch, or more cables than the pair has throws FabricParameterError
 * whose message starts with the entry's JSON pointer ("/fabric/failed_links/2: ...").
 */
FabricFailures planFabricFailures(const Plan &plan, const FabricGraph &graph);

/**
 * The failed cables as a user reads them, one line per switch pair: "rail 2 leaf of scalable
 * unit 0 – spine 5: 1 of 2 cables". Call after planFabricFailures accepted the plan.
 */
std::vector<std::string> failedLinkDisplayNames(const Plan &plan, const FabricGraph &graph);

/** A vertex's display name: a switch's (switchDisplayName), otherwise its label. */
std::string vertexDisplayName(const FabricGraph &graph, FabricVertexId vertex);

} // namespace cp::model
