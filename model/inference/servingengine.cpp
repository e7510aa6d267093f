// SPDX-License-Identifier: GPL-3.0-or-later
#include "model/inference/servingengine.h"

#include "model/catalog/catalogitems.h"
#include "model/core/humantext.h"
#include "model/training/transformershape.h"

#include <algorithm>
#include <cmath>

namespace cp::model {

namespace {

/** Whether a kernel that takes `accepted` (empty: every value) takes `value`. */
bool takes(const std::vector<int> &accepted, int value)
{
    return accepted.empty() || std::find(accepted.begin(), accepted.end(), value) != accepted.end();
}

std::vector<ServingEngine> makeEngines()
{
    std::vector<ServingEngine> engines;

    ServingEngine trtllm;
    trtllm.id = "tensorrt-llm-0.12";
    trtllm.name = "TensorRT-LLM 0.12";
    trtllm.source
        = "NVIDIA TensorRT-LLM documentation (https://nvidia.github.io/TensorRT-LLM/): in-flight "
          "batching with chunked context off by default, max_num_tokens 8192, "
          "kv_cache_free_gpu_mem_fraction 0.9 of the memory left after the engine's weights. "
          "Decode attention: the XQA kernel for grouped-query models, one K/V read per group "
          "(docs/source/gpt_attention.md, 'XQA Optimization', on unless --disable_xqa).";
    trtllm.source
        += " Side kernels of a layer's attention (cpp/tensorrt_llm/common/attentionOp.cpp, "
           "enqueueContext and enqueueGeneration): a context phase runs invokeBuildDecoderInfo "
           "(sequence offsets) and invokeQKVPreprocessing (the rotary embedding and the K/V "
           "cache write) before its FMHA kernel; a generation step on XQA runs the same rotary "
           "and cache-update kernel first (invokeApplyBiasRopeUpdateKVCache in "
           "decoderXQARunner.cpp), while the masked multi-head kernel applies the rotary "
           "embedding and appends K/V itself.";
    trtllm.prefillAttentionSideKernels = 2;
    trtllm.decodeAttentionSideKernels = 1;
    trtllm.maskedKernelAppliesRope = true;
    trtllm.chunkedPrefill = false;
    trtllm.tokensPerStep = 8192;
    trtllm.memoryUtilization = 0.9;
    trtllm.shareOfFreeMemory = true;
    engines.push_back(trtllm);

    ServingEngine trtllm09 = trtllm;
    trtllm09.id = "tensorrt-llm-0.9";
    trtllm09.name = "TensorRT-LLM 0.9";
    trtllm09.source = trtllm.source
        + " Version 0.9.0 (tag of 2024-04-12): the MoE plugin's grouped GEMM dispatches "
          "compute capability 9.0 to its CUTLASS SM80 kernels "
          "(cpp/tensorrt_llm/kernels/cutlass_kernels/moe_gemm/moe_gemm_kernels_template.h, "
          "with a to-do to move to SM90 once CUTLASS has Hopper grouped GEMMs); the SM90 MoE "
          "kernels arrived after the tag, with FP8 Mixtral (NVIDIA/TensorRT-LLM pull request "
          "1492, 'Update TensorRT-LLM', 2024-04-24), so releases from 0.10 run Hopper-native "
          "MoE GEMMs.";
    trtllm09.source
        += " Decode attention at 0.9: DecoderXQARunner::shouldUse "
           "(cpp/tensorrt_llm/kernels/decoderMaskedMultiheadAttention/"
           "decoderXQARunner.h) takes only groups of 1 or 8 query heads per K/V head "
           "and heads of 128 or 256, and the precompiled XQA kernels for one-beam "
           "generation are all for groups of 8 (cubin/xqa_kernel_*_nqpkv_8_*), so every "
           "other model runs the masked multi-head attention kernel, whose grid "
           "launches one thread block per query head and sequence "
           "(decoderMaskedMultiheadAttentionLaunch.h: grid {num_heads, batch_size}; "
           "each block reads K/V head hi / qhead_per_kv).";
    trtllm09.moeGemmLegacyKernels = true;
    trtllm09.groupedDecodeGroupSizes = {8};
    trtllm09.groupedDecodeHeadDims = {128, 256};
    engines.push_back(trtllm09);

    ServingEngine vllm;
    vllm.id = "vllm-0.6";
    vllm.name = "vLLM 0.6";
    vllm.source
        = "vLLM documentation and chunked-prefill design (vllm-project/vllm pull request 4580, "
          "https://github.com/vllm-project/vllm/pull/4580): with chunked prefill "
          "max_num_batched_tokens defaults to 512; gpu_memory_utilization 0.9 of the whole GPU "
          "(https://docs.vllm.ai/en/latest/models/performance.html). Chunked prefill as in "
          "Agrawal et al., 'Taming Throughput-Latency Tradeoff in LLM Inference with "
          "Sarathi-Serve', OSDI 2024. vLLM 0.6 turns chunked prefill on by itself only for models "
          "whose max_model_len is over 32K (32,768) tokens ('Chunked prefill is enabled by "
          "default for models with max_model_len > 32K', vllm/engine/arg_utils.py "
          "EngineArgs.create_engine_config); shorter-context models prefill each prompt whole. "
          "At most 256 sequences run in one batch unless "
          "--max-num-seqs raises it (SchedulerConfig.max_num_seqs = 256 in vllm/config.py, and "
          "the engine-arguments page, https://docs.vllm.ai/en/v0.6.0/models/engine_args.html).";
    vllm.source
        += " Side kernels of a layer's attention, prefill and decode alike: the model's "
           "rotary_embedding op (vllm/model_executor/models/llama.py, LlamaAttention.forward) and "
           "the K/V cache write reshape_and_cache_flash (vllm/attention/backends/flash_attn.py, "
           "FlashAttentionImpl.forward) before the attention kernel.";
    vllm.prefillAttentionSideKernels = 2;
    vllm.decodeAttentionSideKernels = 2;
    vllm.chunkedPrefill = true;
    vllm.chunkedPrefillAboveContext = 32768;
    vllm.defaultMaxBatch = 256;
    vllm.maxBatchSetting = "max_num_seqs";
    vllm.tokensPerStep = 512;
    vllm.memoryUtilization = 0.9;
    vllm.shareOfFreeMemory = false;
    vllm.source += " Models with multi-head latent attention (DeepSeek-V2, V3) run with every "
                   "head's keys and values up-projected and cached, the values zero-padded to "
                   "the 192-wide key heads for the attention kernel (vllm/model_executor/models/"
                   "deepseek_v2.py, DeepseekV2Attention.forward, before v0.7.1).";
    engines.push_back(vllm);

    ServingEngine vllm07 = vllm;
    vllm07.id = "vllm-0.7";
    vllm07.name = "vLLM 0.7";
    vllm07.source = vllm.source
        + " Version 0.7.1 (2025-02-01) adds multi-head latent attention for DeepSeek models: the "
          "K/V cache keeps the 576-value latent and rotary key a token, about 9.6 times the "
          "tokens in the same memory, and decode attends the latent with the up-projections "
          "absorbed (release notes, https://github.com/vllm-project/vllm/releases/tag/v0.7.1; "
          "Neural Magic and Red Hat, 'Enhancing DeepSeek Models with MLA and FP8 Optimizations "
          "in vLLM', 2025, "
          "https://www.redhat.com/en/blog/enhancing-deepseek-models-mla-and-fp8-optimizations-vllm"
          "). With MLA it turns chunked prefill off ('MLA is enabled; forcing chunked prefill "
          "and prefix caching to be disabled', the engine's log at 0.7.1, quoted in "
          "vllm-project/vllm pull request 13374). Its other settings are taken as 0.6's.";
    vllm07.latentKvCache = true;
    vllm07.chunksLatentAttention = false;
    engines.push_back(vllm07);

    ServingEngine turbomind;
    turbomind.id = "lmdeploy-0.1";
    turbomind.name = "LMDeploy 0.1 (TurboMind)";
    turbomind.source
        = "LMDeploy v0.1.0 (tag 477f2db8ab5770b30f44b0c7910953f44795366e), TurboMind decoder "
          "attention, src/turbomind/kernels/decoder_multihead_attention/"
          "decoder_multihead_attention.cu: one thread block serves 4, 2 or 1 query heads (the "
          "largest that divides the group) from one read of their K/V head with a 16-bit cache, "
          "and one query head with an int8 cache, so Llama 2 70B's groups of 8 read each K/V "
          "head twice per step (the grid's x index is the block's head group, so the two blocks "
          "of a K/V head are neighbours and the second read comes from L2). Scheduling and memory "
          "as TensorRT-LLM's profile (prompts "
          "unchunked, the K/V cache sized from the memory the weights leave), which TurboMind's "
          "persistent batch follows; its memory share is not checked against the v0.1.0 "
          "defaults.";
    turbomind.chunkedPrefill = false;
    turbomind.tokensPerStep = 8192;
    turbomind.memoryUtilization = 0.9;
    turbomind.shareOfFreeMemory = true;
    turbomind.queryHeadsPerKvRead = 4;
    turbomind.queryHeadsPerKvReadInt8 = 1;
    engines.push_back(turbomind);
    return engines;
}

} // namespace

const std::vector<ServingEngine> &servingEngines()
{
    static const std::vector<ServingEngine> engines = makeEngines();
    return engines;
}

const ServingEngine *findServingEngine(const std::string &id)
{
    for (const ServingEngine &engine : servingEngines()) {
        if (engine.id == id)
            return &engine;
    }
    return nullptr;
}

bool chunksPrefill(const ServingEngine &engine, long long contextTokens)
{
    return engine.chunkedPrefill
        && (engine.chunkedPrefillAboveContext <= 0
            || contextTokens > engine.chunkedPrefillAboveContext);
}

const ServingEngine &defaultServingEngine()
{
    return *findServingEngine("vllm-0.7");
}

bool runsMaskedMultiheadKernel(const ServingEngine &engine, int groupSize, int headDim)
{
    if (engine.groupedDecodeGroupSizes.empty() && engine.groupedDecodeHeadDims.empty())
        return false;
    return !takes(engine.groupedDecodeGroupSizes, groupSize)
        || !takes(engine.groupedDecodeHeadDims, headDim);
}

double kvReadsPerKvHead(const ServingEngine &engine, int groupSize, int headDim, bool int8Cache)
{
    if (groupSize <= 1)
        return 1.0;
    if (runsMaskedMultiheadKernel(engine, groupSize, headDim))
        return groupSize; // the fallback kernel: one block per query head
    const int perRead = int8Cache ? engine.queryHeadsPerKvReadInt8 : engine.queryHeadsPerKvRead;
    if (perRead <= 0)
        return 1.0;
    int served = 1;
    while (served * 2 <= perRead && groupSize % (served * 2) == 0)
        served *= 2;
    return static_cast<double>(groupSize) / served;
}

std::vector<std::string> servingEngineIdList()
{
    std::vector<std::string> ids;
    for (const ServingEngine &engine : servingEngines())
        ids.push_back(engine.id);
    return ids;
}

double expectedTokensPerVerifyStep(double acceptanceRate, int draftTokens)
{
    if (acceptanceRate >= 1.0)
        return draftTokens + 1.0;
    return (1.0 - std::pow(acceptanceRate, draftTokens + 1)) / (1.0 - acceptanceRate);
}

std::string draftModelProblem(const ModelSpec &draft, const ModelSpec &target)
{
    const std::string targetName
        = target.id.empty() ? std::string("the model") : "'" + target.id + "'";
    if (draft.vocab != target.vocab)
        return "draft model '" + draft.id + "' has a vocabulary of " + groupedCount(draft.vocab)
            + " tokens, " + targetName + " one of " + groupedCount(target.vocab)
            + ": speculative decoding needs the target's tokenizer";
    // Per token, what each reads and multiplies: the parameters a token passes through.
    if (TransformerShape::fromModel(draft).activeParameters()
        >= TransformerShape::fromModel(target).activeParameters())
        return "draft model '" + draft.id + "' is no smaller than " + targetName
            + ": its proposals would cost more than the tokens they save";
    return {};
}

} // namespace cp::model
