// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "model/catalog/catalogitems.h"
#include "model/inference/servingengine.h"
#include "model/training/stepoperation.h"

#include <optional>
#include <string>
#include <vector>

namespace cp::model {

struct InferenceJob
{
    ModelSpec model;
    Precision weightPrecision = Precision::FP16;
    Precision kvPrecision = Precision::FP16;
    int inputTokens = 1024;
    int outputTokens = 256;
    int gpusPerReplica = 1; ///< tensor parallel x pipeline stages
    /**
     * Pipeline stages across nodes, each a tensor-parallel group of gpusPerReplica / stages GPUs in
     * one scale-up domain. Unset: 1 when gpusPerReplica fits the scale-up domain, otherwise
     * gpusPerReplica / domain (e.g. 16 GPUs of 8-GPU HGX servers: TP 8 x PP 2).
     */
    std::optional<int> pipelineStages;
    std::optional<int> batch; ///< fixed concurrent sequences per replica
    /**
     * The most sequences the engine runs in one batch (vLLM max_num_seqs, TensorRT-LLM
     * max_batch_size); unset: the engine profile's default (ServingEngine::defaultMaxBatch).
     * InferenceJob::noBatchCap lifts the cap, leaving memory to decide.
     */
    std::optional<int> maxBatch;
    static constexpr int noBatchCap = 1 << 30;
    std::optional<double>
        ratePerSecond; ///< requests per second to serve (with SLOs: size replicas)
    /** A fixed fleet serving ratePerSecond: the latencies the offered load gives it, instead of
     * the fleet the targets need. */
    std::optional<int> replicas;
    /**
     * An offline job of this many requests, all queued at once (batch inference; trtllm-bench
     * and vLLM's offline benchmarks run this way). The replicas (InferenceJob::replicas, else one)
     * share them evenly and each runs them in waves of its batch: requests of one length finish
     * together, so the last wave runs the remainder, a smaller batch that uses the GPU less
     * well. Not with a request rate. OfflineJobEstimate holds the result.
     */
    std::optional<long long> offlineRequests;
    static constexpr long long maxOfflineRequests = 1'000'000'000'000LL;
    std::optional<double> ttftP95Seconds;
    std::optional<double> tpotP95Seconds;
    /** CUDA context, runtime and allocator slack kept free on each GPU (engines that size
     * the K/V cache from the free memory). */
    double reservedBytesPerGpu = 2.0e9;
    /** The serving software (servingengine.h); the newest profile unless the workload names one. */
    ServingEngine engine = defaultServingEngine();
    SpeculativeDecoding speculative;
    /** The draft model when speculative decoding uses one (resolved from the catalog). */
    std::optional<ModelSpec> draftModel;
};

/** What a GPU-hour costs: capital amortised over a lifetime, plus energy at the facility. */
struct ServingCostModel
{
    double capitalUsdPerGpu
        = 0; ///< GPU plus its share of the server (of the whole plan's bill in a plan)
    double lifetimeYears = 4.0; ///< straight-line amortisation (a common 4-year depreciation)
    double wattsPerGpu
        = 0; ///< GPU at TDP plus its share of the server (of the plan's IT power in a plan)
    double pue = 1.0;
    double electricityUsdPerKwh = 0;
    std::optional<double> hourlyUsdPerGpu; ///< a cloud price replaces capital + energy when given

    double usdPerGpuHour() const;
};

/** The makespan of an offline job (InferenceJob::offlineRequests) on the estimate's replicas. */
struct OfflineJobEstimate
{
    long long requests = 0; ///< the whole job
    long long requestsPerReplica = 0; ///< the busiest replica's share (ceil of an even split)
    long long fullWaves = 0; ///< waves of the estimate's batch on the busiest replica
    long long lastWaveBatch = 0; ///< sequences of the smaller last wave; 0 when none
    double seconds = 0; ///< until the busiest replica finishes
    double outputTokensPerSecondPerGpu = 0; ///< over the whole job, all GPUs
    double usd = 0; ///< the fleet's cost for the job's duration
    double joules = 0; ///< the fleet's energy for the job's duration, facility overhead included
};

/** The most a fixed fleet serves within its latency limits (fleetCapacityWithinLimits). */
struct CapacityWithinLimits
{
    double requestsPerSecond = 0; ///< the whole fleet
    double outputTokensPerSecond = 0; ///< the whole fleet
    /** What a little more load breaks: "TTFT p99", "TPOT p95", or "throughput" when the fleet
     * keeps its limits up to the most its largest batch serves. */
    std::string limitedBy;
};

struct InferenceEstimate
{
    bool fits = true; ///< weights, KV cache and workspace fit in GPU memory
    bool meetsTargets = true; ///< the latency targets can be met at some batch
    std::string reason;
    int gpusPerReplica = 1; ///< tensorParallel x pipelineStages
    int tensorParallel = 1;
    int pipelineStages = 1;
    int batch = 1;
    int maxBatch = 0; ///< the largest batch that runs: the smaller of the two limits below
    int memoryBatchLimit = 0; ///< sequences whose K/V cache fits beside the weights
    int engineBatchLimit = 0; ///< the engine's cap on sequences per batch; 0: none
    /** The engine's cap, not memory, decides the largest batch. */
    bool engineHoldsBatch() const
    {
        return engineBatchLimit > 0 && engineBatchLimit < memoryBatchLimit;
    }
    double weightsBytesPerGpu = 0;
    double kvBytesPerToken = 0; ///< whole model, all layers (per GPU: divide by the KV split)
    /** One sequence at its full context, whole model: a windowed layer keeps only its window. */
    double kvBytesPerSequence = 0;
    double kvBytesPerGpu = 0; ///< at the chosen batch and full context
    double workspaceBytesPerGpu = 0; ///< activations of one step
    /** What the engine keeps beside weights, K/V and activations (engineReserveBytes). */
    double reserveBytesPerGpu = 0;
    double memoryBytesPerGpu = 0; ///< weights + KV + workspace + reserved
    double memoryCapacityBytes = 0;
    double prefillSeconds = 0; ///< one request's prompt
    double batchedPrefillSeconds = 0; ///< the batch's prompts in one batched prefill
    StepOperations prefillOperations; ///< one prompt through one stage (all its chunks)
    /** On an engine that chunks prompts (chunked prefill): the prompt's chunks and the tokens of
     * all but its last, and the running decodes its steps also carry (0 at batch 1). Without
     * chunking: 0, 0 and 0. */
    long long prefillChunks = 0;
    long long prefillChunkTokens = 0;
    double prefillDecodeSeconds = 0;
    StepOperations decodeOperations; ///< one decode step of a micro-batch through one stage
    double decodeStepSeconds = 0; ///< one step for the whole batch (a verify round if speculative)
    double tokensPerDecodeStep = 1; ///< per sequence: 1, or the expected accepted tokens + 1
    double draftSeconds = 0; ///< the draft model's share of a speculative round
    /** The draft model's prefill of one prompt, part of prefillSeconds (its own K/V cache must
     * hold the prompt before it proposes a token). */
    double draftPrefillSeconds = 0;
    double decodeMemorySeconds = 0; ///< roofline terms of one decode step
    /** One decode step's K/V cache: streamed once from HBM, and as the engine's attention kernel
     * reads it (re-reads from L2, the masked kernel's per-query-head work); equal when the
     * kernel reads each head once. */
    double decodeKvStreamSeconds = 0;
    double decodeKvKernelSeconds = 0;
    bool decodeMaskedMultiheadKernel = false; ///< the engine decodes with the masked kernel
    double decodeComputeSeconds = 0;
    /** The step's weight GEMMs alone: at their size's efficiency, at the tensor cores'
     * large-GEMM rate, and their weights streamed from HBM. GEMMs slower than their streaming
     * though the tensor cores would beat it are too small to stream their weights efficiently,
     * not short of tensor throughput. */
    double decodeGemmSeconds = 0;
    double decodeGemmTensorSeconds = 0;
    double decodeWeightStreamSeconds = 0;
    bool decodeGemmsTooSmall() const
    {
        return decodeGemmSeconds > decodeWeightStreamSeconds
            && decodeGemmTensorSeconds < decodeWeightStreamSeconds;
    }
    double decodeCommSeconds = 0;
    /** The floor no engine beats (ServingFloor): one prompt's prefill, and one micro-batch's
     * decode step through the whole model, which also reads its sequences' K/V cache once at
     * the datasheet bandwidth; the estimate's prefill and step are never below. */
    double prefillFloorSeconds = 0;
    double decodeFloorSeconds = 0;
    double ttftSeconds = 0; ///< p95 when a rate is given, else unloaded
    double ttftP50Seconds = 0; ///< median under the rate (Erlang C), else unloaded
    double ttftP99Seconds = 0;
    double tpotSeconds = 0;
    /** Under an offered load: a step with the 95th percentile of sequences in flight (the
     * occupancy is Poisson; poissonQuantile), or at the whole batch where the fleet is sized
     * by batch slots (Erlang C); 0 when not under an offered load. */
    double tpotP95Seconds = 0;
    double tpotP99Seconds = 0; ///< the same at the 99th percentile
    double endToEndSeconds = 0; ///< p95: TTFT p95 + output tokens x TPOT
    double endToEndP50Seconds() const { return endToEndSeconds - ttftSeconds + ttftP50Seconds; }
    double endToEndP99Seconds() const { return endToEndSeconds - ttftSeconds + ttftP99Seconds; }
    double requestsPerSecondPerReplica = 0; ///< capacity at this batch
    double outputTokensPerSecondPerReplica = 0;
    double outputTokensPerSecondPerGpu = 0;
    double utilisation = 0; ///< offered load / capacity
    /** The job's own replica count at an offered rate (InferenceJob::replicas), not a sized one. */
    bool fixedFleet = false;
    /** Under an offered load: sequences a replica runs at once on average (Little's law). */
    double inFlightSequences = 0;
    /** 0 where no fleet serves the load as asked: a replica cannot hold the workload (!fits),
     * or no batch meets the targets; the power and cost figures are then 0 and not shown. */
    int replicas = 1;
    bool hasFleet() const { return replicas > 0; }
    /** A fixed fleet offered more than it serves: its queue grows without bound, so it has no
     * TTFT, and it is priced for the load it does serve. */
    bool overloaded() const { return fixedFleet && utilisation >= 1.0; }
    /** GPUs of the whole fleet, in 64 bits (2^20 replicas of 2^16 GPUs overflow an int). */
    long long fleetGpus() const { return 1LL * replicas * gpusPerReplica; }
    double powerWatts = 0; ///< all replicas
    double usdPerHour = 0; ///< all replicas
    /** The whole servers the fleet's GPUs fill: servers, and GB200 NVL72 racks, are bought
     * whole, so 28 H100 take 4 DGX H100 (32 GPUs, 4 spare) and one GB200 GPU a rack of 72. 0
     * without a fleet. */
    long long servers = 0;
    int gpusPerServer = 1;
    /** Those servers' cost an hour, every GPU in them counted: what an owner pays for the fleet.
     * Under a cloud price per GPU-hour the GPUs are rented one by one: the fleet's own cost. */
    double wholeServersUsdPerHour = 0;
    long long spareGpus() const { return servers * gpusPerServer - fleetGpus(); }
    /** The fleet's cost split by where its GPU time goes (prefillCostShare): the decode's share
     * over the output tokens, the prompts' over the input tokens, as APIs price the two. */
    double costPerMillionOutputTokensUsd = 0;
    double costPerMillionInputTokensUsd = 0;
    /** The whole cost over the output tokens, the prompts' share included: what a generated
     * token costs when prompts are not billed apart. */
    double costPerMillionOutputTokensAllInUsd = 0;
    /** A whole request, its prompt and its output: the one cost GPUs compare on when their split
     * between prompt and output tokens differs (each splits by where its own time goes). */
    double costPerRequestUsd = 0;
    /** Fraction of the GPU time (and so of the cost) spent on prompts rather than on decode. */
    double prefillCostShare = 0;
    std::string bottleneck;
    std::string bottleneckExplanation;
    std::optional<OfflineJobEstimate> offlineJob; ///< set for an offline job
    /** Set for a fixed fleet asked for its capacity within its latency targets
     * (InferenceJob::replicas without a rate); the other figures are at that load. */
    std::optional<CapacityWithinLimits> capacityWithinLimits;
};

/**
 * Why a sized fleet's TTFT p99 stands far above its p95 (more than twice it): the fleet is sized
 * for the p95 target, and the p99 request waits for a free slot at its replica, each replica
 * queueing what is routed to it at random (an M/M/c queue each, InferenceEstimator). Empty
 * otherwise.
 */
std::string ttftTailText(const InferenceEstimate &estimate);

} // namespace cp::model
