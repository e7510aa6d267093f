// SPDX-License-Identifier: GPL-3.0-or-later
#include "model/atomicfile.h"

#include "model/inputerror.h"

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <fcntl.h>
#include <filesystem>
#include <sys/stat.h>
#include <unistd.h>

namespace cp::model {

void writeFileAtomically(const std::string &path, const std::string &contents)
{
    namespace fs = std::filesystem;
    const fs::path target(path);
    const fs::path directory = target.has_parent_path() ? target.parent_path() : fs::path(".");
    std::string pattern = (directory / ("." + target.filename().string() + ".XXXXXX")).string();

    const int fd = ::mkstemp(pattern.data());
    if (fd < 0)
        throw InputError(path, "",
                         std::string("cannot create a temporary file: ") + std::strerror(errno));

    auto failWith = [&](const char *step) {
        const std::string reason = std::string(step) + ": " + std::strerror(errno);
        ::close(fd);
        ::unlink(pattern.c_str());
        throw InputError(path, "", reason);
    };

    std::size_t written = 0;
    while (written < contents.size()) {
        const ssize_t n = ::write(fd, contents.data() + written, contents.size() - written);
        if (n < 0) {
            if (errno == EINTR)
                continue;
            failWith("write failed");
        }
        written += static_cast<std::size_t>(n);
    }
    if (::fsync(fd) != 0)
        failWith("fsync failed");
    // mkstemp creates 0600; a saved plan should get the usual permissions of a user file.
    ::fchmod(fd, 0644);
    if (::close(fd) != 0) {
        const std::string reason = std::string("close failed: ") + std::strerror(errno);
        ::unlink(pattern.c_str());
        throw InputError(path, "", reason);
    }
    if (std::rename(pattern.c_str(), path.c_str()) != 0) {
        const std::string reason = std::string("rename failed: ") + std::strerror(errno);
        ::unlink(pattern.c_str());
        throw InputError(path, "", reason);
    }
}

} // namespace cp::model
