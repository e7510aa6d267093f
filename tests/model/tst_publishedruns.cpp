// SPDX-License-Identifier: GPL-3.0-or-later
// Setting a training estimate against the published runs on its GPU
// (model/validation/publishedruncomparison.h).
#include "model/catalog/catalogdatabase.h"
#include "model/core/jsonfieldreader.h"
#include "model/planning/planestimator.h"
#include "model/validation/publishedruncomparison.h"
#include "testsupport.h"

#include <QTemporaryDir>
#include <QTest>

#include <filesystem>

using namespace cp::model;
using cp::test::closeRelative;

namespace {

TrainingValidationRow run(const std::string &gpuId, Precision precision, bool moe, double measured,
                          double predicted, double publishedMfu)
{
    TrainingValidationRow row;
    row.id = gpuId + "-run";
    row.gpuId = gpuId;
    row.gpuName = gpuId == "h100" ? "NVIDIA H100" : "NVIDIA A100";
    row.modelName = "Model " + std::to_string(static_cast<int>(measured));
    row.precision = precision;
    row.moe = moe;
    row.measured = measured;
    row.predicted = predicted;
    row.publishedMfu = publishedMfu;
    row.estimate.config.tp = 8;
    row.estimate.config.dp = 4;
    return row;
}

/**
 * Three dense BF16 H100 runs the estimator missed by -10%, +10% and +30% (predicted / measured:
 * 450/500, 440/400, 130/100), at published MFU 44%, 45% and 30%; and runs that must not count
 * for a dense BF16 H100 estimate: FP8 on the H100, BF16 on an A100, one MoE.
 */
std::vector<TrainingValidationRow> mixedRuns()
{
    return {run("h100", Precision::BF16, false, 500, 450, 0.44),
            run("h100", Precision::FP16, false, 400, 440, 0.45),
            run("h100", Precision::BF16, false, 100, 130, 0.30),
            run("h100", Precision::FP8, false, 100, 50, 0.90),
            run("a100", Precision::BF16, false, 100, 50, 0.80),
            run("h100", Precision::BF16, true, 100, 200, 0.10)};
}

} // namespace

class TestPublishedRuns : public QObject
{
    Q_OBJECT

private slots:
    void setsTheEstimateAgainstRunsOfItsKind()
    {
        const PublishedRunComparison c
            = summarizePublishedRuns(mixedRuns(), "h100", Precision::BF16, false, 0.46);
        QCOMPARE(c.runs, 3); // BF16 and FP16 share the 16-bit class; FP8, A100, MoE do not
        QCOMPARE(c.kind, std::string("dense"));
        QCOMPARE(c.precisionClass, std::string("16-bit"));
        QCOMPARE(c.lowestMfu, 0.30);
        QCOMPARE(c.highestMfu, 0.45);
        QCOMPARE(c.fastestRun, std::string("Model 400 on 32 GPUs")); // TP 8 x DP 4
        QVERIFY(closeRelative(c.lowestSignedError, -0.10));
        QVERIFY(closeRelative(c.highestSignedError, 0.30));
        QVERIFY(closeRelative(c.meanSignedError, 0.10)); // (-10 + 10 + 30) / 3
        QVERIFY(closeRelative(c.medianAbsoluteError, 0.10));
        QVERIFY(c.aboveEveryRun()); // 46% > 45%
        QVERIFY(!summarizePublishedRuns(mixedRuns(), "h100", Precision::BF16, false, 0.45)
                     .aboveEveryRun());
        const std::string text = publishedRunsText(c);
        QVERIFY2(text.find("3 on the NVIDIA H100 (16-bit, dense) reached 30.0% to 45.0% MFU")
                     != std::string::npos,
                 text.c_str());
        QVERIFY2(text.find("-10.0% to +30.0%, mean +10.0%") != std::string::npos, text.c_str());
        QVERIFY2(text.find("above the fastest of them, Model 400 on 32 GPUs at 45.0%")
                     != std::string::npos,
                 text.c_str());
    }

    void widensToBothKindsWhenItsKindHasFewRuns()
    {
        // One MoE run is too few to judge an MoE estimate by: the dense runs join it.
        const PublishedRunComparison c
            = summarizePublishedRuns(mixedRuns(), "h100", Precision::BF16, true, 0.2);
        QCOMPARE(c.runs, 4);
        QCOMPARE(c.kind, std::string("dense and MoE"));
        QCOMPARE(c.lowestMfu, 0.10);
        QVERIFY(closeRelative(c.highestSignedError, 1.0)); // 200 / 100 - 1
        QVERIFY(!c.aboveEveryRun());
    }

    void saysWhenNoRunWasPublishedOnTheGpu()
    {
        const PublishedRunComparison c
            = summarizePublishedRuns(mixedRuns(), "l40s", Precision::BF16, false, 0.5);
        QVERIFY(!c.available());
        QVERIFY(!c.aboveEveryRun());
        QCOMPARE(publishedRunsText(c),
                 std::string("none to compare with (no published 16-bit training run on this "
                             "GPU)."));
        // FP8 on the A100 (which has no FP8 run): the class, not only the GPU, must match.
        QVERIFY(
            !summarizePublishedRuns(mixedRuns(), "a100", Precision::FP8, false, 0.5).available());
    }

    void publishedMfuFollowsEachRowsMetric()
    {
        const std::string file = CP_VALIDATION_DATA_DIR "/training_validation.json";
        const auto rows
            = runTrainingValidation(readJsonFile(file), cp::test::shippedCatalog(), file);
        bool sawMfuRow = false, sawTflopsRow = false;
        for (const TrainingValidationRow &row : rows) {
            if (row.id == "korthikanti-t5-gpt-22b-a100") {
                // Published as MFU 41.5% (Korthikanti et al. 2022, Table 5).
                QVERIFY(closeRelative(row.publishedMfu, 0.415, 1e-9));
                sawMfuRow = true;
            } else if (row.id == "mcore-weak-gpt-16b-h100") {
                // 489.1 model TFLOP/s per GPU of the H100's 989.4 dense BF16 (Megatron-LM README).
                QVERIFY(closeRelative(row.publishedMfu, 489.1 / 989.4, 1e-9));
                sawTflopsRow = true;
            }
        }
        QVERIFY(sawMfuRow && sawTflopsRow);
    }

    void h100SampleIsAboveEveryPublishedRun()
    {
        // The sample trains Llama 3 70B in BF16 on 1,024 H100. The table's dense 16-bit H100 runs
        // are the nine Megatron-Core weak-scaling rows and the three Llama 3 405B rows; the
        // fastest, GPT 16B, reached 489.1 of 989.4 TFLOP/s (49.4%), the slowest Llama 3 at 128K
        // 380 (38.4%).
        const Plan plan = cp::test::loadSamplePlan("h100-1024-ndr-rail-fat-tree.json");
        const PlanEstimate e = estimatePlan(plan, cp::test::shippedCatalog());
        QVERIFY(e.training.found);
        const PublishedRunComparison &c = e.trainingPublishedRuns;
        QCOMPARE(c.runs, 12);
        QVERIFY(closeRelative(c.highestMfu, 489.1 / 989.4, 1e-9));
        QVERIFY(closeRelative(c.lowestMfu, 380.0 / 989.4, 1e-9));
        QVERIFY2(c.estimateMfu > 0.55, qPrintable(QString::number(c.estimateMfu)));
        QVERIFY(c.aboveEveryRun());
        // A scaling curve's points leave the comparison out.
        QVERIFY(!estimatePlanThroughput(plan, cp::test::shippedCatalog())
                     .trainingPublishedRuns.available());
    }

    void catalogWithoutTheTableSaysSo()
    {
        Catalog catalog = cp::test::shippedCatalog();
        catalog.setPublishedTrainingRuns(nullptr, "");
        const PublishedRunComparison c
            = compareWithPublishedRuns(catalog, "h100-sxm5-80gb", Precision::BF16, false, 0.5);
        QVERIFY(!c.available());
        QVERIFY2(c.unavailable.find("no published-runs table") != std::string::npos,
                 c.unavailable.c_str());
    }

    void rowTheCatalogCannotEstimateMakesItUnavailable()
    {
        // A row on the GPU without the fields a run needs (its source, model, layout): the table
        // is damaged. The estimate is not lost; the comparison says why it is missing.
        Catalog catalog = cp::test::shippedCatalog();
        const nlohmann::json table
            = {{"format", "clusterplanner-training-validation"},
               {"version", 1},
               {"rows", {{{"id", "broken"}, {"gpu", "h100-sxm5-80gb"}, {"tp", 0}}}}};
        catalog.setPublishedTrainingRuns(std::make_shared<const nlohmann::json>(table),
                                         "broken.json");
        const PublishedRunComparison c
            = compareWithPublishedRuns(catalog, "h100-sxm5-80gb", Precision::BF16, false, 0.5);
        QVERIFY(!c.available());
        QVERIFY2(c.unavailable.find("cannot be estimated with this catalog") != std::string::npos
                     && c.unavailable.find("broken.json") != std::string::npos,
                 c.unavailable.c_str());
        // Rows on other GPUs are not even read: the same table is harmless for an A100 estimate,
        // which simply has no runs.
        const PublishedRunComparison a100
            = compareWithPublishedRuns(catalog, "a100-sxm4-80gb", Precision::BF16, false, 0.5);
        QVERIFY(!a100.available());
        QVERIFY2(a100.unavailable.find("no published 16-bit training run") != std::string::npos,
                 a100.unavailable.c_str());
    }

    void catalogDirectoryCarriesItsTable()
    {
        const Catalog shipped = loadCatalogDirectory(cp::test::sourcePath("catalogs"));
        QVERIFY(shipped.publishedTrainingRuns() != nullptr);
        QVERIFY(shipped.publishedTrainingRunsFile().find("training_validation.json")
                != std::string::npos);
        // A copy of the catalog files without the validation folder has no table, and loads.
        QTemporaryDir dir;
        namespace fs = std::filesystem;
        for (const auto &item : fs::directory_iterator(cp::test::sourcePath("catalogs")))
            if (item.is_regular_file())
                fs::copy_file(item.path(),
                              fs::path(dir.path().toStdString()) / item.path().filename());
        const Catalog bare = loadCatalogDirectory(dir.path().toStdString());
        QVERIFY(bare.publishedTrainingRuns() == nullptr);
        QCOMPARE(bare.size(), shipped.size());
    }
};

QTEST_APPLESS_MAIN(TestPublishedRuns)
#include "tst_publishedruns.moc"
