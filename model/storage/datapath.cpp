// SPDX-License-Identifier: GPL-3.0-or-later
#include "model/storage/datapath.h"

#include "model/core/humantext.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>

namespace cp::model {

namespace {

/** What one sample costs each stage: bytes, read requests, file opens and CPU time. */
struct SampleCost
{
    double bytes = 0;
    double readRequests = 0;
    double fileOpens = 0;
    double decodeCoreSeconds = 0;
};

SampleCost sampleCost(const DataPathInputs &in)
{
    const DatasetSpec &d = in.dataset;
    SampleCost cost;
    // A token dataset's sample is one training sequence of int tokens read from a shard.
    const double positions = d.tokenShards() ? static_cast<double>(in.sequenceTokens) : 1.0;
    cost.bytes = d.bytesPerSample * positions;
    if (d.filesPerSample > 0) {
        // Files of their own: every file is opened and read in whole requests (a 110 kB JPEG is
        // one request however small it is).
        const double fileBytes = cost.bytes / d.filesPerSample;
        cost.fileOpens = d.filesPerSample;
        cost.readRequests = d.filesPerSample * std::ceil(fileBytes / in.readRequestBytes);
    } else {
        // Shards are streamed: full-size requests, one open per shard.
        cost.fileOpens = positions / d.samplesPerFile;
        cost.readRequests = cost.bytes / in.readRequestBytes;
    }
    cost.decodeCoreSeconds = d.decodeCoreSecondsPerSample;
    return cost;
}

/** Samples per second each stage passes at most, whole cluster. */
std::vector<DataPathStage> stageCapacities(const DataPathInputs &in, const SampleCost &cost)
{
    const StorageSpec &s = in.storage;
    const double nodes = static_cast<double>(in.nodes);
    // The storage's per-client limit, when it has one, caps the node's path; a path of unknown
    // rate (no NIC described) leaves the stage out rather than reading as infinitely slow.
    const double clientBytesPerSecond = s.clientBytesPerSecond > 0
        ? std::min(in.nodeNetworkBytesPerSecond, s.clientBytesPerSecond)
        : in.nodeNetworkBytesPerSecond;
    std::vector<DataPathStage> stages;
    stages.push_back({"storage read bandwidth", s.readBytesPerSecond / cost.bytes, 0});
    const double metadataOps = cost.fileOpens * s.metadataOpsPerFileOpen;
    if (s.kind == "nfs") {
        // An NFS server answers LOOKUP, ACCESS and GETATTR from the same operation budget as
        // READ (SPEC SFS counts them all as ops): there is no metadata service apart. A file the
        // node's page cache holds still costs its open one GETATTR: the Linux client sends it
        // "regardless of the freshness of the file's cached attributes" (nfs(5), DATA AND
        // METADATA COHERENCE, close-to-open cache consistency), unless mounted nocto.
        const double coldOps = cost.readRequests + metadataOps;
        stages.push_back({"storage IOPS", s.iops / coldOps, 0, cost.fileOpens / coldOps});
    } else {
        if (cost.readRequests > 0)
            stages.push_back({"storage IOPS", s.iops / cost.readRequests, 0});
        if (metadataOps > 0)
            stages.push_back({"metadata", s.metadataOpsPerSecond / metadataOps, 0});
    }
    if (clientBytesPerSecond > 0)
        stages.push_back({"storage network", nodes * clientBytesPerSecond / cost.bytes, 0});
    if (cost.decodeCoreSeconds > 0) {
        // Loader workers run on the cores no training process is pinned to (one per GPU); a
        // node with no core to spare still time-shares one.
        const double workerCores = std::max(1, in.cpuCoresPerNode - in.gpusPerNode);
        stages.push_back({"CPU decode", nodes * workerCores / cost.decodeCoreSeconds, 0});
    }
    return stages;
}

bool readsStorage(const std::string &stage)
{
    return stage != "CPU decode";
}

/** One phase: the stages' demand when a fraction `missRatio` of samples comes from storage (the
 * others cost a storage stage their hitCostShare). */
DataPathPhase phase(std::vector<DataPathStage> stages, double samplesPerSecond, double missRatio)
{
    DataPathPhase result;
    double highest = 0;
    for (DataPathStage &stage : stages) {
        stage.demandSamplesPerSecond = samplesPerSecond
            * (readsStorage(stage.name) ? missRatio + (1.0 - missRatio) * stage.hitCostShare : 1.0);
        if (stage.utilisation() > highest) {
            highest = stage.utilisation();
            result.limitingStage = stage.name;
        }
    }
    result.stages = std::move(stages);
    result.feedSamplesPerSecond = highest > 0 ? samplesPerSecond / highest : 0.0;
    result.stallFraction = highest > 1 ? 1.0 - 1.0 / highest : 0.0;
    return result;
}

/** How much longer than the GPUs' own pace a phase runs: 1 / (1 - stall). */
double slowdownOf(const DataPathPhase &phase)
{
    return 1.0 / (1.0 - phase.stallFraction);
}

/**
 * The cache hits of each epoch after the first, and what they cost in time. PyTorch's
 * DistributedSampler reshuffles the whole dataset every epoch (set_epoch) and deals each node a
 * random 1/N of it, so a node meets a sample it has read before with the probability that one of
 * its earlier epochs dealt it that sample: 1 - (1 - 1/N)^(e - 1) in epoch e, and never more than
 * the share of the dataset its cache holds (uniform random reads of an LRU cache). One node reads
 * the whole dataset every epoch, so its cache serves epoch 2 on.
 */
struct LaterEpochs
{
    double epochs = 0; ///< epochs after the first (fractional: a token budget's last pass)
    double meanHitRatio = 0; ///< averaged over them, a fractional last pass by its share
    double slowdownEpochs = 0; ///< their summed slowdowns (an epoch at the GPUs' pace is 1)
};

LaterEpochs laterEpochs(const std::vector<DataPathStage> &capacities, double samplesPerSecond,
                        double epochs, double nodes, double cacheShare)
{
    LaterEpochs later;
    later.epochs = std::max(0.0, epochs - 1.0);
    const double notDealt = nodes > 1 ? 1.0 - 1.0 / nodes : 0.0;
    double unseen = notDealt; // (1 - 1/N)^(e - 1) for epoch e = 2
    double hitSum = 0;
    // Past a million epochs (or once the hits stop changing) every further epoch is the last.
    for (double start = 1.0; start < epochs; start += 1.0) {
        const double weight = std::min(1.0, epochs - start);
        const double hit = std::min(1.0 - unseen, cacheShare);
        const bool settled = hit >= cacheShare || unseen < 1e-12 || start > 1e6;
        const double remaining = settled ? epochs - start : weight;
        hitSum += remaining * hit;
        later.slowdownEpochs
            += remaining * slowdownOf(phase(capacities, samplesPerSecond, 1.0 - hit));
        if (settled)
            break;
        unseen *= notDealt;
    }
    later.meanHitRatio = later.epochs > 0 ? hitSum / later.epochs : 0.0;
    return later;
}

/** Samples in one pass: a token dataset's sample is one sequence of the run. */
double datasetSamples(const DatasetSpec &d, const DataPathInputs &in)
{
    return d.tokenShards() && in.sequenceTokens > 0 ? d.samples / in.sequenceTokens : d.samples;
}

/**
 * Copying the whole dataset onto every node's NVMe: N copies streamed at the storage's read rate,
 * or at what the nodes' paths carry together when that is less. 0 when it does not fit a node's
 * cache, or on one node (its cache fills in the first epoch anyway).
 */
double stagingSeconds(const DataPathInputs &in, double bytes)
{
    if (in.nodes < 2 || bytes <= 0 || bytes > in.localCacheBytesPerNode
        || in.storage.readBytesPerSecond <= 0)
        return 0.0;
    const double nodes = static_cast<double>(in.nodes);
    const double clientBytesPerSecond = in.storage.clientBytesPerSecond > 0
        ? std::min(in.nodeNetworkBytesPerSecond, in.storage.clientBytesPerSecond)
        : in.nodeNetworkBytesPerSecond;
    double rate = in.storage.readBytesPerSecond;
    if (clientBytesPerSecond > 0)
        rate = std::min(rate, nodes * clientBytesPerSecond);
    return nodes * bytes / rate;
}

/** "7.9 min", "2.1 h": a duration in the advice. */
std::string shortDuration(double seconds)
{
    char text[32];
    if (seconds < 120)
        std::snprintf(text, sizeof text, "%.0f s", seconds);
    else if (seconds < 2 * 3600)
        std::snprintf(text, sizeof text, "%.1f min", seconds / 60);
    else if (seconds < 2 * 86400)
        std::snprintf(text, sizeof text, "%.1f h", seconds / 3600);
    else
        std::snprintf(text, sizeof text, "%.1f days", seconds / 86400);
    return text;
}

std::string adviceFor(const std::string &stage, long long systemsNeeded, int systems)
{
    if (stage == "storage read bandwidth" || stage == "storage IOPS")
        return "add storage systems (" + std::to_string(systemsNeeded) + " instead of "
            + std::to_string(systems) + ") or a cache tier"
            + (stage == "storage IOPS" ? ", or pack the small files into shards" : "");
    if (stage == "metadata")
        return "pack the files into shards (one open per thousands of samples) or use storage "
               "with a faster metadata service";
    if (stage == "storage network")
        return "widen each node's path to storage (storage NICs, a less oversubscribed fabric)";
    if (stage == "CPU decode")
        return "more CPU cores per node, or decode on the GPU";
    return {};
}

} // namespace

void addStorageSystems(StorageSpec &aggregate, const StorageSpec &storage, int count)
{
    aggregate.id = storage.id;
    aggregate.name = storage.name;
    aggregate.kind = storage.kind;
    aggregate.writeBytesPerSecond += count * storage.writeBytesPerSecond;
    aggregate.readBytesPerSecond += count * storage.readBytesPerSecond;
    aggregate.iops += count * storage.iops;
    aggregate.metadataOpsPerSecond += count * storage.metadataOpsPerSecond;
    aggregate.metadataOpsPerFileOpen
        = std::max(aggregate.metadataOpsPerFileOpen, storage.metadataOpsPerFileOpen);
    aggregate.clientBytesPerSecond += count * storage.clientBytesPerSecond;
    aggregate.capacityBytes += count * storage.capacityBytes;
    aggregate.powerWatts += count * storage.powerWatts;
    aggregate.priceUsd += count * storage.priceUsd;
}

std::string starvingStagesText(const DataPathPhase &phase)
{
    std::vector<const DataPathStage *> over;
    for (const DataPathStage &stage : phase.stages)
        if (stage.utilisation() > 1)
            over.push_back(&stage);
    std::sort(over.begin(), over.end(), [](const DataPathStage *a, const DataPathStage *b) {
        return a->utilisation() > b->utilisation();
    });
    std::vector<std::string> named;
    for (const DataPathStage *stage : over) {
        char share[32];
        std::snprintf(share, sizeof share, " (%.0f%%)", 100 * stage->utilisation());
        named.push_back(stage->name + share);
    }
    return joinedList(named);
}

double storageFeedSamplesPerSecond(const StorageSpec &storage, int count,
                                   const DatasetSpec &dataset, int sequenceTokens)
{
    DataPathInputs in;
    in.dataset = dataset;
    addStorageSystems(in.storage, storage, count);
    in.sequenceTokens = sequenceTokens;
    if (dataset.tokenShards() && sequenceTokens <= 0)
        return 0.0;
    double feed = std::numeric_limits<double>::infinity();
    for (const DataPathStage &stage : stageCapacities(in, sampleCost(in)))
        if (stage.name != "storage network" && readsStorage(stage.name))
            feed = std::min(feed, stage.capacitySamplesPerSecond);
    return std::isfinite(feed) ? feed : 0.0;
}

double datasetPositions(const DatasetSpec &dataset)
{
    // Token shards count tokens as samples.
    return dataset.samples * (dataset.tokenShards() ? 1.0 : dataset.tokensPerSample);
}

double datasetBytes(const DatasetSpec &dataset)
{
    // Token shards count tokens as samples, so bytes per sample are per token there too.
    return dataset.samples * dataset.bytesPerSample;
}

DataPathEstimate estimateDataPath(const DataPathInputs &in)
{
    DataPathEstimate result;
    const DatasetSpec &d = in.dataset;
    const double positionsPerSample
        = d.tokenShards() ? static_cast<double>(in.sequenceTokens) : d.tokensPerSample;
    if (d.id.empty() || in.storage.readBytesPerSecond <= 0 || in.nodes <= 0
        || positionsPerSample <= 0 || in.tokensPerSecond <= 0)
        return result;
    result.present = true;
    result.dataset = d.name;
    const SampleCost cost = sampleCost(in);
    result.bytesPerSample = cost.bytes;
    result.samplesPerSecond = in.tokensPerSecond / positionsPerSample;
    result.requiredReadBytesPerSecond = result.samplesPerSecond * cost.bytes;
    result.requiredIops = result.samplesPerSecond * cost.readRequests;
    result.requiredMetadataOpsPerSecond
        = result.samplesPerSecond * cost.fileOpens * in.storage.metadataOpsPerFileOpen;
    result.metadataSharesIops = in.storage.kind == "nfs";
    // Each node's cache keeps what the node has read (its page cache and local NVMe): a
    // reshuffled epoch finds there only what earlier epochs dealt the same node (laterEpochs).
    const double bytes = datasetBytes(d);
    // A run shorter than one pass reads every sample once: nothing is read again from a cache.
    result.epochs = std::max(1.0, in.epochs > 0 ? in.epochs : d.epochs);
    const double cacheShare = bytes > 0 ? std::min(1.0, in.localCacheBytesPerNode / bytes) : 0.0;

    const std::vector<DataPathStage> capacities = stageCapacities(in, cost);
    result.firstEpoch = phase(capacities, result.samplesPerSecond, 1.0);
    const LaterEpochs later = laterEpochs(capacities, result.samplesPerSecond, result.epochs,
                                          static_cast<double>(in.nodes), cacheShare);
    result.cacheHitRatio = later.meanHitRatio;
    result.warm = later.epochs > 0
        ? phase(capacities, result.samplesPerSecond, 1.0 - result.cacheHitRatio)
        : result.firstEpoch;
    if (later.epochs > 0)
        result.warm.stallFraction = 1.0 - later.epochs / later.slowdownEpochs;
    const double slowdown = (slowdownOf(result.firstEpoch) + later.slowdownEpochs) / result.epochs;
    result.stallFraction = 1.0 - 1.0 / slowdown;
    result.stagingSeconds = stagingSeconds(in, bytes);
    result.waitSeconds
        = result.epochs * datasetSamples(d, in) / result.samplesPerSecond * (slowdown - 1.0);
    result.cpuCoresPerNode = in.cpuCoresPerNode;
    result.trainingProcessesPerNode = in.gpusPerNode;
    result.cpuCoresNeededPerNode
        = result.samplesPerSecond / static_cast<double>(in.nodes) * cost.decodeCoreSeconds
        + in.gpusPerNode;

    double storageUtilisation = 0;
    for (const DataPathStage &stage : result.firstEpoch.stages)
        if (stage.name != "storage network" && readsStorage(stage.name))
            storageUtilisation = std::max(storageUtilisation, stage.utilisation());
    result.storageSystemsNeeded = std::max<long long>(
        1, static_cast<long long>(std::ceil(in.storageSystems * storageUtilisation - 1e-9)));
    const DataPathPhase &worse = result.worsePhase();
    if (worse.stallFraction > 0)
        result.advice
            = adviceFor(worse.limitingStage, result.storageSystemsNeeded, in.storageSystems);
    // Copying the dataset onto every node's NVMe before the run (one sequential stream of
    // N copies, no small-file operations) beats waiting when it takes less time.
    if (result.stagingSeconds > 0 && result.stagingSeconds < result.waitSeconds)
        result.advice = "stage a copy of the dataset on each node's NVMe before training ("
            + shortDuration(result.stagingSeconds) + " against " + shortDuration(result.waitSeconds)
            + " of waiting), or " + result.advice;
    // A first epoch that stalls while the node caches fill costs a run of many epochs little:
    // say that the advice is for the first epochs alone, not an alarm for the run.
    else if (!result.advice.empty() && result.stallFraction < 0.01)
        result.advice = "only the first epochs wait, while the node caches fill; to spare them, "
            + result.advice;
    return result;
}

} // namespace cp::model
