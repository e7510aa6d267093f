// SPDX-License-Identifier: GPL-3.0-or-later
#include "model/core/humantext.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdio>
#include <initializer_list>

namespace cp::model {

std::string formatNumber(const char *format, double value)
{
    char buffer[96];
    std::snprintf(buffer, sizeof buffer, format, value);
    return buffer;
}

std::string withReason(std::string figure, const std::string &reason)
{
    return reason.empty() ? figure : figure + ": " + reason;
}

std::string groupedCount(long long value)
{
    return groupThousands(std::to_string(value));
}

std::string countOf(long long value, const std::string &singular, const std::string &plural)
{
    return groupedCount(value) + " " + (value == 1 ? singular : plural);
}

std::string groupThousands(std::string number)
{
    const std::size_t start = !number.empty() && number[0] == '-' ? 1 : 0;
    std::size_t end = start;
    while (end < number.size() && std::isdigit(static_cast<unsigned char>(number[end])))
        ++end;
    for (std::size_t at = end; at > start + 3; at -= 3)
        number.insert(at - 3, 1, ',');
    return number;
}

std::string slugOf(const std::string &text)
{
    std::string slug;
    for (char c : text) {
        const auto u = static_cast<unsigned char>(c);
        if (std::isalnum(u))
            slug += static_cast<char>(std::tolower(u));
        else if (!slug.empty() && slug.back() != '-')
            slug += '-';
    }
    while (!slug.empty() && slug.back() == '-')
        slug.pop_back();
    return slug.empty() ? "item" : slug;
}

std::string humanWait(double seconds)
{
    if (!std::isfinite(seconds) || seconds < 0)
        return "-";
    char text[32];
    const auto decimals = [](double value) {
        return value < 9.95 ? 1 : 0;
    };
    if (seconds < 90)
        std::snprintf(text, sizeof text, "%.0f s", seconds);
    else if (seconds < 90 * 60)
        std::snprintf(text, sizeof text, "%.0f min", seconds / 60);
    else if (seconds < 48 * 3600)
        std::snprintf(text, sizeof text, "%.*f h", decimals(seconds / 3600), seconds / 3600);
    else
        std::snprintf(text, sizeof text, "%.*f days", decimals(seconds / 86400), seconds / 86400);
    return groupThousands(text);
}

std::string humanDuration(double seconds)
{
    if (!std::isfinite(seconds) || seconds < 0)
        return "-";
    // Past a million years no count of days means anything, and one of 10^294 days overran the
    // text and lost its unit ("1,364,841,125,925,925,957,919,953,694,488").
    constexpr double millionYears = 1e6 * 365.25 * 86400;
    if (seconds >= millionYears)
        return "over a million years";
    double value = seconds;
    const char *unit = "s";
    if (seconds >= 48 * 3600) {
        value = seconds / 86400;
        unit = "days";
    } else if (seconds >= 90 * 60) {
        value = seconds / 3600;
        unit = "h";
    } else if (seconds >= 90) {
        value = seconds / 60;
        unit = "min";
    } else if (seconds > 0 && seconds < 0.9995e-3) {
        value = seconds * 1e6;
        unit = "us";
    } else if (seconds > 0 && seconds < 0.9995) {
        value = seconds * 1e3;
        unit = "ms";
    }
    // Three significant digits, without an exponent: 0.0452 s, 45.2 s, 452 s, 1,234 days.
    const int decimals = value >= 99.95 ? 0 : value >= 9.995 ? 1 : value >= 0.9995 ? 2 : 3;
    char text[48];
    std::snprintf(text, sizeof text, "%.*f %s", decimals, value, unit);
    return groupThousands(text);
}

namespace {

/**
 * `value` in the first of `units` (each 1000 times the one before it, with its leading space or
 * sign) moved up the ladder while it would print 1000 or more, to about three digits: two
 * decimals below 10, one below 100, none from there; "-" for a negative or non-finite amount.
 */
std::string thousandsLadder(double value, std::initializer_list<const char *> units)
{
    if (!std::isfinite(value) || value < 0)
        return "-";
    auto unit = units.begin();
    if (value == 0)
        return std::string("0") + *unit; // none at all reads as such, not as "0.00 W"
    while (value >= 999.5 && unit + 1 != units.end()) {
        value /= 1000.0;
        ++unit;
    }
    // Room for any finite double in fixed notation (309 digits) and the longest unit: an absurd
    // amount from a hostile file prints whole, never cut short into a wrong number.
    char text[400];
    const int decimals = value < 9.995 ? 2 : value < 99.95 ? 1 : 0;
    std::snprintf(text, sizeof text, "%.*f%s", decimals, value, *unit);
    return groupThousands(text);
}

} // namespace

std::string humanEnergy(double joules)
{
    return thousandsLadder(joules / 3600.0, {" Wh", " kWh", " MWh", " GWh", " TWh"});
}

std::string humanCarbon(double kilograms)
{
    // Grams, kilograms, then tonnes, grouped beyond a thousand (nobody says kilotonnes).
    const std::string mass = thousandsLadder(kilograms * 1000, {" g", " kg", " t"});
    return mass == "-" ? mass : mass + " CO2e";
}

std::string humanPower(double watts)
{
    return thousandsLadder(watts, {" W", " kW", " MW", " GW"});
}

std::string itPowerText(const ItPowerParts &parts, const std::string &gpuNote)
{
    const double total
        = parts.gpusWatts + parts.nodesWatts + parts.networkWatts + parts.storageWatts;
    return humanPower(total) + " (GPUs " + humanPower(parts.gpusWatts) + gpuNote + ", nodes "
        + humanPower(parts.nodesWatts) + ", network " + humanPower(parts.networkWatts)
        + ", storage " + humanPower(parts.storageWatts) + ")";
}

std::string humanUsd(double usd)
{
    const std::string amount = thousandsLadder(usd, {"", " k", " M", " B", " T"});
    return amount == "-" ? amount : "$" + amount;
}

std::string humanFlopsRate(double flopsPerSecond)
{
    return thousandsLadder(flopsPerSecond / 1e12, {" TFLOP/s", " PFLOP/s", " EFLOP/s", " ZFLOP/s"});
}

std::string humanBytes(double bytes)
{
    return thousandsLadder(bytes, {" B", " kB", " MB", " GB", " TB", " PB", " EB"});
}

std::string threeDigits(double value)
{
    if (!std::isfinite(value))
        return "-";
    const double magnitude = std::abs(value);
    // Whole and grouped; in fixed notation past what a 64-bit integer holds, never wrapped.
    if (magnitude >= 9e18) {
        char whole[400];
        std::snprintf(whole, sizeof whole, "%.0f", value);
        return groupThousands(whole);
    }
    if (magnitude >= 99.95)
        return groupedCount(std::llround(value));
    // Decimals that leave three significant digits: 24.2 (1), 1.21 (2), 0.0035 (4).
    const int decimals = magnitude > 0
        ? std::clamp(2 - static_cast<int>(std::floor(std::log10(magnitude))), 1, 12)
        : 1;
    char text[64];
    std::snprintf(text, sizeof text, "%.*f", decimals, value);
    return text;
}

std::string percentText(double fraction, int decimals, bool withSign)
{
    if (!std::isfinite(fraction))
        return "-";
    char text[64];
    std::snprintf(text, sizeof text, withSign ? "%+.*f%%" : "%.*f%%", decimals, 100 * fraction);
    return text;
}

std::string shareText(double fraction)
{
    return percentText(fraction, std::abs(fraction) < 0.01 ? 2 : 1);
}

std::string joinedList(const std::vector<std::string> &items)
{
    std::string text;
    for (std::size_t i = 0; i < items.size(); ++i)
        text += (i == 0 ? "" : i + 1 == items.size() ? " and " : ", ") + items[i];
    return text;
}

} // namespace cp::model
