// SPDX-License-Identifier: GPL-3.0-or-later
// The data hall as files others load: a cable schedule for the installer, NetBox bulk imports
// for the DCIM team.
#pragma once

#include "model/core/csvtable.h"
#include "model/planning/datahall.h"

#include <string>
#include <vector>

namespace cp::model {

/**
 * One row per cable: label, both ends (device, rack, U position, port), medium, ordered length
 * in metres and port rate in Gb/s; a header row first.
 */
CsvRows cableScheduleRows(const DataHall &hall);

struct NetboxImportFile
{
    std::string fileName; ///< "03-device-roles.csv": the number is the import order
    std::string netboxObject; ///< "dcim.devicerole", the import page it goes to
    CsvRows rows; ///< header row first
};

/**
 * The hall as NetBox CSV bulk imports, in the order NetBox needs them (each file refers only to
 * objects of the files before it): site, manufacturers, device roles, device types, racks,
 * devices (rack, position, face), interfaces and cables (side_a/side_b device, type
 * dcim.interface and name). The columns are the import forms' field names
 * (netbox/dcim/forms/bulk_import.py). Devices, racks and cables are "planned".
 */
std::vector<NetboxImportFile> netboxImportFiles(const DataHall &hall, const std::string &siteName);

} // namespace cp::model
