// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <string>

namespace cp::model {

/**
 * Writes `contents` to `path` so that the file is either the old one or the complete new one:
 * the bytes go to a temporary file in the same directory, are flushed to disk, and the temporary
 * file is renamed over the target (rename(2) is atomic within one file system). On any failure
 * the temporary file is removed, the old file is untouched, and an InputError names the path.
 * The file keeps its permissions (a new one gets 0666 less the umask), and a read-only one (no
 * write bit for its owner, or not writable by this user) is refused, not replaced; a symbolic
 * link is followed
 * and its target replaced, so the link stays; the directory is synced after the rename, so the
 * new name survives a crash; temporaries left by a killed save (".NAME.XXXXXX", over a minute
 * old) are removed by the next save of that file.
 */
void writeFileAtomically(const std::string &path, const std::string &contents);

} // namespace cp::model
