// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "model/fabric/dragonflygenerator.h"
#include "model/fabric/fattreegenerator.h"
#include "model/fabric/torusgenerator.h"

#include <optional>
#include <string>

namespace cp::model {

enum class FabricTopology { FatTree, RailFatTree, Dragonfly, Torus };

std::string fabricTopologyName(FabricTopology topology);
/** The topology as people name it: "fat-tree", "rail-optimised fat-tree", "Dragonfly", "torus"
 * (fabricTopologyName is the plan file's and the command line's word). */
std::string fabricTopologyTitle(FabricTopology topology);
/** fabricTopologyTitle of a plan file's topology word; the word itself when it names none. */
std::string fabricTopologyTitle(const std::string &name);
std::optional<FabricTopology> fabricTopologyFromName(const std::string &name);

struct NicSpec;
struct SwitchSpec;

/** Which generator to run with which parameters: what the CLI and the generator dialog fill in. */
struct FabricDesign
{
    FabricTopology topology = FabricTopology::FatTree;
    FatTreeParameters fatTree;
    RailFatTreeParameters railFatTree;
    DragonflyParameters dragonfly;
    TorusParameters torus;

    /** Sets every generator's link rates from a NIC (endpoints) and a switch (switch ports). */
    void setLinks(const NicSpec &nic, const SwitchSpec &sw, double scaleUpBytesPerSecond);
    /** Endpoints that form one node (a GPU server's rails) for the collective rings. */
    int endpointsPerNode() const;
};

FabricGraph generateFabric(const FabricDesign &design);

/** Switches and optical cables of a generated graph (the scale-out switches; NVSwitches are
 * inside the servers). */
FabricHardwareCount hardwareCountOf(const FabricGraph &graph);

/**
 * The same for the graph generateFabric would build, without building it: fat-trees and rail
 * fabrics from their layouts; nullopt for Dragonflies and tori (generate those).
 */
std::optional<FabricHardwareCount> fabricHardwareCount(const FabricDesign &design);

/**
 * Where a fat-tree or rail fabric was given more tiers (`tiers`) than its endpoints need: its
 * `switches` against the fewest tiers' count, and that the tiers above join nothing more;
 * empty otherwise (or for other topologies).
 */
std::string extraTiersText(const FabricDesign &design, int tiers, long long switches,
                           long long endpoints);

} // namespace cp::model
