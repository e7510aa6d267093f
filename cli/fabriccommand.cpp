// SPDX-License-Identifier: GPL-3.0-or-later
#include "commands.h"

#include <ostream>

namespace cp::cli {

int runFabricCommand(CliContext &context, const std::vector<std::string> &args, std::ostream &out)
{
    const auto specs = withCommonOptions({
        {"topology", true, "fat-tree|rail-fat-tree|dragonfly|torus"},
        {"endpoints", true, "endpoint count"},
        {"radix", true, "switch radix"},
        {"tiers", true, "2|3"},
        {"oversubscription", true, "ratio, e.g. 2 for 2:1"},
        {"a", true, "dragonfly routers per group"},
        {"p", true, "dragonfly endpoints per router"},
        {"h", true, "dragonfly global links per router"},
        {"groups", true, "dragonfly groups"},
        {"dims", true, "torus dimensions, e.g. 4x4x4"},
        {"link", true, "NIC/link id"},
    });
    const ParsedArguments a = parseArguments(args, specs, "fabric");
    if (a.has("help")) {
        out << usageText("clusterplanner-cli fabric --topology T [options]", specs);
        return ExitOk;
    }
    a.choice("topology", {"fat-tree", "rail-fat-tree", "dragonfly", "torus"});
    a.integer("endpoints", 1, 1 << 24);
    a.integer("radix", 2, 4096);
    a.integer("tiers", 2, 3);
    a.number("oversubscription", 1.0, 64.0);
    if (auto link = a.value("link"))
        context.catalog().nic(*link);
    throw std::runtime_error("the fabric engine is not part of this version yet");
}

} // namespace cp::cli
