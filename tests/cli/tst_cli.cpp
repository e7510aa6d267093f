// SPDX-License-Identifier: GPL-3.0-or-later
// Drives the real clusterplanner-cli executable: exit statuses, messages, JSON output.
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QTest>

#include <cmath>

namespace {
struct Result
{
    int status = -1;
    QByteArray out;
    QByteArray err;
};
/** `infer` of Llama 3 8B in FP8 on one H100 with the given prompt and output lengths. */
QStringList inferLlama3EightBOnH100(const char *inputTokens, const char *outputTokens)
{
    return {"infer",       "--gpu", "h100-sxm5-80gb", "--model",   "llama-3-8b",
            "--precision", "fp8",   "--input-tokens", inputTokens, "--output-tokens",
            outputTokens};
}
/** `infer` on one H100 in FP8 for a model given by Llama 3 8B's shape rather than its id. */
QStringList inferLlama3EightBShapeOnH100()
{
    return {"infer",   "--gpu",       "h100-sxm5-80gb", "--layers", "32",    "--hidden", "4096",
            "--heads", "32",          "--kv-heads",     "8",        "--ffn", "14336",    "--vocab",
            "128256",  "--gated-mlp", "--precision",    "fp8"};
}
} // namespace

class TestCli : public QObject
{
    Q_OBJECT

private:
    QTemporaryDir m_dir;

    Result run(const QStringList &arguments)
    {
        QProcess process;
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.insert(QStringLiteral("CLUSTERPLANNER_DB"),
                   m_dir.filePath(QStringLiteral("catalog.sqlite")));
        process.setProcessEnvironment(env);
        process.start(QStringLiteral(CP_CLI_PATH), arguments);
        if (!process.waitForFinished(120000))
            return {};
        return {process.exitCode(), process.readAllStandardOutput(),
                process.readAllStandardError()};
    }
    /** The number at `path` (nested object keys) in a --json run's output; -1 when it fails. */
    double jsonNumber(const QStringList &arguments, const QStringList &path)
    {
        const Result r = run(arguments);
        if (r.status != 0 || path.isEmpty())
            return -1.0;
        QJsonObject object = QJsonDocument::fromJson(r.out).object();
        for (qsizetype i = 0; i + 1 < path.size(); ++i)
            object = object.value(path[i]).toObject();
        return object.value(path.last()).toDouble(-1.0);
    }

    /** `train` on 8 H100s of a 32-layer, h = 4096, 32-head custom model with a 32,000-token
     * vocabulary, one 4,096-token sequence per GPU, TP 1 x PP 1 x DP 8. */
    static QStringList customModelTrainArguments()
    {
        return {"train",
                "--gpu",
                "h100-sxm5-80gb",
                "--gpus",
                "8",
                "--layers",
                "32",
                "--hidden",
                "4096",
                "--heads",
                "32",
                "--vocab",
                "32000",
                "--seq-len",
                "4096",
                "--global-batch",
                "8",
                "--tp",
                "1",
                "--pp",
                "1",
                "--dp",
                "8",
                "--microbatch",
                "1"};
    }

    /** Writes `content` to `path`; false when it cannot. */
    static bool writeText(const QString &path, const QByteArray &content)
    {
        QFile file(path);
        return file.open(QIODevice::WriteOnly | QIODevice::Truncate)
            && file.write(content) == content.size();
    }

    /** Exports the shipped sample `sampleFile` (in samples/) as a PDF named `pdfName` in the
     * test's directory, without the scaling study; the PDF's path, or empty when it failed. */
    QString exportSamplePdf(const QString &sampleFile, const QString &pdfName)
    {
        const QString pdf = m_dir.filePath(pdfName);
        const Result r
            = run({QStringLiteral("export"), QStringLiteral(CP_SOURCE_DIR "/samples/") + sampleFile,
                   QStringLiteral("--pdf"), pdf, QStringLiteral("--no-scaling")});
        return r.status == 0 ? pdf : QString();
    }

    /** `pdf`'s text as pdftotext gives it with `options` (-layout, -f N -l N). */
    static QByteArray pdfText(const QString &pdf, const QStringList &options = {})
    {
        QProcess process;
        process.start(QStringLiteral("pdftotext"),
                      options + QStringList {pdf, QStringLiteral("-")});
        process.waitForFinished(60000);
        return process.readAllStandardOutput();
    }

private slots:
    void catalogListGpusJson()
    {
        const Result r = run({QStringLiteral("catalog"), QStringLiteral("list"),
                              QStringLiteral("gpus"), QStringLiteral("--json")});
        QCOMPARE(r.status, 0);
        const QJsonArray gpus = QJsonDocument::fromJson(r.out).array();
        QStringList ids;
        for (const auto &gpu : gpus)
            ids << gpu.toObject().value(QStringLiteral("id")).toString();
        for (const char *id :
             {"a100-sxm4-40gb", "a100-sxm4-80gb", "a100-pcie-80gb", "h100-sxm5-80gb",
              "h100-pcie-80gb", "h200-sxm-141gb", "b200-sxm-192gb", "l40s", "l4", "t4", "mi300x"})
            QVERIFY2(ids.contains(QLatin1String(id)), id);
    }

    void catalogListModelsSaysTheirAttention()
    {
        const Result r
            = run({QStringLiteral("catalog"), QStringLiteral("list"), QStringLiteral("models")});
        QCOMPARE(r.status, 0);
        QVERIFY2(r.out.contains("attention"), r.out.constData());
        QVERIFY2(r.out.contains("latent 512+64"), r.out.constData());
        QVERIFY2(r.out.contains("chunks 8192 on 36 of 48"), r.out.constData());
    }

    void usageErrorsExitTwo_data()
    {
        QTest::addColumn<QStringList>("arguments");
        QTest::addColumn<QString>("message");
        QTest::newRow("unknown flag")
            << QStringList {"train", "--gpu", "a100-sxm4-80gb", "--frobnicate", "3"}
            << "unknown option '--frobnicate'";
        QTest::newRow("missing value")
            << QStringList {"train", "--gpu"} << "option '--gpu' needs a value";
        QTest::newRow("bad integer")
            << QStringList {"train", "--gpu", "h100-sxm5-80gb", "--gpus", "many"}
            << "option '--gpus': expected an integer, found 'many'";
        QTest::newRow("unknown gpu")
            << QStringList {"train",      "--gpu",     "h1000", "--gpus",         "8", "--model",
                            "llama-2-7b", "--seq-len", "4096",  "--global-batch", "64"}
            << "unknown GPU id 'h1000'";
        QTest::newRow("unknown model")
            << QStringList {"train",   "--gpu", "h100-sxm5-80gb", "--gpus", "8",
                            "--model", "gpt-9", "--seq-len",      "4096",   "--global-batch",
                            "64"}
            << "unknown model id 'gpt-9'";
        QTest::newRow("unknown command")
            << QStringList {"frobnicate"} << "unknown command 'frobnicate'";
        QTest::newRow("unknown kind")
            << QStringList {"catalog", "list", "gizmos"} << "unknown kind 'gizmos'";
        QTest::newRow("unknown id")
            << QStringList {"catalog", "show", "nope"} << "unknown catalog id 'nope'";
        QTest::newRow("infer flag")
            << QStringList {"infer", "--gpu", "l4", "--speed", "9"} << "unknown option '--speed'";
        QTest::newRow("infer gpu")
            << QStringList {"infer",      "--gpu",           "l5",  "--model",
                            "llama-3-8b", "--precision",     "fp8", "--input-tokens",
                            "10",         "--output-tokens", "10"}
            << "unknown GPU id 'l5'";
        QTest::newRow("fabric value")
            << QStringList {"fabric", "--topology"} << "option '--topology' needs a value";
        QTest::newRow("fabric topology")
            << QStringList {"fabric", "--topology", "ring"} << "'ring' is not one of";
        QTest::newRow("recompute choice") << QStringList {
            "train",      "--gpu",     "h100-sxm5-80gb", "--gpus",         "8",  "--model",
            "llama-2-7b", "--seq-len", "4096",           "--global-batch", "64", "--recompute",
            "some"} << "option '--recompute': 'some' is not one of none|selective|full";
        QTest::newRow("expert groups") << QStringList {"train",
                                                       "--gpu",
                                                       "h100-sxm5-80gb",
                                                       "--gpus",
                                                       "8",
                                                       "--layers",
                                                       "4",
                                                       "--hidden",
                                                       "1024",
                                                       "--heads",
                                                       "16",
                                                       "--vocab",
                                                       "1000",
                                                       "--experts",
                                                       "16",
                                                       "--top-k",
                                                       "4",
                                                       "--expert-groups",
                                                       "5",
                                                       "--expert-groups-per-token",
                                                       "1",
                                                       "--seq-len",
                                                       "1024",
                                                       "--global-batch",
                                                       "8"}
                                       << "--expert-groups: must divide the 16 experts";
        QTest::newRow("moe dispatcher") << QStringList {"train",
                                                        "--gpu",
                                                        "h100-sxm5-80gb",
                                                        "--gpus",
                                                        "8",
                                                        "--model",
                                                        "mixtral-8x7b",
                                                        "--seq-len",
                                                        "4096",
                                                        "--global-batch",
                                                        "8",
                                                        "--moe-dispatcher",
                                                        "nccl"}
                                        << "option '--moe-dispatcher': 'nccl' is not one of";
        QTest::newRow("cross-entropy kernel")
            << QStringList {"train",          "--gpu",     "h100-sxm5-80gb",
                            "--gpus",         "8",         "--model",
                            "llama-2-7b",     "--seq-len", "4096",
                            "--global-batch", "64",        "--cross-entropy",
                            "liger"}
            << "option '--cross-entropy': 'liger' is not one of";
        QTest::newRow("recompute module")
            << QStringList {"train",          "--gpu",     "h100-sxm5-80gb",
                            "--gpus",         "8",         "--model",
                            "llama-2-7b",     "--seq-len", "4096",
                            "--global-batch", "64",        "--recompute-modules",
                            "layernorm,attn"}
            << "--recompute-modules: unknown recompute module \"attn\"";
        QTest::newRow("recompute modules with full")
            << QStringList {"train",
                            "--gpu",
                            "h100-sxm5-80gb",
                            "--gpus",
                            "8",
                            "--model",
                            "llama-2-7b",
                            "--seq-len",
                            "4096",
                            "--global-batch",
                            "64",
                            "--recompute",
                            "full",
                            "--recompute-modules",
                            "layernorm"}
            << "--recompute-modules needs --recompute selective";
        // 10^30 tokens gave run times of 10^19 days and costs of $5.5 billion trillion: the
        // count has a ceiling, 10^16 tokens, over 600 times the largest published run.
        QTest::newRow("tokens beyond any run")
            << QStringList {"train",
                            "--gpu",
                            "h100-sxm5-80gb",
                            "--gpus",
                            "8",
                            "--model",
                            "llama-3-8b",
                            "--seq-len",
                            "4096",
                            "--global-batch",
                            "8",
                            "--tokens",
                            "1e30"}
            << "option '--tokens': must be at most 10,000,000,000,000,000, found 1e30";
        // Limits read as people write them, not as "0.000000 and 1.000000".
        QTest::newRow("fraction limits") << QStringList {
            "train",      "--gpu",     "h100-sxm5-80gb", "--gpus",         "8", "--model",
            "llama-3-8b", "--seq-len", "4096",           "--global-batch", "8", "--dp-overlap",
            "2"} << "option '--dp-overlap': must be between 0 and 1, found 2";
    }

    void usageErrorsExitTwo()
    {
        QFETCH(QStringList, arguments);
        QFETCH(QString, message);
        const Result r = run(arguments);
        QCOMPARE(r.status, 2);
        QVERIFY2(r.err.contains(message.toUtf8()), r.err.constData());
        QCOMPARE(r.err.count('\n'), 1); // one line
    }

    void explainListsTheOperations()
    {
        // train --explain prints the per-operation table; the same list is in the JSON.
        const Result train
            = run({"train", "--gpu", "h100-sxm5-80gb", "--gpus", "64", "--model", "llama-2-7b",
                   "--seq-len", "4096", "--global-batch", "256", "--tp", "2", "--explain"});
        QCOMPARE(train.status, 0);
        for (const char *text :
             {"Where the step time goes", "QKV projection", "attention (fused, causal)",
              "TP collectives, MLP block", "data-parallel gradient sync",
              "Software: Megatron-Core (2024)", "cross-entropy loss (Megatron, fused)"})
            QVERIFY2(train.out.contains(text), text);
        // --cross-entropy names the loss kernel a recipe chose; the table says which one ran.
        const Result te = run({"train", "--gpu", "h100-sxm5-80gb", "--gpus", "64", "--model",
                               "llama-2-7b", "--seq-len", "4096", "--global-batch", "256", "--tp",
                               "2", "--explain", "--cross-entropy", "te"});
        QCOMPARE(te.status, 0);
        QVERIFY(te.out.contains("cross-entropy loss (Transformer Engine)"));
        QVERIFY(!te.out.contains("cross-entropy loss (Megatron"));
        // --moe-dispatcher names the flex dispatcher's backend; the table says which one ran.
        const QStringList mixtralOnTwoNodes {
            "train",     "--gpu",    "h100-sxm5-80gb", "--gpus", "16",   "--model", "mixtral-8x7b",
            "--seq-len", "4096",     "--global-batch", "64",     "--tp", "2",       "--ep",
            "8",         "--explain"};
        const Result allToAll = run(mixtralOnTwoNodes);
        QCOMPARE(allToAll.status, 0);
        QVERIFY(allToAll.out.contains("MoE dispatch and combine all-to-all"));
        const Result hybrid = run(mixtralOnTwoNodes + QStringList {"--moe-dispatcher", "hybridep"});
        QCOMPARE(hybrid.status, 0);
        QVERIFY(hybrid.out.contains("MoE dispatch and combine (deduplicated, HybridEP)"));
        QVERIFY(!hybrid.out.contains("MoE dispatch and combine all-to-all"));
        // The 2021 profile has the unfused softmax and no overlap.
        const Result old = run({"train", "--gpu", "a100-sxm4-80gb", "--gpus", "64", "--model",
                                "llama-2-7b", "--seq-len", "2048", "--global-batch", "256",
                                "--framework", "megatron-lm-2021", "--tp", "2", "--explain"});
        QCOMPARE(old.status, 0);
        QVERIFY(old.out.contains("softmax and dropout on the scores"));
        QVERIFY(old.out.contains("cross-entropy loss (Megatron, unfused)"));
        const Result bad
            = run({"train", "--gpu", "a100-sxm4-80gb", "--gpus", "64", "--model", "llama-2-7b",
                   "--seq-len", "2048", "--global-batch", "256", "--framework", "megatron-1999"});
        QCOMPARE(bad.status, 2);
        // infer --explain, for a model given by its shape rather than a catalog id.
        const Result infer = run(inferLlama3EightBShapeOnH100()
                                 + QStringList {"--input-tokens", "512", "--output-tokens", "128",
                                                "--batch", "16", "--explain"});
        QCOMPARE(infer.status, 0);
        for (const char *text : {"Prefill of one prompt", "Decode step of 16 sequences",
                                 "decode attention (reads the K/V cache)", "sampler"})
            QVERIFY2(infer.out.contains(text), text);
        const Result json = run({"infer", "--gpu", "h100-sxm5-80gb", "--model", "llama-3-8b",
                                 "--precision", "fp8", "--input-tokens", "512", "--output-tokens",
                                 "128", "--batch", "16", "--json"});
        QCOMPARE(json.status, 0);
        const QJsonObject object = QJsonDocument::fromJson(json.out).object();
        QVERIFY(object.value(QStringLiteral("decode_operations")).toArray().size() >= 8);
    }

    void trainSetsItsEstimateAgainstPublishedRuns()
    {
        // catalogs/validation/training_validation.json holds twelve dense 16-bit H100 runs: the
        // nine Megatron-Core weak-scaling rows and three Llama 3 405B rows, the fastest at
        // 489.1 of 989.4 TFLOP/s (49.4%), the slowest at 380 (38.4%).
        const QStringList job
            = {"train",      "--gpu",     "h100-sxm5-80gb", "--gpus",         "64", "--model",
               "llama-2-7b", "--seq-len", "4096",           "--global-batch", "256"};
        const Result text = run(job);
        QCOMPARE(text.status, 0);
        QVERIFY2(text.out.contains("published runs: 12 on the NVIDIA H100 SXM5 80GB (16-bit, "
                                   "dense) reached 38.4% to 49.4% MFU"),
                 text.out.constData());
        const Result json = run(job + QStringList {"--json"});
        QCOMPARE(json.status, 0);
        const QJsonObject published = QJsonDocument::fromJson(json.out)
                                          .object()
                                          .value(QStringLiteral("published_runs"))
                                          .toObject();
        QCOMPARE(published.value(QStringLiteral("runs")).toInt(), 12);
        QVERIFY(qAbs(published.value(QStringLiteral("highest_mfu")).toDouble() - 489.1 / 989.4)
                < 1e-12);
        QCOMPARE(published.value(QStringLiteral("above_every_run")).toBool(),
                 published.value(QStringLiteral("estimate_mfu")).toDouble() > 489.1 / 989.4);
        // No training run on an L40S was published: the estimate says so and still prints.
        const Result l40s = run({"train", "--gpu", "l40s", "--gpus", "8", "--model", "llama-2-7b",
                                 "--seq-len", "2048", "--global-batch", "64"});
        QCOMPARE(l40s.status, 0);
        QVERIFY2(l40s.out.contains("published runs: none to compare with (no published 16-bit "
                                   "training run on this GPU)"),
                 l40s.out.constData());
    }

    void inferSaysHowFarItWasFromPublishedMeasurements()
    {
        // catalogs/validation/inference_validation.json, counted by hand: 56 throughputs and 14
        // latencies at a given batch measured on the H100 with FP8 weights.
        const QStringList job = {"infer",
                                 "--gpu",
                                 "h100-sxm5-80gb",
                                 "--model",
                                 "llama-2-70b",
                                 "--precision",
                                 "fp8",
                                 "--input-tokens",
                                 "2048",
                                 "--output-tokens",
                                 "128",
                                 "--batch",
                                 "32",
                                 "--gpus-per-replica",
                                 "2"};
        const Result text = run(job);
        QCOMPARE(text.status, 0);
        QVERIFY2(text.out.contains("published measurements: on the NVIDIA H100 SXM5 80GB with FP8 "
                                   "weights the estimator was off by"),
                 text.out.constData());
        QVERIFY2(text.out.contains("on 56 throughputs; by"), text.out.constData());
        const Result json = run(job + QStringList {"--json"});
        QCOMPARE(json.status, 0);
        const QJsonObject published = QJsonDocument::fromJson(json.out)
                                          .object()
                                          .value(QStringLiteral("published_measurements"))
                                          .toObject();
        QCOMPARE(published.value(QStringLiteral("throughput_error"))
                     .toObject()
                     .value(QStringLiteral("rows"))
                     .toInt(),
                 56);
        QCOMPARE(published.value(QStringLiteral("latency_error"))
                     .toObject()
                     .value(QStringLiteral("rows"))
                     .toInt(),
                 14);
    }

    void trainJsonHasDocumentedKeys()
    {
        const Result r
            = run({"train", "--gpu", "h100-sxm5-80gb", "--gpus", "64", "--model", "llama-2-7b",
                   "--seq-len", "4096", "--global-batch", "256", "--tokens", "1T", "--json"});
        QCOMPARE(r.status, 0);
        const QJsonObject json = QJsonDocument::fromJson(r.out).object();
        for (const char *key : {"step_time_s",
                                "tokens_per_s",
                                "model_tflops_per_gpu",
                                "hw_tflops_per_gpu",
                                "mfu",
                                "comm_exposed_fraction",
                                "bubble_fraction",
                                "memory_gib_per_gpu",
                                "fits",
                                "training_days",
                                "gpu_hours",
                                "tp",
                                "pp",
                                "dp",
                                "microbatch",
                                "bottleneck",
                                "breakdown",
                                "power_kw",
                                "facility_power_kw",
                                "energy_mwh",
                                "cost_usd",
                                "goodput",
                                "interruptions_per_day",
                                "checkpoint_interval_min"})
            QVERIFY2(json.contains(QLatin1String(key)), key);
        // Facility power is IT power x the default facility's PUE (1.58).
        QCOMPARE(json.value(QStringLiteral("facility_power_kw")).toDouble(),
                 json.value(QStringLiteral("power_kw")).toDouble() * 1.58);
        // 64 H100 at 50,000 h (0.03072 a day), 8 nodes at 100,000 h (0.00192), 64 NICs at
        // 1,000,000 h (0.001536) and the one 64-port QM9700 the 64 NICs need at 500,000 h
        // (0.000048): 0.034224 interruptions a day, an MTBF of 2,524,544 s.
        const double interruptions = json.value(QStringLiteral("interruptions_per_day")).toDouble();
        QVERIFY2(qAbs(interruptions - 0.034224) < 1e-9, qPrintable(QString::number(interruptions)));
        // Checkpoint: 14 bytes x 6.74 B parameters = 94.4 GB, written at the Lustre appliance's
        // 65 GB/s in C = 1.452 s and read back at 90 GB/s in 1.05 s. Daly: tau = sqrt(2 C M)
        // (2,707.9 s) x (1 + 0.000179) - C = 2,706.95 s = 45.12 min; goodput = tau / (M
        // e^(601.05 / M) (e^((tau + C) / M) - 1)) = 0.99869 (to first order 1 - C / tau - (tau /
        // 2 + 601.05 s) / M = 1 - 0.000536 - 0.000774).
        QVERIFY(qAbs(json.value(QStringLiteral("checkpoint_interval_min")).toDouble() / 45.12 - 1)
                < 1e-3);
        const double goodput = json.value(QStringLiteral("goodput")).toDouble();
        QVERIFY2(qAbs(goodput - 0.99869) < 1e-5, qPrintable(QString::number(goodput, 'g', 8)));
        QVERIFY(json.value(QStringLiteral("energy_mwh")).toDouble() > 0);
        QVERIFY(json.value(QStringLiteral("cost_usd")).toDouble() > 0);
        QVERIFY(json.value(QStringLiteral("fits")).toBool());
        // The figures agree with each other as their definitions say: MFU is model TFLOP/s over
        // the H100's 989.4 TFLOP/s dense BF16 peak (datasheet); a step trains 256 x 4096
        // tokens; 1 T tokens at that rate take training_days, on 64 GPUs for gpu_hours.
        const double modelTflops = json.value(QStringLiteral("model_tflops_per_gpu")).toDouble();
        QVERIFY(qAbs(json.value(QStringLiteral("mfu")).toDouble() - modelTflops / 989.4) < 1e-4);
        const double tokensPerSecond = json.value(QStringLiteral("tokens_per_s")).toDouble();
        QVERIFY(qAbs(tokensPerSecond * json.value(QStringLiteral("step_time_s")).toDouble()
                         / (256.0 * 4096)
                     - 1)
                < 1e-9);
        const double days = json.value(QStringLiteral("training_days")).toDouble();
        QVERIFY(qAbs(days * 86400 * tokensPerSecond / 1e12 - 1) < 1e-9);
        QVERIFY(qAbs(json.value(QStringLiteral("gpu_hours")).toDouble() / (days * 24 * 64) - 1)
                < 1e-9);
    }

    /**
     * A ViT-H/14-style run (32 layers of 1280, 256 patches per image, 1,000 classes) on 1,024
     * H100 reading ImageNet JPEGs. The catalog gives, per first epoch:
     *   NFS server: 5 GB/s / 115,440 B = 43,313 images/s of read bandwidth; 200,000 NFS ops/s
     *   / (1 READ + 3 to open) = 50,000 images/s.
     *   Lustre appliance: 90 GB/s / 115,440 B = 779,626 images/s; 3 M reads/s; its metadata
     *   service's 500,000 ops/s / 2 per open = 250,000 images/s.
     * The GPUs' demand comes from the estimate (its images/s), so each utilisation is that demand
     * over the capacity above.
     */
    void visionRunIsStorageBoundOnNfsOnly()
    {
        const QStringList run1024 = {"train",     "--gpu",     "h100-sxm5-80gb",
                                     "--gpus",    "1024",      "--layers",
                                     "32",        "--hidden",  "1280",
                                     "--heads",   "16",        "--ffn",
                                     "5120",      "--vocab",   "1000",
                                     "--seq-len", "256",       "--global-batch",
                                     "4096",      "--dataset", "imagenet-1k-jpeg",
                                     "--json",    "--top",     "0"};
        const Result nfs = run(run1024 + QStringList {"--storage", "nfs-server"});
        QCOMPARE(nfs.status, 0);
        const QJsonObject feed = QJsonDocument::fromJson(nfs.out).object()["data_feed"].toObject();
        const double demand = feed["samples_per_s"].toDouble();
        QVERIFY2(demand > 50000, "the GPUs must want more than the NFS server gives");
        const QJsonObject stages = feed["stage_utilisation"].toObject();
        QVERIFY(qAbs(stages["storage read bandwidth"].toDouble() / (demand / (5e9 / 115440)) - 1)
                < 1e-9);
        QVERIFY(qAbs(stages["storage IOPS"].toDouble() / (demand / 50000.0) - 1) < 1e-9);
        QCOMPARE(feed["limiting_stage"].toString(), QStringLiteral("storage read bandwidth"));
        // Both the bytes and the NFS operations are over what the server sustains, slowest first.
        QVERIFY2(feed["starving_stages"].toString().contains(QRegularExpression(QStringLiteral(
                     "^storage read bandwidth \\(\\d+%\\) and storage IOPS \\(\\d+%\\)$"))),
                 qPrintable(feed["starving_stages"].toString()));
        // The first epoch is fed at 43,313 images/s; the stall is the rest of the demand.
        QVERIFY(qAbs(feed["first_epoch_stall_fraction"].toDouble() - (1 - (5e9 / 115440) / demand))
                < 1e-9);
        QVERIFY(feed["advice"].toString().contains(QStringLiteral("add storage systems")));
        // 148 GB of JPEGs fit each DGX H100's 30.72 TB of NVMe, but every one of the 300 epochs
        // reshuffles them over the 128 nodes: a node finds in epoch e what its earlier epochs
        // dealt it, 1 - q^(e - 1) with q = 127/128. Over epochs 2 to 300 that is on average
        // 1 - q (1 - q^299) / ((1 - q) 299) = 0.61596, and epoch 2's 0.8% hits leave it starved.
        const double q = 127.0 / 128.0;
        QVERIFY(qAbs(feed["cache_hit_ratio"].toDouble()
                     - (1 - q * (1 - std::pow(q, 299)) / ((1 - q) * 299)))
                < 1e-9);
        QVERIFY(feed["warm_stall_fraction"].toDouble() > 0);
        for (const char *key :
             {"dataset", "required_read_gb_per_s", "required_iops", "limiting_stage",
              "stage_utilisation", "stall_fraction", "cpu_cores_needed_per_node"})
            QVERIFY2(feed.contains(QLatin1String(key)), key);
        QVERIFY(qAbs(feed["required_read_gb_per_s"].toDouble() - demand * 115440 / 1e9) < 1e-6);
        // Decode: 2.75 core-ms per image over 128 nodes, plus one core per GPU.
        QVERIFY(qAbs(feed["cpu_cores_needed_per_node"].toDouble() - (demand / 128 * 2.75e-3 + 8))
                < 1e-9);

        // Capacity is no limit (148 GB of images and two checkpoints in 500 TB); the feed needs
        // ceil(demand / 43,313) NFS servers.
        const QJsonObject nfsJson = QJsonDocument::fromJson(nfs.out).object();
        QCOMPARE(nfsJson["storage_systems_needed"].toInt(),
                 static_cast<int>(std::ceil(demand / (5e9 / 115440))));
        const double checkpointGb = nfsJson["operations"].toObject()["checkpoint_gb"].toDouble();
        QVERIFY(qAbs(nfsJson["stored_tb"].toDouble()
                     - (1281167.0 * 115440 / 1e12 + 2 * checkpointGb / 1e3))
                < 1e-9);

        // The plan estimate carries the same run for the sample plan (128 GPUs on the NFS
        // server): its storage systems follow from its own demand.
        const Result planResult = run(
            {"plan", "estimate",
             QStringLiteral(CP_SOURCE_DIR "/samples/h100-128-vit-imagenet-nfs.json"), "--json"});
        QCOMPARE(planResult.status, 0);
        const QJsonObject planRun = QJsonDocument::fromJson(planResult.out)
                                        .object()["training"]
                                        .toObject()["run"]
                                        .toObject();
        const QJsonObject planFeed = planRun["data_feed"].toObject();
        QCOMPARE(planFeed["dataset"].toString(),
                 QStringLiteral("ImageNet-1k, one JPEG file per image"));
        QCOMPARE(
            planRun["storage_systems_needed"].toInt(),
            static_cast<int>(std::ceil(planFeed["samples_per_s"].toDouble() / (5e9 / 115440))));

        const Result lustre = run(run1024 + QStringList {"--storage", "lustre-exascaler"});
        QCOMPARE(lustre.status, 0);
        const QJsonObject lustreFeed
            = QJsonDocument::fromJson(lustre.out).object()["data_feed"].toObject();
        QCOMPARE(lustreFeed["stall_fraction"].toDouble(), 0.0);
        QVERIFY(qAbs(lustreFeed["stage_utilisation"].toObject()["metadata"].toDouble()
                         / (demand / 250000.0)
                     - 1)
                < 1e-9);
    }

    /**
     * Llama 2 7B on 16 H100 (2 DGX nodes) with its packed text tokens on the NFS server: 4 bytes a
     * token is a trickle, never a stall. The checkpoint (14 bytes per parameter) is written by
     * both nodes at once, each through one NFS mount of 1.28 GB/s: 2.56 GB/s, below the server's
     * 3 GB/s write and 5 GB/s read, so the burst and the restore both take bytes / 2.56 GB/s.
     */
    void textRunOnNfsIsNotStorageBoundAndCheckpointsAtTheClientsRate()
    {
        const Result r
            = run({"train", "--gpu", "h100-sxm5-80gb", "--gpus", "16", "--model", "llama-2-7b",
                   "--seq-len", "4096", "--global-batch", "256", "--dataset", "text-token-shards",
                   "--storage", "nfs-server", "--json", "--top", "0"});
        QCOMPARE(r.status, 0);
        const QJsonObject json = QJsonDocument::fromJson(r.out).object();
        const QJsonObject feed = json["data_feed"].toObject();
        QCOMPARE(feed["stall_fraction"].toDouble(), 0.0);
        QVERIFY(qAbs(feed["required_read_gb_per_s"].toDouble()
                     - json["tokens_per_s"].toDouble() * 4 / 1e9)
                < 1e-9);
        const double checkpointBytes
            = json["operations"].toObject()["checkpoint_gb"].toDouble() * 1e9;
        QVERIFY(qAbs(json["checkpoint_burst_s"].toDouble() / (checkpointBytes / 2.56e9) - 1)
                < 1e-9);
        QVERIFY(qAbs(json["restore_s"].toDouble() / (checkpointBytes / 2.56e9) - 1) < 1e-9);
        QCOMPARE(json["checkpoint_mode"].toString(), QStringLiteral("sync"));
        // Asynchronous: each of the 16 GPUs copies 1/16 of the checkpoint over its 64 GB/s
        // PCIe Gen5 link, each node stages half; the write itself is unchanged.
        const Result async
            = run({"train", "--gpu", "h100-sxm5-80gb", "--gpus", "16", "--model", "llama-2-7b",
                   "--seq-len", "4096", "--global-batch", "256", "--storage", "nfs-server",
                   "--async-checkpoint", "--json", "--top", "0"});
        QCOMPARE(async.status, 0);
        const QJsonObject asyncJson = QJsonDocument::fromJson(async.out).object();
        QCOMPARE(asyncJson["checkpoint_mode"].toString(), QStringLiteral("async"));
        QVERIFY(
            qAbs(asyncJson["checkpoint_blocked_s"].toDouble() / (checkpointBytes / 16 / 64e9) - 1)
            < 1e-9);
        QVERIFY(
            qAbs(asyncJson["checkpoint_host_gb_per_node"].toDouble() - checkpointBytes / 2 / 1e9)
            < 1e-6);
        QVERIFY(asyncJson["goodput"].toDouble() > json["goodput"].toDouble());
        // Without a dataset the key is there, empty.
        const Result plain
            = run({"train", "--gpu", "h100-sxm5-80gb", "--gpus", "16", "--model", "llama-2-7b",
                   "--seq-len", "4096", "--global-batch", "256", "--json", "--top", "0"});
        QVERIFY(QJsonDocument::fromJson(plain.out).object()["data_feed"].isNull());
        // An unknown dataset names the known ones.
        const Result bad
            = run({"train", "--gpu", "h100-sxm5-80gb", "--gpus", "16", "--model", "llama-2-7b",
                   "--seq-len", "4096", "--global-batch", "256", "--dataset", "no-such-set"});
        QVERIFY(bad.status != 0);
        QVERIFY2(bad.err.contains("imagenet-1k-jpeg"), bad.err.constData());
    }

    void planSimulateSharedCluster()
    {
        // A tenth of a year of the shared-cluster sample: the documented keys, the same figures
        // for the same seed, other figures for another, and strict FIFO no better than backfill.
        const QString sample
            = QStringLiteral(CP_SOURCE_DIR "/samples/h100-2048-shared-cluster.json");
        const QStringList args = {"plan", "simulate", sample, "--years", "0.1", "--json"};
        const Result first = run(args + QStringList {"--seed", "5"});
        QCOMPARE(first.status, 0);
        const QJsonObject json = QJsonDocument::fromJson(first.out).object();
        for (const char *key : {"utilisation", "useful_utilisation", "wait_p95_h", "fragmentation",
                                "slo_attainment", "offered_load", "classes", "interruptions"})
            QVERIFY2(json.contains(QLatin1String(key)), key);
        QCOMPARE(json["gpus"].toInt(), 2048);
        // A rail fabric's scalable unit of 32 servers is the lowest switch group.
        QCOMPARE(json["servers_per_leaf"].toInt(), 32);
        QCOMPARE(json["wait_p95_h"].toObject().size(), 5);
        QVERIFY(json["useful_utilisation"].toDouble() <= json["utilisation"].toDouble());
        // The sample's chat service: replica-hours served over asked for, a fraction.
        const double attainment = json["slo_attainment"].toDouble(-1);
        QVERIFY2(attainment > 0 && attainment <= 1, qPrintable(QString::number(attainment)));
        const QJsonObject chat = json["services"].toArray().at(0).toObject();
        QCOMPARE(chat["name"].toString(), QStringLiteral("chat assistant"));
        QVERIFY(
            qAbs(chat["served_replica_hours"].toDouble() / chat["demanded_replica_hours"].toDouble()
                 - chat["attainment"].toDouble())
            < 1e-12);
        const Result again = run(args + QStringList {"--seed", "5"});
        QJsonObject a = QJsonDocument::fromJson(again.out).object();
        QJsonObject b = json;
        a.remove(QStringLiteral("seconds"));
        b.remove(QStringLiteral("seconds"));
        QCOMPARE(a, b);
        const Result other = run(args + QStringList {"--seed", "6"});
        QVERIFY(QJsonDocument::fromJson(other.out).object()["utilisation"] != json["utilisation"]);
        // --seeds 2 runs seeds 5 and 6: its first run is the seed-5 run above, whole, and the
        // spread of a class's p95 wait lies between the two single runs' figures.
        const Result seeds = run(args + QStringList {"--seed", "5", "--seeds", "2"});
        QCOMPARE(seeds.status, 0);
        QJsonObject both = QJsonDocument::fromJson(seeds.out).object();
        const QJsonObject spread = both.take(QStringLiteral("seed_spread")).toObject();
        both.remove(QStringLiteral("seconds"));
        QCOMPARE(both, b);
        QCOMPARE(spread["seeds"].toInt(), 2);
        QCOMPARE(spread["first_seed"].toInt(), 5);
        const QJsonObject sixth = QJsonDocument::fromJson(other.out).object();
        const QJsonArray spreadClasses = spread["classes"].toArray();
        QCOMPARE(spreadClasses.size(), 5);
        for (const QJsonValue &value : spreadClasses) {
            const QJsonObject c = value.toObject();
            const QString name = c["name"].toString();
            const double five = json["wait_p95_h"].toObject()[name].toDouble();
            const double six = sixth["wait_p95_h"].toObject()[name].toDouble();
            const QJsonObject p95 = c["wait_p95_h"].toObject();
            QCOMPARE(p95["lowest"].toDouble(), std::min(five, six));
            QCOMPARE(p95["highest"].toDouble(), std::max(five, six));
            QCOMPARE(p95["median"].toDouble(), (five + six) / 2);
        }
        const Result seedsText
            = run({"plan", "simulate", sample, "--years", "0.1", "--seeds", "2"});
        QVERIFY2(seedsText.out.contains("The same plan over 2 seeds (1 to 2)"),
                 seedsText.out.right(1500).constData());
        QVERIFY(run({"plan", "simulate", sample, "--seeds", "11"}).status != 0);
        const Result fifo = run(args + QStringList {"--seed", "5", "--policy", "fifo"});
        QCOMPARE(QJsonDocument::fromJson(fifo.out).object()["policy"].toString(),
                 QStringLiteral("fifo"));
        // The servers a class's p95 wait target needs: within the bisection's range, at the
        // target there; CLASS=HOURS is checked before anything runs.
        const Result sized = run({"plan", "simulate", sample, "--target-wait", "research=24",
                                  "--years", "0.05", "--json"});
        QCOMPARE(sized.status, 0);
        const QJsonObject sizing = QJsonDocument::fromJson(sized.out).object();
        QVERIFY(sizing["servers"].toInt() >= 1 && sizing["servers"].toInt() <= 256 * 16);
        // The first group ("compute") is sized; the 32 "dev" servers stay.
        QCOMPARE(sizing["gpus"].toInt(), 8 * (sizing["servers"].toInt() + 32));
        QVERIFY(sizing["wait_p95_h"].toDouble() <= 24);
        const Result noHours = run({"plan", "simulate", sample, "--target-wait", "research"});
        QCOMPARE(noHours.status, 2);
        QVERIFY2(noHours.err.contains("expected CLASS=HOURS"), noHours.err.constData());
        // A portfolio of 10 million jobs a day would take minutes a year: refused with the
        // limit, not started.
        QTemporaryDir dir;
        const QString flood = dir.filePath(QStringLiteral("flood.json"));
        QVERIFY(writeText(flood, R"({"format": "clusterplanner-plan", "version": 1, "name": "flood",
            "nodes": [{"name": "gpu", "node": "dgx-h100", "count": 4}],
            "fabric": {"topology": "none"},
            "portfolio": {"classes": [{"name": "tiny", "gpus": 1, "runtime_h": 0.01,
                                        "per_day": 10000000}]}})"));
        const Result refused = run({"plan", "simulate", flood});
        QCOMPARE(refused.status, 3);
        QVERIFY2(refused.err.contains("at most 20,000,000 are simulated"), refused.err.constData());
        // Named with the file and the entry that brings them, as a parse error would be.
        QVERIFY2(
            QString::fromUtf8(refused.err)
                .contains(flood + ": /portfolio/classes/0/per_day: the portfolio brings about"),
            refused.err.constData());
        // A service whose replica is larger than the plan: its entry's pointer.
        const QString wide = dir.filePath(QStringLiteral("wide.json"));
        QVERIFY(writeText(wide, R"({"format": "clusterplanner-plan", "version": 1, "name": "wide",
            "nodes": [{"name": "gpu", "node": "dgx-h100", "count": 4}],
            "fabric": {"topology": "none"},
            "portfolio": {"classes": [], "services": [{"name": "chat", "gpus_per_replica": 64,
                                                       "replicas": 1}]}})"));
        const Result tooWide = run({"plan", "simulate", wide});
        QCOMPARE(tooWide.status, 3);
        QVERIFY2(QString::fromUtf8(tooWide.err)
                     .contains(wide
                               + ": /portfolio/services/0/gpus_per_replica: service 'chat' needs "
                                 "64 GPUs a replica; the plan has 32"),
                 tooWide.err.constData());
        // A plan without a portfolio has nothing to simulate: exit 3 with the reason.
        const Result none
            = run({"plan", "simulate",
                   QStringLiteral(CP_SOURCE_DIR "/samples/h100-1024-ndr-rail-fat-tree.json")});
        QCOMPARE(none.status, 3);
        QVERIFY2(none.err.contains("no portfolio"), none.err.constData());
    }

    void fabricFailuresCountEachListedCable()
    {
        // 1,024 endpoints on radix-64 switches, non-blocking: 32 leaves of 32 up ports on 16
        // spines, two parallel cables from each leaf to each spine. The bisection is 512 x
        // 400 Gb/s = 204,800 Gb/s; each failed leaf uplink takes 400 Gb/s off it: one cable
        // 204,400, both 204,000. A third listing has no cable left to take.
        const QStringList fabric
            = {"fabric", "--topology", "fat-tree", "--endpoints", "1024", "--json", "--fail-link"};
        const auto bisection = [&](const QString &failed) {
            return jsonNumber(fabric + QStringList {failed}, {"bisection_gbps"});
        };
        QCOMPARE(bisection(QStringLiteral("leaf-0:spine-5")), 204400.0);
        QCOMPARE(bisection(QStringLiteral("leaf-0:spine-5,spine-5:leaf-0")), 204000.0);
        const Result third
            = run(fabric + QStringList {"leaf-0:spine-5,leaf-0:spine-5,leaf-0:spine-5"});
        QCOMPARE(third.status, 3);
        QVERIFY2(third.err.contains("3 times; only 2 cables join them"), third.err.constData());
        // Shortest paths in a torus number as a binomial of the hops in each dimension: the
        // farthest chips of a 724 x 724 torus, 362 + 362 hops apart, have C(724, 362), about
        // 10^216, between them. Past 10^9 the count is in exponent form, not 212 digits of which
        // all but 17 are noise.
        const Result torus = run({"fabric", "--topology", "torus", "--dims", "724x724"});
        QCOMPARE(torus.status, 0);
        QVERIFY2(QRegularExpression(
                     QStringLiteral("shortest paths per pair +mean \\d\\.\\d{3}e\\+2\\d\\d"))
                     .match(QString::fromUtf8(torus.out))
                     .hasMatch(),
                 torus.out.constData());
        // --endpoints 0 was read as "not given" and built the largest three-tier fat-tree.
        const Result zero = run({"fabric", "--topology", "fat-tree", "--endpoints", "0"});
        QCOMPARE(zero.status, 3);
        QVERIFY2(zero.err.contains("endpoints must be positive, not 0"), zero.err.constData());
    }

    void trainRefusesOptionsThatWouldChangeNothing()
    {
        // Expert options on a dense model, and the link between buildings with one building,
        // were accepted and changed nothing.
        const QStringList train
            = {"train",       "--gpu",     "h100-sxm5-80gb", "--gpus",         "64", "--model",
               "llama-3-70b", "--seq-len", "8192",           "--global-batch", "64"};
        const Result dense = run(train + QStringList {"--moe-dispatcher", "deepep"});
        QCOMPARE(dense.status, 2);
        QVERIFY2(dense.err.contains("--moe-dispatcher applies to mixture-of-experts models; "
                                    "Llama 3 70B is dense"),
                 dense.err.constData());
        const Result link = run(train + QStringList {"--interconnect-tbps", "100"});
        QCOMPARE(link.status, 2);
        QVERIFY2(link.err.contains("--interconnect-tbps describes the link between buildings: "
                                   "give --buildings"),
                 link.err.constData());
        // Fewer tokens than one step (64 x 8,192 = 524,288) and more spares than the job's 8
        // nodes were accepted: "training time 0.414 us", capital of $378 B.
        const Result half = run(train + QStringList {"--tokens", "0.5"});
        QCOMPARE(half.status, 2);
        QVERIFY2(half.err.contains("--tokens 0.5 is less than one step's 524,288 tokens"),
                 half.err.constData());
        const Result spares = run(train + QStringList {"--spare-nodes", "1048576"});
        QCOMPARE(spares.status, 2);
        QVERIFY2(spares.err.contains("--spare-nodes 1048576 is more than the 8 nodes of the job"),
                 spares.err.constData());
        // A fixed layout is one layout searched, in the singular.
        const Result fixed
            = run(train
                  + QStringList {"--tp", "8", "--pp", "1", "--dp", "8", "--cp", "1", "--microbatch",
                                 "1", "--recompute", "full", "--zero", "1", "--interleave", "1"});
        QVERIFY2(fixed.out.contains("Searched 1 layout;"), fixed.out.constData());
        // On a mixture of experts the dispatcher is taken.
        QCOMPARE(run({"train", "--gpu", "h100-sxm5-80gb", "--gpus", "64", "--model", "mixtral-8x7b",
                      "--seq-len", "4096", "--global-batch", "64", "--moe-dispatcher", "deepep"})
                     .status,
                 0);
    }

    void everyGpuRanksPerTokenAndSaysWhatItLeavesOut()
    {
        // At a fixed batch each GPU's fleet serves a different load, so the ranking is per
        // million output tokens: it was per hour, and put an L4 at $0.497 a million first above
        // options at a fifth of that. GPUs left out are named with the reason.
        const QStringList all
            = {"infer", "--gpu",           "all", "--model", "llama-3-8b", "--input-tokens",
               "1024",  "--output-tokens", "256", "--batch", "8"};
        const Result json = run(all + QStringList {"--json"});
        QCOMPARE(json.status, 0);
        const QJsonObject object = QJsonDocument::fromJson(json.out).object();
        const QJsonArray options = object.value("options").toArray();
        QVERIFY(options.size() > 3);
        // Per token of the whole servers each fleet fills (an owner buys a server whole): the
        // fleet's own all-in cost per output token (prefill's share with it: ranked by the decode
        // share alone an int4 fleet dearer an hour came first) times its servers' cost over its
        // GPUs'.
        const auto perToken = [&](qsizetype i) {
            const QJsonObject o = options[i].toObject();
            return o.value("cost_per_million_output_tokens_all_in_usd").toDouble()
                * o.value("whole_servers_usd_per_hour").toDouble()
                / o.value("usd_per_hour").toDouble();
        };
        for (qsizetype i = 1; i < options.size(); ++i)
            QVERIFY(perToken(i - 1) <= perToken(i) * (1 + 1e-12));
        bool t4 = false;
        for (const QJsonValue &left : object.value("excluded").toArray())
            t4 = t4
                || (left.toObject().value("gpu_name").toString() == QStringLiteral("NVIDIA T4")
                    && left.toObject().value("reason").toString()
                        == QStringLiteral("no server type in the catalog carries it"));
        QVERIFY(t4);
        const Result text = run(all);
        QCOMPARE(text.status, 0);
        // A day's profile it would not apply is refused, not ignored (the output was the same
        // with and without it).
        const Result diurnal
            = run({"infer", "--gpu", "all", "--model", "llama-3-8b", "--input-tokens", "1024",
                   "--output-tokens", "256", "--rate", "10", "--diurnal-trough", "0.3"});
        QCOMPARE(diurnal.status, 2);
        QVERIFY2(diurnal.err.contains("--gpu all ranks fleets sized for the peak rate"),
                 diurnal.err.constData());
        QVERIFY2(text.out.contains("cheapest per million output tokens (all-in) first"),
                 text.out.constData());
        QVERIFY2(
            text.out.contains("not shown: NVIDIA T4: no server type in the catalog carries it"),
            text.out.constData());
    }

    void longLatenciesReadInTheirUnit()
    {
        // One L4 prefilling 4,000 tokens of Llama 3 8B and writing 4,000: the end-to-end latency
        // is some 4,000 x 50 ms = 200 s at least (the floor's decode step), so it reads in
        // minutes, not as "276.49 s"; a job of a trillion requests on one replica in days, and
        // its single request in the singular.
        const Result r
            = run({"infer", "--gpu", "l4", "--model", "llama-3-8b", "--precision", "fp16",
                   "--input-tokens", "4000", "--output-tokens", "4000", "--batch", "1"});
        QCOMPARE(r.status, 0);
        QVERIFY2(QRegularExpression(QStringLiteral("end-to-end latency +\\d\\.\\d\\d min"))
                     .match(QString::fromUtf8(r.out))
                     .hasMatch(),
                 r.out.constData());
        const Result one
            = run({"infer", "--gpu", "l4", "--model", "llama-3-8b", "--precision", "fp16",
                   "--input-tokens", "100", "--output-tokens", "100", "--requests", "1"});
        QCOMPARE(one.status, 0);
        QVERIFY2(one.out.contains("offline job") && one.out.contains(" 1 request"),
                 one.out.constData());
        QVERIFY2(!one.out.contains(" 1 requests"), one.out.constData());
    }

    void inferRefusesANodeOfAnotherGpu()
    {
        // --gpu h100 with --node dgx-a100 printed an A100 estimate under the H100's request.
        const Result r = run({"infer", "--gpu", "h100-sxm5-80gb", "--node", "dgx-a100", "--model",
                              "llama-3-8b", "--precision", "fp8", "--input-tokens", "128",
                              "--output-tokens", "128", "--batch", "1"});
        QCOMPARE(r.status, 2);
        QVERIFY2(r.err.contains("node 'dgx-a100' carries a100-sxm4-80gb, not h100-sxm5-80gb"),
                 r.err.constData());
    }

    void trainingMemoryFiguresAgree()
    {
        // Llama 3 70B at TP 4 x PP 4 x DP 32 x CP 2, microbatch 2, interleave 10 on 1,024 H100s
        // fits at some 79 GiB a GPU: its tensors must then fit the usable memory, the capacity
        // less the reserves memory_gib_per_gpu counts (usable read 78.15 GiB beside 79.4).
        const Result r = run({"train",
                              "--gpu",
                              "h100-sxm5-80gb",
                              "--gpus",
                              "1024",
                              "--model",
                              "llama-3-70b",
                              "--seq-len",
                              "8192",
                              "--global-batch",
                              "1024",
                              "--tp",
                              "4",
                              "--pp",
                              "4",
                              "--dp",
                              "32",
                              "--cp",
                              "2",
                              "--microbatch",
                              "2",
                              "--interleave",
                              "10",
                              "--json"});
        QCOMPARE(r.status, 0);
        const QJsonObject e = QJsonDocument::fromJson(r.out).object();
        const QJsonObject parts = e.value("memory_breakdown_gib").toObject();
        const double tensors = parts.value("weights").toDouble()
            + parts.value("gradients").toDouble() + parts.value("optimizer").toDouble()
            + parts.value("activations").toDouble();
        const double total = e.value("memory_gib_per_gpu").toDouble();
        QVERIFY(qAbs(tensors + parts.value("reserved").toDouble() - total) < 1e-6 * total);
        QCOMPARE(e.value("fits").toBool(), total <= e.value("memory_capacity_gib").toDouble());
        QCOMPARE(e.value("fits").toBool(),
                 tensors <= e.value("usable_memory_gib").toDouble() + 1e-9);
        // Serving likewise: the breakdown's parts (weights, K/V cache, workspace and the
        // engine's reserve) sum to the memory per GPU; the reserve was missing (39.15 of 47.11).
        const Result serving
            = run({"infer", "--gpu", "h100-sxm5-80gb", "--model", "llama-3-70b", "--precision",
                   "bf16", "--gpus-per-replica", "4", "--input-tokens", "1024", "--output-tokens",
                   "256", "--batch", "16", "--json"});
        QCOMPARE(serving.status, 0);
        const QJsonObject s = QJsonDocument::fromJson(serving.out).object();
        const QJsonObject servingParts = s.value("memory_breakdown_gib").toObject();
        double sum = 0;
        for (const char *key : {"weights", "kv_cache", "workspace", "engine_reserve"})
            sum += servingParts.value(QLatin1String(key)).toDouble();
        QVERIFY(servingParts.value("engine_reserve").toDouble() > 0);
        QVERIFY(qAbs(sum - s.value("memory_gib_per_gpu").toDouble()) < 1e-6 * sum);
    }

    void aRunThatNeverFinishesHasNoCost()
    {
        // 1,024 H100s fail about every 44 hours; a restart of 100,000 minutes (69 days) is 38
        // MTBFs, so e^38 of wall time per unit of work: the run never finishes. It printed
        // 7 x 10^17 days and a cost to match; with a longer restart the figures vanished and the
        // JSON said cost 0, energy 0, wall 0 days: free and instant to a script.
        const QStringList train = {"train",       "--gpu",          "h100-sxm5-80gb", "--model",
                                   "llama-3-70b", "--gpus",         "1024",           "--seq-len",
                                   "8192",        "--global-batch", "1024",           "--tokens",
                                   "2T",          "--restart-min",  "100000"};
        const Result table = run(train);
        QCOMPARE(table.status, 0);
        QVERIFY2(table.out.contains("never: a failure every "), table.out.constData());
        const Result json = run(train + QStringList {"--json"});
        QCOMPARE(json.status, 0);
        const QJsonObject object = QJsonDocument::fromJson(json.out).object();
        QCOMPARE(object.value("goodput").toDouble(-1), 0.0);
        QVERIFY(object.value("cost_usd").isNull());
        QVERIFY(object.value("energy_mwh").isNull());
        QVERIFY(object.value("operations").toObject().value("wall_days").isNull());
    }

    void aRunWithoutTokensHasNoLength()
    {
        // Without --tokens there is no run: its days and GPU-hours are null in JSON, as its cost
        // is, not the 0.0 days a script reads as an instant run.
        const QStringList train
            = {"train", "--gpu",     "h100-sxm5-80gb", "--model",        "llama-3-70b", "--gpus",
               "64",    "--seq-len", "4096",           "--global-batch", "512",         "--json"};
        const Result json = run(train);
        QCOMPARE(json.status, 0);
        const QJsonObject object = QJsonDocument::fromJson(json.out).object();
        QVERIFY(object.contains("training_days"));
        QVERIFY(object.value("training_days").isNull());
        QVERIFY(object.value("gpu_hours").isNull());
        QVERIFY(object.value("cost_usd").isNull());
        // With a token count both are there: 2T tokens take days.
        const Result withTokens = run(train + QStringList {"--tokens", "2T"});
        const QJsonObject run2T = QJsonDocument::fromJson(withTokens.out).object();
        QVERIFY(run2T.value("training_days").toDouble() > 1);
        QVERIFY(run2T.value("gpu_hours").toDouble() > 64 * 24);
    }

    void runNotesSayWhatTheFiguresLeaveOut()
    {
        // 1e16 tokens of Llama 3 70B: the ids alone are 1e16 x 4 B = 40 PB (the storage row
        // printed "4e+04 TB"), 81 appliances of 500 TB where the run has 1; and at about 1.26 M
        // tokens/s the run takes some 250 years, past the 4-year amortisation.
        const QStringList h100
            = {"train", "--gpu",     "h100-sxm5-80gb", "--model",        "llama-3-70b", "--gpus",
               "1024",  "--seq-len", "4096",           "--global-batch", "1024"};
        const Result huge = run(h100 + QStringList {"--tokens", "1e16"});
        QCOMPARE(huge.status, 0);
        QVERIFY2(huge.out.contains("the run stores 40.0 PB (data and 2 checkpoints): 81 systems "
                                   "needed; the capital, power and checkpoint times count the 1 "
                                   "the run has"),
                 huge.out.constData());
        QVERIFY2(huge.out.contains("outlast the hardware's 4-year amortisation"),
                 huge.out.constData());
        const Result usual = run(h100 + QStringList {"--tokens", "2T"});
        QVERIFY(!usual.out.contains("amortisation:"));
        // 1,024 GB200 GPUs are 14 NVL72 racks of 72 (1,008) and 16 GPUs of a fifteenth.
        const Result gb200 = run({"train", "--gpu", "gb200-nvl72-gpu", "--model", "llama-3-70b",
                                  "--gpus", "1024", "--seq-len", "4096", "--global-batch", "1024"});
        QVERIFY2(gb200.out.contains("1,024 GPUs take 15 nodes of 72, the last holding 16: its "
                                    "other 56 GPUs"),
                 gb200.out.constData());
        QVERIFY(!run(h100).out.contains("the last holding"));
    }

    void fewerGpusThatTrainFasterAreNamed()
    {
        // Llama 3 70B with a global batch of 1,024 sequences on 576 H100 (72 nodes): DP must
        // divide 1,024, so it is a power of two and TP x PP x CP carries 576's factor 9; the
        // heads (64) keep TP to a power of two and CP cannot take a 9, so the pipeline has 9, 18
        // or 36 stages for 80 layers, uneven and with a deep bubble. 512 of the GPUs (64 nodes)
        // run 4 stages: the estimate names the faster count rather than leaving 576 looking
        // slower than 512 with no word (39.8 days against 35.9).
        const QStringList train = {"train",     "--gpu", "h100-sxm5-80gb", "--model", "llama-3-70b",
                                   "--seq-len", "4096",  "--global-batch", "1024",    "--gpus"};
        const Result odd = run(train + QStringList {"576"});
        QCOMPARE(odd.status, 0);
        QVERIFY2(odd.out.contains("note: 512 of the 576 GPUs train faster: "), odd.out.constData());
        QVERIFY(odd.out.contains("PP 9") || odd.out.contains("PP 18") || odd.out.contains("PP 36"));
        // A power of two of nodes has no smaller count to try.
        QVERIFY(!run(train + QStringList {"512"}).out.contains("GPUs train faster"));
    }

    void planEstimatePointsToItsQueue()
    {
        // The shared cluster's portfolio (5 job classes and a service) is simulated by its own
        // command: plan estimate says so instead of leaving the Estimate panel's queue unsaid.
        const Result shared
            = run({"plan", "estimate",
                   QStringLiteral(CP_SOURCE_DIR "/samples/h100-2048-shared-cluster.json")});
        QVERIFY2(shared.out.contains("note: the plan has a job portfolio (5 job classes, 1 "
                                     "service): `plan simulate`"),
                 shared.out.constData());
        const Result rail
            = run({"plan", "estimate",
                   QStringLiteral(CP_SOURCE_DIR "/samples/h100-1024-ndr-rail-fat-tree.json")});
        QVERIFY(!rail.out.contains("job portfolio"));
    }

    void planEstimateListsTheRunAsTrainDoes()
    {
        // The rail sample's run: its checkpoints, the storage it needs, the energy and the cost
        // were in the JSON, the PDF and the GUI but not in `plan estimate`'s table. The table's
        // cost is the JSON's, in human units.
        const QString plan
            = QStringLiteral(CP_SOURCE_DIR "/samples/h100-1024-ndr-rail-fat-tree.json");
        const Result text = run({"plan", "estimate", plan});
        QCOMPARE(text.status, 0);
        const QJsonObject runJson
            = QJsonDocument::fromJson(run({"plan", "estimate", plan, "--json"}).out)
                  .object()["training"]
                  .toObject()["run"]
                  .toObject();
        const double costUsd = runJson["cost_usd"].toDouble();
        QVERIFY(costUsd > 1e5 && costUsd < 1e6);
        const QString cost = QStringLiteral("$%1 k at $").arg(std::round(costUsd / 1e3));
        for (const QString &row :
             {QStringLiteral("\ncheckpoint  "), QStringLiteral("\nstorage needed  "),
              QStringLiteral("\nGPU-hours (expected)  "), QStringLiteral("\nenergy  "), cost})
            QVERIFY2(QString::fromUtf8(text.out).contains(row), qPrintable(row));
    }

    void closedFormTrainingBuysTheSameFabric()
    {
        // 16,384 H100s (one NIC each) on a 2:1 fabric of 64-port QM9700s. Two tiers would be
        // 16,384 / 42 = 391 leaves of 42 ports down and 22 up, 8,602 uplinks on 135 spines,
        // 526 switches, but a 64-port spine reaches at most 64 leaves: two tiers cannot join
        // 391, so the switches build three. The closed-form communication model once priced
        // the impossible 526 while the graph model priced the real fabric: the bill must not
        // depend on how the traffic is timed.
        const QStringList train = {"train",
                                   "--gpu",
                                   "h100-sxm5-80gb",
                                   "--model",
                                   "llama-3-70b",
                                   "--seq-len",
                                   "8192",
                                   "--global-batch",
                                   "1024",
                                   "--gpus",
                                   "16384",
                                   "--tp",
                                   "8",
                                   "--pp",
                                   "8",
                                   "--microbatch",
                                   "1",
                                   "--recompute",
                                   "none",
                                   "--zero",
                                   "1",
                                   "--oversubscription",
                                   "2",
                                   "--json",
                                   "--fabric-model"};
        const double graph = jsonNumber(train + QStringList {"graph"}, {"operations", "switches"});
        const double closed
            = jsonNumber(train + QStringList {"closed-form"}, {"operations", "switches"});
        QVERIFY2(graph > 526, qPrintable(QString::number(graph)));
        QCOMPARE(closed, graph);
    }

    void compareScalingTableIsForPeople()
    {
        // The rail sample's scaling curve: GPU counts printed as 1024 and 2048 beside grouped
        // tokens/s, and efficiencies above 100% with no word of why.
        const Result r
            = run({"plan", "compare", CP_SOURCE_DIR "/samples/h100-1024-ndr-rail-fat-tree.json"});
        QCOMPARE(r.status, 0);
        const qsizetype scaling = r.out.indexOf("Scaling of the baseline:");
        QVERIFY(scaling >= 0);
        const QByteArray table = r.out.mid(scaling);
        QVERIFY2(table.contains("\n1,024 ") && table.contains("\n2,048 "), table.constData());
        const bool above = QRegularExpression(
                               QStringLiteral("\\b(10[1-9]|1[1-9][0-9])\\.[0-9]%|\\b100\\.[1-9]%"))
                               .match(QString::fromUtf8(table))
                               .hasMatch();
        QCOMPARE(table.contains("note: an efficiency above 100% is a larger count's own fastest "
                                "layout"),
                 above);
    }

    void anEmptyPlanSaysSo()
    {
        // The desktop program saves a plan before it has servers; its estimate read "GPUs 0 x "
        // with a blank name.
        const QString path = m_dir.filePath(QStringLiteral("empty-plan.json"));
        QVERIFY(writeText(path, R"({"format": "clusterplanner-plan", "version": 1, "name": "new",
                                    "nodes": []})"));
        const Result r = run({"plan", "estimate", path});
        QCOMPARE(r.status, 0);
        QVERIFY2(r.out.contains("none: the plan has no servers yet"), r.out.constData());
        // With a training workload and still no servers, the estimate said nothing of it.
        const QString withWorkload = m_dir.filePath(QStringLiteral("empty-plan-training.json"));
        QVERIFY(writeText(withWorkload,
                          R"({"format": "clusterplanner-plan", "version": 1, "name": "new",
                              "nodes": [], "workload": {"type": "training",
                              "model": "llama-3-8b", "seq_len": 8192, "global_batch": 512}})"));
        const Result training = run({"plan", "estimate", withWorkload});
        QCOMPARE(training.status, 0);
        QVERIFY2(training.out.contains(
                     "note: the training workload is estimated once the plan has servers"),
                 training.out.constData());
    }

    void fabricSaysWhatItsOptionsDo()
    {
        // 100 endpoints fit two tiers of 64-port switches (4 leaves of 32 down, 2 spines: 6);
        // three tiers were priced at 68 switches with no word that the top tier joins nothing.
        const Result three
            = run({"fabric", "--topology", "fat-tree", "--endpoints", "100", "--tiers", "3"});
        QCOMPARE(three.status, 0);
        QVERIFY2(three.out.contains("note: 3 tiers: ")
                     && three.out.contains("switches where the fewest tiers that hold the 100 "
                                           "NICs need 6;"),
                 three.out.constData());
        // Counts given as 0 or below were read as "derive it"; a spine ratio with two tiers
        // was ignored.
        const Result zero = run({"fabric", "--topology", "dragonfly", "--a", "0"});
        QCOMPARE(zero.status, 3);
        QVERIFY2(zero.err.contains("--a must be positive, not 0"), zero.err.constData());
        const Result spine = run({"fabric", "--topology", "fat-tree", "--endpoints", "512",
                                  "--tiers", "2", "--spine-oversubscription", "3"});
        QCOMPARE(spine.status, 3);
        QVERIFY2(
            spine.err.contains("--spine-oversubscription needs 3 or more tiers, not --tiers 2"),
            spine.err.constData());
        // With the tiers left to the fewest that fit, 1,024 endpoints on 64 ports are two: the
        // spine ratio built a 2-tier 1:1 fabric with no word. Ratios on a Dragonfly, a torus or
        // one switch were ignored the same way. A ratio below 1 printed as 0.500000.
        const Result autoTiers = run({"fabric", "--topology", "fat-tree", "--endpoints", "1024",
                                      "--radix", "64", "--spine-oversubscription", "3"});
        QCOMPARE(autoTiers.status, 2);
        QVERIFY2(autoTiers.err.contains("the 1,024 endpoints fit two tiers, whose spines have no "
                                        "uplinks (give --tiers 3 for a three-tier fabric)"),
                 autoTiers.err.constData());
        const Result dragonfly
            = run({"fabric", "--topology", "dragonfly", "--oversubscription", "2"});
        QCOMPARE(dragonfly.status, 2);
        QVERIFY2(dragonfly.err.contains("--oversubscription applies to fat-tree and rail-fat-tree "
                                        "fabrics, not dragonfly"),
                 dragonfly.err.constData());
        const Result oneSwitch = run({"fabric", "--topology", "fat-tree", "--tiers", "1",
                                      "--endpoints", "32", "--oversubscription", "2"});
        QCOMPARE(oneSwitch.status, 2);
        const Result half = run({"fabric", "--topology", "fat-tree", "--endpoints", "1024",
                                 "--oversubscription", "0.5"});
        QCOMPARE(half.status, 3);
        QVERIFY2(half.err.contains("must be between 1 (non-blocking) and 64, not 0.5"),
                 half.err.constData());
    }

    void theReportSourcesEveryEntryItPrices()
    {
        // The DeepSeek-V3 sample's bill buys a storage network of Quantum QM8790 switches and
        // SN2201 management switches that no card of the plan names; the sources page listed
        // only the plan's own entries. Every priced catalog entry is sourced now.
        const QString pdf = exportSamplePdf(QStringLiteral("h100-1024-deepseek-v3-training.json"),
                                            QStringLiteral("deepseek.pdf"));
        QVERIFY(!pdf.isEmpty());
        const QByteArray text = pdfText(pdf).simplified();
        // Its "no multi-token prediction" scenario trains less work a step: the step-time rows
        // are unranked, and each carries a mark pointing to the sentence after the table that
        // says why (a long table put it a page away with nothing on the row).
        QVERIFY2(text.contains("Step time †") && text.contains("Throughput †"), text.constData());
        QVERIFY2(text.contains("† Step time, compute, exposed communication and pipeline bubble "
                               "are not ranked"),
                 text.constData());
        const qsizetype sources = text.indexOf("Catalog entries and their sources");
        QVERIFY(sources >= 0);
        const QByteArray bill = text.left(sources);
        const QByteArray sourced = text.mid(sources);
        for (const char *name : {"QM8790", "SN2201"}) {
            QVERIFY2(bill.contains(name), name);
            QVERIFY2(sourced.contains(name), name);
        }
    }

    void aSweepSaysWhichSizesItsTiersCannotJoin()
    {
        // The rail sample (128 DGX H100, radix-64 QM9700) with its tiers fixed at 2: a spine's
        // 64 down ports join at most 64 rail leaves, 8 rails x 8 units of 32 servers, 2,048 GPUs.
        // 2,048 GPUs fit; 8,192 (256 leaves) do not, and the sweep says so on stderr.
        QTemporaryDir dir;
        QFile sample(QStringLiteral(CP_SOURCE_DIR "/samples/h100-1024-ndr-rail-fat-tree.json"));
        QVERIFY(sample.open(QIODevice::ReadOnly));
        QJsonObject plan = QJsonDocument::fromJson(sample.readAll()).object();
        QJsonObject fabric = plan["fabric"].toObject();
        fabric["tiers"] = 2;
        plan["fabric"] = fabric;
        plan.remove(QStringLiteral("scenarios"));
        const QString path = dir.filePath(QStringLiteral("two-tiers.json"));
        QVERIFY(writeText(path, QJsonDocument(plan).toJson()));
        const Result r = run({"plan", "sweep", path, "--axis", "gpu-count", "--values", "2048,8192",
                              "--out", dir.filePath(QStringLiteral("swept.json"))});
        QCOMPARE(r.status, 0);
        QVERIFY2(!r.err.contains("scenario '2048 GPUs'"), r.err.constData());
        QVERIFY2(r.err.contains("note: scenario '8,192 GPUs': the fabric cannot be built"),
                 r.err.constData());
    }

    void aTraceReplacesThePortfolio()
    {
        // The shared cluster (2,048 GPUs) replays a trace of one 8-GPU job and one of 99,999
        // GPUs: the portfolio's classes do not run beside it (only the class "trace" is
        // reported, one job started), and the job larger than the cluster is said, not
        // silently dropped.
        QTemporaryDir dir;
        const QString plan = QStringLiteral(CP_SOURCE_DIR "/samples/h100-2048-shared-cluster.json");
        const QString trace = dir.filePath(QStringLiteral("two.swf"));
        QVERIFY(writeText(trace,
                          "1 0 0 3600 8 -1 -1 8 -1 -1 1 1 1 1 1 1 -1 -1\n"
                          "2 10 0 3600 99999 -1 -1 99999 -1 -1 1 1 1 1 1 1 -1 -1\n"));
        const Result json
            = run({"plan", "simulate", plan, "--trace", trace, "--years", "0.01", "--json"});
        QCOMPARE(json.status, 0);
        const QJsonObject doc = QJsonDocument::fromJson(json.out).object();
        const QJsonArray classes = doc["classes"].toArray();
        QCOMPARE(classes.size(), 1);
        QCOMPARE(classes.at(0).toObject()["name"].toString(), QStringLiteral("trace"));
        QCOMPARE(classes.at(0).toObject()["started"].toInt(), 1);
        QCOMPARE(doc["trace_jobs_too_large"].toInt(), 1);
        const Result text = run({"plan", "simulate", plan, "--trace", trace, "--years", "0.01"});
        QVERIFY2(text.out.contains("1 of the trace's 2 jobs ask for more GPUs than the plan's "
                                   "2,048 (the largest 99,999)"),
                 text.out.constData());
        // The job that can never start is no load either: the offered load is the 8-GPU job's
        // alone, as a trace of that job only gives (it was 99,999 x 3,600 GPU-seconds more).
        const QString one = dir.filePath(QStringLiteral("one.swf"));
        QVERIFY(writeText(one, "1 0 0 3600 8 -1 -1 8 -1 -1 1 1 1 1 1 1 -1 -1\n"));
        const QJsonObject oneDoc
            = QJsonDocument::fromJson(
                  run({"plan", "simulate", plan, "--trace", one, "--years", "0.01", "--json"}).out)
                  .object();
        QVERIFY(qAbs(doc["offered_load"].toDouble() - oneDoc["offered_load"].toDouble()) < 1e-12);
        // Without --years the trace is replayed over its own span, to the latest end of its
        // jobs: 10 s + 3,600 s = 3,610 s, not a default year; a longer --years is said.
        const QJsonObject own = QJsonDocument::fromJson(
                                    run({"plan", "simulate", plan, "--trace", trace, "--json"}).out)
                                    .object();
        QVERIFY(qAbs(own["years"].toDouble() * 365 * 86400 - 3610) < 1e-6);
        QVERIFY(qAbs(own["trace_span_days"].toDouble() - 3610.0 / 86400) < 1e-12);
        QVERIFY2(text.out.contains("note: the trace spans 60.2 min of the 3.65 days simulated"),
                 text.out.constData());
        // A folder, or a trace with no job, is refused rather than replayed as nothing.
        const Result folder = run({"plan", "simulate", plan, "--trace", dir.path()});
        QCOMPARE(folder.status, 1);
        QVERIFY2(folder.err.contains("is a directory"), folder.err.constData());
        QVERIFY(writeText(trace, "; only a comment\n"));
        const Result empty = run({"plan", "simulate", plan, "--trace", trace});
        QCOMPARE(empty.status, 1);
        QVERIFY2(empty.err.contains("the trace has no job to replay"), empty.err.constData());
    }

    void outputsNeverReplaceTheirInputs()
    {
        // export p.json --pdf p.json put a PDF where the plan was, and catalog export onto the
        // database left it unreadable. Each is refused (exit 2) and the file is unchanged.
        QTemporaryDir dir;
        const QString plan = dir.filePath(QStringLiteral("p.json"));
        QVERIFY(
            QFile::copy(QStringLiteral(CP_SOURCE_DIR "/samples/a100-pcie-64-100gbe.json"), plan));
        QFile original(plan);
        QVERIFY(original.open(QIODevice::ReadOnly));
        const QByteArray before = original.readAll();
        original.close();
        for (const QStringList &arguments :
             {QStringList {"export", plan, "--pdf", plan},
              QStringList {"export", plan, "--bom-csv", dir.filePath(QStringLiteral("./p.json"))},
              QStringList {"plan", "compare", plan, "--csv", plan, "--no-scaling"}}) {
            const Result r = run(arguments);
            QCOMPARE(r.status, 2);
            QVERIFY2(r.err.contains("which this command reads"), r.err.constData());
        }
        QVERIFY(original.open(QIODevice::ReadOnly));
        QCOMPARE(original.readAll(), before);
        const QString database = m_dir.filePath(QStringLiteral("catalog.sqlite"));
        QCOMPARE(run({"catalog", "list", "gpus"}).status, 0); // the database exists
        const Result onDatabase = run({"catalog", "export", database});
        QCOMPARE(onDatabase.status, 2);
        QCOMPARE(run({"catalog", "show", "h100-sxm5-80gb"}).status, 0);
    }

    void hostileInputFilesAreRefusedByName()
    {
        QTemporaryDir dir;
        // The library keeps the last of two equal keys: "count": 8 would become 2 silently.
        const QString duplicate = dir.filePath(QStringLiteral("dup.json"));
        QVERIFY(writeText(duplicate, R"({"format": "clusterplanner-plan", "version": 1,
            "name": "dup", "nodes": [{"name": "gpu", "node": "dgx-h100", "count": 8, "count": 2}],
            "fabric": {"topology": "none"}})"));
        const Result dup = run({"plan", "estimate", duplicate});
        QCOMPARE(dup.status, 1);
        QVERIFY2(dup.err.contains("dup.json: /nodes/0/count: duplicate key"), dup.err.constData());
        // A device never ends; a folder is not a plan.
        const Result device = run({"plan", "estimate", "/dev/zero"});
        QCOMPARE(device.status, 1);
        QVERIFY2(device.err.contains("/dev/zero: is not a regular file"), device.err.constData());
        const Result folder = run({"plan", "estimate", dir.path()});
        QCOMPARE(folder.status, 1);
        QVERIFY2(folder.err.contains("is a directory"), folder.err.constData());
        // A serving rate of 1e-300 requests a second priced a million tokens in 390 digits.
        QFile fleet(QStringLiteral(CP_SOURCE_DIR "/samples/l4-inference-fleet.json"));
        QVERIFY(fleet.open(QIODevice::ReadOnly));
        QJsonObject slow = QJsonDocument::fromJson(fleet.readAll()).object();
        QJsonObject workload = slow["workload"].toObject();
        workload["rate_per_s"] = 1e-300;
        slow["workload"] = workload;
        const QString rate = dir.filePath(QStringLiteral("rate.json"));
        QVERIFY(writeText(rate, QJsonDocument(slow).toJson()));
        const Result tiny = run({"plan", "estimate", rate});
        QCOMPARE(tiny.status, 1);
        QVERIFY2(tiny.err.contains("/workload/rate_per_s: must be greater than 0 and at least"),
                 tiny.err.constData());
        // A --db in a folder that does not exist is not created.
        const QString missing = dir.filePath(QStringLiteral("no/such/folder/catalog.sqlite"));
        const Result list = run({"catalog", "list", "gpus", "--db", missing});
        QCOMPARE(list.status, 0);
        QVERIFY2(list.err.contains("does not exist (mistyped?)"), list.err.constData());
        QVERIFY(!QFileInfo::exists(dir.filePath(QStringLiteral("no"))));
    }

    void planSimulateReplaysATrace()
    {
        // Four jobs in the Standard Workload Format on 4 DGX H100 (32 GPUs), EASY backfill:
        // A (24 GPUs, 10 h) at 0, B (32, 5 h) at 1 h waits 9 h for A, C (8, 4 h) at 2 h
        // backfills at once, D (8, 20 h) at 3 h waits for B, 12 h: mean wait (9 + 12) / 4 =
        // 5.25 h (the hand schedule of tst_schedulersimulation).
        QTemporaryDir dir;
        const QString plan = dir.filePath(QStringLiteral("four.json"));
        QVERIFY(writeText(plan, R"({"format": "clusterplanner-plan", "version": 1, "name": "four",
            "nodes": [{"name": "gpu", "node": "dgx-h100", "count": 4}],
            "fabric": {"topology": "none"}})"));
        const QString trace = dir.filePath(QStringLiteral("four.swf"));
        QVERIFY(writeText(trace,
                          "; four jobs\n"
                          "1 0 0 36000 24 -1 -1 24 -1 -1 1 1 1 1 1 1 -1 -1\n"
                          "2 3600 0 18000 32 -1 -1 32 -1 -1 1 1 1 1 1 1 -1 -1\n"
                          "3 7200 0 14400 8 -1 -1 8 -1 -1 1 1 1 1 1 1 -1 -1\n"
                          "4 10800 0 72000 8 -1 -1 8 -1 -1 1 1 1 1 1 1 -1 -1\n"));
        const QString replayed = dir.filePath(QStringLiteral("replayed.swf"));
        const Result r = run({"plan", "simulate", plan, "--trace", trace, "--years", "0.01",
                              "--trace-out", replayed, "--json"});
        QCOMPARE(r.status, 0);
        const QJsonObject json = QJsonDocument::fromJson(r.out).object();
        const QJsonObject replay = json["classes"].toArray().at(0).toObject();
        QCOMPARE(replay["started"].toInt(), 4);
        QVERIFY(qAbs(replay["mean_wait_h"].toDouble() - 5.25) < 1e-9);
        // The same jobs from Slurm accounting (sacct --parsable2) give the same waits.
        const QString sacct = dir.filePath(QStringLiteral("four.sacct"));
        QVERIFY(writeText(
            sacct,
            "JobID|Submit|Start|End|AllocTRES\n"
            "1|2024-05-01T00:00:00|2024-05-01T00:00:00|2024-05-01T10:00:00|gres/gpu=24\n"
            "2|2024-05-01T01:00:00|2024-05-01T10:00:00|2024-05-01T15:00:00|gres/gpu=32\n"
            "3|2024-05-01T02:00:00|2024-05-01T02:00:00|2024-05-01T06:00:00|gres/gpu=8\n"
            "4|2024-05-01T03:00:00|2024-05-01T15:00:00|2024-05-02T11:00:00|gres/gpu=8\n"));
        const Result fromSlurm
            = run({"plan", "simulate", plan, "--trace", sacct, "--years", "0.01", "--json"});
        QCOMPARE(fromSlurm.status, 0);
        QVERIFY(qAbs(QJsonDocument::fromJson(fromSlurm.out)
                         .object()["classes"]
                         .toArray()
                         .at(0)
                         .toObject()["mean_wait_h"]
                         .toDouble()
                     - 5.25)
                < 1e-9);
        // The jobs as they ran, in SWF: B waited 9 h (32,400 s), D 12 h (43,200 s).
        QFile out(replayed);
        QVERIFY(out.open(QIODevice::ReadOnly));
        const QByteArray swf = out.readAll();
        QVERIFY2(swf.contains("\n2 3600 32400 18000 32 "), swf.constData());
        QVERIFY2(swf.contains("\n4 10800 43200 72000 8 "), swf.constData());
        // A malformed trace names its file and line.
        QVERIFY(writeText(trace, "1 0 0\n"));
        const Result bad = run({"plan", "simulate", plan, "--trace", trace});
        QVERIFY(bad.status != 0);
        QVERIFY2(bad.err.contains("four.swf: line 1: expected 18 fields"), bad.err.constData());
    }

    void exportWithoutItsHelperSaysWhy()
    {
        // `export` runs clusterplanner-export from beside the CLI or from
        // ../libexec/clusterplanner: a CLI copied alone has neither, and says so instead of
        // crashing or doing nothing.
        QTemporaryDir alone;
        const QString copy = alone.filePath(QStringLiteral("clusterplanner-cli"));
        QVERIFY(QFile::copy(QStringLiteral(CP_CLI_PATH), copy));
        QProcess process;
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.insert(QStringLiteral("CLUSTERPLANNER_DB"),
                   m_dir.filePath(QStringLiteral("catalog.sqlite")));
        process.setProcessEnvironment(env);
        process.start(copy,
                      {QStringLiteral("export"),
                       QStringLiteral(CP_SOURCE_DIR "/samples/l4-inference-fleet.json"),
                       QStringLiteral("--bom-csv"), alone.filePath(QStringLiteral("b.csv"))});
        QVERIFY(process.waitForFinished(60000));
        QCOMPARE(process.exitCode(), 1);
        const QByteArray errors = process.readAllStandardError();
        QVERIFY2(errors.contains("cannot run the export helper clusterplanner-export (not found"),
                 errors.constData());
        QVERIFY(!QFile::exists(alone.filePath(QStringLiteral("b.csv"))));
    }

    void exportSlurmConfiguration()
    {
        // The shared-cluster sample: 256 DGX H100 (112 cores, 2,048 GB = 1,953,125 MiB, 8 GPUs)
        // in 8 scalable units of 32 under one spine level: 224 "compute" servers, then the 32
        // "dev" servers its interactive class is confined to (a partition of their own) in the
        // last unit; its research class is held to 512 GPUs by a QoS limit.
        QTemporaryDir dir;
        const Result r
            = run({"export", QStringLiteral(CP_SOURCE_DIR "/samples/h100-2048-shared-cluster.json"),
                   "--slurm", dir.path()});
        QCOMPARE(r.status, 0);
        QFile slurm(dir.filePath(QStringLiteral("slurm.conf")));
        QVERIFY(slurm.open(QIODevice::ReadOnly));
        const QByteArray conf = slurm.readAll();
        QVERIFY2(conf.contains("NodeName=compute-[0001-0224],dev-[0225-0256] CPUs=112 "
                               "RealMemory=1953125 Gres=gpu:8"),
                 conf.constData());
        QVERIFY(conf.contains("PartitionName=gpu Nodes=compute-[0001-0224],dev-[0225-0256] "
                              "Default=YES"));
        QVERIFY(conf.contains("\nPartitionName=dev Nodes=dev-[0225-0256] "));
        QVERIFY(conf.contains("sacctmgr add qos research GrpTRES=gres/gpu=512\n"));
        QFile topology(dir.filePath(QStringLiteral("topology.conf")));
        QVERIFY(topology.open(QIODevice::ReadOnly));
        const QList<QByteArray> lines = topology.readAll().split('\n');
        QVERIFY(lines.contains("SwitchName=su0 Nodes=compute-[0001-0032]"));
        QVERIFY(lines.contains("SwitchName=su7 Nodes=dev-[0225-0256]"));
        QVERIFY(lines.contains("SwitchName=spine Switches=su0,su1,su2,su3,su4,su5,su6,su7"));

        // A plan name with a newline stays in its comment (it put a live partition on the
        // second line), and two groups of one name, both partitions, get a name each (two
        // "PartitionName=compute" lines, of which Slurm keeps the last).
        QFile sample(QStringLiteral(CP_SOURCE_DIR "/samples/h100-2048-shared-cluster.json"));
        QVERIFY(sample.open(QIODevice::ReadOnly));
        QJsonObject plan = QJsonDocument::fromJson(sample.readAll()).object();
        plan["name"] = QStringLiteral("demo\nPartitionName=evil Nodes=ALL Default=YES");
        QJsonArray nodes = plan["nodes"].toArray();
        QJsonObject dev = nodes[1].toObject();
        dev["name"] = QStringLiteral("compute");
        nodes[1] = dev;
        plan["nodes"] = nodes;
        QJsonObject portfolio = plan["portfolio"].toObject();
        QJsonArray classes = portfolio["classes"].toArray();
        for (qsizetype c = 0; c < classes.size(); ++c) {
            QJsonObject job = classes[c].toObject();
            if (job.value("partition").toString() == QStringLiteral("dev"))
                job["partition"] = QStringLiteral("compute");
            classes[c] = job;
        }
        portfolio["classes"] = classes;
        plan["portfolio"] = portfolio;
        plan.remove(QStringLiteral("scenarios"));
        const QString hostile = dir.filePath(QStringLiteral("hostile.json"));
        QVERIFY(writeText(hostile, QJsonDocument(plan).toJson()));
        const QString out = dir.filePath(QStringLiteral("hostile-slurm"));
        const Result exported = run({"export", hostile, "--slurm", out});
        QVERIFY2(exported.status == 0, exported.err.constData());
        for (const char *file : {"slurm.conf", "topology.conf"}) {
            QFile conf(QDir(out).filePath(QLatin1String(file)));
            QVERIFY(conf.open(QIODevice::ReadOnly));
            const QList<QByteArray> confLines = conf.readAll().split('\n');
            QVERIFY2(confLines.first()
                         == "# Generated by ClusterPlanner from plan 'demo PartitionName=evil "
                            "Nodes=ALL Default=YES'",
                     confLines.first().constData());
            for (const QByteArray &line : confLines)
                QVERIFY2(!line.startsWith("PartitionName=evil"), line.constData());
        }
        QFile hostileConf(QDir(out).filePath(QStringLiteral("slurm.conf")));
        QVERIFY(hostileConf.open(QIODevice::ReadOnly));
        const QByteArray hostileText = hostileConf.readAll();
        QVERIFY2(
            hostileText.contains("\nPartitionName=compute Nodes=compute-[0001-0224] ")
                && hostileText.contains("\nPartitionName=compute-2 Nodes=compute-[0225-0256] "),
            hostileText.constData());
    }

    void infeasibleExitsThree()
    {
        const Result r
            = run({"train", "--gpu", "a100-sxm4-80gb", "--gpus", "8", "--model", "gpt-3-175b",
                   "--seq-len", "2048", "--global-batch", "8", "--tp", "8", "--pp", "1"});
        QCOMPARE(r.status, 3);
        QVERIFY2(r.err.contains("infeasible: no layout fits in memory"), r.err.constData());
        const Result heads
            = run({"train", "--gpu", "h100-sxm5-80gb", "--gpus", "48", "--model", "llama-2-7b",
                   "--seq-len", "4096", "--global-batch", "48", "--tp", "3", "--pp", "1"});
        QCOMPARE(heads.status, 3);
        const Result etp = run({"train", "--gpu", "h100-sxm5-80gb", "--gpus", "8", "--model",
                                "mixtral-8x7b", "--seq-len", "4096", "--global-batch", "8", "--tp",
                                "2", "--ep", "4", "--etp", "3"});
        QCOMPARE(etp.status, 3);
        QVERIFY2(etp.err.contains("expert tensor parallelism must be 1 or TP (2), not 3"),
                 etp.err.constData());
        // Mixtral's 8 experts over EP 4 on 16 GPUs at TP 2 x PP 2 x DP 4: EP divides DP, so the
        // experts are split over TP unless the run folds them; the JSON says which.
        const QStringList mixtral {"train",
                                   "--gpu",
                                   "h100-sxm5-80gb",
                                   "--gpus",
                                   "16",
                                   "--model",
                                   "mixtral-8x7b",
                                   "--seq-len",
                                   "4096",
                                   "--global-batch",
                                   "16",
                                   "--tp",
                                   "2",
                                   "--ep",
                                   "4",
                                   "--pp",
                                   "2",
                                   "--recompute",
                                   "full",
                                   "--json"};
        QCOMPARE(jsonNumber(mixtral, {"etp"}), 2.0);
        QCOMPARE(jsonNumber(mixtral + QStringList {"--etp", "1"}, {"etp"}), 1.0);
        QVERIFY2(heads.err.contains("infeasible: no valid layout: the model's 32 attention heads "
                                    "are not divisible by TP=3"),
                 heads.err.constData());
        // The first and last stages' own sizes: named in the layout and the JSON; refused
        // without a pipeline.
        const QStringList stages {"train",
                                  "--gpu",
                                  "h100-sxm5-80gb",
                                  "--gpus",
                                  "8",
                                  "--model",
                                  "llama-3-8b",
                                  "--seq-len",
                                  "4096",
                                  "--global-batch",
                                  "16",
                                  "--pp",
                                  "4",
                                  "--dp",
                                  "2",
                                  "--recompute",
                                  "none",
                                  "--first-stage-layers",
                                  "6",
                                  "--last-stage-layers",
                                  "6"};
        const Result uneven = run(stages);
        QVERIFY2(uneven.status == 0, uneven.err.constData());
        QVERIFY2(uneven.out.contains("6 layers on the first stage and 6 on the last"),
                 uneven.out.constData());
        QCOMPARE(jsonNumber(stages + QStringList {"--json"}, {"last_stage_layers"}), 6.0);
        const Result flat = run({"train", "--gpu", "h100-sxm5-80gb", "--gpus", "8", "--model",
                                 "llama-3-8b", "--seq-len", "4096", "--global-batch", "16", "--pp",
                                 "1", "--first-stage-layers", "6"});
        QCOMPARE(flat.status, 3);
        QVERIFY2(flat.err.contains("needs pipeline parallelism"), flat.err.constData());
    }

    void customModelWithoutDropoutKeepsNoMasks()
    {
        // A 32-layer, h = 4096 custom model on 8 H100s, one 4,096-token sequence per GPU, no
        // recompute: without dropout each layer keeps no masks, 2·s·h = 2 x 4,096 x 4,096 bytes
        // less, 32 layers: exactly 1 GiB less activation memory.
        const auto activationsGib = [&](const QStringList &extra) {
            QStringList arguments
                = customModelTrainArguments() + QStringList {"--recompute", "none", "--json"};
            arguments << extra;
            return jsonNumber(arguments, {"memory_breakdown_gib", "activations"});
        };
        const double withDropout = activationsGib({});
        QVERIFY(withDropout > 1.0);
        QCOMPARE(activationsGib({"--hidden-dropout", "0"}), withDropout - 1.0);
        const Result both
            = run({"train", "--gpu", "h100-sxm5-80gb", "--gpus", "8", "--model", "llama-2-7b",
                   "--hidden-dropout", "0", "--seq-len", "4096", "--global-batch", "8"});
        QCOMPARE(both.status, 2);
        QVERIFY2(both.err.contains("give either --model or the model shape (--hidden-dropout)"),
                 both.err.constData());
    }

    void trainRecomputesTheNamedModules()
    {
        // The same 32-layer, h = 4096 custom model, one 4,096-token sequence per GPU: recomputing
        // the norms drops their two 16-bit outputs a layer, 2 x 2 B x 4,096 x 4,096 = 64 MiB,
        // 32 layers: exactly 2 GiB less activation memory. The layout names the modules.
        QStringList arguments = customModelTrainArguments();
        const double none = jsonNumber(arguments + QStringList {"--recompute", "none", "--json"},
                                       {"memory_breakdown_gib", "activations"});
        const QStringList norms = arguments + QStringList {"--recompute-modules", "layernorm"};
        QCOMPARE(
            jsonNumber(norms + QStringList {"--json"}, {"memory_breakdown_gib", "activations"}),
            none - 2.0);
        const Result text = run(norms);
        QCOMPARE(text.status, 0);
        QVERIFY2(text.out.contains("recompute selective (layernorm), ZeRO-1"),
                 text.out.constData());
        const Result json = run(norms + QStringList {"--json"});
        const QJsonObject object = QJsonDocument::fromJson(json.out).object();
        QCOMPARE(object.value("recompute").toString(), QStringLiteral("selective"));
        QCOMPARE(object.value("recompute_modules").toArray(),
                 QJsonArray {QStringLiteral("layernorm")});
    }

    void trainCheckpointTimesKeepTheirDigits()
    {
        // The 32-layer, h = 4096 custom model: 32 x 12 x 4096^2 + 32 x 2 x 4096 + 4096 weights in
        // its layers and final norm and 2 x 32,000 x 4,096 in its untied embedding and output,
        // 6,704,861,184 parameters; a checkpoint of 14 bytes each (BF16 weights, fp32 master
        // weights and two Adam moments) is 93.87 GB. The one DGX H100 writes it over its two
        // 200 Gb/s storage ports, 50 GB/s: 1.877 s, "1.88 s" (it printed "2 s"; a larger
        // plan's sub-second burst printed "0 s").
        const Result r = run(customModelTrainArguments());
        QCOMPARE(r.status, 0);
        QVERIFY2(r.out.contains("checkpoint       93.9 GB, write 1.88 s (restore 1.88 s) to "),
                 r.out.constData());
    }

    void trainSizesStorageForItsCheckpoints()
    {
        // Llama 3 405B on 16,384 H100: a checkpoint of 14 bytes a parameter, 5.68 TB, written
        // by one DDN AI400X2 at 65 GB/s in 87.4 s every 21 minutes (the job fails every 2.7 h).
        // Training stands still for about 87 s in every 1,300: storage is what a few dozen more
        // appliances, a fraction of a percent of the cluster's price, would buy back.
        const QStringList layout = {"train",
                                    "--gpu",
                                    "h100-sxm5-80gb",
                                    "--gpus",
                                    "16384",
                                    "--model",
                                    "llama-3-405b",
                                    "--seq-len",
                                    "8192",
                                    "--global-batch",
                                    "2048",
                                    "--tp",
                                    "8",
                                    "--pp",
                                    "16",
                                    "--cp",
                                    "2",
                                    "--dp",
                                    "64",
                                    "--microbatch",
                                    "1",
                                    "--interleave",
                                    "8"};
        const Result one = run(layout);
        QCOMPARE(one.status, 0);
        QVERIFY2(one.out.contains("write 87.4 s"), one.out.constData());
        QVERIFY2(one.out.contains("faster storage pays for itself"), one.out.constData());
        QVERIFY2(one.out.contains("to write checkpoints at the lowest cost per useful hour"),
                 one.out.constData());
        const QJsonObject sized = QJsonDocument::fromJson(run(layout + QStringList {"--json"}).out)
                                      .object()
                                      .value("checkpoint_storage")
                                      .toObject();
        QVERIFY(sized.value("storage_limits_goodput").toBool());
        QCOMPARE(sized.value("systems_now").toInteger(), 1);
        const qint64 systems = sized.value("systems").toInteger();
        QVERIFY2(systems > 1, QByteArray::number(systems).constData());
        // The run given that many has the goodput the sizing promised, and its storage no longer
        // holds it back.
        const QStringList withThem
            = layout + QStringList {"--storage-systems", QString::number(systems), "--json"};
        const QJsonObject again = QJsonDocument::fromJson(run(withThem).out).object();
        QVERIFY(qAbs(again.value("goodput").toDouble() - sized.value("goodput").toDouble())
                < 1e-12);
        QVERIFY(again.value("goodput").toDouble() > 0.9);
        QVERIFY(
            !again.value("checkpoint_storage").toObject().value("storage_limits_goodput").toBool());
        const Result enough
            = run(layout + QStringList {"--storage-systems", QString::number(systems)});
        QVERIFY2(!enough.out.contains("pays for itself"), enough.out.constData());
    }

    void trainJsonCarriesTheExpertParallelHint()
    {
        // DeepSeek-V3 on the all-to-all dispatcher without overlap: the text names the options
        // that make the fastest layout at least 5% faster; JSON scripts got nothing of it.
        const QStringList plain = {"train", "--gpu",          "h100-sxm5-80gb", "--gpus",
                                   "2048",  "--model",        "deepseek-v3",    "--seq-len",
                                   "4096",  "--global-batch", "4096",           "--precision",
                                   "fp8",   "--json"};
        const QJsonObject json = QJsonDocument::fromJson(run(plain).out).object();
        const QJsonObject hint = json.value("faster_with_expert_parallel_options").toObject();
        QCOMPARE(hint.value("options").toArray().size(), 2);
        QCOMPARE(hint.value("options").toArray().at(0).toString(),
                 QStringLiteral("--moe-dispatcher deepep"));
        const double plainStep = json.value("step_time_s").toDouble();
        const double hintStep = hint.value("estimate").toObject().value("step_time_s").toDouble();
        QVERIFY2(hintStep > 0 && hintStep <= 0.95 * plainStep,
                 qPrintable(QString("%1 against %2").arg(hintStep).arg(plainStep)));
        // With the options given there is nothing to suggest: null.
        const QJsonObject given
            = QJsonDocument::fromJson(
                  run(plain + QStringList {"--moe-dispatcher", "deepep", "--moe-comm-overlap"}).out)
                  .object();
        QVERIFY(given.contains("faster_with_expert_parallel_options"));
        QVERIFY(given.value("faster_with_expert_parallel_options").isNull());
    }

    void trainMultiTokenPrediction()
    {
        // The 32-layer, h = 4096 custom model with one multi-token prediction block: a layer of
        // 12h² + 2h, the 2h x h projection and three norms, 14 x 4096² + 5 x 4096 = 234,901,504
        // parameters more, 2 bytes each in BF16 on every GPU (PP 1).
        QStringList arguments
            = customModelTrainArguments() + QStringList {"--recompute", "none", "--json"};
        const double weights = jsonNumber(arguments, {"memory_breakdown_gib", "weights"});
        const double withMtp = jsonNumber(arguments + QStringList {"--mtp-layers", "1"},
                                          {"memory_breakdown_gib", "weights"});
        QVERIFY2(qAbs((withMtp - weights) * 1073741824.0 - 2.0 * 234901504.0) < 1.0,
                 qPrintable(QString::number((withMtp - weights) * 1073741824.0, 'f', 1)));
        // DeepSeek-V3 trains its block unless the run says 0; more than 16 is refused.
        const Result tooMany
            = run({"train", "--gpu", "h100-sxm5-80gb", "--gpus", "8", "--model", "llama-2-7b",
                   "--seq-len", "4096", "--global-batch", "8", "--mtp-layers", "17"});
        QCOMPARE(tooMany.status, 2);
        QVERIFY2(tooMany.err.contains("--mtp-layers"), tooMany.err.constData());
        const Result explained = run({"train", "--gpu", "h100-sxm5-80gb", "--gpus", "8", "--model",
                                      "llama-2-7b", "--seq-len", "4096", "--global-batch", "8",
                                      "--tp", "1", "--pp", "1", "--mtp-layers", "1", "--explain"});
        QCOMPARE(explained.status, 0);
        QVERIFY2(explained.out.contains("multi-token prediction projection"),
                 explained.out.constData());
    }

    void trainOffloadsActivationsWhereMegatronCan()
    {
        // Offloading 4 of Llama 2 7B's layers: the step breakdown shows the copies that compute
        // does not hide; with pipeline parallelism Megatron-Core cannot offload, and says so.
        const Result offload
            = run({"train", "--gpu", "h100-sxm5-80gb", "--gpus", "8", "--model", "llama-2-7b",
                   "--seq-len", "4096", "--global-batch", "32", "--offload-activations", "4"});
        QCOMPARE(offload.status, 0);
        QVERIFY2(offload.out.contains("activation copies to host (exposed)"),
                 offload.out.constData());
        QVERIFY2(offload.out.contains("TP 1 x PP 1"), offload.out.constData());
        const Result piped = run({"train", "--gpu", "h100-sxm5-80gb", "--gpus", "8", "--model",
                                  "llama-2-7b", "--seq-len", "4096", "--global-batch", "32",
                                  "--offload-activations", "4", "--pp", "2"});
        QCOMPARE(piped.status, 3);
        QVERIFY2(piped.err.contains("activation offloading to the host needs PP=1"),
                 piped.err.constData());
    }

    void trainRefusesAFabricItCannotBuild()
    {
        // 131,072 H100 on a rail-optimised fabric of 16-port switches: 16,384 DGX in scalable
        // units of 8 (8 ports down, 8 up) are 2,048 units x 8 rails = 16,384 leaves, but even
        // four tiers of radix 16 join at most 16 x 8 x 8 = 1,024: no estimate on a fabric that
        // cannot exist, and the reason names both numbers.
        const QStringList job = {"train",          "--gpu",     "h100-sxm5-80gb",
                                 "--gpus",         "131072",    "--model",
                                 "gpt-3-175b",     "--seq-len", "2048",
                                 "--global-batch", "8192",      "--rail-optimised",
                                 "--switch-ports", "16"};
        const Result r = run(job);
        QCOMPARE(r.status, 3);
        QVERIFY2(r.err.contains("the fabric cannot be built: 4 tiers of radix-16 switches join "
                                "at most 1,024 leaves (8,192 GPUs); 16,384 leaves are needed"),
                 r.err.constData());
        QVERIFY(r.out.isEmpty());
        // On 64-port switches the same cluster takes a fourth tier (super-spines) and runs.
        QStringList radix64 = job;
        radix64.replace(radix64.size() - 1, QStringLiteral("64"));
        const Result fourTiers = run(radix64);
        QCOMPARE(fourTiers.status, 0);
        const Result json = run(job + QStringList {"--json"});
        QCOMPARE(json.status, 3);
        QCOMPARE(QJsonDocument::fromJson(json.out).object().value("fits").toBool(true), false);
        // The closed form stays available when it is asked for by name.
        const Result closedForm = run(job + QStringList {"--fabric-model", "closed-form"});
        QCOMPARE(closedForm.status, 0);
        QVERIFY(closedForm.out.contains("closed-form scale-out model"));
    }

    void planEstimateTextShowsTheRun()
    {
        // The run around the step in the text too: the sample's failures and expected wall
        // time; a million GPUs fail every 3 min against a 10 min restart (a 50,000 h GPU MTBF
        // over 1,048,576 GPUs is about 2.9 min before the nodes' and switches' own failures):
        // most restarts fail before the run resumes, so it spends nearly all its wall time on
        // failures (Daly's model: tst_operations derives the like), and the text says why.
        const Result sample
            = run({"plan", "estimate", CP_SOURCE_DIR "/samples/h100-1024-ndr-rail-fat-tree.json"});
        QCOMPARE(sample.status, 0);
        QVERIFY2(sample.out.contains("wall time (expected)"), sample.out.constData());
        QVERIFY(sample.out.contains("of wall time is useful work"));
        const Result million
            = run({"plan", "estimate", CP_SOURCE_DIR "/samples/h100-1m-8-buildings.json"});
        QCOMPARE(million.status, 0);
        QVERIFY2(million.out.contains(
                     "% of wall time is useful work: a failure every 3 min against 10 min to "
                     "restart"),
                 million.out.constData());
        QVERIFY(million.out.contains("job MTBF 3 min"));
        // The ViT sample is about its data path: one NFS server that cannot feed the first
        // epoch's JPEGs. 4,096 images a step at its 0.078 s step time (the text's, 4,096 x 256
        // patches / 13.53 M tokens/s = 0.0775 s) are about 52,850 files a second: the text
        // says so, and which stages cannot keep up, as the Estimate panel does.
        const Result vit
            = run({"plan", "estimate", CP_SOURCE_DIR "/samples/h100-128-vit-imagenet-nfs.json"});
        QCOMPARE(vit.status, 0);
        QVERIFY2(vit.out.contains("data path, first epoch"), vit.out.constData());
        QVERIFY(vit.out.contains("cannot keep up"));
        QVERIFY(vit.out.contains(" samples/s, "));
    }

    void trainOnPlanesReachesWhatSharedSpinesCannot()
    {
        // The 131,072 H100 that shared radix-64 spines cannot join (trainRefusesAFabricItCannot
        // Build) fit on one plane per rail: 8 planes of 16,384 servers, each 512 leaves, 512
        // spines and 256 cores (tst_fabric): 10,240 switches.
        const Result r
            = run({"train", "--gpu", "h100-sxm5-80gb", "--gpus", "131072", "--model", "gpt-3-175b",
                   "--seq-len", "2048", "--global-batch", "8192", "--multi-plane", "--json"});
        QCOMPARE(r.status, 0);
        const QJsonObject json = QJsonDocument::fromJson(r.out).object();
        QCOMPARE(json.value("operations").toObject().value("switches").toDouble(), 10240.0);
    }

    void trainSpansBuildings()
    {
        // 1,048,576 H100 in 8 buildings of 131,072, each on its own non-blocking fat-tree of
        // 128-port switches: leaves of 64 ports down and 64 up, 2,048 leaves in 32 pods of 64,
        // 64 spines per pod (2,048) and 64 groups of 16 cores (1,024): 5,120 switches a building,
        // 40,960 in all. Optical cables per building: 131,072 to the GPUs, 131,072 leaf uplinks,
        // 131,072 spine uplinks = 393,216, two transceivers each: 6,291,456 in all. The
        // interconnect, 400 Tb/s out of each of 8 buildings at 10 USD per Gb/s: 32 M USD.
        const QStringList job = {"train",
                                 "--gpu",
                                 "h100-sxm5-80gb",
                                 "--gpus",
                                 "1048576",
                                 "--model",
                                 "llama-3-405b",
                                 "--seq-len",
                                 "8192",
                                 "--global-batch",
                                 "16384",
                                 "--switch-ports",
                                 "128",
                                 "--buildings",
                                 "8",
                                 "--interconnect-tbps",
                                 "400",
                                 "--interconnect-km",
                                 "5",
                                 "--interconnect-usd-per-gbps",
                                 "10",
                                 "--json"};
        const Result r = run(job);
        QCOMPARE(r.status, 0);
        const QJsonObject json = QJsonDocument::fromJson(r.out).object();
        QCOMPARE(json.value("buildings").toInt(), 8);
        const QJsonObject operations = json.value("operations").toObject();
        QCOMPARE(operations.value("switches").toDouble(), 40960.0);
        QCOMPARE(operations.value("transceivers").toDouble(), 6291456.0);
        const QJsonObject interconnect = json.value("interconnect").toObject();
        QCOMPARE(interconnect.value("capital_usd").toDouble(), 32e6);
        // 5 km of fibre at 4.9 us per km.
        QVERIFY(qAbs(interconnect.value("latency_us").toDouble() - 24.5) < 1e-9);
        QVERIFY2(json.value("fabric_model").toString().contains("8 identical buildings"),
                 r.out.constData());
        // Without the interconnect's capacity, or with GPUs that do not split: usage errors.
        QStringList noCapacity = job;
        noCapacity.removeAt(noCapacity.indexOf("--interconnect-tbps") + 1);
        noCapacity.removeAll("--interconnect-tbps");
        const Result missing = run(noCapacity);
        QCOMPARE(missing.status, 2);
        QVERIFY2(missing.err.contains("needs --interconnect-tbps"), missing.err.constData());
        QStringList uneven = job;
        uneven[uneven.indexOf("1048576")] = "1048584";
        const Result split = run(uneven);
        QCOMPARE(split.status, 2);
        QVERIFY2(split.err.contains("do not split into 8 buildings"), split.err.constData());
    }

    void fabricJsonHasDocumentedKeys()
    {
        // k = 16 three-tier fat-tree: k^3/4 = 1,024 hosts, 5k^2/4 = 320 switches, 3 k^3/4 links.
        const Result r = run({"fabric", "--topology", "fat-tree", "--radix", "16", "--tiers", "3",
                              "--link", "ib-ndr-400", "--switch", "qm9700", "--json"});
        QCOMPARE(r.status, 0);
        const QJsonObject json = QJsonDocument::fromJson(r.out).object();
        for (const char *key : {"endpoints", "switches", "links", "diameter", "avg_hops",
                                "bisection_gbps", "bisection_ratio", "power_w", "cost_usd"})
            QVERIFY2(json.contains(QLatin1String(key)), key);
        QCOMPARE(json.value(QStringLiteral("endpoints")).toInt(), 1024);
        QCOMPARE(json.value(QStringLiteral("switches")).toInt(), 320);
        QCOMPARE(json.value(QStringLiteral("links")).toInt(), 3072);
        QCOMPARE(json.value(QStringLiteral("diameter")).toInt(), 6);
        QCOMPARE(json.value(QStringLiteral("bisection_gbps")).toDouble(), 1024 * 400.0 / 2);
        QCOMPARE(json.value(QStringLiteral("bisection_ratio")).toDouble(), 1.0);
        // 320 qm9700 scaled to 16 of 64 ports (750 W, $30,000 each), 6,144 optics of the NDR NIC.
        QVERIFY(json.value(QStringLiteral("notes")).toArray().size() == 1);
        QVERIFY(json.value(QStringLiteral("power_w")).toDouble() > 320 * 750 / 4.0);

        const Result torus = run({"fabric", "--topology", "torus", "--dims", "4x4x4", "--json"});
        QCOMPARE(torus.status, 0);
        const QJsonObject t = QJsonDocument::fromJson(torus.out).object();
        QCOMPARE(t.value(QStringLiteral("diameter")).toInt(), 6);
        QCOMPARE(t.value(QStringLiteral("bisection_gbps")).toDouble(), 32 * 400.0);

        const Result failed = run({"fabric", "--topology", "fat-tree", "--radix", "4", "--tiers",
                                   "3", "--fail-switch", "core-0", "--json"});
        QCOMPARE(failed.status, 0);
        const QJsonObject f = QJsonDocument::fromJson(failed.out).object();
        QCOMPARE(f.value(QStringLiteral("bisection_gbps")).toDouble(), 6 * 400.0);
        QCOMPARE(f.value(QStringLiteral("before_failure"))
                     .toObject()
                     .value(QStringLiteral("bisection_gbps"))
                     .toDouble(),
                 8 * 400.0);
        QVERIFY(f.value(QStringLiteral("connected")).toBool());

        const Result text = run({"fabric", "--topology", "dragonfly", "--p", "4"});
        QCOMPARE(text.status, 0);
        QVERIFY2(text.out.contains("Dragonfly, p = 4, a = 8, h = 4, 33 groups (1,056 endpoints"),
                 text.out.constData());
    }

    void worstFailureJson()
    {
        // k = 4 three-tier fat-tree: 16 hosts, 2 per leaf, each leaf cabled to both spines of its
        // pod, non-blocking. A leaf takes its 2 hosts (2 of 16 nodes) out of the job; a spine or
        // core leaves every host connected, and with a non-blocking fabric the contiguous rings
        // (one flow each way per leaf uplink pair) keep their rate: a leaf is the worst switch.
        const Result fabric = run({"fabric", "--topology", "fat-tree", "--radix", "4", "--tiers",
                                   "3", "--worst-failure", "--json"});
        QVERIFY2(fabric.status == 0, fabric.err.constData());
        const QJsonObject worst = QJsonDocument::fromJson(fabric.out)
                                      .object()
                                      .value(QStringLiteral("worst_failure"))
                                      .toObject();
        QVERIFY(worst.value(QStringLiteral("switch")).toString().startsWith(QLatin1String("leaf")));
        QCOMPARE(worst.value(QStringLiteral("nodes_cut_off")).toInt(), 2);
        QVERIFY(worst.value(QStringLiteral("step_time_s")).toDouble()
                > worst.value(QStringLiteral("intact_step_time_s")).toDouble());

        const QString plan
            = QStringLiteral(CP_SOURCE_DIR "/samples/h100-1024-ndr-rail-fat-tree.json");
        const Result estimate = run({"plan", "estimate", plan, "--worst-failure", "--json"});
        QVERIFY2(estimate.status == 0, estimate.err.constData());
        const QJsonObject json = QJsonDocument::fromJson(estimate.out).object();
        const QJsonObject w = json.value(QStringLiteral("worst_failure")).toObject();
        QCOMPARE(w.value(QStringLiteral("intact_step_time_s")).toDouble(),
                 json.value(QStringLiteral("training"))
                     .toObject()
                     .value(QStringLiteral("step_time_s"))
                     .toDouble());
        QVERIFY(w.contains(QStringLiteral("switch")) && w.contains(QStringLiteral("step_time_s")));
        const Result text = run({"plan", "estimate", plan, "--worst-failure"});
        QVERIFY2(text.out.contains("worst single failure: rail "), text.out.constData());
    }

    void invalidFabricExitsThree_data()
    {
        QTest::addColumn<QStringList>("arguments");
        QTest::addColumn<QString>("message");
        QTest::newRow("dragonfly groups")
            << QStringList {"fabric", "--topology", "dragonfly", "--p", "4", "--groups", "40"}
            << "40 groups exceed a*h + 1 = 33";
        QTest::newRow("two tiers too small")
            << QStringList {"fabric",  "--topology", "fat-tree",    "--radix", "64",
                            "--tiers", "2",          "--endpoints", "5000"}
            << "2 tiers of radix-64 switches join at most 64 leaves (2,048 endpoints)";
        QTest::newRow("torus dims")
            << QStringList {"fabric", "--topology", "torus", "--dims", "4x0x4"}
            << "each torus dimension must be 2 to 4096 chips, not 0";
        QTest::newRow("oversubscription")
            << QStringList {"fabric", "--topology", "fat-tree", "--oversubscription", "0.5"}
            << "leaf oversubscription must be between 1";
        QTest::newRow("failed switch")
            << QStringList {"fabric", "--topology",    "fat-tree", "--radix",
                            "4",      "--fail-switch", "spine-99"}
            << "no switch or endpoint called \"spine-99\"";
    }

    void invalidFabricExitsThree()
    {
        QFETCH(QStringList, arguments);
        QFETCH(QString, message);
        const Result r = run(arguments);
        QCOMPARE(r.status, 3);
        QVERIFY2(r.err.contains(message.toUtf8()), r.err.constData());
    }

    void validateNamesTheFileAndField()
    {
        // clusterplanner-validate reports a table it cannot read with the file and the field,
        // never a bare library exception: a format that is not a string, a document that is not
        // an object. The shipped inference table renders its report.
        const QString badFormat = m_dir.filePath(QStringLiteral("format-number.json"));
        const QString array = m_dir.filePath(QStringLiteral("array.json"));
        for (const auto &[path, text] : {std::pair {badFormat, QByteArray(R"({"format": 7})")},
                                         std::pair {array, QByteArray("[1, 2]")}}) {
            QFile file(path);
            QVERIFY(file.open(QIODevice::WriteOnly));
            file.write(text);
        }
        auto validate = [](const QString &table) {
            QProcess process;
            process.start(QStringLiteral(CP_VALIDATE_PATH), {table});
            process.waitForFinished(120000);
            return Result {process.exitCode(), process.readAllStandardOutput(),
                           process.readAllStandardError()};
        };
        const Result format = validate(badFormat);
        QCOMPARE(format.status, 1);
        QVERIFY2(format.err.contains("format-number.json: /format: expected a string"),
                 format.err.constData());
        const Result notObject = validate(array);
        QCOMPARE(notObject.status, 1);
        QVERIFY2(notObject.err.contains("array.json: /: expected an object"),
                 notObject.err.constData());
        const Result report = validate(
            QStringLiteral(CP_SOURCE_DIR "/catalogs/validation/inference_validation.json"));
        QVERIFY2(report.status == 0, report.err.constData());
        QVERIFY(report.out.startsWith("# Validation: inference estimator"));
    }

    void aOneSlotReplicaIsSizedForAFreeSlot()
    {
        // Llama 3 70B at 50 requests/s on TP 2 H100 replicas that run one sequence at a time
        // (--max-batch 1), within a 500 ms p95 TTFT. A prompt finds the slot taken with
        // probability rho, the replica's occupancy (Poisson arrivals see it in time), and then
        // waits P(W > t) = rho e^-(mu - lambda) t. A request holds the slot for at least its 250
        // tokens' decode at the weights' streaming floor, 70.6 B FP8 bytes / 2 GPUs / 3.35 TB/s
        // = 10.5 ms a token, 2.6 s, so mu <= 0.38/s; with the prompt's ~85 ms prefill the wait
        // may take at most 415 ms, so rho <= 0.05 x e^(0.415 x 0.38) = 0.0587. The fleet had
        // been sized at rho = 0.355 (a TTFT p95 of 122 ms that counted no wait), where
        // 1 - e^-0.355 = 30% of prompts find the slot taken, passed as fewer than one in twenty.
        const Result r = run({"infer",
                              "--gpu",
                              "h100-sxm5-80gb",
                              "--precision",
                              "fp8",
                              "--gpus-per-replica",
                              "2",
                              "--model",
                              "llama-3-70b",
                              "--input-tokens",
                              "1000",
                              "--output-tokens",
                              "250",
                              "--rate",
                              "50",
                              "--ttft-p95-ms",
                              "500",
                              "--max-batch",
                              "1",
                              "--json"});
        QVERIFY2(r.status == 0, r.err.constData());
        const QJsonObject json = QJsonDocument::fromJson(r.out).object();
        const double occupancy = json.value("in_flight_sequences").toDouble();
        QVERIFY2(occupancy > 0 && occupancy <= 0.0587, qPrintable(QString::number(occupancy)));
        QVERIFY(json.value("ttft_p95_ms").toDouble() <= 500);
    }

    void moeAllToAllSlowsOnAnOversubscribedFabric()
    {
        // DeepSeek-V3 on 1,024 H100s, EP 64 at TP 1: each expert group is 8 DGX H100s. On a 2:1
        // fat-tree of radix 64 the leaves are built 42:22, 5 nodes a leaf (42 NICs / 8). A leaf a
        // group boundary halves sends 5 - 5^2 / (2 x 8) = 3.44 nodes' worth out over uplinks
        // carrying 5 x 22 / 42 = 2.62: 0.762 of the NIC, so the dispatch and combine between
        // nodes take up to 1 / 0.762 = 1.3125 times as long (within a node, over NVLink, as
        // long). They took the same 17.06 s on both fabrics: the rings' rate, measured.
        const QStringList args = {"train",
                                  "--gpu",
                                  "h100-sxm5-80gb",
                                  "--gpus",
                                  "1024",
                                  "--model",
                                  "deepseek-v3",
                                  "--seq-len",
                                  "4096",
                                  "--global-batch",
                                  "4096",
                                  "--precision",
                                  "fp8",
                                  "--tp",
                                  "1",
                                  "--pp",
                                  "16",
                                  "--dp",
                                  "64",
                                  "--ep",
                                  "64",
                                  "--json"};
        const auto expertSeconds = [&](const char *ratio) {
            const Result r = run(args + QStringList {"--oversubscription", ratio});
            return QJsonDocument::fromJson(r.out)
                .object()
                .value("breakdown")
                .toObject()
                .value("ep_comm")
                .toDouble();
        };
        const double nonBlocking = expertSeconds("1");
        const double tapered = expertSeconds("2");
        QVERIFY(nonBlocking > 0);
        QVERIFY2(tapered > nonBlocking * 1.05 && tapered <= nonBlocking * 1.3125 * (1 + 1e-9),
                 qPrintable(QString::number(tapered / nonBlocking)));
    }

    void inferShowsItsFloor()
    {
        // Llama 2 7B in 16 bits on one H100, batch 1: no engine decodes faster than streaming
        // the 13.2147 GB of weights a token passes (all 6,738,415,616 parameters but the
        // 131,072,000 of the input embedding, whose row is gathered) and the K/V it attends
        // (128 + 64 tokens on average, 100.66 MB) at 3.35 TB/s: 3.97 ms.
        const QStringList args {"infer",
                                "--gpu",
                                "h100-sxm5-80gb",
                                "--model",
                                "llama-2-7b",
                                "--precision",
                                "fp16",
                                "--batch",
                                "1",
                                "--input-tokens",
                                "128",
                                "--output-tokens",
                                "128"};
        const Result text = run(args);
        QVERIFY2(text.status == 0, text.err.constData());
        QVERIFY2(text.out.contains("floor (no engine is faster)")
                     && text.out.contains("decode step 3.97 ms; the estimate takes "),
                 text.out.constData());
        const Result json = run(args + QStringList {"--json"});
        QVERIFY2(json.status == 0, json.err.constData());
        const QJsonObject floor = QJsonDocument::fromJson(json.out)
                                      .object()
                                      .value(QStringLiteral("floor_ms"))
                                      .toObject();
        QVERIFY2(qAbs(floor.value(QStringLiteral("decode_step")).toDouble() / 3.9747 - 1) < 0.002,
                 json.out.constData());
        QVERIFY(floor.value(QStringLiteral("prefill")).toDouble() > 0);
    }

    void inferJsonAndDoesNotFit()
    {
        const Result r = run({"infer",
                              "--gpu",
                              "h100-sxm5-80gb",
                              "--gpus-per-replica",
                              "8",
                              "--model",
                              "llama-2-70b",
                              "--precision",
                              "fp16",
                              "--input-tokens",
                              "1024",
                              "--output-tokens",
                              "256",
                              "--rate",
                              "10",
                              "--ttft-p95-ms",
                              "500",
                              "--tpot-p95-ms",
                              "50",
                              "--json"});
        QVERIFY2(r.status == 0, r.err.constData());
        const QJsonObject json = QJsonDocument::fromJson(r.out).object();
        for (const char *key :
             {"ttft_ms", "tpot_ms", "tokens_per_s_per_gpu", "max_batch", "memory_gib_per_gpu",
              "fits", "replicas", "cost_per_million_output_tokens_usd", "power_w", "bottleneck"})
            QVERIFY2(json.contains(QLatin1String(key)), key);
        QVERIFY(json.value(QStringLiteral("ttft_ms")).toDouble() <= 500);
        // Under a load they are figures: the p95 step is at least the mean one.
        QVERIFY(json.value(QStringLiteral("tpot_p95_ms")).toDouble()
                >= json.value(QStringLiteral("tpot_ms")).toDouble());
        QVERIFY(json.value(QStringLiteral("utilisation")).toDouble() > 0);
        const Result tooBig = run({"infer", "--gpu", "l4", "--model", "llama-2-70b", "--precision",
                                   "fp16", "--input-tokens", "512", "--output-tokens", "128"});
        QCOMPARE(tooBig.status, 3);
        QVERIFY2(tooBig.err.contains("infeasible: needs"), tooBig.err.constData());
        // A replica that cannot hold the model gets no fleet or cost (it printed one replica and
        // a cost per token for it); in JSON those figures are null.
        QVERIFY2(tooBig.out.contains("none: needs"), tooBig.out.constData());
        QVERIFY2(!tooBig.out.contains("cost per million"), tooBig.out.constData());
        // Nor times, as its JSON has none: a TTFT beside "DOES NOT FIT" read as an estimate.
        QVERIFY2(tooBig.out.contains("DOES NOT FIT"), tooBig.out.constData());
        QVERIFY2(!tooBig.out.contains("TTFT") && !tooBig.out.contains("end-to-end"),
                 tooBig.out.constData());
        // A request longer than the model's context (8,000 + 500 tokens against Llama 3 70B's
        // 8,192) fits in memory: the replica says why it cannot serve, not "DOES NOT FIT".
        const Result tooLong = run({"infer", "--gpu", "h100-sxm5-80gb", "--gpus-per-replica", "4",
                                    "--model", "llama-3-70b", "--precision", "bf16",
                                    "--input-tokens", "8000", "--output-tokens", "500"});
        QCOMPARE(tooLong.status, 3);
        QVERIFY2(!tooLong.out.contains("DOES NOT FIT") && !tooLong.out.contains("by memory"),
                 tooLong.out.constData());
        QVERIFY2(tooLong.out.contains("longer than Llama 3 70B's context of 8,192 tokens"),
                 tooLong.out.constData());
        // A fixed fleet offered more than it serves: its end-to-end latency is as unbounded as
        // its TTFT, and every replica runs its largest batch (JSON had 0 sequences in flight).
        const QStringList overloaded = {"infer",
                                        "--gpu",
                                        "h100-sxm5-80gb",
                                        "--model",
                                        "llama-3-8b",
                                        "--precision",
                                        "bf16",
                                        "--input-tokens",
                                        "1000",
                                        "--output-tokens",
                                        "200",
                                        "--rate",
                                        "200",
                                        "--replicas",
                                        "2"};
        const Result queued = run(overloaded);
        QVERIFY2(queued.out.contains("end-to-end latency              unbounded"),
                 queued.out.constData());
        const QJsonObject queuedJson
            = QJsonDocument::fromJson(run(overloaded + QStringList {"--json"}).out).object();
        QCOMPARE(queuedJson.value(QStringLiteral("in_flight_sequences")).toDouble(),
                 queuedJson.value(QStringLiteral("batch")).toDouble());
        QCOMPARE(queuedJson.value(QStringLiteral("tpot_p95_ms")).toDouble(),
                 queuedJson.value(QStringLiteral("tpot_ms")).toDouble());
        const Result tooBigJson
            = run({"infer", "--gpu", "l4", "--model", "llama-2-70b", "--precision", "fp16",
                   "--input-tokens", "512", "--output-tokens", "128", "--json"});
        const QJsonObject tooBigFigures = QJsonDocument::fromJson(tooBigJson.out).object();
        QCOMPARE(tooBigFigures.value(QStringLiteral("replicas")).toInt(-1), 0);
        QVERIFY(tooBigFigures.value(QStringLiteral("cost_per_million_output_tokens_usd")).isNull());
        QVERIFY(tooBigFigures.value(QStringLiteral("tpot_ms")).isNull());
        // 50 requests/s of Llama 3 70B on 4-L4 replicas within a 700 ms p95 TTFT: a prompt's
        // prefill takes most of the target, so the fleet is sized by keeping replicas nearly
        // idle (82,088 GPUs, 5% busy); the estimate says the target sizes it, where it read as a
        // sizing error. On H100s the same load leaves replicas busy and nothing is said.
        const QStringList idleFleet
            = {"infer", "--model", "llama-3-70b", "--input-tokens", "1000", "--output-tokens",
               "250",   "--rate",  "50",          "--ttft-p95-ms",  "700",  "--precision",
               "fp8"};
        const Result l4 = run(idleFleet + QStringList {"--gpu", "l4", "--gpus-per-replica", "4"});
        QVERIFY2(l4.out.contains("the target, not the load, sizes this fleet"), l4.out.constData());
        const Result h100
            = run(idleFleet + QStringList {"--gpu", "h100-sxm5-80gb", "--gpus-per-replica", "2"});
        QCOMPARE(h100.status, 0);
        QVERIFY2(!h100.out.contains("sizes this fleet"), h100.out.constData());
        // Llama 2 70B's 138 GB of FP16 weights on one 24 GB L4: no target is met and no cost is
        // all-in (it said "meets_targets": true beside "fits": false, and 0.033 USD all-in).
        QVERIFY(!tooBigFigures.value(QStringLiteral("fits")).toBool(true));
        QVERIFY(!tooBigFigures.value(QStringLiteral("meets_targets")).toBool(true));
        QVERIFY(tooBigFigures.value(QStringLiteral("cost_per_million_output_tokens_all_in_usd"))
                    .isNull());
        // 5 requests a second of Llama 3 8B in BF16 on L4s within a 20 ms TPOT: each token streams
        // 16 GB of weights at 300 GB/s, 53.5 ms at least, so no fleet serves it; the replica's
        // best is shown, with no replicas or cost (it was 1 replica at 0.043 USD per million).
        const Result slow = run({"infer", "--gpu", "l4", "--model", "llama-3-8b", "--precision",
                                 "bf16", "--input-tokens", "1024", "--output-tokens", "256",
                                 "--rate", "5", "--ttft-p95-ms", "500", "--tpot-p95-ms", "20"});
        QCOMPARE(slow.status, 3);
        QVERIFY2(slow.out.contains("none: no fleet meets the targets"), slow.out.constData());
        QVERIFY2(!slow.out.contains("cost per million"), slow.out.constData());
        const Result cheapest
            = run({"infer", "--gpu", "all", "--model", "llama-3-8b", "--input-tokens", "512",
                   "--output-tokens", "128", "--rate", "20", "--ttft-p95-ms", "500",
                   "--tpot-p95-ms", "50", "--json"});
        QCOMPARE(cheapest.status, 0);
        const QJsonArray options = QJsonDocument::fromJson(cheapest.out)
                                       .object()
                                       .value(QStringLiteral("options"))
                                       .toArray();
        QVERIFY(options.size() > 3);
        // Each option says how far the estimator has been from published measurements on its GPU
        // with its weights: 56 FP8 throughputs on the H100 (counted by hand in
        // catalogs/validation/inference_validation.json), none at all on the B200.
        bool sawH100Fp8 = false, sawB200 = false;
        for (const QJsonValue &value : options) {
            const QJsonObject option = value.toObject();
            const QJsonObject published
                = option.value(QStringLiteral("published_measurements")).toObject();
            const QString gpu = option.value(QStringLiteral("gpu")).toString();
            if (gpu == QStringLiteral("h100-sxm5-80gb")
                && option.value(QStringLiteral("precision")).toString() == QStringLiteral("fp8")) {
                QCOMPARE(published.value(QStringLiteral("throughput_error"))
                             .toObject()
                             .value(QStringLiteral("rows"))
                             .toInt(),
                         56);
                sawH100Fp8 = true;
            } else if (gpu == QStringLiteral("b200-sxm-192gb")) {
                QCOMPARE(published.value(QStringLiteral("available")).toBool(), false);
                sawB200 = true;
            }
        }
        QVERIFY(sawH100Fp8 && sawB200);
        const Result table = run({"infer", "--gpu", "all", "--model", "llama-3-8b",
                                  "--input-tokens", "512", "--output-tokens", "128", "--rate", "20",
                                  "--ttft-p95-ms", "500", "--tpot-p95-ms", "50"});
        QVERIFY2(table.out.contains(" published ") && table.out.contains(" on 56 "),
                 table.out.constData());
        // GPUs by their catalog names, not ids.
        QVERIFY2(table.out.contains("NVIDIA H100 SXM5 80GB")
                     && !table.out.contains("h100-sxm5-80gb"),
                 table.out.constData());
    }

    void aTinyStepReadsInMilliseconds()
    {
        // A 2-layer model of hidden 64 at 128 tokens steps in well under a millisecond: its step
        // time and breakdown read in ms, not "0.000 s" over rows of 0.0000.
        const Result tiny = run({"train", "--gpu", "h100-sxm5-80gb", "--gpus", "8", "--layers", "2",
                                 "--hidden", "64", "--heads", "2", "--vocab", "1000", "--seq-len",
                                 "128", "--global-batch", "8", "--tokens", "1e9"});
        QCOMPARE(tiny.status, 0);
        QVERIFY2(!tiny.out.contains("0.000 s") && tiny.out.contains(" ms\n"), tiny.out.constData());
        QVERIFY2(tiny.out.contains("step breakdown                ms"), tiny.out.constData());
    }

    void trainSizesTheFabricWithTheNicsSwitch()
    {
        // 1,024 H100 on 400 GbE: the catalog's switch for it, an SN5600, has 128 ports of 400
        // GbE. Non-blocking, a leaf has 64 down and 64 up: 16 leaves and 8 spines taking 8 links
        // from each, 24 switches. The run had counted radix-64 switches (48) while pricing the
        // 128-port one; --switch-ports 64 still asks for them.
        const QStringList base
            = {"train",       "--gpu",     "h100-sxm5-80gb", "--gpus",         "1024", "--model",
               "llama-3-70b", "--seq-len", "8192",           "--global-batch", "512",  "--tokens",
               "2T",          "--nic",     "roce-400g"};
        const Result roce = run(base);
        QCOMPARE(roce.status, 0);
        QVERIFY2(roce.out.contains("(24 switches,"), roce.out.constData());
        const Result radix64 = run(base + QStringList {"--switch-ports", "64"});
        QVERIFY2(radix64.out.contains("(48 switches,"), radix64.out.constData());
    }

    void inferAllGpusTriesReplicaSizes()
    {
        // Llama 3 70B in 16 bits: 141 GB of weights do not fit one 80 GB H100, so a one-GPU
        // replica was all --gpu all tried and the H100 and A100 had no 16-bit option. Each GPU
        // and precision now takes its cheapest replica of 1, 2, 4 or 8 GPUs of its server.
        const Result all = run({"infer", "--gpu", "all", "--model", "llama-3-70b", "--input-tokens",
                                "2000", "--output-tokens", "200", "--rate", "50", "--ttft-p95-ms",
                                "500", "--tpot-p95-ms", "50", "--json"});
        QCOMPARE(all.status, 0);
        const QJsonArray options
            = QJsonDocument::fromJson(all.out).object().value(QStringLiteral("options")).toArray();
        bool sawH100Fp16 = false;
        for (const QJsonValue &value : options) {
            const QJsonObject option = value.toObject();
            if (option.value(QStringLiteral("gpu")).toString() == QStringLiteral("h100-sxm5-80gb")
                && option.value(QStringLiteral("precision")).toString() == QStringLiteral("fp16")) {
                QVERIFY(option.value(QStringLiteral("gpus_per_replica")).toInt() >= 2);
                QCOMPARE(option.value(QStringLiteral("gpu_name")).toString(),
                         QStringLiteral("NVIDIA H100 SXM5 80GB"));
                sawH100Fp16 = true;
            }
        }
        QVERIFY(sawH100Fp16);
        // --gpus-per-replica fixes the size: one GPU cannot hold the 16-bit weights.
        const Result one = run({"infer",       "--gpu",          "all",  "--model",
                                "llama-3-70b", "--precision",    "fp16", "--gpus-per-replica",
                                "1",           "--input-tokens", "2000", "--output-tokens",
                                "200",         "--rate",         "50",   "--ttft-p95-ms",
                                "500",         "--tpot-p95-ms",  "50",   "--json"});
        QVERIFY2(!one.out.contains("h100-sxm5-80gb"), one.out.constData());
    }

    void inferAllGpusTriesReplicasAcrossServers()
    {
        // DeepSeek-V3 in FP8: 671 G parameters of one byte are 625 GiB, 78.1 GiB on each of 8
        // H100, which beside the engine's reserve and the K/V cache pass the 79.6 GiB a GPU has,
        // so no replica of one DGX H100 serves it, and --gpu all left the H100 out ("needs 86.3
        // GiB per GPU") as if it could not serve it at all. Two servers, 16 GPUs in two pipeline
        // stages, hold 39.1 GiB of weights each.
        const QStringList ask
            = {"infer", "--gpu",          "all",  "--model",         "deepseek-v3", "--precision",
               "fp8",   "--input-tokens", "2000", "--output-tokens", "500",         "--rate",
               "10",    "--ttft-p95-ms",  "2000", "--tpot-p95-ms",   "100"};
        const Result all = run(ask + QStringList {"--json"});
        QVERIFY2(all.status == 0, all.err.constData());
        bool sawH100 = false;
        for (const QJsonValue &value :
             QJsonDocument::fromJson(all.out).object().value(QStringLiteral("options")).toArray()) {
            const QJsonObject option = value.toObject();
            if (option.value(QStringLiteral("gpu")).toString()
                == QStringLiteral("h100-sxm5-80gb")) {
                QCOMPARE(option.value(QStringLiteral("gpus_per_replica")).toInt(), 16);
                sawH100 = true;
            }
        }
        QVERIFY2(sawH100, all.out.constData());
        // A GPU without FP8 tensor cores is left out for that reason, not its memory.
        const Result text = run(ask);
        QVERIFY2(text.out.contains("not shown: NVIDIA A100 SXM4 80GB: its tensor cores do not "
                                   "compute in fp8"),
                 text.out.constData());
    }

    void inferAllGpusPricesWholeServers()
    {
        // Llama 3 70B at 5 requests/s: two GB200 GPUs serve it and ranked first at 1.80 USD an
        // hour a GPU, but a GB200 NVL72 is bought by the rack of 72, 36 times the two GPUs' cost.
        // Ranked by the whole servers each fleet fills, it is last; the note says how costs read.
        const Result all
            = run({"infer", "--gpu", "all", "--model", "llama-3-70b", "--precision", "bf16",
                   "--input-tokens", "1000", "--output-tokens", "200", "--rate", "5",
                   "--ttft-p95-ms", "3000", "--tpot-p95-ms", "250", "--json"});
        QVERIFY2(all.status == 0, all.err.constData());
        const QJsonArray options
            = QJsonDocument::fromJson(all.out).object().value(QStringLiteral("options")).toArray();
        QVERIFY(options.size() >= 2);
        const QJsonObject last = options.last().toObject();
        QCOMPARE(last.value(QStringLiteral("gpu")).toString(), QStringLiteral("gb200-nvl72-gpu"));
        QCOMPARE(last.value(QStringLiteral("servers")).toInt(), 1);
        QCOMPARE(last.value(QStringLiteral("gpus_per_server")).toInt(), 72);
        // Every option ranks no dearer than the next by its whole servers' cost.
        for (qsizetype i = 1; i < options.size(); ++i)
            QVERIFY(options.at(i - 1).toObject().value("whole_servers_usd_per_hour").toDouble()
                    <= options.at(i).toObject().value("whole_servers_usd_per_hour").toDouble());
        // The costs per token it ranks by are given, the fleet's own scaled by its whole
        // servers' cost over its GPUs': the GB200 fleet's 2 GPUs cost 1/36 of its rack, so its
        // whole-server cost per token is 36 times its own (the table's figure; JSON gave only
        // the fleet's own, and a reader ranking by it found another "cheapest").
        const double scale = last.value("whole_servers_usd_per_hour").toDouble()
            / last.value("usd_per_hour").toDouble();
        QCOMPARE(scale, 36.0);
        QVERIFY(qAbs(last.value("whole_servers_cost_per_million_output_tokens_usd").toDouble()
                     - 36.0 * last.value("cost_per_million_output_tokens_usd").toDouble())
                < 1e-9);
        // Every fleet serves the same load, 5 requests/s x 200 output tokens = 3.6 M output tokens
        // an hour, so its all-in cost per million is its whole servers' cost an hour over 3.6:
        // the column that ranks as the fleets do (the decode share alone did not).
        for (const QJsonValue &value : options) {
            const QJsonObject o = value.toObject();
            QVERIFY(
                qAbs(o.value("whole_servers_cost_per_million_output_tokens_all_in_usd").toDouble()
                     - o.value("whole_servers_usd_per_hour").toDouble() / 3.6)
                < 1e-9 * o.value("whole_servers_usd_per_hour").toDouble());
        }
        QVERIFY(QJsonDocument::fromJson(all.out)
                    .object()
                    .value(QStringLiteral("ranked_by"))
                    .toString()
                    .startsWith(QStringLiteral("the fleet's cost an hour on the whole servers")));
        const Result text = run({"infer", "--gpu", "all", "--model", "llama-3-70b", "--precision",
                                 "bf16", "--input-tokens", "1000", "--output-tokens", "200",
                                 "--rate", "5", "--ttft-p95-ms", "3000", "--tpot-p95-ms", "250"});
        QVERIFY2(text.out.contains("costs: the whole servers each fleet fills"),
                 text.out.constData());
        // Under a rate the latency columns are the p95s the targets are set on.
        QVERIFY2(text.out.contains("TTFT p95 ms  TPOT p95 ms"), text.out.constData());
        // One cloud price for every GPU type is said to rank the fleets by GPU count.
        const Result cloud
            = run({"infer", "--gpu", "all", "--model", "llama-3-70b", "--precision", "bf16",
                   "--input-tokens", "1000", "--output-tokens", "200", "--rate", "5",
                   "--ttft-p95-ms", "3000", "--tpot-p95-ms", "250", "--hourly-price", "2.5"});
        QVERIFY2(cloud.out.contains("costs: every GPU type at the same 2.5 USD per GPU-hour "
                                    "(--hourly-price), so the ranking is by GPUs"),
                 cloud.out.constData());
        QVERIFY(!cloud.out.contains("costs: the whole servers"));
        // A price of 0 made every cost 0 without a word: refused, by infer and train alike.
        const Result free
            = run(inferLlama3EightBOnH100("1024", "256") + QStringList {"--hourly-price", "0"});
        QCOMPARE(free.status, 2);
        QVERIFY2(free.err.contains("--hourly-price 0 makes every GPU-hour free"),
                 free.err.constData());
        const Result freeTraining
            = run({"train", "--gpu", "h100-sxm5-80gb", "--gpus", "8", "--model", "llama-3-8b",
                   "--seq-len", "4096", "--global-batch", "64", "--hourly-price", "0"});
        QCOMPARE(freeTraining.status, 2);
        QVERIFY2(freeTraining.err.contains("--hourly-price 0 makes every GPU-hour free"),
                 freeTraining.err.constData());
    }

    void inferEngineBatchLimit()
    {
        // Llama 3 8B in FP8 at 128 + 128 tokens fits some 4,100 sequences on an H100
        // (tst_inferenceestimator derives it); vLLM runs 256 of them unless told otherwise.
        const QStringList base
            = inferLlama3EightBOnH100("128", "128") + QStringList {"--kv-precision", "fp8"};
        const Result capped = run(base + QStringList {"--json"});
        QVERIFY2(capped.status == 0, capped.err.constData());
        const QJsonObject json = QJsonDocument::fromJson(capped.out).object();
        QCOMPARE(json.value(QStringLiteral("batch")).toInt(), 256);
        QCOMPARE(json.value(QStringLiteral("engine_batch_limit")).toInt(), 256);
        // A batch with no offered load has no occupancy, utilisation or p95 step: null (they
        // were 0, a p95 TPOT of 0 ms).
        for (const char *key : {"tpot_p95_ms", "utilisation", "in_flight_sequences"})
            QVERIFY2(json.value(QLatin1String(key)).isNull(), key);
        QVERIFY(json.value(QStringLiteral("memory_batch_limit")).toInt() > 4000);
        const Result text = run(base);
        QVERIFY2(text.out.contains("batch 256 (max 256 by the engine;"), text.out.constData());

        const Result raised = run(base + QStringList {"--max-batch", "1000", "--json"});
        QCOMPARE(
            QJsonDocument::fromJson(raised.out).object().value(QStringLiteral("batch")).toInt(),
            1000);
        const Result over = run(base + QStringList {"--batch", "300"});
        QCOMPARE(over.status, 3);
        QVERIFY2(over.err.contains("max_num_seqs"), over.err.constData());
        // A batch past what memory holds says how many do fit: Llama 3 8B in FP8 keeps
        // 32 x 2 x 8 x 128 x 2 B = 128 KiB of BF16 K/V a token, 160 MiB (0.156 GiB) for 1,280
        // tokens; 79.6 GiB less 7.5 of weights and vLLM's 8.0 reserve leave room for
        // 64.1 / 0.156 = 410. It said "not even one sequence fits in memory".
        const Result pastMemory
            = run(inferLlama3EightBOnH100("1024", "256") + QStringList {"--batch", "600"});
        QCOMPARE(pastMemory.status, 3);
        QVERIFY2(pastMemory.out.contains("batch 600 (max 256 by the engine; 410 fit in memory)"),
                 pastMemory.out.constData());
        QVERIFY2(!pastMemory.out.contains("not even one"), pastMemory.out.constData());
        // A sequence's K/V is its request's (128 KiB x 1,280 tokens = 0.156 GiB), which "at full
        // context" made read as the model's whole context window.
        QVERIFY2(pastMemory.out.contains("0.16 GiB by its last token (1,280 tokens), whole model"),
                 pastMemory.out.constData());
        const Result contradiction
            = run(base + QStringList {"--batch", "300", "--max-batch", "200"});
        QCOMPARE(contradiction.status, 2);
        QVERIFY2(contradiction.err.contains("--batch is more than --max-batch"),
                 contradiction.err.constData());
    }

    void inferFixedFleet()
    {
        // Six replicas at 20 requests/s: the in-flight batch and the latencies under that load.
        const QStringList base = inferLlama3EightBOnH100("1024", "256");
        const Result fleet = run(base + QStringList {"--rate", "20", "--replicas", "6"});
        QVERIFY2(fleet.status == 0, fleet.err.constData());
        QVERIFY2(fleet.out.contains("in flight under the load"), fleet.out.constData());
        QVERIFY2(fleet.out.contains("time per output token (mean / p95 step under the load)"),
                 fleet.out.constData());
        const Result json = run(base + QStringList {"--rate", "20", "--replicas", "6", "--json"});
        const QJsonObject object = QJsonDocument::fromJson(json.out).object();
        QCOMPARE(object.value(QStringLiteral("replicas")).toInt(), 6);
        QVERIFY(object.value(QStringLiteral("in_flight_sequences")).toDouble() > 0);
        // Without a rate: the most the fleet serves within its targets, and the figures there.
        // Two replicas serve twice what one does (each takes half of a Poisson stream, itself
        // Poisson), so the capacity is twice one replica's.
        const QStringList limits {"--ttft-p95-ms", "500", "--tpot-p95-ms", "20"};
        const Result one = run(base + limits + QStringList {"--replicas", "1", "--json"});
        QVERIFY2(one.status == 0, one.err.constData());
        const QJsonObject oneCapacity = QJsonDocument::fromJson(one.out)
                                            .object()
                                            .value(QStringLiteral("capacity_within_limits"))
                                            .toObject();
        const double oneRate = oneCapacity.value(QStringLiteral("requests_per_second")).toDouble();
        QVERIFY(oneRate > 0);
        QCOMPARE(oneCapacity.value(QStringLiteral("limited_by")).toString(),
                 QStringLiteral("TPOT p95"));
        const Result two = run(base + limits + QStringList {"--replicas", "2", "--json"});
        QVERIFY2(two.status == 0, two.err.constData());
        const double twoRate = QJsonDocument::fromJson(two.out)
                                   .object()
                                   .value(QStringLiteral("capacity_within_limits"))
                                   .toObject()
                                   .value(QStringLiteral("requests_per_second"))
                                   .toDouble();
        QVERIFY2(qAbs(twoRate / (2 * oneRate) - 1.0) < 1e-3, qPrintable(QString::number(twoRate)));
        const Result twoText = run(base + limits + QStringList {"--replicas", "2"});
        QVERIFY2(twoText.out.contains("fleet capacity within the limits: "),
                 twoText.out.constData());
        QVERIFY2(twoText.out.contains(
                     "on 2 replicas; a little more load breaks the TPOT p95 limit. The figures "
                     "above are at that load."),
                 twoText.out.constData());
        // A limit no load keeps (TPOT below one sequence's decode step) is infeasible, saying so.
        const Result impossible
            = run(base + QStringList {"--replicas", "2", "--tpot-p99-ms", "0.5"});
        QCOMPARE(impossible.status, 3);
        QVERIFY2(impossible.err.contains("even without load the TPOT p99"),
                 impossible.err.constData());
        const Result mixed = run(
            base + QStringList {"--replicas", "2", "--ttft-p95-ms", "500", "--tpot-p99-ms", "50"});
        QCOMPARE(mixed.status, 2);
        QVERIFY2(mixed.err.contains("p95 or p99, not both"), mixed.err.constData());
        const Result p99AtRate
            = run(base + QStringList {"--rate", "5", "--replicas", "2", "--tpot-p99-ms", "50"});
        QCOMPARE(p99AtRate.status, 2);
        QVERIFY2(p99AtRate.err.contains("give --replicas without --rate"),
                 p99AtRate.err.constData());
        const Result batchFleet = run(base + QStringList {"--replicas", "2", "--batch", "8"});
        QCOMPARE(batchFleet.status, 2);
        QVERIFY2(batchFleet.err.contains("--batch fixes each replica's load"),
                 batchFleet.err.constData());
        const Result all
            = run({"infer", "--gpu", "all", "--model", "llama-3-8b", "--input-tokens", "512",
                   "--output-tokens", "128", "--rate", "20", "--replicas", "2"});
        QCOMPARE(all.status, 2);
        const Result overloaded = run(base + QStringList {"--rate", "500", "--replicas", "1"});
        QCOMPARE(overloaded.status, 3);
        QVERIFY2(overloaded.err.contains("replicas are needed"), overloaded.err.constData());
    }

    void inferOfflineJob()
    {
        // 500 requests of 128 + 2,048 tokens at batch 200 on one H100: two full waves and a
        // last one of 100; the job's figures are printed and in the JSON.
        const QStringList base = inferLlama3EightBOnH100("128", "2048")
            + QStringList {"--engine", "tensorrt-llm-0.12", "--batch", "200"};
        const Result text = run(base + QStringList {"--requests", "500"});
        QVERIFY2(text.status == 0, text.err.constData());
        QVERIFY2(text.out.contains("500 requests: 2 waves of 200 and 1 of 100"),
                 text.out.constData());
        // A request's first token comes once its wave starts, not once it was queued: the
        // latency rows say so.
        for (const char *row : {"job duration", "job throughput per GPU", "job cost", "job energy",
                                "TTFT once its wave starts", "end-to-end once its wave starts"})
            QVERIFY2(text.out.contains(row), row);
        const QJsonObject job
            = QJsonDocument::fromJson(run(base + QStringList {"--requests", "500", "--json"}).out)
                  .object()
                  .value(QStringLiteral("offline_job"))
                  .toObject();
        QCOMPARE(job.value(QStringLiteral("full_waves")).toInt(), 2);
        QCOMPARE(job.value(QStringLiteral("last_wave_batch")).toInt(), 100);
        QVERIFY(job.value(QStringLiteral("seconds")).toDouble() > 0);
        // Counts with a suffix; replicas share the job without a rate.
        const Result shared = run(base + QStringList {"--requests", "1.5M", "--replicas", "8"});
        QVERIFY2(shared.status == 0, shared.err.constData());
        QVERIFY2(shared.out.contains("1,500,000 requests, 187,500 on the busiest replica"),
                 shared.out.constData());
        // Refused: a fraction, a count past 10^12, a rate beside the job.
        for (const char *bad : {"2.5", "2T", "0"}) {
            const Result refused = run(base + QStringList {"--requests", bad});
            QCOMPARE(refused.status, 2);
            QVERIFY2(refused.err.contains("--requests"), refused.err.constData());
        }
        const Result rate = run(inferLlama3EightBOnH100("128", "2048")
                                + QStringList {"--requests", "10", "--rate", "3"});
        QCOMPARE(rate.status, 2);
        QVERIFY2(rate.err.contains("either --requests"), rate.err.constData());
        // --gpu all ranks by what the job costs, and shows how long it runs.
        const Result all = run({"infer", "--gpu", "all", "--model", "llama-3-8b", "--input-tokens",
                                "512", "--output-tokens", "128", "--requests", "100000"});
        QVERIFY2(all.status == 0, all.err.constData());
        QVERIFY2(all.out.contains("Running 100,000 requests of Llama 3 8B, cheapest job first"),
                 all.out.constData());
        QVERIFY2(all.out.contains("job time"), all.out.constData());
    }

    void inferLongContextCustomModelChunksOnVllm()
    {
        // vLLM 0.6 chunks prefills only for models whose context is over 32K tokens: the same
        // Llama 3 8B shape with a 131,072-token context prefills a 2,048-token prompt in four
        // 512-token chunks, each reading the weights again, so its first token comes later.
        const QStringList shape = inferLlama3EightBShapeOnH100()
            + QStringList {"--input-tokens", "2048", "--output-tokens", "64",
                           "--batch",        "1",    "--json"};
        const auto ttft = [&](const QStringList &extra) {
            return jsonNumber(shape + extra, {"ttft_ms"});
        };
        const double shortContext = ttft({});
        const double longContext = ttft({"--max-seq-len", "131072"});
        QVERIFY(shortContext > 0);
        QVERIFY2(longContext > shortContext,
                 qPrintable(QString::number(longContext) + " " + QString::number(shortContext)));
        const Result both = run({"infer", "--gpu", "h100-sxm5-80gb", "--model", "llama-3-8b",
                                 "--max-seq-len", "131072", "--precision", "fp8", "--input-tokens",
                                 "512", "--output-tokens", "64"});
        QCOMPARE(both.status, 2);
        QVERIFY2(both.err.contains("--max-seq-len"), both.err.constData());
    }

    void inferSlidingWindowShrinksTheKvCache()
    {
        // The Llama 3 8B shape at batch 4 of 8,000 + 192 tokens keeps 32 x 2 x 8 x 128 x 2 B =
        // 128 KiB a token, 8,192 tokens a sequence: 4 GiB. A 4,096-token window on every layer
        // (Mistral 7B's) keeps half of it; on 16 of the 32 layers, three quarters.
        const QStringList shape = inferLlama3EightBShapeOnH100()
            + QStringList {"--input-tokens", "8000", "--output-tokens", "192",
                           "--batch",        "4",    "--json"};
        const auto kvGib = [&](const QStringList &extra) {
            return jsonNumber(shape + extra, {"memory_breakdown_gib", "kv_cache"});
        };
        QCOMPARE(kvGib({}), 4.0);
        QCOMPARE(kvGib({"--sliding-window", "4096"}), 2.0);
        QCOMPARE(kvGib({"--sliding-window", "4096", "--windowed-layers", "16"}), 3.0);
        const Result layersOnly = run(shape + QStringList {"--windowed-layers", "16"});
        QCOMPARE(layersOnly.status, 2);
        QVERIFY2(layersOnly.err.contains("--windowed-layers needs --sliding-window"),
                 layersOnly.err.constData());
        const Result denseOnDense = run(shape + QStringList {"--dense-layers", "2"});
        QCOMPARE(denseOnDense.status, 2);
        QVERIFY2(denseOnDense.err.contains("--dense-layers and --dense-ffn need --experts above 1"),
                 denseOnDense.err.constData());
        const Result tooMany
            = run(shape + QStringList {"--sliding-window", "4096", "--windowed-layers", "33"});
        QCOMPARE(tooMany.status, 2);
        QVERIFY2(tooMany.err.contains("--windowed-layers"), tooMany.err.constData());
    }

    void inferParallelAttentionAllReducesOncePerLayer()
    {
        // A 32-layer, h = 4096 custom model in BF16 at TP 2, batch 1: a decode step all-reduces
        // one 4096-wide 2-byte hidden vector (8,192 B) after attention and after the MLP, 64
        // calls and 524,288 B; with attention and MLP side by side, once a layer: 32 calls,
        // 262,144 B.
        const QStringList shape {"infer",
                                 "--gpu",
                                 "h100-sxm5-80gb",
                                 "--layers",
                                 "32",
                                 "--hidden",
                                 "4096",
                                 "--heads",
                                 "32",
                                 "--vocab",
                                 "32000",
                                 "--precision",
                                 "bf16",
                                 "--gpus-per-replica",
                                 "2",
                                 "--input-tokens",
                                 "128",
                                 "--output-tokens",
                                 "16",
                                 "--batch",
                                 "1",
                                 "--json"};
        const auto allReduces = [&](const QStringList &extra) {
            const Result r = run(shape + extra);
            const QJsonArray operations
                = QJsonDocument::fromJson(r.out).object().value("decode_operations").toArray();
            for (const QJsonValue &operation : operations)
                if (operation.toObject().value("name").toString() == "TP all-reduces")
                    return std::pair {operation.toObject().value("kernels").toDouble(),
                                      operation.toObject().value("bytes").toDouble()};
            return std::pair {-1.0, -1.0};
        };
        QCOMPARE(allReduces({}), (std::pair {64.0, 524288.0}));
        QCOMPARE(allReduces({"--parallel-attention"}), (std::pair {32.0, 262144.0}));
        // A catalog model brings its own layer: the flag is refused beside --model.
        const Result catalogModel = run({"infer", "--gpu", "h100-sxm5-80gb", "--model",
                                         "llama-2-7b", "--precision", "bf16", "--input-tokens",
                                         "128", "--output-tokens", "16", "--parallel-attention"});
        QCOMPARE(catalogModel.status, 2);
        QVERIFY2(catalogModel.err.contains(
                     "give either --model or the model shape (--parallel-attention), not both"),
                 catalogModel.err.constData());
    }

    void inferChunkedAttentionKeepsOnlyTheChunk()
    {
        // The same 4 sequences of 8,192 tokens (4 GiB of K/V) with Llama 4's 8,192-token chunks:
        // a sequence just short of a chunk's end still keeps all of it, so chunks of 8,192 save
        // nothing here; chunks of 2,048 on every layer keep a quarter (1 GiB), on 16 of the 32
        // layers (2,048 + 8,192) / 2 = 5,120 tokens' worth (2.5 GiB).
        const QStringList shape = inferLlama3EightBShapeOnH100()
            + QStringList {"--input-tokens", "8000", "--output-tokens", "192",
                           "--batch",        "4",    "--json"};
        const auto kvGib = [&](const QStringList &extra) {
            return jsonNumber(shape + extra, {"memory_breakdown_gib", "kv_cache"});
        };
        QCOMPARE(kvGib({"--attention-chunk", "8192"}), 4.0);
        QCOMPARE(kvGib({"--attention-chunk", "2048"}), 1.0);
        QCOMPARE(kvGib({"--attention-chunk", "2048", "--chunked-layers", "16"}), 2.5);
        const Result layersOnly = run(shape + QStringList {"--chunked-layers", "16"});
        QCOMPARE(layersOnly.status, 2);
        QVERIFY2(layersOnly.err.contains("--chunked-layers needs --attention-chunk"),
                 layersOnly.err.constData());
        const Result both
            = run(shape + QStringList {"--attention-chunk", "2048", "--sliding-window", "4096"});
        QCOMPARE(both.status, 2);
        QVERIFY2(both.err.contains("give --sliding-window or --attention-chunk, not both"),
                 both.err.constData());
    }

    void inferLatentAttentionShape()
    {
        // DeepSeek-V3's attention as a custom shape on vLLM 0.7: a 16-bit latent cache of
        // 61 layers x (512 + 64) x 2 B = 70,272 B a token; the shape's other flags without
        // --kv-lora-rank are refused.
        const QStringList shape {"infer",
                                 "--gpu",
                                 "h200-sxm-141gb",
                                 "--precision",
                                 "fp8",
                                 "--input-tokens",
                                 "1000",
                                 "--output-tokens",
                                 "100",
                                 "--batch",
                                 "1",
                                 "--gpus-per-replica",
                                 "8",
                                 "--engine",
                                 "vllm-0.7",
                                 "--layers",
                                 "61",
                                 "--hidden",
                                 "7168",
                                 "--heads",
                                 "128",
                                 "--head-dim",
                                 "128",
                                 "--ffn",
                                 "18432",
                                 "--vocab",
                                 "129280",
                                 "--gated-mlp",
                                 "--json"};
        const QStringList latent {"--kv-lora-rank",  "512", "--q-lora-rank", "1536",
                                  "--rope-head-dim", "64",  "--v-head-dim",  "128"};
        QCOMPARE(jsonNumber(shape + latent, {"kv_bytes_per_token"}), 70272.0);
        const Result noRank = run(shape + QStringList {"--rope-head-dim", "64"});
        QCOMPARE(noRank.status, 2);
        QVERIFY2(noRank.err.contains("give --kv-lora-rank"), noRank.err.constData());
        const Result grouped = run(shape + latent + QStringList {"--kv-heads", "8"});
        QCOMPARE(grouped.status, 2);
        QVERIFY2(grouped.err.contains("leave --kv-heads out"), grouped.err.constData());
    }

    void planEstimateJsonSumsUpTheHall()
    {
        // The sample's room (tst_datahall derives every figure): 6 rows, 51 cabinets, none over
        // a limit, 188 PDUs, 68 patch panels, a storage network of 23 switches and 588 cables.
        const QString sample
            = QStringLiteral(CP_SOURCE_DIR "/samples/h100-1024-ndr-rail-fat-tree.json");
        const Result r = run({"plan", "estimate", sample, "--json"});
        QCOMPARE(r.status, 0);
        QJsonObject hall = QJsonDocument::fromJson(r.out).object().value("hall").toObject();
        QCOMPARE(hall.value("rows").toInt(), 6);
        QCOMPARE(hall.value("racks").toInt(), 51);
        QCOMPARE(hall.value("over_limit_racks").toInt(), 0);
        QCOMPARE(hall.value("pdus").toInt(), 188);
        QCOMPARE(hall.value("patch_panels").toInt(), 68);
        QCOMPARE(hall.value("storage_switches").toInt(), 23);
        QCOMPARE(hall.value("storage_cables").toInt(), 588);
        QCOMPARE(hall.value("cables_by_medium").toObject().value("active copper (ACC)").toInt(),
                 28 + 16);
        // Five DGX H100 to a cabinet: 5 x 10.2 = 51 kW against the cabinet's 40 kW; 128 servers
        // fill 25 such cabinets and a 26th with three (30.6 kW): 25 over the limit. (Their PDUs
        // follow the load: 3 x 17.3 = 51.9 kW a feed, enough.)
        QFile source(sample);
        QVERIFY(source.open(QIODevice::ReadOnly));
        QJsonObject plan = QJsonDocument::fromJson(source.readAll()).object();
        QJsonArray nodes = plan.value("nodes").toArray();
        QJsonObject group = nodes.at(0).toObject();
        group.insert("nodes_per_rack", 5);
        nodes.replace(0, group);
        plan.insert("nodes", nodes);
        const QString dense = m_dir.filePath(QStringLiteral("dense.json"));
        QFile out(dense);
        QVERIFY(out.open(QIODevice::WriteOnly));
        out.write(QJsonDocument(plan).toJson());
        out.close();
        const Result over = run({"plan", "estimate", dense, "--json"});
        QCOMPARE(over.status, 0);
        hall = QJsonDocument::fromJson(over.out).object().value("hall").toObject();
        QCOMPARE(hall.value("over_limit_racks").toInt(), 25);
        const Result text = run({"plan", "estimate", dense});
        QVERIFY2(text.out.contains("cabinets over a limit"), text.out.constData());
    }

    void planEstimateEverySample()
    {
        for (const char *name : {"h100-1024-ndr-rail-fat-tree.json", "a100-pcie-64-100gbe.json",
                                 "l4-inference-fleet.json"}) {
            const Result r = run({"plan", "estimate",
                                  QStringLiteral(CP_SOURCE_DIR "/samples/") + QLatin1String(name)});
            QVERIFY2(r.status == 0, r.err.constData());
            QVERIFY(r.out.contains("Bill of materials"));
            // Numbers for people: grouped thousands, no exponents, no inf or nan.
            QVERIFY2(!r.out.contains("e+0") && !r.out.contains("inf ") && !r.out.contains("nan"),
                     r.out.constData());
            const Result json
                = run({"plan", "estimate",
                       QStringLiteral(CP_SOURCE_DIR "/samples/") + QLatin1String(name), "--json"});
            QCOMPARE(json.status, 0);
            QVERIFY(QJsonDocument::fromJson(json.out).object().value(QStringLiteral("gpus")).toInt()
                    > 0);
        }
    }

    void humanNumbersInTables()
    {
        // The H100 sample's capital cost: 1,024 x 30,000 + 128 x 120,000 + (43 + 7 + 1) x 12,000
        // (server, network and storage racks) + 48 x 30,000 + 10 x 5,000 (management switches)
        // + 4 x 500,000 = 50,182,000 USD; the storage network's 23 QM8790 x 15,000 = 345,000 USD;
        // the cabinets' 188 PDUs x 2,500 + 68 patch panels x 1,000 = 538,000 USD
        // (tst_datahall derives the counts); and the cables with the optics their lengths need:
        // 4,040 x 800 + 1,000 x 400 (transceivers) + 28 x 500 + 16 x 400 + 72 x 145 (copper)
        // + 2,520 OM4 cables at 50 + 3 USD per metre of their stock lengths + 391 Cat 6A cords
        // at 5 + 1 USD per metre = 3,897,573 USD (tst_datahall:
        // theBillPricesEveryCableByMediumAndLength sums them cable by cable): 54,962,573 USD;
        // and the training run's hot spare (fewer than one node down at once, rounded up to
        // one), a DGX H100 with its GPUs, 120,000 + 8 x 30,000 = 360,000 USD: 55,322,573 USD,
        // which the summary gives to three digits, "$55.3 M", and the bill of materials whole
        // and grouped. Power the same way: the IT power is over a megawatt, so it reads in MW,
        // and its GPUs draw 1,024 x 700 W = 716.8 kW.
        const Result r
            = run({"plan", "estimate",
                   QStringLiteral(CP_SOURCE_DIR "/samples/h100-1024-ndr-rail-fat-tree.json")});
        QCOMPARE(r.status, 0);
        QVERIFY2(r.out.contains("capital cost            $55.3 M"), r.out.constData());
        QVERIFY2(r.out.contains("55,322,573"), r.out.constData());
        QVERIFY(!r.out.contains("55322573"));
        QVERIFY2(r.out.contains("Spares              NVIDIA DGX H100 with its GPUs (hot spare)  "),
                 r.out.constData());
        QVERIFY2(r.out.contains("  1      360,000   360,000\n"), r.out.constData());
        QVERIFY2(r.out.contains("IT power                1.40 MW (GPUs 717 kW"), r.out.constData());
        // The training throughput is written out, not as 1.412e+06.
        QVERIFY(r.out.contains("tokens/s"));
        QVERIFY(!r.out.contains("e+06 tokens/s"));
    }

    void brokenPlanNamesFileAndField()
    {
        const QString path = m_dir.filePath(QStringLiteral("broken-plan.json"));
        QFile file(path);
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.write(
            R"({"format": "clusterplanner-plan", "version": 1, "name": "x", "nodes": [{"node": "dgx-h100", "count": -2}]})");
        file.close();
        const Result r = run({"plan", "estimate", path});
        QCOMPARE(r.status, 1);
        QVERIFY2(
            r.err.contains((path + QStringLiteral(": /nodes/0/count: must be between 1")).toUtf8()),
            r.err.constData());
    }

    void importExportRoundTrip()
    {
        const QString exported = m_dir.filePath(QStringLiteral("export.json"));
        QCOMPARE(run({"catalog", "export", exported}).status, 0);
        QFile file(exported);
        QVERIFY(file.open(QIODevice::ReadOnly));
        QJsonObject document = QJsonDocument::fromJson(file.readAll()).object();
        file.close();
        QJsonArray gpus = document.value(QStringLiteral("gpus")).toArray();
        QJsonObject custom = gpus.at(0).toObject();
        custom.insert(QStringLiteral("id"), QStringLiteral("my-gpu"));
        const QJsonObject import {
            {"format", "clusterplanner-catalog"}, {"version", 1}, {"gpus", QJsonArray {custom}}};
        const QString importPath = m_dir.filePath(QStringLiteral("import.json"));
        QFile out(importPath);
        QVERIFY(out.open(QIODevice::WriteOnly));
        out.write(QJsonDocument(import).toJson());
        out.close();
        QCOMPARE(run({"catalog", "import", importPath}).status, 0);
        const Result shown = run({"catalog", "show", "my-gpu", "--json"});
        QCOMPARE(shown.status, 0);
        QCOMPARE(QJsonDocument::fromJson(shown.out).object().value(QStringLiteral("id")).toString(),
                 QStringLiteral("my-gpu"));

        custom.remove(QStringLiteral("tdp_w"));
        QVERIFY(out.open(QIODevice::WriteOnly | QIODevice::Truncate));
        out.write(QJsonDocument(QJsonObject {{"format", "clusterplanner-catalog"},
                                             {"version", 1},
                                             {"gpus", QJsonArray {custom}}})
                      .toJson());
        out.close();
        const Result broken = run({"catalog", "import", importPath});
        QCOMPARE(broken.status, 1);
        QVERIFY2(broken.err.contains(
                     (importPath + QStringLiteral(": /gpus/0/tdp_w: required number is missing"))
                         .toUtf8()),
                 broken.err.constData());
    }

    void inferDiurnalAutoscaling()
    {
        const QStringList base = {"infer",
                                  "--gpu",
                                  "h100-sxm5-80gb",
                                  "--model",
                                  "llama-3-8b",
                                  "--precision",
                                  "fp16",
                                  "--input-tokens",
                                  "1024",
                                  "--output-tokens",
                                  "256",
                                  "--rate",
                                  "200",
                                  "--ttft-p95-ms",
                                  "500",
                                  "--json"};
        const Result flat = run(base);
        QCOMPARE(flat.status, 0);
        const int peakReplicas
            = QJsonDocument::fromJson(flat.out).object().value("replicas").toInt();
        const Result r = run(base + QStringList {"--diurnal-trough", "0.25"});
        QVERIFY2(r.status == 0, r.err.constData());
        const QJsonObject a
            = QJsonDocument::fromJson(r.out).object().value("autoscaling").toObject();
        QCOMPARE(a.value("feasible").toBool(), true);
        const QJsonArray hours = a.value("replicas_per_hour").toArray();
        QCOMPARE(hours.size(), 24);
        // The peak hour (14:00) runs what the flat rate needs; static provisioning runs it all day.
        QCOMPARE(hours.at(14).toInt(), peakReplicas);
        QCOMPARE(a.value("static_replicas").toInt(), peakReplicas);
        double sum = 0;
        for (const auto &h : hours)
            sum += h.toInt();
        QCOMPARE(a.value("replica_hours_per_day").toDouble(), sum);
        QCOMPARE(a.value("saving_fraction").toDouble(), 1 - sum / (24.0 * peakReplicas));
        // A raised-cosine day with a 25% trough averages (1 + 0.25) / 2 = 62.5% of the peak rate
        // over its 24 hours. Each hour runs its exact need x_h rounded up to whole replicas, at
        // least x_h and less than x_h + 1, and the peak's P replicas are its need x_P rounded up
        // (P - 1 < x_P <= P). So the replica-hours are at least 24 x 0.625 x x_P and less than
        // 24 x (0.625 x x_P + 1): autoscaling saves less than 1 - 0.625 (P - 1) / P, and, with
        // P >= 8, more than 1 - 0.625 - 1 / 8 = 25%.
        QVERIFY(peakReplicas >= 8);
        const double saving = a.value("saving_fraction").toDouble();
        QVERIFY2(saving > 0.25, qPrintable(QString::number(saving)));
        QVERIFY2(saving < 1 - 0.625 * (peakReplicas - 1) / peakReplicas,
                 qPrintable(QString::number(saving)));
        // The day's energy, carbon and cost are the autoscaled fleet's: its replica-hours over the
        // static fleet's 24 x P, times the static day's (which the JSON gave for the autoscaled
        // day), and the cost its own day's.
        const QJsonObject day = QJsonDocument::fromJson(r.out).object();
        const QJsonObject staticDay = QJsonDocument::fromJson(flat.out).object();
        QCOMPARE(day.value("day_fleet").toString(), QStringLiteral("autoscaled"));
        QCOMPARE(staticDay.value("day_fleet").toString(), QStringLiteral("static"));
        const double share = sum / (24.0 * peakReplicas);
        QVERIFY(qAbs(day.value("energy_mwh").toDouble()
                     - staticDay.value("energy_mwh").toDouble() * share)
                < 1e-9 * staticDay.value("energy_mwh").toDouble());
        QVERIFY(qAbs(day.value("carbon_t_per_day").toDouble()
                     - staticDay.value("carbon_t_per_day").toDouble() * share)
                < 1e-9 * staticDay.value("carbon_t_per_day").toDouble());
        QCOMPARE(day.value("cost_usd").toDouble(), a.value("cost_usd_per_day").toDouble());
        QVERIFY(day.value("cost_usd").toDouble() < staticDay.value("cost_usd").toDouble());

        const Result noRate = run({"infer", "--gpu", "h100-sxm5-80gb", "--model", "llama-3-8b",
                                   "--precision", "fp16", "--input-tokens", "10", "--output-tokens",
                                   "10", "--diurnal-trough", "0.3"});
        QCOMPARE(noRate.status, 2);
        QVERIFY(noRate.err.contains("give --rate"));
        const Result shortDay = run(base + QStringList {"--diurnal", "1,2,3"});
        QCOMPARE(shortDay.status, 2);
        QVERIFY2(shortDay.err.contains("a day has 24 hourly rates, found 3"),
                 shortDay.err.constData());
    }

    void planCompareSample()
    {
        const QString sample
            = QStringLiteral(CP_SOURCE_DIR "/samples/h100-1024-ndr-rail-fat-tree.json");
        const Result r = run({"plan", "compare", sample, "--no-scaling", "--json"});
        QVERIFY2(r.status == 0, r.err.constData());
        const QJsonObject doc = QJsonDocument::fromJson(r.out).object();
        const QJsonArray scenarios = doc.value(QStringLiteral("scenarios")).toArray();
        QCOMPARE(scenarios.size(), 3); // the baseline and the sample's two scenarios
        QCOMPARE(scenarios.at(1).toObject().value(QStringLiteral("name")).toString(),
                 QStringLiteral("RoCE 400G, 2:1 oversubscribed"));
        QVERIFY(doc.value(QStringLiteral("scaling")).toArray().isEmpty());
        // The compare must agree with plan estimate of the baseline.
        const Result estimate = run({"plan", "estimate", sample, "--json"});
        QCOMPARE(estimate.status, 0);
        const int gpus = QJsonDocument::fromJson(estimate.out).object().value("gpus").toInt();
        QCOMPARE(gpus, 1024);
        bool sawGpus = false;
        for (const auto &row : doc.value(QStringLiteral("rows")).toArray()) {
            const QJsonObject o = row.toObject();
            if (o.value(QStringLiteral("key")).toString() != QStringLiteral("gpus"))
                continue;
            sawGpus = true;
            QCOMPARE(o.value(QStringLiteral("values")).toArray().at(0).toDouble(), double(gpus));
        }
        QVERIFY(sawGpus);
        // Where the time goes, scenario by scenario: the training step's total is each
        // scenario's step time (the step_s row, in seconds).
        const QJsonArray operations = doc.value(QStringLiteral("operations")).toArray();
        QVERIFY(!operations.isEmpty());
        const QJsonObject total = operations.at(0).toObject();
        QCOMPARE(total.value("phase").toString(), QStringLiteral("Training step"));
        QVERIFY(total.value("total").toBool());
        for (const auto &row : doc.value(QStringLiteral("rows")).toArray())
            if (row.toObject().value("key").toString() == QStringLiteral("step_s"))
                for (int i = 0; i < 3; ++i)
                    QVERIFY(
                        std::abs(total.value("values").toArray().at(i).toDouble()
                                 - 1e3 * row.toObject().value("values").toArray().at(i).toDouble())
                        < 1e-6);

        const QString csv = m_dir.filePath(QStringLiteral("compare.csv"));
        const Result text = run({"plan", "compare", sample, "--no-scaling", "--csv", csv});
        QCOMPARE(text.status, 0);
        QVERIFY(text.out.contains("(* best of the row)"));
        QVERIFY(text.out.contains("Where the time goes, scenario by scenario"));
        QFile file(csv);
        QVERIFY(file.open(QIODevice::ReadOnly));
        const QByteArray header = file.readLine();
        QVERIFY2(header.contains("\"RoCE 400G, 2:1 oversubscribed\""), header.constData());
        QVERIFY(header.endsWith("\r\n"));
    }

    void planSweepWritesScenarios()
    {
        const QString sample = QStringLiteral(CP_SOURCE_DIR "/samples/a100-pcie-64-100gbe.json");
        const QString swept = m_dir.filePath(QStringLiteral("swept.json"));
        const Result r = run(
            {"plan", "sweep", sample, "--axis", "gpu-count", "--values", "32,128", "--out", swept});
        QVERIFY2(r.status == 0, r.err.constData());
        QFile file(swept);
        QVERIFY(file.open(QIODevice::ReadOnly));
        const QJsonArray scenarios
            = QJsonDocument::fromJson(file.readAll()).object().value("scenarios").toArray();
        QCOMPARE(scenarios.size(), 2);
        QCOMPARE(scenarios.at(0).toObject().value("name").toString(), QStringLiteral("32 GPUs"));
        const Result compared = run({"plan", "compare", swept, "--no-scaling", "--json"});
        QVERIFY2(compared.status == 0, compared.err.constData());
        QCOMPARE(QJsonDocument::fromJson(compared.out).object().value("scenarios").toArray().size(),
                 3);

        // "32,,128" is a typo, said: it had made two scenarios of the three meant, silently.
        const Result emptyValue = run({"plan", "sweep", sample, "--axis", "gpu-count", "--values",
                                       "32,,128", "--out", m_dir.filePath("typo.json")});
        QCOMPARE(emptyValue.status, 2);
        QVERIFY2(emptyValue.err.contains("'32,,128' has an empty item: remove the extra ','"),
                 emptyValue.err.constData());
        QVERIFY(!QFileInfo::exists(m_dir.filePath("typo.json")));
        // A switch fails once: named twice it is refused, not counted as one failure silently.
        const Result twice = run({"fabric", "--topology", "fat-tree", "--radix", "4",
                                  "--fail-switch", "spine-0,spine-0"});
        QCOMPARE(twice.status, 2);
        QVERIFY2(twice.err.contains("--fail-switch names spine-0 twice"), twice.err.constData());

        const Result badAxis
            = run({"plan", "sweep", sample, "--axis", "colour", "--values", "red"});
        QCOMPARE(badAxis.status, 2);
        QVERIFY2(badAxis.err.contains("unknown axis 'colour'"), badAxis.err.constData());
        const Result badValue
            = run({"plan", "sweep", sample, "--axis", "gpu-count", "--values", "7"});
        QCOMPARE(badValue.status, 2);
        QVERIFY2(badValue.err.contains("--values"), badValue.err.constData());
    }

    void exportPdfAndCsvHeadless()
    {
        const QString sample = QStringLiteral(CP_SOURCE_DIR "/samples/l4-inference-fleet.json");
        const QString pdf = m_dir.filePath(QStringLiteral("fleet.pdf"));
        const QString csv = m_dir.filePath(QStringLiteral("fleet.csv"));
        const QString bom = m_dir.filePath(QStringLiteral("fleet-bom.csv"));
        const Result r
            = run({"export", sample, "--pdf", pdf, "--csv", csv, "--bom-csv", bom, "--no-scaling"});
        QVERIFY2(r.status == 0, r.err.constData());
        QFile file(pdf);
        QVERIFY(file.open(QIODevice::ReadOnly));
        QVERIFY(file.read(5) == "%PDF-");
        QVERIFY(QFileInfo(csv).size() > 100);
        QVERIFY(QFileInfo(bom).size() > 50);
        // The key figures give the replica's floor beside the estimate, as the model words it
        // ("Fl" and "fi" are set as ligatures, so the check leaves them out).
        const QByteArray words = pdfText(pdf, {QStringLiteral("-layout")}).simplified();
        QVERIFY2(words.contains("oor (no engine is faster): pre"), words.left(3000).constData());
        // Its fabric of one leaf over one group of servers names both in the drawing (they were
        // an unnamed green and grey box): 16 servers with two 25 GbE NICs each, 32 NIC ports on
        // "leaf 0".
        QVERIFY2(words.contains("leaf 0") && words.contains("32 NIC ports"),
                 words.left(3000).constData());

        // The ViT sample's four leaves each serve 32 NIC ports, in boxes too narrow for the
        // words: one label across the four, not one spilling over the first box.
        const QString vitPdf = exportSamplePdf(QStringLiteral("h100-128-vit-imagenet-nfs.json"),
                                               QStringLiteral("vit.pdf"));
        QVERIFY(!vitPdf.isEmpty());
        const QByteArray fabricPage = pdfText(vitPdf,
                                              {QStringLiteral("-f"), QStringLiteral("4"),
                                               QStringLiteral("-l"), QStringLiteral("4")})
                                          .simplified();
        QVERIFY2(fabricPage.contains("4 x 32 NIC ports"), fabricPage.left(2000).constData());

        // The million-GPU campus: its hardware, power and cost lines are one building's and say
        // so, and the run that failures outpace (a failure every 3 min against a 10 min
        // restart, planEstimateTextShowsTheRun) is said among the key figures, not only in the
        // GUI.
        const QString campusPdf = exportSamplePdf(QStringLiteral("h100-1m-8-buildings.json"),
                                                  QStringLiteral("campus.pdf"));
        QVERIFY(!campusPdf.isEmpty());
        const QByteArray firstPage = pdfText(campusPdf,
                                             {QStringLiteral("-f"), QStringLiteral("1"),
                                              QStringLiteral("-l"), QStringLiteral("1")})
                                         .simplified();
        QVERIFY2(QString::fromUtf8(firstPage).contains(QRegularExpression(
                     QStringLiteral("Capital cost: \\$[0-9.]+ B \\(each of the 8 buildings\\)"))),
                 firstPage.left(3000).constData());
        QVERIFY2(firstPage.contains("Failures outpace the run: a failure every 3 min "
                                    "against 10 min to "
                                    "restart"),
                 firstPage.left(3000).constData());
        // Its fabric page's bisection is one building's, and its storage table counts the
        // campus's 8 x 128 systems, as the sizing beside it does (it said "the plan has 128"
        // next to a sizing of 1,024 systems now).
        const QByteArray campusReport = pdfText(campusPdf).simplified();
        QVERIFY2(campusReport.contains("Bisection (each building)"), campusReport.constData());
        QVERIFY2(campusReport.contains("(the campus has 1,024; more write checkpoints faster)"),
                 campusReport.constData());

        // The shared cluster's baseline and four scenarios: one comparison table, its header
        // naming all five side by side (four and a lone fifth could not be read row by row).
        const QString sharedPdf = exportSamplePdf(QStringLiteral("h100-2048-shared-cluster.json"),
                                                  QStringLiteral("shared.pdf"));
        QVERIFY(!sharedPdf.isEmpty());
        const QStringList sharedLines
            = QString::fromUtf8(pdfText(sharedPdf, {QStringLiteral("-layout")}))
                  .split(QLatin1Char('\n'));
        const auto header
            = std::find_if(sharedLines.begin(), sharedLines.end(), [](const QString &l) {
                  return l.trimmed().startsWith(QStringLiteral("Figure"))
                      && l.contains(QStringLiteral("Baseline"));
              });
        QVERIFY(header != sharedLines.end());
        for (const char *name : {"4,096 GPUs", "Leaves 2:1", "Strict FIFO", "Kubernetes"})
            QVERIFY2(header->contains(QLatin1String(name)), qPrintable(*header));
        // No page ends with a table's header and none of its rows (the fleet report's sources
        // table's "Kind | Entry | Source" did, at the foot of page 9): in either report, the
        // last line before a page's footer is never a header.
        for (const QString &report : {pdf, sharedPdf}) {
            const QStringList pages
                = QString::fromUtf8(pdfText(report, {QStringLiteral("-layout")}))
                      .split(QLatin1Char('\f'));
            QVERIFY(pages.size() > 5);
            for (const QString &pageText : pages) {
                QStringList lines;
                for (const QString &line : pageText.split(QLatin1Char('\n')))
                    if (!line.trimmed().isEmpty()
                        && !line.contains(QStringLiteral("ClusterPlanner —")))
                        lines << line.simplified();
                if (!lines.isEmpty())
                    QVERIFY2(!lines.back().startsWith(QStringLiteral("Kind Entry Source"))
                                 && !lines.back().startsWith(QStringLiteral("Figure Unit")),
                             qPrintable(report + QStringLiteral(": ") + lines.back()));
                // Nor with the sources' heading and its note, their table on the next page (the
                // fleet report's page 9 ended so).
                if (!lines.isEmpty())
                    QVERIFY2(!lines.back().contains(QStringLiteral("value with its basis stated"))
                                 && !lines.back().startsWith(
                                     QStringLiteral("Catalog entries and their sources")),
                             qPrintable(report + QStringLiteral(": ") + lines.back()));
            }
        }

        // Every word lies within the page's 15 mm margins (42.5 pt), the fabric drawings' labels
        // too: a bundle's rate centred near the drawing's edge ("256 × 400 Gb/s = 102 Tb/s" under
        // the shared cluster's first leaf, the campus's "cores" and its edge bundles) ran off
        // the page and printed cut.
        const QRegularExpression page(QStringLiteral("<page width=\"([0-9.]+)\""));
        const QRegularExpression word(QStringLiteral(
            "<word xMin=\"([-0-9.]+)\" yMin=\"[-0-9.]+\" xMax=\"([-0-9.]+)\"[^>]*>([^<]*)<"));
        for (const QString &report : {pdf, sharedPdf, campusPdf}) {
            const QString boxes = QString::fromUtf8(pdfText(report, {QStringLiteral("-bbox")}));
            const QStringList pages = boxes.split(QStringLiteral("</page>"));
            QVERIFY(pages.size() > 5);
            for (const QString &pageBoxes : pages) {
                const QRegularExpressionMatch size = page.match(pageBoxes);
                if (!size.hasMatch())
                    continue;
                const double pageWidth = size.captured(1).toDouble();
                for (auto it = word.globalMatch(pageBoxes); it.hasNext();) {
                    const QRegularExpressionMatch box = it.next();
                    QVERIFY2(box.captured(1).toDouble() >= 41.0
                                 && box.captured(2).toDouble() <= pageWidth - 41.0,
                             qPrintable(report + QStringLiteral(": '") + box.captured(3)
                                        + QStringLiteral("' from x = ") + box.captured(1)
                                        + QStringLiteral(" to ") + box.captured(2)));
                }
            }
        }

        // The campus's data-hall table groups its thousands: a building's 131,072 GPUs are
        // 16,384 DGX H100, three to a 40 kW cabinet, 5,462 cabinets (it printed "5462" and
        // "21846" PDUs).
        const QString campusText
            = QString::fromUtf8(pdfText(campusPdf, {QStringLiteral("-layout")}));
        QVERIFY2(campusText.contains(QRegularExpression(
                     QStringLiteral("compute\\s+5,462\\s+30\\.6\\s+21,8\\d\\d\\s"))),
                 qPrintable(campusText.left(2000)));
        // A table's last row never starts a page alone under the repeated header: the campus's
        // bill of materials put its "Total" by itself on page 3.
        const QStringList campusPages = campusText.split(QLatin1Char('\f'));
        for (const QString &pageText : campusPages) {
            QStringList lines;
            for (const QString &line : pageText.split(QLatin1Char('\n')))
                if (!line.trimmed().isEmpty())
                    lines << line.simplified();
            if (lines.size() >= 2 && lines[0].startsWith(QStringLiteral("Category Item Count")))
                QVERIFY2(!lines[1].startsWith(QStringLiteral("Total")), qPrintable(lines[1]));
        }

        // A unit is never split at its slash where a table cell wraps: the DeepSeek-V3 serving
        // report's comparison ended a bottleneck line at "4,176 GB/" and began the next with "s".
        const QString servingPdf = exportSamplePdf(QStringLiteral("h200-deepseek-v3-serving.json"),
                                                   QStringLiteral("serving.pdf"));
        QVERIFY(!servingPdf.isEmpty());
        const QString servingText
            = QString::fromUtf8(pdfText(servingPdf, {QStringLiteral("-layout")}));
        QVERIFY(servingText.contains(QStringLiteral("GB/s")));
        const QRegularExpression splitUnit(
            QStringLiteral("\\b(GB|TB|MB|kW|USD|tokens|TFLOP)/(\\s|$)"),
            QRegularExpression::MultilineOption);
        const QRegularExpressionMatch split = splitUnit.match(servingText);
        QVERIFY2(
            !split.hasMatch(),
            qPrintable(servingText.mid(std::max<qsizetype>(0, split.capturedStart() - 200), 300)));

        // A command-line option is never split at its hyphens: the shared cluster's data-hall
        // page set "--" at a line's end and "netbox" on the next.
        const QString sharedLayout
            = QString::fromUtf8(pdfText(sharedPdf, {QStringLiteral("-layout")}));
        QVERIFY(sharedLayout.contains(QStringLiteral("--netbox")));
        const QRegularExpression splitOption(QStringLiteral("(^|\\s)--\\s*$"),
                                             QRegularExpression::MultilineOption);
        QVERIFY(!splitOption.match(sharedLayout).hasMatch());
        // A word too wide for its column breaks with a hyphen: the five-scenario table's
        // "Oversubscription:" read "Oversubscriptio" and "n:".
        QVERIFY(sharedLayout.contains(QStringLiteral("Oversubscription: 2:1")));
        QVERIFY(!sharedLayout.contains(QRegularExpression(QStringLiteral("Oversubscriptio(\\s|$)"),
                                                          QRegularExpression::MultilineOption)));
        // Nor is it hyphenated where a smaller size sets it whole: the comparison's "Changes from
        // the baseline" cell, a fifth of the five-scenario table's width, read "Oversubscripti-"
        // and "on: 2:1": the word is a little wider than the column at the table's 8.5 points.
        QVERIFY2(!sharedLayout.contains(QStringLiteral("Oversubscripti-")),
                 qPrintable(sharedLayout.mid(
                     sharedLayout.indexOf(QStringLiteral("Oversubscripti-")) - 200, 400)));
        QCOMPARE(sharedLayout.count(QStringLiteral("Oversubscription:")), 2); // page 1, the table

        // Its fabric page names the bundles once for their tier: 8 scalable units of 32 servers
        // with 8 NICs each, 8 rail leaves a unit at 1:1 (32 ports down, 32 up), so each unit's
        // bundle to the spines is 8 x 32 = 256 cables and to its servers 32 x 8 = 256, at
        // 400 Gb/s 102.4 Tb/s. A label per bundle showed two of the eight side by side, and the
        // units' leaf blocks, each too narrow for "SU n rail leaves", had no name at all.
        const QString sharedFabricPage
            = QString::fromUtf8(pdfText(sharedPdf,
                                        {QStringLiteral("-f"), QStringLiteral("4"),
                                         QStringLiteral("-l"), QStringLiteral("4")}));
        QVERIFY2(sharedFabricPage.startsWith(QStringLiteral("Fabric (generated graph")),
                 qPrintable(sharedFabricPage.left(200)));
        QCOMPARE(
            sharedFabricPage.count(QStringLiteral("8 bundles of 256 × 400 Gb/s = 102 Tb/s each")),
            2);
        QVERIFY(!sharedFabricPage.contains(QRegularExpression(
            QStringLiteral("^256 × 400 Gb/s"), QRegularExpression::MultilineOption)));
        QVERIFY(sharedFabricPage.contains(QStringLiteral("SU 0–7 rail leaves")));

        // The shared cluster's 2,048 GPUs are drawn as an overview whose leaves are grey blocks:
        // neither the caption nor a key speaks of rail colours the page does not show.
        const QString sharedText = QString::fromUtf8(pdfText(sharedPdf));
        QVERIFY(sharedText.contains(QStringLiteral("Fabric (generated graph of the baseline)")));
        QVERIFY(!sharedText.contains(QStringLiteral("leaf's colour is its rail")));
        QVERIFY(!sharedText.contains(QStringLiteral("Leaf colour: its rail")));
        // A shared cluster is about its queue: the key figures give its simulation's busy GPUs
        // and each class's p95 wait (page 1 gave only hardware, power and cost).
        const QString sharedFirstPage
            = QString::fromUtf8(pdfText(sharedPdf,
                                        {QStringLiteral("-f"), QStringLiteral("1"),
                                         QStringLiteral("-l"), QStringLiteral("1")}));
        QVERIFY2(sharedFirstPage.simplified().contains(QStringLiteral("Queue (simulated): over ")),
                 qPrintable(sharedFirstPage.left(1500)));
        QVERIFY(sharedFirstPage.simplified().contains(QStringLiteral("p95 wait: pretraining")));
        // Its links are in their class's colour (no training load to heat them), which the key
        // under the drawing names.
        QVERIFY(sharedText.contains(QStringLiteral("Links:")));
        QVERIFY(sharedText.contains(QStringLiteral("between switches")));
        QVERIFY(sharedText.contains(QStringLiteral("to servers")));

        const Result nothing = run({"export", sample});
        QCOMPARE(nothing.status, 2);
        QVERIFY(nothing.err.contains("nothing to export"));
        // An unwritable target fails with exit 1 and leaves nothing behind.
        const QString missingDir = m_dir.filePath(QStringLiteral("no-such-dir/out.pdf"));
        const Result failed = run({"export", sample, "--pdf", missingDir});
        QCOMPARE(failed.status, 1);
        QVERIFY(!QFileInfo::exists(missingDir));
    }

    void exportCableScheduleAndNetbox()
    {
        // The H100 sample's 1,024 NIC cables and 1,024 leaf-spine cables, its storage network's
        // 588 and its 391 management cables (tst_datahall), one schedule row each after the
        // header; the NetBox directory is
        // created with its eight numbered files.
        const QString sample
            = QStringLiteral(CP_SOURCE_DIR "/samples/h100-1024-ndr-rail-fat-tree.json");
        const QString schedule = m_dir.filePath(QStringLiteral("cables.csv"));
        const QString netbox = m_dir.filePath(QStringLiteral("netbox/hall-a"));
        const Result r = run({"export", sample, "--cable-schedule", schedule, "--netbox", netbox});
        QVERIFY2(r.status == 0, r.err.constData());
        QVERIFY2(r.out.contains("3027 cables"), r.out.constData());
        QFile file(schedule);
        QVERIFY(file.open(QIODevice::ReadOnly));
        QCOMPARE(file.readAll().count('\n'), 3028);
        const QStringList files = QDir(netbox).entryList(QDir::Files, QDir::Name);
        QCOMPARE(files.size(), 8);
        QCOMPARE(files.front(), QStringLiteral("01-sites.csv"));
        QCOMPARE(files.back(), QStringLiteral("08-cables.csv"));

        // A fabric one 64-port switch cannot build for 1,024 NICs has no cables to lay out:
        // exit 3 with the generator's reason, and no schedule written.
        QFile source(sample);
        QVERIFY(source.open(QIODevice::ReadOnly));
        QJsonObject plan = QJsonDocument::fromJson(source.readAll()).object();
        QJsonObject fabric = plan.value(QStringLiteral("fabric")).toObject();
        fabric.insert(QStringLiteral("topology"), QStringLiteral("fat-tree"));
        fabric.insert(QStringLiteral("tiers"), 1);
        plan.insert(QStringLiteral("fabric"), fabric);
        const QString oneSwitch = m_dir.filePath(QStringLiteral("one-switch.json"));
        QFile out(oneSwitch);
        QVERIFY(out.open(QIODevice::WriteOnly));
        out.write(QJsonDocument(plan).toJson());
        out.close();
        const QString none = m_dir.filePath(QStringLiteral("one-switch-cables.csv"));
        const Result failed = run({"export", oneSwitch, "--cable-schedule", none});
        QCOMPARE(failed.status, 3);
        QVERIFY2(failed.err.contains("cannot be built"), failed.err.constData());
        QVERIFY(!QFileInfo::exists(none));
        // `plan estimate` of it prints the estimate whole and exits 3 as well (it exited 0), and
        // its power and price say they leave the fabric out: a bare "$50.0 M" read as the
        // design's price without its switches and optics.
        // A serving workload the plan cannot run exits 3 as `infer` does for it: tensor
        // parallelism of 3 does not divide Llama 3 8B's 32 heads (it exited 0).
        {
            QFile fleetFile(QStringLiteral(CP_SOURCE_DIR "/samples/l4-inference-fleet.json"));
            QVERIFY(fleetFile.open(QIODevice::ReadOnly));
            QJsonObject fleet = QJsonDocument::fromJson(fleetFile.readAll()).object();
            QJsonObject workload = fleet.value(QStringLiteral("workload")).toObject();
            workload.insert(QStringLiteral("gpus_per_replica"), 3);
            fleet.insert(QStringLiteral("workload"), workload);
            const QString threeWay = m_dir.filePath(QStringLiteral("tp3.json"));
            QFile threeWayFile(threeWay);
            QVERIFY(threeWayFile.open(QIODevice::WriteOnly));
            threeWayFile.write(QJsonDocument(fleet).toJson());
            threeWayFile.close();
            const Result tp3 = run({"plan", "estimate", threeWay});
            QCOMPARE(tp3.status, 3);
            QVERIFY2(tp3.err.contains("infeasible: inference: tensor parallelism of 3 does not "
                                      "divide the model's 32 attention heads"),
                     tp3.err.constData());
            QVERIFY(tp3.out.startsWith("Plan: "));
        }
        const Result unbuilt = run({"plan", "estimate", oneSwitch});
        QCOMPARE(unbuilt.status, 3);
        QVERIFY2(unbuilt.err.contains("infeasible: the fabric cannot be built"),
                 unbuilt.err.constData());
        for (const char *row : {"IT power", "facility power", "capital cost"}) {
            const qsizetype at = unbuilt.out.indexOf(row);
            QVERIFY2(at >= 0, row);
            const QByteArray line = unbuilt.out.mid(at, unbuilt.out.indexOf('\n', at) - at);
            QVERIFY2(line.endsWith("without the fabric, which cannot be built"), line.constData());
        }

        // A room of 3,772,776 racked servers is more than the 524,288 the layout places one by
        // one: the estimate says so (and still counts the compute racks: 3 servers a 40 kW
        // cabinet, 1,257,592 of them), and the cable schedule is refused, not written empty.
        const QString huge = QStringLiteral(
            CP_SOURCE_DIR "/tests/fuzz/reproducers/plan/hall-3772776-servers.json");
        const Result estimate = run({"plan", "estimate", huge});
        QCOMPARE(estimate.status, 0);
        QVERIFY2(estimate.out.contains("the hall's 3,772,776 servers in racks are more than the "
                                       "524,288 its layout places one by one"),
                 estimate.out.constData());
        QVERIFY2(estimate.out.contains("1,257,592 x 42U"), estimate.out.constData());
        const QString hugeCables = m_dir.filePath(QStringLiteral("huge-cables.csv"));
        const Result refused = run({"export", huge, "--cable-schedule", hugeCables});
        QCOMPARE(refused.status, 3);
        QVERIFY2(refused.err.contains("not laid out"), refused.err.constData());
        QVERIFY(!QFileInfo::exists(hugeCables));
    }
};

QTEST_GUILESS_MAIN(TestCli)
#include "tst_cli.moc"
