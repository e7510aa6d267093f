// SPDX-License-Identifier: GPL-3.0-or-later
#include "model/fabric/torusgenerator.h"

#include <algorithm>
#include <sstream>

namespace cp::model {

std::vector<int> parseTorusDims(const std::string &text)
{
    std::vector<int> dims;
    std::stringstream stream(text);
    std::string part;
    while (std::getline(stream, part, 'x')) {
        std::size_t used = 0;
        int k = 0;
        try {
            k = std::stoi(part, &used);
        } catch (const std::exception &) {
            used = 0;
        }
        if (part.empty() || used != part.size())
            throw FabricParameterError("torus dimensions must look like 4x4x4, not \"" + text
                                       + "\"");
        dims.push_back(k);
    }
    if (dims.empty() || text.back() == 'x')
        throw FabricParameterError("torus dimensions must look like 4x4x4, not \"" + text + "\"");
    return dims;
}

std::vector<int> torusDimsFor(long long chips)
{
    if (chips > maxFabricEndpoints)
        throw FabricParameterError("at most " + std::to_string(maxFabricEndpoints)
                                   + " chips in a torus, not " + std::to_string(chips));
    const long long wanted = std::max(8LL, chips); // 2x2x2 is the smallest 3-D torus
    std::vector<int> best;
    long long bestProduct = 0;
    double bestRatio = 0;
    // a <= b <= c with a*b*c >= wanted; a <= cbrt(wanted) + 1 and b <= sqrt(wanted / a) + 1
    // keep the search to a few thousand candidates at the 524,288-chip limit.
    for (long long a = 2; a * a * a <= 2 * wanted; ++a)
        for (long long b = a; a * b * b <= 2 * wanted; ++b) {
            const long long c = std::max(b, (wanted + a * b - 1) / (a * b));
            const long long product = a * b * c;
            const double ratio = static_cast<double>(c) / static_cast<double>(a);
            if (best.empty() || product < bestProduct
                || (product == bestProduct && ratio < bestRatio)) {
                best = {static_cast<int>(a), static_cast<int>(b), static_cast<int>(c)};
                bestProduct = product;
                bestRatio = ratio;
            }
        }
    return best;
}

std::string torusDimsText(const std::vector<int> &dims)
{
    std::string text;
    for (std::size_t d = 0; d < dims.size(); ++d)
        text += (d ? "x" : "") + std::to_string(dims[d]);
    return text;
}

FabricGraph generateTorus(const TorusParameters &p)
{
    if (p.dims.empty() || p.dims.size() > 8)
        throw FabricParameterError("a torus needs 1 to 8 dimensions");
    long long total = 1;
    for (int k : p.dims) {
        if (k < 2 || k > 4096)
            throw FabricParameterError("each torus dimension must be 2 to 4096 chips, not "
                                       + std::to_string(k));
        total *= k;
        if (total > maxFabricEndpoints)
            throw FabricParameterError("at most " + std::to_string(maxFabricEndpoints)
                                       + " chips in a torus (a larger one takes over 10 s to build"
                                         " and analyse)");
    }
    if (p.cubeEdge < 1)
        throw FabricParameterError("the cube edge must be positive");
    const int n = static_cast<int>(p.dims.size());
    const int longest
        = static_cast<int>(std::max_element(p.dims.begin(), p.dims.end()) - p.dims.begin());
    FabricGraph graph("torus");
    std::vector<int> coord(n, 0);
    const std::string dimsText = torusDimsText(p.dims);
    for (long long i = 0; i < total; ++i) {
        long long rest = i;
        std::string label = "chip";
        for (int d = 0; d < n; ++d) {
            coord[d] = static_cast<int>(rest % p.dims[d]);
            rest /= p.dims[d];
            label += "-" + std::to_string(coord[d]);
        }
        FabricVertex chip;
        chip.role = FabricVertexRole::RoutingEndpoint;
        chip.tier = 0;
        chip.label = label;
        graph.addVertex(std::move(chip));
        graph.naturalHalf.push_back(coord[longest] < p.dims[longest] / 2 ? 0 : 1);
    }
    FabricLink link;
    link.linkClass = LinkClass::Fabric;
    link.bytesPerSecond = p.rates.fabricBytesPerSecond;
    link.latencySeconds = p.rates.linkLatencySeconds;
    long long stride = 1;
    for (int d = 0; d < n; ++d) {
        const int k = p.dims[d];
        for (long long i = 0; i < total; ++i) {
            const int c = static_cast<int>((i / stride) % k);
            // A ring of 2 is one link, not two between the same chips.
            if (k == 2 && c == 1)
                continue;
            const int next = (c + 1) % k;
            const long long j = i + (next - c) * stride;
            const bool crossesCube = (c + 1) % p.cubeEdge == 0 || next == 0;
            link.medium = crossesCube && k > p.cubeEdge ? LinkMedium::Optical : LinkMedium::Copper;
            graph.addLink(static_cast<FabricVertexId>(i), static_cast<FabricVertexId>(j), link);
        }
        stride *= k;
    }
    // Translations are automorphisms of a torus, so chip 0 stands for every chip.
    graph.symmetryRepresentatives.push_back(0);
    // Two neighbours a dimension, but one in a ring of 2 (its one link: above).
    int degree = 0;
    for (int k : p.dims)
        degree += k == 2 ? 1 : 2;
    graph.description = dimsText + " torus (" + std::to_string(total) + " chips, degree "
        + std::to_string(degree) + ")";
    return graph;
}

} // namespace cp::model
