// SPDX-License-Identifier: GPL-3.0-or-later
#include "model/planning/trainingrun.h"

#include "model/core/humantext.h"
#include "model/core/units.h"
#include "model/fabric/fabricgraph.h"
#include "model/operations/checkpointstorage.h"
#include "model/planning/planestimator.h"
#include "model/training/transformershape.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace cp::model {

namespace {

/**
 * What one node's path to storage carries: its own storage network, or else its compute NICs
 * (storage on the fabric) divided by the fabric's oversubscription, capped by what one client of
 * the storage reads.
 */
double nodeStorageNetworkBytesPerSecond(const ClusterDescription &cluster,
                                        const TrainingRunSetup &setup)
{
    return setup.node.storageNetworkBytesPerSecond > 0 ? setup.node.storageNetworkBytesPerSecond
                                                       : std::max(1, cluster.nicsPerNode)
            * cluster.nicBytesPerSecond / std::max(1.0, cluster.oversubscription);
}

double nodeStoragePathBytesPerSecond(const ClusterDescription &cluster,
                                     const TrainingRunSetup &setup)
{
    const double network = nodeStorageNetworkBytesPerSecond(cluster, setup);
    return setup.storage.clientBytesPerSecond > 0
        ? std::min(network, setup.storage.clientBytesPerSecond)
        : network;
}

DataPathInputs dataPathInputs(const ClusterDescription &cluster, const TrainingEstimate &estimate,
                              const TrainingRunSetup &setup)
{
    DataPathInputs in;
    in.dataset = *setup.dataset;
    in.storage = setup.storage;
    in.storageSystems = setup.storageSystems;
    in.nodes = cluster.nodes();
    in.gpusPerNode = cluster.gpusPerNode;
    in.cpuCoresPerNode = setup.node.cpuCores;
    in.localCacheBytesPerNode = setup.node.localNvmeBytes;
    in.nodeNetworkBytesPerSecond = nodeStoragePathBytesPerSecond(cluster, setup);
    in.sequenceTokens = setup.sequenceTokens;
    const double positions = datasetPositions(in.dataset);
    if (setup.trainingTokens > 0 && positions > 0)
        in.epochs = setup.trainingTokens / positions;
    in.tokensPerSecond = estimate.tokensPerSecond;
    return in;
}

/** The hardware's amortisation period in seconds. */
double lifetimeSecondsOf(const TrainingRunSetup &setup)
{
    return setup.lifetimeYears * units::hoursPerYear * units::secondsPerHour;
}

std::string dataStallNote(const DataPathEstimate &path)
{
    char share[32];
    std::snprintf(share, sizeof share, "%.1f%%", 100.0 * path.stallFraction);
    return std::string("the GPUs wait for data ") + share + " of the run (" + path.dataset
        + "): " + starvingStagesText(path.worsePhase()) + " cannot keep up; " + path.advice;
}

/**
 * What the storage must hold (the dataset, or the token budget's ids without one, and the
 * retained checkpoints) and how many systems of its kind feed and hold that.
 */
void sizeStorage(TrainingRunEstimate &run, const TrainingRunSetup &setup)
{
    const double dataBytes
        = setup.dataset ? datasetBytes(*setup.dataset) : setup.trainingTokens * setup.bytesPerToken;
    run.storedBytes = dataBytes + setup.retainedCheckpoints * run.checkpointBytes;
    const double perSystemBytes = setup.storage.capacityBytes / std::max(1, setup.storageSystems);
    const long long forCapacity = perSystemBytes > 0
        ? static_cast<long long>(std::ceil(run.storedBytes / perSystemBytes - 1e-9))
        : 0;
    run.storageSystemsNeeded = std::max(
        {1LL, forCapacity, run.dataPath.present ? run.dataPath.storageSystemsNeeded : 0});
    if (setup.storage.capacityBytes > 0 && run.storedBytes > setup.storage.capacityBytes)
        run.notes.push_back(groupedCount(std::max(1, setup.storageSystems)) + " x "
                            + setup.storage.name + (setup.storageSystems > 1 ? " hold " : " holds ")
                            + humanBytes(setup.storage.capacityBytes) + ", the run stores "
                            + humanBytes(run.storedBytes) + " (data and "
                            + std::to_string(setup.retainedCheckpoints)
                            + " checkpoints): " + groupedCount(run.storageSystemsNeeded)
                            + " systems needed; the capital, power and checkpoint times count the "
                            + groupedCount(std::max(1, setup.storageSystems))
                            + " the run has (--storage-systems, or the plan's storage, buys more)");
}

/**
 * Seconds each checkpoint stops training when it is asynchronous: every GPU copies its shard of
 * the checkpoint to pinned host memory over its host link. None (a note says why) when the link
 * is unknown or the node's shard would take more than half its host memory, which the job needs.
 */
std::optional<double> asyncCopySeconds(TrainingRunEstimate &run, const ClusterDescription &cluster,
                                       const TrainingRunSetup &setup)
{
    if (cluster.gpu.hostLinkBytesPerSecond <= 0) {
        run.notes.push_back("asynchronous checkpoints need the GPU's host link rate, which the "
                            "catalog does not give for "
                            + cluster.gpu.name + ": checkpoints stay synchronous");
        return std::nullopt;
    }
    const double bytesPerNode = run.checkpointBytes / static_cast<double>(std::max(1LL, run.nodes));
    if (setup.node.hostMemoryBytes > 0 && bytesPerNode > 0.5 * setup.node.hostMemoryBytes) {
        run.notes.push_back("an asynchronous checkpoint stages " + humanBytes(bytesPerNode)
                            + " per node, more than half of " + setup.node.name
                            + "'s host memory: checkpoints stay synchronous");
        return std::nullopt;
    }
    run.checkpointHostBytesPerNode = bytesPerNode;
    return run.checkpointBytes / static_cast<double>(std::max(1, cluster.gpus))
        / cluster.gpu.hostLinkBytesPerSecond;
}

/** Switches and transceivers of the job's fabric (`fabric`, or a two-tier closed form without
 * one), and the capital of the hardware the run uses. */
void countHardware(TrainingRunEstimate &run, const ClusterDescription &cluster,
                   const TrainingRunSetup &setup, const std::optional<FabricHardwareCount> &fabric)
{
    run.nodes = cluster.nodes();
    run.nics = run.nodes * std::max(1, cluster.nicsPerNode);
    if (fabric) {
        run.switches = fabric->switches;
        run.transceivers = 2 * fabric->opticalLinks;
    } else if (run.nodes > 1) {
        const FabricCounts counts
            = twoTierFabricCounts(run.nics, setup.networkSwitch.ports, cluster.oversubscription);
        run.switches = counts.leafSwitches + counts.spineSwitches;
        run.transceivers = setup.nic.opticPowerWatts > 0 ? 2 * counts.cables : 0;
    }
    if (setup.hallCabling)
        run.transceivers = setup.hallCabling->transceivers;
    if (setup.billOfMaterialsUsd) {
        run.capitalUsd = *setup.billOfMaterialsUsd;
        return;
    }
    const long long boughtNics
        = run.nodes * std::max(0, std::max(1, cluster.nicsPerNode) - setup.builtInNicsPerNode);
    run.capitalUsd = cluster.gpus * cluster.gpu.priceUsd
        + run.nodes * setup.node.priceWithoutGpusUsd + boughtNics * setup.nic.priceUsd
        + run.switches * setup.networkSwitch.priceUsd + run.transceivers * setup.nic.opticPriceUsd
        + setup.storage.priceUsd + setup.interconnectUsd;
}

/** The data loader's feed, the storage it needs and the stall that lengthens the run. */
void estimateDataFeed(TrainingRunEstimate &run, const ClusterDescription &cluster,
                      const TrainingEstimate &estimate, const TrainingRunSetup &setup)
{
    run.dataFeedBytesPerSecond = estimate.tokensPerSecond * setup.bytesPerToken;
    if (setup.dataset) {
        run.dataPath = estimateDataPath(dataPathInputs(cluster, estimate, setup));
        if (run.dataPath.present)
            run.dataFeedBytesPerSecond = run.dataPath.requiredReadBytesPerSecond;
    }
    sizeStorage(run, setup);
    run.trainingSecondsWithStall = run.dataPath.stallFraction < 1
        ? estimate.trainingSeconds / (1.0 - run.dataPath.stallFraction)
        : estimate.trainingSeconds;
    if (setup.storage.readBytesPerSecond <= 0)
        run.notes.push_back("no storage: the data loader has nothing to read training data from");
    else if (run.dataPath.stallFraction > 0)
        run.notes.push_back(dataStallNote(run.dataPath));
    else if (run.dataFeedBytesPerSecond > setup.storage.readBytesPerSecond)
        run.notes.push_back("the data loader needs more than " + setup.storage.name
                            + " can read: storage is the bottleneck");
}

/** The nodes' paths to storage together: every node writes its shard of a checkpoint at once
 * (Megatron's distributed checkpoint), so no storage writes a checkpoint faster than this. */
double clientPathBytesPerSecond(const TrainingRunEstimate &run, const ClusterDescription &cluster,
                                const TrainingRunSetup &setup)
{
    return static_cast<double>(run.nodes) * nodeStoragePathBytesPerSecond(cluster, setup);
}

/** Failures, checkpoints and restarts over the run (reliability.h); spares join the capital.
 * Returns the inputs, which sizeCheckpointStorage varies. */
ReliabilityInputs estimateRunReliability(TrainingRunEstimate &run,
                                         const ClusterDescription &cluster,
                                         const TrainingRunSetup &setup, double stepSeconds)
{
    ReliabilityInputs r;
    r.parts = {{"GPUs", cluster.gpus, cluster.gpu.mtbfHours},
               {"nodes (without GPUs)", run.nodes, setup.node.mtbfHours},
               {"NICs and their optics", run.nics, setup.nic.mtbfHours},
               {"switches", run.switches, setup.networkSwitch.mtbfHours}};
    r.checkpointBytes = run.checkpointBytes;
    // The burst is the slower of the storage and the nodes' paths to it.
    const double clientPath = clientPathBytesPerSecond(run, cluster, setup);
    r.storageWriteBytesPerSecond = std::min(setup.storage.writeBytesPerSecond, clientPath);
    r.storageReadBytesPerSecond = std::min(setup.storage.readBytesPerSecond, clientPath);
    r.restartOverheadSeconds = setup.restartOverheadSeconds;
    r.spareNodes = setup.spareNodes;
    r.nodeReplacementSeconds = setup.nodeReplacementSeconds;
    r.nodes = static_cast<double>(run.nodes);
    r.runSeconds = run.trainingSecondsWithStall;
    r.minimumIntervalSeconds = stepSeconds;
    if (setup.asyncCheckpoints)
        r.asyncCopySeconds = asyncCopySeconds(run, cluster, setup);
    run.reliability = estimateReliability(r);
    run.notes.insert(run.notes.end(), run.reliability.notes.begin(), run.reliability.notes.end());
    // Spares are bought with their GPUs; they idle, so their power is left out.
    run.sparesCapitalUsd = run.reliability.spareNodes
        * (setup.node.priceWithoutGpusUsd + cluster.gpusPerNode * cluster.gpu.priceUsd);
    run.capitalUsd += run.sparesCapitalUsd;
    return r;
}

/**
 * The storage systems whose checkpoint writes and restores cost least per useful second
 * (checkpointstorage.h), priced like the run's own systems (the storage network's ports they
 * would add are not counted), and a note when that count matters: storage limits the goodput,
 * or the run has more than its checkpoints repay.
 */
void sizeStorageForCheckpoints(TrainingRunEstimate &run, const ClusterDescription &cluster,
                               const TrainingRunSetup &setup, const ReliabilityInputs &reliability)
{
    const double lifetimeSeconds = lifetimeSecondsOf(setup);
    CheckpointStorageInputs in;
    in.reliability = reliability;
    in.systems = std::max(1, setup.storageSystems);
    const double systems = in.systems;
    in.fewestSystems = run.storageSystemsNeeded;
    in.nodes = static_cast<double>(run.nodes);
    in.nodeNetworkBytesPerSecond = nodeStorageNetworkBytesPerSecond(cluster, setup);
    in.systemClientBytesPerSecond = setup.storage.clientBytesPerSecond / systems;
    in.systemWriteBytesPerSecond = setup.storage.writeBytesPerSecond / systems;
    in.systemReadBytesPerSecond = setup.storage.readBytesPerSecond / systems;
    in.systemUsdPerSecond
        = (lifetimeSeconds > 0 ? setup.storage.priceUsd / systems / lifetimeSeconds : 0.0)
        + setup.storage.powerWatts / systems * setup.facility.pue / units::kilo
            * setup.facility.electricityUsdPerKwh / units::secondsPerHour;
    // The cluster without its storage: a cloud GPU-hour price has none in it; owned hardware's
    // cost per GPU-hour amortises the run's own systems, taken out here (the sizing prices every
    // system it counts, so its answer does not depend on how many the run has).
    const double clusterUsdPerSecond
        = run.operations.costPerGpuHourUsd * cluster.gpus / units::secondsPerHour;
    in.clusterUsdPerSecond = setup.hourlyUsdPerGpu
        ? clusterUsdPerSecond
        : clusterUsdPerSecond - systems * in.systemUsdPerSecond;
    run.checkpointStorage = sizeCheckpointStorage(in);
    const CheckpointStorageSizing &sized = run.checkpointStorage;
    if (!sized.storageLimitsGoodput() && !sized.fewerWouldDo())
        return;
    const ReliabilityEstimate &r = run.reliability;
    // A plan may mix kinds: the sizing then counts more of the same mix.
    const std::string storage = setup.storageKindsMixed
        ? groupedCount(sized.systemsNow)
            + " storage systems of several kinds (sized as more of "
              "the same mix)"
        : groupedCount(sized.systemsNow) + " x " + setup.storage.name;
    // The text gives an asynchronous drain's time itself.
    run.checkpointStorageNote = humanBytes(run.checkpointBytes) + " checkpoints every "
        + humanWait(r.checkpointIntervalSeconds)
        + (r.asyncCheckpoints ? std::string()
                              : ", written in " + humanDuration(r.checkpointWriteSeconds))
        + " to " + storage + ": " + checkpointStorageText(sized);
    run.notes.push_back(run.checkpointStorageNote);
}

/** A GPU count that leaves the last node part empty: nodes are bought whole (an NVL72 rack holds
 * 72 GPUs), so say which counts fill them. */
void addWholeNodeNote(TrainingRunEstimate &run, const ClusterDescription &cluster)
{
    const long long perNode = std::max(1, cluster.gpusPerNode);
    const long long nodes = cluster.nodes();
    const long long inLast = cluster.gpus - (nodes - 1) * perNode;
    if (nodes < 1 || inLast >= perNode)
        return;
    run.notes.push_back(groupedCount(cluster.gpus) + " GPUs take " + groupedCount(nodes)
                        + " nodes of " + groupedCount(perNode) + ", the last holding "
                        + groupedCount(inLast) + ": its other " + groupedCount(perNode - inLast)
                        + " GPUs are neither counted nor priced here, but a node is bought whole ("
                        + groupedCount(nodes * perNode) + " or "
                        + groupedCount((nodes - 1) * perNode) + " GPUs fill the nodes)");
}

/** A run longer than the hardware's amortisation: its cost buys the hardware more than once. */
void addOutlivesHardwareNote(TrainingRunEstimate &run, const TrainingRunSetup &setup)
{
    const double lifetimeSeconds = lifetimeSecondsOf(setup);
    if (setup.hourlyUsdPerGpu || lifetimeSeconds <= 0
        || run.operations.wallSeconds <= lifetimeSeconds)
        return;
    char years[64];
    std::snprintf(years, sizeof years, " (%.3g years) outlast the hardware's %g-year",
                  run.operations.wallSeconds / (units::hoursPerYear * units::secondsPerHour),
                  setup.lifetimeYears);
    run.notes.push_back("the run's " + humanDuration(run.operations.wallSeconds) + years
                        + " amortisation: its cost pays for the hardware "
                        + threeDigits(run.operations.wallSeconds / lifetimeSeconds)
                        + " times over; more GPUs or fewer tokens");
}

/** Power, energy and cost of the run at its utilisation and goodput (operationsestimator.h). */
void estimateRunOperations(TrainingRunEstimate &run, const ClusterDescription &cluster,
                           const TrainingRunSetup &setup)
{
    OperationsInputs o;
    o.gpu = cluster.gpu;
    o.node = setup.node;
    o.gpus = cluster.gpus;
    o.nodes = static_cast<int>(run.nodes);
    o.gpuBusyFraction = run.gpuBusyFraction;
    const double cablingWatts = setup.hallCabling ? setup.hallCabling->watts
                                                  : run.transceivers * setup.nic.opticPowerWatts;
    o.networkWatts = run.switches * setup.networkSwitch.powerWatts + cablingWatts
        + setup.managementSwitches * setup.managementSwitch.powerWatts + setup.interconnectWatts;
    o.storageWatts = setup.storage.powerWatts;
    o.capitalUsd = run.capitalUsd;
    o.facility = setup.facility;
    o.lifetimeYears = setup.lifetimeYears;
    o.hourlyUsdPerGpu = setup.hourlyUsdPerGpu;
    o.spareGpus = run.reliability.spareNodes * std::max(1, cluster.gpusPerNode);
    o.runSeconds = run.trainingSecondsWithStall;
    o.goodput = run.reliability.goodput;
    run.operations = estimateOperations(o);
}

} // namespace

TrainingRunEstimate estimateTrainingRun(const ClusterDescription &cluster, const ModelSpec &model,
                                        const TrainingEstimate &estimate,
                                        const TrainingRunSetup &setup,
                                        const std::optional<FabricHardwareCount> &fabric)
{
    TrainingRunEstimate run;
    countHardware(run, cluster, setup, fabric);
    const StepBreakdown &b = estimate.breakdown;
    run.gpuBusyFraction = estimate.stepSeconds > 0
        ? (b.computeSeconds + b.memoryBoundSeconds + b.optimizerSeconds) / estimate.stepSeconds
        : 0.0;
    run.checkpointBytes = 14.0 * TransformerShape::fromModel(model).totalParameters();
    estimateDataFeed(run, cluster, estimate, setup);
    const ReliabilityInputs reliability
        = estimateRunReliability(run, cluster, setup, estimate.stepSeconds);
    estimateRunOperations(run, cluster, setup);
    sizeStorageForCheckpoints(run, cluster, setup, reliability);
    if (estimate.trainingSeconds <= 0)
        run.notes.push_back("no token count: energy and run cost need --tokens");
    addWholeNodeNote(run, cluster);
    addOutlivesHardwareNote(run, setup);
    return run;
}

} // namespace cp::model
