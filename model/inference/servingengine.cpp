// SPDX-License-Identifier: GPL-3.0-or-later
#include "model/inference/servingengine.h"

#include <cmath>

namespace cp::model {

namespace {

std::vector<ServingEngine> makeEngines()
{
    std::vector<ServingEngine> engines;

    ServingEngine trtllm;
    trtllm.id = "tensorrt-llm-0.12";
    trtllm.name = "TensorRT-LLM 0.12";
    trtllm.source
        = "NVIDIA TensorRT-LLM documentation (https://nvidia.github.io/TensorRT-LLM/): in-flight "
          "batching with chunked context off by default, max_num_tokens 8192, "
          "kv_cache_free_gpu_mem_fraction 0.9 of the memory left after the engine's weights.";
    trtllm.chunkedPrefill = false;
    trtllm.tokensPerStep = 8192;
    trtllm.memoryUtilization = 0.9;
    trtllm.shareOfFreeMemory = true;
    engines.push_back(trtllm);

    ServingEngine vllm;
    vllm.id = "vllm-0.6";
    vllm.name = "vLLM 0.6";
    vllm.source
        = "vLLM documentation and chunked-prefill design (vllm-project/vllm pull request 4580, "
          "https://github.com/vllm-project/vllm/pull/4580): with chunked prefill "
          "max_num_batched_tokens defaults to 512; gpu_memory_utilization 0.9 of the whole GPU "
          "(https://docs.vllm.ai/en/latest/models/performance.html). Chunked prefill as in "
          "Agrawal et al., 'Taming Throughput-Latency Tradeoff in LLM Inference with "
          "Sarathi-Serve', OSDI 2024.";
    vllm.chunkedPrefill = true;
    vllm.tokensPerStep = 512;
    vllm.memoryUtilization = 0.9;
    vllm.shareOfFreeMemory = false;
    engines.push_back(vllm);
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

const ServingEngine &defaultServingEngine()
{
    return servingEngines().back();
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

} // namespace cp::model
