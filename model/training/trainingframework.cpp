// SPDX-License-Identifier: GPL-3.0-or-later
#include "model/training/trainingframework.h"

namespace cp::model {

namespace {

constexpr double mebi = 1024.0 * 1024.0;

/**
 * Per-GPU memory the process keeps besides tensors. The CUDA context (driver state and loaded
 * kernel modules) is not counted by torch.cuda.memory_allocated() ("CUDA semantics: memory
 * management", PyTorch documentation, https://pytorch.org/docs/stable/notes/cuda.html); NCCL
 * allocates NCCL_BUFFSIZE (4 MiB by default) per channel and peer for each protocol in every
 * communicator (NCCL environment variables, https://docs.nvidia.com/deeplearning/nccl/user-guide/
 * docs/env.html), and a Megatron job holds TP, PP, DP and CP communicators; the caching allocator
 * leaves freed blocks that cannot be reused for larger tensors: GMLake (Guo et al., ASPLOS 2024,
 * https://arxiv.org/abs/2401.08156) measures fragmentation in LLM training as 15% on average.
 */
constexpr double cudaContextBytes = 512 * mebi;
constexpr double ncclBufferBytes = 1024 * mebi;
constexpr double allocatorFragmentation = 0.15;
/**
 * Compute kernels run 18.9% slower on average while a collective overlaps them (Mahajan et al.,
 * "Characterizing Compute-Communication Overlap in GPU-Accelerated Distributed Deep Learning",
 * 2025, https://arxiv.org/abs/2507.03114, abstract: A100, H100, MI210, MI250); NCCL occupies
 * SMs of its own and moves two to three times its link traffic through HBM.
 */
constexpr double overlapSlowdown = 0.189;

/** An H100 SXM's streaming bandwidth (its catalog entry: 3,350 GB/s x BabelStream's 0.89), against
 * which the kernels below were measured. */
constexpr double h100StreamingBytesPerSecond = 3350e9 * 0.89;

/**
 * The vocabulary-parallel cross-entropy's passes over the [tokens, vocab / TP] logits.
 *
 * Megatron's unfused code (megatron/core/tensor_parallel/cross_entropy.py,
 * https://github.com/NVIDIA/Megatron-LM) works on fp32 copies of the 16-bit logits, pass by pass,
 * bytes per logit: cast (read 2, write 4), max (read 4), subtract the max in place (8), exp in
 * place (8), sum (4), divide by the sum in place (8); backward: scale the softmax by the incoming
 * gradient in place (8) and cast it back to 16 bits (read 4, write 2): 52 B in 8 kernels.
 * Megatron-Core's cross_entropy_loss_fusion (fused_cross_entropy.py, the NeMo 2024 recipes'
 * setting) fuses each step's passes: cast and max (6, the copy read once: 6), subtract, exp and
 * sum (8), divide (8), backward scale (8) and cast (6): 36 B in 5 kernels. Transformer Engine's
 * kernels (transformer_engine/pytorch/triton/cross_entropy.py, before TE 2.18 keeps the gradient
 * in the logits' own 16-bit buffer; https://github.com/NVIDIA/TransformerEngine) never copy the
 * logits: an online-softmax pass reads them (2), a second reads them and writes the gradient in
 * place (4), and the backward scales it by the incoming gradient (4): 10 B in 3 kernels.
 *
 * What each pass reaches is measured, not assumed: Liger-Kernel's Megatron benchmark (benchmark/
 * data/all_benchmark_data_megatron.csv, https://github.com/linkedin/Liger-Kernel/blob/
 * 7097ab9c4f1f17176e1bd493ad400e89312df0c0/benchmark/data/all_benchmark_data_megatron.csv,
 * kernel megatron_cross_entropy, 'backward' mode: a fresh forward and backward each iteration,
 * median) on an H100 80GB HBM3, bf16 logits of 2,048 x 4 tokens x 131,072 = 1.0737e9 logits:
 * Megatron's fused path 17.947 ms, its unfused path 21.251 ms, and Liger's Triton kernel, the
 * same two-pass online softmax with an in-place gradient and the same 10 B, 4.697 ms. At the
 * H100's streaming bandwidth (3,350 GB/s x 0.89 = 2,981.5 GB/s) the bytes above take 12.965,
 * 18.727 and 3.601 ms: the passes reach 0.722, 0.881 and 0.767 of a streaming kernel (launch
 * costs, 20 us at most, are below the figures' precision). The fused path's
 * TorchScript/torch.compile kernels reduce along 131,072-wide rows and fall furthest short. A
 * re-run of the Megatron paths in the same repository (benchmark/data/all_benchmark_data.csv at
 * ead96b618e5c67bddc6a6e9bcb99bfe6b5ab661c, 2026-06-15) gives 18.232 and 21.247 ms, within 1.6%.
 */
constexpr CrossEntropyCost measuredCrossEntropy(const char *operationName, double bytesPerLogit,
                                                double kernels, double measuredMilliseconds)
{
    constexpr double logits = 2048.0 * 4.0 * 131072.0;
    const double streamingSeconds = bytesPerLogit * logits / h100StreamingBytesPerSecond;
    return {operationName, bytesPerLogit, kernels,
            streamingSeconds / (measuredMilliseconds * 1e-3)};
}
/** The value of `choices` whose id is `text`, or none. */
template<typename Choice, std::size_t count>
std::optional<Choice> choiceFromId(const Choice (&choices)[count], const char *(*idOf)(Choice),
                                   const std::string &text)
{
    for (Choice choice : choices)
        if (text == idOf(choice))
            return choice;
    return std::nullopt;
}

/** The ids of `choices`, in their order. */
template<typename Choice, std::size_t count>
std::vector<std::string> choiceIds(const Choice (&choices)[count], const char *(*idOf)(Choice))
{
    std::vector<std::string> ids;
    for (Choice choice : choices)
        ids.emplace_back(idOf(choice));
    return ids;
}

/** Every MoE dispatcher, in the order the ids are listed. */
constexpr MoeDispatcher moeDispatchers[]
    = {MoeDispatcher::AllToAll, MoeDispatcher::DeepEp, MoeDispatcher::HybridEp};
/** Every cross-entropy kernel, in the order the ids are listed. */
constexpr CrossEntropyKernel crossEntropyKernels[] = {
    CrossEntropyKernel::Unfused, CrossEntropyKernel::Native, CrossEntropyKernel::TransformerEngine};
constexpr CrossEntropyCost unfusedCrossEntropy
    = measuredCrossEntropy("cross-entropy loss (Megatron, unfused)", 52, 8, 21.251);
constexpr CrossEntropyCost nativeCrossEntropy
    = measuredCrossEntropy("cross-entropy loss (Megatron, fused)", 36, 5, 17.947);
constexpr CrossEntropyCost transformerEngineCrossEntropy
    = measuredCrossEntropy("cross-entropy loss (Transformer Engine)", 10, 3, 4.697);

/**
 * Megatron-Core's SwiGLU (megatron/core/fusions/fused_bias_swiglu.py, bias_swiglu_impl, which the
 * MLP calls with bias_activation_fusion; its helpers compiled with torch.compile since 2024,
 * megatron/core/jit.py; https://github.com/NVIDIA/Megatron-LM): the step model charges its
 * forward 6 B per output element (reads gate and up, writes the product) and its backward twice
 * that. Liger-Kernel's Megatron SwiGLU benchmark (benchmark/data/all_benchmark_data.csv, kernel
 * megatron_swiglu, provider megatron, https://github.com/linkedin/Liger-Kernel/blob/
 * ead96b618e5c67bddc6a6e9bcb99bfe6b5ab661c/benchmark/data/all_benchmark_data.csv) timed it on an
 * H100 80GB HBM3 over 2,048 x 4 tokens with 32,768 columns (268,435,456 output elements, bf16):
 * forward 0.8585 ms, forward and backward 5.0830 ms (the time grows in proportion to the columns
 * from 8,192 up, so launches do not weigh). Against the H100's streaming bandwidth (3,350 GB/s x
 * 0.89) the forward's 1.611 GB take 0.540 ms and the backward's 3.221 GB 1.080 ms: the kernels
 * reach 0.629 and 0.256 of a streaming kernel. Liger's own SwiGLU kernels in the same harness
 * reach 0.75 and more, so the harness is not what limits them. The pull request that added the
 * benchmark measured against megatron-core 0.16.1 and reports the same ratio, Liger 2.66 times as
 * fast forward and backward at 32,768 columns (linkedin/Liger-Kernel pull request 1326,
 * https://github.com/linkedin/Liger-Kernel/pull/1326).
 */
constexpr double swigluMeasuredElements = 2048.0 * 4.0 * 32768.0;
constexpr double megatronSwigluForwardEfficiency
    = 6.0 * swigluMeasuredElements / h100StreamingBytesPerSecond / 0.8585e-3;
constexpr double megatronSwigluBackwardEfficiency
    = 12.0 * swigluMeasuredElements / h100StreamingBytesPerSecond / ((5.0830 - 0.8585) * 1e-3);

/**
 * Megatron-LM's argument check turns --accumulate-allreduce-grads-in-fp32 on for every --bf16 run
 * ("bfloat16 requires gradient accumulation and all-reduce to be done in fp32",
 * megatron/training/arguments.py, https://github.com/NVIDIA/Megatron-LM; present since the 2021
 * releases, later opt-out with --grad-reduce-in-bf16), so the gradient buffer and its
 * reduce-scatter are fp32. NeMo 2 and Megatron-Bridge's bf16_mixed precision recipes set
 * grad_reduce_in_fp32 as well; Meta reduce-scatters Llama 3's gradients in fp32 (Llama 3 Herd of
 * Models, 2024, section 3.3.4, https://arxiv.org/abs/2407.21783). FP16 runs keep the default off.
 */
constexpr bool megatronBf16GradientsInFp32 = true;

TrainingFramework withReserves(TrainingFramework framework)
{
    framework.bf16GradientsInFp32 = megatronBf16GradientsInFp32;
    framework.cudaContextBytes = cudaContextBytes;
    framework.ncclBufferBytes = ncclBufferBytes;
    framework.allocatorFragmentationFraction = allocatorFragmentation;
    framework.overlapComputeSlowdown = overlapSlowdown;
    return framework;
}

std::vector<TrainingFramework> makeFrameworks()
{
    std::vector<TrainingFramework> result;

    TrainingFramework sc21;
    sc21.id = "megatron-lm-2021";
    sc21.name = "Megatron-LM (2021)";
    sc21.source
        = "Narayanan et al., 'Efficient Large-Scale Language Model Training on GPU Clusters Using "
          "Megatron-LM', SC21 (https://arxiv.org/abs/2104.04473): fused scale-mask-softmax over "
          "the materialised score matrix (no flash attention), tensor-parallel all-reduces on the "
          "critical path, no sequence parallelism, gradients all-reduced after the backward pass.";
    sc21.attention = AttentionKernel::Unfused;
    sc21.sequenceParallel = false;
    sc21.tpCommOverlap = false;
    sc21.dpOverlapFraction = 0.0;
    sc21.overlapParamGather = false;
    sc21.crossEntropy = CrossEntropyKernel::Unfused;
    // Its recomputation is whole layers (selective came with Korthikanti et al. 2022), every
    // data-parallel rank holds the whole optimizer state (the paper compares ZeRO-3 as
    // DeepSpeed's, not its own), and a sequence is never split (context parallelism came with
    // Megatron-Core in 2023): a search under it picks none of them.
    sc21.selectiveRecompute = false;
    sc21.contextParallel = false;
    sc21.largestZeroStage = 0;
    result.push_back(withReserves(sc21));

    TrainingFramework sp22 = sc21;
    sp22.id = "megatron-lm-2022";
    sp22.name = "Megatron-LM (2022, sequence parallel)";
    sp22.source = "Korthikanti et al., 'Reducing Activation Recomputation in Large Transformer "
                  "Models', 2022 (https://arxiv.org/abs/2205.05198): sequence parallelism and "
                  "selective recomputation on the 2021 kernels; no flash attention, no overlap.";
    sp22.sequenceParallel = true;
    sp22.selectiveRecompute = true;
    result.push_back(withReserves(sp22));

    TrainingFramework core;
    core.id = "megatron-core-2024";
    core.name = "Megatron-Core (2024)";
    core.source
        = "Megatron-Core with Transformer Engine as NVIDIA's NeMo H100 recipes configure it "
          "(https://github.com/NVIDIA/Megatron-LM): fused (flash/cuDNN) attention, sequence "
          "parallelism, --tp-comm-overlap (userbuffers; Wang et al., 'Overlap Communication with "
          "Dependent Computation via Decomposition', ASPLOS 2023), --overlap-grad-reduce and "
          "--overlap-param-gather with the distributed optimizer, gradient buckets of "
          "max(40M, 1M x DP) parameters (megatron/core/distributed), and pipeline sends "
          "overlapped with the next chunk in interleaved schedules (--overlap-p2p-communication, "
          "the default there: megatron/training/arguments.py).";
    core.attention = AttentionKernel::Flash;
    core.sequenceParallel = true;
    core.tpCommOverlap = true;
    core.dpOverlapFraction = 1.0;
    core.overlapParamGather = true;
    core.pipelineSendOverlap = true;
    core.gradientBucketParameters = 40e6;
    core.crossEntropy = CrossEntropyKernel::Native;
    core.selectiveRecompute = true;
    core.contextParallel = true;
    core.largestZeroStage = 3;
    core.swigluForwardEfficiency = megatronSwigluForwardEfficiency;
    core.swigluBackwardEfficiency = megatronSwigluBackwardEfficiency;
    result.push_back(withReserves(core));
    return result;
}

} // namespace

CrossEntropyCost crossEntropyCost(CrossEntropyKernel kernel)
{
    switch (kernel) {
    case CrossEntropyKernel::Unfused:
        return unfusedCrossEntropy;
    case CrossEntropyKernel::Native:
        return nativeCrossEntropy;
    case CrossEntropyKernel::TransformerEngine:
        return transformerEngineCrossEntropy;
    }
    return nativeCrossEntropy;
}

const char *crossEntropyKernelId(CrossEntropyKernel kernel)
{
    switch (kernel) {
    case CrossEntropyKernel::Unfused:
        return "unfused";
    case CrossEntropyKernel::Native:
        return "native";
    case CrossEntropyKernel::TransformerEngine:
        return "te";
    }
    return "native";
}

std::optional<CrossEntropyKernel> crossEntropyKernelFromId(const std::string &id)
{
    return choiceFromId(crossEntropyKernels, crossEntropyKernelId, id);
}

std::vector<std::string> crossEntropyKernelIds()
{
    return choiceIds(crossEntropyKernels, crossEntropyKernelId);
}

bool deduplicatesTokens(MoeDispatcher dispatcher)
{
    return dispatcher != MoeDispatcher::AllToAll;
}

const char *moeDispatcherId(MoeDispatcher dispatcher)
{
    switch (dispatcher) {
    case MoeDispatcher::AllToAll:
        return "alltoall";
    case MoeDispatcher::DeepEp:
        return "deepep";
    case MoeDispatcher::HybridEp:
        return "hybridep";
    }
    return "alltoall";
}

std::optional<MoeDispatcher> moeDispatcherFromId(const std::string &id)
{
    return choiceFromId(moeDispatchers, moeDispatcherId, id);
}

std::vector<std::string> moeDispatcherIds()
{
    return choiceIds(moeDispatchers, moeDispatcherId);
}

double gradientBytesPerParameter(const TrainingFramework &framework, Precision precision)
{
    const bool bf16Weights = precision == Precision::BF16 || precision == Precision::FP8;
    return bf16Weights && framework.bf16GradientsInFp32 ? 4.0 : 2.0;
}

const std::vector<TrainingFramework> &trainingFrameworks()
{
    static const std::vector<TrainingFramework> frameworks = makeFrameworks();
    return frameworks;
}

const TrainingFramework *findTrainingFramework(const std::string &id)
{
    for (const TrainingFramework &framework : trainingFrameworks()) {
        if (framework.id == id)
            return &framework;
    }
    return nullptr;
}

const TrainingFramework &defaultTrainingFramework()
{
    return trainingFrameworks().back();
}

std::string trainingFrameworkIds()
{
    std::string text;
    for (const TrainingFramework &framework : trainingFrameworks())
        text += (text.empty() ? "" : ", ") + framework.id;
    return text;
}

std::vector<std::string> trainingFrameworkIdList()
{
    std::vector<std::string> ids;
    for (const TrainingFramework &framework : trainingFrameworks())
        ids.push_back(framework.id);
    return ids;
}

} // namespace cp::model
