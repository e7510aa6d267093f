// SPDX-License-Identifier: GPL-3.0-or-later
// Global links use a circulant arrangement: global port t = r*h + j of a group goes to the group
// `offset(t) = t mod (g - 1) + 1` further on, and meets the port with the opposite offset there.
// Turning every group index by one is then an automorphism of the graph, so the routers of group
// 0 represent all routers and shortest-path statistics from them are exact. At g = a*h + 1 each
// group pair has exactly one global link (Kim et al. 2008, section 3.1); with fewer groups pairs
// get several, and ports whose offset class cannot be paired are left unused (reported).
#include "model/fabric/dragonflygenerator.h"

#include "model/core/humantext.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <string>

namespace cp::model {

namespace {

void check(bool ok, const std::string &reason)
{
    if (!ok)
        throw FabricParameterError(reason);
}

} // namespace

namespace {

/** p, a and h, and the number of groups, once the user's figures are filled in and checked. */
struct DragonflyShape
{
    int p = 0, a = 0, h = 0;
    long long groups = 0;
    int routerRadix() const { return p + (a - 1) + h; }
    long long endpointsPerGroup() const { return static_cast<long long>(a) * p; }
};

/** Bounds before any arithmetic, so that nothing below can overflow. */
void checkDragonflyBounds(const DragonflyParameters &in)
{
    check(in.p >= 0 && in.a >= 0 && in.h >= 0 && in.groups >= 0 && in.endpoints >= 0
              && in.radix >= 0,
          "Dragonfly parameters must not be negative");
    // Bounds before any arithmetic: p = 2^30 made a = 2p wrap negative, and a = p = 4096 with
    // h = 2^28 made groups x endpoints-per-group wrap past the size check below. With p, a and h
    // at most 4096 (a filled in as 2p: 8192), a*h + 1 groups of a*p endpoints stay below 2^51.
    constexpr int maxRouterParameter = 4096;
    check(in.p <= maxRouterParameter && in.a <= maxRouterParameter && in.h <= maxRouterParameter,
          "p, a and h must be at most " + std::to_string(maxRouterParameter)
              + " (p = " + std::to_string(in.p) + ", a = " + std::to_string(in.a)
              + ", h = " + std::to_string(in.h) + ")");
    check(in.radix <= 4 * maxRouterParameter,
          "radix " + std::to_string(in.radix) + " exceeds " + std::to_string(4 * maxRouterParameter)
              + " ports");
}

/**
 * The balanced design (a = 2p = 2h, router radix 4p - 1) of `radix`-port switches that holds
 * `endpoints` on the fewest of them: max(2, ceil(E / 2p^2)) groups of 2p routers, each router
 * serving p endpoints, so a larger p needs fewer switches until the groups would be fewer than
 * two. The smallest design that held the target (p = 4 for 1,024 endpoints: 256 routers using
 * 15 of a 64-port switch's ports) bought four times the switches of p = 16 (64). Among equals,
 * the larger p (fewer groups, fewer global cables). Where no p up to the radix holds the target,
 * the largest, whose group count dragonflyGroups then refuses with the reason.
 */
int balancedRoutersForFewestSwitches(long long endpoints, int radix)
{
    const int largest = (radix + 1) / 4;
    int best = 0;
    long long fewest = std::numeric_limits<long long>::max();
    for (int p = 1; p <= largest; ++p) {
        const long long perGroup = 2LL * p * p;
        if (static_cast<double>(perGroup) * (perGroup + 1) < static_cast<double>(endpoints))
            continue; // more than a*h + 1 groups would be needed
        const long long groups = std::max<long long>(2, (endpoints + perGroup - 1) / perGroup);
        const long long routers = groups * 2 * p;
        if (routers <= fewest) {
            fewest = routers;
            best = p;
        }
    }
    return best > 0 ? best : largest;
}

/** p, a and h from the user's figures, the balanced relations a = 2p = 2h filling the rest. */
DragonflyShape dragonflyRouters(const DragonflyParameters &in)
{
    int p = in.p;
    int a = in.a;
    int h = in.h;
    if (p == 0 && a == 0 && h == 0) {
        if (in.endpoints > 0 && in.radix > 0) {
            p = balancedRoutersForFewestSwitches(in.endpoints, in.radix);
        } else if (in.endpoints > 0) {
            // No switch named: the smallest balanced design (g = a*h + 1 groups of a*p) that
            // holds the target.
            p = 1;
            while (2.0 * p * p * (2.0 * p * p + 1) < in.endpoints)
                ++p;
        } else if (in.radix > 0) {
            p = (in.radix + 1) / 4; // balanced: k = 4p - 1
        } else {
            throw FabricParameterError("a Dragonfly needs p, a and h, a radix, or a target "
                                       "endpoint count");
        }
        check(p >= 1,
              "radix " + std::to_string(in.radix)
                  + " is too small for a Dragonfly (it needs at least 3 ports)");
    }
    // Fill what is missing from the balanced relations a = 2p = 2h.
    const int base = p > 0 ? p : (a > 0 ? std::max(1, a / 2) : h);
    p = p > 0 ? p : base;
    a = a > 0 ? a : 2 * base;
    h = h > 0 ? h : base;
    check(a >= 2, "a Dragonfly group needs at least 2 routers (a = " + std::to_string(a) + ")");
    const int routerRadix = p + (a - 1) + h;
    if (in.radix > 0)
        check(routerRadix <= in.radix,
              "p + (a - 1) + h = " + std::to_string(routerRadix) + " ports exceeds radix "
                  + std::to_string(in.radix));
    DragonflyShape shape;
    shape.p = p;
    shape.a = a;
    shape.h = h;
    return shape;
}

/** The group count: given, or enough for the endpoints, at most a*h + 1 (one global link per pair).
 */
long long dragonflyGroups(const DragonflyParameters &in, const DragonflyShape &shape)
{
    const int p = shape.p, a = shape.a, h = shape.h;
    const long long maxGroups = static_cast<long long>(a) * h + 1;
    const long long perGroup = static_cast<long long>(a) * p;
    long long groups = in.groups;
    if (groups == 0)
        groups = in.endpoints > 0 ? std::max<long long>(2, (in.endpoints + perGroup - 1) / perGroup)
                                  : maxGroups;
    check(groups >= 2, "a Dragonfly needs at least 2 groups");
    check(groups <= maxGroups,
          std::to_string(groups) + " groups exceed a*h + 1 = " + std::to_string(maxGroups)
              + ": not every pair of groups can have a global link (p = " + std::to_string(p)
              + ", a = " + std::to_string(a) + ", h = " + std::to_string(h) + " holds at most "
              + std::to_string(maxGroups * perGroup) + " endpoints)");
    check(groups * perGroup <= maxFabricEndpoints,
          "at most " + std::to_string(maxFabricEndpoints)
              + " endpoints (a larger Dragonfly takes over 10 s to build and analyse), not "
              + std::to_string(groups * perGroup));
    if (in.endpoints > 0 && in.groups > 0)
        check(groups * perGroup >= in.endpoints,
              std::to_string(groups) + " groups of " + std::to_string(perGroup)
                  + " endpoints hold fewer than the " + std::to_string(in.endpoints)
                  + " asked for");
    return groups;
}

/** Routers and `endpoints` of their terminal ports, group-major (the routers' other terminal
 * ports stay free: no phantom endpoint is cabled or priced); returns the routers. */
std::vector<FabricVertexId> addGroups(FabricGraph &graph, const DragonflyShape &shape,
                                      long long endpoints, const FabricLinkRates &rates)
{
    const int g = static_cast<int>(shape.groups), a = shape.a, p = shape.p;
    std::vector<FabricVertexId> routers;
    routers.reserve(static_cast<std::size_t>(g) * a);
    for (int group = 0; group < g; ++group)
        for (int r = 0; r < a; ++r) {
            FabricVertex router;
            router.role = FabricVertexRole::Switch;
            router.tier = 1;
            router.group = group;
            router.label = "router-g" + std::to_string(group) + "-r" + std::to_string(r);
            routers.push_back(graph.addVertex(std::move(router)));
        }
    const auto router = [&](int group, int r) {
        return routers[static_cast<std::size_t>(group) * a + r];
    };
    FabricLink access;
    access.linkClass = LinkClass::Access;
    access.medium = rates.accessMedium;
    access.bytesPerSecond = rates.accessBytesPerSecond;
    access.latencySeconds = rates.linkLatencySeconds;
    // Every router alike only when every terminal port has its endpoint.
    const bool full = endpoints == static_cast<long long>(g) * a * p;
    long long built = 0;
    for (int group = 0; group < g; ++group)
        for (int r = 0; r < a; ++r)
            for (int e = 0; e < p && built < endpoints; ++e, ++built) {
                FabricVertex endpoint;
                endpoint.role = FabricVertexRole::Endpoint;
                endpoint.group = group;
                endpoint.label = "ep-g" + std::to_string(group) + "-r" + std::to_string(r) + "-"
                    + std::to_string(e);
                const FabricVertexId id = graph.addVertex(std::move(endpoint));
                graph.addLink(id, router(group, r), access);
                graph.naturalHalf.push_back(group < g / 2 ? 0 : 1);
                if (full && group == 0 && e == 0)
                    graph.symmetryRepresentatives.push_back(id);
            }
    return routers;
}

/** The all-to-all inside each group (local links) and the links between groups (global). Returns
 * the global ports per group left unused. */
int addGroupLinks(FabricGraph &graph, const DragonflyShape &shape,
                  const std::vector<FabricVertexId> &routers, const FabricLinkRates &rates)
{
    const int g = static_cast<int>(shape.groups), a = shape.a, h = shape.h;
    const auto router = [&](int group, int r) {
        return routers[static_cast<std::size_t>(group) * a + r];
    };
    // Local links: electrical, inside a group's cabinets (Kim et al. 2008, section 3.2).
    FabricLink local;
    local.linkClass = LinkClass::Fabric;
    local.medium = LinkMedium::Copper;
    local.bytesPerSecond = rates.fabricBytesPerSecond;
    local.latencySeconds = rates.linkLatencySeconds;
    for (int group = 0; group < g; ++group)
        for (int r = 0; r < a; ++r)
            for (int s = r + 1; s < a; ++s)
                graph.addLink(router(group, r), router(group, s), local);
    FabricLink global = local;
    global.linkClass = LinkClass::Global;
    global.medium = LinkMedium::Optical;
    global.latencySeconds = 10 * rates.linkLatencySeconds; // long runs between cabinets
    std::vector<std::vector<int>> portsByOffset(static_cast<std::size_t>(g));
    for (int t = 0; t < a * h; ++t)
        portsByOffset[static_cast<std::size_t>(t % (g - 1) + 1)].push_back(t);
    int unusedPerGroup = 0;
    for (int offset = 1; offset < g; ++offset) {
        const int back = g - offset;
        const auto &mine = portsByOffset[static_cast<std::size_t>(offset)];
        const auto &theirs = portsByOffset[static_cast<std::size_t>(back)];
        if (offset > back)
            continue;
        const std::size_t pairs = std::min(mine.size(), theirs.size());
        if (offset != back)
            unusedPerGroup += static_cast<int>(mine.size() + theirs.size() - 2 * pairs);
        for (int group = 0; group < g; ++group) {
            const int other = (group + offset) % g;
            if (offset == back && group >= other)
                continue; // the pair is added from the lower-numbered group
            for (std::size_t k = 0; k < pairs; ++k)
                graph.addLink(router(group, mine[k] / h), router(other, theirs[k] / h), global);
        }
    }
    return unusedPerGroup;
}

} // namespace

FabricGraph generateDragonfly(const DragonflyParameters &in)
{
    checkDragonflyBounds(in);
    DragonflyShape shape = dragonflyRouters(in);
    shape.groups = dragonflyGroups(in, shape);
    const int p = shape.p, a = shape.a, h = shape.h, g = static_cast<int>(shape.groups);
    const int routerRadix = shape.routerRadix();
    const long long perGroup = shape.endpointsPerGroup();
    FabricGraph graph("dragonfly");
    graph.radix = in.radix > 0 ? in.radix : routerRadix;
    const long long ports = g * perGroup;
    const long long endpoints = in.endpoints > 0 ? std::min<long long>(in.endpoints, ports) : ports;
    const std::vector<FabricVertexId> routers = addGroups(graph, shape, endpoints, in.rates);
    const int unusedPerGroup = addGroupLinks(graph, shape, routers, in.rates);
    graph.description = "Dragonfly, p = " + std::to_string(p) + ", a = " + std::to_string(a)
        + ", h = " + std::to_string(h) + ", " + std::to_string(g) + " groups ("
        + (endpoints < ports ? groupedCount(endpoints) + " endpoints on " + groupedCount(ports)
                   + " terminal ports"
                             : groupedCount(ports) + " endpoints")
        + ", router radix " + std::to_string(routerRadix) + ")";
    if (unusedPerGroup > 0)
        graph.description += ", " + std::to_string(unusedPerGroup)
            + (unusedPerGroup == 1 ? " global port" : " global ports") + " per group unused";
    return graph;
}

} // namespace cp::model
