// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "model/catalog/catalogitems.h"

#include <optional>
#include <string>
#include <vector>

namespace cp::model {

/** Flash attention never materialises the s x s score matrix; the unfused kernels of 2021 did. */
enum class AttentionKernel { Flash, Unfused };

/**
 * Which vocabulary-parallel cross-entropy the last stage runs: Megatron's pass-by-pass fp32 code
 * (cross_entropy_loss_fusion off), its fused version (on, cross_entropy_fusion_impl "native"), or
 * Transformer Engine's two-pass online-softmax kernels (cross_entropy_fusion_impl "te", what
 * NVIDIA's Megatron-Bridge benchmark runs set).
 */
enum class CrossEntropyKernel { Unfused, Native, TransformerEngine };

/** What one cross-entropy implementation costs per logit of the [tokens, vocab / TP] logits,
 * forward and backward together. */
struct CrossEntropyCost
{
    const char *operationName = ""; ///< "cross-entropy loss (Transformer Engine)"
    double bytesPerLogit = 0; ///< HBM traffic of its passes
    double kernels = 0; ///< per microbatch
    /** Its passes' bandwidth, as a share of what a streaming kernel reaches on the same GPU
     * (measured on H100). */
    double streamingEfficiency = 1;
};

/** The traffic, kernels and measured bandwidth of `kernel`, with their sources. */
CrossEntropyCost crossEntropyCost(CrossEntropyKernel kernel);
/** "unfused", "native", "te": the plan file's and the command line's words. */
const char *crossEntropyKernelId(CrossEntropyKernel kernel);
/** The kernel a word names, or none. */
std::optional<CrossEntropyKernel> crossEntropyKernelFromId(const std::string &id);
/** The words, for choice() readers. */
std::vector<std::string> crossEntropyKernelIds();

/**
 * How an MoE layer sends its tokens to the experts' GPUs and back. Megatron-Core's all-to-all
 * dispatcher sends every routed copy. Its flex dispatcher sends a token once to each GPU that holds
 * one of its experts and, across nodes, once through the NIC to each such node, where it is
 * forwarded over NVLink: with DeepSeek's DeepEP kernels, or with NVIDIA's HybridEP kernels in the
 * same library, which move the same tokens with fewer SMs (Megatron-Core MoE README,
 * "FlexDispatcher with DeepEP backend" / "with HybridEP backend"; --moe-flex-dispatcher-backend
 * deepep|hybridep).
 */
enum class MoeDispatcher { AllToAll, DeepEp, HybridEp };

/** Whether `dispatcher` sends a token once per destination GPU and node (the flex dispatcher). */
bool deduplicatesTokens(MoeDispatcher dispatcher);
/** "alltoall", "deepep", "hybridep": the plan file's and the command line's words. */
const char *moeDispatcherId(MoeDispatcher dispatcher);
/** The dispatcher a word names, or none. */
std::optional<MoeDispatcher> moeDispatcherFromId(const std::string &id);
/** The words, for choice() readers. */
std::vector<std::string> moeDispatcherIds();

/**
 * The software a training run uses, as far as it changes the step time and the memory: which
 * attention kernel, whether activations are sequence-parallel, which collectives overlap which
 * compute, and what the process keeps for itself on every GPU. A published run is reproduced
 * with the profile of the software it used; new plans default to the newest profile.
 */
struct TrainingFramework
{
    std::string id; ///< "megatron-core-2024"
    std::string name; ///< "Megatron-Core (2024)"
    std::string source; ///< where each setting comes from
    AttentionKernel attention = AttentionKernel::Flash;
    bool sequenceParallel = true;
    /** Features the release had, which the layout search may pick (a layout the user fixes is
     * estimated as given): selective recomputation (Korthikanti et al. 2022), context
     * parallelism (Megatron-Core, 2023), and the largest ZeRO stage (0: optimizer states
     * replicated on every data-parallel rank, 1: the distributed optimizer, 3: FSDP). */
    bool selectiveRecompute = true;
    bool contextParallel = true;
    int largestZeroStage = 3;
    /** Tensor-parallel all-gather/reduce-scatter split into chunks pipelined with the GEMM
     * that consumes or produces them (Transformer Engine userbuffers). Needs SP. */
    bool tpCommOverlap = false;
    /** With an interleaved pipeline schedule, a chunk's send and receive run while the next
     * chunk computes (Megatron's --overlap-p2p-communication). */
    bool pipelineSendOverlap = false;
    /** Share of the last microbatch's backward pass that hides the gradient reduction: 0 when
     * the reduction runs after the backward pass, 1 when buckets are reduced as they fill. */
    double dpOverlapFraction = 0.0;
    /** The distributed optimizer's parameter all-gather runs behind the next forward pass. */
    bool overlapParamGather = false;
    /** MoE dispatch and combine run behind another microbatch's computation (Megatron-Core's
     * --overlap-moe-expert-parallel-comm, after 2025; a recipe setting: off in every profile). */
    bool moeCommOverlap = false;
    /** How MoE dispatch and combine send tokens (a recipe setting: the all-to-all dispatcher in
     * every profile). */
    MoeDispatcher moeDispatcher = MoeDispatcher::AllToAll;
    /** The vocabulary-parallel cross-entropy's implementation (a recipe setting). */
    CrossEntropyKernel crossEntropy = CrossEntropyKernel::Native;
    /** The gated dense MLP's SwiGLU kernels, forward and backward, each as a share of what a
     * streaming kernel reaches on the same GPU (measured on H100); 1 where none is measured. */
    double swigluForwardEfficiency = 1.0;
    double swigluBackwardEfficiency = 1.0;
    /** Parameters per gradient bucket; the last bucket's reduction is never hidden. */
    double gradientBucketParameters = 40e6;
    /** Compute slows while a collective runs beside it (NCCL's SMs, HBM traffic): the extra
     * time, as a share of the overlapped time. */
    double overlapComputeSlowdown = 0;
    /** BF16 (and FP8-on-BF16) runs accumulate gradients and reduce them over data-parallel
     * ranks in fp32; FP16 runs keep them in 16 bits. */
    bool bf16GradientsInFp32 = true;
    /** CUDA context and the framework's own kernels' modules, per GPU. */
    double cudaContextBytes = 0;
    /** NCCL communicator buffers, per GPU. */
    double ncclBufferBytes = 0;
    /** Caching-allocator fragmentation, as a share of the activation memory. */
    double allocatorFragmentationFraction = 0;
};

/** Bytes of one gradient element as `framework` accumulates it and the data-parallel reduction
 * sends it, for weights trained in `precision`: 4 (fp32) or 2. */
double gradientBytesPerParameter(const TrainingFramework &framework, Precision precision);

/** The profiles ClusterPlanner knows, oldest first. */
const std::vector<TrainingFramework> &trainingFrameworks();
/** The profile with this id, or null. */
const TrainingFramework *findTrainingFramework(const std::string &id);
/** The profile new plans and the CLI use when none is named: the newest. */
const TrainingFramework &defaultTrainingFramework();
/** "megatron-lm-2021, megatron-lm-2022, megatron-core-2024", for usage texts and errors. */
std::string trainingFrameworkIds();
/** The ids as a list, for choice() readers. */
std::vector<std::string> trainingFrameworkIdList();

} // namespace cp::model
