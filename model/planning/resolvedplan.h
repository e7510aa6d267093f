// SPDX-License-Identifier: GPL-3.0-or-later
// A plan's catalog entries looked up once (estimatePlan's first step), so that the steps after it
// read specs from one value instead of going back to the catalog.
#pragma once

#include "model/catalog/catalogitems.h"

#include <optional>
#include <string>
#include <vector>

namespace cp::model {

class Catalog;
struct NodeGroup;
struct Plan;

/** A server group with its server, GPU, rack and the NIC its fabric ports use. */
struct ResolvedNodeGroup
{
    const NodeGroup *group = nullptr; ///< in the plan the resolution was made from
    NodeSpec node;
    GpuSpec gpu;
    std::optional<RackSpec> rack; ///< none: not racked
    /** The plan's fabric NIC where it names one, else the server's own. */
    NicSpec fabricNic;
    int nicsPerNode = 0; ///< the plan's count where it gives one, else the server's
};

struct ResolvedPlan
{
    std::vector<ResolvedNodeGroup> groups; ///< in plan order
    std::optional<SwitchSpec> fabricSwitch; ///< the plan's switch, when it names one
    std::vector<StorageSpec> storage; ///< one per plan storage entry
    std::optional<FacilitySpec> facility; ///< none: no facility chosen
    std::optional<DatasetSpec> trainingDataset; ///< none: packed text tokens
    /** The out-of-band management switch of the data hall (datahall.h managementSwitchId);
     * none when the catalog has none. */
    std::optional<SwitchSpec> managementSwitch;
    /** The first server group's GPU name: what headlines call the plan's GPU. */
    std::string firstGpuName() const { return groups.empty() ? std::string() : groups[0].gpu.name; }
};

/**
 * Looks up every catalog entry `plan` names, once. An id the catalog does not have throws
 * UnknownCatalogIdError naming the kind and the id (catalog.h); the plan loader's references
 * check makes that rare, but a plan built in code or a catalog edited since may still do it.
 */
ResolvedPlan resolvePlan(const Plan &plan, const Catalog &catalog);

} // namespace cp::model
