// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "model/operations/operationsestimator.h"

#include <string>

namespace cp::model {

/**
 * What sizing a run's storage for its checkpoints weighs: the run's failures and checkpoints
 * with the storage it has, what that storage costs per second per system, and what the whole
 * cluster costs per second.
 */
struct CheckpointStorageInputs
{
    /** The run's failures and checkpoints with its storage as it is (estimateReliability). */
    ReliabilityInputs reliability;
    int systems = 1; ///< storage systems the run has now (the rates above are theirs together)
    /** The fewest systems the run can have: those that hold its data and checkpoints and feed
     * its loader (sizeStorage). */
    long long fewestSystems = 1;
    /** Every node writes its shard of a checkpoint at once over its own path to storage: its
     * network, and at most what it reads from each system it mounts (an NFS mount's 1.28 GB/s;
     * 0: no such limit), so a node's path is min(network, systems x per-system limit). */
    double nodes = 0;
    double nodeNetworkBytesPerSecond = 0;
    double systemClientBytesPerSecond = 0;
    /** One system's write and read rates (the storage's, divided by `systems`). */
    double systemWriteBytesPerSecond = 0;
    double systemReadBytesPerSecond = 0;
    /** The cluster's cost per second without its storage: amortised capital and energy, or the
     * cloud's GPU-hour price. */
    double clusterUsdPerSecond = 0;
    /** One system's cost per second: its price over the hardware's life and its power. */
    double systemUsdPerSecond = 0;
};

struct CheckpointStorageSizing
{
    /** Systems at which the run costs least per second of useful work: past them one more system
     * costs more than the GPU time its faster checkpoints and restores save, and below them one
     * fewer loses more GPU time than it saves. Never below `fewestSystems`; may be below the
     * run's own count, which then buys storage its checkpoints do not repay. */
    long long systems = 0;
    long long systemsNow = 0; ///< the run's own count
    long long fewestSystems = 0; ///< where the search started: what the data needs
    double goodputNow = 0; ///< the run's goodput with its own count
    double goodput = 0; ///< the run's goodput with `systems`
    /** The checkpoint's write (drain, when asynchronous) with the run's count and with the sized
     * count. */
    double writeSecondsNow = 0;
    double writeSecondsSized = 0;
    bool asynchronous = false; ///< written in the background after a copy to host memory
    /**
     * The run's storage limits its goodput: more systems would cost less per useful second and
     * shorten the wall time by 1% or more. A smaller saving is within the estimate's own error
     * (a 1M-GPU run that fails every few minutes gains 0.9% from 60% more storage: its restarts,
     * not its storage, hold it back).
     */
    bool storageLimitsGoodput() const
    {
        return systems > systemsNow && goodputNow > 0 && goodputNow <= 0.99 * goodput;
    }
    /** The run has more systems than its checkpoints repay (and its data does not need them). */
    bool fewerWouldDo() const { return systems > 0 && systems < systemsNow; }
    /** Share of the wall time training stops to checkpoint, with the run's storage and with the
     * sized count. */
    double checkpointWallFractionNow = 0;
    double checkpointWallFractionSized = 0;
};

/**
 * One sentence on the run's checkpoint storage for the Estimate panel and the report: what share
 * of the wall time checkpoints take, and, when the sized count differs from the run's in a way
 * that matters, what it would be with that count ("checkpoints stop training 4.3% of the wall
 * time: faster storage pays for itself; 13 systems, the lowest cost per useful hour, would make
 * that 1.2% and raise the goodput from 87.8% to 94.4% ..."). Empty without a sizing.
 */
std::string checkpointStorageText(const CheckpointStorageSizing &sizing);

/**
 * Share of the wall time in which training stands still for checkpoints: a useful second is
 * followed by blocked / interval seconds of checkpoint (Daly's model, the segment of `interval`
 * work then the write), and useful seconds are the goodput's share of the wall time.
 */
double checkpointWallFraction(const ReliabilityEstimate &reliability);

/**
 * The count of storage systems (like the run's, striped together) that minimises the cost per
 * useful second, (cluster + systems' cost per second) / goodput: each system more shortens
 * the checkpoint write and the restore's read (until the nodes' own paths to storage are the
 * limit), and Daly's interval and the goodput follow (estimateReliability). The goodput rises
 * and flattens while the cost grows in a straight line, so the cost per useful second has one
 * minimum, found by a ternary search over the counts. No sizing (systems = 0) without
 * checkpoints to write or without prices.
 */
CheckpointStorageSizing sizeCheckpointStorage(const CheckpointStorageInputs &inputs);

} // namespace cp::model
