// SPDX-License-Identifier: GPL-3.0-or-later
#include "model/catalog/catalogdatabase.h"
#include "model/core/inputerror.h"
#include "model/fabric/fabricfailure.h"
#include "model/plan/planio.h"
#include "model/planning/estimatejson.h"
#include "model/planning/fabriclinkload.h"
#include "model/planning/planestimator.h"
#include "model/planning/planfabric.h"
#include "model/planning/planfabricfailures.h"
#include "model/planning/planworstfailure.h"
#include "model/planning/scenariocomparison.h"
#include "testsupport.h"

#include <QTest>

#include <algorithm>
#include <cmath>
#include <set>

using namespace cp::model;

namespace {
using cp::test::loadSamplePlan;
using cp::test::shippedCatalog;

constexpr double linkBytesPerSecond = 50e9;

/**
 * `leaves` leaves of `hostsPerLeaf` hosts (one endpoint each, hosts numbered leaf by leaf),
 * every leaf cabled once to each of `spines` spines, all links 50 GB/s.
 */
FabricGraph leafSpine(int leaves, int hostsPerLeaf, int spines)
{
    FabricGraph graph;
    std::vector<FabricVertexId> spineIds;
    for (int s = 0; s < spines; ++s)
        spineIds.push_back(
            graph.addVertex({FabricVertexRole::Switch, 2, -1, "spine-" + std::to_string(s)}));
    FabricLink access {LinkClass::Access, LinkMedium::Optical, linkBytesPerSecond, 0, 0};
    FabricLink fabric {LinkClass::Fabric, LinkMedium::Optical, linkBytesPerSecond, 0, 0};
    for (int l = 0; l < leaves; ++l) {
        const FabricVertexId leaf
            = graph.addVertex({FabricVertexRole::Switch, 1, l, "leaf-" + std::to_string(l)});
        for (FabricVertexId spine : spineIds)
            graph.addLink(leaf, spine, fabric);
        for (int h = 0; h < hostsPerLeaf; ++h) {
            const FabricVertexId host = graph.addVertex(
                {FabricVertexRole::Endpoint, 0, l, "host-" + std::to_string(l * hostsPerLeaf + h)});
            graph.addLink(host, leaf, access);
        }
    }
    return graph;
}

double fractionAt(const FabricFailureImpact &impact, long long nodes)
{
    for (const auto &[n, fraction] : impact.ringRateFraction)
        if (n == nodes)
            return fraction;
    return -1;
}

Plan samplePlan()
{
    return loadSamplePlan("h100-1024-ndr-rail-fat-tree.json");
}

} // namespace

class TestFabricFailure : public QObject
{
    Q_OBJECT

private slots:
    void losingTheOnlySpineSplitsTheLeaves()
    {
        // 2 leaves x 2 hosts, one spine: each leaf has 2 ports down and 1 up (2:1). Rings of 2
        // nodes are {h0,h1} and {h2,h3}, each under one leaf, so they never touch the spine; the
        // ring of 4 nodes has the flow h1 -> h2 through the spine, which without it has no path:
        // its rate falls to 0. No host loses its leaf, so no node is cut off.
        const FabricGraph graph = leafSpine(2, 2, 1);
        const FabricFailureImpact impact
            = measureFabricFailure(graph, 1, 0, {{findVertex(graph, "spine-0")}, {}}, {2});
        QCOMPARE(impact.nodes, 4LL);
        QCOMPARE(impact.nodesCutOff, 0LL);
        QCOMPARE(fractionAt(impact, 2), 1.0);
        QCOMPARE(fractionAt(impact, 4), 0.0);
    }

    void losingALeafCutsOffItsHosts()
    {
        // Same fabric, leaf 1 lost: h2 and h3 have no live link left, so nodes 2 and 3 leave the
        // job. The survivors h0, h1 form the ring of "4" (all that is left) under leaf 0 at the
        // full 50 GB/s; intact, the 4-ring runs at 50 GB/s too (every directed link carries one
        // flow: h1 -> h2 goes up leaf 0, h3 -> h0 comes down into it), so the fraction is 1.
        const FabricGraph graph = leafSpine(2, 2, 1);
        const FabricFailureImpact impact
            = measureFabricFailure(graph, 1, 0, {{findVertex(graph, "leaf-1")}, {}}, {2});
        QCOMPARE(impact.nodesCutOff, 2LL);
        QCOMPARE(impact.survivingNodes(), 2LL);
        QCOMPARE(fractionAt(impact, 2), 1.0);
        QCOMPARE(fractionAt(impact, 4), 1.0);
    }

    void worstFailureOfOneSpineIsTheSpine()
    {
        // With a step of 10 s x nodes / surviving nodes that cannot run when rings fail: intact
        // 10 s; leaf 0 or leaf 1 lost: 10 x 4 / 2 = 20 s; spine lost: the 4-ring has no path, so
        // no step (infinite). The spine is the worst single failure.
        const FabricGraph graph = leafSpine(2, 2, 1);
        const auto step = [](const FabricFailureImpact &impact) -> std::optional<double> {
            for (const auto &[n, fraction] : impact.ringRateFraction)
                if (fraction <= 0)
                    return std::nullopt;
            return 10.0 * static_cast<double>(impact.nodes)
                / static_cast<double>(impact.survivingNodes());
        };
        const WorstFailure worst = findWorstSingleFailure(graph, 1, 0, step, {2});
        QVERIFY(worst.found);
        QCOMPARE(worst.switchLabel, std::string("spine-0"));
        QCOMPARE(worst.switchName, std::string("spine 0"));
        QCOMPARE(worst.intactStepSeconds, 10.0);
        QVERIFY(std::isinf(worst.stepSeconds));
        QCOMPARE(worst.switches, 3);
        QCOMPARE(worst.candidatesEvaluated, 3);
        QVERIFY(worstFailureToJson(worst)["step_time_s"].is_null());
    }

    void aSecondSpineMakesTheLeafTheWorst()
    {
        // 2 leaves x 4 hosts, 2 spines: 4 down, 2 up per leaf (2:1). The 8-ring crosses leaves
        // only at h3 -> h4 and h7 -> h0, one flow each way per leaf, split over both spines
        // (0.5 each); losing spine 0 puts the whole flow on spine 1 (load 1, rate 50 GB/s, the
        // same as the access links'), so the fraction stays 1 and the step stays 10 s. Losing a
        // leaf cuts off 4 of 8 nodes: 10 x 8 / 4 = 20 s. Worst: leaf 0, the first of the two.
        const FabricGraph graph = leafSpine(2, 4, 2);
        const auto step = [](const FabricFailureImpact &impact) -> std::optional<double> {
            return 10.0 * static_cast<double>(impact.nodes)
                / static_cast<double>(impact.survivingNodes());
        };
        const FabricFailureImpact spine
            = measureFabricFailure(graph, 1, 0, {{findVertex(graph, "spine-0")}, {}}, {2, 4});
        QCOMPARE(fractionAt(spine, 8), 1.0);
        QCOMPARE(spine.nodesCutOff, 0LL);
        const WorstFailure worst = findWorstSingleFailure(graph, 1, 0, step, {2, 4});
        QCOMPARE(worst.switchLabel, std::string("leaf-0"));
        QCOMPARE(worst.stepSeconds, 20.0);
        QCOMPARE(worst.intactStepSeconds, 10.0);
        QCOMPARE(worst.impact.nodesCutOff, 4LL);
    }

    void symmetricSwitchesAreEvaluatedOnce()
    {
        // 40 leaves x 2 hosts and 30 spines: 70 switches, over the exhaustive limit of 64. All
        // leaves look alike (2 endpoint links, 30 spine links), all spines too (40 leaf links):
        // two classes, represented by the first spine and the first leaf in graph order.
        const FabricGraph graph = leafSpine(40, 2, 30);
        const std::vector<FabricVertexId> classes = failureCandidates(graph);
        QCOMPARE(classes.size(), std::size_t(2));
        QCOMPARE(graph.vertex(classes[0]).label, std::string("spine-0"));
        QCOMPARE(graph.vertex(classes[1]).label, std::string("leaf-0"));
        QCOMPARE(failureCandidates(graph, true).size(), std::size_t(70));
    }

    void clusterAfterFailureScalesTheClosedForm()
    {
        // 8 nodes x 8 GPUs, one 50 GB/s NIC per node at 90% achievable, 4 nodes per leaf, 2:1.
        // Closed form per GPU: 50e9 x 0.9 / 8 = 5.625e9 within a leaf (<= 4 nodes), 2.8125e9
        // beyond. Impact: 4 nodes cut off, rings of 4 keep half their rate. Measured entries
        // store line rate (the 0.9 divided out): 6.25e9 x 1 at 2; 6.25e9 x 0.5 = 3.125e9 at 4;
        // 3.125e9 x 1 at 8. Read back at span 3 (entry 4): 3.125e9 x 0.9 = 2.8125e9.
        ClusterDescription cluster;
        cluster.gpus = 64;
        cluster.gpusPerNode = 8;
        cluster.nicsPerNode = 1;
        cluster.nicBytesPerSecond = 50e9;
        cluster.nicAchievableFraction = 0.9;
        cluster.nodesPerLeaf = 4;
        cluster.oversubscription = 2;
        FabricFailureImpact impact;
        impact.nodes = 8;
        impact.nodesCutOff = 4;
        impact.ringRateFraction = {{2, 1.0}, {4, 0.5}, {8, 1.0}};
        const ClusterDescription after = clusterAfterFailure(cluster, impact);
        QCOMPARE(after.gpus, 32);
        QCOMPARE(after.fabricRingBytesPerSecond.size(), std::size_t(3));
        QVERIFY(std::abs(after.fabricRingBytesPerSecond[0].second - 6.25e9) < 1);
        QVERIFY(std::abs(after.fabricRingBytesPerSecond[1].second - 3.125e9) < 1);
        QVERIFY(std::abs(after.fabricRingBytesPerSecond[2].second - 3.125e9) < 1);
        QVERIFY(std::abs(after.scaleOutLink(3).busBytesPerSecond - 2.8125e9) < 1);
    }

    void nothingFailedReproducesThePlanEstimate()
    {
        // No failure means fraction 1 at every ring size and no node lost, and the ring sizes
        // include the nodes per leaf where the closed form steps: the re-estimated intact step
        // must be the plan estimate's step exactly, or every comparison would be skewed.
        const Plan plan = samplePlan();
        const PlanEstimate estimate = estimatePlan(plan, shippedCatalog());
        QVERIFY(estimate.training.found);
        const WorstFailure worst = planWorstFailure(plan, shippedCatalog());
        QVERIFY(worst.found);
        QCOMPARE(worst.intactStepSeconds, estimate.training.best.stepSeconds);
        // The sample is 128 DGX H100 on a 2-tier rail fabric: every rail leaf serves one
        // scalable unit of 32 nodes, so any leaf cuts off 32 nodes; no spine cuts off any.
        QCOMPARE(worst.impact.nodesCutOff, 32LL);
        QVERIFY(worst.stepSeconds > worst.intactStepSeconds);
    }

    void aFailureSaysTheLayoutTheJobTakesAfterIt()
    {
        // The ViT sample: 16 DGX H100, a global batch of 4,096 = 2^12 images. A leaf cuts off
        // 4 nodes, leaving 96 GPUs. Data parallelism must divide the batch, so a layout on all
        // 96 is 3 x 32 (ViT-H's 16 heads rule out TP 3: a 3-stage pipeline) and otherwise it
        // runs on 64; either way the step grows by more than the 4/3 of the GPUs lost (+75%
        // against +33%), and the sentence now says which layout the job takes.
        const WorstFailure worst = planWorstFailure(
            cp::test::loadSamplePlan("h100-128-vit-imagenet-nfs.json"), shippedCatalog());
        QVERIFY2(worst.found, worst.reason.c_str());
        QCOMPARE(worst.gpusLeft, 96LL);
        QVERIFY(worst.stepSeconds / worst.intactStepSeconds > 128.0 / 96.0);
        const std::string sentence = worstFailureSentence(worst);
        QVERIFY2(sentence.find("; the job is laid out anew as TP 1 x PP 3 x DP 32")
                         != std::string::npos
                     || sentence.find("on 64 of the 96 GPUs left") != std::string::npos,
                 sentence.c_str());
    }

    void plansWithoutTrainingAreJudgedByTheServersCutOff()
    {
        // The L4 serving sample hangs its 16 servers off one leaf: losing it cuts off all 16 and
        // nothing serves (no longer "none: no training job").
        const WorstFailure single = planWorstFailure(
            cp::test::loadSamplePlan("l4-inference-fleet.json"), shippedCatalog());
        QVERIFY2(single.found, single.reason.c_str());
        QVERIFY(single.byServersCutOff);
        QCOMPARE(single.impact.nodesCutOff, 16LL);
        QVERIFY(!std::isfinite(single.stepSeconds));
        QCOMPARE(worstFailureSentence(single),
                 std::string("leaf 0 (leaf-0): it cuts off every server; nothing runs without it"));
        // The shared cluster: 256 DGX H100 on a 2-tier rail fabric, scalable units of 32 nodes. A
        // rail leaf cuts off its unit's 32 nodes (one NIC each), a spine none: 224 of 256 keep
        // serving, 87.5%, said as 88%.
        const WorstFailure rail = planWorstFailure(
            cp::test::loadSamplePlan("h100-2048-shared-cluster.json"), shippedCatalog());
        QVERIFY2(rail.found, rail.reason.c_str());
        QCOMPARE(rail.impact.nodesCutOff, 32LL);
        QCOMPARE(rail.impact.nodes, 256LL);
        QCOMPARE(rail.stepSeconds / rail.intactStepSeconds, 256.0 / 224.0);
        QVERIFY2(worstFailureSentence(rail).ends_with(
                     ": it cuts off 32 of 256 servers, which leave service; the rest keep 88% "
                     "of the capacity"),
                 worstFailureSentence(rail).c_str());
    }

    void failedSwitchInThePlanChangesTheEstimate()
    {
        // The worst switch failed in the plan: the estimate's step is the worst failure's step,
        // the intact step is kept beside it, and the file round-trips the key.
        Plan plan = samplePlan();
        const WorstFailure worst = planWorstFailure(plan, shippedCatalog());
        plan.fabric.failedSwitches = {worst.switchLabel};
        const PlanEstimate estimate = estimatePlan(plan, shippedCatalog());
        QVERIFY(estimate.training.found);
        QCOMPARE(estimate.training.best.stepSeconds, worst.stepSeconds);
        QCOMPARE(estimate.intactStepSeconds, worst.intactStepSeconds);
        QCOMPARE(estimate.nodesCutOffByFailures, 32LL);
        QCOMPARE(estimate.failedSwitches.size(), std::size_t(1));
        const Plan reread = parsePlan(planToJson(plan), "round-trip.json", &shippedCatalog());
        QCOMPARE(reread.fabric.failedSwitches, plan.fabric.failedSwitches);
    }

    void aCampusFailureIsOneBuildingsAndEveryBuildingMatchesIt()
    {
        // The sample (128 DGX H100, 4 units of 32 nodes) as one of 2 buildings. A rail leaf of
        // unit 0 failed in one building cuts off its 32 nodes; the buildings stay identical, so
        // each runs the job on 96 nodes: 2 x 96 x 8 = 1,536 of the 2,048 GPUs. The step is the
        // one the same search gives on that cluster, and the worst-failure search (refused for a
        // campus before) finds a leaf with the same 32 nodes cut off.
        Plan plan = samplePlan();
        plan.scenarios.clear();
        plan.campus.buildings = 2;
        plan.campus.interconnectBytesPerSecondPerBuilding = 100e12 / 8;
        plan.fabric.failedSwitches = {"leaf-su0-rail0"};
        const PlanEstimate estimate = estimatePlan(plan, shippedCatalog());
        QVERIFY(estimate.training.found);
        QCOMPARE(estimate.nodesCutOffByFailures, 32LL);
        const ParallelConfig &layout = estimate.training.best.config;
        QCOMPARE(1LL * layout.tp * layout.pp * layout.dp * layout.cp, 1536LL);
        QVERIFY(std::any_of(estimate.warnings.begin(), estimate.warnings.end(), [](const auto &w) {
            return w.find("failed in one building, 32 of 128 training nodes cut off")
                != std::string::npos;
        }));
        QVERIFY(estimate.intactStepSeconds > 0);
        QVERIFY(estimate.training.best.stepSeconds > estimate.intactStepSeconds);

        plan.fabric.failedSwitches.clear();
        const WorstFailure worst = planWorstFailure(plan, shippedCatalog());
        QVERIFY2(worst.found, worst.reason.c_str());
        QCOMPARE(worst.impact.nodesCutOff, 32LL);
        const PlanEstimate intact = estimatePlan(plan, shippedCatalog());
        QCOMPARE(worst.intactStepSeconds, intact.training.best.stepSeconds);
        QCOMPARE(worst.stepSeconds, estimate.training.best.stepSeconds);
    }

    void twoToOneUplinkIsTheHotLink()
    {
        // 2 leaves x 2 hosts, one spine, 2:1 at each leaf. The ring h0 -> h2 -> h1 -> h3 -> h0
        // alternates leaves, so every flow crosses the spine: leaf 0's uplink carries h0 -> h2
        // and h1 -> h3 upwards (2 flows) and h2 -> h1, h3 -> h0 downwards (2). Each flow gets
        // 50 / 2 = 25 GB/s; an uplink runs 2 x 25 = 50 GB/s (utilisation 1), an access link one
        // flow each way, 25 of 50 GB/s (0.5).
        const FabricGraph graph = leafSpine(2, 2, 1);
        const auto host = [&](int h) {
            return findVertex(graph, "host-" + std::to_string(h));
        };
        const FabricLinkLoads loads
            = fabricLinkLoads(graph, {{host(0), host(2), host(1), host(3)}});
        QCOMPARE(loads.bytesPerSecondPerFlow, 25e9);
        const std::size_t uplink = findLink(graph, "leaf-0", "spine-0");
        const std::size_t access = findLink(graph, "host-0", "leaf-0");
        QCOMPARE(loads.utilisation[uplink], 1.0);
        QCOMPARE(loads.flows[uplink], 2.0);
        QCOMPARE(loads.utilisation[access], 0.5);
        QCOMPARE(loads.flows[access], 1.0);
        // Contiguous h0 -> h1 -> h2 -> h3: one flow each way on the uplink, all at 50 GB/s, so
        // the uplink and the access links h1 and h2 use (and h0, h3 too: h3 -> h0) all of theirs.
        const FabricLinkLoads contiguous = fabricLinkLoads(graph, rankRings(graph, 1, 4));
        QCOMPARE(contiguous.bytesPerSecondPerFlow, 50e9);
        QCOMPARE(contiguous.utilisation[uplink], 1.0);
        QCOMPARE(contiguous.flows[uplink], 1.0);
    }

    /** The four hosts of leafSpine(2, 2, 1) as the job's nodes 0..3, one GPU and NIC each. */
    static RankPlacement fourNodes()
    {
        RankPlacement placement;
        placement.nodes = {0, 1, 2, 3};
        return placement;
    }

    void pipelinePairsCrossTheSpineAtTwoToOne()
    {
        // Two stages of two GPUs on four one-GPU nodes: GPU 0 (host-0) sends to GPU 2 (host-2)
        // and GPU 1 (host-1) to GPU 3 (host-3), gradients coming back. Both pairs cross the
        // spine: leaf 0's uplink carries 2 flows each way, 50 / 2 = 25 GB/s per pair (the
        // uplink saturated), and host-0's access link one flow each way, 25 of 50 GB/s.
        const FabricGraph graph = leafSpine(2, 2, 1);
        RankPlacement placement = fourNodes();
        placement.stageGpus = 2;
        placement.stages = 2;
        const FabricTrafficFlows flows = pipelineStageFlows(graph, placement);
        QCOMPARE(flows.rings.size(), std::size_t(2));
        const FabricLinkLoads loads = fabricLinkLoads(graph, flows.rings, {}, flows.weights);
        QCOMPARE(loads.bytesPerSecondPerFlow, 25e9);
        const std::size_t uplink = findLink(graph, "leaf-0", "spine-0");
        const std::size_t access = findLink(graph, "host-0", "leaf-0");
        QCOMPARE(loads.flows[uplink], 2.0);
        QCOMPARE(loads.utilisation[uplink], 1.0);
        QCOMPARE(loads.flows[access], 1.0);
        QCOMPARE(loads.utilisation[access], 0.5);
    }

    void gpusSharingANicPairAreWeightedFlows()
    {
        // Two GPUs per node, one NIC: stage 0 is GPUs 0-3 (nodes 0, 1), stage 1 GPUs 4-7
        // (nodes 2, 3). GPUs 0 and 1 both send from host-0 to host-2, GPUs 2 and 3 from host-1
        // to host-3: two pairs of weight 2. Leaf 0's uplink carries 4 GPU flows each way, 12.5
        // GB/s each; host-0's access link 2 of them, 25 of 50 GB/s.
        const FabricGraph graph = leafSpine(2, 2, 1);
        RankPlacement placement = fourNodes();
        placement.gpusPerNode = 2;
        placement.stageGpus = 4;
        placement.stages = 2;
        const FabricTrafficFlows flows = pipelineStageFlows(graph, placement);
        QCOMPARE(flows.weights, (std::vector<double> {2.0, 2.0}));
        const FabricLinkLoads loads = fabricLinkLoads(graph, flows.rings, {}, flows.weights);
        QCOMPARE(loads.bytesPerSecondPerFlow, 12.5e9);
        QCOMPARE(loads.flows[findLink(graph, "leaf-0", "spine-0")], 4.0);
        QCOMPARE(loads.utilisation[findLink(graph, "host-0", "leaf-0")], 0.5);

        // An NVLink domain of 4 GPUs (nodes 0-1, nodes 2-3) with four stages of two GPUs: the
        // sends 0->2, 1->3 and 4->6, 5->7 stay on NVLink; only 2->4 and 3->5 (host-1 to host-2)
        // cross the fabric, one pair of weight 2.
        placement.scaleUpDomainGpus = 4;
        placement.stageGpus = 2;
        placement.stages = 4;
        const FabricTrafficFlows domain = pipelineStageFlows(graph, placement);
        QCOMPARE(domain.rings.size(), std::size_t(1));
        QCOMPARE(domain.weights, std::vector<double> {2.0});
        const auto ends = std::set<FabricVertexId>(domain.rings[0].begin(), domain.rings[0].end());
        QCOMPARE(
            ends,
            (std::set<FabricVertexId> {findVertex(graph, "host-1"), findVertex(graph, "host-2")}));
    }

    void expertAllToAllLoadsEveryNodePair()
    {
        // EP 4 over the four hosts: six node pairs, four of them across the spine (0-2, 0-3,
        // 1-2, 1-3), so leaf 0's uplink carries 4 flows each way at 50 / 4 = 12.5 GB/s; host-0
        // sends to three peers, 3 x 12.5 = 37.5 of its 50 GB/s (0.75).
        const FabricGraph graph = leafSpine(2, 2, 1);
        RankPlacement placement = fourNodes();
        placement.expertParallel = 4;
        placement.expertGroupGpus = 4;
        placement.stageGpus = 4;
        const FabricTrafficFlows flows = expertAllToAllFlows(graph, placement);
        QCOMPARE(flows.rings.size(), std::size_t(6));
        const FabricLinkLoads loads = fabricLinkLoads(graph, flows.rings);
        QCOMPARE(loads.bytesPerSecondPerFlow, 12.5e9);
        QCOMPARE(loads.flows[findLink(graph, "leaf-0", "spine-0")], 4.0);
        QCOMPARE(loads.utilisation[findLink(graph, "host-0", "leaf-0")], 0.75);
        // Groups of two GPUs inside an NVLink domain of two never reach the fabric.
        placement.expertParallel = 2;
        placement.expertGroupGpus = 2;
        placement.scaleUpDomainGpus = 2;
        QVERIFY(expertAllToAllFlows(graph, placement).rings.empty());
    }

    void allTrafficAddsBytesPerStep()
    {
        // Ring h0 -> h2 -> h1 -> h3 carrying 10 GB per flow, and h0 <-> h1 (same leaf) three
        // times over at 5 GB each. Leaf 0's uplink: 2 ring flows each way, 20 GB per step, 0.4
        // of the 50 GB it carries in a 1 s step. host-0's access link: one ring flow (10 GB)
        // plus 3 x 5 GB each way, 25 GB, 0.5 of a second's worth; in a 0.4 s step it would need
        // 125% of the link: shown saturated.
        const FabricGraph graph = leafSpine(2, 2, 1);
        const auto host = [&](int h) {
            return findVertex(graph, "host-" + std::to_string(h));
        };
        FabricTrafficFlows ring;
        ring.rings = {{host(0), host(2), host(1), host(3)}};
        ring.bytesPerFlowPerStep = 10e9;
        FabricTrafficFlows pair;
        pair.rings = {{host(0), host(1)}};
        pair.weights = {3.0};
        pair.bytesPerFlowPerStep = 5e9;
        const std::size_t uplink = findLink(graph, "leaf-0", "spine-0");
        const std::size_t access = findLink(graph, "host-0", "leaf-0");
        const FabricLinkLoads second = combinedLinkLoads(graph, {ring, pair}, 1.0);
        QCOMPARE(second.bytesPerStep[uplink], 20e9);
        QCOMPARE(second.utilisation[uplink], 0.4);
        QCOMPARE(second.bytesPerStep[access], 25e9);
        QCOMPARE(second.flows[access], 4.0);
        QCOMPARE(second.utilisation[access], 0.5);
        const FabricLinkLoads shortStep = combinedLinkLoads(graph, {ring, pair}, 0.4);
        QCOMPARE(shortStep.utilisation[access], 1.0);
        QCOMPARE(shortStep.utilisation[uplink], 1.0);
    }

    void theSamplesPipelineRunsOneFlowPerRail()
    {
        // The H100 sample fixed at TP 4 x PP 2 trains TP 4 x PP 2 x DP 128 (the search's
        // interleave 20, microbatch 1, ZeRO-2) on 128 nodes of 8 GPUs and 8 rail NICs: stage 0
        // is nodes 0-63, stage 1 nodes 64-127, and GPU i of node n exchanges with GPU i of node
        // n + 64 on rail i. Every rail access link carries one flow each way, and the
        // non-blocking rail fabric gives each flow a whole 400 Gb/s NIC: utilisation 1 on the
        // access links.
        Plan plan = samplePlan();
        plan.training.constraints.tp = 4;
        plan.training.constraints.pp = 2;
        const FabricGraph graph = generatePlanFabric(*planFabric(plan, shippedCatalog()));
        const FabricLinkLoads loads
            = planFabricLinkLoads(plan, shippedCatalog(), graph, FabricTraffic::Pipeline);
        QVERIFY2(!loads.utilisation.empty(), loads.emptyReason.c_str());
        QCOMPARE(loads.bytesPerSecondPerFlow, 50e9);
        const auto &g = graph.storage();
        int accessLinks = 0;
        for (auto [it, end] = boost::edges(g); it != end; ++it)
            if (g[*it].linkClass == LinkClass::Access) {
                ++accessLinks;
                QCOMPARE(loads.flows[g[*it].id], 1.0);
                QCOMPARE(loads.utilisation[g[*it].id], 1.0);
                // Megatron-Core sends a (sequence / TP, microbatch, hidden) BF16 tensor per
                // microbatch and virtual stage each way (schedules.py, get_tensor_shapes with
                // sequence parallelism): 8192 / 4 x 1 x 8192 x 2 B = 33.55 MB, times 512 / 128
                // = 4 microbatches x 20 virtual stages = 2.684 GB per step each way.
                QCOMPARE(loads.bytesPerStep[g[*it].id], 8192.0 / 4 * 8192 * 2 * 4 * 20);
            }
        QCOMPARE(accessLinks, 1024);
        // The sample has no experts.
        const FabricLinkLoads experts
            = planFabricLinkLoads(plan, shippedCatalog(), graph, FabricTraffic::ExpertParallel);
        QVERIFY(experts.utilisation.empty());
        QVERIFY2(experts.emptyReason.find("EP 1") != std::string::npos,
                 experts.emptyReason.c_str());
        // A shared cluster's portfolio runs its jobs as the scheduler places them: the heat map
        // says so, where it said "no training workload on the fabric" though pretraining jobs
        // run on it.
        const auto ringLoadsOf = [](const char *sample) {
            const Plan loaded = cp::test::loadSamplePlan(sample);
            return planFabricLinkLoads(loaded, shippedCatalog(),
                                       generatePlanFabric(*planFabric(loaded, shippedCatalog())),
                                       FabricTraffic::DataParallel);
        };
        const FabricLinkLoads portfolio = ringLoadsOf("h100-2048-shared-cluster.json");
        QVERIFY(portfolio.utilisation.empty());
        QVERIFY2(portfolio.emptyReason.starts_with("the shared cluster's jobs share the fabric"),
                 portfolio.emptyReason.c_str());
        // A serving fleet has no training layout to load it with, and says so.
        const FabricLinkLoads serving = ringLoadsOf("l4-inference-fleet.json");
        QVERIFY(serving.utilisation.empty());
        QVERIFY2(serving.emptyReason.ends_with("and this plan serves a model"),
                 serving.emptyReason.c_str());
        // All traffic: a rail access link carries its data-parallel ring flow and its pipeline
        // flow, and over the step it is busy that share of the time.
        const FabricLinkLoads rings
            = planFabricLinkLoads(plan, shippedCatalog(), graph, FabricTraffic::DataParallel);
        const FabricLinkLoads all
            = planFabricLinkLoads(plan, shippedCatalog(), graph, FabricTraffic::All);
        // Node 0's rail 0 NIC has one cable, to its rail leaf.
        const std::size_t access = g[*boost::out_edges(graph.endpoints()[0], g).first].id;
        QVERIFY(rings.bytesPerStep[access] > 0);
        QCOMPARE(all.bytesPerStep[access], rings.bytesPerStep[access] + loads.bytesPerStep[access]);
        QCOMPARE(all.utilisation[access], all.bytesPerStep[access] / (50e9 * all.stepSeconds));
        QVERIFY(all.utilisation[access] < 1.0);
    }

    void anExpertGroupOfTwoNodesPairsThemOnEveryRail()
    {
        // Mixtral 8x7B with TP 2 and EP 8 on the H100 sample: an expert group spans 8 x 2 = 16
        // GPUs, two nodes (0-1, 2-3, ...), so each node exchanges with exactly one peer node on
        // each of its 8 rails. Both nodes of a pair hang off the same rail leaves, so the flow
        // gets the whole 400 Gb/s NIC: one flow each way, utilisation 1, on every access link.
        Plan plan = samplePlan();
        nlohmann::json doc = planToJson(plan);
        doc["workload"]["model"] = "mixtral-8x7b";
        doc["workload"]["tp"] = 2;
        doc["workload"]["ep"] = 8;
        plan = parsePlan(doc, "mixtral.json", &shippedCatalog());
        const FabricGraph graph = generatePlanFabric(*planFabric(plan, shippedCatalog()));
        const FabricLinkLoads loads
            = planFabricLinkLoads(plan, shippedCatalog(), graph, FabricTraffic::ExpertParallel);
        QVERIFY2(!loads.utilisation.empty(), loads.emptyReason.c_str());
        QCOMPARE(loads.bytesPerSecondPerFlow, 50e9);
        const auto &g = graph.storage();
        for (auto [it, end] = boost::edges(g); it != end; ++it)
            if (g[*it].linkClass == LinkClass::Access) {
                QCOMPARE(loads.flows[g[*it].id], 1.0);
                QCOMPARE(loads.utilisation[g[*it].id], 1.0);
            } else if (g[*it].linkClass == LinkClass::Fabric) {
                QCOMPARE(loads.flows[g[*it].id], 0.0);
            }
    }

    void aFailureIsAScenarioLikeAnyOther()
    {
        // A scenario that fails spine 0 of the sample compares beside the baseline: its step is
        // the plan estimate's with that switch failed, and the changes list names the key.
        Plan plan = samplePlan();
        plan.scenarios = {{"spine 0 down", {{"fabric", {{"failed_switches", {"spine-0"}}}}}}};
        const ScenarioComparison comparison = compareScenarios(plan, shippedCatalog());
        QCOMPARE(comparison.scenarios.size(), std::size_t(2));
        const ScenarioResult &down = comparison.scenarios[1];
        QVERIFY(down.ok);
        Plan failed = samplePlan();
        failed.fabric.failedSwitches = {"spine-0"};
        QCOMPARE(down.estimate.training.best.stepSeconds,
                 estimatePlan(failed, shippedCatalog()).training.best.stepSeconds);
        QCOMPARE(down.estimate.failedSwitches, std::vector<std::string> {"spine 0"});
        QVERIFY(!down.changes.empty());
    }

    void badFailedSwitchNamesItsPointer()
    {
        nlohmann::json doc = planToJson(samplePlan());
        doc["fabric"]["failed_switches"] = {"spine-0", 7};
        try {
            (void)parsePlan(doc, "bad.json", &shippedCatalog());
            QFAIL("a number in failed_switches was accepted");
        } catch (const InputError &error) {
            QCOMPARE(error.file(), std::string("bad.json"));
            QCOMPARE(error.pointer(), std::string("/fabric/failed_switches/1"));
        }
        doc["fabric"]["failed_switches"] = {"spine-0", "spine-0"};
        QVERIFY_THROWS_EXCEPTION(InputError, (void)parsePlan(doc, "bad.json", &shippedCatalog()));
        // Well formed but not in this fabric: the estimate says which entry.
        doc["fabric"]["failed_switches"] = {"spine-999"};
        const PlanEstimate estimate
            = estimatePlan(parsePlan(doc, "bad.json", &shippedCatalog()), shippedCatalog());
        QVERIFY(estimate.fabricError.find("/fabric/failed_switches/0") != std::string::npos);
    }

    void failedCablesAreTakenFromTheNamedPair()
    {
        // The sample's 2-tier rail fabric: 32 rail leaves (4 scalable units x 8 rails) with 32
        // node ports and 32 uplinks each on 64-port switches; 32 x 32 = 1,024 uplinks over
        // 64-port spines is 16 spines, so each leaf has 32 / 16 = 2 parallel cables to each spine.
        const Plan sample = samplePlan();
        const auto fabric = planFabric(sample, shippedCatalog());
        QVERIFY(fabric);
        const FabricGraph graph = generatePlanFabric(*fabric);
        QCOMPARE(findLinks(graph, "leaf-su0-rail0", "spine-0").size(), std::size_t(2));

        // Listed twice (once each way round): both parallel cables, distinct links.
        Plan plan = sample;
        plan.fabric.failedLinks = {"leaf-su0-rail0:spine-0", "spine-0:leaf-su0-rail0"};
        const FabricFailures failures = planFabricFailures(plan, graph);
        QCOMPARE(failures.links.size(), std::size_t(2));
        QVERIFY(failures.links[0] != failures.links[1]);
        const auto &g = graph.storage();
        for (auto [it, end] = boost::edges(g); it != end; ++it)
            if (g[*it].id == failures.links[0] || g[*it].id == failures.links[1]) {
                const std::set<std::string> ends {graph.vertex(boost::source(*it, g)).label,
                                                  graph.vertex(boost::target(*it, g)).label};
                QCOMPARE(ends, (std::set<std::string> {"leaf-su0-rail0", "spine-0"}));
            }
        QCOMPARE(
            failedLinkDisplayNames(plan, graph),
            std::vector<std::string> {"rail 0 leaf of scalable unit 0 – spine 0: 2 of 2 cables"});

        // A third time: there is no third cable, and the message names the entry.
        plan.fabric.failedLinks.push_back("leaf-su0-rail0:spine-0");
        try {
            (void)planFabricFailures(plan, graph);
            QFAIL("a third cable of a 2-cable pair was accepted");
        } catch (const FabricParameterError &error) {
            const std::string message = error.what();
            QVERIFY2(message.rfind("/fabric/failed_links/2: ", 0) == 0, error.what());
            QVERIFY2(message.find("only 2 cables") != std::string::npos, error.what());
        }
        // An end the fabric does not have (the sample has 4 scalable units, 0 to 3).
        plan.fabric.failedLinks = {"leaf-su0-rail0:spine-0", "leaf-su9-rail0:spine-0"};
        QVERIFY_THROWS_EXCEPTION(FabricParameterError, (void)planFabricFailures(plan, graph));
        // Two switches without a cable between them (leaves are cabled to spines only).
        plan.fabric.failedLinks = {"leaf-su0-rail0:leaf-su0-rail1"};
        QVERIFY_THROWS_EXCEPTION(FabricParameterError, (void)planFabricFailures(plan, graph));
    }

    void oneFailedUplinkCostsANonBlockingRailFabricNothing()
    {
        // Megatron's rank order puts consecutive nodes in one data-parallel ring; on rail r the
        // ring's flows stay under that rail's leaf of the scalable unit except at the unit's
        // boundary (node 31 -> 32 ...): one flow each way leaves a leaf over its 32 uplinks.
        // With one of them cut, 31 remain for that flow (ECMP spreads it), so every flow keeps
        // its full 400 Gb/s: no node is cut off and the step is the intact step.
        Plan plan = samplePlan();
        plan.fabric.failedLinks = {"leaf-su0-rail0:spine-0"};
        const PlanEstimate estimate = estimatePlan(plan, shippedCatalog());
        QVERIFY2(estimate.fabricError.empty(), estimate.fabricError.c_str());
        QVERIFY(estimate.training.found);
        QCOMPARE(estimate.nodesCutOffByFailures, 0LL);
        QCOMPARE(estimate.training.best.stepSeconds, estimate.intactStepSeconds);
        QCOMPARE(
            estimate.failedLinks,
            std::vector<std::string> {"rail 0 leaf of scalable unit 0 – spine 0: 1 of 2 cables"});
        const bool said = std::any_of(
            estimate.warnings.begin(), estimate.warnings.end(), [](const std::string &warning) {
                return warning.find("1 cable failed") != std::string::npos;
            });
        QVERIFY(said);
        const nlohmann::json json = planEstimateToJson(estimate);
        QCOMPARE(json["fabric"]["failed_links"]["links"].size(), std::size_t(1));
        QCOMPARE(json["training"]["intact_step_time_s"].get<double>(), estimate.intactStepSeconds);
        // The plan file keeps the failure.
        const Plan reread = parsePlan(planToJson(plan), "round-trip.json", &shippedCatalog());
        QCOMPARE(reread.fabric.failedLinks, plan.fabric.failedLinks);
    }

    void aLeafCutOffFromTheSpinesIsAnIsland()
    {
        // 3 leaves x 1 host, one spine: with leaf 0's only uplink cut, host 0 still has its
        // access cable but reaches neither other host. The other two (2 of 3, a majority) keep
        // the job; host 0 leaves it like a host whose leaf died, and the 2-node ring over the
        // survivors h1 -> h2 crosses the spine at the full 50 GB/s (fraction 1).
        const FabricGraph graph = leafSpine(3, 1, 1);
        const FabricFailureImpact impact
            = measureFabricFailure(graph, 1, 0, {{}, {findLink(graph, "leaf-0", "spine-0")}}, {3});
        QCOMPARE(impact.nodesCutOff, 1LL);
        QCOMPARE(fractionAt(impact, 3), 1.0);
    }

    void cuttingALeafsUplinksCostsItsScalableUnit()
    {
        // All 32 uplinks of rail 0's leaf in scalable unit 0 (2 cables to each of 16 spines):
        // its 32 nodes still reach that leaf, but not rail 0 of the other 96 nodes (PXN
        // rerouting over NVLink to another rail is not modelled). For the job this is the same
        // as losing the leaf itself: the same 32 nodes leave, so the step is the step with
        // leaf-su0-rail0 failed.
        Plan plan = samplePlan();
        for (int spine = 0; spine < 16; ++spine)
            for (int cable = 0; cable < 2; ++cable)
                plan.fabric.failedLinks.push_back("leaf-su0-rail0:spine-" + std::to_string(spine));
        const PlanEstimate estimate = estimatePlan(plan, shippedCatalog());
        QVERIFY2(estimate.fabricError.empty(), estimate.fabricError.c_str());
        QVERIFY(estimate.training.found);
        QCOMPARE(estimate.nodesCutOffByFailures, 32LL);
        Plan leafDown = samplePlan();
        leafDown.fabric.failedSwitches = {"leaf-su0-rail0"};
        QCOMPARE(estimate.training.best.stepSeconds,
                 estimatePlan(leafDown, shippedCatalog()).training.best.stepSeconds);
        QVERIFY(estimate.training.best.stepSeconds > estimate.intactStepSeconds);
    }

    void badFailedLinkNamesItsPointer()
    {
        nlohmann::json doc = planToJson(samplePlan());
        for (const nlohmann::json &bad :
             {nlohmann::json(7), nlohmann::json("leaf-0"), nlohmann::json("leaf-0:leaf-0"),
              nlohmann::json("leaf 0:spine-1")}) {
            doc["fabric"]["failed_links"] = {"leaf-su0-rail0:spine-0", bad};
            try {
                (void)parsePlan(doc, "bad.json", &shippedCatalog());
                QFAIL(qPrintable("accepted " + QString::fromStdString(bad.dump())));
            } catch (const InputError &error) {
                QCOMPARE(error.file(), std::string("bad.json"));
                QCOMPARE(error.pointer(), std::string("/fabric/failed_links/1"));
            }
        }
        // Well formed but not in this fabric: the estimate says which entry.
        doc["fabric"]["failed_links"] = {"leaf-su0-rail0:spine-0", "leaf-su0-rail0:spine-99"};
        const PlanEstimate estimate
            = estimatePlan(parsePlan(doc, "bad.json", &shippedCatalog()), shippedCatalog());
        QVERIFY2(estimate.fabricError.find("/fabric/failed_links/1") != std::string::npos,
                 estimate.fabricError.c_str());
    }
};

QTEST_APPLESS_MAIN(TestFabricFailure)
#include "tst_fabricfailure.moc"
