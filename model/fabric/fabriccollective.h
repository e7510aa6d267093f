// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "model/fabric/fabricanalysis.h"
#include "model/fabric/fabricgraph.h"

#include <memory>
#include <string>
#include <vector>

namespace cp::model {

/** What concurrent rings get from a fabric: the rate of their slowest flow and its path. */
struct RingRate
{
    /** Each ring flow's rate, per direction, when all flows of all rings run at once. */
    double bytesPerSecondPerFlow = 0;
    /** Longest flow path, in links, and its latency (cables plus switches on the way). */
    int maxHops = 0;
    double pathLatencySeconds = 0;
    /** ECMP-weighted flows on the most loaded link relative to its capacity. */
    double bottleneckLoad = 0;
    std::string bottleneckLink; ///< "leaf-3 -> spine-1"
    int flows = 0;
};

/**
 * Ring collectives over the graph (NCCL ring: member i sends to member i + 1). Each flow is
 * split evenly over all its shortest paths (ideal ECMP / adaptive routing); a link carrying
 * flows of total weight w out of capacity C limits every flow through it to C / w, and a ring
 * all-reduce advances in lock step, so every ring runs at the rate of the worst link any flow
 * uses (Patarasuk and Yuan 2009 for the ring's bus bandwidth equalling one link's rate). The
 * search from each member stops at its neighbour's distance, so rings of nearby members cost
 * little even on 65,536-endpoint fabrics. `arcLoads`, when given, receives the ECMP-weighted
 * flows on each link direction: index 2 x link id for the lower vertex to the higher, + 1 back.
 * `ringWeights`, when given, counts ring r's flows ringWeights[r] times (k ranks sharing the
 * same endpoints), so the rate is that of one unit of weight. A flow between two endpoints that
 * each have one scale-out cable is its two access links plus one flow between their switches,
 * and flows between the same switch pair are routed once, weighted: the same loads, found once.
 */
RingRate concurrentRingRate(const FabricGraph &graph,
                            const std::vector<std::vector<FabricVertexId>> &rings,
                            double switchLatencySeconds, const FabricFailures &failures = {},
                            std::vector<double> *arcLoads = nullptr,
                            const std::vector<double> *ringWeights = nullptr);

/**
 * concurrentRingRate for many sets of rings on one fabric (the ring sizes of one cluster, say):
 * what does not depend on the rings (which links are alive, where each endpoint attaches, the
 * search buffers, the link capacities) is prepared once. Each rate() gives exactly what
 * concurrentRingRate gives for the same rings.
 */
class RingRateMeter
{
public:
    explicit RingRateMeter(const FabricGraph &graph, const FabricFailures &failures = {});
    struct Fabric;
    /** What meters of one fabric share (live links, attachments, adjacency, capacities): built
     * once with prepare(), then given to a meter per thread, each with its own search buffers.
     * The graph must outlive it. */
    static std::shared_ptr<const Fabric> prepare(const FabricGraph &graph,
                                                 const FabricFailures &failures = {});
    explicit RingRateMeter(std::shared_ptr<const Fabric> prepared);
    ~RingRateMeter();
    RingRateMeter(const RingRateMeter &) = delete;
    RingRateMeter &operator=(const RingRateMeter &) = delete;

    RingRate rate(const std::vector<std::vector<FabricVertexId>> &rings,
                  double switchLatencySeconds, std::vector<double> *arcLoads = nullptr,
                  const std::vector<double> *ringWeights = nullptr);
    /**
     * rate() of every rank's rings on a fabric of `rails` interchangeable rails
     * (FabricGraph::interchangeableRails), measured from rank 0's rings alone: the links between
     * two switches above the leaves carry `rails` times rank 0's load, every other link rank
     * 0's alone (rank r's sits on rail r's copy of it). Exact by the fabric's symmetry, so only
     * for a fabric without failures.
     */
    RingRate rateOfInterchangeableRails(const std::vector<std::vector<FabricVertexId>> &rankZero,
                                        int rails, double switchLatencySeconds);

    struct Context;

private:
    /** rate() with the links above the leaves carrying `sharedMultiplier` times the loads the
     * rings put on them. */
    RingRate measure(const std::vector<std::vector<FabricVertexId>> &rings,
                     double switchLatencySeconds, std::vector<double> *arcLoads,
                     const std::vector<double> *ringWeights, int sharedMultiplier);

    std::unique_ptr<Context> m_context;
};

/** How a scheduler placed a job's ranks on the nodes. */
enum class NodePlacement {
    Contiguous, ///< rank order follows the fabric: ring neighbours share leaves
    Scattered, ///< nodes handed out without regard to the fabric (a fragmented cluster)
};

/**
 * The rings of the scale-out stage of a hierarchical all-reduce: endpoints are grouped in nodes
 * of `endpointsPerNode` consecutive endpoints; local rank r of `ringNodes` nodes that follow each
 * other in the job's node order form one ring, for every rank and every block of nodes (all
 * data-parallel groups at once). Scattered placement orders nodes by a stride near 0.618 N that
 * is coprime to N, so ring neighbours land on different leaves: deterministic, and as bad as a
 * random placement for oversubscribed uplinks. With `onlyRank` >= 0 only that rank's rings.
 */
std::vector<std::vector<FabricVertexId>>
rankRings(const FabricGraph &graph, int endpointsPerNode, int ringNodes,
          NodePlacement placement = NodePlacement::Contiguous, int onlyRank = -1);

} // namespace cp::model
