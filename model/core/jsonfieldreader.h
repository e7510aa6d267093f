// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <nlohmann/json.hpp>

#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <vector>

namespace cp::model {

/**
 * Largest figure any field may give unless it sets a tighter range. Unit conversions multiply by
 * up to 1e12 (TFLOP/s to FLOP/s) and estimates multiply by counts, so figures near 1e300 became
 * inf and printed "inf GiB" or "-nan USD". No datasheet or plan quantity comes near 1e15 (the
 * largest are token counts, around 1e13), and 1e15 x 1e12 x 2^31 is still far below a double's
 * limit.
 */
inline constexpr double maxJsonFigure = 1e15;

/**
 * The smallest figure a field that must be greater than 0 takes: the estimates divide by such
 * figures (FLOP/s, bandwidths, rates, efficiency fractions), and 1e-300 TFLOP/s gave a step time
 * of 300 digits. No unit the files use has a real value this small (1e-6 TFLOP/s is a megaflop).
 */
inline constexpr double minPositiveJsonFigure = 1e-6;

/** Allowed range of a numeric field; `exclusiveMin` is for sizes that must be strictly positive. */
struct NumberRange
{
    double min = 0.0;
    double max = maxJsonFigure;
    bool exclusiveMin = false;
};

inline constexpr NumberRange positive {0.0, maxJsonFigure, true};
inline constexpr NumberRange nonNegative {0.0, maxJsonFigure, false};
inline constexpr NumberRange fraction {0.0, 1.0, true};

/**
 * Reads the fields of one JSON object and reports every problem as an InputError naming the file,
 * the JSON pointer (RFC 6901) of the field and the reason. It remembers which keys were read so
 * that finish() can reject unknown keys: a misspelt field is an error, never silently ignored.
 */
class JsonFieldReader
{
public:
    JsonFieldReader(const nlohmann::json &object, std::string file, std::string pointer);

    const std::string &file() const { return m_file; }
    const std::string &pointer() const { return m_pointer; }
    std::string childPointer(std::string_view key) const;
    bool has(std::string_view key) const;

    double number(std::string_view key, NumberRange range);
    std::optional<double> optionalNumber(std::string_view key, NumberRange range);
    int integer(std::string_view key, int min, int max);
    std::optional<int> optionalInteger(std::string_view key, int min, int max);
    /** A count beyond an int's range (requests of a job, tokens of a run). */
    long long largeInteger(std::string_view key, long long min, long long max);
    std::optional<long long> optionalLargeInteger(std::string_view key, long long min,
                                                  long long max);
    std::string string(std::string_view key);
    std::optional<std::string> optionalString(std::string_view key);
    std::string choice(std::string_view key, const std::vector<std::string> &allowed);
    std::optional<std::string> optionalChoice(std::string_view key,
                                              const std::vector<std::string> &allowed);
    std::optional<bool> optionalBool(std::string_view key);
    const nlohmann::json &object(std::string_view key);
    const nlohmann::json *optionalObject(std::string_view key);
    const nlohmann::json &array(std::string_view key);
    const nlohmann::json *optionalArray(std::string_view key);

    /** Marks a key as known without reading it (for keys handled elsewhere). */
    void accept(std::string_view key);
    /** Throws if the object holds a key that was never read or accepted. */
    void finish() const;

    [[noreturn]] void fail(std::string_view key, const std::string &reason) const;

private:
    const nlohmann::json *find(std::string_view key);

    const nlohmann::json &m_object;
    std::string m_file;
    std::string m_pointer;
    std::set<std::string, std::less<>> m_seen;
};

/** Escapes a key for use in a JSON pointer (RFC 6901: '~' -> "~0", '/' -> "~1"). */
std::string escapeJsonPointerToken(std::string_view token);

/**
 * Deepest nesting of arrays and objects a document may have. Copies, dumps and merge patches of a
 * JSON value recurse once per level, so a 400 KB file nesting 200,000 levels overflowed the stack;
 * no catalog or plan needs more than a dozen levels.
 */
inline constexpr int maxJsonNestingDepth = 256;

/**
 * Parses text as JSON. A syntax error, a document nesting deeper than maxJsonNestingDepth, or a
 * number beyond a double's range is an InputError naming the file and the byte offset (and, for a
 * number, its JSON pointer).
 */
nlohmann::json parseJsonText(const std::string &text, const std::string &file);
/** Reads and parses a JSON file; a missing or unreadable file is an InputError too. */
nlohmann::json readJsonFile(const std::string &path);

/** Human-readable name of a JSON value's type for error messages. */
std::string jsonTypeName(const nlohmann::json &value);

} // namespace cp::model
