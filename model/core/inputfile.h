// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <cstdint>
#include <string>

namespace cp::model {

/** The largest JSON file (plan, catalog, validation table) read: parsed in about a second. */
inline constexpr std::uintmax_t maxJsonFileBytes = 64ull << 20;

/** The largest scheduler trace read: some 20 million jobs, the most one simulation takes. */
inline constexpr std::uintmax_t maxTraceFileBytes = 1ull << 30;

/**
 * The whole of the regular file at `path`, refused before it is read, with an InputError naming
 * the file and why, when it is missing, a directory or a device (/dev/zero never ends), or larger
 * than `maxBytes`.
 */
std::string readInputFile(const std::string &path, std::uintmax_t maxBytes);

} // namespace cp::model
