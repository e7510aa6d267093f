// SPDX-License-Identifier: GPL-3.0-or-later
#include "model/catalog/catalogdatabase.h"
#include "model/core/inputerror.h"
#include "model/core/jsonfieldreader.h"
#include "model/plan/planio.h"
#include "model/plan/scenarios.h"
#include "model/planning/planworstfailure.h"
#include "testsupport.h"

#include <QDir>
#include <QTemporaryDir>
#include <QTest>

#include <chrono>
#include <csignal>
#include <filesystem>
#include <fstream>
#include <sys/resource.h>
#include <sys/stat.h>

using namespace cp::model;

namespace {
using cp::test::planLoadError;
using cp::test::shippedCatalog;

nlohmann::json sample()
{
    return readJsonFile(CP_SOURCE_DIR "/samples/h100-1024-ndr-rail-fat-tree.json");
}

void writeText(const std::string &path, const std::string &text)
{
    std::ofstream(path, std::ios::binary) << text;
}

std::string readText(const std::string &path)
{
    std::ifstream in(path, std::ios::binary);
    return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

int entriesIn(const QString &directory)
{
    int entries = 0;
    for ([[maybe_unused]] const auto &entry :
         std::filesystem::directory_iterator(directory.toStdString()))
        ++entries;
    return entries;
}

int modeOf(const std::string &path)
{
    struct stat info = {};
    ::stat(path.c_str(), &info);
    return static_cast<int>(info.st_mode & 07777);
}

} // namespace

class TestPlanIo : public QObject
{
    Q_OBJECT

private slots:
    void samplesLoad()
    {
        const QDir samples(QStringLiteral(CP_SOURCE_DIR "/samples"));
        const QStringList files = samples.entryList({QStringLiteral("*.json")});
        QVERIFY(files.size() >= 3);
        for (const QString &file : files) {
            const Plan plan = loadPlan(samples.filePath(file).toStdString(), &shippedCatalog());
            QVERIFY(!plan.name.empty());
            QVERIFY(plan.totalNodes() > 0);
        }
        const Plan h100 = parsePlan(sample(), "sample", &shippedCatalog());
        QCOMPARE(h100.totalNodes(), 128);
        QCOMPARE(h100.fabric.topology, std::string("rail-fat-tree"));
        QVERIFY(h100.workloadType == WorkloadType::Training);
        QCOMPARE(h100.training.seqLen, 8192);
        QCOMPARE(h100.training.tokens, 2e12);
    }

    void saveLoadRoundTrip()
    {
        QTemporaryDir dir;
        const QDir samples(QStringLiteral(CP_SOURCE_DIR "/samples"));
        for (const QString &file : samples.entryList({QStringLiteral("*.json")})) {
            const Plan plan = loadPlan(samples.filePath(file).toStdString(), &shippedCatalog());
            const std::string path = dir.filePath(file).toStdString();
            savePlan(plan, path);
            const Plan reloaded = loadPlan(path, &shippedCatalog());
            QVERIFY(planToJson(reloaded) == planToJson(plan));
        }
        // The canvas layout is carried opaquely and survives the round trip.
        Plan plan = parsePlan(sample(), "sample", &shippedCatalog());
        plan.layout = {{"items", {{{"id", 1}, {"x", 10.5}}}}};
        const std::string path = dir.filePath(QStringLiteral("layout.json")).toStdString();
        savePlan(plan, path);
        QVERIFY(loadPlan(path, &shippedCatalog()).layout == plan.layout);
    }

    void errors_data()
    {
        QTest::addColumn<QString>("pointer");
        QTest::addColumn<QString>("value");
        QTest::addColumn<QString>("expected");
        // A draft must share the target's tokenizer (Llama 2's 32,000 tokens against Llama 3's
        // 128,256) and cost less to run than it.
        const QString servingWithDraft
            = "{\"type\": \"inference\", \"model\": \"llama-3-70b\", \"precision\": "
              "\"bf16\", \"input_tokens\": 128, \"output_tokens\": 128, \"batch\": 1, "
              "\"speculative\": {\"draft_tokens\": 4, \"acceptance_rate\": 0.7, "
              "\"draft_model\": \"%1\"}}";
        QTest::newRow("draft of another tokenizer")
            << "/workload" << servingWithDraft.arg("llama-2-7b")
            << "plan.json: /workload/speculative/draft_model: draft model 'llama-2-7b' has a "
               "vocabulary of 32,000 tokens, 'llama-3-70b' one of 128,256";
        QTest::newRow("draft larger than the target")
            << "/workload" << servingWithDraft.arg("llama-3-405b")
            << "plan.json: /workload/speculative/draft_model: draft model 'llama-3-405b' is no "
               "smaller than 'llama-3-70b'";
        QTest::newRow("format") << "/format"
                                << "\"other\""
                                << "plan.json: /format: must be \"clusterplanner-plan\"";
        QTest::newRow("version") << "/version"
                                 << "2"
                                 << "plan.json: /version: plan format version 2 is not supported";
        QTest::newRow("nodes not a list") << "/nodes"
                                          << "{}"
                                          << "plan.json: /nodes: expected an array";
        QTest::newRow("on_fabric") << "/nodes/0/on_fabric"
                                   << "\"yes\""
                                   << "plan.json: /nodes/0/on_fabric: expected";
        QTest::newRow("hall row negative")
            << "/nodes/0/hall_row"
            << "-1"
            << "plan.json: /nodes/0/hall_row: must be between 0 and 9999";
        QTest::newRow("hall row too far")
            << "/nodes/0/hall_row"
            << "10000"
            << "plan.json: /nodes/0/hall_row: must be between 0 and 9999";
        QTest::newRow("unknown node") << "/nodes/0/node"
                                      << "\"dgx-h1000\""
                                      << "plan.json: /nodes/0/node: unknown nodes id 'dgx-h1000'";
        QTest::newRow("wrong kind") << "/nodes/0/node"
                                    << "\"h100-sxm5-80gb\""
                                    << "plan.json: /nodes/0/node: 'h100-sxm5-80gb' is in gpus";
        QTest::newRow("zero count") << "/nodes/0/count"
                                    << "0"
                                    << "plan.json: /nodes/0/count: must be between 1 and";
        QTest::newRow("fractional count")
            << "/nodes/0/count"
            << "1.5"
            << "plan.json: /nodes/0/count: expected an integer, found 1.5";
        QTest::newRow("topology") << "/fabric/topology"
                                  << "\"ring\""
                                  << "plan.json: /fabric/topology: 'ring' is not one of";
        QTest::newRow("oversubscription")
            << "/fabric/oversubscription"
            << "0.5"
            << "plan.json: /fabric/oversubscription: must be at least 1";
        QTest::newRow("unknown field") << "/fabric/oversubscriptoin"
                                       << "2"
                                       << "plan.json: /fabric/oversubscriptoin: unknown field";
        QTest::newRow("model") << "/workload/model"
                               << "\"gpt-5\""
                               << "plan.json: /workload/model: unknown models id 'gpt-5'";
        QTest::newRow("tokens beyond any run")
            << "/workload/tokens"
            << "1e30"
            << "plan.json: /workload/tokens: must be at most 1e+16, found 1e+30";
        QTest::newRow("dataset") << "/workload/dataset"
                                 << "\"gpt-5\""
                                 << "plan.json: /workload/dataset: unknown datasets id 'gpt-5'";
        QTest::newRow("dataset of another kind")
            << "/workload/dataset"
            << "\"nfs-server\""
            << "plan.json: /workload/dataset: 'nfs-server' is in storage, expected an entry of "
               "datasets";
        QTest::newRow("portfolio class")
            << "/portfolio"
            << "{\"classes\": [{\"name\": \"a\", \"gpus\": 8, \"runtime_h\": 1, \"per_day\": -1}]}"
            << "plan.json: /portfolio/classes/0/per_day: must be at least 0";
        QTest::newRow("portfolio duplicate")
            << "/portfolio"
            << "{\"classes\": [{\"name\": \"a\", \"gpus\": 8, \"runtime_h\": 1, \"per_day\": 1}, "
               "{\"name\": \"a\", \"gpus\": 1, \"runtime_h\": 1, \"per_day\": 1}]}"
            << "plan.json: /portfolio/classes/1/name: 'a' names another class too";
        QTest::newRow("service hours")
            << "/portfolio"
            << "{\"classes\": [], \"services\": [{\"name\": \"s\", \"gpus_per_replica\": 8, "
               "\"replicas_by_hour\": [1, 2]}]}"
            << "plan.json: /portfolio/services/0/replicas_by_hour: needs 24 counts";
        QTest::newRow("service hour count")
            << "/portfolio"
            << "{\"classes\": [], \"services\": [{\"name\": \"s\", \"gpus_per_replica\": 8, "
               "\"replicas_by_hour\": [1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,-2]}]}"
            << "plan.json: /portfolio/services/0/replicas_by_hour/23: expected a replica count";
        QTest::newRow("portfolio policy")
            << "/portfolio"
            << "{\"policy\": \"lottery\", \"classes\": []}"
            << "plan.json: /portfolio/policy: 'lottery' is not one of";
        QTest::newRow("seq len")
            << "/workload/seq_len"
            << "\"long\""
            << "plan.json: /workload/seq_len: expected an integer, found a string";
        QTest::newRow("recompute") << "/workload/recompute"
                                   << "\"some\""
                                   << "plan.json: /workload/recompute: 'some' is not one of";
        QTest::newRow("recompute module")
            << "/workload/recompute_modules"
            << "[\"layernorm\", \"attention\"]"
            << "plan.json: /workload/recompute_modules: unknown recompute module \"attention\"";
        QTest::newRow("recompute module type")
            << "/workload/recompute_modules"
            << "[\"layernorm\", 3]"
            << "plan.json: /workload/recompute_modules/1: expected a module name, found a number";
        QTest::newRow("recompute modules empty")
            << "/workload/recompute_modules"
            << "[]"
            << "plan.json: /workload/recompute_modules: name at least one module";
        QTest::newRow("mtp layers") << "/workload/mtp_layers"
                                    << "17"
                                    << "plan.json: /workload/mtp_layers: must be between 0 and 16";
        QTest::newRow("moe dispatcher")
            << "/workload/moe_dispatcher"
            << "\"nccl\""
            << "plan.json: /workload/moe_dispatcher: 'nccl' is not one of";
        QTest::newRow("cross-entropy kernel")
            << "/workload/cross_entropy"
            << "\"liger\""
            << "plan.json: /workload/cross_entropy: 'liger' is not one of";
        QTest::newRow("zero stage") << "/workload/zero"
                                    << "4"
                                    << "plan.json: /workload/zero: must be between 0 and 3";
        QTest::newRow("workload type") << "/workload/type"
                                       << "\"mining\""
                                       << "plan.json: /workload/type: 'mining' is not one of";
        QTest::newRow("storage") << "/storage/0/count"
                                 << "-1"
                                 << "plan.json: /storage/0/count: must be between 1";
        QTest::newRow("facility") << "/facility/pue"
                                  << "0.9"
                                  << "plan.json: /facility/pue: must be at least 1";
        QTest::newRow("cabinets per row")
            << "/hall/cabinets_per_row"
            << "0"
            << "plan.json: /hall/cabinets_per_row: must be between 1 and 1000";
        QTest::newRow("row pitch") << "/hall/row_pitch_m"
                                   << "0.1"
                                   << "plan.json: /hall/row_pitch_m: must be at least 0.5";
        QTest::newRow("hall field") << "/hall/rows"
                                    << "3"
                                    << "plan.json: /hall/rows: unknown field";
    }

    void recomputeModulesRoundTrip()
    {
        // Named modules are written as Megatron-Core names them and read back; with full
        // recomputation they would mean nothing, and the plan is refused at their pointer.
        Plan plan = parsePlan(sample(), "plan.json", &shippedCatalog());
        QVERIFY(!planToJson(plan)["workload"].contains("recompute_modules"));
        plan.training.constraints.recomputeModules
            = RecomputeModules {static_cast<unsigned>(RecomputeModule::LayerNorm)
                                | static_cast<unsigned>(RecomputeModule::MoeActivation)};
        nlohmann::json written = planToJson(plan);
        QVERIFY2(written["workload"]["recompute_modules"]
                     == nlohmann::json::parse(R"(["moe_act", "layernorm"])"),
                 written["workload"].dump().c_str());
        const Plan reread = parsePlan(written, "plan.json", &shippedCatalog());
        QVERIFY(reread.training.constraints.recomputeModules
                == plan.training.constraints.recomputeModules);
        written["workload"]["recompute"] = "full";
        try {
            parsePlan(written, "plan.json", &shippedCatalog());
            QFAIL("modules with full recomputation were accepted");
        } catch (const InputError &error) {
            QVERIFY2(std::string(error.what())
                             .find("/workload/recompute_modules: recompute "
                                   "modules need \"recompute\": \"selective\"")
                         != std::string::npos,
                     error.what());
        }
    }

    void mtpLayersRoundTripAndReachTheJob()
    {
        // A plan may train another number of multi-token prediction blocks than its model's;
        // unset, nothing is written and the catalog's count stands.
        Plan plan = parsePlan(sample(), "plan.json", &shippedCatalog());
        QVERIFY(!planToJson(plan)["workload"].contains("mtp_layers"));
        plan.trainingMtpLayers = 2;
        const nlohmann::json written = planToJson(plan);
        QCOMPARE(written["workload"]["mtp_layers"].get<int>(), 2);
        QCOMPARE(parsePlan(written, "plan.json", &shippedCatalog()).trainingMtpLayers,
                 std::optional<int>(2));
        const auto setup = planTrainingSetup(plan, shippedCatalog());
        QVERIFY(setup);
        QCOMPARE(setup->job.model.mtpLayers, 2);
        plan.trainingMtpLayers.reset();
        QCOMPARE(planTrainingSetup(plan, shippedCatalog())->job.model.mtpLayers,
                 shippedCatalog().llm(plan.trainingModelId).mtpLayers);
    }

    void stageSizesRoundTripAndStayOutWhenUnset()
    {
        // The first and last stages' own layer counts: absent unless set, read back as written,
        // and a count of 0 refused at its pointer.
        Plan plan = parsePlan(sample(), "plan.json", &shippedCatalog());
        QVERIFY(!planToJson(plan)["workload"].contains("first_stage_layers"));
        plan.training.constraints.firstStageLayers = 7;
        plan.training.constraints.lastStageLayers = 6;
        nlohmann::json written = planToJson(plan);
        QCOMPARE(written["workload"]["first_stage_layers"].get<int>(), 7);
        const Plan back = parsePlan(written, "plan.json", &shippedCatalog());
        QCOMPARE(back.training.constraints.firstStageLayers, std::optional<int>(7));
        QCOMPARE(back.training.constraints.lastStageLayers, std::optional<int>(6));
        written["workload"]["last_stage_layers"] = 0;
        try {
            parsePlan(written, "plan.json", &shippedCatalog());
            QFAIL("a last stage of 0 layers was accepted");
        } catch (const InputError &error) {
            QCOMPARE(error.pointer(), std::string("/workload/last_stage_layers"));
        }
    }

    void moeDispatcherRoundTrips()
    {
        // The all-to-all dispatcher is every profile's; DeepEP is written when chosen.
        Plan plan = parsePlan(sample(), "plan.json", &shippedCatalog());
        QVERIFY(!planToJson(plan)["workload"].contains("moe_dispatcher"));
        for (auto [dispatcher, id] : {std::pair {MoeDispatcher::DeepEp, "deepep"},
                                      std::pair {MoeDispatcher::HybridEp, "hybridep"}}) {
            plan.training.framework.moeDispatcher = dispatcher;
            const nlohmann::json written = planToJson(plan);
            QCOMPARE(written["workload"]["moe_dispatcher"].get<std::string>(), std::string(id));
            QVERIFY(
                parsePlan(written, "plan.json", &shippedCatalog()).training.framework.moeDispatcher
                == dispatcher);
        }
    }

    void crossEntropyKernelRoundTrips()
    {
        // The profile's own kernel (Megatron-Core 2024: the fused native one) is not written;
        // Transformer Engine's is written when chosen and read back, and the old profiles'
        // unfused kernel, set on the newest profile, too.
        Plan plan = parsePlan(sample(), "plan.json", &shippedCatalog());
        QVERIFY(!planToJson(plan)["workload"].contains("cross_entropy"));
        QCOMPARE(plan.training.framework.crossEntropy, CrossEntropyKernel::Native);
        for (const auto &[kernel, word] : {std::pair(CrossEntropyKernel::TransformerEngine, "te"),
                                           std::pair(CrossEntropyKernel::Unfused, "unfused")}) {
            plan.training.framework.crossEntropy = kernel;
            const nlohmann::json written = planToJson(plan);
            QCOMPARE(written["workload"]["cross_entropy"].get<std::string>(), std::string(word));
            QCOMPARE(
                parsePlan(written, "plan.json", &shippedCatalog()).training.framework.crossEntropy,
                kernel);
        }
    }

    void hallDimensionsRoundTripAndDefaultsStayOut()
    {
        // The room is written only when it differs from the defaults, and read back as written.
        Plan plan = parsePlan(sample(), "plan.json", &shippedCatalog());
        QVERIFY(!planToJson(plan).contains("hall"));
        plan.hall.cabinetsPerRow = 7;
        plan.hall.rowPitchMeters = 3.0;
        const nlohmann::json written = planToJson(plan);
        QCOMPARE(written["hall"]["cabinets_per_row"].get<int>(), 7);
        const Plan reread = parsePlan(written, "plan.json", &shippedCatalog());
        QCOMPARE(reread.hall.cabinetsPerRow, 7);
        QCOMPARE(reread.hall.rowPitchMeters, 3.0);
        QCOMPARE(reread.hall.cabinetWidthMeters, 0.6);
    }

    void campusRoundTripsAndStaysOutWhenOneBuilding()
    {
        // One building (the default) writes no campus; four buildings and their interconnect
        // are written and read back as given; more than one building needs the interconnect's
        // capacity, and a campus an int cannot count is refused, each with its pointer.
        Plan plan = parsePlan(sample(), "plan.json", &shippedCatalog());
        QVERIFY(!planToJson(plan).contains("campus"));
        plan.campus.buildings = 4;
        plan.campus.interconnectBytesPerSecondPerBuilding = 100e12 / 8;
        plan.campus.distanceKm = 3;
        plan.campus.usdPerGbps = 20;
        const nlohmann::json written = planToJson(plan);
        QCOMPARE(written["campus"]["buildings"].get<int>(), 4);
        QCOMPARE(written["campus"]["interconnect_tbps"].get<double>(), 100.0);
        const Plan reread = parsePlan(written, "plan.json", &shippedCatalog());
        QVERIFY(reread.campus == plan.campus);

        // One building at another distance keeps its campus, without a capacity, and loads
        // again (a fuzz finding: the capacity was written as 0, which the loader refuses).
        Plan near = parsePlan(sample(), "plan.json", &shippedCatalog());
        near.campus.distanceKm = 5;
        QVERIFY(!planToJson(near)["campus"].contains("interconnect_tbps"));
        QVERIFY(parsePlan(planToJson(near), "plan.json", &shippedCatalog()).campus == near.campus);
        nlohmann::json noCapacity = written;
        noCapacity["campus"].erase("interconnect_tbps");
        QVERIFY2(planLoadError(noCapacity)
                         .find("plan.json: /campus/interconnect_tbps: more than one "
                               "building needs the interconnect's capacity")
                     == 0,
                 planLoadError(noCapacity).c_str());
        nlohmann::json none = written;
        none["campus"]["buildings"] = 0;
        QVERIFY2(
            planLoadError(none).find("plan.json: /campus/buildings: must be between 1 and 1024")
                == 0,
            planLoadError(none).c_str());
        // 128 DGX of 8 GPUs in 1,024 buildings is 1,048,576 GPUs: fine; 300,000 servers are
        // 2,400,000 GPUs a building, 2,457,600,000 in 1,024 buildings: beyond an int.
        nlohmann::json huge = written;
        huge["campus"]["buildings"] = 1024;
        huge["nodes"][0]["count"] = 300000;
        QVERIFY2(
            planLoadError(huge).find("plan.json: /campus/buildings: 1024 buildings of 2400000 GPUs")
                == 0,
            planLoadError(huge).c_str());
    }

    void multiPlaneRoundTrips()
    {
        // The sample is a rail fabric: one plane per rail is written only when set, and read
        // back (its scenario that switches to a fat-tree inherits the flag; the estimate says
        // it does not apply there, tst_planestimator).
        Plan plan = parsePlan(sample(), "plan.json", &shippedCatalog());
        QVERIFY(!planToJson(plan)["fabric"].contains("multi_plane"));
        plan.fabric.multiPlane = true;
        const nlohmann::json written = planToJson(plan);
        QVERIFY(written["fabric"]["multi_plane"].get<bool>());
        QVERIFY(parsePlan(written, "plan.json", &shippedCatalog()).fabric.multiPlane);
    }

    void datasetRoundTripsAndStaysOutWhenUnset()
    {
        Plan plan = parsePlan(sample(), "plan.json", &shippedCatalog());
        QVERIFY(!planToJson(plan)["workload"].contains("dataset"));
        plan.trainingDatasetId = "imagenet-1k-jpeg";
        QVERIFY(!planToJson(plan)["workload"].contains("async_checkpoint"));
        plan.asyncCheckpoints = true;
        const nlohmann::json written = planToJson(plan);
        QCOMPARE(written["workload"]["async_checkpoint"].get<bool>(), true);
        QVERIFY(parsePlan(written, "plan.json", &shippedCatalog()).asyncCheckpoints);
        QCOMPARE(written["workload"]["dataset"].get<std::string>(),
                 std::string("imagenet-1k-jpeg"));
        QCOMPARE(parsePlan(written, "plan.json", &shippedCatalog()).trainingDatasetId,
                 std::string("imagenet-1k-jpeg"));
    }

    void moeCommOverlapRoundTripsAndStaysOutWhenUnset()
    {
        // A framework setting is written only when it differs from the named profile's.
        Plan plan = parsePlan(sample(), "plan.json", &shippedCatalog());
        QVERIFY(!planToJson(plan)["workload"].contains("moe_comm_overlap"));
        plan.training.framework.moeCommOverlap = true;
        const nlohmann::json written = planToJson(plan);
        QCOMPARE(written["workload"]["moe_comm_overlap"].get<bool>(), true);
        QVERIFY(
            parsePlan(written, "plan.json", &shippedCatalog()).training.framework.moeCommOverlap);
    }

    void activationOffloadRoundTripsAndStaysOutWhenUnset()
    {
        Plan plan = parsePlan(sample(), "plan.json", &shippedCatalog());
        QVERIFY(!planToJson(plan)["workload"].contains("activation_offload_layers"));
        plan.training.activationOffloadLayers = 40;
        const nlohmann::json written = planToJson(plan);
        QCOMPARE(written["workload"]["activation_offload_layers"].get<int>(), 40);
        QCOMPARE(
            parsePlan(written, "plan.json", &shippedCatalog()).training.activationOffloadLayers,
            40);
        nlohmann::json broken = written;
        broken["workload"]["activation_offload_layers"] = -1;
        try {
            parsePlan(broken, "plan.json", &shippedCatalog());
            QFAIL("a negative layer count was accepted");
        } catch (const InputError &error) {
            QVERIFY2(std::string(error.what())
                             .find("plan.json: /workload/activation_offload_layers: must be "
                                   "between 0 and 100000")
                         != std::string::npos,
                     error.what());
        }
    }

    void portfolioRoundTrips()
    {
        const Plan plan
            = loadPlan(CP_SOURCE_DIR "/samples/h100-2048-shared-cluster.json", &shippedCatalog());
        QCOMPARE(plan.portfolio.classes.size(), std::size_t(5));
        // The chat service: 4 replicas at night, 16 by day, 8 in the evening.
        QCOMPARE(plan.portfolio.services.size(), std::size_t(1));
        QCOMPARE(plan.portfolio.services[0].replicasByHour[0], 4);
        QCOMPARE(plan.portfolio.services[0].replicasByHour[12], 16);
        QCOMPARE(plan.portfolio.services[0].replicasByHour[23], 8);
        // 0.25 a day, Llama 3 70B on 150 B tokens (its runtime left to the estimator),
        // checkpoints every 30 min; the defaults (cv 1, priority 0) stay out of the file.
        const JobClass &pretraining = plan.portfolio.classes[0];
        QCOMPARE(pretraining.gpus, 1024);
        QVERIFY(qAbs(pretraining.arrivalsPerSecond * 86400 - 0.25) < 1e-12);
        QCOMPARE(pretraining.modelId, std::string("llama-3-70b"));
        QCOMPARE(pretraining.tokensPerJob, 1.5e11);
        QCOMPARE(pretraining.meanRuntimeSeconds, 0.0);
        QCOMPARE(pretraining.checkpointIntervalSeconds, 1800.0);
        // Research runs 8 h as given.
        QCOMPARE(plan.portfolio.classes[2].meanRuntimeSeconds, 8 * 3600.0);
        const nlohmann::json written = planToJson(plan);
        QVERIFY(!written["portfolio"]["classes"][4].contains("runtime_cv"));
        QVERIFY(!written["portfolio"].contains("policy"));
        QCOMPARE(parsePlan(written, "plan.json", &shippedCatalog()).portfolio, plan.portfolio);
        // The FIFO scenario patches only the policy: the classes follow the baseline.
        const Plan fifo = scenarioPlan(plan, 2, &shippedCatalog(), "plan.json");
        QCOMPARE(fifo.portfolio.policy, SchedulingPolicy::Fifo);
        QCOMPARE(fifo.portfolio.classes, plan.portfolio.classes);
    }

    void errors()
    {
        QFETCH(QString, pointer);
        QFETCH(QString, value);
        QFETCH(QString, expected);
        nlohmann::json document = sample();
        document[nlohmann::json::json_pointer(pointer.toStdString())]
            = nlohmann::json::parse(value.toStdString());
        const std::string message = planLoadError(document);
        QVERIFY2(message.find(expected.toStdString()) == 0, message.c_str());
    }

    void emptyPlansAndFabricConnectionsRoundTrip()
    {
        // The desktop program starts from a plan with no servers and must be able to save it.
        nlohmann::json empty = sample();
        empty["nodes"] = nlohmann::json::array();
        empty.erase("scenarios");
        const Plan plan = parsePlan(empty, "empty.json", &shippedCatalog());
        QCOMPARE(plan.totalNodes(), 0);
        QVERIFY(parsePlan(planToJson(plan), "again", &shippedCatalog()).nodeGroups.empty());

        // A group and a storage system taken off the fabric stay off it; connected ones write
        // nothing extra.
        Plan off = parsePlan(sample(), "sample", &shippedCatalog());
        QVERIFY(off.nodeGroups[0].onFabric);
        QVERIFY(!planToJson(off)["nodes"][0].contains("on_fabric"));
        off.nodeGroups[0].onFabric = false;
        off.storage[0].onFabric = false;
        // A group dragged to a row of the data hall keeps it; one without a rack cannot have one.
        QVERIFY(!planToJson(off)["nodes"][0].contains("hall_row"));
        off.nodeGroups[0].hallRow = 7;
        QCOMPARE(parsePlan(planToJson(off), "again", &shippedCatalog()).nodeGroups[0].hallRow, 7);
        nlohmann::json rackless = planToJson(off);
        rackless["nodes"][0].erase("rack");
        rackless["nodes"][0].erase("nodes_per_rack");
        QVERIFY2(planLoadError(rackless).find("/nodes/0/hall_row: needs a rack")
                     != std::string::npos,
                 planLoadError(rackless).c_str());
        off.nodeGroups[0].hallRow = -1;
        const nlohmann::json written = planToJson(off);
        QVERIFY(written["nodes"][0]["on_fabric"] == false);
        const Plan back = parsePlan(written, "back", &shippedCatalog());
        QVERIFY(!back.nodeGroups[0].onFabric);
        QVERIFY(!back.storage[0].onFabric);
    }

    void serversPerCabinetFitItsRackUnits()
    {
        // The sample's DGX H100 are 8U, its cabinet 42U: five fit (40U), six take 48U.
        nlohmann::json document = sample();
        QVERIFY(document["nodes"][0]["node"] == "dgx-h100");
        QVERIFY(document["nodes"][0]["rack"] == "rack-air-40kw");
        document["nodes"][0]["nodes_per_rack"] = 5;
        QCOMPARE(parsePlan(document, "five", &shippedCatalog()).nodeGroups[0].nodesPerRack, 5);
        document["nodes"][0]["nodes_per_rack"] = 6;
        QCOMPARE(planLoadError(document),
                 std::string("plan.json: /nodes/0/nodes_per_rack: 6 servers of 8U take 48U, and a "
                             "42U air-cooled rack with rear-door heat exchanger (40 kW) has 42U: "
                             "at most 5 a cabinet"));
    }

    void aRunTrainsAtLeastOneStep()
    {
        // The sample's step: global batch 512 x 8,192 tokens = 4,194,304 tokens. 1.5 tokens
        // gave "training time 1.24 us" beside a 3.5 s step; one step's worth is a run.
        nlohmann::json document = sample();
        QVERIFY(document["workload"]["global_batch"] == 512);
        QVERIFY(document["workload"]["seq_len"] == 8192);
        document["workload"]["tokens"] = 1.5;
        QCOMPARE(planLoadError(document),
                 std::string("plan.json: /workload/tokens: 1.5 is less than one step's "
                             "4,194,304 tokens (global_batch x seq_len)"));
        document["workload"]["tokens"] = 4194304;
        QVERIFY(planLoadError(document).empty());
    }

    void diurnalProfileErrors()
    {
        const nlohmann::json fleet = readJsonFile(CP_SOURCE_DIR "/samples/l4-inference-fleet.json");
        const Plan plan = parsePlan(fleet, "fleet", &shippedCatalog());
        QCOMPARE(plan.inference.diurnalRates.size(), std::size_t(24));
        QCOMPARE(plan.inference.diurnalRates[11], 100.0);

        nlohmann::json bad = fleet;
        bad["workload"]["diurnal"] = {1, 2, 3};
        QCOMPARE(planLoadError(bad),
                 std::string("plan.json: /workload/diurnal: a day has 24 hourly rates, found 3"));
        bad["workload"]["diurnal"] = std::vector<double>(24, 1.0);
        bad["workload"]["diurnal"][5] = -2;
        QCOMPARE(planLoadError(bad),
                 std::string("plan.json: /workload/diurnal/5: an hourly rate must be "
                             "a finite number >= 0"));
        bad["workload"]["diurnal"][5] = "busy";
        QCOMPARE(planLoadError(bad),
                 std::string("plan.json: /workload/diurnal/5: an hourly rate must be a number"));
        bad = fleet;
        bad["workload"].erase("rate_per_s");
        bad["workload"].erase("ttft_p95_ms");
        bad["workload"].erase("tpot_p95_ms");
        QVERIFY2(planLoadError(bad).find("plan.json: /workload/diurnal: a diurnal profile scales "
                                         "rate_per_s")
                     == 0,
                 planLoadError(bad).c_str());
    }

    void missingFieldsAndTypes()
    {
        nlohmann::json document = sample();
        document.erase("name");
        QCOMPARE(planLoadError(document),
                 std::string("plan.json: /name: required string is missing"));
        document = sample();
        document["nodes"] = "many";
        QCOMPARE(planLoadError(document),
                 std::string("plan.json: /nodes: expected an array, found a string"));
        document = nlohmann::json::array();
        QCOMPARE(planLoadError(document),
                 std::string("plan.json: /: expected an object, found an array"));
        document = sample();
        document["workload"]
            = {{"type", "inference"}, {"model", "llama-3-8b"}, {"precision", "fp8"},
               {"input_tokens", 10},  {"output_tokens", 10},   {"batch", 4},
               {"rate_per_s", 2.0}};
        QCOMPARE(
            planLoadError(document),
            std::string("plan.json: /workload/batch: give either batch or rate_per_s, not both"));
    }

    void failedSaveKeepsOldFile()
    {
        QTemporaryDir dir;
        const Plan plan = parsePlan(sample(), "sample", &shippedCatalog());
        const std::string path = dir.filePath(QStringLiteral("plan.json")).toStdString();
        // Old contents that differ from what the failing save writes: a save that wrongly went
        // through would show.
        writeText(path, "old contents\n");

        // The save of plan.json itself fails while writing: a file-size limit of 64 bytes makes
        // write(2) fail with EFBIG (the test runs as root too, so permissions cannot be used).
        {
            const auto previousHandler = std::signal(SIGXFSZ, SIG_IGN);
            rlimit previous = {};
            QCOMPARE(::getrlimit(RLIMIT_FSIZE, &previous), 0);
            rlimit limited = previous;
            limited.rlim_cur = 64;
            QCOMPARE(::setrlimit(RLIMIT_FSIZE, &limited), 0);
            std::string message;
            try {
                savePlan(plan, path);
            } catch (const InputError &error) {
                message = error.what();
            }
            ::setrlimit(RLIMIT_FSIZE, &previous);
            std::signal(SIGXFSZ, previousHandler);
            QVERIFY2(message.find("plan.json: write failed") != std::string::npos, message.c_str());
        }
        QCOMPARE(readText(path), std::string("old contents\n"));
        QCOMPARE(entriesIn(dir.path()), 1); // plan.json only, the temporary was removed

        // Renaming over a directory fails after the temporary file was written: it must be cleaned
        // up and the directory left as it was.
        const std::string directoryTarget = dir.filePath(QStringLiteral("occupied")).toStdString();
        std::filesystem::create_directory(directoryTarget);
        try {
            savePlan(plan, directoryTarget);
            QFAIL("renaming a file over a directory must fail");
        } catch (const InputError &error) {
            QVERIFY2(std::string(error.what()).find("rename failed") != std::string::npos,
                     error.what());
        }
        QVERIFY(std::filesystem::is_directory(directoryTarget));
        QCOMPARE(entriesIn(dir.path()), 2); // plan.json and the directory, no temporary
        QCOMPARE(readText(path), std::string("old contents\n"));
    }

    void saveKeepsTheFileMode()
    {
        QTemporaryDir dir;
        const Plan plan = parsePlan(sample(), "sample", &shippedCatalog());
        const std::string path = dir.filePath(QStringLiteral("private.json")).toStdString();
        writeText(path, "{}\n");
        std::filesystem::permissions(
            path, std::filesystem::perms::owner_read | std::filesystem::perms::owner_write);
        savePlan(plan, path);
        QCOMPARE(modeOf(path), 0600);

        // A new file gets 0666 less the umask: 0666 & ~027 = 0640.
        const mode_t previous = ::umask(027);
        const std::string fresh = dir.filePath(QStringLiteral("fresh.json")).toStdString();
        savePlan(plan, fresh);
        ::umask(previous);
        QCOMPARE(modeOf(fresh), 0640);
    }

    void saveRefusesAReadOnlyFile()
    {
        // chmod 0444: the save had renamed a new file over it and kept the mode, so the file
        // looked untouched while its contents were replaced. Refused (for root too, as editors
        // do), the old contents kept and no temporary left.
        QTemporaryDir dir;
        const Plan plan = parsePlan(sample(), "sample", &shippedCatalog());
        const std::string path = dir.filePath(QStringLiteral("locked.json")).toStdString();
        writeText(path, "old contents\n");
        std::filesystem::permissions(path,
                                     std::filesystem::perms::owner_read
                                         | std::filesystem::perms::group_read
                                         | std::filesystem::perms::others_read);
        try {
            savePlan(plan, path);
            QFAIL("a read-only plan was overwritten");
        } catch (const InputError &error) {
            QCOMPARE(error.file(), path);
            QVERIFY2(error.reason().find("read-only (mode 0444)") != std::string::npos,
                     error.what());
        }
        QCOMPARE(readText(path), std::string("old contents\n"));
        QCOMPARE(modeOf(path), 0444);
        QCOMPARE(entriesIn(dir.path()), 1);
    }

    void saveThroughSymlinkWritesTheTarget()
    {
        QTemporaryDir dir;
        const Plan plan = parsePlan(sample(), "sample", &shippedCatalog());
        const std::string target = dir.filePath(QStringLiteral("real.json")).toStdString();
        const std::string link = dir.filePath(QStringLiteral("link.json")).toStdString();
        writeText(target, "old contents\n");
        std::filesystem::create_symlink("real.json", link); // relative, as `ln -s` makes it
        savePlan(plan, link);
        QVERIFY(std::filesystem::is_symlink(link));
        QCOMPARE(readText(target), planToJson(plan).dump(2) + "\n");
        QCOMPARE(entriesIn(dir.path()), 2);
    }

    void saveRemovesStaleTemporaries()
    {
        QTemporaryDir dir;
        const Plan plan = parsePlan(sample(), "sample", &shippedCatalog());
        const std::string path = dir.filePath(QStringLiteral("plan.json")).toStdString();
        const auto file = [&](const char *name) {
            return dir.filePath(QString::fromLatin1(name)).toStdString();
        };
        const auto twoHoursAgo
            = std::filesystem::file_time_type::clock::now() - std::chrono::hours(2);
        // Left by a save killed two hours ago: ours by name and old, so it goes.
        writeText(file(".plan.json.Ab12Cd"), "{\"partial");
        std::filesystem::last_write_time(file(".plan.json.Ab12Cd"), twoHoursAgo);
        // Just created: may be a save under way in another process, so it stays.
        writeText(file(".plan.json.Zz99zz"), "{\"partial");
        // Old, but not of our naming (seven characters after the name), or of another file.
        writeText(file(".plan.json.backup1"), "keep");
        std::filesystem::last_write_time(file(".plan.json.backup1"), twoHoursAgo);
        writeText(file(".other.json.Ab12Cd"), "keep");
        std::filesystem::last_write_time(file(".other.json.Ab12Cd"), twoHoursAgo);
        savePlan(plan, path);
        QVERIFY(!std::filesystem::exists(file(".plan.json.Ab12Cd")));
        QVERIFY(std::filesystem::exists(file(".plan.json.Zz99zz")));
        QVERIFY(std::filesystem::exists(file(".plan.json.backup1")));
        QVERIFY(std::filesystem::exists(file(".other.json.Ab12Cd")));
        QCOMPARE(entriesIn(dir.path()), 4);
    }

    void deepNestingIsRejected()
    {
        // 256 levels are allowed; the 257th bracket, byte 257 of "[[[...", is refused.
        const std::string allowed = std::string(256, '[') + std::string(256, ']');
        QCOMPARE(parseJsonText(allowed, "ok.json").dump().size(), allowed.size());
        try {
            parseJsonText(std::string(257, '[') + std::string(257, ']'), "deep.json");
            QFAIL("257 levels must be refused");
        } catch (const InputError &error) {
            QCOMPARE(std::string(error.what()),
                     std::string("deep.json: nests arrays and objects deeper than 256 levels "
                                 "(byte 257)"));
        }
        // Brackets in strings do not nest.
        QCOMPARE(parseJsonText("[\"" + std::string(1000, '[') + "\\\"\"]", "s.json").size(),
                 std::size_t(1));

        // The reported crash: a 1 MB plan whose layout nests 200,000 objects. The root object is
        // level 1 at byte 1; `{"layout":` is 10 bytes, so level k >= 2 opens at byte
        // 11 + 5 (k - 2), and level 257 at 11 + 5 x 255 = 1286.
        QTemporaryDir dir;
        const std::string path = dir.filePath(QStringLiteral("deep-plan.json")).toStdString();
        std::string text = "{\"layout\":";
        for (int i = 0; i < 200000; ++i)
            text += "{\"a\":";
        text += "0" + std::string(200000, '}') + "}";
        writeText(path, text);
        try {
            loadPlan(path, &shippedCatalog());
            QFAIL("a plan nesting 200,000 levels must be refused");
        } catch (const InputError &error) {
            QCOMPARE(error.file(), path);
            QCOMPARE(error.reason(),
                     std::string("nests arrays and objects deeper than 256 levels (byte 1286)"));
        }
    }

    void aPlanHoldsAtMost1024ServerGroupsAnd256StorageEntries()
    {
        // 1,025 groups of one server each are refused at /nodes with the count and the limit;
        // 1,024 load (the canvas draws a card and a cable for each: 20,000 took 55 s to open).
        nlohmann::json doc = {{"format", "clusterplanner-plan"}, {"version", 1}, {"name", "many"}};
        doc["nodes"] = nlohmann::json::array();
        for (int i = 0; i < 1025; ++i)
            doc["nodes"].push_back(
                {{"name", "team " + std::to_string(i)}, {"node", "dgx-h100"}, {"count", 1}});
        try {
            parsePlan(doc, "many.json", &shippedCatalog());
            QFAIL("1,025 server groups must be refused");
        } catch (const InputError &error) {
            QCOMPARE(error.file(), std::string("many.json"));
            QCOMPARE(error.pointer(), std::string("/nodes"));
            QVERIFY2(error.reason().starts_with("1025 server groups; a plan holds at most 1,024"),
                     error.reason().c_str());
        }
        doc["nodes"].erase(doc["nodes"].size() - 1);
        QCOMPARE(parsePlan(doc, "many.json", &shippedCatalog()).nodeGroups.size(),
                 std::size_t(1024));
        // Storage likewise, at 256 entries: 257 are refused at /storage.
        doc["storage"] = nlohmann::json::array();
        for (int i = 0; i < 257; ++i)
            doc["storage"].push_back({{"storage", "nfs-server"}, {"count", 1}});
        try {
            parsePlan(doc, "many.json", &shippedCatalog());
            QFAIL("257 storage entries must be refused");
        } catch (const InputError &error) {
            QCOMPARE(error.pointer(), std::string("/storage"));
            QVERIFY2(error.reason().starts_with("257 storage entries; a plan holds at most 256"),
                     error.reason().c_str());
        }
        doc["storage"].erase(doc["storage"].size() - 1);
        QCOMPARE(parsePlan(doc, "many.json", &shippedCatalog()).storage.size(), std::size_t(256));
        // A portfolio likewise, at 1,024 job classes (100,000 took 23 s to read, each name
        // checked against every other, and their comparison did not finish in two minutes).
        doc["storage"] = nlohmann::json::array();
        doc["portfolio"] = {{"classes", nlohmann::json::array()}};
        for (int i = 0; i < 1025; ++i)
            doc["portfolio"]["classes"].push_back({{"name", "class " + std::to_string(i)},
                                                   {"gpus", 8},
                                                   {"runtime_h", 1},
                                                   {"per_day", 1}});
        try {
            parsePlan(doc, "many.json", &shippedCatalog());
            QFAIL("1,025 job classes must be refused");
        } catch (const InputError &error) {
            QCOMPARE(error.pointer(), std::string("/portfolio/classes"));
            QVERIFY2(error.reason().starts_with("1025 job classes; a plan holds at most 1,024"),
                     error.reason().c_str());
        }
        doc["portfolio"]["classes"].erase(doc["portfolio"]["classes"].size() - 1);
        QCOMPARE(parsePlan(doc, "many.json", &shippedCatalog()).portfolio.classes.size(),
                 std::size_t(1024));
    }

    void numberOverflowNamesFileAndField()
    {
        // `{"nodes": [{"count": 1e400}]}`: the number starts at byte 22.
        try {
            parseJsonText(R"({"nodes": [{"count": 1e400}]})", "plan.json");
            QFAIL("1e400 must be refused");
        } catch (const InputError &error) {
            QCOMPARE(error.file(), std::string("plan.json"));
            QCOMPARE(error.pointer(), std::string("/nodes/0/count"));
            QCOMPARE(error.reason(),
                     std::string("the number 1e400 (byte 22) is beyond what a double can hold"));
        }
        // In an array the pointer is the element's index; the parser reads on after escaped keys.
        try {
            parseJsonText(R"({"a/b": [1, 2, -1e999]})", "x.json");
            QFAIL("-1e999 must be refused");
        } catch (const InputError &error) {
            QCOMPARE(error.pointer(), std::string("/a~1b/2"));
        }
        // A syntax error keeps its byte offset: `{"a": }` fails at the '}', byte 7.
        try {
            parseJsonText(R"({"a": })", "y.json");
            QFAIL("a syntax error must be reported");
        } catch (const InputError &error) {
            QVERIFY2(error.reason().find("not valid JSON (byte 7)") == 0, error.what());
        }
    }
};

QTEST_APPLESS_MAIN(TestPlanIo)
#include "tst_planio.moc"
