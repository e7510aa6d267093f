// SPDX-License-Identifier: GPL-3.0-or-later
#include "model/cluster/collectivecost.h"

#include <algorithm>
#include <cmath>

namespace cp::model {

namespace {

// The step terms of each algorithm, without the call's fixed launch cost.

double ringAllReduceStepsSeconds(double bytes, int ranks, const LinkLevel &link)
{
    const double n = ranks;
    return 2.0 * (n - 1.0) * link.latencySeconds
        + 2.0 * (n - 1.0) / n * bytes / link.busBytesPerSecond;
}

double treeAllReduceStepsSeconds(double bytes, int ranks, const LinkLevel &link)
{
    return 2.0 * std::log2(static_cast<double>(ranks)) * link.latencySeconds
        + 2.0 * bytes / link.busBytesPerSecond;
}

double allReduceStepsSeconds(double bytes, int ranks, const LinkLevel &link)
{
    if (ranks <= 1 || bytes <= 0)
        return 0.0;
    return std::min(ringAllReduceStepsSeconds(bytes, ranks, link),
                    treeAllReduceStepsSeconds(bytes, ranks, link));
}

double reduceScatterStepsSeconds(double bytes, int ranks, const LinkLevel &link)
{
    if (ranks <= 1 || bytes <= 0)
        return 0.0;
    const double n = ranks;
    return (n - 1.0) * link.latencySeconds + (n - 1.0) / n * bytes / link.busBytesPerSecond;
}

/** One call: nothing when there is nothing to send or no one to send it to, else the call's
 * launch and its algorithm's steps. */
template<typename Steps>
double callSeconds(double bytes, int ranks, const LinkLevel &link, Steps steps)
{
    if (ranks <= 1 || bytes <= 0)
        return 0.0;
    return link.launchSeconds + steps(bytes, ranks, link);
}

} // namespace

double ringAllReduceSeconds(double bytes, int ranks, const LinkLevel &link)
{
    return callSeconds(bytes, ranks, link, ringAllReduceStepsSeconds);
}

double treeAllReduceSeconds(double bytes, int ranks, const LinkLevel &link)
{
    return callSeconds(bytes, ranks, link, treeAllReduceStepsSeconds);
}

double allReduceSeconds(double bytes, int ranks, const LinkLevel &link)
{
    return callSeconds(bytes, ranks, link, allReduceStepsSeconds);
}

double reduceScatterSeconds(double bytes, int ranks, const LinkLevel &link)
{
    return callSeconds(bytes, ranks, link, reduceScatterStepsSeconds);
}

double allGatherSeconds(double bytes, int ranks, const LinkLevel &link)
{
    return reduceScatterSeconds(bytes, ranks, link);
}

double allToAllSeconds(double bytes, int ranks, const LinkLevel &link)
{
    return reduceScatterSeconds(bytes, ranks, link);
}

double hierarchicalAllToAllSeconds(double bytes, int localRanks, int nodes, const LinkLevel &intra,
                                   const LinkLevel &inter)
{
    if (nodes <= 1)
        return allToAllSeconds(bytes, localRanks, intra);
    if (bytes <= 0)
        return 0.0;
    const double ranks = static_cast<double>(localRanks) * nodes;
    const double localPeers = localRanks - 1.0, remotePeers = ranks - localRanks;
    const double intraSeconds
        = localPeers * intra.latencySeconds + localPeers / ranks * bytes / intra.busBytesPerSecond;
    const double interSeconds = remotePeers * inter.latencySeconds
        + remotePeers / ranks * bytes / inter.busBytesPerSecond;
    return std::max(intra.launchSeconds, inter.launchSeconds)
        + std::max(intraSeconds, interSeconds);
}

double deduplicatedDispatchSeconds(double intraBytes, double interBytes, int localRanks, int nodes,
                                   const LinkLevel &intra, const LinkLevel &inter)
{
    if (intraBytes <= 0 && interBytes <= 0)
        return 0.0;
    const double localPeers = localRanks - 1.0;
    const double intraSeconds = localPeers * intra.latencySeconds
        + (intraBytes > 0 ? intraBytes / intra.busBytesPerSecond : 0.0);
    if (nodes <= 1)
        return intra.launchSeconds + intraSeconds;
    const double interSeconds = (nodes - 1.0) * inter.latencySeconds
        + (interBytes > 0 ? interBytes / inter.busBytesPerSecond : 0.0);
    return std::max(intra.launchSeconds, inter.launchSeconds)
        + std::max(intraSeconds, interSeconds);
}

double pointToPointSeconds(double bytes, const LinkLevel &link)
{
    if (bytes <= 0)
        return 0.0;
    return link.launchSeconds + link.latencySeconds + bytes / link.busBytesPerSecond;
}

double hierarchicalAllReduceSeconds(double bytes, int localRanks, int nodes, const LinkLevel &intra,
                                    const LinkLevel &inter)
{
    if (nodes <= 1)
        return allReduceSeconds(bytes, localRanks, intra);
    if (bytes <= 0)
        return 0.0;
    const double perRail = bytes / std::max(1, localRanks);
    return intra.launchSeconds + reduceScatterStepsSeconds(bytes, localRanks, intra)
        + allReduceStepsSeconds(perRail, nodes, inter)
        + reduceScatterStepsSeconds(bytes, localRanks, intra);
}

double campusAllReduceSeconds(double bytes, int localRanks, int nodesPerBuilding, int buildings,
                              const LinkLevel &intra, const LinkLevel &inter,
                              const LinkLevel &interconnect)
{
    const double inBuilding
        = hierarchicalAllReduceSeconds(bytes, localRanks, nodesPerBuilding, intra, inter);
    if (buildings <= 1 || bytes <= 0)
        return inBuilding;
    const double ranksPerBuilding = std::max(1, localRanks) * std::max(1, nodesPerBuilding);
    return inBuilding + allReduceSeconds(bytes / ranksPerBuilding, buildings, interconnect);
}

} // namespace cp::model
