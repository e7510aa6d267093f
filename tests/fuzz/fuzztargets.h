// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>

namespace cp::fuzz {

/**
 * The fuzzed entry points, shared by the libFuzzer targets (built with -DCP_FUZZ=ON and clang)
 * and the plain replay driver that ctest runs over the corpus and the reproducers. Each takes
 * arbitrary bytes. A rejection the program reports to the user (InputError) is a normal outcome;
 * anything else (another exception, a broken round trip, a non-finite figure that was accepted)
 * is a finding and calls fail(), which aborts, so the fuzzer saves the input and ctest fails.
 */

/** Plan loader: parse, then save -> reload -> save must give the same bytes. */
void planLoader(const std::uint8_t *data, std::size_t size);
/** Catalog parser and database import into an empty in-memory database. */
void catalogImport(const std::uint8_t *data, std::size_t size);
/** A scenario's `changes`: the merge patch applied to the shipped H100 sample plan. */
void scenarioPatch(const std::uint8_t *data, std::size_t size);

/** A published-runs table (catalogs/validation/): every row estimated, the report rendered. */
void validationTable(const std::uint8_t *data, std::size_t size);

[[noreturn]] void fail(const std::string &what);

} // namespace cp::fuzz
