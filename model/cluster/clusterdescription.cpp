// SPDX-License-Identifier: GPL-3.0-or-later
#include "model/cluster/clusterdescription.h"

#include "model/catalog/catalog.h"

#include <algorithm>
#include <limits>

namespace cp::model {

namespace {

/**
 * NCCL's latency of one ring step on `gpu`'s scale-up link, for its Simple protocol or (with
 * `lowLatency`) its LL protocol: PCIe's row of NCCL's table for GPUs that talk over PCIe, the
 * NVLink row otherwise (AMD's Infinity Fabric is read as NVLink: RCCL's own table is not in the
 * catalog's sources).
 */
double scaleUpStepLatencySeconds(const GpuSpec &gpu, bool lowLatency)
{
    if (gpu.scaleUpKind == ScaleUpKind::PCIe)
        return lowLatency ? pcieLowLatencyStepSeconds : pcieStepLatencySeconds;
    return lowLatency ? nvlinkLowLatencyStepSeconds : nvlinkStepLatencySeconds;
}

} // namespace

LinkLevel ClusterDescription::scaleUpLink() const
{
    return LinkLevel {gpu.scaleUpBusBytesPerSecond, scaleUpStepLatencySeconds(gpu, false),
                      ncclSimpleLaunchSeconds};
}

LinkLevel ClusterDescription::scaleUpLowLatencyLink() const
{
    const double half = 0.5 * gpu.scaleUpBusBytesPerSecond;
    const double busBytesPerSecond = gpu.ncclLowLatencyBusCapBytesPerSecond > 0
        ? std::min(half, gpu.ncclLowLatencyBusCapBytesPerSecond)
        : half;
    return LinkLevel {busBytesPerSecond, scaleUpStepLatencySeconds(gpu, true),
                      ncclLowLatencyLaunchSeconds};
}

LinkLevel ClusterDescription::interconnectLink(int senders) const
{
    const int sharing = senders > 0 ? senders : std::max(1, gpusPerBuilding());
    const double perGpu = interconnectBytesPerSecondPerBuilding / sharing * nicAchievableFraction;
    return LinkLevel {
        perGpu, networkStepLatencySeconds + networkLatencySeconds + interconnectLatencySeconds,
        ncclSimpleLaunchSeconds};
}

double ClusterDescription::gpuInjectionCapBytesPerSecond() const
{
    // A GPU's traffic to its NICs (GPUDirect RDMA) crosses its own host link: PCIe Gen5 x16 is
    // 64 GB/s a direction (PCI-SIG, PCI Express Base Specification 5.0), so NICs beyond what it
    // carries add no bandwidth (16 NDR NICs on a DGX H100 offer 100 GB/s a GPU).
    return gpu.hostLinkBytesPerSecond > 0 ? gpu.hostLinkBytesPerSecond
                                          : std::numeric_limits<double>::infinity();
}

double ClusterDescription::nodeScaleOutBytesPerSecond() const
{
    return std::min(nicsPerNode * nicBytesPerSecond,
                    std::max(1, gpusPerNode) * gpuInjectionCapBytesPerSecond())
        * nicAchievableFraction;
}

double ClusterDescription::gpuNicShareBytesPerSecond() const
{
    return nodeScaleOutBytesPerSecond() / std::max(1, gpusPerNode);
}

LinkLevel ClusterDescription::scaleOutLink(int nodesSpanned) const
{
    if (!fabricRingBytesPerSecond.empty()) {
        auto it = std::find_if(fabricRingBytesPerSecond.begin(), fabricRingBytesPerSecond.end(),
                               [&](const auto &entry) { return entry.first >= nodesSpanned; });
        if (it == fabricRingBytesPerSecond.end())
            --it;
        return LinkLevel {
            std::min(it->second, gpuInjectionCapBytesPerSecond()) * nicAchievableFraction,
            networkStepLatencySeconds + networkLatencySeconds, ncclSimpleLaunchSeconds};
    }
    double perGpu = gpuNicShareBytesPerSecond();
    // Only rings that leave one leaf (one rail group) cross the oversubscribed uplinks.
    if (nodesSpanned > nodesPerLeaf && oversubscription > 1.0)
        perGpu /= oversubscription;
    return LinkLevel {perGpu, networkStepLatencySeconds + networkLatencySeconds,
                      ncclSimpleLaunchSeconds};
}

LinkLevel ClusterDescription::pipelineSendLink(int strideNodes) const
{
    // A two-node exchange: the measured (or closed-form) rate of traffic that stays in a leaf.
    LinkLevel link = scaleOutLink(2);
    const double ratio = leafOversubscription();
    if (ratio > 1.0) {
        const double leafNodes = std::max(1, nodesPerLeaf);
        const double crossing = std::min<double>(std::max(1, strideNodes), leafNodes);
        const double share = std::min(1.0, leafNodes / (ratio * crossing));
        link.busBytesPerSecond
            = std::min(link.busBytesPerSecond, gpuNicShareBytesPerSecond() * share);
    }
    return link;
}

LinkLevel ClusterDescription::allToAllLink(int nodesSpanned) const
{
    const double leafNodes = std::max(1, nodesPerLeaf);
    const double groupNodes = std::max(1, nodesSpanned);
    // Within a leaf the traffic is the rings' (measured, or the NIC share).
    LinkLevel link = scaleOutLink(static_cast<int>(std::min(groupNodes, leafNodes)));
    const double ratio = leafOversubscription();
    if (ratio <= 1.0 || groupNodes < 2)
        return link;
    const double out = groupNodes >= leafNodes
        ? leafNodes - leafNodes * leafNodes / (2.0 * groupNodes)
        : groupNodes / 2.0;
    const double share = std::min(1.0, leafNodes / ratio / out);
    link.busBytesPerSecond = std::min(link.busBytesPerSecond, gpuNicShareBytesPerSecond() * share);
    return link;
}

std::string fabricNameOf(const std::string &oversubscription, const std::string &nicName,
                         bool railOptimised)
{
    return (oversubscription.empty() ? std::string("non-blocking ")
                                     : oversubscription + " oversubscribed ")
        + nicName + (railOptimised ? " rail-optimised fabric" : " fabric");
}

ClusterDescription ClusterDescription::fromCatalog(const Catalog &catalog,
                                                   const ClusterFromCatalogOptions &options)
{
    const NodeSpec &node = catalog.node(options.nodeId);
    const NicSpec &nic = catalog.nic(options.nicId.empty() ? node.nicId : options.nicId);
    const double oversubscription = options.oversubscription;
    const bool railOptimised = options.railOptimised;
    const int nicsPerNode = options.nicsPerNode;
    const int switchPorts = options.switchPorts;
    ClusterDescription cluster;
    cluster.gpu = catalog.gpu(node.gpuId);
    cluster.gpus = options.gpus;
    cluster.gpusPerNode = node.gpusPerNode;
    cluster.scaleUpDomainGpus = node.scaleUpDomainGpus;
    cluster.nicName = nic.name;
    cluster.nicsPerNode = nicsPerNode > 0 ? nicsPerNode : node.nicsPerNode;
    cluster.nicBytesPerSecond = nic.bytesPerSecond;
    cluster.nicAchievableFraction = nic.achievableFraction;
    cluster.networkLatencySeconds = nic.latencySeconds;
    cluster.oversubscription = oversubscription;
    cluster.railOptimised = railOptimised;
    cluster.switchPorts = switchPorts;
    // A leaf with P ports and r:1 oversubscription has P·r/(r+1) ports down. Rail-optimised:
    // each node puts one NIC on each rail leaf, so a rail leaf serves that many nodes; otherwise
    // all of a node's NICs land on one leaf.
    const int ports = std::max(2, switchPorts);
    const int downPorts = static_cast<int>(ports * oversubscription / (oversubscription + 1.0));
    cluster.nodesPerLeaf
        = railOptimised ? downPorts : std::max(1, downPorts / std::max(1, cluster.nicsPerNode));
    char ratio[32];
    std::snprintf(ratio, sizeof ratio, "%g:1", oversubscription);
    cluster.fabricName
        = fabricNameOf(oversubscription > 1.0 ? ratio : std::string(), nic.name, railOptimised);
    return cluster;
}

} // namespace cp::model
