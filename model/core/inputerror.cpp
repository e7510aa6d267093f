// SPDX-License-Identifier: GPL-3.0-or-later
#include "model/core/inputerror.h"

namespace cp::model {

namespace {
std::string composeMessage(const std::string &file, const std::string &pointer,
                           const std::string &reason)
{
    std::string message = file.empty() ? std::string("<input>") : file;
    if (!pointer.empty())
        message += ": " + pointer;
    message += ": " + reason;
    return message;
}
} // namespace

InputError::InputError(std::string file, std::string pointer, std::string reason)
    : std::runtime_error(composeMessage(file, pointer, reason))
    , m_file(std::move(file))
    , m_pointer(std::move(pointer))
    , m_reason(std::move(reason))
{ }

} // namespace cp::model
