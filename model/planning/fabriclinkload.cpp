// SPDX-License-Identifier: GPL-3.0-or-later
#include "model/planning/fabriclinkload.h"

#include "model/catalog/catalog.h"
#include "model/fabric/fabriccollective.h"
#include "model/fabric/fabricfailure.h"
#include "model/plan/plan.h"
#include "model/planning/planestimator.h"
#include "model/planning/planfabricfailures.h"
#include "model/planning/planworstfailure.h"

#include <algorithm>
#include <map>
#include <numeric>

namespace cp::model {

std::string fabricTrafficName(FabricTraffic traffic)
{
    switch (traffic) {
    case FabricTraffic::DataParallel:
        return "data-parallel rings";
    case FabricTraffic::Pipeline:
        return "pipeline sends";
    case FabricTraffic::ExpertParallel:
        return "expert all-to-all";
    case FabricTraffic::All:
        return "all traffic";
    }
    return "";
}

namespace {

/** "spine 1 -> rail 0 leaf of scalable unit 2" for the busier direction of link `id`. */
std::string arcName(const FabricGraph &graph, std::size_t id, const std::vector<double> &arcs)
{
    const auto &g = graph.storage();
    for (auto [it, end] = boost::edges(g); it != end; ++it) {
        if (g[*it].id != id)
            continue;
        FabricVertexId low = boost::source(*it, g), high = boost::target(*it, g);
        if (low > high)
            std::swap(low, high);
        const bool upward = arcs[2 * id] >= arcs[2 * id + 1];
        const std::string lowName = vertexDisplayName(graph, low);
        const std::string highName = vertexDisplayName(graph, high);
        return upward ? lowName + " -> " + highName : highName + " -> " + lowName;
    }
    return {};
}

/** The fabric endpoint of NIC `rail` of the job's node `node` (rank order). */
struct EndpointLookup
{
    const FabricGraph &graph;
    const RankPlacement &placement;
    FabricVertexId at(long long node, int rail) const
    {
        const long long fabricNode = placement.nodes[static_cast<std::size_t>(node)];
        return graph
            .endpoints()[static_cast<std::size_t>(fabricNode * placement.endpointsPerNode + rail)];
    }
    /** The rail of the NIC nearest GPU `position` of its node (NICs spread evenly over GPUs). */
    int railOf(long long position) const
    {
        return static_cast<int>(position * placement.endpointsPerNode
                                / std::max(1, placement.gpusPerNode));
    }
};

/** Consecutive GPUs on one NVLink domain: at least a node. */
long long domainGpus(const RankPlacement &placement)
{
    return std::max(placement.gpusPerNode, placement.scaleUpDomainGpus);
}

/** Pairs keyed by their endpoints, in a fixed order, as weighted two-member rings. */
FabricTrafficFlows
pairsAsFlows(const std::map<std::pair<FabricVertexId, FabricVertexId>, double> &pairs)
{
    FabricTrafficFlows flows;
    for (const auto &[ends, count] : pairs) {
        flows.rings.push_back({ends.first, ends.second});
        flows.weights.push_back(count);
    }
    return flows;
}

long long jobNodeCount(const RankPlacement &placement)
{
    return static_cast<long long>(placement.nodes.size());
}

} // namespace

FabricLinkLoads fabricLinkLoads(const FabricGraph &graph,
                                const std::vector<std::vector<FabricVertexId>> &rings,
                                const FabricFailures &failures, const std::vector<double> &weights)
{
    FabricLinkLoads loads;
    std::vector<double> arcs;
    const RingRate rate = concurrentRingRate(graph, rings, 0.0, failures, &arcs,
                                             weights.empty() ? nullptr : &weights);
    loads.bytesPerSecondPerFlow = rate.bytesPerSecondPerFlow;
    loads.bottleneckLink = rate.bottleneckLink; // names an unreachable member, if any
    loads.utilisation.assign(graph.linkCount(), 0.0);
    loads.flows.assign(graph.linkCount(), 0.0);
    loads.bytesPerStep.assign(graph.linkCount(), 0.0);
    const auto &g = graph.storage();
    double worstLoad = 0;
    std::size_t worstId = 0;
    for (auto [it, end] = boost::edges(g); it != end; ++it) {
        const std::size_t id = g[*it].id;
        const double busier = std::max(arcs[2 * id], arcs[2 * id + 1]);
        loads.flows[id] = busier;
        // Every flow runs at the common rate, so a link carrying w flows uses w x rate of C.
        if (g[*it].bytesPerSecond > 0)
            loads.utilisation[id]
                = std::min(1.0, busier * rate.bytesPerSecondPerFlow / g[*it].bytesPerSecond);
        // The bottleneck is the link with the most flows per byte per second of capacity.
        if (rate.bytesPerSecondPerFlow > 0 && g[*it].bytesPerSecond > 0
            && busier / g[*it].bytesPerSecond > worstLoad) {
            worstLoad = busier / g[*it].bytesPerSecond;
            worstId = id;
        }
    }
    if (worstLoad > 0)
        loads.bottleneckLink = arcName(graph, worstId, arcs);
    return loads;
}

FabricLinkLoads combinedLinkLoads(const FabricGraph &graph,
                                  const std::vector<FabricTrafficFlows> &classes,
                                  double stepSeconds, const FabricFailures &failures)
{
    FabricLinkLoads loads;
    loads.traffic = FabricTraffic::All;
    loads.stepSeconds = stepSeconds;
    std::vector<double> bytes(2 * graph.linkCount(), 0.0), flows(2 * graph.linkCount(), 0.0);
    for (const FabricTrafficFlows &traffic : classes) {
        std::vector<double> arcs;
        concurrentRingRate(graph, traffic.rings, 0.0, failures, &arcs,
                           traffic.weights.empty() ? nullptr : &traffic.weights);
        for (std::size_t arc = 0; arc < arcs.size(); ++arc) {
            flows[arc] += arcs[arc];
            bytes[arc] += arcs[arc] * traffic.bytesPerFlowPerStep;
        }
    }
    loads.utilisation.assign(graph.linkCount(), 0.0);
    loads.flows.assign(graph.linkCount(), 0.0);
    loads.bytesPerStep.assign(graph.linkCount(), 0.0);
    const auto &g = graph.storage();
    double hottest = 0;
    std::size_t hottestId = 0;
    for (auto [it, end] = boost::edges(g); it != end; ++it) {
        const std::size_t id = g[*it].id;
        const std::size_t busier = bytes[2 * id] >= bytes[2 * id + 1] ? 2 * id : 2 * id + 1;
        loads.bytesPerStep[id] = bytes[busier];
        loads.flows[id] = flows[busier];
        const double canCarry = g[*it].bytesPerSecond * stepSeconds;
        if (canCarry > 0)
            loads.utilisation[id] = std::min(1.0, bytes[busier] / canCarry);
        if (loads.utilisation[id] > hottest) {
            hottest = loads.utilisation[id];
            hottestId = id;
        }
    }
    if (hottest > 0)
        loads.bottleneckLink = arcName(graph, hottestId, bytes);
    return loads;
}

FabricTrafficFlows dataParallelFlows(const FabricGraph &graph, const RankPlacement &placement,
                                     long long ringNodes)
{
    const EndpointLookup lookup {graph, placement};
    FabricTrafficFlows flows;
    const long long nodes = jobNodeCount(placement);
    if (ringNodes < 2)
        return flows;
    for (long long first = 0; first < nodes; first += ringNodes)
        for (int rail = 0; rail < placement.endpointsPerNode; ++rail) {
            std::vector<FabricVertexId> ring;
            for (long long node = first; node < std::min(nodes, first + ringNodes); ++node)
                ring.push_back(lookup.at(node, rail));
            flows.rings.push_back(std::move(ring));
        }
    return flows;
}

FabricTrafficFlows pipelineStageFlows(const FabricGraph &graph, const RankPlacement &placement)
{
    const EndpointLookup lookup {graph, placement};
    const long long gpn = std::max(1, placement.gpusPerNode);
    const long long jobGpus = jobNodeCount(placement) * gpn;
    const long long domain = domainGpus(placement);
    std::map<std::pair<FabricVertexId, FabricVertexId>, double> pairs;
    const long long senders = std::min(jobGpus, (placement.stages - 1LL) * placement.stageGpus);
    for (long long gpu = 0; gpu < senders; ++gpu) {
        const long long peer = gpu + placement.stageGpus;
        if (peer >= jobGpus || gpu / domain == peer / domain)
            continue;
        const int rail = lookup.railOf(peer % gpn);
        FabricVertexId a = lookup.at(gpu / gpn, rail), b = lookup.at(peer / gpn, rail);
        if (a > b)
            std::swap(a, b);
        pairs[{a, b}] += 1.0;
    }
    return pairsAsFlows(pairs);
}

FabricTrafficFlows expertAllToAllFlows(const FabricGraph &graph, const RankPlacement &placement)
{
    const EndpointLookup lookup {graph, placement};
    const long long gpn = std::max(1, placement.gpusPerNode);
    const long long domain = domainGpus(placement);
    FabricTrafficFlows flows;
    if (placement.expertParallel < 2 || placement.expertGroupGpus <= 1
        || (placement.expertGroupGpus <= domain && domain % placement.expertGroupGpus == 0))
        return flows;
    const long long blockNodes = std::max(1LL, (placement.expertGroupGpus + gpn - 1) / gpn);
    const long long domainNodes = std::max(1LL, domain / gpn);
    const long long nodes = jobNodeCount(placement);
    for (long long first = 0; first < nodes; first += blockNodes) {
        const long long last = std::min(nodes, first + blockNodes);
        for (long long a = first; a < last; ++a)
            for (long long b = a + 1; b < last; ++b) {
                if (a / domainNodes == b / domainNodes)
                    continue;
                for (int rail = 0; rail < placement.endpointsPerNode; ++rail)
                    flows.rings.push_back({lookup.at(a, rail), lookup.at(b, rail)});
            }
    }
    return flows;
}

namespace {

double operationBytes(const TrainingEstimate &estimate, OperationKind kind)
{
    double bytes = 0;
    for (const StepOperation &op : estimate.operations)
        if (op.kind == kind)
            bytes += op.bytes;
    return bytes;
}

/** The job's ranks over the nodes the failures leave, in rank order. */
RankPlacement placementOf(const PlanTrainingSetup &setup, const ParallelConfig &c,
                          const FabricGraph &graph, const FabricFailures &failures)
{
    RankPlacement placement;
    placement.endpointsPerNode = std::max(1, setup.nicsPerNode);
    placement.gpusPerNode = std::max(1, setup.cluster.gpusPerNode);
    placement.scaleUpDomainGpus = std::max(1, setup.cluster.scaleUpDomainGpus);
    placement.stageGpus = pipelineStageGpus(c);
    placement.stages = c.pp;
    placement.expertGroupGpus = 1LL * c.ep * c.tp * c.cp;
    placement.expertParallel = c.ep;
    const long long fabricNodes
        = static_cast<long long>(graph.endpoints().size()) / placement.endpointsPerNode;
    const long long jobNodes = std::min<long long>(setup.cluster.nodes(), fabricNodes);
    const std::vector<char> cut
        = nodesCutOff(graph, fabricLiveness(graph, failures), placement.endpointsPerNode, jobNodes);
    const long long usedNodes
        = (placement.stageGpus * c.pp + placement.gpusPerNode - 1) / placement.gpusPerNode;
    for (long long node = 0;
         node < jobNodes && static_cast<long long>(placement.nodes.size()) < usedNodes; ++node)
        if (!cut[static_cast<std::size_t>(node)])
            placement.nodes.push_back(node);
    return placement;
}

/**
 * What one flow of each class carries per step, per direction, from the step's operations
 * (bytes per GPU): a data-parallel ring flow carries a rail's share of the node's scale-out
 * stage, (GPUs per NIC) x bytes / local ranks x (N - 1) / N of a hierarchical all-reduce; a
 * pipeline pair carries one GPU's sends one way (half its two-way bytes); an all-to-all node
 * pair carries, per rail, every GPU's share for the peer node's local ranks.
 */
std::vector<FabricTrafficFlows> trafficClasses(const FabricGraph &graph,
                                               const RankPlacement &placement,
                                               const ParallelConfig &c,
                                               const TrainingEstimate &best, int &ringNodes)
{
    const double gpn = placement.gpusPerNode, nics = placement.endpointsPerNode;
    const long long dpGroup = 1LL * c.dp * c.cp;
    const double local = std::clamp<double>(gpn / c.tp, 1.0, static_cast<double>(dpGroup));
    ringNodes = static_cast<int>(std::clamp<long long>(
        placement.stageGpus / placement.gpusPerNode, 1,
        std::max<long long>(1, static_cast<long long>(placement.nodes.size()))));
    FabricTrafficFlows dp = dataParallelFlows(graph, placement, ringNodes);
    dp.bytesPerFlowPerStep = gpn / nics * operationBytes(best, OperationKind::DataParallel) / local
        * (ringNodes - 1.0) / ringNodes;
    FabricTrafficFlows pipeline = pipelineStageFlows(graph, placement);
    pipeline.bytesPerFlowPerStep = 0.5 * operationBytes(best, OperationKind::PipelineSend);
    FabricTrafficFlows experts = expertAllToAllFlows(graph, placement);
    const double expertLocal
        = std::clamp<double>(gpn / (1.0 * c.tp * c.cp), 1.0, std::max(1, c.ep));
    experts.bytesPerFlowPerStep = gpn * expertLocal
        * operationBytes(best, OperationKind::ExpertParallel) / (std::max(1, c.ep) * nics);
    return {dp, pipeline, experts};
}

std::string noTrafficReason(FabricTraffic traffic, const ParallelConfig &c)
{
    switch (traffic) {
    case FabricTraffic::DataParallel:
        return "the data-parallel groups fit inside a node";
    case FabricTraffic::Pipeline:
        return c.pp > 1 ? "the pipeline stages exchange over NVLink only"
                        : "the layout has no pipeline parallelism (PP 1)";
    case FabricTraffic::ExpertParallel:
        return c.ep > 1 ? "each expert-parallel group fits in one NVLink domain"
                        : "the layout has no expert parallelism (EP 1)";
    case FabricTraffic::All:
        break;
    }
    return "the layout puts no traffic on the scale-out fabric";
}

} // namespace

FabricLinkLoads planFabricLinkLoads(const Plan &plan, const Catalog &catalog,
                                    const FabricGraph &graph, FabricTraffic traffic)
{
    FabricLinkLoads none;
    none.traffic = traffic;
    const std::optional<PlanTrainingSetup> setup = planTrainingSetup(plan, catalog);
    if (!setup) {
        // A shared cluster's jobs come and go through its scheduler: no one layout loads it.
        if (!plan.portfolio.classes.empty() || !plan.portfolio.services.empty())
            none.emptyReason
                = "the shared cluster's jobs share the fabric as its scheduler places them over "
                  "time, and no single training layout stands for them (plan simulate gives "
                  "their queues)";
        else if (plan.workloadType == WorkloadType::Inference)
            none.emptyReason = "the heat map loads the fabric with a training layout's traffic, "
                               "and this plan serves a model";
        else
            none.emptyReason = "no training workload on the fabric";
        return none;
    }
    // The layout the Estimate panel shows: the search on what the failures leave.
    const PlanEstimate estimate = estimatePlan(plan, catalog);
    if (!estimate.training.found) {
        none.emptyReason = "no training layout fits";
        return none;
    }
    const TrainingEstimate &best = estimate.training.best;
    const ParallelConfig &c = best.config;
    const FabricFailures failures = planFabricFailures(plan, graph);
    const RankPlacement placement = placementOf(*setup, c, graph, failures);
    int ringNodes = 1;
    const std::vector<FabricTrafficFlows> classes
        = trafficClasses(graph, placement, c, best, ringNodes);
    const auto hasFlows = [](const FabricTrafficFlows &flows) {
        return !flows.rings.empty();
    };
    FabricLinkLoads loads;
    if (traffic == FabricTraffic::All) {
        if (std::none_of(classes.begin(), classes.end(), hasFlows)) {
            none.emptyReason = noTrafficReason(traffic, c);
            return none;
        }
        loads = combinedLinkLoads(graph, classes, best.stepSeconds, failures);
    } else {
        const FabricTrafficFlows &flows = classes[static_cast<std::size_t>(traffic)];
        if (!hasFlows(flows)) {
            none.emptyReason = noTrafficReason(traffic, c);
            return none;
        }
        loads = fabricLinkLoads(graph, flows.rings, failures, flows.weights);
        for (std::size_t id = 0; id < loads.flows.size(); ++id)
            loads.bytesPerStep[id] = loads.flows[id] * flows.bytesPerFlowPerStep;
    }
    loads.traffic = traffic;
    loads.ringNodes = ringNodes;
    loads.stepSeconds = best.stepSeconds;
    return loads;
}

} // namespace cp::model
