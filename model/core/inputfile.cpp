// SPDX-License-Identifier: GPL-3.0-or-later
#include "model/core/inputfile.h"

#include "model/core/humantext.h"
#include "model/core/inputerror.h"

#include <filesystem>
#include <fstream>
#include <sstream>

namespace cp::model {

std::string readInputFile(const std::string &path, std::uintmax_t maxBytes)
{
    std::error_code error;
    const std::filesystem::file_status status = std::filesystem::status(path, error);
    if (error || !std::filesystem::exists(status))
        throw InputError(path, "", "cannot open the file for reading: it does not exist");
    if (std::filesystem::is_directory(status))
        throw InputError(path, "", "is a directory, not a file");
    if (!std::filesystem::is_regular_file(status))
        throw InputError(path, "", "is not a regular file (a device, pipe or socket)");
    const std::uintmax_t size = std::filesystem::file_size(path, error);
    if (!error && size > maxBytes)
        throw InputError(path, "",
                         "is " + groupedCount(static_cast<long long>(size))
                             + " bytes, more than the "
                             + groupedCount(static_cast<long long>(maxBytes)) + " read at most");
    std::ifstream in(path, std::ios::binary);
    if (!in)
        throw InputError(path, "", "cannot open the file for reading");
    std::ostringstream buffer;
    buffer << in.rdbuf();
    if (in.bad())
        throw InputError(path, "", "read error");
    return buffer.str();
}

} // namespace cp::model
