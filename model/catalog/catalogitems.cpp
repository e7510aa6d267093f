// SPDX-License-Identifier: GPL-3.0-or-later
#include "model/catalog/catalogitems.h"

namespace cp::model {

namespace {
const std::vector<std::pair<Precision, std::string>> &precisionNames()
{
    static const std::vector<std::pair<Precision, std::string>> names = {
        {Precision::FP32, "fp32"}, {Precision::TF32, "tf32"}, {Precision::FP16, "fp16"},
        {Precision::BF16, "bf16"}, {Precision::FP8, "fp8"},   {Precision::INT8, "int8"},
        {Precision::INT4, "int4"},
    };
    return names;
}
} // namespace

std::string precisionName(Precision precision)
{
    for (const auto &[value, name] : precisionNames()) {
        if (value == precision)
            return name;
    }
    return "unknown";
}

std::optional<Precision> precisionFromName(const std::string &name)
{
    for (const auto &[value, candidate] : precisionNames()) {
        if (candidate == name)
            return value;
    }
    return std::nullopt;
}

double bytesPerElement(Precision precision)
{
    switch (precision) {
    case Precision::FP32:
    case Precision::TF32:
        return 4.0;
    case Precision::FP16:
    case Precision::BF16:
        return 2.0;
    case Precision::FP8:
    case Precision::INT8:
        return 1.0;
    case Precision::INT4:
        return 0.5;
    }
    return 2.0;
}

double GpuSpec::peakFlopsPerSecond(Precision precision) const
{
    const auto it = denseFlopsPerSecond.find(precision);
    return it == denseFlopsPerSecond.end() ? 0.0 : it->second;
}

double GpuSpec::legacyKernelAsymptoticShare(Precision precision) const
{
    const double ratio = legacyKernelGemmFraction;
    const double measured = legacyKernelGemmMeasuredDim;
    if (measured <= 0 || ratio >= 1)
        return ratio;
    return ratio * measured / (measured + (1.0 - ratio) * gemmHalfPerformanceDimFor(precision));
}

bool GpuSpec::supports(Precision precision) const
{
    return peakFlopsPerSecond(precision) > 0.0;
}

bool sameNicCard(const NicSpec &builtIn, const NicSpec &wanted)
{
    return builtIn.id == wanted.id
        || (!builtIn.adapter.empty() && builtIn.adapter == wanted.adapter);
}

std::string attentionDescription(const ModelSpec &model)
{
    std::string text;
    if (model.latentAttention())
        text = "latent " + std::to_string(model.kvLoraRank) + "+"
            + std::to_string(model.ropeHeadDim);
    else if (model.kvHeads == 1 && model.heads > 1)
        text = "MQA";
    else if (model.kvHeads < model.heads)
        text = "GQA " + std::to_string(model.kvHeads) + " K/V heads";
    else
        text = "MHA";
    const auto layersOf = [&](int local) {
        return " on " + std::to_string(local) + " of " + std::to_string(model.layers);
    };
    if (model.attentionChunk > 0)
        text += ", chunks " + std::to_string(model.attentionChunk)
            + layersOf(model.localAttentionLayers());
    else if (model.slidingWindow > 0)
        text += ", window " + std::to_string(model.slidingWindow)
            + layersOf(model.localAttentionLayers());
    if (model.parallelAttention)
        text += ", beside the MLP";
    return text;
}

const std::vector<CatalogKind> &allCatalogKinds()
{
    static const std::vector<CatalogKind> kinds = {
        CatalogKind::Gpu,      CatalogKind::Node,    CatalogKind::Nic,
        CatalogKind::Switch,   CatalogKind::Storage, CatalogKind::Rack,
        CatalogKind::Facility, CatalogKind::Model,   CatalogKind::Dataset,
    };
    return kinds;
}

std::string catalogKindKey(CatalogKind kind)
{
    switch (kind) {
    case CatalogKind::Gpu:
        return "gpus";
    case CatalogKind::Node:
        return "nodes";
    case CatalogKind::Nic:
        return "nics";
    case CatalogKind::Switch:
        return "switches";
    case CatalogKind::Storage:
        return "storage";
    case CatalogKind::Rack:
        return "racks";
    case CatalogKind::Facility:
        return "facilities";
    case CatalogKind::Model:
        return "models";
    case CatalogKind::Dataset:
        return "datasets";
    }
    return "unknown";
}

std::optional<CatalogKind> catalogKindFromKey(const std::string &key)
{
    for (CatalogKind kind : allCatalogKinds()) {
        if (catalogKindKey(kind) == key)
            return kind;
    }
    return std::nullopt;
}

std::optional<ModelFieldProblem> expertGroupsProblem(const ModelSpec &model)
{
    const int groups = model.expertGroups, perToken = model.expertGroupsPerToken;
    if (groups == 0 && perToken == 0)
        return std::nullopt;
    if (groups == 0 || perToken == 0)
        return ModelFieldProblem {groups == 0 ? "expert_groups_per_token" : "expert_groups",
                                  "group-limited routing needs both expert_groups and "
                                  "expert_groups_per_token"};
    if (model.experts <= 1)
        return ModelFieldProblem {"expert_groups",
                                  "only a mixture-of-experts model (experts > 1) routes"};
    if (model.experts % groups != 0)
        return ModelFieldProblem {"expert_groups",
                                  "must divide the " + std::to_string(model.experts)
                                      + " experts into equal groups"};
    if (perToken > groups)
        return ModelFieldProblem {"expert_groups_per_token",
                                  "cannot exceed expert_groups (" + std::to_string(groups) + ")"};
    if (1LL * perToken * (model.experts / groups) < model.topK)
        return ModelFieldProblem {"expert_groups_per_token",
                                  "leaves fewer experts than top_k (" + std::to_string(model.topK)
                                      + ") to choose from"};
    return std::nullopt;
}

} // namespace cp::model
