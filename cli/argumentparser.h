// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <limits>
#include <map>
#include <optional>
#include <set>
#include <stdexcept>
#include <string>
#include <vector>

namespace cp::cli {

/** A command-line mistake: unknown option, missing value, bad number. Exit status 2. */
class UsageError : public std::runtime_error
{
public:
    using std::runtime_error::runtime_error;
};

struct OptionSpec
{
    std::string name; ///< without the leading "--"
    bool takesValue = true;
    std::string help;
};

/** Options and positional words of one subcommand, checked against its option list. */
class ParsedArguments
{
public:
    bool has(const std::string &name) const;
    std::optional<std::string> value(const std::string &name) const;
    std::string required(const std::string &name) const;
    std::optional<int> integer(const std::string &name, int min, int max) const;
    std::optional<double> number(const std::string &name, double min, double max) const;
    /** Numbers separated by commas ("1,2.5,4"), each checked as number() checks one. */
    std::optional<std::vector<double>> numberList(const std::string &name) const;
    /** A count that may carry a suffix: 2e12, 2T, 300B, 1.5M. */
    std::optional<double> count(const std::string &name,
                                double max = std::numeric_limits<double>::max()) const;
    std::optional<std::string> choice(const std::string &name,
                                      const std::vector<std::string> &allowed) const;

    std::vector<std::string> positional;

private:
    friend ParsedArguments parseArguments(const std::vector<std::string> &,
                                          const std::vector<OptionSpec> &, const std::string &);
    std::map<std::string, std::string> m_values;
    std::set<std::string> m_flags;
};

/** Parses `--name value`, `--name=value` and `--flag`; throws UsageError naming the problem. */
ParsedArguments parseArguments(const std::vector<std::string> &arguments,
                               const std::vector<OptionSpec> &specs, const std::string &command);

/** --hourly-price: USD per GPU-hour, above 0 (a price of 0 made every cost 0 without a word);
 * empty when not given. */
std::optional<double> hourlyPrice(const ParsedArguments &arguments);

/** "a,b,c" split at `separator`; an empty part ("a,,c", "a,") is a UsageError. */
std::vector<std::string> splitList(const std::string &text, char separator);

std::string usageText(const std::string &synopsis, const std::vector<OptionSpec> &specs);

} // namespace cp::cli
