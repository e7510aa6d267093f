// SPDX-License-Identifier: GPL-3.0-or-later
// Parameter and FLOP counts of a decoder-only transformer, shared by the training and inference
// estimators. Counts follow Narayanan et al., SC21 ("Efficient Large-Scale Language Model Training
// on GPU Clusters Using Megatron-LM", appendix: 24·B·s·h² + 4·B·s²·h forward FLOPs per layer for
// a standard MLP of 4h) generalised to grouped-query attention (Ainslie et al. 2023), gated MLPs
// (Shazeer 2020, three weight matrices) and top-k mixture-of-experts layers (Fedus et al. 2021).
// A multiply-add counts two FLOPs.
#pragma once

#include "model/catalog/catalogitems.h"

#include <algorithm>

namespace cp::model {

/**
 * How a local-attention layer limits the keys a query sees: a sliding window of the latest `span`
 * tokens (Mistral, gpt-oss), or the tokens of the query's own `span`-token chunk (Llama 4's
 * chunked attention: positions c·n to c·(n+1) - 1 attend only each other). A span of 0 is
 * global attention: the whole context.
 */
struct LocalAttention
{
    double span = 0;
    bool chunked = false;

    /** A sliding window of `windowTokens` (0: global attention). */
    LocalAttention(double windowTokens = 0)
        : span(windowTokens)
    { }
    static LocalAttention chunks(double chunkTokens)
    {
        LocalAttention local(chunkTokens);
        local.chunked = true;
        return local;
    }
    bool global() const { return span <= 0; }
};

struct TransformerShape
{
    double hidden = 0;
    double heads = 0;
    double kvHeads = 0;
    double headDim = 0;
    double ffn = 0;
    double vocab = 0;
    double layers = 0;
    double experts = 1;
    double topK = 1;
    double sharedExperts = 0; ///< expert MLPs every token passes through (DeepSeek-MoE)
    /** Group-limited routing (ModelSpec::expertGroups): a token's experts lie in at most
     * expertGroupsPerToken of expertGroups groups; 0: anywhere. */
    double expertGroups = 0;
    double expertGroupsPerToken = 0;
    bool gatedMlp = false;
    bool tiedEmbeddings = false;
    /** Encoder attention (ModelSpec::bidirectionalAttention): every query attends every key. */
    bool bidirectionalAttention = false;
    /** Attention and MLP side by side, their outputs summed (ModelSpec::parallelAttention). */
    bool parallelAttention = false;
    /** Dropout on the hidden states (ModelSpec::hiddenDropout > 0): each keeps a 1-byte mask. */
    bool hiddenDropoutMasks = true;
    /** MoE models only: layers whose MLP is dense, and its hidden size (ModelSpec::denseLayers). */
    double denseLayers = 0;
    double denseFfn = 0;
    /** Multi-head latent attention (ModelSpec::kvLoraRank): the latent's rank, 0 for none. */
    double kvLoraRank = 0;
    double qLoraRank = 0; ///< queries through a latent of this rank; 0: projected directly
    double ropeHeadDim = 0; ///< a query/key head's rotary part beside headDim (MLA)
    double valueHeadDim = 0; ///< a value head's width; 0: headDim
    /** What a local layer attends: a sliding window or a chunk (global: no local layer). */
    LocalAttention localAttention;
    double localLayers = 0; ///< layers with local attention; the others attend the whole context
    /** Multi-token prediction blocks trained beside the model (ModelSpec::mtpLayers). */
    double mtpLayers = 0;

    static TransformerShape fromModel(const ModelSpec &model);

    bool latentAttention() const { return kvLoraRank > 0; }
    /** Width of the queries (and of the keys they meet): heads·headDim (h unless the model sets
     * its head dim), with latent attention's rotary part per head added. */
    double queryWidth() const { return heads * (headDim + ropeHeadDim); }
    /** Width of the values the attention weighs, and of the output projection's input. */
    double valueWidth() const { return heads * (valueHeadDim > 0 ? valueHeadDim : headDim); }
    /** The attention's mean width: a key's dot product with a query and a value's weighted sum
     * each cost 2 FLOPs per element, so a query's work per key is 4·attentionWidth (queryWidth
     * for standard attention). */
    double attentionWidth() const { return 0.5 * (queryWidth() + valueWidth()); }
    /** Key and value elements a token gives the attention, per layer: 2·kvHeads·headDim, or
     * latent attention's heads' up-projected keys and values (as training and prefill run it). */
    double kvWidth() const
    {
        return latentAttention() ? queryWidth() + valueWidth() : 2.0 * kvHeads * headDim;
    }
    /** K/V cache elements one token adds to one layer (all its heads): the latent and the
     * rotary key where `latentCache` (an engine that keeps latent attention's latents), else
     * every K/V head's key and value, each as wide as a key head (headDim + ropeHeadDim: an
     * up-projecting engine pads the values to it). */
    double cachedKvElementsPerLayer(bool latentCache) const
    {
        return latentAttention() && latentCache ? kvLoraRank + ropeHeadDim
                                                : 2.0 * kvHeads * (headDim + ropeHeadDim);
    }
    /** Share of those elements one of `tensorParallel` ranks keeps: the whole latent on every
     * rank, else its K/V heads' share (a copy of one when there are fewer heads than ranks). */
    double cachedKvShareOfRank(bool latentCache, double tensorParallel) const
    {
        return latentAttention() && latentCache ? 1.0
                                                : std::max(1.0, kvHeads / tensorParallel) / kvHeads;
    }
    /** Width of the fused QKV projection output: heads·headDim + 2·kvHeads·headDim. For latent
     * attention, the width of one GEMM from the hidden state with all its projections' weights
     * (down to the latents and up from them), the FLOPs and bytes they take. */
    double qkvWidth() const
    {
        return latentAttention() ? latentProjectionParameters() / hidden
                                 : queryWidth() + 2.0 * kvHeads * headDim;
    }
    /** Latent attention's query and key/value projections: h x qLoraRank and qLoraRank x
     * queryWidth (or h x queryWidth when queries are not compressed), h x (kvLoraRank +
     * ropeHeadDim) for the latent and the shared rotary key, kvLoraRank x heads·(headDim +
     * valueHeadDim) up to the keys' non-rotary parts and the values. */
    double latentProjectionParameters() const;
    /** Expert MLPs one token passes through: its top-k plus the shared experts. */
    double expertsPerToken() const { return topK + sharedExperts; }
    /** Weight matrices in one expert's MLP: 3 for gated (SwiGLU), 2 otherwise. */
    double mlpMatrices() const { return gatedMlp ? 3.0 : 2.0; }

    double attentionParametersPerLayer() const;
    double expertParameters() const; ///< one expert's MLP
    /**
     * Share of the layers that route to experts: 1 for an MoE model whose every layer is MoE,
     * less when some are dense (ModelSpec::denseLayers), 0 for a dense model. Per-layer figures
     * are averages over the layers, as for sliding windows.
     */
    double moeLayerShare() const
    {
        return experts > 1 && layers > 0 ? (layers - denseLayers) / layers : 0.0;
    }
    /** An MoE model's dense layers' share (0 for a dense model, whose MLP is its "expert"). */
    double denseMlpLayerShare() const
    {
        return experts > 1 && layers > 0 ? denseLayers / layers : 0.0;
    }
    double denseMlpParameters() const; ///< the MLP of an MoE model's dense layer
    double mlpParametersPerLayer() const; ///< all experts plus the router (layer average)
    /**
     * The MLP parameters expert parallelism splits, in the average layer: an MoE layer's routed
     * experts (weighed by moeLayerShare), or a dense model's whole MLP, its one "expert".
     */
    double routedExpertParametersPerLayer() const
    {
        return (experts > 1 ? moeLayerShare() : 1.0) * experts * expertParameters();
    }
    /**
     * Routed experts of one MoE layer that `tokens` tokens touch, in expectation when routing
     * spreads them evenly: E·(1 - (1 - k/E)^tokens), each token taking k of the E; a dense
     * model's MLP, its one "expert", always.
     */
    double routedExpertsTouched(double tokens) const;
    double parametersPerLayer() const;
    /**
     * One multi-token prediction block (DeepSeek-AI, "DeepSeek-V3 Technical Report", 2024,
     * §2.2; Megatron-Core's MultiTokenPredictionLayer): a transformer layer of the model's last
     * layer's kind (an MoE layer in an MoE model), the projection of the concatenated hidden
     * state and next token's embedding (2h x h) and three norms. It shares the embedding and the
     * output projection. Its time is taken as the average layer's.
     */
    double mtpBlockParameters() const
    {
        const double layer = experts > 1 ? attentionParametersPerLayer()
                + (experts + sharedExperts) * expertParameters() + hidden * experts + 2.0 * hidden
                                         : parametersPerLayer();
        return layer + mtpProjectionParameters() + 3.0 * hidden;
    }
    /** The block's routed experts (a dense model's MLP, its one "expert"), split over EP. */
    double mtpRoutedExpertParameters() const { return experts * expertParameters(); }
    double mtpProjectionParameters() const { return 2.0 * hidden * hidden; }
    double embeddingParameters() const; ///< input embedding plus untied output projection
    /** The model's parameters as its card counts them: without multi-token prediction blocks
     * (DeepSeek-V3's 671 B; its 14 B MTP module apart, mtpBlockParameters). */
    double totalParameters() const;
    /** Parameters one token passes through (top-k experts only), the N of 6·N·D for MoE. */
    double activeParameters() const;
    /** The MLP parameters one token passes through in the average layer. */
    double activeMlpParametersPerLayer() const;
    /**
     * A compute-optimal token budget: 20 tokens per parameter (Hoffmann et al., "Training
     * Compute-Optimal Large Language Models", 2022, Table 3: 1.4 T tokens for 70 B parameters),
     * counting the parameters a token passes through, so that an MoE gets its compute's worth.
     */
    double computeOptimalTrainingTokens() const { return 20.0 * activeParameters(); }

    /** Forward FLOPs of the dense GEMMs of one layer, per token (no attention-score work). */
    double layerGemmFlopsPerToken() const;
    /** Forward FLOPs of attention scores and weighted values per token at context `contextLen`,
     * averaged over the layers (a local layer attends at most its window or chunk). */
    double attentionCoreFlopsPerToken(double contextLen) const;
    /** Share of the layers whose attention is local (0 without a window or chunks). */
    double localLayerShare() const
    {
        return !localAttention.global() && layers > 0 ? localLayers / layers : 0.0;
    }
    /**
     * The tokens of K/V a sequence of `context` tokens keeps, averaged over the layers: all of
     * them on a full layer, at most the span on a local one (cachedTokens), since a local layer
     * evicts what its window or chunk has left. The context a local layer counts in MFU.
     */
    double attendedContext(double context) const;
    /** Mean keys per query of a training pass over `tokens` positions, averaged over the
     * layers: causal (causalKeysPerQuery on each), or every key in reach for an encoder's
     * bidirectional attention. */
    double attendedKeysPerQuery(double tokens) const;
    /**
     * Mean keys a generated token attends over a generation of `outputTokens` after a prompt of
     * `inputTokens`, averaged over the layers: I + O / 2 on a full layer, chunkKeysPerQuery on a
     * local one (a chunked layer's keys fall back at every chunk boundary).
     */
    double decodeAttendedKeys(double inputTokens, double outputTokens) const;
    /** Forward FLOPs of the output (logit) projection per token. */
    double logitFlopsPerToken() const { return 2.0 * hidden * vocab; }
};

/**
 * Keys one layer's query at position `context` attends: all of them, the latest `local.span` of a
 * window, or those of its own chunk before it (context mod span).
 */
double attendedTokens(double context, const LocalAttention &local);
/**
 * The most K/V one layer holds while a sequence grows to `context` tokens: all of them, or at
 * most its span (a window's latest tokens; a chunk's, just before the next chunk starts). Also the
 * longest run of keys its attention kernel meets.
 */
double cachedTokens(double context, const LocalAttention &local);
/**
 * Mean keys per query of one causal pass over `tokens` positions on a layer attending as `local`
 * says: position p attends p keys, min(p, window) in a window, p mod span in chunks. The mean is
 * the integral of that over the pass (the continuous sums; a causal kernel skips the blocks
 * outside the band or the chunk): tokens / 2 while the span covers the pass; window -
 * window² / (2 tokens) beyond it; for chunks, each whole chunk's span / 2 and the last, partial
 * chunk's half length.
 */
double causalKeysPerQuery(double tokens, const LocalAttention &local);
/**
 * The same for `tokens` queries that follow `priorTokens` cached ones (a chunk of a chunked
 * prefill, or the tokens a generation adds after its prompt): query i attends the keys position
 * priorTokens + i has. With no prior tokens it is causalKeysPerQuery; over a prompt's chunks the
 * keys add up to the whole prompt's.
 */
double chunkKeysPerQuery(double priorTokens, double tokens, const LocalAttention &local);

} // namespace cp::model
