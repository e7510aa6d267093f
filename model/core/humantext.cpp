// SPDX-License-Identifier: GPL-3.0-or-later
#include "model/core/humantext.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdio>

namespace cp::model {

std::string formatNumber(const char *format, double value)
{
    char buffer[96];
    std::snprintf(buffer, sizeof buffer, format, value);
    return buffer;
}

std::string groupedCount(long long value)
{
    return groupThousands(std::to_string(value));
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
    }
    // Three significant digits, without an exponent: 0.0452 s, 45.2 s, 452 s, 1,234 days.
    const int decimals = value >= 99.95 ? 0 : value >= 9.995 ? 1 : value >= 0.9995 ? 2 : 3;
    char text[48];
    std::snprintf(text, sizeof text, "%.*f %s", decimals, value, unit);
    return groupThousands(text);
}

std::string humanEnergy(double joules)
{
    if (!std::isfinite(joules) || joules < 0)
        return "-";
    const double wattHours = joules / 3600.0;
    const char *unit = "Wh";
    double value = wattHours;
    for (const char *larger : {"kWh", "MWh", "GWh", "TWh"}) {
        if (value < 999.5)
            break;
        value /= 1000.0;
        unit = larger;
    }
    char text[48];
    const int decimals = value < 9.995 ? 2 : value < 99.95 ? 1 : 0;
    std::snprintf(text, sizeof text, "%.*f %s", decimals, value, unit);
    return groupThousands(text);
}

std::string threeDigits(double value)
{
    if (!std::isfinite(value))
        return "-";
    const double magnitude = std::abs(value);
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

} // namespace cp::model
