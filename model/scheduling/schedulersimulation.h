// SPDX-License-Identifier: GPL-3.0-or-later
// A year of a cluster's job portfolio through a batch scheduler (docs/scheduling-model.md).
#pragma once

#include "model/scheduling/schedulingtypes.h"

#include <atomic>
#include <functional>
#include <vector>

namespace cp::model {

/**
 * Discrete-event simulation of a job portfolio on `cluster`: Poisson arrivals of each class (or
 * the jobs of a trace), a priority-then-FIFO queue, and either strict FIFO or EASY backfill
 * (Lifka, "The ANL/IBM SP scheduling system", JSSPP 1995; Mu'alem & Feitelson, "Utilization,
 * predictability, workloads, and user runtime estimates in scheduling the IBM SP2 with
 * backfilling", IEEE TPDS 12(6), 2001): the first queued job gets a reservation at the earliest
 * time enough GPUs free up, and later jobs start now if they end before it or use only GPUs it
 * does not need. Runtimes are known exactly (the estimate Slurm would read from a time limit). The
 * priority-order pass runs at every event, the backfill pass at most every backfillInterval.
 * Servers fail at their MTBF; a failure stops every job on the server, which loses the work since
 * its last checkpoint, pays a restart and goes back to its place in the queue; the server returns
 * after its repair. Deterministic for a seed. `progress` (0..1) and `cancel` are polled.
 */
SimulationResult simulateScheduler(const SchedulerCluster &cluster,
                                   const std::vector<JobClass> &classes,
                                   const std::vector<TraceJob> &trace,
                                   const SimulationOptions &options,
                                   const std::function<void(double)> &progress = {},
                                   const std::atomic<bool> *cancel = nullptr);

/** Everything the cluster is asked to run. */
struct SchedulerWorkload
{
    std::vector<JobClass> classes;
    std::vector<ServiceClass> services;
    std::vector<TraceJob> trace;
};

/**
 * simulateScheduler with serving fleets too: each service's replicas are scaled at every hour
 * of the run to its replicasByHour, ahead of every batch job in the queue (they take the next
 * free GPUs; running batch jobs are not preempted). SimulationResult::services gives the
 * replica-time each got against what it asked for.
 */
SimulationResult simulateWorkload(const SchedulerCluster &cluster,
                                  const SchedulerWorkload &workload,
                                  const SimulationOptions &options,
                                  const std::function<void(double)> &progress = {},
                                  const std::atomic<bool> *cancel = nullptr);

/**
 * Mean wait in queue of an M/M/c system (Erlang's C formula): `servers` identical servers,
 * Poisson arrivals at `arrivalsPerSecond`, exponential service of mean `serviceSeconds`.
 * Infinity at or above saturation. The closed form the simulation is tested against.
 */
double erlangCMeanWaitSeconds(int servers, double arrivalsPerSecond, double serviceSeconds);

} // namespace cp::model
