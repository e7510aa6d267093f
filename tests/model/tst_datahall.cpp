// SPDX-License-Identifier: GPL-3.0-or-later
// The data hall: cable media by reach, rack placement, cable lengths and the NetBox imports.
#include "model/fabric/fabricgraph.h"
#include "model/planning/cablebill.h"
#include "model/planning/cablemedium.h"
#include "model/planning/datahall.h"
#include "model/planning/netboxexport.h"
#include "model/planning/planestimator.h"
#include "model/planning/planfabric.h"
#include "testsupport.h"

#include <QTest>

#include <algorithm>
#include <map>
#include <set>

using namespace cp::model;
using cp::test::loadSamplePlan;
using cp::test::shippedCatalog;

namespace {

/** The column index of `name` in a CSV header row. */
std::size_t column(const CsvRows &rows, const std::string &name)
{
    const auto &header = rows.front();
    const auto it = std::find(header.begin(), header.end(), name);
    return it == header.end() ? header.size() : static_cast<std::size_t>(it - header.begin());
}

std::set<std::string> columnValues(const CsvRows &rows, const std::string &name)
{
    std::set<std::string> values;
    const std::size_t c = column(rows, name);
    for (std::size_t r = 1; r < rows.size(); ++r)
        values.insert(rows[r][c]);
    return values;
}

const NetboxImportFile &fileFor(const std::vector<NetboxImportFile> &files,
                                const std::string &object)
{
    for (const NetboxImportFile &file : files)
        if (file.netboxObject == object)
            return file;
    throw std::runtime_error("no file for " + object);
}

/** The cable leaving `device`'s port `port` (its A end), or null. */
const HallCable *cableFrom(const DataHall &hall, const std::string &device, const std::string &port)
{
    for (const HallCable &cable : hall.cables)
        if (hall.devices[static_cast<std::size_t>(cable.deviceA)].name == device
            && cable.portA == port)
            return &cable;
    return nullptr;
}

} // namespace

class TestDataHall : public QObject
{
    Q_OBJECT

private slots:
    void mediaFollowTheLinkXReachLimits()
    {
        // 400 Gb/s ports (100G-PAM4 lanes): DAC to 3 m, linear active copper to 5 m, multimode
        // to 50 m, single-mode DR to 500 m (NVIDIA LinkX and structured-cabling guides).
        QCOMPARE(cableMediumFor(3.0, 400e9, false), CableMedium::PassiveCopper);
        QCOMPARE(cableMediumFor(3.5, 400e9, false), CableMedium::ActiveCopper);
        QCOMPARE(cableMediumFor(5.0, 400e9, false), CableMedium::ActiveCopper);
        QCOMPARE(cableMediumFor(5.5, 400e9, false), CableMedium::Multimode);
        QCOMPARE(cableMediumFor(50.0, 400e9, false), CableMedium::Multimode);
        QCOMPARE(cableMediumFor(50.5, 400e9, false), CableMedium::SingleMode);
        QCOMPARE(cableMediumFor(500.0, 400e9, false), CableMedium::SingleMode);
        QCOMPARE(cableMediumFor(500.5, 400e9, false), CableMedium::OutOfReach);
        // 100 Gb/s (25G-NRZ lanes): DAC to 5 m, multimode to 100 m.
        QCOMPARE(cableMediumFor(5.0, 100e9, false), CableMedium::PassiveCopper);
        QCOMPARE(cableMediumFor(100.0, 100e9, false), CableMedium::Multimode);
        // RJ45: a 100 m channel (IEEE 802.3an).
        QCOMPARE(cableMediumFor(100.0, 10e9, true), CableMedium::TwistedPair);
        QCOMPARE(cableMediumFor(100.5, 10e9, true), CableMedium::OutOfReach);
        QCOMPARE(netboxCableType(CableMedium::Multimode), std::string("mmf-om4"));
    }

    void theSampleFillsRowsOfRacksAndCablesItsFabric()
    {
        // 128 DGX H100 at 10.2 kW in 40 kW racks: 3 per rack, 43 compute racks, rows of 10, so
        // 5 compute rows; the rail fabric's 16 spines get the spine row in the middle (room row
        // 3). 128 servers + 32 rail leaves + 16 spines + 4 AI400X2 storage appliances; 1,024
        // NIC cables and 32 x 32 uplinks.
        // The storage network of the DGX's two 200 Gb/s storage ports (ib-hdr-200: 50 GB/s over
        // 25 GB/s) and the AI400X2's eight: 256 + 32 = 288 ports, more than one 40-port QM8790
        // (the catalog switch for HDR 200), so two tiers with 20 ports down and 20 up: rows 1, 2,
        // 4 and 5 have 60 server ports (3 leaves each in their network cabinet), row 6 has 16
        // (1 leaf), the storage cabinet 32 (2 leaves); 15 leaves x 20 uplinks = 300 over
        // ceil(300 / 40) = 8 spines beside the storage: 23 switches, 288 + 300 = 588 cables.
        const Plan plan = loadSamplePlan("h100-1024-ndr-rail-fat-tree.json");
        const DataHall hall = layoutDataHall(plan, shippedCatalog());
        int compute = 0;
        for (const HallRack &rack : hall.racks)
            compute += rack.role == "compute" ? 1 : 0;
        QCOMPARE(compute, 43);
        // PDUs, A and B feeds each carrying the cabinet alone on 17.3 kW PDUs: a compute cabinet
        // (30.6 kW, or 20.4 kW for the last) needs 2 a feed, 4 in all: 43 x 4 = 172; the leaf
        // cabinets of rows 1, 2, 4 and 5 (8 x 750 W leaves and their management switches), the
        // spine cabinet (16 x 750 W = 12 kW), the storage cabinet (4 x 3 kW) and the management
        // cabinets of rows 3 and 6 need 1 a feed: 8 x 2 = 16; 188 PDUs.
        // The management network: 48-port SN2201s in each row for that row's devices and PDUs
        // (rows 1, 2, 4 and 5: 30 servers + 8 leaves + 3 storage leaves + 10 x 4 + 2 PDUs = 83,
        // two switches each; the spine row: 16 spines + 4 storage systems + 10 storage switches
        // + 3 x 2 PDUs = 36; row 6: the last 8 servers + 1 storage leaf + 3 x 4 + 2 PDUs = 23),
        // 10 switches, one cable from each of the 391 devices.
        // Patch panels (48 ports) where fibre leaves a row: the spine cabinet's 1,024 uplinks
        // need 22; each leaf cabinet terminates its leaves' 256 uplinks and the cables of its
        // unit's servers in another row (servers 31-32, 61-64, 91-96, 121-128: 16, 32, 48 and 64
        // cables) and its storage leaves' 60 uplinks to the storage spines: 332, 348, 364 and
        // 380 runs, 7, 8, 8 and 8 panels; row 6's storage leaf's 20 uplinks, 1; the storage
        // cabinet's spines end the 13 other leaves' 260 uplinks, 6; the 8 compute cabinets
        // holding those servers one each: 68 panels.
        int pdus = 0, panels = 0, management = 0;
        for (const HallDevice &device : hall.devices) {
            pdus += device.role == "PDU" ? 1 : 0;
            panels += device.role == "patch panel" ? 1 : 0;
            management += device.role == "management switch" ? 1 : 0;
        }
        QCOMPARE(pdus, 188);
        QCOMPARE(panels, 68);
        QCOMPARE(management, 10);
        QCOMPARE(hall.devices.size(), std::size_t(128 + 32 + 16 + 4 + 23 + 10 + 188 + 68));
        QCOMPARE(hall.cables.size(), std::size_t(2048 + 588 + 391));
        const auto storageCables = std::count_if(hall.cables.begin(), hall.cables.end(),
                                                 [](const HallCable &c) { return c.storage(); });
        QCOMPARE(static_cast<long long>(storageCables), 588LL);
        QCOMPARE(hall.storageSwitchId, std::string("qm8790"));
        const auto spine = std::find_if(hall.racks.begin(), hall.racks.end(),
                                        [](const HallRack &r) { return r.name == "R03-S1"; });
        QVERIFY(spine != hall.racks.end());
        QCOMPARE(spine->patchPanels, 22);
        QCOMPARE(spine->usedUnits, 16 + 22);
        QCOMPARE(hall.racks.front().pdus, 4);
        QCOMPARE(hall.racks.front().pduWatts, 2 * 17300.0);
        const auto fabricCables
            = std::count_if(hall.cables.begin(), hall.cables.end(),
                            [](const HallCable &c) { return !c.management && !c.storage(); });
        QCOMPARE(static_cast<long long>(fabricCables),
                 estimatePlan(plan, shippedCatalog()).fabric.cables);
        QCOMPARE(hall.interfaceType, std::string("infiniband-ndr"));
        // A full cabinet: 3 x (4.6 kW without GPUs + 8 x 700 W) = 30.6 kW of its 40 kW; the
        // last one holds the 128th and 127th servers, 20.4 kW.
        QCOMPARE(hall.racks.front().watts, 30600.0);
        QCOMPARE(hall.racks.front().powerFraction(), 30600.0 / 40000.0);
        const auto last = std::find_if(hall.racks.rbegin(), hall.racks.rend(),
                                       [](const HallRack &r) { return r.role == "compute"; });
        QCOMPARE(last->watts, 20400.0);
        QVERIFY(hall.notes.empty());
        // No two devices share a U, and every one fits its rack.
        std::map<int, std::vector<bool>> used;
        for (const HallDevice &device : hall.devices) {
            QVERIFY(device.rack >= 0);
            const HallRack &rack = hall.racks[static_cast<std::size_t>(device.rack)];
            auto &units = used[device.rack];
            units.resize(static_cast<std::size_t>(rack.rackUnits) + 1, false);
            QVERIFY2(device.position + device.heightUnits - 1 <= rack.rackUnits,
                     device.name.c_str());
            for (int u = device.position; u < device.position + device.heightUnits; ++u) {
                QVERIFY2(!units[static_cast<std::size_t>(u)], device.name.c_str());
                units[static_cast<std::size_t>(u)] = true;
            }
        }
        // The first server's first NIC to rail 0's leaf of unit 0. The DGX (8U) sits at U1-8,
        // its middle 4 x 44.45 mm = 0.178 m up a 42U (1.867 m) cabinet; the 1U leaf sits at U1 of
        // the row's network cabinet, 10 cabinets (6.0 m) along, its middle 0.022 m up. Climbs
        // 1.689 + 1.845 m, 2 x 0.3 m to the tray, 6.0 m along it, 1.0 m slack: 11.13 m, ordered
        // as 11.5 m, beyond copper's 5 m: multimode optics.
        const HallCable *first = cableFrom(hall, "compute-0001", "nic1");
        QVERIFY(first);
        QCOMPARE(hall.devices[static_cast<std::size_t>(first->deviceB)].name,
                 std::string("leaf-su0-rail0"));
        QVERIFY(qAbs(cableRunMeters(hall, first->deviceA, first->deviceB, {}) - 11.134) < 0.001);
        QCOMPARE(first->lengthMeters, 11.5);
        QCOMPARE(first->medium, CableMedium::Multimode);
        QCOMPARE(first->bitsPerSecond, 400e9);

        // Five cabinets to a row: the network cabinet stands 5 cabinets (3.0 m) along instead
        // of 10, so the same cable runs 11.134 - 3.0 = 8.134 m, ordered as 8.5 m.
        Plan shortRows = plan;
        shortRows.hall.cabinetsPerRow = 5;
        const DataHall shorter = layoutDataHall(shortRows, shippedCatalog());
        const HallCable *again = cableFrom(shorter, "compute-0001", "nic1");
        QVERIFY(again);
        QCOMPARE(again->lengthMeters, 8.5);
    }

    void networkCabinetsAreInTheBillOfMaterials()
    {
        // The sample's four scalable units of 32 DGX fill cabinets 1-11, 11-22, 22-32 and 33-43
        // at 3 per cabinet; with 10 to a row, most of unit 0's servers are in row 1, unit 1's in
        // row 2, unit 2's in row 4 and unit 3's in row 5 (the spine row is row 3). Each of those
        // rows gets one network cabinet for its unit's 8 rail leaves (8U), the spine row one for
        // the 16 spines: 5 network cabinets. The spine row's and row 6's management switches
        // need a network cabinet each (rows 1, 2, 4 and 5 put theirs beside their leaves): 7.
        // The 4 AI400X2 (2U each) share one storage cabinet beside the spines: 43 + 7 + 1 = 51
        // in the room and in the bill of materials.
        const Plan plan = loadSamplePlan("h100-1024-ndr-rail-fat-tree.json");
        const PlanEstimate estimate = estimatePlan(plan, shippedCatalog());
        QCOMPARE(estimate.networkCabinets, 7LL);
        QCOMPARE(estimate.managementSwitches, 10LL);
        QCOMPARE(estimate.managementCables, 391LL);
        QCOMPARE(estimate.storageSwitches, 23LL);
        QCOMPARE(estimate.storageCables, 588LL);
        // The hall's figures (theSampleFillsRowsOfRacksAndCablesItsFabric): 6 rows, 51
        // cabinets, none over a limit, 188 PDUs and 68 patch panels, each in the bill at its
        // cabinet type's price, and the 23 QM8790 of the storage network.
        QCOMPARE(estimate.hallRows, 6);
        QCOMPARE(estimate.hallRacks, 51LL);
        QCOMPARE(estimate.overLimitRacks, 0LL);
        QCOMPARE(estimate.pdus, 188LL);
        QCOMPARE(estimate.patchPanels, 68LL);
        const auto line = [&](const std::string &category) {
            return *std::find_if(estimate.billOfMaterials.begin(), estimate.billOfMaterials.end(),
                                 [&](const auto &l) { return l.category == category; });
        };
        QCOMPARE(line("Power distribution").count, 188LL);
        QCOMPARE(line("Power distribution").unitPriceUsd, 2500.0);
        QCOMPARE(line("Patch panels").count, 68LL);
        QCOMPARE(line("Storage network").count, 23LL);
        QCOMPARE(line("Storage network").unitPriceUsd, 15000.0);
        QCOMPARE(line("Patch panels").unitPriceUsd, 1000.0);
        QCOMPARE(estimate.storageCabinets, 1LL);
        const auto racks
            = std::find_if(estimate.billOfMaterials.begin(), estimate.billOfMaterials.end(),
                           [](const auto &line) { return line.category == "Racks"; });
        QVERIFY(racks != estimate.billOfMaterials.end());
        QCOMPARE(racks->count, 51LL);
        QCOMPARE(static_cast<long long>(layoutDataHall(plan, shippedCatalog()).racks.size()),
                 racks->count);
    }

    void cabinetsAtTheJobsLoadAddUpToTheRunsServers()
    {
        // The heat a cabinet gives off while the sample trains: its servers at the run's GPU
        // utilisation. Over all cabinets it is the training run's average server draw (its GPUs
        // plus the rest of its 128 servers), and a full cabinet sits below its nameplate.
        const Plan plan = loadSamplePlan("h100-1024-ndr-rail-fat-tree.json");
        const PlanEstimate estimate = estimatePlan(plan, shippedCatalog());
        QVERIFY(estimate.hasTrainingRun);
        const DataHall hall = layoutDataHall(plan, shippedCatalog());
        double runWatts = 0;
        for (const HallRack &rack : hall.racks)
            runWatts += rack.runWatts;
        const OperationsEstimate &run = estimate.trainingRun.operations;
        QVERIFY(qAbs(runWatts / (run.gpusWatts + run.nodesWatts) - 1) < 1e-9);
        QVERIFY(hall.racks.front().runWatts > 0);
        QVERIFY(hall.racks.front().runWatts < hall.racks.front().watts);
    }

    void theEstimateCountsCablesByMedium()
    {
        // Of the sample's 2,048 cables only seven per row run 5 m or less: from the top DGX
        // (U17-24, its middle 0.89 m up, 0.98 m below the cabinet top) of the row's tenth
        // cabinet to the rail leaves at U2-U8 of the network cabinet beside it (1.80 to 1.53 m
        // to climb), 0.6 m of tray across, 2 x 0.3 m up to the tray and 1 m slack: 4.98 m and
        // less, active copper. Rail 0's leaf at U1 needs 5.02 m, past copper's 5 m. Four rows
        // with leaves: 28 active copper cables, the other 2,020 multimode.
        // The storage network's 588 (theSampleFillsRowsOfRacksAndCablesItsFabric): in the storage
        // cabinet the AI400X2s (U1-8) reach their 2 leaves and the leaves their 8 spines (U9-18)
        // within 0.8 m of height plus 1 m of slack: 32 + 40 = 72 passive copper. A row's third
        // storage leaf (U11 of its network cabinet, middle 0.47 m up, 1.40 m to climb) serves its
        // servers 21-30; the two in the tenth cabinet's U9-16 and U17-24 (1.33 and 0.98 m to
        // climb) run 1.33 + 1.40 + 0.6 + 0.6 + 1.0 = 4.93 m and 4.58 m, active copper at 200 Gb/s
        // (5 m), two ports each in four rows: 16; U1-8 needs 5.29 m. The other 500 multimode.
        const PlanEstimate e
            = estimatePlan(loadSamplePlan("h100-1024-ndr-rail-fat-tree.json"), shippedCatalog());
        const std::vector<std::pair<std::string, long long>> expected
            = {{cableMediumName(CableMedium::PassiveCopper), 72},
               {cableMediumName(CableMedium::ActiveCopper), 28 + 16},
               {cableMediumName(CableMedium::Multimode), 2020 + 500}};
        QCOMPARE(e.cablesByMedium, expected);
    }

    void cablesAreOrderedInStockLengths()
    {
        // Copper keeps the hall's 0.5 m steps; fibre and patch cords take the next stock length.
        QCOMPARE(orderLengthMeters(CableMedium::ActiveCopper, 4.5), 4.5);
        QCOMPARE(orderLengthMeters(CableMedium::Multimode, 0.5), 1.0);
        QCOMPARE(orderLengthMeters(CableMedium::Multimode, 11.5), 15.0);
        QCOMPARE(orderLengthMeters(CableMedium::SingleMode, 30.5), 40.0);
        QCOMPARE(orderLengthMeters(CableMedium::SingleMode, 100.0), 100.0);
        QCOMPARE(orderLengthMeters(CableMedium::SingleMode, 101.0), 150.0);
        QCOMPARE(orderLengthMeters(CableMedium::TwistedPair, 6.0), 7.0);
    }

    void theBillPricesEveryCableByMediumAndLength()
    {
        // The sample's hall (theEstimateCountsCablesByMedium): 28 active copper cables of 4.7 to
        // 4.98 m, all ordered as 5 m at 300 + 5 x 40 = 500 USD (ib-ndr-400's cabling prices);
        // 2,020 multimode runs, each an OM4 cable at 50 + 3 USD per metre of its stock length
        // and two 800 USD transceivers; the storage network's 72 passive copper cables of 1.5 m
        // at 100 + 1.5 x 30 = 145 USD, 16 active copper of 5 m at 250 + 5 x 30 = 400 USD and 500
        // multimode runs with two 400 USD transceivers each (ib-hdr-200's prices); 391
        // management patch cords at 5 + 1 USD per metre (the SN2201's) to the management ports
        // of 391 devices (theSampleFillsRowsOfRacksAndCablesItsFabric). The first server's first
        // NIC cable (11.5 m) is one of the 15 m cables at 95 USD.
        const Plan plan = loadSamplePlan("h100-1024-ndr-rail-fat-tree.json");
        const Catalog &catalog = shippedCatalog();
        const DataHall hall = layoutDataHall(plan, catalog);
        const NicSpec &nic = catalog.nic("ib-ndr-400");
        const NicSpec &storageNic = catalog.nic("ib-hdr-200");
        const SwitchSpec &management = catalog.networkSwitch(managementSwitchId);
        const CableBill bill = cableBillOf(hall, nic, &management, &catalog);
        std::map<std::string, BillOfMaterialsLine> lines;
        for (const BillOfMaterialsLine &line : bill.lines)
            lines[line.name] = line;
        QCOMPARE(lines.at("400 Gb/s active copper (ACC), 5 m").count, 28LL);
        QCOMPARE(lines.at("400 Gb/s active copper (ACC), 5 m").unitPriceUsd, 500.0);
        QCOMPARE(lines.at("200 Gb/s passive copper (DAC), 1.5 m").count, 72LL);
        QCOMPARE(lines.at("200 Gb/s passive copper (DAC), 1.5 m").unitPriceUsd, 145.0);
        QCOMPARE(lines.at("200 Gb/s active copper (ACC), 5 m").count, 16LL);
        QCOMPARE(lines.at("200 Gb/s active copper (ACC), 5 m").unitPriceUsd, 400.0);
        QCOMPARE(lines.at("multimode fibre (OM4), 15 m").unitPriceUsd, 95.0);
        const BillOfMaterialsLine &optics = lines.at(nic.name + " multimode transceiver");
        QCOMPARE(optics.count, 2 * 2020LL);
        QCOMPARE(optics.unitPriceUsd, 800.0);
        const BillOfMaterialsLine &storageOptics
            = lines.at(storageNic.name + " multimode transceiver");
        QCOMPARE(storageOptics.count, 2 * 500LL);
        QCOMPARE(storageOptics.unitPriceUsd, 400.0);
        QCOMPARE(bill.transceivers, 4040LL + 1000);
        // Power: 4,040 x 9 W and 1,000 x 5 W optics, both 0.75 W ends of the 28 400 Gb/s copper
        // cables and both 0.6 W ends of the 16 200 Gb/s ones.
        QCOMPARE(bill.watts, 4040 * 9.0 + 56 * 0.75 + 1000 * 5.0 + 32 * 0.6);
        // Every cable is in exactly one line, the management ones among the patch cords, and the
        // total is each cable's price by the rules above, summed cable by cable.
        long long fibre = 0, patchCords = 0;
        double expectedUsd = 4040 * 800.0 + 1000 * 400.0;
        for (const HallCable &cable : hall.cables) {
            const double meters = orderLengthMeters(cable.medium, cable.lengthMeters);
            if (cable.management) {
                QCOMPARE(cable.medium, CableMedium::TwistedPair);
                expectedUsd += 5 + meters;
            } else if (cable.medium == CableMedium::Multimode) {
                expectedUsd += 50 + 3 * meters;
            } else if (cable.storage()) {
                expectedUsd
                    += (cable.medium == CableMedium::PassiveCopper ? 100 : 250) + 30 * meters;
            } else {
                expectedUsd += 500;
            }
        }
        for (const BillOfMaterialsLine &line : bill.lines) {
            fibre += line.name.starts_with("multimode fibre") ? line.count : 0;
            patchCords += line.name.starts_with("Cat 6A") ? line.count : 0;
        }
        QCOMPARE(fibre, 2020LL + 500);
        QCOMPARE(patchCords, 391LL);
        QVERIFY(qAbs(bill.costUsd - expectedUsd) < 1e-6);
        QCOMPARE(bill.unmeasuredCables, 0LL);
        QCOMPARE(bill.unpricedCables, 0LL);

        // A NIC without cabling prices: the same cables and optics, the fabric's cables unpriced
        // (and said so in the estimate's warnings), the storage network's and the management
        // cords still priced.
        nlohmann::json bare = catalog.entryJson("ib-ndr-400");
        bare.erase("cabling");
        Catalog withBareNic = catalog;
        withBareNic.addEntry(CatalogKind::Nic, bare, "bare.json", "/nics/0");
        const CableBill unpriced
            = cableBillOf(hall, withBareNic.nic("ib-ndr-400"), &management, &withBareNic);
        QCOMPARE(unpriced.unpricedCables, 2048LL);
        QCOMPARE(unpriced.transceivers, 5040LL);
        const PlanEstimate estimate = estimatePlan(plan, withBareNic);
        QVERIFY(std::any_of(estimate.warnings.begin(), estimate.warnings.end(),
                            [](const std::string &w) {
                                return w.starts_with("2048 cables have no prices in the catalog");
                            }));
    }

    void aFullSpineCabinetPatchesInACabinetBesideIt()
    {
        // The shared-cluster sample: 256 DGX x 8 NICs on 64 leaves of 32 down and 32 up, 2,048
        // uplinks to 32 spines, all of which leave the spine row: ceil(2,048 / 48) = 43 patch
        // panels for the spine cabinet. Its 32 1U spines leave U33-U42 free for 10 of them; the
        // other 33 go to a patching cabinet at the end of the spine row, stacked from U1.
        const DataHall hall
            = layoutDataHall(loadSamplePlan("h100-2048-shared-cluster.json"), shippedCatalog());
        const auto named = [&](const std::string &name) {
            return std::find_if(hall.racks.begin(), hall.racks.end(),
                                [&](const HallRack &r) { return r.name == name; });
        };
        const auto spine = named("R05-S1");
        const auto patching = named("R05-P1");
        QVERIFY(spine != hall.racks.end() && patching != hall.racks.end());
        QCOMPARE(spine->patchPanels, 10);
        QCOMPARE(spine->usedUnits, 42);
        QCOMPARE(patching->role, std::string("network"));
        QCOMPARE(patching->patchPanels, 33);
        QCOMPARE(patching->usedUnits, 33);
        int columnsInRow = 0;
        for (const HallRack &rack : hall.racks)
            columnsInRow
                = rack.row == spine->row ? std::max(columnsInRow, rack.column) : columnsInRow;
        QCOMPARE(patching->column, columnsInRow); // the last of its row, on no other cabinet
        QVERIFY(hall.notes.empty());
    }

    void pdusFollowTheLoadUpToWhatFits()
    {
        // Eight DGX H100 forced into a 40 kW cabinet: 8 x 10.2 = 81.6 kW needs ceil(81.6 / 17.3)
        // = 5 PDUs a feed; four fit, carrying 69.2 kW: the cabinet is over its PDUs (and its
        // power limit), and the hall says so.
        Plan plan = loadSamplePlan("h100-1024-ndr-rail-fat-tree.json");
        plan.nodeGroups[0].nodesPerRack = 8;
        const DataHall hall = layoutDataHall(plan, shippedCatalog());
        const HallRack &first = hall.racks.front();
        QCOMPARE(first.pdus, 8);
        QCOMPARE(first.pduWatts, 4 * 17300.0);
        QVERIFY(first.overLimit());
        QVERIFY(std::any_of(hall.notes.begin(), hall.notes.end(), [](const std::string &note) {
            return note == "R01-C01 needs 5 PDUs per feed for its 81.6 kW; at most 4 fit";
        }));
        QVERIFY(std::any_of(hall.notes.begin(), hall.notes.end(), [](const std::string &note) {
            return note.starts_with("R01-C01 draws 81.6 kW, more than one feed's PDUs carry (69.2");
        }));
        // Every full cabinet draws 81.6 kW against its 40 kW power and cooling limit: 128 nodes
        // eight to a cabinet are 16 cabinets, all over, and one warning says so (a count in the
        // data-hall table was the only sign).
        const std::string overPower = "16 compute cabinets draw more than their power and cooling "
                                      "limit; the most, R01-C01, 81.6 kW against 40.0 kW";
        QVERIFY2(std::count(hall.warnings.begin(), hall.warnings.end(), overPower) == 1,
                 hall.warnings.empty() ? "no warning" : hall.warnings.back().c_str());
        // Eight nodes are one such cabinet, named in the singular.
        plan.nodeGroups[0].count = 8;
        const DataHall one = layoutDataHall(plan, shippedCatalog());
        QVERIFY2(std::count_if(one.warnings.begin(), one.warnings.end(),
                               [](const std::string &warning) {
                                   return warning.starts_with("1 compute cabinet, R")
                                       && warning.ends_with(
                                           ", draws 81.6 kW, more than its 40.0 kW "
                                           "power and cooling limit");
                               })
                     == 1,
                 one.warnings.empty() ? "no warning" : one.warnings.back().c_str());
    }

    void theStorageNetworkSaysWhatItCannotBuild()
    {
        // The ViT sample's NFS server speaks 100 GbE Ethernet: its storage network is Ethernet
        // (the DGX's storage cards run either). An AI400X2 added beside it speaks HDR 200
        // InfiniBand: cabled, with the mismatch noted, and the estimate repeats it (its bill
        // prices that storage network).
        Plan mixed = loadSamplePlan("h100-128-vit-imagenet-nfs.json");
        const DataHall vit = layoutDataHall(mixed, shippedCatalog());
        QCOMPARE(vit.storageSwitchId, std::string("leaf-100g"));
        QVERIFY(std::none_of(vit.notes.begin(), vit.notes.end(), [](const std::string &note) {
            return note.find("does not speak") != std::string::npos;
        }));
        StoragePlan lustre;
        lustre.storageId = "lustre-exascaler";
        lustre.count = 1;
        mixed.storage.push_back(lustre);
        const PlanEstimate estimate = estimatePlan(mixed, shippedCatalog());
        QVERIFY(std::any_of(
            estimate.warnings.begin(), estimate.warnings.end(), [](const std::string &w) {
                return w.starts_with("data hall: DDN AI400X2")
                    && w.find("does not speak the storage network's protocol") != std::string::npos;
            }));
        // 400 DGX (no compute fabric, which two tiers of 64 ports cannot build for them): 800
        // storage ports need 40 leaves of 20 down in the rows (3 per cabinet, 30 to a row: 13
        // rows of 30 servers and one of 10, 13 x 3 + 1) and 2 for the storage, 42, more than the
        // 40 a QM8790 spine reaches: not laid out, and said so.
        Plan plan = loadSamplePlan("h100-1024-ndr-rail-fat-tree.json");
        plan.nodeGroups[0].count = 400;
        plan.fabric.topology = "none";
        const DataHall big = layoutDataHall(plan, shippedCatalog());
        QVERIFY(std::none_of(big.cables.begin(), big.cables.end(),
                             [](const HallCable &c) { return c.storage(); }));
        QVERIFY(std::any_of(big.notes.begin(), big.notes.end(), [](const std::string &note) {
            return note.starts_with("the storage network needs 42 leaves, more than two tiers");
        }));
        // Not laid out, but bought: priced as the three-tier fat-tree of QM8790s that holds its
        // ports, more switches than its 42 leaves alone, with its links' transceivers. The bill
        // left it out (the shared sample's 4,096-GPU scenario lost its $2.3 M of switches).
        QVERIFY2(big.unlaidStorageSwitches > 42,
                 qPrintable(QString::number(big.unlaidStorageSwitches)));
        QVERIFY(big.unlaidStorageTransceivers > 0);
        const std::string priced
            = "priced as a fat-tree of " + std::to_string(big.unlaidStorageSwitches) + " switches";
        QVERIFY(std::any_of(big.notes.begin(), big.notes.end(), [&](const std::string &note) {
            return note.find(priced) != std::string::npos;
        }));
        const PlanEstimate bigEstimate = estimatePlan(plan, shippedCatalog());
        const auto line = std::find_if(
            bigEstimate.billOfMaterials.begin(), bigEstimate.billOfMaterials.end(),
            [](const BillOfMaterialsLine &l) { return l.category == "Storage network"; });
        QVERIFY(line != bigEstimate.billOfMaterials.end());
        QCOMPARE(line->count, big.unlaidStorageSwitches);
        QCOMPARE(bigEstimate.storageSwitches, big.unlaidStorageSwitches);
    }

    void everyNicOfAFatTreeNodeIsCabled()
    {
        // The A100 sample: 8 PCIe servers with 2 NICs each on one 100 GbE leaf. A fat-tree lists
        // a node's NICs side by side, so endpoints 2n and 2n + 1 are server n's nic1 and nic2:
        // 16 cables, two per server.
        const DataHall hall
            = layoutDataHall(loadSamplePlan("a100-pcie-64-100gbe.json"), shippedCatalog());
        // (and 22 management cables: the 8 servers' BMCs, the leaf's and the storage's ports,
        // and the PDUs of the 6 cabinets, 3 compute, the leaf's, the storage's and row 2's
        // management cabinet, each under its 15 kW limit so one 17.3 kW PDU a feed: 12)
        // The servers have no storage network: the NFS server's two 100 GbE ports take free
        // ports of the 32-port leaf (16 used): p17 and p18.
        QCOMPARE(hall.cables.size(), std::size_t(16 + 2 + 22));
        std::vector<std::string> storagePorts;
        for (const HallCable &cable : hall.cables)
            if (cable.storage())
                storagePorts.push_back(hall.devices[static_cast<std::size_t>(cable.deviceB)].name
                                       + ":" + cable.portB);
        QCOMPARE(storagePorts, (std::vector<std::string> {"leaf-0:p17", "leaf-0:p18"}));
        std::map<std::string, std::set<std::string>> ports;
        for (const HallCable &cable : hall.cables)
            if (!cable.management && !cable.storage())
                ports[hall.devices[static_cast<std::size_t>(cable.deviceA)].name].insert(
                    cable.portA);
        QCOMPARE(ports.size(), std::size_t(8));
        for (const auto &[server, nics] : ports)
            QCOMPARE(nics, (std::set<std::string> {"nic1", "nic2"}));
    }

    void netboxImportsReferToWhatTheyDefine()
    {
        // NetBox resolves every name against what the earlier files created, and refuses an
        // interface that is already cabled: check both, and the columns its forms name.
        const DataHall hall
            = layoutDataHall(loadSamplePlan("h100-1024-ndr-rail-fat-tree.json"), shippedCatalog());
        const std::vector<NetboxImportFile> files = netboxImportFiles(hall, "Hall A");
        QCOMPARE(files.size(), std::size_t(8));
        const CsvRows &devices = fileFor(files, "dcim.device").rows;
        QCOMPARE(devices.front(),
                 (std::vector<std::string> {"name", "role", "manufacturer", "device_type", "status",
                                            "site", "rack", "position", "face"}));
        const CsvRows &cables = fileFor(files, "dcim.cable").rows;
        QCOMPARE(cables.front(),
                 (std::vector<std::string> {"side_a_device", "side_a_type", "side_a_name",
                                            "side_b_device", "side_b_type", "side_b_name", "type",
                                            "status", "label", "length", "length_unit"}));
        QCOMPARE(devices.size(), hall.devices.size() + 1);
        QCOMPARE(cables.size(), hall.cables.size() + 1);
        const auto names = [&](const std::string &object, const std::string &field) {
            return columnValues(fileFor(files, object).rows, field);
        };
        for (const std::string &rack : names("dcim.device", "rack"))
            QVERIFY2(names("dcim.rack", "name").count(rack), rack.c_str());
        for (const std::string &type : names("dcim.device", "device_type"))
            QVERIFY2(names("dcim.devicetype", "model").count(type), type.c_str());
        for (const std::string &role : names("dcim.device", "role"))
            QVERIFY2(names("dcim.devicerole", "name").count(role), role.c_str());
        for (const std::string &maker : names("dcim.devicetype", "manufacturer"))
            QVERIFY2(names("dcim.manufacturer", "name").count(maker), maker.c_str());
        QCOMPARE(names("dcim.device", "site"), std::set<std::string> {"Hall A"});
        QCOMPARE(names("dcim.site", "name"), std::set<std::string> {"Hall A"});
        // Every cable end is a listed interface of a listed device, and none is used twice.
        const CsvRows &interfaces = fileFor(files, "dcim.interface").rows;
        std::set<std::pair<std::string, std::string>> listed;
        for (std::size_t r = 1; r < interfaces.size(); ++r)
            listed.emplace(interfaces[r][0], interfaces[r][1]);
        const std::set<std::string> deviceNames = names("dcim.device", "name");
        std::set<std::pair<std::string, std::string>> cabled;
        for (std::size_t r = 1; r < cables.size(); ++r)
            for (const auto &[device, port] :
                 {std::pair {cables[r][0], cables[r][2]}, std::pair {cables[r][3], cables[r][5]}}) {
                QVERIFY(deviceNames.count(device));
                QVERIFY(listed.count({device, port}));
                QVERIFY2(cabled.emplace(device, port).second, (device + " " + port).c_str());
            }
        QCOMPARE(cabled.size(), listed.size());
        // Interface types by what the port is: the fabric's NDR, the storage network's HDR 200
        // (every port of the 23 storage switches' 888 cabled ends, and of the 256 server and 32
        // storage-system ends: 1,176), 1GbE RJ45 on the management network (391 cables, 782
        // ends).
        std::map<std::string, long long> types;
        for (std::size_t r = 1; r < interfaces.size(); ++r)
            ++types[interfaces[r][2]];
        QCOMPARE(types["infiniband-hdr"], 888LL + 256 + 32);
        QCOMPARE(types["1000base-t"], 2 * 391LL);
        QCOMPARE(types["infiniband-ndr"], 2 * 2048LL);
        // The schedule has one row per cable, lengths in metres and the medium by name.
        const CsvRows schedule = cableScheduleRows(hall);
        QCOMPARE(schedule.size(), hall.cables.size() + 1);
        QCOMPARE(schedule[1][column(schedule, "medium")],
                 cableMediumName(hall.cables.front().medium));
    }

    void aGroupDraggedToARowStartsThere()
    {
        // Two groups of DGX H100 in 40 kW cabinets, three servers each (the sample's rack
        // usage): A with 30 servers fills 10 cabinets, B with 12 fills 4; ten per row.
        Plan plan = loadSamplePlan("h100-1024-ndr-rail-fat-tree.json");
        NodeGroup a = plan.nodeGroups[0];
        a.name = "A";
        a.count = 30;
        NodeGroup b = a;
        b.name = "B";
        b.count = 12;
        plan.nodeGroups = {a, b};
        auto cabinetsOf = [](const DataHall &hall, const std::string &group) {
            std::vector<std::pair<int, int>> cells; // (room row, column)
            for (const HallRack &rack : hall.racks)
                if (rack.group == group)
                    cells.emplace_back(rack.row, rack.column);
            return cells;
        };
        using Cells = std::vector<std::pair<int, int>>;
        // Unpinned: A takes compute row 0, B the first four places of compute row 1. 336 NICs
        // need two tiers of 64-port switches, so the spine row stands at compute row 2 / 2 = 1
        // and pushes B to room row 2.
        DataHall hall = layoutDataHall(plan, shippedCatalog());
        QCOMPARE(hall.spineRoomRow, 1);
        QCOMPARE(
            cabinetsOf(hall, "A"),
            (Cells {
                {0, 0}, {0, 1}, {0, 2}, {0, 3}, {0, 4}, {0, 5}, {0, 6}, {0, 7}, {0, 8}, {0, 9}}));
        QCOMPARE(cabinetsOf(hall, "B"), (Cells {{2, 0}, {2, 1}, {2, 2}, {2, 3}}));
        // B dragged to compute row 3: four compute rows, the spine row at 4 / 2 = 2, so B stands
        // in room row 4 and rows 1 and 2 of compute cabinets are empty.
        plan.nodeGroups[1].hallRow = 3;
        hall = layoutDataHall(plan, shippedCatalog());
        QCOMPARE(hall.spineRoomRow, 2);
        QCOMPARE(cabinetsOf(hall, "B"), (Cells {{4, 0}, {4, 1}, {4, 2}, {4, 3}}));
        QCOMPARE(cabinetsOf(hall, "A").front(), (std::pair<int, int> {0, 0}));
        QCOMPARE(hall.computeRowOf(4), 3);
        QCOMPARE(hall.computeRowOf(0), 0);
        // B dragged to the front row: it takes its first four places and A flows around it,
        // the rest of row 0 and the start of compute row 1 (room row 2 behind the spine row).
        plan.nodeGroups[1].hallRow = 0;
        hall = layoutDataHall(plan, shippedCatalog());
        QCOMPARE(cabinetsOf(hall, "B"), (Cells {{0, 0}, {0, 1}, {0, 2}, {0, 3}}));
        QCOMPARE(
            cabinetsOf(hall, "A"),
            (Cells {
                {0, 4}, {0, 5}, {0, 6}, {0, 7}, {0, 8}, {0, 9}, {2, 0}, {2, 1}, {2, 2}, {2, 3}}));
        // Both asking for row 0: the first in the plan gets it, the second the next free places.
        plan.nodeGroups[0].hallRow = 0;
        hall = layoutDataHall(plan, shippedCatalog());
        QCOMPARE(cabinetsOf(hall, "A").front(), (std::pair<int, int> {0, 0}));
        QCOMPARE(cabinetsOf(hall, "B"), (Cells {{2, 0}, {2, 1}, {2, 2}, {2, 3}}));
        // No two cabinets share a place, and every server still has one.
        std::set<std::pair<int, int>> places;
        for (const HallRack &rack : hall.racks)
            QVERIFY(places.insert({rack.row * 1000 + rack.column, rack.role == "compute"}).second);
        for (const HallDevice &device : hall.devices)
            if (device.role == "GPU server")
                QVERIFY(device.rack >= 0 && device.position >= 1);
    }

    void networkCabinetsCountTheirCabledPorts()
    {
        // The sample's non-blocking rail fat-tree of 64-port switches: 128 servers x 8 rails =
        // 1,024 NICs on 32 leaves, so each leaf has 32 ports down and 32 up to the 16 spines,
        // each spine 32 x 32 / 16 = 64 down: every port of every switch carries a cable.
        const DataHall hall
            = layoutDataHall(loadSamplePlan("h100-1024-ndr-rail-fat-tree.json"), shippedCatalog());
        // The management network adds 10 SN2201 of 48 ports, one port for each of the 391 other
        // devices (tst_datahall's row count above). Patch panels have 48 ports each but are not
        // switches: their ports are not the cabinet's. The storage network's 23 QM8790 have 40:
        // its leaves use 288 down and 300 up, its spines 300.
        int leaves = 0, spines = 0, management = 0;
        for (const HallDevice &device : hall.devices) {
            if (device.role == "leaf switch" || device.role == "spine switch") {
                QCOMPARE(device.ports, 64);
                QCOMPARE(device.portsUsed, 64);
                (device.role == "leaf switch" ? leaves : spines) += 1;
            } else if (device.role == "management switch") {
                QCOMPARE(device.ports, 48);
                ++management;
            } else if (device.role == "patch panel") {
                QCOMPARE(device.ports, 48);
            } else if (device.role == "storage switch") {
                QCOMPARE(device.ports, 40);
            } else {
                QCOMPARE(device.ports, 0);
            }
        }
        QCOMPARE(management, 10);
        QCOMPARE(leaves, 32);
        QCOMPARE(spines, 16);
        long long cabinetPorts = 0, cabinetUsed = 0;
        for (const HallRack &rack : hall.racks) {
            QCOMPARE(rack.ports == 0, rack.role == "compute"); // storage: the storage network's
            cabinetPorts += rack.ports;
            cabinetUsed += rack.portsUsed;
        }
        QCOMPARE(cabinetPorts, 48LL * 64 + 10 * 48 + 23 * 40);
        QCOMPARE(cabinetUsed, 48LL * 64 + 391 + 288 + 2 * 300);
        // Those cabled ports are the room's switch ends: each of the 1,024 server cables ends on
        // one leaf port, each of the 1,024 leaf-spine cables on one leaf and one spine port, and
        // each management cable on one management port (the leaves' and spines' own management
        // ports are on the switch end too: 48 more, and the storage switches' 23); each storage
        // port's cable on a storage leaf port (288) and each storage uplink on two (600).
        long long switchEnds = 0;
        for (const HallCable &cable : hall.cables)
            for (int end : {cable.deviceA, cable.deviceB})
                switchEnds += hall.devices[static_cast<std::size_t>(end)].ports > 0 ? 1 : 0;
        QCOMPARE(switchEnds, 1024LL + 2 * 1024 + 391 + 48 + 23 + 288 + 600);
    }

    void cabinetsWeighWhatTheyHold()
    {
        // The sample: three DGX H100 of 130.45 kg in a cabinet rated for 1,360 kg: 391.35 kg,
        // 28.8%. Its first network cabinet holds QM9700 leaves of 14.8 kg each, three QM8790
        // storage leaves of 11.4 kg and the row's two SN2201 management switches of 7.41 kg
        // (PDUs and patch panels, a few kilograms each, are not weighed).
        const DataHall hall
            = layoutDataHall(loadSamplePlan("h100-1024-ndr-rail-fat-tree.json"), shippedCatalog());
        const HallRack &first = hall.racks.front();
        QCOMPARE(first.name, std::string("R01-C01"));
        QVERIFY(qAbs(first.kilograms - 391.35) < 1e-9);
        QCOMPARE(first.limitKilograms, 1360.0);
        QVERIFY(qAbs(first.weightFraction() - 391.35 / 1360.0) < 1e-12);
        for (const HallRack &rack : hall.racks) {
            if (rack.name != "R01-N1")
                continue;
            int leaves = 0;
            for (const HallDevice &device : hall.devices)
                leaves += device.rack >= 0 && device.role == "leaf switch"
                    && hall.racks[static_cast<std::size_t>(device.rack)].name == "R01-N1";
            QCOMPARE(leaves, 8);
            QVERIFY(qAbs(rack.kilograms - (8 * 14.8 + 3 * 11.4 + 2 * 7.41)) < 1e-9);
            QCOMPARE(rack.devicesOfUnknownWeight, 0);
        }
        // HGX H200 servers have no published weight in the catalog: their cabinets' weight is
        // not known rather than a partial sum.
        Plan plan = loadSamplePlan("h100-1024-ndr-rail-fat-tree.json");
        plan.nodeGroups[0].nodeId = "hgx-h200-8gpu";
        const DataHall unknown = layoutDataHall(plan, shippedCatalog());
        QVERIFY(unknown.racks.front().devicesOfUnknownWeight > 0);
        QVERIFY(unknown.racks.front().weightFraction() < 0);
    }

    void storageStandsBesideTheSpinesOrBehindTheRows()
    {
        // The sample's 4 AI400X2 (2U each) fill 8U of one storage cabinet in the spine row (room
        // row 3, R03), after the spine cabinet; the storage network's 2 leaves and 8 spines (1U
        // QM8790 of 250 W) and 6 patch panels stand above them
        // (theSampleFillsRowsOfRacksAndCablesItsFabric): 24U.
        Plan plan = loadSamplePlan("h100-1024-ndr-rail-fat-tree.json");
        DataHall hall = layoutDataHall(plan, shippedCatalog());
        const auto storageRack = [](const DataHall &h) {
            return std::find_if(h.racks.begin(), h.racks.end(),
                                [](const HallRack &r) { return r.role == "storage"; });
        };
        auto rack = storageRack(hall);
        QVERIFY(rack != hall.racks.end());
        QCOMPARE(rack->name, std::string("R03-ST1"));
        QCOMPARE(rack->usedUnits, 8 + 10 + 6);
        QCOMPARE(rack->watts,
                 4 * shippedCatalog().storage("lustre-exascaler").powerWatts + 10 * 250.0);
        // Without a fabric there is no spine row: the storage gets a row of its own behind the
        // five compute rows (room row 6). (Without the servers' storage network, so that the
        // cabinets hold the storage systems alone.)
        plan.fabric.topology = "none";
        plan.fabric.storageNetworkBytesPerSecond = 0.0;
        hall = layoutDataHall(plan, shippedCatalog());
        rack = storageRack(hall);
        QVERIFY(rack != hall.racks.end());
        QCOMPARE(rack->row, 5);
        QCOMPARE(rack->name, std::string("R06-ST1"));
        // Sixty of them need 120U and 60 x 3 kW = 180 kW: a 40 kW cabinet takes 13 (39 kW, 26U;
        // a fourteenth would draw 42 kW), so five cabinets of 13, 13, 13, 13 and 8. By their
        // units alone they filled three 42U cabinets of 21, 21 and 18, drawing 63 kW each.
        plan.storage.front().count = 60;
        hall = layoutDataHall(plan, shippedCatalog());
        std::vector<int> units;
        for (const HallRack &r : hall.racks)
            if (r.role == "storage") {
                units.push_back(r.usedUnits);
                QVERIFY(r.watts <= r.limitWatts);
            }
        QCOMPARE(units, (std::vector<int> {26, 26, 26, 26, 16}));
    }

    void managementCablesBeyondTwistedPairAreNoted()
    {
        // 300 cabinets to a row: the sample's 43 compute cabinets stand in columns 0-42 of one
        // row and its network cabinet at column 300, at least 0.6 m x (300 - 42) = 154.8 m of
        // tray away, beyond Cat 6A's 100 m: every one of the 128 BMC cables and the cables of
        // the compute cabinets' 43 x 4 PDUs (theSampleFillsRowsOfRacksAndCablesItsFabric) is out
        // of reach, 300 in all. The spine row's devices sit beside their own management switch.
        Plan plan = loadSamplePlan("h100-1024-ndr-rail-fat-tree.json");
        plan.hall.cabinetsPerRow = 300;
        const DataHall hall = layoutDataHall(plan, shippedCatalog());
        long long outOfReach = 0;
        for (const HallCable &cable : hall.cables)
            outOfReach += cable.management && cable.medium == CableMedium::OutOfReach ? 1 : 0;
        QCOMPARE(outOfReach, 300LL);
        QVERIFY(std::any_of(hall.notes.begin(), hall.notes.end(), [](const std::string &note) {
            return note.find("300 management cables are longer than twisted pair reaches (100 m)")
                == 0;
        }));
        // They are left out of the bill of materials, so the plan's estimate warns of them, as
        // of every cable it counts but cannot price.
        const PlanEstimate e = estimatePlan(plan, shippedCatalog());
        QVERIFY(std::any_of(e.warnings.begin(), e.warnings.end(), [](const std::string &warning) {
            return warning.find("data hall: 300 management cables are longer than twisted pair "
                                "reaches (100 m) and are not in the bill")
                == 0;
        }));
    }

    void aGroupWithoutRacksHasNoPositionsAndSaysSo()
    {
        // The sample with its group's rack taken away: its servers get no
        // rack and no U, the hall says why, and cables to them carry no length. Their storage
        // ports are left off the storage network (the storage systems' own ports have no
        // switch to go to).
        Plan plan = loadSamplePlan("h100-1024-ndr-rail-fat-tree.json");
        plan.nodeGroups[0].rackId.clear();
        const DataHall hall = layoutDataHall(plan, shippedCatalog());
        QCOMPARE(hall.notes.size(), std::size_t(1));
        QVERIFY2(hall.notes[0].find("not placed in racks") != std::string::npos,
                 hall.notes[0].c_str());
        QVERIFY(hall.devices.front().rack < 0);
        QVERIFY(!hall.cables.front().positioned);
        const CsvRows schedule = cableScheduleRows(hall);
        QCOMPARE(schedule[1][column(schedule, "length_m")], std::string());
    }

    void aHallBeyondTheLayoutsLimitSaysSoInsteadOfStalling()
    {
        // The sample's 128 DGX H100 in racks against a limit of 127 servers: nothing is placed
        // and the hall says why, naming both counts; at 128 the same plan is laid out (43
        // compute cabinets of 3 servers, 128 / 3 rounded up, plus the network cabinets).
        const Plan plan = loadSamplePlan("h100-1024-ndr-rail-fat-tree.json");
        const PlanEstimate estimate = estimatePlan(plan, shippedCatalog());
        const std::optional<PlanFabric> fabric = planFabric(plan, shippedCatalog());
        QVERIFY(fabric);
        const FabricGraph graph = generatePlanFabric(*fabric);
        DataHallInputs inputs {plan, shippedCatalog(), estimate.racks};
        inputs.fabric = &*fabric;
        inputs.graph = &graph;
        DataHallOptions options = hallOptionsOf(plan);
        options.maxServers = 127;
        const DataHall refused = layoutDataHall(inputs, options);
        QVERIFY(refused.racks.empty() && refused.devices.empty() && refused.cables.empty());
        QVERIFY2(refused.notLaidOut.starts_with(
                     "the hall's 128 servers in racks are more than the 127 its layout places"),
                 refused.notLaidOut.c_str());
        QCOMPARE(refused.warnings, std::vector<std::string>({refused.notLaidOut}));
        options.maxServers = 128;
        const DataHall laidOut = layoutDataHall(inputs, options);
        QVERIFY(laidOut.notLaidOut.empty());
        const auto compute = std::count_if(laidOut.racks.begin(), laidOut.racks.end(),
                                           [](const HallRack &r) { return r.role == "compute"; });
        QCOMPARE(compute, 43);
        // The default limit is 2^19 = 524,288 servers; a plan of 3,772,776 (the fuzzer's) is
        // refused by the estimate with the same words, its compute racks still counted.
        Plan huge;
        NodeGroup group;
        group.name = "inference servers";
        group.nodeId = "hgx-h200-8gpu";
        group.count = 3772776;
        group.rackId = "rack-air-40kw";
        huge.nodeGroups.push_back(group);
        const PlanEstimate hugeEstimate = estimatePlan(huge, shippedCatalog());
        QVERIFY(std::any_of(hugeEstimate.warnings.begin(), hugeEstimate.warnings.end(),
                            [](const std::string &w) {
                                return w.find("3,772,776 servers in racks are more than the "
                                              "524,288")
                                    != std::string::npos;
                            }));
        QCOMPARE(hugeEstimate.racks.front().racks, 1257592); // 3,772,776 / 3 rounded up
        QCOMPARE(hugeEstimate.networkCabinets, 0LL);
    }
};

QTEST_GUILESS_MAIN(TestDataHall)
#include "tst_datahall.moc"
