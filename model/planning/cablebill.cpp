// SPDX-License-Identifier: GPL-3.0-or-later
#include "model/planning/cablebill.h"

#include "model/catalog/catalog.h"
#include "model/planning/datahall.h"

#include <array>
#include <cmath>
#include <cstdio>
#include <map>
#include <tuple>

namespace cp::model {

namespace {

/** One priced kind of cable: its medium, port rate and order length. */
using CableKind = std::tuple<CableMedium, long long /*gbit*/, double /*meters*/>;

std::string lengthText(double meters)
{
    char text[32];
    std::snprintf(text, sizeof text, "%g m", meters);
    return text;
}

std::string mediumKey(CableMedium medium)
{
    switch (medium) {
    case CableMedium::PassiveCopper:
        return "dac";
    case CableMedium::ActiveCopper:
        return "acc";
    case CableMedium::Multimode:
        return "om4";
    case CableMedium::SingleMode:
        return "os2";
    case CableMedium::TwistedPair:
        return "cat6a";
    case CableMedium::OutOfReach:
        break;
    }
    return "none";
}

/** "400 Gb/s passive copper (DAC), 2.5 m"; fibre names no rate (any transceiver pair uses it). */
std::string cableName(const CableKind &kind)
{
    const auto [medium, gbit, meters] = kind;
    switch (medium) {
    case CableMedium::Multimode:
        return "multimode fibre (OM4), " + lengthText(meters);
    case CableMedium::SingleMode:
        return "single-mode fibre (OS2), " + lengthText(meters);
    case CableMedium::TwistedPair:
        return "Cat 6A patch cord, " + lengthText(meters);
    default:
        return std::to_string(gbit) + " Gb/s " + cableMediumName(medium) + ", "
            + lengthText(meters);
    }
}

std::string cableId(const CableKind &kind)
{
    const auto [medium, gbit, meters] = kind;
    char text[64];
    std::snprintf(text, sizeof text, "cable-%s-%lldg-%gm", mediumKey(medium).c_str(), gbit, meters);
    return text;
}

/** One cable's price from its family's prices (fixed part plus per metre). */
double cablePriceUsd(const CablePrices &prices, CableMedium medium, double meters)
{
    switch (medium) {
    case CableMedium::PassiveCopper:
        return prices.dacPriceUsd + prices.dacPriceUsdPerMeter * meters;
    case CableMedium::ActiveCopper:
        return prices.accPriceUsd + prices.accPriceUsdPerMeter * meters;
    case CableMedium::Multimode:
    case CableMedium::SingleMode:
        return prices.fibrePriceUsd + prices.fibrePriceUsdPerMeter * meters;
    case CableMedium::TwistedPair:
        return prices.twistedPairPriceUsd + prices.twistedPairPriceUsdPerMeter * meters;
    case CableMedium::OutOfReach:
        break;
    }
    return 0;
}

/** The transceivers and active copper ends one NIC's cables need. */
struct OpticsTally
{
    const NicSpec *nic = nullptr;
    long long multimode = 0;
    long long singleMode = 0;
    long long activeCopperEnds = 0;
};

/** Counts of what the cables need, before they become lines. */
struct CableTally
{
    std::map<CableKind, long long> cables;
    std::map<CableKind, double> unitPrices;
    std::map<std::string, OpticsTally> optics; ///< by NIC id, in id order
};

void tallyCable(CableTally &tally, CableBill &bill, const HallCable &cable, const NicSpec &nic,
                const CablePrices *prices, const std::string &opticsKey)
{
    OpticsTally &optics = tally.optics[opticsKey];
    optics.nic = &nic;
    if (!cable.positioned) {
        ++bill.unmeasuredCables;
        optics.multimode += cable.opticalInFabric ? 2 : 0;
        return;
    }
    if (cable.medium == CableMedium::OutOfReach)
        return;
    optics.multimode += cable.medium == CableMedium::Multimode ? 2 : 0;
    optics.singleMode += cable.medium == CableMedium::SingleMode ? 2 : 0;
    optics.activeCopperEnds += cable.medium == CableMedium::ActiveCopper ? 2 : 0;
    if (!prices || !prices->known) {
        ++bill.unpricedCables;
        return;
    }
    const double meters = orderLengthMeters(cable.medium, cable.lengthMeters);
    const bool fibre
        = cable.medium == CableMedium::Multimode || cable.medium == CableMedium::SingleMode;
    const CableKind kind {cable.medium, fibre ? 0 : std::llround(cable.bitsPerSecond / 1e9),
                          meters};
    ++tally.cables[kind];
    tally.unitPrices[kind] = cablePriceUsd(*prices, cable.medium, meters);
}

/** The optics lines of one NIC's cables, and their count and power into `bill`. */
void addOptics(CableBill &bill, const OpticsTally &optics)
{
    const NicSpec &nic = *optics.nic;
    if (optics.multimode > 0)
        bill.lines.push_back({"Optics", nic.id + "-optic", nic.name + " multimode transceiver",
                              optics.multimode, nic.opticPriceUsd});
    if (optics.singleMode > 0)
        bill.lines.push_back({"Optics", nic.id + "-optic-sm", nic.name + " single-mode transceiver",
                              optics.singleMode, nic.cabling.singleModeOpticPriceUsd});
    bill.transceivers += optics.multimode + optics.singleMode;
    bill.watts += optics.multimode * nic.opticPowerWatts
        + optics.singleMode * nic.cabling.singleModeOpticWatts
        + optics.activeCopperEnds * nic.cabling.accWattsPerEnd;
}

} // namespace

double orderLengthMeters(CableMedium medium, double lengthMeters)
{
    if (medium == CableMedium::PassiveCopper || medium == CableMedium::ActiveCopper)
        return std::ceil(lengthMeters * 2.0) / 2.0;
    static constexpr std::array<double, 10> stock {1, 2, 3, 5, 7, 10, 15, 20, 25, 30};
    for (double meters : stock)
        if (lengthMeters <= meters)
            return meters;
    if (lengthMeters <= 100)
        return std::ceil(lengthMeters / 10.0) * 10.0;
    return std::ceil(lengthMeters / 50.0) * 50.0;
}

CableBill cableBillOf(const DataHall &hall, const NicSpec &fabricNic,
                      const SwitchSpec *managementSwitch, const Catalog *catalog)
{
    CableBill bill;
    CableTally tally;
    const NicSpec management; // twisted pair needs no optics
    for (const HallCable &cable : hall.cables) {
        if (cable.management) {
            tallyCable(tally, bill, cable, management,
                       managementSwitch ? &managementSwitch->cabling : nullptr, management.id);
        } else if (cable.storage() && catalog && catalog->kindOf(cable.storageNicId)) {
            const NicSpec &nic = catalog->nic(cable.storageNicId);
            // Keyed apart from the fabric's even on the same NIC: storage links to free fabric
            // leaf ports are the storage network's cables, not the compute fabric's.
            tallyCable(tally, bill, cable, nic, &nic.cabling, "storage:" + nic.id);
        } else if (cable.storage()) {
            // A storage link whose NIC the catalog lacks takes the fabric NIC's optics, counted
            // with the storage network's too.
            tallyCable(tally, bill, cable, fabricNic, nullptr, "storage:" + fabricNic.id);
        } else {
            tallyCable(tally, bill, cable, fabricNic, &fabricNic.cabling, fabricNic.id);
        }
    }
    for (const auto &[kind, count] : tally.cables)
        bill.lines.push_back(
            {"Cables", cableId(kind), cableName(kind), count, tally.unitPrices.at(kind)});
    // The fabric NIC's optics first, then the storage network's.
    if (const auto it = tally.optics.find(fabricNic.id); it != tally.optics.end()) {
        addOptics(bill, it->second);
        bill.fabricTransceivers = bill.transceivers;
    }
    for (const auto &[id, optics] : tally.optics)
        if (id != fabricNic.id && !id.empty())
            addOptics(bill, optics);
    for (const BillOfMaterialsLine &line : bill.lines)
        bill.costUsd += line.totalUsd();
    return bill;
}

} // namespace cp::model
