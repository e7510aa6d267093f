// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "model/catalog/catalogitems.h"
#include "model/cluster/collectivecost.h"
#include "model/training/stepoperation.h"
#include "model/training/transformershape.h"

namespace cp::model {

/**
 * Compute format of a weight format: weight-only INT4 (AWQ/GPTQ) and INT8 kernels dequantise to
 * 16-bit and run 16-bit tensor cores unless the GPU has a peak for the format; FP8 runs on FP8
 * tensor cores where the GPU has them.
 */
Precision computePrecision(const GpuSpec &gpu, Precision weights);

/**
 * Efficiency of a weight GEMM of `rows` x n x k on tensor cores computing in `compute` with
 * `weights` stored as they are: the GEMM curve (gemmEfficiency), or, where the weights are stored
 * in fewer bytes than the tensor cores compute in (weight-only INT4; FP8 or INT8 on a GPU without
 * that peak), a mixed-input GEMM's. Those dequantise in registers and are built to stay bound by
 * their weight stream up to batches of 16-32 tokens, near the ideal speed-up of the bytes saved
 * (Frantar et al., "MARLIN: Mixed-Precision Auto-Regressive Parallel Inference on Large Language
 * Models", arXiv:2408.11743, 2024; its README: "near-ideal ~4x speedups up to batchsizes of 16-32
 * tokens"): their compute is the tensor cores' on rows padded to the MMA tile (16 rows: the
 * m16n8k16 shape of the 16-bit mma.sync, NVIDIA PTX ISA), at the large-GEMM fraction for the
 * weight matrix's size. The curve's fall at few rows describes 16-bit kernels streaming 16-bit
 * weights; charged to a 4-bit stream, it would make it as slow as the 16-bit one.
 */
double servingGemmEfficiency(const GpuSpec &gpu, Precision weights, Precision compute, double rows,
                             double n, double k, double rateShare = 1.0);

/** What the serving step model needs to know about one replica. */
struct ServingReplica
{
    TransformerShape shape;
    GpuSpec gpu;
    Precision weightPrecision = Precision::FP16;
    Precision kvPrecision = Precision::FP16;
    int tensorParallel = 1;
    int pipelineStages = 1;
    /** The scale-up link with NCCL's Simple protocol: full bus bandwidth, 8.4 us a call and
     * 3.4 us a step (the scale-out link when TP leaves the node). */
    LinkLevel tensorParallelLink;
    /** The same link with NCCL's low-latency LL protocol: 6.6 us a call and 0.6 us a step, at
     * LL's bus bandwidth (tensorParallelLink's otherwise: no LL figure). Each all-reduce takes
     * the faster of the two, as NCCL's tuner picks the protocol per message size. */
    LinkLevel tensorParallelLowLatencyLink;
    LinkLevel stageLink; ///< scale-out link between pipeline stages
    /** Times the decode-attention blocks read each K/V head in a step (the engine's kernel,
     * servingengine.h): HBM delivers it once, the L2 cache the other reads. */
    double kvReadsPerKvHead = 1.0;
    /** The engine decodes this model with FasterTransformer's masked multi-head attention kernel
     * (runsMaskedMultiheadKernel), whose arithmetic rate bounds it on the GPUs that measured it. */
    bool maskedMultiheadKernel = false;
    /** The engine caches a latent-attention model's latents (ServingEngine::latentKvCache):
     * decode attends them, absorbed, instead of every head's keys and values. */
    bool latentKvCache = false;
    /** Query heads a rank holds for each of its K/V heads (the group, per rank). */
    double queryHeadsPerKvHead = 1.0;
    /** Kernels a layer's attention launches besides its attention kernel (the rotary embedding,
     * the K/V cache write, set-up; ServingEngine), in a prefill and in a decode step. */
    int prefillAttentionSideKernels = 0;
    int decodeAttentionSideKernels = 0;
    /** Share of the GEMM rate the grouped expert GEMMs reach: the GPU's legacy-kernel fraction
     * when the engine runs the previous generation's MoE kernels on it, else 1. */
    double expertGemmRateShare = 1.0;
};

/** The tokens of a generation: a prompt of `inputTokens`, then `outputTokens` generated. */
struct GenerationSpan
{
    double inputTokens = 0;
    double outputTokens = 0;
};

/**
 * One decode step of `tokens` sequences (a micro-batch, one new token each) in the middle of
 * `generation`: each sequence's new token attends the keys a token of the generation attends on
 * average (TransformerShape::decodeAttendedKeys: the mean context I + O / 2 on a full layer,
 * less on a windowed or chunked one), through one pipeline stage of the replica, as named
 * operations: per layer
 * the norms, the QKV, output and MLP GEMMs (each the slower of its FLOPs at the size-dependent
 * GEMM efficiency and reading its weights at achievable HBM bandwidth, plus the GPU's fixed
 * kernel cost), the decode attention streaming every sequence's K/V cache from HBM once while its
 * thread blocks read each KV head `kvReadsPerKvHead` times (once for FlashAttention/FlashInfer/
 * XQA-style GQA kernels; the re-reads come from L2, see kvCacheReadSeconds), the TP all-reduces;
 * then the logits and the sampler on the last stage and the send to the next stage. Times are per
 * stage pass. With `tokensPerSequence` > 1 (a speculative verify step) every sequence feeds that
 * many tokens: the GEMMs get that many rows, the K/V cache is still read once per sequence.
 */
StepOperations decodeStageOperations(const ServingReplica &replica, double tokens,
                                     const GenerationSpan &generation,
                                     double tokensPerSequence = 1.0);

/**
 * One batched prefill of `prompts` prompts of `promptTokens` tokens through one stage: the same
 * operations with M = prompts x promptTokens rows in every GEMM (weights are read once for the
 * whole batch), causal attention over each prompt, and the fixed per-kernel costs that set the
 * latency floor of short prompts. With `priorTokens`, the prompts are chunks of longer ones
 * (chunked prefill) whose first `priorTokens` tokens are already cached: each chunk's queries
 * also attend those, and the attention kernel reads their K/V.
 */
StepOperations prefillStageOperations(const ServingReplica &replica, double prompts,
                                      double promptTokens, double priorTokens = 0);

/**
 * Seconds a decode-attention kernel takes to read `hbmBytes` of K/V cache that its thread blocks
 * read `replica.kvReadsPerKvHead` times: HBM delivers each head once at its achievable bandwidth;
 * the blocks serving one group's query heads are neighbours in the kernel's grid, so they run side
 * by side and take the re-reads from L2, at the GPU's measured L2 bandwidth (GpuSpec::
 * l2ReadBytesPerSecond; HBM's when unmeasured). The masked multi-head attention kernel also
 * works through every element once per query head at the GPU's measured rate for it (GpuSpec::
 * maskedAttentionElementsPerSecond). The slowest of these limits the kernel.
 */
double kvCacheReadSeconds(const ServingReplica &replica, double hbmBytes);

/**
 * Cached K/V elements one token adds to one layer on one rank of `replica`: its K/V heads' keys
 * and values (a rank keeps a copy of one when there are fewer K/V heads than ranks); for latent
 * attention the latent and the rotary key, on every rank, or, where the engine up-projects, every
 * head's key and value, each as wide as a key head.
 */
double cachedKvElementsPerToken(const ServingReplica &replica);
/**
 * Attention FLOPs a new token spends on one cached key of one layer on one rank: a dot product
 * over the query width and a weighted sum over the value width for each query head, or for an
 * absorbed latent cache, over the latent and rotary key and then over the latent.
 */
double decodeAttentionFlopsPerKey(const ServingReplica &replica);

double totalSeconds(const StepOperations &operations);

} // namespace cp::model
