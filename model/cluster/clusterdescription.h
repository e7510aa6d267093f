// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "model/catalog/catalogitems.h"
#include "model/cluster/collectivecost.h"

#include <string>
#include <utility>
#include <vector>

namespace cp::model {

class Catalog;

/**
 * What the estimators need to know about the hardware: the GPU, how many there are, how they
 * are grouped into nodes and NVLink domains, and what the scale-out network gives each node.
 * Built from catalog entries (fromCatalog) or by hand in tests.
 */
/** What ClusterDescription::fromCatalog builds a cluster from: catalog ids and fabric choices. */
struct ClusterFromCatalogOptions
{
    std::string nodeId; ///< the node type: its GPU, GPUs per node, NVLink domain, NIC
    int gpus = 0; ///< GPUs in the cluster
    std::string nicId; ///< another scale-out NIC than the node's own; empty: the node's
    int nicsPerNode = 0; ///< NICs per node; 0: the node's own count
    double oversubscription = 1.0; ///< leaf down:up bandwidth, 1 = non-blocking
    bool railOptimised = true; ///< one leaf per rail (each node's NIC i on rail leaf i)
    int switchPorts = 64; ///< leaf switch radix
};

struct ClusterDescription
{
    GpuSpec gpu;
    int gpus = 0;
    int gpusPerNode = 1;
    int scaleUpDomainGpus = 1; ///< GPUs that reach each other over NVLink/NVSwitch
    std::string nicName;
    int nicsPerNode = 0;
    double nicBytesPerSecond = 0; ///< line rate per NIC, per direction
    double nicAchievableFraction = 0.9;
    double networkLatencySeconds = 5e-6;
    /** Down:up bandwidth ratio at the first tier whose uplinks rings must cross (1 = non-blocking).
     */
    double oversubscription = 1.0;
    /**
     * The leaves' down:up ports as the generator built them (measureScaleOutOnGraph): 49:15 for
     * 4:1 asked on radix 64, the fewest switches. 0 until a fabric graph is measured; then the
     * sends and all-to-alls that cross a leaf's uplinks are slowed by it, not by the ratio asked.
     */
    double builtOversubscription = 0;
    double leafOversubscription() const
    {
        return builtOversubscription > 0 ? builtOversubscription : oversubscription;
    }
    /** Nodes whose same-rank GPUs meet at one leaf switch (a rail-optimised scalable unit). */
    int nodesPerLeaf = 32;
    /** Where it came from, for explanations: "2:1 oversubscribed RoCE fabric", say. */
    std::string fabricName;
    bool railOptimised = false;
    /** Rail-optimised with every rail a fabric (plane) of its own (RailFatTreeParameters). */
    bool multiPlane = false;
    int switchPorts = 64;
    /**
     * Per-GPU scale-out bandwidth at line rate measured on the fabric graph (fabricscaleout.h)
     * for rings over N consecutive nodes with every such ring running at once, ascending N. When
     * empty, scaleOutLink uses the closed form: the node's NIC share, divided by the
     * oversubscription for rings that leave a leaf.
     */
    std::vector<std::pair<int, double>> fabricRingBytesPerSecond;
    /**
     * Buildings (or halls) the GPUs are spread over, each with a fabric of its own for
     * gpus / buildings GPUs (the fabric fields above describe one of them), joined by a
     * data-centre interconnect. 1: one fabric.
     */
    int buildings = 1;
    /** What the interconnect carries out of one building, per direction. */
    double interconnectBytesPerSecondPerBuilding = 0;
    /** One-way latency between buildings (fibre at about 4.9 us per km). */
    double interconnectLatencySeconds = 0;

    int nodes() const { return (gpus + gpusPerNode - 1) / gpusPerNode; }
    int gpusPerBuilding() const { return gpus / std::max(1, buildings); }
    /** Nodes on one building's fabric (all of them with one building). */
    int nodesPerBuilding() const { return nodes() / std::max(1, buildings); }
    /**
     * The interconnect as one GPU sees it when `senders` GPUs of its building send across at
     * once (all of them by default): the building's capacity divided among them.
     */
    LinkLevel interconnectLink(int senders = 0) const;
    /** NVLink (or PCIe) level: NCCL's measured bus bandwidth and ring-Simple step latency. */
    LinkLevel scaleUpLink() const;
    /**
     * The same link with NCCL's low-latency LL protocol, which its tuner picks for small
     * messages: 6.6 us a call and LL's step latency, at half the bus bandwidth (an LL line
     * carries a 4-byte flag beside every 4 bytes of data) and at most the LL ceiling NCCL has for
     * the GPU's architecture (`nccl_ll_busbw_cap_gb_per_s`: 87.7 GB/s Ampere, 141 Hopper;
     * NVIDIA/nccl src/graph/tuning.cc, ring LL `busBw = min(llMaxBw, busBw * .5)`, `llMaxBws`).
     */
    LinkLevel scaleUpLowLatencyLink() const;
    /**
     * Scale-out level as seen by one GPU when every GPU of the node talks at once (the node's
     * NIC bandwidth shared by its GPUs). `nodesSpanned` decides whether traffic leaves the leaf
     * and so pays the oversubscription.
     */
    LinkLevel scaleOutLink(int nodesSpanned) const;
    /**
     * Scale-out as one GPU sees it when every GPU sends at once to the GPU of its rank
     * `strideNodes` nodes further on (a pipeline stage to the next, all of a stage's GPUs
     * together). A leaf of L nodes then sends the traffic of min(stride, L) of them past its
     * uplinks, which carry L nodes' worth divided by the oversubscription r: each GPU gets
     * min(1, L / (r x min(stride, L))) of its NIC share. Rings (scaleOutLink) cross a leaf with
     * one flow per boundary; these sends all cross together.
     */
    LinkLevel pipelineSendLink(int strideNodes) const;
    /**
     * Scale-out as one GPU sees it in an all-to-all over groups of `nodesSpanned` consecutive
     * nodes, every group at once (MoE dispatch and combine). Each node sends alike to every node
     * of its group, so a leaf of L nodes sends past its uplinks what its nodes send to group
     * members under other leaves. Groups do not line up with leaves in general; the busiest leaf
     * is the one a group boundary halves: for N >= L nodes a group it sends L - L^2 / (2N) nodes'
     * worth out (two groups of L/2 each send (N - L/2)/N of their traffic out), for N < L at most
     * N / 2 (two groups straddling its edges). Its uplinks carry L / r: each GPU gets
     * min(1, (L / r) / out) of its NIC share. Rings (scaleOutLink), whose flows cross a leaf
     * once per boundary, were taken for this traffic, so a 2:1 fabric did not slow it at all.
     */
    LinkLevel allToAllLink(int nodesSpanned) const;
    /** The most one GPU injects into the scale-out network: its host link (GPUDirect RDMA
     * crosses it), unbounded when the catalog gives none. */
    double gpuInjectionCapBytesPerSecond() const;
    double nodeScaleOutBytesPerSecond() const;
    /** One GPU's share of its node's scale-out (nodeScaleOutBytesPerSecond over its GPUs): the
     * closed form's rate, and what the sends and all-to-alls that cross a leaf get a share of. */
    double gpuNicShareBytesPerSecond() const;

    /**
     * From catalog ids: a node type (its GPU, GPUs per node, NVLink domain, default NIC), the GPU
     * count, optionally another NIC and NIC count, the oversubscription, whether the fabric is
     * rail-optimised and the leaf radix. Throws UnknownCatalogIdError for unknown ids.
     */
    static ClusterDescription fromCatalog(const Catalog &catalog,
                                          const ClusterFromCatalogOptions &options);
};

/** Light in single-mode fibre: about 4.9 us per km (group index about 1.47, ITU-T G.652). */
inline constexpr double fibreSecondsPerKm = 4.9e-6;

/** Latency of one NCCL ring step over NVLink, Simple protocol (NCCL src/graph/tuning.cc). */
inline constexpr double nvlinkStepLatencySeconds = 3.4e-6;
/** The same over PCIe, Simple protocol (same table, its PCI row): 5.7 us. */
inline constexpr double pcieStepLatencySeconds = 5.7e-6;
/** One ring step of the LL protocol over NVLink and over PCIe (same table): 0.6 and 1.0 us. */
inline constexpr double nvlinkLowLatencyStepSeconds = 0.6e-6;
inline constexpr double pcieLowLatencyStepSeconds = 1.0e-6;

/** Latency of one NCCL ring step over the network, Simple protocol (same table), plus the NIC. */
inline constexpr double networkStepLatencySeconds = 9.6e-6;
/** Fixed cost of one NCCL collective call, ring algorithm, Simple protocol (the bulk-transfer
 * protocol training's gradients and activations use): NCCL src/graph/tuning.cc,
 * ncclTunerConstantsDefaults.baseLatencies (https://github.com/NVIDIA/nccl). */
inline constexpr double ncclSimpleLaunchSeconds = 8.4e-6;
/** The same for the low-latency LL protocol NCCL picks for small messages (decode's all-reduces
 * of a few hidden vectors): 6.6 us, same table. */
inline constexpr double ncclLowLatencyLaunchSeconds = 6.6e-6;

/**
 * "4:1 oversubscribed InfiniBand NDR 400 (ConnectX-7) rail-optimised fabric", or "non-blocking
 * ..." for an empty `oversubscription` (its ratio as text, "4:1"): the name a cluster's fabric is
 * given, whether from the ratio asked for or the one a generator built.
 */
std::string fabricNameOf(const std::string &oversubscription, const std::string &nicName,
                         bool railOptimised);

} // namespace cp::model
