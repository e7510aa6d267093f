// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "model/cluster/clusterdescription.h"
#include "model/inference/inferenceestimate.h"
#include "model/training/transformershape.h"

#include <optional>
#include <string>

namespace cp::model {

struct ServingReplica;

/**
 * Roofline estimate of LLM serving with continuous batching.
 *
 * Prefill is compute-bound: FLOPs of the prompt (2·N per token plus causal attention) over the
 * GPU's peak times its GEMM efficiency. Decode is a roofline per step: max(bytes read / achievable
 * HBM bandwidth, FLOPs / achievable compute), where the bytes are the weights (for MoE, the experts
 * a batch touches) plus every sequence's KV cache (Pope et al., "Efficiently Scaling Transformer
 * Inference", MLSys 2023; Kwon et al., "vLLM/PagedAttention", SOSP 2023 for KV sizing). Tensor
 * parallelism adds two all-reduces per layer on the scale-up link, latency-bound at small batch.
 * Pipeline parallelism across nodes splits the layers into P stages and the batch into P
 * micro-batches in flight (as vLLM's pipeline-parallel engine does): every stage works on one
 * micro-batch of B/P sequences at a time, a micro-batch's token takes a round of P stage times
 * plus P activation sends over the scale-out link, so a decode step is P·(stage time + send).
 * At the memory-bound end this equals reading all weights once per step, like a P-times-larger
 * TP group without its all-reduces; at the compute-bound end every stage is busy. A prompt's
 * prefill passes the stages one after another.
 * A fixed fleet at an offered rate (InferenceJob::replicas): continuous batching admits each
 * arriving prompt at the next step, so a replica runs the sequences in flight, whose number
 * follows from Little's law (Little, "A Proof for the Queuing Formula L = lambda W", Operations
 * Research 9(3), 1961): B = lambda (TTFT + O·TPOT(B)), solved for the smallest batch that holds
 * it; each step also prefills the prompts that arrived, lambda·t_prefill of every second. The
 * occupancy is Poisson about B (M/G/infinity), so TPOT's p95 is the step at its 95th percentile.
 * Queueing: a replica with B batch slots is an M/M/B queue (Poisson arrivals, every slot serving
 * one request in O·t_decode + B·t_prefill); the p95 wait before prefill follows from Erlang C
 * (Kleinrock, "Queueing Systems", vol. 1, §3.5): P(W > t) = C(B, a)·exp(-(B·mu - lambda)·t).
 */
class InferenceEstimator
{
public:
    InferenceEstimator(const InferenceJob &job, const ClusterDescription &hardware,
                       const ServingCostModel &cost);

    /** The estimate at one batch size (no queueing unless a rate is set, one replica). */
    InferenceEstimate estimateAtBatch(int batch) const;
    /**
     * Batch given: that batch. Rate given: the batch and replica count that meet the SLOs with
     * the fewest GPUs. Neither: the largest batch that fits (maximum throughput).
     */
    InferenceEstimate estimate() const;
    /** Largest batch that runs: its K/V cache fits beside the weights and the engine admits
     * it; 0 when the weights alone do not fit. */
    int maxBatch() const;
    /** Largest batch whose K/V cache fits beside the weights; 0 when the weights alone do not
     * fit. */
    int memoryBatchLimit() const;
    /** The engine's cap on sequences per batch (the job's, else the profile's); 0: none. */
    int engineBatchLimit() const;
    /** Whether the engine prefills this job's prompts in chunks (for vLLM: a long-context
     * model). */
    bool chunksPrefill() const;

    /** Pipeline stages and tensor-parallel GPUs per stage for the job on this hardware. */
    int pipelineStages() const;
    int tensorParallel() const;
    /** Why the replica's layout cannot work (empty when it can): stages that do not divide the
     * GPUs, a tensor-parallel group larger than the scale-up domain, more stages than layers. */
    std::string layoutProblem() const;
    /** Why the workload's requests do not fit the model's context; empty when they do. */
    std::string contextProblem() const;

private:
    struct BatchLimits
    {
        int memory = 0;
        int engine = 0; ///< 0: no cap
        int largest = 0;
        void applyTo(InferenceEstimate &estimate) const;
    };
    BatchLimits batchLimits() const;
    struct BatchSetup;
    BatchSetup batchSetup(int batch) const;
    /** Whether the job's engine caches `shape`'s attention as latents (latent attention on an
     * engine that keeps them, ServingEngine::latentKvCache). */
    bool latentCache(const TransformerShape &shape) const;
    /** K/V bytes one token of context adds on every layer of `shape` (whole model). */
    double kvBytesPerToken(const TransformerShape &shape) const;
    /** The whole model's K/V, or one GPU's share of the target's and of the draft's. */
    enum class KvScope { WholeModel, OneGpu };
    /** K/V bytes one sequence of `context` tokens keeps (target and draft) in `scope`. */
    double kvBytesPerSequence(const BatchSetup &setup, double context, KvScope scope) const;
    /** K/V bytes one decode step reads on one GPU for one sequence, averaged over its generation
     * (target and draft, each its own share). */
    double kvBytesReadPerSequenceOnGpu(const BatchSetup &setup) const;
    /** Weights, K/V cache, workspace and reserve per GPU; whether they fit. */
    void estimateMemory(InferenceEstimate &estimate, const BatchSetup &setup) const;
    /** The decode step's operations and roofline terms; returns the bytes one step reads. */
    double estimateDecode(InferenceEstimate &estimate, const BatchSetup &setup) const;
    void estimateSpeculativeDecode(InferenceEstimate &estimate, const BatchSetup &setup) const;
    /** Throughput, TPOT and TTFT from the prefill and decode steps (one replica, no queue). */
    void estimateServing(InferenceEstimate &estimate, const BatchSetup &setup) const;
    /** One prompt's prefill in the engine's chunks (its operations, TTFT share, and the batch's
     * prompts' work for the throughput), on an engine that chunks this job's prompts. */
    void estimateChunkedPrefill(InferenceEstimate &estimate, const BatchSetup &setup) const;
    /** A speculative draft model's prefill of the prompts beside the target's. */
    void addDraftPrefill(InferenceEstimate &estimate, const BatchSetup &setup) const;
    void setDecodeKernel(ServingReplica &replica) const;
    void explainBottleneck(InferenceEstimate &estimate, const std::string &layout,
                           double decodeBytesRead, int batch) const;
    /** Power, cost per hour, and cost per million tokens of the load served: the offered rate,
     * or `servedRequestsPerSecond` where the fleet serves less (an overloaded fixed fleet). */
    void finishCosts(InferenceEstimate &estimate,
                     std::optional<double> servedRequestsPerSecond = std::nullopt) const;
    /** GPU memory the engine keeps out of the K/V cache (servingengine.h). */
    double engineReserveBytes(double weightsBytes, double workspaceBytes) const;
    /** Adds to the explanation why the next batch the search tried (`larger`, refused, or
     * served by no fewer replicas) was not taken: the figure that broke its target. */
    void explainBatchLimit(InferenceEstimate &estimate, const InferenceEstimate &larger) const;
    /** `estimate` with the job's offline requests run in waves on its replicas
     * (InferenceJob::offlineRequests); unchanged without them. */
    InferenceEstimate withOfflineJob(InferenceEstimate estimate, const BatchLimits &limits) const;
    void explainOfflineJob(InferenceEstimate &estimate) const;
    /** The workload's own batch, or why it does not fit in the `limit` memory allows. */
    InferenceEstimate estimateGivenBatch(int batch, const BatchLimits &limits) const;
    /** The batch (powers of two up to `limit`) that serves the rate with the fewest replicas
     * inside the latency targets, or the reason none does. */
    InferenceEstimate cheapestBatchForRate(const BatchLimits &limits) const;
    struct LoadPoint;
    /** A replica running the sequences of `atBatch` (its estimate at that batch) while prompts
     * arrive at `arrivalsPerSecond`. */
    LoadPoint loadPoint(InferenceEstimate atBatch, double arrivalsPerSecond) const;
    /** The job's fixed fleet at its offered rate: the in-flight batch the load builds and the
     * latencies at it. */
    InferenceEstimate fixedFleetAtRate(const BatchLimits &limits) const;
    /** `replicas` replicas sharing the job's rate, each admitting prompts up to the engine's
     * limit (`atLargest`, the estimate there, serving at most `capacity` requests/s). */
    InferenceEstimate fleetUnderLoad(const BatchLimits &limits, int replicas,
                                     const InferenceEstimate &atLargest, double capacity) const;
    /** "with 9 replicas more than one prompt in twenty would find all 198 of its replica's
     * slots taken": why a fleet's occupancy does not fit its slots (occupancyFitsSlots). */
    static std::string slotsTakenText(int replicas, int largest);
    /** Adds to `fleet`'s explanation why one replica fewer would not do. */
    void explainFewestReplicas(InferenceEstimate &fleet, const BatchLimits &limits,
                               const InferenceEstimate &atLargest, double capacity) const;
    /** The fewest replicas, at most `mostReplicas`, that admitting prompts as they come serve
     * the job's rate within its targets (fleetUnderLoad, with the replica's estimate at its
     * largest batch and the capacity there, which the caller has); none where no such fleet
     * does. */
    std::optional<InferenceEstimate>
    fewestContinuouslyBatchingReplicas(const BatchLimits &limits,
                                       const InferenceEstimate &atLargest, double capacity,
                                       int mostReplicas) const;
    /** Requests per second one replica serves at its largest batch (`atLargest`, the estimate
     * there), TTFT included. */
    double fleetCapacityPerReplica(const InferenceEstimate &atLargest) const;
    /** The smallest batch that holds what `arrivalsPerSecond` keeps in flight. */
    int inFlightBatch(double arrivalsPerSecond, int largest) const;
    /** A rate the fixed fleet cannot serve: the estimate at its largest batch, refused with the
     * replicas it would take. */
    InferenceEstimate overloadedFleet(InferenceEstimate estimate, const BatchLimits &limits,
                                      double capacity, int replicas) const;
    void explainFleetLoad(InferenceEstimate &estimate, double arrivalsPerSecond,
                          double capacity) const;
    /** Whether the fixed fleet meets the job's TTFT and TPOT targets; the reason if not. */
    void checkFleetTargets(InferenceEstimate &estimate) const;
    /** The fewest replicas of `estimate` (at `batch`) whose p95 TTFT under `rate` requests/s
     * (an M/M/c queue per replica) meets the target, with the queue's percentiles; or why no
     * number of replicas up to maxReplicas does. */
    std::optional<std::string> provisionReplicas(InferenceEstimate &estimate, int batch,
                                                 double rate) const;
    /** The cost per million output and input tokens (split by prefillCostShare), per request
     * and all in, of `usd` spent on `requests` requests. */
    void setTokenCosts(InferenceEstimate &estimate, double usd, double requests) const;
    /** The step a prompt is prefilled in, the running decodes included (its chunks' steps on an
     * engine that chunks it). */
    double promptStepSeconds(const InferenceEstimate &estimate) const;
    /** A prompt's TTFT at `quantile` before any wait for a free slot, at `batch`: the wait for a
     * step boundary and its prefill (however many replicas share the load). */
    double ttftBeforeQueueSeconds(const InferenceEstimate &estimate, int batch,
                                  double quantile) const;
    /** What each replica of fewestReplicasForRate's fleet carries, for a replica that carries
     * `capacity` requests/s at most: "5.54 requests/s each: 70% of the 7.91 ...". */
    std::string perReplicaRateText(double capacity) const;
    /** The fewest replicas of `estimate` that carry `rate` within the sizing's headroom. */
    double fewestReplicasForRate(const InferenceEstimate &estimate, double rate) const;
    /** The largest fleet provisionReplicas sizes: a million replicas, past any deployment. */
    static constexpr int maxReplicas = 1'000'000;
    /** The share of a replica's estimated capacity up to which the fleet model's latencies are
     * trusted: MLPerf server fleets that it puts at 75% of capacity and more were measured at
     * their latency limits (docs/validation-inference.md). A fleet is sized within it. */
    static constexpr double trustedUtilisation = 0.7;
    /** The serving plan estimate() describes, before withdrawFleet(). */
    InferenceEstimate servingPlan() const;

    InferenceJob m_job;
    ClusterDescription m_hw;
    ServingCostModel m_cost;
};

/**
 * p95 of the waiting time in an M/M/c queue: arrivals per second, service rate of one slot, c
 * slots. Zero when fewer than 5% of arrivals wait; infinite when the queue is unstable.
 */
double erlangCWaitP95Seconds(double arrivalsPerSecond, double slotServiceRate, int slots);
/**
 * The smallest k with P(X <= k) >= `probability` for X Poisson with `mean`: the sequences in
 * flight on a replica that admits every arrival at once (an M/G/infinity queue, whose occupancy
 * is Poisson with the mean Little's law gives; Kleinrock, "Queueing Systems", vol. 1, 1975).
 */
int poissonQuantile(double mean, double probability);

/**
 * Whether an arriving prompt finds a free slot of the replica's `slots` (the engine's largest
 * batch) with at least `probability`: Poisson arrivals see the occupancy in time (Wolff's PASTA),
 * Poisson about `inFlightSequences` (poissonQuantile), so the prompt finds one while the others
 * number fewer than `slots`: the quantile below `slots`. Otherwise prompts wait for a free slot,
 * a wait a load point's TTFT does not count: a TTFT target or limit at that percentile holds only
 * while this does (a sized fleet, a fixed fleet, a fleet's capacity within limits). The quantile
 * had been allowed to reach `slots`, one too many: a one-slot replica 35.5% occupied, whose slot
 * an arriving prompt finds taken 1 - e^-0.355 = 30% of the time, passed as "fewer than one in
 * twenty".
 */
bool occupancyFitsSlots(double inFlightSequences, int slots, double probability);
/** The `quantile` (0.5, 0.99, ...) of the same waiting time: ln(C / (1 - q)) / (c·mu - lambda). */
double erlangCWaitQuantileSeconds(double arrivalsPerSecond, double slotServiceRate, int slots,
                                  double quantile);

} // namespace cp::model
