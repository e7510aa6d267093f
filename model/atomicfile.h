// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <string>

namespace cp::model {

/**
 * Writes `contents` to `path` so that the file is either the old one or the complete new one:
 * the bytes go to a temporary file in the same directory, are flushed to disk, and the temporary
 * file is renamed over the target (rename(2) is atomic within one file system). On any failure
 * the temporary file is removed, the old file is untouched, and an InputError names the path.
 */
void writeFileAtomically(const std::string &path, const std::string &contents);

} // namespace cp::model
