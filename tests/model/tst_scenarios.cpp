// SPDX-License-Identifier: GPL-3.0-or-later
// Scenarios (merge patches over the baseline), sweeps, the comparison table, the Pareto front
// and RFC 4180 CSV, with expected values worked out by hand or taken from the estimator itself.
#include "model/catalog/catalogdatabase.h"
#include "model/core/csvtable.h"
#include "model/core/inputerror.h"
#include "model/core/units.h"
#include "model/fabric/fabricdesign.h"
#include "model/fabric/fabricscaleout.h"
#include "model/plan/planio.h"
#include "model/plan/plansources.h"
#include "model/plan/scenarios.h"
#include "model/planning/planestimator.h"
#include "model/planning/scenariocomparison.h"
#include "testsupport.h"

#include <QTest>

using namespace cp::model;

using cp::test::shippedCatalog;

class TestScenarios : public QObject
{
    Q_OBJECT

private:
    Catalog m_catalog = shippedCatalog();
    // The sample without the scenarios it ships with, so each test adds its own.
    Plan m_sample = [this] {
        Plan plan = loadPlan(CP_SOURCE_DIR "/samples/h100-1024-ndr-rail-fat-tree.json", &m_catalog);
        plan.scenarios.clear();
        return plan;
    }();

    Plan withScenario(const std::string &name, const nlohmann::json &changes) const
    {
        Plan plan = m_sample;
        plan.scenarios.push_back({name, changes});
        return plan;
    }

    static const ComparisonRow &row(const ScenarioComparison &c, const std::string &key)
    {
        for (const ComparisonRow &r : c.rows)
            if (r.key == key)
                return r;
        throw std::runtime_error("no row " + key);
    }

private slots:
    void mergePatchBetweenRoundTrips()
    {
        const nlohmann::json from = nlohmann::json::parse(
            R"({"a": 1, "b": {"c": 2, "d": 3}, "e": [1, 2], "gone": true})");
        const nlohmann::json to
            = nlohmann::json::parse(R"({"a": 1, "b": {"c": 5, "d": 3}, "e": [1], "new": "x"})");
        const nlohmann::json patch = mergePatchBetween(from, to);
        // Only what differs; a removed key is null (RFC 7386); arrays are replaced whole.
        QVERIFY(patch
                == nlohmann::json::parse(R"({"b": {"c": 5}, "e": [1], "gone": null, "new": "x"})"));
        nlohmann::json applied = from;
        applied.merge_patch(patch);
        QVERIFY(applied == to);
        QVERIFY(mergePatchBetween(to, to) == nlohmann::json::object());
    }

    void scenarioPlanAppliesOnlyItsChanges()
    {
        const Plan plan = withScenario("RoCE 2:1", {{"fabric", {{"oversubscription", 2}}}});
        const Plan variant = scenarioPlan(plan, 0, &m_catalog);
        QCOMPARE(variant.name, std::string("RoCE 2:1"));
        QCOMPARE(variant.fabric.oversubscription, 2.0);
        QCOMPARE(variant.fabric.nicId, m_sample.fabric.nicId);
        QCOMPARE(variant.nodeGroups.at(0).count, 128);
        QVERIFY(variant.scenarios.empty());
        // The baseline is the plan itself, without its scenarios.
        const Plan baseline = scenarioPlan(plan, -1, &m_catalog);
        QCOMPARE(baseline.fabric.oversubscription, 1.0);
        QCOMPARE(baseline.name, m_sample.name);
        // The changes that make the variant are exactly the patch.
        QVERIFY(scenarioChanges(baseline, variant)
                == nlohmann::json({{"fabric", {{"oversubscription", 2.0}}}}));
    }

    void badScenariosNameTheirField()
    {
        nlohmann::json doc = planToJson(m_sample);
        doc["scenarios"]
            = {{{"name", "too little"}, {"changes", {{"fabric", {{"oversubscription", 0.5}}}}}}};
        try {
            parsePlan(doc, "plan.json", &m_catalog);
            QFAIL("an oversubscription below 1 was accepted");
        } catch (const InputError &error) {
            QCOMPARE(error.file(), std::string("plan.json"));
            QCOMPARE(error.pointer(), std::string("/scenarios/0/changes/fabric/oversubscription"));
            QVERIFY(error.reason().find("too little") != std::string::npos);
        }
        doc["scenarios"]
            = {{{"name", "moved"}, {"changes", {{"layout", nlohmann::json::object()}}}}};
        try {
            parsePlan(doc, "plan.json", &m_catalog);
            QFAIL("a scenario changing the layout was accepted");
        } catch (const InputError &error) {
            QCOMPARE(error.pointer(), std::string("/scenarios/0/changes/layout"));
        }
        doc["scenarios"] = {{{"name", "a"}, {"changes", nlohmann::json::object()}},
                            {{"name", "a"}, {"changes", nlohmann::json::object()}}};
        try {
            parsePlan(doc, "plan.json", &m_catalog);
            QFAIL("two scenarios with one name were accepted");
        } catch (const InputError &error) {
            QCOMPARE(error.pointer(), std::string("/scenarios/1/name"));
        }
        doc["scenarios"] = {{{"name", "Baseline"}, {"changes", nlohmann::json::object()}}};
        QVERIFY_THROWS_EXCEPTION(InputError, parsePlan(doc, "plan.json", &m_catalog));
        doc["scenarios"] = {{{"name", "x"}, {"changes", {{"fabric", {{"nic", "no-such-nic"}}}}}}};
        try {
            parsePlan(doc, "plan.json", &m_catalog);
            QFAIL("an unknown NIC was accepted");
        } catch (const InputError &error) {
            QCOMPARE(error.pointer(), std::string("/scenarios/0/changes/fabric/nic"));
        }
    }

    void scenariosRoundTripThroughJson()
    {
        Plan plan = withScenario("fp8", {{"workload", {{"precision", "fp8"}}}});
        plan.scenarios.push_back(
            {"more GPUs", {{"nodes", {{{"node", "dgx-h100"}, {"count", 256}}}}}});
        const Plan reread = parsePlan(planToJson(plan), "plan.json", &m_catalog);
        QCOMPARE(reread.scenarios.size(), std::size_t(2));
        QCOMPARE(reread.scenarios[1].name, std::string("more GPUs"));
        QVERIFY(reread.scenarios[0].changes == plan.scenarios[0].changes);
        QCOMPARE(scenarioPlan(reread, 1, &m_catalog).totalNodes(), 256);
        QCOMPARE(scenarioPlan(reread, 0, &m_catalog).training.precision, Precision::FP8);
    }

    void aPlanHoldsAtMost256Scenarios()
    {
        // 257 what-ifs in a file are refused at /scenarios with the count; 256 load. A sweep that
        // would pass 256 is refused before it adds any: 250 scenarios and 7 values.
        Plan plan = m_sample;
        plan.scenarios.clear();
        for (int i = 0; i < 257; ++i)
            plan.scenarios.push_back(
                {"what-if " + std::to_string(i), {{"facility", {{"pue", 1.2}}}}});
        try {
            parsePlan(planToJson(plan), "many.json", &m_catalog);
            QFAIL("257 scenarios must be refused");
        } catch (const InputError &error) {
            QCOMPARE(error.pointer(), std::string("/scenarios"));
            QVERIFY2(error.reason().starts_with("257 scenarios; a plan holds at most 256"),
                     error.reason().c_str());
        }
        plan.scenarios.pop_back();
        QCOMPARE(parsePlan(planToJson(plan), "many.json", &m_catalog).scenarios.size(),
                 std::size_t(256));
        plan.scenarios.resize(250);
        try {
            sweepScenarios(plan, SweepAxis::Oversubscription, {"2", "3", "4", "5", "6", "7", "8"},
                           m_catalog);
            QFAIL("a sweep past 256 scenarios must be refused");
        } catch (const InputError &error) {
            QVERIFY2(error.reason().starts_with("7 values beside the plan's 250 scenarios are more "
                                                "than the 256"),
                     error.reason().c_str());
        }
        QCOMPARE(sweepScenarios(plan, SweepAxis::Oversubscription, {"2", "3", "4", "5", "6", "7"},
                                m_catalog)
                     .size(),
                 std::size_t(6));
    }

    void sweepsChangeOneAxis()
    {
        auto s = sweepScenarios(m_sample, SweepAxis::GpuCount, {"512", "2048"}, m_catalog);
        QCOMPARE(s.size(), std::size_t(2));
        QCOMPARE(s[0].name, std::string("512 GPUs"));
        Plan plan = m_sample;
        plan.scenarios = s;
        QCOMPARE(scenarioPlan(plan, 0, &m_catalog).nodeGroups[0].count, 64); // 512 / 8
        QCOMPARE(scenarioPlan(plan, 1, &m_catalog).nodeGroups[0].count, 256);

        // A GPU type: the catalog server that carries it, same number of GPUs.
        s = sweepScenarios(m_sample, SweepAxis::GpuType, {"h200-sxm-141gb"}, m_catalog);
        plan.scenarios = s;
        const Plan h200 = scenarioPlan(plan, 0, &m_catalog);
        QCOMPARE(m_catalog.node(h200.nodeGroups[0].nodeId).gpuId, std::string("h200-sxm-141gb"));
        QCOMPARE(h200.nodeGroups[0].count * m_catalog.node(h200.nodeGroups[0].nodeId).gpusPerNode,
                 1024);

        // A server that brings RoCE NICs (the MI300X platform's) cannot keep the InfiniBand
        // QM9700 either: it kept it, and 1,024 RoCE links were priced into InfiniBand ports.
        s = sweepScenarios(m_sample, SweepAxis::GpuType, {"mi300x"}, m_catalog);
        plan.scenarios = s;
        const Plan mi300x = scenarioPlan(plan, 0, &m_catalog);
        QCOMPARE(m_catalog.node(mi300x.nodeGroups[0].nodeId).nicId, std::string("roce-400g"));
        QVERIFY(switchCarriesNic(m_catalog.networkSwitch(mi300x.fabric.switchId),
                                 m_catalog.nic("roce-400g")));

        // An Ethernet NIC cannot run on the InfiniBand QM9700: the sweep picks a switch for it.
        s = sweepScenarios(m_sample, SweepAxis::Nic, {"roce-400g"}, m_catalog);
        plan.scenarios = s;
        const Plan roce = scenarioPlan(plan, 0, &m_catalog);
        QCOMPARE(roce.fabric.nicId, std::string("roce-400g"));
        QVERIFY(roce.fabric.switchId != "qm9700");
        QVERIFY(m_catalog.networkSwitch(roce.fabric.switchId).protocol != LinkProtocol::InfiniBand);

        s = sweepScenarios(m_sample, SweepAxis::Batch, {"1024"}, m_catalog);
        QVERIFY(s[0].changes == nlohmann::json({{"workload", {{"global_batch", 1024}}}}));
        s = sweepScenarios(m_sample, SweepAxis::Oversubscription, {"2", "4"}, m_catalog);
        QVERIFY(s[1].changes == nlohmann::json({{"fabric", {{"oversubscription", 4.0}}}}));
        // Names stay unique when the same value is swept twice.
        plan = m_sample;
        plan.scenarios = sweepScenarios(m_sample, SweepAxis::Precision, {"fp8"}, m_catalog);
        QCOMPARE(sweepScenarios(plan, SweepAxis::Precision, {"fp8"}, m_catalog)[0].name,
                 std::string("FP8 (2)"));
        // The sample already trains in BF16 on 1,024 GPUs: those values would make scenarios
        // that change nothing, columns repeating the baseline's. Refused, naming the value.
        // Nor twice in one sweep: "2048,2048" made two identical columns.
        try {
            sweepScenarios(m_sample, SweepAxis::GpuCount, {"2048", "512", "2048"}, m_catalog);
            QFAIL("a value given twice was swept twice");
        } catch (const InputError &error) {
            QCOMPARE(error.pointer(), std::string("gpu-count=2048"));
            QVERIFY2(error.reason().starts_with("the sweep gives this value twice ('2,048 GPUs'"),
                     error.reason().c_str());
        }
        struct NoOp
        {
            SweepAxis axis;
            std::string other; // a value that does change the plan, swept before it
            std::string value;
        };
        for (const NoOp &noOp : {NoOp {SweepAxis::Precision, "fp8", "bf16"},
                                 NoOp {SweepAxis::GpuCount, "512", "1024"}}) {
            const SweepAxis axis = noOp.axis;
            const std::string &value = noOp.value;
            try {
                sweepScenarios(m_sample, axis, {noOp.other, value}, m_catalog);
                QFAIL("a sweep to the baseline's own value was kept");
            } catch (const InputError &error) {
                QCOMPARE(error.pointer(), sweepAxisName(axis) + "=" + value);
                QVERIFY2(error.reason().starts_with("the baseline already has it"),
                         error.reason().c_str());
            }
        }
    }

    void aComparisonThatWouldTakeMinutesIsRefused()
    {
        // 524,288 servers in one hall and 16 variants: 16 x 524,288 = 8,388,608 servers laid
        // out, the most compared at once (each variant's hall took about a second; 256 of them
        // ran three minutes). A 17th variant brings 8,912,896 and is refused before any work.
        Plan plan = cp::test::planOfServers("pcie-8gpu-server", 524288, "none");
        for (int i = 1; i <= 16; ++i)
            plan.scenarios.push_back(
                {"ratio " + std::to_string(i),
                 {{"fabric", {{"topology", "none"}, {"oversubscription", 1.0 + i}}}}});
        try {
            compareScenarios(plan, m_catalog);
            QFAIL("a comparison of 8,912,896 servers was started");
        } catch (const std::runtime_error &error) {
            QVERIFY2(std::string(error.what()).find("8,912,896 servers in all; at most 8,388,608")
                         != std::string::npos,
                     error.what());
        }
    }

    void unbuildableOrUnrankableScenariosAreNeverSingledOut()
    {
        // Two tiers of radix-64 switches join at most 64 rail leaves (a spine's 64 down ports):
        // 8,192 GPUs on rails in units of 32 need 256. That scenario's 8x peak FLOP/s is not on
        // offer, so it is not starred; the baseline's is the only buildable figure.
        Plan plan = m_sample;
        plan.fabric.tiers = 2;
        plan.scenarios = sweepScenarios(plan, SweepAxis::GpuCount, {"8192"}, m_catalog);
        const ScenarioComparison c = compareScenarios(plan, m_catalog);
        QVERIFY(!c.scenarios[1].estimate.fabricError.empty());
        const auto peak = std::find_if(c.rows.begin(), c.rows.end(), [](const ComparisonRow &r) {
            return r.key == "peak_pflops";
        });
        QVERIFY(peak != c.rows.end());
        QVERIFY(*peak->values[1] > *peak->values[0]);
        QCOMPARE(peak->bestIndex, -1);
        // A portfolio plan has no training time or serving cost to put on the time-cost plane:
        // none of its scenarios is "dominated", though each lacks a point.
        const ScenarioComparison queues = compareScenarios(
            cp::test::loadSamplePlan("h100-2048-shared-cluster.json"), m_catalog);
        for (std::size_t i = 0; i < queues.scenarios.size(); ++i)
            QVERIFY(!queues.dominatedOnPlane(i));
    }

    void aScenarioFollowsTheBaselinesOtherEditsToAServerGroup()
    {
        // A scenario that moves the sample's 128 DGX H100 into 132 kW liquid-cooled racks, then
        // the baseline grows to 256 servers: the scenario has 256 servers in liquid racks. It
        // kept 128, as its changes were the whole list of groups, and read "Servers: 128 x DGX
        // H100 instead of 256", a change nobody made.
        Plan variant = m_sample;
        variant.nodeGroups[0].rackId = "rack-liquid-132kw";
        Plan plan = m_sample;
        plan.scenarios = {{"liquid", scenarioChanges(m_sample, variant)}};
        QVERIFY(plan.scenarios[0].changes
                == nlohmann::json({{"nodes", {{"0", {{"rack", "rack-liquid-132kw"}}}}}}));
        plan.nodeGroups[0].count = 256;
        const Plan liquid = scenarioPlan(plan, 0, &m_catalog);
        QCOMPARE(liquid.nodeGroups[0].count, 256);
        QCOMPARE(liquid.nodeGroups[0].rackId, std::string("rack-liquid-132kw"));
        const std::vector<std::string> lines = describeChanges(
            plan.scenarios[0].changes, planToJson(scenarioPlan(plan, -1, &m_catalog, "plan.json")),
            &m_catalog);
        QCOMPARE(lines.size(), std::size_t(1));
        QCOMPARE(lines[0],
                 "Servers (compute): rack " + m_catalog.nameOf("rack-liquid-132kw") + " instead of "
                     + m_catalog.nameOf("rack-air-40kw"));
        // A whole list, as older files and a change of the number of groups have it, still
        // replaces the baseline's groups.
        plan.scenarios
            = {{"old", {{"nodes", {{{"node", "dgx-h100"}, {"count", 64}, {"name", "compute"}}}}}}};
        QCOMPARE(scenarioPlan(plan, 0, &m_catalog).nodeGroups[0].count, 64);
        // A group the plan does not have is refused at its pointer.
        plan.scenarios = {{"stray", {{"nodes", {{"3", {{"count", 8}}}}}}}};
        try {
            scenarioPlan(plan, 0, &m_catalog, "plan.json");
            QFAIL("a change to a fourth group of one was applied");
        } catch (const InputError &error) {
            QCOMPARE(error.pointer(), std::string("/scenarios/0/changes/nodes/3"));
            QVERIFY2(error.reason().find("index in the plan's 1 groups") != std::string::npos,
                     error.reason().c_str());
        }
    }

    void scenarioNamesStandApart()
    {
        // A blank name is a blank column; "baseline" in any case reads as the Baseline column;
        // a name with spaces around it stands beside its look-alike.
        for (const char *name : {"", "   ", "baseline", "BASELINE", " H200", "H200 "})
            QVERIFY2(!scenarioNameProblem(m_sample, name, -1).empty(), name);
        QVERIFY(scenarioNameProblem(m_sample, "H200 servers, 2:1", -1).empty());
        // Names apart in more than case, and apart from the plan's own name, which heads the
        // scenario list as "Baseline - <name>".
        const Plan plan = withScenario("H200 servers", {{"fabric", {{"tiers", 3}}}});
        QVERIFY2(scenarioNameProblem(plan, "H200 SERVERS", -1).find("already called")
                     != std::string::npos,
                 scenarioNameProblem(plan, "H200 SERVERS", -1).c_str());
        QVERIFY(scenarioNameProblem(plan, "H200 SERVERS", 0).empty()); // its own, re-cased
        QVERIFY(!scenarioNameProblem(plan, plan.name, -1).empty());
        // The plan: never blank, never a scenario's name in any case.
        QVERIFY(!planNameProblem(plan, "").empty());
        QVERIFY(!planNameProblem(plan, "  ").empty());
        QVERIFY(!planNameProblem(plan, "h200 servers").empty());
        QVERIFY(planNameProblem(plan, "Another plan").empty());
    }

    void removingAGroupRenumbersScenarioChanges()
    {
        // Four groups; a scenario changes groups 0, 2 and 3, another replaces the whole list.
        // Removing groups 1 and 2: group 0's change stays at 0, group 2's goes, group 3's moves
        // down past both to 1.
        Plan plan = m_sample;
        plan.nodeGroups.resize(4, plan.nodeGroups[0]);
        plan.scenarios
            = {{"per group",
                {{"nodes", {{"0", {{"count", 1}}}, {"2", {{"count", 2}}}, {"3", {{"count", 3}}}}}}},
               {"whole list",
                {{"nodes", nlohmann::json::array({{{"node", "dgx-h100"}, {"count", 5}}})}}},
               {"group 2 only", {{"nodes", {{"2", {{"count", 7}}}}}, {"fabric", {{"tiers", 3}}}}}};
        removeServerGroups(plan, {2, 1});
        QCOMPARE(plan.nodeGroups.size(), std::size_t(2));
        QVERIFY2(plan.scenarios[0].changes["nodes"]
                     == nlohmann::json({{"0", {{"count", 1}}}, {"1", {{"count", 3}}}}),
                 plan.scenarios[0].changes.dump().c_str());
        QVERIFY(plan.scenarios[1].changes["nodes"].is_array());
        QVERIFY2(plan.scenarios[2].changes == nlohmann::json({{"fabric", {{"tiers", 3}}}}),
                 plan.scenarios[2].changes.dump().c_str());
    }

    void renamingAGroupRenamesItsPartition()
    {
        Plan plan = m_sample;
        plan.nodeGroups.push_back(plan.nodeGroups[0]);
        plan.nodeGroups[1].name = "dev";
        JobClass onDev;
        onDev.name = "notebooks";
        onDev.partition = "dev";
        JobClass anywhere;
        anywhere.name = "batch";
        plan.portfolio.classes = {onDev, anywhere};
        renameServerGroup(plan, 1, "devbox");
        QCOMPARE(plan.nodeGroups[1].name, std::string("devbox"));
        QCOMPARE(plan.portfolio.classes[0].partition, std::string("devbox"));
        QCOMPARE(plan.portfolio.classes[1].partition, std::string());
        // Two groups of one name are one partition: renaming one leaves the class on the other.
        plan.nodeGroups[0].name = "devbox";
        renameServerGroup(plan, 1, "other");
        QCOMPARE(plan.portfolio.classes[0].partition, std::string("devbox"));
        // A blank name is no partition: the class stays, for the loader to refuse.
        renameServerGroup(plan, 0, "");
        QCOMPARE(plan.portfolio.classes[0].partition, std::string("devbox"));
    }

    void sweepNamesReadAsTheChange()
    {
        // Counts are grouped as the comparison's rows print them ("2048 GPUs" before).
        QCOMPARE(sweepScenarioName(SweepAxis::GpuCount, "2048"), std::string("2,048 GPUs"));
        QCOMPARE(sweepScenarioName(SweepAxis::Batch, "16384"), std::string("batch 16,384"));
        // On a campus the value is one building's GPUs; the name gives the campus's too, as its
        // GPUs row does: 8 x 262,144 = 2,097,152 (the column read "262144 GPUs" over 2,097,152).
        QCOMPARE(sweepScenarioName(SweepAxis::GpuCount, "262144", nullptr, 8),
                 std::string("2,097,152 GPUs (262,144 a building)"));
        // A count too large to multiply out is named per building, never wrapped.
        QCOMPARE(sweepScenarioName(SweepAxis::GpuCount, "999999999999999", nullptr, 100000),
                 std::string("999,999,999,999,999 GPUs a building"));
        QCOMPARE(sweepScenarioName(SweepAxis::Oversubscription, "2"),
                 std::string("2:1 oversubscribed"));
        QCOMPARE(sweepScenarioName(SweepAxis::Nic, "roce-400g"), std::string("NIC roce-400g"));
        QCOMPARE(sweepScenarioName(SweepAxis::Precision, "fp8"), std::string("FP8"));
        QCOMPARE(sweepScenarioName(SweepAxis::Batch, "64"), std::string("batch 64"));
        QCOMPARE(sweepScenarioName(SweepAxis::GpuType, "h200-sxm-141gb"),
                 std::string("h200-sxm-141gb"));
        // With the catalog, ids read as the catalog names them.
        QCOMPARE(sweepScenarioName(SweepAxis::Nic, "roce-400g", &m_catalog),
                 std::string("NIC RoCE v2 400 GbE (ConnectX-7)"));
        QCOMPARE(sweepScenarioName(SweepAxis::GpuType, "h200-sxm-141gb", &m_catalog),
                 std::string("NVIDIA H200 SXM 141GB"));
        // An id the catalog lacks reads as itself.
        QCOMPARE(sweepScenarioName(SweepAxis::Nic, "no-such-nic", &m_catalog),
                 std::string("NIC no-such-nic"));
        // The fabric topology as people name it, in a change's description too.
        QCOMPARE(fabricTopologyTitle("rail-fat-tree"), std::string("rail-optimised fat-tree"));
        QCOMPARE(fabricTopologyTitle("no-such"), std::string("no-such"));
    }

    void shippedSampleScenariosLoad()
    {
        const Plan plan
            = loadPlan(CP_SOURCE_DIR "/samples/h100-1024-ndr-rail-fat-tree.json", &m_catalog);
        QCOMPARE(plan.scenarios.size(), std::size_t(2));
        const Plan roce = scenarioPlan(plan, 0, &m_catalog);
        QCOMPARE(roce.fabric.nicId, std::string("roce-400g"));
        QCOMPARE(roce.fabric.oversubscription, 2.0);
        const Plan h200 = scenarioPlan(plan, 1, &m_catalog);
        QCOMPARE(m_catalog.node(h200.nodeGroups[0].nodeId).gpuId, std::string("h200-sxm-141gb"));
        QCOMPARE(h200.fabric.nicId, std::string("ib-ndr-400")); // only the servers changed
    }

    void badSweepValuesSayWhy()
    {
        const auto expectError = [&](SweepAxis axis, const std::string &value,
                                     const std::string &reason) {
            try {
                sweepScenarios(m_sample, axis, {value}, m_catalog);
                QFAIL(("accepted " + value).c_str());
            } catch (const InputError &error) {
                QCOMPARE(error.pointer(), sweepAxisName(axis) + "=" + value);
                QVERIFY2(error.reason().find(reason) != std::string::npos, error.reason().c_str());
            }
        };
        expectError(SweepAxis::GpuCount, "1004", "not a whole number of 8-GPU servers");
        expectError(SweepAxis::Precision, "int4", "training runs in bf16, fp16 or fp8");
        expectError(SweepAxis::Nic, "h100-sxm5-80gb", "not a NIC id");
        expectError(SweepAxis::Oversubscription, "0.5", "at least 1");
        expectError(SweepAxis::GpuType, "qm9700", "not a GPU or server id");
        // Values an int cannot hold were cast anyway (1e30 became INT_MIN servers).
        expectError(SweepAxis::GpuCount, "1e30", "at least 1 and at most 1073741824");
        expectError(SweepAxis::GpuCount, "3e9", "at least 1 and at most 1073741824");
        // 40,000,000 GPUs are 5,000,000 eight-GPU servers, over the 4,194,304 of a group.
        expectError(SweepAxis::GpuCount, "40000000", "needs more than 4194304 servers");
        expectError(SweepAxis::Batch, "3e9", "at least 1 and at most 16777216");
        expectError(SweepAxis::Oversubscription, "100", "at least 1 and at most 64");
    }

    void describeChangesReadsLikeSentences()
    {
        const nlohmann::json changes = {
            {"fabric", {{"nic", "roce-400g"}, {"nics_per_node", nullptr}, {"oversubscription", 2}}},
            {"nodes", {{{"node", "dgx-h100"}, {"count", 2048}}}}};
        // Without a catalog or a baseline: the ids, no "instead of".
        const auto bare = describeChanges(changes);
        QCOMPARE(bare.size(), std::size_t(4));
        QCOMPARE(bare[0], std::string("NIC: roce-400g"));
        QCOMPARE(bare[1], std::string("NICs per server: back to its default"));
        QCOMPARE(bare[2], std::string("Oversubscription: 2:1"));
        QCOMPARE(bare[3], std::string("Servers: 2,048 x dgx-h100"));
        // With the sample as baseline and the catalog: names, and what each replaces.
        const auto lines = describeChanges(changes, planToJson(m_sample), &m_catalog);
        const std::string roce = m_catalog.nic("roce-400g").name;
        const std::string ndr = m_catalog.nic("ib-ndr-400").name;
        const std::string dgx = m_catalog.node("dgx-h100").name;
        QCOMPARE(lines[0], "NIC: " + roce + " instead of " + ndr);
        QCOMPARE(lines[2], std::string("Oversubscription: 2:1 instead of 1:1"));
        QCOMPARE(lines[3], "Servers: 2,048 x " + dgx + " instead of 128 x " + dgx);
        // On a campus of 8 buildings those are one building's servers, beside a Servers row
        // that counts 8 x 2,048 = 16,384: the line says so (it read as the campus's).
        nlohmann::json campus = planToJson(m_sample);
        campus["campus"] = {{"buildings", 8}};
        const auto campusLines = describeChanges(changes, campus, &m_catalog);
        QCOMPARE(campusLines[3],
                 "Servers: 2,048 x " + dgx + " instead of 128 x " + dgx
                     + " (each of the 8 buildings)");
        QCOMPARE(campusLines[2], std::string("Oversubscription: 2:1 instead of 1:1"));
        // A list of names reads as the names, not as JSON.
        const auto modules
            = describeChanges({{"workload", {{"recompute_modules", {"moe_act", "layernorm"}}}}});
        QCOMPARE(modules.size(), std::size_t(1));
        QCOMPARE(modules[0], std::string("Recompute modules: moe_act, layernorm"));
        // Keywords of the file read as the words the Properties form shows, and fields without
        // a label of their own by their name in words, never as the file's path.
        const auto words = describeChanges(
            {{"workload", {{"moe_dispatcher", "alltoall"}, {"async_checkpoints", true}}},
             {"portfolio", {{"policy", "kueue"}}}},
            {{"workload", {{"moe_dispatcher", "deepep"}}}, {"portfolio", {{"policy", "fifo"}}}});
        QCOMPARE(words.size(), std::size_t(3));
        // (items() visits the keys in alphabetical order: portfolio before workload.)
        QCOMPARE(words[0],
                 std::string("Scheduling policy: Kueue best-effort FIFO instead of priority FIFO"));
        QCOMPARE(words[1], std::string("Async checkpoints: on"));
        QCOMPARE(words[2],
                 std::string("MoE dispatcher: all-to-all instead of DeepEP (deduplicated)"));
        // The loss kernel, in the Properties form's words.
        const auto loss = describeChanges({{"workload", {{"cross_entropy", "te"}}}},
                                          {{"workload", {{"cross_entropy", "unfused"}}}});
        QCOMPARE(loss.size(), std::size_t(1));
        QCOMPARE(loss[0],
                 std::string("Cross-entropy: Transformer Engine instead of Megatron, unfused"));
    }

    void comparisonMatchesTheEstimator()
    {
        const Plan plan = withScenario("oversubscribed", {{"fabric", {{"oversubscription", 2}}}});
        ComparisonOptions options;
        options.scalingGpuCounts = defaultScalingGpuCounts(plan, m_catalog);
        // 128 DGX H100: 1/8, 1/4, 1/2, 1 and 2 times the servers.
        QVERIFY(options.scalingGpuCounts == std::vector<int>({128, 256, 512, 1024, 2048}));
        const ScenarioComparison c = compareScenarios(plan, m_catalog, options);
        QCOMPARE(c.scenarios.size(), std::size_t(2));
        QCOMPARE(c.scenarios[0].name, std::string("Baseline"));
        QVERIFY(c.scenarios[0].ok && c.scenarios[1].ok);
        const PlanEstimate direct = estimatePlan(scenarioPlan(plan, 0, &m_catalog), m_catalog);
        const ComparisonRow &days = row(c, "training_days");
        QCOMPARE(*days.values[1], direct.training.best.trainingSeconds / units::secondsPerDay);
        QCOMPARE(*row(c, "capital_usd").values[1], direct.capitalCostUsd);
        // The layout cell names the recomputation and the ZeRO stage the estimate chose too.
        const ParallelConfig &layout = direct.training.best.config;
        const std::string tail = ", recompute " + recomputeDescription(layout) + ", ZeRO-"
            + std::to_string(layout.zero);
        QVERIFY2(row(c, "layout").text[1].size() > tail.size()
                     && row(c, "layout").text[1].ends_with(tail),
                 row(c, "layout").text[1].c_str());
        QCOMPARE(*row(c, "mfu_pct").values[1], 100 * direct.training.best.mfu);
        // Oversubscription only takes switches away and never makes the step faster.
        QVERIFY(*row(c, "switches").values[1] < *row(c, "switches").values[0]);
        QVERIFY(*row(c, "step_s").values[1] >= *row(c, "step_s").values[0]);
        QCOMPARE(row(c, "switches").bestIndex, 1);
        QCOMPARE(row(c, "gpus").bestIndex, -1); // no preference, and equal anyway
        QVERIFY(!row(c, "gpus").differs);
        // The step-time parts add up to the step.
        const ComparisonRow &step = row(c, "step_s");
        QVERIFY(std::abs(*step.values[0] - *row(c, "step_compute_s").values[0]
                         - *row(c, "step_comm_s").values[0] - *row(c, "step_bubble_s").values[0])
                < 1e-9 * *step.values[0]);
        // Scaling: efficiency is relative to the smallest count, so it starts at exactly 1.
        QCOMPARE(c.scaling.size(), std::size_t(5));
        QVERIFY(c.scaling[0].ok);
        QCOMPARE(c.scaling[0].efficiency, 1.0);
        QCOMPARE(c.scaling[3].tokensPerSecond,
                 c.scenarios[0].estimate.training.best.tokensPerSecond);
        // Pareto points are in the units their size reads in: this plan trains for weeks (days)
        // at a cost of hundreds of thousands of dollars (thousand USD).
        QCOMPARE(c.paretoTimeLabel, std::string("Wall time to train (days)"));
        QCOMPARE(c.paretoPoints[0]->first,
                 c.scenarios[0].estimate.trainingRun.operations.wallSeconds / units::secondsPerDay);
        QCOMPARE(c.paretoCostLabel, std::string("Run cost (thousand USD)"));
        QCOMPARE(c.paretoPoints[0]->second,
                 c.scenarios[0].estimate.trainingRun.operations.costUsd / 1e3);
    }

    void aScalingCountSlowerThanASmallerOneSaysWhy()
    {
        // Hand-built curve: 1,024 GPUs at 1.0 M tokens/s, 2,048 at 1.5 M, a gap at 3,072 (no
        // layout), then 4,096 at 1.2 M, slower than 2,048's 1.5 M, not only than the last point.
        // Its layout: 16,384 sequences over DP 512 in microbatches of 1 are 16,384 / 512 = 32
        // microbatches for 64 stages, and its bubble is 66% of its step (above its 10% of
        // communication): the bubble is the reason. 8,192 at 1.3 M is still below 2,048's 1.5 M,
        // with a one-stage layout whose exposed communication is 40% of its step.
        const auto point = [](long long gpus, bool ok, double tokensPerSecond) {
            ScalingPoint p;
            p.gpus = gpus;
            p.ok = ok;
            p.tokensPerSecond = tokensPerSecond;
            return p;
        };
        const ScalingPoint small = point(1024, true, 1.0e6), faster = point(2048, true, 1.5e6);
        const ScalingPoint gap = point(3072, false, 0);
        ScalingPoint slower = point(4096, true, 1.2e6);
        slower.layout.pp = 64;
        slower.layout.dp = 512;
        slower.microbatchesPerPipeline = 32;
        slower.bubbleShare = 0.66;
        slower.communicationShare = 0.10;
        ScalingPoint chatty = point(8192, true, 1.3e6);
        chatty.layout.dp = 8192;
        chatty.communicationShare = 0.40;
        const std::vector<std::string> notes
            = scalingSlowdownNotes({small, faster, gap, slower, chatty}, 16384);
        QCOMPARE(notes.size(), std::size_t(2));
        QVERIFY2(notes[0].rfind("4,096 GPUs train slower than 2,048 (1.20 M against 1.50 M "
                                "tokens/s): the global batch of 16,384 sequences gives each of "
                                "its 512 data-parallel replicas 32 microbatches for 64 pipeline "
                                "stages, and the pipeline bubble takes 66% of its step; a larger "
                                "global batch",
                                0)
                     == 0,
                 notes[0].c_str());
        QVERIFY2(notes[1].rfind("8,192 GPUs train slower than 2,048 (1.30 M against 1.50 M "
                                "tokens/s): exposed communication takes 40% of its step",
                                0)
                     == 0,
                 notes[1].c_str());
        // A curve whose first counts have no layout measures its efficiency against the first
        // that trains, and says so; one count above 100% (1,024 GPUs at 2.1 M tokens/s against
        // 512 at 1.0 M: 2.1 / 2 = 105%) says why, as the tables' readers asked.
        ScalingPoint start = point(512, true, 1.0e6);
        start.efficiency = 1.0;
        ScalingPoint superlinear = point(1024, true, 2.1e6);
        superlinear.efficiency = 1.05;
        const std::vector<std::string> startNotes = scalingSlowdownNotes(
            {point(128, false, 0), point(256, false, 0), start, superlinear}, 16384);
        QCOMPARE(startNotes.size(), std::size_t(2));
        QCOMPARE(startNotes[0],
                 std::string("128 and 256 GPUs have no layout that fits: the "
                             "efficiency is against 512 GPUs', the smallest count "
                             "that trains."));
        QVERIFY2(startNotes[1].starts_with("an efficiency above 100% is a larger count's own "),
                 startNotes[1].c_str());
        // A curve that only rises, or falls only in per-GPU efficiency, says nothing.
        QVERIFY(scalingSlowdownNotes({small, faster}, 16384).empty());
        QVERIFY(scalingSlowdownNotes({}, 16384).empty());
    }

    void campusScalingCountsEveryBuildingsGpus()
    {
        // The H100 sample copied into 2 buildings trains on 2 x 1,024 GPUs: its scaling curve's
        // point at the plan's own 128 servers is 2,048 GPUs with the campus estimate's
        // throughput (it was drawn at 1,024, one building's, with twice the throughput).
        Plan plan = cp::test::loadSamplePlan("h100-1024-ndr-rail-fat-tree.json");
        plan.campus.buildings = 2;
        plan.campus.interconnectBytesPerSecondPerBuilding = 400e12 / 8; // 400 Tb/s
        plan.scenarios.clear();
        ComparisonOptions options;
        options.scalingGpuCounts = {512, 1024};
        const ScenarioComparison c = compareScenarios(plan, m_catalog, options);
        QCOMPARE(c.scaling.size(), std::size_t(2));
        QCOMPARE(c.scaling[0].gpus, 1024LL);
        QCOMPARE(c.scaling[1].gpus, 2048LL);
        QVERIFY(c.scaling[1].ok);
        const PlanEstimate &campus = c.scenarios[0].estimate;
        QVERIFY(campus.campus);
        QCOMPARE(campus.campus->gpus, 2048LL);
        QCOMPARE(c.scaling[1].tokensPerSecond, campus.training.best.tokensPerSecond);
        // Its power chart stacks both buildings and the interconnect, the table's campus total
        // (it stacked one building's beside a table of two).
        const PowerShares shares = planPowerShares(campus);
        QCOMPARE(shares.gpusWatts, 2 * campus.power.gpusWatts);
        QVERIFY(std::abs(shares.gpusWatts + shares.serversWatts + shares.networkWatts
                         + shares.storageWatts + shares.coolingWatts - campus.campus->facilityWatts)
                < 1e-6 * campus.campus->facilityWatts);
        QCOMPARE(*row(c, "facility_power_kw").values[0], campus.campus->facilityWatts / 1e3);
    }

    void paretoPointsOfAShortRunReadInHoursAndDollars()
    {
        // The ViT sample trains ImageNet on 128 H100s in about two hours for a few hundred
        // dollars: its Pareto chart read "0.00049 - 0.00053" million USD against "0.0882 -
        // 0.0886" days. Hours from two hours of wall time, USD below a thousand.
        const ScenarioComparison c = compareScenarios(
            cp::test::loadSamplePlan("h100-128-vit-imagenet-nfs.json"), m_catalog, {});
        QVERIFY(c.paretoPoints[0]);
        const auto &operations = c.scenarios[0].estimate.trainingRun.operations;
        QVERIFY2(operations.wallSeconds >= 2 * 3600.0 && operations.wallSeconds < 2 * 86400.0,
                 qPrintable(QString::number(operations.wallSeconds)));
        QVERIFY2(operations.costUsd < 1000.0, qPrintable(QString::number(operations.costUsd)));
        QCOMPARE(c.paretoTimeLabel, std::string("Wall time to train (h)"));
        QCOMPARE(c.paretoCostLabel, std::string("Run cost (USD)"));
        QCOMPARE(c.paretoPoints[0]->first, operations.wallSeconds / 3600.0);
        QCOMPARE(c.paretoPoints[0]->second, operations.costUsd);
    }

    void variantsShowTheFastestPublishedRunOnTheirGpu()
    {
        // The H100 sample against its H200 scenario: the table's fastest dense 16-bit H100 run
        // reached 489.1 of 989.4 TFLOP/s (Megatron-Core's GPT 16B). No training run on an H200
        // is in the table; the H100's tensor peaks are the H200's, so its runs stand in there
        // (the figure had been unknown, and an H200 at 60.7% MFU went unflagged).
        const Plan plan = cp::test::loadSamplePlan("h100-1024-ndr-rail-fat-tree.json");
        const ScenarioComparison c = compareScenarios(plan, m_catalog, ComparisonOptions {});
        int h200 = -1;
        for (std::size_t i = 0; i < c.scenarios.size(); ++i)
            if (c.scenarios[i].name == "H200 servers")
                h200 = static_cast<int>(i);
        QVERIFY(h200 > 0);
        const ComparisonRow &fastest = row(c, "published_max_mfu_pct");
        QVERIFY(cp::test::closeRelative(*fastest.values[0], 100 * 489.1 / 989.4, 1e-9));
        QVERIFY(cp::test::closeRelative(*fastest.values[h200], 100 * 489.1 / 989.4, 1e-9));
        QCOMPARE(
            c.scenarios[static_cast<std::size_t>(h200)].estimate.trainingPublishedRuns.standInFor,
            std::string("NVIDIA H200 SXM 141GB"));
        QCOMPARE(fastest.bestIndex, -1); // a reference, not a figure to win on
    }

    void offlineJobsCompareTheirDurationAndCost()
    {
        // The L4 sample as an offline job of 2,000,000 requests on its 16 replicas, against the
        // sample's L40S and A100 servers: the comparison shows each fleet's job time, cost and
        // energy, the estimator's own figures, and marks the quickest.
        Plan plan = cp::test::loadSamplePlan("l4-inference-fleet.json");
        plan.inference.ratePerSecond.reset();
        plan.inference.ttftP95Ms.reset();
        plan.inference.tpotP95Ms.reset();
        plan.inference.diurnalRates.clear();
        plan.inference.offlineRequests = 2000000;
        plan.inference.replicas = 16;
        const ScenarioComparison c = compareScenarios(plan, m_catalog);
        const ComparisonRow &hours = row(c, "offline_job_hours");
        QCOMPARE(hours.values.size(), c.scenarios.size());
        for (std::size_t i = 0; i < c.scenarios.size(); ++i) {
            const OfflineJobEstimate &job = *c.scenarios[i].estimate.inference.offlineJob;
            QCOMPARE(*hours.values[i], job.seconds / 3600);
            QCOMPARE(*row(c, "offline_job_usd").values[i], job.usd);
            QCOMPARE(*row(c, "offline_job_mwh").values[i], job.joules / 3.6e9);
        }
        // 16 L4s read their weights at 234 GB/s, the L40S at 795 GB/s: the L4 job is slowest.
        QVERIFY(hours.bestIndex > 0);
        QVERIFY(*hours.values[0] > *hours.values[hours.bestIndex]);
        // Without a job the rows are not shown.
        const ScenarioComparison online
            = compareScenarios(cp::test::loadSamplePlan("l4-inference-fleet.json"), m_catalog);
        for (const ComparisonRow &r : online.rows)
            QVERIFY2(r.key.rfind("offline_job", 0) != 0, r.key.c_str());
    }

    void fixedFleetsCompareTheirCapacity()
    {
        // The L4 sample's 16 replicas with no rate: each scenario's fleet is asked for the most
        // it serves within the sample's p95 targets (500 ms TTFT, 50 ms TPOT). Decode of Llama 3
        // 8B is memory-bound: an L4 streams 300 GB/s, an L40S 864 GB/s and an A100 2,039 GB/s,
        // so the L4 fleet serves the least and is not marked best.
        Plan plan = cp::test::loadSamplePlan("l4-inference-fleet.json");
        plan.inference.ratePerSecond.reset();
        plan.inference.diurnalRates.clear();
        plan.inference.replicas = 16;
        const ScenarioComparison c = compareScenarios(plan, m_catalog);
        const ComparisonRow &capacity = row(c, "capacity_within_targets");
        QCOMPARE(capacity.values.size(), c.scenarios.size());
        QVERIFY(c.scenarios.size() >= 2);
        for (std::size_t i = 0; i < c.scenarios.size(); ++i) {
            const InferenceEstimate &e = c.scenarios[i].estimate.inference;
            QVERIFY2(e.capacityWithinLimits.has_value(), c.scenarios[i].name.c_str());
            QCOMPARE(*capacity.values[i], e.capacityWithinLimits->requestsPerSecond);
            QVERIFY(*capacity.values[0] <= *capacity.values[i]);
        }
        QVERIFY(capacity.bestIndex > 0);
        // With a rate the row is not shown.
        const ScenarioComparison online
            = compareScenarios(cp::test::loadSamplePlan("l4-inference-fleet.json"), m_catalog);
        for (const ComparisonRow &r : online.rows)
            QVERIFY2(r.key != "capacity_within_targets", r.key.c_str());
    }

    void theCsvCarriesEveryWarningWhole()
    {
        // The table's Warnings cell gives the count and the start of the first warning; the
        // CSV and the JSON, where no cell is too narrow, carry every warning whole (the 4,096
        // GPU scenario's storage network warning was cut at "more than" everywhere).
        const ScenarioComparison c = compareScenarios(
            cp::test::loadSamplePlan("h100-2048-shared-cluster.json"), m_catalog);
        const ComparisonRow &warnings = row(c, "warnings");
        QCOMPARE(warnings.fullText.size(), warnings.text.size());
        bool cutAndWhole = false;
        for (std::size_t i = 0; i < warnings.text.size(); ++i) {
            // The cell's start ("N: " and the first warning up to a word) begins the whole.
            QVERIFY(warnings.text[i].empty() == warnings.wholeText(i).empty());
            if (warnings.text[i].ends_with("\u2026")
                && warnings.wholeText(i).find("not laid out in the room") != std::string::npos)
                cutAndWhole = true;
        }
        QVERIFY(cutAndWhole);
        bool inCsv = false;
        for (const std::vector<std::string> &line : comparisonTableCells(c))
            for (const std::string &cell : line)
                inCsv = inCsv || cell.find("not laid out in the room") != std::string::npos;
        QVERIFY(inCsv);
    }

    void servingCostIsRankedOverEveryGpuBought()
    {
        // The L4 sample's scenarios buy 64 GPUs each; the L40S and A100 fleets keep only a few
        // of them serving, so their cost over the serving GPUs alone is several times below the
        // L4's, while the plan pays for all 64. The time-cost plane and the star take the cost
        // over every GPU: the A100 scenario is no longer the cheapest point.
        const ScenarioComparison c
            = compareScenarios(cp::test::loadSamplePlan("l4-inference-fleet.json"), m_catalog);
        QCOMPARE(c.scenarios.size(), std::size_t(3));
        const ComparisonRow &serving = row(c, "cost_per_m_output_usd");
        const ComparisonRow &everyGpu = row(c, "cost_per_m_output_all_gpus_usd");
        QVERIFY(*serving.values[2] < *serving.values[0]); // flattered by its idle GPUs
        QCOMPARE(serving.bestIndex, -1);
        QVERIFY(*everyGpu.values[2] > *everyGpu.values[0]);
        QVERIFY(c.paretoPoints[0] && c.paretoPoints[2]);
        QVERIFY(c.paretoPoints[2]->second > c.paretoPoints[0]->second);
        QVERIFY(c.paretoCostLabel.find("all GPUs") != std::string::npos);
        // The DeepSeek-V3 sample's vLLM 0.6 scenario caches every head's K/V and needs a larger
        // fleet than the plan's 32 GPUs: it has no cost over the plan's GPUs, so no point on
        // the plane (its fleet's own cost, beside the baseline's over 32 GPUs, mixed measures).
        const ScenarioComparison deepseek = compareScenarios(
            cp::test::loadSamplePlan("h200-deepseek-v3-serving.json"), m_catalog);
        QCOMPARE(deepseek.scenarios.size(), std::size_t(2));
        QVERIFY(deepseek.scenarios[1].estimate.inference.fleetGpus() > 32);
        QVERIFY(deepseek.paretoPoints[0].has_value());
        QVERIFY(!deepseek.paretoPoints[1].has_value());
        QVERIFY(!deepseek.dominatedOnPlane(1));
        // Each scenario's warnings are in the table, not only on selecting it: the L40S and
        // A100 fleets (16 x 4 and 8 x 8 = 64 GPUs) leave most of their GPUs idle, and the L4
        // baseline's 64 one GPU replicas carry the 50 requests/s with fewer than all of them.
        const auto warnings
            = std::find_if(c.rows.begin(), c.rows.end(),
                           [](const ComparisonRow &r) { return r.key == "warnings"; });
        QVERIFY(warnings != c.rows.end());
        const ComparisonRow &replicas = row(c, "replicas");
        QVERIFY(*replicas.values[0] < 64);
        QVERIFY2(warnings->text[0].rfind("1: the load keeps "
                                             + std::to_string(static_cast<int>(*replicas.values[0]))
                                             + " of the plan's 64 GPUs busy",
                                         0)
                     == 0,
                 warnings->text[0].c_str());
        for (std::size_t i : {1u, 2u})
            QVERIFY2(warnings->text[i].rfind("1: the load keeps ", 0) == 0
                         && warnings->text[i].find(" of the plan's 64 GPUs busy")
                             != std::string::npos,
                     warnings->text[i].c_str());
    }

    void latentCacheScenarioHoldsMoreSequences()
    {
        // The DeepSeek-V3 sample: 8 H200s a replica, FP8 weights (78.1 GiB, 83.9 GB a GPU) and
        // an FP8 cache, 2,000 + 1,000 tokens. vLLM 0.7 keeps 61 x 576 B = 35,136 B a token on
        // each rank, 105 MB a sequence: the 256 of max_num_seqs fit. vLLM 0.6 keeps every head's
        // key and value, 61 x 2 x 16 heads x 192 B = 374,784 B a token on each rank, 1.124 GB a
        // sequence: 0.9 x 150.76 GB - 83.9 GB of weights - 8.4 MB of chunk workspace leave room
        // for 46. The baseline then needs fewer replicas for the same rate, and its cost per
        // million tokens is the lower.
        const ScenarioComparison c = compareScenarios(
            cp::test::loadSamplePlan("h200-deepseek-v3-serving.json"), m_catalog);
        QCOMPARE(c.scenarios.size(), std::size_t(2));
        QVERIFY(c.scenarios[0].ok && c.scenarios[1].ok);
        QCOMPARE(*row(c, "max_batch").values[0], 256.0);
        QCOMPARE(*row(c, "max_batch").values[1], 46.0);
        QVERIFY(*row(c, "replicas").values[0] < *row(c, "replicas").values[1]);
        // vLLM 0.6's fleet needs 40 GPUs of the plan's 32 (aFleetThePlanCannotHoldIsNotStarred):
        // with one option on offer no cost row stars either (the baseline's 3.45 against 4.12
        // USD over every GPU had been starred beside a fleet the plan cannot hold).
        QCOMPARE(row(c, "cost_per_m_output_all_gpus_usd").bestIndex, -1);
        QCOMPARE(row(c, "cost_per_m_output_usd").bestIndex, -1);
        // The count of replicas itself is not starred: a replica's GPUs and load can differ.
        QCOMPARE(row(c, "replicas").bestIndex, -1);
    }

    void deepSeekTrainingSampleComparesDispatchers()
    {
        // The DeepSeek-V3 training sample fixes the benchmark's layout, named in full with its
        // stage sizes ('Et|(tt|)*30mL' on PP 8 x VP 4: 7, 8 x 6, 6 layers). 14.8 T
        // tokens at the baseline's throughput give its training days. DeepEP sends a token once
        // per destination GPU and node instead of each of its eight copies, so the all-to-all
        // scenario is slower; without the MTP block the step runs a layer, a projection and a
        // set of logits less on the last stage, so it is faster.
        const ScenarioComparison c = compareScenarios(
            cp::test::loadSamplePlan("h100-1024-deepseek-v3-training.json"), m_catalog);
        QCOMPARE(c.scenarios.size(), std::size_t(3));
        for (const ScenarioResult &scenario : c.scenarios)
            QVERIFY2(scenario.ok && scenario.estimate.training.found, scenario.name.c_str());
        QCOMPARE(
            row(c, "layout").text[0],
            std::string("TP 2 x PP 8 x DP 64, EP 64 x ETP 1, microbatch 1, interleave 4, 7 layers "
                        "on the first stage and 6 on the last, recompute selective (mla_up_proj, "
                        "mlp), ZeRO-1"));
        const TrainingEstimate &baseline = c.scenarios[0].estimate.training.best;
        QVERIFY(
            qAbs(*row(c, "training_days").values[0] - 14.8e12 / baseline.tokensPerSecond / 86400.0)
            < 1e-6 * *row(c, "training_days").values[0]);
        QVERIFY(c.scenarios[1].estimate.training.best.tokensPerSecond < baseline.tokensPerSecond);
        QVERIFY(c.scenarios[2].estimate.training.best.tokensPerSecond > baseline.tokensPerSecond);
        // The slower all-to-all run draws the least power on average (its GPUs wait on the
        // network) but uses the most energy: its average power is not starred as a merit.
        const ComparisonRow &power = row(c, "run_power_kw");
        QVERIFY(*power.values[1] < *power.values[0]);
        QCOMPARE(power.bestIndex, -1);
        QVERIFY(*row(c, "energy_mwh").values[1] > *row(c, "energy_mwh").values[0]);
    }

    void anFp8WorkloadShowsTheFp8Peak()
    {
        // The DeepSeek-V3 training sample trains in FP8 on 1,024 H100s: 1,024 x 1,978.9 TFLOP/s
        // dense FP8 (the datasheet's 3,958 with sparsity, halved) = 2,026.4 PFLOP/s, beside the
        // 1,024 x 989.4 = 1,013.1 of BF16 that was the only peak the comparison gave.
        const ScenarioComparison training = compareScenarios(
            cp::test::loadSamplePlan("h100-1024-deepseek-v3-training.json"), m_catalog);
        const ComparisonRow &fp8 = row(training, "peak_fp8_pflops");
        for (const std::optional<double> &value : fp8.values)
            QCOMPARE(qRound(*value * 10), 20264);
        QCOMPARE(qRound(*row(training, "peak_pflops").values[0] * 10), 10131);
        // The L4 fleet serves FP8 weights: 64 L4s at 242 TFLOP/s dense FP8 (the datasheet's 485
        // with sparsity, halved) = 15.49 PFLOP/s and 16 x 4 L40S at 733 = 46.9. The A100 has no FP8
        // tensor cores and computes those weights in FP16, so its FP8 peak does not apply to it (—
        // in the table), not 0.
        const ScenarioComparison serving
            = compareScenarios(cp::test::loadSamplePlan("l4-inference-fleet.json"), m_catalog);
        const ComparisonRow &servingFp8 = row(serving, "peak_fp8_pflops");
        QCOMPARE(qRound(*servingFp8.values[0] * 100), 1549);
        QCOMPARE(qRound(*servingFp8.values[1] * 10), 469);
        QVERIFY(!servingFp8.values[2].has_value());
        // A BF16 plan has no such row.
        const ScenarioComparison bf16 = compareScenarios(
            cp::test::loadSamplePlan("h100-1024-ndr-rail-fat-tree.json"), m_catalog);
        QVERIFY(std::none_of(bf16.rows.begin(), bf16.rows.end(),
                             [](const ComparisonRow &r) { return r.key == "peak_fp8_pflops"; }));
    }

    void campusScenariosCompareWholeCampuses()
    {
        // The sample as 4 buildings at 20 USD per Gb/s of 100 Tb/s each, against a scenario of
        // 8: the comparison counts every building, so the GPUs double (4,096 -> 8,192), the
        // switches double (4 and 8 x 48) and the capital is each scenario's campus total, the
        // buildings' capital plus its interconnect (8 and 16 million USD).
        Plan plan = m_sample;
        plan.campus.buildings = 4;
        plan.campus.interconnectBytesPerSecondPerBuilding = 100e12 / 8;
        plan.campus.usdPerGbps = 20;
        plan.scenarios.push_back({"8 buildings", {{"campus", {{"buildings", 8}}}}});
        const ScenarioComparison c = compareScenarios(plan, m_catalog, {});
        QVERIFY(c.scenarios[0].ok && c.scenarios[1].ok);
        QCOMPARE(*row(c, "gpus").values[0], 4096.0);
        QCOMPARE(*row(c, "gpus").values[1], 8192.0);
        // The table says its rows are campus totals, and of how many buildings.
        QCOMPARE(*row(c, "buildings").values[0], 4.0);
        QCOMPARE(*row(c, "buildings").values[1], 8.0);
        QCOMPARE(*row(c, "switches").values[0], 4.0 * 48);
        QCOMPARE(*row(c, "switches").values[1], 8.0 * 48);
        // Each campus also buys its training run's hot spares (campus.sparesUsd).
        const double building = c.scenarios[0].estimate.capitalCostUsd;
        const double spares4 = c.scenarios[0].estimate.campus->sparesUsd;
        const double spares8 = c.scenarios[1].estimate.campus->sparesUsd;
        QVERIFY(spares4 > 0 && spares8 >= spares4);
        QVERIFY(qAbs(*row(c, "capital_usd").values[0] - (4 * building + 8e6 + spares4)) < 1e-3);
        QVERIFY(qAbs(*row(c, "capital_usd").values[1] - (8 * building + 16e6 + spares8)) < 1e-3);
    }

    void unbuildableFabricIsAnErrorNotZero()
    {
        // 2,048 DGX H100 keep the sample's "tiers: 2": 16,384 servers x 8 NICs = 131,072
        // endpoints, but two tiers of 64-port switches join at most 64 leaves of 32 down-ports
        // (2,048 endpoints). The scenario's network is unknown, never "0 switches, best of row".
        const Plan plan = withScenario(
            "16k",
            {{"nodes", {{{"name", "compute"}, {"node", "dgx-h100"}, {"count", 2048}}}},
             {"fabric", {{"topology", "fat-tree"}, {"tiers", 2}}}});
        const ScenarioComparison c = compareScenarios(plan, m_catalog);
        QVERIFY(c.scenarios[1].ok);
        QVERIFY2(c.scenarios[1].estimate.fabricError.find("tiers") != std::string::npos,
                 c.scenarios[1].estimate.fabricError.c_str());
        for (const char *key : {"switches", "cables", "it_power_kw", "capital_usd"}) {
            QVERIFY2(!row(c, key).values[1].has_value(), key);
            QVERIFY2(row(c, key).bestIndex != 1, key);
        }
        QVERIFY(!row(c, "fabric_error").text[1].empty());
        QVERIFY(row(c, "fabric_error").text[0].empty());
        // No training step is estimated on a fabric that does not exist.
        QVERIFY(!row(c, "step_s").values[1].has_value());
        QVERIFY(row(c, "layout").text[1].find("fabric cannot be built") != std::string::npos);
    }

    void aFleetThePlanCannotHoldIsNotStarred()
    {
        // The DeepSeek-V3 serving sample: 4 HGX H200 (32 GPUs) at 3 requests/s. Its vLLM 0.6
        // scenario caches every head's K/V and needs 40 GPUs: shown with its warning, but its
        // figures are not on offer in this plan, so no row stars it (its time per output
        // token had the row's star).
        const Plan plan
            = loadPlan(CP_SOURCE_DIR "/samples/h200-deepseek-v3-serving.json", &m_catalog);
        const ScenarioComparison c = compareScenarios(plan, m_catalog);
        QCOMPARE(c.scenarios.size(), std::size_t(2));
        QVERIFY(c.scenarios[1].ok);
        QCOMPARE(c.scenarios[1].estimate.gpus, 32LL);
        QVERIFY(c.scenarios[1].estimate.inference.fleetGpus() > 32);
        QVERIFY(c.scenarios[0].estimate.inference.fleetGpus() <= 32);
        bool compared = false;
        for (const ComparisonRow &r : c.rows)
            if (!r.isText() && r.values.size() == 2 && r.values[0] && r.values[1]) {
                QVERIFY2(r.bestIndex != 1, r.key.c_str());
                compared = true;
            }
        QVERIFY(compared);
        QVERIFY(row(c, "tpot_ms").values[1].has_value()); // shown, not starred
        // The time per output token is the mean, said so, beside the p95 the target is set on
        // (the baseline's fleet is under a load of 3 requests/s: its p95 step is at least the
        // mean one).
        QCOMPARE(row(c, "tpot_ms").label, std::string("Time per output token (mean)"));
        QCOMPARE(row(c, "tpot_p95_ms").label, std::string("TPOT (p95 under load)"));
        QVERIFY(*row(c, "tpot_p95_ms").values[0] >= *row(c, "tpot_ms").values[0]);
        // Its cost "over every GPU of the plan" was its own 40 GPUs' figure, for a plan of 32:
        // there is none, as the plan cannot hold the fleet. The baseline's is there.
        QVERIFY(!row(c, "cost_per_m_output_all_gpus_usd").values[1].has_value());
        QVERIFY(row(c, "cost_per_m_output_all_gpus_usd").values[0].has_value());

        // FP16 weights of DeepSeek-V3 (671 B parameters, 1.34 TB) do not fit 8 H200 of 141 GB:
        // its largest batch is none ("-", it read 0) and its warnings say why it cannot run.
        Plan fp16 = plan;
        fp16.scenarios = {{"FP16", {{"workload", {{"precision", "fp16"}}}}}};
        const ScenarioComparison half = compareScenarios(fp16, m_catalog);
        QVERIFY(!half.scenarios[1].estimate.inference.fits);
        QVERIFY(!row(half, "max_batch").values[1].has_value());
        QVERIFY(row(half, "max_batch").values[0].has_value());
        const std::vector<std::string> &warnings = half.scenarios[1].estimate.warnings;
        QVERIFY(std::any_of(warnings.begin(), warnings.end(), [](const std::string &w) {
            return w.rfind("the serving workload cannot run as asked: needs ", 0) == 0;
        }));
    }

    void cabinetsCountServersAndNetwork()
    {
        // The sample's 43 server cabinets, 7 network cabinets and 1 storage cabinet (derived in
        // tst_datahall); a
        // scenario of 4 DGX per cabinet needs 32 (128 / 4) server cabinets for the same network.
        const Plan plan = withScenario("dense",
                                       {{"nodes",
                                         {{{"name", "compute"},
                                           {"node", "dgx-h100"},
                                           {"count", 128},
                                           {"rack", "rack-air-40kw"},
                                           {"nodes_per_rack", 4}}}}});
        const ScenarioComparison c = compareScenarios(plan, m_catalog);
        QCOMPARE(*row(c, "cabinets").values[0], 51.0);
        QCOMPARE(*row(c, "cabinets").values[1] - c.scenarios[1].estimate.networkCabinets
                     - c.scenarios[1].estimate.storageCabinets,
                 32.0);
    }

    void bestMarksSingleOutOneOption()
    {
        std::vector<ScenarioResult> results(3);
        const double capital[] = {3e6, 1e6, 2e6};
        for (int i = 0; i < 3; ++i) {
            results[i].ok = true;
            results[i].name = "s" + std::to_string(i);
            results[i].estimate.capitalCostUsd = capital[i];
            results[i].estimate.peakDenseFlopsPerSecond = 1e18; // the same everywhere
        }
        results[2].estimate.peakDenseFlopsPerSecond = 1e18 * (1 + 5e-3); // within 1%: a tie
        const std::vector<ComparisonRow> rows = comparisonRows(results);
        const auto find = [&](const std::string &key) {
            return *std::find_if(rows.begin(), rows.end(),
                                 [&](const ComparisonRow &r) { return r.key == key; });
        };
        QCOMPARE(find("capital_usd").bestIndex, 1);
        QVERIFY(find("capital_usd").differs);
        QCOMPARE(find("peak_pflops").bestIndex, -1);
        QCOMPARE(*find("peak_pflops").values[0], 1000.0); // 1e18 FLOP/s = 1000 PFLOP/s
        // 2% apart is a difference the star names.
        results[2].estimate.peakDenseFlopsPerSecond = 1.02e18;
        const std::vector<ComparisonRow> apart = comparisonRows(results);
        QCOMPARE(std::find_if(apart.begin(), apart.end(),
                              [](const ComparisonRow &r) { return r.key == "peak_pflops"; })
                     ->bestIndex,
                 2);
        // A plan without a training workload has no training rows.
        QVERIFY(std::none_of(rows.begin(), rows.end(),
                             [](const ComparisonRow &r) { return r.key == "step_s"; }));
    }

    void stepsOfDifferentWorkAreNotRanked()
    {
        // Three training variants on 128 GPUs (TP 8 x DP 16), 8,192-token sequences:
        // s0: 512 sequences a step (4,194,304 tokens) in 2.0 s at 400 TFLOP/s of model FLOPs a
        //     GPU: 400e12 x 2 x 128 = 1.024e17 FLOPs a step, 1.024e17 / 4,194,304 = 24,414,062,500
        //     FLOPs a token, 2,097,152 tokens/s.
        // s1: the same model at twice the global batch: 8,388,608 tokens in 3.9 s, 2,150,925.1
        //     tokens/s, so 24,414,062,500 x 8,388,608 / 3.9 / 128 = 1.6e15 / 3.9 = 410.26 TFLOP/s a
        //     GPU. Its step is twice the work: a longer step is no worse, and is not ranked; its
        //     tokens are the same work as s0's, so throughput still is (s1 is faster).
        // s2: s0's layout and step on a model of twice the FLOPs a token (800 TFLOP/s a GPU would
        //     be impossible; the test needs only the ratio): 1,048,576 tokens/s.
        const auto variant = [](double stepSeconds, double tokensPerStep, double flopsPerToken) {
            ScenarioResult result;
            result.ok = true;
            result.estimate.hasTraining = true;
            result.estimate.training.found = true;
            TrainingEstimate &t = result.estimate.training.best;
            t.config.tp = 8;
            t.config.dp = 16;
            t.stepSeconds = stepSeconds;
            t.breakdown.computeSeconds = stepSeconds;
            t.tokensPerSecond = tokensPerStep / stepSeconds;
            t.modelFlopsPerSecondPerGpu = flopsPerToken * t.tokensPerSecond / 128;
            return result;
        };
        const double flopsPerToken = 24414062500.0;
        std::vector<ScenarioResult> results
            = {variant(2.0, 4194304, flopsPerToken), variant(3.9, 8388608, flopsPerToken)};
        QCOMPARE(results[1].estimate.training.best.modelFlopsPerSecondPerGpu / 1e12, 1600.0 / 3.9);
        const auto find = [](const std::vector<ComparisonRow> &rows, const std::string &key) {
            return *std::find_if(rows.begin(), rows.end(),
                                 [&](const ComparisonRow &r) { return r.key == key; });
        };
        std::vector<ComparisonRow> rows = comparisonRows(results);
        QVERIFY(find(rows, "step_s").differs);
        QCOMPARE(find(rows, "step_s").bestIndex, -1);
        QCOMPARE(find(rows, "step_compute_s").bestIndex, -1);
        QVERIFY(!find(rows, "step_s").notRankedBecause.empty());
        QCOMPARE(find(rows, "tokens_per_s").bestIndex, 1);
        QVERIFY(find(rows, "tokens_per_s").notRankedBecause.empty());
        std::vector<std::string> notes = notRankedNotes(rows);
        QCOMPARE(notes.size(), std::size_t(1));
        QCOMPARE(notes[0],
                 std::string("Step time, compute, exposed communication and pipeline bubble are "
                             "not ranked: the scenarios' steps are different amounts of work (the "
                             "model, sequence length or global batch differs); compare the time "
                             "to train."));

        // The same work in a longer step is worse, and marked so: s0 is best.
        results[1] = variant(2.2, 4194304, flopsPerToken);
        rows = comparisonRows(results);
        QCOMPARE(find(rows, "step_s").bestIndex, 0);
        QVERIFY(notRankedNotes(rows).empty());

        // A model twice the work a token: its tokens are not ranked against s0's.
        results[1] = variant(2.0, 4194304, 2 * flopsPerToken);
        rows = comparisonRows(results);
        QCOMPARE(find(rows, "tokens_per_s").bestIndex, -1);
        QCOMPARE(find(rows, "step_s").bestIndex, -1); // equal times, but not equal work
        notes = notRankedNotes(rows);
        QCOMPARE(notes.size(), std::size_t(2));
        QVERIFY2(notes[1].starts_with("Throughput is not ranked: the scenarios' tokens are"),
                 notes[1].c_str());
    }

    void operationsLineUpScenarioByScenario()
    {
        // s0 trains with A 1 s, B 2 s, C 0.5 s; s1 with A 1.5 s, X 0.2 s, B 1 s and B again
        // 0.5 s (one name twice adds up: 1.5 s), no C; s2 serves. By hand: the names merge to
        // A, X, B, C (X where s1 runs it, between A and B); totals 3,500 and 3,200 ms.
        const auto op = [](const char *name, double seconds) {
            StepOperation operation;
            operation.name = name;
            operation.seconds = seconds;
            return operation;
        };
        std::vector<ScenarioResult> results(3);
        for (ScenarioResult &r : results)
            r.ok = true;
        for (int i : {0, 1}) {
            results[i].estimate.hasTraining = true;
            results[i].estimate.training.found = true;
        }
        StepOperations &first = results[0].estimate.training.best.operations;
        first.add(op("A", 1.0));
        first.add(op("B", 2.0));
        first.add(op("C", 0.5));
        StepOperations &second = results[1].estimate.training.best.operations;
        second.add(op("A", 1.5));
        second.add(op("X", 0.2));
        second.add(op("B", 1.0));
        second.add(op("B", 0.5));
        // s2: a 10 ms prefill, a decode step of 5 + 3 ms carrying 16 sequences over 2 stages (8
        // a stage), TTFT p95 30 ms and TPOT 12 ms under its load.
        InferenceEstimate &serving = results[2].estimate.inference;
        results[2].estimate.hasInference = true;
        serving.prefillOperations.add(op("P", 0.010));
        serving.decodeOperations.add(op("D1", 0.005));
        serving.decodeOperations.add(op("D2", 0.003));
        serving.batch = 16;
        serving.pipelineStages = 2;
        serving.ttftSeconds = 0.030;
        serving.tpotSeconds = 0.012;
        const std::vector<OperationComparisonRow> rows = compareOperations(results);
        using Values = std::vector<std::optional<double>>;
        const auto expect
            = [&](std::size_t index, const char *phase, const char *label, const Values &values) {
                  QVERIFY2(index < rows.size(), label);
                  QCOMPARE(rows[index].phase, std::string(phase));
                  QCOMPARE(rows[index].label, std::string(label));
                  QCOMPARE(rows[index].values.size(), values.size());
                  for (std::size_t i = 0; i < values.size(); ++i) {
                      QCOMPARE(rows[index].values[i].has_value(), values[i].has_value());
                      if (values[i])
                          QVERIFY2(std::abs(*rows[index].values[i] - *values[i]) < 1e-9, label);
                  }
              };
        const auto none = std::nullopt;
        expect(0, "Training step", "total", {3500.0, 3200.0, none});
        QVERIFY(rows[0].total);
        expect(1, "Training step", "A", {1000.0, 1500.0, none});
        expect(2, "Training step", "X", {none, 200.0, none});
        expect(3, "Training step", "B", {2000.0, 1500.0, none});
        expect(4, "Training step", "C", {500.0, none, none});
        expect(5, "Prefill of one prompt", "total", {none, none, 10.0});
        expect(6, "Prefill of one prompt", "TTFT p95 under load", {none, none, 30.0});
        QVERIFY(rows[6].figure && !rows[6].total);
        expect(7, "Prefill of one prompt", "P", {none, none, 10.0});
        expect(8, "Decode step", "sequences in the step", {none, none, 8.0});
        QCOMPARE(rows[8].unit, std::string("sequences"));
        expect(9, "Decode step", "total", {none, none, 8.0});
        expect(10, "Decode step", "time per output token under load", {none, none, 12.0});
        expect(11, "Decode step", "D1", {none, none, 5.0});
        expect(12, "Decode step", "D2", {none, none, 3.0});
        QCOMPARE(rows.size(), std::size_t(13));
        // A serving plan no fleet serves as asked (no batch meets its targets) keeps its
        // operations, but no TTFT or TPOT under a load it does not carry.
        serving.replicas = 0;
        const std::vector<OperationComparisonRow> unserved = compareOperations(results);
        QVERIFY(unserved[5].values[2].has_value()); // the prefill's total
        QVERIFY(!unserved[6].values[2].has_value()); // TTFT p95 under load
        QVERIFY(!unserved[10].values[2].has_value()); // time per output token under load
        QVERIFY(unserved[8].values[2].has_value()); // sequences in the step
        // A scenario that could not be estimated has no figures at all.
        results[1].ok = false;
        QVERIFY(!compareOperations(results)[2].values[1].has_value());
    }

    void anOperationRepeatedFurtherOnKeepsTheOrder()
    {
        // A step that runs S twice, apart (an MoE layer's dense-layer and shared-expert
        // activations once had one name): A 1, S 2, B 3, S 4, C 5 ms. Its rows keep the step's
        // order, A, S (2 + 4 = 6 ms), B, C; C once went before B, back at S's first place. A
        // second scenario's X between A and S goes there.
        const auto op = [](const char *name, double milliseconds) {
            StepOperation operation;
            operation.name = name;
            operation.seconds = milliseconds / 1e3;
            return operation;
        };
        std::vector<ScenarioResult> results(2);
        for (ScenarioResult &r : results) {
            r.ok = true;
            r.estimate.hasTraining = true;
            r.estimate.training.found = true;
        }
        StepOperations &first = results[0].estimate.training.best.operations;
        for (const auto &[name, ms] :
             {std::pair {"A", 1.0}, {"S", 2.0}, {"B", 3.0}, {"S", 4.0}, {"C", 5.0}})
            first.add(op(name, ms));
        StepOperations &second = results[1].estimate.training.best.operations;
        for (const auto &[name, ms] :
             {std::pair {"A", 1.0}, {"X", 1.0}, {"S", 2.0}, {"B", 3.0}, {"C", 5.0}})
            second.add(op(name, ms));
        const std::vector<OperationComparisonRow> rows = compareOperations(results);
        QCOMPARE(rows.size(), std::size_t(6));
        const char *order[] = {"total", "A", "X", "S", "B", "C"};
        for (std::size_t i = 0; i < rows.size(); ++i)
            QCOMPARE(rows[i].label, std::string(order[i]));
        QVERIFY(std::abs(*rows[3].values[0] - 6.0) < 1e-9);
        QVERIFY(!rows[2].values[0].has_value());
    }

    void tablesShowEachRowInAReadableUnit()
    {
        const auto row = [](const std::string &unit, std::vector<std::optional<double>> values) {
            ComparisonRow made {"key", "Section", "Label", unit, Preference::Lower, {}, {}};
            made.values = std::move(values);
            made.bestIndex = 1;
            return made;
        };
        // A two-hour run: 0.084 days is 0.084 x 24 = 2.016 h, 0.09 days 2.16 h; a missing
        // value stays missing and the best scenario stays the best.
        ComparisonRow hours = inReadableUnit(row("days", {0.084, 0.09, std::nullopt}));
        QCOMPARE(hours.unit, std::string("h"));
        QVERIFY(std::abs(*hours.values[0] - 2.016) < 1e-9);
        QVERIFY(std::abs(*hours.values[1] - 2.16) < 1e-9);
        QVERIFY(!hours.values[2]);
        QCOMPARE(hours.bestIndex, 1);
        // A queue wait of 0.127 h is 7.62 min.
        ComparisonRow minutes = inReadableUnit(row("h", {0.127, 0.051}));
        QCOMPARE(minutes.unit, std::string("min"));
        QVERIFY(std::abs(*minutes.values[0] - 7.62) < 1e-9);
        QCOMPARE(inReadableUnit(row("h", {0.5, 3.0})).unit, std::string("h"));
        // Step times under a second read in milliseconds: 0.08129 s is 81.29 ms.
        ComparisonRow milliseconds = inReadableUnit(row("s", {0.08129, 0.0062}));
        QCOMPARE(milliseconds.unit, std::string("ms"));
        QVERIFY(std::abs(*milliseconds.values[0] - 81.29) < 1e-9);
        QCOMPARE(inReadableUnit(row("s", {0.5, 3.3})).unit, std::string("s"));
        // 19.4 days stays in days: the largest value decides for the row.
        QCOMPARE(inReadableUnit(row("days", {1.5, 19.4})).unit, std::string("days"));
        // 181,861.9 kW is 181.8619 MW; the 1,401.8 kW beside it reads 1.4018 MW.
        ComparisonRow megawatts = inReadableUnit(row("kW", {181861.9, 1401.8}));
        QCOMPARE(megawatts.unit, std::string("MW"));
        QVERIFY(std::abs(*megawatts.values[1] - 1.4018) < 1e-9);
        QCOMPARE(inReadableUnit(row("kW", {9999.0})).unit, std::string("kW"));
        // $55,012,345 is 55.012345 M USD; $850,000 beside nothing larger is 850 k USD.
        ComparisonRow millions = inReadableUnit(row("USD", {55012345.0, 700000.0}));
        QCOMPARE(millions.unit, std::string("M USD"));
        QVERIFY(std::abs(*millions.values[0] - 55.012345) < 1e-9);
        ComparisonRow thousands = inReadableUnit(row("USD", {850000.0}));
        QCOMPARE(thousands.unit, std::string("k USD"));
        QVERIFY(std::abs(*thousands.values[0] - 850.0) < 1e-9);
        QCOMPARE(inReadableUnit(row("USD", {9999.0})).unit, std::string("USD"));
        // The million-GPU campus's $60,260 M of hardware is 60.26 B USD (it read "60,260" M).
        ComparisonRow billions = inReadableUnit(row("USD", {60.26e9, 7.53e9}));
        QCOMPARE(billions.unit, std::string("B USD"));
        QVERIFY(std::abs(*billions.values[1] - 7.53) < 1e-9);
        QCOMPARE(inReadableUnit(row("USD", {9.999e9})).unit, std::string("M USD"));
        // 12,345 MWh is 12.345 GWh; 64,000 TB is 64 PB; 2.2e6 tokens/s is 2.2 M tokens/s and
        // 12,000 is 12 k; 9,999 tokens/s and a unit without a larger one stay.
        QCOMPARE(inReadableUnit(row("MWh", {12345.0})).unit, std::string("GWh"));
        QCOMPARE(*inReadableUnit(row("TB", {64000.0})).values[0], 64.0);
        ComparisonRow mega = inReadableUnit(row("tokens/s", {2.2e6}));
        QCOMPARE(mega.unit, std::string("M tokens/s"));
        QVERIFY(std::abs(*mega.values[0] - 2.2) < 1e-12);
        QCOMPARE(inReadableUnit(row("tokens/s", {12000.0})).unit, std::string("k tokens/s"));
        QCOMPARE(inReadableUnit(row("tokens/s", {9999.0})).unit, std::string("tokens/s"));
        QCOMPARE(inReadableUnit(row("GPU-h", {2.2e6})).unit, std::string("GPU-h"));
        // The million-GPU campus's 63,813,537 GPU-hours read as 63.81 M GPU-h.
        ComparisonRow gpuHours = inReadableUnit(row("GPU-h", {63813537.0}));
        QCOMPARE(gpuHours.unit, std::string("M GPU-h"));
        QVERIFY(std::abs(*gpuHours.values[0] - 63.813537) < 1e-9);
        // A million H100 at 989.4 TFLOP/s: 1,037,461 PFLOP/s is 1,037.461 EFLOP/s.
        ComparisonRow exa = inReadableUnit(row("PFLOP/s", {1037461.0, 1013.0}));
        QCOMPARE(exa.unit, std::string("EFLOP/s"));
        QVERIFY(std::abs(*exa.values[0] - 1037.461) < 1e-9);
        QCOMPARE(inReadableUnit(row("PFLOP/s", {1013.0})).unit, std::string("PFLOP/s"));
        // A row with no value at all is left as it is.
        QCOMPARE(inReadableUnit(row("days", {std::nullopt})).unit, std::string("days"));
    }

    void paretoFrontByHand()
    {
        using P = std::optional<std::pair<double, double>>;
        const std::vector<P> points
            = {P({1, 5}), P({2, 3}), P({3, 4}), P({2, 3}), std::nullopt, P({4, 1})};
        const std::vector<bool> dominated = paretoDominated(points);
        // (3,4) is worse than (2,3) in both; equal points do not dominate each other; a missing
        // point is never on the front.
        QVERIFY(dominated == std::vector<bool>({false, false, true, false, true, false}));
    }

    void sharesByHand()
    {
        StepBreakdown b;
        b.computeSeconds = 1.0;
        b.memoryBoundSeconds = 0.2;
        b.optimizerSeconds = 0.05;
        b.tpCommSeconds = 0.1;
        b.ppCommSeconds = 0.02;
        b.dpCommExposedSeconds = 0.03;
        b.bubbleSeconds = 0.4;
        const StepTimeShares s = stepTimeShares(b);
        QCOMPARE(s.computeSeconds, 1.25);
        QCOMPARE(s.communicationSeconds, 0.15);
        QCOMPARE(s.bubbleSeconds, 0.4);
        PowerBreakdown p;
        p.gpusWatts = 100e3;
        p.nodesWatts = 50e3;
        p.networkWatts = 30e3;
        p.storageWatts = 20e3;
        p.pue = 1.5;
        // Cooling and losses: IT 200 kW x (1.5 - 1) = 100 kW.
        QCOMPARE(powerShares(p).coolingWatts, 100e3);
    }

    void csvQuotingFollowsRfc4180()
    {
        const CsvRows rows = {{"a", "b,c", "say \"hi\""}, {"line\nbreak", "", "end"}};
        const std::string text = toCsv(rows);
        QCOMPARE(text, std::string("a,\"b,c\",\"say \"\"hi\"\"\"\r\n\"line\nbreak\",,end\r\n"));
        QVERIFY(parseCsv(text) == rows);
        QVERIFY(parseCsv("x,y\ny,z") == CsvRows({{"x", "y"}, {"y", "z"}}));
        try {
            parseCsv("a,\"open\n", "t.csv");
            QFAIL("an unclosed quote was accepted");
        } catch (const InputError &error) {
            QCOMPARE(error.file(), std::string("t.csv"));
            QCOMPARE(error.reason(), std::string("a quoted field is not closed"));
        }
        QVERIFY_THROWS_EXCEPTION(InputError, parseCsv("a\"b\r\n"));
        QCOMPARE(csvNumber(500000), std::string("500000"));
        QCOMPARE(csvNumber(0.1), std::string("0.1"));
        QCOMPARE(csvNumber(53312800), std::string("53312800"));
        QCOMPARE(csvNumber(1e20), std::string("1e+20"));
    }

    void csvKeepsSpreadsheetsFromRunningNames()
    {
        // A scenario named "=1+1" in a plan someone sent would run as a formula when the CSV is
        // opened; a leading apostrophe shows it as text. Numbers, "-" (a missing value) and text
        // starting otherwise are written as they are.
        const CsvRows rows
            = {{"=1+1", "@SUM(A1)", "+cmd", "-2+3", "\tx"}, {"-1.5", "+2", "-", "a=b", "1e-3"}};
        QCOMPARE(toCsv(rows),
                 std::string("'=1+1,'@SUM(A1),'+cmd,'-2+3,'\tx\r\n-1.5,+2,-,a=b,1e-3\r\n"));
    }

    void mfuIsRankedOnlyOverOnePeak()
    {
        // The H100's dense peak is 989 TFLOP/s in BF16 and 1,979 in FP8 (datasheet): the FP8
        // scenario's MFU is a share of twice the baseline's peak, so a lower MFU can be the
        // faster run, and the star went to BF16's higher MFU beside FP8's higher throughput.
        const Plan plan = withScenario("fp8", {{"workload", {{"precision", "fp8"}}}});
        const ScenarioComparison c = compareScenarios(plan, m_catalog);
        const ComparisonRow &mfu = row(c, "mfu_pct");
        QCOMPARE(mfu.bestIndex, -1);
        QVERIFY(mfu.notRankedBecause.find("its own GPU's dense peak") != std::string::npos);
        // Tokens of the same model are the same work: throughput is still ranked, FP8 first.
        const ComparisonRow &tokens = row(c, "tokens_per_s");
        QCOMPARE(tokens.bestIndex, 1);
        QVERIFY(*tokens.values[1] > *tokens.values[0]);
        // Over one peak MFU is ranked as before: a global batch of 128 sequences on 1,024 GPUs
        // leaves each of them too little work, and the baseline's higher MFU has the star.
        const ScenarioComparison same = compareScenarios(
            withScenario("batch 128", {{"workload", {{"global_batch", 128}}}}), m_catalog);
        QVERIFY(row(same, "mfu_pct").notRankedBecause.empty());
        QCOMPARE(row(same, "mfu_pct").bestIndex, 0);
    }

    void tablesRoundTripThroughCsv()
    {
        const Plan plan = withScenario("fp8", {{"workload", {{"precision", "fp8"}}}});
        const ScenarioComparison c = compareScenarios(plan, m_catalog);
        const CsvRows cells = comparisonTableCells(c);
        QCOMPARE(cells.front(),
                 std::vector<std::string>({"Section", "Figure", "Unit", "Baseline", "fp8"}));
        // The figures, then where the time goes, operation by operation (FP8 adds its casts).
        QCOMPARE(cells.size(), c.rows.size() + c.operations.size() + 1);
        const auto casts = std::find_if(cells.begin(), cells.end(), [](const auto &r) {
            return r[0] == "Where the time goes: Training step" && r[1] == "FP8 casts";
        });
        QVERIFY(casts != cells.end());
        QCOMPARE((*casts)[3], std::string()); // the BF16 baseline casts nothing
        QVERIFY(std::stod((*casts)[4]) > 0);
        QVERIFY(parseCsv(toCsv(cells)) == cells);
        // Numbers read back to the estimator's doubles exactly.
        const auto days = std::find_if(cells.begin(), cells.end(), [](const auto &r) {
            return r[1] == "Training time (no failures)";
        });
        QVERIFY(days != cells.end());
        // Four significant digits: what the figure means, not the double's noise.
        const double exactDays
            = c.scenarios[1].estimate.training.best.trainingSeconds / units::secondsPerDay;
        QVERIFY(std::abs(std::stod((*days)[4]) - exactDays) <= 5e-4 * exactDays);
        QVERIFY((*days)[4].size() <= 6);
        QCOMPARE(csvFigure(0.5487360000000001), std::string("0.5487"));
        QCOMPARE(csvFigure(16.3912), std::string("16.39"));
        QCOMPARE(csvFigure(2197.4), std::string("2197"));
        QCOMPARE(csvFigure(53312800.0000001), std::string("53312800"));
        QCOMPARE(csvFigure(0.1), std::string("0.1"));
        QCOMPARE(csvFigure(std::numeric_limits<double>::infinity()), std::string());

        const CsvRows bom = billOfMaterialsCells(c.scenarios[1].estimate, c.scenarios[1].name);
        QCOMPARE(bom.back()[1], std::string("Total"));
        QCOMPARE(std::stod(bom.back()[6]), c.scenarios[1].estimate.capitalCostUsd);
        // 1024 H100 at the catalog's 30,000 USD; every line says which scenario it prices.
        QCOMPARE(bom[1],
                 std::vector<std::string>({"fp8", "GPUs", "h100-sxm5-80gb", "NVIDIA H100 SXM5 80GB",
                                           "1024", "30000", "30720000"}));
        for (std::size_t i = 1; i < bom.size(); ++i)
            QCOMPARE(bom[i][0], std::string("fp8"));
    }

    void sourcesListEveryCatalogEntryUsed()
    {
        const auto lines = catalogSourcesForPlans({m_sample}, m_catalog);
        std::vector<std::string> ids;
        for (const CatalogSourceLine &line : lines) {
            ids.push_back(line.id);
            QVERIFY2(!line.source.empty(), line.id.c_str());
        }
        for (const char *id :
             {"h100-sxm5-80gb", "dgx-h100", "ib-ndr-400", "qm9700", "rack-air-40kw",
              "lustre-exascaler", "dc-industry-average", "llama-3-70b"})
            QVERIFY2(std::find(ids.begin(), ids.end(), id) != ids.end(), id);
        // A shared cluster's pretraining and training classes name Llama 3 70B and 8B, whose
        // runtimes the training estimator gives: their sources are listed too.
        std::vector<std::string> sharedIds;
        for (const CatalogSourceLine &line : catalogSourcesForPlans(
                 {cp::test::loadSamplePlan("h100-2048-shared-cluster.json")}, m_catalog))
            sharedIds.push_back(line.id);
        for (const char *id : {"llama-3-70b", "llama-3-8b"})
            QVERIFY2(std::find(sharedIds.begin(), sharedIds.end(), id) != sharedIds.end(), id);
        // A report states the assumptions of its workload and those every plan shares.
        const auto states = [](WorkloadType workload, const std::string &start) {
            const std::vector<std::string> lines = estimateAssumptions(workload);
            return std::any_of(lines.begin(), lines.end(),
                               [&](const std::string &line) { return line.starts_with(start); });
        };
        QVERIFY(states(WorkloadType::Training, "Training FLOPs"));
        QVERIFY(!states(WorkloadType::Training, "Inference:"));
        QVERIFY(states(WorkloadType::Inference, "Inference:"));
        QVERIFY(!states(WorkloadType::Inference, "Memory: ZeRO"));
        QVERIFY(states(WorkloadType::Inference, "Power:"));
        QVERIFY(states(WorkloadType::None, "Cost:"));
        // What the power figures assume is what they do: a serving fleet's GPU-hour is priced at
        // the parts' ratings (the line said "GPUs at utilisation-dependent draw", which only a
        // training run's energy takes), and a training report says how its run's draw is taken.
        QVERIFY(states(WorkloadType::Inference, "Power: at full load every part at its rating"));
        QVERIFY(!states(WorkloadType::Inference, "A training run's energy"));
        QVERIFY(states(WorkloadType::Training, "A training run's energy: GPUs between idle"));
    }
};

QTEST_GUILESS_MAIN(TestScenarios)
#include "tst_scenarios.moc"
