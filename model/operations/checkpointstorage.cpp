// SPDX-License-Identifier: GPL-3.0-or-later
#include "model/operations/checkpointstorage.h"

#include "model/core/humantext.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace cp::model {

namespace {

/** The nodes' paths to `systems` systems together: no storage writes or reads faster. */
double clientPathBytesPerSecond(const CheckpointStorageInputs &in, double systems)
{
    const double perNode = in.systemClientBytesPerSecond > 0
        ? std::min(in.nodeNetworkBytesPerSecond, systems * in.systemClientBytesPerSecond)
        : in.nodeNetworkBytesPerSecond;
    return in.nodes * perNode;
}

/** The run's reliability with `systems` storage systems striped together. */
ReliabilityEstimate reliabilityWith(const CheckpointStorageInputs &in, long long systems)
{
    ReliabilityInputs scaled = in.reliability;
    const double count = static_cast<double>(systems);
    const double clientPath = clientPathBytesPerSecond(in, count);
    scaled.storageWriteBytesPerSecond = std::min(count * in.systemWriteBytesPerSecond, clientPath);
    scaled.storageReadBytesPerSecond = std::min(count * in.systemReadBytesPerSecond, clientPath);
    return estimateReliability(scaled);
}

/** Dollars per second of useful work with `systems` storage systems. */
double usdPerUsefulSecond(const CheckpointStorageInputs &in, long long systems)
{
    const double goodput = reliabilityWith(in, systems).goodput;
    if (!(goodput > 0))
        return std::numeric_limits<double>::infinity();
    return (in.clusterUsdPerSecond + static_cast<double>(systems) * in.systemUsdPerSecond)
        / goodput;
}

/** The most systems worth trying: past the count whose writes fill the nodes' network paths to
 * storage, another system writes no faster (and restores, capped the same way, no faster). */
long long largestUsefulCount(const CheckpointStorageInputs &in)
{
    // A bound that keeps the search's counts and their products with rates far from overflow.
    constexpr long long countCap = 1'000'000'000;
    const double slowest = std::min(in.systemWriteBytesPerSecond,
                                    in.systemReadBytesPerSecond > 0 ? in.systemReadBytesPerSecond
                                                                    : in.systemWriteBytesPerSecond);
    const double filling = std::ceil(in.nodes * in.nodeNetworkBytesPerSecond / slowest);
    if (!(filling < static_cast<double>(countCap)))
        return countCap;
    return std::max<long long>(1, static_cast<long long>(filling));
}

/** What the run's checkpoints cost now: the share of the wall time they stop training, or,
 * written in the background, how long each takes to drain to storage. */
std::string checkpointCostText(const CheckpointStorageSizing &sizing)
{
    return sizing.asynchronous ? "checkpoints drain to storage in "
            + humanDuration(sizing.writeSecondsNow) + " in the background"
                               : "checkpoints stop training "
            + shareText(sizing.checkpointWallFractionNow) + " of the wall time";
}

/** What the sized count would make of them: "make that 1.2%" or "drain them in 1.50 s". */
std::string sizedCheckpointText(const CheckpointStorageSizing &sizing)
{
    return sizing.asynchronous ? "drain them in " + humanDuration(sizing.writeSecondsSized)
                               : "make that " + shareText(sizing.checkpointWallFractionSized);
}

/** The decimals (one to three) that tell two shares apart: one printed "2.0% against 2.0%"
 * beside advice to buy 1,688 systems. */
int distinguishingDecimals(double share, double other)
{
    int decimals = 1;
    while (decimals < 3 && percentText(share, decimals) == percentText(other, decimals))
        ++decimals;
    return decimals;
}

/** "2.041% against 2.039%", or "unchanged at 2.041%". */
std::string distinctSharesText(double share, double other)
{
    const int decimals = distinguishingDecimals(share, other);
    if (percentText(share, decimals) == percentText(other, decimals))
        return "unchanged at " + percentText(share, decimals);
    return percentText(share, decimals) + " against " + percentText(other, decimals);
}

} // namespace

std::string checkpointStorageText(const CheckpointStorageSizing &sizing)
{
    if (sizing.systems <= 0)
        return {};
    const std::string now = checkpointCostText(sizing);
    // More than the run has because its data needs them (capacity, feed), not its checkpoints:
    // the search weighed no fewer.
    if (sizing.systems > sizing.systemsNow && sizing.systems == sizing.fewestSystems)
        return now + "; the " + groupedCount(sizing.systems) + " systems its data needs would "
            + sizedCheckpointText(sizing) + " (goodput " + shareText(sizing.goodput) + ")";
    if (sizing.storageLimitsGoodput()) {
        const int decimals = distinguishingDecimals(sizing.goodputNow, sizing.goodput);
        std::string text = now + ": faster storage pays for itself; " + groupedCount(sizing.systems)
            + " systems, the lowest cost per useful hour, would " + sizedCheckpointText(sizing)
            + " and raise the goodput from " + percentText(sizing.goodputNow, decimals) + " to "
            + percentText(sizing.goodput, decimals);
        // Shorter writes also make Daly's interval shorter (less work lost to each failure) and
        // restores faster: the goodput gains more than the checkpoints' own share.
        const double shareSaved
            = sizing.checkpointWallFractionNow - sizing.checkpointWallFractionSized;
        if (sizing.asynchronous || sizing.goodput - sizing.goodputNow > shareSaved + 0.005)
            text += " (less work lost to each failure and faster restores)";
        return text;
    }
    if (sizing.fewerWouldDo())
        return now + "; " + groupedCount(sizing.systems) + " of the "
            + groupedCount(sizing.systemsNow)
            + " storage systems would write them at the lowest cost per useful hour ("
            + (sizing.asynchronous ? "in " + humanDuration(sizing.writeSecondsSized)
                                   : shareText(sizing.checkpointWallFractionSized))
            + ", goodput " + shareText(sizing.goodput) + ")";
    if (sizing.systems > sizing.systemsNow)
        return now + "; " + groupedCount(sizing.systems)
            + " systems would cost a little less per useful hour (goodput "
            + distinctSharesText(sizing.goodput, sizing.goodputNow)
            + ": under 1% of the wall "
              "time)";
    return now + "; more storage would cost more than the GPU time it saves";
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
    if (in.systems < 1 || !(in.systemWriteBytesPerSecond > 0) || !(in.nodes > 0)
        || !(in.nodeNetworkBytesPerSecond > 0) || !(in.systemUsdPerSecond > 0)
        || !(in.clusterUsdPerSecond > 0))
        return sizing;
    const ReliabilityEstimate now = reliabilityWith(in, in.systems);
    if (!now.checkpointsWritable)
        return sizing;
    // (cluster + systems) / goodput has one minimum over the counts (the header says why):
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
    sizing.fewestSystems = std::max(1LL, in.fewestSystems);
    sizing.goodputNow = now.goodput;
    sizing.writeSecondsNow = now.checkpointWriteSeconds;
    sizing.writeSecondsSized = sized.checkpointWriteSeconds;
    sizing.asynchronous = now.asyncCheckpoints;
    sizing.goodput = sized.goodput;
    sizing.checkpointWallFractionNow = checkpointWallFraction(now);
    sizing.checkpointWallFractionSized = checkpointWallFraction(sized);
    return sizing;
}

} // namespace cp::model
