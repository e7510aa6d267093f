// SPDX-License-Identifier: GPL-3.0-or-later
// Value types for the hardware and model catalog. Every number is SI (see units.h); the JSON
// files quote datasheet units and catalogparser.cpp converts. Each entry keeps its `source`.
#pragma once

#include <map>
#include <optional>
#include <string>
#include <vector>

namespace cp::model {

/** Numeric formats a GPU can compute in; throughput is dense (no 2:4 sparsity). */
enum class Precision { FP32, TF32, FP16, BF16, FP8, INT8, INT4 };

std::string precisionName(Precision precision);
std::optional<Precision> precisionFromName(const std::string &name);
/** Bytes per element when a tensor is stored in this format (INT4 packs two per byte). */
double bytesPerElement(Precision precision);

/** How GPUs inside one node (or one NVL rack) talk to each other. */
enum class ScaleUpKind { NVLink, PCIe, InfinityFabric };

struct CatalogEntry
{
    std::string id;
    std::string name;
    std::string source;
};

struct GpuSpec : CatalogEntry
{
    std::string vendor;
    /** Dense tensor throughput per precision, FLOP/s (ops/s for integer formats). */
    std::map<Precision, double> denseFlopsPerSecond;
    double memoryBytes = 0;
    double memoryBytesPerSecond = 0;
    ScaleUpKind scaleUpKind = ScaleUpKind::PCIe;
    std::string scaleUpName; ///< e.g. "NVLink 4", "PCIe Gen4 x16"
    double scaleUpBytesPerSecond = 0; ///< per GPU, per direction (NCCL convention)
    /** The GPU's link to its host's memory, per direction (PCIe, NVLink-C2C); 0: unknown. */
    double hostLinkBytesPerSecond = 0;
    double tdpWatts = 0;
    double idleWatts = 0;
    double priceUsd = 0;
    std::string priceDate;
    double mtbfHours = 0; ///< 0 when the catalog has no figure

    // Calibration factors (named, justified in the catalog entry's calibration_source).
    double gemmPeakFraction = 0.8; ///< large-GEMM fraction of dense peak
    double gemmHalfPerformanceDim = 256; ///< Hockney n_1/2 of GEMM efficiency vs size
    double memoryAchievableFraction = 0.8; ///< of HBM bandwidth reached by streaming kernels
    /**
     * Of HBM bandwidth, reached by a GEMM of a few rows that streams its weight matrix (decode's
     * GEMMs, M = the batch): below an element-wise streaming kernel's on every part measured
     * (0: not measured; memoryAchievableFraction stands in).
     */
    double gemmWeightStreamingFraction = 0;
    double scaleUpBusBytesPerSecond = 0; ///< measured NCCL all-reduce busbw on the scale-up domain
    /** NCCL's ceiling on its LL protocol's bus bandwidth for this architecture (0: none). */
    double ncclLowLatencyBusCapBytesPerSecond = 0;
    double attentionPeakFraction = 0.5; ///< fused (flash) attention, of the 16-bit dense peak
    double fp8GemmPeakFraction = 0; ///< large FP8 GEMMs, of the FP8 peak (0: gemmPeakFraction)
    /** Hockney n_1/2 of FP8 GEMMs, which need larger shapes to fill a peak twice as high (0:
     * gemmHalfPerformanceDim). */
    double fp8GemmHalfPerformanceDim = 0;
    /** Of HBM bandwidth, reached by the FP8 cast-transpose kernels of a training step (0:
     * memoryAchievableFraction, a streaming kernel's). */
    double fp8CastMemoryFraction = 0;
    /** Of this GPU's GEMM throughput, what kernels written for the previous generation's
     * tensor-core instructions (Ampere's mma.sync, CUTLASS SM80) reach on it: below 1 on Hopper,
     * whose full rate needs wgmma (1: native, or not measured). */
    double legacyKernelGemmFraction = 1;
    /** The effective size 3 / (1/M + 1/N + 1/K) of the GEMM legacyKernelGemmFraction was measured
     * on (0: a large GEMM, the fraction is the kernels' asymptotic share). */
    double legacyKernelGemmMeasuredDim = 0;
    double kernelOverheadSeconds = 4e-6; ///< fixed cost of one kernel: launch, ramp-up and tail
    /**
     * Fixed time of one decode-attention kernel beyond streaming its K/V cache at the achievable
     * bandwidth: paged batch-decode kernels reach a fraction of it only on a few hundred MB
     * (0: not measured; the kernel then costs kernelOverheadSeconds like any other).
     */
    double decodeAttentionFixedSeconds = 0;
    /**
     * Bandwidth from the L2 cache to the SMs when many thread blocks read the same data, as the
     * blocks of a decode-attention kernel that serve one query head each re-read the K/V head
     * their group shares (0: not measured; the achievable HBM bandwidth stands in).
     */
    double l2ReadBytesPerSecond = 0;
    /**
     * K/V elements per second, counted once per query head, that FasterTransformer's masked
     * multi-head attention kernel and its descendants (TensorRT-LLM's MMHA, vLLM's PagedAttention
     * v1/v2) take on long caches: one thread block per query head doing CUDA-core arithmetic on
     * every element it reads, which on grouped-query models limits them before HBM or L2 does
     * (0: not measured; no such limit).
     */
    double maskedAttentionElementsPerSecond = 0;
    std::string calibrationSource;

    double peakFlopsPerSecond(Precision precision) const;
    /** The HBM bandwidth a streaming kernel reaches: the datasheet figure times its measured
     * fraction (memoryAchievableFraction). */
    double achievableMemoryBytesPerSecond() const
    {
        return memoryBytesPerSecond * memoryAchievableFraction;
    }
    /** The HBM bandwidth a GEMM streams its weights at (gemmWeightStreamingFraction). */
    double weightStreamingBytesPerSecond() const
    {
        return memoryBytesPerSecond
            * (gemmWeightStreamingFraction > 0 ? gemmWeightStreamingFraction
                                               : memoryAchievableFraction);
    }
    /**
     * Whether `precision` runs on the 8-bit tensor-core path the FP8 sweep measured: FP8, and INT8
     * where the part has an FP8 peak. Hopper's and Ada's datasheets give INT8 the same dense peak
     * as FP8 (H100 SXM5 1,979 TOPS and TFLOP/s, L40S 733), one warpgroup MMA instruction taking
     * either 8-bit type with the same tile shapes (CUDA PTX ISA, wgmma.mma_async .e4m3/.e5m2 and
     * .s8/.u8); no INT8 sweep was found, so INT8 takes the FP8 curve, not the 16-bit one, which
     * made an INT8 step faster than an FP8 step of the same bytes and peak.
     */
    bool onEightBitPath(Precision precision) const
    {
        return precision == Precision::FP8
            || (precision == Precision::INT8 && supports(Precision::FP8));
    }
    /** The large-GEMM fraction of peak for this precision. */
    double gemmPeakFractionFor(Precision precision) const
    {
        return onEightBitPath(precision) && fp8GemmPeakFraction > 0 ? fp8GemmPeakFraction
                                                                    : gemmPeakFraction;
    }
    /** The GEMM half-performance size for this precision. */
    double gemmHalfPerformanceDimFor(Precision precision) const
    {
        return onEightBitPath(precision) && fp8GemmHalfPerformanceDim > 0
            ? fp8GemmHalfPerformanceDim
            : gemmHalfPerformanceDim;
    }
    /**
     * The share of this GPU's large-GEMM rate the legacy kernels reach (gemmEfficiency's
     * `asymptoticShare`), from legacyKernelGemmFraction measured at legacyKernelGemmMeasuredDim:
     * the ratio r of two Hockney curves that share their start-up time is s (n + n½) / (n + s n½)
     * at size n, so s = r n / (n + (1 - r) n½). A ratio measured on a mid-sized GEMM, part of whose
     * time is start-up that the slower instructions do not lengthen, understates the share lost
     * on large ones.
     */
    double legacyKernelAsymptoticShare(Precision precision) const;
    bool supports(Precision precision) const;
};

enum class ScaleUpDomain { NVSwitch, NVLinkBridge, PCIe, InfinityFabric };

struct NodeSpec : CatalogEntry
{
    std::string gpuId;
    int gpusPerNode = 0;
    ScaleUpDomain scaleUpDomain = ScaleUpDomain::PCIe;
    /** GPUs that share one scale-up (NVLink) domain: 8 in a DGX, 72 in a GB200 NVL72 rack. */
    int scaleUpDomainGpus = 1;
    int cpuCores = 0;
    double hostMemoryBytes = 0;
    int nicsPerNode = 0;
    std::string nicId;
    double powerWithoutGpusWatts = 0; ///< CPUs, memory, fans, NICs, at full load
    /**
     * The whole server's highest draw as measured while it trained (GPUs included); 0 where no
     * measurement is published. The rating above sizes circuits and cabinets; a run's energy
     * takes the host at what this measurement leaves it (hostTrainingWatts).
     */
    double measuredMaxPowerWatts = 0;
    int rackUnits = 0;
    double priceWithoutGpusUsd = 0;
    double mtbfHours = 0;
    /** Node-local NVMe the data loader can cache a dataset on (0: none known). */
    double localNvmeBytes = 0;
    /** A storage (north-south) network of its own, per node and direction; 0: storage traffic
     * shares the compute NICs and fabric. */
    double storageNetworkBytesPerSecond = 0;
    /** The NIC of its storage network ports (their rate and cables); empty: none known. The
     * storage rate above over this NIC's rate is how many ports the server cables. */
    std::string storageNicId;
    /** The server's weight as the vendor states it (0: not known). */
    double weightKilograms = 0;
};

enum class LinkProtocol { Ethernet, RoCE, InfiniBand, NVLink };

/**
 * What one cable of a port family costs and draws, by medium (the catalog's "cabling" block):
 * a fixed part (connectors, assembly) plus a part per metre. Multimode runs use the NIC's own
 * transceivers (NicSpec::opticPriceUsd); single-mode runs use `singleModeOptic*`. `known` is false
 * for an entry without the block: its cables are counted but not priced.
 */
struct CablePrices
{
    bool known = false;
    double dacPriceUsd = 0;
    double dacPriceUsdPerMeter = 0;
    double accPriceUsd = 0;
    double accPriceUsdPerMeter = 0;
    double accWattsPerEnd = 0; ///< the linear amplifier at each end of an active copper cable
    double fibrePriceUsd = 0; ///< one fibre cable (MPO or LC, multimode or single-mode)
    double fibrePriceUsdPerMeter = 0;
    double singleModeOpticPriceUsd = 0; ///< one single-mode (DR) transceiver
    double singleModeOpticWatts = 0;
    double twistedPairPriceUsd = 0; ///< one Cat 6A patch cord (RJ45 ports)
    double twistedPairPriceUsdPerMeter = 0;
    std::string source;
};

struct NicSpec : CatalogEntry
{
    LinkProtocol protocol = LinkProtocol::Ethernet;
    double bytesPerSecond = 0; ///< line rate per direction
    double achievableFraction = 0.9; ///< of the line rate NCCL reaches (busbw / line rate)
    double latencySeconds = 0;
    double powerWatts = 0;
    double priceUsd = 0;
    double opticPowerWatts = 0; ///< one transceiver at the NIC end
    double opticPriceUsd = 0;
    double mtbfHours = 0; ///< NIC, its transceiver and cable together; 0 when unknown
    CablePrices cabling; ///< the cables of this port rate
    /**
     * The physical card ("ConnectX-7 VPI"); empty when unknown. Two NIC entries with the same
     * adapter are one card configured for either protocol (a VPI port runs InfiniBand or
     * Ethernet, set with mlxconfig), so a server that ships with one needs no new card to run
     * the other.
     */
    std::string adapter;
};

struct SwitchSpec : CatalogEntry
{
    LinkProtocol protocol = LinkProtocol::Ethernet;
    int ports = 0;
    double portBytesPerSecond = 0;
    double latencySeconds = 0;
    double powerWatts = 0; ///< without optics
    double priceUsd = 0;
    int rackUnits = 1;
    double mtbfHours = 0;
    double weightKilograms = 0; ///< 0: not known
    CablePrices cabling; ///< the cables of its ports (a management switch's twisted pair)
};

struct StorageSpec : CatalogEntry
{
    std::string kind; ///< nfs, lustre, parallel-flash
    double readBytesPerSecond = 0;
    double writeBytesPerSecond = 0;
    double iops = 0; ///< read requests per second (data, not metadata)
    /** File opens, stats and lookups per second the metadata service answers (mdtest-style). */
    double metadataOpsPerSecond = 0;
    /** Metadata operations one open-read-close of a file costs on this protocol. */
    double metadataOpsPerFileOpen = 1;
    /** What one client node reads or writes at most (one NFS mount's TCP connections, a Lustre
     * client's RPCs in flight). */
    double clientBytesPerSecond = 0;
    double capacityBytes = 0;
    double powerWatts = 0;
    double priceUsd = 0;
    int rackUnits = 0;
    double weightKilograms = 0; ///< 0: not known
    /** Its front-end network ports and their NIC (0 and empty: not known, not cabled). */
    int networkPorts = 0;
    std::string nicId;
};

/**
 * A training dataset as the data loader reads it: how big a sample is, how samples are packed in
 * files, and what the CPU spends to turn one into a tensor.
 */
struct DatasetSpec : CatalogEntry
{
    std::string kind; ///< tokens, images, video, multimodal
    double samples = 0; ///< in the whole dataset; for token shards, tokens / 1
    /** Bytes of one sample on storage; for token shards, of one token (the sample is a sequence
     * of the run's length). */
    double bytesPerSample = 0;
    double bytesPerSampleStddev = 0;
    double filesPerSample = 1; ///< files opened for one sample (1 for a JPEG, 0 for shards)
    double samplesPerFile = 1; ///< samples packed in one file (shards: thousands)
    /** Model input positions one sample becomes (patches of an image); 0 for token shards. */
    double tokensPerSample = 0;
    double decodeCoreSecondsPerSample = 0; ///< CPU decode and augmentation, one core
    double epochs = 1; ///< passes over the dataset a run makes
    bool tokenShards() const { return kind == "tokens"; }
};

enum class Cooling { Air, Liquid };

/** The zero-U power distribution unit a cabinet is fed through (a rack entry's "pdu"). */
struct PduSpec
{
    std::string name;
    double watts = 0; ///< the continuous load one PDU carries
    double priceUsd = 0;
    std::string source;
};

/** The 1U fibre patch panel a cabinet terminates runs between rows on ("patch_panel"). */
struct PatchPanelSpec
{
    std::string name;
    int ports = 48;
    double priceUsd = 0;
    std::string source;
};

struct RackSpec : CatalogEntry
{
    Cooling cooling = Cooling::Air;
    double powerLimitWatts = 0;
    int rackUnits = 42;
    double priceUsd = 0;
    /** The equipment load the cabinet is rated for (0: not known). */
    double maxLoadKilograms = 0;
    /** Its PDUs; none for a cabinet whose power comes otherwise (a liquid-cooled rack's power
     * shelves and busbar). */
    std::optional<PduSpec> pdu;
    std::optional<PatchPanelSpec> patchPanel;
};

struct FacilitySpec : CatalogEntry
{
    double pue = 1.0;
    double electricityUsdPerKwh = 0;
    double carbonKgPerKwh = 0;
};

struct ModelSpec : CatalogEntry
{
    int layers = 0;
    int hidden = 0;
    int heads = 0;
    int kvHeads = 0;
    int ffn = 0; ///< hidden size of one expert's MLP
    int vocab = 0;
    int experts = 1; ///< 1 for a dense model
    int topK = 1;
    int sharedExperts = 0; ///< experts every token passes through besides its top-k
    /**
     * Group-limited routing (DeepSeek-AI, "DeepSeek-V2", 2024, §2.2.3 device-limited routing;
     * "DeepSeek-V3 Technical Report", 2024, §2.1.2 node-limited routing; config.json n_group and
     * topk_group; Megatron-Core's moe_router_num_groups and moe_router_group_topk): the experts
     * fall into `expertGroups` equal groups of consecutive experts, and a token's top-k come from
     * at most `expertGroupsPerToken` of them. 0: no limit.
     */
    int expertGroups = 0;
    int expertGroupsPerToken = 0;
    int explicitHeadDim = 0; ///< 0: hidden / heads
    bool gatedMlp = false; ///< SwiGLU-style MLP with three weight matrices
    bool tiedEmbeddings = false; ///< output projection shares the input embedding
    /**
     * Every position attends every other, as an encoder does (ViT: Dosovitskiy et al., "An
     * Image is Worth 16x16 Words", ICLR 2021, eq. 2-4, and BERT), with learned position
     * embeddings rather than rotary ones; false: causal decoder attention.
     */
    bool bidirectionalAttention = false;
    /**
     * Attention and MLP side by side in each layer: both read the same normalised input and
     * their outputs are summed into the residual stream (GPT-J: Wang and Komatsuzaki,
     * "GPT-J-6B", 2021; GPT-NeoX-20B: Black et al., 2022, section 2.1.2; Falcon: Almazrouei et
     * al., "The Falcon Series of Open Language Models", 2023, its architecture section). Under
     * tensor parallelism the two partial outputs are summed before one all-reduce, not reduced
     * apart.
     */
    bool parallelAttention = false;
    int maxSeqLen = 0;
    double publishedParameters = 0; ///< as the model card states it, for cross-checking
    /**
     * Dropout probability on the hidden states (Megatron's hidden_dropout; its default, 0.1,
     * when the entry gives none). Above 0 every dropout keeps a 1-byte mask per element for the
     * backward pass; at 0 PyTorch's dropout returns its input and keeps none.
     */
    double hiddenDropout = 0.1;
    /**
     * Sliding-window attention (Beltagy et al., "Longformer", 2020; Jiang et al., "Mistral 7B",
     * 2023; OpenAI's gpt-oss, 2025): a windowed layer's query attends, and its K/V cache keeps,
     * at most this many of the latest tokens. 0: every layer attends the whole context.
     */
    int slidingWindow = 0;
    /** Layers that use the window (the rest attend the whole context); all when 0. */
    int slidingWindowLayers = 0;
    /**
     * Chunked local attention (Meta's Llama 4, 2025: "iRoPE", 8,192-token chunks on three of
     * every four layers): a chunked layer's query attends, and its K/V cache keeps, only the
     * tokens of its own chunk of this many positions. 0: none. A model has either this or a
     * sliding window.
     */
    int attentionChunk = 0;
    /** Layers that use the chunks (the rest attend the whole context); all when 0. */
    int chunkedLayers = 0;
    /**
     * Multi-head latent attention (DeepSeek-AI, "DeepSeek-V2", 2024, section 2.1; DeepSeek-V3):
     * each layer projects a token down to a latent of kvLoraRank values and, from it, up to every
     * head's key and value; a latent cache keeps only the latent and one rotary key of
     * ropeHeadDim values a token. headDim is then a query/key head's non-rotary part
     * (qk_nope_head_dim). 0: standard multi-head or grouped-query attention.
     */
    int kvLoraRank = 0;
    int qLoraRank = 0; ///< queries through a latent of this rank too; 0: projected directly
    int ropeHeadDim = 0; ///< the rotary part of a query/key head (qk_rope_head_dim)
    int valueHeadDim = 0; ///< a value head's width (v_head_dim); 0: headDim
    bool latentAttention() const { return kvLoraRank > 0; }
    /**
     * Layers of a mixture-of-experts model whose MLP is dense (DeepSeek-V3's first 3, GLM-4.5's
     * first 3, Llama 4 Maverick's every other layer); 0: every layer routes to experts.
     */
    int denseLayers = 0;
    /** Hidden size of those dense layers' MLP; 0: the same as ffn. */
    int denseFfn = 0;
    /**
     * Multi-token prediction depths trained beside the model (DeepSeek-AI, "DeepSeek-V3
     * Technical Report", 2024, §2.2; config.json num_nextn_predict_layers, Megatron-Core's
     * mtp_num_layers): each predicts one token further with a transformer block of its own and
     * the shared output projection. Training only; 0 for none.
     */
    int mtpLayers = 0;
    /** The most MTP depths a catalog, plan or run may give (DeepSeek-V3 trains 1). */
    static constexpr int maxMtpLayers = 16;

    /** Layers whose attention is local (windowed or chunked): none without a window or chunks,
     * else all unless given. */
    int localAttentionLayers() const
    {
        if (attentionChunk > 0)
            return chunkedLayers > 0 ? chunkedLayers : layers;
        return slidingWindow <= 0 ? 0 : slidingWindowLayers > 0 ? slidingWindowLayers : layers;
    }
    int headDim() const { return explicitHeadDim > 0 ? explicitHeadDim : hidden / heads; }
    bool isMoe() const { return experts > 1; }
};

/**
 * A model's attention in a few words, for catalog listings: "latent 512+64" (multi-head latent
 * attention: the latent and rotary key a token caches), "window 128 on 18 of 36" (sliding window),
 * "chunks 8192 on 36 of 48" (chunked local attention), "GQA 8 K/V heads" (grouped-query), "MQA"
 * (one K/V head) or "MHA" (every head its own keys and values), with ", beside the MLP" for a
 * layer that runs attention and MLP side by side (ModelSpec::parallelAttention).
 */
/** Whether a server that ships with `builtIn` runs `wanted` without a new card: the same entry,
 * or the same adapter configured for the other protocol (NicSpec::adapter). */
bool sameNicCard(const NicSpec &builtIn, const NicSpec &wanted);

std::string attentionDescription(const ModelSpec &model);

/** A model field that breaks a rule: the catalog's name of the field and why. */
struct ModelFieldProblem
{
    std::string field; ///< "expert_groups", "expert_groups_per_token"
    std::string reason;
};
/** What is wrong with `model`'s group-limited routing, if anything: both counts or neither,
 * only for an MoE model, equal groups, no more groups a token than there are, and enough experts
 * within them for its top-k. The catalog reader and the CLI's model shape both apply it. */
std::optional<ModelFieldProblem> expertGroupsProblem(const ModelSpec &model);

/** The kinds of catalog entries, in the order `catalog list` shows them. */
enum class CatalogKind { Gpu, Node, Nic, Switch, Storage, Rack, Facility, Model, Dataset };

const std::vector<CatalogKind> &allCatalogKinds();
/** Plural JSON key and CLI word: "gpus", "nodes", ... */
std::string catalogKindKey(CatalogKind kind);
std::optional<CatalogKind> catalogKindFromKey(const std::string &key);

} // namespace cp::model
