// SPDX-License-Identifier: GPL-3.0-or-later
#include "model/planning/portfoliosimulation.h"

#include "model/catalog/catalog.h"
#include "model/core/humantext.h"
#include "model/core/units.h"
#include "model/fabric/fabricdesign.h"
#include "model/operations/operationsestimator.h"
#include "model/plan/plan.h"
#include "model/planning/planfabric.h"
#include "model/planning/planworstfailure.h"
#include "model/training/trainingestimator.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>
#include <map>
#include <set>
#include <sstream>

namespace cp::model {

namespace {

/**
 * Why `gpus` cannot be placed as asked: more than one server's and not a whole number of them.
 * A job that spans servers takes them whole (ServerPool::place, as Slurm's exclusive multi-node
 * jobs do), so 12 GPUs on servers of 8 would hold 16 and leave 4 idle that no figure counts.
 * Empty when it can.
 */
std::string wholeServersProblem(const std::string &what, int gpus, int largestServer)
{
    if (largestServer <= 0 || gpus <= largestServer || gpus % largestServer == 0)
        return {};
    const int fewer = gpus / largestServer * largestServer;
    return what + " needs " + std::to_string(gpus) + " GPUs, more than one server's "
        + std::to_string(largestServer)
        + " and not a whole number of servers: a job that spans "
          "servers takes them whole, so ask for "
        + std::to_string(fewer) + " or " + std::to_string(fewer + largestServer);
}

std::string joined(const std::vector<std::string> &names)
{
    std::string text;
    for (const std::string &name : names)
        text += (text.empty() ? "" : ",") + name;
    return text;
}

std::string serverName(const std::string &group, long long serial)
{
    char digits[24];
    std::snprintf(digits, sizeof digits, "-%04lld", serial);
    return slugOf(group) + digits;
}

/** The switch an endpoint is cabled to (its leaf, router or first switch). */
FabricVertexId switchOf(const FabricGraph &graph, FabricVertexId endpoint)
{
    const auto &g = graph.storage();
    for (auto [it, end] = boost::out_edges(endpoint, g); it != end; ++it) {
        const FabricVertexId other = boost::target(*it, g);
        if (g[other].role == FabricVertexRole::Switch)
            return other;
    }
    return endpoint;
}

/**
 * The largest down:up bandwidth ratio of the switches endpoints are cabled to (a leaf without
 * uplinks, a one-switch fabric, joins nothing and counts as 1).
 */
double leafDownUpRatio(const FabricGraph &graph)
{
    const auto &g = graph.storage();
    double worst = 1;
    for (FabricVertexId v = 0; v < graph.vertexCount(); ++v) {
        if (g[v].role != FabricVertexRole::Switch)
            continue;
        double down = 0;
        double up = 0;
        for (auto [it, end] = boost::out_edges(v, g); it != end; ++it) {
            const FabricVertex &other = g[boost::target(*it, g)];
            if (other.isEndpoint())
                down += g[*it].bytesPerSecond;
            else if (other.role == FabricVertexRole::Switch)
                up += g[*it].bytesPerSecond;
        }
        if (down > 0 && up > 0)
            worst = std::max(worst, down / up);
    }
    return worst;
}

/** Groups the fabric's servers by their lowest switch (scalable unit for a rail fabric). */
void groupByLeaf(SchedulerTopology &topology, const Plan &plan, const Catalog &catalog,
                 const std::vector<int> &fabricServers)
{
    const std::optional<PlanFabric> fabric = planFabric(plan, catalog);
    if (!fabric)
        return;
    FabricGraph graph;
    try {
        graph = generatePlanFabric(*fabric);
    } catch (const std::exception &) {
        return; // an unbuildable fabric has no leaves; the estimate reports why
    }
    const bool rail = fabric->design.topology == FabricTopology::RailFatTree;
    const int endpointsPerNode = planEndpointsPerNode(plan, *fabric);
    std::map<std::string, int> leafIndex;
    std::map<std::string, int> podIndex;
    for (std::size_t n = 0; n < fabricServers.size(); ++n) {
        const std::size_t endpoint = n * static_cast<std::size_t>(endpointsPerNode);
        if (endpoint >= graph.endpoints().size())
            break;
        const FabricVertex &leaf = graph.vertex(switchOf(graph, graph.endpoints()[endpoint]));
        const std::string leafName = rail ? "su" + std::to_string(leaf.group) : leaf.label;
        const std::string podName
            = leaf.group >= 0 && !rail ? "pod" + std::to_string(leaf.group) : std::string("all");
        auto [pod, newPod] = podIndex.emplace(podName, static_cast<int>(podIndex.size()));
        if (newPod)
            topology.podNames.push_back(podName);
        auto [it, inserted] = leafIndex.emplace(leafName, static_cast<int>(leafIndex.size()));
        if (inserted) {
            topology.leafNames.push_back(leafName);
            topology.podOfLeaf.push_back(pod->second);
        }
        topology.leafOfServer[fabricServers[n]] = it->second;
    }
    int tiers = 0;
    for (FabricVertexId v = 0; v < graph.vertexCount(); ++v)
        tiers = std::max(tiers, graph.vertex(v).tier);
    topology.topName = fabricTierName(std::max(2, tiers));
    topology.leafDownUpRatio = leafDownUpRatio(graph);
}

/** The server groups the portfolio's classes are confined to: its partitions, in plan order. */
std::vector<ServerPartition> partitionGroups(const Plan &plan, const SchedulerTopology &topology)
{
    std::vector<ServerPartition> partitions;
    for (const ServerPartition &group : topology.groups)
        if (std::any_of(plan.portfolio.classes.begin(), plan.portfolio.classes.end(),
                        [&](const JobClass &job) { return job.partition == group.name; }))
            partitions.push_back(group);
    return partitions;
}

} // namespace

SchedulerTopology schedulerTopology(const Plan &plan, const Catalog &catalog)
{
    SchedulerTopology topology;
    topology.topName = "spine";
    std::vector<int> fabricServers;
    long long serial = 0;
    for (const NodeGroup &group : plan.nodeGroups) {
        const NodeSpec &node = catalog.node(group.nodeId);
        const int first = static_cast<int>(topology.serverNames.size());
        topology.groups.push_back({group.name, first, first + group.count});
        for (int i = 0; i < group.count; ++i) {
            if (group.onFabric && plan.fabric.topology != "none")
                fabricServers.push_back(static_cast<int>(topology.serverNames.size()));
            topology.serverNames.push_back(serverName(group.name, ++serial));
            topology.gpusPerServer.push_back(node.gpusPerNode);
            topology.cpusPerServer.push_back(node.cpuCores);
            topology.memoryBytesPerServer.push_back(node.hostMemoryBytes);
        }
    }
    topology.leafOfServer.assign(topology.serverNames.size(), -1);
    groupByLeaf(topology, plan, catalog, fabricServers);
    const auto first = std::find(topology.leafOfServer.begin(), topology.leafOfServer.end(), 0);
    topology.serversPerLeaf = first == topology.leafOfServer.end()
        ? std::max<int>(1, static_cast<int>(topology.serverNames.size()))
        : static_cast<int>(
            std::count(topology.leafOfServer.begin(), topology.leafOfServer.end(), 0));
    return topology;
}

SchedulerCluster schedulerCluster(const Plan &plan, const Catalog &catalog,
                                  const SchedulerTopology &topology)
{
    SchedulerCluster cluster;
    cluster.gpusPerServer = topology.gpusPerServer;
    cluster.serversPerLeaf = topology.serversPerLeaf;
    cluster.leafDownUpRatio = topology.leafDownUpRatio;
    // Only the groups a class names become partitions: without any, the scheduler's queue
    // needs no per-partition pass.
    cluster.partitions = partitionGroups(plan, topology);
    // The servers' failure rate, weighted by how many of each type there are.
    double failuresPerSecond = 0;
    long long servers = 0;
    for (const NodeGroup &group : plan.nodeGroups) {
        const NodeSpec &node = catalog.node(group.nodeId);
        const GpuSpec &gpu = catalog.gpu(node.gpuId);
        const std::string nicId = plan.fabric.nicId.empty() ? node.nicId : plan.fabric.nicId;
        const int nics = plan.fabric.nicsPerNode > 0 ? plan.fabric.nicsPerNode : node.nicsPerNode;
        const FailureExposure parts[] = {{"GPUs", node.gpusPerNode, gpu.mtbfHours},
                                         {"host", 1, node.mtbfHours},
                                         {"NICs", nics, catalog.nic(nicId).mtbfHours}};
        double perDay = 0;
        for (const FailureExposure &part : parts)
            perDay += part.interruptionsPerDay();
        failuresPerSecond += group.count * perDay / units::secondsPerDay;
        servers += group.count;
    }
    cluster.serverMtbfSeconds
        = failuresPerSecond > 0 ? static_cast<double>(servers) / failuresPerSecond : 0.0;
    return cluster;
}

namespace {

/** The training estimate of a class that names a model, on its partition or the fabric servers. */
std::string estimateClassRuntime(const Plan &plan, const Catalog &catalog, JobClass &job,
                                 ClassRuntimeEstimate &estimate)
{
    Plan training = plan;
    training.workloadType = WorkloadType::Training;
    training.trainingModelId = job.modelId;
    training.trainingDatasetId.clear();
    training.training.tokens = job.tokensPerJob;
    if (!job.partition.empty())
        std::erase_if(training.nodeGroups,
                      [&](const NodeGroup &group) { return group.name != job.partition; });
    const std::optional<PlanTrainingSetup> setup = planTrainingSetup(training, catalog);
    if (!setup)
        return "job class '" + job.name + "' trains " + job.modelId
            + ", but none of its servers is on the fabric";
    ClusterDescription cluster = setup->cluster;
    cluster.gpus = job.gpus;
    const TrainingSearchResult search = TrainingEstimator(setup->job, cluster).search();
    if (!search.found)
        return "job class '" + job.name + "' cannot train " + setup->job.model.name + " on "
            + std::to_string(job.gpus) + " GPUs: " + search.reason;
    const TrainingEstimate &best = search.best;
    const StepBreakdown &step = best.breakdown;
    const double scaleOut
        = step.dpCommExposedSeconds + step.ppCommSeconds + step.cpCommSeconds + step.epCommSeconds;
    estimate = {job.name,
                setup->job.model.name,
                cluster.gpu.name,
                job.gpus,
                job.tokensPerJob,
                job.tokensPerJob / best.tokensPerSecond,
                best.stepSeconds > 0 ? scaleOut / best.stepSeconds : 0.0,
                best.mfu,
                best.config.tp,
                best.config.pp,
                best.config.dp};
    job.meanRuntimeSeconds = estimate.runtimeSeconds;
    if (!job.networkShare)
        job.networkShare = std::min(0.95, estimate.networkShare);
    return {};
}

} // namespace

PortfolioSimulation simulatePlanPortfolio(const Plan &givenPlan, const Catalog &catalog,
                                          SimulationOptions options,
                                          const std::vector<TraceJob> &trace,
                                          const std::function<void(double)> &progress,
                                          const std::atomic<bool> *cancel)
{
    // A trace is replayed instead of the job classes, not beside them.
    Plan replay;
    if (!trace.empty()) {
        replay = givenPlan;
        replay.portfolio.classes.clear();
    }
    const Plan &plan = trace.empty() ? givenPlan : replay;
    PortfolioSimulation simulation;
    simulation.horizonSeconds = options.horizonSeconds;
    if (plan.portfolio.classes.empty() && plan.portfolio.services.empty() && trace.empty()) {
        simulation.error = "the plan has no portfolio: add job classes under \"portfolio\"";
        return simulation;
    }
    const SchedulerTopology topology = schedulerTopology(plan, catalog);
    simulation.cluster = schedulerCluster(plan, catalog, topology);
    const long long gpus = simulation.cluster.totalGpus();
    if (gpus == 0) {
        simulation.error = "the plan has no servers to run jobs on";
        return simulation;
    }
    // A job that spans servers takes them whole: its size is checked against the largest.
    const int largestServerInPlan = *std::max_element(simulation.cluster.gpusPerServer.begin(),
                                                      simulation.cluster.gpusPerServer.end());
    for (std::size_t index = 0; index < plan.portfolio.classes.size(); ++index) {
        const JobClass &job = plan.portfolio.classes[index];
        const std::string pointer = "/portfolio/classes/" + std::to_string(index);
        long long room = gpus;
        int largestServer = largestServerInPlan;
        std::string where = "the plan has ";
        if (!job.partition.empty()) {
            const auto group = std::find_if(
                topology.groups.begin(), topology.groups.end(),
                [&](const ServerPartition &partition) { return partition.name == job.partition; });
            if (group == topology.groups.end()) {
                simulation.error = "job class '" + job.name + "' runs in partition '"
                    + job.partition + "', which is none of the plan's server groups";
                simulation.errorPointer = pointer + "/partition";
                return simulation;
            }
            room = 0;
            largestServer = 0;
            for (int server = group->firstServer; server < group->endServer; ++server) {
                const int serverGpus
                    = simulation.cluster.gpusPerServer[static_cast<std::size_t>(server)];
                room += serverGpus;
                largestServer = std::max(largestServer, serverGpus);
            }
            where = "partition '" + job.partition + "' has ";
        }
        if (job.gpus > room) {
            simulation.error = "job class '" + job.name + "' needs " + std::to_string(job.gpus)
                + " GPUs; " + where + std::to_string(room);
            simulation.errorPointer = pointer + "/gpus";
            return simulation;
        }
        simulation.error
            = wholeServersProblem("job class '" + job.name + "'", job.gpus, largestServer);
        if (!simulation.error.empty()) {
            simulation.errorPointer = pointer + "/gpus";
            return simulation;
        }
    }
    for (const TraceJob &job : trace)
        if (job.gpus > gpus) {
            ++simulation.traceJobsTooLarge;
            simulation.largestTraceJobGpus = std::max(simulation.largestTraceJobGpus, job.gpus);
        }
    // Keep a run within seconds: a year of 10,000 jobs a day (3.65 M) takes about two.
    double expectedJobs = static_cast<double>(trace.size());
    for (const JobClass &job : plan.portfolio.classes)
        expectedJobs += job.arrivalsPerSecond * options.horizonSeconds;
    if (expectedJobs > maxSimulatedJobs) {
        simulation.error = "the portfolio brings about "
            + groupThousands(std::to_string(static_cast<long long>(expectedJobs)))
            + " jobs in the simulated period; at most "
            + groupThousands(std::to_string(static_cast<long long>(maxSimulatedJobs)))
            + " are simulated: shorten the period";
        // The class that brings the most: where a rate is likely mistyped.
        std::size_t busiest = 0;
        for (std::size_t i = 1; i < plan.portfolio.classes.size(); ++i)
            if (plan.portfolio.classes[i].arrivalsPerSecond
                > plan.portfolio.classes[busiest].arrivalsPerSecond)
                busiest = i;
        if (!plan.portfolio.classes.empty())
            simulation.errorPointer = "/portfolio/classes/" + std::to_string(busiest) + "/per_day";
        return simulation;
    }
    for (std::size_t index = 0; index < plan.portfolio.services.size(); ++index) {
        const ServiceClass &service = plan.portfolio.services[index];
        if (service.gpusPerReplica > gpus) {
            simulation.error = "service '" + service.name + "' needs "
                + std::to_string(service.gpusPerReplica) + " GPUs a replica; the plan has "
                + std::to_string(gpus);
            simulation.errorPointer
                = "/portfolio/services/" + std::to_string(index) + "/gpus_per_replica";
            return simulation;
        }
        simulation.error = wholeServersProblem("service '" + service.name + "'",
                                               service.gpusPerReplica, largestServerInPlan);
        if (!simulation.error.empty()) {
            simulation.errorPointer
                = "/portfolio/services/" + std::to_string(index) + "/gpus_per_replica";
            return simulation;
        }
    }
    simulation.classes = plan.portfolio.classes;
    for (JobClass &job : simulation.classes) {
        if (job.modelId.empty())
            continue;
        ClassRuntimeEstimate estimate;
        simulation.error = estimateClassRuntime(plan, catalog, job, estimate);
        if (!simulation.error.empty())
            return simulation;
        simulation.runtimes.push_back(estimate);
    }
    options.policy = plan.portfolio.policy;
    options.topologyAware = plan.portfolio.topologyAware;
    options.spread = plan.portfolio.spread;
    options.servicesPreempt = plan.portfolio.servicesPreempt;
    simulation.result
        = simulateWorkload(simulation.cluster, {simulation.classes, plan.portfolio.services, trace},
                           options, progress, cancel);
    return simulation;
}

TargetWaitSizing serversForTargetWait(const Plan &plan, const Catalog &catalog,
                                      const std::string &className, double targetSeconds,
                                      const SimulationOptions &options)
{
    TargetWaitSizing sizing;
    const auto cls = std::find_if(plan.portfolio.classes.begin(), plan.portfolio.classes.end(),
                                  [&](const JobClass &c) { return c.name == className; });
    if (cls == plan.portfolio.classes.end() || plan.nodeGroups.empty()) {
        sizing.error = "the portfolio has no job class '" + className + "'";
        return sizing;
    }
    const std::size_t index = static_cast<std::size_t>(cls - plan.portfolio.classes.begin());
    // The class's p95 wait with `servers` in the first group; infinity when it cannot run.
    const auto waitWith = [&](int servers, long long &gpus) {
        Plan sized = plan;
        sized.nodeGroups.front().count = servers;
        const PortfolioSimulation run = simulatePlanPortfolio(sized, catalog, options);
        ++sizing.simulations;
        gpus = run.cluster.totalGpus();
        // Jobs still queued at the end have no wait yet: a size that leaves more than 5% of
        // the class unstarted misses any target.
        const ClassResult &result = run.result.classes[index];
        const bool started = run.ok() && result.started > 0
            && static_cast<double>(result.started) >= 0.95 * static_cast<double>(result.submitted);
        return started ? result.waitP95Seconds : std::numeric_limits<double>::infinity();
    };
    int low = 0; // misses the target (or cannot run)
    int high = std::max(1, plan.nodeGroups.front().count) * 16;
    long long gpus = 0;
    double wait = waitWith(high, gpus);
    if (wait > targetSeconds) {
        sizing.error = "even " + std::to_string(high) + " servers leave a p95 wait of "
            + (std::isfinite(wait) ? std::to_string(std::lround(wait / 3600.0)) + " h"
                                   : std::string("without end"));
        return sizing;
    }
    sizing = {{}, high, gpus, wait, sizing.simulations};
    while (high - low > 1) {
        const int middle = low + (high - low) / 2;
        wait = waitWith(middle, gpus);
        if (wait <= targetSeconds) {
            high = middle;
            sizing.servers = middle;
            sizing.gpus = gpus;
            sizing.waitP95Seconds = wait;
        } else {
            low = middle;
        }
    }
    return sizing;
}

std::string slurmHostList(const std::vector<std::string> &names)
{
    // Runs of prefix-NNNN with consecutive numbers collapse to prefix-[a-b].
    std::string text;
    std::size_t i = 0;
    while (i < names.size()) {
        const std::string &name = names[i];
        const std::size_t dash = name.find_last_of('-');
        const bool numberedName = dash != std::string::npos && dash + 1 < name.size()
            && name.find_first_not_of("0123456789", dash + 1) == std::string::npos;
        if (!numberedName) {
            text += (text.empty() ? "" : ",") + name;
            ++i;
            continue;
        }
        const std::string prefix = name.substr(0, dash + 1);
        const std::size_t width = name.size() - dash - 1;
        const long long first = std::stoll(name.substr(dash + 1));
        std::size_t j = i + 1;
        while (j < names.size() && names[j].size() == name.size()
               && names[j].compare(0, prefix.size(), prefix) == 0
               && std::stoll(names[j].substr(dash + 1)) == first + static_cast<long long>(j - i))
            ++j;
        if (j - i == 1) {
            text += (text.empty() ? "" : ",") + name;
        } else {
            char range[64];
            std::snprintf(range, sizeof range, "[%0*lld-%0*lld]", static_cast<int>(width), first,
                          static_cast<int>(width), first + static_cast<long long>(j - i - 1));
            text += (text.empty() ? "" : ",") + prefix + range;
        }
        i = j;
    }
    return text;
}

namespace {

/**
 * A name as a configuration file's comment may hold it: control characters (a newline, NUL) as
 * spaces. A plan named "demo\nPartitionName=evil Nodes=ALL Default=YES" put a live partition on
 * slurm.conf's second line.
 */
std::string commentText(std::string name)
{
    for (char &c : name)
        if (static_cast<unsigned char>(c) < 0x20 || c == 0x7f)
            c = ' ';
    return name;
}

/** slurm.conf's node lines (one per run of identical servers) and one partition of them all. */
std::string slurmConfText(const Plan &plan, const SchedulerTopology &topology)
{
    std::ostringstream slurm;
    slurm << "# Generated by ClusterPlanner from plan '" << commentText(plan.name) << "'\n"
          << "TopologyPlugin=topology/tree\n"
          << "GresTypes=gpu\n";
    const auto sameServer = [&](std::size_t a, std::size_t b) {
        return topology.gpusPerServer[a] == topology.gpusPerServer[b]
            && topology.cpusPerServer[a] == topology.cpusPerServer[b]
            && topology.memoryBytesPerServer[a] == topology.memoryBytesPerServer[b];
    };
    std::size_t i = 0;
    while (i < topology.serverNames.size()) {
        std::size_t j = i + 1;
        while (j < topology.serverNames.size() && sameServer(i, j))
            ++j;
        const std::vector<std::string> names(topology.serverNames.begin() + static_cast<long>(i),
                                             topology.serverNames.begin() + static_cast<long>(j));
        slurm << "NodeName=" << slurmHostList(names) << " CPUs=" << topology.cpusPerServer[i]
              << " RealMemory="
              << static_cast<long long>(topology.memoryBytesPerServer[i] / (1024.0 * 1024.0))
              << " Gres=gpu:" << topology.gpusPerServer[i] << " State=UNKNOWN\n";
        i = j;
    }
    slurm << "PartitionName=gpu Nodes=" << slurmHostList(topology.serverNames)
          << " Default=YES MaxTime=INFINITE State=UP\n";
    // The server groups the portfolio's classes are confined to, as partitions of their own.
    // Each under a name of its own: "gpu" is every server's partition already, and two groups of
    // one name made two "PartitionName=compute" lines (Slurm keeps the last).
    std::set<std::string> taken {"gpu"};
    for (const ServerPartition &group : partitionGroups(plan, topology)) {
        if (group.firstServer >= group.endServer)
            continue;
        const std::vector<std::string> names(topology.serverNames.begin() + group.firstServer,
                                             topology.serverNames.begin() + group.endServer);
        std::string name = slugOf(group.name) == "gpu" ? "gpu-group" : slugOf(group.name);
        for (int n = 2; taken.count(name); ++n)
            name = slugOf(group.name) + "-" + std::to_string(n);
        taken.insert(name);
        slurm << "PartitionName=" << name << " Nodes=" << slurmHostList(names)
              << " MaxTime=INFINITE State=UP\n";
    }
    // QoS limits live in Slurm's accounting database, not in slurm.conf: the commands that
    // make them, for the classes that have one.
    for (const JobClass &job : plan.portfolio.classes)
        if (job.maxRunningGpus > 0)
            slurm << "# QoS for class '" << commentText(job.name) << "': sacctmgr add qos "
                  << slugOf(job.name) << " GrpTRES=gres/gpu=" << job.maxRunningGpus << "\n";
    return slurm.str();
}

/** topology.conf: leaf groups with their nodes, pods with their leaves, the top switch. */
std::string topologyConfText(const Plan &plan, const SchedulerTopology &topology)
{
    std::ostringstream tree;
    tree << "# Generated by ClusterPlanner from plan '" << commentText(plan.name) << "'\n";
    std::vector<std::vector<std::string>> leafServers(topology.leafNames.size());
    std::vector<std::string> unswitched;
    for (std::size_t s = 0; s < topology.serverNames.size(); ++s)
        if (topology.leafOfServer[s] >= 0)
            leafServers[topology.leafOfServer[s]].push_back(topology.serverNames[s]);
        else
            unswitched.push_back(topology.serverNames[s]);
    for (std::size_t l = 0; l < leafServers.size(); ++l)
        tree << "SwitchName=" << topology.leafNames[l] << " Nodes=" << slurmHostList(leafServers[l])
             << "\n";
    if (!unswitched.empty())
        tree << "SwitchName=unswitched Nodes=" << slurmHostList(unswitched) << "\n";
    std::vector<std::string> tops;
    if (topology.podNames.size() > 1) {
        for (std::size_t p = 0; p < topology.podNames.size(); ++p) {
            std::vector<std::string> leaves;
            for (std::size_t l = 0; l < topology.leafNames.size(); ++l)
                if (topology.podOfLeaf[l] == static_cast<int>(p))
                    leaves.push_back(topology.leafNames[l]);
            tree << "SwitchName=" << topology.podNames[p] << " Switches=" << joined(leaves) << "\n";
            tops.push_back(topology.podNames[p]);
        }
    } else {
        tops = topology.leafNames;
    }
    if (!unswitched.empty())
        tops.push_back("unswitched");
    if (tops.size() > 1)
        tree << "SwitchName=" << topology.topName << " Switches=" << joined(tops) << "\n";
    return tree.str();
}

} // namespace

SlurmConfiguration slurmConfiguration(const Plan &plan, const Catalog &catalog)
{
    const SchedulerTopology topology = schedulerTopology(plan, catalog);
    return {slurmConfText(plan, topology), topologyConfText(plan, topology)};
}

} // namespace cp::model
