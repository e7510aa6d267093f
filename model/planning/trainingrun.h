// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "model/catalog/catalogitems.h"
#include "model/cluster/clusterdescription.h"
#include "model/fabric/fattreegenerator.h"
#include "model/operations/checkpointstorage.h"
#include "model/operations/operationsestimator.h"
#include "model/storage/datapath.h"
#include "model/training/trainingestimate.h"

#include <optional>
#include <string>
#include <vector>

namespace cp::model {

class FabricGraph;

/** The parts and prices a training run is costed with (all from the catalog). */
struct TrainingRunSetup
{
    NodeSpec node;
    NicSpec nic;
    SwitchSpec networkSwitch;
    StorageSpec storage;
    FacilitySpec facility;
    /** NICs a node's price already includes: its own, or the same card run for the other
     * protocol (sameNicCard); the rest of the cluster's NICs are bought. */
    int builtInNicsPerNode = 0;
    /** The plan's bill of materials, every building's and the interconnect (PlanEstimate): when
     * given, the run's capital, so that its cost reconciles with the plan's; spares are added. */
    std::optional<double> billOfMaterialsUsd;
    int spareNodes = -1; ///< -1: enough to cover failed nodes in flight
    double restartOverheadSeconds = 600;
    double nodeReplacementSeconds = 4 * 3600;
    double lifetimeYears = 4;
    std::optional<double> hourlyUsdPerGpu;
    /** Token ids as the data loader reads them: int32 (Megatron's indexed dataset for vocabularies
     * above 65,536; uint16 below). */
    double bytesPerToken = 4;
    /** What the data loader reads (none: the text token feed above, never a bottleneck). */
    std::optional<DatasetSpec> dataset;
    int sequenceTokens = 0; ///< the run's sequence length
    double trainingTokens = 0; ///< the run's token budget (0: the dataset's epochs)
    int storageSystems = 1; ///< systems `storage` sums
    bool storageKindsMixed = false; ///< `storage` sums systems of more than one kind
    /** Checkpoints kept at once: the newest and the one before it, so that a failure while the
     * newest is written still leaves a whole one to restart from. */
    int retainedCheckpoints = 2;
    /** Copy checkpoints to host memory and write them in the background (asyncCopySeconds in
     * operationsestimator.h) instead of stopping training for the write. */
    bool asyncCheckpoints = false;
    /** The out-of-band management switches the run's servers are cabled to (the data hall's,
     * estimatePlan): they draw their power the whole run (their price is in the plan's bill of
     * materials, billOfMaterialsUsd). */
    long long managementSwitches = 0;
    SwitchSpec managementSwitch;
    /** The data hall's cables (cablebill.h) and its storage network's switches, when the plan's
     * servers stand in racks: their transceivers and power replace the optics counted by the
     * fabric's link media (their price is in the plan's bill of materials). */
    struct HallCabling
    {
        long long transceivers = 0; ///< the compute fabric's (the storage network's are in watts)
        double watts = 0;
    };
    std::optional<HallCabling> hallCabling;
    /** The data-centre interconnect between buildings (ClusterDescription::buildings): its
     * optics and line systems, bought with the cluster and powered the whole run. */
    double interconnectUsd = 0;
    double interconnectWatts = 0;
};

/** Power, energy, money and failures of one training run, with the counts behind them. */
struct TrainingRunEstimate
{
    long long nodes = 0;
    long long nics = 0;
    long long switches = 0;
    long long transceivers = 0;
    /** The hardware the run uses: the cluster's (or the plan's bill of materials), and the hot
     * spare nodes, which are bought with their GPUs. */
    double capitalUsd = 0;
    /** Of capitalUsd, the spares' (ReliabilityEstimate::spareNodes nodes with their GPUs). */
    double sparesCapitalUsd = 0;
    double checkpointBytes = 0;
    double gpuBusyFraction = 0;
    double dataFeedBytesPerSecond = 0; ///< tokens/s x bytes per token, read from storage
    /** The data loader's pipeline when the run names a dataset (datapath.h). */
    DataPathEstimate dataPath;
    /** Pinned host memory an asynchronous checkpoint stages on each node (0: synchronous). */
    double checkpointHostBytesPerNode = 0;
    /** Bytes the storage holds for the run: the dataset and the retained checkpoints. */
    double storedBytes = 0;
    /** Systems of the run's storage kind that feed the first epoch and hold storedBytes. */
    long long storageSystemsNeeded = 0;
    /** Training time with the GPUs waiting for data: in-run time / (1 - stall). */
    double trainingSecondsWithStall = 0;
    ReliabilityEstimate reliability;
    OperationsEstimate operations;
    /** Storage systems like the run's whose checkpoints cost least per useful second, and the
     * goodput with them (no sizing, systems 0, without checkpoints or prices). */
    CheckpointStorageSizing checkpointStorage;
    /** What the run's checkpoints cost and the storage count that would cost least, when that
     * count differs from the run's in a way that matters (checkpointStorageText, with the
     * checkpoint's size, interval and write): also among the notes, and, when storage limits
     * the goodput, said where the plan's bottleneck is read. Empty otherwise. */
    std::string checkpointStorageNote;
    std::vector<std::string> notes;
};

/**
 * Costs `estimate` on `cluster`: the fabric's switches and optics are `fabric` (counted on the
 * generated graph or from its layout; the closed-form two-tier count without one); GPUs are
 * busy for compute, memory-bound kernels and the optimizer, idle-ish in exposed communication
 * and bubbles; checkpoints hold 14 bytes per parameter (BF16 weights, FP32 master weights and two
 * Adam moments; Rajbhandari et al., ZeRO, SC20).
 */
TrainingRunEstimate estimateTrainingRun(const ClusterDescription &cluster, const ModelSpec &model,
                                        const TrainingEstimate &estimate,
                                        const TrainingRunSetup &setup,
                                        const std::optional<FabricHardwareCount> &fabric);

} // namespace cp::model
