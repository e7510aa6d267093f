// SPDX-License-Identifier: GPL-3.0-or-later
#include "modelarguments.h"

#include "commands.h"

#include "model/inference/inferencesetup.h"

#include <algorithm>

namespace cp::cli {

std::vector<OptionSpec> modelShapeOptions()
{
    return {
        {"model", true, "model id (catalog list models), or give the shape below"},
        {"layers", true, "layers of a custom model"},
        {"hidden", true, "hidden size"},
        {"heads", true, "attention heads"},
        {"kv-heads", true, "key/value heads (default: heads)"},
        {"head-dim", true, "attention head dimension (default: hidden / heads)"},
        {"ffn", true, "MLP hidden size (default: 4 x hidden)"},
        {"vocab", true, "vocabulary size"},
        {"experts", true, "experts per MoE layer (default 1: dense)"},
        {"top-k", true, "experts per token"},
        {"shared-experts", true, "MoE experts every token passes (default 0)"},
        {"gated-mlp", false, "custom model uses a gated (SwiGLU) MLP"},
        {"parallel-attention", false,
         "the custom model's attention and MLP read the same input side by side and their "
         "outputs are summed (GPT-J, Falcon): one tensor-parallel reduction a layer, in serving "
         "and in training"},
        {"hidden-dropout", true,
         "the custom model's dropout probability on hidden states in training (default 0.1, "
         "Megatron's; 0, as Llama trains, keeps no dropout masks)"},
        {"sliding-window", true,
         "the custom model's attention window in tokens: a windowed layer attends, and caches "
         "K/V for, at most this many of the latest tokens (Mistral 7B: 4096; gpt-oss: 128)"},
        {"windowed-layers", true,
         "how many of the custom model's layers use --sliding-window (default: all; gpt-oss "
         "alternates, 18 of 36)"},
        {"attention-chunk", true,
         "the custom model's attention chunk in tokens: a chunked layer's query attends, and "
         "caches K/V for, only the tokens of its own chunk (Llama 4: 8192)"},
        {"chunked-layers", true,
         "how many of the custom model's layers use --attention-chunk (default: all; Llama 4 "
         "chunks three of every four, 36 of 48)"},
        {"kv-lora-rank", true,
         "multi-head latent attention: the rank of the custom model's K/V latent (DeepSeek-V3: "
         "512); --head-dim is then a query/key head's non-rotary part"},
        {"q-lora-rank", true,
         "latent attention's query latent rank (DeepSeek-V3: 1536; default: "
         "queries projected directly)"},
        {"rope-head-dim", true,
         "latent attention's rotary part of a query/key head, shared by the heads' keys "
         "(DeepSeek-V3: 64)"},
        {"v-head-dim", true, "a value head's width (DeepSeek-V3: 128; default: --head-dim)"},
        {"dense-layers", true,
         "layers of the custom MoE model whose MLP is dense (DeepSeek-V3: the first 3; Llama 4 "
         "Maverick: every other one, 24)"},
        {"dense-ffn", true, "the MLP size of those dense layers (default: --ffn)"},
        {"expert-groups", true,
         "group-limited routing: the custom MoE model's experts in this many equal groups "
         "(DeepSeek-V3: 8, its n_group)"},
        {"expert-groups-per-token", true,
         "how many groups a token's experts may come from (DeepSeek-V3: 4, its topk_group)"},
        {"max-seq-len", true,
         "the custom model's context length in tokens (serving engines such as vLLM chunk "
         "prefills for long-context models; default: as long as the workload needs)"},
    };
}

namespace {

/** Group-limited routing's rules, as the catalog reader applies them, named by option. */
void checkExpertGroups(const model::ModelSpec &spec)
{
    if (const auto problem = model::expertGroupsProblem(spec)) {
        std::string option = "--" + problem->field;
        std::replace(option.begin(), option.end(), '_', '-');
        throw UsageError(option + ": " + problem->reason);
    }
}

} // namespace

model::ModelSpec modelFromArguments(const ParsedArguments &a, const model::Catalog &catalog)
{
    if (auto id = a.value("model")) {
        for (const char *shape : {"layers",
                                  "hidden",
                                  "heads",
                                  "kv-heads",
                                  "ffn",
                                  "vocab",
                                  "experts",
                                  "top-k",
                                  "shared-experts",
                                  "head-dim",
                                  "max-seq-len",
                                  "hidden-dropout",
                                  "sliding-window",
                                  "windowed-layers",
                                  "attention-chunk",
                                  "chunked-layers",
                                  "kv-lora-rank",
                                  "q-lora-rank",
                                  "rope-head-dim",
                                  "v-head-dim",
                                  "dense-layers",
                                  "dense-ffn",
                                  "expert-groups",
                                  "expert-groups-per-token",
                                  "gated-mlp",
                                  "parallel-attention"}) {
            if (a.has(shape))
                throw UsageError(std::string("give either --model or the model shape (--") + shape
                                 + "), not both");
        }
        return catalog.llm(*id);
    }
    if (!a.has("layers"))
        throw UsageError(
            "missing required option '--model' (or --layers --hidden --heads --vocab)");
    model::ModelSpec spec;
    spec.id = "custom";
    spec.name = "custom model";
    spec.layers = *a.integer("layers", 1, 100000);
    spec.hidden = a.integer("hidden", 1, 1 << 20).value_or(0);
    spec.heads = a.integer("heads", 1, 1 << 16).value_or(0);
    if (!spec.hidden || !spec.heads || !a.has("vocab"))
        throw UsageError("a custom model needs --layers, --hidden, --heads and --vocab");
    spec.vocab = *a.integer("vocab", 1, 1 << 24);
    spec.kvHeads = a.integer("kv-heads", 1, 1 << 16).value_or(spec.heads);
    spec.ffn = a.integer("ffn", 1, 1 << 24).value_or(4 * spec.hidden);
    spec.experts = a.integer("experts", 1, 4096).value_or(1);
    spec.topK = a.integer("top-k", 1, 4096).value_or(spec.experts > 1 ? 2 : 1);
    spec.sharedExperts = a.integer("shared-experts", 0, 4096).value_or(0);
    spec.explicitHeadDim = a.integer("head-dim", 1, 1 << 16).value_or(0);
    spec.gatedMlp = a.has("gated-mlp");
    spec.parallelAttention = a.has("parallel-attention");
    spec.maxSeqLen = a.integer("max-seq-len", 1, 1 << 24).value_or(0);
    spec.hiddenDropout = a.number("hidden-dropout", 0.0, 0.9).value_or(spec.hiddenDropout);
    spec.slidingWindow = a.integer("sliding-window", 1, 1 << 24).value_or(0);
    spec.slidingWindowLayers = a.integer("windowed-layers", 1, spec.layers).value_or(0);
    if (spec.slidingWindowLayers > 0 && spec.slidingWindow == 0)
        throw UsageError("--windowed-layers needs --sliding-window");
    spec.attentionChunk = a.integer("attention-chunk", 1, 1 << 24).value_or(0);
    spec.chunkedLayers = a.integer("chunked-layers", 1, spec.layers).value_or(0);
    if (spec.chunkedLayers > 0 && spec.attentionChunk == 0)
        throw UsageError("--chunked-layers needs --attention-chunk");
    if (spec.attentionChunk > 0 && spec.slidingWindow > 0)
        throw UsageError("give --sliding-window or --attention-chunk, not both");
    spec.kvLoraRank = a.integer("kv-lora-rank", 1, 1 << 16).value_or(0);
    spec.qLoraRank = a.integer("q-lora-rank", 1, 1 << 16).value_or(0);
    spec.ropeHeadDim = a.integer("rope-head-dim", 1, 1 << 16).value_or(0);
    spec.valueHeadDim = a.integer("v-head-dim", 1, 1 << 16).value_or(0);
    if (spec.kvLoraRank == 0 && (spec.qLoraRank || spec.ropeHeadDim || spec.valueHeadDim))
        throw UsageError("--q-lora-rank, --rope-head-dim and --v-head-dim belong to latent "
                         "attention: give --kv-lora-rank");
    if (spec.kvLoraRank > 0 && spec.kvHeads != spec.heads)
        throw UsageError("latent attention up-projects every head's key and value: leave "
                         "--kv-heads out");
    spec.denseLayers = a.integer("dense-layers", 0, spec.layers - 1).value_or(0);
    spec.denseFfn = a.integer("dense-ffn", 1, 1 << 24).value_or(0);
    if ((spec.denseLayers > 0 || spec.denseFfn > 0) && spec.experts <= 1)
        throw UsageError("--dense-layers and --dense-ffn need --experts above 1");
    spec.expertGroups = a.integer("expert-groups", 1, 4096).value_or(0);
    spec.expertGroupsPerToken = a.integer("expert-groups-per-token", 1, 4096).value_or(0);
    checkExpertGroups(spec);
    if (spec.explicitHeadDim == 0 && spec.hidden % spec.heads != 0)
        throw UsageError("--hidden must be divisible by --heads (or give --head-dim)");
    if (spec.sharedExperts > 0 && spec.experts == 1)
        throw UsageError("--shared-experts needs --experts above 1");
    if (spec.heads % spec.kvHeads != 0)
        throw UsageError("--heads must be divisible by --kv-heads");
    if (spec.topK > spec.experts)
        throw UsageError("--top-k cannot exceed --experts");
    return spec;
}

std::string nodeIdFromArguments(const ParsedArguments &a, const model::Catalog &catalog)
{
    std::string nodeId = a.value("node").value_or("");
    const std::string gpuId = a.value("gpu").value_or("");
    if (nodeId.empty()) {
        if (gpuId.empty())
            throw UsageError("missing required option '--gpu' (or --node)");
        catalog.gpu(gpuId); // throws for an unknown id
        nodeId = model::nodeForGpu(catalog, gpuId);
        if (nodeId.empty())
            throw UsageError("no catalog node carries GPU '" + gpuId
                             + "'; pass --node ID or import a node type");
    } else if (!gpuId.empty() && catalog.node(nodeId).gpuId != gpuId) {
        throw UsageError("node '" + nodeId + "' carries " + catalog.node(nodeId).gpuId + ", not "
                         + gpuId);
    }
    return nodeId;
}

} // namespace cp::cli
