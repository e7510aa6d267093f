// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "model/fabric/fabricgraph.h"

#include <map>
#include <string>
#include <vector>

namespace cp::model {

struct NicSpec;
struct SwitchSpec;

/** What a switch and a transceiver draw and cost; from the catalog (fabricHardwareFromCatalog). */
struct FabricHardware
{
    std::string switchName;
    double switchWatts = 0; ///< without optics
    double switchPriceUsd = 0;
    double transceiverWatts = 0; ///< one optic, at one end of an optical cable
    double transceiverPriceUsd = 0;
    /** Set when no catalog switch has the fabric's radix and the figures were scaled per port. */
    std::string note;
};

/**
 * Switch power and price for a fabric of `radix` ports from `sw`; when the radix differs they are
 * scaled per port (a stated approximation: real switch ASICs do not scale linearly).
 */
FabricHardware fabricHardware(const SwitchSpec &sw, const NicSpec &nic, int radix);

/** Links or switches to take out before analysing: the failure what-if. */
struct FabricFailures
{
    std::vector<FabricVertexId> vertices;
    std::vector<std::size_t> links; ///< edge indices in the order links were added
    bool empty() const { return vertices.empty() && links.empty(); }
};

/** Which vertices and links (by id) survive `failures`; links to a failed vertex fail too. */
struct FabricLiveness
{
    std::vector<char> vertex;
    std::vector<char> link;
};
FabricLiveness fabricLiveness(const FabricGraph &graph, const FabricFailures &failures);

struct FabricMetrics
{
    std::string topology;
    std::string description;
    int endpoints = 0;
    int switches = 0; ///< scale-out switches and routers, not NVSwitches
    int scaleUpSwitches = 0;
    std::map<int, int> switchesPerTier; ///< tier 1 leaf/router, 2 spine, 3 core
    int links = 0; ///< cables, scale-up links excluded
    std::map<std::string, int> linksPerClass; ///< "access", "fabric", "global"
    int copperCables = 0;
    int opticalCables = 0;
    int transceivers = 0; ///< two per optical cable

    bool connected = true;
    int unreachableEndpoints = 0; ///< from the first live endpoint, after failures
    int failedSwitches = 0;
    int failedLinks = 0;

    /** Links on the shortest path between two endpoints, access links included. */
    int diameter = 0;
    /** The same between the switches (or routing chips) the endpoints attach to. */
    int switchDiameter = 0;
    double averageHops = 0;
    /** Shortest paths (ECMP choices, parallel cables counted) between endpoint pairs. */
    double meanShortestPaths = 0;
    double minShortestPaths = 0;
    bool pathStatisticsExact = false;
    int pathSources = 0;
    std::string pathMethod;

    double injectionBytesPerSecond = 0; ///< per endpoint into the scale-out network
    double bisectionBytesPerSecond = 0; ///< per direction, across the halving below
    /** bisection / (endpoints / 2 x injection): 1 for a non-blocking fabric. */
    double bisectionRatio = 0;
    std::string bisectionMethod;

    double switchWatts = 0;
    double opticsWatts = 0;
    double powerWatts() const { return switchWatts + opticsWatts; }
    double switchCostUsd = 0;
    double opticsCostUsd = 0;
    double costUsd() const { return switchCostUsd + opticsCostUsd; }
    std::vector<std::string> notes;
};

/**
 * Counts only: switches per tier, cables by class and medium, transceivers, and the switches' and
 * optics' power and cost. No paths or bisection, so it is cheap enough to run on every edit; the
 * plan estimate's bill of materials and network power come from it.
 */
FabricMetrics countFabric(const FabricGraph &graph, const FabricHardware &hardware);

/**
 * Counts, hop statistics, bisection bandwidth, power and cost of `graph` with `failures`
 * removed. Shortest paths never pass through a plain Endpoint (a GPU does not forward);
 * hop statistics are exact when the generator gave symmetry representatives and nothing failed,
 * exact from every endpoint for small graphs, and sampled from 64 evenly spaced endpoints
 * otherwise (pathMethod says which). Bisection is the max flow (Boykov-Kolmogorov) from one half
 * of the endpoints to the other across the generator's natural halving; the true minimum
 * bisection (NP-hard) can only be lower, which the method text says.
 */
FabricMetrics analyseFabric(const FabricGraph &graph, const FabricHardware &hardware,
                            const FabricFailures &failures = {});

/** The bisection as an architect reads it: "205 Tb/s per direction, 1.00 of what half the
 * endpoints inject" (0.50 for a fabric oversubscribed 2:1 at its leaves). */
std::string bisectionText(const FabricMetrics &metrics);

/** Id of the first link joining the vertices labelled `a` and `b`, for failure what-ifs. */
std::size_t findLink(const FabricGraph &graph, const std::string &a, const std::string &b);
/**
 * Ids of every link (parallel cables are separate links) joining the vertices labelled `a` and
 * `b`, in the order they were added; throws FabricParameterError when there is none.
 */
std::vector<std::size_t> findLinks(const FabricGraph &graph, const std::string &a,
                                   const std::string &b);
/** Vertex labelled `label`; throws FabricParameterError when there is none. */
FabricVertexId findVertex(const FabricGraph &graph, const std::string &label);

} // namespace cp::model
