// SPDX-License-Identifier: GPL-3.0-or-later
// What a cluster draws, costs and loses to failures while it runs a job.
#pragma once

#include "model/catalog/catalogitems.h"

#include <optional>
#include <string>
#include <vector>

namespace cp::model {

/**
 * Optimal checkpoint interval for checkpoint time C and system MTBF M, to higher order (Daly, "A
 * higher order estimate of the optimum checkpoint interval for restart dumps", Future Generation
 * Computer Systems 22(3), 2006, https://doi.org/10.1016/j.future.2004.11.016): tau = sqrt(2 C M)
 * (1 + sqrt(C / 2M) / 3 + (C / 2M) / 9) - C while C < 2 M, else M. Young's first-order sqrt(2 C M)
 * (CACM 1974) is its leading term, close while C is far below M.
 */
double checkpointIntervalSeconds(double checkpointSeconds, double mtbfSeconds);

/** `goodput` clamped to 1, and 0 (the run never finishes) below one part in a million. */
double practicalGoodput(double goodput);
/**
 * Fraction of wall time spent on useful work with a checkpoint every `interval`, for failures at
 * exponentially distributed times (Daly 2006, the expected wall time of his complete model): a
 * segment of tau of work and C of writing completes with probability e^-(tau + C)/M, a failure
 * costs the restart R (which can itself fail), so the wall time per tau of work is
 * M e^(R/M) (e^((tau + C)/M) - 1) and goodput = tau / (M e^(R/M) (e^((tau + C)/M) - 1)). Its first
 * order, 1 - C / tau - (tau / 2 + R) / M, holds while C, R and tau are far below M; at a 20-minute
 * MTBF with an 11-minute restart it falls to a fifth of the complete model's.
 */
double checkpointGoodput(double checkpointSeconds, double intervalSeconds, double restartSeconds,
                         double mtbfSeconds);

/**
 * Average GPU draw at a busy fraction u: idle + u (TDP - idle). Tensor-core kernels run GPUs at
 * their power limit, so the draw follows the fraction of the step the GPU computes, not MFU.
 */
double gpuAverageWatts(const GpuSpec &gpu, double busyFraction);

/**
 * A server's draw beside its GPUs while it trains: where the catalog gives a measured maximum for
 * the whole server under training (NodeSpec::measuredMaxPowerWatts), that maximum less its GPUs at
 * their power limit, the most the host can have drawn then; else the host's rating. An 8-GPU H100
 * HGX server peaked at 8.48 kW training Llama 2 13B and ResNet and under GPU-burn (Latif et al.,
 * arXiv:2412.08602), 18% under its 10.2 kW rating: 8.48 - 8 x 0.7 = 2.88 kW for the host, where
 * its rating less the GPUs' gave 4.6 kW and put a DGX H100 at 8.8 kW through a run. Never more
 * than the rating, never below zero.
 */
double hostTrainingWatts(const NodeSpec &node, const GpuSpec &gpu);

/** How many of each failing part a job spans, and their MTBFs from the catalog (0: unknown). */
struct FailureExposure
{
    std::string part; ///< "GPUs", "nodes (without GPUs)", "NICs and their optics", "switches"
    long long count = 0;
    double mtbfHours = 0;
    double interruptionsPerDay() const
    {
        return mtbfHours > 0 ? static_cast<double>(count) * 24.0 / mtbfHours : 0.0;
    }
};

struct ReliabilityInputs
{
    std::vector<FailureExposure> parts;
    /** Weights, FP32 master copy and Adam moments: 2 + 4 + 4 + 4 bytes per parameter. */
    double checkpointBytes = 0;
    double storageWriteBytesPerSecond = 0;
    double storageReadBytesPerSecond = 0;
    /** Detect, tear down, reschedule and initialise the job, before reading the checkpoint. */
    double restartOverheadSeconds = 600;
    /** Hot spares; -1: as many as cover the failures in flight (sparesNeeded), the usual practice.
     */
    int spareNodes = -1;
    /** Time to swap or repair a failed node when no spare is ready. */
    double nodeReplacementSeconds = 4 * 3600;
    double nodes = 0;
    /** The run's length without failures; needed only when no checkpoint can be written. */
    double runSeconds = 0;
    /**
     * Asynchronous checkpoints: training stops only to copy each GPU's shard to host memory
     * (these seconds); the write to storage drains in the background. None: synchronous, the
     * step waits for the whole write.
     */
    std::optional<double> asyncCopySeconds;
    /** A checkpoint is taken between optimizer steps, so never more often than one a step:
     * Daly's interval is at least this (the step time; 0: no such floor). */
    double minimumIntervalSeconds = 0;
};

struct ReliabilityEstimate
{
    double interruptionsPerDay = 0;
    double mtbfSeconds = 0; ///< of the whole job: 1 / the sum of failure rates
    double checkpointWriteSeconds = 0;
    double checkpointReadSeconds = 0;
    double checkpointIntervalSeconds = 0; ///< Daly's optimum (checkpointIntervalSeconds)
    /** What set the interval: "Daly" (the optimum), "the drain" (asynchronous: the next copy
     * waits for the last write) or "one a step" (Daly's optimum is shorter than a step). */
    std::string intervalRule = "Daly";
    /** Training stopped per checkpoint: the write (synchronous) or the copy to host memory. */
    double checkpointBlockedSeconds = 0;
    bool asyncCheckpoints = false;
    double restartSeconds = 0;
    bool sparesCoverFailures = false;
    int spareNodes = 0; ///< used: given, or sized to cover the nodes down at once
    double nodesDownAtOnce = 0; ///< node failure rate x replacement time
    double goodput = 1.0;
    /** False without storage write bandwidth: every failure restarts the run from its start. */
    bool checkpointsWritable = true;
    std::vector<std::string> notes; ///< parts without an MTBF, spares that run out
};

/**
 * Checkpoint interval and goodput of asynchronous checkpoints (Nicolae et al., "DeepFreeze:
 * Towards Scalable Asynchronous Checkpointing of Deep Learning Models", CCGrid 2020; PyTorch
 * Distributed Checkpoint's async_save): each checkpoint stops training for `copySeconds`, and
 * is durable only after its `drainSeconds` write, which must end before the next one starts.
 * Daly's interval on the copy, at least the drain; a failure also loses the drain in flight, so
 * goodput is checkpointGoodput's with the copy for C and R + drain for the restart.
 */
double asyncCheckpointIntervalSeconds(double copySeconds, double drainSeconds, double mtbfSeconds);

/**
 * Expected interruptions (every part failing independently at a constant rate: a job stops when
 * any of its GPUs, nodes, NICs or switches fails), Daly's interval and the goodput. Restart =
 * overhead + checkpoint read + (when spares cannot absorb the failures in flight) the node
 * replacement time. Spares absorb failures when there are at least as many as the expected number
 * of nodes down at once (node failure rate x replacement time), rounded up.
 */
ReliabilityEstimate estimateReliability(const ReliabilityInputs &inputs);

/** Why a run whose goodput is 0 never finishes: "a failure every 3 min against 10 min to
 * restart", or that without checkpoints every failure sends it back to its start. Empty for a
 * run that finishes. */
std::string runNeverFinishesText(const ReliabilityEstimate &reliability);

/** Why a run that does finish spends most of its wall time on failures, when its goodput is
 * below 10%: "a failure every 3 min against 10 min to restart" (with checkpoints; without, that
 * every failure sends it back to its start). Empty otherwise. */
std::string lowGoodputText(const ReliabilityEstimate &reliability);

/** The sentence that says failures, not the step, decide a run's wall time: "failures outpace
 * the run: <lowGoodputText>, so only 0.0279% of the wall time is useful work", or "the run never
 * finishes: <runNeverFinishesText>". Empty for a run whose goodput is 10% or more. */
std::string failuresDecideRunText(const ReliabilityEstimate &reliability);

/**
 * Goodput of a run of `runSeconds` of work that cannot checkpoint: each failure (rate 1/MTBF)
 * loses everything done so far and costs `restartSeconds`. The expected wall time is
 * (MTBF + R)(e^(T/MTBF) - 1) (Duda, "The effects of checkpointing on program execution time",
 * Information Processing Letters 16(5), 1983, the no-checkpoint case; also Daly, "A higher
 * order estimate of the optimum checkpoint interval for restart dumps", FGCS 22(3), 2006, eq. 1
 * with one segment), so goodput = T / that. 0 when the run would need more than e^50 times its
 * length (it practically never finishes); 1 without failures.
 */
double noCheckpointGoodput(double runSeconds, double restartSeconds, double mtbfSeconds);

/** A serving fleet's failures: each takes one replica down while it restarts. */
struct ServingReliability
{
    double interruptionsPerDay = 0;
    double restartSeconds = 0;
    /** Fraction of replica-time up: 1 - interruptions x restart / (replicas x one day). */
    double availability = 1.0;
};

/**
 * `replicas` of `gpusPerReplica` GPUs on nodes of `node`: GPU and host failures (NICs do not stop
 * a replica that serves from one node). Restart = `restartOverheadSeconds` (reschedule, load the
 * weights, warm up).
 */
ServingReliability estimateServingReliability(const GpuSpec &gpu, const NodeSpec &node,
                                              int replicas, int gpusPerReplica,
                                              double restartOverheadSeconds);

/** Power, energy and money for a job of `runSeconds` of useful work. */
struct OperationsInputs
{
    GpuSpec gpu;
    NodeSpec node;
    int gpus = 0;
    int nodes = 0;
    double gpuBusyFraction = 1.0;
    double networkWatts = 0; ///< switches and optics
    double storageWatts = 0;
    double capitalUsd = 0; ///< GPUs, nodes, network, storage, racks
    FacilitySpec facility;
    double lifetimeYears = 4;
    std::optional<double> hourlyUsdPerGpu; ///< a cloud price replaces capital and energy
    /** GPUs of the hot spare nodes: rented at the cloud price for the whole wall time beside the
     * run's (owned spares are bought, in capitalUsd, and idle, so they draw no power here). */
    long long spareGpus = 0;
    double runSeconds = 0; ///< useful work; wall time divides it by the goodput
    double goodput = 1.0;
};

struct OperationsEstimate
{
    double gpusWatts = 0; ///< average draw at the busy fraction
    double nodesWatts = 0;
    double networkWatts = 0;
    double storageWatts = 0;
    double itWatts() const { return gpusWatts + nodesWatts + networkWatts + storageWatts; }
    double facilityWatts = 0; ///< IT x PUE
    double wallSeconds = 0; ///< run time / goodput
    double wallGpuHours = 0; ///< GPU-hours of the wall time: what a run is billed for
    double energyMegawattHours = 0; ///< facility energy over the wall time
    double electricityUsd = 0;
    double carbonTonnes = 0;
    double costPerGpuHourUsd = 0; ///< amortised capital + electricity, or the cloud price
    /** GPU-hours of the rented hot spares (a cloud price only): billed, not worked. */
    double rentedSpareGpuHours = 0;
    /** GPU-hours of wall time x cost per GPU-hour, and the rented spares' at the cloud price. */
    double costUsd = 0;
};

/**
 * Energy = facility power x wall time; electricity = energy x price; carbon = energy x the grid's
 * intensity. Owned hardware: cost per GPU-hour = capital / (GPUs x lifetime hours) + facility
 * power per GPU x electricity price (straight-line amortisation, hardware busy all its life). A
 * cloud price bills every rented GPU-hour: the run's and its hot spares' over the wall time.
 */
OperationsEstimate estimateOperations(const OperationsInputs &inputs);

} // namespace cp::model
