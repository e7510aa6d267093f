// SPDX-License-Identifier: GPL-3.0-or-later
#include "model/planning/netboxexport.h"

#include "model/core/humantext.h"

#include <map>
#include <set>

namespace cp::model {

namespace {

/** The maker, as the first word of a catalog name ("NVIDIA DGX H100 ..." -> "NVIDIA"). */
std::string manufacturerOf(const std::string &typeName)
{
    const std::size_t space = typeName.find(' ');
    return space == std::string::npos ? typeName : typeName.substr(0, space);
}

std::string rackOf(const DataHall &hall, const HallDevice &device)
{
    return device.rack >= 0 ? hall.racks[static_cast<std::size_t>(device.rack)].name : "";
}

/** The colour NetBox shows a role in (hex, no '#'). */
std::string roleColour(const std::string &role)
{
    if (role == "GPU server")
        return "4caf50";
    if (role == "leaf switch")
        return "2196f3";
    if (role == "spine switch")
        return "9c27b0";
    return "ff9800";
}

NetboxImportFile deviceTypesFile(const DataHall &hall)
{
    NetboxImportFile file {
        "04-device-types.csv", "dcim.devicetype", {{"manufacturer", "model", "slug", "u_height"}}};
    std::map<std::string, int> heights;
    for (const HallDevice &device : hall.devices)
        heights.emplace(device.typeName, device.heightUnits);
    for (const auto &[model, height] : heights)
        file.rows.push_back({manufacturerOf(model), model, slugOf(model), std::to_string(height)});
    return file;
}

NetboxImportFile devicesFile(const DataHall &hall, const std::string &site)
{
    NetboxImportFile file {"06-devices.csv",
                           "dcim.device",
                           {{"name", "role", "manufacturer", "device_type", "status", "site",
                             "rack", "position", "face"}}};
    for (const HallDevice &device : hall.devices) {
        const bool racked = device.rack >= 0 && device.position > 0;
        file.rows.push_back({device.name, device.role, manufacturerOf(device.typeName),
                             device.typeName, "planned", site, rackOf(hall, device),
                             racked ? std::to_string(device.position) : "", racked ? "front" : ""});
    }
    return file;
}

const std::string managementInterfaceType = "1000base-t";

NetboxImportFile interfacesAndCables(const DataHall &hall, NetboxImportFile &cables)
{
    NetboxImportFile interfaces {
        "07-interfaces.csv", "dcim.interface", {{"device", "name", "type"}}};
    cables = {"08-cables.csv",
              "dcim.cable",
              {{"side_a_device", "side_a_type", "side_a_name", "side_b_device", "side_b_type",
                "side_b_name", "type", "status", "label", "length", "length_unit"}}};
    std::set<std::pair<int, std::string>> listed;
    const auto listInterface = [&](int device, const std::string &port, const std::string &type) {
        if (listed.emplace(device, port).second)
            interfaces.rows.push_back(
                {hall.devices[static_cast<std::size_t>(device)].name, port, type});
    };
    for (const HallCable &cable : hall.cables) {
        // Management ports are 1GbE RJ45 (the SN2201's); storage ports their NIC's kind.
        const auto storageType = hall.storageInterfaceTypes.find(cable.storageNicId);
        const std::string &type = cable.management            ? managementInterfaceType
            : storageType != hall.storageInterfaceTypes.end() ? storageType->second
                                                              : hall.interfaceType;
        listInterface(cable.deviceA, cable.portA, type);
        listInterface(cable.deviceB, cable.portB, type);
        cables.rows.push_back(
            {hall.devices[static_cast<std::size_t>(cable.deviceA)].name, "dcim.interface",
             cable.portA, hall.devices[static_cast<std::size_t>(cable.deviceB)].name,
             "dcim.interface", cable.portB, cable.positioned ? netboxCableType(cable.medium) : "",
             "planned", cable.label, cable.positioned ? csvNumber(cable.lengthMeters) : "",
             cable.positioned ? "m" : ""});
    }
    return interfaces;
}

} // namespace

CsvRows cableScheduleRows(const DataHall &hall)
{
    CsvRows rows {{"label", "a_device", "a_rack", "a_position", "a_port", "b_device", "b_rack",
                   "b_position", "b_port", "medium", "length_m", "speed_gbps"}};
    const auto position = [](const HallDevice &device) {
        return device.position > 0 ? "U" + std::to_string(device.position) : std::string();
    };
    for (const HallCable &cable : hall.cables) {
        const HallDevice &a = hall.devices[static_cast<std::size_t>(cable.deviceA)];
        const HallDevice &b = hall.devices[static_cast<std::size_t>(cable.deviceB)];
        rows.push_back({cable.label, a.name, rackOf(hall, a), position(a), cable.portA, b.name,
                        rackOf(hall, b), position(b), cable.portB,
                        cable.positioned ? cableMediumName(cable.medium)
                                         : "unknown: an end is not placed in racks",
                        cable.positioned ? csvNumber(cable.lengthMeters) : "",
                        csvFigure(cable.bitsPerSecond / 1e9)});
    }
    return rows;
}

std::vector<NetboxImportFile> netboxImportFiles(const DataHall &hall, const std::string &siteName)
{
    std::vector<NetboxImportFile> files;
    files.push_back({"01-sites.csv",
                     "dcim.site",
                     {{"name", "slug", "status"}, {siteName, slugOf(siteName), "planned"}}});
    NetboxImportFile manufacturers {
        "02-manufacturers.csv", "dcim.manufacturer", {{"name", "slug"}}};
    NetboxImportFile roles {"03-device-roles.csv", "dcim.devicerole", {{"name", "slug", "color"}}};
    std::set<std::string> makers, roleNames;
    for (const HallDevice &device : hall.devices) {
        if (makers.insert(manufacturerOf(device.typeName)).second)
            manufacturers.rows.push_back(
                {manufacturerOf(device.typeName), slugOf(manufacturerOf(device.typeName))});
        if (roleNames.insert(device.role).second)
            roles.rows.push_back({device.role, slugOf(device.role), roleColour(device.role)});
    }
    files.push_back(std::move(manufacturers));
    files.push_back(std::move(roles));
    files.push_back(deviceTypesFile(hall));
    NetboxImportFile racks {
        "05-racks.csv", "dcim.rack", {{"site", "name", "status", "width", "u_height"}}};
    for (const HallRack &rack : hall.racks)
        racks.rows.push_back(
            {siteName, rack.name, "planned", "19", std::to_string(rack.rackUnits)});
    files.push_back(std::move(racks));
    files.push_back(devicesFile(hall, siteName));
    NetboxImportFile cables;
    files.push_back(interfacesAndCables(hall, cables));
    files.push_back(std::move(cables));
    return files;
}

} // namespace cp::model
