// SPDX-License-Identifier: GPL-3.0-or-later
#include "model/inference/inferencesetup.h"

#include "model/catalog/catalog.h"

namespace cp::model {

std::string nodeForGpu(const Catalog &catalog, const std::string &gpuId)
{
    std::string best;
    int domain = 0;
    for (const auto &[id, node] : catalog.nodes()) {
        if (node.gpuId == gpuId && node.scaleUpDomainGpus > domain) {
            best = id;
            domain = node.scaleUpDomainGpus;
        }
    }
    return best;
}

InferenceSetup inferenceSetupFromCatalog(const Catalog &catalog,
                                         const InferenceSetupOptions &options)
{
    const std::string &nodeId = options.nodeId;
    const std::string &gpuId = options.gpuId;
    const std::string &facilityId = options.facilityId;
    const double lifetimeYears = options.lifetimeYears;
    const std::optional<double> &hourlyUsdPerGpu = options.hourlyUsdPerGpu;
    std::string node = nodeId;
    if (node.empty()) {
        catalog.gpu(gpuId);
        node = nodeForGpu(catalog, gpuId);
        if (node.empty())
            throw UnknownCatalogIdError("no catalog node carries GPU '" + gpuId
                                        + "'; import a node type for it");
    }
    const NodeSpec &spec = catalog.node(node);
    InferenceSetup setup;
    setup.node = spec;
    ClusterFromCatalogOptions oneNode; // one replica's node; its fabric does not matter here
    oneNode.nodeId = node;
    oneNode.gpus = spec.gpusPerNode;
    oneNode.railOptimised = false;
    setup.hardware = ClusterDescription::fromCatalog(catalog, oneNode);
    const GpuSpec &gpu = setup.hardware.gpu;
    setup.cost.capitalUsdPerGpu = gpu.priceUsd + spec.priceWithoutGpusUsd / spec.gpusPerNode;
    setup.cost.wattsPerGpu = gpu.tdpWatts + spec.powerWithoutGpusWatts / spec.gpusPerNode;
    setup.cost.lifetimeYears = lifetimeYears;
    setup.cost.hourlyUsdPerGpu = hourlyUsdPerGpu;
    if (!facilityId.empty()) {
        const FacilitySpec &facility = catalog.facility(facilityId);
        setup.cost.pue = facility.pue;
        setup.cost.electricityUsdPerKwh = facility.electricityUsdPerKwh;
        setup.facility = facility;
    }
    return setup;
}

} // namespace cp::model
