// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "model/plan/plan.h"

#include <string>
#include <vector>

namespace cp::model {

class Catalog;
struct Plan;

/** A catalog entry a plan uses, with the datasheet or paper its figures come from. */
struct CatalogSourceLine
{
    std::string kind; ///< catalog section: gpus, nodes, nics, ...
    std::string id;
    std::string name;
    std::string source;
};

/** Every catalog entry the plans refer to (servers and their GPUs, NICs, switches, racks,
 * storage, facility, model) and `pricedIds`, the entries their bills of materials buy besides
 * (the storage network's and management network's switches, the storage NICs' optics), once
 * each, in catalog-section order. Unknown ids are skipped. */
std::vector<CatalogSourceLine>
catalogSourcesForPlans(const std::vector<Plan> &plans, const Catalog &catalog,
                       const std::vector<std::string> &pricedIds = {});

/** The modelling assumptions a report states, each naming where it comes from: those of a
 * plan's workload (training or serving) and the ones every plan shares (fabric, power, cost). */
std::vector<std::string> estimateAssumptions(WorkloadType workload);

} // namespace cp::model
