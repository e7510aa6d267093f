// SPDX-License-Identifier: GPL-3.0-or-later
#include "model/core/atomicfile.h"

#include "model/core/inputerror.h"

#include <cctype>
#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <fcntl.h>
#include <filesystem>
#include <sys/stat.h>
#include <unistd.h>

namespace cp::model {

namespace fs = std::filesystem;

namespace {

constexpr const char *temporarySuffix = "XXXXXX";

/**
 * The file a save must replace: a symbolic link is followed to its target (also a dangling one),
 * so that saving through a link updates the file it points to and keeps the link. Loops stop
 * after 40 links, as the kernel's own lookup does.
 */
fs::path resolveLinks(fs::path path)
{
    for (int hops = 0; hops < 40; ++hops) {
        std::error_code error;
        if (!fs::is_symlink(fs::symlink_status(path, error)))
            return path;
        const fs::path target = fs::read_symlink(path, error);
        if (error)
            return path;
        path = target.is_absolute() ? target : path.parent_path() / target;
    }
    throw InputError(path.string(), "", "too many levels of symbolic links");
}

/** The process's umask; reading it means setting it, so it is set back at once. */
mode_t currentUmask()
{
    const mode_t mask = ::umask(022);
    ::umask(mask);
    return mask;
}

/** True for a name mkstemp made from ".NAME.XXXXXX": the prefix ".NAME." and six letters or digits.
 */
bool isOwnTemporary(const std::string &name, const std::string &prefix)
{
    if (name.size() != prefix.size() + 6 || name.compare(0, prefix.size(), prefix) != 0)
        return false;
    for (std::size_t i = prefix.size(); i < name.size(); ++i) {
        const unsigned char c = static_cast<unsigned char>(name[i]);
        if (!std::isalnum(c))
            return false;
    }
    return true;
}

/**
 * Removes the temporaries an earlier save of this file left behind when it was killed between
 * mkstemp and rename. Only names of our own pattern count, and only those untouched for a
 * minute: a save writes within milliseconds, so a younger one may belong to a save under way in
 * another process.
 */
void removeStaleTemporaries(const fs::path &directory, const std::string &prefix)
{
    std::error_code error;
    const auto now = fs::file_time_type::clock::now();
    for (fs::directory_iterator it(directory, error), end; !error && it != end;
         it.increment(error)) {
        const std::string name = it->path().filename().string();
        if (!isOwnTemporary(name, prefix))
            continue;
        std::error_code itemError;
        if (!fs::is_regular_file(fs::symlink_status(it->path(), itemError)))
            continue;
        const auto modified = fs::last_write_time(it->path(), itemError);
        if (!itemError && now - modified > std::chrono::minutes(1))
            fs::remove(it->path(), itemError);
    }
}

} // namespace

void writeFileAtomically(const std::string &path, const std::string &contents)
{
    const fs::path target = resolveLinks(fs::path(path));
    const fs::path directory = target.has_parent_path() ? target.parent_path() : fs::path(".");
    const std::string prefix = "." + target.filename().string() + ".";
    removeStaleTemporaries(directory, prefix);
    std::string pattern = (directory / (prefix + temporarySuffix)).string();

    // The new file gets the old one's permissions (a 0600 plan stays private); a new file gets
    // what open(2) would give it, 0666 less the umask. mkstemp itself always creates 0600.
    struct stat existing = {};
    const bool exists = ::stat(target.c_str(), &existing) == 0;
    const mode_t mode = exists ? static_cast<mode_t>(existing.st_mode & 07777)
                               : static_cast<mode_t>(0666 & ~currentUmask());
    // Renaming over a file needs only the directory's permission: a read-only file was replaced
    // (its mode kept, so it looked untouched). Refused as writing it in place would be, and as
    // editors do for a file without its owner's write bit, whoever saves.
    if (exists && ((mode & S_IWUSR) == 0 || ::access(target.c_str(), W_OK) != 0)) {
        char octal[8];
        std::snprintf(octal, sizeof octal, "%04o", static_cast<unsigned>(mode));
        throw InputError(path, "",
                         std::string("the file is read-only (mode ") + octal
                             + "): save it under another name, or make it writable first");
    }

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
    // A file system without Unix permissions refuses this; the file then keeps mkstemp's 0600,
    // the safe side, rather than the save failing.
    (void)::fchmod(fd, mode);
    if (::fsync(fd) != 0)
        failWith("fsync failed");
    if (::close(fd) != 0) {
        const std::string reason = std::string("close failed: ") + std::strerror(errno);
        ::unlink(pattern.c_str());
        throw InputError(path, "", reason);
    }
    if (std::rename(pattern.c_str(), target.c_str()) != 0) {
        const std::string reason = std::string("rename failed: ") + std::strerror(errno);
        ::unlink(pattern.c_str());
        throw InputError(path, "", reason);
    }
    // The rename is only durable once the directory entry is on disk too. File systems that
    // cannot sync a directory (EINVAL) have nothing to flush; any other failure is reported.
    const int directoryFd = ::open(directory.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (directoryFd >= 0) {
        const bool synced = ::fsync(directoryFd) == 0 || errno == EINVAL;
        const int error = errno;
        ::close(directoryFd);
        if (!synced)
            throw InputError(path, "",
                             std::string("saved, but the directory could not be synced: ")
                                 + std::strerror(error));
    }
}

} // namespace cp::model
