// SPDX-License-Identifier: GPL-3.0-or-later
#include "model/catalog/catalogparser.h"

#include "model/core/jsonfieldreader.h"
#include "model/core/units.h"

#include <cctype>

namespace cp::model {

namespace {

void readCommon(JsonFieldReader &reader, CatalogEntry &entry)
{
    entry.id = reader.string("id");
    for (char c : entry.id) {
        if (!(std::islower(static_cast<unsigned char>(c))
              || std::isdigit(static_cast<unsigned char>(c)) || c == '-' || c == '.' || c == '_'))
            reader.fail("id",
                        "'" + entry.id
                            + "' may use only lower-case letters, digits, '-', '.' and '_'");
    }
    entry.name = reader.string("name");
    // Every figure must be traceable: an entry without a source is rejected.
    entry.source = reader.string("source");
}

LinkProtocol readProtocol(JsonFieldReader &reader, bool allowNvlink)
{
    std::vector<std::string> allowed = {"ethernet", "roce", "infiniband"};
    if (allowNvlink)
        allowed.push_back("nvlink");
    const std::string name = reader.choice("protocol", allowed);
    if (name == "roce")
        return LinkProtocol::RoCE;
    if (name == "infiniband")
        return LinkProtocol::InfiniBand;
    if (name == "nvlink")
        return LinkProtocol::NVLink;
    return LinkProtocol::Ethernet;
}

/** An optional weight in kilograms: positive, at most 100 t (a whole rack-scale system is about
 * 1.4 t); 0 when the entry does not give one. */
double readWeight(JsonFieldReader &reader, std::string_view key)
{
    constexpr NumberRange weightRange {0.0, 100000.0, true};
    return reader.optionalNumber(key, weightRange).value_or(0.0);
}

} // namespace

std::string linkProtocolName(LinkProtocol protocol)
{
    switch (protocol) {
    case LinkProtocol::Ethernet:
        return "ethernet";
    case LinkProtocol::RoCE:
        return "roce";
    case LinkProtocol::InfiniBand:
        return "infiniband";
    case LinkProtocol::NVLink:
        return "nvlink";
    }
    return "unknown";
}

namespace {

/** The GPU's named calibration factors (catalogitems.h), each justified in its `source`. */
void readGpuCalibration(JsonFieldReader &reader, GpuSpec &gpu)
{
    JsonFieldReader calibration(reader.object("calibration"), reader.file(),
                                reader.childPointer("calibration"));
    gpu.gemmPeakFraction = calibration.number("gemm_peak_fraction", fraction);
    gpu.gemmHalfPerformanceDim = calibration.number("gemm_half_performance_dim", positive);
    gpu.memoryAchievableFraction = calibration.number("memory_achievable_fraction", fraction);
    gpu.scaleUpBusBytesPerSecond
        = units::gbToBytes(calibration.number("scale_up_busbw_gb_per_s", positive));
    gpu.gemmWeightStreamingFraction
        = calibration.optionalNumber("gemm_weight_streaming_fraction", fraction).value_or(0.0);
    // Entries written before these factors existed get the GpuSpec defaults (the lower end of
    // FlashAttention-2's measured range, and a typical kernel launch cost).
    gpu.attentionPeakFraction = calibration.optionalNumber("attention_peak_fraction", fraction)
                                    .value_or(gpu.attentionPeakFraction);
    gpu.fp8GemmPeakFraction
        = calibration.optionalNumber("fp8_gemm_peak_fraction", fraction).value_or(0.0);
    gpu.fp8GemmHalfPerformanceDim
        = calibration.optionalNumber("fp8_gemm_half_performance_dim", positive).value_or(0.0);
    gpu.ncclLowLatencyBusCapBytesPerSecond = units::gbToBytes(
        calibration.optionalNumber("nccl_ll_busbw_cap_gb_per_s", positive).value_or(0.0));
    gpu.fp8CastMemoryFraction
        = calibration.optionalNumber("fp8_cast_memory_fraction", fraction).value_or(0.0);
    gpu.legacyKernelGemmFraction
        = calibration.optionalNumber("legacy_kernel_gemm_fraction", fraction).value_or(1.0);
    gpu.legacyKernelGemmMeasuredDim
        = calibration.optionalNumber("legacy_kernel_gemm_measured_dim", positive).value_or(0.0);
    gpu.kernelOverheadSeconds
        = calibration.optionalNumber("kernel_overhead_us", {0.0, 1000.0, false})
              .value_or(gpu.kernelOverheadSeconds * 1e6)
        * 1e-6;
    gpu.decodeAttentionFixedSeconds
        = calibration.optionalNumber("decode_attention_fixed_us", {0.0, 1000.0, false})
              .value_or(0.0)
        * 1e-6;
    gpu.l2ReadBytesPerSecond
        = units::gbToBytes(calibration.optionalNumber("l2_read_gb_per_s", positive).value_or(0.0));
    gpu.maskedAttentionElementsPerSecond
        = calibration.optionalNumber("masked_mha_gelements_per_s", positive).value_or(0.0)
        * units::giga;
    // An L2 cache slower than the HBM it caches is a typing error (a TB/s figure read as GB/s).
    if (gpu.l2ReadBytesPerSecond > 0 && gpu.l2ReadBytesPerSecond < gpu.memoryBytesPerSecond)
        calibration.fail("l2_read_gb_per_s",
                         "is below the GPU's memory bandwidth; an L2 cache reads faster than the "
                         "HBM it caches");
    gpu.calibrationSource = calibration.string("source");
    calibration.finish();
    if (gpu.scaleUpBusBytesPerSecond > gpu.scaleUpBytesPerSecond * 1.2)
        calibration.fail("scale_up_busbw_gb_per_s",
                         "exceeds the per-direction scale-up link rate by more than 20%");
}

} // namespace

GpuSpec parseGpu(const nlohmann::json &entry, const std::string &file, const std::string &pointer)
{
    JsonFieldReader reader(entry, file, pointer);
    GpuSpec gpu;
    readCommon(reader, gpu);
    gpu.vendor = reader.string("vendor");

    JsonFieldReader tflops(reader.object("dense_tflops"), file,
                           reader.childPointer("dense_tflops"));
    for (Precision precision : {Precision::FP32, Precision::TF32, Precision::FP16, Precision::BF16,
                                Precision::FP8, Precision::INT8, Precision::INT4}) {
        if (auto value = tflops.optionalNumber(precisionName(precision), positive))
            gpu.denseFlopsPerSecond[precision] = units::tflopsToFlopsPerSecond(*value);
    }
    tflops.finish();
    if (!gpu.supports(Precision::FP16) && !gpu.supports(Precision::BF16))
        reader.fail("dense_tflops", "needs at least an fp16 or bf16 figure");

    // Memory in MiB as the driver reports it (nvidia-smi's total): "80 GB" on a datasheet is
    // 81,920 MiB on an A100 but 81,559 MiB on an H100, so no decimal or binary reading of the
    // marketing figure is right for every part. `memory_gb` (decimal) is read from older files.
    if (reader.has("memory_mib") == reader.has("memory_gb"))
        reader.fail("memory_mib",
                    "give the memory as memory_mib (the driver's total, MiB) or, in "
                    "older files, as memory_gb (decimal gigabytes), not both");
    gpu.memoryBytes = reader.has("memory_mib")
        ? reader.number("memory_mib", positive) * units::mebi
        : units::gbToBytes(reader.number("memory_gb", positive));
    gpu.memoryBytesPerSecond
        = units::gbToBytes(reader.number("memory_bandwidth_gb_per_s", positive));

    JsonFieldReader scaleUp(reader.object("scale_up"), file, reader.childPointer("scale_up"));
    const std::string kind = scaleUp.choice("kind", {"nvlink", "pcie", "infinity-fabric"});
    gpu.scaleUpKind = kind == "nvlink" ? ScaleUpKind::NVLink
        : kind == "pcie"               ? ScaleUpKind::PCIe
                                       : ScaleUpKind::InfinityFabric;
    gpu.scaleUpName = scaleUp.string("name");
    gpu.scaleUpBytesPerSecond
        = units::gbToBytes(scaleUp.number("gb_per_s_per_direction", positive));
    scaleUp.finish();
    gpu.hostLinkBytesPerSecond
        = units::gbToBytes(reader.optionalNumber("host_link_gb_per_s", positive).value_or(0.0));

    gpu.tdpWatts = reader.number("tdp_w", positive);
    gpu.idleWatts = reader.optionalNumber("idle_w", nonNegative).value_or(0.0);
    if (gpu.idleWatts >= gpu.tdpWatts)
        reader.fail("idle_w", "must be below tdp_w");
    gpu.priceUsd = reader.number("price_usd", nonNegative);
    gpu.priceDate = reader.optionalString("price_date").value_or("");
    gpu.mtbfHours = reader.optionalNumber("mtbf_hours", positive).value_or(0.0);

    readGpuCalibration(reader, gpu);
    reader.finish();
    return gpu;
}

NodeSpec parseNode(const nlohmann::json &entry, const std::string &file, const std::string &pointer)
{
    JsonFieldReader reader(entry, file, pointer);
    NodeSpec node;
    readCommon(reader, node);
    node.gpuId = reader.string("gpu");
    node.gpusPerNode = reader.integer("gpus_per_node", 1, 1024);
    const std::string domain = reader.choice(
        "scale_up_domain", {"nvswitch", "nvlink-bridge", "pcie", "infinity-fabric"});
    node.scaleUpDomain = domain == "nvswitch" ? ScaleUpDomain::NVSwitch
        : domain == "nvlink-bridge"           ? ScaleUpDomain::NVLinkBridge
        : domain == "pcie"                    ? ScaleUpDomain::PCIe
                                              : ScaleUpDomain::InfinityFabric;
    node.scaleUpDomainGpus = reader.integer("scale_up_domain_gpus", 1, 1024);
    if (node.scaleUpDomainGpus > node.gpusPerNode)
        reader.fail("scale_up_domain_gpus", "cannot exceed gpus_per_node");
    node.cpuCores = reader.integer("cpu_cores", 1, 100000);
    node.hostMemoryBytes = units::gbToBytes(reader.number("host_memory_gb", positive));
    node.nicsPerNode = reader.integer("nics_per_node", 0, 1024);
    node.nicId = reader.string("nic");
    node.powerWithoutGpusWatts = reader.number("power_without_gpus_w", positive);
    node.measuredMaxPowerWatts
        = reader.optionalNumber("measured_max_power_w", positive).value_or(0.0);
    node.rackUnits = reader.integer("rack_units", 1, 60);
    node.priceWithoutGpusUsd = reader.number("price_without_gpus_usd", nonNegative);
    node.mtbfHours = reader.optionalNumber("mtbf_hours", positive).value_or(0.0);
    node.localNvmeBytes
        = reader.optionalNumber("local_nvme_tb", nonNegative).value_or(0.0) * units::tera;
    node.storageNetworkBytesPerSecond = units::gbToBytes(
        reader.optionalNumber("storage_network_gb_per_s", nonNegative).value_or(0.0));
    node.storageNicId = reader.optionalString("storage_nic").value_or("");
    node.weightKilograms = readWeight(reader, "weight_kg");
    reader.finish();
    return node;
}

namespace {

/** The optional "cabling" block: every price and power non-negative, a source required. */
CablePrices readCablePrices(JsonFieldReader &reader)
{
    CablePrices prices;
    const nlohmann::json *block = reader.optionalObject("cabling");
    if (!block)
        return prices;
    JsonFieldReader cabling(*block, reader.file(), reader.childPointer("cabling"));
    const auto amount = [&](std::string_view key) {
        return cabling.optionalNumber(key, nonNegative).value_or(0.0);
    };
    prices.known = true;
    prices.dacPriceUsd = amount("dac_price_usd");
    prices.dacPriceUsdPerMeter = amount("dac_price_usd_per_m");
    prices.accPriceUsd = amount("acc_price_usd");
    prices.accPriceUsdPerMeter = amount("acc_price_usd_per_m");
    prices.accWattsPerEnd = amount("acc_power_w_per_end");
    prices.fibrePriceUsd = amount("fibre_price_usd");
    prices.fibrePriceUsdPerMeter = amount("fibre_price_usd_per_m");
    prices.singleModeOpticPriceUsd = amount("single_mode_optic_price_usd");
    prices.singleModeOpticWatts = amount("single_mode_optic_power_w");
    prices.twistedPairPriceUsd = amount("twisted_pair_price_usd");
    prices.twistedPairPriceUsdPerMeter = amount("twisted_pair_price_usd_per_m");
    prices.source = cabling.string("source");
    cabling.finish();
    return prices;
}

} // namespace

NicSpec parseNic(const nlohmann::json &entry, const std::string &file, const std::string &pointer)
{
    JsonFieldReader reader(entry, file, pointer);
    NicSpec nic;
    readCommon(reader, nic);
    nic.protocol = readProtocol(reader, false);
    nic.bytesPerSecond
        = units::gbitPerSecondToBytesPerSecond(reader.number("gbit_per_s", positive));
    nic.achievableFraction = reader.number("achievable_fraction", fraction);
    nic.latencySeconds = reader.number("latency_us", positive) * 1e-6;
    nic.powerWatts = reader.number("power_w", nonNegative);
    nic.priceUsd = reader.number("price_usd", nonNegative);
    nic.opticPowerWatts = reader.number("optic_power_w", nonNegative);
    nic.opticPriceUsd = reader.number("optic_price_usd", nonNegative);
    nic.mtbfHours = reader.optionalNumber("mtbf_hours", positive).value_or(0.0);
    nic.cabling = readCablePrices(reader);
    nic.adapter = reader.optionalString("adapter").value_or("");
    reader.finish();
    return nic;
}

SwitchSpec parseSwitch(const nlohmann::json &entry, const std::string &file,
                       const std::string &pointer)
{
    JsonFieldReader reader(entry, file, pointer);
    SwitchSpec sw;
    readCommon(reader, sw);
    sw.protocol = readProtocol(reader, true);
    sw.ports = reader.integer("ports", 2, 4096);
    sw.portBytesPerSecond
        = units::gbitPerSecondToBytesPerSecond(reader.number("port_gbit_per_s", positive));
    sw.latencySeconds = reader.number("latency_ns", positive) * 1e-9;
    sw.powerWatts = reader.number("power_w", positive);
    sw.priceUsd = reader.number("price_usd", nonNegative);
    sw.rackUnits = reader.integer("rack_units", 1, 60);
    sw.mtbfHours = reader.optionalNumber("mtbf_hours", positive).value_or(0.0);
    sw.weightKilograms = readWeight(reader, "weight_kg");
    sw.cabling = readCablePrices(reader);
    reader.finish();
    return sw;
}

StorageSpec parseStorage(const nlohmann::json &entry, const std::string &file,
                         const std::string &pointer)
{
    JsonFieldReader reader(entry, file, pointer);
    StorageSpec storage;
    readCommon(reader, storage);
    storage.kind = reader.choice("kind", {"nfs", "lustre", "parallel-flash"});
    storage.readBytesPerSecond = units::gbToBytes(reader.number("read_gb_per_s", positive));
    storage.writeBytesPerSecond = units::gbToBytes(reader.number("write_gb_per_s", positive));
    storage.iops = reader.number("iops", positive);
    storage.capacityBytes = reader.number("capacity_tb", positive) * units::tera;
    storage.powerWatts = reader.number("power_w", positive);
    storage.priceUsd = reader.number("price_usd", nonNegative);
    storage.rackUnits = reader.integer("rack_units", 1, 1000);
    storage.weightKilograms = readWeight(reader, "weight_kg");
    storage.networkPorts = reader.optionalInteger("network_ports", 1, 1024).value_or(0);
    storage.nicId = reader.optionalString("nic").value_or("");
    if (storage.networkPorts > 0 && storage.nicId.empty())
        reader.fail("nic", "network_ports needs the NIC those ports are");
    // Older catalogs lack the data-path fields: the metadata service then shares the IOPS budget
    // and a client may read at the whole system's rate (no per-client limit).
    storage.metadataOpsPerSecond
        = reader.optionalNumber("metadata_ops_per_s", positive).value_or(storage.iops);
    storage.metadataOpsPerFileOpen
        = reader.optionalNumber("metadata_ops_per_file_open", {1.0, 100.0, false}).value_or(1.0);
    storage.clientBytesPerSecond
        = units::gbToBytes(reader.optionalNumber("client_gb_per_s", positive)
                               .value_or(storage.readBytesPerSecond / units::giga));
    reader.finish();
    return storage;
}

DatasetSpec parseDataset(const nlohmann::json &entry, const std::string &file,
                         const std::string &pointer)
{
    JsonFieldReader reader(entry, file, pointer);
    DatasetSpec dataset;
    readCommon(reader, dataset);
    dataset.kind = reader.choice("kind", {"tokens", "images", "video", "multimodal", "audio"});
    dataset.samples = reader.number("samples", {1.0, 1e16, false});
    dataset.bytesPerSample = reader.number("bytes_per_sample", {1.0, 1e12, false});
    dataset.bytesPerSampleStddev
        = reader.optionalNumber("bytes_per_sample_stddev", {0.0, 1e12, false}).value_or(0.0);
    dataset.filesPerSample = reader.number("files_per_sample", {0.0, 1e6, false});
    dataset.samplesPerFile = reader.number("samples_per_file", {1.0, 1e12, false});
    dataset.tokensPerSample = reader.number("tokens_per_sample", {0.0, 1e9, false});
    dataset.decodeCoreSecondsPerSample
        = reader.number("decode_core_ms_per_sample", {0.0, 1e7, false}) / 1000.0;
    dataset.epochs = reader.number("epochs", {1.0, 1e6, false});
    if (dataset.filesPerSample > 0 && dataset.samplesPerFile > 1)
        reader.fail("files_per_sample",
                    "a sample either has files of its own (samples_per_file 1) or is packed in "
                    "shards (files_per_sample 0)");
    if (dataset.filesPerSample == 0 && dataset.samplesPerFile <= 1)
        reader.fail("samples_per_file", "shards (files_per_sample 0) hold more than one sample");
    if (dataset.tokenShards() != (dataset.tokensPerSample == 0))
        reader.fail("tokens_per_sample",
                    "token shards take the run's sequence length (0); other kinds say how many "
                    "model positions one sample becomes");
    reader.finish();
    return dataset;
}

RackSpec parseRack(const nlohmann::json &entry, const std::string &file, const std::string &pointer)
{
    JsonFieldReader reader(entry, file, pointer);
    RackSpec rack;
    readCommon(reader, rack);
    rack.cooling
        = reader.choice("cooling", {"air", "liquid"}) == "air" ? Cooling::Air : Cooling::Liquid;
    rack.powerLimitWatts = reader.number("power_limit_kw", positive) * units::kilo;
    rack.rackUnits = reader.integer("rack_units", 1, 60);
    rack.priceUsd = reader.number("price_usd", nonNegative);
    rack.maxLoadKilograms = readWeight(reader, "max_load_kg");
    if (const nlohmann::json *block = reader.optionalObject("pdu")) {
        JsonFieldReader pdu(*block, file, reader.childPointer("pdu"));
        rack.pdu = PduSpec {pdu.string("name"), pdu.number("power_kw", positive) * units::kilo,
                            pdu.number("price_usd", nonNegative), pdu.string("source")};
        pdu.finish();
    }
    if (const nlohmann::json *block = reader.optionalObject("patch_panel")) {
        JsonFieldReader panel(*block, file, reader.childPointer("patch_panel"));
        rack.patchPanel
            = PatchPanelSpec {panel.string("name"), panel.integer("ports", 1, 1000),
                              panel.number("price_usd", nonNegative), panel.string("source")};
        panel.finish();
    }
    reader.finish();
    return rack;
}

FacilitySpec parseFacility(const nlohmann::json &entry, const std::string &file,
                           const std::string &pointer)
{
    JsonFieldReader reader(entry, file, pointer);
    FacilitySpec facility;
    readCommon(reader, facility);
    facility.pue = reader.number("pue", {1.0, 5.0, false});
    facility.electricityUsdPerKwh = reader.number("electricity_usd_per_kwh", nonNegative);
    facility.carbonKgPerKwh = reader.number("carbon_kg_per_kwh", nonNegative);
    reader.finish();
    return facility;
}

void readDenseLayers(JsonFieldReader &reader, ModelSpec &model)
{
    model.denseLayers = reader.optionalInteger("dense_layers", 0, model.layers).value_or(0);
    model.denseFfn = reader.optionalInteger("dense_ffn", 1, 1 << 22).value_or(0);
    if ((model.denseLayers > 0 || model.denseFfn > 0) && model.experts <= 1)
        reader.fail(model.denseLayers > 0 ? "dense_layers" : "dense_ffn",
                    "only a mixture-of-experts model (experts > 1) has dense layers besides its "
                    "MoE layers");
    if (model.denseLayers >= model.layers && model.experts > 1)
        reader.fail("dense_layers",
                    "leaves no MoE layer: give fewer than layers (" + std::to_string(model.layers)
                        + ")");
}

void readExpertGroups(JsonFieldReader &reader, ModelSpec &model)
{
    model.expertGroups = reader.optionalInteger("expert_groups", 1, 4096).value_or(0);
    model.expertGroupsPerToken
        = reader.optionalInteger("expert_groups_per_token", 1, 4096).value_or(0);
    if (const auto problem = expertGroupsProblem(model))
        reader.fail(problem->field, problem->reason);
}

void readLocalAttention(JsonFieldReader &reader, ModelSpec &model)
{
    model.slidingWindow = reader.optionalInteger("sliding_window", 1, 1 << 24).value_or(0);
    model.slidingWindowLayers
        = reader.optionalInteger("sliding_window_layers", 1, model.layers).value_or(0);
    if (model.slidingWindowLayers > 0 && model.slidingWindow == 0)
        reader.fail("sliding_window_layers",
                    "needs sliding_window (the window's length in tokens)");
    model.attentionChunk = reader.optionalInteger("attention_chunk", 1, 1 << 24).value_or(0);
    model.chunkedLayers = reader.optionalInteger("chunked_layers", 1, model.layers).value_or(0);
    if (model.chunkedLayers > 0 && model.attentionChunk == 0)
        reader.fail("chunked_layers", "needs attention_chunk (the chunk's length in tokens)");
    if (model.attentionChunk > 0 && model.slidingWindow > 0)
        reader.fail("attention_chunk",
                    "a model with sliding_window cannot also have chunked attention: give one");
}

void readLatentAttention(JsonFieldReader &reader, ModelSpec &model)
{
    model.kvLoraRank = reader.optionalInteger("kv_lora_rank", 1, 1 << 16).value_or(0);
    model.qLoraRank = reader.optionalInteger("q_lora_rank", 1, 1 << 16).value_or(0);
    model.ropeHeadDim = reader.optionalInteger("qk_rope_head_dim", 1, 1 << 16).value_or(0);
    model.valueHeadDim = reader.optionalInteger("v_head_dim", 1, 1 << 16).value_or(0);
    if (model.kvLoraRank == 0) {
        for (const char *key : {"q_lora_rank", "qk_rope_head_dim", "v_head_dim"})
            if (reader.has(key))
                reader.fail(key, "belongs to latent attention: give kv_lora_rank too");
    } else if (model.kvHeads != model.heads) {
        reader.fail("kv_heads",
                    "latent attention up-projects a key and a value for every head: "
                    "leave kv_heads out or equal to heads");
    }
}

void readModelShape(JsonFieldReader &reader, ModelSpec &model)
{
    model.layers = reader.integer("layers", 1, 100000);
    model.hidden = reader.integer("hidden", 1, 1 << 20);
    model.heads = reader.integer("heads", 1, 1 << 16);
    model.kvHeads = reader.optionalInteger("kv_heads", 1, 1 << 16).value_or(model.heads);
    model.ffn = reader.integer("ffn", 1, 1 << 22);
    model.vocab = reader.integer("vocab", 1, 1 << 24);
    model.experts = reader.optionalInteger("experts", 1, 4096).value_or(1);
    model.topK = reader.optionalInteger("top_k", 1, 4096).value_or(1);
    model.sharedExperts = reader.optionalInteger("shared_experts", 0, 4096).value_or(0);
    // 0: hidden / heads, as leaving it out.
    model.explicitHeadDim = reader.optionalInteger("head_dim", 0, 1 << 16).value_or(0);
    model.gatedMlp = reader.optionalBool("gated_mlp").value_or(false);
    model.tiedEmbeddings = reader.optionalBool("tied_embeddings").value_or(false);
    model.bidirectionalAttention = reader.optionalBool("bidirectional_attention").value_or(false);
    model.parallelAttention = reader.optionalBool("parallel_attention").value_or(false);
    model.hiddenDropout
        = reader.optionalNumber("hidden_dropout", {0.0, 0.9, false}).value_or(model.hiddenDropout);
    readLocalAttention(reader, model);
    readLatentAttention(reader, model);
    readDenseLayers(reader, model);
    model.mtpLayers = reader.optionalInteger("mtp_layers", 0, ModelSpec::maxMtpLayers).value_or(0);
    if (model.topK > model.experts)
        reader.fail("top_k", "cannot exceed experts");
    readExpertGroups(reader, model);
    if (model.explicitHeadDim == 0 && model.hidden % model.heads != 0)
        reader.fail("heads",
                    "hidden (" + std::to_string(model.hidden)
                        + ") must be divisible by heads, or give head_dim");
    if (model.heads % model.kvHeads != 0)
        reader.fail("kv_heads", "heads must be divisible by kv_heads");
    if (model.sharedExperts > 0 && model.experts == 1)
        reader.fail("shared_experts", "needs a mixture-of-experts model (experts > 1)");
}

ModelSpec parseModel(const nlohmann::json &entry, const std::string &file,
                     const std::string &pointer)
{
    JsonFieldReader reader(entry, file, pointer);
    ModelSpec model;
    readCommon(reader, model);
    readModelShape(reader, model);
    model.maxSeqLen = reader.integer("max_seq_len", 1, 1 << 24);
    model.publishedParameters = reader.number("params_b", positive) * units::giga;
    reader.finish();
    return model;
}

} // namespace cp::model
