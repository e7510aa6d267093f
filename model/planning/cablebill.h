// SPDX-License-Identifier: GPL-3.0-or-later
// What the data hall's cables cost and draw: the bill of materials by medium and order length.
#pragma once

#include "model/catalog/catalogitems.h"
#include "model/planning/cablemedium.h"
#include "model/planning/planestimate.h"

#include <vector>

namespace cp::model {

class Catalog;
struct DataHall;

/**
 * The length a cable is ordered in, from its measured run (already rounded up to 0.5 m by the
 * hall): copper assemblies in those 0.5 m steps; fibre and twisted-pair patch cords in stock
 * lengths (1, 2, 3, 5, 7, 10, 15, 20, 25, 30 m, then every 10 m to 100 m, then every 50 m), the
 * next one up, since a cable cut shorter than its run does not reach.
 */
double orderLengthMeters(CableMedium medium, double lengthMeters);

/** The hall's cables as lines of the bill of materials, with the optics and power they add. */
struct CableBill
{
    /** "Cables" by medium, rate and order length, then "Optics" by kind. */
    std::vector<BillOfMaterialsLine> lines;
    long long transceivers = 0; ///< two per optical cable
    long long fabricTransceivers = 0; ///< of them, on the compute fabric's cables
    double watts = 0; ///< transceivers and the amplifiers of active copper cables
    double costUsd = 0; ///< every line together
    /** Fabric cables with an end outside any rack: no length, so the cable is not priced; their
     * optics follow the fabric generator's medium (two transceivers per optical link). */
    long long unmeasuredCables = 0;
    /** Cables whose NIC or switch has no "cabling" prices in the catalog: counted, not priced. */
    long long unpricedCables = 0;
};

/**
 * Prices every cable of `hall`: a storage-network cable by its NIC's (looked up in `catalog`;
 * without one it is unpriced and its optics are the fabric NIC's), a fabric cable by
 * `fabricNic`'s cabling prices (DAC and active
 * copper as fixed plus per-metre parts; fibre likewise plus two transceivers, the NIC's own
 * optic for multimode and its single-mode optic for single-mode runs), a management cable by
 * `managementSwitch`'s twisted-pair prices (none: unpriced). Cables out of reach are left out (the
 * hall warns of them, and the plan estimate repeats the warning).
 */
CableBill cableBillOf(const DataHall &hall, const NicSpec &fabricNic,
                      const SwitchSpec *managementSwitch, const Catalog *catalog = nullptr);

} // namespace cp::model
