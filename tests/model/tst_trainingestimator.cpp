// SPDX-License-Identifier: GPL-3.0-or-later
#include "model/catalog/catalogdatabase.h"
#include "model/cluster/clusterdescription.h"
#include "model/core/jsonfieldreader.h"
#include "model/core/units.h"
#include "model/training/gemmefficiency.h"
#include "model/training/trainingestimator.h"
#include "model/training/trainingframework.h"
#include "model/training/trainingstep.h"
#include "model/validation/trainingvalidation.h"
#include "testsupport.h"

#include <QTest>

#include <cmath>

using namespace cp::model;

namespace {
using cp::test::shippedCatalog;

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

/** The tiny model with an MoE MLP: 8 experts of 512, top 2. */
ModelSpec tinyMoeModel()
{
    ModelSpec model = tinyModel();
    model.experts = 8;
    model.topK = 2;
    model.ffn = 512;
    return model;
}

/** The tiny MoE at 2,048 tokens a sequence, `globalBatch` sequences a step. */
TrainingJob tinyMoeJob(int globalBatch)
{
    TrainingJob job;
    job.model = tinyMoeModel();
    job.seqLen = 2048;
    job.globalBatch = globalBatch;
    return job;
}

ClusterDescription dgxA100(int gpus)
{
    // A DGX A100 SuperPOD-style rail fabric of 40-port HDR leaves, non-blocking.
    ClusterFromCatalogOptions options;
    options.nodeId = "dgx-a100";
    options.gpus = gpus;
    options.switchPorts = 40;
    return ClusterDescription::fromCatalog(shippedCatalog(), options);
}

ClusterDescription dgxH100(int gpus)
{
    ClusterFromCatalogOptions options; // non-blocking rail fabric of 64-port NDR leaves
    options.nodeId = "dgx-h100";
    options.gpus = gpus;
    return ClusterDescription::fromCatalog(shippedCatalog(), options);
}

const StepOperation *findOperation(const TrainingEstimate &e, const std::string &name)
{
    for (const StepOperation &op : e.operations) {
        if (name == op.name)
            return &op;
    }
    return nullptr;
}

/** `name`'s operation of `job` on one H100 in `config` (an empty one when it is absent). */
StepOperation operationOnOneH100(const TrainingJob &job, const ParallelConfig &config,
                                 const char *name)
{
    const TrainingEstimate e = TrainingEstimator(job, dgxH100(1)).estimate(config);
    const StepOperation *op = findOperation(e, name);
    return op ? *op : StepOperation {};
}

/** `job` on one H100 without recomputation, then with selective recomputation of `modules`
 * (RecomputeModule bits); both must be valid layouts. */
std::pair<TrainingEstimate, TrainingEstimate> withoutAndWithRecompute(const TrainingJob &job,
                                                                      unsigned modules)
{
    ParallelConfig config;
    config.recompute = Recompute::None;
    const TrainingEstimate plain = TrainingEstimator(job, dgxH100(1)).estimate(config);
    config.recompute = Recompute::Selective;
    config.recomputeModules.bits = modules;
    const TrainingEstimate repeated = TrainingEstimator(job, dgxH100(1)).estimate(config);
    if (!plain.valid || !repeated.valid)
        qWarning("invalid layout: %s%s", plain.reason.c_str(), repeated.reason.c_str());
    return {plain, repeated};
}

/** GPT-3 175B as SC21 trains it (sequence 2048, batch 1536), pinned to TP 8 x PP 8 x CP 1 with
 * full recomputation: only the microbatch, interleave and ZeRO stage are left to set. */
TrainingJob gpt3OnEightByEight(int microbatch, int zero)
{
    TrainingJob job;
    job.model = shippedCatalog().llm("gpt-3-175b");
    job.seqLen = 2048;
    job.globalBatch = 1536;
    job.constraints.tp = 8;
    job.constraints.pp = 8;
    job.constraints.cp = 1;
    job.constraints.microbatch = microbatch;
    job.constraints.recompute = Recompute::Full;
    job.constraints.zero = zero;
    return job;
}

/** Llama 3 70B on 1,024 GPUs at TP 4 x PP 2 x DP 128, a layout the H100 sample's search weighs. */
ParallelConfig samplesLayout()
{
    ParallelConfig config;
    config.tp = 4;
    config.pp = 2;
    config.dp = 128;
    return config;
}

/** Llama 3 70B (Llama Team 2024, Table 3) at the 1,024-GPU sample's sizes. */
TrainingJob llama70b(int seqLen)
{
    TrainingJob job;
    job.model = shippedCatalog().llm("llama-3-70b");
    job.seqLen = seqLen;
    job.globalBatch = 512;
    return job;
}

/** Llama 3 70B at 4,096 tokens on 1,024 H100s at TP 8 x DP 128 (512 sequences a step: 4
 * microbatches of one) with the given precision, ZeRO stage and recomputation. */
TrainingEstimate llama70bOnTp8Dp128(Precision precision, int zero,
                                    Recompute recompute = Recompute::None, int globalBatch = 512)
{
    TrainingJob job = llama70b(4096);
    job.precision = precision;
    job.globalBatch = globalBatch;
    ParallelConfig config;
    config.tp = 8;
    config.dp = 128;
    config.zero = zero;
    config.recompute = recompute;
    return TrainingEstimator(job, dgxH100(1024)).estimate(config);
}

} // namespace

class TestTrainingEstimator : public QObject
{
    Q_OBJECT

private slots:
    void moreNicsThanTheGpusHostLinksCarryAddNoBandwidth()
    {
        // A DGX H100's GPU reaches its NICs over its own PCIe Gen5 x16 link, 64 GB/s a
        // direction. 8 NDR NICs (400 Gb/s = 50 GB/s each) give each of the 8 GPUs 50 GB/s; 16
        // would give 100 GB/s and 64 would give 400, but every byte still crosses the 64 GB/s
        // link: at the NIC's 94% usable that is 60.16 GB/s a GPU, not 94 or 376.
        ClusterFromCatalogOptions options;
        options.nodeId = "dgx-h100";
        options.gpus = 1024;
        const ClusterDescription eight = ClusterDescription::fromCatalog(shippedCatalog(), options);
        QCOMPARE(eight.gpu.hostLinkBytesPerSecond, 64e9);
        QVERIFY(qAbs(eight.scaleOutLink(2).busBytesPerSecond - 50e9 * 0.94) < 1.0);
        for (int nics : {16, 64}) {
            options.nicsPerNode = nics;
            const ClusterDescription more
                = ClusterDescription::fromCatalog(shippedCatalog(), options);
            QVERIFY2(qAbs(more.scaleOutLink(2).busBytesPerSecond - 64e9 * 0.94) < 1.0,
                     qPrintable(QString::number(more.scaleOutLink(2).busBytesPerSecond)));
            QVERIFY(qAbs(more.nodeScaleOutBytesPerSecond() - 8 * 64e9 * 0.94) < 1.0);
        }
    }

    void modelStateMemoryFollowsZero()
    {
        // Per-GPU parameters of the tiny model on one GPU: 2 layers x (4h² + 2h) attention and
        // norms + 2 x 8h² MLP + 2·V·h embeddings = 27,217,920. ZeRO (SC20): 2 + 2 + 12 bytes each
        // in FP16; a BF16 run's gradients are fp32 (Megatron-LM's arguments.py turns
        // accumulate_allreduce_grads_in_fp32 on for --bf16): 2 + 4 + 12.
        TrainingJob job;
        job.model = tinyModel();
        job.precision = Precision::FP16;
        job.seqLen = 128;
        job.globalBatch = 1;
        ParallelConfig config;
        const TrainingEstimator estimator(job, dgxA100(1));
        const double psi = 27217920.0;
        config.zero = 0;
        TrainingEstimate e = estimator.estimate(config);
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
        TrainingJob bf16 = job;
        bf16.precision = Precision::BF16;
        QCOMPARE(TrainingEstimator(bf16, dgxA100(8)).estimate(config).memory.gradientsBytes,
                 4 * psi / 8);
        bf16.framework.bf16GradientsInFp32 = false; // Megatron's --grad-reduce-in-bf16
        QCOMPARE(TrainingEstimator(bf16, dgxA100(8)).estimate(config).memory.gradientsBytes,
                 2 * psi / 8);
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
        job.framework.attention = AttentionKernel::Unfused;
        ParallelConfig config;
        config.recompute = Recompute::None;
        const TrainingEstimator estimator(job, dgxA100(1));
        QCOMPARE(estimator.estimate(config).memory.activationsBytes,
                 2 * (4456448.0 + 1310720.0) + 512000.0);
        // Flash attention never stores the s x s scores; selective recomputation drops them too.
        job.framework.attention = AttentionKernel::Flash;
        QCOMPARE(TrainingEstimator(job, dgxA100(1)).estimate(config).memory.activationsBytes,
                 2 * 4456448.0 + 512000.0);
        // Full recomputation keeps only each layer's 2·s·b·h input, and rebuilds one layer at a
        // time.
        config.recompute = Recompute::Full;
        QCOMPARE(TrainingEstimator(job, dgxA100(1)).estimate(config).memory.activationsBytes,
                 2 * (2.0 * 128 * 1024) + 4456448.0 + 512000.0);
    }

    void activationsWithoutDropoutAndWithFp8()
    {
        // The tiny model (h = 1024, 16 heads of 64, f = 4h, s = 128, b = 1: sbh = 131,072) with
        // flash attention keeps 34 sbh per layer (Korthikanti eq. 1 without the score terms):
        // norm inputs 4, norm outputs 4 and two 1-byte dropout masks 2 replicated; Q 2, K and V
        // 4, projection input 2, MLP 8 + 8 sharded. Without dropout (hidden_dropout 0, as
        // Llama's) PyTorch keeps no mask: 32 sbh = 4,194,304 bytes a layer, two layers, plus the
        // fp32 logits 4·s·V = 512,000.
        TrainingJob job;
        job.model = tinyModel();
        job.model.hiddenDropout = 0.0;
        job.seqLen = 128;
        job.globalBatch = 1;
        ParallelConfig config;
        config.recompute = Recompute::None;
        const double sbh = 128.0 * 1024;
        QCOMPARE(TrainingEstimator(job, dgxH100(1)).estimate(config).memory.activationsBytes,
                 2 * 32 * sbh + 512000.0);
        // FP8 (Transformer Engine): a GEMM input kept for the weight gradient is the 8-bit
        // column-wise copy, so without sequence parallelism both norm outputs drop from 2 to 1
        // byte (4 -> 2 sbh) and the down-projection input from 2f to f (8 -> 4 sbh); the
        // projection's FP8 input is kept beside the 16-bit attention output the attention keeps
        // (2 -> 3 sbh): 27 sbh.
        job.precision = Precision::FP8;
        QCOMPARE(TrainingEstimator(job, dgxH100(1)).estimate(config).memory.activationsBytes,
                 2 * 27 * sbh + 512000.0);
        // TP 2 with sequence parallelism: the norm-fused GEMMs keep their row-wise FP8 copy too
        // (to all-gather it again in backward), 2 bytes, so replicated (4 + 4) / 2 = 4 sbh and
        // sharded (2 + 4 + 3 + 8 + 4) / 2 = 10.5 sbh: 14.5 sbh a layer, logits 4·s·V / 2 =
        // 256,000.
        job.globalBatch = 1;
        config.tp = 2;
        config.sequenceParallel = true;
        QCOMPARE(TrainingEstimator(job, dgxH100(2)).estimate(config).memory.activationsBytes,
                 2 * 14.5 * sbh + 256000.0);
        // In BF16 the same layout keeps (8 / 2) + (2 + 4 + 2 + 16) / 2 = 16 sbh.
        job.precision = Precision::BF16;
        QCOMPARE(TrainingEstimator(job, dgxH100(2)).estimate(config).memory.activationsBytes,
                 2 * 16 * sbh + 256000.0);
    }

    void anEncoderRunsItsWholeAttention()
    {
        // The tiny model at 2,048 tokens, as a decoder and as an encoder: the encoder's fused
        // kernel runs every query against every key, 2 x 2 x 2,048 x 2,048 x 1,024 FLOPs a
        // sequence forward (QK^T and PV), and a backward of five such matmuls, 2.5 times it
        // (FlashAttention-2, Dao 2023): twice the causal pass's 2,048 / 2 keys a query. Its
        // layers add no rotary embedding, only the QKV split.
        TrainingJob job;
        job.model = tinyModel();
        job.seqLen = 2048;
        job.globalBatch = 1;
        ParallelConfig config;
        const StepOperation decoder = operationOnOneH100(job, config, "attention (fused, causal)");
        job.model.bidirectionalAttention = true;
        const StepOperation encoder
            = operationOnOneH100(job, config, "attention (fused, bidirectional)");
        const double layers = tinyModel().layers;
        const double forwardFlops = 4.0 * 2048.0 * 2048.0 * 1024.0;
        const double stepFlops = layers * forwardFlops * (1.0 + 2.5);
        QVERIFY(decoder.flops > 0 && encoder.flops > 0);
        QVERIFY2(qAbs(encoder.flops / stepFlops - 1.0) < 1e-9,
                 qPrintable(QString::number(encoder.flops)));
        QVERIFY(qAbs(encoder.flops / decoder.flops - 2.0) < 1e-9);
        // Twice the work, plus the same fixed cost per kernel launch.
        QVERIFY(encoder.seconds > 1.5 * decoder.seconds && encoder.seconds < 2.0 * decoder.seconds);
        QVERIFY(operationOnOneH100(job, config, "QKV split").bytes > 0);
        QCOMPARE(operationOnOneH100(job, config, "rotary embedding and QKV split").bytes, 0.0);
    }

    void residualAddsWriteNoMaskWithoutDropout()
    {
        // Bias-dropout-residual reads the branch output and the residual and writes the sum,
        // 3 h per token, plus a 1-byte mask (0.5 h in 2-byte units) when there is dropout: the
        // step's bytes for it fall by 0.5 / 3.5 without dropout.
        TrainingJob job;
        job.model = shippedCatalog().llm("llama-2-7b");
        job.seqLen = 4096;
        job.globalBatch = 8;
        ParallelConfig config;
        config.dp = 8;
        const auto residualBytes = [&](double dropout) {
            job.model.hiddenDropout = dropout;
            const TrainingEstimate e = TrainingEstimator(job, dgxH100(8)).estimate(config);
            const StepOperation *op = findOperation(e, "bias, dropout and residual adds");
            return op ? op->bytes : -1.0;
        };
        const double withMasks = residualBytes(0.1);
        QVERIFY(withMasks > 0);
        QVERIFY(qAbs(residualBytes(0.0) / withMasks - 3.0 / 3.5) < 1e-12);
    }

    void denseLayersOfAnMoeModelRunADenseMlp()
    {
        // The tiny model as an MoE of 4 experts of 1024 (top-1) whose second layer is dense with
        // an MLP of 4096. Half the layers route: the expert GEMMs do half the work of the
        // all-MoE model's, and the dense layers' MLP half the work of the dense tiny model's
        // (4096 wide) on every layer.
        TrainingJob job;
        job.model = tinyModel();
        job.seqLen = 2048;
        job.globalBatch = 1;
        ParallelConfig config;
        const auto flopsOf = [&](const ModelSpec &model, const char *name) {
            job.model = model;
            return operationOnOneH100(job, config, name).flops;
        };
        ModelSpec moe = tinyModel();
        moe.experts = 4;
        moe.topK = 1;
        moe.ffn = 1024;
        const double allMoe = flopsOf(moe, "expert MLP up (grouped GEMM)");
        moe.denseLayers = 1;
        moe.denseFfn = 4096;
        const double halfMoe = flopsOf(moe, "expert MLP up (grouped GEMM)");
        QVERIFY(allMoe > 0);
        QCOMPARE(halfMoe / allMoe, 0.5);
        const double denseLayerMlp = flopsOf(moe, "dense-layer MLP up");
        const double denseModelMlp = flopsOf(tinyModel(), "MLP up");
        QVERIFY(denseModelMlp > 0);
        QCOMPARE(denseLayerMlp / denseModelMlp, 0.5);
        // Every parameter is in a stage: one stage holds the whole model but the final norm.
        const TransformerShape shape = TransformerShape::fromModel(moe);
        QCOMPARE(stageParameters(shape, config).total(), shape.totalParameters() - 1024.0);
    }

    void slidingWindowAttentionSkipsTheBandsOutside()
    {
        // The tiny model at 8192 tokens on one H100, a 1024-token window on one of its two
        // layers. A full layer's causal queries attend 4096 keys on average, the windowed
        // layer's 1024 - 1024^2 / 16,384 = 960: the attention FLOPs fall to (4096 + 960) / 2 /
        // 4096 = 0.6171875 of the unwindowed model's.
        TrainingJob job;
        job.model = tinyModel();
        job.seqLen = 8192;
        job.globalBatch = 1;
        ParallelConfig config;
        const auto attention = [&](int window, const char *name) {
            job.model.slidingWindow = window;
            job.model.slidingWindowLayers = window > 0 ? 1 : 0;
            return operationOnOneH100(job, config, name);
        };
        const StepOperation full = attention(0, "attention (fused, causal)");
        const StepOperation mixed
            = attention(1024, "attention (fused, causal; windowed and full layers)");
        QVERIFY(full.flops > 0 && mixed.flops > 0);
        QVERIFY2(qAbs(mixed.flops / full.flops - 0.6171875) < 1e-12,
                 qPrintable(QString::number(mixed.flops / full.flops)));
        // The band's blocks are 1024 keys long, so its kernel runs at 0.49 x 1024 / (1024 + 517)
        // of the peak against 0.49 x 8192 / (8192 + 517) for the full layer: 0.7064 of the full
        // layer's rate. The time falls less than the work: (4096 + 960 / 0.7064) / 2 / 4096 =
        // 0.6659, launch costs aside.
        const double timeShare = mixed.seconds / full.seconds;
        QVERIFY2(timeShare > 0.6171875 && qAbs(timeShare - 0.6659) < 0.01,
                 qPrintable(QString::number(timeShare)));
    }

    void chunkedAttentionAttendsOnlyItsChunk()
    {
        // The tiny model at 8192 tokens on one H100, 1024-token chunks on one of its two layers
        // (Llama 4's chunked attention). The chunked layer's queries attend 0..1023 keys within
        // each of the 8 chunks, 512 on average; the full layer's 4096: the attention FLOPs fall
        // to (4096 + 512) / 2 / 4096 = 0.5625 of the unchunked model's.
        TrainingJob job;
        job.model = tinyModel();
        job.seqLen = 8192;
        job.globalBatch = 1;
        ParallelConfig config;
        const StepOperation full = operationOnOneH100(job, config, "attention (fused, causal)");
        job.model.attentionChunk = 1024;
        job.model.chunkedLayers = 1;
        const StepOperation mixed
            = operationOnOneH100(job, config, "attention (fused, causal; chunked and full layers)");
        QVERIFY(full.flops > 0 && mixed.flops > 0);
        QVERIFY2(qAbs(mixed.flops / full.flops - 0.5625) < 1e-12,
                 qPrintable(QString::number(mixed.flops / full.flops)));
        // A chunk's blocks are 1024 keys long, at 0.7064 of the full layer's rate (as the
        // 1024-token window's band): (4096 + 512 / 0.7064) / 2 / 4096 = 0.5885, launch costs
        // aside.
        const double timeShare = mixed.seconds / full.seconds;
        QVERIFY2(timeShare > 0.5625 && qAbs(timeShare - 0.5885) < 0.01,
                 qPrintable(QString::number(timeShare)));
    }

    void latentAttentionProjectsThroughItsLatents()
    {
        // The tiny model (hidden 1024, 16 heads of 64) at 2048 tokens on one H100, then with
        // latent attention: a 256-value K/V latent, a rotary part of 32 per query/key head,
        // values of 64, queries projected directly. Its projections hold 1024 x 16 x 96 =
        // 1,572,864 for the queries, 1024 x 288 = 294,912 for the latent and rotary key and 256
        // x 16 x 128 = 524,288 up to the keys and values: 2,392,064 against the standard
        // 1024 x 3072 = 3,145,728, so the projections' FLOPs are 0.7604 of the standard QKV
        // GEMM's, the up-projection's 524,288 of them and the GEMM from the hidden state (to the
        // queries, the latent and the rotary key) the other 1,867,776. Its
        // attention meets keys over 16 x 96 = 1536 and weighs values over 1024: (1536 + 1024) /
        // 2 / 1024 = 1.25 times the standard attention's FLOPs. The output projection reads the
        // same 1024 values.
        TrainingJob job;
        job.model = tinyModel();
        job.seqLen = 2048;
        job.globalBatch = 1;
        ParallelConfig config;
        const StepOperation qkv = operationOnOneH100(job, config, "QKV projection");
        const StepOperation attention
            = operationOnOneH100(job, config, "attention (fused, causal)");
        const StepOperation output = operationOnOneH100(job, config, "attention output projection");
        job.model.kvLoraRank = 256;
        job.model.ropeHeadDim = 32;
        const StepOperation down
            = operationOnOneH100(job, config, "latent attention down-projections");
        const StepOperation up = operationOnOneH100(job, config, "latent attention up-projections");
        const StepOperation latentAttention
            = operationOnOneH100(job, config, "attention (fused, causal)");
        const StepOperation latentOutput
            = operationOnOneH100(job, config, "attention output projection");
        QVERIFY(qkv.flops > 0 && attention.flops > 0);
        QCOMPARE(operationOnOneH100(job, config, "QKV projection").flops, 0.0);
        QVERIFY2(qAbs((down.flops + up.flops) / qkv.flops - 2392064.0 / 3145728.0) < 1e-12,
                 qPrintable(QString::number((down.flops + up.flops) / qkv.flops)));
        QVERIFY2(qAbs(up.flops / down.flops - 524288.0 / 1867776.0) < 1e-12,
                 qPrintable(QString::number(up.flops / down.flops)));
        QVERIFY2(qAbs(latentAttention.flops / attention.flops - 1.25) < 1e-12,
                 qPrintable(QString::number(latentAttention.flops / attention.flops)));
        QCOMPARE(latentOutput.flops, output.flops);
    }

    void selectiveRecomputeModulesDropWhatTheyRebuild()
    {
        // Megatron-Core's recompute_modules, per layer and microbatch of 128 tokens on one GPU
        // (no TP, so nothing is split), each module against no recomputation:
        // - layernorm drops the two norms' 16-bit outputs: 2 x 2 B x 128 x 1024 = 524,288 B;
        // - mlp (the tiny dense model's plain MLP of 4096) drops its up-projection output and the
        //   down-projection's input, 2 B each: 4 B x 128 x 4096 = 2,097,152 B;
        // - core_attn drops nothing under a fused kernel (it keeps no scores), and with the
        //   unfused kernels the score matrix's 5 B per score: 5 x 16 heads x 128 x 128 =
        //   1,310,720 B.
        TrainingJob job;
        job.model = tinyModel();
        job.seqLen = 128;
        job.globalBatch = 1;
        auto keptPerLayer = [&](Recompute recompute, unsigned modules) {
            ParallelConfig config;
            config.recompute = recompute;
            config.recomputeModules.bits = modules;
            const TrainingEstimate e = TrainingEstimator(job, dgxH100(1)).estimate(config);
            [&] {
                QVERIFY2(e.valid, e.reason.c_str());
            }();
            return e.memory.activationBytesPerLayer;
        };
        const auto bit = [](RecomputeModule module) {
            return static_cast<unsigned>(module);
        };
        const double none = keptPerLayer(Recompute::None, 0);
        QCOMPARE(none - keptPerLayer(Recompute::Selective, bit(RecomputeModule::LayerNorm)),
                 524288.0);
        QCOMPARE(none - keptPerLayer(Recompute::Selective, bit(RecomputeModule::DenseMlp)),
                 2097152.0);
        QCOMPARE(
            none
                - keptPerLayer(Recompute::Selective,
                               bit(RecomputeModule::LayerNorm) | bit(RecomputeModule::DenseMlp)),
            524288.0 + 2097152.0);
        QCOMPARE(keptPerLayer(Recompute::Selective, bit(RecomputeModule::CoreAttention)), none);
        job.framework.attention = AttentionKernel::Unfused;
        QCOMPARE(keptPerLayer(Recompute::None, 0)
                     - keptPerLayer(Recompute::Selective, bit(RecomputeModule::CoreAttention)),
                 1310720.0);

        // An MoE layer of 8 experts of 512, top 2: moe_act drops the routed experts'
        // activation output, the down-projections' 16-bit input: 2 B x 128 tokens x 2 experts x
        // 512 = 262,144 B.
        job.framework.attention = AttentionKernel::Flash;
        job.model = tinyMoeModel();
        QCOMPARE(keptPerLayer(Recompute::None, 0)
                     - keptPerLayer(Recompute::Selective, bit(RecomputeModule::MoeActivation)),
                 262144.0);
    }

    void selectiveRecomputeModulesRepeatTheirForward()
    {
        // A repeated memory-bound kernel moves its forward's bytes again: forward 1, backward 2
        // (it reads the saved tensors and the incoming gradient and writes the outgoing one),
        // recompute 1, so 4/3 of the traffic without recomputation and 3/2 of the kernels.
        // Selective recompute of the norms and the MoE activation repeats those two and leaves
        // the attention and the expert GEMMs alone; their FLOPs are memory-bound work, so the
        // hardware FLOP/s equal the model's.
        TrainingJob job = tinyMoeJob(1);
        const auto [plain, repeated]
            = withoutAndWithRecompute(job,
                                      static_cast<unsigned>(RecomputeModule::LayerNorm)
                                          | static_cast<unsigned>(RecomputeModule::MoeActivation));
        for (const char *name : {"layer norms", "expert activation"}) {
            const StepOperation *before = findOperation(plain, name);
            const StepOperation *after = findOperation(repeated, name);
            QVERIFY2(before && after, name);
            QVERIFY2(qAbs(after->bytes / before->bytes - 4.0 / 3.0) < 1e-12, name);
            QVERIFY2(qAbs(after->kernels / before->kernels - 1.5) < 1e-12, name);
        }
        for (const char *name : {"attention (fused, causal)", "expert MLP up (grouped GEMM)"}) {
            const StepOperation *before = findOperation(plain, name);
            const StepOperation *after = findOperation(repeated, name);
            QVERIFY2(before && after, name);
            QCOMPARE(after->seconds, before->seconds);
        }
        QVERIFY(repeated.stepSeconds > plain.stepSeconds);
        // Memory-bound kernels repeat no FLOPs: the hardware FLOPs a token stay as they were.
        QVERIFY(qAbs(repeated.hardwareFlopsPerSecondPerGpu / repeated.tokensPerSecond
                         / (plain.hardwareFlopsPerSecondPerGpu / plain.tokensPerSecond)
                     - 1.0)
                < 1e-12);
    }

    void latentUpProjectionRecomputation()
    {
        // A latent model on the tiny model's 1024 x 16 heads: query latent 256, K/V latent 128,
        // query/key heads of 64 + 32 rotary, values of 64. Its up-projections hold 256 x 16 x 96
        // = 393,216 (queries) + 128 x 16 x 128 = 262,144 (keys and values) = 655,360 weights:
        // 1,310,720 FLOPs a token, which mla_up_proj recomputation adds to each layer's hardware
        // FLOPs (2 layers: 2,621,440 a token). It drops the up-projected queries (16 x 96),
        // keys (16 x 96) and values (16 x 64), 2 B each: 2 x 4096 x 128 tokens = 1,048,576 B a
        // layer.
        TrainingJob job;
        job.model = tinyModel();
        job.model.kvLoraRank = 128;
        job.model.qLoraRank = 256;
        job.model.ropeHeadDim = 32;
        job.model.valueHeadDim = 64;
        job.seqLen = 128;
        job.globalBatch = 1;
        const auto [plain, repeated] = withoutAndWithRecompute(
            job, static_cast<unsigned>(RecomputeModule::LatentUpProjection));
        QCOMPARE(plain.memory.activationBytesPerLayer - repeated.memory.activationBytesPerLayer,
                 1048576.0);
        const double extraFlopsPerToken
            = repeated.hardwareFlopsPerSecondPerGpu / repeated.tokensPerSecond
            - plain.hardwareFlopsPerSecondPerGpu / plain.tokensPerSecond;
        QVERIFY2(qAbs(extraFlopsPerToken / 2621440.0 - 1.0) < 1e-12,
                 qPrintable(QString::number(extraFlopsPerToken)));
        // The up-projection GEMMs run forward twice: 4/3 of their FLOPs; the GEMM from the
        // hidden state once.
        const StepOperation *upBefore = findOperation(plain, "latent attention up-projections");
        const StepOperation *upAfter = findOperation(repeated, "latent attention up-projections");
        const StepOperation *downBefore = findOperation(plain, "latent attention down-projections");
        const StepOperation *downAfter
            = findOperation(repeated, "latent attention down-projections");
        QVERIFY(upBefore && upAfter && downBefore && downAfter);
        QVERIFY(qAbs(upAfter->flops / upBefore->flops - 4.0 / 3.0) < 1e-12);
        QCOMPARE(downAfter->flops, downBefore->flops);
    }

    void recomputeModulesTheModelLacksAreRefused()
    {
        // Megatron-Core refuses mla_up_proj without latent attention and moe_act without
        // (grouped-GEMM) experts; mlp on a model whose every layer is MoE would repeat nothing.
        TrainingJob job;
        job.model = tinyModel();
        job.seqLen = 128;
        job.globalBatch = 1;
        ParallelConfig config;
        config.recompute = Recompute::Selective;
        auto reasonFor = [&](RecomputeModule module) {
            config.recomputeModules.bits = static_cast<unsigned>(module);
            const TrainingEstimate e = TrainingEstimator(job, dgxH100(1)).estimate(config);
            return e.valid ? std::string("valid") : e.reason;
        };
        QVERIFY(reasonFor(RecomputeModule::MoeActivation).find("has no experts")
                != std::string::npos);
        QVERIFY(reasonFor(RecomputeModule::LatentUpProjection).find("no latent attention")
                != std::string::npos);
        QCOMPARE(reasonFor(RecomputeModule::DenseMlp), std::string("valid"));
        job.model.experts = 8;
        job.model.topK = 2;
        QVERIFY(reasonFor(RecomputeModule::DenseMlp).find("every layer of the model is a mixture")
                != std::string::npos);
        QCOMPARE(reasonFor(RecomputeModule::MoeActivation), std::string("valid"));
        job.model.denseLayers = 1; // one dense layer: its MLP can be recomputed
        QCOMPARE(reasonFor(RecomputeModule::DenseMlp), std::string("valid"));
        config.recomputeModules.bits = 0;
        QVERIFY(TrainingEstimator(job, dgxH100(1)).estimate(config).reason.find("at least one")
                != std::string::npos);

        // Named modules fix the search to selective recomputation of exactly them.
        job.constraints.recomputeModules
            = RecomputeModules {static_cast<unsigned>(RecomputeModule::MoeActivation)};
        const TrainingSearchResult found = TrainingEstimator(job, dgxH100(8)).search();
        QVERIFY(!found.top.empty());
        for (const TrainingEstimate &e : found.top) {
            QVERIFY(e.config.recompute == Recompute::Selective);
            QCOMPARE(recomputeDescription(e.config), std::string("selective (moe_act)"));
        }
    }

    void recomputeModuleNamesFollowMegatron()
    {
        std::string error;
        const auto modules = recomputeModulesFromNames({"layernorm", "moe_act"}, &error);
        QVERIFY(modules);
        QVERIFY(modules->contains(RecomputeModule::LayerNorm));
        QVERIFY(modules->contains(RecomputeModule::MoeActivation));
        QVERIFY(!modules->contains(RecomputeModule::CoreAttention));
        // Megatron-Core's documentation order, whatever order they were named in.
        QCOMPARE(recomputeModuleNames(*modules),
                 (std::vector<std::string> {"moe_act", "layernorm"}));
        QVERIFY(!recomputeModulesFromNames({"core_attention"}, &error));
        QVERIFY2(error.find("unknown recompute module \"core_attention\"") != std::string::npos
                     && error.find("mla_up_proj") != std::string::npos,
                 error.c_str());
        QVERIFY(!recomputeModulesFromNames({"mlp", "mlp"}, &error));
        QVERIFY2(error.find("named twice") != std::string::npos, error.c_str());
        QVERIFY(!recomputeModulesFromNames({}, &error));
        QVERIFY2(error.find("at least one") != std::string::npos, error.c_str());
        ParallelConfig config;
        config.recompute = Recompute::Selective;
        QCOMPARE(recomputeDescription(config), std::string("selective"));
        config.recomputeModules = *modules;
        QCOMPARE(recomputeDescription(config), std::string("selective (moe_act, layernorm)"));
        config.recompute = Recompute::Full;
        QCOMPARE(recomputeDescription(config), std::string("full"));
    }

    void multiTokenPredictionTrainsABlockMore()
    {
        // The tiny model (2 layers of 12h² + 2h = 12,584,960 parameters, h = 1024, vocabulary
        // 1000) with one multi-token prediction block on one GPU: a layer more, its 2h x h
        // projection (2,097,152) and three norms (3,072): 14,685,184 parameters, 2 bytes each
        // in FP16 (psi = 27,217,920 without).
        TrainingJob job;
        job.model = tinyModel();
        job.precision = Precision::FP16;
        job.seqLen = 128;
        job.globalBatch = 1;
        ParallelConfig config;
        config.recompute = Recompute::None;
        config.zero = 0;
        const TrainingEstimate plain = TrainingEstimator(job, dgxH100(1)).estimate(config);
        job.model.mtpLayers = 1;
        const TrainingEstimate mtp = TrainingEstimator(job, dgxH100(1)).estimate(config);
        QVERIFY2(mtp.valid, mtp.reason.c_str());
        QCOMPARE(plain.memory.weightsBytes, 2 * 27217920.0);
        QCOMPARE(mtp.memory.weightsBytes, 2 * (27217920.0 + 14685184.0));
        // It keeps a layer's activations more (4,456,448 bytes, offloadedLayersKeepNoActivations)
        // and fp32 logits of its own (4 B x 128 x 1000 = 512,000).
        QCOMPARE(mtp.memory.activationsBytes - plain.memory.activationsBytes, 4456448.0 + 512000.0);
        // Model FLOPs a token: three passes of a layer (2 x 12h² + 4·s·h = 25,690,112), the
        // projection (2 x 2h² = 4,194,304) and the logits (2·h·V = 2,048,000): 95,797,248 more.
        const double plainFlops = plain.modelFlopsPerSecondPerGpu / plain.tokensPerSecond;
        const double mtpFlops = mtp.modelFlopsPerSecondPerGpu / mtp.tokensPerSecond;
        QVERIFY2(qAbs(mtpFlops - plainFlops - 95797248.0) < 1e-3,
                 qPrintable(QString::number(mtpFlops - plainFlops, 'f', 3)));
        // The step runs three layers where it ran two, the projection (forward and the two
        // backward GEMMs: 3 x 2 x 2h² x 128 tokens = 1,610,612,736 FLOPs) and two sets of logits.
        const StepOperation *qkvBefore = findOperation(plain, "QKV projection");
        const StepOperation *qkvAfter = findOperation(mtp, "QKV projection");
        QVERIFY(qkvBefore && qkvAfter);
        QCOMPARE(qkvAfter->flops / qkvBefore->flops, 1.5);
        const StepOperation *projection = findOperation(mtp, "multi-token prediction projection");
        QVERIFY(projection);
        QCOMPARE(projection->flops, 1610612736.0);
        QVERIFY(!findOperation(plain, "multi-token prediction projection"));
        QCOMPARE(findOperation(mtp, "output projection (logits)")->flops,
                 2.0 * findOperation(plain, "output projection (logits)")->flops);
        QCOMPARE(findOperation(mtp, "cross-entropy loss (Megatron, fused)")->bytes,
                 2.0 * findOperation(plain, "cross-entropy loss (Megatron, fused)")->bytes);
        QVERIFY(mtp.stepSeconds > plain.stepSeconds);
    }

    void multiTokenPredictionWeighsOnTheLastStage()
    {
        // Two stages of one tiny layer, two microbatches, FP16, no ZeRO. The first stage holds its
        // layer and the embedding (12,584,960 + 1,024,000 parameters) and two microbatches of one
        // layer's activations (2 x 4,456,448), and no logits: they live on the last stage. The
        // last holds its layer, the output projection and the MTP block (+ 14,685,184), one
        // microbatch of two layers' activations and two sets of fp32 logits (2 x 512,000): it is
        // the fuller one, and its memory is the estimate's.
        TrainingJob job;
        job.model = tinyModel();
        job.precision = Precision::FP16;
        job.seqLen = 128;
        job.globalBatch = 2;
        ParallelConfig config;
        config.pp = 2;
        config.recompute = Recompute::None;
        config.zero = 0;
        const TrainingEstimate plain = TrainingEstimator(job, dgxH100(2)).estimate(config);
        QVERIFY2(plain.valid, plain.reason.c_str());
        QCOMPARE(plain.memory.weightsBytes, 2 * (12584960.0 + 1024000.0));
        QCOMPARE(plain.memory.activationsBytes, 2 * 4456448.0);
        job.model.mtpLayers = 1;
        const TrainingEstimate mtp = TrainingEstimator(job, dgxH100(2)).estimate(config);
        QCOMPARE(mtp.memory.weightsBytes, 2 * (12584960.0 + 1024000.0 + 14685184.0));
        QCOMPARE(mtp.memory.activationsBytes, 2 * 4456448.0 + 2 * 512000.0);
    }

    void offloadedLayersKeepNoActivations()
    {
        // Transformer Engine's CPU offload keeps (layers - offloaded) layers' activations on the
        // GPU. The tiny model's layer keeps 34 sbh = 4,456,448 bytes (flash attention, default
        // dropout): offloading one of its two layers leaves one, plus the fp32 logits 512,000.
        TrainingJob job;
        job.model = tinyModel();
        job.seqLen = 128;
        job.globalBatch = 1;
        job.activationOffloadLayers = 1;
        ParallelConfig config;
        config.recompute = Recompute::None;
        const TrainingEstimate e = TrainingEstimator(job, dgxH100(1)).estimate(config);
        QVERIFY2(e.valid, e.reason.c_str());
        QCOMPARE(e.memory.activationsBytes, 4456448.0 + 512000.0);
        QCOMPARE(e.memory.activationBytesPerLayer, 4456448.0);
    }

    void offloadCopiesEveryOffloadedLayerBothWays()
    {
        // Llama 2 7B on 8 H100s (PP 1, no recompute), 4 microbatches per GPU: each offloaded layer
        // sends its activations to the host and fetches them back once per microbatch, so the
        // copies move 2 x layers x 4 x (per-layer activations) bytes. Over the H100's 64 GB/s
        // PCIe host link a 4,096-token layer's copy outlasts its compute, so part of it shows,
        // never more than the copies take, and twice the layers show twice as much.
        TrainingJob job;
        job.model = shippedCatalog().llm("llama-2-7b");
        job.seqLen = 4096;
        job.globalBatch = 32;
        ParallelConfig config;
        config.dp = 8;
        config.recompute = Recompute::None;
        const auto offloadOperation = [&](int layers) {
            job.activationOffloadLayers = layers;
            const TrainingEstimate e = TrainingEstimator(job, dgxH100(8)).estimate(config);
            const StepOperation *op = findOperation(e, "activation copies to the host and back");
            return std::make_pair(e, op ? *op : StepOperation {});
        };
        const auto [four, copies4] = offloadOperation(4);
        QVERIFY2(four.valid, four.reason.c_str());
        const double perLayer = four.memory.activationBytesPerLayer;
        QVERIFY(perLayer > 0);
        QCOMPARE(copies4.bytes, 2.0 * 4 * 4 * perLayer);
        const double allCopySeconds = copies4.bytes / 64e9;
        QVERIFY2(copies4.seconds > 0 && copies4.seconds < allCopySeconds,
                 qPrintable(QString::number(copies4.seconds)));
        QCOMPARE(four.breakdown.hostOffloadSeconds, copies4.seconds);
        const auto [eight, copies8] = offloadOperation(8);
        QVERIFY(qAbs(copies8.seconds / copies4.seconds - 2.0) < 1e-9);
        // Fewer layers resident: 4 more offloaded layers free 4 layers' activations.
        QVERIFY(qAbs(four.memory.activationsBytes - eight.memory.activationsBytes - 4 * perLayer)
                < 1.0);
    }

    void offloadNeedsWhatMegatronAllows()
    {
        // Megatron-Core (TransformerConfig): no CPU offloading with pipeline parallelism or with
        // recomputation, and fewer offloaded layers than the model has; and a host link.
        TrainingJob job;
        job.model = tinyModel();
        job.seqLen = 128;
        job.globalBatch = 2;
        job.activationOffloadLayers = 1;
        ParallelConfig config;
        config.recompute = Recompute::None;
        config.pp = 2;
        TrainingEstimate e = TrainingEstimator(job, dgxH100(2)).estimate(config);
        QVERIFY(!e.valid);
        QVERIFY2(e.reason.find("needs PP=1") != std::string::npos, e.reason.c_str());
        config.pp = 1;
        config.dp = 2;
        config.recompute = Recompute::Full;
        e = TrainingEstimator(job, dgxH100(2)).estimate(config);
        QVERIFY2(e.reason.find("does not work with recomputation") != std::string::npos,
                 e.reason.c_str());
        config.recompute = Recompute::None;
        job.activationOffloadLayers = 2;
        e = TrainingEstimator(job, dgxH100(2)).estimate(config);
        QVERIFY2(e.reason.find("only fewer than the model's 2 layers") != std::string::npos,
                 e.reason.c_str());
        job.activationOffloadLayers = 1;
        ClusterDescription noHostLink = dgxH100(2);
        noHostLink.gpu.hostLinkBytesPerSecond = 0;
        e = TrainingEstimator(job, noHostLink).estimate(config);
        QVERIFY2(e.reason.find("host link") != std::string::npos, e.reason.c_str());
        QVERIFY(TrainingEstimator(job, dgxH100(2)).estimate(config).valid);
    }

    void pipelineBubble()
    {
        // (p - 1) / (v·m): p = 4, m = 8 -> 0.375; interleaved v = 2 -> 0.1875 (SC21 §2.2).
        TrainingJob job;
        job.model = shippedCatalog().llm("llama-2-7b");
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

    void aFrameworkSearchesOnlyWhatItsReleaseHad()
    {
        // GPT-3 175B on 1,024 A100s under the 2021 software: the search picked selective
        // recomputation, the distributed optimizer (ZeRO-1) and context parallelism, none of
        // which Megatron-LM had in 2021. Its layouts now use none of them; the 2022 release
        // (Korthikanti et al.) adds selective recomputation; Megatron-Core all three.
        TrainingJob job;
        job.model = shippedCatalog().llm("gpt-3-175b");
        job.seqLen = 2048;
        job.globalBatch = 1536;
        job.framework = *findTrainingFramework("megatron-lm-2021");
        const TrainingSearchResult old = TrainingEstimator(job, dgxA100(1024)).search();
        QVERIFY2(old.found, old.reason.c_str());
        for (const TrainingEstimate &e : old.top) {
            QVERIFY(e.config.recompute != Recompute::Selective);
            QCOMPARE(e.config.zero, 0);
            QCOMPARE(e.config.cp, 1);
        }
        job.framework = *findTrainingFramework("megatron-lm-2022");
        const TrainingSearchResult sp = TrainingEstimator(job, dgxA100(1024)).search();
        QVERIFY2(sp.found, sp.reason.c_str());
        for (const TrainingEstimate &e : sp.top) {
            QCOMPARE(e.config.zero, 0);
            QCOMPARE(e.config.cp, 1);
        }
        // A layout the user fixes is estimated as given, whatever the release.
        job.framework = *findTrainingFramework("megatron-lm-2021");
        job.constraints.zero = 1;
        const TrainingSearchResult fixed = TrainingEstimator(job, dgxA100(1024)).search();
        QVERIFY2(fixed.found, fixed.reason.c_str());
        QCOMPARE(fixed.best.config.zero, 1);
    }

    void expertParallelOptionsAreSuggestedWhereTheyPay()
    {
        // DeepSeek-V3 in FP8 on 2,048 H100s with the default all-to-all dispatcher: its top-8 of
        // 256 experts send each token to up to 8 GPUs, across nodes once per destination GPU;
        // DeepEP sends it once per node and forwards it over NVLink, and the overlap hides the
        // rest behind the other microbatch. The search with both finds a layout at least 5%
        // faster, and the estimate says so (87 against 47 days, unsaid before).
        TrainingJob job;
        job.model = shippedCatalog().llm("deepseek-v3");
        job.seqLen = 4096;
        job.globalBatch = 15360;
        job.precision = Precision::FP8;
        const ClusterDescription cluster = dgxH100(2048);
        const TrainingSearchResult plain = TrainingEstimator(job, cluster).search();
        QVERIFY2(plain.found, plain.reason.c_str());
        const auto faster = fasterWithExpertParallelOptions(job, cluster, plain.best);
        QVERIFY(faster);
        QVERIFY(faster->stepSeconds <= 0.95 * plain.best.stepSeconds);
        // Already chosen, or a dense model: nothing to suggest.
        job.framework.moeCommOverlap = true;
        QVERIFY(!fasterWithExpertParallelOptions(job, cluster, plain.best));
        TrainingJob dense = llama70b(8192);
        QVERIFY(!fasterWithExpertParallelOptions(dense, cluster, plain.best));
    }

    void breakdownAddsUpAndFlopsAreConsistent()
    {
        TrainingJob job;
        job.model = shippedCatalog().llm("gpt-3-175b");
        job.seqLen = 2048;
        job.globalBatch = 1536;
        job.tokens = 300e9;
        // The 2021 paper's software: no TP overlap, the era's kernels (trainingframework.h).
        job.framework = *findTrainingFramework("megatron-lm-2021");
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
        // MFU by the paper's count of model FLOPs (Narayanan et al. eq. 3 is 96 B s l h^2 (1 +
        // s / 6h + V / 16 l h) a step with full recomputation; without the repeated forward pass
        // it is 72 B s l h^2 (...)); B = 1536, s = 2048, l = 96, h = 12,288, V = 51,200:
        // 72 x 1536 x 2048 x 96 x 12288^2 x (1 + 2048 / 73,728 + 51,200 / 18,874,368) = 3.38e18
        // FLOPs a step, over 1,024 GPUs of 312 TFLOP/s.
        const double paperFlopsPerStep = 72.0 * 1536 * 2048 * 96 * 12288.0 * 12288
            * (1 + 2048.0 / (6 * 12288) + 51200.0 / (16 * 96 * 12288));
        QVERIFY(qAbs(e.mfu / (paperFlopsPerStep / e.stepSeconds / 1024 / 312e12) - 1) < 0.01);
        QVERIFY(qAbs(e.gpuHours / (e.trainingSeconds * 1024 / 3600) - 1) < 1e-12);
        // Narayanan et al. (SC21 §5.1) put this run, 300 B tokens of GPT-3 175B on 1,024 A100
        // at their measured 140 TFLOP/s per GPU with full recomputation, at 34 days. The
        // estimate must land within 15% of the published figure (the A100 validation rows are
        // 0-11% optimistic, docs/validation-training.md, so a few days fewer is expected).
        const double days = e.trainingSeconds / 86400;
        QVERIFY2(days > 34 * 0.85 && days < 34 * 1.15, qPrintable(QString::number(days)));
    }

    void invalidLayoutsAreExplained()
    {
        TrainingJob job;
        job.model = shippedCatalog().llm("llama-2-7b");
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
        job.model = shippedCatalog().llm("gpt-3-175b");
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
        job.model = shippedCatalog().llm("gpt-3-175b");
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
        for (const TrainingEstimate &e : result.top) {
            QVERIFY(e.fits && e.memory.totalBytes() <= cluster.gpu.memoryBytes);
            // The search shares one microbatch's layer costs across interleaves, recompute and
            // ZeRO stages; a layout estimated on its own must come out bit for bit the same.
            QVERIFY(estimator.estimate(e.config).stepSeconds == e.stepSeconds);
            QVERIFY(estimator.estimate(e.config).operations.count == e.operations.count);
        }
        // The best found is no slower than the paper's hand-tuned layout (TP 8, PP 16, full
        // recompute).
        ParallelConfig paper;
        paper.tp = 8;
        paper.pp = 16;
        paper.dp = 8;
        paper.recompute = Recompute::Full;
        QVERIFY(result.best.stepSeconds <= estimator.estimate(paper).stepSeconds);
        QVERIFY(!result.best.bottleneck.empty() && !result.best.bottleneckExplanation.empty());
        // The same for a mixture of experts, whose layer costs also depend on EP: Mixtral 8x7B on
        // 64 H100s, every layout of the ten fastest bit for bit as estimated on its own.
        TrainingJob moe;
        moe.model = shippedCatalog().llm("mixtral-8x7b");
        moe.seqLen = 4096;
        moe.globalBatch = 256;
        const TrainingEstimator moeEstimator(moe, dgxH100(64));
        const TrainingSearchResult moeResult = moeEstimator.search();
        QVERIFY2(moeResult.found, moeResult.reason.c_str());
        bool sawExpertParallel = false;
        for (const TrainingEstimate &e : moeResult.top) {
            QVERIFY(moeEstimator.estimate(e.config).stepSeconds == e.stepSeconds);
            sawExpertParallel |= e.config.ep > 1;
        }
        QVERIFY(sawExpertParallel);
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
        job.model = shippedCatalog().llm("llama-2-7b");
        job.seqLen = 4096;
        job.globalBatch = 256;
        job.framework.dpOverlapFraction = 0.0;
        ParallelConfig config;
        config.dp = 256;
        config.microbatch = 1;
        ClusterFromCatalogOptions tenGigabit; // one 10 GbE NIC per node on 32-port leaves
        tenGigabit.nodeId = "dgx-a100";
        tenGigabit.gpus = 256;
        tenGigabit.nicId = "eth-10g";
        tenGigabit.nicsPerNode = 1;
        tenGigabit.railOptimised = false;
        tenGigabit.switchPorts = 32;
        const ClusterDescription fast
            = ClusterDescription::fromCatalog(shippedCatalog(), tenGigabit);
        tenGigabit.oversubscription = 4.0;
        const ClusterDescription slow
            = ClusterDescription::fromCatalog(shippedCatalog(), tenGigabit);
        const TrainingEstimate a = TrainingEstimator(job, fast).estimate(config);
        const TrainingEstimate b = TrainingEstimator(job, slow).estimate(config);
        QVERIFY(b.breakdown.dpCommExposedSeconds > 3.0 * a.breakdown.dpCommExposedSeconds);
        QCOMPARE(b.bottleneck, std::string("data-parallel"));
        QVERIFY2(b.bottleneckExplanation.find("4:1 oversubscribed") != std::string::npos,
                 b.bottleneckExplanation.c_str());
    }

    void bubbleAdviceFollowsTheSchedule()
    {
        // Llama 2 70B on 64 H100s at TP 8 x PP 8 with a batch of 8 sequences: m = 8
        // microbatches, so the bubble (8 - 1) / (v x 8) is 0.875 at v = 1 and 0.4375 at v = 2,
        // and it is what limits the step. At v = 1 the advice is to interleave; at v = 2, which
        // already interleaves, a deeper interleave than that.
        TrainingJob job;
        job.model = shippedCatalog().llm("llama-2-70b");
        job.seqLen = 4096;
        job.globalBatch = 8;
        ParallelConfig config;
        config.tp = 8;
        config.pp = 8;
        config.dp = 1;
        config.microbatch = 1;
        ClusterFromCatalogOptions options;
        options.nodeId = "dgx-h100";
        options.gpus = 64;
        const ClusterDescription cluster
            = ClusterDescription::fromCatalog(shippedCatalog(), options);
        const TrainingEstimate plain = TrainingEstimator(job, cluster).estimate(config);
        QCOMPARE(plain.bubbleFraction, 0.875);
        QCOMPARE(plain.bottleneck, std::string("pipeline-bubble"));
        QVERIFY2(plain.bottleneckExplanation.ends_with(
                     "more microbatches or an interleaved schedule would shrink it"),
                 plain.bottleneckExplanation.c_str());
        config.interleave = 2;
        const TrainingEstimate interleaved = TrainingEstimator(job, cluster).estimate(config);
        QCOMPARE(interleaved.bubbleFraction, 0.4375);
        QCOMPARE(interleaved.bottleneck, std::string("pipeline-bubble"));
        QVERIFY2(interleaved.bottleneckExplanation.ends_with(
                     "more microbatches or a deeper interleave than v = 2 would shrink it"),
                 interleaved.bottleneckExplanation.c_str());
    }

    void gemmTimeMatchesPublishedSweep()
    {
        // An 8192^3 FP16 GEMM on A100 SXM4 80GB: 2 x 8192^3 = 1.0995e12 FLOP at 312e12 x 0.82 x
        // 8192 / (8192 + 373) = 244.7 TFLOP/s is 4.493 ms, plus one 3.5 us kernel = 4.497 ms.
        // The Azure ND A100 v4 sweep measured 253.7 TFLOP/s (4.334 ms): within 4%.
        const GpuSpec &gpu = shippedCatalog().gpu("a100-sxm4-80gb");
        const double flops = 2.0 * 8192.0 * 8192.0 * 8192.0;
        const double seconds = gemmSeconds(gpu, Precision::FP16, flops, 8192, 8192, 8192, 1);
        QVERIFY2(qAbs(seconds - 4.497e-3) < 0.005e-3, qPrintable(QString::number(seconds)));
        QVERIFY(qAbs(flops / seconds / 253.7e12 - 1.0) < 0.04);
        // The 1024^3 point (119.4 TFLOP/s measured = 18.0 us) is dominated by the fixed cost:
        // 2.147e9 / (312e12 x 0.82 x 1024/1397) + 3.5 us = 11.5 + 3.5 = 15.0 us, 17% short.
        const double small
            = gemmSeconds(gpu, Precision::FP16, 2.0 * 1024 * 1024 * 1024, 1024, 1024, 1024, 1);
        QVERIFY2(small > 14.5e-6 && small < 15.5e-6, qPrintable(QString::number(small)));
    }

    void h100GemmRunsAtItsSustainedClock()
    {
        // A training step runs the H100 at its 700 W limit, warm. Hugging Face's gpu-fryer
        // sustains cuBLAS BF16 8192^2 matmuls at about 730 TFLOP/s for 60 s; short bursts reach
        // 797.5 (PyTorch sweep) and 794.5 (Bekman's maximum achievable matmul). An 8192^3 BF16
        // GEMM is 1.0995e12 FLOP: 1.506 ms at 730 TFLOP/s, 1.379 ms at 797.5.
        const GpuSpec &gpu = shippedCatalog().gpu("h100-sxm5-80gb");
        const double flops = 2.0 * 8192.0 * 8192.0 * 8192.0;
        const double seconds = gemmSeconds(gpu, Precision::BF16, flops, 8192, 8192, 8192, 1);
        QVERIFY2(qAbs(flops / seconds / 730e12 - 1.0) < 0.02,
                 qPrintable(QString::number(flops / seconds / 1e12)));
        QVERIFY(seconds > 1.0995e12 / 797.5e12 * 1.05);
        // The H200 is the same GH100 at the same 700 W: the same sustained rate.
        const GpuSpec &h200 = shippedCatalog().gpu("h200-sxm-141gb");
        QCOMPARE(gemmSeconds(h200, Precision::BF16, flops, 8192, 8192, 8192, 1), seconds);
    }

    void hardwareFlopsAreWhatTheKernelsExecute()
    {
        // The tiny model (2 layers, hidden 1024) on 4,096-token sequences with FlashAttention on
        // one H100. The conventional count (the MFU's) takes each query against all 4,096 keys:
        // 4 x 4,096 x 1,024 = 16,777,216 FLOPs a token and layer forward, three passes. The
        // causal kernel attends 2,048 keys on average forward (8,388,608) and runs 2.5 forward
        // passes backward (FlashAttention-2's recomputed scores): 3.5 x 8,388,608 = 29,360,128
        // against 50,331,648, 20,971,520 fewer a layer, 41,943,040 a token over both layers.
        TrainingJob job;
        job.model = tinyModel();
        job.seqLen = 4096;
        job.globalBatch = 1;
        ParallelConfig config;
        config.microbatch = 1;
        const TrainingEstimate e = TrainingEstimator(job, dgxH100(1)).estimate(config);
        QVERIFY2(e.valid && e.fits, e.reason.c_str());
        const double fewerPerToken
            = (e.modelFlopsPerSecondPerGpu - e.hardwareFlopsPerSecondPerGpu) / e.tokensPerSecond;
        QVERIFY2(qAbs(fewerPerToken / 41943040.0 - 1.0) < 1e-9,
                 qPrintable(QString::number(fewerPerToken, 'f', 0)));
        // The MFU says so where the difference is material (10% or more).
        QVERIFY2(mfuConventionNote(e).find("the causal kernels execute") != std::string::npos,
                 mfuConventionNote(e).c_str());
        // The 2021 kernels compute every score and mask them: hardware equals model FLOPs.
        job.framework = *findTrainingFramework("megatron-lm-2021");
        const TrainingEstimate unfused = TrainingEstimator(job, dgxH100(1)).estimate(config);
        QVERIFY2(unfused.valid, unfused.reason.c_str());
        QVERIFY(qAbs(unfused.hardwareFlopsPerSecondPerGpu / unfused.modelFlopsPerSecondPerGpu - 1)
                < 1e-12);
        QVERIFY(mfuConventionNote(unfused).empty());
        QVERIFY(mfuConventionNote(unfused).find("FP8") == std::string::npos);
        // An FP8 run's MFU is of the FP8 peak: the H100 SXM5 datasheet's 1,979 dense TFLOP/s,
        // twice the BF16 figure the plan's hardware lists; the note says which.
        job.precision = Precision::FP8;
        const TrainingEstimate fp8 = TrainingEstimator(job, dgxH100(1)).estimate(config);
        QVERIFY2(fp8.valid, fp8.reason.c_str());
        QVERIFY2(mfuConventionNote(fp8).find("of the dense FP8 peak, 1,979 TFLOP/s a GPU")
                     != std::string::npos,
                 mfuConventionNote(fp8).c_str());
    }

    void pipelineSendsLeaveTheNodeWithThePipeline()
    {
        // A 16-layer model of hidden 1024 on two DGX H100 nodes at TP 4 x PP 4: stages are four
        // GPUs each in rank order, two to a node, so the send from the second stage to the third
        // crosses the NIC and paces the pipeline. A send is a microbatch's activation split over
        // TP: 4,096 tokens x 1,024 x 2 B / 4 = 2,097,152 B, at least 41.9 us at the ConnectX-7's
        // 400 Gb/s line rate (50 GB/s). At PP 2 the pipeline fits one node and stays on NVLink,
        // below that (some 17 us with the call's launch). Without interleaving Megatron sends and
        // receives between chunks, so every send shows: 2 a microbatch (forward, backward).
        TrainingJob job;
        job.model = tinyModel();
        job.model.layers = 16;
        job.seqLen = 4096;
        job.globalBatch = 8;
        ParallelConfig config;
        config.tp = 4;
        config.pp = 4;
        config.microbatch = 1;
        const double lineRateSeconds = 2097152.0 / 50e9;
        const auto perSend = [&](const TrainingEstimate &e, double sendsPerMicrobatch) {
            const StepOperation *sends = findOperation(e, "pipeline sends");
            return sends ? (sends->seconds + sends->hiddenSeconds)
                    / (sendsPerMicrobatch * e.config.microbatch * 8.0)
                         : 0.0;
        };
        const TrainingEstimate acrossNodes = TrainingEstimator(job, dgxH100(16)).estimate(config);
        QVERIFY2(acrossNodes.valid, acrossNodes.reason.c_str());
        QVERIFY2(perSend(acrossNodes, 2.0) > lineRateSeconds,
                 qPrintable(QString::number(perSend(acrossNodes, 2.0) * 1e6)));
        QCOMPARE(findOperation(acrossNodes, "pipeline sends")->hiddenSeconds, 0.0);
        config.pp = 2;
        const TrainingEstimate inNode = TrainingEstimator(job, dgxH100(8)).estimate(config);
        QVERIFY2(inNode.valid, inNode.reason.c_str());
        QVERIFY2(perSend(inNode, 2.0) > 0 && perSend(inNode, 2.0) < lineRateSeconds,
                 qPrintable(QString::number(perSend(inNode, 2.0) * 1e6)));

        // Interleaved (2 chunks of 2 layers a stage), Megatron overlaps a chunk's send with the
        // next chunk's computation (--overlap-p2p-communication, its default there): a chunk's
        // forward, 2 layers of 4,096 tokens through 12.6 M weights each on a quarter of an H100
        // (some 2 x 2 x 4,096 x 12.6 M / 4 = 52 GFLOP, over 50 us), outlasts the 42 us send, so
        // none shows but the 18.9% an overlapped transfer slows the computation beside it
        // (Mahajan et al. 2025, as for every overlapped collective). The 2021 profile sends
        // between chunks and shows them all.
        config.pp = 4;
        config.interleave = 2;
        const TrainingEstimate overlapped = TrainingEstimator(job, dgxH100(16)).estimate(config);
        QVERIFY2(overlapped.valid, overlapped.reason.c_str());
        const StepOperation *hidden = findOperation(overlapped, "pipeline sends");
        QVERIFY(hidden && hidden->hiddenSeconds > 0);
        QVERIFY2(qAbs(hidden->seconds / hidden->hiddenSeconds - 0.189) < 1e-9,
                 qPrintable(QString::number(hidden->seconds / hidden->hiddenSeconds)));
        job.framework = *findTrainingFramework("megatron-lm-2022");
        const TrainingEstimate blocking = TrainingEstimator(job, dgxH100(16)).estimate(config);
        QVERIFY2(blocking.valid, blocking.reason.c_str());
        const StepOperation *shown = findOperation(blocking, "pipeline sends");
        QVERIFY(shown && shown->seconds > 0 && shown->hiddenSeconds == 0);
    }

    void allToAllsShareAnOversubscribedLeaf()
    {
        // The same 2:1 rail fabric: leaves of L = 42 nodes, uplinks carrying 21 nodes' worth.
        // An all-to-all over groups of N nodes, each node sending alike to every node of its
        // group, with group boundaries wherever they fall: the busiest leaf is one a boundary
        // halves, 21 nodes of each of two groups, each sending (N - 21) / N of its traffic out.
        //   N = 64: 42 - 42^2 / 128 = 28.22 nodes' worth out, over 21: 21 / 28.22 = 0.7442 of the
        //   NIC; N = 42: 42 - 21 = 21 out, the uplinks' worth: the whole NIC; N = 8 (smaller than
        //   a leaf): at most 8 / 2 = 4 out, the whole NIC; N = 4,096: 42 - 0.215 = 41.78 out,
        //   21 / 41.78 = 0.5026, barely above the 1 / 2 every flow leaving the leaf would get.
        ClusterFromCatalogOptions options;
        options.nodeId = "dgx-h100";
        options.gpus = 2048;
        options.oversubscription = 2.0;
        ClusterDescription tapered = ClusterDescription::fromCatalog(shippedCatalog(), options);
        QCOMPARE(tapered.nodesPerLeaf, 42);
        const double nic = tapered.pipelineSendLink(1).busBytesPerSecond;
        const auto share = [&](int nodes) {
            return tapered.allToAllLink(nodes).busBytesPerSecond / nic;
        };
        QVERIFY2(qAbs(share(64) - 21.0 / (42.0 - 42.0 * 42.0 / 128.0)) < 1e-12,
                 qPrintable(QString::number(share(64))));
        QVERIFY(qAbs(share(42) - 1.0) < 1e-12);
        QVERIFY(qAbs(share(8) - 1.0) < 1e-12);
        QVERIFY(qAbs(share(4096) - 21.0 / (42.0 - 42.0 * 42.0 / 8192.0)) < 1e-12);
        // Leaves built 49:15 for 4:1 asked are what slows it, not the ratio asked: N = 64 over
        // L = 42 at 49 / 15 = 3.267:1 gets (42 / 3.267) / 28.22 = 0.4556.
        tapered.builtOversubscription = 49.0 / 15.0;
        QVERIFY(qAbs(share(64) - (42.0 * 15.0 / 49.0) / (42.0 - 42.0 * 42.0 / 128.0)) < 1e-12);
        // So are a stage's pipeline sends past a whole leaf: 15 / 49 of the NIC, not 1 / 2 (they
        // took the 1 / 4 of the ratio asked where a fabric was built 49:15 for 4:1).
        QVERIFY(qAbs(tapered.pipelineSendLink(200).busBytesPerSecond / nic - 15.0 / 49.0) < 1e-12);
        options.oversubscription = 1.0;
        const ClusterDescription full = ClusterDescription::fromCatalog(shippedCatalog(), options);
        QCOMPARE(full.allToAllLink(64).busBytesPerSecond, nic);
    }

    void pipelineSendsShareAnOversubscribedLeaf()
    {
        // DGX H100s on a 2:1 rail fabric of 64-port leaves: a leaf has 64 x 2 / 3 = 42 ports
        // down, one for each of 42 nodes' GPU of its rail. When every GPU of a stage sends to
        // its peer `stride` nodes on, the last min(stride, 42) nodes of a leaf send past it, over
        // uplinks that carry 42 nodes' worth / 2: each GPU gets min(1, 42 / (2 x crossing)) of
        // its NIC. Stride 1: 1 (a ring's rate); 32 nodes: 42 / 64 = 0.65625; 42 nodes and more:
        // 0.5. Non-blocking, every stride runs at the NIC's rate.
        ClusterFromCatalogOptions options;
        options.nodeId = "dgx-h100";
        options.gpus = 2048;
        options.oversubscription = 2.0;
        const ClusterDescription tapered
            = ClusterDescription::fromCatalog(shippedCatalog(), options);
        QCOMPARE(tapered.nodesPerLeaf, 42);
        const double nic = tapered.pipelineSendLink(1).busBytesPerSecond;
        QVERIFY(nic > 0);
        QVERIFY(qAbs(tapered.pipelineSendLink(32).busBytesPerSecond / nic - 42.0 / 64.0) < 1e-12);
        QVERIFY(qAbs(tapered.pipelineSendLink(42).busBytesPerSecond / nic - 0.5) < 1e-12);
        QVERIFY(qAbs(tapered.pipelineSendLink(200).busBytesPerSecond / nic - 0.5) < 1e-12);
        options.oversubscription = 1.0;
        const ClusterDescription full = ClusterDescription::fromCatalog(shippedCatalog(), options);
        QCOMPARE(full.pipelineSendLink(200).busBytesPerSecond, nic);

        // Llama 3 70B at TP 8 x PP 8 over 2,048 GPUs: a stage is 256 GPUs, 32 nodes, so its
        // sends run at 0.65625 of the NIC on the 2:1 fabric. They took the same time at every
        // ratio before (a two-node ring's rate).
        TrainingJob job = llama70b(8192);
        job.globalBatch = 1024;
        ParallelConfig config;
        config.tp = 8;
        config.pp = 8;
        config.dp = 32;
        config.microbatch = 1;
        config.recompute = Recompute::None;
        const TrainingEstimate nonBlocking = TrainingEstimator(job, full).estimate(config);
        const TrainingEstimate oversubscribed = TrainingEstimator(job, tapered).estimate(config);
        QVERIFY2(nonBlocking.valid, nonBlocking.reason.c_str());
        QVERIFY2(oversubscribed.valid, oversubscribed.reason.c_str());
        const auto sendSeconds = [](const TrainingEstimate &e) {
            const StepOperation *sends = findOperation(e, "pipeline sends");
            return sends ? sends->seconds + sends->hiddenSeconds : 0.0;
        };
        QVERIFY(sendSeconds(nonBlocking) > 0);
        // The bandwidth part grows by 64 / 42; the launch and latency part does not.
        const double ratio = sendSeconds(oversubscribed) / sendSeconds(nonBlocking);
        QVERIFY2(ratio > 1.2 && ratio <= 64.0 / 42.0 + 1e-9, qPrintable(QString::number(ratio)));
    }

    void operationsAddUpToTheStep()
    {
        TrainingJob job = llama70b(8192);
        ParallelConfig config = samplesLayout();
        config.interleave = 2;
        const TrainingEstimate e = TrainingEstimator(job, dgxH100(1024)).estimate(config);
        QVERIFY2(e.valid, e.reason.c_str());
        double sum = 0;
        for (const StepOperation &op : e.operations)
            sum += op.seconds;
        QVERIFY(qAbs(sum - e.stepSeconds) < 1e-9 * e.stepSeconds);
        // A 2024 stack overlaps TP collectives with their GEMMs: part is hidden, at least the
        // first of TP chunks stays exposed.
        const StepOperation *tp = findOperation(e, "TP collectives, MLP block");
        QVERIFY(tp && tp->hiddenSeconds > 0 && tp->seconds > 0);
        QVERIFY(findOperation(e, "MLP up (gate and up)"));
        QVERIFY(findOperation(e, "attention (fused, causal)"));
        QVERIFY(findOperation(e, "pipeline bubble"));
        // Without the overlap the same collectives are all exposed and the step is slower.
        job.framework.tpCommOverlap = false;
        const TrainingEstimate plain = TrainingEstimator(job, dgxH100(1024)).estimate(config);
        const StepOperation *plainTp = findOperation(plain, "TP collectives, MLP block");
        QVERIFY(plainTp && plainTp->hiddenSeconds == 0);
        QVERIFY(plainTp->seconds > tp->seconds);
        QVERIFY(plain.stepSeconds > e.stepSeconds);
    }

    void tpOverlapCutsItsGemmsIntoChunks()
    {
        // Llama 3 70B, TP 4, sequence 8192, microbatch 1 on H100 (BF16 peak 989.4 TFLOP/s,
        // fraction 0.784, n_half 517, 3.5 us per kernel). Efficiency = 0.784 n / (n + 517) with
        // n = 3 / (1/M + 1/N + 1/K).
        // MLP up (column-parallel), M 8192, N 2 x 28672 / 4 = 14336, K 8192, 1.9241e12 FLOP:
        //   whole: n 9557.4, eff 0.74376, 2.6147 ms + 3.5 us = 2.6182 ms;
        //   ring exchange, 4 GEMMs of M 2048: n 4411.1, eff 0.70175, 2.7712 ms + 14 us = 2.7852.
        //   Forward cut, backward (bulk overlap) whole: (2.7852 + 2 x 2.6182) / (3 x 2.6182)
        //   = 1.0213 of the step's MLP-up time without the overlap.
        // MLP down (row-parallel), M 8192, N 8192, K 7168, 9.6207e11 FLOP:
        //   whole: n 7819.6, eff 0.73538, 1.3223 ms + 3.5 us = 1.3258 ms;
        //   pipeline (4 chunks) forward and ring-exchange data gradient (4 chunks), M 2048:
        //   n 4000.7, eff 0.69428, 1.4005 ms + 14 us = 1.4145 ms each; weight gradient whole:
        //   (2 x 1.4145 + 1.3258) / (3 x 1.3258) = 1.0446.
        TrainingJob job = llama70b(8192);
        ParallelConfig config = samplesLayout();
        const TrainingEstimate overlapped = TrainingEstimator(job, dgxH100(1024)).estimate(config);
        job.framework.tpCommOverlap = false;
        const TrainingEstimate plain = TrainingEstimator(job, dgxH100(1024)).estimate(config);
        QVERIFY2(overlapped.valid && plain.valid, overlapped.reason.c_str());
        const double upRatio = findOperation(overlapped, "MLP up (gate and up)")->seconds
            / findOperation(plain, "MLP up (gate and up)")->seconds;
        const double downRatio = findOperation(overlapped, "MLP down")->seconds
            / findOperation(plain, "MLP down")->seconds;
        QVERIFY2(qAbs(upRatio - 1.0213) < 0.001, qPrintable(QString::number(upRatio)));
        QVERIFY2(qAbs(downRatio - 1.0446) < 0.001, qPrintable(QString::number(downRatio)));
        // The cut is the overlap's: TP 1 has no collective and no chunks.
        config.tp = 1;
        config.dp = 512;
        const TrainingEstimate single = TrainingEstimator(job, dgxH100(1024)).estimate(config);
        job.framework.tpCommOverlap = true;
        const TrainingEstimate singleOverlap
            = TrainingEstimator(job, dgxH100(1024)).estimate(config);
        QCOMPARE(findOperation(singleOverlap, "MLP down")->seconds,
                 findOperation(single, "MLP down")->seconds);
    }

    void crossEntropyTakesItsMeasuredTime()
    {
        // Llama 3 70B (vocab 128,256), TP 4, sequence 8192, batch 512 over DP 128: 4 microbatches
        // of 8192 tokens x 32,064 logits per GPU on the last stage = 1,050,673,152 logits a step.
        // Liger-Kernel's Megatron benchmark timed each implementation's forward and backward on
        // an H100 over 2,048 x 4 x 131,072 = 1,073,741,824 bf16 logits; the same kernels over this
        // step's logits take the measurement x 0.978516, plus 3.5 us a kernel launch:
        //   Megatron-Core fused (36 B a logit, 5 kernels a microbatch): 17.947 ms x 0.978516 =
        //     17.561 ms + 20 x 3.5 us = 17.631 ms; traffic 36 x 1.05067e9 = 3.7824e10 B.
        //   Megatron-LM 2021 unfused (52 B, 8 kernels): 21.251 x 0.978516 = 20.794 ms + 32 x
        //     3.5 us = 20.906 ms; 5.4635e10 B.
        //   Transformer Engine (10 B, 3 kernels): 4.697 x 0.978516 = 4.596 ms + 12 x 3.5 us =
        //     4.638 ms; 1.0507e10 B.
        TrainingJob job = llama70b(8192);
        ParallelConfig config = samplesLayout();
        const auto lossOf = [&](CrossEntropyKernel kernel) {
            job.framework.crossEntropy = kernel;
            const TrainingEstimate estimate
                = TrainingEstimator(job, dgxH100(1024)).estimate(config);
            const StepOperation *loss
                = findOperation(estimate, crossEntropyCost(kernel).operationName);
            return loss ? std::pair(loss->bytes, loss->seconds) : std::pair(0.0, 0.0);
        };
        QCOMPARE(findTrainingFramework("megatron-core-2024")->crossEntropy,
                 CrossEntropyKernel::Native);
        QCOMPARE(findTrainingFramework("megatron-lm-2021")->crossEntropy,
                 CrossEntropyKernel::Unfused);
        const struct
        {
            CrossEntropyKernel kernel;
            double bytes, seconds;
        } expected[] = {{CrossEntropyKernel::Native, 3.7824e10, 17.631e-3},
                        {CrossEntropyKernel::Unfused, 5.4635e10, 20.906e-3},
                        {CrossEntropyKernel::TransformerEngine, 1.0507e10, 4.638e-3}};
        for (const auto &row : expected) {
            const auto [bytes, seconds] = lossOf(row.kernel);
            QVERIFY2(qAbs(bytes / row.bytes - 1.0) < 0.001, qPrintable(QString::number(bytes)));
            QVERIFY2(qAbs(seconds - row.seconds) < 0.005e-3,
                     qPrintable(QString::number(seconds * 1e3, 'f', 4)));
        }
    }

    void swigluTakesMegatronsMeasuredTime()
    {
        // Llama 3 70B at TP 4: a layer's SwiGLU works on 8192 tokens x 28,672 / 4 = 58,720,256
        // output elements a microbatch. Liger-Kernel's benchmark timed Megatron-Core's
        // bias_swiglu_impl on an H100 over 268,435,456 output elements: forward 0.8585 ms,
        // forward and backward 5.0830 ms, so 3.1982 ps and 15.737 ps an element. Here: forward
        // 0.18780 ms + 3.5 us launch = 0.19130 ms, backward 0.92410 + 0.0035 = 0.92760 ms, 1.1189
        // ms a layer and microbatch (two kernels). A streaming kernel would take 0.3615 ms.
        TrainingJob job = llama70b(8192);
        const TrainingEstimate estimate
            = TrainingEstimator(job, dgxH100(1024)).estimate(samplesLayout());
        QVERIFY2(estimate.valid, estimate.reason.c_str());
        const StepOperation *swiglu = findOperation(estimate, "SwiGLU activation");
        QVERIFY(swiglu);
        const double perLayerAndMicrobatch = swiglu->seconds / (swiglu->kernels / 2.0);
        QVERIFY2(qAbs(perLayerAndMicrobatch - 1.1189e-3) < 0.002e-3,
                 qPrintable(QString::number(perLayerAndMicrobatch * 1e3, 'f', 5)));
        // The 2021 profile has no measurement of its own: its kernels stream.
        job.framework = *findTrainingFramework("megatron-lm-2021");
        const TrainingEstimate old
            = TrainingEstimator(job, dgxH100(1024)).estimate(samplesLayout());
        const StepOperation *oldSwiglu = findOperation(old, "SwiGLU activation");
        QVERIFY(oldSwiglu);
        QVERIFY2(qAbs(oldSwiglu->seconds / (oldSwiglu->kernels / 2.0) - 0.3615e-3) < 0.002e-3,
                 qPrintable(QString::number(oldSwiglu->seconds / (oldSwiglu->kernels / 2.0))));
    }

    void contextParallelHasACost()
    {
        // At 4K tokens a sequence is too short for ring attention to pay: the K/V ring, the
        // output merges and CP x more attention kernels cost time, and the compute per GPU is
        // the same, so CP 2 must be slower than CP 1 with everything else equal.
        const TrainingJob job = llama70b(4096);
        ParallelConfig one;
        one.tp = 8;
        one.pp = 1;
        one.dp = 128;
        one.zero = 1;
        ParallelConfig two = one;
        two.cp = 2;
        two.dp = 64;
        const TrainingEstimator estimator(job, dgxH100(1024));
        const TrainingEstimate a = estimator.estimate(one), b = estimator.estimate(two);
        QVERIFY2(a.valid && b.valid, (a.reason + b.reason).c_str());
        QVERIFY(findOperation(b, "context-parallel output merge")->seconds > 0);
        QVERIFY(findOperation(b, "context-parallel K/V ring") != nullptr);
        QVERIFY2(b.stepSeconds > a.stepSeconds, qPrintable(QString::number(b.stepSeconds)));
    }

    void zeroThreeTrafficIsOneAndAHalfAllReduces()
    {
        // ZeRO-3 / FSDP: all-gather for forward, all-gather for backward (which also serves the
        // recomputation), reduce-scatter of gradients: 3 half all-reduces per microbatch, with or
        // without full recomputation (Zhao et al., PyTorch FSDP, VLDB 2023 §3.3). With 16-bit
        // gradients (FP16) all three move the same bytes.
        const TrainingEstimate none = llama70bOnTp8Dp128(Precision::FP16, 3);
        const TrainingEstimate full = llama70bOnTp8Dp128(Precision::FP16, 3, Recompute::Full);
        QVERIFY(none.dpCommTotalSeconds > 0);
        QCOMPARE(full.dpCommTotalSeconds, none.dpCommTotalSeconds);
        // And 1.5x the ZeRO-1 volume for each of the 4 microbatches (512 / 128).
        const TrainingEstimate one = llama70bOnTp8Dp128(Precision::FP16, 1);
        QVERIFY(qAbs(none.dpCommTotalSeconds / one.dpCommTotalSeconds - 1.5 * 4) < 1e-9);

        // BF16: the gradients go out in fp32 (4 B), the parameters are gathered in 16 bits. Per
        // GPU parameter psi: ZeRO-1 moves 4 psi + 2 psi; ZeRO-3 (2 + 2 + 4) psi per microbatch,
        // so 8 x 4 / 6 = 16 / 3 of it over the 4 microbatches.
        const TrainingEstimate bf16One = llama70bOnTp8Dp128(Precision::BF16, 1);
        const TrainingEstimate bf16Three = llama70bOnTp8Dp128(Precision::BF16, 3);
        const StepOperation *zeroOne = findOperation(bf16One, "data-parallel gradient sync");
        const StepOperation *zeroThree
            = findOperation(bf16Three, "ZeRO-3 gathers and gradient reduce-scatter");
        QVERIFY(zeroOne && zeroThree);
        QVERIFY(qAbs(zeroThree->bytes / zeroOne->bytes - 16.0 / 3.0) < 1e-9);
    }

    void zeroTwoReduceScattersEveryMicrobatch()
    {
        // ZeRO-2 keeps a shard of the gradients only, so each microbatch's gradients are
        // reduce-scattered after its backward (FSDP's accumulation "with communication", PyTorch
        // pull request 126166; Megatron-FSDP's grad_reduce_every_bprop for optim_grads); ZeRO-1
        // accumulates full gradients and reduce-scatters once. FP16: gradients and parameters
        // both 2 B, so a reduce-scatter and an all-gather take the same time R. With 512 / 128
        // = 4 microbatches, ZeRO-1 moves R + R = 2R, ZeRO-2 4R + R = 5R: 2.5 times as long.
        const TrainingEstimate one = llama70bOnTp8Dp128(Precision::FP16, 1);
        const TrainingEstimate two = llama70bOnTp8Dp128(Precision::FP16, 2);
        QVERIFY(one.valid && two.valid);
        QVERIFY(one.dpCommTotalSeconds > 0);
        QVERIFY2(qAbs(two.dpCommTotalSeconds / one.dpCommTotalSeconds - 2.5) < 1e-9,
                 qPrintable(QString::number(two.dpCommTotalSeconds / one.dpCommTotalSeconds)));
        // Bytes in BF16 (fp32 gradients, 16-bit gathers), per parameter a GPU holds: ZeRO-1
        // 4 + 2 = 6 B, ZeRO-2 4 x 4 + 2 = 18 B: three times the traffic.
        const TrainingEstimate bf16One = llama70bOnTp8Dp128(Precision::BF16, 1);
        const TrainingEstimate bf16Two = llama70bOnTp8Dp128(Precision::BF16, 2);
        const StepOperation *syncOne = findOperation(bf16One, "data-parallel gradient sync");
        const StepOperation *syncTwo = findOperation(bf16Two, "data-parallel gradient sync");
        QVERIFY(syncOne && syncTwo);
        QVERIFY(qAbs(syncTwo->bytes / syncOne->bytes - 3.0) < 1e-9);
        QCOMPARE(syncTwo->kernels, 5.0);
        // With a single microbatch a step (global batch 128 over DP 128) the two stages move the
        // same bytes at the same time.
        QCOMPARE(llama70bOnTp8Dp128(Precision::BF16, 2, Recompute::None, 128).dpCommTotalSeconds,
                 llama70bOnTp8Dp128(Precision::BF16, 1, Recompute::None, 128).dpCommTotalSeconds);
    }

    void frameworkProfilesDiffer()
    {
        // The same layout is slower on 2021 Megatron-LM (gradient all-reduce after the backward
        // pass, unfused attention, TP all-reduces on the critical path) than on Megatron-Core.
        TrainingJob job = llama70b(4096);
        ParallelConfig config;
        config.tp = 8;
        config.dp = 128;
        config.recompute = Recompute::Full;
        config.zero = 0;
        const TrainingEstimate modern = TrainingEstimator(job, dgxH100(1024)).estimate(config);
        job.framework = *findTrainingFramework("megatron-lm-2021");
        config.sequenceParallel = false;
        const TrainingEstimate old = TrainingEstimator(job, dgxH100(1024)).estimate(config);
        QVERIFY(old.stepSeconds > modern.stepSeconds);
        QVERIFY(findOperation(old, "softmax and dropout on the scores") != nullptr);
        QVERIFY(findOperation(modern, "softmax and dropout on the scores") == nullptr);
        QCOMPARE(defaultTrainingFramework().id, std::string("megatron-core-2024"));
        QVERIFY(findTrainingFramework("no-such-framework") == nullptr);
    }

    void foldedExpertsRunWholeOnEachRank()
    {
        // The tiny MoE (8 experts of 512, top 2, plain MLP) at 2048 tokens on one DGX H100, TP 2 x
        // DP 4, EP 4. Split over TP (ETP 2) every TP rank multiplies all 4,096 routed tokens by
        // half of each expert; folded (ETP 1) each multiplies its own 2,048 by whole experts: the
        // same 2 x 4096 x 1024 x 256 = 2,147,483,648 FLOPs of the up-projection a layer, but the
        // folded ranks need no TP gather and scatter around the experts and hold each expert
        // whole: 2 layers x 8 x 2 x 1024 x 512 = 16,777,216 expert weights over 4 ranks instead
        // of 8, 2,097,152 more a GPU, 4,194,304 bytes in 16 bits.
        TrainingJob job = tinyMoeJob(4);
        ParallelConfig config;
        config.tp = 2;
        config.dp = 4;
        config.ep = 4;
        config.recompute = Recompute::None;
        auto estimate = [&](int etp) {
            config.etp = etp;
            return TrainingEstimator(job, dgxH100(8)).estimate(config);
        };
        const TrainingEstimate split = estimate(2), folded = estimate(1);
        QVERIFY2(split.valid && folded.valid, (split.reason + folded.reason).c_str());
        const char *up = "expert MLP up (grouped GEMM)";
        QCOMPARE(findOperation(split, up)->flops, findOperation(folded, up)->flops);
        QCOMPARE(findOperation(split, up)->flops, 2 * 3 * 2147483648.0); // 2 layers, 3 passes
        QVERIFY(findOperation(split, "TP collectives, MoE block") != nullptr);
        QVERIFY(findOperation(folded, "TP collectives, MoE block") == nullptr);
        QCOMPARE(folded.memory.weightsBytes - split.memory.weightsBytes, 4194304.0);
        QCOMPARE(layoutDescription(folded.config),
                 std::string("TP 2 x PP 1 x DP 4, EP 4 x ETP 1, microbatch 1, recompute none, "
                             "ZeRO-1"));
        // Unset, ETP is TP where EP divides DP x CP (Megatron-Core's default), else 1.
        QCOMPARE(estimate(0).memory.weightsBytes, split.memory.weightsBytes);
        // The estimate knows 1 and TP only; split over TP, EP must divide DP x CP.
        QVERIFY(estimate(3).reason.find("must be 1 or TP (2), not 3") != std::string::npos);
        config.dp = 4;
        config.ep = 8;
        QVERIFY(estimate(2).reason.find("EP=8 must divide DP x CP = 4") != std::string::npos);
        QVERIFY2(estimate(0).valid, estimate(0).reason.c_str()); // chosen: folded
        // A dense model has no experts to split or fold.
        job.model = tinyModel();
        config.ep = 1;
        QVERIFY(estimate(1).reason.find("needs a mixture-of-experts model") != std::string::npos);
    }

    void expertGradientsCrossTheFabricAtAnEpOfANode()
    {
        // Megatron-Core numbers expert ranks ETP fastest, then EP, then expert data parallel
        // (parallel_state.py, "tp-ep-dp-pp"), so at EP 8 on 8-GPU nodes an expert
        // data-parallel group has one rank a node. The tiny MoE with 16 experts on 16 H100s (two
        // DGX nodes), TP 1 x DP 16, FP16, ZeRO-1: at EP 8 each GPU holds 2 experts x 2 layers x
        // (2 x 1024 x 512) = 4,194,304 expert weights, 8,388,608 bytes of gradients reduced over
        // 2 ranks on 2 nodes; at EP 16 it holds one expert a layer and has no one to reduce them
        // with. The dense part is the same, so the difference is the experts' reduce-scatter and
        // all-gather, each half a 2-rank all-reduce through the NIC: launch 8.4 us + 2 ring steps
        // of (9.6 + 1) us + 8,388,608 B / (400 Gb/s x 0.94 = 47 GB/s) = 8.4 + 21.2 + 178.48 =
        // 208.08 us, half each, 208.08 us for the two. Through NVLink it would be about 38 us.
        TrainingJob job = tinyMoeJob(16);
        job.model.experts = 16;
        job.precision = Precision::FP16;
        ParallelConfig config;
        config.tp = 1;
        config.dp = 16;
        config.zero = 1;
        config.recompute = Recompute::None;
        const TrainingEstimator estimator(job, dgxH100(16));
        config.ep = 8;
        const TrainingEstimate ep8 = estimator.estimate(config);
        config.ep = 16;
        const TrainingEstimate ep16 = estimator.estimate(config);
        QVERIFY2(ep8.valid && ep16.valid, (ep8.reason + ep16.reason).c_str());
        const double expertSync = ep8.dpCommTotalSeconds - ep16.dpCommTotalSeconds;
        QVERIFY2(qAbs(expertSync - 208.08e-6) < 0.02e-6, qPrintable(QString::number(expertSync)));
    }

    void parallelAttentionSharesOneTensorParallelReduction()
    {
        // The tiny dense model at TP 8 on one DGX H100 with 2021 Megatron-LM (no sequence
        // parallelism, no TP overlap): each layer all-reduces the attention block's output and
        // the MLP's, forward and backward, two equal [tokens, hidden] messages. Run side by side
        // (GPT-J, Falcon), the two partial outputs are summed before one all-reduce (GPT-NeoX-20B,
        // §2.1.2), so the step's TP time halves and the MLP has no collectives of its own.
        TrainingJob job;
        job.model = tinyModel();
        job.seqLen = 2048;
        job.globalBatch = 8;
        job.framework = *findTrainingFramework("megatron-lm-2021");
        ParallelConfig config;
        config.tp = 8;
        config.sequenceParallel = false;
        config.recompute = Recompute::None;
        const TrainingEstimate serial = TrainingEstimator(job, dgxH100(8)).estimate(config);
        job.model.parallelAttention = true;
        const TrainingEstimate parallel = TrainingEstimator(job, dgxH100(8)).estimate(config);
        QVERIFY2(serial.valid && parallel.valid, (serial.reason + parallel.reason).c_str());
        QVERIFY(serial.breakdown.tpCommSeconds > 0);
        QCOMPARE(parallel.breakdown.tpCommSeconds, serial.breakdown.tpCommSeconds / 2);
        QVERIFY(findOperation(serial, "TP collectives, MLP block") != nullptr);
        QVERIFY(findOperation(parallel, "TP collectives, MLP block") == nullptr);
        QVERIFY(findOperation(parallel, "TP collectives, attention block") != nullptr);
        QVERIFY(parallel.stepSeconds < serial.stepSeconds);
    }

    void optimizerStreamsTheShardItOwns()
    {
        // The tiny MoE on one DGX H100 (TP 1, PP 1, DP 8): its routed experts hold
        // 2 layers x 8 experts x 2 matrices x 1024 x 512 = 16,777,216 parameters. Adam streams
        // 26 B of state and reads the fp32 gradient twice (BF16 reduces in fp32 by default),
        // 34 B per parameter it updates. Without ZeRO a GPU updates what it holds: EP 4 leaves it
        // a quarter of the experts, 3/4 x 16,777,216 x 34 = 427,819,008 B fewer than EP 1. With
        // the distributed optimizer (ZeRO-1) the dense parameters are sharded over the 8
        // data-parallel ranks and each expert's over its expert-data-parallel ranks, 8 / EP of
        // them: at EP 4 a GPU holds a quarter of the experts and owns half of that, an eighth
        // as at EP 1, so the step streams the same bytes, an eighth of ZeRO-0's at EP 1.
        TrainingJob job = tinyMoeJob(8);
        ParallelConfig config;
        config.dp = 8;
        config.recompute = Recompute::None;
        auto optimizerBytes = [&](int ep, int zero) {
            config.ep = ep;
            config.zero = zero;
            const TrainingEstimate e = TrainingEstimator(job, dgxH100(8)).estimate(config);
            if (!e.valid)
                qWarning("%s", e.reason.c_str());
            const StepOperation *op = findOperation(e, "optimizer step (Adam, grad-norm clip)");
            return op ? op->bytes : 0.0;
        };
        const double unshardedAllExperts = optimizerBytes(1, 0);
        QVERIFY(unshardedAllExperts > 0);
        QCOMPARE(unshardedAllExperts - optimizerBytes(4, 0), 427819008.0);
        QCOMPARE(optimizerBytes(1, 1), unshardedAllExperts / 8);
        QCOMPARE(optimizerBytes(4, 1), unshardedAllExperts / 8);
    }

    void allToAllDispatcherSortsTokensByLocalExpert()
    {
        // The tiny MoE (h = 1024, 8 experts, top 2) at 2048 tokens on one DGX H100, TP 1 x DP 8,
        // one microbatch. A layer routes 2048 x 2 = 4096 copies; permuting them into expert order
        // and back reads and writes each twice: 4 x 4096 x 1024 x 2 bytes = 33,554,432 a layer,
        // 67,108,864 over the 2 layers' forward, and twice that in backward (the step model's
        // rule for a memory-bound kernel: saved tensors and incoming gradient read, outgoing
        // written): 201,326,592 a step. With one expert a rank (EP 8) that is all;
        // with two or four (EP 4, EP 2) Megatron-Core's all-to-all dispatcher also sorts what it
        // received by local expert and unsorts it before the combine: twice the bytes and the
        // kernels. The deduplicated dispatcher (DeepEP) permutes once whatever a rank holds.
        TrainingJob job = tinyMoeJob(8);
        ParallelConfig config;
        config.dp = 8;
        config.recompute = Recompute::None;
        auto permute = [&](int ep, bool deduplicated) {
            config.ep = ep;
            job.framework.moeDispatcher
                = deduplicated ? MoeDispatcher::DeepEp : MoeDispatcher::AllToAll;
            const TrainingEstimate e = TrainingEstimator(job, dgxH100(8)).estimate(config);
            if (!e.valid)
                qWarning("%s", e.reason.c_str());
            const StepOperation *op = findOperation(e, "MoE token permute and unpermute");
            return op ? *op : StepOperation {};
        };
        const StepOperation oneLocal = permute(8, false);
        QCOMPARE(oneLocal.bytes, 201326592.0);
        for (int ep : {4, 2}) {
            const StepOperation sorted = permute(ep, false);
            QCOMPARE(sorted.bytes, 2 * oneLocal.bytes);
            QCOMPARE(sorted.kernels, 2 * oneLocal.kernels);
            QCOMPARE(permute(ep, true).bytes, oneLocal.bytes);
        }
    }

    void deduplicatedDispatchSendsATokenOncePerGpuAndNode()
    {
        // A tiny MoE layer (h = 1024, 16 experts, top 4) over EP 16 on two DGX H100, TP 1: each
        // rank dispatches its 2048 tokens of 2 KiB. The all-to-all dispatcher sends all four
        // copies: 4 x 2048 x 2 KiB = 16 MiB a call, half of it (8 of 16 peers) through the NIC.
        // A deduplicated (DeepEP) one sends a token once to each GPU holding one of its experts,
        // 16·(1 - (15/16)^4) = 3.640380859375 of them on average (top 4 drawn evenly), 7/8 of
        // which sit beside another rank of the node it reaches over NVLink, and once to each node
        // that holds one, 2·(1 - (1/2)^4) = 1.875, half of them remote: NVLink 3.185333251953125
        // and NIC 0.9375 token sends. With group-limited routing, 4 groups of 4 experts and one
        // group a token: 4 GPUs within reach, 4·(1 - (3/4)^4) = 2.734375 of them reached
        // (x 7/8 = 2.392578125 over NVLink), and one node, remote half the time (0.5).
        TrainingJob job;
        job.model = tinyModel();
        job.model.experts = 16;
        job.model.topK = 4;
        job.model.ffn = 512;
        job.seqLen = 2048;
        job.globalBatch = 16;
        ParallelConfig config;
        config.dp = 16;
        config.ep = 16;
        config.recompute = Recompute::None;
        const double tokenSends = 2048.0 * 1024 * 2; // bytes of one send of every token
        MoeDispatcher flexBackend = MoeDispatcher::DeepEp;
        std::string dispatchName;
        auto dispatchBytes = [&](bool deduplicated, int groups, int groupsPerToken) {
            job.framework.moeDispatcher = deduplicated ? flexBackend : MoeDispatcher::AllToAll;
            job.model.expertGroups = groups;
            job.model.expertGroupsPerToken = groupsPerToken;
            const TrainingEstimate e = TrainingEstimator(job, dgxH100(16)).estimate(config);
            [&] {
                QVERIFY2(e.valid, e.reason.c_str());
            }();
            for (const StepOperation &op : e.operations)
                if (op.kind == OperationKind::ExpertParallel) {
                    dispatchName = op.name;
                    // 2 layers x 4 calls (dispatch and combine, forward and backward)
                    return std::pair(op.bytes / 8.0, op.seconds + op.hiddenSeconds);
                }
            return std::pair(0.0, 0.0);
        };
        const auto [allToAllBytes, allToAllSeconds] = dispatchBytes(false, 0, 0);
        QCOMPARE(allToAllBytes, 4.0 * tokenSends);
        const auto [dedupBytes, dedupSeconds] = dispatchBytes(true, 0, 0);
        QVERIFY2(qAbs(dedupBytes / tokenSends - (3.185333251953125 + 0.9375)) < 1e-12,
                 qPrintable(QString::number(dedupBytes / tokenSends, 'g', 15)));
        // Half the NIC traffic was 2 token sends; now 0.9375: the call, NIC-bound, is faster.
        QVERIFY(dedupSeconds < allToAllSeconds);
        const auto [groupedBytes, groupedSeconds] = dispatchBytes(true, 4, 1);
        QVERIFY2(qAbs(groupedBytes / tokenSends - (2.392578125 + 0.5)) < 1e-12,
                 qPrintable(QString::number(groupedBytes / tokenSends, 'g', 15)));
        QVERIFY(groupedSeconds < dedupSeconds);
        // The all-to-all dispatcher ignores the groups: it sends every copy anyway.
        QCOMPARE(dispatchBytes(false, 4, 1).first, 4.0 * tokenSends);
        QCOMPARE(dispatchName, std::string("MoE dispatch and combine all-to-all"));
        // HybridEP, the flex dispatcher's other backend, moves the same deduplicated tokens
        // (3.185... + 0.9375 sends, as above) and is named as what the run used.
        flexBackend = MoeDispatcher::HybridEp;
        const auto [hybridBytes, hybridSeconds] = dispatchBytes(true, 0, 0);
        QVERIFY2(qAbs(hybridBytes / tokenSends - (3.185333251953125 + 0.9375)) < 1e-12,
                 qPrintable(QString::number(hybridBytes / tokenSends, 'g', 15)));
        QVERIFY(hybridSeconds < allToAllSeconds);
        QCOMPARE(dispatchName, std::string("MoE dispatch and combine (deduplicated, HybridEP)"));
    }

    void expertAllToAllOverlapHidesBehindTheLayersCompute()
    {
        // Mixtral 8x7B at TP 2 x EP 8 over two DGX H100 (4 EP ranks a node): a layer's compute
        // (its GEMMs alone take over 1 s of the step, the all-to-all 0.42 s) covers the dispatch
        // and combine, so with the overlap all of the all-to-all hides; what stays on the critical
        // path is the profile's slowdown of the compute it runs beside.
        TrainingJob job;
        job.model = shippedCatalog().llm("mixtral-8x7b");
        job.seqLen = 4096;
        job.globalBatch = 64;
        ParallelConfig config;
        config.tp = 2;
        config.ep = 8;
        config.dp = 8;
        const char *allToAllName = "MoE dispatch and combine all-to-all";
        const auto estimate = [&](const ClusterDescription &cluster, bool overlap) {
            job.framework.moeCommOverlap = overlap;
            return TrainingEstimator(job, cluster).estimate(config);
        };
        const double slowdown = job.framework.overlapComputeSlowdown;
        const TrainingEstimate plain = estimate(dgxH100(16), false);
        QVERIFY2(plain.valid, plain.reason.c_str());
        const TrainingEstimate overlapped = estimate(dgxH100(16), true);
        const StepOperation *a2a = findOperation(plain, allToAllName);
        const StepOperation *hidden = findOperation(overlapped, allToAllName);
        QVERIFY(a2a && a2a->seconds > 0 && a2a->hiddenSeconds == 0);
        QVERIFY(hidden && qAbs(hidden->hiddenSeconds - a2a->seconds) < 1e-9 * a2a->seconds);
        QVERIFY(qAbs(hidden->seconds - slowdown * hidden->hiddenSeconds) < 1e-9 * a2a->seconds);
        QVERIFY(overlapped.stepSeconds < plain.stepSeconds);

        // One 10 GbE NIC per server: now the all-to-all outlasts the layer's compute, which is
        // all it can hide behind; the rest stays exposed.
        ClusterFromCatalogOptions tenGigabit;
        tenGigabit.nodeId = "dgx-h100";
        tenGigabit.gpus = 16;
        tenGigabit.nicId = "eth-10g";
        tenGigabit.nicsPerNode = 1;
        tenGigabit.railOptimised = false;
        tenGigabit.switchPorts = 32;
        const ClusterDescription slowNetwork
            = ClusterDescription::fromCatalog(shippedCatalog(), tenGigabit);
        const TrainingEstimate slowPlain = estimate(slowNetwork, false);
        const TrainingEstimate slowOverlapped = estimate(slowNetwork, true);
        QVERIFY2(slowPlain.valid, slowPlain.reason.c_str());
        const StepOperation *slowA2a = findOperation(slowPlain, allToAllName);
        const StepOperation *partly = findOperation(slowOverlapped, allToAllName);
        double layerCompute = 0;
        for (const StepOperation &op : slowOverlapped.operations)
            if ((op.kind == OperationKind::Gemm || op.kind == OperationKind::Attention
                 || op.kind == OperationKind::MemoryBound)
                && std::string(op.name) != "output projection (logits)"
                && std::string(op.name) != "cross-entropy loss (Megatron, fused)")
                layerCompute += op.seconds;
        QVERIFY(slowA2a && partly && slowA2a->seconds > layerCompute);
        QVERIFY(qAbs(partly->hiddenSeconds - layerCompute) < 1e-9 * layerCompute);
        QVERIFY(qAbs(partly->seconds - (slowA2a->seconds - layerCompute + slowdown * layerCompute))
                < 1e-9 * slowA2a->seconds);
    }

    void usableMemoryKeepsSourcedReserves()
    {
        // H100 SXM5: 81,559 MiB less the 512 MiB CUDA context and 1 GiB of NCCL buffers =
        // 80,023 MiB usable; the allocator's 15% fragmentation is charged on the activations.
        const TrainingJob job = llama70b(4096);
        ParallelConfig config;
        config.tp = 8;
        config.dp = 128;
        const TrainingEstimate e = TrainingEstimator(job, dgxH100(1024)).estimate(config);
        QCOMPARE(e.memoryCapacityBytes, 81559.0 * 1024 * 1024);
        QCOMPARE(e.usableMemoryBytes, 80023.0 * 1024 * 1024);
        QVERIFY(
            qAbs(e.memory.reservedBytes - (1536.0 * 1024 * 1024 + 0.15 * e.memory.activationsBytes))
            < 1.0);
    }

    void slowerInstructionsKeepTheStartUpTime()
    {
        // A kernel at half the large-GEMM rate whose start-up time is the same: Hockney's t(n) =
        // n / r + n_half / r becomes n / (r / 2) + n_half / r. A GPU with fraction 0.8 and
        // n_half 500: at n = 500 the native kernel reaches 0.8 x 500 / 1000 = 0.4 and the slower
        // one 500 / (500 x 2 + 500) x 0.8 = 0.2667 (2 / 3 of it, not 1 / 2); at n = 50, where
        // start-up is most of the time, 0.8 x 50 / 550 = 0.07273 against 50 / (100 + 500) x 0.8 =
        // 0.06667 (11 / 12); at n = 500,000 about half.
        GpuSpec gpu;
        gpu.gemmPeakFraction = 0.8;
        gpu.gemmHalfPerformanceDim = 500;
        QVERIFY(qAbs(gemmEfficiency(gpu, Precision::BF16, 500, 500, 500) - 0.4) < 1e-12);
        QVERIFY(qAbs(gemmEfficiency(gpu, Precision::BF16, 500, 500, 500, 0.5) - 0.8 / 3) < 1e-12);
        QVERIFY(qAbs(gemmEfficiency(gpu, Precision::BF16, 50, 50, 50, 0.5) - 0.8 / 12) < 1e-12);
        QVERIFY(qAbs(gemmEfficiency(gpu, Precision::BF16, 5e5, 5e5, 5e5, 0.5)
                         / gemmEfficiency(gpu, Precision::BF16, 5e5, 5e5, 5e5)
                     - 0.5)
                < 1e-3);
    }

    void fp8GemmsFollowTheirOwnSweep()
    {
        // cuBLASLt FP8 square GEMMs on an H100 after 10,000 warm-up iterations (ND H100 v5
        // results, AI benchmarking guide): 1011.3 TFLOP/s at 2048^3, 1216.9 at 4096^3, 1290.1 at
        // 8192^3, 1377.3 at 16384^3, of a 1978.9 TFLOP/s FP8 peak. The catalog's FP8 curve meets
        // each within 2.1%; the earlier calibration (0.70 of the peak on BF16's half-performance
        // size, 517) put 2048^3 at 1103 TFLOP/s, 9% high.
        const GpuSpec &h100 = shippedCatalog().gpu("h100-sxm5-80gb");
        const double peak = h100.peakFlopsPerSecond(Precision::FP8) / units::tera;
        for (const auto &[size, published] : std::vector<std::pair<double, double>> {
                 {2048, 1011.3}, {4096, 1216.9}, {8192, 1290.1}, {16384, 1377.3}}) {
            const double predicted = peak * gemmEfficiency(h100, Precision::FP8, size, size, size);
            QVERIFY2(qAbs(predicted / published - 1.0) < 0.021,
                     qPrintable(QString::number(size) + ": " + QString::number(predicted)));
        }
        QVERIFY(h100.gemmHalfPerformanceDimFor(Precision::FP8)
                > h100.gemmHalfPerformanceDimFor(Precision::BF16));
    }

    void b200FollowsItsPublishedMeasurements()
    {
        const GpuSpec &b200 = shippedCatalog().gpu("b200-sxm-192gb");
        // torch.mm BF16 square GEMMs on a B200 (pytorch/ao pull request 2427): 1130 TFLOP/s at
        // 2048^3, 1410 at 4096^3, 1450 at 6144^3, 1420 at 8192^3 of a 2250 peak; the curve meets
        // each within 7% (the sweep's 3072^3 point, 1510, sits above its neighbours).
        const double peak = b200.peakFlopsPerSecond(Precision::BF16) / units::tera;
        QCOMPARE(peak, 2250.0);
        for (const auto &[size, published] : std::vector<std::pair<double, double>> {
                 {2048, 1130}, {4096, 1410}, {6144, 1450}, {8192, 1420}}) {
            const double predicted = peak * gemmEfficiency(b200, Precision::BF16, size, size, size);
            QVERIFY2(qAbs(predicted / published - 1.0) < 0.07,
                     qPrintable(QString::number(size) + ": " + QString::number(predicted)));
        }
        // HBM: NVIDIA CCCL's nvbench 'add' streams 6.721 TB/s on a B200 (cccl pull request 7391).
        QVERIFY(qAbs(b200.memoryAchievableFraction * b200.memoryBytesPerSecond / 6.721e12 - 1.0)
                < 0.005);
        // Fused attention, causal, head dim 128, 8192 tokens (cudnn-frontend's B200 results):
        // forward 1384 and backward 995 TFLOP/s, 3.5 / (1 / 1384 + 2.5 / 995) = 1081.9 TFLOP/s
        // for a forward and a backward pass (the step model counts the backward as 2.5 forwards).
        const double attention = peak * b200.attentionPeakFraction * 8192
            / (8192 + b200.gemmHalfPerformanceDimFor(Precision::BF16));
        QVERIFY2(qAbs(attention / 1081.9 - 1.0) < 0.01, qPrintable(QString::number(attention)));
    }

    void gb200Fp8GemmsFollowTheirSustainedSweep()
    {
        // cuBLASLt FP8 square GEMMs on ND GB200 v6 after 10,000 warm-up iterations (AI
        // benchmarking guide, Azure_Results/ND_GB200_v6_results.md): 2243.6 TFLOP/s at 2048^3,
        // 2834.6 at 4096^3, 2876.6 at 8192^3, 2906.9 at 16384^3, 2825.6 at 32768^3, of a 5000
        // TFLOP/s dense FP8 peak. The catalog's curve meets each within 7.5%. The short-run
        // maximum it replaced (3615.6 TFLOP/s, mamf-finder) was 24% above the 16384^3 point.
        const GpuSpec &gb200 = shippedCatalog().gpu("gb200-nvl72-gpu");
        const double peak = gb200.peakFlopsPerSecond(Precision::FP8) / units::tera;
        QCOMPARE(peak, 5000.0);
        for (const auto &[size, published] :
             std::vector<std::pair<double, double>> {{2048, 2243.6},
                                                     {4096, 2834.6},
                                                     {8192, 2876.6},
                                                     {16384, 2906.9},
                                                     {32768, 2825.6}}) {
            const double predicted = peak * gemmEfficiency(gb200, Precision::FP8, size, size, size);
            QVERIFY2(qAbs(predicted / published - 1.0) < 0.075,
                     qPrintable(QString::number(size) + ": " + QString::number(predicted)));
        }
    }

    void fp8IsFarFromTwiceAsFast()
    {
        // FP8 doubles the tensor peak, but attention, the logits and every memory-bound kernel
        // stay 16-bit, the casts add traffic, and large FP8 GEMMs reach 72% of the FP8 peak
        // against 78% for BF16 at the sustained clock (catalog sources): published end-to-end
        // speed-ups are 1.3-1.5x.
        TrainingJob job = llama70b(8192);
        ParallelConfig config;
        config.tp = 4;
        config.pp = 4;
        config.dp = 64;
        config.interleave = 5;
        const TrainingEstimate bf16 = TrainingEstimator(job, dgxH100(1024)).estimate(config);
        job.precision = Precision::FP8;
        const TrainingEstimate fp8 = TrainingEstimator(job, dgxH100(1024)).estimate(config);
        const double speedup = bf16.stepSeconds / fp8.stepSeconds;
        QVERIFY2(speedup > 1.1 && speedup < 1.7, qPrintable(QString::number(speedup)));
        const StepOperation *casts = findOperation(fp8, "FP8 casts");
        QVERIFY(casts != nullptr);
        // The casts by hand, one layer and one microbatch of 8,192 tokens at TP 4: forward the
        // projection's input (64 x 128 / 4 = 2,048 wide) and the MLP down GEMM's (28,672 / 4 =
        // 7,168), backward the gradients into all four GEMMs (2 x 8,192 + 2,048 + 2 x 7,168),
        // each cast-transposed at 4 bytes an element: 8,192 x 9,216 x 4 = 301,989,888 B and
        // 8,192 x 32,768 x 4 = 1,073,741,824 B. At the H100's cast-transpose rate, 0.39 of
        // 3.35 TB/s = 1.3065 TB/s, with 3.5 us for each of the 2 + 4 kernels: 231.14 + 7 +
        // 821.85 + 14 = 1,073.99 us. The stage has ceil(80 / 20) x 5 = 20 layers, and the step
        // 512 / 64 = 8 microbatches.
        QCOMPARE(fp8.microbatchesPerStep, 8);
        const double perLayerMicrobatch = casts->seconds / (20.0 * 8.0);
        QVERIFY2(qAbs(perLayerMicrobatch - 1073.99e-6) < 0.02e-6,
                 qPrintable(QString::number(perLayerMicrobatch * 1e6, 'f', 3)));
        QCOMPARE(casts->bytes, 20.0 * 8.0 * (301989888.0 + 1073741824.0));
    }

    void buildingsKeepDataParallelInsideUnlessAStageSpansThem()
    {
        // 128 DGX H100 GPUs in 2 buildings of 8 servers, joined by 8 Tb/s (1 TB/s) each way,
        // 5 km apart. Megatron puts pipeline stages outermost, so with PP 2 each building holds
        // one stage: data parallelism stays inside a building (the same sync as on one fabric)
        // and only the pipeline sends cross. With PP 1 a stage is both buildings and the
        // gradients cross too.
        TrainingJob job = llama70b(4096);
        job.globalBatch = 64;
        const ClusterDescription one = dgxH100(128);
        ClusterDescription two = one;
        two.buildings = 2;
        two.interconnectBytesPerSecondPerBuilding = 1e12;
        two.interconnectLatencySeconds = 5 * 4.9e-6;
        ParallelConfig pp2;
        pp2.tp = 8;
        pp2.pp = 2;
        pp2.dp = 8;
        pp2.zero = 1;
        const TrainingEstimate inside = TrainingEstimator(job, two).estimate(pp2);
        const TrainingEstimate flat = TrainingEstimator(job, one).estimate(pp2);
        QVERIFY(inside.valid && flat.valid);
        QCOMPARE(inside.dpCommTotalSeconds, flat.dpCommTotalSeconds);
        // The stage boundary is the building boundary: 64 GPUs share the 1 TB/s, 15.6 GB/s
        // each before NCCL's share, under a third of a 50 GB/s NIC: the sends take longer.
        QVERIFY(inside.breakdown.ppCommSeconds > flat.breakdown.ppCommSeconds);

        ParallelConfig pp1 = pp2;
        pp1.pp = 1;
        pp1.dp = 16;
        const TrainingEstimate across = TrainingEstimator(job, two).estimate(pp1);
        const TrainingEstimate acrossFlat = TrainingEstimator(job, one).estimate(pp1);
        QVERIFY(across.valid && acrossFlat.valid);
        QVERIFY(across.dpCommTotalSeconds > acrossFlat.dpCommTotalSeconds);
        // A narrower interconnect makes it slower still.
        ClusterDescription narrow = two;
        narrow.interconnectBytesPerSecondPerBuilding = 1e11;
        QVERIFY(TrainingEstimator(job, narrow).estimate(pp1).dpCommTotalSeconds
                > across.dpCommTotalSeconds);

        // 96 GPUs in 2 buildings of 48: a stage of TP 8 x DP 4 = 32 GPUs neither fills whole
        // buildings nor divides one (PP 3): refused, with why.
        ClusterDescription four = dgxH100(96);
        four.buildings = 2;
        four.interconnectBytesPerSecondPerBuilding = 1e12;
        ParallelConfig uneven;
        uneven.tp = 8;
        uneven.pp = 3;
        uneven.dp = 4;
        const TrainingEstimate refused = TrainingEstimator(job, four).estimate(uneven);
        QVERIFY(!refused.valid);
        QVERIFY2(refused.reason.find("buildings of 48 GPUs") != std::string::npos,
                 refused.reason.c_str());
    }

    void noShapeNamesTheBatchAndTheLimits()
    {
        // 256 GPUs, the tiny model (2 layers, 16 heads) at 128 tokens and a global batch of 1:
        // DP must divide 1, TP is at most 8 (the NVLink domain), PP at most 2 (the layers), CP
        // only 1 (128 tokens are under the 1,024 a CP rank needs): at most 16 GPUs a replica,
        // so no shape is tried, and the reason says why instead of "no combination".
        TrainingJob job;
        job.model = tinyModel();
        job.seqLen = 128;
        job.globalBatch = 1;
        const TrainingSearchResult result = TrainingEstimator(job, dgxH100(256)).search();
        QVERIFY(!result.found);
        QVERIFY2(result.reason.find("global batch of 1, TP at most 8, PP at most 2 and CP 1 (so "
                                    "at most 16 GPUs per replica)")
                     != std::string::npos,
                 result.reason.c_str());
        // A degree the job fixes is named as given: TP 3 was "TP at most 3".
        job.globalBatch = 8;
        job.constraints.tp = 3;
        const TrainingSearchResult fixedTp = TrainingEstimator(job, dgxH100(8)).search();
        QVERIFY(!fixedTp.found);
        QVERIFY2(fixedTp.reason.find(", TP 3, PP at most") != std::string::npos,
                 fixedTp.reason.c_str());
        // A DP that cannot divide the batch says so.
        job.constraints.tp.reset();
        job.constraints.dp = 7;
        const TrainingSearchResult fixedDp = TrainingEstimator(job, dgxH100(8)).search();
        QVERIFY(!fixedDp.found);
        QVERIFY2(fixedDp.reason.find("DP 7 does not divide the global batch of 8 sequences")
                     != std::string::npos,
                 fixedDp.reason.c_str());
    }

    void searchSkipsInterleavesThePipelineCannotRun()
    {
        // GPT-3 175B on 1,024 GPUs at TP 8 x PP 8 leaves DP 16: a replica's 96 sequences of
        // microbatch 32 are 3 microbatches, no multiple of PP 8, so Megatron's interleaved
        // schedule cannot run and interleave 2, 3, 4, 6 and 12 are skipped unevaluated; only
        // plain 1F1B (interleave 1) is evaluated.
        TrainingJob job = gpt3OnEightByEight(32, 3);
        const TrainingSearchResult result = TrainingEstimator(job, dgxA100(1024)).search();
        QCOMPARE(result.evaluated, 1LL);
        QCOMPARE(result.pruned, 5LL);

        // With the interleave fixed at 2 nothing is left to evaluate, and the reason is the
        // schedule's rule, not a generic one.
        job.constraints.interleave = 2;
        const TrainingSearchResult none = TrainingEstimator(job, dgxA100(1024)).search();
        QVERIFY(!none.found);
        QCOMPARE(none.evaluated, 0LL);
        QCOMPARE(none.pruned, 1LL);
        QVERIFY2(none.reason.find("microbatches (3) to be a multiple of PP=8") != std::string::npos,
                 none.reason.c_str());
    }

    void embeddingAndLossMayTakeAVirtualStage()
    {
        // Llama 3 405B (126 layers) on PP 16 x 8 virtual stages is 128 chunks: Meta's layout,
        // where the first chunk holds only the embedding and the last only the loss (Llama 3 Herd
        // §3.3.2). 126 + 2 = 128 fills them; 9 virtual stages (144 chunks) cannot be filled, and
        // without a pipeline nothing takes the embedding's place.
        TrainingJob job;
        job.model = shippedCatalog().llm("llama-3-405b");
        job.seqLen = 8192;
        job.globalBatch = 2048;
        ParallelConfig config;
        config.tp = 8;
        config.pp = 16;
        config.dp = 64;
        config.interleave = 8;
        const TrainingEstimator estimator(job, dgxH100(8192));
        const TrainingEstimate meta = estimator.estimate(config);
        QVERIFY2(meta.reason.find("cannot fill") == std::string::npos, meta.reason.c_str());
        config.interleave = 9;
        const TrainingEstimate tooMany = estimator.estimate(config);
        QVERIFY(!tooMany.valid);
        QVERIFY2(tooMany.reason.find("126 layers cannot fill PP=16 x 9 virtual stages")
                     != std::string::npos,
                 tooMany.reason.c_str());
    }

    void lighterEndStagesLetAMiddleStagePace()
    {
        // Llama 3 8B's 32 layers on PP 4, 4,096 tokens, 8 microbatches of 1 per pipeline. Evenly
        // split each stage holds 8 layers and the last also the logits and the loss, so it paces
        // the step: its QKV projection runs 8 layers x 8 microbatches x 3 GEMMs (forward, data
        // and weight gradient) = 192 kernels.
        TrainingJob job;
        job.model = shippedCatalog().llm("llama-3-8b");
        job.seqLen = 4096;
        job.globalBatch = 16;
        ParallelConfig config;
        config.pp = 4;
        config.dp = 2;
        config.recompute = Recompute::None;
        const TrainingEstimator estimator(job, dgxH100(8));
        const TransformerShape shape = TransformerShape::fromModel(job.model);
        const TrainingEstimate even = estimator.estimate(config);
        QVERIFY2(even.valid, even.reason.c_str());
        QCOMPARE(findOperation(even, "QKV projection")->kernels, 192.0);
        QVERIFY(findOperation(even, "output projection (logits)"));
        QCOMPARE(stageLayers(shape, config, PipelineEnd::First), 8.0);
        QCOMPARE(stageLayers(shape, config, PipelineEnd::Last), 8.0);

        // Llama 3 8B's logits are heavy: 2 x 4,096 x 128,256 = 1.05 GFLOP a token against
        // 2 x 218 M = 0.44 GFLOP for a layer's GEMMs, 2.4 layers, and the loss streams 128,256
        // fp32 logits a token besides (about half a layer more). So the last stage is worth
        // about 11 layers and the even split is unbalanced.
        // Six layers on the first and on the last stage leave (32 - 12) / 2 = 10 for each middle
        // stage, against about 6 + 3 = 9 on the last: a middle stage paces the step, 10 x 8 x 3
        // = 240 kernels, no logits on it, and the step is shorter than the even split's.
        config.firstStageLayers = 6;
        config.lastStageLayers = 6;
        QCOMPARE(stageLayers(shape, config, PipelineEnd::Middle), 10.0);
        const TrainingEstimate lighterEnds = estimator.estimate(config);
        QVERIFY2(lighterEnds.valid, lighterEnds.reason.c_str());
        QCOMPARE(findOperation(lighterEnds, "QKV projection")->kernels, 240.0);
        QVERIFY(!findOperation(lighterEnds, "output projection (logits)"));
        QVERIFY(lighterEnds.stepSeconds < even.stepSeconds);
        // Memory: the second stage keeps 3 microbatches in flight (one fewer than the first's 4,
        // Korthikanti et al. §4.2.3) of 10 layers and no logits: 30 layers' activations, more
        // than the first stage's 4 x 6 = 24.
        QCOMPARE(lighterEnds.memory.activationsBytes,
                 30.0 * lighterEnds.memory.activationBytesPerLayer);
        QVERIFY(layoutDescription(lighterEnds.config)
                    .find("6 layers on the first stage and 6 on the last")
                != std::string::npos);

        // Seven on the first and last stages and nine on the others (32 = 7 + 2 x 9 + 7): the
        // last stage's 7 layers and the logits, about 10, outweigh nine, so the last stage paces
        // again: 7 x 8 x 3 = 168 kernels, and the logits.
        config.firstStageLayers = 7;
        config.lastStageLayers = 7;
        const TrainingEstimate nine = estimator.estimate(config);
        QVERIFY2(nine.valid, nine.reason.c_str());
        QCOMPARE(findOperation(nine, "QKV projection")->kernels, 168.0);
        QVERIFY(findOperation(nine, "output projection (logits)"));

        // Refused: without a pipeline; on two stages that are not the whole model; leaving the
        // middle stages less than a layer each.
        const auto refusal = [&](const ParallelConfig &bad) {
            return estimator.estimate(bad).reason;
        };
        ParallelConfig noPipeline;
        noPipeline.dp = 8;
        noPipeline.firstStageLayers = 4;
        QVERIFY2(refusal(noPipeline).find("needs pipeline parallelism") != std::string::npos,
                 refusal(noPipeline).c_str());
        ParallelConfig two = config;
        two.pp = 2;
        two.dp = 4;
        two.firstStageLayers = 10;
        two.lastStageLayers = 10;
        QVERIFY2(refusal(two).find("their 20 layers must be the model's 32") != std::string::npos,
                 refusal(two).c_str());
        ParallelConfig crowded = config;
        crowded.firstStageLayers = 16;
        crowded.lastStageLayers = 15;
        QVERIFY2(refusal(crowded).find("leave 1 of the model's 32 for the other 2 stages")
                     != std::string::npos,
                 refusal(crowded).c_str());
    }

    void searchTriesTheEmbeddingAndLossSplit()
    {
        // Llama 3 405B's 126 layers on TP 8 x PP 16 x 8 virtual stages, everything fixed: 126 +
        // 2 = 128 slots fill the 128 chunks one each, so besides the even split (8 layers a stage,
        // the last with the logits) the search tries Meta's, 7 on the first and last stages and 8
        // on the others: two layouts, and Meta's is the faster (its busiest stage is a middle
        // one with 8 layers and no logits).
        TrainingJob job;
        job.model = shippedCatalog().llm("llama-3-405b");
        job.seqLen = 8192;
        job.globalBatch = 2048;
        ParallelismConstraints &k = job.constraints;
        k.tp = 8;
        k.pp = 16;
        k.dp = 64;
        k.cp = 1;
        k.interleave = 8;
        k.microbatch = 1;
        k.recompute = Recompute::Full;
        k.zero = 1;
        const TrainingSearchResult both = TrainingEstimator(job, dgxH100(8192)).search();
        QCOMPARE(both.evaluated, 2LL);
        QVERIFY(both.found);
        QCOMPARE(both.best.config.firstStageLayers, 7);
        QCOMPARE(both.best.config.lastStageLayers, 7);
        // A stage size the user gave is kept: one layout.
        k.lastStageLayers = 8;
        QCOMPARE(TrainingEstimator(job, dgxH100(8192)).search().evaluated, 1LL);
        // Where the slots give the even split anyway (80 layers + 2 on two stages: 41 slots, 40
        // layers each), nothing more is tried.
        TrainingJob seventy = job;
        seventy.model = shippedCatalog().llm("llama-3-70b");
        seventy.constraints = {};
        seventy.constraints.tp = 8;
        seventy.constraints.pp = 2;
        seventy.constraints.dp = 4;
        seventy.constraints.cp = 1;
        seventy.constraints.interleave = 1;
        seventy.constraints.microbatch = 1;
        seventy.constraints.recompute = Recompute::Full;
        seventy.constraints.zero = 1;
        seventy.globalBatch = 64;
        QCOMPARE(TrainingEstimator(seventy, dgxH100(64)).search().evaluated, 1LL);
    }

    void searchTriesEveryEvenInterleave()
    {
        // 96 layers on PP 8 leave 12 per stage: interleave 1, 2, 3, 4, 6 and 12 split them evenly
        // (the search used to stop at 8). Everything else is fixed, so exactly six layouts.
        const TrainingJob job = gpt3OnEightByEight(1, 1);
        const TrainingSearchResult result = TrainingEstimator(job, dgxA100(1024)).search();
        QCOMPARE(result.evaluated, 6LL);
        bool sawTwelve = false;
        for (const TrainingEstimate &e : result.top)
            sawTwelve |= e.config.interleave == 12;
        QVERIFY(sawTwelve);
    }

    void publishedRowNamesItsShardingAndGradientPrecision()
    {
        // A fully sharded run (Megatron-FSDP) names ZeRO stage 3 in its row. With TP 1, PP 1,
        // CP 1 on 8 GPUs every GPU holds the whole dense model under the distributed optimizer
        // (ZeRO-1), and an eighth of it under ZeRO-3: the weights per GPU fall eightfold.
        const nlohmann::json suite
            = readJsonFile(CP_VALIDATION_DATA_DIR "/training_validation.json");
        nlohmann::json row;
        for (const nlohmann::json &candidate : suite.at("rows"))
            if (candidate.at("id") == "nemo2407-llama3-8b-h100")
                row = candidate;
        QVERIFY(row.is_object());
        row["cp"] = 1;
        row.erase("grad_reduce_in_bf16"); // the shipped row names it; this test names it itself
        auto table = [](const nlohmann::json &only) {
            return nlohmann::json {{"format", "clusterplanner-training-validation"},
                                   {"version", 1},
                                   {"rows", nlohmann::json::array({only})}};
        };
        const auto sharded = [&] {
            nlohmann::json fsdp = row;
            fsdp["zero"] = 3;
            return runTrainingValidation(table(fsdp), shippedCatalog(), "fsdp.json");
        }();
        const auto unnamed = runTrainingValidation(table(row), shippedCatalog(), "ddp.json");
        QCOMPARE(unnamed.front().estimate.config.zero, 1);
        QCOMPARE(sharded.front().estimate.config.zero, 3);
        QCOMPARE(sharded.front().estimate.config.dp, 8);
        const double weightsZero1 = unnamed.front().estimate.memory.weightsBytes;
        const double weightsZero3 = sharded.front().estimate.memory.weightsBytes;
        QVERIFY2(std::abs(weightsZero1 / weightsZero3 - 8.0) < 1e-9,
                 qPrintable(QString::number(weightsZero1 / weightsZero3)));
        QVERIFY(trainingValidationMarkdown(sharded, "fsdp.json").find("v1 none ZeRO-3")
                != std::string::npos);
        // A run that reduced its gradients in BF16 (Megatron-Bridge's benchmark configs set
        // grad_reduce_in_fp32 = False) keeps 2 bytes per gradient instead of Megatron's default
        // fp32 4: the gradient buffer halves, and the layout says so.
        nlohmann::json bf16Grads = row;
        bf16Grads["grad_reduce_in_bf16"] = true;
        const auto halved = runTrainingValidation(table(bf16Grads), shippedCatalog(), "bf16.json");
        QVERIFY(halved.front().gradientsReducedInBf16);
        QCOMPARE(unnamed.front().estimate.memory.gradientsBytes
                     / halved.front().estimate.memory.gradientsBytes,
                 2.0);
        QVERIFY(trainingValidationMarkdown(halved, "bf16.json").find("none bf16-grads")
                != std::string::npos);
        // An MoE row names the dispatcher it ran and its all-to-all overlap beside its EP group.
        nlohmann::json moeRow;
        for (const nlohmann::json &candidate : suite.at("rows"))
            if (candidate.at("id") == "mbridge2604-qwen3-30b-a3b-fp8-h100")
                moeRow = candidate;
        QVERIFY(moeRow.is_object());
        const auto qwen = runTrainingValidation(table(moeRow), shippedCatalog(), "moe.json");
        QCOMPARE(qwen.front().moeDispatcher, MoeDispatcher::HybridEp);
        QVERIFY(trainingValidationMarkdown(qwen, "moe.json").find(" EP16/HybridEP DP16 ")
                != std::string::npos);
        nlohmann::json overlapped = moeRow;
        overlapped["moe_dispatcher"] = "deepep";
        overlapped["moe_comm_overlap"] = true;
        const auto deep = runTrainingValidation(table(overlapped), shippedCatalog(), "moe.json");
        QVERIFY(trainingValidationMarkdown(deep, "moe.json").find(" EP16/DeepEP+overlap DP16 ")
                != std::string::npos);
        // A GPU the catalog does not hold is refused at its field, with the GPUs it knows.
        nlohmann::json unknownGpu = row;
        unknownGpu["gpu"] = "no-such-gpu";
        try {
            runTrainingValidation(table(unknownGpu), shippedCatalog(), "gpu.json");
            QFAIL("an unknown GPU id was accepted");
        } catch (const InputError &error) {
            QCOMPARE(error.pointer(), std::string("/rows/0/gpu"));
            QVERIFY2(std::string(error.what()).find("h100-sxm5-80gb") != std::string::npos,
                     error.what());
        }
        // A stage beyond 3 is refused with the file and the field's pointer.
        nlohmann::json bad = row;
        bad["zero"] = 4;
        try {
            runTrainingValidation(table(bad), shippedCatalog(), "bad.json");
            QFAIL("zero 4 was accepted");
        } catch (const InputError &error) {
            const std::string message = error.what();
            QVERIFY2(message.find("bad.json") != std::string::npos
                         && message.find("/rows/0/zero") != std::string::npos,
                     error.what());
        }
        // Recompute modules name what a selective run repeats; a run without recomputation
        // that names them is refused at their pointer.
        nlohmann::json modules = row;
        modules["recompute"] = "selective";
        modules["recompute_modules"] = {"layernorm"};
        const auto norms = runTrainingValidation(table(modules), shippedCatalog(), "norms.json");
        QVERIFY(trainingValidationMarkdown(norms, "norms.json").find("v1 selective (layernorm)")
                != std::string::npos);
        modules["recompute"] = "none";
        try {
            runTrainingValidation(table(modules), shippedCatalog(), "bad.json");
            QFAIL("recompute modules without selective recomputation were accepted");
        } catch (const InputError &error) {
            QVERIFY2(std::string(error.what())
                             .find("/rows/0/recompute_modules: recompute modules "
                                   "need")
                         != std::string::npos,
                     error.what());
        }
    }

    void publishedRunsSuite()
    {
        // catalogs/validation/training_validation.json: 60 published runs, each with its source and
        // the layout it used (docs/validation-training.md is generated from the same rows). Nothing
        // in the catalog is fitted to them; these checks measure.
        const std::string file = CP_VALIDATION_DATA_DIR "/training_validation.json";
        const auto rows = runTrainingValidation(readJsonFile(file), shippedCatalog(), file);
        QVERIFY(rows.size() >= 25);
        std::vector<TrainingValidationRow> a100, h100, blackwell;
        int moe = 0;
        for (const TrainingValidationRow &row : rows) {
            QVERIFY2(std::isfinite(row.predicted) && row.predicted > 0, row.id.c_str());
            if (row.gpuId.rfind("a100", 0) == 0)
                a100.push_back(row);
            else if (row.gpuId.rfind("h100", 0) == 0)
                h100.push_back(row);
            else
                blackwell.push_back(row);
            moe += row.moe ? 1 : 0;
        }
        QVERIFY(a100.size() >= 10 && h100.size() >= 10 && moe >= 3);
        // A100 (2021-2022 Megatron-LM, BLOOM): within the target for the median. The worst row
        // is BLOOM 176B at +23.3% since its stages are the run's own (5, 6 x 10, 5 layers, the
        // BigScience README), not an even split that overloaded the last stage and hid it:
        // guard that state, and record that the 15% target is missed.
        const ValidationSummary onA100 = summarizeValidation(a100);
        QVERIFY2(onA100.medianAbsoluteError <= 0.05,
                 qPrintable(QString::number(onA100.medianAbsoluteError)));
        QVERIFY2(onA100.maxAbsoluteError <= 0.24,
                 qPrintable(QString::number(onA100.maxAbsoluteError)));
        QEXPECT_FAIL("", "BLOOM 176B is +23% (docs/validation-training.md)", Continue);
        QVERIFY(onA100.maxAbsoluteError <= 0.15);
        // The suite the targets are set for (A100 and H100): guard against getting worse than
        // the state documented in docs/validation-training.md (+8.8% mean since pipeline sends
        // cross the NIC wherever a pipeline leaves its NVLink domain and hide behind the next
        // chunk in interleaved schedules, as Megatron overlaps them: the 70B-405B rows they had
        // made pessimistic moved toward zero, others more optimistic; +7.6% before, since the
        // Qwen3 30B-A3B row runs the HybridEP dispatcher its preset names).
        std::vector<TrainingValidationRow> targetSuite = a100;
        targetSuite.insert(targetSuite.end(), h100.begin(), h100.end());
        const ValidationSummary all = summarizeValidation(targetSuite);
        QVERIFY2(all.medianAbsoluteError <= 0.07,
                 qPrintable(QString::number(all.medianAbsoluteError)));
        QVERIFY2(std::abs(all.meanSignedError) <= 0.09,
                 qPrintable(QString::number(all.meanSignedError)));
        // The targets are not met yet: H100 runs on Megatron-Core are predicted too fast
        // (docs/validation-training.md). When they are, these become passes.
        QEXPECT_FAIL("", "H100 rows are optimistic; see docs/validation-training.md", Continue);
        QVERIFY(all.medianAbsoluteError <= 0.05);
        QEXPECT_FAIL("", "H100 rows are optimistic; see docs/validation-training.md", Continue);
        QVERIFY(std::abs(all.meanSignedError) <= 0.03);
        // B200 and GB200 (the Megatron-Bridge 26.04.01 table's rows the estimator can express):
        // optimistic on average, +36.2% today over 12 rows (docs/validation-training.md; +35.8%
        // before pipeline sends crossed the NIC and hid behind the next chunk; +29.7%
        // before the four HybridEP rows ran the deduplicated dispatcher their presets name; +31.4%
        // once Transformer Engine's cheaper cross-entropy, which the benchmark scripts set, was
        // charged, before Megatron's measured SwiGLU was; +40.0% before the table's two
        // DeepSeek-V3 rows were added): most of it is the other MoE rows, and the B200's GEMM
        // curves are short-run measurements. Measured, not tuned: the guard records that state
        // and its direction.
        QCOMPARE(blackwell.size(), std::size_t(12));
        const ValidationSummary onBlackwell = summarizeValidation(blackwell);
        QVERIFY2(onBlackwell.meanSignedError > 0 && onBlackwell.meanSignedError <= 0.42,
                 qPrintable(QString::number(onBlackwell.meanSignedError)));
    }
};

QTEST_APPLESS_MAIN(TestTrainingEstimator)
#include "tst_trainingestimator.moc"
