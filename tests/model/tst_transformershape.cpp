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
};

QTEST_APPLESS_MAIN(TestTransformerShape)
#include "tst_transformershape.moc"
