// SPDX-License-Identifier: GPL-3.0-or-later
#include "model/planning/cablemedium.h"

namespace cp::model {

std::string cableMediumName(CableMedium medium)
{
    switch (medium) {
    case CableMedium::PassiveCopper:
        return "passive copper (DAC)";
    case CableMedium::ActiveCopper:
        return "active copper (ACC)";
    case CableMedium::Multimode:
        return "multimode optics on OM4 fibre";
    case CableMedium::SingleMode:
        return "single-mode optics on OS2 fibre";
    case CableMedium::TwistedPair:
        return "Cat 6A twisted pair";
    case CableMedium::OutOfReach:
        return "out of reach";
    }
    return "";
}

std::string netboxCableType(CableMedium medium)
{
    switch (medium) {
    case CableMedium::PassiveCopper:
        return "dac-passive";
    case CableMedium::ActiveCopper:
        return "dac-active";
    case CableMedium::Multimode:
        return "mmf-om4";
    case CableMedium::SingleMode:
        return "smf-os2";
    case CableMedium::TwistedPair:
        return "cat6a";
    case CableMedium::OutOfReach:
        break;
    }
    return "";
}

CableMedium cableMediumFor(double lengthMeters, double bitsPerSecond, bool twistedPairPort)
{
    if (twistedPairPort)
        return lengthMeters <= 100 ? CableMedium::TwistedPair : CableMedium::OutOfReach;
    // 100G-PAM4 lanes carry 200 Gb/s ports (two lanes) and faster.
    const bool pam4Hundred = bitsPerSecond >= 200e9;
    const double copperReach = pam4Hundred ? 3.0 : 5.0;
    const double multimodeReach = pam4Hundred ? 50.0 : 100.0;
    if (lengthMeters <= copperReach)
        return CableMedium::PassiveCopper;
    if (pam4Hundred && lengthMeters <= 5.0)
        return CableMedium::ActiveCopper;
    if (lengthMeters <= multimodeReach)
        return CableMedium::Multimode;
    if (lengthMeters <= 500.0)
        return CableMedium::SingleMode;
    return CableMedium::OutOfReach;
}

} // namespace cp::model
