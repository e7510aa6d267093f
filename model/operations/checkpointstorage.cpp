// SPDX-License-Identifier: GPL-3.0-or-later
#include "model/operations/checkpointstorage.h"

#include "model/core/humantext.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>

namespace cp::model {

namespace {

/** The run's reliability with `systems` storage systems striped together. */
ReliabilityEstimate reliabilityWith(const CheckpointStorageInputs &in, long long systems)
{
    ReliabilityInputs scaled = in.reliability;
    const double count = static_cast<double>(systems);
    scaled.storageWriteBytesPerSecond
        = std::min(count * in.systemWriteBytesPerSecond, in.clientPathBytesPerSecond);
    scaled.storageReadBytesPerSecond
        = std::min(count * in.systemReadBytesPerSecond, in.clientPathBytesPerSecond);
    return estimateReliability(scaled);
}

/** Dollars per second of useful work with `systems` storage systems. */
double usdPerUsefulSecond(const CheckpointStorageInputs &in, long long systems)
{
    const double goodput = reliabilityWith(in, systems).goodput;
    if (!(goodput > 0))
        return std::numeric_limits<double>::infinity();
    const double added = static_cast<double>(systems - in.systems) * in.systemUsdPerSecond;
    return (in.clusterUsdPerSecond + added) / goodput;
}

/** The most systems worth trying: past the count whose writes fill the nodes' paths to storage,
 * another system writes no faster (and restores, capped the same way, no faster either). */
long long largestUsefulCount(const CheckpointStorageInputs &in)
{
    // A bound that keeps the search's counts and their products with rates far from overflow.
    constexpr long long countCap = 1'000'000'000;
    const double slowest = std::min(in.systemWriteBytesPerSecond,
                                    in.systemReadBytesPerSecond > 0 ? in.systemReadBytesPerSecond
                                                                    : in.systemWriteBytesPerSecond);
    const double filling = std::ceil(in.clientPathBytesPerSecond / slowest);
    if (!(filling < static_cast<double>(countCap)))
        return countCap;
    return std::max<long long>(1, static_cast<long long>(filling));
}

} // namespace

namespace {
/** A share as people read it: one decimal, two below 1% ("4.3%", "0.26%"). */
std::string shareText(double fraction)
{
    return percentText(fraction, fraction < 0.01 ? 2 : 1);
}
} // namespace

std::string checkpointStorageText(const CheckpointStorageSizing &sizing)
{
    if (sizing.systems <= 0)
        return {};
    const std::string share = "checkpoints stop training "
        + shareText(sizing.checkpointWallFractionNow) + " of the wall time";
    if (sizing.storageLimitsGoodput())
        return share + ": storage write bandwidth limits the goodput; "
            + groupedCount(sizing.systems)
            + " systems, the lowest cost per useful hour, would make that "
            + shareText(sizing.checkpointWallFractionSized) + " and the goodput "
            + shareText(sizing.goodput);
    if (sizing.fewerWouldDo())
        return share + "; " + groupedCount(sizing.systems) + " of the "
            + groupedCount(sizing.systemsNow)
            + " storage systems would write them at the lowest cost per useful hour ("
            + shareText(sizing.checkpointWallFractionSized) + ", goodput "
            + shareText(sizing.goodput) + ")";
    return share + "; more storage would cost more than the GPU time it saves";
}

double checkpointWallFraction(const ReliabilityEstimate &r)
{
    if (!r.checkpointsWritable || !(r.checkpointIntervalSeconds > 0))
        return 0.0;
    return r.goodput * r.checkpointBlockedSeconds / r.checkpointIntervalSeconds;
}

CheckpointStorageSizing sizeCheckpointStorage(const CheckpointStorageInputs &in)
{
    CheckpointStorageSizing sizing;
    const ReliabilityEstimate now = estimateReliability(in.reliability);
    if (!now.checkpointsWritable || in.systems < 1 || !(in.systemWriteBytesPerSecond > 0)
        || !(in.clientPathBytesPerSecond > 0) || !(in.systemUsdPerSecond > 0)
        || !(in.clusterUsdPerSecond > 0))
        return sizing;
    // (cluster + added systems) / goodput has one minimum over the counts (the header says why):
    // a ternary search narrows it to three counts, which are compared directly.
    long long low = std::max(1LL, in.fewestSystems);
    long long high = std::max(low, largestUsefulCount(in));
    while (high - low > 2) {
        const long long third = (high - low) / 3;
        const long long left = low + third;
        const long long right = high - third;
        if (usdPerUsefulSecond(in, left) < usdPerUsefulSecond(in, right))
            high = right - 1;
        else
            low = left + 1;
    }
    long long best = low;
    for (long long count = low + 1; count <= high; ++count)
        if (usdPerUsefulSecond(in, count) < usdPerUsefulSecond(in, best))
            best = count;
    const ReliabilityEstimate sized = reliabilityWith(in, best);
    sizing.systems = best;
    sizing.systemsNow = in.systems;
    sizing.goodputNow = now.goodput;
    sizing.goodput = sized.goodput;
    sizing.checkpointWallFractionNow = checkpointWallFraction(now);
    sizing.checkpointWallFractionSized = checkpointWallFraction(sized);
    return sizing;
}

} // namespace cp::model
