// SPDX-License-Identifier: GPL-3.0-or-later
// Alpha-beta cost of the collectives that distributed training and inference use.
// alpha = per-step latency (s), B = per-rank bus bandwidth (bytes/s, NCCL "busbw" convention:
// the rate the bottleneck link sustains, per direction), S = message bytes, n = ranks.
// Sources: Thakur, Rabenseifner & Gropp, "Optimization of Collective Communication Operations in
// MPICH", IJHPCA 2005 (ring formulas); Patarasuk & Yuan 2009 (bandwidth-optimal all-reduce);
// NVIDIA nccl-tests doc/PERFORMANCE.md (busbw factors); NCCL src/graph/tuning.cc (tree latency
// 2·log2(n)·alpha and algorithm bandwidth busBw/2 for the double binary tree).
#pragma once

namespace cp::model {

/** One level of the communication hierarchy: NVLink inside a node, or the scale-out network. */
struct LinkLevel
{
    double busBytesPerSecond = 0; ///< achievable per-rank bandwidth, per direction
    double latencySeconds = 0; ///< alpha: cost of one algorithm step
    /** Fixed cost of one collective call, whatever its steps: NCCL's own tuning model adds a
     * base latency per algorithm and protocol (ring: LL 6.6 us, Simple 8.4 us; NCCL
     * src/graph/tuning.cc, ncclTunerConstantsDefaults.baseLatencies). Zero for a bare link. */
    double launchSeconds = 0;
};

/** Ring all-reduce: base + 2(n-1)·alpha + 2(n-1)/n · S/B (every call below adds the link's
 * launchSeconds once). */
double ringAllReduceSeconds(double bytes, int ranks, const LinkLevel &link);
/** Double-binary-tree all-reduce (NCCL): base + 2·log2(n)·alpha + 2·S/B. */
double treeAllReduceSeconds(double bytes, int ranks, const LinkLevel &link);
/** The faster of ring and tree, as NCCL's tuner picks. */
double allReduceSeconds(double bytes, int ranks, const LinkLevel &link);
/** Ring reduce-scatter or all-gather of a total of S bytes: (n-1)·alpha + (n-1)/n · S/B. */
double reduceScatterSeconds(double bytes, int ranks, const LinkLevel &link);
double allGatherSeconds(double bytes, int ranks, const LinkLevel &link);
/** All-to-all where each rank holds S bytes, (n-1)/n of which leave it: (n-1)·alpha + (n-1)/n ·
 * S/B. */
double allToAllSeconds(double bytes, int ranks, const LinkLevel &link);
/**
 * All-to-all over `nodes` nodes of `localRanks` each, each rank holding S bytes spread evenly over
 * all ranks (NCCL's grouped send/receive): the share for peers in its node, (l-1)/n · S, goes over
 * the intra-node link while the share for other nodes, (n-l)/n · S, leaves through the rank's share
 * of the NIC, both at once; the call takes the slower. One node: allToAllSeconds.
 */
double hierarchicalAllToAllSeconds(double bytes, int localRanks, int nodes, const LinkLevel &intra,
                                   const LinkLevel &inter);
/**
 * A deduplicated MoE dispatch or combine (DeepEP's kernels, Megatron-Core's flex dispatcher): each
 * rank sends `intraBytes` to the other ranks of its node over the intra-node link and `interBytes`
 * through its share of the NIC, once per destination node, where the receiving rank forwards it
 * over NVLink; both at once, the call takes the slower. One node: the intra-node part alone.
 */
double deduplicatedDispatchSeconds(double intraBytes, double interBytes, int localRanks, int nodes,
                                   const LinkLevel &intra, const LinkLevel &inter);
/** Point-to-point send: alpha + S/B. */
double pointToPointSeconds(double bytes, const LinkLevel &link);

/**
 * Hierarchical all-reduce over `localRanks` GPUs per node and `nodes` nodes: reduce-scatter
 * inside the node, all-reduce of S/localRanks across nodes (each local rank on its own rail),
 * all-gather inside the node. (NCCL rail-aligned ring path's NVLS/CollNet-free ring path.) One
 * call: the intra-node link's launch cost is paid once.
 */
double hierarchicalAllReduceSeconds(double bytes, int localRanks, int nodes, const LinkLevel &intra,
                                    const LinkLevel &inter);

/**
 * One level more for a group spread over several buildings: each building all-reduces its part
 * as hierarchicalAllReduceSeconds does (a ring all-reduce is a reduce-scatter and an all-gather,
 * so this is both halves around the next step), and between them every rank all-reduces its
 * 1 / (ranks in the building) shard with its counterparts in the other buildings over the
 * interconnect (the hierarchical all-reduce of Jia et al., "Highly Scalable Deep Learning
 * Training System with Mixed-Precision", 2018, section 4.3, with buildings as its outer level).
 */
double campusAllReduceSeconds(double bytes, int localRanks, int nodesPerBuilding, int buildings,
                              const LinkLevel &intra, const LinkLevel &inter,
                              const LinkLevel &interconnect);

} // namespace cp::model
