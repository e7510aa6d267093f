// SPDX-License-Identifier: GPL-3.0-or-later
#include "model/planning/planestimatesteps.h"

#include "model/catalog/catalog.h"
#include "model/core/humantext.h"
#include "model/plan/plan.h"
#include "model/planning/planestimator.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace cp::model::planestimate {

void addBillLine(PlanEstimate &result, const std::string &category, const std::string &id,
                 const std::string &name, long long count, double unitPrice)
{
    if (count <= 0)
        return;
    for (BillOfMaterialsLine &line : result.billOfMaterials) {
        if (line.category == category && line.itemId == id) {
            line.count += count;
            return;
        }
    }
    result.billOfMaterials.push_back({category, id, name, count, unitPrice});
}

void estimateFacility(PlanEstimateBuild &build)
{
    PlanEstimate &result = build.result;
    double pue = 1.0;
    if (build.resolved.facility) {
        const FacilitySpec &facility = *build.resolved.facility;
        pue = build.plan.facility.pue.value_or(facility.pue);
        result.electricityUsdPerKwh
            = build.plan.facility.electricityUsdPerKwh.value_or(facility.electricityUsdPerKwh);
    } else {
        result.warnings.push_back("no facility chosen: PUE 1.0 and no electricity price assumed");
    }
    result.power.pue = pue;
}

/** The racks a group fills: as many nodes per rack as space and power allow (or the plan says),
 * with a warning for a rack over its power or space limit. */
RackUsage rackUsageOf(PlanEstimate &result, const NodeGroup &group, const NodeSpec &node,
                      const GpuSpec &gpu, const RackSpec &rack)
{
    const double nodeWatts = node.powerWithoutGpusWatts + node.gpusPerNode * gpu.tdpWatts;
    RackUsage usage;
    usage.groupName = group.name.empty() ? node.name : group.name;
    usage.rackId = rack.id;
    usage.rackName = rack.name;
    usage.rackLimitWatts = rack.powerLimitWatts;
    const int bySpace = rack.rackUnits / node.rackUnits;
    const int byPower = static_cast<int>(rack.powerLimitWatts / nodeWatts);
    // The cabinet's load rating, where the catalog knows it and the server's weight.
    const bool weightKnown = rack.maxLoadKilograms > 0 && node.weightKilograms > 0;
    const int byWeight = weightKnown
        ? static_cast<int>(std::min(1e6, rack.maxLoadKilograms / node.weightKilograms))
        : bySpace;
    usage.nodesPerRack
        = group.nodesPerRack > 0 ? group.nodesPerRack : std::min({bySpace, byPower, byWeight});
    if (usage.nodesPerRack < 1) {
        // Which limit it breaks follows (power, load, rack units), each in its own warning.
        result.warnings.push_back("one " + node.name + " (" + humanPower(nodeWatts) + ", "
                                  + std::to_string(node.rackUnits) + "U) does not fit in a "
                                  + rack.name + ": each is placed in a rack of its own");
        usage.nodesPerRack = 1;
    }
    usage.racks = (group.count + usage.nodesPerRack - 1) / usage.nodesPerRack;
    usage.wattsPerRack = usage.nodesPerRack * nodeWatts;
    if (usage.wattsPerRack > rack.powerLimitWatts) {
        char text[256];
        std::snprintf(text, sizeof text,
                      "rack over its power limit: %d x %.1f kW = %.1f kW > %.1f kW (%s)",
                      usage.nodesPerRack, nodeWatts / 1e3, usage.wattsPerRack / 1e3,
                      rack.powerLimitWatts / 1e3, rack.name.c_str());
        result.warnings.push_back(text);
    }
    if (weightKnown && usage.nodesPerRack * node.weightKilograms > rack.maxLoadKilograms) {
        char text[256];
        std::snprintf(
            text, sizeof text, "rack over its load rating: %d x %.0f kg = %.0f kg > %.0f kg (%s)",
            usage.nodesPerRack, node.weightKilograms, usage.nodesPerRack * node.weightKilograms,
            rack.maxLoadKilograms, rack.name.c_str());
        result.warnings.push_back(text);
    }
    if (usage.nodesPerRack * node.rackUnits > rack.rackUnits)
        result.warnings.push_back(std::to_string(usage.nodesPerRack) + " x "
                                  + std::to_string(node.rackUnits) + "U nodes do not fit in a "
                                  + std::to_string(rack.rackUnits) + "U rack");
    return usage;
}

/** One server group's GPUs, memory, power, bill of materials and racks. */
void tallyGroup(PlanEstimateBuild &build, const ResolvedNodeGroup &resolved)
{
    PlanEstimate &result = build.result;
    const NodeGroup &group = *resolved.group;
    const NodeSpec &node = resolved.node;
    const GpuSpec &gpu = resolved.gpu;
    if (!build.firstGroup)
        build.firstGroup = &resolved;
    if (group.onFabric || !build.hasFabric) {
        if (!build.trainingGroup)
            build.trainingGroup = &resolved;
        else if (build.trainingGroup->gpu.id != gpu.id)
            build.mixedGpus = true;
    }
    const long long gpus = 1LL * group.count * node.gpusPerNode;
    if (build.hasFabric && !group.onFabric)
        result.warnings.push_back("server group '" + (group.name.empty() ? node.name : group.name)
                                  + "' is not connected to the fabric: its NICs are unused and its "
                                  + std::to_string(gpus)
                                  + " GPUs cannot join a multi-node training job");
    result.gpus += static_cast<int>(gpus);
    result.nodes += group.count;
    result.peakDenseFlopsPerSecond += gpus
        * std::max(gpu.peakFlopsPerSecond(Precision::BF16),
                   gpu.peakFlopsPerSecond(Precision::FP16));
    result.peakDenseFp8FlopsPerSecond += gpus * gpu.peakFlopsPerSecond(Precision::FP8);
    result.gpuMemoryBytes += gpus * gpu.memoryBytes;
    result.power.gpusWatts += gpus * gpu.tdpWatts;
    result.power.nodesWatts += group.count * node.powerWithoutGpusWatts;
    addBillLine(result, "GPUs", gpu.id, gpu.name, gpus, gpu.priceUsd);
    addBillLine(result, "Nodes", node.id, node.name + " (without GPUs)", group.count,
                node.priceWithoutGpusUsd);
    if (group.onFabric) {
        // The server's price includes its own NICs, and a VPI card runs the other protocol too:
        // only a different card, or more of them than the server has, is bought.
        const NicSpec &nic = resolved.fabricNic;
        const int builtIn = sameNicCard(build.catalog.nic(node.nicId), nic) ? node.nicsPerNode : 0;
        const long long bought = 1LL * group.count * std::max(0, resolved.nicsPerNode - builtIn);
        if (bought > 0)
            addBillLine(result, "NICs", nic.id, nic.name, bought, nic.priceUsd);
    }
    if (resolved.rack) {
        const RackSpec &rack = *resolved.rack;
        const RackUsage usage = rackUsageOf(result, group, node, gpu, rack);
        addBillLine(result, "Racks", rack.id, rack.name, usage.racks, rack.priceUsd);
        result.racks.push_back(usage);
    }
}

void estimateNodes(PlanEstimateBuild &build)
{
    build.hasFabric = build.plan.fabric.topology != "none";
    for (const ResolvedNodeGroup &group : build.resolved.groups)
        tallyGroup(build, group);
    if (build.firstGroup) {
        build.result.gpuId = build.firstGroup->gpu.id;
        build.result.gpuName = build.firstGroup->gpu.name;
    }
}

/** Storage power and price, the capital total, and the facility's power budget. */
void estimateStorageAndTotals(PlanEstimateBuild &build)
{
    PlanEstimate &result = build.result;
    for (std::size_t i = 0; i < build.plan.storage.size(); ++i) {
        const StoragePlan &item = build.plan.storage[i];
        const StorageSpec &storage = build.resolved.storage[i];
        if (build.hasFabric && !item.onFabric)
            result.warnings.push_back(storage.name
                                      + " is not connected to the fabric: the servers cannot "
                                        "checkpoint to it or read training data from it");
        result.power.storageWatts += item.count * storage.powerWatts;
        addBillLine(result, "Storage", storage.id, storage.name, item.count, storage.priceUsd);
    }
    for (const BillOfMaterialsLine &line : result.billOfMaterials)
        result.capitalCostUsd += line.totalUsd();
    // The hall's budget, checked at full load: what the feeds and chillers must carry.
    result.facilityPowerLimitWatts = build.plan.facility.powerLimitWatts;
    // In the unit each reads in: a 1 kW budget read "0.0 MW" beside a cluster of "0.1 MW".
    if (result.overPowerBudget())
        result.warnings.push_back("the cluster draws " + humanPower(result.power.facilityWatts())
                                  + " at full load (IT x PUE), over the facility's budget of "
                                  + humanPower(*result.facilityPowerLimitWatts));
}

void estimateCampus(PlanEstimateBuild &build)
{
    const CampusPlan &plan = build.plan.campus;
    if (plan.buildings <= 1)
        return;
    PlanEstimate &result = build.result;
    CampusTotals campus;
    campus.buildings = plan.buildings;
    campus.gpus = 1LL * result.gpus * plan.buildings;
    campus.nodes = 1LL * result.nodes * plan.buildings;
    campus.interconnectBytesPerSecondPerBuilding = plan.interconnectBytesPerSecondPerBuilding;
    campus.interconnectLatencySeconds = plan.interconnectLatencySeconds();
    campus.interconnectUsd = plan.interconnectUsd();
    campus.interconnectWatts = plan.interconnectWatts();
    campus.itWatts = result.power.itWatts() * plan.buildings + campus.interconnectWatts;
    campus.facilityWatts = campus.itWatts * result.power.pue;
    campus.capitalUsd = result.capitalCostUsd * plan.buildings + campus.interconnectUsd;
    result.campus = campus;
    if (plan.usdPerGbps <= 0)
        result.warnings.push_back("the interconnect between the buildings is not priced "
                                  "(campus usd_per_gbps)");
}

} // namespace cp::model::planestimate
