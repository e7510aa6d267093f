// SPDX-License-Identifier: GPL-3.0-or-later
// How hard a training layout drives each link: the heat map of the Fabric view.
#pragma once

#include "model/fabric/fabricanalysis.h"
#include "model/fabric/fabricgraph.h"

#include <string>
#include <vector>

namespace cp::model {

class Catalog;
struct Plan;

/** Which of a training step's scale-out traffic the heat map shows. */
enum class FabricTraffic {
    DataParallel, ///< gradient rings (and ZeRO gathers) over the data-parallel groups
    Pipeline, ///< activations and gradients between consecutive pipeline stages
    ExpertParallel, ///< MoE dispatch and combine all-to-all within each expert-parallel group
    All, ///< all three, as bytes per step against what the link can carry in a step
};

std::string fabricTrafficName(FabricTraffic traffic);

/** Per link (by id) what the flows put on it, in its busier direction. */
struct FabricLinkLoads
{
    /**
     * For one traffic class: the share of the link's capacity its flows use while they all run
     * at their common rate (the slowest flow's, fabriccollective.h), 1 on the bottleneck link, 0
     * on an idle one. For All: the bytes the link carries per step over what it could carry in
     * the step's time (its average utilisation over the step).
     */
    std::vector<double> utilisation;
    /** ECMP-weighted flows in the busier direction (2 where two flows share one uplink). */
    std::vector<double> flows;
    /** Bytes per training step in the busier direction (0 when the step's bytes are unknown). */
    std::vector<double> bytesPerStep;
    double bytesPerSecondPerFlow = 0; ///< the flows' common rate; 0 when a member is unreachable
    std::string bottleneckLink;
    FabricTraffic traffic = FabricTraffic::DataParallel;
    int ringNodes = 0; ///< nodes per data-parallel ring the loads were measured for
    double stepSeconds = 0; ///< the training step the bytes belong to
    /** Why there is nothing to show ("the layout has no pipeline parallelism"); empty if loads. */
    std::string emptyReason;
};

/**
 * One class of traffic as flows between endpoints: member i of a ring sends to member i + 1
 * (a two-member ring is a pair exchanging in both directions). `weights`, when not empty, gives
 * each ring's multiplicity: k ranks whose flows share the same endpoints.
 */
struct FabricTrafficFlows
{
    std::vector<std::vector<FabricVertexId>> rings;
    std::vector<double> weights;
    double bytesPerFlowPerStep = 0; ///< per direction, per unit of weight
};

/** concurrentRingRate's per-link loads for `rings` with `failures` removed. */
FabricLinkLoads fabricLinkLoads(const FabricGraph &graph,
                                const std::vector<std::vector<FabricVertexId>> &rings,
                                const FabricFailures &failures = {},
                                const std::vector<double> &weights = {});

/**
 * Every class's bytes on every link per step, over what each link carries in `stepSeconds`
 * (utilisation clamped to 1 where the classes together ask for more than the step allows).
 */
FabricLinkLoads combinedLinkLoads(const FabricGraph &graph,
                                  const std::vector<FabricTrafficFlows> &classes,
                                  double stepSeconds, const FabricFailures &failures = {});

/** Where a training job's ranks sit: Megatron's order, tensor fastest, pipeline slowest. */
struct RankPlacement
{
    int endpointsPerNode = 1; ///< NICs (fabric endpoints) per node, one rail each
    int gpusPerNode = 1;
    int scaleUpDomainGpus = 1; ///< consecutive GPUs that reach each other over NVLink
    /** The fabric nodes (endpoint groups) the job's ranks occupy, in rank order. */
    std::vector<long long> nodes;
    long long stageGpus = 1; ///< tp x cp x dp: the GPUs of one pipeline stage
    int stages = 1; ///< pp
    long long expertGroupGpus = 1; ///< ep x tp x cp: the GPUs an all-to-all group spans
    int expertParallel = 1; ///< ep
};

/**
 * The data-parallel rank rings: NIC i of each block of `ringNodes` consecutive job nodes (the
 * scale-out stage of a hierarchical all-reduce). Nothing for rings of one node.
 */
FabricTrafficFlows dataParallelFlows(const FabricGraph &graph, const RankPlacement &placement,
                                     long long ringNodes);

/**
 * The pipeline's scale-out flows: GPU g of stage s exchanges with GPU g + stageGpus of stage
 * s + 1 (forward activations one way, their gradients back). Pairs inside one NVLink domain
 * stay off the fabric; the others leave on the rail of the receiving GPU, as NCCL's PXN routes
 * a send over NVLink to the NIC on the peer's rail. Ranks sharing a NIC pair are one ring with
 * their count as weight.
 */
FabricTrafficFlows pipelineStageFlows(const FabricGraph &graph, const RankPlacement &placement);

/**
 * The expert all-to-all's scale-out flows: within each block of expertGroupGpus consecutive
 * GPUs, every node pair of the block exchanges on every rail (PXN keeps all-to-all traffic
 * rail-aligned). Nothing when a group fits in one NVLink domain.
 */
FabricTrafficFlows expertAllToAllFlows(const FabricGraph &graph, const RankPlacement &placement);

/**
 * The loads of the plan's training layout on its generated fabric, for one traffic class or
 * all: the data-parallel rank rings (NIC i of the tp x cp x dp / GPUs-per-node consecutive nodes
 * a data-parallel group spans), the pipeline's stage pairs and the expert all-to-all, on the
 * fabric without the plan's failed switches and cables. Empty utilisation, with emptyReason,
 * when the plan has no training layout, no fabric or no traffic of that class.
 */
FabricLinkLoads planFabricLinkLoads(const Plan &plan, const Catalog &catalog,
                                    const FabricGraph &graph,
                                    FabricTraffic traffic = FabricTraffic::DataParallel);

} // namespace cp::model
