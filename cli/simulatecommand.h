// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "argumentparser.h"
#include "commands.h"

#include "model/catalog/catalog.h"
#include "model/plan/plan.h"

#include <filesystem>
#include <ostream>
#include <string>

namespace cp::cli {

/** `plan simulate PLAN.json [--years Y] [--seed N] [--policy fifo|backfill] [--trace F.swf]`;
 * `planPath` names the file in errors about one of its entries. */
int runPlanSimulate(const ParsedArguments &a, const std::string &planPath, const model::Plan &plan,
                    const model::Catalog &catalog, std::ostream &out);

/** `export --slurm DIR`: slurm.conf (nodes, partition) and topology.conf in DIR. */
void writeSlurmConfiguration(const model::Plan &plan, const model::Catalog &catalog,
                             const std::string &directory, std::ostream &out);

} // namespace cp::cli
