// SPDX-License-Identifier: GPL-3.0-or-later
// The plan's job portfolio through its scheduler (schedulersimulation.h), and the plan as Slurm
// sees it (slurm.conf and topology.conf).
#pragma once

#include "model/scheduling/schedulersimulation.h"

#include <atomic>
#include <functional>
#include <string>
#include <vector>

namespace cp::model {

class Catalog;
struct Plan;

/** The plan's servers grouped the way Slurm's topology/tree plugin sees switches. */
struct SchedulerTopology
{
    std::vector<std::string> serverNames; ///< "compute-0001", as the data hall names them
    std::vector<int> gpusPerServer;
    std::vector<int> cpusPerServer;
    std::vector<double> memoryBytesPerServer;
    /** Each server's lowest switch group: its leaf, or for a rail-optimised fabric its scalable
     * unit (its NICs reach one leaf per rail, all of that unit). -1: not on the fabric. */
    std::vector<int> leafOfServer;
    std::vector<std::string> leafNames;
    std::vector<int> podOfLeaf; ///< the group above the leaf (a pod of a three-tier fat-tree)
    std::vector<std::string> podNames;
    std::string topName; ///< the switch level that joins all pods ("spine", "core")
    int serversPerLeaf = 1; ///< of the first leaf group; the simulator's block size
    /** The most oversubscribed leaf switch's bandwidth down to endpoints over its bandwidth up
     * to other switches, summed over its cables in the generated graph; 1 without a fabric. */
    double leafDownUpRatio = 1;
    /** Each server group's servers [first, end) in plan order, named as the group. */
    std::vector<ServerPartition> groups;
};

/** Servers in plan order, grouped under the generated fabric's leaves (no fabric: one group). */
SchedulerTopology schedulerTopology(const Plan &plan, const Catalog &catalog);

/**
 * The cluster the scheduler runs on: the plan's servers, their leaf blocks and the leaves'
 * oversubscription, the server groups the portfolio's classes name as partitions, and their
 * failure rate from the catalog (each server fails when a GPU, its host or one of its NICs does:
 * the reliability model's parts, operationsestimator.h), repaired in 4 hours, 10 minutes to restart
 * a stopped job.
 */
SchedulerCluster schedulerCluster(const Plan &plan, const Catalog &catalog,
                                  const SchedulerTopology &topology);

/** A job class's runtime from the training estimator (JobClass::modelId). */
struct ClassRuntimeEstimate
{
    std::string className;
    std::string modelName;
    std::string gpuName;
    int gpus = 0;
    double tokensPerJob = 0;
    double runtimeSeconds = 0; ///< the class's mean runtime: tokens over the estimate's rate
    /** Exposed data-parallel, pipeline, context- and expert-parallel communication over the
     * step: the class's network share unless the plan gives one. */
    double networkShare = 0;
    double mfu = 0;
    int tensorParallel = 1;
    int pipelineParallel = 1;
    int dataParallel = 1;
};

struct PortfolioSimulation
{
    std::string error; ///< why nothing was simulated (no portfolio, no servers, a job too big)
    /** The plan's JSON pointer the error is about ("/portfolio/classes/2/gpus"); empty when it
     * is about the plan as a whole. */
    std::string errorPointer;
    SchedulerCluster cluster;
    /** The classes as simulated: runtimes and network shares of model classes filled in. */
    std::vector<JobClass> classes;
    std::vector<ClassRuntimeEstimate> runtimes; ///< one per class that names a model
    double horizonSeconds = 0; ///< the period simulated
    /** A replayed trace's jobs that ask for more GPUs than the plan has: never started. */
    long long traceJobsTooLarge = 0;
    int largestTraceJobGpus = 0;
    SimulationResult result;
    bool ok() const { return error.empty(); }
};

/** The most jobs one simulation takes on: about ten seconds on this project's machines. */
inline constexpr double maxSimulatedJobs = 20e6;

/**
 * Simulates the plan's portfolio for `options.horizonSeconds` on the plan's servers under its
 * policy; `options` gives the seed. A `trace` with jobs replaces the portfolio's job classes (its
 * services keep their replicas); its jobs are reported as one class, "trace".
 * A class that names a model runs for its tokens at the rate of the best layout the training
 * estimator finds for its GPUs (on its partition's servers, else the plan's fabric servers, with
 * the plan's sequence length, batch and precision), and takes that layout's share of scale-out
 * communication as its network share unless it gives one.
 */
PortfolioSimulation simulatePlanPortfolio(const Plan &plan, const Catalog &catalog,
                                          SimulationOptions options,
                                          const std::vector<TraceJob> &trace = {},
                                          const std::function<void(double)> &progress = {},
                                          const std::atomic<bool> *cancel = nullptr);

/** How many servers a job class's p95 wait needs (serversForTargetWait). */
struct TargetWaitSizing
{
    std::string error; ///< no such class, or the largest size tried still misses the target
    int servers = 0; ///< of the plan's first server group
    long long gpus = 0; ///< the plan's GPUs at that size
    double waitP95Seconds = 0; ///< the class's p95 wait at that size
    int simulations = 0;
};

/**
 * The fewest servers of the plan's first group at which `className` waits at most
 * `targetSeconds` at the 95th percentile over `options.horizonSeconds`: bisection between one
 * server and 16 x the plan's count, one simulation per step (the wait falls as servers are added;
 * the simulation's noise can move the answer by a server or two).
 */
TargetWaitSizing serversForTargetWait(const Plan &plan, const Catalog &catalog,
                                      const std::string &className, double targetSeconds,
                                      const SimulationOptions &options);

/** slurm.conf node and partition lines and the matching topology.conf. */
struct SlurmConfiguration
{
    std::string slurmConf;
    std::string topologyConf;
};

/**
 * The plan's servers as Slurm nodes (CPUs, memory and GPUs from the catalog; Gres=gpu:N) in one
 * partition, and topology.conf for the tree plugin: a switch per leaf group listing its nodes,
 * one per pod listing its leaves, and a top switch (Slurm's topology.conf(5)).
 */
SlurmConfiguration slurmConfiguration(const Plan &plan, const Catalog &catalog);

/** Slurm's hostlist form of consecutive names: compute-[0001-0032,0040]. */
std::string slurmHostList(const std::vector<std::string> &names);

} // namespace cp::model
