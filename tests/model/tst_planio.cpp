// SPDX-License-Identifier: GPL-3.0-or-later
#include "model/catalogdatabase.h"
#include "model/inputerror.h"
#include "model/jsonfieldreader.h"
#include "model/planio.h"

#include <QDir>
#include <QTemporaryDir>
#include <QTest>

#include <filesystem>
#include <fstream>

using namespace cp::model;

namespace {
const Catalog &shippedCatalog()
{
    static const Catalog catalog = loadCatalogDirectory(CP_SOURCE_DIR "/catalogs");
    return catalog;
}

nlohmann::json sample()
{
    return readJsonFile(CP_SOURCE_DIR "/samples/h100-1024-ndr-rail-fat-tree.json");
}

std::string errorOf(const nlohmann::json &document)
{
    try {
        parsePlan(document, "plan.json", &shippedCatalog());
    } catch (const InputError &error) {
        return error.what();
    }
    return {};
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
        QTest::newRow("seq len")
            << "/workload/seq_len"
            << "\"long\""
            << "plan.json: /workload/seq_len: expected an integer, found a string";
        QTest::newRow("recompute") << "/workload/recompute"
                                   << "\"some\""
                                   << "plan.json: /workload/recompute: 'some' is not one of";
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
    }

    void errors()
    {
        QFETCH(QString, pointer);
        QFETCH(QString, value);
        QFETCH(QString, expected);
        nlohmann::json document = sample();
        document[nlohmann::json::json_pointer(pointer.toStdString())]
            = nlohmann::json::parse(value.toStdString());
        const std::string message = errorOf(document);
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
        const nlohmann::json written = planToJson(off);
        QVERIFY(written["nodes"][0]["on_fabric"] == false);
        const Plan back = parsePlan(written, "back", &shippedCatalog());
        QVERIFY(!back.nodeGroups[0].onFabric);
        QVERIFY(!back.storage[0].onFabric);
    }

    void diurnalProfileErrors()
    {
        const nlohmann::json fleet = readJsonFile(CP_SOURCE_DIR "/samples/l4-inference-fleet.json");
        const Plan plan = parsePlan(fleet, "fleet", &shippedCatalog());
        QCOMPARE(plan.inference.diurnalRates.size(), std::size_t(24));
        QCOMPARE(plan.inference.diurnalRates[11], 100.0);

        nlohmann::json bad = fleet;
        bad["workload"]["diurnal"] = {1, 2, 3};
        QCOMPARE(errorOf(bad),
                 std::string("plan.json: /workload/diurnal: a day has 24 hourly rates, found 3"));
        bad["workload"]["diurnal"] = std::vector<double>(24, 1.0);
        bad["workload"]["diurnal"][5] = -2;
        QCOMPARE(errorOf(bad),
                 std::string("plan.json: /workload/diurnal/5: an hourly rate must be "
                             "a finite number >= 0"));
        bad["workload"]["diurnal"][5] = "busy";
        QCOMPARE(errorOf(bad),
                 std::string("plan.json: /workload/diurnal/5: an hourly rate must be a number"));
        bad = fleet;
        bad["workload"].erase("rate_per_s");
        bad["workload"].erase("ttft_p95_ms");
        bad["workload"].erase("tpot_p95_ms");
        QVERIFY2(errorOf(bad).find("plan.json: /workload/diurnal: a diurnal profile scales "
                                   "rate_per_s")
                     == 0,
                 errorOf(bad).c_str());
    }

    void missingFieldsAndTypes()
    {
        nlohmann::json document = sample();
        document.erase("name");
        QCOMPARE(errorOf(document), std::string("plan.json: /name: required string is missing"));
        document = sample();
        document["nodes"] = "many";
        QCOMPARE(errorOf(document),
                 std::string("plan.json: /nodes: expected an array, found a string"));
        document = nlohmann::json::array();
        QCOMPARE(errorOf(document),
                 std::string("plan.json: /: expected an object, found an array"));
        document = sample();
        document["workload"]
            = {{"type", "inference"}, {"model", "llama-3-8b"}, {"precision", "fp8"},
               {"input_tokens", 10},  {"output_tokens", 10},   {"batch", 4},
               {"rate_per_s", 2.0}};
        QCOMPARE(
            errorOf(document),
            std::string("plan.json: /workload/batch: give either batch or rate_per_s, not both"));
    }

    void failedSaveKeepsOldFile()
    {
        QTemporaryDir dir;
        const Plan plan = parsePlan(sample(), "sample", &shippedCatalog());
        const std::string path = dir.filePath(QStringLiteral("plan.json")).toStdString();
        savePlan(plan, path);
        std::ifstream before(path);
        const std::string original((std::istreambuf_iterator<char>(before)),
                                   std::istreambuf_iterator<char>());

        // A directory where the temporary file would go cannot be written: nothing may change.
        QVERIFY_THROWS_EXCEPTION(
            InputError,
            savePlan(plan, dir.filePath(QStringLiteral("missing/plan.json")).toStdString()));
        // Renaming over a directory fails after the temporary file was written: it must be cleaned
        // up.
        const std::string directoryTarget = dir.filePath(QStringLiteral("occupied")).toStdString();
        std::filesystem::create_directory(directoryTarget);
        QVERIFY_THROWS_EXCEPTION(InputError, savePlan(plan, directoryTarget));
        QVERIFY(std::filesystem::is_directory(directoryTarget));
        int files = 0;
        for ([[maybe_unused]] const auto &entry :
             std::filesystem::directory_iterator(dir.path().toStdString()))
            ++files;
        QCOMPARE(files, 2); // plan.json and the directory, no temporary left behind
        std::ifstream after(path);
        const std::string unchanged((std::istreambuf_iterator<char>(after)),
                                    std::istreambuf_iterator<char>());
        QCOMPARE(unchanged, original);
    }
};

QTEST_APPLESS_MAIN(TestPlanIo)
#include "tst_planio.moc"
