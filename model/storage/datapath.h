// SPDX-License-Identifier: GPL-3.0-or-later
// The data loader's path from storage to the GPUs as a pipeline of stages (docs/storage-model.md).
#pragma once

#include "model/catalog/catalogitems.h"

#include <string>
#include <vector>

namespace cp::model {

/** What the data path is built from and what the training step asks of it. */
struct DataPathInputs
{
    DatasetSpec dataset;
    /** The storage the nodes read from, all systems together (rates summed). */
    StorageSpec storage;
    int storageSystems = 1;
    long long nodes = 0;
    int gpusPerNode = 0;
    int cpuCoresPerNode = 0;
    double localCacheBytesPerNode = 0;
    /** What one node's path to storage carries: its storage NICs, or its compute NICs over the
     * fabric's oversubscription when the storage shares the fabric (its uplinks); 0: unknown,
     * no storage-network stage. */
    double nodeNetworkBytesPerSecond = 0;
    int sequenceTokens = 0; ///< the run's sequence length: one sample of a token dataset
    /** Model positions per second the GPUs consume at the estimated step time. */
    double tokensPerSecond = 0;
    /** Passes over the dataset the run makes; 0: the dataset's own figure. A token budget sets
     * it: budget / (samples x positions per sample). */
    double epochs = 0;
    /** Largest read one request carries: NFS's rsize limit and Lustre's default RPC (1 MiB). */
    double readRequestBytes = 1024.0 * 1024.0;
};

/** One stage of the path in one phase (first epoch, or warm cache). */
struct DataPathStage
{
    std::string name; ///< "storage read bandwidth", "storage IOPS", "metadata", ...
    double capacitySamplesPerSecond = 0; ///< what the stage sustains, whole cluster
    double demandSamplesPerSecond = 0; ///< what the GPUs consume through it
    /** The share of a cold sample's cost a sample the node's cache holds still costs the stage:
     * an NFS open revalidates with the server (close-to-open), one operation of its 1 + 3. */
    double hitCostShare = 0;
    double utilisation() const
    {
        return capacitySamplesPerSecond > 0 ? demandSamplesPerSecond / capacitySamplesPerSecond
                                            : 0.0;
    }
};

/** The data path of one phase: its stages, the slowest one and the stall it causes. */
struct DataPathPhase
{
    std::vector<DataPathStage> stages;
    std::string limitingStage; ///< the stage with the highest utilisation
    double feedSamplesPerSecond = 0; ///< the slowest stage's capacity
    /** Share of the step the GPUs wait for data: 1 - feed / demand when the feed is short. */
    double stallFraction = 0;
};

struct DataPathEstimate
{
    bool present = false; ///< false when no dataset or no storage was given
    std::string dataset;
    double bytesPerSample = 0;
    double samplesPerSecond = 0; ///< demand at the estimated step time
    double requiredReadBytesPerSecond = 0; ///< first epoch (cold cache)
    double requiredIops = 0;
    double requiredMetadataOpsPerSecond = 0;
    /** An NFS server answers the opens' metadata from its IOPS budget: the two add up there. */
    bool metadataSharesIops = false;
    double epochs = 1; ///< passes over the dataset the stall is averaged over
    /** Reads the nodes' caches serve in the epochs after the first, on average over them (each node
     * caches what it reads; a reshuffled epoch deals it new samples). */
    double cacheHitRatio = 0;
    DataPathPhase firstEpoch;
    /** Epochs 2..n at their mean cache hits, with their time-weighted stall; equal to
     * firstEpoch for a single pass. */
    DataPathPhase warm;
    /** Time-weighted over the run's epochs. */
    double stallFraction = 0;
    /** Seconds the GPUs wait for data over the run. */
    double waitSeconds = 0;
    /** Copying the dataset onto every node's NVMe before the run; 0 when it does not fit. */
    double stagingSeconds = 0;
    double cpuCoresNeededPerNode = 0; ///< decode plus one core per training process
    int cpuCoresPerNode = 0; ///< what a node has
    int trainingProcessesPerNode = 0; ///< one per GPU, each pinned to a core
    /** Storage systems of this kind that keep the first epoch fed (read, IOPS, metadata). */
    long long storageSystemsNeeded = 0;
    std::string advice; ///< what to add when the path stalls (in the worse phase)
    /** The phase that stalls more: the first epoch, or the later ones when decode limits. */
    const DataPathPhase &worsePhase() const
    {
        return firstEpoch.stallFraction >= warm.stallFraction ? firstEpoch : warm;
    }
};

/**
 * The data path of a training run: storage read bandwidth, storage IOPS, metadata operations,
 * the storage network and CPU decode, each with its capacity in samples per second; the slowest
 * sets the feed and, below the GPUs' demand, the step stalls by the difference (the loader's
 * prefetch queue, two batches per worker in PyTorch's DataLoader, only hides variance, not a
 * shortfall). After the first epoch each node's cache serves the samples earlier epochs dealt it
 * (a reshuffle deals a node a random 1/N of the dataset each epoch); where copying the dataset onto
 * every node before the run takes less time than the waiting, the advice says so.
 */
DataPathEstimate estimateDataPath(const DataPathInputs &inputs);

/**
 * Adds `count` systems of `storage` to the aggregate a run reads from: rates and budgets add up
 * (the data is striped over them); a client mounts each, so its limit adds up too; the metadata
 * cost of one open is the worst of the kinds.
 */
void addStorageSystems(StorageSpec &aggregate, const StorageSpec &storage, int count);

/**
 * The stages that cannot keep up in `phase`, slowest first, with how far over they are:
 * "storage read bandwidth (134%) and storage IOPS (116%)"; empty when none is.
 */
std::string starvingStagesText(const DataPathPhase &phase);

/**
 * Samples per second `count` systems of `storage` deliver of `dataset` on their own (read
 * bandwidth, IOPS, metadata: the storage's side of the path, whatever the servers), for a run of
 * `sequenceTokens` (token shards). 0 without a dataset.
 */
double storageFeedSamplesPerSecond(const StorageSpec &storage, int count,
                                   const DatasetSpec &dataset, int sequenceTokens);

/** Model positions in the whole dataset: tokens of token shards, samples x positions else. */
double datasetPositions(const DatasetSpec &dataset);

/** Bytes of the whole dataset on storage. */
double datasetBytes(const DatasetSpec &dataset);

} // namespace cp::model
