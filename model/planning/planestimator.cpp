// SPDX-License-Identifier: GPL-3.0-or-later
#include "model/planning/planestimator.h"

#include "model/core/humantext.h"

#include "model/fabric/fabricanalysis.h"
#include "model/fabric/fabricdesign.h"
#include "model/fabric/fabricfailure.h"
#include "model/fabric/fabricscaleout.h"
#include "model/planning/datahall.h"
#include "model/planning/planfabric.h"
#include "model/planning/planfabricfailures.h"
#include "model/planning/planworstfailure.h"
#include "model/planning/trainingrun.h"

#include "model/catalog/catalog.h"
#include "model/cluster/clusterdescription.h"
#include "model/core/units.h"
#include "model/inference/inferenceestimator.h"
#include "model/inference/inferencesetup.h"
#include "model/plan/plan.h"
#include "model/plan/planio.h"
#include "model/training/trainingestimator.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>

namespace cp::model {

FabricCounts twoTierFabricCounts(long long endpoints, int ports, double oversubscription)
{
    FabricCounts counts;
    counts.endpoints = endpoints;
    if (endpoints <= 0 || ports < 2)
        return counts;
    if (endpoints <= ports) {
        counts.leafSwitches = 1;
        counts.cables = endpoints;
        return counts;
    }
    const long long down = std::max<long long>(
        1, static_cast<long long>(std::floor(ports * oversubscription / (oversubscription + 1.0))));
    const long long up = ports - down;
    counts.leafSwitches = (endpoints + down - 1) / down;
    const long long uplinks = counts.leafSwitches * up;
    counts.spineSwitches = (uplinks + ports - 1) / ports;
    counts.cables = endpoints + uplinks;
    return counts;
}

std::string fabricCountsSummary(const FabricCounts &c)
{
    const auto count = [](long long value) {
        return groupedCount(value);
    };
    std::string text = count(c.endpoints) + " ports, ";
    if (c.switches() == 0) {
        text += c.topology == "torus" ? "no switches (the chips route)" : "no switches";
    } else if (c.topology == "dragonfly") {
        text += count(c.switches()) + " routers";
    } else {
        text += count(c.leafSwitches) + " leaf";
        if (c.spineSwitches > 0)
            text += " + " + count(c.spineSwitches) + " spine";
        if (c.coreSwitches > 0)
            text += " + " + count(c.coreSwitches) + " core";
        text += c.switches() == 1 ? " switch" : " switches";
    }
    text += ", " + count(c.cables) + " cables";
    if (c.optics > 0)
        text += " (" + count(c.optics) + " transceivers)";
    return text;
}

namespace {

/** "1 switch", "2 cables", "1 switch and 3 cables". */
std::string failedCountText(const FabricFailures &failures)
{
    const auto count = [](std::size_t n, const char *one, const char *many) {
        return std::to_string(n) + " " + (n == 1 ? one : many);
    };
    std::string text;
    if (!failures.vertices.empty())
        text = count(failures.vertices.size(), "switch", "switches");
    if (!failures.links.empty())
        text += (text.empty() ? "" : " and ") + count(failures.links.size(), "cable", "cables");
    return text;
}

/**
 * The training cluster without what the failed switches cut off, its rings re-measured on the
 * damaged graph (fabricfailure.h); the intact step is kept for comparison.
 */
ClusterDescription applyFabricFailures(PlanEstimate &result, const TrainingJob &job,
                                       const ClusterDescription &cluster, const FabricGraph &graph,
                                       const FabricFailures &failures)
{
    const TrainingSearchResult intact = TrainingEstimator(job, cluster).search();
    result.intactStepSeconds = intact.found ? intact.best.stepSeconds : 0;
    const FabricFailureImpact impact
        = measureFabricFailure(graph, std::max(1, cluster.nicsPerNode), cluster.nodes(), failures,
                               ringSizesForCluster(cluster));
    result.nodesCutOffByFailures = impact.nodesCutOff;
    ClusterDescription after = clusterAfterFailure(cluster, impact);
    for (const auto &[nodes, fraction] : impact.ringRateFraction)
        if (fraction <= 0 && impact.survivingNodes() >= 2)
            after.gpus = 0; // the survivors are split: no one job spans them
    char text[256];
    std::snprintf(text, sizeof text,
                  "failure what-if: %s failed, %lld of %lld training nodes cut off; rings over "
                  "all nodes keep %.0f%% of their intact rate",
                  failedCountText(failures).c_str(), impact.nodesCutOff, impact.nodes,
                  impact.ringRateFraction.empty() ? 100.0
                                                  : 100.0 * impact.ringRateFraction.back().second);
    result.warnings.push_back(text);
    return after;
}

std::string formatMegawatts(double watts)
{
    char text[32];
    std::snprintf(text, sizeof text, "%.1f MW", watts / 1e6);
    return text;
}
} // namespace

namespace {

/** What the stages of estimatePlan share: the inputs, the estimate being built, and what one
 * stage found that a later one needs. */
struct PlanEstimateBuild
{
    const Plan &plan;
    const Catalog &catalog;
    PlanEstimate &result;
    /** A training job runs on the groups cabled to the fabric (all of them when the plan has no
     * fabric: then it is one node or nothing). */
    bool hasFabric = false;
    const NodeSpec *firstNode = nullptr;
    const NodeSpec *trainingNode = nullptr;
    bool mixedGpus = false;
    std::optional<FabricGraph> fabricGraph {};
    std::optional<PlanFabric> planFabric {};
    FabricFailures failures {};
};

/** Adds `count` of an item to the bill of materials, merged with a line of the same item. */
void addBillLine(PlanEstimate &result, const std::string &category, const std::string &id,
                 const std::string &name, long long count, double unitPrice)
{
    if (count <= 0)
        return;
    for (BillOfMaterialsLine &line : result.billOfMaterials) {
        if (line.category == category && line.itemId == id) {
            line.count += count;
            return;
        }
    }
    result.billOfMaterials.push_back({category, id, name, count, unitPrice});
}

void estimateFacility(PlanEstimateBuild &build)
{
    PlanEstimate &result = build.result;
    double pue = 1.0;
    if (!build.plan.facility.facilityId.empty()) {
        const FacilitySpec &facility = build.catalog.facility(build.plan.facility.facilityId);
        pue = build.plan.facility.pue.value_or(facility.pue);
        result.electricityUsdPerKwh
            = build.plan.facility.electricityUsdPerKwh.value_or(facility.electricityUsdPerKwh);
    } else {
        result.warnings.push_back("no facility chosen: PUE 1.0 and no electricity price assumed");
    }
    result.power.pue = pue;
}

/** The racks a group fills: as many nodes per rack as space and power allow (or the plan says),
 * with a warning for a rack over its power or space limit. */
RackUsage rackUsageOf(PlanEstimate &result, const NodeGroup &group, const NodeSpec &node,
                      const GpuSpec &gpu, const RackSpec &rack)
{
    const double nodeWatts = node.powerWithoutGpusWatts + node.gpusPerNode * gpu.tdpWatts;
    RackUsage usage;
    usage.groupName = group.name.empty() ? node.name : group.name;
    usage.rackId = rack.id;
    usage.rackName = rack.name;
    usage.rackLimitWatts = rack.powerLimitWatts;
    const int bySpace = rack.rackUnits / node.rackUnits;
    const int byPower = static_cast<int>(rack.powerLimitWatts / nodeWatts);
    // The cabinet's load rating, where the catalog knows it and the server's weight.
    const bool weightKnown = rack.maxLoadKilograms > 0 && node.weightKilograms > 0;
    const int byWeight = weightKnown
        ? static_cast<int>(std::min(1e6, rack.maxLoadKilograms / node.weightKilograms))
        : bySpace;
    usage.nodesPerRack
        = group.nodesPerRack > 0 ? group.nodesPerRack : std::min({bySpace, byPower, byWeight});
    if (usage.nodesPerRack < 1) {
        result.warnings.push_back("a " + node.name + " ("
                                  + std::to_string(static_cast<int>(nodeWatts))
                                  + " W) does not fit in a " + rack.name);
        usage.nodesPerRack = 1;
    }
    usage.racks = (group.count + usage.nodesPerRack - 1) / usage.nodesPerRack;
    usage.wattsPerRack = usage.nodesPerRack * nodeWatts;
    if (usage.wattsPerRack > rack.powerLimitWatts) {
        char text[256];
        std::snprintf(text, sizeof text,
                      "rack over its power limit: %d x %.1f kW = %.1f kW > %.1f kW (%s)",
                      usage.nodesPerRack, nodeWatts / 1e3, usage.wattsPerRack / 1e3,
                      rack.powerLimitWatts / 1e3, rack.name.c_str());
        result.warnings.push_back(text);
    }
    if (weightKnown && usage.nodesPerRack * node.weightKilograms > rack.maxLoadKilograms) {
        char text[256];
        std::snprintf(
            text, sizeof text, "rack over its load rating: %d x %.0f kg = %.0f kg > %.0f kg (%s)",
            usage.nodesPerRack, node.weightKilograms, usage.nodesPerRack * node.weightKilograms,
            rack.maxLoadKilograms, rack.name.c_str());
        result.warnings.push_back(text);
    }
    if (usage.nodesPerRack * node.rackUnits > rack.rackUnits)
        result.warnings.push_back(std::to_string(usage.nodesPerRack) + " x "
                                  + std::to_string(node.rackUnits) + "U nodes do not fit in a "
                                  + std::to_string(rack.rackUnits) + "U rack");
    return usage;
}

/** One server group's GPUs, memory, power, bill of materials and racks. */
void tallyGroup(PlanEstimateBuild &build, const NodeGroup &group)
{
    PlanEstimate &result = build.result;
    const Plan &plan = build.plan;
    const NodeSpec &node = build.catalog.node(group.nodeId);
    const GpuSpec &gpu = build.catalog.gpu(node.gpuId);
    if (!build.firstNode)
        build.firstNode = &node;
    if (group.onFabric || !build.hasFabric) {
        if (!build.trainingNode)
            build.trainingNode = &node;
        else if (build.trainingNode->gpuId != gpu.id)
            build.mixedGpus = true;
    }
    const long long gpus = 1LL * group.count * node.gpusPerNode;
    if (build.hasFabric && !group.onFabric)
        result.warnings.push_back("server group '" + (group.name.empty() ? node.name : group.name)
                                  + "' is not connected to the fabric: its NICs are unused and its "
                                  + std::to_string(gpus)
                                  + " GPUs cannot join a multi-node training job");
    result.gpus += static_cast<int>(gpus);
    result.nodes += group.count;
    result.peakDenseFlopsPerSecond += gpus
        * std::max(gpu.peakFlopsPerSecond(Precision::BF16),
                   gpu.peakFlopsPerSecond(Precision::FP16));
    result.gpuMemoryBytes += gpus * gpu.memoryBytes;
    result.power.gpusWatts += gpus * gpu.tdpWatts;
    result.power.nodesWatts += group.count * node.powerWithoutGpusWatts;
    addBillLine(result, "GPUs", gpu.id, gpu.name, gpus, gpu.priceUsd);
    addBillLine(result, "Nodes", node.id, node.name + " (without GPUs)", group.count,
                node.priceWithoutGpusUsd);
    const int nics = plan.fabric.nicsPerNode > 0 ? plan.fabric.nicsPerNode : node.nicsPerNode;
    if (group.onFabric && !plan.fabric.nicId.empty() && plan.fabric.nicId != node.nicId) {
        const NicSpec &nic = build.catalog.nic(plan.fabric.nicId);
        addBillLine(result, "NICs", nic.id, nic.name, 1LL * group.count * nics, nic.priceUsd);
    }
    if (!group.rackId.empty()) {
        const RackSpec &rack = build.catalog.rack(group.rackId);
        const RackUsage usage = rackUsageOf(result, group, node, gpu, rack);
        addBillLine(result, "Racks", rack.id, rack.name, usage.racks, rack.priceUsd);
        result.racks.push_back(usage);
    }
}

void estimateNodes(PlanEstimateBuild &build)
{
    build.hasFabric = build.plan.fabric.topology != "none";
    for (const NodeGroup &group : build.plan.nodeGroups)
        tallyGroup(build, group);
    if (build.firstNode) {
        build.result.gpuId = build.firstNode->gpuId;
        build.result.gpuName = build.catalog.gpu(build.firstNode->gpuId).name;
    }
}

/** Switches per tier, cables and optics of the counted graph, as the estimate reports them. */
FabricCounts fabricCountsOf(const FabricMetrics &m, const PlanFabric &fabric,
                            const std::string &topology)
{
    FabricCounts counts;
    counts.topology = topology;
    counts.endpoints = fabric.endpoints;
    const auto tier = [&](int t) {
        const auto it = m.switchesPerTier.find(t);
        return it == m.switchesPerTier.end() ? 0LL : static_cast<long long>(it->second);
    };
    counts.leafSwitches = tier(1);
    counts.spineSwitches = tier(2);
    counts.coreSwitches = m.switches - counts.leafSwitches - counts.spineSwitches;
    counts.cables = m.links;
    counts.optics = m.transceivers;
    return counts;
}

/** Generates the plan's fabric, its failures, and counts its switches, cables and power. */
void countPlanFabric(PlanEstimateBuild &build, const PlanFabric &fabric)
{
    PlanEstimate &result = build.result;
    const Plan &plan = build.plan;
    const NicSpec &nic = build.catalog.nic(fabric.nicId);
    build.fabricGraph = generatePlanFabric(fabric);
    const FabricGraph &graph = *build.fabricGraph;
    build.failures = planFabricFailures(plan, graph);
    for (FabricVertexId v : build.failures.vertices)
        result.failedSwitches.push_back(switchDisplayName(graph, v));
    result.failedLinks = failedLinkDisplayNames(plan, graph);
    const FabricHardware hardware = fabric.switchId.empty()
        ? FabricHardware {}
        : fabricHardware(build.catalog.networkSwitch(fabric.switchId), nic,
                         plan.fabric.topology == "torus" ? 0 : graph.radix);
    const FabricMetrics m = countFabric(graph, hardware);
    result.fabric = fabricCountsOf(m, fabric, plan.fabric.topology);
    if (m.switches > 0) {
        const SwitchSpec &sw = build.catalog.networkSwitch(fabric.switchId);
        addBillLine(result, "Switches", sw.id, sw.name, m.switches, hardware.switchPriceUsd);
    }
    addBillLine(result, "Optics", nic.id + "-optic", nic.name + " transceiver", m.transceivers,
                hardware.transceiverPriceUsd);
    result.power.networkWatts += m.powerWatts();
    if (!hardware.note.empty()) // the switch prices were scaled per port
        result.warnings.push_back("fabric: " + hardware.note);
}

/**
 * The fabric, counted on the generated graph, the same graph the canvas draws
 * (fabricanalysis.h countFabric), so the bill of materials, network power and the canvas agree
 * for every topology; twoTierFabricCounts above is the closed form it is checked against in
 * tests. A fabric that cannot be built leaves its switches, cables, power and cost unknown.
 */
void estimateFabric(PlanEstimateBuild &build)
{
    PlanEstimate &result = build.result;
    result.fabric.topology = build.plan.fabric.topology;
    if (build.plan.fabric.topology == "none" || !build.firstNode)
        return;
    try {
        build.planFabric = planFabric(build.plan, build.catalog);
        if (build.planFabric)
            countPlanFabric(build, *build.planFabric);
    } catch (const std::exception &error) {
        build.fabricGraph.reset();
        build.planFabric.reset();
        result.fabricError = error.what();
        result.warnings.push_back("the fabric cannot be built as set: " + result.fabricError
                                  + "; its switches, cables, power and cost are unknown");
    }
}

/**
 * The cabinets beyond the servers': the data hall's network cabinet at the end of each row and
 * its spine row, and the storage cabinets (datahall.h), priced as the first group's cabinet; and
 * the management network's switches and cables in them.
 */
void estimateNetworkCabinets(PlanEstimateBuild &build)
{
    PlanEstimate &result = build.result;
    if (result.racks.empty())
        return;
    DataHallInputs inputs {build.plan, build.catalog, result.racks};
    if (build.fabricGraph && build.planFabric) {
        inputs.graph = &*build.fabricGraph;
        inputs.fabric = &*build.planFabric;
    }
    const DataHall hall = layoutDataHall(inputs, hallOptionsOf(build.plan));
    std::map<CableMedium, long long> media;
    for (const HallCable &cable : hall.cables) {
        if (cable.management) {
            ++result.managementCables;
            continue;
        }
        if (cable.positioned) {
            ++media[cable.medium];
            result.longestCableMeters = std::max(result.longestCableMeters, cable.lengthMeters);
        }
    }
    for (const auto &[medium, count] : media)
        result.cablesByMedium.emplace_back(cableMediumName(medium), count);
    result.networkCabinets
        = std::count_if(hall.racks.begin(), hall.racks.end(),
                        [](const HallRack &r) { return r.role == "network" || r.role == "spine"; });
    result.storageCabinets = std::count_if(hall.racks.begin(), hall.racks.end(),
                                           [](const HallRack &r) { return r.role == "storage"; });
    const RackSpec &rack = build.catalog.rack(result.racks.front().rackId);
    addBillLine(result, "Racks", rack.id, rack.name,
                result.networkCabinets + result.storageCabinets, rack.priceUsd);
    // The out-of-band management network: its switches draw and cost like the fabric's.
    result.managementSwitches
        = std::count_if(hall.devices.begin(), hall.devices.end(),
                        [](const HallDevice &d) { return d.role == "management switch"; });
    if (result.managementSwitches > 0) {
        const SwitchSpec &management = build.catalog.networkSwitch(managementSwitchId);
        result.power.networkWatts += result.managementSwitches * management.powerWatts;
        addBillLine(result, "Management", management.id, management.name, result.managementSwitches,
                    management.priceUsd);
    }
}

/** Storage power and price, the capital total, and the facility's power budget. */
void estimateStorageAndTotals(PlanEstimateBuild &build)
{
    PlanEstimate &result = build.result;
    for (const StoragePlan &item : build.plan.storage) {
        const StorageSpec &storage = build.catalog.storage(item.storageId);
        if (build.hasFabric && !item.onFabric)
            result.warnings.push_back(storage.name
                                      + " is not connected to the fabric: the servers cannot "
                                        "checkpoint to it or read training data from it");
        result.power.storageWatts += item.count * storage.powerWatts;
        addBillLine(result, "Storage", storage.id, storage.name, item.count, storage.priceUsd);
    }
    for (const BillOfMaterialsLine &line : result.billOfMaterials)
        result.capitalCostUsd += line.totalUsd();
    // The hall's budget, checked at full load: what the feeds and chillers must carry.
    result.facilityPowerLimitWatts = build.plan.facility.powerLimitWatts;
    if (result.overPowerBudget())
        result.warnings.push_back("the cluster draws "
                                  + formatMegawatts(result.power.facilityWatts())
                                  + " at full load (IT x PUE), over the facility's budget of "
                                  + formatMegawatts(*result.facilityPowerLimitWatts));
}

/**
 * The layout search on the cluster the failures leave (the whole cluster when nothing failed),
 * with the what-if's warnings; returns that cluster (gpus 0 when no job can run).
 */
ClusterDescription searchTrainingLayout(PlanEstimateBuild &build, const TrainingJob &job,
                                        ClusterDescription cluster, const std::atomic<bool> *cancel)
{
    PlanEstimate &result = build.result;
    const bool failed = !build.failures.empty() && build.fabricGraph;
    if (failed)
        cluster = applyFabricFailures(result, job, cluster, *build.fabricGraph, build.failures);
    if (cluster.gpus >= 1 && !failed) {
        result.training = TrainingEstimator(job, cluster).search(cancel);
    } else if (cluster.gpus >= 1) {
        int gpusUsed = cluster.gpus;
        result.training = searchSurvivingCluster(job, cluster, cancel, &gpusUsed);
        if (result.training.found && gpusUsed < cluster.gpus)
            result.warnings.push_back(
                "failure what-if: the job restarts on " + std::to_string(gpusUsed) + " of the "
                + std::to_string(cluster.gpus) + " surviving GPUs, a count its layout divides");
        cluster.gpus = gpusUsed;
    }
    if (failed && result.training.found && result.intactStepSeconds > 0) {
        const double step = result.training.best.stepSeconds;
        char text[160];
        std::snprintf(text, sizeof text,
                      "failure what-if: step %.3f s against %.3f s on the intact fabric (%+.1f%%)",
                      step, result.intactStepSeconds,
                      100.0 * (step / result.intactStepSeconds - 1.0));
        result.warnings.push_back(text);
    }
    return cluster;
}

/** The hardware around the run (NIC, switch, reachable storage, facility) for its power, energy,
 * cost and failures (trainingrun.h). */
TrainingRunSetup trainingRunSetup(const PlanEstimateBuild &build, int switchPorts)
{
    const Plan &plan = build.plan;
    const Catalog &catalog = build.catalog;
    TrainingRunSetup setup;
    setup.node = *build.trainingNode;
    setup.nic
        = catalog.nic(plan.fabric.nicId.empty() ? build.trainingNode->nicId : plan.fabric.nicId);
    const std::string switchId = plan.fabric.switchId.empty()
        ? catalogSwitchForNic(catalog, setup.nic, switchPorts)
        : plan.fabric.switchId;
    if (!switchId.empty())
        setup.networkSwitch = catalog.networkSwitch(switchId);
    setup.storageSystems = 0;
    for (const StoragePlan &item : plan.storage) {
        if (build.hasFabric && !item.onFabric)
            continue; // the servers cannot reach it
        const StorageSpec &storage = catalog.storage(item.storageId);
        addStorageSystems(setup.storage, storage, item.count);
        setup.storageSystems += item.count;
    }
    setup.storageSystems = std::max(1, setup.storageSystems);
    if (!plan.trainingDatasetId.empty())
        setup.dataset = catalog.dataset(plan.trainingDatasetId);
    setup.sequenceTokens = plan.training.seqLen;
    setup.trainingTokens = plan.training.tokens;
    setup.asyncCheckpoints = plan.asyncCheckpoints;
    if (build.result.managementSwitches > 0) {
        setup.managementSwitches = build.result.managementSwitches;
        setup.managementSwitch = catalog.networkSwitch(managementSwitchId);
    }
    if (plan.fabric.storageNetworkBytesPerSecond)
        setup.node.storageNetworkBytesPerSecond = *plan.fabric.storageNetworkBytesPerSecond;
    setup.facility.pue = build.result.power.pue;
    setup.facility.electricityUsdPerKwh = build.result.electricityUsdPerKwh;
    if (!plan.facility.facilityId.empty())
        setup.facility.carbonKgPerKwh = plan.facility.carbonKgPerKwh.value_or(
            catalog.facility(plan.facility.facilityId).carbonKgPerKwh);
    return setup;
}

void estimateTraining(PlanEstimateBuild &build, const std::atomic<bool> *cancel)
{
    PlanEstimate &result = build.result;
    result.hasTraining = true;
    if (!result.fabricError.empty()) {
        result.trainingError = "the fabric cannot be built: " + result.fabricError;
        return;
    }
    if (!build.trainingNode) {
        result.trainingError = "no server group is connected to the fabric: drag a group's "
                               "port onto the fabric card";
        return;
    }
    if (build.mixedGpus) {
        result.trainingError = "the plan mixes GPU types; a training job runs on one GPU type";
        return;
    }
    // One description of the job and its cluster, shared with the failure what-ifs.
    const PlanTrainingSetup training = *planTrainingSetup(build.plan, build.catalog);
    const ClusterDescription cluster
        = searchTrainingLayout(build, training.job, training.cluster, cancel);
    if (cluster.gpus < 1) {
        result.trainingError = "the failed switches and cables cut off every training node, "
                               "or split the rest so that no job spans them";
    } else if (!result.training.found) {
        result.trainingError = result.training.reason;
    } else {
        result.trainingRun
            = estimateTrainingRun(cluster, training.job.model, result.training.best,
                                  trainingRunSetup(build, training.cluster.switchPorts),
                                  build.fabricGraph ? &*build.fabricGraph : nullptr);
        result.hasTrainingRun = true;
    }
}

InferenceJob inferenceJobOf(const InferenceWorkload &w, const Catalog &catalog)
{
    InferenceJob job;
    job.model = catalog.llm(w.modelId);
    job.weightPrecision = w.precision;
    job.kvPrecision = w.kvPrecision;
    job.inputTokens = w.inputTokens;
    job.outputTokens = w.outputTokens;
    job.gpusPerReplica = w.gpusPerReplica.value_or(1);
    job.pipelineStages = w.pipelineStages;
    job.batch = w.batch;
    job.ratePerSecond = w.ratePerSecond;
    if (!w.engineId.empty())
        job.engine = *findServingEngine(w.engineId);
    job.speculative = w.speculative;
    if (!w.speculative.draftModelId.empty())
        job.draftModel = catalog.llm(w.speculative.draftModelId);
    if (w.ttftP95Ms)
        job.ttftP95Seconds = *w.ttftP95Ms / 1e3;
    if (w.tpotP95Ms)
        job.tpotP95Seconds = *w.tpotP95Ms / 1e3;
    return job;
}

void estimateInference(PlanEstimateBuild &build)
{
    PlanEstimate &result = build.result;
    const InferenceWorkload &w = build.plan.inference;
    const InferenceJob job = inferenceJobOf(w, build.catalog);
    const InferenceSetup setup = inferenceSetupFromCatalog(
        build.catalog, build.firstNode->id, "", build.plan.facility.facilityId, 4.0, std::nullopt);
    result.hasInference = true;
    result.inference = InferenceEstimator(job, setup.hardware, setup.cost).estimate();
    if (!w.diurnalRates.empty() && result.inference.fits && result.inference.meetsTargets)
        result.autoscaling = estimateDiurnalAutoscaling(
            job, setup.hardware, setup.cost,
            diurnalProfileFromHourlyRates(w.diurnalRates, "workload.diurnal"));
    if (result.inference.replicas * job.gpusPerReplica > result.gpus)
        result.warnings.push_back("the workload needs "
                                  + std::to_string(result.inference.replicas * job.gpusPerReplica)
                                  + " GPUs but the plan has " + std::to_string(result.gpus));
}

} // namespace

PlanEstimate estimatePlan(const Plan &plan, const Catalog &catalog, const std::atomic<bool> *cancel)
{
    checkPlanSize(plan, catalog, "plan '" + plan.name + "'");
    PlanEstimate result;
    result.planName = plan.name;
    PlanEstimateBuild build {plan, catalog, result};
    estimateFacility(build);
    estimateNodes(build);
    estimateFabric(build);
    estimateNetworkCabinets(build);
    estimateStorageAndTotals(build);
    if (plan.workloadType == WorkloadType::Training && build.firstNode)
        estimateTraining(build, cancel);
    else if (plan.workloadType == WorkloadType::Inference && build.firstNode)
        estimateInference(build);
    return result;
}

} // namespace cp::model
