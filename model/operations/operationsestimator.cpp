// SPDX-License-Identifier: GPL-3.0-or-later
#include "model/operations/operationsestimator.h"

#include "model/core/humantext.h"
#include "model/core/units.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>

namespace cp::model {

double checkpointIntervalSeconds(double checkpointSeconds, double mtbfSeconds)
{
    if (!(checkpointSeconds > 0) || !(mtbfSeconds > 0))
        return 0.0;
    if (checkpointSeconds >= 2.0 * mtbfSeconds)
        return mtbfSeconds;
    const double ratio = checkpointSeconds / (2.0 * mtbfSeconds);
    return std::sqrt(2.0 * checkpointSeconds * mtbfSeconds)
        * (1.0 + std::sqrt(ratio) / 3.0 + ratio / 9.0)
        - checkpointSeconds;
}

double practicalGoodput(double goodput)
{
    // Below one part in a million an hour of training takes over a century of wall time: the run
    // never finishes, and a wall time, energy and cost of 10^17 days (a goodput of 10^-15 once
    // printed them) describe nothing.
    constexpr double minimumGoodput = 1e-6;
    return goodput >= minimumGoodput ? std::min(goodput, 1.0) : 0.0;
}

double checkpointGoodput(double checkpointSeconds, double intervalSeconds, double restartSeconds,
                         double mtbfSeconds)
{
    if (!(mtbfSeconds > 0) || std::isinf(mtbfSeconds))
        return 1.0;
    const double restart = std::max(0.0, restartSeconds) / mtbfSeconds;
    const double segment
        = (std::max(0.0, intervalSeconds) + std::max(0.0, checkpointSeconds)) / mtbfSeconds;
    // Past e^50 the expected wall time is beyond any run: nothing is done.
    if (restart > 50.0 || segment > 50.0)
        return 0.0;
    if (!(intervalSeconds > 0)) // no checkpoints to write: the limit as tau goes to 0
        return std::exp(-restart);
    const double wallPerWork
        = std::exp(restart) * std::expm1(segment) / (intervalSeconds / mtbfSeconds);
    return practicalGoodput(1.0 / wallPerWork);
}

double noCheckpointGoodput(double runSeconds, double restartSeconds, double mtbfSeconds)
{
    if (!(runSeconds > 0) || !(mtbfSeconds > 0) || std::isinf(mtbfSeconds))
        return 1.0;
    const double failuresExpected = runSeconds / mtbfSeconds;
    if (failuresExpected > 50)
        return 0.0;
    const double wallSeconds = (mtbfSeconds + restartSeconds) * std::expm1(failuresExpected);
    return practicalGoodput(runSeconds / wallSeconds);
}

double gpuAverageWatts(const GpuSpec &gpu, double busyFraction)
{
    const double u = std::clamp(busyFraction, 0.0, 1.0);
    return gpu.idleWatts + u * (gpu.tdpWatts - gpu.idleWatts);
}

double hostTrainingWatts(const NodeSpec &node, const GpuSpec &gpu)
{
    if (!(node.measuredMaxPowerWatts > 0))
        return node.powerWithoutGpusWatts;
    const double host = node.measuredMaxPowerWatts - node.gpusPerNode * gpu.tdpWatts;
    return std::clamp(host, 0.0, node.powerWithoutGpusWatts);
}

ReliabilityEstimate estimateReliability(const ReliabilityInputs &in)
{
    ReliabilityEstimate r;
    double nodeRatePerSecond = 0;
    for (const FailureExposure &part : in.parts) {
        if (part.count <= 0)
            continue;
        if (part.mtbfHours <= 0) {
            r.notes.push_back("the catalog gives no MTBF for the " + part.part
                              + ": their failures are not counted");
            continue;
        }
        r.interruptionsPerDay += part.interruptionsPerDay();
        // Any failure of a node's parts takes the node out until it is replaced.
        nodeRatePerSecond += part.interruptionsPerDay() / units::secondsPerDay;
    }
    r.mtbfSeconds = r.interruptionsPerDay > 0 ? units::secondsPerDay / r.interruptionsPerDay
                                              : std::numeric_limits<double>::infinity();
    if (in.checkpointBytes > 0) {
        if (in.storageWriteBytesPerSecond > 0)
            r.checkpointWriteSeconds = in.checkpointBytes / in.storageWriteBytesPerSecond;
        if (in.storageReadBytesPerSecond > 0)
            r.checkpointReadSeconds = in.checkpointBytes / in.storageReadBytesPerSecond;
        r.checkpointsWritable = in.storageWriteBytesPerSecond > 0;
    }
    const double nodesDownAtOnce = nodeRatePerSecond * in.nodeReplacementSeconds;
    r.nodesDownAtOnce = nodesDownAtOnce;
    const int needed = static_cast<int>(std::ceil(nodesDownAtOnce - 1e-9));
    r.spareNodes = in.spareNodes >= 0 ? in.spareNodes : needed;
    r.sparesCoverFailures = r.spareNodes > 0 && r.spareNodes >= needed;
    if (r.spareNodes > 0 && !r.sparesCoverFailures)
        r.notes.push_back(std::to_string(r.spareNodes) + " spare node(s) are fewer than the "
                          + std::to_string(static_cast<int>(std::ceil(nodesDownAtOnce)))
                          + " expected to be down at once");
    r.restartSeconds = in.restartOverheadSeconds + r.checkpointReadSeconds
        + (r.sparesCoverFailures ? 0.0 : in.nodeReplacementSeconds);
    if (!r.checkpointsWritable) {
        r.goodput = noCheckpointGoodput(in.runSeconds, r.restartSeconds, r.mtbfSeconds);
        if (!(in.runSeconds > 0))
            r.notes.push_back("no storage to write checkpoints to: every failure restarts the "
                              "run from its start (the goodput needs the run's length: give a "
                              "token count)");
        else if (r.goodput <= 0)
            r.notes.push_back("no storage to write checkpoints to: every failure restarts the "
                              "run from its start, and a run of "
                              + std::to_string(std::lround(in.runSeconds / r.mtbfSeconds))
                              + " MTBFs practically never finishes");
        else
            r.notes.push_back("no storage to write checkpoints to: every failure restarts the "
                              "run from its start");
        return r;
    }
    if (in.asyncCopySeconds) {
        r.asyncCheckpoints = true;
        r.checkpointBlockedSeconds = *in.asyncCopySeconds;
        const double daly = checkpointIntervalSeconds(r.checkpointBlockedSeconds, r.mtbfSeconds);
        r.checkpointIntervalSeconds
            = std::max(asyncCheckpointIntervalSeconds(r.checkpointBlockedSeconds,
                                                      r.checkpointWriteSeconds, r.mtbfSeconds),
                       in.minimumIntervalSeconds);
        r.intervalRule = r.checkpointIntervalSeconds > std::max(daly, r.checkpointWriteSeconds)
            ? "one a step"
            : r.checkpointWriteSeconds > daly ? "the drain"
                                              : "Daly";
        r.goodput = checkpointGoodput(r.checkpointBlockedSeconds, r.checkpointIntervalSeconds,
                                      r.restartSeconds + r.checkpointWriteSeconds, r.mtbfSeconds);
        return r;
    }
    r.checkpointBlockedSeconds = r.checkpointWriteSeconds;
    const double daly = checkpointIntervalSeconds(r.checkpointWriteSeconds, r.mtbfSeconds);
    r.checkpointIntervalSeconds = std::max(daly, in.minimumIntervalSeconds);
    if (r.checkpointIntervalSeconds > daly)
        r.intervalRule = "one a step";
    r.goodput = checkpointGoodput(r.checkpointWriteSeconds, r.checkpointIntervalSeconds,
                                  r.restartSeconds, r.mtbfSeconds);
    return r;
}

double asyncCheckpointIntervalSeconds(double copySeconds, double drainSeconds, double mtbfSeconds)
{
    return std::max(checkpointIntervalSeconds(copySeconds, mtbfSeconds), drainSeconds);
}

ServingReliability estimateServingReliability(const GpuSpec &gpu, const NodeSpec &node,
                                              int replicas, int gpusPerReplica,
                                              double restartOverheadSeconds)
{
    ServingReliability r;
    const long long gpus = static_cast<long long>(replicas) * gpusPerReplica;
    const long long nodes = (gpus + node.gpusPerNode - 1) / std::max(1, node.gpusPerNode);
    const FailureExposure parts[]
        = {{"GPUs", gpus, gpu.mtbfHours}, {"nodes (without GPUs)", nodes, node.mtbfHours}};
    for (const FailureExposure &part : parts)
        r.interruptionsPerDay += part.interruptionsPerDay();
    r.restartSeconds = restartOverheadSeconds;
    if (replicas > 0)
        r.availability = std::clamp(
            1.0 - r.interruptionsPerDay * r.restartSeconds / (replicas * units::secondsPerDay), 0.0,
            1.0);
    return r;
}

OperationsEstimate estimateOperations(const OperationsInputs &in)
{
    OperationsEstimate e;
    e.gpusWatts = in.gpus * gpuAverageWatts(in.gpu, in.gpuBusyFraction);
    e.nodesWatts = in.nodes * hostTrainingWatts(in.node, in.gpu);
    e.networkWatts = in.networkWatts;
    e.storageWatts = in.storageWatts;
    e.facilityWatts = e.itWatts() * in.facility.pue;
    e.wallSeconds = in.goodput > 0 ? in.runSeconds / in.goodput : 0.0;
    e.wallGpuHours = e.wallSeconds * in.gpus / units::secondsPerHour;
    const double kwh = e.facilityWatts / 1e3 * e.wallSeconds / units::secondsPerHour;
    e.energyMegawattHours = kwh / 1e3;
    e.electricityUsd = kwh * in.facility.electricityUsdPerKwh;
    e.carbonTonnes = kwh * in.facility.carbonKgPerKwh / 1e3;
    if (in.hourlyUsdPerGpu) {
        e.costPerGpuHourUsd = *in.hourlyUsdPerGpu;
        e.rentedSpareGpuHours
            = static_cast<double>(in.spareGpus) * e.wallSeconds / units::secondsPerHour;
    } else if (in.gpus > 0) {
        const double lifetimeHours = in.lifetimeYears * units::hoursPerYear;
        e.costPerGpuHourUsd = in.capitalUsd / (in.gpus * lifetimeHours)
            + e.facilityWatts / in.gpus / 1e3 * in.facility.electricityUsdPerKwh;
    }
    e.costUsd = e.costPerGpuHourUsd * (e.wallGpuHours + e.rentedSpareGpuHours);
    return e;
}

namespace {
std::string failurePaceText(const ReliabilityEstimate &r)
{
    if (!r.checkpointsWritable)
        return "with no storage to write checkpoints to, every failure sends the run back to its "
               "start, and one comes every "
            + humanWait(r.mtbfSeconds);
    return "a failure every " + humanWait(r.mtbfSeconds) + " against " + humanWait(r.restartSeconds)
        + " to restart";
}
} // namespace

std::string runNeverFinishesText(const ReliabilityEstimate &r)
{
    return r.goodput > 0 ? std::string() : failurePaceText(r);
}

std::string lowGoodputText(const ReliabilityEstimate &r)
{
    return r.goodput > 0 && r.goodput < 0.1 ? failurePaceText(r) : std::string();
}

std::string failuresDecideRunText(const ReliabilityEstimate &r)
{
    if (const std::string pace = lowGoodputText(r); !pace.empty()) {
        char useful[32];
        std::snprintf(useful, sizeof useful, "%.3g%%", 100.0 * r.goodput);
        return "failures outpace the run: " + pace + ", so only " + useful
            + " of the wall time is useful work";
    }
    if (const std::string pace = runNeverFinishesText(r); !pace.empty())
        return "the run never finishes: " + pace;
    return {};
}

} // namespace cp::model
