// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "model/fabricgraph.h"

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

/** Builds the torus; throws FabricParameterError naming the parameter at fault. */
FabricGraph generateTorus(const TorusParameters &parameters);

} // namespace cp::model
