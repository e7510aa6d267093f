// SPDX-License-Identifier: GPL-3.0-or-later
// A queue simulation's results as people read them: what `plan simulate` prints and the GUI's
// queue simulation window shows, from one place.
#pragma once

#include "model/scheduling/schedulingtypes.h"

#include <string>
#include <vector>

namespace cp::model {

struct PortfolioPlan;
struct PortfolioSimulation;

/** One figure of the summary: its name and its value in words and human units. */
struct SimulationFigure
{
    std::string figure;
    std::string value;
};

/**
 * Offered load, utilisation (allocated and useful), fragmentation, failures, preemptions and
 * scattered placements where there were any, and the jobs submitted, completed and still queued.
 */
std::vector<SimulationFigure> simulationFigures(const SimulationResult &result);

/**
 * One figure per class whose runtime the training estimator gave: "runtime: pretraining" and
 * "Llama 3 8B, 100 B tokens on 1,024 NVIDIA H100 SXM5 80GB: 12.3 h a job (TP 1, PP 1, DP 1,024;
 * MFU 41.2%); scale-out communication 4.4% of the step".
 */
std::vector<SimulationFigure> runtimeEstimateFigures(const PortfolioSimulation &simulation);

/** A job class's row of waits (humanWait) and counts, with where its jobs may run. */
struct ClassWaitRow
{
    std::string name;
    std::string runsIn; ///< "any server", its partition, and its QoS limit
    std::string submitted;
    std::string started;
    std::string meanWait;
    std::string waitP50;
    std::string waitP95;
    std::string waitP99;
    std::string scatteredStarts;
    std::string heldByLimit;
};

/** A serving fleet's replica-hours asked for and served, and the share served. */
struct ServiceRow
{
    std::string name;
    std::string demandedReplicaHours;
    std::string servedReplicaHours;
    std::string attainment;
};

std::vector<ServiceRow> serviceRows(const SimulationResult &result);

/** One row per class of `result`, described by `portfolio`'s classes of the same index. */
std::vector<ClassWaitRow> classWaitRows(const SimulationResult &result,
                                        const PortfolioPlan &portfolio);

/**
 * The queue in one sentence for a report's key figures: "over 36 simulated days: GPUs busy
 * 87.6% (useful 84.1%); p95 wait: pretraining 75 h, interactive 18 min", with the services'
 * attainment when below 100% and "the queue grows without bound" when the offered load is above the
 * GPUs. Empty when nothing was simulated.
 */
std::string portfolioSummaryText(const PortfolioSimulation &simulation);

} // namespace cp::model
