// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <nlohmann/json.hpp>

#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <vector>

namespace cp::model {

/** Allowed range of a numeric field; `exclusiveMin` is for sizes that must be strictly positive. */
struct NumberRange
{
    double min = 0.0;
    double max = 1e300;
    bool exclusiveMin = false;
};

inline constexpr NumberRange positive {0.0, 1e300, true};
inline constexpr NumberRange nonNegative {0.0, 1e300, false};
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

/** Parses text as JSON, turning a syntax error into an InputError with the byte offset. */
nlohmann::json parseJsonText(const std::string &text, const std::string &file);
/** Reads and parses a JSON file; a missing or unreadable file is an InputError too. */
nlohmann::json readJsonFile(const std::string &path);

/** Human-readable name of a JSON value's type for error messages. */
std::string jsonTypeName(const nlohmann::json &value);

} // namespace cp::model
