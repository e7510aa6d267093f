// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace cp::model {

class JsonFieldReader;

/**
 * A part of a layer that selective recomputation repeats in the backward pass instead of keeping
 * its activations: Megatron-Core's recompute_modules (megatron/core/transformer/
 * transformer_config.py, TransformerConfig.recompute_modules; its default is core_attn alone).
 * Core attention and the dense MLP are checkpointed whole (their inputs kept, their inner
 * activations dropped); the norms, the MoE activation and the latent up-projections use
 * output-discarding checkpoints (their outputs dropped, rebuilt before the backward needs them).
 */
enum class RecomputeModule : unsigned {
    CoreAttention = 1u << 0, ///< "core_attn": the attention kernel (and its CP exchange)
    LayerNorm = 1u << 1, ///< "layernorm": the input and pre-MLP norms
    MoeActivation = 1u << 2, ///< "moe_act": the experts' activation function
    DenseMlp = 1u << 3, ///< "mlp": a dense layer's MLP (not an MoE layer's)
    LatentUpProjection = 1u << 4, ///< "mla_up_proj": latent attention's up-projections and RoPE
};

/** A set of RecomputeModule; the default is Megatron-Core's, core attention alone. */
struct RecomputeModules
{
    unsigned bits = static_cast<unsigned>(RecomputeModule::CoreAttention);
    bool contains(RecomputeModule module) const
    {
        return (bits & static_cast<unsigned>(module)) != 0;
    }
    bool operator==(const RecomputeModules &) const = default;
};

/** Megatron-Core's name of `module` ("core_attn", "layernorm", "moe_act", "mlp",
 * "mla_up_proj"). */
const char *recomputeModuleName(RecomputeModule module);
/** Every module, in Megatron-Core's order of its documentation. */
const std::vector<RecomputeModule> &allRecomputeModules();
/** The modules of `names` (Megatron-Core's names), or the reason they are not a valid set: an
 * unknown or repeated name, or none at all. */
std::optional<RecomputeModules> recomputeModulesFromNames(const std::vector<std::string> &names,
                                                          std::string *error);
/** The names of `modules`, in allRecomputeModules' order. */
std::vector<std::string> recomputeModuleNames(RecomputeModules modules);

/** The optional array of module names at `key` (plans, validation rows), or an InputError at
 * its pointer (or its element's) saying what is wrong. */
std::optional<RecomputeModules> readRecomputeModules(JsonFieldReader &reader, std::string_view key);

} // namespace cp::model
