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

/** What a serving estimate runs on and what it costs. */
struct InferenceSetupOptions
{
    std::string nodeId {}; ///< a catalog server; empty: the one with the largest domain for gpuId
    std::string gpuId {}; ///< read when nodeId is empty
    std::string facilityId {}; ///< empty: PUE 1 and no electricity price
    double lifetimeYears = 4; ///< over which the hardware's list price is paid off
    std::optional<double> hourlyUsdPerGpu {}; ///< a rental price instead of owning
};

/**
 * The server (`nodeId`, or the catalog server that carries `gpuId`), its scale-up domain, and the
 * cost of a GPU-hour from the GPU's and the server's list prices amortised over the lifetime plus
 * their power at the facility's PUE and electricity price. Throws UnknownCatalogIdError.
 */
InferenceSetup inferenceSetupFromCatalog(const Catalog &catalog,
                                         const InferenceSetupOptions &options);

/** The catalog node with the largest scale-up domain that carries `gpuId`, or empty. */
std::string nodeForGpu(const Catalog &catalog, const std::string &gpuId);

} // namespace cp::model
