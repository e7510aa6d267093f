// SPDX-License-Identifier: GPL-3.0-or-later
// Unit constants. Everything inside the model is SI (bytes, bytes per second, FLOP per second,
// seconds, watts, US dollars); catalogs and user interfaces use the units people quote, and convert
// at the edge with these constants.
#pragma once

namespace cp::model::units {

// Decimal prefixes, as datasheets use them (80 GB of HBM = 80e9 bytes, 400 Gb/s = 50e9 B/s).
inline constexpr double kilo = 1e3;
inline constexpr double mega = 1e6;
inline constexpr double giga = 1e9;
inline constexpr double tera = 1e12;
inline constexpr double peta = 1e15;

// Binary prefix for memory-fit reporting (nvidia-smi shows GiB).
inline constexpr double mebi = 1024.0 * 1024.0;
inline constexpr double gibi = 1024.0 * 1024.0 * 1024.0;

inline constexpr double bitsPerByte = 8.0;
inline constexpr double secondsPerHour = 3600.0;
inline constexpr double secondsPerDay = 86400.0;
inline constexpr double hoursPerYear = 8766.0; // 365.25 days
inline constexpr double joulesPerKilowattHour = 3.6e6;
inline constexpr double joulesPerMegawattHour = 3.6e9;

inline constexpr double gbToBytes(double gb)
{
    return gb * giga;
}
inline constexpr double gbitPerSecondToBytesPerSecond(double gbit)
{
    return gbit * giga / bitsPerByte;
}
inline constexpr double bytesPerSecondToGbitPerSecond(double bytesPerSecond)
{
    return bytesPerSecond * bitsPerByte / giga;
}
inline constexpr double tbitPerSecondToBytesPerSecond(double tbit)
{
    return tbit * tera / bitsPerByte;
}
inline constexpr double bytesPerSecondToTbitPerSecond(double bytesPerSecond)
{
    return bytesPerSecond * bitsPerByte / tera;
}
inline constexpr double tflopsToFlopsPerSecond(double tflops)
{
    return tflops * tera;
}

} // namespace cp::model::units
