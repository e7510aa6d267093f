// SPDX-License-Identifier: GPL-3.0-or-later
#include "model/cluster/collectivecost.h"

#include <algorithm>
#include <cmath>

namespace cp::model {

double ringAllReduceSeconds(double bytes, int ranks, const LinkLevel &link)
{
    if (ranks <= 1 || bytes <= 0)
        return 0.0;
    const double n = ranks;
    return 2.0 * (n - 1.0) * link.latencySeconds
        + 2.0 * (n - 1.0) / n * bytes / link.busBytesPerSecond;
}

double treeAllReduceSeconds(double bytes, int ranks, const LinkLevel &link)
{
    if (ranks <= 1 || bytes <= 0)
        return 0.0;
    return 2.0 * std::log2(static_cast<double>(ranks)) * link.latencySeconds
        + 2.0 * bytes / link.busBytesPerSecond;
}

double allReduceSeconds(double bytes, int ranks, const LinkLevel &link)
{
    return std::min(ringAllReduceSeconds(bytes, ranks, link),
                    treeAllReduceSeconds(bytes, ranks, link));
}

double reduceScatterSeconds(double bytes, int ranks, const LinkLevel &link)
{
    if (ranks <= 1 || bytes <= 0)
        return 0.0;
    const double n = ranks;
    return (n - 1.0) * link.latencySeconds + (n - 1.0) / n * bytes / link.busBytesPerSecond;
}

double allGatherSeconds(double bytes, int ranks, const LinkLevel &link)
{
    return reduceScatterSeconds(bytes, ranks, link);
}

double allToAllSeconds(double bytes, int ranks, const LinkLevel &link)
{
    return reduceScatterSeconds(bytes, ranks, link);
}

double pointToPointSeconds(double bytes, const LinkLevel &link)
{
    if (bytes <= 0)
        return 0.0;
    return link.latencySeconds + bytes / link.busBytesPerSecond;
}

double hierarchicalAllReduceSeconds(double bytes, int localRanks, int nodes, const LinkLevel &intra,
                                    const LinkLevel &inter)
{
    if (nodes <= 1)
        return allReduceSeconds(bytes, localRanks, intra);
    const double perRail = bytes / std::max(1, localRanks);
    return reduceScatterSeconds(bytes, localRanks, intra) + allReduceSeconds(perRail, nodes, inter)
        + allGatherSeconds(bytes, localRanks, intra);
}

} // namespace cp::model
