// SPDX-License-Identifier: GPL-3.0-or-later
// Which cable a link of a given length and rate needs.
#pragma once

#include <string>

namespace cp::model {

/** The physical medium of one cable run, shortest reach first. */
enum class CableMedium {
    PassiveCopper, ///< direct-attach copper (DAC)
    ActiveCopper, ///< linear active copper (ACC / LACC)
    Multimode, ///< two multimode transceivers and OM4 fibre
    SingleMode, ///< two single-mode (DR) transceivers and OS2 fibre
    TwistedPair, ///< Cat 6A for 1000BASE-T / 10GBASE-T ports
    OutOfReach, ///< no medium of the family reaches this far
};

std::string cableMediumName(CableMedium medium);
/** NetBox's CableTypeChoices slug ("dac-passive", "mmf-om4", ...); empty for OutOfReach. */
std::string netboxCableType(CableMedium medium);

/**
 * The cheapest medium that reaches `lengthMeters` at `bitsPerSecond` per port. For 100G-PAM4
 * lanes (200 Gb/s ports and up): DAC to 3 m and linear active copper to 5 m (NVIDIA LinkX
 * 100G-PAM4 product line overview), multimode transceivers on OM4 to 50 m and single-mode DR
 * optics to 500 m (NVIDIA structured cabling requirements for NDR / 400G Ethernet: MPO
 * multimode 50 m, MPO single-mode straight 500 m). Slower ports (25G-NRZ and 50G-PAM4 lanes):
 * DAC to 5 m, multimode to 100 m, single-mode to 500 m (NVIDIA Cable Management Guidelines and
 * FAQ). RJ45 ports (`twistedPairPort`): Cat 6A to 100 m (IEEE 802.3an channel length).
 */
CableMedium cableMediumFor(double lengthMeters, double bitsPerSecond, bool twistedPairPort);

} // namespace cp::model
