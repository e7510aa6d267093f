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
    /** Tokens one scheduler step may process (decode tokens plus the prefill chunk). */
    int tokensPerStep = 8192;
    /** Share of GPU memory the engine lets weights, activations and K/V cache use. */
    double memoryUtilization = 0.9;
    /** True: the share is of the memory left after the weights (TensorRT-LLM's
     * kv_cache_free_gpu_mem_fraction); false: of the whole memory (vLLM's
     * gpu_memory_utilization). */
    bool shareOfFreeMemory = false;
};

const std::vector<ServingEngine> &servingEngines();
const ServingEngine *findServingEngine(const std::string &id);
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

} // namespace cp::model
