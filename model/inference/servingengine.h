// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <string>
#include <vector>

namespace cp::model {

/**
 * The serving software, as far as it changes latency, throughput and memory: how it schedules
 * prompts against decode steps and how much GPU memory it lets the K/V cache use. A published
 * figure is reproduced with the profile of the engine that measured it.
 */
struct ServingEngine
{
    std::string id; ///< "vllm-0.6"
    std::string name; ///< "vLLM 0.6"
    std::string source;
    /** Prompts are split into chunks that ride along with the running decodes (Sarathi-Serve);
     * otherwise a prompt's prefill runs alone and stalls the batch. */
    bool chunkedPrefill = false;
    /** Chunked prefill only for models whose context is longer than this many tokens (vLLM 0.6
     * turns it on by itself above 32,768); 0: for every model. */
    int chunkedPrefillAboveContext = 0;
    /** Tokens one scheduler step may process (decode tokens plus the prefill chunk). */
    int tokensPerStep = 8192;
    /** Share of GPU memory the engine lets weights, activations and K/V cache use. */
    double memoryUtilization = 0.9;
    /** True: the share is of the memory left after the weights (TensorRT-LLM's
     * kv_cache_free_gpu_mem_fraction); false: of the whole memory (vLLM's
     * gpu_memory_utilization). */
    bool shareOfFreeMemory = false;
    /**
     * Query heads one decode-attention thread block serves from a single read of its K/V head,
     * at most (it takes the largest power of two up to this that divides the group). 0: the
     * kernel serves a whole grouped-query group from one read (FlashAttention/FlashInfer decode,
     * TensorRT-LLM XQA); 1: every query head reads its K/V head itself (MHA-style kernels).
     */
    int queryHeadsPerKvRead = 0;
    /** The same for a K/V cache quantised to 8 bits (kernels often lose the grouping there). */
    int queryHeadsPerKvReadInt8 = 0;
    /**
     * Group sizes and head dimensions the engine's grouped decode kernel takes (empty: every
     * one). A model outside them runs the engine's fallback kernel, whose thread blocks each
     * serve one query head (TensorRT-LLM 0.9: XQA only for groups of 8 with heads of 128 or
     * 256, the masked multi-head attention kernel for every other model).
     */
    std::vector<int> groupedDecodeGroupSizes;
    std::vector<int> groupedDecodeHeadDims;
    /**
     * Kernels a layer's attention launches besides the attention kernel itself, in a prefill and
     * in a decode step: the rotary embedding and the write of the new tokens' keys and values
     * into the cache, and the engine's per-layer set-up (0: the profile claims none).
     */
    int prefillAttentionSideKernels = 0;
    int decodeAttentionSideKernels = 0;
    /** The engine's masked multi-head decode kernel applies the rotary embedding and appends the
     * new keys and values itself, so a decode step on it launches no side kernel. */
    bool maskedKernelAppliesRope = false;
    /** The MoE plugin's grouped expert GEMMs run kernels of the previous tensor-core generation
     * on newer GPUs (GpuSpec::legacyKernelGemmFraction). */
    bool moeGemmLegacyKernels = false;
    /**
     * For a model with multi-head latent attention (ModelSpec::kvLoraRank): true, the cache keeps
     * each token's latent and shared rotary key and decode attends them directly, the up-
     * projections absorbed into the query and the output (DeepSeek-V2, section 2.1.2); false,
     * the engine up-projects every head's key and value and caches those, the values padded to
     * the keys' head width for its attention kernel (vLLM before 0.7.1).
     */
    bool latentKvCache = false;
    /** With a latent cache the engine still chunks prefills (false: it turns chunking off). */
    bool chunksLatentAttention = true;
    /** Sequences the scheduler admits into one running batch unless the deployment raises it
     * (vLLM's max_num_seqs); 0: no default cap, the K/V cache memory decides. */
    int defaultMaxBatch = 0;
    /** The setting's name in the engine, for messages ("max_num_seqs"). */
    std::string maxBatchSetting = "max_batch_size";
};

const std::vector<ServingEngine> &servingEngines();
/**
 * Times the thread blocks of `engine`'s decode-attention kernel read each K/V head of the cache
 * in a step, for a model whose query heads share K/V heads in groups of `groupSize` with heads of
 * `headDim`: 1 for a kernel that serves the whole group, else the group divided by the heads one
 * block serves. HBM delivers a head once; the blocks of a group run side by side and take the
 * other reads from the L2 cache (decodeStageOperations).
 */
double kvReadsPerKvHead(const ServingEngine &engine, int groupSize, int headDim, bool int8Cache);
/** Whether `engine` decodes a model of `groupSize` query heads per K/V head of `headDim` with its
 * fallback kernel, FasterTransformer's masked multi-head attention (one block per query head):
 * false for an engine without grouped-kernel limits (groupedDecodeGroupSizes empty). */
bool runsMaskedMultiheadKernel(const ServingEngine &engine, int groupSize, int headDim);
const ServingEngine *findServingEngine(const std::string &id);
/** Whether `engine` prefills in chunks for a model of `contextTokens` (its max_seq_len, or the
 * request's own length when larger). */
bool chunksPrefill(const ServingEngine &engine, long long contextTokens);
/** The newest profile: new plans and the CLI use it when none is named. */
const ServingEngine &defaultServingEngine();
std::vector<std::string> servingEngineIdList();

/**
 * Speculative decoding (Leviathan et al., "Fast Inference from Transformers via Speculative
 * Decoding", ICML 2023): a draft proposes `draftTokens` tokens, the target verifies them in one
 * step, and each is accepted with probability `acceptanceRate`.
 */
struct SpeculativeDecoding
{
    bool enabled = false;
    int draftTokens = 4; ///< gamma
    double acceptanceRate = 0.7; ///< alpha, from the user's own measurement
    /** Draft model (catalog id) or empty for n-gram / prompt-lookup drafting, which costs no
     * GPU time. */
    std::string draftModelId;
};

/** Expected tokens a verify step yields: (1 - alpha^(gamma+1)) / (1 - alpha) (Leviathan et al.
 * eq. 1); gamma + 1 when every draft token is accepted. */
double expectedTokensPerVerifyStep(double acceptanceRate, int draftTokens);

struct ModelSpec;
/** Why `draft` cannot draft for `target`, empty when it can: a draft proposes tokens the target
 * verifies, so the two share a vocabulary (engines refuse a draft of another tokenizer), and a
 * draft that a token costs no less to run than the target saves nothing. */
std::string draftModelProblem(const ModelSpec &draft, const ModelSpec &target);

} // namespace cp::model
