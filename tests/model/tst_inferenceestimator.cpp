// SPDX-License-Identifier: GPL-3.0-or-later
#include "model/catalogdatabase.h"
#include "model/inferenceestimator.h"
#include "model/inferencesetup.h"
#include "model/transformershape.h"

#include <QTest>

using namespace cp::model;

namespace {
const Catalog &catalog()
{
    static const Catalog shipped = loadCatalogDirectory(CP_SOURCE_DIR "/catalogs");
    return shipped;
}

InferenceEstimator estimator(const std::string &gpu, const std::string &model, Precision precision,
                             int tp, int input, int output, std::optional<int> batch)
{
    InferenceJob job;
    job.model = catalog().llm(model);
    job.weightPrecision = precision;
    job.gpusPerReplica = tp;
    job.inputTokens = input;
    job.outputTokens = output;
    job.batch = batch;
    const InferenceSetup setup
        = inferenceSetupFromCatalog(catalog(), "", gpu, "dc-industry-average", 4.0, std::nullopt);
    return InferenceEstimator(job, setup.hardware, setup.cost);
}
} // namespace

class TestInferenceEstimator : public QObject
{
    Q_OBJECT

private slots:
    void llama2SeventyBDecodeIsBandwidthBound()
    {
        // Llama 2 70B in FP16 is 2 x 68.98e9 = 138 GB of weights; on 8 x H100 each GPU holds 1/8.
        // At batch 1 a decode step must read all of them: 17.2 GB at 3350 GB/s x 0.89 achievable
        // (BabelStream triad 2.97 of 3.35 TB/s) = 6.06 ms, plus a little KV cache (320 KiB per
        // token x ~1152 tokens of context / 8).
        const InferenceEstimate e
            = estimator("h100-sxm5-80gb", "llama-2-70b", Precision::FP16, 8, 1024, 256, 1)
                  .estimate();
        const double weights
            = TransformerShape::fromModel(catalog().llm("llama-2-70b")).totalParameters() * 2.0;
        QVERIFY(qAbs(weights / 1e9 - 138.0) < 1.0);
        QCOMPARE(e.weightsBytesPerGpu, weights / 8);
        // KV per token: 80 layers x 2 x 8 KV heads x 128 x 2 bytes = 327,680 bytes.
        QCOMPARE(e.kvBytesPerToken, 327680.0);
        const double kvRead = 1.0 * (1024 + 128) * 327680.0 / 8;
        QVERIFY(qAbs(e.decodeMemorySeconds - (weights / 8 + kvRead) / (3350e9 * 0.89)) < 1e-12);
        QVERIFY(e.decodeMemorySeconds > e.decodeComputeSeconds);
        QCOMPARE(e.bottleneck, std::string("memory-bandwidth"));
        QVERIFY(e.fits);
    }

    void doublingBatchRunsOutOfMemory()
    {
        // Llama 2 13B FP16 on one L40S (48 GB): 26 GB of weights; KV per token 40 x 2 x 40 x 128 x
        // 2 = 819,200 bytes, so a 4096-token sequence needs 3.36 GB: about 5 fit, not 10.
        const InferenceEstimator est
            = estimator("l40s", "llama-2-13b", Precision::FP16, 1, 3072, 1024, std::nullopt);
        const int limit = est.maxBatch();
        const InferenceEstimate at = est.estimateAtBatch(limit);
        const InferenceEstimate twice = est.estimateAtBatch(2 * limit);
        QVERIFY(at.fits);
        QVERIFY(!twice.fits);
        QVERIFY2(twice.reason.find("KV cache") != std::string::npos, twice.reason.c_str());
        QCOMPARE(at.kvBytesPerToken, 819200.0);
        const double free = 48e9 - at.weightsBytesPerGpu - at.workspaceBytesPerGpu - 2e9;
        QCOMPARE(limit, static_cast<int>(free / (4096 * 819200.0)));
    }

    void throughputGrowsWithBatchUntilComputeBound()
    {
        const InferenceEstimator est
            = estimator("h100-sxm5-80gb", "llama-3-8b", Precision::FP8, 1, 512, 256, std::nullopt);
        const InferenceEstimate one = est.estimateAtBatch(1);
        const InferenceEstimate many = est.estimateAtBatch(64);
        QVERIFY(many.outputTokensPerSecondPerGpu > 10 * one.outputTokensPerSecondPerGpu);
        QVERIFY(many.tpotSeconds > one.tpotSeconds);
    }

    void replicasForRateAndTargets()
    {
        InferenceJob job;
        job.model = catalog().llm("llama-3-8b");
        job.weightPrecision = Precision::FP8;
        job.inputTokens = 1024;
        job.outputTokens = 256;
        job.ratePerSecond = 20;
        job.ttftP95Seconds = 0.5;
        job.tpotP95Seconds = 0.05;
        const InferenceSetup setup = inferenceSetupFromCatalog(
            catalog(), "", "l4", "dc-industry-average", 4.0, std::nullopt);
        const InferenceEstimate e = InferenceEstimator(job, setup.hardware, setup.cost).estimate();
        QVERIFY2(e.meetsTargets, e.reason.c_str());
        QVERIFY(e.ttftSeconds <= 0.5);
        QVERIFY(e.tpotSeconds <= 0.05);
        QVERIFY(e.utilisation < 1.0);
        // Enough replicas for the load: rate / replicas < capacity of one.
        QVERIFY(20.0 / e.replicas < e.requestsPerSecondPerReplica);
        const double wait = erlangCWaitP95Seconds(20.0 / e.replicas,
                                                  e.requestsPerSecondPerReplica / e.batch, e.batch);
        QVERIFY(qAbs(e.ttftSeconds - (e.prefillSeconds + wait)) < 1e-12);
        // The same queue's median and 99th percentile bracket the p95.
        const double mu = e.requestsPerSecondPerReplica / e.batch;
        QVERIFY(qAbs(e.ttftP99Seconds
                     - (e.prefillSeconds
                        + erlangCWaitQuantileSeconds(20.0 / e.replicas, mu, e.batch, 0.99)))
                < 1e-12);
        QVERIFY(e.ttftP50Seconds <= e.ttftSeconds && e.ttftSeconds <= e.ttftP99Seconds);
        QVERIFY(
            qAbs(e.endToEndP99Seconds() - e.endToEndSeconds - (e.ttftP99Seconds - e.ttftSeconds))
            < 1e-12);
    }

    void erlangC()
    {
        // One slot is M/M/1: C = rho, P(W > t) = rho·exp(-(mu - lambda) t). lambda 0.8, mu 1:
        // t95 = ln(0.8 / 0.05) / 0.2 = 13.863 s.
        QVERIFY(qAbs(erlangCWaitP95Seconds(0.8, 1.0, 1) - std::log(16.0) / 0.2) < 1e-12);
        // Two slots, a = 1 Erlang: B(2) = 0.2, C = 0.2 / (1 - 0.5·0.8) = 1/3;
        // t95 = ln((1/3)/0.05) / (2 - 1) = 1.8971 s.
        QVERIFY(qAbs(erlangCWaitP95Seconds(1.0, 1.0, 2) - std::log(20.0 / 3.0)) < 1e-12);
        QCOMPARE(erlangCWaitP95Seconds(0.01, 1.0, 8), 0.0);
        QVERIFY(std::isinf(erlangCWaitP95Seconds(2.0, 1.0, 2)));
        // Other percentiles of M/M/1 at rho 0.8: the median wait is ln(0.8 / 0.5) / 0.2 =
        // 2.350 s, the 99th ln(0.8 / 0.01) / 0.2 = 21.91 s; at rho 0.4 fewer than half wait.
        QVERIFY(qAbs(erlangCWaitQuantileSeconds(0.8, 1.0, 1, 0.5) - std::log(1.6) / 0.2) < 1e-12);
        QVERIFY(qAbs(erlangCWaitQuantileSeconds(0.8, 1.0, 1, 0.99) - std::log(80.0) / 0.2) < 1e-12);
        QCOMPARE(erlangCWaitQuantileSeconds(0.4, 1.0, 1, 0.5), 0.0);
    }

    void costPerGpuHour()
    {
        // H100 SXM: 30,000 USD + 120,000 / 8 of a DGX over 4 years (35,064 h) = 1.283 USD/h; power
        // (700 + 4600/8) W x 1.58 x 0.10 USD/kWh = 0.2015 USD/h.
        const InferenceSetup setup = inferenceSetupFromCatalog(
            catalog(), "", "h100-sxm5-80gb", "dc-industry-average", 4.0, std::nullopt);
        const double expected = 45000.0 / (4 * 8766) + 1.275 * 1.58 * 0.10;
        QVERIFY(qAbs(setup.cost.usdPerGpuHour() - expected) < 1e-9);
        ServingCostModel cloud = setup.cost;
        cloud.hourlyUsdPerGpu = 4.916; // AWS capacity-block H100 price
        QCOMPARE(cloud.usdPerGpuHour(), 4.916);
    }

    void pipelineStagesAcrossNodes()
    {
        // Llama 3 405B in FP16 (2 x 405.8e9 = 812 GB) cannot fit one 8 x H100 server (640 GB);
        // 16 GPUs on 8-GPU servers are TP 8 x PP 2, each GPU holding 1/16 of the weights.
        const double weights
            = TransformerShape::fromModel(catalog().llm("llama-3-405b")).totalParameters() * 2.0;
        QVERIFY(!estimator("h100-sxm5-80gb", "llama-3-405b", Precision::FP16, 8, 1024, 256, 2)
                     .estimate()
                     .fits);
        const InferenceEstimator pp
            = estimator("h100-sxm5-80gb", "llama-3-405b", Precision::FP16, 16, 1024, 256, 2);
        QCOMPARE(pp.pipelineStages(), 2);
        QCOMPARE(pp.tensorParallel(), 8);
        QCOMPARE(pp.layoutProblem(), std::string());
        const InferenceEstimate e = pp.estimate();
        QVERIFY2(e.fits, e.reason.c_str());
        QCOMPARE(e.weightsBytesPerGpu, weights / 16);
        QCOMPARE(e.gpusPerReplica, 16);
        // Batch 2 in two micro-batches of one sequence: a decode step is a round of two stage
        // times, each reading that stage's weights and one sequence's cache of its layers.
        // KV per token: 126 layers x 2 x 8 KV heads x 128 x 2 bytes; each GPU keeps 1/8 of the
        // heads (TP 8) of half of the layers (PP 2).
        const double kvPerToken = 126 * 2.0 * 8 * 128 * 2;
        QCOMPARE(e.kvBytesPerToken, kvPerToken);
        const double kvRead = 1.0 * (1024 + 128) * kvPerToken / 16;
        QVERIFY(qAbs(e.decodeMemorySeconds - 2 * (weights / 16 + kvRead) / (3350e9 * 0.89))
                < 1e-12);
        // About 34.0 ms: reading all 812 GB once over 8 GPUs' achievable bandwidth
        // (812 GB / 8 / (3350 GB/s x 0.89) = 34.0 ms).
        QVERIFY(qAbs(e.decodeMemorySeconds - 0.0340) < 0.0005);
        QVERIFY(e.decodeCommSeconds > 0); // stage sends and all-reduces
        QCOMPARE(e.outputTokensPerSecondPerGpu, e.outputTokensPerSecondPerReplica / 16);

        // 12 GPUs of 8-GPU servers: neither a TP group in one server nor whole stages.
        const InferenceEstimator twelve
            = estimator("h100-sxm5-80gb", "llama-3-405b", Precision::FP16, 12, 1024, 256, 2);
        QVERIFY2(twelve.layoutProblem().find("multiple of 8") != std::string::npos,
                 twelve.layoutProblem().c_str());
        const InferenceEstimate bad = twelve.estimate();
        QVERIFY(!bad.fits);
        QCOMPARE(bad.bottleneck, std::string("layout"));
    }

    void modelThatDoesNotFit()
    {
        const InferenceEstimate e
            = estimator("l4", "llama-2-70b", Precision::FP16, 1, 512, 128, std::nullopt).estimate();
        QVERIFY(!e.fits);
        QCOMPARE(e.maxBatch, 0);
        QVERIFY2(e.reason.find("weights 128.5") != std::string::npos, e.reason.c_str());
    }
};

QTEST_APPLESS_MAIN(TestInferenceEstimator)
#include "tst_inferenceestimator.moc"
