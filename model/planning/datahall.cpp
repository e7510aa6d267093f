// SPDX-License-Identifier: GPL-3.0-or-later
#include "model/planning/datahall.h"

#include "model/catalog/catalog.h"
#include "model/core/humantext.h"
#include "model/fabric/fabricdesign.h"
#include "model/fabric/fabricgraph.h"
#include "model/fabric/fabricscaleout.h"
#include "model/operations/operationsestimator.h"
#include "model/plan/plan.h"
#include "model/planning/planestimator.h"
#include "model/planning/planfabric.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>
#include <optional>
#include <set>

namespace cp::model {

namespace {

/** One rack unit, 1.75 in (EIA-310). */
constexpr double metersPerRackUnit = 0.04445;

/** A note that the estimate repeats as a warning: something left out of the bill of materials,
 * or a cabinet beyond what it can carry. */
void warn(DataHall &hall, std::string text)
{
    hall.warnings.push_back(text);
    hall.notes.push_back(std::move(text));
}

std::string kilowattsText(double watts)
{
    char text[32];
    std::snprintf(text, sizeof text, "%.1f kW", watts / 1e3);
    return text;
}

std::string numbered(const std::string &prefix, long long value, int digits)
{
    char text[32];
    std::snprintf(text, sizeof text, "%0*lld", digits, value);
    return prefix + text;
}

/** "R03-C07": room row 3, compute cabinet 7. */
std::string rackName(int row, int column)
{
    return numbered("R", row + 1, 2) + numbered("-C", column + 1, 2);
}

/** Where the compute cabinets go: rows of `perRow`, the spine row (if any) in the middle. */
struct RowPlan
{
    int perRow = 10;
    int computeRows = 1;
    bool spineRow = false;
    int spineRowIndex() const { return computeRows / 2; }
    /** A compute row's position in the room: the spine row pushes the later rows back one. */
    int roomRow(int computeRow) const
    {
        return spineRow && computeRow >= spineRowIndex() ? computeRow + 1 : computeRow;
    }
};

/** Counts a device's weight into its cabinet (or that the weight is not known). */
void addWeight(HallRack &rack, const HallDevice &device)
{
    rack.kilograms += device.kilograms;
    rack.devicesOfUnknownWeight += device.kilograms > 0 ? 0 : 1;
}

/** An empty cabinet of `like`'s type (units, limits) standing at `row`, `column`. */
HallRack cabinetLike(const HallRack &like, const std::string &role, int row, int column)
{
    HallRack rack;
    rack.role = role;
    rack.row = row;
    rack.column = column;
    rack.rackId = like.rackId;
    rack.rackUnits = like.rackUnits;
    rack.limitWatts = like.limitWatts;
    rack.limitKilograms = like.limitKilograms;
    return rack;
}

/**
 * The network, spine and storage cabinets of each row, indexed once, so that mounting a device
 * looks only at its own row's cabinets of its role. Scanning every cabinet of the hall for each
 * device made a 377,776-server hall (125,926 compute racks, 25,185 management switches) take
 * 25 s: quadratic in the hall's size. Racks are only ever appended while one lives.
 */
class NetworkCabinets
{
public:
    explicit NetworkCabinets(DataHall &hall)
        : m_hall(hall)
    {
        for (std::size_t r = 0; r < hall.racks.size(); ++r)
            m_cabinets[{hall.racks[r].row, hall.racks[r].role}].push_back(r);
    }

    /** Adds `device` to the first cabinet of `role` in `row` with room for it (its units, and
     * its power within the cabinet's limit where the limit is known), or a new one: 16 storage
     * appliances of 2U and 3 kW filled cabinets by their units to 50.5 kW of 40. */
    void mount(HallDevice device, int row, const std::string &role, int firstColumn,
               const HallRack &cabinet)
    {
        std::vector<std::size_t> &cabinets = m_cabinets[{row, role}];
        int column = firstColumn;
        for (std::size_t r : cabinets) {
            HallRack &rack = m_hall.racks[r];
            column = std::max(column, rack.column + 1);
            const bool powerRoom
                = rack.limitWatts <= 0 || rack.watts + device.watts <= rack.limitWatts;
            if (rack.usedUnits + device.heightUnits <= rack.rackUnits && powerRoom) {
                device.rack = static_cast<int>(r);
                device.position = rack.usedUnits + 1;
                rack.usedUnits += device.heightUnits;
                rack.watts += device.watts;
                rack.ports += device.ports;
                rack.portsUsed += device.portsUsed;
                addWeight(rack, device);
                m_hall.devices.push_back(std::move(device));
                return;
            }
        }
        HallRack rack = cabinetLike(cabinet, role, row, column);
        rack.watts = device.watts;
        rack.ports = device.ports;
        rack.portsUsed = device.portsUsed;
        addWeight(rack, device);
        rack.name = numbered("R", row + 1, 2)
            + (role == "spine"         ? "-S"
                   : role == "storage" ? "-ST"
                                       : "-N")
            + std::to_string(column - firstColumn + 1);
        rack.usedUnits = device.heightUnits;
        device.rack = static_cast<int>(m_hall.racks.size());
        device.position = 1;
        cabinets.push_back(m_hall.racks.size());
        m_hall.racks.push_back(rack);
        m_hall.devices.push_back(std::move(device));
    }

    /** The first column of `row`'s network cabinets: after the compute cabinets in a compute
     * row, after whatever else stands there in others (the spine row). */
    int networkColumn(const RowPlan &rows, int row) const
    {
        bool computeRow = false;
        int firstColumn = 0;
        for (auto it = m_cabinets.lower_bound({row, std::string()});
             it != m_cabinets.end() && it->first.first == row; ++it) {
            const std::string &role = it->first.second;
            computeRow = computeRow || role == "compute";
            if (role == "network")
                continue;
            for (std::size_t r : it->second)
                firstColumn = std::max(firstColumn, m_hall.racks[r].column + 1);
        }
        return computeRow ? rows.perRow : firstColumn;
    }

private:
    DataHall &m_hall;
    std::map<std::pair<int, std::string>, std::vector<std::size_t>> m_cabinets;
};

/** The usage of `group` when it is placed in racks, or null. */
const RackUsage *rackedUsage(const NodeGroup &group, const std::vector<RackUsage> &rackUsage)
{
    const auto usage = std::find_if(rackUsage.begin(), rackUsage.end(),
                                    [&](const RackUsage &u) { return u.groupName == group.name; });
    return usage != rackUsage.end() && usage->nodesPerRack > 0 ? &*usage : nullptr;
}

/**
 * Where each group's compute cabinets stand, as cells (compute row x perRow + column), in plan
 * order: first the groups that name a row (in plan order), each from the start of its row, then
 * the others in order from the front; each takes the next free cells, so two groups never share
 * a cabinet position and a plan without rows fills the room front to back as before.
 */
std::vector<std::vector<long long>>
cabinetCells(const Plan &plan, const std::vector<RackUsage> &rackUsage, int perRow)
{
    std::vector<long long> cabinets(plan.nodeGroups.size(), 0);
    long long total = 0, highestStart = 0;
    for (std::size_t g = 0; g < plan.nodeGroups.size(); ++g) {
        const NodeGroup &group = plan.nodeGroups[g];
        if (const RackUsage *usage = rackedUsage(group, rackUsage)) {
            cabinets[g] = usage->racks;
            total += cabinets[g];
            if (group.hallRow >= 0)
                highestStart
                    = std::max(highestStart, static_cast<long long>(group.hallRow) * perRow);
        }
    }
    // Every cabinet fits below the highest named row plus all cabinets.
    std::vector<char> taken(static_cast<std::size_t>(highestStart + total + 1), 0);
    std::vector<std::vector<long long>> cells(plan.nodeGroups.size());
    auto take = [&](std::size_t g, long long from) {
        long long cell = from;
        for (long long c = 0; c < cabinets[g]; ++c) {
            while (taken[static_cast<std::size_t>(cell)])
                ++cell;
            taken[static_cast<std::size_t>(cell)] = 1;
            cells[g].push_back(cell);
        }
        return cell;
    };
    for (std::size_t g = 0; g < plan.nodeGroups.size(); ++g)
        if (cabinets[g] > 0 && plan.nodeGroups[g].hallRow >= 0)
            take(g, static_cast<long long>(plan.nodeGroups[g].hallRow) * perRow);
    long long next = 0;
    for (std::size_t g = 0; g < plan.nodeGroups.size(); ++g)
        if (cabinets[g] > 0 && plan.nodeGroups[g].hallRow < 0)
            next = take(g, next);
    return cells;
}

/** Compute rows the cells reach (at least one). */
int computeRowsOf(const std::vector<std::vector<long long>> &cells, int perRow)
{
    long long last = 0;
    for (const auto &group : cells)
        for (long long cell : group)
            last = std::max(last, cell);
    return static_cast<int>(last / perRow) + 1;
}

/**
 * The servers of every group on the fabric, in the fabric's node order, in compute cabinets at
 * their cells; returns each fabric node's device index.
 */
std::vector<int> placeServers(DataHall &hall, const Plan &plan, const Catalog &catalog,
                              const std::vector<RackUsage> &rackUsage, const RowPlan &rows,
                              const std::vector<std::vector<long long>> &cells,
                              double gpuBusyFraction)
{
    std::vector<int> serverOfNode;
    long long serial = 0, unpositioned = 0;
    for (std::size_t g = 0; g < plan.nodeGroups.size(); ++g) {
        const NodeGroup &group = plan.nodeGroups[g];
        const NodeSpec &node = catalog.node(group.nodeId);
        const RackUsage *usage = rackedUsage(group, rackUsage);
        if (!usage)
            hall.notes.push_back("group " + group.name + " is not placed in racks: its "
                                 + std::to_string(group.count) + " servers have no position");
        const RackSpec *cabinet = usage ? &catalog.rack(usage->rackId) : nullptr;
        const GpuSpec &gpu = catalog.gpu(node.gpuId);
        const double nodeWatts = node.powerWithoutGpusWatts + node.gpusPerNode * gpu.tdpWatts;
        // At the job's utilisation: the GPUs between idle and TDP, the rest of the server at
        // what it draws training (operationsestimator.h, as the run's energy takes them).
        const double runWatts = gpuBusyFraction > 0 ? hostTrainingWatts(node, gpu)
                + node.gpusPerNode * gpuAverageWatts(gpu, gpuBusyFraction)
                                                    : 0.0;
        for (int i = 0; i < group.count; ++i) {
            HallDevice server;
            server.name = slugOf(group.name) + numbered("-", ++serial, 4);
            server.role = "GPU server";
            server.typeName = node.name;
            server.heightUnits = std::max(1, node.rackUnits);
            server.watts = nodeWatts;
            server.kilograms = node.weightKilograms;
            server.catalogId = node.id;
            if (usage) {
                if (i % usage->nodesPerRack == 0) {
                    const long long cell
                        = cells[g][static_cast<std::size_t>(i / usage->nodesPerRack)];
                    HallRack rack;
                    rack.role = "compute";
                    rack.group = group.name;
                    rack.rackId = usage->rackId;
                    rack.row = rows.roomRow(static_cast<int>(cell / rows.perRow));
                    rack.column = static_cast<int>(cell % rows.perRow);
                    rack.rackUnits = cabinet->rackUnits;
                    rack.limitWatts = cabinet->powerLimitWatts;
                    rack.limitKilograms = cabinet->maxLoadKilograms;
                    rack.name = rackName(rack.row, rack.column);
                    hall.racks.push_back(rack);
                }
                HallRack &rack = hall.racks.back();
                server.rack = static_cast<int>(hall.racks.size()) - 1;
                rack.watts += server.watts;
                rack.runWatts += runWatts;
                addWeight(rack, server);
                // More servers than the cabinet has units for (a plan's nodes_per_rack): the
                // estimate warns; here they have no U.
                if (rack.usedUnits + server.heightUnits <= rack.rackUnits) {
                    server.position = rack.usedUnits + 1;
                    rack.usedUnits += server.heightUnits;
                } else {
                    ++unpositioned;
                }
            }
            if (group.onFabric)
                serverOfNode.push_back(static_cast<int>(hall.devices.size()));
            hall.devices.push_back(std::move(server));
        }
    }
    if (unpositioned > 0)
        hall.notes.push_back(std::to_string(unpositioned)
                             + " servers do not fit their cabinet's rack units: no U position");
    return serverOfNode;
}

/** The row a leaf's servers mostly sit in (ties: the nearer the front; row 0 when none has a
 * place); -1 for a leaf without endpoints (one kept for storage: FatTreeParameters::storagePorts).
 */
int rowOfMostServers(const DataHall &hall, const FabricGraph &graph, FabricVertexId leaf,
                     const std::vector<int> &deviceOfVertex)
{
    std::map<int, int> servers;
    const auto &g = graph.storage();
    for (auto [it, end] = boost::out_edges(leaf, g); it != end; ++it) {
        const int device = deviceOfVertex[boost::target(*it, g)];
        if (device >= 0 && hall.devices[static_cast<std::size_t>(device)].rack >= 0
            && hall.devices[static_cast<std::size_t>(device)].role == "GPU server")
            ++servers[hall.racks[static_cast<std::size_t>(
                                     hall.devices[static_cast<std::size_t>(device)].rack)]
                          .row];
    }
    bool hasEndpoints = false;
    for (auto [it, end] = boost::out_edges(leaf, g); it != end && !hasEndpoints; ++it)
        hasEndpoints = g[boost::target(*it, g)].role == FabricVertexRole::Endpoint;
    int best = hasEndpoints ? 0 : -1, count = -1;
    for (const auto &[row, n] : servers)
        if (n > count) {
            best = row;
            count = n;
        }
    return best;
}

/** Ports of `v` with a cable in the room: every link but NVLink is one cable on one port. */
int cabledPorts(const FabricGraph &graph, FabricVertexId v)
{
    const auto &g = graph.storage();
    int ports = 0;
    for (auto [it, end] = boost::out_edges(v, g); it != end; ++it)
        ports += g[*it].linkClass == LinkClass::ScaleUp ? 0 : 1;
    return ports;
}

/** The fabric's switches in network cabinets (leaves by their servers' row, the rest in the
 * spine row); fills deviceOfVertex for them. */
void placeSwitches(DataHall &hall, const FabricGraph &graph, const RowPlan &rows,
                   const SwitchSpec *sw, const HallRack &cabinet, std::vector<int> &deviceOfVertex)
{
    const auto &g = graph.storage();
    NetworkCabinets cabinets(hall);
    for (FabricVertexId v = 0; v < graph.vertexCount(); ++v) {
        if (g[v].role != FabricVertexRole::Switch)
            continue;
        HallDevice device;
        device.name = g[v].label;
        device.role = fabricTierName(std::max(1, g[v].tier)) + " switch";
        device.typeName = sw ? sw->name : "switch";
        device.heightUnits = sw ? std::max(1, sw->rackUnits) : 1;
        device.watts = sw ? sw->powerWatts : 0;
        device.ports = sw ? sw->ports : 0;
        device.kilograms = sw ? sw->weightKilograms : 0;
        device.portsUsed = cabledPorts(graph, v);
        deviceOfVertex[v] = static_cast<int>(hall.devices.size());
        const int serverRow
            = g[v].tier <= 1 ? rowOfMostServers(hall, graph, v, deviceOfVertex) : -1;
        if (serverRow >= 0 || (g[v].tier <= 1 && !rows.spineRow))
            cabinets.mount(device, std::max(0, serverRow), "network", rows.perRow, cabinet);
        else // spines and cores, and a leaf without servers: beside the storage
            cabinets.mount(device, rows.spineRowIndex(), "spine", 0, cabinet);
    }
}

/**
 * The plan's storage systems in storage cabinets: in the spine row after its switches (the
 * middle of the room, nearest every row), or in a row of their own behind the compute rows when
 * the fabric has no spine.
 */
std::vector<int> placeStorage(DataHall &hall, const Plan &plan, const Catalog &catalog,
                              const RowPlan &rows, const HallRack &cabinet)
{
    std::vector<int> networked;
    const bool hasFabric = plan.fabric.topology != "none";
    const int row = rows.spineRow ? rows.spineRowIndex() : rows.roomRow(rows.computeRows);
    int firstColumn = 0;
    for (const HallRack &rack : hall.racks)
        if (rack.row == row)
            firstColumn = std::max(firstColumn, rack.column + 1);
    NetworkCabinets cabinets(hall);
    for (std::size_t entry = 0; entry < plan.storage.size(); ++entry) {
        const StoragePlan &item = plan.storage[entry];
        const StorageSpec &storage = catalog.storage(item.storageId);
        if (storage.rackUnits > cabinet.rackUnits)
            hall.notes.push_back(storage.name + " (" + std::to_string(storage.rackUnits)
                                 + "U) is taller than a " + std::to_string(cabinet.rackUnits)
                                 + "U cabinet: its cabinet is over its rack units");
        for (int i = 0; i < item.count; ++i) {
            HallDevice device;
            device.name = slugOf(storage.name) + numbered("-", i + 1, 2);
            device.role = "storage system";
            device.typeName = storage.name;
            device.heightUnits = std::max(1, storage.rackUnits);
            device.watts = storage.powerWatts;
            device.kilograms = storage.weightKilograms;
            device.catalogId = storage.id;
            device.storageEntry = static_cast<int>(entry);
            if (item.onFabric || !hasFabric)
                networked.push_back(static_cast<int>(hall.devices.size()));
            cabinets.mount(std::move(device), row, "storage", firstColumn, cabinet);
        }
    }
    return networked;
}

/** A storage-network link to lay once every device stands (addStorageCables). */
struct StorageLink
{
    int deviceA = -1, deviceB = -1;
    std::string portA, portB;
    double bitsPerSecond = 0;
    std::string nicId;
};

/** A device's ports on the storage network: a server's storage ports, a storage system's. */
struct StorageEndpoint
{
    int device = -1;
    int ports = 0;
    std::string portPrefix; ///< "stor" on a server, "p" on a storage system
    const NicSpec *nic = nullptr;
};

/** The servers' storage ports (serverStoragePortCount, planfabric.h). */
std::vector<StorageEndpoint> serverStoragePorts(const DataHall &hall, const DataHallInputs &in)
{
    std::vector<StorageEndpoint> ports;
    for (std::size_t d = 0; d < hall.devices.size(); ++d) {
        const HallDevice &device = hall.devices[d];
        if (device.role != "GPU server" || device.catalogId.empty())
            continue;
        const NodeSpec &node = in.catalog.node(device.catalogId);
        if (const int count = serverStoragePortCount(in.plan, in.catalog, node); count > 0)
            ports.push_back(
                {static_cast<int>(d), count, "stor", &in.catalog.nic(node.storageNicId)});
    }
    return ports;
}

/** Takes the next free port of `sw` (ports numbered after its fabric cables) for `device`'s
 * `port`: a cable of `nic`'s kind at `bytesPerSecond`. */
void cableToSwitch(DataHall &hall, std::vector<StorageLink> &links, int device,
                   const std::string &port, int sw, const NicSpec &nic, double bytesPerSecond)
{
    HallDevice &target = hall.devices[static_cast<std::size_t>(sw)];
    ++target.portsUsed;
    ++hall.racks[static_cast<std::size_t>(target.rack)].portsUsed;
    links.push_back(
        {device, sw, port, "p" + std::to_string(target.portsUsed), bytesPerSecond * 8, nic.id});
}

/**
 * Storage without a storage network of the servers' own shares the compute fabric (the servers
 * reach it through their compute NICs): each storage port takes a free port of a fabric leaf,
 * first leaf first; ports that find none are noted.
 */
void attachStorageToLeaves(DataHall &hall, const std::vector<StorageEndpoint> &systems,
                           std::vector<StorageLink> &links)
{
    std::size_t leaf = 0;
    long long unattached = 0;
    for (const StorageEndpoint &system : systems) {
        int cabled = 0;
        for (int port = 1; port <= system.ports; ++port) {
            while (leaf < hall.devices.size()
                   && (hall.devices[leaf].role != "leaf switch"
                       || hall.devices[leaf].portsUsed >= hall.devices[leaf].ports
                       || !hall.devices[leaf].placed()))
                ++leaf;
            if (leaf == hall.devices.size()) {
                ++unattached;
                continue;
            }
            cableToSwitch(hall, links, system.device, "p" + std::to_string(port),
                          static_cast<int>(leaf), *system.nic, system.nic->bytesPerSecond);
            ++cabled;
        }
        if (cabled < system.ports)
            hall.storagePortsCabled[system.device] = cabled;
    }
    if (unattached > 0)
        warn(hall,
             std::to_string(unattached)
                 + " storage ports find no free port on the fabric's leaves: they are "
                   "not cabled (a fat-tree or a rail-optimised fabric with shared spines keeps "
                   "leaf ports for them; or give the servers a storage network)");
}

/** What a storage-network switch is in the room. */
HallDevice storageSwitchDevice(const SwitchSpec &sw, std::string name)
{
    HallDevice device;
    device.name = std::move(name);
    device.role = "storage switch";
    device.typeName = sw.name;
    device.catalogId = sw.id;
    device.heightUnits = std::max(1, sw.rackUnits);
    device.watts = sw.powerWatts;
    device.ports = sw.ports;
    device.kilograms = sw.weightKilograms;
    return device;
}

/** The room row of a placed device's cabinet. */
int rowOf(const DataHall &hall, int device)
{
    return hall.racks[static_cast<std::size_t>(hall.devices[static_cast<std::size_t>(device)].rack)]
        .row;
}

/** Where the storage systems stand: their row and first column. */
std::pair<int, int> storagePlace(const DataHall &hall, const std::vector<StorageEndpoint> &systems)
{
    const HallRack &rack = hall.racks[static_cast<std::size_t>(
        hall.devices[static_cast<std::size_t>(systems.front().device)].rack)];
    return {rack.row, rack.column};
}

/** The storage network's switch: the catalog type that carries the storage systems' NIC (the
 * storage decides InfiniBand or Ethernet; the servers' storage cards, VPI as the DGX's ConnectX-7,
 * run either), or null, noted; storage systems of another kind are noted too. */
const SwitchSpec *storageSwitchFor(DataHall &hall, const Catalog &catalog,
                                   const std::vector<StorageEndpoint> &systems)
{
    const NicSpec &nic = *systems.front().nic;
    const std::string switchId = catalogSwitchForNic(catalog, nic, std::nullopt);
    if (switchId.empty()) {
        warn(hall,
             "no catalog switch carries " + nic.name + ": the storage network is not laid out");
        return nullptr;
    }
    const SwitchSpec &sw = catalog.networkSwitch(switchId);
    std::set<std::string> foreign;
    for (const StorageEndpoint &system : systems)
        if (!switchSpeaksNicProtocol(sw, *system.nic))
            foreign.insert(hall.devices[static_cast<std::size_t>(system.device)].typeName + " ("
                           + system.nic->name + ")");
    for (const std::string &name : foreign)
        warn(hall,
             name + " does not speak the storage network's protocol (" + sw.name
                 + ", chosen for the first storage system): cabled to it as if it did; a "
                   "gateway or storage of one kind is needed");
    return &sw;
}

/** Leaves of `down` ports two tiers need: each row's server ports, and the storage's. */
long long storageLeavesNeeded(const DataHall &hall, const std::vector<StorageEndpoint> &servers,
                              const std::vector<StorageEndpoint> &systems, int down)
{
    std::map<int, long long> portsOfRow;
    long long systemPorts = 0;
    for (const StorageEndpoint &server : servers)
        portsOfRow[rowOf(hall, server.device)] += server.ports;
    for (const StorageEndpoint &system : systems)
        systemPorts += system.ports;
    long long leaves = (systemPorts + down - 1) / down;
    for (const auto &[row, ports] : portsOfRow)
        leaves += (ports + down - 1) / down;
    return leaves;
}

/** Mounts the storage network's switches and lists its links (buildStorageFabric). */
class StorageFabricBuilder
{
public:
    StorageFabricBuilder(DataHall &hall, const RowPlan &rows, const HallRack &cabinet,
                         const SwitchSpec &sw, const NicSpec &nic, std::vector<StorageLink> &links,
                         std::pair<int, int> storagePlace)
        : m_hall(hall)
        , m_cabinets(hall)
        , m_rows(rows)
        , m_cabinet(cabinet)
        , m_sw(sw)
        , m_nic(nic)
        , m_links(links)
        , m_storageRow(storagePlace.first)
        , m_storageColumn(storagePlace.second)
    { }

    /** Every port on one switch beside the storage. */
    void singleSwitch(const std::vector<StorageEndpoint> &servers,
                      const std::vector<StorageEndpoint> &systems)
    {
        const int single = mount("stor-sw-1", m_storageRow, "storage", m_storageColumn);
        for (const auto *group : {&servers, &systems})
            for (const StorageEndpoint &endpoint : *group)
                cableAll(endpoint, [&] { return single; });
    }

    /** Each row's servers on leaves in its network cabinet, the storage on leaves beside it,
     * half of each leaf's ports down; the spines beside the storage, each leaf's uplinks spread
     * over them in turn. */
    void twoTiers(const std::vector<StorageEndpoint> &servers,
                  const std::vector<StorageEndpoint> &systems)
    {
        const int down = m_sw.ports / 2, up = m_sw.ports - down;
        for (const StorageEndpoint &server : servers) {
            const int row = rowOf(m_hall, server.device);
            cableAll(server, [&] { return leafFor(row, false, down); });
        }
        for (const StorageEndpoint &system : systems)
            cableAll(system, [&] { return leafFor(0, true, down); });
        const long long uplinks = static_cast<long long>(m_leaves.size()) * up;
        const int spines = static_cast<int>((uplinks + m_sw.ports - 1) / m_sw.ports);
        std::vector<int> spineDevices;
        for (int k = 0; k < spines; ++k)
            spineDevices.push_back(mount("stor-spine-" + std::to_string(k + 1), m_storageRow,
                                         "storage", m_storageColumn));
        long long next = 0;
        for (int leaf : m_leaves)
            for (int k = 0; k < up; ++k) {
                const int spine = spineDevices[static_cast<std::size_t>(next++ % spines)];
                HallDevice &leafDevice = m_hall.devices[static_cast<std::size_t>(leaf)];
                ++leafDevice.portsUsed;
                ++m_hall.racks[static_cast<std::size_t>(leafDevice.rack)].portsUsed;
                cableToSwitch(m_hall, m_links, leaf, "p" + std::to_string(leafDevice.portsUsed),
                              spine, m_nic, m_nic.bytesPerSecond);
            }
    }

private:
    int mount(std::string name, int row, const std::string &role, int column)
    {
        const int index = static_cast<int>(m_hall.devices.size());
        m_cabinets.mount(storageSwitchDevice(m_sw, std::move(name)), row, role, column, m_cabinet);
        return index;
    }

    /** Each of `endpoint`'s ports to the switch `switchFor` gives, at the slower of its rate
     * and the network's. */
    template<typename SwitchFor> void cableAll(const StorageEndpoint &endpoint, SwitchFor switchFor)
    {
        for (int port = 1; port <= endpoint.ports; ++port)
            cableToSwitch(m_hall, m_links, endpoint.device,
                          endpoint.portPrefix + std::to_string(port), switchFor(), m_nic,
                          std::min(endpoint.nic->bytesPerSecond, m_nic.bytesPerSecond));
    }

    /** The current leaf of a row (or of the storage), a new one once its down ports are taken. */
    int leafFor(int row, bool storageSide, int down)
    {
        auto &[leaf, taken] = m_current.try_emplace(storageSide ? -1 : row, -1, down).first->second;
        if (taken == down) {
            const std::string name = storageSide
                ? "stor-leaf-st-" + std::to_string(m_leaves.size() + 1)
                : numbered("stor-leaf-r", row + 1, 2) + "-" + std::to_string(m_leaves.size() + 1);
            leaf = storageSide ? mount(name, m_storageRow, "storage", m_storageColumn)
                               : mount(name, row, "network", m_cabinets.networkColumn(m_rows, row));
            m_leaves.push_back(leaf);
            taken = 0;
        }
        ++taken;
        return leaf;
    }

    DataHall &m_hall;
    NetworkCabinets m_cabinets;
    const RowPlan &m_rows;
    const HallRack &m_cabinet;
    const SwitchSpec &m_sw;
    const NicSpec &m_nic;
    std::vector<StorageLink> &m_links;
    int m_storageRow, m_storageColumn;
    std::vector<int> m_leaves;
    std::map<int, std::pair<int, int>> m_current; ///< row (-1: storage) -> (leaf, ports taken)
};

/**
 * The storage network of servers with storage ports of their own (NVIDIA's DGX SuperPOD and
 * BasePOD build one beside the compute fabric): all ports on one switch when they fit its radix;
 * otherwise a two-tier fat-tree (StorageFabricBuilder::twoTiers). Beyond two tiers (more leaves
 * than a spine has ports) it is noted and not laid out.
 */
void buildStorageFabric(DataHall &hall, const DataHallInputs &in, const RowPlan &rows,
                        const HallRack &cabinet, const std::vector<StorageEndpoint> &servers,
                        const std::vector<StorageEndpoint> &systems,
                        std::vector<StorageLink> &links)
{
    const SwitchSpec *sw = storageSwitchFor(hall, in.catalog, systems);
    if (!sw)
        return;
    long long total = 0;
    for (const auto *group : {&servers, &systems})
        for (const StorageEndpoint &endpoint : *group)
            total += endpoint.ports;
    StorageFabricBuilder builder(hall, rows, cabinet, *sw, *systems.front().nic, links,
                                 storagePlace(hall, systems));
    if (total <= sw->ports) {
        hall.storageSwitchId = sw->id;
        builder.singleSwitch(servers, systems);
        return;
    }
    const long long leavesNeeded = storageLeavesNeeded(hall, servers, systems, sw->ports / 2);
    if (leavesNeeded > sw->ports) {
        // Still bought: priced as the fat-tree of the fewest tiers that holds every port, which
        // the bill of materials counts (it was left out, $2.9 M of a 4,096-GPU cluster).
        FabricDesign design;
        design.topology = FabricTopology::FatTree;
        design.fatTree.radix = sw->ports;
        design.fatTree.endpoints = static_cast<int>(std::min<long long>(total, maxFabricEndpoints));
        std::optional<FabricHardwareCount> count;
        try {
            count = fabricHardwareCount(design);
        } catch (const FabricParameterError &) { }
        if (!count) {
            warn(hall,
                 "the storage network needs " + groupedCount(leavesNeeded)
                     + " leaves, more than two tiers of " + sw->name
                     + " reach, and no fat-tree of it holds its " + groupedCount(total)
                     + " ports: it is neither laid out nor priced");
            return;
        }
        hall.storageSwitchId = sw->id;
        hall.unlaidStorageSwitches = count->switches;
        hall.unlaidStorageTransceivers = 2 * count->opticalLinks;
        hall.unlaidStorageNicId = systems.front().nic->id;
        warn(hall,
             "the storage network needs " + groupedCount(leavesNeeded)
                 + " leaves, more than two tiers of " + sw->name
                 + " reach: priced as a fat-tree of " + groupedCount(count->switches)
                 + " switches and " + groupedCount(hall.unlaidStorageTransceivers)
                 + " transceivers, but not laid out in the room");
        return;
    }
    hall.storageSwitchId = sw->id;
    builder.twoTiers(servers, systems);
}

/**
 * The storage systems' ports and the servers' storage ports on a network (storage systems are
 * endpoints, each port a cable): a storage network of its own when the servers have storage
 * ports, the compute fabric's free leaf ports otherwise. Returns the links to lay once every
 * device stands.
 */
std::vector<StorageLink> placeStorageNetwork(DataHall &hall, const DataHallInputs &in,
                                             const RowPlan &rows, const HallRack &cabinet,
                                             const std::vector<int> &storageDevices)
{
    std::vector<StorageLink> links;
    std::vector<StorageEndpoint> systems;
    for (int device : storageDevices) {
        const StorageSpec &spec
            = in.catalog.storage(hall.devices[static_cast<std::size_t>(device)].catalogId);
        if (spec.networkPorts > 0 && hall.devices[static_cast<std::size_t>(device)].placed())
            systems.push_back({device, spec.networkPorts, "p", &in.catalog.nic(spec.nicId)});
    }
    if (systems.empty())
        return links;
    std::vector<StorageEndpoint> servers = serverStoragePorts(hall, in);
    if (servers.empty()) {
        if (in.graph)
            attachStorageToLeaves(hall, systems, links);
        return links;
    }
    // Servers without a place (their group has no rack: noted already) are left off.
    std::erase_if(servers, [&](const StorageEndpoint &server) {
        return !hall.devices[static_cast<std::size_t>(server.device)].placed();
    });
    if (!servers.empty())
        buildStorageFabric(hall, in, rows, cabinet, servers, systems, links);
    return links;
}

/** Wants a management port: every device in a cabinet but the management switches themselves
 * and passive patch panels. */
bool managed(const HallDevice &device)
{
    return device.rack >= 0 && device.role != "management switch" && device.role != "patch panel";
}

/**
 * The out-of-band management network as NVIDIA's SuperPOD reference architecture builds it
 * (every server's BMC, every switch's, storage system's and PDU's management port on a 1GbE port
 * of an SN2201): the devices of each row share the management switches in that row's network
 * cabinet, one switch per `ports` devices. Connects every managed device `portOf` has no port for
 * yet (portOf: for each device, its management switch and port), first to the free ports of its
 * row's switches, then to new ones, so it can run again for devices added later (the PDUs).
 */
void placeManagementSwitches(DataHall &hall, const SwitchSpec &sw, const RowPlan &rows,
                             const HallRack &cabinet, std::vector<std::pair<int, int>> &portOf)
{
    portOf.resize(hall.devices.size(), {-1, 0});
    // One pass: each row's devices without a port, and the management switches it has already.
    std::map<int, std::vector<int>> devicesOfRow, switchesOfRow;
    for (std::size_t d = 0; d < hall.devices.size(); ++d) {
        const HallDevice &device = hall.devices[d];
        if (device.rack < 0)
            continue;
        const int row = hall.racks[static_cast<std::size_t>(device.rack)].row;
        if (device.role == "management switch")
            switchesOfRow[row].push_back(static_cast<int>(d));
        else if (managed(device) && portOf[d].first < 0)
            devicesOfRow[row].push_back(static_cast<int>(d));
    }
    const int ports = std::max(1, sw.ports);
    NetworkCabinets cabinets(hall);
    for (const auto &[row, devices] : devicesOfRow) {
        std::size_t next = 0;
        // The row's switches with ports left, then new ones.
        const std::vector<int> &existingSwitches = switchesOfRow[row];
        for (int s : existingSwitches) {
            HallDevice &existing = hall.devices[static_cast<std::size_t>(s)];
            while (existing.portsUsed < ports && next < devices.size()) {
                portOf[static_cast<std::size_t>(devices[next++])] = {s, ++existing.portsUsed};
                ++hall.racks[static_cast<std::size_t>(existing.rack)].portsUsed;
            }
        }
        const int firstColumn = cabinets.networkColumn(rows, row);
        int serial = static_cast<int>(existingSwitches.size());
        while (next < devices.size()) {
            HallDevice device;
            device.name = numbered("mgmt-r", row + 1, 2) + "-" + std::to_string(++serial);
            device.role = "management switch";
            device.typeName = sw.name;
            device.heightUnits = std::max(1, sw.rackUnits);
            device.watts = sw.powerWatts;
            device.kilograms = sw.weightKilograms;
            device.ports = sw.ports;
            const int index = static_cast<int>(hall.devices.size());
            const std::size_t last
                = std::min(devices.size(), next + static_cast<std::size_t>(ports));
            device.portsUsed = static_cast<int>(last - next);
            cabinets.mount(std::move(device), row, "network", firstColumn, cabinet);
            portOf.resize(hall.devices.size(), {-1, 0});
            for (int port = 1; next < last; ++port)
                portOf[static_cast<std::size_t>(devices[next++])] = {index, port};
        }
    }
}

/**
 * Zero-U PDUs in every cabinet whose catalog type names one (RackSpec::pdu), fed A and B (2N):
 * each feed carries the cabinet's whole nameplate load alone, so each gets
 * ceil(watts / one PDU's load) PDUs, at most `maxPdusPerFeed` (what fits the rear of a cabinet);
 * a cabinet that needs more is noted.
 */
void placePowerDistribution(DataHall &hall, const Catalog &catalog)
{
    constexpr int maxPdusPerFeed = 4;
    const std::size_t racks = hall.racks.size();
    for (std::size_t r = 0; r < racks; ++r) {
        HallRack &rack = hall.racks[r];
        if (rack.rackId.empty() || rack.watts <= 0)
            continue;
        const RackSpec &spec = catalog.rack(rack.rackId);
        if (!spec.pdu)
            continue;
        const double needed = std::ceil(rack.watts / spec.pdu->watts);
        const int perFeed = static_cast<int>(std::min<double>(maxPdusPerFeed, needed));
        if (needed > maxPdusPerFeed)
            warn(hall,
                 rack.name + " needs " + std::to_string(static_cast<long long>(needed))
                     + " PDUs per feed for its " + kilowattsText(rack.watts) + "; at most "
                     + std::to_string(maxPdusPerFeed) + " fit");
        rack.pdus = 2 * perFeed;
        rack.pduWatts = perFeed * spec.pdu->watts;
        for (int i = 0; i < rack.pdus; ++i) {
            HallDevice pdu;
            pdu.name
                = rack.name + "-PDU-" + (i < perFeed ? "A" : "B") + std::to_string(i % perFeed + 1);
            pdu.role = "PDU";
            pdu.typeName = spec.pdu->name;
            pdu.heightUnits = 0;
            pdu.rack = static_cast<int>(r);
            hall.devices.push_back(std::move(pdu));
        }
    }
}

/** Optical runs that leave their row, counted at each end's cabinet. */
std::vector<int> runsLeavingTheRow(const DataHall &hall)
{
    std::vector<int> runs(hall.racks.size(), 0);
    for (const HallCable &cable : hall.cables) {
        if (cable.management || !cable.positioned
            || (cable.medium != CableMedium::Multimode && cable.medium != CableMedium::SingleMode))
            continue;
        const int rackA = hall.devices[static_cast<std::size_t>(cable.deviceA)].rack;
        const int rackB = hall.devices[static_cast<std::size_t>(cable.deviceB)].rack;
        if (hall.racks[static_cast<std::size_t>(rackA)].row
            == hall.racks[static_cast<std::size_t>(rackB)].row)
            continue;
        ++runs[static_cast<std::size_t>(rackA)];
        ++runs[static_cast<std::size_t>(rackB)];
    }
    return runs;
}

/** A patching cabinet at the end of `row` (a network cabinet of `like`'s type). */
int addPatchingCabinet(DataHall &hall, const HallRack &like, int row)
{
    int column = 0, patching = 1;
    for (const HallRack &other : hall.racks)
        if (other.row == row) {
            column = std::max(column, other.column + 1);
            patching += other.name.find("-P") != std::string::npos ? 1 : 0;
        }
    HallRack rack = cabinetLike(like, "network", row, column);
    rack.name = numbered("R", row + 1, 2) + "-P" + std::to_string(patching);
    hall.racks.push_back(rack);
    return static_cast<int>(hall.racks.size()) - 1;
}

/**
 * Fibre runs between rows are structured cabling (ANSI/TIA-942: trunks between distribution
 * areas end on patch panels): each cabinet terminates the optical runs that leave its row on 1U
 * panels of its catalog type (RackSpec::patchPanel), mounted from the top U down above what is
 * stacked from U1. A switch cabinet without the units for all of them (a spine cabinet full of
 * spines) gets a patching cabinet beside it at the end of its row for the rest; a compute
 * cabinet without them is noted.
 */
void placePatchPanels(DataHall &hall, const Catalog &catalog)
{
    const std::vector<int> runs = runsLeavingTheRow(hall);
    for (std::size_t r = 0; r < runs.size(); ++r) {
        if (runs[r] == 0 || hall.racks[r].rackId.empty()
            || !catalog.rack(hall.racks[r].rackId).patchPanel)
            continue;
        const PatchPanelSpec &spec = *catalog.rack(hall.racks[r].rackId).patchPanel;
        const int panels = (runs[r] + spec.ports - 1) / spec.ports;
        const int stacked = hall.racks[r].usedUnits;
        int overflow = -1;
        for (int i = 0; i < panels; ++i) {
            int target = static_cast<int>(r), position = hall.racks[r].rackUnits - i;
            if (position <= stacked) {
                if (hall.racks[r].role == "compute") {
                    warn(hall,
                         hall.racks[r].name + " has no free U for " + std::to_string(panels - i)
                             + " of its " + std::to_string(panels) + " patch panels");
                    break;
                }
                if (overflow < 0
                    || hall.racks[static_cast<std::size_t>(overflow)].usedUnits
                        >= hall.racks[static_cast<std::size_t>(overflow)].rackUnits)
                    overflow = addPatchingCabinet(hall, hall.racks[r], hall.racks[r].row);
                target = overflow;
                position = hall.racks[static_cast<std::size_t>(overflow)].usedUnits + 1;
            }
            HallRack &rack = hall.racks[static_cast<std::size_t>(target)];
            HallDevice panel;
            panel.name = hall.racks[r].name + "-PP" + std::to_string(i + 1);
            panel.role = "patch panel";
            panel.typeName = spec.name;
            panel.rack = target;
            panel.position = position;
            panel.ports = spec.ports;
            panel.portsUsed = std::min(spec.ports, runs[r] - i * spec.ports);
            ++rack.usedUnits;
            ++rack.patchPanels;
            hall.devices.push_back(std::move(panel));
        }
    }
}

/** Cabinets whose nameplate draw is more than one feed's PDUs carry (after every device). */
void notePdusOverloaded(DataHall &hall)
{
    for (const HallRack &rack : hall.racks)
        if (rack.overItsPdus())
            warn(hall,
                 rack.name + " draws " + kilowattsText(rack.watts)
                     + ", more than one feed's PDUs carry (" + kilowattsText(rack.pduWatts) + ")");
}

/**
 * One warning per role for the cabinets that draw more than their power and cooling limit,
 * naming the one furthest over: "6 storage cabinets draw more than their power and cooling
 * limit; the most, R69-ST1, 63.0 kW against 40.0 kW". Without it the only sign was a count in the
 * data-hall table, and a 63 kW cabinet in a 40 kW row is a design that cannot be built.
 */
void noteCabinetsOverPower(DataHall &hall)
{
    std::map<std::string, std::vector<const HallRack *>> overByRole;
    for (const HallRack &rack : hall.racks)
        if (rack.powerFraction() > 1.0)
            overByRole[rack.role].push_back(&rack);
    for (const auto &[role, racks] : overByRole) {
        const HallRack &worst = **std::max_element(
            racks.begin(), racks.end(), [](const HallRack *a, const HallRack *b) {
                return a->powerFraction() < b->powerFraction();
            });
        const std::string count = groupedCount(static_cast<long long>(racks.size()));
        warn(hall,
             racks.size() == 1
                 ? "1 " + role + " cabinet, " + worst.name + ", draws " + kilowattsText(worst.watts)
                     + ", more than its " + kilowattsText(worst.limitWatts)
                     + " power and cooling limit"
                 : count + " " + role + " cabinets draw more than their power and cooling limit; "
                     + "the most, " + worst.name + ", " + kilowattsText(worst.watts) + " against "
                     + kilowattsText(worst.limitWatts));
    }
}

/** Where a device's ports are, above the floor of its cabinet: the middle of its units; a
 * zero-U PDU's network port at its top, the cabinet's. */
double deviceHeightMeters(const DataHall &hall, const HallDevice &device)
{
    if (device.heightUnits == 0)
        return hall.racks[static_cast<std::size_t>(device.rack)].rackUnits * metersPerRackUnit;
    return (device.position - 1 + device.heightUnits / 2.0) * metersPerRackUnit;
}

/** NetBox's interface type for the fabric's ports. */
std::string interfaceTypeFor(LinkProtocol protocol, double bitsPerSecond, bool twistedPair)
{
    const double gbps = bitsPerSecond / 1e9;
    if (protocol == LinkProtocol::InfiniBand)
        return gbps >= 800 ? "infiniband-xdr"
            : gbps >= 400  ? "infiniband-ndr"
            : gbps >= 200  ? "infiniband-hdr"
                           : "infiniband-edr";
    if (twistedPair)
        return gbps >= 10 ? "10gbase-t" : "1000base-t";
    if (gbps >= 800)
        return "800gbase-x-osfp";
    if (gbps >= 400)
        return "400gbase-x-osfp";
    if (gbps >= 200)
        return "200gbase-x-qsfp56";
    if (gbps >= 100)
        return "100gbase-x-qsfp28";
    if (gbps >= 25)
        return "25gbase-x-sfp28";
    return "10gbase-x-sfpp";
}

/** NetBox's interface type of `nic`'s ports (RJ45 for a 10 Gb/s-or-slower NIC without optics). */
std::string interfaceTypeOf(const NicSpec &nic)
{
    return interfaceTypeFor(nic.protocol, nic.bytesPerSecond * 8,
                            nic.opticPowerWatts <= 0 && nic.bytesPerSecond * 8 <= 10e9);
}

/**
 * Measures `cable` between its two ends (the run rounded up to 0.5 m), gives it the medium that
 * length needs at its rate, numbers it and adds it; true when a placed cable is beyond every
 * medium's reach.
 */
bool addMeasuredCable(DataHall &hall, HallCable cable, bool twistedPairPort,
                      const DataHallOptions &options)
{
    const double run = cableRunMeters(hall, cable.deviceA, cable.deviceB, options);
    cable.lengthMeters = std::ceil(run * 2.0) / 2.0;
    cable.medium = cableMediumFor(cable.lengthMeters, cable.bitsPerSecond, twistedPairPort);
    const bool outOfReach = cable.positioned && cable.medium == CableMedium::OutOfReach;
    cable.label = numbered("C", static_cast<long long>(hall.cables.size()) + 1, 5);
    hall.cables.push_back(std::move(cable));
    return outOfReach;
}

/** Every scale-out cable of the graph between two placed devices, numbered in graph order. */
void addCables(DataHall &hall, const FabricGraph &graph, const std::vector<int> &deviceOfVertex,
               int endpointsPerNode, const DataHallOptions &options)
{
    const auto &g = graph.storage();
    std::vector<int> nextPort(hall.devices.size(), 0);
    std::vector<int> endpointIndex(graph.vertexCount(), -1);
    for (std::size_t i = 0; i < graph.endpoints().size(); ++i)
        endpointIndex[graph.endpoints()[i]] = static_cast<int>(i);
    const auto portOf = [&](FabricVertexId v, int device) {
        if (endpointIndex[v] >= 0 && !g[v].forwards())
            return "nic" + std::to_string(endpointIndex[v] % endpointsPerNode + 1);
        return "p" + std::to_string(++nextPort[static_cast<std::size_t>(device)]);
    };
    long long outOfReach = 0, insideServers = 0;
    for (auto [it, end] = boost::edges(g); it != end; ++it) {
        const FabricLink &link = g[*it];
        const FabricVertexId a = boost::source(*it, g), b = boost::target(*it, g);
        if (link.linkClass == LinkClass::ScaleUp || deviceOfVertex[a] < 0 || deviceOfVertex[b] < 0)
            continue;
        if (deviceOfVertex[a] == deviceOfVertex[b]) {
            ++insideServers; // torus chips of one server: wired on its board, not in the room
            continue;
        }
        HallCable cable;
        cable.deviceA = deviceOfVertex[a];
        cable.deviceB = deviceOfVertex[b];
        cable.portA = portOf(a, cable.deviceA);
        cable.portB = portOf(b, cable.deviceB);
        cable.bitsPerSecond = link.bytesPerSecond * 8;
        cable.positioned = hall.devices[static_cast<std::size_t>(cable.deviceA)].position > 0
            && hall.devices[static_cast<std::size_t>(cable.deviceB)].position > 0;
        cable.opticalInFabric = link.medium == LinkMedium::Optical;
        const bool twistedPair = link.medium == LinkMedium::Copper && cable.bitsPerSecond <= 10e9;
        outOfReach += addMeasuredCable(hall, std::move(cable), twistedPair, options) ? 1 : 0;
    }
    if (insideServers > 0)
        hall.notes.push_back(std::to_string(insideServers)
                             + " links join chips inside one server: no cable in the room");
    // Left out of the bill of materials (cablebill.h): a warning, not a note.
    if (outOfReach > 0)
        warn(hall,
             groupedCount(outOfReach)
                 + " cables are longer than any medium reaches at their rate (500 m of "
                   "single-mode fibre) and are not in the bill: shorten the rows or add rows");
}

/** The storage network's links as cables, numbered after the fabric's. */
void addStorageCables(DataHall &hall, const std::vector<StorageLink> &links, const Catalog &catalog,
                      const DataHallOptions &options)
{
    long long outOfReach = 0;
    for (const StorageLink &link : links) {
        HallCable cable;
        cable.deviceA = link.deviceA;
        cable.deviceB = link.deviceB;
        cable.portA = link.portA;
        cable.portB = link.portB;
        cable.bitsPerSecond = link.bitsPerSecond;
        cable.storageNicId = link.nicId;
        if (!hall.storageInterfaceTypes.contains(link.nicId))
            hall.storageInterfaceTypes[link.nicId] = interfaceTypeOf(catalog.nic(link.nicId));
        cable.positioned = hall.devices[static_cast<std::size_t>(link.deviceA)].placed()
            && hall.devices[static_cast<std::size_t>(link.deviceB)].placed();
        outOfReach += addMeasuredCable(hall, std::move(cable), false, options) ? 1 : 0;
    }
    if (outOfReach > 0)
        warn(hall,
             groupedCount(outOfReach)
                 + " storage cables are longer than any medium reaches at their rate and are not "
                   "in the bill");
}

/** Each device's cable to its management switch port (placeManagementSwitches), numbered after
 * the fabric's. */
void addManagementCables(DataHall &hall, const std::vector<std::pair<int, int>> &portOf,
                         const DataHallOptions &options)
{
    long long outOfReach = 0;
    for (std::size_t d = 0; d < portOf.size(); ++d) {
        const auto [managementSwitch, port] = portOf[d];
        if (managementSwitch < 0)
            continue;
        HallCable cable;
        cable.management = true;
        cable.deviceA = static_cast<int>(d);
        cable.deviceB = managementSwitch;
        cable.portA = hall.devices[d].role == "GPU server" ? "bmc" : "mgmt";
        cable.portB = "p" + std::to_string(port);
        cable.bitsPerSecond = 1e9;
        cable.positioned = hall.devices[d].placed();
        outOfReach += addMeasuredCable(hall, std::move(cable), true, options) ? 1 : 0;
    }
    if (outOfReach > 0)
        warn(hall,
             groupedCount(outOfReach)
                 + " management cables are longer than twisted pair reaches (100 m) and are not "
                   "in the bill: the management switches need to stand nearer");
}

/** Empty when the plan's racked servers fit the layout's limit; else why the hall is not laid
 *  out. */
std::optional<std::string> hallTooLarge(const Plan &plan, const DataHallOptions &options)
{
    long long servers = 0;
    for (const NodeGroup &group : plan.nodeGroups)
        if (!group.rackId.empty())
            servers += std::max(0, group.count);
    if (servers <= options.maxServers)
        return std::nullopt;
    return "the hall's " + groupedCount(servers) + " servers in racks are more than the "
        + groupedCount(options.maxServers)
        + " its layout places one by one: its rows, network and storage cabinets, management "
          "network, PDUs and cables are not laid out, so neither counted nor priced (its "
          "compute racks are); a campus of buildings lays out each building's hall";
}

} // namespace

double cableRunMeters(const DataHall &hall, int deviceA, int deviceB,
                      const DataHallOptions &options)
{
    const HallDevice &a = hall.devices[static_cast<std::size_t>(deviceA)];
    const HallDevice &b = hall.devices[static_cast<std::size_t>(deviceB)];
    if (!a.placed() || !b.placed())
        return 0;
    const double heightA = deviceHeightMeters(hall, a), heightB = deviceHeightMeters(hall, b);
    if (a.rack == b.rack)
        return std::abs(heightA - heightB) + options.slackMeters;
    const HallRack &rackA = hall.racks[static_cast<std::size_t>(a.rack)];
    const HallRack &rackB = hall.racks[static_cast<std::size_t>(b.rack)];
    const double climb = (rackA.rackUnits * metersPerRackUnit - heightA)
        + (rackB.rackUnits * metersPerRackUnit - heightB) + 2 * options.trayAboveRackMeters;
    const double tray = std::abs(rackA.column - rackB.column) * options.rackWidthMeters
        + std::abs(rackA.row - rackB.row) * options.rowPitchMeters;
    return climb + tray + options.slackMeters;
}

DataHallOptions hallOptionsOf(const Plan &plan)
{
    DataHallOptions options;
    options.computeRacksPerRow = plan.hall.cabinetsPerRow;
    options.rowPitchMeters = plan.hall.rowPitchMeters;
    options.rackWidthMeters = plan.hall.cabinetWidthMeters;
    return options;
}

DataHall layoutDataHall(const Plan &plan, const Catalog &catalog)
{
    const DataHallOptions options = hallOptionsOf(plan);
    const PlanEstimate estimate = estimatePlan(plan, catalog);
    const std::optional<PlanFabric> fabric = planFabric(plan, catalog);
    std::optional<FabricGraph> graph;
    if (fabric)
        graph = generatePlanFabric(*fabric);
    DataHallInputs inputs {plan, catalog, estimate.racks};
    if (estimate.hasTrainingRun)
        inputs.gpuBusyFraction = estimate.trainingRun.gpuBusyFraction;
    inputs.fabric = fabric ? &*fabric : nullptr;
    inputs.graph = graph ? &*graph : nullptr;
    return layoutDataHall(inputs, options);
}

DataHall layoutDataHall(const DataHallInputs &in, const DataHallOptions &options)
{
    DataHall hall;
    if (const auto tooLarge = hallTooLarge(in.plan, options)) {
        hall.notLaidOut = *tooLarge;
        warn(hall, *tooLarge);
        return hall;
    }
    RowPlan rows;
    rows.perRow = std::max(1, options.computeRacksPerRow);
    const std::vector<std::vector<long long>> cells = cabinetCells(in.plan, in.racks, rows.perRow);
    rows.computeRows = computeRowsOf(cells, rows.perRow);
    if (in.graph) {
        const auto &g = in.graph->storage();
        for (FabricVertexId v = 0; v < in.graph->vertexCount(); ++v)
            rows.spineRow
                = rows.spineRow || (g[v].role == FabricVertexRole::Switch && g[v].tier >= 2);
    }
    hall.spineRoomRow = rows.spineRow ? rows.spineRowIndex() : -1;
    const std::vector<int> serverOfNode
        = placeServers(hall, in.plan, in.catalog, in.racks, rows, cells, in.gpuBusyFraction);
    // Network and storage cabinets are the first compute cabinet's kind (42U, no limits known
    // without one).
    HallRack cabinet;
    if (!hall.racks.empty()) {
        cabinet.rackId = hall.racks.front().rackId;
        cabinet.rackUnits = hall.racks.front().rackUnits;
        cabinet.limitWatts = hall.racks.front().limitWatts;
        cabinet.limitKilograms = hall.racks.front().limitKilograms;
    }
    const bool withFabric = in.graph && in.fabric;
    int endpointsPerNode = 1;
    std::vector<int> deviceOfVertex;
    if (withFabric) {
        endpointsPerNode = planEndpointsPerNode(in.plan, *in.fabric);
        deviceOfVertex.assign(in.graph->vertexCount(), -1);
        for (std::size_t i = 0; i < in.graph->endpoints().size(); ++i) {
            const std::size_t node = i / static_cast<std::size_t>(endpointsPerNode);
            if (node < serverOfNode.size())
                deviceOfVertex[in.graph->endpoints()[i]] = serverOfNode[node];
        }
        const NicSpec &nic = in.catalog.nic(in.fabric->nicId);
        const SwitchSpec *sw = in.fabric->switchId.empty()
            ? nullptr
            : &in.catalog.networkSwitch(in.fabric->switchId);
        placeSwitches(hall, *in.graph, rows, sw, cabinet, deviceOfVertex);
        hall.interfaceType = interfaceTypeOf(nic);
    }
    const std::vector<int> storageDevices = placeStorage(hall, in.plan, in.catalog, rows, cabinet);
    const std::vector<StorageLink> storageLinks
        = placeStorageNetwork(hall, in, rows, cabinet, storageDevices);
    // The management network for what stands in the cabinets, their PDUs sized for it, and the
    // PDUs' own management ports.
    const SwitchSpec *management = nullptr;
    if (in.catalog.kindOf(managementSwitchId) == CatalogKind::Switch)
        management = &in.catalog.networkSwitch(managementSwitchId);
    else
        hall.notes.push_back(std::string("no management switch (") + managementSwitchId
                             + ") in the catalog: the management network is not counted");
    std::vector<std::pair<int, int>> managementPorts;
    if (management)
        placeManagementSwitches(hall, *management, rows, cabinet, managementPorts);
    placePowerDistribution(hall, in.catalog);
    if (management)
        placeManagementSwitches(hall, *management, rows, cabinet, managementPorts);
    if (in.withCables) {
        if (withFabric)
            addCables(hall, *in.graph, deviceOfVertex, endpointsPerNode, options);
        addStorageCables(hall, storageLinks, in.catalog, options);
        addManagementCables(hall, managementPorts, options);
        placePatchPanels(hall, in.catalog);
    }
    notePdusOverloaded(hall);
    noteCabinetsOverPower(hall);
    return hall;
}

} // namespace cp::model
