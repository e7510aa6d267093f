// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "model/catalog/catalogitems.h"
#include "model/cluster/clusterdescription.h"
#include "model/core/units.h"
#include "model/inference/servingengine.h"
#include "model/scheduling/schedulingtypes.h"
#include "model/training/trainingestimate.h"

#include <nlohmann/json.hpp>

#include <optional>
#include <string>
#include <vector>

namespace cp::model {

/** A number of identical nodes (servers), and the racks they go in. */
struct NodeGroup
{
    /** The most servers one group holds (a plan file's `count`, a sweep, a paste, the form). */
    static constexpr int maxCount = 1 << 22;
    /** The most servers a group may put in one rack (`nodes_per_rack`). */
    static constexpr int maxNodesPerRack = 256;

    std::string name;
    std::string nodeId;
    int count = 0;
    std::string rackId; ///< empty: not placed in racks
    int nodesPerRack = 0; ///< 0: as many as fit by power and rack units
    /** Its NICs are cabled to the plan's fabric. A group off the fabric still draws power and
     * costs money, but adds no fabric ports and cannot join a multi-node training job. */
    bool onFabric = true;
    /** The compute row of the data hall its first cabinet stands in (a drag in the Data hall
     * view sets it); -1: right after the group before it. Rows count compute rows only, front
     * to back, from 0. */
    int hallRow = -1;
};

struct FabricPlan
{
    std::string topology = "fat-tree"; ///< fat-tree, rail-fat-tree, dragonfly, torus, none
    std::string nicId; ///< empty: the node type's NIC
    int nicsPerNode = 0; ///< 0: the node type's NIC count
    std::string switchId;
    int tiers = 0; ///< 0: the fewest that fit; 1: one switch (fat-tree); 2 or 3
    double oversubscription = 1.0;
    /**
     * Each server's path to storage, per direction: a storage network of its own at this rate,
     * 0 for storage on the compute fabric (its NICs, its oversubscription); none: the server
     * type's own (the catalog's storage_network_gb_per_s).
     */
    std::optional<double> storageNetworkBytesPerSecond;
    /** Dragonfly a (routers per group), p (endpoints per router), h (global links per router),
     * groups; 0 = derived (fabricdesign.h). */
    int dragonflyA = 0;
    int dragonflyP = 0;
    int dragonflyH = 0;
    int dragonflyGroups = 0;
    std::string torusDims; ///< "4x4x4"; empty for other topologies
    int nodesPerScalableUnit = 0; ///< rail-fat-tree; 0: the size that needs the fewest switches
    /** rail-fat-tree: every rail a fat-tree of its own (RailFatTreeParameters::multiPlane). */
    bool multiPlane = false;
    /**
     * Switches taken out for a failure what-if, by their generated label ("spine-5",
     * "leaf-su3-rail2"); the estimate runs on the fabric without them.
     */
    std::vector<std::string> failedSwitches;
    /**
     * Cables taken out, each as "A:B" with the generated labels of its two ends
     * ("leaf-su0-rail3:spine-7"); a pair listed k times loses k of its parallel cables.
     */
    std::vector<std::string> failedLinks;
};

struct StoragePlan
{
    std::string storageId;
    int count = 1;
    bool onFabric = true; ///< reachable from the servers; off it, no checkpoint or data feed
};

struct FacilityPlan
{
    std::string facilityId;
    std::optional<double> pue;
    std::optional<double> electricityUsdPerKwh;
    std::optional<double> carbonKgPerKwh;
    /** What the hall can deliver to the cluster, facility side (IT x PUE); none: unchecked. */
    std::optional<double> powerLimitWatts;
};

struct InferenceWorkload
{
    std::string modelId;
    Precision precision = Precision::FP16;
    Precision kvPrecision = Precision::FP16;
    int inputTokens = 0;
    int outputTokens = 0;
    std::optional<int> batch;
    std::optional<double> ratePerSecond;
    std::optional<double> ttftP95Ms;
    std::optional<double> tpotP95Ms;
    std::optional<int> gpusPerReplica;
    std::optional<int> pipelineStages; ///< across nodes; see InferenceJob::pipelineStages
    std::string engineId; ///< serving engine profile (servingengine.h); empty: the newest
    /** The engine's cap on sequences per batch (InferenceJob::maxBatch); unset: the profile's
     * default. */
    std::optional<int> maxBatch;
    /** A fixed fleet serving rate_per_s (InferenceJob::replicas); unset: as many as the targets
     * need. */
    std::optional<int> replicas;
    /** An offline job of this many requests, queued at once (InferenceJob::offlineRequests);
     * the replicas, or one, share it. Not with rate_per_s. */
    std::optional<long long> offlineRequests;
    SpeculativeDecoding speculative;
    /** Traffic of each hour of the day, any unit; the busiest hour runs at rate_per_s. Empty:
     * static traffic. See diurnalautoscaling.h. */
    std::vector<double> diurnalRates;
};

/**
 * The jobs the cluster runs besides (or instead of) the plan's one workload, and the scheduler
 * they go through (schedulersimulation.h): `plan simulate` and the comparison's queue rows.
 */
struct PortfolioPlan
{
    std::vector<JobClass> classes;
    std::vector<ServiceClass> services; ///< serving fleets kept up hour by hour
    SchedulingPolicy policy = SchedulingPolicy::EasyBackfill;
    bool topologyAware = true;
    bool spread = false; ///< small jobs on the emptiest server (Kubernetes' default scoring)
    bool servicesPreempt = false; ///< service replicas stop lower-priority batch jobs
    bool operator==(const PortfolioPlan &) const = default;
};

/** The room's named dimensions (datahall.h): how the data hall is laid out and cables measured. */
struct HallPlan
{
    int cabinetsPerRow = 10; ///< compute cabinets per row; each row ends in its network cabinet
    double rowPitchMeters = 2.4; ///< one 1.2 m cabinet depth plus one 1.2 m aisle
    double cabinetWidthMeters = 0.6;
    bool operator==(const HallPlan &) const = default;
};

/**
 * Identical buildings (or halls) the plan's servers, fabric, storage and racks are copies of,
 * joined by a data-centre interconnect: the plan as drawn is one building. One building: no
 * interconnect.
 */
struct CampusPlan
{
    int buildings = 1;
    double interconnectBytesPerSecondPerBuilding = 0; ///< out of each building, per direction
    double distanceKm = 2.0; ///< fibre between buildings, for the latency
    double usdPerGbps = 0; ///< the interconnect's price per Gb/s of each building's capacity
    double wattsPerGbps = 0; ///< and its power
    bool operator==(const CampusPlan &) const = default;

    /** The interconnect's capacity out of every building together, in Gb/s (what its price and
     * power are quoted per). */
    double interconnectGbps() const
    {
        return interconnectBytesPerSecondPerBuilding * units::bitsPerByte / units::giga * buildings;
    }
    double interconnectUsd() const { return interconnectGbps() * usdPerGbps; }
    double interconnectLatencySeconds() const { return distanceKm * fibreSecondsPerKm; }
    double interconnectWatts() const { return interconnectGbps() * wattsPerGbps; }
};

enum class WorkloadType { None, Training, Inference };

/**
 * A named what-if variant of the plan: `changes` is a JSON merge patch (RFC 7396) over the
 * baseline plan's JSON, e.g. {"fabric": {"nic": "roce-400g", "oversubscription": 2}}, so a
 * scenario records only what differs and follows later edits of everything else
 * (scenarios.h builds the plan it describes).
 */
struct Scenario
{
    std::string name;
    nlohmann::json changes = nlohmann::json::object();
};

/**
 * The design a user builds: nodes and racks, fabric, storage, facility, and the workload it is
 * for. Saved as versioned JSON (planio.h). `layout` carries the canvas's item positions opaquely
 * so the model round-trips what the editor stores without knowing about it.
 */
struct Plan
{
    static constexpr const char *formatName = "clusterplanner-plan";
    static constexpr int formatVersion = 1;
    /** The most server groups a plan holds (a group is any number of one server type): the
     * canvas draws a card and a cable for each, and 1,024 open in about a second where 20,000
     * took 55 s. */
    static constexpr std::size_t maxNodeGroups = 1024;
    /** The most what-if scenarios beside the baseline: each is a column of the comparison and a
     * section of the report (500 compared in 1.9 s and made a 234-page PDF in 4 s; thousands
     * would take minutes and no one could read the table). */
    static constexpr std::size_t maxScenarios = 256;
    /** The most storage entries (each any number of one storage type, one canvas card): 5,000
     * took 5 s to open in the desktop program. */
    static constexpr std::size_t maxStorageEntries = 256;
    /** The most job classes and services a portfolio holds: a shared cluster's workload comes in
     * tens of them; 100,000 took 23 s to read (each name checked against every other) and a
     * comparison did not finish in two minutes. */
    static constexpr std::size_t maxPortfolioEntries = 1024;

    std::string name;
    std::string description;
    std::vector<NodeGroup> nodeGroups;
    FabricPlan fabric;
    std::vector<StoragePlan> storage;
    FacilityPlan facility;
    HallPlan hall;
    CampusPlan campus;
    PortfolioPlan portfolio; ///< empty: no queue is simulated
    WorkloadType workloadType = WorkloadType::None;
    std::string trainingModelId;
    /** Multi-token prediction blocks the run trains (Megatron-Core's mtp_num_layers); unset:
     * the model's own (ModelSpec::mtpLayers). */
    std::optional<int> trainingMtpLayers;
    /** What the training data loader reads (catalog datasets); empty: packed text tokens. */
    std::string trainingDatasetId;
    /** Checkpoints copied to host memory and written in the background (trainingrun.h). */
    bool asyncCheckpoints = false;
    TrainingJob training; ///< training.model is filled from the catalog when estimating
    InferenceWorkload inference;
    nlohmann::json layout = nlohmann::json::object();
    std::vector<Scenario> scenarios; ///< what-if variants besides this baseline

    int totalNodes() const;
};

} // namespace cp::model
