// SPDX-License-Identifier: GPL-3.0-or-later
// What the scheduler simulation takes and gives (schedulersimulation.h).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace cp::model {

/** One kind of job a cluster runs: its size, how long it runs and how often it comes. */
struct JobClass
{
    std::string name;
    int gpus = 8; ///< GPUs each job takes (whole servers beyond one server's GPUs)
    double meanRuntimeSeconds = 3600;
    /** Spread of the runtimes: 1 is exponential; other values a log-normal of this coefficient of
     * variation (standard deviation / mean); 0 a fixed runtime. */
    double runtimeCv = 1;
    double arrivalsPerSecond = 0;
    int priority = 0; ///< higher starts first
    /** A failure loses the work since the last checkpoint; 0: since the job's start. */
    double checkpointIntervalSeconds = 0;
    /** The partition (SchedulerCluster::partitions) its jobs run in; empty: any server. */
    std::string partition;
    /** QoS limit: GPUs the class's running jobs may hold together (Slurm's GrpTRES=gres/gpu=N);
     * a job over it waits aside without holding up others; 0: none. */
    long long maxRunningGpus = 0;
    /** Share of a job's runtime spent in scale-out communication when it runs under the fewest
     * leaf switches it can: what a scattered placement slows (scatteredSlowdown). Unset: 0, or
     * the training estimate's when the class names a model. */
    std::optional<double> networkShare;
    /** A catalog model each job trains on tokensPerJob tokens: its mean runtime (and, unless
     * given, its network share) then come from the training estimator on the job's GPUs
     * (simulatePlanPortfolio); empty: meanRuntimeSeconds as given. */
    std::string modelId;
    double tokensPerJob = 0;
    bool operator==(const JobClass &) const = default;
};

/**
 * A serving fleet the cluster keeps up: replicas of `gpusPerReplica` GPUs, as many in each hour
 * of the day as `replicasByHour` says (an autoscaled service, diurnalautoscaling.h). Replicas
 * go first in the queue; one that cannot be placed misses its hour's service level.
 */
struct ServiceClass
{
    std::string name;
    int gpusPerReplica = 8;
    std::vector<int> replicasByHour; ///< 24 entries, hour 0 first
    bool operator==(const ServiceClass &) const = default;
};

/** One job of a replayed trace (workloadtrace.h): when it came, how long it ran, how big. */
struct TraceJob
{
    double submitSeconds = 0;
    double runtimeSeconds = 0;
    int gpus = 1;
    int classIndex = 0; ///< into the classes the results are reported by
};

/** Servers [firstServer, endServer) that jobs can be confined to (a Slurm partition). */
struct ServerPartition
{
    std::string name;
    int firstServer = 0;
    int endServer = 0;
};

/** The machine as the scheduler sees it: servers under leaf switches. */
struct SchedulerCluster
{
    std::vector<int> gpusPerServer; ///< one entry per server
    int serversPerLeaf = 32; ///< servers that share a leaf switch (Slurm's lowest switch)
    /** A leaf's bandwidth down to its servers over its bandwidth up to the next tier (its
     * oversubscription, measured on the fabric graph): what traffic between leaves shares. */
    double leafDownUpRatio = 1;
    std::vector<ServerPartition> partitions; ///< disjoint; a class names one or none

    long long totalGpus() const
    {
        long long gpus = 0;
        for (int serverGpus : gpusPerServer)
            gpus += serverGpus;
        return gpus;
    }
    /** Mean time between failures that take a server down (its GPUs, host, NICs); 0: none. */
    double serverMtbfSeconds = 0;
    double repairSeconds = 4 * 3600; ///< a failed server is back after this
    double restartSeconds = 600; ///< a failed job's detect, requeue and restart cost
};

/**
 * Fifo: Slurm without backfill, the first job that does not fit stops the queue. EasyBackfill:
 * Slurm's sched/backfill (a reservation for the first job). BestEffortFifo: Kueue's
 * BestEffortFIFO queueing on Kubernetes, whole jobs admitted at once (gang) in priority order,
 * any that fits going ahead of one that does not, without a reservation.
 */
enum class SchedulingPolicy { Fifo, EasyBackfill, BestEffortFifo };

struct SimulationOptions
{
    double horizonSeconds = 365 * 86400.0;
    std::uint64_t seed = 1;
    SchedulingPolicy policy = SchedulingPolicy::EasyBackfill;
    /** Place multi-server jobs under as few leaf switches as possible (Slurm's topology/tree
     * plugin); off: the first free servers in index order. */
    bool topologyAware = true;
    /** Small jobs on the emptiest server (Kubernetes' LeastAllocated scoring) rather than the
     * fullest that holds them (best fit, bin packing). */
    bool spread = false;
    /** A service replica that does not fit stops batch jobs of lower priority to make room
     * (Slurm QoS preemption, PreemptMode=REQUEUE); off: it waits for free GPUs. */
    bool servicesPreempt = false;
    /** Queued jobs the backfill pass looks at: Slurm's bf_max_job_test default (slurm.conf(5)). */
    int backfillDepth = 500;
    /** Seconds between backfill passes: Slurm's bf_interval default (slurm.conf(5)); the plain
     * priority-order pass runs at every event. */
    double backfillIntervalSeconds = 30;
    /** Jobs submitted before this are simulated but not counted (the empty start). */
    double warmupSeconds = 0;
    /** Keep every started batch job (SimulationResult::jobs), for a trace of the run. */
    bool recordJobs = false;
};

/** A batch job as it ran: what a Standard Workload Format line records. */
struct RecordedJob
{
    double submitSeconds = 0;
    double waitSeconds = 0;
    double runtimeSeconds = 0; ///< the work it asked for, without restarts
    int gpus = 1;
    int classIndex = 0;
};

struct ClassResult
{
    std::string name;
    long long submitted = 0; ///< counted jobs (after the warm-up)
    long long started = 0; ///< of those, started before the horizon
    /** Counted jobs still waiting for their first start at the horizon. Their wait so far is in
     * the wait figures below, which are then lower bounds (a class that starves shows the days
     * its jobs have waited, not the 0 s of the few that got in). */
    long long waitingAtEnd = 0;
    bool waitsAreLowerBounds() const { return waitingAtEnd > 0; }
    /** Some job started or waits: the wait figures describe something (else "-", null). */
    bool hasWaits() const { return started > 0 || waitingAtEnd > 0; }
    /** Waits of the started jobs and, so far, of those still waiting. */
    double meanWaitSeconds = 0;
    double waitP50Seconds = 0;
    double waitP95Seconds = 0;
    double waitP99Seconds = 0;
    /** Starts of multi-server jobs under more leaf switches than they need, restarts after a
     * failure or a preemption included (so they may outnumber the jobs started): slower by
     * scatteredSlowdown where the class has a network share and the leaves are oversubscribed. */
    long long scatteredStarts = 0;
    /** Jobs set aside at least once by the class's QoS limit (maxRunningGpus). */
    long long heldByLimit = 0;
};

struct ServiceResult
{
    std::string name;
    double demandedReplicaHours = 0;
    double servedReplicaHours = 0;
    /** Served over demanded replica-time: 1 when every replica ran when asked for. */
    double attainment() const
    {
        return demandedReplicaHours > 0 ? servedReplicaHours / demandedReplicaHours : 1.0;
    }
};

struct SimulationResult
{
    /** GPU-time allocated to jobs over GPU-time in service. */
    double utilisation = 0;
    /** Allocated GPU-time that was kept: less the work failures and preemptions threw away, the
     * restarts, and the time scattered jobs lost to shared leaf uplinks. */
    double usefulUtilisation = 0;
    /** GPU-time free while the first queued job could not start anyway (its size, its servers),
     * over all GPU-time: capacity the queue cannot use. */
    double fragmentation = 0;
    double gpuHoursLostToFailures = 0; ///< lost work and restarts
    double gpuHoursLostToPreemption = 0; ///< the same for jobs stopped for service replicas
    /** GPU-time scattered jobs ran beyond what they would have under the fewest leaves. */
    double gpuHoursLostToScatter = 0;
    long long interruptions = 0; ///< batch jobs stopped by server failures
    long long replicaInterruptions = 0; ///< service replicas stopped by server failures
    long long preemptions = 0; ///< batch jobs stopped to make room for service replicas
    long long jobsSubmitted = 0;
    long long jobsCompleted = 0;
    long long jobsQueuedAtEnd = 0; ///< batch jobs waiting (again, after a stop) at the end
    long long jobsRunningAtEnd = 0; ///< batch jobs still running at the end
    /** Offered GPU-time per second over the GPUs: above 1 the queue grows without bound. */
    double offeredLoad = 0;
    /** The GPU-time of the jobs that arrived in this run (their whole runtimes) and the
     * services' asks, over the GPUs: the random sample's load, beside the long-run one. */
    double arrivedLoad = 0;
    std::vector<ClassResult> classes;
    std::vector<ServiceResult> services;
    /** With SimulationOptions::recordJobs: the batch jobs that started, by submit time. */
    std::vector<RecordedJob> jobs;
    /** Share of the GPUs allocated, day by day of the simulated period. */
    std::vector<double> dailyUtilisation;
    /** Replica-time served over replica-time asked for, all services; 1 without services. */
    double serviceAttainment = 1;
    long long events = 0;
};

} // namespace cp::model
