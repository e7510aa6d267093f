// SPDX-License-Identifier: GPL-3.0-or-later
#include "model/catalogdatabase.h"
#include "model/clusterdescription.h"
#include "model/jsonfieldreader.h"
#include "model/publishedrunvalidation.h"
#include "model/trainingestimator.h"
#include "model/units.h"

#include <QTest>

using namespace cp::model;

namespace {

const Catalog &catalog()
{
    static const Catalog shipped = loadCatalogDirectory(CP_SOURCE_DIR "/catalogs");
    return shipped;
}

/** A tiny dense model whose sizes are easy to work out by hand. */
ModelSpec tinyModel()
{
    ModelSpec model;
    model.id = "tiny";
    model.name = "tiny";
    model.layers = 2;
    model.hidden = 1024;
    model.heads = 16;
    model.kvHeads = 16;
    model.ffn = 4096;
    model.vocab = 1000;
    return model;
}

ClusterDescription dgxA100(int gpus)
{
    return ClusterDescription::fromCatalog(catalog(), "dgx-a100", gpus, "", 0, 1.0, true, 40);
}

} // namespace

class TestTrainingEstimator : public QObject
{
    Q_OBJECT

private slots:
    void modelStateMemoryFollowsZero()
    {
        // Per-GPU parameters of the tiny model on one GPU: 2 layers x (4h² + 2h) attention and
        // norms + 2 x 8h² MLP + 2·V·h embeddings = 27,217,920. ZeRO (SC20): 2 + 2 + 12 bytes each.
        TrainingJob job;
        job.model = tinyModel();
        job.seqLen = 128;
        job.globalBatch = 1;
        ParallelConfig config;
        const TrainingEstimator estimator(job, dgxA100(1));
        const double psi = 27217920.0;
        TrainingEstimate e = estimator.estimate(config);
        config.zero = 0;
        e = estimator.estimate(config);
        QVERIFY(e.valid);
        QCOMPARE(e.memory.weightsBytes, 2 * psi);
        QCOMPARE(e.memory.gradientsBytes, 2 * psi);
        QCOMPARE(e.memory.optimizerBytes, 12 * psi);

        // Eight-way data parallel: ZeRO-1 shards the 12 bytes, ZeRO-2 also the gradients, ZeRO-3
        // all.
        job.globalBatch = 8;
        const TrainingEstimator eight(job, dgxA100(8));
        config.dp = 8;
        config.zero = 1;
        e = eight.estimate(config);
        QCOMPARE(e.memory.optimizerBytes, 12 * psi / 8);
        QCOMPARE(e.memory.gradientsBytes, 2 * psi);
        config.zero = 2;
        QCOMPARE(eight.estimate(config).memory.gradientsBytes, 2 * psi / 8);
        config.zero = 3;
        QCOMPARE(eight.estimate(config).memory.weightsBytes, 2 * psi / 8);
    }

    void activationsFollowKorthikanti()
    {
        // Korthikanti et al. 2022, eq. 1: 34·s·b·h + 5·a·s²·b bytes per layer without parallelism.
        // s = 128, b = 1, h = 1024, a = 16: 4,456,448 + 1,310,720 (unfused scores). Two layers, one
        // microbatch in flight, plus fp32 logits 4·s·V = 512,000 bytes.
        TrainingJob job;
        job.model = tinyModel();
        job.seqLen = 128;
        job.globalBatch = 1;
        job.attention = AttentionKernel::Unfused;
        ParallelConfig config;
        config.recompute = Recompute::None;
        const TrainingEstimator estimator(job, dgxA100(1));
        QCOMPARE(estimator.estimate(config).memory.activationsBytes,
                 2 * (4456448.0 + 1310720.0) + 512000.0);
        // Flash attention never stores the s x s scores; selective recomputation drops them too.
        job.attention = AttentionKernel::Flash;
        QCOMPARE(TrainingEstimator(job, dgxA100(1)).estimate(config).memory.activationsBytes,
                 2 * 4456448.0 + 512000.0);
        // Full recomputation keeps only each layer's 2·s·b·h input, and rebuilds one layer at a
        // time.
        config.recompute = Recompute::Full;
        QCOMPARE(TrainingEstimator(job, dgxA100(1)).estimate(config).memory.activationsBytes,
                 2 * (2.0 * 128 * 1024) + 4456448.0 + 512000.0);
    }

    void pipelineBubble()
    {
        // (p - 1) / (v·m): p = 4, m = 8 -> 0.375; interleaved v = 2 -> 0.1875 (SC21 §2.2).
        TrainingJob job;
        job.model = catalog().llm("llama-2-7b");
        job.seqLen = 4096;
        job.globalBatch = 16;
        ParallelConfig config;
        config.pp = 4;
        config.dp = 2;
        config.microbatch = 1;
        const TrainingEstimator estimator(job, dgxA100(8));
        TrainingEstimate e = estimator.estimate(config);
        QVERIFY2(e.valid, e.reason.c_str());
        QCOMPARE(e.microbatchesPerStep, 8);
        QCOMPARE(e.bubbleFraction, 0.375);
        config.interleave = 2;
        e = estimator.estimate(config);
        QCOMPARE(e.bubbleFraction, 0.1875);
        // The bubble's seconds are (p-1)/v stage-times: the interleaved step must be shorter.
        QVERIFY(e.breakdown.bubbleSeconds < estimator
                                                .estimate([&] {
                                                    auto c = config;
                                                    c.interleave = 1;
                                                    return c;
                                                }())
                                                .breakdown.bubbleSeconds);
    }

    void breakdownAddsUpAndFlopsAreConsistent()
    {
        TrainingJob job;
        job.model = catalog().llm("gpt-3-175b");
        job.seqLen = 2048;
        job.globalBatch = 1536;
        job.tokens = 300e9;
        ParallelConfig config;
        config.tp = 8;
        config.pp = 16;
        config.dp = 8;
        config.microbatch = 1;
        config.recompute = Recompute::Full;
        const TrainingEstimator estimator(job, dgxA100(1024));
        const TrainingEstimate e = estimator.estimate(config);
        QVERIFY2(e.valid && e.fits, e.reason.c_str());
        QVERIFY(qAbs(e.breakdown.total() - e.stepSeconds) < 1e-9 * e.stepSeconds);
        // Full recomputation adds one forward pass of the layers: hardware FLOPs = 4/3 of model
        // FLOPs for the layer part (Megatron's 96 vs 72 coefficient).
        const double ratio = e.hardwareFlopsPerSecondPerGpu / e.modelFlopsPerSecondPerGpu;
        QVERIFY2(ratio > 1.30 && ratio < 4.0 / 3.0, qPrintable(QString::number(ratio)));
        QCOMPARE(e.tokensPerSecond, 1536.0 * 2048 / e.stepSeconds);
        QCOMPARE(e.trainingSeconds, 300e9 / e.tokensPerSecond);
        QCOMPARE(e.gpuHours, e.trainingSeconds * 1024 / 3600);
        QCOMPARE(e.mfu, e.modelFlopsPerSecondPerGpu / 312e12);
        // The paper's end-to-end estimate 8·T·P/(n·X): 300B tokens, 175B, 1024 GPUs at 140 TFLOP/s
        // is about 34 days. At our predicted rate the same formula must agree with our time.
        const double days = 8.0 * 300e9 * 175e9 / (1024 * e.hardwareFlopsPerSecondPerGpu) / 86400;
        QVERIFY2(qAbs(days / (e.trainingSeconds / 86400) - 1.0) < 0.05,
                 qPrintable(QString::number(days)));
    }

    void invalidLayoutsAreExplained()
    {
        TrainingJob job;
        job.model = catalog().llm("llama-2-7b");
        job.seqLen = 4096;
        job.globalBatch = 64;
        const TrainingEstimator estimator(job, dgxA100(64));
        ParallelConfig config;
        config.tp = 16;
        config.dp = 4;
        TrainingEstimate e = estimator.estimate(config);
        QVERIFY(!e.valid);
        QVERIFY2(e.reason.find("TP=16 exceeds the 8-GPU scale-up") == 0, e.reason.c_str());
        config.tp = 8;
        config.dp = 4;
        e = estimator.estimate(config);
        QVERIFY2(
            e.reason.find("TP x PP x DP x CP = 8 x 1 x 4 x 1 = 32, but the cluster has 64 GPUs")
                == 0,
            e.reason.c_str());
        config.tp = 1;
        config.pp = 3;
        config.dp = 1;
        e = estimator.estimate(config);
        QVERIFY(!e.valid);
        TrainingJob odd = job;
        odd.model.heads = 30;
        odd.model.kvHeads = 30;
        odd.model.hidden = 3840;
        config = ParallelConfig {};
        config.tp = 4;
        config.dp = 16;
        e = TrainingEstimator(odd, dgxA100(64)).estimate(config);
        QVERIFY2(e.reason.find("30 attention heads are not divisible by TP=4") != std::string::npos,
                 e.reason.c_str());
    }

    void doesNotFitIsReported()
    {
        // 175B parameters x 16 bytes on 8 GPUs without sharding cannot fit in 80 GB.
        TrainingJob job;
        job.model = catalog().llm("gpt-3-175b");
        job.seqLen = 2048;
        job.globalBatch = 8;
        job.constraints.tp = 8;
        job.constraints.pp = 1;
        const TrainingEstimator estimator(job, dgxA100(8));
        const TrainingSearchResult result = estimator.search();
        QVERIFY(!result.found);
        QVERIFY2(result.reason.find("no layout fits in memory") == 0, result.reason.c_str());
    }

    void searchFindsFastestFittingLayout()
    {
        TrainingJob job;
        job.model = catalog().llm("gpt-3-175b");
        job.seqLen = 2048;
        job.globalBatch = 1536;
        const ClusterDescription cluster = dgxA100(1024);
        const TrainingEstimator estimator(job, cluster);
        const TrainingSearchResult result = estimator.search();
        QVERIFY2(result.found, result.reason.c_str());
        QVERIFY(result.top.size() == 10);
        QVERIFY(result.evaluated > 1000);
        for (std::size_t i = 1; i < result.top.size(); ++i)
            QVERIFY(result.top[i - 1].stepSeconds <= result.top[i].stepSeconds);
        for (const TrainingEstimate &e : result.top)
            QVERIFY(e.fits && e.memory.totalBytes() <= cluster.gpu.memoryBytes);
        // The best found is no slower than the paper's hand-tuned layout (TP 8, PP 16, full
        // recompute).
        ParallelConfig paper;
        paper.tp = 8;
        paper.pp = 16;
        paper.dp = 8;
        paper.recompute = Recompute::Full;
        QVERIFY(result.best.stepSeconds <= estimator.estimate(paper).stepSeconds);
        QVERIFY(!result.best.bottleneck.empty() && !result.best.bottleneckExplanation.empty());
        // The largest microbatch that fits: it fits, and the next divisor up does not.
        QVERIFY(result.largestFittingMicrobatch >= result.best.config.microbatch);
        ParallelConfig probe = result.best.config;
        probe.microbatch = result.largestFittingMicrobatch;
        QVERIFY(estimator.estimate(probe).fits);
        const int perReplica = 1536 / probe.dp;
        for (int mb = probe.microbatch + 1; mb <= perReplica; ++mb) {
            if (perReplica % mb == 0) {
                probe.microbatch = mb;
                QVERIFY(!estimator.estimate(probe).fits);
                break;
            }
        }
    }

    void oversubscriptionSlowsDataParallelSync()
    {
        // The same job on a 4:1 oversubscribed fabric: the exposed gradient sync must grow, and
        // the bottleneck text must say so once it dominates.
        TrainingJob job;
        job.model = catalog().llm("llama-2-7b");
        job.seqLen = 4096;
        job.globalBatch = 256;
        job.dpOverlapFraction = 0.0;
        ParallelConfig config;
        config.dp = 256;
        config.microbatch = 1;
        const ClusterDescription fast = ClusterDescription::fromCatalog(
            catalog(), "dgx-a100", 256, "eth-10g", 1, 1.0, false, 32);
        const ClusterDescription slow = ClusterDescription::fromCatalog(
            catalog(), "dgx-a100", 256, "eth-10g", 1, 4.0, false, 32);
        const TrainingEstimate a = TrainingEstimator(job, fast).estimate(config);
        const TrainingEstimate b = TrainingEstimator(job, slow).estimate(config);
        QVERIFY(b.breakdown.dpCommExposedSeconds > 3.0 * a.breakdown.dpCommExposedSeconds);
        QCOMPARE(b.bottleneck, std::string("data-parallel"));
        QVERIFY2(b.bottleneckExplanation.find("4:1 oversubscribed") != std::string::npos,
                 b.bottleneckExplanation.c_str());
    }

    void megatronTableOneWithinFifteenPercent()
    {
        // Narayanan et al. SC21 Table 1 (tests/data, copied from shared/validation): the ten
        // published runs on DGX A100; publishedrunvalidation.h says how each row is set up.
        const std::string file = CP_TEST_DATA_DIR "/megatron_sc21_table1.json";
        const auto rows = validateAgainstMegatronTable(readJsonFile(file), catalog(), file);
        QCOMPARE(rows.size(), std::size_t(10));
        for (const ValidationRow &row : rows) {
            QVERIFY2(std::abs(row.relativeError()) < 0.15,
                     qPrintable(QStringLiteral("%1: predicted %2, published %3 TFLOP/s")
                                    .arg(QString::fromStdString(row.label))
                                    .arg(row.predictedTflopsPerGpu)
                                    .arg(row.publishedTflopsPerGpu)));
        }
        // Trend of the paper: per-GPU throughput grows from the 1.7B to the 1T run.
        QVERIFY(rows.back().predictedTflopsPerGpu > rows.front().predictedTflopsPerGpu);
        qInfo("%s", validationReportMarkdown(rows, "SC21").c_str());
    }
};

QTEST_APPLESS_MAIN(TestTrainingEstimator)
#include "tst_trainingestimator.moc"
