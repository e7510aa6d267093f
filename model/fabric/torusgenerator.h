// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "model/fabric/fabricgraph.h"

#include <string>
#include <vector>

namespace cp::model {

/**
 * k-ary n-cube with wrap-around (Dally and Towles, Principles and Practices of Interconnection
 * Networks, ch. 5): every chip routes (TPU ICI style) and links to its two neighbours in each
 * dimension. Links inside a block of `cubeEdge` chips per dimension are copper, the others
 * optical, as in TPU v4's 4x4x4 cubes joined by optical circuit switches (Jouppi et al., ISCA
 * 2023).
 */
struct TorusParameters
{
    std::vector<int> dims {4, 4, 4};
    int cubeEdge = 4;
    FabricLinkRates rates;
};

/** "4x4x4" to {4, 4, 4}; throws FabricParameterError for anything else. */
std::vector<int> parseTorusDims(const std::string &text);

/**
 * The most cube-like three-dimensional torus with at least `chips` chips: the smallest product,
 * then the smallest ratio of longest to shortest side (a cube has the shortest diameter for its
 * size, Dally and Towles ch. 5). Sides are 2 or more; 1,024 chips give 8x8x16, 64 give 4x4x4.
 * Throws FabricParameterError above maxFabricEndpoints.
 */
std::vector<int> torusDimsFor(long long chips);

/** "8x8x16". */
std::string torusDimsText(const std::vector<int> &dims);

/** Builds the torus; throws FabricParameterError naming the parameter at fault. */
FabricGraph generateTorus(const TorusParameters &parameters);

} // namespace cp::model
