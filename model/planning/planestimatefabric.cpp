// SPDX-License-Identifier: GPL-3.0-or-later
#include "model/planning/planestimatesteps.h"

#include "model/catalog/catalog.h"
#include "model/core/humantext.h"
#include "model/fabric/fabricanalysis.h"
#include "model/fabric/fabricdesign.h"
#include "model/plan/plan.h"
#include "model/planning/datahall.h"
#include "model/planning/planfabricfailures.h"
#include "model/planning/planworstfailure.h"

#include <map>
#include <set>

namespace cp::model::planestimate {

namespace {

/** Switches per tier, cables and optics of the counted graph, as the estimate reports them. */
FabricCounts fabricCountsOf(const FabricMetrics &m, const PlanFabric &fabric,
                            const std::string &topology)
{
    FabricCounts counts;
    counts.topology = topology;
    counts.endpoints = fabric.endpoints;
    counts.storagePorts = fabric.storagePortsOnLeaves();
    const auto tier = [&](int t) {
        const auto it = m.switchesPerTier.find(t);
        return it == m.switchesPerTier.end() ? 0LL : static_cast<long long>(it->second);
    };
    counts.leafSwitches = tier(1);
    counts.spineSwitches = tier(2);
    counts.coreSwitches = m.switches - counts.leafSwitches - counts.spineSwitches;
    counts.cables = m.links;
    counts.optics = m.transceivers;
    return counts;
}

/** Generates the plan's fabric, its failures, and counts its switches, cables and power. */
void countPlanFabric(PlanEstimateBuild &build, const PlanFabric &fabric)
{
    PlanEstimate &result = build.result;
    const Plan &plan = build.plan;
    const NicSpec &nic = build.catalog.nic(fabric.nicId);
    build.fabricGraph = generatePlanFabric(fabric);
    const FabricGraph &graph = *build.fabricGraph;
    build.failures = planFabricFailures(plan, graph);
    for (FabricVertexId v : build.failures.vertices)
        result.failedSwitches.push_back(switchDisplayName(graph, v));
    result.failedLinks = failedLinkDisplayNames(plan, graph);
    const FabricHardware hardware = fabric.switchId.empty()
        ? FabricHardware {}
        : fabricHardware(build.catalog.networkSwitch(fabric.switchId), nic,
                         plan.fabric.topology == "torus" ? 0 : graph.radix);
    const FabricMetrics m = countFabric(graph, hardware);
    result.fabric = fabricCountsOf(m, fabric, plan.fabric.topology);
    if (m.switches > 0) {
        const SwitchSpec &sw = build.catalog.networkSwitch(fabric.switchId);
        addBillLine(result, "Switches", sw.id, sw.name, m.switches, hardware.switchPriceUsd);
    }
    addBillLine(result, "Optics", nic.id + "-optic", nic.name + " transceiver", m.transceivers,
                hardware.transceiverPriceUsd);
    result.power.networkWatts += m.powerWatts();
    build.fabricOpticsWatts = m.opticsWatts;
    if (!hardware.note.empty()) // the switch prices were scaled per port
        result.warnings.push_back("fabric: " + hardware.note);
}

/**
 * The hall's cables in the bill of materials (cablebill.h): cables by medium and order length,
 * and the optics their lengths need, which replace the optics the fabric's link media counted
 * (count, price and power).
 */
void priceHallCables(PlanEstimateBuild &build, const DataHall &hall)
{
    PlanEstimate &result = build.result;
    // Without a fabric the hall has management cables only.
    const NicSpec nic = build.planFabric ? build.catalog.nic(build.planFabric->nicId) : NicSpec {};
    const SwitchSpec *management
        = build.resolved.managementSwitch ? &*build.resolved.managementSwitch : nullptr;
    CableBill bill = cableBillOf(hall, nic, management, &build.catalog);
    std::erase_if(result.billOfMaterials,
                  [](const BillOfMaterialsLine &line) { return line.category == "Optics"; });
    for (const BillOfMaterialsLine &line : bill.lines)
        addBillLine(result, line.category, line.itemId, line.name, line.count, line.unitPriceUsd);
    result.power.networkWatts += bill.watts - build.fabricOpticsWatts;
    result.fabric.optics = bill.fabricTransceivers;
    if (bill.unmeasuredCables > 0)
        result.warnings.push_back(std::to_string(bill.unmeasuredCables)
                                  + " fabric cables have an end outside any rack: no length, so "
                                    "they are not priced (their optics are)");
    if (bill.unpricedCables > 0)
        result.warnings.push_back(std::to_string(bill.unpricedCables)
                                  + " cables have no prices in the catalog (no \"cabling\" for "
                                  + (nic.name.empty() ? "" : nic.name + " or ")
                                  + "the management switch): counted, not priced");
    build.cableBill = std::move(bill);
}

/** The hall's summary figures, and its cabinets' PDUs and patch panels in the bill of materials
 * (each at its cabinet type's catalog price). */
void tallyCabinetFittings(PlanEstimateBuild &build, const DataHall &hall)
{
    PlanEstimate &result = build.result;
    result.hallRacks = static_cast<long long>(hall.racks.size());
    std::set<int> rows;
    for (const HallRack &rack : hall.racks) {
        rows.insert(rack.row);
        result.overLimitRacks += rack.overLimit() ? 1 : 0;
        result.pdus += rack.pdus;
        result.patchPanels += rack.patchPanels;
        if (rack.rackId.empty())
            continue;
        const RackSpec &spec = build.catalog.rack(rack.rackId);
        if (spec.pdu)
            addBillLine(result, "Power distribution", spec.id + "-pdu", spec.pdu->name, rack.pdus,
                        spec.pdu->priceUsd);
        if (spec.patchPanel)
            addBillLine(result, "Patch panels", spec.id + "-patch-panel", spec.patchPanel->name,
                        rack.patchPanels, spec.patchPanel->priceUsd);
    }
    result.hallRows = static_cast<int>(rows.size());
    for (const std::string &warning : hall.warnings)
        result.warnings.push_back("data hall: " + warning);
    result.storageCables = std::count_if(hall.cables.begin(), hall.cables.end(),
                                         [](const HallCable &c) { return c.storage(); });
    result.storageSwitches
        = std::count_if(hall.devices.begin(), hall.devices.end(),
                        [](const HallDevice &d) { return d.role == "storage switch"; })
        + hall.unlaidStorageSwitches;
    if (hall.unlaidStorageTransceivers > 0) {
        const NicSpec &nic = build.catalog.nic(hall.unlaidStorageNicId);
        addBillLine(result, "Optics", nic.id + "-optic", nic.name + " transceiver",
                    hall.unlaidStorageTransceivers, nic.opticPriceUsd);
        result.power.networkWatts += hall.unlaidStorageTransceivers * nic.opticPowerWatts;
    }
    if (result.storageSwitches > 0) {
        const SwitchSpec &sw = build.catalog.networkSwitch(hall.storageSwitchId);
        addBillLine(result, "Storage network", sw.id, sw.name, result.storageSwitches, sw.priceUsd);
        build.storageNetworkWatts = result.storageSwitches * sw.powerWatts;
        result.power.networkWatts += build.storageNetworkWatts;
    }
}

/**
 * A fat-tree given more tiers than its NICs need: the tiers above cost switches and optics and
 * join nothing the fewest tiers would not. Said with the counts (the built fabric's, counted
 * already, against the fewest tiers' layout), since a designer may want the room to grow.
 */
void warnAboutExtraTiers(PlanEstimate &result, const Plan &plan, const PlanFabric &fabric)
{
    const std::string text = extraTiersText(fabric.design, plan.fabric.tiers,
                                            result.fabric.switches(), fabric.endpoints);
    if (!text.empty())
        result.warnings.push_back(text);
}

} // namespace

/**
 * The fabric, counted on the generated graph, the same graph the canvas draws
 * (fabricanalysis.h countFabric), so the bill of materials, network power and the canvas agree
 * for every topology; twoTierFabricCounts above is the closed form it is checked against in
 * tests. A fabric that cannot be built leaves its switches, cables, power and cost unknown.
 */
void estimateFabric(PlanEstimateBuild &build)
{
    PlanEstimate &result = build.result;
    result.fabric.topology = build.plan.fabric.topology;
    if (build.plan.fabric.topology == "none" || !build.firstGroup)
        return;
    // More fabric NICs than the server has ports for and than it has GPUs: 64 on a DGX H100 (8
    // of each) was taken without a word. A PCIe server given a NIC a GPU, as rail designs for
    // them do, stays within its GPUs.
    const NodeSpec &server = build.firstGroup->node;
    const int serverNics = std::max(server.nicsPerNode, server.gpusPerNode);
    if (build.firstGroup->nicsPerNode > serverNics)
        result.warnings.push_back(groupedCount(build.firstGroup->nicsPerNode)
                                  + " fabric NICs a server is more than " + server.name + " has ("
                                  + groupedCount(server.nicsPerNode) + ") and more than its "
                                  + countOf(server.gpusPerNode, "GPU", "GPUs")
                                  + ": the estimate assumes a server built with them");
    if (build.plan.fabric.multiPlane && build.plan.fabric.topology != "rail-fat-tree")
        result.warnings.push_back("one plane per rail is a rail-fat-tree's; the "
                                  + build.plan.fabric.topology + " is built as one fabric");
    try {
        build.planFabric = planFabric(build.plan, build.catalog);
        if (build.planFabric) {
            countPlanFabric(build, *build.planFabric);
            warnAboutExtraTiers(result, build.plan, *build.planFabric);
            if (build.planFabric->design.topology == FabricTopology::Torus)
                result.warnings.push_back(
                    "a torus cables the NICs to each other with no switch between them: each "
                    "must forward its neighbours' traffic on 2 ports per dimension, as TPU-style "
                    "inter-chip links do; "
                    + build.catalog.nic(build.planFabric->nicId).name
                    + " is a host adapter that does neither, so this is a what-if of the "
                      "topology, not a design its servers can be cabled to (the links between "
                      "one server's own NICs are counted but not laid as cables)");
        }
    } catch (const std::exception &error) {
        build.fabricGraph.reset();
        build.planFabric.reset();
        result.fabricError = error.what();
        result.warnings.push_back("the fabric cannot be built as set: " + result.fabricError
                                  + "; its switches, cables, power and cost are unknown");
    }
}

/**
 * The cabinets beyond the servers': the data hall's network cabinet at the end of each row and
 * its spine row, and the storage cabinets (datahall.h), priced as the first group's cabinet; and
 * the management network's switches and cables in them.
 */
void estimateNetworkCabinets(PlanEstimateBuild &build)
{
    PlanEstimate &result = build.result;
    if (result.racks.empty())
        return;
    DataHallInputs inputs {build.plan, build.catalog, result.racks};
    if (build.fabricGraph && build.planFabric) {
        inputs.graph = &*build.fabricGraph;
        inputs.fabric = &*build.planFabric;
    }
    const DataHall hall = layoutDataHall(inputs, hallOptionsOf(build.plan));
    priceHallCables(build, hall);
    for (const auto &[device, cabled] : hall.storagePortsCabled)
        build.storagePortsCabled[hall.devices[static_cast<std::size_t>(device)].storageEntry]
            .push_back(cabled);
    std::map<CableMedium, long long> media;
    for (const HallCable &cable : hall.cables) {
        if (cable.management) {
            ++result.managementCables;
            continue;
        }
        if (cable.positioned) {
            ++media[cable.medium];
            result.longestCableMeters = std::max(result.longestCableMeters, cable.lengthMeters);
        }
    }
    for (const auto &[medium, count] : media)
        result.cablesByMedium.emplace_back(cableMediumName(medium), count);
    result.networkCabinets
        = std::count_if(hall.racks.begin(), hall.racks.end(),
                        [](const HallRack &r) { return r.role == "network" || r.role == "spine"; });
    result.storageCabinets = std::count_if(hall.racks.begin(), hall.racks.end(),
                                           [](const HallRack &r) { return r.role == "storage"; });
    // Priced as the first racked group's cabinet (result.racks lists the racked groups in order).
    const auto racked = std::find_if(build.resolved.groups.begin(), build.resolved.groups.end(),
                                     [](const ResolvedNodeGroup &g) { return g.rack.has_value(); });
    const RackSpec &rack = *racked->rack;
    addBillLine(result, "Racks", rack.id, rack.name,
                result.networkCabinets + result.storageCabinets, rack.priceUsd);
    tallyCabinetFittings(build, hall);
    // The out-of-band management network: its switches draw and cost like the fabric's.
    result.managementSwitches
        = std::count_if(hall.devices.begin(), hall.devices.end(),
                        [](const HallDevice &d) { return d.role == "management switch"; });
    if (result.managementSwitches > 0 && build.resolved.managementSwitch) {
        const SwitchSpec &management = *build.resolved.managementSwitch;
        result.power.networkWatts += result.managementSwitches * management.powerWatts;
        addBillLine(result, "Management", management.id, management.name, result.managementSwitches,
                    management.priceUsd);
    }
}

} // namespace cp::model::planestimate
