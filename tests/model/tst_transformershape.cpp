// SPDX-License-Identifier: GPL-3.0-or-later
#include "model/catalog/catalogdatabase.h"
#include "model/training/transformershape.h"
#include "testsupport.h"

#include <QTest>

using namespace cp::model;

using cp::test::shippedCatalog;

class TestTransformerShape : public QObject
{
    Q_OBJECT

private slots:
    void parameterCountsMatchModelCards_data()
    {
        QTest::addColumn<QString>("id");
        QTest::addColumn<double>("tolerance");
        // Each model's published size (its params_b, from the paper or model card).
        QTest::newRow("GPT-3 175B") << "gpt-3-175b" << 0.01;
        QTest::newRow("Llama 2 7B") << "llama-2-7b" << 0.01;
        QTest::newRow("Llama 2 13B") << "llama-2-13b" << 0.01;
        QTest::newRow("Llama 2 70B") << "llama-2-70b" << 0.01;
        QTest::newRow("Llama 3 8B") << "llama-3-8b" << 0.01;
        QTest::newRow("Llama 3 70B") << "llama-3-70b" << 0.01;
        QTest::newRow("Llama 3 405B") << "llama-3-405b" << 0.01;
        QTest::newRow("Mixtral 8x7B") << "mixtral-8x7b" << 0.01;
        QTest::newRow("Megatron 1T") << "dense-1t" << 0.01;
        // gpt-oss model card, Table 1: 116.8 B total (attention sinks' 64 per layer aside).
        QTest::newRow("gpt-oss-120b") << "gpt-oss-120b" << 0.01;
        // Llama 4 model card: Scout 109 B and Maverick 400 B total. The card counts Scout's
        // multimodal checkpoint; its text model is 107.8 B (llama4ScoutExact), 1.1% less.
        QTest::newRow("Llama 4 Scout") << "llama-4-scout" << 0.02;
        QTest::newRow("Llama 4 Maverick") << "llama-4-maverick" << 0.01;
        // Falcon 180B: "180 B" on its model card; the shape gives 80 x (14848 x (232 + 16) x 64
        // + 14848^2 + 2 x 14848 x 59392) + 2 x 65024 x 14848 = 179.5 B, 0.3% under.
        QTest::newRow("Falcon 180B") << "falcon-180b" << 0.01;
        // DeepSeek-V3 technical report: 671 B (the multi-token-prediction module aside).
        QTest::newRow("DeepSeek-V3") << "deepseek-v3" << 0.01;
    }

    void parameterCountsMatchModelCards()
    {
        QFETCH(QString, id);
        QFETCH(double, tolerance);
        static const Catalog catalog = shippedCatalog();
        const ModelSpec &model = catalog.llm(id.toStdString());
        const double counted = TransformerShape::fromModel(model).totalParameters();
        const double error = counted / model.publishedParameters - 1.0;
        QVERIFY2(qAbs(error) < tolerance,
                 qPrintable(QStringLiteral("%1: %2 vs %3")
                                .arg(id)
                                .arg(counted)
                                .arg(model.publishedParameters)));
    }

    void llama2SevenBExact()
    {
        // 32 x (4 x 4096^2 + 3 x 4096 x 11008 + 2 x 4096) + 2 x 32000 x 4096 + 4096 = 6,738,415,616
        // (the Hugging Face parameter count of meta-llama/Llama-2-7b-hf).
        static const Catalog catalog = shippedCatalog();
        QCOMPARE(TransformerShape::fromModel(catalog.llm("llama-2-7b")).totalParameters(),
                 6738415616.0);
    }

    void mixtralActiveParameters()
    {
        // Mixtral paper: 12.9B active parameters per token (2 of 8 experts).
        static const Catalog catalog = shippedCatalog();
        const double active
            = TransformerShape::fromModel(catalog.llm("mixtral-8x7b")).activeParameters();
        QVERIFY2(qAbs(active / 12.9e9 - 1.0) < 0.01, qPrintable(QString::number(active)));
    }

    void flopsMatchMegatronFormula()
    {
        // Narayanan et al. SC21: forward+backward FLOPs per iteration without recomputation are
        // 72·B·s·l·h²·(1 + s/(6h) + V/(12·l·h)). Check per token (B·s = 1) for the 175B model.
        TransformerShape shape;
        shape.hidden = 12288;
        shape.heads = 96;
        shape.kvHeads = 96;
        shape.headDim = 128;
        shape.ffn = 4 * 12288;
        shape.vocab = 51200;
        shape.layers = 96;
        const double s = 2048, h = 12288, l = 96, V = 51200;
        const double ours = 3.0
            * (l * (shape.layerGemmFlopsPerToken() + shape.attentionCoreFlopsPerToken(s))
               + shape.logitFlopsPerToken());
        const double megatron = 72.0 * l * h * h * (1.0 + s / (6.0 * h) + V / (12.0 * l * h));
        QVERIFY(qAbs(ours / megatron - 1.0) < 1e-12);
    }

    void denseLayersOfAnMoeModel()
    {
        // Llama 4 Maverick (meta-llama/Llama-4-Maverick-17B-128E config.json: 48 layers, hidden
        // 5120, 40 heads and 8 K/V heads of 128, 128 routed experts of 8192 with top-1 and one
        // shared expert, MoE on every other layer (interleave_moe_layer_step 2) and a dense MLP
        // of 16384 on the others, vocabulary 202,048; Meta's model card: 400 B total, 17 B
        // active). Per layer: attention 5120 x 7168 + 5120^2 = 62,914,560 and norms 10,240; an
        // expert 3 x 5120 x 8192 = 125,829,120; an MoE layer 129 experts and a 5120 x 128 router,
        // 16,232,611,840; a dense MLP 3 x 5120 x 16384 = 251,658,240. With 2 x 202,048 x 5120
        // embeddings and the final norm: 400,711,848,960 in all, and a token passes the
        // attention, 2 experts on 24 layers and the dense MLP on 24: 17,168,962,560.
        ModelSpec maverick;
        maverick.layers = 48;
        maverick.hidden = 5120;
        maverick.heads = 40;
        maverick.kvHeads = 8;
        maverick.ffn = 8192;
        maverick.vocab = 202048;
        maverick.experts = 128;
        maverick.topK = 1;
        maverick.sharedExperts = 1;
        maverick.gatedMlp = true;
        maverick.denseLayers = 24;
        maverick.denseFfn = 16384;
        const TransformerShape shape = TransformerShape::fromModel(maverick);
        QCOMPARE(shape.moeLayerShare(), 0.5);
        QCOMPARE(shape.totalParameters(), 400711848960.0);
        QCOMPARE(shape.activeParameters(), 17168962560.0);
        // A dense model ignores the field: its MLP is its one "expert".
        ModelSpec dense = maverick;
        dense.experts = 1;
        dense.topK = 1;
        dense.sharedExperts = 0;
        QCOMPARE(TransformerShape::fromModel(dense).moeLayerShare(), 0.0);
        QCOMPARE(TransformerShape::fromModel(dense).mlpParametersPerLayer(), 3.0 * 5120 * 8192);
    }

    void slidingWindowKeysPerQuery()
    {
        // A causal pass over 100 positions inside a 128-token window: position i attends i keys,
        // a mean of (about) 50. Over 8192 positions with a 128-token window: the first 128
        // attend 1..128, the other 8064 attend 128 each, (128 x 128 / 2 + 8064 x 128) / 8192
        // = 127 in the continuous sums.
        QCOMPARE(causalKeysPerQuery(100, 128), 50.0);
        QCOMPARE(causalKeysPerQuery(8192, 128), 127.0);
        QCOMPARE(causalKeysPerQuery(8192, 0), 4096.0); // no window: half the pass
        QCOMPARE(attendedTokens(32000, 128), 128.0);
        QCOMPARE(attendedTokens(100, 128), 100.0);
        QCOMPARE(attendedTokens(32000, 0), 32000.0);
    }

    void llama4ScoutExact()
    {
        // Llama 4 Scout's text model (config.json: 48 layers, hidden 5120, 40 heads and 8 K/V
        // heads of 128, 16 routed experts of 8192 with top-1 and one shared expert on every
        // layer, vocabulary 202,048, untied). Per layer: attention 5120 x 7168 + 5120^2 =
        // 62,914,560; 17 experts of 3 x 5120 x 8192 = 125,829,120 each, 2,139,095,040, and a
        // 5120 x 16 router, 81,920; norms 10,240: 2,202,101,760. Over 48 layers 105,700,884,480,
        // with 2 x 202,048 x 5120 = 2,068,971,520 of embeddings and the final norm's 5120:
        // 107,769,861,120. A token passes the attention, 2 experts and the norms, 314,583,040 a
        // layer (the router's 81,920 left out, as in the Maverick count): 15,099,985,920, and
        // the embeddings and final norm: 17,168,962,560 (card: 17 B; Maverick's too, since its
        // dense layers' 16,384-wide MLP weighs two 8,192-wide experts).
        static const Catalog catalog = shippedCatalog();
        const TransformerShape shape = TransformerShape::fromModel(catalog.llm("llama-4-scout"));
        QCOMPARE(shape.totalParameters(), 107769861120.0);
        QCOMPARE(shape.activeParameters(), 17168962560.0);
    }

    void deepSeekV3LatentAttention()
    {
        // DeepSeek-V3 (config.json: 61 layers, hidden 7168, 128 heads; latent attention with a
        // 1536 query latent, a 512 K/V latent, non-rotary query/key heads of 128, rotary 64,
        // values 128; 3 dense layers of 18,432, then 256 routed experts of 2048, top-8, and one
        // shared; vocabulary 129,280, untied). Attention per layer: queries 7168 x 1536 + 1536 x
        // 128 x 192 = 48,758,784; latent and rotary key 7168 x 576 = 4,128,768; up to keys and
        // values 512 x 128 x (128 + 128) = 16,777,216; output 128 x 128 x 7168 = 117,440,512:
        // 187,105,280. A dense layer's MLP 3 x 7168 x 18,432 = 396,361,728; an MoE layer's 257
        // experts of 3 x 7168 x 2048 = 44,040,192 and a 7168 x 256 router: 11,320,164,352. With
        // norms of 14,336 a layer: 3 x 583,481,344 + 58 x 11,507,283,968 = 669,172,914,176, and
        // 2 x 129,280 x 7168 = 1,853,358,080 of embeddings and the final norm's 7168:
        // 671,026,279,424 (report: 671 B). A token passes the attention and norms on 61 layers
        // (11,414,296,576), the dense MLP on 3 (1,189,085,184), 9 experts on 58 (22,988,980,224)
        // and the embeddings: 37,445,727,232 (report: 37 B).
        static const Catalog catalog = shippedCatalog();
        const ModelSpec &model = catalog.llm("deepseek-v3");
        QVERIFY(model.latentAttention());
        const TransformerShape shape = TransformerShape::fromModel(model);
        QCOMPARE(shape.attentionParametersPerLayer(), 187105280.0);
        QCOMPARE(shape.totalParameters(), 671026279424.0);
        QCOMPARE(shape.activeParameters(), 37445727232.0);
        // A query meets a key over 128 x 192 = 24,576 values and weighs the values over 128 x 128
        // = 16,384: 4 x 20,480 FLOPs a key, and the attention reads 40,960 key and value
        // elements a token once they are up-projected.
        QCOMPARE(shape.attentionWidth(), 20480.0);
        QCOMPARE(shape.kvWidth(), 40960.0);
        // Training adds one multi-token prediction block (config.json num_nextn_predict_layers
        // 1), an MoE layer: attention 187,105,280, 257 experts of 3 x 7168 x 2048 =
        // 11,318,329,344, the router 7168 x 256 = 1,835,008 and two norms 14,336; the 2h x h
        // projection 102,760,448 and three norms 21,504: 11,610,065,920, outside the card's 671 B.
        QCOMPARE(model.mtpLayers, 1);
        QCOMPARE(shape.mtpBlockParameters(), 11610065920.0);
        QCOMPARE(shape.totalParameters(), 671026279424.0);
    }

    void chunkedAttentionKeysPerQuery()
    {
        // 8,192-token chunks over 20,000 positions: two whole chunks whose positions attend
        // 0..8191 keys (8,192^2 / 2 each) and a last chunk of 3,616 (3,616^2 / 2): (67,108,864 +
        // 6,537,728) / 20,000 = 3,682.3296 keys per query in the continuous sums.
        const LocalAttention chunks = LocalAttention::chunks(8192);
        QCOMPARE(causalKeysPerQuery(20000, chunks), 3682.3296);
        QCOMPARE(causalKeysPerQuery(5000, chunks), 2500.0); // inside the first chunk: causal
        // Position 20,000 sees the 3,616 tokens of its chunk; the cache holds at most a chunk.
        QCOMPARE(attendedTokens(20000, chunks), 3616.0);
        QCOMPARE(cachedTokens(20000, chunks), 8192.0);
        QCOMPARE(cachedTokens(5000, chunks), 5000.0);
        // 400 queries after 8,000 cached tokens cross a chunk boundary: 192 attend 8,000..8,192
        // keys (8,096 on average), 208 a new chunk's 0..208 (104): (1,554,432 + 21,632) / 400.
        QCOMPARE(chunkKeysPerQuery(8000, 400, chunks), 3940.16);
    }

    void llama4ChunksThreeOfFourLayers()
    {
        // Llama 4 Scout: 36 of 48 layers attend 8,192-token chunks, every fourth layer the whole
        // context. At a million tokens of context the mean layer keeps (1,000,000 + 3 x 8,192) /
        // 4 = 256,144 tokens' K/V. Generating 1,000 tokens after a 20,000-token prompt, a token
        // attends 20,500 keys on a global layer and, at positions 20,000..21,000 = 3,616..4,616
        // into the third chunk, 4,116 on a chunked one: (20,500 + 3 x 4,116) / 4 = 8,212.
        static const Catalog catalog = shippedCatalog();
        const ModelSpec &model = catalog.llm("llama-4-scout");
        QCOMPARE(model.attentionChunk, 8192);
        QCOMPARE(model.localAttentionLayers(), 36);
        const TransformerShape shape = TransformerShape::fromModel(model);
        QCOMPARE(shape.attendedContext(1000000), 256144.0);
        QCOMPARE(shape.decodeAttendedKeys(20000, 1000), 8212.0);
    }

    void anEncoderAttendsEveryPosition()
    {
        // ViT-Huge/14's patches attend each other both ways (Dosovitskiy et al. 2021, eq. 2-4):
        // a pass over its 256 positions reads all 256 keys per query, where a decoder's causal
        // pass reads half of them on average, 256 / 2 = 128 (the continuous sum).
        static const Catalog catalog = shippedCatalog();
        const ModelSpec &vit = catalog.llm("vit-h-14");
        QVERIFY(vit.bidirectionalAttention);
        const TransformerShape encoder = TransformerShape::fromModel(vit);
        QCOMPARE(encoder.attendedKeysPerQuery(256), 256.0);
        TransformerShape decoder = encoder;
        decoder.bidirectionalAttention = false;
        QCOMPARE(decoder.attendedKeysPerQuery(256), 128.0);
        // MFU counts the full context either way (Megatron's and PaLM's convention).
        QCOMPARE(encoder.attentionCoreFlopsPerToken(256), decoder.attentionCoreFlopsPerToken(256));
        QVERIFY(!catalog.llm("llama-3-8b").bidirectionalAttention);
    }

    void gptOssAlternatesWindowedAndFullLayers()
    {
        // gpt-oss-120b: 18 of 36 layers attend the latest 128 tokens, the others all of them.
        static const Catalog catalog = shippedCatalog();
        const ModelSpec &model = catalog.llm("gpt-oss-120b");
        QCOMPARE(model.slidingWindow, 128);
        QCOMPARE(model.localAttentionLayers(), 18);
        const TransformerShape shape = TransformerShape::fromModel(model);
        // At 32,000 tokens of context the mean layer keeps (32,000 + 128) / 2 = 16,064 tokens.
        QCOMPARE(shape.attendedContext(32000), 16064.0);
        // A 4096-token causal pass: 2048 keys per query on a full layer, 128 - 128^2 / 8192 = 126
        // on a windowed one; their mean is 1087.
        QCOMPARE(shape.attendedKeysPerQuery(4096), 1087.0);
        // MFU accounting: 4 x (4096 + 128) / 2 keys x 64 heads x 64 = 2,162,688 x 4 FLOPs.
        QCOMPARE(shape.attentionCoreFlopsPerToken(4096), 4.0 * 2112.0 * 4096.0);
        // A model with a window on every layer (Mistral 7B's 4096) is windowed throughout.
        ModelSpec mistral = catalog.llm("llama-3-8b");
        mistral.slidingWindow = 4096;
        QCOMPARE(mistral.localAttentionLayers(), 32);
        QCOMPARE(TransformerShape::fromModel(mistral).attendedContext(10000), 4096.0);
    }
};

QTEST_APPLESS_MAIN(TestTransformerShape)
#include "tst_transformershape.moc"
