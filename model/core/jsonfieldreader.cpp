// SPDX-License-Identifier: GPL-3.0-or-later
#include "model/core/jsonfieldreader.h"

#include "model/core/inputerror.h"
#include "model/core/inputfile.h"

#include <cmath>
#include <fstream>
#include <limits>
#include <set>
#include <sstream>
#include <type_traits>

namespace cp::model {

std::string escapeJsonPointerToken(std::string_view token)
{
    std::string escaped;
    for (char c : token) {
        if (c == '~')
            escaped += "~0";
        else if (c == '/')
            escaped += "~1";
        else
            escaped += c;
    }
    return escaped;
}

std::string jsonTypeName(const nlohmann::json &value)
{
    if (value.is_number())
        return "a number";
    if (value.is_string())
        return "a string";
    if (value.is_boolean())
        return "a boolean";
    if (value.is_null())
        return "null";
    if (value.is_array())
        return "an array";
    return "an object";
}

namespace {

/**
 * 1-based byte offset of the bracket that opens nesting level `limit + 1`, or 0 when the text
 * stays within the limit. Brackets inside strings do not count. Runs before the parser, so a
 * document too deep for the recursive copies and dumps done later is never built at all.
 */
std::size_t tooDeepAt(const std::string &text, int limit)
{
    int depth = 0;
    bool inString = false;
    for (std::size_t i = 0; i < text.size(); ++i) {
        const char c = text[i];
        if (inString) {
            if (c == '\\')
                ++i; // the escaped character cannot end the string
            else if (c == '"')
                inString = false;
        } else if (c == '"') {
            inString = true;
        } else if (c == '[' || c == '{') {
            if (++depth > limit)
                return i + 1;
        } else if (c == ']' || c == '}') {
            --depth;
        }
    }
    return 0;
}

/**
 * nlohmann's DOM builder, with the JSON pointer of the value being read tracked alongside, so that
 * a value the library cannot represent (a number like 1e400) is reported with its field and byte
 * offset instead of escaping as a bare "[json.exception.out_of_range.406]".
 */
class LocatingDomParser
{
public:
    using json = nlohmann::json;

    LocatingDomParser(json &result, const std::string &file)
        : m_dom(result, true)
        , m_file(file)
    { }

    bool null()
    {
        valueRead();
        return m_dom.null();
    }
    bool boolean(bool value)
    {
        valueRead();
        return m_dom.boolean(value);
    }
    bool number_integer(json::number_integer_t value)
    {
        valueRead();
        return m_dom.number_integer(value);
    }
    bool number_unsigned(json::number_unsigned_t value)
    {
        valueRead();
        return m_dom.number_unsigned(value);
    }
    bool number_float(json::number_float_t value, const json::string_t &text)
    {
        valueRead();
        return m_dom.number_float(value, text);
    }
    bool string(json::string_t &value)
    {
        valueRead();
        return m_dom.string(value);
    }
    bool binary(json::binary_t &value)
    {
        valueRead();
        return m_dom.binary(value);
    }
    bool start_object(std::size_t elements)
    {
        m_frames.push_back({true, {}, 0});
        return m_dom.start_object(elements);
    }
    bool key(json::string_t &key)
    {
        Frame &frame = m_frames.back();
        frame.key = key;
        // The library keeps the last of two equal keys: a value would be lost without a word.
        if (!frame.keys.insert(key).second)
            throw InputError(m_file, pointer(),
                             "duplicate key: the object names \"" + key + "\" twice; keep one");
        return m_dom.key(key);
    }
    bool end_object()
    {
        m_frames.pop_back();
        valueRead();
        return m_dom.end_object();
    }
    bool start_array(std::size_t elements)
    {
        m_frames.push_back({false, {}, 0});
        return m_dom.start_array(elements);
    }
    bool end_array()
    {
        m_frames.pop_back();
        valueRead();
        return m_dom.end_array();
    }

    template<class Exception>
    bool parse_error(std::size_t position, const std::string &token, const Exception &error)
    {
        if constexpr (std::is_same_v<Exception, json::out_of_range>) {
            // `position` is the last byte read, the token's last character: name its first.
            const std::size_t first = position >= token.size() ? position - token.size() + 1 : 1;
            throw InputError(m_file, pointer(),
                             "the number " + token + " (byte " + std::to_string(first)
                                 + ") is beyond what a double can hold");
        }
        std::string what = error.what();
        // nlohmann's message starts with "[json.exception.parse_error.101] "; the rest is useful.
        const auto bracket = what.find("] ");
        if (bracket != std::string::npos)
            what = what.substr(bracket + 2);
        throw InputError(m_file, "",
                         "not valid JSON (byte " + std::to_string(position) + "): " + what);
    }

private:
    struct Frame
    {
        bool object;
        std::string key;
        std::size_t index;
        std::set<std::string> keys {}; ///< an object's keys so far
    };

    // A value in an array is done: the next one has the next index.
    void valueRead()
    {
        if (!m_frames.empty() && !m_frames.back().object)
            ++m_frames.back().index;
    }

    std::string pointer() const
    {
        std::string result;
        for (const Frame &frame : m_frames)
            result += "/"
                + (frame.object ? escapeJsonPointerToken(frame.key) : std::to_string(frame.index));
        return result;
    }

    nlohmann::detail::json_sax_dom_parser<json> m_dom;
    const std::string &m_file;
    std::vector<Frame> m_frames;
};

} // namespace

nlohmann::json parseJsonText(const std::string &text, const std::string &file)
{
    if (const std::size_t at = tooDeepAt(text, maxJsonNestingDepth))
        throw InputError(file, "",
                         "nests arrays and objects deeper than "
                             + std::to_string(maxJsonNestingDepth) + " levels (byte "
                             + std::to_string(at) + ")");
    nlohmann::json result;
    LocatingDomParser parser(result, file);
    try {
        nlohmann::json::sax_parse(text, &parser);
    } catch (const nlohmann::json::exception &error) {
        // Anything else the library throws still names the file, never a bare library message.
        throw InputError(file, "", std::string("cannot read the JSON: ") + error.what());
    }
    return result;
}

nlohmann::json readJsonFile(const std::string &path)
{
    return parseJsonText(readInputFile(path, maxJsonFileBytes), path);
}

JsonFieldReader::JsonFieldReader(const nlohmann::json &object, std::string file,
                                 std::string pointer)
    : m_object(object)
    , m_file(std::move(file))
    , m_pointer(std::move(pointer))
{
    if (!m_object.is_object())
        throw InputError(m_file, m_pointer.empty() ? "/" : m_pointer,
                         "expected an object, found " + jsonTypeName(m_object));
}

std::string JsonFieldReader::childPointer(std::string_view key) const
{
    return m_pointer + "/" + escapeJsonPointerToken(key);
}

bool JsonFieldReader::has(std::string_view key) const
{
    return m_object.contains(std::string(key));
}

void JsonFieldReader::fail(std::string_view key, const std::string &reason) const
{
    throw InputError(m_file, key.empty() ? m_pointer : childPointer(key), reason);
}

const nlohmann::json *JsonFieldReader::find(std::string_view key)
{
    m_seen.emplace(key);
    const auto it = m_object.find(std::string(key));
    return it == m_object.end() ? nullptr : &*it;
}

void JsonFieldReader::accept(std::string_view key)
{
    m_seen.emplace(key);
}

std::optional<double> JsonFieldReader::optionalNumber(std::string_view key, NumberRange range)
{
    const nlohmann::json *value = find(key);
    if (!value)
        return std::nullopt;
    if (!value->is_number())
        fail(key, "expected a number, found " + jsonTypeName(*value));
    const double number = value->get<double>();
    if (!std::isfinite(number))
        fail(key, "must be a finite number");
    if (range.exclusiveMin ? number <= range.min : number < range.min) {
        std::ostringstream reason;
        reason << "must be " << (range.exclusiveMin ? "greater than " : "at least ") << range.min
               << ", found " << number;
        fail(key, reason.str());
    }
    if (range.exclusiveMin && range.min == 0.0 && number < minPositiveJsonFigure) {
        std::ostringstream reason;
        reason << "must be greater than 0 and at least " << minPositiveJsonFigure << ", found "
               << number << " (a smaller figure makes the estimates overflow)";
        fail(key, reason.str());
    }
    if (number > range.max) {
        std::ostringstream reason;
        reason << "must be at most " << range.max << ", found " << number;
        fail(key, reason.str());
    }
    return number;
}

double JsonFieldReader::number(std::string_view key, NumberRange range)
{
    if (!has(key))
        fail(key, "required number is missing");
    return *optionalNumber(key, range);
}

std::optional<long long> JsonFieldReader::optionalLargeInteger(std::string_view key, long long min,
                                                               long long max)
{
    const nlohmann::json *value = find(key);
    if (!value)
        return std::nullopt;
    if (!value->is_number_integer())
        fail(key,
             "expected an integer, found "
                 + (value->is_number() ? value->dump() : jsonTypeName(*value)));
    // An unsigned value above a long long's range would wrap to a negative number.
    const bool tooLarge = value->is_number_unsigned()
        && value->get<unsigned long long>()
            > static_cast<unsigned long long>(std::numeric_limits<long long>::max());
    const long long number = tooLarge ? 0 : value->get<long long>();
    if (tooLarge || number < min || number > max)
        fail(key,
             "must be between " + std::to_string(min) + " and " + std::to_string(max) + ", found "
                 + value->dump());
    return number;
}

long long JsonFieldReader::largeInteger(std::string_view key, long long min, long long max)
{
    if (!has(key))
        fail(key, "required integer is missing");
    return *optionalLargeInteger(key, min, max);
}

std::optional<int> JsonFieldReader::optionalInteger(std::string_view key, int min, int max)
{
    const std::optional<long long> number = optionalLargeInteger(key, min, max);
    if (!number)
        return std::nullopt;
    return static_cast<int>(*number);
}

int JsonFieldReader::integer(std::string_view key, int min, int max)
{
    if (!has(key))
        fail(key, "required integer is missing");
    return *optionalInteger(key, min, max);
}

std::optional<std::string> JsonFieldReader::optionalString(std::string_view key)
{
    const nlohmann::json *value = find(key);
    if (!value)
        return std::nullopt;
    if (!value->is_string())
        fail(key, "expected a string, found " + jsonTypeName(*value));
    return value->get<std::string>();
}

std::string JsonFieldReader::string(std::string_view key)
{
    if (!has(key))
        fail(key, "required string is missing");
    std::string value = *optionalString(key);
    if (value.empty())
        fail(key, "must not be empty");
    return value;
}

std::optional<std::string> JsonFieldReader::optionalChoice(std::string_view key,
                                                           const std::vector<std::string> &allowed)
{
    auto value = optionalString(key);
    if (!value)
        return std::nullopt;
    for (const auto &candidate : allowed) {
        if (candidate == *value)
            return value;
    }
    std::string list;
    for (const auto &candidate : allowed)
        list += (list.empty() ? "" : ", ") + candidate;
    fail(key, "'" + *value + "' is not one of: " + list);
}

std::string JsonFieldReader::choice(std::string_view key, const std::vector<std::string> &allowed)
{
    if (!has(key))
        fail(key, "required field is missing");
    return *optionalChoice(key, allowed);
}

std::optional<bool> JsonFieldReader::optionalBool(std::string_view key)
{
    const nlohmann::json *value = find(key);
    if (!value)
        return std::nullopt;
    if (!value->is_boolean())
        fail(key, "expected true or false, found " + jsonTypeName(*value));
    return value->get<bool>();
}

const nlohmann::json *JsonFieldReader::optionalObject(std::string_view key)
{
    const nlohmann::json *value = find(key);
    if (value && !value->is_object())
        fail(key, "expected an object, found " + jsonTypeName(*value));
    return value;
}

const nlohmann::json &JsonFieldReader::object(std::string_view key)
{
    const nlohmann::json *value = optionalObject(key);
    if (!value)
        fail(key, "required object is missing");
    return *value;
}

const nlohmann::json *JsonFieldReader::optionalArray(std::string_view key)
{
    const nlohmann::json *value = find(key);
    if (value && !value->is_array())
        fail(key, "expected an array, found " + jsonTypeName(*value));
    return value;
}

const nlohmann::json &JsonFieldReader::array(std::string_view key)
{
    const nlohmann::json *value = optionalArray(key);
    if (!value)
        fail(key, "required array is missing");
    return *value;
}

void JsonFieldReader::finish() const
{
    for (auto it = m_object.begin(); it != m_object.end(); ++it) {
        if (!m_seen.contains(it.key()))
            fail(it.key(), "unknown field (misspelt, or not supported by this version)");
    }
}

} // namespace cp::model
