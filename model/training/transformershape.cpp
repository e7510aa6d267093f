// SPDX-License-Identifier: GPL-3.0-or-later
#include "model/training/transformershape.h"

#include <algorithm>
#include <cmath>

namespace cp::model {

TransformerShape TransformerShape::fromModel(const ModelSpec &model)
{
    TransformerShape shape;
    shape.hidden = model.hidden;
    shape.heads = model.heads;
    shape.kvHeads = model.kvHeads;
    shape.headDim = model.headDim();
    shape.ffn = model.ffn;
    shape.vocab = model.vocab;
    shape.layers = model.layers;
    shape.experts = model.experts;
    shape.topK = model.topK;
    shape.sharedExperts = model.sharedExperts;
    shape.expertGroups = model.expertGroups;
    shape.expertGroupsPerToken = model.expertGroupsPerToken;
    shape.gatedMlp = model.gatedMlp;
    shape.tiedEmbeddings = model.tiedEmbeddings;
    shape.bidirectionalAttention = model.bidirectionalAttention;
    shape.parallelAttention = model.parallelAttention;
    shape.hiddenDropoutMasks = model.hiddenDropout > 0.0;
    shape.denseLayers = model.experts > 1 ? model.denseLayers : 0;
    shape.denseFfn = model.denseFfn > 0 ? model.denseFfn : model.ffn;
    shape.kvLoraRank = model.kvLoraRank;
    shape.qLoraRank = model.latentAttention() ? model.qLoraRank : 0;
    shape.ropeHeadDim = model.latentAttention() ? model.ropeHeadDim : 0;
    shape.valueHeadDim = model.valueHeadDim;
    if (model.attentionChunk > 0)
        shape.localAttention = LocalAttention::chunks(model.attentionChunk);
    else
        shape.localAttention = LocalAttention(model.slidingWindow);
    shape.localLayers = model.localAttentionLayers();
    shape.mtpLayers = model.mtpLayers;
    return shape;
}

double TransformerShape::attentionParametersPerLayer() const
{
    // QKV projection h x (a·d + 2·kv·d) and output projection a·d x h (a·d = h unless the model
    // sets its own head dimension), or latent attention's projections and its output
    // projection from the values; biases and norms (the latents' too) are O(h).
    return hidden * qkvWidth() + valueWidth() * hidden;
}

double TransformerShape::latentProjectionParameters() const
{
    const double queries
        = qLoraRank > 0 ? hidden * qLoraRank + qLoraRank * queryWidth() : hidden * queryWidth();
    const double latent = hidden * (kvLoraRank + ropeHeadDim);
    const double upToKeysAndValues = kvLoraRank * (heads * headDim + valueWidth());
    return queries + latent + upToKeysAndValues;
}

double TransformerShape::expertParameters() const
{
    return mlpMatrices() * hidden * ffn;
}

double TransformerShape::denseMlpParameters() const
{
    return mlpMatrices() * hidden * denseFfn;
}

double TransformerShape::mlpParametersPerLayer() const
{
    if (experts <= 1)
        return expertParameters();
    const double moeLayer = (experts + sharedExperts) * expertParameters() + hidden * experts;
    return moeLayerShare() * moeLayer + denseMlpLayerShare() * denseMlpParameters();
}

double TransformerShape::parametersPerLayer() const
{
    const double norms = 2.0 * hidden;
    return attentionParametersPerLayer() + mlpParametersPerLayer() + norms;
}

double TransformerShape::embeddingParameters() const
{
    return (tiedEmbeddings ? 1.0 : 2.0) * vocab * hidden;
}

double TransformerShape::routedExpertsTouched(double tokens) const
{
    if (experts <= 1)
        return 1.0;
    return experts * (1.0 - std::pow(1.0 - topK / experts, tokens));
}

double TransformerShape::totalParameters() const
{
    return layers * parametersPerLayer() + embeddingParameters() + hidden /* final norm */;
}

double TransformerShape::activeParameters() const
{
    const double perLayer
        = attentionParametersPerLayer() + activeMlpParametersPerLayer() + 2.0 * hidden;
    return layers * perLayer + embeddingParameters() + hidden;
}

double TransformerShape::activeMlpParametersPerLayer() const
{
    if (experts <= 1)
        return expertsPerToken() * expertParameters();
    return moeLayerShare() * expertsPerToken() * expertParameters()
        + denseMlpLayerShare() * denseMlpParameters();
}

double TransformerShape::layerGemmFlopsPerToken() const
{
    const double router = experts > 1 ? moeLayerShare() * 2.0 * hidden * experts : 0.0;
    return 2.0 * (attentionParametersPerLayer() + activeMlpParametersPerLayer()) + router;
}

double TransformerShape::attentionCoreFlopsPerToken(double contextLen) const
{
    // Q·K^T and softmax·V: 2 matmuls of (1 x d) by (d x context) per head, 2 FLOPs per MAC.
    // Counted over the full context (not halved for causal masking), the convention of Megatron's
    // and PaLM's MFU accounting; a windowed layer's context is its window.
    return 4.0 * attendedContext(contextLen) * attentionWidth();
}

double TransformerShape::attendedContext(double context) const
{
    const double local = localLayerShare();
    return (1.0 - local) * context + local * cachedTokens(context, localAttention);
}

double TransformerShape::attendedKeysPerQuery(double tokens) const
{
    if (bidirectionalAttention)
        return attendedContext(tokens); // every key, or a windowed layer's window
    const double local = localLayerShare();
    return (1.0 - local) * causalKeysPerQuery(tokens, {})
        + local * causalKeysPerQuery(tokens, localAttention);
}

double TransformerShape::decodeAttendedKeys(double inputTokens, double outputTokens) const
{
    const double local = localLayerShare();
    return (1.0 - local) * chunkKeysPerQuery(inputTokens, outputTokens, {})
        + local * chunkKeysPerQuery(inputTokens, outputTokens, localAttention);
}

namespace {

/** Keys attended by all positions 0..x of one layer, integrated: the area under its keys curve.
 */
double cumulativeKeys(double x, const LocalAttention &local)
{
    const double span = local.span;
    if (local.global() || x <= span)
        return 0.5 * x * x;
    if (!local.chunked)
        return 0.5 * span * span + span * (x - span);
    const double wholeChunks = std::floor(x / span);
    const double partial = x - wholeChunks * span;
    return wholeChunks * 0.5 * span * span + 0.5 * partial * partial;
}

} // namespace

double attendedTokens(double context, const LocalAttention &local)
{
    if (local.global())
        return context;
    return local.chunked ? std::fmod(context, local.span) : std::min(context, local.span);
}

double cachedTokens(double context, const LocalAttention &local)
{
    return local.global() ? context : std::min(context, local.span);
}

double chunkKeysPerQuery(double priorTokens, double tokens, const LocalAttention &local)
{
    if (tokens <= 0)
        return 0.0;
    return (cumulativeKeys(priorTokens + tokens, local) - cumulativeKeys(priorTokens, local))
        / tokens;
}

double causalKeysPerQuery(double tokens, const LocalAttention &local)
{
    return chunkKeysPerQuery(0.0, tokens, local);
}

} // namespace cp::model
