// SPDX-License-Identifier: GPL-3.0-or-later
// What losing one switch does to a training job: the rings are re-measured on the graph without
// it, the nodes it cuts off leave the job, and the step is re-estimated; the worst such switch
// is the "worst single failure" of the fabric.
#pragma once

#include "model/cluster/clusterdescription.h"
#include "model/fabric/fabricanalysis.h"
#include "model/fabric/fabricgraph.h"

#include <functional>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace cp::model {

/** What a set of failures leaves of the fabric, as the training estimate sees it. */
struct FabricFailureImpact
{
    long long nodes = 0; ///< nodes on the fabric (endpoints / endpoints per node)
    /** Nodes with at least one NIC cut off from the fabric: they leave the job. */
    long long nodesCutOff = 0;
    /**
     * For rings over N nodes (ascending N, all such rings at once), the ring rate the surviving
     * nodes get on the failed graph relative to the intact graph, at most 1. 0 means the
     * surviving nodes can no longer reach each other.
     */
    std::vector<std::pair<long long, double>> ringRateFraction;
    long long survivingNodes() const { return nodes - nodesCutOff; }
};

/**
 * Measures `failures` on `graph`, whose endpoints come in nodes of `endpointsPerNode`
 * consecutive endpoints (rank order); the job runs on the first `jobNodes` nodes (0: all; a
 * torus or Dragonfly may have more endpoints than the plan has NICs). `ringSizes` are the ring
 * sizes (in nodes) to measure; the node count is always added. Rings are contiguous, as a scheduler
 * places a job on an intact fabric, and on the failed graph they run over the surviving nodes in
 * the same order.
 */
FabricFailureImpact measureFabricFailure(const FabricGraph &graph, int endpointsPerNode,
                                         long long jobNodes, const FabricFailures &failures,
                                         std::vector<long long> ringSizes = {});

/**
 * Per node of the first `jobNodes` (endpoints in nodes of `endpointsPerNode`), 1 when the
 * failures cut it off: an endpoint failed or lost every live scale-out link, or it sits on an
 * island apart from the component holding most of the job's endpoints. NCCL aborts on a NIC it
 * cannot use, so such a node leaves the job.
 */
std::vector<char> nodesCutOff(const FabricGraph &graph, const FabricLiveness &alive,
                              int endpointsPerNode, long long jobNodes);

/**
 * `cluster` after `impact`: its GPUs are those of the surviving nodes, and its scale-out rate
 * for each measured ring size is its own rate (closed form or already measured) times the
 * surviving fraction. The ring sizes include the cluster's nodes per leaf, where the closed
 * form steps, so an impact of 1 everywhere leaves every rate as it was. On a campus the impact
 * is one building's: every building gives up as many nodes as it cut off (identical buildings
 * keep the layout's stages whole), and its rates pace the whole step.
 */
ClusterDescription clusterAfterFailure(const ClusterDescription &cluster,
                                       const FabricFailureImpact &impact);

/** The ring sizes clusterAfterFailure needs for `cluster`: 2, 4, 8, ... up to one building's
 * nodes, and its nodes per leaf. */
std::vector<long long> ringSizesForCluster(const ClusterDescription &cluster);

/**
 * One switch per class of interchangeable switches, in graph order. Two switches are in one class
 * when they have the same tier and the same number of links to each tier (endpoints, leaves,
 * spines, cores); for a generated fabric whose scalable units, pods or groups are all full that
 * is a graph automorphism, so failing any member of a class costs the same, and a 16,384-GPU rail
 * fabric (1,280 switches) needs three evaluations instead of 1,280. Small fabrics (`exhaustive`
 * or at most 64 switches) list every switch, so partly filled ones are exact too.
 */
std::vector<FabricVertexId> failureCandidates(const FabricGraph &graph, bool exhaustive = false);

/** A name a user reads: "leaf 3 (rail 2)", "spine 5", "core 0", "router 2 of group 7". */
std::string switchDisplayName(const FabricGraph &graph, FabricVertexId vertex);

/** The worst single switch failure and what it does to the training step. */
struct WorstFailure
{
    bool found = false; ///< false: no switch (a torus: the chips route), or nothing estimable
    std::string reason; ///< why not found
    FabricVertexId vertex = 0;
    std::string switchName;
    std::string switchLabel; ///< the graph label ("leaf-su3-rail2"), the plan file's key
    /** Step with the switch lost; infinity when the job cannot run at all. */
    double stepSeconds = 0;
    double intactStepSeconds = 0;
    FabricFailureImpact impact;
    int candidatesEvaluated = 0; ///< one per class of interchangeable switches
    int switches = 0; ///< scale-out switches in the graph
    /** Judged by the servers it cuts off, for a plan without a training job (a serving fleet, a
     * shared cluster): stepSeconds is then the capacity intact over what the servers left keep
     * (1 intact), infinity when none is left. */
    bool byServersCutOff = false;
    /** A training job: the GPUs the failure leaves and those the layout after it runs on (fewer
     * where the global batch does not divide over them all); 0 when not known. */
    long long gpusLeft = 0;
    long long gpusUsed = 0;
    /** The layout the job takes after the failure ("TP 1 x PP 3 x DP 32, microbatch 8"). */
    std::string layoutAfter;
};

/**
 * Step time of the job under an impact; nullopt when no layout runs on what is left (too few
 * GPUs for the model, or the surviving nodes are split).
 */
using StepSecondsAfterFailure = std::function<std::optional<double>(const FabricFailureImpact &)>;

/**
 * Fails each of failureCandidates(graph) in turn (on top of `alreadyFailed`) and returns the one
 * whose loss makes the step longest; a failure no layout survives counts as an infinite step.
 * `intactStepSeconds` is the step with only `alreadyFailed`.
 */
WorstFailure findWorstSingleFailure(const FabricGraph &graph, int endpointsPerNode,
                                    long long jobNodes, const StepSecondsAfterFailure &stepSeconds,
                                    const std::vector<long long> &ringSizes,
                                    const FabricFailures &alreadyFailed = {});

} // namespace cp::model
