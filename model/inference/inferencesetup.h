// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "model/cluster/clusterdescription.h"
#include "model/inference/inferenceestimate.h"

#include <optional>
#include <string>

namespace cp::model {

class Catalog;

/** Hardware and cost inputs of the inference estimator, built from catalog entries. */
struct InferenceSetup
{
    ClusterDescription hardware;
    ServingCostModel cost;
    NodeSpec node;
    FacilitySpec facility;
};

/**
 * For `gpuId` (or a node type): the catalog node that carries it, its scale-up domain, and the
 * cost of a GPU-hour from the GPU's and the server's list prices amortised over `lifetimeYears`
 * plus their power at the facility's PUE and electricity price. Throws UnknownCatalogIdError.
 */
InferenceSetup inferenceSetupFromCatalog(const Catalog &catalog, const std::string &nodeId,
                                         const std::string &gpuId, const std::string &facilityId,
                                         double lifetimeYears,
                                         std::optional<double> hourlyUsdPerGpu);

/** The catalog node with the largest scale-up domain that carries `gpuId`, or empty. */
std::string nodeForGpu(const Catalog &catalog, const std::string &gpuId);

} // namespace cp::model
