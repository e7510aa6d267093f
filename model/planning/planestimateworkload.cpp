// SPDX-License-Identifier: GPL-3.0-or-later
#include "model/planning/planestimatesteps.h"

#include "model/catalog/catalog.h"
#include "model/cluster/clusterdescription.h"
#include "model/core/humantext.h"
#include "model/fabric/fabricdesign.h"
#include "model/fabric/fabricscaleout.h"
#include "model/inference/fleetcapacity.h"
#include "model/inference/inferenceestimator.h"
#include "model/inference/inferencesetup.h"
#include "model/inference/inferencestep.h"
#include "model/operations/operationsestimator.h"
#include "model/plan/plan.h"
#include "model/planning/planworstfailure.h"
#include "model/planning/trainingrun.h"
#include "model/training/fewergpusearch.h"
#include "model/training/trainingestimator.h"
#include "model/validation/publishedruncomparison.h"
#include "model/validation/publishedservingcomparison.h"

#include <algorithm>
#include <cstdio>

namespace cp::model::planestimate {

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
    // The graph is one building's: on a campus the failures are in one of its buildings.
    const FabricFailureImpact impact
        = measureFabricFailure(graph, std::max(1, cluster.nicsPerNode), cluster.nodesPerBuilding(),
                               failures, ringSizesForCluster(cluster));
    result.nodesCutOffByFailures = impact.nodesCutOff;
    ClusterDescription after = clusterAfterFailure(cluster, impact);
    for (const auto &[nodes, fraction] : impact.ringRateFraction)
        if (fraction <= 0 && impact.survivingNodes() >= 2)
            after.gpus = 0; // the survivors are split: no one job spans them
    char text[320];
    std::snprintf(text, sizeof text,
                  "failure what-if: %s failed%s, %lld of %lld training nodes cut off; rings over "
                  "all nodes keep %.0f%% of their intact rate",
                  failedCountText(failures).c_str(),
                  cluster.buildings > 1 ? " in one building" : "", impact.nodesCutOff, impact.nodes,
                  impact.ringRateFraction.empty() ? 100.0
                                                  : 100.0 * impact.ringRateFraction.back().second);
    result.warnings.push_back(text);
    if (cluster.buildings > 1 && impact.nodesCutOff > 0)
        result.warnings.push_back(
            "failure what-if: every building runs the job on as many nodes as the damaged one "
            "keeps, so the buildings stay identical and the layout's stages whole");
    return after;
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
        if (result.training.found)
            if (const auto fewer = fasterOnFewerGpus(job, cluster, result.training.best, cancel))
                result.warnings.push_back(
                    fewerGpusFasterText(*fewer, cluster.gpus, result.training.best));
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

/** The fabric's switches and optics for the run: the plan's graph, once per building. */
std::optional<FabricHardwareCount> campusHardware(const PlanEstimateBuild &build)
{
    if (!build.fabricGraph)
        return std::nullopt;
    return hardwareCountOf(*build.fabricGraph).times(build.plan.campus.buildings);
}

/**
 * Adds to `aggregate` the systems of storage entry `entry` the servers reach through the data
 * hall's cables, `buildings` times: every system the hall cabled in full, and of those it could
 * not (PlanEstimateBuild::storagePortsCabled), the ones with a cabled port, each reading and
 * writing at most what those ports carry. Returns how many systems that is.
 */
int addReachableStorage(StorageSpec &aggregate, const PlanEstimateBuild &build, std::size_t entry,
                        int buildings)
{
    const StoragePlan &item = build.plan.storage[entry];
    const StorageSpec &storage = build.resolved.storage[entry];
    const auto shortOfPorts = build.storagePortsCabled.find(static_cast<int>(entry));
    if (shortOfPorts == build.storagePortsCabled.end()) {
        addStorageSystems(aggregate, storage, item.count * buildings);
        return item.count * buildings;
    }
    const int fullyCabled = item.count - static_cast<int>(shortOfPorts->second.size());
    if (fullyCabled > 0)
        addStorageSystems(aggregate, storage, fullyCabled * buildings);
    int reachable = fullyCabled * buildings;
    const double portBytesPerSecond = build.catalog.nic(storage.nicId).bytesPerSecond;
    for (int ports : shortOfPorts->second) {
        if (ports == 0)
            continue;
        StorageSpec throughItsPorts = storage;
        throughItsPorts.writeBytesPerSecond
            = std::min(storage.writeBytesPerSecond, ports * portBytesPerSecond);
        throughItsPorts.readBytesPerSecond
            = std::min(storage.readBytesPerSecond, ports * portBytesPerSecond);
        addStorageSystems(aggregate, throughItsPorts, buildings);
        reachable += buildings;
    }
    return reachable;
}

/** What the storage the data hall could not cable leaves the training run; empty when the hall
 * cabled every storage port. */
std::string uncabledStorageText(const PlanEstimateBuild &build)
{
    long long onFabric = 0, unreachable = 0, partly = 0;
    for (std::size_t i = 0; i < build.plan.storage.size(); ++i)
        if (!build.hasFabric || build.plan.storage[i].onFabric)
            onFabric += build.plan.storage[i].count;
    for (const auto &[entry, ports] : build.storagePortsCabled)
        for (int cabled : ports)
            ++(cabled == 0 ? unreachable : partly);
    if (unreachable == 0 && partly == 0)
        return {};
    // What to do about it is the data hall's warning beside this one, which counts the ports.
    if (unreachable == onFabric)
        return "no storage system has a free leaf port on the fabric to be cabled to: the run "
               "can neither write checkpoints nor read its data";
    std::string text;
    if (unreachable > 0)
        text = groupedCount(unreachable) + " of the " + groupedCount(onFabric)
            + " storage systems find no free leaf port on the fabric: the run writes "
              "checkpoints to and reads data from the other "
            + groupedCount(onFabric - unreachable);
    if (partly > 0)
        text += (text.empty() ? std::string() : "; ") + groupedCount(partly)
            + (partly == 1 ? " storage system has" : " storage systems have")
            + " only some of its ports cabled, and reads and writes at what those carry";
    return text;
}

/**
 * The run's hot spare nodes (trainingrun.h buys them with their GPUs) into the plan's capital, so
 * that the run's cost and the plan's bill of materials reconcile: a line of the bill, or for a
 * campus (whose bill is one building's) the campus's total.
 */
void buySpares(PlanEstimateBuild &build)
{
    PlanEstimate &result = build.result;
    const TrainingRunEstimate &run = result.trainingRun;
    const long long spares = run.reliability.spareNodes;
    if (spares <= 0 || run.sparesCapitalUsd <= 0)
        return;
    if (result.campus) {
        result.campus->spareNodes = spares;
        result.campus->sparesUsd = run.sparesCapitalUsd;
        result.campus->capitalUsd += run.sparesCapitalUsd;
        return;
    }
    const ResolvedNodeGroup &group = *build.trainingGroup;
    addBillLine(result, "Spares", group.node.id, group.node.name + " with its GPUs (hot spare)",
                spares, run.sparesCapitalUsd / static_cast<double>(spares));
    result.capitalCostUsd += run.sparesCapitalUsd;
}

/** The hardware around the run (NIC, switch, reachable storage, facility) for its power, energy,
 * cost and failures (trainingrun.h). */
TrainingRunSetup trainingRunSetup(const PlanEstimateBuild &build, int switchPorts)
{
    const Plan &plan = build.plan;
    const ResolvedPlan &resolved = build.resolved;
    TrainingRunSetup setup;
    setup.node = build.trainingGroup->node;
    setup.nic = build.trainingGroup->fabricNic;
    if (resolved.fabricSwitch) {
        setup.networkSwitch = *resolved.fabricSwitch;
    } else {
        // No switch named: the one the fabric is built of (planfabric.h chooses it the same way).
        const std::string switchId = catalogSwitchForNic(build.catalog, setup.nic, switchPorts);
        if (!switchId.empty())
            setup.networkSwitch = build.catalog.networkSwitch(switchId);
    }
    // A campus has every building's copy of the storage, management network and cables.
    const int buildings = plan.campus.buildings;
    setup.storageSystems = 0;
    for (std::size_t i = 0; i < plan.storage.size(); ++i) {
        const StoragePlan &item = plan.storage[i];
        if (build.hasFabric && !item.onFabric)
            continue; // the servers cannot reach it
        if (setup.storageSystems > 0 && setup.storage.id != resolved.storage[i].id)
            setup.storageKindsMixed = true;
        setup.storageSystems += addReachableStorage(setup.storage, build, i, buildings);
    }
    setup.storageSystems = std::max(1, setup.storageSystems);
    setup.dataset = resolved.trainingDataset;
    setup.sequenceTokens = plan.training.seqLen;
    setup.trainingTokens = plan.training.tokens;
    setup.asyncCheckpoints = plan.asyncCheckpoints;
    if (build.result.managementSwitches > 0 && resolved.managementSwitch) {
        setup.managementSwitches = build.result.managementSwitches * buildings;
        setup.managementSwitch = *resolved.managementSwitch;
    }
    if (build.cableBill)
        setup.hallCabling = TrainingRunSetup::HallCabling {
            build.cableBill->fabricTransceivers * buildings,
            (build.cableBill->watts + build.storageNetworkWatts) * buildings};
    if (build.result.campus)
        setup.interconnectWatts = build.result.campus->interconnectWatts;
    if (plan.fabric.storageNetworkBytesPerSecond)
        setup.node.storageNetworkBytesPerSecond = *plan.fabric.storageNetworkBytesPerSecond;
    // The run costs what the plan's bill of materials buys, so the two figures reconcile.
    setup.billOfMaterialsUsd
        = build.result.campus ? build.result.campus->capitalUsd : build.result.capitalCostUsd;
    setup.facility.pue = build.result.power.pue;
    setup.facility.electricityUsdPerKwh = build.result.electricityUsdPerKwh;
    if (resolved.facility)
        setup.facility.carbonKgPerKwh
            = plan.facility.carbonKgPerKwh.value_or(resolved.facility->carbonKgPerKwh);
    return setup;
}

} // namespace

void estimateTraining(PlanEstimateBuild &build, const std::atomic<bool> *cancel)
{
    PlanEstimate &result = build.result;
    result.hasTraining = true;
    if (!result.fabricError.empty()) {
        result.trainingError = "the fabric cannot be built: " + result.fabricError;
        return;
    }
    if (!build.trainingGroup) {
        result.trainingError = "no server group is connected to the fabric: drag a group's "
                               "port onto the fabric card";
        return;
    }
    if (build.mixedGpus) {
        result.trainingError = "the plan mixes GPU types; a training job runs on one GPU type";
        return;
    }
    // Without a fabric nothing joins the servers: a job runs inside one of them (its NVLink),
    // never across them at the NICs' rate as if a fabric were there and free.
    if (!build.hasFabric && result.nodes > 1) {
        result.trainingError = "the plan has no fabric, so its " + groupedCount(result.nodes)
            + " servers cannot train one job together: choose a fabric topology (Fabric card, "
              "or fabric.topology in the file), or plan one server";
        return;
    }
    // One description of the job and its cluster, shared with the failure what-ifs; its rings
    // measured on the plan's fabric graph where the closed form is not exact, as `train` does.
    PlanTrainingSetup training = *planTrainingSetup(build.plan, build.catalog);
    result.workloadComputePrecision = training.job.precision;
    if (build.fabricGraph && build.planFabric)
        measurePlanScaleOut(training.cluster, *build.fabricGraph, *build.planFabric);
    const ClusterDescription cluster
        = searchTrainingLayout(build, training.job, training.cluster, cancel);
    if (cluster.gpus < 1) {
        result.trainingError = "the failed switches and cables cut off every training node, "
                               "or split the rest so that no job spans them";
    } else if (!result.training.found) {
        result.trainingError = result.training.reason;
    } else {
        result.trainingRun = estimateTrainingRun(
            cluster, training.job.model, result.training.best,
            trainingRunSetup(build, training.cluster.switchPorts), campusHardware(build));
        result.hasTrainingRun = true;
        buySpares(build);
        if (const std::string uncabled = uncabledStorageText(build); !uncabled.empty())
            result.warnings.push_back(uncabled);
        // The first warning (the panel's first section), not only said beside the goodput: it
        // decides the run more than any bottleneck of the step.
        const ReliabilityEstimate &reliability = result.trainingRun.reliability;
        if (const std::string pace = lowGoodputText(reliability); !pace.empty())
            result.warnings.insert(result.warnings.begin(), failuresDecideRunText(reliability));
        if (build.compareWithPublishedRuns)
            result.trainingPublishedRuns = compareWithPublishedRuns(
                build.catalog,
                publishedRunQuery(training.job, cluster.gpu.id, result.training.best.mfu));
    }
}

namespace {

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
    job.maxBatch = w.maxBatch;
    job.replicas = w.replicas;
    job.offlineRequests = w.offlineRequests;
    job.speculative = w.speculative;
    if (!w.speculative.draftModelId.empty())
        job.draftModel = catalog.llm(w.speculative.draftModelId);
    if (w.ttftP95Ms)
        job.ttftP95Seconds = *w.ttftP95Ms / 1e3;
    if (w.tpotP95Ms)
        job.tpotP95Seconds = *w.tpotP95Ms / 1e3;
    return job;
}

/**
 * A plan's GPU-hour costs its share of everything the plan buys and powers, not only its server:
 * the bill of materials (servers, fabric, optics, racks, power distribution, management network,
 * storage) and the IT power at full load, each divided over the plan's GPUs, at the plan's PUE and
 * electricity price. A training run on the plan costs its whole bill of materials the same way
 * (trainingrun.cpp), so a serving plan's cost per token and its capital cost reconcile; on the
 * L4 sample the server alone left out a tenth of the capital.
 */
void chargePlanPerGpu(ServingCostModel &cost, const PlanEstimate &result)
{
    const CampusTotals *campus = result.campus ? &*result.campus : nullptr;
    const double gpus = campus ? static_cast<double>(campus->gpus) : result.gpus;
    if (!(gpus > 0))
        return;
    cost.capitalUsdPerGpu = (campus ? campus->capitalUsd : result.capitalCostUsd) / gpus;
    cost.wattsPerGpu = (campus ? campus->itWatts : result.power.itWatts()) / gpus;
    cost.pue = result.power.pue;
    cost.electricityUsdPerKwh = result.electricityUsdPerKwh;
}

} // namespace

void estimateInference(PlanEstimateBuild &build)
{
    PlanEstimate &result = build.result;
    const InferenceWorkload &w = build.plan.inference;
    const InferenceJob job = inferenceJobOf(w, build.catalog);
    InferenceSetup setup = inferenceSetupFromCatalog(
        build.catalog,
        {.nodeId = build.firstGroup->node.id, .facilityId = build.plan.facility.facilityId});
    chargePlanPerGpu(setup.cost, result);
    result.hasInference = true;
    result.workloadComputePrecision = computePrecision(setup.hardware.gpu, job.weightPrecision);
    if (job.replicas && !job.ratePerSecond && !job.offlineRequests) {
        // A fixed fleet with no rate: the most it serves within the p95 targets.
        result.inference = estimateAtCapacity(job, setup.hardware, setup.cost,
                                              {.percentile = LatencyLimits::Percentile::P95,
                                               .ttftSeconds = job.ttftP95Seconds,
                                               .tpotSeconds = job.tpotP95Seconds});
    } else {
        result.inference = InferenceEstimator(job, setup.hardware, setup.cost).estimate();
    }
    if (!w.diurnalRates.empty() && result.inference.fits && result.inference.meetsTargets)
        result.autoscaling = estimateDiurnalAutoscaling(
            job, setup.hardware, setup.cost,
            diurnalProfileFromHourlyRates(w.diurnalRates, "workload.diurnal"));
    if (build.compareWithPublishedRuns)
        result.inferencePublishedRuns
            = compareServingWithPublishedRuns(build.catalog,
                                              {.gpuId = setup.hardware.gpu.id,
                                               .weights = job.weightPrecision,
                                               .modelId = job.model.id});
    // A replica that cannot serve as asked is a warning, as a fleet the plan cannot hold is (an
    // FP16 scenario that did not fit had an empty warnings cell beside the others').
    if (!result.inference.fits || !result.inference.meetsTargets)
        result.warnings.push_back("the serving workload cannot run as asked: "
                                  + result.inference.reason);
    if (!result.holdsServingFleet())
        result.warnings.push_back("the workload needs " + groupedCount(result.inference.fleetGpus())
                                  + " GPUs but the plan has " + groupedCount(result.planGpus()));
    if (result.inference.fits && result.inference.meetsTargets) {
        result.servingUse = model::servingUse(result.inference, result.planGpus());
        if (result.servingUse->largelyIdle())
            result.warnings.push_back(servingUseText(*result.servingUse));
    }
}

} // namespace cp::model::planestimate
