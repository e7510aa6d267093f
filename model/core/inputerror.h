// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <stdexcept>
#include <string>

namespace cp::model {

/**
 * An error in something a user gave us: a catalog file, a plan file, a command-line value.
 * It names where (file and JSON pointer of the field, or the option) and why, so the message
 * alone is enough to fix the input.
 */
class InputError : public std::runtime_error
{
public:
    InputError(std::string file, std::string pointer, std::string reason);

    const std::string &file() const { return m_file; }
    const std::string &pointer() const { return m_pointer; }
    const std::string &reason() const { return m_reason; }

private:
    std::string m_file;
    std::string m_pointer;
    std::string m_reason;
};

} // namespace cp::model
