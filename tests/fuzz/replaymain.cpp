// SPDX-License-Identifier: GPL-3.0-or-later
// Replays files through the fuzz entry points without libFuzzer, so that ctest checks the seed
// corpus and every reproducer with the normal compiler:
//   cp_fuzz_replay TARGET PATH...   (TARGET: plan, catalog, scenario or validation; PATH: a file
//   or directory)
// A finding aborts (see fuzztargets.h); otherwise it prints how many files it ran.
#include "fuzztargets.h"

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

int main(int argc, char **argv)
{
    namespace fs = std::filesystem;
    if (argc < 3) {
        std::fprintf(stderr, "usage: %s plan|catalog|scenario|validation PATH...\n", argv[0]);
        return 2;
    }
    const std::string target = argv[1];
    void (*entry)(const std::uint8_t *, std::size_t) = target == "plan" ? cp::fuzz::planLoader
        : target == "catalog"                                           ? cp::fuzz::catalogImport
        : target == "scenario"                                          ? cp::fuzz::scenarioPatch
        : target == "validation"                                        ? cp::fuzz::validationTable
                                                                        : nullptr;
    if (!entry) {
        std::fprintf(stderr, "unknown target '%s'\n", argv[1]);
        return 2;
    }
    std::vector<fs::path> files;
    for (int i = 2; i < argc; ++i) {
        if (fs::is_directory(argv[i])) {
            for (const auto &item : fs::recursive_directory_iterator(argv[i]))
                if (item.is_regular_file())
                    files.push_back(item.path());
        } else if (fs::is_regular_file(argv[i])) {
            files.emplace_back(argv[i]);
        } else {
            std::fprintf(stderr, "no such file or directory: %s\n", argv[i]);
            return 2;
        }
    }
    std::sort(files.begin(), files.end());
    for (const fs::path &file : files) {
        std::ifstream in(file, std::ios::binary);
        const std::string bytes {std::istreambuf_iterator<char>(in),
                                 std::istreambuf_iterator<char>()};
        std::fprintf(stderr, "%s\n", file.string().c_str());
        entry(reinterpret_cast<const std::uint8_t *>(bytes.data()), bytes.size());
    }
    std::printf("%s: %zu files replayed, no findings\n", target.c_str(), files.size());
    return 0;
}
