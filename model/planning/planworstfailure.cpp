// SPDX-License-Identifier: GPL-3.0-or-later
#include "model/planning/planworstfailure.h"

#include "model/catalog/catalog.h"
#include "model/core/humantext.h"
#include "model/fabric/fabricscaleout.h"
#include "model/plan/plan.h"
#include "model/planning/planfabric.h"
#include "model/planning/planfabricfailures.h"
#include "model/training/trainingestimator.h"

#include <algorithm>
#include <cmath>

namespace cp::model {

std::optional<double> trainingStepAfterFailure(const TrainingJob &job,
                                               const ClusterDescription &cluster,
                                               const FabricFailureImpact &impact)
{
    if (impact.survivingNodes() < 1)
        return std::nullopt;
    // A zero rate means the surviving nodes no longer reach each other: one job cannot span
    // them (a single surviving node needs no fabric).
    if (impact.survivingNodes() >= 2)
        for (const auto &[nodes, fraction] : impact.ringRateFraction)
            if (fraction <= 0)
                return std::nullopt;
    const ClusterDescription after = clusterAfterFailure(cluster, impact);
    if (after.gpus < 1)
        return std::nullopt;
    const TrainingSearchResult result = searchSurvivingCluster(job, after);
    if (!result.found)
        return std::nullopt;
    return result.best.stepSeconds;
}

TrainingSearchResult searchSurvivingCluster(const TrainingJob &job,
                                            const ClusterDescription &cluster,
                                            const std::atomic<bool> *cancel, int *gpusUsed)
{
    TrainingSearchResult best;
    best.reason = "no layout fits the GPUs the failure leaves";
    const int perNode = std::max(1, cluster.gpusPerNode);
    // A campus rounds each building's nodes alike, so the buildings stay identical.
    const int buildings = std::max(1, cluster.buildings);
    const int nodes = cluster.nodes() / buildings;
    int previousGpus = -1;
    for (int multiple = 1; multiple <= nodes; multiple *= 2) {
        const long long roundedNodes = 1LL * (nodes / multiple) * multiple * buildings;
        const int gpus
            = static_cast<int>(std::min<long long>(cluster.gpus, roundedNodes * perNode));
        if (gpus < 1 || gpus == previousGpus)
            continue;
        previousGpus = gpus;
        ClusterDescription candidate = cluster;
        candidate.gpus = gpus;
        TrainingSearchResult result = TrainingEstimator(job, candidate).search(cancel);
        if (result.found && (!best.found || result.best.stepSeconds < best.best.stepSeconds)) {
            best = std::move(result);
            if (gpusUsed)
                *gpusUsed = gpus;
        }
    }
    return best;
}

void applyCampus(ClusterDescription &cluster, const CampusPlan &campus)
{
    cluster.buildings = campus.buildings;
    cluster.interconnectBytesPerSecondPerBuilding = campus.interconnectBytesPerSecondPerBuilding;
    cluster.interconnectLatencySeconds = campus.interconnectLatencySeconds();
}

std::optional<PlanTrainingSetup> planTrainingSetup(const Plan &plan, const Catalog &catalog)
{
    if (plan.workloadType != WorkloadType::Training)
        return std::nullopt;
    // As estimatePlan: the job runs on the groups cabled to the fabric (all of them without one).
    const bool hasFabric = plan.fabric.topology != "none";
    const NodeSpec *trainingNode = nullptr;
    long long gpus = 0;
    for (const NodeGroup &group : plan.nodeGroups) {
        if (hasFabric && !group.onFabric)
            continue;
        const NodeSpec &node = catalog.node(group.nodeId);
        if (!trainingNode)
            trainingNode = &node;
        gpus += 1LL * group.count * node.gpusPerNode;
    }
    // A campus trains on every building's copy of these servers.
    gpus *= plan.campus.buildings;
    if (!trainingNode || gpus > std::numeric_limits<int>::max())
        return std::nullopt;
    PlanTrainingSetup setup;
    setup.job = plan.training;
    setup.job.model = catalog.llm(plan.trainingModelId);
    if (plan.trainingMtpLayers)
        setup.job.model.mtpLayers = *plan.trainingMtpLayers;
    const int switchPorts
        = plan.fabric.switchId.empty() ? 64 : catalog.networkSwitch(plan.fabric.switchId).ports;
    ClusterFromCatalogOptions options;
    options.nodeId = trainingNode->id;
    options.gpus = static_cast<int>(gpus);
    options.nicId = plan.fabric.nicId;
    options.nicsPerNode = plan.fabric.nicsPerNode;
    options.oversubscription = plan.fabric.oversubscription;
    options.railOptimised = plan.fabric.topology == "rail-fat-tree";
    options.switchPorts = switchPorts;
    setup.cluster = ClusterDescription::fromCatalog(catalog, options);
    // The catalog's name describes a fat-tree, "non-blocking" from the oversubscription alone: a
    // Dragonfly or a torus is neither (its rings are measured on its graph: measurePlanScaleOut).
    if (plan.fabric.topology == "dragonfly")
        setup.cluster.fabricName = setup.cluster.nicName + " Dragonfly";
    else if (plan.fabric.topology == "torus")
        setup.cluster.fabricName = setup.cluster.nicName + " torus";
    setup.cluster.multiPlane = plan.fabric.multiPlane;
    applyCampus(setup.cluster, plan.campus);
    setup.nicsPerNode = std::max(1, setup.cluster.nicsPerNode);
    return setup;
}

void measurePlanScaleOut(ClusterDescription &cluster, const FabricGraph &graph,
                         const PlanFabric &fabric)
{
    // The graph is one building's; measureScaleOutOnGraph reads a campus's rings on it.
    if (!closedFormScaleOutIsExact(fabric.design))
        measureScaleOutOnGraph(cluster, graph, NodePlacement::Contiguous,
                               fabricTopologyName(fabric.design.topology));
    nameBuiltOversubscription(cluster, graph);
}

namespace {

/**
 * The worst single switch failure of a plan without a training job (a serving fleet, a shared
 * cluster): its replicas or jobs are independent of each other, so a server that loses a NIC's
 * path leaves service and the rest run on; the worst switch is the one that cuts off the most
 * servers (capacity intact / capacity left, infinite when none is left).
 */
WorstFailure worstFailureByServers(const Plan &plan, const Catalog &catalog)
{
    WorstFailure none;
    const std::optional<PlanFabric> fabric = planFabric(plan, catalog);
    if (!fabric) {
        none.reason = "the plan has no fabric";
        return none;
    }
    long long nodes = 0;
    for (const NodeGroup &group : plan.nodeGroups)
        if (group.onFabric)
            nodes += group.count;
    FabricGraph graph;
    FabricFailures failed;
    try {
        graph = generatePlanFabric(*fabric);
        failed = planFabricFailures(plan, graph);
    } catch (const FabricParameterError &error) {
        none.reason = std::string("the fabric cannot be built: ") + error.what();
        return none;
    }
    const int nicsPerNode
        = static_cast<int>(std::max(1LL, fabric->endpoints / std::max(1LL, nodes)));
    const auto capacityLoss = [](const FabricFailureImpact &impact) -> std::optional<double> {
        if (impact.survivingNodes() <= 0)
            return std::nullopt;
        return static_cast<double>(impact.nodes) / static_cast<double>(impact.survivingNodes());
    };
    WorstFailure worst
        = findWorstSingleFailure(graph, nicsPerNode, nodes, capacityLoss, {}, failed);
    worst.byServersCutOff = true;
    return worst;
}

} // namespace

WorstFailure planWorstFailure(const Plan &plan, const Catalog &catalog)
{
    WorstFailure none;
    if (plan.workloadType != WorkloadType::Training)
        return worstFailureByServers(plan, catalog);
    std::optional<PlanTrainingSetup> setup = planTrainingSetup(plan, catalog);
    if (!setup) {
        none.reason = "the plan has no training job on a fabric";
        return none;
    }
    const std::optional<PlanFabric> fabric = planFabric(plan, catalog);
    if (!fabric) {
        none.reason = "the plan has no fabric";
        return none;
    }
    FabricGraph graph;
    try {
        graph = generatePlanFabric(*fabric);
    } catch (const FabricParameterError &error) {
        none.reason = std::string("the fabric cannot be built: ") + error.what();
        return none;
    }
    measurePlanScaleOut(setup->cluster, graph, *fabric);
    FabricFailures failed;
    try {
        failed = planFabricFailures(plan, graph);
    } catch (const FabricParameterError &error) {
        none.reason = error.what();
        return none;
    }
    const auto step = [&](const FabricFailureImpact &impact) {
        return trainingStepAfterFailure(setup->job, setup->cluster, impact);
    };
    // A campus's buildings are identical: the worst switch of one building is the worst of all.
    WorstFailure worst
        = findWorstSingleFailure(graph, setup->nicsPerNode, setup->cluster.nodesPerBuilding(), step,
                                 ringSizesForCluster(setup->cluster), failed);
    // How many of the GPUs left its layout uses: losing a quarter of the nodes can cost more
    // than a third more time where the batch divides over fewer GPUs than are left.
    if (worst.found && std::isfinite(worst.stepSeconds)) {
        const ClusterDescription after = clusterAfterFailure(setup->cluster, worst.impact);
        int used = 0;
        const TrainingSearchResult result
            = searchSurvivingCluster(setup->job, after, nullptr, &used);
        if (result.found) {
            worst.gpusLeft = after.gpus;
            worst.gpusUsed = used;
            worst.layoutAfter = layoutDescription(result.best.config);
        }
    }
    return worst;
}

std::string worstFailureSentence(const WorstFailure &worst)
{
    if (!worst.found)
        return "none (" + worst.reason + ")";
    const std::string name = worst.switchName + " (" + worst.switchLabel + "): ";
    const FabricFailureImpact &impact = worst.impact;
    const std::string cutOff = "it cuts off " + groupedCount(impact.nodesCutOff) + " of "
        + groupedCount(impact.nodes) + (worst.byServersCutOff ? " servers" : " nodes");
    if (!std::isfinite(worst.stepSeconds))
        return name
            + (worst.byServersCutOff ? "it cuts off every server; nothing runs without it"
                                     : "the job cannot run without it");
    if (worst.byServersCutOff)
        return name
            + (impact.nodesCutOff == 0 ? std::string("no server loses its path")
                                       : cutOff + ", which leave service; the rest keep "
                       + formatNumber("%.0f", 100.0 * worst.intactStepSeconds / worst.stepSeconds)
                       + "% of the capacity");
    const std::string change = humanDuration(worst.stepSeconds) + " a step instead of "
        + humanDuration(worst.intactStepSeconds)
        + formatNumber(" (%+.1f%%)", 100.0 * (worst.stepSeconds / worst.intactStepSeconds - 1.0));
    // The new layout says why the step grows more than the GPUs lost: 96 GPUs left of 128 take
    // 4,096 sequences only as a 3-stage pipeline, 768 of 1,024 only 512 at a time.
    std::string idle;
    if (!worst.layoutAfter.empty())
        idle = "; the job is laid out anew as " + worst.layoutAfter
            + (worst.gpusUsed > 0 && worst.gpusUsed < worst.gpusLeft ? " on "
                       + groupedCount(worst.gpusUsed) + " of the " + groupedCount(worst.gpusLeft)
                       + " GPUs left, the most its global batch and model divide over"
                                                                     : std::string());
    return name
        + (impact.nodesCutOff == 0 ? "the job runs on, slower: " + change
                                   : cutOff + ", which leave the job; the rest take " + change)
        + idle;
}

} // namespace cp::model
