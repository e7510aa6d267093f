// SPDX-License-Identifier: GPL-3.0-or-later
#include "model/planning/simulationsummary.h"

#include "model/core/humantext.h"
#include "model/core/median.h"
#include "model/plan/plan.h"
#include "model/planning/portfoliosimulation.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace cp::model {

namespace {

std::string gpuHours(double hours)
{
    char text[48];
    std::snprintf(text, sizeof text, "%.0f", hours);
    return groupThousands(text) + " GPU-hours";
}

/** Tokens as people say them: 100 B, 2 T, 350 M (three digits). */
std::string tokenCount(double tokens)
{
    const char *suffix = "";
    double value = tokens;
    for (const auto &[factor, name] : {std::pair {1e12, " T"}, {1e9, " B"}, {1e6, " M"}})
        if (tokens >= factor) {
            value = tokens / factor;
            suffix = name;
            break;
        }
    char text[32];
    std::snprintf(text, sizeof text, "%.3g%s", value, suffix);
    return text;
}

} // namespace

std::vector<SimulationFigure> runtimeEstimateFigures(const PortfolioSimulation &simulation)
{
    std::vector<SimulationFigure> figures;
    for (const ClassRuntimeEstimate &e : simulation.runtimes) {
        char rate[160];
        std::snprintf(rate, sizeof rate, "(TP %d, PP %d, DP %s; MFU %.1f%%)", e.tensorParallel,
                      e.pipelineParallel, groupedCount(e.dataParallel).c_str(), 100 * e.mfu);
        char share[96];
        std::snprintf(share, sizeof share, "; scale-out communication %.1f%% of the step",
                      100 * e.networkShare);
        figures.push_back({"runtime: " + e.className,
                           e.modelName + ", " + tokenCount(e.tokensPerJob) + " tokens on "
                               + groupedCount(e.gpus) + " " + e.gpuName + ": "
                               + humanWait(e.runtimeSeconds) + " a job " + rate + share});
    }
    return figures;
}

std::vector<SimulationFigure> simulationFigures(const SimulationResult &r)
{
    std::vector<SimulationFigure> figures;
    figures.push_back(
        {"offered load",
         percentText(r.offeredLoad)
             + " of the GPUs"
             // The run's arrivals are a random sample of the classes' rates: said
             // when theirs differs visibly (a short run, a rare big class).
             + (std::abs(r.arrivedLoad - r.offeredLoad) >= 0.02
                    ? " in the long run; this run's arrivals brought " + percentText(r.arrivedLoad)
                    : std::string())
             + (r.offeredLoad > 1 ? " (more than the cluster: the queue grows "
                                    "without bound)"
                                  : "")});
    figures.push_back({"utilisation (allocated)", percentText(r.utilisation)});
    figures.push_back({"useful utilisation",
                       percentText(r.usefulUtilisation)
                           + " (less work lost to failures, preemptions, restarts and "
                             "scattered placements)"});
    figures.push_back({"fragmentation",
                       percentText(r.fragmentation)
                           + " of GPU-time free but unusable by the first "
                             "queued job"});
    figures.push_back(
        {"failures",
         countOf(r.interruptions, "job", "jobs")
             + (r.replicaInterruptions > 0 ? " and "
                        + countOf(r.replicaInterruptions, "service replica", "service replicas")
                                           : std::string())
             + " stopped by server failures, " + gpuHours(r.gpuHoursLostToFailures)
             + " of batch work and restarts lost"});
    if (r.preemptions > 0)
        figures.push_back({"preemptions",
                           groupedCount(r.preemptions)
                               + " batch jobs stopped for service replicas, "
                               + gpuHours(r.gpuHoursLostToPreemption) + " lost"});
    if (r.gpuHoursLostToScatter > 0)
        figures.push_back({"scattered placements",
                           gpuHours(r.gpuHoursLostToScatter)
                               + " lost by jobs placed under more leaves than they need"});
    if (!r.services.empty())
        figures.push_back({"service replica-hours served", percentText(r.serviceAttainment)});
    long long neverStarted = 0;
    for (const ClassResult &c : r.classes)
        neverStarted += c.waitingAtEnd;
    figures.push_back({"jobs",
                       groupedCount(r.jobsSubmitted) + " submitted, "
                           + groupedCount(r.jobsCompleted) + " completed, "
                           + groupedCount(r.jobsRunningAtEnd) + " running and "
                           + groupedCount(r.jobsQueuedAtEnd) + " still queued at the end"
                           + (neverStarted > 0 ? " (" + groupedCount(neverStarted)
                                      + " never started: the waits marked ≥ count them at "
                                        "their wait so far)"
                                               : std::string())});
    return figures;
}

std::vector<ServiceRow> serviceRows(const SimulationResult &result)
{
    std::vector<ServiceRow> rows;
    for (const ServiceResult &service : result.services) {
        char demanded[48];
        char served[48];
        std::snprintf(demanded, sizeof demanded, "%.0f", service.demandedReplicaHours);
        std::snprintf(served, sizeof served, "%.0f", service.servedReplicaHours);
        rows.push_back({service.name, groupThousands(demanded), groupThousands(served),
                        percentText(service.attainment())});
    }
    return rows;
}

std::vector<ClassWaitRow> classWaitRows(const SimulationResult &result,
                                        const PortfolioPlan &portfolio)
{
    std::vector<ClassWaitRow> rows;
    for (std::size_t i = 0; i < result.classes.size(); ++i) {
        const ClassResult &c = result.classes[i];
        std::string runsIn = "any server";
        if (i < portfolio.classes.size()) {
            const JobClass &job = portfolio.classes[i];
            if (!job.partition.empty())
                runsIn = "partition " + job.partition;
            if (job.maxRunningGpus > 0)
                runsIn += ", at most " + groupedCount(job.maxRunningGpus) + " GPUs";
        }
        // A class with no job started or waiting has no waits to show; one whose jobs still
        // wait at the end has waits that are lower bounds.
        const auto wait = [&](double seconds) {
            if (!c.hasWaits())
                return std::string("-");
            // A bound of 0 s says nothing: no wait is shorter.
            return (c.waitsAreLowerBounds() && seconds > 0 ? "≥ " : "") + humanWait(seconds);
        };
        rows.push_back({c.name, runsIn, groupedCount(c.submitted), groupedCount(c.started),
                        wait(c.meanWaitSeconds), wait(c.waitP50Seconds), wait(c.waitP95Seconds),
                        wait(c.waitP99Seconds), groupedCount(c.scatteredStarts),
                        groupedCount(c.heldByLimit)});
    }
    return rows;
}

SeedSpread seedSpread(std::vector<double> seconds, bool anyLowerBound)
{
    SeedSpread spread;
    spread.anyLowerBound = anyLowerBound;
    if (seconds.empty())
        return spread;
    spread.lowestSeconds = *std::min_element(seconds.begin(), seconds.end());
    spread.highestSeconds = *std::max_element(seconds.begin(), seconds.end());
    spread.medianSeconds = median(std::move(seconds));
    return spread;
}

namespace {

/** "2.8 days (15 h to 4.2 days)", "≥ ..." when a run counted jobs still waiting at its end. */
std::string spreadText(const SeedSpread &spread)
{
    const std::string bound = spread.anyLowerBound && spread.highestSeconds > 0 ? "≥ " : "";
    if (spread.lowestSeconds == spread.highestSeconds)
        return bound + humanWait(spread.medianSeconds) + " (every run)";
    return bound + humanWait(spread.medianSeconds) + " (" + humanWait(spread.lowestSeconds) + " to "
        + humanWait(spread.highestSeconds) + ")";
}

} // namespace

std::vector<ClassWaitSpread> classWaitSpreads(const std::vector<SimulationResult> &runs)
{
    std::vector<ClassWaitSpread> spreads;
    if (runs.empty())
        return spreads;
    for (std::size_t i = 0; i < runs.front().classes.size(); ++i) {
        std::vector<double> p95;
        std::vector<double> mean;
        bool lowerBound = false;
        for (const SimulationResult &run : runs) {
            if (i >= run.classes.size() || !run.classes[i].hasWaits())
                continue;
            const ClassResult &c = run.classes[i];
            p95.push_back(c.waitP95Seconds);
            mean.push_back(c.meanWaitSeconds);
            lowerBound = lowerBound || c.waitsAreLowerBounds();
        }
        ClassWaitSpread spread {runs.front().classes[i].name, std::nullopt, std::nullopt};
        if (!p95.empty()) {
            spread.waitP95 = seedSpread(p95, lowerBound);
            spread.meanWait = seedSpread(mean, lowerBound);
        }
        spreads.push_back(std::move(spread));
    }
    return spreads;
}

std::vector<ClassWaitSpreadRow> classWaitSpreadRows(const std::vector<SimulationResult> &runs)
{
    std::vector<ClassWaitSpreadRow> rows;
    for (const ClassWaitSpread &spread : classWaitSpreads(runs)) {
        ClassWaitSpreadRow row {spread.name, "-", "-", "-"};
        if (spread.waitP95) {
            row.waitP95 = spreadText(*spread.waitP95);
            row.meanWait = spreadText(*spread.meanWait);
            if (spread.waitP95->lowestSeconds > 0)
                row.p95Ratio
                    = formatNumber("%.1f",
                                   spread.waitP95->highestSeconds / spread.waitP95->lowestSeconds)
                    + "x";
        }
        rows.push_back(std::move(row));
    }
    return rows;
}

std::string portfolioSummaryText(const PortfolioSimulation &simulation)
{
    if (!simulation.ok())
        return {};
    const SimulationResult &result = simulation.result;
    const std::size_t days = result.dailyUtilisation.size();
    std::string text = (days > 0 ? "over " + groupedCount(static_cast<long long>(days))
                                + (days == 1 ? " simulated day: " : " simulated days: ")
                                 : std::string())
        + "GPUs busy " + percentText(result.utilisation) + " (useful "
        + percentText(result.usefulUtilisation) + ")";
    if (result.offeredLoad > 1.0)
        text += ", offered " + percentText(result.offeredLoad, 0)
            + " of the GPUs: the queue grows without bound";
    std::string waits;
    for (const ClassResult &c : result.classes)
        waits += (waits.empty() ? "" : ", ") + c.name + " "
            + (c.waitsAreLowerBounds() && c.waitP95Seconds > 0 ? "≥ " : "")
            + humanWait(c.waitP95Seconds);
    if (!waits.empty())
        text += "; p95 wait: " + waits;
    if (!result.services.empty() && result.serviceAttainment < 1.0)
        text += "; services get " + percentText(result.serviceAttainment)
            + " of the replica-hours they ask for";
    return text;
}

} // namespace cp::model
