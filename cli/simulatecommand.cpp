// SPDX-License-Identifier: GPL-3.0-or-later
// `plan simulate`: the plan's job portfolio through its scheduler for a simulated period.
#include "simulatecommand.h"

#include "table.h"

#include "model/core/atomicfile.h"
#include "model/core/humantext.h"
#include "model/core/inputerror.h"
#include "model/core/inputfile.h"
#include "model/planning/portfoliosimulation.h"
#include "model/planning/simulationsummary.h"
#include "model/scheduling/workloadtrace.h"

#include <algorithm>
#include <chrono>
#include <fstream>
#include <sstream>

namespace cp::cli {

namespace {

constexpr double hour = 3600.0;

std::string policyName(model::SchedulingPolicy policy)
{
    switch (policy) {
    case model::SchedulingPolicy::Fifo:
        return "fifo";
    case model::SchedulingPolicy::BestEffortFifo:
        return "kueue";
    case model::SchedulingPolicy::EasyBackfill:
        break;
    }
    return "backfill";
}

std::string policyTitle(model::SchedulingPolicy policy)
{
    switch (policy) {
    case model::SchedulingPolicy::Fifo:
        return "priority FIFO";
    case model::SchedulingPolicy::BestEffortFifo:
        return "Kueue best-effort FIFO (whole jobs, no reservation)";
    case model::SchedulingPolicy::EasyBackfill:
        break;
    }
    return "EASY backfill";
}

nlohmann::json servicesToJson(const model::SimulationResult &r)
{
    nlohmann::json services = nlohmann::json::array();
    for (const model::ServiceResult &s : r.services)
        services.push_back({{"name", s.name},
                            {"demanded_replica_hours", s.demandedReplicaHours},
                            {"served_replica_hours", s.servedReplicaHours},
                            {"attainment", s.attainment()}});
    return services;
}

/** The training estimates behind model classes' runtimes. */
nlohmann::json runtimesToJson(const model::PortfolioSimulation &simulation)
{
    nlohmann::json runtimes = nlohmann::json::array();
    for (const model::ClassRuntimeEstimate &e : simulation.runtimes)
        runtimes.push_back({{"class", e.className},
                            {"model", e.modelName},
                            {"gpu", e.gpuName},
                            {"gpus", e.gpus},
                            {"tokens", e.tokensPerJob},
                            {"runtime_h", e.runtimeSeconds / hour},
                            {"mfu", e.mfu},
                            {"tp", e.tensorParallel},
                            {"pp", e.pipelineParallel},
                            {"dp", e.dataParallel},
                            {"network_share", e.networkShare}});
    return runtimes;
}

nlohmann::json simulationToJson(const model::PortfolioSimulation &simulation,
                                const model::Plan &plan, const model::SimulationOptions &options,
                                double seconds)
{
    const model::SimulationResult &r = simulation.result;
    const long long gpus = simulation.cluster.totalGpus();
    nlohmann::json waitP95 = nlohmann::json::object();
    nlohmann::json classes = nlohmann::json::array();
    for (std::size_t i = 0; i < r.classes.size(); ++i) {
        const model::ClassResult &c = r.classes[i];
        // A class with no job started or waiting has no waits: null, as the text's "-".
        const auto hours = [&c](double seconds) {
            return c.hasWaits() ? nlohmann::json(seconds / hour) : nlohmann::json(nullptr);
        };
        waitP95[c.name] = hours(c.waitP95Seconds);
        nlohmann::json row = {{"name", c.name},
                              {"submitted", c.submitted},
                              {"started", c.started},
                              // Jobs never started by the end: their wait so far is in the
                              // waits, which are then lower bounds.
                              {"waiting_at_end", c.waitingAtEnd},
                              {"waits_are_lower_bounds", c.waitsAreLowerBounds()},
                              {"mean_wait_h", hours(c.meanWaitSeconds)},
                              {"wait_p50_h", hours(c.waitP50Seconds)},
                              {"wait_p95_h", hours(c.waitP95Seconds)},
                              {"wait_p99_h", hours(c.waitP99Seconds)},
                              {"scattered_starts", c.scatteredStarts},
                              {"held_by_limit", c.heldByLimit}};
        if (i < simulation.classes.size()) {
            const model::JobClass &job = simulation.classes[i];
            row["runtime_h"] = job.meanRuntimeSeconds / hour;
            row["partition"]
                = job.partition.empty() ? nlohmann::json(nullptr) : nlohmann::json(job.partition);
            row["max_gpus"] = job.maxRunningGpus > 0 ? nlohmann::json(job.maxRunningGpus)
                                                     : nlohmann::json(nullptr);
            row["network_share"] = job.networkShare.value_or(0);
        }
        classes.push_back(std::move(row));
    }
    return {{"policy", policyName(plan.portfolio.policy)},
            {"topology_aware", plan.portfolio.topologyAware},
            {"placement", plan.portfolio.spread ? "spread" : "binpack"},
            {"years", options.horizonSeconds / (365.0 * 86400.0)},
            {"seed", options.seed},
            {"servers", simulation.cluster.gpusPerServer.size()},
            {"gpus", gpus},
            {"servers_per_leaf", simulation.cluster.serversPerLeaf},
            {"leaf_down_up_ratio", simulation.cluster.leafDownUpRatio},
            {"server_mtbf_h", simulation.cluster.serverMtbfSeconds / hour},
            {"offered_load", r.offeredLoad},
            {"arrived_load", r.arrivedLoad},
            {"utilisation", r.utilisation},
            {"useful_utilisation", r.usefulUtilisation},
            {"fragmentation", r.fragmentation},
            {"gpu_hours_lost_to_failures", r.gpuHoursLostToFailures},
            {"interruptions", r.interruptions},
            {"replica_interruptions", r.replicaInterruptions},
            {"preemptions", r.preemptions},
            {"gpu_hours_lost_to_preemption", r.gpuHoursLostToPreemption},
            {"gpu_hours_lost_to_scatter", r.gpuHoursLostToScatter},
            {"jobs_submitted", r.jobsSubmitted},
            {"jobs_completed", r.jobsCompleted},
            {"jobs_queued_at_end", r.jobsQueuedAtEnd},
            {"jobs_running_at_end", r.jobsRunningAtEnd},
            {"wait_p95_h", std::move(waitP95)},
            {"classes", std::move(classes)},
            // Replica-time served over asked for, all services; null without services.
            {"slo_attainment",
             r.services.empty() ? nlohmann::json(nullptr) : nlohmann::json(r.serviceAttainment)},
            {"services", servicesToJson(r)},
            {"runtime_estimates", runtimesToJson(simulation)},
            {"events", r.events},
            {"seconds", seconds}};
}

void printSimulationText(const model::PortfolioSimulation &simulation, const model::Plan &plan,
                         const model::SimulationOptions &options, std::ostream &out)
{
    const model::SimulationResult &r = simulation.result;
    const long long gpus = simulation.cluster.totalGpus();
    const double years = options.horizonSeconds / (365.0 * 86400.0);
    const std::size_t servers = simulation.cluster.gpusPerServer.size();
    out << "Simulated "
        << (years >= 0.1 ? format("%.3g", years) + " year(s)"
                         : model::humanDuration(options.horizonSeconds))
        << " of " << plan.name << ": " << model::groupedCount(gpus) << " GPUs in " << servers
        << (servers == 1 ? " server, " : " servers, ") << simulation.cluster.serversPerLeaf
        << " under each leaf (leaves " << format("%.3g", simulation.cluster.leafDownUpRatio)
        << ":1 down:up), " << policyTitle(plan.portfolio.policy)
        << (plan.portfolio.topologyAware ? ", leaf-aware placement" : "")
        << (plan.portfolio.spread ? ", small jobs spread" : "") << ", seed " << options.seed
        << "\n\n";
    Table summary({"figure", "value"});
    for (const model::SimulationFigure &figure : model::runtimeEstimateFigures(simulation))
        summary.addRow({figure.figure, figure.value});
    for (const model::SimulationFigure &figure : model::simulationFigures(r))
        summary.addRow({figure.figure, figure.value});
    out << summary.render() << "\n";
    Table classes({"class", "runs in", "submitted", "started", "mean wait", "p50", "p95", "p99",
                   "scattered (re)starts", "held by limit"});
    for (const model::ClassWaitRow &row : model::classWaitRows(r, plan.portfolio))
        classes.addRow({row.name, row.runsIn, row.submitted, row.started, row.meanWait, row.waitP50,
                        row.waitP95, row.waitP99, row.scatteredStarts, row.heldByLimit});
    out << classes.render();
    if (!r.services.empty()) {
        Table services({"service", "replica-hours asked", "served", "attained"});
        for (const model::ServiceRow &row : model::serviceRows(r))
            services.addRow(
                {row.name, row.demandedReplicaHours, row.servedReplicaHours, row.attainment});
        out << "\n" << services.render();
    }
}

/** The most seeds `--seeds` runs: ten simulations of the largest plan take about 100 s. */
constexpr long long maxSeeds = 10;

/** Each class's p95 and mean wait over the runs, in hours: median, lowest, highest. */
nlohmann::json seedSpreadToJson(const std::vector<model::SimulationResult> &runs,
                                std::uint64_t firstSeed)
{
    nlohmann::json classes = nlohmann::json::array();
    const auto hours = [](const std::optional<model::SeedSpread> &spread) {
        if (!spread)
            return nlohmann::json(nullptr);
        return nlohmann::json {{"median", spread->medianSeconds / hour},
                               {"lowest", spread->lowestSeconds / hour},
                               {"highest", spread->highestSeconds / hour}};
    };
    for (const model::ClassWaitSpread &spread : model::classWaitSpreads(runs))
        classes.push_back(
            {{"name", spread.name},
             {"wait_p95_h", hours(spread.waitP95)},
             {"mean_wait_h", hours(spread.meanWait)},
             {"waits_are_lower_bounds", spread.waitP95 && spread.waitP95->anyLowerBound}});
    nlohmann::json utilisation = nlohmann::json::array();
    for (const model::SimulationResult &run : runs)
        utilisation.push_back(run.utilisation);
    return {{"seeds", runs.size()},
            {"first_seed", firstSeed},
            {"utilisation", std::move(utilisation)},
            {"classes", std::move(classes)}};
}

void printSeedSpread(const std::vector<model::SimulationResult> &runs, std::uint64_t firstSeed,
                     std::ostream &out)
{
    std::vector<double> busy;
    for (const model::SimulationResult &run : runs)
        busy.push_back(run.utilisation);
    std::sort(busy.begin(), busy.end());
    out << "\nThe same plan over " << runs.size() << " seeds (" << firstSeed << " to "
        << firstSeed + runs.size() - 1 << "): the median run's wait, then the lowest and the "
        << "highest; GPUs busy " << model::percentText(busy.front()) << " to "
        << model::percentText(busy.back()) << "\n";
    Table spread(
        {"class", "p95 wait over the seeds", "mean wait over the seeds", "highest p95 / lowest"});
    for (const model::ClassWaitSpreadRow &row : model::classWaitSpreadRows(runs))
        spread.addRow({row.name, row.waitP95, row.meanWait, row.p95Ratio});
    out << spread.render();
}

model::WorkloadTrace readTrace(const std::string &file)
{
    const std::string content = model::readInputFile(file, model::maxTraceFileBytes);
    // Slurm accounting (sacct --parsable2) separates its fields with '|'; SWF with blanks.
    const auto firstLine = content.substr(0, content.find('\n'));
    const model::WorkloadTrace trace = firstLine.find('|') != std::string::npos
        ? model::parseSlurmAccounting(content, file)
        : model::parseStandardWorkloadFormat(content, file);
    if (trace.jobs.empty())
        throw model::InputError(file, "",
                                "the trace has no job to replay ("
                                    + model::groupedCount(trace.skippedLines)
                                    + " lines without a run time or GPU count were skipped)");
    return trace;
}

/**
 * `--target-wait CLASS=HOURS`: the fewest servers of the plan's first group at which CLASS's
 * p95 wait stays within HOURS (a quarter of a year simulated per step unless --years says).
 */
int runTargetWait(const std::string &target, const ParsedArguments &a, const model::Plan &plan,
                  const model::Catalog &catalog, model::SimulationOptions options,
                  std::ostream &out)
{
    const auto equals = target.rfind('=');
    double hours = 0;
    try {
        hours = equals == std::string::npos ? -1 : std::stod(target.substr(equals + 1));
    } catch (const std::exception &) {
        hours = -1;
    }
    if (equals == std::string::npos || equals == 0 || !(hours > 0) || hours > 1e5)
        throw UsageError("--target-wait: expected CLASS=HOURS (e.g. research=24), found '" + target
                         + "'");
    const std::string className = target.substr(0, equals);
    if (!a.has("years"))
        options.horizonSeconds = 0.25 * 365.0 * 86400.0;
    const model::TargetWaitSizing sizing
        = model::serversForTargetWait(plan, catalog, className, hours * hour, options);
    if (!sizing.error.empty())
        throw InfeasibleError(sizing.error);
    if (a.has("json")) {
        out << nlohmann::json {{"class", className},
                               {"target_wait_p95_h", hours},
                               {"servers", sizing.servers},
                               {"gpus", sizing.gpus},
                               {"wait_p95_h", sizing.waitP95Seconds / hour},
                               {"simulations", sizing.simulations},
                               {"years", options.horizonSeconds / (365.0 * 86400.0)}}
                   .dump(2)
            << "\n";
        return ExitOk;
    }
    out << className << ": a p95 wait within " << format("%.3g h", hours) << " needs "
        << model::groupedCount(sizing.servers) << " servers of " << plan.nodeGroups.front().name
        << " (" << model::groupedCount(sizing.gpus) << " GPUs; p95 "
        << format("%.2f h", sizing.waitP95Seconds / hour) << " there, " << sizing.simulations
        << " simulations of " << format("%.3g", options.horizonSeconds / (365.0 * 86400.0))
        << " year(s))\n";
    return ExitOk;
}

} // namespace

int runPlanSimulate(const ParsedArguments &a, const std::string &planPath, const model::Plan &plan,
                    const model::Catalog &catalog, std::ostream &out)
{
    model::SimulationOptions options;
    options.horizonSeconds = a.number("years", 1e-4, 10.0).value_or(1.0) * 365.0 * 86400.0;
    model::WorkloadTrace replayed;
    options.seed = static_cast<std::uint64_t>(a.integer("seed", 0, 1 << 30).value_or(1));
    model::Plan simulated = plan;
    if (auto policy = a.choice("policy", {"fifo", "backfill", "kueue"}))
        simulated.portfolio.policy = *policy == "fifo" ? model::SchedulingPolicy::Fifo
            : *policy == "kueue"                       ? model::SchedulingPolicy::BestEffortFifo
                                                       : model::SchedulingPolicy::EasyBackfill;
    std::vector<model::TraceJob> trace;
    double traceSpanSeconds = 0;
    if (auto file = a.value("trace")) {
        replayed = readTrace(*file);
        trace = replayed.jobs;
        simulated.portfolio.classes.clear(); // replayed instead of the job classes
        // A trace is replayed over its own span unless --years says otherwise: a month of
        // sacct over a default year showed an 80% loaded cluster 6.6% busy.
        traceSpanSeconds = model::traceSpanSeconds(trace);
        if (!a.has("years"))
            options.horizonSeconds = std::max(60.0, traceSpanSeconds);
    }
    if (auto target = a.value("target-wait"))
        return runTargetWait(*target, a, simulated, catalog, options, out);
    const int seeds = static_cast<int>(a.integer("seeds", 1, maxSeeds).value_or(1));
    options.recordJobs = a.has("trace-out");
    const auto started = std::chrono::steady_clock::now();
    const model::PortfolioSimulation simulation
        = model::simulatePlanPortfolio(simulated, catalog, options, trace);
    const double seconds
        = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
    // About one entry of the plan: its file and pointer, as a parse error names them.
    if (!simulation.ok())
        throw InfeasibleError(simulation.errorPointer.empty() ? simulation.error
                                                              : planPath + ": "
                                      + simulation.errorPointer + ": " + simulation.error);
    if (auto file = a.value("trace-out"))
        model::writeFileAtomically(
            *file, model::writeStandardWorkloadFormat(simulation.result.jobs, plan.name));
    // The same plan under the next seeds: how far one run's waits are from another's.
    std::vector<model::SimulationResult> runs {simulation.result};
    for (int run = 1; run < seeds; ++run) {
        model::SimulationOptions next = options;
        next.seed = options.seed + static_cast<std::uint64_t>(run);
        next.recordJobs = false;
        runs.push_back(model::simulatePlanPortfolio(simulated, catalog, next, trace).result);
    }
    if (a.has("json")) {
        nlohmann::json json = simulationToJson(simulation, simulated, options, seconds);
        if (seeds > 1)
            json["seed_spread"] = seedSpreadToJson(runs, options.seed);
        json["trace_jobs_too_large"] = simulation.traceJobsTooLarge;
        json["trace_lines_skipped"] = replayed.skippedLines;
        json["trace_span_days"] = traceSpanSeconds > 0 ? nlohmann::json(traceSpanSeconds / 86400.0)
                                                       : nlohmann::json(nullptr);
        out << json.dump(2) << "\n";
    } else {
        printSimulationText(simulation, simulated, options, out);
        if (seeds > 1)
            printSeedSpread(runs, options.seed, out);
        else if (trace.empty())
            out << "\nnote: one draw of the arrivals, runtimes and failures (seed " << options.seed
                << "); near saturation a class's p95 wait can move several times over between "
                   "draws: --seeds 5 shows how far\n";
        if (replayed.skippedLines > 0)
            out << "\nnote: " << model::groupedCount(replayed.skippedLines)
                << " lines of the trace have no run time or GPU count (SWF's -1, or jobs that "
                   "never started) and are not replayed\n";
        if (a.has("years") && traceSpanSeconds > 0
            && options.horizonSeconds > 1.1 * traceSpanSeconds)
            out << "\nnote: the trace spans " << model::humanDuration(traceSpanSeconds)
                << " of the " << model::humanDuration(options.horizonSeconds)
                << " simulated: the load and the utilisation are over the whole period, in which "
                   "the trace brings no work after its span; leave out --years to replay it over "
                   "its own\n";
        if (simulation.traceJobsTooLarge > 0)
            out << "\nnote: " << model::groupedCount(simulation.traceJobsTooLarge)
                << " of the trace's " << model::groupedCount(static_cast<long long>(trace.size()))
                << " jobs ask for more GPUs than the plan's "
                << model::groupedCount(simulation.cluster.totalGpus()) << " (the largest "
                << model::groupedCount(simulation.largestTraceJobGpus)
                << "): they never start and are counted neither as submitted nor in the offered "
                   "load\n";
    }
    return ExitOk;
}

void writeSlurmConfiguration(const model::Plan &plan, const model::Catalog &catalog,
                             const std::string &directory, std::ostream &out)
{
    std::error_code error;
    std::filesystem::create_directories(directory, error);
    if (error)
        throw std::runtime_error(directory + ": " + error.message());
    const model::SlurmConfiguration conf = model::slurmConfiguration(plan, catalog);
    model::writeFileAtomically((std::filesystem::path(directory) / "slurm.conf").string(),
                               conf.slurmConf);
    model::writeFileAtomically((std::filesystem::path(directory) / "topology.conf").string(),
                               conf.topologyConf);
    out << "wrote " << directory << " (slurm.conf node and partition lines, topology.conf)\n";
}

} // namespace cp::cli
