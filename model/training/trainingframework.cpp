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

/**
 * Megatron's vocabulary-parallel cross-entropy (megatron/core/tensor_parallel/cross_entropy.py,
 * https://github.com/NVIDIA/Megatron-LM) works on fp32 copies of the 16-bit logits, pass by pass.
 * Unfused, bytes per logit: cast (read 2, write 4), max (read 4), subtract the max in place (8),
 * exp in place (8), sum (4), divide by the sum in place (8); backward: scale the softmax by the
 * incoming gradient in place (8) and cast it back to 16 bits (read 4, write 2): 52 B in 8
 * kernels. Megatron-Core's cross_entropy_loss_fusion (fused_cross_entropy.py, the NeMo and
 * Megatron-Bridge recipes' setting) fuses each step's passes: cast and max (6 + 4 read once: 6),
 * subtract, exp and sum (8), divide (8), backward scale (8) and cast (6): 36 B in 5 kernels.
 */
constexpr double unfusedCrossEntropyBytes = 52, unfusedCrossEntropyKernels = 8;
constexpr double fusedCrossEntropyBytes = 36, fusedCrossEntropyKernels = 5;

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
    sc21.crossEntropyBytesPerLogit = unfusedCrossEntropyBytes;
    sc21.crossEntropyKernels = unfusedCrossEntropyKernels;
    result.push_back(withReserves(sc21));

    TrainingFramework sp22 = sc21;
    sp22.id = "megatron-lm-2022";
    sp22.name = "Megatron-LM (2022, sequence parallel)";
    sp22.source = "Korthikanti et al., 'Reducing Activation Recomputation in Large Transformer "
                  "Models', 2022 (https://arxiv.org/abs/2205.05198): sequence parallelism and "
                  "selective recomputation on the 2021 kernels; no flash attention, no overlap.";
    sp22.sequenceParallel = true;
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
          "max(40M, 1M x DP) parameters (megatron/core/distributed).";
    core.attention = AttentionKernel::Flash;
    core.sequenceParallel = true;
    core.tpCommOverlap = true;
    core.dpOverlapFraction = 1.0;
    core.overlapParamGather = true;
    core.gradientBucketParameters = 40e6;
    core.crossEntropyBytesPerLogit = fusedCrossEntropyBytes;
    core.crossEntropyKernels = fusedCrossEntropyKernels;
    result.push_back(withReserves(core));
    return result;
}

} // namespace

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
