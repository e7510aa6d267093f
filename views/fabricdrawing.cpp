// SPDX-License-Identifier: GPL-3.0-or-later
#include "fabricdrawing.h"

#include "model/catalog/catalog.h"
#include "model/fabric/fabricfailure.h"
#include "model/plan/plan.h"
#include "model/planning/planfabric.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>
#include <numbers>
#include <unordered_map>

namespace cp::views {

namespace {

using model::FabricGraph;
using model::FabricVertexId;
using model::LinkClass;

constexpr double minimumTierGap = 150; ///< scene units between switch tiers
constexpr double serverRowHeight = 44;

/** Lines merged by their two ends; an end >= 0 is a switch, < 0 a server group or block. */
class LineMerger
{
public:
    explicit LineMerger(std::vector<FabricDrawing::Line> &lines)
        : m_lines(lines)
    { }
    FabricDrawing::Line &at(long long a, long long b, bool *created)
    {
        const auto key = std::make_pair(std::min(a, b), std::max(a, b));
        const auto [it, inserted] = m_index.emplace(key, m_lines.size());
        if (inserted)
            m_lines.emplace_back();
        *created = inserted;
        return m_lines[it->second];
    }

private:
    std::vector<FabricDrawing::Line> &m_lines;
    std::map<std::pair<long long, long long>, std::size_t> m_index;
};

/** Adds one link to a merged line: its cables, rate and (with loads) its heat. */
void addLinkTo(FabricDrawing::Line &line, const model::FabricLink &link,
               const model::FabricLinkLoads *loads)
{
    ++line.cables;
    line.bytesPerSecond += link.bytesPerSecond;
    if (loads && link.id < loads->utilisation.size()) {
        line.utilisation = std::max(line.utilisation, loads->utilisation[link.id]);
        line.flows = std::max(line.flows, loads->flows[link.id]);
        if (link.id < loads->bytesPerStep.size())
            line.bytesPerStep = std::max(line.bytesPerStep, loads->bytesPerStep[link.id]);
    }
}

int numberAfter(const std::string &text, const std::string &prefix)
{
    const std::size_t at = text.find(prefix);
    if (at == std::string::npos)
        return -1;
    return std::atoi(text.c_str() + at + prefix.size());
}

/** Box indices by key, created on first use with `text`. */
int blockFor(FabricDrawing &d, std::map<std::pair<int, int>, int> &blocks, int tier, int group,
             const std::string &text)
{
    const auto [it, inserted]
        = blocks.emplace(std::make_pair(tier, group), static_cast<int>(d.blocks.size()));
    if (inserted) {
        FabricDrawing::Box box;
        box.x = std::numeric_limits<double>::max();
        box.width = -std::numeric_limits<double>::max(); // holds the right edge until finished
        box.text = text;
        d.blocks.push_back(box);
    }
    return it->second;
}

std::string blockText(const FabricGraph &graph, const model::FabricVertex &vertex)
{
    const bool rail = graph.topologyName() == "rail-fat-tree";
    const int tier = vertex.tier;
    const int group = vertex.group;
    // A rail fabric's leaves for the storage that shares it (fattreegenerator.h) hold no rail.
    if (tier == 1 && rail && vertex.label.rfind("leaf-storage", 0) == 0)
        return "storage leaves";
    if (tier == 1)
        return rail ? "SU " + std::to_string(group) + " rail leaves"
                    : "pod " + std::to_string(group) + " leaves";
    if (tier == 2)
        return group < 0 ? std::string("spines") : "pod " + std::to_string(group) + " spines";
    if (tier == 3)
        return group < 0 ? std::string("cores") : "block " + std::to_string(group) + " cores";
    return "super-spines";
}

/** Switch rows top to bottom (super-spine, core, spine, leaf), blocks around each group's
 * switches. */
void placeTierSwitches(const FabricGraph &graph, FabricDrawing &d, std::vector<int> &switchOf)
{
    std::map<int, std::vector<FabricVertexId>, std::greater<>> tiers;
    for (FabricVertexId v = 0; v < graph.vertexCount(); ++v)
        if (graph.vertex(v).role == model::FabricVertexRole::Switch)
            tiers[graph.vertex(v).tier].push_back(v);
    std::size_t widest = 1;
    for (const auto &[tier, list] : tiers)
        widest = std::max(widest, list.size());
    d.width = static_cast<double>(widest) * d.switchSpacing;
    // Tiers spread with the width, so a 512-leaf row fitted on screen is not a flat strip; a row
    // of one or two switches keeps them closer, so that fitted (or on a report's page) it is not
    // a long thin line whose names are too small to read.
    const double tierGap = std::max(std::min(minimumTierGap, 3 * d.width), d.width / 12);
    std::map<std::pair<int, int>, int> blocks;
    int row = 0;
    for (const auto &[tier, list] : tiers) {
        const double step = d.width / static_cast<double>(list.size());
        for (std::size_t i = 0; i < list.size(); ++i) {
            const model::FabricVertex &vertex = graph.vertex(list[i]);
            FabricDrawing::Switch s;
            s.x = (static_cast<double>(i) + 0.5) * step;
            s.y = 40 + row * tierGap;
            s.tier = tier;
            s.vertex = list[i];
            s.label = vertex.label;
            s.name = model::switchDisplayName(graph, list[i]);
            s.colour = numberAfter(vertex.label, "-rail");
            d.rails = std::max(d.rails, s.colour + 1);
            // Cores are one block (group -1) under 3 tiers, one per block of pods under 4.
            const int group = vertex.group;
            s.block = blockFor(d, blocks, tier, group, blockText(graph, vertex));
            FabricDrawing::Box &box = d.blocks[static_cast<std::size_t>(s.block)];
            box.x = std::min(box.x, s.x - d.switchWidth);
            box.width = std::max(box.width, s.x + d.switchWidth);
            // Blocks grow with the tier gap, so they stay visible boxes when fitted.
            box.height = std::max(4 * d.switchHeight, tierGap * 0.12);
            box.y = s.y - box.height / 2;
            switchOf[list[i]] = static_cast<int>(d.switches.size());
            d.switches.push_back(std::move(s));
        }
        ++row;
    }
    for (FabricDrawing::Box &box : d.blocks)
        box.width -= box.x;
    d.serverRowHeight = std::max(serverRowHeight, tierGap * 0.15);
    d.height = 40 + row * tierGap + d.serverRowHeight;
}

/**
 * Server groups under the leaves: a scalable unit (rail fabric: its nodes reach all rail
 * leaves of the unit) or the hosts of one leaf; each box spans its leaves.
 */
void placeServerGroups(const FabricGraph &graph, FabricDrawing &d, const std::vector<int> &switchOf,
                       std::vector<int> &serverOf)
{
    const auto &g = graph.storage();
    const bool rail = graph.topologyName() == "rail-fat-tree";
    const double y = d.height - d.serverRowHeight;
    std::map<int, int> groups;
    std::vector<long long> members;
    for (FabricVertexId e : graph.endpoints()) {
        int leaf = -1;
        for (auto [it, end] = boost::out_edges(e, g); it != end && leaf < 0; ++it)
            if (g[*it].linkClass == LinkClass::Access)
                leaf = switchOf[boost::target(*it, g)];
        if (leaf < 0)
            continue;
        const int key = rail ? graph.vertex(e).group : leaf;
        const auto [it, inserted] = groups.emplace(key, static_cast<int>(d.servers.size()));
        if (inserted) {
            FabricDrawing::Box box;
            box.x = std::numeric_limits<double>::max();
            box.width = -std::numeric_limits<double>::max();
            box.y = y;
            box.height = d.serverRowHeight * 0.7;
            d.servers.push_back(box);
            members.push_back(0);
        }
        FabricDrawing::Box &box = d.servers[static_cast<std::size_t>(it->second)];
        const FabricDrawing::Switch &s = d.switches[static_cast<std::size_t>(leaf)];
        box.x = std::min(box.x, s.x - d.switchSpacing * 0.45);
        box.width = std::max(box.width, s.x + d.switchSpacing * 0.45);
        ++members[static_cast<std::size_t>(it->second)];
        serverOf[e] = it->second;
    }
    const long long perNode = rail ? std::max(1, d.rails) : 1;
    for (std::size_t i = 0; i < d.servers.size(); ++i) {
        FabricDrawing::Box &box = d.servers[i];
        box.width -= box.x;
        // Off a rail fabric an endpoint is one NIC port, and a server may have several.
        box.text = rail ? std::to_string(members[i] / perNode) + " servers"
                        : std::to_string(members[i]) + " NIC ports";
    }
}

/** One detail line per switch pair (or switch and server group), one bundle per block pair. */
void mergeTierLinks(const FabricGraph &graph, FabricDrawing &d, const std::vector<int> &switchOf,
                    const std::vector<int> &serverOf, const model::FabricLinkLoads *loads)
{
    const auto &g = graph.storage();
    LineMerger detail(d.links);
    LineMerger bundle(d.bundles);
    for (auto [it, end] = boost::edges(g); it != end; ++it) {
        const model::FabricLink &link = g[*it];
        if (link.linkClass == LinkClass::ScaleUp)
            continue;
        FabricVertexId u = boost::source(*it, g);
        FabricVertexId v = boost::target(*it, g);
        if (switchOf[u] < 0)
            std::swap(u, v); // u is the switch
        const int a = switchOf[u];
        const bool toServers = switchOf[v] < 0;
        const int b = toServers ? serverOf[v] : switchOf[v];
        if (a < 0 || b < 0)
            continue;
        const FabricDrawing::Switch &sa = d.switches[static_cast<std::size_t>(a)];
        const auto &box
            = toServers ? d.servers[static_cast<std::size_t>(b)] : FabricDrawing::Box {};
        const double bx = toServers ? sa.x : d.switches[static_cast<std::size_t>(b)].x;
        const double by = toServers ? box.y : d.switches[static_cast<std::size_t>(b)].y;
        bool created = false;
        FabricDrawing::Line &line = detail.at(a, toServers ? -1 - b : b, &created);
        if (created) {
            line = {sa.x, sa.y, bx, by};
            line.a = a;
            line.b = toServers ? -1 : b;
            line.server = toServers ? b : -1;
            line.colour = sa.colour;
            line.linkClass = link.linkClass;
            if (!toServers) {
                line.endA = sa.label;
                line.endB = d.switches[static_cast<std::size_t>(b)].label;
            }
        }
        addLinkTo(line, link, loads);
        const int blockA = sa.block;
        const int blockB = toServers ? -1 - b : d.switches[static_cast<std::size_t>(b)].block;
        FabricDrawing::Line &group = bundle.at(blockA, blockB, &created);
        if (created) {
            const auto &ba = d.blocks[static_cast<std::size_t>(blockA)];
            const auto &bb = toServers ? box : d.blocks[static_cast<std::size_t>(blockB)];
            group = {ba.x + ba.width / 2, ba.y + ba.height / 2, bb.x + bb.width / 2,
                     bb.y + bb.height / 2};
            group.linkClass = link.linkClass;
        }
        addLinkTo(group, link, loads);
    }
}

void layoutDragonfly(const FabricGraph &graph, FabricDrawing &d, std::vector<int> &switchOf)
{
    std::map<int, std::vector<FabricVertexId>> groups;
    for (FabricVertexId v = 0; v < graph.vertexCount(); ++v)
        if (graph.vertex(v).role == model::FabricVertexRole::Switch)
            groups[graph.vertex(v).group].push_back(v);
    std::map<int, long long> endpoints;
    for (FabricVertexId e : graph.endpoints())
        ++endpoints[graph.vertex(e).group];
    std::size_t routers = 1;
    for (const auto &[group, list] : groups)
        routers = std::max(routers, list.size());
    const double pi = std::numbers::pi;
    const double groupRadius = std::max(30.0, static_cast<double>(routers) * 26 / (2 * pi));
    const double count = static_cast<double>(std::max<std::size_t>(1, groups.size()));
    const double ring = std::max(200.0, count * (2 * groupRadius + 50) / (2 * pi));
    const double centre = ring + groupRadius + 60;
    d.width = d.height = 2 * centre;
    d.switchSpacing = 2 * pi * groupRadius / static_cast<double>(routers);
    int index = 0;
    for (const auto &[group, list] : groups) {
        const double angle = 2 * pi * index++ / count - pi / 2;
        const double gx = centre + ring * std::cos(angle);
        const double gy = centre + ring * std::sin(angle);
        FabricDrawing::Box box {gx - groupRadius - 14, gy - groupRadius - 14, 2 * groupRadius + 28,
                                2 * groupRadius + 28,
                                "group " + std::to_string(group) + ": "
                                    + std::to_string(list.size()) + " routers, "
                                    + std::to_string(endpoints[group]) + " endpoints"};
        const int block = static_cast<int>(d.blocks.size());
        d.blocks.push_back(box);
        for (std::size_t k = 0; k < list.size(); ++k) {
            const double a = 2 * pi * static_cast<double>(k) / static_cast<double>(list.size());
            FabricDrawing::Switch s;
            s.x = gx + groupRadius * std::cos(a);
            s.y = gy + groupRadius * std::sin(a);
            s.vertex = list[k];
            s.label = graph.vertex(list[k]).label;
            s.name = model::switchDisplayName(graph, list[k]);
            s.block = block;
            switchOf[list[k]] = static_cast<int>(d.switches.size());
            d.switches.push_back(std::move(s));
        }
    }
}

/** Router pairs for detail; global links per group pair for the overview (local ones stay inside
 * the group's box). */
void mergeDragonflyLinks(const FabricGraph &graph, FabricDrawing &d,
                         const std::vector<int> &switchOf, const model::FabricLinkLoads *loads)
{
    const auto &g = graph.storage();
    LineMerger detail(d.links);
    LineMerger bundle(d.bundles);
    for (auto [it, end] = boost::edges(g); it != end; ++it) {
        const int a = switchOf[boost::source(*it, g)];
        const int b = switchOf[boost::target(*it, g)];
        if (a < 0 || b < 0)
            continue;
        const auto &sa = d.switches[static_cast<std::size_t>(a)];
        const auto &sb = d.switches[static_cast<std::size_t>(b)];
        bool created = false;
        FabricDrawing::Line &line = detail.at(a, b, &created);
        if (created) {
            line = {sa.x, sa.y, sb.x, sb.y};
            line.a = a;
            line.b = b;
            line.linkClass = g[*it].linkClass;
            line.endA = sa.label;
            line.endB = sb.label;
        }
        addLinkTo(line, g[*it], loads);
        if (sa.block == sb.block)
            continue;
        FabricDrawing::Line &group = bundle.at(sa.block, sb.block, &created);
        if (created) {
            const auto &ba = d.blocks[static_cast<std::size_t>(sa.block)];
            const auto &bb = d.blocks[static_cast<std::size_t>(sb.block)];
            group = {ba.x + ba.width / 2, ba.y + ba.height / 2, bb.x + bb.width / 2,
                     bb.y + bb.height / 2};
            group.linkClass = LinkClass::Global;
        }
        addLinkTo(group, g[*it], loads);
    }
}

/** Chip coordinates from torus labels ("chip-3-0-7"). */
std::vector<int> chipCoordinates(const std::string &label)
{
    std::vector<int> coord;
    for (std::size_t at = label.find('-'); at != std::string::npos; at = label.find('-', at + 1))
        coord.push_back(std::atoi(label.c_str() + at + 1));
    while (coord.size() < 3)
        coord.push_back(0);
    return coord;
}

/**
 * One plane of the torus (third coordinate = `plane`) as a grid; wrap-around links are drawn
 * as stubs leaving the grid at both ends (curved = true), links to other planes are not drawn.
 */
void layoutTorus(const FabricGraph &graph, FabricDrawing &d, int plane,
                 const model::FabricLinkLoads *loads)
{
    const auto &g = graph.storage();
    std::vector<std::vector<int>> coords(graph.vertexCount());
    std::vector<int> extent(3, 1);
    for (FabricVertexId v : graph.endpoints()) {
        coords[v] = chipCoordinates(graph.vertex(v).label);
        for (int k = 0; k < 3; ++k)
            extent[k] = std::max(extent[k], coords[v][k] + 1);
    }
    d.torusPlanes = extent[2];
    d.torusPlane = std::clamp(plane, 0, extent[2] - 1);
    const double cell = 40;
    d.switchSpacing = cell;
    d.width = (extent[0] + 2) * cell;
    d.height = (extent[1] + 2) * cell;
    const auto at = [&](FabricVertexId v, int k) {
        return (coords[v][k] + 1.5) * cell;
    };
    std::vector<int> shown(graph.vertexCount(), -1);
    for (FabricVertexId v : graph.endpoints())
        if (coords[v][2] == d.torusPlane) {
            shown[v] = static_cast<int>(d.servers.size());
            d.servers.push_back({at(v, 0) - 9, at(v, 1) - 9, 18, 18, graph.vertex(v).label});
        }
    LineMerger merger(d.links);
    for (auto [it, end] = boost::edges(g); it != end; ++it) {
        const FabricVertexId u = boost::source(*it, g);
        const FabricVertexId v = boost::target(*it, g);
        if (shown[u] < 0 || shown[v] < 0)
            continue;
        bool created = false;
        FabricDrawing::Line &line = merger.at(shown[u], shown[v], &created);
        if (created) {
            line = {at(u, 0), at(u, 1), at(v, 0), at(v, 1)};
            line.curved = std::abs(coords[u][0] - coords[v][0]) > 1
                || std::abs(coords[u][1] - coords[v][1]) > 1;
            line.endA = graph.vertex(u).label;
            line.endB = graph.vertex(v).label;
        }
        addLinkTo(line, g[*it], loads);
    }
    d.bundles = d.links; // a plane is small enough to draw whole at any zoom
}

} // namespace

FabricDrawing buildFabricDrawing(const model::FabricGraph &graph, int torusPlane,
                                 const model::FabricLinkLoads *loads)
{
    FabricDrawing d;
    d.topology = graph.topologyName();
    d.description = graph.description;
    std::vector<int> switchOf(graph.vertexCount(), -1);
    if (d.topology == "torus") {
        layoutTorus(graph, d, torusPlane, loads);
    } else if (d.topology == "dragonfly") {
        layoutDragonfly(graph, d, switchOf);
        mergeDragonflyLinks(graph, d, switchOf, loads);
    } else {
        std::vector<int> serverOf(graph.vertexCount(), -1);
        placeTierSwitches(graph, d, switchOf);
        placeServerGroups(graph, d, switchOf, serverOf);
        mergeTierLinks(graph, d, switchOf, serverOf, loads);
    }
    return d;
}

namespace {

void addGroup(std::vector<int> &groups, int group)
{
    const auto at = std::lower_bound(groups.begin(), groups.end(), group);
    if (at == groups.end() || *at != group)
        groups.insert(at, group);
}

} // namespace

void assignNodeGroups(FabricDrawing &drawing, const model::FabricGraph &graph,
                      const std::vector<int> &nodeGroups, int endpointsPerNode)
{
    const auto &g = graph.storage();
    std::vector<int> switchOf(graph.vertexCount(), -1);
    for (std::size_t i = 0; i < drawing.switches.size(); ++i)
        switchOf[drawing.switches[i].vertex] = static_cast<int>(i);
    std::map<std::string, std::size_t> chipBox; // torus: a box per chip, named by its label
    for (std::size_t i = 0; i < drawing.servers.size(); ++i)
        chipBox.emplace(drawing.servers[i].text, i);
    const auto &endpoints = graph.endpoints();
    const std::size_t perNode = static_cast<std::size_t>(std::max(1, endpointsPerNode));
    for (std::size_t position = 0; position < endpoints.size(); ++position) {
        const std::size_t node = position / perNode;
        if (node >= nodeGroups.size())
            break; // endpoints beyond the plan's NICs (a torus or Dragonfly sized up)
        const int group = nodeGroups[node];
        const model::FabricVertexId endpoint = endpoints[position];
        for (auto [it, end] = boost::out_edges(endpoint, g); it != end; ++it)
            if (g[*it].linkClass == LinkClass::Access)
                if (const int s = switchOf[boost::target(*it, g)]; s >= 0)
                    addGroup(drawing.switches[static_cast<std::size_t>(s)].groups, group);
        if (const auto box = chipBox.find(graph.vertex(endpoint).label); box != chipBox.end())
            addGroup(drawing.servers[box->second].groups, group);
    }
    // A server box under the leaves holds the servers of the switches cabled to it.
    for (const FabricDrawing::Line &line : drawing.links)
        if (line.server >= 0 && line.a >= 0)
            for (int group : drawing.switches[static_cast<std::size_t>(line.a)].groups)
                addGroup(drawing.servers[static_cast<std::size_t>(line.server)].groups, group);
}

namespace {

/** The status line's account of what the heat map shows. */
std::string loadNoteOf(const model::FabricLinkLoads &loads)
{
    char text[320];
    if (loads.utilisation.empty()) {
        std::snprintf(text, sizeof text, "heat (%s): nothing to show, %s",
                      model::fabricTrafficName(loads.traffic).c_str(), loads.emptyReason.c_str());
        return text;
    }
    const std::string bottleneck = loads.bottleneckLink.empty() ? "none" : loads.bottleneckLink;
    switch (loads.traffic) {
    case model::FabricTraffic::DataParallel:
        std::snprintf(text, sizeof text,
                      "heat: the training layout's data-parallel rings over %d nodes, all at "
                      "once, %.0f Gb/s per flow; bottleneck %s",
                      loads.ringNodes, loads.bytesPerSecondPerFlow * 8 / 1e9, bottleneck.c_str());
        break;
    case model::FabricTraffic::Pipeline:
        std::snprintf(text, sizeof text,
                      "heat: pipeline sends between consecutive stages, all at once, %.0f Gb/s "
                      "per GPU pair; bottleneck %s",
                      loads.bytesPerSecondPerFlow * 8 / 1e9, bottleneck.c_str());
        break;
    case model::FabricTraffic::ExpertParallel:
        std::snprintf(text, sizeof text,
                      "heat: expert all-to-all, every node pair of a group on every rail, %.0f "
                      "Gb/s per flow; bottleneck %s",
                      loads.bytesPerSecondPerFlow * 8 / 1e9, bottleneck.c_str());
        break;
    case model::FabricTraffic::All:
        std::snprintf(text, sizeof text,
                      "heat: all scale-out bytes of one %.2f s step over what each link carries "
                      "in it; busiest %s",
                      loads.stepSeconds, bottleneck.c_str());
        break;
    }
    return text;
}

} // namespace

FabricDrawing buildPlanFabricDrawing(const model::Plan &plan, const model::Catalog &catalog,
                                     int torusPlane, model::FabricTraffic traffic)
{
    FabricDrawing none;
    try {
        const std::optional<model::PlanFabric> fabric = model::planFabric(plan, catalog);
        if (!fabric) {
            none.error = "The plan has no fabric: choose a topology on the fabric card and "
                         "connect a server group to it.";
            return none;
        }
        const model::FabricGraph graph = model::generatePlanFabric(*fabric);
        const model::FabricLinkLoads loads
            = model::planFabricLinkLoads(plan, catalog, graph, traffic);
        FabricDrawing d
            = buildFabricDrawing(graph, torusPlane, loads.utilisation.empty() ? nullptr : &loads);
        assignNodeGroups(d, graph, model::fabricNodeGroups(plan),
                         model::planEndpointsPerNode(plan, *fabric));
        d.loadNote = loadNoteOf(loads);
        d.hasLoads = !loads.utilisation.empty();
        d.traffic = loads.traffic;
        return d;
    } catch (const std::exception &error) {
        none.error = std::string("The fabric cannot be built: ") + error.what();
        return none;
    }
}

} // namespace cp::views
