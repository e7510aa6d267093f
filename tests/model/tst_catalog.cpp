// SPDX-License-Identifier: GPL-3.0-or-later
#include "model/catalog/catalog.h"
#include "model/catalog/catalogdatabase.h"
#include "model/catalog/catalogparser.h"
#include "model/core/inputerror.h"
#include "model/core/jsonfieldreader.h"
#include "model/core/units.h"
#include "model/training/gemmefficiency.h"

#include <QTemporaryDir>
#include <QTest>

#include <fstream>

using namespace cp::model;

namespace {
nlohmann::json validGpu()
{
    return nlohmann::json::parse(R"({
      "id": "test-gpu", "name": "Test GPU", "vendor": "Test", "source": "unit test",
      "dense_tflops": {"fp16": 100, "bf16": 100},
      "memory_mib": 16384, "memory_bandwidth_gb_per_s": 1000,
      "scale_up": {"kind": "nvlink", "name": "NVLink", "gb_per_s_per_direction": 100},
      "tdp_w": 300, "price_usd": 1000,
      "calibration": {"gemm_peak_fraction": 0.8, "gemm_half_performance_dim": 256,
                      "memory_achievable_fraction": 0.8, "scale_up_busbw_gb_per_s": 80, "source": "test"}
    })");
}

nlohmann::json documentWith(const nlohmann::json &gpu)
{
    return {{"format", "clusterplanner-catalog"},
            {"version", 1},
            {"gpus", nlohmann::json::array({gpu})}};
}

/** Adds the document and returns the InputError message (empty when it loaded). */
std::string errorOf(const nlohmann::json &document)
{
    try {
        Catalog catalog;
        catalog.addDocument(document, "broken.json");
        catalog.validateReferences();
    } catch (const InputError &error) {
        return error.what();
    }
    return {};
}

/** errorOf a catalog document holding the one model `entry`. */
std::string modelEntryError(const nlohmann::json &entry)
{
    return errorOf({{"format", "clusterplanner-catalog"},
                    {"version", 1},
                    {"models", nlohmann::json::array({entry})}});
}
} // namespace

class TestCatalog : public QObject
{
    Q_OBJECT

private slots:
    void shippedCatalogHasRequiredEntries()
    {
        const Catalog catalog = loadCatalogDirectory(CP_SOURCE_DIR "/catalogs");
        for (const char *id :
             {"a100-sxm4-40gb", "a100-sxm4-80gb", "a100-pcie-80gb", "h100-sxm5-80gb",
              "h100-pcie-80gb", "h200-sxm-141gb", "b200-sxm-192gb", "l40s", "l4", "t4", "mi300x"})
            QVERIFY2(catalog.kindOf(id) == CatalogKind::Gpu, id);
        for (const char *id : {"dgx-a100", "dgx-h100", "hgx-h200-8gpu", "gb200-nvl72",
                               "pcie-8gpu-server", "l4-inference-server"})
            QVERIFY2(catalog.kindOf(id) == CatalogKind::Node, id);
        for (const char *id : {"eth-1g", "eth-10g", "eth-25g", "eth-100g", "roce-200g", "roce-400g",
                               "ib-hdr-200", "ib-ndr-400"})
            QVERIFY2(catalog.kindOf(id) == CatalogKind::Nic, id);
        for (const char *id :
             {"gpt-3-175b", "llama-2-7b", "llama-2-13b", "llama-2-70b", "llama-3-8b", "llama-3-70b",
              "llama-3-405b", "mixtral-8x7b", "dense-1t"})
            QVERIFY2(catalog.kindOf(id) == CatalogKind::Model, id);
        QVERIFY(!catalog.ids(CatalogKind::Switch).empty());
        QVERIFY(!catalog.ids(CatalogKind::Storage).empty());
        QVERIFY(!catalog.ids(CatalogKind::Rack).empty());
        QVERIFY(!catalog.ids(CatalogKind::Facility).empty());
    }

    void datasheetFiguresAreDense()
    {
        const Catalog catalog = loadCatalogDirectory(CP_SOURCE_DIR "/catalogs");
        // A100 dense FP16 tensor = 312 TFLOP/s; H100 SXM dense BF16 989.4 (sparse would be 1978.9).
        QCOMPARE(catalog.gpu("a100-sxm4-80gb").peakFlopsPerSecond(Precision::FP16), 312e12);
        QCOMPARE(catalog.gpu("h100-sxm5-80gb").peakFlopsPerSecond(Precision::BF16), 989.4e12);
        QCOMPARE(catalog.gpu("h100-sxm5-80gb").peakFlopsPerSecond(Precision::FP8), 1978.9e12);
        // NVLink 4 is 900 GB/s bidirectional: 450 GB/s per direction.
        QCOMPARE(catalog.gpu("h100-sxm5-80gb").scaleUpBytesPerSecond, 450e9);
        // Memory as the driver reports it (nvidia-smi totals): A100 80GB 81,920 MiB, H100 SXM5
        // 80GB 81,559 MiB (NVIDIA/nccl issue 1264), H200 143,771 MiB (NVIDIA/cuda-samples 311).
        QCOMPARE(catalog.gpu("a100-sxm4-80gb").memoryBytes, 81920.0 * 1024 * 1024);
        QCOMPARE(catalog.gpu("h100-sxm5-80gb").memoryBytes, 81559.0 * 1024 * 1024);
        QCOMPARE(catalog.gpu("h200-sxm-141gb").memoryBytes, 143771.0 * 1024 * 1024);
        // "80 GB" is 80 GiB on the A100 but 79.6 GiB on the H100.
        QCOMPARE(catalog.gpu("a100-sxm4-80gb").memoryBytes / (1024.0 * 1024 * 1024), 80.0);
        QCOMPARE(catalog.nic("ib-ndr-400").bytesPerSecond, 50e9);
        QVERIFY(!catalog.gpu("a100-sxm4-80gb").supports(Precision::FP8));
        for (const auto &[id, gpu] : catalog.gpus())
            QVERIFY2(!gpu.source.empty() && !gpu.calibrationSource.empty(), id.c_str());
    }

    void legacyKernelFractionIsReadWhereMeasured()
    {
        const Catalog catalog = loadCatalogDirectory(CP_SOURCE_DIR "/catalogs");
        // H100 and H200 (GH100): CUTLASS SM80 grouped GEMMs reach 116.9 / 160.5 = 0.728 of SM90
        // ones. On the L40S (Ada) the SM80 kernels are native: no entry, 1.
        QCOMPARE(catalog.gpu("h100-sxm5-80gb").legacyKernelGemmFraction, 0.728);
        QCOMPARE(catalog.gpu("h200-sxm-141gb").legacyKernelGemmFraction, 0.728);
        QCOMPARE(catalog.gpu("l40s").legacyKernelGemmFraction, 1.0);
        // Measured at 512 rows an expert, K 2048, N 1536: effective size 3 / (1/512 + 1/1536 +
        // 1/2048) = 970.1, where part of the time is start-up the slower instructions do not
        // lengthen; on large GEMMs the SM80 kernels keep 0.728 x 970 / (970 + 0.272 x 517) =
        // 0.63582 of the rate (n_half 517 on both parts), and the L40S all of it.
        const GpuSpec &h100 = catalog.gpu("h100-sxm5-80gb");
        QCOMPARE(h100.legacyKernelGemmMeasuredDim, 970.0);
        QVERIFY(qAbs(h100.legacyKernelAsymptoticShare(Precision::BF16) - 0.63582) < 1e-5);
        QVERIFY(qAbs(catalog.gpu("h200-sxm-141gb").legacyKernelAsymptoticShare(Precision::BF16)
                     - 0.63582)
                < 1e-5);
        QCOMPARE(catalog.gpu("l40s").legacyKernelAsymptoticShare(Precision::BF16), 1.0);
        // With that share the SM80 curve reproduces the published ratio at the published shape:
        // 116.9 / 160.5 = 0.728 at M 512, N 1536, K 2048.
        const double share = h100.legacyKernelAsymptoticShare(Precision::BF16);
        QVERIFY(qAbs(gemmEfficiency(h100, Precision::BF16, 512, 1536, 2048, share)
                         / gemmEfficiency(h100, Precision::BF16, 512, 1536, 2048)
                     - 116.9 / 160.5)
                < 1e-3);
        // Decode attention's fixed time: 15 us on the H100 and 20 us on the A100 (FlashInfer's
        // batch decode), 17 us on the H200 and 11 us on the L40S (TensorRT-LLM's, aiconfigurator);
        // the L4 has no measurement, 0 (the launch cost applies).
        QCOMPARE(catalog.gpu("h100-sxm5-80gb").decodeAttentionFixedSeconds, 15e-6);
        QCOMPARE(catalog.gpu("a100-pcie-80gb").decodeAttentionFixedSeconds, 20e-6);
        QCOMPARE(catalog.gpu("h200-sxm-141gb").decodeAttentionFixedSeconds, 17e-6);
        QCOMPARE(catalog.gpu("l40s").decodeAttentionFixedSeconds, 11e-6);
        // The B200's 11.5 us and the GB200's 11.9 us, the same database: 12 each.
        QCOMPARE(catalog.gpu("b200-sxm-192gb").decodeAttentionFixedSeconds, 12e-6);
        QCOMPARE(catalog.gpu("gb200-nvl72-gpu").decodeAttentionFixedSeconds, 12e-6);
        QCOMPARE(catalog.gpu("l4").decodeAttentionFixedSeconds, 0.0);
        // L2 read bandwidth, the plateau of gpu-benches' gpu-l2-cache (medians over 4-32 MB data
        // sets): H200 9,917 GB/s, and the H100 SXM5 the same GH100 configuration; H100 PCIe
        // 6,984; A100 80GB 5,391; the L40's 5,189 for the L40S, and scaled by SMs x clock for
        // the L4 (58 x 2,040 / (142 x 2,490) = 0.3346 of it). The T4 has no figure: 0.
        QCOMPARE(catalog.gpu("h200-sxm-141gb").l2ReadBytesPerSecond, 9917e9);
        QCOMPARE(catalog.gpu("h100-sxm5-80gb").l2ReadBytesPerSecond, 9917e9);
        QCOMPARE(catalog.gpu("h100-pcie-80gb").l2ReadBytesPerSecond, 6984e9);
        QCOMPARE(catalog.gpu("a100-sxm4-80gb").l2ReadBytesPerSecond, 5391e9);
        QCOMPARE(catalog.gpu("l40s").l2ReadBytesPerSecond, 5189e9);
        QCOMPARE(catalog.gpu("l4").l2ReadBytesPerSecond, 1736e9);
        QCOMPARE(catalog.gpu("t4").l2ReadBytesPerSecond, 0.0);
        // FasterTransformer's masked multi-head attention (vLLM 0.2.6's PagedAttention-v2 in
        // FlashInfer's batch GQA figure, 8 query heads per K/V head, fp16): 28.5% of 3,352 GB/s
        // on H100 SXM is 0.285 x 3,352 / 2 x 8 = 3,820 G elements a second per query head, 26.5%
        // of 1,935 GB/s on A100 PCIe 2,050; no measurement on the L40S: 0.
        QCOMPARE(catalog.gpu("h100-sxm5-80gb").maskedAttentionElementsPerSecond, 3820e9);
        QCOMPARE(catalog.gpu("a100-pcie-80gb").maskedAttentionElementsPerSecond, 2050e9);
        QCOMPARE(catalog.gpu("l40s").maskedAttentionElementsPerSecond, 0.0);
        // A GEMM of 1 to 16 rows streaming 256 MB or more of BF16 weights (aiconfigurator's
        // TensorRT-LLM GEMM databases): the median reaches 0.836 of the H100 SXM's 3,350 GB/s,
        // 2,800.6 GB/s, below BabelStream's triad (0.89, 2,981.5 GB/s); 0.831 of the L40S's 864
        // GB/s. The L4 has no such measurement: its element-wise fraction stands in, 0.78 x 300.
        QCOMPARE(catalog.gpu("h100-sxm5-80gb").gemmWeightStreamingFraction, 0.836);
        QVERIFY(qAbs(catalog.gpu("h100-sxm5-80gb").weightStreamingBytesPerSecond() - 2800.6e9)
                < 1e6);
        QCOMPARE(catalog.gpu("l40s").gemmWeightStreamingFraction, 0.831);
        QCOMPARE(catalog.gpu("l4").gemmWeightStreamingFraction, 0.0);
        QVERIFY(qAbs(catalog.gpu("l4").weightStreamingBytesPerSecond() - 234e9) < 1e6);
    }

    void modelsSayWhetherTheyDropOut()
    {
        // Llama and Mixtral train without dropout (NeMo's configurations set hidden_dropout 0.0),
        // GPT-3 175B with 0.1; an entry that gives none gets Megatron's default, 0.1.
        const Catalog catalog = loadCatalogDirectory(CP_SOURCE_DIR "/catalogs");
        QCOMPARE(catalog.llm("llama-3-70b").hiddenDropout, 0.0);
        QCOMPARE(catalog.llm("mixtral-8x7b").hiddenDropout, 0.0);
        QCOMPARE(catalog.llm("gpt-3-175b").hiddenDropout, 0.1);
        QCOMPARE(catalog.llm("dense-1t").hiddenDropout, 0.1);

        nlohmann::json model = nlohmann::json::parse(R"({
          "id": "m", "name": "M", "source": "unit test", "layers": 2, "hidden": 64, "heads": 4,
          "ffn": 256, "vocab": 100, "max_seq_len": 128, "params_b": 0.001, "hidden_dropout": 1.5
        })");
        const std::string message = modelEntryError(model);
        QVERIFY2(message.find("broken.json") == 0, message.c_str());
        QVERIFY2(message.find("/models/0/hidden_dropout: must be at most 0.9") != std::string::npos,
                 message.c_str());
        model["hidden_dropout"] = 0.0;
        QCOMPARE(modelEntryError(model), std::string());
    }

    void modelsSayWhetherAttentionAndMlpRunSideBySide()
    {
        nlohmann::json model = nlohmann::json::parse(R"({
          "id": "m", "name": "M", "source": "unit test", "layers": 2, "hidden": 64, "heads": 4,
          "ffn": 256, "vocab": 100, "max_seq_len": 128, "params_b": 0.001,
          "parallel_attention": "yes"
        })");
        const std::string message = modelEntryError(model);
        QVERIFY2(message.find("/models/0/parallel_attention: ") != std::string::npos,
                 message.c_str());
        QVERIFY2(message.find("expected true or false, found a string") != std::string::npos,
                 message.c_str());
        model["parallel_attention"] = true;
        QCOMPARE(modelEntryError(model), std::string());
        QVERIFY(parseModel(model, "models.json", "/models/0").parallelAttention);
        model.erase("parallel_attention");
        QVERIFY(!parseModel(model, "models.json", "/models/0").parallelAttention);
        // Falcon 180B's layers run them side by side (new_decoder_architecture, parallel_attn);
        // Llama's run attention, then the MLP.
        const Catalog catalog = loadCatalogDirectory(CP_SOURCE_DIR "/catalogs");
        QVERIFY(catalog.llm("falcon-180b").parallelAttention);
        QVERIFY(!catalog.llm("llama-3-70b").parallelAttention);
    }

    void slidingWindowNeedsItsLengthAndFitsTheLayers()
    {
        nlohmann::json model = nlohmann::json::parse(R"({
          "id": "m", "name": "M", "source": "unit test", "layers": 2, "hidden": 64, "heads": 4,
          "ffn": 256, "vocab": 100, "max_seq_len": 128, "params_b": 0.001,
          "sliding_window_layers": 1
        })");
        std::string message = modelEntryError(model);
        QVERIFY2(message.find("/models/0/sliding_window_layers: needs sliding_window")
                     != std::string::npos,
                 message.c_str());
        model["sliding_window"] = 64;
        model["sliding_window_layers"] = 3; // more than the model's 2 layers
        message = modelEntryError(model);
        QVERIFY2(message.find("/models/0/sliding_window_layers: must be between 1 and 2, found 3")
                     != std::string::npos,
                 message.c_str());
        model["sliding_window_layers"] = 1;
        QCOMPARE(modelEntryError(model), std::string());
    }

    void chunkedAttentionNeedsItsLengthAndNoWindow()
    {
        nlohmann::json model = nlohmann::json::parse(R"({
          "id": "m", "name": "M", "source": "unit test", "layers": 4, "hidden": 64, "heads": 4,
          "ffn": 256, "vocab": 100, "max_seq_len": 128, "params_b": 0.001, "chunked_layers": 3
        })");
        std::string message = modelEntryError(model);
        QVERIFY2(message.find("/models/0/chunked_layers: needs attention_chunk")
                     != std::string::npos,
                 message.c_str());
        model["attention_chunk"] = 32;
        model["chunked_layers"] = 5; // more than the model's 4 layers
        message = modelEntryError(model);
        QVERIFY2(message.find("/models/0/chunked_layers: must be between 1 and 4, found 5")
                     != std::string::npos,
                 message.c_str());
        model["chunked_layers"] = 3;
        QCOMPARE(modelEntryError(model), std::string());
        model["sliding_window"] = 16;
        message = modelEntryError(model);
        QVERIFY2(message.find("/models/0/attention_chunk: a model with sliding_window cannot also "
                              "have chunked attention")
                     != std::string::npos,
                 message.c_str());
    }

    void expertGroupsFollowTheirRules()
    {
        // Group-limited routing: both counts, equal groups, no more groups a token than there
        // are, and enough experts within them for its top-k; multi-token prediction up to 16.
        nlohmann::json model = nlohmann::json::parse(R"({
          "id": "m", "name": "M", "source": "unit test", "layers": 4, "hidden": 64, "heads": 4,
          "ffn": 256, "vocab": 100, "max_seq_len": 128, "params_b": 0.001, "experts": 16,
          "top_k": 4, "expert_groups": 4
        })");
        const auto expectError = [&](const char *expected) {
            const std::string message = modelEntryError(model);
            QVERIFY2(message.find(expected) != std::string::npos, message.c_str());
        };
        expectError("/models/0/expert_groups: group-limited routing needs both expert_groups and "
                    "expert_groups_per_token");
        model["expert_groups"] = 5;
        model["expert_groups_per_token"] = 1;
        expectError("/models/0/expert_groups: must divide the 16 experts into equal groups");
        model["expert_groups"] = 4;
        model["expert_groups_per_token"] = 5;
        expectError("/models/0/expert_groups_per_token: cannot exceed expert_groups (4)");
        model["expert_groups"] = 8;
        model["expert_groups_per_token"] = 1; // 2 experts within reach for a top 4
        expectError("/models/0/expert_groups_per_token: leaves fewer experts than top_k (4)");
        model["expert_groups_per_token"] = 2;
        QCOMPARE(modelEntryError(model), std::string());
        model["mtp_layers"] = 17;
        expectError("/models/0/mtp_layers: must be between 0 and 16, found 17");
        model["mtp_layers"] = 1;
        QCOMPARE(modelEntryError(model), std::string());
        model["experts"] = 1;
        model["top_k"] = 1;
        expectError("/models/0/expert_groups: only a mixture-of-experts model");
    }

    void attentionIsDescribedInAFewWords()
    {
        // What `catalog list models` and the palette show of each kind of attention in the
        // shipped catalog (its entries' own fields: DeepSeek-V3's 512-value latent and 64-value
        // rotary key, Llama 4 Scout's 8,192-token chunks on 36 of 48 layers with 8 K/V heads,
        // gpt-oss's 128-token window on 18 of 36, GPT-3's 96 heads each with its own K/V, Falcon
        // 180B's 8 K/V heads in layers whose attention runs beside the MLP).
        static const Catalog catalog = loadCatalogDirectory(CP_SOURCE_DIR "/catalogs");
        QCOMPARE(attentionDescription(catalog.llm("deepseek-v3")), std::string("latent 512+64"));
        QCOMPARE(attentionDescription(catalog.llm("llama-4-scout")),
                 std::string("GQA 8 K/V heads, chunks 8192 on 36 of 48"));
        QCOMPARE(attentionDescription(catalog.llm("gpt-oss-120b")),
                 std::string("GQA 8 K/V heads, window 128 on 18 of 36"));
        QCOMPARE(attentionDescription(catalog.llm("gpt-3-175b")), std::string("MHA"));
        QCOMPARE(attentionDescription(catalog.llm("falcon-180b")),
                 std::string("GQA 8 K/V heads, beside the MLP"));
    }

    void latentAttentionNeedsItsRankAndEveryHead()
    {
        nlohmann::json model = nlohmann::json::parse(R"({
          "id": "m", "name": "M", "source": "unit test", "layers": 2, "hidden": 64, "heads": 4,
          "ffn": 256, "vocab": 100, "max_seq_len": 128, "params_b": 0.001, "q_lora_rank": 32
        })");
        std::string message = modelEntryError(model);
        QVERIFY2(message.find("/models/0/q_lora_rank: belongs to latent attention: give "
                              "kv_lora_rank too")
                     != std::string::npos,
                 message.c_str());
        model["kv_lora_rank"] = 16;
        model["kv_heads"] = 2;
        message = modelEntryError(model);
        QVERIFY2(message.find("/models/0/kv_heads: latent attention up-projects a key and a value "
                              "for every head")
                     != std::string::npos,
                 message.c_str());
        model["kv_heads"] = 4;
        QCOMPARE(modelEntryError(model), std::string());
    }

    void denseLayersBelongToAnMoeModel()
    {
        nlohmann::json model = nlohmann::json::parse(R"({
          "id": "m", "name": "M", "source": "unit test", "layers": 4, "hidden": 64, "heads": 4,
          "ffn": 256, "vocab": 100, "max_seq_len": 128, "params_b": 0.001, "dense_layers": 1
        })");
        std::string message = modelEntryError(model);
        QVERIFY2(message.find("/models/0/dense_layers: only a mixture-of-experts model")
                     != std::string::npos,
                 message.c_str());
        model["experts"] = 8;
        model["top_k"] = 2;
        model["dense_layers"] = 4; // every layer: no MoE layer left
        message = modelEntryError(model);
        QVERIFY2(message.find("/models/0/dense_layers: leaves no MoE layer") != std::string::npos,
                 message.c_str());
        model["dense_layers"] = 1;
        model["dense_ffn"] = 1024;
        QCOMPARE(modelEntryError(model), std::string());
    }

    void validEntryLoads() { QCOMPARE(errorOf(documentWith(validGpu())), std::string()); }

    void weightsAreReadWhereTheCatalogGivesThem()
    {
        // The vendors' figures: DGX H100 287.6 lb = 130.45 kg (user guide); a 42U 600 x 1200
        // cabinet rated for 1,360 kg; a server without a published weight reads 0 (unknown).
        const Catalog catalog = loadCatalogDirectory(CP_SOURCE_DIR "/catalogs");
        QCOMPARE(catalog.node("dgx-h100").weightKilograms, 130.45);
        QCOMPARE(catalog.node("hgx-h200-8gpu").weightKilograms, 0.0);
        QCOMPARE(catalog.networkSwitch("qm9700").weightKilograms, 14.8);
        QCOMPARE(catalog.rack("rack-air-40kw").maxLoadKilograms, 1360.0);
        // A weight must be positive and below 100 t.
        const auto rackWith = [](const nlohmann::json &load) {
            nlohmann::json rack = {{"id", "r"},
                                   {"name", "R"},
                                   {"source", "test"},
                                   {"cooling", "air"},
                                   {"rack_units", 42},
                                   {"price_usd", 1},
                                   {"power_limit_kw", 10},
                                   {"max_load_kg", load}};
            return nlohmann::json {{"format", "clusterplanner-catalog"},
                                   {"version", 1},
                                   {"racks", nlohmann::json::array({rack})}};
        };
        QCOMPARE(errorOf(rackWith(1360)), std::string());
        QVERIFY2(errorOf(rackWith(-1)).find("/racks/0/max_load_kg: must be greater than 0")
                     != std::string::npos,
                 errorOf(rackWith(-1)).c_str());
        QVERIFY2(errorOf(rackWith(1e6)).find("/racks/0/max_load_kg: must be at most")
                     != std::string::npos,
                 errorOf(rackWith(1e6)).c_str());
    }

    void cablePricesAreReadWithTheirSource()
    {
        // The NDR NIC's cabling block as the catalog states it; a NIC without one reads as not
        // known; a negative price or a missing source is named by its pointer.
        const Catalog catalog = loadCatalogDirectory(CP_SOURCE_DIR "/catalogs");
        const CablePrices &ndr = catalog.nic("ib-ndr-400").cabling;
        QVERIFY(ndr.known);
        QCOMPARE(ndr.accPriceUsd, 300.0);
        QCOMPARE(ndr.accWattsPerEnd, 0.75);
        QCOMPARE(ndr.fibrePriceUsdPerMeter, 3.0);
        QVERIFY(catalog.networkSwitch("sn2201").cabling.known);
        QVERIFY(!catalog.networkSwitch("qm9700").cabling.known);
        const auto nicWith = [](const nlohmann::json &cabling) {
            nlohmann::json nic = {{"id", "n"},
                                  {"name", "N"},
                                  {"source", "test"},
                                  {"protocol", "ethernet"},
                                  {"gbit_per_s", 100},
                                  {"achievable_fraction", 0.9},
                                  {"latency_us", 2},
                                  {"power_w", 10},
                                  {"price_usd", 1},
                                  {"optic_power_w", 3},
                                  {"optic_price_usd", 1},
                                  {"cabling", cabling}};
            return nlohmann::json {{"format", "clusterplanner-catalog"},
                                   {"version", 1},
                                   {"nics", nlohmann::json::array({nic})}};
        };
        QCOMPARE(errorOf(nicWith({{"dac_price_usd", 20}, {"source", "quote"}})), std::string());
        const std::string negative
            = errorOf(nicWith({{"dac_price_usd_per_m", -1}, {"source", "quote"}}));
        QVERIFY2(negative.find("/nics/0/cabling/dac_price_usd_per_m: must be") != std::string::npos,
                 negative.c_str());
        const std::string unsourced = errorOf(nicWith({{"dac_price_usd", 20}}));
        QVERIFY2(unsourced.find("/nics/0/cabling/source") != std::string::npos, unsourced.c_str());
        const std::string unknown
            = errorOf(nicWith({{"dac_price_usd", 20}, {"source", "q"}, {"gold", 1}}));
        QVERIFY2(unknown.find("/nics/0/cabling/gold") != std::string::npos, unknown.c_str());
    }

    void brokenEntries_data()
    {
        QTest::addColumn<QString>("field");
        QTest::addColumn<QString>("replacement");
        QTest::addColumn<QString>("expected");
        QTest::newRow("missing memory") << "memory_mib"
                                        << "<remove>"
                                        << "/gpus/0/memory_mib: give the memory as memory_mib";
        QTest::newRow("wrong type") << "memory_mib"
                                    << "\"eighty\""
                                    << "/gpus/0/memory_mib: expected a number, found a string";
        QTest::newRow("missing number") << "tdp_w"
                                        << "<remove>"
                                        << "/gpus/0/tdp_w: required number is missing";
        QTest::newRow("negative") << "tdp_w"
                                  << "-5"
                                  << "/gpus/0/tdp_w: must be greater than 0";
        QTest::newRow("unknown field") << "memry_gb"
                                       << "80"
                                       << "/gpus/0/memry_gb: unknown field";
        QTest::newRow("no source") << "source"
                                   << "<remove>"
                                   << "/gpus/0/source: required string is missing";
        QTest::newRow("bad id") << "id"
                                << "\"Has Spaces\""
                                << "/gpus/0/id: 'Has Spaces' may use only";
        QTest::newRow("bad scale-up kind")
            << "scale_up"
            << R"({"kind": "wifi", "name": "x", "gb_per_s_per_direction": 1})"
            << "/gpus/0/scale_up/kind: 'wifi' is not one of";
        QTest::newRow("fraction out of range")
            << "calibration"
            << R"({"gemm_peak_fraction": 1.5, "gemm_half_performance_dim": 256, "memory_achievable_fraction": 0.8, "scale_up_busbw_gb_per_s": 80, "source": "x"})"
            << "/gpus/0/calibration/gemm_peak_fraction: must be at most 1";
        QTest::newRow("cast fraction out of range")
            << "calibration"
            << R"({"gemm_peak_fraction": 0.8, "gemm_half_performance_dim": 256, "memory_achievable_fraction": 0.8, "scale_up_busbw_gb_per_s": 80, "fp8_cast_memory_fraction": 0, "source": "x"})"
            << "/gpus/0/calibration/fp8_cast_memory_fraction: must be greater than 0";
        QTest::newRow("legacy kernel fraction out of range")
            << "calibration"
            << R"({"gemm_peak_fraction": 0.8, "gemm_half_performance_dim": 256, "memory_achievable_fraction": 0.8, "scale_up_busbw_gb_per_s": 80, "legacy_kernel_gemm_fraction": 0, "source": "x"})"
            << "/gpus/0/calibration/legacy_kernel_gemm_fraction: must be greater than 0";
        QTest::newRow("legacy kernel measurement size not positive")
            << "calibration"
            << R"({"gemm_peak_fraction": 0.8, "gemm_half_performance_dim": 256, "memory_achievable_fraction": 0.8, "scale_up_busbw_gb_per_s": 80, "legacy_kernel_gemm_fraction": 0.7, "legacy_kernel_gemm_measured_dim": -970, "source": "x"})"
            << "/gpus/0/calibration/legacy_kernel_gemm_measured_dim: must be greater than 0";
        QTest::newRow("weight streaming fraction above 1")
            << "calibration"
            << R"({"gemm_peak_fraction": 0.8, "gemm_half_performance_dim": 256, "memory_achievable_fraction": 0.8, "scale_up_busbw_gb_per_s": 80, "gemm_weight_streaming_fraction": 1.2, "source": "x"})"
            << "/gpus/0/calibration/gemm_weight_streaming_fraction: must be at most 1";
        QTest::newRow("decode attention time negative")
            << "calibration"
            << R"({"gemm_peak_fraction": 0.8, "gemm_half_performance_dim": 256, "memory_achievable_fraction": 0.8, "scale_up_busbw_gb_per_s": 80, "decode_attention_fixed_us": -1, "source": "x"})"
            << "/gpus/0/calibration/decode_attention_fixed_us: must be at least 0";
        // The test GPU's HBM streams 1,000 GB/s: an L2 figure of 900 is below it (a TB/s value
        // typed as GB/s, say), refused with the field's pointer.
        QTest::newRow("L2 slower than the HBM")
            << "calibration"
            << R"({"gemm_peak_fraction": 0.8, "gemm_half_performance_dim": 256, "memory_achievable_fraction": 0.8, "scale_up_busbw_gb_per_s": 80, "l2_read_gb_per_s": 900, "source": "x"})"
            << "/gpus/0/calibration/l2_read_gb_per_s: is below the GPU's memory bandwidth";
        QTest::newRow("L2 bandwidth zero")
            << "calibration"
            << R"({"gemm_peak_fraction": 0.8, "gemm_half_performance_dim": 256, "memory_achievable_fraction": 0.8, "scale_up_busbw_gb_per_s": 80, "l2_read_gb_per_s": 0, "source": "x"})"
            << "/gpus/0/calibration/l2_read_gb_per_s: must be greater than 0";
        // Figures that fit a double but overflow once converted (x 1048576 MiB to bytes, x 1e12
        // TFLOP/s to FLOP/s) or once multiplied by a count: refused at the 1e15 cap.
        QTest::newRow("memory beyond a double once in bytes")
            << "memory_mib"
            << "1e300"
            << "/gpus/0/memory_mib: must be at most 1e+15, found 1e+300";
        QTest::newRow("tflops beyond a double once in FLOP/s")
            << "dense_tflops"
            << R"({"bf16": 1e300})"
            << "/gpus/0/dense_tflops/bf16: must be at most 1e+15, found 1e+300";
        QTest::newRow("price that overflows a bill") << "price_usd"
                                                     << "1e300"
                                                     << "/gpus/0/price_usd: must be at most 1e+15";
    }

    void brokenEntries()
    {
        QFETCH(QString, field);
        QFETCH(QString, replacement);
        QFETCH(QString, expected);
        nlohmann::json gpu = validGpu();
        if (replacement == QLatin1String("<remove>"))
            gpu.erase(field.toStdString());
        else
            gpu[field.toStdString()] = nlohmann::json::parse(replacement.toStdString());
        const std::string message = errorOf(documentWith(gpu));
        QVERIFY2(message.find("broken.json") == 0, message.c_str());
        QVERIFY2(message.find(expected.toStdString()) != std::string::npos, message.c_str());
    }

    void overflowingNumberInAFileNamesFileAndField()
    {
        QTemporaryDir dir;
        const std::string path = dir.filePath(QStringLiteral("import.json")).toStdString();
        std::ofstream(path) << R"({"format": "clusterplanner-catalog", "version": 1,
                                   "gpus": [{"id": "x", "tdp_w": 1e400}]})";
        try {
            readJsonFile(path);
            QFAIL("1e400 must be refused");
        } catch (const InputError &error) {
            QCOMPARE(error.file(), path);
            QCOMPARE(error.pointer(), std::string("/gpus/0/tdp_w"));
        }
    }

    void documentErrors()
    {
        nlohmann::json doc = documentWith(validGpu());
        doc["format"] = "something-else";
        QVERIFY(errorOf(doc).find("/format: must be \"clusterplanner-catalog\"")
                != std::string::npos);
        doc = documentWith(validGpu());
        doc["version"] = 7;
        QVERIFY(errorOf(doc).find("/version: version 7 is not supported") != std::string::npos);
        doc = documentWith(validGpu());
        doc["widgets"] = nlohmann::json::array();
        QVERIFY(errorOf(doc).find("/widgets: unknown section") != std::string::npos);
        doc = documentWith(validGpu());
        doc["gpus"].push_back(validGpu());
        QVERIFY(errorOf(doc).find("/gpus/1/id: duplicate id 'test-gpu' (also at /gpus/0)")
                != std::string::npos);
    }

    void badReferenceIsNamed()
    {
        Catalog catalog = loadCatalogDirectory(CP_SOURCE_DIR "/catalogs");
        nlohmann::json node = catalog.entryJson("dgx-h100");
        node["id"] = "my-node";
        node["gpu"] = "no-such-gpu";
        catalog.addEntry(CatalogKind::Node, node, "mine.json", "/nodes/0");
        try {
            catalog.validateReferences();
            QFAIL("a node with an unknown GPU must be rejected");
        } catch (const InputError &error) {
            QCOMPARE(std::string(error.what()),
                     std::string("mine.json: /nodes/0/gpu: unknown GPU id 'no-such-gpu'"));
        }
    }

    void failedDocumentLeavesCatalogUnchanged()
    {
        Catalog catalog;
        catalog.addDocument(documentWith(validGpu()), "ok.json");
        nlohmann::json second = validGpu();
        second["id"] = "second";
        nlohmann::json doc = documentWith(second);
        nlohmann::json broken = validGpu();
        broken["id"] = "third";
        broken.erase("tdp_w");
        doc["gpus"].push_back(broken);
        QVERIFY_THROWS_EXCEPTION(InputError, catalog.addDocument(doc, "bad.json"));
        QCOMPARE(catalog.size(), std::size_t(1));
        QVERIFY(!catalog.contains("second"));
    }

    void syntaxErrorNamesFileAndByte()
    {
        QTemporaryDir dir;
        const std::string path = dir.filePath(QStringLiteral("syntax.json")).toStdString();
        std::ofstream(path)
            << "{\"format\": \"clusterplanner-catalog\", \"version\": 1, \"gpus\": [ }";
        try {
            readJsonFile(path);
            QFAIL("expected a parse error");
        } catch (const InputError &error) {
            const std::string message = error.what();
            QVERIFY2(message.find(path + ": not valid JSON (byte ") == 0, message.c_str());
        }
        QVERIFY_THROWS_EXCEPTION(
            InputError, readJsonFile(dir.filePath(QStringLiteral("missing.json")).toStdString()));
    }

    void unknownIdListsKnownOnes()
    {
        const Catalog catalog = loadCatalogDirectory(CP_SOURCE_DIR "/catalogs");
        try {
            catalog.gpu("h1000");
            QFAIL("expected an unknown-id error");
        } catch (const UnknownCatalogIdError &error) {
            const std::string message = error.what();
            QVERIFY(message.find("unknown GPU id 'h1000'") == 0);
            QVERIFY(message.find("h100-sxm5-80gb") != std::string::npos);
        }
    }
};

QTEST_APPLESS_MAIN(TestCatalog)
#include "tst_catalog.moc"
