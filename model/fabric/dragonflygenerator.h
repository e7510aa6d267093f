// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "model/fabric/fabricgraph.h"

namespace cp::model {

/**
 * Dragonfly (Kim, Dally, Scott and Abts, ISCA 2008): g groups of a routers, each with p
 * endpoints and h global links; routers of a group are joined all-to-all, groups by global
 * links. Router radix k = p + (a - 1) + h; at most g = a*h + 1 groups. Zero fields are derived:
 * the balanced design a = 2p = 2h with the smallest p whose largest network holds `endpoints`
 * (never above (radix + 1) / 4), else p = (radix + 1) / 4 from the radix alone; then the fewest
 * groups that hold `endpoints` (or the maximum a*h + 1).
 */
struct DragonflyParameters
{
    int p = 0;
    int a = 0;
    int h = 0;
    int groups = 0;
    /** Target: the groups are whole, and their terminal ports beyond it stay free (not built). */
    int endpoints = 0;
    int radix = 0; ///< the routers' port count, if the design must fit one
    FabricLinkRates rates;
};

/** Builds the Dragonfly; throws FabricParameterError naming the parameter at fault. */
FabricGraph generateDragonfly(const DragonflyParameters &parameters);

} // namespace cp::model
