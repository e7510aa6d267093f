// SPDX-License-Identifier: GPL-3.0-or-later
// Folded-Clos construction. Each leaf spreads its up ports round-robin over the spines of its
// pod, each spine its up ports over its core group (spine s of every pod joins core group s),
// as in Al-Fares et al. (SIGCOMM 2008) for the k-ary case. The number of spines (cores) is the
// smallest divisor of the leaf's (spine's) up-port count that has enough down ports, so every
// leaf has the same number of links to every spine; at k = 64 this reproduces the DGX SuperPOD
// switch counts (NVIDIA DGX SuperPOD H100 reference architecture, network fabrics, Table 4: 1 SU 8
// leaf / 4 spine, 3 SUs 24 / 16, 16 SUs 128 / 128 / 64 core).
#include "model/fabric/fattreegenerator.h"

#include "model/core/humantext.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <limits>
#include <string>
#include <vector>

namespace cp::model {

namespace {

int smallestDivisorAtLeast(int n, long long lower)
{
    for (int d = 1; d <= n; ++d)
        if (n % d == 0 && d >= lower)
            return d;
    return 0;
}

long long ceilDiv(long long a, long long b)
{
    return (a + b - 1) / b;
}

void checkOversubscription(double ratio, const char *name)
{
    if (!(ratio >= 1.0) || ratio > 64.0)
        throw FabricParameterError(std::string(name)
                                   + " must be between 1 (non-blocking) and 64, not "
                                   + formatNumber("%g", ratio));
}

/** Storage ports a fabric keeps free (FatTreeParameters::storagePorts): 0 up to the endpoint
 * limit. */
void checkStoragePorts(long long storagePorts)
{
    if (storagePorts < 0 || storagePorts > maxFabricEndpoints)
        throw FabricParameterError("storage ports must be between 0 and "
                                   + std::to_string(maxFabricEndpoints) + ", not "
                                   + std::to_string(storagePorts));
}

void checkRadix(int radix)
{
    if (radix < 4 || radix > 4096)
        throw FabricParameterError("radix must be between 4 and 4096 ports, not "
                                   + std::to_string(radix));
}

FabricVertexId addSwitch(FabricGraph &graph, int tier, int group, const std::string &label)
{
    FabricVertex v;
    v.role = FabricVertexRole::Switch;
    v.tier = tier;
    v.group = group;
    v.label = label;
    return graph.addVertex(std::move(v), static_cast<std::size_t>(std::max(0, graph.radix)));
}

FabricLink fabricLink(const FabricLinkRates &rates)
{
    FabricLink link;
    link.linkClass = LinkClass::Fabric;
    link.medium = LinkMedium::Optical;
    link.bytesPerSecond = rates.fabricBytesPerSecond;
    link.latencySeconds = rates.linkLatencySeconds;
    return link;
}

/**
 * How the tiers above the leaves are sized; see the file comment. Four tiers repeat the third
 * tier's step once more: the cores of a block of pods (core group s joins spine s of each pod of
 * the block) spread their up ports over super-spine group (s, c), which joins core c of group s
 * of every block. The cores run 1:1, half their ports up.
 */
struct ClosShape
{
    int tiers = 2;
    int leafUpPorts = 0;
    int leavesPerPod = 0; ///< 3 and 4 tiers: leaves under one pod's spines
    int spinesPerPod = 0; ///< 2 tiers: all the spines
    int spineUpPorts = 0; ///< 3 and 4 tiers
    int coresPerGroup = 0; ///< 3 and 4 tiers: cores per spine index (per block with 4 tiers)
    int pods = 1;
    int coreUpPorts = 0; ///< 4 tiers
    int podsPerBlock = 0; ///< 4 tiers: pods under one block's cores
    int blocks = 1; ///< 4 tiers
    int supersPerGroup = 0; ///< 4 tiers: super-spines per (spine index, core) group
    /** 3 tiers: the spines of a last pod that is not full, fewer where its leaves need fewer (a
     * divisor of spinesPerPod); each spreads its up ports over spinesPerPod / lastPodSpines
     * spine indices' core groups, so the pod still reaches every core group. */
    int lastPodSpines = 0;
    /** 3 tiers: spine indices one core serves, where a group's links fill less than half a core
     * (the cores of a spine-oversubscribed fabric of few pods); coresPerGroup is then 1. */
    int groupsPerCore = 1;
    /** The spines of pod `pod`: a full pod's, or the last pod's own. */
    int spinesOfPod(int pod) const { return pod == pods - 1 ? lastPodSpines : spinesPerPod; }
    long long spines() const { return 1LL * (pods - 1) * spinesPerPod + lastPodSpines; }
    long long cores() const { return 1LL * blocks * spinesPerPod / groupsPerCore * coresPerGroup; }
    /** Spine indices a spine of pod `pod` sends its up ports to (1 but in a short last pod). */
    int groupsOfSpine(int pod) const { return spinesPerPod / spinesOfPod(pod); }
};

/** The cores of a four-tier fabric run 1:1, half their ports up. */
constexpr double coreOversubscription = 1.0;

/** Largest leaf count `tiers` tiers of radix-k switches can join with `spineDown` ports of
 * each spine facing leaves, the cores of four tiers at 1:1. */
long long maxLeavesForSpineDown(int tiers, int radix, long long spineDown)
{
    const long long coreDown = radix - upPortsForOversubscription(radix, coreOversubscription);
    switch (tiers) {
    case 2:
        return radix;
    case 3:
        return radix * spineDown;
    default:
        return radix * coreDown * spineDown;
    }
}

/** Largest leaf count `tiers` tiers of radix-k switches can join: the spines at
 * `spineOversubscription`, the cores of four tiers at 1:1. */
long long maxLeaves(int tiers, int radix, double spineOversubscription)
{
    return maxLeavesForSpineDown(tiers, radix,
                                 radix - upPortsForOversubscription(radix, spineOversubscription));
}

/** The fewest tiers (2 to 4) whose fabric joins `leaves`; 4 when none does (then refused). */
int fewestTiers(long long leaves, int radix, double spineOversubscription)
{
    for (int tiers = 2; tiers < 4; ++tiers)
        if (leaves <= maxLeaves(tiers, radix, spineOversubscription))
            return tiers;
    return 4;
}

/** The largest divisor of `n` that is at most `upper` (1 at least). */
int largestDivisorAtMost(int n, long long upper)
{
    for (int d = n; d > 1; --d)
        if (n % d == 0 && d <= upper)
            return d;
    return 1;
}

/**
 * A three-tier fabric's last pod and cores, sized for the ports they carry: a last pod that is
 * not full takes the fewest spines (a divisor of a full pod's) whose down ports hold its leaves'
 * uplinks, 1 for 1 leaf of 32 uplinks where a full pod has 32 spines (2,080 endpoints on radix
 * 64: 194 switches, not 225); a core group's cores hold its links, and where they fill less than
 * half a core, one core serves several spine indices (3,072 endpoints at a 3:1 spine ratio:
 * 16 cores, not 32 half-empty ones).
 */
void shapeThirdTier(ClosShape &shape, long long leaves, int radix)
{
    const int spineUp = shape.spineUpPorts;
    const int spineDown = radix - spineUp;
    const long long lastLeaves = leaves - 1LL * (shape.pods - 1) * shape.leavesPerPod;
    if (lastLeaves < shape.leavesPerPod) {
        const long long needed = ceilDiv(lastLeaves * shape.leafUpPorts, spineDown);
        // The smallest divisor of a full pod's spines that holds them, and whose share of spine
        // indices divides its up ports, so that every core group gets the same links from it
        // (a full pod's count, which the caller set, when none smaller does).
        for (int d = 1; d <= shape.spinesPerPod; ++d)
            if (shape.spinesPerPod % d == 0 && d >= needed
                && spineUp % (shape.spinesPerPod / d) == 0) {
                shape.lastPodSpines = d;
                break;
            }
    }
    const long long lastPodLinksPerGroup = 1LL * spineUp * shape.lastPodSpines / shape.spinesPerPod;
    const long long linksPerGroup = 1LL * (shape.pods - 1) * spineUp + lastPodLinksPerGroup;
    // A full spine's up ports spread evenly over its group's cores (their count divides them);
    // a last spine's share may not, so the busiest core takes its share rounded up.
    shape.coresPerGroup = smallestDivisorAtLeast(spineUp, ceilDiv(linksPerGroup, radix));
    const auto busiestCore = [&](int cores) {
        return 1LL * (shape.pods - 1) * spineUp / cores + ceilDiv(lastPodLinksPerGroup, cores);
    };
    while (shape.coresPerGroup < spineUp && busiestCore(shape.coresPerGroup) > radix)
        shape.coresPerGroup = smallestDivisorAtLeast(spineUp, shape.coresPerGroup + 1);
    if (shape.coresPerGroup == 1)
        shape.groupsPerCore = largestDivisorAtMost(shape.spinesPerPod, radix / linksPerGroup);
}

/** The spines, cores and super-spines above `leaves` leaves of `leafUp` up ports, in `tiers`
 * tiers whose spines have `spineUp` up ports (the leaves fit: see shapeFor). */
ClosShape shapeWithSpineUp(long long leaves, int tiers, int radix, int leafUp, int spineUp)
{
    ClosShape shape;
    shape.tiers = tiers;
    shape.leafUpPorts = leafUp;
    const int spineDown = radix - spineUp;
    const int coreUp = upPortsForOversubscription(radix, coreOversubscription);
    const int coreDown = radix - coreUp;
    if (tiers == 2) {
        shape.spinesPerPod = smallestDivisorAtLeast(leafUp, ceilDiv(leaves * leafUp, radix));
        shape.leavesPerPod = static_cast<int>(leaves);
        shape.lastPodSpines = shape.spinesPerPod;
        return shape;
    }
    shape.spineUpPorts = spineUp;
    shape.leavesPerPod = spineDown;
    shape.spinesPerPod = smallestDivisorAtLeast(
        leafUp, ceilDiv(static_cast<long long>(shape.leavesPerPod) * leafUp, spineDown));
    shape.pods = static_cast<int>(ceilDiv(leaves, shape.leavesPerPod));
    shape.lastPodSpines = shape.spinesPerPod;
    if (tiers == 3) {
        shapeThirdTier(shape, leaves, radix);
        return shape;
    }
    shape.coreUpPorts = coreUp;
    shape.podsPerBlock = std::min(shape.pods, coreDown);
    shape.blocks = static_cast<int>(ceilDiv(shape.pods, shape.podsPerBlock));
    shape.coresPerGroup = smallestDivisorAtLeast(
        spineUp, ceilDiv(static_cast<long long>(shape.podsPerBlock) * spineUp, coreDown));
    shape.supersPerGroup = smallestDivisorAtLeast(
        coreUp, ceilDiv(static_cast<long long>(shape.blocks) * coreUp, radix));
    return shape;
}

/**
 * Of `candidates`, listed in the order preferred among equals, the one whose fabric
 * `switchesOf` counts the fewest switches; a candidate the tiers cannot join (shapeFor's
 * FabricParameterError) is passed over, and the first is kept when none fits.
 */
template<typename SwitchesOf>
int withFewestSwitches(const std::vector<int> &candidates, SwitchesOf switchesOf)
{
    int best = candidates.front();
    long long bestSwitches = std::numeric_limits<long long>::max();
    for (const int candidate : candidates) {
        try {
            const long long switches = switchesOf(candidate);
            if (switches < bestSwitches) {
                bestSwitches = switches;
                best = candidate;
            }
        } catch (const FabricParameterError &) {
            // More leaves or units than the tiers join.
        }
    }
    return best;
}

FabricHardwareCount switchTiersOf(long long leaves, const ClosShape &shape);

ClosShape shapeFor(long long leaves, int requestedTiers, int radix, int leafUp,
                   double spineOversubscription, const std::string &endpointWord,
                   int endpointsPerLeaf)
{
    if (requestedTiers != 0 && (requestedTiers < 2 || requestedTiers > 4))
        throw FabricParameterError("tiers must be 1, 2, 3 or 4, not "
                                   + std::to_string(requestedTiers));
    const int tiers
        = requestedTiers != 0 ? requestedTiers : fewestTiers(leaves, radix, spineOversubscription);
    const long long most = maxLeaves(tiers, radix, spineOversubscription);
    if (leaves > most)
        throw FabricParameterError(
            std::to_string(tiers) + " tiers of radix-" + std::to_string(radix)
            + " switches join at most " + groupedCount(most) + " leaves ("
            + groupedCount(most * endpointsPerLeaf) + " " + endpointWord + "); "
            + groupedCount(leaves) + " leaves are needed"
            + (tiers < 4 ? ": use " + std::to_string(tiers + 1) + " tiers or a larger radix"
                         : std::string(": use a larger radix")));
    // Of the spine splits whose down:up ratio is at most the one asked for and that still hold
    // the leaves, the one that needs the fewest switches (the fewest up ports among equals), as
    // for the leaves: radix 64 at 2.5:1 would take 19 up (45:19) and 2,368 switches for 32,768
    // endpoints, where 22 up (42:22, 1.91:1) take 2,176.
    const int fewestUp = upPortsForOversubscription(radix, spineOversubscription);
    if (tiers == 2)
        return shapeWithSpineUp(leaves, tiers, radix, leafUp, fewestUp);
    std::vector<int> spineUps = {fewestUp};
    // Fewer down ports hold fewer leaves: the candidates stop at the first that cannot.
    for (int up = fewestUp + 1;
         up <= radix / 2 && leaves <= maxLeavesForSpineDown(tiers, radix, radix - up); ++up)
        spineUps.push_back(up);
    const int spineUp = withFewestSwitches(spineUps, [&](int up) {
        return switchTiersOf(leaves, shapeWithSpineUp(leaves, tiers, radix, leafUp, up)).switches;
    });
    return shapeWithSpineUp(leaves, tiers, radix, leafUp, spineUp);
}

/**
 * The leaves of a fat-tree of `shape` over `leaves` leaves and the tiers buildUpperTiers adds
 * above them, and the cables between switches (all optical: fabricLink); the endpoints and their
 * cables are not counted.
 */
FabricHardwareCount switchTiersOf(long long leaves, const ClosShape &shape)
{
    const long long spines = shape.spines();
    const long long cores = shape.tiers >= 3 ? shape.cores() : 0;
    const long long supers = shape.tiers == 4
        ? 1LL * shape.spinesPerPod * shape.coresPerGroup * shape.supersPerGroup
        : 0;
    const long long spineLinks = shape.tiers >= 3 ? spines * shape.spineUpPorts : 0;
    const long long coreLinks = shape.tiers == 4 ? cores * shape.coreUpPorts : 0;
    return {leaves + spines + cores + supers, leaves * shape.leafUpPorts + spineLinks + coreLinks};
}

/** Where buildUpperTiers' switches go: their label prefix ("plane3-") and first pod number. */
struct UpperTierNames
{
    std::string prefix;
    int firstPod = 0;
};

/** Adds spines (and cores) above `leaves` and wires them. */
void buildUpperTiers(FabricGraph &graph, const std::vector<FabricVertexId> &leaves,
                     const ClosShape &shape, const FabricLinkRates &rates,
                     const UpperTierNames &names = {})
{
    const FabricLink link = fabricLink(rates);
    std::vector<FabricVertexId> spines;
    const int spinesPerPod = shape.spinesPerPod;
    for (int pod = 0; pod < shape.pods; ++pod)
        for (int s = 0; s < shape.spinesOfPod(pod); ++s)
            spines.push_back(
                addSwitch(graph, 2, shape.tiers >= 3 ? names.firstPod + pod : -1,
                          names.prefix + "spine-" + std::to_string(pod * spinesPerPod + s)));
    for (std::size_t l = 0; l < leaves.size(); ++l) {
        const int pod = static_cast<int>(l) / shape.leavesPerPod;
        for (int j = 0; j < shape.leafUpPorts; ++j)
            graph.addLink(leaves[l], spines[pod * spinesPerPod + j % shape.spinesOfPod(pod)], link);
    }
    if (shape.tiers == 2)
        return;
    // Cores by block, then spine index (group), then core: block b's group s joins spine s of
    // each of its pods. With 3 tiers there is one block of every pod; a core may serve several
    // groups (groupsPerCore), and a short last pod's spine several groups (groupsOfSpine).
    const int coresPerBlock = spinesPerPod / shape.groupsPerCore * shape.coresPerGroup;
    const int podsPerBlock = shape.tiers == 4 ? shape.podsPerBlock : shape.pods;
    std::vector<FabricVertexId> cores;
    for (int block = 0; block < shape.blocks; ++block)
        for (int c = 0; c < coresPerBlock; ++c)
            cores.push_back(
                addSwitch(graph, 3, shape.tiers == 4 ? block : -1,
                          names.prefix + "core-" + std::to_string(block * coresPerBlock + c)));
    for (int pod = 0; pod < shape.pods; ++pod) {
        const int firstCore = pod / podsPerBlock * coresPerBlock;
        const int groups = shape.groupsOfSpine(pod);
        for (int s = 0; s < shape.spinesOfPod(pod); ++s)
            for (int j = 0; j < shape.spineUpPorts; ++j) {
                const int group = s * groups + j % groups;
                const int core = group / shape.groupsPerCore * shape.coresPerGroup
                    + j / groups % shape.coresPerGroup;
                graph.addLink(spines[pod * spinesPerPod + s], cores[firstCore + core], link);
            }
    }
    if (shape.tiers == 3)
        return;
    // Super-spine group g joins core g (same spine index, same core) of every block.
    std::vector<FabricVertexId> supers;
    for (int group = 0; group < coresPerBlock; ++group)
        for (int u = 0; u < shape.supersPerGroup; ++u)
            supers.push_back(addSwitch(graph, 4, -1,
                                       names.prefix + "super-"
                                           + std::to_string(group * shape.supersPerGroup + u)));
    for (int block = 0; block < shape.blocks; ++block)
        for (int group = 0; group < coresPerBlock; ++group)
            for (int j = 0; j < shape.coreUpPorts; ++j)
                graph.addLink(cores[block * coresPerBlock + group],
                              supers[group * shape.supersPerGroup + j % shape.supersPerGroup],
                              link);
}

/**
 * Whether every pod (and, with 4 tiers, every block) under the leaves is full: then every
 * endpoint is equivalent under the fabric's automorphisms and one search gives exact all-pairs
 * statistics.
 */
bool fullPods(long long leaves, const ClosShape &shape)
{
    if (shape.tiers == 2)
        return true;
    if (leaves % shape.leavesPerPod != 0)
        return false;
    return shape.tiers == 3 || shape.pods % shape.podsPerBlock == 0;
}

std::string ratioText(double down, double up)
{
    const double ratio = down / up;
    char text[32];
    std::snprintf(text, sizeof text, "%.3g:1", ratio);
    return text;
}

} // namespace

int upPortsForOversubscription(int radix, double oversubscription)
{
    // The fewest up ports whose down:up ratio is at most the one asked for: radix 64 at 2:1
    // takes 22 up (42:22, 1.91:1), where 21 (43:21, 2.05:1) would oversubscribe more than asked.
    return static_cast<int>(std::ceil(radix / (oversubscription + 1.0) - 1e-9));
}

namespace {

/** A rail leaf's up ports for `down` nodes at `oversubscription`, as railLayout sizes them. */
int railLeafUpPorts(int down, double oversubscription)
{
    return static_cast<int>(std::ceil(down / oversubscription - 1e-9));
}

} // namespace

int railNodesPerLeaf(int radix, double oversubscription)
{
    int down = radix - upPortsForOversubscription(radix, oversubscription);
    while (down > 1 && down + railLeafUpPorts(down, oversubscription) > radix)
        --down;
    return down;
}

/**
 * The block (leaf, or rail scalable unit) at which to halve `items` endpoints (or nodes) that
 * come `perBlock` to a block: the block boundary nearest half of them, so no leaf is split by
 * the bisection cut. A cut through a leaf lets the traffic between its two sides turn inside
 * the leaf instead of crossing its uplinks, which overstated the bisection of oversubscribed
 * fabrics (a 128-node 8:1 rail fabric in units of 48 read 0.344 where a cut at a unit's edge
 * gives 0.125). -1 when everything is on one block: the cut must split it.
 */
long long blockToHalveAt(long long items, long long perBlock)
{
    const long long blocks = (items + perBlock - 1) / std::max<long long>(1, perBlock);
    if (blocks < 2)
        return -1;
    long long best = 1;
    for (long long block = 1; block < blocks; ++block)
        if (std::llabs(2 * block * perBlock - items) < std::llabs(2 * best * perBlock - items))
            best = block;
    return best;
}

/**
 * One switch with every endpoint on it: what a cluster that fits one switch is built as (a rack's
 * top-of-rack switch). No uplinks, so no oversubscription; every pair is two links apart.
 */
FabricGraph singleSwitchFabric(const FatTreeParameters &p)
{
    const int endpoints = p.endpoints == 0 ? p.radix : p.endpoints; // at most the radix
    FabricGraph graph("fat-tree");
    graph.radix = p.radix;
    const FabricVertexId leaf = addSwitch(graph, 1, 0, "leaf-0");
    FabricLink access;
    access.linkClass = LinkClass::Access;
    access.medium = p.rates.accessMedium;
    access.bytesPerSecond = p.rates.accessBytesPerSecond;
    access.latencySeconds = p.rates.linkLatencySeconds;
    for (int e = 0; e < endpoints; ++e) {
        FabricVertex host;
        host.role = FabricVertexRole::Endpoint;
        host.group = 0;
        host.label = "host-" + std::to_string(e);
        const FabricVertexId id = graph.addVertex(std::move(host));
        graph.addLink(id, leaf, access);
        graph.naturalHalf.push_back(e < endpoints / 2 ? 0 : 1);
    }
    graph.symmetryRepresentatives.push_back(graph.endpoints().front());
    graph.description = "1 switch, radix " + std::to_string(p.radix) + ", "
        + std::to_string(endpoints) + " endpoints";
    return graph;
}

namespace {

/** The sizes a fat-tree's parameters give, checked: what generateFatTree builds and
 * fabricHardwareCount counts. */
struct FatTreeLayout
{
    bool singleSwitch = false;
    long long endpoints = 0;
    long long leafCount = 0;
    int down = 0;
    ClosShape shape;
};

/**
 * A leaf's up ports for `p.endpoints` at its oversubscription: of the splits of the radix whose
 * down:up ratio is at most the one asked for (from `fewest` up ports, upPortsForOversubscription),
 * the one that needs the fewest switches, and the
 * fewest up ports among equals. Spines take the same number of links from every leaf, so their
 * count is a divisor of the up ports (shapeFor): 25 up ports of a radix-64 leaf at 1.5:1 take 25
 * spines of 27 used ports, where 26 take 13 with two links from each leaf (40 switches against
 * 52, and 48 non-blocking).
 */
int leafUpPortsWithFewestSwitches(const FatTreeParameters &p, int fewest)
{
    std::vector<int> upPorts;
    for (int up = fewest; up <= std::max(fewest, p.radix / 2); ++up)
        upPorts.push_back(up);
    return withFewestSwitches(upPorts, [&](int up) {
        const int down = p.radix - up;
        const long long leaves = ceilDiv(p.endpoints + p.storagePorts, down);
        return switchTiersOf(leaves,
                             shapeFor(leaves, p.tiers, p.radix, up, p.spineOversubscription,
                                      "endpoints", down))
            .switches;
    });
}

FatTreeLayout fatTreeLayout(const FatTreeParameters &p)
{
    checkRadix(p.radix);
    checkOversubscription(p.leafOversubscription, "leaf oversubscription");
    checkOversubscription(p.spineOversubscription, "spine oversubscription");
    if (p.endpoints < 0)
        throw FabricParameterError("endpoints must be positive");
    checkStoragePorts(p.storagePorts);
    FatTreeLayout layout;
    if (p.tiers == 1
        || (p.tiers == 0 && p.endpoints > 0 && p.endpoints + p.storagePorts <= p.radix)) {
        layout.singleSwitch = true;
        layout.endpoints = p.endpoints == 0 ? p.radix : p.endpoints;
        if (layout.endpoints + p.storagePorts > p.radix)
            throw FabricParameterError(
                "1 tier: one radix-" + std::to_string(p.radix) + " switch holds at most "
                + std::to_string(p.radix) + " endpoints, "
                + std::to_string(layout.endpoints + p.storagePorts) + " are needed"
                + (p.storagePorts > 0
                       ? " (" + std::to_string(p.storagePorts) + " of them the storage's)"
                       : std::string())
                + ": use 2 tiers");
        return layout;
    }
    int up = upPortsForOversubscription(p.radix, p.leafOversubscription);
    if (up < 1)
        throw FabricParameterError("leaf oversubscription leaves no up port on a radix-"
                                   + std::to_string(p.radix) + " switch");
    if (p.endpoints > 0 && p.endpoints <= maxFabricEndpoints)
        up = leafUpPortsWithFewestSwitches(p, up);
    const int down = p.radix - up;
    long long endpoints = p.endpoints;
    if (endpoints == 0) {
        const int tiers = p.tiers == 0 ? 3 : p.tiers;
        endpoints = maxLeaves(tiers, p.radix, p.spineOversubscription) * down;
    }
    if (endpoints > maxFabricEndpoints)
        throw FabricParameterError("at most " + std::to_string(maxFabricEndpoints)
                                   + " endpoints (a larger fat tree takes over 10 s to build and "
                                     "analyse), not "
                                   + std::to_string(endpoints));
    layout.endpoints = endpoints;
    layout.down = down;
    // The storage's ports on leaves after the endpoints' (none in the largest fabric).
    layout.leafCount = ceilDiv(endpoints + (p.endpoints > 0 ? p.storagePorts : 0), down);
    layout.shape = shapeFor(layout.leafCount, p.tiers, p.radix, up, p.spineOversubscription,
                            "endpoints", down);
    return layout;
}

} // namespace

FabricGraph generateFatTree(const FatTreeParameters &p)
{
    const FatTreeLayout layout = fatTreeLayout(p);
    if (layout.singleSwitch)
        return singleSwitchFabric(p);
    const long long endpoints = layout.endpoints;
    const long long leafCount = layout.leafCount;
    const int down = layout.down;
    const int up = layout.shape.leafUpPorts;
    const ClosShape &shape = layout.shape;

    FabricGraph graph("fat-tree");
    graph.radix = p.radix;
    const FabricHardwareCount tiers = switchTiersOf(leafCount, shape);
    graph.reserve(static_cast<std::size_t>(endpoints + tiers.switches),
                  static_cast<std::size_t>(endpoints + tiers.opticalLinks));
    std::vector<FabricVertexId> leaves;
    for (long long l = 0; l < leafCount; ++l)
        leaves.push_back(addSwitch(graph, 1, static_cast<int>(l) / shape.leavesPerPod,
                                   "leaf-" + std::to_string(l)));
    FabricLink access;
    access.linkClass = LinkClass::Access;
    access.medium = p.rates.accessMedium;
    access.bytesPerSecond = p.rates.accessBytesPerSecond;
    access.latencySeconds = p.rates.linkLatencySeconds;
    const long long halvingLeaf = blockToHalveAt(endpoints, down);
    for (long long e = 0; e < endpoints; ++e) {
        FabricVertex host;
        host.role = FabricVertexRole::Endpoint;
        host.group = static_cast<int>(e / down) / shape.leavesPerPod;
        host.label = "host-" + std::to_string(e);
        const FabricVertexId id = graph.addVertex(std::move(host));
        graph.addLink(id, leaves[e / down], access);
        graph.naturalHalf.push_back(halvingLeaf >= 0 ? (e / down < halvingLeaf ? 0 : 1)
                                                     : (e < endpoints / 2 ? 0 : 1));
    }
    buildUpperTiers(graph, leaves, shape, p.rates);

    // Every host is equivalent when every leaf is full and (3 tiers) every pod is full: then one
    // BFS gives exact all-pairs statistics. Leaves kept for storage leave the hosts equivalent
    // under two tiers (every leaf reaches every spine alike), not in a pod of their own.
    const bool full = endpoints % down == 0
        && (p.storagePorts == 0 ? fullPods(leafCount, shape) : shape.tiers == 2);
    if (full)
        graph.symmetryRepresentatives.push_back(graph.endpoints().front());
    graph.leafDownPorts = down;
    graph.leafUpPorts = up;
    graph.description = std::to_string(shape.tiers) + "-tier fat-tree, radix "
        + std::to_string(p.radix) + ", " + groupedCount(endpoints) + " endpoints"
        + (p.storagePorts > 0 ? " and " + groupedCount(p.storagePorts) + " storage ports"
                              : std::string())
        + ", leaf " + ratioText(down, up)
        + (shape.tiers >= 3
               ? ", spine " + ratioText(p.radix - shape.spineUpPorts, shape.spineUpPorts)
               : std::string());
    return graph;
}

namespace {

/** Refuses rail parameters no fabric can be built from, naming the one at fault. */
void checkRailParameters(const RailFatTreeParameters &p)
{
    checkRadix(p.radix);
    checkOversubscription(p.leafOversubscription, "leaf oversubscription");
    checkOversubscription(p.spineOversubscription, "spine oversubscription");
    checkStoragePorts(p.storagePorts);
    if (p.nodes < 1 || p.nodes > (1 << 20))
        throw FabricParameterError("nodes must be between 1 and 1,048,576, not "
                                   + std::to_string(p.nodes));
    if (p.gpusPerNode < 1 || p.gpusPerNode > 576)
        throw FabricParameterError("GPUs per node (rails) must be between 1 and 576, not "
                                   + std::to_string(p.gpusPerNode));
    if (p.nodesPerScalableUnit < 0)
        throw FabricParameterError("nodes per scalable unit must be positive (0: chosen)");
    // One tier would be the rail leaves alone, with nothing to join the rails (shapeFor's own
    // message, "tiers must be 1, 2, 3 or 4", named the value it refused as allowed).
    if (p.tiers == 1)
        throw FabricParameterError("a rail-optimised fat-tree has a leaf per rail and spines to "
                                   "join them: 2 to 4 tiers (or the fewest that hold the GPUs), "
                                   "not 1");
    if (1LL * p.nodes * p.gpusPerNode > maxFabricEndpoints)
        throw FabricParameterError("at most " + std::to_string(maxFabricEndpoints)
                                   + " GPUs on a rail fat tree (a larger one takes over 10 s to "
                                     "build and analyse), not "
                                   + std::to_string(1LL * p.nodes * p.gpusPerNode));
}

/** Every node's GPUs, each on its scalable unit's leaf of its rail and on the node's NVLink
 * switch. */
void addRailNodes(FabricGraph &graph, const RailFatTreeParameters &p,
                  const std::vector<FabricVertexId> &leaves)
{
    FabricLink access;
    access.linkClass = LinkClass::Access;
    access.medium = p.rates.accessMedium;
    access.bytesPerSecond = p.rates.accessBytesPerSecond;
    access.latencySeconds = p.rates.linkLatencySeconds;
    FabricLink nvlink;
    nvlink.linkClass = LinkClass::ScaleUp;
    nvlink.medium = LinkMedium::Internal;
    nvlink.bytesPerSecond = p.rates.scaleUpBytesPerSecond;
    const long long halvingUnit = blockToHalveAt(p.nodes, p.nodesPerScalableUnit);
    for (int n = 0; n < p.nodes; ++n) {
        const int unit = n / p.nodesPerScalableUnit;
        FabricVertexId nvswitch = 0;
        if (p.gpusPerNode > 1) {
            FabricVertex sw;
            sw.role = FabricVertexRole::ScaleUpSwitch;
            sw.group = unit;
            sw.label = "nvswitch-n" + std::to_string(n);
            nvswitch = graph.addVertex(std::move(sw), static_cast<std::size_t>(p.gpusPerNode));
        }
        for (int g = 0; g < p.gpusPerNode; ++g) {
            FabricVertex gpu;
            gpu.role = FabricVertexRole::Endpoint;
            gpu.group = unit;
            gpu.label = "gpu-n" + std::to_string(n) + "-" + std::to_string(g);
            const FabricVertexId id = graph.addVertex(std::move(gpu), 2);
            graph.addLink(id, leaves[static_cast<std::size_t>(unit) * p.gpusPerNode + g], access);
            if (p.gpusPerNode > 1)
                graph.addLink(id, nvswitch, nvlink);
            graph.naturalHalf.push_back(halvingUnit >= 0 ? (unit < halvingUnit ? 0 : 1)
                                                         : (n < p.nodes / 2 ? 0 : 1));
        }
    }
}

} // namespace

namespace {

/** The sizes a rail fabric's parameters give, checked (generateRailFatTree, fabricHardwareCount).
 */
struct RailLayout
{
    int down = 0;
    int up = 0;
    int units = 0;
    long long storageLeaves = 0; ///< after the units' leaves (RailFatTreeParameters::storagePorts)
    long long leafCount = 0; ///< the units' and the storage's
    ClosShape shape;
};

/** The rail fabric's sizes for `down` nodes and `up` uplinks on each leaf. */
RailLayout railLayoutWith(const RailFatTreeParameters &p, int down, int up)
{
    RailLayout layout;
    layout.down = down;
    layout.up = up;
    layout.units = static_cast<int>(ceilDiv(p.nodes, down));
    layout.storageLeaves = p.multiPlane ? 0 : ceilDiv(p.storagePorts, down);
    layout.leafCount = static_cast<long long>(layout.units) * p.gpusPerNode + layout.storageLeaves;
    // Multi-plane: the tiers above the leaves are one plane's, over its `units` leaves.
    layout.shape = p.multiPlane ? shapeFor(layout.units, p.tiers, p.radix, layout.up,
                                           p.spineOversubscription, "nodes on a plane", layout.down)
                                : shapeFor(layout.leafCount, p.tiers, p.radix, layout.up,
                                           p.spineOversubscription, "GPUs", layout.down);
    return layout;
}

/** The rail fabric's switches and switch-to-switch cables (switchTiersOf), every plane's. */
FabricHardwareCount railSwitchTiers(const RailFatTreeParameters &p, const RailLayout &layout)
{
    if (!p.multiPlane)
        return switchTiersOf(layout.leafCount, layout.shape);
    return switchTiersOf(layout.units, layout.shape).times(p.gpusPerNode);
}

/**
 * The rail fabric's sizes, its leaves' uplinks chosen as a fat-tree's are: of the counts from the
 * fewest that keep the ratio asked for up to as many as the leaf's nodes, the one that needs the
 * fewest switches, the fewest uplinks among equals. Spines take the same links from every leaf,
 * so their count divides the uplinks: 128 nodes at 3:1 in units of 32 need 11 uplinks a leaf and
 * 11 spines (43 switches, more than 2:1's 40), where 12 uplinks (2.67:1) need 6 (38).
 */
RailLayout railLayout(const RailFatTreeParameters &p)
{
    checkRailParameters(p);
    const int down = p.nodesPerScalableUnit;
    const int fewest = railLeafUpPorts(down, p.leafOversubscription);
    if (down + fewest > p.radix)
        throw FabricParameterError(
            "a rail leaf needs " + std::to_string(down) + " down and " + std::to_string(fewest)
            + " up ports at " + ratioText(p.leafOversubscription, 1) + ", more than radix "
            + std::to_string(p.radix)
            + ": use fewer nodes per scalable unit, more oversubscription or a larger radix");
    std::vector<int> upPorts;
    for (int up = fewest; up <= std::max(fewest, std::min(down, p.radix - down)); ++up)
        upPorts.push_back(up);
    const int up = withFewestSwitches(upPorts, [&](int candidate) {
        return railSwitchTiers(p, railLayoutWith(p, down, candidate)).switches;
    });
    return railLayoutWith(p, down, up);
}

/** `p` with its unit size chosen (railNodesPerLeafWithFewestSwitches) where it gives none. */
RailFatTreeParameters withScalableUnit(const RailFatTreeParameters &p)
{
    RailFatTreeParameters sized = p;
    if (sized.nodesPerScalableUnit == 0)
        sized.nodesPerScalableUnit = railNodesPerLeafWithFewestSwitches(p);
    return sized;
}

} // namespace

FabricGraph generateRailFatTree(const RailFatTreeParameters &parameters)
{
    const RailFatTreeParameters p = withScalableUnit(parameters);
    const RailLayout layout = railLayout(p);
    const int down = layout.down;
    const int up = layout.up;
    const int units = layout.units;
    const long long leafCount = layout.leafCount;
    const ClosShape &shape = layout.shape;

    FabricGraph graph("rail-fat-tree");
    graph.radix = p.radix;
    // Each node: its GPUs, and with more than one an NVSwitch and a scale-up link per GPU.
    const long long gpus = 1LL * p.nodes * p.gpusPerNode;
    const long long scaleUpSwitches = p.gpusPerNode > 1 ? p.nodes : 0;
    const long long scaleUpLinks = p.gpusPerNode > 1 ? gpus : 0;
    const FabricHardwareCount tiers = railSwitchTiers(p, layout);
    graph.reserve(static_cast<std::size_t>(gpus + tiers.switches + scaleUpSwitches),
                  static_cast<std::size_t>(gpus + tiers.opticalLinks + scaleUpLinks));
    std::vector<FabricVertexId> leaves;
    const long long railLeaves = leafCount - layout.storageLeaves;
    for (long long l = 0; l < railLeaves; ++l) {
        const int unit = static_cast<int>(l / p.gpusPerNode);
        const int rail = static_cast<int>(l % p.gpusPerNode);
        leaves.push_back(addSwitch(
            graph, 1, unit, "leaf-su" + std::to_string(unit) + "-rail" + std::to_string(rail)));
    }
    for (long long l = 0; l < layout.storageLeaves; ++l)
        leaves.push_back(addSwitch(graph, 1, units, "leaf-storage" + std::to_string(l)));
    addRailNodes(graph, p, leaves);
    if (p.multiPlane) {
        // Plane r: rail r's leaf of every unit, under tiers of its own.
        for (int rail = 0; rail < p.gpusPerNode; ++rail) {
            std::vector<FabricVertexId> plane;
            for (int unit = 0; unit < units; ++unit)
                plane.push_back(leaves[static_cast<std::size_t>(unit) * p.gpusPerNode + rail]);
            buildUpperTiers(graph, plane, shape, p.rates,
                            {"plane" + std::to_string(rail) + "-", rail * shape.pods});
        }
        graph.identicalPlanes = p.gpusPerNode;
    } else {
        buildUpperTiers(graph, leaves, shape, p.rates);
        // A unit's rail leaves share a pod, and every leaf's uplinks go to its pod's spines the
        // same way whatever its rail: the rails can be swapped.
        if (shape.leavesPerPod % p.gpusPerNode == 0)
            graph.interchangeableRails = p.gpusPerNode;
    }
    const long long leavesUnderTiers = p.multiPlane ? units : leafCount;
    // Storage leaves leave the GPUs equivalent under two tiers only (as in generateFatTree).
    const bool full = p.nodes % p.nodesPerScalableUnit == 0
        && (layout.storageLeaves == 0 ? fullPods(leavesUnderTiers, shape) : shape.tiers == 2);
    if (full)
        graph.symmetryRepresentatives.push_back(graph.endpoints().front());
    graph.leafDownPorts = down;
    graph.leafUpPorts = up;
    graph.description = std::to_string(shape.tiers) + "-tier rail-optimised fat-tree"
        + (p.multiPlane ? ", " + std::to_string(p.gpusPerNode) + " planes (one per rail)"
                        : std::string())
        + ", radix " + std::to_string(p.radix) + ", " + groupedCount(p.nodes) + " nodes x "
        + std::to_string(p.gpusPerNode) + " GPUs in " + groupedCount(units) + " scalable units of "
        + std::to_string(p.nodesPerScalableUnit) + ", leaf " + ratioText(down, up)
        + (layout.storageLeaves > 0 ? ", " + groupedCount(layout.storageLeaves) + " storage "
                   + (layout.storageLeaves == 1 ? "leaf" : "leaves") + " for "
                   + groupedCount(p.storagePorts) + " ports"
                                    : std::string());
    return graph;
}

FabricHardwareCount fabricHardwareCount(const FatTreeParameters &p)
{
    const FatTreeLayout layout = fatTreeLayout(p);
    const long long opticalAccess
        = p.rates.accessMedium == LinkMedium::Optical ? layout.endpoints : 0;
    if (layout.singleSwitch)
        return {1, opticalAccess};
    FabricHardwareCount count = switchTiersOf(layout.leafCount, layout.shape);
    count.opticalLinks += opticalAccess;
    return count;
}

int railNodesPerLeafWithFewestSwitches(const RailFatTreeParameters &p)
{
    std::vector<int> unitSizes; // the largest first, preferred among equals
    for (int down = railNodesPerLeaf(p.radix, p.leafOversubscription); down >= 1; --down)
        unitSizes.push_back(down);
    if (unitSizes.empty())
        return railNodesPerLeaf(p.radix, p.leafOversubscription);
    return withFewestSwitches(unitSizes, [&](int down) {
        RailFatTreeParameters candidate = p;
        candidate.nodesPerScalableUnit = down;
        return fabricHardwareCount(candidate).switches;
    });
}

FabricHardwareCount fabricHardwareCount(const RailFatTreeParameters &parameters)
{
    const RailFatTreeParameters p = withScalableUnit(parameters);
    const RailLayout layout = railLayout(p);
    // NVSwitches are scale-up switches inside the servers, not the fabric's.
    FabricHardwareCount count = railSwitchTiers(p, layout);
    if (p.rates.accessMedium == LinkMedium::Optical)
        count.opticalLinks += 1LL * p.nodes * p.gpusPerNode;
    return count;
}

} // namespace cp::model
