// SPDX-License-Identifier: GPL-3.0-or-later
#include "commands.h"
#include "table.h"
#include "worstfailurereport.h"

#include "model/core/humantext.h"
#include "model/core/units.h"
#include "model/fabric/fabricanalysis.h"
#include "model/fabric/fabriccollective.h"
#include "model/fabric/fabricdesign.h"
#include "model/fabric/fabricscaleout.h"
#include "model/planning/estimatejson.h"
#include "model/planning/planworstfailure.h"

#include <algorithm>
#include <map>
#include <ostream>
#include <set>
#include <sstream>

namespace cp::cli {

namespace {

/** The catalog switch for a fabric: --switch, else one of the link's protocol, speed and radix. */
const model::SwitchSpec &chooseSwitch(const model::Catalog &catalog, const ParsedArguments &a,
                                      const model::NicSpec &nic, std::optional<int> radix)
{
    if (auto id = a.value("switch"))
        return catalog.networkSwitch(*id);
    const std::string id = model::catalogSwitchForNic(catalog, nic, radix);
    if (id.empty())
        throw UsageError("no catalog switch carries " + nic.id + " links; pass --switch ID");
    return catalog.networkSwitch(id);
}

double gbps(double bytesPerSecond)
{
    return bytesPerSecond * model::units::bitsPerByte / model::units::giga;
}

std::string renderMetrics(const model::FabricMetrics &m, const model::RingRate &ring, int ringNodes)
{
    Table table({"figure", "value"});
    table.addRow({"fabric", m.description});
    // Counts grouped by thousands, as everywhere people read them: 20,000 endpoints, not 20000.
    const auto count = [](long long value) {
        return model::groupedCount(value);
    };
    table.addRow({"endpoints", count(m.endpoints)});
    std::string tiers;
    for (const auto &[tier, tierCount] : m.switchesPerTier)
        tiers += (tiers.empty() ? "" : ", ") + count(tierCount) + " "
            + (tier == 0 ? std::string("endpoint") : model::fabricTierName(tier));
    table.addRow({"switches", count(m.switches) + (tiers.empty() ? "" : " (" + tiers + ")")});
    table.addRow({"cables",
                  count(m.links) + " (" + count(m.copperCables) + " copper, "
                      + count(m.opticalCables) + " optical, " + count(m.transceivers)
                      + " transceivers)"});
    table.addRow({"diameter",
                  std::to_string(m.diameter) + " links endpoint to endpoint, "
                      + std::to_string(m.switchDiameter) + " between switches"});
    table.addRow({"average hops", format("%.3f", m.averageHops)});
    // A large torus has paths by the 10^200: digits past a double's 17 are noise.
    const auto paths = [](const char *name, const char *fixed, double count) {
        return std::string(name) + format(count < 1e9 ? fixed : "%.3e", count);
    };
    table.addRow({"shortest paths per pair",
                  paths("mean ", "%.1f", m.meanShortestPaths)
                      + paths(", min ", "%.0f", m.minShortestPaths)});
    table.addRow({"path statistics", m.pathMethod});
    table.addRow({"injection per endpoint", format("%.0f Gb/s", gbps(m.injectionBytesPerSecond))});
    table.addRow({"bisection",
                  format("%.0f Gb/s", gbps(m.bisectionBytesPerSecond))
                      + format(" (%.3f of injection)", m.bisectionRatio)});
    table.addRow({"bisection method", m.bisectionMethod});
    table.addRow({"ring all-reduce",
                  format("%.0f Gb/s per flow", gbps(ring.bytesPerSecondPerFlow))
                      + " with every rank ring of " + std::to_string(ringNodes)
                      + " nodes at once; bottleneck " + ring.bottleneckLink});
    table.addRow(
        {"connected",
         m.connected ? "yes"
                     : "NO: " + std::to_string(m.unreachableEndpoints) + " endpoints unreachable"});
    table.addRow({"power",
                  format("%.1f kW", m.powerWatts() / 1e3)
                      + format(" (switches %.1f", m.switchWatts / 1e3)
                      + format(", optics %.1f kW)", m.opticsWatts / 1e3)});
    table.addRow({"cost",
                  format("$%.0f", m.costUsd()) + format(" (switches $%.0f", m.switchCostUsd)
                      + format(", optics $%.0f)", m.opticsCostUsd)});
    std::string text = table.render();
    for (const std::string &note : m.notes)
        text += "note: " + note + "\n";
    return text;
}

/**
 * The worst single switch failure for a training job on the fabric: `--model` on `--node`
 * servers, one per fabric node, the job's defaults otherwise (TrainingJob), the fabric's NIC and
 * oversubscription, on top of the --fail-switch/--fail-link failures.
 */
model::WorstFailure fabricWorstFailure(const model::Catalog &catalog, const ParsedArguments &a,
                                       const model::FabricGraph &graph,
                                       const model::FabricDesign &design, const model::NicSpec &nic,
                                       const model::FabricFailures &failures)
{
    const int perNode = design.endpointsPerNode();
    const long long nodes = static_cast<long long>(graph.endpoints().size()) / perNode;
    const model::NodeSpec &node = catalog.node(a.value("node").value_or("dgx-h100"));
    const long long gpus = nodes * node.gpusPerNode; // nodes <= 2^19, so no overflow
    if (gpus > std::numeric_limits<int>::max())
        throw UsageError("--worst-failure: too many GPUs for one job");
    model::TrainingJob job;
    job.model = catalog.llm(a.value("model").value_or("llama-3-70b"));
    const bool rail = design.topology == model::FabricTopology::RailFatTree;
    const double oversubscription
        = rail ? design.railFatTree.leafOversubscription : design.fatTree.leafOversubscription;
    model::ClusterFromCatalogOptions options;
    options.nodeId = node.id;
    options.gpus = static_cast<int>(gpus);
    options.nicId = nic.id;
    options.nicsPerNode = perNode;
    options.oversubscription = oversubscription;
    options.railOptimised = rail;
    options.switchPorts = graph.radix > 0 ? graph.radix : 64;
    const model::ClusterDescription cluster
        = model::ClusterDescription::fromCatalog(catalog, options);
    const auto step = [&](const model::FabricFailureImpact &impact) {
        return model::trainingStepAfterFailure(job, cluster, impact);
    };
    return model::findWorstSingleFailure(graph, perNode, nodes, step,
                                         model::ringSizesForCluster(cluster), failures);
}

} // namespace

namespace {

std::vector<OptionSpec> fabricOptions()
{
    return withCommonOptions({
        {"topology", true, "fat-tree|rail-fat-tree|dragonfly|torus"},
        {"endpoints", true, "endpoint count (fat-tree, dragonfly; rail: GPUs)"},
        {"radix", true, "switch ports (default: the switch's)"},
        {"tiers", true, "1|2|3|4 (fat-tree: 1 is one switch; default: the fewest that fit)"},
        {"oversubscription", true, "leaf down:up ratio, e.g. 2 for 2:1 (default 1)"},
        {"spine-oversubscription", true, "spine down:up ratio, 3 tiers (default 1)"},
        {"nodes", true, "rail-fat-tree: GPU servers"},
        {"gpus-per-node", true, "rail-fat-tree: GPUs (rails) per server (default 8)"},
        {"su-nodes", true,
         "rail-fat-tree: servers per scalable unit (default: the size that needs the fewest "
         "switches)"},
        {"a", true, "dragonfly routers per group"},
        {"p", true, "dragonfly endpoints per router"},
        {"h", true, "dragonfly global links per router"},
        {"groups", true, "dragonfly groups"},
        {"dims", true, "torus dimensions, e.g. 4x4x4"},
        {"link", true, "NIC id for the links (default ib-ndr-400)"},
        {"switch", true, "switch id for power and price (default: one matching the link)"},
        {"ring-nodes", true, "nodes per all-reduce ring for the collective figure (default all)"},
        {"fail-switch", true, "labels of switches to remove, comma-separated (e.g. spine-0)"},
        {"fail-link", true, "links to remove as A:B label pairs, comma-separated"},
        {"worst-failure", false,
         "find the switch whose loss slows a training step most (job: --model, --node)"},
        {"model", true, "worst-failure: catalog model to train (default llama-3-70b)"},
        {"node", true, "worst-failure: server type of the nodes (default dgx-h100)"},
    });
}

/** What the analysis found: the fabric with its failures, and without them when any failed. */
struct FabricAnalysis
{
    model::FabricMetrics metrics;
    model::RingRate ring;
    int ringNodes = 0;
    std::optional<model::FabricMetrics> before;
    std::optional<model::RingRate> ringBefore;
};

/** A count the generator derives when left out (0); given, it must be positive (0 and below
 * were taken as "derive it", silently). */
int positiveOrDerived(const ParsedArguments &a, const char *option)
{
    const std::optional<int> value = a.integer(option, -(1 << 30), 1 << 30);
    if (value && *value < 1)
        throw model::FabricParameterError(std::string("--") + option + " must be positive, not "
                                          + std::to_string(*value)
                                          + " (leave it out for the derived value)");
    return value.value_or(0);
}

/** Refuses a spine ratio the fabric has no tier for: the fewest tiers that hold the endpoints
 * were two, where the spines have no uplinks (--tiers 3 builds the three it describes). */
void requireSpineTier(const model::FabricGraph &graph, const model::FabricDesign &design,
                      std::optional<double> spineOversubscription)
{
    if (!spineOversubscription || *spineOversubscription == 1.0)
        return;
    if (design.topology != model::FabricTopology::FatTree
        && design.topology != model::FabricTopology::RailFatTree)
        return;
    const model::FabricMetrics counts = model::countFabric(graph, {});
    const int tiers = counts.switchesPerTier.empty() ? 0 : counts.switchesPerTier.rbegin()->first;
    if (tiers >= 3)
        return;
    throw UsageError("--spine-oversubscription changes nothing here: the "
                     + model::groupedCount(static_cast<long long>(graph.endpoints().size()))
                     + " endpoints fit two tiers, whose spines have no uplinks (give --tiers 3 "
                       "for a three-tier fabric)");
}

/** The topology's parameters from the options; the generators check their real limits. */
void setDesignParameters(model::FabricDesign &design, const ParsedArguments &a,
                         const model::SwitchSpec &sw, std::optional<int> endpoints,
                         std::optional<int> radix, std::optional<int> tiers,
                         std::optional<double> oversubscription,
                         std::optional<double> spineOversubscription)
{
    constexpr int big = 1 << 30;
    // The spine's ratio describes the tier above it: with two tiers there is none.
    if (spineOversubscription && tiers && *tiers < 3)
        throw model::FabricParameterError("--spine-oversubscription needs 3 or more tiers, not "
                                          "--tiers "
                                          + std::to_string(*tiers));
    // Uplink ratios describe a fat-tree's tiers: a Dragonfly or a torus has none, and one
    // switch has no uplinks. Taken silently, they would describe a fabric that was not built.
    const bool fatTree = design.topology == model::FabricTopology::FatTree
        || design.topology == model::FabricTopology::RailFatTree;
    for (const auto &[option, value] :
         {std::pair {"oversubscription", oversubscription},
          std::pair {"spine-oversubscription", spineOversubscription}}) {
        if (value && !fatTree)
            throw UsageError(std::string("--") + option
                             + " applies to fat-tree and rail-fat-tree fabrics, not "
                             + model::fabricTopologyName(design.topology));
        if (value && tiers && *tiers == 1)
            throw UsageError(std::string("--") + option
                             + " changes nothing on --tiers 1: one switch has no uplinks");
    }
    switch (design.topology) {
    case model::FabricTopology::FatTree: {
        auto &p = design.fatTree;
        p.radix = radix.value_or(sw.ports);
        p.endpoints = endpoints.value_or(0);
        p.tiers = tiers.value_or(0);
        p.leafOversubscription = oversubscription.value_or(1.0);
        p.spineOversubscription = spineOversubscription.value_or(1.0);
        break;
    }
    case model::FabricTopology::RailFatTree: {
        auto &p = design.railFatTree;
        p.radix = radix.value_or(sw.ports);
        p.gpusPerNode = a.integer("gpus-per-node", -big, big).value_or(8);
        p.nodesPerScalableUnit = positiveOrDerived(a, "su-nodes");
        if (p.gpusPerNode < 1)
            throw model::FabricParameterError("--gpus-per-node must be positive");
        p.nodes = a.integer("nodes", -big, big)
                      .value_or(endpoints ? static_cast<int>((1LL * *endpoints + p.gpusPerNode - 1)
                                                             / p.gpusPerNode)
                                          : 32);
        p.tiers = tiers.value_or(0);
        p.leafOversubscription = oversubscription.value_or(1.0);
        p.spineOversubscription = spineOversubscription.value_or(1.0);
        break;
    }
    case model::FabricTopology::Dragonfly: {
        auto &p = design.dragonfly;
        p.a = positiveOrDerived(a, "a");
        p.p = positiveOrDerived(a, "p");
        p.h = positiveOrDerived(a, "h");
        p.groups = positiveOrDerived(a, "groups");
        p.endpoints = endpoints.value_or(0);
        // The switch's ports, as a plan's Dragonfly takes them: routers of radix 15 "scaled per
        // port" from a 64-port switch were priced as switches that do not exist.
        p.radix = radix.value_or(sw.ports);
        break;
    }
    case model::FabricTopology::Torus:
        design.torus.dims = model::parseTorusDims(a.value("dims").value_or("4x4x4"));
        break;
    }
}

/** --fail-switch and --fail-link on the generated graph. */
model::FabricFailures failuresFromArguments(const ParsedArguments &a,
                                            const model::FabricGraph &graph)
{
    model::FabricFailures failures;
    if (auto list = a.value("fail-switch")) {
        std::set<std::string> named;
        for (const std::string &label : splitList(*list, ',')) {
            // A switch fails once: listed twice it was taken as one failure without a word.
            if (!named.insert(label).second)
                throw UsageError("--fail-switch names " + label + " twice");
            failures.vertices.push_back(model::findVertex(graph, label));
        }
    }
    // A pair listed k times loses k of its parallel cables, as a plan's failed_links does.
    std::map<std::pair<std::string, std::string>, std::size_t> listed;
    if (auto list = a.value("fail-link"))
        for (const std::string &pair : splitList(*list, ',')) {
            const auto ends = splitList(pair, ':');
            if (ends.size() != 2)
                throw UsageError("--fail-link takes A:B label pairs, not \"" + pair + "\"");
            const std::vector<std::size_t> cables = model::findLinks(graph, ends[0], ends[1]);
            const std::size_t times = ++listed[std::minmax(ends[0], ends[1])];
            if (times > cables.size())
                throw model::FabricParameterError(
                    "--fail-link lists " + ends[0] + ":" + ends[1] + " " + std::to_string(times)
                    + " times; only " + std::to_string(cables.size())
                    + (cables.size() == 1 ? " cable joins them" : " cables join them"));
            failures.links.push_back(cables[times - 1]);
        }

    return failures;
}

FabricAnalysis analyse(const ParsedArguments &a, const model::FabricGraph &graph,
                       const model::FabricDesign &design, const model::FabricHardware &hardware,
                       const model::FabricFailures &failures, double switchLatency)
{
    constexpr int big = 1 << 30;
    FabricAnalysis result;
    const int perNode = design.endpointsPerNode();
    const int nodes = static_cast<int>(graph.endpoints().size()) / perNode;
    result.ringNodes = a.integer("ring-nodes", 1, big).value_or(nodes);
    const auto rings = model::rankRings(graph, perNode, result.ringNodes);
    result.metrics = model::analyseFabric(graph, hardware, failures);
    result.ring = model::concurrentRingRate(graph, rings, switchLatency, failures);
    if (!failures.empty()) {
        result.before = model::analyseFabric(graph, hardware);
        result.ringBefore = model::concurrentRingRate(graph, rings, switchLatency);
    }
    return result;
}

void printFabricJson(const FabricAnalysis &r, const std::optional<model::WorstFailure> &worst,
                     const model::SwitchSpec &sw, const model::NicSpec &nic, std::ostream &out)
{
    nlohmann::json json = model::fabricMetricsToJson(r.metrics);
    if (worst)
        json["worst_failure"] = model::worstFailureToJson(*worst);
    json["switch"] = sw.id;
    json["link"] = nic.id;
    json["ring"] = model::ringRateToJson(r.ring);
    json["ring"]["nodes_per_ring"] = r.ringNodes;
    if (r.before) {
        json["before_failure"] = {{"bisection_gbps", gbps(r.before->bisectionBytesPerSecond)},
                                  {"bisection_ratio", r.before->bisectionRatio},
                                  {"ring_gbps_per_flow", gbps(r.ringBefore->bytesPerSecondPerFlow)},
                                  {"diameter", r.before->diameter},
                                  {"avg_hops", r.before->averageHops}};
    }
    out << json.dump(2) << "\n";
}

void printFabricText(const FabricAnalysis &r, const std::optional<model::WorstFailure> &worst,
                     std::ostream &out)
{
    out << renderMetrics(r.metrics, r.ring, r.ringNodes);
    if (r.before)
        out << "before the failure: bisection "
            << format("%.0f Gb/s", gbps(r.before->bisectionBytesPerSecond)) << ", ring "
            << format("%.0f Gb/s per flow", gbps(r.ringBefore->bytesPerSecondPerFlow))
            << ", diameter " << r.before->diameter << "\n";
    if (worst)
        out << renderWorstFailure(*worst);
}

} // namespace

int runFabricCommand(CliContext &context, const std::vector<std::string> &args, std::ostream &out)
{
    const auto specs = fabricOptions();
    const ParsedArguments a = parseArguments(args, specs, "fabric");
    if (a.has("help")) {
        out << usageText("clusterplanner-cli fabric --topology T [options]", specs);
        return ExitOk;
    }
    const std::string topologyName
        = a.choice("topology", {"fat-tree", "rail-fat-tree", "dragonfly", "torus"})
              .value_or(std::string());
    if (topologyName.empty())
        throw UsageError("--topology is required (fat-tree|rail-fat-tree|dragonfly|torus)");
    // Wide ranges here: the generators check the real limits and explain them (exit 3).
    constexpr int big = 1 << 30;
    const auto endpoints = a.integer("endpoints", -big, big);
    if (endpoints && *endpoints < 1)
        throw InfeasibleError("invalid fabric: endpoints must be positive, not "
                              + std::to_string(*endpoints)
                              + " (leave --endpoints out for the largest fat-tree of the tiers)");
    const auto radix = a.integer("radix", -big, big);
    const auto tiers = a.integer("tiers", -big, big);
    const auto oversubscription = a.number("oversubscription", -1e9, 1e9);
    const auto spineOversubscription = a.number("spine-oversubscription", -1e9, 1e9);

    const model::Catalog &catalog = context.catalog();
    const model::NicSpec &nic = catalog.nic(a.value("link").value_or("ib-ndr-400"));
    const model::SwitchSpec &sw = chooseSwitch(catalog, a, nic, radix);

    model::FabricDesign design;
    design.topology = *model::fabricTopologyFromName(topologyName);
    design.setLinks(nic, sw, 450e9);
    try {
        setDesignParameters(design, a, sw, endpoints, radix, tiers, oversubscription,
                            spineOversubscription);
        const model::FabricGraph graph = model::generateFabric(design);
        requireSpineTier(graph, design, spineOversubscription);
        const model::FabricHardware hardware = model::fabricHardware(
            sw, nic, design.topology == model::FabricTopology::Torus ? 0 : graph.radix);

        const model::FabricFailures failures = failuresFromArguments(a, graph);
        FabricAnalysis analysis = analyse(a, graph, design, hardware, failures, sw.latencySeconds);
        if (const std::string extra = model::extraTiersText(
                design, tiers.value_or(0), analysis.metrics.switches, analysis.metrics.endpoints);
            !extra.empty())
            analysis.metrics.notes.push_back(extra);
        std::optional<model::WorstFailure> worst;
        if (a.has("worst-failure"))
            worst = fabricWorstFailure(catalog, a, graph, design, nic, failures);
        if (a.has("json"))
            printFabricJson(analysis, worst, sw, nic, out);
        else
            printFabricText(analysis, worst, out);
        return ExitOk;
    } catch (const model::FabricParameterError &error) {
        throw InfeasibleError(std::string("invalid fabric: ") + error.what());
    }
}

} // namespace cp::cli
