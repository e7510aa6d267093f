// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "model/inference/diurnalautoscaling.h"
#include "model/inference/inferenceestimate.h"
#include "model/planning/servinguse.h"
#include "model/planning/trainingrun.h"
#include "model/training/trainingestimate.h"
#include "model/validation/publishedruncomparison.h"
#include "model/validation/publishedservingcomparison.h"

#include <optional>
#include <string>
#include <vector>

namespace cp::model {

struct BillOfMaterialsLine
{
    std::string category; ///< GPUs, Nodes, NICs, Switches, Optics, Cables, Storage, Racks
    std::string itemId;
    std::string name;
    long long count = 0;
    double unitPriceUsd = 0;
    double totalUsd() const { return static_cast<double>(count) * unitPriceUsd; }
};

/** IT power at full load, by part of the cluster. */
struct PowerBreakdown
{
    double gpusWatts = 0;
    double nodesWatts = 0; ///< CPUs, memory, fans, NICs (everything in a node but its GPUs)
    double networkWatts = 0; ///< switches and optics
    double storageWatts = 0;
    double pue = 1.0;
    double itWatts() const { return gpusWatts + nodesWatts + networkWatts + storageWatts; }
    /** Facility power: IT power times PUE (The Green Grid, "PUE: a comprehensive examination",
     * 2012). */
    double facilityWatts() const { return itWatts() * pue; }
};

struct RackUsage
{
    std::string groupName;
    std::string rackId;
    std::string rackName; ///< the catalog's name, for people
    int nodesPerRack = 0;
    int racks = 0;
    double wattsPerRack = 0;
    double rackLimitWatts = 0;
};

struct FabricCounts
{
    std::string topology;
    long long endpoints = 0;
    /** Leaf ports the fabric keeps for storage that shares it (PlanFabric::storagePortsOnLeaves).
     */
    long long storagePorts = 0;
    long long leafSwitches = 0; ///< tier 1: leaf switches, Dragonfly routers
    long long spineSwitches = 0;
    long long coreSwitches = 0;
    long long cables = 0;
    long long optics = 0; ///< transceivers, two per optical cable
    long long switches() const { return leafSwitches + spineSwitches + coreSwitches; }
};

/**
 * A campus of identical buildings (CampusPlan): the plan estimate's hardware figures are one
 * building's; these are the whole campus's, with the interconnect between the buildings.
 */
struct CampusTotals
{
    int buildings = 1;
    long long gpus = 0;
    long long nodes = 0;
    double itWatts = 0; ///< every building at full load, and the interconnect
    double facilityWatts = 0; ///< the same times the PUE
    double capitalUsd = 0; ///< every building's bill of materials, and the interconnect
    double interconnectBytesPerSecondPerBuilding = 0;
    double interconnectLatencySeconds = 0;
    double interconnectUsd = 0;
    double interconnectWatts = 0;
    /** The training run's hot spare nodes, bought with their GPUs for the whole campus (one
     * building's bill of materials does not hold them); in capitalUsd. */
    long long spareNodes = 0;
    double sparesUsd = 0;
    /** "; with 94 hot spare nodes, $33.8 M", for a line that gives capitalUsd; empty without
     * spares. */
    std::string sparesText() const;
};

/** Everything `plan estimate` reports for a plan. */
struct PlanEstimate
{
    std::string planName;
    std::string gpuId;
    std::string gpuName;
    int gpus = 0;
    int nodes = 0;
    double peakDenseFlopsPerSecond = 0; ///< BF16/FP16, whole cluster
    /** FP8, whole cluster; 0 where its GPUs have no FP8 tensor cores (A100, L4's is INT8). */
    double peakDenseFp8FlopsPerSecond = 0;
    /**
     * The precision the workload's GEMMs run in: the training job's, or the serving engine's
     * compute precision for the weights (FP8 weights compute in FP8 on an H100 and in FP16 on an
     * A100). Unset without a workload. An FP8 workload's throughput answers to the FP8 peak, which
     * the BF16/FP16 figure alone hid.
     */
    std::optional<Precision> workloadComputePrecision;
    bool computesInFp8() const { return workloadComputePrecision == Precision::FP8; }
    double gpuMemoryBytes = 0; ///< whole cluster
    FabricCounts fabric;
    PowerBreakdown power;
    std::vector<RackUsage> racks;
    /** Cabinets for the fabric's switches beyond the servers' (datahall.h: one at the end of each
     * row for its leaves, a spine row in the middle), priced as the first group's cabinet. */
    long long networkCabinets = 0;
    long long storageCabinets = 0; ///< cabinets of the storage systems (datahall.h)
    /** The out-of-band management network (datahall.h): its switches and cables. */
    long long managementSwitches = 0;
    long long managementCables = 0;
    /** The data hall as a whole (datahall.h): rows in the room, cabinets of every kind, those over
     * a limit, and the cabinets' PDUs and patch panels; 0 without racks. */
    int hallRows = 0;
    long long hallRacks = 0;
    long long overLimitRacks = 0;
    long long pdus = 0;
    long long patchPanels = 0;
    /** The storage network (datahall.h): its own switches, and its cables (servers' storage ports
     * and storage systems' ports, to those switches or to free fabric leaf ports). */
    long long storageSwitches = 0;
    long long storageCables = 0;
    /** The fabric's cables by the medium their length needs in the data hall (datahall.h), in
     * CableMedium order, with the longest run; empty without a fabric or racks. */
    std::vector<std::pair<std::string, long long>> cablesByMedium;
    double longestCableMeters = 0;
    std::vector<BillOfMaterialsLine> billOfMaterials;
    double capitalCostUsd = 0;
    double electricityUsdPerKwh = 0;
    std::vector<std::string> warnings;
    /**
     * Why the plan's fabric cannot be built (too few endpoints, no switch for the NIC, an
     * impossible parameter); empty when it can. With an error the fabric's counts, power and
     * cost are unknown, never zero, and no training job is estimated on it.
     */
    std::string fabricError;
    /** Set for a plan of more than one building: its whole-campus totals. */
    std::optional<CampusTotals> campus;
    /** The facility's power budget (IT x PUE at full load), when the plan sets one. */
    std::optional<double> facilityPowerLimitWatts;
    bool overPowerBudget() const
    {
        return facilityPowerLimitWatts && power.facilityWatts() > *facilityPowerLimitWatts;
    }
    /** What the IT power and capital cost leave out when the fabric cannot be built (its
     * switches, optics and their power are unknown): " without the fabric, which cannot be
     * built", or empty. A bare $50.0 M read as the design's price, $5 M under it. */
    std::string partialHardwareNote() const
    {
        return fabricError.empty() ? std::string()
                                   : std::string(" without the fabric, which cannot be built");
    }

    /**
     * The failure what-if (plan.fabric.failedSwitches and failedLinks): what failed by display
     * name, the training nodes they cut off (they leave the job), and the step on the intact fabric
     * to compare with; empty and 0 when nothing failed.
     */
    std::vector<std::string> failedSwitches;
    /** plan.fabric.failedLinks per switch pair: "spine 3 – leaf 1: 1 of 2 cables". */
    std::vector<std::string> failedLinks;
    long long nodesCutOffByFailures = 0;
    double intactStepSeconds = 0;

    bool hasTraining = false;
    TrainingSearchResult training; ///< `best` holds the estimate when found
    std::string trainingError;
    bool hasTrainingRun = false;
    TrainingRunEstimate trainingRun; ///< power at utilisation, energy, cost, failures
    /** The training estimate set against the published runs on its GPU and precision (empty
     * `runs` with the reason when there are none). */
    PublishedRunComparison trainingPublishedRuns;

    /** Every GPU the plan buys: the campus's, in all its buildings, or the one building's. */
    long long planGpus() const { return campus ? campus->gpus : gpus; }
    /**
     * The plan has the GPUs its serving fleet needs. Replicas are independent, so a campus's
     * fleet may span its buildings: one test for the warning, the cost over every GPU, the star
     * and the time-cost plane (a 2-building plan of 64 L4s each warned that a fleet of 86 GPUs
     * did not fit).
     */
    bool holdsServingFleet() const { return inference.fleetGpus() <= planGpus(); }

    bool hasInference = false;
    InferenceEstimate inference;
    /** How far the inference estimator has been from the published measurements on this GPU
     * with these weights (empty figures with the reason when there are none). */
    PublishedServingComparison inferencePublishedRuns;
    /** The plan's GPUs against those the serving load keeps busy, when it is served. */
    std::optional<ServingUse> servingUse;
    /** With a diurnal profile: replica-hours when the fleet follows each hour's traffic. */
    std::optional<AutoscalingEstimate> autoscaling;
    std::string workloadNote; ///< what was not estimated, and why
};

} // namespace cp::model
