// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "model/fabric/fabricgraph.h"
#include "model/planning/fabriclinkload.h"

#include <memory>
#include <string>
#include <vector>

namespace cp::model {
class Catalog;
struct Plan;
} // namespace cp::model

namespace cp::views {

/**
 * What the Fabric view draws for a generated graph, in scene units: switches, the server groups
 * under them, and the links twice over: merged per switch pair (detail) and merged per pair of
 * blocks (overview bundles: a scalable unit's leaves, a pod's spines, a Dragonfly group). Plain
 * data without Qt, built on a worker thread (buildFabricDrawing can take 100 ms at 16,384 GPUs).
 */
struct FabricDrawing
{
    struct Switch
    {
        double x = 0; ///< centre
        double y = 0;
        int tier = 1;
        int colour = -1; ///< rail index for rail leaves, -1 for the tier colour
        int block = -1; ///< index in blocks
        model::FabricVertexId vertex = 0;
        std::string label; ///< the graph's label, the plan file's failed_switches entry
        std::string name; ///< "rail 2 leaf of scalable unit 3"
        /** Plan node groups (Plan::nodeGroups indices) with a NIC cabled to it, sorted. */
        std::vector<int> groups {};
    };
    struct Box
    {
        double x = 0; ///< top left
        double y = 0;
        double width = 0;
        double height = 0;
        std::string text;
        int colour = -1;
        /** Plan node groups whose servers (chips, for a torus) the box stands for, sorted. */
        std::vector<int> groups {};
    };
    struct Line
    {
        double x1 = 0, y1 = 0, x2 = 0, y2 = 0;
        bool curved = false; ///< torus wrap-around: a curve through (cx, cy)
        double cx = 0, cy = 0;
        long long cables = 0;
        double bytesPerSecond = 0; ///< aggregate, per direction
        int colour = -1; ///< rail index, or -1
        int a = -1, b = -1; ///< switch indices at the ends, -1 for a server group
        int server = -1; ///< the server group (index in servers) of a switch's access line
        model::LinkClass linkClass = model::LinkClass::Fabric;
        /**
         * Graph labels of the two ends when the line stands for the cables between two
         * vertices (a switch pair, two torus chips): what a fabric.failed_links entry names.
         * Empty for bundles and for a switch's line to a server group.
         */
        std::string endA {}, endB {};
        /** Heat map: the busiest merged link's utilisation and flows (-1: no loads). */
        double utilisation = -1;
        double flows = 0;
        double bytesPerStep = 0; ///< the busiest merged link's bytes per training step
    };

    std::string topology;
    std::string description;
    std::string error; ///< why there is nothing to draw
    std::vector<Switch> switches;
    std::vector<Box> servers; ///< server groups (fat-trees), chips (torus)
    std::vector<Box> blocks; ///< overview boxes: SU leaves, pod spines, cores, Dragonfly groups
    std::vector<Line> links; ///< detail: one line per switch pair (or switch and server group)
    std::vector<Line> bundles; ///< overview: one line per block pair
    double width = 0;
    double height = 0;
    /** Scene distance between neighbouring switches: below a few pixels the view shows bundles. */
    double switchSpacing = 24;
    double switchWidth = 16;
    double switchHeight = 10;
    double serverRowHeight = 44; ///< fat-trees: the band of server groups under the leaves
    int torusPlanes = 0; ///< 3-D torus: planes along the third dimension; one is drawn
    int torusPlane = 0;
    int rails = 0; ///< rail fat-tree: rails (colours)
    /** What the heat map shows: "data-parallel rings over 16 nodes ..."; empty without loads. */
    std::string loadNote;
    bool hasLoads = false; ///< the lines carry a heat map (utilisation >= 0)
    /** The traffic the heat map shows: one class's flows all at once (utilisation: the share of
     * a link's capacity they take while they run) or all of a step's bytes (the share of the
     * step the link is busy). */
    model::FabricTraffic traffic = model::FabricTraffic::DataParallel;
};

/**
 * Lays out `graph`: tiers for fat-trees, a circle of groups for Dragonfly, a grid for a torus.
 * With `loads`, every line carries the utilisation of the busiest link it stands for.
 */
FabricDrawing buildFabricDrawing(const model::FabricGraph &graph, int torusPlane = 0,
                                 const model::FabricLinkLoads *loads = nullptr);

/**
 * Fills Switch::groups and Box::groups: which plan node group each switch serves and each
 * server box stands for. `nodeGroups` is model::fabricNodeGroups (group of each fabric node);
 * node n owns endpoints n x endpointsPerNode onwards of the graph.
 */
void assignNodeGroups(FabricDrawing &drawing, const model::FabricGraph &graph,
                      const std::vector<int> &nodeGroups, int endpointsPerNode);

/** The plan's generated fabric, laid out; error set when it has none or it cannot be built. */
FabricDrawing
buildPlanFabricDrawing(const model::Plan &plan, const model::Catalog &catalog, int torusPlane = 0,
                       model::FabricTraffic traffic = model::FabricTraffic::DataParallel);

} // namespace cp::views
