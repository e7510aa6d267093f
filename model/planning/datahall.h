// SPDX-License-Identifier: GPL-3.0-or-later
// The room: racks in rows, servers and switches at U positions, and every fabric cable with its
// two ends, its length from the positions and the medium that length needs.
#pragma once

#include "model/fabric/fabricgraph.h"
#include "model/planning/cablemedium.h"
#include "model/planning/planestimate.h"
#include "model/planning/planfabric.h"

#include <map>
#include <string>
#include <vector>

namespace cp::model {

class Catalog;
struct Plan;

/** The out-of-band management switch every row's devices are cabled to (catalogs/switches.json:
 * the SN2201 of NVIDIA's SuperPOD reference architecture). A catalog without it gets no
 * management network, with a note. */
inline constexpr const char *managementSwitchId = "sn2201";

/** The room's named dimensions (metres). */
struct DataHallOptions
{
    /** Compute cabinets per row; each row ends in its network cabinet(s). */
    int computeRacksPerRow = 10;
    /** A 600 mm cabinet, the common width for 19-inch (EIA-310) racks. */
    double rackWidthMeters = 0.6;
    /** One cabinet depth (1.2 m, deep GPU cabinets) plus one aisle of 1.2 m, the minimum aisle
     * width ANSI/TIA-942 recommends between hot and cold aisles. */
    double rowPitchMeters = 2.4;
    /** From a cabinet's top to the overhead cable tray. */
    double trayAboveRackMeters = 0.3;
    /** Service loops, both ends together. */
    double slackMeters = 1.0;
    /** The most servers in racks the layout places one by one, each with its cables, ports and
     * management port: 2^19 take about 1.5 s and 0.8 GB on a 2-core Xeon (a 3.8 M-server hall
     * took 19 s and 5.8 GB). A larger hall is not laid out: layoutDataHall says so in its notes
     * and warnings. */
    long long maxServers = 1LL << 19;
};

struct HallRack
{
    std::string name; ///< "R01-C03" (row 1, cabinet 3), "R01-N1" (row 1's network cabinet)
    std::string role; ///< "compute", "network", "spine", "storage"
    /** A compute cabinet's server group (its NodeGroup::name); empty otherwise. */
    std::string group;
    /** The catalog's cabinet type (RackSpec id); network cabinets take the first compute
     * cabinet's. Empty when none is known. */
    std::string rackId;
    int row = 0; ///< position along the room, in row pitches (the spine row included)
    int column = 0; ///< position along the row, in cabinet widths
    int rackUnits = 42;
    int usedUnits = 0;
    double watts = 0; ///< nameplate draw of what it holds at full load
    /** The same at the training job's GPU utilisation (trainingrun.h); 0 without a run. */
    double runWatts = 0;
    double limitWatts = 0; ///< the cabinet's power and cooling limit (0: unknown)
    double powerFraction() const { return limitWatts > 0 ? watts / limitWatts : 0.0; }
    /** Switch ports in the cabinet and how many carry a fabric cable (network cabinets). */
    int ports = 0;
    int portsUsed = 0;
    double kilograms = 0; ///< what its devices weigh, as far as the catalog knows
    double limitKilograms = 0; ///< the equipment load the cabinet is rated for (0: unknown)
    int devicesOfUnknownWeight = 0; ///< devices whose catalog entry gives no weight
    int pdus = 0; ///< zero-U PDUs, half on each of the A and B feeds
    double pduWatts = 0; ///< what one feed's PDUs carry together (the cabinet's on one side)
    int patchPanels = 0;
    /** Drawing more than one feed's PDUs carry (the other feed must carry it alone). */
    bool overItsPdus() const { return pdus > 0 && watts > pduWatts; }
    /** Over its power, load or space limit, or over its PDUs. */
    bool overLimit() const
    {
        return powerFraction() > 1.0 || weightFraction() > 1.0 || usedUnits > rackUnits
            || overItsPdus();
    }
    /** Its load against its rating; negative when the rating or a device's weight is unknown. */
    double weightFraction() const
    {
        return limitKilograms > 0 && devicesOfUnknownWeight == 0 ? kilograms / limitKilograms
                                                                 : -1.0;
    }
};

struct HallDevice
{
    std::string name; ///< "compute-0001", "leaf-su0-rail3"
    /** "GPU server", "leaf switch", "spine switch", "core switch", "storage system",
     * "management switch", "PDU" (zero-U, on a side of the cabinet), "patch panel". */
    std::string role;
    std::string typeName; ///< the catalog name of the node or switch
    int rack = -1; ///< index into DataHall::racks; -1 when its group is not placed in racks
    int position = 0; ///< lowest U it occupies, from 1; 0 when it has no U (or is zero-U)
    int heightUnits = 1; ///< 0 for a zero-U PDU
    /** In a cabinet with a place: a U position, or zero-U (a PDU). */
    bool placed() const { return rack >= 0 && (position > 0 || heightUnits == 0); }
    double watts = 0; ///< at full load
    int ports = 0; ///< a switch's ports (its catalog radix); 0 for servers
    int portsUsed = 0; ///< of them, those with a fabric cable
    double kilograms = 0; ///< the catalog's weight; 0: not known
    /** The catalog entry it is (a server's node, a storage system, a switch); may be empty. */
    std::string catalogId;
    /** A storage system's entry in the plan (an index into Plan::storage); -1 for the rest. */
    int storageEntry = -1;
};

struct HallCable
{
    std::string label; ///< "C00001"
    int deviceA = -1, deviceB = -1; ///< indices into DataHall::devices
    std::string portA, portB; ///< "nic3", "p17"
    double lengthMeters = 0; ///< ordered length: the run rounded up to 0.5 m
    bool positioned = true; ///< false when an end's group is not placed in racks: no length
    double bitsPerSecond = 0;
    CableMedium medium = CableMedium::PassiveCopper;
    bool management = false; ///< on the out-of-band management network, not the fabric
    /** The fabric generator's medium for the link (its tier's), used where the cable has no
     * length: an unplaced end. */
    bool opticalInFabric = false;
    /** On the storage network (a server's storage port or a storage system's port, and the
     * storage switches between): the NIC whose rate and cables it uses. Empty otherwise. */
    std::string storageNicId;
    bool storage() const { return !storageNicId.empty(); }
};

struct DataHall
{
    std::vector<HallRack> racks;
    std::vector<HallDevice> devices;
    std::vector<HallCable> cables;
    /** NetBox's InterfaceTypeChoices slug for the fabric ports ("infiniband-ndr"). */
    std::string interfaceType = "other";
    std::vector<std::string> notes; ///< groups without racks, cables out of reach
    /** Of the notes, those the estimate repeats as warnings: what the bill of materials leaves
     * out (a storage network not laid out, ports not cabled) and cabinets beyond their PDUs or
     * units. */
    std::vector<std::string> warnings;
    /** The storage network's switch type (catalog id), when it has switches of its own. */
    std::string storageSwitchId;
    /** A storage network beyond two tiers of its switch, counted as the fewest-tier fat-tree of
     * it but not laid out in the room (so not among the devices and cables): its switches, and
     * the transceivers of its switch-to-switch links, of `unlaidStorageNicId`'s optic. */
    long long unlaidStorageSwitches = 0;
    long long unlaidStorageTransceivers = 0;
    std::string unlaidStorageNicId;
    /** Storage systems on the compute fabric (servers without a storage network) whose ports
     * did not all find a free leaf port: device index to the ports that did get a cable (0: the
     * system is unreachable). Systems with every port cabled are not listed. */
    std::map<int, int> storagePortsCabled;
    /** NetBox's interface type of each storage NIC's ports, by NIC id. */
    std::map<std::string, std::string> storageInterfaceTypes;
    /** Why the room is not laid out (more servers than DataHallOptions::maxServers); empty when
     * it is. */
    std::string notLaidOut;
    /** The room row of the spine cabinets (between the compute rows), -1 without one. */
    int spineRoomRow = -1;
    /** The compute row (NodeGroup::hallRow) of a room row: rows behind the spine row count one
     * less; the spine row itself is the compute row that follows it. */
    int computeRowOf(int roomRow) const
    {
        return spineRoomRow >= 0 && roomRow > spineRoomRow ? roomRow - 1 : roomRow;
    }
};

/**
 * Lays the plan out in its room: each server group's racks (as many servers per rack as the
 * estimate's rack usage allows) fill rows of `computeRacksPerRow` cabinets, servers stacked from
 * U1, from the row the group names (NodeGroup::hallRow) or after the group before it; each leaf or
 * Dragonfly router goes to the network cabinet at the end of the row holding most of its servers;
 * spine and core switches to a spine row in the middle of the room. Every cable of the generated
 * fabric except NVLink becomes a run between two ports whose length is the vertical climb to the
 * tray at each end, the tray run along and across rows, and the slack (the difference in height
 * alone inside one rack), and whose medium follows from that length and the port rate
 * (cablemedium.h). Every device in a cabinet also gets a management port on the out-of-band
 * network: the management switches of its row's network cabinet, one per 48 ports, over twisted
 * pair. Throws what planFabric and estimatePlan throw for a plan the catalog cannot resolve.
 */
DataHall layoutDataHall(const Plan &plan, const Catalog &catalog);

/** The plan's room dimensions (Plan::hall) as the layout's options. */
DataHallOptions hallOptionsOf(const Plan &plan);

/** What a layout needs when the estimate is being built: its rack usage and its fabric. */
struct DataHallInputs
{
    const Plan &plan;
    const Catalog &catalog;
    const std::vector<RackUsage> &racks; ///< the estimate's, per server group
    /** The training run's share of time the GPUs compute (0: no run; cabinets show nameplate). */
    double gpuBusyFraction = 0;
    const FabricGraph *graph = nullptr; ///< the plan's generated fabric, if it has one
    const PlanFabric *fabric = nullptr;
    bool withCables = true; ///< false: cabinets and positions only (the estimate's count)
};

/** The same layout from the estimate's parts (layoutDataHall above runs the estimate first). */
DataHall layoutDataHall(const DataHallInputs &inputs, const DataHallOptions &options = {});

/** The cable run between two placed devices, before rounding (metres; see layoutDataHall). */
double cableRunMeters(const DataHall &hall, int deviceA, int deviceB,
                      const DataHallOptions &options);

} // namespace cp::model
