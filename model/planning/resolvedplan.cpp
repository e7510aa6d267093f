// SPDX-License-Identifier: GPL-3.0-or-later
#include "model/planning/resolvedplan.h"

#include "model/catalog/catalog.h"
#include "model/plan/plan.h"
#include "model/planning/datahall.h"

namespace cp::model {

ResolvedPlan resolvePlan(const Plan &plan, const Catalog &catalog)
{
    ResolvedPlan resolved;
    for (const NodeGroup &group : plan.nodeGroups) {
        ResolvedNodeGroup entry;
        entry.group = &group;
        entry.node = catalog.node(group.nodeId);
        entry.gpu = catalog.gpu(entry.node.gpuId);
        if (!group.rackId.empty())
            entry.rack = catalog.rack(group.rackId);
        entry.fabricNic
            = catalog.nic(plan.fabric.nicId.empty() ? entry.node.nicId : plan.fabric.nicId);
        entry.nicsPerNode
            = plan.fabric.nicsPerNode > 0 ? plan.fabric.nicsPerNode : entry.node.nicsPerNode;
        resolved.groups.push_back(std::move(entry));
    }
    if (!plan.fabric.switchId.empty())
        resolved.fabricSwitch = catalog.networkSwitch(plan.fabric.switchId);
    for (const StoragePlan &item : plan.storage)
        resolved.storage.push_back(catalog.storage(item.storageId));
    if (!plan.facility.facilityId.empty())
        resolved.facility = catalog.facility(plan.facility.facilityId);
    if (!plan.trainingDatasetId.empty())
        resolved.trainingDataset = catalog.dataset(plan.trainingDatasetId);
    if (catalog.kindOf(managementSwitchId) == CatalogKind::Switch)
        resolved.managementSwitch = catalog.networkSwitch(managementSwitchId);
    return resolved;
}

} // namespace cp::model
