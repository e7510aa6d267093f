// SPDX-License-Identifier: GPL-3.0-or-later
#include "model/catalog/catalogdatabase.h"
#include "model/core/humantext.h"
#include "model/core/inputerror.h"
#include "model/core/jsonfieldreader.h"
#include "model/inference/fleetcapacity.h"
#include "model/inference/inferenceestimator.h"
#include "model/inference/inferencesetup.h"
#include "model/inference/inferencestep.h"
#include "model/inference/offlinejob.h"
#include "model/inference/servingengine.h"
#include "model/inference/servingfloor.h"
#include "model/plan/planio.h"
#include "model/training/transformershape.h"
#include "model/validation/inferencevalidation.h"
#include "model/validation/publishedservingcomparison.h"
#include "testsupport.h"

#include <QTest>

#include <cmath>
#include <map>

using namespace cp::model;

namespace {
using cp::test::loadSamplePlan;
using cp::test::planLoadError;
using cp::test::shippedCatalog;
InferenceEstimator estimator(const std::string &gpu, const std::string &model, Precision precision,
                             int tp, int input, int output, std::optional<int> batch,
                             const std::string &engine = "")
{
    InferenceJob job;
    if (!engine.empty())
        job.engine = *findServingEngine(engine);
    job.model = shippedCatalog().llm(model);
    job.weightPrecision = precision;
    job.gpusPerReplica = tp;
    job.inputTokens = input;
    job.outputTokens = output;
    job.batch = batch;
    const InferenceSetup setup = inferenceSetupFromCatalog(
        shippedCatalog(), {.gpuId = gpu, .facilityId = "dc-industry-average"});
    return InferenceEstimator(job, setup.hardware, setup.cost);
}
/** A fleet of Llama 3 70B in FP8 on 2-GPU H100 replicas, 1,000 + 200 tokens at `rate`
 * requests/s within a 500 ms p95 TTFT and a 100 ms TPOT, sized by the estimator. */
InferenceEstimate llama3SeventyBFp8Fleet(double rate)
{
    InferenceJob job;
    job.model = shippedCatalog().llm("llama-3-70b");
    job.weightPrecision = Precision::FP8;
    job.gpusPerReplica = 2;
    job.inputTokens = 1000;
    job.outputTokens = 200;
    job.ratePerSecond = rate;
    job.ttftP95Seconds = 0.5;
    job.tpotP95Seconds = 0.1;
    const InferenceSetup setup = inferenceSetupFromCatalog(
        shippedCatalog(), {.gpuId = "h100-sxm5-80gb", .facilityId = "dc-industry-average"});
    return InferenceEstimator(job, setup.hardware, setup.cost).estimate();
}
/** Llama 4 Scout in FP8 with an FP8 K/V cache on one H200, one sequence of 999,000 + 1,000
 * tokens (a million-token context), on `engine`'s profile (the default's when empty). */
InferenceEstimate scoutAtAMillionTokens(const std::string &engine = "")
{
    InferenceJob job;
    if (!engine.empty())
        job.engine = *findServingEngine(engine);
    job.model = shippedCatalog().llm("llama-4-scout");
    job.weightPrecision = Precision::FP8;
    job.kvPrecision = Precision::FP8;
    job.inputTokens = 999000;
    job.outputTokens = 1000;
    job.batch = 1;
    const InferenceSetup setup = inferenceSetupFromCatalog(
        shippedCatalog(), {.gpuId = "h200-sxm-141gb", .facilityId = "dc-industry-average"});
    return InferenceEstimator(job, setup.hardware, setup.cost).estimate();
}

/** Llama 3 8B with FP8 weights and K/V cache: the workload several tests serve. */
InferenceJob llama3EightBFp8(int input, int output)
{
    InferenceJob job;
    job.model = shippedCatalog().llm("llama-3-8b");
    job.weightPrecision = Precision::FP8;
    job.kvPrecision = Precision::FP8;
    job.inputTokens = input;
    job.outputTokens = output;
    return job;
}
/** `model` in `precision` on `gpusPerReplica` GPUs a replica, 1,024 tokens in and 256 out. */
InferenceJob servingJob(const std::string &model, Precision precision, int gpusPerReplica)
{
    InferenceJob job;
    job.model = shippedCatalog().llm(model);
    job.weightPrecision = precision;
    job.gpusPerReplica = gpusPerReplica;
    job.inputTokens = 1024;
    job.outputTokens = 256;
    return job;
}

/** The same served at `rate` requests a second within a p95 TTFT of 500 ms and a p95 TPOT of
 * 50 ms: the guide's serving question. */
InferenceJob servedAtRate(const std::string &model, Precision precision, int gpusPerReplica,
                          double rate)
{
    InferenceJob job = servingJob(model, precision, gpusPerReplica);
    job.ratePerSecond = rate;
    job.ttftP95Seconds = 0.5;
    job.tpotP95Seconds = 0.05;
    return job;
}

/** Llama 3 70B in BF16, one GPU a replica, 1,000 tokens in and 200 out at 5 requests/s within
 * a p95 TTFT of 3 s and a p95 TPOT of 250 ms: the load one GB200 GPU nearly carries alone. */
InferenceJob llama3SeventyBAtFivePerSecond()
{
    InferenceJob job = servingJob("llama-3-70b", Precision::BF16, 1);
    job.inputTokens = 1000;
    job.outputTokens = 200;
    job.ratePerSecond = 5;
    job.ttftP95Seconds = 3.0;
    job.tpotP95Seconds = 0.25;
    return job;
}

/** One H100 SXM5 at a flat 2 USD per GPU-hour. */
InferenceSetup oneH100()
{
    return inferenceSetupFromCatalog(
        shippedCatalog(),
        {.gpuId = "h100-sxm5-80gb", .facilityId = "dc-industry-average", .hourlyUsdPerGpu = 2.0});
}
const StepOperation *findOperation(const StepOperations &operations, const std::string &name)
{
    for (const StepOperation &op : operations) {
        if (name == op.name)
            return &op;
    }
    return nullptr;
}
} // namespace

class TestInferenceEstimator : public QObject
{
    Q_OBJECT

private slots:
    void llama2SeventyBDecodeIsBandwidthBound()
    {
        // Llama 2 70B in FP16 is 2 x 68.98e9 = 138 GB of weights; on 8 x H100 each GPU holds 1/8.
        // At batch 1 a decode step must read all of them but the input embedding's 32,000 x
        // 8,192 x 2 bytes = 524.3 MB, whose one row it gathers: 17.18 GB at the 3350 GB/s x 0.836
        // a GEMM of few rows streams its weights at (aiconfigurator's H100 GEMMs) = 6.13 ms, plus
        // a little KV cache (320 KiB per token x ~1152 tokens of context / 8) at the 0.89 an
        // element-wise kernel reaches (BabelStream triad 2.97 of 3.35 TB/s).
        const InferenceEstimate e
            = estimator("h100-sxm5-80gb", "llama-2-70b", Precision::FP16, 8, 1024, 256, 1)
                  .estimate();
        const double weights
            = TransformerShape::fromModel(shippedCatalog().llm("llama-2-70b")).totalParameters()
            * 2.0;
        QVERIFY(qAbs(weights / 1e9 - 138.0) < 1.0);
        QCOMPARE(e.weightsBytesPerGpu, weights / 8);
        // KV per token: 80 layers x 2 x 8 KV heads x 128 x 2 bytes = 327,680 bytes.
        QCOMPARE(e.kvBytesPerToken, 327680.0);
        const double kvRead = 1.0 * (1024 + 128) * 327680.0 / 8;
        QVERIFY(qAbs(e.decodeMemorySeconds
                     - ((weights - 524288000.0) / 8 / (3350e9 * 0.836) + kvRead / (3350e9 * 0.89)))
                < 1e-12);
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
        // 48 GB less 26.0 GB of weights and 2 GB of CUDA context leave 19.97 GB, 5.95
        // sequences of 3.355 GB before the engine's activation workspace W: any W between
        // 0.1 and 3.2 GB (a prefill's activations, not a whole sequence's KV) leaves 5.
        QVERIFY2(at.workspaceBytesPerGpu > 0.1e9 && at.workspaceBytesPerGpu < 3.2e9,
                 qPrintable(QString::number(at.workspaceBytesPerGpu)));
        QCOMPARE(limit, 5);
    }

    void computeBoundDecodeStillGainsFromABatch()
    {
        // Llama 3 70B in BF16 on 4 B200s a replica at batch 128: the decode step's GEMMs have
        // 128 rows and run below the peak, so the step is compute-bound, yet 256 sequences still
        // make more tokens a second (the explanation said "a larger batch will not add
        // throughput"). By hand the FLOPs alone, 128 x 2 x 69.5 G / 4 GPUs = 4.45 TFLOP at
        // 2,250 TFLOP/s, take 1.98 ms, under the 4.4 ms the weights take to stream (35.3 GB at
        // 8 TB/s): only the GEMMs' efficiency at 128 rows makes them the bound.
        InferenceJob job = servingJob("llama-3-70b", Precision::BF16, 4);
        job.batch = 128;
        const InferenceSetup setup = inferenceSetupFromCatalog(
            shippedCatalog(), {.gpuId = "b200-sxm-192gb", .facilityId = "dc-industry-average"});
        const InferenceEstimate at128
            = InferenceEstimator(job, setup.hardware, setup.cost).estimate();
        job.batch = 256;
        const InferenceEstimate at256
            = InferenceEstimator(job, setup.hardware, setup.cost).estimate();
        QVERIFY2(at128.fits && at256.fits, at256.reason.c_str());
        QVERIFY(at256.outputTokensPerSecondPerGpu > at128.outputTokensPerSecondPerGpu);
        if (at128.bottleneck == "compute")
            QVERIFY2(at128.bottleneckExplanation.find("adds throughput only as they grow more "
                                                      "efficient")
                         != std::string::npos,
                     at128.bottleneckExplanation.c_str());
        QVERIFY(at128.bottleneckExplanation.find("will not add throughput") == std::string::npos);
    }

    void decodeStaysMemoryBoundAsTheBatchGrows()
    {
        // Llama 3 8B in FP8 on one H100 (3.35 TB/s HBM3, 1,979 dense FP8 TFLOP/s: datasheet),
        // 512 tokens in, 256 out. A decode step reads the 8.03 GB of weights once for the whole
        // batch and does 2 x 8.03e9 FLOPs per sequence. At batch 1: 2.4 ms of reading at full
        // bandwidth against 8 us of arithmetic at peak, memory-bound. At batch 64 the
        // arithmetic is 64 x 8 us = 0.52 ms at peak while the reads grow by the KV cache,
        // 32 layers x 2 x 8 KV heads x 128 x 2 bytes (BF16 KV) = 131,072 bytes a token, up to
        // 768 tokens: 64 x 768 x 131,072 = 6.4 GB more, 14.5 GB in all: still memory-bound, and
        // a step reads 14.5 / 8.03 = 1.8 times as much for 64 times the tokens, so each GPU
        // makes about 64 / 1.8 = 35 times the tokens a second (the KV cache grows as the
        // outputs do, so on average less than its full size is read: between 30x and 50x).
        const InferenceEstimator est
            = estimator("h100-sxm5-80gb", "llama-3-8b", Precision::FP8, 1, 512, 256, std::nullopt);
        const InferenceEstimate one = est.estimateAtBatch(1);
        const InferenceEstimate many = est.estimateAtBatch(64);
        QCOMPARE(one.kvBytesPerToken, 131072.0);
        QCOMPARE(one.bottleneck, std::string("memory-bandwidth"));
        QCOMPARE(many.bottleneck, std::string("memory-bandwidth"));
        QVERIFY(one.decodeMemorySeconds >= 8.03e9 / 3.35e12);
        QVERIFY(one.decodeComputeSeconds < one.decodeMemorySeconds);
        QVERIFY(many.decodeComputeSeconds < many.decodeMemorySeconds);
        const double gain = many.outputTokensPerSecondPerGpu / one.outputTokensPerSecondPerGpu;
        QVERIFY2(gain > 30 && gain < 50,
                 qPrintable(QStringLiteral("%1 (memory %2 / %3 s, compute %4 / %5 s)")
                                .arg(gain)
                                .arg(one.decodeMemorySeconds)
                                .arg(many.decodeMemorySeconds)
                                .arg(one.decodeComputeSeconds)
                                .arg(many.decodeComputeSeconds)));
        QVERIFY(many.tpotSeconds > one.tpotSeconds);
    }

    void replicasForRateAndTargets()
    {
        InferenceJob job = servedAtRate("llama-3-8b", Precision::FP8, 1, 20);
        // An engine that never chunks a prompt (in-flight batching, no chunked context).
        job.engine = *findServingEngine("tensorrt-llm-0.12");
        QVERIFY(!job.engine.chunkedPrefill);
        const InferenceSetup setup = inferenceSetupFromCatalog(
            shippedCatalog(), {.gpuId = "l4", .facilityId = "dc-industry-average"});
        const InferenceEstimate e = InferenceEstimator(job, setup.hardware, setup.cost).estimate();
        QVERIFY2(e.meetsTargets, e.reason.c_str());
        QVERIFY(e.ttftSeconds <= 0.5);
        QVERIFY(e.tpotP95Seconds <= 0.05);
        QVERIFY(e.tpotSeconds <= e.tpotP95Seconds);
        // A sized fleet keeps its headroom: within the 70% of capacity where the fleet model's
        // latencies are trusted (MLPerf server fleets put above 75% were at their limits).
        QVERIFY(e.utilisation <= 0.7);
        QVERIFY(!e.fixedFleet);
        // Little's law: a replica receives 20 / R requests a second, each in the system for its
        // mean TTFT (the median of a step boundary's uniform wait) and 256 tokens, so it holds
        // that product of sequences on average.
        const double lambda = 20.0 / e.replicas;
        QVERIFY(qAbs(e.inFlightSequences - lambda * (e.ttftP50Seconds + 256 * e.tpotSeconds))
                < 1e-6 * e.inFlightSequences);
        QVERIFY(e.inFlightSequences <= e.maxBatch);
        // Under load the 95th percentile first token is never the bare prefill: the step
        // carrying it also decodes the running batch.
        QVERIFY(e.ttftSeconds > e.prefillSeconds);
        QVERIFY(e.ttftP50Seconds <= e.ttftSeconds && e.ttftSeconds <= e.ttftP99Seconds);

        // The fleet sized for the rate, given back as a fixed fleet, is estimated the same: the
        // two once disagreed (63 L4s sized where a fixed 45 met the same targets).
        InferenceJob given = job;
        given.replicas = e.replicas;
        const InferenceEstimate fixed
            = InferenceEstimator(given, setup.hardware, setup.cost).estimate();
        QVERIFY2(fixed.meetsTargets, fixed.reason.c_str());
        QCOMPARE(fixed.ttftSeconds, e.ttftSeconds);
        QCOMPARE(fixed.tpotP95Seconds, e.tpotP95Seconds);
        QCOMPARE(fixed.batch, e.batch);
        // And it is the fewest: one replica fewer misses a target, or runs past the trusted 70%
        // of its capacity, or runs out of slots, which the explanation names.
        given.replicas = e.replicas - 1;
        const InferenceEstimate fewer
            = InferenceEstimator(given, setup.hardware, setup.cost).estimate();
        QVERIFY(!fewer.meetsTargets || fewer.utilisation > 0.7
                || e.bottleneckExplanation.find("slots taken") != std::string::npos);
        // Almost no load: no request waits, the TTFT is the prompt's own prefill beside one
        // decode step of nothing but itself.
        job.ratePerSecond = 0.001;
        const InferenceEstimate idle
            = InferenceEstimator(job, setup.hardware, setup.cost).estimate();
        QCOMPARE(idle.replicas, 1);
        QVERIFY(idle.ttftSeconds < e.ttftSeconds);
    }

    void everySizedFleetKeepsTheTrustedHeadroom()
    {
        // Llama 3 70B in BF16 on one GB200 GPU, 1,000 tokens in and 200 out at 5 requests/s
        // within a p95 TTFT of 3 s and a p95 TPOT of 250 ms. Held at a batch of slots, one
        // replica met the targets on paper at 88% of its rate, with a p95 TTFT of 2.4 s beside a
        // p50 of 0.15 s: the steep end of its queue, where the estimate's ~10% throughput error
        // decides whether it serves at all. With latency targets that path now keeps the same
        // 70% headroom as a fleet that admits prompts as they come: at most 0.7 of each
        // replica's rate. (Without targets a fleet is sized for throughput alone, up to its
        // rate: tst_diurnalautoscaling.)
        const InferenceJob job = llama3SeventyBAtFivePerSecond();
        const InferenceSetup setup = inferenceSetupFromCatalog(
            shippedCatalog(), {.gpuId = "gb200-nvl72-gpu", .facilityId = "dc-industry-average"});
        const InferenceEstimate e = InferenceEstimator(job, setup.hardware, setup.cost).estimate();
        QVERIFY2(e.meetsTargets, e.reason.c_str());
        QVERIFY2(e.utilisation <= 0.7, std::to_string(e.utilisation).c_str());
        QVERIFY(e.replicas >= 2);
        QVERIFY2(e.bottleneckExplanation.find("1 replica would meet the targets on paper, but "
                                              "above 70% of its capacity")
                     != std::string::npos,
                 e.bottleneckExplanation.c_str());
    }

    void smallDecodeGemmsAreNotComputeBound()
    {
        // Llama 3 70B in BF16 on 8 A100 SXM4 at batch 45: each GPU's weight GEMMs do 2 x 45
        // FLOPs for every 2 bytes of weight they read, 45 FLOPs a byte, far below what the
        // tensor cores need to outrun HBM (312 TFLOP/s x 0.82 of it on large GEMMs against 2,039
        // GB/s x 0.813 when a GEMM streams its weights: 154 FLOPs a byte). Yet at one row a
        // sequence their kernels are slower than streaming: the step was called compute-bound,
        // which sends a reader to faster tensor cores where more sequences a step is the remedy.
        const InferenceJob job = servingJob("llama-3-70b", Precision::BF16, 8);
        const InferenceSetup setup = inferenceSetupFromCatalog(
            shippedCatalog(), {.gpuId = "a100-sxm4-80gb", .facilityId = "dc-industry-average"});
        const InferenceEstimate small
            = InferenceEstimator(job, setup.hardware, setup.cost).estimateAtBatch(45);
        QVERIFY(small.decodeGemmTensorSeconds < small.decodeWeightStreamSeconds);
        QVERIFY(small.decodeGemmSeconds > small.decodeWeightStreamSeconds);
        QCOMPARE(small.bottleneck, std::string("small-gemms"));
        QVERIFY2(small.bottleneckExplanation.starts_with("decode's GEMMs are small at batch 45"),
                 small.bottleneckExplanation.c_str());
        // At batch 512 the same GEMMs do 512 FLOPs a byte, past those 154: whatever limits the
        // step, it is not the GEMMs' size.
        const InferenceEstimate large
            = InferenceEstimator(job, setup.hardware, setup.cost).estimateAtBatch(512);
        QVERIFY(large.fits);
        QVERIFY(large.decodeGemmTensorSeconds > large.decodeWeightStreamSeconds);
        QVERIFY(large.bottleneck != "small-gemms");
    }

    void anOwnerBuysWholeServers()
    {
        // The same GB200 fleet: its two GPUs are a sliver of one NVL72 rack, which is bought
        // whole, 72 GPUs at the catalog's per-GPU-hour cost: 72 / 2 = 36 times the GPUs' own.
        const InferenceJob job = llama3SeventyBAtFivePerSecond();
        const InferenceSetup rack = inferenceSetupFromCatalog(
            shippedCatalog(), {.gpuId = "gb200-nvl72-gpu", .facilityId = "dc-industry-average"});
        const InferenceEstimate e = InferenceEstimator(job, rack.hardware, rack.cost).estimate();
        QCOMPARE(e.fleetGpus(), 2LL);
        QCOMPARE(e.gpusPerServer, 72);
        QCOMPARE(e.servers, 1LL);
        QCOMPARE(e.spareGpus(), 70LL);
        // A request costs the fleet's hour over the 5 x 3,600 requests it serves in it, the sum
        // of its 1,000 prompt tokens and 200 output tokens at their prices.
        QVERIFY(qAbs(e.costPerRequestUsd - e.usdPerHour / (5 * 3600.0)) < 1e-12);
        QVERIFY(
            qAbs(e.costPerRequestUsd
                 - (1000 * e.costPerMillionInputTokensUsd + 200 * e.costPerMillionOutputTokensUsd)
                     / 1e6)
            < 1e-12);
        QVERIFY(qAbs(e.wholeServersUsdPerHour - 72 * rack.cost.usdPerGpuHour()) < 1e-9);
        QVERIFY(qAbs(e.wholeServersUsdPerHour / e.usdPerHour - 36.0) < 1e-9);
        // Llama 3 70B on pairs of H100 at 50 requests/s: 2 x replicas GPUs fill
        // ceil(2 x replicas / 8) DGX H100 of 8, the last one's other GPUs spare.
        const InferenceSetup dgx = inferenceSetupFromCatalog(
            shippedCatalog(), {.gpuId = "h100-sxm5-80gb", .facilityId = "dc-industry-average"});
        const InferenceEstimate pairs
            = InferenceEstimator(servedAtRate("llama-3-70b", Precision::BF16, 2, 50), dgx.hardware,
                                 dgx.cost)
                  .estimate();
        QVERIFY2(pairs.meetsTargets, pairs.reason.c_str());
        QCOMPARE(pairs.servers, (2LL * pairs.replicas + 7) / 8);
        QCOMPARE(pairs.spareGpus(), 8 * pairs.servers - 2LL * pairs.replicas);
        QVERIFY(qAbs(pairs.wholeServersUsdPerHour - 8.0 * pairs.servers * dgx.cost.usdPerGpuHour())
                < 1e-9);
        // Rented by the GPU-hour, the fleet pays for its own GPUs only.
        ServingCostModel cloud = dgx.cost;
        cloud.hourlyUsdPerGpu = 4.916;
        const InferenceEstimate rented
            = InferenceEstimator(servedAtRate("llama-3-70b", Precision::BF16, 2, 50), dgx.hardware,
                                 cloud)
                  .estimate();
        QCOMPARE(rented.wholeServersUsdPerHour, rented.usdPerHour);
    }

    void slotSizedFleetQueuesAsErlangC()
    {
        // Where holding each replica at a batch of slots (vLLM capped at 24 sequences a replica)
        // serves the rate, within the trusted 70% of its slots' rate, with no more replicas than
        // admitting prompts as they come within 70% of capacity, the fleet is sized by slots: each
        // of the replica's `batch` slots is held while the request's prompt is prefilled, its share
        // of the batch's batched prefill, and while its 256 output tokens come out, 256 x TPOT, so
        // a slot serves mu = 1 / (batched prefill / batch + 256 x TPOT) requests a second, and the
        // replicas share the 50 requests a second (M/M/c, Erlang C, tested below).
        InferenceJob job = servedAtRate("llama-3-70b", Precision::BF16, 4, 50);
        job.maxBatch = 24;
        // vLLM chunks prompts only for models whose context passes 32,768 tokens; Llama 3 70B's
        // is 8,192, so a prompt is prefilled whole.
        QVERIFY(job.engine.chunkedPrefillAboveContext > job.model.maxSeqLen);
        const InferenceSetup setup = inferenceSetupFromCatalog(
            shippedCatalog(), {.gpuId = "h100-sxm5-80gb", .facilityId = "dc-industry-average"});
        const InferenceEstimate e = InferenceEstimator(job, setup.hardware, setup.cost).estimate();
        QVERIFY2(e.meetsTargets, e.reason.c_str());
        QCOMPARE(e.batch, 24);
        const double lambda = 50.0 / e.replicas;
        const double mu = 1.0 / (e.batchedPrefillSeconds / e.batch + 256 * e.tpotSeconds);
        QVERIFY(lambda < e.batch * mu); // enough replicas: below saturation
        // Once it has a slot, a request joins the running batch at the next step boundary: it
        // waits a uniform share of one step between tokens, at the 95th percentile 0.95 of it;
        // then its prompt is prefilled in a step that also decodes the running batch, and never
        // in less than a step.
        QCOMPARE(e.tokensPerDecodeStep, 1.0);
        const double step = e.tpotSeconds;
        const double joined = std::max(step, e.prefillSeconds + e.decodeStepSeconds);
        QVERIFY(qAbs(e.ttftSeconds
                     - (joined + 0.95 * step + erlangCWaitP95Seconds(lambda, mu, e.batch)))
                < 1e-9);
        QVERIFY(
            qAbs(e.ttftP99Seconds
                 - (joined + 0.99 * step + erlangCWaitQuantileSeconds(lambda, mu, e.batch, 0.99)))
            < 1e-9);
        // Every slot decodes at the full batch's pace, and Erlang C keeps rho x batch busy.
        QCOMPARE(e.tpotP95Seconds, e.tpotSeconds);
        QVERIFY(qAbs(e.inFlightSequences - e.utilisation * 24) < 1e-9);
        // Its throughput is the load it serves, 50 requests/s of 256 tokens over its GPUs (it
        // was the batch's capacity, where an admitting fleet reports its load).
        QVERIFY(qAbs(e.outputTokensPerSecondPerGpu - 50.0 * 256 / (4.0 * e.replicas)) < 1e-9);
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
            shippedCatalog(), {.gpuId = "h100-sxm5-80gb", .facilityId = "dc-industry-average"});
        const double expected = 45000.0 / (4 * 8766) + 1.275 * 1.58 * 0.10;
        QVERIFY(qAbs(setup.cost.usdPerGpuHour() - expected) < 1e-9);
        // Rented instead (AWS capacity-block H100 price, 4.916 USD/h): the same tokens cost
        // 4.916 / 1.4845 = 3.31 times as much, the hardware and its power no longer counted.
        ServingCostModel cloud = setup.cost;
        cloud.hourlyUsdPerGpu = 4.916;
        InferenceJob job;
        job.model = shippedCatalog().llm("llama-3-8b");
        job.weightPrecision = Precision::FP8;
        job.inputTokens = 512;
        job.outputTokens = 256;
        job.batch = 16;
        const InferenceEstimate owned
            = InferenceEstimator(job, setup.hardware, setup.cost).estimate();
        const InferenceEstimate rented = InferenceEstimator(job, setup.hardware, cloud).estimate();
        QVERIFY(qAbs(rented.costPerMillionOutputTokensUsd / owned.costPerMillionOutputTokensUsd
                     - 4.916 / expected)
                < 1e-9);
    }

    void pipelineStagesAcrossNodes()
    {
        // Llama 3 405B in FP16 (2 x 405.8e9 = 812 GB) cannot fit one 8 x H100 server (640 GB);
        // 16 GPUs on 8-GPU servers are TP 8 x PP 2, each GPU holding 1/16 of the weights.
        const double weights
            = TransformerShape::fromModel(shippedCatalog().llm("llama-3-405b")).totalParameters()
            * 2.0;
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
        // times, each reading that stage's weights (but the input embedding, 128,256 x 16,384 x
        // 2 bytes = 4,202,692,608, whose rows are gathered) and one sequence's cache of its
        // layers.
        // KV per token: 126 layers x 2 x 8 KV heads x 128 x 2 bytes; each GPU keeps 1/8 of the
        // heads (TP 8) of half of the layers (PP 2).
        const double kvPerToken = 126 * 2.0 * 8 * 128 * 2;
        QCOMPARE(e.kvBytesPerToken, kvPerToken);
        const double kvRead = 1.0 * (1024 + 128) * kvPerToken / 16;
        QVERIFY(
            qAbs(
                e.decodeMemorySeconds
                - 2 * ((weights - 4202692608.0) / 16 / (3350e9 * 0.836) + kvRead / (3350e9 * 0.89)))
            < 1e-12);
        // About 36.1 ms: the 808 GB read once over 8 GPUs, each streaming its weights at
        // 3350 GB/s x 0.836 (808 GB / 8 / 2,800.6 GB/s = 36.06 ms).
        QVERIFY(qAbs(e.decodeMemorySeconds - 0.0362) < 0.0005);
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
        // A replica that cannot hold the model serves nothing: no fleet, power or cost.
        QVERIFY(!e.hasFleet());
        QCOMPARE(e.replicas, 0);
        QCOMPARE(e.fleetGpus(), 0LL);
        QCOMPARE(e.usdPerHour, 0.0);
        QCOMPARE(e.costPerMillionOutputTokensUsd, 0.0);
    }

    void unreachableTargetsSizeNoFleet()
    {
        // Llama 3 8B in BF16 on an L4: each decode step streams the 16.06 GB of weights (8.03 B
        // parameters x 2 bytes) from 300 GB/s of GDDR6 (L4 datasheet), at least 53.5 ms a
        // token, so no batch meets a 20 ms TPOT target at any rate.
        InferenceJob job;
        job.model = shippedCatalog().llm("llama-3-8b");
        job.weightPrecision = Precision::BF16;
        job.inputTokens = 1024;
        job.outputTokens = 256;
        job.ratePerSecond = 5;
        job.ttftP95Seconds = 0.5;
        job.tpotP95Seconds = 0.020;
        const InferenceSetup setup = inferenceSetupFromCatalog(
            shippedCatalog(), {.gpuId = "l4", .facilityId = "dc-industry-average"});
        const InferenceEstimate e = InferenceEstimator(job, setup.hardware, setup.cost).estimate();
        QVERIFY(e.fits);
        QVERIFY(!e.meetsTargets);
        QVERIFY2(e.reason.find("above the target") != std::string::npos, e.reason.c_str());
        QVERIFY(e.tpotSeconds >= 0.0535);
        // The replica's best (batch 1, unloaded) shows how far off the target is, but no fleet
        // is sized or priced: one replica credited with all 5 requests a second priced a token
        // at 1/300 of what the replicas carrying them would cost.
        QCOMPARE(e.batch, 1);
        QVERIFY(!e.hasFleet());
        QCOMPARE(e.powerWatts, 0.0);
        QCOMPARE(e.costPerMillionOutputTokensUsd, 0.0);
        // Control: the same load with a target twice the floor (107 ms) is served and priced.
        job.tpotP95Seconds = 0.107;
        const InferenceEstimate served
            = InferenceEstimator(job, setup.hardware, setup.cost).estimate();
        QVERIFY2(served.meetsTargets, served.reason.c_str());
        QVERIFY(served.hasFleet());
        QVERIFY(served.costPerMillionOutputTokensUsd > 0);
    }

    void aFleetCarriesTheRateItIsSizedFor()
    {
        // Llama 3 70B with INT4 weights on one H100 a replica, 2,000-token prompts, 200 tokens
        // out, 50 requests/s within a 410 ms p95 TTFT. The prompt's prefill takes about 403 ms,
        // so above batch 1 a prompt that finds a free slot still waits for a step boundary and
        // is prefilled beside the running decodes, past 410 ms however many replicas share the
        // load: only batch 1 serves it. A replica at batch 1 holds one request for its prefill
        // and 200 decode steps, over 3 s, so 50 requests/s need well over 150 replicas; a
        // batch no fleet could serve was once sized at one replica and chosen as the cheapest.
        InferenceJob job;
        job.model = shippedCatalog().llm("llama-3-70b");
        job.weightPrecision = Precision::INT4;
        job.inputTokens = 2000;
        job.outputTokens = 200;
        job.ratePerSecond = 50;
        job.ttftP95Seconds = 0.410;
        job.tpotP95Seconds = 0.050;
        const InferenceSetup setup = inferenceSetupFromCatalog(
            shippedCatalog(), {.gpuId = "h100-sxm5-80gb", .facilityId = "dc-industry-average"});
        const InferenceEstimate e = InferenceEstimator(job, setup.hardware, setup.cost).estimate();
        QVERIFY2(e.meetsTargets, e.reason.c_str());
        QCOMPARE(e.batch, 1);
        QVERIFY2(e.replicas > 150, qPrintable(QString::number(e.replicas)));
        QVERIFY(e.replicas * e.requestsPerSecondPerReplica >= 50.0);
        QVERIFY(e.ttftSeconds <= 0.410);
        // Sized for its p95, such a fleet leaves the p99 request waiting for a free slot at its
        // replica; when that puts p99 over twice p95 the estimate says why.
        QCOMPARE(ttftTailText(e).empty(), !(e.ttftP99Seconds > 2.0 * e.ttftSeconds));
        InferenceEstimate tail;
        tail.utilisation = 0.6;
        tail.ttftSeconds = 0.392;
        tail.ttftP99Seconds = 3.696;
        QVERIFY(ttftTailText(tail).find("routed to replicas at random") != std::string::npos);
        tail.ttftP99Seconds = 0.7;
        QVERIFY(ttftTailText(tail).empty());

        // The same rule over rates and targets: a fleet that meets its targets carries its
        // rate; one that cannot is refused, never sized at one replica.
        for (double rate : {1.0, 50.0, 2000.0, 137000.0, 1e9})
            for (double ttft : {0.41, 0.5, 2.0}) {
                job.ratePerSecond = rate;
                job.ttftP95Seconds = ttft;
                const InferenceEstimate f
                    = InferenceEstimator(job, setup.hardware, setup.cost).estimate();
                const QString where = QString("rate %1, TTFT %2 s").arg(rate).arg(ttft);
                if (f.meetsTargets)
                    QVERIFY2(f.replicas * f.requestsPerSecondPerReplica >= rate, qPrintable(where));
                else
                    QVERIFY2(!f.hasFleet(), qPrintable(where));
            }
    }

    void aRequestLongerThanTheContextIsRefused()
    {
        // Llama 3 8B reads 8,192 tokens: 8,000 in and 192 out fit; 8,000 and 193 do not, and
        // 100,000 in were once estimated as if it read them. Llama 3.1 8B, the same shape,
        // reads 131,072.
        InferenceJob job = llama3EightBFp8(8000, 192);
        job.batch = 1;
        const InferenceSetup setup = oneH100();
        QVERIFY(InferenceEstimator(job, setup.hardware, setup.cost).estimate().fits);
        job.outputTokens = 193;
        const InferenceEstimate over
            = InferenceEstimator(job, setup.hardware, setup.cost).estimate();
        QVERIFY(!over.fits);
        QCOMPARE(over.reason,
                 std::string("a request of 8,193 tokens (8,000 in, 193 out) is longer "
                             "than Llama 3 8B's context of 8,192 tokens"));
        job.model = shippedCatalog().llm("llama-3.1-8b");
        QCOMPARE(job.model.maxSeqLen, 131072);
        job.inputTokens = 100000;
        const InferenceEstimate longer
            = InferenceEstimator(job, setup.hardware, setup.cost).estimate();
        QVERIFY2(longer.fits, longer.reason.c_str());
    }

    void tensorParallelismMustSplitTheHeads()
    {
        // Llama 3 8B has 32 attention heads and 8 K/V heads: three ranks cannot split either,
        // and vLLM and TensorRT-LLM refuse such a replica; 8 splits both evenly.
        InferenceJob job = llama3EightBFp8(128, 128);
        job.batch = 1;
        const InferenceSetup setup = oneH100();
        job.gpusPerReplica = 3;
        const InferenceEstimate three
            = InferenceEstimator(job, setup.hardware, setup.cost).estimate();
        QVERIFY(!three.fits);
        QCOMPARE(three.reason,
                 std::string("tensor parallelism of 3 does not divide the model's 32 attention "
                             "heads"));
        job.gpusPerReplica = 8;
        const InferenceEstimate eight
            = InferenceEstimator(job, setup.hardware, setup.cost).estimate();
        QVERIFY2(eight.fits, eight.reason.c_str());
        // A model of 12 heads and 8 K/V heads at TP 4: the heads split, the K/V heads do too;
        // at TP 6 the heads split (2 each) but 6 neither divides 8 nor is a multiple of it.
        job.model.heads = 12;
        job.model.kvHeads = 8;
        job.model.hidden = 12 * 128;
        job.gpusPerReplica = 4;
        QVERIFY(
            InferenceEstimator(job, setup.hardware, setup.cost).estimate().reason.find("K/V heads")
            == std::string::npos);
        job.gpusPerReplica = 6;
        QCOMPARE(InferenceEstimator(job, setup.hardware, setup.cost).estimate().reason,
                 std::string("tensor parallelism of 6 neither divides the model's 8 K/V heads "
                             "nor is a multiple of them"));
    }

    void anUnservedRateGivesTheSmallestBatchsReason()
    {
        // Llama 3 70B INT4 on one H100 with 2,000-token prompts under a 300 ms p95 TTFT: the
        // prompt's prefill alone takes about 400 ms at any batch, so that is the reason. The
        // larger batches, whose time per output token also misses the 50 ms target, had set the
        // reason last: "even at batch 1 the time per output token is 16.9 ms, above the
        // target", of a batch 1 that met it.
        InferenceJob job;
        job.model = shippedCatalog().llm("llama-3-70b");
        job.weightPrecision = Precision::INT4;
        job.inputTokens = 2000;
        job.outputTokens = 200;
        job.ratePerSecond = 50;
        job.ttftP95Seconds = 0.300;
        job.tpotP95Seconds = 0.050;
        const InferenceSetup setup = oneH100();
        const InferenceEstimate e = InferenceEstimator(job, setup.hardware, setup.cost).estimate();
        QVERIFY(!e.meetsTargets);
        QVERIFY2(e.reason.starts_with("the prompt's prefill alone takes "), e.reason.c_str());
        QVERIFY2(e.reason.ends_with(" ms, above the TTFT target"), e.reason.c_str());
    }

    void aRateBeyondAMillionReplicasIsRefused()
    {
        // A billion requests a second of Llama 3 8B: one H100 serves some hundreds a second at
        // its largest batch, so the fleet would be over a million replicas. It is refused with
        // that reason, not sized at one replica.
        InferenceJob job = llama3EightBFp8(100, 100);
        job.ratePerSecond = 1e9;
        job.ttftP95Seconds = 0.5;
        job.tpotP95Seconds = 0.05;
        const InferenceSetup setup = oneH100();
        const InferenceEstimate e = InferenceEstimator(job, setup.hardware, setup.cost).estimate();
        QVERIFY(!e.meetsTargets);
        QVERIFY(!e.hasFleet());
        // At its largest batch, 256, a replica serves about 209 requests/s; a fleet sized for
        // latency targets runs each at 70% of that, 0.7 x 209 = 146 requests/s: 1e9 / 146 = 6.8
        // million replicas, the count the reason gives with the rate that makes it (it gave
        // "209 requests/s each", which does not divide into 6.8 million).
        QVERIFY2(e.reason.find("replicas at batch 256 (146 requests/s each: 70% of the 209 a "
                               "replica carries, the headroom a fleet sized for latency targets "
                               "keeps), more than the 1,000,000 a fleet is sized to")
                     != std::string::npos,
                 e.reason.c_str());
        QVERIFY2(e.reason.rfind("the rate needs 6,8", 0) == 0, e.reason.c_str());
    }

    void mixedInputGemmsStreamTheirFewerBytes()
    {
        // Llama 2 7B with INT4 weights at batch 1 on one H100 SXM5. Its MLP down GEMM reads
        // 4,096 x 11,008 x 0.5 B of weights and 1 x (11,008 + 4,096) x 2 B of activations,
        // 22,574,592 B, at the 2,800.6 GB/s a GEMM of few rows streams its weights (as in
        // decodeGemmsStreamWeightsAtAGemmsRate): 8.061 us, plus the 3.5 us launch, 11.561 us,
        // 0.36994 ms over 32 layers. Its 90.2 MFLOP run on BF16 tensor cores (989.4 TFLOP/s) at the
        // large-GEMM fraction 0.784 for the 4,096 x 11,008 weight matrix, 2 / (1/4,096 + 1/11,008)
        // = 5,970.5, 5,970.5 / (5,970.5 + 517) = 0.9203, on one row padded to the MMA tile's 16:
        // 44.6 TFLOP/s, 2.0 us, below the stream. (The GEMM curve at M = 1, 4.47 TFLOP/s, would
        // take 20.2 us: the 4-bit GEMM as slow as the 16-bit one, 32 x 23.7 us = 0.758 ms.)
        const InferenceEstimate int4
            = estimator("h100-sxm5-80gb", "llama-2-7b", Precision::INT4, 1, 128, 128, 1).estimate();
        const StepOperation *down = findOperation(int4.decodeOperations, "MLP down");
        QVERIFY(down);
        QCOMPARE(down->bytes, 32 * 22574592.0);
        QVERIFY2(qAbs(down->seconds - 0.36994e-3) < 0.0001e-3,
                 qPrintable(QString::number(down->seconds * 1e3)));
        // Marlin's claim, near the ideal speed-up of the bytes saved at small batches: the
        // 16-bit GEMM (1.1427 ms, decodeGemmsStreamWeightsAtAGemmsRate) takes over three times as
        // long.
        const InferenceEstimate fp16
            = estimator("h100-sxm5-80gb", "llama-2-7b", Precision::FP16, 1, 128, 128, 1).estimate();
        QVERIFY(findOperation(fp16.decodeOperations, "MLP down")->seconds > 3.0 * down->seconds);
        // The step's roofline says the same: memory-bound, not compute-bound at batch 1.
        QVERIFY(int4.decodeMemorySeconds > int4.decodeComputeSeconds);
    }

    void int8RunsTheEightBitCurveAsFp8Does()
    {
        // On an H100 INT8 and FP8 have the same dense peak (1,978.9 TOPS and TFLOP/s) and the
        // same 8-bit MMA path, and the same bytes a weight. Llama 2 7B's prefill of 1,024 tokens
        // runs its gated MLP up GEMM (1,024 x 22,016 x 4,096, effective size 3 / (1/1,024 +
        // 1/22,016 + 1/4,096) = 2,369.4) at the FP8 curve's 0.724 x 2,369.4 / (2,369.4 + 827) =
        // 0.53668 of the peak: 184.68 GFLOP in 173.9 us, plus the 3.5 us launch, 177.4 us a
        // layer, in both. INT8 took the 16-bit curve, 0.784 x 2,369.4 / (2,369.4 + 517) =
        // 0.64357, 148.5 us: a sixth faster than FP8 for the same bytes and peak.
        const auto mlpUp = [](Precision precision) {
            const InferenceEstimate e
                = estimator("h100-sxm5-80gb", "llama-2-7b", precision, 1, 1024, 128, 1).estimate();
            const StepOperation *op = findOperation(e.prefillOperations, "MLP up (gate and up)");
            return op ? op->seconds / 32 : -1.0;
        };
        QVERIFY2(qAbs(mlpUp(Precision::FP8) - 177.4e-6) < 0.5e-6,
                 qPrintable(QString::number(mlpUp(Precision::FP8) * 1e6)));
        QCOMPARE(mlpUp(Precision::INT8), mlpUp(Precision::FP8));
    }

    void batchedPrefillReadsTheWeightsOnce()
    {
        // Static batch of 64 prompts of 128 tokens (Llama 2 7B FP16, one H100): one batched
        // prefill runs GEMMs of 8,192 rows and reads the 13.5 GB of weights once; 64 separate
        // prefills would read them 64 times (64 x 4.5 ms = 0.29 s of weight traffic alone at
        // 2,982 GB/s), so the batch must cost well under 64 single prompts.
        const InferenceEstimate e
            = estimator("h100-sxm5-80gb", "llama-2-7b", Precision::FP16, 1, 128, 128, 64)
                  .estimate();
        QVERIFY2(e.fits, e.reason.c_str());
        QVERIFY(e.batchedPrefillSeconds > e.prefillSeconds);
        QVERIFY2(e.batchedPrefillSeconds < 64 * 13.4e9 / (3350e9 * 0.89),
                 qPrintable(QString::number(e.batchedPrefillSeconds)));
        QVERIFY(64 * e.prefillSeconds > 64 * 13.4e9 / (3350e9 * 0.89));
        // Its FLOPs bound it from below: 64 x 128 tokens x 2 x 6.5e9 weights = 106 TFLOP at
        // 989 TFLOP/s is 0.108 s at peak; the estimate is slower than peak.
        QVERIFY(e.batchedPrefillSeconds > 64 * 128 * 2.0 * 6.5e9 / 989.4e12);
    }

    void shortPromptsHaveALatencyFloor()
    {
        // A 16-token prompt on Llama 2 7B: 32 layers, each with at least the norms (4 kernels),
        // three GEMMs of the attention block, the attention and two or three MLP kernels, each
        // with the GPU's 3.5 us launch cost: no prefill can be faster than 32 x 9 x 3.5 us =
        // 1.0 ms, whatever its FLOPs (16 tokens x 13 GFLOP = 0.2 TFLOP, 0.2 ms at peak), and it
        // must read every weight once: 13.5 GB / 2,982 GB/s = 4.5 ms.
        const InferenceEstimate e
            = estimator("h100-sxm5-80gb", "llama-2-7b", Precision::FP16, 1, 16, 16, 1).estimate();
        double kernels = 0;
        for (const StepOperation &op : e.prefillOperations)
            kernels += op.kernels;
        QVERIFY(kernels >= 32 * 9);
        QVERIFY(e.prefillSeconds > 32 * 9 * 3.5e-6);
        QVERIFY(e.prefillSeconds > 13.4e9 / (3350e9 * 0.89));
    }

    void decodeGemmsStreamWeightsAtAGemmsRate()
    {
        // Llama 2 7B in FP16 at batch 1 on one H100 SXM5: each layer's MLP down GEMM reads
        // 4,096 x 11,008 x 2 B of weights and 1 x (11,008 + 4,096) x 2 B of activations,
        // 90,207,744 B, at the 3,350 GB/s x 0.836 = 2,800.6 GB/s a GEMM of few rows streams its
        // weights at (aiconfigurator's H100 GEMMs): 32.21 us, plus the 3.5 us launch, 35.71 us,
        // 1.1427 ms over 32 layers. Its FLOPs take less: 2 x 4,096 x 11,008 = 90.2 MFLOP at
        // 989.4 TFLOP/s x 0.784 x 3 / (3 + 517) (the GEMM curve at M = 1) = 4.47 TFLOP/s, 20 us.
        // At the triad's 0.89 it would have been 32 x (30.26 + 3.5) us = 1.080 ms.
        const InferenceEstimate h100
            = estimator("h100-sxm5-80gb", "llama-2-7b", Precision::FP16, 1, 128, 128, 1).estimate();
        const StepOperation *down = findOperation(h100.decodeOperations, "MLP down");
        QVERIFY(down);
        QCOMPARE(down->bytes, 32 * 90207744.0);
        QVERIFY2(qAbs(down->seconds - 1.1427e-3) < 0.0001e-3,
                 qPrintable(QString::number(down->seconds * 1e3)));
        // The L4 has no GEMM measurement: its element-wise rate, 300 GB/s x 0.78 = 234 GB/s,
        // stands in: 32 x (90,207,744 B / 234 GB/s + 3.5 us) = 32 x 389.0 us = 12.448 ms.
        const InferenceEstimate l4
            = estimator("l4", "llama-2-7b", Precision::FP16, 1, 128, 128, 1).estimate();
        down = findOperation(l4.decodeOperations, "MLP down");
        QVERIFY(down);
        QVERIFY2(qAbs(down->seconds - 12.448e-3) < 0.001e-3,
                 qPrintable(QString::number(down->seconds * 1e3)));
        // The explanation gives both rates where they differ.
        QVERIFY2(h100.bottleneckExplanation.find(": its GEMMs stream the weights at up to "
                                                 "2,801 GB/s, the K/V cache at up to 2,982 GB/s")
                     != std::string::npos,
                 h100.bottleneckExplanation.c_str());
    }

    void attentionSideKernelsFollowTheEngine()
    {
        // Llama 2 7B in FP16 on one H100, a 128-token prompt on TensorRT-LLM 0.9: before each
        // layer's FMHA kernel the context phase runs invokeBuildDecoderInfo and
        // invokeQKVPreprocessing (2 kernels). The rotary pass reads the 128 x 12,288 fresh Q, K
        // and V values and writes the 128 x 4,096 rotated queries, 2 B each: 128 x 16,384 x 2 =
        // 4,194,304 B; the keys and values go into the cache, 128 x 2 x 4,096 x 2 B =
        // 2,097,152 B: 6,291,456 B a layer, 201,326,592 B over 32. At the H100's element-wise
        // 3,350 GB/s x 0.89 = 2,981.5 GB/s that is 67.52 us, plus 64 launches of 3.5 us, 224 us:
        // 291.52 us.
        const InferenceEstimate trt09 = estimator("h100-sxm5-80gb", "llama-2-7b", Precision::FP16,
                                                  1, 128, 128, 1, "tensorrt-llm-0.9")
                                            .estimate();
        const char *side = "rotary embedding and K/V cache write";
        const StepOperation *prefill = findOperation(trt09.prefillOperations, side);
        QVERIFY(prefill);
        QCOMPARE(prefill->bytes, 201326592.0);
        QCOMPARE(prefill->kernels, 64.0);
        QVERIFY2(qAbs(prefill->seconds - 291.52e-6) < 0.01e-6,
                 qPrintable(QString::number(prefill->seconds * 1e6)));
        // Its decode runs the masked multi-head kernel (groups of 1), which rotates the query
        // and appends the token's K/V itself: no side kernel.
        QVERIFY(!findOperation(trt09.decodeOperations, side));
        // TensorRT-LLM 0.12 decodes it on XQA, which runs the rotary and cache-update kernel
        // first: one a layer, 32 in all.
        const InferenceEstimate trt012 = estimator("h100-sxm5-80gb", "llama-2-7b", Precision::FP16,
                                                   1, 128, 128, 1, "tensorrt-llm-0.12")
                                             .estimate();
        const StepOperation *xqa = findOperation(trt012.decodeOperations, side);
        QVERIFY(xqa);
        QCOMPARE(xqa->kernels, 32.0);
        // vLLM runs rotary_embedding and reshape_and_cache_flash in every step: 2 a layer. At
        // batch 8 a decode step moves 8 x (16,384 x 2 + 8,192 x 2) B = 393,216 B a layer.
        const InferenceEstimate vllm
            = estimator("h100-sxm5-80gb", "llama-2-7b", Precision::FP16, 1, 128, 128, 8, "vllm-0.6")
                  .estimate();
        const StepOperation *decode = findOperation(vllm.decodeOperations, side);
        QVERIFY(decode);
        QCOMPARE(decode->kernels, 64.0);
        QCOMPARE(decode->bytes, 32 * 393216.0);
        // LMDeploy's profile claims none.
        const InferenceEstimate turbomind
            = estimator("a100-sxm4-80gb", "llama-2-7b", Precision::FP16, 1, 128, 128, 1,
                        "lmdeploy-0.1")
                  .estimate();
        QVERIFY(!findOperation(turbomind.prefillOperations, side));
        QVERIFY(!findOperation(turbomind.decodeOperations, side));
    }

    void memoryPerGpuAddsUpItsParts()
    {
        // vLLM keeps 1 - gpu_memory_utilization of the whole GPU for itself: on an H100 SXM5 of
        // 81,559 MiB (what the driver reports), 0.1 x 81,559 x 1,048,576 B = 8,552,080,998.4 B.
        // The figure a replica needs is its weights, K/V cache, one step's activations and that
        // reserve, each shown (Estimate panel, CLI infer).
        const InferenceEstimate e
            = estimator("h100-sxm5-80gb", "llama-2-7b", Precision::FP16, 1, 128, 128, 8, "vllm-0.6")
                  .estimate();
        QVERIFY(qAbs(e.reserveBytesPerGpu - 8552080998.4) < 1.0);
        QVERIFY(e.workspaceBytesPerGpu > 0);
        QVERIFY(qAbs(e.memoryBytesPerGpu
                     - (e.weightsBytesPerGpu + e.kvBytesPerGpu + e.workspaceBytesPerGpu
                        + e.reserveBytesPerGpu))
                < 1.0);
    }

    void decodeAttentionReadsEachKvHeadOnce()
    {
        // Llama 2 70B (GQA, 8 KV heads of 128) on 8 H100s: one KV head per rank. 64 sequences
        // at a mean context of 2048 + 2048/2 = 3072 tokens read 64 x 3072 x 2 (K, V) x 128 x 2 B
        // = 100.7 MB per layer, 8.05 GB over 80 layers.
        const InferenceEstimate e
            = estimator("h100-sxm5-80gb", "llama-2-70b", Precision::FP16, 8, 2048, 2048, 64)
                  .estimate();
        const StepOperation *attention
            = findOperation(e.decodeOperations, "decode attention (reads the K/V cache)");
        QVERIFY(attention);
        QVERIFY(qAbs(attention->bytes - 80 * 64 * 3072.0 * 2 * 128 * 2) < 1.0);
        QVERIFY(attention->seconds >= attention->bytes / (3350e9 * 0.89));
        // The step is at least the whole roofline and the operations add up to it.
        double sum = 0;
        for (const StepOperation &op : e.decodeOperations)
            sum += op.seconds;
        QVERIFY(qAbs(sum - e.decodeStepSeconds) < 1e-12);
        QVERIFY(e.decodeStepSeconds >= e.decodeMemorySeconds);
    }

    void decodeAttentionPaysItsMeasuredFixedTime()
    {
        // Llama 2 7B (32 heads of 128), FP16, one sequence at a mean context of
        // 1000 + 48 / 2 = 1024 tokens on one H100 SXM5: each layer's kernel reads
        // 1024 x 2 (K, V) x 32 x 128 x 2 B = 16,777,216 B, 5.63 us at 0.89 x 3.35 TB/s, then its
        // measured fixed time of 15 us (FlashInfer's batch decode): 20.63 us, 660 us over 32
        // layers, where the launch cost alone (3.5 us) had said 292 us.
        const InferenceEstimate h100
            = estimator("h100-sxm5-80gb", "llama-2-7b", Precision::FP16, 1, 1000, 48, 1).estimate();
        const StepOperation *attention
            = findOperation(h100.decodeOperations, "decode attention (reads the K/V cache)");
        QVERIFY(attention);
        QCOMPARE(attention->bytes, 32 * 16777216.0);
        QVERIFY2(qAbs(attention->seconds - 32 * 20.63e-6) < 32 * 0.01e-6,
                 qPrintable(QString::number(attention->seconds * 1e6)));
        // The L40S: 16,777,216 B at 0.92 x 864 GB/s = 21.11 us, then its own measured fixed time,
        // 11 us (TensorRT-LLM's generation attention in aiconfigurator's database): 32.11 us.
        const InferenceEstimate l40s
            = estimator("l40s", "llama-2-7b", Precision::FP16, 1, 1000, 48, 1).estimate();
        attention = findOperation(l40s.decodeOperations, "decode attention (reads the K/V cache)");
        QVERIFY2(qAbs(attention->seconds - 32 * 32.11e-6) < 32 * 0.01e-6,
                 qPrintable(QString::number(attention->seconds * 1e6)));
        // The L4 has no such measurement: its kernel costs the launch, 3.5 us, after 16,777,216 B
        // at 0.78 x 300 GB/s = 71.70 us: 75.20 us.
        const InferenceEstimate l4
            = estimator("l4", "llama-2-7b", Precision::FP16, 1, 1000, 48, 1).estimate();
        attention = findOperation(l4.decodeOperations, "decode attention (reads the K/V cache)");
        QVERIFY2(qAbs(attention->seconds - 32 * 75.20e-6) < 32 * 0.01e-6,
                 qPrintable(QString::number(attention->seconds * 1e6)));
    }

    void decodeAllReducesPayNcclsLaunchLatency()
    {
        // Llama 2 70B, TP 4 on A100 (NVLink busbw 235 GB/s), batch 1: each layer all-reduces one
        // 8192-wide fp16 hidden vector (16,384 B) twice. NCCL's tuner (src/graph/tuning.cc)
        // picks its LL protocol for so small a message: launch 6.6 us plus 0.6 us per step, at
        // half the bus bandwidth and at most Ampere's LL ceiling, min(117.5, 87.7) = 87.7 GB/s.
        // Tree over 4 ranks: 2*2*0.6 = 2.4 us + 2*16384/87.7e9 = 0.374 us beats ring (3.6 +
        // 0.280 us): 6.6 + 2.774 = 9.374 us each, where the Simple protocol would take 8.4 +
        // 2*2*3.4 + 0.139 = 22.1 us; 80 layers x 2 = 160 calls = 1.4998 ms per decode step.
        const InferenceEstimate e
            = estimator("a100-sxm4-80gb", "llama-2-70b", Precision::FP16, 4, 128, 2048, 1)
                  .estimate();
        const StepOperation *allReduces = findOperation(e.decodeOperations, "TP all-reduces");
        QVERIFY(allReduces);
        QCOMPARE(allReduces->kernels, 160.0);
        QVERIFY2(qAbs(allReduces->seconds - 1.4998e-3) < 1e-6,
                 qPrintable(QString::number(allReduces->seconds)));

        // Batch 64 on 8 H100s: 64 x 8192 x 2 B = 1 MiB a call. LL (Hopper: min(370 / 2, 141)
        // = 141 GB/s), tree: 6.6 + 2*3*0.6 + 2*1,048,576/141e9 = 6.6 + 3.6 + 14.87 = 25.07 us;
        // LL ring 6.6 + 8.4 + 1.75*1,048,576/141e9 = 28.01 us; Simple tree 8.4 + 2*3*3.4 +
        // 2*1,048,576/370e9 = 34.47 us. 160 calls at 25.07 us = 4.012 ms: measured all-reduces
        // of 1 MB on 8 H100s take 32-45 us (sglang pull request 2904; ByteDance-Seed
        // Triton-distributed issue 57), where LL latency at the full bus bandwidth said 16 us.
        const InferenceEstimate large
            = estimator("h100-sxm5-80gb", "llama-2-70b", Precision::FP16, 8, 128, 2048, 64)
                  .estimate();
        const StepOperation *largeReduces = findOperation(large.decodeOperations, "TP all-reduces");
        QVERIFY(largeReduces);
        QVERIFY2(qAbs(largeReduces->seconds - 4.0117e-3) < 2e-6,
                 qPrintable(QString::number(largeReduces->seconds)));
    }

    void parallelAttentionLayersAllReduceOnce()
    {
        // The Llama 2 70B shape of the test above (TP 4 on A100, batch 1) with attention and MLP
        // side by side, as GPT-J and Falcon run them: the layer sums the two partial outputs
        // and all-reduces the sum once, so 80 calls of the same 16,384 B at the same 9.374 us:
        // 0.7499 ms a decode step, and 80 x 16,384 B = 1,310,720 B, where the sequential layer
        // moves 2,621,440 B in 160 calls.
        InferenceJob job;
        job.model = shippedCatalog().llm("llama-2-70b");
        job.model.parallelAttention = true;
        job.weightPrecision = Precision::FP16;
        job.gpusPerReplica = 4;
        job.inputTokens = 128;
        job.outputTokens = 2048;
        job.batch = 1;
        const InferenceSetup setup = inferenceSetupFromCatalog(
            shippedCatalog(), {.gpuId = "a100-sxm4-80gb", .facilityId = "dc-industry-average"});
        const InferenceEstimate parallel
            = InferenceEstimator(job, setup.hardware, setup.cost).estimate();
        const StepOperation *allReduces
            = findOperation(parallel.decodeOperations, "TP all-reduces");
        QVERIFY(allReduces);
        QCOMPARE(allReduces->kernels, 80.0);
        QCOMPARE(allReduces->bytes, 1310720.0);
        QVERIFY2(qAbs(allReduces->seconds - 0.7499e-3) < 1e-6,
                 qPrintable(QString::number(allReduces->seconds)));
        // Prefill of the 128-token prompt: one all-reduce of 128 x 8192 x 2 B = 2 MiB a layer.
        const StepOperation *prefillReduces
            = findOperation(parallel.prefillOperations, "TP all-reduces");
        QVERIFY(prefillReduces);
        QCOMPARE(prefillReduces->kernels, 80.0);
        QCOMPARE(prefillReduces->bytes, 80.0 * 2097152.0);
    }

    void eightL40sShareOnePcieDomain()
    {
        // The catalog's 8-GPU L40S server is the node an L40S estimate takes when none is named
        // (the largest scale-up domain that carries the GPU), so TP 8 runs on it, as TensorRT-LLM
        // ran Falcon 180B and Llama 2 70B on eight L40S; the 4-GPU server still refuses TP 8.
        QCOMPARE(nodeForGpu(shippedCatalog(), "l40s"), std::string("pcie-8gpu-l40s-server"));
        InferenceJob job;
        job.model = shippedCatalog().llm("llama-2-70b");
        job.weightPrecision = Precision::FP8;
        job.gpusPerReplica = 8;
        job.pipelineStages = 1;
        job.inputTokens = 128;
        job.outputTokens = 1;
        job.batch = 1;
        const InferenceSetup eight = inferenceSetupFromCatalog(
            shippedCatalog(), {.gpuId = "l40s", .facilityId = "dc-industry-average"});
        const InferenceEstimate onEight
            = InferenceEstimator(job, eight.hardware, eight.cost).estimate();
        QVERIFY2(onEight.fits, onEight.reason.c_str());
        QCOMPARE(onEight.tensorParallel, 8);
        // Its host's 1,850 W beside eight 350 W cards: 350 + 1,850 / 8 = 581.25 W a GPU.
        QCOMPARE(eight.cost.wattsPerGpu, 581.25);
        const InferenceSetup four = inferenceSetupFromCatalog(
            shippedCatalog(),
            {.nodeId = "pcie-4gpu-server", .gpuId = "l40s", .facilityId = "dc-industry-average"});
        const InferenceEstimate onFour
            = InferenceEstimator(job, four.hardware, four.cost).estimate();
        QVERIFY(!onFour.fits);
        QVERIFY2(onFour.reason.find("8 tensor-parallel GPUs per stage exceed the 4-GPU scale-up "
                                    "domain of NVIDIA L40S")
                     != std::string::npos,
                 onFour.reason.c_str());
    }

    void pcieAllReducesPayPcieStepLatency()
    {
        // Llama 2 13B at TP 2 on L40S over PCIe (NCCL busbw 22 GB/s), batch 1: each layer
        // all-reduces one 5120-wide fp16 hidden vector (10,240 B) twice. NCCL's table gives PCIe
        // its own step latencies: LL 1.0 us, Simple 5.7 us (NVLink: 0.6 and 3.4). LL at half the
        // bus bandwidth, 11 GB/s: ring 6.6 + 2 x 1.0 + 10,240 / 11e9 = 9.531 us; tree 6.6 + 2.0 +
        // 2 x 10,240 / 11e9 = 10.462 us; Simple 8.4 + 2 x 5.7 + 0.465 = 20.27 us. 40 layers x 2 =
        // 80 calls at 9.531 us = 762.5 us a step (698.5 us with NVLink's step latency).
        const InferenceEstimate e
            = estimator("l40s", "llama-2-13b", Precision::FP16, 2, 128, 128, 1).estimate();
        const StepOperation *allReduces = findOperation(e.decodeOperations, "TP all-reduces");
        QVERIFY(allReduces);
        QCOMPARE(allReduces->kernels, 80.0);
        QVERIFY2(qAbs(allReduces->seconds - 762.5e-6) < 0.2e-6,
                 qPrintable(QString::number(allReduces->seconds * 1e6)));
    }

    void groupedExpertGemmsRunAtTheirGroupSize()
    {
        // Mixtral 8x7B decode at batch 8: 16 routed tokens over (almost) all 8 experts is about
        // two rows per expert GEMM, far less efficient than one 16-row GEMM would be; the expert
        // GEMMs are bound by reading the touched experts' weights.
        const InferenceEstimate e
            = estimator("h100-sxm5-80gb", "mixtral-8x7b", Precision::FP16, 2, 512, 128, 8)
                  .estimate();
        const StepOperation *up = findOperation(e.decodeOperations, "expert MLP up (grouped GEMM)");
        QVERIFY(up);
        // Experts touched by 8 tokens with top-2 of 8: 8 x (1 - 0.75^8) = 7.2. Each one's gate and
        // up weights on a TP-2 rank: 4096 x 2 x 14336 / 2 x 2 B = 117.4 MB; x 7.2 x 32 layers
        // = 27.05 GB (the 16 routed rows' activations add 19 MB).
        QVERIFY2(qAbs(up->bytes / 27.07e9 - 1.0) < 0.005, qPrintable(QString::number(up->bytes)));
        QVERIFY(up->seconds >= up->bytes / (3350e9 * 0.89));
        // Routing and combine: each of the 8 tokens is copied to its 2 experts' rows and the 2
        // outputs summed back, 8 x (1 + 2) hidden states of 4096 x 2 B read and as many written:
        // 393,216 B a layer, 12,582,912 B over 32; four kernels a layer (top-k softmax, sort,
        // expand, finalize), each at least its 3.5 us launch: 448 us.
        const StepOperation *routing
            = findOperation(e.decodeOperations, "MoE routing, permute and combine");
        QVERIFY(routing);
        QCOMPARE(routing->bytes, 12582912.0);
        QCOMPARE(routing->kernels, 128.0);
        QVERIFY(routing->seconds >= 128 * 3.5e-6);
    }

    void moeDecodeRooflineReadsOnlyTouchedExperts()
    {
        // Mixtral 8x7B, FP8 weights on two H100s, batch 1: one token touches 8 x (1 - 0.75) = 2
        // of the 8 experts of each layer. Per layer: attention 4096 x (4096 + 2 x 1024) + 4096 x
        // 4096 = 41.94 M, experts 8 x 3 x 4096 x 14336 = 1409.29 M, router 32,768, norms 8,192;
        // 32 layers and 2 x 32000 x 4096 embeddings: 46.70 B parameters, 23.35 GB a rank at 1 B.
        // The experts are 32 x 1409.29 M / 2 = 22.55 GB a rank, of which 3/4 stay unread, and
        // the input embedding's 32,000 x 4,096 / 2 = 65.5 MB a rank is gathered, not read: the
        // step reads 23.35 - 16.91 - 0.07 = 6.37 GB of weights, 2.275 ms at the 0.836 x
        // 3.35 TB/s a GEMM of few rows streams its weights at.
        const InferenceEstimate e
            = estimator("h100-sxm5-80gb", "mixtral-8x7b", Precision::FP8, 2, 1000, 1000, 1)
                  .estimate();
        const double weightSeconds = e.decodeMemorySeconds - e.decodeKvKernelSeconds;
        QVERIFY2(qAbs(weightSeconds / 2.275e-3 - 1.0) < 0.01,
                 qPrintable(QString::number(weightSeconds)));
        QVERIFY2(e.bottleneckExplanation.find("reads 6.5 GB per GPU") != std::string::npos,
                 e.bottleneckExplanation.c_str());
    }

    void denseLayersOfAnMoeModelAreReadEveryStep()
    {
        // Llama 4 Maverick's shape (tst_transformershape: 400,711,848,960 parameters, MoE on 24
        // of 48 layers) in FP8 on eight H100s, batch 1. A decode token touches 1 of the 128
        // routed experts of each MoE layer: the step reads all but 24 x 127 experts of
        // 125,829,120 and the input embedding's 202,048 x 5,120 gathered rows, (400.71 - 383.53
        // - 1.03) G = 16.15 GB, 2.018 GB a rank, 0.7206 ms at 0.836 x 3.35 TB/s (a GEMM's weight
        // streaming rate). The dense layers'
        // MLP (24 layers of 3 x 5120 x 16384 at 1 B, an eighth a rank) is read every step: up 24 x
        // 5120 x 32768 / 8 = 503.3 MB besides its activations.
        InferenceJob job;
        job.model.id = "maverick";
        job.model.name = "Llama 4 Maverick";
        job.model.layers = 48;
        job.model.hidden = 5120;
        job.model.heads = 40;
        job.model.kvHeads = 8;
        job.model.ffn = 8192;
        job.model.vocab = 202048;
        job.model.experts = 128;
        job.model.topK = 1;
        job.model.sharedExperts = 1;
        job.model.gatedMlp = true;
        job.model.denseLayers = 24;
        job.model.denseFfn = 16384;
        job.weightPrecision = Precision::FP8;
        job.kvPrecision = Precision::FP8;
        job.gpusPerReplica = 8;
        job.inputTokens = 1000;
        job.outputTokens = 100;
        job.batch = 1;
        const InferenceSetup setup = inferenceSetupFromCatalog(
            shippedCatalog(), {.gpuId = "h100-sxm5-80gb", .facilityId = "dc-industry-average"});
        const InferenceEstimate e = InferenceEstimator(job, setup.hardware, setup.cost).estimate();
        QVERIFY(e.fits);
        // Prefill workspace for the 1,000-token prompt: hidden states and QKV (4 x 5120) and the
        // widest MLP intermediate, 16,384 (a routed and the shared expert of 8192, or a dense
        // layer's), 16-bit, an eighth a rank: 1000 x 53,248 x 2 / 8 B.
        QCOMPARE(e.workspaceBytesPerGpu, 13312000.0);
        const double weightSeconds = e.decodeMemorySeconds - e.decodeKvKernelSeconds;
        QVERIFY2(qAbs(weightSeconds / 0.7206e-3 - 1.0) < 0.001,
                 qPrintable(QString::number(weightSeconds)));
        const StepOperation *denseUp = findOperation(e.decodeOperations, "dense-layer MLP up");
        QVERIFY(denseUp);
        QCOMPARE(denseUp->kernels, 24.0);
        QVERIFY2(qAbs(denseUp->bytes - 24.0 * (5120.0 * 32768.0 / 8.0 + (5120.0 + 4096.0) * 2.0))
                     < 1.0,
                 qPrintable(QString::number(denseUp->bytes)));
    }

    void slidingWindowLayersKeepAndReadOnlyTheirWindow()
    {
        // gpt-oss-120b on two H100s (FP8 weights, 16-bit K/V), 16 sequences of 32,000 + 1,000
        // tokens. A token's K/V: 36 layers x 2 x 8 heads x 64 x 2 B = 73,728 B; the 18 windowed
        // layers keep only 128 tokens, so a sequence keeps (33,000 + 128) / 2 = 16,564 tokens'
        // worth, and a rank half of it (4 of the 8 K/V heads): 16 x 73,728 x 16,564 / 2 B.
        const InferenceEstimate e
            = estimator("h100-sxm5-80gb", "gpt-oss-120b", Precision::FP8, 2, 32000, 1000, 16)
                  .estimate();
        QCOMPARE(e.kvBytesPerToken, 73728.0);
        QCOMPARE(e.kvBytesPerGpu, 9769844736.0);
        QCOMPARE(e.kvBytesPerSequence, 73728.0 * 16564.0);
        // Decode at the mean context of 32,500 tokens: the 18 full layers read 16 x 32,500
        // tokens x 2 x 4 heads x 64 x 2 B each; the 18 windowed layers 16 x 128 tokens.
        const StepOperation *full
            = findOperation(e.decodeOperations, "decode attention (reads the K/V cache)");
        const StepOperation *windowed = findOperation(
            e.decodeOperations, "decode attention, windowed layers (the window's K/V only)");
        QVERIFY(full && windowed);
        QCOMPARE(full->bytes, 9584640000.0);
        QCOMPARE(windowed->bytes, 37748736.0);
        QCOMPARE(windowed->kernels, 18.0);
        // Prefill of one 32,000-token prompt, whole (TensorRT-LLM 0.12; the default vLLM chunks
        // a 128K-context model's prompts, chunkedPrefillCountsEveryChunk): a windowed layer's
        // query attends 128 - 128^2 / 64,000 = 127.744 keys on average, 4 x 32,000 x 127.744 x
        // 2,048 (32 heads of 64 a rank) FLOPs a layer, over 18 layers 602.8 GFLOP; a full
        // layer's 16,000 keys, 125 times more.
        const InferenceEstimate whole = estimator("h100-sxm5-80gb", "gpt-oss-120b", Precision::FP8,
                                                  2, 32000, 1000, 16, "tensorrt-llm-0.12")
                                            .estimate();
        const StepOperation *band = findOperation(
            whole.prefillOperations, "prefill attention, windowed layers (causal band)");
        const StepOperation *causal
            = findOperation(whole.prefillOperations, "prefill attention (causal, fused)");
        QVERIFY(band && causal);
        QVERIFY2(qAbs(band->flops / 602.80e9 - 1.0) < 1e-4,
                 qPrintable(QString::number(band->flops)));
        QVERIFY2(qAbs(causal->flops / band->flops - 16000.0 / 127.744) < 1e-9,
                 qPrintable(QString::number(causal->flops / band->flops)));
    }

    void chunkedLayersKeepAndReadOnlyTheirChunk()
    {
        // Llama 4 Scout on one H200 (FP8 weights, 16-bit K/V), one sequence of 20,000 + 1,000
        // tokens. A token's K/V: 48 layers x 2 x 8 heads x 128 x 2 B = 196,608 B; the 36
        // chunked layers keep at most 8,192 tokens, so a sequence keeps (21,000 + 3 x 8,192) / 4
        // = 11,394 tokens' worth.
        const InferenceEstimate e
            = estimator("h200-sxm-141gb", "llama-4-scout", Precision::FP8, 1, 20000, 1000, 1)
                  .estimate();
        QCOMPARE(e.kvBytesPerToken, 196608.0);
        QCOMPARE(e.kvBytesPerSequence, 196608.0 * 11394.0);
        // Decode: a token attends 20,500 keys on the 12 global layers, 4,116 on the 36 chunked
        // ones (tst_transformershape derives both); each key is 2 x 8 x 128 x 2 = 4,096 B.
        const StepOperation *global
            = findOperation(e.decodeOperations, "decode attention (reads the K/V cache)");
        const StepOperation *chunked = findOperation(
            e.decodeOperations, "decode attention, chunked layers (the chunk's K/V only)");
        QVERIFY(global && chunked);
        QCOMPARE(global->bytes, 12.0 * 20500.0 * 4096.0);
        QCOMPARE(chunked->bytes, 36.0 * 4116.0 * 4096.0);
        QCOMPARE(chunked->kernels, 36.0);
        // Prefill of the 20,000-token prompt, whole (TensorRT-LLM 0.12; the default vLLM
        // chunks a 10M-context model's prompts): a chunked layer's query attends 3,682.3296
        // keys on average, a global one's 10,000, and there are three times as many chunked
        // layers.
        const InferenceEstimate whole = estimator("h200-sxm-141gb", "llama-4-scout", Precision::FP8,
                                                  1, 20000, 1000, 1, "tensorrt-llm-0.12")
                                            .estimate();
        const StepOperation *chunkedPrefill = findOperation(
            whole.prefillOperations, "prefill attention, chunked layers (within each chunk)");
        const StepOperation *causal
            = findOperation(whole.prefillOperations, "prefill attention (causal, fused)");
        QVERIFY(chunkedPrefill && causal);
        QVERIFY2(qAbs(chunkedPrefill->flops / causal->flops - 3.0 * 0.36823296) < 1e-12,
                 qPrintable(QString::number(chunkedPrefill->flops / causal->flops)));
    }

    void chunkedPrefillCountsEveryChunk()
    {
        // Llama 3.1 70B (128K context, so vLLM chunks its prompts) in FP8 on two H100s. vLLM's
        // step budget is 512 tokens; at batch 1 nothing else runs, so a 1,000-token prompt is a
        // 512-token chunk and a 488-token one after it. Causal attention: the first chunk's
        // queries attend 256 keys on average, the second's 512 + 244: 512 x 256 + 488 x 756 =
        // 500,000 query-key pairs, 1,000^2 / 2 as for the prompt whole; the GEMMs' FLOPs go
        // with the tokens, so the two chunks do the whole prompt's FLOPs.
        const InferenceEstimate chunked
            = estimator("h100-sxm5-80gb", "llama-3.1-70b", Precision::FP8, 2, 1000, 200, 1)
                  .estimate();
        const InferenceEstimate whole = estimator("h100-sxm5-80gb", "llama-3.1-70b", Precision::FP8,
                                                  2, 1000, 200, 1, "tensorrt-llm-0.12")
                                            .estimate();
        QCOMPARE(chunked.prefillChunks, 2LL);
        QCOMPARE(chunked.prefillChunkTokens, 512LL);
        QCOMPARE(whole.prefillChunks, 0LL);
        for (const char *name : {"prefill attention (causal, fused)", "QKV projection",
                                 "MLP up (gate and up)", "MLP down"}) {
            const StepOperation *inChunks = findOperation(chunked.prefillOperations, name);
            const StepOperation *inOne = findOperation(whole.prefillOperations, name);
            QVERIFY2(inChunks && inOne, name);
            QVERIFY2(
                qAbs(inChunks->flops / inOne->flops - 1.0) < 1e-9,
                qPrintable(QStringLiteral("%1: %2").arg(name).arg(inChunks->flops / inOne->flops)));
            QCOMPARE(inChunks->kernels, 2.0 * inOne->kernels); // each chunk launches its own
        }
        // At batch 1 the operations are the whole prefill, and the batch's prompts are that one.
        double operationSeconds = 0;
        for (const StepOperation &op : chunked.prefillOperations)
            operationSeconds += op.seconds;
        QVERIFY(qAbs(chunked.prefillSeconds / operationSeconds - 1.0) < 1e-12);
        QCOMPARE(chunked.batchedPrefillSeconds, chunked.prefillSeconds);
        QCOMPARE(chunked.prefillDecodeSeconds, 0.0);

        // A 513-token prompt is a 512-token chunk and a 1-token one: the second costs about a
        // decode step of one sequence (each reads every weight once), not a second 512-token
        // chunk, so the prompt takes less than 1.5 times the 512-token one (twice, before).
        const InferenceEstimate at512
            = estimator("h100-sxm5-80gb", "llama-3.1-70b", Precision::FP8, 2, 512, 200, 1)
                  .estimate();
        const InferenceEstimate at513
            = estimator("h100-sxm5-80gb", "llama-3.1-70b", Precision::FP8, 2, 513, 200, 1)
                  .estimate();
        QCOMPARE(at513.prefillChunks, 2LL);
        QVERIFY2(at513.prefillSeconds < 1.5 * at512.prefillSeconds,
                 qPrintable(QStringLiteral("%1 against %2")
                                .arg(at513.prefillSeconds)
                                .arg(at512.prefillSeconds)));
        QVERIFY(at513.prefillSeconds - at512.prefillSeconds < 1.2 * at512.decodeStepSeconds);

        // At batch 64 each of the prompt's steps also runs the 63 other sequences' decodes
        // (budget 512 - 63 = 449 tokens a chunk: 449, 449 and 102, three steps), and the
        // replica spends the batch's 64 prompts' chunks on prefill: what its throughput counts
        // is what its TTFT counts.
        const InferenceEstimate busy
            = estimator("h100-sxm5-80gb", "llama-3.1-70b", Precision::FP8, 2, 1000, 200, 64)
                  .estimate();
        QCOMPARE(busy.prefillChunks, 3LL);
        QCOMPARE(busy.prefillChunkTokens, 449LL);
        QVERIFY(qAbs(busy.prefillDecodeSeconds / (3.0 * busy.decodeStepSeconds) - 1.0) < 1e-12);
        double busyOperationSeconds = 0;
        for (const StepOperation &op : busy.prefillOperations)
            busyOperationSeconds += op.seconds;
        QVERIFY(qAbs((busyOperationSeconds + busy.prefillDecodeSeconds) / busy.prefillSeconds - 1.0)
                < 1e-12);
        QVERIFY(qAbs(busy.batchedPrefillSeconds / (64.0 * busyOperationSeconds) - 1.0) < 1e-12);
    }

    void chunkedFleetIsNotBusierThanItSays()
    {
        // Llama 3.1 70B in FP8 on 8-GPU replicas, 128,000-token prompts at 1 request/s: each
        // prompt's chunked prefill holds its replica for its TTFT's chunk work alone, so the
        // share of a replica's time its prompts take, rate per replica x that work, cannot
        // exceed the utilisation the sizing reports (prefill and decode together). The capacity
        // had counted one batched prefill of the prompts whole: 15 replicas "67% utilised"
        // while their prompts' chunks alone took 105% of them.
        InferenceJob job;
        job.model = shippedCatalog().llm("llama-3.1-70b");
        job.weightPrecision = Precision::FP8;
        job.gpusPerReplica = 8;
        job.inputTokens = 128000;
        job.outputTokens = 200;
        job.ratePerSecond = 1.0;
        job.ttftP95Seconds = 500.0;
        job.tpotP95Seconds = 0.1;
        const InferenceSetup setup = inferenceSetupFromCatalog(
            shippedCatalog(), {.gpuId = "h100-sxm5-80gb", .facilityId = "dc-industry-average"});
        const InferenceEstimate sized
            = InferenceEstimator(job, setup.hardware, setup.cost).estimate();
        QVERIFY2(sized.fits && sized.meetsTargets, sized.reason.c_str());
        const InferenceEstimate one
            = estimator("h100-sxm5-80gb", "llama-3.1-70b", Precision::FP8, 8, 128000, 200, 1)
                  .estimate();
        const double prefillShare = 1.0 / sized.replicas * one.prefillSeconds;
        QVERIFY2(prefillShare < sized.utilisation,
                 qPrintable(QStringLiteral("%1 replicas, prefill %2 of each, utilisation %3")
                                .arg(sized.replicas)
                                .arg(prefillShare)
                                .arg(sized.utilisation)));
    }

    void chunkedPrefillNeedsAChunksWorkspace()
    {
        // Llama 4 Scout on one H200 with vLLM 0.6, a 999,000-token prompt: the model's 10M-token
        // context turns chunked prefill on, so a step runs at most 512 tokens and the workspace
        // is a chunk's: 512 x (4 x 5120 hidden values + 2 x 16,384 of MLP intermediate, one
        // routed and one shared expert of 8192) x 2 B = 54,525,952 B. Whole, the prompt would
        // need 999,000 / 512 times that, 106 GB.
        const InferenceEstimate chunked = scoutAtAMillionTokens();
        QCOMPARE(chunked.workspaceBytesPerGpu, 54525952.0);
        // Its 98,304 B of FP8 K/V a token, at a million tokens 256,144 a layer on average (the
        // chunked layers keep a chunk): 25.2 GB beside 107.8 GB of weights, so one H200 holds it.
        QCOMPARE(chunked.kvBytesPerSequence, 98304.0 * 256144.0);
        QVERIFY2(chunked.fits, chunked.reason.c_str());
        // TensorRT-LLM 0.12's profile prefills a prompt whole: the workspace is the prompt's.
        const InferenceEstimate whole = scoutAtAMillionTokens("tensorrt-llm-0.12");
        QCOMPARE(whole.workspaceBytesPerGpu, 999000.0 * 53248.0 * 2.0);
        QVERIFY(!whole.fits);
    }

    void longContextDecodeAtBatchOneIsMemoryBound()
    {
        // Llama 4 Scout on one H200 in FP8, one sequence generating tokens 999,000 to 1,000,000.
        // A step reads the 12 global layers' K/V, 12 x 999,500 keys x 2,048 B = 24.6 GB, and the
        // weights a token passes but the input embedding's gathered rows (17.2 - 1.0 = 16.1 GB):
        // at 4.8 TB/s x 0.87 that is over 9.7 ms. Its score
        // FLOPs, 4 x 5,120 x (12 x 999,500 + 36 x 3,549.4) = 248 GFLOP (the chunked layers'
        // tokens sit 7,768..8,768 into a chunk: 424 at 7,980 keys and 576 at 288 on average), run
        // at the fused-attention rate, 0.49 x 989.4 TFLOP/s: 0.51 ms, and the weight GEMMs' 32
        // GFLOP at M = 1 a few ms more. Memory-bound; priced at the M = 1 GEMM efficiency the
        // score FLOPs alone had taken 28 ms and called the step compute-bound.
        const InferenceEstimate e = scoutAtAMillionTokens();
        QVERIFY(e.decodeMemorySeconds > (24.6e9 + 16.1e9) / (4800e9 * 0.87));
        QVERIFY2(e.decodeComputeSeconds < 0.5 * e.decodeMemorySeconds,
                 qPrintable(QString::number(e.decodeComputeSeconds)));
        QCOMPARE(e.bottleneck, std::string("memory-bandwidth"));
    }

    void latentCacheKeepsTheLatentOnEveryRank()
    {
        // DeepSeek-V3 in FP8 with an FP8 K/V cache on 8 H200s, one sequence of 1,000 + 1,000
        // tokens. vLLM 0.7 caches a token's 512-value latent and 64-value rotary key on every
        // layer: 61 x 576 x 1 B = 35,136 B, the whole of it on each rank. vLLM 0.6 up-projects
        // and caches 128 heads' keys and values, each 192 wide (the values padded to the keys'
        // width): 61 x 2 x 128 x 192 = 2,998,272 B, an eighth of it on each rank, 374,784 B,
        // 10.67 times the latent's (Neural Magic's measurement for vLLM 0.7.1 on 8 H200s: about
        // 9.6 times the tokens in the same memory).
        // One sequence of 1,000 + 1,000 tokens on 8 H200s, FP8 weights and cache, on `engine`,
        // drafted by `draft` when one is named.
        const auto serve = [](const std::string &engine, const std::string &draft = "") {
            InferenceJob job;
            job.engine = *findServingEngine(engine);
            job.model = shippedCatalog().llm("deepseek-v3");
            if (!draft.empty()) {
                job.draftModel = shippedCatalog().llm(draft);
                job.speculative.enabled = true;
            }
            job.weightPrecision = Precision::FP8;
            job.kvPrecision = Precision::FP8;
            job.gpusPerReplica = 8;
            job.inputTokens = 1000;
            job.outputTokens = 1000;
            job.batch = 1;
            const InferenceSetup setup = inferenceSetupFromCatalog(
                shippedCatalog(), {.gpuId = "h200-sxm-141gb", .facilityId = "dc-industry-average"});
            return InferenceEstimator(job, setup.hardware, setup.cost).estimate();
        };
        const InferenceEstimate latent = serve("vllm-0.7");
        const InferenceEstimate expanded = serve("vllm-0.6");
        QCOMPARE(latent.kvBytesPerToken, 35136.0);
        QCOMPARE(expanded.kvBytesPerToken, 2998272.0);
        QCOMPARE(latent.kvBytesPerGpu, 35136.0 * 2000.0);
        QCOMPARE(expanded.kvBytesPerGpu, 2998272.0 / 8.0 * 2000.0);
        // Decode at 1,500 keys a token: the latent kernel reads 61 x 1,500 x 576 B a rank and
        // spends 2 x 16 heads x (2 x 512 + 64) = 34,816 FLOPs a key; the up-projected cache
        // 61 x 1,500 x 2 x 16 x 192 B and 4 x 20,480 / 8 = 10,240 FLOPs a key.
        const char *name = "decode attention (reads the K/V cache)";
        const StepOperation *latentRead = findOperation(latent.decodeOperations, name);
        const StepOperation *expandedRead = findOperation(expanded.decodeOperations, name);
        QVERIFY(latentRead && expandedRead);
        QCOMPARE(latentRead->bytes, 61.0 * 1500.0 * 576.0);
        QCOMPARE(latentRead->flops, 61.0 * 1500.0 * 34816.0);
        QCOMPARE(expandedRead->bytes, 61.0 * 1500.0 * 6144.0);
        QCOMPARE(expandedRead->flops, 61.0 * 1500.0 * 10240.0);
        // A draft model's cache splits by its own heads, not the target's: with Llama 3 8B
        // drafting (8 K/V heads of 128, 65,536 B a token in FP8) each of the 8 ranks keeps one
        // head, 8,192 B a token, beside the whole latent: (35,136 + 8,192) x 2,000 B.
        QCOMPARE(serve("vllm-0.7", "llama-3-8b").kvBytesPerGpu, (35136.0 + 8192.0) * 2000.0);
        // DeepSeek-V3's 163,840-token context turns vLLM's chunked prefill on, but vLLM 0.7
        // turns it off with latent attention: its workspace is the whole 1,000-token prompt's,
        // 0.6's a 512-token chunk's.
        QCOMPARE(latent.workspaceBytesPerGpu / expanded.workspaceBytesPerGpu, 1000.0 / 512.0);
    }

    void legacyMoeKernelsRunSlowerOnHopper()
    {
        // Mixtral 8x7B FP16 on 2 x H200, one 2048-token prompt: 4096 routed rows over 8 experts,
        // 512 rows each; expert MLP up on a TP-2 rank is M 512 x N 14336 x K 4096 per expert,
        // 4.810e11 FLOP per layer. Efficiency 0.784 x n / (n + 517), n = 3 / (1/512 + 1/14336 +
        // 1/4096) = 1323.4: 0.5638, so 0.8624 ms a layer at 989.4 TFLOP/s (the 939.5 MB of
        // weights take 0.225 ms at 4.8 TB/s x 0.87: compute-bound), plus 3.5 us: 27.71 ms over
        // 32 layers.
        // TensorRT-LLM 0.9 runs CUTLASS SM80 MoE kernels on Hopper, measured at 0.728 of the SM90
        // rate on a grouped GEMM of effective size 970 (512 rows an expert, K 2048, N 1536;
        // grouped_gemm pull request 37). Two Hockney curves that share their start-up time have
        // the ratio s (n + 517) / (n + 517 s), so the SM80 kernels' large-GEMM share is s = 0.728
        // x 970 / (970 + 0.272 x 517) = 0.63582, and at n = 1323.4 they reach 0.63582 x 0.784 x
        // 1323.4 / (1323.4 + 0.63582 x 517) = 0.39930: 4.810e11 / (989.4e12 x 0.39930) = 1.2175
        // ms + 3.5 us, x 32 = 39.07 ms.
        const auto prefillOf = [](const std::string &gpu, const std::string &engine) {
            return estimator(gpu, "mixtral-8x7b", Precision::FP16, 2, 2048, 1, 1, engine)
                .estimate()
                .prefillOperations;
        };
        const StepOperations native = prefillOf("h200-sxm-141gb", "tensorrt-llm-0.12");
        const StepOperations legacy = prefillOf("h200-sxm-141gb", "tensorrt-llm-0.9");
        const char *name = "expert MLP up (grouped GEMM)";
        const double nativeSeconds = findOperation(native, name)->seconds;
        const double legacySeconds = findOperation(legacy, name)->seconds;
        QVERIFY2(qAbs(nativeSeconds - 27.71e-3) < 0.02e-3,
                 qPrintable(QString::number(nativeSeconds)));
        QVERIFY2(qAbs(legacySeconds - 39.07e-3) < 0.02e-3,
                 qPrintable(QString::number(legacySeconds)));
        // A decode step of 64 sequences routes 128 rows, 16 an expert: n = 3 / (1/16 + 1/14336 +
        // 1/4096) = 47.76, where most of a GEMM's time is its start-up, which the slower
        // instructions do not lengthen: 0.784 x 47.76 / 564.76 = 0.06630 natively, 0.63582 x
        // 0.784 x 47.76 / (47.76 + 328.72) = 0.06324 for SM80 kernels, 4.8% slower (not the
        // 1 / 0.728 = 37% of a large GEMM; the weights' streaming, 0.237 ms a layer, is about as
        // long as either).
        const auto decodeOf = [&](const std::string &engine) {
            return findOperation(estimator("h200-sxm-141gb", "mixtral-8x7b", Precision::FP16, 2,
                                           2048, 1, 64, engine)
                                     .estimate()
                                     .decodeOperations,
                                 name)
                ->seconds;
        };
        const double nativeDecode = decodeOf("tensorrt-llm-0.12");
        const double legacyDecode = decodeOf("tensorrt-llm-0.9");
        QVERIFY2(legacyDecode >= nativeDecode && legacyDecode <= 1.05 * nativeDecode,
                 qPrintable(QStringLiteral("%1 against %2").arg(legacyDecode).arg(nativeDecode)));
        // The dense GEMMs are TensorRT-LLM's own either way, and on an A100 the SM80 kernels are
        // native: no difference.
        QCOMPARE(findOperation(legacy, "QKV projection")->seconds,
                 findOperation(native, "QKV projection")->seconds);
        QCOMPARE(findOperation(prefillOf("a100-sxm4-80gb", "tensorrt-llm-0.9"), name)->seconds,
                 findOperation(prefillOf("a100-sxm4-80gb", "tensorrt-llm-0.12"), name)->seconds);
    }

    void servingFloorStreamsTheTouchedWeights()
    {
        const Catalog &catalog = shippedCatalog();
        const GpuSpec &h100 = catalog.gpu("h100-sxm5-80gb");
        // Llama 2 7B has 6,738,415,616 parameters (meta-llama/Llama-2-7b-hf); a decode step of
        // one sequence reads all but the 32,000 x 4,096 = 131,072,000 input-embedding rows it
        // gathers: 6,607,343,616 x 2 bytes = 13.2147 GB at the datasheet's 3.35 TB/s, 3.9447 ms.
        const ServingFloor llama = servingFloorOf(
            TransformerShape::fromModel(catalog.llm("llama-2-7b")), h100, Precision::FP16, 1);
        QVERIFY2(std::abs(llama.passSeconds(1) / 3.9447e-3 - 1) < 0.005,
                 qPrintable(QString::number(llama.passSeconds(1))));
        // A 2,048-token prompt is compute-bound: 2 FLOPs per token on each of the 6,476,271,616
        // weights besides the input embedding and the output projection (2 x 131,072,000).
        const double promptFlops = 2.0 * 6476271616.0 * 2048;
        const double peak = h100.peakFlopsPerSecond(Precision::FP16);
        QVERIFY2(std::abs(llama.passSeconds(2048) / (promptFlops / peak) - 1) < 0.005,
                 qPrintable(QString::number(llama.passSeconds(2048))));
        // Mixtral 8x7B, 46,702,792,704 parameters, of them 32 layers x 8 experts x 3 x 4,096 x
        // 14,336 = 45,097,156,608 in experts. One token passes 2 of each layer's 8 experts, so
        // a rank of two reads (46,702,792,704 - 131,072,000 - 6/8 x 45,097,156,608) / 2 x 2
        // bytes = 12.7489 GB, 3.8056 ms; a 1,024-token prompt touches every expert:
        // (46,702,792,704 - 131,072,000) / 2 x 2 bytes = 46.5717 GB, 13.902 ms.
        const ServingFloor mixtral = servingFloorOf(
            TransformerShape::fromModel(catalog.llm("mixtral-8x7b")), h100, Precision::FP16, 2);
        QVERIFY2(std::abs(mixtral.weightBytesRead(1) / 12.7489e9 - 1) < 0.002,
                 qPrintable(QString::number(mixtral.weightBytesRead(1))));
        QVERIFY2(std::abs(mixtral.passSeconds(1) / 3.8056e-3 - 1) < 0.002,
                 qPrintable(QString::number(mixtral.passSeconds(1))));
        QVERIFY2(std::abs(mixtral.passSeconds(1024) / 13.902e-3 - 1) < 0.002,
                 qPrintable(QString::number(mixtral.passSeconds(1024))));
        // FP8 weights halve the bytes; INT4 weights quarter them but compute at 16 bits.
        const TransformerShape shape = TransformerShape::fromModel(catalog.llm("llama-2-7b"));
        QCOMPARE(servingFloorOf(shape, h100, Precision::FP8, 1).weightBytesRead(1),
                 llama.weightBytesRead(1) / 2);
        const ServingFloor int4 = servingFloorOf(shape, h100, Precision::INT4, 1);
        QCOMPARE(int4.weightBytesRead(1), llama.weightBytesRead(1) / 4);
        QCOMPARE(int4.peakFlopsPerSecond, h100.peakFlopsPerSecond(Precision::BF16));
    }

    void validationRowsRunOnTheirEnginesProfile()
    {
        // A row runs on the profile of the software that measured it: AMD's MLPerf v4.1
        // submission serves through a vLLM-based harness (its notes), so vLLM 0.6's; NVIDIA's
        // MLPerf harness is TensorRT-LLM (0.12's profile); TensorRT-LLM 0.9's tables on 0.9's.
        const std::string file = CP_VALIDATION_DATA_DIR "/inference_validation.json";
        const nlohmann::json table = readJsonFile(file);
        const std::map<std::string, std::string> expected
            = {{"mlperf41-1xmi300x-llama2-70b-offline", "vllm-0.6"},
               {"mlperf41-8xh100-llama2-70b-offline", "tensorrt-llm-0.12"},
               {"vllm-ci9513-h200-llama3-8b-bs8-e2e", "vllm-0.6"},
               {"trtllm090-h100-llama2-7b-ttft-128", "tensorrt-llm-0.9"}};
        nlohmann::json some = table;
        some["rows"] = nlohmann::json::array();
        for (const nlohmann::json &row : table["rows"])
            if (expected.count(row["id"].get<std::string>()))
                some["rows"].push_back(row);
        QCOMPARE(some["rows"].size(), expected.size());
        for (const InferenceValidationRow &row :
             runInferenceValidation(some, shippedCatalog(), file))
            QCOMPARE(row.engineProfile, expected.at(row.id));
    }

    void validationSetsAsideFiguresBeyondTheirFloor()
    {
        // TensorRT-LLM 0.9's Mixtral 8x7B first token after 128 prompt tokens on two H100s,
        // 13.4 ms with 16-bit weights: 128 tokens touch every expert, so a rank streams
        // 46.5717 GB, at least 13.902 ms at 3.35 TB/s (servingFloorStreamsTheTouchedWeights).
        // The figure is faster than the workload it states allows: set aside, out of the
        // summaries, with the floor named.
        const std::string file = CP_VALIDATION_DATA_DIR "/inference_validation.json";
        const nlohmann::json table = readJsonFile(file);
        nlohmann::json one = table;
        one["rows"] = nlohmann::json::array();
        for (const nlohmann::json &row : table["rows"])
            if (row["id"] == "trtllm090-h100-mixtral-8x7b-ttft-128-tp2")
                one["rows"].push_back(row);
        QCOMPARE(one["rows"].size(), std::size_t(1));
        const InferenceValidationRow breaking
            = runInferenceValidation(one, shippedCatalog(), file).front();
        QVERIFY(breaking.floor.has_value());
        QVERIFY2(std::abs(breaking.floor->value / 13.902 - 1) < 0.002,
                 qPrintable(QString::number(breaking.floor->value)));
        QVERIFY(!breaking.scored());
        QVERIFY2(breaking.beyondFloor.find("at least 13.9 ms") != std::string::npos,
                 breaking.beyondFloor.c_str());
        QCOMPARE(summarizeInferenceValidation({breaking}).rows, 0);
        QVERIFY(inferenceValidationMarkdown({breaking}, file).find("1 row is: " + breaking.id)
                != std::string::npos);
        // The same run at 14.5 ms respects the floor and is scored.
        one["rows"][0]["measured"]["value"] = 14.5;
        const InferenceValidationRow respecting
            = runInferenceValidation(one, shippedCatalog(), file).front();
        QVERIFY(respecting.beyondFloor.empty());
        QCOMPARE(summarizeInferenceValidation({respecting}).rows, 1);
        // A throughput at a static batch of 32 on the same pair: 32 tokens a step of at least
        // 13.902 ms, at most 32 / 0.013902 / 2 = 1,151 output tokens/s per GPU.
        one["rows"][0]["measured"]
            = {{"metric", "output_tokens_per_second_per_gpu"}, {"value", 1200.0}};
        one["rows"][0]["batch"] = 32;
        one["rows"][0]["input_tokens"] = 2048;
        one["rows"][0]["output_tokens"] = 2048;
        const InferenceValidationRow fast
            = runInferenceValidation(one, shippedCatalog(), file).front();
        QVERIFY(fast.floor.has_value());
        QVERIFY2(std::abs(fast.floor->value / 1150.9 - 1) < 0.002,
                 qPrintable(QString::number(fast.floor->value)));
        QVERIFY(!fast.beyondFloor.empty());
        // Offline at the engine's batch, no floor follows from the row alone.
        one["rows"][0]["batch"] = nullptr;
        QVERIFY(!runInferenceValidation(one, shippedCatalog(), file).front().floor);
        // An estimate's published-measurements line leaves a set-aside row out as the report
        // does: of the two H100 Mixtral first-token rows only the 2,048-token one is counted.
        nlohmann::json pair = table;
        pair["rows"] = nlohmann::json::array();
        for (const nlohmann::json &row : table["rows"])
            if (row["id"] == "trtllm090-h100-mixtral-8x7b-ttft-128-tp2"
                || row["id"] == "trtllm090-h100-mixtral-8x7b-ttft-2048-tp2")
                pair["rows"].push_back(row);
        QCOMPARE(pair["rows"].size(), std::size_t(2));
        const PublishedServingComparison published
            = summarizePublishedServing(runInferenceValidation(pair, shippedCatalog(), file),
                                        {"h100-sxm5-80gb", Precision::FP16, "mixtral-8x7b"});
        QCOMPARE(published.latency.rows, 1);
        QCOMPARE(published.sameModelLatency.rows, 1);
    }

    void everyEstimateKeepsAboveItsFloor()
    {
        // Llama 2 7B, 16-bit, batch 1 on one H100: the decode floor is the 13.2147 GB of weights
        // (servingFloorStreamsTheTouchedWeights) and the K/V the token attends, on average
        // 128 + 128 / 2 = 192 tokens of 32 layers x 2 x 4,096 x 2 B = 100.66 MB: 13.3154 GB at
        // 3.35 TB/s, 3.9747 ms. The estimate carries it and its own step is slower.
        const InferenceEstimate llama
            = estimator("h100-sxm5-80gb", "llama-2-7b", Precision::FP16, 1, 128, 128, 1).estimate();
        QVERIFY2(std::abs(llama.decodeFloorSeconds / 3.9747e-3 - 1) < 0.002,
                 qPrintable(QString::number(llama.decodeFloorSeconds)));
        QVERIFY(llama.decodeStepSeconds > llama.decodeFloorSeconds);
        // Long contexts: 256 sequences of Llama 3 70B attending at least their 2,048-token
        // prompts read 256 x 2,048 x 80 layers x 2 x 8 K/V heads x 128 x 2 B / 8 GPUs = 21.5 GB a
        // step on each GPU, 6.41 ms at 3.35 TB/s beside the weights' 8.6 GB (2.6 ms): the floor
        // is at least 9.0 ms. It counted the weights alone (2.59 ms) and the estimate read as
        // 12x its floor.
        const InferenceEstimate longContext
            = estimator("h100-sxm5-80gb", "llama-3-70b", Precision::FP8, 8, 2048, 2048, 256)
                  .estimate();
        QVERIFY2(longContext.decodeFloorSeconds > 9.0e-3,
                 qPrintable(QString::number(longContext.decodeFloorSeconds)));
        QVERIFY(longContext.decodeStepSeconds >= longContext.decodeFloorSeconds);
        // Across the catalog's GPUs and models, weight formats, engines and batches, no
        // estimate's prefill or decode step is faster than its floor.
        int checked = 0;
        for (const char *gpu : {"a100-sxm4-80gb", "h100-sxm5-80gb", "h200-sxm-141gb", "l40s", "l4",
                                "b200-sxm-192gb", "mi300x"})
            for (const char *model : {"llama-3-8b", "llama-2-70b", "mixtral-8x7b", "deepseek-v3"})
                for (Precision precision : {Precision::FP16, Precision::FP8, Precision::INT4})
                    for (const char *engine : {"vllm-0.7", "tensorrt-llm-0.12"})
                        for (int batch : {1, 8, 64}) {
                            const InferenceEstimate e
                                = estimator(gpu, model, precision, 8, 2048, 256, batch, engine)
                                      .estimate();
                            if (e.prefillFloorSeconds <= 0)
                                continue;
                            ++checked;
                            const QString where
                                = QString("%1 %2 %3 %4 batch %5")
                                      .arg(gpu, model,
                                           QString::fromStdString(precisionName(precision)), engine)
                                      .arg(batch);
                            QVERIFY2(e.prefillSeconds >= e.prefillFloorSeconds, qPrintable(where));
                            QVERIFY2(e.decodeStepSeconds >= e.decodeFloorSeconds,
                                     qPrintable(where));
                        }
        QVERIFY(checked > 300);
    }

    void floorTextSaysHowFarAboveTheEstimateIs()
    {
        InferenceEstimate e;
        QVERIFY(servingFloorText(e).empty());
        e.prefillFloorSeconds = 0.0097;
        e.decodeFloorSeconds = 0.0111;
        e.prefillSeconds = 0.0716; // 7.38 times the floor
        e.decodeStepSeconds = 0.02529; // 2.28 times
        QCOMPARE(servingFloorText(e),
                 std::string("prefill 9.70 ms, decode step 11.1 ms; the estimate takes 7.4x and "
                             "2.3x as long"));
    }

    void estimatesNeverBeatTheirFloor()
    {
        // Every estimate of the published suite respects the floor of its own workload: no
        // efficiency or overlap the estimator models may make it faster than the weights at
        // the datasheet bandwidth and the GEMMs at the datasheet peak.
        const std::string file = CP_VALIDATION_DATA_DIR "/inference_validation.json";
        int checked = 0;
        for (const InferenceValidationRow &row :
             runInferenceValidation(readJsonFile(file), shippedCatalog(), file)) {
            if (!row.notEstimated.empty() || !row.floor)
                continue;
            ++checked;
            const bool respects = row.latency ? row.predicted >= row.floor->value
                                              : row.predicted <= row.floor->value;
            QVERIFY2(respects,
                     qPrintable(QString::fromStdString(row.id) + " predicted "
                                + QString::number(row.predicted) + " floor "
                                + QString::number(row.floor->value)));
        }
        QVERIFY(checked >= 100);
    }

    void publishedServingSuite()
    {
        // catalogs/validation/inference_validation.json: published serving measurements with their
        // workloads (docs/validation-inference.md is generated from it). Measured, not fitted.
        const std::string file = CP_VALIDATION_DATA_DIR "/inference_validation.json";
        const auto rows = runInferenceValidation(readJsonFile(file), shippedCatalog(), file);
        std::vector<InferenceValidationRow> throughput, latency, underLoad;
        for (const InferenceValidationRow &row : rows) {
            if (!row.notEstimated.empty())
                continue;
            QVERIFY2(std::isfinite(row.predicted) && row.predicted > 0, row.id.c_str());
            if (!row.latency)
                throughput.push_back(row);
            else
                (row.underLoad ? underLoad : latency).push_back(row);
        }
        QVERIFY(throughput.size() >= 20 && latency.size() >= 15);
        QCOMPARE(underLoad.size(), std::size_t(7)); // MLPerf v4.1 server TTFT and TPOT
        const ValidationSummary t = summarizeInferenceValidation(throughput);
        const ValidationSummary l = summarizeInferenceValidation(latency);
        const ValidationSummary u = summarizeInferenceValidation(underLoad);
        // Throughput meets the median and mean targets (at most 10%, within +-5%), and so does
        // latency at a given batch since each layer's attention launches its engine's rotary and
        // K/V cache kernels (attentionSideKernelsFollowTheEngine): median 10.04% to 9.3%, mean
        // +5.3% to +3.2%. The guards keep every figure from getting worse than
        // docs/validation-inference.md records over the scored rows (throughput largest error
        // 35.0%; latency largest 40.0%). Five TensorRT-LLM 0.9 Mixtral figures are faster than
        // their stated workload allows and are set aside
        // (validationSetsAsideFiguresBeyondTheirFloor).
        QVERIFY2(t.medianAbsoluteError <= 0.10, qPrintable(QString::number(t.medianAbsoluteError)));
        QVERIFY2(l.medianAbsoluteError <= 0.10, qPrintable(QString::number(l.medianAbsoluteError)));
        QVERIFY2(t.maxAbsoluteError <= 0.36, qPrintable(QString::number(t.maxAbsoluteError)));
        QVERIFY2(l.maxAbsoluteError <= 0.41, qPrintable(QString::number(l.maxAbsoluteError)));
        QVERIFY2(std::abs(t.meanSignedError) <= 0.05,
                 qPrintable(QString::number(t.meanSignedError)));
        // Latency at a given batch was +4.6% mean until the 8-GPU L40S server let the suite
        // estimate its three TP 8 first-token rows (Llama 2 70B +26%, Falcon 180B +28% and +8%):
        // +5.4%, the eight PCIe GPUs on two CPU roots charged the one-switch busbw of 22 GB/s.
        QVERIFY2(l.meanSignedError <= 0.055, qPrintable(QString::number(l.meanSignedError)));
        QEXPECT_FAIL("", "the L40S TP 8 first tokens on the 8-GPU PCIe server (+5.4% mean)",
                     Continue);
        QVERIFY2(std::abs(l.meanSignedError) <= 0.05,
                 qPrintable(QString::number(l.meanSignedError)));
        // The TensorRT-LLM 1.0 page contributes 60 throughput rows (-4.6% mean); the others are
        // recorded apart in docs/validation-inference.md's per-engine lines. Guard them apart, so
        // that one source's drift cannot hide behind the other's.
        std::vector<InferenceValidationRow> otherThroughput, singleReadModels;
        for (const InferenceValidationRow &row : throughput) {
            if (row.engine != "tensorrt-llm-1.0-pytorch")
                otherThroughput.push_back(row);
            // TensorRT-LLM 0.9's models whose decode reads each K/V head once per query head
            // group: Llama 2 70B on XQA, and the multi-head Llama 2 7B and GPT-J (groups of 1),
            // on the masked multi-head kernel.
            if (row.engine == "tensorrt-llm-0.9.0"
                && (row.modelName.rfind("Llama 2", 0) == 0 || row.modelName == "GPT-J 6B"))
                singleReadModels.push_back(row);
        }
        QCOMPARE(otherThroughput.size() + 60, throughput.size());
        const ValidationSummary o = summarizeInferenceValidation(otherThroughput);
        QVERIFY2(std::abs(o.meanSignedError) <= 0.05,
                 qPrintable(QString::number(o.meanSignedError)));
        QCOMPARE(singleReadModels.size(), std::size_t(47));
        const ValidationSummary x = summarizeInferenceValidation(singleReadModels);
        QVERIFY2(std::abs(x.meanSignedError) <= 0.05,
                 qPrintable(QString::number(x.meanSignedError)));
        QVERIFY2(x.maxAbsoluteError <= 0.25, qPrintable(QString::number(x.maxAbsoluteError)));
        // Under an offered load near saturation the fixed fleet's latencies are far too low
        // (recorded: median 170%, mean +208%); the guard only keeps them from getting worse.
        QVERIFY2(u.medianAbsoluteError <= 1.75, qPrintable(QString::number(u.medianAbsoluteError)));
        QVERIFY2(u.meanSignedError <= 2.1, qPrintable(QString::number(u.meanSignedError)));
        // MLPerf Inference v4.1 Llama 2 70B offline, 8 x H100 and 8 x H200 (FP8), from the
        // OpenOrca subset's token lengths: within 15%.
        for (const InferenceValidationRow &row : throughput)
            if (row.id == "mlperf41-8xh100-llama2-70b-offline"
                || row.id == "mlperf41-8xh200-llama2-70b-offline")
                QVERIFY2(std::abs(row.signedError()) <= 0.15,
                         qPrintable(QString::fromStdString(row.id) + " "
                                    + QString::number(row.signedError())));
        // Latency at a given batch: every row within 30% but one (Mixtral's 128-token prompt on
        // H200 was -40% while TensorRT-LLM 0.9's SM80 expert kernels were charged their
        // large-GEMM slowness on start-up time too; it is -28%). Falcon 180B's 128-token prompt
        // at TP 8 on A100 was +28% while its layers were charged two all-reduces; TensorRT-LLM
        // sums the side-by-side attention and MLP and all-reduces once, and the row is +40%,
        // as its siblings on H100 (+23%) and H200 (+14%) are optimistic by less: a cost of
        // short Falcon prompts that the estimate does not have.
        QEXPECT_FAIL("", "Falcon 180B's 128-token prompt at TP 8 on A100 (+40%)", Continue);
        QVERIFY2(l.maxAbsoluteError <= 0.30, qPrintable(QString::number(l.maxAbsoluteError)));
        // Beyond 30%: TensorRT-LLM 0.9's Mixtral 128/2,048 row on the L40S (-31%); the 2,048/2,048
        // row on H200 was -35% before that (-26%), and its three siblings on H100, A100 and L40S
        // are faster than reading every expert's weights allows and are set aside. Mistral 7B
        // and Falcon 180B, on the masked multi-head kernel, are within 18%.
        QEXPECT_FAIL("", "TensorRT-LLM 0.9's Mixtral 128/2,048 on the L40S", Continue);
        QVERIFY(t.maxAbsoluteError <= 0.30);
        QEXPECT_FAIL("", "MLPerf server latencies: the fleet is near saturation", Continue);
        QVERIFY(u.maxAbsoluteError <= 0.30);
    }

    void validationRefusesAContradictoryModelShape()
    {
        // A row's own model shape is read as the catalog reads a model: top-k beyond the experts,
        // or heads that K/V heads do not divide, are refused at the field.
        const std::string file = CP_VALIDATION_DATA_DIR "/inference_validation.json";
        const nlohmann::json table = readJsonFile(file);
        nlohmann::json one = table;
        one["rows"] = nlohmann::json::array({table["rows"][0]});
        one["rows"][0]["model"] = {
            {"name", "contradictory"}, {"layers", 2},  {"hidden", 1024}, {"heads", 8}, {"ffn", 512},
            {"vocab", 1000},           {"experts", 2}, {"top_k", 4}};
        try {
            runInferenceValidation(one, shippedCatalog(), file);
            QFAIL("top_k beyond the experts was accepted");
        } catch (const InputError &error) {
            QCOMPARE(error.pointer(), std::string("/rows/0/model/top_k"));
        }
        one["rows"][0]["model"]["top_k"] = 2;
        one["rows"][0]["model"]["kv_heads"] = 3;
        try {
            runInferenceValidation(one, shippedCatalog(), file);
            QFAIL("8 heads on 3 K/V heads were accepted");
        } catch (const InputError &error) {
            QCOMPARE(error.pointer(), std::string("/rows/0/model/kv_heads"));
        }
        one["rows"][0]["model"]["kv_heads"] = 4;
        QCOMPARE(runInferenceValidation(one, shippedCatalog(), file).size(), std::size_t(1));
        // An id the catalog does not hold is refused at its field, with the ids it knows.
        for (const char *key : {"model", "gpu"}) {
            nlohmann::json unknown = one;
            unknown["rows"][0][key] = "no-such-entry";
            try {
                runInferenceValidation(unknown, shippedCatalog(), file);
                QFAIL("an unknown catalog id was accepted");
            } catch (const InputError &error) {
                QCOMPARE(error.pointer(), "/rows/0/" + std::string(key));
                QVERIFY2(std::string(error.what()).find("known: ") != std::string::npos,
                         error.what());
            }
        }
    }

    void validationRunsCountTheirRequests()
    {
        // trtllm-bench's 2048/2048 row ran 1,500 requests at a batch of about 700: its last wave
        // is about 100 sequences, so the run's throughput is below the steady batch's. Without
        // the count the row scores the steady figure.
        const std::string file = CP_VALIDATION_DATA_DIR "/inference_validation.json";
        const nlohmann::json table = readJsonFile(file);
        nlohmann::json one = table;
        one["rows"] = nlohmann::json::array();
        for (const nlohmann::json &row : table["rows"])
            if (row["id"] == "trtllm012-h200-llama3-70b-tp4-2048-2048")
                one["rows"].push_back(row);
        QCOMPARE(one["rows"].size(), std::size_t(1));
        QCOMPARE(one["rows"][0]["requests"].get<long long>(), 1500LL);
        const InferenceValidationRow counted
            = runInferenceValidation(one, shippedCatalog(), file).front();
        QVERIFY(counted.estimate.offlineJob.has_value());
        QVERIFY(counted.estimate.offlineJob->lastWaveBatch > 0);
        one["rows"][0]["requests"] = nullptr;
        const InferenceValidationRow steady
            = runInferenceValidation(one, shippedCatalog(), file).front();
        QVERIFY(!steady.estimate.offlineJob);
        QVERIFY(counted.predicted < 0.97 * steady.predicted);
        // A run at a request rate is no offline job: refused at the row's field.
        one["rows"][0]["requests"] = 1500;
        one["rows"][0]["request_rate"] = 5.0;
        try {
            runInferenceValidation(one, shippedCatalog(), file);
            QFAIL("a row with both requests and request_rate was accepted");
        } catch (const InputError &error) {
            QCOMPARE(error.pointer(), std::string("/rows/0/requests"));
        }
    }

    void validationScoresServerCapacity()
    {
        // MLPerf server throughputs are scored as the fleet's capacity within the p99 limits
        // (2 s TTFT, 200 ms TPOT): recorded +13.7% (H200) to +30.7% (MI300X), as optimistic as
        // the offline rows of the same systems and more; the guard keeps them from getting
        // worse and checks that each is estimated and names the limit that binds.
        const std::string file = CP_VALIDATION_DATA_DIR "/inference_validation.json";
        const nlohmann::json table = readJsonFile(file);
        nlohmann::json servers = table;
        servers["rows"] = nlohmann::json::array();
        for (const nlohmann::json &row : table["rows"])
            if (row.contains("latency_limits"))
                servers["rows"].push_back(row);
        QCOMPARE(servers["rows"].size(), std::size_t(4));
        for (const InferenceValidationRow &row :
             runInferenceValidation(servers, shippedCatalog(), file)) {
            QVERIFY2(row.notEstimated.empty(), row.notEstimated.c_str());
            QVERIFY(row.withinLimits);
            QVERIFY2(row.signedError() > -0.10 && row.signedError() < 0.35,
                     qPrintable(QString::fromStdString(row.id) + " "
                                + QString::number(row.signedError())));
            QVERIFY2(row.estimate.bottleneck.rfind("limit: ", 0) == 0,
                     row.estimate.bottleneck.c_str());
        }

        // Limits score a throughput at a rate; on a latency row, or with a percentile the
        // estimator does not give, the row is refused at the field.
        nlohmann::json one = servers;
        one["rows"] = nlohmann::json::array({servers["rows"][0]});
        one["rows"][0]["measured"]["metric"] = "ttft_ms";
        try {
            runInferenceValidation(one, shippedCatalog(), file);
            QFAIL("latency limits on a latency row were accepted");
        } catch (const InputError &error) {
            QCOMPARE(error.pointer(), std::string("/rows/0/latency_limits"));
        }
        one["rows"][0]["measured"]["metric"] = "output_tokens_per_second_total";
        one["rows"][0]["latency_limits"]["percentile"] = 97;
        try {
            runInferenceValidation(one, shippedCatalog(), file);
            QFAIL("a 97th-percentile limit was accepted");
        } catch (const InputError &error) {
            QCOMPARE(error.pointer(), std::string("/rows/0/latency_limits/percentile"));
        }
    }

    void allInCostCountsThePromptsShare()
    {
        // Llama 3 70B in FP8 on 2-GPU H100 replicas, 1,000 + 200 tokens at 50 requests/s: the
        // fleet's cost an hour over the 50 x 200 x 3,600 = 36 million output tokens it makes an
        // hour is what a generated token costs with its prompt; the split by GPU time gives the
        // decode's share to output tokens and the prompts' to the 180 million input tokens,
        // and the two shares add up to it (the headline had shown the decode's share alone).
        const InferenceEstimate e = llama3SeventyBFp8Fleet(50);
        QVERIFY2(e.meetsTargets, e.reason.c_str());
        QVERIFY(qAbs(e.costPerMillionOutputTokensAllInUsd / (e.usdPerHour / 36.0) - 1.0) < 1e-9);
        QVERIFY(qAbs(e.costPerMillionOutputTokensUsd
                     + e.costPerMillionInputTokensUsd * 1000.0 / 200.0
                     - e.costPerMillionOutputTokensAllInUsd)
                < 1e-9);
        QVERIFY(e.costPerMillionOutputTokensAllInUsd > 1.2 * e.costPerMillionOutputTokensUsd);
    }

    void aRatePastTheReplicaCapSaysSo()
    {
        // Llama 3 70B in FP8 on 2-GPU H100 replicas, 1,000 + 200 tokens, 10 million requests/s
        // within a 500 ms p95 TTFT and 100 ms TPOT. Batches of 2 and more meet the latency
        // targets (the 1 request/s fleet below runs at batch 2 and up), but a 2-GPU replica
        // serves a few requests a second: over 1,000,000 replicas at 70%. The reason had been
        // the smallest batch's, "at batch 1 the rate needs more than 1,000,000 replicas", as if
        // batch 1 were the best there is.
        const InferenceEstimate e = llama3SeventyBFp8Fleet(1e7);
        QVERIFY(!e.meetsTargets);
        QVERIFY2(e.reason.rfind("the rate needs ", 0) == 0, e.reason.c_str());
        QVERIFY2(e.reason.find("replicas at batch 1 ") == std::string::npos, e.reason.c_str());
        QVERIFY2(e.reason.find("more than the 1,000,000 a fleet is sized to") != std::string::npos,
                 e.reason.c_str());
        const InferenceEstimate light = llama3SeventyBFp8Fleet(1.0);
        QVERIFY2(light.meetsTargets, light.reason.c_str());
    }

    void sizedFleetSaysWhyNotOneReplicaFewer()
    {
        // The same load on L4s, whose prompts are admitted as they come: the fleet is the
        // fewest replicas within the targets, and the explanation names what one replica fewer
        // misses, in the figures that fleet, given as a fixed fleet, is estimated at.
        InferenceJob job = servedAtRate("llama-3-8b", Precision::FP8, 1, 50);
        job.kvPrecision = Precision::FP8;
        const InferenceSetup setup = inferenceSetupFromCatalog(
            shippedCatalog(), {.gpuId = "l4", .facilityId = "dc-industry-average"});
        const InferenceEstimate e = InferenceEstimator(job, setup.hardware, setup.cost).estimate();
        QVERIFY2(e.meetsTargets, e.reason.c_str());
        QVERIFY(e.inFlightSequences > 0); // admitted as they come, not held at a batch of slots
        QVERIFY(e.replicas > 1);
        InferenceJob fewer = job;
        fewer.replicas = e.replicas - 1;
        const InferenceEstimate smaller
            = InferenceEstimator(fewer, setup.hardware, setup.cost).estimate();
        if (!smaller.meetsTargets) {
            // Its reason, e.g. "with 42 replicas the TPOT p95 50.2 ms is above the target",
            // up to the fleet that does serve it.
            const std::string missed = smaller.reason.substr(0, smaller.reason.find("; "));
            QVERIFY2(missed.starts_with("with " + std::to_string(e.replicas - 1) + " replicas"),
                     missed.c_str());
            QVERIFY2(e.bottleneckExplanation.find(missed) != std::string::npos,
                     (e.bottleneckExplanation + "\nexpected: " + missed).c_str());
            // The fixed fleet one short names the fleet that serves the load: this one.
            QVERIFY2(smaller.reason.ends_with(std::to_string(e.replicas)
                                              + " replicas serve the rate within the targets"),
                     smaller.reason.c_str());
        } else {
            QVERIFY2(e.bottleneckExplanation.find("above 70% of their capacity")
                         != std::string::npos,
                     e.bottleneckExplanation.c_str());
        }
    }

    void speculativeDecodingFollowsLeviathan()
    {
        // Leviathan et al. 2023, eq. 1: E = (1 - a^(g+1)) / (1 - a). a = 0.6, g = 3:
        // (1 - 0.1296) / 0.4 = 2.176; every token accepted: g + 1; none: 1.
        QVERIFY(qAbs(expectedTokensPerVerifyStep(0.6, 3) - 2.176) < 1e-12);
        QCOMPARE(expectedTokensPerVerifyStep(1.0, 4), 5.0);
        QCOMPARE(expectedTokensPerVerifyStep(0.0, 4), 1.0);
        // With n-gram drafting (no draft cost) a verify round of 4 tokens per sequence yields
        // 2.176 of them, so the time per output token is the round over 2.176, plus the batch's
        // prefill spread over the output.
        InferenceJob job;
        job.model = shippedCatalog().llm("llama-3-70b");
        job.weightPrecision = Precision::FP8;
        job.gpusPerReplica = 4;
        job.inputTokens = 2048;
        job.outputTokens = 512;
        job.batch = 32;
        job.speculative.enabled = true;
        job.speculative.draftTokens = 3;
        job.speculative.acceptanceRate = 0.6;
        const InferenceSetup setup = inferenceSetupFromCatalog(shippedCatalog(),
                                                               {.gpuId = "h100-sxm5-80gb",
                                                                .facilityId = "dc-industry-average",
                                                                .hourlyUsdPerGpu = 2.0});
        const InferenceEstimate e = InferenceEstimator(job, setup.hardware, setup.cost).estimate();
        QVERIFY2(e.fits, e.reason.c_str());
        QVERIFY(qAbs(e.tokensPerDecodeStep - 2.176) < 1e-12);
        QCOMPARE(e.draftSeconds, 0.0);
        // Each verify step yields 2.176 tokens; while a sequence's 512 tokens come out, the other
        // 31 prompts of the batch are prefilled (its own came before its first token).
        QVERIFY(qAbs(e.tpotSeconds
                     - (e.decodeStepSeconds / 2.176 + e.batchedPrefillSeconds * 31.0 / 32.0 / 512))
                < 1e-12);
        job.speculative.enabled = false;
        const InferenceEstimate plain
            = InferenceEstimator(job, setup.hardware, setup.cost).estimate();
        QVERIFY(e.tpotSeconds < plain.tpotSeconds);
        // A draft model costs its own decode steps: g of them per round.
        job.speculative.enabled = true;
        job.draftModel = shippedCatalog().llm("llama-3-8b");
        const InferenceEstimate drafted
            = InferenceEstimator(job, setup.hardware, setup.cost).estimate();
        QVERIFY(drafted.draftSeconds > 0);
        QVERIFY(drafted.weightsBytesPerGpu > e.weightsBytesPerGpu);
        // It prefills the prompt too (both models see the prefix): the prompt takes the target's
        // prefill and what Llama 3 8B's own prefill of 2,048 tokens takes on the same 4 GPUs,
        // a row of the prefill's operations. The TTFT was the target's alone.
        QVERIFY(qAbs(drafted.prefillSeconds - e.prefillSeconds - drafted.draftPrefillSeconds)
                < 1e-12);
        InferenceJob draftAlone = job;
        draftAlone.model = *job.draftModel;
        draftAlone.draftModel.reset();
        draftAlone.speculative.enabled = false;
        const double draftOwnPrefill = InferenceEstimator(draftAlone, setup.hardware, setup.cost)
                                           .estimateAtBatch(1)
                                           .prefillSeconds;
        QVERIFY2(qAbs(drafted.draftPrefillSeconds / draftOwnPrefill - 1.0) < 1e-9,
                 (std::to_string(drafted.draftPrefillSeconds) + " against "
                  + std::to_string(draftOwnPrefill))
                     .c_str());
        double rows = 0;
        for (const StepOperation &operation : drafted.prefillOperations)
            rows += operation.seconds;
        QVERIFY(qAbs(rows - drafted.prefillSeconds) < 1e-12);
    }

    void draftModelRunsItsOwnDecodeKernel()
    {
        // TensorRT-LLM 0.9 decodes Llama 2 70B (8 query heads per K/V head of 128) with XQA and
        // a multi-head Llama 2 7B draft with the masked kernel. On an H200 with an FP8 cache, HBM
        // streams 0.87 x 4,800 = 4,176 G elements a second and the masked kernel takes 3,820 G,
        // so the draft's attention is 4,176 / 3,820 = 1.093 times what streaming allows, while
        // the target's, on XQA, is not held. Against TensorRT-LLM 0.12 (XQA for both) the
        // draft's steps are longer and the target's the same: the draft picks its own kernel.
        InferenceJob job;
        job.model = shippedCatalog().llm("llama-2-70b");
        job.draftModel = shippedCatalog().llm("llama-2-7b");
        job.weightPrecision = Precision::FP8;
        job.kvPrecision = Precision::FP8;
        job.gpusPerReplica = 4;
        job.inputTokens = 2048;
        job.outputTokens = 2048;
        job.batch = 64;
        job.speculative.enabled = true;
        job.speculative.draftTokens = 3;
        job.speculative.acceptanceRate = 0.6;
        const InferenceSetup setup = inferenceSetupFromCatalog(shippedCatalog(),
                                                               {.gpuId = "h200-sxm-141gb",
                                                                .facilityId = "dc-industry-average",
                                                                .hourlyUsdPerGpu = 2.0});
        job.engine = *findServingEngine("tensorrt-llm-0.9");
        const InferenceEstimate old
            = InferenceEstimator(job, setup.hardware, setup.cost).estimate();
        job.engine = *findServingEngine("tensorrt-llm-0.12");
        const InferenceEstimate xqa
            = InferenceEstimator(job, setup.hardware, setup.cost).estimate();
        QVERIFY2(old.fits, old.reason.c_str());
        QVERIFY(!old.decodeMaskedMultiheadKernel); // the target runs XQA
        QCOMPARE(old.decodeStepSeconds, xqa.decodeStepSeconds);
        QVERIFY2(old.draftSeconds > xqa.draftSeconds * 1.0001,
                 qPrintable(QString::number(old.draftSeconds / xqa.draftSeconds)));
    }

    void enginesScheduleAndSizeDifferently()
    {
        InferenceJob job;
        job.model = shippedCatalog().llm("llama-3-8b");
        job.weightPrecision = Precision::FP16;
        job.inputTokens = 2048;
        job.outputTokens = 128;
        job.batch = 1;
        const InferenceSetup setup = inferenceSetupFromCatalog(shippedCatalog(),
                                                               {.gpuId = "h100-sxm5-80gb",
                                                                .facilityId = "dc-industry-average",
                                                                .hourlyUsdPerGpu = 2.0});
        // vLLM 0.6 chunks prefills by itself only for models whose context is over 32K tokens:
        // Llama 3 8B (8,192) prefills its 2,048-token prompt whole, as TensorRT-LLM does.
        job.engine = *findServingEngine("vllm-0.6");
        const InferenceEstimate whole
            = InferenceEstimator(job, setup.hardware, setup.cost).estimate();
        job.engine = *findServingEngine("tensorrt-llm-0.12");
        const InferenceEstimate unchunked
            = InferenceEstimator(job, setup.hardware, setup.cost).estimate();
        QCOMPARE(whole.ttftSeconds, unchunked.ttftSeconds);
        // The same shape with Llama 3.1's 131,072-token context: vLLM's 512-token step budget
        // prefills a lone 2048-token prompt in 4 chunks of 512.
        job.model.maxSeqLen = 131072;
        job.engine = *findServingEngine("vllm-0.6");
        const InferenceEstimate chunked
            = InferenceEstimator(job, setup.hardware, setup.cost).estimate();
        job.engine = *findServingEngine("tensorrt-llm-0.12");
        job.inputTokens = 512;
        const InferenceEstimate oneChunk
            = InferenceEstimator(job, setup.hardware, setup.cost).estimate();
        // Each chunk after the first also attends the chunks before it, so four chunks take
        // longer than four lone 512-token prompts (chunkedPrefillAttendsEarlierChunks).
        QVERIFY(chunked.ttftSeconds > 4 * oneChunk.ttftSeconds);
        QVERIFY(chunked.ttftSeconds > whole.ttftSeconds);
        job.model.maxSeqLen = 8192;
        // Memory: vLLM lets weights and cache use 90% of the GPU; TensorRT-LLM 90% of what the
        // weights and its 2 GB of runtime buffers leave. H100: 81,559 MiB = 85.52 GB.
        job.inputTokens = 2048;
        const InferenceEstimator trt(job, setup.hardware, setup.cost);
        job.engine = *findServingEngine("vllm-0.6");
        const InferenceEstimator vllm(job, setup.hardware, setup.cost);
        // Llama 3 8B by its shape (Llama 3 paper, Table 3): 32 layers of attention
        // (2 x 4096^2 + 2 x 4096 x 1024) and MLP (3 x 4096 x 14336) weights and two norms, plus
        // untied input and output embeddings of 128,256 x 4096: 8,030,261,248 parameters,
        // 16.06 GB in FP16. Prefill workspace: 2,048 tokens x (4 x 4096 + 2 x 14336) x 2 bytes =
        // 0.185 GB. KV cache per sequence: 2,176 tokens x 32 layers x 2 x 8 heads x 128 x 2 bytes =
        // 0.285 GB. vLLM: (0.9 x 85.52 - 16.06 - 0.185) / 0.2852 = 212.9, so 212 sequences;
        // TensorRT-LLM: 0.9 x (85.52 - 16.06 - 0.185 - 2) / 0.2852 = 212.3, also 212.
        QCOMPARE(vllm.maxBatch(), 212);
        QCOMPARE(trt.maxBatch(), 212);
        // The newest profile is the default (vLLM 0.7: 0.6's scheduling, a latent cache for
        // latent attention).
        QCOMPARE(defaultServingEngine().id, std::string("vllm-0.7"));
    }

    void enginesCapTheBatch()
    {
        // Llama 3 8B with FP8 weights and cache, 128 + 128 tokens, on one H100: a sequence's
        // cache is 256 tokens x 32 layers x 2 (K and V) x 8 heads x 128 x 1 byte = 16.8 MB, and
        // vLLM's 90% of 85.52 GB less 8.03 GB of weights leaves about 68.9 GB: some 4,100
        // sequences fit. vLLM still runs at most 256 at once (SchedulerConfig.max_num_seqs = 256
        // unless --max-num-seqs raises it).
        InferenceJob job = llama3EightBFp8(128, 128);
        const InferenceSetup setup = oneH100();
        job.engine = *findServingEngine("vllm-0.6");
        const InferenceEstimate vllm
            = InferenceEstimator(job, setup.hardware, setup.cost).estimate();
        QCOMPARE(vllm.batch, 256);
        QCOMPARE(vllm.maxBatch, 256);
        QCOMPARE(vllm.engineBatchLimit, 256);
        QVERIFY(vllm.memoryBatchLimit > 4000 && vllm.memoryBatchLimit < 4200);
        QVERIFY(vllm.bottleneckExplanation.find("max_num_seqs") != std::string::npos);

        // A deployment that raises the limit runs the larger batch.
        job.maxBatch = 1024;
        QCOMPARE(InferenceEstimator(job, setup.hardware, setup.cost).estimate().batch, 1024);

        // TensorRT-LLM's profile has no cap of its own (trtllm-bench sizes it): memory decides,
        // at 90% of what the weights and 2 GB of buffers leave, (85.52 - 8.03 - 2) x 0.9 / 16.8 MB,
        // again about 4,000 sequences.
        job.maxBatch.reset();
        job.engine = *findServingEngine("tensorrt-llm-0.12");
        const InferenceEstimate trt
            = InferenceEstimator(job, setup.hardware, setup.cost).estimate();
        QCOMPARE(trt.engineBatchLimit, 0);
        QCOMPARE(trt.batch, trt.memoryBatchLimit);
        QVERIFY(trt.batch > 3900 && trt.batch < 4200);

        // A batch above the engine's limit is not run, and the reason names the setting.
        job.engine = *findServingEngine("vllm-0.6");
        job.batch = 300;
        const InferenceEstimate over
            = InferenceEstimator(job, setup.hardware, setup.cost).estimate();
        QVERIFY(over.fits);
        QVERIFY(!over.meetsTargets);
        QVERIFY(over.reason.find("max_num_seqs") != std::string::npos);
        QCOMPARE(over.bottleneck, std::string("engine-batch-limit"));
    }

    void poissonQuantiles()
    {
        // Poisson(10): P(X <= 9) = 0.4579, P(X <= 10) = 0.5830, P(X <= 14) = 0.9165,
        // P(X <= 15) = 0.9513 (standard tables), so the median is 10 and the p95 15.
        QCOMPARE(poissonQuantile(10.0, 0.5), 10);
        QCOMPARE(poissonQuantile(10.0, 0.95), 15);
        // Poisson(1): P(X = 0) = e^-1 = 0.3679 covers a third; P(X <= 2) = 0.9197,
        // P(X <= 3) = 0.9810.
        QCOMPARE(poissonQuantile(1.0, 0.3), 0);
        QCOMPARE(poissonQuantile(1.0, 0.95), 3);
        // A large mean, where e^-mean underflows: close to the normal mean + 1.645 sd,
        // 10,000 + 164.5.
        const int large = poissonQuantile(10000.0, 0.95);
        QVERIFY2(large >= 10163 && large <= 10166, qPrintable(QString::number(large)));
        QCOMPARE(poissonQuantile(0.0, 0.95), 0);
    }

    void fixedFleetRunsTheBatchItsLoadBuilds()
    {
        // Llama 3 8B, FP8, 1,024 + 256 tokens on one H100 with TensorRT-LLM's profile.
        InferenceJob job = llama3EightBFp8(1024, 256);
        job.engine = *findServingEngine("tensorrt-llm-0.12");
        const InferenceSetup setup = oneH100();
        const InferenceEstimator alone(job, setup.hardware, setup.cost);
        const InferenceEstimate one = alone.estimateAtBatch(1);
        job.replicas = 1;
        auto at = [&](double rate) {
            job.ratePerSecond = rate;
            return InferenceEstimator(job, setup.hardware, setup.cost).estimate();
        };

        // Almost no load: one sequence at a time, decoded at the batch-1 step; a prompt waits
        // half a step for the next step boundary, then its prefill and that step's decode.
        const InferenceEstimate idle = at(0.001);
        QVERIFY(idle.meetsTargets);
        QCOMPARE(idle.batch, 1);
        QVERIFY(qAbs(idle.tpotSeconds / one.decodeStepSeconds - 1.0) < 1e-4);
        QCOMPARE(idle.tpotP95Seconds, idle.tpotSeconds); // nothing else in flight
        QVERIFY(qAbs(idle.ttftP50Seconds - (one.prefillSeconds + 1.5 * one.decodeStepSeconds))
                < 1e-6);

        // Little's law at every load: in flight = rate x (mean TTFT + O x TPOT); the mean TTFT
        // of a wait uniform over one step is its median. The batch run holds them, and the
        // latencies grow with the load.
        double previousInFlight = 0, previousTpot = 0;
        for (double rate : {5.0, 15.0, 30.0}) {
            const InferenceEstimate e = at(rate);
            QVERIFY2(e.meetsTargets, e.reason.c_str());
            const double little = rate * (e.ttftP50Seconds + job.outputTokens * e.tpotSeconds);
            QVERIFY(qAbs(e.inFlightSequences / little - 1.0) < 1e-9);
            QVERIFY(e.inFlightSequences <= e.batch);
            // The step at the 95th percentile of a Poisson occupancy runs more sequences.
            QVERIFY(e.tpotP95Seconds > e.tpotSeconds);
            QVERIFY(e.inFlightSequences > previousInFlight);
            QVERIFY(e.tpotSeconds > previousTpot);
            QVERIFY(qAbs(e.outputTokensPerSecondPerGpu - rate * 256) < 1e-9);
            previousInFlight = e.inFlightSequences;
            previousTpot = e.tpotSeconds;
        }

        // More than the replica can serve: refused with the replicas it would take; two serve it.
        const InferenceEstimate over = at(60.0);
        QVERIFY(!over.meetsTargets);
        QVERIFY2(over.reason.find("one replica serves") != std::string::npos, over.reason.c_str());
        QVERIFY2(over.reason.find("2 replicas are needed") != std::string::npos,
                 over.reason.c_str());
        // Its queue grows without bound (no TTFT), and its tokens are those it serves: offering
        // 120 requests/s instead of 60 buys none more, so a token costs the same (priced at the
        // offered rate, it cost half as much, as if the replica served all of it).
        QVERIFY(over.overloaded());
        const InferenceEstimate twice = at(120.0);
        QVERIFY(twice.overloaded());
        QVERIFY(qAbs(twice.costPerMillionOutputTokensUsd / over.costPerMillionOutputTokensUsd - 1.0)
                < 1e-9);
        QVERIFY(!at(30.0).overloaded());
        job.replicas = 2;
        QVERIFY(at(60.0).meetsTargets);

        // The capacity the fleet quotes is where it stops holding its load, even when TTFT is
        // most of a request's time (one output token): 1% below it the load is served at no
        // more than 100% utilisation, 1% above it refused.
        InferenceJob shortJob = llama3EightBFp8(1024, 1);
        shortJob.engine = job.engine;
        shortJob.replicas = 1;
        auto shortAt = [&](double rate) {
            shortJob.ratePerSecond = rate;
            return InferenceEstimator(shortJob, setup.hardware, setup.cost).estimate();
        };
        const double quoted = shortAt(1.0).requestsPerSecondPerReplica;
        const InferenceEstimate below = shortAt(0.99 * quoted);
        QVERIFY2(below.meetsTargets, below.reason.c_str());
        QVERIFY(below.utilisation <= 1.0);
        QVERIFY(!shortAt(1.01 * quoted).meetsTargets);

        // A target the fixed fleet misses is reported, naming it.
        job.replicas = 1;
        job.tpotP95Seconds = 0.5 * at(30.0).tpotSeconds;
        const InferenceEstimate slow = at(30.0);
        QVERIFY(!slow.meetsTargets);
        QVERIFY2(slow.reason.find("TPOT") != std::string::npos, slow.reason.c_str());
    }

    void fleetGpusCountInSixtyFourBits()
    {
        // The plan accepts up to 2^20 replicas of up to 2^16 GPUs: 2^36 = 68,719,476,736 GPUs,
        // past a 32-bit int, counted whole and printed grouped.
        InferenceEstimate e;
        e.replicas = 1 << 20;
        e.gpusPerReplica = 1 << 16;
        QCOMPARE(e.fleetGpus(), 68719476736LL);
        QCOMPARE(groupedCount(e.fleetGpus()), std::string("68,719,476,736"));
    }

    void fleetCapacityKeepsTheLimits()
    {
        // Llama 3 8B, FP8, 1,024 + 256 tokens on one H100 with TensorRT-LLM's profile, as above.
        InferenceJob job = llama3EightBFp8(1024, 256);
        job.engine = *findServingEngine("tensorrt-llm-0.12");
        const InferenceSetup setup = oneH100();
        job.replicas = 1;
        auto atRate = [&](double rate) {
            InferenceJob loaded = job;
            loaded.ratePerSecond = rate;
            return InferenceEstimator(loaded, setup.hardware, setup.cost).estimate();
        };
        auto capacityWithin = [&](const LatencyLimits &limits) {
            return fleetCapacityWithinLimits(job, setup.hardware, setup.cost, limits);
        };

        // No limits: the most the replica serves at all, where the fixed fleet turns from
        // serving its load to refusing it as more than one replica serves.
        const FleetCapacity flatOut = capacityWithin({});
        QVERIFY2(flatOut.serves, flatOut.reason.c_str());
        QCOMPARE(flatOut.capacity().limitedBy, std::string("throughput"));
        QVERIFY(atRate(flatOut.capacity().requestsPerSecond * 0.999).meetsTargets);
        QVERIFY(!atRate(flatOut.capacity().requestsPerSecond * 1.001).meetsTargets);
        QVERIFY(qAbs(flatOut.capacity().outputTokensPerSecond
                     - 256 * flatOut.capacity().requestsPerSecond)
                < 1e-6);

        // A TPOT limit of 80% of the flat-out step binds first: at the rate found the p95 step
        // keeps it, a little more load breaks it.
        LatencyLimits tpot;
        tpot.tpotSeconds = 0.8 * flatOut.estimate.tpotP95Seconds;
        const FleetCapacity held = capacityWithin(tpot);
        QVERIFY2(held.serves, held.reason.c_str());
        QCOMPARE(held.capacity().limitedBy, std::string("TPOT p95"));
        QVERIFY(held.capacity().requestsPerSecond < flatOut.capacity().requestsPerSecond);
        QVERIFY(atRate(held.capacity().requestsPerSecond).tpotP95Seconds <= *tpot.tpotSeconds);
        QVERIFY(atRate(held.capacity().requestsPerSecond * 1.001).tpotP95Seconds
                > *tpot.tpotSeconds);
        // The same limit at the 99th percentile is harder to keep: a lower rate.
        LatencyLimits tpot99 = tpot;
        tpot99.percentile = LatencyLimits::Percentile::P99;
        const FleetCapacity held99 = capacityWithin(tpot99);
        QVERIFY(held99.serves);
        QCOMPARE(held99.capacity().limitedBy, std::string("TPOT p99"));
        QVERIFY(held99.capacity().requestsPerSecond < held.capacity().requestsPerSecond);

        // Replicas each take an equal share of a Poisson stream (itself Poisson), so three serve
        // three times what one does.
        job.replicas = 3;
        const FleetCapacity three = capacityWithin(tpot);
        QVERIFY(
            qAbs(three.capacity().requestsPerSecond / (3 * held.capacity().requestsPerSecond) - 1.0)
            < 1e-3);
        job.replicas = 1;

        // Unloaded, a prompt waits for the next step boundary (uniform over one decode step t),
        // then takes its prefill and that step: TTFT p95 = prefill + t + 0.95 t. A limit just
        // under it is kept by no load, and the reason says so; just over it, some load keeps it.
        const InferenceEstimate one
            = InferenceEstimator(job, setup.hardware, setup.cost).estimateAtBatch(1);
        const double unloadedP95 = one.prefillSeconds + 1.95 * one.decodeStepSeconds;
        LatencyLimits ttft;
        ttft.ttftSeconds = 0.999 * unloadedP95;
        const FleetCapacity none = capacityWithin(ttft);
        QVERIFY(!none.serves);
        QVERIFY2(none.reason.find("even without load the TTFT p95") != std::string::npos,
                 none.reason.c_str());
        ttft.ttftSeconds = 1.01 * unloadedP95;
        const FleetCapacity some = capacityWithin(ttft);
        QVERIFY2(some.serves, some.reason.c_str());
        QCOMPARE(some.capacity().limitedBy, std::string("TTFT p95"));
        QVERIFY(atRate(some.capacity().requestsPerSecond).ttftSeconds <= *ttft.ttftSeconds);
    }

    void aTtftTargetNeedsFreeSlots()
    {
        // Llama 3 8B, FP8, 1,024 + 256 tokens on one H100 (TensorRT-LLM) with a generous 10 s
        // TTFT target. Near its flat-out rate a replica's mean occupancy m is close to its
        // largest batch B; occupancy is Poisson, so its 95th percentile is about m + 1.645 sqrt(m),
        // above B: one prompt in twenty or more waits for a slot, a wait the TTFT leaves out.
        // At 99.99% of the flat-out rate (m = 807 of B = 808 here) the fixed fleet met the target
        // at its slot-free TTFT; it misses it now, saying why. At 30% the occupancy's p95 is far
        // below B: met.
        InferenceJob job = llama3EightBFp8(1024, 256);
        job.engine = *findServingEngine("tensorrt-llm-0.12");
        const InferenceSetup setup = oneH100();
        job.replicas = 1;
        job.ttftP95Seconds = 10.0;
        auto atRate = [&](double rate) {
            InferenceJob loaded = job;
            loaded.ratePerSecond = rate;
            return InferenceEstimator(loaded, setup.hardware, setup.cost).estimate();
        };
        const double flatOut = atRate(1.0).requestsPerSecondPerReplica;
        const InferenceEstimate near = atRate(0.9999 * flatOut);
        QVERIFY(near.fits);
        QVERIFY(near.ttftSeconds < 10.0); // the slot-free TTFT alone keeps the target
        QVERIFY(poissonQuantile(near.inFlightSequences, 0.95) > near.maxBatch);
        QVERIFY(!near.meetsTargets);
        QVERIFY2(near.reason.find("would find all " + std::to_string(near.maxBatch)
                                  + " of its replica's slots taken")
                     != std::string::npos,
                 near.reason.c_str());
        const InferenceEstimate light = atRate(0.3 * flatOut);
        QVERIFY2(light.meetsTargets, light.reason.c_str());
        QVERIFY(poissonQuantile(light.inFlightSequences, 0.95) <= light.maxBatch);

        // The fleet's capacity within that TTFT limit stops where the occupancy's p95 reaches
        // the largest batch, below the flat-out rate.
        LatencyLimits ttft;
        ttft.ttftSeconds = 10.0;
        job.ttftP95Seconds.reset();
        const FleetCapacity within
            = fleetCapacityWithinLimits(job, setup.hardware, setup.cost, ttft);
        QVERIFY2(within.serves, within.reason.c_str());
        QCOMPARE(within.capacity().limitedBy,
                 std::string("TTFT p95 (prompts would wait for a free slot)"));
        const double capacity = within.capacity().requestsPerSecond;
        QVERIFY(capacity < 0.9999 * flatOut);
        const InferenceEstimate atCapacity = atRate(capacity);
        QVERIFY(poissonQuantile(atCapacity.inFlightSequences, 0.95) <= atCapacity.maxBatch);
        const InferenceEstimate beyond = atRate(1.002 * capacity);
        QVERIFY(poissonQuantile(beyond.inFlightSequences, 0.95) > beyond.maxBatch);
    }

    void offlineJobWaves()
    {
        // trtllm-bench's 128/2048 run: 3,000 requests on one replica of batch 1,813 run one full
        // wave and a last one of 3,000 - 1,813 = 1,187.
        OfflineJobWaves waves = cp::model::offlineJobWaves(3000, 1, 1813);
        QCOMPARE(waves.requestsPerReplica, 3000LL);
        QCOMPARE(waves.fullWaves, 1LL);
        QCOMPARE(waves.lastWaveBatch, 1187LL);
        // 3,001 requests over 4 replicas: the busiest takes ceil(750.25) = 751, at batch 250
        // three full waves and one of 1.
        waves = cp::model::offlineJobWaves(3001, 4, 250);
        QCOMPARE(waves.requestsPerReplica, 751LL);
        QCOMPARE(waves.fullWaves, 3LL);
        QCOMPARE(waves.lastWaveBatch, 1LL);
        // An even split has no smaller wave; fewer requests than the batch are one small wave.
        waves = cp::model::offlineJobWaves(2000, 2, 500);
        QCOMPARE(waves.fullWaves, 2LL);
        QCOMPARE(waves.lastWaveBatch, 0LL);
        waves = cp::model::offlineJobWaves(10, 1, 256);
        QCOMPARE(waves.fullWaves, 0LL);
        QCOMPARE(waves.lastWaveBatch, 10LL);
        // The largest job a plan may hold, 10^12 requests, at batch 1 on 2^20 replicas: no
        // overflow (ceil(10^12 / 1,048,576) = 953,675).
        waves = cp::model::offlineJobWaves(InferenceJob::maxOfflineRequests, 1 << 20, 1);
        QCOMPARE(waves.requestsPerReplica, 953675LL);
        QCOMPARE(waves.fullWaves, 953675LL);
    }

    void aSequenceWaitsOnlyForOtherPromptsBetweenItsTokens()
    {
        // Llama 3 8B FP8 on one H100, 1,024 + 256 tokens. At batch 1 nothing else runs while a
        // sequence generates: its tokens come one decode step apart, and its end-to-end latency
        // is its own prefill and 256 steps (the prefill is not counted a second time).
        InferenceJob job = llama3EightBFp8(1024, 256);
        job.batch = 1;
        const InferenceSetup setup = oneH100();
        const InferenceEstimate one
            = InferenceEstimator(job, setup.hardware, setup.cost).estimate();
        QVERIFY(one.decodeStepSeconds > 0);
        QCOMPARE(one.tpotSeconds, one.decodeStepSeconds);
        QCOMPARE(one.endToEndSeconds, one.prefillSeconds + 256 * one.decodeStepSeconds);
        // At batch 8 the other seven prompts are prefilled while it generates: its tokens come
        // further apart than the decode step, but the batch still turns over in one batched
        // prefill and 256 steps.
        job.batch = 8;
        const InferenceEstimate eight
            = InferenceEstimator(job, setup.hardware, setup.cost).estimate();
        QVERIFY(eight.tpotSeconds > eight.decodeStepSeconds);
        QVERIFY(qAbs(8 / eight.requestsPerSecondPerReplica
                     - (eight.batchedPrefillSeconds + 256 * eight.decodeStepSeconds))
                < 1e-12);
    }

    void offlineJobRunsItsLastWaveSmaller()
    {
        // Llama 3 8B, FP8, 128 + 2,048 tokens on one H100 at batch 400 with TensorRT-LLM's
        // profile. A wave of b sequences takes the b prompts' batched prefill and O decode steps,
        // so 1,000 requests, two waves of 400 and one of 200, take twice the first and once the
        // second.
        InferenceJob job = llama3EightBFp8(128, 2048);
        job.engine = *findServingEngine("tensorrt-llm-0.12");
        job.batch = 400;
        const InferenceSetup setup = oneH100();
        const InferenceEstimator steady(job, setup.hardware, setup.cost);
        const auto waveSeconds = [&](int batch) {
            const InferenceEstimate atBatch = steady.estimateAtBatch(batch);
            return atBatch.batchedPrefillSeconds + 2048 * atBatch.decodeStepSeconds;
        };
        job.offlineRequests = 1000;
        const InferenceEstimate e = InferenceEstimator(job, setup.hardware, setup.cost).estimate();
        QVERIFY(e.offlineJob.has_value());
        const OfflineJobEstimate &run = *e.offlineJob;
        QCOMPARE(run.fullWaves, 2LL);
        QCOMPARE(run.lastWaveBatch, 200LL);
        const double seconds = 2 * waveSeconds(400) + waveSeconds(200);
        QVERIFY2(qAbs(run.seconds / seconds - 1.0) < 1e-9,
                 qPrintable(QString::number(run.seconds)));
        // The half-full wave decodes at a step that reads the same weights for half the
        // sequences, so the job runs below the steady throughput, and at 1,000 x 2,048 tokens
        // over its duration.
        QVERIFY(run.outputTokensPerSecondPerGpu < e.outputTokensPerSecondPerGpu);
        QVERIFY(qAbs(run.outputTokensPerSecondPerGpu - 1000.0 * 2048 / seconds) < 1e-6);
        QVERIFY(e.bottleneckExplanation.find("last wave runs 200") != std::string::npos);
        // 2 USD per GPU-hour for the job's duration, on one GPU.
        QVERIFY(qAbs(run.usd - 2.0 * seconds / 3600) < 1e-9);
        QVERIFY(e.bottleneckExplanation.find("outlasts") == std::string::npos);
        // A hundred billion requests: 10^11 / 400 waves of some seconds each is centuries on one
        // GPU, past the 4 years its price is spread over; the estimate says so.
        job.offlineRequests = 100'000'000'000LL;
        const InferenceEstimate endless
            = InferenceEstimator(job, setup.hardware, setup.cost).estimate();
        QVERIFY(endless.offlineJob && endless.offlineJob->seconds > 4 * 8766.0 * 3600);
        QVERIFY2(endless.bottleneckExplanation.find(
                     "the job outlasts the hardware's 4-year life on 1 replica")
                     != std::string::npos,
                 endless.bottleneckExplanation.c_str());

        // 800 requests fill two waves exactly: the job runs at the steady throughput.
        job.offlineRequests = 800;
        const InferenceEstimate even
            = InferenceEstimator(job, setup.hardware, setup.cost).estimate();
        QCOMPARE(even.offlineJob->lastWaveBatch, 0LL);
        QVERIFY(qAbs(even.offlineJob->outputTokensPerSecondPerGpu / even.outputTokensPerSecondPerGpu
                     - 1.0)
                < 1e-9);

        // Four replicas share 1,000 requests, 250 each: one wave of 250, and the fleet costs four
        // GPUs for that long.
        job.offlineRequests = 1000;
        job.replicas = 4;
        const InferenceEstimate fleet
            = InferenceEstimator(job, setup.hardware, setup.cost).estimate();
        QCOMPARE(fleet.replicas, 4);
        QCOMPARE(fleet.offlineJob->requestsPerReplica, 250LL);
        const double fleetSeconds = waveSeconds(250);
        QVERIFY(qAbs(fleet.offlineJob->seconds / fleetSeconds - 1.0) < 1e-9);
        QVERIFY(qAbs(fleet.offlineJob->usd - 4 * 2.0 * fleetSeconds / 3600) < 1e-9);
        // Their share of 250 is less than the batch of 400: the replicas run at batch 250, and
        // the figures shown are that wave's.
        QCOMPARE(fleet.batch, 250);

        // One request on one replica: a wave of one, whose request is the whole job (it was
        // shown at batch 400's latencies, a request longer than the job). Its tokens cost
        // what the job costs: 2 USD an hour for its duration, over 128 prompt and 2,048
        // generated tokens, the two shares adding up to it.
        job.offlineRequests = 1;
        job.replicas = 1;
        const InferenceEstimate single
            = InferenceEstimator(job, setup.hardware, setup.cost).estimate();
        QCOMPARE(single.batch, 1);
        QVERIFY(qAbs(single.endToEndSeconds / single.offlineJob->seconds - 1.0) < 1e-9);
        QVERIFY(qAbs(single.offlineJob->seconds / waveSeconds(1) - 1.0) < 1e-9);
        const double jobUsd = 2.0 * single.offlineJob->seconds / 3600;
        QVERIFY(qAbs(single.costPerMillionOutputTokensUsd * 2048e-6
                     + single.costPerMillionInputTokensUsd * 128e-6 - jobUsd)
                < 1e-12);
        QVERIFY(qAbs(single.costPerRequestUsd - jobUsd) < 1e-12);
    }

    void attentionKernelsReadGroupedKvHeads()
    {
        // TurboMind 0.1's decoder attention serves 4, 2 or 1 query heads per block (the largest
        // that divides the group) from one K/V read, and one with an int8 cache; TensorRT-LLM's
        // XQA serves the whole group. Groups of 8 (Llama 2 70B): 8 / 4 = 2 reads; of 4 (Llama 3
        // 8B): 1; of 6: 6 / 2 = 3; int8: 8; multi-head (group 1): 1.
        const ServingEngine &turbomind = *findServingEngine("lmdeploy-0.1");
        const ServingEngine &trtllm = *findServingEngine("tensorrt-llm-0.12");
        QCOMPARE(kvReadsPerKvHead(turbomind, 8, 128, false), 2.0);
        QCOMPARE(kvReadsPerKvHead(turbomind, 4, 128, false), 1.0);
        QCOMPARE(kvReadsPerKvHead(turbomind, 6, 128, false), 3.0);
        QCOMPARE(kvReadsPerKvHead(turbomind, 8, 128, true), 8.0);
        QCOMPARE(kvReadsPerKvHead(turbomind, 1, 128, true), 1.0);
        QCOMPARE(kvReadsPerKvHead(trtllm, 8, 128, true), 1.0);
        QCOMPARE(kvReadsPerKvHead(trtllm, 4, 128, false), 1.0);
        // TensorRT-LLM 0.9 runs XQA only for groups of 8 with heads of 128 or 256; every other
        // grouped model gets the masked multi-head kernel, one block per query head: Mistral 7B
        // (32 query heads on 8 K/V heads of 128) reads each K/V head 4 times, Falcon 180B (232 on
        // 8, heads of 64) 29 times, a group of 8 with heads of 64 8 times; Llama 2 70B (64 on 8,
        // heads of 128) once, and a multi-head model once whichever kernel runs.
        const ServingEngine &trtllm09 = *findServingEngine("tensorrt-llm-0.9");
        QCOMPARE(kvReadsPerKvHead(trtllm09, 4, 128, false), 4.0);
        QCOMPARE(kvReadsPerKvHead(trtllm09, 29, 64, false), 29.0);
        QCOMPARE(kvReadsPerKvHead(trtllm09, 8, 64, false), 8.0);
        QCOMPARE(kvReadsPerKvHead(trtllm09, 8, 128, false), 1.0);
        QCOMPARE(kvReadsPerKvHead(trtllm09, 8, 256, false), 1.0);
        QCOMPARE(kvReadsPerKvHead(trtllm09, 1, 64, false), 1.0);
        QVERIFY(runsMaskedMultiheadKernel(trtllm09, 4, 128));
        QVERIFY(runsMaskedMultiheadKernel(trtllm09, 1, 128)); // no one-beam XQA kernel for MHA
        QVERIFY(!runsMaskedMultiheadKernel(trtllm09, 8, 128));
        QVERIFY(!runsMaskedMultiheadKernel(trtllm, 4, 128));
        QVERIFY(!runsMaskedMultiheadKernel(turbomind, 8, 128));

        // In the decode step: Llama 2 70B (80 layers, 8 K/V heads of 128) on 4 A100s, one
        // sequence at a mean context of 128 + 2048 / 2 = 1,152 tokens. Each rank holds 2 K/V
        // heads: 80 x 1,152 x 2 (K and V) x 2 heads x 128 x 2 bytes = 94,371,840 bytes streamed
        // from HBM whichever kernel reads them; TurboMind's second read of each head comes from
        // L2.
        InferenceJob job;
        job.model = shippedCatalog().llm("llama-2-70b");
        job.weightPrecision = Precision::FP16;
        job.inputTokens = 128;
        job.outputTokens = 2048;
        job.batch = 1;
        job.gpusPerReplica = 4;
        const InferenceSetup setup = inferenceSetupFromCatalog(shippedCatalog(),
                                                               {.gpuId = "a100-sxm4-80gb",
                                                                .facilityId = "dc-industry-average",
                                                                .hourlyUsdPerGpu = 2.0});
        const auto attention = [&](const ServingEngine &engine) {
            job.engine = engine;
            const InferenceEstimate e
                = InferenceEstimator(job, setup.hardware, setup.cost).estimate();
            for (const StepOperation &op : e.decodeOperations)
                if (op.kind == OperationKind::Attention)
                    return op;
            return StepOperation {};
        };
        QCOMPARE(attention(trtllm).bytes, 94371840.0);
        QCOMPARE(attention(turbomind).bytes, 94371840.0);
        // Per layer 1,179,648 bytes: HBM at 0.83 x 2,039 GB/s takes 0.697 us, TurboMind's two
        // reads from L2 at 5,391 GB/s 0.438 us, so HBM still limits it and both engines take the
        // same time.
        QVERIFY(qAbs(attention(turbomind).seconds / attention(trtllm).seconds - 1.0) < 1e-12);

        // A group the masked kernel serves head by head: the same model with 2 K/V heads on
        // TensorRT-LLM 0.9. Each of the 4 ranks keeps one K/V head for its 16 query heads: per
        // layer 1,152 x 2 x 1 x 128 x 2 = 589,824 bytes from HBM (0.3485 us at 1.692 TB/s), 16
        // reads of them from L2 (9,437,184 bytes at 5,391 GB/s, 1.7506 us) and 294,912 elements
        // taken once per query head, 4,718,592 at the A100's 2.05 T a second for this kernel:
        // 2.3017 us, which limits it (the score FLOPs, 4 x 1,152 x 8,192 / 4 = 9.4 MFLOP, take
        // 0.07 us). Against the grouped kernel of TensorRT-LLM 0.12, which reads the head once
        // from HBM, the step's attention is longer by 80 layers x (2.3017 - 0.3485) us = 156.3 us.
        job.model.kvHeads = 2;
        QCOMPARE(QString(attention(trtllm09).name),
                 QString("decode attention (masked multi-head kernel, a block per query head)"));
        QCOMPARE(QString(attention(turbomind).name),
                 QString("decode attention (reads the K/V cache; re-reads from L2)"));
        QCOMPARE(QString(attention(trtllm).name),
                 QString("decode attention (reads the K/V cache)"));
        const double longer = attention(trtllm09).seconds - attention(trtllm).seconds;
        QVERIFY2(qAbs(longer / 156.26e-6 - 1.0) < 0.001, qPrintable(QString::number(longer * 1e6)));
    }

    void maskedKernelIsNamedWhereItHoldsDecode()
    {
        // Llama 3 8B (32 query heads on 8 K/V heads of 128) in FP8 with an FP8 cache on one
        // H100, batch 120 at 128/2048: TensorRT-LLM 0.9 runs the masked multi-head kernel. Each
        // K/V element (1 byte) is worked through 4 times at 3.82 T a second, against streaming
        // it once at 0.89 x 3,350 = 2,981.5 GB/s: 4 x 2,981.5 / 3,820 = 3.122 times as long
        // (its L2 reads, 4 x 2,981.5 / 9,917 = 1.20, bind less). The bottleneck says so; on
        // TensorRT-LLM 0.12 (XQA) the cache streams once and nothing is added.
        InferenceJob job;
        job.model = shippedCatalog().llm("llama-3-8b");
        job.weightPrecision = Precision::FP8;
        job.kvPrecision = Precision::FP8;
        job.inputTokens = 128;
        job.outputTokens = 2048;
        job.batch = 120;
        job.engine = *findServingEngine("tensorrt-llm-0.9");
        const InferenceSetup setup = inferenceSetupFromCatalog(shippedCatalog(),
                                                               {.gpuId = "h100-sxm5-80gb",
                                                                .facilityId = "dc-industry-average",
                                                                .hourlyUsdPerGpu = 2.0});
        const InferenceEstimate masked
            = InferenceEstimator(job, setup.hardware, setup.cost).estimate();
        QVERIFY(masked.decodeMaskedMultiheadKernel);
        QVERIFY2(qAbs(masked.decodeKvKernelSeconds / masked.decodeKvStreamSeconds - 3.122) < 0.002,
                 qPrintable(
                     QString::number(masked.decodeKvKernelSeconds / masked.decodeKvStreamSeconds)));
        QVERIFY2(masked.bottleneckExplanation.find(
                     "its attention kernel (the masked multi-head kernel, a thread block per query "
                     "head) takes")
                     != std::string::npos,
                 masked.bottleneckExplanation.c_str());
        job.engine = *findServingEngine("tensorrt-llm-0.12");
        const InferenceEstimate xqa
            = InferenceEstimator(job, setup.hardware, setup.cost).estimate();
        QCOMPARE(xqa.decodeKvKernelSeconds, xqa.decodeKvStreamSeconds);
        QVERIFY(xqa.bottleneckExplanation.find("attention kernel") == std::string::npos);
    }

    void chunkedPrefillAttendsEarlierChunks()
    {
        // Llama 3 8B's shape on one H100, a 2,048-token prompt in four 512-token chunks. The
        // whole prompt's causal attention: 2,048 queries x 1,024 keys on average x 4 x 4,096
        // (32 heads of 128) FLOPs a layer, 34.36 GFLOP, 1.0995 TFLOP over 32 layers. The chunks
        // after 0, 512, 1,024 and 1,536 cached tokens attend 256, 768, 1,280 and 1,792 keys on
        // average: the same 4,096 x 512 pairs in all. Priced at their mean prior, 768 tokens,
        // four chunks of 1,024 keys do the same work.
        ServingReplica replica;
        replica.shape = TransformerShape::fromModel(shippedCatalog().llm("llama-3-8b"));
        replica.gpu = shippedCatalog().gpu("h100-sxm5-80gb");
        replica.tensorParallel = 1;
        replica.pipelineStages = 1;
        const auto attentionFlops = [&](double tokens, double prior) {
            const StepOperations ops = prefillStageOperations(replica, 1, tokens, prior);
            const StepOperation *op = findOperation(ops, "prefill attention (causal, fused)");
            return op ? op->flops : -1.0;
        };
        const double whole = attentionFlops(2048, 0);
        QVERIFY2(qAbs(whole / 1.0995e12 - 1.0) < 1e-4, qPrintable(QString::number(whole)));
        const double chunks = attentionFlops(512, 0) + attentionFlops(512, 512)
            + attentionFlops(512, 1024) + attentionFlops(512, 1536);
        QVERIFY(qAbs(chunks / whole - 1.0) < 1e-12);
        QVERIFY(qAbs(4.0 * attentionFlops(512, 768) / whole - 1.0) < 1e-12);
        // The last chunk reads the 1,536 cached tokens' K/V, 2 x 8 heads x 128 x 2 B each, on
        // every layer: 32 x 6,291,456 B more than the first chunk.
        const auto attentionBytes = [&](double prior) {
            const StepOperations ops = prefillStageOperations(replica, 1, 512, prior);
            return findOperation(ops, "prefill attention (causal, fused)")->bytes;
        };
        QCOMPARE(attentionBytes(1536) - attentionBytes(0), 32.0 * 6291456.0);
        // A 128-token window: past the window a chunk's queries attend 128 keys each, and one
        // that straddles it (prior 64, 128 queries) (64 x (64 + 32) + 64 x 128) / 128 = 112.
        QCOMPARE(chunkKeysPerQuery(1536, 512, 128), 128.0);
        QCOMPARE(chunkKeysPerQuery(64, 128, 128), 112.0);
        QCOMPARE(chunkKeysPerQuery(0, 8192, 128), causalKeysPerQuery(8192, 128));
    }

    void kvCacheReReadsComeFromL2()
    {
        // A GPU streaming 1 TB/s at 0.8 of it (0.8 TB/s achievable) with an L2 of 4 TB/s, and
        // 1 GB of K/V cache: once from HBM, 1.25 ms. Two reads per head: the second from L2,
        // 2 GB / 4 TB/s = 0.5 ms, so HBM still limits it, 1.25 ms; eight reads, 8 GB from L2,
        // 2.0 ms, which the L2 limits. With no L2 figure HBM's bandwidth stands in: eight reads
        // take 8 GB / 0.8 TB/s = 10 ms.
        ServingReplica replica;
        replica.gpu.memoryBytesPerSecond = 1e12;
        replica.gpu.memoryAchievableFraction = 0.8;
        replica.gpu.l2ReadBytesPerSecond = 4e12;
        replica.kvReadsPerKvHead = 2;
        QVERIFY(qAbs(kvCacheReadSeconds(replica, 1e9) / 1.25e-3 - 1.0) < 1e-12);
        replica.kvReadsPerKvHead = 8;
        QVERIFY(qAbs(kvCacheReadSeconds(replica, 1e9) / 2.0e-3 - 1.0) < 1e-12);
        replica.gpu.l2ReadBytesPerSecond = 0;
        QVERIFY(qAbs(kvCacheReadSeconds(replica, 1e9) / 10e-3 - 1.0) < 1e-12);

        // The masked multi-head kernel also takes every element once per query head: 1 GB of
        // 16-bit cache is 0.5 G elements; 8 query heads per K/V head at 1 T elements a second
        // take 4 ms, above the HBM stream's 1.25 ms and L2's 2 ms (8 GB at 4 TB/s). In FP8 the
        // same bytes are 1 G elements: 8 ms.
        replica.gpu.l2ReadBytesPerSecond = 4e12;
        replica.gpu.maskedAttentionElementsPerSecond = 1e12;
        replica.queryHeadsPerKvHead = 8;
        replica.kvPrecision = Precision::FP16;
        QVERIFY(qAbs(kvCacheReadSeconds(replica, 1e9) / 2.0e-3 - 1.0) < 1e-12); // not that kernel
        replica.maskedMultiheadKernel = true;
        QVERIFY(qAbs(kvCacheReadSeconds(replica, 1e9) / 4.0e-3 - 1.0) < 1e-12);
        replica.kvPrecision = Precision::FP8;
        QVERIFY(qAbs(kvCacheReadSeconds(replica, 1e9) / 8.0e-3 - 1.0) < 1e-12);
    }

    void planNamesEngineAndSpeculation()
    {
        // The workload's engine and speculative settings survive a save and a reload, and an
        // unknown engine is refused with its pointer.
        Plan plan = loadSamplePlan("l4-inference-fleet.json");
        plan.inference.engineId = "tensorrt-llm-0.12";
        plan.inference.speculative.enabled = true;
        plan.inference.speculative.draftTokens = 5;
        plan.inference.speculative.acceptanceRate = 0.65;
        plan.inference.modelId = "llama-3-70b"; // a draft is smaller than its target
        plan.inference.speculative.draftModelId = "llama-3-8b";
        plan.inference.maxBatch = 512;
        nlohmann::json json = planToJson(plan);
        const Plan back = parsePlan(json, "plan.json", &shippedCatalog());
        QCOMPARE(back.inference.engineId, std::string("tensorrt-llm-0.12"));
        QVERIFY(back.inference.speculative.enabled);
        QCOMPARE(back.inference.speculative.draftTokens, 5);
        QCOMPARE(back.inference.speculative.acceptanceRate, 0.65);
        QCOMPARE(back.inference.speculative.draftModelId, std::string("llama-3-8b"));
        QCOMPARE(back.inference.maxBatch, std::optional<int>(512));
        // A fixed fleet serves its rate and cannot also follow a diurnal profile. Without a rate
        // it is asked for its capacity within the targets, which a fixed batch would leave no
        // load to find.
        Plan fleet = plan;
        fleet.inference.diurnalRates.clear();
        fleet.inference.replicas = 6;
        QCOMPARE(parsePlan(planToJson(fleet), "plan.json", &shippedCatalog()).inference.replicas,
                 std::optional<int>(6));
        nlohmann::json diurnalFleet = planToJson(fleet);
        diurnalFleet["workload"]["diurnal"] = std::vector<double>(24, 1.0);
        QVERIFY2(planLoadError(diurnalFleet).find("/workload/replicas") != std::string::npos,
                 planLoadError(diurnalFleet).c_str());
        nlohmann::json noRate = planToJson(fleet);
        noRate["workload"].erase("rate_per_s");
        const Plan capacityPlan = parsePlan(noRate, "plan.json", &shippedCatalog());
        QVERIFY(!capacityPlan.inference.ratePerSecond);
        noRate["workload"]["batch"] = 16;
        QVERIFY2(planLoadError(noRate).find("/workload/batch: a fixed fleet without a rate")
                     != std::string::npos,
                 planLoadError(noRate).c_str());
        // An offline job: its requests survive a save (10^12, beyond 32 bits), its replicas
        // need no rate, and it refuses a rate, a count of 0 and one past 64 bits.
        Plan job = plan;
        job.inference.diurnalRates.clear();
        job.inference.ratePerSecond.reset();
        job.inference.offlineRequests = InferenceJob::maxOfflineRequests;
        job.inference.replicas = 4;
        const Plan jobBack = parsePlan(planToJson(job), "plan.json", &shippedCatalog());
        QCOMPARE(jobBack.inference.offlineRequests, std::optional<long long>(1'000'000'000'000LL));
        QCOMPARE(jobBack.inference.replicas, std::optional<int>(4));
        nlohmann::json withRate = planToJson(job);
        withRate["workload"]["rate_per_s"] = 5.0;
        QVERIFY2(planLoadError(withRate).find("/workload/requests: an offline job")
                     != std::string::npos,
                 planLoadError(withRate).c_str());
        for (const nlohmann::json &bad :
             {nlohmann::json(0), nlohmann::json(1'000'000'000'001LL),
              nlohmann::json(18'446'744'073'709'551'615ULL), nlohmann::json(2.5)}) {
            nlohmann::json broken = planToJson(job);
            broken["workload"]["requests"] = bad;
            const std::string error = planLoadError(broken);
            QVERIFY2(error.find("/workload/requests") != std::string::npos, error.c_str());
            // 2^64 - 1 is reported as written, not wrapped to -1.
            QVERIFY2(error.find("-1") == std::string::npos, error.c_str());
        }
        json["workload"]["max_batch"] = 0;
        QVERIFY2(planLoadError(json).find("/workload/max_batch") != std::string::npos,
                 "a max_batch of 0 was accepted");
        json["workload"]["max_batch"] = 512;
        json["workload"]["engine"] = "vllm-0.1";
        QVERIFY2(planLoadError(json).find("/workload/engine") != std::string::npos,
                 "an unknown engine was accepted");
    }
};

QTEST_APPLESS_MAIN(TestInferenceEstimator)
#include "tst_inferenceestimator.moc"
