// SPDX-License-Identifier: GPL-3.0-or-later
#include "model/training/transformershape.h"

#include <algorithm>

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
    shape.gatedMlp = model.gatedMlp;
    shape.tiedEmbeddings = model.tiedEmbeddings;
    shape.hiddenDropoutMasks = model.hiddenDropout > 0.0;
    shape.denseLayers = model.experts > 1 ? model.denseLayers : 0;
    shape.denseFfn = model.denseFfn > 0 ? model.denseFfn : model.ffn;
    shape.attentionWindow = model.slidingWindow;
    shape.windowedLayers = model.windowedLayers();
    return shape;
}

double TransformerShape::attentionParametersPerLayer() const
{
    // QKV projection h x (a·d + 2·kv·d) and output projection a·d x h (a·d = h unless the model
    // sets its own head dimension); biases and norms are O(h).
    return hidden * qkvWidth() + queryWidth() * hidden;
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
    return 4.0 * attendedContext(contextLen) * queryWidth();
}

double TransformerShape::attendedContext(double context) const
{
    const double windowed = windowedLayerShare();
    return (1.0 - windowed) * context + windowed * attendedTokens(context, attentionWindow);
}

double TransformerShape::causalAttendedKeys(double tokens) const
{
    const double windowed = windowedLayerShare();
    return (1.0 - windowed) * causalKeysPerQuery(tokens, 0.0)
        + windowed * causalKeysPerQuery(tokens, attentionWindow);
}

double attendedTokens(double context, double window)
{
    return window > 0 ? std::min(context, window) : context;
}

double chunkKeysPerQuery(double priorTokens, double tokens, double window)
{
    if (tokens <= 0)
        return 0.0;
    if (window <= 0 || priorTokens + tokens <= window)
        return priorTokens + 0.5 * tokens;
    if (priorTokens >= window)
        return window;
    // The first window - prior queries still see their whole past, the rest the full window.
    const double growing = window - priorTokens;
    return (growing * (priorTokens + 0.5 * growing) + (tokens - growing) * window) / tokens;
}

double causalKeysPerQuery(double tokens, double window)
{
    if (window <= 0 || tokens <= window)
        return 0.5 * tokens;
    return window - window * window / (2.0 * tokens);
}

} // namespace cp::model
