// SPDX-License-Identifier: GPL-3.0-or-later
#include "model/catalog/catalogdatabase.h"
#include "model/core/humantext.h"
#include "model/core/inputerror.h"
#include "model/fabric/fabricscaleout.h"
#include "model/plan/planio.h"
#include "model/plan/scenarios.h"
#include "model/planning/estimatejson.h"
#include "model/planning/planestimator.h"
#include "model/planning/planfabric.h"
#include "model/planning/planworstfailure.h"
#include "model/planning/resolvedplan.h"
#include "model/planning/scenariocomparison.h"
#include "model/planning/servinguse.h"
#include "model/training/trainingestimator.h"
#include "testsupport.h"

#include <QTest>

#include <algorithm>
#include <limits>

using namespace cp::model;

namespace {
using cp::test::loadSamplePlan;
using cp::test::shippedCatalog;
} // namespace

class TestPlanEstimator : public QObject
{
    Q_OBJECT

private slots:
    void gpuCountBeyondAnIntIsRefused()
    {
        // 64 groups x 4,194,304 DGX H100 x 8 GPUs = 2^6 x 2^22 x 2^3 = 2^31 = 2,147,483,648 GPUs,
        // one more than an int holds; 268,435,456 servers.
        nlohmann::json doc = {{"format", Plan::formatName},
                              {"version", Plan::formatVersion},
                              {"name", "huge"},
                              {"nodes", nlohmann::json::array()}};
        for (int i = 0; i < 64; ++i)
            doc["nodes"].push_back({{"node", "dgx-h100"}, {"count", 4194304}});
        const std::string expected = "the plan holds 268435456 servers with 2147483648 GPUs, "
                                     "more than the 2147483647 an estimate can count";
        try {
            parsePlan(doc, "huge.json", &shippedCatalog());
            QFAIL("2^31 GPUs must be refused");
        } catch (const InputError &error) {
            QCOMPARE(error.file(), std::string("huge.json"));
            QCOMPARE(error.pointer(), std::string("/nodes"));
            QCOMPARE(error.reason(), expected);
        }
        // A plan built in memory (the desktop program's) is refused by the estimate itself.
        const Plan plan = parsePlan(doc, "huge.json", nullptr);
        try {
            estimatePlan(plan, shippedCatalog());
            QFAIL("2^31 GPUs must be refused");
        } catch (const InputError &error) {
            QCOMPARE(error.reason(), expected);
        }
        // One group fewer, 63 x 2^25 = 2,113,929,216 GPUs, still fits.
        doc["nodes"].erase(doc["nodes"].size() - 1);
        QCOMPARE(parsePlan(doc, "big.json", &shippedCatalog()).totalNodes(), 63 * 4194304);
    }

    void twoTierCountsMatchSuperPod()
    {
        // DGX SuperPOD H100 RA, Table 4: 4 SUs (127 nodes x 8 rails = 1016 ports + UFM) -> 32
        // leaves, 16 spines, 1024 spine-leaf cables on 64-port QM9700s at 1:1.
        const FabricCounts counts = twoTierFabricCounts(1024, 64, 1.0);
        QCOMPARE(counts.leafSwitches, 32LL);
        QCOMPARE(counts.spineSwitches, 16LL);
        QCOMPARE(counts.cables, 2048LL);
        // k²/2 = 2048 endpoints is the two-tier maximum for k = 64: 64 leaves, 32 spines.
        const FabricCounts maximum = twoTierFabricCounts(2048, 64, 1.0);
        QCOMPARE(maximum.leafSwitches, 64LL);
        QCOMPARE(maximum.spineSwitches, 32LL);
        // 2:1 oversubscription: floor(64·2/3) = 42 ports down, 22 up.
        const FabricCounts over = twoTierFabricCounts(2048, 64, 2.0);
        QCOMPARE(over.leafSwitches, 49LL);
        QCOMPARE(over.spineSwitches, (49LL * 22 + 63) / 64);
        QCOMPARE(twoTierFabricCounts(16, 32, 1.0).leafSwitches, 1LL);
    }

    static long long nicsBought(const PlanEstimate &e)
    {
        long long count = 0;
        for (const BillOfMaterialsLine &line : e.billOfMaterials)
            if (line.category == "NICs")
                count += line.count;
        return count;
    }

    void serversKeepTheNicsTheyShipWith()
    {
        // 16 DGX H100 ship with 8 ConnectX-7 VPI cards each (in the server's price). Run as RoCE
        // (roce-400g, the same adapter) they buy no NIC; ten NICs a server buy the 2 it lacks,
        // 16 x 2 = 32; 100 GbE (a ConnectX-6 Dx, another card) buys all 16 x 8 = 128.
        Plan plan = cp::test::planOfServers("dgx-h100", 16, "fat-tree");
        plan.fabric.nicId = "roce-400g";
        QCOMPARE(nicsBought(estimatePlan(plan, shippedCatalog())), 0LL);
        plan.fabric.nicsPerNode = 10;
        QCOMPARE(nicsBought(estimatePlan(plan, shippedCatalog())), 32LL);
        plan.fabric.nicsPerNode = 0;
        plan.fabric.nicId = "eth-100g";
        QCOMPARE(nicsBought(estimatePlan(plan, shippedCatalog())), 128LL);
    }

    void withoutAFabricOneServerTrainsAlone()
    {
        // The 1,024-GPU rail sample with its fabric removed: 128 servers with nothing joining
        // them. Their training job was estimated across all of them at the NICs' full rate (the
        // same 3.477 s step) while the fabric's switches left the bill.
        Plan plan = loadSamplePlan("h100-1024-ndr-rail-fat-tree.json");
        plan.fabric.topology = "none";
        const PlanEstimate none = estimatePlan(plan, shippedCatalog());
        QVERIFY(!none.hasTrainingRun);
        QVERIFY2(none.trainingError.find("no fabric, so its 128 servers cannot train one job "
                                         "together")
                     != std::string::npos,
                 none.trainingError.c_str());
        // One server needs no fabric: its job runs on its own NVLink.
        Plan single = cp::test::planOfServers("dgx-h100", 1, "none");
        single.workloadType = plan.workloadType;
        single.trainingModelId = "llama-3-8b"; // the sample's 70B needs more than 8 GPUs hold
        single.training = plan.training;
        single.training.globalBatch = 8;
        const PlanEstimate alone = estimatePlan(single, shippedCatalog());
        QVERIFY2(alone.trainingError.empty(), alone.trainingError.c_str());
        QVERIFY(alone.hasTrainingRun);
    }

    void theReportGetsTheFabricsBisection()
    {
        // The 1,024-GPU rail sample: 1,024 NDR 400 Gb/s NICs on a non-blocking two-tier rail
        // fabric. Half the endpoints inject 512 x 400 Gb/s = 204.8 Tb/s, and every leaf has as
        // many links up as down, so the bisection carries all of it: ratio 1. Endpoint to
        // endpoint: NIC, leaf, spine, leaf, NIC, 4 links at most.
        Plan plan = loadSamplePlan("h100-1024-ndr-rail-fat-tree.json");
        const std::optional<FabricMetrics> full = analysePlanFabric(plan, shippedCatalog());
        QVERIFY(full);
        QVERIFY(cp::test::closeRelative(full->bisectionBytesPerSecond, 512 * 400e9 / 8));
        QCOMPARE(full->diameter, 4);
        QCOMPARE(bisectionText(*full),
                 std::string("205 Tb/s per direction, 1.00 of what half the endpoints inject"));
        // Leaves at 2:1: a rail leaf of radix 64 takes the NICs of the most servers whose up
        // ports, half their count rounded up, still fit: 42 down and 21 up (43 would need 22,
        // 65 ports), so the cut carries half of what the endpoints inject: 0.50.
        plan.fabric.oversubscription = 2.0;
        const std::optional<FabricMetrics> half = analysePlanFabric(plan, shippedCatalog());
        QVERIFY(half);
        QVERIFY2(std::abs(half->bisectionRatio - 0.5) < 1e-9,
                 std::to_string(half->bisectionRatio).c_str());
        // No fabric: nothing to analyse.
        plan.fabric.topology = "none";
        QVERIFY(!analysePlanFabric(plan, shippedCatalog()));
    }

    void theRunCostsWhatTheBillOfMaterialsBuys()
    {
        // The run's capital is the plan's bill of materials and its spare servers (bought with
        // their GPUs): the run cost and the capital beside it reconcile. It used to price every
        // server's built-in NICs again and leave out racks and the storage network.
        const Plan plan = loadSamplePlan("h100-1024-ndr-rail-fat-tree.json");
        const PlanEstimate e = estimatePlan(plan, shippedCatalog());
        QVERIFY(e.hasTrainingRun);
        const NodeSpec &node = shippedCatalog().node("dgx-h100");
        const double spareServerUsd = node.priceWithoutGpusUsd
            + node.gpusPerNode * shippedCatalog().gpu(node.gpuId).priceUsd;
        const int spares = e.trainingRun.reliability.spareNodes;
        QVERIFY(spares >= 1);
        // The spares are a line of the bill (they were in the run's capital alone, $360,000
        // above the plan's), and the bill's lines add up to the plan's capital.
        QCOMPARE(e.trainingRun.capitalUsd, e.capitalCostUsd);
        const auto spareLine = std::find_if(
            e.billOfMaterials.begin(), e.billOfMaterials.end(),
            [](const BillOfMaterialsLine &line) { return line.category == "Spares"; });
        QVERIFY(spareLine != e.billOfMaterials.end());
        QCOMPARE(spareLine->count, static_cast<long long>(spares));
        // A DGX H100 chassis, $120,000, and its 8 H100 at $30,000: $360,000.
        QCOMPARE(spareServerUsd, 360000.0);
        QCOMPARE(spareLine->unitPriceUsd, spareServerUsd);
        double lines = 0;
        for (const BillOfMaterialsLine &line : e.billOfMaterials)
            lines += line.totalUsd();
        QVERIFY(std::abs(lines - e.capitalCostUsd) <= 1e-6 * lines);
    }

    void aSwitchThatCannotCarryTheNicIsRefused()
    {
        // RoCE NICs on a Quantum-2 InfiniBand switch cannot be cabled: the plan loaded, and its
        // estimate priced 1,024 RoCE links into InfiniBand ports. The estimate now says why.
        Plan plan = loadSamplePlan("h100-1024-ndr-rail-fat-tree.json");
        plan.scenarios.clear();
        plan.fabric.nicId = "roce-400g";
        plan.fabric.switchId = "qm9700";
        const PlanEstimate e = estimatePlan(plan, shippedCatalog());
        QVERIFY2(e.fabricError.find("an InfiniBand switch cannot carry RoCE links")
                     != std::string::npos,
                 e.fabricError.c_str());
        // An Ethernet switch of 400 GbE ports carries them.
        plan.fabric.switchId = "sn5600";
        QVERIFY2(estimatePlan(plan, shippedCatalog()).fabricError.empty(),
                 estimatePlan(plan, shippedCatalog()).fabricError.c_str());
    }

    void moreNicsThanTheServerHasAreFlagged()
    {
        // A DGX H100 has 8 GPUs and 8 fabric NIC ports: 64 NICs a server was taken silently.
        Plan plan = loadSamplePlan("h100-1024-ndr-rail-fat-tree.json");
        plan.scenarios.clear();
        const auto flagged = [](const PlanEstimate &e) {
            return std::any_of(e.warnings.begin(), e.warnings.end(), [](const std::string &w) {
                return w.find("fabric NICs a server is more than") != std::string::npos;
            });
        };
        plan.fabric.nicsPerNode = 64;
        const PlanEstimate many = estimatePlan(plan, shippedCatalog());
        QVERIFY(std::any_of(many.warnings.begin(), many.warnings.end(), [](const std::string &w) {
            return w.starts_with("64 fabric NICs a server is more than NVIDIA DGX H100 has (8) "
                                 "and more than its 8 GPUs");
        }));
        plan.fabric.nicsPerNode = 8; // the server's own
        QVERIFY(!flagged(estimatePlan(plan, shippedCatalog())));
        // A NIC a GPU on a PCIe server of 8 GPUs and 2 NICs is a rail design, not flagged.
        Plan pcie = loadSamplePlan("a100-pcie-64-100gbe.json");
        pcie.scenarios.clear();
        pcie.fabric.nicsPerNode = 8;
        QVERIFY(!flagged(estimatePlan(pcie, shippedCatalog())));
    }

    void oneTierOfARailFabricIsRefused()
    {
        // A rail-optimised fat-tree puts each GPU's NIC on its rail's leaf and joins the rails
        // with spines: it has two tiers at least. Tiers = 1 was read as "the fewest" while the
        // form and the file kept 1 (the estimate identical to the default's 48 switches); a
        // plain fat-tree of one tier is one switch and says when the NICs do not fit it.
        Plan plan = loadSamplePlan("h100-1024-ndr-rail-fat-tree.json");
        plan.scenarios.clear();
        plan.fabric.tiers = 1;
        const PlanEstimate e = estimatePlan(plan, shippedCatalog());
        QVERIFY2(e.fabricError.find("a rail-optimised fat-tree has a leaf per rail and spines to "
                                    "join them: 2 to 4 tiers")
                     != std::string::npos,
                 e.fabricError.c_str());
        plan.fabric.tiers = 0; // the fewest: the sample's own two
        QVERIFY2(estimatePlan(plan, shippedCatalog()).fabricError.empty(),
                 estimatePlan(plan, shippedCatalog()).fabricError.c_str());
    }

    void aTorusOfServersIsFlaggedAsAWhatIf()
    {
        // A torus cables NICs to NICs; a DGX's ConnectX-7 neither forwards traffic nor has six
        // ports, so the estimate says the design cannot be cabled as drawn.
        Plan plan = loadSamplePlan("h100-1024-ndr-rail-fat-tree.json");
        plan.scenarios.clear();
        plan.fabric.topology = "torus";
        const PlanEstimate e = estimatePlan(plan, shippedCatalog());
        const bool flagged = std::any_of(e.warnings.begin(), e.warnings.end(), [](const auto &w) {
            return w.find("host adapter that does neither") != std::string::npos;
        });
        QVERIFY(flagged);
        plan.fabric.topology = "fat-tree";
        const PlanEstimate fatTree = estimatePlan(plan, shippedCatalog());
        QVERIFY(std::none_of(fatTree.warnings.begin(), fatTree.warnings.end(), [](const auto &w) {
            return w.find("host adapter") != std::string::npos;
        }));
    }

    void aRailFabricTakesTheUnitWithFewestSwitches()
    {
        // 16,384 DGX H100 on RoCE rails of 128-port SN5600 switches, no unit size given. Units of
        // 64 servers: 256 units x 8 rails = 2,048 leaves of 64 down and 64 up; 131,072 uplinks
        // into pods of 64 leaves under 64 spines (32 pods, 2,048 spines), each spine's 64 up
        // ports into 64 core groups of 32 x 64 / 128 = 16 cores (1,024): 5,120 switches. Units
        // of 32 (the old fixed size) took 4,096 leaves, 2,048 spines and 1,024 cores: 7,168.
        Plan plan = cp::test::planOfServers("dgx-h100", 16384, "rail-fat-tree");
        plan.fabric.nicId = "roce-400g";
        plan.fabric.switchId = "sn5600";
        QCOMPARE(estimatePlan(plan, shippedCatalog()).fabric.switches(), 5120LL);
        plan.fabric.nodesPerScalableUnit = 32;
        QCOMPARE(estimatePlan(plan, shippedCatalog()).fabric.switches(), 7168LL);
    }

    void failuresThatOutpaceTheRunAreAWarning()
    {
        // The million-GPU campus fails every 3 min (the job's MTBF) against a 10 min restart:
        // the Estimate panel showed it only in the goodput row, under a headline of 97 days.
        // It heads the warnings now; the 1,024-GPU sample, 99% goodput, has no such warning.
        const auto paced = [](const PlanEstimate &e) {
            return std::any_of(e.warnings.begin(), e.warnings.end(), [](const std::string &w) {
                return w.rfind("failures outpace the run: a failure every 3 min against 10 min "
                               "to restart",
                               0)
                    == 0;
            });
        };
        const PlanEstimate campus
            = estimatePlan(loadSamplePlan("h100-1m-8-buildings.json"), shippedCatalog());
        QVERIFY(paced(campus));
        QVERIFY2(campus.warnings.front().rfind("failures outpace the run", 0) == 0,
                 campus.warnings.front().c_str()); // first, above the data hall's

        // Its bill of materials lists one building's lines (the CSV ended on that building's
        // total with no word of it): the CSV says so, then 8 buildings of that total and the
        // interconnect, whose sum is the campus's capital; the JSON says its scope.
        const std::vector<std::vector<std::string>> bom = billOfMaterialsCells(campus, "campus");
        const auto rowOf = [&](const std::string &category, const std::string &item) {
            return *std::find_if(bom.begin(), bom.end(), [&](const std::vector<std::string> &r) {
                return r[1] == category && r[2] == item;
            });
        };
        const double building = std::stod(rowOf("Total (each building)", "")[6]);
        double lines = 0;
        for (std::size_t i = 1; bom[i][1] != "Total (each building)"; ++i)
            lines += std::stod(bom[i][6]);
        QVERIFY(std::abs(lines - building) <= 1e-6 * building);
        QCOMPARE(rowOf("Campus", "buildings")[4], std::string("8"));
        const double interconnect = std::stod(rowOf("Campus", "interconnect")[6]);
        QVERIFY(interconnect > 0);
        // The training run's hot spares are the campus's, a row of their own: as many as the
        // run counts, each a DGX H100 with its 8 GPUs, $120,000 + 8 x $30,000 = $360,000.
        const std::vector<std::string> spares = rowOf("Campus", "spares");
        QCOMPARE(std::stoll(spares[4]), campus.trainingRun.reliability.spareNodes * 1LL);
        QCOMPARE(spares[5], std::string("360000"));
        const double total = std::stod(bom.back()[6]);
        QCOMPARE(bom.back()[1], std::string("Campus total"));
        QVERIFY(std::abs(total - (8 * building + interconnect + std::stod(spares[6])))
                <= 1e-6 * total);
        QVERIFY(planEstimateToJson(campus)["scope"] == "each building");

        QVERIFY(!paced(
            estimatePlan(loadSamplePlan("h100-1024-ndr-rail-fat-tree.json"), shippedCatalog())));
    }

    void storageOnTheComputeFabricIsCabledOrLeftOut()
    {
        // The rail sample's "H200 servers": 128 HGX H200, which have no storage network, so the
        // 4 DDN AI400X2 (8 ports each) share the compute fabric. Its 32 rail leaves took 32 nodes
        // each and had no port for the storage: the hall left the 32 ports uncabled while the run
        // wrote checkpoints to all 4 systems. The rail fabric now has a storage leaf (33 leaves,
        // 32 spines: tst_fabric) and every system is reached: 4 x 65 GB/s of writes.
        Plan plan = loadSamplePlan("h100-1024-ndr-rail-fat-tree.json");
        plan.scenarios.clear();
        plan.nodeGroups[0].nodeId = "hgx-h200-8gpu";
        const auto uncabled = [](const PlanEstimate &e) {
            return std::find_if(e.warnings.begin(), e.warnings.end(), [](const std::string &w) {
                return w.find("storage ports find no free port") != std::string::npos;
            });
        };
        const PlanEstimate shared = estimatePlan(plan, shippedCatalog());
        QVERIFY(uncabled(shared) == shared.warnings.end());
        QCOMPARE(shared.fabric.leafSwitches, 33LL);
        QCOMPARE(shared.fabric.spineSwitches, 32LL);
        QCOMPARE(shared.fabric.storagePorts, 32LL);
        QVERIFY(planEstimateToJson(shared)["fabric"]["storage_ports"] == 32);
        QVERIFY(fabricCountsSummary(shared.fabric).rfind("1,024 ports and 32 for storage, ", 0)
                == 0);
        // Llama 3 70B's checkpoint: 14 bytes a parameter (BF16 weights, FP32 master copy and two
        // Adam moments), 14 x 70.55e9 = 988 GB, written at 260 GB/s in 3.80 s.
        const double writeSeconds = shared.trainingRun.reliability.checkpointWriteSeconds;
        QVERIFY2(cp::test::closeRelative(writeSeconds, 988e9 / 260e9, 1e-3),
                 std::to_string(writeSeconds).c_str());

        // Multi-plane rails share no leaf: no port is kept, none is cabled, and the run has no
        // storage to write checkpoints to (every failure restarts it from the start).
        plan.fabric.multiPlane = true;
        const PlanEstimate planes = estimatePlan(plan, shippedCatalog());
        QVERIFY(uncabled(planes) != planes.warnings.end());
        // The hall's warning says what to do: what keeps leaf ports for storage.
        QVERIFY2(uncabled(planes)->find("32 storage ports find no free port on the fabric's "
                                        "leaves: they are not cabled (a fat-tree or a "
                                        "rail-optimised fabric with shared spines keeps leaf "
                                        "ports for them; or give the servers a storage network)")
                     != std::string::npos,
                 uncabled(planes)->c_str());
        QVERIFY(!planes.trainingRun.reliability.checkpointsWritable);
        QVERIFY(std::find(planes.warnings.begin(), planes.warnings.end(),
                          "no storage system has a free leaf port on the fabric to be cabled to: "
                          "the run can neither write checkpoints nor read its data")
                != planes.warnings.end());

        // 126 nodes: the last unit's 30 nodes leave each of its 8 rail leaves 32 - 30 = 2 free
        // ports, 16 in all: the first two systems' 8 ports each, nothing for the other two. The
        // run writes to 2 systems, 2 x 65 GB/s. (A global batch of 1,008 = 126 x 8 sequences
        // keeps a layout of TP 8 x DP 126.)
        plan.nodeGroups[0].count = 126;
        plan.training.globalBatch = 1008;
        const PlanEstimate partly = estimatePlan(plan, shippedCatalog());
        QVERIFY(partly.hasTrainingRun);
        QVERIFY(cp::test::closeRelative(partly.trainingRun.reliability.checkpointWriteSeconds,
                                        2 * writeSeconds, 1e-9));
        QVERIFY(
            std::any_of(partly.warnings.begin(), partly.warnings.end(), [](const std::string &w) {
                return w.rfind(
                           "2 of the 4 storage systems find no free leaf port on the fabric: the "
                           "run writes checkpoints to and reads data from the other 2",
                           0)
                    == 0;
            }));
    }

    void aDragonflyIsNotCalledNonBlocking()
    {
        // The training explanation names the fabric ("exposed data-parallel gradient sync on the
        // non-blocking ... fabric takes 66% of each step"): a Dragonfly at oversubscription 1 was
        // called non-blocking, while its same-rail rings share one local link between routers.
        Plan plan = loadSamplePlan("h100-1024-ndr-rail-fat-tree.json");
        QVERIFY(
            planTrainingSetup(plan, shippedCatalog())->cluster.fabricName.rfind("non-blocking", 0)
            == 0);
        plan.fabric.topology = "dragonfly";
        QCOMPARE(planTrainingSetup(plan, shippedCatalog())->cluster.fabricName,
                 std::string("InfiniBand NDR 400 (ConnectX-7) Dragonfly"));
        plan.fabric.topology = "torus";
        QCOMPARE(planTrainingSetup(plan, shippedCatalog())->cluster.fabricName,
                 std::string("InfiniBand NDR 400 (ConnectX-7) torus"));
    }

    void aFatTreeTooLargeIsRefusedByItsOwnLimit()
    {
        // 600,000 DGX H100 with 8 NICs each: 4,800,000 endpoints, beyond the 524,288 a fat tree
        // is generated for. The refusal names the fat tree's limit; it used to name a torus's
        // ("at most 524288 chips in a torus"), sized for every topology.
        Plan plan;
        NodeGroup group;
        group.name = "servers";
        group.nodeId = "dgx-h100";
        group.count = 600000;
        plan.nodeGroups.push_back(group);
        plan.fabric.topology = "fat-tree";
        const PlanEstimate estimate = estimatePlan(plan, shippedCatalog());
        QVERIFY2(estimate.fabricError.find("fat tree") != std::string::npos,
                 estimate.fabricError.c_str());
        QVERIFY2(estimate.fabricError.find("torus") == std::string::npos,
                 estimate.fabricError.c_str());
        QVERIFY(estimate.fabricError.find("4800000") != std::string::npos);
    }

    void eachCardSaysTheLinksItBringsToTheFabric()
    {
        // The shared-cluster sample: 224 + 32 DGX H100 on an NDR fabric of 8 NICs a node (its
        // nics_per_node), so 224 x 8 = 1,792 and 32 x 8 = 256 links; its 4 DDN AI400X2 systems
        // bring the catalog's 8 HDR 200 front-end ports each (network_ports): 32.
        Plan plan = loadSamplePlan("h100-2048-shared-cluster.json");
        const auto compute = nodeGroupAttachment(plan, shippedCatalog(), 0);
        const auto dev = nodeGroupAttachment(plan, shippedCatalog(), 1);
        const auto storage = storageAttachment(plan, shippedCatalog(), 0);
        QVERIFY(compute && dev && storage);
        QCOMPARE(compute->links, 1792LL);
        QCOMPARE(dev->links, 256LL);
        QCOMPARE(compute->nicId, std::string("ib-ndr-400"));
        QCOMPARE(storage->links, 32LL);
        QCOMPARE(storage->nicId, std::string("ib-hdr-200"));
        // Unplugged cards and indices past the plan's lists bring none.
        plan.nodeGroups[1].onFabric = false;
        plan.storage[0].onFabric = false;
        QVERIFY(!nodeGroupAttachment(plan, shippedCatalog(), 1));
        QVERIFY(!storageAttachment(plan, shippedCatalog(), 0));
        QVERIFY(!nodeGroupAttachment(plan, shippedCatalog(), 2));
        QVERIFY(!storageAttachment(plan, shippedCatalog(), 1));
        QCOMPARE(nodeGroupAttachment(plan, shippedCatalog(), 0)->links, 1792LL);
        // All groups at once, as the canvas labels its cables: one entry a group, in order.
        const auto all = nodeGroupAttachments(plan, shippedCatalog());
        QCOMPARE(all.size(), std::size_t(2));
        QVERIFY(all[0] && !all[1]);
        QCOMPARE(all[0]->links, 1792LL);
        QCOMPARE(all[0]->nicId, std::string("ib-ndr-400"));
    }

    void planFabricIsCountedOnItsGraph()
    {
        // The H100 sample's 2-tier rail fabric: the graph's counts equal the SuperPOD closed form.
        const PlanEstimate h100
            = estimatePlan(loadSamplePlan("h100-1024-ndr-rail-fat-tree.json"), shippedCatalog());
        const FabricCounts closed = twoTierFabricCounts(1024, 64, 1.0);
        QCOMPARE(h100.fabric.leafSwitches, closed.leafSwitches);
        QCOMPARE(h100.fabric.spineSwitches, closed.spineSwitches);
        QCOMPARE(h100.fabric.coreSwitches, 0LL);
        QCOMPARE(h100.fabric.cables, closed.cables);
        // The generator makes every NDR link optical; the data hall measures them and finds 28
        // short enough for active copper (tst_datahall: theEstimateCountsCablesByMedium), so the
        // estimate orders transceivers for the other 2,020 only.
        QCOMPARE(h100.fabric.optics, 2 * (closed.cables - 28));
        QCOMPARE(fabricCountsSummary(h100.fabric),
                 std::string("1,024 ports, 32 leaf + 16 spine switches, 2,048 cables (4,040 "
                             "transceivers)"));
        QCOMPARE(groupedCount(0), std::string("0"));
        QCOMPARE(groupedCount(999), std::string("999"));
        QCOMPARE(groupedCount(-1234567), std::string("-1,234,567"));
        // Waits: 45 s; 89.6 s rounds to "90 s"; 0.07 h = 252 s = 4.2 min -> "4 min"; 5.3 h;
        // 36 h; 100 h = 4.17 days -> "4.2 days"; 2,000 days grouped; never "nan" or "inf".
        QCOMPARE(humanWait(0), std::string("0 s"));
        QCOMPARE(humanWait(45), std::string("45 s"));
        QCOMPARE(humanWait(89.6), std::string("90 s"));
        QCOMPARE(humanWait(252), std::string("4 min"));
        QCOMPARE(humanWait(5.3 * 3600), std::string("5.3 h"));
        QCOMPARE(humanWait(36 * 3600), std::string("36 h"));
        QCOMPARE(humanWait(100 * 3600), std::string("4.2 days"));
        QCOMPARE(humanWait(2000 * 86400.0), std::string("2,000 days"));
        QCOMPARE(humanWait(std::nan("")), std::string("-"));
        QCOMPARE(humanWait(-1), std::string("-"));
        // Durations to three digits: 45.2 s; 125.4 s = 2.09 min; 10.19 h; 84 h = 3.50 days;
        // 1,234.4 days grouped; 89.96 s stays in seconds ("90.0 s"), never "inf" or "nan".
        QCOMPARE(countOf(1, "sequence", "sequences"), std::string("1 sequence"));
        QCOMPARE(countOf(1024, "sequence", "sequences"), std::string("1,024 sequences"));
        QCOMPARE(countOf(0, "GPU", "GPUs"), std::string("0 GPUs"));
        QCOMPARE(humanDuration(45.2), std::string("45.2 s"));
        QCOMPARE(humanDuration(125.4), std::string("2.09 min"));
        QCOMPARE(humanDuration(10.19 * 3600), std::string("10.2 h"));
        QCOMPARE(humanDuration(84 * 3600.0), std::string("3.50 days"));
        QCOMPARE(humanDuration(1234.4 * 86400), std::string("1,234 days"));
        QCOMPARE(humanDuration(89.96), std::string("90.0 s"));
        QCOMPARE(humanDuration(0.0452), std::string("45.2 ms"));
        QCOMPARE(humanDuration(4.87e-5), std::string("48.7 us"));
        QCOMPARE(humanDuration(0.99949), std::string("999 ms"));
        QCOMPARE(humanDuration(0.0), std::string("0.000 s"));
        QCOMPARE(humanDuration(std::nan("")), std::string("-"));
        // Up to a million years in days, grouped (999,999 years = 365,249,634.75 days); past it no
        // count of days means anything: 1e300 s overran the text and lost its unit.
        QCOMPARE(humanDuration(999999 * 365.25 * 86400), std::string("365,249,635 days"));
        QCOMPARE(humanDuration(1e300), std::string("over a million years"));
        // Three significant digits, grouped, never an exponent: 21,437.4 rounds to 21,437;
        // 99.96 rounds up to 100; 24.24 to 24.2; 1.214 to 1.21; 0.0035199 to 0.00352; a value
        // past 32 bits is grouped whole; nothing prints "nan" or "inf".
        QCOMPARE(threeDigits(21437.4), std::string("21,437"));
        QCOMPARE(threeDigits(99.96), std::string("100"));
        QCOMPARE(threeDigits(24.24), std::string("24.2"));
        QCOMPARE(threeDigits(1.214), std::string("1.21"));
        QCOMPARE(threeDigits(0.0035199), std::string("0.00352"));
        QCOMPARE(threeDigits(22488003278.0), std::string("22,488,003,278"));
        QCOMPARE(threeDigits(0.0), std::string("0.0"));
        QCOMPARE(threeDigits(std::numeric_limits<double>::infinity()), std::string("-"));
        // Past 2^63 a 64-bit integer would wrap; the value prints whole instead: 1e20 is exact
        // in a double, 100,000,000,000,000,000,000; -1e20 keeps its sign.
        QCOMPARE(threeDigits(1e20), std::string("100,000,000,000,000,000,000"));
        QCOMPARE(threeDigits(-1e20), std::string("-100,000,000,000,000,000,000"));
        // Percentages: 0.1234 is 12.3%; to whole percent 0.596 rounds to 60%; a sign on request
        // (+40.0%, -23.1%, and +0.0% for zero); never "nan%".
        QCOMPARE(percentText(0.1234), std::string("12.3%"));
        QCOMPARE(percentText(0.596, 0), std::string("60%"));
        QCOMPARE(percentText(0.4, 1, true), std::string("+40.0%"));
        // A share of time keeps two decimals below 1%: a 0.37% stall is not "0%".
        QCOMPARE(shareText(0.0037), std::string("0.37%"));
        QCOMPARE(shareText(0.14), std::string("14.0%"));
        QCOMPARE(percentText(-0.231, 1, true), std::string("-23.1%"));
        QCOMPARE(percentText(0.0, 1, true), std::string("+0.0%"));
        QCOMPARE(percentText(std::nan("")), std::string("-"));
        // Energy: 3,060 J = 0.85 Wh; 13.2 kWh = 47.52 MJ; 4.1 MWh; 999.6 kWh rounds up to
        // "1.00 MWh", not "1000 kWh"; 2.5 TWh is the largest unit, so 2,500 TWh is grouped.
        QCOMPARE(humanEnergy(3060), std::string("0.85 Wh"));
        QCOMPARE(humanEnergy(13.2 * 3.6e6), std::string("13.2 kWh"));
        QCOMPARE(humanEnergy(4.1 * 3.6e9), std::string("4.10 MWh"));
        QCOMPARE(humanEnergy(999.6 * 3.6e6), std::string("1.00 MWh"));
        QCOMPARE(humanEnergy(2500 * 3.6e15), std::string("2,500 TWh"));
        QCOMPARE(humanEnergy(std::nan("")), std::string("-"));
        QCOMPARE(humanEnergy(-1), std::string("-"));
        // Carbon: a 633 Wh job at 0.37 kg per kWh emits 234 g, which read "0.0 t CO2e"; 999.6 kg
        // rounds to a tonne; tonnes are grouped, not kilotonnes.
        QCOMPARE(humanCarbon(0.633 * 0.37), std::string("234 g CO2e"));
        QCOMPARE(humanCarbon(4.1), std::string("4.10 kg CO2e"));
        QCOMPARE(humanCarbon(999.6), std::string("1.00 t CO2e"));
        QCOMPARE(humanCarbon(1.23e6), std::string("1,230 t CO2e"));
        QCOMPARE(humanCarbon(0), std::string("0 g CO2e"));
        QCOMPARE(humanCarbon(std::nan("")), std::string("-"));
        // Power, money, compute and bytes on the same ladder of thousands: 42,100 W is "42.1
        // kW"; 181,861,900 W is "182 MW"; 999,600 W rounds up to "1.00 MW", not "1000 kW";
        // $1,546,173 is "$1.55 M", $7,498,341,796 "$7.50 B", $850 stays dollars; 31.7e15 FLOP/s
        // is "31.7 PFLOP/s" and 1.297e20 "130 EFLOP/s"; 4.82e12 B "4.82 TB", 1.121e16 B
        // "11.2 PB"; nothing prints "nan" or a negative amount.
        QCOMPARE(humanPower(42100), std::string("42.1 kW"));
        QCOMPARE(humanPower(181861900), std::string("182 MW"));
        QCOMPARE(humanPower(999600), std::string("1.00 MW"));
        QCOMPARE(humanPower(std::nan("")), std::string("-"));
        QCOMPARE(humanPower(0), std::string("0 W")); // no storage draws nothing, not "0.00 W"
        QCOMPARE(humanBytes(0), std::string("0 B"));
        // 717,000 + 480,000 + 150,000 + 50,000 W = 1,397,000 W, "1.40 MW"; 50,000 W is
        // "50.0 kW"; the GPUs' note follows their own figure.
        QCOMPARE(itPowerText({.gpusWatts = 717000,
                              .nodesWatts = 480000,
                              .networkWatts = 150000,
                              .storageWatts = 50000},
                             " at 95% busy"),
                 std::string("1.40 MW (GPUs 717 kW at 95% busy, nodes 480 kW, network 150 kW, "
                             "storage 50.0 kW)"));
        QCOMPARE(humanUsd(1546173), std::string("$1.55 M"));
        QCOMPARE(humanUsd(7498341796.0), std::string("$7.50 B"));
        QCOMPARE(humanUsd(850), std::string("$850"));
        QCOMPARE(humanUsd(-5), std::string("-"));
        QCOMPARE(humanFlopsRate(31.7e15), std::string("31.7 PFLOP/s"));
        QCOMPARE(humanFlopsRate(1.297e20), std::string("130 EFLOP/s"));
        QCOMPARE(humanBytes(4.82e12), std::string("4.82 TB"));
        QCOMPARE(humanBytes(1.121e16), std::string("11.2 PB"));
        // Past the largest unit the digits are grouped, never cut: 1e300 W is 1e291 GW, a
        // 292-digit integer in fixed notation, with 97 commas between its groups of three.
        const std::string absurd = humanPower(1e300);
        QCOMPARE(absurd.size(), std::size_t(292 + 97 + 3));
        QCOMPARE(absurd.substr(absurd.size() - 3), std::string(" GW"));

        // 16,384 GPUs need a third tier: 2,048 DGX H100 x 8 rails of 64-port switches, as in
        // the SuperPOD reference (8 SUs per spine group, core above). The bill of materials
        // counts every switch the graph has.
        Plan large = loadSamplePlan("h100-1024-ndr-rail-fat-tree.json");
        large.scenarios.clear();
        large.nodeGroups[0].count = 2048;
        large.fabric.tiers = 3;
        const PlanEstimate e = estimatePlan(large, shippedCatalog());
        QVERIFY(e.fabric.coreSwitches > 0);
        QCOMPARE(e.fabric.endpoints, 16384LL);
        long long billed = 0;
        for (const BillOfMaterialsLine &line : e.billOfMaterials)
            if (line.category == "Switches")
                billed = line.count;
        QCOMPARE(billed, e.fabric.switches());
        // DGX SuperPOD B200 RA (same NDR QM9700 fabric), 64 SUs, 16,384 GPUs: 512 leaf, 512
        // spine, 256 core switches, 16,384 cables at each of the three levels
        // (DGX SuperPOD B200 reference architecture, compute fabric table,
        // https://docs.nvidia.com/dgx-superpod/reference-architecture-scalable-infrastructure-b200/latest/dgx-superpod-architecture.html).
        QCOMPARE(e.fabric.leafSwitches, 512LL);
        QCOMPARE(e.fabric.spineSwitches, 512LL);
        QCOMPARE(e.fabric.coreSwitches, 256LL);
        QCOMPARE(e.fabric.cables, 3 * 16384LL);

        // A small cluster on one switch: the a100 sample's 16 NICs on a 32-port switch.
        const PlanEstimate small
            = estimatePlan(loadSamplePlan("a100-pcie-64-100gbe.json"), shippedCatalog());
        QCOMPARE(small.fabric.switches(), 1LL);
        QCOMPARE(small.fabric.cables, 16LL);
        // Its 16 fabric cables are multimode fibre, two transceivers each: 32. The NFS server's
        // two links to free leaf ports are the storage network's: their 4 transceivers are in
        // the bill of materials (36 in all), not in the fabric's count.
        QCOMPARE(small.fabric.optics, 32LL);
        long long transceivers = 0;
        for (const BillOfMaterialsLine &line : small.billOfMaterials)
            if (line.category == "Optics")
                transceivers += line.count;
        QCOMPARE(transceivers, 36LL);
    }

    void oversubscribedPlanAgreesWithTrain()
    {
        // The H100 sample on a 3:1 rail fabric: a 64-port leaf keeps floor(64 / 4) = 16 ports up
        // and 48 down, so a scalable unit is 32 servers behind 8 leaves (one per rail). A rank
        // ring over all 128 servers (4 units) leaves each unit once and enters it once: 2 flows
        // on a leaf's 16 uplinks, so every flow keeps its whole NIC, where the closed form would
        // divide every ring that leaves a leaf by 3. The plan's estimate measures its graph as
        // `train` does, so both give the same step for the same cluster. The layout is fixed at
        // TP 8 x PP 2 so that a data-parallel ring (64 ranks, one a node) spans more than a
        // unit; Megatron's rank order puts the pipeline stages outermost, so at PP 4 and TP 4 a
        // ring's 64 ranks sit two a node on 32 nodes, behind one leaf, and no form divides them.
        Plan plan = loadSamplePlan("h100-1024-ndr-rail-fat-tree.json");
        plan.fabric.oversubscription = 3.0;
        plan.scenarios.clear();
        plan.training.constraints.tp = 8;
        plan.training.constraints.pp = 2;
        const PlanEstimate e = estimatePlan(plan, shippedCatalog());
        QVERIFY(e.training.found);
        const PlanTrainingSetup setup = *planTrainingSetup(plan, shippedCatalog());
        ClusterDescription measured = setup.cluster;
        const std::string note = measureScaleOutOnFabric(measured);
        QVERIFY2(note.find("128 nodes get 100% of the NIC rate") != std::string::npos,
                 note.c_str());
        const TrainingSearchResult train = TrainingEstimator(setup.job, measured).search();
        QVERIFY(train.found);
        QCOMPARE(e.training.best.stepSeconds, train.best.stepSeconds);
        // The closed form is slower: every ring over more than one unit at a third of the NIC.
        const TrainingSearchResult closedForm
            = TrainingEstimator(setup.job, setup.cluster).search();
        QVERIFY(closedForm.best.stepSeconds > 1.01 * train.best.stepSeconds);
    }

    void tiersBeyondTheFewestAreCalledOut()
    {
        // The H100 sample's 1,024 NICs fit two tiers of 64-port switches: 32 rail leaves (32
        // down, 32 up) and 16 spines, 48 switches. Three tiers put the 32 leaves in one pod under
        // 32 spines, and a spine index's 32 links fill half a core, so a core serves two
        // indices: 16 cores, 80 switches that join nothing more. The estimate says so; at two
        // tiers, or at "fewest", it says nothing.
        Plan plan = loadSamplePlan("h100-1024-ndr-rail-fat-tree.json");
        plan.scenarios.clear();
        const auto tierWarning = [](const PlanEstimate &e) {
            for (const std::string &w : e.warnings)
                if (w.find("tiers:") != std::string::npos)
                    return w;
            return std::string();
        };
        plan.fabric.tiers = 3;
        const PlanEstimate three = estimatePlan(plan, shippedCatalog());
        QCOMPARE(three.fabric.switches(), 80LL);
        QVERIFY2(tierWarning(three).find("3 tiers: 80 switches where the fewest tiers that hold "
                                         "the 1,024 NICs need 48")
                     == 0,
                 tierWarning(three).c_str());
        plan.fabric.tiers = 2;
        QCOMPARE(tierWarning(estimatePlan(plan, shippedCatalog())), std::string());
        plan.fabric.tiers = 0;
        QCOMPARE(tierWarning(estimatePlan(plan, shippedCatalog())), std::string());
    }

    void campusTotalsAndTrainingAcrossBuildings()
    {
        // The H100 sample as one of 4 buildings, 100 Tb/s out of each, 3 km apart, at 20 USD and
        // 0.05 W per Gb/s: the interconnect is 4 x 100,000 Gb/s = 400,000 Gb/s, 8,000,000 USD
        // and 20 kW. The campus is 4 x 1,024 GPUs, 4 x the building's IT power and capital plus
        // the interconnect's; the fibre is 3 x 4.9 = 14.7 us.
        Plan plan = loadSamplePlan("h100-1024-ndr-rail-fat-tree.json");
        plan.scenarios.clear();
        const PlanEstimate one = estimatePlan(plan, shippedCatalog());
        plan.campus.buildings = 4;
        plan.campus.interconnectBytesPerSecondPerBuilding = 100e12 / 8;
        plan.campus.distanceKm = 3;
        plan.campus.usdPerGbps = 20;
        plan.campus.wattsPerGbps = 0.05;
        const PlanEstimate e = estimatePlan(plan, shippedCatalog());
        QVERIFY(e.campus);
        QCOMPARE(e.campus->gpus, 4096LL);
        QVERIFY(qAbs(e.campus->interconnectUsd - 8e6) < 1e-3);
        QVERIFY(qAbs(e.campus->interconnectWatts - 20e3) < 1e-6);
        // A building's bill holds no spares (the campus buys them for the whole job, the one
        // building plan in its own bill): 4 buildings' bills, the interconnect and the spares.
        const double oneWithoutSpares = one.capitalCostUsd - one.trainingRun.sparesCapitalUsd;
        QVERIFY(qAbs(e.campus->capitalUsd - (4 * oneWithoutSpares + 8e6 + e.campus->sparesUsd))
                < 1e-3);
        QCOMPARE(e.campus->sparesUsd, e.campus->spareNodes * 360000.0);
        QVERIFY(qAbs(e.campus->itWatts - (4 * one.power.itWatts() + 20e3)) < 1e-6);
        QVERIFY(qAbs(e.campus->interconnectLatencySeconds - 14.7e-6) < 1e-12);
        // One building's figures stay the building's.
        QCOMPARE(e.gpus, one.gpus);
        QCOMPARE(e.capitalCostUsd, oneWithoutSpares);
        // The job trains on all 4,096 GPUs, on the same cluster `train --buildings` describes.
        QVERIFY(e.training.found);
        QCOMPARE(static_cast<long long>(e.training.best.config.tp) * e.training.best.config.pp
                     * e.training.best.config.dp * e.training.best.config.cp,
                 4096LL);
        const PlanTrainingSetup setup = *planTrainingSetup(plan, shippedCatalog());
        QCOMPARE(setup.cluster.gpus, 4096);
        QCOMPARE(setup.cluster.buildings, 4);
        ClusterDescription measured = setup.cluster;
        measureScaleOutOnFabric(measured);
        QCOMPARE(e.training.best.stepSeconds,
                 TrainingEstimator(setup.job, measured).search().best.stepSeconds);
        // The run buys every building's fabric: 4 x (32 leaves + 16 spines).
        QCOMPARE(e.trainingRun.switches, 4LL * 48);
    }

    void multiPlanePlanCountsEveryPlane()
    {
        // The H100 sample (128 DGX, 4 units of 32) with one plane per rail: each of the 8 planes
        // has 4 leaves and smallestDivisorAtLeast(32 up ports, 4 x 32 / 64 = 2) = 2 spines,
        // 48 switches in all, as the shared fabric's 32 leaves + 16 spines; the rings, all
        // within a plane, train at the same step. On a fat-tree the flag does not apply, and the
        // estimate says so.
        Plan plan = loadSamplePlan("h100-1024-ndr-rail-fat-tree.json");
        plan.scenarios.clear();
        const PlanEstimate shared = estimatePlan(plan, shippedCatalog());
        plan.fabric.multiPlane = true;
        const PlanEstimate planes = estimatePlan(plan, shippedCatalog());
        QCOMPARE(planes.fabric.leafSwitches, 32LL);
        QCOMPARE(planes.fabric.spineSwitches, 16LL);
        QCOMPARE(planes.training.best.stepSeconds, shared.training.best.stepSeconds);
        plan.fabric.topology = "fat-tree";
        const PlanEstimate fatTree = estimatePlan(plan, shippedCatalog());
        QVERIFY(std::any_of(fatTree.warnings.begin(), fatTree.warnings.end(), [](const auto &w) {
            return w.find("one plane per rail is a rail-fat-tree's") != std::string::npos;
        }));
    }

    void groupsOffTheFabricAreLeftOut()
    {
        // Two groups of 64 DGX H100; the second is not cabled to the fabric.
        Plan plan = loadSamplePlan("h100-1024-ndr-rail-fat-tree.json");
        plan.scenarios.clear();
        plan.nodeGroups[0].count = 64;
        NodeGroup spare = plan.nodeGroups[0];
        spare.name = "spare";
        spare.onFabric = false;
        plan.nodeGroups.push_back(spare);
        const PlanEstimate e = estimatePlan(plan, shippedCatalog());
        QCOMPARE(e.gpus, 1024); // both groups draw power and cost money
        QCOMPARE(e.fabric.endpoints, 512LL); // only the connected group's 64 x 8 NICs
        QVERIFY(e.training.found);
        QCOMPARE(e.training.best.config.tp * e.training.best.config.pp * e.training.best.config.dp
                     * e.training.best.config.cp,
                 512); // the job spans the 512 connected GPUs
        bool warned = false;
        for (const std::string &w : e.warnings)
            warned
                = warned || w.find("'spare' is not connected to the fabric") != std::string::npos;
        QVERIFY(warned);

        // Nothing connected: no fabric ports and a training error that says what to do.
        plan.nodeGroups[0].onFabric = false;
        const PlanEstimate none = estimatePlan(plan, shippedCatalog());
        QCOMPARE(none.fabric.endpoints, 0LL);
        QVERIFY(!none.training.found);
        QVERIFY2(none.trainingError.find("no server group is connected") != std::string::npos,
                 none.trainingError.c_str());

        // Storage off the fabric cannot take checkpoints: the run sees no storage.
        Plan storageOff = loadSamplePlan("h100-1024-ndr-rail-fat-tree.json");
        storageOff.storage[0].onFabric = false;
        const PlanEstimate s = estimatePlan(storageOff, shippedCatalog());
        QVERIFY(s.hasTrainingRun);
        bool noted = false;
        for (const std::string &n : s.trainingRun.notes)
            noted = noted || n.find("no storage") != std::string::npos;
        QVERIFY(noted);
        // 19.2 days of work against a 43.7 h job MTBF and no checkpoints (tst_mainwindow derives
        // its 0.0279% goodput): the first warning says the storage's absence decides the run.
        QVERIFY(!s.warnings.empty());
        QVERIFY2(s.warnings.front().rfind("failures outpace the run: with no storage to write "
                                          "checkpoints to, every failure sends the run back",
                                          0)
                     == 0,
                 s.warnings.front().c_str());
    }

    void resolvesThePlanOnce()
    {
        // The H100 sample names dgx-h100 in rack-air-40kw, 8 ib-ndr-400 NICs on qm9700
        // switches, 4 lustre-exascaler systems and dc-industry-average: one value holds them all.
        Plan plan = loadSamplePlan("h100-1024-ndr-rail-fat-tree.json");
        const ResolvedPlan resolved = resolvePlan(plan, shippedCatalog());
        QCOMPARE(resolved.groups.size(), std::size_t(1));
        QCOMPARE(resolved.groups[0].node.id, std::string("dgx-h100"));
        QCOMPARE(resolved.groups[0].gpu.id, std::string("h100-sxm5-80gb"));
        QCOMPARE(resolved.groups[0].rack->id, std::string("rack-air-40kw"));
        QCOMPARE(resolved.groups[0].fabricNic.id, std::string("ib-ndr-400"));
        QCOMPARE(resolved.groups[0].nicsPerNode, 8);
        QCOMPARE(resolved.fabricSwitch->id, std::string("qm9700"));
        QCOMPARE(resolved.storage.size(), std::size_t(1));
        QCOMPARE(resolved.storage[0].id, std::string("lustre-exascaler"));
        QCOMPARE(resolved.facility->id, std::string("dc-industry-average"));
        QCOMPARE(resolved.managementSwitch->id, std::string("sn2201"));
        QVERIFY(!resolved.trainingDataset);
        // An id the catalog lacks is named when the plan is resolved, not deep in a step.
        plan.storage[0].storageId = "no-such-storage";
        try {
            (void)resolvePlan(plan, shippedCatalog());
            QFAIL("resolved a plan naming unknown storage");
        } catch (const UnknownCatalogIdError &error) {
            QVERIFY2(std::string(error.what()).find("no-such-storage") != std::string::npos,
                     error.what());
        }
    }

    void throughputEstimateSkipsOnlyTheDataHall()
    {
        // The scaling curve's estimate: the same layout and throughput, no data hall (the H100
        // sample's hall has 7 network cabinets and 10 management switches; tst_datahall).
        const Plan plan = loadSamplePlan("h100-1024-ndr-rail-fat-tree.json");
        const PlanEstimate full = estimatePlan(plan, shippedCatalog());
        const PlanEstimate fast = estimatePlanThroughput(plan, shippedCatalog());
        QCOMPARE(full.managementSwitches, 10LL);
        QCOMPARE(fast.managementSwitches, 0LL);
        QCOMPARE(fast.networkCabinets, 0LL);
        QVERIFY(full.training.found && fast.training.found);
        QCOMPARE(fast.training.best.tokensPerSecond, full.training.best.tokensPerSecond);
        QCOMPARE(fast.training.best.config.tp, full.training.best.config.tp);
        QCOMPARE(fast.gpus, full.gpus);
    }

    void h100PlanTotals()
    {
        const PlanEstimate e
            = estimatePlan(loadSamplePlan("h100-1024-ndr-rail-fat-tree.json"), shippedCatalog());
        QCOMPARE(e.gpus, 1024);
        QCOMPARE(e.nodes, 128);
        QCOMPARE(e.peakDenseFlopsPerSecond, 1024 * 989.4e12);
        // Power: 1024 x 700 W GPUs + 128 x 4.6 kW rest of node (DGX H100 10.2 kW max) + 48 switches
        // x 750 W + the optics of the 2,020 multimode runs (2 x 9 W each) + both 0.75 W ends of
        // the 28 active copper cables (NVIDIA LinkX: 1.5 W per twin-port 800G end; lengths in
        // tst_datahall) + the storage network's 23 QM8790 x 250 W, the 1,000 transceivers of its
        // 500 multimode runs x 5 W and both 0.6 W ends of its 16 active copper cables
        // (tst_datahall) + 10 management switches x 98 W (one or two per row of the data hall,
        // for its servers, switches and PDUs: tst_datahall) + 4 x 3 kW storage.
        const double networkWatts = 48 * 750.0 + 2020 * 2 * 9.0 + 28 * 2 * 0.75 + 23 * 250.0
            + 1000 * 5.0 + 16 * 2 * 0.6 + 10 * 98.0;
        QCOMPARE(e.power.gpusWatts, 1024 * 700.0);
        QCOMPARE(e.power.nodesWatts, 128 * 4600.0);
        // At full load the servers are at their rating (circuits and cabinets are sized for it);
        // through the run the hosts draw what the DGX H100's measured peak leaves them, 8,480 W
        // less 8 x 700 W = 2,880 W a server (hostTrainingWatts).
        QVERIFY(e.hasTrainingRun);
        QCOMPARE(e.trainingRun.operations.nodesWatts, 128 * 2880.0);
        QCOMPARE(e.power.networkWatts, networkWatts);
        // The training run's switches and optics draw the same the whole run, the management
        // switches included.
        QVERIFY(e.hasTrainingRun);
        QCOMPARE(e.trainingRun.operations.networkWatts, networkWatts);
        QCOMPARE(e.trainingRun.transceivers, 4040LL);
        QCOMPARE(e.power.storageWatts, 4 * 3000.0);
        QCOMPARE(e.power.facilityWatts(), e.power.itWatts() * 1.58);
        // Racks: 40 kW / 10.2 kW per DGX -> 3 per rack, 43 racks.
        QCOMPARE(e.racks.size(), std::size_t(1));
        QCOMPARE(e.racks[0].nodesPerRack, 3);
        QCOMPARE(e.racks[0].racks, 43);
        double total = 0;
        for (const BillOfMaterialsLine &line : e.billOfMaterials)
            total += line.totalUsd();
        QCOMPARE(e.capitalCostUsd, total);
        QVERIFY(e.hasTraining && e.training.found);
        QVERIFY(e.training.best.trainingSeconds > 0);
        // The run: 1024 GPUs at 50,000 h, 128 nodes at 100,000 h, 1024 NICs at 1,000,000 h
        // and 48 switches at 500,000 h: 0.49152 + 0.03072 + 0.024576 + 0.002304 per day.
        QVERIFY(e.hasTrainingRun);
        const TrainingRunEstimate &run = e.trainingRun;
        QVERIFY(qAbs(run.reliability.interruptionsPerDay - 0.54912) < 1e-9);
        // Checkpoint: 14 bytes per parameter over 4 x 65 GB/s of Lustre writes.
        QVERIFY(qAbs(run.reliability.checkpointWriteSeconds - run.checkpointBytes / 260e9) < 1e-9);
        // MTBF M = 86,400 / 0.54912 = 157,343 s; 14 x 70.6 B = 988 GB written in C = 3.80 s
        // and read back over 4 x 90 GB/s in 2.75 s; Daly's tau = sqrt(2 C M) (1,093.5 s) x
        // (1 + 0.001159 + 0.000001) - 3.80 = 1,091.0 s; goodput = 1,091.0 / (M e^(602.75 / M)
        // (e^(1,094.8 / M) - 1)) = 1,091.0 / (157,343 x 1.003838 x 0.0069822) = 0.98927.
        QVERIFY2(qAbs(run.reliability.goodput - 0.98927) < 1e-4,
                 qPrintable(QString::number(run.reliability.goodput, 'g', 8)));
        QCOMPARE(run.operations.facilityWatts, run.operations.itWatts() * 1.58);
        QVERIFY(run.operations.gpusWatts < e.power.gpusWatts); // below TDP when not busy
        QVERIFY(run.operations.wallSeconds > e.training.best.trainingSeconds);
    }

    void rackOverItsLimitIsFlagged()
    {
        Plan plan = loadSamplePlan("h100-1024-ndr-rail-fat-tree.json");
        plan.nodeGroups[0].nodesPerRack = 4; // 4 x 10.2 kW = 40.8 kW in a 40 kW rack
        const PlanEstimate e = estimatePlan(plan, shippedCatalog());
        bool flagged = false;
        for (const std::string &warning : e.warnings)
            flagged = flagged
                || warning.find("rack over its power limit: 4 x 10.2 kW = 40.8 kW > 40.0 kW") == 0;
        QVERIFY(flagged);
        // A GB200 NVL72 rack (72 x 1.2 kW GPUs + 33.6 kW of the rest = 120 kW, 48U) in a 40 kW,
        // 42U cabinet: it fits none, so each goes in one of its own, said in people's units.
        plan.nodeGroups[0].nodeId = "gb200-nvl72";
        plan.nodeGroups[0].count = 2;
        plan.nodeGroups[0].nodesPerRack = 0;
        const PlanEstimate oversized = estimatePlan(plan, shippedCatalog());
        bool named = false;
        for (const std::string &warning : oversized.warnings)
            named = named
                || warning.find("one NVIDIA GB200 NVL72 rack (120 kW, 48U) does not fit in a 42U")
                    == 0;
        QVERIFY2(named, oversized.warnings.empty() ? "" : oversized.warnings.front().c_str());
        QCOMPARE(oversized.racks.front().nodesPerRack, 1);
    }

    void racksRespectTheirLoadRating()
    {
        // A 42U cabinet rated for 1,360 kg holds 1,360 / 130.45 = 10.4, so at most 10 DGX H100
        // by weight; the sample's 40 kW cabinets are limited by power first (3 of 10.2 kW).
        Plan plan = loadSamplePlan("h100-1024-ndr-rail-fat-tree.json");
        PlanEstimate e = estimatePlan(plan, shippedCatalog());
        QCOMPARE(e.racks.front().nodesPerRack, 3);
        // A 48U, 132 kW cabinet rated for only 700 kg: 48 / 8 = 6 by space, 132 / 10.2 = 12 by
        // power, 700 / 130.45 = 5.4 by weight: 5 servers.
        Catalog light = shippedCatalog();
        light.addDocument({{"format", "clusterplanner-catalog"},
                           {"version", 1},
                           {"racks",
                            {{{"id", "rack-light"},
                              {"name", "Light rack"},
                              {"source", "test"},
                              {"cooling", "liquid"},
                              {"power_limit_kw", 132},
                              {"rack_units", 48},
                              {"price_usd", 1},
                              {"max_load_kg", 700}}}}},
                          "light.json");
        Plan onLight = plan;
        onLight.nodeGroups[0].rackId = "rack-light";
        QCOMPARE(estimatePlan(onLight, light).racks.front().nodesPerRack, 5);
        // With 11 forced into the 1,360 kg cabinet: 11 x 130.45 = 1,435 kg, over its rating.
        plan.nodeGroups[0].nodesPerRack = 11;
        e = estimatePlan(plan, shippedCatalog());
        QVERIFY(std::any_of(e.warnings.begin(), e.warnings.end(), [](const std::string &w) {
            return w.find("rack over its load rating: 11 x 130 kg = 1435 kg > 1360 kg") == 0;
        }));
        plan.nodeGroups[0].nodesPerRack = 10;
        e = estimatePlan(plan, shippedCatalog());
        QVERIFY(std::none_of(e.warnings.begin(), e.warnings.end(), [](const std::string &w) {
            return w.find("load rating") != std::string::npos;
        }));
    }

    void facilityPowerBudgetIsChecked()
    {
        // The H100 sample at full load: IT 1,401.8 kW = GPUs 1,024 x 700 W = 716.8 kW + nodes
        // 128 x 4.6 kW = 588.8 kW + network 84.2 kW (the fabric's 72.4 kW, the storage network's
        // 10.8 kW, 10 management switches' 0.98 kW: h100PlanTotals) + storage 4 x 3 kW = 12 kW;
        // x PUE 1.58 = 2,214.8 kW. A 2 MW budget is exceeded, a 2.5 MW one is not.
        Plan plan = loadSamplePlan("h100-1024-ndr-rail-fat-tree.json");
        plan.facility.powerLimitWatts = 2.0e6;
        const PlanEstimate over = estimatePlan(plan, shippedCatalog());
        QVERIFY(std::abs(over.power.facilityWatts() - 2214.8e3) < 0.1e3);
        QVERIFY(over.overPowerBudget());
        QVERIFY(std::any_of(over.warnings.begin(), over.warnings.end(), [](const std::string &w) {
            return w.find("2.21 MW at full load (IT x PUE), over the facility's budget of 2.00 MW")
                != std::string::npos;
        }));
        // A budget of 1 kW reads as one, not as "0.0 MW" beside a cluster of "0.1 MW".
        plan.facility.powerLimitWatts = 1e3;
        const PlanEstimate tiny = estimatePlan(plan, shippedCatalog());
        QVERIFY(std::any_of(tiny.warnings.begin(), tiny.warnings.end(), [](const std::string &w) {
            return w.find("over the facility's budget of 1.00 kW") != std::string::npos;
        }));
        plan.facility.powerLimitWatts = 2.5e6;
        QVERIFY(!estimatePlan(plan, shippedCatalog()).overPowerBudget());
        // Saved as kW, read back; a negative budget is refused by its pointer.
        nlohmann::json json = planToJson(plan);
        QCOMPARE(json["facility"]["power_limit_kw"].get<double>(), 2500.0);
        QCOMPARE(*parsePlan(json, "budget.json", &shippedCatalog()).facility.powerLimitWatts,
                 2.5e6);
        json["facility"]["power_limit_kw"] = -1;
        try {
            parsePlan(json, "budget.json", &shippedCatalog());
            QFAIL("a negative budget was accepted");
        } catch (const InputError &error) {
            QVERIFY2(std::string(error.what()).find("/facility/power_limit_kw")
                         != std::string::npos,
                     error.what());
        }
    }

    void fixedFleetWithoutRateFindsItsCapacity()
    {
        // The L4 fleet's workload (Llama 3 8B FP8, 1,024 + 256 tokens, p95 TTFT 500 ms and TPOT
        // 50 ms) as a fixed fleet with no rate: the estimate is at the most it serves within the
        // targets. Replicas take equal shares of a Poisson stream, so four serve four times one.
        Plan plan = loadSamplePlan("l4-inference-fleet.json");
        plan.inference.diurnalRates.clear();
        plan.inference.ratePerSecond.reset();
        plan.inference.replicas = 1;
        const PlanEstimate one = estimatePlan(plan, shippedCatalog());
        QVERIFY2(one.inference.capacityWithinLimits.has_value(), one.inference.reason.c_str());
        const double oneRate = one.inference.capacityWithinLimits->requestsPerSecond;
        QVERIFY(oneRate > 0);
        plan.inference.replicas = 4;
        const PlanEstimate four = estimatePlan(plan, shippedCatalog());
        QVERIFY(four.inference.meetsTargets);
        QCOMPARE(four.inference.replicas, 4);
        const CapacityWithinLimits &capacity = *four.inference.capacityWithinLimits;
        QVERIFY2(qAbs(capacity.requestsPerSecond / (4 * oneRate) - 1.0) < 1e-3,
                 qPrintable(QString::number(capacity.requestsPerSecond)));
        QVERIFY(capacity.limitedBy == "TTFT p95" || capacity.limitedBy == "TPOT p95"
                || capacity.limitedBy == "throughput");
        // The figures are the fleet's at that load: it keeps the targets there, and 2% more
        // load, given as a rate, breaks them.
        QVERIFY(four.inference.ttftSeconds <= 0.5 && four.inference.tpotP95Seconds <= 0.05);
        plan.inference.ratePerSecond = 1.02 * capacity.requestsPerSecond;
        QVERIFY(!estimatePlan(plan, shippedCatalog()).inference.meetsTargets);
    }

    void idleServingGpusArePaidFor()
    {
        // By hand: 6 replicas of 1 GPU at 0.032 USD per million output tokens on a plan of 64
        // GPUs. The plan pays for 64 at the same cost per GPU-hour for the same tokens: 0.032 x
        // 64 / 6 = 0.34133 USD; 58 GPUs idle, more than a fifth of 64.
        InferenceEstimate served;
        served.replicas = 6;
        served.gpusPerReplica = 1;
        served.costPerMillionOutputTokensUsd = 0.032;
        const ServingUse use = servingUse(served, 64);
        QCOMPARE(use.servingGpus, 6LL);
        QCOMPARE(use.idleGpus(), 58LL);
        QVERIFY(qAbs(use.costPerMillionOutputTokensAllGpusUsd - 0.3413333) < 1e-6);
        QVERIFY(use.largelyIdle());
        QCOMPARE(servingUseText(use),
                 std::string("the load keeps 6 of the plan's 64 GPUs busy; 58 stay idle: 0.032 "
                             "USD per million output tokens on the replicas that serve, 0.341 USD "
                             "over every GPU the plan buys"));
        // One GPU left over of 7 is a remainder (1 x 5 < 7), not a warning; a plan short of
        // GPUs has none idle and the serving figure.
        QVERIFY(!servingUse(served, 7).largelyIdle());
        QCOMPARE(servingUse(served, 7).idleGpus(), 1LL);
        const ServingUse short4 = servingUse(served, 4);
        QCOMPARE(short4.idleGpus(), 0LL);
        QCOMPARE(short4.costPerMillionOutputTokensAllGpusUsd, 0.032);

        // The L4 sample's L40S servers: 64 L40S, and the load needs a few of them; the plan
        // warns and the comparison's "over every GPU" row scales by the GPUs bought.
        Plan plan = loadSamplePlan("l4-inference-fleet.json");
        const PlanEstimate l40s
            = estimatePlan(scenarioPlan(plan, 0, &shippedCatalog()), shippedCatalog());
        QVERIFY(l40s.servingUse.has_value());
        QCOMPARE(l40s.servingUse->planGpus, 64LL);
        QVERIFY(l40s.servingUse->servingGpus < 64 / 5);
        QVERIFY(std::any_of(l40s.warnings.begin(), l40s.warnings.end(),
                            [](const std::string &w) { return w.starts_with("the load keeps "); }));
        QVERIFY(qAbs(l40s.servingUse->costPerMillionOutputTokensAllGpusUsd
                     - l40s.inference.costPerMillionOutputTokensUsd * 64
                         / static_cast<double>(l40s.servingUse->servingGpus))
                < 1e-12);
    }

    void aCampusHoldsAFleetAcrossItsBuildings()
    {
        // The L4 sample at twice its rate, 100 requests/s: 86 one-GPU replicas by its estimate,
        // more than one building's 16 servers x 4 L4 = 64 GPUs. As two such buildings, 128 GPUs,
        // the plan holds the fleet (replicas are independent, any building serves): no warning
        // that it needs more GPUs than the plan has, the cost over every GPU is over 128, and the
        // comparison puts it on the time-cost plane. One building still warns.
        Plan plan = loadSamplePlan("l4-inference-fleet.json");
        plan.scenarios.clear();
        plan.inference.ratePerSecond = 100;
        const PlanEstimate oneBuilding = estimatePlan(plan, shippedCatalog());
        const long long fleet = oneBuilding.inference.fleetGpus();
        QVERIFY2(fleet > 64 && fleet <= 128, qPrintable(QString::number(fleet)));
        const auto needsMore = [](const PlanEstimate &e) {
            return std::any_of(e.warnings.begin(), e.warnings.end(), [](const std::string &w) {
                return w.starts_with("the workload needs ");
            });
        };
        QVERIFY(needsMore(oneBuilding));
        QVERIFY(!oneBuilding.holdsServingFleet());

        plan.campus.buildings = 2;
        plan.campus.interconnectBytesPerSecondPerBuilding = 1e12 / 8;
        const PlanEstimate campus = estimatePlan(plan, shippedCatalog());
        QCOMPARE(campus.inference.fleetGpus(), fleet); // serving itself does not change
        QCOMPARE(campus.planGpus(), 128LL);
        QVERIFY(campus.holdsServingFleet());
        QVERIFY2(!needsMore(campus), campus.warnings.front().c_str());
        QVERIFY(campus.servingUse.has_value());
        QCOMPARE(campus.servingUse->planGpus, 128LL);
        QCOMPARE(campus.servingUse->idleGpus(), 128 - fleet);
        // Over every GPU: the serving figure x 128 / the fleet's GPUs.
        QVERIFY(qAbs(campus.servingUse->costPerMillionOutputTokensAllGpusUsd
                     - campus.inference.costPerMillionOutputTokensUsd * 128
                         / static_cast<double>(fleet))
                < 1e-12);
        const ScenarioComparison comparison = compareScenarios(plan, shippedCatalog());
        QCOMPARE(comparison.paretoPoints.size(), std::size_t(1));
        QVERIFY(comparison.paretoPoints[0].has_value());
    }

    void servingGpuHourIsThePlansShare()
    {
        // A serving plan's GPU-hour carries its share of the whole bill of materials and IT
        // power, as a training run on the plan does, not the GPU and its server alone. By hand,
        // for the L4 sample (64 L4, 43 of them serving its 50 requests/s):
        //   bill: GPUs 64 x 2,700 = 172,800; servers 16 x 12,000 = 192,000; racks 3 x 3,000 =
        //   9,000; ToR switch 8,000; fibre 32 x 30 = 960; Cat 6A 7 + 16 + 75 + 300 = 398; optics
        //   64 x 60 = 3,840; PDUs 6 x 2,500 = 15,000; management switch 5,000: $406,998;
        //   capital a GPU-hour 406,998 / 64 / (4 years x 8,766 h) = 0.181364 USD;
        //   IT power 4,608 (GPUs) + 11,200 (servers) + 412 (network) = 16,220 W, 253.44 W a GPU,
        //   x PUE 1.58 x 0.10 USD/kWh = 0.040043 USD; 0.221407 USD a GPU-hour, x 43 = 9.5205.
        // The server alone gave (2,700 + 3,000) / 35,064 + 0.247 x 0.158 = 0.201586, x 43 = 8.668.
        const PlanEstimate e
            = estimatePlan(loadSamplePlan("l4-inference-fleet.json"), shippedCatalog());
        QCOMPARE(e.inference.replicas * e.inference.gpusPerReplica, 43);
        QVERIFY2(qAbs(e.inference.usdPerHour - 9.5205) < 1e-3,
                 qPrintable(QString::number(e.inference.usdPerHour, 'g', 10)));
    }

    void everySampleEstimates()
    {
        for (const char *name : {"h100-1024-ndr-rail-fat-tree.json", "a100-pcie-64-100gbe.json",
                                 "l4-inference-fleet.json", "h200-deepseek-v3-serving.json"}) {
            const PlanEstimate e = estimatePlan(loadSamplePlan(name), shippedCatalog());
            QVERIFY(e.gpus > 0);
            QVERIFY(e.capitalCostUsd > 0);
            QVERIFY(e.power.itWatts() > 0);
        }
    }
};

QTEST_APPLESS_MAIN(TestPlanEstimator)
#include "tst_planestimator.moc"
