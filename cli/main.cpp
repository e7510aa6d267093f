// SPDX-License-Identifier: GPL-3.0-or-later
// clusterplanner-cli: the command-line front end. It uses only the model library; built with
// CP_CLI_WITH_EXPORT the same main is clusterplanner-export, the helper that also has the export
// command (PDF through Qt), which clusterplanner-cli runs in its place for `export`.
#include "commands.h"

#include "model/catalog/catalogdatabase.h"
#include "model/catalog/catalogpaths.h"
#include "model/core/inputerror.h"

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <iostream>

#include <unistd.h>

namespace cp::cli {

const model::Catalog &CliContext::catalog()
{
    if (!m_catalog) {
        std::string notice;
        m_catalog = std::make_unique<model::Catalog>(
            model::openUserCatalog(databasePath, catalogDirectory, &notice));
        if (!notice.empty())
            std::cerr << "note: " << notice << "\n";
    }
    return *m_catalog;
}

std::vector<OptionSpec> withCommonOptions(std::vector<OptionSpec> specs)
{
    specs.push_back({"json", false, "print machine-readable JSON instead of a table"});
    specs.push_back({"db", true,
                     "catalog database (default: $CLUSTERPLANNER_DB or "
                     "~/.local/share/clusterplanner/catalog.sqlite)"});
    specs.push_back({"catalog-dir", true, "shipped catalog JSON directory used as the seed"});
    specs.push_back({"help", false, "show this help"});
    return specs;
}

void refuseToOverwriteInputs(const std::string &option, const std::string &output,
                             const std::vector<std::string> &inputs)
{
    for (const std::string &input : inputs) {
        std::error_code error;
        if (!input.empty() && std::filesystem::equivalent(output, input, error))
            throw UsageError(option + " " + output + " is " + input
                             + ", which this command reads: writing there would replace it; "
                               "give another file");
    }
}

} // namespace cp::cli

namespace {

const char *topUsage = R"(usage: clusterplanner-cli COMMAND [ARGS] [--json]

Commands:
  catalog list [gpus|nodes|nics|switches|storage|racks|facilities|models|datasets]
  catalog show ID
  catalog import FILE.json      add or replace entries (validated) in your catalog
  catalog export FILE.json      write your whole catalog as one document
  plan estimate PLAN.json       every estimate for a plan, with its bill of materials
  plan compare PLAN.json        the baseline and its scenarios side by side [--csv FILE]
  plan simulate PLAN.json       a year of the plan's job portfolio through its scheduler
                                [--years Y] [--seed N] [--policy fifo|backfill] [--trace F.swf]
  plan sweep PLAN.json --axis A --values V1,V2 [--out FILE]
                                add one scenario per value (gpu-count, gpu-type, nic,
                                oversubscription, precision, batch)
  export PLAN.json [--pdf FILE] [--csv FILE] [--bom-csv FILE] [--slurm DIR]
                                PDF report, comparison and bill-of-materials CSV (headless)
  train ...                     training time, communication, memory, MFU (train --help)
  infer ...                     inference latency, throughput and cost (infer --help)
  fabric ...                    fabric topology metrics (fabric --help)

  version                       the version and where the catalogs, samples and docs are read

Common options: --json, --db FILE, --catalog-dir DIR, --help
Exit status: 0 success, 1 error in a file or the catalog, 2 usage error or unknown id,
3 the configuration cannot work (does not fit, impossible layout).
)";

#ifndef CP_CLI_WITH_EXPORT
/**
 * Replaces this process with the export helper, given the same arguments: beside this program in
 * a build tree, in <prefix>/libexec/clusterplanner when installed. The helper is told where this
 * program found the shipped data (unless the environment already says), since from libexec its
 * own prefix search would not find it. Returns only when no helper could be run.
 */
int runExportHelper(char **argv)
{
    namespace fs = std::filesystem;
    std::error_code error;
    const fs::path self = fs::read_symlink("/proc/self/exe", error);
    const fs::path directory = error ? fs::path(".") : self.parent_path();
    const fs::path candidates[] = {
        directory / "clusterplanner-export",
        directory.parent_path() / "libexec" / "clusterplanner" / "clusterplanner-export",
    };
    setenv("CLUSTERPLANNER_CATALOG_DIR", cp::model::shippedCatalogDirectory().c_str(), 0);
    setenv("CLUSTERPLANNER_SAMPLES_DIR", cp::model::shippedSamplesDirectory().c_str(), 0);
    setenv("CLUSTERPLANNER_DOCS_DIR", cp::model::shippedDocsDirectory().c_str(), 0);
    std::string tried;
    for (const fs::path &helper : candidates) {
        if (!fs::exists(helper, error))
            continue;
        execv(helper.c_str(), argv);
        tried += "\n  " + helper.string() + ": " + std::strerror(errno);
    }
    std::cerr << "clusterplanner-cli export: cannot run the export helper clusterplanner-export"
              << (tried.empty() ? " (not found beside the program or in "
                          + candidates[1].parent_path().string() + ")"
                                : tried)
              << "\n";
    return cp::cli::ExitError;
}
#endif

} // namespace

int main(int argc, char **argv)
{
    using namespace cp::cli;
    std::vector<std::string> args(argv + 1, argv + argc);
    if (args.empty() || args[0] == "--help" || args[0] == "-h" || args[0] == "help") {
        std::cout << topUsage;
        return args.empty() ? ExitUsage : ExitOk;
    }
    if (args[0] == "--version" || args[0] == "version") {
        // Where this copy finds its data: an installed or relocated copy reads
        // <prefix>/share/clusterplanner, a build tree the source tree.
        std::cout << "clusterplanner-cli " CP_VERSION "\n"
                  << "catalogs: " << cp::model::shippedCatalogDirectory() << "\n"
                  << "samples:  " << cp::model::shippedSamplesDirectory() << "\n"
                  << "docs:     " << cp::model::shippedDocsDirectory() << "\n"
                  << "database: " << cp::model::defaultDatabasePath() << "\n";
        return ExitOk;
    }
    CliContext context;
    context.databasePath = cp::model::defaultDatabasePath();
    context.catalogDirectory = cp::model::shippedCatalogDirectory();
    // --db and --catalog-dir may appear anywhere; take them out before the subcommand parses.
    for (std::size_t i = 1; i < args.size();) {
        if ((args[i] == "--db" || args[i] == "--catalog-dir") && i + 1 < args.size()) {
            (args[i] == "--db" ? context.databasePath : context.catalogDirectory) = args[i + 1];
            args.erase(args.begin() + i, args.begin() + i + 2);
        } else if (args[i].rfind("--db=", 0) == 0) {
            context.databasePath = args[i].substr(5);
            args.erase(args.begin() + i);
        } else if (args[i].rfind("--catalog-dir=", 0) == 0) {
            context.catalogDirectory = args[i].substr(14);
            args.erase(args.begin() + i);
        } else {
            ++i;
        }
    }
    const std::string command = args[0];
    const std::vector<std::string> rest(args.begin() + 1, args.end());
    try {
        if (command == "catalog")
            return runCatalogCommand(context, rest, std::cout);
        if (command == "plan")
            return runPlanCommand(context, rest, std::cout);
        if (command == "train")
            return runTrainCommand(context, rest, std::cout);
        if (command == "infer")
            return runInferCommand(context, rest, std::cout);
        if (command == "fabric")
            return runFabricCommand(context, rest, std::cout);
#ifdef CP_CLI_WITH_EXPORT
        if (command == "export")
            return runExportCommand(context, rest, std::cout);
#else
        if (command == "export")
            return runExportHelper(argv);
#endif
        std::cerr << "clusterplanner-cli: unknown command '" << command
                  << "' (see 'clusterplanner-cli --help')\n";
        return ExitUsage;
    } catch (const UsageError &error) {
        std::cerr << "clusterplanner-cli " << command << ": " << error.what() << "\n";
        return ExitUsage;
    } catch (const cp::model::UnknownCatalogIdError &error) {
        std::cerr << "clusterplanner-cli " << command << ": " << error.what() << "\n";
        return ExitUsage;
    } catch (const InfeasibleError &error) {
        std::cerr << "clusterplanner-cli " << command << ": infeasible: " << error.what() << "\n";
        return ExitInfeasible;
    } catch (const cp::model::InputError &error) {
        std::cerr << "clusterplanner-cli " << command << ": " << error.what() << "\n";
        return ExitError;
    } catch (const std::exception &error) {
        std::cerr << "clusterplanner-cli " << command << ": error: " << error.what() << "\n";
        return ExitError;
    }
}
