// SPDX-License-Identifier: GPL-3.0-or-later
#include "model/training/recomputemodules.h"

#include "model/core/inputerror.h"
#include "model/core/jsonfieldreader.h"

#include <algorithm>

namespace cp::model {

const char *recomputeModuleName(RecomputeModule module)
{
    switch (module) {
    case RecomputeModule::CoreAttention:
        return "core_attn";
    case RecomputeModule::LayerNorm:
        return "layernorm";
    case RecomputeModule::MoeActivation:
        return "moe_act";
    case RecomputeModule::DenseMlp:
        return "mlp";
    case RecomputeModule::LatentUpProjection:
        return "mla_up_proj";
    }
    return "core_attn";
}

const std::vector<RecomputeModule> &allRecomputeModules()
{
    static const std::vector<RecomputeModule> modules {
        RecomputeModule::CoreAttention, RecomputeModule::MoeActivation, RecomputeModule::LayerNorm,
        RecomputeModule::LatentUpProjection, RecomputeModule::DenseMlp};
    return modules;
}

std::optional<RecomputeModules> recomputeModulesFromNames(const std::vector<std::string> &names,
                                                          std::string *error)
{
    auto fail = [&](const std::string &reason) -> std::optional<RecomputeModules> {
        if (error)
            *error = reason;
        return std::nullopt;
    };
    if (names.empty())
        return fail("name at least one module to recompute (or recompute none)");
    RecomputeModules modules {0};
    for (const std::string &name : names) {
        const auto &all = allRecomputeModules();
        const auto found = std::find_if(all.begin(), all.end(), [&](RecomputeModule module) {
            return name == recomputeModuleName(module);
        });
        if (found == all.end()) {
            std::string known;
            for (RecomputeModule module : all)
                known += (known.empty() ? "" : ", ") + std::string(recomputeModuleName(module));
            return fail("unknown recompute module \"" + name + "\" (known: " + known + ")");
        }
        if (modules.contains(*found))
            return fail("recompute module \"" + name + "\" is named twice");
        modules.bits |= static_cast<unsigned>(*found);
    }
    return modules;
}

std::vector<std::string> recomputeModuleNames(RecomputeModules modules)
{
    std::vector<std::string> names;
    for (RecomputeModule module : allRecomputeModules()) {
        if (modules.contains(module))
            names.emplace_back(recomputeModuleName(module));
    }
    return names;
}

std::optional<RecomputeModules> readRecomputeModules(JsonFieldReader &reader, std::string_view key)
{
    const nlohmann::json *array = reader.optionalArray(key);
    if (!array)
        return std::nullopt;
    // One name more than there are modules is enough to find the repeat or the unknown name a
    // longer array must hold; a hostile array of millions is not copied.
    std::vector<std::string> names;
    for (std::size_t index = 0; index < array->size() && index <= allRecomputeModules().size();
         ++index) {
        const nlohmann::json &item = (*array)[index];
        if (!item.is_string())
            throw InputError(reader.file(), reader.childPointer(key) + "/" + std::to_string(index),
                             "expected a module name, found " + jsonTypeName(item));
        names.push_back(item.get<std::string>());
    }
    std::string error;
    const auto modules = recomputeModulesFromNames(names, &error);
    if (!modules)
        reader.fail(key, error);
    return modules;
}

} // namespace cp::model
