// SPDX-License-Identifier: GPL-3.0-or-later
#include "model/storage/datapath.h"

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
        // READ (SPEC SFS counts them all as ops): there is no metadata service apart.
        stages.push_back({"storage IOPS", s.iops / (cost.readRequests + metadataOps), 0});
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

/** One phase: the stages' demand when a fraction `missRatio` of samples comes from storage. */
DataPathPhase phase(std::vector<DataPathStage> stages, double samplesPerSecond, double missRatio)
{
    DataPathPhase result;
    double highest = 0;
    for (DataPathStage &stage : stages) {
        stage.demandSamplesPerSecond
            = samplesPerSecond * (readsStorage(stage.name) ? missRatio : 1.0);
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

/** Run-average stall: the first epoch at its pace, the others at the warm pace. */
double averageStall(const DataPathPhase &first, const DataPathPhase &warm, double epochs)
{
    const double firstSlowdown = 1.0 / (1.0 - first.stallFraction);
    const double warmSlowdown = 1.0 / (1.0 - warm.stallFraction);
    const double slowdown = (firstSlowdown + (epochs - 1.0) * warmSlowdown) / epochs;
    return 1.0 - 1.0 / slowdown;
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
    std::string text;
    for (std::size_t i = 0; i < over.size(); ++i) {
        char share[32];
        std::snprintf(share, sizeof share, " (%.0f%%)", 100 * over[i]->utilisation());
        text += (i == 0 ? "" : i + 1 == over.size() ? " and " : ", ") + over[i]->name + share;
    }
    return text;
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
    // The loader stages the dataset on each node's NVMe when it fits; otherwise uniform random
    // reads find the cached fraction.
    const double bytes = datasetBytes(d);
    // A run shorter than one pass reads every sample once: nothing is read again from a cache.
    result.epochs = std::max(1.0, in.epochs > 0 ? in.epochs : d.epochs);
    result.cacheHitRatio
        = result.epochs > 1 && bytes > 0 ? std::min(1.0, in.localCacheBytesPerNode / bytes) : 0.0;

    const std::vector<DataPathStage> capacities = stageCapacities(in, cost);
    result.firstEpoch = phase(capacities, result.samplesPerSecond, 1.0);
    result.warm = result.epochs > 1
        ? phase(capacities, result.samplesPerSecond, 1.0 - result.cacheHitRatio)
        : result.firstEpoch;
    result.stallFraction = averageStall(result.firstEpoch, result.warm, result.epochs);
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
    // A first epoch that stalls while the node caches fill costs a run of many epochs little:
    // say that the advice is for it alone, not an alarm for the run.
    if (!result.advice.empty() && result.stallFraction < 0.01 && result.warm.stallFraction <= 0)
        result.advice = "only the first epoch waits, while the node caches fill; to spare it, "
            + result.advice;
    return result;
}

} // namespace cp::model
