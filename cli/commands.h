// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "argumentparser.h"

#include "model/catalog/catalog.h"

#include <iosfwd>
#include <memory>
#include <string>
#include <vector>

namespace cp::cli {

/** Exit statuses: documented in the README and `--help`. */
enum ExitStatus { ExitOk = 0, ExitError = 1, ExitUsage = 2, ExitInfeasible = 3 };

/** A configuration that cannot work (does not fit, impossible layout). Exit status 3. */
class InfeasibleError : public std::runtime_error
{
public:
    using std::runtime_error::runtime_error;
};

/** What every subcommand shares: where the catalog lives, and the loaded catalog. */
class CliContext
{
public:
    std::string databasePath;
    std::string catalogDirectory;
    const model::Catalog &catalog();

private:
    std::unique_ptr<model::Catalog> m_catalog;
};

/** Options every subcommand accepts. */
std::vector<OptionSpec> withCommonOptions(std::vector<OptionSpec> specs);

/**
 * Refuses (UsageError, exit 2) to write `option`'s ("--pdf") `output` where it is one of the files
 * being read (the plan, the catalog database), through any path or link to it: `export p.json --pdf
 * p.json` would put a PDF where the plan was.
 */
void refuseToOverwriteInputs(const std::string &option, const std::string &output,
                             const std::vector<std::string> &inputs);

int runCatalogCommand(CliContext &context, const std::vector<std::string> &args, std::ostream &out);
int runPlanCommand(CliContext &context, const std::vector<std::string> &args, std::ostream &out);
int runTrainCommand(CliContext &context, const std::vector<std::string> &args, std::ostream &out);
int runInferCommand(CliContext &context, const std::vector<std::string> &args, std::ostream &out);
int runFabricCommand(CliContext &context, const std::vector<std::string> &args, std::ostream &out);
/** PDF and CSV export; the only command that links the views library (exportcommand.cpp). */
int runExportCommand(CliContext &context, const std::vector<std::string> &args, std::ostream &out);

} // namespace cp::cli
