// SPDX-License-Identifier: GPL-3.0-or-later
#include "argumentparser.h"

#include "model/core/humantext.h"

#include <sstream>

#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstdlib>

namespace cp::cli {

ParsedArguments parseArguments(const std::vector<std::string> &arguments,
                               const std::vector<OptionSpec> &specs, const std::string &command)
{
    ParsedArguments parsed;
    for (std::size_t i = 0; i < arguments.size(); ++i) {
        const std::string &word = arguments[i];
        if (word.size() < 3 || word.rfind("--", 0) != 0) {
            if (word.size() > 1 && word[0] == '-'
                && !(std::isdigit(static_cast<unsigned char>(word[1])) || word[1] == '.'))
                throw UsageError("unknown option '" + word + "' (options start with --)");
            parsed.positional.push_back(word);
            continue;
        }
        std::string name = word.substr(2);
        std::optional<std::string> inlineValue;
        if (const auto equals = name.find('='); equals != std::string::npos) {
            inlineValue = name.substr(equals + 1);
            name = name.substr(0, equals);
        }
        const OptionSpec *spec = nullptr;
        for (const OptionSpec &candidate : specs) {
            if (candidate.name == name)
                spec = &candidate;
        }
        if (!spec)
            throw UsageError("unknown option '--" + name + "' (see 'clusterplanner-cli " + command
                             + " --help')");
        if (!spec->takesValue) {
            if (inlineValue)
                throw UsageError("option '--" + name + "' takes no value");
            parsed.m_flags.insert(name);
            continue;
        }
        if (!inlineValue) {
            if (i + 1 >= arguments.size() || (arguments[i + 1].rfind("--", 0) == 0))
                throw UsageError("option '--" + name + "' needs a value");
            inlineValue = arguments[++i];
        }
        if (parsed.m_values.contains(name))
            throw UsageError("option '--" + name + "' given twice");
        parsed.m_values[name] = *inlineValue;
    }
    return parsed;
}

bool ParsedArguments::has(const std::string &name) const
{
    return m_flags.contains(name) || m_values.contains(name);
}

std::optional<std::string> ParsedArguments::value(const std::string &name) const
{
    const auto it = m_values.find(name);
    if (it == m_values.end())
        return std::nullopt;
    return it->second;
}

std::string ParsedArguments::required(const std::string &name) const
{
    auto found = value(name);
    if (!found)
        throw UsageError("missing required option '--" + name + "'");
    return *found;
}

std::optional<int> ParsedArguments::integer(const std::string &name, int min, int max) const
{
    auto text = value(name);
    if (!text)
        return std::nullopt;
    char *end = nullptr;
    errno = 0;
    const long number = std::strtol(text->c_str(), &end, 10);
    if (text->empty() || *end != '\0' || errno == ERANGE)
        throw UsageError("option '--" + name + "': expected an integer, found '" + *text + "'");
    if (number < min || number > max)
        throw UsageError("option '--" + name + "': must be between " + std::to_string(min) + " and "
                         + std::to_string(max) + ", found " + *text);
    return static_cast<int>(number);
}

namespace {
/** A limit as people read it: "64", "1,000,000,000,000", "0.5", "1e-09". */
std::string limitText(double limit)
{
    if (limit == std::floor(limit) && std::fabs(limit) < 1e18)
        return model::groupedCount(static_cast<long long>(limit));
    char text[32];
    std::snprintf(text, sizeof text, "%g", limit);
    return text;
}

/** One finite number, the whole of `text`; a UsageError naming the option otherwise. */
double parseNumber(const std::string &name, const std::string &text)
{
    char *end = nullptr;
    const double number = std::strtod(text.c_str(), &end);
    if (text.empty() || *end != '\0' || !std::isfinite(number))
        throw UsageError("option '--" + name + "': expected a number, found '" + text + "'");
    return number;
}
} // namespace

std::optional<double> ParsedArguments::number(const std::string &name, double min, double max) const
{
    auto text = value(name);
    if (!text)
        return std::nullopt;
    const double number = parseNumber(name, *text);
    if (number < min || number > max)
        throw UsageError("option '--" + name + "': must be between " + limitText(min) + " and "
                         + limitText(max) + ", found " + *text);
    return number;
}

std::optional<std::vector<double>> ParsedArguments::numberList(const std::string &name) const
{
    auto text = value(name);
    if (!text)
        return std::nullopt;
    std::vector<double> numbers;
    for (const std::string &part : splitList(*text, ','))
        numbers.push_back(parseNumber(name, part));
    return numbers;
}

std::optional<double> ParsedArguments::count(const std::string &name, double max) const
{
    auto text = value(name);
    if (!text)
        return std::nullopt;
    char *end = nullptr;
    double number = std::strtod(text->c_str(), &end);
    const std::string suffix = end ? std::string(end) : std::string();
    if (suffix == "K" || suffix == "k")
        number *= 1e3;
    else if (suffix == "M")
        number *= 1e6;
    else if (suffix == "B" || suffix == "G")
        number *= 1e9;
    else if (suffix == "T")
        number *= 1e12;
    else if (!suffix.empty())
        throw UsageError("option '--" + name + "': expected a count such as 2e12 or 2T, found '"
                         + *text + "'");
    if (text->empty() || end == text->c_str() || !std::isfinite(number) || number <= 0)
        throw UsageError("option '--" + name + "': expected a positive count, found '" + *text
                         + "'");
    if (number > max)
        throw UsageError("option '--" + name + "': must be at most " + limitText(max) + ", found "
                         + *text);
    return number;
}

std::optional<std::string> ParsedArguments::choice(const std::string &name,
                                                   const std::vector<std::string> &allowed) const
{
    auto text = value(name);
    if (!text)
        return std::nullopt;
    for (const std::string &candidate : allowed) {
        if (candidate == *text)
            return text;
    }
    std::string list;
    for (const std::string &candidate : allowed)
        list += (list.empty() ? "" : "|") + candidate;
    throw UsageError("option '--" + name + "': '" + *text + "' is not one of " + list);
}

std::string usageText(const std::string &synopsis, const std::vector<OptionSpec> &specs)
{
    std::string text = "usage: " + synopsis + "\n";
    for (const OptionSpec &spec : specs) {
        std::string left = "  --" + spec.name + (spec.takesValue ? " VALUE" : "");
        if (left.size() < 28)
            left.resize(28, ' ');
        else
            left += "  ";
        text += left + spec.help + "\n";
    }
    return text;
}

std::optional<double> hourlyPrice(const ParsedArguments &arguments)
{
    const std::optional<double> price = arguments.number("hourly-price", 0.0, 1e6);
    if (price && *price <= 0)
        throw UsageError("--hourly-price 0 makes every GPU-hour free and every cost 0: give the "
                         "price of a GPU-hour, above 0, or leave it out to price the hardware");
    return price;
}

std::vector<std::string> splitList(const std::string &text, char separator)
{
    // An empty item is a typo ("1,,2" or a trailing comma), said rather than dropped: a sweep of
    // "1,,2" had quietly made two scenarios of the three meant.
    std::vector<std::string> parts;
    std::size_t start = 0;
    while (true) {
        const std::size_t end = text.find(separator, start);
        const std::string part = text.substr(start, end == std::string::npos ? end : end - start);
        if (part.empty())
            throw UsageError("'" + text + "' has an empty item: remove the extra '"
                             + std::string(1, separator) + "'");
        parts.push_back(part);
        if (end == std::string::npos)
            return parts;
        start = end + 1;
    }
}

} // namespace cp::cli
