// SPDX-License-Identifier: GPL-3.0-or-later
// A queue simulation's results as people read them: what `plan simulate` prints and the GUI's
// queue simulation window shows, from one place.
#pragma once

#include "model/scheduling/schedulingtypes.h"

#include <optional>
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

/** Where a figure lies over runs that differ only in their seed. */
struct SeedSpread
{
    double medianSeconds
        = 0; ///< the middle run's (the mean of the two middle ones for an even count)
    double lowestSeconds = 0;
    double highestSeconds = 0;
    bool anyLowerBound = false; ///< some run's figure counts jobs still waiting at its end
};

/** The middle, lowest and highest of `seconds` (not empty). */
SeedSpread seedSpread(std::vector<double> seconds, bool anyLowerBound);

/** A job class's p95 and mean wait over several runs; unset where no run started or kept one of
 * its jobs waiting. */
struct ClassWaitSpread
{
    std::string name;
    std::optional<SeedSpread> waitP95;
    std::optional<SeedSpread> meanWait;
};

/** One per class of the first of `runs`, over every run. */
std::vector<ClassWaitSpread> classWaitSpreads(const std::vector<SimulationResult> &runs);

/** A job class's p95 and mean wait over the runs: "2.8 days (15 h to 4.2 days)". */
struct ClassWaitSpreadRow
{
    std::string name;
    std::string waitP95;
    std::string meanWait;
    /** The highest run's p95 over the lowest's ("6.7x"), or "-" where the lowest is 0. */
    std::string p95Ratio;
};

/**
 * One row per class of the first run, its waits over every run of `runs` (one seed each, the
 * same plan): a year of a busy cluster's queue is one draw of its arrivals, and a class's p95 wait
 * can move several times over between seeds (15 h to 101 h on the shared-cluster sample), which a
 * single run's figure does not show.
 */
std::vector<ClassWaitSpreadRow> classWaitSpreadRows(const std::vector<SimulationResult> &runs);

/**
 * The queue in one sentence for a report's key figures: "over 36 simulated days: GPUs busy
 * 87.6% (useful 84.1%); p95 wait: pretraining 75 h, interactive 18 min", with the services'
 * attainment when below 100% and "the queue grows without bound" when the offered load is above the
 * GPUs. Empty when nothing was simulated.
 */
std::string portfolioSummaryText(const PortfolioSimulation &simulation);

} // namespace cp::model
